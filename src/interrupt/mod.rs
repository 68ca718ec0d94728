//! Termination signals while agtool must clean up before it ends: during a one-shot exec
//! (spec 05, "exec (one shot)": a call leaves no process behind) and while files are written
//! (spec 01, "Races and crashes": a write leaves no temp file and no half-written change).
//!
//! A one-shot command runs in its own session, so a SIGTERM from a harness (`timeout 1
//! agtool exec ...`), the SIGINT of Ctrl-C or SIGQUIT of Ctrl-\ (sent to agtool's foreground
//! process group only) or the SIGHUP of a closed terminal reach agtool and not the command:
//! with the default action agtool would die and leave the whole tree running; a write would
//! leave its temp file. While an [`InterruptWatch`] is held, those four signals are caught
//! instead: the handler records the signal and makes a pipe readable. The exec loop (which
//! polls that pipe beside the command's output) kills the tree the normal way, a write (which
//! checks [`InterruptWatch::received`] between chunks) removes its temp files; the call then
//! ends with the interruption, and the CLI exits with 128 + signal.
//!
//! The handler only stores an atomic and writes one byte (both async-signal-safe). The pipe
//! lives for the rest of the process and is never read while a watch is held, so every
//! thread polling it wakes; it is drained when the first watch starts. A signal that was
//! ignored when the watch started (`nohup` ignores SIGHUP) stays ignored. Handlers are reset
//! to the default by `execve`, so commands start with the dispositions agtool had.
//!
//! The same watch also carries a [`Cancel`]: a stop request for one call that comes from
//! inside the process rather than from a signal (the MCP server's `notifications/cancelled`,
//! its end of input, a per-call timeout; spec 07 "mcp"). It wakes the exec loop the same way,
//! through a pipe of its own, and the loop kills the tree by the same path; the call then ends
//! with [`Stop::Cancelled`] instead of a signal number.

use std::io::{PipeReader, PipeWriter, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};

use libc::c_int;

mod cancel;
pub use cancel::Cancel;

/// The signals a one-shot exec catches, with their names for messages.
pub const CAUGHT: [(c_int, &str); 4] = [
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGINT, "SIGINT"),
    (libc::SIGHUP, "SIGHUP"),
    // Ctrl-\ in a terminal: the harder Ctrl-C, which would otherwise leave the tree running.
    (libc::SIGQUIT, "SIGQUIT"),
];

/// The first caught signal since the watches started; 0 for none.
static PENDING: AtomicI32 = AtomicI32::new(0);

/// The write end of the wake-up pipe, for the handler; -1 before the pipe exists.
static WAKE_FD: AtomicI32 = AtomicI32::new(-1);

/// The wake-up pipe: made once, non-blocking at both ends, never closed (so the handler can
/// never write into a descriptor that was closed and reused).
static PIPE: OnceLock<Option<(PipeReader, PipeWriter)>> = OnceLock::new();

/// How many watches are held, and the dispositions to restore when the last one ends.
static WATCHES: Mutex<(usize, Vec<(c_int, libc::sigaction)>)> = Mutex::new((0, Vec::new()));

extern "C" fn on_signal(sig: c_int) {
    let _ = PENDING.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    let fd = WAKE_FD.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: write(2) is async-signal-safe; `fd` is the pipe's write end, which is never
        // closed, and the buffer is one byte on this stack. A full pipe (EAGAIN) is fine: it
        // is readable already.
        let _ = unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }
}

fn pipe() -> Option<&'static (PipeReader, PipeWriter)> {
    PIPE.get_or_init(|| {
        let (reader, writer) = std::io::pipe().ok()?;
        for fd in [reader.as_fd(), writer.as_fd()] {
            let flags = rustix::fs::fcntl_getfl(fd).ok()?;
            rustix::fs::fcntl_setfl(fd, flags | rustix::fs::OFlags::NONBLOCK).ok()?;
        }
        WAKE_FD.store(writer.as_raw_fd(), Ordering::SeqCst);
        Some((reader, writer))
    })
    .as_ref()
}

/// The current disposition of `sig`.
fn current_action(sig: c_int) -> Option<libc::sigaction> {
    let mut old = std::mem::MaybeUninit::<libc::sigaction>::zeroed();
    // SAFETY: a null new action only queries; `old` is valid for writes.
    let rc = unsafe { libc::sigaction(sig, std::ptr::null(), old.as_mut_ptr()) };
    // SAFETY: sigaction filled `old` on success (and a zeroed sigaction is a valid value).
    (rc == 0).then(|| unsafe { old.assume_init() })
}

/// Sets the disposition of `sig`.
fn set_action(sig: c_int, action: &libc::sigaction) {
    // SAFETY: `action` is a fully initialised sigaction whose handler, when not SIG_DFL or
    // SIG_IGN, is `on_signal` (async-signal-safe) or a disposition saved earlier.
    unsafe {
        libc::sigaction(sig, action, std::ptr::null_mut());
    }
}

/// The action that runs [`on_signal`], restarting interrupted system calls.
fn catching_action() -> libc::sigaction {
    // SAFETY: all-zero is a valid sigaction (SIG_DFL, empty mask, no flags).
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
    action.sa_flags = libc::SA_RESTART;
    // SAFETY: `sa_mask` is a valid sigset_t to initialise.
    unsafe {
        libc::sigemptyset(&mut action.sa_mask);
    }
    action
}

