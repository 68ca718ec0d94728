//! Directory handles: the race-free half of the file layer (spec 01, "Races and crashes").
//!
//! A [`Dir`] is an open directory. Everything below it is reached relative to that handle,
//! never by a full path again: a relative path is opened with Linux `openat2(RESOLVE_BENEATH |
//! RESOLVE_NO_SYMLINKS)`, so no symlink on the way is followed and nothing above the handle can
//! be reached, whatever another process renames or swaps meanwhile; single entries are
//! created, renamed, linked, unlinked and listed with the `*at` calls on the handle, which
//! never follow a symlink in the final name either. A folder swapped for a symlink makes the
//! call fail with `ELOOP` ([`is_swapped`]); it never leads outside.
//!
//! The path policy decides *which* path may be touched (following the symlinks it sees, one
//! step at a time, each step checked); this module then reaches exactly that path, and only
//! through real folders.
//!
//! Why rustix's `openat2` and not cap-std: rustix is already a dependency (no new crate tree),
//! one `openat2` call resolves a whole relative path with the kernel's guarantee, and the
//! semantics are exactly "no symlink at all" — cap-std follows symlinks that stay inside its
//! directory, which would let a symlink the policy never saw redirect a write within the
//! workspace (into `.git`, for instance). Kernels without `openat2` (before 5.6, or a seccomp
//! filter refusing it) fall back to opening one component at a time with `O_NOFOLLOW`, which
//! gives the same guarantee with one call per component.
//!
//! Temp files are named `.<name>.agtool-<pid>-<n>` ([`temp_name`], [`parse_temp_name`]): a
//! reader of the folder (and `git status`) sees what they are, and recovery (the journal)
//! knows whose they were.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RenameFlags, ResolveFlags};
use rustix::io::Errno;

/// Set once `openat2` turned out to be unavailable (old kernel, seccomp filter).
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);
/// Per-process counter of temp names.
static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);
/// Longest part of a target's name kept in its temp file's name (names are at most 255 bytes).
const TEMP_NAME_KEEP: usize = 200;

/// Most levels of folders below the top that a tree listing enters (spec 03): deeper trees
/// are refused as a whole ([`crate::fileio::tree::TreeStop::TooDeep`]) rather than half
/// handled, and [`Dir::create_dirs`] makes none deeper.
pub const MAX_TREE_DEPTH: usize = 1024;
/// Most bytes of a folder's path relative to the top that a listing enters: every later step
/// opens folders by that path in one call, which the kernel refuses past 4,095 bytes.
pub const MAX_TREE_PATH_BYTES: usize = 4000;

/// An open directory, reached without following any symlink. Every method acts relative to it.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    path: PathBuf,
}

/// What kind of entry a [`Stat`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed here).
    Symlink,
    /// A named pipe.
    Fifo,
    /// A unix socket.
    Socket,
    /// A block or character device.
    Device,
}

impl Kind {
    fn of(ft: FileType) -> Kind {
        match ft {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            FileType::Fifo => Kind::Fifo,
            FileType::Socket => Kind::Socket,
            _ => Kind::Device,
        }
    }

    /// The kind an `st_mode` value (file type bits and permissions, as
    /// `std::os::unix::fs::MetadataExt::mode` gives it) names.
    pub fn from_mode(mode: u32) -> Kind {
        Kind::of(FileType::from_raw_mode(mode as _))
    }

    /// A short name for messages: `file`, `directory`, `symlink`, `fifo`, `socket`, `device`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Dir => "directory",
            Kind::Symlink => "symlink",
            Kind::Fifo => "fifo",
            Kind::Socket => "socket",
            Kind::Device => "device",
        }
    }
}

/// The metadata of one entry (`lstat`: a symlink describes itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// The entry's kind.
    pub kind: Kind,
    /// Permission bits (`mode & 0o7777`).
    pub mode: u32,
    /// Size in bytes.
    pub len: u64,
    /// Last modification.
    pub mtime: SystemTime,
    /// Device of the filesystem holding it.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
}

