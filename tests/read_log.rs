//! The read log (spec 01, "State store"; issue 18 §7, start-up row): a read appends its
//! freshness record to `.agent-state/reads.log` without opening the database, and whoever next
//! opens the database folds the log in first. Records are never lost under parallel reads and
//! folds, a torn line counts as no read, the log stays bounded, and anything but a regular
//! file in its place is refused, never followed and never waited on.

mod common;

use std::time::{Duration, Instant};

use common::{Ws, tag};

fn setup() -> Ws {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    ws
}

/// The log line agtool writes for `agent` having been shown `content` of `rel`.
fn record(ws: &Ws, agent: &str, rel: &str, content: &[u8]) -> String {
    let real = std::fs::canonicalize(ws.path(rel)).unwrap();
    serde_json::json!({
        "agent": agent,
        "path": real.to_str().unwrap(),
        "tag": tag(content),
        "at_ms": now_ms(),
    })
    .to_string()
}

fn edit(ws: &Ws, rel: &str, old: &str, new: &str) -> common::Run {
    ws.run(&["edit-file", rel, "--old", old, "--new", new])
}

#[test]
fn a_read_opens_no_database_and_the_next_edit_folds_it_in() {
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    assert!(
        !ws.path(".agent-state/state.db").exists(),
        "a read must not open the database"
    );
    let log = String::from_utf8(ws.read(".agent-state/reads.log")).unwrap();
    // One record, on a line of its own (a newline before it too, see the cut-line test).
    assert_eq!(log.lines().filter(|l| !l.is_empty()).count(), 1, "{log}");
    assert!(log.starts_with('\n') && log.ends_with('\n'), "{log}");
    let line: serde_json::Value = serde_json::from_str(log.trim()).unwrap();
    let real = std::fs::canonicalize(ws.path("a.txt")).unwrap();
    assert_eq!(line["agent"], "default");
    assert_eq!(line["path"], real.to_str().unwrap());
    assert_eq!(line["tag"], tag(b"one\n"));
    assert!(line["at_ms"].as_i64().unwrap() > 1_700_000_000_000, "{log}");
    edit(&ws, "a.txt", "one", "two").ok();
    assert_eq!(ws.read("a.txt"), b"two\n");
    assert_eq!(
        ws.read(".agent-state/reads.log"),
        b"",
        "folded in and emptied"
    );
    let show = ws.run(&["state", "show"]);
    assert!(show.ok().starts_with("a.txt  default  "), "{show:?}");
}

#[test]
fn torn_and_foreign_lines_count_as_no_read() {
    let ws = setup();
    ws.write("b.txt", "bee\n");
    ws.write("c.txt", "sea\n");
    ws.mkdir(".agent-state");
    let b = record(&ws, "default", "b.txt", b"bee\n");
    let c = record(&ws, "default", "c.txt", b"sea\n");
    // A whole record for a.txt, garbage, a record for c.txt cut short by a killed writer and
    // then glued to the next append (b.txt's), as O_APPEND does.
    let log = format!(
        "{}\nnot json at all\n{{\"agent\":1}}\n{}{}\n",
        record(&ws, "default", "a.txt", b"one\n"),
        &c[..c.len() - 5],
        b
    );
    ws.write(".agent-state/reads.log", log);
    edit(&ws, "a.txt", "one", "two").ok();
    for rel in ["b.txt", "c.txt"] {
        let run = edit(&ws, rel, "e", "E");
        run.code(1);
        assert!(run.out.contains("before editing it"), "{rel}: {run:?}");
    }
    assert_eq!(ws.read("b.txt"), b"bee\n");
    assert_eq!(ws.read("c.txt"), b"sea\n");
}

#[test]
fn a_record_for_another_agent_does_not_let_this_one_edit() {
    let ws = setup();
    ws.run(&["--agent", "other", "read-file", "a.txt"]).ok();
    let run = edit(&ws, "a.txt", "one", "two");
    run.code(1);
    assert!(run.out.contains("before editing it"), "{run:?}");
    ws.run(&[
        "--agent",
        "other",
        "edit-file",
        "a.txt",
        "--old",
        "one",
        "--new",
        "two",
    ])
    .ok();
}

#[test]
fn a_long_log_is_folded_in_by_the_read_that_passes_the_bound() {
    let ws = setup();
    ws.mkdir(".agent-state");
    // 1.2 MiB of lines agtool did not write: past the bound, the read opens the database.
    let junk = "x".repeat(99) + "\n";
    ws.write(".agent-state/reads.log", junk.repeat(12_583));
    ws.run(&["read-file", "a.txt"]).ok();
    assert_eq!(ws.read(".agent-state/reads.log"), b"");
    assert!(ws.path(".agent-state/state.db").exists());
    edit(&ws, "a.txt", "one", "two").ok();
}

