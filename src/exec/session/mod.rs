//! Sessions that outlive the call: exec-command and write-stdin (spec 05, "exec-command and
//! write-stdin").
//!
//! A session server, one per workspace state directory, keeps the processes alive between
//! agtool invocations. [`client`] is what the tools call: it finds the server (starting it on
//! demand) and sends one request per connection over a Unix socket, as one line of JSON each
//! way. [`server::run`] is the server's entry point (`agtool session-server --state-dir DIR`).
//!
//! Files, all in `<state dir>/sessions/` (mode 0700): `server.sock` (mode 0600, or a path
//! under `$XDG_RUNTIME_DIR/agtool/` or `/tmp/agtool-<uid>/` when too long for a socket
//! address), `server.json` (the server's pid, its socket path and the next session id),
//! `server.lock` (held by the live server), `server.log` (its stdout and stderr).

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub mod client;
pub mod guard;
mod live;
mod paths;
pub mod peer;
pub use paths::{prepare_server_folders, server_folders};
mod protocol;
pub mod server;
#[cfg(test)]
mod server_tests;
mod table;

pub use client::Client;

/// More request kinds for the session server, added by another core (the LSP manager of
/// [`crate::lsp`] keeps language servers warm here, spec 09): the server passes every
/// `extension` request's JSON body to [`Extension::handle`] on the connection's thread, and
/// calls [`Extension::shutdown`] once when it exits.
pub trait Extension: Send + Sync {
    /// Called once before the server listens, with the tag prefix of this server's processes
    /// (every process spawned with `AGTOOL_EXEC_TAG=<prefix>...` is killed by the next server
    /// when this one dies without cleaning up).
    fn start(&self, tag_prefix: &str);
    /// Answers one request (any JSON the extension's own client sent).
    fn handle(&self, body: serde_json::Value) -> serde_json::Value;
    /// Whether the extension still holds something that keeps the server from idling out.
    fn busy(&self) -> bool {
        false
    }
    /// Ends whatever the extension started; the server is exiting.
    fn shutdown(&self);
}

/// First session id a server hands out when no earlier server left a record (spec 05).
pub const FIRST_SESSION_ID: u64 = 1000;
/// Most sessions held at once per workspace (spec 05).
pub const MAX_SESSIONS: usize = 64;
/// How many most recently used sessions pruning never touches (spec 05).
pub const PROTECTED_RECENT: usize = 8;
/// The server exits after this long with no live session and no request (spec 05).
pub const IDLE_EXIT: Duration = Duration::from_secs(600);
/// Output budget conversion: bytes = 4 × tokens (spec 05).
pub const BYTES_PER_TOKEN: u64 = 4;
/// Default `max_output_tokens` (spec 05).
pub const DEFAULT_MAX_OUTPUT_TOKENS: u64 = 10_000;
/// Output kept per session between two calls, in bytes (head half + tail half); a larger
/// token budget is cut to this.
pub const PENDING_OUTPUT_CAP: usize = 1 << 20;
/// Shell used when the request names none (spec 05; config `exec.shell` overrides).
pub const DEFAULT_SHELL: &str = "/bin/bash";
/// exec-command's default `yield_time_ms` (spec 05).
pub const EXEC_COMMAND_DEFAULT_YIELD_MS: u64 = 10_000;
/// write-stdin's default `yield_time_ms` (spec 05).
pub const WRITE_STDIN_DEFAULT_YIELD_MS: u64 = 250;
/// Clamp for a call that starts a command or writes (spec 05), in ms.
pub const WRITE_YIELD_RANGE: (u64, u64) = (250, 30_000);
/// Clamp for an empty poll (spec 05), in ms.
pub const POLL_YIELD_RANGE: (u64, u64) = (5_000, 300_000);
/// Input queued for a session's stdin and not yet read, in bytes, past which a further write is
/// refused ([`SessionError::InputBacklog`]); one write of any size is taken when nothing waits.
pub const STDIN_BACKLOG_MAX: usize = 8 << 20;
/// The `chars` value that interrupts instead of writing: SIGINT to the session's group.
pub const INTERRUPT: &str = "\u{3}";

