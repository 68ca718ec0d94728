//! `agtool mcp` driven with raw JSON-RPC lines over pipes (spec 07 "mcp"): what a careless or
//! hostile client sends, concurrency, cancellation, end of input, and a clean stdout. The
//! end-to-end tests with a real MCP client are in `mcp_client.rs`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};

/// One `agtool mcp` child with pipes, its stdout read line by line on a thread.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Lines read but not yet asked for.
    seen: Vec<Value>,
    /// The protocol output pipe as /proc names it.
    stdout_pipe: String,
}

const WAIT: Duration = Duration::from_secs(20);

impl Mcp {
    fn start(ws: &Ws, groups: &str, env: &[(&str, &str)]) -> Mcp {
        let mut cmd = ws.std_cmd_in(&ws.root);
        cmd.args(["--groups", groups, "mcp"]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        Mcp::start_cmd(cmd)
    }

    fn start_cmd(mut cmd: std::process::Command) -> Mcp {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let stdout_pipe = pipe_inode(&stdout);
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
            stdout_pipe,
        }
    }

    /// A session after the `initialize` handshake.
    fn session(ws: &Ws, groups: &str) -> Mcp {
        let mut m = Mcp::start(ws, groups, &[]);
        m.initialize("2025-11-25");
        m
    }

    fn initialize(&mut self, version: &str) -> Value {
        self.send(
            &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "1"}}}),
        );
        let r = self.response(&json!("init"));
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: &Value) {
        self.raw(format!("{msg}\n").as_bytes());
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}));
    }

    fn next_line(&mut self, limit: Duration) -> Option<Value> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => Some(serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("stdout carried a line that is not JSON ({e}): {line:?}")
            })),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The response with `id` (other lines are kept for later).
    fn response(&mut self, id: &Value) -> Value {
        if let Some(i) = self.seen.iter().position(|m| &m["id"] == id) {
            return self.seen.remove(i);
        }
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let Some(msg) = self.next_line(left) else {
                panic!("no response with id {id} (seen: {:?})", self.seen);
            };
            if &msg["id"] == id {
                return msg;
            }
            self.seen.push(msg);
        }
    }

    /// The text of a tools/call result and its isError.
    fn result(&mut self, id: u64) -> (String, bool) {
        let r = self.response(&json!(id));
        let res = &r["result"];
        assert!(res.is_object(), "not a result: {r}");
        let text = res["content"][0]["text"].as_str().unwrap().to_owned();
        (text, res["isError"] == true)
    }

    fn ping(&mut self, id: &str) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        let r = self.response(&json!(id));
        assert_eq!(r["result"], json!({}), "{r}");
    }

    /// Closes stdin and waits for the exit; returns (exit status, time from the close).
    fn close(&mut self) -> (i32, Duration) {
        drop(self.stdin.take());
        let start = Instant::now();
        let end = start + WAIT;
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return (st.code().unwrap_or(-1), start.elapsed());
            }
            assert!(Instant::now() < end, "agtool mcp did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn garbage_blank_and_batch_lines_never_end_the_session() {
    let ws = Ws::new();
    let mut m = Mcp::start(&ws, "files", &[]);
    // Before the handshake too.
    m.raw(b"this is not json\n\n   \n{\"jsonrpc\":\n");
    m.initialize("2025-06-18");
    m.raw(b"garbage {{{\n\n\r\n\xff\xfe\n");
    m.ping("after-garbage");
    // Each line that is not JSON got a parse error with "id": null (rmcp dropped them, and a
    // client waited for ever); blank lines get nothing.
    let parse_errors: Vec<Value> = m
        .seen
        .iter()
        .filter(|r| r["error"]["code"] == -32700)
        .cloned()
        .collect();
    assert_eq!(parse_errors.len(), 4, "{:?}", m.seen);
    assert!(
        parse_errors
            .iter()
            .all(|r| r.as_object().unwrap().get("id") == Some(&Value::Null)),
        "{parse_errors:?}"
    );
    m.seen.retain(|r| r["error"]["code"] != -32700);
    // JSON that rmcp cannot take went unanswered: a lone surrogate, a byte that is not UTF-8
    // in a string, a number out of range. Each gets a parse error now.
    m.raw(b"{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"ping\",\"x\":\"\\ud800\"}\n");
    m.raw(b"{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"ping\",\"x\":\"\xc3(\"}\n");
    m.raw(b"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}\n");
    m.ping("after-unreadable");
    let unreadable = m
        .seen
        .iter()
        .filter(|r| r["error"]["code"] == -32700)
        .count();
    assert_eq!(unreadable, 3, "{:?}", m.seen);
    m.seen.retain(|r| r["error"]["code"] != -32700);
    // Params of the wrong shape: -32602 with the id and a sentence (rmcp said -32601 with
    // the method's name, or -32600 without the id).
    for (id, params, says) in [
        (
            22,
            json!({"name": "read_file", "arguments": "x"}),
            "params.arguments must be an object",
        ),
        (23, json!({"arguments": {}}), "tools/call needs params.name"),
        (
            24,
            json!([1, 2]),
            "the params of tools/call must be an object",
        ),
    ] {
        m.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
        let r = m.response(&json!(id));
        assert_eq!(r["error"]["code"], -32602, "{r}");
        assert!(
            r["error"]["message"].as_str().unwrap().contains(says),
            "{r}"
        );
    }
    m.send(&json!({"jsonrpc": "1.0", "id": 25, "method": "ping"}));
    let r = m.response(&json!(25));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    // A method whose params the protocol requires, without them: invalid params with its id
    // (rmcp said -32601, method not found).
    m.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call"}));
    let r = m.response(&json!(9));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tools/call needs params"),
        "{r}"
    );
    m.send(&json!([{"jsonrpc": "2.0", "id": 5, "method": "ping"},
        {"jsonrpc": "2.0", "id": 6, "method": "ping"}]));
    let err = m.next_line(WAIT).expect("an answer to the batch");
    assert_eq!(err["error"]["code"], -32600, "{err}");
    // JSON-RPC 2.0 section 5: an error for a request whose id cannot be known has "id": null
    // (rmcp left it out).
    assert!(
        err.as_object().unwrap().get("id") == Some(&Value::Null),
        "no \"id\": null: {err}"
    );
    m.ping("after-batch");
    m.send(&json!([]));
    let err = m.next_line(WAIT).expect("an answer to the empty batch");
    assert_eq!(err["error"]["code"], -32600, "{err}");
    m.ping("after-empty-batch");
    // None of the batch's requests ran.
    assert!(
        m.seen.iter().all(|r| r["id"] != 5 && r["id"] != 6),
        "{:?}",
        m.seen
    );
    assert_eq!(m.close().0, 0);
}

