use super::super::Pass;
use super::super::seek::{fold_look_alike, seek};

#[test]
fn exact_match_from_the_cursor() {
    let file = ["a", "b", "a", "b"];
    assert_eq!(seek(&file, &["a", "b"], 0, false), Some((0, Pass::Exact)));
    assert_eq!(seek(&file, &["a", "b"], 1, false), Some((2, Pass::Exact)));
    assert_eq!(seek(&file, &["a", "b"], 3, false), None);
}

#[test]
fn each_pass_is_tried_over_every_position_before_the_next() {
    // A trailing-space variant comes first, an exact copy later: exact wins.
    let file = ["x  ", "y", "x", "y"];
    assert_eq!(seek(&file, &["x", "y"], 0, false), Some((2, Pass::Exact)));
    // Both-ends variant first, trailing-only variant later: pass 2 wins.
    let file = ["  x", "  x  "];
    assert_eq!(
        seek(&file, &["  x"], 1, false),
        Some((1, Pass::TrailingWhitespace))
    );
    let file = ["\u{2014}x", "  x", "x  "];
    assert_eq!(
        seek(&file, &["x"], 0, false),
        Some((2, Pass::TrailingWhitespace))
    );
}

#[test]
fn pass_two_ignores_trailing_whitespace_only() {
    assert_eq!(
        seek(&["fn f() {\t "], &["fn f() {"], 0, false),
        Some((0, Pass::TrailingWhitespace))
    );
    assert_eq!(
        seek(&["fn f() {"], &["fn f() {   "], 0, false),
        Some((0, Pass::TrailingWhitespace))
    );
}

#[test]
fn pass_three_ignores_both_ends() {
    assert_eq!(
        seek(&["\tlet x = 1;"], &["    let x = 1;"], 0, false),
        Some((0, Pass::SurroundingWhitespace))
    );
    // Inner whitespace still counts.
    assert_eq!(seek(&["let  x = 1;"], &["let x = 1;"], 0, false), None);
}

#[test]
fn pass_four_folds_look_alikes() {
    let file = ["  let s = \u{201C}it\u{2019}s\u{201D} \u{2014} a\u{00A0}b;"];
    assert_eq!(
        seek(&file, &["let s = \"it's\" - a b;"], 0, false),
        Some((0, Pass::LookAlike))
    );
    // And the other way round: the patch has the look-alikes.
    assert_eq!(
        seek(&["x - y"], &["x \u{2212} y"], 0, false),
        Some((0, Pass::LookAlike))
    );
}

#[test]
fn fold_table_is_exactly_the_spec_list() {
    let dashes = [
        '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
    ];
    let singles = ['\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}'];
    let doubles = ['\u{201C}', '\u{201D}', '\u{201E}', '\u{201F}'];
    let mut spaces = vec!['\u{00A0}', '\u{202F}', '\u{205F}', '\u{3000}'];
    spaces.extend((0x2002..=0x200A).map(|c| char::from_u32(c).unwrap()));
    let mut listed = std::collections::HashMap::new();
    for (set, to) in [
        (&dashes[..], '-'),
        (&singles[..], '\''),
        (&doubles[..], '"'),
        (&spaces[..], ' '),
    ] {
        for &c in set {
            listed.insert(c, to);
        }
    }
    assert_eq!(listed.len(), 7 + 4 + 4 + 4 + 9);
    // Every char of the BMP folds to itself unless listed.
    for code in 0..=0xFFFFu32 {
        let Some(c) = char::from_u32(code) else {
            continue;
        };
        assert_eq!(
            fold_look_alike(c),
            *listed.get(&c).unwrap_or(&c),
            "U+{code:04X}"
        );
    }
}

#[test]
fn unlisted_look_alikes_do_not_match() {
    // U+2000 (en quad) and U+2016 (double vertical line) are not in the list.
    assert_eq!(seek(&["a\u{2000}b"], &["a b"], 0, false), None);
    assert_eq!(seek(&["a\u{2016}b"], &["a-b"], 0, false), None);
}

#[test]
fn end_anchor_only_tries_the_last_position() {
    let file = ["x", "y", "x"];
    assert_eq!(seek(&file, &["x"], 0, true), Some((2, Pass::Exact)));
    assert_eq!(seek(&file, &["x", "y"], 0, true), None);
    assert_eq!(seek(&file, &["y", "x"], 0, true), Some((1, Pass::Exact)));
    // The end position must not be behind the cursor.
    assert_eq!(seek(&file, &["x"], 3, true), None);
    assert_eq!(
        seek(&file, &[" x "], 2, true),
        Some((2, Pass::SurroundingWhitespace))
    );
}

#[test]
fn pattern_longer_than_file_or_empty() {
    assert_eq!(seek(&["a"], &["a", "b"], 0, false), None);
    assert_eq!(seek(&[], &["a"], 0, false), None);
    assert_eq!(seek(&["a"], &[], 1, false), Some((1, Pass::Exact)));
    assert_eq!(seek(&["a"], &[], 2, false), None);
}

#[test]
fn pass_display_phrases() {
    assert_eq!(
        Pass::TrailingWhitespace.to_string(),
        "ignoring trailing whitespace"
    );
    assert_eq!(
        Pass::SurroundingWhitespace.to_string(),
        "ignoring leading and trailing whitespace"
    );
    assert_eq!(
        Pass::LookAlike.to_string(),
        "ignoring whitespace and look-alike characters"
    );
}
