//! The file layer: the only code that writes files (spec 01, "File layer" and "Races and
//! crashes").
//!
//! [`Fs`] holds one directory handle per allowed root, opened once per process, and reaches
//! every policy-checked path ([`CheckedPath`]) from the handle of the root that holds it,
//! through [`crate::fileio::beneath::Dir`]: no symlink the policy did not resolve is ever
//! followed, and no path is opened by its full name again. A folder swapped for a symlink
//! between the policy check and the use makes the call fail ([`describe`] says so); it never
//! acts outside.
//!
//! One file is written atomically by [`crate::fileio::atomic::write_file`], several by
//! [`crate::fileio::journal::commit`]; both build on the pieces here: [`fill`] (write a
//! temp file in chunks, stopping for a termination signal caught by [`Stop`]) and
//! [`existing_mode`] (the bits an existing target keeps).
//!
//! Permission bits of an existing target are kept; new files get `0666` less the umask (or
//! the mode asked for). A write replaces the target's directory entry and never writes into
//! the old inode, so a hard link inside the workspace to an outside file's inode is replaced
//! by the new file; the outside file keeps its content.
//!
//! How a new tool uses the layer: check the path with the policy (`ctx.check_path`), then
//! `ctx.fs.open_read(&p)`, `ctx.fs.stat(&p)`, `ctx.fs.parent(&p)` (the folder handle and the
//! name, for `rename`/`unlink`/`link`/`mkdir` on [`Dir`]), `ctx.fs.open_dir(&p)` (for listing
//! with [`Dir::entries`] or a tree with [`crate::fileio::tree`]); write one file with
//! [`crate::fileio::atomic::write_file`], several with
//! [`crate::fileio::journal::commit`] (all or nothing across a crash).

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::fileio::beneath::{Dir, Kind, Stat, is_swapped};
use crate::interrupt::Cancel;
use crate::interrupt::{self, InterruptWatch, signal_name};
use crate::workspace::policy::CheckedPath;
use crate::workspace::root;

/// Pieces gathered into one `writev` by [`fill`] (Linux takes at most 1,024).
const GATHER: usize = 1024;

/// Bytes [`fill`] writes before it asks the kernel to start writing them to the disk (and
/// checks for a termination signal). On the 6 MB file of the apply-patch benchmark, 1 MiB
/// steps cut the closing fsync from about 4.2 ms to 1.4 ms; the copies cost the same.
const WRITEBACK_STEP: usize = 1 << 20;

/// The file layer of one workspace: handles on its allowed roots, opened once.
#[derive(Debug)]
pub struct Fs {
    workspace_root: PathBuf,
    write_bases: Vec<PathBuf>,
    handles: Mutex<HashMap<PathBuf, Arc<Dir>>>,
}

/// A folder handle and one name in it: where an entry lives.
#[derive(Debug)]
pub struct Located {
    /// The folder (reached without following symlinks).
    pub dir: Dir,
    /// The entry's name in it.
    pub name: OsString,
    /// The allowed root the folder lies under.
    pub base: PathBuf,
    /// The folder relative to `base` (empty: `base` itself).
    pub dir_rel: PathBuf,
}

impl Located {
    /// The entry's absolute path (for messages and the journal).
    pub fn path(&self) -> PathBuf {
        self.base.join(&self.dir_rel).join(&self.name)
    }
}

/// The error a write returns when a termination signal stopped it: its inner error, found with
/// [`interrupted_by`].
#[derive(Debug)]
pub struct Interrupted(pub i32);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by {}", signal_name(self.0))
    }
}

impl std::error::Error for Interrupted {}

/// The signal that stopped a write, when `e` is such a stop.
pub fn interrupted_by(e: &io::Error) -> Option<i32> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Interrupted>())
        .map(|i| i.0)
}

/// Where a write may stop for a termination signal: SIGTERM, SIGINT, SIGHUP (and SIGQUIT) are
/// caught while a [`Stop`] made by [`Stop::watching`] lives (the mechanism of
/// [`crate::interrupt`]); [`Stop::check`] then fails, and the write cleans up.
#[derive(Debug, Default)]
pub struct Stop {
    watch: Option<InterruptWatch>,
    /// When the call's own timeout ends the work, and that timeout in ms (see
    /// [`Stop::with_deadline`]).
    deadline: Option<(std::time::Instant, u64)>,
}

