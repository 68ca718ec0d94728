//! The journal: writes that touch several files are all or nothing across a crash, and temp
//! files of killed processes are removed (spec 01, "Races and crashes"; issue 12, items 2-3).
//!
//! # Files
//! Journals live in `.agent-state/journal/`, one file per write in progress, named
//! `<pid>-<n>.j`. A journal is first written as `.<pid>-<n>.new`, locked (`flock`, exclusive),
//! filled, fsynced and only then renamed to its `.j` name, so a `.j` file is always complete
//! and always locked while its process lives: the kernel drops the lock when the process dies,
//! whatever killed it. A free lock on a `.j` file therefore means its process is dead (pid
//! reuse cannot fool it). The text format, one record a line, fields percent-encoded:
//!
//! ```text
//! agtool-journal 2
//! state C <64 hex digits: the seal>
//! pid 4242
//! nonce <32 hex digits>
//! file <device> <inode>
//! write <root> <folder> <name> <temp> <backup or ->
//! remove <root> <folder> <name> <backup>
//! temp <root> <folder> <temp>
//! mkdir <root> <folder>
//! tree <root> <folder> <temp>
//! place <root> <folder> <temp> <name> <backup or ->
//! aside <root> <folder> <name> <temp>
//! end
//! ```
//!
//! The seal on the state line is an HMAC of every byte (the state byte included) under a key
//! of this user's kept outside every workspace (`journal::seal`), bound to the journal folder;
//! the `file` line binds it to the journal file itself, and the nonce is registered beside the
//! key until the journal is done, so a journal is usable once. Recovery acts only on a sealed,
//! registered journal read from the file it names: one that came with a repository, was
//! planted by another program, or is a copy put back after its write finished, is obeyed in
//! nothing.
//!
//! `<root>` is the allowed root (absolute), `<folder>` the target's folder relative to it
//! (`.` for the root itself); temp and backup names follow
//! [`temp_name`] and must carry the journal's pid. The
//! state is one byte at a fixed offset, so moving to the next state is a one-byte `pwrite`
//! and an `fdatasync`.
//!
//! # State machine of a multi-file write ([`commit`])
//! ```text
//!  (none) --journal written, fsynced, renamed--> P --temps+backups fsynced--> C
//!         --renames, folders fsynced--> D --backups removed, journal unlinked--> (none)
//! ```
//! - **no journal**: nothing of the write exists yet (the `.new` file, if any, is not a
//!   journal; recovery deletes a dead one once it is 5 s old).
//! - **P (preparing)**: the missing folders are made, each target's new content is written to
//!   its temp file and fsynced, and each existing target gets a backup: a hard link to its
//!   current inode under a temp name (a copy when the filesystem refuses hard links). No
//!   target has changed. Recovery (or a failure) deletes the temp files and backups and the
//!   folders it made that are empty, and removes the journal.
//! - **C (committing)**: every temp file is complete. The temp files are renamed over their
//!   targets and removals unlink theirs, one by one; then the folders are fsynced. Recovery
//!   (or a failure) rolls back: a temp file still present was not renamed and is deleted; a
//!   target whose temp file is gone is put back by renaming its backup over it (or deleted,
//!   if the write created it), unless it was modified after the C state was written (an edit
//!   made after the kill, which is kept and named); a removed target is put back from its
//!   backup unless something took its name meanwhile. Every step reads
//!   the disk, so a recovery killed halfway can simply run again.
//! - **D (done)**: the commit point, one byte and an `fdatasync` after the last rename. Every
//!   target has its new content; the backups are deleted, then the journal. Recovery (or a
//!   failure) rolls forward: it deletes what is left of the backups and temp files. The call
//!   reports success only once the journal is gone.
//!
//! A kill before the journal's rename leaves no journal and no change; a kill in P or C is
//! rolled back; a kill in D leaves the new content and recovery finishes the cleanup. No caller ever sees a
//! half-applied write, because every later call recovers first (below).
//!
//! # State machine of a transfer ([`transfer`]: copy-path, move-path across filesystems)
//! The same states, with the steps `mkdir`, `tree`, `place` and `aside`:
//! - **P**: the missing folders above the destination are made; the copy (a file, a symlink
//!   or a whole folder tree) is built under a temp name beside the destination and fsynced
//!   (`tree`); a file or symlink the copy replaces gets a backup, a hard link under a temp
//!   name. Nothing visible has changed. Recovery (or a failure) removes the temp tree, the
//!   backup and the folders made that are empty.
//! - **C**: the temp copy is renamed to the destination (`place`: without replacing anything,
//!   or over the old entry whose backup exists), then the source of a move is renamed aside
//!   under a temp name in its own folder (`aside`); both folders are fsynced. Recovery (or a
//!   failure) rolls back from what is on disk: a source set aside is renamed back (never over
//!   something that took its name meanwhile); a placed copy is renamed back to its temp name
//!   and removed, or the backup is renamed over it; then as in P.
//! - **D** (the commit point): the set-aside source (a whole tree, removed through handles,
//!   never following a symlink) and the backup are deleted, then the journal. Recovery rolls
//!   forward the same way.
//!
//! Nothing is ever deleted under a name the caller chose: only under temp names that carry
//! the journal's pid, so a recovery cannot delete what another process put at a user's path.
//!
//! # Temp notes ([`TempNote`])
//! A single-file write is atomic by itself (one rename), but its temp file would outlive a
//! kill. Before creating it, the writer leaves a journal in state **T** naming the temp file
//! (not fsynced: it only serves cleanup), and removes it once the temp file is renamed or
//! deleted. Recovery of a dead T journal deletes the temp file.
//!
//! # Recovery ([`recover`])
//! Every agtool call that touches the workspace reads the journal folder once (one
//! `openat`/`getdents` when it is empty or absent); write transactions read it again after
//! taking their path locks. When it holds anything, the caller takes the folder's `lock` file
//! (exclusive, blocking, held only while recovering), and recovers every journal whose lock
//! it can take. A writer never waits for that lock, and a recovering process never waits for
//! a writer, so there is no deadlock; since a live writer holds its paths' locks and its
//! journal's lock the whole time, a caller that holds a path's lock and then finds no dead
//! journal naming it sees that path whole. Recovery only acts in roots that the current
//! policy lets it write, on names that carry the journal's pid.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::fileio::beneath::{Dir, Kind, temp_name};
use crate::fileio::fs::{Fs, Stop, existing_mode, fill};
use crate::fileio::tree;
use crate::workspace::policy::CheckedPath;