impl Stat {
    // The raw fields' integer types differ between architectures; the casts are no-ops here.
    #[allow(clippy::unnecessary_cast)]
    fn from_raw(st: &rustix::fs::Stat) -> Stat {
        let mtime = if st.st_mtime >= 0 {
            SystemTime::UNIX_EPOCH + Duration::new(st.st_mtime as u64, st.st_mtime_nsec as u32)
        } else {
            SystemTime::UNIX_EPOCH
        };
        Stat {
            kind: Kind::of(FileType::from_raw_mode(st.st_mode as _)),
            mode: st.st_mode as u32 & 0o7777,
            len: st.st_size as u64,
            mtime,
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
        }
    }
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entry's name (one component).
    pub name: OsString,
    /// Its kind as the directory listing gives it (`d_type`; a symlink is [`Kind::Symlink`]),
    /// `None` where the filesystem does not say (then [`Dir::stat_at`] tells).
    pub kind: Option<Kind>,
    /// Its inode number as the listing gives it (`d_ino`).
    pub ino: u64,
}

/// Whether an error means a symlink stood where a folder or file was expected: what a
/// concurrent swap of a folder for a symlink produces (`ELOOP`; `EXDEV` for a path that
/// would leave the handle).
pub fn is_swapped(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(code) if code == Errno::LOOP.raw_os_error() || code == Errno::XDEV.raw_os_error())
}

/// The temp name for a file named `name` in this process: `.<name>.agtool-<pid>-<n>` (the name
/// cut to 200 bytes so the result stays a valid file name).
pub fn temp_name(name: &OsStr) -> OsString {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let bytes = name.as_bytes();
    let kept = &bytes[..bytes.len().min(TEMP_NAME_KEEP)];
    let mut out = Vec::with_capacity(kept.len() + 32);
    out.push(b'.');
    out.extend_from_slice(kept);
    out.extend_from_slice(format!(".agtool-{}-{n}", std::process::id()).as_bytes());
    OsString::from_vec(out)
}

/// The process id of a name made by [`temp_name`] (by any process), `None` for other names.
pub fn parse_temp_name(name: &OsStr) -> Option<u32> {
    let s = name.as_bytes();
    if !s.starts_with(b".") {
        return None;
    }
    let at = s.windows(8).rposition(|w| w == b".agtool-")?;
    let tail = std::str::from_utf8(&s[at + 8..]).ok()?;
    let (pid, n) = tail.split_once('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Refuses anything but one plain name (no `/`, not `.` or `..`, not empty, no NUL).
fn check_name(name: &OsStr) -> io::Result<()> {
    let b = name.as_bytes();
    if b.is_empty() || b == b"." || b == b".." || b.contains(&b'/') || b.contains(&0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name:?} is not a single file name"),
        ));
    }
    Ok(())
}

/// The components of a relative path made only of plain names (`.` skipped). Anything else
/// (absolute, `..`) is refused: the policy hands over resolved paths only.
fn plain_components(rel: &Path) -> io::Result<Vec<&OsStr>> {
    let mut out = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a plain relative path", rel.display()),
                ));
            }
        }
    }
    Ok(out)
}

fn errno(e: Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// Opens `rel` below `dirfd` following no symlink at all (see the module doc). An empty `rel`
/// opens `dirfd` itself again.
fn open_beneath(
    dirfd: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let comps = plain_components(rel)?;
    let flags = flags | OFlags::CLOEXEC;
    if comps.is_empty() {
        return rustix::fs::openat(dirfd, ".", flags, mode).map_err(errno);
    }
    if !NO_OPENAT2.load(Ordering::Relaxed) {
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(dirfd, rel, flags, mode, resolve) {
            Err(Errno::NOSYS) | Err(Errno::PERM) => NO_OPENAT2.store(true, Ordering::Relaxed),
            // openat2 retries internally but may give up under heavy rename traffic.
            Err(Errno::AGAIN) => {}
            other => return other.map_err(errno),
        }
    }
    let (last, dirs) = comps.split_last().expect("not empty");
    let mut cur: Option<OwnedFd> = None;
    for c in dirs {
        let at = cur.as_ref().map_or(dirfd, |f| f.as_fd());
        let next = rustix::fs::openat(
            at,
            *c,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            // O_DIRECTORY on a symlink says ENOTDIR; say what it is.
            Errno::NOTDIR if is_symlink_at(at, c) => errno(Errno::LOOP),
            e => errno(e),
        })?;
        cur = Some(next);
    }
    let at = cur.as_ref().map_or(dirfd, |f| f.as_fd());
    rustix::fs::openat(at, *last, flags | OFlags::NOFOLLOW, mode).map_err(|e| match e {
        Errno::NOTDIR if flags.contains(OFlags::DIRECTORY) && is_symlink_at(at, last) => {
            errno(Errno::LOOP)
        }
        e => errno(e),
    })
}

