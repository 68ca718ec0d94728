//! Running a tool under its timeout (spec 07 "Timeouts").

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::faces::output::print_result;
use crate::fileio::write_gate::WriteGate;
use crate::tools::ToolSpec;
use crate::workspace::context::Ctx;

/// Runs a tool on a JSON object under its timeout (spec 07, "Timeouts"): the default of the
/// tool, or `--timeout-ms`. A timed-out call is reported with exit 124; the process exits
/// right after, which stops the work, unless the call has started writing files: then it
/// runs to its end (spec 04 "Applying": all or nothing; see [`crate::fileio::write_gate`]).
/// Tools without a default timeout (the exec group) time themselves: exec reads
/// `--timeout-ms` as its own `timeout_ms` and must kill its process tree before returning, so
/// exiting under it would leave the tree running.
pub fn run_with_timeout(ctx: &Ctx, spec: &ToolSpec, value: Value) -> ToolResult {
    let Some(ms) = timeout_for(ctx, spec) else {
        return (spec.run_json)(ctx, value);
    };
    // The tool runs on this thread and a timer signal ends the process if it is late:
    // handing the work to another thread and waiting for it costs a scheduling round trip,
    // which on a busy machine was most of a small read-file's time, and even starting a
    // watchdog thread cost 0.08 ms of a 3 ms read-file. A second call armed at the same time
    // in one process (none of agtool's faces does that) gets a watchdog thread.
    let message = timeout_message(ctx.json, spec.name, ms);
    match alarm::arm(ms, message, ctx.gate.clone()) {
        Some(armed) => {
            let result = (spec.run_json)(ctx, value);
            armed.disarm();
            result
        }
        None => {
            let watchdog = Watchdog::arm(ms, spec.name, ctx.json, ctx.gate.clone());
            let result = (spec.run_json)(ctx, value);
            watchdog.disarm();
            result
        }
    }
}

/// What a timed-out call prints, rendered before the call starts (a signal handler cannot
/// format): as [`print_result`] would print `timed_out(tool, ms)`.
fn timeout_message(json: bool, tool: &str, ms: u64) -> Vec<u8> {
    let err = timed_out(tool, ms);
    let text = if json {
        format!("{}\n", crate::faces::output::envelope(&Err(err)))
    } else {
        format!("{}\n", err.model_text())
    };
    text.into_bytes()
}

/// The timeout of the one call a process runs at a time, as a one-shot `ITIMER_REAL` and a
/// `SIGALRM` handler that does only async-signal-safe things: an atomic claim, the write
/// gate's lock-free abandon, `write(2)` and `_exit(2)`. Whoever claims first prints: the
/// handler the timeout message (then exits 124), or the call its own result (after which a
/// late signal does nothing). A call that is writing files is not abandoned: the handler
/// returns and the call prints its own result.
mod alarm {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

    use crate::fileio::write_gate::WriteGate;

