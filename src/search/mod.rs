//! Finding files and text: the directory walk shared by glob and grep (ignore rules, policy),
//! grep's per-thread search, and the folder listing of list-dir and read-file (spec 02).

pub mod grep;
pub mod ignore_rules;
pub mod listing;
pub mod walk;
