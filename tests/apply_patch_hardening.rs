//! apply-patch under attack: symlinked files deleted or moved, modes across a move, a restore
//! after a failed write, binary files with the freshness gate on, and a timeout that fires
//! while files are being written (spec 04 "Applying", spec 01 "File layer").

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::time::Instant;

mod apply_patch_common;
use apply_patch_common::{agtool, lock_dir, patch, read, unlock_dir, workspace};

/// Runs apply-patch with `text` on stdin; returns (exit status, stdout).
fn apply(root: &Path, text: &str) -> (i32, String) {
    let out = agtool(root)
        .arg("apply-patch")
        .write_stdin(text.to_owned())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn deleting_a_symlink_removes_the_link_not_the_file_it_points_to() {
    let (_t, root) = workspace(&[("sub/real.txt", "keep me\n")]);
    symlink("sub/real.txt", root.join("link.txt")).unwrap();
    read(&root, "link.txt");
    let (code, out) = apply(&root, &patch("*** Delete File: link.txt\n"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("D link.txt"), "{out}");
    assert!(!is_link(&root.join("link.txt")), "the link is still there");
    assert_eq!(
        std::fs::read_to_string(root.join("sub/real.txt")).unwrap(),
        "keep me\n",
        "the file the link points to was deleted"
    );
}

#[test]
fn moving_a_symlink_removes_the_link_and_keeps_the_file_it_points_to() {
    let (_t, root) = workspace(&[("real.txt", "one\n")]);
    symlink("real.txt", root.join("link.txt")).unwrap();
    read(&root, "link.txt");
    let (code, out) = apply(
        &root,
        &patch("*** Update File: link.txt\n*** Move to: moved.txt\n-one\n+two\n"),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(root.join("moved.txt")).unwrap(),
        "two\n"
    );
    assert!(!is_link(&root.join("link.txt")), "the link is still there");
    assert_eq!(
        std::fs::read_to_string(root.join("real.txt")).unwrap(),
        "one\n"
    );
}

#[test]
fn a_restore_puts_back_a_deleted_symlink_as_a_link() {
    let (_t, root) = workspace(&[("real.txt", "r\n"), ("locked/b.txt", "b\n")]);
    symlink("real.txt", root.join("link.txt")).unwrap();
    read(&root, "link.txt");
    read(&root, "locked/b.txt");
    if !lock_dir(&root.join("locked")) {
        unlock_dir(&root.join("locked"));
        eprintln!("skipped: cannot make a directory refuse writes here");
        return;
    }
    let (code, out) = apply(
        &root,
        &patch("*** Delete File: link.txt\n*** Update File: locked/b.txt\n-b\n+B\n"),
    );
    unlock_dir(&root.join("locked"));
    assert_eq!(code, 1, "{out}");
    // The journal makes every temp file before any target changes: the locked folder fails
    // the patch while nothing has been touched yet.
    assert!(out.contains("nothing was changed"), "{out}");
    assert!(is_link(&root.join("link.txt")), "the link was not restored");
    assert_eq!(
        std::fs::read_link(root.join("link.txt")).unwrap(),
        Path::new("real.txt")
    );
    assert_eq!(
        std::fs::read_to_string(root.join("real.txt")).unwrap(),
        "r\n"
    );
}

#[test]
fn a_moved_file_keeps_its_permission_bits() {
    let (_t, root) = workspace(&[("run.sh", "#!/bin/sh\necho 1\n")]);
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o750)).unwrap();
    read(&root, "run.sh");
    let (code, out) = apply(
        &root,
        &patch(
            "*** Update File: run.sh\n*** Move to: bin/deep/run.sh\n #!/bin/sh\n-echo 1\n+echo 2\n",
        ),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(mode(&root.join("bin/deep/run.sh")), 0o750);
}

#[test]
fn a_restore_removes_the_folders_it_created() {
    let (_t, root) = workspace(&[("a.txt", "a\n"), ("locked/b.txt", "b\n")]);
    read(&root, "a.txt");
    read(&root, "locked/b.txt");
    if !lock_dir(&root.join("locked")) {
        unlock_dir(&root.join("locked"));
        eprintln!("skipped: cannot make a directory refuse writes here");
        return;
    }
    let (code, out) = apply(
        &root,
        &patch(
            "*** Update File: a.txt\n-a\n+A\n*** Add File: new/deep/n.txt\n+n\n\
             *** Update File: locked/b.txt\n-b\n+B\n",
        ),
    );
    unlock_dir(&root.join("locked"));
    assert_eq!(code, 1, "{out}");
    // The journal makes every temp file before any target changes: the locked folder fails
    // the patch while nothing has been touched yet.
    assert!(out.contains("nothing was changed"), "{out}");
    assert!(!root.join("new").exists(), "new/ was left behind");
    assert_eq!(std::fs::read_to_string(root.join("a.txt")).unwrap(), "a\n");
}

#[test]
fn updating_a_binary_file_says_it_is_binary_even_with_the_freshness_gate_on() {
    let (_t, root) = workspace(&[("bin.dat", "abc\0def\n")]);
    // read-file refuses a binary file, so no read can ever satisfy the gate: the refusal must
    // name the real obstacle instead of asking for a read.
    agtool(&root)
        .args(["read-file", "bin.dat"])
        .assert()
        .code(1);
    let (code, out) = apply(&root, &patch("*** Update File: bin.dat\n@@\n-abc\n+xyz\n"));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("Error: bin.dat is a binary file (8 bytes)"),
        "{out}"
    );
    assert_eq!(std::fs::read(root.join("bin.dat")).unwrap(), b"abc\0def\n");
}

