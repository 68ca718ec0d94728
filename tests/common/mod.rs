//! Helpers shared by the integration tests. Here: the process-tool tests' workspace that, when
//! dropped, stops its session server and fails the test if any process it started is still
//! alive. In `ws`: the file-tool tests' workspace and run results.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

mod ws;
pub use ws::*;

/// `agtool` run from `dir`, with no outside configuration, all groups enabled for `call`.
pub fn agtool(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("agtool").unwrap();
    c.current_dir(dir)
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_EXEC_TAG")
        .env("AGTOOL_GROUPS", "files,exec")
        .env("XDG_CONFIG_HOME", dir.join(".no-user-config"))
        .timeout(Duration::from_secs(120));
    c
}

/// A temporary workspace (with `.git`, so it is the root). Dropping it stops the session
/// server and checks that nothing started in it survives.
pub struct Workspace {
    tmp: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Workspace {
        let tmp = tempfile::Builder::new()
            .prefix("agtool-exec-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir(tmp.path().join(".git")).unwrap();
        Workspace { tmp }
    }

    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    pub fn cmd(&self) -> Command {
        agtool(self.path())
    }

    /// Runs agtool with `args`, returning (exit status, stdout).
    pub fn run(&self, args: &[&str]) -> (i32, String) {
        let out = self.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// `agtool call <tool>` with `json` on stdin.
    pub fn call(&self, tool: &str, json: &serde_json::Value) -> (i32, String) {
        let out = self
            .cmd()
            .args(["call", tool])
            .write_stdin(json.to_string())
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// The session server's pid from its record, when one was written.
    pub fn server_pid(&self) -> Option<i32> {
        let rec = std::fs::read(self.path().join(".agent-state/sessions/server.json")).ok()?;
        let v: serde_json::Value = serde_json::from_slice(&rec).ok()?;
        v.get("pid")?.as_i64().map(|p| p as i32)
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = self.cmd().args(["sessions", "stop-server"]).output();
        let left = wait_for_none(|| processes_in(self.path()), Duration::from_secs(3));
        if !left.is_empty() {
            for (pid, _) in &left {
                kill(*pid);
            }
            if !std::thread::panicking() {
                panic!(
                    "processes left behind in {}: {left:?}",
                    self.path().display()
                );
            }
        }
    }
}

/// Live (non-zombie) processes whose working directory is `dir` or under it: everything a
/// test starts runs there, so this finds what a test left behind.
pub fn processes_in(dir: &Path) -> Vec<(i32, String)> {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    live_processes()
        .into_iter()
        .filter(|(pid, _)| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd.starts_with(&dir))
        })
        .collect()
}

/// Live processes whose command line contains `marker`.
pub fn processes_with(marker: &str) -> Vec<(i32, String)> {
    live_processes()
        .into_iter()
        .filter(|(_, cmd)| cmd.contains(marker))
        .collect()
}

fn live_processes() -> Vec<(i32, String)> {
    let me = std::process::id() as i32;
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if pid == me || is_zombie(pid) {
            continue;
        }
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        out.push((pid, cmd.trim_end().to_string()));
    }
    out
}

fn is_zombie(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|r| r.split_whitespace().next());
    matches!(state, Some("Z") | Some("X") | None)
}

/// Polls `find` until it returns nothing or `limit` passes; returns the last result.
pub fn wait_for_none<T>(mut find: impl FnMut() -> Vec<T>, limit: Duration) -> Vec<T> {
    let end = Instant::now() + limit;
    loop {
        let found = find();
        if found.is_empty() || Instant::now() >= end {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Fails when a process with `marker` in its command line is still alive.
pub fn assert_none_with(marker: &str) {
    let left = wait_for_none(|| processes_with(marker), Duration::from_secs(3));
    for (pid, _) in &left {
        kill(*pid);
    }
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// SIGKILL, for cleaning up after a failed check.
pub fn kill(pid: i32) {
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
}

/// Sends signal `name` (`TERM`, `INT`, ...) to `pid`.
pub fn signal(pid: i32, name: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} {pid} failed");
}

/// A `sleep` argument unique to this test process and call, to find the process by.
pub fn unique_sleep() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "300.{}{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed) + 1000
    )
}

/// The id in `Process running with session ID <id>`.
pub fn session_id(text: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix("Process running with session ID "))
        .unwrap_or_else(|| panic!("no session id in {text:?}"))
        .trim()
        .parse()
        .unwrap()
}

pub fn state_dir(ws: &Workspace) -> PathBuf {
    ws.path().join(".agent-state")
}

/// Makes `parent/name` a chain of `levels` folders (`name/d/d/...`), built bottom-up through
/// short paths only: the path of the innermost folder may be longer than the kernel takes.
pub fn deep_dirs(parent: &Path, name: &str, levels: usize) {
    let (a, b) = (parent.join(".deep-a"), parent.join(".deep-b"));
    std::fs::create_dir(&a).unwrap();
    for _ in 0..levels {
        std::fs::create_dir(&b).unwrap();
        std::fs::rename(&a, b.join("d")).unwrap();
        std::fs::rename(&b, &a).unwrap();
    }
    std::fs::rename(&a, parent.join(name)).unwrap();
}

/// Removes the tree at `path` however deep it is, through short paths only (std's
/// `remove_dir_all` takes a stack frame and a handle per level): each folder's subfolders are
/// moved up beside it before it is emptied and removed.
pub fn remove_deep(path: &Path) {
    let parent = path.parent().unwrap();
    let mut todo = vec![path.to_path_buf()];
    let mut n = 0;
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                n += 1;
                let up = parent.join(format!(".deep-rm-{n}"));
                std::fs::rename(e.path(), &up).unwrap();
                todo.push(up);
            } else {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
        std::fs::remove_dir(&dir).unwrap();
    }
}

/// A tree made by [`deep_dirs`], removed by [`remove_deep`] when dropped (before the
/// workspace's temporary folder, whose removal recurses per level), even when a test fails.
pub struct DeepTree(pub PathBuf);

impl DeepTree {
    /// `parent/name`, `levels` folders deep.
    pub fn new(parent: &Path, name: &str, levels: usize) -> DeepTree {
        deep_dirs(parent, name, levels);
        DeepTree(parent.join(name))
    }
}

impl Drop for DeepTree {
    fn drop(&mut self) {
        if self.0.exists() {
            remove_deep(&self.0);
        }
    }
}
