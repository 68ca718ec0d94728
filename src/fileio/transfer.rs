//! Moving and copying files, symlinks and folders, and making folders (spec 03, "move-path,
//! copy-path, make-dir"): the core of the move-path, copy-path and make-dir tools.
//!
//! Order of work: policy on both ends (a move's source and every destination for writing, a
//! copy's source for reading) → the destination spelled with a trailing `/` names the folder
//! to put the source in → both path locks ([`Transaction`]) → both ends looked at again under
//! the locks → the destination judged (absent; or a file or symlink replaced only with
//! `overwrite`, a replaced file passing the freshness gate) → a folder listed through handles
//! ([`tree`]) → `dry_run` stops here → the change → freshness entries moved.
//!
//! - A symlink is moved or copied as a link (its text kept), never followed; a moved link to
//!   an outside path still points there, and its target is never touched.
//! - A move on one filesystem is one `rename` through the folder handles (`RENAME_NOREPLACE`
//!   unless a file or link is replaced). Across filesystems (`EXDEV`) it is a copy, fsynced,
//!   then the source removed, all or nothing through the journal
//!   ([`journal::transfer`]). A move keeps everything: permission bits (setuid, setgid and
//!   sticky too) and modification times, across filesystems as well.
//! - A copy is built under a temp name beside its destination and appears in one rename,
//!   through the same journal, so a kill leaves the old state or the whole copy, never part
//!   of it. A copy keeps the permission bits except setuid and setgid (a copy agtool makes
//!   never grants more than its source); its modification times are new, as `cp` gives
//!   without `-p`. Hard links inside a copied folder become separate files.
//! - Protected names ([`crate::workspace::policy::BUILTIN_PROTECTED`] and config) are never
//!   written: a move of a folder holding one is refused as a whole (moving it would delete it
//!   there and write it here); a copy of a folder leaves them out, and the names denied for
//!   reading too, and says which.
//! - FIFOs, sockets and devices are never copied (refused; inside a folder too): a move
//!   renames them on one filesystem, and refuses across filesystems.
//! - A folder is never replaced or merged into, and a folder holding a mount point is not
//!   moved or copied.

use std::ffi::OsStr;
use std::io;
use std::path::Path;

use crate::error::{ErrorKind, Output, ToolError, ToolResult};
use crate::fileio::beneath::{Dir, Kind, Stat};
use crate::fileio::copy::{Keep, copy_entry};
use crate::fileio::env::WriteEnv;
use crate::fileio::fs::{Stop, describe, interrupted_by, refusal, timed_out_by};
use crate::fileio::journal::{self, CommitError, Left};
use crate::fileio::tree::{self, Listing, TreeStop, Verdict};
use crate::fileio::txn::Transaction;
use crate::text::editable::EditableText;
use crate::text::path_escape::encode_path;
use crate::text::plural::count;
use crate::workspace::policy::{Access, CheckedPath};

/// What a move across filesystems is, in its answer.
const ACROSS: &str = "across filesystems: copied, then the source removed";
/// Most skipped names a copy lists.
const MAX_LISTED: usize = 20;

/// Which operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// move-path.
    Move,
    /// copy-path; `recursive` is needed for a folder.
    Copy {
        /// Copy a folder and everything in it.
        recursive: bool,
    },
}

impl Op {
    fn verb(self) -> &'static str {
        match self {
            Op::Move => "move",
            Op::Copy { .. } => "copy",
        }
    }

    fn done(self) -> &'static str {
        match self {
            Op::Move => "Moved",
            Op::Copy { .. } => "Copied",
        }
    }
}

/// One move-path or copy-path call (spec 03 arguments).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Move or copy.
    pub op: Op,
    /// The source as the caller spelled it.
    pub source: &'a str,
    /// The destination as the caller spelled it (a trailing `/`: into that folder).
    pub destination: &'a str,
    /// Replace an existing file or symlink at the destination.
    pub overwrite: bool,
    /// Say what would happen, change nothing.
    pub dry_run: bool,
    /// The call's timeout in ms, counted from `started`: copying bytes stops there and is
    /// undone (exit 124) rather than running past it. None: no limit.
    pub timeout_ms: Option<u64>,
    /// When the call began.
    pub started: std::time::Instant,
}

