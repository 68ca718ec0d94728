//! Regressions found by attacking the write tools (spec 03): each test checks the exit status,
//! the message and the bytes on disk afterwards.

mod write_common;

use serde_json::json;
use write_common::Ws;

fn mtime_ms(ws: &Ws, rel: &str) -> i64 {
    let t = std::fs::metadata(ws.path(rel)).unwrap().modified().unwrap();
    t.duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// `--expected-mtime <integer ms>` on the command line is documented and must be accepted
/// (it used to reach the guard as text and fail as "not RFC 3339").
#[test]
fn cli_expected_mtime_in_integer_ms_is_a_guard() {
    let ws = Ws::new();
    ws.write("a.txt", "old\n");
    ws.read("a.txt");
    let ms = mtime_ms(&ws, "a.txt");
    let wrong = (ms + 1).to_string();
    ws.run(
        &[
            "write-file",
            "a.txt",
            "--content",
            "new\n",
            "--expected-mtime",
            &wrong,
        ],
        None,
    )
    .code(1)
    .says("stale");
    assert_eq!(ws.bytes("a.txt"), b"old\n");
    let right = ms.to_string();
    ws.run(
        &[
            "write-file",
            "a.txt",
            "--content",
            "new\n",
            "--expected-mtime",
            &right,
        ],
        None,
    )
    .code(0)
    .says("Wrote [a.txt#");
    assert_eq!(ws.bytes("a.txt"), b"new\n");
}

/// The guards describe a file the caller believes exists: when it is gone, the write is
/// refused as stale instead of creating a new file.
#[test]
fn size_and_mtime_guards_refuse_when_the_file_is_gone() {
    let ws = Ws::new();
    for args in [
        json!({"path": "gone.txt", "content": "x\n", "expected_size": 6}),
        json!({"path": "gone.txt", "content": "x\n", "expected_mtime": 1_700_000_000_000_i64}),
    ] {
        ws.call("write_file", &args).code(1).says("stale");
        assert!(!ws.exists("gone.txt"), "{args}");
    }
}

/// dry_run records nothing: a failing dry run of edit-lines must not count as a consecutive
/// failure (nor show the loop hint).
#[test]
fn edit_lines_dry_run_failures_are_not_counted() {
    let ws = Ws::new();
    ws.write("a.txt", "a\nb\n");
    ws.call("read_file", &json!({"path": "a.txt", "anchors": true}))
        .code(0);
    let stale = json!({"edits": [{"path": "a.txt", "from_anchor": "1:00", "replace": "x"}],
                       "dry_run": true});
    for _ in 0..3 {
        let r = ws.call_as("edit_lines", &stale, &["--json"]).code(1);
        let v = r.json();
        assert_eq!(v["consecutive_failures"], json!(0), "{}", r.all());
        assert!(v["loop_hint"].is_null(), "{}", r.all());
    }
    // The first real failure is the first one counted.
    let real = json!({"edits": [{"path": "a.txt", "from_anchor": "1:00", "replace": "x"}]});
    let v = ws.call_as("edit_lines", &real, &["--json"]).code(1).json();
    assert_eq!(v["consecutive_failures"], json!(1));
    assert_eq!(ws.bytes("a.txt"), b"a\nb\n");
}

/// A path ending in `/` names a directory: write-file must not create (or overwrite) a file
/// under the name without the slash.
#[test]
fn write_file_refuses_a_path_ending_in_a_slash() {
    let ws = Ws::new();
    ws.call("write_file", &json!({"path": "newdir/", "content": "x"}))
        .code(2)
        .says("directory");
    assert!(!ws.exists("newdir"));
    ws.write("a.txt", "keep\n");
    ws.read("a.txt");
    ws.call("write_file", &json!({"path": "a.txt/", "content": "x"}))
        .code(2)
        .says("directory");
    assert_eq!(ws.bytes("a.txt"), b"keep\n");
}
