//! A folder's entries as an indented tree, paged (spec 02, "list-dir"): the listing behind
//! list-dir and read-file of a folder, walked depth first through handles in name order.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::error::{Output, ToolError, ToolResult, io_reason};
use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::describe;
use crate::search::handle_walk::{LeftOut, Listed, handle_budget, top_rules, vanished};
use crate::search::ignore_rules::IgnoreRules;
use crate::search::walk::{Base, WalkRules};
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
///
/// The walk is our own, through handles: each folder is opened from its parent's handle
/// without following symlinks and listed once through it (`getdents`), and every entry shown
/// is one that listing holds, with the kind it gives. Ignore rules are those of the `ignore`
/// crate's walker ([`IgnoreRules`]), read through the same handles.
pub fn listing(
    ctx: &Ctx,
    dir: &CheckedPath,
    offset: u64,
    limit: u64,
    depth: u64,
    rules: WalkRules,
) -> ToolResult {
    let cannot = |e: std::io::Error| {
        ToolError::refused(format!("cannot list {}: {}", dir.spelled, describe(&e)))
    };
    let mut handle = ctx.fs.open_dir(dir).map_err(cannot)?;
    let top = sorted(Listed::read(&mut handle).map_err(cannot)?);
    let mut walk = Walk {
        ctx,
        max_depth: usize::try_from(depth).unwrap_or(usize::MAX),
        left_out: LeftOut::new(ctx, &Base::new(dir, None), rules),
        lines: Vec::new(),
        problems: Vec::new(),
    };
    let mut ignore = None;
    if !rules.ignored {
        let bad_ignore_file = |why: String| {
            ToolError::refused(format!(
                "cannot list {}: {why}; list with ignored=true to skip ignore files",
                dir.spelled,
            ))
        };
        let (rules, above) =
            top_rules(ctx, &dir.real, &handle, top.present).map_err(bad_ignore_file)?;
        walk.problems.extend(above);
        ignore = Some(rules);
    }
    walk.run(handle, top, ignore, dir.real.clone());
    let Walk {
        lines: entries,
        problems,
        ..
    } = walk;
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

/// `listed` with its entries in name order.
fn sorted(mut listed: Listed) -> Listed {
    listed.entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    listed
}

/// One folder the walk is in: its handle (None: closed, as too many were open; its folders are
/// then opened from the listed folder's handle by relative path), its listing (sorted), the
/// ignore rules in force in it (None: `ignored`), and the next entry to look at.
struct Frame {
    dir: Option<Dir>,
    listed: Listed,
    rules: Option<IgnoreRules>,
    next: usize,
}

/// The state of one listing's walk.
struct Walk<'a> {
    ctx: &'a Ctx,
    /// Folders at this depth are shown, never entered.
    max_depth: usize,
    left_out: LeftOut<'a>,
    /// The tree's lines, in order.
    lines: Vec<String>,
    /// Folders shown but not listed, and why.
    problems: Vec<String>,
}

impl Walk<'_> {
    /// Walks depth first from `top` (the listed folder, its rules entered), its entries in
    /// name order, each folder's entries right after it. `path` is the folder's resolved path.
    fn run(&mut self, dir: Dir, listed: Listed, rules: Option<IgnoreRules>, mut path: PathBuf) {
        let mut rel = PathBuf::new();
        let budget = handle_budget();
        let mut stack = vec![Frame {
            dir: Some(dir),
            listed,
            rules,
            next: 0,
        }];
        while let Some(frame) = stack.last_mut() {
            let Some((name, kind)) = frame.listed.entries.get(frame.next) else {
                stack.pop();
                if !stack.is_empty() {
                    rel.pop();
                    path.pop();
                }
                continue;
            };
            frame.next += 1;
            let (name, kind) = (name.clone(), *kind);
            let depth = stack.len();
            let frame = stack.last().expect("looked at above");
            path.push(&name);
            let is_dir = kind == Kind::Dir;
            if self
                .left_out
                .entry(frame.rules.as_ref(), &name, &path, is_dir)
            {
                path.pop();
                continue;
            }
            if !is_dir || depth >= self.max_depth || name.eq_ignore_ascii_case(".git") {
                self.lines.push(entry_line(depth, &name, kind));
                path.pop();
                continue;
            }
            let opened = match &frame.dir {
                Some(dir) => dir.open_dir(Path::new(&name)),
                None => {
                    let top = stack[0].dir.as_ref().expect("the listed folder stays open");
                    top.open_dir(&rel.join(&name))
                }
            };
            let mut child = match opened {
                Ok(child) => child,
                Err(e) if vanished(&e) => {
                    path.pop();
                    continue;
                }
                Err(e) => {
                    self.lines.push(entry_line(depth, &name, kind));
                    self.problems
                        .push(format!("{}: {}", self.ctx.display(&path), io_reason(&e)));
                    path.pop();
                    continue;
                }
            };
            self.lines.push(entry_line(depth, &name, kind));
            let listed = match Listed::read(&mut child) {
                Ok(listed) => sorted(listed),
                Err(e) => {
                    self.problems
                        .push(format!("{}: {}", self.ctx.display(&path), io_reason(&e)));
                    path.pop();
                    continue;
                }
            };
            let rules = match frame
                .rules
                .as_ref()
                .map(|r| r.enter(&child, listed.present))
            {
                None => None,
                Some(Ok(rules)) => Some(rules),
                Some(Err(why)) => {
                    rel.push(&name);
                    self.problems
                        .push(format!("{}: not entered: {why}", encode_path(&rel)));
                    rel.pop();
                    path.pop();
                    continue;
                }
            };
            rel.push(&name);
            stack.push(Frame {
                dir: Some(child),
                listed,
                rules,
                next: 0,
            });
            // At most `budget` handles below the listed folder's: the oldest is closed.
            if let Some(oldest) = stack.len().checked_sub(budget + 1)
                && oldest >= 1
            {
                stack[oldest].dir = None;
            }
        }
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
