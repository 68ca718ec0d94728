//! `cli::command_for` builds only the branch of the command tree that argv names (a start-up
//! cost cut, see its doc). Parsing must not notice: for every subcommand and a spread of
//! argument lists (valid, missing, unknown, misspelled, help), the pruned tree gives the same
//! matches or the same rendered error as the whole tree.

use std::ffi::OsString;

use agtool::cli::{command, command_for};
use clap::Command;

/// What parsing `argv` with `cmd` gives: the global values and the subcommand's matches, or
/// the error's kind, exit code and rendered text (help and usage included). The top level's
/// own debug form is not compared: in debug builds it lists the names of the subcommands
/// that were built, which is bookkeeping for clap's own assertions.
fn outcome(cmd: Command, argv: &[OsString]) -> String {
    match cmd.try_get_matches_from(argv) {
        Ok(m) => {
            let globals: Vec<String> = m
                .ids()
                .map(|id| {
                    let raw: Option<Vec<_>> = m.get_raw(id.as_str()).map(Iterator::collect);
                    format!("{id}={raw:?}")
                })
                .collect();
            format!("ok {globals:?} {:?}", m.subcommand())
        }
        Err(e) => format!("{:?} {} {}", e.kind(), e.exit_code(), e.render()),
    }
}

/// Argument lists to try after subcommand `sub`: generic ones, then each of its flags alone,
/// with a value, and misspelled.
fn tails(sub: &Command) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = [
        &[][..],
        &["--help"],
        &["-h"],
        &["--version"],
        &["--bogus"],
        &["--jsn"],
        &["--json"],
        &["--root"],
        &["--root", "/tmp", "--agent", "a"],
        &["--timeout-ms", "0"],
        &["--", "true"],
        &["x"],
        &["x", "y", "z"],
        &["help"],
        &["--args", "{}"],
    ]
    .iter()
    .map(|t| t.iter().map(|s| s.to_string()).collect())
    .collect();
    for a in sub.get_arguments() {
        if let Some(long) = a.get_long() {
            out.push(vec![format!("--{long}")]);
            out.push(vec![format!("--{long}"), "1".into()]);
            out.push(vec![format!("--{long}x")]);
        }
    }
    for s in sub.get_subcommands() {
        out.push(vec![s.get_name().to_owned()]);
        out.push(vec![s.get_name().to_owned(), "--help".into()]);
        out.push(vec![s.get_name().to_owned(), "--bogus".into()]);
    }
    out
}

#[test]
fn the_pruned_tree_parses_like_the_whole_tree() {
    let whole = command();
    let mut checked = 0;
    for sub in whole.get_subcommands() {
        for tail in tails(sub) {
            let argv: Vec<OsString> = ["agtool", sub.get_name()]
                .into_iter()
                .map(String::from)
                .chain(tail)
                .map(OsString::from)
                .collect();
            assert_eq!(
                outcome(command_for(&argv), &argv),
                outcome(command(), &argv),
                "argv {argv:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} argument lists");
}

#[test]
fn other_argument_lists_get_the_whole_tree() {
    for argv in [
        &["agtool"][..],
        &["agtool", "--json", "exec", "--", "true"],
        &["agtool", "exce"],
        &["agtool", "read_file", "x"],
        &["agtool", "help", "exec"],
    ] {
        let argv: Vec<OsString> = argv.iter().map(OsString::from).collect();
        let pruned = command_for(&argv);
        assert_eq!(
            pruned.get_subcommands().count(),
            command().get_subcommands().count(),
            "argv {argv:?}"
        );
        assert_eq!(outcome(pruned, &argv), outcome(command(), &argv));
    }
}

#[test]
fn a_tool_name_builds_that_tool_alone() {
    let argv: Vec<OsString> = ["agtool", "exec", "--", "true"]
        .iter()
        .map(OsString::from)
        .collect();
    let names: Vec<String> = command_for(&argv)
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    assert_eq!(names, ["exec"]);
}
