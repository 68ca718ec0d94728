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
        Ws::new_in(Path::new(env!("CARGO_TARGET_TMPDIR")))
    }

    /// [`Ws::new`] in a fresh folder inside `parent`.
    fn new_in(parent: &Path) -> Ws {
        let tmp = tempfile::Builder::new()
            .prefix("agtool-sandbox-attack-")
            .tempdir_in(parent)
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
        std::fs::write(
            home.join(".config/agtool/config.toml"),
            "deny_read = [\".aws\", \".ssh\", \".gnupg\", \".env\"]\n",
        )
        .unwrap();
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

/// The finding: as root the command kept every capability (CapEff full), so it could inject
/// keystrokes into other terminals (TIOCSTI), mark the whole filesystem with fanotify and
/// reopen files around the hiding mounts, rename the host, and signal any process.
#[test]
fn a_command_has_no_capabilities_and_no_reach_around_the_mounts() {
    let w = Ws::new();
    let (_, text) = w.sh("grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status");
    let caps: Vec<&str> = text.lines().filter(|l| l.starts_with("Cap")).collect();
    assert_eq!(caps.len(), 5, "{text}");
    for line in caps {
        assert!(line.ends_with("0000000000000000"), "{line}\n{text}");
    }
    // Setting the host name to what it is already: harmless either way, refused inside.
    let (_, text) = w.sh("hostname \"$(hostname)\"; echo rc=$?");
    assert!(!text.contains("rc=0"), "{text}");
    // A process outside the sandbox cannot be signalled (signal 0: only the permission).
    let mut outside = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let (_, text) = w.sh(&format!("kill -0 {}; echo rc=$?", outside.id()));
    let _ = outside.kill();
    let _ = outside.wait();
    assert!(text.contains("rc=1"), "{text}");
    if has("python3") {
        let script = [
            "import ctypes, fcntl, os, termios",
            "libc = ctypes.CDLL(None, use_errno=True)",
            "m, s = os.openpty()",
            "for name, req in (('tiocsti', termios.TIOCSTI), ('tioclinux', 0x541C)):",
            "    try: fcntl.ioctl(s, req, b'x'); print(name, 'ok')",
            "    except OSError as e: print(name, e.errno)",
            "fd = libc.fanotify_init(0, 0); print('fanotify', fd, ctypes.get_errno())",
            "buf = ctypes.create_string_buffer(128); mid = ctypes.c_int()",
            "ctypes.memmove(buf, (8).to_bytes(4, 'little'), 4)",
            "rc = libc.name_to_handle_at(-100, b'/etc/passwd', buf, ctypes.byref(mid), 0)",
            "print('name_to_handle_at', rc, ctypes.get_errno())",
            "print('keyctl', libc.syscall(250, 0, -3, 0), ctypes.get_errno())",
        ]
        .join("\n");
        let o = w
            .cmd()
            .args(["exec", "--", "python3", "-c", &script])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("tiocsti 1\n"), "{text}");
        assert!(text.contains("tioclinux 1\n"), "{text}");
        assert!(text.contains("fanotify -1 1\n"), "{text}");
        assert!(text.contains("name_to_handle_at -1 1\n"), "{text}");
        assert!(text.contains("keyctl -1 1\n"), "{text}");
    }
}

/// The finding: the scan for deny_read and protected names stopped after 100,000 entries,
/// so 300,000 files padding the root left `.git`, `.env` and the rest past that point
/// unprotected, with only a note. The root's own names are covered whatever the budget, and a
/// scan cut short refuses the command. (The budget is lowered here through the variable meant
/// for tests, so a few hundred files stand for the 300,000.)
#[test]
fn a_scan_cut_short_never_leaves_names_unprotected() {
    let w = Ws::new();
    for i in 0..400 {
        std::fs::write(w.root.join(format!("pad{i:04}")), "").unwrap();
    }
    std::fs::write(w.root.join(".env"), "ROOT-ENV-SECRET\n").unwrap();
    let line = "cat .env; echo x >> .git/config; echo done";
    let o = w
        .cmd()
        .env("AGTOOL_SANDBOX_SCAN_BUDGET", "50")
        .args(["exec", "--", "sh", "-c", line])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("ROOT-ENV-SECRET"), "{text}");
    assert_eq!(
        std::fs::read_to_string(w.root.join(".git/config")).unwrap(),
        "[core]\n"
    );
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("Error: ") && text.contains("more than 50 entries"),
        "{text}"
    );
    // What to do first, with a value: the limit, in the environment agtool runs in.
    assert!(text.contains("(AGTOOL_SANDBOX_SCAN_BUDGET=200;"), "{text}");
    // Under the budget the same command runs, still without the secret or the write.
    let o = w
        .cmd()
        .env("AGTOOL_SANDBOX_SCAN_BUDGET", "5000")
        .args(["exec", "--", "sh", "-c", line])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("done"), "{text}");
    assert!(!text.contains("ROOT-ENV-SECRET"), "{text}");
    assert_eq!(
        std::fs::read_to_string(w.root.join(".git/config")).unwrap(),
        "[core]\n"
    );
}

