//! What the write machinery ([`crate::fileio::txn`], [`crate::fileio::transfer`],
//! [`crate::fileio::mkdir`]) needs from the call it runs in, and nothing more: the file
//! layer's handles, the call's write gate, the workspace root and its path policy, how paths
//! are shown, and the freshness records of the agent making the call.
//!
//! The call context `Ctx` (`crate::workspace::context`) sits above the file layer and
//! implements [`WriteEnv`]; the write machinery takes a `&dyn WriteEnv`, so it never names the
//! context (nor the state store behind the freshness records), and imports run one way: the
//! context down to the file layer, never back.

use std::path::Path;

use crate::error::ToolError;
use crate::fileio::fs::Fs;
use crate::fileio::write_gate::WriteGate;
use crate::workspace::policy::{Access, CheckedPath, PathPolicy};

/// The call a write runs in, as the write machinery sees it (module doc). Every method is
/// cheap except the freshness records, which may open the state store on first use.
pub trait WriteEnv {
    /// The file layer: handles on the allowed roots, through which every path is reached.
    fn fs(&self) -> &Fs;
    /// The call's write gate: a timeout or a cancellation abandons the call only before it
    /// writes ([`WriteGate`]).
    fn gate(&self) -> &WriteGate;
    /// The workspace root (canonical).
    fn root(&self) -> &Path;
    /// The path policy.
    fn policy(&self) -> &PathPolicy;
    /// Checks a caller-spelled path against the policy (a final symlink is followed); the
    /// first check of a process first recovers interrupted writes. Errors are the policy's
    /// refusals.
    fn check_path(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError>;
    /// As [`WriteEnv::check_path`], for the entry the path names itself (a final symlink is
    /// the link).
    fn check_entry(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError>;
    /// `path` as shown to the caller: relative to the current directory when under it, else
    /// absolute, names that are not UTF-8 escaped (spec 00).
    fn display(&self, path: &Path) -> String;
    /// Whether the freshness gate and records are on (spec 01).
    fn freshness(&self) -> bool;
    /// Whether the syntax gate is on by default (spec 01).
    fn syntax_check(&self) -> bool;
    /// Queues lines (what recovery did) to be told once, after the call's result, each with
    /// `Note: ` first.
    fn say(&self, lines: &[String]);
    /// The content tag this agent was last shown for `real` (`None`: never shown). Errors
    /// (a message) when the state store cannot be read.
    fn recorded_tag(&self, real: &Path) -> Result<Option<String>, String>;
    /// Records that this agent was shown `tag` for `real`. Returns a note for the output when
    /// it could not be recorded, `None` when it was (or freshness is off).
    fn register_tag(&self, real: &Path, tag: &str) -> Option<String>;
    /// Forgets every agent's record of `real` (and of everything under it). Errors (a
    /// message) when the state store cannot be written.
    fn forget_tag(&self, real: &Path) -> Result<(), String>;
    /// Moves every record under `from` to the same place under `to` (a move-path). Errors (a
    /// message) when the state store cannot be written.
    fn move_tags(&self, from: &Path, to: &Path) -> Result<(), String>;
    /// Why reads cannot be recorded now (a read-only or locked state database), to explain a
    /// freshness refusal; `None` when they can.
    fn recording_problem(&self) -> Option<String>;
}
