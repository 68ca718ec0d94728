//! Putting a broken state database right (spec 01, "State store"; issue 17, item 6): a
//! corrupt file or one of another schema is moved aside and a fresh one started, a damaged
//! page met later is replaced the same way, and `state reset` works whatever the files are.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension};

use super::{
    DB_FILE, DB_SIDE_FILES, RECOVERY_LOCK, SCHEMA_VERSION, StateResult, StateStore, db_path,
    describe_sql, is_corruption, refuse_links,
};

impl StateStore {
    /// Moves a corrupt database aside and opens a fresh one, under [`RECOVERY_LOCK`]: when
    /// another process has just done it, its fresh database is used as is.
    pub(super) fn recover(state_dir: &Path, why: &str) -> StateResult<StateStore> {
        let db = db_path(state_dir);
        let lock = Self::recovery_lock(state_dir)?;
        refuse_links(state_dir)?;
        let still_damaged = std::fs::symlink_metadata(&db).is_ok_and(|m| !m.is_file());
        let aside = if still_damaged {
            Some(Self::move_aside(state_dir)?)
        } else {
            match Self::open_as_is(state_dir) {
                // Another process moved it aside and started a fresh one.
                Ok(store) => {
                    store.add_notice(reset_notice(why, None));
                    return Ok(store);
                }
                Err(e) if is_corruption(&e) => Some(Self::move_aside(state_dir)?),
                Err(e) => return Err(describe_sql(&db, &e)),
            }
        };
        let store = Self::open_as_is(state_dir).map_err(|e| describe_sql(&db, &e))?;
        store.add_notice(reset_notice(why, aside.as_deref()));
        drop(lock);
        Ok(store)
    }

    /// Takes [`RECOVERY_LOCK`] (held until the file is dropped); a symlink there is refused.
    pub(super) fn recovery_lock(state_dir: &Path) -> StateResult<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        let lock_path = state_dir.join(RECOVERY_LOCK);
        crate::workspace::root::refuse_symlink(&lock_path).map_err(|e| e.to_string())?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&lock_path)
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        lock.lock()
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        Ok(lock)
    }

    /// Renames the database to `state.db.corrupt-<UTC time>` (its WAL beside it, with
    /// `-wal` appended; the shared-memory index, rebuilt from the WAL, is removed) and
    /// returns the new path.
    pub(super) fn move_aside(state_dir: &Path) -> StateResult<PathBuf> {
        let db = db_path(state_dir);
        let aside = rename_aside(state_dir, DB_FILE, "corrupt")
            .map_err(|e| format!("cannot move the corrupt {} aside: {e}", db.display()))?;
        let wal = state_dir.join(format!("{DB_FILE}-wal"));
        if std::fs::symlink_metadata(&wal).is_ok() {
            let mut wal_aside = aside.clone().into_os_string();
            wal_aside.push("-wal");
            let _ = std::fs::rename(&wal, wal_aside);
        }
        for side in ["-shm", "-journal"] {
            let _ = std::fs::remove_file(state_dir.join(format!("{DB_FILE}{side}")));
        }
        Ok(aside)
    }

    /// Whether an operation of this store met a damaged database (see
    /// [`StateStore::replace_damaged`]).
    pub fn is_damaged(&self) -> bool {
        let why = self.damaged.take();
        let damaged = why.is_some();
        self.damaged.set(why);
        damaged
    }

    /// After an operation met a damaged database (a corrupt page past the first ones the
    /// open reads): moves it aside and opens a fresh one in its place, like
    /// [`StateStore::open`] does for one that is damaged from the start; the notice says so.
    pub fn replace_damaged(&mut self) -> StateResult<()> {
        let why = self
            .damaged
            .take()
            .unwrap_or_else(|| "database disk image is malformed".to_owned());
        let dir = self.dir.clone();
        let db = db_path(&dir);
        let lock = Self::recovery_lock(&dir)?;
        refuse_links(&dir)?;
        // Unless another process has replaced it meanwhile (another inode), this very file
        // goes aside.
        let aside = if file_id(&db) == self.file_id {
            Some(Self::move_aside(&dir)?)
        } else {
            None
        };
        let fresh = Self::open_as_is(&dir).map_err(|e| describe_sql(&db, &e))?;
        drop(lock);
        fresh.add_notice(reset_notice(&why, aside.as_deref()));
        *self = fresh;
        Ok(())
    }

    /// Forgets everything, whatever state the database is in (`agtool state reset`): a
    /// corrupt file, one with another schema, a symlink (the link is removed, never followed)
    /// in place of the database, its side files or the read log. Under the recovery lock, every one of
    /// them is removed (a folder or other special file in their place is moved aside), then
    /// a fresh database is opened. Returns it and one line per thing removed or moved.
    pub fn reset_files(state_dir: &Path) -> StateResult<(StateStore, Vec<String>)> {
        use std::os::unix::fs::OpenOptionsExt;
        let lock_path = state_dir.join(RECOVERY_LOCK);
        if std::fs::symlink_metadata(&lock_path).is_ok_and(|m| !m.is_file()) {
            let _ = std::fs::remove_file(&lock_path);
        }
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&lock_path)
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        lock.lock()
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        let mut said = Vec::new();
        let side = DB_SIDE_FILES
            .iter()
            .map(|suffix| format!("{DB_FILE}{suffix}"));
        let names = std::iter::once(DB_FILE.to_owned())
            .chain(side)
            .chain(std::iter::once(super::READ_LOG.to_owned()));
        for name in names {
            let path = state_dir.join(&name);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.file_type().is_symlink() {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove the symlink {}: {e}", path.display()))?;
                said.push(format!("removed the symlink {name} (never followed)"));
            } else if meta.is_file() {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            } else {
                let aside = rename_aside(state_dir, &name, "corrupt")
                    .map_err(|e| format!("cannot move {} aside: {e}", path.display()))?;
                said.push(format!(
                    "moved the {} in place of {name} to {}",
                    kind_of(&meta),
                    aside.display()
                ));
            }
        }
        let store =
            Self::open_as_is(state_dir).map_err(|e| describe_sql(&db_path(state_dir), &e))?;
        drop(lock);
        Ok((store, said))
    }
}

