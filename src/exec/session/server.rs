//! The session server (spec 05, "exec-command and write-stdin"): one per workspace state
//! directory, started on demand by the client as `agtool session-server --state-dir DIR`.
//!
//! Start-up: take `server.lock` (a second server gives up, so racing starts end with one
//! server), replace any stale socket (whoever made it is dead: we hold the lock), kill the
//! sessions a dead predecessor left behind, continue its id sequence, listen. Then one thread
//! per connection; exit after [`IDLE_EXIT`] with no live session and no request, or on a
//! `stop` request (which kills every session first).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::Context;
use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::Extension;
use super::live::Session;
use super::paths::{Paths, Record};
use super::protocol::{Request, Response, receive, send};
use super::table::{PruneEntry, missing_session, prune_victim};
use super::{
    DEFAULT_SHELL, EXEC_COMMAND_DEFAULT_YIELD_MS, ExecCommandRequest, IDLE_EXIT, INTERRUPT,
    MAX_SESSIONS, POLL_YIELD_RANGE, SessionError, SessionInfo, SessionReply, SessionStatus,
    WRITE_STDIN_DEFAULT_YIELD_MS, WRITE_YIELD_RANGE, WriteStdinRequest, budget_bytes, clamp_yield,
};
use crate::exec::tree::{become_subreaper, kill_orphans, kill_tagged};

/// How often the server checks that its lock file and socket are still where it made them.
const HOME_CHECK: Duration = Duration::from_secs(1);

/// (device, inode) of an open file.
fn file_id_of(file: &File) -> Option<(u64, u64)> {
    file.metadata().ok().map(|m| (m.dev(), m.ino()))
}

/// How long a starting server waits for the lock before deciding another server owns it.
const LOCK_WAIT: Duration = Duration::from_secs(2);
/// How often the accept loop wakes to check for idleness and stop requests.
const TICK: Duration = Duration::from_millis(100);
/// A connection that sends nothing for this long is dropped.
const REQUEST_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Server settings; [`Default`] is what spec 05 prescribes, without a session guard.
#[derive(Clone)]
pub struct ServerOptions {
    /// Exit after this long with no live session and no request.
    pub idle_exit: Duration,
    /// agtool's executable, to run each session under a [session guard](super::guard) that
    /// ends the session's tree when the server dies; None runs commands directly (a server
    /// on a thread of a test binary, which has no `session-guard` command).
    pub guard: Option<String>,
    /// More request kinds (the LSP manager, spec 09); None: `extension` requests fail.
    pub extension: Option<Arc<dyn Extension>>,
}

impl std::fmt::Debug for ServerOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerOptions")
            .field("idle_exit", &self.idle_exit)
            .field("guard", &self.guard)
            .field("extension", &self.extension.is_some())
            .finish()
    }
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            idle_exit: IDLE_EXIT,
            guard: None,
            extension: None,
        }
    }
}

/// Runs the session server for `state_dir` (the workspace's `.agent-state`) until it is idle
/// for 10 minutes, told to stop, or its state directory is deleted. Each session runs under a
/// session guard (`/proc/self/exe session-guard`, which works even after the binary was
/// replaced). Returns Ok at once, doing nothing, when another server holds the state
/// directory. Errors: the private folder, lock or socket cannot be set up.
pub fn run(state_dir: &Path) -> anyhow::Result<()> {
    run_extended(state_dir, None)
}

/// [`run`] with an [`Extension`] answering `extension` requests (the LSP manager).
pub fn run_extended(state_dir: &Path, extension: Option<Arc<dyn Extension>>) -> anyhow::Result<()> {
    run_with(
        state_dir,
        ServerOptions {
            guard: Some("/proc/self/exe".to_owned()),
            extension,
            ..ServerOptions::default()
        },
    )
}

