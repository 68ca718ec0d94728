//! The exec sandbox (spec 08, issue 16), from outside: the real binary runs commands in a
//! workspace under target/tmp (not under /tmp, which the sandbox leaves writable), next to an
//! "outside" folder and a fake home folder holding secrets, and the tests look at what the
//! commands could change or print.

mod common;
#[allow(dead_code)]
#[path = "web_common/netns.rs"]
mod netns;

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::Duration;

use assert_cmd::Command;

/// A workspace with `.git/config`, `.agent-state/`, secrets in `.ssh` and `.env`, beside an
/// outside folder and a home folder with `.ssh` and a journal key.
struct Sandboxed {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    home: PathBuf,
}

const SECRETS: [&str; 4] = [
    "WS-SSH-SECRET",
    "WS-ENV-SECRET",
    "HOME-SSH-SECRET",
    "KEY-SECRET",
];

impl Sandboxed {
    fn new() -> Sandboxed {
        let tmp = tempfile::Builder::new()
            .prefix("agtool-sandbox-test-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        // Commands may write anywhere under /tmp by design (spec 08), so an "outside" folder
        // there proves nothing: say so rather than fail as if the sandbox leaked.
        assert!(
            !base.starts_with("/tmp"),
            "these tests need the target folder outside /tmp (it is {}): commands may write \
             under /tmp by design, so the outside folder would be writable; run them from a \
             checkout elsewhere or set CARGO_TARGET_DIR",
            base.display()
        );
        let root = base.join("ws");
        let outside = base.join("outside");
        let home = base.join("home");
        for d in [
            root.join(".git"),
            root.join(".agent-state"),
            root.join(".ssh"),
            root.join("src"),
            outside.clone(),
            home.join(".ssh"),
            home.join(".local/state/agtool"),
            home.join(".config/agtool"),
        ] {
            std::fs::create_dir_all(&d).unwrap();
        }
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        std::fs::write(root.join(".agent-state/keep"), "state\n").unwrap();
        std::fs::write(root.join(".ssh/id_rsa"), "WS-SSH-SECRET\n").unwrap();
        std::fs::write(root.join("src/.env"), "WS-ENV-SECRET\n").unwrap();
        std::fs::write(root.join("README"), "hello\n").unwrap();
        std::fs::write(outside.join("keep"), "outside\n").unwrap();
        std::fs::write(home.join(".ssh/id_rsa"), "HOME-SSH-SECRET\n").unwrap();
        let key = home.join(".local/state/agtool/journal.key");
        std::fs::write(&key, "KEY-SECRET").unwrap();
        // deny_read from the user's config: `.env` is hidden too.
        std::fs::write(
            home.join(".config/agtool/config.toml"),
            "deny_read = [\".aws\", \".ssh\", \".gnupg\", \".env\"]\n",
        )
        .unwrap();
        Sandboxed {
            _tmp: tmp,
            root,
            outside,
            home,
        }
    }

    fn cmd(&self) -> Command {
        let mut c = common::agtool(&self.root);
        c.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env_remove("XDG_STATE_HOME")
            .timeout(Duration::from_secs(120));
        c
    }

    /// `agtool [pre...] exec -- argv...`: (status, stdout).
    fn exec_with(&self, pre: &[&str], argv: &[&str]) -> (i32, String) {
        let out = self
            .cmd()
            .args(pre)
            .arg("exec")
            .arg("--")
            .args(argv)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    fn exec(&self, argv: &[&str]) -> (i32, String) {
        self.exec_with(&[], argv)
    }

    fn sh(&self, line: &str) -> (i32, String) {
        self.exec(&["sh", "-c", line])
    }

    /// A `--config` file with `text`, returned as its path.
    fn host_config(&self, text: &str) -> PathBuf {
        let p = self.outside.join(format!("host-{}.toml", text.len()));
        std::fs::write(&p, text).unwrap();
        p
    }

    fn outside_untouched(&self) {
        let names: Vec<String> = std::fs::read_dir(&self.outside)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with("host-"))
            .collect();
        assert_eq!(names, ["keep"], "the outside folder changed");
        assert_eq!(
            std::fs::read_to_string(self.outside.join("keep")).unwrap(),
            "outside\n"
        );
    }

    fn protected_untouched(&self) {
        assert_eq!(
            std::fs::read_to_string(self.root.join(".git/config")).unwrap(),
            "[core]\n"
        );
        assert_eq!(
            std::fs::read_to_string(self.root.join(".agent-state/keep")).unwrap(),
            "state\n"
        );
    }
}

fn no_secret(out: &str) {
    for s in SECRETS {
        assert!(!out.contains(s), "{s} was read:\n{out}");
    }
}

fn has(path: &str) -> bool {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|d| d.join(path).is_file())
}

