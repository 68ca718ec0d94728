//! The directory walk of `grep` and of read-file's folder reads (spec 02, "glob" → "Walk"), on
//! the `ignore` crate's parallel walker; and what every walk shares (the base folder, rules,
//! problems, patterns). `glob` walks through handles instead ([`crate::search::handle_walk`]).
//!
//! Rules: `.gitignore`, `.ignore`, `.git/info/exclude` and the global gitignore apply unless
//! `ignored` is true; ancestor ignore files apply too, gitignore ones only up to the repository
//! root; `.git` is always skipped; hidden entries are skipped unless `hidden` is true; symlinks
//! are never followed; entries with a deny-read name are neither returned nor entered.
//!
//! Races (spec 01, "Races and crashes"): the `ignore` walker reads folders by path. So that a
//! folder swapped for a symlink cannot show or feed anything from outside, the walk is fenced
//! by handles: a folder is entered only if, reached from the base's handle without following
//! symlinks ([`Base`]), it is a real folder at that moment; and every entry that is reported or
//! read is reached again the same way ([`Reach`]): its metadata comes from that handle and a
//! file is opened through it. An entry the walker listed from an outside folder (a swap between
//! the check and the walker's own `opendir`) is then not found, or is the inside entry of the
//! same name, and nothing of the outside is shown. What remains by path: that `opendir` itself
//! and the walker's reading of `.gitignore`/`.ignore` files, which may, under such a race, list
//! an outside folder's names or read its ignore rules (they only decide which inside entries
//! are skipped).

use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::error::{ToolError, io_reason};
use crate::fileio::beneath::{Dir, Kind, Stat};
use crate::search::git_global::crate_lookup_is_safe;
use crate::search::ignore_rules::{MAX_IGNORE_FILE_BYTES, ignore_file_problem};
use crate::text::path_escape::push_encoded;
use crate::text::plural::count;
use crate::workspace::context::Ctx;
use crate::workspace::policy::CheckedPath;

/// Most walk problems (unreadable folders and files) listed in a result; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 20;

/// Which entries a walk leaves out.
#[derive(Debug, Clone, Copy)]
pub struct WalkRules {
    /// Include hidden entries (names starting with `.`).
    pub hidden: bool,
    /// Include entries matched by ignore rules.
    pub ignored: bool,
    /// The searching tool's name: entries a `deny` rule for it matches are left out
    /// ([`Ctx::rule_hidden`], spec 10 "Rules").
    pub tool: &'static str,
}

/// The folder a walk starts from: walked through its resolved path, shown through the path the
/// caller spelled (so `link-to-src/a.rs` is printed as `link-to-src/a.rs`).
#[derive(Debug, Clone)]
pub struct Base {
    /// Resolved folder: every walked path starts with it.
    pub real: PathBuf,
    /// The same folder as spelled (absolute, `.`/`..` folded, symlinks kept); the resolved
    /// folder when the spelling goes up with `..` (folding it would name another folder).
    pub literal: PathBuf,
    /// A handle on the folder, reached without following symlinks (`None`: a single file is
    /// searched).
    pub dir: Option<Arc<Dir>>,
}

impl Base {
    /// The base of a checked path, with a handle on it when it is a folder (`dir`).
    pub fn new(checked: &CheckedPath, dir: Option<Dir>) -> Base {
        let up = Path::new(&checked.spelled)
            .components()
            .any(|c| c == Component::ParentDir);
        Base {
            real: checked.real.clone(),
            literal: if up {
                checked.real.clone()
            } else {
                checked.literal.clone()
            },
            dir: dir.map(Arc::new),
        }
    }

    /// A [`Reach`] for one walking thread.
    pub fn reach(&self) -> Reach {
        Reach {
            base: self.real.clone(),
            dir: self.dir.clone(),
            last: None,
        }
    }

    /// `path` (a walked path, under [`Base::real`]) for output: through the spelled base,
    /// relative to the current directory when under it (spec 00).
    pub fn display(&self, ctx: &Ctx, path: &Path) -> String {
        let mut out = String::new();
        self.push_display(ctx, path, &mut out);
        out
    }

