//! What the read tools show and accept (issue 9, defects 2-4): a window around a match on a
//! long line, special files never opened blocking, and file names that are not UTF-8
//! printed in one escaped, reversible form that every path argument accepts.

mod common;
use common::*;
use serde_json::json;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, Instant};

// ---- defect 2: a window around the match on a long line ----

/// The `[… <k> bytes] <window> [… <m> more bytes]` parts of a printed line.
fn window_parts(text: &str) -> (usize, &str, usize) {
    let (before, rest) = match text.strip_prefix("[… ") {
        Some(r) => {
            let (n, rest) = r.split_once(" bytes] ").expect("leading marker");
            (n.parse().unwrap(), rest)
        }
        None => (0, text),
    };
    let (shown, after) = match rest.rsplit_once(" [… ") {
        Some((shown, tail)) => (
            shown,
            tail.strip_suffix(" more bytes]")
                .expect("trailing marker")
                .parse()
                .unwrap(),
        ),
        None => (rest, 0),
    };
    (before, shown, after)
}

#[test]
fn grep_shows_a_match_far_into_a_minified_line() {
    let ws = Ws::new();
    let line = format!("{}NEEDLE{}", "a".repeat(3000), "b".repeat(1994));
    ws.write("app.min.js", format!("{line}\n"));
    let out = ws.run(&["grep", "NEEDLE", "--output", "content"]);
    let text = out.ok().strip_prefix("app.min.js:1:").unwrap().trim_end();
    let (before, shown, after) = window_parts(text);
    assert!(shown.contains("NEEDLE"), "{text}");
    assert!(shown.len() <= 500, "{}", shown.len());
    assert!(before > 2000 && after > 0, "{text}");
    assert_eq!(
        before + shown.len() + after,
        line.len(),
        "the markers count every byte"
    );
    // The match sits near the start of the window.
    assert!(shown.find("NEEDLE").unwrap() <= 120, "{shown}");
    // A match near the end: the window is full and ends at the end of the line.
    let tail = format!("{}NEEDLE", "c".repeat(3000));
    ws.write("tail.min.js", format!("{tail}\n"));
    let out = ws.run(&["grep", "NEEDLE", "tail.min.js", "--output", "content"]);
    let (before, shown, after) =
        window_parts(out.ok().strip_prefix("tail.min.js:1:").unwrap().trim_end());
    assert_eq!((before, shown.len(), after), (tail.len() - 500, 500, 0));
    assert!(shown.ends_with("NEEDLE"));
    // A match in the first 500 bytes: cut from the start, as read-file does.
    let head = format!("NEEDLE{}", "d".repeat(900));
    ws.write("head.min.js", format!("{head}\n"));
    let out = ws.run(&["grep", "NEEDLE", "head.min.js", "--output", "content"]);
    assert_eq!(
        out.ok(),
        format!(
            "head.min.js:1:NEEDLE{} [… 406 more bytes]\n",
            "d".repeat(494)
        )
    );
}

#[test]
fn grep_windows_cut_at_char_boundaries_with_context_lines() {
    let ws = Ws::new();
    // Two- and three-byte characters all around, so every cut point lands inside one.
    let long = format!("{}NEEDLE{}", "é日".repeat(700), "日é".repeat(400));
    let context_line = "日é".repeat(300); // 1500 bytes, no match
    ws.write("m.txt", format!("{context_line}\n{long}\n{context_line}\n"));
    let out = ws.run(&["grep", "NEEDLE", "--output", "content", "--context", "1"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 3, "{}", out.out);
    assert!(
        !out.out.contains('\u{FFFD}'),
        "cut inside a character: {}",
        out.out
    );
    let (before, shown, after) = window_parts(lines[1].strip_prefix("m.txt:2:").unwrap());
    assert!(shown.contains("NEEDLE"), "{}", lines[1]);
    assert!(shown.len() <= 500);
    assert_eq!(before + shown.len() + after, long.len());
    // Context lines have no match: cut from the start with read-file's marker.
    for (i, n) in [(0, 1), (2, 3)] {
        let text = lines[i].strip_prefix(&format!("m.txt-{n}-")).unwrap();
        let (before, shown, after) = window_parts(text);
        assert_eq!(before, 0, "{text}");
        assert!(shown.len() <= 500 && shown.len() > 496);
        assert_eq!(shown.len() + after, context_line.len());
    }
}

// ---- defect 3: special files ----

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
}

/// Runs agtool with `args` (and `stdin` for call), failing the test if it has not finished
/// within 10 seconds: a FIFO opened blocking would hang until the tool's own timeout.
fn run_bounded(ws: &Ws, args: &[&str], stdin: Option<String>) -> Run {
    use std::io::Write;
    let mut cmd = ws.std_cmd_in(&ws.root);
    cmd.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(stdin.unwrap_or_default().as_bytes())
        .unwrap();
    drop(input);
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agtool {args:?} hung on a special file");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Run::from(child.wait_with_output().unwrap())
}

