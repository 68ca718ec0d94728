//! Parser for the patch grammar of spec 04-apply-patch.md, section "Grammar", with every
//! leniency listed there (trimmed input, CRLF, padded markers, trimmed hunk headers, heredoc
//! wrappers) plus stacked `@@` lines and `*** End of File`.

use std::fmt;

const BEGIN_MARKER: &str = "*** Begin Patch";
const END_MARKER: &str = "*** End Patch";
const ADD_HEADER: &str = "*** Add File:";
const DELETE_HEADER: &str = "*** Delete File:";
const UPDATE_HEADER: &str = "*** Update File:";
const MOVE_HEADER: &str = "*** Move to:";
const EOF_MARKER: &str = "*** End of File";
const HEREDOC_OPENERS: [&str; 3] = ["<<EOF", "<<'EOF'", "<<\"EOF\""];
const HEREDOC_CLOSER: &str = "EOF";
/// Lines quoted in error messages are cut to this many characters so a runaway line cannot
/// flood the model's context.
const QUOTE_LIMIT: usize = 200;

/// A parsed patch: its hunks in patch order. Never empty ([`parse`] refuses a patch without
/// hunks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// The hunks, in patch order.
    pub hunks: Vec<Hunk>,
}

/// One file operation of a patch. `path` and `move_to` are spelled as in the patch (trimmed);
/// `patch_line` is the 1-based patch line of the hunk header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hunk {
    /// `*** Add File: <path>`; `lines` are the `+` lines without their `+` (no terminators).
    /// An empty list creates an empty file.
    Add {
        /// The file to create.
        path: String,
        /// Its lines, without the `+`.
        lines: Vec<String>,
        /// Patch line of the header.
        patch_line: usize,
    },
    /// `*** Delete File: <path>`.
    Delete {
        /// The file to delete.
        path: String,
        /// Patch line of the header.
        patch_line: usize,
    },
    /// `*** Update File: <path>`, optionally `*** Move to: <dest>`, then at least one chunk.
    Update {
        /// The file to change.
        path: String,
        /// Where it moves to, from `*** Move to:`.
        move_to: Option<String>,
        /// The chunks, in patch order (at least one).
        chunks: Vec<Chunk>,
        /// Patch line of the header.
        patch_line: usize,
    },
}

impl Hunk {
    /// The path named in the hunk header, as spelled in the patch.
    pub fn path(&self) -> &str {
        match self {
            Hunk::Add { path, .. } | Hunk::Delete { path, .. } | Hunk::Update { path, .. } => path,
        }
    }

    /// The 1-based patch line of the hunk header.
    pub fn patch_line(&self) -> usize {
        match self {
            Hunk::Add { patch_line, .. }
            | Hunk::Delete { patch_line, .. }
            | Hunk::Update { patch_line, .. } => *patch_line,
        }
    }
}

/// One chunk of an Update hunk: zero or more `@@` context lines, then body lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The `@@ <context>` lines in order (a bare `@@` adds nothing); each narrows the search.
    pub contexts: Vec<ContextLine>,
    /// The ` `, `-` and `+` lines, never empty.
    pub lines: Vec<BodyLine>,
    /// `*** End of File` followed the body: the old lines must match at the end of the file.
    pub end_of_file: bool,
    /// 1-based patch line of the first body line.
    pub body_line: usize,
}

impl Chunk {
    /// The lines the chunk expects in the file (context and `-` lines), in order.
    pub fn old_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|line| match line {
                BodyLine::Context(text) | BodyLine::Remove(text) => Some(text.as_str()),
                BodyLine::Add(_) => None,
            })
            .collect()
    }
}

/// An `@@ <context>` line: `text` is what follows `@@ ` (one separator removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLine {
    /// The context text after `@@ ` (trimmed).
    pub text: String,
    /// Its 1-based patch line.
    pub patch_line: usize,
}

/// A chunk body line, without its one-character prefix and without a terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyLine {
    /// ` text` or a completely empty line (empty context): in the old and the new text.
    Context(String),
    /// `-text`: only in the old text.
    Remove(String),
    /// `+text`: only in the new text.
    Add(String),
}

