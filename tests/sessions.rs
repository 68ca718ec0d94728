//! exec-command, write-stdin and `agtool sessions` through the real binary: every call is a
//! separate agtool process talking to the session server it started (spec 05).

mod common;

use std::time::{Duration, Instant};

use common::{Workspace, assert_none_with, kill, processes_with, session_id, unique_sleep};
use predicates::prelude::*;
use serde_json::{Value, json};

fn start(ws: &Workspace, cmd: &str) -> u64 {
    let (code, out) = ws.run(&["exec-command", cmd, "--yield-time-ms", "250"]);
    assert_eq!(code, 0, "{out}");
    session_id(&out)
}

fn write(ws: &Workspace, id: u64, chars: &str) -> (i32, String) {
    ws.run(&["write-stdin", &id.to_string(), "--chars", chars])
}

/// `first` plus the output of polls until `needle` shows up: on a busy machine an interpreter
/// may answer after the yield, and then the answer comes with a later reply.
fn until_seen(ws: &Workspace, id: u64, first: String, needle: &str) -> String {
    let mut all = first;
    for _ in 0..3 {
        if all.contains(needle) {
            break;
        }
        all.push_str(&ws.run(&["write-stdin", &id.to_string()]).1);
    }
    all
}

#[test]
fn cat_round_trips_across_invocations() {
    let ws = Workspace::new();
    let id = start(&ws, "cat");
    assert_eq!(id, 1000);
    let (code, out) = write(&ws, id, "hello\n");
    assert_eq!(code, 0);
    assert!(
        predicate::str::is_match(
            r"^Wall time: \d+\.\d seconds\nProcess running with session ID 1000\nOutput:\nhello\n$"
        )
        .unwrap()
        .eval(&out),
        "{out}"
    );
    // The body can come from stdin, too.
    let out = ws
        .cmd()
        .args(["write-stdin", "1000"])
        .write_stdin("piped\n")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("Output:\npiped\n"));
    ws.cmd()
        .args(["sessions", "kill", "1000"])
        .assert()
        .code(0)
        .stdout("Killed session 1000.\n");
    ws.cmd()
        .args(["write-stdin", "1000", "--chars", "x"])
        .assert()
        .code(1)
        .stdout("Error: no session 1000 (none was started with that id, it was killed, or it ended and its exit was already reported)\n");
}

#[test]
fn call_json_path_and_fields() {
    let ws = Workspace::new();
    let (code, out) = ws.call(
        "exec_command",
        &json!({"cmd": "echo ready; cat", "yield_time_ms": 300}),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("Output:\nready\n"), "{out}");
    let id = session_id(&out);
    let out = ws
        .cmd()
        .args(["write-stdin", "--json", "--args"])
        .arg(json!({"session_id": id, "chars": "x\n"}).to_string())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["session_id"], id);
    assert_eq!(v["output"].as_str().unwrap().lines().last(), Some("x"));
    // The exit is reported once, with its code, then the session is gone.
    let (_, out) = ws.call(
        "write_stdin",
        &json!({"session_id": id, "chars": "\u{3}", "yield_time_ms": 2000}),
    );
    assert!(out.contains("Process exited with code 130\n"), "{out}");
    let (code, out) = ws.call("write_stdin", &json!({"session_id": id}));
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "Error: no session 1000 (none was started with that id, it was killed, or it ended and its exit was already reported)\n"
        )
    );
}

#[test]
fn a_python_repl_keeps_its_state() {
    let ws = Workspace::new();
    let (_, out) = ws.run(&[
        "exec-command",
        "python3 -q -u -i",
        "--yield-time-ms",
        "1000",
    ]);
    let id = session_id(&out);
    write(&ws, id, "x = 6\n");
    let (_, out) = ws.run(&[
        "write-stdin",
        &id.to_string(),
        "--chars",
        "print(x * 7)\n",
        "--yield-time-ms",
        "1000",
    ]);
    let out = until_seen(&ws, id, out, "42");
    assert!(out.contains("42"), "{out}");
    let (_, out) = ws.run(&[
        "write-stdin",
        &id.to_string(),
        "--chars",
        "exit(4)\n",
        "--yield-time-ms",
        "2000",
    ]);
    assert!(out.contains("Process exited with code 4"), "{out}");
}

