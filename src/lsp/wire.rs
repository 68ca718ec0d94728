//! What the tools' processes and the LSP manager in the session server say to each other:
//! one JSON request and one JSON answer per connection, carried as the body of the session
//! server's `extension` request kind.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Which language server a file goes to, as the caller's configuration and `PATH` decided it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerSpec {
    /// The configuration's language name (`python`, `typescript`, ...): one server each.
    pub language: String,
    /// The name shown in results (`pyright`, `pylsp`).
    pub name: String,
    /// The command, program first (resolved to a path when found on `PATH`).
    pub argv: Vec<String>,
    /// The environment the server starts with: the caller's, as raw bytes.
    pub env: Vec<(Vec<u8>, Vec<u8>)>,
    /// The workspace root (the server's root URI and working directory).
    pub root: PathBuf,
    /// The exec sandbox the server runs in (spec 08; issue 19 item 5).
    pub sandbox: ServerSandbox,
}

/// How a language server is confined, as the caller's configuration decided it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ServerSandbox {
    /// `exec.sandbox = "off"`: started as it is.
    Off,
    /// Started through the sandbox helper with this plan: read-only, network off, writes only
    /// to its cache folder (also its `XDG_CACHE_HOME`, with `TMPDIR` inside) and `/tmp`.
    Plan {
        /// The helper's plan.
        plan: Box<crate::sandbox::Plan>,
        /// The server's own cache folder (exists, checked), granted in the plan; None when no
        /// safe one could be made: the server then gets a fresh folder under `/tmp`.
        cache: Option<PathBuf>,
    },
    /// The sandbox cannot be built (this machine, or a bad `exec.*` value): the server is not
    /// started and this sentence says why.
    Refused {
        /// Why, one sentence naming the way on.
        why: String,
    },
}

impl ServerSandbox {
    /// Whether a server started with `self` may serve a caller asking for `other`: the same
    /// confinement as the policy decides it (mode, network, roots, deny_read and protected
    /// names). Parts that follow the caller's environment (the home folder and the cache
    /// folder under it, which runtime folders exist, the scan budget) may differ: otherwise
    /// two hosts with different environments would restart a warm server on every call.
    pub fn same_policy(&self, other: &ServerSandbox) -> bool {
        match (self, other) {
            (ServerSandbox::Off, ServerSandbox::Off) => true,
            (ServerSandbox::Plan { plan: a, .. }, ServerSandbox::Plan { plan: b, .. }) => {
                a.mode == b.mode
                    && a.network == b.network
                    && a.write_roots == b.write_roots
                    && a.read_roots == b.read_roots
                    && a.deny_read == b.deny_read
                    && a.protected == b.protected
            }
            (ServerSandbox::Refused { why: a }, ServerSandbox::Refused { why: b }) => a == b,
            _ => false,
        }
    }
}

/// A file's text as agtool last read or wrote it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SyncFile {
    /// Its server.
    pub server: ServerSpec,
    /// Absolute path (the policy's resolved path).
    pub path: PathBuf,
    /// The LSP language id (`python`, `typescriptreact`, ...).
    pub language_id: String,
    /// The decoded text.
    pub text: String,
}

/// One file an edit changed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EditFile {
    /// Its server.
    pub server: ServerSpec,
    /// Absolute path (the policy's resolved path).
    pub path: PathBuf,
    /// The LSP language id.
    pub language_id: String,
    /// The text before the edit; None for a new file.
    pub old_text: Option<String>,
    /// The text after it; None when the file was deleted.
    pub new_text: Option<String>,
    /// The content tag of the bytes written: when the file no longer has it (a later edit
    /// already landed), this edit's result is not reported.
    pub tag: Option<String>,
}

/// A request to the LSP manager.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LspRequest {
    /// Files agtool read: open or update them in their servers; answered at once.
    Sync {
        /// The files.
        files: Vec<SyncFile>,
    },
    /// Files an edit wrote: the problems it added and fixed.
    Edit {
        /// The files.
        files: Vec<EditFile>,
        /// How long to wait for fresh diagnostics, in ms.
        wait_ms: u64,
    },
    /// The current problems of `files`, or with `all_open` of every open file.
    Diagnostics {
        /// The files.
        files: Vec<SyncFile>,
        /// Every file open in a server instead.
        all_open: bool,
        /// How long to wait for fresh diagnostics, in ms.
        wait_ms: u64,
    },
    /// Which servers run.
    Status,
    /// Stop every server.
    Stop,
}

/// The manager's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum LspResponse {
    /// One result per file.
    Files {
        /// In request order (all open files: by path).
        files: Vec<FileResult>,
    },
    /// A `sync` was taken.
    Accepted,
    /// The servers.
    Status {
        /// One per server.
        servers: Vec<ServerStatus>,
    },
    /// Servers stopped.
    Stopped {
        /// How many.
        servers: usize,
    },
    /// The request could not be read.
    Failed {
        /// Why.
        error: String,
    },
}

/// What the manager found for one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileResult {
    /// Absolute path, as requested.
    pub path: PathBuf,
    /// The server's display name.
    pub server: String,
    /// The finding.
    pub outcome: Outcome,
}

/// The finding for one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// After an edit: the problems it added (errors first), and how many it fixed.
    Delta {
        /// The new problems.
        new: Vec<Diag>,
        /// Problems before the edit that are gone.
        fixed: usize,
    },
    /// The file's current problems, errors first.
    Current {
        /// The problems.
        diags: Vec<Diag>,
    },
    /// Fresh diagnostics did not come within the wait.
    NotReady {
        /// The wait, in ms.
        waited_ms: u64,
    },
    /// The server could not be started or kept running.
    Failed {
        /// Why, one line, naming the command.
        message: String,
    },
    /// Nothing to say: the file was deleted, or a later edit already replaced this one's text.
    Nothing,
}

/// One diagnostic, positioned as agtool's read tools count: 1-based lines, 1-based columns
/// in chars.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diag {
    /// 1-based line of the start.
    pub line: u32,
    /// 1-based column of the start, in chars.
    pub column: u32,
    /// 1 error, 2 warning, 3 information (hints are not problems and never listed).
    pub severity: u8,
    /// The message, first line only.
    pub message: String,
    /// The diagnostic's code (`reportUndefinedVariable`), when it has one.
    pub code: Option<String>,
    /// The diagnostic's source (`Pyright`, `pyflakes`), when it has one.
    pub source: Option<String>,
}

/// One running (or failed) server, for `agtool lsp status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerStatus {
    /// The configuration's language name.
    pub language: String,
    /// Display name.
    pub name: String,
    /// Its command.
    pub argv: Vec<String>,
    /// Its pid while it runs.
    pub pid: Option<i32>,
    /// `starting`, `ready`, `exited: ...` or `failed: ...`.
    pub state: String,
    /// Resident memory of its process and everything in its session, in KiB.
    pub rss_kib: Option<u64>,
    /// Files open in it.
    pub open_files: usize,
    /// Seconds since it started.
    pub uptime_secs: u64,
}

impl Diag {
    /// `error`, `warning`, `info`.
    pub fn severity_name(&self) -> &'static str {
        match self.severity {
            1 => "error",
            2 => "warning",
            _ => "info",
        }
    }

    /// `path:line:col: severity: message (code)`, with `shown` as the path.
    pub fn line_for(&self, shown: &str) -> String {
        let mut s = format!(
            "{shown}:{}:{}: {}: {}",
            self.line,
            self.column,
            self.severity_name(),
            self.message
        );
        if let Some(code) = &self.code {
            s.push_str(&format!(" ({code})"));
        }
        s
    }
}
