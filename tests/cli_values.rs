//! Values as callers really pass them (found by a first-time user): command-line values that
//! start with `-`, bare boolean flags, and JSON arguments from model APIs that send `null` for
//! optional fields or `2.0` for integers.

mod common;
use common::*;
use serde_json::json;

#[test]
fn values_starting_with_a_hyphen_are_values() {
    let ws = Ws::new();
    ws.write("list.md", "- item one\n- item two\n");
    ws.run(&["read-file", "list.md"]).code(0);
    ws.run(&[
        "edit-file",
        "list.md",
        "--old",
        "- item two",
        "--new",
        "- item 2",
    ])
    .code(0);
    assert_eq!(ws.read("list.md"), b"- item one\n- item 2\n");
    ws.run(&["write-file", "d.txt", "--content", "--hello"])
        .code(0);
    assert_eq!(ws.read("d.txt"), b"--hello");
    ws.write("src.rs", "fn f() -> Result<(), ()> { Ok(()) }\n");
    let out = ws.run(&["grep", "-> Result", "--output", "content"]);
    out.code(0);
    assert!(out.out.contains("src.rs:1:fn f() -> Result"), "{}", out.out);
}

#[test]
fn a_bare_boolean_flag_means_true() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\n");
    let out = ws.run(&["read-file", "a.txt", "--anchors"]);
    out.code(0);
    assert!(out.out.contains("|one"), "{}", out.out);
    let out = ws.run(&["read-file", "a.txt", "--anchors", "false"]);
    out.code(0);
    assert!(!out.out.contains("|one"), "{}", out.out);
    let out = ws.run(&[
        "edit-file",
        "a.txt",
        "--old",
        "two",
        "--new",
        "2",
        "--dry-run",
    ]);
    out.code(0);
    assert_eq!(
        ws.read("a.txt"),
        b"one\ntwo\n",
        "a dry run wrote: {}",
        out.out
    );
}

#[test]
fn null_members_are_absent_and_whole_floats_are_integers() {
    let ws = Ws::new();
    ws.write("a.txt", "one\ntwo\nthree\n");
    let out = ws.call(
        "read_file",
        &json!({"path": "a.txt", "offset": 2.0, "limit": null, "anchors": null}),
    );
    out.code(0);
    assert!(out.out.contains("L2: two"), "{}", out.out);
    assert!(!out.out.contains("L1: one"), "{}", out.out);
    let out = ws.call(
        "edit_file",
        &json!({"path": "a.txt", "edits": [{"old": "three", "new": "3", "all": null}]}),
    );
    out.code(0);
    assert_eq!(ws.read("a.txt"), b"one\ntwo\n3\n");
    // A fraction is still refused, in the spec's format.
    let out = ws.call("read_file", &json!({"path": "a.txt", "offset": 2.5}));
    out.code(2);
    assert!(
        out.err.contains("/offset: expected integer >= 1, got 2.5"),
        "{}",
        out.err
    );
    // A field sent as null is missing: read_file then has neither path nor paths.
    let out = ws.call("read_file", &json!({"path": null}));
    out.code(2);
    assert!(
        out.err.contains("give path (one file) or paths"),
        "{}",
        out.err
    );
}

#[test]
fn no_schema_offers_a_null_default() {
    let ws = Ws::new();
    let out = ws.run(&[
        "schema",
        "--groups",
        "files,edit,exec",
        "--format",
        "openai",
    ]);
    out.code(0);
    assert!(!out.out.contains("\"default\":null"), "{}", out.out);
    assert!(!out.out.contains("\"default\": null"), "{}", out.out);
}

#[test]
fn bare_boolean_flags_in_a_row_stay_separate_flags() {
    let ws = Ws::new();
    ws.mkdir("build/sub");
    ws.write("build/sub/x.o", "x");
    for flags in [["--recursive", "--dry-run"], ["--dry-run", "--recursive"]] {
        let out = ws.run(&["delete-path", "build", flags[0], flags[1]]);
        out.code(0);
        assert!(
            ws.path("build/sub/x.o").exists(),
            "a dry run deleted: {}",
            out.out
        );
    }
}