/// The error a write returns when its call's timeout ended it before its commit point: its
/// inner error, found with [`timed_out_by`]; the timeout in ms.
#[derive(Debug)]
pub struct TimedOut(pub u64);

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "timed out after {} ms", self.0)
    }
}

impl std::error::Error for TimedOut {}

/// The timeout (ms) that stopped a write, when `e` is such a stop.
pub fn timed_out_by(e: &io::Error) -> Option<u64> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<TimedOut>())
        .map(|t| t.0)
}

impl Stop {
    /// Catches termination signals until dropped.
    pub fn watching() -> Stop {
        Stop {
            // Only signals: a cancellation never stops a write that has begun (the write gate).
            watch: Some(InterruptWatch::start(&Cancel::never())),
            deadline: None,
        }
    }

    /// Never stops (tests, and writes that must run to their end).
    pub fn never() -> Stop {
        Stop {
            watch: None,
            deadline: None,
        }
    }

    /// Also stops at `deadline` ([`TimedOut`] with `ms`): for work before a commit point
    /// that can be undone and may take long (copying a big file's bytes), so a call honours
    /// its timeout instead of running past it (issue 17, item 5: 2000 ms ran 26 s).
    pub fn with_deadline(mut self, deadline: std::time::Instant, ms: u64) -> Stop {
        self.deadline = Some((deadline, ms));
        self
    }

    /// The signal caught so far, if any.
    pub fn received(&self) -> Option<i32> {
        match self.watch.as_ref()?.received()? {
            interrupt::Stop::Signal(sig) => Some(sig),
            interrupt::Stop::Cancelled => None,
        }
    }

    /// Fails with [`Interrupted`] when a signal was caught.
    pub fn check(&self) -> io::Result<()> {
        if let Some(sig) = self.received() {
            return Err(io::Error::other(Interrupted(sig)));
        }
        match self.deadline {
            Some((at, ms)) if std::time::Instant::now() >= at => {
                Err(io::Error::other(TimedOut(ms)))
            }
            _ => Ok(()),
        }
    }
}

/// A model-facing reason for an error of the layer: a symlink swapped in is named as such.
pub fn describe(e: &io::Error) -> String {
    if is_swapped(e) {
        "a folder on the way was replaced by a symlink while agtool was working (another process \
         is changing it); nothing was done through it"
            .to_owned()
    } else if let Some(sig) = interrupted_by(e) {
        Interrupted(sig).to_string()
    } else {
        crate::error::io_reason(e)
    }
}

/// The refusal for an error of the layer while doing `verb` to `spelled`: a symlink swapped
/// in or a signal says so ([`describe`]), anything else reads as
/// [`crate::error::io_refusal`] (`<path> does not exist`, `cannot <verb> <path>: <reason>`).
pub fn refusal(verb: &str, spelled: &str, e: &io::Error) -> crate::error::ToolError {
    if is_swapped(e) || interrupted_by(e).is_some() {
        crate::error::ToolError::refused(format!("cannot {verb} {spelled}: {}", describe(e)))
    } else {
        crate::error::io_refusal(verb, spelled, e)
    }
}

impl Fs {
    /// The layer of a workspace whose root is `workspace_root` and whose writable roots are
    /// `write_bases` (all resolved). Nothing is opened yet.
    pub fn new(workspace_root: &Path, write_bases: Vec<PathBuf>) -> Fs {
        Fs {
            workspace_root: workspace_root.to_path_buf(),
            write_bases,
            handles: Mutex::new(HashMap::new()),
        }
    }

    /// The handle on the allowed root `base` (a [`CheckedPath::base`]), opened on first use.
    pub fn root(&self, base: &Path) -> io::Result<Arc<Dir>> {
        let mut handles = self.handles.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(h) = handles.get(base) {
            return Ok(h.clone());
        }
        let h = Arc::new(Dir::open_root(base)?);
        handles.insert(base.to_path_buf(), h.clone());
        Ok(h)
    }

    /// The workspace root (resolved).
    pub fn workspace_root(&self) -> &Path {
        &self.workspace_root
    }

    /// Whether `base` is a root writes may go to (the workspace root or a `write_roots` entry).
    pub fn is_write_base(&self, base: &Path) -> bool {
        self.write_bases.iter().any(|b| b == base)
    }

