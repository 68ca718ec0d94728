//! Symlink-swap races (issue 12, item 1; spec 01 "Races and crashes"): while another process
//! swaps a folder of the workspace for a symlink to an outside folder as fast as it can, 200+
//! calls of each tool run against a path through that folder. Nothing outside may change,
//! nothing may be read from outside, and no temp file may be left behind. A call may fail.
//!
//! The swap is one `renameat2(RENAME_EXCHANGE)` of the real folder with a symlink beside it, so
//! the folder's name is a folder or a symlink at every instant, flipping as fast as the
//! kernel allows. The test keeps a handle on the real folder, so it can look inside it
//! whatever its current name.

mod common;

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use common::{Run, Ws};
use rustix::fs::{CWD, Mode, OFlags, RenameFlags};

/// One attack at a time: swapping threads of parallel tests would starve each other's calls.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Calls per tool (the issue asks for 200+).
const CALLS: usize = 200;
/// What the outside files hold: seeing it in any output is a read from outside.
const SECRET: &str = "SECRET-OUTSIDE";

/// A thread exchanging two names as fast as it can until dropped; `pause` parks it with the
/// folder back under its own name.
struct Swapper {
    stop: Arc<AtomicBool>,
    pause: Arc<AtomicBool>,
    parked: Arc<AtomicBool>,
    swaps: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
    folder: PathBuf,
    link: PathBuf,
}

impl Swapper {
    /// Starts exchanging `folder` (a real folder) and `link` (a symlink to the outside).
    fn start(folder: PathBuf, link: PathBuf) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let pause = Arc::new(AtomicBool::new(false));
        let parked = Arc::new(AtomicBool::new(false));
        let swaps = Arc::new(AtomicU64::new(0));
        let (s, p, k, n) = (stop.clone(), pause.clone(), parked.clone(), swaps.clone());
        let (f, l) = (folder.clone(), link.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                if p.load(Ordering::Acquire) {
                    put_back(&f, &l);
                    k.store(true, Ordering::Release);
                    while p.load(Ordering::Acquire) && !s.load(Ordering::Relaxed) {
                        std::thread::yield_now();
                    }
                    k.store(false, Ordering::Release);
                    continue;
                }
                if rustix::fs::renameat_with(CWD, &f, CWD, &l, RenameFlags::EXCHANGE).is_ok() {
                    n.fetch_add(1, Ordering::Relaxed);
                }
            }
            put_back(&f, &l);
        });
        Swapper {
            stop,
            pause,
            parked,
            swaps,
            thread: Some(thread),
            folder,
            link,
        }
    }

    /// Runs `f` with the swapping parked (the folder under its own name).
    fn paused<T>(&self, f: impl FnOnce() -> T) -> T {
        self.pause.store(true, Ordering::Release);
        while !self.parked.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        let out = f();
        self.pause.store(false, Ordering::Release);
        out
    }

    fn swaps(&self) -> u64 {
        self.swaps.load(Ordering::Relaxed)
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        put_back(&self.folder, &self.link);
    }
}

/// Makes `folder` the real folder again (exchanging back when the symlink holds its name).
fn put_back(folder: &Path, link: &Path) {
    if std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::symlink_metadata(link).is_ok_and(|m| m.is_dir())
    {
        let _ = rustix::fs::renameat_with(CWD, folder, CWD, link, RenameFlags::EXCHANGE);
    }
}

/// The race fixture: `ws/d` (a real folder) and `ws/alt` (a symlink to `outside/`), plus the
/// outside folder holding the same names as `d` with secret content.
struct Race {
    ws: Ws,
    outside: PathBuf,
    /// A handle on the real `d`, whatever its name is now.
    inside: OwnedFd,
}

