//! The helper's mount layer (spec 08, "Mechanism"): a private mount namespace, made inside a
//! new user namespace when agtool does not run as root, in which
//! - every existing path with a `deny_read` name (under the write and read roots, whole
//!   trees, and in the home folder to three levels, see [`scan_home`]) and agtool's journal key folders are covered
//!   by an empty read-only mount: a folder by an empty read-only tmpfs, anything else by a
//!   read-only bind of `/dev/null` (what bubblewrap does for `--ro-bind /dev/null`);
//! - every existing path with a protected name under the write roots becomes a read-only
//!   bind mount of itself, unless it is itself an `exec.writable` folder (one around it
//!   does not count; one inside it is made writable again on top);
//! - a private tmpfs on `/dev/shm` and a private `/dev/pts` instance, and the folders of session server sockets hidden like
//!   `deny_read` paths (see `exec::session::peer`);
//! - in `read-only` mode the write roots themselves become read-only, and the `exec.writable`
//!   folders inside them writable again;
//! - each write root, and each folder above it inside a folder commands may write (a workspace
//!   under `/tmp`), is a mount point of itself, so it cannot be renamed or removed
//!   ([`pin_write_roots`]), and so is each folder above a read-only protected path.
//!
//! Landlock alone cannot do either: its rules only add rights, so a file inside a readable
//! tree cannot be hidden, nor a folder inside a writable tree kept read-only. The mounts are
//! private to the namespace (`MS_PRIVATE` on `/` first), so nothing leaks to the host; the
//! command cannot undo them because seccomp refuses `mount`, `umount2` and the new mount API.
//!
//! Symlinks with a denied or protected name are not followed (covering one would cover its
//! target, which may be anything): the target keeps its own name's rules.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::Plan;
use crate::exec::session::peer::SANDBOX_MOUNT_SOURCE;

/// How many entries [`scan`] looks at, at most (the default of [`Plan::scan_budget`]): a write
/// root of `/` or a huge tree must not make every command wait for a walk of the whole disk.
/// Past it the scan stops and [`Targets::cut_short`] is set, and the helper refuses the
/// command: names it did not see would be neither hidden nor read-only. A JavaScript project
/// with its `node_modules` passes 100,000 entries (the old budget, which refused every
/// command there); the walk takes about 0.5 ms per 1,000 entries (`bench/sandbox_scan.sh`:
/// 0.44 ms).
pub const SCAN_BUDGET: usize = 500_000;

/// Paths found by [`scan`].
#[derive(Debug, Default)]
pub struct Targets {
    /// The scan stopped at the budget: names deeper in the trees were not seen.
    pub cut_short: bool,
    /// The folder the scan was reading when it stopped.
    pub stopped_in: Option<PathBuf>,
    /// Entries looked at.
    pub seen: usize,
    /// The home folder's projects were not all searched ([`HOME_BUDGET`]).
    pub home_cut_short: bool,
    /// Existing paths with a `deny_read` name, and the key folders: covered by empty mounts.
    pub hidden: Vec<PathBuf>,
    /// Existing paths with a protected name under the write roots: made read-only.
    pub read_only: Vec<PathBuf>,
}

fn same_name(a: &[u8], b: &str) -> bool {
    a.eq_ignore_ascii_case(b.as_bytes())
}

/// Finds what the mounts must cover: walks the write roots, the read roots and the writable
/// folders whole (without following symlinks, and not into what is covered anyway), and the
/// top level of the home folder.
pub fn scan(plan: &Plan) -> Targets {
    let mut t = Targets::default();
    for dir in &plan.hidden {
        if dir.exists() {
            t.hidden.push(dir.clone());
        }
    }
    let mut trees: Vec<(&Path, bool)> = Vec::new();
    for r in &plan.write_roots {
        trees.push((r, plan.mode == super::Mode::WorkspaceWrite));
    }
    for r in plan.read_roots.iter().chain(&plan.writable) {
        trees.push((r, false));
    }
    // The trees' own names first, whatever the budget: `.git`, `.agent-state`, `.env` right
    // under a root are covered even when padding stops the walk before it meets them.
    for (tree, protect) in &trees {
        for name in &plan.deny_read {
            let p = tree.join(name);
            if std::fs::symlink_metadata(&p).is_ok_and(|m| !m.file_type().is_symlink()) {
                t.hidden.push(p);
            }
        }
        for name in &plan.protected {
            let p = tree.join(name);
            if *protect
                && stays_protected(plan, &p)
                && std::fs::symlink_metadata(&p).is_ok_and(|m| !m.file_type().is_symlink())
            {
                t.read_only.push(p);
            }
        }
    }
    // The git folder a write root uses when it is not the root's own `.git` (a root inside a
    // bigger repository, a worktree, `--separate-git-dir`): a hook planted there runs at the
    // user's next commit, outside the sandbox.
    if plan.mode == super::Mode::WorkspaceWrite {
        for root in &plan.write_roots {
            for dir in git_dirs(root) {
                if stays_protected(plan, &dir) {
                    t.read_only.push(dir);
                }
            }
        }
    }
    let mut seen: Vec<PathBuf> = Vec::new();
    for (tree, protect) in trees {
        // A tree inside one already walked was covered by that walk.
        if seen.iter().any(|s| tree.starts_with(s)) {
            continue;
        }
        seen.push(tree.to_path_buf());
        walk(plan, tree, protect, &mut t);
    }
    if let Some(home) = &plan.home {
        scan_home(plan, home, &mut t);
    }
    t.hidden.sort();
    t.hidden.dedup();
    t.read_only.sort();
    t.read_only.dedup();
    t
}

