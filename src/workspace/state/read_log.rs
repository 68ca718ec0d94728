//! The read log: where a call that only reads records what it showed, without opening the
//! database (spec 01, "State store"; issue 18 §7, start-up row).
//!
//! Opening the SQLite database costs a short call more than half a millisecond (the WAL index
//! rebuilt, the schema parsed, a transaction committed), a fifth of a `read-file`. So a
//! process that has not opened the database appends its freshness record to
//! `.agent-state/reads.log` instead: one JSON object per line, `{"agent", "path", "tag",
//! "at_ms"}`, written by one `write` under a shared `flock`. Whoever next opens the database
//! (an edit, `state show`, a long-lived server before each freshness operation) folds the log
//! in first: it takes the database's write lock, then the log's exclusive lock, applies every
//! record in order in the same transaction (the tag recorded, the failure counters cleared, as
//! a read does), commits, and empties the log before letting go of it.
//!
//! Crash safety: a writer killed mid-line (or cut short by a full disk) leaves a line that
//! does not parse (a prefix of a JSON object never does); it is skipped, so that read counts
//! as not recorded and the edit is refused until the file is read again, never allowed
//! wrongly. Every record starts with a newline of its own, so the next one is not glued to a
//! cut line and lost with it; empty lines are skipped. A folder killed between its
//! commit and the emptying leaves records already applied: the next folder waits for the
//! log's lock, which the dead process no longer holds, and applies them again, with nothing
//! else having run in between, which changes nothing.
//!
//! Bounds: the log's lock is waited on for at most [`BUSY_TIMEOUT`] (a process stopped
//! while holding it holds nobody up for longer; a read then shows the file with a note that
//! its read was not recorded); a log past [`MAX_LOG_BYTES`] is set aside unread; lines are
//! read 64 KiB at a time. A log that is not a regular file, or has a second name (a hard
//! link), is never followed or written: an append refuses it (the read is noted as not
//! recorded) and the next fold moves it aside unread, said once.
//!
//! Trust: the log is as trusted as the database beside it. Whoever can write `.agent-state/`
//! can add records (and so let an edit through) in either; agtool's own tools refuse to
//! write there, and the sandbox keeps commands it runs from doing so.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::repair::rename_aside;
use super::{BUSY_TIMEOUT, StateResult, StateStore, check_agent_id, now_ms, path_key};

pub use super::READ_LOG;
/// Log size past which the process that appended opens the database to fold the log in, so a
/// run of reads with no edit keeps it small (~150 bytes a record: about 7,000 reads).
pub const FOLD_AT_BYTES: u64 = 1024 * 1024;
/// Largest log folded in: agtool folds at [`FOLD_AT_BYTES`], so a log past this (~100,000
/// records) was not grown by it alone; it is moved aside as `reads.log.set-aside-<time>` (said
/// once) instead of being read, which would hold every caller up for seconds.
pub const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;
/// Longest record line read back; a longer one (not written by agtool: paths are at most
/// 4,096 bytes) is skipped.
const MAX_RECORD_BYTES: usize = 64 * 1024;

/// One line of the log.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct ReadRecord<'a> {
    agent: std::borrow::Cow<'a, str>,
    path: std::borrow::Cow<'a, str>,
    tag: std::borrow::Cow<'a, str>,
    at_ms: i64,
}

/// Opens the log in `state_dir` for appending, creating it (mode 0644) when missing, and
/// returns it with its size. Refuses a symlink there (never followed), anything but a regular
/// file (a FIFO is opened without blocking) and a file with a second name, saying that the
/// next fold moves it aside.
fn open_for_append(state_dir: &Path) -> Result<(File, u64), String> {
    let path = state_dir.join(READ_LOG);
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| {
            let why = describe_open(&path, &e);
            if is_not_a_file(&e) {
                format!("{why}{MOVED_ASIDE_NEXT}")
            } else {
                why
            }
        })?;
    let size = require_regular(&file, &path).map_err(|why| format!("{why}{MOVED_ASIDE_NEXT}"))?;
    Ok((file, size))
}

/// What an append that met something other than agtool's log says will happen to it.
const MOVED_ASIDE_NEXT: &str =
    "; the next call that opens the state database (an edit, `agtool state show`) moves it aside";

