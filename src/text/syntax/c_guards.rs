//! The `extern "C"` guard of C and C++ headers, made visible to tree-sitter.
//!
//! Nearly every C header meant for C++ callers reads
//!
//! ```c
//! #ifdef __cplusplus
//! extern "C" {
//! #endif
//! …
//! #ifdef __cplusplus
//! }
//! #endif
//! ```
//!
//! tree-sitter parses each preprocessor branch on its own, sees a brace that never closes and
//! one that never opened, and reports a problem on every such header, so a new header would be
//! refused by the gate. The two brace lines are blanked (same byte length, so positions hold)
//! before parsing; only a brace line alone between a `__cplusplus` test and `#endif` is.

use std::borrow::Cow;

pub(crate) fn blank_extern_c_guards(text: &str) -> Cow<'_, str> {
    if !text.contains("__cplusplus") {
        return Cow::Borrowed(text);
    }
    // (byte offset, content without terminator) of each line.
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        lines.push((start, line.trim_end_matches(['\n', '\r'])));
        start += line.len();
    }
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    for window in lines.windows(3) {
        let [(_, guard), (body_start, body), (_, end)] = window else {
            continue;
        };
        if is_cplusplus_test(guard) && is_extern_c_brace(body) && is_endif(end) {
            // Every byte becomes a space, so multi-byte chars in a comment cannot be split.
            out[*body_start..body_start + body.len()].fill(b' ');
            changed = true;
        }
    }
    if !changed {
        return Cow::Borrowed(text);
    }
    match String::from_utf8(out) {
        Ok(blanked) => Cow::Owned(blanked),
        Err(_) => Cow::Borrowed(text),
    }
}

/// The line without its comment and without any whitespace.
fn squeezed(line: &str) -> String {
    let code = line.split("//").next().unwrap_or(line);
    let code = code.split("/*").next().unwrap_or(code);
    code.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `#ifdef __cplusplus`, `#if defined(__cplusplus)`, `#if defined __cplusplus`.
fn is_cplusplus_test(line: &str) -> bool {
    matches!(
        squeezed(line).as_str(),
        "#ifdef__cplusplus" | "#ifdefined(__cplusplus)" | "#ifdefined__cplusplus"
    )
}

/// `extern "C" {` or `}`, alone on the line but for a comment.
fn is_extern_c_brace(line: &str) -> bool {
    matches!(squeezed(line).as_str(), "extern\"C\"{" | "}")
}

fn is_endif(line: &str) -> bool {
    squeezed(line).starts_with("#endif")
}
