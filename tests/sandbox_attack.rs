//! Attacks on the exec sandbox (spec 08, issue 16) found after it was built, each run from
//! outside against the real binary: a sandboxed command asking the session server for an
//! unsandboxed one, root's capabilities, a scan cut short by padding, and the rest.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

const AGTOOL: &str = env!("CARGO_BIN_EXE_agtool");

/// A workspace (with `.git`, `.agent-state`) under target/tmp, beside an outside folder and a
/// home folder; `off.toml` (outside) turns the sandbox off for whoever passes it.
struct Ws {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    home: PathBuf,
    off: PathBuf,
}

impl Ws {
    fn new() -> Ws {
        let tmp = tempfile::Builder::new()
            .prefix("agtool-sandbox-attack-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let root = base.join("ws");
        let outside = base.join("outside");
        let home = base.join("home");
        for d in [
            root.join(".git"),
            root.join(".agent-state"),
            outside.clone(),
            home.join(".config/agtool"),
        ] {
            std::fs::create_dir_all(&d).unwrap();
        }
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        let off = base.join("off.toml");
        std::fs::write(&off, "[exec]\nsandbox = \"off\"\n").unwrap();
        Ws {
            _tmp: tmp,
            root,
            outside,
            home,
            off,
        }
    }

    fn cmd_in(&self, dir: &Path) -> Command {
        let mut c = common::agtool(dir);
        c.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env_remove("XDG_STATE_HOME")
            .timeout(Duration::from_secs(120));
        c
    }

    fn cmd(&self) -> Command {
        self.cmd_in(&self.root)
    }

    /// `agtool exec -- sh -c line` in the workspace: (status, stdout).
    fn sh(&self, line: &str) -> (i32, String) {
        let out = self
            .cmd()
            .args(["exec", "--", "sh", "-c", line])
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    fn stop_server(&self) {
        let _ = self.cmd().args(["sessions", "stop-server"]).output();
    }
}

#[allow(dead_code)]
fn has(program: &str) -> bool {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|d| d.join(program).is_file())
}

/// The finding: a sandboxed command ran `agtool --config off.toml exec-command ...`, whose
/// client asked the workspace's session server for a session without the sandbox, and the
/// server started it. The socket is hidden from sandboxed commands now, and the server
/// refuses clients that are themselves sandboxed (tried here from another workspace's
/// sandbox, where this workspace's socket folder is not hidden).
#[test]
fn a_sandboxed_command_cannot_get_an_unsandboxed_session() {
    let w = Ws::new();
    let o = w
        .cmd()
        .args(["exec-command", "sleep 300", "--yield-time-ms", "250"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let pwned = w.outside.join("pwned");
    let attack = format!(
        "{AGTOOL} --config {} exec-command 'echo PWNED > {}' --yield-time-ms 1000; \
         ls .agent-state/sessions; echo listed=$?",
        w.off.display(),
        pwned.display()
    );
    let (_, text) = w.sh(&attack);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!pwned.exists(), "an unsandboxed session ran:\n{text}");
    assert!(!text.contains("server.sock"), "{text}");
    // The same from another workspace's sandbox: there this one's socket is not covered.
    let other = w.root.parent().unwrap().join("other");
    std::fs::create_dir_all(other.join(".git")).unwrap();
    let attack = format!(
        "cd {} && {AGTOOL} --config {} exec-command 'echo PWNED > {}' --yield-time-ms 1000",
        w.root.display(),
        w.off.display(),
        pwned.display()
    );
    let o = w
        .cmd_in(&other)
        .args(["exec", "--", "sh", "-c", &attack])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!pwned.exists(), "an unsandboxed session ran:\n{text}");
    assert!(
        text.contains("runs inside an agtool exec sandbox"),
        "{text}"
    );
    // The host itself still reaches its server.
    let o = w.cmd().args(["sessions", "list"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    w.stop_server();
    let _ = std::fs::remove_dir_all(&other);
}
