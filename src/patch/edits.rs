//! Turning one file's chunks into line edits (spec 04-apply-patch.md, "Matching a chunk").
//!
//! Context lines only locate a chunk: edits are made for each contiguous run of `-`/`+` lines,
//! so every line the patch meant to keep stays the file's own bytes even after a fuzzy match.

use std::borrow::Cow;
use std::fmt;

use super::indent::{Conflict, Reindent, reindent};
use super::parse::{BodyLine, Chunk};
use super::seek::{Pass, seek};
use super::similarity::{Region, closest_region};

/// Replace file lines `start..end` (0-based, end exclusive) with `lines` (no terminators).
/// `start == end` is a pure insertion before line `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEdit {
    /// First replaced line, 0-based.
    pub start: usize,
    /// One past the last replaced line (0-based, exclusive); `start` for an insertion.
    pub end: usize,
    /// The new lines, without terminators.
    pub lines: Vec<String>,
}

/// What [`compute_edits`] found for one file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Applied {
    /// In ascending order and non-overlapping (`edits[i].end <= edits[i + 1].start`); two
    /// insertions at one position keep patch order. Applying them from last to first through
    /// any `replace_lines(start, end, lines)` gives the patched file.
    pub edits: Vec<LineEdit>,
    /// One note per chunk line set (body or `@@` line) that matched by a pass other than exact.
    pub notes: Vec<MatchNote>,
}

/// Which lines of a chunk a [`MatchNote`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteSubject {
    /// The chunk's context and `-` lines.
    Body,
    /// One of its `@@ <context>` lines.
    AtContext,
}

/// A chunk matched by a fuzzy pass. Displays as `chunk 2 matched ignoring trailing whitespace
/// at line 40` (or `chunk 2 @@ line matched ...`); the caller prefixes the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchNote {
    /// 1-based chunk number within its Update hunk.
    pub chunk: usize,
    /// What matched fuzzily: a chunk or one of its `@@` context lines.
    pub subject: NoteSubject,
    /// The pass that matched (never [`Pass::Exact`]).
    pub pass: Pass,
    /// 1-based file line where the match starts.
    pub line: usize,
    /// How the chunk's `+` lines were re-indented, when it matched ignoring leading whitespace
    /// and its indentation differed from the file's (issue 18 §1).
    pub reindent: Option<Reindent>,
}

impl fmt::Display for MatchNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.subject {
            NoteSubject::Body => "",
            NoteSubject::AtContext => " @@ line",
        };
        write!(
            f,
            "chunk {}{what} matched {} at line {}",
            self.chunk, self.pass, self.line
        )?;
        match &self.reindent {
            Some(reindent) => write!(f, "; {reindent}"),
            None => Ok(()),
        }
    }
}

/// Why one file's chunks could not be applied: [`compute_edits`]'s error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkError {
    /// A chunk or `@@` line was not found.
    NotFound(Box<SeekError>),
    /// A chunk matched only with leading whitespace ignored and no consistent re-indentation of
    /// its `+` lines exists.
    Indentation(Box<IndentError>),
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::NotFound(e) => e.fmt(f),
            ChunkError::Indentation(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ChunkError {}

/// A chunk that matched with leading whitespace ignored, whose `+` lines cannot be re-indented
/// safely (issue 18 §1). `Display` is the message without `Error: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndentError {
    /// The file, as spelled in the patch.
    pub path: String,
    /// 1-based chunk number within its Update hunk.
    pub chunk: usize,
    /// 1-based patch line of the chunk's first body line.
    pub patch_line: usize,
    /// 0-based file line where the match starts.
    pub start: usize,
    /// What disagrees.
    pub conflict: Conflict,
}

impl fmt::Display for IndentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: chunk {} (patch line {}) matched at line {} only ignoring leading whitespace, and \
             {}, so its + lines cannot be re-indented safely. Copy the context and '-' lines with \
             the file's own indentation; nothing was changed.",
            self.path,
            self.chunk,
            self.patch_line,
            self.start + 1,
            self.conflict.describe(self.start)
        )
    }
}

impl std::error::Error for IndentError {}

/// A chunk (or one of its `@@` lines) that could not be found after the cursor.
/// `Display` is spec 04's message without `Error: `: the header line, the expected lines, then
/// the closest region of the file with 1-based line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekError {
    /// The file the chunk was sought in, as spelled in the patch.
    pub path: String,
    /// 1-based chunk number within its Update hunk.
    pub chunk: usize,
    /// 1-based patch line of the lines that were sought.
    pub patch_line: usize,
    /// The lines that were sought; for an `@@` line, that one line prefixed with `@@ `.
    pub expected: Vec<String>,
    /// The most similar region of the file, if any line is similar at all.
    pub closest: Option<Region>,
    /// Why lines that do occur in the file were not taken, when that is the case: above the
    /// previous chunk, overlapping the chunk's own `@@` line, or not at the end for an
    /// `*** End of File` chunk. One sentence.
    pub hint: Option<String>,
}

