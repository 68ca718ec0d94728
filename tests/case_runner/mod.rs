//! A runner for data-driven cases: JSON files in `tests/data/cases/` in the shape of the shared
//! edge cases (`files`, `outside_files`, `steps`, `expect_files`, `check_absent_abs`). Each tool
//! step runs as `agtool --groups all call <tool>` with its args on stdin, from the root.
//!
//! A case whose step names a tool that is not registered yet runs up to that step (every
//! earlier step is checked as usual) and stops there with a printed note: its later steps and
//! final expectations depend on that tool. Adding cases for a new tool is adding JSON.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

use crate::common::{Run, Ws};

/// The folder holding the case files.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases")
}

/// One case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    #[serde(default)]
    pub about: String,
    #[serde(default)]
    pub note: Option<String>,
    /// Why this copy differs from the shared original, when it does.
    #[serde(default)]
    pub adapted: Option<String>,
    #[serde(default)]
    pub files: BTreeMap<String, FileSpec>,
    #[serde(default)]
    pub outside_files: BTreeMap<String, FileSpec>,
    pub steps: Vec<Step>,
    #[serde(default)]
    pub expect_files: BTreeMap<String, Expect>,
    #[serde(default)]
    pub check_absent_abs: Vec<String>,
}

/// A file to lay down: text, hex bytes or a symlink, optionally with a mode.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    pub text: Option<String>,
    pub hex: Option<String>,
    pub symlink: Option<String>,
    pub mode: Option<String>,
}

/// A step: a tool call or a write behind agtool's back.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub tool: Option<String>,
    #[serde(default)]
    pub args: Value,
    /// The expected exit status; `null` accepts any. Required on tool steps.
    #[serde(default = "exit_missing")]
    pub exit: Value,
    pub output_matches: Option<String>,
    pub max_seconds: Option<f64>,
    pub max_output_bytes: Option<usize>,
    pub no_process_after: Option<String>,
    pub raw_write: Option<RawWrite>,
}

fn exit_missing() -> Value {
    Value::String("missing".into())
}

/// `raw_write`: change a file without agtool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWrite {
    pub path: String,
    pub text: String,
    #[serde(default)]
    pub keep_mtime: bool,
}

/// What a file must look like after the steps.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub text: Option<String>,
    pub hex: Option<String>,
    pub unchanged: Option<bool>,
    pub absent: Option<bool>,
    pub symlink: Option<String>,
    pub mode: Option<String>,
    pub one_of: Option<Vec<Expect>>,
}

/// How far a case got.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every step ran and every expectation held.
    Passed,
    /// Stopped before step `step` (1-based) because `tool` is not registered; the steps before
    /// it passed.
    Stopped { step: usize, tool: String },
}

/// Loads every `*.json` case file, in file name order.
pub fn load_all() -> Vec<(String, Case)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/data/cases")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let cases: Vec<Case> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a list of cases: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        out.extend(cases.into_iter().map(|c| (name.clone(), c)));
    }
    out
}

/// Runs one case in a fresh workspace. `Err` describes the first failure.
pub fn run_case(case: &Case, registered: &dyn Fn(&str) -> bool) -> Result<Outcome, String> {
    let ws = Ws::new();
    let root_name = ws.root.file_name().unwrap().to_string_lossy().into_owned();
    let subst = |s: &str| {
        s.replace("{ROOTNAME}", &root_name)
            .replace("{ROOT}", &ws.root.display().to_string())
    };
    let mut originals: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (rel, spec) in &case.files {
        let rel = subst(rel);
        if let Some(bytes) = lay_down(&ws.root.join(&rel), spec)? {
            originals.insert(rel, bytes);
        }
    }
    for (rel, spec) in &case.outside_files {
        lay_down(&ws.base.join(subst(rel)), spec)?;
    }
    for (i, step) in case.steps.iter().enumerate() {
        let n = i + 1;
        if let Some(w) = &step.raw_write {
            raw_write(&ws.root.join(subst(&w.path)), w).map_err(|e| format!("step {n}: {e}"))?;
            continue;
        }
        let Some(tool) = &step.tool else {
            return Err(format!("step {n}: neither tool nor raw_write"));
        };
        if !registered(tool) {
            return Ok(Outcome::Stopped {
                step: n,
                tool: tool.clone(),
            });
        }
        run_step(&ws, step, &subst_value(&step.args, &subst))
            .map_err(|e| format!("step {n} ({tool}): {e}"))?;
    }
    for (rel, expect) in &case.expect_files {
        let rel = subst(rel);
        check_file(&ws.root.join(&rel), expect, originals.get(&rel))
            .map_err(|e| format!("expect_files {rel}: {e}"))?;
    }
    for abs in &case.check_absent_abs {
        let p = PathBuf::from(subst(abs));
        if std::fs::symlink_metadata(&p).is_ok() {
            return Err(format!("check_absent_abs: {} exists", p.display()));
        }
    }
    Ok(Outcome::Passed)
}

