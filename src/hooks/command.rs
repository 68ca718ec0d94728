//! Running one hook command (spec 10 "Hooks on every tool"): the event JSON on its stdin,
//! stdout and stderr read into bounded buffers, a timeout that kills its whole process tree,
//! and Claude Code's exit-code contract.
//!
//! The hook runs outside any sandbox, with agtool's own rights (it is the host's code), in the
//! current directory, as the leader of its own process group and tagged like an exec tree
//! ([`crate::exec::tree::TAG_VAR`]), so the exec core's tree killing finds everything it
//! started, daemons that left the group included. Whatever of its tree is still alive when
//! the hook exits (a daemon it forked) is killed then: a hook must not leave processes behind.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

use crate::exec::tree::{
    Leaders, TAG_VAR, Tree, TreeLease, become_subreaper, kill_tree, may_have_survivors,
};
use crate::workspace::config::{HookCommand, HookConfig};

/// Default hook timeout in ms (spec 10).
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// Most of a hook's stdout kept, in bytes; the rest is read and dropped, so a hook writing
/// 100 MB costs no memory. JSON output longer than this is not valid JSON and is ignored with
/// a note.
pub const MAX_STDOUT_BYTES: usize = 1 << 20;

/// Most of a hook's stderr kept (the reason of a block), in bytes.
pub const MAX_STDERR_BYTES: usize = 16 << 10;

/// Events up to this size are written to the hook's stdin without a thread: Linux pipes
/// buffer 64 KiB, so the write never waits for the hook.
const PIPE_SAFE_BYTES: usize = 32 << 10;

/// How long the pipes are read after the hook exits (a daemon holding them open).
const DRAIN: Duration = Duration::from_millis(200);

/// A configured hook, compiled.
#[derive(Debug, Clone)]
pub struct HookRun {
    /// How messages name it: its command as written, shortened.
    pub label: String,
    argv: Vec<String>,
    matcher: Option<Regex>,
    timeout_ms: u64,
}

/// How a hook ended (Claude Code's contract, spec 10).
#[derive(Debug, Clone, PartialEq)]
pub enum HookOutcome {
    /// Exit 0: go on, with its stdout JSON object when it printed one.
    Done(Option<Value>),
    /// Exit 2: block; stderr is the reason.
    Block(String),
    /// Any other ending (another exit status, a signal, not started, timed out, unreadable
    /// JSON): one `Note:` line for the caller; the call goes on as without the hook.
    Failed(String),
}

impl HookRun {
    /// Compiles one `[[hooks.*]]` entry. Errors: an empty command, a matcher that is no valid
    /// regex, a zero timeout.
    pub fn from_config(h: &HookConfig) -> Result<HookRun, String> {
        let (argv, label) = match &h.command {
            HookCommand::Shell(s) if !s.trim().is_empty() => {
                (vec!["sh".into(), "-c".into(), s.clone()], s.clone())
            }
            HookCommand::Argv(v) if v.first().is_some_and(|a| !a.is_empty()) => {
                (v.clone(), v.join(" "))
            }
            _ => return Err("a hook's command is empty (config hooks.*.command)".into()),
        };
        let matcher = match h.matcher.as_deref() {
            None | Some("*") | Some("") => None,
            Some(m) => Some(
                Regex::new(&format!("^(?:{m})$"))
                    .map_err(|e| format!("hook matcher {m:?} is not a valid regex: {e}"))?,
            ),
        };
        let timeout_ms = h.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        if timeout_ms == 0 {
            return Err(format!("hook {label}: timeout_ms must be above 0"));
        }
        Ok(HookRun {
            label: shorten(&label),
            argv,
            matcher,
            timeout_ms,
        })
    }

    /// Whether the hook's matcher names `tool` (anchored at both ends).
    pub fn matches(&self, tool: &str) -> bool {
        self.matcher.as_ref().is_none_or(|m| m.is_match(tool))
    }

