//! read-file through the real binary: every mode and header note of spec 02 "read-file", and
//! its refusals.

mod common;
use common::*;

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn header_lines_and_blank_line_with_trailing_space() {
    let ws = Ws::new();
    let text = "//! Crate docs\n\npub mod tools;\n";
    ws.write("src/lib.rs", text);
    let out = ws.run(&["read-file", "src/lib.rs"]);
    assert_eq!(
        out.ok(),
        format!(
            "[src/lib.rs#{}]\nL1: //! Crate docs\nL2: \nL3: pub mod tools;\n",
            tag(text.as_bytes())
        )
    );
}

#[test]
fn header_echoes_the_path_as_spelled() {
    let ws = Ws::new();
    ws.write("src/a.txt", "x\n");
    let out = ws
        .cmd_in(&ws.path("src"))
        .args(["read-file", "../src/./a.txt"])
        .output();
    let run = Run::from(out.unwrap());
    assert!(run.ok().starts_with("[../src/./a.txt#"), "{}", run.out);
}

#[test]
fn offset_limit_window_and_continuation_footer() {
    let ws = Ws::new();
    ws.write("n.txt", numbered(10));
    let out = ws.run(&["read-file", "n.txt", "--offset", "4", "--limit", "3"]);
    let lines = out.lines();
    assert_eq!(
        &lines[1..],
        [
            "L4: line 4",
            "L5: line 5",
            "L6: line 6",
            "(4 more lines; continue with offset=7)"
        ]
    );
    // The last window has no footer.
    let out = ws.run(&["read-file", "n.txt", "--offset", "8"]);
    assert_eq!(
        &out.lines()[1..],
        ["L8: line 8", "L9: line 9", "L10: line 10"]
    );
}

#[test]
fn default_limit_is_2000_lines() {
    let ws = Ws::new();
    ws.write("big.txt", numbered(2005));
    let out = ws.run(&["read-file", "big.txt"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 1 + 2000 + 1);
    assert_eq!(lines[2000], "L2000: line 2000");
    assert_eq!(lines[2001], "(5 more lines; continue with offset=2001)");
}

#[test]
fn tail_shows_the_last_lines_and_defaults_to_400() {
    let ws = Ws::new();
    ws.write("log.txt", numbered(1000));
    let out = ws.run(&["read-file", "log.txt", "--tail", "3"]);
    assert_eq!(
        &out.lines()[1..],
        ["L998: line 998", "L999: line 999", "L1000: line 1000"]
    );
    let out = ws.run(&["read-file", "log.txt", "--tail"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 401);
    assert_eq!(lines[1], "L601: line 601");
    // More than the file has: the whole file.
    let out = ws.call(
        "read_file",
        &serde_json::json!({"path": "log.txt", "tail": 5000}),
    );
    assert_eq!(out.lines().len(), 1001);
}

#[test]
fn tail_with_offset_is_an_argument_error() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n");
    let out = ws.run(&["read-file", "a.txt", "--tail", "2", "--offset", "1"]);
    out.code(2);
    assert!(
        out.err.contains("tail cannot be combined with offset"),
        "{}",
        out.err
    );
    assert!(out.out.is_empty());
}

#[test]
fn anchors_are_the_low_byte_of_each_lines_hash() {
    let ws = Ws::new();
    ws.write("a.py", "def f():\n    return 1\n\n");
    let out = ws.run(&["read-file", "a.py", "--anchors", "true"]);
    let expect: Vec<String> = ["def f():", "    return 1", ""]
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}:{:02x}|{l}", i + 1, fnv1a(l.as_bytes()) & 0xff))
        .collect();
    assert_eq!(&out.lines()[1..], expect);
}

#[test]
fn anchors_of_crlf_lines_exclude_the_terminator() {
    let ws = Ws::new();
    ws.write("w.txt", "hello\r\nworld\r\n");
    let out = ws.call(
        "read_file",
        &serde_json::json!({"path": "w.txt", "anchors": true}),
    );
    assert_eq!(out.lines()[1], "1:ab|hello", "FNV-1a(hello) = 4F9F2CAB");
}

