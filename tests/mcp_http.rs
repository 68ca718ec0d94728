//! `agtool mcp --http` (spec 10, "agtool where agents run"; issue 22): the real binary on a
//! loopback port of a temp workspace, driven by the Python `mcp` package's Streamable HTTP
//! client (tests/mcp/http_client.py: list, call, cancel, two sessions are two agents,
//! progress) and by raw HTTP for what a client library would never send (no token, a wrong
//! token, a token in the query string, another site's Origin or Host, a 1 GB body, a client
//! that goes away mid-call, SIGTERM mid-call, more sessions than the bound).
//!
//! The Python is found as in tests/mcp_client.rs (`AGTOOL_TEST_PYTHON`, set by `.ci/run`).
//! Every server listens on 127.0.0.1 only; the one that listens on every address (with a
//! token) runs inside a network namespace of its own.

mod common;
mod web_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

const TOKEN: &str = "test-token-0123456789";

/// A running `agtool mcp --http` on a loopback port.
struct HttpServer {
    child: Child,
    addr: SocketAddr,
    ws: Ws,
}

impl HttpServer {
    fn start(token: Option<&str>, extra: &[&str]) -> HttpServer {
        let ws = Ws::new();
        ws.write("hello.txt", "hello from agtool\n");
        HttpServer::start_in(ws, "127.0.0.1:0", token, extra)
    }

