//! Finding a run of expected lines in a file (spec 04-apply-patch.md, "Matching a chunk").
//!
//! Four passes, each over every candidate position before the next one starts, so an exact
//! match anywhere after the cursor always wins over a fuzzy match nearer to it. Comparisons
//! never allocate: trimming borrows and look-alike folding runs over a char iterator, which
//! keeps the common exact case a single linear scan from the cursor.

use std::fmt;

/// How a run of lines was matched, in the order the passes are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    /// Byte for byte.
    Exact,
    /// Ignoring trailing whitespace on each line.
    TrailingWhitespace,
    /// Ignoring leading and trailing whitespace on each line.
    SurroundingWhitespace,
    /// As `SurroundingWhitespace`, after folding look-alike dashes, quotes and spaces.
    LookAlike,
}

impl Pass {
    /// Every pass, in the order they are tried.
    pub const ALL: [Pass; 4] = [
        Pass::Exact,
        Pass::TrailingWhitespace,
        Pass::SurroundingWhitespace,
        Pass::LookAlike,
    ];

    /// Whether a file line and an expected line are equal under this pass.
    pub fn line_eq(self, file: &str, expected: &str) -> bool {
        match self {
            Pass::Exact => file == expected,
            Pass::TrailingWhitespace => file.trim_end() == expected.trim_end(),
            Pass::SurroundingWhitespace => file.trim() == expected.trim(),
            Pass::LookAlike => file
                .trim()
                .chars()
                .map(fold_look_alike)
                .eq(expected.trim().chars().map(fold_look_alike)),
        }
    }
}

impl fmt::Display for Pass {
    /// The phrase used in match notes: `matched <phrase> at line 40`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pass::Exact => "exactly",
            Pass::TrailingWhitespace => "ignoring trailing whitespace",
            Pass::SurroundingWhitespace => "ignoring leading and trailing whitespace",
            Pass::LookAlike => "ignoring whitespace and look-alike characters",
        })
    }
}

/// Folds exactly the look-alikes listed in spec 04 (pass 4): dashes and the minus sign to `-`,
/// single quotes to `'`, double quotes to `"`, and no-break and typographic spaces to ` `.
/// Every other character is returned unchanged.
pub fn fold_look_alike(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    }
}

/// Finds `pattern` in `lines` at a position `>= from`; with `at_end`, only at the position
/// where it ends at the last line. Returns the 0-based start and the pass that matched.
/// An empty pattern matches at `from` (exactly).
pub fn seek(lines: &[&str], pattern: &[&str], from: usize, at_end: bool) -> Option<(usize, Pass)> {
    if pattern.is_empty() {
        return (from <= lines.len()).then_some((from, Pass::Exact));
    }
    let last_start = lines.len().checked_sub(pattern.len())?;
    let first = if at_end { last_start } else { from };
    if first < from || first > last_start {
        return None;
    }
    Pass::ALL.into_iter().find_map(|pass| {
        (first..=last_start)
            .find(|&start| matches_at(lines, pattern, start, pass))
            .map(|start| (start, pass))
    })
}

/// Whether `pattern` matches `lines` starting at `start` under `pass`. The caller guarantees
/// `start + pattern.len() <= lines.len()`.
fn matches_at(lines: &[&str], pattern: &[&str], start: usize, pass: Pass) -> bool {
    lines[start..start + pattern.len()]
        .iter()
        .zip(pattern)
        .all(|(file, expected)| pass.line_eq(file, expected))
}
