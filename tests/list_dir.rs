//! list-dir through the real binary (spec 02, "list-dir").

mod common;
use common::*;

fn sample() -> Ws {
    let ws = Ws::new();
    ws.write("src/tools/mod.rs", "")
        .write("src/tools/edit.rs", "")
        .write("src/lib.rs", "")
        .write("src/main.rs", "")
        .write("b.txt", "")
        .write("B.txt", "")
        .write(".hidden", "")
        .write(".git/HEAD", "ref: refs/heads/main\n")
        .write(".git/objects/pack/p", "")
        .symlink("src/lib.rs", "link.rs");
    let fifo = ws.path("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    ws
}

#[test]
fn tree_order_indent_and_suffixes() {
    let ws = sample();
    let out = ws.run(&["list-dir", "--depth", "3", "--limit", "100"]);
    assert_eq!(
        out.ok(),
        format!(
            "Absolute path: {}\n.git/\n.hidden\nB.txt\nb.txt\nlink.rs@\npipe?\nsrc/\n  lib.rs\n  main.rs\n  tools/\n    edit.rs\n    mod.rs\n",
            ws.root.display()
        ),
        "byte order (B before b), .git listed but never expanded, @ for symlinks, ? for a fifo"
    );
}

#[test]
fn depth_limits_the_tree() {
    let ws = sample();
    let out = ws.run(&["list-dir", "src", "--depth", "1"]);
    assert_eq!(
        out.ok(),
        format!(
            "Absolute path: {}\nlib.rs\nmain.rs\ntools/\n",
            ws.path("src").display()
        )
    );
    // Default depth 2: tools/ is shown, its children are not.
    let out = ws.run(&["list-dir", "--limit", "100"]);
    assert!(out.ok().contains("  tools/\n"), "{}", out.out);
    assert!(!out.out.contains("edit.rs"), "{}", out.out);
}

#[test]
fn paging_with_offset_and_limit() {
    let ws = sample();
    let all = ws.run(&["list-dir", "--limit", "100"]);
    let entries: Vec<&str> = all.lines()[1..].to_vec();
    let page = ws.run(&["list-dir", "--offset", "3", "--limit", "4"]);
    let lines = page.lines();
    assert_eq!(&lines[1..5], &entries[2..6]);
    assert_eq!(
        lines[5],
        "More than 4 entries found; continue with offset=7"
    );
    // The default page is 25 entries.
    let ws = Ws::new();
    for i in 0..30 {
        ws.write(&format!("f{i:02}"), "");
    }
    let out = ws.run(&["list-dir"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 1 + 25 + 1);
    assert_eq!(
        lines[26],
        "More than 25 entries found; continue with offset=26"
    );
}

#[test]
fn hidden_and_ignored_entries() {
    let ws = Ws::new();
    ws.write(".gitignore", "*.log\nbuild/\n")
        .write("app.log", "")
        .write("build/out.o", "")
        .write("keep.rs", "")
        .write(".env", "");
    let out = ws.run(&["list-dir"]);
    assert_eq!(
        &out.lines()[1..],
        [".env", ".gitignore", "keep.rs"],
        "ignored entries are left out by default, hidden ones kept"
    );
    let out = ws.run(&["list-dir", "--hidden", "false", "--ignored", "true"]);
    assert_eq!(
        &out.lines()[1..],
        ["app.log", "build/", "  out.o", "keep.rs"]
    );
}

#[test]
fn deny_read_names_are_not_listed() {
    let ws = Ws::new();
    ws.write(".ssh/id_rsa", "secret").write("a.txt", "");
    let out = ws.run(&["list-dir"]);
    assert_eq!(&out.lines()[1..], ["a.txt"]);
}

#[test]
fn zero_arguments_are_argument_errors() {
    let ws = sample();
    for flag in ["--offset", "--limit", "--depth"] {
        let out = ws.run(&["list-dir", flag, "0"]);
        out.code(2);
        assert!(
            out.err.contains("expected integer >= 1, got 0"),
            "{}",
            out.err
        );
    }
}

#[test]
fn offset_past_the_last_entry() {
    let ws = sample();
    let out = ws.run(&["list-dir", "src", "--offset", "50"]);
    out.code(1);
    assert_eq!(out.out, "Error: offset 50 is past the last entry (5)\n");
}

#[test]
fn a_file_is_refused_and_an_empty_folder_says_so() {
    let ws = sample();
    let out = ws.run(&["list-dir", "b.txt"]);
    out.code(1);
    assert_eq!(
        out.out,
        "Error: b.txt is not a folder; use read_file to read a file\n"
    );
    ws.mkdir("empty");
    let out = ws.run(&["list-dir", "empty"]);
    assert!(out.ok().ends_with("(empty folder)\n"), "{}", out.out);
}

#[test]
fn a_symlinked_folder_is_listed_not_followed() {
    let ws = Ws::new();
    ws.write("real/inner.txt", "").symlink("real", "alias");
    let out = ws.run(&["list-dir"]);
    assert_eq!(&out.lines()[1..], ["alias@", "real/", "  inner.txt"]);
}

#[test]
fn gitignore_above_the_repository_root_does_not_apply() {
    let ws = Ws::new();
    std::fs::write(ws.base.join(".gitignore"), "*.txt\n").unwrap();
    ws.mkdir(".git")
        .write("sub/a.txt", "")
        .write("sub/b.log", "");
    ws.write(".gitignore", "*.log\n");
    let out = ws.run(&["list-dir", "sub"]);
    assert_eq!(&out.lines()[1..], ["a.txt"]);
}

// Findings of the attack on list-dir's handle fence (each failed before its fix).

#[test]
fn an_offset_past_an_empty_listing_is_refused_not_a_panic() {
    let ws = Ws::new();
    ws.mkdir("empty");
    let out = ws.run(&["list-dir", "empty", "--offset", "3"]);
    out.code(1);
    assert_eq!(out.out, "Error: offset 3 is past the last entry (0)\n");
    assert!(
        ws.run(&["list-dir", "empty", "--offset", "1"])
            .ok()
            .ends_with("(empty folder)\n")
    );
}

#[test]
fn an_ignore_file_that_is_a_fifo_never_stalls_the_listing() {
    let ws = Ws::new();
    ws.mkdir(".git").write("sub/a.txt", "").write("top.txt", "");
    let made = std::process::Command::new("mkfifo")
        .arg(ws.path("sub/.gitignore"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let started = std::time::Instant::now();
    let out = ws.run(&["list-dir", "--timeout-ms", "20000"]);
    assert!(started.elapsed().as_secs() < 10, "stalled: {out:?}");
    assert_eq!(
        &out.lines()[1..],
        [
            ".git/",
            "sub/",
            "top.txt",
            "(skipped: sub: not entered: its .gitignore is a fifo, not a file)"
        ]
    );
    // The listed folder's own ignore file: refused at once, with the way around.
    let out = ws.run(&["list-dir", "sub", "--timeout-ms", "20000"]);
    out.code(1);
    assert!(out.out.contains("its .gitignore is a fifo"), "{out:?}");
    assert!(out.out.contains("ignored=true"), "{out:?}");
    let out = ws.run(&["list-dir", "sub", "--ignored", "true"]);
    assert_eq!(&out.lines()[1..], [".gitignore?", "a.txt"]);
}

#[test]
fn a_git_folder_in_any_case_is_listed_not_entered() {
    let ws = Ws::new();
    ws.write(".GIT/config", "").write("sub/.Git/HEAD", "");
    let out = ws.run(&["list-dir", "--depth", "3"]);
    assert_eq!(&out.lines()[1..], [".GIT/", "sub/", "  .Git/"]);
}

/// A folder that may be entered but not read (mode 0311, as another user): the refusal says
/// "permission denied", as read-file does, not "bad file descriptor".
#[test]
fn a_folder_that_cannot_be_read_says_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if !common::is_root() {
        eprintln!("SKIP needs root to run agtool as another user");
        return;
    }
    let ws = Ws::new();
    ws.write("xonly/a.txt", "");
    for p in [&ws.base, &ws.root, &ws.home] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    std::fs::set_permissions(ws.path("xonly"), std::fs::Permissions::from_mode(0o311)).unwrap();
    let out = common::Run::from(
        ws.std_cmd_in(&ws.root)
            .args(["list-dir", "xonly"])
            .uid(common::NOBODY)
            .gid(common::NOBODY)
            .output()
            .unwrap(),
    );
    std::fs::set_permissions(ws.path("xonly"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.out.contains("ermission denied"), "{out:?}");
}