/// The first line of every journal file (module doc, "Files").
const MAGIC: &str = "agtool-journal 2\n";
/// Offset of the state byte: after the magic line and `state `. Here, above both the journal
/// file ([`record`]) and its seal ([`seal`], whose digits follow the state byte), so that
/// neither has to import the other's layout.
const STATE_AT: u64 = (MAGIC.len() + "state ".len()) as u64;

mod record;
mod recover;
mod seal;
#[cfg(test)]
mod tests;
mod transfer;

use record::{Journal, Record, State, Step};
pub use recover::recover;
pub use seal::key_folders;
pub(crate) use seal::{is_sealed_for, seal_for};
#[cfg(test)]
pub(crate) use transfer::crash_after;
pub use transfer::{Build, Transfer, crash_point, transfer};

/// Folder handles a commit keeps open at once (the oldest is closed beyond that).
const MAX_OPEN_DIRS: usize = 256;

/// A note that a single write's temp file exists, so recovery removes it if this process is
/// killed (module doc, "Temp notes"). Removed when dropped.
pub struct TempNote {
    dir: Dir,
    name: OsString,
    _file: File,
    /// The journal's registered nonce, used up when the note is removed.
    nonce: String,
}

impl TempNote {
    /// Notes the temp file `temp` in the folder `dir` (relative to the allowed root `base`).
    /// `None` when there is no journal folder to note it in (no state folder can be made).
    pub fn begin(fs: &Fs, base: &Path, dir: &Path, temp: &OsStr) -> Option<TempNote> {
        let jdir = fs.journal_dir(true).ok()??;
        let record = Record {
            state: State::Temp,
            pid: std::process::id(),
            steps: vec![Step::Temp {
                base: base.to_path_buf(),
                dir: dir.to_path_buf(),
                temp: temp.to_os_string(),
            }],
        };
        let j = Journal::create(&jdir, &record, false).ok()?;
        let (name, file, nonce) = (j.name, j.file, j.nonce);
        Some(TempNote {
            dir: jdir,
            name,
            _file: file,
            nonce,
        })
    }
}

