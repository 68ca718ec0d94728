//! Re-indenting the `+` lines of a chunk that matched only with leading whitespace ignored
//! (issue 18 §1; spec 04-apply-patch.md, "Matching a chunk").
//!
//! A model that writes `-return 1` / `+return 10` for a line indented 8 spaces means the new
//! line at 8 spaces too. The matched file lines are compared with the patch's old lines, each
//! line's leading whitespace against the other's:
//! - one difference for every line: the file has a prefix `X` more (`+` lines get `X` in front)
//!   or the patch has a prefix `X` more (`+` lines lose it);
//! - otherwise one mapping, line by line, from each patch indentation to one file indentation,
//!   deeper to deeper (a patch indented with 4 spaces for a file indented with tabs): each `+`
//!   line's indentation is translated by the deepest patch indentation it starts with; a `+`
//!   line already indented as some matched file line is left alone;
//! - otherwise no re-indentation is safe and the chunk is refused ([`Conflict`]).
//!
//! Blank lines take no part: a blank patch line says nothing about indentation, and a blank
//! `+` line is inserted as written.

use std::collections::BTreeMap;
use std::fmt;

use super::parse::BodyLine;

/// How the `+` lines of a chunk were re-indented. Displays as the clause the match note ends
/// with: `its + lines were indented 8 more spaces to match the file`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reindent {
    /// Every matched file line had this prefix more than the patch's line; `+` lines got it.
    Add(String),
    /// Every patch line had this prefix more than the file's line; `+` lines lost it.
    Remove(String),
    /// Patch indentation → file indentation, one pair per patch indentation, shallowest first.
    Map(Vec<(String, String)>),
}

impl fmt::Display for Reindent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reindent::Add(prefix) => write!(
                f,
                "its + lines were indented {} to match the file",
                amount(prefix, "more")
            ),
            Reindent::Remove(prefix) => write!(
                f,
                "its + lines were indented {} to match the file",
                amount(prefix, "fewer")
            ),
            Reindent::Map(pairs) => {
                f.write_str("its + lines were re-indented to match the file (")?;
                for (i, (patch, file)) in pairs.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{} as {}", describe(patch), describe(file))?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Why a chunk's `+` lines cannot be re-indented. Offsets are 0-based within the matched
/// lines (add the match's start for a file line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// Two matched lines disagree: the same patch indentation stands for two file indentations,
    /// two patch indentations for one, or a deeper one for a shallower one.
    Disagree {
        /// (offset, file indentation, patch indentation) of the first line.
        first: (usize, String, String),
        /// The same for the line that disagrees with it.
        second: (usize, String, String),
    },
    /// A `+` line whose indentation no matched line explains.
    Unplaced {
        /// The `+` line as written in the patch.
        added: String,
    },
}

impl Conflict {
    /// One sentence naming what disagrees, with 1-based file lines (`start` is the 0-based
    /// line where the match starts).
    pub fn describe(&self, start: usize) -> String {
        match self {
            Conflict::Disagree { first, second } => {
                let line = |(at, file, patch): &(usize, String, String)| {
                    format!(
                        "line {} has {} where the patch has {}",
                        start + at + 1,
                        describe(file),
                        describe(patch)
                    )
                };
                format!(
                    "the file's indentation differs from the patch's inconsistently ({}; {})",
                    line(first),
                    line(second)
                )
            }
            Conflict::Unplaced { added } => format!(
                "no matched line is indented like the + line {added:?}, so its place in the file \
                 is unknown"
            ),
        }
    }
}

/// The leading whitespace of `line` (as [`str::trim_start`] sees whitespace).
fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// `8 spaces`, `1 tab`, `none`, or the escaped string for a mix.
fn describe(ws: &str) -> String {
    if ws.is_empty() {
        return "none".into();
    }
    match unit(ws) {
        Some((n, name)) => format!("{n} {name}{}", if n == 1 { "" } else { "s" }),
        None => format!("{ws:?}"),
    }
}

/// `8 more spaces`, `1 fewer tab`, or `by "\t  " more` for a mix.
fn amount(ws: &str, word: &str) -> String {
    match unit(ws) {
        Some((n, name)) => format!("{n} {word} {name}{}", if n == 1 { "" } else { "s" }),
        None => format!("by {ws:?} {word}"),
    }
}

/// A run of one character: its length and the name of that character.
fn unit(ws: &str) -> Option<(usize, &'static str)> {
    let name = match ws.chars().next()? {
        ' ' => "space",
        '\t' => "tab",
        _ => return None,
    };
    let first = ws.chars().next()?;
    ws.chars()
        .all(|c| c == first)
        .then(|| (ws.chars().count(), name))
}