/// Runs a move-path or copy-path call (module doc). Output: `Moved a → b`, `Copied a → b (<n>
/// files)` and the like; `dry_run`: `Would move a → b`. Errors are refusals naming the path
/// and what to do; an interruption by a signal keeps its kind.
pub fn run(env: &dyn WriteEnv, req: &Request<'_>) -> ToolResult {
    let verb = req.op.verb();
    let access = match req.op {
        Op::Move => Access::Write,
        Op::Copy { .. } => Access::Read,
    };
    // The entry the path names: a final symlink is the link.
    let src = env.check_entry(req.source, access)?;
    if req.op == Op::Move
        && (src.real == env.root()
            || src.real == env.policy().root()
            || env.root().starts_with(&src.real))
    {
        return Err(ToolError::refused(format!(
            "{} is the workspace root (or holds it); agtool never moves it",
            req.source
        )));
    }
    if let Op::Copy { .. } = req.op
        && let Some(name) = env.policy().protected_in(&src)
    {
        return Err(ToolError::refused(format!(
            "{} is or is under {name}, a protected name; agtool copies nothing under a \
             protected name; nothing was copied",
            req.source
        )));
    }
    let st = stat_source(env, &src, verb)?;
    refuse_source_kind(req, &st)?;
    let (dst, into) = destination(env, req.destination, &src)?;
    if let Some((what, kind)) = crate::fileio::mkdir::non_folder_above(env, &dst) {
        return Err(ToolError::refused(format!(
            "{}; nothing was {}",
            crate::fileio::mkdir::not_a_folder(&what, kind, &dst.spelled),
            if req.op == Op::Move {
                "moved"
            } else {
                "copied"
            }
        )));
    }
    if dst.real == src.real {
        return Err(ToolError::refused(format!(
            "{} and {} are the same path; nothing to {verb}",
            req.source, dst.spelled
        )));
    }
    if st.kind == Kind::Dir && dst.real.starts_with(&src.real) {
        return Err(ToolError::refused(format!(
            "cannot {verb} the folder {} into itself ({} is inside it)",
            req.source, dst.spelled
        )));
    }
    let txn = Transaction::begin(env, [src.real.as_path(), dst.real.as_path()])?;
    // Under the locks, both ends as they are now.
    let st = stat_source(env, &src, verb)?;
    refuse_source_kind(req, &st)?;
    let dst_st = match env.fs().stat(&dst) {
        Ok(s) => Some(s),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(refusal(verb, &dst.spelled, &e)),
    };
    let replace = judge_destination(env, &txn, req, &src, &st, &dst, dst_st, into)?;
    let listing = match st.kind {
        Kind::Dir => list_source(env, &src, req.op)?,
        _ => Listing::default(),
    };
    let across = req.op == Op::Move && across_filesystems(env, &st, &dst);
    if across && matches!(st.kind, Kind::Fifo | Kind::Socket | Kind::Device) {
        return Err(ToolError::refused(format!(
            "{} is a {}; agtool moves one only within a filesystem, and {} is on another",
            req.source,
            st.kind.name(),
            dst.spelled
        )));
    }
    let shown = Shown::new(env, req, &src, &st, &dst, &listing);
    if req.dry_run {
        let mut details = shown.details.clone();
        if let Some(kind) = replace {
            details.push(format!("replacing the {} there", kind.name()));
        }
        if across {
            details.push(ACROSS.to_owned());
        }
        let mut text = format!(
            "Would {verb} {} → {}{}\n",
            shown.from,
            shown.to,
            parens(&details)
        );
        shown.push_skipped(&mut text);
        return Ok(shown.fields(Output::text(text).with("dry_run", true)));
    }

    // From here the call runs to its end even past its timeout (see write_gate); a
    // termination signal stops it before its commit point and undoes it.
    let _writing = env.gate().writing()?;
    let mut stop = Stop::watching();
    if let Some(ms) = req.timeout_ms {
        stop = stop.with_deadline(req.started + std::time::Duration::from_millis(ms), ms);
    }
    let moved_across = match req.op {
        Op::Move => move_entry(env, &src, &st, &listing, &dst, replace.is_some(), &stop)?,
        Op::Copy { .. } => {
            copy_entry_into_place(env, &src, &st, &listing, &dst, replace.is_some(), &stop)?;
            false
        }
    };
    let note = match req.op {
        Op::Move => env.move_tags(&src.real, &dst.real),
        Op::Copy { .. } => env.forget_tag(&dst.real),
    }
    .err();
    let mut details = shown.details.clone();
    if let Some(kind) = replace {
        details.push(format!("replaced the {} that was there", kind.name()));
    }
    if moved_across {
        details.push(ACROSS.to_owned());
    }
    let mut text = format!(
        "{} {} → {}{}\n",
        req.op.done(),
        shown.from,
        shown.to,
        parens(&details)
    );
    shown.push_skipped(&mut text);
    if let Some(n) = note {
        text.push_str(&format!(
            "(note: the freshness records were not updated: {n}; read the file again before \
             editing it)\n"
        ));
    }
    let out = shown
        .fields(Output::text(text))
        .with("replaced", replace.is_some())
        .with("across_filesystems", moved_across);
    if let Some(sig) = stop.received() {
        // The signal came after the commit point: the change stands, and agtool was still
        // asked to stop.
        return Err(ToolError {
            kind: ErrorKind::Interrupted(sig),
            message: format!(
                "{} arrived after the point of no return: {}",
                crate::interrupt::signal_name(sig),
                out.text.lines().next().unwrap_or_default()
            ),
            fields: serde_json::Map::new(),
        });
    }
    Ok(out)
}