/// Peak resident memory of a child that has exited, in KiB (waits for it).
fn max_rss_kib(child: &mut Child) -> i64 {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as i32;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    usage.ru_maxrss
}

fn rss_after(ws: &Ws, big_line: Option<usize>) -> i64 {
    let mut m = Mcp::session(ws, "files");
    if let Some(len) = big_line {
        let head = br#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"read_file","arguments":{"path":""#;
        let mut stdin = m.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            stdin.write_all(head).unwrap();
            let chunk = vec![b'a'; 1 << 20];
            for _ in 0..len >> 20 {
                stdin.write_all(&chunk).unwrap();
            }
            stdin.write_all(b"\"}}}\n").unwrap();
            stdin
        });
        m.stdin = Some(writer.join().unwrap());
    }
    m.ping("after");
    if big_line.is_some() {
        // Answered (the client would wait for ever), with the id read from the line's start.
        let r = m.response(&json!(77));
        assert_eq!(r["error"]["code"], -32600, "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("over the limit of 16 MiB"), "{r}");
    }
    m.call(1, "list_dir", json!({}));
    assert!(!m.result(1).1);
    drop(m.stdin.take());
    max_rss_kib(&mut m.child)
}

#[test]
fn a_32_mib_line_is_answered_in_bounded_memory_and_the_session_goes_on() {
    let ws = Ws::new();
    let base = rss_after(&ws, None);
    let big = rss_after(&ws, Some(32 << 20));
    // rmcp holds at most one line of 16 MiB; keeping the whole line would take 32 MiB more.
    let grown = big - base;
    eprintln!("rss base {base} KiB, with a 32 MiB line {big} KiB");
    assert!(
        grown < 24 * 1024,
        "peak RSS grew by {grown} KiB for a 32 MiB line (base {base} KiB)"
    );
}