    /// Opens `p` (its resolved path) for reading; see [`Dir::open_file`].
    pub fn open_read(&self, p: &CheckedPath) -> io::Result<File> {
        self.root(&p.base)?.open_file(rel(&p.real, &p.base))
    }

    /// The metadata of `p`'s resolved path.
    pub fn stat(&self, p: &CheckedPath) -> io::Result<Stat> {
        self.root(&p.base)?.stat(rel(&p.real, &p.base))
    }

    /// The metadata of the entry `p` names itself (a final symlink describes itself). Errors
    /// with `PermissionDenied` when that entry lies outside every allowed root.
    pub fn stat_entry(&self, p: &CheckedPath) -> io::Result<Stat> {
        let base = entry_base(p)?;
        self.root(base)?.stat(rel(&p.entry, base))
    }

    /// Opens the folder `p` resolves to.
    pub fn open_dir(&self, p: &CheckedPath) -> io::Result<Dir> {
        self.root(&p.base)?.open_dir(rel(&p.real, &p.base))
    }

    /// The existing folder holding `p`'s resolved path, and its name there.
    pub fn parent(&self, p: &CheckedPath) -> io::Result<Located> {
        self.locate(&p.base, &p.real, false).map(|(l, _)| l)
    }

    /// The folder holding the entry `p` names itself (a final symlink: the link's folder).
    pub fn entry_parent(&self, p: &CheckedPath) -> io::Result<Located> {
        let base = entry_base(p)?.to_path_buf();
        self.locate(&base, &p.entry, false).map(|(l, _)| l)
    }

    /// As [`Fs::parent`], creating missing folders; also returns the folders created
    /// (absolute, outermost first).
    pub fn make_parent(&self, p: &CheckedPath) -> io::Result<(Located, Vec<PathBuf>)> {
        self.locate(&p.base, &p.real, true)
    }

    fn locate(
        &self,
        base: &Path,
        path: &Path,
        create: bool,
    ) -> io::Result<(Located, Vec<PathBuf>)> {
        let r = rel(path, base);
        let (Some(name), Some(dir_rel)) = (r.file_name(), r.parent()) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a root folder, not an entry in one", path.display()),
            ));
        };
        let root = self.root(base)?;
        let (dir, created) = if create {
            let (d, made) = root.create_dirs(dir_rel)?;
            (d, made.into_iter().map(|m| base.join(m)).collect())
        } else {
            (root.open_dir(dir_rel)?, Vec::new())
        };
        Ok((
            Located {
                dir,
                name: name.to_os_string(),
                base: base.to_path_buf(),
                dir_rel: dir_rel.to_path_buf(),
            },
            created,
        ))
    }

    /// Removes folders a failed write created (absolute paths, outermost first), innermost
    /// first, each only if it is empty again.
    pub fn remove_created(&self, base: &Path, created: &[PathBuf]) {
        let Ok(root) = self.root(base) else {
            return;
        };
        for dir in created.iter().rev() {
            let r = rel(dir, base);
            if let (Some(parent), Some(name)) = (r.parent(), r.file_name())
                && let Ok(d) = root.open_dir(parent)
            {
                let _ = d.rmdir(name);
            }
        }
    }

    /// The journal folder `.agent-state/journal`, reached without following symlinks.
    /// `create`: make it (and `.agent-state`) when missing; otherwise `None` when missing.
    pub fn journal_dir(&self, create: bool) -> io::Result<Option<Dir>> {
        let root = self.root(&self.workspace_root)?;
        let state = match root.open_dir(Path::new(root::STATE_DIR)) {
            Ok(d) => d,
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                root::ensure_state_dir(&self.workspace_root)?;
                root.open_dir(Path::new(root::STATE_DIR))?
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        match state.open_dir(Path::new("journal")) {
            Ok(d) => Ok(Some(d)),
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                match state.mkdir(OsStr::new("journal"), 0o755) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(e),
                }
                state.open_dir(Path::new("journal")).map(Some)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

fn entry_base(p: &CheckedPath) -> io::Result<&Path> {
    p.entry_base.as_deref().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} lies outside the workspace", p.entry.display()),
        )
    })
}

/// `path` relative to `base` (the policy guarantees `base` holds it).
fn rel<'a>(path: &'a Path, base: &Path) -> &'a Path {
    path.strip_prefix(base).unwrap_or(Path::new(""))
}

