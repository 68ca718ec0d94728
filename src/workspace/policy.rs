//! Path policy: which paths may be read and written (spec 01, "Path policy").
//!
//! Every path is checked twice before anything touches it: the literal path (made absolute
//! against the current directory, `.` and `..` folded lexically) and the same path with every
//! symlink resolved (for a path that does not exist yet: its nearest existing ancestor resolved,
//! plus the remaining components). Both must lie inside an allowed root, compared by whole
//! components, so `/srv/app` never contains `/srv/app-evil`.
//!
//! Resolution follows the kernel: components are taken left to right, a symlink is replaced by
//! its target before anything after it, and `..` leaves what the path has reached so far, so
//! `link/../x` is `x` beside the link's *target* (issue 12, item 8), not beside the link.
//!
//! The policy only decides which path may be touched. The file layer
//! ([`crate::fileio::beneath`], [`crate::fileio::fs`]) then reaches the resolved path from
//! a handle on the allowed root that holds it ([`CheckedPath::base`]) without following any
//! symlink, so a folder swapped for a symlink after this check makes the call fail instead of
//! leading outside.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};

use crate::text::path_escape;

/// Names that are never written, moved into or deleted (spec 01).
pub const BUILTIN_PROTECTED: [&str; 5] = [".git", ".agents", ".codex", ".aws", ".agent-state"];
/// Names that are never read unless configuration says otherwise (spec 01).
pub const DEFAULT_DENY_READ: [&str; 3] = [".aws", ".ssh", ".gnupg"];
/// Symlink hops allowed while resolving one path (as the kernel's limit).
const MAX_SYMLINK_HOPS: usize = 40;

/// What the caller wants to do with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read, list, search.
    Read,
    /// Create, overwrite, edit, delete, move into.
    Write,
}

/// A path that passed the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedPath {
    /// The path as the caller spelled it (for headers and messages).
    pub spelled: String,
    /// Absolute, `.`/`..` folded, symlinks not resolved.
    pub literal: PathBuf,
    /// Absolute with every symlink resolved (nearest existing ancestor for new paths). This is
    /// the path the file layer touches and the freshness table keys on.
    pub real: PathBuf,
    /// The allowed root (resolved) that holds `real` for the access checked: the file layer
    /// reaches `real` from a handle on it.
    pub base: PathBuf,
    /// The entry the spelled path itself names: its folder resolved, its last name kept, so a
    /// symlink at the end is the link, not its target (what `lstat` sees). Equal to `real`
    /// unless the path ends in a symlink.
    pub entry: PathBuf,
    /// The allowed root holding `entry` for the access checked (`None`: the entry itself lies
    /// outside, though what it points to does not).
    pub entry_base: Option<PathBuf>,
}

/// Why a path was refused. `Display` is the model-facing sentence without `Error: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// Empty path argument (an argument error, exit 2).
    #[error("path is empty")]
    Empty,
    /// A NUL byte in the path (an argument error, exit 2).
    #[error("path {0:?} contains a NUL byte")]
    Nul(String),
    /// Outside every allowed root.
    #[error("{path} is outside the workspace ({root})")]
    Outside {
        /// The path as the caller spelled it.
        path: String,
        /// The workspace root, resolved.
        root: String,
    },
    /// Inside the workspace as spelled, but a symlink on the way leads out (issue 18 §5):
    /// `link_out.txt is a symlink to /x/secret.txt, outside the workspace (/w)`, or for a
    /// link on the way `out/x.txt is under out, a symlink to /x, outside the workspace (/w)`.
    #[error(
        "{path} {}a symlink to {target}, outside the workspace ({root})",
        match link { Some(link) => format!("is under {link}, "), None => "is ".to_string() }
    )]
    LinkOut {
        /// The path as the caller spelled it.
        path: String,
        /// The symlink on the way, relative to its root, when it is not the path itself.
        link: Option<String>,
        /// Where that symlink leads (resolved, or its text when it leads nowhere).
        target: String,
        /// The workspace root, resolved.
        root: String,
    },
    /// A protected component on a write.
    #[error(
        "{}",
        refusal(path, name, "protected", "never writes, moves into or deletes")
    )]
    Protected {
        /// The path as the caller spelled it.
        path: String,
        /// The offending path component.
        name: String,
    },
    /// A deny_read component on a read.
    #[error("{}", refusal(path, name, "denied for reading", "does not read"))]
    DenyRead {
        /// The path as the caller spelled it.
        path: String,
        /// The offending path component.
        name: String,
    },
    /// The path ends in `/` but names something that is not a folder (as `ENOTDIR`).
    #[error("{path} ends in / but is not a folder; drop the trailing slash")]
    NotADirectory {
        /// The path as the caller spelled it.
        path: String,
    },
    /// A symlink loop (or a chain longer than 40 hops).
    #[error("{path} cannot be resolved: too many levels of symbolic links")]
    Loop {
        /// The path as the caller spelled it.
        path: String,
    },
}