#[test]
fn a_shell_repl_with_login_shell() {
    let ws = Workspace::new();
    let (_, first) = ws.run(&[
        "exec-command",
        "shopt -q login_shell && echo login; exec sh",
        "--login",
        "true",
        "--yield-time-ms",
        "500",
    ]);
    let id = session_id(&first);
    // A login shell reads the profile first, which may take longer than the yield on a busy
    // machine: whatever it printed late comes with the next reply.
    let (_, second) = ws.run(&[
        "write-stdin",
        &id.to_string(),
        "--chars",
        "echo $((6 * 7))\n",
        "--yield-time-ms",
        "2000",
    ]);
    let both = format!("{first}{second}");
    assert!(both.contains("login\n"), "{both}");
    assert!(second.ends_with("\n42\n"), "{second}");
}

#[test]
fn a_session_gets_the_callers_environment_not_the_servers() {
    let ws = Workspace::new();
    start(&ws, "cat"); // the server starts with this caller's environment
    let out = ws
        .cmd()
        .env("AGTOOL_PROBE", "second caller")
        .env("PAGER", "less")
        .args(["exec-command", "echo $AGTOOL_PROBE, $PAGER"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("Output:\nsecond caller, cat\n"), "{text}");
}

#[test]
fn ctrl_c_interrupts_a_sleep() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let id = start(&ws, &format!("sleep {marker}"));
    let started = Instant::now();
    let (code, out) = ws.run(&["write-stdin", &id.to_string(), "--chars", "\u{3}"]);
    assert_eq!(code, 0);
    assert!(out.contains("Process exited with code 130\n"), "{out}");
    assert!(started.elapsed() < Duration::from_secs(10)); // a bound against hangs
    assert_none_with(&marker);
}

#[test]
fn killing_a_session_leaves_no_process() {
    let ws = Workspace::new();
    let (a, b) = (unique_sleep(), unique_sleep());
    start(&ws, &format!("sleep {a} & (setsid sleep {b} &); wait"));
    let detached = processes_with(&b);
    assert!(
        detached.iter().any(|(_, c)| c.starts_with("sleep ")),
        "{detached:?}"
    );
    ws.cmd()
        .args(["sessions", "kill", "--all"])
        .assert()
        .code(0)
        .stdout("Killed 1 session: 1000\n");
    assert_none_with(&a);
    assert_none_with(&b);
}

#[test]
fn sessions_list_kill_and_stop_server() {
    let ws = Workspace::new();
    ws.cmd()
        .args(["sessions", "list"])
        .assert()
        .stdout("No sessions.\n");
    start(&ws, "cat");
    start(&ws, "sleep 0.6");
    std::thread::sleep(Duration::from_millis(800));
    ws.cmd().args(["sessions", "list"]).assert().code(0).stdout(
        predicate::str::is_match(
            r"^1000\t\d+\trunning\t\d+s\tcat\n1001\t\d+\texited 0\t\d+s\tsleep 0.6\n$",
        )
        .unwrap(),
    );
    ws.cmd()
        .args(["sessions", "kill", "4242"])
        .assert()
        .code(1)
        .stdout("Error: no session 4242 (none was started with that id, it was killed, or it ended and its exit was already reported)\n");
    ws.cmd()
        .args(["sessions", "stop-server"])
        .assert()
        .code(0)
        .stdout("Stopped the session server (its sessions were killed).\n");
    ws.cmd()
        .args(["sessions", "stop-server"])
        .assert()
        .stdout("No session server was running.\n");
    ws.cmd()
        .args(["sessions", "kill", "1000"])
        .assert()
        .code(1)
        .stdout("Error: session 1000 is gone (the session server restarted)\n");
}

#[test]
fn two_parallel_first_calls_start_one_server() {
    let ws = Workspace::new();
    let ids: Vec<u64> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2).map(|_| s.spawn(|| start(&ws, "cat"))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, [1000, 1001]);
    let servers = wait_servers(&ws, 1);
    assert_eq!(servers.len(), 1, "{servers:?}");
    let (_, out) = ws.run(&["sessions", "list"]);
    assert_eq!(out.lines().count(), 2, "{out}");
}

