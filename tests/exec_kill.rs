//! A SIGKILLed `agtool exec` or `agtool mcp` leaves nothing of its command running (issue 17,
//! item 4): a command that starts a plain background child, a child in a new session
//! (`setsid`) and a double fork, with agtool killed at a random moment of its life, from
//! before the command started to long after; no later agtool call may be needed. Every
//! process carries a unique marker in its command line; /proc is scanned for it.

mod common;

use std::io::Write;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{Workspace, kill, processes_with, unique_sleep, wait_for_none};

/// The command of the issue plus a double fork that clears its environment (no agtool tag).
fn escaping_tree(marker: &str) -> String {
    format!(
        "sleep {marker} & setsid sleep {marker} & (env -i setsid sleep {marker} &) ; sleep {marker}"
    )
}

/// A small deterministic generator (the test must not depend on a crate for randomness); the
/// seed is printed so a failing run can be repeated.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn seed() -> u64 {
    let s = std::env::var("AGTOOL_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    eprintln!("seed {s} (AGTOOL_KILL_SEED={s} repeats this run)");
    s
}

/// Kills `child` with SIGKILL after `delay_ms`, reaps it, then waits up to 3 s for every
/// process with `marker` to go; returns the survivors (and kills them, so the next run is
/// counted alone).
fn kill_and_count(child: &mut Child, delay_ms: u64, marker: &str) -> Vec<(i32, String)> {
    std::thread::sleep(Duration::from_millis(delay_ms));
    kill(child.id() as i32);
    let _ = child.wait();
    let left = wait_for_none(|| processes_with(marker), Duration::from_secs(3));
    for (pid, _) in &left {
        kill(*pid);
    }
    left
}

const RUNS: usize = 20;

/// `agtool` run from `dir` as `common::agtool` sets it up, as a plain std command (spawned,
/// not waited for).
fn agtool_std(dir: &std::path::Path) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_agtool"));
    c.current_dir(dir)
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_EXEC_TAG")
        .env("AGTOOL_GROUPS", "files,exec")
        .env("XDG_CONFIG_HOME", dir.join(".no-user-config"));
    c
}

#[test]
fn a_killed_exec_leaves_no_process_of_its_command() {
    let ws = Workspace::new();
    let mut rng = Lcg(seed());
    let mut survivors = Vec::new();
    for run in 0..RUNS {
        let marker = unique_sleep();
        let mut child = agtool_std(ws.path())
            .args(["exec", "--timeout-ms", "600000", "--", "sh", "-c"])
            .arg(escaping_tree(&marker))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // From before the spawn (a few ms) to well after every process started.
        let delay = rng.below(400);
        let left = kill_and_count(&mut child, delay, &marker);
        if !left.is_empty() {
            survivors.push((run, delay, left));
        }
    }
    assert!(
        survivors.is_empty(),
        "survivors (run, delay ms, processes) over {RUNS} runs: {survivors:#?}"
    );
}

#[test]
fn a_killed_mcp_server_leaves_no_process_of_its_exec_call() {
    let ws = Workspace::new();
    let mut rng = Lcg(seed());
    let mut survivors = Vec::new();
    for run in 0..RUNS {
        let marker = unique_sleep();
        let mut child = agtool_std(ws.path())
            .args(["--groups", "exec", "mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "exec", "arguments": {
                "command": ["sh", "-c", escaping_tree(&marker)], "timeout_ms": 600000}}});
        let lines = [
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "kill-test", "version": "1"}}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            call,
        ];
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
        stdin.flush().unwrap();
        let start = Instant::now();
        let delay = rng.below(500);
        let left = kill_and_count(&mut child, delay, &marker);
        drop(stdin);
        if !left.is_empty() {
            survivors.push((run, delay, start.elapsed(), left));
        }
    }
    assert!(
        survivors.is_empty(),
        "survivors (run, delay ms, time, processes) over {RUNS} runs: {survivors:#?}"
    );
}
