//! Unit tests of editable text: round trips, terminators, line edits.

use super::*;

fn roundtrip(bytes: &[u8]) -> EditableText {
    let t = EditableText::decode(bytes).expect("decodes");
    assert_eq!(t.encode().unwrap(), bytes, "round trip of {bytes:?}");
    t
}

#[test]
fn utf8_lf_and_line_counts() {
    let t = roundtrip(b"a\nb\n");
    assert_eq!(t.encoding(), TextEncoding::Utf8);
    assert_eq!(t.line_count(), 2);
    assert_eq!(t.lines().collect::<Vec<_>>(), ["a", "b"]);
    assert!(t.has_final_newline());
    let t = roundtrip(b"a\nb");
    assert_eq!(t.line_count(), 2);
    assert!(!t.has_final_newline());
    let t = roundtrip(b"");
    assert_eq!(t.line_count(), 0);
    assert_eq!(t.lines().count(), 0);
    let t = roundtrip(b"\n");
    assert_eq!(t.lines().collect::<Vec<_>>(), [""]);
}

#[test]
fn terminators_kept_per_line() {
    let t = roundtrip(b"one\r\ntwo\nthree\rfour");
    assert_eq!(t.text(), "one\ntwo\nthree\nfour");
    assert_eq!(t.eols(), [Eol::CrLf, Eol::Lf, Eol::Cr]);
    assert_eq!(t.eol_style(), EolStyle::Mixed);
}