/// `" (a; b)"`, or nothing.
fn parens(details: &[String]) -> String {
    if details.is_empty() {
        String::new()
    } else {
        format!(" ({})", details.join("; "))
    }
}

/// The paths and facts an answer shows.
struct Shown {
    from: String,
    to: String,
    details: Vec<String>,
    files: usize,
    dirs: usize,
    skipped: Vec<String>,
}

impl Shown {
    fn new(
        env: &dyn WriteEnv,
        req: &Request<'_>,
        src: &CheckedPath,
        st: &Stat,
        dst: &CheckedPath,
        listing: &Listing,
    ) -> Shown {
        let slash = |s: &str| format!("{}/", s.trim_end_matches('/'));
        let (from, to) = if st.kind == Kind::Dir {
            (slash(req.source), slash(&dst.spelled))
        } else {
            (req.source.to_owned(), dst.spelled.clone())
        };
        // Counted as delete-path counts: every entry that is not a folder is a file; the
        // folders inside, not the top one.
        let dirs = listing
            .entries
            .iter()
            .filter(|e| e.kind == Kind::Dir)
            .count();
        let files = match st.kind {
            Kind::Dir => listing.entries.len() - dirs,
            _ => 1,
        };
        let mut details = Vec::new();
        match st.kind {
            Kind::Dir => details.push(format!(
                "{}, {}",
                count(files, "file"),
                count(dirs, "directory")
            )),
            Kind::Symlink => {
                let target = env
                    .fs()
                    .parent(src)
                    .and_then(|l| l.dir.read_link(&l.name))
                    .map(|t| encode_path(&t).into_owned())
                    .unwrap_or_default();
                details.push(format!(
                    "a symlink to {target}, {} as a link; its target was not touched",
                    if req.op == Op::Move {
                        "moved"
                    } else {
                        "copied"
                    }
                ));
            }
            Kind::File if req.op != Op::Move => details.push(count(1usize, "file")),
            Kind::File => {}
            other => details.push(format!("a {}", other.name())),
        }
        let skipped = listing
            .skipped
            .iter()
            .map(|rel| format!("{from}{}", encode_path(rel)))
            .collect();
        Shown {
            from,
            to,
            details,
            files,
            dirs,
            skipped,
        }
    }

