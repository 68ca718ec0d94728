//! read-file's indentation mode (spec 02, "Indentation mode"): the block of lines around an
//! anchor line, by indentation, and the order its lines are kept in when it is over the
//! budget a read shows.

use super::Indentation;

/// Indentation width of a line: leading spaces count 1, tabs 4 (spec 02).
fn indent_of(line: &str) -> Option<usize> {
    if line.trim().is_empty() {
        return None;
    }
    Some(
        line.chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum(),
    )
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//") || t.starts_with("--")
}

/// The 1-based line numbers of the block around `anchor` (spec 02, "Indentation mode").
pub(super) fn indentation_block(
    lines: &[&str],
    anchor: usize,
    opts: &Indentation,
    max_lines: usize,
) -> Vec<usize> {
    // Effective indents: a blank line takes the indent of the previous non-blank line.
    let mut eff = Vec::with_capacity(lines.len());
    let mut prev = 0;
    for l in lines {
        let i = indent_of(l).unwrap_or(prev);
        eff.push(i);
        prev = i;
    }
    let max_levels = opts.max_levels.unwrap_or(0) as usize;
    let siblings = opts.include_siblings.unwrap_or(false);
    let header = opts.include_header.unwrap_or(true);
    let a = anchor - 1;
    let min_indent = if max_levels == 0 {
        0
    } else {
        eff[a].saturating_sub(4 * max_levels)
    };
    let (mut lo, mut hi) = (a, a); // inclusive range taken, 0-based
    let (mut up_open, mut down_open) = (a > 0, a + 1 < lines.len());
    let (mut up_min_used, mut down_min_used) = (false, false);
    let mut count = 1;
    while count < max_lines && (up_open || down_open) {
        if up_open {
            let i = lo - 1;
            let take = if eff[i] > min_indent || (siblings && eff[i] == min_indent) {
                true
            } else if eff[i] == min_indent && !up_min_used {
                up_min_used = true;
                true
            } else {
                eff[i] == min_indent
                    && header
                    && is_comment(lines[i])
                    && indent_of(lines[i]).is_some()
            };
            if take {
                lo = i;
                count += 1;
                up_open = lo > 0;
            } else {
                up_open = false;
            }
        }
        if down_open && count < max_lines {
            let i = hi + 1;
            let take = if eff[i] > min_indent || (siblings && eff[i] == min_indent) {
                true
            } else if eff[i] == min_indent && !down_min_used {
                down_min_used = true;
                true
            } else {
                false
            };
            if take {
                hi = i;
                count += 1;
                down_open = hi + 1 < lines.len();
            } else {
                down_open = false;
            }
        }
    }
    while lo < a && lines[lo].trim().is_empty() {
        lo += 1;
    }
    while hi > a && lines[hi].trim().is_empty() {
        hi -= 1;
    }
    (lo + 1..=hi + 1).collect()
}

/// `numbers` (ascending) ordered by distance from `anchor`, the anchor (or the first after
/// it) first, then one after and one before in turn: any prefix is a run around the anchor.
pub(super) fn nearest_first(numbers: &[usize], anchor: usize) -> Vec<usize> {
    let Some(last) = numbers.len().checked_sub(1) else {
        return Vec::new();
    };
    let mid = numbers.partition_point(|&n| n < anchor).min(last);
    let mut out = vec![numbers[mid]];
    let (mut after, mut before) = (mid + 1, mid);
    while out.len() < numbers.len() {
        if after <= last {
            out.push(numbers[after]);
            after += 1;
        }
        if before > 0 {
            before -= 1;
            out.push(numbers[before]);
        }
    }
    out
}
