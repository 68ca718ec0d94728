//! The syntax gate, "not worse" (spec 01, "Syntax gate").
//!
//! Before a write, the old and the new text of a file are checked with the checker for the
//! file's type and the write is refused only when the new text has more problems than the old.
//! A checker can also answer "cannot tell" (unknown type, oversize input, timeout, parser set-up
//! failure), which never refuses and says nothing about syntax.
//!
//! Checkers: JSON (serde_json; also JSON with comments and JSON Lines), TOML (toml), XML
//! (quick-xml, DTDs refused), and tree-sitter (ERROR and MISSING nodes) for YAML, Rust, Python,
//! JavaScript, TypeScript, TSX, Go, C, C++, Java, Bash, HTML and CSS; for Python also the
//! tokenizer's indentation rules (spec 09: unexpected indent, unindent matching no outer level,
//! a block with no indented body, tabs and spaces mixed inconsistently), which tree-sitter
//! does not enforce.
//!
//! Pure: no I/O. Positions are 1-based lines (ended by LF, CRLF or CR) and 1-based columns
//! counted in chars.

mod c_guards;
mod data;
mod detect;
mod lines;
mod matching;
mod py_indent;
mod treesit;
mod xml;

#[cfg(test)]
mod gate_tests;
#[cfg(test)]
mod tests;

use crate::text::plural::count;
use detect::Lang;
use lines::LineIndex;
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// Texts longer than this many bytes are not checked ("cannot tell"): checking them would
/// take seconds, and a write tool must stay fast.
pub const MAX_CHECK_BYTES: usize = 8 * 1024 * 1024;

/// The most new problems a refusal lists (spec 01: "at most 5").
pub const MAX_LISTED_PROBLEMS: usize = 5;

/// One syntax problem found by a checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line; lines end at LF, CRLF or CR.
    pub line: usize,
    /// 1-based column, counted in chars (not bytes) from the start of the line.
    pub column: usize,
    /// One line, e.g. `missing ";"`, ``syntax error at `fn (` ``, `expected value`.
    pub message: String,
}

impl fmt::Display for Problem {
    /// `line:col message`, as a refusal lists it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} {}", self.line, self.column, self.message)
    }
}

/// What a checker says about one text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No checker for this file type, the text is over [`MAX_CHECK_BYTES`], or the checker
    /// failed (parser set-up, timeout). Distinct from "checked, no problems".
    CannotTell,
    /// The text was checked. `language` is one of `json`, `jsonc`, `jsonl`, `toml`, `yaml`,
    /// `xml`, `rust`, `python`, `javascript`, `typescript`, `tsx`, `go`, `c`, `cpp`, `java`,
    /// `bash`, `html`, `css`. An empty `problems` means the syntax is fine. Problems are in
    /// text order.
    Checked {
        /// Short language name (`rust`, `json`, `tsx`, ...).
        language: &'static str,
        /// The problems found, in text order; empty when the syntax is fine.
        problems: Vec<Problem>,
    },
}

/// Checks `text` as the content of `path`. The language comes from the extension, a few file
/// names (`Cargo.lock` is TOML, `.bashrc` is Bash, `tsconfig.json` is JSON with comments) or
/// a `#!` line (`bash`, `sh`, `python3`, `node`). A leading BOM is ignored. Never fails:
/// anything that cannot be checked is [`Verdict::CannotTell`]. A tree-sitter parse is
/// abandoned after 2 s (a `.h` file may be parsed twice, as C then as C++); a 10,000-line Rust
/// file takes about 30 ms (bench/syntax.sh).
pub fn check(path: &Path, text: &str) -> Verdict {
    match Lang::detect(path, text) {
        Some(lang) => check_as(lang, text),
        None => Verdict::CannotTell,
    }
}

/// Checks `text` with the checker for `lang`.
fn check_as(lang: Lang, text: &str) -> Verdict {
    check_with_limit(lang, text, treesit::PARSE_TIME_LIMIT)
}

