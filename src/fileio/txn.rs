//! Write transactions: the one path every write tool takes (spec 01 and 03):
//! path policy → per-file locks → freshness gate → (the tool computes) → syntax gate →
//! `dry_run` stops with a diff → atomic writes, all or nothing → register the new tags.
//!
//! Locks are taken for every path up front, in sorted order (no deadlock between two
//! transactions), and held until the transaction ends, so the gate, the write and the
//! registration are one step for any other agtool process: of two concurrent edits from the
//! same stale read exactly one lands. Once the locks are held, interrupted writes of dead
//! processes are recovered ([`crate::fileio::journal`]), so what is read next is whole.
//!
//! Files are read and written through the file layer ([`crate::fileio::fs`]), never by
//! their full path. One file is written atomically by itself; several go through the journal,
//! all or nothing across a crash. Termination signals during the writes are caught: before the
//! commit point the write is undone and the call ends with
//! [`ErrorKind::Interrupted`]; after it, the write
//! completes and the call still ends that way, saying the files were written.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::error::{ErrorKind, Output, ToolError};
use crate::fileio::atomic;
use crate::fileio::beneath::Kind;
use crate::fileio::env::WriteEnv;
use crate::fileio::fs::{self as layer, PathLock, Stop, describe, interrupted_by};
use crate::fileio::journal::{self, Left};
use crate::text::diff;
use crate::text::editable::ByteEdits;
use crate::text::syntax::{self, GateOutcome};
use crate::text::tag::{TagHasher, content_tag};
use crate::workspace::policy::CheckedPath;
use crate::workspace::root;

/// Largest file agtool edits in memory, in bytes (64 MiB; issue 17, item 5). An edit holds
/// the bytes before and after and their text, so a bigger file (a 3 GiB one took 3-6 GB) is
/// refused by its size before anything is read; a delete does not need its bytes and goes on
/// ([`Transaction::load_or_size`]).
pub const MAX_EDIT_BYTES: u64 = 64 << 20;

/// How much of a file over [`MAX_EDIT_BYTES`] is looked at to tell text from binary.
pub const SNIFF_BYTES: u64 = 8 << 10;

/// A file's current content as [`Transaction::load_or_size`] gives it.
#[derive(Debug)]
pub enum Current {
    /// Its bytes (at most [`MAX_EDIT_BYTES`]).
    Whole(Vec<u8>),
    /// A file over [`MAX_EDIT_BYTES`]: only its size, in bytes.
    Large {
        /// Size in bytes.
        size: u64,
    },
}

/// What to do instead of editing a file over [`MAX_EDIT_BYTES`] in memory.
pub const EDIT_ELSEWHERE: &str = "edit it with a command (exec: sed, a script) or split it";

/// The refusal for editing a file over [`MAX_EDIT_BYTES`], naming its size, then `advice`.
pub fn too_big_to_edit(spelled: &str, size: u64, advice: &str) -> String {
    format!(
        "{spelled} is {} ({}), over the {} agtool edits in memory; nothing was changed; \
         {advice}",
        crate::text::plural::count(size, "byte"),
        human_size(size),
        human_size(MAX_EDIT_BYTES)
    )
}

/// The refusal for editing `spelled` (at `real`), which does not exist. When this agent read
/// it, it was deleted or moved since: recreating it from what was read would undo that, so
/// the message says so instead of pointing at write_file (new-user finding).
pub fn missing_file(env: &dyn WriteEnv, spelled: &str, real: &std::path::Path) -> String {
    let read_before = env.freshness() && matches!(env.recorded_tag(real), Ok(Some(_)));
    match read_before {
        true => format!(
            "{spelled} was deleted or moved since you read it; nothing was changed; list its \
             folder to see what is there now, and create it again with write_file only if \
             that is what you mean"
        ),
        false => format!("{spelled} does not exist; create it with write_file"),
    }
}

/// `64 MiB`, `3.0 GiB`: a size for people, beside the exact byte count.
pub fn human_size(n: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if n >= GIB {
        format!("{:.1} GiB", n as f64 / GIB as f64)
    } else {
        format!("{} MiB", n.div_ceil(MIB))
    }
}