#[test]
fn fifty_concurrent_reads_of_a_1_mb_file_all_complete() {
    let ws = Ws::new();
    let line = "x".repeat(99);
    let text: String = (0..10_000).map(|i| format!("{i:06} {line}\n")).collect();
    assert!(text.len() > 1_000_000);
    ws.write("big.txt", &text);
    let mut m = Mcp::session(&ws, "files");
    for id in 1..=50 {
        m.call(
            id,
            "read_file",
            json!({"path": "big.txt", "offset": id, "limit": 500}),
        );
    }
    for id in 1..=50 {
        let (out, err) = m.result(id);
        assert!(!err, "{out}");
        assert!(out.starts_with("[big.txt#"), "{id}: {:.80}", out);
        let first = format!("L{id}: {:06} ", id - 1);
        assert!(out.contains(&first), "{id}: {:.200}", out);
        let last = format!("L{}: {:06} ", id + 499, id + 498);
        assert!(out.contains(&last), "{id}: the response is cut short");
    }
}

#[test]
fn end_of_input_during_an_exec_kills_it_and_exits_within_a_second() {
    let ws = Ws::new();
    let marker = unique_sleep();
    let mut m = Mcp::session(&ws, "files,exec");
    m.call(
        1,
        "exec",
        json!({"command": ["sleep", marker], "timeout_ms": 60000}),
    );
    let found = wait_for_none(
        || {
            if processes_with(&marker).is_empty() {
                vec![()]
            } else {
                vec![]
            }
        },
        WAIT,
    );
    assert!(found.is_empty(), "the exec never started");
    let (code, took) = m.close();
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert_none_with(&marker);
}

#[test]
fn a_cancelled_exec_is_killed_and_gets_no_answer() {
    let ws = Ws::new();
    let marker = unique_sleep();
    let mut m = Mcp::session(&ws, "files,exec");
    m.call(
        7,
        "exec",
        json!({"command": ["sh", "-c", format!("sleep {marker} & sleep {marker}")]}),
    );
    let started = wait_for_none(
        || {
            if processes_with(&marker).len() < 2 {
                vec![()]
            } else {
                vec![]
            }
        },
        WAIT,
    );
    assert!(started.is_empty(), "the exec never started");
    m.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "test"}}),
    );
    assert_none_with(&marker);
    m.ping("after-cancel");
    m.call(8, "list_dir", json!({}));
    assert!(!m.result(8).1);
    // Nothing ever answers the cancelled call.
    while let Some(line) = m.next_line(Duration::from_millis(300)) {
        m.seen.push(line);
    }
    assert!(m.seen.iter().all(|r| r["id"] != 7), "{:?}", m.seen);
    assert_eq!(m.close().0, 0);
}

#[test]
fn errors_refusals_and_timeouts() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    let mut m = Mcp::session(&ws, "files");
    // Unknown tool, and a tool outside the enabled groups: protocol errors (-32602).
    m.call(1, "frobnicate", json!({}));
    let r = m.response(&json!(1));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let listed = "read_file, list_dir, glob, grep";
    assert!(
        r["error"]["message"].as_str().unwrap().contains(listed),
        "{r}"
    );
    m.call(2, "write_file", json!({"path": "n.txt", "content": "x"}));
    let r = m.response(&json!(2));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("group edit"), "{r}");
    // The enabled tools are named too (issue 18 section 4).
    assert!(message.contains(listed), "{r}");
    assert!(!ws.path("n.txt").exists());
    // A refusal is a tool error with the same text the CLI prints.
    m.call(3, "read_file", json!({"path": "missing.txt"}));
    let (text, is_error) = m.result(3);
    assert!(is_error);
    let cli = ws.call("read_file", &json!({"path": "missing.txt"}));
    cli.code(1);
    assert_eq!(format!("{text}\n"), cli.out);
    // Every argument problem, at once.
    m.call(
        4,
        "read_file",
        json!({"path": 5, "offset": 0, "bogus": true}),
    );
    let (text, is_error) = m.result(4);
    assert!(is_error);
    for needle in ["/path", "/offset", "/bogus"] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // Arguments left out entirely are an empty object.
    m.send(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "list_dir"}}),
    );
    assert!(!m.result(5).1);
    assert_eq!(m.close().0, 0);
}

