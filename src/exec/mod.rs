//! Process tools' core (spec 05-exec.md): spawning with a fixed environment in a new session,
//! killing whole process trees, the head/tail output buffer, one-shot [`run`], and the
//! [`session`] server behind exec-command and write-stdin.
//!
//! Nothing here knows about the CLI: the tool glue validates paths against the workspace
//! policy, reads config (`exec.prefix`, `exec.shell`) and formats errors as `Error: ...`.

pub mod buffer;
pub mod interrupt;
pub mod oneshot;
pub mod session;
pub mod spawn;
pub mod tree;

pub use buffer::{HeadTailBuffer, RenderedOutput};
pub use oneshot::{ExecError, ExecOutcome, ExecRequest, run};
pub use spawn::{FIXED_ENV, SpawnError, with_prefix};
