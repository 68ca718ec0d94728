//! `edit-file`: replace exact text in a file, once, everywhere, or as a list of edits applied
//! in order, all or nothing (spec 03, "edit-file").
//!
//! Matching is on the decoded, `\n`-normalised text, so `old` written with `\n` matches a CRLF
//! file, and every line the edit does not touch keeps its own terminator. Counting is exact:
//! no normalisation ever widens it; the near-miss diagnosis lives in [`crate::text::miss`].
//!
//! Cost: a 100 MB file costs its bytes, its decoded text (edited in place) and the encoded
//! result; the old and new texts are copied only when the syntax gate or a dry run will look
//! at them ([`texts_needed`]). Finding is one `memmem` pass.

use std::ops::Range;

use clap::Args;
use memchr::memmem;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::text::checked::{self, decode, encode_owned};
use crate::text::miss;
use crate::text::pieces::Pieces;
use crate::text::placeholder;
use crate::text::plural::count;
use crate::text::region::{changed_lines, render_region};
use crate::text::render::LineStyle;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;
use crate::workspace::txn::{self, Change, Transaction, WriteOptions, texts_needed};

/// Lines of context shown around the edited region (spec 03).
pub const REGION_CONTEXT: usize = 3;
/// Most occurrence lines an ambiguity refusal lists.
const MAX_LISTED_PLACES: usize = 100;

/// One edit of an `edits` list.
#[derive(Debug, Clone, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EditSpec {
    /// The exact text to replace (as read-file shows it, without line prefixes).
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub old: String,
    /// The replacement text.
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub new: String,
    /// Replace every occurrence instead of requiring exactly one (default false).
    #[serde(default)]
    pub all: Option<bool>,
}

/// Arguments of edit-file.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct EditFileArgs {
    /// The file to edit (it must exist; create files with write_file).
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// The exact text to replace, copied from read-file without the `L<n>: ` prefixes. Must
    /// occur exactly once unless all is true.
    #[arg(long)]
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub old: Option<String>,
    /// The replacement text (may be empty to delete old).
    #[arg(long)]
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub new: Option<String>,
    /// Replace every occurrence of old (default false).
    #[arg(long)]
    pub all: Option<bool>,
    /// Instead of old/new: a list of {old, new, all} edits applied in order to the running
    /// result, all or nothing (CLI: a JSON array).
    #[arg(long, value_name = "JSON", value_parser = crate::args::json_flag::<::std::vec::Vec<EditSpec>>)]
    #[schemars(length(max = crate::args::MAX_EDITS))]
    pub edits: Option<::std::vec::Vec<EditSpec>>,
    /// Apply even when new adds a placeholder comment such as `// ... existing code` and
    /// drops lines of old (default false: refused).
    #[arg(long)]
    pub allow_placeholders: Option<bool>,
    /// Refuse an edit that adds syntax errors (default true).
    #[arg(long)]
    pub check_syntax: Option<bool>,
    /// Show the diff, write nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The edit-file tool.
pub struct EditFile;

impl Tool for EditFile {
    type Args = EditFileArgs;
    const NAME: &'static str = "edit_file";
    const META: ToolMeta = ToolMeta {
        description: "Replace exact text in a file: old must occur exactly once (or pass all: true).\n\
Copy old from read_file output without the `L<n>: ` prefixes, keeping its indentation (tabs stay \
tabs) and enough surrounding lines to be unique. Nothing is matched loosely: on a miss you get the \
reason (whitespace, curly quotes, prefixes) and nothing is written. Several changes to one file: \
pass edits: [{old, new, all}], applied in order, all or nothing. Needs a current read_file of the \
file. Line endings and encoding are kept. Reports the new tag and the edited lines.",
        examples: "  agtool edit-file src/lib.rs --old 'let x = 1;' --new 'let x = 2;'\n  agtool edit-file src/lib.rs --old 'foo(' --new 'bar(' --all true\n  agtool edit-file a.py --edits '[{\"old\":\"a = 1\",\"new\":\"a = 2\"},{\"old\":\"b()\",\"new\":\"c()\"}]'",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files"],
    };

