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

#[cfg(test)]
mod tests {
    use super::dice_sorted;

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
