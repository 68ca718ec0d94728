//! Counts with a noun, for every message that renders one (`1 line`, `2 lines`,
//! `1 entry`, `3 entries`): one place decides the plural, so `(1 lines)` cannot come back.

/// `noun` in the plural: `entry` → `entries`, `match` → `matches`, `process` → `processes`,
/// `byte` → `bytes`. Only the regular English rules; every noun agtool counts follows them.
pub fn plural_of(noun: &str) -> String {
    let consonant_y = noun.len() >= 2
        && noun.ends_with('y')
        && !matches!(
            noun.as_bytes()[noun.len() - 2],
            b'a' | b'e' | b'i' | b'o' | b'u'
        );
    if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| noun.ends_with(e))
    {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// `noun` for `n` things: singular for exactly 1, plural otherwise (`0 lines`).
pub fn noun(n: impl Countable, noun: &str) -> String {
    if n.widen() == 1 {
        noun.to_owned()
    } else {
        plural_of(noun)
    }
}

/// `<n> <noun>` with the noun in the right number: `1 line`, `0 lines`, `12 entries`.
pub fn count(n: impl Countable, noun_: &str) -> String {
    format!("{n} {}", noun(n, noun_))
}

/// Unsigned counts and lengths, which are what agtool counts (`usize`, `u64`, `u32`).
pub trait Countable: Copy + std::fmt::Display {
    /// The value widened for comparison.
    fn widen(self) -> u128;
}

macro_rules! countable {
    ($($t:ty),*) => {
        $(impl Countable for $t {
            fn widen(self) -> u128 {
                self as u128
            }
        })*
    };
}

countable!(u8, u16, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_plurals() {
        assert_eq!(count(1usize, "line"), "1 line");
        assert_eq!(count(0usize, "line"), "0 lines");
        assert_eq!(count(2u64, "entry"), "2 entries");
        assert_eq!(count(1u64, "entry"), "1 entry");
        assert_eq!(count(3usize, "directory"), "3 directories");
        assert_eq!(count(2usize, "match"), "2 matches");
        assert_eq!(count(2usize, "process"), "2 processes");
        assert_eq!(count(2usize, "day"), "2 days");
        assert_eq!(count(5usize, "byte"), "5 bytes");
        assert_eq!(noun(1u32, "session"), "session");
    }
}
