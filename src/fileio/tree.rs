//! Folder trees through handles (spec 03, "delete-path"; the base for copying folders): a tree
//! is listed from a [`Dir`] without following any symlink, and its entries are removed
//! relative to handles opened the same way, so a folder swapped for a symlink between the
//! listing and the removal makes the removal stop, never reach outside.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::Stop;

/// One entry of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    /// Its path relative to the top folder.
    pub rel: PathBuf,
    /// What it is (a symlink is a symlink: never followed).
    pub kind: Kind,
}

/// Why a tree cannot be taken as a whole.
#[derive(Debug)]
pub enum TreeStop {
    /// An entry has a name the caller refuses (e.g. a protected name); its path (relative).
    Refused(PathBuf),
    /// A folder on another filesystem (a mount point); its path (relative).
    Mount(PathBuf),
    /// A folder or entry could not be read: its path (relative) and why.
    Io(PathBuf, io::Error),
    /// A folder lies deeper than [`MAX_TREE_DEPTH`] levels or [`MAX_TREE_PATH_BYTES`] bytes
    /// below the top; its path (relative).
    TooDeep(PathBuf),
}

/// What a listing does with one name ([`list_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// List it (and, for a folder, what is in it).
    Take,
    /// Leave it out, with everything in it, and say so in [`Listing::skipped`].
    Skip,
    /// Stop the listing: [`TreeStop::Refused`].
    Refuse,
}

/// A tree as [`list_with`] found it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Everything listed, children right before their folder.
    pub entries: Vec<TreeEntry>,
    /// What was left out (relative paths), in listing order.
    pub skipped: Vec<PathBuf>,
}

/// Lists everything under `top`, children right before their folder, without following
/// symlinks. Stops at the first name `refuse` says no to, at a folder on another filesystem
/// than `top`, or at an unreadable folder.
pub fn list(top: &Dir, refuse: &dyn Fn(&OsStr) -> bool) -> Result<Vec<TreeEntry>, TreeStop> {
    let judge = |name: &OsStr| {
        if refuse(name) {
            Verdict::Refuse
        } else {
            Verdict::Take
        }
    };
    list_with(top, &judge).map(|l| l.entries)
}

pub use crate::fileio::beneath::{MAX_TREE_DEPTH, MAX_TREE_PATH_BYTES};

/// As [`list`], with `judge` deciding per name whether it is listed, left out (with
/// everything in it) or stops the listing. The walk is iterative (no recursion per level)
/// and holds at most two folder handles open at a time: a folder is opened again by its
/// path (beneath `top`, never following a symlink) when the walk comes back to it. A folder
/// more than [`MAX_TREE_DEPTH`] levels down or with a path over [`MAX_TREE_PATH_BYTES`] stops
/// it with [`TreeStop::TooDeep`].
pub fn list_with(top: &Dir, judge: &dyn Fn(&OsStr) -> Verdict) -> Result<Listing, TreeStop> {
    /// A folder being listed: its path, its handle while open, the names left.
    struct Frame {
        rel: PathBuf,
        dir: Option<Dir>,
        rest: std::vec::IntoIter<crate::fileio::beneath::Entry>,
    }
    let dev = top
        .stat(Path::new(""))
        .map_err(|e| TreeStop::Io(PathBuf::new(), e))?
        .dev;
    let mut out = Listing::default();
    let first = top.entries().map_err(|e| TreeStop::Io(PathBuf::new(), e))?;
    let mut stack = vec![Frame {
        rel: PathBuf::new(),
        dir: None,
        rest: first.into_iter(),
    }];
    while let Some(frame) = stack.last_mut() {
        let Some(e) = frame.rest.next() else {
            let done = stack.pop().expect("a frame is on the stack");
            if !done.rel.as_os_str().is_empty() {
                out.entries.push(TreeEntry {
                    rel: done.rel,
                    kind: Kind::Dir,
                });
            }
            continue;
        };
        let p = frame.rel.join(&e.name);
        match judge(&e.name) {
            Verdict::Take => {}
            Verdict::Skip => {
                out.skipped.push(p);
                continue;
            }
            Verdict::Refuse => return Err(TreeStop::Refused(p)),
        }
        if frame.dir.is_none() && !frame.rel.as_os_str().is_empty() {
            let d = top
                .open_dir(&frame.rel)
                .map_err(|err| TreeStop::Io(frame.rel.clone(), err))?;
            frame.dir = Some(d);
        }
        let dir = frame.dir.as_ref().unwrap_or(top);
        let st = dir
            .stat_at(&e.name)
            .map_err(|err| TreeStop::Io(p.clone(), err))?;
        if st.kind != Kind::Dir {
            out.entries.push(TreeEntry {
                rel: p,
                kind: st.kind,
            });
            continue;
        }
        if st.dev != dev {
            return Err(TreeStop::Mount(p));
        }
        if p.components().count() > MAX_TREE_DEPTH || p.as_os_str().len() > MAX_TREE_PATH_BYTES {
            return Err(TreeStop::TooDeep(p));
        }
        let sub = dir
            .open_dir(Path::new(&e.name))
            .map_err(|err| TreeStop::Io(p.clone(), err))?;
        if sub.stat(Path::new("")).map(|s| s.dev).ok() != Some(dev) {
            return Err(TreeStop::Mount(p));
        }
        let entries = sub.entries().map_err(|err| TreeStop::Io(p.clone(), err))?;
        // The parent is opened again when the walk comes back to it: one handle per level
        // would run into the limit on open files in a deep tree.
        frame.dir = None;
        stack.push(Frame {
            rel: p,
            dir: Some(sub),
            rest: entries.into_iter(),
        });
    }
    Ok(out)
}