/// Refuses an open log that is not a regular file, or that has another name (a hard link,
/// which `O_NOFOLLOW` does not see, may lead outside the workspace). Returns its size.
fn require_regular(file: &File, path: &Path) -> Result<u64, String> {
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot use the read log {}: {e}", path.display()))?;
    if !meta.is_file() {
        Err(format!(
            "the read log {} is not a regular file",
            path.display()
        ))
    } else if meta.nlink() != 1 {
        Err(format!(
            "the read log {} has {} hard links (another name for it may be outside the \
             workspace)",
            path.display(),
            meta.nlink()
        ))
    } else {
        Ok(meta.len())
    }
}

/// Takes the log's lock (`shared` for an append, else alone), waiting at most `wait`
/// (callers pass [`BUSY_TIMEOUT`]): a process stopped while holding it must not hold every
/// caller up.
fn lock_within(
    file: &File,
    shared: bool,
    path: &Path,
    wait: std::time::Duration,
) -> Result<(), String> {
    let start = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(1);
    loop {
        let tried = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        match tried {
            Ok(()) => return Ok(()),
            Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "the read log {} has been locked by another process for over {} s \
                     (`fuser {}` names it)",
                    path.display(),
                    wait.as_secs(),
                    path.display()
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("cannot lock the read log {}: {e}", path.display()));
            }
        }
    }
}

/// What [`append`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// The record was written; the log is now `size` bytes (the caller folds it in past
    /// [`FOLD_AT_BYTES`]).
    Written {
        /// The log's size in bytes after the append.
        size: u64,
    },
    /// Nothing was written: the log is past [`MAX_LOG_BYTES`]. The caller folds (which sets
    /// it aside) and appends again.
    LogTooBig,
}

/// Appends the record "`agent` was shown `tag` for `real_path`" to the log in `state_dir`.
/// Errors name the log: a symlink, hard link or special file in its place, no permission, a
/// full disk, its lock held past [`BUSY_TIMEOUT`].
pub fn append(
    state_dir: &Path,
    agent: &str,
    real_path: &Path,
    tag: &str,
) -> Result<Appended, String> {
    let record = ReadRecord {
        agent: agent.into(),
        path: path_key(real_path).into(),
        tag: tag.into(),
        at_ms: now_ms(),
    };
    // Each record starts on a line of its own: after a write cut short (a full disk, a
    // killed writer) the next record is not glued to the cut one and lost with it.
    let mut line = vec![b'\n'];
    serde_json::to_writer(&mut line, &record).map_err(|e| e.to_string())?;
    line.push(b'\n');
    let (mut file, size) = open_for_append(state_dir)?;
    if size > MAX_LOG_BYTES {
        return Ok(Appended::LogTooBig);
    }
    let path = state_dir.join(READ_LOG);
    // Shared: appends run side by side (O_APPEND places each whole line at the end); a fold
    // holds the lock alone while it reads and empties the log.
    lock_within(&file, true, &path, BUSY_TIMEOUT)?;
    file.write_all(&line)
        .map_err(|e| format!("cannot write the read log {}: {e}", path.display()))?;
    let size = file.metadata().map_or(size, |m| m.len());
    Ok(Appended::Written { size })
}

/// Why nothing could be appended to the log in `state_dir` now (it cannot be opened for
/// appending), or None. Writes nothing.
pub fn append_problem(state_dir: &Path) -> Option<String> {
    open_for_append(state_dir).err()
}

/// Whether a failed open of the log means something other than a file is in its place.
fn is_not_a_file(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::ELOOP | libc::ENXIO | libc::ENODEV | libc::EISDIR)
    )
}

/// Why a read log cannot be opened (with what fixes it, where a person must act).
fn describe_open(path: &Path, e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::ELOOP) => format!(
            "the read log {} is a symlink (never followed)",
            path.display()
        ),
        // A FIFO without a reader, a socket, a device.
        Some(libc::ENXIO) | Some(libc::ENODEV) | Some(libc::EISDIR) => {
            format!("the read log {} is not a regular file", path.display())
        }
        Some(libc::EACCES) | Some(libc::EPERM) => format!(
            "cannot open the read log {}: {e}; give yourself write access to it or run \
             `agtool state reset`",
            path.display()
        ),
        _ => format!("cannot open the read log {}: {e}", path.display()),
    }
}

