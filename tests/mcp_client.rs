//! `agtool mcp` driven end to end by a real MCP client from the ecosystem: the Python `mcp`
//! package (spec 07 "mcp": "Tested end to end with a real MCP client"). The scenarios live in
//! tests/mcp/client.py; each test here runs one in a fresh workspace.
//!
//! The Python is `AGTOOL_TEST_PYTHON` (`.ci/run` makes a venv with `mcp` installed and sets
//! it), else `target/mcp-venv/bin/python`, else `python3`. When `AGTOOL_TEST_PYTHON` is set the
//! package must be there; otherwise a Python without it makes the tests print SKIP and pass.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;

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
        "AGTOOL_TEST_PYTHON={:?} cannot import the mcp package",
        required
    );
    None
}

/// Runs scenario `name` of tests/mcp/client.py; false when it was skipped.
fn scenario(name: &str, extra: &[&str]) -> bool {
    let Some(py) = python() else {
        println!(
            "SKIP mcp_client::{name}: no Python with the `mcp` package (set AGTOOL_TEST_PYTHON)"
        );
        return false;
    };
    let ws = Ws::new();
    ws.write("hello.txt", "hello from agtool\n");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let out = assert_cmd::Command::new(py)
        .arg(script)
        .arg(name)
        .arg(bin())
        .arg(&ws.root)
        .args(extra)
        .timeout(Duration::from_secs(90))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(&format!("ok {name}")),
        "scenario {name} failed ({:?})\n--- stdout:\n{stdout}\n--- stderr:\n{stderr}",
        out.status
    );
    true
}

#[test]
fn connects_lists_and_calls_with_both_lifecycles() {
    scenario("basics", &[]);
}

#[test]
fn a_cancelled_exec_is_killed() {
    let marker = unique_sleep();
    if scenario("cancel", &[&marker]) {
        assert_none_with(&marker);
    }
}

#[test]
fn a_slow_exec_does_not_delay_a_read() {
    let marker = unique_sleep();
    scenario("concurrent", &[&marker]);
}
