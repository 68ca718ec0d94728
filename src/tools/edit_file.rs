//! `edit-file`: replace exact text in a file, once, everywhere, or as a list of edits applied
//! in order, all or nothing (spec 03, "edit-file").
//!
//! Matching is on the decoded, `\n`-normalised text, so `old` written with `\n` matches a CRLF
//! file, and every line the edit does not touch keeps its own terminator. Counting is exact:
//! no normalisation ever widens it; the near-miss diagnosis lives in [`crate::text::miss`].
//!
//! Cost: the common case (a UTF-8 file without CR, one edit of one place, no texts for the
//! syntax gate or a dry run) holds the file's bytes once: the match is found in them, the new
//! file is written as those bytes with the range replaced, and its tag is hashed while it is
//! written (`splice`). Otherwise a file costs its bytes, its decoded text (edited in place)
//! and the encoded result; the old and new texts are copied only when the syntax gate or a dry
//! run will look at them ([`texts_needed`]). Finding is one `memmem` pass.

use std::ops::Range;

use clap::Args;
use memchr::memmem;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::txn::{self, After, Change, Outcome, Transaction, WriteOptions, texts_needed};
use crate::text::checked::{self, decode, encode_owned};
use crate::text::editable::{TextEncoding, looks_binary, sniff_bom};
use crate::text::miss;
use crate::text::pieces::Pieces;
use crate::text::placeholder;
use crate::text::plural::count;
use crate::text::region::{changed_lines, render_region, render_region_at};
use crate::text::render::LineStyle;
use crate::text::tag::tag_ref;
use crate::text::{render, syntax};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

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

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: vec![args.path.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: EditFileArgs) -> ToolResult {
        let edits = edit_list(&args)?;
        let path = ctx.check_path(&args.path, Access::Write)?;
        let txn = Transaction::begin(ctx, [path.real.as_path()])?;
        let before = txn
            .load(&path)?
            .ok_or_else(|| ToolError::refused(txn::missing_file(ctx, &args.path, &path.real)))?;
        // A file that is not text is named first: no read could pass the gate for it. The
        // one-copy path's file is text by construction; any other is decoded here.
        let plain = plain_utf8(&before);
        let decoded = match plain {
            Some(_) => None,
            None => Some(decode(&args.path, &before)?),
        };
        // The gate comes before any matching.
        txn.require_fresh(&path, &before)?;
        if !args.allow_placeholders.unwrap_or(false) {
            check_placeholders(&args.path, &edits)?;
        }
        let opts = WriteOptions::for_call(ctx, args.check_syntax, args.dry_run);
        if let Some((bom, text)) = plain
            && let Some(spliced) = splice(&args.path, &path.real, bom, text, &edits, opts)?
        {
            return finish(ctx, &args.path, txn, path.clone(), before, spliced, opts);
        }
        let original = match decoded {
            Some(text) => text,
            None => decode(&args.path, &before)?,
        };
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
            after: Some(after.into()),
            old_text,
            new_text,
            mode: None,
        };
        let lsp = crate::lsp::prepare(std::slice::from_ref(&change), opts);
        report(
            (ctx, lsp),
            &args.path,
            txn.commit(vec![change], opts)?,
            replacements,
            (first, last),
            &preview,
        )
    }
}

/// The result text of a commit (or the dry run's diff).
fn report(
    (ctx, lsp): (&Ctx, Vec<crate::lsp::Written>),
    spelled: &str,
    outcome: Outcome,
    replacements: usize,
    (first, last): (usize, usize),
    preview: &str,
) -> ToolResult {
    let written = match txn::single(outcome) {
        Ok(w) => w,
        Err(dry) => return Ok(dry),
    };
    let tag = written.tag.clone().unwrap_or_default();
    let mut out = format!(
        "Edited {} ({}, lines {first}-{last})\n{preview}",
        tag_ref(spelled, &tag),
        count(replacements, "replacement")
    );
    txn::push_notes(&mut out, &written);
    out.push_str(&crate::lsp::report(
        ctx,
        lsp,
        std::slice::from_ref(&written),
    ));
    Ok(Output::text(out)
        .with("path", spelled.to_owned())
        .with("tag", tag)
        .with("replacements", replacements)
        .with("first_line", first)
        .with("last_line", last))
}

