//! Python's indentation rules, which tree-sitter does not enforce (spec 09, "Diagnostics after
//! every edit", source 1): the tokenizer's `IndentationError`s and `TabError`.
//!
//! A small line scanner in the manner of CPython's tokenizer: it follows strings (single,
//! double, triple-quoted, with prefixes and escapes), comments, brackets spanning lines and
//! backslash continuations, so only the first physical line of each logical line has an
//! indentation that counts. Problems found:
//!
//! - `unexpected indent`: a line indented deeper than the one before, which does not open a
//!   block (does not end with `:`);
//! - `expected an indented block`: a line ending with `:` followed by one not indented deeper
//!   (or by the end of the file);
//! - `unindent does not match any outer indentation level`;
//! - `inconsistent use of tabs and spaces in indentation`: two indentations that compare
//!   differently with tabs of 8 and tabs of 1 columns (CPython's rule).
//!
//! CPython stops at the first error; this scanner recovers (an unexpected indent opens a level,
//! an unmatched unindent becomes a level) so that it counts each problem once and an edit far
//! from an old problem leaves the count unchanged, as the "not worse" gate needs.

use super::Found;

/// Tab stops for the primary indentation measure (CPython's `TABSIZE`).
const TAB_SIZE: usize = 8;

/// One indentation level: its width with tabs of [`TAB_SIZE`] and with tabs of 1.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Level {
    col: usize,
    alt: usize,
}

/// Where a scan is between physical lines.
#[derive(Default)]
struct Scan {
    /// Open brackets; lines inside them continue the logical line.
    depth: usize,
    /// Inside a triple-quoted string: its quote char.
    triple: Option<u8>,
    /// The previous physical line ended with a backslash outside a string.
    continued: bool,
    /// The last significant byte of the current logical line (not whitespace or comment).
    last: Option<u8>,
}

/// The indentation problems of `text` (BOM already removed), at byte offsets of the first
/// non-blank char of the offending line (or the end of the text for a missing block).
pub(crate) fn check(text: &str) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut stack = vec![Level { col: 0, alt: 0 }];
    let mut scan = Scan::default();
    // The previous logical line ended with `:` (opens a block).
    let mut opens_block = false;
    let mut start = 0;
    while start < bytes.len() {
        let end = line_end(bytes, start);
        let line = &bytes[start..end];
        let starts_logical = scan.triple.is_none() && scan.depth == 0 && !scan.continued;
        let mut from = 0;
        if starts_logical {
            let (level, indent_len) = measure(line);
            from = indent_len;
            let rest = &line[indent_len..];
            let blank = rest.is_empty() || matches!(rest[0], b'#' | b'\n' | b'\r');
            if !blank {
                let at = start + indent_len;
                indent_line(level, at, &mut stack, &mut opens_block, &mut found);
                scan.last = None;
            }
        }
        scan.continued = false;
        scan_line(line, from, &mut scan);
        if scan.triple.is_none() && scan.depth == 0 && !scan.continued && scan.last.is_some() {
            opens_block = scan.last == Some(b':');
            scan.last = None;
        }
        start = end;
    }
    if opens_block {
        found.push(Found {
            offset: text.len(),
            message: "expected an indented block".to_string(),
        });
    }
    found
}

/// Applies the indentation rules to the first line of a logical line with indentation
/// `level`, starting (after its indentation) at byte `at`.
fn indent_line(
    level: Level,
    at: usize,
    stack: &mut Vec<Level>,
    opens_block: &mut bool,
    found: &mut Vec<Found>,
) {
    let mut problem = |message: &str| {
        found.push(Found {
            offset: at,
            message: message.to_string(),
        })
    };
    let top = *stack.last().expect("the stack keeps its base level");
    if level.col > top.col {
        if !*opens_block {
            problem("unexpected indent");
        } else if level.alt <= top.alt {
            problem("inconsistent use of tabs and spaces in indentation");
        }
        stack.push(level);
    } else {
        if *opens_block {
            problem("expected an indented block");
        }
        while stack.len() > 1 && level.col < stack.last().map_or(0, |l| l.col) {
            stack.pop();
        }
        let top = *stack.last().expect("the stack keeps its base level");
        if level.col != top.col {
            problem("unindent does not match any outer indentation level");
            stack.push(level);
        } else if level.alt != top.alt {
            problem("inconsistent use of tabs and spaces in indentation");
        }
    }
    *opens_block = false;
}

/// The end of the physical line starting at `start`: past its LF, CRLF or lone CR.
fn line_end(bytes: &[u8], start: usize) -> usize {
    match memchr::memchr2(b'\n', b'\r', &bytes[start..]) {
        None => bytes.len(),
        Some(i) => {
            let at = start + i;
            if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                at + 2
            } else {
                at + 1
            }
        }
    }
}

/// The indentation of a line and its length in bytes. A form feed resets the column, as in
/// CPython.
fn measure(line: &[u8]) -> (Level, usize) {
    let (mut col, mut alt) = (0, 0);
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b' ' => {
                col += 1;
                alt += 1;
            }
            b'\t' => {
                col = (col / TAB_SIZE + 1) * TAB_SIZE;
                alt += 1;
            }
            b'\x0c' => {
                col = 0;
                alt = 0;
            }
            _ => break,
        }
        i += 1;
    }
    (Level { col, alt }, i)
}