    /// [`Base::display`] appended to `out`, without a `String` per path (long listings).
    pub fn push_display(&self, ctx: &Ctx, path: &Path, out: &mut String) {
        self.push_display_in(&ctx.cwd, path, out);
    }

    /// [`Base::push_display`] relative to the current directory `cwd` (for walk filters,
    /// which outlive the call context's borrow).
    pub fn push_display_in(&self, cwd: &Path, path: &Path, out: &mut String) {
        let joined;
        let shown = if self.real == self.literal {
            path
        } else {
            match path.strip_prefix(&self.real) {
                Ok(rel) => {
                    joined = self.literal.join(rel);
                    &joined
                }
                Err(_) => path,
            }
        };
        // As `Ctx::display`: relative to the current directory when under it, names that are
        // not UTF-8 escaped so they can be given back (crate::text::path_escape).
        match shown.strip_prefix(cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => out.push('.'),
            Ok(rel) => push_encoded(out, rel.as_os_str()),
            Err(_) => push_encoded(out, shown.as_os_str()),
        }
    }
}

/// Whether `dir` lies in a git repository (it or an ancestor holds `.git`).
pub fn in_git_repository(dir: &Path) -> bool {
    dir.ancestors().any(|a| a.join(".git").exists())
}

/// Reaches walked entries from the base's handle without following symlinks (module doc,
/// "Races"), one per walking thread: it keeps the last folder it opened, since entries come
/// folder by folder.
#[derive(Debug)]
pub struct Reach {
    base: PathBuf,
    dir: Option<Arc<Dir>>,
    last: Option<(PathBuf, Dir)>,
}

impl Reach {
    fn folder(&mut self, rel_dir: &Path) -> io::Result<&Dir> {
        let Some(base) = &self.dir else {
            return Err(io::Error::from(io::ErrorKind::NotFound));
        };
        if self.last.as_ref().is_none_or(|(p, _)| p != rel_dir) {
            self.last = Some((rel_dir.to_path_buf(), base.open_dir(rel_dir)?));
        }
        Ok(&self.last.as_ref().expect("just opened").1)
    }

    fn split<'p>(&self, path: &'p Path) -> io::Result<(&'p Path, &'p std::ffi::OsStr)> {
        let rel = path
            .strip_prefix(&self.base)
            .map_err(|_| io::Error::from(io::ErrorKind::NotFound))?;
        match (rel.parent(), rel.file_name()) {
            (Some(dir), Some(name)) => Ok((dir, name)),
            _ => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }

    /// The metadata of the walked entry `path` (under the base), reached through handles; a
    /// symlink describes itself. `None` when no such entry is inside.
    pub fn stat(&mut self, path: &Path) -> Option<Stat> {
        let (dir, name) = self.split(path).ok()?;
        self.folder(dir).ok()?.stat_at(name).ok()
    }

    /// Opens the walked file `path` (under the base) for reading through handles, never
    /// following a symlink.
    pub fn open(&mut self, path: &Path) -> io::Result<File> {
        let (dir, name) = self.split(path)?;
        self.folder(dir)?.open_file(Path::new(name))
    }
}

/// Ignore files the `ignore` walker reads by path in every folder it enters.
pub const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

/// Why the walker must not enter `folder` (reached through a handle): one of the ignore files
/// it would read there (`.gitignore`, `.ignore`, `.git/info/exclude`) cannot be read safely
/// ([`ignore_file_problem`]), as `its .gitignore is a fifo, not a file`. None when all can.
pub fn unreadable_ignore_file(folder: &Dir) -> Option<String> {
    IGNORE_FILES
        .iter()
        .chain([&".git/info/exclude"])
        .find_map(|name| {
            let st = folder.stat_target(Path::new(name)).ok()?;
            ignore_file_problem(st.kind, st.len).map(|why| format!("its {name} {why}"))
        })
}

