//! agtool: tools for coding agents.

pub mod text;
