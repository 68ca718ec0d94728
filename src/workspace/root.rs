//! Workspace root discovery and the `.agent-state/` folder (spec 00, "Workspace root and state").

use std::io;
use std::path::{Path, PathBuf};

/// Name of the per-workspace state folder.
pub const STATE_DIR: &str = ".agent-state";

/// The workspace root [`discover`] found, and the state folders it would not adopt (one
/// warning line each, for stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovery {
    /// The root, canonical (symlinks resolved).
    pub root: PathBuf,
    /// `agtool: warning: ...` lines: state folders passed over because another user owns
    /// them or others may write to them.
    pub warnings: Vec<String>,
}

/// Finds the workspace root (spec 00, "Workspace root and state"): `explicit` (from `--root`
/// or `AGTOOL_ROOT`) when given; else the nearest ancestor of `cwd` holding an `.agent-state`
/// folder or `.git`, searching upward no further than the nearest `.git` (a repository is
/// its own workspace: an `.agent-state` above it is never adopted), never the home folder
/// (`$HOME`) or anything above it, never `/`; else `cwd`.
///
/// Only a real folder counts as `.agent-state` (a plain file or a symlink of that name in a
/// parent is passed over), and only one this user owns that no one else may write to
/// ([`foreign_state_dir`]): another one met on the way up is passed over with a warning.
/// When the root found (or `cwd`) holds such a foreign state folder itself, discovery fails
/// with a message saying what to do.
///
/// Errors: `explicit` does not exist or is not a directory; `cwd` cannot be resolved; the
/// root's own state folder belongs to another user or others may write to it.
pub fn discover(cwd: &Path, explicit: Option<&Path>) -> io::Result<Discovery> {
    if let Some(dir) = explicit {
        let abs = cwd.join(dir);
        let real = std::fs::canonicalize(&abs).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("workspace root {} does not exist: {e}", abs.display()),
            )
        })?;
        if !real.is_dir() {
            return Err(io::Error::other(format!(
                "workspace root {} is not a directory",
                abs.display()
            )));
        }
        return Ok(Discovery {
            root: real,
            warnings: Vec::new(),
        });
    }
    let real_cwd = std::fs::canonicalize(cwd)?;
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .and_then(|h| std::fs::canonicalize(h).ok());
    let mut warnings = Vec::new();
    let mut root = None;
    for dir in real_cwd.ancestors() {
        if dir.parent().is_none() || home.as_deref() == Some(dir) {
            break;
        }
        let state = dir.join(STATE_DIR);
        if std::fs::symlink_metadata(&state).is_ok_and(|m| m.is_dir()) {
            match foreign_state_dir(&state) {
                None => {
                    root = Some(dir.to_path_buf());
                    break;
                }
                Some(why) => warnings.push(format!(
                    "agtool: warning: not using {} as the workspace's state folder: {why}",
                    state.display()
                )),
            }
        }
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            root = Some(dir.to_path_buf());
            break;
        }
    }
    let root = root.unwrap_or(real_cwd);
    let state = root.join(STATE_DIR);
    if std::fs::symlink_metadata(&state).is_ok_and(|m| m.is_dir())
        && let Some(why) = foreign_state_dir(&state)
    {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the workspace root {} holds a state folder agtool will not use: {} {why}; \
                 remove it (agtool makes its own), or pass --root to choose another workspace",
                root.display(),
                state.display()
            ),
        ));
    }
    Ok(Discovery { root, warnings })
}

/// Why the state folder `dir` is not this user's to use, or None when it is: it belongs to
/// another user (its note, journal and config would be another user's), or others may write
/// to it (mode with `o+w`, or `g+w` for a group other than this user's own), so another user
/// could plant them (spec 00).
pub fn foreign_state_dir(dir: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(dir).ok()?;
    let uid = rustix::process::geteuid().as_raw();
    let gid = rustix::process::getegid().as_raw();
    let mode = meta.mode() & 0o7777;
    if meta.uid() != uid {
        return Some(format!(
            "it belongs to another user (uid {}, not {uid})",
            meta.uid()
        ));
    }
    if mode & 0o002 != 0 || (mode & 0o020 != 0 && meta.gid() != gid) {
        return Some(format!(
            "others may write to it (mode {mode:04o}); chmod go-w it to use it"
        ));
    }
    None
}

/// Refuses a symlink at `path` (spec 01, "Races and crashes": the state directory is never
/// followed through a symlink). Ok when `path` does not exist or is not a symlink. A
/// repository can carry a committed `.agent-state` symlink (or one inside it) that would make
/// agtool create its database and lock files wherever it points.
pub fn refuse_symlink(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::other(format!(
            "{} is a symlink; agtool never follows its state folder or anything in it through \
             a symlink: remove the link (agtool makes a fresh one)",
            path.display()
        ))),
        Ok(_) => Ok(()),
        // Nothing there (or a file where a folder on the way should be): no link to follow.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// `<root>/.agent-state` when it exists as a real folder; None when it does not exist.
