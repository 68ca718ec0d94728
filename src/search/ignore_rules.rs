//! The ignore rules of a walk of our own (spec 02, "glob" → "Walk"): the `.ignore`,
//! `.gitignore` and `.git/info/exclude` files of each walked folder and of the folders above the
//! walked one, and the global gitignore, with the precedence the `ignore` crate's walker gives
//! them (the rules rg and fd follow), so that a walk through folder handles shows what that
//! walker would. The crate's matcher ([`Gitignore`]) decides a single file's lines; this module
//! decides which files apply and in what order.
//!
//! Precedence for one entry: the `.ignore` files first (the nearest folder whose file has a
//! matching line decides), then `.gitignore` files the same way, then `info/exclude` files, then
//! the global gitignore. In a repository (`require_git`) the gitignore kinds stop at the folder
//! holding `.git` (or `.jj`) and apply only when such a folder is on the way. Within one file,
//! the last matching line decides. A matching `!` line lets the entry through, a hidden one too.
//!
//! Reading: a walked folder's files are opened through its handle ([`Dir::open_target`]), the
//! ones above it by path, as the crate does; symlinks are followed in both. A file is read only
//! when it is a regular file of at most [`MAX_IGNORE_FILE_BYTES`]: a FIFO would block, a device
//! or a huge file would never end. A folder in its place, or a file that cannot be opened,
//! adds no rules.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{Error, Match};

use crate::fileio::beneath::{Dir, Kind};
use crate::search::git_global::excludes_file_path;
use crate::text::plural::count;

/// Most bytes an ignore file may hold to be read (whole, into memory).
pub const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;

/// Why an ignore file that leads (symlinks followed) to an entry of `kind` holding `len` bytes
/// must not be read: `is a fifo, not a file`, `is larger than the 1048576 bytes an ignore file
/// may hold` (its size is not told: it may be a file outside the workspace). None for a
/// regular file within [`MAX_IGNORE_FILE_BYTES`] and for a folder (which adds no rules).
pub fn ignore_file_problem(kind: Kind, len: u64) -> Option<String> {
    match kind {
        Kind::File if len > MAX_IGNORE_FILE_BYTES => Some(format!(
            "is larger than the {} an ignore file may hold",
            count(MAX_IGNORE_FILE_BYTES, "byte")
        )),
        Kind::File | Kind::Dir => None,
        other => Some(format!("is a {}, not a file", other.name())),
    }
}

/// Which of the names that matter here a folder's listing holds.
#[derive(Debug, Default, Clone, Copy)]
pub struct Present {
    /// `.ignore`.
    pub ignore: bool,
    /// `.gitignore`.
    pub gitignore: bool,
    /// `.git` (a folder, or a file naming the repository of a worktree or submodule).
    pub git: bool,
    /// `.jj` (a Jujutsu repository: counts as a repository root, as for the crate).
    pub jj: bool,
}

impl Present {
    /// Notes the entry `name` of the listing.
    pub fn note(&mut self, name: &OsStr) {
        match name.as_encoded_bytes() {
            b".ignore" => self.ignore = true,
            b".gitignore" => self.gitignore = true,
            b".git" => self.git = true,
            b".jj" => self.jj = true,
            _ => {}
        }
    }

    /// Whether the listing holds any of these names.
    pub fn any(self) -> bool {
        self.ignore || self.gitignore || self.git || self.jj
    }
}

/// Where a folder's ignore files are read from: its handle (a walked folder) or its path (a
/// folder above the walk).
#[derive(Clone, Copy)]
enum Place<'a> {
    Handle(&'a Dir),
    Path(&'a Path),
}

impl Place<'_> {
    fn folder(&self) -> &Path {
        match self {
            Place::Handle(d) => d.path(),
            Place::Path(p) => p,
        }
    }

    /// Kind and length of what `rel` leads to, symlinks followed.
    fn target(&self, rel: &Path) -> io::Result<(Kind, u64)> {
        match self {
            Place::Handle(d) => d.stat_target(rel).map(|st| (st.kind, st.len)),
            Place::Path(p) => {
                std::fs::metadata(p.join(rel)).map(|m| (Kind::from_mode(m.mode()), m.len()))
            }
        }
    }

    fn open(&self, rel: &Path) -> io::Result<File> {
        match self {
            Place::Handle(d) => d.open_target(rel),
            Place::Path(p) => std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
                .open(p.join(rel)),
        }
    }
}

