//! "Did you mean" lists: names ranked by how much they look like a name that was not found
//! (notes and skills, spec 06).

use super::dice::dice_sorted;

/// The sorted character bigrams of `s`, lower-cased (a one-character string gives itself
/// paired with a space, so it can still match).
fn bigrams(s: &[char]) -> Vec<(char, char)> {
    let mut grams: Vec<(char, char)> = match s {
        [] => Vec::new(),
        [c] => vec![(*c, ' ')],
        _ => s.windows(2).map(|w| (w[0], w[1])).collect(),
    };
    grams.sort_unstable();
    grams
}

/// The optimal-string-alignment distance of `a` and `b`: insertions, deletions,
/// substitutions and swaps of two neighbours, each costing 1.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * width + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[(i - 1) * width + j] + 1)
                    .min(d[i * width + j - 1] + 1)
                    .min(d[(i - 1) * width + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * width + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * width + b.len()]
}

/// `candidates` with how much each looks like `probe`, in 0.0..=1.0, most alike first (ties
/// keep the input order). The score, letter case ignored, is the best of: the Dice
/// coefficient of the character bigrams (shared pieces, whatever their order), one minus the
/// edit distance over the longer length (typos and swapped letters: `pfd` for `pdf`), and
/// 0.5 when one contains the other.
pub fn rank_by_likeness<'a>(probe: &str, candidates: &[&'a str]) -> Vec<(&'a str, f64)> {
    let lower = probe.to_lowercase();
    let p: Vec<char> = lower.chars().collect();
    let p_grams = bigrams(&p);
    let mut scored: Vec<(&'a str, f64)> = candidates
        .iter()
        .map(|c| {
            let cl = c.to_lowercase();
            let cc: Vec<char> = cl.chars().collect();
            let dice = dice_sorted(&p_grams, &bigrams(&cc)).unwrap_or(1.0);
            let longest = p.len().max(cc.len()).max(1);
            // Long names cost a quadratic table: only short ones get the edit distance.
            let edits = if longest <= 128 {
                1.0 - edit_distance(&p, &cc) as f64 / longest as f64
            } else {
                0.0
            };
            let contains = if !lower.is_empty() && (cl.contains(&lower) || lower.contains(&cl)) {
                0.5
            } else {
                0.0
            };
            (*c, dice.max(edits).max(contains))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_names_by_likeness() {
        let names = |probe: &str, list: &[&'static str]| -> Vec<&'static str> {
            rank_by_likeness(probe, list)
                .into_iter()
                .map(|r| r.0)
                .collect()
        };
        assert_eq!(
            names("biuld", &["deploy", "build-notes", "build", "x"])[..2],
            ["build", "build-notes"]
        );
        assert_eq!(names("pfd", &["inject", "long", "pptx", "pdf"])[0], "pdf");
        assert_eq!(names("PDF", &["pptx", "pdf"])[0], "pdf");
        let ranked = rank_by_likeness("abc", &["xyz"]);
        assert_eq!(ranked[0].1, 0.0);
    }

    #[test]
    fn edit_distance_counts_swaps_once() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(edit_distance(&c("pfd"), &c("pdf")), 1);
        assert_eq!(edit_distance(&c(""), &c("abc")), 3);
        assert_eq!(edit_distance(&c("kitten"), &c("sitting")), 3);
    }
}
