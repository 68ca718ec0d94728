//! The state store: one SQLite database in `.agent-state/` shared by every invocation in the
//! workspace (spec 01, "State store").
//!
//! WAL mode, a busy timeout and one short transaction per operation make 64 parallel
//! invocations safe: no lost update, no `database is locked` surfaced to the user.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

/// File name of the database inside `.agent-state/`.
pub const DB_FILE: &str = "state.db";
/// How long one invocation waits for another's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);
/// WAL size after which closing a store checkpoints and empties it. Each process's first
/// connection rebuilds the WAL index by reading the whole WAL, and a checkpoint costs a few
/// fsyncs: about 60 calls share one checkpoint, and no open reads more than this.
const WAL_LIMIT_BYTES: u64 = 256 * 1024;
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
}

/// Errors from the store carry SQLite's message; callers present them as refusals.
pub type StateResult<T> = Result<T, String>;

fn sql_err(e: rusqlite::Error) -> String {
    format!("state database error: {e}")
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl StateStore {
    /// Opens (creating if needed) the database in `state_dir`.
    pub fn open(state_dir: &Path) -> StateResult<StateStore> {
        let conn = Connection::open(state_dir.join(DB_FILE)).map_err(sql_err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(sql_err)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .map_err(sql_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            // Changing the journal mode needs the database to itself, and SQLite answers
            // SQLITE_BUSY at once there instead of calling the busy handler: when many
            // processes open a new database together, all but one would fail. Retry instead.
            let _: String =
                retry_while_busy(|| conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)))
                    .map_err(sql_err)?;
        }
        conn.execute_batch("PRAGMA synchronous=NORMAL;")
            .map_err(sql_err)?;
        // Every invocation is a short-lived process, so each one would be the last connection
        // and checkpoint, fsync and delete the WAL on close, then the next one recreate and
        // fsync it: ~20 ms of a 25 ms read-file. So the WAL stays on close, and is
        // checkpointed and emptied only once it has grown (see `Drop`).
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )
        .map_err(sql_err)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sql_err)?;
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
            )
            .map_err(sql_err)?;
        }
        Ok(StateStore {
            conn,
            dir: state_dir.to_path_buf(),
        })
    }

    /// The `.agent-state/` folder this store lives in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records that `agent` was shown `tag` for `real_path` (freshness registration, spec 01).
    pub fn record_tag(&self, agent: &str, real_path: &Path, tag: &str) -> StateResult<()> {
        self.conn
            .execute(
                "INSERT INTO freshness (agent, path, tag, at_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(agent, path) DO UPDATE SET tag = excluded.tag, at_ms = excluded.at_ms",
                params![agent, path_key(real_path), tag, now_ms()],
            )
            .map(|_| ())
            .map_err(sql_err)
    }

    /// The tag `agent` was last shown for `real_path`, if any.
    pub fn recorded_tag(&self, agent: &str, real_path: &Path) -> StateResult<Option<String>> {
        self.conn
            .query_row(
                "SELECT tag FROM freshness WHERE agent = ?1 AND path = ?2",
                params![agent, path_key(real_path)],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql_err)
    }

    /// Drops the entries (every agent) for `real_path` and, when it is a folder, everything
    /// under it. Returns how many rows went.
    pub fn forget(&self, real_path: &Path) -> StateResult<usize> {
        let key = path_key(real_path);
        let prefix = format!("{}/", key.trim_end_matches('/'));
        self.conn
            .execute(
                "DELETE FROM freshness WHERE path = ?1 OR substr(path, 1, length(?2)) = ?2",
                params![key, prefix],
            )
            .map_err(sql_err)
    }

    /// Empties every table.
    pub fn reset(&self) -> StateResult<()> {
        self.conn
            .execute_batch("DELETE FROM freshness; DELETE FROM failures;")
            .map_err(sql_err)
    }

    /// Every freshness entry, ordered by path then agent.
    pub fn entries(&self) -> StateResult<Vec<FreshnessEntry>> {
        let mut stmt = self
            .conn
            .prepare("SELECT agent, path, tag, at_ms FROM freshness ORDER BY path, agent")
            .map_err(sql_err)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(FreshnessEntry {
                    agent: r.get(0)?,
                    path: r.get(1)?,
                    tag: r.get(2)?,
                    at_ms: r.get(3)?,
                })
            })
            .map_err(sql_err)?;
        rows.collect::<Result<_, _>>().map_err(sql_err)
    }

    /// Adds one to the consecutive-failure counter of (agent, path, tool) and returns the new
    /// count (spec 03, edit-lines loop hint).
    pub fn bump_failures(&self, agent: &str, real_path: &Path, tool: &str) -> StateResult<u32> {
        self.conn
            .query_row(
                "INSERT INTO failures (agent, path, tool, count) VALUES (?1, ?2, ?3, 1)
                 ON CONFLICT(agent, path, tool) DO UPDATE SET count = count + 1
                 RETURNING count",
                params![agent, path_key(real_path), tool],
                |r| r.get(0),
            )
            .map_err(sql_err)
    }

    /// Clears the failure counters of (agent, path) for every tool (a success or a read).
    pub fn clear_failures(&self, agent: &str, real_path: &Path) -> StateResult<()> {
        self.conn
            .execute(
                "DELETE FROM failures WHERE agent = ?1 AND path = ?2",
                params![agent, path_key(real_path)],
            )
            .map(|_| ())
            .map_err(sql_err)
    }

    /// A value from the key/value table (used by the exec session server to be found).
    pub fn get(&self, key: &str) -> StateResult<Option<String>> {
        self.conn
            .query_row("SELECT value FROM kv WHERE key = ?1", params![key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql_err)
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
            .map_err(sql_err)
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

/// The key a path is stored under: its lossy UTF-8 form.
fn path_key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn kv_round_trip() {
        let t = tempfile::tempdir().unwrap();
        let s = StateStore::open(t.path()).unwrap();
        assert_eq!(s.get("k").unwrap(), None);
        s.set("k", "v").unwrap();
        s.set("k", "w").unwrap();
        assert_eq!(s.get("k").unwrap().as_deref(), Some("w"));
    }
}