impl Drop for TempNote {
    fn drop(&mut self) {
        let _ = self.dir.unlink(&self.name);
        if let Ok(bind) = seal::Binding::of(&self.dir) {
            seal::unregister(bind.workspace, &self.nonce);
        }
    }
}

/// One file of a multi-file write.
#[derive(Debug, Clone)]
pub enum Change<'a> {
    /// Write `bytes` to the path (created with `new_mode` when new). `before`: its current
    /// bytes, used as the backup when the filesystem refuses hard links.
    Write {
        /// The policy-checked path (its resolved path is written).
        path: &'a CheckedPath,
        /// The new content, as consecutive slices (see [`crate::fileio::fs::fill`]).
        parts: Vec<&'a [u8]>,
        /// Mode of a file this creates (`None`: 0666 less the umask).
        new_mode: Option<u32>,
        /// The current content, if the file exists.
        before: Option<&'a [u8]>,
    },
    /// Remove the entry the path names (a final symlink: the link).
    Remove {
        /// The policy-checked path.
        path: &'a CheckedPath,
        /// The current content, if a regular file.
        before: Option<&'a [u8]>,
    },
}

/// How a failed [`commit`] left the files.
#[derive(Debug)]
pub enum Left {
    /// Nothing had been changed.
    Untouched,
    /// Some files had been changed and were put back.
    Restored,
    /// Putting them back failed; the journal stays, and the next agtool call retries.
    Broken(io::Error),
}

/// A failed [`commit`]: which change failed (index into the changes), why, and how the files
/// were left.
#[derive(Debug)]
pub struct CommitError {
    /// Index of the change that failed.
    pub index: usize,
    /// The error (see [`crate::fileio::fs::describe`]).
    pub error: io::Error,
    /// What state the files are in.
    pub left: Left,
}

/// Folder handles by (root, folder), a few at a time.
struct Dirs<'f> {
    fs: &'f Fs,
    open: Vec<((PathBuf, PathBuf), Dir)>,
    /// Every folder opened so far.
    seen: Vec<(PathBuf, PathBuf)>,
    /// Set when undoing this process's own commit: a folder it never opened holds nothing of
    /// it, and is not looked up (it may have been swapped for a symlink meanwhile).
    known_only: bool,
    /// When the write reached its commit state (the journal's last change), for a recovery:
    /// a target modified after it holds a newer edit (a person's, another program's, made
    /// after the kill), which a roll-back leaves as it is (see [`roll_back`]).
    committed_at: Option<std::time::SystemTime>,
    /// Targets left as they were for that reason, filled by [`roll_back`].
    kept: Vec<PathBuf>,
}

