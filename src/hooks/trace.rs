//! The call trace (spec 10 "Trace"): one JSON line per call, appended atomically across
//! processes, rotated at [`ROTATE_BYTES`] keeping one `.1`; and `trace summary`.
//!
//! A line: `{"ts", "tool", "agent", "face", "args_sha256", "duration_ms", "exit",
//! "output_bytes", "changed", "blocked_by"}`. `args_sha256` is the SHA-256 of the arguments
//! as canonical JSON (object keys sorted, no spaces): the arguments themselves may hold
//! secrets and never reach the trace. `exit` is the status the call has on the command line
//! (0, 1, 2, 3, 124, ...). `changed` lists the paths the call was to write (as spelled), empty
//! when it failed.
//!
//! Appending: each line is one `write(2)` on a descriptor opened with `O_APPEND`, so lines of
//! parallel processes never interleave; writers hold a shared `flock` on `<file>.lock` while
//! they open and write, and the rotation (rename to `<file>.1`) holds it exclusively, so no
//! line goes to a file being renamed away.
//!
//! Symlinks: the trace, its lock and the rotation's `.1` are never followed (a workspace could
//! otherwise plant `trace.jsonl -> /some/victim` and have agtool append to it, or create a file
//! where a link points): they are opened with `O_NOFOLLOW`, and a symlink in their place is
//! refused with a note; the call itself goes on.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use rustix::fs::{FlockOperation, flock};
use serde_json::{Map, Value, json};

use crate::error::{ToolError, ToolResult};
use crate::workspace::context::Ctx;

/// Size at which the trace is rotated, in bytes (spec 10: 10 MB).
pub const ROTATE_BYTES: u64 = 10 * 1024 * 1024;

/// The trace file of `ctx`: `AGTOOL_TRACE` (relative to the current directory), else config
/// `trace.file` (relative to the workspace root); None when neither is set.
pub fn file(ctx: &Ctx) -> Option<PathBuf> {
    if let Some(f) = std::env::var_os("AGTOOL_TRACE").filter(|f| !f.is_empty()) {
        return Some(ctx.cwd.join(f));
    }
    let f = ctx.config.trace.as_ref()?.file.as_ref()?;
    Some(ctx.root.join(f))
}

/// One call's trace line, filled in as the call goes.
#[derive(Debug, Clone)]
pub struct Record {
    tool: &'static str,
    ts: String,
    args_sha256: String,
    /// Paths the call writes (as spelled).
    pub changed: Vec<String>,
    /// `hook <command>` or `rule <n>` when one blocked the call.
    pub blocked_by: Option<String>,
    file: Option<PathBuf>,
}

impl Record {
    /// A record for a call of `tool` starting now.
    pub fn new(ctx: &Ctx, tool: &'static str) -> Record {
        Record {
            tool,
            ts: ts_now(),
            args_sha256: String::new(),
            changed: Vec::new(),
            blocked_by: None,
            file: file(ctx),
        }
    }

    /// Records the digest of the arguments the tool gets.
    pub fn digest(&mut self, args: &Value) {
        if self.file.is_some() {
            self.args_sha256 = args_sha256(args);
        }
    }

    /// Adds the hooks' `additions` to `result` (a blank line, then one per line), writes the
    /// trace line, and returns the result. A trace that cannot be written adds a `Note:` line.
    pub fn finish(
        self,
        ctx: &Ctx,
        started: Instant,
        result: ToolResult,
        additions: &[String],
    ) -> ToolResult {
        let result = add(result, additions);
        let Some(path) = &self.file else {
            return result;
        };
        let (exit, bytes) = match &result {
            Ok(o) => (0, o.text.len()),
            Err(e) => (e.exit_code(), e.model_text().len()),
        };
        let line = json!({
            "ts": self.ts,
            "tool": self.tool,
            "agent": ctx.agent,
            "face": ctx.face,
            "args_sha256": self.args_sha256,
            "duration_ms": started.elapsed().as_secs_f64() * 1000.0,
            "exit": exit,
            "output_bytes": bytes,
            "changed": if exit == 0 { self.changed } else { Vec::new() },
            "blocked_by": self.blocked_by,
        });
        if let Err(e) = append(path, &format!("{line}\n")) {
            ctx.notice(format!(
                "Note: the trace {} could not be written: {e}",
                path.display()
            ));
        }
        result
    }
}

fn add(result: ToolResult, additions: &[String]) -> ToolResult {
    if additions.is_empty() {
        return result;
    }
    let extra = additions.join("\n");
    match result {
        Ok(mut o) => {
            if !o.text.is_empty() {
                o.text = format!("{}\n\n{extra}", o.text.trim_end_matches('\n'));
            } else {
                o.text = extra;
            }
            Ok(o)
        }
        Err(mut e) => {
            e.message = format!("{}\n\n{extra}", e.message);
            Err(e)
        }
    }
}

