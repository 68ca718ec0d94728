//! Text handling shared by the tools.
//!
//! - [`syntax`]: the "not worse" syntax gate run before every write (spec 01, "Syntax gate").

pub mod syntax;