/// Why the walker must not start at `real`: an ignore file it reads in a folder above it (the
/// walker reads those of every ancestor, by path) cannot be read safely, as `/w/.gitignore is
/// a fifo, not a file`. None when all can.
pub fn unreadable_ancestor_ignore_file(real: &Path) -> Option<String> {
    for folder in real.ancestors().skip(1) {
        let files = IGNORE_FILES
            .iter()
            .map(|n| folder.join(n))
            .chain([folder.join(".git/info/exclude")]);
        for file in files {
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            let kind = Kind::from_mode(std::os::unix::fs::MetadataExt::mode(&meta));
            if let Some(why) = ignore_file_problem(kind, meta.len()) {
                return Some(format!("{} {why}", file.display()));
            }
        }
    }
    None
}

/// Folders a walk left out because of an ignore file it must not read, as `(skipped: ...)`
/// lines: filled by the walk's filter, taken by the tool after the walk.
pub type FenceProblems = Arc<Mutex<Vec<String>>>;

/// A walk builder for `base` following the rules in the module docs, with the problems its
/// filter finds (folders not entered because of an ignore file that is a FIFO or device:
/// [`unreadable_ignore_file`]). Error (a refusal): the base folder's own ignore file is one.
pub fn builder(
    ctx: &Ctx,
    base: &Base,
    rules: WalkRules,
) -> Result<(WalkBuilder, FenceProblems), ToolError> {
    let mut b = WalkBuilder::new(&base.real);
    let respect = !rules.ignored;
    if respect
        && let Some(why) = base
            .dir
            .as_deref()
            .and_then(unreadable_ignore_file)
            .or_else(|| unreadable_ancestor_ignore_file(&base.real))
    {
        return Err(ToolError::refused(format!(
            "cannot search {}: {why}; search with ignored=true to skip ignore files",
            base.display(ctx, &base.real),
        )));
    }
    // Inside a repository, gitignore files above its root must not apply (spec 02: "up to the
    // repository root"); `require_git` makes the walker stop at the `.git` folder. Outside one,
    // .gitignore files still apply, as they do for list-dir.
    b.hidden(!rules.hidden)
        .follow_links(false)
        .require_git(in_git_repository(&base.real))
        .git_ignore(respect)
        .git_exclude(respect)
        // The crate's own lookup would wait on a FIFO config or read a huge file whole.
        .git_global(respect && crate_lookup_is_safe(MAX_IGNORE_FILE_BYTES))
        .ignore(respect)
        .parents(respect);
    let policy = ctx.policy.clone();
    let fence = base.dir.clone().map(|d| (d, base.real.clone()));
    let hidden = rule_hidden(ctx, base, rules.tool);
    let problems: FenceProblems = Arc::default();
    let found = Arc::clone(&problems);
    let shown = base.clone();
    let cwd = ctx.cwd.clone();
    b.filter_entry(move |e: &DirEntry| {
        let name = e.file_name();
        if name == ".git" || policy.is_denied_name(name) {
            return false;
        }
        if let Some(hidden) = &hidden
            && e.depth() > 0
            && hidden(e.path(), e.file_type().is_some_and(|t| t.is_dir()))
        {
            return false;
        }
        match &fence {
            Some((dir, base)) if e.depth() > 0 && e.file_type().is_some_and(|t| t.is_dir()) => {
                // Entered only if it opens through the handle as a folder, without symlinks.
                let Some(folder) = e
                    .path()
                    .strip_prefix(base)
                    .ok()
                    .and_then(|rel| dir.open_dir(rel).ok())
                else {
                    return false;
                };
                if respect && let Some(why) = unreadable_ignore_file(&folder) {
                    let mut line = String::new();
                    shown.push_display_in(&cwd, e.path(), &mut line);
                    line.push_str(&format!(": not searched: {why}"));
                    found.lock().unwrap_or_else(|p| p.into_inner()).push(line);
                    return false;
                }
                true
            }
            _ => true,
        }
    });
    Ok((b, problems))
}

/// A walked entry's path and whether it is a folder → whether it is left out.
pub type EntryFilter = Arc<dyn Fn(&Path, bool) -> bool + Send + Sync>;

