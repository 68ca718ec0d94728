//! The skill folders a host gives (spec 06, "skill"): `--skills-dir`, `AGTOOL_SKILLS`,
//! config `skills.dirs`. They belong to the workspace's context because the read tools may read
//! them (they are added to the read roots); reading the skills in them is [`crate::skills`].

use std::path::{Path, PathBuf};

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
    /// target of each skill subdirectory that is a symlink (so the files beside its SKILL.md
    /// are readable too).
    pub fn read_roots(dirs: &[SkillDir]) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for d in dirs {
            out.push(d.path.clone());
            let Ok(entries) = std::fs::read_dir(&d.path) else {
                continue;
            };
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_symlink())
                    && let Ok(target) = std::fs::canonicalize(e.path())
                    && target.is_dir()
                {
                    out.push(target);
                }
            }
        }
        out
    }
}