/// The finding: an `exec.writable` entry that contains the workspace (the folder above it
/// here) took the read-only mounts off `.git` and `.agent-state`. Protected names stay
/// read-only unless the writable entry is the protected folder itself (or inside it).
#[test]
fn a_writable_folder_around_the_workspace_keeps_protected_names_read_only() {
    let w = Ws::new();
    let base = w.root.parent().unwrap();
    let cfg = base.join("writable.toml");
    std::fs::write(
        &cfg,
        format!("[exec]\nwritable = [\"{}\"]\n", base.display()),
    )
    .unwrap();
    std::fs::create_dir_all(w.root.join("sub/.git")).unwrap();
    std::fs::write(w.root.join("sub/.git/config"), "[core]\n").unwrap();
    let line = format!(
        "echo x >> .git/config; echo x >> sub/.git/config; echo x > .agent-state/new; \
         echo ok > {}/made; echo done",
        w.outside.display()
    );
    let o = w
        .cmd()
        .args([
            "--config",
            cfg.to_str().unwrap(),
            "exec",
            "--",
            "sh",
            "-c",
            &line,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("done"), "{text}");
    assert!(
        w.outside.join("made").exists(),
        "the writable folder: {text}"
    );
    for f in [".git/config", "sub/.git/config"] {
        assert_eq!(
            std::fs::read_to_string(w.root.join(f)).unwrap(),
            "[core]\n",
            "{f}: {text}"
        );
    }
    assert!(!w.root.join(".agent-state/new").exists(), "{text}");
}

/// The finding: only the top level of the home folder was searched for deny_read names, so
/// `cat $HOME/proj/.env` printed another project's secrets. Two more levels are covered now
/// (every folder of the home folder, and the projects inside its plain folders).
#[test]
fn deny_read_names_in_projects_of_the_home_folder_are_hidden() {
    let w = Ws::new();
    for (dir, secret) in [
        ("proj", "HOME-PROJ-SECRET"),
        ("src/proj2", "HOME-SRC-SECRET"),
        (".config", "HOME-DOT-SECRET"),
    ] {
        let d = w.home.join(dir);
        std::fs::create_dir_all(d.join(".ssh")).unwrap();
        std::fs::write(d.join(".env"), format!("{secret}\n")).unwrap();
        std::fs::write(d.join(".ssh/id_rsa"), format!("{secret}\n")).unwrap();
    }
    let home = w.home.display().to_string();
    let (_, text) = w.sh(&format!(
        "cat {home}/proj/.env {home}/proj/.ssh/id_rsa {home}/src/proj2/.env \
         {home}/src/proj2/.ssh/id_rsa {home}/.config/.env; grep -r SECRET {home}; echo done"
    ));
    assert!(text.contains("done"), "{text}");
    assert!(!text.contains("-SECRET"), "{text}");
}

/// The finding: other terminals under /dev/pts were writable (text pushed into a person's
/// shell), and abstract Unix sockets of processes outside reachable. The command gets a
/// private /dev/pts (new terminals still work) and abstract sockets are scoped.
#[test]
fn other_terminals_and_abstract_sockets_are_out_of_reach() {
    if !has("python3") {
        return;
    }
    let w = Ws::new();
    // A terminal outside, held open by this test.
    // SAFETY: posix_openpt/grantpt/unlockpt/ptsname on a descriptor this test owns.
    let pts = unsafe {
        let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(m >= 0);
        assert_eq!(libc::grantpt(m), 0);
        assert_eq!(libc::unlockpt(m), 0);
        std::ffi::CStr::from_ptr(libc::ptsname(m))
            .to_string_lossy()
            .into_owned()
    };
    let name = format!("agtool-attack-{}", std::process::id());
    let mut listener = std::process::Command::new("python3")
        .args([
            "-c",
            &format!(
                "import socket, time\ns = socket.socket(socket.AF_UNIX)\ns.bind('\\0{name}')\n\
                 s.listen(1)\ntime.sleep(30)"
            ),
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let script = format!(
        "import os, socket\n\
         try: open('{pts}', 'w').write('x'); print('pts ok')\n\
         except OSError as e: print('pts', e.errno)\n\
         m, s = os.openpty(); os.write(m, b'hi\\n'); print('own', os.read(s, 3))\n\
         c = socket.socket(socket.AF_UNIX)\n\
         try: c.connect('\\0{name}'); print('abstract ok')\n\
         except OSError as e: print('abstract', e.errno)"
    );
    let o = w
        .cmd()
        .args(["exec", "--", "python3", "-c", &script])
        .output()
        .unwrap();
    let _ = listener.kill();
    let _ = listener.wait();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("own b'hi\\n'"), "{text}");
    assert!(!text.contains("pts ok"), "{text}");
    assert!(!text.contains("abstract ok"), "{text}");
}

/// The finding: `/tmp` is writable to every command, so for a workspace under it a command
/// could copy the workspace, put a git hook into the copy's `.git`, move the workspace aside
/// and the copy into its place: the read-only mounts stayed on the moved folder, and the next
/// `git commit` ran the hook outside the sandbox. The workspace root and the folders above it
/// are mount points inside the sandbox now, which rename(2) and rmdir(2) refuse (EBUSY).
#[test]
fn a_command_cannot_swap_the_workspace_for_a_copy() {
    let w = Ws::new_in(Path::new("/tmp"));
    let ws = w.root.file_name().unwrap().to_str().unwrap().to_owned();
    let swap = format!(
        "cd .. && cp -a {ws} {ws}.new && echo planted > {ws}.new/.git/config && \
         mv {ws} {ws}.old && mv {ws}.new {ws} && echo swapped"
    );
    let (_, out) = w.sh(&swap);
    assert!(!out.contains("swapped"), "{out}");
    // Nor the folder above it, nor a removal of either.
    let base = w.root.parent().unwrap();
    let up = format!(
        "cd ../.. && mv {0} {0}.old; rmdir {0}/{ws}; echo tried",
        base.file_name().unwrap().to_str().unwrap()
    );
    let (_, out) = w.sh(&up);
    assert!(out.contains("tried"), "{out}");
    assert_eq!(
        std::fs::read_to_string(w.root.join(".git/config")).unwrap(),
        "[core]\n",
        "{out}"
    );
    assert!(w.root.join(".agent-state").is_dir());
    // The same around a workspace inside an exec.writable folder.
    let w = Ws::new();
    let base = w.root.parent().unwrap();
    let cfg = base.join("writable.toml");
    std::fs::write(
        &cfg,
        format!("[exec]\nwritable = [\"{}\"]\n", base.display()),
    )
    .unwrap();
    let o = w
        .cmd()
        .args([
            "--config",
            cfg.to_str().unwrap(),
            "exec",
            "--",
            "sh",
            "-c",
            &swap,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("swapped"), "{text}");
    assert_eq!(
        std::fs::read_to_string(w.root.join(".git/config")).unwrap(),
        "[core]\n",
        "{text}"
    );
    // Work inside the workspace and in /tmp goes on as before.
    let (code, out) = w.sh("mkdir d && mv d e && rmdir e && t=$(mktemp -d /tmp/x.XXXX) && mv $t $t.2 && rmdir $t.2 && echo fine");
    assert_eq!((code, out.contains("fine")), (0, true), "{out}");
}

/// The findings: the swap one level down (a nested repository's folder moved aside and a
/// copy with a writable `.git` put in its place), and git folders outside the workspace
/// (a root inside a bigger repository, a worktree, `--separate-git-dir`) that a command could
/// write, planting a hook for the user's next commit. Each is read-only now, and the folders
/// above them cannot be moved.
#[test]
fn git_folders_the_workspace_uses_stay_read_only() {
    if !has("git") {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("agtool-git-dirs-")
        .tempdir_in("/tmp")
        .unwrap();
    let b = std::fs::canonicalize(tmp.path()).unwrap();
    let git = |dir: &Path, args: &[&str]| {
        let ok = std::process::Command::new("git")
            .current_dir(dir)
            .args(["-c", "user.email=a@b", "-c", "user.name=a"])
            .args(args)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    let sh = |dir: &Path, line: &str| -> String {
        let out = common::agtool(dir)
            .args(["exec", "--", "sh", "-c", line])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // A root inside a bigger repository.
    git(&b, &["init", "-q", "repo"]);
    std::fs::create_dir_all(b.join("repo/sub/.agent-state")).unwrap();
    let hook = |dir: &Path| {
        format!(
            "echo x > {}/hooks/pre-commit && echo planted",
            dir.display()
        )
    };
    let out = sh(&b.join("repo/sub"), &hook(&b.join("repo/.git")));
    assert!(!out.contains("planted"), "{out}");
    // A worktree: its own git folder and the main repository's.
    git(&b, &["init", "-q", "main"]);
    git(
        &b.join("main"),
        &["commit", "-q", "--allow-empty", "-m", "i"],
    );
    git(
        &b.join("main"),
        &["worktree", "add", "-q", b.join("wt").to_str().unwrap()],
    );
    let out = sh(&b.join("wt"), &hook(&b.join("main/.git")));
    assert!(!out.contains("planted"), "{out}");
    let out = sh(
        &b.join("wt"),
        &format!("mv {0}/main {0}/main2 && echo moved", b.display()),
    );
    assert!(!out.contains("moved"), "{out}");
    // --separate-git-dir.
    git(
        &b,
        &[
            "init",
            "-q",
            &format!("--separate-git-dir={}/gitdir", b.display()),
            "ws2",
        ],
    );
    let out = sh(&b.join("ws2"), &hook(&b.join("gitdir")));
    assert!(!out.contains("planted"), "{out}");
    // A nested repository's folder cannot be swapped for a copy.
    std::fs::create_dir_all(b.join("ws3/.git")).unwrap();
    git(&b.join("ws3"), &["init", "-q", "sub"]);
    let out = sh(
        &b.join("ws3"),
        "mv sub sub.old && cp -a sub.old sub && echo x > sub/.git/hooks/pre-commit && echo swapped",
    );
    assert!(!out.contains("swapped"), "{out}");
    for hooks in [
        "repo/.git/hooks",
        "main/.git/hooks",
        "gitdir/hooks",
        "ws3/sub/.git/hooks",
    ] {
        assert!(!b.join(hooks).join("pre-commit").exists(), "{hooks}");
    }
}

/// The finding: with the root reached through a symlink in /tmp (`--root /tmp/x/link`, or a
/// shell in `/tmp/x/link`), a command pointed the symlink at a copy of the workspace with a
/// planted hook; the user's next `cd` there landed in the copy. A symlink cannot be pinned by
/// a mount, so commands are refused there, saying to use the real path.
#[test]
fn a_root_reached_through_a_writable_symlink_runs_no_command() {
    let tmp = tempfile::Builder::new()
        .prefix("agtool-root-link-")
        .tempdir_in("/tmp")
        .unwrap();
    let b = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::create_dir_all(b.join("real/.git")).unwrap();
    std::os::unix::fs::symlink(b.join("real"), b.join("link")).unwrap();
    let says = format!(
        "Error: the workspace is reached through the symlink {}, in a folder commands may \
         write",
        b.join("link").display()
    );
    let out = common::agtool(&b)
        .args([
            "--root",
            b.join("link").to_str().unwrap(),
            "exec",
            "--",
            "sh",
            "-c",
            "echo ran",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with(&says) && !text.contains("ran\n"), "{text}");
    // A shell whose PWD goes through the link.
    let out = common::agtool(&b.join("real"))
        .env("PWD", b.join("link"))
        .args(["exec", "--", "sh", "-c", "echo ran"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&says), "{text}");
    // From the real path, commands run.
    let out = common::agtool(&b.join("real"))
        .env("PWD", b.join("real"))
        .args(["exec", "--", "sh", "-c", "echo ran"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("ran\n"));
}
