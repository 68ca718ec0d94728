//! The skill folders a host gives (spec 06, "skill"): `--skills-dir`, `AGTOOL_SKILLS`,
//! config `skills.dirs`. The workspace's context holds them (`Ctx::skill_dirs`) because the read
//! tools may read them (they are added to the read roots); reading the skills in them is
//! [`crate::skills`].
//! A symlinked skill folder widens the read roots only under the rule of [`linked_skill`], and
//! a SKILL.md symlink leading out of its folder is never used ([`skill_file`]).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::workspace::config::Config;

/// One skill folder given by the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillDir {
    /// Absolute path (symlinks not resolved).
    pub path: PathBuf,
    /// Where it was given: `--skills-dir`, `AGTOOL_SKILLS` or `config skills.dirs`.
    pub origin: &'static str,
}

impl SkillDir {
    /// The skill folders from the first source that gives any: `flags` (`--skills-dir`,
    /// relative to `cwd`), else `AGTOOL_SKILLS` (colon-separated, relative to `cwd`; empty
    /// entries skipped), else config `skills.dirs` (relative to the workspace `root`).
    pub fn from_sources(
        flags: &[PathBuf],
        config: &Config,
        cwd: &Path,
        root: &Path,
    ) -> Vec<SkillDir> {
        let make = |paths: Vec<PathBuf>, base: &Path, origin: &'static str| {
            paths
                .into_iter()
                .map(|p| SkillDir {
                    path: crate::workspace::policy::fold(&base.join(p)),
                    origin,
                })
                .collect()
        };
        if !flags.is_empty() {
            return make(flags.to_vec(), cwd, "--skills-dir");
        }
        if let Some(env) = std::env::var_os("AGTOOL_SKILLS") {
            let env = env.to_string_lossy().into_owned();
            let parts: Vec<PathBuf> = env
                .split(':')
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .collect();
            if !parts.is_empty() {
                return make(parts, cwd, "AGTOOL_SKILLS");
            }
        }
        match config.skills.as_ref().and_then(|s| s.dirs.clone()) {
            Some(dirs) => make(dirs, root, "config skills.dirs"),
            None => Vec::new(),
        }
    }

    /// The folders the read tools may read because of `dirs` (spec 06): each folder, plus the
    /// resolved target of each symlinked skill folder that [`linked_skill`] accepts (one that
    /// holds its own SKILL.md and does not reach `/`, the home folder or a denied name), so the
    /// files beside its SKILL.md are readable too. Symlinks that are refused or hold no
    /// SKILL.md add nothing. `denied` tells whether a name is a deny_read name.
    pub fn read_roots(dirs: &[SkillDir], denied: &dyn Fn(&OsStr) -> bool) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for d in dirs {
            // A skills folder that resolves somewhere unsafe (a `skills -> /` link shipped
            // with a repository) adds nothing; the catalogue lists it as skipped.
            match std::fs::canonicalize(&d.path) {
                Ok(real) if unsafe_folder(&real, denied).is_none() => out.push(d.path.clone()),
                _ => continue,
            }
            let Ok(entries) = std::fs::read_dir(&d.path) else {
                continue;
            };
            for e in entries.flatten() {
                if !e.file_name().to_string_lossy().starts_with('.')
                    && e.file_type().is_ok_and(|t| t.is_symlink())
                    && let Ok(Some(target)) = linked_skill(&e.path(), denied)
                {
                    out.push(target);
                }
            }
        }
        out
    }
}

