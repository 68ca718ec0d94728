//! Starting commands (spec 05, "Common to all"): fixed environment, argv prefix, `setsid`,
//! stdout and stderr on one pipe, and waiting on that pipe and the child's exit together.

use std::ffi::OsString;
use std::io::{self, PipeReader, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::tree::{Leaders, TAG_VAR, Tree, become_subreaper};

/// The file descriptor a spawned child gets its report pipe on (the session guard's report
/// pipe, read by `exec/session/guard.rs`): set here, where it is passed, so that the
/// spawner does not import the guard it starts.
pub const REPORT_FD: i32 = 3;

/// Environment set over the inherited one for every command (spec 05): a model reads plain
/// text, and a pager or an editor waiting on a terminal would hang the call.
pub const FIXED_ENV: &[(&str, &str)] = &[
    ("NO_COLOR", "1"),
    ("TERM", "dumb"),
    ("LANG", "C.UTF-8"),
    ("LC_CTYPE", "C.UTF-8"),
    ("LC_ALL", "C.UTF-8"),
    ("COLORTERM", ""),
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("GH_PAGER", "cat"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_EDITOR", "true"),
    ("EDITOR", "true"),
    ("VISUAL", "true"),
];

/// What the child's stdin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StdinMode {
    /// `/dev/null`: reads get EOF at once (one-shot exec).
    Closed,
    /// A pipe kept open for writes (sessions).
    Piped,
}

/// A started command: its `Child`, the read end of its combined stdout/stderr pipe, its tree.
pub(crate) struct Spawned {
    pub child: Child,
    pub output: PipeReader,
    pub stdin: Option<ChildStdin>,
    pub tree: Tree,
    /// A pidfd for the child (Linux ≥ 5.3), so exit can be polled beside the pipe.
    pub pidfd: Option<OwnedFd>,
}

/// Why a command could not be started: `cannot run <argv0>: <reason>` (spec 05).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot run {argv0}: {reason}")]
pub struct SpawnError {
    /// The program that was to be executed (the prefix's first word when a prefix is set).
    pub argv0: String,
    /// What went wrong, in words.
    pub reason: String,
}

/// `prefix ++ argv`: the config's `exec.prefix` goes in front of every command.
pub fn with_prefix(prefix: &[String], argv: &[String]) -> Vec<String> {
    prefix.iter().chain(argv).cloned().collect()
}

/// A tag unique to this process and call, for [`TAG_VAR`].
pub(crate) fn next_tag(kind: &str) -> String {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    format!("{kind}{}.{n}", std::process::id())
}

/// Starts `argv` (already prefixed) in a new session with the fixed environment plus
/// `TAG_VAR=tag` over `base_env` (None: this process's environment), in `workdir` (None: the
/// current directory), stdout and stderr sharing one pipe. With `workdir_fd`, the child moves
/// into that open folder (`fchdir`) instead of looking `workdir` up by name, so a folder
/// swapped for a symlink after it was checked cannot redirect it. The leader is registered so
/// the zombie sweep leaves its status to the `Child`. `report`, when given, becomes the
/// child's file descriptor [`REPORT_FD`] (the session
/// guard's report pipe). `guard`, when given, puts a one-shot guard between agtool and the
/// command (see [`super::oneshot_guard`]); the returned child is then the guard.
#[allow(clippy::too_many_arguments)]
pub(crate) fn spawn(
    argv: &[String],
    workdir: Option<&Path>,
    workdir_fd: Option<BorrowedFd<'_>>,
    stdin: StdinMode,
    tag: String,
    base_env: Option<&[(OsString, OsString)]>,
    report: Option<BorrowedFd<'_>>,
    guard: Option<&super::oneshot_guard::OneShotGuard>,
) -> Result<Spawned, SpawnError> {
    let argv0 = argv.first().cloned().unwrap_or_default();
    let fail = |reason: String| SpawnError {
        argv0: argv0.clone(),
        reason,
    };
    if argv0.is_empty() {
        return Err(fail("the command is empty".into()));
    }
    if argv.iter().any(|a| a.contains('\0')) {
        return Err(fail("an argument holds a NUL byte".into()));
    }
    become_subreaper();
    let (reader, writer) = io::pipe().map_err(|e| fail(describe(&e)))?;
    let writer2 = writer.try_clone().map_err(|e| fail(describe(&e)))?;
    let mut cmd = Command::new(&argv[0]);
    if let Some(env) = base_env {
        cmd.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
    }
    cmd.args(&argv[1..])
        .envs(FIXED_ENV.iter().copied())
        .env(TAG_VAR, &tag)
        .stdout(writer)
        .stderr(writer2)
        .stdin(match stdin {
            StdinMode::Closed => Stdio::null(),
            StdinMode::Piped => Stdio::piped(),
        });
    if let Some(fd) = workdir_fd {
        let raw = fd.as_raw_fd();
        // SAFETY: the closure only calls fchdir(2), which is async-signal-safe, on a
        // descriptor the caller keeps open until `spawn` returns (the child gets a copy at
        // fork); it touches no memory shared with the parent.
        unsafe {
            cmd.pre_exec(move || {
                rustix::process::fchdir(BorrowedFd::borrow_raw(raw)).map_err(io::Error::from)
            });
        }
    } else if let Some(dir) = workdir {
        cmd.current_dir(dir);
    }
    in_new_session(&mut cmd);
    if let Some(fd) = report {
        pass_fd(&mut cmd, fd.as_raw_fd(), REPORT_FD);
    }
    if let Some(g) = guard {
        g.install(&mut cmd); // last: the guard shares the steps above with the command
    }
    let mut leaders = Leaders::lock();
    let mut child = cmd
        .spawn()
        .map_err(|e| fail(describe_spawn(argv, workdir, &e)))?;
    leaders.insert(child.id() as i32);
    drop(leaders);
    // The parent's copies of the write end must go, or the pipe never reports EOF.
    drop(cmd);
    let pid = child.id() as i32;
    let pidfd = rustix::process::Pid::from_raw(pid)
        .and_then(|p| rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok());
    Ok(Spawned {
        stdin: child.stdin.take(),
        child,
        output: reader,
        tree: Tree { pgid: pid, tag },
        pidfd,
    })
}

/// Makes `cmd`'s child see `fd` as `target` (without close-on-exec).
fn pass_fd(cmd: &mut Command, fd: i32, target: i32) {
    // SAFETY: the closure only calls dup2 and fcntl, which are async-signal-safe, on
    // descriptors inherited from the parent.
    unsafe {
        cmd.pre_exec(move || {
            if fd == target {
                // dup2 onto itself would keep close-on-exec set.
                let flags = libc::fcntl(fd, libc::F_GETFD);
                if flags < 0 || libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                    return Err(io::Error::last_os_error());
                }
            } else if libc::dup2(fd, target) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Makes `cmd` start in a new session (`setsid` in the child before exec): it leads its own
/// process group and has no controlling terminal.
pub(crate) fn in_new_session(cmd: &mut Command) {
    // SAFETY: the closure only calls setsid(2), which is async-signal-safe, and touches no
    // memory shared with the parent.
    unsafe {
        cmd.pre_exec(|| rustix::process::setsid().map(drop).map_err(io::Error::from));
    }
}

/// Whether `p` is a file with an execute bit: what `execvp` would try to run.
pub(crate) fn is_executable_file(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where `program` would be run from, started in `workdir` with `path_var` as its `PATH`: a
/// name with a `/` is a path against `workdir`; otherwise the first `PATH` entry (relative
/// ones against `workdir`) holding an executable file of that name. `None` when there is
/// none.
pub(crate) fn find_program(
    program: &str,
    path_var: Option<&std::ffi::OsStr>,
    workdir: &Path,
) -> Option<std::path::PathBuf> {
    if program.contains('/') {
        let p = workdir.join(program);
        return is_executable_file(&p).then_some(p);
    }
    std::env::split_paths(path_var?)
        .map(|dir| workdir.join(dir).join(program))
        .find(|p| is_executable_file(p))
}

/// Words for a failure to start `argv` (run in `workdir`): the likely cause rather than the
/// bare errno, since execvp folds several causes into one code. A name with a `/` is a path
/// (not looked up on PATH); ENOENT for a file that exists means its `#!` interpreter is
/// missing; EACCES for a folder means it is a folder.
pub(crate) fn describe_spawn(argv: &[String], workdir: Option<&Path>, e: &io::Error) -> String {
    let argv0 = argv.first().map_or("", String::as_str);
    let target = || {
        let p = Path::new(argv0);
        match workdir {
            Some(d) if p.is_relative() => d.join(p),
            _ => p.to_path_buf(),
        }
    };
    let is_path = argv0.contains('/');
    match e.kind() {
        // `["ls -la"]`: a whole shell line given as the program name.
        io::ErrorKind::NotFound if argv.len() == 1 && argv0.contains(char::is_whitespace) => {
            "no program has that name; the command is a list of arguments, not a shell line: \
             give each word separately, or run it through a shell as [\"sh\", \"-c\", LINE]"
                .into()
        }
        io::ErrorKind::NotFound if !is_path => "not found on PATH".into(),
        io::ErrorKind::NotFound if target().is_file() => {
            "its interpreter (the #! line) was not found".into()
        }
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied if is_path && target().is_dir() => {
            "it is a directory".into()
        }
        io::ErrorKind::ArgumentListTooLong => format!(
            "the arguments and environment are too long for the OS ({} of arguments); \
             pass large input through a file",
            crate::text::plural::count(argv.iter().map(|a| a.len() + 1).sum::<usize>(), "byte")
        ),
        _ => describe(e),
    }
}

/// Words for an I/O failure ([`crate::error::io_reason`]), asking about the executable bit
/// for a permission error.
fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::PermissionDenied => "permission denied (is it executable?)".into(),
        _ => crate::error::io_reason(e),
    }
}

/// Collects the leader's exit status once and unregisters it, atomically with respect to the
/// zombie sweep (so a reused pid cannot be confused with it).
pub(crate) fn try_reap(child: &mut Child) -> Option<ExitStatus> {
    let mut leaders = Leaders::lock();
    match child.try_wait() {
        Ok(Some(st)) => {
            leaders.remove(child.id() as i32);
            Some(st)
        }
        Ok(None) => None,
        Err(_) => {
            // Someone else reaped it (should not happen); treat it as gone.
            leaders.remove(child.id() as i32);
            Some(std::os::unix::process::ExitStatusExt::from_raw(0))
        }
    }
}

/// Waits up to `limit` for the leader to be reaped after it was sent SIGKILL. A process stuck
/// in uninterruptible sleep may outlive that: None, and it stays registered.
pub(crate) fn reap_blocking(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let end = std::time::Instant::now() + limit;
    loop {
        if let Some(st) = try_reap(child) {
            return Some(st);
        }
        if std::time::Instant::now() >= end {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Exit code as a shell reports it: the code, or 128 + signal number.
pub(crate) fn exit_code(status: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => 128 + sig,
        (None, None) => -1,
    }
}

/// What woke [`wait_io`].
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Ready {
    /// The pipe has data or reached EOF.
    pub output: bool,
    /// The child may have exited (its pidfd fired, or no pidfd: time to check).
    pub exit: bool,
}

/// How often exit is checked when there is no pidfd.
const EXIT_TICK: Duration = Duration::from_millis(10);

/// Waits up to `timeout` for output on `output` (when given) or the child's exit (when `pidfd`
/// is given; without one the wait is cut to a short tick and `exit` is reported as a hint).
/// `wake` (an [`InterruptWatch`](crate::interrupt::InterruptWatch)'s pipes) also ends the
/// wait when one becomes readable; the caller asks the watch what happened.
pub(crate) fn wait_io(
    output: Option<&PipeReader>,
    pidfd: Option<&OwnedFd>,
    watch_exit: bool,
    wake: &[BorrowedFd<'_>],
    timeout: Duration,
) -> Ready {
    let mut fds = Vec::with_capacity(4);
    if let Some(o) = output {
        fds.push(PollFd::new(o, PollFlags::IN));
    }
    for w in wake {
        fds.push(PollFd::new(w, PollFlags::IN));
    }
    let pid_slot = match (watch_exit, pidfd) {
        (true, Some(p)) => {
            fds.push(PollFd::new(p, PollFlags::IN));
            Some(fds.len() - 1)
        }
        _ => None,
    };
    let timeout = if watch_exit && pid_slot.is_none() {
        timeout.min(EXIT_TICK)
    } else {
        timeout
    };
    let ts = Timespec {
        tv_sec: timeout.as_secs() as _,
        tv_nsec: timeout.subsec_nanos() as _,
    };
    let n = poll(&mut fds, Some(&ts)).unwrap_or(0);
    let fired = |i: usize| !fds[i].revents().is_empty();
    Ready {
        output: n > 0 && output.is_some() && fired(0),
        exit: watch_exit && pid_slot.is_none_or(|i| n > 0 && fired(i)),
    }
}

/// Reads once from a pipe that [`wait_io`] reported ready. `Ok(0)` is EOF.
pub(crate) fn read_chunk(output: &mut PipeReader, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match output.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// Size of one read from the output pipe.
pub(crate) const READ_CHUNK: usize = 64 * 1024;

/// Size of the first read buffer of a one-shot exec: most commands print little, and zeroing
/// 64 KiB up front cost as many instructions as a tenth of `agtool exec -- true`. A read that
/// fills it grows it to [`READ_CHUNK`].
pub(crate) const FIRST_READ_CHUNK: usize = 4 * 1024;

/// Lets the pipe hold more before the writer blocks, which cuts context switches for chatty
/// commands. Best effort: the kernel caps it (`/proc/sys/fs/pipe-max-size`).
pub(crate) fn widen_pipe(output: &PipeReader) {
    #[cfg(target_os = "linux")]
    let _ = rustix::pipe::fcntl_setpipe_size(output.as_fd(), 1 << 20);
    #[cfg(not(target_os = "linux"))]
    let _ = output.as_fd();
}
