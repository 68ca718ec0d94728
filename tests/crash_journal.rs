//! Kills during writes (issue 12, items 2 and 3; spec 01 "Races and crashes"):
//! - SIGKILL at random moments of 3-file patches, then any agtool call: the three files are
//!   all old or all new, and no temp file is left;
//! - the temp file of a SIGKILLed big write is removed by the next call (or `state recover`),
//!   which says so once, after its result;
//! - SIGTERM, SIGINT and SIGHUP during a write remove the temp file at once, print one
//!   `Error:` line and end with 128 + the signal.

mod common;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{Run, Ws};

/// The tests here time kills against the disk: one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Bytes per file of the patched trio: large enough that writing three takes a while.
const PATCH_FILE_BYTES: usize = 256 * 1024;
/// Kills of 3-file patches per run.
const PATCH_KILLS: usize = 40;
/// Bytes of the big single write.
const BIG: usize = 4 * 1024 * 1024;

/// A file whose first line is `state <n>` followed by filler.
fn trio_content(name: &str, state: usize) -> Vec<u8> {
    let mut out = format!("state {state}\n").into_bytes();
    let mut i = 0u64;
    while out.len() < PATCH_FILE_BYTES {
        writeln!(out, "{name} filler line {i:010}").unwrap();
        i += 1;
    }
    out
}

/// The first line of a file under the root.
fn first_line(ws: &Ws, rel: &str) -> String {
    let bytes = std::fs::read(ws.path(rel)).unwrap();
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Every name containing `.agtool-` under `dir` (recursively, not following symlinks), except
/// in `.agent-state`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name == ".agent-state" {
            continue;
        }
        if name.contains(".agtool-") {
            out.push(e.path());
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(temp_files(&e.path()));
        }
    }
    out
}

