//! Process tools' core (spec 05-exec.md): spawning with a fixed environment in a new session,
//! killing whole process trees, the head/tail output buffer, one-shot [`run`], and the
//! [`session`] server behind exec-command and write-stdin.
//!
//! Nothing here knows about the CLI: the tool glue validates paths against the workspace
//! policy, reads config (`exec.prefix`, `exec.shell`) and formats errors as `Error: ...`.

pub mod buffer;
pub mod oneshot;
mod oneshot_guard;
pub mod session;
pub mod spawn;
pub mod tmpdirs;
pub mod tree;

pub use buffer::{HeadTailBuffer, RenderedOutput};

/// The `Wall time: <s> seconds` line that exec and exec-command both print (spec 05), with
/// one decimal (`Wall time: 1.0 seconds`). One format for both tools (issue 9): spec 05 shows
/// one decimal for exec and four for exec-command; tenths are what a reader acts on (is the
/// command quick, slow, or did it wait out its yield time?), more digits are run-to-run noise
/// that costs tokens, and the exact figure is in `--json` as `wall_time_ms`.
pub fn wall_time_line(wall: std::time::Duration) -> String {
    format!("Wall time: {:.1} seconds\n", wall.as_secs_f64())
}
pub use oneshot::{ExecError, ExecOutcome, ExecRequest, run};
pub use spawn::{FIXED_ENV, SpawnError, with_prefix};
