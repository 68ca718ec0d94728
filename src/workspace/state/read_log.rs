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
//! Crash safety: a writer killed mid-line leaves a line that does not parse (a prefix of a
//! JSON object never does); it is skipped, so that read counts as not recorded and the edit is
//! refused until the file is read again, never allowed wrongly. A folder killed between its
//! commit and the emptying leaves records already applied: the next folder waits for the
//! log's lock, which the dead process no longer holds, and applies them again, with nothing
//! else having run in between, which changes nothing.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{StateResult, StateStore, now_ms, path_key};

/// File name of the read log inside `.agent-state/`.
pub const READ_LOG: &str = "reads.log";
/// Log size past which the process that appended opens the database to fold the log in, so a
/// run of reads with no edit keeps it small (~150 bytes a record: about 7,000 reads).
pub const FOLD_AT_BYTES: u64 = 1024 * 1024;
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

/// Opens the log in `state_dir` for appending, creating it (mode 0644) when missing. Refuses a
/// symlink there (never followed) and anything but a regular file (a FIFO is opened without
/// blocking and refused).
fn open_for_append(state_dir: &Path) -> Result<File, String> {
    let path = state_dir.join(READ_LOG);
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| describe_open(&path, &e))?;
    require_regular(&file, &path)?;
    Ok(file)
}

/// A message for a failed open of the log.
fn describe_open(path: &Path, e: &std::io::Error) -> String {
    if e.raw_os_error() == Some(libc::ELOOP) {
        format!(
            "the read log {} is a symlink (never followed); `agtool state reset` removes it",
            path.display()
        )
    } else {
        format!("cannot open the read log {}: {e}", path.display())
    }
}

/// Refuses an open log that is not a regular file.
fn require_regular(file: &File, path: &Path) -> Result<(), String> {
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot use the read log {}: {e}", path.display()))?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(format!(
            "the read log {} is not a regular file; `agtool state reset` removes it",
            path.display()
        ))
    }
}

/// Appends the record "`agent` was shown `tag` for `real_path`" to the log in `state_dir` and
/// returns the log's size in bytes afterwards (the caller folds the log in past
/// [`FOLD_AT_BYTES`]). Errors name the log: a symlink or special file in its place, no
/// permission, a full disk.
pub fn append(state_dir: &Path, agent: &str, real_path: &Path, tag: &str) -> Result<u64, String> {
    let record = ReadRecord {
        agent: agent.into(),
        path: path_key(real_path).into(),
        tag: tag.into(),
        at_ms: now_ms(),
    };
    let mut line = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
    line.push(b'\n');
    let mut file = open_for_append(state_dir)?;
    let path = state_dir.join(READ_LOG);
    // Shared: appends run side by side (O_APPEND places each whole line at the end); a fold
    // holds the lock alone while it reads and empties the log.
    file.lock_shared()
        .map_err(|e| format!("cannot lock the read log {}: {e}", path.display()))?;
    file.write_all(&line)
        .map_err(|e| format!("cannot write the read log {}: {e}", path.display()))?;
    Ok(file.metadata().map(|m| m.len()).unwrap_or(0))
}

/// Why nothing could be appended to the log in `state_dir` now (it cannot be opened for
/// appending), or None. Writes nothing.
pub fn append_problem(state_dir: &Path) -> Option<String> {
    open_for_append(state_dir).err()
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
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&path)
            .map_err(|e| describe_open(&path, &e))?;
        require_regular(&file, &path)?;
        file.lock()
            .map_err(|e| format!("cannot lock the read log {}: {e}", path.display()))?;
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
            for_each_line(&mut file, |line| match serde_json::from_slice(line) {
                Ok(r) => apply(r).map_err(|e| self.err(e)),
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
                file.lock()
                    .map_err(|e| format!("cannot lock the read log {}: {e}", path.display()))?;
                file.set_len(0)
                    .map_err(|e| format!("cannot empty the read log {}: {e}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(describe_open(&path, &e)),
        }
    }
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
