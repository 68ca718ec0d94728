//! `apply-patch`: apply a patch in the format coding models emit (OpenAI Codex's apply_patch
//! format), all or nothing (spec 04-apply-patch.md).
//!
//! Order of work: parse → policy check of every path → locks → load and freshness gate →
//! match and compute every hunk in memory ([`plan`]) → syntax gate → `dry_run` diff or atomic
//! writes with restore on failure → register the new tags.

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::txn::{Outcome, Transaction, Written};
use crate::fileio::txn::{WriteOptions, dry_run_output};
use crate::patch::{BodyLine, Hunk, Patch, parse};
use crate::text::diff;
use crate::text::placeholder;
use crate::text::plural::count;
use crate::text::tag::tag_ref;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;
use plan::{Action, Entry, Plan, PlannedFile};

mod plan;

/// Arguments of apply-patch.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ApplyPatchArgs {
    /// The patch text, from `*** Begin Patch` to `*** End Patch`. CLI: stdin, or
    /// `--input FILE` to read it from a file.
    #[arg(long, value_name = "FILE")]
    #[schemars(required, length(max = crate::args::MAX_BODY_CHARS))]
    pub input: Option<String>,
    /// Apply even when an Update adds a placeholder comment such as `// ... existing code`
    /// and removes lines (default false: refused).
    #[arg(long)]
    pub allow_placeholders: Option<bool>,
    /// Refuse a patch that adds syntax errors to a file (default true).
    #[arg(long)]
    pub check_syntax: Option<bool>,
    /// Show the unified diff of every file, write nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The apply-patch tool.
pub struct ApplyPatch;

impl Tool for ApplyPatch {
    type Args = ApplyPatchArgs;
    const NAME: &'static str = "apply_patch";
    const META: ToolMeta = ToolMeta {
        description: "Apply a patch that adds, deletes, updates or moves files, all or nothing.\n\
Format:\n\
*** Begin Patch\n\
*** Add File: <path>      then lines starting with +\n\
*** Delete File: <path>\n\
*** Update File: <path>   optionally *** Move to: <path>, then chunks:\n\
@@ <a line just above the change, e.g. a def or class line> (optional, may repeat)\n\
\x20context line (starts with a space)\n\
-removed line\n\
+added line\n\
*** End of File           (optional: the chunk ends at the end of the file)\n\
*** End Patch\n\
Give about 3 context lines around each change; chunks of one file go in file order. Updating, \
deleting or moving a file needs a current read_file of it. Context lines are only used to find \
the place: the file's own lines are kept. Line endings, encoding and final newline are kept. \
Reports each file with its new tag: A (added), M (modified), D (deleted).",
        examples: "  agtool apply-patch < fix.patch\n  agtool apply-patch --input fix.patch --dry-run true",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: Some("input"),
        tags: &["write", "files", "patch"],
    };

    /// On the command line `--input` names a file holding the patch: read it here.
    fn cli_fixup(args: &mut Map<String, Value>, ctx: &Ctx) -> Result<(), ToolError> {
        if let Some(Value::String(file)) = args.get("input") {
            let text =
                crate::args::read_file_limited(&ctx.cwd.join(file), &format!("--input {file}"))?;
            // A file outside the workspace may be anything (`--input ~/.ssh/id_rsa`): its
            // text must not come back in a parse error, so it is checked here, unquoted.
            let outside = ctx.check_path(file, Access::Read).is_err();
            if outside && let Err(e) = parse(&text) {
                return Err(ToolError::refused(format!(
                    "--input {file}: {}",
                    e.without_text()
                )));
            }
            args.insert("input".to_owned(), Value::String(text));
        }
        Ok(())
    }