/// A path on the wire: a JSON string when it is UTF-8, else an array of its bytes, so a
/// folder whose name is not UTF-8 reaches the session server unchanged.
mod path_bytes {
    use std::ffi::OsString;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    use std::path::PathBuf;

    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Wire {
        Text(String),
        Bytes(Vec<u8>),
    }

    pub fn serialize<S: Serializer>(p: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            None => s.serialize_none(),
            Some(p) => match p.to_str() {
                Some(text) => s.serialize_some(text),
                None => s.serialize_some(p.as_os_str().as_bytes()),
            },
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PathBuf>, D::Error> {
        Ok(Option::<Wire>::deserialize(d)?.map(|w| match w {
            Wire::Text(t) => PathBuf::from(t),
            Wire::Bytes(b) => PathBuf::from(OsString::from_vec(b)),
        }))
    }
}

/// exec-command arguments (spec 05).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ExecCommandRequest {
    /// Shell command line, run as `<shell> -c <cmd>` (`-lc` when `login`).
    pub cmd: String,
    /// Working directory. The client makes it absolute against its own current directory
    /// (None = that directory) before sending, since the server's differs. Sent as a string,
    /// or as its bytes when it is not UTF-8.
    #[serde(default, with = "path_bytes")]
    pub workdir: Option<PathBuf>,
    /// The working directory as an open descriptor of the client (its number there), which
    /// the client keeps open until the reply: the server opens that very folder through
    /// `/proc/<client pid>/fd/<n>` (the client's pid from the socket's peer credentials) and
    /// starts the command in it (`fchdir`), so a folder swapped for a symlink after the
    /// client checked it cannot redirect the session (issue 17, item 6). None: `workdir`
    /// is looked up by name.
    #[serde(default)]
    pub workdir_fd: Option<i32>,
    /// Shell program; None = [`DEFAULT_SHELL`].
    pub shell: Option<String>,
    /// Run the shell as a login shell (`-lc`).
    pub login: bool,
    /// How long to wait for output before returning, ms; None = 10000; clamped to 250..30000.
    pub yield_time_ms: Option<u64>,
    /// Output budget in tokens (4 bytes each); None = 10000.
    pub max_output_tokens: Option<u64>,
    /// Config `exec.prefix`, put in front of the shell's argv.
    pub prefix: Vec<String>,
    /// The environment the command starts from (the fixed one goes over it), as raw bytes.
    /// The client fills in its own when None, so a session sees the caller's environment,
    /// not the one the server happened to start with.
    pub env: Option<Vec<(Vec<u8>, Vec<u8>)>>,
    /// The command's private temp folder (the sandbox's `TMPDIR`), which the server removes
    /// when the session ends; None without a sandbox.
    #[serde(default, with = "path_bytes")]
    pub private_tmp: Option<PathBuf>,
}

/// write-stdin arguments (spec 05).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct WriteStdinRequest {
    /// The session to write to or poll.
    pub session_id: u64,
    /// Text to write to the session's stdin; empty = only poll; [`INTERRUPT`] = SIGINT.
    pub chars: String,
    /// ms to wait for output; None = 250. A write is clamped to 250..30000, an empty poll to
    /// 5000..300000.
    pub yield_time_ms: Option<u64>,
    /// Output budget in tokens (4 bytes each); None = 10000.
    pub max_output_tokens: Option<u64>,
}

/// Whether the session's process is still running after a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionStatus {
    /// Still running; the session stays and can be written to or polled.
    Running {
        /// The id to pass to write-stdin.
        session_id: u64,
    },
    /// The process exited (code, or 128 + signal); the session was removed.
    Exited {
        /// Exit code.
        exit_code: i32,
    },
}

/// The result of exec-command or write-stdin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionReply {
    /// Time the server spent on the call (spawn or write, then the wait).
    pub wall_time: Duration,
    /// Running (with id) or exited (with code).
    pub status: SessionStatus,
    /// Output printed since the previous call, head/tail cut to the budget, UTF-8.
    pub output: String,
    /// Lines printed since the previous call; Some only when bytes were omitted.
    pub total_lines: Option<u64>,
}

