//! The state folder is not trusted blindly (issue 12, item 4; spec 01 "Races and crashes" and
//! "State store"): no symlink in it is ever followed (nothing is created where one points), a
//! corrupt database is moved aside and replaced (said once), a database held by another
//! process makes a call give up within seconds naming it, and a read-only one is named as the
//! reason an edit is refused.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Run, Ws, is_root};

/// A workspace with `a.txt` and a folder `outside` beside the root.
fn setup() -> Ws {
    let ws = Ws::new();
    ws.write("a.txt", "one\n");
    std::fs::create_dir(ws.base.join("outside")).unwrap();
    ws
}

/// Everything under `dir`, as sorted relative paths.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The calls a model makes, each of which uses the state folder.
fn every_kind_of_call(ws: &Ws) -> Vec<Run> {
    vec![
        ws.run(&["read-file", "a.txt"]),
        ws.run(&["edit-file", "a.txt", "--old", "one", "--new", "two"]),
        ws.run(&["write-file", "new.txt", "--content", "x\n"]),
        ws.run(&["state", "show"]),
        ws.run(&["state", "reset"]),
        ws.run(&["exec-command", "--yield-time-ms", "250", "true"]),
        ws.run(&["sessions", "list"]),
        ws.run(&["sessions", "stop-server"]),
    ]
}

