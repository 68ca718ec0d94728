//! The one-shot guard: a process between agtool and a one-shot exec's command that ends the
//! command's whole tree when agtool dies, even by SIGKILL (issue 17, item 4; sessions have the
//! same promise from [`super::session::guard`]).
//!
//! Before, `timeout -s KILL agtool exec -- sh -c "sleep 601 & setsid sleep 601 & sleep 601"`
//! left all four processes running: agtool's own kill sequence (spec 05) cannot run once it
//! is dead. Now the command's process-group leader is the guard:
//!
//! - agtool's child (in the new session, spec 05 `setsid`) asks for a parent-death signal
//!   ([`DEATH_SIGNAL`]), becomes a child subreaper, checks that agtool still lives, and only
//!   then forks: the new process goes on to exec the command, the old one stays as the guard.
//!   Being a subreaper, the guard adopts every orphan of the tree, so a `setsid`, a double
//!   fork or a cleared environment cannot take a process out of its reach.
//! - When agtool dies (the signal, or its parent pid changing, checked every
//!   [`PARENT_CHECK`] since the signal follows the *thread* that spawned), the guard kills its
//!   children generation by generation (each death reparents the next generation to it) until
//!   it has none, then exits.
//! - On SIGTERM (agtool's kill sequence signals the group, guard included) it gives its
//!   children up to [`GRACE`] (within agtool's own 200 ms), then kills them the same way.
//! - When the command exits and nothing it started is left, the guard exits with the
//!   command's code (128 + signal when it was killed): agtool reads that as the command's
//!   status, at no extra cost. When something is left, it writes the code to the report pipe
//!   (4 bytes, native endian) and stays until the tree is gone or agtool kills it, so agtool
//!   knows the command ended and drains the output as spec 05 says.
//!
//! The guard is a fork of agtool's fork, not a new program: no second exec and dynamic load
//! (about 1 ms). The price is that between that fork and its exit it may only make
//! async-signal-safe calls; everything below is plain system calls on stack buffers.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

/// The parent-death signal (not SIGTERM: that one comes with agtool's group kill).
pub const DEATH_SIGNAL: i32 = libc::SIGUSR2;
/// How often the guard checks that agtool still lives, even without a signal.
pub const PARENT_CHECK: Duration = Duration::from_millis(500);
/// Grace between agtool's SIGTERM and the guard's SIGKILL for the rest of the tree.
pub const GRACE: Duration = Duration::from_millis(150);
/// How long the guard keeps killing generations that appear while it kills.
const KILL_ROUNDS_FOR: Duration = Duration::from_secs(2);

/// The agtool side of a guard: the report pipe. Made before the spawn, handed to
/// [`OneShotGuard::install`], then [`OneShotGuard::spawned`] once the command started.
pub(crate) struct OneShotGuard {
    read: OwnedFd,
    write: Option<OwnedFd>,
    parent: i32,
    open: bool,
}

impl OneShotGuard {
    /// A guard for one spawn. Errors: the pipe could not be made (out of descriptors).
    pub(crate) fn new() -> io::Result<OneShotGuard> {
        let (read, write) = rustix::pipe::pipe_with(
            rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK,
        )?;
        Ok(OneShotGuard {
            read,
            write: Some(write),
            parent: std::process::id() as i32,
            open: true,
        })
    }

    /// Makes `cmd`'s child fork the guard just before exec. Register it after every other
    /// `pre_exec` step that the guard should share (the `setsid`), since the command is the
    /// forked copy and the guard keeps the child's pid.
    pub(crate) fn install(&self, cmd: &mut Command) {
        let Some(write) = &self.write else { return };
        let report = write.as_raw_fd();
        let parent = self.parent;
        // SAFETY: the closure runs in the forked child before exec and makes only
        // async-signal-safe calls (sigprocmask, prctl, getppid, fork, close, and in the guard
        // branch the calls of `guard_main`); it touches no memory shared with the parent and
        // allocates nothing.
        unsafe {
            cmd.pre_exec(move || fork_guard(parent, report));
        }
    }