/// One file's planned change.
#[derive(Debug, Clone)]
pub struct Change {
    /// The path (policy-checked for writing).
    pub path: CheckedPath,
    /// The bytes on disk now (`None`: the file does not exist).
    pub before: Option<Vec<u8>>,
    /// The bytes to write (`None`: delete the file).
    pub after: Option<After>,
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

/// The bytes a change writes.
#[derive(Debug, Clone)]
pub enum After {
    /// These bytes.
    Bytes(Vec<u8>),
    /// The bytes before (`Change::before`, which must be there) with every range of `ranges`
    /// (sorted, non-overlapping byte offsets) replaced by `with`: an edit of a large file is
    /// written from the file's own buffer, without a second copy of it.
    Splice {
        /// Byte ranges of the old content.
        ranges: Vec<Range<usize>>,
        /// What each range becomes.
        with: Vec<u8>,
    },
    /// The bytes before (`Change::before`, which must be there) with line edits applied as
    /// byte edits ([`ByteEdits`]): a patch of a large file is written from the file's own
    /// buffer and the new lines, without a copy of the whole file.
    Edits(ByteEdits),
}

impl From<Vec<u8>> for After {
    fn from(bytes: Vec<u8>) -> After {
        After::Bytes(bytes)
    }
}

impl After {
    /// The content as consecutive slices of itself and of `before` (the old content).
    /// Panics for a splice or byte edits without `before`, or with ranges out of order or out
    /// of bounds.
    pub fn parts<'a>(&'a self, before: Option<&'a [u8]>) -> Vec<&'a [u8]> {
        match self {
            After::Bytes(bytes) => vec![bytes],
            After::Splice { ranges, with } => {
                let old = before.expect("a splice of the bytes before");
                let mut parts = Vec::with_capacity(2 * ranges.len() + 1);
                let mut at = 0;
                for r in ranges {
                    parts.push(&old[at..r.start]);
                    parts.push(with.as_slice());
                    at = r.end;
                }
                parts.push(&old[at..]);
                parts
            }
            After::Edits(edits) => edits.parts(before.expect("byte edits of the bytes before")),
        }
    }
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
    env: &'c dyn WriteEnv,
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
        env: &'c dyn WriteEnv,
        reals: impl IntoIterator<Item = &'p Path>,
    ) -> Result<Transaction<'c>, ToolError> {
        let mut paths: Vec<PathBuf> = reals.into_iter().map(Path::to_path_buf).collect();
        paths.sort();
        paths.dedup();
        let state_dir = match root::ensure_state_dir(env.root()) {
            Ok(dir) => Some(dir),
            Err(e) if env.freshness() => {
                return Err(ToolError::refused(format!(
                    "cannot create {} to track reads: {e}; fix it or pass --no-freshness",
                    env.root().join(root::STATE_DIR).display()
                )));
            }
            Err(_) => None,
        };
        let mut shown = HashMap::new();
        if env.freshness() {
            for p in &paths {
                shown.insert(p.clone(), env.recorded_tag(p));
            }
        }
        let mut locks = Vec::new();
        if let Some(dir) = state_dir {
            for p in &paths {
                let lock = PathLock::acquire(&dir, p).map_err(|e| {
                    ToolError::refused(format!("cannot lock {}: {e}", env.display(p)))
                })?;
                locks.push(lock);
            }
        }
        // Whatever a dead process left half-written under these paths is whole again before
        // anything is read.
        env.say(&journal::recover(env.fs(), &|p| env.display(p)));
        Ok(Transaction {
            env,
            _locks: locks,
            shown,
        })
    }

    /// The current bytes of a file (`None` when it does not exist), read through the file
    /// layer. Errors for a directory, a special file, an unreadable file, a folder on the way
    /// swapped for a symlink, or a file over [`MAX_EDIT_BYTES`] (refused by its size before
    /// anything is read; issue 17, item 5).
    pub fn load(&self, path: &CheckedPath) -> Result<Option<Vec<u8>>, ToolError> {
        match self.load_or_size(path)? {
            None => Ok(None),
            Some(Current::Whole(bytes)) => Ok(Some(bytes)),
            Some(Current::Large { size }) => Err(ToolError::refused(too_big_to_edit(
                &path.spelled,
                size,
                EDIT_ELSEWHERE,
            ))),
        }
    }

    /// As [`Transaction::load`], but a file over [`MAX_EDIT_BYTES`] is [`Current::Large`]
    /// with its size instead of an error, for changes that do not need its bytes (a delete).
    pub fn load_or_size(&self, path: &CheckedPath) -> Result<Option<Current>, ToolError> {
        let cannot = |e: &std::io::Error| {
            ToolError::refused(format!("cannot read {}: {}", path.spelled, describe(e)))
        };
        let mut file = match self.env.fs().open_read(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(cannot(&e)),
        };
        let meta = file.metadata().map_err(|e| cannot(&e))?;
        if meta.is_dir() {
            return Err(ToolError::refused(format!(
                "{} is a directory, not a file",
                path.spelled
            )));
        }
        if !meta.is_file() {
            return Err(ToolError::refused(format!(
                "{} is not a regular file ({})",
                path.spelled,
                layer::kind_name(&meta.file_type())
            )));
        }
        if meta.len() > MAX_EDIT_BYTES {
            return Ok(Some(Current::Large { size: meta.len() }));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut file, MAX_EDIT_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| cannot(&e))?;
        if bytes.len() as u64 > MAX_EDIT_BYTES {
            // It grew while being read.
            return Ok(Some(Current::Large {
                size: bytes.len() as u64,
            }));
        }
        Ok(Some(Current::Whole(bytes)))
    }

    /// For a file over [`MAX_EDIT_BYTES`]: whether its first [`SNIFF_BYTES`] hold a NUL byte
    /// (read_file never shows such a file, so no read can vouch for it), read in bounded
    /// memory. Errors as [`Transaction::load`].
    pub fn looks_binary(&self, path: &CheckedPath) -> Result<bool, ToolError> {
        let mut head = Vec::with_capacity(SNIFF_BYTES as usize);
        let file = self.env.fs().open_read(path).map_err(|e| {
            ToolError::refused(format!("cannot read {}: {}", path.spelled, describe(&e)))
        })?;
        std::io::Read::read_to_end(&mut std::io::Read::take(&file, SNIFF_BYTES), &mut head)
            .map_err(|e| {
                ToolError::refused(format!("cannot read {}: {}", path.spelled, describe(&e)))
            })?;
        Ok(head.contains(&0))
    }

    /// The content tag of a file of any size, hashed in chunks of 1 MiB (bounded
    /// memory; the time is that of reading the file once).
    pub fn streamed_tag(&self, path: &CheckedPath) -> Result<String, ToolError> {
        let cannot = |e: &std::io::Error| {
            ToolError::refused(format!("cannot read {}: {}", path.spelled, describe(e)))
        };
        let mut file = self.env.fs().open_read(path).map_err(|e| cannot(&e))?;
        let mut hasher = TagHasher::new();
        let mut buf = vec![0u8; 1 << 20];
        loop {
            match std::io::Read::read(&mut file, &mut buf) {
                Ok(0) => break,
                Ok(n) => hasher.update(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(cannot(&e)),
            }
        }
        Ok(hasher.tag())
    }

    /// The permission bits of an existing file (`None` when it cannot be read).
    pub fn mode_of(&self, path: &CheckedPath) -> Option<u32> {
        self.env
            .fs()
            .stat(path)
            .ok()
            .filter(|st| st.kind == Kind::File)
            .map(|st| st.mode)
    }

    /// The freshness gate (spec 01): the file's current bytes must carry the tag this agent
    /// was last shown. Runs before any matching. No-op when freshness is off.
    pub fn require_fresh(&self, path: &CheckedPath, current: &[u8]) -> Result<(), ToolError> {
        self.require_fresh_by(path, || Ok(content_tag(current)))
    }

    /// [`Transaction::require_fresh`] with the current tag computed by `now`, only when a
    /// read is recorded to compare it with (a streamed hash of a large file is not paid for
    /// a refusal).
    pub fn require_fresh_by(
        &self,
        path: &CheckedPath,
        now: impl FnOnce() -> Result<String, ToolError>,
    ) -> Result<(), ToolError> {
        if !self.env.freshness() {
            return Ok(());
        }
        let recorded_now = self.shown_tag(path).map_err(ToolError::refused)?;
        let now = match recorded_now {
            Some(_) => now()?,
            None => String::new(),
        };
        let recorded = recorded_now;
        // When reads cannot be recorded, "read it first" would send the caller in a circle:
        // say why instead (spec 01; issue 12: a read-only database).
        let unrecordable = || self.env.recording_problem();
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

    /// Whether the freshness gate is on for this call.
    pub fn freshness(&self) -> bool {
        self.env.freshness()
    }

    /// The tag this agent had been shown for `path` when the transaction began (`None`:
    /// never shown). Errors when the state store cannot be read.
    pub fn shown_tag(&self, path: &CheckedPath) -> Result<Option<String>, String> {
        match self.shown.get(&path.real) {
            Some(r) => r.clone(),
            None => self.env.recorded_tag(&path.real),
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
        let _writing = self.env.gate().writing()?;
        // A termination signal stops the writes before their commit point (and cleans up).
        let stop = Stop::watching();
        // The new tags are hashed on another core while the files are written and fsynced:
        // for a large file each takes about as long as the other.
        let tags: Vec<Option<String>> = std::thread::scope(|s| {
            let hashing = s.spawn(|| {
                changes
                    .iter()
                    .map(|c| {
                        c.after.as_ref().map(|after| {
                            let mut hasher = TagHasher::new();
                            for part in after.parts(c.before.as_deref()) {
                                hasher.update(part);
                            }
                            hasher.tag()
                        })
                    })
                    .collect()
            });
            let written = self.write_all(&changes, &stop);
            let tags = hashing.join().unwrap_or_default();
            written.map(|()| tags)
        })?;
        let mut results = Vec::with_capacity(changes.len());
        let late_signal = stop.received();
        drop(stop);
        for ((c, syntax), tag) in changes.iter().zip(summaries).zip(tags.iter().cloned()) {
            let note = match &tag {
                Some(t) => self.env.register_tag(&c.path.real, t),
                None => self.env.forget_tag(&c.path.real).err(),
            };
            results.push(Written {
                spelled: c.path.spelled.clone(),
                tag,
                syntax,
                note,
            });
        }
        if let Some(sig) = late_signal {
            // The signal came after the commit point: the files are written, and the caller
            // still asked agtool to stop.
            let names: Vec<&str> = results.iter().map(|w| w.spelled.as_str()).collect();
            return Err(ToolError {
                kind: ErrorKind::Interrupted(sig),
                message: format!(
                    "{} arrived while writing, after the point of no return: the write \
                     completed ({})",
                    crate::interrupt::signal_name(sig),
                    names.join(", ")
                ),
                fields: serde_json::Map::new(),
            });
        }
        Ok(Outcome::Written(results))
    }

    fn syntax_gate(&self, c: &Change, opts: WriteOptions) -> Result<Option<String>, ToolError> {
        let (Some(new), true) = (&c.new_text, opts.check_syntax && self.env.syntax_check()) else {
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

    fn write_all(&self, changes: &[Change], stop: &Stop) -> Result<(), ToolError> {
        let fs = &self.env.fs();
        if let [c] = changes {
            let r = match &c.after {
                Some(after) => {
                    atomic::write_file(fs, &c.path, &after.parts(c.before.as_deref()), c.mode, stop)
                }
                None => atomic::remove_file(fs, &c.path),
            };
            return r.map_err(|e| write_error(&c.path.spelled, &e, "nothing was changed"));
        }
        let planned: Vec<journal::Change<'_>> = changes
            .iter()
            .map(|c| match &c.after {
                Some(after) => journal::Change::Write {
                    path: &c.path,
                    parts: after.parts(c.before.as_deref()),
                    new_mode: c.mode,
                    before: c.before.as_deref(),
                },
                None => journal::Change::Remove {
                    path: &c.path,
                    before: c.before.as_deref(),
                },
            })
            .collect();
        journal::commit(fs, &planned, stop).map_err(|e| {
            let left = match &e.left {
                Left::Untouched => "nothing was changed".to_owned(),
                Left::Restored => "the files already written were restored".to_owned(),
                Left::Broken(err) => format!(
                    "restoring the files already written failed too ({}); the next agtool \
                     call in this workspace restores them",
                    describe(err)
                ),
            };
            let spelled = changes.get(e.index).map_or("", |c| c.path.spelled.as_str());
            write_error(spelled, &e.error, &left)
        })
    }
}

/// The error of a failed write: an interruption by a signal keeps its kind (exit 128 + the
/// signal), anything else is a refusal naming the file.
fn write_error(spelled: &str, e: &std::io::Error, left: &str) -> ToolError {
    match interrupted_by(e) {
        Some(sig) => ToolError {
            kind: ErrorKind::Interrupted(sig),
            message: format!(
                "interrupted by {} while writing {spelled}; {left}",
                crate::interrupt::signal_name(sig)
            ),
            fields: serde_json::Map::new(),
        },
        None => ToolError::refused(format!("writing {spelled} failed: {}; {left}", describe(e))),
    }
}

impl WriteOptions {
    /// The options of one write call from its `check_syntax` and `dry_run` arguments:
    /// `dry_run` defaults to false; `check_syntax` to true, and is off when the global
    /// setting is off.
    pub fn for_call(
        env: &dyn WriteEnv,
        check_syntax: Option<bool>,
        dry_run: Option<bool>,
    ) -> WriteOptions {
        WriteOptions {
            dry_run: dry_run.unwrap_or(false),
            check_syntax: check_syntax.unwrap_or(true) && env.syntax_check(),
        }
    }
}

/// The output of a dry run: the diff as plain text (the model reads it; a face that prints
/// for a person colours it, see `crate::faces::colour`), also in the `diff` field.
pub fn dry_run_output(diff_text: String) -> Output {
    // Said in words too: a diff alone read like a change made (move-path and the other
    // file tools say "Would ...").
    Output::text(format!("{diff_text}(dry run: nothing was written)\n"))
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