    /// Runs the hook with `event` on its stdin and maps its ending (see [`HookOutcome`]).
    pub fn run(&self, event: &Value) -> HookOutcome {
        let note = |what: String| HookOutcome::Failed(format!("Note: hook {} {what}", self.label));
        let ran = match self.spawn_and_wait(event) {
            Ok(r) => r,
            Err(e) => return note(format!("could not start: {e}; the call went on without it")),
        };
        let Some(code) = ran.code else {
            return note(format!(
                "timed out after {} ms; its processes were killed and the call went on",
                self.timeout_ms
            ));
        };
        let stderr = String::from_utf8_lossy(&ran.stderr).trim().to_owned();
        match code {
            0 => {
                let text = String::from_utf8_lossy(&ran.stdout);
                let text = text.trim();
                if text.is_empty() || !(text.starts_with('{') || text.starts_with('[')) {
                    // Plain text on exit 0 is for the log, as in Claude Code.
                    return HookOutcome::Done(None);
                }
                match serde_json::from_str::<Value>(text) {
                    Ok(v @ Value::Object(_)) if !ran.stdout_cut => HookOutcome::Done(Some(v)),
                    _ => note("printed output that is not a JSON object; it was ignored".into()),
                }
            }
            2 => HookOutcome::Block(stderr),
            n => {
                let first = stderr.lines().next().unwrap_or_default();
                let how = if n < 0 {
                    format!("was killed by signal {}", -n)
                } else {
                    format!("failed (exit {n})")
                };
                if first.is_empty() {
                    note(format!("{how}; the call went on"))
                } else {
                    note(format!("{how}: {}; the call went on", shorten(first)))
                }
            }
        }
    }

    fn spawn_and_wait(&self, event: &Value) -> std::io::Result<Ran> {
        become_subreaper();
        let tag = next_tag();
        let mut cmd = Command::new(&self.argv[0]);
        cmd.args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env(TAG_VAR, &tag)
            .process_group(0);
        if let Some(ws) = event.get("workspace").and_then(Value::as_str) {
            // Claude Code's scripts find the project here.
            cmd.env("CLAUDE_PROJECT_DIR", ws)
                .env("AGTOOL_WORKSPACE", ws);
        }
        let mut leaders = Leaders::lock();
        let mut child = cmd.spawn()?;
        let pid = child.id() as i32;
        leaders.insert(pid);
        drop(leaders);
        let _lease = TreeLease::new(&tag);
        let tree = Tree { pgid: pid, tag };
        let input = serde_json::to_vec(event).unwrap_or_default();
        if let Some(mut stdin) = child.stdin.take() {
            // A hook that does not read its input is fine: the broken pipe is dropped. An
            // event that fits the pipe's buffer is written here (it cannot block); a bigger
            // one on a thread, so a hook that never reads cannot hold the call.
            if input.len() <= PIPE_SAFE_BYTES {
                let _ = stdin.write_all(&input);
            } else {
                std::thread::spawn(move || {
                    let _ = stdin.write_all(&input);
                });
            }
        }
        let out = child
            .stdout
            .take()
            .map(|s| bounded_reader(s, MAX_STDOUT_BYTES));
        let err = child
            .stderr
            .take()
            .map(|s| bounded_reader(s, MAX_STDERR_BYTES));
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let status = child.wait();
            let _ = tx.send(status);
        });
        let status = match rx.recv_timeout(Duration::from_millis(self.timeout_ms)) {
            Ok(s) => Some(s?),
            Err(_) => {
                kill_tree(&tree, &mut || {});
                let _ = rx.recv_timeout(Duration::from_secs(2));
                None
            }
        };
        if status.is_some() && may_have_survivors(&tree) {
            // What it left behind (a forked daemon) ends with it.
            kill_tree(&tree, &mut || {});
        }
        Leaders::lock().remove(pid);
        let (stdout, stdout_cut) = out.map(collect).unwrap_or_default();
        let (stderr, _) = err.map(collect).unwrap_or_default();
        use std::os::unix::process::ExitStatusExt;
        let code = status.map(|s| s.code().unwrap_or_else(|| -s.signal().unwrap_or(0)));
        Ok(Ran {
            code,
            stdout,
            stdout_cut,
            stderr,
        })
    }
}

struct Ran {
    /// Exit status (negative: the signal); None when it timed out.
    code: Option<i32>,
    stdout: Vec<u8>,
    stdout_cut: bool,
    stderr: Vec<u8>,
}

type Collected = mpsc::Receiver<(Vec<u8>, bool)>;

/// Reads `r` to its end on a thread, keeping the first `max` bytes (and whether more came).
fn bounded_reader(mut r: impl Read + Send + 'static, max: usize) -> Collected {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut cut = false;
        let mut chunk = [0u8; 8192];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = max.saturating_sub(kept.len());
                    kept.extend_from_slice(&chunk[..n.min(room)]);
                    cut |= n > room;
                }
            }
        }
        let _ = tx.send((kept, cut));
    });
    rx
}

/// What a reader kept; nothing when its pipe is still held open after [`DRAIN`].
fn collect(rx: Collected) -> (Vec<u8>, bool) {
    rx.recv_timeout(DRAIN).unwrap_or((Vec::new(), true))
}

fn next_tag() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    format!(
        "h{}.{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    )
}

/// A command or line as messages quote it: at most 80 characters.
fn shorten(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= 80 {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(77).collect();
    out.push_str("...");
    out
}