/// Live session-server processes for this workspace, once their number settles at `want`
/// (a server that lost the start-up race needs a moment to give up).
fn wait_servers(ws: &Workspace, want: usize) -> Vec<(i32, String)> {
    let needle = format!("session-server --state-dir {}", ws.path().display());
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        let found = processes_with(&needle);
        if found.len() == want || Instant::now() >= end {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_killed_server_means_gone_sessions_and_no_orphans() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let id = start(&ws, &format!("sleep {marker}"));
    let server = ws.server_pid().unwrap();
    kill(server);
    let started = Instant::now();
    ws.cmd()
        .args(["write-stdin", &id.to_string(), "--chars", "x"])
        .assert()
        .code(1)
        .stdout(format!(
            "Error: session {id} is gone (the session server restarted)\n"
        ));
    assert!(started.elapsed() < Duration::from_secs(15)); // a bound against hangs
    // The new server ended what the dead one left running.
    assert_none_with(&marker);
    assert_ne!(ws.server_pid(), Some(server));
    // Ids go on from where the dead server stopped.
    assert_eq!(start(&ws, "cat"), id + 1);
}

#[test]
fn a_stale_socket_is_replaced() {
    let ws = Workspace::new();
    start(&ws, "cat");
    let server = ws.server_pid().unwrap();
    kill(server); // the socket file stays behind
    let sock = ws.path().join(".agent-state/sessions/server.sock");
    let end = Instant::now() + Duration::from_secs(3);
    while std::path::Path::new(&format!("/proc/{server}")).exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(sock.exists());
    let (code, out) = ws.run(&["exec-command", "echo fresh", "--yield-time-ms", "2000"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("Output:\nfresh\n"), "{out}");
}

#[test]
fn seventy_sessions_prune_by_the_rule() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let cmd = format!("sleep {marker}");
    // Ids and recency are assigned together in the server, so starting in parallel keeps
    // id order equal to use order.
    let start_many = |n: usize| {
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..n).map(|_| s.spawn(|| start(&ws, &cmd))).collect();
            hs.into_iter().for_each(|h| {
                h.join().unwrap();
            });
        })
    };
    for _ in 0..8 {
        start_many(8);
    }
    // 1010 exits (not yet reported), and 1000 is used again: both change the order.
    let (_, list) = ws.run(&["sessions", "list"]);
    let pid_1010: i32 = list
        .lines()
        .find(|l| l.starts_with("1010\t"))
        .and_then(|l| l.split('\t').nth(1))
        .unwrap()
        .parse()
        .unwrap();
    kill(pid_1010);
    write(&ws, 1000, "x");
    start_many(6);
    let (_, list) = ws.run(&["sessions", "list"]);
    let ids: Vec<u64> = list
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 64);
    let pruned: Vec<u64> = (1000..1070).filter(|i| !ids.contains(i)).collect();
    assert_eq!(pruned, [1001, 1002, 1003, 1004, 1005, 1010]);
    ws.cmd()
        .args(["write-stdin", "1001"])
        .assert()
        .code(1)
        .stdout("Error: no session 1001 (none was started with that id, it was killed, or it ended and its exit was already reported)\n");
    ws.run(&["sessions", "kill", "--all"]);
    assert_none_with(&marker);
}

#[test]
fn bad_input_gets_clear_errors() {
    let ws = Workspace::new();
    let (code, _) = ws.call("exec_command", &json!({"cmd": ""}));
    assert_eq!(code, 2);
    let (code, out) = ws.call("exec_command", &json!({"cmd": "true", "workdir": "nope"}));
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("Error: "));
    let (code, out) = ws.call(
        "exec_command",
        &json!({"cmd": "true", "shell": "/no/shell"}),
    );
    assert_eq!(code, 1);
    assert!(out.starts_with("Error: cannot run /no/shell: "), "{out}");
    // Out-of-range yields and budgets are clamped, not refused.
    let (code, out) = ws.call(
        "exec_command",
        &json!({"cmd": "echo ok", "yield_time_ms": 1, "max_output_tokens": 0}),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[... 3 bytes omitted ...]"), "{out}");
    // No state folder and no server: unknown, without starting a server.
    let fresh = Workspace::new();
    let (code, out) = fresh.call("write_stdin", &json!({"session_id": 1000}));
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "Error: no session 1000 (none was started with that id, it was killed, or it ended and its exit was already reported)\n"
        )
    );
    assert!(!fresh.path().join(".agent-state/sessions").exists());
}