    /// Closes agtool's copy of the report pipe's write end, once the command started (or
    /// failed to): the guard holds the only one, so its exit ends the pipe.
    pub(crate) fn spawned(&mut self) {
        self.write = None;
    }

    /// The report pipe while it may still carry a code, for polling beside the output.
    pub(crate) fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.open.then(|| self.read.as_fd())
    }

    /// The command's exit code when the guard reported it (the command exited while
    /// something it started lives on). None while nothing came; the pipe's end (the guard
    /// exited) stops further polling.
    pub(crate) fn read_exit(&mut self) -> Option<i32> {
        if !self.open {
            return None;
        }
        let mut b = [0u8; 4];
        match rustix::io::read(&self.read, &mut b) {
            Ok(4) => {
                self.open = false;
                Some(i32::from_ne_bytes(b))
            }
            Ok(_) => {
                // End of the pipe (or a short write, which a 4-byte write to a pipe is not).
                self.open = false;
                None
            }
            Err(rustix::io::Errno::AGAIN) | Err(rustix::io::Errno::INTR) => None,
            Err(_) => {
                self.open = false;
                None
            }
        }
    }
}

/// The signals the guard takes with `sigtimedwait` (all blocked in it).
fn watched() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset only write the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [
            libc::SIGCHLD,
            libc::SIGTERM,
            libc::SIGINT,
            libc::SIGQUIT,
            libc::SIGHUP,
            libc::SIGPIPE,
            DEATH_SIGNAL,
        ] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// In agtool's child, before exec: becomes the guard and forks the process that returns (and
/// goes on to exec the command). Errors (the child then fails to start, std reports it):
/// agtool already died, or the fork failed.
fn fork_guard(parent: i32, report: RawFd) -> io::Result<()> {
    let set = watched();
    // SAFETY: only async-signal-safe calls on values this process owns (see `install`).
    unsafe {
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigprocmask(libc::SIG_BLOCK, &set, &mut old);
        libc::prctl(libc::PR_SET_PDEATHSIG, DEATH_SIGNAL as libc::c_ulong);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong);
        if libc::getppid() != parent {
            // agtool died before the death signal was asked for: start nothing.
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        match libc::fork() {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                // The command: no guard settings (fork cleared the death signal and the
                // subreaper mark), the mask std set, no report pipe.
                libc::sigprocmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
                libc::close(report);
                Ok(())
            }
            command => guard_main(command, parent, report, &set),
        }
    }
}

/// Now in milliseconds on the monotonic clock (async-signal-safe).
fn now_ms() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}

/// Waits up to `ms` for one of `set`'s signals; None on timeout.
fn wait_signal(set: &libc::sigset_t, ms: i64) -> Option<i32> {
    let ms = ms.max(0);
    let ts = libc::timespec {
        tv_sec: (ms / 1000) as libc::time_t,
        tv_nsec: ((ms % 1000) * 1_000_000) as libc::c_long,
    };
    // SAFETY: valid set and timespec; the siginfo is not needed.
    let sig = unsafe { libc::sigtimedwait(set, std::ptr::null_mut(), &ts) };
    (sig > 0).then_some(sig)
}

/// Reaps every exited child; the command's status goes to `code`. True when no child is left.
fn reap(command: i32, code: &mut Option<i32>) -> bool {
    loop {
        let mut status = 0;
        // SAFETY: waitpid on our own children with a valid status pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid == 0 {
            return false;
        }
        if pid < 0 {
            return io::Error::last_os_error().raw_os_error() != Some(libc::EINTR);
        }
        if pid == command {
            *code = Some(if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                128 + libc::WTERMSIG(status)
            });
        }
    }
}