impl fmt::Display for SeekError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: could not find the lines of chunk {} (patch line {}):",
            self.path, self.chunk, self.patch_line
        )?;
        // One gutter width for both listings, so the lines stay aligned for comparison.
        let last = self
            .closest
            .as_ref()
            .map_or(0, |region| region.start + region.lines.len() - 1);
        let gutter = last.to_string().len().max(5);
        for line in &self.expected {
            writeln!(f, "{:gutter$}|{line}", "")?;
        }
        if let Some(hint) = &self.hint {
            writeln!(f, "{hint}")?;
        }
        match &self.closest {
            Some(region) => {
                writeln!(
                    f,
                    "Closest region of the file, lines {}-{last}:",
                    region.start
                )?;
                for (i, line) in region.lines.iter().enumerate() {
                    writeln!(f, "{:>gutter$}|{line}", region.start + i)?;
                }
            }
            None => writeln!(f, "No region of the file resembles them.")?,
        }
        write!(
            f,
            "Read the file again and copy the context and '-' lines exactly; nothing was changed."
        )
    }
}

impl std::error::Error for SeekError {}

/// Matches `chunks` (one Update hunk's, in patch order) against `file_lines` (the file's
/// decoded lines without terminators) and returns the edits that apply them.
///
/// A chunk matched with leading whitespace ignored has its `+` lines re-indented to the file's
/// indentation (see [`Reindent`]), noted in its [`MatchNote`].
///
/// Errors: [`ChunkError::NotFound`] for the first chunk or `@@` line not found after the
/// cursor; [`ChunkError::Indentation`] for a chunk whose re-indentation is not consistent.
/// `path` is only used in messages.
pub fn compute_edits(
    path: &str,
    file_lines: &[&str],
    chunks: &[Chunk],
) -> Result<Applied, ChunkError> {
    let mut applied = Applied::default();
    let mut cursor = 0;
    for (index, chunk) in chunks.iter().enumerate() {
        let search = Search {
            path,
            file_lines,
            chunk,
            number: index + 1,
            chunk_start: cursor,
        };
        cursor = search.run(&mut applied)?;
    }
    Ok(applied)
}

/// One chunk's search: the chunk, its 1-based number, and where the previous chunk ended.
struct Search<'a> {
    path: &'a str,
    file_lines: &'a [&'a str],
    chunk: &'a Chunk,
    number: usize,
    chunk_start: usize,
}

impl Search<'_> {
    /// Matches the chunk, records its edits and notes, returns the new cursor.
    fn run(&self, applied: &mut Applied) -> Result<usize, ChunkError> {
        let (file_lines, chunk, number) = (self.file_lines, self.chunk, self.number);
        let mut cursor = self.chunk_start;
        for context in &chunk.contexts {
            let pattern = [context.text.as_str()];
            let Some((at, pass)) = seek(file_lines, &pattern, cursor, false) else {
                let expected = vec![format!("@@ {}", context.text)];
                let e = self.not_found(context.patch_line, &pattern, expected, cursor);
                return Err(ChunkError::NotFound(Box::new(e)));
            };
            note(applied, number, NoteSubject::AtContext, pass, at, None);
            cursor = at + 1;
        }
        // Borrowed: only the empty-line retry and a re-indentation need a copy of the body.
        let mut body = Cow::Borrowed(chunk.lines.as_slice());
        let found = match locate(file_lines, &body, cursor, chunk) {
            Some(found) => Some(found),
            None => drop_trailing_empty(&body).and_then(|shorter| {
                let found = locate(file_lines, &shorter, cursor, chunk);
                body = Cow::Owned(shorter);
                found
            }),
        };
        let Some((start, pass)) = found else {
            let old = old_lines(&chunk.lines);
            let expected = old.iter().map(|line| line.to_string()).collect();
            let e = self.not_found(chunk.body_line, &old, expected, cursor);
            return Err(ChunkError::NotFound(Box::new(e)));
        };
        if old_lines(&body).is_empty() {
            applied.edits.push(LineEdit {
                start,
                end: start,
                lines: added_lines(&body),
            });
            return Ok(start);
        }
        let mut reindented = None;
        if pass >= Pass::SurroundingWhitespace {
            let matched = &file_lines[start..start + old_lines(&body).len()];
            reindented = reindent(matched, body.to_mut()).map_err(|conflict| {
                ChunkError::Indentation(Box::new(IndentError {
                    path: self.path.to_string(),
                    chunk: number,
                    patch_line: chunk.body_line,
                    start,
                    conflict,
                }))
            })?;
        }
        note(applied, number, NoteSubject::Body, pass, start, reindented);
        Ok(push_runs(&body, start, &mut applied.edits))
    }

    fn not_found(
        &self,
        patch_line: usize,
        pattern: &[&str],
        expected: Vec<String>,
        cursor: usize,
    ) -> SeekError {
        SeekError {
            path: self.path.to_string(),
            chunk: self.number,
            patch_line,
            expected,
            closest: closest_region(self.file_lines, pattern, cursor),
            hint: self.hint(pattern, cursor),
        }
    }

    /// Explains lines that occur in the file but were not taken (see [`SeekError::hint`]).
    fn hint(&self, pattern: &[&str], cursor: usize) -> Option<String> {
        let lines = self.file_lines;
        if let Some((at, _)) = seek(lines, pattern, 0, false).filter(|&(at, _)| at < cursor) {
            return Some(if at < self.chunk_start {
                format!(
                    "They occur at line {}, above line {} where the previous chunk ended; the \
                     chunks of one file must come in file order.",
                    at + 1,
                    self.chunk_start
                )
            } else {
                format!(
                    "They occur at line {}, which is not below the chunk's @@ line (line {}): an \
                     @@ line names a line above the chunk, so do not repeat it as the first \
                     context line.",
                    at + 1,
                    cursor
                )
            });
        }
        if self.chunk.end_of_file
            && let Some((at, _)) = seek(lines, pattern, cursor, false)
        {
            return Some(format!(
                "They occur at line {}, but *** End of File requires them to end at the last \
                 line ({}).",
                at + 1,
                lines.len()
            ));
        }
        None
    }
}

