//! Session server tests, with the server on a thread of the test process (the client's
//! launcher is replaced). The real binary's `session-server` is covered by tests/.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::client::Launcher;
use super::server::{ServerOptions, run_with};
use super::*;
use crate::exec::tree::test_support::{assert_none_left, tagged_processes, unique_sleep};

/// A state directory whose server runs on a thread, stopped when dropped.
struct Fixture {
    _tmp: tempfile::TempDir,
    state: PathBuf,
    client: Client,
}

fn thread_launcher(idle_exit: Duration) -> Launcher {
    Arc::new(move |dir: &Path| {
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            run_with(
                &dir,
                ServerOptions {
                    idle_exit,
                    guard: None,
                    extension: None,
                },
            )
            .unwrap()
        });
        Ok(None)
    })
}

impl Fixture {
    fn new() -> Fixture {
        Fixture::with_idle(IDLE_EXIT)
    }

    fn with_idle(idle: Duration) -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let state = tmp.path().join(".agent-state");
        std::fs::create_dir(&state).unwrap();
        let client = Client::new(&state).with_launcher(thread_launcher(idle));
        Fixture {
            _tmp: tmp,
            state,
            client,
        }
    }

    fn start(&self, cmd: &str, yield_ms: u64) -> SessionReply {
        self.client
            .exec_command(&ExecCommandRequest {
                cmd: cmd.into(),
                yield_time_ms: Some(yield_ms),
                ..Default::default()
            })
            .unwrap()
    }

    fn write(&self, id: u64, chars: &str, yield_ms: u64) -> Result<SessionReply, SessionError> {
        self.client.write_stdin(&WriteStdinRequest {
            session_id: id,
            chars: chars.into(),
            yield_time_ms: Some(yield_ms),
            max_output_tokens: None,
        })
    }
}

impl Drop for Fixture {
    /// Stops the server, then fails the test if any process of its sessions survives.
    fn drop(&mut self) {
        let _ = self.client.stop_server();
        let paths = super::paths::Paths::new(&self.state).unwrap();
        let prefix = super::server::session_tag_prefix(&paths);
        let mut left = tagged_processes(&prefix);
        let end = Instant::now() + Duration::from_secs(3);
        while !left.is_empty() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
            left = tagged_processes(&prefix);
        }
        for pid in &left {
            let pid = rustix::process::Pid::from_raw(*pid).unwrap();
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
        if !left.is_empty() && !std::thread::panicking() {
            panic!("session processes left behind: {left:?}");
        }
    }
}

fn running_id(r: &SessionReply) -> u64 {
    match r.status {
        SessionStatus::Running { session_id } => session_id,
        other => panic!("expected a running session, got {other:?}: {}", r.output),
    }
}

fn exit_code(r: &SessionReply) -> i32 {
    match r.status {
        SessionStatus::Exited { exit_code } => exit_code,
        other => panic!("expected an exit, got {other:?}: {}", r.output),
    }
}

#[test]
fn cat_echoes_what_is_written_across_calls() {
    let f = Fixture::new();
    let r = f.start("cat", 250);
    let id = running_id(&r);
    assert_eq!(id, FIRST_SESSION_ID);
    assert_eq!(r.output, "");
    let r = f.write(id, "hello\n", 250).unwrap();
    assert_eq!(running_id(&r), id);
    assert_eq!(r.output, "hello\n");
    let r = f.write(id, "again\n", 250).unwrap();
    assert_eq!(r.output, "again\n");
    f.client.kill(id).unwrap();
    assert_eq!(
        f.write(id, "x", 250).unwrap_err(),
        SessionError::NoSession(id)
    );
}

#[test]
fn a_quick_command_reports_its_exit_and_leaves_no_session() {
    let f = Fixture::new();
    let r = f.start("echo hi; exit 7", 5_000);
    assert_eq!(exit_code(&r), 7);
    assert_eq!(r.output, "hi\n");
    assert!(r.wall_time < Duration::from_secs(4)); // not the 5 s yield
    assert!(f.client.list().unwrap().is_empty());
    let err = f.write(FIRST_SESSION_ID, "", 0).unwrap_err();
    assert_eq!(err, SessionError::NoSession(FIRST_SESSION_ID));
}

