//! Huge arguments (issue 12, item 7): every free-text argument is bounded in the schema, a glob
//! too large for the regex engine is an argument error (globset used to panic: exit 101), and
//! a costly regex fails fast. Each case runs the real binary and measures its wall time and
//! peak memory (the child's own rusage).

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Ws, bin, clean_env};
use serde_json::{Value, json};

/// One finished run: exit status, stdout + stderr, wall time, peak resident memory in KiB.
struct Measured {
    code: i32,
    text: String,
    wall: Duration,
    max_rss_kib: i64,
}

/// Runs `agtool call <tool>` with `input` on stdin and measures the child alone: `wait4` on
/// its pid gives its own rusage, whatever else the test process runs.
fn measure(ws: &Ws, tool: &str, input: &Value) -> Measured {
    let body = input.to_string();
    let mut c = std::process::Command::new(bin());
    clean_env(&mut c, &ws.home);
    c.current_dir(&ws.root)
        .env("AGTOOL_GROUPS", "all")
        .args(["call", tool])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    // Reaped below with wait4, which also gives the child's own rusage.
    #[allow(clippy::zombie_processes)]
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(body.as_bytes());
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut s);
        s
    });
    let mut text = Vec::new();
    let _ = std::io::Read::read_to_end(&mut out, &mut text);
    text.extend(reader.join().unwrap());
    feeder.join().unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: plain system call on our child's pid with valid pointers.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4 failed");
    let wall = start.elapsed();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    Measured {
        code,
        text: String::from_utf8_lossy(&text).into_owned(),
        wall,
        max_rss_kib: usage.ru_maxrss,
    }
}

/// A usage error (exit 2), not a panic (101), quick and small, that does not echo the value.
fn assert_refused_fast(m: &Measured, limit: Duration, max_mib: i64, says: &str) {
    assert_eq!(m.code, 2, "{}", &m.text[..m.text.len().min(2000)]);
    assert!(!m.text.contains("panicked"), "{}", m.text);
    assert!(m.text.contains(says), "{}", m.text);
    assert!(
        m.text.len() < 2000,
        "the message echoes the argument: {} bytes",
        m.text.len()
    );
    assert!(m.wall < limit, "took {:?}", m.wall);
    assert!(
        m.max_rss_kib < max_mib * 1024,
        "peak memory {} MiB",
        m.max_rss_kib / 1024
    );
}

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("a.txt", "hello\n")
        .write("src/b.rs", "fn main() {}\n");
    ws
}

#[test]
fn a_400k_glob_or_include_is_an_argument_error_not_a_panic() {
    let ws = ws();
    let long = "a".repeat(400_000);
    let m = measure(&ws, "glob", &json!({ "pattern": long }));
    assert_refused_fast(
        &m,
        Duration::from_secs(1),
        100,
        "/pattern: expected string of 1 to 65536 characters, got a string of 400000 characters",
    );
    let m = measure(&ws, "grep", &json!({ "pattern": "x", "include": long }));
    assert_refused_fast(
        &m,
        Duration::from_secs(1),
        100,
        "/include: expected string of at most 65536 characters",
    );
}

#[test]
fn a_50_mb_glob_or_regex_is_refused_quickly_in_bounded_memory() {
    // Was: the glob ran 30 s and peaked at 6.6 GB before panicking; the regex 22 s and 5 GB.
    let ws = ws();
    let huge = "a".repeat(50_000_000);
    for tool in ["glob", "grep"] {
        let m = measure(&ws, tool, &json!({ "pattern": huge }));
        // The input itself is 50 MB: about twice that (the bytes read, the parsed string).
        assert_refused_fast(
            &m,
            Duration::from_secs(3),
            300,
            "got a string of 50000000 characters",
        );
    }
}

#[test]
fn a_costly_regex_fails_fast() {
    let ws = ws();
    // Spelled-out Unicode classes: each is hundreds of ranges before any size check.
    let m = measure(&ws, "grep", &json!({ "pattern": "\\w".repeat(16_000) }));
    assert_refused_fast(&m, Duration::from_secs(1), 100, "at most 1024 are allowed");
    // A short pattern that compiles to a huge program: the engine's size limit stops it.
    let m = measure(&ws, "grep", &json!({ "pattern": "(\\w{1000}){1000}" }));
    assert_refused_fast(&m, Duration::from_secs(3), 100, "exceeds size limit");
}

#[test]
fn a_glob_at_the_cap_still_runs() {
    let ws = ws();
    let m = measure(&ws, "glob", &json!({ "pattern": "*".repeat(65_536) }));
    assert_eq!(m.code, 0, "{}", m.text);
    let m = measure(&ws, "glob", &json!({ "pattern": "a".repeat(65_537) }));
    assert_eq!(m.code, 2, "{}", m.text);
}

#[test]
fn every_string_argument_of_every_tool_has_a_max_length() {
    let ws = ws();
    let out = std::process::Command::new(bin())
        .current_dir(&ws.root)
        .env("HOME", &ws.home)
        .env("XDG_CONFIG_HOME", ws.home.join(".config"))
        .args(["schema", "--groups", "all"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut unbounded = Vec::new();
    fn walk(node: &Value, at: &str, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                let is_string = map.get("type").and_then(Value::as_str) == Some("string");
                if is_string && !map.contains_key("enum") && !map.contains_key("maxLength") {
                    out.push(at.to_owned());
                }
                if map.get("type").and_then(Value::as_str) == Some("array")
                    && !map.contains_key("maxItems")
                {
                    out.push(format!("{at} (array)"));
                }
                for (k, v) in map {
                    walk(v, &format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let tools = tools.as_array().expect("an array of tools");
    assert!(tools.len() >= 10);
    for t in tools {
        let name = t["name"].as_str().unwrap_or("?");
        walk(&t["input_schema"], name, &mut unbounded);
    }
    assert!(unbounded.is_empty(), "unbounded: {unbounded:#?}");
}