/// An edit found by [`splice`]: the byte ranges of the file to replace and what the output
/// shows.
struct Spliced {
    ranges: Vec<Range<usize>>,
    with: Vec<u8>,
    lines: (usize, usize),
    preview: String,
}

/// The one-copy path of edit-file (spec 03; issue 10): when decoding the file changes nothing
/// but a BOM (UTF-8 without any CR, so every terminator is LF and new lines take LF too), and
/// there is one edit replacing one place, and neither a dry run nor the syntax gate will look
/// at the texts, the edit is made on the file's own bytes: the new file is written as the old
/// bytes with the matched range replaced (no decoded copy, no assembled result), and its tag
/// is hashed while it is written. The bytes are exactly what the general path writes.
/// `Ok(None)`: the general path applies. Errors are the general path's refusals.
fn splice(
    spelled: &str,
    real: &std::path::Path,
    bom: usize,
    text: &str,
    edits: &[EditSpec],
    opts: WriteOptions,
) -> Result<Option<Spliced>, ToolError> {
    let ([e], false) = (edits, opts.dry_run) else {
        return Ok(None);
    };
    let ranges = locate(spelled, text, e).map_err(ToolError::refused)?;
    let [r] = ranges.as_slice() else {
        return Ok(None);
    };
    let new_len = text.len() - r.len() + e.new.len();
    if texts_needed(opts, text.len().max(new_len))
        && syntax::has_checker(real, &first_line_after(text, r.clone(), &e.new))
    {
        return Ok(None);
    }
    let (lines, preview) = region_after_one(text, r.clone(), &e.new);
    Ok(Some(Spliced {
        ranges: std::iter::once(r.start + bom..r.end + bom).collect(),
        with: e.new.clone().into_bytes(),
        lines,
        preview,
    }))
}

/// The text of a file whose decoding changes nothing but a BOM (UTF-8, with or without a
/// BOM, no CR, not binary): the BOM's length and the text, borrowed from the bytes. `None`
/// for any other file. This is what [`splice`] edits in place.
fn plain_utf8(bytes: &[u8]) -> Option<(usize, &str)> {
    let bom = match sniff_bom(bytes) {
        None => 0,
        Some(TextEncoding::Utf8Bom) => 3,
        Some(_) => return None,
    };
    let body = &bytes[bom..];
    if looks_binary(body) || memchr::memchr(b'\r', body).is_some() {
        return None;
    }
    simdutf8::basic::from_utf8(body)
        .ok()
        .map(|text| (bom, text))
}

/// Writes a [`splice`] through the transaction and reports it.
fn finish(
    ctx: &Ctx,
    spelled: &str,
    txn: Transaction<'_>,
    path: crate::workspace::policy::CheckedPath,
    before: Vec<u8>,
    s: Spliced,
    opts: WriteOptions,
) -> ToolResult {
    let change = Change {
        path,
        before: Some(before),
        after: Some(After::Splice {
            ranges: s.ranges,
            with: s.with,
        }),
        old_text: None,
        new_text: None,
        mode: None,
    };
    let lsp = crate::lsp::prepare(std::slice::from_ref(&change), opts);
    report(
        (ctx, lsp),
        spelled,
        txn.commit(vec![change], opts)?,
        1,
        s.lines,
        &s.preview,
    )
}

/// The first line of `text` with `r` replaced by `new` (for the `#!` line the syntax gate
/// looks at), at most 4 KiB of it.
fn first_line_after(text: &str, r: Range<usize>, new: &str) -> String {
    const MAX: usize = 4096;
    let mut head = String::new();
    for part in [&text[..r.start], new, &text[r.end..]] {
        let end = memchr::memchr(b'\n', part.as_bytes()).unwrap_or(part.len());
        let end = render::cut_at_boundary(&part[..end], MAX - head.len().min(MAX)).len();
        head.push_str(&part[..end]);
        if end < part.len() || head.len() >= MAX {
            break;
        }
    }
    head
}