fn call_bounded(ws: &Ws, tool: &str, args: serde_json::Value) -> Run {
    run_bounded(
        ws,
        &["--groups", "all", "call", tool],
        Some(args.to_string()),
    )
}

#[test]
fn no_tool_opens_a_fifo() {
    let ws = Ws::new();
    ws.write("a.txt", "needle\n").mkdir("sub");
    mkfifo(&ws.path("pipe"));
    mkfifo(&ws.path("sub/pipe.txt"));
    // Named directly: a clear refusal, at once.
    for (tool, args) in [
        ("read_file", json!({"path": "pipe"})),
        ("grep", json!({"pattern": "needle", "path": "pipe"})),
        ("write_file", json!({"path": "pipe", "content": "x"})),
        ("edit_file", json!({"path": "pipe", "old": "a", "new": "b"})),
        (
            "edit_lines",
            json!({"edits": [{"path": "pipe", "from_anchor": "1:00", "replace": "x"}]}),
        ),
        (
            "apply_patch",
            json!({"input": "*** Begin Patch\n*** Update File: pipe\n@@\n-a\n+b\n*** End Patch\n"}),
        ),
        ("list_dir", json!({"path": "pipe"})),
        ("glob", json!({"pattern": "*", "path": "pipe"})),
        ("exec", json!({"command": ["true"], "workdir": "pipe"})),
    ] {
        let r = call_bounded(&ws, tool, args);
        r.code(1);
        assert!(r.out.contains("pipe"), "{tool}: {}", r.out);
    }
    let r = call_bounded(&ws, "grep", json!({"pattern": "needle", "path": "pipe"}));
    assert!(r.out.contains("fifo"), "{}", r.out);
    // Met in a walk: skipped, counted, never opened.
    let r = run_bounded(&ws, &["grep", "needle", "--names", "false"], None);
    assert_eq!(
        r.ok(),
        "a.txt\n(skipped 2 special files: fifo, socket or device)\n"
    );
    let r = run_bounded(&ws, &["--json", "grep", "needle"], None);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["special_files"], 2, "{}", r.out);
    // Listed (not opened) by glob and list-dir; read-file of the folder lists it too.
    let r = run_bounded(&ws, &["glob", "**/pipe*"], None);
    let mut got = r.lines();
    got.sort();
    assert_eq!(got, ["pipe", "sub/pipe.txt"]);
    assert!(
        run_bounded(&ws, &["list-dir"], None)
            .ok()
            .contains("pipe?\n")
    );
    assert!(
        run_bounded(&ws, &["read-file", "sub"], None)
            .ok()
            .contains("pipe.txt?\n")
    );
    // delete-path removes the FIFO itself without opening it.
    let r = call_bounded(&ws, "delete_path", json!({"path": "sub/pipe.txt"}));
    r.code(0);
    assert!(std::fs::symlink_metadata(ws.path("sub/pipe.txt")).is_err());
}

#[test]
fn sockets_are_refused_and_skipped_too() {
    let ws = Ws::new();
    ws.write("a.txt", "needle\n");
    let _listener = std::os::unix::net::UnixListener::bind(ws.path("sock")).unwrap();
    let r = call_bounded(&ws, "read_file", json!({"path": "sock"}));
    r.code(1);
    assert!(r.out.contains("socket"), "{}", r.out);
    let r = call_bounded(&ws, "grep", json!({"pattern": "x", "path": "sock"}));
    r.code(1);
    assert!(r.out.contains("socket"), "{}", r.out);
    let r = run_bounded(&ws, &["grep", "needle", "--names", "false"], None);
    assert_eq!(
        r.ok(),
        "a.txt\n(skipped 1 special file: fifo, socket or device)\n"
    );
}

// ---- defect 4: file names that are not UTF-8 ----

/// A workspace holding `caf\xe9.txt` (Latin-1 bytes in the name).
fn latin1_name() -> (Ws, std::path::PathBuf) {
    let ws = Ws::new();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    let path = ws.root.join(name);
    std::fs::write(&path, "needle\n").unwrap();
    (ws, path)
}

