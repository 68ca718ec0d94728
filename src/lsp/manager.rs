//! The LSP manager: lives in the per-workspace session server ([`crate::exec::session`], as
//! its [`Extension`]) and keeps one warm language server per language, the documents agtool
//! opened in it (text and version), and answers the tools' requests ([`LspRequest`]).
//!
//! Concurrency: requests run on the session server's connection threads. A slot's lock is
//! held only to start or look up its server; a document's lock is held for a whole edit
//! (sync the text before, wait, send the text after, wait), so edits of different files
//! proceed at once and edits of one file are never interleaved (no lost syncs).
//!
//! Failures: a server that cannot be spawned is reported at once and not retried until
//! `agtool lsp stop`; one that dies is started again once, and reported when it dies again.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::conn::{Conn, WaitEnd, file_uri};
use super::delta::{delta, is_problem, sort, to_diag};
use super::wire::{
    EditFile, FileResult, LspRequest, LspResponse, Outcome, ServerSpec, ServerStatus, SyncFile,
};
use crate::exec::session::Extension;

/// How long a `sync` (after a read) waits for a starting server before giving up.
const SYNC_START_WAIT: Duration = Duration::from_secs(60);
/// How many times a server is started before its failure is reported instead.
const MAX_STARTS: u32 = 2;

/// The manager; see the module documentation.
#[derive(Default)]
pub struct Manager {
    tag_prefix: Mutex<String>,
    slots: Mutex<BTreeMap<String, Arc<Slot>>>,
    started: AtomicU64,
    /// Requests received so far: each sync of a document's text is stamped with its
    /// request's number, so a read's sync that ran late never replaces an edit's text.
    requests: AtomicU64,
}

struct Slot {
    spec: ServerSpec,
    state: Mutex<SlotState>,
    docs: Mutex<HashMap<PathBuf, Arc<Mutex<Doc>>>>,
}

#[derive(Default)]
struct SlotState {
    conn: Option<Arc<Conn>>,
    /// Bumped at each start; a document opened under an older one must be opened again.
    generation: u64,
    starts: u32,
    failed: Option<String>,
}

