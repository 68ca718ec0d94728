//! The apply-patch scenario suite (spec 04): every folder under
//! `tests/apply_patch/scenarios/` is one scenario, run against the real binary in a temp
//! workspace. See `tests/apply_patch/README.md` for the layout.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// Marks an empty directory in a stored tree (git keeps no empty directories).
const EMPTY_MARKER: &str = ".scenario-empty";

#[derive(Debug, PartialEq, Eq)]
enum Node {
    Dir,
    File(Vec<u8>),
    Link(PathBuf),
}

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/apply_patch/scenarios")
}

/// Copies a stored tree into `to`, turning marker files into empty directories.
fn lay_down(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    if !from.exists() {
        // git keeps no empty folders: a scenario whose input is empty has no input/ in a
        // fresh clone.
        return;
    }
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if kind.is_dir() {
            lay_down(&src, &dst);
        } else if entry.file_name() != EMPTY_MARKER {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Every directory, file and symlink under `dir` (relative paths), skipping the state folder
/// at the top and marker files.
fn snapshot(dir: &Path) -> BTreeMap<String, Node> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Node>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let kind = entry.file_type().unwrap();
            if rel == ".agent-state" || entry.file_name() == EMPTY_MARKER {
                continue;
            }
            if kind.is_symlink() {
                out.insert(rel, Node::Link(std::fs::read_link(&path).unwrap()));
            } else if kind.is_dir() {
                out.insert(rel, Node::Dir);
                walk(base, &path, out);
            } else {
                out.insert(rel, Node::File(std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn agtool(root: &Path) -> Command {
    let mut c = Command::cargo_bin("agtool").unwrap();
    c.current_dir(root)
        .arg("--root")
        .arg(root)
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_GROUPS")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_FRESHNESS")
        .env_remove("AGTOOL_SYNTAX_CHECK")
        .env("XDG_CONFIG_HOME", root.join(".no-user-config"));
    c
}

fn strings(meta: &Value, key: &str) -> Vec<String> {
    meta.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs one scenario; returns a description of every way it failed.
fn run_scenario(dir: &Path) -> Vec<String> {
    let meta: Value = std::fs::read_to_string(dir.join("scenario.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(Value::Null);
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("ws");
    lay_down(&dir.join("input"), &root);
    let root = root.canonicalize().unwrap();
    let before = snapshot(&root);

    let reads: Vec<String> = match meta.get("read") {
        Some(_) => strings(&meta, "read"),
        None => before
            .iter()
            .filter(|(_, node)| matches!(node, Node::File(_)))
            .map(|(path, _)| path.clone())
            .collect(),
    };
    let mut problems = Vec::new();
    for path in &reads {
        let out = agtool(&root).args(["read-file", path]).output().unwrap();
        if out.status.code() != Some(0) {
            problems.push(format!(
                "read-file {path} failed: {}",
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    if let Some(changes) = meta.get("change_after_read").and_then(Value::as_object) {
        for (path, text) in changes {
            std::fs::write(root.join(path), text.as_str().unwrap()).unwrap();
        }
    }

    let mut cmd = agtool(&root);
    if meta.get("no_freshness") == Some(&Value::Bool(true)) {
        cmd.arg("--no-freshness");
    }
    cmd.arg("apply-patch").args(strings(&meta, "args"));
    let out = cmd
        .write_stdin(std::fs::read(dir.join("patch.txt")).unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let want_exit = meta.get("exit").and_then(Value::as_i64).unwrap_or(0) as i32;
    if out.status.code() != Some(want_exit) {
        problems.push(format!(
            "exit {:?}, expected {want_exit}; stdout:\n{stdout}stderr:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    for want in strings(&meta, "stdout") {
        if !stdout.contains(&want) {
            problems.push(format!("stdout lacks {want:?}; stdout:\n{stdout}"));
        }
    }
    for unwanted in strings(&meta, "stdout_absent") {
        if stdout.contains(&unwanted) {
            problems.push(format!("stdout has {unwanted:?}; stdout:\n{stdout}"));
        }
    }
    if let Some(start) = meta.get("stdout_starts").and_then(Value::as_str)
        && !mask_tags(&stdout).starts_with(start)
    {
        problems.push(format!(
            "stdout does not start with {start:?}; stdout:\n{stdout}"
        ));
    }

    // The whole tree afterwards: `expected/`, or for a scenario without it the input as it
    // was (a refusal or a dry run changes nothing).
    let expected = match dir.join("expected").is_dir() {
        true => {
            let shown = temp.path().join("expected");
            lay_down(&dir.join("expected"), &shown);
            snapshot(&shown)
        }
        false => before,
    };
    let after = snapshot(&root);
    if after != expected {
        problems.push(format!("tree differs:\n got {after:?}\nwant {expected:?}"));
    }
    let strays: Vec<&String> = after.keys().filter(|p| p.contains(".agtool-")).collect();
    if !strays.is_empty() {
        problems.push(format!("temp files left: {strays:?}"));
    }
    problems
}

/// `text` with every content tag `[path#XXXXXXXX]` written as `[path#TAG]`.
fn mask_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let is_tag = tail.len() >= 9
            && tail.as_bytes()[8] == b']'
            && tail[..8]
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b));
        if is_tag {
            out.push_str("#TAG]");
            rest = &tail[9..];
        } else {
            out.push('#');
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn apply_patch_scenarios() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 30, "only {} scenarios", dirs.len());
    let mut failures = Vec::new();
    for dir in &dirs {
        let problems = run_scenario(dir);
        if !problems.is_empty() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            failures.push(format!("== {name}\n{}", problems.join("\n")));
        }
    }
    eprintln!("{} scenarios, {} failed", dirs.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
