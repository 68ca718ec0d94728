//! `delete-path`: delete a file, a symlink, or a directory (spec 03, "delete-path").
//!
//! A file goes through the write transaction like any write: its lock, the freshness gate
//! (deleting content the caller never saw is refused) and the removal of its freshness entry.
//! A symlink (or another non-regular file) is removed itself, never followed, and needs no
//! read. A directory needs `recursive` unless it is empty; before anything is removed the
//! whole tree is listed without following symlinks, and a protected name anywhere in it, a
//! mount point, or the workspace root itself refuses the whole deletion. The tree is listed
//! and removed through directory handles ([`crate::fileio::tree`]), so a folder swapped
//! for a symlink meanwhile stops the deletion instead of leading it outside.

use std::path::Path;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{ErrorKind, Output, ToolError, ToolResult, io_refusal};
use crate::fileio::beneath::{Kind, is_swapped};
use crate::fileio::fs::{Stop, describe, interrupted_by};
use crate::fileio::tree::{self, TreeStop};
use crate::fileio::txn::{self, Change, Current, Transaction, WriteOptions};
use crate::text::editable::EditableText;
use crate::text::path_escape::encode_path;
use crate::text::plural::count;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::{Access, CheckedPath};

/// Most entries a dry run of a directory lists.
const MAX_LISTED: usize = 20;

/// Arguments of delete-path.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct DeletePathArgs {
    /// The file, symlink or directory to delete.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Delete a non-empty directory and everything in it (default false).
    #[arg(long)]
    pub recursive: Option<bool>,
    /// Say what would be deleted, delete nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The delete-path tool.
pub struct DeletePath;