#[test]
fn indentation_mode_shows_the_block_around_a_line() {
    let ws = Ws::new();
    let code = "use x;\n\n/// Docs.\nfn f() {\n    let a = 1;\n    if a {\n        b();\n    }\n}\n\nfn g() {}\n";
    ws.write("m.rs", code);
    let out = ws.call(
        "read_file",
        &serde_json::json!({"path": "m.rs", "mode": "indentation", "indentation": {"anchor_line": 7}}),
    );
    assert_eq!(
        &out.lines()[1..],
        [
            "L3: /// Docs.",
            "L4: fn f() {",
            "L5:     let a = 1;",
            "L6:     if a {",
            "L7:         b();",
            "L8:     }",
            "L9: }"
        ]
    );
    // max_levels 1 stays inside the `if`.
    let out = ws.call(
        "read_file",
        &serde_json::json!({"path": "m.rs", "mode": "indentation",
            "indentation": {"anchor_line": 7, "max_levels": 1}}),
    );
    assert_eq!(
        &out.lines()[1..],
        ["L6:     if a {", "L7:         b();", "L8:     }"]
    );
    // The anchor defaults to offset; an anchor past the end is refused.
    let out = ws.run(&[
        "read-file",
        "m.rs",
        "--mode",
        "indentation",
        "--offset",
        "99",
    ]);
    out.code(1);
    assert!(
        out.out
            .starts_with("Error: offset 99 is past the end of m.rs (11 lines)")
    );
}

#[test]
fn header_notes_for_encodings_and_line_endings() {
    let ws = Ws::new();
    let cases: [(&str, &[u8], &str, &[&str]); 7] = [
        ("plain.txt", b"a\nb\n", "", &["a", "b"]),
        ("crlf.txt", b"a\r\nb\r\n", " (crlf)", &["a", "b"]),
        (
            "mixed.txt",
            b"a\r\nb\nc\n",
            " (mixed eol)",
            &["a", "b", "c"],
        ),
        ("nofinal.txt", b"a\nb", " (no final newline)", &["a", "b"]),
        (
            "bom.txt",
            b"\xEF\xBB\xBFh\xC3\xA9\n",
            " (utf-8 bom)",
            &["h\u{e9}"],
        ),
        (
            "u16.txt",
            b"\xFF\xFEa\x00\r\x00\n\x00\xe9\x00\r\x00\n\x00",
            " (utf-16le, crlf)",
            &["a", "\u{e9}"],
        ),
        (
            "gbk.txt",
            b"\xC4\xE3\xBA\xC3\n",
            " (gbk)",
            &["\u{4f60}\u{597d}"],
        ),
    ];
    for (name, bytes, note, lines) in cases {
        ws.write(name, bytes);
        let out = ws.run(&["read-file", name]);
        let got = out.lines();
        assert_eq!(got[0], format!("[{name}#{}]{note}", tag(bytes)), "{name}");
        let expect: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("L{}: {l}", i + 1))
            .collect();
        assert_eq!(&got[1..], expect, "{name}");
    }
}

#[test]
fn utf16_with_crlf_and_no_final_newline_lists_every_note() {
    let ws = Ws::new();
    let bytes = b"\xFF\xFEa\x00\r\x00\n\x00b\x00";
    ws.write("u.txt", bytes);
    let out = ws.run(&["read-file", "u.txt"]);
    assert_eq!(
        out.lines()[0],
        format!("[u.txt#{}] (utf-16le, crlf, no final newline)", tag(bytes))
    );
}

#[test]
fn long_lines_are_cut_at_500_bytes_on_a_char_boundary() {
    let ws = Ws::new();
    // 499 ASCII bytes then a 2-byte char: the cut falls inside it, so 499 bytes are kept.
    let line = format!("{}\u{e9}{}", "a".repeat(499), "b".repeat(100));
    ws.write("long.txt", format!("{line}\nshort\n"));
    let out = ws.run(&["read-file", "long.txt"]);
    let lines = out.lines();
    assert_eq!(
        lines[1],
        format!("L1: {} [… 102 more bytes]", "a".repeat(499))
    );
    assert_eq!(lines[2], "L2: short");
    // Anchors still hash the whole line.
    let out = ws.run(&["read-file", "long.txt", "--anchors", "true", "--limit", "1"]);
    assert!(
        out.lines()[1].starts_with(&format!("1:{:02x}|aaa", fnv1a(line.as_bytes()) & 0xff)),
        "{}",
        out.out
    );
}

