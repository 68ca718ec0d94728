//! One page of a document (spec 06, "Output"): the cut by characters and the text the model
//! reads.

use super::Document;

/// A window of a document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window<'a> {
    /// The characters shown.
    pub text: &'a str,
    /// Characters in the whole text (Unicode scalar values).
    pub total: usize,
    /// Index of the first character shown.
    pub start: usize,
    /// Characters shown.
    pub shown: usize,
    /// Characters after the window; 0 when it reaches the end.
    pub remaining: usize,
}

/// The window of `text` starting at character `start`, at most `max` characters long; a
/// character is never split. Errors when `start` is past the end (`start > 0` and at or
/// beyond the last character), with the message of spec 06.
pub fn window(text: &str, start: usize, max: usize) -> Result<Window<'_>, String> {
    let total = text.chars().count();
    if start > 0 && start >= total {
        return Err(format!(
            "start_index {start} is past the end ({total} characters)"
        ));
    }
    let byte_at = |skip: usize, from: usize| -> usize {
        text[from..]
            .char_indices()
            .nth(skip)
            .map_or(text.len(), |(i, _)| from + i)
    };
    let begin = byte_at(start, 0);
    let end = byte_at(max, begin);
    let shown = (total - start).min(max);
    Ok(Window {
        text: &text[begin..end],
        total,
        start,
        shown,
        remaining: total - start - shown,
    })
}

/// The output text: the header lines, a blank line, the window, and (when the window does
/// not reach the end) a newline and the continuation line. `copy_age_secs` is set when the text came from a
/// kept copy; `notes` are extra lines for the header.
pub fn render(
    doc: &Document,
    w: &Window<'_>,
    copy_age_secs: Option<u64>,
    notes: &[String],
) -> String {
    let mut out = String::with_capacity(w.text.len() + 512);
    out.push_str(&format!("URL: {}\n", doc.final_url));
    if doc.reason.is_empty() {
        out.push_str(&format!("Status: {}\n", doc.status));
    } else {
        out.push_str(&format!("Status: {} {}\n", doc.status, doc.reason));
    }
    out.push_str(&format!("Content-Type: {}\n", doc.content_type));
    if doc.chain.len() > 1 {
        out.push_str(&format!("Redirects: {}\n", doc.chain.join(" → ")));
    }
    for note in doc.notes.iter().chain(notes) {
        out.push_str(&format!("Note: {note}\n"));
    }
    if let Some(age) = copy_age_secs {
        out.push_str(&format!("(from the copy fetched {age} s ago)\n"));
    }
    out.push('\n');
    out.push_str(w.text);
    if w.remaining > 0 {
        // Always one newline before the continuation line, so that the page's own text is
        // everything before it, whether or not it ended with a newline.
        out.push('\n');
        out.push_str(&format!(
            "({} more characters; continue with start_index={})\n",
            w.remaining,
            w.start + w.shown
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_count_characters() {
        let t = "aé中bc";
        let w = window(t, 0, 3).unwrap();
        assert_eq!((w.text, w.total, w.remaining), ("aé中", 5, 2));
        let w = window(t, 3, 3).unwrap();
        assert_eq!((w.text, w.remaining), ("bc", 0));
        let w = window(t, 1, 1).unwrap();
        assert_eq!(w.text, "é");
        assert_eq!(
            window(t, 5, 3).unwrap_err(),
            "start_index 5 is past the end (5 characters)"
        );
        assert_eq!(window("", 0, 3).unwrap().text, "");
    }

    #[test]
    fn pages_join_exactly() {
        let t: String = (0..1000).map(|i| ['a', 'é', '中', '\n'][i % 4]).collect();
        let mut joined = String::new();
        let mut start = 0;
        loop {
            let w = window(&t, start, 333).unwrap();
            joined.push_str(w.text);
            if w.remaining == 0 {
                break;
            }
            start += w.shown;
        }
        assert_eq!(joined, t);
    }
}
