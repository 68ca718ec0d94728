//! A parallel walk through folder handles (spec 02, "glob" → "Walk"; spec 01, "Races and
//! crashes"): the walk behind `glob`.
//!
//! Each folder is opened from its parent's handle without following symlinks and listed once
//! through its own handle (`getdents`); every entry given to the caller is one that listing
//! holds, with the folder's handle to reach it by name. A folder swapped for a symlink or a
//! file after its parent was listed is not entered and not reported. Ignore rules are those of
//! the `ignore` crate's walker ([`IgnoreRules`]), read through the same handles.
//!
//! What is left out: entries matched by ignore rules (unless `ignored`), hidden entries (names
//! starting with `.`, unless `hidden` or a `!` rule lets them through), `.git`, names the path
//! policy denies, and entries a `deny` rule for the tool hides. A folder whose ignore file
//! must not be read ([`crate::search::ignore_rules::ignore_file_problem`]) is not entered, and
//! said so.
//!
//! Threads: one per available core (at most [`MAX_THREADS`]) take folders from one shared
//! stack, newest first, so a walk goes deep before it goes wide. A folder's handle stays open
//! while folders found in it wait, up to [`handle_budget`] handles at once; past that, a
//! waiting folder is opened from the walked folder's handle by its relative path (still
//! beneath it, no symlink followed), so a deep tree is walked whole with few handles allowed.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use ignore::Match;

use crate::error::{ToolError, io_reason};
use crate::fileio::beneath::{Dir, Kind, is_swapped};
use crate::search::ignore_rules::{IgnoreRules, Present, each_error};
use crate::search::walk::{
    Base, EntryFilter, Problems, WalkRules, describe_walk_error, in_git_repository, rule_hidden,
};
use crate::workspace::context::Ctx;

/// Most threads a walk uses.
pub const MAX_THREADS: usize = 8;

/// How many folder handles a walk keeps open for folders waiting to be walked: half of what
/// the process may open (`RLIMIT_NOFILE`) past 64 kept for everything else, at least 4 and at
/// most 4096. A walk goes on past it, opening waiting folders by relative path instead.
pub fn handle_budget() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    usize::try_from(soft.saturating_sub(64) / 2)
        .unwrap_or(usize::MAX)
        .clamp(4, 4096)
}

/// Whether an error opening a folder found in a listing means it is no longer there as a
/// folder: swapped for a symlink ([`is_swapped`]) or a file (`ENOTDIR`), or removed
/// (`ENOENT`) since its parent was listed. Such a folder is neither walked nor reported.
pub fn vanished(e: &std::io::Error) -> bool {
    is_swapped(e) || matches!(e.raw_os_error(), Some(libc::ENOTDIR | libc::ENOENT))
}

/// The ignore rules in force in the walked folder `top` (at `real`, its listing holding
/// `present`): those of the folders above it, the global gitignore, and its own files. Also
/// returns one `path: reason` line for each line of an ignore file above it that cannot be
/// parsed. Error: why an ignore file of `top` or above it must not be read.
pub fn top_rules(
    ctx: &Ctx,
    real: &Path,
    top: &Dir,
    present: Present,
) -> Result<(IgnoreRules, Vec<String>), String> {
    let (above, err) = IgnoreRules::new(real, in_git_repository(real))?;
    let problems = err
        .into_iter()
        .flat_map(each_error)
        .map(|err| describe_walk_error(ctx, &err))
        .collect();
    Ok((above.enter(top, present)?, problems))
}

/// A folder handle that counts itself among the open ones while it lives.
struct Held<'w> {
    dir: Dir,
    open: &'w AtomicUsize,
}

