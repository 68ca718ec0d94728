//! A folder's entries as an indented tree, paged (spec 02, "list-dir"): the listing behind
//! list-dir and read-file of a folder, and the wording of walk errors.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::describe;
use crate::search::walk::{Base, WalkRules, describe_walk_error};
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
    // through it, and every entry shown is one its folder's handle lists ([`Folders`]).
    let handle = ctx.fs.open_dir(dir).map_err(|e| {
        ToolError::refused(format!("cannot list {}: {}", dir.spelled, describe(&e)))
    })?;
    let top = Folder::read(handle).map_err(|e| {
        ToolError::refused(format!("cannot list {}: {}", dir.spelled, describe(&e)))
    })?;
    let folders = Arc::new(Mutex::new(Folders {
        open: vec![Some(top)],
        max_depth: depth as usize,
    }));
    let base = Base::new(dir, None);
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
    let rule_hidden = crate::search::walk::rule_hidden(ctx, &base, rules.tool);
    let fence = Arc::clone(&folders);
    // Deny-read names are neither listed nor entered; `.git` is listed but never entered.
    builder.filter_entry(move |e| {
        if policy.is_denied_name(e.file_name()) {
            return false;
        }
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        if rule_hidden.as_ref().is_some_and(|h| h(e.path(), is_dir)) {
            return false;
        }
        lock(&fence).admit(e.depth(), e.file_name())
    });
    let mut entries: Vec<String> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for item in builder.build() {
        match item {
            Ok(e) if e.depth() == 0 => {}
            Ok(e) => {
                // Shown as its folder's handle lists it (admitted by the filter above).
                let Some(kind) = lock(&folders).kind(e.depth(), e.file_name()) else {
                    continue;
                };
                let name = encode(e.file_name());
                let name = cut_name(&name);
                let indent = "  ".repeat(e.depth() - 1);
                entries.push(format!("{indent}{name}{}", suffix(kind)));
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

/// A folder the listing entered: its handle, and its entries with their kinds as listed
/// through that handle.
struct Folder {
    dir: Dir,
    kinds: HashMap<OsString, Kind>,
}

impl Folder {
    /// Reads the entries of `dir` through the handle; an entry whose kind the listing does
    /// not give is looked up (`fstatat`, not following a symlink), and left out if it is gone.
    fn read(mut dir: Dir) -> std::io::Result<Folder> {
        let mut kinds = HashMap::new();
        for entry in dir.entries_mut()? {
            let kind = match entry.kind {
                Some(kind) => kind,
                None => match dir.stat_at(&entry.name) {
                    Ok(st) => st.kind,
                    Err(_) => continue,
                },
            };
            kinds.insert(entry.name, kind);
        }
        Ok(Folder { dir, kinds })
    }
}

/// The handle fence of list-dir's walk (search::walk, "Races"). The `ignore` walker reads
/// folders by path, in depth-first order sorted by name; this keeps, for each depth, the folder
/// the walk is in, opened through its parent's handle without following symlinks. An entry is
/// admitted only if the handle of its folder lists it, and is shown with the kind that listing
/// gives; a folder is entered only if it opens that way as a folder. A name the walker read
/// from an outside folder swapped in by a race is then either not found or the inside entry of
/// the same name, and nothing of the outside is shown. One `readdir` per folder through the
/// handle replaces a `stat` per entry.
struct Folders {
    /// `open[d]`: the folder at depth `d` that the walk is in (0: the listed folder); `None`
    /// for a folder that is shown but not entered (`.git`, one that cannot be opened).
    open: Vec<Option<Folder>>,
    /// The walk's depth limit: folders at that depth are shown, never entered.
    max_depth: usize,
}

impl Folders {
    /// The kind of `name`, an entry at `depth` ≥ 1, as its folder's handle lists it.
    fn kind(&self, depth: usize, name: &OsStr) -> Option<Kind> {
        let folder = self.open.get(depth.checked_sub(1)?)?.as_ref()?;
        folder.kinds.get(name).copied()
    }

    /// Whether the walker may yield `name` at `depth` (and, for a folder, walk into it): its
    /// folder lists it. A folder is opened here, through its parent's handle, as the folder
    /// at `depth`; `.git` and folders that cannot be read are shown but not entered, and a
    /// folder that no longer opens as one (swapped for a symlink) is left out.
    fn admit(&mut self, depth: usize, name: &OsStr) -> bool {
        let Some(kind) = self.kind(depth, name) else {
            return false;
        };
        if kind != Kind::Dir {
            return true;
        }
        let entered = if depth >= self.max_depth || name == ".git" {
            None
        } else {
            let parent = self.open[depth - 1].as_ref().expect("listed above");
            match parent.dir.open_dir(std::path::Path::new(name)) {
                // Unreadable: shown, and the walker's own read of it says why.
                Ok(dir) => Folder::read(dir).ok(),
                Err(e) if crate::fileio::beneath::is_swapped(&e) => return false,
                Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => return false,
                Err(_) => None,
            }
        };
        self.open.truncate(depth);
        self.open.push(entered);
        true
    }
}

fn lock(folders: &Mutex<Folders>) -> MutexGuard<'_, Folders> {
    folders.lock().unwrap_or_else(|p| p.into_inner())
}
