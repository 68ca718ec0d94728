//! The file layer inside one opened folder (spec 01, "File layer"; used by the notes store,
//! spec 06): every operation is relative to a folder descriptor that was checked once, and
//! never follows a symlink in the last component, so no symlink swapped in by another process
//! can redirect a read, a write or a removal out of the folder.
//!
//! Writes are atomic as in [`super::atomic::write_file`]: a temp file `.<name>.agtool-<pid>-<n>`
//! in the same folder is written, fsynced and renamed over the name, then the folder is
//! fsynced. A kill at any moment leaves the old or the new file, at worst plus a temp file.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// What a name in the folder is, without following a symlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symlink (never followed).
    Symlink,
    /// A fifo, socket or device.
    Other,
}

impl EntryKind {
    fn of(ft: FileType) -> EntryKind {
        match ft {
            FileType::RegularFile => EntryKind::File,
            FileType::Directory => EntryKind::Dir,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }

    /// A short name for messages: `file`, `folder`, `symlink`, `special file`.
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::File => "file",
            EntryKind::Dir => "folder",
            EntryKind::Symlink => "symlink",
            EntryKind::Other => "special file (fifo, socket or device)",
        }
    }
}

/// Facts about one name in the folder (`lstat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryStat {
    /// The kind, symlinks not followed.
    pub kind: EntryKind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time.
    pub modified: SystemTime,
    /// Permission bits (`0o7777` part of the mode).
    pub mode: u32,
}

/// An opened folder. Names given to its methods must be single path components (no `/`):
/// callers validate them first; a name with a `/` is refused with `InvalidInput`.
#[derive(Debug)]
pub struct OpenDir {
    fd: OwnedFd,
    path: PathBuf,
}

fn single_component(name: &str) -> io::Result<()> {
    if name.is_empty() || name.contains('/') || name.contains('\0') || name == "." || name == ".." {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name:?} is not a single file name"),
        ));
    }
    Ok(())
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

impl OpenDir {
    /// Opens the folder at `real` (a path whose symlinks are already resolved; a symlink as
    /// the last component is refused with the OS error `ELOOP`). [`OpenDir::path`] is then
    /// where the kernel says the opened folder is, which the caller checks against its policy:
    /// from that check on, a rename of a parent cannot move the operations elsewhere.
    pub fn open(real: &Path) -> io::Result<OpenDir> {
        let fd = rustix::fs::open(real, dir_flags(), Mode::empty())?;
        Ok(OpenDir::from_fd(fd, real))
    }

