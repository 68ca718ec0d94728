//! The agtool binary run in a temporary workspace with a clean environment (no proxy, no user
//! configuration), and its true peak memory.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// One agtool run.
pub struct Run {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// stdout, lossy.
    pub stdout: String,
    /// stdout bytes.
    pub raw_stdout: Vec<u8>,
    /// stderr, lossy.
    pub stderr: String,
    /// Peak resident memory of the agtool process, in bytes, from [`Ws::agtool_measured`]
    /// (0 otherwise).
    pub max_rss: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("code", &self.code)
            .field("stdout", &self.stdout)
            .field("stderr", &self.stderr)
            .field("max_rss", &self.max_rss)
            .field("elapsed", &self.elapsed)
            .finish()
    }
}

impl Run {
    /// Asserts the exit status, showing the whole run when it differs.
    #[track_caller]
    pub fn code(&self, want: i32) -> &Run {
        assert_eq!(self.code, want, "exit status; run: {self:#?}");
        self
    }

    /// Asserts stdout holds `s`.
    #[track_caller]
    pub fn has(&self, s: &str) -> &Run {
        assert!(
            self.stdout.contains(s),
            "stdout lacks {s:?}:\n{}",
            self.stdout
        );
        self
    }

    /// Asserts stdout does not hold `s`.
    #[track_caller]
    pub fn lacks(&self, s: &str) -> &Run {
        assert!(
            !self.stdout.contains(s),
            "stdout holds {s:?}:\n{}",
            self.stdout
        );
        self
    }

    /// The content after the header's blank line.
    pub fn content(&self) -> &str {
        self.stdout
            .split_once("\n\n")
            .map(|(_, c)| c)
            .unwrap_or_default()
    }
}

/// A workspace (a temp folder with `.git`) to run agtool web-fetch in.
pub struct Ws {
    dir: tempfile::TempDir,
    config: Option<PathBuf>,
}

impl Ws {
    /// An empty workspace with no configuration: the default policy.
    pub fn new() -> Ws {
        let dir = tempfile::Builder::new()
            .prefix("agtool-web-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        Ws { dir, config: None }
    }

    /// A workspace whose `--config` file holds `toml`.
    pub fn with_config(toml: &str) -> Ws {
        let mut ws = Ws::new();
        let path = ws.dir.path().join("web-test-config.toml");
        std::fs::write(&path, toml).unwrap();
        ws.config = Some(path);
        ws
    }

    /// A workspace that allows loopback and private addresses.
    pub fn private() -> Ws {
        Ws::with_config("[web]\nallow_private = true\n")
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Every file under the folder (relative paths), except `.git` and the config file.
    pub fn files(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.path().to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let rel = p.strip_prefix(self.path()).unwrap().display().to_string();
                if rel == ".git" || rel == "web-test-config.toml" {
                    continue;
                }
                if e.file_type().unwrap().is_dir() {
                    stack.push(p);
                } else {
                    out.push(rel);
                }
            }
        }
        out.sort();
        out
    }

    /// `agtool web-fetch <args...>`.
    pub fn fetch(&self, args: &[&str]) -> Run {
        let mut all = vec!["web-fetch"];
        all.extend_from_slice(args);
        self.agtool(&all)
    }

    /// agtool with `args` (and `--config` when the workspace has one). Its `max_rss` is not
    /// meaningful (see [`Ws::agtool_measured`]).
    pub fn agtool(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agtool"));
        cmd.current_dir(self.path());
        cmd.args(self.full_args(args));
        clean_env(&mut cmd, self.path());
        run_measured(cmd)
    }

    fn full_args(&self, args: &[&str]) -> Vec<String> {
        let mut all = Vec::new();
        if let Some(c) = &self.config {
            all.push("--config".to_owned());
            all.push(c.display().to_string());
        }
        all.extend(args.iter().map(|a| a.to_string()));
        all
    }

