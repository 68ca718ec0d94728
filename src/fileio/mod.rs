//! The file layer: this is where bytes reach the disk. Every file or folder agtool writes,
//! moves, copies or removes in a workspace goes through the modules here (spec 01 "File
//! layer" and "Races and crashes"; spec 03).
//!
//! Bottom to top (a module names only those listed before it, and the base below the call
//! context: [`crate::error`], [`crate::interrupt`], [`crate::text`] and the workspace's root
//! and policy; never the call context `Ctx` nor a tool; `.ci/layers.py` checks this):
//! - [`beneath`]: directory handles; every path below one is opened relative to it without
//!   following a symlink the policy did not resolve;
//! - [`fs`]: [`fs::Fs`], one handle per allowed root, the per-path locks, the stop on a
//!   termination signal or a deadline, and the error words for people;
//! - [`special`]: opening a file for reading without blocking on a FIFO or a device;
//! - [`map`]: reading a large file from a memory map, safe against it being cut short;
//! - [`tree`]: folder trees listed and removed through handles;
//! - [`journal`]: writes that touch several files, all or nothing across a crash, and the
//!   recovery of a dead process's half-done ones; [`atomic`]: one file written atomically;
//! - [`copy`]: copying one entry (file, symlink, folder) through handles;
//! - [`write_gate`]: the line between a call that may still be abandoned and one that writes;
//! - the write machinery on top, which takes what it needs from the call as a
//!   `&dyn `[`env::WriteEnv`] (the call context implements it): [`txn`] (the write
//!   transaction every write tool takes), [`mkdir`] (make-dir) and [`transfer`] (move-path and
//!   copy-path).

pub mod atomic;
pub mod beneath;
pub mod copy;
pub mod env;
pub mod fs;
pub mod journal;
pub mod map;
pub mod mkdir;
pub mod special;
pub mod transfer;
pub mod tree;
pub mod txn;
pub mod write_gate;
