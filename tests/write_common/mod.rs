//! Shared helpers for the write-tool integration tests: a temporary workspace and ways to run
//! the real binary in it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The agtool binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_agtool")
}

/// A temporary workspace: `<tmp>/ws` is the root (so tests can put files beside it).
pub struct Ws {
    _tmp: tempfile::TempDir,
    /// The parent of the root.
    pub base: PathBuf,
    /// The workspace root (canonical).
    pub root: PathBuf,
}

impl Ws {
    pub fn new() -> Ws {
        Ws::named("ws")
    }

    pub fn named(name: &str) -> Ws {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let root = base.join(name);
        std::fs::create_dir_all(&root).unwrap();
        Ws {
            _tmp: tmp,
            base,
            root,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// A command for agtool run in the root, with a clean environment.
    pub fn cmd(&self) -> Command {
        let mut c = Command::new(bin());
        c.current_dir(&self.root)
            .env("AGTOOL_ROOT", &self.root)
            .env_remove("AGTOOL_AGENT")
            .env_remove("AGTOOL_FRESHNESS")
            .env_remove("AGTOOL_SYNTAX_CHECK")
            .env_remove("AGTOOL_GROUPS")
            .env_remove("AGTOOL_CONFIG")
            .env("NO_COLOR", "1");
        c
    }

    /// Runs `agtool <args>` with `stdin` (empty when `None`).
    pub fn run(&self, args: &[&str], stdin: Option<&str>) -> Run {
        let mut c = self.cmd();
        c.args(args);
        run_with_stdin(c, stdin.unwrap_or(""))
    }

    /// `agtool call <tool> --groups all` with the JSON arguments on stdin.
    pub fn call(&self, tool: &str, args: &serde_json::Value) -> Run {
        self.call_as(tool, args, &[])
    }

    /// As [`Ws::call`] with extra global flags (`--json`, `--agent x`).
    pub fn call_as(&self, tool: &str, args: &serde_json::Value, extra: &[&str]) -> Run {
        let mut c = self.cmd();
        c.args(["call", tool, "--groups", "all"]).args(extra);
        run_with_stdin(c, &args.to_string())
    }

    /// read-file of `rel` (registers its tag); panics unless it succeeds.
    pub fn read(&self, rel: &str) -> Run {
        let r = self.call("read_file", &serde_json::json!({ "path": rel }));
        assert_eq!(r.code, 0, "read-file {rel}: {}", r.all());
        r
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let p = self.path(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(p, bytes).unwrap();
    }

    pub fn bytes(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.path(rel)).unwrap()
    }

    pub fn exists(&self, rel: &str) -> bool {
        std::fs::symlink_metadata(self.path(rel)).is_ok()
    }
}

/// What one run produced.
#[derive(Debug, Clone)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn all(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", self.all()))
    }

    /// Asserts the exit status and returns self.
    pub fn code(self, code: i32) -> Run {
        assert_eq!(self.code, code, "{}", self.all());
        self
    }

    /// Asserts stdout or stderr contains `s`.
    pub fn says(self, s: &str) -> Run {
        assert!(
            self.stdout.contains(s) || self.stderr.contains(s),
            "expected {s:?} in:\n{}",
            self.all()
        );
        self
    }
}

pub fn run_with_stdin(mut c: Command, stdin: &str) -> Run {
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn agtool");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out: Output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every file under `dir` (relative path → bytes), `.agent-state` excluded: a snapshot to
/// compare before and after a refusal.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if e.file_name() == ".agent-state" {
            continue;
        }
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        let meta = std::fs::symlink_metadata(&p).unwrap();
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&p).unwrap();
            out.push((rel, format!("-> {}", target.display()).into_bytes()));
        } else if meta.is_dir() {
            out.push((rel.clone(), b"<dir>".to_vec()));
            walk(root, &p, out);
        } else {
            out.push((rel, std::fs::read(&p).unwrap()));
        }
    }
}
