//! `edit-lines`: replace or insert lines addressed by anchors `<n>:<hh>` from
//! `read-file --anchors` (spec 03, "edit-lines"; seed 004's anchored patch).
//!
//! Anchors are line-level freshness: every anchor of every edit is checked against the file as
//! it is now, and all stale ones are reported at once with the current lines around them.
//! The whole-file freshness gate is not used: when the file changed elsewhere but every
//! anchored line still matches, the edit applies and says so. A file this agent never read is
//! still refused (a two-hex-digit anchor that was never shown is a guess). Edits to one file
//! apply bottom-up; several files are all or nothing. Failures count per (agent, path) in the
//! state store, and from the second in a row the refusal adds a loop hint.

use std::collections::HashMap;
use std::path::PathBuf;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::txn::{self, Change, Outcome, Transaction, WriteOptions, texts_needed};
use crate::text::anchors::{Op, overlap, parse_anchor, split_lines};
use crate::text::checked::{self, decode, encode};
use crate::text::editable::EditableText;
use crate::text::pieces::Pieces;
use crate::text::plural::count;
use crate::text::region::{changed_lines, render_region};
use crate::text::render::{LineStyle, push_line};
use crate::text::tag::{content_tag, line_anchor_hash, tag_ref};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::{Access, CheckedPath};

/// Lines shown around a stale anchor and around a changed region (spec 03).
pub const AROUND: usize = 2;
/// The hint added from the second consecutive failure (spec 03).
pub const LOOP_HINT: &str = "stop guessing anchors: re-read the file with read-file --anchors \
(or the lines around your change) and use exactly the anchors it prints";

/// One anchored edit.
#[derive(Debug, Clone, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LineEdit {
    /// The file to edit.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Replace from this line: an anchor `<n>:<hh>` as read-file --anchors prints it (a
    /// copied `|text` tail is ignored).
    #[schemars(length(max = crate::args::MAX_ANCHOR_CHARS))]
    pub from_anchor: Option<String>,
    /// Replace through this line (inclusive; default: from_anchor).
    #[schemars(length(max = crate::args::MAX_ANCHOR_CHARS))]
    pub to_anchor: Option<String>,
    /// The new lines for from..to, `\n`-separated; an empty string deletes the lines.
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub replace: Option<String>,
    /// Insert after this anchored line; "0" inserts at the top of the file.
    #[schemars(length(max = crate::args::MAX_ANCHOR_CHARS))]
    pub after_anchor: Option<String>,
    /// The lines to insert, `\n`-separated.
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub insert: Option<String>,
}

/// Arguments of edit-lines.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct EditLinesArgs {
    /// The edits: each {path, from_anchor, to_anchor?, replace} or {path, after_anchor,
    /// insert} (CLI: a JSON array).
    #[arg(long, value_name = "JSON", value_parser = crate::args::json_flag::<::std::vec::Vec<LineEdit>>)]
    #[schemars(length(max = crate::args::MAX_EDITS))]
    pub edits: ::std::vec::Vec<LineEdit>,
    /// Refuse edits that add syntax errors (default true).
    #[arg(long)]
    pub check_syntax: Option<bool>,
    /// Show the diff, write nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The edit-lines tool.
pub struct EditLines;

