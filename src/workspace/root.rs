//! Workspace root discovery and the `.agent-state/` folder (spec 00, "Workspace root and state").

use std::io;
use std::path::{Path, PathBuf};

/// Name of the per-workspace state folder.
pub const STATE_DIR: &str = ".agent-state";

/// Finds the workspace root: `explicit` (from `--root` or `AGTOOL_ROOT`) when given, else the
/// nearest ancestor of `cwd` holding `.agent-state/`, else the nearest holding `.git`, else
/// `cwd`. The result is canonical (symlinks resolved). Errors when `explicit` does not exist or
/// is not a directory.
pub fn discover(cwd: &Path, explicit: Option<&Path>) -> io::Result<PathBuf> {
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
        return Ok(real);
    }
    let real_cwd = std::fs::canonicalize(cwd)?;
    for marker in [STATE_DIR, ".git"] {
        if let Some(found) = real_cwd.ancestors().find(|a| a.join(marker).exists()) {
            return Ok(found.to_path_buf());
        }
    }
    Ok(real_cwd)
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
        match std::fs::create_dir(&dir) {
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
        assert_eq!(discover(&deep, None).unwrap(), deep);
        std::fs::create_dir(base.join("a/.git")).unwrap();
        assert_eq!(discover(&deep, None).unwrap(), base.join("a"));
        std::fs::create_dir(base.join("a/b/.agent-state")).unwrap();
        assert_eq!(discover(&deep, None).unwrap(), base.join("a/b"));
        assert_eq!(
            discover(&deep, Some(Path::new("../.."))).unwrap(),
            base.join("a")
        );
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