#[test]
fn non_utf8_names_print_escaped_in_every_listing() {
    let (ws, _) = latin1_name();
    ws.mkdir(std::str::from_utf8(b"dir").unwrap());
    std::fs::write(
        ws.root.join(std::ffi::OsStr::from_bytes(b"dir/\xff\xfe")),
        "x\n",
    )
    .unwrap();
    let list = ws.run(&["list-dir"]);
    assert!(list.ok().contains("caf\\xe9.txt\n"), "{}", list.out);
    assert!(list.out.contains("  \\xff\\xfe\n"), "{}", list.out);
    assert!(!list.out.contains('\u{FFFD}'));
    let glob = ws.run(&["glob", "*"]);
    let mut got = glob.lines();
    got.sort();
    assert_eq!(got, ["caf\\xe9.txt", "dir/\\xff\\xfe"]);
    let grep = ws.run(&["grep", "needle", "--output", "content", "--names", "false"]);
    assert_eq!(grep.ok(), "caf\\xe9.txt:1:needle\n");
}

#[test]
fn the_escaped_form_names_the_file_in_every_path_argument() {
    let (ws, path) = latin1_name();
    let spelled = "caf\\xe9.txt";
    let r = ws.run(&["read-file", spelled]);
    assert!(r.ok().starts_with("[caf\\xe9.txt#"), "{}", r.out);
    ws.run(&["grep", "needle", spelled]).ok();
    ws.call(
        "edit_file",
        &json!({"path": spelled, "old": "needle", "new": "thread"}),
    )
    .code(0);
    assert_eq!(std::fs::read(&path).unwrap(), b"thread\n");
    ws.call("write_file", &json!({"path": spelled, "content": "pin\n"}))
        .code(0);
    assert_eq!(std::fs::read(&path).unwrap(), b"pin\n");
    let r = ws.run(&["read-file", spelled, "--anchors", "true"]);
    let anchor = r
        .ok()
        .lines()
        .nth(1)
        .unwrap()
        .split('|')
        .next()
        .unwrap()
        .to_owned();
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": spelled, "from_anchor": anchor, "replace": "nail"}]}),
    )
    .code(0);
    assert_eq!(std::fs::read(&path).unwrap(), b"nail\n");
    let patch =
        format!("*** Begin Patch\n*** Update File: {spelled}\n@@\n-nail\n+screw\n*** End Patch\n");
    let r = ws.call("apply_patch", &json!({"input": patch}));
    r.code(0);
    assert!(r.out.contains("M [caf\\xe9.txt#"), "{}", r.out);
    assert_eq!(std::fs::read(&path).unwrap(), b"screw\n");
    // A new file with such a name, and a folder as list-dir/glob path and exec workdir.
    ws.call(
        "write_file",
        &json!({"path": "d\\xff/n\\xe9w.txt", "content": "x\n"}),
    )
    .code(0);
    assert!(
        ws.root
            .join(std::ffi::OsStr::from_bytes(b"d\xff/n\xe9w.txt"))
            .is_file()
    );
    assert!(
        ws.run(&["list-dir", "d\\xff"])
            .ok()
            .contains("n\\xe9w.txt\n")
    );
    assert_eq!(
        ws.run(&["glob", "*.txt", "d\\xff"]).ok(),
        "d\\xff/n\\xe9w.txt\n"
    );
    let r = ws.call("exec", &json!({"command": ["ls"], "workdir": "d\\xff"}));
    assert!(
        r.ok().contains("n\u{FFFD}w.txt") || r.out.contains("n\\xe9w.txt"),
        "{}",
        r.out
    );
    ws.call("delete_path", &json!({"path": spelled})).code(0);
    assert!(!path.exists());
}

#[test]
fn names_with_backslashes_round_trip() {
    let ws = Ws::new();
    // A valid UTF-8 name with a backslash that is not escape syntax prints unchanged; one that
    // looks like an escape prints with the backslash doubled, and both forms name it back.
    ws.write("a\\b.txt", "one\n").write("x\\x41.txt", "two\n");
    let mut got = ws
        .run(&["glob", "*.txt"])
        .ok()
        .lines()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    got.sort();
    assert_eq!(got, ["a\\b.txt", "x\\\\x41.txt"]);
    assert!(ws.run(&["read-file", "a\\b.txt"]).ok().contains("L1: one"));
    assert!(
        ws.run(&["read-file", "x\\\\x41.txt"])
            .ok()
            .contains("L1: two")
    );
    // `\x41` is the byte 0x41, `A`.
    ws.write("xA.txt", "three\n");
    assert!(
        ws.run(&["read-file", "x\\x41.txt"])
            .ok()
            .contains("L1: three")
    );
}

