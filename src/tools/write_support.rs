//! Helpers shared by the write tools (spec 03): options, decoding with the spec's refusals,
//! line deltas, dry-run output and the result lines.

use crate::context::Ctx;
use crate::error::{Output, ToolError};
use crate::text::diff;
use crate::text::editable::EditableText;
use crate::workspace::txn::{Outcome, WriteOptions, Written};

/// The options of one write call: `dry_run` and `check_syntax` (default true, and off when
/// the global setting is off).
pub fn options(ctx: &Ctx, check_syntax: Option<bool>, dry_run: Option<bool>) -> WriteOptions {
    WriteOptions {
        dry_run: dry_run.unwrap_or(false),
        check_syntax: check_syntax.unwrap_or(true) && ctx.syntax_check,
    }
}

/// Decodes an existing file's bytes, refusing binary and undecodable files with spec 01's
/// messages.
pub fn decode(spelled: &str, bytes: &[u8]) -> Result<EditableText, ToolError> {
    EditableText::decode(bytes).map_err(|e| ToolError::refused(e.message(spelled)))
}

/// Encodes text back, refusing characters the file's encoding cannot hold.
pub fn encode(spelled: &str, text: &EditableText) -> Result<Vec<u8>, ToolError> {
    text.encode()
        .map_err(|e| ToolError::refused(format!("{spelled}: {e}")))
}

/// Lines added and removed between two `\n`-normalised texts.
pub fn line_delta(old: &str, new: &str) -> (usize, usize) {
    let diff = similar::TextDiff::from_lines(old, new);
    let (mut added, mut removed) = (0, 0);
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (added, removed)
}

/// The output of a dry run: the diff (coloured for a person on a terminal).
pub fn dry_run_output(diff_text: String) -> Output {
    let shown = if diff::colour_wanted() {
        diff::colourise(&diff_text)
    } else {
        diff_text.clone()
    };
    Output::text(shown)
        .with("dry_run", true)
        .with("diff", diff_text)
}

/// Appends the syntax summary and any registration note of a written file, one line each.
pub fn push_notes(text: &mut String, w: &Written) {
    for line in [&w.syntax, &w.note].into_iter().flatten() {
        text.push_str(line);
        text.push('\n');
    }
}

/// The single written file of a one-file transaction.
pub fn single(outcome: Outcome) -> Result<Written, Output> {
    match outcome {
        Outcome::DryRun(d) => Err(dry_run_output(d)),
        Outcome::Written(mut w) => Ok(w.remove(0)),
    }
}