#[derive(Default)]
struct Doc {
    /// The server generation it is open in; 0: not open.
    generation: u64,
    version: i32,
    text: String,
    language_id: String,
    /// Publication counter when the current version was sent.
    sent_seq: u64,
    /// The number of the request whose text the server has (see [`Manager::requests`]).
    request: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Manager {
    /// A manager with no servers.
    pub fn new() -> Manager {
        Manager::default()
    }

    /// The slot for `spec`'s language; a changed command replaces the old server.
    fn slot(&self, spec: &ServerSpec) -> Arc<Slot> {
        let mut slots = lock(&self.slots);
        if let Some(slot) = slots.get(&spec.language) {
            if slot.spec.argv == spec.argv
                && slot.spec.root == spec.root
                && slot.spec.sandbox.same_policy(&spec.sandbox)
            {
                return Arc::clone(slot);
            }
            if let Some(conn) = lock(&slot.state).conn.take() {
                conn.shutdown();
            }
        }
        let slot = Arc::new(Slot {
            spec: spec.clone(),
            state: Mutex::new(SlotState::default()),
            docs: Mutex::new(HashMap::new()),
        });
        slots.insert(spec.language.clone(), Arc::clone(&slot));
        slot
    }

    /// The slot's running server, started (or started again, once) when needed.
    fn conn(&self, slot: &Slot) -> Result<(Arc<Conn>, u64), String> {
        let mut st = lock(&slot.state);
        if let Some(conn) = &st.conn {
            if conn.dead().is_none() {
                return Ok((Arc::clone(conn), st.generation));
            }
            let why = conn.describe_end();
            conn.shutdown();
            st.conn = None;
            if why.contains("` was not started: ") {
                // The sandbox refused it: starting again would be refused the same way.
                st.failed = Some(why);
            } else if st.starts >= MAX_STARTS {
                st.failed = Some(format!(
                    "{why}; it was restarted once and failed again (`agtool lsp stop` lets it \
                     start afresh)"
                ));
            }
        }
        if let Some(why) = &st.failed {
            return Err(why.clone());
        }
        let n = self.started.fetch_add(1, Ordering::SeqCst);
        let tag = format!("{}lsp-{}.{n}/", lock(&self.tag_prefix), std::process::id());
        st.starts += 1;
        match Conn::start(&slot.spec, &tag) {
            Ok(conn) => {
                st.generation += 1;
                st.conn = Some(Arc::clone(&conn));
                Ok((conn, st.generation))
            }
            Err(why) => {
                st.failed = Some(why.clone());
                Err(why)
            }
        }
    }

    fn doc(slot: &Slot, path: &Path) -> Arc<Mutex<Doc>> {
        Arc::clone(lock(&slot.docs).entry(path.to_path_buf()).or_default())
    }

    /// Runs `op` with the slot's server, ready; a server that dies meanwhile is started
    /// again once and `op` repeated.
    fn with_server(
        &self,
        slot: &Slot,
        deadline: Instant,
        wait_ms: u64,
        mut op: impl FnMut(&Conn, u64) -> Result<Outcome, WaitEnd>,
    ) -> Outcome {
        for _ in 0..MAX_STARTS {
            let (conn, generation) = match self.conn(slot) {
                Ok(c) => c,
                Err(message) => return Outcome::Failed { message },
            };
            let r = conn
                .wait_ready(deadline)
                .and_then(|()| op(&conn, generation));
            match r {
                Ok(outcome) => return outcome,
                Err(WaitEnd::Timeout) => return Outcome::NotReady { waited_ms: wait_ms },
                Err(WaitEnd::Dead(_)) => continue,
            }
        }
        match self.conn(slot) {
            Err(message) => Outcome::Failed { message },
            Ok(_) => Outcome::NotReady { waited_ms: wait_ms },
        }
    }

    fn edit(&self, files: Vec<EditFile>, wait_ms: u64, request: u64) -> LspResponse {
        let deadline = Instant::now() + Duration::from_millis(wait_ms);
        let results = std::thread::scope(|s| {
            let handles: Vec<_> = files
                .iter()
                .map(|f| s.spawn(move || self.edit_one(f, deadline, wait_ms, request)))
                .collect();
            handles
                .into_iter()
                .zip(&files)
                .map(|(h, f)| FileResult {
                    path: f.path.clone(),
                    server: f.server.name.clone(),
                    outcome: h.join().unwrap_or(Outcome::Failed {
                        message: "the LSP manager failed".into(),
                    }),
                })
                .collect()
        });
        LspResponse::Files { files: results }
    }

    fn edit_one(&self, f: &EditFile, deadline: Instant, wait_ms: u64, request: u64) -> Outcome {
        let slot = self.slot(&f.server);
        let doc = Self::doc(&slot, &f.path);
        let mut doc = lock(&doc);
        let Some(new_text) = &f.new_text else {
            // Deleted: close it.
            if doc.generation != 0 {
                if let Some(conn) = lock(&slot.state).conn.clone() {
                    conn.notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": file_uri(&f.path)}}),
                    );
                }
                doc.generation = 0;
            }
            return Outcome::Nothing;
        };
        self.with_server(&slot, deadline, wait_ms, |conn, generation| {
            let before = match &f.old_text {
                Some(old) => {
                    sync(
                        conn,
                        generation,
                        &mut doc,
                        request,
                        (&f.path, &f.language_id, old),
                    );
                    conn.wait_diagnostics(&f.path, doc.version, doc.sent_seq, deadline)?
                }
                None => Vec::new(),
            };
            if let Some(tag) = &f.tag
                && std::fs::read(&f.path)
                    .map(|b| crate::text::tag::content_tag(&b))
                    .ok()
                    != Some(tag.clone())
            {
                // A later write replaced this one's text; its own result will tell.
                return Ok(Outcome::Nothing);
            }
            sync(
                conn,
                generation,
                &mut doc,
                request,
                (&f.path, &f.language_id, new_text),
            );
            let after = conn.wait_diagnostics(&f.path, doc.version, doc.sent_seq, deadline)?;
            let old = f.old_text.as_deref().unwrap_or("");
            let (new, fixed) = delta(old, new_text, &before, &after);
            let mut new: Vec<_> = new.into_iter().map(|d| to_diag(d, new_text)).collect();
            sort(&mut new);
            Ok(Outcome::Delta { new, fixed })
        })
    }

