//! Tests of the streaming scan: windows, tail mode and counts against the whole-file decoder,
//! at every chunk edge.

use super::*;
use crate::text::editable::EditableText;
use crate::text::tag::{content_tag, fnv1a32};
use proptest::prelude::*;

fn run(bytes: &[u8], window: Window) -> Scan {
    scan(bytes, bytes.len() as u64, window)
        .map_err(|e| format!("{e:?}"))
        .unwrap()
}

/// What the whole-file decoder says, as (number, text, full length, anchor hash) per line,
/// total lines, (lf, crlf, cr) counts and whether the file ends with a terminator.
type Oracle = (Vec<(usize, String, u64, u32)>, usize, (u64, u64, u64), bool);

fn oracle(bytes: &[u8]) -> Oracle {
    let text = EditableText::decode(bytes).unwrap();
    let lines: Vec<_> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let cut = crate::text::render::cut_at_boundary(l, MAX_LINE_BYTES);
            (i + 1, cut.to_owned(), l.len() as u64, fnv1a32(l.as_bytes()))
        })
        .collect();
    let mut eols = (0, 0, 0);
    for e in text.eols() {
        match e {
            crate::text::editable::Eol::Lf => eols.0 += 1,
            crate::text::editable::Eol::CrLf => eols.1 += 1,
            crate::text::editable::Eol::Cr => eols.2 += 1,
        }
    }
    let total = lines.len();
    (lines, total, eols, text.has_final_newline())
}

fn shown(s: &Scan) -> Vec<(usize, String, u64, u32)> {
    s.lines
        .iter()
        .map(|l| (l.number, l.text.clone(), l.len, l.hash))
        .collect()
}

/// Checks every window kind of `bytes` at several chunk sizes against the oracle.
fn check_all(bytes: &[u8]) {
    let (lines, total, eols, final_newline) = oracle(bytes);
    let windows = [
        Window::Range { first: 1, last: 2 },
        Window::Range { first: 2, last: 3 },
        Window::Range {
            first: total.max(1),
            last: total + 5,
        },
        Window::Range {
            first: total + 1,
            last: total + 1,
        },
        Window::Tail(0),
        Window::Tail(1),
        Window::Tail(2),
        Window::Tail(3),
        Window::Tail(total),
        Window::Tail(total + 4),
    ];
    for chunk in [4, 5, 7, 16, CHUNK] {
        for window in windows {
            let s = scan_in_chunks(bytes, bytes.len() as u64, window, chunk)
                .map_err(|e| format!("{e:?}"))
                .unwrap();
            let what = format!("{bytes:?} chunk {chunk} {window:?}");
            assert_eq!(s.tag, content_tag(bytes), "{what}");
            assert_eq!(s.total_lines, total, "{what}");
            assert_eq!(s.eols, eols, "{what}");
            assert_eq!(s.final_newline, final_newline, "{what}");
            let want: Vec<_> = match window {
                Window::Range { first, last } => lines
                    .iter()
                    .filter(|l| l.0 >= first && l.0 <= last)
                    .cloned()
                    .collect(),
                Window::Tail(n) => lines[total.saturating_sub(n)..].to_vec(),
            };
            assert_eq!(shown(&s), want, "{what}");
            // The same with the first half fed (as from a memory map) and the rest read.
            let fed = fed_then_read(bytes, window, chunk);
            assert_eq!(
                (
                    &fed.tag,
                    fed.total_lines,
                    fed.eols,
                    fed.final_newline,
                    shown(&fed)
                ),
                (&s.tag, s.total_lines, s.eols, s.final_newline, shown(&s)),
                "fed: {what}"
            );
        }
    }
}

/// Scans `bytes` feeding its first half (at least the 3 bytes a BOM needs) in pieces of
/// `chunk` bytes, then reading the rest.
fn fed_then_read(bytes: &[u8], window: Window, chunk: usize) -> Scan {
    let half = (bytes.len() / 2).max(bytes.len().min(3));
    let mut stream = Stream::new(bytes.len() as u64, window);
    let first = chunk.max(3).min(half);
    stream.feed(&bytes[..first]).unwrap();
    for piece in bytes[first..half].chunks(chunk) {
        stream.feed(piece).unwrap();
    }
    stream.finish_in_chunks(bytes, chunk).unwrap()
}

#[test]
fn counts_and_window() {
    let s = run(b"a\r\nb\nc\rd", Window::Range { first: 2, last: 3 });
    assert_eq!(s.total_lines, 4);
    assert_eq!(s.eols, (1, 1, 1));
    assert!(!s.final_newline);
    let texts: Vec<_> = s
        .lines
        .iter()
        .map(|l| (l.number, l.text.as_str()))
        .collect();
    assert_eq!(texts, [(2, "b"), (3, "c")]);
    assert_eq!(s.tag, content_tag(b"a\r\nb\nc\rd"));
}

#[test]
fn tail_keeps_last_lines() {
    let s = run(b"1\n2\n3\n4\n", Window::Tail(2));
    let n: Vec<_> = s.lines.iter().map(|l| l.number).collect();
    assert_eq!(n, [3, 4]);
    assert!(s.final_newline);
    assert_eq!(s.total_lines, 4);
}