/// Where a chunk body goes: its old lines sought from the cursor, or for a body without old
/// lines (pure addition) right at the cursor after `@@` context, else at the end of the file.
fn locate(
    file_lines: &[&str],
    body: &[BodyLine],
    cursor: usize,
    chunk: &Chunk,
) -> Option<(usize, Pass)> {
    let old = old_lines(body);
    if old.is_empty() {
        let at = if chunk.contexts.is_empty() {
            file_lines.len()
        } else {
            cursor
        };
        return Some((at, Pass::Exact));
    }
    seek(file_lines, &old, cursor, chunk.end_of_file)
}

/// The retry of spec 04: when the old lines end with an empty line, the body without it. An
/// empty `-` line simply goes; an empty context line goes from the old lines but stays an
/// added line when `+` lines follow it (it was meant to be in the new text).
fn drop_trailing_empty(body: &[BodyLine]) -> Option<Vec<BodyLine>> {
    let last_old = body
        .iter()
        .rposition(|line| !matches!(line, BodyLine::Add(_)))?;
    let mut shorter = body.to_vec();
    match &body[last_old] {
        BodyLine::Remove(text) if text.is_empty() => {
            shorter.remove(last_old);
        }
        BodyLine::Context(text) if text.is_empty() => {
            if last_old + 1 == body.len() {
                shorter.remove(last_old);
            } else {
                shorter[last_old] = BodyLine::Add(String::new());
            }
        }
        _ => return None,
    }
    Some(shorter)
}

/// Pushes one edit per contiguous run of `-`/`+` lines of a body matched at `start`; returns
/// the line after the matched old lines.
fn push_runs(body: &[BodyLine], start: usize, edits: &mut Vec<LineEdit>) -> usize {
    let mut at = start;
    let mut run: Option<LineEdit> = None;
    for line in body {
        match line {
            BodyLine::Context(_) => {
                edits.extend(run.take());
                at += 1;
            }
            BodyLine::Remove(_) => {
                run.get_or_insert_with(|| empty_edit(at)).end += 1;
                at += 1;
            }
            BodyLine::Add(text) => run
                .get_or_insert_with(|| empty_edit(at))
                .lines
                .push(text.clone()),
        }
    }
    edits.extend(run);
    at
}

fn empty_edit(at: usize) -> LineEdit {
    LineEdit {
        start: at,
        end: at,
        lines: Vec::new(),
    }
}

fn old_lines(body: &[BodyLine]) -> Vec<&str> {
    body.iter()
        .filter_map(|line| match line {
            BodyLine::Context(text) | BodyLine::Remove(text) => Some(text.as_str()),
            BodyLine::Add(_) => None,
        })
        .collect()
}

fn added_lines(body: &[BodyLine]) -> Vec<String> {
    body.iter()
        .filter_map(|line| match line {
            BodyLine::Add(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn note(
    applied: &mut Applied,
    chunk: usize,
    subject: NoteSubject,
    pass: Pass,
    at: usize,
    reindent: Option<Reindent>,
) {
    if pass != Pass::Exact {
        applied.notes.push(MatchNote {
            chunk,
            subject,
            pass,
            line: at + 1,
            reindent,
        });
    }
}

/// Applies `edits` (as returned in [`Applied::edits`]) to `lines` and returns the new lines.
/// A reference implementation for tests and previews; the tool applies edits through the
/// editable text so untouched lines keep their own terminators.
pub fn apply_to_lines(lines: &[&str], edits: &[LineEdit]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut next = 0;
    for edit in edits {
        out.extend(lines[next..edit.start].iter().map(|line| line.to_string()));
        out.extend(edit.lines.iter().cloned());
        next = edit.end;
    }
    out.extend(lines[next..].iter().map(|line| line.to_string()));
    out
}
