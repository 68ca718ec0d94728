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
    // The tool runs on this thread and a watchdog thread ends the process if it is late:
    // handing the work to another thread and waiting for it costs a scheduling round trip,
    // which on a busy machine was most of a small read-file's time.
    let watchdog = Watchdog::arm(ms, spec.name, ctx.json, ctx.gate.clone());
    let result = (spec.run_json)(ctx, value);
    watchdog.disarm();
    result
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