#[test]
fn the_exit_is_reported_once_then_the_session_is_gone() {
    let f = Fixture::new();
    let id = running_id(&f.start("sleep 0.4; echo done", 250));
    std::thread::sleep(Duration::from_millis(600));
    // A write to an exited process reports the exit (and the output) instead.
    let r = f.write(id, "ignored\n", 250).unwrap();
    assert_eq!(exit_code(&r), 0);
    assert_eq!(r.output, "done\n");
    assert_eq!(f.write(id, "", 0).unwrap_err(), SessionError::NoSession(id));
}

#[test]
fn an_empty_poll_returns_when_the_process_exits() {
    let f = Fixture::new();
    let id = running_id(&f.start("sleep 0.5; echo late", 250));
    let started = Instant::now();
    let r = f.write(id, "", 0).unwrap(); // clamped up to 5 s, but the exit ends the wait
    assert_eq!(exit_code(&r), 0);
    assert_eq!(r.output, "late\n");
    assert!(started.elapsed() < Duration::from_millis(4_500)); // not the 5 s poll
}

#[test]
fn a_shell_repl_keeps_its_state_between_writes() {
    let f = Fixture::new();
    let id = running_id(&f.start("sh", 250));
    f.write(id, "x=6\n", 250).unwrap();
    let r = f.write(id, "echo $((x * 7))\n", 250).unwrap();
    assert_eq!(r.output, "42\n");
    let r = f.write(id, "exit 3\n", 250).unwrap();
    assert_eq!(exit_code(&r), 3);
}

#[test]
fn a_python_repl_answers() {
    let f = Fixture::new();
    let id = running_id(&f.start("python3 -q -u -i", 1_000));
    let mut out = f.write(id, "print(6 * 7)\n", 1_000).unwrap().output;
    // On a busy machine the answer may come after the yield: poll for it.
    for _ in 0..3 {
        if out.contains("42") {
            break;
        }
        out.push_str(&f.write(id, "", 5_000).unwrap().output);
    }
    assert!(out.contains("42"), "{out:?}");
    f.client.kill(id).unwrap();
}

#[test]
fn ctrl_c_interrupts_the_foreground_command() {
    let f = Fixture::new();
    let marker = unique_sleep();
    let id = running_id(&f.start(&format!("sleep {marker}"), 250));
    let r = f.write(id, INTERRUPT, 2_000).unwrap();
    assert_eq!(exit_code(&r), 130);
    // The exit ends the wait before the 2 s yield.
    assert!(
        r.wall_time < Duration::from_millis(1_900),
        "{:?}",
        r.wall_time
    );
    assert_none_left(&marker);
}

#[test]
fn ctrl_c_reaches_a_shell_trap() {
    let f = Fixture::new();
    let id = running_id(&f.start(
        "trap 'echo caught; exit 9' INT; while :; do sleep 0.05; done",
        250,
    ));
    let r = f.write(id, INTERRUPT, 2_000).unwrap();
    assert_eq!(exit_code(&r), 9);
    assert_eq!(r.output, "caught\n");
}

#[test]
fn killing_a_session_kills_its_whole_tree() {
    let f = Fixture::new();
    let (a, b) = (unique_sleep(), unique_sleep());
    let id = running_id(&f.start(&format!("sleep {a} & setsid sleep {b} & wait"), 250));
    f.client.kill(id).unwrap();
    assert_none_left(&a);
    assert_none_left(&b);
    assert!(f.client.list().unwrap().is_empty());
}

#[test]
fn output_is_cut_to_the_token_budget() {
    let f = Fixture::new();
    let r = f
        .client
        .exec_command(&ExecCommandRequest {
            cmd: "seq 1 100000".into(),
            max_output_tokens: Some(25), // 100 bytes
            ..Default::default()
        })
        .unwrap();
    assert_eq!(exit_code(&r), 0);
    assert_eq!(r.total_lines, Some(100_000));
    assert!(r.output.starts_with("1\n2\n"), "{}", r.output);
    assert!(r.output.ends_with("99999\n100000\n"), "{}", r.output);
    assert!(r.output.contains("bytes omitted"));
    let text = r.to_text();
    assert!(text.contains("Process exited with code 0\nTotal output lines: 100000\nOutput:\n"));
}