fn is_symlink_at(at: BorrowedFd<'_>, name: &OsStr) -> bool {
    rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|st| FileType::from_raw_mode(st.st_mode as _) == FileType::Symlink)
}

/// Opens a directory for listing and syncing; a folder we may search but not read (mode
/// `--x`) is still opened, as a path handle.
fn open_dir_fd(dirfd: BorrowedFd<'_>, rel: &Path) -> io::Result<OwnedFd> {
    match open_beneath(
        dirfd,
        rel,
        OFlags::RDONLY | OFlags::DIRECTORY,
        Mode::empty(),
    ) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            open_beneath(dirfd, rel, OFlags::PATH | OFlags::DIRECTORY, Mode::empty())
        }
        other => other,
    }
}

/// The entries of the directory open as `fd`, read from its start with `getdents` straight
/// into one buffer ([`Dir::entries_mut`]).
fn list_through(fd: BorrowedFd<'_>) -> Result<Vec<Entry>, Errno> {
    rustix::fs::seek(fd, rustix::fs::SeekFrom::Start(0))?;
    let mut buf: Vec<u8> = Vec::with_capacity(32 * 1024);
    let mut out = Vec::new();
    let mut raw = rustix::fs::RawDir::new(fd, buf.spare_capacity_mut());
    while let Some(e) = raw.next() {
        let e = e?;
        let name = e.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let kind = match e.file_type() {
            FileType::Unknown => None,
            ft => Some(Kind::of(ft)),
        };
        out.push(Entry {
            name: OsString::from_vec(name.to_vec()),
            kind,
            ino: e.ino(),
        });
    }
    Ok(out)
}