/// `<path> is inside <name>, which agtool <does>`, or, when the path names that entry itself
/// (`.git`, `./.git/`), `<path> is <what>: agtool <does> <name>` (".git is inside .git" said
/// nothing).
fn refusal(path: &str, name: &str, what: &str, does: &str) -> String {
    let last = Path::new(path).file_name().map(|n| n.as_encoded_bytes());
    if last.is_some_and(|l| l.eq_ignore_ascii_case(name.as_bytes())) {
        format!("{path} is {what}: agtool {does} {name}")
    } else {
        format!("{path} is inside {name}, which agtool {does}")
    }
}

/// A policy refusal as a tool error: argument errors (empty path, NUL byte) are usage errors,
/// the rest refusals (spec 01, "Path policy").
impl From<PolicyError> for crate::error::ToolError {
    fn from(e: PolicyError) -> crate::error::ToolError {
        if e.is_usage() {
            crate::error::ToolError::usage(e.to_string())
        } else {
            crate::error::ToolError::refused(e.to_string())
        }
    }
}

impl PolicyError {
    /// Whether this is an argument error (exit 2) rather than a refusal (exit 1).
    pub fn is_usage(&self) -> bool {
        matches!(self, PolicyError::Empty | PolicyError::Nul(_))
    }
}

/// A symlink loop (or a chain longer than 40 hops) met while resolving a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymlinkLoop;

/// An allowed root, held both as configured (folded) and resolved.
#[derive(Debug, Clone)]
struct Root {
    literal: PathBuf,
    real: PathBuf,
}

impl Root {
    fn new(path: PathBuf) -> Root {
        let literal = fold(&path);
        let real = resolve(&literal).unwrap_or_else(|_| literal.clone());
        Root { literal, real }
    }
}

/// The policy for one workspace: the root, extra read and write roots, protected and
/// deny-read names.
#[derive(Debug, Clone)]
pub struct PathPolicy {
    root: Root,
    read_roots: Vec<Root>,
    write_roots: Vec<Root>,
    protected: Vec<OsString>,
    deny_read: Vec<OsString>,
}

impl PathPolicy {
    /// A policy rooted at `root` (absolute). `read_roots` / `write_roots` that are relative are
    /// taken relative to `root`. `protected_extra` adds to the built-in protected names;
    /// `deny_read` replaces the default deny-read names when given.
    pub fn new(
        root: &Path,
        read_roots: &[PathBuf],
        write_roots: &[PathBuf],
        protected_extra: &[String],
        deny_read: Option<&[String]>,
    ) -> PathPolicy {
        let make = |list: &[PathBuf]| list.iter().map(|p| Root::new(root.join(p))).collect();
        let mut protected: Vec<OsString> = BUILTIN_PROTECTED.iter().map(OsString::from).collect();
        protected.extend(protected_extra.iter().map(OsString::from));
        let deny_read = match deny_read {
            Some(list) => list.iter().map(OsString::from).collect(),
            None => DEFAULT_DENY_READ.iter().map(OsString::from).collect(),
        };
        PathPolicy {
            root: Root::new(root.to_path_buf()),
            read_roots: make(read_roots),
            write_roots: make(write_roots),
            protected,
            deny_read,
        }
    }