impl SessionReply {
    /// The text of spec 05: `Wall time: 1.0 seconds` (one decimal, as exec prints it: see
    /// [`crate::exec::wall_time_line`]), the session or exit line, `Total output lines` when
    /// bytes were omitted, then `Output:` and the output.
    pub fn to_text(&self) -> String {
        let mut s = crate::exec::wall_time_line(self.wall_time);
        match self.status {
            SessionStatus::Running { session_id } => {
                s.push_str(&format!("Process running with session ID {session_id}\n"))
            }
            SessionStatus::Exited { exit_code } => {
                s.push_str(&format!("Process exited with code {exit_code}\n"))
            }
        }
        if let Some(n) = self.total_lines {
            s.push_str(&format!("Total output lines: {n}\n"));
        }
        s.push_str("Output:\n");
        s.push_str(&self.output);
        s
    }
}

/// One row of `agtool sessions list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// Session id.
    pub id: u64,
    /// Pid of the session's command (the shell). Its process group is its guard's.
    pub pid: i32,
    /// None while running; the exit code once the process has exited (not yet reported).
    pub exit_code: Option<i32>,
    /// Seconds since the session started.
    pub age_secs: u64,
    /// The command line as given.
    pub command: String,
}

/// Why a session call failed. `Display` is the message for the model (the CLI adds `Error: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SessionError {
    /// No such session in this server (never was, exited and reported, or killed).
    #[error(
        "no session {0} (none was started with that id, it was killed, or it ended and its exit was already reported)"
    )]
    NoSession(u64),
    /// The session belonged to a server that is no longer running.
    #[error("session {0} is gone (the session server restarted)")]
    Gone(u64),
    /// The command line was empty.
    #[error("cmd is empty; give a shell command line, e.g. \"npm test\"")]
    EmptyCommand,
    /// The working directory does not exist or is not a directory.
    #[error("workdir {0} is not a directory")]
    BadWorkdir(String),
    /// The `shell` argument was given but empty.
    #[error("the shell is empty; name a program, e.g. /bin/sh")]
    EmptyShell,
    /// The session's process does not read its stdin and earlier input is still queued.
    #[error(
        "session {id} is not reading its stdin ({} still waiting); poll it with \
         empty chars, interrupt it with \"\\u0003\", or kill it",
        crate::text::plural::count(*queued, "byte")
    )]
    InputBacklog {
        /// The session.
        id: u64,
        /// Bytes written earlier that the process has not read yet.
        queued: usize,
    },
    /// The request would not fit in one message to the server.
    #[error(
        "the request is too large ({}, at most {max}); send chars in smaller parts",
        crate::text::plural::count(*bytes, "byte")
    )]
    TooLarge {
        /// Size of the encoded request, in bytes.
        bytes: u64,
        /// Largest request the server reads, in bytes.
        max: u64,
    },
    /// The shell (or the prefix's program) could not be started.
    #[error("cannot run {argv0}: {reason}")]
    Spawn {
        /// The program that was to be executed.
        argv0: String,
        /// What went wrong.
        reason: String,
    },
    /// The server could not be reached, started, or understood.
    #[error("session server: {0}")]
    Server(String),
}

impl From<crate::exec::SpawnError> for SessionError {
    fn from(e: crate::exec::SpawnError) -> Self {
        SessionError::Spawn {
            argv0: e.argv0,
            reason: e.reason,
        }
    }
}

/// Clamps a yield to `range` (spec 05: out-of-range values are clamped, not refused).
pub(crate) fn clamp_yield(ms: u64, range: (u64, u64)) -> Duration {
    Duration::from_millis(ms.clamp(range.0, range.1))
}

