//! agtool: a command-line multitool that gives coding agents (and the people and scripts
//! around them) the tools they need to work on a code base.
//!
//! Layout, top to bottom (a module imports only modules below it):
//! - faces: [`cli`] (the command line and dispatch) over [`faces`] (command tree, argument
//!   intake, timeout runner, output, and the meta commands `schema`, `call`, `state`,
//!   `sessions`, `completions`, `man`);
//! - [`tools`]: the registry and one file per tool; [`args`]: tool argument schemas and
//!   validation;
//! - [`search`]: the directory walk, grep's search and folder listings;
//! - [`notes`]: the notes store; [`skills`]: the host's skill folders and their catalogue;
//! - core: the tool context ([`workspace::context`]) over [`fileio`] (the file layer, where
//!   bytes reach the disk: directory handles, atomic writes, the journal, write transactions,
//!   moves and copies) over the rest of [`workspace`] (root, config, trust, path policy, state
//!   store); [`patch`] (the pure apply-patch engine), [`text`] (content tags, editable text,
//!   anchors, rendering, diffs, syntax gate), [`exec`] (processes, trees, sessions), [`web`] (web-fetch's address policy, hops under one deadline, conversion and
//!   page copies), and at the bottom [`error`] (tool results and errors) and [`interrupt`]
//!   (the one catcher of termination signals, used by exec and by writes).

#![warn(missing_docs)]

pub mod args;
pub mod cli;
pub mod error;
pub mod exec;
pub mod faces;
pub mod fileio;
pub mod hooks;
pub mod interrupt;
pub mod lsp;
pub mod media;
pub mod notes;
pub mod patch;
pub mod sandbox;
pub mod search;
pub mod skills;
pub mod text;
pub mod tools;
pub mod web;
pub mod workspace;