/// apply-patch without the freshness gate (the files need no read), with `args`.
fn apply_unread(root: &Path, text: &str, args: &[&str]) -> (i32, String) {
    let out = agtool(root)
        .args(["apply-patch", "--no-freshness"])
        .args(args)
        .write_stdin(text.to_owned())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// How many of `files` hold `want`.
fn count_holding(root: &Path, files: &[String], want: &str) -> usize {
    files
        .iter()
        .filter(|f| std::fs::read_to_string(root.join(f)).unwrap() == want)
        .count()
}

/// A timeout that fires while the files are being written must not leave the patch half
/// applied: either every file changed, or none did and the output says it timed out.
#[test]
fn a_timeout_during_the_writes_never_leaves_a_patch_half_applied() {
    const FILES: usize = 150;
    let names: Vec<String> = (0..FILES).map(|i| format!("f{i:03}.txt")).collect();
    let mut body = String::new();
    for name in &names {
        body.push_str(&format!("*** Update File: {name}\n-old\n+new\n"));
    }
    let text = patch(&body);
    let setup = || {
        let (t, root) = workspace(&[]);
        for name in &names {
            std::fs::write(root.join(name), "old\n").unwrap();
        }
        (t, root)
    };
    // One run without a timeout gives the time the whole call takes here.
    let (_t, root) = setup();
    let started = Instant::now();
    let (code, out) = apply_unread(&root, &text, &[]);
    let full_ms = started.elapsed().as_millis() as u64;
    assert_eq!(code, 0, "{out}");
    // Timeouts spread over the call: most fire while files are being written.
    for percent in [30, 50, 70, 90] {
        let (_t, root) = setup();
        let timeout = (full_ms * percent / 100).max(1).to_string();
        let (code, stdout) = apply_unread(&root, &text, &["--timeout-ms", &timeout]);
        let changed = count_holding(&root, &names, "new\n");
        match Some(code) {
            Some(0) => assert_eq!(changed, FILES, "{stdout}"),
            Some(124) => assert_eq!(changed, 0, "timed out at {timeout} ms: {stdout}"),
            other => panic!("exit {other:?}: {stdout}"),
        }
    }
}