/// Errors: it is a symlink or not a folder.
pub fn existing_state_dir(root: &Path) -> io::Result<Option<PathBuf>> {
    let dir = root.join(STATE_DIR);
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => Ok(Some(dir)),
        Ok(m) if m.file_type().is_symlink() => refuse_symlink(&dir).map(|()| None),
        Ok(_) => Err(io::Error::other(format!(
            "{} is not a folder; remove it (agtool makes the folder it needs)",
            dir.display()
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Creates `<root>/.agent-state/` if needed, with a `.gitignore` holding `*` so it is never
/// committed, and returns its path. Nothing is created through a symlink: a symlinked
/// `.agent-state` or `.gitignore` is an error, and the `.gitignore` is created with
/// `O_EXCL | O_NOFOLLOW`. Other errors are the filesystem's (read-only tree, a file in the
/// way).
pub fn ensure_state_dir(root: &Path) -> io::Result<PathBuf> {
    let dir = root.join(STATE_DIR);
    if existing_state_dir(root)?.is_none() {
        // Not `create_dir_all`: the root exists, and only the last component is ours to make.
        // Mode 0755 whatever the umask allows: a folder others may write to is never adopted.
        use std::os::unix::fs::DirBuilderExt;
        match std::fs::DirBuilder::new().mode(0o755).create(&dir) {
            Ok(()) => {}
            // Several processes may race here; the winner's folder is checked below.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        if existing_state_dir(root)?.is_none() {
            return Err(io::Error::other(format!("{} vanished", dir.display())));
        }
    }
    let ignore = dir.join(".gitignore");
    refuse_symlink(&ignore)?;
    if std::fs::symlink_metadata(&ignore).is_err() {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o644)
            .open(&ignore)
        {
            Ok(mut f) => f.write_all(b"*\n")?,
            // Another process made it first (or a symlink appeared: checked next time).
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Ok(dir)
}

/// Creates the folder `name` in the state folder `state_dir` if needed (mode `mode`) and
/// returns its path; refuses one that is a symlink or not a folder, so nothing is ever
/// created where a committed symlink points (`locks/`, `notes/`, the journal).
pub fn ensure_state_subdir(state_dir: &Path, name: &str, mode: u32) -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = state_dir.join(name);
    refuse_symlink(&dir)?;
    match std::fs::DirBuilder::new().mode(mode).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = std::fs::symlink_metadata(&dir)?;
    if meta.file_type().is_symlink() {
        return refuse_symlink(&dir).map(|()| dir);
    }
    if !meta.is_dir() {
        return Err(io::Error::other(format!(
            "{} is not a folder; remove it (agtool makes the folder it needs)",
            dir.display()
        )));
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_agent_state_then_git_then_cwd() {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        let deep = base.join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        let found = |explicit: Option<&Path>| discover(&deep, explicit).unwrap().root;
        assert_eq!(found(None), deep);
        std::fs::create_dir(base.join("a/.git")).unwrap();
        assert_eq!(found(None), base.join("a"));
        std::fs::create_dir(base.join("a/b/.agent-state")).unwrap();
        assert_eq!(found(None), base.join("a/b"));
        assert_eq!(found(Some(Path::new("../.."))), base.join("a"));
        assert!(discover(&deep, Some(Path::new("missing"))).is_err());
    }

    #[test]
    fn nothing_is_created_through_a_symlink() {
        let t = tempfile::tempdir().unwrap();
        let outside = t.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let root = t.path().join("root");
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink(&outside, root.join(STATE_DIR)).unwrap();
        let err = ensure_state_dir(&root).unwrap_err().to_string();
        assert!(err.contains("is a symlink"), "{err}");
        std::fs::remove_file(root.join(STATE_DIR)).unwrap();
        std::fs::create_dir(root.join(STATE_DIR)).unwrap();
        std::os::unix::fs::symlink(outside.join("gi"), root.join(STATE_DIR).join(".gitignore"))
            .unwrap();
        assert!(ensure_state_dir(&root).is_err());
        std::os::unix::fs::symlink(&outside, root.join(STATE_DIR).join("locks")).unwrap();
        assert!(ensure_state_subdir(&root.join(STATE_DIR), "locks", 0o755).is_err());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }

    #[test]
    fn state_dir_gets_gitignore() {
        let t = tempfile::tempdir().unwrap();
        let dir = ensure_state_dir(t.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(".gitignore")).unwrap(),
            "*\n"
        );
    }
}