    /// The line naming what a folder copy left out.
    fn push_skipped(&self, text: &mut String) {
        if self.skipped.is_empty() {
            return;
        }
        let mut names: Vec<&str> = self
            .skipped
            .iter()
            .take(MAX_LISTED)
            .map(String::as_str)
            .collect();
        let more = self.skipped.len().saturating_sub(MAX_LISTED);
        let more_text = format!("and {more} more");
        if more > 0 {
            names.push(&more_text);
        }
        text.push_str(&format!(
            "Left out {} (protected or read-denied names, FIFOs, sockets and devices are never \
             copied): {}\n",
            count(self.skipped.len(), "entry"),
            names.join(", ")
        ));
    }

    fn fields(&self, out: Output) -> Output {
        out.with("source", self.from.clone())
            .with("destination", self.to.clone())
            .with("files", self.files)
            .with("directories", self.dirs)
            .with("skipped", self.skipped.clone())
    }
}

/// The source's own metadata (a symlink describes itself).
fn stat_source(env: &dyn WriteEnv, src: &CheckedPath, verb: &str) -> Result<Stat, ToolError> {
    env.fs()
        .stat(src)
        .map_err(|e| refusal(verb, &src.spelled, &e))
}

/// What copy-path refuses to take: special files, and a folder without `recursive`.
fn refuse_source_kind(req: &Request<'_>, st: &Stat) -> Result<(), ToolError> {
    let Op::Copy { recursive } = req.op else {
        return Ok(());
    };
    match st.kind {
        Kind::Fifo | Kind::Socket | Kind::Device => Err(ToolError::refused(format!(
            "{} is a {}; agtool copies files, symlinks and folders only",
            req.source,
            st.kind.name()
        ))),
        Kind::Dir if !recursive => Err(ToolError::refused(format!(
            "{} is a folder; pass recursive: true (--recursive) to copy it and everything in it",
            req.source
        ))),
        _ => Ok(()),
    }
}

/// The destination entry, and whether it was spelled as a folder to put the source in
/// (`dir/`: then it is `dir/<source name>`, and `dir` must be an existing folder).
fn destination(
    env: &dyn WriteEnv,
    spelled: &str,
    src: &CheckedPath,
) -> Result<(CheckedPath, bool), ToolError> {
    if !spelled.ends_with('/') {
        return Ok((env.check_entry(spelled, Access::Write)?, false));
    }
    let folder = env.check_path(spelled, Access::Write)?;
    match env.fs().stat(&folder) {
        Ok(st) if st.kind == Kind::Dir => {}
        Ok(st) => {
            return Err(ToolError::refused(format!(
                "{spelled} is a {}, not a folder; drop the trailing / to name the new path",
                st.kind.name()
            )));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(ToolError::refused(format!(
                "{spelled} does not exist; a destination ending in / names an existing folder \
                 to put the source in: make it first (make_dir), or drop the / to give the \
                 new path"
            )));
        }
        Err(e) => return Err(refusal("use", spelled, &e)),
    }
    let name = src.real.file_name().unwrap_or_default();
    let joined = format!(
        "{}/{}",
        spelled.trim_end_matches('/'),
        encode_path(Path::new(name))
    );
    Ok((env.check_entry(&joined, Access::Write)?, true))
}

/// Decides what happens to an existing destination: `None` when there is none, else the kind
/// of entry replaced (with `overwrite` only; a replaced file passes the freshness gate).
#[allow(clippy::too_many_arguments)]
fn judge_destination(
    env: &dyn WriteEnv,
    txn: &Transaction<'_>,
    req: &Request<'_>,
    src: &CheckedPath,
    st: &Stat,
    dst: &CheckedPath,
    dst_st: Option<Stat>,
    into: bool,
) -> Result<Option<Kind>, ToolError> {
    let verb = req.op.verb();
    let Some(d) = dst_st else {
        return Ok(None);
    };
    let name = &dst.spelled;
    if d.kind == Kind::Dir {
        return Err(ToolError::refused(if into {
            format!(
                "{name} already exists (a folder); agtool never merges into or replaces a \
                 folder: pick another destination"
            )
        } else {
            format!(
                "{name} is an existing folder; to {verb} {} into it, end the destination with \
                 / ({}/); agtool never replaces a folder",
                req.source,
                name.trim_end_matches('/')
            )
        }));
    }
    if d.dev == st.dev && d.ino == st.ino {
        return Err(ToolError::refused(format!(
            "{} and {name} are the same file (hard links); nothing to {verb}",
            src.spelled
        )));
    }
    if !req.overwrite {
        return Err(ToolError::refused(format!(
            "{name} already exists (a {}); pass overwrite: true to replace it",
            d.kind.name()
        )));
    }
    if st.kind == Kind::Dir {
        return Err(ToolError::refused(format!(
            "{name} is a {}; a folder never replaces one: delete it first, or pick another \
             destination",
            d.kind.name()
        )));
    }
    if d.kind == Kind::File {
        // Replacing content is writing over it: the caller must have seen what goes.
        let before = txn.load(dst)?.unwrap_or_default();
        if env.freshness()
            && EditableText::decode(&before).is_err()
            && txn.shown_tag(dst).map_err(ToolError::refused)?.is_none()
        {
            return Err(ToolError::refused(format!(
                "{name} is not a text file read_file can show ({}), so no read can vouch for \
                 replacing it; ask the user, or pick another destination",
                count(before.len(), "byte")
            )));
        }
        txn.require_fresh(dst, &before)?;
    }
    Ok(Some(d.kind))
}