impl Tool for EditLines {
    type Args = EditLinesArgs;
    const NAME: &'static str = "edit_lines";
    const META: ToolMeta = ToolMeta {
        description: "Replace or insert whole lines addressed by anchors from read_file with anchors: true.\n\
Each edit is {path, from_anchor, to_anchor?, replace} (replace lines from..to inclusive; replace \
\"\" deletes them) or {path, after_anchor, insert} (after_anchor \"0\" inserts at the top). Anchors \
look like `12:ab`; copy them exactly from read_file output. Every anchor is checked first: if a \
line changed, nothing is written and you get the current anchors around it. Line numbers refer to \
the file before this call (edits are applied bottom-up). Success shows the new anchors of the \
changed lines, so you can chain edits without re-reading.",
        examples: "  agtool read-file src/lib.rs --anchors true\n  agtool edit-lines --edits '[{\"path\":\"src/lib.rs\",\"from_anchor\":\"12:ab\",\"replace\":\"let x = 2;\"}]'\n  agtool edit-lines --edits '[{\"path\":\"a.py\",\"after_anchor\":\"0\",\"insert\":\"import os\"}]'",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files", "anchors"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: args.edits.iter().map(|e| e.path.clone()).collect(),
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: EditLinesArgs) -> ToolResult {
        if args.edits.is_empty() {
            return Err(ToolError::usage("edits is empty; give at least one edit"));
        }
        let ops = args
            .edits
            .iter()
            .enumerate()
            .map(|(i, e)| parse_edit(i, e))
            .collect::<Result<Vec<_>, _>>()?;
        let files = group_by_file(ctx, &args.edits, ops)?;
        let txn = Transaction::begin(ctx, files.iter().map(|f| f.path.real.as_path()))?;
        let opts = WriteOptions::for_call(ctx, args.check_syntax, args.dry_run);
        let mut failures = Vec::new();
        let mut loaded = Vec::new();
        for f in &files {
            match load_and_check(ctx, &txn, f) {
                Ok(l) => loaded.push(l),
                Err(mut fs) => failures.append(&mut fs),
            }
        }
        if !failures.is_empty() {
            return Err(failure_error(ctx, &files, failures, opts.dry_run));
        }
        let mut changes = Vec::new();
        let mut previews = Vec::new();
        for (f, l) in files.iter().zip(loaded) {
            let (change, preview) = apply(f, l, opts)?;
            changes.push(change);
            previews.push(preview);
        }
        let lsp = crate::lsp::prepare(&changes, opts);
        let written = match txn.commit(changes, opts)? {
            Outcome::DryRun(diff) => return Ok(txn::dry_run_output(diff)),
            Outcome::Written(w) => w,
        };
        let mut text = String::new();
        let mut json_files = Vec::new();
        for ((f, w), p) in files.iter().zip(&written).zip(previews) {
            let tag = w.tag.clone().unwrap_or_default();
            text.push_str(&format!("Edited {}\n", tag_ref(&f.path.spelled, &tag)));
            if let Some(old) = &p.changed_since {
                text.push_str(&format!(
                    "(the file had changed since your last read [{}#{old}]; every anchored line \
                     still matched)\n",
                    f.path.spelled
                ));
            }
            text.push_str(&p.region);
            txn::push_notes(&mut text, w);
            let _ = ctx.with_state(|s| s.clear_failures(&ctx.agent, &f.path.real));
            json_files.push(json!({"path": f.path.spelled, "tag": tag, "anchors": p.anchors}));
        }
        text.push_str(&crate::lsp::report(ctx, lsp, &written));
        Ok(Output::text(text).with("files", Value::Array(json_files)))
    }
}

fn parse_edit(i: usize, e: &LineEdit) -> Result<Op, ToolError> {
    let at = |f: &str| format!("/edits/{i}/{f}");
    match (&e.from_anchor, &e.replace, &e.after_anchor, &e.insert) {
        (Some(from), Some(replace), None, None) => {
            let from = parse_anchor(&at("from_anchor"), from, false)?;
            let to = match &e.to_anchor {
                Some(t) => parse_anchor(&at("to_anchor"), t, false)?,
                None => from.clone(),
            };
            if to.line < from.line {
                return Err(ToolError::usage(format!(
                    "{}: {} is before from_anchor {}",
                    at("to_anchor"),
                    to.spelled,
                    from.spelled
                )));
            }
            Ok(Op::Replace {
                from,
                to,
                lines: split_lines(replace),
            })
        }
        (None, None, Some(after), Some(insert)) if e.to_anchor.is_none() => {
            if insert.is_empty() {
                return Err(ToolError::usage(format!(
                    "{}: nothing to insert",
                    at("insert")
                )));
            }
            Ok(Op::Insert {
                after: parse_anchor(&at("after_anchor"), after, true)?,
                lines: split_lines(insert),
            })
        }
        _ => Err(ToolError::usage(format!(
            "/edits/{i}: give either from_anchor (+ to_anchor) and replace, or after_anchor and insert"
        ))),
    }
}

/// The edits for one file.
struct FileEdits {
    path: CheckedPath,
    /// (index in the call's edits, op), in call order.
    ops: Vec<(usize, Op)>,
}