#[test]
fn tail_edge_cases_match_the_decoder() {
    for text in [
        &b""[..],
        b"\n",
        b"\n\n",
        b"one",
        b"one\ntwo",
        b"one\ntwo\n",
        b"a\r\nb\r\nc\r\n",
        b"a\r\nb\r\nc",
        b"a\rb\rc\r",
        b"a\r\r\nb\n\rc",
        b"\r\n\r\n\r",
        b"\xEF\xBB\xBFbom\nline\n",
        b"\xEF\xBB\xBF\n",
        b"\xEF\xBB\xBF",
        "caf\u{e9}\n\u{4e2d}\u{6587}\r\n\u{1F600}".as_bytes(),
    ] {
        check_all(text);
    }
}

#[test]
fn long_lines_are_cut_with_full_length_and_hash() {
    let long = "\u{e9}".repeat(700); // 1400 bytes, cut at a char boundary at 500
    let bytes = format!("short\n{long}\nx{long}\n{long}").into_bytes();
    check_all(&bytes);
    let s = run(&bytes, Window::Tail(2));
    assert_eq!(s.lines[0].len, 1401);
    assert_eq!(s.lines[1].text.len(), MAX_LINE_BYTES);
    assert_eq!(s.lines[1].hash, fnv1a32(long.as_bytes()));
}

#[test]
fn empty_and_blank() {
    let s = run(b"", Window::Range { first: 1, last: 10 });
    assert_eq!(s.total_lines, 0);
    let s = run(b"\n\n", Window::Range { first: 1, last: 10 });
    assert_eq!(s.total_lines, 2);
    assert_eq!(s.lines.len(), 2);
}

#[test]
fn stops() {
    assert!(matches!(
        scan(&b"ab\0"[..], 3, Window::Tail(1)),
        Err(ScanStop::Binary(3))
    ));
    assert!(matches!(
        scan(&b"\xFF\xFEa\0"[..], 4, Window::Tail(1)),
        Err(ScanStop::Wide)
    ));
    assert!(matches!(
        scan(&b"caf\xE9\n"[..], 5, Window::Tail(1)),
        Err(ScanStop::NotUtf8)
    ));
    // Invalid UTF-8 far past the shown window and in tail mode is still found.
    let mut late = b"ok\n".repeat(100_000);
    late.extend_from_slice(b"\xC3(\n");
    for window in [Window::Range { first: 1, last: 1 }, Window::Tail(1)] {
        assert!(matches!(
            scan(&late[..], late.len() as u64, window),
            Err(ScanStop::NotUtf8)
        ));
    }
}

#[test]
fn utf8_split_across_chunks_is_valid() {
    let mut carry = Vec::new();
    let s = "é€😀".as_bytes();
    for split in 0..s.len() {
        carry.clear();
        validate_utf8(&mut carry, &s[..split]).unwrap();
        validate_utf8(&mut carry, &s[split..]).unwrap();
        assert!(carry.is_empty(), "split {split}");
    }
    carry.clear();
    validate_utf8(&mut carry, b"\xE2\x82").unwrap();
    assert!(validate_utf8(&mut carry, b"A").is_err());
}

#[test]
fn crlf_split_across_chunks() {
    for window in [None, Some((1, 10))] {
        let mut s = Scanner::new(window, 1);
        s.feed(b"a\r", None);
        s.feed(b"\nb\r", None);
        s.feed(b"c", None);
        let r = s.finish(String::new(), TextEncoding::Utf8);
        assert_eq!(r.eols, (0, 1, 1), "{window:?}");
        assert_eq!(r.total_lines, 3, "{window:?}");
    }
}

#[test]
fn many_chunks_with_a_bom() {
    // Several real chunks, a CRLF and a multi-byte char at chunk edges, a BOM.
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    let mut n = 0;
    while bytes.len() < 3 * CHUNK + 1000 {
        n += 1;
        bytes.extend_from_slice(format!("line {n} \u{e9}t\u{e9}\r\n").as_bytes());
    }
    let s = run(&bytes, Window::Tail(3));
    assert_eq!(s.encoding, TextEncoding::Utf8Bom);
    assert_eq!(s.total_lines, n);
    assert_eq!(s.eols, (0, n as u64, 0));
    let numbers: Vec<_> = s.lines.iter().map(|l| l.number).collect();
    assert_eq!(numbers, [n - 2, n - 1, n]);
    assert_eq!(s.lines[2].text, format!("line {n} \u{e9}t\u{e9}"));
    let s = run(
        &bytes,
        Window::Range {
            first: n / 2,
            last: n / 2 + 1,
        },
    );
    assert_eq!(s.lines[0].text, format!("line {} \u{e9}t\u{e9}", n / 2));
    assert_eq!(s.tag, content_tag(&bytes));
}