/// How many entries of the home folder's plain folders [`scan_home`] reads for their
/// projects, at most; past it the rest is not searched (a note says so, the command runs).
pub const HOME_BUDGET: usize = 20_000;

/// Existing `deny_read` names (not symlinks) directly in `dir`, looked up by name.
fn denied_in(plan: &Plan, dir: &Path, t: &mut Targets) {
    for name in &plan.deny_read {
        let p = dir.join(name);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| !m.file_type().is_symlink()) {
            t.hidden.push(p);
        }
    }
}

/// The home folder, to three levels, without walking it whole (it may hold millions of
/// files, and this runs before every command): `deny_read` names at its top level (any
/// case), in each of its folders (`~/proj/.env`, `~/.config/x/.env`), and in each folder of
/// its plain (not dot) folders (`~/src/proj/.env`), the last within [`HOME_BUDGET`] entries.
/// Deeper names are not covered (README, "The exec sandbox").
fn scan_home(plan: &Plan, home: &Path, t: &mut Targets) {
    let Ok(entries) = std::fs::read_dir(home) else {
        return;
    };
    let mut plain: Vec<PathBuf> = Vec::new();
    for e in entries.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_symlink() {
            continue;
        }
        let name = e.file_name();
        if plan.deny_read.iter().any(|d| same_name(name.as_bytes(), d)) {
            t.hidden.push(e.path());
            continue;
        }
        if ft.is_dir() {
            denied_in(plan, &e.path(), t);
            if !name.as_bytes().starts_with(b".") {
                plain.push(e.path());
            }
        }
    }
    let mut seen = 0;
    for dir in plain {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > HOME_BUDGET {
                t.home_cut_short = true;
                return;
            }
            if e.file_type().is_ok_and(|f| f.is_dir())
                && !plan
                    .deny_read
                    .iter()
                    .any(|d| same_name(e.file_name().as_bytes(), d))
            {
                denied_in(plan, &e.path(), t);
            }
        }
    }
}

/// The git folders `root` uses besides its own `.git` folder: the nearest `.git` folder above
/// it, or what a `.git` file (`gitdir: <path>`) in it or above it names, with that folder's
/// `commondir` (a worktree's main repository). Resolved; only existing folders.
fn git_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in root.ancestors() {
        let dotgit = dir.join(".git");
        let Ok(meta) = std::fs::symlink_metadata(&dotgit) else {
            continue;
        };
        if meta.is_dir() {
            if dir != root {
                out.push(dotgit);
            }
        } else if meta.is_file()
            && meta.len() < 4096
            && let Ok(text) = std::fs::read_to_string(&dotgit)
            && let Some(named) = text.lines().next().and_then(|l| l.strip_prefix("gitdir:"))
            && let Ok(gitdir) = std::fs::canonicalize(dir.join(named.trim()))
        {
            if let Ok(common) = std::fs::read_to_string(gitdir.join("commondir"))
                && let Ok(common) = std::fs::canonicalize(gitdir.join(common.trim()))
            {
                out.push(common);
            }
            out.push(gitdir);
        }
        break;
    }
    out.retain(|p| p.is_dir());
    out
}

/// Whether the protected `path` is made read-only: always, unless an `exec.writable` entry is
/// that very folder. A writable entry around it (the workspace's parent) does not lift the
/// protection, and one inside it is made writable again on top of the read-only mount.
fn stays_protected(plan: &Plan, path: &Path) -> bool {
    !plan.writable.iter().any(|w| w == path)
}

