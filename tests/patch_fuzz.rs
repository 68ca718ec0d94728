//! Fuzzing the pure patch engine with proptest: arbitrary text and mutated valid patches go
//! through `parse` and `compute_edits`; nothing may panic, and every result must keep the
//! edit-order contract. Generated well-formed patches must apply to exactly the expected text.
//!
//! `AGTOOL_FUZZ_CASES=N` raises the number of inputs per property (default 3,000); each
//! property prints how many inputs it ran.

use std::cell::Cell;

use agtool::patch::{Hunk, apply_to_lines, compute_edits, parse};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn cases() -> u32 {
    std::env::var("AGTOOL_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3_000)
}

/// Runs `property` over `strategy` for [`cases`] inputs and returns how many ran.
fn run<S: Strategy>(name: &str, strategy: S, property: impl Fn(S::Value)) -> u32 {
    let ran = Cell::new(0u32);
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&strategy, |value| {
            ran.set(ran.get() + 1);
            property(value);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {} inputs", ran.get());
    assert!(ran.get() >= cases());
    ran.get()
}

/// Parses, and for every Update hunk computes edits against `file`, checking the contract.
fn exercise(patch_text: &str, file: &[String]) {
    let Ok(patch) = parse(patch_text) else { return };
    let lines: Vec<&str> = file.iter().map(String::as_str).collect();
    for hunk in &patch.hunks {
        if let Hunk::Update { path, chunks, .. } = hunk {
            match compute_edits(path, &lines, chunks) {
                Ok(applied) => {
                    for pair in applied.edits.windows(2) {
                        assert!(pair[0].end <= pair[1].start);
                    }
                    for edit in &applied.edits {
                        assert!(edit.start <= edit.end && edit.end <= lines.len());
                    }
                    apply_to_lines(&lines, &applied.edits);
                }
                Err(e) => {
                    let message = e.to_string();
                    // A miss, or a chunk matched only by ignoring indentation that has no
                    // consistent re-indentation (issue 18 §1).
                    assert!(
                        message.contains("could not find the lines of chunk")
                            || message.contains("indentation differs from the patch's")
                            || message.contains("its place in the file is unknown"),
                        "{message}"
                    );
                }
            }
        }
    }
}

/// Lines built from patch-significant pieces, look-alikes and multi-byte characters.
fn token_line() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("*** Begin Patch".to_string()),
        Just("*** End Patch".to_string()),
        Just("*** Update File: f".to_string()),
        Just("*** Add File: g".to_string()),
        Just("*** Delete File: f".to_string()),
        Just("*** Move to: h".to_string()),
        Just("*** End of File".to_string()),
        Just("@@".to_string()),
        Just("@@ ".to_string()),
        Just("@@ -1,2 +1,3 @@".to_string()),
        Just("<<'EOF'".to_string()),
        Just("EOF".to_string()),
        Just("\r".to_string()),
        Just("\u{feff}".to_string()),
        "[ +\\-@*a-c\t\u{a0}\u{2014}\u{201c}é中]{0,6}",
    ];
    prop::collection::vec(piece, 0..3).prop_map(|pieces| pieces.concat())
}

fn file_lines() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[ a-c\t\u{a0}\u{2014}]{0,4}", 0..12)
}

#[test]
fn fuzz_arbitrary_strings() {
    let ran = run(
        "arbitrary strings",
        (any::<String>(), file_lines()),
        |(text, file)| {
            exercise(&text, &file);
            exercise(&format!("*** Begin Patch\n{text}\n*** End Patch"), &file);
        },
    );
    assert!(ran > 0);
}

#[test]
fn fuzz_token_soup() {
    run(
        "token soup",
        (
            prop::collection::vec(token_line(), 0..20),
            file_lines(),
            any::<bool>(),
        ),
        |(lines, file, crlf)| {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            exercise(&text, &file);
            exercise(&format!("*** Begin Patch\n{text}\n*** End Patch"), &file);
        },
    );
}

