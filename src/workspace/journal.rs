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
//! agtool-journal 1
//! state C
//! pid 4242
//! write <root> <folder> <name> <temp> <backup or ->
//! remove <root> <folder> <name> <backup>
//! temp <root> <folder> <temp>
//! mkdir <root> <folder>
//! end
//! ```
//!
//! `<root>` is the allowed root (absolute), `<folder>` the target's folder relative to it
//! (`.` for the root itself); temp and backup names follow
//! [`temp_name`](crate::workspace::beneath::temp_name) and must carry the journal's pid. The
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
//!   if the write created it); a removed target is put back from its backup. Every step reads
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
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime};

use crate::workspace::beneath::{Dir, Kind, parse_temp_name, temp_name};
use crate::workspace::fs::{Fs, Stop, existing_mode, fill};
use crate::workspace::policy::CheckedPath;

const MAGIC: &str = "agtool-journal 1\n";
/// Offset of the state byte: after the magic line and `state `.
const STATE_AT: u64 = (MAGIC.len() + "state ".len()) as u64;
/// A `.new` file whose lock is free is deleted only when older than this: its writer may be
/// between creating and locking it.
const NEW_GRACE: Duration = Duration::from_secs(5);
/// The recovery lock's name in the journal folder.
const LOCK_NAME: &str = "lock";

static JOURNAL_COUNTER: AtomicU32 = AtomicU32::new(0);

/// Where a journal stands (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A single write's temp file exists.
    Temp,
    /// Temp files and backups are being made; no target has changed.
    Preparing,
    /// Targets are being replaced.
    Committing,
    /// Every target is replaced: only backups remain to delete (the commit point).
    Done,
}

impl State {
    fn byte(self) -> u8 {
        match self {
            State::Temp => b'T',
            State::Preparing => b'P',
            State::Committing => b'C',
            State::Done => b'D',
        }
    }

    fn from_byte(b: u8) -> Option<State> {
        match b {
            b'T' => Some(State::Temp),
            b'P' => Some(State::Preparing),
            b'C' => Some(State::Committing),
            b'D' => Some(State::Done),
            _ => None,
        }
    }
}

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// Replace (or create, when `backup` is `None`) `dir/name` with `dir/temp`.
    Write {
        base: PathBuf,
        dir: PathBuf,
        name: OsString,
        temp: OsString,
        backup: Option<OsString>,
    },
    /// Remove `dir/name`, kept as `dir/backup` until the end.
    Remove {
        base: PathBuf,
        dir: PathBuf,
        name: OsString,
        backup: OsString,
    },
    /// A single write's temp file.
    Temp {
        base: PathBuf,
        dir: PathBuf,
        temp: OsString,
    },
    /// A folder the write makes (relative to `base`).
    Mkdir { base: PathBuf, dir: PathBuf },
}

/// A whole journal.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    state: State,
    pid: u32,
    steps: Vec<Step>,
}

