//! Look-alike characters: the Unicode dashes, quotes and spaces that models and editors swap
//! for their ASCII twins (spec 04, "Matching a chunk", pass 4). edit-file uses them only to
//! *explain* a miss (spec 03); nothing is ever matched or written through this folding.

/// The ASCII twin of a look-alike character, or `None` when `c` is not one:
/// U+2010–U+2015 and U+2212 → `-`; U+2018–U+201B → `'`; U+201C–U+201F → `"`;
/// U+00A0, U+2002–U+200A, U+202F, U+205F, U+3000 → space.
pub fn ascii_twin(c: char) -> Option<char> {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => Some('-'),
        '\u{2018}'..='\u{201B}' => Some('\''),
        '\u{201C}'..='\u{201F}' => Some('"'),
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => Some(' '),
        _ => None,
    }
}

/// `c` with look-alikes folded to ASCII.
pub fn fold(c: char) -> char {
    ascii_twin(c).unwrap_or(c)
}

/// A short human name for a look-alike (`no-break space`, `right single quote`), for
/// messages; `None` for other characters.
pub fn name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{00A0}' => "no-break space",
        '\u{2002}' => "en space",
        '\u{2003}' => "em space",
        '\u{2004}'..='\u{2006}' | '\u{2007}' | '\u{2008}' => "Unicode space",
        '\u{2009}' => "thin space",
        '\u{200A}' => "hair space",
        '\u{202F}' => "narrow no-break space",
        '\u{205F}' => "math space",
        '\u{3000}' => "ideographic space",
        '\u{2010}' | '\u{2011}' => "hyphen",
        '\u{2012}' => "figure dash",
        '\u{2013}' => "en dash",
        '\u{2014}' => "em dash",
        '\u{2015}' => "horizontal bar",
        '\u{2212}' => "minus sign",
        '\u{2018}' => "left single quote",
        '\u{2019}' => "right single quote",
        '\u{201A}' => "low single quote",
        '\u{201B}' => "reversed single quote",
        '\u{201C}' => "left double quote",
        '\u{201D}' => "right double quote",
        '\u{201E}' => "low double quote",
        '\u{201F}' => "reversed double quote",
        _ => return None,
    })
}

/// `U+00A0 (no-break space)` or `U+2019 (’ right single quote)` for a look-alike; `'x'` for
/// any other character.
pub fn describe(c: char) -> String {
    match name(c) {
        Some(n) if ascii_twin(c) == Some(' ') => format!("U+{:04X} ({n})", c as u32),
        Some(n) => format!("U+{:04X} ({c} {n})", c as u32),
        None if c.is_ascii_graphic() => format!("{c}"),
        None => format!("U+{:04X} ({c})", c as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_04_table() {
        for c in ['\u{2010}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}'] {
            assert_eq!(fold(c), '-');
        }
        for c in ['\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}'] {
            assert_eq!(fold(c), '\'');
        }
        for c in ['\u{201C}', '\u{201D}', '\u{201E}', '\u{201F}'] {
            assert_eq!(fold(c), '"');
        }
        for c in [
            '\u{00A0}', '\u{2002}', '\u{200A}', '\u{202F}', '\u{205F}', '\u{3000}',
        ] {
            assert_eq!(fold(c), ' ');
            assert!(name(c).is_some());
        }
        assert_eq!(fold('a'), 'a');
        assert_eq!(
            fold('\u{200B}'),
            '\u{200B}',
            "zero-width space is not in the list"
        );
        assert_eq!(describe('\u{00A0}'), "U+00A0 (no-break space)");
        assert_eq!(describe('\u{2019}'), "U+2019 (\u{2019} right single quote)");
    }
}