    /// Like [`Ws::agtool`], with a true peak RSS of agtool. A child's peak RSS (wait4) counts
    /// the memory it shared with its parent before exec, so a child of this busy test process
    /// would report the test's own size. This test binary is started again (small and fresh)
    /// as the `measure_helper` test, which runs agtool and reports its rusage.
    pub fn agtool_measured(&self, args: &[&str]) -> Run {
        let out = tempfile::tempdir().unwrap();
        let request = serde_json::json!({
            "program": env!("CARGO_BIN_EXE_agtool"),
            "args": self.full_args(args),
            "out": out.path(),
        });
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.current_dir(self.path())
            .args([
                "--exact",
                "measure_helper",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(MEASURE_ENV, request.to_string());
        clean_env(&mut cmd, self.path());
        let helper = cmd.output().unwrap();
        assert!(
            helper.status.success(),
            "measure_helper failed: {}{}",
            String::from_utf8_lossy(&helper.stdout),
            String::from_utf8_lossy(&helper.stderr)
        );
        let read = |name: &str| std::fs::read(out.path().join(name)).unwrap();
        let usage = String::from_utf8(read("usage")).unwrap();
        let mut fields = usage.split_whitespace().map(|f| f.parse::<u64>().unwrap());
        let (code, max_rss, elapsed_ms) = (
            fields.next().unwrap() as i32,
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let stdout = read("stdout");
        let stderr = read("stderr");
        Run {
            code,
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            raw_stdout: stdout,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            max_rss,
            elapsed: Duration::from_millis(elapsed_ms),
        }
    }
}

/// The variable carrying [`Ws::agtool_measured`]'s request to the helper.
const MEASURE_ENV: &str = "AGTOOL_TEST_MEASURE";

/// The body of the `measure_helper` test (ignored; run only by [`Ws::agtool_measured`]):
/// runs the requested agtool with stdout and stderr to files and writes `<exit status>
/// <peak RSS bytes> <elapsed ms>` to `usage`.
pub fn measure_helper_main() {
    let request: serde_json::Value =
        serde_json::from_str(&std::env::var(MEASURE_ENV).expect("run by agtool_measured")).unwrap();
    let out = PathBuf::from(request["out"].as_str().unwrap());
    let mut cmd = Command::new(request["program"].as_str().unwrap());
    for a in request["args"].as_array().unwrap() {
        cmd.arg(a.as_str().unwrap());
    }
    cmd.env_remove(MEASURE_ENV)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out.join("stdout")).unwrap())
        .stderr(std::fs::File::create(out.join("stderr")).unwrap());
    let start = std::time::Instant::now();
    let (code, max_rss) = spawn_and_reap(cmd);
    std::fs::write(
        out.join("usage"),
        format!("{code} {max_rss} {}", start.elapsed().as_millis()),
    )
    .unwrap();
}

/// Spawns `cmd` and reaps it with wait4: (exit status or -1, peak RSS in bytes).
fn spawn_and_reap(mut cmd: Command) -> (i32, u64) {
    let child = cmd.spawn().expect("the program starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter; pid is our own child, reaped here
    // once (std's Child is never waited on after this).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    std::mem::forget(child);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss as u64 * 1024)
}

/// Removes what would change agtool's behaviour from outside the test.
pub fn clean_env(cmd: &mut Command, dir: &Path) {
    for k in [
        "AGTOOL_ROOT",
        "AGTOOL_AGENT",
        "AGTOOL_CONFIG",
        "AGTOOL_GROUPS",
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
    ] {
        cmd.env_remove(k);
    }
    cmd.env("XDG_CONFIG_HOME", dir.join(".no-user-config"))
        .env("HOME", dir.join(".no-home"));
}

/// Runs `cmd` to its end with stdin closed, collecting stdout and stderr on threads.
pub fn run_measured(mut cmd: Command) -> Run {
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agtool starts");
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let status = child.wait().unwrap();
    let stdout = out_t.join().unwrap();
    let stderr = err_t.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        raw_stdout: stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        max_rss: 0,
        elapsed: start.elapsed(),
    }
}
