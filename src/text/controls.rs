//! Characters a terminal or a reader would obey rather than show, written out as escapes in
//! text that came from outside (web pages, skill catalogues): one function for every face
//! (issue 17, item 6).

/// Whether `c` is shown escaped by [`escape_controls`]: C0 controls but `\n` and `\t`, DEL,
/// C1 controls (U+0080..U+009F), and the bidirectional formatting characters that make text
/// read in another order than it is stored ("Trojan Source"): U+061C, U+200E, U+200F,
/// U+202A..U+202E, U+2066..U+2069.
pub fn is_escaped_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || c == '\u{7f}'
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every character of [`is_escaped_control`] but the `\r` of a `\r\n` written as
/// `\x` and two lower-case hex digits (`\x1b`, `\x7f`, `\x9b`), or, above U+00FF, `\u` and
/// four (`\u202e`). A literal `\x1b` in the text reads the same. Returns `text` itself when
/// it holds none (the usual case); escaping twice changes nothing more.
pub fn escape_controls(text: String) -> String {
    let needs = |(i, c): (usize, char)| {
        is_escaped_control(c) && !(c == '\r' && text.as_bytes().get(i + 1) == Some(&b'\n'))
    };
    let Some(first) = text.char_indices().position(needs) else {
        return text;
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.char_indices().skip(first).peekable();
    out.push_str(&text[..text.char_indices().nth(first).map_or(0, |(i, _)| i)]);
    while let Some((_, c)) = chars.next() {
        let crlf = c == '\r' && chars.peek().is_some_and(|(_, n)| *n == '\n');
        if is_escaped_control(c) && !crlf {
            let n = u32::from(c);
            if n <= 0xff {
                out.push_str(&format!("\\x{n:02x}"));
            } else {
                out.push_str(&format!("\\u{n:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped() {
        assert_eq!(
            escape_controls("a\x1b[2J\x07\x08\x7f\u{9b}\u{85}b\r\nc\rd\x00\te\n".into()),
            "a\\x1b[2J\\x07\\x08\\x7f\\x9b\\x85b\r\nc\\x0dd\\x00\te\n"
        );
        assert_eq!(escape_controls("plain é 中\n\t".into()), "plain é 中\n\t");
        assert_eq!(escape_controls("\r".into()), "\\x0d");
        assert_eq!(
            escape_controls(
                "x\u{202e}txt.exe\u{2066}\u{2069}\u{200e}\u{200f}\u{61c}\u{202a}".into()
            ),
            "x\\u202etxt.exe\\u2066\\u2069\\u200e\\u200f\\u061c\\u202a"
        );
        let once = escape_controls("a\u{202e}b\x1b".into());
        assert_eq!(escape_controls(once.clone()), once);
        // Joiners and other format characters that do not reorder text stay.
        assert_eq!(escape_controls("a\u{200d}b".into()), "a\u{200d}b");
    }
}