    fn sync_files(self: &Arc<Self>, files: Vec<SyncFile>, request: u64) {
        let me = Arc::clone(self);
        let _ = std::thread::Builder::new()
            .name("lsp-sync".into())
            .spawn(move || {
                for f in files {
                    let slot = me.slot(&f.server);
                    let doc = Self::doc(&slot, &f.path);
                    let deadline = Instant::now() + SYNC_START_WAIT;
                    // The document is locked only once the server is ready: an edit must not
                    // wait behind a server that is slow to start.
                    me.with_server(&slot, deadline, 0, |conn, generation| {
                        let mut doc = lock(&doc);
                        sync(
                            conn,
                            generation,
                            &mut doc,
                            request,
                            (&f.path, &f.language_id, &f.text),
                        );
                        Ok(Outcome::Nothing)
                    });
                }
            });
    }

    fn diagnostics(
        &self,
        files: Vec<SyncFile>,
        all_open: bool,
        wait_ms: u64,
        request: u64,
    ) -> LspResponse {
        let deadline = Instant::now() + Duration::from_millis(wait_ms);
        let mut results = Vec::new();
        if all_open {
            let slots: Vec<Arc<Slot>> = lock(&self.slots).values().cloned().collect();
            for slot in slots {
                let conn = lock(&slot.state).conn.clone();
                let generation = lock(&slot.state).generation;
                let docs: Vec<(PathBuf, Arc<Mutex<Doc>>)> = lock(&slot.docs)
                    .iter()
                    .map(|(p, d)| (p.clone(), Arc::clone(d)))
                    .collect();
                for (path, doc) in docs {
                    let doc = lock(&doc);
                    if doc.generation == 0 || doc.generation != generation {
                        continue;
                    }
                    let outcome = match &conn {
                        None => continue,
                        Some(conn) => {
                            match conn.wait_diagnostics(&path, doc.version, doc.sent_seq, deadline)
                            {
                                Ok(d) => current(&d, &doc.text),
                                Err(_) => Outcome::NotReady { waited_ms: wait_ms },
                            }
                        }
                    };
                    results.push(FileResult {
                        path,
                        server: slot.spec.name.clone(),
                        outcome,
                    });
                }
            }
            results.sort_by(|a, b| a.path.cmp(&b.path));
            return LspResponse::Files { files: results };
        }
        let outcomes: Vec<Outcome> = std::thread::scope(|s| {
            let handles: Vec<_> = files
                .iter()
                .map(|f| {
                    s.spawn(move || {
                        let slot = self.slot(&f.server);
                        let doc = Self::doc(&slot, &f.path);
                        let mut doc = lock(&doc);
                        self.with_server(&slot, deadline, wait_ms, |conn, generation| {
                            sync(
                                conn,
                                generation,
                                &mut doc,
                                request,
                                (&f.path, &f.language_id, &f.text),
                            );
                            let d = conn.wait_diagnostics(
                                &f.path,
                                doc.version,
                                doc.sent_seq,
                                deadline,
                            )?;
                            Ok(current(&d, &f.text))
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or(Outcome::Failed {
                        message: "the LSP manager failed".into(),
                    })
                })
                .collect()
        });
        for (f, outcome) in files.into_iter().zip(outcomes) {
            results.push(FileResult {
                path: f.path,
                server: f.server.name,
                outcome,
            });
        }
        LspResponse::Files { files: results }
    }

    fn status(&self) -> LspResponse {
        let slots: Vec<Arc<Slot>> = lock(&self.slots).values().cloned().collect();
        let servers = slots
            .iter()
            .map(|slot| {
                let st = lock(&slot.state);
                let open_files = lock(&slot.docs)
                    .values()
                    .filter(|d| {
                        let g = lock(d).generation;
                        g != 0 && g == st.generation
                    })
                    .count();
                let (pid, state, rss_kib, uptime_secs) = match &st.conn {
                    Some(c) => {
                        let state = match c.dead() {
                            Some(_) => format!("exited: {}", c.describe_end()),
                            None if c.is_ready() => "ready".into(),
                            None => "starting".into(),
                        };
                        (
                            Some(c.pid),
                            state,
                            c.rss_kib(),
                            c.started.elapsed().as_secs(),
                        )
                    }
                    None => (
                        None,
                        match &st.failed {
                            Some(why) => format!("failed: {why}"),
                            None => "not started".into(),
                        },
                        None,
                        0,
                    ),
                };
                ServerStatus {
                    language: slot.spec.language.clone(),
                    name: slot.spec.name.clone(),
                    argv: slot.spec.argv.clone(),
                    pid,
                    state,
                    rss_kib,
                    open_files,
                    uptime_secs,
                }
            })
            .collect();
        LspResponse::Status { servers }
    }

    /// Stops every server (in parallel); returns how many ran.
    fn stop_all(&self) -> usize {
        let slots: Vec<Arc<Slot>> = std::mem::take(&mut *lock(&self.slots))
            .into_values()
            .collect();
        let conns: Vec<Arc<Conn>> = slots
            .iter()
            .filter_map(|s| lock(&s.state).conn.take())
            .collect();
        std::thread::scope(|s| {
            for c in &conns {
                s.spawn(|| c.shutdown());
            }
        });
        // What a server started that double-forked away with a cleared environment was
        // reparented to this process with nothing left to tell whose it is. With no command
        // tree running here, every such orphan is a language server's: end them too. (With
        // sessions running, they end with the session server.)
        if crate::exec::tree::open_trees() == 0 {
            crate::exec::tree::kill_orphans();
        }
        conns.len()
    }
}

/// The current problems of a document, errors first.
fn current(diags: &[lsp_types::Diagnostic], text: &str) -> Outcome {
    let mut diags: Vec<_> = diags
        .iter()
        .filter(|d| is_problem(d))
        .map(|d| to_diag(d, text))
        .collect();
    sort(&mut diags);
    Outcome::Current { diags }
}

/// Makes the server's copy of `path` be `text`: opened (`didOpen`) when it is not open in this
/// server generation, updated (`didChange`, whole text, next version) when it differs.
///
/// `request` is the number of the request the text comes from: a text from an older request
/// than the one the document already holds is stale (a read whose sync waited for the server
/// while an edit went ahead) and is not sent.
fn sync(
    conn: &Conn,
    generation: u64,
    doc: &mut Doc,
    request: u64,
    (path, language_id, text): (&Path, &str, &str),
) {
    if doc.generation == generation && request < doc.request {
        return;
    }
    doc.request = request;
    if doc.generation == generation && doc.text == text && doc.language_id == language_id {
        return;
    }
    doc.version += 1;
    doc.sent_seq = conn.seq();
    conn.note_sent(path);
    let uri = file_uri(path);
    if doc.generation == generation && doc.language_id == language_id {
        conn.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": doc.version},
                "contentChanges": [{"text": text}],
            }),
        );
    } else {
        if doc.generation == generation {
            conn.notify(
                "textDocument/didClose",
                json!({"textDocument": {"uri": uri}}),
            );
        }
        conn.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri,
                "languageId": language_id,
                "version": doc.version,
                "text": text,
            }}),
        );
        doc.generation = generation;
        doc.language_id = language_id.to_owned();
    }
    doc.text = text.to_owned();
}

