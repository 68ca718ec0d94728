//! The Dice coefficient of two sorted multisets (of character bigrams, in practice): how much
//! two lines look alike, for the "nearest lines" hints of apply-patch (spec 04, error output)
//! and edit-file (spec 03, "When old is not found").

use std::cmp::Ordering;

/// `2·|a ∩ b| / (|a| + |b|)` for two multisets given as sorted slices, in 0.0..=1.0, where
/// `∩` keeps each element as often as it occurs in both. `None` when both are empty: what two
/// empty lines score is the caller's choice. Linear in `a.len() + b.len()`.
pub fn dice_sorted<T: Ord>(a: &[T], b: &[T]) -> Option<f64> {
    if a.is_empty() && b.is_empty() {
        return None;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    Some(2.0 * common as f64 / (a.len() + b.len()) as f64)
}

/// The sorted character bigrams of `s`, lower-cased (a one-character string gives itself
/// paired with a space, so it can still match).
fn bigrams(s: &str) -> Vec<(char, char)> {
    let chars: Vec<char> = s.chars().flat_map(char::to_lowercase).collect();
    let mut grams: Vec<(char, char)> = match chars.as_slice() {
        [] => Vec::new(),
        [c] => vec![(*c, ' ')],
        _ => chars.windows(2).map(|w| (w[0], w[1])).collect(),
    };
    grams.sort_unstable();
    grams
}

/// `candidates` with how much each looks like `probe` (the Dice coefficient of their
/// lower-cased character bigrams, 0.0..=1.0; a candidate containing the probe, or contained
/// in it, scores at least 0.5), most alike first; ties keep the input order. Used for "did
/// you mean" lists of names (notes, skills; spec 06).
pub fn rank_by_likeness<'a>(probe: &str, candidates: &[&'a str]) -> Vec<(&'a str, f64)> {
    let probe_grams = bigrams(probe);
    let lower = probe.to_lowercase();
    let mut scored: Vec<(&'a str, f64)> = candidates
        .iter()
        .map(|c| {
            let mut score = dice_sorted(&probe_grams, &bigrams(c)).unwrap_or(0.0);
            let cl = c.to_lowercase();
            if !lower.is_empty() && (cl.contains(&lower) || lower.contains(&cl)) {
                score = score.max(0.5);
            }
            (*c, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

#[cfg(test)]
mod tests {
    use super::{dice_sorted, rank_by_likeness};

    #[test]
    fn ranks_names_by_likeness() {
        let ranked = rank_by_likeness("biuld", &["deploy", "build-notes", "build", "x"]);
        let names: Vec<&str> = ranked.iter().map(|r| r.0).collect();
        assert_eq!(names[..2], ["build", "build-notes"]);
        assert_eq!(ranked.last().unwrap().1, 0.0);
    }

    #[test]
    fn counts_repeated_elements_once_per_match() {
        assert_eq!(dice_sorted::<u8>(&[], &[]), None);
        assert_eq!(dice_sorted(&[1], &[]), Some(0.0));
        assert_eq!(dice_sorted(&[1, 2, 3], &[1, 2, 3]), Some(1.0));
        // {1,1,2} and {1,2,2} share {1,2}: 2·2/6.
        assert_eq!(dice_sorted(&[1, 1, 2], &[1, 2, 2]), Some(4.0 / 6.0));
        assert_eq!(dice_sorted(&[1, 2], &[3, 4]), Some(0.0));
    }
}