/// Whether the log in `state_dir` holds anything to fold in (a missing or empty log does not;
/// anything else in its place does, so the fold can name it).
fn has_records(state_dir: &Path) -> bool {
    match std::fs::symlink_metadata(state_dir.join(READ_LOG)) {
        Ok(m) => !m.is_file() || m.size() > 0,
        Err(_) => false,
    }
}

impl StateStore {
    /// Folds the read log into the database (see the module documentation): a no-op costing
    /// one `lstat` when the log is missing or empty. Returns how many records were applied.
    /// Errors: the database busy past the busy timeout, or the log unusable (named).
    pub fn fold_reads(&self) -> StateResult<usize> {
        self.fold_reads_within(BUSY_TIMEOUT)
    }

    /// [`StateStore::fold_reads`], waiting at most `wait` for the log's lock (the database's
    /// own busy timeout is the connection's).
    pub(super) fn fold_reads_within(&self, wait: std::time::Duration) -> StateResult<usize> {
        if !has_records(&self.dir) {
            return Ok(0);
        }
        let path = self.dir.join(READ_LOG);
        // The database's write lock first, then the log's: appenders never wait on the
        // database, so they wait on the log's lock only while it is read, not while another
        // process holds the database.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.err(e))?;
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&path);
        // Something agtool did not put there (a symlink, FIFO, socket or folder, a second
        // name for a file elsewhere, a log past its bound) is moved aside unread, never
        // followed or written, and said once, as a corrupt database is.
        let why = match &opened {
            Err(e) if is_not_a_file(e) => Some(describe_open(&path, e)),
            Err(e) => return Err(describe_open(&path, e)),
            Ok(f) => match require_regular(f, &path) {
                Err(why) => Some(why),
                Ok(size) if size > MAX_LOG_BYTES => Some(format!(
                    "the read log {} was {size} bytes, past {MAX_LOG_BYTES} (agtool folds it at \
                     {FOLD_AT_BYTES})",
                    path.display()
                )),
                Ok(_) => None,
            },
        };
        if let Some(why) = why {
            drop(tx);
            drop(opened);
            let aside = rename_aside(&self.dir, READ_LOG, "set-aside")
                .map_err(|e| format!("{why}, and it cannot be moved aside: {e}"))?;
            self.add_notice(format!(
                "Note: {why}; it was moved aside unread as {}: reads it held are not recorded; \
                 read files again before editing them.",
                aside.display()
            ));
            return Ok(0);
        }
        let mut file = opened.map_err(|e| describe_open(&path, &e))?;
        lock_within(&file, false, &path, wait)?;
        let mut applied = 0;
        {
            let mut record_tag = tx
                .prepare_cached(
                    "INSERT INTO freshness (agent, path, tag, at_ms) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT(agent, path) DO UPDATE SET tag = excluded.tag, at_ms = excluded.at_ms",
                )
                .map_err(|e| self.err(e))?;
            let mut clear = tx
                .prepare_cached("DELETE FROM failures WHERE agent = ?1 AND path = ?2")
                .map_err(|e| self.err(e))?;
            let mut apply = |r: ReadRecord| -> rusqlite::Result<()> {
                record_tag.execute(params![r.agent, r.path, r.tag, r.at_ms])?;
                clear.execute(params![r.agent, r.path])?;
                applied += 1;
                Ok(())
            };
            let now = now_ms();
            for_each_line(&mut file, |line| match serde_json::from_slice(line) {
                Ok(r) if written_by_agtool(&r) => apply(ReadRecord {
                    // A time ahead of now would keep the agent from idle pruning for good.
                    at_ms: r.at_ms.min(now),
                    ..r
                })
                .map_err(|e| self.err(e)),
                // A record agtool could not have written (see `written_by_agtool`).
                Ok(_) => Ok(()),
                // A torn line (a writer killed mid-write) or one agtool did not write.
                Err(_) => Ok(()),
            })
            .map_err(|e| match e {
                LineError::Read(e) => format!("cannot read the read log {}: {e}", path.display()),
                LineError::Apply(e) => e,
            })?;
        }
        tx.commit().map_err(|e| self.err(e))?;
        file.set_len(0)
            .map_err(|e| format!("cannot empty the read log {}: {e}", path.display()))?;
        Ok(applied)
    }

    /// Empties the read log (`state reset`): records of reads before the reset are not
    /// folded in after it. A missing log is fine.
    pub(super) fn clear_reads(&self) -> StateResult<()> {
        let path = self.dir.join(READ_LOG);
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&path)
        {
            Ok(file) => {
                require_regular(&file, &path)?;
                lock_within(&file, false, &path, BUSY_TIMEOUT)?;
                file.set_len(0)
                    .map_err(|e| format!("cannot empty the read log {}: {e}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(describe_open(&path, &e)),
        }
    }
}

/// Whether a record is one agtool could have written: an agent id [`check_agent_id`]
/// accepts, an absolute path, a tag of 8 upper-case hex digits, a time after the epoch. The
/// log is as trusted as the database, but a line that breaks these rules would put in rows no
/// other way can (a 5,000-byte agent id, a blank path) and is skipped.
fn written_by_agtool(r: &ReadRecord) -> bool {
    check_agent_id(&r.agent).is_ok()
        && r.path.starts_with('/')
        && r.tag.len() == 8
        && r.tag
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'A'..=b'F'))
        && r.at_ms > 0
}