/// [`run`] with explicit options (tests shorten the idle time).
pub fn run_with(state_dir: &Path, opts: ServerOptions) -> anyhow::Result<()> {
    let paths = Paths::new(state_dir).context("cannot resolve the state directory")?;
    paths
        .ensure_dir()
        .with_context(|| format!("cannot prepare {}", paths.dir.display()))?;
    let Some(lock) = take_lock(&paths.lock)? else {
        log("another session server holds the lock; leaving it the job");
        return Ok(());
    };
    let socket = paths.choose_socket()?;
    if fs::symlink_metadata(&socket).is_ok() {
        log(&format!("replacing stale socket {}", socket.display()));
        fs::remove_file(&socket)
            .with_context(|| format!("cannot remove stale socket {}", socket.display()))?;
    }
    let listener = UnixListener::bind(&socket)
        .with_context(|| format!("cannot listen on {}", socket.display()))?;
    fs::set_permissions(&socket, fs::Permissions::from_mode(0o600))?;
    listener.set_nonblocking(true)?;
    become_subreaper();
    let swept = kill_tagged(&session_tag_prefix(&paths));
    if swept > 0 {
        log(&format!(
            "killed {} left by a previous server",
            crate::text::plural::count(swept, "process")
        ));
    }
    let first_id = paths.first_free_id();
    if let Some(ext) = &opts.extension {
        ext.start(&session_tag_prefix(&paths));
    }
    let server = Arc::new(Server {
        extension: opts.extension.clone(),
        paths,
        guard: opts.guard.clone(),
        lock_id: file_id_of(&lock),
        socket_id: fs::symlink_metadata(&socket)
            .ok()
            .map(|m| (m.dev(), m.ino())),
        socket: socket.clone(),
        first_id,
        table: Mutex::new(Table {
            sessions: BTreeMap::new(),
            next_id: first_id,
        }),
        use_seq: AtomicU64::new(1),
        active: AtomicUsize::new(0),
        last_request: Mutex::new(Instant::now()),
        stop: AtomicBool::new(false),
    });
    server.save_record(first_id)?;
    log(&format!(
        "pid {} listening on {}, first session id {first_id}",
        std::process::id(),
        socket.display()
    ));
    server.serve(&listener, &opts);
    drop(listener);
    let _ = fs::remove_file(&socket);
    if let Some(ext) = &server.extension {
        ext.shutdown();
    }
    server.kill_all();
    let strays = kill_orphans();
    if strays > 0 {
        log(&format!(
            "killed {} left by ended sessions",
            crate::text::plural::count(strays, "process")
        ));
    }
    // Let handlers that are still replying (a stop request) finish.
    let end = Instant::now() + Duration::from_secs(2);
    while server.active.load(Ordering::SeqCst) > 0 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(5));
    }
    log("exiting");
    drop(lock);
    Ok(())
}

/// The request's environment as OS strings.
fn os_env(raw: &[(Vec<u8>, Vec<u8>)]) -> Vec<(OsString, OsString)> {
    use std::os::unix::ffi::OsStringExt;
    raw.iter()
        .map(|(k, v)| (OsString::from_vec(k.clone()), OsString::from_vec(v.clone())))
        .collect()
}

/// Tag prefix of every session of the server for this state directory.
pub(super) fn session_tag_prefix(paths: &Paths) -> String {
    format!("s{}.", paths.hash)
}

/// Takes the exclusive lock, waiting up to [`LOCK_WAIT`] for a server that is shutting down.
/// None when another live server holds it.
fn take_lock(path: &Path) -> anyhow::Result<Option<File>> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let end = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(file)),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < end => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(fs::TryLockError::WouldBlock) => return Ok(None),
            Err(fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
    }
}

fn log(msg: &str) {
    eprintln!("agtool session-server: {msg}");
}

struct Table {
    sessions: BTreeMap<u64, Arc<Session>>,
    next_id: u64,
}

struct Server {
    paths: Paths,
    /// More request kinds (see [`Extension`]).
    extension: Option<Arc<dyn Extension>>,
    /// agtool's executable for session guards (see [`ServerOptions::guard`]).
    guard: Option<String>,
    /// (device, inode) of the lock file and the socket this server made: when either is
    /// gone from its path (the state directory was deleted), the server ends.
    lock_id: Option<(u64, u64)>,
    socket_id: Option<(u64, u64)>,
    socket: PathBuf,
    /// Ids below this belonged to earlier servers.
    first_id: u64,
    table: Mutex<Table>,
    /// Recency counter for pruning.
    use_seq: AtomicU64,
    /// Connections being served.
    active: AtomicUsize,
    last_request: Mutex<Instant>,
    stop: AtomicBool,
}

