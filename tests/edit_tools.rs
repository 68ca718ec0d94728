//! Behaviour of edit-file, edit-lines and delete-path through the real binary (spec 03).

mod write_common;

use serde_json::json;
use write_common::Ws;

fn anchor(n: usize, line: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in line.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{n}:{:02x}", h & 0xFF)
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

// ---------------------------------------------------------------- edit-file

#[test]
fn edit_file_reports_tag_count_lines_and_region() {
    let ws = Ws::new();
    ws.write("a.txt", numbered(20));
    ws.read("a.txt");
    let r = ws
        .call(
            "edit_file",
            &json!({"path": "a.txt", "old": "line 10\n", "new": "ten\nTEN\n"}),
        )
        .code(0);
    let mut lines = r.stdout.lines();
    let head = lines.next().unwrap();
    assert!(
        regex_like(head, "Edited [a.txt#", "] (1 replacement, lines 10-11)"),
        "{head}"
    );
    let region: Vec<&str> = lines.collect();
    assert_eq!(region.first(), Some(&"L7: line 7"));
    assert!(region.contains(&"L10: ten") && region.contains(&"L11: TEN"));
    assert_eq!(region.last(), Some(&"L14: line 13"));
    // The tag in the header is the file's tag: a second edit needs no re-read.
    ws.call(
        "edit_file",
        &json!({"path": "a.txt", "old": "line 11", "new": "eleven"}),
    )
    .code(0);
    assert!(
        String::from_utf8(ws.bytes("a.txt"))
            .unwrap()
            .contains("TEN\neleven\n")
    );
}

fn regex_like(s: &str, prefix: &str, suffix: &str) -> bool {
    s.starts_with(prefix) && s.ends_with(suffix) && s.len() == prefix.len() + 8 + suffix.len()
}

#[test]
fn edit_file_all_and_edit_lists_apply_in_order() {
    let ws = Ws::new();
    ws.write("a.py", "x = 1\ny = x\nz = x\n");
    ws.read("a.py");
    let r = ws
        .call(
            "edit_file",
            &json!({"path": "a.py", "old": "x", "new": "value", "all": true}),
        )
        .code(0)
        .says("(3 replacements, lines 1-3)");
    assert!(r.stdout.contains("L2: y = value"));
    ws.call(
        "edit_file",
        &json!({"path": "a.py", "edits": [
            {"old": "value = 1", "new": "value = 2"},
            {"old": "value = 2\ny", "new": "value = 2\nw"},
            {"old": "z = value", "new": "z = 0", "all": true}]}),
    )
    .code(0)
    .says("(3 replacements, lines 1-3)");
    assert_eq!(ws.bytes("a.py"), b"value = 2\nw = value\nz = 0\n");
}

#[test]
fn edit_file_flags_are_never_unescaped() {
    let ws = Ws::new();
    ws.write("e.c", "c = 'a';\n");
    ws.read("e.c");
    ws.run(
        &["edit-file", "e.c", "--old", "'a'", "--new", r"'\n'"],
        None,
    )
    .code(0);
    assert_eq!(
        ws.bytes("e.c"),
        br"c = '\n';
"
    );
}

#[test]
fn edit_file_dry_run_shows_diff_writes_and_records_nothing() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\n");
    ws.read("a.txt");
    let r = ws
        .call(
            "edit_file",
            &json!({"path": "a.txt", "old": "two", "new": "2", "dry_run": true}),
        )
        .code(0);
    assert!(
        r.stdout.starts_with("--- a/a.txt\n+++ b/a.txt\n"),
        "{}",
        r.all()
    );
    assert!(r.stdout.contains("-two\n+2\n"));
    assert_eq!(ws.bytes("a.txt"), b"one\ntwo\n");
    // Nothing recorded: the real edit still works from the first read.
    ws.call(
        "edit_file",
        &json!({"path": "a.txt", "old": "two", "new": "2"}),
    )
    .code(0);
}

#[test]
fn edit_file_json_fields() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\n");
    ws.read("a.txt");
    let v = ws
        .call_as(
            "edit_file",
            &json!({"path": "a.txt", "old": "two", "new": "2"}),
            &["--json"],
        )
        .code(0)
        .json();
    assert_eq!(v["ok"], true);
    assert_eq!(v["replacements"], 1);
    assert_eq!(v["first_line"], 2);
    assert_eq!(v["tag"].as_str().unwrap().len(), 8);
}