/// Groups edits by real path (first spelling kept) and refuses overlapping edits.
fn group_by_file(ctx: &Ctx, edits: &[LineEdit], ops: Vec<Op>) -> Result<Vec<FileEdits>, ToolError> {
    let mut files: Vec<FileEdits> = Vec::new();
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for (i, (e, op)) in edits.iter().zip(ops).enumerate() {
        let path = ctx.check_path(&e.path, Access::Write)?;
        let k = *index.entry(path.real.clone()).or_insert_with(|| {
            files.push(FileEdits {
                path,
                ops: Vec::new(),
            });
            files.len() - 1
        });
        files[k].ops.push((i, op));
    }
    for f in &files {
        check_overlaps(f)?;
    }
    Ok(files)
}

fn check_overlaps(f: &FileEdits) -> Result<(), ToolError> {
    for (a, (i, x)) in f.ops.iter().enumerate() {
        for (j, y) in &f.ops[a + 1..] {
            if overlap(x, y) || overlap(y, x) {
                return Err(ToolError::usage(format!(
                    "/edits/{i} and /edits/{j} overlap in {}; merge them into one edit",
                    f.path.spelled
                )));
            }
        }
    }
    Ok(())
}

/// One stale anchor or unusable file, as reported (spec 03 `failures`).
struct Failure {
    path: String,
    anchor: Option<String>,
    reason: String,
    current: Option<String>,
}

/// A file loaded and checked: its bytes, decoded text and the recorded tag when it differs.
struct Loaded {
    before: Vec<u8>,
    text: EditableText,
    changed_since: Option<String>,
}

/// Loads one file and checks every anchor of its edits; every problem is returned at once.
fn load_and_check(ctx: &Ctx, txn: &Transaction<'_>, f: &FileEdits) -> Result<Loaded, Vec<Failure>> {
    let spelled = f.path.spelled.clone();
    let whole = |reason: String| {
        vec![Failure {
            path: spelled.clone(),
            anchor: None,
            reason,
            current: None,
        }]
    };
    let before = match txn.load(&f.path) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Err(whole(crate::fileio::txn::missing_file(
                ctx,
                &spelled,
                &f.path.real,
            )));
        }
        Err(e) => return Err(whole(e.message)),
    };
    // A file that is not text is named before the freshness gate: no read could pass it.
    let text = decode(&spelled, &before).map_err(|e| whole(e.message))?;
    let recorded = if ctx.freshness {
        match txn.shown_tag(&f.path) {
            Ok(Some(tag)) => Some(tag),
            Ok(None) => {
                return Err(whole(format!(
                    "read {spelled} with read-file --anchors before editing it (anchors you were \
                     not shown are guesses)"
                )));
            }
            Err(e) => return Err(whole(e)),
        }
    } else {
        None
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut failures = Vec::new();
    for (_, op) in &f.ops {
        for a in op.anchors() {
            let reason = match lines.get(a.line - 1) {
                None => format!(
                    "line {} is past the end of the file ({})",
                    a.line,
                    count(lines.len(), "line")
                ),
                Some(l) if line_anchor_hash(l) != a.hash => format!(
                    "line {} changed: its anchor is now {}:{}",
                    a.line,
                    a.line,
                    line_anchor_hash(l)
                ),
                Some(_) => continue,
            };
            failures.push(Failure {
                path: spelled.clone(),
                anchor: Some(a.spelled.clone()),
                reason,
                current: Some(around(&lines, a.line)),
            });
        }
    }
    if !failures.is_empty() {
        return Err(failures);
    }
    let now = content_tag(&before);
    Ok(Loaded {
        before,
        text,
        changed_since: recorded.filter(|t| *t != now),
    })
}

/// The current anchored lines `line`±2 (clamped to the file; the last lines when `line` is
/// past the end).
fn around(lines: &[&str], line: usize) -> String {
    if lines.is_empty() {
        return "(the file is empty)\n".to_owned();
    }
    let line = line.min(lines.len());
    let lo = line.saturating_sub(AROUND).max(1);
    let hi = (line + AROUND).min(lines.len());
    let mut out = String::new();
    for n in lo..=hi {
        push_line(&mut out, LineStyle::Anchored, n, lines[n - 1]);
    }
    out
}

/// What one file's success shows.
struct Preview {
    region: String,
    anchors: Map<String, Value>,
    changed_since: Option<String>,
}