/// Percent-encodes every byte outside printable ASCII, `%` and space; `.` stands for empty.
fn enc(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_graphic() && b != b'%' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn dec(field: &str) -> Option<Vec<u8>> {
    if field == "." {
        return Some(Vec::new());
    }
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

fn enc_path(p: &Path) -> String {
    enc(p.as_os_str().as_bytes())
}

impl Record {
    fn render(&self) -> String {
        let mut out = format!(
            "{MAGIC}state {}\npid {}\n",
            self.state.byte() as char,
            self.pid
        );
        for step in &self.steps {
            let line = match step {
                Step::Write {
                    base,
                    dir,
                    name,
                    temp,
                    backup,
                } => format!(
                    "write {} {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(name.as_bytes()),
                    enc(temp.as_bytes()),
                    backup
                        .as_ref()
                        .map_or("-".to_owned(), |b| enc(b.as_bytes()))
                ),
                Step::Remove {
                    base,
                    dir,
                    name,
                    backup,
                } => format!(
                    "remove {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(name.as_bytes()),
                    enc(backup.as_bytes())
                ),
                Step::Temp { base, dir, temp } => format!(
                    "temp {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(temp.as_bytes())
                ),
                Step::Mkdir { base, dir } => format!("mkdir {} {}", enc_path(base), enc_path(dir)),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("end\n");
        out
    }

    /// Parses a journal; `None` when it is not one, or not complete.
    fn parse(text: &[u8]) -> Option<Record> {
        let text = std::str::from_utf8(text).ok()?;
        let rest = text.strip_prefix(MAGIC)?;
        let mut lines = rest.lines();
        let state = State::from_byte(*lines.next()?.strip_prefix("state ")?.as_bytes().first()?)?;
        let pid = lines.next()?.strip_prefix("pid ")?.parse().ok()?;
        let mut steps = Vec::new();
        let path = |f: &str| dec(f).map(|b| PathBuf::from(OsString::from_vec(b)));
        let name = |f: &str| dec(f).map(OsString::from_vec);
        for line in lines {
            let f: Vec<&str> = line.split(' ').collect();
            let step = match f.as_slice() {
                ["end"] => return Some(Record { state, pid, steps }),
                ["write", base, dir, n, temp, backup] => Step::Write {
                    base: path(base)?,
                    dir: path(dir)?,
                    name: name(n)?,
                    temp: name(temp)?,
                    backup: if *backup == "-" {
                        None
                    } else {
                        Some(name(backup)?)
                    },
                },
                ["remove", base, dir, n, backup] => Step::Remove {
                    base: path(base)?,
                    dir: path(dir)?,
                    name: name(n)?,
                    backup: name(backup)?,
                },
                ["temp", base, dir, temp] => Step::Temp {
                    base: path(base)?,
                    dir: path(dir)?,
                    temp: name(temp)?,
                },
                ["mkdir", base, dir] => Step::Mkdir {
                    base: path(base)?,
                    dir: path(dir)?,
                },
                _ => return None,
            };
            steps.push(step);
        }
        None
    }
}

/// An open journal of this process: its file stays locked until it is finished or dropped.
struct Journal<'d> {
    dir: &'d Dir,
    name: OsString,
    file: File,
    durable: bool,
}

impl<'d> Journal<'d> {
    /// Writes `record` as a new journal in `dir` (module doc, "Files"). `durable`: fsync it
    /// and the folder before returning.
    fn create(dir: &'d Dir, record: &Record, durable: bool) -> io::Result<Journal<'d>> {
        let n = JOURNAL_COUNTER.fetch_add(1, Ordering::Relaxed);
        let id = format!("{}-{n}", std::process::id());
        let new = OsString::from(format!(".{id}.new"));
        let name = OsString::from(format!("{id}.j"));
        let mut file = dir.create_new(&new, 0o644)?;
        let written = file
            .lock()
            .and_then(|()| file.write_all(record.render().as_bytes()))
            .and_then(|()| if durable { file.sync_all() } else { Ok(()) })
            .and_then(|()| dir.rename(&new, dir, &name))
            .and_then(|()| if durable { dir.sync() } else { Ok(()) });
        if let Err(e) = written {
            let _ = dir.unlink(&new);
            return Err(e);
        }
        Ok(Journal {
            dir,
            name,
            file,
            durable,
        })
    }

    /// Moves to `state` (one byte, then `fdatasync`).
    fn set_state(&self, state: State) -> io::Result<()> {
        rustix::io::pwrite(&self.file, &[state.byte()], STATE_AT)
            .map_err(|e| io::Error::from_raw_os_error(e.raw_os_error()))?;
        if self.durable {
            self.file.sync_data()?;
        }
        Ok(())
    }

    /// Removes the journal (the commit point of a multi-file write).
    fn finish(self) -> io::Result<()> {
        self.dir.unlink(&self.name)?;
        if self.durable {
            self.dir.sync()?;
        }
        Ok(())
    }
}

/// A note that a single write's temp file exists, so recovery removes it if this process is
/// killed (module doc, "Temp notes"). Removed when dropped.
pub struct TempNote {
    dir: Dir,
    name: OsString,
    _file: File,
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
        let (name, file) = (j.name, j.file);
        Some(TempNote {
            dir: jdir,
            name,
            _file: file,
        })
    }
}

impl Drop for TempNote {
    fn drop(&mut self) {
        let _ = self.dir.unlink(&self.name);
    }
}

/// One file of a multi-file write.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// Write `bytes` to the path (created with `new_mode` when new). `before`: its current
    /// bytes, used as the backup when the filesystem refuses hard links.
    Write {
        /// The policy-checked path (its resolved path is written).
        path: &'a CheckedPath,
        /// The new content.
        bytes: &'a [u8],
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
    /// The error (see [`crate::workspace::fs::describe`]).
    pub error: io::Error,
    /// What state the files are in.
    pub left: Left,
}

/// Folder handles by (root, folder), a few at a time.
struct Dirs<'f> {
    fs: &'f Fs,
    open: Vec<((PathBuf, PathBuf), Dir)>,
}

impl<'f> Dirs<'f> {
    fn new(fs: &'f Fs) -> Dirs<'f> {
        Dirs {
            fs,
            open: Vec::new(),
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
        let h = self.fs.root(base)?.open_dir(dir)?;
        if self.open.len() >= 64 {
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
            let root = fs.root(&path.base)?;
            // The nearest existing folder above the target, and the ones to make below it.
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
    fill(&mut f, bytes, Some(st.mode), &Stop::never())
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
            let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
                continue;
            };
            let made = dirs
                .get(base, parent)
                .and_then(|d| d.mkdir(name, 0o777))
                .or_else(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        Ok(())
                    } else {
                        Err(e)
                    }
                });
            made.map_err(|e| (0, e))?;
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
                    bytes,
                    new_mode,
                    before,
                    ..
                },
            ) => {
                let d = dirs.get(base, dir).map_err(fail)?;
                let mode = existing_mode(d, name, *new_mode).map_err(fail)?;
                let mut f = d.create_new(temp, 0o666).map_err(fail)?;
                fill(&mut f, bytes, mode, stop).map_err(fail)?;
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
                ..
            } => {
                k += 1;
                dirs.get(base, dir)
                    .and_then(|d| d.rename(temp, d, name))
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
fn roll_back(fs: &Fs, rec: &Record) -> io::Result<Vec<PathBuf>> {
    let mut dirs = Dirs::new(fs);
    let mut restored = Vec::new();
    let mut first_error = None;
    let committing = rec.state == State::Committing;
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
                    let d = dirs.get(base, dir)?;
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
    match first_error {
        Some(e) => Err(e),
        None => Ok(restored),
    }
}

/// Writes and removes several files all or nothing, across a crash too (module doc). Each
/// path must be locked by the caller ([`crate::workspace::txn::Transaction`]). On error
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
        let left = match roll_back(fs, &record).and_then(|_| journal.finish()) {
            Ok(()) => Left::Untouched,
            Err(e) => Left::Broken(e),
        };
        return Err(CommitError { index, error, left });
    }
    record.state = State::Committing;
    if let Err((index, error)) = apply(&mut dirs, &record.steps) {
        let left = match roll_back(fs, &record).and_then(|_| journal.finish()) {
            Ok(()) => Left::Restored,
            Err(e) => Left::Broken(e),
        };
        return Err(CommitError { index, error, left });
    }
    if let Err(error) = journal.set_state(State::Done) {
        // Still a C journal on disk: put everything back now rather than leave it to chance.
        let left = match roll_back(fs, &record).and_then(|_| journal.finish()) {
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
    if roll_forward(fs, &record).is_ok() {
        let _ = journal.finish();
    }
    Ok(())
}

/// Finishes a D journal: deletes what is left of its backups and temp files. Safe to repeat.
fn roll_forward(fs: &Fs, rec: &Record) -> io::Result<()> {
    let mut dirs = Dirs::new(fs);
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

/// Whether a journal's steps stay where recovery may act: writable roots of the current
/// policy, single names, temp and backup names of the journal's own process.
fn trusted(fs: &Fs, rec: &Record) -> bool {
    let ours = |n: &OsStr| parse_temp_name(n) == Some(rec.pid);
    let plain = |p: &Path| {
        p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
    };
    rec.steps.iter().all(|s| match s {
        Step::Write {
            base,
            dir,
            temp,
            backup,
            ..
        } => {
            fs.is_write_base(base) && plain(dir) && ours(temp) && backup.as_deref().is_none_or(ours)
        }
        Step::Remove {
            base, dir, backup, ..
        } => fs.is_write_base(base) && plain(dir) && ours(backup),
        Step::Temp { base, dir, temp } => fs.is_write_base(base) && plain(dir) && ours(temp),
        Step::Mkdir { base, dir } => fs.is_write_base(base) && plain(dir),
    })
}

/// Recovers every journal of a dead process in the workspace (module doc, "Recovery").
/// Returns one line per thing done, for the caller to say once (paths through `show`). Cheap
/// when there is nothing to do: one look at the journal folder.
pub fn recover(fs: &Fs, show: &dyn Fn(&Path) -> String) -> Vec<String> {
    let Ok(Some(jdir)) = fs.journal_dir(false) else {
        return Vec::new();
    };
    let busy =
        |entries: &[crate::workspace::beneath::Entry]| entries.iter().any(|e| e.name != LOCK_NAME);
    if !jdir.entries().is_ok_and(|e| busy(&e)) {
        return Vec::new();
    }
    let lock = match jdir.create_new(OsStr::new(LOCK_NAME), 0o644).or_else(|_| {
        jdir.open_file(Path::new(LOCK_NAME)).and_then(|f| {
            if f.metadata()?.is_file() {
                Ok(f)
            } else {
                Err(io::Error::other("not a file"))
            }
        })
    }) {
        Ok(f) => f,
        Err(e) => return vec![format!("cannot lock the journal folder to recover it: {e}")],
    };
    if lock.lock().is_err() {
        return Vec::new();
    }
    let mut said = Vec::new();
    let Ok(entries) = jdir.entries() else {
        return said;
    };
    for e in entries {
        let name = e.name;
        let text = name.to_string_lossy().into_owned();
        if text == LOCK_NAME {
            continue;
        }
        let Ok(mut file) = jdir.open_file(Path::new(&name)) else {
            continue;
        };
        if file.try_lock().is_err() {
            continue; // its process is alive
        }
        let Ok(meta) = file.metadata() else { continue };
        if !meta.is_file() || std::os::unix::fs::MetadataExt::nlink(&meta) == 0 {
            continue;
        }
        if text.starts_with('.') && text.ends_with(".new") {
            let old = meta
                .modified()
                .ok()
                .and_then(|m| SystemTime::now().duration_since(m).ok())
                .is_some_and(|age| age > NEW_GRACE);
            if old {
                let _ = jdir.unlink(&name);
            }
            continue;
        }
        let mut bytes = Vec::new();
        let record = file
            .read_to_end(&mut bytes)
            .ok()
            .and_then(|_| Record::parse(&bytes));
        let Some(rec) = record else {
            said.push(format!(
                "journal .agent-state/journal/{text} is unreadable; it was left as it is"
            ));
            continue;
        };
        if !trusted(fs, &rec) {
            said.push(format!(
                "journal .agent-state/journal/{text} names files outside the writable roots; it \
                 was left as it is"
            ));
            continue;
        }
        match rec.state {
            State::Temp => {
                for s in &rec.steps {
                    if let Step::Temp { base, dir, temp } = s
                        && let Ok(d) = fs.root(base).and_then(|r| r.open_dir(dir))
                        && d.unlink(temp).is_ok()
                    {
                        said.push(format!(
                            "removed {} left by a killed write (process {})",
                            show(&base.join(dir).join(temp)),
                            rec.pid
                        ));
                    }
                }
                let _ = jdir.unlink(&name);
            }
            State::Done => match roll_forward(fs, &rec) {
                Ok(()) => {
                    said.push(format!(
                        "removed the backups left by a completed write (process {})",
                        rec.pid
                    ));
                    let _ = jdir.unlink(&name);
                    let _ = jdir.sync();
                }
                Err(e) => said.push(format!(
                    "could not remove the leftovers of a finished write of process {} ({}); \
                     the next call tries again",
                    rec.pid,
                    crate::workspace::fs::describe(&e)
                )),
            },
            State::Preparing | State::Committing => match roll_back(fs, &rec) {
                Ok(restored) => {
                    let targets: Vec<String> = rec
                        .steps
                        .iter()
                        .filter_map(|s| match s {
                            Step::Write {
                                base, dir, name, ..
                            }
                            | Step::Remove {
                                base, dir, name, ..
                            } => Some(show(&base.join(dir).join(name))),
                            _ => None,
                        })
                        .collect();
                    said.push(if restored.is_empty() {
                        format!(
                            "removed the temp files of an interrupted write (process {}) that \
                             had changed nothing yet: {}",
                            rec.pid,
                            targets.join(", ")
                        )
                    } else {
                        format!(
                            "rolled back an interrupted write (process {}) so that no file is \
                             half-changed: {} restored ({})",
                            rec.pid,
                            restored.len(),
                            targets.join(", ")
                        )
                    });
                    let _ = jdir.unlink(&name);
                    let _ = jdir.sync();
                }
                Err(e) => said.push(format!(
                    "could not roll back the interrupted write of process {} ({}); the next \
                     call tries again",
                    rec.pid,
                    crate::workspace::fs::describe(&e)
                )),
            },
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::policy::{Access, PathPolicy};

    #[test]
    fn records_round_trip_and_incomplete_ones_are_refused() {
        let rec = Record {
            state: State::Committing,
            pid: 42,
            steps: vec![
                Step::Mkdir {
                    base: "/r".into(),
                    dir: "a b".into(),
                },
                Step::Write {
                    base: "/r".into(),
                    dir: "".into(),
                    name: OsString::from_vec(b"x%\xff y".to_vec()),
                    temp: ".x.agtool-42-0".into(),
                    backup: None,
                },
                Step::Remove {
                    base: "/r".into(),
                    dir: "a b".into(),
                    name: "z".into(),
                    backup: ".z.agtool-42-1".into(),
                },
            ],
        };
        let text = rec.render();
        assert_eq!(text.as_bytes()[STATE_AT as usize], b'C');
        assert_eq!(Record::parse(text.as_bytes()), Some(rec));
        assert_eq!(Record::parse(&text.as_bytes()[..text.len() - 4]), None);
        assert_eq!(Record::parse(b"garbage"), None);
    }

    struct Fixture {
        _t: tempfile::TempDir,
        root: PathBuf,
        policy: PathPolicy,
        fs: Fs,
    }

    fn fixture() -> Fixture {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let policy = PathPolicy::new(&root, &[], &[], &[], None);
        let fs = Fs::new(&root, policy.write_bases());
        Fixture {
            _t: t,
            root,
            policy,
            fs,
        }
    }

    impl Fixture {
        fn path(&self, s: &str) -> CheckedPath {
            self.policy.check(&self.root, s, Access::Write).unwrap()
        }

        fn names(&self) -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(&self.root)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n != ".agent-state")
                .collect();
            v.sort();
            v
        }

        fn journals(&self) -> usize {
            std::fs::read_dir(self.root.join(".agent-state/journal"))
                .map(|r| r.flatten().filter(|e| e.file_name() != LOCK_NAME).count())
                .unwrap_or(0)
        }
    }

    #[test]
    fn a_commit_writes_creates_and_removes_all_at_once() {
        let f = fixture();
        std::fs::write(f.root.join("a"), "old a").unwrap();
        std::fs::write(f.root.join("gone"), "bye").unwrap();
        let (a, n, g) = (f.path("a"), f.path("new/dir/n"), f.path("gone"));
        let changes = [
            Change::Write {
                path: &a,
                bytes: b"new a",
                new_mode: None,
                before: Some(b"old a"),
            },
            Change::Write {
                path: &n,
                bytes: b"n",
                new_mode: Some(0o700),
                before: None,
            },
            Change::Remove {
                path: &g,
                before: Some(b"bye"),
            },
        ];
        commit(&f.fs, &changes, &Stop::never()).unwrap();
        assert_eq!(std::fs::read(f.root.join("a")).unwrap(), b"new a");
        assert_eq!(std::fs::read(f.root.join("new/dir/n")).unwrap(), b"n");
        assert!(!f.root.join("gone").exists());
        assert_eq!(f.names(), vec!["a", "new"]);
        assert_eq!(f.journals(), 0);
    }

    /// Writes the journal of a killed commit by hand, at each state, and checks recovery.
    #[test]
    fn recovery_rolls_back_a_dead_commit_at_every_state() {
        for (state, renamed) in [
            (State::Preparing, 0),
            (State::Committing, 0),
            (State::Committing, 1),
            (State::Committing, 2),
        ] {
            let f = fixture();
            std::fs::write(f.root.join("a"), "old a").unwrap();
            std::fs::write(f.root.join("b"), "old b").unwrap();
            let pid = 999_999u32;
            let name = |n: &str, k: u32| OsString::from(format!(".{n}.agtool-{pid}-{k}"));
            let w = |n: &str, k| Step::Write {
                base: f.root.clone(),
                dir: PathBuf::new(),
                name: n.into(),
                temp: name(n, k),
                backup: Some(name(n, k + 10)),
            };
            let rec = Record {
                state,
                pid,
                steps: vec![w("a", 0), w("b", 1)],
            };
            for (k, n) in ["a", "b"].iter().enumerate() {
                std::fs::write(f.root.join(name(n, k as u32)), format!("new {n}")).unwrap();
                std::fs::hard_link(f.root.join(n), f.root.join(name(n, k as u32 + 10))).unwrap();
            }
            for (k, n) in ["a", "b"].iter().enumerate().take(renamed) {
                std::fs::rename(f.root.join(name(n, k as u32)), f.root.join(n)).unwrap();
            }
            let jdir = f.fs.journal_dir(true).unwrap().unwrap();
            std::fs::write(jdir.path().join(format!("{pid}-0.j")), rec.render()).unwrap();
            let said = recover(&f.fs, &|p| p.display().to_string());
            assert_eq!(said.len(), 1, "{said:?}");
            assert_eq!(
                std::fs::read(f.root.join("a")).unwrap(),
                b"old a",
                "{state:?} {renamed}"
            );
            assert_eq!(std::fs::read(f.root.join("b")).unwrap(), b"old b");
            assert_eq!(f.names(), vec!["a", "b"], "temp files and backups removed");
            assert_eq!(f.journals(), 0);
            assert!(recover(&f.fs, &|p| p.display().to_string()).is_empty());
        }
    }

    #[test]
    fn recovery_rolls_a_done_commit_forward() {
        let f = fixture();
        std::fs::write(f.root.join("a"), "new a").unwrap();
        std::fs::write(f.root.join(".a.agtool-999999-1"), "old a").unwrap();
        let rec = Record {
            state: State::Done,
            pid: 999_999,
            steps: vec![Step::Write {
                base: f.root.clone(),
                dir: PathBuf::new(),
                name: "a".into(),
                temp: ".a.agtool-999999-0".into(),
                backup: Some(".a.agtool-999999-1".into()),
            }],
        };
        let jdir = f.fs.journal_dir(true).unwrap().unwrap();
        std::fs::write(jdir.path().join("999999-0.j"), rec.render()).unwrap();
        let said = recover(&f.fs, &|p| p.display().to_string());
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(std::fs::read(f.root.join("a")).unwrap(), b"new a");
        assert_eq!(f.names(), vec!["a"]);
        assert_eq!(f.journals(), 0);
    }

    #[test]
    fn a_live_journal_is_left_alone_and_an_untrusted_one_too() {
        let f = fixture();
        let jdir = f.fs.journal_dir(true).unwrap().unwrap();
        let rec = Record {
            state: State::Temp,
            pid: std::process::id(),
            steps: vec![Step::Temp {
                base: f.root.clone(),
                dir: PathBuf::new(),
                temp: temp_name(OsStr::new("x")),
            }],
        };
        let live = Journal::create(&jdir, &rec, false).unwrap();
        assert!(recover(&f.fs, &|p| p.display().to_string()).is_empty());
        assert_eq!(f.journals(), 1);
        live.finish().unwrap();
        let evil = Record {
            state: State::Committing,
            pid: 7,
            steps: vec![Step::Write {
                base: "/".into(),
                dir: "etc".into(),
                name: "passwd".into(),
                temp: ".passwd.agtool-7-0".into(),
                backup: None,
            }],
        };
        std::fs::write(jdir.path().join("7-0.j"), evil.render()).unwrap();
        let said = recover(&f.fs, &|p| p.display().to_string());
        assert!(said[0].contains("outside the writable roots"), "{said:?}");
    }
}
