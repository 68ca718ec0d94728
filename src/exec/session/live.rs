//! One live session inside the server: the process, a pump thread reading its output and
//! watching its exit, and a writer thread feeding its stdin.

use std::ffi::OsString;
use std::io::{PipeReader, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rustix::process::Signal;

use super::guard::guarded_argv;
use super::{PENDING_OUTPUT_CAP, STDIN_BACKLOG_MAX};
use crate::exec::buffer::{HeadTailBuffer, RenderedOutput};
use crate::exec::oneshot::DRAIN_AFTER_EXIT;
use crate::exec::spawn::{
    READ_CHUNK, SpawnError, Spawned, StdinMode, exit_code, read_chunk, reap_blocking, spawn,
    try_reap, wait_io,
};
use crate::exec::tree::{Leaders, Tree, TreeLease, kill_tree, may_have_survivors, signal_group};

/// How long the pump keeps reading after the session was terminated; a pipe held by a process
/// we could not kill must not keep the thread forever.
const PUMP_LINGER: Duration = Duration::from_secs(1);
/// Poll period of the pump while nothing happens, so it notices termination.
const PUMP_TICK: Duration = Duration::from_millis(250);

/// What the pump and the callers share.
struct State {
    /// Output since the last call that collected it.
    pending: HeadTailBuffer,
    /// Exit code once the leader has been reaped.
    exit: Option<i32>,
    exited_at: Option<Instant>,
    /// The output pipe reached EOF (every holder closed it).
    eof: bool,
}

/// A running (or just exited) session.
pub(crate) struct Session {
    pub id: u64,
    /// The session's process group: the guard's (or, without one, the command's) pid.
    pub tree: Tree,
    /// The command's own pid (the shell), for `sessions list`.
    pub command_pid: i32,
    pub command: String,
    pub started: Instant,
    last_used: AtomicU64,
    state: Mutex<State>,
    changed: Condvar,
    input: Mutex<Option<Sender<Vec<u8>>>>,
    /// Bytes handed to the writer thread and not yet written to the pipe.
    queued: Arc<AtomicUsize>,
    terminated: AtomicBool,
    /// Held until [`Session::terminate`] has killed the tree.
    lease: Mutex<Option<TreeLease>>,
    /// The command's private temp folder (the sandbox's `TMPDIR`), removed by
    /// [`Session::terminate`] once the tree is dead (see [`Session::keep_private_tmp`]).
    private_tmp: Mutex<Option<(PathBuf, Option<std::fs::File>)>>,
}

/// Output and status gathered by [`Session::collect`].
pub(crate) struct Collected {
    pub output: RenderedOutput,
    /// Some(code) when the process has exited.
    pub exit: Option<i32>,
}

impl Session {
    /// Starts `argv` (prefix and shell already applied) in `workdir` with piped stdin and `env`
    /// as the base environment (None: the server's), and the threads that serve it. With
    /// `guard` (agtool's executable), the command runs under a
    /// [session guard](super::guard) that ends its tree if the server dies.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        id: u64,
        argv: &[String],
        workdir: &Path,
        workdir_fd: Option<BorrowedFd<'_>>,
        env: Option<&[(OsString, OsString)]>,
        command: String,
        tag: String,
        last_used: u64,
        guard: Option<&str>,
    ) -> Result<Arc<Session>, SpawnError> {
        let (sp, report, command_pid) = match guard {
            None => {
                let sp = spawn(
                    argv,
                    Some(workdir),
                    workdir_fd,
                    StdinMode::Piped,
                    tag,
                    env,
                    None,
                    None,
                )?;
                let pid = sp.tree.pgid;
                (sp, None, pid)
            }
            Some(exe) => match start_guarded(exe, argv, workdir, workdir_fd, env, tag.clone()) {
                Ok(started) => started,
                Err(GuardStart::Command(e)) => return Err(e),
                Err(GuardStart::Unavailable(why)) => {
                    // Nothing ran: a sandbox that forbids running agtool again should not
                    // cost the caller their session, only the guard.
                    eprintln!(
                        "agtool session-server: cannot start a session guard ({why}); session \
                         {id} runs without one"
                    );
                    let sp = spawn(
                        argv,
                        Some(workdir),
                        workdir_fd,
                        StdinMode::Piped,
                        tag,
                        env,
                        None,
                        None,
                    )?;
                    let pid = sp.tree.pgid;
                    (sp, None, pid)
                }
            },
        };
        let lease = TreeLease::new(&sp.tree.tag);
        let (tx, rx) = channel::<Vec<u8>>();
        let session = Arc::new(Session {
            id,
            command_pid,
            tree: sp.tree.clone(),
            command,
            started: Instant::now(),
            last_used: AtomicU64::new(last_used),
            state: Mutex::new(State {
                pending: HeadTailBuffer::new(PENDING_OUTPUT_CAP),
                exit: None,
                exited_at: None,
                eof: false,
            }),
            changed: Condvar::new(),
            input: Mutex::new(Some(tx)),
            queued: Arc::new(AtomicUsize::new(0)),
            terminated: AtomicBool::new(false),
            lease: Mutex::new(Some(lease)),
            private_tmp: Mutex::new(None),
        });
        let mut sp = sp;
        if let Some(stdin) = sp.stdin.take() {
            // Without a writer the session only loses its input; the pump still serves it.
            let queued = Arc::clone(&session.queued);
            let _ = std::thread::Builder::new()
                .name(format!("session-{id}-stdin"))
                .spawn(move || feed_stdin(stdin, rx, &queued));
        }
        let pump_session = Arc::clone(&session);
        let started = std::thread::Builder::new()
            .name(format!("session-{id}-pump"))
            .spawn(move || pump_session.pump(sp, report));
        if let Err(e) = started {
            // Nobody would read or reap it: end it now, and let the sweep reap the leader.
            session.terminate();
            Leaders::lock().remove(session.tree.pgid);
            return Err(spawn_thread_error(argv, e));
        }
        Ok(session)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records the command's exit code (once).
    fn set_exit(&self, code: i32) {
        let mut st = self.lock();
        if st.exit.is_none() {
            st.exit = Some(code);
            st.exited_at = Some(Instant::now());
        }
        self.changed.notify_all();
    }

    /// Reads output and reaps the leader until both are done and the command's exit is known
    /// (or the session was terminated and the pipe stays open past [`PUMP_LINGER`]). Without
    /// a guard the leader is the command and its status is the exit; with one, the guard's
    /// report gives the command's exit, and a guard that died without reporting (killed)
    /// gives its own status.
    fn pump(&self, mut sp: Spawned, mut report: Option<ReportPipe>) {
        let mut chunk = vec![0u8; READ_CHUNK];
        let mut eof = false;
        let mut reaped = false;
        let mut leader_status: Option<i32> = None;
        let mut exit_known = false;
        let mut terminated_at: Option<Instant> = None;
        while !(eof && reaped && exit_known) {
            if self.terminated.load(Ordering::Relaxed) {
                let since = *terminated_at.get_or_insert_with(Instant::now);
                if since.elapsed() >= PUMP_LINGER {
                    break;
                }
            }
            let wake = report.as_ref().filter(|r| !r.eof).map(|r| r.reader.as_fd());
            let ready = wait_io(
                (!eof).then_some(&sp.output),
                sp.pidfd.as_ref(),
                !reaped,
                wake.as_slice(),
                PUMP_TICK,
            );
            if let Some(r) = report.as_mut().filter(|r| !r.eof) {
                for line in r.read_lines() {
                    if let Some(code) = line.strip_prefix("exit ").and_then(|c| c.parse().ok())
                        && !exit_known
                    {
                        exit_known = true;
                        self.set_exit(code);
                    }
                }
            }
            if ready.output {
                let read = read_chunk(&mut sp.output, &mut chunk);
                let mut st = self.lock();
                match read {
                    Ok(0) | Err(_) => {
                        eof = true;
                        st.eof = true;
                    }
                    Ok(n) => st.pending.push(&chunk[..n]),
                }
                self.changed.notify_all();
            }
            if ready.exit
                && !reaped
                && let Some(status) = try_reap(&mut sp.child)
            {
                reaped = true;
                leader_status = Some(exit_code(status));
            }
            let report_done = report.as_ref().is_none_or(|r| r.eof);
            if !exit_known
                && report_done
                && let Some(code) = leader_status
            {
                exit_known = true;
                self.set_exit(code);
            }
        }
        if !reaped {
            // Leave the zombie to the orphan sweep, which skips registered leaders.
            Leaders::lock().remove(sp.tree.pgid);
        }
    }

    /// Marks the session used now (`seq` from the server's use counter).
    pub fn touch(&self, seq: u64) {
        self.last_used.store(seq, Ordering::Relaxed);
    }

    pub fn last_used(&self) -> u64 {
        self.last_used.load(Ordering::Relaxed)
    }

    /// Exit code, once the process has exited.
    pub fn exit_code(&self) -> Option<i32> {
        self.lock().exit
    }

    /// Whether something of the session may still run: the leader, or a holder of its pipe.
    pub fn is_live(&self) -> bool {
        let st = self.lock();
        st.exit.is_none() || !st.eof
    }

    /// Queues bytes for the process's stdin (written in order by the writer thread, so a
    /// process that does not read cannot block the call). Input dropped because stdin is
    /// closed is not an error. Err(bytes still queued) when earlier input is still waiting and
    /// this write would take the queue past [`STDIN_BACKLOG_MAX`]: a process that never reads
    /// must not grow the server's memory without bound.
    pub fn write(&self, bytes: Vec<u8>) -> Result<(), usize> {
        let input = self.input.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = input.as_ref() else {
            return Ok(());
        };
        let queued = self.queued.load(Ordering::SeqCst);
        if queued > 0 && queued + bytes.len() > STDIN_BACKLOG_MAX {
            return Err(queued);
        }
        let len = bytes.len();
        self.queued.fetch_add(len, Ordering::SeqCst);
        if tx.send(bytes).is_err() {
            self.queued.fetch_sub(len, Ordering::SeqCst);
        }
        Ok(())
    }

    /// SIGINT to the session's process group (write-stdin with `\u0003`).
    pub fn interrupt(&self) {
        signal_group(self.tree.pgid, Signal::INT);
    }

    /// Waits until `yield_for` passes or the process has exited with its output closed
    /// (after an exit, a pipe still held open is waited on for at most 2 s), then takes the
    /// output printed since the last call, cut to `budget` bytes.
    pub fn collect(&self, yield_for: Duration, budget: usize) -> Collected {
        let deadline = Instant::now() + yield_for;
        let mut st = self.lock();
        loop {
            let until = match st.exited_at {
                Some(_) if st.eof => break,
                Some(at) => deadline.min(at + DRAIN_AFTER_EXIT),
                None => deadline,
            };
            let now = Instant::now();
            if now >= until {
                break;
            }
            st = self
                .changed
                .wait_timeout(st, until - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        let taken = st.pending.take();
        Collected {
            output: taken.render_within(budget),
            exit: st.exit,
        }
    }

    /// Ends the session: closes its stdin, kills whatever of its tree remains (spec 05 kill
    /// sequence) and lets the pump finish. Safe to call more than once.
    pub fn terminate(&self) {
        self.terminated.store(true, Ordering::Relaxed);
        self.input.lock().unwrap_or_else(|e| e.into_inner()).take();
        if may_have_survivors(&self.tree) {
            // The pump reaps the leader; nothing to do here for it.
            kill_tree(&self.tree, &mut || {});
        }
        self.lease.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some((dir, _lock)) = self
            .private_tmp
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            // Only what this user owns, never through a symlink; best effort.
            crate::exec::tmpdirs::remove_own(&dir);
        }
    }

    /// Takes charge of `dir`, the command's private temp folder made by the client: removed
    /// when the session ends ([`Session::terminate`]). Only a folder that is one (not a
    /// symlink), owned by this user and named as the sandbox names them (`agtool-cmd-*`) is
    /// taken; anything else is left alone. Before, every session's folder stayed behind.
    pub fn keep_private_tmp(&self, dir: PathBuf) {
        if dir.is_absolute() && crate::exec::tmpdirs::is_private_tmp(&dir) {
            // Held while the session lives: a sweep never removes it.
            let lock = crate::exec::tmpdirs::hold(&dir);
            *self.private_tmp.lock().unwrap_or_else(|e| e.into_inner()) = Some((dir, lock));
        }
    }
}

/// The read end of a session guard's report pipe (see [`super::guard`]), non-blocking.
pub(crate) struct ReportPipe {
    reader: PipeReader,
    partial: Vec<u8>,
    /// The guard closed it (exited).
    eof: bool,
}

impl ReportPipe {
    /// The complete lines available now (without waiting); sets `eof` at the end.
    fn read_lines(&mut self) -> Vec<String> {
        let mut buf = [0u8; 256];
        loop {
            match self.reader.read(&mut buf) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.partial.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.eof = true;
                    break;
                }
            }
        }
        let mut lines = Vec::new();
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            lines.push(String::from_utf8_lossy(&line[..at]).into_owned());
        }
        lines
    }
}