#[test]
fn a_timed_out_call_is_a_tool_error_with_the_cli_text() {
    let ws = Ws::new();
    ws.write("big.txt", vec![b'x'; 32 << 20]);
    // The global --timeout-ms applies to every call of the server.
    let mut cmd = ws.std_cmd_in(&ws.root);
    cmd.args(["--timeout-ms", "1", "mcp"]);
    let mut m = Mcp::start_cmd(cmd);
    m.initialize("2025-11-25");
    m.call(1, "read_file", json!({"path": "big.txt", "limit": 1}));
    let (text, is_error) = m.result(1);
    assert!(is_error);
    assert_eq!(text, "Error: read_file timed out after 1 ms");
    m.ping("after-timeout");
    assert_eq!(m.close().0, 0);
}

#[test]
fn both_handshakes_work_and_tools_list_follows_the_groups() {
    let ws = Ws::new();
    for version in ["2025-06-18", "2025-11-25"] {
        let mut m = Mcp::start(&ws, "files,exec", &[]);
        let init = m.initialize(version);
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        assert_eq!(init["result"]["serverInfo"]["name"], "agtool");
        assert!(init["result"]["capabilities"]["tools"].is_object());
        m.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
        let list = m.response(&json!(2));
        let tools = list["result"]["tools"].as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "read_file",
                "list_dir",
                "glob",
                "grep",
                "diagnostics",
                "exec",
                "exec_command",
                "write_stdin"
            ]
        );
        // The same definitions as `schema --format mcp`.
        let out = ws.run(&["--groups", "files,exec", "schema", "--format", "mcp"]);
        let schema: Value = serde_json::from_str(out.ok()).unwrap();
        assert_eq!(&Value::Array(tools.clone()), &schema);
        assert_eq!(tools[5]["annotations"]["destructiveHint"], true);
        m.ping("p");
        assert_eq!(m.close().0, 0);
    }
    // The 2026-07-28 lifecycle: server/discover, then requests carrying their own metadata.
    let mut m = Mcp::start(&ws, "files", &[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    m.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}),
    );
    let found = m.response(&json!(1));
    let versions = found["result"]["supportedVersions"].to_string();
    assert!(
        versions.contains("2026-07-28") && versions.contains("2025-11-25"),
        "{found}"
    );
    m.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}));
    let list = m.response(&json!(2));
    assert_eq!(
        list["result"]["tools"].as_array().map(Vec::len),
        Some(5),
        "{list}"
    );
    assert_eq!(m.close().0, 0);
}

#[test]
fn rust_log_trace_leaves_stdout_clean() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    let mut cmd = ws.std_cmd_in(&ws.root);
    cmd.args(["--groups", "files,exec", "mcp"])
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "read_file", "arguments": {"path": "a.txt"}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "exec", "arguments": {"command": ["sh", "-c", "echo out; echo err >&2"]}}}),
    ];
    let mut text: String = input.iter().map(|m| format!("{m}\n")).collect();
    text.push_str("not json\n");
    let writer = std::thread::spawn(move || {
        stdin.write_all(text.as_bytes()).unwrap();
        // Give the calls time to answer before the input ends.
        std::thread::sleep(Duration::from_millis(1500));
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut ids = Vec::new();
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a protocol line ({e}): {line:?}"));
        assert_eq!(v["jsonrpc"], "2.0", "{line}");
        ids.push(v["id"].clone());
    }
    // Four answers, and the parse error of the line that is not JSON.
    assert_eq!(ids.len(), 5, "{stdout}");
    assert!(ids.contains(&Value::Null), "{stdout}");
    assert!(
        stdout.contains("out\\nerr\\n"),
        "the exec's output is in its answer: {stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("TRACE") || stderr.contains("DEBUG"),
        "logs go to stderr"
    );
}

/// The inode of a pipe end, as /proc shows it (`pipe:[N]`).
fn pipe_inode(fd: &impl AsRawFd) -> String {
    let target = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap();
    target.display().to_string()
}