/// The rule for a skill folder that is a symlink (spec 06; it is a read root when accepted,
/// so it must not widen reads): `Ok(Some(target))` (resolved) when its target is a folder
/// holding a usable [`skill_file`]; `Ok(None)` when it is no skill folder (dangling, not a
/// folder, no SKILL.md or one that leads out of the folder: ignored as any folder without a
/// SKILL.md); `Err(reason)` when its target is `/`, the home folder or a folder holding it, or
/// has a deny_read name (`denied`) anywhere in its resolved path: such a link is refused
/// whatever it holds, and the catalogue lists it as skipped.
pub fn linked_skill(
    link: &Path,
    denied: &dyn Fn(&OsStr) -> bool,
) -> Result<Option<PathBuf>, String> {
    let Ok(target) = std::fs::canonicalize(link) else {
        return Ok(None);
    };
    if !target.is_dir() {
        return Ok(None);
    }
    if let Some(why) = unsafe_folder(&target, denied) {
        return Err(format!(
            "it is a symlink to {}, {why}; a linked skill folder must be the skill's own \
             folder, this user's",
            target.display()
        ));
    }
    Ok(match skill_file(&target) {
        Some(Ok(file)) => match writable_by_others(&file) {
            None => Some(target),
            Some(why) => {
                return Err(format!(
                    "it is a symlink to {}, whose {} is a file {why}; a linked skill must be \
                     this user's",
                    target.display(),
                    file.file_name().unwrap_or_default().to_string_lossy()
                ));
            }
        },
        _ => None,
    })
}

/// Why the resolved folder `target` must never become a read root (spec 06, skills), or
/// `None`: it is `/`, the home folder or a folder holding it, it has a deny_read name
/// (`denied`) in its path, or others may write to it ([`writable_by_others`]). Applied to
/// every skills folder and every symlinked skill folder.
pub fn unsafe_folder(target: &Path, denied: &dyn Fn(&OsStr) -> bool) -> Option<String> {
    let home = home_dir().and_then(|h| std::fs::canonicalize(h).ok());
    if target == Path::new("/") || home.as_deref().is_some_and(|h| h.starts_with(target)) {
        return Some("the home folder or a folder holding it".to_owned());
    }
    if let Some(name) = target.components().find_map(|c| match c {
        Component::Normal(n) if denied(n) => Some(n),
        _ => None,
    }) {
        return Some(format!(
            "and {} is a name the read tools never read (deny_read)",
            name.to_string_lossy()
        ));
    }
    writable_by_others(target).map(|why| format!("a folder {why}"))
}

/// Why others could have put `path` there or changed it: owned by a user other than this one
/// or root, writable by everyone, or sticky (a shared folder such as `/tmp`). `None` when it
/// is this user's (or root's) alone.
fn writable_by_others(path: &Path) -> Option<&'static str> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return Some("that cannot be examined");
    };
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me && meta.uid() != 0 {
        Some("owned by another user")
    } else if meta.mode() & 0o1000 != 0 {
        Some("shared by all users (sticky)")
    } else if meta.mode() & 0o002 != 0 {
        Some("everyone may write to")
    } else {
        None
    }
}

/// This user's home folder: `$HOME`, else the password database's entry (so that unsetting
/// `HOME` does not lift the rule that a skill link never reaches the home folder).
fn home_dir() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    // SAFETY: getpwuid returns a pointer into static storage or null; the fields are read
    // at once, before any other call could reuse that storage (agtool reads it on one thread).
    unsafe {
        let pw = libc::getpwuid(libc::geteuid());
        if pw.is_null() || (*pw).pw_dir.is_null() {
            return None;
        }
        let dir = std::ffi::CStr::from_ptr((*pw).pw_dir);
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes())))
    }
}

/// The SKILL.md of the skill folder `dir` (`SKILL.md`, else `skill.md`), or `None` when it
/// has neither. `Some(Err((file, reason)))` when it is a symlink whose target is not inside
/// the folder (resolved): such a file is skipped, never read, since it could show any file.
pub fn skill_file(dir: &Path) -> Option<Result<PathBuf, (PathBuf, String)>> {
    let file = ["SKILL.md", "skill.md"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| std::fs::symlink_metadata(p).is_ok())?;
    if !std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink()) {
        return Some(Ok(file));
    }
    let inside = match (std::fs::canonicalize(&file), std::fs::canonicalize(dir)) {
        (Ok(target), Ok(dir)) => target.starts_with(&dir) && target != dir,
        _ => false,
    };
    Some(if inside {
        Ok(file)
    } else {
        Err((
            file,
            "it is a symlink leading out of its skill folder; a SKILL.md must be a file in \
             the skill's folder"
                .to_owned(),
        ))
    })
}