impl Server {
    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What of the server's home is gone, if anything: its lock file or its socket no longer
    /// at their paths (the state directory was deleted or moved). Nobody can reach the server
    /// then, and a new one may start: this one must end its sessions and go.
    fn home_gone(&self) -> Option<String> {
        let same = |path: &Path, id: Option<(u64, u64)>| {
            let now = fs::symlink_metadata(path).ok().map(|m| (m.dev(), m.ino()));
            id.is_none() || now == id
        };
        if !same(&self.paths.lock, self.lock_id) {
            return Some(format!("{} is gone", self.paths.lock.display()));
        }
        if !same(&self.socket, self.socket_id) {
            return Some(format!("{} is gone", self.socket.display()));
        }
        None
    }

    fn save_record(&self, next_id: u64) -> io::Result<()> {
        self.paths.write_record(&Record {
            pid: std::process::id(),
            socket: self.socket.clone(),
            next_id,
        })
    }

    fn touch_activity(&self) {
        *self.last_request.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn is_idle(&self, opts: &ServerOptions) -> bool {
        if self.active.load(Ordering::SeqCst) > 0 {
            return false;
        }
        let quiet = self
            .last_request
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed();
        quiet >= opts.idle_exit
            && !self.table().sessions.values().any(|s| s.is_live())
            && !self.extension.as_ref().is_some_and(|e| e.busy())
    }

    /// Accept loop: returns on a stop request or when idle.
    fn serve(self: &Arc<Self>, listener: &UnixListener, opts: &ServerOptions) {
        let me = rustix::process::geteuid();
        let tick = Timespec {
            tv_sec: 0,
            tv_nsec: TICK.as_nanos() as _,
        };
        let mut last_home_check = Instant::now();
        loop {
            let mut fds = [PollFd::new(listener, PollFlags::IN)];
            let _ = poll(&mut fds, Some(&tick));
            loop {
                match listener.accept() {
                    Ok((stream, _)) => {
                        match rustix::net::sockopt::socket_peercred(stream.as_fd()) {
                            Ok(cred) if cred.uid == me => {}
                            Ok(cred) => {
                                log(&format!(
                                    "refused a connection from uid {}",
                                    cred.uid.as_raw()
                                ));
                                continue;
                            }
                            Err(e) => {
                                log(&format!("refused a connection: no peer credentials: {e}"));
                                continue;
                            }
                        }
                        self.active.fetch_add(1, Ordering::SeqCst);
                        self.touch_activity();
                        let server = Arc::clone(self);
                        let spawned = std::thread::Builder::new()
                            .name("session-request".into())
                            .spawn(move || server.handle(stream));
                        if spawned.is_err() {
                            self.active.fetch_sub(1, Ordering::SeqCst);
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        log(&format!("accept failed: {e}"));
                        break;
                    }
                }
            }
            if self.stop.load(Ordering::SeqCst) {
                return;
            }
            if self.is_idle(opts) {
                log("idle; exiting");
                return;
            }
            if last_home_check.elapsed() >= HOME_CHECK {
                last_home_check = Instant::now();
                if let Some(what) = self.home_gone() {
                    log(&format!("{what}; ending every session and exiting"));
                    return;
                }
            }
        }
    }

    /// Serves one connection: one request, one response.
    fn handle(self: Arc<Self>, mut stream: UnixStream) {
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(REQUEST_READ_TIMEOUT));
        // The client's pid, for a workdir it passes as an open descriptor.
        let peer = rustix::net::sockopt::socket_peercred(stream.as_fd())
            .ok()
            .map(|c| c.pid.as_raw_nonzero().get());
        // A command inside an exec sandbox may not ask for sessions (spec 08): the server
        // runs outside every sandbox and would start what it is given.
        let refused = super::peer::check(&stream);
        let response = match receive::<Request>(&stream) {
            Ok(_) if let Err(why) = refused => {
                log(&format!("refused a request: {why}"));
                Response::Failed {
                    error: SessionError::Server(why),
                }
            }
            Ok(req) => self.dispatch(req, peer),
            Err(e) => Response::Failed {
                error: SessionError::Server(format!(
                    "bad request: {e} (if agtool was upgraded, run `agtool sessions stop-server`)"
                )),
            },
        };
        if let Err(e) = send(&mut stream, &response) {
            log(&format!("cannot send a reply: {e}"));
        }
        self.touch_activity();
        self.active.fetch_sub(1, Ordering::SeqCst);
    }

    fn dispatch(&self, req: Request, peer: Option<i32>) -> Response {
        let result = match req {
            Request::ExecCommand(r) => self.exec_command(r, peer).map(Response::Output),
            Request::WriteStdin(r) => self.write_stdin(r).map(Response::Output),
            Request::List => Ok(Response::Sessions {
                sessions: self.list(),
            }),
            Request::Kill { session_id } => self.remove(session_id).map(|s| {
                s.terminate();
                Response::Killed {
                    ids: vec![session_id],
                }
            }),
            Request::KillAll => Ok(Response::Killed {
                ids: self.kill_all(),
            }),
            Request::Stop => {
                self.kill_all();
                self.stop.store(true, Ordering::SeqCst);
                Ok(Response::Stopping)
            }
            Request::Extension { body } => match &self.extension {
                Some(ext) => Ok(Response::Extension {
                    body: ext.handle(body),
                }),
                None => Err(SessionError::Server(
                    "this session server has no extension for the request (if agtool was \
                     upgraded, run `agtool sessions stop-server`)"
                        .into(),
                )),
            },
        };
        result.unwrap_or_else(|error| Response::Failed { error })
    }

    fn exec_command(
        &self,
        req: ExecCommandRequest,
        peer: Option<i32>,
    ) -> Result<SessionReply, SessionError> {
        let start = Instant::now();
        if req.cmd.trim().is_empty() {
            return Err(SessionError::EmptyCommand);
        }
        let workdir = match req.workdir {
            Some(d) if d.is_absolute() => d,
            Some(d) => return Err(SessionError::BadWorkdir(d.display().to_string())),
            None => std::env::current_dir().map_err(|e| SessionError::Server(e.to_string()))?,
        };
        let workdir_fd = match req.workdir_fd {
            Some(fd) => Some(open_client_dir(peer, fd).map_err(|e| {
                SessionError::Server(format!(
                    "cannot open the workdir {} the client passed: {e}",
                    workdir.display()
                ))
            })?),
            None => None,
        };
        if workdir_fd.is_none() && !workdir.is_dir() {
            return Err(SessionError::BadWorkdir(workdir.display().to_string()));
        }
        let yield_for = clamp_yield(
            req.yield_time_ms.unwrap_or(EXEC_COMMAND_DEFAULT_YIELD_MS),
            WRITE_YIELD_RANGE,
        );
        let budget = budget_bytes(req.max_output_tokens);
        let shell = req.shell.unwrap_or_else(|| DEFAULT_SHELL.to_string());
        if shell.is_empty() {
            return Err(SessionError::EmptyShell);
        }
        let flag = if req.login { "-lc" } else { "-c" };
        let mut argv = req.prefix;
        argv.extend([shell, flag.to_string(), req.cmd.clone()]);

        let (session, victim) = {
            let mut table = self.table();
            let victim = if table.sessions.len() >= MAX_SESSIONS {
                let entries: Vec<PruneEntry> = table
                    .sessions
                    .values()
                    .map(|s| PruneEntry {
                        id: s.id,
                        last_used: s.last_used(),
                        exited: s.exit_code().is_some(),
                    })
                    .collect();
                prune_victim(&entries).and_then(|id| table.sessions.remove(&id))
            } else {
                None
            };
            let id = table.next_id;
            table.next_id += 1;
            // Persist first: after a crash, a new server must know this id was used.
            self.save_record(table.next_id)
                .map_err(|e| SessionError::Server(format!("cannot save server.json: {e}")))?;
            let tag = format!(
                "{}{}.{id}",
                session_tag_prefix(&self.paths),
                std::process::id()
            );
            let seq = self.use_seq.fetch_add(1, Ordering::SeqCst);
            let env = req.env.as_deref().map(os_env);
            let session = match Session::start(
                id,
                &argv,
                &workdir,
                workdir_fd.as_ref().map(AsFd::as_fd),
                env.as_deref(),
                req.cmd,
                tag,
                seq,
                self.guard.as_deref(),
            ) {
                Ok(s) => s,
                Err(e) => {
                    drop(table);
                    if let Some(v) = victim {
                        v.terminate();
                    }
                    return Err(e.into());
                }
            };
            if let Some(dir) = req.private_tmp {
                session.keep_private_tmp(dir);
            }
            table.sessions.insert(id, Arc::clone(&session));
            (session, victim)
        };
        if let Some(v) = victim {
            log(&format!(
                "pruned session {} to stay within {MAX_SESSIONS}",
                v.id
            ));
            v.terminate();
        }
        Ok(self.finish_call(&session, yield_for, budget, start))
    }

    fn write_stdin(&self, req: WriteStdinRequest) -> Result<SessionReply, SessionError> {
        let start = Instant::now();
        let session = self
            .table()
            .sessions
            .get(&req.session_id)
            .cloned()
            .ok_or_else(|| missing_session(req.session_id, self.first_id))?;
        session.touch(self.use_seq.fetch_add(1, Ordering::SeqCst));
        let requested = req.yield_time_ms.unwrap_or(WRITE_STDIN_DEFAULT_YIELD_MS);
        let yield_for = if req.chars.is_empty() {
            clamp_yield(requested, POLL_YIELD_RANGE)
        } else {
            clamp_yield(requested, WRITE_YIELD_RANGE)
        };
        if req.chars == INTERRUPT {
            session.interrupt();
        } else if !req.chars.is_empty() && session.exit_code().is_none() {
            // A closed stdin is not an error here: the process exited or closed it, and the
            // reply tells which. A process that reads nothing while input piles up is.
            if let Err(queued) = session.write(req.chars.into_bytes()) {
                return Err(SessionError::InputBacklog {
                    id: session.id,
                    queued,
                });
            }
        }
        Ok(self.finish_call(
            &session,
            yield_for,
            budget_bytes(req.max_output_tokens),
            start,
        ))
    }

    /// Waits for output, builds the reply, and removes the session when its process exited
    /// (its exit is reported exactly once).
    fn finish_call(
        &self,
        session: &Arc<Session>,
        yield_for: Duration,
        budget: usize,
        start: Instant,
    ) -> SessionReply {
        let got = session.collect(yield_for, budget);
        let status = match got.exit {
            Some(exit_code) => {
                if self.remove(session.id).is_ok() {
                    session.terminate();
                }
                SessionStatus::Exited { exit_code }
            }
            None => SessionStatus::Running {
                session_id: session.id,
            },
        };
        SessionReply {
            wall_time: start.elapsed(),
            status,
            total_lines: (got.output.omitted_bytes > 0).then_some(got.output.total_lines),
            output: got.output.text,
        }
    }

    fn remove(&self, id: u64) -> Result<Arc<Session>, SessionError> {
        self.table()
            .sessions
            .remove(&id)
            .ok_or_else(|| missing_session(id, self.first_id))
    }

    fn list(&self) -> Vec<SessionInfo> {
        self.table()
            .sessions
            .values()
            .map(|s| SessionInfo {
                id: s.id,
                pid: s.command_pid,
                exit_code: s.exit_code(),
                age_secs: s.started.elapsed().as_secs(),
                command: s.command.clone(),
            })
            .collect()
    }

    /// Kills every session, in parallel (each may take the 200 ms grace). Returns their ids.
    fn kill_all(&self) -> Vec<u64> {
        let sessions: Vec<Arc<Session>> = std::mem::take(&mut self.table().sessions)
            .into_values()
            .collect();
        std::thread::scope(|scope| {
            for s in &sessions {
                scope.spawn(|| s.terminate());
            }
        });
        sessions.iter().map(|s| s.id).collect()
    }
}

/// Opens the folder the client `peer` holds as its descriptor `fd` (see
/// [`ExecCommandRequest::workdir_fd`]): `/proc/<peer>/fd/<fd>` leads to that very folder,
/// not to whatever its path names now. `O_PATH`: enough for `fchdir`, and it needs no read
/// permission on the folder.
fn open_client_dir(peer: Option<i32>, fd: i32) -> io::Result<std::os::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    let peer = peer.ok_or_else(|| io::Error::other("the client's pid is unknown"))?;
    let link = format!("/proc/{peer}/fd/{fd}");
    Ok(rustix::fs::open(
        link.as_str(),
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}