/// Lists a source folder through handles: for a move a protected name anywhere refuses the
/// whole move; for a copy protected and read-denied names, FIFOs, sockets and devices are
/// left out (and listed in [`Listing::skipped`]).
fn list_source(env: &dyn WriteEnv, src: &CheckedPath, op: Op) -> Result<Listing, ToolError> {
    let verb = op.verb();
    let shown = format!("{}/", src.spelled.trim_end_matches('/'));
    let in_shown = |rel: &Path| format!("{shown}{}", encode_path(rel));
    let top = env
        .fs()
        .open_dir(src)
        .map_err(|e| refusal(verb, &src.spelled, &e))?;
    let judge = |name: &OsStr| match op {
        Op::Move if env.policy().is_protected_name(name) => Verdict::Refuse,
        Op::Copy { .. }
            if env.policy().is_protected_name(name) || env.policy().is_denied_name(name) =>
        {
            Verdict::Skip
        }
        _ => Verdict::Take,
    };
    let listing = tree::list_with(&top, &judge).map_err(|stop| {
        ToolError::refused(match stop {
            TreeStop::Refused(rel) => format!(
                "{shown} contains {}, which agtool never moves (it would be deleted there and \
                 written here); nothing was changed",
                in_shown(&rel)
            ),
            TreeStop::Mount(rel) => format!(
                "{} is a mount point; agtool does not {verb} a folder holding one; nothing \
                 was changed",
                in_shown(&rel)
            ),
            TreeStop::Io(rel, e) => format!("cannot list {}: {}", in_shown(&rel), describe(&e)),
            TreeStop::TooDeep(_) => format!(
                "{} {}; nothing was changed",
                src.spelled,
                tree::too_deep_phrase()
            ),
        })
    })?;
    let mut listing = listing;
    if let Op::Copy { .. } = op {
        // FIFOs, sockets and devices are never copied: left out and listed, as protected
        // names are.
        let (special, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut listing.entries)
            .into_iter()
            .partition(|e| matches!(e.kind, Kind::Fifo | Kind::Socket | Kind::Device));
        listing.entries = kept;
        listing.skipped.extend(special.into_iter().map(|e| e.rel));
    }
    Ok(listing)
}

/// Whether the source and the destination's nearest existing folder lie on different
/// filesystems (a move there is a copy and a removal).
fn across_filesystems(env: &dyn WriteEnv, st: &Stat, dst: &CheckedPath) -> bool {
    let Ok(root) = env.fs().root(&dst.base) else {
        return false;
    };
    let rel = dst.real.strip_prefix(&dst.base).unwrap_or(Path::new(""));
    let mut at = rel.parent();
    while let Some(dir) = at {
        if let Ok(s) = root.stat(dir) {
            return s.dev != st.dev;
        }
        at = dir.parent();
    }
    false
}