/// The bytes of the ignore file `rel` under `at`. `Ok(None)`: none to read (missing, a folder,
/// cannot be opened). Error: why it must not be read ([`ignore_file_problem`]).
fn read_ignore_file(at: Place<'_>, rel: &Path) -> Result<Option<Vec<u8>>, String> {
    let Ok((kind, len)) = at.target(rel) else {
        return Ok(None);
    };
    if let Some(why) = ignore_file_problem(kind, len) {
        return Err(why);
    }
    if kind != Kind::File {
        return Ok(None);
    }
    let Ok(file) = at.open(rel) else {
        return Ok(None);
    };
    // Checked again on the handle: it may have been swapped since the look above.
    let Ok(meta) = file.metadata() else {
        return Ok(None);
    };
    let kind = Kind::from_mode(meta.mode());
    if let Some(why) = ignore_file_problem(kind, meta.len()) {
        return Err(why);
    }
    if kind != Kind::File {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    if file
        .take(MAX_IGNORE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return Ok(None);
    }
    if let Some(why) = ignore_file_problem(Kind::File, bytes.len() as u64) {
        return Err(why);
    }
    Ok(Some(bytes))
}

/// `err` tagged with the file and line it came from, as the crate tags it.
fn tagged(err: Error, path: &Path, line: u64) -> Error {
    Error::WithPath {
        path: path.to_path_buf(),
        err: Box::new(Error::WithLineNumber {
            line,
            err: Box::new(err),
        }),
    }
}

/// None, the one error, or all of them as a partial error (the crate's grouping).
fn one_error(mut errs: Vec<Error>) -> Option<Error> {
    match errs.len() {
        0 => None,
        1 => errs.pop(),
        _ => Some(Error::Partial(errs)),
    }
}

/// The single errors in `err`, partial errors taken apart (one line each in a result).
pub fn each_error(err: Error) -> Vec<Error> {
    match err {
        Error::Partial(errs) => errs.into_iter().flat_map(each_error).collect(),
        other => vec![other],
    }
}

/// Adds the lines of an ignore file (`bytes`, read from `path`) to `builder` as the crate reads
/// a file: lines end at `\n` (a `\r` before it dropped), a line that is not UTF-8 is left out
/// with an error, a byte order mark before the first line is dropped.
fn add_lines(builder: &mut GitignoreBuilder, bytes: &[u8], path: &Path) -> Option<Error> {
    let mut errs = Vec::new();
    let mut rest = bytes;
    let mut index = 0u64;
    while !rest.is_empty() {
        let (mut line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let l = &rest[..i];
                (l.strip_suffix(b"\r").unwrap_or(l), &rest[i + 1..])
            }
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        index += 1;
        if index == 1 {
            while let Some(l) = line.strip_prefix("\u{feff}".as_bytes()) {
                line = l;
            }
        }
        let Ok(line) = std::str::from_utf8(line) else {
            let e = io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            );
            errs.push(tagged(Error::Io(e), path, index));
            continue;
        };
        if let Err(e) = builder.add_line(Some(path.to_path_buf()), line) {
            errs.push(tagged(e, path, index));
        }
    }
    one_error(errs)
}

