//! Bad paths through the real binary (issue 2, "Bad input must get a clear error and change
//! nothing"; spec 01, "Path policy"): symlinks out of the workspace to a file, a folder,
//! nowhere and in a loop, `..`, a sibling sharing the root's prefix, NUL and empty paths, and
//! folders a walk cannot read.

mod common;
use common::*;
use serde_json::json;

/// A workspace `ws` beside `outside/` and a sibling `ws-evil/` that shares the root's prefix,
/// with symlinks leading out of the root.
fn escape_fixture() -> Ws {
    let ws = Ws::new();
    let outside = ws.base.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret\n").unwrap();
    std::fs::create_dir_all(ws.base.join("ws-evil")).unwrap();
    std::fs::write(ws.base.join("ws-evil/x.txt"), "evil\n").unwrap();
    ws.write("inside.txt", "fine\n")
        .symlink(outside.join("secret.txt"), "file-link")
        .symlink("../outside", "dir-link")
        .symlink(outside.join("missing"), "dangling")
        .symlink("loop-b", "loop-a")
        .symlink("loop-a", "loop-b");
    ws
}

#[test]
fn paths_outside_the_workspace_are_refused_by_every_tool() {
    let ws = escape_fixture();
    let root = ws.root.display().to_string();
    let evil_abs = ws.base.join("ws-evil/x.txt").display().to_string();
    let base = ws.base.display().to_string();
    // A symlink leading out names the link and where it leads (issue 18 §5).
    let through_links = [
        (
            "file-link",
            format!("file-link is a symlink to {base}/outside/secret.txt"),
        ),
        (
            "dir-link",
            format!("dir-link is a symlink to {base}/outside"),
        ),
        (
            "dir-link/secret.txt",
            format!("dir-link/secret.txt is under dir-link, a symlink to {base}/outside"),
        ),
        (
            "dangling",
            format!("dangling is a symlink to {base}/outside/missing"),
        ),
    ];
    for (path, says) in &through_links {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            ("list_dir", json!({"path": path})),
            ("glob", json!({"pattern": "*", "path": path})),
            ("grep", json!({"pattern": "secret", "path": path})),
            ("write_file", json!({"path": path, "content": "x"})),
        ] {
            let out = ws.call(tool, &args);
            out.code(1);
            assert_eq!(
                out.out,
                format!("Error: {says}, outside the workspace ({root})\n"),
                "{tool} {path}"
            );
        }
    }
    let outside_paths = [
        "../outside/secret.txt",
        "../outside",
        "../ws-evil/x.txt",
        "../ws-evil",
        evil_abs.as_str(),
        "/etc/hostname",
        "/",
    ];
    for path in outside_paths {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            ("list_dir", json!({"path": path})),
            ("glob", json!({"pattern": "*", "path": path})),
            ("grep", json!({"pattern": "secret", "path": path})),
        ] {
            let out = ws.call(tool, &args);
            out.code(1);
            assert_eq!(
                out.out,
                format!("Error: {path} is outside the workspace ({root})\n"),
                "{tool} {path}"
            );
        }
    }
    for tool in ["read_file", "list_dir"] {
        let out = ws.call(tool, &json!({"path": "loop-a"}));
        out.code(1);
        assert_eq!(
            out.out,
            "Error: loop-a cannot be resolved: too many levels of symbolic links\n"
        );
    }
    // Nothing was read, so nothing was recorded.
    assert!(!ws.path(".agent-state").exists());
    // Inside paths still work, and a walk from the root never follows the links out.
    ws.call("read_file", &json!({"path": "inside.txt"})).ok();
    let out = ws.call("grep", &json!({"pattern": "secret|evil"}));
    assert_eq!(out.ok(), "No matches found.\n");
}

#[test]
fn nul_and_empty_paths_are_argument_errors() {
    let ws = Ws::new();
    for tool in ["read_file", "list_dir"] {
        let out = ws.call(tool, &json!({"path": "a\u{0}b"}));
        out.code(2);
        assert!(out.err.contains("contains a NUL byte"), "{}", out.err);
        let out = ws.call(tool, &json!({"path": ""}));
        out.code(2);
        assert!(out.err.contains("path is empty"), "{}", out.err);
    }
    let out = ws.call("grep", &json!({"pattern": "x", "path": "a\u{0}b"}));
    out.code(2);
    let out = ws.call("glob", &json!({"pattern": "*", "path": "a\u{0}b"}));
    out.code(2);
}

#[test]
fn an_unreadable_subdirectory_is_skipped_and_said_so() {
    let ws = Ws::new();
    ws.write("open/a.txt", "hit\n")
        .write("locked/b.txt", "hit\n");
    ws.lock_dir("locked");
    let cases: [(&[&str], &str); 3] = [
        (
            &["list-dir"],
            "Absolute path: {root}\nlocked/\nopen/\n  a.txt\n(skipped: locked: permission denied)\n",
        ),
        (
            &["glob", "*.txt"],
            "open/a.txt\n(skipped: locked: permission denied)\n",
        ),
        (
            &["grep", "hit"],
            "open/a.txt\n(skipped: locked: permission denied)\n",
        ),
    ];
    for (args, expect) in cases {
        let out = match ws.run_unprivileged(args) {
            Ok(out) => out,
            Err(reason) => {
                println!("skipped: an unreadable folder cannot be made here: {reason}");
                return;
            }
        };
        let expect = expect.replace("{root}", &ws.root.display().to_string());
        assert_eq!(out.ok(), expect, "{args:?}");
    }
    // An unreadable file inside a readable folder is skipped the same way by grep.
    use std::os::unix::fs::PermissionsExt;
    ws.write("open/c.txt", "hit\n");
    let out = ws.run_unprivileged(&["grep", "hit", "open"]).unwrap();
    std::fs::set_permissions(
        ws.path("open/c.txt"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let out2 = ws.run_unprivileged(&["grep", "hit", "open"]).unwrap();
    assert_eq!(out.ok().lines().count(), 2);
    assert_eq!(
        out2.ok(),
        "open/a.txt\n(skipped: open/c.txt: permission denied)\n"
    );
}

/// `link/../x` names what the kernel opens: the symlink is followed first, then `..` leaves
/// its target (issue 12, item 8). Folding `..` first would act on the root's `x` instead.
#[test]
fn dot_dot_after_a_symlink_is_resolved_as_the_kernel_does() {
    let ws = Ws::new();
    ws.write("x.txt", "top\n")
        .write("sub/x.txt", "in sub\n")
        .mkdir("sub/deeper")
        .symlink("sub/deeper", "link");
    assert_eq!(
        std::fs::read_to_string(ws.path("link/../x.txt")).unwrap(),
        "in sub\n",
        "the kernel's view"
    );
    let out = ws.run(&["read-file", "link/../x.txt"]);
    assert!(out.ok().contains("L1: in sub"), "{out:?}");
    ws.run(&["write-file", "link/../new.txt", "--content", "made\n"])
        .ok();
    assert_eq!(
        std::fs::read_to_string(ws.path("sub/new.txt")).unwrap(),
        "made\n"
    );
    assert!(
        !ws.path("new.txt").exists(),
        "written beside the link instead"
    );
    // A symlink out of the workspace stays refused whatever follows it.
    let outside = ws.base.join("outside/deeper");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(ws.base.join("outside/x.txt"), "secret\n").unwrap();
    ws.symlink(&outside, "out-link");
    let out = ws.run(&["read-file", "out-link/../x.txt"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.out.contains("outside the workspace"), "{out:?}");
}
