//! The editable text as the write tools use it: decoding and encoding failures become the
//! model-facing refusals of spec 01 ("Editable text"), naming the path as the caller spelled it.

use crate::error::ToolError;
use crate::text::editable::{DecodeError, EditableText};

/// Decodes an existing file's bytes for an edit, refusing binary and undecodable files with
/// spec 01's messages plus the reason no read will help: the edit tools change text only
/// (issue 9: "read it first" for a file read_file calls binary sent callers round in a loop).
pub fn decode(spelled: &str, bytes: &[u8]) -> Result<EditableText, ToolError> {
    EditableText::decode(bytes).map_err(|e| ToolError::refused(not_editable(spelled, &e)))
}

/// The refusal for editing a file that is not text: spec 01's sentence (`<path> is a binary
/// file (<n> bytes)`), then why no read will help.
pub fn not_editable(spelled: &str, e: &DecodeError) -> String {
    format!(
        "{} (edit_file, edit_lines and apply_patch change text files only: no read will let \
         them edit it)",
        e.message(spelled)
    )
}

/// Encodes text back, refusing characters the file's encoding cannot hold.
pub fn encode(spelled: &str, text: &EditableText) -> Result<Vec<u8>, ToolError> {
    text.encode()
        .map_err(|e| ToolError::refused(format!("{spelled}: {e}")))
}

/// [`encode`], consuming the text (no copy for UTF-8 with LF line breaks).
pub fn encode_owned(spelled: &str, text: EditableText) -> Result<Vec<u8>, ToolError> {
    text.into_encoded()
        .map_err(|e| ToolError::refused(format!("{spelled}: {e}")))
}

/// Refuses an edited text in which a lone CR would meet the LF of the empty line after it
/// (see [`EditableText::merged_break`]).
pub fn refuse_merged_break(spelled: &str, text: &EditableText) -> Result<(), ToolError> {
    match text.merged_break() {
        None => Ok(()),
        Some(n) => Err(ToolError::refused(format!(
            "this edit of {spelled} would leave line {n} ending in a lone CR right before an \
             empty line ending in LF; on disk the two read back as one CRLF and a line would be \
             lost. Include that line break in the edit so its ending can be chosen; nothing was \
             written"
        ))),
    }
}