#[test]
fn tool_processes_never_hold_the_protocol_streams() {
    let ws = Ws::new();
    let mut m = Mcp::session(&ws, "files,exec");
    let stdin_pipe = pipe_inode(m.stdin.as_ref().unwrap());
    assert!(stdin_pipe.starts_with("pipe:["), "{stdin_pipe}");
    m.call(
        1,
        "exec",
        json!({"command": ["sh", "-c", "ls -l /proc/$$/fd"]}),
    );
    let (listing, err) = m.result(1);
    assert!(!err, "{listing}");
    assert!(!listing.contains(&stdin_pipe), "{listing}");
    assert!(!listing.contains(&m.stdout_pipe), "{listing}");
    // The exec's stdout is its own pipe; its stdin is /dev/null.
    assert!(listing.contains("0 -> /dev/null"), "{listing}");
    // Nor does the session server that exec_command starts (it outlives the server).
    m.call(
        2,
        "exec_command",
        json!({"cmd": "echo started", "yield_time_ms": 1000}),
    );
    assert!(!m.result(2).1);
    let record = std::fs::read(ws.path(".agent-state/sessions/server.json")).unwrap();
    let pid = serde_json::from_slice::<Value>(&record).unwrap()["pid"]
        .as_i64()
        .unwrap();
    let holds: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        !holds.contains(&stdin_pipe) && !holds.contains(&m.stdout_pipe),
        "{holds:?}"
    );
    assert_eq!(m.close().0, 0);
    let _ = ws.run(&["sessions", "stop-server"]);
}

/// A loopback server that accepts connections and never answers; the accepted sockets are kept
/// open until the test ends.
fn silent_server() -> (std::net::SocketAddr, std::sync::mpsc::Receiver<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            let Ok(conn) = conn else { break };
            held.push(conn);
            if tx.send(()).is_err() {
                break;
            }
        }
    });
    (addr, rx)
}

/// A web_fetch waiting on a server that never answers is stopped by a cancellation (no answer,
/// the session goes on) and by the end of input: the server stops within the web fetch's 50 ms
/// look at the stop request, not after the 500 ms grace a stuck call gets.
#[test]
fn a_hanging_web_fetch_is_stopped_by_cancellation_and_end_of_input() {
    let ws = Ws::new();
    let config = ws.root.join("web.toml");
    std::fs::write(&config, "[web]\nallow_private = true\n").unwrap();
    let (addr, accepted) = silent_server();
    let url = format!("http://{addr}/slow");
    let mut cmd = ws.std_cmd_in(&ws.root);
    cmd.args([
        "--config",
        config.to_str().unwrap(),
        "--groups",
        "files,web",
        "mcp",
    ]);
    let mut m = Mcp::start_cmd(cmd);
    m.initialize("2025-11-25");
    m.call(3, "web_fetch", json!({"url": url}));
    accepted
        .recv_timeout(WAIT)
        .expect("the fetch never connected");
    m.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 3, "reason": "test"}}),
    );
    m.ping("after-cancel");
    m.call(4, "web_fetch", json!({"url": url}));
    accepted
        .recv_timeout(WAIT)
        .expect("the second fetch never connected");
    let (code, took) = m.close();
    assert_eq!(code, 0);
    assert!(
        took < Duration::from_millis(450),
        "end of input took {took:?} to stop a hanging web_fetch"
    );
    while let Some(line) = m.next_line(Duration::from_millis(100)) {
        m.seen.push(line);
    }
    // The cancelled call gets no answer; the one in flight at the end may be told the server
    // is shutting down.
    assert!(m.seen.iter().all(|r| r["id"] != 3), "{:?}", m.seen);
}

