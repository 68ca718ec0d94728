//! Checkers for data formats with a real parser: JSON (serde_json) and TOML (toml).

use super::Found;
use super::lines::offset_of_lf_position;
use serde::de::IgnoredAny;

/// Strict JSON. A parser stops at its first error, so there is at most one problem.
pub(crate) fn check_json(text: &str) -> Vec<Found> {
    match serde_json::from_str::<IgnoredAny>(text) {
        Ok(_) => Vec::new(),
        Err(error) => vec![json_problem(text, 0, &error)],
    }
}

/// JSON with `//` and `/* */` comments and trailing commas: those are blanked out (same byte
/// length, so positions hold) and the rest is checked as strict JSON.
pub(crate) fn check_jsonc(text: &str) -> Vec<Found> {
    check_json(&blank_comments_and_trailing_commas(text))
}

/// JSON Lines: each non-blank line is one JSON value, checked on its own, so each bad line is
/// one problem.
pub(crate) fn check_json_lines(text: &str) -> Vec<Found> {
    let mut problems = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        // Without its terminator, so that "unexpected end" points into this line.
        let value = line.trim_end_matches(['\n', '\r']);
        if !value.trim().is_empty()
            && let Err(error) = serde_json::from_str::<IgnoredAny>(value)
        {
            problems.push(json_problem(value, line_start, &error));
        }
        line_start += line.len();
    }
    problems
}

fn json_problem(text: &str, base: usize, error: &serde_json::Error) -> Found {
    let offset = offset_of_lf_position(text, error.line(), error.column());
    Found {
        offset: base + offset,
        message: json_message(error),
    }
}

/// serde_json's message without its " at line L column C" suffix: the position is reported
/// separately, in agtool's own line numbering.
fn json_message(error: &serde_json::Error) -> String {
    let full = error.to_string();
    match full.rsplit_once(" at line ") {
        Some((message, position)) if position.contains(" column ") => message.to_string(),
        _ => full,
    }
}

/// Replaces comments and trailing commas with spaces, keeping line terminators and every
/// byte offset. Strings are skipped, escapes included.
fn blank_comments_and_trailing_commas(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    let bytes = text.as_bytes();
    let mut i = 0;
    // The offset of a comma that may turn out to be trailing.
    let mut pending_comma: Option<usize> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                pending_comma = None;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = find_comment_end(bytes, i + 2).unwrap_or(bytes.len());
                for byte in &mut out[i..end] {
                    if *byte != b'\n' && *byte != b'\r' {
                        *byte = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                pending_comma = Some(i);
                i += 1;
            }
            b'}' | b']' => {
                if let Some(comma) = pending_comma.take() {
                    out[comma] = b' ';
                }
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => {
                pending_comma = None;
                i += 1;
            }
        }
    }
    // Only ASCII bytes outside strings were replaced by ASCII spaces, and a comment's
    // multi-byte chars are replaced byte by byte with spaces, so the result is UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Offset just past the `*/` that closes a block comment whose body starts at `from`.
fn find_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(found) = memchr::memchr(b'*', bytes.get(at..)?) {
        let star = at + found;
        if bytes.get(star + 1) == Some(&b'/') {
            return Some(star + 2);
        }
        at = star + 1;
    }
    None
}

/// TOML, with the parser's error recovery so that several independent mistakes are each
/// counted. When recovery finds nothing the strict parser still runs, because only it checks
/// the document as a whole (e.g. a key defined twice).
pub(crate) fn check_toml(text: &str) -> Vec<Found> {
    let (_, errors) = toml::de::DeTable::parse_recoverable(text);
    let errors = if errors.is_empty() {
        match text.parse::<toml::Table>() {
            Ok(_) => return Vec::new(),
            Err(error) => vec![error],
        }
    } else {
        errors
    };
    errors
        .iter()
        .map(|error| Found {
            offset: error.span().map_or(0, |span| span.start),
            message: toml_message(error.message()),
        })
        .collect()
}

/// toml messages can span lines; the refusal shows one line per problem.
fn toml_message(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        "invalid TOML".to_string()
    } else {
        one_line
    }
}
