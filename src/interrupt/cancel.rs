//! A stop request for one tool call (spec 07 "mcp": `notifications/cancelled`, end of input,
//! a per-call timeout), carried in the call's context ([`crate::workspace::context::Ctx`])
//! beside its write gate. The exec core watches it with the signals it already catches
//! ([`crate::interrupt::InterruptWatch`]) and kills the process tree when it fires.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A stop request for one call, from outside the call but inside the process (spec 07 "mcp":
/// `notifications/cancelled`, end of input, a per-call timeout). Cheap to clone: every clone
/// is the same request. [`Cancel::never`] (the default) is one that cannot fire, for faces
/// that never cancel (the command line, where signals do that job).
///
/// A live one owns a non-blocking pipe made with it, so [`Cancel::fire`] can wake a thread
/// polling [`Cancel::fd`] with no window in which the wake-up could be missed: the poller
/// checks [`Cancel::is_fired`] first, and a fire after that check leaves a byte in the pipe.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    inner: Option<Arc<CancelInner>>,
}

#[derive(Debug)]
struct CancelInner {
    fired: AtomicBool,
    read: OwnedFd,
    write: OwnedFd,
}

impl Cancel {
    /// A request that never fires.
    pub fn never() -> Cancel {
        Cancel { inner: None }
    }

    /// A request that can fire. Falls back to [`Cancel::never`] when the pipe cannot be made
    /// (out of file descriptors): the call then cannot be cancelled, only abandoned.
    pub fn new() -> Cancel {
        use rustix::pipe::{PipeFlags, pipe_with};
        let Ok((read, write)) = pipe_with(PipeFlags::NONBLOCK | PipeFlags::CLOEXEC) else {
            return Cancel::never();
        };
        Cancel {
            inner: Some(Arc::new(CancelInner {
                fired: AtomicBool::new(false),
                read,
                write,
            })),
        }
    }

    /// Asks the call to stop. Idempotent; never blocks.
    pub fn fire(&self) {
        let Some(inner) = &self.inner else {
            return;
        };
        if !inner.fired.swap(true, Ordering::SeqCst) {
            // A full pipe is fine: it is readable already.
            let _ = rustix::io::write(&inner.write, &[1u8]);
        }
    }

    /// Whether [`Cancel::fire`] was called.
    pub fn is_fired(&self) -> bool {
        self.inner
            .as_ref()
            .is_some_and(|i| i.fired.load(Ordering::SeqCst))
    }

    /// The descriptor that becomes readable once the request fires (never read, so every
    /// poller wakes); None for [`Cancel::never`].
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.inner.as_ref().map(|i| i.read.as_fd())
    }
}