fn walk(plan: &Plan, top: &Path, protect: bool, t: &mut Targets) {
    // Breadth first, so that a cut-short scan has seen the shallow names, where secrets and
    // repositories usually are.
    let mut queue = std::collections::VecDeque::from([top.to_path_buf()]);
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            t.seen += 1;
            if t.seen > plan.scan_budget {
                t.cut_short = true;
                t.stopped_in = Some(dir);
                return;
            }
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_symlink() {
                continue;
            }
            let name = e.file_name();
            let name = name.as_bytes();
            let path = e.path();
            if plan.deny_read.iter().any(|d| same_name(name, d)) {
                t.hidden.push(path);
                continue;
            }
            if plan.protected.iter().any(|p| same_name(name, p)) {
                if protect && stays_protected(plan, &path) {
                    t.read_only.push(path);
                }
                // What is under a protected name is read-only whole; its size (a repository's
                // objects) is not walked.
                continue;
            }
            if ft.is_dir() {
                queue.push_back(path);
            }
        }
    }
}

fn cstr(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
}

fn check(rc: libc::c_int, what: impl FnOnce() -> String) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        let e = io::Error::last_os_error();
        Err(io::Error::new(e.kind(), format!("{}: {e}", what())))
    }
}

fn mount(
    src: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> io::Result<()> {
    let src_c = src.map(cstr).transpose()?;
    let target_c = cstr(target)?;
    let fs_c = fstype.map(|f| CString::new(f).unwrap_or_default());
    let data_c = data.map(|d| CString::new(d).unwrap_or_default());
    // SAFETY: every pointer is a live NUL-terminated string or null, as mount(2) expects.
    let rc = unsafe {
        libc::mount(
            src_c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            target_c.as_ptr(),
            fs_c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            flags,
            data_c
                .as_ref()
                .map_or(std::ptr::null(), |c| c.as_ptr().cast()),
        )
    };
    check(rc, || format!("mount on {}", target.display()))
}

/// The flags a remount must keep: inside a user namespace the kernel refuses a remount that
/// would drop `nosuid`, `nodev`, `noexec` or the atime flags of a mount it locked.
fn kept_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = cstr(path) else { return 0 };
    // SAFETY: statvfs fills the zeroed struct it is given.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: see above; `c` is a valid path string.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let f = st.f_flag;
    let mut out = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if f & st_flag != 0 {
            out |= ms_flag;
        }
    }
    out
}

/// Binds `src` on `target` and makes that mount read-only (or read-write: `rw`).
fn bind(src: &Path, target: &Path, rw: bool) -> io::Result<()> {
    mount(Some(src), target, None, libc::MS_BIND | libc::MS_REC, None)?;
    let ro = if rw { 0 } else { libc::MS_RDONLY };
    mount(
        None,
        target,
        None,
        libc::MS_BIND | libc::MS_REMOUNT | ro | kept_flags(target),
        None,
    )
}

/// Makes each write root, and each folder above it, that lies inside a folder commands may
/// write (`/tmp`, the private `TMPDIR`, `exec.writable`, another write root) a mount point of
/// itself. rename(2) and rmdir(2) refuse a mount point (EBUSY), so a command cannot move the
/// workspace aside and put a copy with its own `.git` in its place: the read-only mounts of the
/// protected names would stay on the moved folder (a workspace under `/tmp`, whose next
/// `git commit` ran a planted hook outside the sandbox). Outermost first, so each later mount
/// lands inside the one made before it.
///
/// The folders above each read-only protected path (a nested repository's `sub/.git`, a git
/// folder outside the workspace) are pinned the same way: `sub` could be moved aside and a
/// copy with a writable `.git` put in its place.
fn pin_write_roots(plan: &Plan, targets: &Targets) -> io::Result<()> {
    let mut writable: Vec<&Path> = vec![Path::new("/tmp")];
    writable.extend(plan.tmpdir.as_deref());
    writable.extend(plan.writable.iter().map(PathBuf::as_path));
    writable.extend(plan.write_roots.iter().map(PathBuf::as_path));
    let mut pins: Vec<&Path> = Vec::new();
    let above_protected = targets.read_only.iter().filter_map(|p| p.parent());
    for root in plan
        .write_roots
        .iter()
        .map(PathBuf::as_path)
        .chain(above_protected)
    {
        for dir in root.ancestors() {
            let exposed = writable.iter().any(|w| dir.starts_with(w) && dir != *w);
            // Inside a read-only protected folder nothing can be renamed anyway, and a
            // writable pin there would stay writable inside its read-only mount.
            let inside_protected = targets.read_only.iter().any(|p| dir.starts_with(p));
            if exposed && !inside_protected && !pins.contains(&dir) {
                pins.push(dir);
            }
        }
    }
    // Fewer components first: a folder above before the folders below it.
    pins.sort_by_key(|p| p.components().count());
    for dir in pins {
        // Gone or not a folder (another command moved it before this one started).
        if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        bind(dir, dir, true)?;
    }
    Ok(())
}