    /// Adds read roots (absolute, or relative to the workspace root) after the policy is made
    /// (the skill folders, whose symlinks are checked against this policy's deny_read names).
    pub fn add_read_roots(&mut self, extra: &[PathBuf]) {
        let root = self.root.literal.clone();
        self.read_roots
            .extend(extra.iter().map(|p| Root::new(root.join(p))));
    }

    /// The workspace root, resolved.
    pub fn root(&self) -> &Path {
        &self.root.real
    }

    /// Checks `spelled` (relative paths resolve against `cwd`) for `access`. Errors: see
    /// [`PolicyError`].
    pub fn check(
        &self,
        cwd: &Path,
        spelled: &str,
        access: Access,
    ) -> Result<CheckedPath, PolicyError> {
        if spelled.is_empty() {
            return Err(PolicyError::Empty);
        }
        // Printed names escape bytes that are not UTF-8 (`caf\xe9.txt`): decoded here, the one
        // place path arguments enter (crate::text::path_escape).
        let named = path_escape::spelled_path(cwd, spelled);
        if spelled.contains('\0') || named.as_os_str().as_encoded_bytes().contains(&0) {
            return Err(PolicyError::Nul(spelled.to_owned()));
        }
        let absolute = named;
        let literal = fold(&absolute);
        let looped = |SymlinkLoop| PolicyError::Loop {
            path: spelled.to_owned(),
        };
        // As the kernel: symlinks first, `..` after them (never folded beforehand).
        let real = resolve(&absolute).map_err(looped)?;
        if spelled.ends_with('/') && real.exists() && !real.is_dir() {
            return Err(PolicyError::NotADirectory {
                path: spelled.to_owned(),
            });
        }
        // The entry itself: a trailing slash follows a final symlink, as lstat does.
        let entry = match (absolute.parent(), absolute.file_name()) {
            (Some(parent), Some(name)) if !spelled.ends_with('/') => {
                resolve(parent).map_err(looped)?.join(name)
            }
            _ => real.clone(),
        };
        let mut checked = self.check_resolved(spelled, literal, real, access)?;
        if entry != checked.real {
            checked.entry_base = self.base_of(&entry, access).map(Path::to_path_buf);
            checked.entry = entry;
        }
        Ok(checked)
    }

    /// As [`PathPolicy::check`], but for the entry the path names itself: a final symlink is
    /// not followed, so `real` is the link (what `lstat`, `unlink` or `rename` act on), and
    /// the link's own location must pass. A trailing slash is ignored for the entry (it still
    /// refuses a path that is not a folder). Used where a symlink is acted on as itself
    /// (delete-path, moves).
    pub fn check_entry(
        &self,
        cwd: &Path,
        spelled: &str,
        access: Access,
    ) -> Result<CheckedPath, PolicyError> {
        if spelled.is_empty() {
            return Err(PolicyError::Empty);
        }
        let absolute = path_escape::spelled_path(cwd, spelled);
        if spelled.contains('\0') || absolute.as_os_str().as_encoded_bytes().contains(&0) {
            return Err(PolicyError::Nul(spelled.to_owned()));
        }
        let looped = |SymlinkLoop| PolicyError::Loop {
            path: spelled.to_owned(),
        };
        if spelled.ends_with('/') {
            let real = resolve(&absolute).map_err(looped)?;
            if real.exists() && !real.is_dir() {
                return Err(PolicyError::NotADirectory {
                    path: spelled.to_owned(),
                });
            }
        }
        let entry = match (absolute.parent(), absolute.file_name()) {
            (Some(parent), Some(name)) => resolve(parent).map_err(looped)?.join(name),
            _ => resolve(&absolute).map_err(looped)?,
        };
        self.check_resolved(spelled, fold(&absolute), entry, access)
    }

    /// The allowed root (resolved) holding `real` for `access`, if any.
    fn base_of(&self, real: &Path, access: Access) -> Option<&Path> {
        self.roots_for(access)
            .into_iter()
            .find(|r| real.starts_with(&r.real))
            .map(|r| r.real.as_path())
    }