impl Race {
    fn new(files: &[(&str, &str)]) -> Race {
        let ws = Ws::new();
        std::fs::create_dir(ws.root.join(".git")).unwrap();
        let outside = ws.base.join("outside");
        std::fs::create_dir(&outside).unwrap();
        ws.mkdir("d");
        for (name, inside) in files {
            ws.write(&format!("d/{name}"), inside);
            std::fs::write(outside.join(name), format!("{SECRET} {name}\n")).unwrap();
        }
        ws.symlink(&outside, "alt");
        let inside = rustix::fs::open(
            ws.path("d"),
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap();
        Race {
            ws,
            outside,
            inside,
        }
    }

    fn swapper(&self) -> Swapper {
        Swapper::start(self.ws.path("d"), self.ws.path("alt"))
    }

    /// The real `d`'s file `name` (None when missing).
    fn inside_file(&self, name: &str) -> Option<Vec<u8>> {
        let fd = rustix::fs::openat(
            self.inside.as_fd(),
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let mut f = std::fs::File::from(fd);
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut out).ok()?;
        Some(out)
    }

    /// Writes the real `d`'s file `name`.
    fn set_inside_file(&self, name: &str, bytes: &str) {
        let fd = rustix::fs::openat(
            self.inside.as_fd(),
            name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .unwrap();
        std::io::Write::write_all(&mut std::fs::File::from(fd), bytes.as_bytes()).unwrap();
    }

    /// Everything outside, as (name, bytes): what must never change.
    fn outside_state(&self) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&self.outside)
            .unwrap()
            .flatten()
            .map(|e| {
                let bytes = std::fs::read(e.path()).unwrap_or_default();
                (e.file_name().to_string_lossy().into_owned(), bytes)
            })
            .collect();
        out.sort();
        out
    }

    /// Restores the outside folder to `state` after an escape, so each escape counts once.
    fn restore_outside(&self, state: &[(String, Vec<u8>)]) {
        for e in std::fs::read_dir(&self.outside).unwrap().flatten() {
            let _ = std::fs::remove_file(e.path());
        }
        for (name, bytes) in state {
            std::fs::write(self.outside.join(name), bytes).unwrap();
        }
    }

    /// Runs `agtool ARGS` with `stdin`.
    fn run(&self, args: &[&str], stdin: &str) -> Run {
        Run::from(
            self.ws
                .cmd()
                .args(args)
                .write_stdin(stdin.to_owned())
                .output()
                .unwrap(),
        )
    }
}

/// Every `.agtool-` temp file under `dir` (not following symlinks; `.agent-state` skipped).
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
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

/// The tally of one attack: calls that acted or read outside, calls that failed, temp files.
#[derive(Default, Debug)]
struct Tally {
    escapes: usize,
    failed: usize,
    ok: usize,
}

impl Race {
    /// Runs `call(i)` CALLS times under the swapper; `outside_seen(run)` says whether a call's
    /// output shows outside content. Counts calls after which the outside changed.
    fn attack(&self, what: &str, mut call: impl FnMut(usize, &Swapper) -> Run) -> Tally {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let before = self.outside_state();
        let swapper = self.swapper();
        let mut t = Tally::default();
        for i in 0..CALLS {
            let run = call(i, &swapper);
            let read_outside = run.out.contains(SECRET) || run.err.contains(SECRET);
            let now = self.outside_state();
            if now != before || read_outside {
                t.escapes += 1;
                if now != before {
                    swapper.paused(|| self.restore_outside(&before));
                }
            }
            if run.code == 0 {
                t.ok += 1
            } else {
                t.failed += 1
            }
        }
        let swaps = swapper.swaps();
        drop(swapper);
        let temps: Vec<PathBuf> = temp_files(&self.ws.root)
            .into_iter()
            .chain(temp_files(&self.outside))
            .collect();
        eprintln!(
            "{what}: {CALLS} calls, {swaps} swaps: {} escapes, {} ok, {} failed, {} temp files left",
            t.escapes,
            t.ok,
            t.failed,
            temps.len()
        );
        assert_eq!(
            t.escapes, 0,
            "{what}: calls acted on or read the outside folder"
        );
        assert!(temps.is_empty(), "{what}: temp files left: {temps:?}");
        assert_eq!(
            self.outside_state(),
            before,
            "{what}: the outside folder changed"
        );
        t
    }
}

#[test]
fn write_file_never_writes_outside() {
    let r = Race::new(&[("f.txt", "inside\n")]);
    r.attack("write-file", |i, _| {
        r.run(
            &[
                "--no-freshness",
                "write-file",
                "d/f.txt",
                "--content",
                &format!("call {i}\n"),
            ],
            "",
        )
    });
}