/// Journals still present in the state folder.
fn journals(ws: &Ws) -> Vec<PathBuf> {
    match std::fs::read_dir(ws.path(".agent-state/journal")) {
        Ok(rd) => rd
            .flatten()
            .filter(|e| e.file_name() != "lock")
            .map(|e| e.path())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The patch moving all three files from `state` to `state + 1`.
fn trio_patch(state: usize) -> String {
    let mut p = String::from("*** Begin Patch\n");
    for f in ["a.txt", "b.txt", "c.txt"] {
        p.push_str(&format!(
            "*** Update File: {f}\n@@\n-state {state}\n+state {}\n",
            state + 1
        ));
    }
    p.push_str("*** End Patch\n");
    p
}

fn start_patch(ws: &Ws, patch: String) -> (Child, std::thread::JoinHandle<()>) {
    let mut child = ws
        .std_cmd_in(&ws.root)
        .args(["--no-freshness", "--no-syntax-check", "apply-patch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(patch.as_bytes());
    });
    (child, feeder)
}

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// All three first lines equal `state <n>`?
fn trio_at(ws: &Ws, n: usize) -> bool {
    ["a.txt", "b.txt", "c.txt"]
        .iter()
        .all(|f| first_line(ws, f) == format!("state {n}"))
}

/// Waits until the patch's first temp file appears (its writes begin); returns when it did.
fn wait_for_writes(ws: &Ws, child: &mut Child) -> Option<Instant> {
    let started = Instant::now();
    loop {
        if !temp_files(&ws.root).is_empty() {
            return Some(Instant::now());
        }
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the patch hung"
        );
        std::thread::sleep(Duration::from_micros(100));
    }
}

#[test]
fn sigkill_during_three_file_patches_then_any_call_sees_all_old_or_all_new() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ws = Ws::new();
    for f in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(ws.path(f), trio_content(f, 0)).unwrap();
    }
    // How long the writes of one patch take here, from its first temp file to all three files
    // new (the slowest of two runs): kills land uniformly over that span.
    let mut state = 0;
    let mut window = Duration::ZERO;
    for _ in 0..2 {
        let (mut child, feeder) = start_patch(&ws, trio_patch(state));
        // A patch may finish between two looks for its temp files (a fast disk, an idle
        // machine): then its window counts as zero and the other run's decides.
        let began = wait_for_writes(&ws, &mut child).unwrap_or_else(Instant::now);
        while !trio_at(&ws, state + 1) && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_micros(100));
        }
        window = window.max(began.elapsed());
        assert!(
            child.wait().unwrap().success(),
            "the calibration patch failed"
        );
        assert!(
            trio_at(&ws, state + 1),
            "the calibration patch did not land"
        );
        feeder.join().unwrap();
        state += 1;
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut partial, mut leaked, mut landed) = (0, 0, 0);
    let mut leaked_journals = 0;
    for k in 0..PATCH_KILLS {
        let delay = Duration::from_micros(rng.next() % (window.as_micros() as u64 * 5 / 4 + 1));
        let (mut child, feeder) = start_patch(&ws, trio_patch(state));
        if wait_for_writes(&ws, &mut child).is_some() {
            std::thread::sleep(delay);
        }
        let _ = child.kill();
        let _ = child.wait();
        feeder.join().unwrap();
        // Any later call in the workspace must find things whole.
        let after = Run::from(
            ws.cmd()
                .args(["read-file", "a.txt", "--limit", "1"])
                .output()
                .unwrap(),
        );
        assert_eq!(after.code, 0, "{after:?}");
        let lines: Vec<String> = ["a.txt", "b.txt", "c.txt"]
            .iter()
            .map(|f| first_line(&ws, f))
            .collect();
        if lines.iter().any(|l| l != &lines[0]) {
            partial += 1;
            eprintln!("kill {k} after {delay:?}: half-applied patch: {lines:?}");
        }
        let temps = temp_files(&ws.root);
        if !temps.is_empty() {
            leaked += temps.len();
            for t in temps {
                let _ = std::fs::remove_file(t);
            }
        }
        leaked_journals += journals(&ws).len();
        // Go on from whatever state the files are in (made whole again if they were not).
        let now: usize = lines[0]
            .trim_start_matches("state ")
            .parse()
            .unwrap_or(state);
        if now == state + 1 {
            landed += 1;
        }
        state = now;
        for f in ["a.txt", "b.txt", "c.txt"] {
            if first_line(&ws, f) != format!("state {state}") {
                std::fs::write(ws.path(f), trio_content(f, state)).unwrap();
            }
        }
    }
    eprintln!(
        "{PATCH_KILLS} kills over the {window:?} of a patch's writes: {landed} patches had \
         landed, {partial} half-applied, {leaked} temp files and {leaked_journals} journals left"
    );
    assert_eq!(partial, 0, "half-applied patches seen by a later call");
    assert_eq!(leaked, 0, "temp files left after a later call");
    assert_eq!(leaked_journals, 0, "journals left after a later call");
}

/// ~4 MB of distinct lines.
fn big(tag: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(BIG + 64);
    let mut i = 0u64;
    while out.len() < BIG {
        writeln!(out, "{tag} line {i:012} of a big write").unwrap();
        i += 1;
    }
    out
}

/// Starts `write-file big.txt` with `body` on stdin and waits until its temp file exists.
/// Returns the child (stdout and stderr piped) and the temp file's path; the caller waits
/// for it.
#[allow(clippy::zombie_processes)]
fn start_big_write(ws: &Ws, body: Vec<u8>) -> (Child, PathBuf) {
    let mut child = ws
        .std_cmd_in(&ws.root)
        .args([
            "--no-freshness",
            "--no-syntax-check",
            "write-file",
            "big.txt",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&body);
    });
    let started = Instant::now();
    loop {
        if let Some(t) = temp_files(&ws.root).into_iter().next() {
            return (child, t);
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no temp file appeared");
        }
        std::thread::yield_now();
    }
}