impl Dir {
    /// Opens an allowed root by its absolute, canonical path (the one path ever opened by
    /// name; its last component must not be a symlink). Errors are the filesystem's.
    pub fn open_root(path: &Path) -> io::Result<Dir> {
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = match rustix::fs::open(path, flags | OFlags::RDONLY, Mode::empty()) {
            Err(Errno::ACCESS) => rustix::fs::open(path, flags | OFlags::PATH, Mode::empty()),
            other => other,
        }
        .map_err(errno)?;
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The path this directory had when it was opened (for messages; it may have moved since).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The handle, e.g. for `fchdir`.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// The handle itself, e.g. to keep the folder as a process's working directory.
    pub fn into_fd(self) -> OwnedFd {
        self.fd
    }

    /// Another handle on the same directory.
    pub fn try_clone(&self) -> io::Result<Dir> {
        Ok(Dir {
            fd: self.fd.try_clone()?,
            path: self.path.clone(),
        })
    }

    /// Opens the folder `rel` (plain names only; empty: this one) below this one.
    /// `ELOOP` when a symlink is on the way ([`is_swapped`]).
    pub fn open_dir(&self, rel: &Path) -> io::Result<Dir> {
        Ok(Dir {
            fd: open_dir_fd(self.fd.as_fd(), rel)?,
            path: self.path.join(rel),
        })
    }

    /// Opens the file `rel` below this one for reading. A FIFO or device is opened without
    /// blocking (check [`File::metadata`] before reading it); a directory opens too; a socket
    /// is an error saying so.
    pub fn open_file(&self, rel: &Path) -> io::Result<File> {
        let fd = open_beneath(
            self.fd.as_fd(),
            rel,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY,
            Mode::empty(),
        )
        .map_err(|e| {
            // A unix socket cannot be opened at all (ENXIO): say what it is.
            if e.raw_os_error() == Some(Errno::NXIO.raw_os_error())
                && self.stat(rel).is_ok_and(|st| st.kind == Kind::Socket)
            {
                io::Error::other("not a regular file (socket)")
            } else {
                e
            }
        })?;
        let st = rustix::fs::fstat(&fd).map_err(errno)?;
        if FileType::from_raw_mode(st.st_mode as _) == FileType::RegularFile {
            let flags = rustix::fs::fcntl_getfl(&fd).map_err(errno)?;
            rustix::fs::fcntl_setfl(&fd, flags - OFlags::NONBLOCK).map_err(errno)?;
        }
        Ok(File::from(fd))
    }

    /// The metadata of the entry `rel` below this one; a symlink at the end describes itself.
    /// Empty `rel`: this directory.
    pub fn stat(&self, rel: &Path) -> io::Result<Stat> {
        let comps = plain_components(rel)?;
        let Some((last, dirs)) = comps.split_last() else {
            return rustix::fs::fstat(&self.fd)
                .map(|st| Stat::from_raw(&st))
                .map_err(errno);
        };
        if dirs.is_empty() {
            return self.stat_at(last);
        }
        let parent: PathBuf = dirs.iter().collect();
        let fd = open_beneath(
            self.fd.as_fd(),
            &parent,
            OFlags::PATH | OFlags::DIRECTORY,
            Mode::empty(),
        )?;
        rustix::fs::statat(&fd, *last, AtFlags::SYMLINK_NOFOLLOW)
            .map(|st| Stat::from_raw(&st))
            .map_err(errno)
    }

    /// The metadata of the entry `name` in this directory (not following a symlink).
    pub fn stat_at(&self, name: &OsStr) -> io::Result<Stat> {
        check_name(name)?;
        rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .map(|st| Stat::from_raw(&st))
            .map_err(errno)
    }

    /// The metadata of what the entry `name` in this directory leads to, following a symlink
    /// wherever it points. For deciding what not to touch only (an ignore file another
    /// library would open by path): nothing is opened through it.
    pub fn stat_target_at(&self, name: &OsStr) -> io::Result<Stat> {
        check_name(name)?;
        self.stat_target(Path::new(name))
    }

    /// [`Dir::stat_target_at`] for a plain relative path (`.git/info/exclude`), in one call:
    /// symlinks on the way are followed too. Error: a path that is not plain (`..`, absolute).
    pub fn stat_target(&self, rel: &Path) -> io::Result<Stat> {
        plain_components(rel)?;
        rustix::fs::statat(&self.fd, rel, AtFlags::empty())
            .map(|st| Stat::from_raw(&st))
            .map_err(errno)
    }

    /// Opens what the plain relative path `rel` leads to for reading, following symlinks
    /// wherever they point, as a tool reading it by path would; with `O_NONBLOCK`, so a FIFO
    /// never blocks the open (check the kind with `File::metadata` before reading). Only for
    /// files whose content decides what to leave out and is never shown (ignore files).
    /// Error: a path that is not plain; the filesystem's.
    pub fn open_target(&self, rel: &Path) -> io::Result<File> {
        plain_components(rel)?;
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        rustix::fs::openat(&self.fd, rel, flags, Mode::empty())
            .map(File::from)
            .map_err(errno)
    }

    /// Opens the folder `rel` below this one, creating the missing folders (mode 0777 less the
    /// umask). Returns it and the folders created, outermost first, relative to this one.
    pub fn create_dirs(&self, rel: &Path) -> io::Result<(Dir, Vec<PathBuf>)> {
        match self.open_dir(rel) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            other => return other.map(|d| (d, Vec::new())),
        }
        // Never deeper than the tree tools can list, copy, move and delete again.
        if rel.components().count() > MAX_TREE_DEPTH || rel.as_os_str().len() > MAX_TREE_PATH_BYTES
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "that would nest folders deeper than agtool goes ({MAX_TREE_DEPTH} levels, \
                     or {MAX_TREE_PATH_BYTES} bytes of path)"
                ),
            ));
        }
        let mut created = Vec::new();
        let mut cur = self.try_clone()?;
        let mut so_far = PathBuf::new();
        for c in plain_components(rel)? {
            so_far.push(c);
            match rustix::fs::mkdirat(&cur.fd, c, Mode::from_raw_mode(0o777)) {
                Ok(()) => created.push(so_far.clone()),
                Err(Errno::EXIST) => {}
                Err(e) => return Err(errno(e)),
            }
            cur = cur.open_dir(Path::new(c))?;
        }
        Ok((cur, created))
    }

    /// Creates the file `name` here, which must not exist (`O_EXCL`, so a symlink in its
    /// place is never followed), open for writing, with `mode` less the umask.
    pub fn create_new(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        check_name(name)?;
        rustix::fs::openat(
            &self.fd,
            name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        )
        .map(File::from)
        .map_err(errno)
    }

    /// Creates a temp file for the entry `name` of this directory: returns its name
    /// ([`temp_name`]) and the file, open for writing (mode 0666 less the umask).
    pub fn create_temp(&self, name: &OsStr) -> io::Result<(OsString, File)> {
        loop {
            let temp = temp_name(name);
            match self.create_new(&temp, 0o666) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                other => return other.map(|f| (temp, f)),
            }
        }
    }

    /// Renames the entry `from` here to `to` in `to_dir`, replacing what is there (never
    /// following a symlink at either end).
    pub fn rename(&self, from: &OsStr, to_dir: &Dir, to: &OsStr) -> io::Result<()> {
        check_name(from)?;
        check_name(to)?;
        rustix::fs::renameat(&self.fd, from, &to_dir.fd, to).map_err(errno)
    }

    /// As [`Dir::rename`], but `EEXIST` when `to` exists (`RENAME_NOREPLACE`; on a
    /// filesystem without it, a look first, then a plain rename).
    pub fn rename_new(&self, from: &OsStr, to_dir: &Dir, to: &OsStr) -> io::Result<()> {
        check_name(from)?;
        check_name(to)?;
        match rustix::fs::renameat_with(&self.fd, from, &to_dir.fd, to, RenameFlags::NOREPLACE) {
            Err(Errno::INVAL) | Err(Errno::NOSYS) => match to_dir.stat_at(to) {
                Ok(_) => Err(errno(Errno::EXIST)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => self.rename(from, to_dir, to),
                Err(e) => Err(e),
            },
            other => other.map_err(errno),
        }
    }

    /// Makes `to` in `to_dir` another name for the entry `from` here (a hard link; a symlink
    /// is linked itself, not followed).
    pub fn link(&self, from: &OsStr, to_dir: &Dir, to: &OsStr) -> io::Result<()> {
        check_name(from)?;
        check_name(to)?;
        rustix::fs::linkat(&self.fd, from, &to_dir.fd, to, AtFlags::empty()).map_err(errno)
    }

    /// Removes the non-directory entry `name` here (a symlink itself, never its target).
    pub fn unlink(&self, name: &OsStr) -> io::Result<()> {
        check_name(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()).map_err(errno)
    }

    /// Removes the empty directory `name` here.
    pub fn rmdir(&self, name: &OsStr) -> io::Result<()> {
        check_name(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR).map_err(errno)
    }

    /// Creates the directory `name` here with `mode` less the umask.
    pub fn mkdir(&self, name: &OsStr, mode: u32) -> io::Result<()> {
        check_name(name)?;
        rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(mode)).map_err(errno)
    }

    /// Creates the symlink `name` here pointing at `target` (taken as is).
    pub fn symlink(&self, target: &Path, name: &OsStr) -> io::Result<()> {
        check_name(name)?;
        rustix::fs::symlinkat(target, &self.fd, name).map_err(errno)
    }

    /// Where the symlink `name` here points.
    pub fn read_link(&self, name: &OsStr) -> io::Result<PathBuf> {
        check_name(name)?;
        rustix::fs::readlinkat(&self.fd, name, Vec::new())
            .map(|c| PathBuf::from(OsString::from_vec(c.into_bytes())))
            .map_err(errno)
    }

    /// Flushes everything written to the filesystem holding this directory (`syncfs`): one
    /// call for a whole tree of new files, where an `fsync` of each would cost a journal
    /// commit per file.
    pub fn sync_filesystem(&self) -> io::Result<()> {
        match rustix::fs::syncfs(&self.fd) {
            Err(Errno::BADF) => self.sync(),
            other => other.map_err(errno),
        }
    }

    /// Sets the permission bits of this directory itself (`fchmod` on the handle, so a symlink
    /// swapped in for its name meanwhile is never followed). Fails for a handle that could only
    /// be opened as a path (a folder we may not read).
    pub fn set_mode(&self, mode: u32) -> io::Result<()> {
        rustix::fs::fchmod(&self.fd, Mode::from_raw_mode(mode)).map_err(errno)
    }

    /// Sets the modification time of the entry `name` here, not following a symlink (a link
    /// gets its own time); the access time is left as it is.
    pub fn set_mtime_at(&self, name: &OsStr, mtime: SystemTime) -> io::Result<()> {
        check_name(name)?;
        let since = mtime
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or(Duration::ZERO);
        let times = rustix::fs::Timestamps {
            last_access: rustix::fs::Timespec {
                tv_sec: 0,
                tv_nsec: rustix::fs::UTIME_OMIT,
            },
            last_modification: rustix::fs::Timespec {
                tv_sec: since.as_secs() as i64,
                tv_nsec: since.subsec_nanos().into(),
            },
        };
        rustix::fs::utimensat(&self.fd, name, &times, AtFlags::SYMLINK_NOFOLLOW).map_err(errno)
    }

    /// The names in this directory (`.` and `..` left out) with their kinds where the listing
    /// gives them, in the order the filesystem gives.
    pub fn entries(&self) -> io::Result<Vec<Entry>> {
        // A second handle, opened for reading: its own read offset, and for a folder that
        // may be entered but not read, the real reason (permission denied).
        let fd = rustix::fs::openat(
            &self.fd,
            c".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(errno)?;
        list_through(fd.as_fd()).map_err(errno)
    }

    /// [`Dir::entries`] read straight through this handle (rewound first, then `getdents`),
    /// without the second handle `entries` opens for each listing: for walks that list
    /// many folders once each. `&mut self` because the handle's read offset moves (a handle
    /// from [`Dir::try_clone`] shares it: do not list through both at once). A handle that
    /// could only be opened as a path is listed as `entries` does, so the error is the same.
    pub fn entries_mut(&mut self) -> io::Result<Vec<Entry>> {
        match list_through(self.fd.as_fd()) {
            // A handle opened only as a path (a folder that may be entered, not read).
            Err(Errno::BADF) => self.entries(),
            other => other.map_err(errno),
        }
    }

    /// fsyncs this directory, so renames and unlinks in it are durable. A handle that could
    /// only be opened as a path (a folder we may not read) cannot be synced; that is not an
    /// error.
    pub fn sync(&self) -> io::Result<()> {
        match rustix::fs::fsync(&self.fd) {
            Err(Errno::BADF) => Ok(()),
            other => other.map_err(errno),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn fixture() -> (tempfile::TempDir, Dir) {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("ws/a/b")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::fs::write(root.join("outside/secret"), "s").unwrap();
        std::fs::write(root.join("ws/a/b/f"), "f").unwrap();
        symlink(root.join("outside"), root.join("ws/a/out")).unwrap();
        symlink("b", root.join("ws/a/in")).unwrap();
        let dir = Dir::open_root(&root.join("ws")).unwrap();
        (t, dir)
    }

    #[test]
    fn opens_through_folders_but_never_through_symlinks() {
        let (_t, ws) = fixture();
        let mut s = String::new();
        std::io::Read::read_to_string(&mut ws.open_file(Path::new("a/b/f")).unwrap(), &mut s)
            .unwrap();
        assert_eq!(s, "f");
        for rel in ["a/out/secret", "a/in/f"] {
            let e = ws.open_file(Path::new(rel)).unwrap_err();
            assert!(is_swapped(&e), "{rel}: {e}");
        }
        assert!(is_swapped(&ws.open_dir(Path::new("a/out")).unwrap_err()));
        assert!(ws.open_file(Path::new("../ws/a/b/f")).is_err());
        assert!(ws.open_file(Path::new("/etc/passwd")).is_err());
        // A symlink describes itself.
        assert_eq!(ws.stat(Path::new("a/out")).unwrap().kind, Kind::Symlink);
        assert_eq!(ws.stat(Path::new("a/b")).unwrap().kind, Kind::Dir);
    }

    #[test]
    fn the_fallback_walk_refuses_symlinks_too() {
        let (_t, ws) = fixture();
        let was = NO_OPENAT2.swap(true, Ordering::Relaxed);
        let e = ws.open_file(Path::new("a/out/secret")).unwrap_err();
        let f = ws.open_file(Path::new("a/b/f"));
        let d = ws.open_dir(Path::new("a/in")).unwrap_err();
        NO_OPENAT2.store(was, Ordering::Relaxed);
        assert!(is_swapped(&e), "{e}");
        assert!(f.is_ok());
        assert!(is_swapped(&d), "{d}");
    }

    #[test]
    fn create_dirs_temp_rename_and_listing() {
        let (_t, ws) = fixture();
        let (d, created) = ws.create_dirs(Path::new("n/m")).unwrap();
        assert_eq!(created, vec![PathBuf::from("n"), PathBuf::from("n/m")]);
        let (temp, mut f) = d.create_temp(OsStr::new("x.txt")).unwrap();
        assert_eq!(parse_temp_name(&temp), Some(std::process::id()));
        std::io::Write::write_all(&mut f, b"hi").unwrap();
        d.rename(&temp, &d, OsStr::new("x.txt")).unwrap();
        let names: Vec<_> = d.entries().unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, vec![OsString::from("x.txt")]);
        assert!(
            d.rename_new(OsStr::new("x.txt"), &d, OsStr::new("x.txt"))
                .is_err()
        );
        assert!(ws.create_dirs(Path::new("a/out/new")).is_err());
        assert!(d.unlink(OsStr::new("../x")).is_err());
    }

    #[test]
    fn listing_through_the_handle_gives_kinds_and_can_be_repeated() {
        let (_t, ws) = fixture();
        let mut a = ws.open_dir(Path::new("a")).unwrap();
        let sorted = |mut v: Vec<Entry>| {
            v.sort_by(|x, y| x.name.cmp(&y.name));
            v.into_iter()
                .map(|e| (e.name.into_string().unwrap(), e.kind))
                .collect::<Vec<_>>()
        };
        let want = vec![
            ("b".to_owned(), Some(Kind::Dir)),
            ("in".to_owned(), Some(Kind::Symlink)),
            ("out".to_owned(), Some(Kind::Symlink)),
        ];
        assert_eq!(sorted(a.entries_mut().unwrap()), want);
        // The handle's offset is at the end now: a second listing rewinds first.
        assert_eq!(sorted(a.entries_mut().unwrap()), want);
        assert_eq!(sorted(a.entries().unwrap()), want);
        // More entries than one getdents buffer holds.
        let (many, _) = ws.create_dirs(Path::new("many")).unwrap();
        for i in 0..3000 {
            many.create_new(
                OsStr::new(&format!("file-with-a-longish-name-{i:05}")),
                0o644,
            )
            .unwrap();
        }
        let mut many = ws.open_dir(Path::new("many")).unwrap();
        let got = many.entries_mut().unwrap();
        assert_eq!(got.len(), 3000);
        assert!(got.iter().all(|e| e.kind == Some(Kind::File)));
    }

    #[test]
    fn temp_names() {
        let t = temp_name(OsStr::new("a.rs"));
        let s = t.to_string_lossy();
        assert!(s.starts_with(".a.rs.agtool-"), "{s}");
        let long = "x".repeat(255);
        assert!(temp_name(OsStr::new(&long)).len() <= 255);
        assert_eq!(parse_temp_name(OsStr::new(".a.agtool-12-3")), Some(12));
        assert_eq!(parse_temp_name(OsStr::new("a.agtool-12-3")), None);
        assert_eq!(parse_temp_name(OsStr::new(".a.agtool-12-")), None);
        assert_eq!(parse_temp_name(OsStr::new(".a.agtool-x-1")), None);
    }
}