/// Why a patch text was refused. `Display` gives the message without the `Error: ` prefix
/// (the caller adds it); line numbers are 1-based patch lines (Begin line = 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The patch has no hunks (or is empty).
    NoHunks,
    /// The first line is not `*** Begin Patch`.
    MissingBegin {
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// The last line is not `*** End Patch`.
    MissingEnd {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// A line where a hunk header belongs is not one.
    BadHunkHeader {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// A header or `*** Move to:` line without a path.
    MissingPath {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// An Update hunk with no chunk.
    EmptyUpdate {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// `@@` line(s) with no body lines after them.
    EmptyChunk {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
    /// A line inside an Update hunk that does not start with ` `, `+`, `-` (or `@@`, `***`).
    BadBodyLine {
        /// Its 1-based patch line number.
        line_no: usize,
        /// The offending patch line (cut to 200 characters).
        line: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, true)
    }
}

impl ParseError {
    /// The message without the patch's own text (line numbers only), for a patch read from a
    /// file outside the workspace: its text must not reach the caller through an error.
    pub fn without_text(&self) -> String {
        struct Unquoted<'a>(&'a ParseError);
        impl fmt::Display for Unquoted<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, false)
            }
        }
        Unquoted(self).to_string()
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, show: bool) -> fmt::Result {
        // With `show` false a line is not quoted: "this line" stands in for it.
        let shown = |line: &str| {
            if show {
                format!("'{}'", quote(line))
            } else {
                "this line".to_owned()
            }
        };
        match self {
            ParseError::NoHunks => write!(f, "patch contains no hunks; nothing was changed"),
            ParseError::MissingBegin { line } => write!(
                f,
                "invalid patch at line 1: {} is not '{BEGIN_MARKER}'; a patch starts with \
                 that line",
                shown(line)
            ),
            ParseError::MissingEnd { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: {} is not '{END_MARKER}'; a patch ends with \
                 that line (was it cut off?)",
                shown(line)
            ),
            ParseError::BadHunkHeader { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: {} is not a valid hunk header (expected \
                 *** Add File:, *** Delete File: or *** Update File:)",
                shown(line)
            ),
            ParseError::MissingPath { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: {} names no path",
                shown(line)
            ),
            ParseError::EmptyUpdate { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: {} has no chunks (expected @@ or lines \
                 starting with ' ', '+' or '-' after it)",
                shown(line)
            ),
            ParseError::EmptyChunk { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: the chunk starting {} has no lines \
                 (expected lines starting with ' ', '+' or '-' after it)",
                shown(line)
            ),
            ParseError::BadBodyLine { line_no, line } => write!(
                f,
                "invalid patch at line {line_no}: {} does not start with ' ' (context), '+' \
                 (added) or '-' (removed)",
                shown(line)
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// Cuts a quoted line to [`QUOTE_LIMIT`] characters.
fn quote(line: &str) -> String {
    match line.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// Parses patch text (spec 04 "Grammar" and "Leniency").
///
/// Errors: [`ParseError`], naming the 1-based patch line (the Begin line is line 1).
pub fn parse(input: &str) -> Result<Patch, ParseError> {
    let lines = patch_lines(input);
    let Some(first) = lines.first() else {
        return Err(ParseError::NoHunks);
    };
    if first.trim() != BEGIN_MARKER {
        return Err(ParseError::MissingBegin {
            line: first.to_string(),
        });
    }
    let last = lines.len() - 1;
    if last == 0 || lines[last].trim() != END_MARKER {
        return Err(ParseError::MissingEnd {
            line_no: last + 1,
            line: lines[last].to_string(),
        });
    }
    let hunks = Parser {
        lines: &lines[..last],
        pos: 1,
    }
    .hunks()?;
    if hunks.is_empty() {
        return Err(ParseError::NoHunks);
    }
    Ok(Patch { hunks })
}

/// Splits the input into lines after the leniency steps: a leading BOM dropped, the whole input
/// trimmed, `\r` before `\n` dropped, a heredoc wrapper removed (with blank lines inside it).
fn patch_lines(input: &str) -> Vec<&str> {
    let text = input.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Vec::new();
    }
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let wrapped = lines.len() >= 2
        && HEREDOC_OPENERS.contains(&lines[0].trim())
        && lines[lines.len() - 1].trim() == HEREDOC_CLOSER;
    if wrapped {
        lines.pop();
        lines.remove(0);
        while lines.last().is_some_and(|line| line.trim().is_empty()) {
            lines.pop();
        }
        let blank = lines
            .iter()
            .take_while(|line| line.trim().is_empty())
            .count();
        lines.drain(..blank);
    }
    lines
}

/// Walks the lines between the Begin and End markers. `pos` is a 0-based index into `lines`,
/// so the patch line number of `lines[pos]` is `pos + 1`.
struct Parser<'a> {
    lines: &'a [&'a str],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.pos).copied()
    }

    fn hunks(mut self) -> Result<Vec<Hunk>, ParseError> {
        let mut hunks = Vec::new();
        while let Some(raw) = self.peek() {
            let header = raw.trim();
            let patch_line = self.pos + 1;
            // Blank lines between hunks carry nothing; the original format trips on them.
            if header.is_empty() {
                self.pos += 1;
                continue;
            }
            let hunk = if let Some(rest) = header.strip_prefix(ADD_HEADER) {
                let path = header_path(rest, patch_line, raw)?;
                self.pos += 1;
                Hunk::Add {
                    path,
                    lines: self.add_lines(),
                    patch_line,
                }
            } else if let Some(rest) = header.strip_prefix(DELETE_HEADER) {
                self.pos += 1;
                Hunk::Delete {
                    path: header_path(rest, patch_line, raw)?,
                    patch_line,
                }
            } else if let Some(rest) = header.strip_prefix(UPDATE_HEADER) {
                let path = header_path(rest, patch_line, raw)?;
                self.pos += 1;
                let move_to = self.move_to()?;
                let chunks = self.chunks()?;
                if chunks.is_empty() {
                    return Err(ParseError::EmptyUpdate {
                        line_no: patch_line,
                        line: raw.to_string(),
                    });
                }
                Hunk::Update {
                    path,
                    move_to,
                    chunks,
                    patch_line,
                }
            } else {
                return Err(ParseError::BadHunkHeader {
                    line_no: patch_line,
                    line: raw.to_string(),
                });
            };
            hunks.push(hunk);
        }
        Ok(hunks)
    }

    /// The `+` lines of an Add hunk; the first other line ends it.
    fn add_lines(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(content) = self.peek().and_then(|line| line.strip_prefix('+')) {
            lines.push(content.to_string());
            self.pos += 1;
        }
        lines
    }

    /// An optional `*** Move to: <path>` on the line right after the Update header.
    fn move_to(&mut self) -> Result<Option<String>, ParseError> {
        let Some(raw) = self.peek() else {
            return Ok(None);
        };
        let Some(rest) = raw.trim().strip_prefix(MOVE_HEADER) else {
            return Ok(None);
        };
        let dest = header_path(rest, self.pos + 1, raw)?;
        self.pos += 1;
        Ok(Some(dest))
    }

    /// The chunks of an Update hunk, up to the next `***` line (next hunk or the End marker).
    fn chunks(&mut self) -> Result<Vec<Chunk>, ParseError> {
        let mut chunks = Vec::new();
        loop {
            // Whitespace-only lines between chunks separate them, as in the original format.
            while self.peek().is_some_and(|line| line.trim().is_empty()) {
                self.pos += 1;
            }
            match self.peek() {
                None => break,
                Some(line) if ends_hunk(line) => break,
                Some(_) => chunks.push(self.chunk()?),
            }
        }
        Ok(chunks)
    }

    /// One chunk: `@@` lines, then body lines up to a `@@` line, a `***` line, a
    /// whitespace-only line that is not an empty context line, or the end.
    fn chunk(&mut self) -> Result<Chunk, ParseError> {
        let start = self.pos;
        let mut contexts = Vec::new();
        while let Some(raw) = self.peek().filter(|line| line.starts_with("@@")) {
            let patch_line = self.pos + 1;
            match at_context(raw) {
                AtLine::Bare => {}
                AtLine::Context(text) => contexts.push(ContextLine {
                    text: text.to_string(),
                    patch_line,
                }),
                AtLine::Invalid => {
                    return Err(ParseError::BadBodyLine {
                        line_no: patch_line,
                        line: raw.to_string(),
                    });
                }
            }
            self.pos += 1;
        }
        let body_line = self.pos + 1;
        let mut lines = Vec::new();
        let mut end_of_file = false;
        while let Some(raw) = self.peek() {
            let line = match raw.chars().next() {
                None => BodyLine::Context(String::new()),
                Some(' ') => BodyLine::Context(raw[1..].to_string()),
                Some('+') => BodyLine::Add(raw[1..].to_string()),
                Some('-') => BodyLine::Remove(raw[1..].to_string()),
                Some(_) if raw.trim() == EOF_MARKER => {
                    end_of_file = true;
                    self.pos += 1;
                    break;
                }
                Some(_)
                    if raw.starts_with("@@")
                        || raw.trim_start().starts_with("***")
                        || raw.trim().is_empty() =>
                {
                    break;
                }
                Some(_) => {
                    return Err(ParseError::BadBodyLine {
                        line_no: self.pos + 1,
                        line: raw.to_string(),
                    });
                }
            };
            lines.push(line);
            self.pos += 1;
        }
        if lines.is_empty() {
            return Err(ParseError::EmptyChunk {
                line_no: start + 1,
                line: self.lines[start].to_string(),
            });
        }
        Ok(Chunk {
            contexts,
            lines,
            end_of_file,
            body_line,
        })
    }
}