impl<'w> Held<'w> {
    fn new(dir: Dir, open: &'w AtomicUsize) -> Held<'w> {
        open.fetch_add(1, Ordering::Relaxed);
        Held { dir, open }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A folder's entries as its handle lists them (not sorted), with their kinds; and which
/// ignore-related names it holds.
pub struct Listed {
    /// Each entry's name and kind.
    pub entries: Vec<(OsString, Kind)>,
    /// The ignore-related names among them.
    pub present: Present,
}

impl Listed {
    /// Lists `dir` through its handle; an entry whose kind the listing does not give is looked
    /// up (`fstatat`, not following a symlink), and left out if it is gone. Errors are the
    /// filesystem's (a folder that may be entered but not read: permission denied).
    pub fn read(dir: &mut Dir) -> std::io::Result<Listed> {
        let mut present = Present::default();
        let mut entries = Vec::new();
        for entry in dir.entries_mut()? {
            let kind = match entry.kind {
                Some(kind) => kind,
                None => match dir.stat_at(&entry.name) {
                    Ok(st) => st.kind,
                    Err(_) => continue,
                },
            };
            present.note(&entry.name);
            entries.push((entry.name, kind));
        }
        Ok(Listed { entries, present })
    }
}

/// What leaves an entry out of a walk through handles (glob's and list-dir's), besides what
/// each walk leaves out itself: ignore rules, hidden names (unless `hidden` or a `!` rule lets
/// them through), names the path policy denies, and entries a `deny` rule for the tool hides.
pub struct LeftOut<'a> {
    ctx: &'a Ctx,
    hidden: bool,
    rule_hidden: Option<EntryFilter>,
}

impl<'a> LeftOut<'a> {
    /// The rules of a walk of `base` with `rules`.
    pub fn new(ctx: &'a Ctx, base: &Base, rules: WalkRules) -> LeftOut<'a> {
        LeftOut {
            ctx,
            hidden: rules.hidden,
            rule_hidden: rule_hidden(ctx, base, rules.tool),
        }
    }

    /// Whether the entry `name` (at `path`, absolute; a folder when `is_dir`) is left out,
    /// with `ignore` the ignore rules in force in its folder (None: `ignored`).
    pub fn entry(
        &self,
        ignore: Option<&IgnoreRules>,
        name: &OsStr,
        path: &Path,
        is_dir: bool,
    ) -> bool {
        let matched = match ignore {
            Some(ignore) => ignore.matched(path, is_dir),
            None => Match::None,
        };
        if matched.is_ignore() {
            return true;
        }
        if matched.is_none() && !self.hidden && name.as_encoded_bytes().starts_with(b".") {
            return true;
        }
        self.ctx.policy.is_denied_name(name)
            || self.rule_hidden.as_ref().is_some_and(|h| h(path, is_dir))
    }
}

/// One entry a walk gives its caller: a file, symlink or other non-folder that no rule left
/// out.
pub struct Found<'a> {
    /// The folder holding it, to reach it by name ([`Dir::stat_at`], [`Dir::open_file`]).
    pub dir: &'a Dir,
    /// Its name in that folder.
    pub name: &'a OsStr,
    /// Its path: under [`Base::real`].
    pub path: &'a Path,
    /// Its path relative to the base.
    pub rel: &'a Path,
}

/// A folder waiting to be walked: the entry `name` of the folder `parent`, or (None: too many
/// handles were open) the folder `rel` below the walked one.
struct Job<'w> {
    parent: Option<Arc<Held<'w>>>,
    name: OsString,
    path: PathBuf,
    rel: PathBuf,
    /// The parent's rules (None: `ignored`).
    rules: Option<IgnoreRules>,
}

/// The folders waiting, and how many threads are walking one (the walk is over when none
/// waits and none is being walked, or when a thread panicked).
struct Stack<'w> {
    state: Mutex<Waiting<'w>>,
    ready: Condvar,
}

struct Waiting<'w> {
    jobs: Vec<Job<'w>>,
    busy: usize,
    quit: bool,
}

/// Ends the walk for every thread when the one holding it unwinds (a panic in a visitor):
/// the others would otherwise wait for its folder forever.
struct QuitOnPanic<'a, 'w>(&'a Stack<'w>);

