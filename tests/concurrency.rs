//! 64 read-file processes at once share one state database (spec 01, "State store"): every
//! tag is registered and no "database is locked" reaches the user.

mod common;
use common::*;

const PROCESSES: usize = 64;

/// Starts every process before waiting for any, so they really overlap.
fn run_all(ws: &Ws, argv: impl Fn(usize) -> Vec<String>) -> Vec<Run> {
    let children: Vec<_> = (0..PROCESSES)
        .map(|i| {
            ws.std_cmd_in(&ws.root)
                .args(argv(i))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| Run::from(c.wait_with_output().unwrap()))
        .collect()
}

fn assert_clean(runs: &[Run]) {
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(r.code, 0, "process {i}: {r:?}");
        assert!(!r.out.contains("not recorded"), "process {i}: {}", r.out);
        assert!(
            !r.out.contains("locked") && !r.err.contains("locked"),
            "process {i}: {r:?}"
        );
    }
}

#[test]
fn sixty_four_parallel_reads_all_register_their_tag() {
    let ws = Ws::new();
    for i in 0..PROCESSES {
        ws.write(&format!("f{i:02}.txt"), format!("file {i}\n"));
    }
    let runs = run_all(&ws, |i| vec!["read-file".into(), format!("f{i:02}.txt")]);
    assert_clean(&runs);
    let show = ws.run(&["state", "show"]);
    let text = show.ok();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), PROCESSES, "{text}");
    for (i, row) in rows.iter().enumerate() {
        let want = format!(
            "f{i:02}.txt  default  {}  ",
            tag(format!("file {i}\n").as_bytes())
        );
        assert!(row.starts_with(&want), "row {i}: {row} (want {want})");
    }
}

#[test]
fn sixty_four_agents_reading_the_same_files_keep_one_row_each() {
    let ws = Ws::new();
    for i in 0..4 {
        ws.write(&format!("s{i}.txt"), format!("shared {i}\n"));
    }
    let runs = run_all(&ws, |i| {
        vec![
            "--agent".into(),
            format!("agent{:02}", i % 16),
            "read-file".into(),
            format!("s{}.txt", i % 4),
        ]
    });
    assert_clean(&runs);
    let show = ws.run(&["state", "show"]);
    // Each of the 16 agents read one file, four times over: one row per agent.
    assert_eq!(show.ok().lines().count(), 16, "{}", show.out);
}

#[test]
fn switching_a_busy_new_database_to_wal_waits_instead_of_failing() {
    // Another process is writing to the new database (still in rollback-journal mode, as
    // when another agtool is switching it to WAL) when agtool opens it. SQLite answers
    // agtool's own switch with "database is locked" at once, without calling the busy
    // handler: agtool must wait and retry.
    let ws = Ws::new();
    ws.write("a.txt", "a\n").mkdir(".agent-state");
    let db = rusqlite::Connection::open(ws.path(".agent-state/state.db")).unwrap();
    db.execute_batch("CREATE TABLE other (x); BEGIN IMMEDIATE;")
        .unwrap();
    let child = ws
        .std_cmd_in(&ws.root)
        .args(["read-file", "a.txt"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    db.execute_batch("COMMIT;").unwrap();
    drop(db);
    let out = Run::from(child.wait_with_output().unwrap());
    assert!(!out.ok().contains("not recorded"), "{}", out.out);
    assert!(
        ws.run(&["state", "show"])
            .ok()
            .starts_with("a.txt  default  ")
    );
}