impl Manager {
    /// Answers one request; `self` must be in an `Arc` (a `sync` continues on a thread).
    pub fn answer(self: &Arc<Self>, body: Value) -> Value {
        let request = self.requests.fetch_add(1, Ordering::SeqCst) + 1;
        let response = match serde_json::from_value::<LspRequest>(body) {
            Ok(LspRequest::Sync { files }) => {
                self.sync_files(files, request);
                LspResponse::Accepted
            }
            Ok(LspRequest::Edit { files, wait_ms }) => self.edit(files, wait_ms, request),
            Ok(LspRequest::Diagnostics {
                files,
                all_open,
                wait_ms,
            }) => self.diagnostics(files, all_open, wait_ms, request),
            Ok(LspRequest::Status) => self.status(),
            Ok(LspRequest::Stop) => LspResponse::Stopped {
                servers: self.stop_all(),
            },
            Err(e) => LspResponse::Failed {
                error: format!(
                    "bad LSP request: {e} (if agtool was upgraded, run `agtool sessions \
                     stop-server`)"
                ),
            },
        };
        serde_json::to_value(response).unwrap_or(Value::Null)
    }
}

/// The session server's extension: an `Arc<Manager>`.
pub struct ManagerExtension(pub Arc<Manager>);

impl Extension for ManagerExtension {
    fn start(&self, tag_prefix: &str) {
        *lock(&self.0.tag_prefix) = tag_prefix.to_owned();
    }

    fn handle(&self, body: Value) -> Value {
        self.0.answer(body)
    }

    fn shutdown(&self) {
        self.0.stop_all();
    }
}
