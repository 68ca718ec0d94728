//! Rendering lines for a model: `L<n>: ` prefixes, anchors, and long-line truncation
//! (spec 02, read-file output).

use super::tag::line_anchor_hash;

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
    std::borrow::Cow::Owned(format!("{kept} [… {} more bytes]", line.len() - kept.len()))
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
        let _ = write!(out, " [… {more} more bytes]");
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
    fn styles() {
        let mut out = String::new();
        push_line(&mut out, LineStyle::Numbered, 2, "");
        push_line(&mut out, LineStyle::Anchored, 3, "hello");
        assert_eq!(out, "L2: \n3:ab|hello\n");
    }
}
