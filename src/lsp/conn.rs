//! One running language server: the process, its three pipes, the `initialize` handshake,
//! answers to the requests servers send their client (a server that asks and gets no answer
//! stalls), and the diagnostics it published, per file and document version.
//!
//! Threads: a writer (messages are queued, so a server that stops reading never blocks a
//! caller), a reader (stdout), and one keeping the last lines of stderr for error messages.
//! Callers wait on a condition variable with a deadline.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufReader, Read, Write};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::framing::{frame, read_message};
use super::wire::{ServerSandbox, ServerSpec};

/// Diagnostics kept per file and publication; a server that floods is cut here.
pub(crate) const MAX_DIAGNOSTICS_PER_FILE: usize = 1000;
/// How long a server that does not say document versions must stay quiet after publishing
/// before its diagnostics are taken as complete.
const UNVERSIONED_QUIET: Duration = Duration::from_millis(300);
/// How long a versioned server must stay quiet after publishing an empty list for a version,
/// while other documents changed lately, before it is taken as that version's (see
/// [`Conn::wait_diagnostics`]).
const EMPTY_QUIET: Duration = Duration::from_millis(150);
/// Changes of other documents this recent make an empty list suspect (see [`EMPTY_QUIET`]).
const OTHERS_WINDOW: Duration = Duration::from_secs(3);
/// Bytes of the server's stderr kept for error messages.
const STDERR_TAIL: usize = 2048;
/// How long a stopping server gets to answer `shutdown` and exit before it is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

/// The diagnostics of one file as last published.
#[derive(Debug, Clone)]
pub(crate) struct Published {
    /// The document version they are for, when the server said.
    pub version: Option<i32>,
    /// Publication counter value when they arrived (orders unversioned publications).
    pub seq: u64,
    /// The diagnostics (at most [`MAX_DIAGNOSTICS_PER_FILE`]).
    pub diags: Vec<lsp_types::Diagnostic>,
}

/// Why a wait ended without a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WaitEnd {
    /// The deadline passed.
    Timeout,
    /// The server is gone; why.
    Dead(String),
}