/// Why a watched call must stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// This signal reached the process (SIGTERM, SIGINT, SIGHUP, SIGQUIT).
    Signal(i32),
    /// The call's [`Cancel`] fired.
    Cancelled,
}

/// While held, SIGTERM, SIGINT, SIGHUP and SIGQUIT are caught (see the module doc), and the
/// call's [`Cancel`] is watched beside them. Watches may be held by several threads at once;
/// the dispositions are restored when the last one drops.
#[derive(Debug)]
pub struct InterruptWatch {
    /// The signal wake-up pipe; None when it could not be made (out of file descriptors):
    /// the signals then keep their default action.
    reader: Option<&'static PipeReader>,
    cancel: Cancel,
}

impl InterruptWatch {
    /// Starts catching the signals and watching `cancel`.
    pub fn start(cancel: &Cancel) -> InterruptWatch {
        let cancel = cancel.clone();
        let Some((reader, _)) = pipe() else {
            return InterruptWatch {
                reader: None,
                cancel,
            };
        };
        let mut watches = WATCHES.lock().unwrap_or_else(|e| e.into_inner());
        if watches.0 == 0 {
            PENDING.store(0, Ordering::SeqCst);
            let mut sink = [0u8; 64];
            while matches!((&*reader).read(&mut sink), Ok(n) if n > 0) {}
            let catching = catching_action();
            for (sig, _) in CAUGHT {
                let Some(old) = current_action(sig) else {
                    continue;
                };
                if old.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                set_action(sig, &catching);
                watches.1.push((sig, old));
            }
        }
        watches.0 += 1;
        InterruptWatch {
            reader: Some(reader),
            cancel,
        }
    }

    /// The descriptors that become readable when a caught signal arrives or the call is
    /// cancelled (poll them for input; never read them).
    pub fn fds(&self) -> Vec<BorrowedFd<'_>> {
        self.reader
            .map(|r| r.as_fd())
            .into_iter()
            .chain(self.cancel.fd())
            .collect()
    }

    /// Why the call must stop, if it must: a caught signal (since the watches started) wins
    /// over a cancellation.
    pub fn received(&self) -> Option<Stop> {
        if self.reader.is_some() {
            match PENDING.load(Ordering::SeqCst) {
                0 => {}
                sig => return Some(Stop::Signal(sig)),
            }
        }
        self.cancel.is_fired().then_some(Stop::Cancelled)
    }
}

impl Drop for InterruptWatch {
    fn drop(&mut self) {
        if self.reader.is_none() {
            return;
        }
        let mut watches = WATCHES.lock().unwrap_or_else(|e| e.into_inner());
        watches.0 -= 1;
        if watches.0 == 0 {
            for (sig, old) in watches.1.drain(..) {
                set_action(sig, &old);
            }
        }
    }
}

/// Ends this process by `sig` when it is SIGINT, after the command was killed and the message
/// printed: the default action is restored and the signal raised again, so the parent sees a
/// death by SIGINT (a shell's `$?` is still 130). Shells running a script wait for their
/// foreground child after Ctrl-C and stop the script only if that child died of SIGINT; a
/// child that exits 130 is taken to have handled the key, and the script goes on ("wait and
/// cooperative exit"). SIGTERM and SIGHUP have no such convention: for them (and if the raise
/// does not end the process) this returns and the caller exits with 128 + `sig`.
pub fn end_by_sigint(sig: i32) {
    if sig != libc::SIGINT {
        return;
    }
    // SAFETY: all-zero is a valid sigaction (SIG_DFL, empty mask, no flags).
    let default: libc::sigaction = unsafe { std::mem::zeroed() };
    set_action(sig, &default);
    // SAFETY: the set is initialised by sigemptyset before use; unblocking SIGINT in this
    // thread and raising it are plain system calls with no memory effects.
    unsafe {
        let mut set = std::mem::MaybeUninit::<libc::sigset_t>::zeroed();
        libc::sigemptyset(set.as_mut_ptr());
        libc::sigaddset(set.as_mut_ptr(), sig);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, set.as_ptr(), std::ptr::null_mut());
        libc::raise(sig);
    }
}

/// The name of a caught signal (`SIGTERM`), or `signal <n>`.
pub fn signal_name(sig: i32) -> String {
    CAUGHT
        .iter()
        .find(|(n, _)| *n == sig)
        .map_or_else(|| format!("signal {sig}"), |(_, name)| (*name).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_wakes_a_poller_and_never_does_not() {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        assert!(Cancel::never().fd().is_none());
        Cancel::never().fire();
        assert!(!Cancel::never().is_fired());
        let cancel = Cancel::new();
        let watch = InterruptWatch::start(&cancel);
        assert_eq!(watch.received(), None);
        let other = cancel.clone();
        std::thread::spawn(move || other.fire()).join().unwrap();
        assert_eq!(watch.received(), Some(Stop::Cancelled));
        let fd = cancel.fd().unwrap();
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        let zero = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        assert_eq!(poll(&mut fds, Some(&zero)).unwrap(), 1);
        cancel.fire(); // again: still one byte, nothing blocks
        assert!(cancel.is_fired());
    }

    #[test]
    fn names() {
        assert_eq!(signal_name(libc::SIGTERM), "SIGTERM");
        assert_eq!(signal_name(libc::SIGHUP), "SIGHUP");
        assert_eq!(signal_name(99), "signal 99");
    }
}
