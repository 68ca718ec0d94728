//! Workspace trust (issue 12, item 5; spec 00 "Configuration"): a cloned repository's
//! `.agent-state/config.toml` cannot widen what agtool may read, write or run unless the
//! user's own config trusts the workspace; the host's flags, environment and `--config` files
//! always apply, and narrowing keys always apply.

mod common;

use common::{Run, Ws};

/// A workspace whose own config sets `write_roots` to a folder beside it, and that folder.
fn widening_workspace() -> (Ws, std::path::PathBuf) {
    let ws = Ws::new();
    let outside = ws.base.join("outside");
    std::fs::create_dir(&outside).unwrap();
    // The folder itself, not "/": a write root of "/" makes the exec sandbox look through the
    // whole disk for protected names, and it refuses commands when that passes its budget.
    ws.write(
        ".agent-state/config.toml",
        format!(
            "write_roots = [\"{}\"]\n[exec]\nprefix = [\"env\", \"FOO=from-repo\"]\n[tools]\ngroups = [\"files\", \"edit\"]\n",
            outside.display()
        ),
    );
    (ws, outside)
}

fn write_outside(ws: &Ws, outside: &std::path::Path) -> Run {
    let target = outside.join("x.txt");
    ws.run(&[
        "write-file",
        target.to_str().unwrap(),
        "--content",
        "pwned\n",
    ])
}

#[test]
fn an_untrusted_workspace_config_cannot_widen_and_says_so() {
    let (ws, outside) = widening_workspace();
    let run = write_outside(&ws, &outside);
    run.code(1);
    assert!(run.out.contains("is outside the workspace"), "{run:?}");
    assert!(!outside.join("x.txt").exists());
    // One warning line on stderr naming the keys and how to trust the workspace.
    let warning: Vec<&str> = run.err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warning.len(), 1, "{run:?}");
    let w = warning[0];
    for key in ["write_roots", "exec.prefix", "tools.groups"] {
        assert!(w.contains(key), "{w}");
    }
    assert!(w.contains("trusted_workspaces"), "{w}");
    assert!(w.contains(&format!("\"{}\"", ws.root.display())), "{w}");
    // The prefix is not put in front of commands, and the edit group stays off for `call`.
    let run = ws.run(&["exec", "--", "sh", "-c", "echo FOO=${FOO:-unset}"]);
    assert!(run.ok().ends_with("FOO=unset\n"), "{run:?}");
    let mut c = ws.cmd();
    c.env_remove("AGTOOL_GROUPS").args(["call", "write_file"]);
    let run = Run::from(
        c.write_stdin(r#"{"path":"n.txt","content":"x"}"#)
            .output()
            .unwrap(),
    );
    run.code(1);
    assert!(run.out.contains("not enabled"), "{run:?}");
}

#[test]
fn a_trusted_workspace_config_is_obeyed() {
    let (ws, outside) = widening_workspace();
    ws.write(
        "../home/.config/agtool/config.toml",
        format!("trusted_workspaces = [\"{}\"]\n", ws.root.display()),
    );
    let run = write_outside(&ws, &outside);
    assert!(run.ok().starts_with("Created"), "{run:?}");
    assert!(!run.err.contains("warning"), "{run:?}");
    assert_eq!(std::fs::read(outside.join("x.txt")).unwrap(), b"pwned\n");
    let run = ws.run(&["exec", "--", "sh", "-c", "echo FOO=${FOO:-unset}"]);
    assert!(run.ok().ends_with("FOO=from-repo\n"), "{run:?}");
}