/// SIGKILLs a big write of `big.txt` while its temp file exists (stopping it first, so the
/// kill cannot come after the rename); returns the temp file's path.
fn kill_a_big_write(ws: &Ws) -> PathBuf {
    for _ in 0..10 {
        let (mut child, temp) = start_big_write(ws, big("new"));
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGSTOP);
        }
        let caught = temp.exists();
        child.kill().unwrap();
        let _ = child.wait();
        if caught {
            return temp;
        }
        std::fs::write(ws.path("big.txt"), "old\n").unwrap();
    }
    panic!("the write always finished before it could be stopped");
}

#[test]
fn the_temp_file_of_a_killed_write_is_removed_by_the_next_call() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ws = Ws::new();
    ws.write("big.txt", "old\n").write("small.txt", "small\n");
    // Recovered by an ordinary call, which says so once on stderr.
    let temp = kill_a_big_write(&ws);
    assert!(temp.exists());
    let run = Run::from(ws.cmd().args(["read-file", "small.txt"]).output().unwrap());
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!temp.exists(), "the next call left {temp:?}: {run:?}");
    assert!(
        run.out.contains("Note: removed") && run.out.contains(".big.txt.agtool-"),
        "the recovery did not say what it did: {run:?}"
    );
    assert_eq!(std::fs::read(ws.path("big.txt")).unwrap(), b"old\n");
    let again = Run::from(ws.cmd().args(["read-file", "small.txt"]).output().unwrap());
    assert!(!again.out.contains("removed"), "said twice: {again:?}");
    // Recovered by `state recover`, which says so in its output.
    let temp = kill_a_big_write(&ws);
    assert!(temp.exists());
    let run = Run::from(ws.cmd().args(["state", "recover"]).output().unwrap());
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!temp.exists());
    assert!(run.out.contains(".big.txt.agtool-"), "{run:?}");
    let run = Run::from(ws.cmd().args(["state", "recover"]).output().unwrap());
    assert!(run.out.contains("Nothing to recover"), "{run:?}");
}

#[test]
fn a_termination_signal_during_a_write_removes_the_temp_file() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ws = Ws::new();
    ws.write("big.txt", "old\n");
    let mut undone = 0;
    for (sig, name) in [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGHUP, "SIGHUP"),
    ] {
        let body = big(name);
        let (child, temp) = start_big_write(&ws, body.clone());
        // The write takes milliseconds: stop agtool where it is (writing its temp file), send
        // the signal, and let it go on, so the signal lands during the write.
        let pid = child.id() as i32;
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(pid, libc::SIGSTOP);
            libc::kill(pid, sig);
            libc::kill(pid, libc::SIGCONT);
        }
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let ended = match (out.status.code(), out.status.signal()) {
            (Some(code), _) => code == 128 + sig,
            // SIGINT ends agtool by SIGINT itself (a shell's $? is still 130).
            (None, Some(s)) => s == sig && sig == libc::SIGINT,
            _ => false,
        };
        assert!(
            ended,
            "{name}: status {:?}\nstdout: {stdout}\nstderr: {stderr}",
            out.status
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines.len() == 1 && lines[0].starts_with("Error: ") && lines[0].contains(name),
            "{name}: expected one Error line naming the signal, got {stdout:?} / {stderr:?}"
        );
        assert!(!temp.exists(), "{name}: the temp file was left");
        assert!(temp_files(&ws.root).is_empty(), "{name}: temp files left");
        // Caught before the rename, the write is undone; caught after it (the temp file was
        // seen just before its rename), the write stands and the line says so.
        let now = std::fs::read(ws.path("big.txt")).unwrap();
        if now == b"old\n" {
            undone += 1;
            assert!(lines[0].contains("nothing was changed"), "{stdout}");
        } else {
            assert!(now == body, "{name}: the file is neither old nor new");
            assert!(lines[0].contains("the write completed"), "{stdout}");
        }
        std::fs::write(ws.path("big.txt"), "old\n").unwrap();
    }
    eprintln!(
        "3 signals during a write: {undone} undone, {} after the rename",
        3 - undone
    );
    assert!(undone > 0, "no signal landed before the rename");
}
