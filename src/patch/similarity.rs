//! The closest region of a file to lines that were not found (spec 04, "Not found"), so the
//! model sees what the file really holds where it meant to edit.
//!
//! Lines are compared by the Dice coefficient of their character trigrams after trimming and
//! look-alike folding, which tolerates the renamed identifier or changed indentation that made
//! the exact search fail. A region's score is the sum over its lines. This runs only on the
//! failure path, in one streaming pass: memory is one score per file position.

use super::seek::fold_look_alike;

/// At most this many pattern lines are scored (the first ones), bounding the work on a long
/// chunk in a large file.
const MAX_SCORED_LINES: usize = 16;
/// Marks the ends of a line so that short lines still give trigrams (above any `char`).
const EDGE: u64 = 0x1F_FFFF;

/// A run of file lines: `start` is the 1-based number of the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub start: usize,
    pub lines: Vec<String>,
}

/// The window of `pattern.len()` file lines (fewer if the file is shorter) most similar to
/// `pattern`, or `None` when the file is empty or no line shares a trigram with the pattern.
/// Ties go to the first window at or after `cursor` (0-based), then to the first one before.
pub fn closest_region(file_lines: &[&str], pattern: &[&str], cursor: usize) -> Option<Region> {
    if file_lines.is_empty() || pattern.is_empty() {
        return None;
    }
    let width = pattern.len().min(file_lines.len());
    let wanted: Vec<Vec<u64>> = pattern[..width.min(MAX_SCORED_LINES)]
        .iter()
        .map(|line| {
            let mut grams = Vec::new();
            profile(line, &mut grams);
            grams
        })
        .collect();
    let starts = file_lines.len() - width + 1;
    // scores[s]: the score of the window starting at line s, summed as each line streams by.
    let mut scores = vec![0.0f64; starts];
    let mut grams = Vec::new();
    for (i, line) in file_lines.iter().enumerate() {
        profile(line, &mut grams);
        for (j, want) in wanted.iter().enumerate() {
            if let Some(start) = i.checked_sub(j).filter(|&s| s < starts) {
                scores[start] += dice(&grams, want);
            }
        }
    }
    let cursor = cursor.min(starts - 1);
    let mut best: Option<(f64, usize)> = None;
    for start in (cursor..starts).chain(0..cursor) {
        let score = scores[start];
        if score > 0.0 && best.is_none_or(|(top, _)| score > top) {
            best = Some((score, start));
        }
    }
    let (_, start) = best?;
    Some(Region {
        start: start + 1,
        lines: file_lines[start..start + width]
            .iter()
            .map(|line| line.to_string())
            .collect(),
    })
}

/// Fills `grams` with the sorted trigrams of a line (trimmed, look-alikes folded, both ends
/// marked so a one-character line still gives two); a blank line gives none.
fn profile(line: &str, grams: &mut Vec<u64>) {
    grams.clear();
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    let chars = line
        .chars()
        .map(|c| u64::from(u32::from(fold_look_alike(c))));
    let mut window = [EDGE, EDGE];
    for c in chars.chain(std::iter::once(EDGE)) {
        grams.push(window[0] << 42 | window[1] << 21 | c);
        window = [window[1], c];
    }
    grams.sort_unstable();
}

/// Dice coefficient of two sorted bigram multisets, in 0.0..=1.0; two blank lines score 1.
fn dice(a: &[u64], b: &[u64]) -> f64 {
    crate::text::dice::dice_sorted(a, b).unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_most_similar_window_with_one_based_start() {
        let file = [
            "fn a() {",
            "    let x = 1;",
            "}",
            "fn b() {",
            "    let y = 2;",
            "}",
        ];
        let region = closest_region(&file, &["fn b() {", "    let y = 3;"], 0).unwrap();
        assert_eq!(region.start, 4);
        assert_eq!(region.lines, vec!["fn b() {", "    let y = 2;"]);
    }

    #[test]
    fn ties_prefer_the_cursor_side() {
        let file = ["same", "other", "same", "other"];
        assert_eq!(closest_region(&file, &["same"], 2).unwrap().start, 3);
        assert_eq!(closest_region(&file, &["same"], 0).unwrap().start, 1);
    }

    #[test]
    fn nothing_similar_gives_none() {
        assert_eq!(closest_region(&["abc"], &["xyz"], 0), None);
        assert_eq!(closest_region(&[], &["xyz"], 0), None);
    }

    #[test]
    fn short_file_gives_a_shorter_window() {
        let region = closest_region(&["one"], &["one", "two", "three"], 0).unwrap();
        assert_eq!((region.start, region.lines.len()), (1, 1));
    }

    fn grams(line: &str) -> Vec<u64> {
        let mut out = Vec::new();
        profile(line, &mut out);
        out
    }

    #[test]
    fn dice_bounds() {
        let a = grams("hello world");
        assert_eq!(dice(&a, &a), 1.0);
        assert_eq!(dice(&grams(""), &grams("   ")), 1.0);
        assert_eq!(dice(&grams("x"), &grams("x")), 1.0);
        assert_eq!(grams("x").len(), 2);
        assert_eq!(dice(&grams("x"), &grams("")), 0.0);
        assert!(dice(&grams("ab"), &grams("ba")) < 1.0);
    }

    #[test]
    fn digit_order_matters() {
        // Bigram multisets of these two are equal; trigrams tell them apart.
        let file = ["line 0000501: dog", "line 0500001: dog"];
        assert_eq!(
            closest_region(&file, &["line 0500001: cat"], 0)
                .unwrap()
                .start,
            2
        );
    }

    #[test]
    fn long_patterns_score_their_first_lines_only() {
        let pattern: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let refs: Vec<&str> = pattern.iter().map(String::as_str).collect();
        let file: Vec<String> = (0..100i32).map(|i| format!("p{}", i - 30)).collect();
        let file_refs: Vec<&str> = file.iter().map(String::as_str).collect();
        let region = closest_region(&file_refs, &refs, 0).unwrap();
        assert_eq!((region.start, region.lines.len()), (31, 40));
    }
}