/// Why [`start_guarded`] did not start a session.
enum GuardStart {
    /// The guard itself could not be executed; nothing ran.
    Unavailable(String),
    /// The command could not be started (or the guard failed after starting).
    Command(SpawnError),
}

/// How long the server waits for a new guard to say it started the command.
const GUARD_START_WAIT: Duration = Duration::from_secs(10);

/// Starts `argv` under a session guard (`exe session-guard ...`) and waits for its first
/// report: the command's pid, or why it could not start (as a [`SpawnError`] for the
/// command, like a direct spawn's).
fn start_guarded(
    exe: &str,
    argv: &[String],
    workdir: &Path,
    workdir_fd: Option<BorrowedFd<'_>>,
    env: Option<&[(OsString, OsString)]>,
    tag: String,
) -> Result<(Spawned, Option<ReportPipe>, i32), GuardStart> {
    let argv0 = argv.first().cloned().unwrap_or_default();
    let fail = |reason: String| {
        GuardStart::Command(SpawnError {
            argv0: argv0.clone(),
            reason,
        })
    };
    if argv0.is_empty() {
        return Err(fail("the command is empty".into()));
    }
    let (reader, writer) = std::io::pipe()
        .map_err(|e| GuardStart::Unavailable(format!("cannot make its pipe: {e}")))?;
    let guarded = guarded_argv(exe, std::process::id(), argv);
    let mut sp = spawn(
        &guarded,
        Some(workdir),
        workdir_fd,
        StdinMode::Piped,
        tag,
        env,
        Some(writer.as_fd()),
        None,
    )
    .map_err(|e| match e.reason.as_str() {
        // The workdir is the command's problem, whoever is started in it.
        r if r.contains("directory") && !workdir.is_dir() => fail(e.reason),
        _ => GuardStart::Unavailable(format!("{exe}: {}", e.reason)),
    })?;
    drop(writer);
    if let Err(e) = rustix::io::ioctl_fionbio(&reader, true) {
        signal_group(sp.tree.pgid, Signal::KILL);
        let _ = reap_blocking(&mut sp.child, Duration::from_secs(2));
        return Err(fail(format!("cannot set up the guard's pipe: {e}")));
    }
    let mut report = ReportPipe {
        reader,
        partial: Vec::new(),
        eof: false,
    };
    let end = Instant::now() + GUARD_START_WAIT;
    let first = loop {
        if let Some(line) = report.read_lines().into_iter().next() {
            break Some(line);
        }
        if report.eof || Instant::now() >= end {
            break None;
        }
        wait_io(None, None, false, &[report.reader.as_fd()], PUMP_TICK);
    };
    let pid = first
        .as_deref()
        .and_then(|l| l.strip_prefix("ok "))
        .and_then(|p| p.parse::<i32>().ok());
    if let Some(pid) = pid {
        return Ok((sp, Some(report), pid));
    }
    // Nothing runs under the guard: end it and collect its status.
    signal_group(sp.tree.pgid, Signal::KILL);
    let status = reap_blocking(&mut sp.child, Duration::from_secs(2));
    if status.is_none() {
        Leaders::lock().remove(sp.tree.pgid);
    }
    Err(
        match first.as_deref().and_then(|l| l.strip_prefix("err ")) {
            Some(reason) => fail(reason.to_owned()),
            None => fail(format!(
                "the session guard did not start it (guard {})",
                status.map_or_else(|| "still running".to_owned(), |s| s.to_string())
            )),
        },
    )
}

/// Writes queued input to the process in order, counting each piece off `queued` once it is
/// in the pipe (or dropped because the pipe closed).
fn feed_stdin(mut stdin: ChildStdin, rx: std::sync::mpsc::Receiver<Vec<u8>>, queued: &AtomicUsize) {
    let mut open = true;
    for bytes in rx {
        if open && stdin.write_all(&bytes).is_err() {
            open = false;
        }
        queued.fetch_sub(bytes.len(), Ordering::SeqCst);
    }
}

fn spawn_thread_error(argv: &[String], e: std::io::Error) -> SpawnError {
    SpawnError {
        argv0: argv.first().cloned().unwrap_or_default(),
        reason: format!("cannot start a thread for the session: {e}"),
    }
}
