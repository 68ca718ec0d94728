//! `agtool exec` through the real binary (spec 05, "exec (one shot)"), and the shared exec
//! edge cases (tests/data/exec-edge-cases.json, copied from the project's shared cases).

mod common;

use std::time::{Duration, Instant};

use common::{Workspace, assert_none_with, processes_with, unique_sleep};
use predicates::prelude::*;
use serde_json::{Value, json};

#[test]
fn shared_exec_edge_cases() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("data/exec-edge-cases.json")).unwrap();
    assert_eq!(cases.len(), 3);
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let ws = Workspace::new();
        for (name, spec) in case["files"].as_object().unwrap() {
            std::fs::write(ws.path().join(name), spec["text"].as_str().unwrap()).unwrap();
        }
        for step in case["steps"].as_array().unwrap() {
            let started = Instant::now();
            let (code, out) = ws.call(step["tool"].as_str().unwrap(), &step["args"]);
            let took = started.elapsed();
            if let Some(exit) = step["exit"].as_i64() {
                assert_eq!(i64::from(code), exit, "{id}: {out}");
            }
            if let Some(re) = step["output_matches"].as_str() {
                assert!(
                    predicate::str::is_match(re).unwrap().eval(&out),
                    "{id}: {out:?} does not match {re}"
                );
            }
            if let Some(max) = step["max_seconds"].as_f64() {
                assert!(took.as_secs_f64() <= max, "{id}: took {took:?}");
            }
            if let Some(marker) = step["no_process_after"].as_str() {
                let left = processes_with(marker);
                assert!(left.is_empty(), "{id}: left {left:?}");
            }
        }
    }
}

#[test]
fn text_shape_and_exit_status() {
    let ws = Workspace::new();
    ws.cmd()
        .args(["exec", "--", "sh", "-c", "echo out; echo err >&2; exit 5"])
        .assert()
        .code(0)
        .stdout(
            predicate::str::is_match(
                // A failed command's text ends with the sandbox's note (spec 08).
                r"^Exit code: 5\nWall time: \d+\.\d seconds\nOutput:\nout\nerr\n\nNote: ran in the workspace-write sandbox [^\n]*\n$",
            )
            .unwrap(),
        );
    ws.cmd()
        .args(["exec", "--exit-code", "--", "sh", "-c", "exit 5"])
        .assert()
        .code(5);
}

