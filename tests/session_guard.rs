//! Sessions do not outlive their server (issue 12, item 6): each session's command runs under
//! a guard that kills its whole tree when the server dies, with no later agtool call. Each
//! test marks every process it starts with a unique string in its command line and scans
//! /proc for it.

mod common;

use std::time::{Duration, Instant};

use common::{Workspace, kill, processes_with, session_id, unique_sleep, wait_for_none};

/// Starts a session running `cmd` (returns at once) and gives its id.
fn start(ws: &Workspace, cmd: &str) -> u64 {
    let (code, out) = ws.run(&["exec-command", cmd, "--yield-time-ms", "250"]);
    assert_eq!(code, 0, "{out}");
    session_id(&out)
}

/// A command whose processes all carry `marker`: a plain child, one in a new session, a
/// double fork, and a double fork that also cleared its environment (no agtool tag).
fn escaping_tree(marker: &str) -> String {
    format!(
        "sleep {marker} & setsid sleep {marker} & (sleep {marker} &) ; \
         (env -i setsid sleep {marker} &) ; sleep {marker}"
    )
}

/// Waits until `n` processes carry `marker` (the command has started them all).
fn wait_for(marker: &str, n: usize) {
    let end = Instant::now() + Duration::from_secs(10);
    while processes_with(marker).len() < n {
        assert!(Instant::now() < end, "only {:?}", processes_with(marker));
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_server_takes_its_sessions_with_it() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    for _ in 0..3 {
        start(&ws, &escaping_tree(&marker));
    }
    wait_for(&marker, 15);
    let server = ws.server_pid().unwrap();
    kill(server);
    // No further agtool call: the guards notice on their own.
    let left = wait_for_none(|| processes_with(&marker), Duration::from_secs(3));
    for (pid, _) in &left {
        kill(*pid);
    }
    assert!(
        left.is_empty(),
        "alive 3 s after the server died: {left:#?}"
    );
}

#[test]
fn killing_one_session_kills_its_env_cleared_orphans_among_others() {
    // With several sessions in the server, an orphan without the tree tag could not be told
    // apart and survived `sessions kill`; its guard knows it.
    let ws = Workspace::new();
    let mine = unique_sleep();
    let other = unique_sleep();
    let id = start(
        &ws,
        &format!("(env -i setsid sleep {mine} &) ; sleep {mine}"),
    );
    start(
        &ws,
        &format!("(env -i setsid sleep {other} &) ; sleep {other}"),
    );
    start(&ws, "cat");
    wait_for(&mine, 2);
    wait_for(&other, 2);
    std::thread::sleep(Duration::from_millis(200));
    let others = processes_with(&other).len();
    ws.cmd()
        .args(["sessions", "kill", &id.to_string()])
        .assert()
        .code(0);
    let left = wait_for_none(|| processes_with(&mine), Duration::from_secs(3));
    for (pid, _) in &left {
        kill(*pid);
    }
    assert!(left.is_empty(), "left behind: {left:#?}");
    assert_eq!(
        processes_with(&other).len(),
        others,
        "the other session was touched"
    );
}

#[test]
fn a_server_whose_state_folder_is_deleted_exits_and_ends_its_sessions() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    start(&ws, &escaping_tree(&marker));
    wait_for(&marker, 5);
    let server = ws.server_pid().unwrap();
    std::fs::remove_dir_all(ws.path().join(".agent-state")).unwrap();
    let gone = wait_for_none(
        || if alive(server) { vec![server] } else { vec![] },
        Duration::from_secs(5),
    );
    assert!(gone.is_empty(), "the server {server} still runs");
    let left = wait_for_none(|| processes_with(&marker), Duration::from_secs(3));
    for (pid, _) in &left {
        kill(*pid);
    }
    assert!(left.is_empty(), "left behind: {left:#?}");
}

/// Whether `pid` runs (exists and is not a zombie).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !matches!(
            s.rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next()),
            Some("Z" | "X")
        )
    })
}
