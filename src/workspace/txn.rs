//! Write transactions: the one path every write tool takes (spec 01 and 03):
//! path policy → per-file locks → freshness gate → (the tool computes) → syntax gate →
//! `dry_run` stops with a diff → atomic writes, all or nothing → register the new tags.
//!
//! Locks are taken for every path up front, in sorted order (no deadlock between two
//! transactions), and held until the transaction ends, so the gate, the write and the
//! registration are one step for any other agtool process: of two concurrent edits from the
//! same stale read exactly one lands.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Output, ToolError};
use crate::text::diff;
use crate::text::syntax::{self, GateOutcome};
use crate::text::tag::content_tag;
use crate::workspace::context::Ctx;
use crate::workspace::fs::{PathLock, missing_dirs, mode_of, write_atomic_with_mode};
use crate::workspace::policy::CheckedPath;
use crate::workspace::root;
use crate::workspace::write_gate::GATE;

/// One file's planned change.
#[derive(Debug, Clone)]
pub struct Change {
    /// The path (policy-checked for writing).
    pub path: CheckedPath,
    /// The bytes on disk now (`None`: the file does not exist).
    pub before: Option<Vec<u8>>,
    /// The bytes to write (`None`: delete the file).
    pub after: Option<Vec<u8>>,
    /// The decoded old text, for the syntax gate and the diff. `None` for a new file, and
    /// also allowed for an existing file when [`texts_needed`] says the texts would not be
    /// looked at (the gate then says nothing): a 100 MB edit need not hold two more copies.
    pub old_text: Option<String>,
    /// The decoded new text (`None`: deleted, or not needed as above).
    pub new_text: Option<String>,
    /// Permission bits for a file this change creates (a move destination takes its
    /// source's); `None`: the default. An existing file always keeps its own.
    pub mode: Option<u32>,
}

/// Whether a transaction with `opts` would look at the decoded texts of a change whose
/// larger side is `len` bytes: always for a dry run (the diff), otherwise only when the
/// syntax gate runs and the text is small enough to be checked.
pub fn texts_needed(opts: WriteOptions, len: usize) -> bool {
    opts.dry_run || (opts.check_syntax && len <= syntax::MAX_CHECK_BYTES)
}

/// Options every write tool takes.
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// Compute everything and show a diff, write nothing (spec 01 "Diff previews").
    pub dry_run: bool,
    /// Run the syntax gate (the tool's `check_syntax` argument and the global setting).
    pub check_syntax: bool,
}

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The path as the caller spelled it.
    pub spelled: String,
    /// The new content tag (`None` for a deletion).
    pub tag: Option<String>,
    /// The syntax gate's one-line summary, when the file was checked.
    pub syntax: Option<String>,
    /// Set when the new tag could not be recorded (the state store failed).
    pub note: Option<String>,
}

/// The result of a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `dry_run`: the unified diff of every change, nothing written or recorded.
    DryRun(String),
    /// Every change was written.
    Written(Vec<Written>),
}

/// An open transaction: holds the locks of its paths until dropped.
pub struct Transaction<'c> {
    ctx: &'c Ctx,
    _locks: Vec<PathLock>,
    /// The tag this agent had been shown for each path when the call began, taken before
    /// waiting for the locks (see [`Transaction::begin`]).
    shown: HashMap<PathBuf, Result<Option<String>, String>>,
}