/// The matcher of the ignore file `rel` of the folder `at`, matching paths under `root`
/// (empty when there is no file), and the errors the crate would report for it (an unreadable
/// file is not one). Error: why the file must not be read.
fn matcher(at: Place<'_>, rel: &Path, root: &Path) -> Result<(Gitignore, Option<Error>), String> {
    let Some(bytes) = read_ignore_file(at, rel)? else {
        return Ok((Gitignore::empty(), None));
    };
    let path = at.folder().join(rel);
    let mut builder = GitignoreBuilder::new(root);
    let mut errs = Vec::new();
    if let Some(e) = add_lines(&mut builder, &bytes, &path)
        && !e.is_io()
    {
        errs.push(e);
    }
    let gi = match builder.build() {
        Ok(gi) => gi,
        Err(e) => {
            errs.push(e);
            Gitignore::empty()
        }
    };
    Ok((gi, one_error(errs)))
}

/// The global gitignore's rules (the file [`excludes_file_path`] names), matching paths under
/// `cwd` as the crate's do. Read like the walk's other ignore files: a regular file of at most
/// [`MAX_IGNORE_FILE_BYTES`], symlinks followed; lines it cannot hold are left out. A file that
/// is missing, unreadable or must not be read adds no rules and no message, as the crate says
/// nothing when the file is not a regular one.
fn global_rules(cwd: &Path) -> Gitignore {
    let Some(path) = excludes_file_path() else {
        return Gitignore::empty();
    };
    let path = cwd.join(path);
    // The path as given must lead to a regular file, as the crate checks: `file/` or `file/.`
    // do not, though splitting them below would drop the ending.
    if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
        return Gitignore::empty();
    }
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return Gitignore::empty();
    };
    match matcher(Place::Path(folder), Path::new(name), cwd) {
        Ok((rules, _)) => rules,
        Err(_) => Gitignore::empty(),
    }
}

/// An ignore file that must not be read: its path, its name relative to its folder when it is
/// there, and why ([`ignore_file_problem`]).
#[derive(Debug)]
pub struct Unreadable {
    /// The file's path (through the folder's path).
    pub path: PathBuf,
    /// Its name relative to the folder, as `.gitignore` or `.git/info/exclude`; None for the
    /// `info/exclude` of a repository elsewhere (a worktree's).
    pub name: Option<String>,
    /// Why, as `is a fifo, not a file`.
    pub why: String,
}

impl Unreadable {
    /// `its .gitignore is a fifo, not a file` (for the folder's own listing).
    pub fn its(&self) -> String {
        match &self.name {
            Some(name) => format!("its {name} {}", self.why),
            None => self.whole(),
        }
    }

    /// `/w/.gitignore is a fifo, not a file`.
    pub fn whole(&self) -> String {
        format!("{} {}", self.path.display(), self.why)
    }
}

/// The first line of the `.git` file of a worktree or submodule, `gitdir: <path>`, read as
/// the crate reads it: the path and the `commondir` file it names are taken as given (a
/// relative one from the current directory). The folder whose `info/exclude` applies, or
/// None.
fn common_git_dir(at: Place<'_>) -> Option<PathBuf> {
    let first_line = |bytes: &[u8]| -> Option<String> {
        let line = bytes.split(|&b| b == b'\n').next()?;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        String::from_utf8(line.to_vec()).ok()
    };
    let dot_git = read_ignore_file(at, Path::new(".git")).ok()??;
    let line = first_line(&dot_git)?;
    let git_dir = PathBuf::from(line.strip_prefix("gitdir: ")?);
    let common = read_ignore_file(Place::Path(&git_dir), Path::new("commondir")).ok()??;
    let common = first_line(&common)?;
    Some(if common.starts_with('.') {
        git_dir.join(common)
    } else {
        PathBuf::from(common)
    })
}

/// The rules one folder adds: its `.ignore`, `.gitignore` and `info/exclude` matchers, and
/// whether it is a repository root (holds `.git` or `.jj`, counted only in a repository walk).
#[derive(Debug)]
pub struct Level {
    ignore: Gitignore,
    git: Gitignore,
    exclude: Gitignore,
    has_git: bool,
}