    fn touches(args: &Self::Args) -> Touches {
        let mut writes = Vec::new();
        // Every file of the patch: updated, added, deleted, and the targets of moves. A patch
        // that does not parse touches nothing (the tool refuses it).
        if let Some(patch) = args.input.as_deref().and_then(|i| parse(i).ok()) {
            for h in &patch.hunks {
                writes.push(h.path().to_owned());
                if let Hunk::Update {
                    move_to: Some(to), ..
                } = h
                {
                    writes.push(to.clone());
                }
            }
        }
        Touches {
            writes,
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: ApplyPatchArgs) -> ToolResult {
        let input = args.input.as_deref().ok_or_else(|| {
            ToolError::usage("input is required (pass the patch, or pipe it on stdin)")
        })?;
        let patch = parse(input).map_err(|e| ToolError::refused(e.to_string()))?;
        let paths = Plan::check_paths(ctx, &patch)?;
        if !args.allow_placeholders.unwrap_or(false) {
            check_placeholders(&patch)?;
        }
        let txn = Transaction::begin(ctx, paths.iter().map(|p| p.real.as_path()))?;
        let plan = Plan::build(&txn, &patch, paths)?;
        let opts = WriteOptions::for_call(ctx, args.check_syntax, args.dry_run);
        let (files, entries) = plan.into_changes(opts)?;
        // The preview needs the planned files, which the commit consumes.
        let preview = opts.dry_run.then(|| dry_run(&files, &entries));
        let changes: Vec<_> = files.into_iter().map(|f| f.change).collect();
        let lsp = crate::lsp::prepare(&changes, opts);
        match txn.commit(changes, opts)? {
            Outcome::Written(written) => {
                let mut out = summary(&entries, &written);
                out.text.push_str(&crate::lsp::report(ctx, lsp, &written));
                Ok(out)
            }
            Outcome::DryRun(diff) => Ok(preview.unwrap_or_else(|| dry_run_output(diff))),
        }
    }
}

/// The placeholder guard (spec 03, [`crate::text::placeholder`]) on every Update: its `+`
/// lines must not add a placeholder line that is not among its `-` and context lines while
/// `-` lines go. The refusal names the file and the patch line.
fn check_placeholders(patch: &Patch) -> Result<(), ToolError> {
    for hunk in &patch.hunks {
        let Hunk::Update { path, chunks, .. } = hunk else {
            continue;
        };
        // Context lines are on both sides; `new_at` gives each new line's patch line (None
        // for context lines).
        let (mut old, mut new, mut new_at) = (Vec::new(), Vec::new(), Vec::new());
        for chunk in chunks {
            for c in &chunk.contexts {
                old.push(c.text.as_str());
                new.push(c.text.as_str());
                new_at.push(None);
            }
            for (j, line) in chunk.lines.iter().enumerate() {
                match line {
                    BodyLine::Context(t) => {
                        old.push(t.as_str());
                        new.push(t.as_str());
                        new_at.push(None);
                    }
                    BodyLine::Remove(t) => old.push(t.as_str()),
                    BodyLine::Add(t) => {
                        new.push(t.as_str());
                        new_at.push(Some(chunk.body_line + j));
                    }
                }
            }
        }
        if let Some(e) = placeholder::find_elision(old, new) {
            let at = new_at[e.index].map_or_else(String::new, |l| format!(" (patch line {l})"));
            return Err(ToolError::refused(format!(
                "the update of {path} adds a line that looks like an omission placeholder \
                 ({:?}){at} while removing {}; nothing was changed: {}",
                e.line,
                count(e.removed, "line"),
                placeholder::ADVICE
            )));
        }
    }
    Ok(())
}

/// The success output (spec 04 "Output"): A, then M, then D lines in patch order, then the
/// fuzzy-match notes, then syntax and registration notes.
fn summary(entries: &[Entry], written: &[Written]) -> Output {
    let mut text = String::from("Success. Updated the following files:\n");
    let mut files_json = Vec::new();
    for action in [Action::Added, Action::Modified, Action::Deleted] {
        for entry in entries.iter().filter(|e| e.action == action) {
            let w = &written[entry.file];
            text.push_str(action.letter());
            text.push(' ');
            // The content tag spelled as everywhere else: `[path#TAG]` (issue 18 §5).
            match &w.tag {
                Some(tag) => text.push_str(&tag_ref(&entry.spelled, tag)),
                None => text.push_str(&entry.spelled),
            }
            if let Some(from) = &entry.moved_from {
                text.push_str(&format!(" (moved from {from})"));
            }
            text.push('\n');
            files_json.push(json!({
                "path": entry.spelled,
                "action": action.letter(),
                "tag": w.tag,
                "moved_from": entry.moved_from,
                "notes": entry.notes,
                "syntax": w.syntax,
            }));
        }
    }
    for entry in entries {
        for note in &entry.notes {
            text.push_str(note);
            text.push('\n');
        }
    }
    for entry in entries {
        let w = &written[entry.file];
        for line in [&w.syntax, &w.note].into_iter().flatten() {
            text.push_str(&format!("{}: {line}\n", entry.spelled));
        }
    }
    Output::text(text).with("files", Value::Array(files_json))
}

/// The `dry_run` output: the unified diff of every file in patch order (a move is one diff
/// from the source to the destination), then the fuzzy-match notes.
fn dry_run(files: &[PlannedFile], entries: &[Entry]) -> Output {
    let mut out = String::new();
    for entry in entries {
        let file = &files[entry.file];
        let change = &file.change;
        match (&change.before, &change.old_text, &change.after) {
            // A deleted file that cannot be decoded (binary) has no text diff.
            (Some(bytes), None, None) => out.push_str(&format!(
                "--- a/{}\n+++ /dev/null\n(binary file of {} deleted)\n",
                entry.spelled,
                count(bytes.len(), "byte")
            )),
            _ => out.push_str(&labelled_diff(
                &file.old_label,
                &entry.spelled,
                change.old_text.as_deref(),
                change.new_text.as_deref(),
            )),
        }
    }
    if out.is_empty() {
        out.push_str("(no changes)\n");
    }
    let notes: Vec<&String> = entries.iter().flat_map(|e| &e.notes).collect();
    let mut output = dry_run_output(out);
    for note in notes {
        output.text.push_str(note);
        output.text.push('\n');
    }
    output
}

/// A unified diff whose two sides may name different paths (a move).
fn labelled_diff(old_path: &str, new_path: &str, old: Option<&str>, new: Option<&str>) -> String {
    if old_path == new_path {
        return diff::unified(old_path, old, new);
    }
    let a = format!("a/{old_path}");
    let b = format!("b/{new_path}");
    let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
    if old == new {
        return format!("--- {a}\n+++ {b}\n(moved, content unchanged)\n");
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .missing_newline_hint(true)
        .header(&a, &b)
        .to_string()
}