impl<'c> Transaction<'c> {
    /// Locks every path in `reals` (the policy's resolved paths). When freshness is on, the
    /// state folder must be creatable; otherwise a missing state folder only means no locks.
    ///
    /// The tags this agent was shown are read *before* waiting for the locks: a call that
    /// queued behind another write of the same file by the same agent was made without seeing
    /// that write's new tag, so the gate must judge it by what had been shown when it began.
    /// (Reading them after the lock would let the first writer's registration vouch for every
    /// edit queued behind it, and all of several edits from one stale read would land.)
    pub fn begin<'p>(
        ctx: &'c Ctx,
        reals: impl IntoIterator<Item = &'p Path>,
    ) -> Result<Transaction<'c>, ToolError> {
        let mut paths: Vec<PathBuf> = reals.into_iter().map(Path::to_path_buf).collect();
        paths.sort();
        paths.dedup();
        let state_dir = match root::ensure_state_dir(&ctx.root) {
            Ok(dir) => Some(dir),
            Err(e) if ctx.freshness => {
                return Err(ToolError::refused(format!(
                    "cannot create {} to track reads: {e}; fix it or pass --no-freshness",
                    ctx.state_dir().display()
                )));
            }
            Err(_) => None,
        };
        let mut shown = HashMap::new();
        if ctx.freshness {
            for p in &paths {
                shown.insert(p.clone(), ctx.with_state(|s| s.recorded_tag(&ctx.agent, p)));
            }
        }
        let mut locks = Vec::new();
        if let Some(dir) = state_dir {
            for p in &paths {
                let lock = PathLock::acquire(&dir, p).map_err(|e| {
                    ToolError::refused(format!("cannot lock {}: {e}", ctx.display(p)))
                })?;
                locks.push(lock);
            }
        }
        Ok(Transaction {
            ctx,
            _locks: locks,
            shown,
        })
    }

    /// The current bytes of a file (`None` when it does not exist). Errors for a directory or
    /// an unreadable file.
    pub fn load(&self, path: &CheckedPath) -> Result<Option<Vec<u8>>, ToolError> {
        match std::fs::metadata(&path.real) {
            Ok(m) if m.is_dir() => Err(ToolError::refused(format!(
                "{} is a directory, not a file",
                path.spelled
            ))),
            Ok(m) if !m.is_file() => Err(ToolError::refused(format!(
                "{} is not a regular file ({})",
                path.spelled,
                crate::workspace::fs::kind_name(&m.file_type())
            ))),
            // Opened without blocking, so a FIFO swapped in after the check is refused.
            Ok(_) => crate::workspace::special::read_regular(&path.real)
                .map(Some)
                .map_err(|e| ToolError::refused(format!("cannot read {}: {e}", path.spelled))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ToolError::refused(format!(
                "cannot read {}: {e}",
                path.spelled
            ))),
        }
    }

    /// The freshness gate (spec 01): the file's current bytes must carry the tag this agent
    /// was last shown. Runs before any matching. No-op when freshness is off.
    pub fn require_fresh(&self, path: &CheckedPath, current: &[u8]) -> Result<(), ToolError> {
        if !self.ctx.freshness {
            return Ok(());
        }
        let now = content_tag(current);
        let recorded = self.shown_tag(path).map_err(ToolError::refused)?;
        // When reads cannot be recorded, "read it first" would send the caller in a circle:
        // say why instead (spec 01; issue 12: a read-only database).
        let unrecordable = || self.ctx.recording_problem();
        match recorded {
            None => Err(ToolError::refused(match unrecordable() {
                Some(why) => format!(
                    "no read of {} is recorded, and reads cannot be recorded now: {why}",
                    path.spelled
                ),
                None => format!(
                    "read {} before editing it (read_file shows the current content and records it)",
                    path.spelled
                ),
            })),
            Some(tag) if tag != now => Err(ToolError::refused(match unrecordable() {
                Some(why) => format!(
                    "{} differs from the last read agtool could record (tag {tag}, now {now}), \
                     and reads cannot be recorded now: {why}",
                    path.spelled
                ),
                None => format!(
                    "{} changed since you last read it (tag {tag}, now {now}); read it again before editing.",
                    path.spelled
                ),
            })),
            Some(_) => Ok(()),
        }
    }

    /// The tag this agent had been shown for `path` when the transaction began (`None`:
    /// never shown). Errors when the state store cannot be read.
    pub fn shown_tag(&self, path: &CheckedPath) -> Result<Option<String>, String> {
        match self.shown.get(&path.real) {
            Some(r) => r.clone(),
            None => self
                .ctx
                .with_state(|s| s.recorded_tag(&self.ctx.agent, &path.real)),
        }
    }

    /// Runs the syntax gate on every change, then either returns the diff (`dry_run`) or
    /// writes every change atomically, restoring the ones already written if a later one
    /// fails, and registers the new tags. Nothing is written if anything fails before the
    /// writes start.
    pub fn commit(self, changes: Vec<Change>, opts: WriteOptions) -> Result<Outcome, ToolError> {
        let mut summaries = Vec::with_capacity(changes.len());
        for c in &changes {
            summaries.push(self.syntax_gate(c, opts)?);
        }
        if opts.dry_run {
            let mut out = String::new();
            for c in &changes {
                let spelled = c.path.spelled.trim_start_matches("./");
                out.push_str(&diff::unified(
                    spelled,
                    c.old_text.as_deref(),
                    c.new_text.as_deref(),
                ));
            }
            if out.is_empty() {
                out.push_str("(no changes)\n");
            }
            return Ok(Outcome::DryRun(out));
        }
        // From here the call runs to its end even past its timeout: every file is written
        // (or restored) and registered, never some of them.
        let _writing = GATE.start_writing().ok_or_else(|| {
            ToolError::refused("the call timed out before writing; nothing was changed")
        })?;
        // The new tags are hashed on another core while the files are written and fsynced:
        // for a large file each takes about as long as the other.
        let tags: Vec<Option<String>> = std::thread::scope(|s| {
            let hashing = s.spawn(|| {
                changes
                    .iter()
                    .map(|c| c.after.as_deref().map(content_tag))
                    .collect()
            });
            let written = self.write_all(&changes);
            let tags = hashing.join().unwrap_or_default();
            written.map(|()| tags)
        })?;
        let mut results = Vec::with_capacity(changes.len());
        for ((c, syntax), tag) in changes.iter().zip(summaries).zip(tags) {
            let note = match &tag {
                Some(t) => self.ctx.register_tag(&c.path.real, t),
                None => self
                    .ctx
                    .with_state(|s| s.forget(&c.path.real).map(|_| ()))
                    .err(),
            };
            results.push(Written {
                spelled: c.path.spelled.clone(),
                tag,
                syntax,
                note,
            });
        }
        Ok(Outcome::Written(results))
    }

    fn syntax_gate(&self, c: &Change, opts: WriteOptions) -> Result<Option<String>, ToolError> {
        let (Some(new), true) = (&c.new_text, opts.check_syntax && self.ctx.syntax_check) else {
            return Ok(None);
        };
        // An existing file whose old text was not supplied cannot be compared: say nothing.
        if c.before.is_some() && c.old_text.is_none() {
            return Ok(None);
        }
        let outcome = syntax::gate(&c.path.real, c.old_text.as_deref(), new);
        if let GateOutcome::Refused { .. } = outcome {
            let msg = outcome
                .refusal_message(Path::new(&c.path.spelled))
                .unwrap_or_default();
            let msg = msg.strip_prefix("Error: ").unwrap_or(&msg).to_owned();
            return Err(ToolError::refused(msg));
        }
        Ok(outcome.summary_line())
    }

    fn write_all(&self, changes: &[Change]) -> Result<(), ToolError> {
        let mut undo = Vec::new();
        for (i, c) in changes.iter().enumerate() {
            if let Err(e) = apply_change(c, &mut undo) {
                let restored = restore(undo);
                return Err(ToolError::refused(format!(
                    "writing {} failed: {e}; {}",
                    c.path.spelled,
                    if restored {
                        if i == 0 {
                            "nothing was changed".to_owned()
                        } else {
                            format!(
                                "the {} already written were restored",
                                crate::text::plural::count(i, "file")
                            )
                        }
                    } else {
                        "restoring the files already written failed too; check them".to_owned()
                    }
                )));
            }
        }
        Ok(())
    }
}