#[test]
fn workdir_shell_and_login_are_honoured() {
    let f = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let r = f
        .client
        .exec_command(&ExecCommandRequest {
            cmd: "pwd; echo $0; shopt -q login_shell && echo login".into(),
            workdir: Some(dir.path().to_path_buf()),
            shell: Some("/bin/bash".into()),
            login: true,
            ..Default::default()
        })
        .unwrap();
    let lines: Vec<&str> = r.output.lines().collect();
    let canon = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(std::fs::canonicalize(lines[0]).unwrap(), canon);
    assert_eq!(lines[1], "/bin/bash");
    assert_eq!(lines.last(), Some(&"login"));
    let r = f
        .client
        .exec_command(&ExecCommandRequest {
            cmd: "echo $0".into(),
            shell: Some("sh".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.output, "sh\n");
}

#[test]
fn bad_requests_get_clear_errors() {
    let f = Fixture::new();
    let empty = ExecCommandRequest {
        cmd: "  ".into(),
        ..Default::default()
    };
    assert_eq!(
        f.client.exec_command(&empty).unwrap_err(),
        SessionError::EmptyCommand
    );
    let missing = ExecCommandRequest {
        cmd: "true".into(),
        workdir: Some(f.state.join("nope")),
        ..Default::default()
    };
    assert!(matches!(
        f.client.exec_command(&missing).unwrap_err(),
        SessionError::BadWorkdir(_)
    ));
    let no_shell = ExecCommandRequest {
        cmd: "true".into(),
        shell: Some("/no/such/shell".into()),
        ..Default::default()
    };
    let err = f.client.exec_command(&no_shell).unwrap_err().to_string();
    assert!(err.starts_with("cannot run /no/such/shell: "), "{err}");
    assert_eq!(
        f.write(4242, "x", 250).unwrap_err(),
        SessionError::NoSession(4242)
    );
}

#[test]
fn the_socket_and_its_folder_are_private() {
    let f = Fixture::new();
    f.start("true", 250);
    let dir = f.state.join("sessions");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("server.sock")), 0o600);
}

#[test]
fn a_long_state_path_uses_a_fallback_socket_recorded_in_the_state_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("x".repeat(80)).join(".agent-state");
    std::fs::create_dir_all(&state).unwrap();
    let client = Client::new(&state).with_launcher(thread_launcher(IDLE_EXIT));
    let r = client
        .exec_command(&ExecCommandRequest {
            cmd: "echo ok".into(),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.output, "ok\n");
    let record = std::fs::read_to_string(state.join("sessions/server.json")).unwrap();
    assert!(!record.contains(&"x".repeat(80)), "{record}");
    client.stop_server().unwrap();
}

#[test]
fn racing_clients_end_with_one_server() {
    let f = Fixture::new();
    let clients: Vec<Client> = (0..4).map(|_| f.client.clone()).collect();
    let ids: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = clients
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let r = c
                        .exec_command(&ExecCommandRequest {
                            cmd: "cat".into(),
                            yield_time_ms: Some(250),
                            ..Default::default()
                        })
                        .unwrap();
                    running_id(&r)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, vec![1000, 1001, 1002, 1003]);
    // One server holds all four.
    assert_eq!(f.client.list().unwrap().len(), 4);
}

