//! The apply-patch engine (spec 04-apply-patch.md), as pure functions over text.
//!
//! Nothing here touches the disk: [`parse`] turns patch text into a [`Patch`], and
//! [`compute_edits`] matches one file's chunks against that file's decoded lines and returns
//! the line edits to make. The `apply_patch` tool glues these to the file layer.
//!
//! Shapes used throughout:
//! - patch line numbers are 1-based and counted from the `*** Begin Patch` line (= line 1),
//!   after the input was trimmed and a heredoc wrapper removed;
//! - file line indexes in [`LineEdit`] are 0-based, end exclusive; line numbers shown to people
//!   (notes, errors) are 1-based.

mod edits;
mod indent;
mod parse;
mod seek;
mod similarity;

#[cfg(test)]
mod tests;

pub use edits::{
    Applied, ChunkError, IndentError, LineEdit, MatchNote, NoteSubject, SeekError, apply_to_lines,
    compute_edits,
};
pub use indent::{Conflict, Reindent};
pub use parse::{BodyLine, Chunk, ContextLine, Hunk, ParseError, Patch, parse};
pub use seek::Pass;