#[test]
fn edit_file_never_edits_outside() {
    // The outside file holds the same text, so an edit that followed the swap would match.
    let r = Race::new(&[("f.txt", "x\n")]);
    std::fs::write(r.outside.join("f.txt"), format!("x\n{SECRET}\n")).unwrap();
    let t = r.attack("edit-file", |_, _| {
        let now = r.inside_file("f.txt").unwrap_or_default();
        let (old, new) = if now.starts_with(b"x") {
            ("x", "y")
        } else {
            ("y", "x")
        };
        r.run(
            &[
                "--no-freshness",
                "edit-file",
                "d/f.txt",
                "--old",
                old,
                "--new",
                new,
            ],
            "",
        )
    });
    assert!(t.ok > 0, "no edit landed at all");
}

#[test]
fn apply_patch_add_and_update_never_act_outside() {
    let r = Race::new(&[("f.txt", "x\n")]);
    std::fs::write(r.outside.join("f.txt"), format!("x\n{SECRET}\n")).unwrap();
    r.attack("apply-patch add+update", |i, _| {
        let now = r.inside_file("f.txt").unwrap_or_default();
        let (old, new) = if now.starts_with(b"x") { ("x", "y") } else { ("y", "x") };
        let patch = format!(
            "*** Begin Patch\n*** Add File: d/new{i}.txt\n+added\n*** Update File: d/f.txt\n@@\n-{old}\n+{new}\n*** End Patch\n"
        );
        r.run(&["--no-freshness", "apply-patch"], &patch)
    });
}

#[test]
fn apply_patch_move_never_acts_outside() {
    let r = Race::new(&[("m.txt", "x\n")]);
    std::fs::write(r.outside.join("m.txt"), "x\n").unwrap();
    r.attack("apply-patch move", |i, sw| {
        // Into the swapped folder from a stable one, or out of it.
        let patch = if i % 2 == 0 {
            r.ws.write(&format!("src{i}.txt"), "x\n");
            format!(
                "*** Begin Patch\n*** Update File: src{i}.txt\n*** Move to: d/moved{i}.txt\n@@\n-x\n+y\n*** End Patch\n"
            )
        } else {
            sw.paused(|| r.set_inside_file("m.txt", "x\n"));
            format!(
                "*** Begin Patch\n*** Update File: d/m.txt\n*** Move to: out{i}.txt\n@@\n-x\n+y\n*** End Patch\n"
            )
        };
        r.run(&["--no-freshness", "apply-patch"], &patch)
    });
}

#[test]
fn delete_path_recursive_never_deletes_outside() {
    // The swapped folder is `t/sub` inside the tree being deleted.
    let ws = Ws::new();
    std::fs::create_dir(ws.root.join(".git")).unwrap();
    let outside = ws.base.join("outside");
    std::fs::create_dir(&outside).unwrap();
    let names = ["a", "b", "c", "e", "f"];
    for n in names {
        std::fs::write(outside.join(n), SECRET).unwrap();
    }
    let fill = |ws: &Ws| {
        let _ = std::fs::remove_dir_all(ws.path("t"));
        match std::fs::symlink_metadata(ws.path("alt")) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(ws.path("alt")).unwrap(),
            Ok(_) => std::fs::remove_file(ws.path("alt")).unwrap(),
            Err(_) => {}
        }
        ws.symlink(&outside, "alt");
        for n in names {
            ws.write(&format!("t/sub/{n}"), "inside");
        }
    };
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    fill(&ws);
    let before: Vec<_> = names.iter().map(|n| outside.join(n).exists()).collect();
    let swapper = Swapper::start(ws.path("t/sub"), ws.path("alt"));
    let (mut escapes, mut ok) = (0, 0);
    for _ in 0..CALLS {
        swapper.paused(|| fill(&ws));
        let run = Run::from(
            ws.cmd()
                .args(["delete-path", "t", "--recursive"])
                .output()
                .unwrap(),
        );
        if run.code == 0 {
            ok += 1;
        }
        let now: Vec<_> = names.iter().map(|n| outside.join(n).exists()).collect();
        if now != before {
            escapes += 1;
            for n in names {
                std::fs::write(outside.join(n), SECRET).unwrap();
            }
        }
    }
    drop(swapper);
    eprintln!("delete-path --recursive: {CALLS} calls: {escapes} escapes, {ok} ok");
    assert_eq!(escapes, 0, "delete-path deleted outside files");
    assert!(ok > 0, "no deletion succeeded at all");
}