#[test]
fn edit_file_diagnoses_without_applying() {
    let ws = Ws::new();
    ws.write("q.js", "const s = \u{201C}hi\u{201D};\nlet\u{a0}x = 1;\n");
    ws.read("q.js");
    let before = ws.bytes("q.js");
    ws.call(
        "edit_file",
        &json!({"path": "q.js", "old": "const s = \"hi\";", "new": "x"}),
    )
    .code(1)
    .says("line 1 col 11: the file has U+201C")
    .says("never applies");
    ws.call(
        "edit_file",
        &json!({"path": "q.js", "old": "let x = 1;", "new": "x"}),
    )
    .code(1)
    .says("line 2 col 4: the file has U+00A0 (no-break space) where old has a space");
    ws.call(
        "edit_file",
        &json!({"path": "q.js", "old": "L2: let x", "new": "x"}),
    )
    .code(1)
    .says("read-file line prefixes");
    ws.call(
        "edit_file",
        &json!({"path": "q.js", "old": "let y = 2;", "new": "x"}),
    )
    .code(1)
    .says("old text not found in q.js; read-file the region and copy it exactly")
    .says("closest line 2:");
    assert_eq!(ws.bytes("q.js"), before);
}

#[test]
fn edit_file_keeps_crlf_and_adds_dominant() {
    let ws = Ws::new();
    ws.write("w.txt", "a\r\nb\r\nc\n");
    ws.read("w.txt");
    ws.call(
        "edit_file",
        &json!({"path": "w.txt", "old": "b", "new": "b1\nb2"}),
    )
    .code(0);
    assert_eq!(ws.bytes("w.txt"), b"a\r\nb1\r\nb2\r\nc\n");
}

#[test]
fn edit_file_output_of_a_deletion() {
    let ws = Ws::new();
    ws.write("a.txt", numbered(5));
    ws.read("a.txt");
    ws.call(
        "edit_file",
        &json!({"path": "a.txt", "old": "line 3\n", "new": ""}),
    )
    .code(0)
    .says("(1 replacement, lines 3-3)")
    .says("L3: line 4");
    assert_eq!(ws.bytes("a.txt"), b"line 1\nline 2\nline 4\nline 5\n");
}

// ---------------------------------------------------------------- edit-lines

#[test]
fn edit_lines_replace_insert_bottom_up_and_new_anchors() {
    let ws = Ws::new();
    ws.write("a.txt", numbered(10));
    ws.call("read_file", &json!({"path": "a.txt", "anchors": true}))
        .code(0);
    let r = ws
        .call(
            "edit_lines",
            &json!({"edits": [
                {"path": "a.txt", "after_anchor": "0", "insert": "top"},
                {"path": "a.txt", "from_anchor": anchor(3, "line 3"), "to_anchor": format!("{}|line 4", anchor(4, "line 4")), "replace": "three-four"},
                {"path": "a.txt", "after_anchor": anchor(9, "line 9"), "insert": "nine-b\nnine-c"},
                {"path": "a.txt", "from_anchor": anchor(10, "line 10"), "replace": ""}]}),
        )
        .code(0);
    assert_eq!(
        String::from_utf8(ws.bytes("a.txt")).unwrap(),
        "top\nline 1\nline 2\nthree-four\nline 5\nline 6\nline 7\nline 8\nline 9\nnine-b\nnine-c\n"
    );
    assert!(r.stdout.starts_with("Edited [a.txt#"), "{}", r.all());
    let want = format!("{}|three-four", anchor(4, "three-four"));
    assert!(r.stdout.contains(&want), "{}", r.all());
    // The new anchors chain: edit again without reading.
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": "a.txt", "from_anchor": anchor(4, "three-four"), "replace": "3-4"}]}),
    )
    .code(0);
    assert!(
        String::from_utf8(ws.bytes("a.txt"))
            .unwrap()
            .contains("\n3-4\n")
    );
}