/// Copy, move and delete of a tree nesting 5,000 levels deep are tool errors with a clear
/// sentence, and the server goes on answering (it once overflowed its stack and died).
#[test]
fn a_tree_too_deep_is_a_tool_error_and_the_server_lives_on() {
    let ws = Ws::new();
    let _deep = DeepTree::new(&ws.root, "deep", 5000);
    let mut m = Mcp::session(&ws, "files,edit,delete");
    let calls = [
        (
            "copy_path",
            json!({"source": "deep", "destination": "c", "recursive": true}),
        ),
        (
            "move_path",
            json!({"source": "deep", "destination": "moved"}),
        ),
        ("delete_path", json!({"path": "deep", "recursive": true})),
    ];
    for (id, (tool, args)) in calls.into_iter().enumerate() {
        m.call(id as u64 + 1, tool, args);
        let (text, is_error) = m.result(id as u64 + 1);
        assert!(is_error, "{tool}: {text}");
        assert!(
            text.contains("nests deeper than agtool goes"),
            "{tool}: {text}"
        );
        m.ping(&format!("after-{tool}"));
    }
    assert!(ws.path("deep/d/d").is_dir());
    assert_eq!(m.close().0, 0);
}

/// An MCP host starts servers from a folder of its own and passes `--root` (the README's
/// mcpServers example): relative paths then start at the root, and so does an exec without a
/// workdir (before: every relative path was refused as outside, and exec ran in the host's
/// folder, outside the workspace).
#[test]
fn started_outside_the_root_given_by_root_paths_and_commands_start_at_the_root() {
    let ws = Ws::new();
    ws.write("a.txt", "inside\n");
    let elsewhere = ws.base.join("host-folder");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut cmd = ws.std_cmd_in(&elsewhere);
    cmd.args([
        "--root",
        ws.root.to_str().unwrap(),
        "--groups",
        "files,exec",
        "mcp",
    ]);
    let mut m = Mcp::start_cmd(cmd);
    let init = m.initialize("2025-11-25");
    let instructions = init["result"]["instructions"].as_str().unwrap_or_default();
    assert!(
        !instructions.contains("host-folder"),
        "instructions point outside: {instructions}"
    );
    m.call(1, "read_file", json!({"path": "a.txt"}));
    let (text, is_error) = m.result(1);
    assert!(!is_error && text.contains("inside"), "{text}");
    m.call(2, "exec", json!({"command": ["pwd"]}));
    let (text, is_error) = m.result(2);
    assert!(!is_error, "{text}");
    assert!(
        text.contains(&format!("\n{}\n", ws.root.display())),
        "exec ran outside the root: {text}"
    );
    assert_eq!(m.close().0, 0);
    // The command line too.
    let out = ws
        .cmd_in(&elsewhere)
        .args(["--root", ws.root.to_str().unwrap(), "glob", "*.txt"])
        .output()
        .unwrap();
    let out = common::Run::from(out);
    assert!(out.ok().contains("a.txt"), "{}", out.out);
}

#[test]
fn a_line_over_the_limit_without_a_readable_id_gets_a_null_id() {
    let ws = Ws::new();
    let mut m = Mcp::session(&ws, "files");
    let mut stdin = m.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(br#"{"jsonrpc":"2.0","params":{"x":""#)
            .unwrap();
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..17 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\"},\"id\":9}\n").unwrap();
        stdin
    });
    m.stdin = Some(writer.join().unwrap());
    let r = m.next_line(WAIT).expect("an answer to the long line");
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r.as_object().unwrap().get("id") == Some(&Value::Null),
        "{r}"
    );
    m.ping("after");
    assert_eq!(m.close().0, 0);
}

#[test]
fn a_call_with_a_progress_token_gets_progress_while_it_runs() {
    let ws = Ws::new();
    let mut m = Mcp::session(&ws, "files,exec");
    m.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "exec", "arguments": {"command": ["sleep", "2.5"]},
        "_meta": {"progressToken": "p-1"}}}),
    );
    let (text, is_error) = m.result(1);
    assert!(!is_error, "{text}");
    let progress: Vec<Value> = m
        .seen
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .cloned()
        .collect();
    assert!(progress.len() >= 2, "{:?}", m.seen);
    for n in &progress {
        assert_eq!(n["params"]["progressToken"], "p-1", "{n}");
        let message = n["params"]["message"].as_str().unwrap();
        assert!(message.starts_with("exec running for "), "{n}");
    }
    assert!(
        progress[1]["params"]["progress"].as_f64() > progress[0]["params"]["progress"].as_f64()
    );
    // Without a token, none.
    m.call(2, "exec", json!({"command": ["sleep", "1.5"]}));
    m.result(2);
    let after = m.seen.len();
    assert_eq!(after, progress.len(), "{:?}", m.seen);
    assert_eq!(m.close().0, 0);
}

