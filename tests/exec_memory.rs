//! Memory stays bounded whatever a command prints (spec 05: "1 GiB of output must not grow
//! agtool's memory past a few MiB"). Its own test binary, so nothing else runs beside it.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::Workspace;

/// Peak resident set (VmHWM) of `pid` in KiB, while it is alive.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[test]
fn a_flood_of_output_keeps_memory_bounded() {
    let ws = Workspace::new();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agtool"))
        .current_dir(ws.path())
        .args([
            "exec",
            "--timeout-ms",
            "120000",
            "--",
            "sh",
            "-c",
            "head -c 268435456 /dev/zero; echo; echo END",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        if let Some(kib) = peak_rss_kib(pid) {
            peak = peak.max(kib);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(out.starts_with("Exit code: 0\n"), "{:.200}", out);
    assert!(out.contains("bytes omitted"));
    assert!(out.ends_with("\nEND\n"));
    assert!(peak > 0, "VmHWM was never read");
    // Debug builds carry more code than release; 16 MiB is the release target.
    assert!(peak < 24 * 1024, "peak RSS {peak} KiB");
}