    fn run(ctx: &Ctx, args: EditFileArgs) -> ToolResult {
        let edits = edit_list(&args)?;
        let path = ctx.check_path(&args.path, Access::Write)?;
        let txn = Transaction::begin(ctx, [path.real.as_path()])?;
        let before = txn.load(&path)?.ok_or_else(|| {
            ToolError::refused(format!(
                "{} does not exist; create it with write_file",
                args.path
            ))
        })?;
        // The gate hashes the whole file; decoding runs beside it on the other core. The
        // gate's answer still comes first, and no matching happens before it.
        let (fresh, decoded) = std::thread::scope(|s| {
            let gate = s.spawn(|| txn.require_fresh(&path, &before));
            let decoded = decode(&args.path, &before);
            let fresh = gate
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (fresh, decoded)
        });
        // A file that is not text is named first: no read could pass the gate for it.
        let original = decoded?;
        fresh?;
        if !args.allow_placeholders.unwrap_or(false) {
            check_placeholders(&args.path, &edits)?;
        }
        let opts = WriteOptions::for_call(ctx, args.check_syntax, args.dry_run);
        let old_text =
            texts_needed(opts, original.text().len()).then(|| original.text().to_owned());
        #[cfg(debug_assertions)]
        let kept_original = original.clone();
        let mut text = original;
        let mut pieces = Pieces::new(text.text().len());
        let mut replacements = 0;
        for (i, e) in edits.iter().enumerate() {
            let ranges = locate(&args.path, text.text(), e).map_err(|msg| {
                let msg = if edits.len() > 1 {
                    format!(
                        "edit {} of {}: {msg}\n(edits are all or nothing: nothing was written)",
                        i + 1,
                        edits.len()
                    )
                } else {
                    msg
                };
                ToolError::refused(msg)
            })?;
            text.replace_ranges(&ranges, &e.new);
            pieces.replace(&ranges, &vec![e.new.len(); ranges.len()]);
            replacements += ranges.len();
        }
        checked::refuse_merged_break(&args.path, &text)?;
        let regions = changed_lines(text.text(), &pieces.changed());
        let (first, last) = (
            regions.first().map_or(1, |r| r.0),
            regions.last().map_or(1, |r| r.1),
        );
        let preview = render_region(text.text(), &regions, REGION_CONTEXT, LineStyle::Numbered);
        let new_text = old_text.as_ref().map(|_| text.text().to_owned());
        #[cfg(debug_assertions)]
        let edited = text.clone();
        let after = encode_owned(&args.path, text)?;
        #[cfg(debug_assertions)]
        if let Err(e) =
            crate::text::pieces::verify_kept(&kept_original, &before, &edited, &after, &pieces)
        {
            panic!("edit-file broke the byte-exact invariant: {e}");
        }
        let change = Change {
            path: path.clone(),
            before: Some(before),
            after: Some(after),
            old_text,
            new_text,
            mode: None,
        };
        let written = match txn::single(txn.commit(vec![change], opts)?) {
            Ok(w) => w,
            Err(dry) => return Ok(dry),
        };
        let tag = written.tag.clone().unwrap_or_default();
        let mut out = format!(
            "Edited {} [#{tag}] ({}, lines {first}-{last})\n{preview}",
            args.path,
            count(replacements, "replacement")
        );
        txn::push_notes(&mut out, &written);
        Ok(Output::text(out)
            .with("path", args.path.clone())
            .with("tag", tag)
            .with("replacements", replacements)
            .with("first_line", first)
            .with("last_line", last))
    }
}

/// The placeholder guard (spec 03, [`crate::text::placeholder`]) on each edit: `new` must not
/// add a placeholder line that `old` lacks while dropping lines of `old`.
fn check_placeholders(spelled: &str, edits: &[EditSpec]) -> Result<(), ToolError> {
    for (i, e) in edits.iter().enumerate() {
        if let Some(el) = placeholder::find_elision(e.old.lines(), e.new.lines()) {
            let which = if edits.len() > 1 {
                format!("edit {} of {}: ", i + 1, edits.len())
            } else {
                String::new()
            };
            return Err(ToolError::refused(format!(
                "{which}line {} of new looks like an omission placeholder ({:?}) and new drops \
                 {} of old in {spelled}; nothing was written: {}",
                el.index + 1,
                el.line,
                count(el.removed, "line"),
                placeholder::ADVICE
            )));
        }
    }
    Ok(())
}

/// The edits of one call, validated: either old/new(/all) or a non-empty `edits` list; no
/// empty `old`, no `old == new`. Line breaks of `new` are normalised to `\n` (they take the
/// file's own terminators when written). Errors are argument errors (exit 2).
fn edit_list(args: &EditFileArgs) -> Result<Vec<EditSpec>, ToolError> {
    let list = match (&args.old, &args.new, &args.edits) {
        (Some(old), Some(new), None) => vec![EditSpec {
            old: old.clone(),
            new: new.clone(),
            all: args.all,
        }],
        (None, None, Some(list)) if args.all.is_none() => {
            if list.is_empty() {
                return Err(ToolError::usage("edits is empty; give at least one edit"));
            }
            list.clone()
        }
        (None, None, Some(_)) => {
            return Err(ToolError::usage(
                "all goes inside each edit of edits ({old, new, all}), not next to the list",
            ));
        }
        (_, _, Some(_)) => {
            return Err(ToolError::usage(
                "pass either old and new, or edits, not both",
            ));
        }
        (None, _, None) => return Err(ToolError::usage("old is required (or pass edits)")),
        (Some(_), None, None) => {
            return Err(ToolError::usage(
                "new is required (pass an empty string to delete old)",
            ));
        }
    };
    let n = list.len();
    list.into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            let which = if n > 1 {
                format!("edit {} of {n}: ", i + 1)
            } else {
                String::new()
            };
            if e.old.is_empty() {
                return Err(ToolError::usage(format!(
                    "{which}old is empty; give the exact text to replace (to add text, include a \
                     neighbouring line in old and new)"
                )));
            }
            if e.old == e.new {
                return Err(ToolError::usage(format!(
                    "{which}old and new are identical; nothing would change"
                )));
            }
            if e.new.contains('\r') {
                e.new = e.new.replace("\r\n", "\n").replace('\r', "\n");
            }
            Ok(e)
        })
        .collect()
}