    fn roots_for(&self, access: Access) -> Vec<&Root> {
        match access {
            Access::Read => std::iter::once(&self.root)
                .chain(&self.read_roots)
                .chain(&self.write_roots)
                .collect(),
            Access::Write => std::iter::once(&self.root)
                .chain(&self.write_roots)
                .collect(),
        }
    }

    /// The resolved paths of every root writes may go to: the workspace root and
    /// `write_roots` (recovery acts only inside these).
    pub fn write_bases(&self) -> Vec<PathBuf> {
        self.roots_for(Access::Write)
            .into_iter()
            .map(|r| r.real.clone())
            .collect()
    }

    /// The resolved paths of the extra read roots (`read_roots` and skill folders), for the
    /// exec sandbox's scan for `deny_read` names (spec 08).
    pub fn read_bases(&self) -> Vec<PathBuf> {
        self.read_roots.iter().map(|r| r.real.clone()).collect()
    }

    /// The `deny_read` names in force (spec 08: the exec sandbox hides them too).
    pub fn deny_read_names(&self) -> Vec<String> {
        self.deny_read
            .iter()
            .map(|n| n.to_string_lossy().into_owned())
            .collect()
    }

    /// The protected names in force, built-in and config (spec 08: read-only in commands).
    pub fn protected_names(&self) -> Vec<String> {
        self.protected
            .iter()
            .map(|n| n.to_string_lossy().into_owned())
            .collect()
    }

    /// The policy check for an already folded and resolved pair (used by walks, which resolve
    /// their own entries).
    pub fn check_resolved(
        &self,
        spelled: &str,
        literal: PathBuf,
        real: PathBuf,
        access: Access,
    ) -> Result<CheckedPath, PolicyError> {
        self.check_pair(spelled, literal, real, access, false)
    }

    /// [`PathPolicy::check_resolved`] for a folder agtool keeps its own files in (the notes
    /// store, spec 06): the same roots and names, except that the state folder
    /// (`.agent-state`) may be written, since the default store lives there.
    pub fn check_state_store(
        &self,
        spelled: &str,
        literal: PathBuf,
        real: PathBuf,
        access: Access,
    ) -> Result<CheckedPath, PolicyError> {
        self.check_pair(spelled, literal, real, access, true)
    }

