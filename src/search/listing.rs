//! A folder's entries as an indented tree, paged (spec 02, "list-dir"): the listing behind
//! list-dir and read-file of a folder, and the wording of walk errors.

use std::ffi::OsStr;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::beneath::Kind;
use crate::fileio::fs::describe;
use crate::search::walk::{Base, WalkRules, describe_walk_error, still_a_folder};
use crate::text::path_escape::{encode, encode_path};
use crate::text::plural::count;
use crate::text::render::cut_at_boundary;
use crate::workspace::context::Ctx;
use crate::workspace::policy::CheckedPath;

/// Default entries per page.
pub const DEFAULT_LIMIT: u64 = 25;
/// Default depth.
pub const DEFAULT_DEPTH: u64 = 2;
/// Longest entry name shown, in bytes.
const MAX_NAME_BYTES: usize = 500;

fn suffix(kind: Kind) -> &'static str {
    match kind {
        Kind::Symlink => "@",
        Kind::Dir => "/",
        Kind::File => "",
        _ => "?",
    }
}

/// A printed name cut to [`MAX_NAME_BYTES`] at a char boundary, never inside an escape
/// (`\xHH`): a cut escape would read back as other bytes.
fn cut_name(name: &str) -> &str {
    let kept = cut_at_boundary(name, MAX_NAME_BYTES);
    if kept.len() == name.len() {
        return kept;
    }
    let from = kept.len().saturating_sub(3);
    match kept.as_bytes()[from..].iter().rposition(|&b| b == b'\\') {
        // An escape starts in the last 3 bytes: a byte is on ASCII, so `at` is a boundary.
        Some(i) => &kept[..from + i],
        None => kept,
    }
}

/// The listing of a checked folder (also used by read-file for a directory). `offset`,
/// `limit` and `depth` are ≥ 1 (the schema enforces it); `rules` say which entries are left
/// out, as for the walk of glob and grep.
pub fn listing(
    ctx: &Ctx,
    dir: &CheckedPath,
    offset: u64,
    limit: u64,
    depth: u64,
    rules: WalkRules,
) -> ToolResult {
    // The folder as a handle: the walk enters only folders that are real folders reached
    // through it, and every entry shown is looked up through it (search::walk, "Races").
    let handle = ctx.fs.open_dir(dir).map_err(|e| {
        ToolError::refused(format!("cannot list {}: {}", dir.spelled, describe(&e)))
    })?;
    let base = Base::new(dir, Some(handle));
    let mut reach = base.reach();
    let fence = base.dir.clone().expect("opened above");
    let mut builder = ignore::WalkBuilder::new(&dir.real);
    builder
        .max_depth(Some(depth as usize))
        .hidden(!rules.hidden)
        .follow_links(false)
        .sort_by_file_name(|a: &OsStr, b: &OsStr| a.cmp(b))
        // Inside a repository, gitignore files above its root do not apply (the walk rules
        // glob and grep share, spec 02).
        .require_git(crate::search::walk::in_git_repository(&dir.real))
        .git_ignore(!rules.ignored)
        .git_exclude(!rules.ignored)
        .git_global(!rules.ignored)
        .ignore(!rules.ignored)
        .parents(!rules.ignored);
    let policy = ctx.policy.clone();
    let real = dir.real.clone();
    let rule_hidden = crate::search::walk::rule_hidden(ctx, &base, rules.tool);
    // `.git` is listed but never expanded; deny-read names are neither listed nor entered.
    builder.filter_entry(move |e| {
        let in_git = e
            .path()
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|n| n == ".git")
            && e.depth() > 1;
        if in_git || policy.is_denied_name(e.file_name()) {
            return false;
        }
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        if e.depth() > 0 && rule_hidden.as_ref().is_some_and(|h| h(e.path(), is_dir)) {
            return false;
        }
        e.depth() == 0 || !is_dir || still_a_folder(&fence, &real, e.path())
    });
    let mut entries: Vec<String> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for item in builder.build() {
        match item {
            Ok(e) if e.depth() == 0 => {}
            Ok(e) => {
                // Shown only if it is inside, with what it is there.
                let Some(st) = reach.stat(e.path()) else {
                    continue;
                };
                let name = encode(e.file_name());
                let name = cut_name(&name);
                let indent = "  ".repeat(e.depth() - 1);
                entries.push(format!("{indent}{name}{}", suffix(st.kind)));
            }
            Err(err) => problems.push(describe_walk_error(ctx, &err)),
        }
    }
    let mut text = format!("Absolute path: {}\n", encode_path(&dir.real));
    let total = entries.len() as u64;
    if total > 0 && offset > total {
        return Err(ToolError::refused(format!(
            "offset {offset} is past the last entry ({total})"
        )));
    }
    let start = (offset - 1) as usize;
    let end = (start as u64 + limit).min(total) as usize;
    for line in &entries[start..end] {
        text.push_str(line);
        text.push('\n');
    }
    if (end as u64) < total {
        text.push_str(&format!(
            "More than {} found; continue with offset={}\n",
            count(end - start, "entry"),
            end + 1
        ));
    }
    if total == 0 {
        text.push_str("(empty folder)\n");
    }
    for p in &problems {
        text.push_str(&format!("(skipped: {p})\n"));
    }
    Ok(Output::text(text).with("entries", total))
}
