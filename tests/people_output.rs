//! Messages and output for people (issue 9, defects 7 and 8): one wall-time format, one
//! wording for a missing path, plurals, hints for unknown flags, protected names, colour only
//! for people, and README examples that run in this repository.

mod common;
use common::*;
use serde_json::json;

// ---- wall time ----

#[test]
fn exec_and_exec_command_print_wall_time_alike() {
    let ws = Workspace::new();
    let wall = regex::Regex::new(r"(?m)^Wall time: \d+\.\d seconds$").unwrap();
    let (code, out) = ws.run(&["exec", "--", "true"]);
    assert_eq!(code, 0, "{out}");
    assert!(wall.is_match(&out), "{out}");
    let (code, out) = ws.run(&["exec-command", "true", "--yield-time-ms", "2000"]);
    assert_eq!(code, 0, "{out}");
    assert!(wall.is_match(&out), "{out}");
}

// ---- a missing path: one wording ----

#[test]
fn every_tool_words_a_missing_path_the_same() {
    let ws = Ws::new();
    for (tool, args) in [
        ("read_file", json!({"path": "nope"})),
        ("list_dir", json!({"path": "nope"})),
        ("glob", json!({"pattern": "*", "path": "nope"})),
        ("grep", json!({"pattern": "x", "path": "nope"})),
        ("edit_file", json!({"path": "nope", "old": "a", "new": "b"})),
        ("delete_path", json!({"path": "nope"})),
    ] {
        let r = ws.call(tool, &args);
        r.code(1);
        assert!(
            r.out.starts_with("Error: nope does not exist"),
            "{tool}: {}",
            r.out
        );
    }
}

// ---- plurals ----

#[test]
fn counts_of_one_are_singular() {
    let ws = Ws::new();
    let r = ws.run(&["write-file", "one.txt", "--content", "x\n"]);
    assert!(r.ok().contains("(1 line)"), "{}", r.out);
    ws.write("two.txt", "a\nb\n");
    let r = ws.run(&["read-file", "two.txt", "--limit", "1"]);
    assert!(
        r.ok().contains("(1 more line; continue with offset=2)"),
        "{}",
        r.out
    );
    let r = ws.run(&["read-file", "one.txt", "--offset", "5"]);
    assert!(r.out.contains("(1 line)"), "{}", r.out);
    ws.write("d/f.txt", "x\n");
    let r = ws.call("delete_path", &json!({"path": "d"}));
    assert!(r.out.contains("with 1 entry;"), "{}", r.out);
    let r = ws.call(
        "delete_path",
        &json!({"path": "d", "recursive": true, "dry_run": true}),
    );
    assert!(r.ok().contains("(1 file, 0 directories)"), "{}", r.out);
    ws.write("e/f.txt", "x\n").write("e/g.txt", "y\n");
    let r = ws.run(&["list-dir", "e", "--limit", "1"]);
    assert!(r.ok().contains("More than 1 entry found"), "{}", r.out);
    let r = ws.run(&["state", "forget", "one.txt"]);
    assert!(r.ok().contains("Forgot 1 entry"), "{}", r.out);
}

// ---- unknown flags ----

#[test]
fn an_unknown_flag_is_not_pointed_at_an_unrelated_global_flag() {
    let ws = Ws::new();
    ws.write("x", "x\n");
    let r = ws.run(&["read-file", "x", "--bogus"]);
    r.code(2);
    assert!(!r.err.contains("--groups"), "{}", r.err);
    assert!(r.err.contains("--bogus"), "{}", r.err);
    assert!(
        r.err.contains("--offset"),
        "lists read-file's flags: {}",
        r.err
    );
    // A near miss still gets its suggestion, a tool flag or a global one.
    let r = ws.run(&["read-file", "x", "--ofset", "2"]);
    r.code(2);
    assert!(r.err.contains("'--offset'"), "{}", r.err);
    let r = ws.run(&["read-file", "x", "--jsno"]);
    r.code(2);
    assert!(r.err.contains("'--json'"), "{}", r.err);
}

// ---- protected names ----

#[test]
fn a_protected_name_itself_is_not_inside_itself() {
    let ws = Ws::new();
    ws.write(".git/config", "[core]\n").write(".ssh/id", "k\n");
    let r = ws.run(&["delete-path", ".git", "--recursive"]);
    r.code(1);
    assert!(!r.out.contains("inside .git"), "{}", r.out);
    assert!(r.out.contains(".git is protected"), "{}", r.out);
    let r = ws.run(&["read-file", ".ssh"]);
    r.code(1);
    assert!(!r.out.contains("inside .ssh"), "{}", r.out);
    // A path under it still says inside.
    let r = ws.run(&["write-file", ".git/config", "--content", "x"]);
    assert!(r.out.contains(".git/config is inside .git"), "{}", r.out);
}

// ---- colour ----