fn check_with_limit(lang: Lang, text: &str, time_limit: Duration) -> Verdict {
    if text.len() > MAX_CHECK_BYTES {
        return Verdict::CannotTell;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (language, found) = match lang {
        Lang::Json => (lang.name(), data::check_json(text)),
        Lang::Jsonc => (lang.name(), data::check_jsonc(text)),
        Lang::JsonLines => (lang.name(), data::check_json_lines(text)),
        Lang::Toml => (lang.name(), data::check_toml(text)),
        Lang::Xml => (lang.name(), xml::check_xml(text)),
        Lang::CHeader => match check_c_header(text, time_limit) {
            Some(checked) => checked,
            None => return Verdict::CannotTell,
        },
        _ => match check_source(lang, text, time_limit) {
            Some(found) => (lang.name(), found),
            None => return Verdict::CannotTell,
        },
    };
    Verdict::Checked {
        language,
        problems: locate(text, found),
    }
}

/// A tree-sitter language. `None`: cannot tell.
fn check_source(lang: Lang, text: &str, time_limit: Duration) -> Option<Vec<Found>> {
    let grammar = treesit::grammar(lang)?;
    let text = match lang {
        Lang::C | Lang::Cpp => c_guards::blank_extern_c_guards(text),
        _ => text.into(),
    };
    let mut found = treesit::check_tree(&grammar, &text, time_limit)?;
    if lang == Lang::Python {
        found.extend(py_indent::check(&text));
    }
    Some(found)
}

/// A `.h` file is C or C++, and the C grammar reports errors all over a C++ header. Its count
/// is the smaller of the two dialects' (C on a tie, and C++ only parsed when C found problems).
fn check_c_header(text: &str, time_limit: Duration) -> Option<(&'static str, Vec<Found>)> {
    let as_c = check_source(Lang::C, text, time_limit)?;
    if as_c.is_empty() {
        return Some((Lang::C.name(), as_c));
    }
    let as_cpp = check_source(Lang::Cpp, text, time_limit)?;
    Some(if as_cpp.len() < as_c.len() {
        (Lang::Cpp.name(), as_cpp)
    } else {
        (Lang::C.name(), as_c)
    })
}

/// A problem as a checker reports it: at a byte offset into the (BOM-less) text.
pub(crate) struct Found {
    offset: usize,
    message: String,
}

/// Turns byte offsets into `line:col` positions, in text order.
fn locate(text: &str, mut found: Vec<Found>) -> Vec<Problem> {
    if found.is_empty() {
        return Vec::new();
    }
    found.sort_by_key(|problem| problem.offset);
    let index = LineIndex::new(text);
    found
        .into_iter()
        .map(|problem| {
            let (line, column) = index.position(text, problem.offset);
            Problem {
                line,
                column,
                message: problem.message,
            }
        })
        .collect()
}

/// The gate's decision for one write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GateOutcome {
    /// The new text cannot be checked: the write goes ahead and nothing is said about syntax.
    Skipped,
    /// The write may go ahead. `before` is `None` for a new file or when the old text could
    /// not be checked; `after` is the new text's problem count.
    Passed {
        /// Short language name.
        language: &'static str,
        /// Problems in the old text; `None` for a new file or an old text that could not be checked.
        before: Option<usize>,
        /// Problems in the new text.
        after: usize,
    },
    /// The new text has more problems than the old (a new file counts as 0 before); nothing
    /// may be written. `new_problems` are the problems of the new text that the old did not
    /// have (best effort), in text order, at most [`MAX_LISTED_PROBLEMS`] of them.
    Refused {
        /// Short language name.
        language: &'static str,
        /// Problems the new text adds, in text order, at most [`MAX_LISTED_PROBLEMS`].
        new_problems: Vec<Problem>,
        /// Problems in the old text (0 for a new file).
        before: usize,
        /// Problems in the new text.
        after: usize,
    },
}

