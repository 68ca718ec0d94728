//! The framework through the real binary: bad input of every kind (issue 2, "Bad input must
//! get a clear error and change nothing"), the three ways to pass arguments, `--json`,
//! `schema` and `call` (spec 00, spec 07).

mod common;
use common::*;
use serde_json::{Value, json};

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let ws = Ws::new();
    let line = "x".repeat(100);
    ws.write("big.txt", format!("{line}\n").repeat(3000));
    let mut child = ws
        .std_cmd_in(&ws.root)
        .args(["read-file", "big.txt"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away at once, like `agtool ... | head -1`.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}