/// One step that undoes part of a commit, recorded as the commit goes.
enum Undo<'c> {
    /// Put back a file's bytes (and its permission bits, when it was deleted).
    Rewrite {
        path: &'c Path,
        bytes: &'c [u8],
        mode: Option<u32>,
    },
    /// Remove a file the commit created.
    RemoveFile(&'c Path),
    /// Remove a folder the commit created (it is empty again once its files are gone).
    RemoveDir(PathBuf),
    /// Recreate a symlink the commit removed.
    Relink { link: &'c Path, target: PathBuf },
}

/// Makes one change on disk and records how to undo it. A deletion whose path is a symlink
/// removes the link, never the file it points to (spec 01: the link is what the path names).
fn apply_change<'c>(c: &'c Change, undo: &mut Vec<Undo<'c>>) -> std::io::Result<()> {
    let real = c.path.real.as_path();
    match (&c.after, &c.before) {
        (Some(bytes), before) => {
            if let Some(dir) = real.parent() {
                undo.extend(missing_dirs(dir).into_iter().map(Undo::RemoveDir));
            }
            write_atomic_with_mode(real, bytes, c.mode)?;
            undo.push(match before {
                Some(old) => Undo::Rewrite {
                    path: real,
                    bytes: old,
                    mode: None,
                },
                None => Undo::RemoveFile(real),
            });
        }
        (None, before) => {
            let link = c.path.literal.as_path();
            if std::fs::symlink_metadata(link).is_ok_and(|m| m.file_type().is_symlink()) {
                let target = std::fs::read_link(link)?;
                std::fs::remove_file(link)?;
                undo.push(Undo::Relink { link, target });
            } else {
                let mode = mode_of(real);
                std::fs::remove_file(real)?;
                undo.push(Undo::Rewrite {
                    path: real,
                    bytes: before.as_deref().unwrap_or_default(),
                    mode,
                });
            }
        }
    }
    Ok(())
}