#[test]
fn json_arguments_and_envelope_fields() {
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args([
            "exec",
            "--json",
            "--args",
            r#"{"command":["sh","-c","echo hi"],"timeout_ms":5000}"#,
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["timed_out"], false);
    assert!(v["output"].as_str().unwrap().ends_with("Output:\nhi\n"));
}

#[test]
fn bad_input_gets_clear_errors() {
    let ws = Workspace::new();
    let (code, out) = ws.call("exec", &json!({"command": []}));
    assert_eq!(code, 2, "{out}");
    let (code, _) = ws.call("exec", &json!({"command": ["true"], "timeout_ms": 0}));
    assert_eq!(code, 2);
    let (code, _) = ws.call("exec", &json!({"command": ["true"], "timeout_ms": 600_001}));
    assert_eq!(code, 2);
    ws.cmd()
        .args(["exec", "--", "agtool-no-such-program", "x"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "Error: cannot run agtool-no-such-program: ",
        ));
    std::fs::write(ws.path().join("notexec.sh"), "#!/bin/sh\necho hi\n").unwrap();
    ws.cmd()
        .args(["exec", "--", "./notexec.sh"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "cannot run ./notexec.sh: permission denied",
        ));
    ws.cmd()
        .args(["exec", "--workdir", "missing", "--", "true"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("Error: "));
    // A workdir outside the workspace fails the read policy.
    ws.cmd()
        .args(["exec", "--workdir", "/", "--", "true"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("Error: "));
}

#[test]
fn spawn_failures_name_the_real_cause() {
    let ws = Workspace::new();
    std::fs::create_dir(ws.path().join("adir")).unwrap();
    ws.cmd()
        .args(["exec", "--", "./adir"])
        .assert()
        .code(1)
        .stdout("Error: cannot run ./adir: it is a directory\n");
    // A path (with a slash) is not looked up on PATH.
    ws.cmd()
        .args(["exec", "--", "/no/such/prog"])
        .assert()
        .code(1)
        .stdout("Error: cannot run /no/such/prog: no such file\n");
    // The script exists; its interpreter does not.
    let script = ws.path().join("bad-interp.sh");
    std::fs::write(&script, "#!/no/such/interpreter\necho hi\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    ws.cmd()
        .args(["exec", "--", "./bad-interp.sh"])
        .assert()
        .code(1)
        .stdout("Error: cannot run ./bad-interp.sh: its interpreter (the #! line) was not found\n");
    let (code, out) = ws.call("exec", &json!({"command": ["echo", "a\u{0}b"]}));
    assert_eq!(
        (code, out.as_str()),
        (1, "Error: cannot run echo: an argument holds a NUL byte\n")
    );
    let (code, out) = ws.call("exec_command", &json!({"cmd": "true", "shell": ""}));
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out,
        "Error: the shell is empty; name a program, e.g. /bin/sh\n"
    );
}

#[test]
fn an_orphan_with_a_scrubbed_environment_is_killed() {
    // Double-forking away with a cleared environment drops the tree tag; agtool, as the child
    // subreaper running one command, still owns the orphan.
    let ws = Workspace::new();
    let marker = unique_sleep();
    ws.cmd()
        .args([
            "exec",
            "--timeout-ms",
            "5000",
            "--",
            "sh",
            "-c",
            &format!("(env -i setsid sleep {marker} > /dev/null 2>&1 &); echo started; sleep 0.3"),
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("started"));
    assert_none_with(&marker);
}

#[test]
fn workdir_relative_to_the_current_directory() {
    let ws = Workspace::new();
    std::fs::create_dir_all(ws.path().join("sub/inner")).unwrap();
    ws.cmd()
        .current_dir(ws.path().join("sub"))
        .args(["exec", "--workdir", "inner", "--", "pwd"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("/sub/inner\n"));
}

#[test]
fn config_prefix_wraps_every_command() {
    // exec.prefix widens what runs, so it is passed the host's way (a --config file), not
    // from the (untrusted) workspace's own config (spec 00, "Workspace trust").
    let ws = Workspace::new();
    let config = ws.path().join("host.toml");
    std::fs::write(&config, "[exec]\nprefix = [\"env\", \"FOO=1\"]\n").unwrap();
    ws.cmd()
        .arg("--config")
        .arg(&config)
        .args(["exec", "--", "sh", "-c", "echo FOO=$FOO"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("Output:\nFOO=1\n"));
}

#[test]
fn timeout_reports_124_and_kills_a_setsid_grandchild() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let started = Instant::now();
    ws.cmd()
        .args([
            "exec",
            "--timeout-ms",
            "500",
            "--",
            "sh",
            "-c",
            &format!("echo begun; setsid sleep {marker} & wait"),
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::is_match(
            r"^Exit code: 124\nWall time: 0\.\d seconds\nOutput:\ncommand timed out after 500 milliseconds\nbegun\n$",
        ).unwrap());
    assert!(started.elapsed() < Duration::from_secs(15)); // a bound against hangs
    assert_none_with(&marker);
}

/// Runs `sh -c <script(marker)>` under a 300 ms timeout: it must time out (124) and leave no
/// process carrying the marker behind.
fn times_out_and_leaves_nothing(script: impl Fn(&str) -> String) {
    let ws = Workspace::new();
    let marker = unique_sleep();
    ws.cmd()
        .args([
            "exec",
            "--timeout-ms",
            "300",
            "--",
            "sh",
            "-c",
            &script(&marker),
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Exit code: 124\n"));
    assert_none_with(&marker);
}

#[test]
fn a_child_ignoring_sigterm_dies() {
    times_out_and_leaves_nothing(|m| format!("trap '' TERM; sleep {m}"));
}

#[test]
fn background_job_and_wait_leaves_nothing_behind() {
    times_out_and_leaves_nothing(|m| format!("sleep {m} & wait"));
}

#[test]
fn a_command_killing_its_own_group_does_not_kill_agtool() {
    // `kill 0` signals the caller's process group: the command's own session, not agtool's.
    let ws = Workspace::new();
    ws.cmd()
        .args(["exec", "--", "sh", "-c", "echo before; kill 0; echo after"])
        .assert()
        .code(0)
        .stdout(
            predicate::str::is_match(
                r"^Exit code: 143\n(.|\n)*Output:\nbefore\n\nNote: ran in [^\n]*\n$",
            )
            .unwrap(),
        );
}

#[test]
fn killed_by_a_signal_is_128_plus_signal() {
    let ws = Workspace::new();
    ws.cmd()
        .args(["exec", "--", "sh", "-c", "kill -KILL $$"])
        .assert()
        .stdout(predicate::str::starts_with("Exit code: 137\n"));
}

#[test]
fn invalid_utf8_is_replaced() {
    let ws = Workspace::new();
    ws.cmd()
        .args(["exec", "--", "printf", r"ok\377\376end\n"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "Output:\nok\u{FFFD}\u{FFFD}end\n",
        ));
}

#[test]
fn fifty_megabytes_show_head_tail_and_line_count() {
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args([
            "exec",
            "--",
            "sh",
            "-c",
            "seq 1 5; head -c 50000000 /dev/zero | tr '\\0' 'x'; echo; seq 6 10",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let omitted = 10 + 50_000_000 + 1 + 11 - 30_000;
    assert!(
        text.contains("Total output lines: 11\nOutput:\n1\n2\n3\n4\n5\nxxx"),
        "{:.300}",
        text
    );
    assert!(text.contains(&format!("xxx\n[... {omitted} bytes omitted ...]\nxxx")));
    assert!(text.ends_with("xxx\n6\n7\n8\n9\n10\n"));
    assert!(text.len() < 31_000);
}

#[test]
fn a_pager_or_editor_never_waits() {
    let ws = Workspace::new();
    let started = Instant::now();
    ws.cmd()
        .args([
            "exec",
            "--timeout-ms",
            "8000",
            "--",
            "sh",
            "-c",
            "echo $PAGER $GIT_PAGER $EDITOR; git var GIT_EDITOR; git var GIT_PAGER",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "Output:\ncat cat true\ntrue\ncat\n",
        ));
    assert!(started.elapsed() < Duration::from_secs(6));
}

#[test]
fn schema_marks_the_exec_tools_sensitive_and_serial() {
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args(["schema", "--groups", "exec", "--extensions"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["exec", "exec_command", "write_stdin"]);
    for t in v.as_array().unwrap() {
        let x = &t["x-agtool"];
        assert_eq!(x["group"], "exec");
        assert_eq!(x["sensitive"], true);
        assert_eq!(x["serial"], true);
    }
    // exit_code is a CLI flag, not part of what a model sees.
    let props = &v[0]["input_schema"]["properties"];
    assert!(props.get("exit_code").is_none());
    assert_eq!(v[0]["input_schema"]["required"], json!(["command"]));
}

/// Regression (CI stop 6): on a machine whose session leader lives outside our pid namespace,
/// the kernel reports our session id as 0, and `exec` panicked in rustix's `getsid`. The test
/// recreates that with `unshare --pid --fork --mount-proc` (needs root or user namespaces); where
/// unshare cannot run it says so and checks nothing else.
#[test]
fn exec_works_when_the_session_leader_is_outside_the_pid_namespace() {
    let probe = std::process::Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc", "sh", "-c"])
        .arg("cut -d' ' -f6 /proc/self/stat")
        .output();
    let Some(probe) = probe.ok().filter(|o| o.status.success()) else {
        eprintln!("unshare --pid is not available here; the pid-namespace case is not checked");
        return;
    };
    assert_eq!(String::from_utf8_lossy(&probe.stdout).trim(), "0");
    let ws = Workspace::new();
    let marker = unique_sleep();
    let bin = assert_cmd::cargo::cargo_bin("agtool");
    let script = format!("(setsid sleep {marker} >/dev/null 2>&1 &); echo started; sleep 30");
    let out = std::process::Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc"])
        .arg(&bin)
        .args(["--root"])
        .arg(ws.path())
        .args(["exec", "--timeout-ms", "500", "--", "sh", "-c", &script])
        .env_remove("AGTOOL_EXEC_TAG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Exit code: 124"), "{text}");
    assert!(text.contains("started"), "{text}");
    assert_none_with(&marker);
}

/// Starts agtool with `args` (and `stdin`) in `ws`, waits until `count` processes carry
/// `marker`, sends it signal `name`, and returns its exit status and stdout.
fn signal_during_exec(
    ws: &Workspace,
    args: &[&str],
    stdin: &str,
    marker: &str,
    count: usize,
    name: &str,
) -> (std::process::ExitStatus, String) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut agtool = std::process::Command::new(assert_cmd::cargo::cargo_bin("agtool"))
        .current_dir(ws.path())
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_EXEC_TAG")
        .env("AGTOOL_GROUPS", "files,exec")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = agtool.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let started = Instant::now();
    while processes_with(marker).len() < count {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "SIG{name}: the command did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    common::signal(agtool.id() as i32, name);
    let ended = Instant::now();
    let status = loop {
        if let Some(status) = agtool.try_wait().unwrap() {
            break status;
        }
        if ended.elapsed() > Duration::from_secs(20) {
            let _ = agtool.kill();
            panic!("SIG{name}: agtool did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stdout = String::new();
    agtool
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    (status, stdout)
}

fn interrupted_message(name: &str) -> String {
    format!("Error: interrupted by SIG{name}; the command and everything it started were killed\n")
}

/// SIGTERM, SIGINT or SIGHUP to agtool during a one-shot exec (a harness's `timeout`, Ctrl-C
/// in a terminal, a closed terminal) kills the command's whole tree, which lives in its own
/// session out of the signal's reach, and agtool exits with 128 + the signal, saying why.
#[test]
fn a_termination_signal_to_agtool_kills_the_tree_first() {
    for (number, name) in [(15, "TERM"), (2, "INT"), (1, "HUP")] {
        let ws = Workspace::new();
        let marker = unique_sleep();
        let script = format!("sleep {marker} & sleep {marker}");
        let args = ["exec", "--timeout-ms", "60000", "--", "sh", "-c", &script];
        let (status, stdout) = signal_during_exec(&ws, &args, "", &marker, 2, name);
        // SIGINT ends agtool by SIGINT itself (so a shell script stops; see
        // tests/attack_signals.rs); the others by exit(128 + signal).
        let code = status.code().or_else(|| {
            use std::os::unix::process::ExitStatusExt;
            status.signal().filter(|&s| s == 2).map(|s| 128 + s)
        });
        assert_eq!(code, Some(128 + number), "SIG{name}: {status:?}");
        assert_eq!(
            status.code().is_none(),
            name == "INT",
            "SIG{name}: {status:?}"
        );
        assert_eq!(stdout, interrupted_message(name), "SIG{name}");
        assert_none_with(&marker);
    }
}

/// In `call --batch` the signal also ends the batch: the calls after the exec do not run.
#[test]
fn a_termination_signal_ends_a_batch() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let batch = json!([
        {"name": "exec", "arguments": {"command": ["sleep", marker]}},
        {"name": "exec", "arguments": {"command": ["touch", "second-ran"]}},
    ]);
    let args = ["call", "--batch"];
    let (status, stdout) = signal_during_exec(&ws, &args, &batch.to_string(), &marker, 1, "TERM");
    assert_eq!(status.code(), Some(143), "{status:?}");
    assert_eq!(stdout, interrupted_message("TERM"));
    assert!(!ws.path().join("second-ran").exists());
    assert_none_with(&marker);
}

/// A workdir that does not exist was called "not a directory".
#[test]
fn a_missing_workdir_is_called_missing() {
    let ws = Workspace::new();
    std::fs::write(ws.path().join("afile"), "x").unwrap();
    let (code, out) = ws.run(&["exec", "--workdir", "nodir", "--", "true"]);
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "Error: workdir nodir does not exist; give an existing folder\n"
        )
    );
    let (code, out) = ws.run(&["exec", "--workdir", "afile", "--", "true"]);
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "Error: workdir afile is not a directory; give an existing folder\n"
        )
    );
}

/// `--json exec --exit-code`: the envelope said `"exit": 0` while the process exited with the
/// command's code.
#[test]
fn the_envelope_exit_is_the_passed_through_code() {
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args(["--json", "exec", "--exit-code", "--", "sh", "-c", "exit 7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["exit"].clone(), v["exit_code"].clone()),
        (json!(7), json!(7)),
        "{v}"
    );
}
