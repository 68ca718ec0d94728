//! The faces: how requests reach the tools and results leave them. [`crate::cli`] sits on top
//! and dispatches; here are the command tree ([`tree`]), argument intake ([`input`]), the
//! timeout runner ([`run`]), result printing ([`output`]) and the meta commands (`schema`,
//! `call`, `mcp`, `state`, `sessions`, `completions`, `man`; spec 00 "Meta subcommands", spec
//! 05, spec 07). Faces hold no tool logic: they look a tool up in the registry and run it.

pub mod call;
pub mod colour;
pub mod hostctl;
pub mod input;
pub mod lsp;
pub mod mcp;
pub mod output;
pub mod people;
pub mod run;
pub mod sandbox;
pub mod schema;
pub mod sessions;
pub mod state;
pub mod suggest;
pub mod tree;
