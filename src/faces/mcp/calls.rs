//! Running one `tools/call` in the server (spec 07 "mcp" and "Timeouts"): on a blocking
//! thread, beside the other calls, under its timeout, stoppable from outside.
//!
//! Each call gets its own context ([`Ctx::for_call`]) holding its own stop request
//! ([`Cancel`]) and write gate. Four things can end the wait for its result:
//! - the result: answered as it is;
//! - its timeout (the tool's default or `--timeout-ms`; exec times itself): the stop request
//!   fires and the gate is closed. When the call had not started writing, it is answered at
//!   once with `Error: <tool> timed out after <ms> ms` and its thread is left to finish on its
//!   own: it can no longer write anything (the gate refuses), its exec children are killed by
//!   the stop request, and its result is dropped. When it was writing, its writes finish (or
//!   are rolled back) and its own result is the answer, exactly as on the command line;
//! - `notifications/cancelled` (rmcp cancels the request's token and drops the answer): the
//!   stop request fires (exec kills its tree) and the gate closes; a call that is writing
//!   finishes its writes;
//! - the server stopping (end of input, a termination signal): the same, and the server
//!   waits for the call as [`Call::run`] describes.

use std::time::Duration;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::error::{ToolError, ToolResult};
use crate::faces::output::with_notices;
use crate::faces::run::{timed_out, timeout_for};
use crate::interrupt::Cancel;
use crate::tools::ToolSpec;
use crate::workspace::context::Ctx;

/// How long a stopped call's work is waited for before the call is given up: enough for an
/// exec to kill its process tree and return, short enough that the server exits within a
/// second of its input ending (spec 07).
pub const STOP_GRACE: Duration = Duration::from_millis(500);

/// How a call ended.
#[derive(Debug)]
pub enum Ending {
    /// The tool's own result (also after a timeout or a stop that found it writing).
    Result(ToolResult),
    /// It ran out of time before writing anything: the timeout error.
    TimedOut(ToolError),
    /// The client cancelled it, or the server is stopping: no answer is due.
    Stopped,
}

/// One call about to run.
pub struct Call {
    /// The tool.
    pub spec: ToolSpec,
    /// Its JSON arguments (validated by the tool's own entry point).
    pub args: Value,
}

impl Call {
    /// Runs the call in a context made from `base` and waits for it (see the module doc).
    /// `cancelled` is the request's own token (rmcp cancels it on `notifications/cancelled`),
    /// `stopping` the server's. A stopped call's work is waited for up to [`STOP_GRACE`], or
    /// to its end when it is writing files, which must never be cut short.
    pub async fn run(
        self,
        base: &Ctx,
        cancelled: &CancellationToken,
        stopping: &CancellationToken,
    ) -> Ending {
        let cancel = Cancel::new();
        let ctx = base.for_call(cancel.clone());
        let gate = ctx.gate.clone();
        let timeout = timeout_for(&ctx, &self.spec);
        let name = self.spec.name;
        let run_json = self.spec.run_json;
        let args = self.args;
        let (tx, mut rx) = oneshot::channel::<ToolResult>();
        tokio::task::spawn_blocking(move || {
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_json(&ctx, args)))
                    .unwrap_or_else(|_| {
                        Err(ToolError::refused(format!(
                            "{name} failed (a bug: it panicked)"
                        )))
                    });
            let _ = tx.send(with_notices(result, ctx.take_notices()));
        });
        let deadline = async {
            match timeout {
                Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
                None => std::future::pending().await,
            }
        };
        let lost = || Err(ToolError::refused(format!("{name} ended without a result")));
        tokio::select! {
            result = &mut rx => Ending::Result(result.unwrap_or_else(|_| lost())),
            () = deadline => {
                cancel.fire();
                if gate.abandon() {
                    Ending::TimedOut(timed_out(name, timeout.unwrap_or_default()))
                } else {
                    Ending::Result(rx.await.unwrap_or_else(|_| lost()))
                }
            }
            () = cancelled.cancelled() => stop(&cancel, &gate, rx).await,
            () = stopping.cancelled() => stop(&cancel, &gate, rx).await,
        }
    }
}

/// Stops a call: fires its stop request, closes its gate, and waits for its work (see
/// [`Call::run`]).
async fn stop(
    cancel: &Cancel,
    gate: &crate::fileio::write_gate::WriteGate,
    rx: oneshot::Receiver<ToolResult>,
) -> Ending {
    cancel.fire();
    if gate.abandon() {
        let _ = tokio::time::timeout(STOP_GRACE, rx).await;
    } else {
        let _ = rx.await;
    }
    Ending::Stopped
}