#[test]
fn empty_file() {
    let ws = Ws::new();
    ws.write("e.txt", "");
    assert_eq!(
        ws.run(&["read-file", "e.txt"]).ok(),
        "[e.txt#2D068005]\n(empty file)\n"
    );
}

#[test]
fn offset_past_the_end_is_refused_and_changes_nothing() {
    let ws = Ws::new();
    ws.write("t.txt", "a\nb\nc\n");
    let out = ws.run(&["read-file", "t.txt", "--offset", "10"]);
    out.code(1);
    assert_eq!(
        out.out,
        "Error: offset 10 is past the end of t.txt (3 lines)\n"
    );
    assert_eq!(ws.read("t.txt"), b"a\nb\nc\n");
}

#[test]
fn offset_and_limit_zero_are_argument_errors() {
    let ws = Ws::new();
    ws.write("t.txt", "a\n");
    for (flag, path) in [("--offset", "/offset"), ("--limit", "/limit")] {
        let out = ws.run(&["read-file", "t.txt", flag, "0"]);
        out.code(2);
        assert!(
            out.err
                .contains(&format!("{path}: expected integer >= 1, got 0")),
            "{}",
            out.err
        );
        assert!(out.out.is_empty());
    }
    // No state was created by a refused call.
    assert!(!ws.path(".agent-state").exists());
}

#[test]
fn a_directory_gets_the_list_dir_listing_at_depth_1() {
    let ws = Ws::new();
    ws.write("d/b.txt", "b").write("d/a/inner.txt", "i");
    let read = ws.run(&["read-file", "d"]);
    let list = ws.run(&["list-dir", "d", "--depth", "1"]);
    assert_eq!(read.ok(), list.ok());
    assert_eq!(
        read.out,
        format!("Absolute path: {}\na/\nb.txt\n", ws.path("d").display())
    );
}

#[test]
fn binary_files_are_refused_and_undecodable_ones_shown_replaced() {
    let ws = Ws::new();
    let mut bin = b"\x7fELF".to_vec();
    bin.extend([0u8; 60]);
    ws.write("prog.bin", &bin);
    let out = ws.run(&["read-file", "prog.bin"]);
    out.code(1);
    assert_eq!(out.out, "Error: prog.bin is a binary file (64 bytes)\n");
    // Neither UTF-8 nor GBK: shown with U+FFFD for each place that is not UTF-8.
    ws.write("l1.txt", b"caf\xe9 \xff\xfe\n");
    let out = ws.run(&["read-file", "l1.txt"]);
    assert_eq!(
        out.ok(),
        format!(
            "[l1.txt#{}] (not UTF-8 at byte 3 and 2 more places: shown as \u{FFFD}; edits \
             are refused)\nL1: caf\u{FFFD} \u{FFFD}\u{FFFD}\n",
            tag(b"caf\xe9 \xff\xfe\n")
        )
    );
    assert_eq!(ws.read("l1.txt"), b"caf\xe9 \xff\xfe\n");
}

#[test]
fn missing_file_is_refused() {
    let ws = Ws::new();
    let out = ws.run(&["read-file", "nope.txt"]);
    out.code(1);
    assert_eq!(out.out, "Error: nope.txt does not exist\n");
}