/// Why [`for_each_line`] stopped.
enum LineError {
    Read(std::io::Error),
    Apply(String),
}

/// Calls `f` on each newline-ended line of `file` (without the newline), reading 64 KiB at a
/// time: memory stays bounded whatever the file's size. Lines longer than
/// [`MAX_RECORD_BYTES`] and a last line without its newline (a write cut short) are skipped.
fn for_each_line(
    file: &mut File,
    mut f: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), LineError> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LineError::Read(e)),
        };
        let mut rest = &buf[..n];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            if !too_long && line.len() + end <= MAX_RECORD_BYTES {
                line.extend_from_slice(&rest[..end]);
                f(&line).map_err(LineError::Apply)?;
            }
            line.clear();
            too_long = false;
            rest = &rest[end + 1..];
        }
        if !too_long && line.len() + rest.len() <= MAX_RECORD_BYTES {
            line.extend_from_slice(rest);
        } else {
            line.clear();
            too_long = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_bounded_and_a_cut_last_line_is_skipped() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("log");
        let long = "x".repeat(MAX_RECORD_BYTES + 1);
        // Lines across the 64 KiB read boundary, an over-long one, and a last one cut short.
        let body = format!(
            "a\n{}\nb\n{long}\nc\n{}\ncut",
            "y".repeat(70_000),
            "z".repeat(5)
        );
        std::fs::write(&p, body).unwrap();
        let mut seen = Vec::new();
        let mut f = File::open(&p).unwrap();
        assert!(
            for_each_line(&mut f, |l| {
                seen.push(String::from_utf8(l.to_vec()).unwrap());
                Ok(())
            })
            .is_ok()
        );
        assert_eq!(seen, ["a", "b", "c", "zzzzz"]);
    }

    #[test]
    fn appended_reads_fold_in_once_and_in_order() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        let p = Path::new("/w/a");
        s.bump_failures("a", p, "edit_lines").unwrap();
        append(t.path(), "a", p, "AAAAAAAA").unwrap();
        append(t.path(), "a", p, "BBBBBBBB").unwrap();
        append(t.path(), "b", p, "CCCCCCCC").unwrap();
        // Not yet in the table: the store folds on its next freshness operation.
        assert_eq!(s.fold_reads().unwrap(), 3);
        assert_eq!(s.fold_reads().unwrap(), 0, "the log was emptied");
        assert_eq!(s.recorded_tag("a", p).unwrap().as_deref(), Some("BBBBBBBB"));
        assert_eq!(s.recorded_tag("b", p).unwrap().as_deref(), Some("CCCCCCCC"));
        // The read cleared the failure counter, as a read through the database does.
        assert_eq!(s.bump_failures("a", p, "edit_lines").unwrap(), 1);
    }

    #[test]
    fn folding_the_same_records_again_changes_nothing() {
        // A folder killed between its commit and emptying the log: the next one applies the
        // same records again, with nothing in between.
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        let p = Path::new("/w/a");
        append(t.path(), "a", p, "AAAAAAAA").unwrap();
        append(t.path(), "a", Path::new("/w/b"), "BBBBBBBB").unwrap();
        let log = std::fs::read(t.path().join(READ_LOG)).unwrap();
        s.fold_reads().unwrap();
        let once = s.entries().unwrap();
        std::fs::write(t.path().join(READ_LOG), &log).unwrap();
        assert_eq!(s.fold_reads().unwrap(), 2);
        assert_eq!(s.entries().unwrap(), once);
    }
}