#[test]
fn the_state_folder_is_created_private_and_ignored() {
    let ws = Workspace::new();
    start(&ws, "cat");
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &str| {
        std::fs::metadata(ws.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(".agent-state/sessions"), 0o700);
    assert_eq!(mode(".agent-state/sessions/server.sock"), 0o600);
    assert_eq!(
        std::fs::read_to_string(ws.path().join(".agent-state/.gitignore")).unwrap(),
        "*\n"
    );
    let log = std::fs::read_to_string(ws.path().join(".agent-state/sessions/server.log")).unwrap();
    assert!(log.contains("listening on"), "{log}");
}

#[test]
fn input_for_a_process_that_never_reads_is_bounded() {
    // Each write is queued for the process's stdin; a process that never reads must not let
    // the queue (and the server's memory) grow without limit.
    let ws = Workspace::new();
    let marker = unique_sleep();
    let id = start(&ws, &format!("sleep {marker}"));
    let body = "a".repeat(10 << 20);
    let send = || {
        let out = ws
            .cmd()
            .args(["write-stdin", &id.to_string()])
            .write_stdin(body.clone())
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = send();
    assert_eq!(code, 0, "{out}");
    let (code, out) = send();
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with(&format!("Error: session {id} is not reading its stdin")),
        "{out}"
    );
    // The session is still there and can be interrupted or killed.
    ws.cmd()
        .args(["sessions", "kill", &id.to_string()])
        .assert()
        .code(0);
    assert_none_with(&marker);
}

#[test]
fn chars_too_large_for_one_request_get_a_clear_error() {
    let ws = Workspace::new();
    let id = start(&ws, "cat > /dev/null");
    // Within the 64 Mi-character cap of chars, but JSON escapes (`\u0001`, 6 bytes each)
    // take the request past the 64 MiB the server reads.
    let out = ws
        .cmd()
        .args(["write-stdin", &id.to_string()])
        .write_stdin("\u{1}".repeat(12 << 20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("Error: "), "{text}");
    assert!(text.contains("too large"), "{text}");
    assert!(text.contains("smaller parts"), "{text}");
    // Past the cap itself: an argument error naming it.
    let out = ws
        .cmd()
        .args(["write-stdin", &id.to_string()])
        .write_stdin("b".repeat(70 << 20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("/chars: expected string of at most 67108864 characters"),
        "{text}"
    );
}

#[test]
fn an_orphan_with_a_scrubbed_environment_dies_with_its_session() {
    // A grandchild that clears its environment and setsids away carries no tree tag; with one
    // session in the server it still belongs to that session's tree.
    let ws = Workspace::new();
    let marker = unique_sleep();
    let id = start(
        &ws,
        &format!("(env -i setsid sleep {marker} &); sleep 1000"),
    );
    let end = Instant::now() + Duration::from_secs(5);
    while processes_with(&marker).is_empty() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    ws.cmd()
        .args(["sessions", "kill", &id.to_string()])
        .assert()
        .code(0);
    assert_none_with(&marker);
}

#[test]
fn stop_server_ends_untagged_orphans_of_any_session() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    start(
        &ws,
        &format!("(env -i setsid sleep {marker} &); sleep 1000"),
    );
    start(&ws, "sleep 1000");
    let end = Instant::now() + Duration::from_secs(5);
    while processes_with(&marker).is_empty() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    ws.cmd().args(["sessions", "stop-server"]).assert().code(0);
    assert_none_with(&marker);
}

/// The private temp folder of a session's sandbox (its `TMPDIR`) stayed behind after the
/// session ended, with what the command wrote there (2,350 of them on one machine), and was
/// made with the umask's mode (0755): readable by other users. It is 0700 now and goes when
/// the session ends: killed, exited, or with the server.
#[test]
fn a_sessions_private_temp_folder_is_private_and_goes_with_it() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Workspace::new();
    let tmp_of = |out: &str| -> std::path::PathBuf {
        out.lines()
            .find(|l| l.contains("agtool-cmd-"))
            .map(|l| l.trim().into())
            .unwrap_or_else(|| panic!("no TMPDIR in {out}"))
    };
    let (code, out) = ws.run(&[
        "exec-command",
        "echo $TMPDIR; echo data > $TMPDIR/kept; sleep 30",
        "--yield-time-ms",
        "500",
    ]);
    assert_eq!(code, 0, "{out}");
    let id = session_id(&out);
    let dir = tmp_of(&out);
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{}", dir.display());
    assert!(dir.join("kept").exists());
    let (code, out) = ws.run(&["sessions", "kill", &id.to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        !dir.exists(),
        "{} is still there after a kill",
        dir.display()
    );
    // One that exits within the call.
    let (_, out) = ws.run(&["exec-command", "echo $TMPDIR", "--yield-time-ms", "2000"]);
    assert!(!tmp_of(&out).exists(), "{out}");
    // One still running when the server stops.
    let (_, out) = ws.run(&[
        "exec-command",
        "echo $TMPDIR; sleep 30",
        "--yield-time-ms",
        "500",
    ]);
    let dir = tmp_of(&out);
    assert!(dir.exists());
    ws.run(&["sessions", "stop-server"]);
    assert!(
        !dir.exists(),
        "{} is still there after stop-server",
        dir.display()
    );
}