#[test]
fn edit_lines_json_success_shape() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\nthree\n");
    ws.read("a.txt");
    let v = ws
        .call_as(
            "edit_lines",
            &json!({"edits": [{"path": "a.txt", "from_anchor": anchor(2, "two"), "replace": "TWO"}]}),
            &["--json"],
        )
        .code(0)
        .json();
    assert_eq!(v["ok"], true);
    let f = &v["files"][0];
    assert_eq!(f["path"], "a.txt");
    assert_eq!(f["tag"].as_str().unwrap().len(), 8);
    assert_eq!(f["anchors"][anchor(2, "TWO")], "TWO");
    assert_eq!(f["anchors"][anchor(1, "one")], "one");
}

#[test]
fn edit_lines_reports_every_stale_anchor_and_counts_failures() {
    let ws = Ws::new();
    ws.write("a.txt", numbered(8));
    ws.read("a.txt");
    let edits = json!({"edits": [
        {"path": "a.txt", "from_anchor": "2:00", "replace": "x"},
        {"path": "a.txt", "from_anchor": anchor(5, "line 5"), "replace": "five"},
        {"path": "a.txt", "after_anchor": "30:00", "insert": "y"}]});
    let v = ws.call_as("edit_lines", &edits, &["--json"]).code(1).json();
    assert_eq!(v["ok"], false);
    let failures = v["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 2);
    assert_eq!(failures[0]["anchor"], "2:00");
    let current = failures[0]["current"].as_str().unwrap();
    assert!(
        current.starts_with(&format!("{}|line 1\n", anchor(1, "line 1"))),
        "{current}"
    );
    assert_eq!(current.lines().count(), 4);
    assert!(
        failures[1]["reason"]
            .as_str()
            .unwrap()
            .contains("past the end")
    );
    assert_eq!(v["consecutive_failures"], 1);
    assert_eq!(v["loop_hint"], serde_json::Value::Null);
    ws.call("edit_lines", &edits)
        .code(1)
        .says("consecutive failures: 2")
        .says("hint: stop guessing anchors");
    ws.call("edit_lines", &edits)
        .code(1)
        .says("consecutive failures: 3");
    // A read resets the counter.
    ws.read("a.txt");
    let v = ws.call_as("edit_lines", &edits, &["--json"]).code(1).json();
    assert_eq!(v["consecutive_failures"], 1);
    // So does a success.
    ws.call("edit_lines", &edits).code(1);
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": "a.txt", "from_anchor": anchor(5, "line 5"), "replace": "five"}]}),
    )
    .code(0);
    let v = ws.call_as("edit_lines", &edits, &["--json"]).code(1).json();
    assert_eq!(v["consecutive_failures"], 1);
    // Another agent has its own counter.
    let v = ws
        .call_as("edit_lines", &edits, &["--json", "--agent", "other"])
        .code(1)
        .json();
    assert!(
        v["failures"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("read a.txt")
    );
}

#[test]
fn edit_lines_applies_when_the_file_changed_elsewhere() {
    let ws = Ws::new();
    ws.write("a.txt", numbered(6));
    ws.read("a.txt");
    ws.write("a.txt", numbered(6).replace("line 6", "six"));
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": "a.txt", "from_anchor": anchor(2, "line 2"), "replace": "two"}]}),
    )
    .code(0)
    .says("had changed since your last read");
    assert_eq!(
        ws.bytes("a.txt"),
        b"line 1\ntwo\nline 3\nline 4\nline 5\nsix\n"
    );
}

#[test]
fn edit_lines_several_files_all_or_nothing_and_dry_run() {
    let ws = Ws::new();
    ws.write("a.txt", "a1\na2\n");
    ws.write("b.txt", "b1\r\nb2\r\n");
    ws.read("a.txt");
    ws.read("b.txt");
    let edits = json!({"edits": [
        {"path": "a.txt", "from_anchor": anchor(1, "a1"), "replace": "A1"},
        {"path": "b.txt", "after_anchor": anchor(2, "b2"), "insert": "b3"}]});
    let mut dry = edits.clone();
    dry["dry_run"] = json!(true);
    ws.call("edit_lines", &dry).code(0).says("+++ b/b.txt");
    assert_eq!(ws.bytes("a.txt"), b"a1\na2\n");
    ws.call("edit_lines", &edits)
        .code(0)
        .says("Edited [a.txt#")
        .says("Edited [b.txt#");
    assert_eq!(ws.bytes("a.txt"), b"A1\na2\n");
    assert_eq!(ws.bytes("b.txt"), b"b1\r\nb2\r\nb3\r\n");
}

