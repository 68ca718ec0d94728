//! The workspace: root discovery, configuration, path policy, the context every tool runs in
//! (root, current directory, agent, policy, state store), the file layer (directory handles in
//! `beneath`, root handles in `fs`, atomic writes in `atomic`, folder trees in `tree`, the
//! journal of multi-file writes in `journal`), write transactions and the state store (spec 00
//! "Workspace root and state", spec 01).

pub mod atomic;
pub mod beneath;
pub mod config;
pub mod context;
pub mod copy;
pub mod fs;
pub mod journal;
pub mod mkdir;
pub mod policy;
pub mod root;
pub mod special;
pub mod state;
pub mod transfer;
pub mod tree;
pub mod trust;
pub mod txn;
pub mod write_gate;