#[test]
fn the_hosts_flags_environment_and_config_files_are_obeyed() {
    let ws = Ws::new();
    let outside = ws.base.join("outside");
    std::fs::create_dir(&outside).unwrap();
    let host = ws.base.join("host.toml");
    std::fs::write(&host, "write_roots = [\"/\"]\n").unwrap();
    // --config
    let target = outside.join("a.txt");
    let run = ws.run(&[
        "--config",
        host.to_str().unwrap(),
        "write-file",
        target.to_str().unwrap(),
        "--content",
        "1\n",
    ]);
    assert!(run.ok().starts_with("Created"), "{run:?}");
    assert!(run.err.is_empty(), "{run:?}");
    // AGTOOL_CONFIG
    let target = outside.join("b.txt");
    let run = Run::from(
        ws.cmd()
            .env("AGTOOL_CONFIG", &host)
            .args(["write-file", target.to_str().unwrap(), "--content", "2\n"])
            .output()
            .unwrap(),
    );
    assert!(run.ok().starts_with("Created"), "{run:?}");
    // A --config file may also trust the workspace for its own config.
    ws.write(".agent-state/config.toml", "write_roots = [\"/\"]\n");
    std::fs::write(
        &host,
        format!("trusted_workspaces = [\"{}\"]\n", ws.root.display()),
    )
    .unwrap();
    let target = outside.join("c.txt");
    let run = ws.run(&[
        "--config",
        host.to_str().unwrap(),
        "write-file",
        target.to_str().unwrap(),
        "--content",
        "3\n",
    ]);
    assert!(run.ok().starts_with("Created"), "{run:?}");
    // Flags and environment: groups enabled by the host.
    let mut c = ws.cmd();
    c.env("AGTOOL_GROUPS", "files,edit")
        .args(["call", "write_file"]);
    let run = Run::from(
        c.write_stdin(r#"{"path":"n.txt","content":"x"}"#)
            .output()
            .unwrap(),
    );
    run.ok();
    let run = Run::from(
        ws.cmd()
            .env_remove("AGTOOL_GROUPS")
            .args(["--groups", "files,edit", "call", "write_file"])
            .write_stdin(r#"{"path":"m.txt","content":"x"}"#)
            .output()
            .unwrap(),
    );
    run.ok();
}

#[test]
fn narrowing_keys_apply_untrusted() {
    let ws = Ws::new();
    ws.write("secret/key.txt", "k\n").write("a.txt", "a\n");
    ws.write(
        ".agent-state/config.toml",
        "deny_read = [\".aws\", \".ssh\", \".gnupg\", \"secret\"]\nprotected_names = [\"a.txt\"]\n",
    );
    let run = ws.run(&["read-file", "secret/key.txt"]);
    run.code(1);
    assert!(!run.err.contains("warning"), "{run:?}");
    ws.run(&["read-file", "a.txt"]).ok();
    let run = ws.run(&["write-file", "a.txt", "--content", "b\n"]);
    run.code(1);
    assert_eq!(std::fs::read(ws.path("a.txt")).unwrap(), b"a\n");
    // Dropping a default denied name is a widening: `.ssh` stays unreadable.
    ws.write(".ssh/id", "private\n");
    ws.write(".agent-state/config.toml", "deny_read = [\"secret\"]\n");
    let run = ws.run(&["read-file", ".ssh/id"]);
    run.code(1);
    assert!(run.err.contains("ignoring deny_read"), "{run:?}");
}

/// Issue 17, item 6: keys that weaken a safeguard without widening access are obeyed from an
/// untrusted workspace config no more than widening ones: `freshness = false` (an edit
/// without a read), `syntax_check = false` (an edit that breaks the JSON) and a longer
/// `exec.timeout_ms` are ignored with the warning. Before, all three were obeyed.
#[test]
fn an_untrusted_workspace_cannot_weaken_a_safeguard() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n").write("c.json", "{\"k\": 1}\n");
    ws.write(
        ".agent-state/config.toml",
        "freshness = false\nsyntax_check = false\n[exec]\ntimeout_ms = 600000\n",
    );
    let run = ws.run(&["edit-file", "a.txt", "--old", "a", "--new", "b"]);
    run.code(1);
    assert!(run.out.contains("before editing"), "{run:?}");
    assert!(
        run.err.contains("freshness")
            && run.err.contains("syntax_check")
            && run.err.contains("exec.timeout_ms"),
        "{run:?}"
    );
    ws.run(&["read-file", "c.json"]).ok();
    let run = ws.run(&["edit-file", "c.json", "--old", "1}", "--new", "1"]);
    run.code(1);
    assert_eq!(ws.read("c.json"), b"{\"k\": 1}\n");
    let run = ws.run(&["exec", "--", "sleep", "12"]);
    assert!(run.out.contains("timed out") || run.code == 124, "{run:?}");
}