#[derive(Default)]
struct State {
    ready: bool,
    dead: Option<String>,
    published: HashMap<PathBuf, Published>,
    seq: u64,
    responses: HashMap<i64, Value>,
    stderr_tail: Vec<u8>,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A running language server.
pub(crate) struct Conn {
    /// Its command.
    pub argv: Vec<String>,
    /// Its pid (it leads its own session and process group).
    pub pid: i32,
    /// When it was started.
    pub started: Instant,
    child: Mutex<Option<Child>>,
    out: Mutex<Option<mpsc::Sender<Vec<u8>>>>,
    shared: Arc<Shared>,
    next_id: AtomicI64,
    /// When each document's text was last sent.
    sent: Mutex<HashMap<PathBuf, Instant>>,
    /// The process tree's tag (ends in `/`, so no other server's tag starts with it).
    tag: String,
}

/// Starts `spec`'s command in `spec.root` with `spec.env` (plus `tag` as the process tree's
/// tag, so a later session server can sweep it up), as the leader of a new session with piped
/// stdin, stdout and stderr. The one place a language server is spawned (spec 08: the exec
/// sandbox wraps it here). Errors name the command and the reason.
pub(crate) fn spawn_server(spec: &ServerSpec, tag: &str) -> Result<Child, String> {
    let program = spec
        .argv
        .first()
        .ok_or_else(|| format!("the {} language server command is empty", spec.language))?;
    let cannot = |why: &str| {
        format!(
            "cannot start the {} language server `{}`: {why}",
            spec.language,
            spec.argv.join(" ")
        )
    };
    let env = spec
        .env
        .iter()
        .map(|(k, v)| (OsString::from_vec(k.clone()), OsString::from_vec(v.clone())));
    let mut cmd = match &spec.sandbox {
        ServerSandbox::Refused { why } => return Err(cannot(why)),
        ServerSandbox::Off => {
            let mut cmd = Command::new(program);
            cmd.args(&spec.argv[1..]).env_clear().envs(env);
            cmd
        }
        ServerSandbox::Plan { plan, cache } => {
            // Found here, with the server's own PATH, so a missing program is reported as
            // without the sandbox rather than by the helper.
            let path_var = spec
                .env
                .iter()
                .find(|(k, _)| k == b"PATH")
                .map(|(_, v)| OsString::from_vec(v.clone()));
            let found = crate::exec::spawn::find_program(program, path_var.as_deref(), &spec.root)
                .ok_or_else(|| cannot("not found"))?;
            let exe = std::env::current_exe()
                .map_err(|e| cannot(&format!("agtool's own executable is not found: {e}")))?;
            let json = serde_json::to_string(plan).map_err(|e| cannot(&e.to_string()))?;
            let mut cmd = Command::new(exe);
            cmd.arg(crate::sandbox::SUBCOMMAND)
                .arg(json)
                .arg("--")
                .arg(found)
                .args(&spec.argv[1..])
                .env_clear()
                .envs(env);
            // Caches and temp files go where the server may write.
            let cache = match cache {
                Some(cache) => cache.clone(),
                None => tempfile::Builder::new()
                    .prefix("agtool-lsp-")
                    .tempdir()
                    .map_err(|e| cannot(&format!("cannot make its temp folder: {e}")))?
                    .keep(),
            };
            let tmp = if cache.join("tmp").is_dir() {
                cache.join("tmp")
            } else {
                cache.clone()
            };
            cmd.env("XDG_CACHE_HOME", &cache).env("TMPDIR", tmp);
            cmd
        }
    };
    cmd.env(crate::exec::tree::TAG_VAR, tag)
        .current_dir(&spec.root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::exec::spawn::in_new_session(&mut cmd);
    // Registered as a leader, so the session server's orphan sweeps leave it (and its exit
    // status) alone.
    let mut leaders = crate::exec::tree::Leaders::lock();
    let child = cmd.spawn().map_err(|e| {
        cannot(&match e.kind() {
            std::io::ErrorKind::NotFound => "not found".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => e.to_string(),
        })
    })?;
    leaders.insert(child.id() as i32);
    Ok(child)
}

impl Conn {
    /// Starts the server and sends `initialize`; the handshake finishes on the reader thread
    /// ([`Conn::wait_ready`]).
    pub(crate) fn start(spec: &ServerSpec, tag: &str) -> Result<Arc<Conn>, String> {
        let mut child = spawn_server(spec, tag)?;
        let pid = child.id() as i32;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        });
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let conn = Arc::new(Conn {
            argv: spec.argv.clone(),
            pid,
            started: Instant::now(),
            child: Mutex::new(Some(child)),
            out: Mutex::new(Some(tx.clone())),
            shared: Arc::clone(&shared),
            next_id: AtomicI64::new(1),
            sent: Mutex::new(HashMap::new()),
            tag: tag.to_owned(),
        });
        if let Some(mut stdin) = stdin {
            let _ = std::thread::Builder::new()
                .name("lsp-writer".into())
                .spawn(move || {
                    for msg in rx {
                        if std::env::var_os("AGTOOL_LSP_DEBUG").is_some() {
                            let text = String::from_utf8_lossy(&msg);
                            eprintln!("agtool lsp: -> {}", &text[..text.len().min(200)]);
                        }
                        if stdin.write_all(&msg).and_then(|()| stdin.flush()).is_err() {
                            break;
                        }
                    }
                });
        }
        if let Some(mut stderr) = stderr {
            let shared = Arc::clone(&shared);
            let _ = std::thread::Builder::new()
                .name("lsp-stderr".into())
                .spawn(move || {
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = stderr.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        let mut st = shared.lock();
                        st.stderr_tail.extend_from_slice(&buf[..n]);
                        let len = st.stderr_tail.len();
                        if len > STDERR_TAIL {
                            st.stderr_tail.drain(..len - STDERR_TAIL);
                        }
                    }
                });
        }
        if let Some(stdout) = stdout {
            let shared = Arc::clone(&shared);
            let root = spec.root.clone();
            let _ = std::thread::Builder::new()
                .name("lsp-reader".into())
                .spawn(move || read_loop(stdout, &shared, &tx, &root));
        }
        conn.send(&json!({
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": initialize_params(
                &spec.root,
                !matches!(spec.sandbox, ServerSandbox::Off)
            ),
        }));
        Ok(conn)
    }

    fn send(&self, msg: &Value) {
        let out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = out.as_ref() {
            let _ = tx.send(frame(msg));
        }
    }

    /// Sends a notification.
    pub(crate) fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Notes that the text of `path` was just sent (`didOpen` or `didChange`).
    pub(crate) fn note_sent(&self, path: &Path) {
        let mut sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        sent.retain(|_, at| at.elapsed() < OTHERS_WINDOW);
        sent.insert(path.to_path_buf(), Instant::now());
    }

    /// Whether another document's text was sent within [`OTHERS_WINDOW`].
    fn others_changed_lately(&self, path: &Path) -> bool {
        let sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        sent.iter()
            .any(|(p, at)| p != path && at.elapsed() < OTHERS_WINDOW)
    }

    /// The publication counter now: a publication with a larger one came later.
    pub(crate) fn seq(&self) -> u64 {
        self.shared.lock().seq
    }

    /// Why the server is gone, if it is.
    pub(crate) fn dead(&self) -> Option<String> {
        self.shared.lock().dead.clone()
    }

    /// Whether the handshake finished.
    pub(crate) fn is_ready(&self) -> bool {
        self.shared.lock().ready
    }

    /// Waits until the handshake finished.
    pub(crate) fn wait_ready(&self, deadline: Instant) -> Result<(), WaitEnd> {
        self.wait_until(deadline, |st| st.ready.then_some(()))
    }

    /// Waits for the diagnostics of `path` at document `version` (or, from a server that
    /// does not say versions, the first publication after `after_seq`). Older versions are
    /// never taken.
    pub(crate) fn wait_diagnostics(
        &self,
        path: &Path,
        version: i32,
        after_seq: u64,
        deadline: Instant,
    ) -> Result<Vec<lsp_types::Diagnostic>, WaitEnd> {
        let first = self.wait_until(deadline, |st| {
            let p = st.published.get(path)?;
            let fresh = match p.version {
                Some(v) => v == version,
                None => p.seq > after_seq,
            };
            fresh.then(|| (p.version, p.seq, p.diags.clone()))
        })?;
        // A server that does not say versions may publish in parts (syntax first, then
        // types); pyright publishes an empty list for a changed file it has not checked yet
        // when another open file changed at the same time, then the real one for the same
        // version. So: the last of a burst, once quiet for a while.
        let (version_said, mut seq, mut diags) = first;
        let quiet = match version_said {
            None => UNVERSIONED_QUIET,
            Some(_) if diags.is_empty() && self.others_changed_lately(path) => EMPTY_QUIET,
            Some(_) => return Ok(diags),
        };
        loop {
            let quiet_end = (Instant::now() + quiet).min(deadline);
            match self.wait_until(quiet_end, |st| {
                let p = st.published.get(path)?;
                let same = version_said.is_none() || p.version == version_said;
                (p.seq > seq && same).then(|| (p.seq, p.diags.clone()))
            }) {
                Ok((s, d)) => {
                    seq = s;
                    diags = d;
                }
                Err(WaitEnd::Timeout) => return Ok(diags),
                Err(dead) => return Err(dead),
            }
        }
    }

    fn wait_until<T>(
        &self,
        deadline: Instant,
        mut done: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, WaitEnd> {
        let mut st = self.shared.lock();
        loop {
            if let Some(t) = done(&st) {
                return Ok(t);
            }
            if let Some(why) = &st.dead {
                return Err(WaitEnd::Dead(why.clone()));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(WaitEnd::Timeout);
            }
            st = self
                .shared
                .changed
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Why the server ended, for a message: its exit status and the last line of its stderr.
    pub(crate) fn describe_end(&self) -> String {
        let status = {
            let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
            let end = Instant::now() + Duration::from_millis(200);
            let mut status = None;
            while let Some(c) = child.as_mut() {
                match c.try_wait() {
                    Ok(Some(s)) => {
                        status = Some(s);
                        break;
                    }
                    Ok(None) if Instant::now() < end => {
                        std::thread::sleep(Duration::from_millis(10))
                    }
                    _ => break,
                }
            }
            status
        };
        let st = self.shared.lock();
        let mut msg = match status {
            Some(s) => format!("`{}` exited ({s})", self.argv.join(" ")),
            None => format!(
                "`{}` stopped answering ({})",
                self.argv.join(" "),
                st.dead.as_deref().unwrap_or("unknown")
            ),
        };
        let tail = String::from_utf8_lossy(&st.stderr_tail);
        // The sandbox helper's refusal is the whole story, remedy included: given whole.
        let mark = crate::sandbox::SETUP_FAILED_MARK;
        if let Some(refusal) = tail.lines().rev().find_map(|l| l.strip_prefix(mark)) {
            let refusal: String = refusal.trim().chars().take(1000).collect();
            return format!("`{}` was not started: {refusal}", self.argv.join(" "));
        }
        if let Some(last) = tail.lines().rev().find(|l| !l.trim().is_empty()) {
            let last: String = last.trim().chars().take(200).collect();
            msg.push_str(&format!(": {last}"));
        }
        msg
    }

    /// Resident memory of the server and everything in its session, in KiB.
    pub(crate) fn rss_kib(&self) -> Option<u64> {
        session_rss_kib(self.pid)
    }

    /// Asks the server to shut down and exit, then kills its process group; reaps it.
    pub(crate) fn shutdown(&self) {
        // What it started, taken while it still runs (once it exits they are reparented):
        // processes that left its group (setsid) or cleared their environment are killed by
        // pid, the rest of its tree by its tag below.
        let started = crate::exec::tree::live_descendants(self.pid);
        if self.dead().is_none() && self.is_ready() {
            let id = self.next_id.fetch_add(1, Ordering::SeqCst);
            self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}));
            let _ = self.wait_until(Instant::now() + SHUTDOWN_GRACE, |st| {
                st.responses.get(&id).map(|_| ())
            });
            self.notify("exit", Value::Null);
        }
        // Closing stdin ends the writer thread, and tells the server its client is gone.
        drop(self.out.lock().unwrap_or_else(|e| e.into_inner()).take());
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut c) = child.take() {
            let end = Instant::now() + Duration::from_millis(300);
            while Instant::now() < end {
                if let Ok(Some(_)) = c.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            crate::exec::tree::signal_group(self.pid, rustix::process::Signal::KILL);
            let _ = c.kill();
            let _ = c.wait();
            crate::exec::tree::Leaders::lock().remove(self.pid);
        }
        for (pid, group) in started {
            if group != self.pid {
                crate::exec::tree::signal_group(group, rustix::process::Signal::KILL);
            }
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            }
        }
        crate::exec::tree::kill_tagged(&self.tag);
    }
}