#[test]
fn edit_lines_keeps_a_missing_final_newline() {
    let ws = Ws::new();
    ws.write("n.txt", "x\ny");
    ws.read("n.txt");
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": "n.txt", "after_anchor": anchor(2, "y"), "insert": "z"}]}),
    )
    .code(0);
    assert_eq!(ws.bytes("n.txt"), b"x\ny\nz");
    ws.call(
        "edit_lines",
        &json!({"edits": [{"path": "n.txt", "from_anchor": anchor(3, "z"), "replace": ""}]}),
    )
    .code(0);
    assert_eq!(ws.bytes("n.txt"), b"x\ny");
}

// ---------------------------------------------------------------- delete-path

#[test]
fn delete_file_drops_its_freshness_entry() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    ws.read("a.txt");
    ws.call("delete_path", &json!({"path": "a.txt"}))
        .code(0)
        .says("Deleted a.txt");
    assert!(!ws.exists("a.txt"));
    // Re-created by someone else with the same content: the old read does not vouch for it.
    ws.write("a.txt", "x\n");
    ws.call(
        "edit_file",
        &json!({"path": "a.txt", "old": "x", "new": "y"}),
    )
    .code(1)
    .says("read a.txt before editing it");
}

#[test]
fn delete_directory_recursive_counts_and_never_follows_links() {
    let ws = Ws::new();
    ws.write("build/a.o", "a");
    ws.write("build/sub/b.o", "b");
    ws.write("keep/target.txt", "keep\n");
    std::fs::write(ws.base.join("outside.txt"), "outside\n").unwrap();
    std::os::unix::fs::symlink(ws.path("keep"), ws.path("build/link-in")).unwrap();
    std::os::unix::fs::symlink(ws.base.join("outside.txt"), ws.path("build/link-out")).unwrap();
    ws.read("keep/target.txt");
    let r = ws
        .call(
            "delete_path",
            &json!({"path": "build", "recursive": true, "dry_run": true}),
        )
        .code(0)
        .says("Would delete build/ (4 files, 1 directory)");
    assert!(r.stdout.contains("build/sub/b.o"));
    assert!(ws.exists("build/sub/b.o"));
    ws.call("delete_path", &json!({"path": "build", "recursive": true}))
        .code(0)
        .says("Deleted build/ (4 files, 1 directory)");
    assert!(!ws.exists("build"));
    assert_eq!(ws.bytes("keep/target.txt"), b"keep\n");
    assert_eq!(
        std::fs::read(ws.base.join("outside.txt")).unwrap(),
        b"outside\n"
    );
    // The read of a file elsewhere is still on record.
    ws.call(
        "edit_file",
        &json!({"path": "keep/target.txt", "old": "keep", "new": "kept"}),
    )
    .code(0);
}

#[test]
fn delete_empty_directory_needs_no_recursive() {
    let ws = Ws::new();
    std::fs::create_dir(ws.path("empty")).unwrap();
    ws.call("delete_path", &json!({"path": "empty"}))
        .code(0)
        .says("Deleted empty/ (0 files, 0 directories)");
    assert!(!ws.exists("empty"));
}

#[test]
fn delete_a_symlink_pointing_outside_removes_only_the_link() {
    let ws = Ws::new();
    std::fs::write(ws.base.join("outside.txt"), "outside\n").unwrap();
    std::os::unix::fs::symlink(ws.base.join("outside.txt"), ws.path("out")).unwrap();
    ws.call("delete_path", &json!({"path": "out"}))
        .code(0)
        .says("the target was not touched");
    assert!(!ws.exists("out"));
    assert_eq!(
        std::fs::read(ws.base.join("outside.txt")).unwrap(),
        b"outside\n"
    );
}

#[test]
fn delete_dry_run_of_a_file_shows_the_removal() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    ws.read("a.txt");
    ws.call("delete_path", &json!({"path": "a.txt", "dry_run": true}))
        .code(0)
        .says("--- a/a.txt\n+++ /dev/null");
    assert!(ws.exists("a.txt"));
}

#[test]
fn write_tools_need_the_edit_or_delete_group_under_call() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    let mut c = ws.cmd();
    c.args(["call", "delete_path", "--groups", "files,edit"]);
    let r = write_common::run_with_stdin(c, r#"{"path":"a.txt"}"#);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.contains("group delete"), "{}", r.all());
    assert!(ws.exists("a.txt"));
}