/// Re-indents the `+` lines of `body` (a chunk whose old lines matched `matched`, line for line,
/// with leading whitespace ignored). Returns what was done, `None` when nothing needed doing
/// (no indentation differs, no `+` line has text, or every `+` line already has the file's
/// indentation), or the conflict that makes the chunk
/// unsafe to apply; `body` is only changed on `Ok(Some(_))`.
pub fn reindent(matched: &[&str], body: &mut [BodyLine]) -> Result<Option<Reindent>, Conflict> {
    let old = body.iter().filter_map(|line| match line {
        BodyLine::Context(text) | BodyLine::Remove(text) => Some(text.as_str()),
        BodyLine::Add(_) => None,
    });
    // (offset, file indentation, patch indentation) of every non-blank matched line.
    let pairs: Vec<(usize, &str, &str)> = matched
        .iter()
        .zip(old)
        .enumerate()
        .filter(|(_, (_, patch))| !patch.trim().is_empty())
        .map(|(at, (file, patch))| (at, leading(file), leading(patch)))
        .collect();
    let has_added_text = body
        .iter()
        .any(|line| matches!(line, BodyLine::Add(text) if !text.trim().is_empty()));
    if !has_added_text || pairs.iter().all(|(_, file, patch)| file == patch) {
        return Ok(None);
    }
    let plan = constant_difference(&pairs)
        .map(Ok)
        .unwrap_or_else(|| mapping(&pairs))?;
    let mut new_texts = Vec::new();
    for line in body.iter() {
        if let BodyLine::Add(text) = line {
            new_texts.push(if text.trim().is_empty() {
                text.clone()
            } else {
                translate(&plan, text, &pairs).ok_or_else(|| Conflict::Unplaced {
                    added: text.clone(),
                })?
            });
        }
    }
    let unchanged = body
        .iter()
        .filter_map(|line| match line {
            BodyLine::Add(text) => Some(text),
            _ => None,
        })
        .eq(new_texts.iter());
    if unchanged {
        return Ok(None);
    }
    let mut new_texts = new_texts.into_iter();
    for line in body.iter_mut() {
        if let BodyLine::Add(text) = line
            && let Some(new) = new_texts.next()
        {
            *text = new;
        }
    }
    Ok(Some(plan))
}

/// One prefix the file has more (or fewer) on every line, if there is one.
fn constant_difference(pairs: &[(usize, &str, &str)]) -> Option<Reindent> {
    let same = |diff: &dyn Fn(&str, &str) -> Option<String>| {
        let mut found: Option<String> = None;
        for (_, file, patch) in pairs {
            let d = diff(file, patch)?;
            match &found {
                Some(prev) if *prev != d => return None,
                _ => found = Some(d),
            }
        }
        found.filter(|d| !d.is_empty())
    };
    if let Some(x) = same(&|file, patch| file.strip_suffix(patch).map(str::to_string)) {
        return Some(Reindent::Add(x));
    }
    same(&|file, patch| patch.strip_suffix(file).map(str::to_string)).map(Reindent::Remove)
}

/// The line-by-line mapping from patch to file indentation, when the matched lines give one
/// that is a function, one to one and keeps depth order.
fn mapping(pairs: &[(usize, &str, &str)]) -> Result<Reindent, Conflict> {
    let owned =
        |(at, file, patch): &(usize, &str, &str)| (*at, file.to_string(), patch.to_string());
    let disagree = |a: &(usize, &str, &str), b: &(usize, &str, &str)| Conflict::Disagree {
        first: owned(a),
        second: owned(b),
    };
    // One representative line per patch indentation.
    let mut by_patch: BTreeMap<&str, &(usize, &str, &str)> = BTreeMap::new();
    for pair in pairs {
        match by_patch.get(pair.2) {
            Some(prev) if prev.1 != pair.1 => return Err(disagree(prev, pair)),
            Some(_) => {}
            None => {
                by_patch.insert(pair.2, pair);
            }
        }
    }
    // Deeper in the patch must be deeper in the file (which also makes it one to one).
    let mut ordered: Vec<&(usize, &str, &str)> = by_patch.into_values().collect();
    ordered.sort_by_key(|(_, _, patch)| patch.chars().count());
    for two in ordered.windows(2) {
        if two[1].1.chars().count() <= two[0].1.chars().count() {
            return Err(disagree(two[0], two[1]));
        }
    }
    Ok(Reindent::Map(
        ordered
            .iter()
            .map(|(_, file, patch)| (patch.to_string(), file.to_string()))
            .collect(),
    ))
}

/// The `+` line `text` re-indented by `plan`, or `None` when the plan does not place it.
fn translate(plan: &Reindent, text: &str, pairs: &[(usize, &str, &str)]) -> Option<String> {
    match plan {
        Reindent::Add(prefix) => Some(format!("{prefix}{text}")),
        Reindent::Remove(prefix) => text.strip_prefix(prefix.as_str()).map(str::to_string),
        Reindent::Map(map) => {
            let indent = leading(text);
            let rest = &text[indent.len()..];
            if let Some((_, file)) = map.iter().find(|(patch, _)| patch == indent) {
                return Some(format!("{file}{rest}"));
            }
            // Written with the file's own indentation already.
            if pairs.iter().any(|(_, file, _)| *file == indent) {
                return Some(text.to_string());
            }
            // Deeper than any matched line: the deepest patch indentation it extends.
            map.iter()
                .filter(|(patch, _)| indent.starts_with(patch.as_str()))
                .max_by_key(|(patch, _)| patch.len())
                .map(|(patch, file)| format!("{file}{}", &text[patch.len()..]))
        }
    }
}