/// Checks that the tables are this version's (a database of another schema, or of a newer
/// agtool, is not one to write into); a mismatch is reported as corruption, so that it is
/// moved aside and a fresh database started. Each table's first row is read too.
pub(super) fn check_schema(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    let not_ours = |why: String| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            Some(format!(
                "the database is not agtool's schema {SCHEMA_VERSION} ({why})"
            )),
        )
    };
    if version > SCHEMA_VERSION {
        return Err(not_ours(format!("its user_version is {version}")));
    }
    for sql in [
        "SELECT agent, path, tag, at_ms FROM freshness LIMIT 1",
        "SELECT agent, path, tool, count FROM failures LIMIT 1",
        "SELECT key, value FROM kv LIMIT 1",
    ] {
        use rusqlite::ErrorCode as C;
        match conn.query_row(sql, [], |_| Ok(())).optional() {
            Ok(_) => {}
            Err(e) if is_corruption(&e) => return Err(e),
            // The file's own troubles (busy, read-only, I/O) are said as they are.
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(
                        C::DatabaseBusy
                            | C::DatabaseLocked
                            | C::ReadOnly
                            | C::CannotOpen
                            | C::SystemIoFailure
                            | C::OutOfMemory
                            | C::PermissionDenied
                            | C::DiskFull
                    )
                ) =>
            {
                return Err(e);
            }
            // No such table or column, a wrong type: not agtool's schema.
            Err(e) => return Err(not_ours(e.to_string())),
        }
    }
    Ok(())
}

/// Words for a file type that is not a regular file.
pub(super) fn kind_of(m: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_dir() {
        "folder"
    } else if t.is_fifo() {
        "FIFO"
    } else if t.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

/// The note said once after a corrupt database was replaced.
pub(super) fn reset_notice(why: &str, aside: Option<&Path>) -> String {
    let kept = match aside {
        Some(p) => format!(" and was moved to {}", p.display()),
        None => String::new(),
    };
    format!(
        "Note: the state database was unusable ({why}){kept}; a fresh one was started, so \
         the freshness records were reset: read files again before editing them."
    )
}

/// `YYYYMMDDTHHMMSSZ` for `t` (UTC).
pub(super) fn utc_stamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = crate::text::clock::civil_from_days(days);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Renames `name` in `state_dir` to `<name>.<label>-<UTC time>`, or `...-<n>` when that is
/// taken (two set aside in one second), never replacing anything
/// ([`crate::fileio::beneath::Dir::rename_new`]). Returns the new path.
pub(super) fn rename_aside(state_dir: &Path, name: &str, label: &str) -> std::io::Result<PathBuf> {
    let dir = crate::fileio::beneath::Dir::open_root(state_dir)?;
    let stamp = utc_stamp(std::time::SystemTime::now());
    for n in 1..=1000 {
        let aside = match n {
            1 => format!("{name}.{label}-{stamp}"),
            n => format!("{name}.{label}-{stamp}-{n}"),
        };
        match dir.rename_new(name.as_ref(), &dir, aside.as_ref()) {
            Ok(()) => return Ok(state_dir.join(aside)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(
        "a thousand names set aside in one second",
    ))
}

/// Device and inode of `path` (not following a symlink), when it exists.
pub(super) fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}