/// An ignore file that is a FIFO blocked the walker's read of it: grep and glob stalled for
/// the whole timeout (attack on list-dir, finding 5; the walk of grep and glob had it too).
/// Its folder is now left out with a `(skipped: ...)` line, and the searched folder's own is
/// refused at once.
#[test]
fn an_ignore_file_that_is_a_fifo_never_stalls_grep_or_glob() {
    let ws = Ws::new();
    ws.mkdir(".git")
        .write("sub/inner.txt", "needle\n")
        .write("top.txt", "needle\n");
    let made = std::process::Command::new("mkfifo")
        .arg(ws.path("sub/.ignore"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let started = std::time::Instant::now();
    let grep = ws.run(&["grep", "needle", "--timeout-ms", "20000"]);
    let glob = ws.run(&["glob", "**/*.txt", "--timeout-ms", "20000"]);
    assert!(
        started.elapsed().as_secs() < 10,
        "stalled: {grep:?} {glob:?}"
    );
    let skipped = "(skipped: sub: not searched: its .ignore is a fifo, not a file)";
    assert_eq!(grep.ok().lines().collect::<Vec<_>>(), ["top.txt", skipped]);
    assert_eq!(glob.ok().lines().collect::<Vec<_>>(), ["top.txt", skipped]);
    let own = ws.run(&["grep", "needle", "sub", "--timeout-ms", "20000"]);
    own.code(1);
    assert!(own.out.contains("its .ignore is a fifo"), "{own:?}");
    let all = ws.run(&["glob", "**/*.txt", "--ignored", "true"]);
    assert!(all.ok().contains("sub/inner.txt"), "{all:?}");
}

/// Attack on today's walk checks (notes/attack-final.md): an ignore file is read whole by the
/// walker, so one that leads to /dev/zero (a symlink) or is huge took memory without end
/// (1.2 GB/s); a FIFO above the searched folder, behind a symlink, or as .git/info/exclude
/// still stalled the call; and a folder named .gitignore hid its whole folder.
#[test]
fn ignore_files_that_cannot_be_read_whole_never_stall_or_flood() {
    let timed = |ws: &Ws, args: &[&str]| {
        let started = Instant::now();
        let run = ws.run(args);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "stalled: {run:?}"
        );
        run
    };
    // A symlink to a device, and a file over 1 MiB: their folders are left out, and said so.
    let ws = Ws::new();
    ws.mkdir(".git")
        .write("zero/a.txt", "needle\n")
        .write("huge/b.txt", "needle\n")
        .write("dirnamed/c.txt", "needle\n")
        .write("top.txt", "needle\n");
    std::os::unix::fs::symlink("/dev/zero", ws.path("zero/.gitignore")).unwrap();
    let huge = std::fs::File::create(ws.path("huge/.ignore")).unwrap();
    huge.set_len(2 << 20).unwrap();
    ws.mkdir("dirnamed/.gitignore");
    let zero = "zero: not searched: its .gitignore is a device, not a file";
    let big =
        "huge: not searched: its .ignore is larger than the 1048576 bytes an ignore file may hold";
    for args in [&["grep", "needle"][..], &["glob", "**/*.txt"]] {
        let out = timed(&ws, args);
        let mut lines: Vec<&str> = out.ok().lines().collect();
        lines[..2].sort(); // newest first: the same second here
        assert_eq!(
            lines,
            [
                "dirnamed/c.txt".to_owned(),
                "top.txt".to_owned(),
                format!("(skipped: {big})"),
                format!("(skipped: {zero})"),
            ],
            "{args:?}"
        );
    }
    let out = timed(&ws, &["list-dir", "--depth", "3"]);
    assert!(
        out.ok()
            .contains("(skipped: zero: not entered: its .gitignore is a device, not a file)"),
        "{out:?}"
    );
    assert!(
        out.ok().contains("  c.txt\n"),
        "a folder named .gitignore hid its folder: {out:?}"
    );
    // A FIFO above the searched folder, and .git/info/exclude as a FIFO: refused at once.
    let ws = Ws::new();
    ws.mkdir(".git/info").write("sub/inner/a.txt", "needle\n");
    let fifo = |p: &Path| {
        let made = std::process::Command::new("mkfifo").arg(p).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    };
    fifo(&ws.path("sub/.gitignore"));
    let out = timed(&ws, &["grep", "needle", "sub/inner"]);
    out.code(1);
    assert!(
        out.out
            .contains("sub/.gitignore is a fifo, not a file; search with ignored=true"),
        "{out:?}"
    );
    let out = timed(&ws, &["list-dir", "sub/inner"]);
    out.code(1);
    assert!(out.out.contains("sub/.gitignore is a fifo"), "{out:?}");
    std::fs::remove_file(ws.path("sub/.gitignore")).unwrap();
    fifo(&ws.path(".git/info/exclude"));
    let out = timed(&ws, &["glob", "**/*.txt"]);
    out.code(1);
    assert!(
        out.out.contains("its .git/info/exclude is a fifo"),
        "{out:?}"
    );
    assert!(
        timed(&ws, &["glob", "**/*.txt", "--ignored", "true"])
            .ok()
            .contains("sub/inner/a.txt")
    );
}