/// Whether a walked entry (its path under [`Base::real`], and whether it is a folder) is left
/// out by a `deny` rule for `tool` ([`Ctx::rule_hidden`]): checked as walked (resolved) and,
/// when the base was spelled through a symlink, as spelled. None when no rule hides anything.
pub fn rule_hidden(ctx: &Ctx, base: &Base, tool: &'static str) -> Option<EntryFilter> {
    let rules = ctx.rule_hidden.clone()?;
    let real = base.real.clone();
    let literal = base.literal.clone();
    Some(Arc::new(move |path: &Path, is_dir: bool| {
        if rules(tool, path, is_dir) {
            return true;
        }
        real != literal
            && path
                .strip_prefix(&real)
                .is_ok_and(|rel| rules(tool, &literal.join(rel), is_dir))
    }))
}

/// Runs a parallel walk: every worker thread gets its own state from `make`, `visit` is called
/// for every entry (and walk error) that thread sees, and the states of all threads are
/// returned once the walk is over, in no particular order.
pub fn run_parallel<S, M, V>(builder: &WalkBuilder, make: M, visit: V) -> Vec<S>
where
    S: Send,
    M: Fn() -> S,
    V: Fn(&mut S, Result<DirEntry, ignore::Error>) -> WalkState + Sync,
{
    let done = Mutex::new(Vec::new());
    let mut workers = Workers {
        make: &make,
        visit: &visit,
        done: &done,
    };
    builder.build_parallel().visit(&mut workers);
    done.into_inner().unwrap_or_else(|p| p.into_inner())
}

struct Workers<'a, S, M, V> {
    make: &'a M,
    visit: &'a V,
    done: &'a Mutex<Vec<S>>,
}

impl<'s, S, M, V> ParallelVisitorBuilder<'s> for Workers<'s, S, M, V>
where
    S: Send + 's,
    M: Fn() -> S,
    V: Fn(&mut S, Result<DirEntry, ignore::Error>) -> WalkState + Sync,
{
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Worker {
            state: Some((self.make)()),
            visit: self.visit,
            done: self.done,
        })
    }
}

struct Worker<'a, S: Send, V> {
    state: Option<S>,
    visit: &'a V,
    done: &'a Mutex<Vec<S>>,
}

impl<S, V> ParallelVisitor for Worker<'_, S, V>
where
    S: Send,
    V: Fn(&mut S, Result<DirEntry, ignore::Error>) -> WalkState + Sync,
{
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        match self.state.as_mut() {
            Some(state) => (self.visit)(state, entry),
            None => WalkState::Quit,
        }
    }
}

impl<S: Send, V> Drop for Worker<'_, S, V> {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            self.done
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(state);
        }
    }
}

/// Paths a walk could not read: the first [`MAX_PROBLEMS_SHOWN`] in sorted order listed, the
/// rest counted. Which ones are listed does not depend on the order they were met in, so a
/// parallel walk prints the same lines every time.
#[derive(Debug, Default)]
pub struct Problems {
    shown: Vec<String>,
    more: usize,
}

impl Problems {
    /// Records one problem (`path: reason`).
    pub fn push(&mut self, line: String) {
        if self.shown.len() < MAX_PROBLEMS_SHOWN {
            self.shown.push(line);
            return;
        }
        self.more += 1;
        // Keeps the smallest lines: the new one takes the place of the greatest when smaller.
        if let Some(greatest) = self.shown.iter_mut().max()
            && line < *greatest
        {
            *greatest = line;
        }
    }

    /// Records a walk error, described as list-dir does.
    pub fn push_walk_error(&mut self, ctx: &Ctx, err: &ignore::Error) {
        self.push(describe_walk_error(ctx, err));
    }

    /// Adds the problems a walk's filter found ([`builder`]).
    pub fn take_fenced(&mut self, fenced: &FenceProblems) {
        for line in fenced.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
            self.push(line);
        }
    }

    /// Adds another collector's problems.
    pub fn merge(&mut self, other: Problems) {
        for line in other.shown {
            self.push(line);
        }
        self.more += other.more;
    }

    /// Appends `(skipped: ...)` lines to `out`, sorted so output does not depend on thread
    /// timing.
    pub fn render(mut self, out: &mut String) {
        self.shown.sort();
        for line in &self.shown {
            out.push_str(&format!("(skipped: {line})\n"));
        }
        if self.more > 0 {
            out.push_str(&format!(
                "(skipped {})\n",
                count(self.more, "more unreadable path")
            ));
        }
    }

    /// How many problems in all.
    pub fn len(&self) -> usize {
        self.shown.len() + self.more
    }

    /// Whether there were none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether a glob pattern has no wildcard at all (`*`, `?`, `[`, `{` or an escape): such a