impl Level {
    /// Reads the rules of the folder at `at`. `present`: what its listing holds, None to look
    /// every name up (folders above the walk). Error: why one of its files must not be read,
    /// as `its .gitignore is a fifo, not a file`.
    fn read(
        at: Place<'_>,
        present: Option<Present>,
        require_git: bool,
    ) -> Result<(Level, Option<Error>), Unreadable> {
        let has = |p: fn(&Present) -> bool| present.as_ref().is_none_or(p);
        let folder = at.folder();
        let git_kind = if has(|p| p.git) {
            at.target(Path::new(".git")).ok().map(|(k, _)| k)
        } else {
            None
        };
        let has_jj = require_git && has(|p| p.jj) && at.target(Path::new(".jj")).is_ok();
        let has_git = require_git && (git_kind.is_some() || has_jj);
        let mut errs = Vec::new();
        let mut one = |from: Place<'_>, name: &str, here: bool| -> Result<Gitignore, Unreadable> {
            let (gi, err) = matcher(from, Path::new(name), folder).map_err(|why| Unreadable {
                path: from.folder().join(name),
                name: here.then(|| name.to_owned()),
                why,
            })?;
            errs.extend(err);
            Ok(gi)
        };
        let ignore = match has(|p| p.ignore) {
            true => one(at, ".ignore", true)?,
            false => Gitignore::empty(),
        };
        let git = match has(|p| p.gitignore) {
            true => one(at, ".gitignore", true)?,
            false => Gitignore::empty(),
        };
        let exclude = match git_kind {
            // A worktree's or submodule's `.git` file names the repository elsewhere.
            Some(Kind::File) => match common_git_dir(at) {
                Some(dir) => one(Place::Path(&dir), "info/exclude", false)?,
                None => Gitignore::empty(),
            },
            Some(_) => one(at, ".git/info/exclude", true)?,
            None => Gitignore::empty(),
        };
        let level = Level {
            ignore,
            git,
            exclude,
            has_git,
        };
        Ok((level, one_error(errs)))
    }

    fn adds_nothing(&self) -> bool {
        !self.has_git && self.ignore.is_empty() && self.git.is_empty() && self.exclude.is_empty()
    }
}

/// The rules in force in one walked folder: those of the folders above the walked one, of
/// each walked folder from the walked one down to this one, and the global gitignore. A
/// folder's rules are its parent's plus its own ([`IgnoreRules::enter`]); clones are cheap and
/// share what they have in common, so a parallel walk hands each folder its own.
#[derive(Debug, Clone)]
pub struct IgnoreRules {
    above: Arc<Above>,
    /// The nearest walked folder that adds rules, linked to the next one up.
    walked: Option<Arc<Link>>,
    /// How many folders of `above.parents` and `walked` are repository roots.
    roots: usize,
}

/// What every folder of one walk shares.
#[derive(Debug)]
struct Above {
    require_git: bool,
    /// Folders above the walked one, nearest first.
    parents: Vec<Level>,
    global: Gitignore,
}

/// A walked folder's rules and those of the walked folder above it.
#[derive(Debug)]
struct Link {
    level: Level,
    up: Option<Arc<Link>>,
}

impl IgnoreRules {
    /// The rules for a walk of the folder `base` (absolute, resolved), before its own files
    /// are read ([`IgnoreRules::enter`]). `require_git`: the walk is in a repository (its
    /// gitignore kinds stop at the repository root). Returns the errors the crate would report
    /// for the files above the walk (lines it cannot parse). Error: why a file above it must
    /// not be read, as `/w/.gitignore is a fifo, not a file`.
    pub fn new(base: &Path, require_git: bool) -> Result<(IgnoreRules, Option<Error>), String> {
        let mut parents = Vec::new();
        let mut errs = Vec::new();
        // Outermost first, as the crate reads them; kept nearest first.
        let above: Vec<&Path> = base.ancestors().skip(1).collect();
        for folder in above.into_iter().rev() {
            let (level, err) =
                Level::read(Place::Path(folder), None, require_git).map_err(|u| u.whole())?;
            errs.extend(err);
            parents.push(level);
        }
        parents.reverse();
        let global = match std::env::current_dir() {
            Ok(cwd) => global_rules(&cwd),
            Err(_) => Gitignore::empty(),
        };
        let roots = parents.iter().filter(|l| l.has_git).count();
        let rules = IgnoreRules {
            above: Arc::new(Above {
                require_git,
                parents,
                global,
            }),
            walked: None,
            roots,
        };
        Ok((rules, one_error(errs)))
    }