    /// Set while a call is armed (one per process at a time).
    static ARMED: AtomicBool = AtomicBool::new(false);
    /// Taken by whoever prints: the handler, or the call when it is done.
    static CLAIMED: AtomicBool = AtomicBool::new(false);
    /// The armed call's gate (an `Arc` leaked while armed), or null.
    static GATE: AtomicPtr<WriteGate> = AtomicPtr::new(std::ptr::null_mut());
    /// The timeout message (a leaked boxed slice while armed) and its length.
    static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);

    /// An armed timer; [`Armed::disarm`] before printing the call's result.
    pub(super) struct Armed {
        _not_send: std::marker::PhantomData<*const ()>,
    }

    extern "C" fn on_alarm(_: libc::c_int) {
        let gate = GATE.load(Ordering::Acquire);
        if gate.is_null() || CLAIMED.swap(true, Ordering::AcqRel) {
            return;
        }
        // SAFETY: GATE holds a leaked `Arc<WriteGate>` until `disarm` has claimed, which
        // cannot happen while the claim is ours.
        if !unsafe { &*gate }.abandon() {
            CLAIMED.store(false, Ordering::Release);
            return;
        }
        let (mut at, len) = (
            MESSAGE.load(Ordering::Acquire),
            MESSAGE_LEN.load(Ordering::Acquire),
        );
        let end = at.wrapping_add(len);
        while at < end {
            // SAFETY: MESSAGE..MESSAGE+len is a leaked boxed slice while armed.
            let n = unsafe { libc::write(1, at.cast(), end as usize - at as usize) };
            if n > 0 {
                at = at.wrapping_add(n as usize);
            } else if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            } else {
                break;
            }
        }
        // SAFETY: ends the process at once, as the timeout must.
        unsafe { libc::_exit(124) }
    }

    /// Arms the timer for `ms` ms, or None when a call is already armed or the signal
    /// cannot be set up (the caller then uses a watchdog thread).
    pub(super) fn arm(ms: u64, message: Vec<u8>, gate: Arc<WriteGate>) -> Option<Armed> {
        if ARMED.swap(true, Ordering::AcqRel) {
            return None;
        }
        // SAFETY: a plain sigaction with a handler that only does async-signal-safe work;
        // SA_RESTART so that a call that is writing files, which the handler lets run on,
        // sees no EINTR from the syscalls that restart.
        let installed = unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_alarm as *const () as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(libc::SIGALRM, &act, std::ptr::null_mut()) == 0
        };
        if !installed {
            ARMED.store(false, Ordering::Release);
            return None;
        }
        let message = Box::leak(message.into_boxed_slice());
        MESSAGE_LEN.store(message.len(), Ordering::Release);
        MESSAGE.store(message.as_mut_ptr(), Ordering::Release);
        GATE.store(Arc::into_raw(gate).cast_mut(), Ordering::Release);
        CLAIMED.store(false, Ordering::Release);
        if !set_timer(ms) {
            take_back();
            return None;
        }
        Some(Armed {
            _not_send: std::marker::PhantomData,
        })
    }

    /// Starts (`ms` > 0) or stops (0) the one-shot real-time timer.
    fn set_timer(ms: u64) -> bool {
        let ms = if ms == 0 { 0 } else { ms.max(1) };
        let value = libc::timeval {
            tv_sec: (ms / 1000).min(i64::MAX as u64 / 2) as libc::time_t,
            tv_usec: ((ms % 1000) * 1000) as libc::suseconds_t,
        };
        let it = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: value,
        };
        // SAFETY: setitimer with a valid value and no old value wanted.
        unsafe { libc::setitimer(libc::ITIMER_REAL, &it, std::ptr::null_mut()) == 0 }
    }

    /// Frees what `arm` leaked and lets the next call arm.
    fn take_back() {
        let gate = GATE.swap(std::ptr::null_mut(), Ordering::AcqRel);
        if !gate.is_null() {
            // SAFETY: the pointer came from `Arc::into_raw` in `arm`, taken back once.
            drop(unsafe { Arc::from_raw(gate) });
        }
        let (ptr, len) = (
            MESSAGE.swap(std::ptr::null_mut(), Ordering::AcqRel),
            MESSAGE_LEN.swap(0, Ordering::AcqRel),
        );
        if !ptr.is_null() {
            // SAFETY: the pointer and length came from `Box::leak` in `arm`, taken back once.
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
        }
        ARMED.store(false, Ordering::Release);
    }

    impl Armed {
        /// Stops the timer and claims the right to print. When the handler has claimed it
        /// (it is printing the timeout on another thread), waits for the process to end.
        pub(super) fn disarm(self) {
            set_timer(0);
            while CLAIMED.swap(true, Ordering::AcqRel) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            take_back();
        }
    }
}

/// The error of a call that ran out of time: `<tool> timed out after <ms> ms` (exit 124).
pub fn timed_out(tool: &str, ms: u64) -> ToolError {
    ToolError {
        kind: ErrorKind::Timeout,
        message: format!("{tool} timed out after {ms} ms"),
        fields: Map::new(),
    }
}

/// The timeout that applies to a call of `spec` in `ctx`, in ms: `--timeout-ms`, else the
/// tool's default; None for tools that time themselves (the exec group).
pub fn timeout_for(ctx: &Ctx, spec: &ToolSpec) -> Option<u64> {
    let default_ms = spec.meta.timeout_ms?;
    Some(ctx.timeout_ms.unwrap_or(default_ms))
}

/// Ends the process with `Error: <tool> timed out after <ms> ms` (exit 124) unless disarmed in
/// time or the call is writing files. The watchdog prints and exits while holding the lock
/// that `disarm` takes, so a late result is never printed after the timeout message.
struct Watchdog {
    state: std::sync::Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>,
}

impl Watchdog {
    fn arm(ms: u64, tool: &'static str, json: bool, gate: Arc<WriteGate>) -> Watchdog {
        let state = std::sync::Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
        let shared = state.clone();
        std::thread::spawn(move || {
            let (lock, wake) = &*shared;
            let guard = lock.lock().unwrap_or_else(|p| p.into_inner());
            let (disarmed, _) = wake
                .wait_timeout_while(guard, Duration::from_millis(ms), |disarmed| !*disarmed)
                .unwrap_or_else(|p| p.into_inner());
            // While the call writes files it is not abandoned: it finishes (or restores what
            // it wrote) and prints its own result (see `write_gate`).
            if !*disarmed && gate.abandon() {
                std::process::exit(print_result(json, Err(timed_out(tool, ms))));
            }
        });
        Watchdog { state }
    }

    fn disarm(self) {
        let (lock, wake) = &*self.state;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
        wake.notify_one();
    }
}