impl Drop for QuitOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut state = self.0.state.lock().unwrap_or_else(|p| p.into_inner());
            state.quit = true;
            self.0.ready.notify_all();
        }
    }
}

impl<'w> Stack<'w> {
    /// The next folder to walk, or None when the walk is over.
    fn take(&self) -> Option<Job<'w>> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if state.quit {
                return None;
            }
            if let Some(job) = state.jobs.pop() {
                state.busy += 1;
                return Some(job);
            }
            if state.busy == 0 {
                self.ready.notify_all();
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// A thread is done with its folder and found `more` in it.
    fn done(&self, more: &mut Vec<Job<'w>>) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.busy -= 1;
        let found = more.len();
        state.jobs.append(more);
        if found > 1 || (found == 0 && state.busy == 0) {
            self.ready.notify_all();
        } else if found == 1 {
            self.ready.notify_one();
        }
    }
}

/// What every thread of one walk reads.
struct Walker<'a, V> {
    ctx: &'a Ctx,
    base: &'a Base,
    /// The walked folder's handle, for waiting folders whose parent's handle was not kept.
    top: &'a Dir,
    /// Folder handles open now, and how many may be kept for waiting folders.
    open: AtomicUsize,
    budget: usize,
    left_out: LeftOut<'a>,
    visit: &'a V,
}

impl<V> Walker<'_, V> {
    /// Opens, lists and reads the rules of the folder `job` names: None (with a problem
    /// recorded when there is one to tell) when it cannot be walked.
    fn open<'w>(&'w self, job: Job<'w>, problems: &mut Problems) -> Option<Folder<'w>> {
        let opened = match &job.parent {
            Some(parent) => parent.dir.open_dir(Path::new(&job.name)),
            None => self.top.open_dir(&job.rel),
        };
        let mut dir = match opened {
            Ok(dir) => dir,
            Err(e) if vanished(&e) => return None,
            Err(e) => {
                let path = self.ctx.display(&job.path);
                problems.push(format!("{path}: {}", io_reason(&e)));
                return None;
            }
        };
        drop(job.parent);
        let listed = match Listed::read(&mut dir) {
            Ok(listed) => listed,
            Err(e) => {
                let path = self.ctx.display(&job.path);
                problems.push(format!("{path}: {}", io_reason(&e)));
                return None;
            }
        };
        let rules = match job.rules.map(|r| r.enter(&dir, listed.present)).transpose() {
            Ok(rules) => rules,
            Err(why) => {
                let mut line = String::new();
                self.base.push_display(self.ctx, &job.path, &mut line);
                line.push_str(&format!(": not searched: {why}"));
                problems.push(line);
                return None;
            }
        };
        Some(Folder {
            dir: Arc::new(Held::new(dir, &self.open)),
            listed,
            path: job.path,
            rel: job.rel,
            rules,
        })
    }

    /// Gives the entries of `folder` to the visitor and its subfolders to `more`.
    fn walk_folder<'w, S>(&'w self, folder: Folder<'w>, state: &mut S, more: &mut Vec<Job<'w>>)
    where
        V: Fn(&mut S, &Found<'_>),
    {
        let Folder {
            dir,
            listed,
            mut path,
            mut rel,
            rules,
        } = folder;
        // Folders found here keep this handle to be opened from, unless too many are kept.
        let keep = self.open.load(Ordering::Relaxed) <= self.budget;
        for (name, kind) in listed.entries {
            let is_dir = kind == Kind::Dir;
            path.push(&name);
            // `.git` is never walked into nor given.
            if self.left_out.entry(rules.as_ref(), &name, &path, is_dir) || name == ".git" {
                path.pop();
                continue;
            }
            rel.push(&name);
            if is_dir {
                more.push(Job {
                    parent: keep.then(|| Arc::clone(&dir)),
                    name,
                    path: path.clone(),
                    rel: rel.clone(),
                    rules: rules.clone(),
                });
            } else {
                let found = Found {
                    dir: &dir.dir,
                    name: &name,
                    path: &path,
                    rel: &rel,
                };
                (self.visit)(state, &found);
            }
            rel.pop();
            path.pop();
        }
    }
}

