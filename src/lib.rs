//! agtool: a command-line multitool that gives coding agents (and the people and scripts
//! around them) the tools they need to work on a code base.
//!
//! Layout: [`tools`] holds one file per tool and the registry; [`workspace`] the root, path
//! policy, file layer and state store; [`text`] content tags, editable text and rendering;
//! [`patch`] the pure apply-patch engine (parse, seek, line edits);
//! [`cli`] turns the registry into the command line; [`commands`] the meta commands
//! (`schema`, `call`, `state`); [`exec`] the process core behind the exec tools; [`web`] the address policy, transport,
//! conversion and page copies behind web-fetch.

#![warn(missing_docs)]

pub mod cli;
pub mod commands;
pub mod context;
pub mod error;
pub mod exec;
pub mod patch;
pub mod text;
pub mod tools;
pub mod web;
pub mod workspace;
