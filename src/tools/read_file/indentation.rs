//! read-file's indentation mode (spec 02, "Indentation mode"): the block of lines around an
//! anchor line, by indentation, and the order its lines are kept in when it is over the
//! budget a read shows.

use super::Indentation;

/// Indentation width of a line: leading spaces count 1, tabs 4 (spec 02).
pub(super) fn indent_of(line: &str) -> Option<usize> {
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

/// Consecutive lines of a file held for a read: `lines[0]` is line `first` (1-based) of a
/// file of `total` lines; `indent_before` is the indentation of the last non-blank line above
/// `first` (0 when none). A read holds only the lines its budget could show, not the file.
pub(super) struct LineWindow<'a> {
    pub lines: Vec<&'a str>,
    pub first: usize,
    pub total: usize,
    pub indent_before: usize,
}

impl LineWindow<'_> {
    /// Line `n` (1-based), which must lie inside the window.
    pub fn line(&self, n: usize) -> &str {
        self.lines[n - self.first]
    }
}

/// The 1-based line numbers of the block around `anchor` (spec 02, "Indentation mode"),
/// which must lie inside `window`. A block that reaches an edge of the window where the file
/// goes on keeps its blank lines there: they are not the block's end, only the window's.
pub(super) fn indentation_block(
    window: &LineWindow,
    anchor: usize,
    opts: &Indentation,
    max_lines: usize,
) -> Vec<usize> {
    let lines = &window.lines;
    // Effective indents: a blank line takes the indent of the previous non-blank line.
    let mut eff = Vec::with_capacity(lines.len());
    let mut prev = window.indent_before;
    for l in lines {
        let i = indent_of(l).unwrap_or(prev);
        eff.push(i);
        prev = i;
    }
    let max_levels = opts.max_levels.unwrap_or(0) as usize;
    let siblings = opts.include_siblings.unwrap_or(false);
    let header = opts.include_header.unwrap_or(true);
    let a = anchor - window.first;
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
    let more_above = lo == 0 && window.first > 1;
    let more_below = hi + 1 == lines.len() && window.first + lines.len() <= window.total;
    while !more_above && lo < a && lines[lo].trim().is_empty() {
        lo += 1;
    }
    while !more_below && hi > a && lines[hi].trim().is_empty() {
        hi -= 1;
    }
    (lo + window.first..=hi + window.first).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CODE: &str = "use x;\n\n/// Docs.\nfn f() {\n    let a = 1;\n    if a {\n        b();\n    }\n}\n\nfn g() {}\n";

    /// Every line of `text`.
    fn whole(text: &str) -> LineWindow<'_> {
        let lines: Vec<&str> = text.lines().collect();
        LineWindow {
            total: lines.len(),
            lines,
            first: 1,
            indent_before: 0,
        }
    }

    #[test]
    fn block_around_a_line() {
        let got = indentation_block(&whole(CODE), 7, &Indentation::default(), 100);
        // The header, its doc comment, the body, the closing brace; not `fn g`.
        assert_eq!(got, (3..=9).collect::<Vec<_>>());
    }

    #[test]
    fn max_levels_limits_depth() {
        let opts = Indentation {
            max_levels: Some(1),
            ..Default::default()
        };
        // Anchor at 8 spaces; min indent 4: the `if` block plus one line at 4 each way.
        let got = indentation_block(&whole(CODE), 7, &opts, 100);
        assert_eq!(got, vec![6, 7, 8]);
    }

    #[test]
    fn siblings_and_limit() {
        let opts = Indentation {
            include_siblings: Some(true),
            ..Default::default()
        };
        let got = indentation_block(&whole(CODE), 5, &opts, 100);
        assert_eq!(got, (1..=11).collect::<Vec<_>>());
        let got = indentation_block(&whole(CODE), 5, &Indentation::default(), 3);
        assert_eq!(got.len(), 3);
        assert!(got.contains(&5));
    }

    #[test]
    fn blank_lines_at_a_window_edge_are_kept() {
        // A block of blank lines running past the window: the window's edge is not the
        // block's, so its blank lines there stay (the whole file's block keeps them too).
        let text = "fn f() {\n    a();\n\n\n\n\n    b();\n}\n";
        let all: Vec<&str> = text.lines().collect();
        let cut = LineWindow {
            lines: all[1..5].to_vec(),
            first: 2,
            total: all.len(),
            indent_before: 0,
        };
        let got = indentation_block(&cut, 2, &Indentation::default(), 100);
        assert_eq!(got, vec![2, 3, 4, 5]);
        let got = indentation_block(&whole(text), 2, &Indentation::default(), 100);
        assert_eq!(got, (1..=8).collect::<Vec<_>>());
    }

    proptest! {
        /// A window around the anchor gives the whole file's block, as far as the window
        /// reaches: a read holds only the lines its budget could show.
        #[test]
        fn a_window_gives_the_whole_files_block(
            kinds in prop::collection::vec(0usize..8, 1..60),
            anchor_at in 0usize..60,
            radius in 0usize..20,
            max_lines in 1usize..70,
            max_levels in 0u64..3,
            siblings: bool,
            header: bool,
        ) {
            const LINES: [&str; 8] =
                ["", "a", "  a", "    a", "# c", "    # c", "\tb", "   "];
            let text: String = kinds.iter().map(|&k| format!("{}\n", LINES[k])).collect();
            let full = whole(&text);
            let total = full.total;
            let anchor = anchor_at % total + 1;
            let first = anchor.saturating_sub(radius).max(1);
            let last = (anchor + radius).min(total);
            let indent_before = full.lines[..first - 1]
                .iter()
                .rev()
                .find_map(|l| indent_of(l))
                .unwrap_or(0);
            let window = LineWindow {
                lines: full.lines[first - 1..last].to_vec(),
                first,
                total,
                indent_before,
            };
            let opts = Indentation {
                max_levels: Some(max_levels),
                include_siblings: Some(siblings),
                include_header: Some(header),
                ..Default::default()
            };
            let mut from_all: Vec<usize> = indentation_block(&full, anchor, &opts, max_lines)
                .into_iter()
                .filter(|n| (first..=last).contains(n))
                .collect();
            let mut from_window = indentation_block(&window, anchor, &opts, max_lines);
            // Where the window's block reaches an edge the file goes on past, its blank lines
            // there are kept; the whole file's block may end on them and drop them.
            let blank = |n: &usize| full.lines[n - 1].trim().is_empty() && *n != anchor;
            for block in [&mut from_all, &mut from_window] {
                if first > 1 && block.first() == Some(&first) {
                    let keep = block.iter().position(|n| !blank(n)).unwrap_or(block.len());
                    block.drain(..keep);
                }
                if last < total && block.last() == Some(&last) {
                    while block.last().is_some_and(blank) {
                        block.pop();
                    }
                }
            }
            prop_assert_eq!(from_window, from_all);
        }
    }
}