/// The 1-based first and last changed line, and the region preview, of `text` (`\n` line
/// breaks) with the one range `r` replaced by `new`: what [`changed_lines`] and
/// [`render_region`] give on the whole new text, computed from the lines around the edit.
fn region_after_one(text: &str, r: Range<usize>, new: &str) -> ((usize, usize), String) {
    let nl = |s: &str| memchr::memchr_iter(b'\n', s.as_bytes()).count();
    let (head, tail) = (&text[..r.start], &text[r.end..]);
    // The new text is head + new + tail.
    let breaks = nl(head) + nl(new) + nl(tail);
    let last_byte = [tail, new, head]
        .iter()
        .find_map(|p| p.as_bytes().last().copied());
    let total = match last_byte {
        None => 0,
        Some(b) => breaks + usize::from(b != b'\n'),
    };
    let clamp = |n: usize| n.min(total.max(1));
    // The line the edit starts on (it may be past the end when the edit removed the last
    // line break: the reported numbers are clamped, the search below is not).
    let at = 1 + nl(head);
    let (first, last) = (
        clamp(at),
        // Breaks inside the new text, not counting one it ends with (bytes: the last char
        // may be wider than one).
        clamp(
            at + memchr::memchr_iter(b'\n', &new.as_bytes()[..new.len().saturating_sub(1)]).count(),
        ),
    );
    let lo = first.saturating_sub(REGION_CONTEXT).max(1);
    let hi = (last + REGION_CONTEXT).min(total);
    // From the start of line `lo` (found backwards from the edit) ...
    let back = at - lo + 1;
    let start = memchr::memrchr_iter(b'\n', head.as_bytes())
        .nth(back - 1)
        .map_or(0, |p| p + 1);
    let mut window = String::from(&head[start..]);
    window.push_str(new);
    // ... to the end of line `hi`.
    let want = (hi + 1).saturating_sub(lo);
    let have = nl(&window);
    let end = match want.checked_sub(have) {
        Some(k) if k > 0 => memchr::memchr_iter(b'\n', tail.as_bytes())
            .nth(k - 1)
            .map_or(tail.len(), |p| p + 1),
        _ => 0,
    };
    window.push_str(&tail[..end]);
    let preview = render_region_at(
        &window,
        lo,
        &[(first, last)],
        REGION_CONTEXT,
        LineStyle::Numbered,
    );
    ((first, last), preview)
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

/// `old matches 3 places: lines 12, 40, 77; add context or pass all: true (--all)`.
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
        "old matches {places} places: lines {}{more}; add context or pass all: true (--all)",
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
            "old matches 2 places: lines 1, 3; add context or pass all: true (--all)"
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

    /// What the general path shows for one replacement: the whole new text, split and
    /// counted from its start.
    fn region_of_whole_text(text: &str, r: Range<usize>, new: &str) -> ((usize, usize), String) {
        let whole = format!("{}{new}{}", &text[..r.start], &text[r.end..]);
        let mut pieces = Pieces::new(text.len());
        pieces.replace(std::slice::from_ref(&r), &[new.len()]);
        let regions = changed_lines(&whole, &pieces.changed());
        let preview = render_region(&whole, &regions, REGION_CONTEXT, LineStyle::Numbered);
        ((regions[0].0, regions[0].1), preview)
    }

    #[test]
    fn region_from_the_lines_around_the_edit_equals_the_whole_text() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..4000 {
            let text: String = (0..below(40))
                .map(|_| ["a", "bc", "\n", "\n", "\u{e9}"][below(5)])
                .collect();
            let new: String = (0..below(6))
                .map(|_| ["x", "\n", "\u{1F600}"][below(3)])
                .collect();
            let bounds: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            let a = bounds[below(bounds.len())];
            let b = bounds[below(bounds.len())];
            let r = a.min(b)..a.max(b);
            assert_eq!(
                region_after_one(&text, r.clone(), &new),
                region_of_whole_text(&text, r.clone(), &new),
                "{text:?} {r:?} {new:?}"
            );
        }
        // A change of more lines than a preview shows.
        let text = "l\n".repeat(300);
        let new = "n\n".repeat(200);
        assert_eq!(
            region_after_one(&text, 10..20, &new),
            region_of_whole_text(&text, 10..20, &new)
        );
    }

    #[test]
    fn first_line_after_an_edit() {
        assert_eq!(
            first_line_after("#!/usr/bin/en\nx\n", 11..13, "env python"),
            "#!/usr/bin/env python"
        );
        assert_eq!(first_line_after("a\nb\n", 2..3, "c"), "a");
        assert_eq!(first_line_after("ab", 1..2, "x\ny"), "ax");
        assert_eq!(first_line_after(&"z".repeat(9000), 0..1, "y").len(), 4096);
    }
}
