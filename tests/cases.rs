//! Data-driven cases from `tests/data/cases/*.json`: the shared edge cases (copied from the
//! project's shared documents) and agtool's own. See `case_runner` for the format and for how
//! cases using tools that do not exist yet are handled.

mod case_runner;
mod common;

use case_runner::{Case, Outcome, load_all, run_case};
use serde_json::json;

fn registered(tool: &str) -> bool {
    agtool::tools::find(tool).is_some()
}

#[test]
fn every_case_in_tests_data_cases() {
    let cases = load_all();
    assert!(!cases.is_empty(), "no cases found");
    let mut ids = std::collections::BTreeSet::new();
    let (mut passed, mut stopped, mut failures) = (0, 0, Vec::new());
    for (file, case) in &cases {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
        match run_case(case, &registered) {
            Ok(Outcome::Passed) => {
                passed += 1;
                println!("ok       {file} {}", case.id);
            }
            Ok(Outcome::Stopped { step, tool }) => {
                stopped += 1;
                println!(
                    "stopped  {file} {}: step {step} uses {tool}, which is not registered yet; \
                     the steps before it passed, later steps and expect_files were not checked",
                    case.id
                );
            }
            Err(e) => {
                let note = [&case.note, &case.adapted]
                    .iter()
                    .filter_map(|n| n.as_deref().map(|n| format!(" [{n}]")))
                    .collect::<String>();
                failures.push(format!("{file} {} ({}){note}: {e}", case.id, case.about));
            }
        }
    }
    println!(
        "{passed} passed, {stopped} stopped at an unregistered tool, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "failing cases:\n{}",
        failures.join("\n\n")
    );
}

/// The shared cases about reading, symlinks and grep run in full with the read tools alone.
#[test]
fn the_read_tool_cases_run_in_full() {
    let wanted = [
        "fs-symlink-escape-read",
        "fs-prefix-sibling-refused",
        "grep-context-lines",
    ];
    let cases = load_all();
    for id in wanted {
        let (_, case) = cases
            .iter()
            .find(|(_, c)| c.id == id)
            .unwrap_or_else(|| panic!("case {id} is missing from tests/data/cases"));
        assert_eq!(run_case(case, &registered), Ok(Outcome::Passed), "{id}");
    }
    // Every step of agtool's own read-tool cases uses a registered tool.
    let own: Vec<&Case> = cases
        .iter()
        .filter(|(f, _)| f == "read-tools.json")
        .map(|(_, c)| c)
        .collect();
    assert!(own.len() >= 10, "read-tools.json has {} cases", own.len());
    for case in own {
        assert_eq!(
            run_case(case, &registered),
            Ok(Outcome::Passed),
            "{}",
            case.id
        );
    }
}

fn case(v: serde_json::Value) -> Case {
    serde_json::from_value(v).unwrap()
}

/// The runner itself must be able to fail: a wrong expectation of every kind is reported.
#[test]
fn the_runner_reports_every_kind_of_wrong_expectation() {
    let wrong = [
        json!({"id": "exit", "files": {"a.txt": {"text": "a\n"}},
               "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 1}]}),
        json!({"id": "output", "files": {"a.txt": {"text": "a\n"}},
               "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 0,
                          "output_matches": "L1: b"}]}),
        json!({"id": "size", "files": {"a.txt": {"text": "a\n"}},
               "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 0,
                          "max_output_bytes": 3}]}),
        json!({"id": "content", "files": {"a.txt": {"text": "a\n"}},
               "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 0}],
               "expect_files": {"a.txt": {"text": "b\n"}}}),
        json!({"id": "absent", "files": {"a.txt": {"text": "a\n"}},
               "steps": [], "expect_files": {"a.txt": {"absent": true}}}),
        json!({"id": "abs", "files": {"a.txt": {"text": "a\n"}},
               "steps": [], "check_absent_abs": ["{ROOT}/a.txt"]}),
        json!({"id": "mode", "files": {"a.sh": {"text": "", "mode": "755"}},
               "steps": [], "expect_files": {"a.sh": {"mode": "644"}}}),
        json!({"id": "one_of", "files": {"a.txt": {"text": "a\n"}},
               "steps": [], "expect_files": {"a.txt": {"one_of": [{"text": "x"}, {"absent": true}]}}}),
        // A failing step before an unregistered tool is still a failure.
        json!({"id": "before-stop", "files": {"a.txt": {"text": "a\n"}},
               "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 2},
                         {"tool": "no_such_tool", "args": {}, "exit": 0}]}),
    ];
    for v in wrong {
        let c = case(v);
        assert!(
            run_case(&c, &registered).is_err(),
            "case {} should fail",
            c.id
        );
    }
}

#[test]
fn the_runner_passes_right_expectations_and_stops_at_unknown_tools() {
    let c = case(json!({"id": "right",
        "files": {"a.txt": {"hex": "610a"}, "l": {"symlink": "a.txt"}, "s.sh": {"text": "", "mode": "750"}},
        "outside_files": {"{ROOTNAME}_x/y.txt": {"text": "y"}},
        "steps": [
            {"tool": "read_file", "args": {"path": "l"}, "exit": 0, "output_matches": "^\\[l#[0-9A-F]{8}\\]\nL1: a\n$"},
            {"raw_write": {"path": "a.txt", "text": "b\n", "keep_mtime": true}},
            {"tool": "read_file", "args": {"path": "../{ROOTNAME}_x/y.txt"}, "exit": 1, "max_seconds": 30},
            {"tool": "grep", "args": {"pattern": "b"}, "exit": null}
        ],
        "expect_files": {"a.txt": {"text": "b\n"}, "l": {"symlink": "a.txt"}, "s.sh": {"mode": "750"},
                         "gone": {"absent": true}, "a.txt ": {"one_of": [{"absent": true}]}},
        "check_absent_abs": ["{ROOT}/nothing"]}));
    assert_eq!(run_case(&c, &registered), Ok(Outcome::Passed));
    let c = case(json!({"id": "stop", "files": {"a.txt": {"text": "a\n"}},
        "steps": [{"tool": "read_file", "args": {"path": "a.txt"}, "exit": 0},
                  {"tool": "no_such_tool", "args": {}, "exit": 0}],
        "expect_files": {"a.txt": {"text": "never checked"}}}));
    assert_eq!(
        run_case(&c, &registered),
        Ok(Outcome::Stopped {
            step: 2,
            tool: "no_such_tool".into()
        })
    );
}