#[test]
fn a_log_line_past_the_record_bound_is_skipped_without_reading_it_whole() {
    let ws = setup();
    ws.mkdir(".agent-state");
    // The peak RSS of an edit that folds a one-record log, to compare with.
    ws.write("b.txt", "bee\n");
    ws.run(&["read-file", "b.txt"]).ok();
    let child = ws
        .std_cmd_in(&ws.root)
        .args(["edit-file", "b.txt", "--old", "bee", "--new", "B"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (code, base_kib) = wait_with_peak_rss(child);
    assert_eq!(code, 0);
    // One 15 MiB line (under the log's cap, far past a record's bound), then a good record:
    // memory stays bounded, the good record counts.
    let path = ws.path(".agent-state/reads.log");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&path).unwrap();
        let chunk = vec![b'{'; 1 << 20];
        for _ in 0..15 {
            f.write_all(&chunk).unwrap();
        }
        writeln!(f).unwrap();
        writeln!(f, "{}", record(&ws, "default", "a.txt", b"one\n")).unwrap();
    }
    let child = ws
        .std_cmd_in(&ws.root)
        .args(["edit-file", "a.txt", "--old", "one", "--new", "two"])
        .stdout(std::process::Stdio::from(
            std::fs::File::create(ws.base.join("edit.out")).unwrap(),
        ))
        .spawn()
        .unwrap();
    let (code, rss_kib) = wait_with_peak_rss(child);
    let said = std::fs::read_to_string(ws.base.join("edit.out")).unwrap();
    assert_eq!(code, 0, "{said}");
    assert!(
        rss_kib < base_kib + 8 * 1024,
        "peak RSS {rss_kib} KiB, {base_kib} KiB with a short log"
    );
    assert_eq!(ws.read("a.txt"), b"two\n");
}

#[test]
fn a_fifo_or_symlink_in_place_of_the_log_is_refused_at_once() {
    for kind in ["fifo", "symlink", "folder"] {
        let ws = setup();
        let outside = ws.base.join("outside");
        std::fs::create_dir(&outside).unwrap();
        ws.mkdir(".agent-state");
        let log = ws.path(".agent-state/reads.log");
        match kind {
            "fifo" => rustix::fs::mknodat(
                rustix::fs::CWD,
                &log,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o644),
                0,
            )
            .unwrap(),
            "symlink" => std::os::unix::fs::symlink(outside.join("target"), &log).unwrap(),
            _ => std::fs::create_dir(&log).unwrap(),
        }
        let start = Instant::now();
        let read = ws.run(&["read-file", "a.txt"]);
        assert!(read.ok().contains("L1: one"), "{kind}: {read:?}");
        assert!(
            read.out.contains("the tag was not recorded"),
            "{kind}: {read:?}"
        );
        assert!(read.out.contains("reads.log"), "{kind}: {read:?}");
        // The next process that opens the database moves it aside, unread, and says so; the
        // read it could not record is refused as unread.
        let run = edit(&ws, "a.txt", "one", "two");
        run.code(1);
        assert!(run.out.contains("moved aside unread"), "{kind}: {run:?}");
        assert!(start.elapsed() < Duration::from_secs(10), "{kind}");
        assert!(
            std::fs::read_dir(&outside).unwrap().next().is_none(),
            "{kind}: nothing made where the link points"
        );
        // No reset needed: a read now records, and the edit lands.
        ws.run(&["read-file", "a.txt"]).ok();
        edit(&ws, "a.txt", "one", "two").ok();
        assert_eq!(ws.read("a.txt"), b"two\n", "{kind}");
        assert_eq!(set_aside(&ws).len(), 1, "{kind}");
    }
}