/// Calls `f` with each child of this (single-threaded) process, read from
/// `/proc/thread-self/children` into a stack buffer. False when the list cannot be read.
fn for_each_child(mut f: impl FnMut(i32)) -> bool {
    // SAFETY: open/read/close on a descriptor this function owns, into a stack buffer.
    unsafe {
        let fd = libc::open(
            c"/proc/thread-self/children".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return false;
        }
        let mut buf = [0u8; 512];
        let mut cur: i64 = -1;
        loop {
            let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            if n < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            if n <= 0 {
                break;
            }
            for &b in buf.iter().take(n as usize) {
                if b.is_ascii_digit() {
                    cur = cur
                        .max(0)
                        .saturating_mul(10)
                        .saturating_add((b - b'0') as i64);
                } else if cur >= 0 {
                    f(cur as i32);
                    cur = -1;
                }
            }
        }
        if cur >= 0 {
            f(cur as i32);
        }
        libc::close(fd);
        true
    }
}

/// Kills the guard's children with SIGKILL, round after round (each death hands the guard
/// the next generation), until none is left or [`KILL_ROUNDS_FOR`] passed.
fn kill_all(command: i32, code: &mut Option<i32>) {
    let end = now_ms() + KILL_ROUNDS_FOR.as_millis() as i64;
    loop {
        let listed = for_each_child(|pid| {
            // SAFETY: kill(2) on a child of this process.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        });
        if !listed {
            // No children list (an old kernel): the command at least.
            // SAFETY: as above.
            unsafe { libc::kill(command, libc::SIGKILL) };
        }
        if reap(command, code) || now_ms() >= end {
            return;
        }
        let ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 2_000_000,
        };
        // SAFETY: nanosleep with a valid timespec.
        unsafe { libc::nanosleep(&ts, std::ptr::null_mut()) };
    }
}

/// Points stdin, stdout and stderr at /dev/null and closes every other descriptor but
/// `keep`: the guard must hold neither the output pipe (agtool waits for its end) nor std's
/// exec-status pipe (agtool's spawn waits for that one's end too).
fn detach(keep: RawFd) {
    // SAFETY: open, dup2, close and close_range on descriptors this process owns.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
            libc::close(null);
        }
        let close = |from: RawFd, to: RawFd| {
            if from > to {
                return;
            }
            let r = libc::syscall(
                libc::SYS_close_range,
                from as libc::c_uint,
                to as libc::c_uint,
                0 as libc::c_uint,
            );
            if r != 0 {
                for fd in from..=to.min(4095) {
                    libc::close(fd);
                }
            }
        };
        close(3, keep - 1);
        close(keep + 1, i32::MAX);
    }
}

/// The guard's life (see the module doc); never returns.
fn guard_main(command: i32, parent: i32, report: RawFd, set: &libc::sigset_t) -> ! {
    detach(report);
    let mut code: Option<i32> = None;
    let mut reported = false;
    loop {
        let sig = wait_signal(set, PARENT_CHECK.as_millis() as i64);
        // SAFETY: getppid has no preconditions.
        let parent_gone = unsafe { libc::getppid() } != parent;
        if parent_gone {
            kill_all(command, &mut code);
            exit(code.unwrap_or(128 + libc::SIGKILL));
        }
        if sig == Some(libc::SIGTERM) {
            let end = now_ms() + GRACE.as_millis() as i64;
            while !reap(command, &mut code) {
                let left = end - now_ms();
                if left <= 0 {
                    break;
                }
                wait_signal(set, left.min(10));
            }
            kill_all(command, &mut code);
            exit(code.unwrap_or(128 + libc::SIGTERM));
        }
        let none_left = reap(command, &mut code);
        if let Some(c) = code {
            if none_left {
                exit(c);
            }
            if !reported {
                reported = true;
                let b = c.to_ne_bytes();
                // SAFETY: write(2) of a stack buffer to the report pipe we own.
                unsafe { libc::write(report, b.as_ptr().cast(), b.len()) };
            }
        }
    }
}

fn exit(code: i32) -> ! {
    // SAFETY: _exit ends the process without running anything of the parent's copy.
    unsafe { libc::_exit(code) }
}