impl Tool for DeletePath {
    type Args = DeletePathArgs;
    const NAME: &'static str = "delete_path";
    const META: ToolMeta = ToolMeta {
        description: "Delete a file, a symlink, or a directory.\n\
A file needs a current read_file of it (refused if never read or changed since). A symlink is \
removed itself; its target is never touched. A non-empty directory needs recursive: true; \
directories containing protected names such as .git are refused as a whole. Use dry_run: true to \
see what would go.",
        examples: "  agtool delete-path old/notes.txt\n  agtool delete-path build --recursive true --dry-run true",
        group: Group::Delete,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["delete", "files"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: vec![args.path.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: DeletePathArgs) -> ToolResult {
        let dry_run = args.dry_run.unwrap_or(false);
        // The entry the path names: a final symlink is the link, never its target.
        let path = ctx.check_entry(&args.path, Access::Write)?;
        let st = ctx.fs.stat(&path).map_err(|e| {
            if is_swapped(&e) {
                ToolError::refused(format!("cannot delete {}: {}", args.path, describe(&e)))
            } else {
                io_refusal("delete", &args.path, &e)
            }
        })?;
        match st.kind {
            Kind::Dir => delete_dir(ctx, &path, args.recursive.unwrap_or(false), dry_run),
            Kind::File => delete_file(ctx, &path, dry_run),
            _ => delete_link(ctx, &args.path, &path, dry_run),
        }
    }
}

fn delete_link(ctx: &Ctx, spelled: &str, link: &CheckedPath, dry_run: bool) -> ToolResult {
    let cannot = |e: std::io::Error| {
        ToolError::refused(format!("cannot delete {spelled}: {}", describe(&e)))
    };
    let loc = ctx.fs.parent(link).map_err(cannot)?;
    let st = loc.dir.stat_at(&loc.name).map_err(cannot)?;
    let what = if st.kind == Kind::Symlink {
        let target = loc
            .dir
            .read_link(&loc.name)
            .map(|t| encode_path(&t).into_owned())
            .unwrap_or_default();
        format!("symlink to {target}; the target was not touched")
    } else {
        "special file".to_owned()
    };
    if dry_run {
        return Ok(Output::text(format!("Would delete {spelled} ({what})\n")).with("dry_run", true));
    }
    let _txn = Transaction::begin(ctx, [link.real.as_path()])?;
    let _writing = ctx.gate.writing()?;
    loc.dir.unlink(&loc.name).map_err(cannot)?;
    let _ = loc.dir.sync();
    let _ = ctx.with_state(|s| s.forget(&link.real));
    Ok(Output::text(format!("Deleted {spelled} ({what})\n")).with("path", spelled))
}

fn delete_file(ctx: &Ctx, path: &CheckedPath, dry_run: bool) -> ToolResult {
    let txn = Transaction::begin(ctx, [path.real.as_path()])?;
    let current = txn.load_or_size(path)?.ok_or_else(|| {
        ToolError::refused(format!(
            "{} does not exist; nothing to delete",
            path.spelled
        ))
    })?;
    let before = match current {
        Current::Whole(bytes) => bytes,
        Current::Large { size } => return delete_large_file(ctx, txn, path, size, dry_run),
    };
    let decoded = EditableText::decode(&before).ok();
    if decoded.is_none() && ctx.freshness {
        let recorded = txn.shown_tag(path).map_err(ToolError::refused)?;
        if recorded.is_none() {
            return Err(ToolError::refused(format!(
                "{} is not a text file read_file can show ({}), so there is no read to \
                 vouch for deleting it; ask the user to delete it",
                path.spelled,
                count(before.len(), "byte")
            )));
        }
    }
    txn.require_fresh(path, &before)?;
    if dry_run && decoded.is_none() {
        return Ok(Output::text(format!(
            "Would delete {} ({}, not text)\n",
            path.spelled,
            count(before.len(), "byte")
        ))
        .with("dry_run", true));
    }
    let change = Change {
        path: path.clone(),
        before: Some(before),
        after: None,
        old_text: decoded.map(|t| t.text().to_owned()),
        new_text: None,
        mode: None,
    };
    let opts = WriteOptions::for_call(ctx, Some(false), Some(dry_run));
    match txn::single(txn.commit(vec![change], opts)?) {
        Ok(w) => {
            let mut text = format!("Deleted {}\n", path.spelled);
            txn::push_notes(&mut text, &w);
            Ok(Output::text(text).with("path", path.spelled.clone()))
        }
        Err(dry) => Ok(dry),
    }
}

/// Deletes a file over [`txn::MAX_EDIT_BYTES`] without loading it (issue 17, item 5: a
/// 3 GiB file took 3-6 GB, a 64 GiB sparse one aborted): a file whose head shows it is not
/// text is refused as such when freshness is on (no read can vouch for it); otherwise the
/// freshness gate compares a streamed hash, computed only when a read is recorded.
fn delete_large_file(
    ctx: &Ctx,
    txn: Transaction<'_>,
    path: &CheckedPath,
    size: u64,
    dry_run: bool,
) -> ToolResult {
    let binary = txn.looks_binary(path)?;
    if binary && ctx.freshness && txn.shown_tag(path).map_err(ToolError::refused)?.is_none() {
        return Err(ToolError::refused(format!(
            "{} is not a text file read_file can show ({}), so there is no read to vouch for \
             deleting it; ask the user to delete it",
            path.spelled,
            count(size, "byte")
        )));
    }
    txn.require_fresh_by(path, || txn.streamed_tag(path))?;
    let what = if binary { ", not text" } else { "" };
    if dry_run {
        return Ok(Output::text(format!(
            "Would delete {} ({}{what})\n",
            path.spelled,
            count(size, "byte")
        ))
        .with("dry_run", true));
    }
    let change = Change {
        path: path.clone(),
        before: None,
        after: None,
        old_text: None,
        new_text: None,
        mode: None,
    };
    let opts = WriteOptions::for_call(ctx, Some(false), Some(false));
    match txn::single(txn.commit(vec![change], opts)?) {
        Ok(w) => {
            let mut text = format!("Deleted {}\n", path.spelled);
            txn::push_notes(&mut text, &w);
            Ok(Output::text(text).with("path", path.spelled.clone()))
        }
        Err(dry) => Ok(dry),
    }
}

fn delete_dir(ctx: &Ctx, path: &CheckedPath, recursive: bool, dry_run: bool) -> ToolResult {
    if path.real == ctx.root || path.real == ctx.policy.root() || ctx.root.starts_with(&path.real) {
        return Err(ToolError::refused(format!(
            "{} is the workspace root (or holds it); agtool never deletes it",
            path.spelled
        )));
    }
    let shown = format!("{}/", path.spelled.trim_end_matches('/'));
    let _txn = Transaction::begin(ctx, [path.real.as_path()])?;
    let cannot =
        |e: std::io::Error| ToolError::refused(format!("cannot delete {shown}: {}", describe(&e)));
    // The folder's own entry, and the folder itself as a handle: everything below is reached
    // through it, never by path.
    let loc = ctx.fs.parent(path).map_err(cannot)?;
    let top = ctx.fs.open_dir(path).map_err(cannot)?;
    let in_shown = |rel: &Path| format!("{shown}{}", encode_path(rel));
    let entries = tree::list(&top, &|name| ctx.policy.is_protected_name(name)).map_err(|stop| {
        ToolError::refused(match stop {
            TreeStop::Refused(rel) => format!(
                "{shown} contains {}, which agtool never deletes; nothing was deleted",
                in_shown(&rel)
            ),
            TreeStop::Mount(rel) => format!(
                "{} is a mount point; agtool does not delete across filesystems; nothing was \
                 deleted",
                in_shown(&rel)
            ),
            TreeStop::Io(rel, e) => format!("cannot list {}: {}", in_shown(&rel), describe(&e)),
            TreeStop::TooDeep(_) => {
                format!("{shown} {}; nothing was deleted", tree::too_deep_phrase())
            }
        })
    })?;
    if !entries.is_empty() && !recursive {
        return Err(ToolError::refused(format!(
            "{shown} is a directory with {}; pass recursive: true (--recursive) to \
             delete it and everything in it",
            count(entries.len(), "entry")
        )));
    }
    let files = entries.iter().filter(|e| e.kind != Kind::Dir).count();
    let dirs = entries.len() - files;
    let counts = format!("{}, {}", count(files, "file"), count(dirs, "directory"));
    if dry_run {
        let mut text = format!("Would delete {shown} ({counts})\n");
        for e in entries.iter().rev().take(MAX_LISTED) {
            let slash = if e.kind == Kind::Dir { "/" } else { "" };
            text.push_str(&format!("  {}{slash}\n", in_shown(&e.rel)));
        }
        if entries.len() > MAX_LISTED {
            text.push_str(&format!("  ... and {} more\n", entries.len() - MAX_LISTED));
        }
        return Ok(Output::text(text).with("dry_run", true));
    }
    // From here the deletion runs to its end even past a timeout or a cancellation.
    let _writing = ctx.gate.writing()?;
    let stop = Stop::watching();
    if let Err((done, rel, err)) = tree::remove(&top, &entries, &stop) {
        let _ = ctx.with_state(|s| s.forget(&path.real));
        let msg = format!(
            "deleting {} failed: {}; {done} of {} were already deleted",
            in_shown(&rel),
            describe(&err),
            count(entries.len(), "entry")
        );
        return Err(match interrupted_by(&err) {
            Some(sig) => ToolError {
                kind: ErrorKind::Interrupted(sig),
                message: msg,
                fields: serde_json::Map::new(),
            },
            None => ToolError::refused(msg),
        });
    }
    loc.dir.rmdir(&loc.name).map_err(cannot)?;
    let _ = loc.dir.sync();
    let note = ctx.with_state(|s| s.forget(&path.real)).err();
    let mut text = format!("Deleted {shown} ({counts})\n");
    if let Some(n) = note {
        text.push_str(&format!(
            "(note: freshness entries were not dropped: {n})\n"
        ));
    }
    Ok(Output::text(text)
        .with("path", path.spelled.clone())
        .with("files", files)
        .with("directories", dirs))
}
