//! Edited regions: lines added and removed, which lines a change touched, and the preview of
//! the edited lines that the edit tools print (spec 03 "edit-file" output, "edit-lines" result).

/// Lines added and removed between two `\n`-normalised texts.
pub fn line_delta(old: &str, new: &str) -> (usize, usize) {
    let diff = similar::TextDiff::from_lines(old, new);
    let (mut added, mut removed) = (0, 0);
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (added, removed)
}

/// The 1-based first and last line each changed byte range of `text` (`\n` line breaks)
/// touches. An empty range (text only removed) touches the line it sits on. Lines are
/// clamped to the text's line count (at least 1).
pub fn changed_lines(text: &str, changed: &[std::ops::Range<usize>]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let total = line_count(text).max(1);
    let mut out = Vec::with_capacity(changed.len());
    let (mut line, mut pos) = (1, 0);
    for r in changed {
        line += memchr::memchr_iter(b'\n', &bytes[pos..r.start]).count();
        pos = r.start;
        let inner_end = r.end.saturating_sub(1).max(r.start);
        let last = line + memchr::memchr_iter(b'\n', &bytes[r.start..inner_end]).count();
        out.push((line.min(total), last.min(total)));
    }
    out
}

/// Lines in a `\n` text: 0 when empty; a final `\n` does not start another line.
pub fn line_count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    memchr::memchr_iter(b'\n', text.as_bytes()).count() + usize::from(!text.ends_with('\n'))
}

/// Most lines an edited-region preview shows.
pub const MAX_REGION_LINES: usize = 120;

/// The lines of `regions` (1-based inclusive line ranges, sorted) widened by `context` lines
/// each way, merged, rendered in `style` (`L<n>: ` or `<n>:<hh>|`), groups separated by a
/// `...` line; at most [`MAX_REGION_LINES`] lines, then a note on how to see the rest.
pub fn render_region(
    text: &str,
    regions: &[(usize, usize)],
    context: usize,
    style: crate::text::render::LineStyle,
) -> String {
    render_region_at(text, 1, regions, context, style)
}

/// [`render_region`] of a text that is part of a larger one: `text` starts with line
/// `first_number` of it and holds every line the preview shows (the lines of `regions`
/// widened by `context`, up to the larger text's end), so nothing before it is split.
pub fn render_region_at(
    text: &str,
    first_number: usize,
    regions: &[(usize, usize)],
    context: usize,
    style: crate::text::render::LineStyle,
) -> String {
    let total = first_number - 1 + line_count(text);
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in regions {
        let (lo, hi) = (a.saturating_sub(context).max(1), (b + context).min(total));
        match windows.last_mut() {
            Some(w) if lo <= w.1 + 1 => w.1 = w.1.max(hi),
            _ => windows.push((lo, hi)),
        }
    }
    let mut out = String::new();
    let mut shown = 0;
    // Lines before the first window are skipped at memchr speed, not split one by one.
    let skip = windows
        .first()
        .map_or(0, |w| w.0.saturating_sub(first_number));
    let from = match skip {
        0 => 0,
        n => memchr::memchr_iter(b'\n', text.as_bytes())
            .nth(n - 1)
            .map_or(text.len(), |p| p + 1),
    };
    let mut lines = text[from..]
        .split('\n')
        .enumerate()
        .map(|(i, l)| (first_number + skip + i, l));
    for (wi, &(lo, hi)) in windows.iter().enumerate() {
        if wi > 0 {
            out.push_str("...\n");
        }
        for (n, line) in lines.by_ref() {
            if n < lo {
                continue;
            }
            if shown == MAX_REGION_LINES {
                out.push_str(&format!(
                    "(more edited lines not shown; read-file offset={n} to see them)\n"
                ));
                return out;
            }
            crate::text::render::push_line(&mut out, style, n, line);
            shown += 1;
            if n >= hi {
                break;
            }
        }
    }
    out
}