/// Applies one file's edits bottom-up and builds its change and preview.
fn apply(
    f: &FileEdits,
    l: Loaded,
    opts: crate::fileio::txn::WriteOptions,
) -> Result<(Change, Preview), ToolError> {
    let mut ops: Vec<&Op> = f.ops.iter().map(|(_, op)| op).collect();
    ops.sort_by_key(|op| std::cmp::Reverse(op.order_key()));
    let old_text = texts_needed(opts, l.text.text().len()).then(|| l.text.text().to_owned());
    #[cfg(debug_assertions)]
    let original = l.text.clone();
    let mut text = l.text;
    let mut pieces = Pieces::new(text.text().len());
    for op in ops {
        let (range, new_len) = match op {
            Op::Replace { from, to, lines } => text.replace_lines(from.line - 1, to.line, lines),
            Op::Insert { after, lines } => text.replace_lines(after.line, after.line, lines),
        };
        pieces.replace_one(range, new_len);
    }
    checked::refuse_merged_break(&f.path.spelled, &text)?;
    let after = encode(&f.path.spelled, &text)?;
    #[cfg(debug_assertions)]
    if let Err(e) = crate::text::pieces::verify_kept(&original, &l.before, &text, &after, &pieces) {
        panic!("edit-lines broke the byte-exact invariant: {e}");
    }
    let regions = changed_lines(text.text(), &pieces.changed());
    let region = if text.text().is_empty() {
        "(the file is now empty)\n".to_owned()
    } else {
        render_region(text.text(), &regions, AROUND, LineStyle::Anchored)
    };
    let anchors = region_anchors(&region);
    let new_text = old_text.as_ref().map(|_| text.text().to_owned());
    Ok((
        Change {
            path: f.path.clone(),
            before: Some(l.before),
            after: Some(after.into()),
            old_text,
            new_text,
            mode: None,
        },
        Preview {
            region,
            anchors,
            changed_since: l.changed_since,
        },
    ))
}

/// The `{"12:ab": "text"}` map of a rendered anchored region (`...` separators skipped).
fn region_anchors(region: &str) -> Map<String, Value> {
    region
        .lines()
        .filter_map(|l| l.split_once('|'))
        .filter(|(a, _)| a.contains(':') && a.bytes().next().is_some_and(|b| b.is_ascii_digit()))
        .map(|(a, t)| (a.to_owned(), Value::String(t.to_owned())))
        .collect()
}

/// The refusal for stale anchors: every failure, the consecutive-failure count and, from the
/// second one, the loop hint. Bumps the counter of every failing path, except in a dry run,
/// which records nothing (spec 01, diff previews).
fn failure_error(
    ctx: &Ctx,
    files: &[FileEdits],
    failures: Vec<Failure>,
    dry_run: bool,
) -> ToolError {
    let mut consecutive = 0;
    for f in files.iter().filter(|_| !dry_run) {
        if failures.iter().any(|x| x.path == f.path.spelled) {
            let n = ctx
                .with_state(|s| s.bump_failures(&ctx.agent, &f.path.real, EditLines::NAME))
                .unwrap_or(1);
            consecutive = consecutive.max(n);
        }
    }
    let stale = failures.iter().filter(|f| f.anchor.is_some()).count();
    let mut msg = if stale > 0 {
        format!(
            "{stale} anchor{} stale; nothing was written:",
            if stale == 1 { " is" } else { "s are" }
        )
    } else {
        "nothing was written:".to_owned()
    };
    for f in &failures {
        match &f.anchor {
            Some(a) => msg.push_str(&format!("\n{} {a}: {}", f.path, f.reason)),
            None => msg.push_str(&format!("\n{}", f.reason)),
        }
        if let Some(cur) = &f.current {
            for line in cur.lines() {
                msg.push_str(&format!("\n  {line}"));
            }
        }
    }
    let hint = (consecutive >= 2).then_some(LOOP_HINT);
    if let Some(h) = hint {
        msg.push_str(&format!("\nconsecutive failures: {consecutive}\nhint: {h}"));
    }
    let list: Vec<Value> = failures
        .iter()
        .map(|f| json!({"path": f.path, "anchor": f.anchor, "reason": f.reason, "current": f.current}))
        .collect();
    ToolError::refused(msg)
        .with("failures", Value::Array(list))
        .with("consecutive_failures", consecutive)
        .with("loop_hint", hint.map_or(Value::Null, Value::from))
}