    fn check_pair(
        &self,
        spelled: &str,
        literal: PathBuf,
        real: PathBuf,
        access: Access,
        state_writable: bool,
    ) -> Result<CheckedPath, PolicyError> {
        let roots = self.roots_for(access);
        let outside = || PolicyError::Outside {
            path: spelled.to_owned(),
            root: self.root.real.display().to_string(),
        };
        let (lit_base, lit_rel) = roots
            .iter()
            .find_map(|r| {
                let rel = literal
                    .strip_prefix(&r.literal)
                    .map(|rel| (&r.literal, rel));
                rel.or_else(|_| literal.strip_prefix(&r.real).map(|rel| (&r.real, rel)))
                    .ok()
            })
            .ok_or_else(outside)?;
        let (base, real_rel) = roots
            .iter()
            .find_map(|r| Some((&r.real, real.strip_prefix(&r.real).ok()?)))
            .ok_or_else(|| {
                self.link_out(spelled, lit_base, lit_rel, &roots)
                    .unwrap_or_else(outside)
            })?;
        let base = base.clone();
        let names = match access {
            Access::Read => &self.deny_read,
            Access::Write => &self.protected,
        };
        for rel in [lit_rel, real_rel] {
            if let Some(name) = rel
                .components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n),
                    _ => None,
                })
                .find(|n| {
                    names.iter().any(|p| same_name(p, n))
                        && !(state_writable && same_name(OsStr::new(super::root::STATE_DIR), n))
                })
            {
                let name = name.to_string_lossy().into_owned();
                let path = spelled.to_owned();
                return Err(match access {
                    Access::Read => PolicyError::DenyRead { path, name },
                    Access::Write => PolicyError::Protected { path, name },
                });
            }
        }
        Ok(CheckedPath {
            spelled: spelled.to_owned(),
            literal,
            entry: real.clone(),
            entry_base: Some(base.clone()),
            real,
            base,
        })
    }

    /// The refusal for a path that is inside a root as spelled (`base` joined with `rel`) but
    /// resolves outside every root: names the first symlink on the way that leads out. Only
    /// reached on that error path; `None` when no such link is found (it changed meanwhile).
    fn link_out(
        &self,
        spelled: &str,
        base: &Path,
        rel: &Path,
        roots: &[&Root],
    ) -> Option<PolicyError> {
        let mut at = base.to_path_buf();
        let mut shown = PathBuf::new();
        let count = rel.components().count();
        for (i, part) in rel.components().enumerate() {
            at.push(part);
            shown.push(part);
            let is_link = std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink());
            if !is_link {
                continue;
            }
            let target = std::fs::canonicalize(&at).ok().or_else(|| {
                let text = std::fs::read_link(&at).ok()?;
                Some(at.parent().map_or(text.clone(), |dir| dir.join(&text)))
            })?;
            if roots.iter().any(|r| target.starts_with(&r.real)) {
                continue;
            }
            return Some(PolicyError::LinkOut {
                path: spelled.to_owned(),
                link: (i + 1 < count).then(|| shown.display().to_string()),
                target: target.display().to_string(),
                root: self.root.real.display().to_string(),
            });
        }
        None
    }

    /// Whether a name is protected (never written), in any letter case.
    pub fn is_protected_name(&self, name: &std::ffi::OsStr) -> bool {
        self.protected.iter().any(|p| same_name(p, name))
    }

    /// The first protected name in `checked` below its root (its resolved path, then its
    /// spelled one), if any: what a copy's source, checked for reading only, must not be
    /// under (spec 03: a copy copies nothing under a protected name).
    pub fn protected_in(&self, checked: &CheckedPath) -> Option<String> {
        let lit_rel = std::iter::once(&self.root)
            .chain(&self.read_roots)
            .chain(&self.write_roots)
            .find_map(|r| {
                checked
                    .literal
                    .strip_prefix(&r.literal)
                    .or_else(|_| checked.literal.strip_prefix(&r.real))
                    .ok()
            });
        let real_rel = checked.real.strip_prefix(&checked.base).ok();
        [real_rel, lit_rel]
            .into_iter()
            .flatten()
            .flat_map(|rel| rel.components())
            .find_map(|c| match c {
                Component::Normal(n) if self.is_protected_name(n) => {
                    Some(n.to_string_lossy().into_owned())
                }
                _ => None,
            })
    }

    /// Whether a name is denied for reading, in any letter case.
    pub fn is_denied_name(&self, name: &std::ffi::OsStr) -> bool {
        self.deny_read.iter().any(|p| same_name(p, name))
    }
}

/// Whether two path components name the same protected or denied entry. ASCII case is
/// ignored: on a case-insensitive filesystem `.GIT` is `.git`, and refusing `.GIT` on Linux
/// costs nothing.
fn same_name(a: &std::ffi::OsStr, b: &std::ffi::OsStr) -> bool {
    a.as_encoded_bytes()
        .eq_ignore_ascii_case(b.as_encoded_bytes())
}

/// Makes `path` absolute-folded: removes `.` and applies `..` lexically (never above `/`).
/// `path` must be absolute.
pub fn fold(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
        }
    }
    out
}

/// Resolves every symlink in the absolute `path`, component by component, as the kernel does:
/// a symlink is replaced by its target before the components after it, and a `..` leaves what
/// has been reached so far (so `link/..` is the parent of the link's target). When a component
/// does not exist, the rest is appended lexically (nearest existing ancestor rule). A dangling
/// symlink resolves to where it points. Errors on a loop.
pub fn resolve(path: &Path) -> Result<PathBuf, SymlinkLoop> {
    let mut pending: VecDeque<OsString> = VecDeque::new();
    push_components(&mut pending, path, false);
    let mut out = PathBuf::from("/");
    let mut hops = 0;
    let mut exists = true;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            out.pop();
            continue;
        }
        let candidate = out.join(&name);
        if !exists {
            out = candidate;
            continue;
        }
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(SymlinkLoop);
                }
                let target = std::fs::read_link(&candidate).map_err(|_| SymlinkLoop)?;
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                push_components(&mut pending, &target, true);
            }
            Ok(_) => out = candidate,
            Err(_) => {
                exists = false;
                out = candidate;
            }
        }
    }
    Ok(out)
}