/// A folder opened and listed, its rules read.
struct Folder<'w> {
    dir: Arc<Held<'w>>,
    listed: Listed,
    path: PathBuf,
    rel: PathBuf,
    rules: Option<IgnoreRules>,
}

/// Walks the folder `base` (whose handle it needs) with `rules`: every entry that is not a
/// folder and that no rule leaves out is given to `visit` with the state of the thread that
/// found it (made by `make`). Returns those states, in no particular order, and the problems
/// met: folders that could not be opened or read, folders not entered because of an ignore
/// file, lines of ignore files above the base that cannot be parsed.
///
/// Error (a refusal): the base has no handle or cannot be read, or an ignore file of the base
/// or of a folder above it must not be read.
pub fn walk<S, M, V>(
    ctx: &Ctx,
    base: &Base,
    rules: WalkRules,
    make: M,
    visit: V,
) -> Result<(Vec<S>, Problems), ToolError>
where
    S: Send,
    M: Fn() -> S + Sync,
    V: Fn(&mut S, &Found<'_>) + Sync,
{
    let shown = || base.display(ctx, &base.real);
    let Some(handle) = &base.dir else {
        return Err(ToolError::refused(format!(
            "cannot search {}: not a folder",
            shown()
        )));
    };
    let cannot = |e: std::io::Error| {
        ToolError::refused(format!("cannot search {}: {}", shown(), io_reason(&e)))
    };
    let mut top = handle.open_dir(Path::new("")).map_err(cannot)?;
    let listed = Listed::read(&mut top).map_err(cannot)?;
    let mut problems = Problems::default();
    let ignore = if rules.ignored {
        None
    } else {
        let bad_ignore_file = |why: String| {
            ToolError::refused(format!(
                "cannot search {}: {why}; search with ignored=true to skip ignore files",
                shown()
            ))
        };
        let (rules, above) =
            top_rules(ctx, &base.real, &top, listed.present).map_err(bad_ignore_file)?;
        for line in above {
            problems.push(line);
        }
        Some(rules)
    };
    let walker = Walker {
        ctx,
        base,
        top: handle,
        open: AtomicUsize::new(0),
        budget: handle_budget(),
        left_out: LeftOut::new(ctx, base, rules),
        visit: &visit,
    };
    let top = Folder {
        dir: Arc::new(Held::new(top, &walker.open)),
        listed,
        path: base.real.clone(),
        rel: PathBuf::new(),
        rules: ignore,
    };
    let mut first = make();
    let mut jobs = Vec::new();
    walker.walk_folder(top, &mut first, &mut jobs);
    let stack = Stack {
        state: Mutex::new(Waiting {
            jobs,
            busy: 0,
            quit: false,
        }),
        ready: Condvar::new(),
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS);
    let run = |state: &mut S, problems: &mut Problems| {
        let _quit = QuitOnPanic(&stack);
        let mut more = Vec::new();
        while let Some(job) = stack.take() {
            if let Some(folder) = walker.open(job, problems) {
                walker.walk_folder(folder, state, &mut more);
            }
            stack.done(&mut more);
        }
    };
    let mut states = Vec::with_capacity(threads);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut state = make();
                    let mut found = Problems::default();
                    run(&mut state, &mut found);
                    (state, found)
                })
            })
            .collect();
        run(&mut first, &mut problems);
        states.push(first);
        for helper in helpers {
            match helper.join() {
                Ok((state, found)) => {
                    states.push(state);
                    problems.merge(found);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    Ok((states, problems))
}
