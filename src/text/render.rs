//! Rendering lines for a model: `L<n>: ` prefixes, anchors, and long-line truncation
//! (spec 02, read-file output).

use super::tag::line_anchor_hash;
use crate::text::plural::count;

/// Longest line shown in full, in bytes (spec 02): longer lines are cut at the last char
/// boundary at or before this many bytes.
pub const MAX_LINE_BYTES: usize = 500;

/// `line` cut to at most `max` bytes at a char boundary, with ` [… <k> more bytes]` appended
/// when anything was cut.
pub fn truncate_line(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let kept = cut_at_boundary(line, max);
    if kept.len() == line.len() {
        return std::borrow::Cow::Borrowed(line);
    }
    std::borrow::Cow::Owned(format!(
        "{kept} [… {}]",
        count(line.len() - kept.len(), "more byte")
    ))
}

/// Bytes of a long line shown before its first match when the match lies past the first
/// `max` bytes ([`window_line`]): the match starts near the start of the window.
pub const WINDOW_LEAD: usize = 100;

/// A line's raw bytes (no terminator) for a search result: at most `max` bytes of it, cut at
/// UTF-8 char boundaries, invalid bytes shown as U+FFFD. Counts in markers are raw bytes.
/// - whole, when it fits;
/// - without a `focus` (the first match's byte range) or when the focus ends within the first
///   `max` bytes: cut from the start, as read-file cuts, ` [… <k> more bytes]` after;
/// - otherwise a window that starts [`WINDOW_LEAD`] bytes before the match (or ends at the end
///   of the line, when the match is that close to it), marked on each cut side:
///   `[… <j> bytes] <window> [… <k> more bytes]`.
pub fn window_line(line: &[u8], focus: Option<std::ops::Range<usize>>, max: usize) -> String {
    let n = line.len();
    if n <= max {
        return String::from_utf8_lossy(line).into_owned();
    }
    let mut start = match focus {
        Some(f) if f.end > max => f.start.saturating_sub(WINDOW_LEAD).min(n - max),
        _ => 0,
    };
    while start < n && is_continuation(line[start]) {
        start += 1;
    }
    let mut end = (start + max).min(n);
    while end > start && end < n && is_continuation(line[end]) {
        end -= 1;
    }
    let mut out = String::with_capacity(max + 48);
    if start > 0 {
        out.push_str(&format!("[… {}] ", count(start, "byte")));
    }
    out.push_str(&String::from_utf8_lossy(&line[start..end]));
    if end < n {
        out.push_str(&format!(" [… {}]", count(n - end, "more byte")));
    }
    out
}

/// Whether `b` continues a UTF-8 sequence (so a cut before it would split a character).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The longest prefix of `line` of at most `max` bytes ending on a char boundary.
pub fn cut_at_boundary(line: &str, max: usize) -> &str {
    if line.len() <= max {
        return line;
    }
    let mut end = max;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// Appends one line already cut to `kept` (a prefix of a line `full_len` bytes long, whose
/// FNV-1a 32 hash is `hash`), marking what was cut.
pub fn push_kept_line(
    out: &mut String,
    style: LineStyle,
    n: usize,
    kept: &str,
    full_len: u64,
    hash: u32,
) {
    use std::fmt::Write;
    let more = full_len.saturating_sub(kept.len() as u64);
    let _ = match style {
        LineStyle::Numbered => write!(out, "L{n}: {kept}"),
        LineStyle::Anchored => write!(out, "{n}:{:02x}|{kept}", hash & 0xFF),
    };
    if more > 0 {
        let _ = write!(out, " [… {}]", count(more, "more byte"));
    }
    out.push('\n');
}

/// How numbered lines are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStyle {
    /// `L<n>: <text>` (read-file default, edit-file regions).
    Numbered,
    /// `<n>:<hh>|<text>` (anchors mode; `hh` from [`line_anchor_hash`] of the full line).
    Anchored,
}

/// Appends one rendered line (1-based number `n`) and a `\n` to `out`.
pub fn push_line(out: &mut String, style: LineStyle, n: usize, line: &str) {
    use std::fmt::Write;
    let shown = truncate_line(line, MAX_LINE_BYTES);
    match style {
        LineStyle::Numbered => {
            let _ = writeln!(out, "L{n}: {shown}");
        }
        LineStyle::Anchored => {
            let _ = writeln!(out, "{n}:{}|{shown}", line_anchor_hash(line));
        }
    }
}

/// The anchor of line `n` (1-based): `<n>:<hh>`.
pub fn anchor(n: usize, line: &str) -> String {
    format!("{n}:{}", line_anchor_hash(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_at_char_boundary() {
        let s = "é".repeat(300); // 600 bytes
        let cut = truncate_line(&s, 500);
        assert!(cut.starts_with(&"é".repeat(250)));
        assert!(cut.ends_with(" [… 100 more bytes]"));
        let s = format!("a{}", "é".repeat(300)); // 601 bytes: boundary at 499
        let cut = truncate_line(&s, 500);
        assert!(cut.ends_with(" [… 102 more bytes]"), "{cut}");
    }

    #[test]
    fn windows_around_a_late_match() {
        let line = format!("{}XY{}", "a".repeat(1000), "b".repeat(1000));
        let w = window_line(line.as_bytes(), Some(1000..1002), 500);
        assert_eq!(
            w,
            format!(
                "[… 900 bytes] {}XY{} [… 602 more bytes]",
                "a".repeat(100),
                "b".repeat(398)
            )
        );
        // Early match or none: cut from the start.
        let w = window_line(line.as_bytes(), Some(10..12), 500);
        assert_eq!(w, format!("{} [… 1502 more bytes]", "a".repeat(500)));
        assert_eq!(window_line(line.as_bytes(), None, 500), w);
        // Close to the end: the window ends with the line.
        let w = window_line(line.as_bytes(), Some(1990..1995), 500);
        assert_eq!(w, format!("[… 1502 bytes] {}", "b".repeat(500)));
        // Multibyte characters at both cut points: the window shrinks to boundaries.
        let line = "é".repeat(1000); // 2000 bytes
        let w = window_line(line.as_bytes(), Some(1001..1003), 500);
        assert!(w.starts_with("[… 902 bytes] é"), "{w}");
        assert!(w.ends_with(" [… 598 more bytes]"), "{w}");
        assert!(!w.contains('\u{FFFD}'));
        // Short lines are whole; invalid bytes are replaced, counted raw.
        assert_eq!(window_line(b"ab\xffc", Some(0..1), 500), "ab\u{FFFD}c");
    }

    #[test]
    fn styles() {
        let mut out = String::new();
        push_line(&mut out, LineStyle::Numbered, 2, "");
        push_line(&mut out, LineStyle::Anchored, 3, "hello");
        assert_eq!(out, "L2: \n3:ab|hello\n");
    }
}
