//! The client side of the session server: what the exec-command, write-stdin and sessions
//! tools call. Each call opens one connection, sends one request and reads one response,
//! starting the server first when none answers (exec-command and write-stdin only).

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::paths::Paths;
use super::protocol::{MAX_LINE, Request, Response, encoded_len, receive, send};
use super::table::missing_session;
use super::{
    EXEC_COMMAND_DEFAULT_YIELD_MS, ExecCommandRequest, POLL_YIELD_RANGE, SessionError, SessionInfo,
    SessionReply, WRITE_YIELD_RANGE, WriteStdinRequest,
};
use crate::exec::spawn::in_new_session;
use crate::exec::tree::{Leaders, TAG_VAR};

/// Starts a session server for a state directory, detached. Returns the process when it is a
/// child of ours (so a quick failure can be reported), None when it runs some other way
/// (a thread, in tests).
pub type Launcher = Arc<dyn Fn(&Path) -> io::Result<Option<Child>> + Send + Sync>;

/// How long a client waits for a server it started to answer.
const START_TIMEOUT: Duration = Duration::from_secs(5);
/// Added to the call's own wait when reading a reply: spawning, pruning, killing.
const REPLY_MARGIN: Duration = Duration::from_secs(60);
/// The server log is emptied at start when it grew past this many bytes.
const LOG_MAX: u64 = 1 << 20;