#[test]
fn every_bom_round_trips() {
    let text = "h\u{e9}llo \u{4e16}\u{754c} \u{1F600}\r\nx\n";
    let mut cases: Vec<(TextEncoding, Vec<u8>)> = Vec::new();
    let mut b = b"\xEF\xBB\xBF".to_vec();
    b.extend_from_slice(text.as_bytes());
    cases.push((TextEncoding::Utf8Bom, b));
    for (enc, le) in [
        (TextEncoding::Utf16Le, true),
        (TextEncoding::Utf16Be, false),
    ] {
        let mut b = enc.bom().to_vec();
        for u in text.encode_utf16() {
            b.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        cases.push((enc, b));
    }
    for (enc, le) in [
        (TextEncoding::Utf32Le, true),
        (TextEncoding::Utf32Be, false),
    ] {
        let mut b = enc.bom().to_vec();
        for c in text.chars() {
            let v = c as u32;
            b.extend_from_slice(&if le { v.to_le_bytes() } else { v.to_be_bytes() });
        }
        cases.push((enc, b));
    }
    for (enc, bytes) in cases {
        let t = roundtrip(&bytes);
        assert_eq!(t.encoding(), enc);
        assert_eq!(t.text(), "h\u{e9}llo \u{4e16}\u{754c} \u{1F600}\nx\n");
    }
}

#[test]
fn gbk_strict() {
    // "中文" in GBK.
    let t = roundtrip(b"\xD6\xD0\xCE\xC4\n");
    assert_eq!(t.encoding(), TextEncoding::Gbk);
    assert_eq!(t.text(), "\u{4e2d}\u{6587}\n");
    // Latin-1 "café" is not valid GBK (E9 needs a trail byte >= 0x40 that is not '\n').
    assert_eq!(
        EditableText::decode(b"caf\xE9\n"),
        Err(DecodeError::Undecodable)
    );
}

#[test]
fn gb18030_four_byte_round_trips() {
    // U+1F600 in GB18030 is the four-byte sequence 95 32 82 36.
    let t = roundtrip(b"a\x952\x826\n");
    assert_eq!(t.encoding(), TextEncoding::Gb18030);
}

#[test]
fn binary_detected() {
    assert_eq!(
        EditableText::decode(b"ab\0cd"),
        Err(DecodeError::Binary { len: 5 })
    );
    // A NUL after the first 8 KiB does not make a file binary (it is still valid UTF-8).
    let mut big = vec![b'a'; BINARY_SNIFF_BYTES];
    big.push(0);
    assert!(EditableText::decode(&big).is_ok());
}

#[test]
fn broken_utf16_refused() {
    assert_eq!(
        EditableText::decode(b"\xFF\xFEa"),
        Err(DecodeError::Undecodable)
    );
    // Unpaired surrogate.
    assert_eq!(
        EditableText::decode(b"\xFF\xFE\x00\xD8"),
        Err(DecodeError::Undecodable)
    );
}

#[test]
fn replace_range_keeps_other_terminators() {
    let mut t = EditableText::decode(b"one\r\ntwo\nthree\r\nfour\n").unwrap();
    let at = t.text().find("two").unwrap();
    t.replace_range(at..at + 3, "TWO");
    assert_eq!(t.encode().unwrap(), b"one\r\nTWO\nthree\r\nfour\n");
}

#[test]
fn added_lines_take_dominant_terminator() {
    let mut t = EditableText::decode(b"a\r\nb\r\nc\n").unwrap();
    assert_eq!(t.dominant_eol(), Eol::CrLf);
    let at = t.text().find("b").unwrap();
    t.replace_range(at..at + 1, "b1\nb2");
    assert_eq!(t.encode().unwrap(), b"a\r\nb1\r\nb2\r\nc\n");
}

#[test]
fn dominant_tie_goes_to_first_line() {
    let t = EditableText::decode(b"a\nb\r\n").unwrap();
    assert_eq!(t.dominant_eol(), Eol::Lf);
    let t = EditableText::decode(b"a\r\nb\n").unwrap();
    assert_eq!(t.dominant_eol(), Eol::CrLf);
}

#[test]
fn replace_lines_cases() {
    let mut t = EditableText::decode(b"a\r\nb\r\nc").unwrap();
    t.replace_lines(1, 2, &["B".into()]);
    assert_eq!(t.encode().unwrap(), b"a\r\nB\r\nc");
    t.replace_lines(2, 3, &["C".into(), "D".into()]);
    assert_eq!(t.encode().unwrap(), b"a\r\nB\r\nC\r\nD");
    t.replace_lines(4, 4, &["E".into()]);
    assert_eq!(t.encode().unwrap(), b"a\r\nB\r\nC\r\nD\r\nE");
    t.replace_lines(3, 5, &[]);
    assert_eq!(t.encode().unwrap(), b"a\r\nB\r\nC");
    t.replace_lines(0, 0, &["top".into()]);
    assert_eq!(t.encode().unwrap(), b"top\r\na\r\nB\r\nC");
    let mut e = EditableText::decode(b"").unwrap();
    e.replace_lines(0, 0, &["x".into()]);
    assert_eq!(e.encode().unwrap(), b"x\n");
}

#[test]
fn empty_insert_is_a_no_op_even_at_an_open_tail() {
    for bytes in [&b"x\ny"[..], b"x\ny\n", b"", b"x"] {
        let mut t = EditableText::decode(bytes).unwrap();
        let n = t.line_count();
        for at in 0..=n {
            t.replace_lines(at, at, &[]);
            assert_eq!(
                t.encode().unwrap(),
                bytes,
                "insert nothing at {at} of {bytes:?}"
            );
        }
    }
}

#[test]
fn merged_break_found() {
    let mut t = EditableText::decode(b"a\rX\nb\n").unwrap();
    assert_eq!(t.merged_break(), None);
    t.replace_range(2..3, "");
    assert_eq!(t.merged_break(), Some(1));
}

#[test]
fn new_breaks_never_merge_with_a_cr_neighbour() {
    // An LF right after a lone CR would read back as one CRLF break.
    let mut t = EditableText::decode(b"a\rb\nc\n").unwrap();
    let at = t.text().find('b').unwrap();
    t.replace_range(at..at, "\n");
    let bytes = t.encode().unwrap();
    assert_eq!(EditableText::decode(&bytes).unwrap().text(), "a\n\nb\nc\n");
    assert_eq!(&bytes[..2], b"a\r", "the untouched CR stays");
    // A CR before an empty LF line would too.
    let mut t = EditableText::decode(b"x\ry\rz\r\n\n").unwrap();
    let at = t.text().find("z\n").unwrap() + 1;
    t.replace_range(at..at + 1, "\n\n");
    let bytes = t.encode().unwrap();
    assert_eq!(EditableText::decode(&bytes).unwrap().text(), t.text());
}

#[test]
fn rewrite_takes_format_of_template() {
    let old = EditableText::decode(b"\xEF\xBB\xBFa\r\nb\r\n").unwrap();
    let new = EditableText::rewrite_of(&old, "x\ny\r\nz");
    assert_eq!(new.encode().unwrap(), b"\xEF\xBB\xBFx\r\ny\r\nz");
}

#[test]
fn gbk_unmappable_refused() {
    let mut t = EditableText::decode(b"\xD6\xD0\n").unwrap();
    t.replace_range(0..0, "\u{1F600}");
    // GBK cannot hold U+1F600.
    let err = t.encode().unwrap_err();
    assert_eq!(err.ch, '\u{1F600}');
}

#[test]
fn decode_owned_adopts_only_what_decoding_leaves_unchanged() {
    // UTF-8, no BOM, no CR: the bytes are the text, and come back unchanged.
    let (text, back) = EditableText::decode_owned(b"a\nb\n".to_vec()).unwrap();
    assert!(back.is_none());
    assert_eq!(text, EditableText::decode(b"a\nb\n").unwrap());
    assert_eq!(text.into_bytes(), b"a\nb\n");
    // Anything decoding changes is decoded as a copy, and the bytes come back as they were.
    for bytes in [
        &b"a\r\nb\r\n"[..],
        b"\xEF\xBB\xBFa\n",
        b"\xFF\xFEa\x00\n\x00",
        b"\xC4\xE3\xBA\xC3\n",
    ] {
        let (text, back) = EditableText::decode_owned(bytes.to_vec()).unwrap();
        assert_eq!(back.as_deref(), Some(bytes), "{bytes:?}");
        assert_eq!(text, EditableText::decode(bytes).unwrap(), "{bytes:?}");
    }
    // Refusals give the bytes back too.
    for bytes in [&b"a\0b"[..], b"\xFF\xFF\xFF"] {
        let (err, back) = EditableText::decode_owned(bytes.to_vec()).unwrap_err();
        assert_eq!(back, bytes);
        assert_eq!(Err(err), EditableText::decode(bytes));
    }
}

/// UTF-8 with a stray byte round-tripped as GBK (new-user finding: shown as mojibake, and an
/// edit wrote GBK bytes into the UTF-8 file); real GBK text still decodes as GBK.
#[test]
fn utf8_with_a_stray_byte_is_not_gbk() {
    let mut bytes = "2024 中文日志 测试通过\n".repeat(5).into_bytes();
    let stray_at = bytes.len() + 9;
    bytes.extend_from_slice(b"user cafe\xe9s login\n");
    bytes.extend_from_slice("结束 中文\n".as_bytes());
    assert_eq!(
        EditableText::decode(&bytes),
        Err(DecodeError::Utf8Strays {
            first: stray_at as u64,
            count: 1
        })
    );
    let message = EditableText::decode(&bytes).unwrap_err().message("moj.log");
    assert!(
        message.contains(&format!("the first at byte {stray_at}")),
        "{message}"
    );
    for gbk in [
        b"\xb5\xda1\xd0\xd0 \xd6\xd0\xce\xc4\xc8\xd5\xd6\xbe \xb2\xe2\xca\xd4\xcd\xa8\xb9\xfd\n"
            .repeat(50),
        // Prose whose GBK pairs happen to form well-formed UTF-8 now and then.
        b"\xd6\xd0\xbb\xaa\xc8\xcb\xc3\xf1\xb9\xb2\xba\xcd\xb9\xfa\xca\xc7\xd2\xbb\xb8\xf6\n"
            .repeat(20),
    ] {
        let text = EditableText::decode(&gbk).unwrap();
        assert_eq!(text.encoding(), TextEncoding::Gbk);
    }
}