/// Whether a checker exists for `path` with content `text` (its extension, its name, or the
/// `#!` line of `text`): when not, [`gate`] skips the file, and a caller need not keep texts
/// for it.
pub fn has_checker(path: &Path, text: &str) -> bool {
    Lang::detect(path, text).is_some()
}

/// The "not worse" gate: `old` is the current content (`None` for a file that does not exist
/// yet) and `new` the content about to be written to `path`. The language is detected once,
/// from `path` and `new`, and both texts are checked with it.
///
/// Refuses only when the old text was checked (or there is none) and the new one has more
/// problems: 0→1 and 3→5 refuse, 3→1 and 3→3 pass.
pub fn gate(path: &Path, old: Option<&str>, new: &str) -> GateOutcome {
    let Some(lang) = Lang::detect(path, new) else {
        return GateOutcome::Skipped;
    };
    gate_as(lang, old, new, treesit::PARSE_TIME_LIMIT)
}

fn gate_as(lang: Lang, old: Option<&str>, new: &str, time_limit: Duration) -> GateOutcome {
    let Verdict::Checked { language, problems } = check_with_limit(lang, new, time_limit) else {
        return GateOutcome::Skipped;
    };
    let after = problems.len();
    let before = match old {
        None => Vec::new(),
        Some(old_text) => match check_with_limit(lang, old_text, time_limit) {
            Verdict::Checked { problems, .. } => problems,
            Verdict::CannotTell => {
                return GateOutcome::Passed {
                    language,
                    before: None,
                    after,
                };
            }
        },
    };
    if after <= before.len() {
        return GateOutcome::Passed {
            language,
            before: old.map(|_| before.len()),
            after,
        };
    }
    let mut new_problems = match old {
        Some(old_text) => matching::unmatched(old_text, &before, new, &problems),
        None => problems,
    };
    new_problems.truncate(MAX_LISTED_PROBLEMS);
    GateOutcome::Refused {
        language,
        new_problems,
        before: before.len(),
        after,
    }
}

impl GateOutcome {
    /// Whether the write must not happen.
    pub fn is_refused(&self) -> bool {
        matches!(self, GateOutcome::Refused { .. })
    }

    /// The one line a successful write reports: `syntax: ok (rust)` when the new text has no
    /// problems, `syntax: 2 problems before, 2 after (rust)` when it has some. `None` when the
    /// gate was skipped (nothing is said about syntax) or refused (see
    /// [`GateOutcome::refusal_message`]).
    pub fn summary_line(&self) -> Option<String> {
        let GateOutcome::Passed {
            language,
            before,
            after,
        } = self
        else {
            return None;
        };
        Some(match (before, after) {
            (_, 0) => format!("syntax: ok ({language})"),
            (Some(before), after) => {
                format!(
                    "syntax: {} before, {after} after ({language})",
                    count_problems(*before)
                )
            }
            (None, after) => format!("syntax: {} ({language})", count_problems(*after)),
        })
    }

    /// The refusal, several lines without a final newline:
    ///
    /// ```text
    /// Error: src/main.rs: this change would add syntax errors (rust: 0 before, 1 after); nothing was written:
    ///   3:5 missing ";"
    /// Fix the new content, or pass check_syntax: false (--no-syntax-check) to write it anyway.
    /// ```
    ///
    /// `path` is shown as given. `None` unless the outcome is [`GateOutcome::Refused`].
    pub fn refusal_message(&self, path: &Path) -> Option<String> {
        let GateOutcome::Refused {
            language,
            new_problems,
            before,
            after,
        } = self
        else {
            return None;
        };
        let mut message = format!(
            "Error: {}: this change would add syntax errors ({language}: {before} before, \
             {after} after); nothing was written:",
            path.display()
        );
        for problem in new_problems {
            message.push_str(&format!("\n  {problem}"));
        }
        message.push_str(
            "\nFix the new content, or pass check_syntax: false (--no-syntax-check) to write \
             it anyway.",
        );
        Some(message)
    }
}

fn count_problems(n: usize) -> String {
    count(n, "problem")
}
