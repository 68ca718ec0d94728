//! The workspace: root discovery, configuration, path policy, the file layer and the state
//! store (spec 00 "Workspace root and state", spec 01).

pub mod config;
pub mod dir;
pub mod fs;
pub mod policy;
pub mod root;
pub mod state;
pub mod txn;
pub mod write_gate;
