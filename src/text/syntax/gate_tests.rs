//! Gate tests: the "not worse" arithmetic, which problems a refusal lists, the one-line
//! summaries and the refusal text.

use super::lines::{LineIndex, LineMap};
use super::*;

/// A JSON Lines text with `bad` broken lines among `good` valid ones: each broken line is
/// exactly one problem, so counts are exact.
fn jsonl(good: usize, bad: usize) -> String {
    let mut text = String::new();
    for i in 0..good.max(bad) {
        if i < good {
            text.push_str(&format!("{{\"n\": {i}}}\n"));
        }
        if i < bad {
            text.push_str(&format!("{{\"bad\" {i}}}\n"));
        }
    }
    text
}

fn outcome_counts(outcome: &GateOutcome) -> (bool, Option<usize>, usize) {
    match outcome {
        GateOutcome::Passed { before, after, .. } => (false, *before, *after),
        GateOutcome::Refused { before, after, .. } => (true, Some(*before), *after),
        GateOutcome::Skipped => panic!("unexpected Skipped"),
    }
}

#[test]
fn not_worse_arithmetic() {
    let path = Path::new("log.jsonl");
    for (before, after, refused) in [
        (0, 0, false),
        (0, 1, true),
        (3, 5, true),
        (3, 4, true),
        (3, 1, false),
        (3, 3, false),
        (1, 0, false),
    ] {
        let (old, new) = (jsonl(4, before), jsonl(4, after));
        let outcome = gate(path, Some(&old), &new);
        assert_eq!(
            outcome_counts(&outcome),
            (refused, Some(before), after),
            "{before} -> {after}"
        );
        assert_eq!(outcome.is_refused(), refused);
    }
}

#[test]
fn tree_sitter_counts_follow_the_same_arithmetic() {
    let missing = "fn a() { let x = 1 }\n";
    let fine = "fn b() { let y = 2; }\n";
    let old = format!("{fine}{missing}{missing}{missing}");
    let worse = format!("{missing}{missing}{old}");
    let better = format!("{fine}{missing}");
    let path = Path::new("lib.rs");
    assert_eq!(
        outcome_counts(&gate(path, Some(&old), &worse)),
        (true, Some(3), 5)
    );
    assert_eq!(
        outcome_counts(&gate(path, Some(&old), &better)),
        (false, Some(3), 1)
    );
    assert_eq!(
        outcome_counts(&gate(path, Some(&old), &old)),
        (false, Some(3), 3)
    );
}

#[test]
fn a_new_file_counts_as_zero_problems_before() {
    let path = Path::new("src/new.rs");
    let refused = gate(path, None, "fn main() { let x = 1 }\n");
    assert_eq!(
        refused,
        GateOutcome::Refused {
            language: "rust",
            new_problems: vec![Problem {
                line: 1,
                column: 22,
                message: "missing \";\"".to_string()
            }],
            before: 0,
            after: 1,
        }
    );
    let passed = gate(path, None, "fn main() {}\n");
    assert_eq!(
        passed,
        GateOutcome::Passed {
            language: "rust",
            before: None,
            after: 0
        }
    );
    assert_eq!(passed.summary_line().as_deref(), Some("syntax: ok (rust)"));
}

#[test]
fn cannot_tell_never_refuses() {
    // Unknown type: skipped, and nothing is said about syntax.
    let skipped = gate(Path::new("notes.txt"), Some("ok"), "{{{ broken");
    assert_eq!(skipped, GateOutcome::Skipped);
    assert_eq!(skipped.summary_line(), None);
    assert_eq!(skipped.refusal_message(Path::new("notes.txt")), None);
    // The new text is too large to check: skipped even though the old one was fine.
    let huge = format!("{{\"a\": 1}} {}", "x".repeat(MAX_CHECK_BYTES));
    assert_eq!(
        gate(Path::new("a.json"), Some("{}"), &huge),
        GateOutcome::Skipped
    );
    // The old text is too large to check: the new one is checked but cannot be refused.
    let old = format!("{{}}{}", " ".repeat(MAX_CHECK_BYTES));
    let outcome = gate(Path::new("a.json"), Some(&old), "{broken");
    assert_eq!(
        outcome,
        GateOutcome::Passed {
            language: "json",
            before: None,
            after: 1
        }
    );
    assert_eq!(
        outcome.summary_line().as_deref(),
        Some("syntax: 1 problem (json)")
    );
}

#[test]
fn a_parse_timeout_skips_the_gate() {
    let text = "fn f() { let x = [1, 2, 3]; }\n".repeat(20_000);
    let broken = format!("{text}fn g() {{");
    assert_eq!(
        gate_as(Lang::Rust, Some(&text), &broken, Duration::ZERO),
        GateOutcome::Skipped
    );
}

#[test]
fn the_language_comes_from_the_new_text_and_applies_to_both() {
    // The old text had no shebang; the new one adds it, so both are checked as Bash.
    let old = "echo hi\n";
    let new = "#!/bin/sh\nif true; then\n";
    let outcome = gate(Path::new("deploy"), Some(old), new);
    assert_eq!(outcome_counts(&outcome), (true, Some(0), 1));
}