/// Whether a line where a chunk could start ends the Update hunk instead: a `***` line, or a
/// hunk header padded with whitespace (headers are trimmed). Any other line starting with a
/// space is a context line, even when its text starts with `***` (a Markdown rule, a comment
/// banner), as in the original format.
fn ends_hunk(line: &str) -> bool {
    line.starts_with("***")
        || [ADD_HEADER, DELETE_HEADER, UPDATE_HEADER, END_MARKER]
            .iter()
            .any(|header| line.trim_start().starts_with(header))
}

/// What an `@@` line says.
enum AtLine<'a> {
    /// `@@` alone (or followed by whitespace only): no context.
    Bare,
    /// `@@ <context>`: the text after one separator.
    Context(&'a str),
    /// `@@` glued to text, e.g. `@@foo`.
    Invalid,
}

/// Reads an `@@` line. A unified-diff header (`@@ -12,7 +12,8 @@ fn main`) keeps only the
/// text after its closing `@@`: its numbers cannot be a line of any file, while the trailing
/// text is the enclosing-line context that the grammar's `@@ <context>` means.
fn at_context(line: &str) -> AtLine<'_> {
    let rest = &line[2..];
    if rest.trim().is_empty() {
        return AtLine::Bare;
    }
    let Some(sep) = rest.chars().next().filter(|c| c.is_whitespace()) else {
        return AtLine::Invalid;
    };
    let text = &rest[sep.len_utf8()..];
    match unified_header_tail(text) {
        Some(tail) if tail.trim().is_empty() => AtLine::Bare,
        Some(tail) => AtLine::Context(tail.strip_prefix(' ').unwrap_or(tail)),
        None => AtLine::Context(text),
    }
}

/// For `-12,7 +12,8 @@<tail>` (the part of a unified-diff hunk header after `@@ `), the tail.
fn unified_header_tail(text: &str) -> Option<&str> {
    let (ranges, tail) = text.split_once("@@")?;
    let mut parts = ranges.split_whitespace();
    let old = parts.next()?.strip_prefix('-')?;
    let new = parts.next()?.strip_prefix('+')?;
    let numeric = |range: &str| {
        !range.is_empty()
            && range
                .split(',')
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    (parts.next().is_none() && numeric(old) && numeric(new)).then_some(tail)
}

/// The path after a header prefix, trimmed; empty → [`ParseError::MissingPath`].
fn header_path(rest: &str, line_no: usize, raw: &str) -> Result<String, ParseError> {
    let path = rest.trim();
    if path.is_empty() {
        return Err(ParseError::MissingPath {
            line_no,
            line: raw.to_string(),
        });
    }
    Ok(path.to_string())
}