/// A handle on the session server of one state directory.
#[derive(Clone)]
pub struct Client {
    state_dir: PathBuf,
    launcher: Launcher,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("state_dir", &self.state_dir)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for `state_dir` (the workspace's `.agent-state`) that starts the server as
    /// `<current exe> session-server --state-dir <state_dir>`.
    pub fn new(state_dir: impl Into<PathBuf>) -> Client {
        Client {
            state_dir: state_dir.into(),
            launcher: command_launcher(Vec::new()),
        }
    }

    /// Starts the server with `argv` (program first) followed by `--state-dir <dir>` instead.
    pub fn with_server_command(mut self, argv: Vec<OsString>) -> Client {
        self.launcher = command_launcher(argv);
        self
    }

    /// Starts the server with `launcher` instead (tests run it on a thread).
    pub fn with_launcher(mut self, launcher: Launcher) -> Client {
        self.launcher = launcher;
        self
    }

    fn paths(&self) -> Result<Paths, SessionError> {
        Paths::new(&self.state_dir).map_err(|e| {
            SessionError::Server(format!(
                "bad state directory {}: {e}",
                self.state_dir.display()
            ))
        })
    }

    /// Starts a session (spec 05 exec-command). The workdir is made absolute against the
    /// current directory here, since the server's differs. Errors: empty `cmd`, a workdir
    /// that is not a directory, a shell that cannot start, an unreachable server.
    pub fn exec_command(&self, req: &ExecCommandRequest) -> Result<SessionReply, SessionError> {
        if req.cmd.trim().is_empty() {
            return Err(SessionError::EmptyCommand);
        }
        if req.shell.as_ref().is_some_and(|s| s.is_empty()) {
            return Err(SessionError::EmptyShell);
        }
        let mut req = req.clone();
        let dir = match &req.workdir {
            Some(d) => std::path::absolute(d),
            None => std::env::current_dir(),
        }
        .map_err(|e| SessionError::Server(format!("cannot resolve the workdir: {e}")))?;
        if !dir.is_dir() {
            return Err(SessionError::BadWorkdir(
                req.workdir.as_ref().unwrap_or(&dir).display().to_string(),
            ));
        }
        req.workdir = Some(dir);
        if req.env.is_none() {
            use std::os::unix::ffi::OsStringExt;
            req.env = Some(
                std::env::vars_os()
                    .map(|(k, v)| (k.into_vec(), v.into_vec()))
                    .collect(),
            );
        }
        let wait = Duration::from_millis(
            req.yield_time_ms
                .unwrap_or(EXEC_COMMAND_DEFAULT_YIELD_MS)
                .min(WRITE_YIELD_RANGE.1),
        );
        match self.call(&Request::ExecCommand(req), true, wait)? {
            Some(Response::Output(r)) => Ok(r),
            other => Err(unexpected(other)),
        }
    }

    /// Writes to or polls a session (spec 05 write-stdin). Starts a server when none runs,
    /// which then reports the session as gone (and ends what the dead server left behind).
    pub fn write_stdin(&self, req: &WriteStdinRequest) -> Result<SessionReply, SessionError> {
        let wait = Duration::from_millis(POLL_YIELD_RANGE.1);
        match self.call(&Request::WriteStdin(req.clone()), true, wait)? {
            Some(Response::Output(r)) => Ok(r),
            other => Err(unexpected(other)),
        }
    }

    /// The sessions held by the server, by id; empty when no server runs.
    pub fn list(&self) -> Result<Vec<SessionInfo>, SessionError> {
        match self.call(&Request::List, false, Duration::ZERO)? {
            None => Ok(Vec::new()),
            Some(Response::Sessions { sessions }) => Ok(sessions),
            other => Err(unexpected(other)),
        }
    }

    /// Kills one session and removes it. Errors: `no session <id>`, or `gone` for a session
    /// of a server that no longer runs.
    pub fn kill(&self, id: u64) -> Result<(), SessionError> {
        match self.call(&Request::Kill { session_id: id }, false, Duration::ZERO)? {
            None => Err(missing_session(id, self.paths()?.first_free_id())),
            Some(Response::Killed { .. }) => Ok(()),
            other => Err(unexpected(other)),
        }
    }

    /// Kills every session; returns their ids (empty when no server runs).
    pub fn kill_all(&self) -> Result<Vec<u64>, SessionError> {
        match self.call(&Request::KillAll, false, Duration::ZERO)? {
            None => Ok(Vec::new()),
            Some(Response::Killed { ids }) => Ok(ids),
            other => Err(unexpected(other)),
        }
    }

    /// Kills every session and stops the server, waiting until it has let go of the state
    /// directory. Returns false when no server was running.
    pub fn stop_server(&self) -> Result<bool, SessionError> {
        match self.call(&Request::Stop, false, Duration::ZERO)? {
            None => Ok(false),
            Some(Response::Stopping) => {
                self.wait_for_exit()?;
                Ok(true)
            }
            other => Err(unexpected(other)),
        }
    }

    /// Sends one request to the server's [extension](super::Extension) and returns its
    /// answer; `wait` is how long the extension may take (a minute is added for the rest).
    /// `autostart`: start a server when none runs; otherwise None when none runs.
    pub fn extension(
        &self,
        body: serde_json::Value,
        autostart: bool,
        wait: Duration,
    ) -> Result<Option<serde_json::Value>, SessionError> {
        match self.call(&Request::Extension { body }, autostart, wait)? {
            None => Ok(None),
            Some(Response::Extension { body }) => Ok(Some(body)),
            other => Err(unexpected(other)),
        }
    }

    /// Waits until the server's lock is free (it exited).
    fn wait_for_exit(&self) -> Result<(), SessionError> {
        let paths = self.paths()?;
        let Ok(file) = OpenOptions::new().write(true).open(&paths.lock) else {
            return Ok(());
        };
        let end = Instant::now() + START_TIMEOUT;
        while Instant::now() < end {
            if file.try_lock().is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Err(SessionError::Server(
            "the session server did not exit within 5 s".into(),
        ))
    }

    /// Sends `req` and reads the response. None: no server runs and `autostart` is false.
    /// A connection dropped before the reply (a server exiting for idleness just then) is
    /// retried once.
    fn call(
        &self,
        req: &Request,
        autostart: bool,
        wait: Duration,
    ) -> Result<Option<Response>, SessionError> {
        let paths = self.paths()?;
        let bytes = encoded_len(req);
        if bytes >= MAX_LINE {
            return Err(SessionError::TooLarge {
                bytes,
                max: MAX_LINE - 1,
            });
        }
        let mut last_err = None;
        for _attempt in 0..2 {
            let mut stream = match connect(&paths) {
                Some(s) => s,
                None if !autostart => return Ok(None),
                None => self.start_server(&paths)?,
            };
            let _ = stream.set_read_timeout(Some(wait + REPLY_MARGIN));
            if let Err(e) = send(&mut stream, req) {
                last_err = Some(e);
                continue;
            }
            match receive::<Response>(&stream) {
                Ok(Response::Failed { error }) => return Err(error),
                Ok(resp) => return Ok(Some(resp)),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::UnexpectedEof
                            | io::ErrorKind::ConnectionReset
                            | io::ErrorKind::BrokenPipe
                    ) =>
                {
                    last_err = Some(e)
                }
                Err(e) => return Err(SessionError::Server(format!("no reply: {e}"))),
            }
        }
        Err(SessionError::Server(format!(
            "the connection closed before a reply ({})",
            last_err.map_or_else(|| "unknown".into(), |e| e.to_string())
        )))
    }

    /// Starts a server and waits until it answers. A server of ours that exits 0 lost the
    /// start-up race: keep waiting for the winner.
    fn start_server(&self, paths: &Paths) -> Result<UnixStream, SessionError> {
        paths.ensure_dir().map_err(|e| {
            SessionError::Server(format!("cannot prepare {}: {e}", paths.dir.display()))
        })?;
        let state_dir = paths.dir.parent().unwrap_or(&paths.dir).to_path_buf();
        let mut child = (self.launcher)(&state_dir)
            .map_err(|e| SessionError::Server(format!("cannot start the session server: {e}")))?;
        let end = Instant::now() + START_TIMEOUT;
        let mut pause = Duration::from_millis(2);
        loop {
            if let Some(stream) = connect(paths) {
                if let Some(c) = child.take() {
                    reap_in_background(c);
                }
                return Ok(stream);
            }
            if let Some(c) = child.as_mut()
                && let Ok(Some(status)) = c.try_wait()
            {
                Leaders::lock().remove(c.id() as i32);
                child = None;
                if !status.success() {
                    return Err(start_failure(paths, &format!("it exited with {status}")));
                }
            }
            if Instant::now() >= end {
                if let Some(c) = child.take() {
                    reap_in_background(c);
                }
                return Err(start_failure(paths, "it did not answer within 5 s"));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

/// Connects to the socket named in the record; None when nothing answers there (no record,
/// no socket, a stale socket) or the listener is another user's.
fn connect(paths: &Paths) -> Option<UnixStream> {
    let record = paths.read_record()?;
    let stream = UnixStream::connect(&record.socket).ok()?;
    let cred = rustix::net::sockopt::socket_peercred(stream.as_fd()).ok()?;
    (cred.uid == rustix::process::geteuid()).then_some(stream)
}

fn start_failure(paths: &Paths, what: &str) -> SessionError {
    let last = fs::read_to_string(&paths.log)
        .ok()
        .and_then(|log| log.lines().last().map(str::to_string))
        .unwrap_or_default();
    let mut msg = format!("cannot start the session server: {what}");
    if !last.is_empty() {
        msg.push_str(&format!(" ({last})"));
    }
    msg.push_str(&format!("; see {}", paths.log.display()));
    SessionError::Server(msg)
}

fn unexpected(resp: Option<Response>) -> SessionError {
    SessionError::Server(format!("unexpected reply: {resp:?}"))
}

/// The server is our child until it exits; reap it so a long-lived caller keeps no zombie.
fn reap_in_background(mut child: Child) {
    let _ = std::thread::Builder::new()
        .name("session-server-reaper".into())
        .spawn(move || {
            let _ = child.wait();
            Leaders::lock().remove(child.id() as i32);
        });
}

/// A launcher running `argv ++ ["--state-dir", DIR]` (empty argv: the current executable's
/// `session-server` subcommand), detached: new session, stdin closed, stdout and stderr
/// appended to `server.log`, working directory `/`.
fn command_launcher(argv: Vec<OsString>) -> Launcher {
    Arc::new(move |state_dir: &Path| {
        let argv = if argv.is_empty() {
            vec![
                std::env::current_exe()?.into_os_string(),
                "session-server".into(),
            ]
        } else {
            argv.clone()
        };
        let paths = Paths::new(state_dir)?;
        if fs::metadata(&paths.log).is_ok_and(|m| m.len() > LOG_MAX) {
            let _ = fs::remove_file(&paths.log);
        }
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&paths.log)?;
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .arg("--state-dir")
            .arg(paths.dir.parent().unwrap_or(state_dir))
            .env_remove(TAG_VAR)
            .current_dir("/")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        in_new_session(&mut cmd);
        // Registered like a command's leader, so the orphan sweeps of exec calls in this
        // process neither reap nor kill it (it is outside our session, as orphans are).
        let mut leaders = Leaders::lock();
        let child = cmd.spawn()?;
        leaders.insert(child.id() as i32);
        Ok(Some(child))
    })
}

/// [`Client::exec_command`] on the default client for `state_dir`.
pub fn exec_command(
    state_dir: &Path,
    req: &ExecCommandRequest,
) -> Result<SessionReply, SessionError> {
    Client::new(state_dir).exec_command(req)
}

/// [`Client::write_stdin`] on the default client for `state_dir`.
pub fn write_stdin(
    state_dir: &Path,
    req: &WriteStdinRequest,
) -> Result<SessionReply, SessionError> {
    Client::new(state_dir).write_stdin(req)
}

/// [`Client::list`] on the default client for `state_dir`.
pub fn list(state_dir: &Path) -> Result<Vec<SessionInfo>, SessionError> {
    Client::new(state_dir).list()
}

/// [`Client::kill`] on the default client for `state_dir`.
pub fn kill(state_dir: &Path, id: u64) -> Result<(), SessionError> {
    Client::new(state_dir).kill(id)
}

/// [`Client::kill_all`] on the default client for `state_dir`.
pub fn kill_all(state_dir: &Path) -> Result<Vec<u64>, SessionError> {
    Client::new(state_dir).kill_all()
}

/// [`Client::stop_server`] on the default client for `state_dir`.
pub fn stop_server(state_dir: &Path) -> Result<bool, SessionError> {
    Client::new(state_dir).stop_server()
}
