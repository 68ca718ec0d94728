//! The state store: one SQLite database in `.agent-state/` shared by every invocation in the
//! workspace (spec 01, "State store").
//!
//! WAL mode, a busy timeout and one short transaction per operation make 64 parallel
//! invocations safe: no lost update, no `database is locked` surfaced to the user.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

pub mod read_log;
mod repair;
use repair::{check_schema, file_id, kind_of};

/// File name of the database inside `.agent-state/`.
pub const DB_FILE: &str = "state.db";
/// Files SQLite keeps beside the database: none may be a symlink either.
const DB_SIDE_FILES: [&str; 3] = ["-wal", "-shm", "-journal"];
/// File name of the read log inside `.agent-state/` (see [`read_log`]).
pub const READ_LOG: &str = "reads.log";
/// Lock file held while a corrupt database is moved aside, so that of many processes finding
/// it corrupt together, one moves it and the others use the fresh one.
const RECOVERY_LOCK: &str = "state.db.recovery-lock";
/// How long one invocation waits for another's transaction before giving up. Transactions
/// are a few milliseconds (64 parallel invocations stay far below this); a process holding
/// the database longer is stuck, and the caller hears so well within a tool's 30 s timeout.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// WAL size after which closing a store checkpoints and empties it. Each process's first
/// connection rebuilds the WAL index by reading the whole WAL, and a checkpoint costs a few
/// fsyncs: about 60 calls share one checkpoint, and no open reads more than this.
const WAL_LIMIT_BYTES: u64 = 256 * 1024;
/// The key/value entry holding when idle agents were last looked for (ms since the epoch).
pub const PRUNED_AT_KEY: &str = "agents_pruned_at_ms";
/// How often idle agents are looked for.
const PRUNE_EVERY_MS: i64 = 3_600_000;
/// Schema version stored in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 1;

/// One row of the freshness table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreshnessEntry {
    /// Agent identity (`--agent`).
    pub agent: String,
    /// Real (resolved) absolute path.
    pub path: String,
    /// Content tag the agent was shown.
    pub tag: String,
    /// When, in ms since the Unix epoch.
    pub at_ms: i64,
}

/// An open state database.
pub struct StateStore {
    conn: Connection,
    dir: PathBuf,
    /// Said once to the caller: the database was corrupt and a fresh one was started, or a
    /// read log agtool did not write was moved aside (see [`StateStore::add_notice`]).
    notice: std::cell::Cell<Option<String>>,
    /// Set when an operation met a damaged database (a page that does not read, an index
    /// that does not match): [`StateStore::replace_damaged`] then starts a fresh one.
    damaged: std::cell::Cell<Option<String>>,
    /// Device and inode of the database file this store opened.
    file_id: Option<(u64, u64)>,
}

/// Errors from the store carry SQLite's message; callers present them as refusals.
pub type StateResult<T> = Result<T, String>;

/// The database's path, for messages.
fn db_path(dir: &Path) -> PathBuf {
    dir.join(DB_FILE)
}

/// A message for an SQLite error that names the database and, for the failures a person can
/// fix (another process holding it, no write permission), what to do.
fn describe_sql(db: &Path, e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    let code = match e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    match code {
        Some(C::DatabaseBusy | C::DatabaseLocked) => format!(
            "the state database {} is locked by another process (waited {} s); try again, or \
             end the process holding it (`fuser {}` names it)",
            db.display(),
            BUSY_TIMEOUT.as_secs(),
            db.display()
        ),
        Some(C::DatabaseCorrupt | C::NotADatabase) => format!(
            "the state database {} is damaged ({e}); `agtool state reset` starts a fresh one",
            db.display()
        ),
        Some(C::ReadOnly) => format!(
            "the state database {} is read-only ({e}); make it and its folder writable, or \
             pass --no-freshness",
            db.display()
        ),
        Some(C::CannotOpen) => format!(
            "cannot open the state database {} ({e}); check the folder's permissions",
            db.display()
        ),
        _ => format!("state database {}: {e}", db.display()),
    }
}

