//! The file layer: the only code that writes files (spec 01, "File layer").
//!
//! Writes are atomic: a temp file `.<name>.agtool-<pid>-<n>` in the target's own folder is
//! written, fsynced and renamed over the target, then the folder is fsynced. A reader sees the
//! old or the new file, never a mix; a kill at any moment leaves at worst a stray temp file.
//! Permission bits of an existing target are kept; new files get `0666` less the umask.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// Writes `bytes` to `target` atomically. `target` must already be the resolved path (the
/// policy's `real`), so a symlink is written through rather than replaced. Missing parent
/// folders are created. Errors are the filesystem's, with the path in the message.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with_mode(target, bytes, None)
}

/// [`write_atomic`], giving a file that does not exist yet the permission bits `new_mode`
/// (e.g. a moved file keeps its source's). An existing target always keeps its own bits.
pub fn write_atomic_with_mode(
    target: &Path,
    bytes: &[u8],
    new_mode: Option<u32>,
) -> io::Result<()> {
    let dir = target
        .parent()
        .ok_or_else(|| io::Error::other(format!("{} has no parent folder", target.display())))?;
    std::fs::create_dir_all(dir)?;
    let existing_mode = match std::fs::metadata(target) {
        Ok(m) if m.is_dir() => {
            return Err(io::Error::other(format!(
                "{} is a directory",
                target.display()
            )));
        }
        Ok(m) => Some(m.permissions().mode() & 0o7777),
        Err(_) => new_mode,
    };
    let (temp_path, mut file) = create_temp(dir, target)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(mode) = existing_mode {
            // Set after creation: the umask must not strip bits the original had.
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp_path, target)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp_path);
    }
    result
}

fn create_temp(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.agtool-{}-{n}", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(&temp)
        {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The folders of `dir` and its ancestors that do not exist, outermost first: what creating
/// a file in `dir` would create.
pub fn missing_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// A file's permission bits (`None` when it cannot be read).
pub fn mode_of(path: &Path) -> Option<u32> {
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// A short name for a file type, for messages: `fifo`, `socket`, `device`, ...
pub fn kind_name(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "fifo"
    } else if ft.is_socket() {
        "socket"
    } else if ft.is_block_device() || ft.is_char_device() {
        "device"
    } else if ft.is_dir() {
        "directory"
    } else if ft.is_symlink() {
        "symlink"
    } else {
        "file"
    }
}

/// fsyncs a folder so a rename in it is durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// An exclusive advisory lock on a path's lock file in `.agent-state/locks/`, held until
/// dropped (spec 01: one per-file lock across gate, write and registration). The lock file is
/// named by the FNV-1a hash of the real path plus its length, so any path maps to a short name.
pub struct PathLock {
    _file: File,
}

impl PathLock {
    /// Blocks until the lock for `real_path` is held.
    pub fn acquire(state_dir: &Path, real_path: &Path) -> io::Result<PathLock> {
        let dir = crate::workspace::root::ensure_state_subdir(state_dir, "locks", 0o755)?;
        let key = real_path.to_string_lossy();
        let name = format!(
            "{:08x}-{:x}.lock",
            crate::text::tag::fnv1a32(key.as_bytes()),
            key.len()
        );
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(dir.join(name))?;
        file.lock()?;
        Ok(PathLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn keeps_mode_and_leaves_no_temp() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("run.sh");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
        write_atomic(&f, b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o755);
        let names: Vec<_> = std::fs::read_dir(t.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn creates_parents_and_refuses_directories() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("a/b/c.txt");
        write_atomic(&f, b"x").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"x");
        assert!(write_atomic(&t.path().join("a"), b"x").is_err());
    }

    #[test]
    fn new_mode_applies_only_to_a_new_file() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("new.sh");
        write_atomic_with_mode(&f, b"x", Some(0o750)).unwrap();
        assert_eq!(
            std::fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o750
        );
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic_with_mode(&f, b"y", Some(0o755)).unwrap();
        assert_eq!(
            std::fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn missing_dirs_lists_outermost_first() {
        let t = tempfile::tempdir().unwrap();
        let deep = t.path().join("a/b/c");
        assert_eq!(
            missing_dirs(&deep),
            vec![t.path().join("a"), t.path().join("a/b"), deep.clone()]
        );
        std::fs::create_dir_all(&deep).unwrap();
        assert!(missing_dirs(&deep).is_empty());
    }

    #[test]
    fn resolved_target_keeps_link() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        symlink("real.txt", t.path().join("link.txt")).unwrap();
        let resolved = std::fs::canonicalize(t.path().join("link.txt")).unwrap();
        write_atomic(&resolved, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(t.path().join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
    }
}
