//! Which diagnostics an edit added and which it fixed (spec 09, "Delta"): a diagnostic is new
//! when no diagnostic with the same source, code and message existed before at the same
//! range once lines are shifted by the edit. A diagnostic on a line the edit rewrote matches
//! one of the same kind that was on a rewritten line before (the edit kept the problem).
//! Hints (severity 4: "not accessed" greying and the like) are not problems.

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::wire::Diag;

/// Old 0-based line → new 0-based line, for the lines the edit did not touch.
pub(crate) fn line_map(old: &str, new: &str) -> Vec<Option<u32>> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(old, new);
    let (old_lines, new_lines) = (
        old.split_inclusive('\n').count(),
        new.split_inclusive('\n').count(),
    );
    let mut map = vec![None; old_lines + 1];
    for op in diff.ops() {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            for i in 0..len {
                if let Some(slot) = map.get_mut(old_index + i) {
                    *slot = Some((new_index + i) as u32);
                }
            }
        }
    }
    // The position just past the last line (a diagnostic at the end of the file).
    if map[..old_lines].last().is_none_or(|m| m.is_some()) {
        map[old_lines] = Some(new_lines as u32);
    }
    map
}

fn key(d: &Diagnostic) -> (Option<&str>, Option<String>, &str) {
    let code = d.code.as_ref().map(|c| match c {
        NumberOrString::Number(n) => n.to_string(),
        NumberOrString::String(s) => s.clone(),
    });
    (d.source.as_deref(), code, d.message.as_str())
}

/// Whether `d` counts as a problem (errors, warnings, information; not hints).
pub(crate) fn is_problem(d: &Diagnostic) -> bool {
    d.severity != Some(DiagnosticSeverity::HINT)
}

/// The diagnostics of `after` (on `new`) that `before` (on `old`) did not have, and how many
/// of `before` are gone.
pub(crate) fn delta<'a>(
    old: &str,
    new: &str,
    before: &[Diagnostic],
    after: &'a [Diagnostic],
) -> (Vec<&'a Diagnostic>, usize) {
    let map = line_map(old, new);
    let before: Vec<&Diagnostic> = before.iter().filter(|d| is_problem(d)).collect();
    let after: Vec<&Diagnostic> = after.iter().filter(|d| is_problem(d)).collect();
    let mapped = |line: u32| map.get(line as usize).copied().flatten();
    let new_has_origin: std::collections::HashSet<u32> = map.iter().flatten().copied().collect();
    let mut used = vec![false; before.len()];
    let mut matched = vec![false; after.len()];
    // Same kind, same range with lines shifted.
    for (ai, a) in after.iter().enumerate() {
        let found = before.iter().enumerate().position(|(bi, b)| {
            !used[bi]
                && key(b) == key(a)
                && mapped(b.range.start.line) == Some(a.range.start.line)
                && mapped(b.range.end.line) == Some(a.range.end.line)
                && b.range.start.character == a.range.start.character
                && b.range.end.character == a.range.end.character
        });
        if let Some(bi) = found {
            used[bi] = true;
            matched[ai] = true;
        }
    }
    // Same kind, both on rewritten lines.
    for (ai, a) in after.iter().enumerate() {
        if matched[ai] || new_has_origin.contains(&a.range.start.line) {
            continue;
        }
        let found = before.iter().enumerate().position(|(bi, b)| {
            !used[bi] && key(b) == key(a) && mapped(b.range.start.line).is_none()
        });
        if let Some(bi) = found {
            used[bi] = true;
            matched[ai] = true;
        }
    }
    let new: Vec<&Diagnostic> = after
        .iter()
        .zip(&matched)
        .filter(|(_, m)| !**m)
        .map(|(d, _)| *d)
        .collect();
    let fixed = used.iter().filter(|u| !**u).count();
    (new, fixed)
}

/// `d` as shown: 1-based line, 1-based column in chars of `text` (LSP columns count UTF-16
/// units), first line of the message; errors sort first.
pub(crate) fn to_diag(d: &Diagnostic, text: &str) -> Diag {
    let line = d.range.start.line;
    let column = text
        .split_inclusive('\n')
        .nth(line as usize)
        .map_or(d.range.start.character + 1, |l| {
            utf16_to_chars(l, d.range.start.character) + 1
        });
    let severity = match d.severity {
        Some(DiagnosticSeverity::ERROR) | None => 1,
        Some(DiagnosticSeverity::WARNING) => 2,
        Some(_) => 3,
    };
    Diag {
        line: line + 1,
        column,
        severity,
        message: d.message.lines().next().unwrap_or("").trim().to_owned(),
        code: d.code.as_ref().map(|c| match c {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s.clone(),
        }),
        source: d.source.clone(),
    }
}

fn utf16_to_chars(line: &str, units: u32) -> u32 {
    let mut seen = 0u32;
    let mut chars = 0u32;
    for c in line.chars() {
        if seen >= units {
            break;
        }
        seen += c.len_utf16() as u32;
        chars += 1;
    }
    chars
}

/// Errors first, then warnings, then information; in text order within each.
pub(crate) fn sort(diags: &mut [Diag]) {
    diags.sort_by_key(|d| (d.severity, d.line, d.column));
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn diag(line: u32, col: u32, message: &str) -> Diagnostic {
        Diagnostic {
            range: Range::new(Position::new(line, col), Position::new(line, col + 3)),
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("test".into()),
            message: message.into(),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn shifted_old_problems_are_not_new() {
        let old = "a\nb\nc\n";
        let new = "z\na\nb\nc\n";
        let before = [diag(0, 0, "a?"), diag(2, 0, "c?")];
        let after = [diag(0, 0, "z?"), diag(1, 0, "a?"), diag(3, 0, "c?")];
        let (new_ones, fixed) = delta(old, new, &before, &after);
        assert_eq!(new_ones.len(), 1);
        assert_eq!(new_ones[0].message, "z?");
        assert_eq!(fixed, 0);
    }

    #[test]
    fn fixed_and_kept_on_a_rewritten_line() {
        let old = "x = foo\ny = bar\n";
        let new = "xx = foo\ny = 1\n";
        let before = [diag(0, 4, "foo?"), diag(1, 4, "bar?")];
        let after = [diag(0, 5, "foo?")];
        let (new_ones, fixed) = delta(old, new, &before, &after);
        assert!(new_ones.is_empty());
        assert_eq!(fixed, 1);
    }

    #[test]
    fn a_second_copy_of_an_old_problem_is_new() {
        let old = "foo\n";
        let new = "foo\nfoo\n";
        let after = [diag(0, 0, "foo?"), diag(1, 0, "foo?")];
        let (new_ones, fixed) = delta(old, new, &[diag(0, 0, "foo?")], &after);
        assert_eq!(new_ones.len(), 1);
        assert_eq!(new_ones[0].range.start.line, 1);
        assert_eq!(fixed, 0);
    }

    #[test]
    fn columns_count_chars() {
        let d = diag(1, 3, "m");
        assert_eq!(to_diag(&d, "a\n😀b c\n").column, 3);
    }
}
