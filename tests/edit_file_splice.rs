//! edit-file's one-copy path (a UTF-8 file without CR, one place, no texts needed) writes the
//! same bytes, tag and report as the general path, and steps aside whenever the general path
//! has something to do: a syntax checker for the file (also one chosen by a new `#!` line),
//! a dry run, CRLF, several places.

mod common;
use common::*;

fn edit(ws: &Ws, name: &str, old: &str, new: &str) -> Run {
    ws.run(&["read-file", name]).ok();
    ws.run(&["edit-file", name, "--old", old, "--new", new])
}

#[test]
fn one_place_in_a_large_utf8_file_keeps_every_other_byte() {
    let ws = Ws::new();
    ws.mkdir(".git");
    let text: String = (1..=20_000)
        .map(|i| format!("row {i:05} caf\u{e9}\n"))
        .collect();
    for (name, bom) in [("plain.txt", &b""[..]), ("bom.txt", b"\xEF\xBB\xBF")] {
        let mut bytes = bom.to_vec();
        bytes.extend_from_slice(text.as_bytes());
        ws.write(name, &bytes);
        let out = edit(
            &ws,
            name,
            "row 10000 caf\u{e9}\n",
            "row ten thousand\nand one more\n",
        );
        let want = bytes_replaced(
            &bytes,
            "row 10000 caf\u{e9}\n",
            "row ten thousand\nand one more\n",
        );
        assert_eq!(ws.read(name), want, "{name}");
        let report = out.ok();
        assert!(
            report.starts_with(&format!(
                "Edited [{name}#{}] (1 replacement, lines 10000-10001)\nL9997: row 09997 caf\u{e9}\n",
                tag(&want)
            )),
            "{report}"
        );
        assert!(report.contains(
            "L10000: row ten thousand\nL10001: and one more\nL10002: row 10001 caf\u{e9}\n"
        ));
        assert!(
            report.ends_with("L10004: row 10003 caf\u{e9}\n"),
            "{report}"
        );
        // The reported tag is the one registered: a second edit needs no new read.
        ws.run(&[
            "edit-file",
            name,
            "--old",
            "and one more",
            "--new",
            "and another",
        ])
        .ok();
    }
}

fn bytes_replaced(bytes: &[u8], old: &str, new: &str) -> Vec<u8> {
    let at = bytes
        .windows(old.len())
        .position(|w| w == old.as_bytes())
        .unwrap();
    [&bytes[..at], new.as_bytes(), &bytes[at + old.len()..]].concat()
}

#[test]
fn edits_at_the_ends_and_removing_the_last_line_break() {
    let ws = Ws::new();
    ws.mkdir(".git");
    ws.write("a.txt", "first\nmiddle\nlast\n");
    edit(&ws, "a.txt", "first\n", "").ok();
    assert_eq!(ws.read("a.txt"), b"middle\nlast\n");
    let out = edit(&ws, "a.txt", "last\n", "last");
    assert_eq!(ws.read("a.txt"), b"middle\nlast");
    assert!(
        out.ok().contains("lines 2-2)\nL1: middle\nL2: last\n"),
        "{}",
        out.out
    );
    let out = edit(&ws, "a.txt", "middle\nlast", "");
    assert_eq!(ws.read("a.txt"), b"");
    assert!(out.ok().contains("lines 1-1)"), "{}", out.out);
}

#[test]
fn the_syntax_gate_still_sees_files_it_can_check() {
    let ws = Ws::new();
    ws.mkdir(".git");
    ws.write("c.json", "{\"a\": 1}\n");
    let out = edit(&ws, "c.json", "1}", "1,,}");
    out.code(1);
    assert_eq!(ws.read("c.json"), b"{\"a\": 1}\n");
    // No extension: the checker comes from the `#!` line the edit writes.
    ws.write("tool", "#!/usr/bin/en\nprint(1)\n");
    let out = edit(
        &ws,
        "tool",
        "#!/usr/bin/en\nprint(1)",
        "#!/usr/bin/env python3\ndef f(:",
    );
    out.code(1);
    assert!(out.out.contains("python"), "{}", out.out);
    assert_eq!(ws.read("tool"), b"#!/usr/bin/en\nprint(1)\n");
}

#[test]
fn crlf_several_places_and_dry_runs_take_the_general_path_with_the_same_result() {
    let ws = Ws::new();
    ws.mkdir(".git");
    ws.write("w.txt", "a\r\nb\r\n");
    edit(&ws, "w.txt", "b", "c\nd").ok();
    assert_eq!(ws.read("w.txt"), b"a\r\nc\r\nd\r\n");
    ws.write("m.txt", "x y x\n");
    ws.run(&["read-file", "m.txt"]).ok();
    ws.run(&[
        "edit-file",
        "m.txt",
        "--old",
        "x",
        "--new",
        "z",
        "--all",
        "true",
    ])
    .ok();
    assert_eq!(ws.read("m.txt"), b"z y z\n");
    let out = ws.run(&[
        "edit-file",
        "m.txt",
        "--old",
        "y",
        "--new",
        "w",
        "--dry-run",
    ]);
    assert!(out.ok().contains("-z y z\n+z w z\n"), "{}", out.out);
    assert_eq!(ws.read("m.txt"), b"z y z\n");
}
