//! Text handling: content tags, editable text (decode/encode), line rendering.

pub mod editable;
pub mod render;
pub mod scan;
pub mod tag;