#[test]
fn writes_outside_the_workspace_are_refused_however_they_are_made() {
    let s = Sandboxed::new();
    let out = s.outside.display().to_string();
    // Direct writes, a removal, a new file, a rename out.
    let (code, text) = s.sh(&format!(
        "echo x > {out}/keep; echo y >> {out}/keep; rm -f {out}/keep; touch {out}/new; \
         mkdir {out}/dir; mv README {out}/moved; truncate -s 0 {out}/keep; exit 3"
    ));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Exit code: 3"), "{text}");
    assert!(
        text.contains("Permission denied") || text.contains("Operation not permitted"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("Note: ran in the workspace-write sandbox"),
        "{text}"
    );
    // A symlink in the workspace pointing outside, written through.
    std::os::unix::fs::symlink(&s.outside, s.root.join("link")).unwrap();
    s.sh("echo x > link/keep; echo x > link/through; cp README link/");
    // A copied shell is no way around it either.
    s.sh(&format!(
        "cp /bin/sh ./mysh && ./mysh -c 'echo x > {out}/keep; touch {out}/copied'"
    ));
    // Nor a user namespace made inside.
    let (_, text) = s.sh(&format!(
        "unshare -r sh -c 'echo x > {out}/keep' 2>&1; echo unshare=$?"
    ));
    assert!(!text.contains("unshare=0"), "{text}");
    // A background child writing after the command returned.
    s.sh(&format!(
        "(sleep 0.5; echo late > {out}/late) > /dev/null 2>&1 & exit 0"
    ));
    std::thread::sleep(Duration::from_millis(1200));
    s.outside_untouched();
    // The workspace itself stays writable, and so is /tmp and the private TMPDIR.
    let (_, text) =
        s.sh("echo made > made.txt && echo tmp > \"$TMPDIR/t\" && cat \"$TMPDIR/t\" && echo ok");
    assert!(text.contains("tmp\nok"), "{text}");
    assert_eq!(
        std::fs::read_to_string(s.root.join("made.txt")).unwrap(),
        "made\n"
    );
}

#[test]
fn protected_names_stay_read_only() {
    let s = Sandboxed::new();
    let (_, text) = s.sh(
        "echo '[alias] x = !touch /tmp/pwn' >> .git/config; rm -rf .agent-state; \
         mv .git gone; rm -rf .git; echo x > .agent-state/new; exit 1",
    );
    assert!(text.contains("Read-only file system"), "{text}");
    // The Note says why a write inside the root failed, and how git commits get through.
    let note = text
        .lines()
        .find(|l| l.starts_with("Note: ran in the workspace-write sandbox"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        note.contains("protected names (.git, .agents, .codex, ...) are read-only even there")
            && note.contains("deny_read paths look empty or missing")
            && note.contains("exec.writable = [\".git\"]"),
        "{note}"
    );
    s.protected_untouched();
    assert!(!s.root.join(".agent-state/new").exists());
    assert!(!s.root.join("gone").exists());
}

#[test]
fn secrets_are_not_readable_by_commands() {
    let s = Sandboxed::new();
    let home = s.home.display().to_string();
    for argv in [
        vec!["cat", ".ssh/id_rsa", "src/.env"],
        vec![
            "sh",
            "-c",
            &format!("cat {home}/.ssh/id_rsa {home}/.local/state/agtool/journal.key"),
        ],
        vec!["grep", "-r", "SECRET", ".", &home],
        vec![
            "python3",
            "-c",
            &format!(
                "import os\nfor p in ['.ssh/id_rsa','src/.env','{home}/.ssh/id_rsa','{home}/.local/state/agtool/journal.key']:\n  try: print(open(p).read())\n  except Exception as e: print(p, e)"
            ),
        ],
    ] {
        if argv[0] == "python3" && !has("python3") {
            continue;
        }
        let (code, text) = s.exec(&argv);
        assert_eq!(code, 0, "{text}");
        no_secret(&text);
    }
    // Unsandboxed, the same command prints them: the test would see a leak.
    let off = s.host_config("[exec]\nsandbox = \"off\"\n");
    let (_, text) = s.exec_with(
        &["--config", off.to_str().unwrap()],
        &["cat", ".ssh/id_rsa", "src/.env"],
    );
    assert!(
        text.contains("WS-SSH-SECRET") && text.contains("WS-ENV-SECRET"),
        "{text}"
    );
}

#[test]
fn sessions_are_sandboxed_too() {
    let s = Sandboxed::new();
    let home = s.home.display().to_string();
    let out = s.outside.display().to_string();
    let line = format!(
        "cat .ssh/id_rsa src/.env {home}/.ssh/id_rsa {home}/.local/state/agtool/journal.key; \
         grep -r SECRET . {home}; echo x > {out}/keep; echo x >> .git/config; exit 2"
    );
    let o = s
        .cmd()
        .args(["exec-command", &line, "--yield-time-ms", "5000"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("exited with code 2") || text.contains("Exit code: 2"),
        "{text}"
    );
    no_secret(&text);
    assert!(
        text.contains("Note: ran in the workspace-write sandbox"),
        "{text}"
    );
    s.outside_untouched();
    s.protected_untouched();
    let _ = s.cmd().args(["sessions", "stop-server"]).output();
}

#[test]
fn calls_that_would_lift_the_sandbox_are_refused() {
    let s = Sandboxed::new();
    let (_, text) = s.sh("unshare -r true; echo unshare=$?; unshare -m true; echo unshare_m=$?; chroot / true; echo chroot=$?");
    assert!(text.contains("unshare=1"), "{text}");
    assert!(text.contains("unshare_m=1"), "{text}");
    assert!(!text.contains("chroot=0"), "{text}");
    if has("python3") {
        let script = [
            "import ctypes, os",
            "libc = ctypes.CDLL(None, use_errno=True)",
            "calls = [('mount', lambda: libc.mount(b'none', b'/mnt', b'tmpfs', 0, None)),",
            "  ('umount', lambda: libc.umount2(b'/proc', 2)),",
            "  ('ptrace', lambda: libc.ptrace(16, os.getppid(), 0, 0)),",
            "  ('chroot', lambda: libc.chroot(b'/')),",
            "  ('unshare', lambda: libc.unshare(0x10000000)),",
            "  ('setns', lambda: libc.setns(0, 0))]",
            "for name, call in calls: rc = call(); print(name, rc, ctypes.get_errno())",
        ]
        .join("\n");
        let (_, text) = s.exec(&["python3", "-c", &script]);
        for name in ["mount", "umount", "ptrace", "chroot", "unshare", "setns"] {
            assert!(text.contains(&format!("{name} -1 1\n")), "{name}: {text}");
        }
    }
    if has("strace") {
        let (_, text) = s.exec(&["strace", "-f", "true"]);
        assert!(!text.contains("Exit code: 0"), "{text}");
    }
}

#[test]
fn read_only_refuses_writes_inside() {
    let s = Sandboxed::new();
    let ro = s.host_config("[exec]\nsandbox = \"read-only\"\n");
    let (_, text) = s.exec_with(
        &["--config", ro.to_str().unwrap()],
        &[
            "sh",
            "-c",
            "echo x > inside.txt; echo x >> README; echo t > \"$TMPDIR/t\" && echo tmp-ok; exit 1",
        ],
    );
    assert!(text.contains("tmp-ok"), "{text}");
    assert!(
        text.contains("Note: ran in the read-only sandbox"),
        "{text}"
    );
    assert!(!s.root.join("inside.txt").exists());
    assert_eq!(
        std::fs::read_to_string(s.root.join("README")).unwrap(),
        "hello\n"
    );
}

#[test]
fn off_restores_the_unsandboxed_behaviour() {
    let s = Sandboxed::new();
    let off = s.host_config("[exec]\nsandbox = \"off\"\n");
    let out = s.outside.display().to_string();
    let (_, text) = s.exec_with(
        &["--config", off.to_str().unwrap()],
        &["sh", "-c", &format!("echo new > {out}/made; exit 1")],
    );
    assert!(!text.contains("Note:"), "{text}");
    assert_eq!(
        std::fs::read_to_string(s.outside.join("made")).unwrap(),
        "new\n"
    );
}

#[test]
fn an_untrusted_workspace_cannot_turn_it_off_but_a_trusted_one_can() {
    let s = Sandboxed::new();
    std::fs::write(
        s.root.join(".agent-state/config.toml"),
        format!(
            "[exec]\nsandbox = \"off\"\nnetwork = true\nwritable = [\"{}\"]\n",
            s.outside.display()
        ),
    )
    .unwrap();
    let out = s.outside.display().to_string();
    let o = s
        .cmd()
        .args(["exec", "--", "sh", "-c", &format!("echo x > {out}/keep")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("exec.sandbox")
            && err.contains("exec.network")
            && err.contains("exec.writable"),
        "{err}"
    );
    s.outside_untouched();
    // Trusted by the user: obeyed.
    std::fs::write(
        s.home.join(".config/agtool/config.toml"),
        format!("trusted_workspaces = [\"{}\"]\n", s.root.display()),
    )
    .unwrap();
    let (_, text) = s.sh(&format!("echo trusted > {out}/keep; cat .ssh/id_rsa"));
    assert!(text.contains("WS-SSH-SECRET"), "{text}");
    assert_eq!(
        std::fs::read_to_string(s.outside.join("keep")).unwrap(),
        "trusted\n"
    );
}

#[test]
fn writable_folders_are_writable() {
    let s = Sandboxed::new();
    let cfg = s.host_config(&format!(
        "[exec]\nwritable = [\"{}\", \".git\"]\n",
        s.outside.display()
    ));
    let out = s.outside.display().to_string();
    let (_, text) = s.exec_with(
        &["--config", cfg.to_str().unwrap()],
        &[
            "sh",
            "-c",
            &format!("echo w > {out}/w && echo '# c' >> .git/config && echo done"),
        ],
    );
    assert!(text.contains("done"), "{text}");
    assert_eq!(std::fs::read_to_string(s.outside.join("w")).unwrap(), "w\n");
    assert!(
        std::fs::read_to_string(s.root.join(".git/config"))
            .unwrap()
            .contains("# c")
    );
}

#[test]
fn bad_sandbox_settings_are_refused_with_a_message() {
    let s = Sandboxed::new();
    for (cfg, want) in [
        ("[exec]\nsandbox = \"bogus\"\n", "is not a sandbox mode"),
        ("[exec]\nwritable = [\"/\"]\n", "off\" by another name"),
        ("[exec]\nwritable = [\"no/such/dir\"]\n", "does not exist"),
        ("[exec]\nnetwork = \"yes\"\n", "expected a boolean"),
    ] {
        let p = s.host_config(cfg);
        let (code, text) = s.exec_with(
            &["--config", p.to_str().unwrap()],
            &[
                "sh",
                "-c",
                &format!("echo x > {}/keep", s.outside.display()),
            ],
        );
        let o = s
            .cmd()
            .args(["--config", p.to_str().unwrap(), "exec", "--", "true"])
            .output()
            .unwrap();
        let all = format!("{text}{}", String::from_utf8_lossy(&o.stderr));
        assert_ne!(code, 0, "{cfg}: {all}");
        assert!(all.contains(want), "{cfg}: {all}");
        std::fs::remove_file(p).unwrap();
        s.outside_untouched();
    }
}

#[test]
fn the_description_states_the_mode() {
    let s = Sandboxed::new();
    let o = s
        .cmd()
        .args(["schema", "--format", "anthropic"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Commands run in the workspace-write sandbox"),
        "{text}"
    );
}

#[test]
fn cargo_and_git_work_under_the_default_mode() {
    let s = Sandboxed::new();
    if has("git") {
        std::fs::remove_dir_all(s.root.join(".git")).unwrap();
        let ok = StdCommand::new("git")
            .args(["init", "-q"])
            .current_dir(&s.root)
            .status()
            .unwrap();
        assert!(ok.success());
        let (_, text) = s.exec(&["git", "status", "--short"]);
        assert!(text.contains("Exit code: 0"), "{text}");
        assert!(text.contains("README"), "{text}");
    }
    if has("cargo") {
        let krate = s.root.join("tiny");
        std::fs::create_dir_all(krate.join("src")).unwrap();
        std::fs::write(
            krate.join("Cargo.toml"),
            "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .unwrap();
        std::fs::write(
            krate.join("src/main.rs"),
            "fn main() { println!(\"tiny ran\"); }\n",
        )
        .unwrap();
        let (_, text) = s.exec_with(
            &["--timeout-ms", "300000"],
            &["sh", "-c", "cd tiny && cargo run --offline -q"],
        );
        assert!(text.contains("tiny ran"), "{text}");
    }
}

/// A loopback TCP listener and UDP socket, and a python client trying both.
fn network_probe(s: &Sandboxed, pre: &[&str]) -> String {
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
    let script = format!(
        "import socket\n\
         try:\n  c = socket.create_connection(('127.0.0.1', {}), timeout=3); print('TCP-OK')\n\
         except Exception as e: print('TCP-NO', e)\n\
         try:\n  u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.sendto(b'ping', ('127.0.0.1', {})); print('UDP-SENT')\n\
         except Exception as e: print('UDP-NO', e)\n\
         try:\n  x = socket.socket(socket.AF_UNIX); print('UNIX-OK')\n\
         except Exception as e: print('UNIX-NO', e)\n",
        tcp.local_addr().unwrap().port(),
        udp.local_addr().unwrap().port()
    );
    let (_, text) = s.exec_with(pre, &["python3", "-c", &script]);
    let mut buf = [0u8; 8];
    let got = udp
        .recv(&mut buf)
        .map(|n| buf[..n].to_vec())
        .unwrap_or_default();
    format!("{text}\nUDP-RECEIVED={}", got == b"ping")
}

#[test]
fn network_is_off_by_default_and_on_when_asked() {
    if !netns::run_in_netns("network_is_off_by_default_and_on_when_asked") {
        return;
    }
    if !has("python3") {
        netns::skip("network test: no python3");
        return;
    }
    let s = Sandboxed::new();
    let text = network_probe(&s, &[]);
    assert!(text.contains("TCP-NO"), "{text}");
    assert!(text.contains("UDP-NO"), "{text}");
    assert!(text.contains("UNIX-OK"), "{text}");
    assert!(text.contains("UDP-RECEIVED=false"), "{text}");
    let on = s.host_config("[exec]\nnetwork = true\n");
    let text = network_probe(&s, &["--config", on.to_str().unwrap()]);
    assert!(text.contains("TCP-OK"), "{text}");
    assert!(text.contains("UDP-SENT"), "{text}");
    assert!(text.contains("UDP-RECEIVED=true"), "{text}");
}

#[test]
fn sandbox_check_reports_this_machine() {
    let o = common::agtool(Path::new("/"))
        .args(["sandbox", "check"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Landlock: "), "{text}");
    assert!(text.contains("seccomp: "), "{text}");
    // CI machines are expected to enforce it (issue 16).
    assert_eq!(o.status.code(), Some(0), "{text}");
}

#[test]
fn the_sandbox_holds_for_a_user_other_than_root() {
    // Not root, the helper makes a user namespace for its mounts: run agtool as `nobody`.
    if !rustix_is_root() || !has("setpriv") {
        netns::skip("non-root sandbox test: needs root and setpriv to become nobody");
        return;
    }
    let s = Sandboxed::new();
    let chown = StdCommand::new("chown")
        .args(["-R", "65534:65534"])
        .arg(s.root.parent().unwrap())
        .status()
        .unwrap();
    assert!(chown.success());
    let out = s.outside.display().to_string();
    let home = s.home.display().to_string();
    let o = StdCommand::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_agtool"))
        .args(["exec", "--", "sh", "-c"])
        .arg(format!(
            "id -u; cat .ssh/id_rsa {home}/.ssh/id_rsa; echo x > {out}/keep; echo x >> .git/config; \
             unshare -r true; echo unshare=$?; echo fine > mine.txt; exit 1"
        ))
        .current_dir(&s.root)
        .env("HOME", &s.home)
        .env("XDG_CONFIG_HOME", s.home.join(".config"))
        .env("AGTOOL_GROUPS", "files,exec")
        .env_remove("AGTOOL_CONFIG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Output:\n65534\n"),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    no_secret(&text);
    assert!(text.contains("unshare=1"), "{text}");
    assert!(
        text.contains("Note: ran in the workspace-write sandbox"),
        "{text}"
    );
    s.outside_untouched();
    s.protected_untouched();
    assert_eq!(
        std::fs::read_to_string(s.root.join("mine.txt")).unwrap(),
        "fine\n"
    );
}

fn rustix_is_root() -> bool {
    StdCommand::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n")
}