    fn start_in(ws: Ws, addr: &str, token: Option<&str>, extra: &[&str]) -> HttpServer {
        let home = ws.root.parent().unwrap().join("home");
        let mut cmd = Command::new(bin());
        cmd.args(["--groups", "files,edit,exec", "mcp", "--http", addr])
            .args(extra)
            .current_dir(&ws.root)
            .env("AGTOOL_ROOT", &ws.root)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env_remove("AGTOOL_AGENT")
            .env_remove("AGTOOL_MCP_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(t) = token {
            cmd.env("AGTOOL_MCP_TOKEN", t);
        }
        let mut child = cmd.spawn().unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let addr = loop {
            line.clear();
            assert!(
                err.read_line(&mut line).unwrap() > 0,
                "the server ended before listening"
            );
            if let Some(rest) = line.trim().strip_prefix("agtool mcp: listening on http://") {
                break rest.trim_end_matches("/mcp").parse().unwrap();
            }
        };
        // Keep reading stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        HttpServer { child, addr, ws }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// One request on a fresh connection.
    fn request(&self, method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        request(self.addr, method, target, headers, body)
    }

    /// A session made with initialize and initialized; its id.
    fn session(&self, token: Option<&str>) -> String {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("accept", "application/json, text/event-stream")];
        if let Some(a) = &auth {
            headers.push(("authorization", a));
        }
        let init = self.request("POST", "/mcp", &headers, INIT);
        assert_eq!(init.status, 200, "{init:?}");
        let id = init
            .header("mcp-session-id")
            .expect("a session id")
            .to_owned();
        headers.push(("mcp-session-id", &id));
        let done = self.request(
            "POST",
            "/mcp",
            &headers,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        assert_eq!(done.status, 202, "{done:?}");
        id
    }

    fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                use std::os::unix::process::ExitStatusExt;
                return status.code().or(status.signal().map(|s| 128 + s));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One request to `addr` on a fresh connection.
fn request(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(raw_request(addr, method, target, headers, body).as_bytes())
        .unwrap();
    read_reply(&mut s)
}

fn raw_request(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> String {
    let mut req = format!("{method} {target} HTTP/1.1\r\nconnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("host: {addr}\r\n"));
    }
    if !body.is_empty() {
        req.push_str("content-type: application/json\r\n");
    }
    if !headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("content-length"))
    {
        req.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    req
}

/// Reads a whole response from a connection the server closes after it.
fn read_reply(s: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn python() -> Option<PathBuf> {
    let required = std::env::var_os("AGTOOL_TEST_PYTHON").map(PathBuf::from);
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-venv/bin/python");
    let candidates: Vec<PathBuf> = match &required {
        Some(p) => vec![p.clone()],
        None => vec![venv, PathBuf::from("python3")],
    };
    for py in candidates {
        let ok = Command::new(&py)
            .args(["-c", "import mcp, anyio"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(py);
        }
    }
    assert!(
        required.is_none(),
        "AGTOOL_TEST_PYTHON={required:?} cannot import the mcp package"
    );
    None
}

/// Runs scenario `name` of tests/mcp/http_client.py against `server`.
fn scenario(server: &HttpServer, token: Option<&str>, name: &str, extra: &[&str]) -> bool {
    let Some(py) = python() else {
        println!("SKIP mcp_http::{name}: no Python with the `mcp` package");
        return false;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/http_client.py");
    let out = assert_cmd::Command::new(py)
        .arg(script)
        .args([name, &server.url(), token.unwrap_or("-")])
        .args(extra)
        .timeout(Duration::from_secs(90))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(&format!("ok {name}")),
        "scenario {name} failed ({:?})\n--- stdout:\n{stdout}\n--- stderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

#[test]
fn the_python_client_lists_and_calls_with_a_token() {
    let server = HttpServer::start(Some(TOKEN), &[]);
    scenario(&server, Some(TOKEN), "basics", &[]);
}

#[test]
fn the_python_client_lists_and_calls_on_loopback_without_a_token() {
    let server = HttpServer::start(None, &[]);
    scenario(&server, None, "basics", &[]);
}

#[test]
fn a_cancelled_exec_is_killed() {
    let server = HttpServer::start(None, &[]);
    let marker = unique_sleep();
    if scenario(&server, None, "cancel", &[&marker]) {
        assert_none_with(&marker);
    }
}

#[test]
fn two_sessions_are_two_agents() {
    let server = HttpServer::start(None, &[]);
    if scenario(&server, None, "agents", &[]) {
        assert_eq!(server.ws.read("hello.txt"), b"hi from agtool\n");
    }
}

#[test]
fn a_call_with_a_progress_token_hears_progress() {
    let server = HttpServer::start(None, &[]);
    scenario(&server, None, "progress", &[]);
}

#[test]
fn requests_without_the_right_token_are_refused_and_the_server_goes_on() {
    let server = HttpServer::start(Some(TOKEN), &[]);
    let accept = ("accept", "application/json, text/event-stream");
    let none = server.request("POST", "/mcp", &[accept], INIT);
    assert_eq!(none.status, 401, "{none:?}");
    assert_eq!(none.header("www-authenticate"), Some("Bearer"));
    assert!(none.body.contains("Authorization: Bearer"), "{none:?}");
    let wrong = server.request(
        "POST",
        "/mcp",
        &[accept, ("authorization", "Bearer not-the-token")],
        INIT,
    );
    assert_eq!(wrong.status, 401, "{wrong:?}");
    for target in [format!("/mcp?token={TOKEN}"), format!("/mcp?x={TOKEN}")] {
        let query = server.request(
            "POST",
            &target,
            &[accept, ("authorization", &format!("Bearer {TOKEN}"))],
            INIT,
        );
        assert_eq!(query.status, 400, "{query:?}");
        assert!(query.body.contains("query string"), "{query:?}");
    }
    let foreign = server.request(
        "POST",
        "/mcp",
        &[
            accept,
            ("authorization", &format!("Bearer {TOKEN}")),
            ("origin", "https://evil.example"),
        ],
        INIT,
    );
    assert_eq!(foreign.status, 403, "{foreign:?}");
    // And a right one still works.
    server.session(Some(TOKEN));
}

#[test]
fn another_sites_origin_or_host_is_refused_without_a_token() {
    let server = HttpServer::start(None, &[]);
    let accept = ("accept", "application/json, text/event-stream");
    let origin = server.request(
        "POST",
        "/mcp",
        &[accept, ("origin", "http://evil.example:1234")],
        INIT,
    );
    assert_eq!(origin.status, 403, "{origin:?}");
    // DNS rebinding: the attacker's name now resolves to 127.0.0.1.
    let host = server.request(
        "POST",
        "/mcp",
        &[
            accept,
            ("host", "evil.example:1234"),
            ("origin", "http://evil.example:1234"),
        ],
        INIT,
    );
    assert_eq!(host.status, 403, "{host:?}");
    let local = server.request(
        "POST",
        "/mcp",
        &[accept, ("origin", "http://localhost:6274")],
        INIT,
    );
    assert_eq!(local.status, 200, "{local:?}");
}

/// Leftover of issue 22: a client that sends headers a line at a time (or nothing at all)
/// held its connection open for ever. Both are closed once the headers take more than 10 s,
/// and the server goes on serving.
#[test]
fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let server = HttpServer::start(None, &[]);
    // Whether the server has closed `s` (end of stream, a reply, or a reset); waits `wait`.
    let closed = |s: &mut TcpStream, wait: Duration| {
        s.set_read_timeout(Some(wait)).unwrap();
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            Ok(n) => n == 0 || buf[..n].starts_with(b"HTTP/1.1 "),
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        }
    };
    let start = Instant::now();
    let mut silent = TcpStream::connect(server.addr).unwrap();
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\n").unwrap();
    let mut cut_after = None;
    for i in 0..12 {
        // A header line every 2 s: each arrives well within any per-read limit.
        if slow
            .write_all(format!("x-slow-{i}: y\r\n").as_bytes())
            .is_err()
            || closed(&mut slow, Duration::from_secs(2))
        {
            cut_after = Some(start.elapsed());
            break;
        }
    }
    let cut_after = cut_after.expect("a client sending a header line every 2 s was never cut off");
    assert!(cut_after >= Duration::from_secs(8), "{cut_after:?}");
    assert!(
        closed(&mut silent, Duration::from_secs(15)),
        "a connection that never sent a byte stayed open for {:?}",
        start.elapsed()
    );
    server.session(None);
}

#[test]
fn a_1_gb_body_is_refused_by_its_size() {
    let server = HttpServer::start(None, &[]);
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let head = raw_request(
        server.addr,
        "POST",
        "/mcp",
        &[
            ("accept", "application/json, text/event-stream"),
            ("content-length", "1000000000"),
        ],
        "",
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&[b' '; 65536]).unwrap();
    let reply = read_reply(&mut s);
    assert_eq!(reply.status, 413, "{reply:?}");
    // Without a length, rmcp counts the bytes (chunked).
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
        server.addr
    );
    s.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 1 << 20];
    let mut sent = 0usize;
    for _ in 0..64 {
        let mut frame = format!("{:x}\r\n", chunk.len()).into_bytes();
        frame.extend_from_slice(&chunk);
        frame.extend_from_slice(b"\r\n");
        if s.write_all(&frame).is_err() {
            break;
        }
        sent += 1;
    }
    let reply = read_reply(&mut s);
    assert!(
        sent < 64 || reply.status == 413,
        "{sent} MiB sent: {reply:?}"
    );
    assert_eq!(reply.status, 413, "{reply:?}");
    server.session(None);
}

#[test]
fn a_non_loopback_address_without_a_token_does_not_start() {
    let ws = Ws::new();
    let out = Command::new(bin())
        .args(["mcp", "--http", "0.0.0.0:0"])
        .current_dir(&ws.root)
        .env("AGTOOL_ROOT", &ws.root)
        .env_remove("AGTOOL_MCP_TOKEN")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a loopback address and no token"), "{err}");
}

#[test]
fn every_address_with_a_token_file() {
    if !web_common::run_in_netns("every_address_with_a_token_file") {
        return;
    }
    let ws = Ws::new();
    let token_file = ws.root.parent().unwrap().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let server = HttpServer::start_in(
        ws,
        "0.0.0.0:0",
        None,
        &["--token-file", token_file.to_str().unwrap()],
    );
    let addr = SocketAddr::from(([127, 0, 0, 1], server.addr.port()));
    let accept = ("accept", "application/json, text/event-stream");
    let bearer = format!("Bearer {TOKEN}");
    // Any Host is taken with the token (a container's name, a sandbox service's).
    let ok = request(
        addr,
        "POST",
        "/mcp",
        &[
            ("host", "agtool.internal:8765"),
            accept,
            ("authorization", &bearer),
        ],
        INIT,
    );
    assert_eq!(ok.status, 200, "{ok:?}");
    let none = request(
        addr,
        "POST",
        "/mcp",
        &[("host", "agtool.internal"), accept],
        INIT,
    );
    assert_eq!(none.status, 401, "{none:?}");
}

/// Starts `exec` of two sleeps carrying `marker` in a new session and returns the open
/// connection carrying the call.
fn start_exec(server: &HttpServer, marker: &str) -> TcpStream {
    let id = server.session(None);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"exec","arguments":{{"command":["sh","-c","sleep {marker} & sleep {marker}; echo done"],"timeout_ms":60000}}}}}}"#
    );
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(
        raw_request(
            server.addr,
            "POST",
            "/mcp",
            &[
                ("accept", "application/json, text/event-stream"),
                ("mcp-session-id", &id),
            ],
            &call,
        )
        .as_bytes(),
    )
    .unwrap();
    let found = wait_for_none(
        || {
            let n = processes_with(marker).len();
            if n >= 2 { vec![] } else { vec![n] }
        },
        Duration::from_secs(20),
    );
    assert!(found.is_empty(), "the exec did not start");
    s
}