#[test]
fn a_stale_socket_is_replaced() {
    let f = Fixture::new();
    let dir = f.state.join("sessions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let sock = dir.join("server.sock");
    drop(std::os::unix::net::UnixListener::bind(&sock).unwrap()); // file stays, nobody listens
    let record = format!(
        r#"{{"pid":999999,"socket":"{}","next_id":1000}}"#,
        sock.display()
    );
    std::fs::write(dir.join("server.json"), record).unwrap();
    let r = f.start("echo fresh", 5_000);
    assert_eq!(r.output, "fresh\n");
}

#[test]
fn sessions_of_an_earlier_server_are_gone_and_ids_continue() {
    let f = Fixture::new();
    let id = running_id(&f.start("cat", 250));
    assert!(f.client.stop_server().unwrap());
    assert_eq!(f.write(id, "x", 250).unwrap_err(), SessionError::Gone(id));
    assert_eq!(f.client.kill(id).unwrap_err(), SessionError::Gone(id));
    let next = running_id(&f.start("cat", 250));
    assert_eq!(next, id + 1);
}

#[test]
fn with_no_server_the_people_commands_do_not_start_one() {
    let f = Fixture::new();
    assert!(f.client.list().unwrap().is_empty());
    assert!(f.client.kill_all().unwrap().is_empty());
    assert!(!f.client.stop_server().unwrap());
    assert_eq!(
        f.client.kill(1000).unwrap_err(),
        SessionError::NoSession(1000)
    );
    assert!(!f.state.join("sessions/server.json").exists());
}

#[test]
fn the_server_exits_when_idle_but_not_while_a_session_lives() {
    let f = Fixture::with_idle(Duration::from_millis(300));
    let id = running_id(&f.start("sleep 1", 250));
    std::thread::sleep(Duration::from_millis(500));
    // Still there: the session is live.
    assert_eq!(f.client.list().unwrap().len(), 1);
    let r = f.write(id, "", 0).unwrap();
    assert_eq!(exit_code(&r), 0);
    std::thread::sleep(Duration::from_millis(800));
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(f.state.join("sessions/server.lock"))
        .unwrap();
    assert!(lock.try_lock().is_ok(), "the server should have exited");
    assert!(!f.state.join("sessions/server.sock").exists());
}

#[test]
fn list_shows_running_and_exited_sessions() {
    let f = Fixture::new();
    let a = running_id(&f.start("cat", 250));
    let b = running_id(&f.start("sleep 0.3", 250));
    std::thread::sleep(Duration::from_millis(500));
    let list = f.client.list().unwrap();
    assert_eq!(list.iter().map(|s| s.id).collect::<Vec<_>>(), vec![a, b]);
    assert_eq!(list[0].exit_code, None);
    assert_eq!(list[0].command, "cat");
    assert_eq!(list[1].exit_code, Some(0));
    assert!(list[0].pid > 0);
    assert_eq!(f.client.kill_all().unwrap(), vec![a, b]);
    assert!(f.client.list().unwrap().is_empty());
}

#[test]
fn the_sixty_fifth_session_prunes_by_the_rule() {
    let f = Fixture::new();
    let marker = unique_sleep();
    let cmd = format!("sleep {marker}");
    // Ids and recency are assigned together, so parallel starts keep id order = use order.
    let start_many = |n: usize| {
        std::thread::scope(|s| {
            for _ in 0..n {
                s.spawn(|| running_id(&f.start(&cmd, 250)));
            }
        })
    };
    start_many(MAX_SESSIONS);
    let list = f.client.list().unwrap();
    assert_eq!(list.len(), MAX_SESSIONS);
    // 1020 and 1030 exit (not yet reported); 1000 is used again, so it is recent.
    for s in list.iter().filter(|s| s.id == 1020 || s.id == 1030) {
        let pid = rustix::process::Pid::from_raw(s.pid).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while f
        .client
        .list()
        .unwrap()
        .iter()
        .filter(|s| s.exit_code.is_some())
        .count()
        < 2
    {
        assert!(
            Instant::now() < deadline,
            "the killed sessions never exited"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    running_id(&f.write(1000, "x", 250).unwrap());
    start_many(6);
    let ids: Vec<u64> = f.client.list().unwrap().iter().map(|s| s.id).collect();
    assert_eq!(ids.len(), MAX_SESSIONS);
    let pruned: Vec<u64> = (1000..1070).filter(|i| !ids.contains(i)).collect();
    assert_eq!(pruned, vec![1001, 1002, 1003, 1004, 1020, 1030]);
    assert_eq!(
        f.write(1001, "", 0).unwrap_err(),
        SessionError::NoSession(1001)
    );
    f.client.kill_all().unwrap();
    assert_none_left(&marker);
}