impl<'f> Dirs<'f> {
    fn new(fs: &'f Fs) -> Dirs<'f> {
        Dirs {
            fs,
            open: Vec::new(),
            seen: Vec::new(),
            known_only: false,
            committed_at: None,
            kept: Vec::new(),
        }
    }

    fn get(&mut self, base: &Path, dir: &Path) -> io::Result<&Dir> {
        if let Some(i) = self
            .open
            .iter()
            .position(|((b, d), _)| b == base && d == dir)
        {
            return Ok(&self.open[i].1);
        }
        let key = (base.to_path_buf(), dir.to_path_buf());
        if self.known_only && !self.seen.contains(&key) {
            return Err(io::Error::from(io::ErrorKind::NotFound));
        }
        let h = self.fs.root(base)?.open_dir(dir)?;
        if !self.seen.contains(&key) {
            self.seen.push(key);
        }
        if self.open.len() >= MAX_OPEN_DIRS {
            self.open.remove(0);
        }
        self.open.push(((base.to_path_buf(), dir.to_path_buf()), h));
        Ok(&self.open.last().expect("just pushed").1)
    }
}

/// Plans one change: its journal step and the folders it needs made (relative to its root).
fn plan(fs: &Fs, change: &Change<'_>) -> io::Result<(Step, Vec<PathBuf>)> {
    match change {
        Change::Write { path, .. } => {
            let rel = path.real.strip_prefix(&path.base).unwrap_or(Path::new(""));
            let (Some(name), Some(dir)) = (rel.file_name(), rel.parent()) else {
                return Err(io::Error::other(format!(
                    "{} is a root folder",
                    path.spelled
                )));
            };
            let (existing, missing) = missing_dirs(fs, &path.base, dir)?;
            let exists = missing.is_empty() && existing_mode(&existing, name, None)?.is_some();
            Ok((
                Step::Write {
                    base: path.base.clone(),
                    dir: dir.to_path_buf(),
                    name: name.to_os_string(),
                    temp: temp_name(name),
                    backup: exists.then(|| temp_name(name)),
                },
                missing,
            ))
        }
        Change::Remove { path, .. } => {
            let loc = if path.entry != path.real {
                fs.entry_parent(path)?
            } else {
                fs.parent(path)?
            };
            if loc.dir.stat_at(&loc.name)?.kind == Kind::Dir {
                return Err(io::Error::other(format!("{} is a directory", path.spelled)));
            }
            Ok((
                Step::Remove {
                    backup: temp_name(&loc.name),
                    base: loc.base,
                    dir: loc.dir_rel,
                    name: loc.name,
                },
                Vec::new(),
            ))
        }
    }
}

/// The nearest existing folder at or above `dir` (relative to the allowed root `base`), and
/// the folders to make below it so that `dir` exists (relative to `base`, outermost first).
fn missing_dirs(fs: &Fs, base: &Path, dir: &Path) -> io::Result<(Dir, Vec<PathBuf>)> {
    let root = fs.root(base)?;
    let mut missing = Vec::new();
    let mut at = dir;
    let existing = loop {
        match root.open_dir(at) {
            Ok(d) => break d,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                missing.push(at.to_path_buf());
                at = at.parent().ok_or(e)?;
            }
            Err(e) => return Err(e),
        }
    };
    missing.reverse();
    Ok((existing, missing))
}

/// Makes the folder of a [`Step::Mkdir`] (one already there is fine).
fn make_dir(dirs: &mut Dirs<'_>, base: &Path, dir: &Path) -> io::Result<()> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Ok(());
    };
    match dirs.get(base, parent).and_then(|d| d.mkdir(name, 0o777)) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

/// Keeps the current version of `dir/name` as `dir/backup`: a hard link, or a copy of
/// `before` (a symlink: a new symlink) when the filesystem refuses one.
fn keep_backup(dir: &Dir, name: &OsStr, backup: &OsStr, before: Option<&[u8]>) -> io::Result<()> {
    match dir.link(name, dir, backup) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(e),
        Err(_) => {}
    }
    let st = dir.stat_at(name)?;
    if st.kind == Kind::Symlink {
        return dir.symlink(&dir.read_link(name)?, backup);
    }
    let Some(bytes) = before else {
        return Err(io::Error::other(format!(
            "cannot keep a copy of {}",
            dir.path().join(name).display()
        )));
    };
    let mut f = dir.create_new(backup, 0o600)?;
    fill(&mut f, &[bytes], Some(st.mode), &Stop::never())
}

