//! Runs the write-tool cases of tests/data/write_cases.json (copied from the shared edge
//! cases, plus this branch's own) against the real binary: lays the files down, runs each
//! step as `agtool call <tool> --groups all` with the arguments on stdin, and checks exit
//! statuses, output patterns and the files on disk afterwards.

mod write_common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;
use write_common::Ws;

const CASES: &str = include_str!("data/write_cases.json");

/// Replaces `{ROOTNAME}` with the workspace folder's name, in every string of `v`.
fn substitute(v: &Value, root_name: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("{ROOTNAME}", root_name)),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, root_name)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.replace("{ROOTNAME}", root_name), substitute(x, root_name)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The bytes a file spec describes (`text` or `hex`).
fn spec_bytes(spec: &Value) -> Option<Vec<u8>> {
    if let Some(t) = spec.get("text").and_then(Value::as_str) {
        return Some(t.as_bytes().to_vec());
    }
    spec.get("hex").and_then(Value::as_str).map(hex)
}

fn lay_down(dir: &Path, files: &Value) {
    let Some(files) = files.as_object() else {
        return;
    };
    for (name, spec) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        if let Some(target) = spec.get("symlink").and_then(Value::as_str) {
            std::os::unix::fs::symlink(target, &p).unwrap();
            continue;
        }
        std::fs::write(&p, spec_bytes(spec).expect("text, hex or symlink")).unwrap();
        if let Some(mode) = spec.get("mode").and_then(Value::as_str) {
            let m = u32::from_str_radix(mode, 8).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
        }
    }
}

fn raw_write(ws: &Ws, spec: &Value) {
    let p = ws.path(spec["path"].as_str().unwrap());
    let old_mtime = std::fs::metadata(&p).ok().and_then(|m| m.modified().ok());
    std::fs::write(&p, spec_bytes(spec).unwrap()).unwrap();
    if spec.get("keep_mtime").and_then(Value::as_bool) == Some(true)
        && let Some(t) = old_mtime
    {
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(t).unwrap();
    }
}

/// Checks one expected file; `original` is what the case laid down.
fn check_file(id: &str, ws: &Ws, name: &str, want: &Value, original: Option<&Value>) {
    let p = ws.path(name);
    let meta = std::fs::symlink_metadata(&p);
    if want.get("absent").and_then(Value::as_bool) == Some(true) {
        assert!(meta.is_err(), "{id}: {name} should be gone");
        return;
    }
    let meta = meta.unwrap_or_else(|e| panic!("{id}: {name} missing: {e}"));
    if let Some(target) = want.get("symlink").and_then(Value::as_str) {
        assert!(
            meta.file_type().is_symlink(),
            "{id}: {name} is no longer a symlink"
        );
        assert_eq!(
            std::fs::read_link(&p).unwrap(),
            Path::new(target),
            "{id}: {name}"
        );
    }
    if let Some(mode) = want.get("mode").and_then(Value::as_str) {
        let m = std::fs::metadata(&p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(
            m,
            u32::from_str_radix(mode, 8).unwrap(),
            "{id}: mode of {name}"
        );
    }
    let on_disk = || std::fs::read(&p).unwrap();
    if want.get("unchanged").and_then(Value::as_bool) == Some(true) {
        let orig = original
            .and_then(spec_bytes)
            .expect("unchanged needs an original");
        assert_eq!(on_disk(), orig, "{id}: {name} must be unchanged");
    }
    if let Some(bytes) = spec_bytes(want) {
        assert_eq!(
            String::from_utf8_lossy(&on_disk()),
            String::from_utf8_lossy(&bytes),
            "{id}: content of {name}"
        );
        assert_eq!(on_disk(), bytes, "{id}: bytes of {name}");
    }
    if let Some(options) = want.get("one_of").and_then(Value::as_array) {
        let got = on_disk();
        assert!(
            options.iter().filter_map(spec_bytes).any(|b| b == got),
            "{id}: {name} is none of the allowed contents: {:?}",
            String::from_utf8_lossy(&got)
        );
    }
}

fn run_case(case: &Value) {
    let id = case["id"].as_str().unwrap();
    let ws = Ws::named("wsroot");
    let root_name = ws.root.file_name().unwrap().to_str().unwrap().to_owned();
    let case = substitute(case, &root_name);
    lay_down(&ws.root, &case["files"]);
    lay_down(&ws.base, &case["outside_files"]);
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        if let Some(spec) = step.get("raw_write") {
            raw_write(&ws, spec);
            continue;
        }
        let tool = step["tool"].as_str().unwrap();
        let started = std::time::Instant::now();
        let r = ws.call(tool, &step["args"]);
        let ctx = format!("{id} step {i} ({tool}): {}", r.all());
        if let Some(code) = step.get("exit").and_then(Value::as_i64) {
            assert_eq!(i64::from(r.code), code, "{ctx}");
        }
        if let Some(pat) = step.get("output_matches").and_then(Value::as_str) {
            let re = regex_lite(pat);
            assert!(
                re(&format!("{}{}", r.stdout, r.stderr)),
                "{ctx}\nno match for {pat}"
            );
        }
        if let Some(max) = step.get("max_seconds").and_then(Value::as_f64) {
            assert!(started.elapsed().as_secs_f64() <= max, "{ctx}: too slow");
        }
    }
    let originals = case["files"].as_object();
    if let Some(expect) = case["expect_files"].as_object() {
        for (name, want) in expect {
            check_file(id, &ws, name, want, originals.and_then(|o| o.get(name)));
        }
    }
    if let Some(outside) = case["outside_files"].as_object() {
        for (name, spec) in outside {
            let got = std::fs::read(ws.base.join(name)).unwrap();
            assert_eq!(
                Some(got),
                spec_bytes(spec),
                "{id}: outside file {name} touched"
            );
        }
    }
}

/// A matcher for the small regex subset the cases use, built on the `regex` engine that
/// `grep` already ships (via the `grep` crate's regex matcher).
fn regex_lite(pattern: &str) -> impl Fn(&str) -> bool {
    use grep::matcher::Matcher;
    let m = grep::regex::RegexMatcherBuilder::new()
        .multi_line(true)
        .build(pattern)
        .unwrap_or_else(|e| panic!("bad pattern {pattern}: {e}"));
    move |s: &str| m.is_match(s.as_bytes()).unwrap()
}

#[test]
fn write_cases() {
    let cases: Vec<Value> = serde_json::from_str(CASES).unwrap();
    assert!(cases.len() >= 20, "the case file lost cases");
    let mut failed = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap().to_owned();
        if let Err(e) = std::panic::catch_unwind(|| run_case(case)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{id}: {msg}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} case(s) failed:\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}
