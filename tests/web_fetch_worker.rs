//! A timed-out web-fetch leaves no worker behind inside a long-lived `agtool mcp` (issue 17,
//! item 6): the worker thread blocked in a read of a slowly dripping body outlived the call's
//! deadline (by up to the whole timeout) with its connection open. Now the request's own
//! timeout bounds the body as a whole: the threads of the server and its connection are gone
//! right after the timeout is answered.

mod web_common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use web_common::{Reply, Server, Ws};

fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_timed_out_fetch_stops_its_worker_in_a_long_lived_mcp_server() {
    // A byte, then one every 2.8 s: each read returns before the client's own timeout of
    // 3 s, so only a deadline on the whole body ends the read under way at 3 s.
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/fast" => Reply::ok("text/plain", "quick\n"),
        _ => Reply::Stream {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/plain".into()),
                ("Content-Length".into(), "100".into()),
            ],
            body: Box::new(|out| {
                for _ in 0..100 {
                    out.write_all(b"x")?;
                    out.flush()?;
                    std::thread::sleep(Duration::from_millis(2800));
                }
                Ok(())
            }),
        },
    });
    let ws = Ws::private();
    let config = ws.path().join("web-test-config.toml");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_agtool"));
    cmd.current_dir(ws.path());
    web_common::clean_env(&mut cmd, ws.path());
    let mut child = cmd
        .args(["--config", config.to_str().unwrap(), "--groups", "web"])
        .args(["--timeout-ms", "3000", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |v: serde_json::Value| {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    };
    let wait_for = |id: u64| -> serde_json::Value {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let line = rx
                .recv_timeout(end.saturating_duration_since(Instant::now()))
                .expect("an answer");
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    };
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "worker-test", "version": "1"}}}),
    );
    wait_for(1);
    send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    // One quick fetch first, so whatever threads the server keeps are counted as its own.
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "web_fetch", "arguments": {"url": server.url("/fast")}}}),
    );
    let r = wait_for(2);
    assert_ne!(r["result"]["isError"], true, "{r}");
    std::thread::sleep(Duration::from_millis(300));
    let idle = threads_of(pid);
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "web_fetch", "arguments": {"url": server.url("/drip")}}}),
    );
    let r = wait_for(3);
    let answered = Instant::now();
    let text = r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("timed out after 3000 ms"), "{r}");
    // The worker and its client's runtime end with the deadline, not at the next byte.
    let mut now = threads_of(pid);
    while now > idle && answered.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(20));
        now = threads_of(pid);
    }
    let lingered = answered.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        now <= idle,
        "{now} threads 1.5 s after the timeout was answered, {idle} before the call"
    );
    eprintln!("threads back to {now} (idle {idle}) {lingered:?} after the answer");
}
