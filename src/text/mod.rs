//! Text handling: content tags, editable text (decode/encode), scanning, line rendering,
//! unified diffs, the near-miss diagnosis of an edit whose old text is absent, and the "not
//! worse" syntax gate run before every write (spec 01).

pub mod anchors;
pub mod checked;
pub mod clock;
pub mod controls;
pub mod dice;
pub mod diff;
pub mod editable;
pub mod lookalike;
pub mod miss;
pub mod names;
pub mod path_escape;
pub mod pieces;
pub mod placeholder;
pub mod plural;
pub mod region;
pub mod render;
pub mod scan;
pub mod survey;
pub mod syntax;
pub mod tag;
