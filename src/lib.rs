//! agtool: tools for coding agents.