/// Moves the source: one rename on one filesystem (returns false), else a copy and a removal
/// through the journal (returns true).
fn move_entry(
    env: &dyn WriteEnv,
    src: &CheckedPath,
    st: &Stat,
    listing: &Listing,
    dst: &CheckedPath,
    replace: bool,
    stop: &Stop,
) -> Result<bool, ToolError> {
    let cannot = |e: &io::Error| {
        failed(
            "move",
            &src.spelled,
            &dst.spelled,
            e,
            "nothing was changed".to_owned(),
        )
    };
    let from = env.fs().parent(src).map_err(|e| cannot(&e))?;
    let (to, created) = env.fs().make_parent(dst).map_err(|e| cannot(&e))?;
    let renamed = stop.check().and_then(|()| {
        if replace {
            from.dir.rename(&from.name, &to.dir, &to.name)
        } else {
            from.dir.rename_new(&from.name, &to.dir, &to.name)
        }
    });
    match renamed {
        Ok(()) => {
            let _ = from.dir.sync();
            let _ = to.dir.sync();
            Ok(false)
        }
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            env.fs().remove_created(&to.base, &created);
            let keep = Keep::All;
            let t = journal::Transfer {
                to: dst,
                replace,
                aside: Some(src),
            };
            let mut build = |into: &Dir, temp: &OsStr, stop: &Stop| {
                copy_entry(
                    &from.dir, &from.name, st.kind, listing, into, temp, keep, stop,
                )
            };
            journal::transfer(env.fs(), &t, &mut build, stop)
                .map_err(|e| commit_failed("move", &src.spelled, &dst.spelled, e))?;
            Ok(true)
        }
        Err(e) => {
            env.fs().remove_created(&to.base, &created);
            Err(cannot(&e))
        }
    }
}

/// Copies the source into place through the journal.
fn copy_entry_into_place(
    env: &dyn WriteEnv,
    src: &CheckedPath,
    st: &Stat,
    listing: &Listing,
    dst: &CheckedPath,
    replace: bool,
    stop: &Stop,
) -> Result<(), ToolError> {
    let from = env.fs().parent(src).map_err(|e| {
        failed(
            "copy",
            &src.spelled,
            &dst.spelled,
            &e,
            "nothing was changed".to_owned(),
        )
    })?;
    let t = journal::Transfer {
        to: dst,
        replace,
        aside: None,
    };
    let mut build = |into: &Dir, temp: &OsStr, stop: &Stop| {
        copy_entry(
            &from.dir,
            &from.name,
            st.kind,
            listing,
            into,
            temp,
            Keep::Permissions,
            stop,
        )
    };
    journal::transfer(env.fs(), &t, &mut build, stop)
        .map_err(|e| commit_failed("copy", &src.spelled, &dst.spelled, e))
}

/// The error of a failed transfer, saying how the files were left.
fn commit_failed(verb: &str, src: &str, dst: &str, e: CommitError) -> ToolError {
    let left = match &e.left {
        Left::Untouched => "nothing was changed".to_owned(),
        Left::Restored => "what had changed was put back".to_owned(),
        Left::Broken(err) => format!(
            "putting things back failed too ({}); the next agtool call in this workspace \
             finishes it",
            describe(err)
        ),
    };
    failed(verb, src, dst, &e.error, left)
}

/// The error of a failed move or copy: an interruption keeps its kind (exit 128 + the
/// signal); a destination that appeared meanwhile says so.
fn failed(verb: &str, src: &str, dst: &str, e: &io::Error, left: String) -> ToolError {
    if let Some(ms) = timed_out_by(e) {
        return ToolError {
            kind: ErrorKind::Timeout,
            message: format!("{verb}-path timed out after {ms} ms ({src} → {dst}); {left}"),
            fields: serde_json::Map::new(),
        };
    }
    if let Some(sig) = interrupted_by(e) {
        return ToolError {
            kind: ErrorKind::Interrupted(sig),
            message: format!(
                "interrupted by {} while {verb}ing {src} → {dst}; {left}",
                crate::interrupt::signal_name(sig)
            ),
            fields: serde_json::Map::new(),
        };
    }
    if e.kind() == io::ErrorKind::AlreadyExists {
        return ToolError::refused(format!(
            "{dst} appeared while agtool was working (another process made it); {left}"
        ));
    }
    ToolError::refused(format!(
        "cannot {verb} {src} → {dst}: {}; {left}",
        describe(e)
    ))
}