/// `nests deeper than ... levels ...`: the words for [`TreeStop::TooDeep`], after a path.
pub fn too_deep_phrase() -> String {
    format!(
        "nests deeper than agtool goes ({MAX_TREE_DEPTH} levels of folders, or {MAX_TREE_PATH_BYTES} \
         bytes of path inside it)"
    )
}

/// Removes the entry `name` of `dir`, whatever it is: a file, symlink or special file is
/// unlinked (a link itself, never its target); a folder is listed and removed with everything
/// in it through handles ([`list`], [`remove`]), never following a symlink. `NotFound` when
/// there is nothing by that name; an error for a folder holding a mount point.
pub fn remove_all(dir: &Dir, name: &OsStr, stop: &Stop) -> io::Result<()> {
    if dir.stat_at(name)?.kind != Kind::Dir {
        return dir.unlink(name);
    }
    let top = dir.open_dir(Path::new(name))?;
    let entries = list(&top, &|_| false).map_err(|s| match s {
        TreeStop::Io(_, e) => e,
        TreeStop::Mount(p) => io::Error::other(format!("{} is a mount point", p.display())),
        TreeStop::Refused(p) => io::Error::other(format!("{} was refused", p.display())),
        TreeStop::TooDeep(_) => io::Error::other(too_deep_phrase()),
    })?;
    remove(&top, &entries, stop).map_err(|(_, _, e)| e)?;
    dir.rmdir(name)
}

/// Removes `entries` (as [`list`] returned them: children first) from under `top`, each
/// through a handle on its own folder opened without following symlinks. Stops at the first
/// failure or termination signal: `Err((removed so far, the entry, why))`.
pub fn remove(
    top: &Dir,
    entries: &[TreeEntry],
    stop: &Stop,
) -> Result<(), (usize, PathBuf, io::Error)> {
    let mut parent: Option<(PathBuf, Dir)> = None;
    for (done, e) in entries.iter().enumerate() {
        let fail = |err| (done, e.rel.clone(), err);
        stop.check().map_err(fail)?;
        let (Some(dir_rel), Some(name)) = (e.rel.parent(), e.rel.file_name()) else {
            continue;
        };
        if parent.as_ref().is_none_or(|(p, _)| p != dir_rel) {
            let d = top.open_dir(dir_rel).map_err(fail)?;
            parent = Some((dir_rel.to_path_buf(), d));
        }
        let (_, d) = parent.as_ref().expect("just opened");
        let r = if e.kind == Kind::Dir {
            d.rmdir(name)
        } else {
            d.unlink(name)
        };
        r.map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn lists_children_first_and_never_follows_symlinks() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("top/a/b")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::fs::write(root.join("outside/keep"), "k").unwrap();
        std::fs::write(root.join("top/a/b/f"), "f").unwrap();
        symlink(root.join("outside"), root.join("top/a/out")).unwrap();
        let top = Dir::open_root(&root.join("top")).unwrap();
        let entries = list(&top, &|_| false).unwrap();
        let pos = |p: &str| entries.iter().position(|e| e.rel == Path::new(p)).unwrap();
        assert!(pos("a/b/f") < pos("a/b") && pos("a/b") < pos("a"));
        assert_eq!(entries[pos("a/out")].kind, Kind::Symlink);
        assert_eq!(entries.len(), 4);
        assert!(matches!(
            list(&top, &|n| n == "b"),
            Err(TreeStop::Refused(p)) if p == Path::new("a/b")
        ));
        // Swap a listed folder for a symlink to the outside: the removal stops there.
        std::fs::rename(root.join("top/a/b"), root.join("b-moved")).unwrap();
        symlink(root.join("outside"), root.join("top/a/b")).unwrap();
        std::fs::write(root.join("outside/f"), "outside").unwrap();
        let (done, at, _) = remove(&top, &entries, &Stop::never()).unwrap_err();
        assert_eq!((done, at.as_path()), (0, Path::new("a/b/f")));
        assert!(root.join("outside/f").exists() && root.join("outside/keep").exists());
        // Put back, the same listing removes everything.
        std::fs::remove_file(root.join("top/a/b")).unwrap();
        std::fs::rename(root.join("b-moved"), root.join("top/a/b")).unwrap();
        remove(&top, &entries, &Stop::never()).unwrap();
        assert_eq!(std::fs::read_dir(root.join("top")).unwrap().count(), 0);
        assert!(root.join("outside/keep").exists());
    }
}
