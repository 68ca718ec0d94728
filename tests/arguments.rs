//! The framework through the real binary: bad arguments and JSON of every kind (issue 2, "Bad
//! input must get a clear error and change nothing"), the three ways to pass arguments,
//! `--json`, `schema` and `call` (spec 00, spec 07). Bad paths are in `bad_paths.rs`.

mod common;
use common::*;
use serde_json::{Value, json};

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let ws = Ws::new();
    let line = "x".repeat(100);
    ws.write("big.txt", format!("{line}\n").repeat(3000));
    let mut child = ws
        .std_cmd_in(&ws.root)
        .args(["read-file", "big.txt"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away at once, like `agtool ... | head -1`.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

#[test]
fn unknown_tools() {
    let ws = Ws::new();
    let out = ws.run(&["frobnicate"]);
    out.code(2);
    assert!(
        out.err.contains("unrecognized subcommand 'frobnicate'"),
        "{}",
        out.err
    );
    let out = ws.call("frobnicate", &json!({}));
    out.code(2);
    assert!(
        out.err.contains(
            "unknown tool \"frobnicate\"; the tools here: read_file, list_dir, glob, grep"
        ),
        "{}",
        out.err
    );
    // Only the tools on offer are named (skill is left out: there is no skill folder).
    assert!(!out.err.contains("skill"), "{}", out.err);
    let out = Run::from(
        ws.cmd()
            .arg("call")
            .write_stdin(r#"{"name": "frobnicate", "input": {}}"#)
            .output()
            .unwrap(),
    );
    out.code(2);
    assert!(out.err.contains("unknown tool"), "{}", out.err);
}

#[test]
fn malformed_json_everywhere() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n");
    let stdin = |args: &[&str], input: &str| {
        Run::from(
            ws.cmd()
                .args(args)
                .write_stdin(input.to_owned())
                .output()
                .unwrap(),
        )
    };
    let out = stdin(&["call", "read_file"], "{\"path\": ");
    out.code(2);
    assert!(
        out.err.contains("call arguments: not valid JSON"),
        "{}",
        out.err
    );
    let out = stdin(&["call"], "{oops");
    out.code(2);
    assert!(out.err.contains("envelope: not valid JSON"), "{}", out.err);
    let out = stdin(&["call", "--batch"], "[{");
    out.code(2);
    let out = ws.run(&["read-file", "--args", "{'path': 'a.txt'}"]);
    out.code(2);
    assert!(out.err.contains("--args: not valid JSON"), "{}", out.err);
    let out = stdin(&["read-file", "--args", "-"], "[\"a.txt\"]");
    out.code(2);
    assert!(
        out.err.contains("expected a JSON object, got an array"),
        "{}",
        out.err
    );
    let out = ws.run(&["read-file", "--args", "@missing.json"]);
    out.code(2);
    assert!(
        out.err.contains("--args @missing.json: cannot read"),
        "{}",
        out.err
    );
    let out = stdin(&["call"], r#"{"input": {"path": "a.txt"}}"#);
    out.code(2);
    assert!(
        out.err.contains("missing string field \"name\""),
        "{}",
        out.err
    );
    let out = stdin(&["call"], r#"{"name": "read_file", "arguments": "{nope"}"#);
    out.code(2);
    assert!(
        out.err.contains("envelope arguments: not valid JSON"),
        "{}",
        out.err
    );
    // The indentation flag takes a JSON object.
    let out = ws.run(&["read-file", "a.txt", "--indentation", "{bad"]);
    out.code(2);
    assert!(out.out.is_empty());
}

#[test]
fn wrong_types_are_all_reported_at_once() {
    let ws = Ws::new();
    let out = ws.call(
        "read_file",
        &json!({"path": 5, "offset": "ten", "limit": -1, "mode": "fancy", "anchors": "yes",
                "indentation": {"max_levels": "x", "bogus": true}, "colour": "red"}),
    );
    out.code(2);
    for line in [
        "/path: expected string, got 5",
        "/offset: expected integer >= 1, got \"ten\"",
        "/limit: expected integer >= 1, got -1",
        "/mode: expected one of \"slice\", \"indentation\", got \"fancy\"",
        "/anchors: expected boolean, got \"yes\"",
        "/indentation/max_levels: expected integer",
        "/indentation/bogus: unknown field",
        "/colour: unknown field (known fields: path, paths, pages, offset, limit, mode, indentation, anchors, tail)",
    ] {
        assert!(out.err.contains(line), "missing {line:?} in:\n{}", out.err);
    }
    let out = ws.call("grep", &json!({"case": "loud", "limit": 1.5}));
    out.code(2);
    assert!(
        out.err.contains("/pattern: required, but missing"),
        "{}",
        out.err
    );
    assert!(
        out.err
            .contains("/case: expected one of \"smart\", \"sensitive\", \"insensitive\""),
        "{}",
        out.err
    );
    assert!(out.err.contains("/limit: expected integer"), "{}", out.err);
    // A flag that does not parse is refused by the command line parser, naming the flag.
    let out = ws.run(&["list-dir", "--depth", "deep"]);
    out.code(2);
    assert!(
        out.err.contains("invalid value 'deep' for '--depth"),
        "{}",
        out.err
    );
}

#[test]
fn args_cannot_be_mixed_with_flags() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n");
    let out = ws.run(&[
        "read-file",
        "--offset",
        "1",
        "--args",
        "{\"path\":\"a.txt\"}",
    ]);
    out.code(2);
    assert!(
        out.err
            .contains("--args cannot be combined with other arguments (got offset)"),
        "{}",
        out.err
    );
}

/// The same call made every way spec 00 allows must print the same bytes.
fn every_way(ws: &Ws, tool: &str, flags: &[&str], args: Value) -> Vec<(String, Run)> {
    let kebab = tool.replace('_', "-");
    std::fs::write(ws.path("args.json"), args.to_string()).unwrap();
    let mut runs = vec![];
    let mut direct = vec![kebab.as_str()];
    direct.extend(flags);
    runs.push(("flags".to_owned(), ws.run(&direct)));
    runs.push((
        "--args JSON".to_owned(),
        ws.run(&[&kebab, "--args", &args.to_string()]),
    ));
    let piped = ws
        .cmd()
        .args([&kebab, "--args", "-"])
        .write_stdin(args.to_string())
        .output();
    runs.push(("--args -".to_owned(), Run::from(piped.unwrap())));
    runs.push((
        "--args @FILE".to_owned(),
        ws.run(&[&kebab, "--args", "@args.json"]),
    ));
    runs.push(("call NAME".to_owned(), ws.call(tool, &args)));
    let anthropic = json!({"type": "tool_use", "id": "toolu_1", "name": tool, "input": args});
    let openai = json!({"name": tool, "arguments": args.to_string()});
    let openai_wrapped = json!({"id": "call_1", "type": "function",
        "function": {"name": tool, "arguments": args.to_string()}});
    for (label, envelope) in [
        ("anthropic envelope", anthropic),
        ("openai envelope", openai),
        ("openai tool_call", openai_wrapped),
    ] {
        let out = ws
            .cmd()
            .arg("call")
            .write_stdin(envelope.to_string())
            .output();
        runs.push((label.to_owned(), Run::from(out.unwrap())));
    }
    runs
}

#[test]
fn the_ways_to_pass_arguments_give_identical_output() {
    let ws = Ws::new();
    ws.write("src/a.rs", "fn a() {}\n// needle\nfn b() {}\n")
        .write("src/b.rs", "needle\n")
        .write("src/sub/c.rs", "x\n");
    ws.set_mtime("src/a.rs", 1_000).set_mtime("src/b.rs", 2_000);
    let cases = [
        (
            "read_file",
            vec![
                "src/a.rs",
                "--offset",
                "2",
                "--limit",
                "1",
                "--anchors",
                "true",
            ],
            json!({"path": "src/a.rs", "offset": 2, "limit": 1, "anchors": true}),
        ),
        (
            "list_dir",
            vec!["src", "--depth", "1", "--limit", "2"],
            json!({"path": "src", "depth": 1, "limit": 2}),
        ),
        (
            "glob",
            vec!["*.rs", "src", "--limit", "2"],
            json!({"pattern": "*.rs", "path": "src", "limit": 2}),
        ),
        (
            "grep",
            vec![
                "NEEDLE",
                "src",
                "--output",
                "content",
                "--context",
                "1",
                "--case",
                "insensitive",
            ],
            json!({"pattern": "NEEDLE", "path": "src", "output": "content", "context": 1, "case": "insensitive"}),
        ),
    ];
    for (tool, flags, args) in cases {
        let runs = every_way(&ws, tool, &flags, args);
        let (_, first) = &runs[0];
        assert!(
            first.code == 0 && !first.out.is_empty(),
            "{tool}: {first:?}"
        );
        for (label, run) in &runs[1..] {
            assert_eq!(
                (run.code, &run.out, &run.err),
                (first.code, &first.out, &first.err),
                "{tool}: {label} differs from flags"
            );
        }
    }
}

#[test]
fn json_envelope_for_success_refusal_and_usage_error() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n");
    let out = ws.run(&["--json", "list-dir"]);
    let v: Value = serde_json::from_str(out.ok()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(&keys[..4], ["ok", "output", "error", "exit"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["error"], Value::Null);
    assert!(v["output"].as_str().unwrap().contains("a.txt"));

    let out = ws.run(&["read-file", "missing.txt", "--json"]);
    out.code(1);
    let v: Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"], "missing.txt does not exist");
    assert_eq!(v["output"], "Error: missing.txt does not exist");

    let out = ws.run(&["--json", "read-file", "a.txt", "--offset", "0"]);
    out.code(2);
    let v: Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("/offset: expected integer >= 1, got 0")
    );
    assert!(
        out.err.contains("/offset"),
        "the message is on stderr too: {}",
        out.err
    );

    // A flag clap refuses: the envelope too (stdout was empty, clap's text on stderr only).
    let out = ws.run(&["--json", "read-file", "a.txt", "--offset", "ten"]);
    out.code(2);
    let v: Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["exit"].clone()),
        (json!(false), json!(2)),
        "{v}"
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("invalid value 'ten' for '--offset"),
        "{v}"
    );
    assert!(out.err.contains("invalid value 'ten'"), "{}", out.err);
    // The whole message, with what is missing and clap's tip (only the first line was kept).
    let out = ws.run(&["--json", "read-file", "a.txt", "--offest", "3"]);
    let v: Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(
        v["error"],
        "unexpected argument '--offest' found; tip: a similar argument exists: '--offset'"
    );
    let out = ws.run(&["--json", "move-path", "a.txt"]);
    let v: Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(
        v["error"],
        "the following required arguments were not provided: <DESTINATION>"
    );
    // After `--` an argument is a command's own.
    let out = ws.run(&["read-file", "a.txt", "--bogus", "--", "--json"]);
    out.code(2);
    assert!(out.out.is_empty(), "{}", out.out);
}

fn property_order(schema: &Value) -> Vec<String> {
    schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[test]
fn schema_keeps_declaration_order_in_every_format() {
    let ws = Ws::new();
    let expected: [(&str, &[&str]); 5] = [
        (
            "read_file",
            &[
                "path",
                "paths",
                "pages",
                "offset",
                "limit",
                "mode",
                "indentation",
                "anchors",
                "tail",
            ],
        ),
        (
            "list_dir",
            &["path", "offset", "limit", "depth", "hidden", "ignored"],
        ),
        ("glob", &["pattern", "path", "limit", "hidden", "ignored"]),
        (
            "grep",
            &[
                "pattern",
                "path",
                "include",
                "limit",
                "case",
                "fixed_strings",
                "output",
                "context",
                "multiline",
                "hidden",
                "ignored",
                "names",
            ],
        ),
        ("diagnostics", &["paths"]),
    ];
    for format in ["anthropic", "openai", "mcp"] {
        let out = ws.run(&["schema", "--format", format, "--extensions"]);
        let defs: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
        assert_eq!(defs.len(), 5, "{format}: the files group is on by default");
        for (def, (name, props)) in defs.iter().zip(expected) {
            let (got_name, schema) = match format {
                "anthropic" => (&def["name"], &def["input_schema"]),
                "openai" => {
                    assert_eq!(def["type"], "function");
                    (&def["function"]["name"], &def["function"]["parameters"])
                }
                _ => {
                    assert_eq!(def["annotations"]["readOnlyHint"], true);
                    assert_eq!(def["annotations"]["destructiveHint"], false);
                    (&def["name"], &def["inputSchema"])
                }
            };
            assert_eq!(got_name, name, "{format}");
            assert_eq!(property_order(schema), props, "{format} {name}");
            assert_eq!(schema["additionalProperties"], false, "{format} {name}");
            let x = &def["x-agtool"];
            assert_eq!(x["group"], "files");
            assert_eq!(x["sensitive"], false);
            assert_eq!(x["serial"], false);
            let timeout = if matches!(name, "glob" | "grep") {
                60_000
            } else {
                30_000
            };
            assert_eq!(x["timeout_ms"], timeout, "{name}");
        }
        // Nested objects keep their order too.
        let rf = &defs[0];
        let schema = match format {
            "anthropic" => &rf["input_schema"],
            "openai" => &rf["function"]["parameters"],
            _ => &rf["inputSchema"],
        };
        assert_eq!(
            property_order(&schema["properties"]["indentation"]),
            [
                "anchor_line",
                "max_levels",
                "include_siblings",
                "include_header",
                "max_lines"
            ]
        );
    }
    // API-clean by default; --no-extensions is the old spelling of the default.
    for args in [
        &["schema", "grep"][..],
        &["schema", "grep", "--no-extensions"],
    ] {
        let out = ws.run(args);
        let defs: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
        assert!(defs[0].get("x-agtool").is_none());
    }
    let out = ws.run(&["schema", "grep"]);
    let defs: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(
        defs[0]["input_schema"]["properties"]["limit"]["maximum"],
        2000
    );
}

#[test]
fn call_honours_groups_and_direct_subcommands_always_run() {
    let ws = Ws::new();
    ws.write("a.txt", "hit\n");
    let out = Run::from(
        ws.cmd()
            .args(["--groups", "edit", "call", "grep"])
            .write_stdin(r#"{"pattern": "hit"}"#)
            .output()
            .unwrap(),
    );
    out.code(1);
    assert_eq!(
        out.out,
        "Error: grep is in the group files, which is not enabled (enabled: edit, from --groups); enable it with --groups edit,files (or AGTOOL_GROUPS, or config tools.groups)\n"
    );
    assert_eq!(ws.run(&["--groups", "edit", "grep", "hit"]).ok(), "a.txt\n");
    // The schema export leaves the files group out too.
    let out = ws.run(&["schema", "--groups", "edit", "--extensions"]);
    let defs: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    assert!(
        defs.iter().all(|d| d["x-agtool"]["group"] == "edit"),
        "{}",
        out.out
    );
}

#[test]
fn call_batch_runs_in_parallel_and_keeps_input_order() {
    let ws = Ws::new();
    ws.write("a.txt", "hit\n");
    let batch = json!([
        {"name": "glob", "input": {"pattern": "*.txt"}},
        {"name": "read_file", "input": {"path": "missing"}},
        {"name": "grep", "arguments": "{\"pattern\": \"hit\"}"}
    ]);
    let out = Run::from(
        ws.cmd()
            .args(["call", "--batch"])
            .write_stdin(batch.to_string())
            .output()
            .unwrap(),
    );
    let v: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(
        v[0],
        json!({"name": "glob", "ok": true, "output": "a.txt\n", "exit": 0})
    );
    assert_eq!(v[1]["ok"], false);
    assert_eq!(
        v[2],
        json!({"name": "grep", "ok": true, "output": "a.txt\n", "exit": 0})
    );
}

/// A list of values (`diagnostics a.py b.py`, `read-file --paths a b`) took every flag after
/// it as one more value: `diagnostics a.py --json` answered `Error: --json does not exist`
/// (new-user trial). Flags after a list are flags; a list value starting with `-` is given as
/// `./-x`.
#[test]
fn flags_after_a_list_of_values_are_flags() {
    let ws = Ws::new();
    ws.write("a.txt", "one\n").write("-x.txt", "two\n");
    let out = ws.run(&["read-file", "--paths", "a.txt", "./-x.txt", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.ok()).expect("one JSON object");
    assert_eq!(v["files"].as_array().map(Vec::len), Some(2), "{v}");
    let out = ws.run(&["diagnostics", "a.txt", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out.out).expect("one JSON object");
    assert!(v["output"].as_str().is_some(), "{v}");
}
