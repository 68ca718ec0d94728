//! A folder's entries as an indented tree, paged (spec 02, "list-dir"): the listing behind
//! list-dir and read-file of a folder, and the wording of walk errors.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::describe;
use crate::search::walk::{
    Base, IGNORE_FILES, WalkRules, describe_walk_error, unreadable_ancestor_ignore_file,
    unreadable_ignore_file,
};
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
    if !rules.ignored
        && let Some(why) = top
            .unreadable_ignore_file()
            .or_else(|| unreadable_ancestor_ignore_file(&dir.real))
    {
        return Err(ToolError::refused(format!(
            "cannot list {}: {why}; list with ignored=true to skip ignore files",
            dir.spelled,
        )));
    }
    let folders = Arc::new(Mutex::new(Folders {
        open: vec![Some(top)],
        max_depth: depth as usize,
        reads_ignore_files: !rules.ignored,
        problems: Vec::new(),
        shown_here: Vec::new(),
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
    let real = dir.real.clone();
    // Deny-read names are neither listed nor entered; `.git` is listed but never entered.
    builder.filter_entry(move |e| {
        if policy.is_denied_name(e.file_name()) {
            return false;
        }
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        if rule_hidden.as_ref().is_some_and(|h| h(e.path(), is_dir)) {
            return false;
        }
        let rel = e.path().strip_prefix(&real).unwrap_or(e.path());
        lock(&fence).admit(e.depth(), e.file_name(), e.ino(), rel)
    });
    let mut entries: Vec<String> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for item in builder.build() {
        entries.append(&mut lock(&folders).shown_here);
        match item {
            Ok(e) if e.depth() == 0 => {}
            Ok(e) => {
                // Shown as its folder's handle lists it (admitted by the filter above).
                let Some((kind, _)) = lock(&folders).entry(e.depth(), e.file_name()) else {
                    continue;
                };
                entries.push(entry_line(e.depth(), e.file_name(), kind));
            }
            Err(err) => problems.push(describe_walk_error(ctx, &err)),
        }
    }
    let mut fence = lock(&folders);
    entries.append(&mut fence.shown_here);
    problems.append(&mut fence.problems);
    drop(fence);
    let mut text = format!("Absolute path: {}\n", encode_path(&dir.real));
    let total = entries.len() as u64;
    if offset > total.max(1) {
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

/// A folder the listing entered: its handle, and its entries with their kinds and inode
/// numbers as listed through that handle.
struct Folder {
    dir: Dir,
    entries: HashMap<OsString, (Kind, u64)>,
}

impl Folder {
    /// Reads the entries of `dir` through the handle; an entry whose kind the listing does
    /// not give is looked up (`fstatat`, not following a symlink), and left out if it is gone.
    fn read(mut dir: Dir) -> std::io::Result<Folder> {
        let mut entries = HashMap::new();
        for entry in dir.entries_mut()? {
            let kind = match entry.kind {
                Some(kind) => kind,
                None => match dir.stat_at(&entry.name) {
                    Ok(st) => st.kind,
                    Err(_) => continue,
                },
            };
            entries.insert(entry.name, (kind, entry.ino));
        }
        Ok(Folder { dir, entries })
    }

    /// Why the walker must not enter this folder because of an ignore file there
    /// ([`unreadable_ignore_file`]); looked up only when the listing has one of the names.
    fn unreadable_ignore_file(&self) -> Option<String> {
        let has = |n: &str| self.entries.contains_key(OsStr::new(n));
        (IGNORE_FILES.iter().any(|n| has(n)) || has(".git"))
            .then(|| unreadable_ignore_file(&self.dir))
            .flatten()
    }
}

/// The handle fence of list-dir's walk (search::walk, "Races"). The `ignore` walker reads
/// folders by path, in depth-first order sorted by name; this keeps, for each depth, the folder
/// the walk is in, opened through its parent's handle without following symlinks. An entry is
/// admitted only if the handle of its folder lists it under the same inode number the walker
/// read, and is shown with the kind that listing gives; a folder is entered only if it opens
/// that way as a folder. Under a race that swaps a folder for a symlink, the walker may read an
/// outside folder by path: none of its entries has an inside entry's name and inode number, so
/// nothing of it is shown, not even which inside names it shares. One `readdir` per folder
/// through the handle replaces a `stat` per entry.
struct Folders {
    /// `open[d]`: the folder at depth `d` that the walk is in (0: the listed folder); `None`
    /// for an entry that is shown but not entered (a file, `.git`, a folder that cannot be
    /// opened), so that nothing is admitted below it.
    open: Vec<Option<Folder>>,
    /// The walk's depth limit: folders at that depth are shown, never entered.
    max_depth: usize,
    /// Whether the walker reads ignore files (`ignored` is false).
    reads_ignore_files: bool,
    /// Folders shown but not entered because of an ignore file the walker cannot read.
    problems: Vec<String>,
    /// Lines of folders the walker is not given (see `problems`), shown before the next entry
    /// the walker yields: the place they have in the sorted tree.
    shown_here: Vec<String>,
}

impl Folders {
    /// The kind and inode number of `name`, an entry at `depth` ≥ 1, as its folder's handle
    /// lists it.
    fn entry(&self, depth: usize, name: &OsStr) -> Option<(Kind, u64)> {
        let folder = self.open.get(depth.checked_sub(1)?)?.as_ref()?;
        folder.entries.get(name).copied()
    }

    /// Whether the walker may yield the entry `name` at `depth` with inode number `ino` (and,
    /// for a folder, walk into it): its folder's handle lists it so. A folder is opened here,
    /// through its parent's handle, as the folder at `depth`; `.git` and folders that cannot
    /// be read are shown but not entered, and a folder that no longer opens as one (swapped
    /// for a symlink) is left out. `path` names the entry in problems.
    fn admit(&mut self, depth: usize, name: &OsStr, ino: Option<u64>, path: &Path) -> bool {
        let Some((kind, listed_ino)) = self.entry(depth, name) else {
            return false;
        };
        if ino.is_some_and(|ino| ino != listed_ino) {
            return false;
        }
        let entered =
            if kind != Kind::Dir || depth >= self.max_depth || name.eq_ignore_ascii_case(".git") {
                None
            } else {
                let parent = self.open[depth - 1].as_ref().expect("listed above");
                match parent.dir.open_dir(Path::new(name)) {
                    // Unreadable: shown, and the walker's own read of it says why.
                    Ok(dir) => Folder::read(dir).ok(),
                    Err(e) if crate::fileio::beneath::is_swapped(&e) => return false,
                    Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => return false,
                    Err(_) => None,
                }
            };
        if let Some(why) = entered
            .as_ref()
            .filter(|_| self.reads_ignore_files)
            .and_then(Folder::unreadable_ignore_file)
        {
            // The walker would read it on entering: shown here, and the walker never gets it.
            self.problems
                .push(format!("{}: not entered: {why}", encode_path(path)));
            self.shown_here.push(entry_line(depth, name, Kind::Dir));
            return false;
        }
        self.open.truncate(depth);
        self.open.push(entered);
        true
    }
}

/// An entry's line in the tree: indented two spaces per level below the first, its name
/// escaped and cut, its kind's suffix.
fn entry_line(depth: usize, name: &OsStr, kind: Kind) -> String {
    let name = encode(name);
    let name = cut_name(&name);
    let indent = "  ".repeat(depth.saturating_sub(1));
    format!("{indent}{name}{}", suffix(kind))
}

fn lock(folders: &Mutex<Folders>) -> MutexGuard<'_, Folders> {
    folders.lock().unwrap_or_else(|p| p.into_inner())
}