fn dry_run(ws: &Ws, color: Option<&str>, env: &[(&str, &str)]) -> String {
    let mut c = ws.cmd();
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        c.env(k, v);
    }
    if let Some(choice) = color {
        c.args(["--color", choice]);
    }
    c.args(["write-file", "new.txt", "--content", "hello\n", "--dry-run"]);
    let r = Run::from(c.output().unwrap());
    r.ok().to_owned()
}

#[test]
fn colour_only_when_asked_for_people() {
    let ws = Ws::new();
    let plain = dry_run(&ws, None, &[]);
    assert!(plain.contains("+hello"), "{plain}");
    assert!(!plain.contains('\x1b'), "not a terminal: no colour");
    let always = dry_run(&ws, Some("always"), &[]);
    assert!(always.contains("\x1b["), "{always:?}");
    assert!(always.contains("hello"));
    assert!(!dry_run(&ws, Some("never"), &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    // CLICOLOR_FORCE colours a pipe; NO_COLOR wins over it; --color always wins over both.
    assert!(dry_run(&ws, None, &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    assert!(!dry_run(&ws, None, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
    assert!(dry_run(&ws, Some("always"), &[("NO_COLOR", "1")]).contains('\x1b'));
    // Model-facing output never: call, --json.
    let out = ws
        .cmd()
        .env("CLICOLOR_FORCE", "1")
        .args(["--color", "always", "--groups", "all", "call", "write_file"])
        .write_stdin(json!({"path": "n.txt", "content": "x\n", "dry_run": true}).to_string())
        .output()
        .unwrap();
    let r = Run::from(out);
    assert!(
        r.ok().contains("+x") && !r.out.contains('\x1b'),
        "{:?}",
        r.out
    );
    let r = Run::from(
        ws.cmd()
            .env("CLICOLOR_FORCE", "1")
            .args([
                "--color",
                "always",
                "--json",
                "write-file",
                "n.txt",
                "--content",
                "x",
                "--dry-run",
            ])
            .output()
            .unwrap(),
    );
    assert!(
        !r.ok().contains('\x1b') && !r.out.contains("\\u001b"),
        "{}",
        r.out
    );
    // A bad value is a usage error.
    Run::from(
        ws.cmd()
            .args(["--color", "sometimes", "list-dir"])
            .output()
            .unwrap(),
    )
    .code(2);
}

// ---- README ----

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The commands of the README's `sh` blocks: lines that run agtool (a heredoc body kept with
/// its command).
fn readme_commands() -> Vec<String> {
    let text = readme();
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            in_sh = line == "```sh" && !in_sh;
            continue;
        }
        if !in_sh || !(line.starts_with("agtool ") || line.contains("| agtool ")) {
            continue;
        }
        let mut cmd = line.to_owned();
        if let Some(at) = line.find("<<'EOF'") {
            let _ = at;
            for body in lines.by_ref() {
                cmd.push('\n');
                cmd.push_str(body);
                if body == "EOF" {
                    break;
                }
            }
        }
        out.push(cmd);
    }
    out
}

#[test]
fn readme_examples_run_in_this_repository() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = bin().parent().unwrap().to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let home = tempfile::tempdir().unwrap();
    let commands = readme_commands();
    assert!(commands.len() > 15, "{commands:?}");
    let mut ran = 0;
    for cmd in &commands {
        // The exec group runs commands (a test suite, a REPL) and starts sessions, notes
        // write into the workspace's state, skills live in the host's folders and web-fetch
        // needs the network (tests touch loopback only); `mcp` serves until it is stopped and
        // `lsp`/`diagnostics` start language servers: those examples name no file of this
        // repository (tests/mcp_http.rs and tests/diagnostics.rs run them for real).
        let tool = cmd
            .split("agtool ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        if [
            "exec",
            "exec-command",
            "write-stdin",
            "sessions",
            "notes",
            "web-fetch",
            "mcp",
            "lsp",
            "diagnostics",
        ]
        .contains(&tool)
            || cmd.contains("--skills-dir")
        {
            continue;
        }
        let mut c = std::process::Command::new("sh");
        clean_env(&mut c, home.path());
        // Freshness off: nothing is recorded in this repository, and the edit examples run as
        // dry runs without a read first.
        c.current_dir(dir)
            .env("PATH", &path)
            .env("AGTOOL_FRESHNESS", "off")
            .env("AGTOOL_GROUPS", "files,edit,delete")
            .args(["-c", cmd]);
        let r = Run::from(c.output().unwrap());
        assert_eq!(
            r.code, 0,
            "README example failed: {cmd}\n{}{}",
            r.out, r.err
        );
        assert!(!r.out.starts_with("Error:"), "{cmd}\n{}", r.out);
        ran += 1;
    }
    assert!(ran >= 15, "{ran}");
}

#[test]
fn readme_tells_a_tool_timeout_from_a_command_timeout() {
    let text = readme();
    assert!(
        !text.contains("A command's own exit code (124 after a timeout) is in\nthe text"),
        "the old sentence mixing the two timeouts"
    );
    assert!(
        text.contains("`Exit code: 124`"),
        "exec's timed-out command"
    );
    assert!(text.contains("124 the tool"), "agtool's own exit 124");
}
