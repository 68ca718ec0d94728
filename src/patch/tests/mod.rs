//! Unit tests of the pure patch engine: grammar, seek passes, edits.

mod edits;
mod grammar;
mod seek;

use super::{Chunk, Hunk, parse};

/// Wraps hunk text in Begin/End markers.
pub(super) fn wrap(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

/// The chunks of the single Update hunk of `body` (wrapped in markers).
pub(super) fn chunks_of(body: &str) -> Vec<Chunk> {
    let patch = parse(&wrap(body)).unwrap_or_else(|e| panic!("{e}"));
    match patch.hunks.into_iter().next() {
        Some(Hunk::Update { chunks, .. }) => chunks,
        other => panic!("expected an Update hunk, got {other:?}"),
    }
}