#[test]
fn a_client_that_goes_away_mid_call_has_its_processes_killed() {
    let server = HttpServer::start(None, &[]);
    let marker = unique_sleep();
    let s = start_exec(&server, &marker);
    drop(s);
    assert_none_with(&marker);
    // The server goes on.
    server.session(None);
}

#[test]
fn sigterm_stops_running_calls_and_the_server() {
    let mut server = HttpServer::start(None, &[]);
    let marker = unique_sleep();
    let _s = start_exec(&server, &marker);
    signal(server.child.id() as i32, "TERM");
    let code = server.wait_exit(Duration::from_secs(10));
    assert!(matches!(code, Some(143)), "exit {code:?}");
    assert_none_with(&marker);
}

#[test]
fn sessions_are_bounded_the_least_recently_used_idle_one_closed() {
    let server = HttpServer::start(None, &[]);
    let first = server.session(None);
    for _ in 0..200 {
        server.session(None);
    }
    let accept = ("accept", "application/json, text/event-stream");
    let stale = server.request(
        "POST",
        "/mcp",
        &[accept, ("mcp-session-id", &first)],
        r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
    );
    assert_eq!(stale.status, 404, "{stale:?}");
    let fresh = server.session(None);
    let ping = server.request(
        "POST",
        "/mcp",
        &[accept, ("mcp-session-id", &fresh)],
        r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
    );
    assert_eq!(ping.status, 200, "{ping:?}");
}
