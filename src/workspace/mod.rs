//! The workspace: root discovery ([`root`]), configuration ([`config`]) and when a workspace's
//! own config is obeyed ([`trust`]), the path policy ([`policy`]), the state store ([`state`])
//! and, on top, the context every tool runs in ([`context`]: root, current directory, agent,
//! policy, state store, and the file layer's handles) (spec 00 "Workspace root and state",
//! spec 01). The file layer itself, where bytes reach the disk, is [`crate::fileio`].

pub mod config;
pub mod context;
pub mod policy;
pub mod root;
pub mod state;
pub mod trust;