/// The names of the read logs moved aside in `ws`.
fn set_aside(ws: &Ws) -> Vec<String> {
    std::fs::read_dir(ws.path(".agent-state"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("reads.log."))
        .collect()
}

#[test]
fn state_reset_drops_reads_still_in_the_log() {
    let ws = setup();
    ws.run(&["state", "show"]).ok();
    ws.run(&["read-file", "a.txt"]).ok();
    ws.run(&["state", "reset"]).ok();
    let run = edit(&ws, "a.txt", "one", "two");
    run.code(1);
    assert!(run.out.contains("before editing it"), "{run:?}");
}

#[test]
fn parallel_reads_and_folds_lose_no_record() {
    const FILES: usize = 48;
    let ws = Ws::new();
    for i in 0..FILES {
        ws.write(&format!("f{i:02}.txt"), format!("file {i}\n"));
    }
    ws.run(&["state", "show"]).ok();
    // Reads (appending) and `state show` calls (each folding the log in and emptying it) at
    // the same time: every read's record must end in the table.
    let readers: Vec<_> = (0..FILES)
        .map(|i| {
            ws.std_cmd_in(&ws.root)
                .args(["read-file", &format!("f{i:02}.txt")])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let folders: Vec<_> = (0..16)
        .map(|_| {
            ws.std_cmd_in(&ws.root)
                .args(["state", "show"])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in readers {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success());
        assert!(!String::from_utf8_lossy(&out.stdout).contains("not recorded"));
    }
    for mut c in folders {
        assert!(c.wait().unwrap().success());
    }
    let show = ws.run(&["state", "show"]);
    assert_eq!(show.ok().lines().count(), FILES, "{}", show.out);
    for i in 0..FILES {
        edit(&ws, &format!("f{i:02}.txt"), "file", "FILE").ok();
    }
}

/// Exit status and peak resident memory in KiB of a child (waits for it).
fn wait_with_peak_rss(child: std::process::Child) -> (i32, i64) {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as i32;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// Now, in ms since the Unix epoch, as agtool stamps a record.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Attack finding: a process holding the log's lock (stopped mid-append, or anyone with
/// `flock`) made reads and edits wait until the tool's own timeout. A read still shows the
/// file, saying its read was not recorded; an edit fails naming the log, both within seconds.
#[test]
fn a_held_log_lock_is_waited_on_for_seconds_not_forever() {
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    // As a process stopped in the middle of an append or a fold would hold it.
    let holder = std::fs::File::open(ws.path(".agent-state/reads.log")).unwrap();
    holder.lock().unwrap();
    let t = Instant::now();
    let read = ws.run(&["read-file", "a.txt"]);
    let out = read.ok();
    assert!(out.contains("L1: one"), "{out}");
    assert!(out.contains("reads.log"), "{out}");
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    let t = Instant::now();
    let run = edit(&ws, "a.txt", "one", "two");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out.contains("reads.log"), "{run:?}");
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    assert_eq!(ws.read("a.txt"), b"one\n");
    drop(holder);
    ws.run(&["read-file", "a.txt"]).ok();
    edit(&ws, "a.txt", "one", "two").ok();
}

/// Attack finding: a log of gigabytes (not one agtool writes: it folds at 1 MiB) made every
/// read and edit run into its timeout, every time. Past 64 MiB the log is set aside, said once.
#[test]
fn a_log_past_its_cap_is_set_aside_not_read() {
    let ws = setup();
    ws.mkdir(".agent-state");
    let log = std::fs::File::create(ws.path(".agent-state/reads.log")).unwrap();
    log.set_len(20 << 30).unwrap();
    let t = Instant::now();
    let read = ws.run(&["read-file", "a.txt"]);
    let out = read.ok();
    assert!(out.contains("L1: one"), "{out}");
    // The read that met it says so, and its own record went into a new log.
    assert!(out.contains("moved aside unread"), "{out}");
    assert!(!out.contains("the tag was not recorded"), "{out}");
    let run = edit(&ws, "a.txt", "one", "two");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(ws.read("a.txt"), b"two\n");
    assert_eq!(set_aside(&ws).len(), 1);
}

/// Attack finding: a write cut short (a full disk) left half a line; the next read's record
/// was glued to it and lost, and the edit after it was refused as "changed since you last
/// read it". Each record starts on a line of its own.
#[test]
fn a_record_after_a_cut_line_still_counts() {
    let ws = setup();
    ws.mkdir(".agent-state");
    ws.write(".agent-state/reads.log", "{\"agen");
    ws.run(&["read-file", "a.txt"]).ok();
    edit(&ws, "a.txt", "one", "two").ok();
    assert_eq!(ws.read("a.txt"), b"two\n");
}

/// Attack finding: an agent id too long for a log line let reads show nothing wrong and every
/// edit be refused as unread. Such an id is a usage error.
#[test]
fn an_agent_id_past_its_bound_is_a_usage_error() {
    let ws = setup();
    let long = "a".repeat(70_000);
    let run = ws.run(&["--agent", &long, "read-file", "a.txt"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.out.contains("agent id") || run.err.contains("agent id"),
        "{run:?}"
    );
}

/// Attack finding: a hard link in place of the log (O_NOFOLLOW does not see one) had agtool
/// append to, then empty, a file outside the workspace.
#[test]
fn a_hard_linked_log_is_refused_and_the_outside_file_kept() {
    let ws = setup();
    ws.mkdir(".agent-state");
    let outside = ws.base.join("precious.txt");
    std::fs::write(&outside, "keep me\n").unwrap();
    std::fs::hard_link(&outside, ws.path(".agent-state/reads.log")).unwrap();
    let read = ws.run(&["read-file", "a.txt"]);
    assert!(read.ok().contains("L1: one"));
    let run = edit(&ws, "a.txt", "one", "two");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out.contains("hard links"), "{run:?}");
    assert!(run.out.contains("moved aside unread"), "{run:?}");
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep me\n");
    ws.run(&["read-file", "a.txt"]).ok();
    edit(&ws, "a.txt", "one", "two").ok();
    ws.run(&["state", "reset"]).ok();
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep me\n");
}

/// Attack finding: two things set aside in the same second collided (`Is a directory`, or
/// the first copy silently overwritten).
#[test]
fn state_reset_twice_in_a_second_keeps_both_set_aside() {
    let ws = setup();
    ws.mkdir(".agent-state/reads.log");
    ws.run(&["state", "reset"]).ok();
    let status = std::process::Command::new("mkfifo")
        .arg(ws.path(".agent-state/reads.log"))
        .status()
        .unwrap();
    assert!(status.success());
    ws.run(&["state", "reset"]).ok();
    ws.run(&["read-file", "a.txt"]).ok();
    edit(&ws, "a.txt", "one", "two").ok();
}

/// Attack finding (older than the log): records were keyed by the path made lossy UTF-8, so a
/// read of `bad\xff` let an edit of the never-read `bad\xfe` through (same content). On the
/// command line such names are spelled as list-dir shows them (`bad\xff`).
#[test]
fn names_that_differ_in_bytes_that_are_not_utf8_are_different_records() {
    use std::os::unix::ffi::OsStrExt;
    let ws = setup();
    let ff = ws.root.join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    let fe = ws.root.join(std::ffi::OsStr::from_bytes(b"bad\xfe"));
    std::fs::write(&ff, "same\n").unwrap();
    std::fs::write(&fe, "same\n").unwrap();
    std::fs::write(ws.path("bad\u{fffd}"), "same\n").unwrap();
    ws.run(&["read-file", "bad\\xff"]).ok();
    let run = edit(&ws, "bad\\xfe", "same", "x");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out.contains("before editing"), "{run:?}");
    assert_eq!(std::fs::read(&fe).unwrap(), b"same\n");
    let run = edit(&ws, "bad\u{fffd}", "same", "x");
    assert!(run.out.contains("before editing"), "{run:?}");
    edit(&ws, "bad\\xff", "same", "x").ok();
    assert_eq!(std::fs::read(&ff).unwrap(), b"x\n");
}

/// Second attack: an `AGTOOL_AGENT` that is not UTF-8 silently became the agent `default`
/// (two such ids shared its reads). It is a usage error, as `--agent` with one is; so is an id
/// with control characters (`state show` printed them raw, faking rows).
#[test]
fn an_agent_id_not_utf8_or_with_control_characters_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let ws = setup();
    let out = ws
        .std_cmd_in(&ws.root)
        .env("AGTOOL_AGENT", std::ffi::OsStr::from_bytes(b"\xff"))
        .args(["read-file", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("AGTOOL_AGENT"),
        "{out:?}"
    );
    let run = ws.run(&["--agent", "a\nb", "read-file", "a.txt"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(!ws.path(".agent-state/reads.log").exists());
}

/// Second attack: the fold took any well-formed line (a 5,000-byte agent id, a relative or
/// empty path, a tag that is not one, a time in the far future that exempted the agent from
/// idle pruning). Records agtool could not have written are skipped.
#[test]
fn records_agtool_could_not_have_written_are_not_folded_in() {
    let ws = setup();
    ws.mkdir(".agent-state");
    let real = std::fs::canonicalize(ws.path("a.txt")).unwrap();
    let real = real.to_str().unwrap();
    let good = tag(b"one\n");
    let line = |agent: &str, path: &str, tag: &str, at: i64| {
        serde_json::json!({"agent": agent, "path": path, "tag": tag, "at_ms": at}).to_string()
    };
    let log = [
        line(&"x".repeat(5000), real, &good, now_ms()),
        line("rel", "a.txt", &good, now_ms()),
        line("empty", "", &good, now_ms()),
        line("badtag", real, "zz", now_ms()),
        line("ctl", real, &good, now_ms()).replace("\"ctl\"", "\"c\\u0007tl\""),
        line("neg", real, &good, -5),
    ]
    .join("\n");
    ws.write(".agent-state/reads.log", format!("{log}\n"));
    let show = ws.run(&["state", "show"]);
    assert_eq!(show.ok().trim(), "No reads recorded.", "{show:?}");
    // A time in the future is taken as now.
    ws.write(
        ".agent-state/reads.log",
        format!(
            "{}\n",
            line("future", real, &good, now_ms() + 10 * 365 * 86_400_000)
        ),
    );
    let show = ws.run(&["state", "show"]);
    let year = show.ok().split_whitespace().nth(3).unwrap().to_owned();
    assert!(!year.starts_with("203"), "{show:?}");
}

/// Second attack: `state show` spelled keys of names that are not UTF-8 (or hold a
/// backslash) escaped twice, so pasting what it showed into `state forget` forgot another
/// file. It shows names as read-file and list-dir spell them.
#[test]
fn state_show_spells_names_as_the_other_tools_do() {
    use std::os::unix::ffi::OsStrExt;
    let ws = setup();
    std::fs::write(ws.root.join(std::ffi::OsStr::from_bytes(b"a\xff")), "1\n").unwrap();
    std::fs::write(ws.path("a\\xff"), "2\n").unwrap();
    let header = ws
        .run(&["read-file", "a\\xff"])
        .ok()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    assert!(header.starts_with("[a\\xff#"), "{header}");
    let header2 = ws
        .run(&["read-file", "a\\\\xff"])
        .ok()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let show = ws.run(&["state", "show"]);
    let names: Vec<&str> = show
        .ok()
        .lines()
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    let mut want = vec![
        header[1..header.find('#').unwrap()].to_owned(),
        header2[1..header2.find('#').unwrap()].to_owned(),
    ];
    want.sort();
    let mut got: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    got.sort();
    assert_eq!(got, want, "{show:?}");
    // What it shows, pasted into forget, forgets that file.
    ws.run(&["state", "forget", "a\\xff"]).ok();
    let show = ws.run(&["state", "show"]);
    assert!(show.ok().starts_with("a\\\\xff  "), "{show:?}");
}

/// Second attack: `state forget /` (or any folder above the workspace) forgot every record,
/// although no tool may name a path outside the workspace.
#[test]
fn state_forget_refuses_a_path_outside_the_workspace() {
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    for path in ["/", ".."] {
        let run = ws.run(&["state", "forget", path]);
        assert_eq!(run.code, 1, "{run:?}");
        assert!(run.out.contains("outside the workspace"), "{run:?}");
    }
    edit(&ws, "a.txt", "one", "two").ok();
}

/// Second attack: with the database held by another process, an edit waited 10 s (5 s in
/// the best-effort pruning of idle agents, then 5 s for its own work) while its message said
/// 5 s. Pruning never waits.
#[test]
fn a_held_database_is_waited_on_once() {
    let ws = setup();
    ws.run(&["state", "show"]).ok();
    ws.run(&["read-file", "a.txt"]).ok();
    let db = rusqlite::Connection::open(ws.path(".agent-state/state.db")).unwrap();
    // As if the last pruning were long ago, so this call prunes.
    db.execute("DELETE FROM kv", []).unwrap();
    db.execute_batch("BEGIN IMMEDIATE").unwrap();
    let t = Instant::now();
    let run = edit(&ws, "a.txt", "one", "two");
    let took = t.elapsed();
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out.contains("waited 5 s"), "{run:?}");
    assert!(took < Duration::from_secs(8), "{took:?}");
    db.execute_batch("ROLLBACK").unwrap();
    edit(&ws, "a.txt", "one", "two").ok();
}

/// An empty `--agent` means the default agent, as an empty `AGTOOL_AGENT` does (it was an
/// agent named "" that every such process shared).
#[test]
fn an_empty_agent_id_is_the_default_agent() {
    let ws = setup();
    ws.run(&["--agent", "", "read-file", "a.txt"]).ok();
    edit(&ws, "a.txt", "one", "two").ok();
    let show = ws.run(&["state", "show"]);
    assert!(show.ok().starts_with("a.txt  default  "), "{show:?}");
}
