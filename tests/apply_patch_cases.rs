//! The shared edge cases for apply-patch (`tests/apply_patch/shared_cases.json`, copied from
//! the project's shared list): lay down the files, run each step as `agtool call <tool>` with
//! the args on stdin, check exit statuses, output and the exact bytes afterwards.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn bytes_of(spec: &Value) -> Option<Vec<u8>> {
    if let Some(text) = spec.get("text").and_then(Value::as_str) {
        return Some(text.as_bytes().to_vec());
    }
    spec.get("hex").and_then(Value::as_str).map(hex)
}

fn agtool(root: &Path) -> Command {
    let mut c = Command::cargo_bin("agtool").unwrap();
    c.current_dir(root)
        .env("AGTOOL_ROOT", root)
        .env("AGTOOL_GROUPS", "files,edit,delete")
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_FRESHNESS")
        .env_remove("AGTOOL_SYNTAX_CHECK")
        .env("XDG_CONFIG_HOME", root.join(".no-user-config"));
    c
}

fn run_case(case: &Value) -> Vec<String> {
    let id = case["id"].as_str().unwrap();
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let files = case["files"].as_object().unwrap();
    for (path, spec) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, bytes_of(spec).expect("text or hex file")).unwrap();
    }
    let mut problems = Vec::new();
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let tool = step["tool"].as_str().expect("tool steps only");
        let out = agtool(&root)
            .args(["call", tool])
            .write_stdin(step["args"].to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if let Some(want) = step["exit"].as_i64()
            && out.status.code() != Some(want as i32)
        {
            problems.push(format!(
                "{id} step {i} ({tool}): exit {:?}, expected {want}\n{stdout}",
                out.status.code()
            ));
        }
        assert!(
            step.get("output_matches").is_none(),
            "{id}: output_matches not handled"
        );
    }
    for (path, want) in case["expect_files"].as_object().unwrap() {
        let full = root.join(path);
        let got = std::fs::read(&full).ok();
        let expected = if want.get("unchanged") == Some(&Value::Bool(true)) {
            bytes_of(&files[path])
        } else if want.get("absent") == Some(&Value::Bool(true)) {
            None
        } else {
            Some(bytes_of(want).expect("text, hex, unchanged or absent"))
        };
        if got != expected {
            problems.push(format!(
                "{id}: {path} is {:?}, expected {:?}",
                got.map(|b| String::from_utf8_lossy(&b).into_owned()),
                expected.map(|b| String::from_utf8_lossy(&b).into_owned())
            ));
        }
    }
    problems
}

#[test]
fn shared_apply_patch_cases() {
    let text = include_str!("apply_patch/shared_cases.json");
    let cases: Vec<Value> = serde_json::from_str(text).unwrap();
    assert_eq!(cases.len(), 6);
    let problems: Vec<String> = cases.iter().flat_map(run_case).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