/// Output budget in bytes for `tokens` (None = default), at most [`PENDING_OUTPUT_CAP`].
pub(crate) fn budget_bytes(tokens: Option<u64>) -> usize {
    let tokens = tokens.unwrap_or(DEFAULT_MAX_OUTPUT_TOKENS);
    tokens
        .saturating_mul(BYTES_PER_TOKEN)
        .min(PENDING_OUTPUT_CAP as u64) as usize
}

/// The tool result of a session reply (spec 05 text), with `session_id` or `exit_code`,
/// `wall_time_ms` and `total_lines` for `--json`.
impl SessionReply {
    /// The reply as a tool's output.
    pub fn into_output(self) -> crate::error::Output {
        let mut out = crate::error::Output::text(self.to_text())
            .with("wall_time_ms", self.wall_time.as_millis() as u64);
        out = match self.status {
            SessionStatus::Running { session_id } => out.with("session_id", session_id),
            SessionStatus::Exited { exit_code } => out.with("exit_code", exit_code),
        };
        if let Some(n) = self.total_lines {
            out = out.with("total_lines", n);
        }
        out
    }
}

/// Session errors as tool errors: an empty command is an argument error, the rest refusals.
impl From<SessionError> for crate::error::ToolError {
    fn from(e: SessionError) -> crate::error::ToolError {
        match e {
            SessionError::EmptyCommand => crate::error::ToolError::usage(e.to_string()),
            _ => crate::error::ToolError::refused(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_text_matches_the_spec() {
        let r = SessionReply {
            wall_time: Duration::from_micros(1_004_200),
            status: SessionStatus::Running { session_id: 1003 },
            output: "hi\n".into(),
            total_lines: None,
        };
        assert_eq!(
            r.to_text(),
            "Wall time: 1.0 seconds\nProcess running with session ID 1003\nOutput:\nhi\n"
        );
        let r = SessionReply {
            status: SessionStatus::Exited { exit_code: 3 },
            total_lines: Some(7),
            ..r
        };
        assert_eq!(
            r.to_text(),
            "Wall time: 1.0 seconds\nProcess exited with code 3\nTotal output lines: 7\nOutput:\nhi\n"
        );
    }

    #[test]
    fn a_workdir_that_is_not_utf8_crosses_the_wire() {
        use std::os::unix::ffi::OsStrExt;
        let odd = PathBuf::from(std::ffi::OsStr::from_bytes(b"/w/d\xff"));
        for dir in [None, Some(PathBuf::from("/w/plain")), Some(odd)] {
            let req = ExecCommandRequest {
                workdir: dir.clone(),
                ..Default::default()
            };
            let wire = serde_json::to_string(&req).unwrap();
            let back: ExecCommandRequest = serde_json::from_str(&wire).unwrap();
            assert_eq!(back.workdir, dir, "{wire}");
        }
        // A request without the field still reads.
        let mut v = serde_json::to_value(ExecCommandRequest::default()).unwrap();
        v.as_object_mut().unwrap().remove("workdir");
        let back: ExecCommandRequest = serde_json::from_value(v).unwrap();
        assert_eq!(back.workdir, None);
    }

    #[test]
    fn budgets_and_clamps() {
        assert_eq!(budget_bytes(None), 40_000);
        assert_eq!(budget_bytes(Some(10)), 40);
        assert_eq!(budget_bytes(Some(u64::MAX)), PENDING_OUTPUT_CAP);
        assert_eq!(
            clamp_yield(1, WRITE_YIELD_RANGE),
            Duration::from_millis(250)
        );
        assert_eq!(
            clamp_yield(99_999, WRITE_YIELD_RANGE),
            Duration::from_secs(30)
        );
        assert_eq!(clamp_yield(250, POLL_YIELD_RANGE), Duration::from_secs(5));
        assert_eq!(
            clamp_yield(10_000_000, POLL_YIELD_RANGE),
            Duration::from_secs(300)
        );
    }

    #[test]
    fn error_messages_match_the_spec() {
        assert!(
            SessionError::NoSession(1001)
                .to_string()
                .starts_with("no session 1001 (")
        );
        assert_eq!(
            SessionError::Gone(1001).to_string(),
            "session 1001 is gone (the session server restarted)"
        );
    }
}
