//! Finding files and text (spec 02): the walk through folder handles behind glob, the `ignore`
//! crate's walk behind grep, the ignore rules of our own walks, grep's per-thread search, and
//! the folder listing of list-dir and read-file.

pub mod git_global;
pub mod grep;
pub mod handle_walk;
pub mod ignore_rules;
pub mod listing;
pub mod walk;