/// pattern names one path.
pub fn is_literal_glob(pattern: &str) -> bool {
    !pattern.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

/// Normalises a glob pattern relative to the walk base (spec 02, "Glob syntax"): leading `./`
/// removed, and a pattern without `/` made to match at any depth (`*.rs` → `**/*.rs`).
/// `what` names the argument in errors. Errors (exit 2): an absolute pattern or one with a
/// `..` component, since patterns only match paths under the base.
pub fn normalize_glob(pattern: &str, what: &str) -> Result<String, ToolError> {
    let mut p = pattern;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    if p.starts_with('/') {
        return Err(ToolError::usage(format!(
            "{what} {pattern:?} is absolute; patterns match paths under `path`, so give the folder as path and a relative pattern"
        )));
    }
    if p.split('/').any(|c| c == "..") {
        return Err(ToolError::usage(format!(
            "{what} {pattern:?} contains `..`; patterns match paths under `path`, so give the folder as path instead"
        )));
    }
    if p.is_empty() {
        return Err(ToolError::usage(format!("{what} is empty")));
    }
    Ok(if p.contains('/') {
        p.to_owned()
    } else {
        format!("**/{p}")
    })
}

/// Compiles a normalised glob: `*` and `?` never cross `/`, `**` crosses any number of folders
/// (and `**/` also matches none), `{a,b}` alternatives, `[...]` classes. An invalid pattern is
/// an argument error quoting the glob parser's message.
///
/// The glob is compiled into a one-glob `GlobSet`, whose build reports a pattern too large
/// for the regex engine as an error (`GlobMatcher` panics on it: exit 101 for a 400,000-
/// character pattern). A long pattern is not quoted back in the message.
pub fn compile_glob(normalized: &str, what: &str) -> Result<GlobSet, ToolError> {
    let describe = |e: globset::Error| {
        let text = if normalized.len() <= 200 {
            e.to_string()
        } else {
            e.kind().to_string()
        };
        let first = text.lines().next().unwrap_or_default();
        let short: String = first.chars().take(300).collect();
        ToolError::usage(format!("invalid {what}: {short}"))
    };
    let glob = GlobBuilder::new(normalized)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(describe)?;
    GlobSetBuilder::new().add(glob).build().map_err(describe)
}

/// A walk error as `path: reason`, with the path relative to the current directory.
pub fn describe_walk_error(ctx: &Ctx, err: &ignore::Error) -> String {
    fn find(err: &ignore::Error, line: Option<u64>) -> (Option<&std::path::Path>, String) {
        match err {
            ignore::Error::WithPath { path, err } => (Some(path.as_path()), find(err, line).1),
            ignore::Error::WithLineNumber { line, err } => find(err, Some(*line)),
            ignore::Error::WithDepth { err, .. } => find(err, line),
            ignore::Error::Io(e) => (None, io_reason(e)),
            ignore::Error::Loop { child, .. } => (Some(child.as_path()), "symlink loop".into()),
            ignore::Error::Glob { err, .. } => (None, bad_ignore_line(line, err)),
            other => (None, other.to_string()),
        }
    }
    match find(err, None) {
        (Some(p), reason) => format!("{}: {reason}", ctx.display(p)),
        (None, reason) => reason,
    }
}

/// A line of an ignore file that is not a valid pattern, told by its number and the kind of
/// mistake only: an ignore file may be a symlink to a file outside the workspace, whose lines
/// must not be shown (the kinds of mistake that quote the line, as an invalid range, are left
/// unsaid). As `line 2: not a valid pattern (unclosed alternate group; missing '}')`.
fn bad_ignore_line(line: Option<u64>, why: &str) -> String {
    const SAFE: [&str; 7] = [
        "invalid use of **",
        "unclosed character class",
        "unopened alternate group",
        "unclosed alternate group",
        "nested alternate groups",
        "too many nested alternate groups",
        "dangling '\\'",
    ];
    let mut out = match line {
        Some(n) => format!("line {n}: not a valid pattern"),
        None => "a line is not a valid pattern".to_owned(),
    };
    if SAFE.iter().any(|safe| why.starts_with(safe)) {
        out.push_str(&format!(" ({why})"));
    }
    out.push_str("; that line is left out");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let n = normalize_glob(pattern, "pattern").unwrap();
        compile_glob(&n, "pattern").unwrap().is_match(path)
    }

    #[test]
    fn glob_syntax_of_spec_02() {
        assert!(matches("**/*.rs", "lib.rs"), "**/ matches zero folders");
        assert!(matches("**/*.rs", "src/tools/glob.rs"));
        assert!(matches("*.rs", "src/tools/glob.rs"), "no slash: any depth");
        assert!(
            !matches("src/*.rs", "src/tools/glob.rs"),
            "* never crosses /"
        );
        assert!(matches("src/*.rs", "src/lib.rs"));
        assert!(matches("src/**/*.rs", "src/lib.rs"));
        assert!(matches("src/?.rs", "src/a.rs"));
        assert!(!matches("src/?.rs", "src/ab.rs"));
        assert!(matches("*.{ts,tsx}", "web/app.tsx"));
        assert!(matches("[ab].txt", "b.txt"));
        assert!(!matches("[ab].txt", "c.txt"));
        assert!(matches("./src/*.rs", "src/lib.rs"));
    }

    #[test]
    fn patterns_that_cannot_match_are_argument_errors() {
        assert!(normalize_glob("/etc/*", "pattern").is_err());
        assert!(normalize_glob("../x/*.rs", "pattern").is_err());
        assert!(normalize_glob("a/../b", "pattern").is_err());
        assert!(normalize_glob("./", "pattern").is_err());
        let n = normalize_glob("src/[a", "pattern").unwrap();
        let e = compile_glob(&n, "pattern").unwrap_err();
        assert!(e.message.starts_with("invalid pattern: "), "{}", e.message);
    }

    #[test]
    fn a_bad_ignore_line_is_told_without_its_text() {
        let glob = |err: &str| ignore::Error::Glob {
            glob: Some("secret-[z-a]".into()),
            err: err.into(),
        };
        // A kind of mistake that quotes the line's characters is not said.
        let told = bad_ignore_line(Some(3), &glob("invalid range; 'z' > 'a'").to_string());
        assert_eq!(told, "line 3: not a valid pattern; that line is left out");
        let told = bad_ignore_line(Some(2), "unclosed alternate group; missing '}'");
        assert_eq!(
            told,
            "line 2: not a valid pattern (unclosed alternate group; missing '}'); that line is left out"
        );
        let told = bad_ignore_line(None, "invalid range; 'z' > 'a'");
        assert!(!told.contains('z'), "{told}");
    }

    #[test]
    fn literal_detection() {
        assert!(is_literal_glob("Cargo.toml"));
        assert!(is_literal_glob("target/debug/agtool"));
        assert!(!is_literal_glob("*.rs"));
        assert!(!is_literal_glob("a{b,c}"));
        assert!(!is_literal_glob("a\\*"));
    }

    #[test]
    fn problems_are_capped_and_sorted() {
        let mut p = Problems::default();
        for i in (0..25).rev() {
            p.push(format!("d{i:02}: permission denied"));
        }
        assert_eq!(p.len(), 25);
        let mut out = String::new();
        p.render(&mut out);
        // The smallest 20, whatever the order they came in.
        assert!(
            out.starts_with("(skipped: d00: permission denied)\n"),
            "{out}"
        );
        assert!(out.contains("(skipped: d19: "), "{out}");
        assert!(!out.contains("(skipped: d20: "), "{out}");
        assert!(
            out.ends_with("(skipped 5 more unreadable paths)\n"),
            "{out}"
        );
    }
}