    /// The rules inside the walked folder `dir`, whose listing holds `present`: these rules
    /// and its own files'. Errors the crate would attach to the folder (lines it cannot parse)
    /// are dropped, as its walker drops them. Error: why one of its files must not be read, as
    /// `its .gitignore is a fifo, not a file`.
    pub fn enter(&self, dir: &Dir, present: Present) -> Result<IgnoreRules, String> {
        let mut inside = self.clone();
        if present.any() {
            let (level, _) = Level::read(Place::Handle(dir), Some(present), self.above.require_git)
                .map_err(|u| u.its())?;
            if !level.adds_nothing() {
                inside.roots += usize::from(level.has_git);
                inside.walked = Some(Arc::new(Link {
                    level,
                    up: self.walked.clone(),
                }));
            }
        }
        Ok(inside)
    }

    /// Whether the rules leave out the entry at `path` (absolute, under the walked folder; a
    /// folder when `is_dir`): `Ignore`, let through by a `!` line: `Whitelist`, or neither.
    pub fn matched(&self, path: &Path, is_dir: bool) -> Match<()> {
        let any_root = !self.above.require_git || self.roots > 0;
        let (mut ignore, mut git, mut exclude) = (Match::None, Match::None, Match::None);
        let mut past_root = false;
        let mut link = self.walked.as_deref();
        let walked = std::iter::from_fn(|| {
            let this = link?;
            link = this.up.as_deref();
            Some(&this.level)
        });
        for level in walked.chain(&self.above.parents) {
            if ignore.is_none() {
                ignore = level.ignore.matched(path, is_dir).map(|_| ());
            }
            if any_root && !past_root {
                if git.is_none() {
                    git = level.git.matched(path, is_dir).map(|_| ());
                }
                if exclude.is_none() {
                    exclude = level.exclude.matched(path, is_dir).map(|_| ());
                }
            }
            past_root |= level.has_git;
        }
        let global = if any_root {
            self.above.global.matched(path, is_dir).map(|_| ())
        } else {
            Match::None
        };
        or(or(or(ignore, git), exclude), global)
    }
}

fn or(a: Match<()>, b: Match<()>) -> Match<()> {
    if a.is_none() { b } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The matcher `bytes` make as the file /w/.gitignore, and the error reported.
    fn lines_of(bytes: &[u8]) -> (Gitignore, Option<String>) {
        let mut b = GitignoreBuilder::new("/w");
        let err = add_lines(&mut b, bytes, Path::new("/w/.gitignore"));
        (b.build().unwrap(), err.map(|e| e.to_string()))
    }

    fn hides(gi: &Gitignore, name: &str) -> bool {
        gi.matched(Path::new("/w").join(name), false).is_ignore()
    }

    #[test]
    fn lines_are_read_as_the_crate_reads_a_file() {
        let (gi, _) = lines_of(b"a\r\nb\n");
        assert!(hides(&gi, "a") && hides(&gi, "b") && gi.len() == 2);
        let (gi, _) = lines_of(b"a\nb\r");
        assert!(
            hides(&gi, "b\r") && !hides(&gi, "b"),
            "\\r kept without \\n"
        );
        let (gi, _) = lines_of("\u{feff}x\n".as_bytes());
        assert!(hides(&gi, "x"));
        let (gi, err) = lines_of(b"ok\n\xff\nalso\n");
        assert!(hides(&gi, "ok") && hides(&gi, "also") && gi.len() == 2);
        assert_eq!(
            err.as_deref(),
            Some("/w/.gitignore: line 2: stream did not contain valid UTF-8")
        );
    }
}