#[test]
fn a_file_read_from_disk_tails_like_a_slice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.txt");
    let body: String = (1..=5000).map(|i| format!("entry {i}\n")).collect();
    std::fs::write(&path, &body).unwrap();
    let file = File::open(&path).unwrap();
    let s = scan(&file, body.len() as u64, Window::Tail(2)).unwrap();
    let got: Vec<_> = s
        .lines
        .iter()
        .map(|l| (l.number, l.text.as_str()))
        .collect();
    assert_eq!(got, [(4999, "entry 4999"), (5000, "entry 5000")]);
}

proptest! {
    #[test]
    fn any_text_scans_like_the_decoder(
        pieces in proptest::collection::vec(
            prop_oneof![Just("a"), Just("\u{e9}"), Just("\n"), Just("\r"), Just("\r\n"), Just(" ")],
            0..40,
        ),
        bom in any::<bool>(),
    ) {
        let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        bytes.extend(pieces.concat().into_bytes());
        check_all(&bytes);
    }
}

/// A lossy scan of `bytes` in pieces of `chunk` bytes.
fn lossy_in_chunks(bytes: &[u8], window: Window, chunk: usize) -> Scan {
    Stream::new(bytes.len() as u64, window)
        .lossy()
        .finish_in_chunks(bytes, chunk)
        .map_err(|e| format!("{e:?}"))
        .unwrap()
}

/// Checks a lossy scan of `bytes` against `String::from_utf8_lossy` of the whole text, at
/// several chunk sizes: shown lines, counts, and where the bytes that are not UTF-8 are.
fn check_lossy(bytes: &[u8]) {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = EditableText::new_utf8(&String::from_utf8_lossy(body));
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect();
    let total = lines.len();
    let (places, first) = census::whole(bytes);
    let invalid = first.map(|f| (f, places));
    for chunk in [4, 5, 7, 16, CHUNK] {
        for window in [
            Window::Range { first: 1, last: 3 },
            Window::Range {
                first: 2,
                last: total + 1,
            },
            Window::Tail(1),
            Window::Tail(total + 2),
        ] {
            let s = lossy_in_chunks(bytes, window, chunk);
            let what = format!("{bytes:x?} chunk {chunk} {window:?}");
            assert_eq!(s.tag, content_tag(bytes), "{what}");
            assert_eq!(s.total_lines, total, "{what}");
            assert_eq!(s.final_newline, text.has_final_newline(), "{what}");
            assert_eq!(s.invalid, invalid, "{what}");
            let want: Vec<_> = match window {
                Window::Range { first, last } => lines
                    .iter()
                    .filter(|l| l.0 >= first && l.0 <= last)
                    .cloned()
                    .collect(),
                Window::Tail(n) => lines[total.saturating_sub(n)..].to_vec(),
            };
            let got: Vec<_> = s.lines.iter().map(|l| (l.number, l.text.clone())).collect();
            assert_eq!(got, want, "{what}");
            for l in &s.lines {
                assert_eq!(
                    l.len,
                    l.text.len() as u64,
                    "{what}: a short line is not cut"
                );
            }
        }
    }
}

#[test]
fn a_lossy_scan_shows_what_a_lossy_decoding_shows() {
    check_lossy(b"K\xf6ln\nJos\xe9\r\nok\n");
    check_lossy(b"\xEF\xBB\xBFbom\xff\n\xe2\x82");
    check_lossy(b"caf\xc3\xa9 fine\nbad \xc3\n\xf0\x9f\x98\x80\xf0\x9f\x98");
    // Valid UTF-8 gives no places.
    assert_eq!(lossy_in_chunks(b"a\nb\n", Window::Tail(1), 4).invalid, None);
}

#[test]
fn a_lossy_line_past_the_cut_counts_the_files_bytes_not_shown() {
    let mut line = vec![0xFFu8; 10];
    line.extend(std::iter::repeat_n(b'x', 2 * MAX_LINE_BYTES));
    let s = lossy_in_chunks(&line, Window::Range { first: 1, last: 1 }, CHUNK);
    let shown = &s.lines[0];
    // Ten U+FFFD (30 bytes) stand for ten bytes: the rest of the line is what is not shown.
    let raw_shown = shown.text.len() as u64 - 20;
    assert_eq!(
        shown.len - shown.text.len() as u64,
        line.len() as u64 - raw_shown
    );
    assert!(shown.text.len() <= MAX_LINE_BYTES);
}

proptest! {
    #[test]
    fn any_bytes_scan_lossily_like_a_lossy_decoding(
        pieces in proptest::collection::vec(
            prop_oneof![Just(&b"a"[..]), Just(&b"\xc3\xa9"[..]), Just(&b"\n"[..]),
                Just(&b"\r"[..]), Just(&b"\r\n"[..]), Just(&b"\xff"[..]), Just(&b"\xc3"[..]),
                Just(&b"\xa9"[..]), Just(&b"\xe2\x82"[..]), Just(&b"\xf0\x9f\x98\x80"[..])],
            0..30,
        ),
        bom in any::<bool>(),
    ) {
        let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        bytes.extend(pieces.concat());
        check_lossy(&bytes);
    }
}