fn subst_value(v: &Value, subst: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::String(s) => Value::String(subst(s)),
        Value::Array(a) => Value::Array(a.iter().map(|x| subst_value(x, subst)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), subst_value(x, subst)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    let hex: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd-length hex {hex:?}"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| format!("hex: {e}")))
        .collect()
}

fn parse_mode(mode: &str) -> Result<u32, String> {
    u32::from_str_radix(mode, 8).map_err(|e| format!("mode {mode:?}: {e}"))
}

/// Creates one file; returns its bytes (none for a symlink).
fn lay_down(path: &Path, spec: &FileSpec) -> Result<Option<Vec<u8>>, String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if let Some(target) = &spec.symlink {
        std::os::unix::fs::symlink(target, path).map_err(|e| e.to_string())?;
        return Ok(None);
    }
    let bytes = match (&spec.text, &spec.hex) {
        (Some(t), None) => t.clone().into_bytes(),
        (None, Some(h)) => decode_hex(h)?,
        _ => {
            return Err(format!(
                "{}: give exactly one of text, hex, symlink",
                path.display()
            ));
        }
    };
    std::fs::write(path, &bytes).map_err(|e| e.to_string())?;
    if let Some(mode) = &spec.mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(parse_mode(mode)?))
            .map_err(|e| e.to_string())?;
    }
    Ok(Some(bytes))
}

fn raw_write(path: &Path, w: &RawWrite) -> Result<(), String> {
    let before = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    std::fs::write(path, &w.text).map_err(|e| e.to_string())?;
    if w.keep_mtime {
        let t = before.ok_or("keep_mtime on a file that did not exist")?;
        let f = std::fs::File::options()
            .write(true)
            .open(path)
            .map_err(|e| e.to_string())?;
        f.set_modified(t).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn run_step(ws: &Ws, step: &Step, args: &Value) -> Result<(), String> {
    let tool = step.tool.as_deref().unwrap_or_default();
    let started = Instant::now();
    let out = ws.call(tool, args);
    let took = started.elapsed();
    match &step.exit {
        Value::Null => {}
        Value::Number(n) if n.as_i64() == Some(i64::from(out.code)) => {}
        Value::Number(n) => return Err(mismatch(&format!("exit {n}"), &out)),
        other => return Err(format!("exit must be a number or null, got {other}")),
    }
    if let Some(re) = &step.output_matches {
        let re = regex::Regex::new(re).map_err(|e| format!("output_matches: {e}"))?;
        let text = format!("{}{}", out.out, out.err);
        if !re.is_match(&text) {
            return Err(mismatch(&format!("output matching {re}"), &out));
        }
    }
    if let Some(max) = step.max_seconds
        && took > Duration::from_secs_f64(max)
    {
        return Err(format!("took {took:?}, more than {max} s"));
    }
    if let Some(max) = step.max_output_bytes
        && out.out.len() > max
    {
        return Err(format!(
            "{} bytes of output, more than {max}",
            out.out.len()
        ));
    }
    if let Some(needle) = &step.no_process_after {
        no_process_with(needle)?;
    }
    Ok(())
}

fn mismatch(wanted: &str, out: &Run) -> String {
    format!(
        "wanted {wanted}; got exit {}\n--- stdout:\n{}--- stderr:\n{}",
        out.code, out.out, out.err
    )
}

/// Fails when a process whose command line contains `needle` is still alive, allowing half a
/// second for killed processes to be reaped.
fn no_process_with(needle: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        let alive: Vec<String> = std::fs::read_dir("/proc")
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
            .filter_map(|e| {
                let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
                let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
                cmd.contains(needle)
                    .then(|| format!("{}: {cmd}", e.file_name().to_string_lossy()))
            })
            .collect();
        if alive.is_empty() {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("processes still alive: {alive:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn check_file(path: &Path, e: &Expect, original: Option<&Vec<u8>>) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(alternatives) = &e.one_of {
        let errors: Vec<String> = alternatives
            .iter()
            .filter_map(|alt| check_file(path, alt, original).err())
            .collect();
        return if errors.len() < alternatives.len() {
            Ok(())
        } else {
            Err(format!("none of the alternatives holds: {errors:?}"))
        };
    }
    let meta = std::fs::symlink_metadata(path);
    if e.absent == Some(true) {
        return match meta {
            Ok(_) => Err("exists, expected absent".into()),
            Err(_) => Ok(()),
        };
    }
    let meta = meta.map_err(|err| format!("missing: {err}"))?;
    if let Some(target) = &e.symlink {
        let got = std::fs::read_link(path).map_err(|err| format!("not a symlink: {err}"))?;
        if got != Path::new(target) {
            return Err(format!("symlink to {}, expected {target}", got.display()));
        }
    }
    let want: Option<Vec<u8>> = match (&e.text, &e.hex, e.unchanged) {
        (Some(t), _, _) => Some(t.clone().into_bytes()),
        (_, Some(h), _) => Some(decode_hex(h)?),
        (_, _, Some(true)) => Some(
            original
                .ok_or("unchanged: not laid down by the case")?
                .clone(),
        ),
        _ => None,
    };
    if let Some(want) = want {
        let got = std::fs::read(path).map_err(|err| err.to_string())?;
        if got != want {
            return Err(format!(
                "content {:?}, expected {:?}",
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            ));
        }
    }
    if let Some(mode) = &e.mode {
        let got = meta.permissions().mode() & 0o7777;
        if got != parse_mode(mode)? {
            return Err(format!("mode {got:o}, expected {mode}"));
        }
    }
    Ok(())
}