/// Scans one physical line from byte `from`, updating strings, brackets, continuation and
/// the last significant byte.
fn scan_line(line: &[u8], from: usize, scan: &mut Scan) {
    let mut i = from;
    if let Some(quote) = scan.triple {
        match find_triple_end(line, i, quote) {
            Some(after) => {
                scan.triple = None;
                scan.last = Some(quote);
                i = after;
            }
            None => return,
        }
    }
    while i < line.len() {
        let b = line[i];
        match b {
            b'#' => return,
            b'\n' | b'\r' => return,
            b' ' | b'\t' | b'\x0c' => i += 1,
            b'\\' => {
                // A backslash before the line's end continues the logical line.
                if line[i + 1..].iter().all(|&c| matches!(c, b'\n' | b'\r')) {
                    scan.continued = true;
                    return;
                }
                scan.last = Some(b);
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                scan.depth += 1;
                scan.last = Some(b);
                i += 1;
            }
            b')' | b']' | b'}' => {
                scan.depth = scan.depth.saturating_sub(1);
                scan.last = Some(b);
                i += 1;
            }
            b'\'' | b'"' => {
                scan.last = Some(b);
                if line.get(i + 1) == Some(&b) && line.get(i + 2) == Some(&b) {
                    match find_triple_end(line, i + 3, b) {
                        Some(after) => i = after,
                        None => {
                            scan.triple = Some(b);
                            return;
                        }
                    }
                } else {
                    i = single_string_end(line, i + 1, b);
                }
            }
            _ => {
                // Names (string prefixes such as `rb` are names followed by a quote, which the
                // next round takes as the string's start), numbers, operators.
                scan.last = Some(b);
                i += 1;
            }
        }
    }
}

/// Past the closing `"""` (or `'''`) of a triple-quoted string whose body starts at `i`, or
/// `None` when it does not close on this line. A backslash escapes the next byte.
fn find_triple_end(line: &[u8], mut i: usize, quote: u8) -> Option<usize> {
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            c if c == quote
                && line.get(i + 1) == Some(&quote)
                && line.get(i + 2) == Some(&quote) =>
            {
                return Some(i + 3);
            }
            _ => i += 1,
        }
    }
    None
}

/// Past the closing quote of a one-line string whose body starts at `i`; an unclosed one ends
/// the line (a syntax error tree-sitter reports).
fn single_string_end(line: &[u8], mut i: usize, quote: u8) -> usize {
    while i < line.len() {
        match line[i] {
            b'\\' => {
                // A backslash-newline continues the string onto the next line; treat the
                // string as ending here (rare, and tree-sitter judges it).
                i += 2;
            }
            b'\n' | b'\r' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::check;

    fn messages(text: &str) -> Vec<(usize, String)> {
        let index = super::super::lines::LineIndex::new(text);
        check(text)
            .into_iter()
            .map(|f| (index.position(text, f.offset).0, f.message))
            .collect()
    }

    #[test]
    fn good_code_has_no_problems() {
        let text = "\
import os


class A:
    \"\"\"Doc.

  not indentation
    \"\"\"

    def f(self, x,
  y):  # a comment:
        s = '''a
b'''
        t = [1,
     2]
        if x: return y
        u = 1 + \\
   2
        # comment at any indent
   # another
        return {
    'a': 1,
}

def g():
    pass
";
        assert_eq!(messages(text), vec![]);
    }

    #[test]
    fn the_four_rules() {
        assert_eq!(
            messages("def f():\n    return 1\n        x = 2\n"),
            vec![(3, "unexpected indent".to_string())]
        );
        assert_eq!(
            messages("if x:\n        a = 1\n    b = 2\n"),
            vec![(
                3,
                "unindent does not match any outer indentation level".to_string()
            )]
        );
        assert_eq!(
            messages("def f():\nreturn 1\n"),
            vec![(2, "expected an indented block".to_string())]
        );
        assert_eq!(
            messages("def f():\n    # only a comment\n"),
            vec![(3, "expected an indented block".to_string())]
        );
        assert_eq!(
            messages("if x:\n        a = 1\n\tb = 2\n"),
            vec![(
                3,
                "inconsistent use of tabs and spaces in indentation".to_string()
            )]
        );
    }

    #[test]
    fn strings_and_brackets_hide_colons_and_indents() {
        // A colon inside a string or a comment opens no block; a dict's colon is in brackets.
        assert_eq!(messages("x = 'a:'\ny = 1  # b:\nz = {\n 1:\n 2}\n"), vec![]);
        // An escaped quote does not end the string.
        assert_eq!(messages("x = 'it\\'s:'\ny = 1\n"), vec![]);
        assert_eq!(messages("x = r\"\\\"\"\ny = 1\n"), vec![]);
        // CRLF and CR line ends.
        assert_eq!(messages("if x:\r\n    y = 1\r\n"), vec![]);
        assert_eq!(
            messages("if x:\r\ny = 1\r\n"),
            vec![(2, "expected an indented block".to_string())]
        );
    }

    #[test]
    fn it_recovers_so_far_away_edits_keep_the_count() {
        let bad = "def f():\n    return 1\n      x = 2\n\ndef g():\n    return 2\n";
        assert_eq!(messages(bad).len(), 1);
        let edited = bad.replace("return 2", "return 3");
        assert_eq!(messages(&edited).len(), 1);
    }
}
