//! Integration tests of the framework: argument paths, envelopes, groups, batch, timeouts,
//! configuration and root discovery (spec 00, 07). They run the real binary in temp folders.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

fn agtool(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("agtool").unwrap();
    c.current_dir(dir)
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_GROUPS")
        .env_remove("AGTOOL_CONFIG")
        .env("XDG_CONFIG_HOME", dir.join(".no-user-config"));
    c
}

fn workspace() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join(".git")).unwrap();
    std::fs::write(t.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    t
}

#[test]
fn fifo_is_refused_without_blocking() {
    let t = workspace();
    let fifo = t.path().join("pipe");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(ok.success());
    agtool(t.path())
        .args(["read-file", "pipe"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("not a regular file (fifo)"));
    agtool(t.path())
        .args(["write-file", "pipe", "--content", "x"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("not a regular file"));
}

#[test]
fn timeout_exits_124_with_message() {
    let t = workspace();
    // 64 MiB: hashing it takes far longer than 1 ms.
    let big = vec![b'x'; 64 << 20];
    std::fs::write(t.path().join("big.txt"), &big).unwrap();
    agtool(t.path())
        .args(["--timeout-ms", "1", "read-file", "big.txt", "--limit", "1"])
        .assert()
        .code(124)
        .stdout(predicate::str::contains(
            "Error: read_file timed out after 1 ms",
        ));
}

#[test]
fn call_refuses_disabled_groups_and_names_the_group() {
    let t = workspace();
    agtool(t.path())
        .args(["call", "write_file"])
        .write_stdin(r#"{"path":"n.txt","content":"x"}"#)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("group edit").and(predicate::str::contains("--groups")));
    assert!(!t.path().join("n.txt").exists());
    agtool(t.path())
        .args(["--groups", "files,edit", "call", "write_file"])
        .write_stdin(r#"{"path":"n.txt","content":"x"}"#)
        .assert()
        .success();
    assert_eq!(std::fs::read(t.path().join("n.txt")).unwrap(), b"x");
}

#[test]
fn envelopes_anthropic_openai_and_wrapped() {
    let t = workspace();
    let expected = agtool(t.path())
        .args(["read-file", "a.txt", "--offset", "2"])
        .output()
        .unwrap()
        .stdout;
    for env in [
        r#"{"name":"read_file","input":{"path":"a.txt","offset":2}}"#,
        r#"{"name":"read_file","arguments":"{\"path\":\"a.txt\",\"offset\":2}"}"#,
        r#"{"type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.txt\",\"offset\":2}"}}"#,
    ] {
        let out = agtool(t.path())
            .arg("call")
            .write_stdin(env)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{env}");
        assert_eq!(out.stdout, expected, "{env}");
    }
    let out = agtool(t.path())
        .args(["read-file", "--args", r#"{"path":"a.txt","offset":2}"#])
        .output()
        .unwrap();
    assert_eq!(out.stdout, expected);
    let out = agtool(t.path())
        .args(["read-file", "--args", "-"])
        .write_stdin(r#"{"path":"a.txt","offset":2}"#)
        .output()
        .unwrap();
    assert_eq!(out.stdout, expected);
    std::fs::write(t.path().join("args.json"), r#"{"path":"a.txt","offset":2}"#).unwrap();
    let out = agtool(t.path())
        .args(["read-file", "--args", "@args.json"])
        .output()
        .unwrap();
    assert_eq!(out.stdout, expected);
}

#[test]
fn args_and_flags_together_is_a_usage_error() {
    let t = workspace();
    agtool(t.path())
        .args([
            "read-file",
            "--offset",
            "2",
            "--args",
            r#"{"path":"a.txt"}"#,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be combined"));
}

#[test]
fn malformed_envelopes_are_usage_errors() {
    let t = workspace();
    for (input, needle) in [
        ("not json", "not valid JSON"),
        (r#"{"input":{}}"#, "missing string field \"name\""),
        (r#"{"name":"nope","input":{}}"#, "unknown tool"),
        (
            r#"{"name":"read_file","input":[1]}"#,
            "expected a JSON object",
        ),
        (
            r#"{"name":"read_file","arguments":"{bad"}"#,
            "not valid JSON",
        ),
    ] {
        agtool(t.path())
            .arg("call")
            .write_stdin(input)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
    }
}

#[test]
fn batch_runs_in_input_order() {
    let t = workspace();
    std::fs::write(t.path().join("b.txt"), "bee\n").unwrap();
    let out = agtool(t.path())
        .args(["call", "--batch"])
        .write_stdin(
            r#"[{"name":"read_file","input":{"path":"a.txt"}},
                {"name":"read_file","input":{"path":"missing.txt"}},
                {"name":"read_file","input":{"path":"b.txt"}}]"#,
        )
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 3);
    assert_eq!(arr[0]["ok"], true);
    assert!(arr[0]["output"].as_str().unwrap().contains("L1: one"));
    assert_eq!(arr[1]["ok"], false);
    assert!(arr[1]["output"].as_str().unwrap().starts_with("Error: "));
    assert!(arr[2]["output"].as_str().unwrap().contains("L1: bee"));
}

#[test]
fn json_envelope_on_success_and_refusal() {
    let t = workspace();
    let out = agtool(t.path())
        .args(["--json", "read-file", "a.txt"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["error"], serde_json::Value::Null);
    assert_eq!(v["tag"], "8BA6DAB5");
    let out = agtool(t.path())
        .args(["read-file", "nope.txt", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["output"].as_str().unwrap().starts_with("Error: "));
}

#[test]
fn unknown_config_key_is_named() {
    let t = workspace();
    std::fs::create_dir(t.path().join(".agent-state")).unwrap();
    std::fs::write(
        t.path().join(".agent-state/config.toml"),
        "freshnes = false\n",
    )
    .unwrap();
    agtool(t.path())
        .args(["read-file", "a.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("freshnes"));
}

#[test]
fn config_turns_freshness_off_and_flags_win() {
    let t = workspace();
    std::fs::create_dir(t.path().join(".agent-state")).unwrap();
    std::fs::write(
        t.path().join(".agent-state/config.toml"),
        "freshness = false\n",
    )
    .unwrap();
    // Untrusted, the workspace cannot turn the gate off (spec 00, issue 17 item 6).
    agtool(t.path())
        .args(["write-file", "a.txt", "--content", "new\n"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("ignoring freshness"));
    // Trusted by the user's config: never read, yet the overwrite is allowed.
    let user = t.path().join(".no-user-config/agtool");
    std::fs::create_dir_all(&user).unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    std::fs::write(
        user.join("config.toml"),
        format!("trusted_workspaces = [{:?}]\n", root.display().to_string()),
    )
    .unwrap();
    agtool(t.path())
        .args(["write-file", "a.txt", "--content", "new\n"])
        .assert()
        .success();
    assert_eq!(std::fs::read(t.path().join("a.txt")).unwrap(), b"new\n");
}

#[test]
fn root_is_nearest_agent_state_then_git() {
    let t = workspace();
    let sub = t.path().join("pkg/src");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("x.rs"), "fn x() {}\n").unwrap();
    agtool(&sub).args(["read-file", "x.rs"]).assert().success();
    assert!(
        t.path().join(".agent-state/reads.log").exists(),
        "state lives at the .git root (a read appends to the read log)"
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join(".agent-state/.gitignore")).unwrap(),
        "*\n"
    );
    // --root narrows the workspace: the parent's files are now outside.
    agtool(&sub)
        .args(["--root", ".", "read-file", "../../a.txt"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("outside the workspace"));
    agtool(&sub)
        .env("AGTOOL_ROOT", &sub)
        .args(["read-file", "../../a.txt"])
        .assert()
        .code(1);
}

#[test]
fn agents_do_not_vouch_for_each_other() {
    let t = workspace();
    agtool(t.path())
        .args(["--agent", "alice", "read-file", "a.txt"])
        .assert()
        .success();
    agtool(t.path())
        .env("AGTOOL_AGENT", "bob")
        .args(["write-file", "a.txt", "--content", "x\n"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("read a.txt before editing it"));
    agtool(t.path())
        .args([
            "--agent",
            "alice",
            "write-file",
            "a.txt",
            "--content",
            "x\n",
        ])
        .assert()
        .success();
}

#[test]
fn state_show_forget_reset() {
    let t = workspace();
    agtool(t.path())
        .args(["read-file", "a.txt"])
        .assert()
        .success();
    agtool(t.path())
        .args(["state", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a.txt  default  8BA6DAB5"));
    agtool(t.path())
        .args(["state", "forget", "a.txt"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Forgot 1 entry"));
    agtool(t.path())
        .args(["state", "show"])
        .assert()
        .stdout(predicate::str::contains("No reads recorded."));
    agtool(t.path())
        .args(["read-file", "a.txt"])
        .assert()
        .success();
    agtool(t.path()).args(["state", "reset"]).assert().success();
    agtool(t.path())
        .args(["state", "show"])
        .assert()
        .stdout(predicate::str::contains("No reads recorded."));
}

#[test]
fn body_from_stdin_and_terminal_never_waited_on() {
    let t = workspace();
    agtool(t.path())
        .args(["write-file", "piped.txt"])
        .write_stdin("from stdin\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Created [piped.txt#"));
    assert_eq!(
        std::fs::read(t.path().join("piped.txt")).unwrap(),
        b"from stdin\n"
    );
}

#[test]
fn help_has_examples_and_defaults() {
    let t = workspace();
    agtool(t.path())
        .args(["read-file", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Examples:").and(predicate::str::contains("default 2000")),
        );
}

#[test]
fn short_help_starts_with_the_tool_summary() {
    let t = workspace();
    let out = agtool(t.path()).args(["read-file", "-h"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Read a file with line numbers and a content tag; also images, PDFs"),
        "{text}"
    );
}

#[test]
fn unknown_subcommand_is_exit_2() {
    let t = workspace();
    agtool(t.path()).arg("frobnicate").assert().code(2);
}

#[test]
fn optional_body_does_not_wait_on_an_idle_open_stdin() {
    // A harness that leaves stdin as an open pipe it never writes to: a write-stdin poll (no
    // chars) must not block reading it.
    let t = workspace();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("agtool"))
        .current_dir(t.path())
        .env("XDG_CONFIG_HOME", t.path().join(".no-user-config"))
        .args(["write-stdin", "4242"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _held_open = child.stdin.take();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("write-stdin blocked on an idle stdin pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1));
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert!(out.contains("4242"), "{out}");
}

#[test]
fn trailing_slash_on_a_file_and_protected_names_in_any_case_are_refused() {
    let t = workspace();
    agtool(t.path())
        .args(["read-file", "a.txt/"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("ends in / but is not a folder"));
    agtool(t.path())
        .args(["write-file", ".GIT/hooks/x", "--content", "y"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("never writes"));
    assert!(!t.path().join(".GIT").exists());
}