#[test]
fn a_symlinked_state_folder_is_refused_and_nothing_is_made_where_it_points() {
    let ws = setup();
    let outside = ws.base.join("outside");
    ws.symlink(&outside, ".agent-state");
    for run in every_kind_of_call(&ws) {
        assert_ne!(run.code, 0, "{run:?}");
        assert!(run.err.contains(".agent-state is a symlink"), "{run:?}");
    }
    assert_eq!(listing(&outside), Vec::<String>::new());
    assert_eq!(std::fs::read(ws.path("a.txt")).unwrap(), b"one\n");
    // The hidden server entry refuses it as well.
    let out = ws
        .cmd()
        .args(["session-server", "--state-dir"])
        .arg(ws.path(".agent-state"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(listing(&outside), Vec::<String>::new());
}

#[test]
fn symlinked_entries_are_refused_and_nothing_is_made_where_they_point() {
    for entry in [
        "state.db",
        "state.db-wal",
        "state.db-shm",
        "reads.log",
        ".gitignore",
        "locks",
        "sessions",
        "config.toml",
    ] {
        let ws = setup();
        let outside = ws.base.join("outside");
        ws.mkdir(".agent-state");
        // A dangling link: following it would create the file outside.
        ws.symlink(outside.join("target"), &format!(".agent-state/{entry}"));
        let runs = every_kind_of_call(&ws);
        assert_eq!(
            listing(&outside),
            Vec::<String>::new(),
            "{entry}: {runs:#?}"
        );
        let all: String = runs.iter().map(|r| format!("{}{}", r.out, r.err)).collect();
        assert!(
            all.contains(&format!("{entry} is a symlink")),
            "{entry}: {all}"
        );
    }
}

#[test]
fn a_garbage_database_is_moved_aside_and_said_once() {
    let ws = setup();
    ws.mkdir(".agent-state");
    ws.write(
        ".agent-state/state.db",
        "this is not a database, not at all, just text\n".repeat(50),
    );
    // An edit: refused as unread (every record is gone), with the note.
    let run = ws.run(&["edit-file", "a.txt", "--old", "one", "--new", "two"]);
    run.code(1);
    assert!(
        run.out.contains("Error: read a.txt before editing it"),
        "{run:?}"
    );
    assert!(
        run.out
            .contains("state database was unusable (file is not a database)"),
        "{run:?}"
    );
    assert!(run.out.contains("freshness records were reset"), "{run:?}");
    assert_eq!(run.out.matches("Note:").count(), 1, "{run:?}");
    let names = listing(&ws.path(".agent-state"));
    let aside: Vec<_> = names
        .iter()
        .filter(|n| n.starts_with("state.db.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "{names:?}");
    assert!(run.out.contains(aside[0].as_str()), "{run:?}");
    // Said once: the next calls work without it.
    let run = ws.run(&["read-file", "a.txt"]);
    assert!(!run.ok().contains("Note:"), "{run:?}");
    let run = ws.run(&["edit-file", "a.txt", "--old", "one", "--new", "two"]);
    assert!(!run.ok().contains("Note:"), "{run:?}");
    assert_eq!(std::fs::read(ws.path("a.txt")).unwrap(), b"two\n");
}

#[test]
fn state_reset_works_on_a_corrupt_database() {
    let ws = setup();
    ws.mkdir(".agent-state");
    ws.write(".agent-state/state.db", vec![0xA5u8; 8192]);
    let run = ws.run(&["state", "reset"]);
    assert!(run.ok().starts_with("State reset"), "{run:?}");
    ws.run(&["state", "show"]).ok();
}

#[test]
fn a_database_held_by_another_process_fails_within_seconds_naming_it() {
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    // A read only appends to the read log; `state show` opens (creates) the database.
    ws.run(&["state", "show"]).ok();
    let db = ws.path(".agent-state/state.db");
    let holder = rusqlite::Connection::open(&db).unwrap();
    holder
        .execute_batch(
            "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; \
             INSERT INTO kv(key, value) VALUES ('held', 'yes');",
        )
        .unwrap();
    let start = Instant::now();
    let (edit, read) = std::thread::scope(|s| {
        let edit = s.spawn(|| ws.run(&["edit-file", "a.txt", "--old", "one", "--new", "two"]));
        let read = s.spawn(|| ws.run(&["read-file", "a.txt"]));
        (edit.join().unwrap(), read.join().unwrap())
    });
    let took = start.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    edit.code(1);
    let named = format!(
        "the state database {} is locked by another process",
        db.display()
    );
    assert!(edit.out.contains(&named), "{edit:?}");
    // A read does not need the database: it shows the file and its tag is recorded in the
    // read log, folded in once the database is free, so the edit then goes through.
    assert!(read.ok().contains("L1: one"), "{read:?}");
    assert!(!read.out.contains("not recorded"), "{read:?}");
    assert_eq!(std::fs::read(ws.path("a.txt")).unwrap(), b"one\n");
    drop(holder);
    ws.run(&["edit-file", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    assert_eq!(std::fs::read(ws.path("a.txt")).unwrap(), b"two\n");
}

#[test]
fn a_read_only_database_is_named_as_the_reason() {
    use std::os::unix::fs::PermissionsExt;
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    ws.run(&["state", "show"]).ok();
    ws.write("a.txt", "changed\n");
    let db = ws.path(".agent-state/state.db");
    if is_root() {
        // As root a file mode stops nothing: run_unprivileged runs agtool as `nobody`. Give
        // it the workspace and the state folder, but leave the database root's, which makes
        // it read-only to that user and nothing else.
        chown_all(&ws.base, common::NOBODY);
        std::os::unix::fs::lchown(&db, Some(0), Some(0)).unwrap();
    } else {
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    // The read appends to the read log, which is writable; the edit cannot fold it in.
    let read = ws.run_unprivileged(&["read-file", "a.txt"]).unwrap();
    assert!(read.ok().contains("L1: changed"), "{read:?}");
    let edit = ws
        .run_unprivileged(&["edit-file", "a.txt", "--old", "changed", "--new", "x"])
        .unwrap();
    edit.code(1);
    assert!(
        !edit.out.contains("changed since you last read it"),
        "{edit:?}"
    );
    // Folding the read log in is the edit's first write to the database: it names the
    // reason itself.
    assert!(
        edit.out
            .contains(&format!("the state database {} is read-only", db.display())),
        "{edit:?}"
    );
}

/// `chown -R uid:uid dir` (not following symlinks).
fn chown_all(dir: &Path, uid: u32) {
    std::os::unix::fs::lchown(dir, Some(uid), Some(uid)).unwrap();
    if std::fs::symlink_metadata(dir).unwrap().is_dir() {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            chown_all(&e.path(), uid);
        }
    }
}

/// Runs `python3 -c SCRIPT DB` (the standard library's sqlite3) on the workspace's database.
fn sqlite(ws: &Ws, script: &str) {
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(ws.path(".agent-state/state.db"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The read-then-edit a model makes, which needs a working freshness table.
fn read_then_edit(ws: &Ws, old: &str, new: &str) -> (Run, Run) {
    let read = ws.run(&["read-file", "a.txt"]);
    let edit = ws.run(&["edit-file", "a.txt", "--old", old, "--new", new]);
    (read, edit)
}

/// Issue 17, item 6: a database of another schema (tables agtool does not know, or a newer
/// user_version) no longer blocks edits: it is moved aside and a fresh one started, said
/// once. Before, every read said "the tag was not recorded" and every edit was refused.
#[test]
fn a_database_of_another_schema_is_moved_aside() {
    for script in [
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
         c.execute('CREATE TABLE freshness (x)'); c.execute('PRAGMA user_version=1'); c.commit()",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
         c.execute('CREATE TABLE other (x)'); c.execute('PRAGMA user_version=7'); c.commit()",
    ] {
        let ws = setup();
        ws.mkdir(".agent-state");
        sqlite(&ws, script);
        let (read, edit) = read_then_edit(&ws, "one", "two");
        assert!(!read.ok().contains("not recorded"), "{read:?}");
        // Said by the first call that opens the database: the edit (a read does not).
        let edit_out = edit.ok();
        assert!(
            edit_out.contains("freshness records were reset"),
            "{edit:?}"
        );
        assert!(edit_out.contains("a.txt"), "{edit:?}");
        assert_eq!(ws.read("a.txt"), b"two\n");
    }
}

/// A damaged page deep in the database (the freshness table's index), which the open does
/// not read, is found by the first write into it: the database is moved aside, a fresh one
/// started, and the call goes on. Before, every read said the tag was not recorded and
/// every edit was refused until the file was removed by hand.
#[test]
fn a_damaged_index_page_is_replaced_when_met() {
    let ws = setup();
    ws.run(&["read-file", "a.txt"]).ok();
    ws.run(&["state", "show"]).ok();
    // Overwrite the index's root page with garbage.
    sqlite(
        &ws,
        "import sqlite3,sys\n\
         c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)')\n\
         ps=c.execute('PRAGMA page_size').fetchone()[0]\n\
         pg=c.execute(\"SELECT rootpage FROM sqlite_master WHERE name='sqlite_autoindex_freshness_1'\").fetchone()[0]\n\
         c.close()\n\
         f=open(sys.argv[1],'r+b'); f.seek((pg-1)*ps); f.write(bytes([0xA5])*ps); f.close()",
    );
    let (read, edit) = read_then_edit(&ws, "one", "two");
    assert!(!read.ok().contains("not recorded"), "{read:?}");
    assert!(edit.ok().contains("a.txt"), "{edit:?}");
    assert_eq!(ws.read("a.txt"), b"two\n");
}

/// `state reset` always works: on a symlinked database (the link is removed, never
/// followed), on another schema, on garbage; afterwards reads and edits work again.
#[test]
fn state_reset_works_whatever_the_database_is() {
    let ws = setup();
    let outside = ws.base.join("outside");
    ws.mkdir(".agent-state");
    std::fs::write(outside.join("victim.db"), "keep me\n").unwrap();
    ws.symlink(outside.join("victim.db"), ".agent-state/state.db");
    let (read, edit) = read_then_edit(&ws, "one", "two");
    assert!(!read.ok().contains("not recorded"), "{read:?}");
    assert_eq!(edit.code, 1, "{edit:?}");
    assert!(edit.out.contains("state.db is a symlink"), "{edit:?}");
    let reset = ws.run(&["state", "reset"]);
    assert!(reset.ok().starts_with("State reset"), "{reset:?}");
    assert!(
        reset.out.contains("removed the symlink state.db"),
        "{reset:?}"
    );
    assert_eq!(
        std::fs::read(outside.join("victim.db")).unwrap(),
        b"keep me\n"
    );
    let (_, edit) = read_then_edit(&ws, "one", "two");
    edit.ok();
    assert_eq!(ws.read("a.txt"), b"two\n");
    std::fs::remove_file(ws.path(".agent-state/state.db")).unwrap();
    let _ = std::fs::remove_file(ws.path(".agent-state/state.db-wal"));
    let _ = std::fs::remove_file(ws.path(".agent-state/state.db-shm"));
    sqlite(
        &ws,
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
         c.execute('CREATE TABLE kv (a)'); c.execute('PRAGMA user_version=1'); c.commit()",
    );
    let reset = ws.run(&["state", "reset"]);
    assert!(reset.ok().starts_with("State reset"), "{reset:?}");
    ws.run(&["state", "show"]).ok();
}