/// SHA-256 (hex) of `v` as canonical JSON: keys sorted at every level, no whitespace.
pub fn args_sha256(v: &Value) -> String {
    let text = canonical(v).to_string();
    let d = ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    d.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let sorted: BTreeMap<&String, Value> =
                m.iter().map(|(k, v)| (k, canonical(v))).collect();
            let mut out = Map::new();
            for (k, v) in sorted {
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Now as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
fn ts_now() -> String {
    let now = SystemTime::now();
    let ms = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_millis())
        .unwrap_or(0);
    let whole = crate::text::clock::format_utc(now);
    format!("{}.{ms:03}Z", whole.trim_end_matches('Z'))
}

/// Appends `line` (ending in a newline) to `path` in one write, rotating first when the file
/// has reached [`ROTATE_BYTES`] (see the module doc). A missing folder is made.
pub fn append(path: &Path, line: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
        && !dir.is_dir()
    {
        std::fs::create_dir_all(dir)?;
    }
    let lock_path = lock_path(path);
    let lock = no_follow(
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600),
        &lock_path,
    )?;
    flock(&lock, FlockOperation::LockShared)?;
    let size = |p: &Path| std::fs::symlink_metadata(p).map(|m| m.len()).unwrap_or(0);
    if size(path) >= ROTATE_BYTES {
        // Upgrade: release, take it alone, look again (another writer may have rotated).
        flock(&lock, FlockOperation::LockExclusive)?;
        if size(path) >= ROTATE_BYTES {
            let mut old = path.as_os_str().to_owned();
            old.push(".1");
            let old = PathBuf::from(old);
            for p in [path, old.as_path()] {
                if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()) {
                    return Err(symlink_refused(p));
                }
            }
            std::fs::rename(path, old)?;
        }
        flock(&lock, FlockOperation::LockShared)?;
    }
    let mut f = no_follow(
        OpenOptions::new().create(true).append(true).mode(0o600),
        path,
    )?;
    let n = f.write(line.as_bytes())?;
    if n != line.len() {
        return Err(std::io::Error::other("the trace line was written in part"));
    }
    Ok(())
}

/// Opens `path` with `opts` and `O_NOFOLLOW`: a symlink in its place is an error naming it.
fn no_follow(opts: &mut OpenOptions, path: &Path) -> std::io::Result<std::fs::File> {
    opts.custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => symlink_refused(path),
            _ => e,
        })
}

fn symlink_refused(path: &Path) -> std::io::Error {
    std::io::Error::other(format!(
        "{} is a symlink, and the trace never follows one (remove it)",
        path.display()
    ))
}

fn lock_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

/// Most of one trace file read by `summary`, in bytes (a rotated file is at most a little
/// over [`ROTATE_BYTES`]).
const MAX_READ: u64 = 4 * ROTATE_BYTES;

/// `agtool trace summary`: per tool the calls, failures (exit not 0 nor 3), blocked calls,
/// calls that asked for approval (exit 3: neither failed nor blocked) and p50 / p95 duration
/// in ms, over the trace file and its `.1`. Errors: no trace configured; a file
/// that cannot be read.
pub fn summary(ctx: &Ctx) -> ToolResult {
    let Some(path) = file(ctx) else {
        return Err(ToolError::usage(
            "no trace is configured: set [trace] file in the config, or AGTOOL_TRACE",
        ));
    };
    let mut old = path.as_os_str().to_owned();
    old.push(".1");
    let mut per: BTreeMap<String, (u64, u64, u64, u64, Vec<f64>)> = BTreeMap::new();
    let mut bad = 0u64;
    let mut found = false;
    for p in [PathBuf::from(old), path.clone()] {
        let f = match std::fs::File::open(&p) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(crate::error::io_refusal(
                    "read",
                    &p.display().to_string(),
                    &e,
                ));
            }
        };
        found = true;
        let mut text = String::new();
        f.take(MAX_READ)
            .read_to_string(&mut text)
            .map_err(|e| crate::error::io_refusal("read", &p.display().to_string(), &e))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                bad += 1;
                continue;
            };
            let tool = v["tool"].as_str().unwrap_or("?").to_owned();
            let e = per.entry(tool).or_default();
            e.0 += 1;
            match v["exit"].as_i64().unwrap_or(0) {
                0 => {}
                // Approval needed: the rule that asked is recorded, but the call was neither
                // refused nor failed; the host decides.
                3 => e.3 += 1,
                _ if !v["blocked_by"].is_null() => {
                    e.1 += 1;
                    e.2 += 1;
                }
                _ => e.1 += 1,
            }
            e.4.push(v["duration_ms"].as_f64().unwrap_or(0.0));
        }
    }
    if !found {
        return Ok(crate::error::Output::text(format!(
            "The trace {} holds no calls yet.",
            path.display()
        )));
    }
    let mut out = format!(
        "{:<16} {:>7} {:>8} {:>7} {:>7} {:>9} {:>9}\n",
        "tool", "calls", "failed", "blocked", "asked", "p50_ms", "p95_ms"
    );
    let (mut calls, mut failed) = (0, 0);
    for (tool, (n, f, b, a, mut d)) in per {
        d.sort_by(f64::total_cmp);
        out.push_str(&format!(
            "{tool:<16} {n:>7} {f:>8} {b:>7} {a:>7} {:>9.1} {:>9.1}\n",
            percentile(&d, 50.0),
            percentile(&d, 95.0)
        ));
        calls += n;
        failed += f;
    }
    out.push_str(&format!("total: {calls} calls, {failed} failed"));
    if bad > 0 {
        out.push_str(&format!(", {bad} unreadable lines skipped"));
    }
    Ok(crate::error::Output::text(out))
}

/// The nearest-rank percentile of sorted `d` (0 for none).
fn percentile(d: &[f64], p: f64) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * d.len() as f64).ceil() as usize;
    d[rank.clamp(1, d.len()) - 1]
}