/// Undoes the recorded steps, newest first. True when every step succeeded.
fn restore(undo: Vec<Undo<'_>>) -> bool {
    let mut ok = true;
    for step in undo.into_iter().rev() {
        let r = match step {
            Undo::Rewrite { path, bytes, mode } => write_atomic_with_mode(path, bytes, mode),
            Undo::RemoveFile(path) => std::fs::remove_file(path),
            Undo::RemoveDir(dir) => std::fs::remove_dir(dir),
            Undo::Relink { link, target } => std::os::unix::fs::symlink(target, link),
        };
        ok &= r.is_ok();
    }
    ok
}

impl WriteOptions {
    /// The options of one write call from its `check_syntax` and `dry_run` arguments:
    /// `dry_run` defaults to false; `check_syntax` to true, and is off when the global
    /// setting is off.
    pub fn for_call(ctx: &Ctx, check_syntax: Option<bool>, dry_run: Option<bool>) -> WriteOptions {
        WriteOptions {
            dry_run: dry_run.unwrap_or(false),
            check_syntax: check_syntax.unwrap_or(true) && ctx.syntax_check,
        }
    }
}

/// The output of a dry run: the diff as plain text (the model reads it; a face that prints
/// for a person colours it, see `crate::faces::colour`), also in the `diff` field.
pub fn dry_run_output(diff_text: String) -> Output {
    Output::text(diff_text.clone())
        .with("dry_run", true)
        .with("diff", diff_text)
}

/// Appends the syntax summary and any registration note of a written file, one line each.
pub fn push_notes(text: &mut String, w: &Written) {
    for line in [&w.syntax, &w.note].into_iter().flatten() {
        text.push_str(line);
        text.push('\n');
    }
}

/// The single written file of a one-file transaction.
pub fn single(outcome: Outcome) -> Result<Written, Output> {
    match outcome {
        Outcome::DryRun(d) => Err(dry_run_output(d)),
        Outcome::Written(mut w) => Ok(w.remove(0)),
    }
}
