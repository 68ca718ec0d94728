//! `delete-path`: delete a file, a symlink, or a directory (spec 03, "delete-path").
//!
//! A file goes through the write transaction like any write: its lock, the freshness gate
//! (deleting content the caller never saw is refused) and the removal of its freshness entry.
//! A symlink (or another non-regular file) is removed itself, never followed, and needs no
//! read. A directory needs `recursive` unless it is empty; before anything is removed the
//! whole tree is listed without following symlinks, and a protected name anywhere in it, a
//! mount point, or the workspace root itself refuses the whole deletion.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult, io_reason, io_refusal};
use crate::text::editable::EditableText;
use crate::text::path_escape::{encode_path, spelled_path};
use crate::text::plural::count;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::{Access, CheckedPath, fold, resolve};
use crate::workspace::txn::{self, Change, Transaction, WriteOptions};

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

    fn run(ctx: &Ctx, args: DeletePathArgs) -> ToolResult {
        let dry_run = args.dry_run.unwrap_or(false);
        if let Some(link) = non_regular(ctx, &args.path)? {
            return delete_link(ctx, &args.path, &link, dry_run);
        }
        let path = ctx.check_path(&args.path, Access::Write)?;
        let meta = std::fs::symlink_metadata(&path.real)
            .map_err(|e| io_refusal("delete", &args.path, &e))?;
        if meta.is_dir() {
            delete_dir(ctx, &path, args.recursive.unwrap_or(false), dry_run)
        } else {
            delete_file(ctx, &path, dry_run)
        }
    }
}

/// When `spelled` names a symlink or another non-regular, non-directory file (FIFO, socket),
/// the policy-checked path of that entry itself (its folder resolved, its own name kept).
fn non_regular(ctx: &Ctx, spelled: &str) -> Result<Option<CheckedPath>, ToolError> {
    if spelled.is_empty() || spelled.contains('\0') {
        return ctx.check_path(spelled, Access::Write).map(|_| None);
    }
    let literal = fold(&spelled_path(&ctx.cwd, spelled));
    let Ok(meta) = std::fs::symlink_metadata(&literal) else {
        return Ok(None);
    };
    let ft = meta.file_type();
    if ft.is_file() || ft.is_dir() {
        return Ok(None);
    }
    let (Some(parent), Some(name)) = (literal.parent(), literal.file_name()) else {
        return Ok(None);
    };
    let real_parent = resolve(parent).map_err(|_| {
        ToolError::refused(format!(
            "{spelled} cannot be resolved: too many levels of symbolic links"
        ))
    })?;
    let checked = ctx.policy.check_resolved(
        spelled,
        literal.clone(),
        real_parent.join(name),
        Access::Write,
    )?;
    Ok(Some(checked))
}

fn delete_link(ctx: &Ctx, spelled: &str, link: &CheckedPath, dry_run: bool) -> ToolResult {
    let meta = std::fs::symlink_metadata(&link.real)
        .map_err(|e| ToolError::refused(format!("cannot delete {spelled}: {}", io_reason(&e))))?;
    let what = if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&link.real)
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
    std::fs::remove_file(&link.real)
        .map_err(|e| ToolError::refused(format!("cannot delete {spelled}: {}", io_reason(&e))))?;
    let _ = ctx.with_state(|s| s.forget(&link.real));
    Ok(Output::text(format!("Deleted {spelled} ({what})\n")).with("path", spelled))
}

fn delete_file(ctx: &Ctx, path: &CheckedPath, dry_run: bool) -> ToolResult {
    let txn = Transaction::begin(ctx, [path.real.as_path()])?;
    let before = txn.load(path)?.ok_or_else(|| {
        ToolError::refused(format!(
            "{} does not exist; nothing to delete",
            path.spelled
        ))
    })?;
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

/// One entry of a directory tree, children before their folder.
struct Entry {
    path: PathBuf,
    dir: bool,
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
    let top_dev = std::fs::metadata(&path.real)
        .map(|m| m.dev())
        .map_err(|e| ToolError::refused(format!("cannot read {shown}: {}", io_reason(&e))))?;
    let mut entries = Vec::new();
    list_tree(ctx, &path.real, top_dev, &shown, &mut entries)?;
    if !entries.is_empty() && !recursive {
        return Err(ToolError::refused(format!(
            "{shown} is a directory with {}; pass recursive: true to delete it and \
             everything in it",
            count(entries.len(), "entry")
        )));
    }
    let files = entries.iter().filter(|e| !e.dir).count();
    let dirs = entries.len() - files;
    let counts = format!("{}, {}", count(files, "file"), count(dirs, "directory"));
    if dry_run {
        let mut text = format!("Would delete {shown} ({counts})\n");
        for e in entries.iter().rev().take(MAX_LISTED) {
            let rel = e.path.strip_prefix(&path.real).unwrap_or(&e.path);
            let slash = if e.dir { "/" } else { "" };
            text.push_str(&format!("  {shown}{}{slash}\n", encode_path(rel)));
        }
        if entries.len() > MAX_LISTED {
            text.push_str(&format!("  ... and {} more\n", entries.len() - MAX_LISTED));
        }
        return Ok(Output::text(text).with("dry_run", true));
    }
    for (done, e) in entries.iter().enumerate() {
        let r = if e.dir {
            std::fs::remove_dir(&e.path)
        } else {
            std::fs::remove_file(&e.path)
        };
        if let Err(err) = r {
            let _ = ctx.with_state(|s| s.forget(&path.real));
            return Err(ToolError::refused(format!(
                "deleting {} failed: {}; {done} of {} were already deleted",
                ctx.display(&e.path),
                io_reason(&err),
                count(entries.len(), "entry")
            )));
        }
    }
    std::fs::remove_dir(&path.real)
        .map_err(|e| ToolError::refused(format!("cannot delete {shown}: {}", io_reason(&e))))?;
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

/// Lists everything under `dir`, children first, without following symlinks. Refuses a
/// protected name or another filesystem anywhere inside.
fn list_tree(
    ctx: &Ctx,
    dir: &Path,
    dev: u64,
    shown: &str,
    out: &mut Vec<Entry>,
) -> Result<(), ToolError> {
    let read = std::fs::read_dir(dir).map_err(|e| {
        ToolError::refused(format!(
            "cannot list {}: {}",
            ctx.display(dir),
            io_reason(&e)
        ))
    })?;
    for item in read {
        let item = item.map_err(|e| ToolError::refused(format!("cannot list {shown}: {e}")))?;
        let p = item.path();
        if ctx.policy.is_protected_name(&item.file_name()) {
            return Err(ToolError::refused(format!(
                "{shown} contains {}, which agtool never deletes; nothing was deleted",
                ctx.display(&p)
            )));
        }
        let meta = std::fs::symlink_metadata(&p)
            .map_err(|e| ToolError::refused(format!("cannot read {}: {e}", ctx.display(&p))))?;
        if meta.is_dir() {
            if meta.dev() != dev {
                return Err(ToolError::refused(format!(
                    "{} is a mount point; agtool does not delete across filesystems; nothing was \
                     deleted",
                    ctx.display(&p)
                )));
            }
            list_tree(ctx, &p, dev, shown, out)?;
            out.push(Entry { path: p, dir: true });
        } else {
            out.push(Entry {
                path: p,
                dir: false,
            });
        }
    }
    Ok(())
}