/// Makes the files of a P journal: folders, temp files (new content), backups.
fn prepare(
    dirs: &mut Dirs<'_>,
    changes: &[Change<'_>],
    steps: &[Step],
    stop: &Stop,
) -> Result<(), (usize, io::Error)> {
    let mut k = 0;
    for step in steps {
        if let Step::Mkdir { base, dir } = step {
            make_dir(dirs, base, dir).map_err(|e| (0, e))?;
            continue;
        }
        let i = k;
        k += 1;
        let fail = |e| (i, e);
        stop.check().map_err(fail)?;
        match (step, &changes[i]) {
            (
                Step::Write {
                    base,
                    dir,
                    name,
                    temp,
                    backup,
                },
                Change::Write {
                    parts,
                    new_mode,
                    before,
                    ..
                },
            ) => {
                let d = dirs.get(base, dir).map_err(fail)?;
                let mode = existing_mode(d, name, *new_mode).map_err(fail)?;
                let mut f = d.create_new(temp, 0o666).map_err(fail)?;
                fill(&mut f, parts, mode, stop).map_err(fail)?;
                if let Some(b) = backup {
                    keep_backup(d, name, b, *before).map_err(fail)?;
                }
            }
            (
                Step::Remove {
                    base,
                    dir,
                    name,
                    backup,
                },
                Change::Remove { before, .. },
            ) => {
                let d = dirs.get(base, dir).map_err(fail)?;
                keep_backup(d, name, backup, *before).map_err(fail)?;
            }
            _ => unreachable!("one step per change, in order"),
        }
    }
    Ok(())
}

/// The error for a new file whose name was taken while the write was being made (a failed
/// `rename_new` of a write's temp file); any other error as it is. Used by every write that
/// makes a file: multi-file commits here and single writes ([`crate::fileio::atomic`]).
pub fn appeared(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::AlreadyExists {
        io::Error::new(
            io::ErrorKind::AlreadyExists,
            "a file appeared at that name while the write was being made; it was not replaced",
        )
    } else {
        e
    }
}

/// Replaces the targets of a C journal, in order; then fsyncs their folders.
fn apply(dirs: &mut Dirs<'_>, steps: &[Step]) -> Result<(), (usize, io::Error)> {
    let mut k = 0;
    let mut touched: Vec<(PathBuf, PathBuf)> = Vec::new();
    for step in steps {
        let i = k;
        let fail = |e| (i, e);
        match step {
            Step::Write {
                base,
                dir,
                name,
                temp,
                backup,
            } => {
                k += 1;
                // A target that did not exist is made without replacing anything: a file that
                // appeared there meanwhile (a person's, another program's) was overwritten.
                dirs.get(base, dir)
                    .and_then(|d| match backup {
                        Some(_) => d.rename(temp, d, name),
                        None => d.rename_new(temp, d, name).map_err(appeared),
                    })
                    .map_err(fail)?;
                touched.push((base.clone(), dir.clone()));
            }
            Step::Remove {
                base, dir, name, ..
            } => {
                k += 1;
                dirs.get(base, dir)
                    .and_then(|d| d.unlink(name))
                    .map_err(fail)?;
                touched.push((base.clone(), dir.clone()));
            }
            _ => {}
        }
    }
    touched.sort();
    touched.dedup();
    for (base, dir) in touched {
        dirs.get(&base, &dir)
            .and_then(Dir::sync)
            .map_err(|e| (0, e))?;
    }
    Ok(())
}

/// Ignores "not found": the step was never done, or was already undone.
fn gone_ok(r: io::Result<()>) -> io::Result<()> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

fn exists(d: &Dir, name: &OsStr) -> io::Result<bool> {
    match d.stat_at(name) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Undoes a P or C journal from what is on disk (module doc). Returns the targets that had
/// changed and were put back. Every step is safe to repeat.
/// `dirs`: the folder handles to use (a failing commit passes the ones it wrote through, so
/// even a folder renamed or swapped since is cleaned up).
///
/// A target modified after [`Dirs::committed_at`] is left as it is, its backup removed and its
/// path added to [`Dirs::kept`]: the interrupted write's content was edited since the kill,
/// and putting the old version back (or removing a file the write made) destroyed that edit.
/// Renaming keeps a file's modification time, so a target still as the write left it is not
/// newer than the commit state; the check sees the top entry of a placed folder tree only.
fn roll_back(dirs: &mut Dirs<'_>, rec: &Record) -> io::Result<Vec<PathBuf>> {
    let mut restored = Vec::new();
    let mut kept = Vec::new();
    let mut first_error = None;
    let committing = rec.state == State::Committing;
    let committed_at = dirs.committed_at;
    // Whether `name` in `d` was modified after the commit state: a newer edit to keep.
    let newer = |d: &Dir, name: &OsStr| -> io::Result<bool> {
        let Some(at) = committed_at else {
            return Ok(false);
        };
        match d.stat_at(name) {
            Ok(st) => Ok(st.mtime > at),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    };
    for step in rec.steps.iter().rev() {
        let r = (|| -> io::Result<()> {
            match step {
                Step::Write {
                    base,
                    dir,
                    name,
                    temp,
                    backup,
                } => {
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    if !committing || exists(d, temp)? {
                        gone_ok(d.unlink(temp))?;
                        if let Some(b) = backup {
                            gone_ok(d.unlink(b))?;
                        }
                        return Ok(());
                    }
                    if newer(d, name)? {
                        if let Some(b) = backup {
                            gone_ok(d.unlink(b))?;
                        }
                        kept.push(base.join(dir).join(name));
                        return Ok(());
                    }
                    // Renamed over the target: put the old version back.
                    match backup {
                        Some(b) if exists(d, b)? => {
                            d.rename(b, d, name)?;
                            restored.push(base.join(dir).join(name));
                        }
                        Some(_) => {}
                        None => {
                            if exists(d, name)? {
                                d.unlink(name)?;
                                restored.push(base.join(dir).join(name));
                            }
                        }
                    }
                    d.sync()
                }
                Step::Remove {
                    base,
                    dir,
                    name,
                    backup,
                } => {
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    if !committing || exists(d, name)? {
                        return gone_ok(d.unlink(backup));
                    }
                    if exists(d, backup)? {
                        d.rename(backup, d, name)?;
                        restored.push(base.join(dir).join(name));
                    }
                    d.sync()
                }
                Step::Temp { base, dir, temp } => {
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    gone_ok(d.unlink(temp))
                }
                Step::Tree { base, dir, temp } => {
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    gone_ok(tree::remove_all(d, temp, &Stop::never()))
                }
                Step::Place {
                    base,
                    dir,
                    temp,
                    name,
                    backup,
                } => {
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    if !committing || exists(d, temp)? {
                        // Not placed: only the backup (a second name of the old entry) goes.
                        if let Some(b) = backup {
                            gone_ok(d.unlink(b))?;
                        }
                        return Ok(());
                    }
                    if newer(d, name)? {
                        if let Some(b) = backup {
                            gone_ok(d.unlink(b))?;
                        }
                        kept.push(base.join(dir).join(name));
                        return Ok(());
                    }
                    match backup {
                        // Placed over an old entry: the old one goes back over it.
                        Some(b) if exists(d, b)? => {
                            d.rename(b, d, name)?;
                            restored.push(base.join(dir).join(name));
                        }
                        Some(_) => {}
                        // Placed where nothing was: back to its temp name, which the tree step
                        // (undone right after this one) removes.
                        None => {
                            if exists(d, name)? {
                                d.rename_new(name, d, temp)?;
                                restored.push(base.join(dir).join(name));
                            }
                        }
                    }
                    d.sync()
                }
                Step::Aside {
                    base,
                    dir,
                    name,
                    temp,
                } => {
                    if !committing {
                        return Ok(());
                    }
                    let d = match dirs.get(base, dir) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    if !exists(d, temp)? {
                        return Ok(());
                    }
                    // Renamed aside: it goes back under its own name, never over something
                    // that took that name meanwhile.
                    d.rename_new(temp, d, name).map_err(|e| {
                        if e.kind() == io::ErrorKind::AlreadyExists {
                            io::Error::other(format!(
                                "{} exists again, so the original is kept as {}",
                                base.join(dir).join(name).display(),
                                base.join(dir).join(temp).display()
                            ))
                        } else {
                            e
                        }
                    })?;
                    restored.push(base.join(dir).join(name));
                    d.sync()
                }
                Step::Mkdir { base, dir } => {
                    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
                        return Ok(());
                    };
                    let d = match dirs.get(base, parent) {
                        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        other => other?,
                    };
                    // Only an empty folder goes: something else may have been put in it.
                    let _ = d.rmdir(name);
                    Ok(())
                }
            }
        })();
        if let Err(e) = r
            && first_error.is_none()
        {
            first_error = Some(e);
        }
    }
    restored.reverse();
    kept.reverse();
    dirs.kept.extend(kept);
    match first_error {
        Some(e) => Err(e),
        None => Ok(restored),
    }
}

/// Writes and removes several files all or nothing, across a crash too (module doc). Each
/// path must be locked by the caller ([`crate::fileio::txn::Transaction`]). On error
/// nothing is changed, or what was changed is put back ([`CommitError::left`]). A termination
/// signal caught by `stop` before the commit point stops the write the same way.
pub fn commit(fs: &Fs, changes: &[Change<'_>], stop: &Stop) -> Result<(), CommitError> {
    let untouched = |index, error| CommitError {
        index,
        error,
        left: Left::Untouched,
    };
    let mut steps = Vec::new();
    let mut mkdirs: Vec<Step> = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        let (step, missing) = plan(fs, c).map_err(|e| untouched(i, e))?;
        if let Step::Write { base, .. } = &step {
            for dir in missing {
                let m = Step::Mkdir {
                    base: base.clone(),
                    dir,
                };
                if !mkdirs.contains(&m) {
                    mkdirs.push(m);
                }
            }
        }
        steps.push(step);
    }
    mkdirs.extend(steps);
    let mut record = Record {
        state: State::Preparing,
        pid: std::process::id(),
        steps: mkdirs,
    };
    let jdir = match fs.journal_dir(true) {
        Ok(Some(d)) => d,
        Ok(None) => return Err(untouched(0, io::Error::other("no journal folder"))),
        Err(e) => return Err(untouched(0, e)),
    };
    let journal = Journal::create(&jdir, &record, true).map_err(|e| untouched(0, e))?;
    let mut dirs = Dirs::new(fs);
    let prepared = prepare(&mut dirs, changes, &record.steps, stop)
        .and_then(|()| stop.check().map_err(|e| (0, e)))
        .and_then(|()| journal.set_state(State::Committing).map_err(|e| (0, e)));
    if let Err((index, error)) = prepared {
        dirs.known_only = true;
        let left = match roll_back(&mut dirs, &record).and_then(|_| journal.finish()) {
            Ok(()) => Left::Untouched,
            Err(e) => Left::Broken(e),
        };
        return Err(CommitError { index, error, left });
    }
    record.state = State::Committing;
    if let Err((index, error)) = apply(&mut dirs, &record.steps) {
        let left = match roll_back(&mut dirs, &record).and_then(|_| journal.finish()) {
            Ok(()) => Left::Restored,
            Err(e) => Left::Broken(e),
        };
        return Err(CommitError { index, error, left });
    }
    if let Err(error) = journal.set_state(State::Done) {
        // Still a C journal on disk: put everything back now rather than leave it to chance.
        let left = match roll_back(&mut dirs, &record).and_then(|_| journal.finish()) {
            Ok(()) => Left::Restored,
            Err(e) => Left::Broken(e),
        };
        return Err(CommitError {
            index: 0,
            error,
            left,
        });
    }
    // Committed: only the backups remain to go. If that fails, the journal stays (in D) and
    // the next call finishes the cleanup; the write itself stands.
    if roll_forward(&mut dirs, &record).is_ok() {
        let _ = journal.finish();
    }
    Ok(())
}

/// Finishes a D journal: deletes what is left of its backups and temp files. Safe to repeat.
fn roll_forward(dirs: &mut Dirs<'_>, rec: &Record) -> io::Result<()> {
    let mut first_error = None;
    for step in &rec.steps {
        let (base, dir, names): (&Path, &Path, Vec<&OsString>) = match step {
            Step::Write {
                base,
                dir,
                temp,
                backup,
                ..
            } => (base, dir, std::iter::once(temp).chain(backup).collect()),
            Step::Remove {
                base, dir, backup, ..
            } => (base, dir, vec![backup]),
            Step::Temp { base, dir, temp } => (base, dir, vec![temp]),
            Step::Place {
                base, dir, backup, ..
            } => (base, dir, backup.iter().collect()),
            // The temp tree (gone once placed) and the set-aside source go whole.
            Step::Tree { base, dir, temp }
            | Step::Aside {
                base, dir, temp, ..
            } => {
                let r = match dirs.get(base, dir) {
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    other => other.and_then(|d| gone_ok(tree::remove_all(d, temp, &Stop::never()))),
                };
                if let Err(e) = r
                    && first_error.is_none()
                {
                    first_error = Some(e);
                }
                continue;
            }
            Step::Mkdir { .. } => continue,
        };
        let d = match dirs.get(base, dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            other => other,
        };
        let r = d.and_then(|d| names.into_iter().try_for_each(|n| gone_ok(d.unlink(n))));
        if let Err(e) = r
            && first_error.is_none()
        {
            first_error = Some(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}