/// The `initialize` parameters: diagnostics with versions, full-text sync, configuration and
/// progress requests (which are answered), one workspace folder.
/// The `initialize` parameters. `sandboxed`: the server cannot signal processes outside its
/// sandbox (Landlock's signal scope), so `kill(client, 0)` fails with EPERM and servers that
/// watch their client's pid (typescript-language-server) took agtool for dead and exited
/// within seconds; a sandboxed server is given no `processId` (null: "not started by another
/// process"), and the session server ends it instead.
fn initialize_params(root: &Path, sandboxed: bool) -> Value {
    let uri = file_uri(root);
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "workspace".into());
    json!({
        "processId": if sandboxed { None } else { Some(std::process::id()) },
        "clientInfo": {"name": "agtool", "version": env!("CARGO_PKG_VERSION")},
        "rootUri": uri,
        "rootPath": root.to_string_lossy(),
        "workspaceFolders": [{"uri": uri, "name": name}],
        "capabilities": {
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {
                "synchronization": {"didSave": false, "dynamicRegistration": false},
                "publishDiagnostics": {
                    "relatedInformation": false,
                    "versionSupport": true,
                    "codeDescriptionSupport": false,
                    "dataSupport": false,
                },
            },
            "workspace": {
                "configuration": true,
                // Not `workspaceFolders: true`: pyright 1.1.407 then waits for a folder
                // change notification before it analyses anything.
                "didChangeConfiguration": {"dynamicRegistration": false},
            },
            "window": {"workDoneProgress": true, "showMessage": {}},
        },
        "initializationOptions": {},
    })
}

