//! read-file's tail mode through the real binary (spec 02, `tail`): the last lines, their
//! numbers and the header notes, for every encoding and line-ending kind read-file accepts.
//! UTF-8 files are tailed from the end of the file; the others are decoded whole; both must
//! show the same thing.

mod common;
use common::*;

/// `read-file NAME --tail N` after writing `bytes`: the header and the shown lines.
fn tail(ws: &Ws, name: &str, bytes: &[u8], n: usize) -> Vec<String> {
    ws.write(name, bytes);
    let out = ws.run(&["read-file", name, "--tail", &n.to_string()]);
    out.ok().lines().map(str::to_owned).collect()
}

fn header(name: &str, bytes: &[u8], note: &str) -> String {
    format!("[{name}#{}]{note}", tag(bytes))
}

#[test]
fn with_and_without_a_final_newline() {
    let ws = Ws::new();
    let got = tail(&ws, "a.txt", b"one\ntwo\nthree\n", 2);
    assert_eq!(
        got,
        [
            header("a.txt", b"one\ntwo\nthree\n", ""),
            "L2: two".into(),
            "L3: three".into()
        ]
    );
    let got = tail(&ws, "b.txt", b"one\ntwo\nthree", 2);
    assert_eq!(
        got,
        [
            header("b.txt", b"one\ntwo\nthree", " (no final newline)"),
            "L2: two".into(),
            "L3: three".into()
        ]
    );
    // Blank last lines are lines too.
    let got = tail(&ws, "c.txt", b"one\n\n\n", 2);
    assert_eq!(&got[1..], ["L2: ", "L3: "]);
}

#[test]
fn crlf_and_lone_cr() {
    let ws = Ws::new();
    let bytes = b"a\r\nb\r\nc\r\nd\r\n";
    let got = tail(&ws, "w.txt", bytes, 3);
    assert_eq!(
        got,
        [
            header("w.txt", bytes, " (crlf)"),
            "L2: b".into(),
            "L3: c".into(),
            "L4: d".into()
        ]
    );
    let bytes = b"a\rb\r\nc\nd";
    let got = tail(&ws, "m.txt", bytes, 3);
    assert_eq!(
        got,
        [
            header("m.txt", bytes, " (mixed eol, no final newline)"),
            "L2: b".into(),
            "L3: c".into(),
            "L4: d".into()
        ]
    );
}

#[test]
fn utf16_le_and_be_with_bom() {
    let ws = Ws::new();
    let text = "first\r\nzwei \u{e9}\r\ndrei \u{4e2d}\r\n";
    let le: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = b"\xFE\xFF"
        .iter()
        .copied()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    for (name, bytes, note) in [
        ("le.txt", &le, " (utf-16le, crlf)"),
        ("be.txt", &be, " (utf-16be, crlf)"),
    ] {
        let got = tail(&ws, name, bytes, 2);
        assert_eq!(
            got,
            [
                header(name, bytes, note),
                "L2: zwei \u{e9}".into(),
                "L3: drei \u{4e2d}".into()
            ],
            "{name}"
        );
    }
}

#[test]
fn gbk() {
    let ws = Ws::new();
    // 你好 / 世界 / ok in GBK.
    let bytes = b"\xC4\xE3\xBA\xC3\n\xCA\xC0\xBD\xE7\nok\n";
    let got = tail(&ws, "g.txt", bytes, 2);
    assert_eq!(
        got,
        [
            header("g.txt", bytes, " (gbk)"),
            "L2: \u{4e16}\u{754c}".into(),
            "L3: ok".into()
        ]
    );
}

#[test]
fn lines_longer_than_500_bytes_are_cut() {
    let ws = Ws::new();
    let long = "\u{e9}".repeat(400); // 800 bytes
    let bytes = format!("short\n{long}\n{long}x").into_bytes();
    let got = tail(&ws, "l.txt", &bytes, 2);
    let cut = "\u{e9}".repeat(250);
    assert_eq!(
        &got[1..],
        [
            format!("L2: {cut} [… 300 more bytes]"),
            format!("L3: {cut} [… 301 more bytes]")
        ]
    );
}

#[test]
fn tail_larger_than_the_file_and_empty_file() {
    let ws = Ws::new();
    let got = tail(&ws, "s.txt", b"x\ny\n", 10);
    assert_eq!(&got[1..], ["L1: x", "L2: y"]);
    let got = tail(&ws, "e.txt", b"", 10);
    assert_eq!(got, [header("e.txt", b"", ""), "(empty file)".into()]);
    let got = tail(&ws, "bom.txt", b"\xEF\xBB\xBFx\ny", 5);
    assert_eq!(
        got,
        [
            header(
                "bom.txt",
                b"\xEF\xBB\xBFx\ny",
                " (utf-8 bom, no final newline)"
            ),
            "L1: x".into(),
            "L2: y".into()
        ]
    );
}

#[test]
fn the_tail_of_a_file_of_many_chunks() {
    // Over 1 MiB, several read chunks; the last lines start in the middle of one.
    let ws = Ws::new();
    let text: String = (1..=40_000)
        .map(|i| format!("entry {i:06} caf\u{e9}\r\n"))
        .collect();
    let got = tail(&ws, "log.txt", text.as_bytes(), 2);
    assert_eq!(
        got,
        [
            header("log.txt", text.as_bytes(), " (crlf)"),
            "L39999: entry 039999 caf\u{e9}".into(),
            "L40000: entry 040000 caf\u{e9}".into()
        ]
    );
    // Anchors in tail mode hash the whole line.
    let out = ws.run(&["read-file", "log.txt", "--tail", "1", "--anchors", "true"]);
    let line = "entry 040000 caf\u{e9}";
    assert_eq!(
        out.lines()[1],
        format!("40000:{:02x}|{line}", fnv1a(line.as_bytes()) & 0xff)
    );
}
