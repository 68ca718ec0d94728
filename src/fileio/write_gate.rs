//! The line between a tool call that may still be abandoned and one that is writing files
//! (spec 04 "Applying": all or nothing; spec 07 "Timeouts").
//!
//! A timed-out call ends the process (on the command line) or is answered and left behind (in
//! the MCP server). That is safe while a tool only reads and computes, but a transaction that
//! has started writing must finish (or restore what it wrote) first, or a patch of 50 files
//! could stop after 20. The timeout (or a cancellation) and the transaction meet here:
//! whichever comes first wins, by one atomic compare-and-swap (lock-free, so a signal handler
//! may abandon a call: see `faces::run`). Each call's context holds its own gate (the write
//! machinery reaches it as [`crate::fileio::env::WriteEnv::gate`]).

use std::sync::atomic::{AtomicU8, Ordering};

use crate::error::ToolError;

/// Where one tool call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    /// Reading and computing: a timeout may end the process.
    Working,
    /// Writing files: a timeout must wait for the result.
    Writing,
    /// Files were written: the result must say so, so a timeout still waits for it (a call
    /// that changed files is never reported as timed out).
    Written,
    /// The timeout fired first: no write may start.
    Abandoned,
}

impl Phase {
    fn from_u8(v: u8) -> Phase {
        match v {
            0 => Phase::Working,
            1 => Phase::Writing,
            2 => Phase::Written,
            _ => Phase::Abandoned,
        }
    }
}

/// The gate between computing and writing, one per call.
#[derive(Debug)]
pub struct WriteGate {
    phase: AtomicU8,
}

/// Held while files are written; once dropped, the call's writes are done and a timeout waits
/// for the call's own result.
#[must_use = "the writes are only protected while the guard is held"]
pub struct Writing<'g> {
    gate: &'g WriteGate,
}

impl WriteGate {
    /// A gate in the working phase.
    pub const fn new() -> WriteGate {
        WriteGate {
            phase: AtomicU8::new(Phase::Working as u8),
        }
    }

    /// Moves to `to` unless abandoned; returns the phase it was in.
    fn set(&self, to: Phase) -> Phase {
        let was = self
            .phase
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |p| {
                (Phase::from_u8(p) != Phase::Abandoned).then_some(to as u8)
            })
            .unwrap_or_else(|p| p);
        Phase::from_u8(was)
    }

    /// Enters the writing phase. `None` when the call was already abandoned by its timeout:
    /// the caller must then write nothing.
    pub fn start_writing(&self) -> Option<Writing<'_>> {
        (self.set(Phase::Writing) != Phase::Abandoned).then_some(Writing { gate: self })
    }

    /// [`WriteGate::start_writing`], with the refusal for a call that was abandoned.
    pub fn writing(&self) -> Result<Writing<'_>, ToolError> {
        self.start_writing().ok_or_else(|| {
            ToolError::refused(
                "the call was stopped (timed out or cancelled) before writing; nothing was changed",
            )
        })
    }

    /// Called by a timeout or a cancellation: abandons the call unless files are being
    /// written or were written. True when the call was abandoned (no write will start; the
    /// process may exit or answer now); false when writes are under way or done (wait for the
    /// call's own result, which says what changed).
    pub fn abandon(&self) -> bool {
        self.phase
            .fetch_update(
                Ordering::AcqRel,
                Ordering::Acquire,
                |p| match Phase::from_u8(p) {
                    Phase::Writing | Phase::Written => None,
                    _ => Some(Phase::Abandoned as u8),
                },
            )
            .is_ok()
    }
}

impl Default for WriteGate {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        self.gate.set(Phase::Written);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_before_the_writes_stops_them() {
        let gate = WriteGate::new();
        assert!(gate.abandon());
        assert!(gate.start_writing().is_none());
    }

    #[test]
    fn a_timeout_during_the_writes_waits() {
        let gate = WriteGate::new();
        let writing = gate.start_writing().expect("not abandoned");
        assert!(!gate.abandon());
        drop(writing);
        assert!(
            !gate.abandon(),
            "after the writes the call is not abandoned: its result says what changed"
        );
        assert!(gate.start_writing().is_some());
    }
}
