//! move-path, copy-path and make-dir through the real binary (spec 03, "move-path,
//! copy-path, make-dir"; issue 9): what each does, every refusal (with the workspace and a
//! folder outside it unchanged), freshness records following a moved file, moves across
//! filesystems, and SIGKILL at random moments of a cross-filesystem folder move and of a
//! recursive copy.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Run, Ws};
use serde_json::json;

/// What a folder holds, for before/after comparisons: relative path → kind, bytes or link
/// text, mode. Symlinks are never followed; `.agent-state` is left out.
type Snapshot = BTreeMap<String, (char, Vec<u8>, u32)>;

fn snapshot(dir: &Path) -> Snapshot {
    fn walk(root: &Path, rel: &Path, out: &mut Snapshot) {
        let Ok(rd) = std::fs::read_dir(root.join(rel)) else {
            return;
        };
        for e in rd.flatten() {
            let r = rel.join(e.file_name());
            if r == Path::new(".agent-state") {
                continue;
            }
            let p = root.join(&r);
            let m = std::fs::symlink_metadata(&p).unwrap();
            let key = r.to_string_lossy().into_owned();
            let mode = m.mode() & 0o7777;
            if m.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(key, ('l', t.into_os_string().into_encoded_bytes(), 0));
            } else if m.is_dir() {
                out.insert(key, ('d', Vec::new(), mode));
                walk(root, &r, out);
            } else if m.is_file() {
                out.insert(key, ('f', std::fs::read(&p).unwrap(), mode));
            } else {
                out.insert(key, ('s', Vec::new(), mode));
            }
        }
    }
    let mut out = Snapshot::new();
    walk(dir, Path::new(""), &mut out);
    out
}

/// Every name holding `.agtool-` under `dir` (not following symlinks; `.agent-state` left
/// out): temp files and temp trees.
fn temps(dir: &Path) -> Vec<String> {
    snapshot(dir)
        .into_keys()
        .filter(|k| k.contains(".agtool-"))
        .collect()
}

/// Journals left in the state folder (`<pid>-<n>.j`; a `.new` file a kill left while a
/// journal was being written is no journal, and goes once it is 5 s old).
fn journals(ws: &Ws) -> usize {
    std::fs::read_dir(ws.path(".agent-state/journal"))
        .map(|r| {
            r.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".j"))
                .count()
        })
        .unwrap_or(0)
}