#[test]
fn refusals_list_only_the_new_problems() {
    // An old error far below the edit shifts down by two lines; the edit adds one error.
    let old = "fn a() {}\nfn b() {}\nfn c() { let x = 1 }\n";
    let new = "fn a() {}\nfn z() { let y = 2 }\n// note\nfn b() {}\nfn c() { let x = 1 }\n";
    let GateOutcome::Refused { new_problems, .. } = gate(Path::new("a.rs"), Some(old), new) else {
        panic!("expected a refusal");
    };
    let listed: Vec<String> = new_problems.iter().map(Problem::to_string).collect();
    assert_eq!(listed, ["2:19 missing \";\""]);
}

#[test]
fn an_old_problem_inside_the_edit_excuses_one_with_the_same_message() {
    // Old line 2 became new lines 2 and 3: its error moved to line 3 (same message) and a
    // different error appeared on line 2. Only that one is new.
    let old = "{\"n\": 0}\n{\"a\" 1}\n{\"n\": 1}\n";
    let new = "{\"n\": 0}\n[1 2]\n{\"a\"  1}\n{\"n\": 1}\n";
    let outcome = gate(Path::new("x.jsonl"), Some(old), new);
    let GateOutcome::Refused {
        new_problems,
        before,
        after,
        ..
    } = outcome
    else {
        panic!("expected a refusal, got {outcome:?}");
    };
    assert_eq!((before, after), (1, 2));
    let listed: Vec<String> = new_problems.iter().map(Problem::to_string).collect();
    assert_eq!(listed, ["2:4 expected `,` or `]`"]);
}

#[test]
fn at_most_five_new_problems_are_listed() {
    let missing = "fn a() { let x = 1 }\n";
    let new = missing.repeat(8);
    let GateOutcome::Refused {
        new_problems,
        after,
        ..
    } = gate(Path::new("a.rs"), Some("fn main() {}\n"), &new)
    else {
        panic!("expected a refusal");
    };
    assert_eq!(after, 8);
    assert_eq!(new_problems.len(), MAX_LISTED_PROBLEMS);
    let lines: Vec<usize> = new_problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
}

#[test]
fn summary_lines() {
    let passed = |before, after| GateOutcome::Passed {
        language: "rust",
        before,
        after,
    };
    assert_eq!(
        passed(Some(0), 0).summary_line().unwrap(),
        "syntax: ok (rust)"
    );
    assert_eq!(
        passed(Some(2), 0).summary_line().unwrap(),
        "syntax: ok (rust)"
    );
    assert_eq!(
        passed(Some(2), 2).summary_line().unwrap(),
        "syntax: 2 problems before, 2 after (rust)"
    );
    assert_eq!(
        passed(Some(1), 1).summary_line().unwrap(),
        "syntax: 1 problem before, 1 after (rust)"
    );
    assert_eq!(
        passed(Some(3), 1).summary_line().unwrap(),
        "syntax: 3 problems before, 1 after (rust)"
    );
}

#[test]
fn refusal_message_text() {
    let outcome = gate(
        Path::new("src/main.rs"),
        Some("fn main() {\n    let x = 1;\n}\n"),
        "fn main() {\n    let x = 1\n}\n",
    );
    assert_eq!(outcome.summary_line(), None);
    assert_eq!(
        outcome.refusal_message(Path::new("src/main.rs")).unwrap(),
        "Error: src/main.rs: this change would add syntax errors (rust: 0 before, 1 after); \
         nothing was written:\n  2:14 missing \";\"\nFix the new content, or pass \
         check_syntax: false (--no-syntax-check) to write it anyway."
    );
}

#[test]
fn line_index_positions() {
    let text = "ab\r\ncé\rd\n";
    let index = LineIndex::new(text);
    assert_eq!(index.count(), 4);
    assert_eq!(index.position(text, 0), (1, 1));
    assert_eq!(index.position(text, 2), (1, 3));
    assert_eq!(index.position(text, 4), (2, 1));
    // After the two-byte é.
    assert_eq!(index.position(text, 7), (2, 3));
    assert_eq!(index.position(text, 8), (3, 1));
    assert_eq!(index.position(text, 10), (4, 1));
    assert_eq!(index.position(text, 999), (4, 1));
}

#[test]
fn line_map_carries_lines_around_the_edit() {
    let old = "a\nb\nc\nd\ne\n";
    let new = "a\nb\nX\nY\nZ\nd\ne\n";
    let map = LineMap::new(old, new);
    assert_eq!(map.map(1), Some(1));
    assert_eq!(map.map(2), Some(2));
    assert_eq!(map.map(3), None);
    assert_eq!(map.map(4), Some(6));
    assert_eq!(map.map(5), Some(7));
    assert_eq!(map.map(6), Some(8));
    assert!(!map.is_changed_in_new(2));
    assert!(map.is_changed_in_new(3));
    assert!(map.is_changed_in_new(5));
    assert!(!map.is_changed_in_new(6));
    // Identical texts: nothing changed, every line maps to itself.
    let same = LineMap::new(old, old);
    assert_eq!(same.map(3), Some(3));
    assert!(!same.is_changed_in_new(3));
}