/// `file:///...` for an absolute path (percent-encoded).
pub(crate) fn file_uri(path: &Path) -> String {
    url::Url::from_file_path(path)
        .map(|u| u.to_string())
        .unwrap_or_else(|()| format!("file://{}", path.display()))
}

/// The path of a `file:` URI.
fn uri_path(uri: &str) -> Option<PathBuf> {
    url::Url::parse(uri).ok()?.to_file_path().ok()
}

fn read_loop(
    stdout: std::process::ChildStdout,
    shared: &Shared,
    tx: &mpsc::Sender<Vec<u8>>,
    root: &Path,
) {
    let mut input = BufReader::new(stdout);
    let end = loop {
        match read_message(&mut input) {
            Ok(Some(msg)) => handle_message(msg, shared, tx, root),
            Ok(None) => break "its output ended".to_owned(),
            Err(e) => break format!("it sent a bad message: {e}"),
        }
    };
    let mut st = shared.lock();
    st.dead.get_or_insert(end);
    shared.changed.notify_all();
}

fn handle_message(msg: Value, shared: &Shared, tx: &mpsc::Sender<Vec<u8>>, root: &Path) {
    let method = msg.get("method").and_then(Value::as_str);
    let id = msg.get("id").cloned();
    if std::env::var_os("AGTOOL_LSP_DEBUG").is_some() {
        let text = msg.to_string();
        eprintln!("agtool lsp: <- {}", &text[..text.len().min(300)]);
    }
    match (method, id) {
        (Some(method), Some(id)) => {
            let reply = answer_server_request(method, msg.get("params"), root);
            let msg = match reply {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err((code, text)) => {
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}})
                }
            };
            let _ = tx.send(frame(&msg));
        }
        (None, Some(id)) => {
            let Some(id) = id.as_i64() else { return };
            if id == 0 {
                let mut st = shared.lock();
                if let Some(err) = msg.get("error") {
                    let text = err.get("message").and_then(Value::as_str).unwrap_or("");
                    st.dead = Some(format!("initialize failed: {text}"));
                } else {
                    let _ = tx.send(frame(
                        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                    ));
                    st.ready = true;
                }
                shared.changed.notify_all();
                return;
            }
            let mut st = shared.lock();
            st.responses.insert(id, msg);
            shared.changed.notify_all();
        }
        (Some("textDocument/publishDiagnostics"), None) => {
            let Some(params) = msg.get("params").cloned() else {
                return;
            };
            let Ok(mut p) = serde_json::from_value::<lsp_types::PublishDiagnosticsParams>(params)
            else {
                return;
            };
            let Some(path) = uri_path(p.uri.as_str()) else {
                return;
            };
            p.diagnostics.truncate(MAX_DIAGNOSTICS_PER_FILE);
            if std::env::var_os("AGTOOL_LSP_DEBUG").is_some() {
                eprintln!(
                    "agtool lsp: publish {} v{:?} n={}",
                    path.display(),
                    p.version,
                    p.diagnostics.len()
                );
            }
            let mut st = shared.lock();
            st.seq += 1;
            let seq = st.seq;
            st.published.insert(
                path,
                Published {
                    version: p.version,
                    seq,
                    diags: p.diagnostics,
                },
            );
            shared.changed.notify_all();
        }
        _ => {}
    }
}