#[test]
fn read_file_never_reads_outside() {
    let r = Race::new(&[("f.txt", "inside\n")]);
    let t = r.attack("read-file", |_, _| r.run(&["read-file", "d/f.txt"], ""));
    assert!(t.ok > 0);
}

#[test]
fn grep_glob_and_list_dir_never_report_outside() {
    let r = Race::new(&[("f.txt", "inside\n"), ("only-inside.txt", "inside\n")]);
    std::fs::write(r.outside.join("only-outside.txt"), SECRET).unwrap();
    r.attack("grep/glob/list-dir", |i, _| {
        let run = match i % 3 {
            0 => r.run(&["grep", "SECRET|inside", "d", "--output", "content"], ""),
            1 => r.run(&["glob", "**/*.txt", "--path", "d"], ""),
            _ => r.run(&["list-dir", ".", "--depth", "4"], ""),
        };
        let mut run = run;
        // A listed outside-only name is a read from outside too.
        if run.out.contains("only-outside") {
            run.out.push_str(SECRET);
        }
        run
    });
}

/// The children list-dir shows under the top-level folder `name` (`name/` or `name@`), or
/// None when that folder is not shown.
fn listed_children(out: &str, name: &str) -> Option<Vec<String>> {
    let mut lines = out
        .lines()
        .skip_while(|l| *l != format!("{name}/") && *l != format!("{name}@"));
    lines.next()?;
    Some(
        lines
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim().to_owned())
            .collect(),
    )
}

#[test]
fn list_dir_never_shows_outside_names_or_a_siblings_children() {
    // Attack report (list-dir's handle fence): while `d` flips between the real folder and a
    // symlink to `outside/`, (1) a folder the handle lists as a symlink was walked into and
    // showed the children of `a_decoy`, the folder entered before it (35 of 300 runs); (2)
    // the names `d` shares with `outside/` were shown alone, which tells which names exist in
    // a folder outside (13 of 300). Children of `d` (or `alt`, its other name during the swap)
    // are either all of the real folder's or none.
    let r = Race::new(&[("f.txt", "inside\n"), ("only-inside.txt", "inside\n")]);
    std::fs::write(r.outside.join("only-outside.txt"), SECRET).unwrap();
    // The decoy, entered just before, holds a name the outside folder holds too.
    r.ws.write("a_decoy/decoy-only.txt", "decoy\n");
    r.ws.write("a_decoy/only-outside.txt", "decoy\n");
    let full = vec!["f.txt".to_owned(), "only-inside.txt".to_owned()];
    r.attack("list-dir", |_, _| {
        let mut run = r.run(&["list-dir", ".", "--depth", "3"], "");
        let decoys = run.out.matches("decoy-only").count();
        let shared = run.out.matches("only-outside").count();
        let partial = ["d", "alt"].iter().any(|name| {
            listed_children(&run.out, name).is_some_and(|c| !c.is_empty() && c != full)
        });
        if shared > 1 || decoys > 1 || partial {
            run.out.push_str(SECRET);
        }
        run
    });
}

#[test]
fn exec_workdir_never_starts_outside() {
    let r = Race::new(&[("f.txt", "inside\n")]);
    let t = r.attack("exec workdir", |_, _| {
        r.run(&["exec", "--workdir", "d", "--", "cat", "f.txt"], "")
    });
    assert!(t.ok > 0);
}

#[test]
fn exec_command_workdir_never_starts_outside() {
    // Issue 17, item 6: the session server looked the workdir up by name, so 9 of 60 sessions
    // started in the outside folder. It now starts the session in the folder the client
    // opened.
    let r = Race::new(&[("f.txt", "inside\n")]);
    let t = r.attack("exec-command workdir", |_, _| {
        r.run(
            &[
                "exec-command",
                "cat f.txt",
                "--workdir",
                "d",
                "--yield-time-ms",
                "5000",
            ],
            "",
        )
    });
    r.run(&["sessions", "stop-server"], "");
    assert!(t.ok > 0);
}

