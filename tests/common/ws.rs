//! Helpers for the file-tool tests: a temporary workspace, and the real `agtool` binary run
//! inside it with a clean environment.

use std::path::{Path, PathBuf};
use std::process::Output;

pub use assert_cmd::Command;
#[allow(unused_imports)]
pub use predicates::prelude::*;

/// The built binary.
pub fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_agtool"))
}

/// A temporary workspace: `root` is the workspace root (canonical), beside a private `home`
/// used as `$HOME` so no user configuration or global gitignore leaks into a test.
pub struct Ws {
    _dir: tempfile::TempDir,
    /// The parent of `root` (siblings of the root live here).
    pub base: PathBuf,
    /// The workspace root.
    pub root: PathBuf,
    /// `$HOME` and `$XDG_CONFIG_HOME/..` for the child.
    pub home: PathBuf,
}

impl Ws {
    /// An empty workspace whose root folder is named `ws`.
    pub fn new() -> Ws {
        Ws::named("ws")
    }

    /// An empty workspace whose root folder is named `name`.
    pub fn named(name: &str) -> Ws {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical temp dir");
        let root = base.join(name);
        let home = base.join("home");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(home.join(".config")).unwrap();
        Ws {
            _dir: dir,
            base,
            root,
            home,
        }
    }

    /// The absolute path of `rel` under the root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Writes a file (parents created).
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
        self
    }

    /// Creates a folder (and its parents).
    pub fn mkdir(&self, rel: &str) -> &Self {
        std::fs::create_dir_all(self.path(rel)).unwrap();
        self
    }

    /// Creates a symlink `rel` → `target` (target taken as is).
    pub fn symlink(&self, target: impl AsRef<Path>, rel: &str) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, p).unwrap();
        self
    }

    /// Reads a file under the root.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.path(rel)).unwrap()
    }

    /// Sets a file's modification time to `secs` after the epoch.
    pub fn set_mtime(&self, rel: &str, secs: u64) -> &Self {
        set_mtime(&self.path(rel), secs);
        self
    }

    /// `agtool` with the root as current folder and a clean environment.
    pub fn cmd(&self) -> Command {
        self.cmd_in(&self.root)
    }

    /// `agtool` run from `cwd`, with a clean environment whose root is this workspace.
    pub fn cmd_in(&self, cwd: &Path) -> Command {
        Command::from_std(self.std_cmd_in(cwd))
    }

    /// [`Ws::cmd_in`] as a plain `std::process::Command`.
    pub fn std_cmd_in(&self, cwd: &Path) -> std::process::Command {
        let mut c = std::process::Command::new(bin());
        clean_env(&mut c, &self.home);
        c.current_dir(cwd).env("AGTOOL_ROOT", &self.root);
        c
    }

    /// Runs `agtool ARGS` from the root so that a folder made unreadable with
    /// [`Ws::lock_dir`] really cannot be read: as the unprivileged user `nobody` when the
    /// tests run as root (root reads through `chmod 000`). The workspace is opened up for that
    /// user first. `Err` gives the reason when that is impossible here.
    pub fn run_unprivileged(&self, args: &[&str]) -> Result<Run, String> {
        use std::os::unix::process::CommandExt;
        let mut c = self.std_cmd_in(&self.root);
        c.args(args);
        if is_root() {
            open_up(&self.base);
            c.uid(NOBODY).gid(NOBODY);
        }
        c.output()
            .map(Run::from)
            .map_err(|e| format!("cannot run agtool as uid {NOBODY}: {e}"))
    }

    /// Makes a folder unreadable (`chmod 000`); see [`Ws::run_unprivileged`].
    pub fn lock_dir(&self, rel: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(self.path(rel), std::fs::Permissions::from_mode(0o000)).unwrap();
    }

    /// Runs `agtool ARGS` from the root.
    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.cmd().args(args).output().unwrap())
    }

    /// Runs `agtool --groups all call TOOL` with `json` on stdin, from the root.
    pub fn call(&self, tool: &str, json: &serde_json::Value) -> Run {
        let out = self
            .cmd()
            .args(["--groups", "all", "call", tool])
            .write_stdin(json.to_string())
            .output()
            .unwrap();
        Run::from(out)
    }
}

/// The uid and gid of `nobody`, used to drop root's power to read anything.
pub const NOBODY: u32 = 65534;

/// Gives every folder under `dir` mode 0755 and every file 0644, so another user can read them;
/// entries locked on purpose (mode 000) stay locked.
fn open_up(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir).unwrap();
    if meta.file_type().is_symlink() || meta.permissions().mode() & 0o777 == 0 {
        return;
    }
    let mode = if meta.is_dir() { 0o755 } else { 0o644 };
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).unwrap();
    if meta.is_dir() {
        for e in std::fs::read_dir(dir).unwrap() {
            open_up(&e.unwrap().path());
        }
    }
}

/// Removes every `AGTOOL_*` variable and points `$HOME` / `$XDG_CONFIG_HOME` at `home`.
pub fn clean_env(c: &mut std::process::Command, home: &Path) {
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("AGTOOL_") {
            c.env_remove(k);
        }
    }
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
}

/// Sets a file's modification time (through a symlink: its target's).
pub fn set_mtime(path: &Path, secs: u64) {
    let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(t).unwrap();
}

/// One finished run: exit status and both streams as text.
#[derive(Debug, Clone)]
pub struct Run {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// stdout.
    pub out: String,
    /// stderr.
    pub err: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            out: String::from_utf8_lossy(&o.stdout).into_owned(),
            err: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Asserts exit status `code`; returns self for chaining.
    #[track_caller]
    pub fn code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit status\n--- stdout:\n{}\n--- stderr:\n{}",
            self.out, self.err
        );
        self
    }

    /// Asserts success and returns stdout.
    #[track_caller]
    pub fn ok(&self) -> &str {
        self.code(0);
        &self.out
    }

    /// The stdout lines.
    pub fn lines(&self) -> Vec<&str> {
        self.out.lines().collect()
    }
}

/// Whether this process runs with root's power to read any file, so `chmod 000` does not make
/// a folder unreadable to it or to its children.
pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// FNV-1a 32 of `bytes`, written out here so the tests do not trust the code under test.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The content tag of `bytes` (spec 01): the top 32 bits of XXH3-64 as 8 upper-case hex
/// digits, from `xxhash-rust`, a second XXH3 implementation, so the tests do not trust the one
/// under test.
pub fn tag(bytes: &[u8]) -> String {
    format!("{:08X}", xxhash_rust::xxh3::xxh3_64(bytes) >> 32)
}