/// A workspace with `.git`, a small tree and a folder `outside/` beside the root.
fn fixture() -> (Ws, PathBuf) {
    let ws = Ws::new();
    ws.mkdir(".git");
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("a.txt", "alpha\n");
    ws.write("d/x.txt", "x\n");
    ws.write("d/sub/y.sh", "#!/bin/sh\n");
    std::fs::set_permissions(
        ws.path("d/sub/y.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let outside = ws.base.join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "outside\n").unwrap();
    (ws, outside)
}

fn run(ws: &Ws, args: &[&str]) -> Run {
    ws.run(args)
}

#[track_caller]
fn says(r: &Run, code: i32, text: &str) {
    assert_eq!(
        r.code, code,
        "exit status; stdout: {}\nstderr: {}",
        r.out, r.err
    );
    assert!(
        r.out.contains(text) || r.err.contains(text),
        "expected {text:?} in\nstdout: {}\nstderr: {}",
        r.out,
        r.err
    );
}

// ---------------------------------------------------------------- what they do

#[test]
fn move_renames_a_file_and_moves_its_freshness_record() {
    let (ws, _) = fixture();
    run(&ws, &["read-file", "a.txt"]).code(0);
    says(
        &run(&ws, &["move-path", "a.txt", "b.txt"]),
        0,
        "Moved a.txt → b.txt",
    );
    assert!(!ws.path("a.txt").exists());
    assert_eq!(ws.read("b.txt"), b"alpha\n");
    // The read of a.txt vouches for b.txt: no second read is needed to edit it.
    let r = run(
        &ws,
        &["edit-file", "b.txt", "--old", "alpha", "--new", "beta"],
    );
    says(&r, 0, "Edited [b.txt#");
    // And no longer for a.txt, should a file appear there.
    ws.write("a.txt", "alpha\n");
    let r = run(
        &ws,
        &["edit-file", "a.txt", "--old", "alpha", "--new", "beta"],
    );
    says(&r, 1, "read a.txt before editing it");
}

#[test]
fn move_a_folder_moves_the_records_of_everything_in_it() {
    let (ws, _) = fixture();
    run(&ws, &["read-file", "d/sub/y.sh"]).code(0);
    let r = run(&ws, &["move-path", "d", "lib/e"]);
    says(&r, 0, "Moved d/ → lib/e/ (2 files, 1 directory)");
    assert_eq!(ws.read("lib/e/sub/y.sh"), b"#!/bin/sh\n");
    let mode = std::fs::metadata(ws.path("lib/e/sub/y.sh")).unwrap().mode() & 0o777;
    assert_eq!(mode, 0o755);
    let r = run(
        &ws,
        &[
            "edit-file",
            "lib/e/sub/y.sh",
            "--old",
            "sh",
            "--new",
            "bash",
        ],
    );
    says(&r, 0, "Edited [lib/e/sub/y.sh#");
}

#[test]
fn a_trailing_slash_moves_into_a_folder_and_without_it_a_folder_is_refused() {
    let (ws, outside) = fixture();
    ws.mkdir("docs");
    let before = (snapshot(&ws.root), snapshot(&outside));
    let r = run(&ws, &["move-path", "a.txt", "docs"]);
    says(
        &r,
        1,
        "docs is an existing folder; to move a.txt into it, end the destination with / (docs/)",
    );
    assert_eq!((snapshot(&ws.root), snapshot(&outside)), before);
    says(
        &run(&ws, &["move-path", "a.txt", "docs/"]),
        0,
        "Moved a.txt → docs/a.txt",
    );
    assert_eq!(ws.read("docs/a.txt"), b"alpha\n");
    says(
        &run(&ws, &["copy-path", "docs/a.txt", "./"]),
        0,
        "Copied docs/a.txt → ./a.txt (1 file)",
    );
    let r = run(&ws, &["move-path", "d", "nowhere/"]);
    says(
        &r,
        1,
        "nowhere/ does not exist; a destination ending in / names an existing folder",
    );
}

#[test]
fn overwrite_replaces_a_file_only_after_a_read_of_it() {
    let (ws, _) = fixture();
    ws.write("b.txt", "bravo\n");
    says(
        &run(&ws, &["move-path", "a.txt", "b.txt"]),
        1,
        "b.txt already exists (a file); pass overwrite: true",
    );
    let r = run(&ws, &["move-path", "a.txt", "b.txt", "--overwrite"]);
    says(&r, 1, "read b.txt before editing it");
    assert_eq!(ws.read("b.txt"), b"bravo\n");
    run(&ws, &["read-file", "b.txt"]).code(0);
    std::fs::write(ws.path("b.txt"), "changed behind its back\n").unwrap();
    says(
        &run(&ws, &["move-path", "a.txt", "b.txt", "--overwrite"]),
        1,
        "b.txt changed since you last read it",
    );
    run(&ws, &["read-file", "b.txt"]).code(0);
    let r = run(&ws, &["move-path", "a.txt", "b.txt", "--overwrite"]);
    says(
        &r,
        0,
        "Moved a.txt → b.txt (replaced the file that was there)",
    );
    assert_eq!(ws.read("b.txt"), b"alpha\n");
    assert!(!ws.path("a.txt").exists());
}

#[test]
fn a_symlink_pointing_out_is_moved_and_copied_as_a_link() {
    let (ws, outside) = fixture();
    ws.symlink(outside.join("secret.txt"), "out");
    ws.symlink(&outside, "outdir");
    let before = snapshot(&outside);
    let r = run(&ws, &["move-path", "out", "moved-link"]);
    says(&r, 0, "moved as a link; its target was not touched");
    assert_eq!(
        std::fs::read_link(ws.path("moved-link")).unwrap(),
        outside.join("secret.txt")
    );
    let r = run(&ws, &["copy-path", "outdir", "copied-link"]);
    says(&r, 0, "copied as a link");
    assert!(
        std::fs::symlink_metadata(ws.path("copied-link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A link inside a copied folder stays a link too.
    ws.symlink("../../outside", "d/sub/back");
    says(
        &run(&ws, &["copy-path", "d", "d2", "--recursive"]),
        0,
        "Copied d/ → d2/",
    );
    assert_eq!(
        std::fs::read_link(ws.path("d2/sub/back")).unwrap(),
        Path::new("../../outside")
    );
    // Replacing a link replaces the link itself, never what it points to.
    let r = run(&ws, &["copy-path", "a.txt", "moved-link", "--overwrite"]);
    says(&r, 0, "replaced the symlink that was there");
    assert_eq!(ws.read("moved-link"), b"alpha\n");
    assert_eq!(snapshot(&outside), before);
}

#[test]
fn a_folder_copy_needs_recursive_keeps_modes_and_leaves_protected_names_out() {
    let (ws, _) = fixture();
    ws.write("d/.git/config", "[core]\n");
    ws.write("d/sub/.ssh/id", "key\n");
    says(
        &run(&ws, &["copy-path", "d", "e"]),
        1,
        "d is a folder; pass recursive: true",
    );
    assert!(!ws.path("e").exists());
    let r = run(&ws, &["copy-path", "d", "e", "--recursive", "--dry-run"]);
    says(&r, 0, "Would copy d/ → e/ (2 files, 1 directory)");
    assert!(
        r.out.contains("Left out 2 entries") && r.out.contains("d/.git"),
        "{}",
        r.out
    );
    assert!(!ws.path("e").exists());
    let r = run(&ws, &["copy-path", "d", "e", "--recursive"]);
    says(&r, 0, "Copied d/ → e/ (2 files, 1 directory)");
    assert!(r.out.contains("d/sub/.ssh"), "{}", r.out);
    assert!(!ws.path("e/.git").exists() && !ws.path("e/sub/.ssh").exists());
    assert_eq!(ws.read("e/x.txt"), b"x\n");
    let mode = std::fs::metadata(ws.path("e/sub/y.sh")).unwrap().mode() & 0o777;
    assert_eq!(mode, 0o755);
    // The source is untouched, .git included.
    assert_eq!(ws.read("d/.git/config"), b"[core]\n");
    // A copy is a new file: it needs a read before an edit.
    let r = run(&ws, &["edit-file", "e/x.txt", "--old", "x", "--new", "z"]);
    says(&r, 1, "read e/x.txt before editing it");
}

#[test]
fn a_move_of_a_folder_holding_a_protected_name_is_refused() {
    let (ws, outside) = fixture();
    ws.write("d/.git/config", "[core]\n");
    let before = (snapshot(&ws.root), snapshot(&outside));
    let r = run(&ws, &["move-path", "d", "e"]);
    says(&r, 1, "d/ contains d/.git, which agtool never moves");
    assert_eq!((snapshot(&ws.root), snapshot(&outside)), before);
}

#[test]
fn make_dir_makes_parents_and_is_fine_with_an_existing_folder() {
    let (ws, _) = fixture();
    says(
        &run(&ws, &["make-dir", "n/m/o", "--dry-run"]),
        0,
        "Would create n/m/o/ (3 folders)",
    );
    assert!(!ws.path("n").exists());
    says(
        &run(&ws, &["make-dir", "n/m/o"]),
        0,
        "Created n/m/o/ (and 2 missing folders above it)",
    );
    assert!(ws.path("n/m/o").is_dir());
    says(
        &run(&ws, &["make-dir", "n/m"]),
        0,
        "n/m/ already exists; nothing was created",
    );
    says(
        &run(&ws, &["make-dir", "a.txt"]),
        1,
        "a.txt exists and is a file, not a folder",
    );
    says(
        &run(&ws, &["make-dir", "a.txt/sub"]),
        1,
        "a.txt is a file, not a folder",
    );
    says(&run(&ws, &["make-dir", ".git/hooks/x"]), 1, "inside .git");
    let r = ws.call("make_dir", &json!({"path": "via/call"}));
    says(&r, 0, "Created via/call/");
}

#[test]
fn dry_runs_change_nothing() {
    let (ws, outside) = fixture();
    ws.write("b.txt", "bravo\n");
    run(&ws, &["read-file", "b.txt"]).code(0);
    let before = (snapshot(&ws.root), snapshot(&outside));
    says(
        &run(&ws, &["move-path", "a.txt", "c.txt", "--dry-run"]),
        0,
        "Would move a.txt → c.txt",
    );
    says(
        &run(
            &ws,
            &["move-path", "a.txt", "b.txt", "--overwrite", "--dry-run"],
        ),
        0,
        "Would move a.txt → b.txt (replacing the file there)",
    );
    says(
        &run(&ws, &["move-path", "d", "e", "--dry-run"]),
        0,
        "Would move d/ → e/ (2 files, 1 directory)",
    );
    says(
        &run(&ws, &["copy-path", "a.txt", "z/c.txt", "--dry-run"]),
        0,
        "Would copy a.txt → z/c.txt (1 file)",
    );
    assert_eq!((snapshot(&ws.root), snapshot(&outside)), before);
}

#[test]
fn the_json_faces_and_the_schema_know_the_three_tools() {
    let (ws, _) = fixture();
    let r = ws.call(
        "move_path",
        &json!({"source": "a.txt", "destination": "b.txt"}),
    );
    says(&r, 0, "Moved a.txt → b.txt");
    let r = ws.call(
        "copy_path",
        &json!({"source": "d", "destination": "e", "recursive": true, "overwrite": false}),
    );
    says(&r, 0, "Copied d/ → e/");
    let r = ws.call(
        "copy_path",
        &json!({"source": "d", "destination": "f", "bogus": 1}),
    );
    assert_eq!(r.code, 2, "{r:?}");
    let r = run(&ws, &["schema", "--groups", "edit"]);
    for name in ["move_path", "copy_path", "make_dir"] {
        assert!(r.out.contains(name), "{name} not in the schema");
    }
    let r = run(&ws, &["--json", "move-path", "b.txt", "c.txt"]);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["destination"], "c.txt");
}

// ---------------------------------------------------------------- bad input

/// One refusal: set-up, the call, the expected exit status and words. The workspace and the
/// outside folder must be unchanged by the call.
struct Bad {
    name: &'static str,
    setup: fn(&Ws, &Path),
    args: Vec<String>,
    code: i32,
    says: &'static str,
}

fn bad(
    name: &'static str,
    setup: fn(&Ws, &Path),
    args: &[&str],
    code: i32,
    says: &'static str,
) -> Bad {
    Bad {
        name,
        setup,
        args: args.iter().map(|s| s.to_string()).collect(),
        code,
        says,
    }
}

#[test]
fn bad_input_is_refused_clearly_and_changes_nothing() {
    let none: fn(&Ws, &Path) = |_, _| {};
    let cases = vec![
        bad(
            "destination outside",
            none,
            &["move-path", "a.txt", "../outside/a.txt"],
            1,
            "is outside the workspace",
        ),
        bad(
            "destination outside (copy)",
            none,
            &["copy-path", "a.txt", "../outside/"],
            1,
            "is outside the workspace",
        ),
        bad(
            "absolute destination outside",
            |_, _| {},
            &["copy-path", "d", "/tmp/agtool-never-here", "--recursive"],
            1,
            "is outside the workspace",
        ),
        bad(
            "destination under .git",
            none,
            &["move-path", "a.txt", ".git/x"],
            1,
            ".git/x is inside .git",
        ),
        bad(
            "destination under .agent-state",
            none,
            &["copy-path", "a.txt", ".agent-state/x"],
            1,
            "inside .agent-state",
        ),
        bad(
            "destination .git itself",
            none,
            &["make-dir", ".git"],
            1,
            ".git is protected",
        ),
        bad(
            "source under .git (a move deletes it there)",
            none,
            &["move-path", ".git/HEAD", "HEAD"],
            1,
            ".git/HEAD is inside .git",
        ),
        bad(
            "source .git",
            none,
            &["move-path", ".git", "git-old"],
            1,
            ".git is protected",
        ),
        bad(
            "source missing",
            none,
            &["move-path", "nope.txt", "b.txt"],
            1,
            "nope.txt does not exist",
        ),
        bad(
            "source missing (copy)",
            none,
            &["copy-path", "nope", "b", "--recursive"],
            1,
            "nope does not exist",
        ),
        bad(
            "folder into itself",
            none,
            &["move-path", "d", "d/sub/d2"],
            1,
            "cannot move the folder d into itself",
        ),
        bad(
            "folder into itself with /",
            none,
            &["copy-path", "d", "d/sub/", "--recursive"],
            1,
            "cannot copy the folder d into itself",
        ),
        bad(
            "same path",
            none,
            &["move-path", "a.txt", "./a.txt"],
            1,
            "are the same path",
        ),
        bad(
            "hard link to the same file",
            |ws, _| std::fs::hard_link(ws.path("a.txt"), ws.path("h.txt")).unwrap(),
            &["move-path", "a.txt", "h.txt", "--overwrite"],
            1,
            "are the same file",
        ),
        bad(
            "destination exists",
            |ws, _| {
                ws.write("b.txt", "b\n");
            },
            &["move-path", "a.txt", "b.txt"],
            1,
            "b.txt already exists (a file); pass overwrite: true",
        ),
        bad(
            "destination exists (copy)",
            |ws, _| {
                ws.write("b.txt", "b\n");
            },
            &["copy-path", "a.txt", "b.txt"],
            1,
            "pass overwrite: true",
        ),
        bad(
            "destination is a folder",
            none,
            &["copy-path", "a.txt", "d", "--overwrite"],
            1,
            "d is an existing folder; to copy a.txt into it, end the destination with /",
        ),
        bad(
            "folder over a file",
            |ws, _| {
                ws.write("f.txt", "f\n");
            },
            &["move-path", "d", "f.txt", "--overwrite"],
            1,
            "a folder never replaces one",
        ),
        bad(
            "into a folder where the name is a folder",
            |ws, _| {
                ws.mkdir("t/d");
            },
            &["move-path", "d", "t/"],
            1,
            "t/d already exists (a folder)",
        ),
        bad(
            "overwrite of a file never read",
            |ws, _| {
                ws.write("b.txt", "b\n");
            },
            &["move-path", "a.txt", "b.txt", "--overwrite"],
            1,
            "read b.txt before editing it",
        ),
        bad(
            "overwrite of a binary file",
            |ws, _| {
                ws.write("bin.dat", [0u8, 1, 2, 0]);
            },
            &["copy-path", "a.txt", "bin.dat", "--overwrite"],
            1,
            "not a text file read_file can show",
        ),
        bad(
            "copy of a folder without recursive",
            none,
            &["copy-path", "d", "e"],
            1,
            "pass recursive: true",
        ),
        bad(
            "copy of a FIFO",
            |ws, _| mkfifo(&ws.path("pipe")),
            &["copy-path", "pipe", "pipe2"],
            1,
            "pipe is a fifo; agtool copies files, symlinks and folders only",
        ),
        bad(
            "parent is a symlink out",
            |ws, out| {
                ws.symlink(out, "link-out");
            },
            &["move-path", "a.txt", "link-out/a.txt"],
            1,
            "link-out/a.txt is under link-out, a symlink to ",
        ),
        bad(
            "source through a symlink out",
            |ws, out| {
                ws.symlink(out, "link-out");
            },
            &["move-path", "link-out/secret.txt", "s.txt"],
            1,
            "link-out/secret.txt is under link-out, a symlink to ",
        ),
        bad(
            "make-dir through a file",
            none,
            &["make-dir", "a.txt/x"],
            1,
            "a.txt is a file, not a folder",
        ),
        bad(
            "the workspace root",
            none,
            &["move-path", ".", "elsewhere"],
            1,
            "is the workspace root",
        ),
        bad(
            "empty source",
            none,
            &["move-path", "", "x"],
            2,
            "path is empty",
        ),
    ];
    let mut failures = Vec::new();
    for c in &cases {
        let (ws, outside) = fixture();
        (c.setup)(&ws, &outside);
        let before = (snapshot(&ws.root), snapshot(&outside));
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let r = run(&ws, &args);
        let after = (snapshot(&ws.root), snapshot(&outside));
        let text = format!("{}{}", r.out, r.err);
        if r.code != c.code || !text.contains(c.says) {
            failures.push(format!(
                "{}: exit {} (want {}), output {text:?}",
                c.name, r.code, c.code
            ));
        }
        if c.code == 1 && !r.out.starts_with("Error: ") {
            failures.push(format!(
                "{}: the refusal does not start with Error: {:?}",
                c.name, r.out
            ));
        }
        if after != before {
            failures.push(format!("{}: something changed", c.name));
        }
        if !temps(&ws.root).is_empty() || journals(&ws) > 0 {
            failures.push(format!("{}: temp files or journals left", c.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(!Path::new("/tmp/agtool-never-here").exists());
}

fn mkfifo(p: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        p,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}

// ---------------------------------------------------------------- across filesystems

/// A folder on another filesystem than the workspace's, inside the workspace: a tmpfs
/// mounted at `ws/mnt` in a mount namespace of this test's thread alone (needs root; the
/// mount disappears with the thread, and is unmounted when dropped). `None` when there is no
/// way to get one here.
struct SecondFs {
    path: PathBuf,
}

impl SecondFs {
    fn mount(ws: &Ws) -> Option<SecondFs> {
        let path = ws.path("mnt");
        std::fs::create_dir(&path).unwrap();
        // SAFETY: unshare(2) and mount(2) with valid C strings; they only change this
        // thread's mount namespace.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                return None;
            }
            let root = c"/";
            if libc::mount(
                std::ptr::null(),
                root.as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return None;
            }
            let target = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
            if libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                0,
                c"size=256m".as_ptr().cast(),
            ) != 0
            {
                return None;
            }
        }
        let dev = |p: &Path| std::fs::metadata(p).unwrap().dev();
        assert_ne!(dev(&path), dev(&ws.root), "the tmpfs did not mount");
        Some(SecondFs { path })
    }
}

impl Drop for SecondFs {
    fn drop(&mut self) {
        let target = std::ffi::CString::new(self.path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: umount2(2) with a valid C string.
        unsafe {
            libc::umount2(target.as_ptr(), libc::MNT_DETACH);
        }
    }
}

/// The second filesystem, or a printed SKIP line.
fn second_fs(ws: &Ws, test: &str) -> Option<SecondFs> {
    let fs = SecondFs::mount(ws);
    if fs.is_none() {
        eprintln!(
            "SKIP {test}: no second filesystem (mounting a tmpfs in a private mount namespace \
             needs root)"
        );
    }
    fs
}

#[test]
fn a_move_across_filesystems_copies_keeps_modes_times_links_and_removes_the_source() {
    let (ws, outside) = fixture();
    let Some(_mnt) = second_fs(&ws, "cross-filesystem move") else {
        return;
    };
    ws.symlink("../x.txt", "d/sub/up");
    common::set_mtime(&ws.path("d/x.txt"), 1_000_000_000);
    run(&ws, &["read-file", "d/x.txt"]).code(0);
    let before = snapshot(&ws.path("d"));
    let r = run(&ws, &["move-path", "d", "mnt/d", "--dry-run"]);
    says(&r, 0, "across filesystems: copied, then the source removed");
    let r = run(&ws, &["move-path", "d", "mnt/d"]);
    says(
        &r,
        0,
        "Moved d/ → mnt/d/ (3 files, 1 directory; across filesystems",
    );
    assert!(!ws.path("d").exists());
    assert_eq!(
        snapshot(&ws.path("mnt/d")),
        before,
        "content, modes and links kept"
    );
    assert_eq!(
        std::fs::metadata(ws.path("mnt/d/x.txt")).unwrap().mtime(),
        1_000_000_000
    );
    // The record moved too.
    says(
        &run(
            &ws,
            &["edit-file", "mnt/d/x.txt", "--old", "x", "--new", "y"],
        ),
        0,
        "Edited [mnt/d/x.txt#",
    );
    // A file back over a file, across again, with the freshness gate.
    ws.write("target.txt", "old\n");
    says(
        &run(
            &ws,
            &["move-path", "mnt/d/x.txt", "target.txt", "--overwrite"],
        ),
        1,
        "read target.txt before editing it",
    );
    run(&ws, &["read-file", "target.txt"]).code(0);
    let r = run(
        &ws,
        &["move-path", "mnt/d/x.txt", "target.txt", "--overwrite"],
    );
    says(
        &r,
        0,
        "replaced the file that was there; across filesystems",
    );
    assert_eq!(ws.read("target.txt"), b"y\n");
    assert!(!ws.path("mnt/d/x.txt").exists());
    // A FIFO is renamed on one filesystem only.
    mkfifo(&ws.path("pipe"));
    says(
        &run(&ws, &["move-path", "pipe", "mnt/pipe"]),
        1,
        "agtool moves one only within a filesystem",
    );
    says(
        &run(&ws, &["move-path", "pipe", "pipe2"]),
        0,
        "Moved pipe → pipe2 (a fifo)",
    );
    assert!(temps(&ws.root).is_empty() && journals(&ws) == 0);
    assert_eq!(snapshot(&outside).len(), 1);
}

// ---------------------------------------------------------------- kills

/// SIGKILLs per kill test.
const KILLS: usize = 25;

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Fills `rel` with a tree of `files` files of 8 KiB in 10 folders, plus a link.
fn big_tree(ws: &Ws, rel: &str, files: usize) {
    for i in 0..files {
        let body = format!("{rel} file {i:05}\n").repeat(8 * 1024 / 16);
        ws.write(&format!("{rel}/f{}/n{i}.txt", i % 10), body);
    }
    ws.symlink("f0/n0.txt", &format!("{rel}/link"));
}

/// Kills agtool at random moments over the time one unkilled run takes, `kills` times. Each
/// run is `args_for(state)`, where `state()` says which whole state the files are in (`None`:
/// half done, a failure); after each kill any agtool call must find a whole state and no temp
/// file or journal. `landed(state)` is called after a run that changed the state (to put
/// things back, if needed). Returns (landed, undone).
fn kill_at_random(
    ws: &Ws,
    kills: usize,
    state: impl Fn() -> Option<bool>,
    args_for: impl Fn(bool) -> Vec<&'static str>,
    landed: impl Fn(bool),
) -> (usize, usize) {
    let spawn = |args: &[&str]| {
        ws.std_cmd_in(&ws.root)
            .args(["--no-freshness"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // How long an unkilled run takes here (the slower of two).
    let mut window = Duration::ZERO;
    for _ in 0..2 {
        let was = state().expect("a whole state to begin with");
        let t = Instant::now();
        assert!(
            spawn(&args_for(was)).wait().unwrap().success(),
            "an unkilled run failed"
        );
        window = window.max(t.elapsed());
        assert_eq!(state(), Some(!was), "an unkilled run did not land");
        landed(!was);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut new, mut old) = (0, 0);
    for k in 0..kills {
        let delay = Duration::from_micros(rng.next() % (window.as_micros() as u64 * 5 / 4 + 1));
        let was = state().expect("a whole state");
        let mut child = spawn(&args_for(was));
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();
        // Any later call recovers first.
        let after = Run::from(ws.cmd().args(["list-dir", "."]).output().unwrap());
        assert_eq!(after.code, 0, "{after:?}");
        match state() {
            Some(now) if now != was => new += 1,
            Some(_) => old += 1,
            None => panic!("kill {k} after {delay:?}: half done, seen by a later call"),
        }
        let left = temps(&ws.root);
        assert!(
            left.is_empty(),
            "kill {k} after {delay:?}: temp files left: {left:?}"
        );
        assert_eq!(
            journals(ws),
            0,
            "kill {k} after {delay:?}: a journal is left"
        );
        if state() != Some(was) {
            landed(!was);
        }
    }
    eprintln!(
        "{:?}: {kills} kills over {window:?}: {new} landed whole, {old} undone, 0 half done",
        args_for(false)
    );
    (new, old)
}

#[test]
fn sigkill_during_a_cross_filesystem_folder_move_leaves_all_old_or_all_new() {
    let ws = Ws::new();
    ws.mkdir(".git");
    let Some(_mnt) = second_fs(&ws, "SIGKILL during a cross-filesystem move") else {
        return;
    };
    big_tree(&ws, "tree", 40);
    let whole = snapshot(&ws.path("tree"));
    // false: in the workspace's filesystem; true: in the tmpfs. Each run moves it across.
    let state = || {
        let (here, there) = (ws.path("tree"), ws.path("mnt/tree"));
        match (
            std::fs::symlink_metadata(&here).is_ok(),
            std::fs::symlink_metadata(&there).is_ok(),
        ) {
            (true, false) if snapshot(&here) == whole => Some(false),
            (false, true) if snapshot(&there) == whole => Some(true),
            _ => None,
        }
    };
    let args_for = |there: bool| {
        if there {
            vec!["move-path", "mnt/tree", "tree"]
        } else {
            vec!["move-path", "tree", "mnt/tree"]
        }
    };
    let (new, old) = kill_at_random(&ws, KILLS, state, args_for, |_| {});
    assert_eq!(new + old, KILLS);
}

#[test]
fn sigkill_during_a_recursive_copy_leaves_no_copy_or_a_whole_one() {
    let ws = Ws::new();
    ws.mkdir(".git");
    big_tree(&ws, "tree", 40);
    let whole = snapshot(&ws.path("tree"));
    let state = || {
        assert_eq!(snapshot(&ws.path("tree")), whole, "the source changed");
        match std::fs::symlink_metadata(ws.path("copy")) {
            Err(_) => Some(false),
            Ok(_) if snapshot(&ws.path("copy")) == whole => Some(true),
            Ok(_) => None,
        }
    };
    let args_for = |_| vec!["copy-path", "tree", "copy", "--recursive"];
    let remove = |_| std::fs::remove_dir_all(ws.path("copy")).unwrap();
    let (new, old) = kill_at_random(&ws, KILLS, state, args_for, remove);
    assert_eq!(new + old, KILLS);
}

// ---------------------------------------------------------------- deep trees

/// A tree nesting deeper than agtool's limit (3,000 levels: its innermost path is longer than
/// the kernel takes) is refused whole by copy, move and delete with a clear sentence, never a
/// crash or a raw OS error; a 1,000-level tree is copied, moved and deleted.
#[test]
fn trees_deeper_than_the_limit_are_refused_whole_and_a_legal_deep_tree_works() {
    let ws = Ws::new();
    ws.mkdir(".git");
    let _deep = common::DeepTree::new(&ws.root, "deep", 3000);
    for args in [
        &["copy-path", "deep", "c", "--recursive", "--dry-run"][..],
        &["copy-path", "deep", "c", "--recursive"],
        &["move-path", "deep", "moved"],
        &["delete-path", "deep", "--recursive"],
    ] {
        let r = run(&ws, args);
        says(
            &r,
            1,
            "nests deeper than agtool goes (1024 levels of folders, or 4000 bytes of path inside \
             it); nothing was",
        );
        assert!(!r.out.contains("os error") && r.err.is_empty(), "{r:?}");
    }
    assert!(ws.path("deep/d/d").is_dir());
    assert!(!ws.path("c").exists() && !ws.path("moved").exists());
    assert_eq!(journals(&ws), 0);
    let _legal = common::DeepTree::new(&ws.root, "legal", 1000);
    says(
        &run(&ws, &["copy-path", "legal", "c", "--recursive"]),
        0,
        "1000 directories)",
    );
    says(&run(&ws, &["move-path", "c", "m"]), 0, "1000 directories)");
    says(
        &run(&ws, &["delete-path", "m", "--recursive"]),
        0,
        "1000 directories)",
    );
    assert!(!ws.path("m").exists() && ws.path("legal/d/d").is_dir());
}

/// A copy's source that is or lies under a protected name is refused like a destination
/// under one (spec 03: a copy copies nothing under a protected name), whatever its letter case
/// or the symlink it is reached through.
#[test]
fn a_copy_of_a_protected_folder_or_a_file_in_one_is_refused() {
    let (ws, _) = fixture();
    ws.write(".agent-state/notes/n.md", "note\n");
    std::os::unix::fs::symlink(".git", ws.path("gl")).unwrap();
    let before = snapshot(&ws.root);
    for (src, name) in [
        (".git", ".git"),
        (".agent-state", ".agent-state"),
        (".git/HEAD", ".git"),
        (".GIT/HEAD", ".GIT"),
        ("gl/HEAD", ".git"),
        ("d/../.git", ".git"),
    ] {
        for extra in [&["--recursive"][..], &[]] {
            let mut args = vec!["copy-path", src, "copied"];
            args.extend(extra);
            says(
                &run(&ws, &args),
                1,
                &format!(
                    "{src} is or is under {name}, a protected name; agtool copies nothing under \
                     a protected name; nothing was copied"
                ),
            );
        }
    }
    assert_eq!(snapshot(&ws.root), before);
}

/// FIFOs and sockets inside a copied folder are left out and listed, as protected names are
/// (README: FIFOs, sockets and devices are never copied); the rest of the folder is copied.
#[test]
fn a_folder_copy_leaves_fifos_and_sockets_out_and_lists_them() {
    let (ws, _) = fixture();
    mkfifo(&ws.path("d/sub/pipe"));
    let _sock = std::os::unix::net::UnixListener::bind(ws.path("d/sock")).unwrap();
    let r = run(&ws, &["copy-path", "d", "e", "--recursive", "--dry-run"]);
    says(&r, 0, "Would copy d/ → e/ (2 files, 1 directory)");
    assert!(!ws.path("e").exists());
    let r = run(&ws, &["copy-path", "d", "e", "--recursive"]);
    says(&r, 0, "Copied d/ → e/ (2 files, 1 directory)");
    says(
        &r,
        0,
        "Left out 2 entries (protected or read-denied names, FIFOs, sockets and devices are \
         never copied)",
    );
    assert!(
        r.out.contains("d/sub/pipe") && r.out.contains("d/sock"),
        "{}",
        r.out
    );
    assert_eq!(ws.read("e/sub/y.sh"), b"#!/bin/sh\n");
    assert!(std::fs::symlink_metadata(ws.path("e/sub/pipe")).is_err());
    assert!(std::fs::symlink_metadata(ws.path("e/sock")).is_err());
    // A FIFO named as the source itself is still refused.
    says(
        &run(&ws, &["copy-path", "d/sub/pipe", "p2"]),
        1,
        "d/sub/pipe is a fifo; agtool copies files, symlinks and folders only",
    );
}

/// A destination under a file says so plainly (as make-dir does), never `Not a directory (os
/// error 20)`, and changes nothing.
#[test]
fn a_destination_under_a_file_is_refused_in_plain_words() {
    let (ws, _) = fixture();
    ws.write("file", "f\n");
    let before = snapshot(&ws.root);
    for (args, text) in [
        (
            &["move-path", "a.txt", "file/b"][..],
            "file is a file, not a folder, so file/b cannot be made in it; nothing was moved",
        ),
        (
            &["copy-path", "a.txt", "a.txt/b"],
            "a.txt is a file, not a folder, so a.txt/b cannot be made in it; nothing was copied",
        ),
        (
            &["copy-path", "a.txt", "file/sub/b"],
            "file is a file, not a folder, so file/sub/b cannot be made in it; nothing was \
             copied",
        ),
        (
            &["copy-path", "d", "file/sub/e", "--recursive", "--dry-run"],
            "file is a file, not a folder, so file/sub/e cannot be made in it; nothing was \
             copied",
        ),
    ] {
        let r = run(&ws, args);
        says(&r, 1, text);
        assert!(!r.out.contains("os error"), "{r:?}");
    }
    assert_eq!(snapshot(&ws.root), before);
}

/// make-dir, apply-patch and write-file make no folder deeper than copy, move and delete
/// accept (1024 levels, 4000 bytes of path), so an agent never builds a tree it cannot remove
/// again; a tree within the limit is removed whole.
#[test]
fn no_tool_makes_a_tree_deeper_than_the_tree_tools_take() {
    let (ws, _) = fixture();
    let deep = |levels: usize| {
        std::iter::repeat_n("e", levels)
            .collect::<Vec<_>>()
            .join("/")
    };
    let too_deep = format!("src/{}", deep(1100));
    let r = run(&ws, &["make-dir", &too_deep]);
    says(&r, 1, "deeper than agtool goes");
    let patch = format!("*** Begin Patch\n*** Add File: {too_deep}/f.txt\n+x\n*** End Patch\n");
    let r = Run::from(
        ws.cmd()
            .arg("apply-patch")
            .write_stdin(patch)
            .output()
            .unwrap(),
    );
    says(&r, 1, "deeper than agtool goes");
    let r = Run::from(
        ws.cmd()
            .args(["write-file", &format!("{too_deep}/g.txt"), "--content", "x"])
            .output()
            .unwrap(),
    );
    says(&r, 1, "deeper than agtool goes");
    assert!(!ws.path("src/e").exists(), "a refused call made folders");
    run(&ws, &["make-dir", &format!("src/{}", deep(1000))]).ok();
    run(&ws, &["delete-path", "src/e", "--recursive"]).ok();
    assert!(!ws.path("src/e").exists());
}

/// A name over 255 bytes gave Rust's raw `File name too long (os error 36)`.
#[test]
fn a_name_too_long_is_said_plainly() {
    let ws = Ws::new();
    std::fs::write(ws.root.join("src.txt"), "x\n").unwrap();
    let long = "n".repeat(256);
    for args in [
        vec!["copy-path", "src.txt", long.as_str()],
        vec!["move-path", "src.txt", long.as_str()],
        vec!["make-dir", long.as_str()],
        vec!["write-file", long.as_str(), "--content", "x"],
    ] {
        let r = run(&ws, &args);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.out
                .ends_with(": a name is too long (a file or folder name is at most 255 bytes)\n"),
            "{args:?}: {r:?}"
        );
        assert!(!r.out.contains("os error"), "{r:?}");
    }
    assert!(ws.root.join("src.txt").exists());
}
