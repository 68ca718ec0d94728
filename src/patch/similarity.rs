//! The closest region of a file to lines that were not found (spec 04, "Not found"), so the
//! model sees what the file really holds where it meant to edit.
//!
//! Lines are compared by the Dice coefficient of their character bigrams after trimming and
//! look-alike folding, which tolerates the renamed identifier or changed indentation that made
//! the exact search fail. A region's score is the sum over its lines; this runs only on the
//! failure path.

use super::seek::fold_look_alike;

/// A run of file lines: `start` is the 1-based number of the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub start: usize,
    pub lines: Vec<String>,
}

/// The window of `pattern.len()` file lines (fewer if the file is shorter) most similar to
/// `pattern`, or `None` when the file is empty or no line shares a bigram with the pattern.
/// Ties go to the first window at or after `cursor` (0-based), then to the first one before.
pub fn closest_region(file_lines: &[&str], pattern: &[&str], cursor: usize) -> Option<Region> {
    if file_lines.is_empty() || pattern.is_empty() {
        return None;
    }
    let width = pattern.len().min(file_lines.len());
    let wanted: Vec<Vec<u64>> = pattern.iter().map(|line| profile(line)).collect();
    let have: Vec<Vec<u64>> = file_lines.iter().map(|line| profile(line)).collect();
    let starts = file_lines.len() - width + 1;
    let cursor = cursor.min(starts - 1);
    let mut best: Option<(f64, usize)> = None;
    for start in (cursor..starts).chain(0..cursor) {
        let score: f64 = (0..width).map(|j| dice(&have[start + j], &wanted[j])).sum();
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

/// The sorted bigrams of a line (trimmed, look-alikes folded); a one-character line gives that
/// character alone so it can still be compared.
fn profile(line: &str) -> Vec<u64> {
    let chars: Vec<char> = line.trim().chars().map(fold_look_alike).collect();
    let mut grams: Vec<u64> = match chars.len() {
        0 => Vec::new(),
        1 => vec![u64::from(u32::from(chars[0])) | 1 << 63],
        _ => chars
            .windows(2)
            .map(|pair| u64::from(u32::from(pair[0])) << 32 | u64::from(u32::from(pair[1])))
            .collect(),
    };
    grams.sort_unstable();
    grams
}

/// Dice coefficient of two sorted bigram multisets, in 0.0..=1.0; two blank lines score 1.
fn dice(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
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

    #[test]
    fn dice_bounds() {
        let a = profile("hello world");
        assert_eq!(dice(&a, &a), 1.0);
        assert_eq!(dice(&profile(""), &profile("   ")), 1.0);
        assert_eq!(dice(&profile("x"), &profile("x")), 1.0);
        assert_eq!(dice(&profile("x"), &profile("")), 0.0);
    }
}