/// Whether `e` says the file is not a usable database (garbage, truncated, damaged).
fn is_corruption(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt)
    )
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl StateStore {
    /// Opens (creating if needed) the database in `state_dir` (spec 01, "State store").
    ///
    /// Refuses a database (or its `-wal`/`-shm`/`-journal` file) that is a symlink, so nothing
    /// is created where a committed link points. A database that is not one (garbage, a
    /// damaged file, a folder or FIFO in its place) is moved aside as
    /// `state.db.corrupt-<UTC time>` and a fresh one started; [`StateStore::take_notice`]
    /// then says so once. Errors name the database: another process holding it past
    /// [`BUSY_TIMEOUT`], no permission, a symlink.
    pub fn open(state_dir: &Path) -> StateResult<StateStore> {
        let db = db_path(state_dir);
        refuse_links(state_dir)?;
        let damaged = match std::fs::symlink_metadata(&db) {
            Ok(m) if !m.is_file() => Some(format!("it is a {}", kind_of(&m))),
            _ => None,
        };
        let why = match damaged {
            Some(why) => why,
            None => match Self::open_as_is(state_dir) {
                Ok(store) => return Ok(store),
                Err(e) if is_corruption(&e) => e.to_string(),
                Err(e) => return Err(describe_sql(&db, &e)),
            },
        };
        Self::recover(state_dir, &why)
    }

    /// Opens the database as it is; errors are SQLite's.
    fn open_as_is(state_dir: &Path) -> rusqlite::Result<StateStore> {
        use rusqlite::OpenFlags;
        let conn = Connection::open_with_flags(
            db_path(state_dir),
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            // Changing the journal mode needs the database to itself, and SQLite answers
            // SQLITE_BUSY at once there instead of calling the busy handler: when many
            // processes open a new database together, all but one would fail. Retry instead.
            let _: String =
                retry_while_busy(|| conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)))?;
        }
        conn.execute_batch("PRAGMA synchronous=NORMAL;")?;
        // Every invocation is a short-lived process, so each one would be the last connection
        // and checkpoint, fsync and delete the WAL on close, then the next one recreate and
        // fsync it: ~20 ms of a 25 ms read-file. So the WAL stays on close, and is
        // checkpointed and emptied only once it has grown (see `Drop`).
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version < SCHEMA_VERSION {
            conn.execute_batch(
                "BEGIN IMMEDIATE;
                 CREATE TABLE IF NOT EXISTS freshness (
                    agent TEXT NOT NULL, path TEXT NOT NULL, tag TEXT NOT NULL,
                    at_ms INTEGER NOT NULL, PRIMARY KEY (agent, path));
                 CREATE TABLE IF NOT EXISTS failures (
                    agent TEXT NOT NULL, path TEXT NOT NULL, tool TEXT NOT NULL,
                    count INTEGER NOT NULL, PRIMARY KEY (agent, path, tool));
                 CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 PRAGMA user_version = 1;
                 COMMIT;",
            )?;
        }
        check_schema(&conn, version)?;
        // Reads the schema and the table's first page: a damaged file shows here, at open,
        // where it can still be moved aside.
        conn.query_row(
            "SELECT count(*) FROM (SELECT 1 FROM freshness LIMIT 1)",
            [],
            |_| Ok(()),
        )?;
        Ok(StateStore {
            conn,
            dir: state_dir.to_path_buf(),
            notice: std::cell::Cell::new(None),
            damaged: std::cell::Cell::new(None),
            file_id: file_id(&db_path(state_dir)),
        })
    }

    /// The notes for the caller since the last call, one per line: this open replaced a
    /// corrupt database (said once: the next open finds the fresh one), a read log was moved
    /// aside.
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Adds a note for the caller (see [`StateStore::take_notice`]).
    fn add_notice(&self, text: String) {
        let text = match self.notice.take() {
            Some(before) => format!("{before}\n{text}"),
            None => text,
        };
        self.notice.set(Some(text));
    }

    /// Whether `state.db` is no longer the file this store opened (another process ran
    /// `state reset`, or moved a corrupt database aside and started a fresh one): a
    /// long-lived caller then opens the store again (one `lstat`).
    pub fn replaced_on_disk(&self) -> bool {
        file_id(&db_path(&self.dir)) != self.file_id
    }

    /// Why nothing can be recorded now, when a write would fail (a read-only database or
    /// folder, another process holding it): None when writes work. Costs one empty write
    /// transaction, so only for explaining a refusal.
    pub fn write_problem(&self) -> Option<String> {
        match self.conn.execute("UPDATE kv SET value = value WHERE 0", []) {
            Ok(_) => None,
            Err(e) => Some(self.err(e)),
        }
    }

    fn err(&self, e: rusqlite::Error) -> String {
        if is_corruption(&e) {
            self.damaged.set(Some(e.to_string()));
        }
        describe_sql(&db_path(&self.dir), &e)
    }

    /// The `.agent-state/` folder this store lives in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records that `agent` was shown `tag` for `real_path` (freshness registration, spec 01).
    pub fn record_tag(&self, agent: &str, real_path: &Path, tag: &str) -> StateResult<()> {
        self.fold_reads()?;
        self.conn
            .execute(
                "INSERT INTO freshness (agent, path, tag, at_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(agent, path) DO UPDATE SET tag = excluded.tag, at_ms = excluded.at_ms",
                params![agent, path_key(real_path), tag, now_ms()],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// The tag `agent` was last shown for `real_path`, if any.
    pub fn recorded_tag(&self, agent: &str, real_path: &Path) -> StateResult<Option<String>> {
        self.fold_reads()?;
        self.conn
            .query_row(
                "SELECT tag FROM freshness WHERE agent = ?1 AND path = ?2",
                params![agent, path_key(real_path)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Drops the entries (every agent) for `real_path` and, when it is a folder, everything
    /// under it. Returns how many rows went.
    pub fn forget(&self, real_path: &Path) -> StateResult<usize> {
        self.fold_reads()?;
        let key = path_key(real_path);
        let prefix = format!("{}/", key.trim_end_matches('/'));
        self.conn
            .execute(
                "DELETE FROM freshness WHERE path = ?1 OR substr(path, 1, length(?2)) = ?2",
                params![key, prefix],
            )
            .map_err(|e| self.err(e))
    }

    /// Moves the freshness entries (every agent) of `from` and, when it is a folder, of
    /// everything under it to the same paths under `to` (spec 03: freshness entries move with
    /// a moved file). Entries already kept for `to` and under it are dropped first: they
    /// described what the move replaced. Returns how many entries moved. One transaction.
    pub fn move_entries(&self, from: &Path, to: &Path) -> StateResult<usize> {
        self.fold_reads()?;
        let (old, new) = (path_key(from), path_key(to));
        let old = old.trim_end_matches('/').to_owned();
        let new = new.trim_end_matches('/').to_owned();
        let tx = self.conn.unchecked_transaction().map_err(|e| self.err(e))?;
        let moved = (|| {
            tx.execute(
                "DELETE FROM freshness WHERE path = ?1 OR substr(path, 1, length(?1) + 1) = ?1 || '/'",
                params![new],
            )?;
            tx.execute(
                "UPDATE freshness SET path = ?2 || substr(path, length(?1) + 1)
                 WHERE path = ?1 OR substr(path, 1, length(?1) + 1) = ?1 || '/'",
                params![old, new],
            )
        })()
        .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(moved)
    }

    /// Drops the freshness records and failure counters of every agent id whose newest record
    /// is older than `idle` (issue 18 section 3: a later conversation must not edit a file only
    /// an earlier one read). Looks at most once an hour per workspace ([`PRUNED_AT_KEY`]), so
    /// it costs one key lookup on most opens. Returns how many records went.
    pub fn forget_idle_agents(&self, idle: Duration) -> StateResult<usize> {
        let now = now_ms();
        let last: Option<i64> = self.get(PRUNED_AT_KEY)?.and_then(|v| v.parse().ok());
        if last.is_some_and(|t| (0..PRUNE_EVERY_MS).contains(&(now - t))) {
            return Ok(0);
        }
        // Pruning is best effort: it never waits for a lock another process holds (a call
        // would otherwise wait twice, here and for its own work, while the message says once).
        self.conn
            .busy_timeout(Duration::ZERO)
            .map_err(|e| self.err(e))?;
        let pruned = self.prune_idle(now, idle);
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.err(e))?;
        pruned
    }

    /// The work of [`StateStore::forget_idle_agents`], with no waiting for locks.
    fn prune_idle(&self, now: i64, idle: Duration) -> StateResult<usize> {
        self.fold_reads_within(Duration::ZERO)?;
        let cutoff = now.saturating_sub(i64::try_from(idle.as_millis()).unwrap_or(i64::MAX));
        let tx = self.conn.unchecked_transaction().map_err(|e| self.err(e))?;
        let gone = (|| {
            let gone = tx.execute(
                "DELETE FROM freshness WHERE agent IN
                   (SELECT agent FROM freshness GROUP BY agent HAVING max(at_ms) < ?1)",
                params![cutoff],
            )?;
            tx.execute(
                "DELETE FROM failures WHERE agent NOT IN (SELECT DISTINCT agent FROM freshness)",
                [],
            )?;
            tx.execute(
                "INSERT INTO kv (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![PRUNED_AT_KEY, now.to_string()],
            )?;
            Ok(gone)
        })()
        .map_err(|e: rusqlite::Error| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(gone)
    }

    /// Empties every table and the read log.
    pub fn reset(&self) -> StateResult<()> {
        self.clear_reads()?;
        self.conn
            .execute_batch("DELETE FROM freshness; DELETE FROM failures;")
            .map_err(|e| self.err(e))
    }

    /// Every freshness entry, ordered by path then agent.
    pub fn entries(&self) -> StateResult<Vec<FreshnessEntry>> {
        self.fold_reads()?;
        let mut stmt = self
            .conn
            .prepare("SELECT agent, path, tag, at_ms FROM freshness ORDER BY path, agent")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(FreshnessEntry {
                    agent: r.get(0)?,
                    path: r.get(1)?,
                    tag: r.get(2)?,
                    at_ms: r.get(3)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Adds one to the consecutive-failure counter of (agent, path, tool) and returns the new
    /// count (spec 03, edit-lines loop hint).
    pub fn bump_failures(&self, agent: &str, real_path: &Path, tool: &str) -> StateResult<u32> {
        self.fold_reads()?;
        self.conn
            .query_row(
                "INSERT INTO failures (agent, path, tool, count) VALUES (?1, ?2, ?3, 1)
                 ON CONFLICT(agent, path, tool) DO UPDATE SET count = count + 1
                 RETURNING count",
                params![agent, path_key(real_path), tool],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Clears the failure counters of (agent, path) for every tool (a success or a read).
    pub fn clear_failures(&self, agent: &str, real_path: &Path) -> StateResult<()> {
        self.fold_reads()?;
        self.conn
            .execute(
                "DELETE FROM failures WHERE agent = ?1 AND path = ?2",
                params![agent, path_key(real_path)],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// A value from the key/value table (used by the exec session server to be found).
    pub fn get(&self, key: &str) -> StateResult<Option<String>> {
        self.conn
            .query_row("SELECT value FROM kv WHERE key = ?1", params![key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Sets a key/value pair.
    pub fn set(&self, key: &str, value: &str) -> StateResult<()> {
        self.conn
            .execute(
                "INSERT INTO kv (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }
}

impl Drop for StateStore {
    /// Checkpoints and truncates the WAL once it has passed `WAL_LIMIT_BYTES`. Best effort:
    /// the data is already committed, so when other processes keep the database busy the
    /// checkpoint is left to a later close.
    fn drop(&mut self) {
        let wal = self.dir.join(format!("{DB_FILE}-wal"));
        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_LIMIT_BYTES) {
            let _ = self.conn.busy_timeout(Duration::from_millis(200));
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }
}

/// Runs `op` again while SQLite reports the database busy or locked, with short growing
/// sleeps, for up to [`BUSY_TIMEOUT`]; for statements where SQLite does not call the busy
/// handler itself.
fn retry_while_busy<T>(mut op: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let start = std::time::Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match op() {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(
                    e.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                ) && start.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// Refuses the database and its side files when any is a symlink.
fn refuse_links(state_dir: &Path) -> StateResult<()> {
    let db = db_path(state_dir);
    crate::workspace::root::refuse_symlink(&db).map_err(|e| e.to_string())?;
    for side in DB_SIDE_FILES {
        crate::workspace::root::refuse_symlink(&state_dir.join(format!("{DB_FILE}{side}")))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Longest agent id, in bytes: it is stored with every freshness record (and a read log line
/// is at most 64 KiB).
pub const MAX_AGENT_BYTES: usize = 1024;

/// Checks an agent id (`--agent`, `AGTOOL_AGENT`, a read log record): at most
/// [`MAX_AGENT_BYTES`] bytes and no control characters (`state show` prints it on a line of
/// its own). The error says which rule it breaks.
pub fn check_agent_id(id: &str) -> Result<(), String> {
    if id.len() > MAX_AGENT_BYTES {
        Err(format!(
            "the agent id (--agent / AGTOOL_AGENT) is {} bytes; at most {MAX_AGENT_BYTES}",
            id.len()
        ))
    } else if id.chars().any(char::is_control) {
        Err("the agent id (--agent / AGTOOL_AGENT) holds a control character".to_owned())
    } else {
        Ok(())
    }
}

/// The real path a key of the tables stands for: the inverse of `path_key`.
pub fn path_of_key(key: &str) -> PathBuf {
    PathBuf::from(crate::text::path_escape::decode(key).into_owned())
}

/// The key of a real path in the tables and the read log: its printed form
/// ([`crate::text::path_escape`], as read-file and list-dir print names), which is the path
/// itself for UTF-8 without backslashes or control characters and is reversible, so no two
/// paths share a key (a lossy spelling let a read of `bad\xff` count for `bad\xfe`). `/`
/// prints as itself and no escape spans one, so a folder's key followed by `/` is a prefix of
/// exactly its descendants' keys.
fn path_key(path: &Path) -> String {
    crate::text::path_escape::encode_path(path).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_keys_are_distinct_and_turn_back_into_their_paths() {
        use std::os::unix::ffi::OsStrExt;
        let names: [&[u8]; 8] = [
            b"/w/a",
            b"/w/a\\xff",
            b"/w/a\xff",
            b"/w/a\xfe",
            b"/w/c\\",
            b"/w/b\\x4",
            b"/w/\\\\",
            b"/w/\xef\xbf\xbd",
        ];
        let keys: Vec<String> = names
            .iter()
            .map(|n| path_key(Path::new(std::ffi::OsStr::from_bytes(n))))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(keys.iter().filter(|o| *o == k).count(), 1, "{k}");
            assert_eq!(path_of_key(k).as_os_str().as_bytes(), names[i], "{k}");
            // A folder's key then `/` starts its files' keys (forget and move_entries match
            // folders by that prefix).
            let mut file = names[i].to_vec();
            file.extend_from_slice(b"/x41");
            let file_key = path_key(Path::new(std::ffi::OsStr::from_bytes(&file)));
            assert!(file_key.starts_with(&format!("{k}/")), "{k} / {file_key}");
        }
    }

    #[test]
    fn record_forget_reset() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        let p = Path::new("/w/src/a.rs");
        assert_eq!(s.recorded_tag("default", p).unwrap(), None);
        s.record_tag("default", p, "AAAAAAAA").unwrap();
        s.record_tag("default", p, "BBBBBBBB").unwrap();
        s.record_tag("other", p, "CCCCCCCC").unwrap();
        s.record_tag("default", Path::new("/w/srcx"), "DDDDDDDD")
            .unwrap();
        assert_eq!(
            s.recorded_tag("default", p).unwrap().as_deref(),
            Some("BBBBBBBB")
        );
        assert_eq!(s.entries().unwrap().len(), 3);
        assert_eq!(s.forget(Path::new("/w/src")).unwrap(), 2);
        assert_eq!(s.entries().unwrap().len(), 1, "the /w/srcx sibling stays");
        s.reset().unwrap();
        assert!(s.entries().unwrap().is_empty());
    }

    #[test]
    fn entries_move_with_a_file_and_a_folder() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        s.record_tag("a", Path::new("/w/d/x"), "11111111").unwrap();
        s.record_tag("b", Path::new("/w/d/sub/y"), "22222222")
            .unwrap();
        s.record_tag("a", Path::new("/w/dx"), "33333333").unwrap();
        s.record_tag("a", Path::new("/w/e/old"), "44444444")
            .unwrap();
        s.record_tag("a", Path::new("/w/f"), "55555555").unwrap();
        assert_eq!(
            s.move_entries(Path::new("/w/d"), Path::new("/w/e"))
                .unwrap(),
            2
        );
        let tag = |agent, p: &str| s.recorded_tag(agent, Path::new(p)).unwrap();
        assert_eq!(tag("a", "/w/e/x").as_deref(), Some("11111111"));
        assert_eq!(tag("b", "/w/e/sub/y").as_deref(), Some("22222222"));
        assert_eq!(tag("a", "/w/d/x"), None);
        assert_eq!(
            tag("a", "/w/dx").as_deref(),
            Some("33333333"),
            "a sibling stays"
        );
        assert_eq!(
            tag("a", "/w/e/old"),
            None,
            "what the destination held is dropped"
        );
        // A file onto a file that had its own entry.
        assert_eq!(
            s.move_entries(Path::new("/w/f"), Path::new("/w/dx"))
                .unwrap(),
            1
        );
        assert_eq!(tag("a", "/w/dx").as_deref(), Some("55555555"));
        assert_eq!(s.entries().unwrap().len(), 3);
    }

    #[test]
    fn failures_count_and_clear() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        let p = Path::new("/w/a");
        assert_eq!(s.bump_failures("a", p, "edit_lines").unwrap(), 1);
        assert_eq!(s.bump_failures("a", p, "edit_lines").unwrap(), 2);
        s.clear_failures("a", p).unwrap();
        assert_eq!(s.bump_failures("a", p, "edit_lines").unwrap(), 1);
    }

    #[test]
    fn the_wal_stays_small_across_many_short_lived_stores() {
        // Each open/record/drop is one agtool process: the WAL is not checkpointed on every
        // close (that costs fsyncs), but it is emptied once it passes the limit.
        let t = tempfile::tempdir().unwrap();
        let wal = t.path().join(format!("{DB_FILE}-wal"));
        let mut largest = 0;
        for i in 0..400 {
            let s = StateStore::open(t.path()).unwrap();
            s.record_tag("a", Path::new(&format!("/w/f{i}")), "AAAAAAAA")
                .unwrap();
            drop(s);
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
        }
        assert!(
            largest <= WAL_LIMIT_BYTES + 8 * 4120,
            "WAL grew to {largest} bytes"
        );
        let s = StateStore::open(t.path()).unwrap();
        assert_eq!(s.entries().unwrap().len(), 400);
    }

    #[test]
    fn agents_unseen_for_long_are_forgotten() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        let old = now_ms() - 8 * 86_400_000;
        s.conn
            .execute(
                "INSERT INTO freshness VALUES ('gone', '/w/a', 'AAAAAAAA', ?1), \
                 ('gone', '/w/b', 'AAAAAAAA', ?1), ('mixed', '/w/a', 'BBBBBBBB', ?1)",
                params![old],
            )
            .unwrap();
        s.record_tag("mixed", Path::new("/w/c"), "CCCCCCCC")
            .unwrap();
        s.record_tag("fresh", Path::new("/w/a"), "DDDDDDDD")
            .unwrap();
        s.bump_failures("gone", Path::new("/w/a"), "edit_lines")
            .unwrap();
        s.bump_failures("fresh", Path::new("/w/a"), "edit_lines")
            .unwrap();
        let week = Duration::from_secs(7 * 86_400);
        assert_eq!(s.forget_idle_agents(week).unwrap(), 2);
        let agents: Vec<String> = s.entries().unwrap().into_iter().map(|e| e.agent).collect();
        assert_eq!(
            agents,
            ["fresh", "mixed", "mixed"],
            "an agent seen lately keeps all"
        );
        let failures: i64 = s
            .conn
            .query_row("SELECT count(*) FROM failures", [], |r| r.get(0))
            .unwrap();
        assert_eq!(failures, 1);
        // Looked at once an hour: an old record added now stays until the next look.
        s.conn
            .execute(
                "INSERT INTO freshness VALUES ('gone', '/w/z', 'EEEEEEEE', ?1)",
                params![old],
            )
            .unwrap();
        assert_eq!(s.forget_idle_agents(week).unwrap(), 0);
        s.set(PRUNED_AT_KEY, "0").unwrap();
        assert_eq!(s.forget_idle_agents(week).unwrap(), 1);
    }

    #[test]
    fn kv_round_trip() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        assert_eq!(s.get("k").unwrap(), None);
        s.set("k", "v").unwrap();
        s.set("k", "w").unwrap();
        assert_eq!(s.get("k").unwrap().as_deref(), Some("w"));
    }
}