/// Whether any file under `p` (not following symlinks) holds the outside content.
fn holds_secret(p: &Path) -> bool {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => std::fs::read_dir(p)
            .map(|rd| rd.flatten().any(|e| holds_secret(&e.path())))
            .unwrap_or(false),
        Ok(m) if m.is_file() => std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).contains(SECRET))
            .unwrap_or(false),
        _ => false,
    }
}

/// Marks a run as having read outside when `p` holds the outside content.
fn mark_if_secret(mut run: Run, p: &Path) -> Run {
    if holds_secret(p) {
        run.out.push_str(SECRET);
    }
    run
}

#[test]
fn move_path_never_acts_outside() {
    let r = Race::new(&[("m.txt", "x\n")]);
    let t = r.attack("move-path", |i, sw| match i % 3 {
        // Every tenth call runs while the folder holds still (a move that never works at all
        // is caught, however the swaps fall).
        _ if i % 10 == 9 => {
            r.ws.write(&format!("still{i}.txt"), "x\n");
            sw.paused(|| r.run(&["move-path", &format!("still{i}.txt"), "d/"], ""))
        }
        // A file into the swapped folder.
        0 => {
            r.ws.write(&format!("src{i}.txt"), "x\n");
            r.run(
                &[
                    "move-path",
                    &format!("src{i}.txt"),
                    &format!("d/moved{i}.txt"),
                ],
                "",
            )
        }
        // A file out of it: following the swap would take the outside file.
        1 => {
            sw.paused(|| r.set_inside_file("m.txt", "x\n"));
            let dst = format!("out{i}.txt");
            let run = r.run(&["move-path", "d/m.txt", &dst], "");
            mark_if_secret(run, &r.ws.path(&dst))
        }
        // A folder into it, by the trailing-slash form.
        _ => {
            r.ws.write(&format!("dir{i}/f.txt"), "x\n");
            r.run(&["move-path", &format!("dir{i}"), "d/"], "")
        }
    });
    assert!(t.ok > 0, "no move landed at all");
}

#[test]
fn copy_path_never_reads_or_writes_outside() {
    let r = Race::new(&[("f.txt", "inside\n")]);
    let t = r.attack("copy-path", |i, sw| match i % 3 {
        // Every tenth call runs while the folder holds still (a copy that never works at all
        // is caught, however the swaps fall).
        _ if i % 10 == 9 => {
            r.ws.write(&format!("still{i}.txt"), "inside\n");
            sw.paused(|| r.run(&["copy-path", &format!("still{i}.txt"), "d/"], ""))
        }
        // A file out of the swapped folder: its copy must never be the outside file.
        0 => {
            let dst = format!("c{i}.txt");
            let run = r.run(&["copy-path", "d/f.txt", &dst], "");
            mark_if_secret(run, &r.ws.path(&dst))
        }
        // A file into it.
        1 => {
            r.ws.write(&format!("s{i}.txt"), "inside\n");
            r.run(
                &["copy-path", &format!("s{i}.txt"), &format!("d/c{i}.txt")],
                "",
            )
        }
        // The whole folder: never the outside folder's files.
        _ => {
            let dst = format!("tree{i}");
            let run = r.run(&["copy-path", "d", &dst, "--recursive"], "");
            mark_if_secret(run, &r.ws.path(&dst))
        }
    });
    assert!(t.ok > 0, "no copy landed at all");
}

#[test]
fn make_dir_never_makes_outside() {
    let r = Race::new(&[("f.txt", "inside\n")]);
    let t = r.attack("make-dir", |i, sw| {
        let args = ["make-dir".to_owned(), format!("d/new{i}/sub")];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // Every tenth call runs while the folder holds still, so that a make-dir that never
        // works at all is caught (under the swap most calls are refused, as they should be).
        if i % 10 == 9 {
            sw.paused(|| r.run(&args, ""))
        } else {
            r.run(&args, "")
        }
    });
    assert!(t.ok > 0, "no folder was made at all");
}