/// Answers a request a server sends its client. Unknown methods get "method not found".
fn answer_server_request(
    method: &str,
    params: Option<&Value>,
    root: &Path,
) -> Result<Value, (i64, String)> {
    Ok(match method {
        // One null per item: "no settings, use your defaults".
        "workspace/configuration" => {
            let n = params
                .and_then(|p| p.get("items"))
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            Value::Array(vec![Value::Null; n])
        }
        "window/workDoneProgress/create"
        | "client/registerCapability"
        | "client/unregisterCapability"
        | "window/showMessageRequest"
        | "workspace/diagnostic/refresh"
        | "workspace/semanticTokens/refresh"
        | "workspace/inlayHint/refresh"
        | "workspace/codeLens/refresh" => Value::Null,
        "workspace/workspaceFolders" => {
            json!([{"uri": file_uri(root), "name": root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()}])
        }
        "workspace/applyEdit" => {
            json!({"applied": false, "failureReason": "agtool applies no edits from a language server"})
        }
        _ => return Err((-32601, format!("agtool does not handle {method}"))),
    })
}

/// Sums `VmRSS` of every process whose session is `sid`.
fn session_rss_kib(sid: i32) -> Option<u64> {
    let mut total = 0;
    let mut any = false;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name: state ppid pgrp session ...
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let session = rest
            .split_whitespace()
            .nth(3)
            .and_then(|s| s.parse::<i32>().ok());
        if session != Some(sid) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            continue;
        };
        if let Some(kib) = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
        {
            total += kib;
            any = true;
        }
    }
    any.then_some(total)
}
