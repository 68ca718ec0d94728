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

/// Creates `<root>/.agent-state/` if needed, with a `.gitignore` holding `*` so it is never
/// committed, and returns its path. Errors are the filesystem's (read-only tree, a file in
/// the way).
pub fn ensure_state_dir(root: &Path) -> io::Result<PathBuf> {
    let dir = root.join(STATE_DIR);
    if !dir.is_dir() {
        std::fs::create_dir_all(&dir)?;
    }
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        // Several processes may race here; each writes the same content.
        std::fs::write(&ignore, "*\n")?;
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
    fn state_dir_gets_gitignore() {
        let t = tempfile::tempdir().unwrap();
        let dir = ensure_state_dir(t.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(".gitignore")).unwrap(),
            "*\n"
        );
    }
}