/// Pushes the normal and `..` components of `path` onto `pending` (at the front when `front`).
fn push_components(pending: &mut VecDeque<OsString>, path: &Path, front: bool) {
    let parts: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    if front {
        for p in parts.into_iter().rev() {
            pending.push_front(p);
        }
    } else {
        pending.extend(parts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    struct Fixture {
        _t: tempfile::TempDir,
        base: PathBuf,
        root: PathBuf,
        policy: PathPolicy,
    }

    fn fixture() -> Fixture {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        let root = base.join("app");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(base.join("app-evil")).unwrap();
        std::fs::write(base.join("app-evil/secret"), "s").unwrap();
        std::fs::write(root.join("src/a.rs"), "a").unwrap();
        let policy = PathPolicy::new(&root, &[], &[], &[], None);
        Fixture {
            _t: t,
            base,
            root,
            policy,
        }
    }

    #[test]
    fn inside_paths_pass() {
        let f = fixture();
        let c = f.policy.check(&f.root, "src/a.rs", Access::Read).unwrap();
        assert_eq!(c.real, f.root.join("src/a.rs"));
        let c = f
            .policy
            .check(&f.root.join("src"), "../src/./a.rs", Access::Write)
            .unwrap();
        assert_eq!(c.literal, f.root.join("src/a.rs"));
        // A new file in a new folder.
        let c = f
            .policy
            .check(&f.root, "new/dir/x.rs", Access::Write)
            .unwrap();
        assert_eq!(c.real, f.root.join("new/dir/x.rs"));
    }

    #[test]
    fn prefix_sibling_refused() {
        let f = fixture();
        let e = f
            .policy
            .check(&f.root, "../app-evil/secret", Access::Read)
            .unwrap_err();
        assert!(matches!(e, PolicyError::Outside { .. }), "{e:?}");
        let abs = f.base.join("app-evil/secret");
        assert!(
            f.policy
                .check(&f.root, abs.to_str().unwrap(), Access::Read)
                .is_err()
        );
    }

    #[test]
    fn symlinks_out_refused_file_dir_dangling_loop() {
        let f = fixture();
        symlink(f.base.join("app-evil/secret"), f.root.join("file-link")).unwrap();
        symlink(f.base.join("app-evil"), f.root.join("dir-link")).unwrap();
        symlink(f.base.join("app-evil/nothing"), f.root.join("dangling")).unwrap();
        symlink("loop-b", f.root.join("loop-a")).unwrap();
        symlink("loop-a", f.root.join("loop-b")).unwrap();
        for p in [
            "file-link",
            "dir-link/secret",
            "dangling",
            "dir-link/new.txt",
        ] {
            for access in [Access::Read, Access::Write] {
                // Through a link the refusal names the link and where it leads (issue 18 §5).
                let e = f.policy.check(&f.root, p, access).unwrap_err();
                assert!(
                    matches!(e, PolicyError::Outside { .. } | PolicyError::LinkOut { .. }),
                    "{p}: {e:?}"
                );
            }
        }
        let e = f.policy.check(&f.root, "loop-a", Access::Read).unwrap_err();
        assert!(matches!(e, PolicyError::Loop { .. }), "{e:?}");
    }

    #[test]
    fn dot_dot_after_a_symlink_leaves_its_target() {
        let f = fixture();
        std::fs::create_dir_all(f.root.join("src/deep")).unwrap();
        symlink("src/deep", f.root.join("link")).unwrap();
        let c = f
            .policy
            .check(&f.root, "link/../a.rs", Access::Write)
            .unwrap();
        assert_eq!(c.real, f.root.join("src/a.rs"), "the kernel's file");
        assert_eq!(c.base, f.root);
        // Out through a symlink, then back up: still outside.
        symlink(f.base.join("app-evil"), f.root.join("out")).unwrap();
        let e = f
            .policy
            .check(&f.root, "out/../app-evil/secret", Access::Read)
            .unwrap_err();
        assert!(
            matches!(e, PolicyError::Outside { .. } | PolicyError::LinkOut { .. }),
            "{e:?}"
        );
    }

    #[test]
    fn the_entry_of_a_final_symlink_is_the_link() {
        let f = fixture();
        symlink("src/a.rs", f.root.join("link.rs")).unwrap();
        symlink(f.base.join("app-evil/secret"), f.root.join("out-link")).unwrap();
        let c = f.policy.check(&f.root, "link.rs", Access::Write).unwrap();
        assert_eq!(c.entry, f.root.join("link.rs"));
        assert_eq!(c.entry_base.as_deref(), Some(f.root.as_path()));
        let c = f.policy.check(&f.root, "src/a.rs", Access::Write).unwrap();
        assert_eq!(c.entry, c.real);
    }

    #[test]
    fn symlink_inside_resolves_to_target() {
        let f = fixture();
        symlink("src/a.rs", f.root.join("link.rs")).unwrap();
        let c = f.policy.check(&f.root, "link.rs", Access::Write).unwrap();
        assert_eq!(c.real, f.root.join("src/a.rs"));
        assert_eq!(c.literal, f.root.join("link.rs"));
    }

    #[test]
    fn protected_and_denied_names() {
        let f = fixture();
        std::fs::create_dir_all(f.root.join(".git")).unwrap();
        let e = f
            .policy
            .check(&f.root, ".git/config", Access::Write)
            .unwrap_err();
        assert!(matches!(e, PolicyError::Protected { .. }));
        assert!(f.policy.check(&f.root, ".git/config", Access::Read).is_ok());
        let e = f
            .policy
            .check(&f.root, "x/.ssh/id", Access::Read)
            .unwrap_err();
        assert!(matches!(e, PolicyError::DenyRead { .. }));
        // Through a symlink into .git.
        symlink(".git", f.root.join("g")).unwrap();
        assert!(
            f.policy
                .check(&f.root, "g/hooks/pre-commit", Access::Write)
                .is_err()
        );
    }

    #[test]
    fn trailing_slash_on_a_file_is_refused() {
        let f = fixture();
        for access in [Access::Read, Access::Write] {
            let e = f.policy.check(&f.root, "src/a.rs/", access).unwrap_err();
            assert!(matches!(e, PolicyError::NotADirectory { .. }), "{e:?}");
        }
        assert!(f.policy.check(&f.root, "src/", Access::Read).is_ok());
        assert!(f.policy.check(&f.root, "new-dir/", Access::Write).is_ok());
    }

    #[test]
    fn protected_names_match_any_case() {
        let f = fixture();
        let e = f
            .policy
            .check(&f.root, ".GIT/config", Access::Write)
            .unwrap_err();
        assert!(matches!(e, PolicyError::Protected { .. }), "{e:?}");
        let e = f
            .policy
            .check(&f.root, "x/.SSH/id", Access::Read)
            .unwrap_err();
        assert!(matches!(e, PolicyError::DenyRead { .. }), "{e:?}");
    }

    #[test]
    fn argument_errors() {
        let f = fixture();
        assert!(
            f.policy
                .check(&f.root, "", Access::Read)
                .unwrap_err()
                .is_usage()
        );
        assert!(
            f.policy
                .check(&f.root, "a\0b", Access::Read)
                .unwrap_err()
                .is_usage()
        );
    }

    #[test]
    fn extra_roots() {
        let f = fixture();
        let p = PathPolicy::new(&f.root, &[f.base.join("app-evil")], &[], &[], None);
        assert!(p.check(&f.root, "../app-evil/secret", Access::Read).is_ok());
        assert!(
            p.check(&f.root, "../app-evil/secret", Access::Write)
                .is_err()
        );
    }
}