#[test]
fn reading_registers_the_tag_in_any_mode() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\nthree\n")
        .write("b.txt", "x\n")
        .write("c.txt", "y\n");
    ws.run(&["read-file", "a.txt", "--offset", "2", "--limit", "1"])
        .ok();
    ws.run(&["read-file", "b.txt", "--tail", "1"]).ok();
    ws.run(&[
        "--agent",
        "other",
        "read-file",
        "c.txt",
        "--anchors",
        "true",
    ])
    .ok();
    let show = ws.run(&["state", "show"]);
    let text = show.ok();
    assert!(
        text.contains(&format!("a.txt  default  {}", tag(b"one\ntwo\nthree\n"))),
        "{text}"
    );
    assert!(
        text.contains(&format!("b.txt  default  {}", tag(b"x\n"))),
        "{text}"
    );
    assert!(
        text.contains(&format!("c.txt  other  {}", tag(b"y\n"))),
        "{text}"
    );
    // The state folder is git-ignored.
    assert_eq!(ws.read(".agent-state/.gitignore"), b"*\n");
}

#[test]
fn no_freshness_records_nothing() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    ws.run(&["--no-freshness", "read-file", "a.txt"]).ok();
    assert!(!ws.path(".agent-state").exists());
}

#[test]
fn unwritable_agent_state_still_reads_and_says_the_tag_was_not_recorded() {
    let ws = Ws::new();
    // A regular file where the folder should be: it cannot be created.
    ws.write(".agent-state", "not a folder");
    ws.write("a.txt", "hello\n");
    let out = ws.run(&["read-file", "a.txt"]);
    let text = out.ok();
    assert!(text.starts_with("[a.txt#"), "{text}");
    assert!(text.contains("L1: hello\n"), "{text}");
    assert!(text.contains("(note: the tag was not recorded"), "{text}");
    assert!(text.contains(".agent-state is not a folder"), "{text}");
    assert_eq!(ws.read(".agent-state"), b"not a folder");
}

#[test]
fn a_file_of_many_chunks_reads_the_same() {
    // 5 MiB is 20 read chunks: lines before and after the window are counted in bulk, the
    // tail is found from the end.
    let ws = Ws::new();
    let mut text = String::new();
    let mut n = 0;
    while text.len() < 5 * 1024 * 1024 {
        n += 1;
        text.push_str(&format!("row {n} caf\u{e9}\r\n"));
    }
    ws.write("big.txt", &text);
    let out = ws.run(&["read-file", "big.txt", "--offset", "3", "--limit", "2"]);
    let lines = out.lines();
    assert_eq!(
        lines[0],
        format!("[big.txt#{}] (crlf)", tag(text.as_bytes()))
    );
    assert_eq!(lines[1], "L3: row 3 caf\u{e9}");
    assert_eq!(
        lines[3],
        format!("({} more lines; continue with offset=5)", n - 4)
    );
    let out = ws.run(&["read-file", "big.txt", "--tail", "1"]);
    assert_eq!(out.lines()[1], format!("L{n}: row {n} caf\u{e9}"));
}

#[test]
fn json_output_carries_path_tag_and_line_count() {
    let ws = Ws::new();
    ws.write("a.txt", "a\nb\n");
    let out = ws.run(&["--json", "read-file", "a.txt"]);
    let v: serde_json::Value = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["error"], serde_json::Value::Null);
    assert_eq!(v["tag"], tag(b"a\nb\n"));
    assert_eq!(v["total_lines"], 2);
    assert_eq!(
        v["output"],
        format!("[a.txt#{}]\nL1: a\nL2: b\n", tag(b"a\nb\n"))
    );
}