/// The byte ranges `e` replaces in `text`: the one occurrence, or every non-overlapping one
/// with `all`. Errors (the refusal text) on zero occurrences (with the diagnosis) or on
/// several without `all` (listing each line). Occurrences are counted overlapping for the
/// ambiguity check, so `aa` in `aaa` is two places.
fn locate(spelled: &str, text: &str, e: &EditSpec) -> Result<Vec<Range<usize>>, String> {
    let hay = text.as_bytes();
    let finder = memmem::Finder::new(e.old.as_bytes());
    let len = e.old.len();
    if e.all.unwrap_or(false) {
        let ranges: Vec<Range<usize>> = finder.find_iter(hay).map(|p| p..p + len).collect();
        if ranges.is_empty() {
            return Err(miss::diagnose(spelled, text, &e.old));
        }
        return Ok(ranges);
    }
    let Some(first) = finder.find(hay) else {
        return Err(miss::diagnose(spelled, text, &e.old));
    };
    if finder.find(&hay[first + 1..]).is_none() {
        return Ok(std::iter::once(first..first + len).collect());
    }
    Err(ambiguity(text, &finder, first))
}

/// `old matches 3 places: lines 12, 40, 77; add context or pass all`.
fn ambiguity(text: &str, finder: &memmem::Finder<'_>, first: usize) -> String {
    let hay = text.as_bytes();
    let mut lines: Vec<(usize, usize)> = Vec::new(); // (line, places on it)
    let mut places = 0;
    let (mut line, mut counted) = (1, 0);
    let mut at = Some(first);
    while let Some(p) = at {
        places += 1;
        line += memchr::memchr_iter(b'\n', &hay[counted..p]).count();
        counted = p;
        match lines.last_mut() {
            Some((l, k)) if *l == line => *k += 1,
            _ => lines.push((line, 1)),
        }
        at = finder.find(&hay[p + 1..]).map(|q| p + 1 + q);
    }
    let listed: Vec<String> = lines
        .iter()
        .take(MAX_LISTED_PLACES)
        .map(|&(l, k)| {
            if k > 1 {
                format!("{l} ({k} places)")
            } else {
                l.to_string()
            }
        })
        .collect();
    let more = if lines.len() > MAX_LISTED_PLACES {
        format!(
            " and {}",
            count(lines.len() - MAX_LISTED_PLACES, "more line")
        )
    } else {
        String::new()
    };
    format!(
        "old matches {places} places: lines {}{more}; add context or pass all",
        listed.join(", ")
    )
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    fn spec(old: &str, new: &str, all: bool) -> EditSpec {
        EditSpec {
            old: old.into(),
            new: new.into(),
            all: Some(all),
        }
    }

    #[test]
    fn exact_count_and_ambiguity() {
        let text = "a = 1\nb = 1\na = 1\n";
        assert_eq!(
            locate("t", text, &spec("b = 1", "x", false)),
            Ok(vec![6..11])
        );
        let err = locate("t", text, &spec("a = 1", "x", false)).unwrap_err();
        assert_eq!(
            err,
            "old matches 2 places: lines 1, 3; add context or pass all"
        );
        assert_eq!(
            locate("t", text, &spec("= 1", "x", true)),
            Ok(vec![2..5, 8..11, 14..17])
        );
        // Overlapping occurrences are ambiguous too.
        let err = locate("t", "aaa\n", &spec("aa", "b", false)).unwrap_err();
        assert!(err.contains("2 places: lines 1 (2 places)"), "{err}");
    }

    #[test]
    fn argument_errors() {
        let base = EditFileArgs {
            path: "a".into(),
            old: Some("x".into()),
            new: Some("x".into()),
            all: None,
            edits: None,
            allow_placeholders: None,
            check_syntax: None,
            dry_run: None,
        };
        let e = edit_list(&base).unwrap_err();
        assert!(e.message.contains("identical"));
        let e = edit_list(&EditFileArgs {
            old: Some(String::new()),
            ..base.clone()
        })
        .unwrap_err();
        assert!(e.message.contains("old is empty"));
        let e = edit_list(&EditFileArgs {
            edits: Some(vec![]),
            old: None,
            new: None,
            ..base.clone()
        })
        .unwrap_err();
        assert!(e.message.contains("edits is empty"));
        let ok = edit_list(&EditFileArgs {
            new: Some("a\r\nb".into()),
            ..base
        })
        .unwrap();
        assert_eq!(ok[0].new, "a\nb");
    }
}