#[test]
fn each_connection_is_its_own_agent_unless_one_is_given() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    let edit = json!({"path": "a.txt", "old": "one", "new": "two"});
    let mut first = Mcp::session(&ws, "files,edit");
    first.call(1, "read_file", json!({"path": "a.txt"}));
    assert!(!first.result(1).1);
    // A later conversation (another connection) did not read it.
    let mut second = Mcp::session(&ws, "files,edit");
    second.call(1, "edit_file", edit.clone());
    let (text, is_error) = second.result(1);
    assert!(is_error, "{text}");
    assert_eq!(ws.read("a.txt"), b"one\n");
    first.call(2, "edit_file", edit);
    let (text, is_error) = first.result(2);
    assert!(!is_error, "{text}");
    // The same --agent on both: one agent.
    let mut a = Mcp::start(&ws, "files,edit", &[("AGTOOL_AGENT", "shared")]);
    a.initialize("2025-11-25");
    a.call(1, "read_file", json!({"path": "a.txt"}));
    assert!(!a.result(1).1);
    let mut b = Mcp::start(&ws, "files,edit", &[("AGTOOL_AGENT", "shared")]);
    b.initialize("2025-11-25");
    b.call(
        1,
        "edit_file",
        json!({"path": "a.txt", "old": "two", "new": "three"}),
    );
    let (text, is_error) = b.result(1);
    assert!(!is_error, "{text}");
    for m in [&mut first, &mut second, &mut a, &mut b] {
        assert_eq!(m.close().0, 0);
    }
}

/// A server for `agent` in a workspace with `a.txt` ("one") and `b.txt` ("bee") that has
/// opened its state database: it read a.txt and edited it to "two" (calls 1 and 2).
fn server_with_its_database_open(ws: &Ws, agent: &str) -> Mcp {
    ws.write("a.txt", "one\n").write("b.txt", "bee\n");
    let mut m = Mcp::start(ws, "files,edit", &[("AGTOOL_AGENT", agent)]);
    m.initialize("2025-11-25");
    m.call(1, "read_file", json!({"path": "a.txt"}));
    assert!(!m.result(1).1);
    m.call(
        2,
        "edit_file",
        json!({"path": "a.txt", "old": "one", "new": "two"}),
    );
    let (text, is_error) = m.result(2);
    assert!(!is_error, "{text}");
    m
}

/// A long-lived server that has its database open still sees reads another process put in
/// the read log (spec 01, "State store"): each freshness operation folds the log in first.
#[test]
fn a_server_with_its_database_open_sees_reads_logged_by_other_processes() {
    let ws = Ws::new();
    let mut m = server_with_its_database_open(&ws, "shared");
    // Another process of the same agent reads b.txt: it appends to the read log.
    ws.run(&["--agent", "shared", "read-file", "b.txt"]).ok();
    assert!(!ws.read(".agent-state/reads.log").is_empty());
    m.call(
        3,
        "edit_file",
        json!({"path": "b.txt", "old": "bee", "new": "B"}),
    );
    let (text, is_error) = m.result(3);
    assert!(!is_error, "{text}");
    assert_eq!(ws.read("b.txt"), b"B\n");
    assert_eq!(m.close().0, 0);
}

/// `state reset` run while a server has its database open: the server's next call uses the
/// new database (attack finding: it kept the deleted one and folded other processes' reads
/// into it, so their edits were refused as unread).
#[test]
fn a_server_follows_a_state_reset_by_another_process() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n").write("b.txt", "bee\n");
    let mut m = Mcp::start(&ws, "files,edit", &[("AGTOOL_AGENT", "A")]);
    m.initialize("2025-11-25");
    m.call(1, "read_file", json!({"path": "a.txt"}));
    assert!(!m.result(1).1);
    m.call(2, "write_file", json!({"path": "n.txt", "content": "n\n"}));
    let (text, is_error) = m.result(2);
    assert!(!is_error, "{text}");
    ws.run(&["state", "reset"]).ok();
    ws.run(&["--agent", "C", "read-file", "b.txt"]).ok();
    m.call(3, "read_file", json!({"path": "n.txt"}));
    assert!(!m.result(3).1);
    // C's read reached the database everyone uses now.
    ws.run(&[
        "--agent",
        "C",
        "edit-file",
        "b.txt",
        "--old",
        "bee",
        "--new",
        "B",
    ])
    .ok();
    assert_eq!(ws.read("b.txt"), b"B\n");
    // The server's read of a.txt from before the reset is gone, as for every other process.
    m.call(
        4,
        "edit_file",
        json!({"path": "a.txt", "old": "one", "new": "two"}),
    );
    let (text, is_error) = m.result(4);
    assert!(is_error, "{text}");
    assert!(text.contains("before editing"), "{text}");
    assert_eq!(m.close().0, 0);
}