/// New-user findings: a UTF-8 file with one stray byte was taken for GBK (shown as mojibake,
/// and an edit wrote GBK bytes into the UTF-8 file), and a file with bytes that are neither
/// UTF-8 nor GBK could not be read at all. Now it reads as UTF-8 with U+FFFD where a byte is
/// not, says where, and edits are refused with nothing changed.
#[test]
fn a_utf8_file_with_stray_bytes_reads_with_replacement_and_is_not_edited() {
    let ws = Ws::new();
    let mut bytes = "2024 中文日志 测试通过\n".repeat(5).into_bytes();
    let at = bytes.len() + 9;
    bytes.extend_from_slice(b"user cafe\xe9s login\n");
    bytes.extend_from_slice("结束 中文\n".as_bytes());
    ws.write("moj.log", &bytes);
    let r = ws.run(&["read-file", "moj.log"]);
    let out = r.ok();
    assert!(
        out.starts_with(&format!(
            "[moj.log#{}] (not UTF-8 at byte {at}: shown as \u{FFFD}; edits are refused)\n",
            tag(&bytes)
        )),
        "{out}"
    );
    assert!(out.contains("L1: 2024 中文日志 测试通过\n"), "{out}");
    assert!(out.contains("L6: user cafe\u{FFFD}s login\n"), "{out}");
    let edit = ws.run(&["edit-file", "moj.log", "--old", "login", "--new", "完成"]);
    edit.code(1);
    assert!(
        edit.out.contains(&format!(
            "not UTF-8 at 1 place (the first at byte {at}) and not GBK"
        )),
        "{}",
        edit.out
    );
    assert_eq!(ws.read("moj.log"), bytes);
    // Bytes that are no encoding at all read the same way, each place counted.
    ws.write("bad.txt", b"ok line\nbad \xff here\nmore \xfe\n");
    let out = ws.run(&["read-file", "bad.txt"]).ok().to_owned();
    assert!(
        out.contains("(not UTF-8 at byte 12 and 1 more place: shown as"),
        "{out}"
    );
    assert!(out.contains("L2: bad \u{FFFD} here\n"), "{out}");
    // With a UTF-8 BOM too (second attack: it could not be read at all).
    ws.write("bom.txt", b"\xef\xbb\xbfhello\nw\xe9 rld\n");
    let out = ws.run(&["read-file", "bom.txt"]).ok().to_owned();
    assert!(out.contains("(not UTF-8 at byte 10: shown as"), "{out}");
    assert!(out.contains("L1: hello\nL2: w\u{FFFD} rld\n"), "{out}");
    // Readable, so a read lets apply-patch delete it (it was told no read could vouch).
    ws.write("gone.txt", b"caf\xe9 \xff\n");
    let patch = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n";
    ws.write("gone.patch", patch);
    let r = ws.run(&["apply-patch", "--input", "gone.patch"]);
    r.code(1);
    assert!(!r.out.contains("cannot show it"), "{}", r.out);
    ws.run(&["read-file", "gone.txt"]).ok();
    ws.run(&["apply-patch", "--input", "gone.patch"]).ok();
    assert!(!ws.path("gone.txt").exists());
}

/// New-user finding: a file deleted after it was read got "does not exist; create it with
/// write_file", a cue to recreate it from stale content. A file this agent read says it was
/// deleted or moved since; one it never read still points at write_file.
#[test]
fn editing_a_file_deleted_since_it_was_read_says_so() {
    let ws = Ws::new();
    ws.write("d.log", "one\ntwo\n");
    ws.run(&["read-file", "d.log"]).ok();
    std::fs::remove_file(ws.path("d.log")).unwrap();
    for args in [
        &["edit-file", "d.log", "--old", "one", "--new", "uno"][..],
        &[
            "edit-lines",
            "--edits",
            r#"[{"path":"d.log","from_anchor":"1:00","replace":"x"}]"#,
        ][..],
    ] {
        let r = ws.run(args);
        r.code(1);
        assert!(
            r.out
                .contains("d.log was deleted or moved since you read it"),
            "{}",
            r.out
        );
        assert!(!ws.path("d.log").exists());
    }
    // apply-patch too (second attack: it said "no such file; use *** Add File").
    ws.write(
        "d.patch",
        "*** Begin Patch\n*** Update File: d.log\n@@\n-one\n+uno\n*** End Patch\n",
    );
    let r = ws.run(&["apply-patch", "--input", "d.patch"]);
    r.code(1);
    assert!(
        r.out
            .contains("cannot update d.log: it was deleted or moved since you read it"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("use *** Add File"), "{}", r.out);
    assert!(!ws.path("d.log").exists());
    let r = ws.run(&["edit-file", "never.txt", "--old", "a", "--new", "b"]);
    r.code(1);
    assert!(
        r.out
            .contains("never.txt does not exist; create it with write_file"),
        "{}",
        r.out
    );
}