/// The mode an atomic write gives the entry `name` of `dir`: an existing file's own bits,
/// else `new_mode`. Errors for a folder, and for a symlink (the policy resolved the path to a
/// file; a symlink there now was swapped in).
pub fn existing_mode(dir: &Dir, name: &OsStr, new_mode: Option<u32>) -> io::Result<Option<u32>> {
    match dir.stat_at(name) {
        Ok(st) if st.kind == Kind::Dir => Err(io::Error::other(format!(
            "{} is a directory",
            dir.path().join(name).display()
        ))),
        Ok(st) if st.kind == Kind::Symlink => Err(io::Error::from_raw_os_error(libc::ELOOP)),
        Ok(st) => Ok(Some(st.mode)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(new_mode),
        Err(e) => Err(e),
    }
}

/// Writes the concatenation of `parts` into `file` (a new temp file), in steps of
/// [`WRITEBACK_STEP`] bytes, stopping for a signal; sets `mode` when given and fsyncs. A file
/// spliced from pieces of another buffer (`txn::After::Splice`, `txn::After::Edits`) is written
/// without being assembled first: up to [`GATHER`] pieces per `writev`, so thousands of small
/// pieces cost a few system calls, not one each. After each step the kernel is asked to start
/// writing it to the disk (`sync_file_range`, `SYNC_FILE_RANGE_WRITE`: a hint, it waits for
/// nothing and promises nothing), so the disk works while the next step is copied and the
/// closing fsync, which still makes it all durable, waits for less. Errors leave the file for
/// the caller to remove.
pub fn fill(file: &mut File, parts: &[&[u8]], mode: Option<u32>, stop: &Stop) -> io::Result<()> {
    let mut batch: Vec<io::IoSlice<'_>> = Vec::new();
    let (mut bytes, mut written) = (0, 0);
    for chunk in parts.iter().flat_map(|p| p.chunks(WRITEBACK_STEP)) {
        if batch.len() == GATHER || bytes + chunk.len() > WRITEBACK_STEP {
            write_step(file, &mut batch, &mut written, stop)?;
            bytes = 0;
        }
        batch.push(io::IoSlice::new(chunk));
        bytes += chunk.len();
    }
    if !batch.is_empty() {
        write_step(file, &mut batch, &mut written, stop)?;
    }
    if let Some(mode) = mode {
        // Set after creation: the umask must not strip bits the original had.
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    file.sync_all()?;
    stop.check()
}

/// One step of [`fill`]: checks for a signal, writes `batch` at offset `written` (which it
/// advances), then starts the write-back of those bytes.
fn write_step(
    file: &mut File,
    batch: &mut Vec<io::IoSlice<'_>>,
    written: &mut u64,
    stop: &Stop,
) -> io::Result<()> {
    stop.check()?;
    let len: usize = batch.iter().map(|b| b.len()).sum();
    write_all_vectored(file, batch)?;
    // A hint only (the fsync at the end is what makes the bytes durable): its result does not
    // matter, and a filesystem without it is no error.
    // SAFETY: sync_file_range reads no memory of this process; the descriptor is open.
    unsafe {
        libc::sync_file_range(
            std::os::fd::AsRawFd::as_raw_fd(file),
            *written as libc::off64_t,
            len as libc::off64_t,
            libc::SYNC_FILE_RANGE_WRITE,
        );
    }
    *written += len as u64;
    Ok(())
}

/// Writes every slice of `batch` in order (retrying short and interrupted writes) and leaves
/// `batch` empty.
fn write_all_vectored(file: &mut File, batch: &mut Vec<io::IoSlice<'_>>) -> io::Result<()> {
    let mut left: &mut [io::IoSlice<'_>] = batch;
    while !left.is_empty() {
        match file.write_vectored(left) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => io::IoSlice::advance_slices(&mut left, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    batch.clear();
    Ok(())
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

    #[test]
    fn fill_writes_many_pieces_in_order() {
        // More pieces than one writev takes, empty ones, and one larger than a step.
        let big = vec![b'x'; 3 * WRITEBACK_STEP + 17];
        let small: Vec<Vec<u8>> = (0..3 * GATHER)
            .map(|i| "ab".repeat(i % 5).into_bytes())
            .collect();
        let mut parts: Vec<&[u8]> = small.iter().map(Vec::as_slice).collect();
        parts.insert(GATHER - 1, &big);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut file = File::create(&path).unwrap();
        fill(&mut file, &parts, Some(0o640), &Stop::never()).unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), parts.concat());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }
}