    /// Opens the folder at `real`, creating it and its missing parents first. The nearest
    /// existing ancestor is opened by path and must satisfy `allowed` (by the path the kernel
    /// reports for it); each missing folder is then made and opened relative to its parent's
    /// descriptor, never through a symlink. Errors: `PermissionDenied` when the ancestor is
    /// not allowed, else the filesystem's.
    pub fn create(real: &Path, allowed: impl Fn(&Path) -> bool) -> io::Result<OpenDir> {
        let mut missing: Vec<OsString> = Vec::new();
        let mut base = real.to_path_buf();
        while std::fs::symlink_metadata(&base).is_err() {
            match (base.file_name(), base.parent()) {
                (Some(name), Some(parent)) => {
                    missing.push(name.to_os_string());
                    base = parent.to_path_buf();
                }
                _ => break,
            }
        }
        let mut dir = OpenDir::open(&base)?;
        if !allowed(&dir.path) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is outside the allowed folders", dir.path.display()),
            ));
        }
        for name in missing.into_iter().rev() {
            match rustix::fs::mkdirat(&dir.fd, name.as_os_str(), Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            let fd = rustix::fs::openat(&dir.fd, name.as_os_str(), dir_flags(), Mode::empty())?;
            let path = dir.path.join(&name);
            dir = OpenDir::from_fd(fd, &path);
        }
        Ok(dir)
    }

    fn from_fd(fd: OwnedFd, fallback: &Path) -> OpenDir {
        // Where the descriptor really is (Linux /proc); without /proc, the path it was opened by.
        let path = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
            .ok()
            .filter(|p| {
                p.is_absolute() && p.components().all(|c| !matches!(c, Component::ParentDir))
            })
            .unwrap_or_else(|| fallback.to_path_buf());
        OpenDir { fd, path }
    }

    /// Where the opened folder is (as the kernel reported when it was opened).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `lstat` of `name`: `None` when it does not exist.
    pub fn stat(&self, name: &str) -> io::Result<Option<EntryStat>> {
        single_component(name)?;
        match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(entry_stat(&st))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Every name in the folder (without `.` and `..`), in no particular order.
    pub fn names(&self) -> io::Result<Vec<OsString>> {
        let dup = rustix::fs::openat(&self.fd, ".", dir_flags(), Mode::empty())?;
        let mut dir = rustix::fs::Dir::read_from(&dup)?;
        let mut out = Vec::new();
        while let Some(entry) = dir.read() {
            let entry = entry?;
            let bytes = entry.file_name().to_bytes();
            if bytes != b"." && bytes != b".." {
                out.push(OsString::from_vec(bytes.to_vec()));
            }
        }
        Ok(out)
    }

    /// The bytes of the regular file `name` with its facts, or `None` when it does not exist.
    /// A symlink, folder or special file is refused (`InvalidData`, naming the kind) without
    /// being opened through or blocked on. Reads at most `cap` bytes when given.
    pub fn read_file(
        &self,
        name: &str,
        cap: Option<u64>,
    ) -> io::Result<Option<(Vec<u8>, EntryStat)>> {
        single_component(name)?;
        let fd = match rustix::fs::openat(
            &self.fd,
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            // O_NOFOLLOW on a symlink.
            Err(rustix::io::Errno::LOOP) => return Err(not_regular(name, EntryKind::Symlink)),
            Err(e) => return Err(e.into()),
        };
        let st = entry_stat(&rustix::fs::fstat(&fd)?);
        if st.kind != EntryKind::File {
            return Err(not_regular(name, st.kind));
        }
        let mut bytes = Vec::with_capacity(st.size.min(cap.unwrap_or(u64::MAX)) as usize);
        let file = File::from(fd);
        match cap {
            Some(cap) => file.take(cap).read_to_end(&mut bytes)?,
            None => (&file).read_to_end(&mut bytes)?,
        };
        Ok(Some((bytes, st)))
    }

    /// Writes `bytes` as `name` atomically (temp file, fsync, rename, fsync of the folder).
    /// An existing regular file keeps its permission bits; a new one gets `0666` less the
    /// umask. When `name` is a symlink, the symlink itself is replaced, never its target.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        single_component(name)?;
        let existing_mode = match self.stat(name)? {
            Some(st) if st.kind == EntryKind::File => Some(st.mode),
            Some(st) if st.kind == EntryKind::Dir => {
                return Err(not_regular(name, st.kind));
            }
            _ => None,
        };
        let (temp, fd) = self.create_temp(name)?;
        let result = (|| {
            let mut file = File::from(fd);
            file.write_all(bytes)?;
            if let Some(mode) = existing_mode {
                rustix::fs::fchmod(file.as_fd(), Mode::from_raw_mode(mode))?;
            }
            file.sync_all()?;
            drop(file);
            rustix::fs::renameat(&self.fd, temp.as_str(), &self.fd, name)?;
            rustix::fs::fsync(&self.fd)?;
            Ok(())
        })();
        if result.is_err() {
            let _ = rustix::fs::unlinkat(&self.fd, temp.as_str(), AtFlags::empty());
        }
        result
    }

    fn create_temp(&self, name: &str) -> io::Result<(String, OwnedFd)> {
        loop {
            let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let temp = format!(".{name}.agtool-{}-{n}", std::process::id());
            match rustix::fs::openat(
                &self.fd,
                temp.as_str(),
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o666),
            ) {
                Ok(fd) => return Ok((temp, fd)),
                Err(rustix::io::Errno::EXIST) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Removes the file or symlink `name` (a symlink itself, never its target), then fsyncs
    /// the folder. A folder is refused.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        single_component(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?;
        rustix::fs::fsync(&self.fd)?;
        Ok(())
    }
}

fn not_regular(name: &str, kind: EntryKind) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{name} is a {}, not a regular file", kind.name()),
    )
}

fn entry_stat(st: &rustix::fs::Stat) -> EntryStat {
    let secs = st.st_mtime;
    let nanos = st.st_mtime_nsec as u32;
    let modified = if secs >= 0 {
        SystemTime::UNIX_EPOCH + Duration::new(secs as u64, nanos)
    } else {
        SystemTime::UNIX_EPOCH
    };
    EntryStat {
        kind: EntryKind::of(FileType::from_raw_mode(st.st_mode)),
        size: st.st_size.max(0) as u64,
        modified,
        mode: st.st_mode & 0o7777,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn reads_writes_and_refuses_symlinks() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        std::fs::write(base.join("secret"), "s").unwrap();
        std::fs::create_dir(base.join("d")).unwrap();
        symlink(base.join("secret"), base.join("d/link.md")).unwrap();
        let d = OpenDir::open(&base.join("d")).unwrap();
        assert_eq!(d.path(), base.join("d"));
        let e = d.read_file("link.md", None).unwrap_err();
        assert!(e.to_string().contains("symlink"), "{e}");
        assert!(d.read_file("none.md", None).unwrap().is_none());
        d.write_atomic("a.md", b"hello\n").unwrap();
        let (bytes, st) = d.read_file("a.md", None).unwrap().unwrap();
        assert_eq!(bytes, b"hello\n");
        assert_eq!(st.size, 6);
        std::fs::set_permissions(base.join("d/a.md"), std::fs::Permissions::from_mode(0o640))
            .unwrap();
        d.write_atomic("a.md", b"x\n").unwrap();
        let mode = std::fs::metadata(base.join("d/a.md"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
        d.remove("link.md").unwrap();
        assert_eq!(std::fs::read(base.join("secret")).unwrap(), b"s");
        let mut names = d.names().unwrap();
        names.sort();
        assert_eq!(names, vec![OsString::from("a.md")]);
        assert!(d.read_file("../secret", None).is_err());
    }

    #[test]
    fn create_makes_missing_folders_and_checks_the_ancestor() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        let d = OpenDir::create(&base.join("a/b/c"), |p| p.starts_with(&base)).unwrap();
        assert_eq!(d.path(), base.join("a/b/c"));
        assert!(base.join("a/b/c").is_dir());
        let e = OpenDir::create(&base.join("x/y"), |_| false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert!(!base.join("x").exists());
    }
}