/// A file and a well-formed patch for it with the expected result: every `step`-th line is
/// replaced, with up to two lines of context around it.
fn generated_case() -> impl Strategy<Value = (Vec<String>, String, Vec<String>)> {
    (file_lines_nonempty(), 1usize..5, 0usize..3, any::<bool>()).prop_map(
        |(file, step, context, use_at)| {
            let mut body = String::new();
            let mut expected = file.clone();
            let mut next_free = 0;
            let mut i = 0;
            while i < file.len() {
                let from = i.saturating_sub(context).max(next_free);
                let to = (i + 1 + context).min(file.len());
                body.push_str(if use_at || !body.is_empty() {
                    "@@\n"
                } else {
                    ""
                });
                for (j, line) in file.iter().enumerate().take(to).skip(from) {
                    if j == i {
                        body.push_str(&format!("-{line}\n+new {j}\n"));
                        expected[j] = format!("new {j}");
                    } else {
                        body.push_str(&format!(" {line}\n"));
                    }
                }
                next_free = to;
                i = to.max(i + step);
            }
            let patch = format!("*** Begin Patch\n*** Update File: f\n{body}*** End Patch\n");
            (file, patch, expected)
        },
    )
}

/// Distinct lines, so that a chunk can only match where it was cut from.
fn file_lines_nonempty() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[a-z]{1,6}", 1..30).prop_map(|lines| {
        lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| format!("{i} {line}"))
            .collect()
    })
}

#[test]
fn generated_patches_apply_exactly() {
    run(
        "generated patches",
        generated_case(),
        |(file, patch, expected)| {
            let parsed = parse(&patch).unwrap_or_else(|e| panic!("{e}\n{patch}"));
            let Hunk::Update { chunks, .. } = &parsed.hunks[0] else {
                panic!("not an update")
            };
            let lines: Vec<&str> = file.iter().map(String::as_str).collect();
            let applied =
                compute_edits("f", &lines, chunks).unwrap_or_else(|e| panic!("{e}\n{patch}"));
            assert!(applied.notes.is_empty());
            assert_eq!(apply_to_lines(&lines, &applied.edits), expected);
        },
    );
}

/// One mutation of a text: delete, insert, duplicate or truncate at a byte position (snapped
/// to a char boundary).
#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Insert(usize, String),
    DuplicateLine(usize),
    DropLine(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        (
            any::<usize>(),
            prop_oneof![
                Just("\n".to_string()),
                Just("@@".to_string()),
                Just("*** ".to_string()),
                "[ +\\-\r\u{2014}é]{1,2}"
            ]
        )
            .prop_map(|(at, s)| Mutation::Insert(at, s)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, mutation: &Mutation) -> String {
    let snap = |at: usize| {
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let mut lines: Vec<&str> = text.split('\n').collect();
    match mutation {
        Mutation::Delete(at) => {
            let at = snap(*at);
            let mut out = text.to_string();
            if at < out.len() {
                out.remove(at);
            }
            out
        }
        Mutation::Insert(at, s) => {
            let mut out = text.to_string();
            out.insert_str(snap(*at), s);
            out
        }
        Mutation::DuplicateLine(at) => {
            let at = at % lines.len();
            lines.insert(at, lines[at]);
            lines.join("\n")
        }
        Mutation::DropLine(at) => {
            lines.remove(at % lines.len());
            lines.join("\n")
        }
        Mutation::Truncate(at) => text[..snap(*at)].to_string(),
    }
}

#[test]
fn fuzz_mutated_valid_patches() {
    run(
        "mutated patches",
        (generated_case(), prop::collection::vec(mutation(), 1..6)),
        |((file, patch, _), mutations)| {
            let text = mutations.iter().fold(patch, |text, m| mutate(&text, m));
            exercise(&text, &file);
        },
    );
}