/// The state folder removed (`rm -rf .agent-state`) under a server that had only appended its
/// reads to the read log: the refused edit says why the read is gone (it said only "read
/// a.txt before editing it", as if the read never happened).
#[test]
fn a_server_says_so_when_its_state_folder_was_removed() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    let mut m = Mcp::start(&ws, "files,edit", &[("AGTOOL_AGENT", "A")]);
    m.initialize("2025-11-25");
    m.call(1, "read_file", json!({"path": "a.txt"}));
    assert!(!m.result(1).1);
    std::fs::remove_dir_all(ws.path(".agent-state")).unwrap();
    m.call(
        2,
        "edit_file",
        json!({"path": "a.txt", "old": "one", "new": "two"}),
    );
    let (text, is_error) = m.result(2);
    assert!(is_error, "{text}");
    assert!(text.contains("before editing"), "{text}");
    assert!(
        text.contains("state folder was removed or replaced"),
        "{text}"
    );
    // Said once: after a new read, the edit goes through with no note.
    m.call(3, "read_file", json!({"path": "a.txt"}));
    assert!(!m.result(3).1);
    m.call(
        4,
        "edit_file",
        json!({"path": "a.txt", "old": "one", "new": "two"}),
    );
    let (text, is_error) = m.result(4);
    assert!(!is_error, "{text}");
    assert!(!text.contains("state folder"), "{text}");
    assert_eq!(ws.read("a.txt"), b"two\n");
    assert_eq!(m.close().0, 0);
}

/// A SIGBUS sent by a process (`kill -BUS`) to a server that has read a big file from a
/// memory map ends it, as SIGBUS does by default (attack finding: the signal went to the
/// standard library's handler, which swallowed it and left SIGBUS at its default action, so a
/// file cut short under a later read killed the server).
#[test]
fn a_sigbus_sent_to_a_server_ends_it_as_by_default() {
    let ws = Ws::new();
    let line = "a line of text for the map\n";
    ws.write("big.txt", line.repeat((20 << 20) / line.len()));
    let mut m = Mcp::start(&ws, "files", &[]);
    m.initialize("2025-11-25");
    m.call(1, "read_file", json!({"path": "big.txt", "tail": 1}));
    let (text, is_error) = m.result(1);
    assert!(!is_error, "{text}");
    let pid = m.child.id() as i32;
    // SAFETY: sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGBUS) }, 0);
    let deadline = std::time::Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = m.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server is still running"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGBUS), "{status:?}");
}

/// The state folder removed under a server that has its database open (second attack): the
/// next read was not recorded ("cannot open the state database") and the edit after it was
/// refused. Now the folder is made again, the read recorded, and the removal said once.
#[test]
fn a_server_with_its_database_open_makes_a_removed_state_folder_again() {
    let ws = Ws::new();
    let mut m = server_with_its_database_open(&ws, "A");
    std::fs::remove_dir_all(ws.path(".agent-state")).unwrap();
    m.call(3, "read_file", json!({"path": "b.txt"}));
    let (text, is_error) = m.result(3);
    assert!(!is_error, "{text}");
    assert!(!text.contains("not recorded"), "{text}");
    assert!(
        text.contains("state folder was removed or replaced"),
        "{text}"
    );
    m.call(
        4,
        "edit_file",
        json!({"path": "b.txt", "old": "bee", "new": "B"}),
    );
    let (text, is_error) = m.result(4);
    assert!(!is_error, "{text}");
    assert!(!text.contains("state"), "{text}");
    assert_eq!(ws.read("b.txt"), b"B\n");
    assert_eq!(m.close().0, 0);
}