/// Writes `text` to a `/proc/self` file (the user namespace's maps).
fn write_proc(name: &str, text: &str) -> io::Result<()> {
    std::fs::write(format!("/proc/self/{name}"), text)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write /proc/self/{name}: {e}")))
}

/// Enters a private mount namespace: `unshare(CLONE_NEWNS)` as root, else a new user
/// namespace too, mapping only this user and group (so files keep their owners), with
/// `setgroups` denied. Then marks every mount private, so nothing done here reaches the host.
pub fn enter(as_root: bool) -> io::Result<()> {
    if as_root {
        // SAFETY: unshare takes flags only.
        check(unsafe { libc::unshare(libc::CLONE_NEWNS) }, || {
            "cannot make a mount namespace (unshare CLONE_NEWNS)".into()
        })?;
    } else {
        let uid = rustix::process::geteuid().as_raw();
        let gid = rustix::process::getegid().as_raw();
        // SAFETY: unshare takes flags only.
        check(
            unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) },
            || {
                "cannot make a user namespace (unshare CLONE_NEWUSER; are unprivileged user namespaces disabled?)".into()
            },
        )?;
        write_proc("setgroups", "deny")?;
        write_proc("uid_map", &format!("{uid} {uid} 1\n"))?;
        write_proc("gid_map", &format!("{gid} {gid} 1\n"))?;
    }
    mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )
}

/// Puts the mounts of `targets` in place (see the module text). Errors name the path.
pub fn apply(plan: &Plan, targets: &Targets) -> io::Result<()> {
    // A private /dev/shm: the host's shared memory (other programs' segments and named
    // semaphores) is out of reach, while `sem_open` and Python's multiprocessing keep working.
    // Its source name is the mark the session server looks for (see `session::peer`).
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        mount(
            Some(Path::new(SANDBOX_MOUNT_SOURCE)),
            shm,
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some("mode=1777"),
        )?;
    }
    // A private /dev/pts (what bubblewrap's --dev gives): the terminals of other programs
    // are not there to be written to, while new ones (`openpty`, `script`) work through the
    // instance's own ptmx, bound on /dev/ptmx.
    let pts = Path::new("/dev/pts");
    if pts.is_dir() {
        mount(
            Some(Path::new("devpts")),
            pts,
            Some("devpts"),
            libc::MS_NOSUID | libc::MS_NOEXEC,
            Some("newinstance,ptmxmode=0666,mode=0620"),
        )?;
        let ptmx = Path::new("/dev/ptmx");
        if std::fs::symlink_metadata(ptmx).is_ok_and(|m| !m.file_type().is_symlink()) {
            bind(&pts.join("ptmx"), ptmx, true)?;
        }
    }
    pin_write_roots(plan, targets)?;
    if plan.mode == super::Mode::ReadOnly {
        for root in &plan.write_roots {
            bind(root, root, false)?;
        }
        for w in &plan.writable {
            if plan.write_roots.iter().any(|r| w.starts_with(r)) {
                bind(w, w, true)?;
            }
        }
    }
    for p in &targets.read_only {
        // Gone since the scan (renamed or removed by another command): nothing to protect.
        if std::fs::symlink_metadata(p).is_err() {
            continue;
        }
        bind(p, p, false)?;
    }
    // An exec.writable folder inside a protected one (`.git/hooks`) is writable again.
    for w in &plan.writable {
        if targets.read_only.iter().any(|p| w.starts_with(p) && w != p) {
            bind(w, w, true)?;
        }
    }
    for p in &targets.hidden {
        let meta = match std::fs::symlink_metadata(p) {
            Ok(m) => m,
            Err(_) => continue, // gone since the scan: nothing to hide
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        if meta.is_dir() {
            mount(
                Some(Path::new(SANDBOX_MOUNT_SOURCE)),
                p,
                Some("tmpfs"),
                libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                Some("size=4k,nr_inodes=2,mode=0500"),
            )?;
        } else {
            bind(Path::new("/dev/null"), p, false)?;
        }
    }
    Ok(())
}
