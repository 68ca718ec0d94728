//! Copying one entry (a file, a symlink or a whole folder tree) to a new place, and for a move
//! across filesystems removing the source, all or nothing across a crash (module doc of
//! [`super`], "State machine of a transfer").
//!
//! The copy is built under a temp name beside its destination and appears in one rename, so
//! the journal has a handful of lines whatever the size of the tree: `mkdir` for each missing
//! folder above the destination, `tree` for the temp copy, `place` for its rename into place
//! and, for a move, `aside` for the source, which is renamed aside under a temp name of its
//! own (never deleted under its own name) and only removed after the commit point.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

use super::record::{Journal, Record, State, Step};
use super::{
    CommitError, Dirs, Left, keep_backup, make_dir, missing_dirs, roll_back, roll_forward,
};
use crate::fileio::beneath::{Dir, temp_name};
use crate::fileio::fs::{Fs, Stop};
use crate::workspace::policy::CheckedPath;

/// Builds the copy: called with the destination's folder and the temp name to create there
/// (a file, a symlink or a folder with everything in it, fsynced). On error it may leave a
/// partial entry under that name; the transfer removes it.
pub type Build<'b> = dyn FnMut(&Dir, &OsStr, &Stop) -> io::Result<()> + 'b;

/// What one [`transfer`] does.
#[derive(Debug, Clone, Copy)]
pub struct Transfer<'a> {
    /// The destination entry (checked for writing; its own name, not followed). Missing
    /// folders above it are made (and removed again if the transfer is undone).
    pub to: &'a CheckedPath,
    /// Replace the file or symlink at `to` (never a folder). Its old version is kept under a
    /// temp name (a hard link) until the commit point. When false, an entry that appears at
    /// `to` meanwhile makes the transfer fail (`AlreadyExists`) and nothing changes.
    pub replace: bool,
    /// A move: the source entry (checked for writing), renamed aside once the copy is in
    /// place and removed after the commit point.
    pub aside: Option<&'a CheckedPath>,
}

/// `(root, folder relative to it, name)` of the entry a checked path names.
fn split(p: &CheckedPath) -> io::Result<(PathBuf, PathBuf, OsString)> {
    let rel = p.real.strip_prefix(&p.base).unwrap_or(Path::new(""));
    match (rel.parent(), rel.file_name()) {
        (Some(dir), Some(name)) => Ok((p.base.clone(), dir.to_path_buf(), name.to_os_string())),
        _ => Err(io::Error::other(format!("{} is a root folder", p.spelled))),
    }
}

/// Copies an entry into place (and removes the source of a move), all or nothing across a
/// crash: `build` makes the copy under a temp name beside `t.to` while the journal is in P;
/// in C the copy is renamed into place and the source renamed aside; at the commit point (D)
/// the set-aside source and the replaced destination's old version are deleted. On error
/// nothing changed, or what changed was put back ([`CommitError::left`]); a termination
/// signal caught by `stop` before the commit point ends it the same way. The caller holds
/// the path locks of both ends.
pub fn transfer(
    fs: &Fs,
    t: &Transfer<'_>,
    build: &mut Build<'_>,
    stop: &Stop,
) -> Result<(), CommitError> {
    let fail = |error, left| CommitError {
        index: 0,
        error,
        left,
    };
    let (base, dir, name) = split(t.to).map_err(|e| fail(e, Left::Untouched))?;
    let (_, missing) = missing_dirs(fs, &base, &dir).map_err(|e| fail(e, Left::Untouched))?;
    let temp = temp_name(&name);
    let backup = t.replace.then(|| temp_name(&name));
    let mut steps: Vec<Step> = missing
        .into_iter()
        .map(|d| Step::Mkdir {
            base: base.clone(),
            dir: d,
        })
        .collect();
    steps.push(Step::Tree {
        base: base.clone(),
        dir: dir.clone(),
        temp: temp.clone(),
    });
    steps.push(Step::Place {
        base: base.clone(),
        dir: dir.clone(),
        temp: temp.clone(),
        name: name.clone(),
        backup: backup.clone(),
    });
    let aside = match t.aside {
        Some(src) => {
            let (b, d, n) = split(src).map_err(|e| fail(e, Left::Untouched))?;
            let step = Step::Aside {
                base: b.clone(),
                dir: d.clone(),
                temp: temp_name(&n),
                name: n.clone(),
            };
            steps.push(step.clone());
            Some(step)
        }
        None => None,
    };
    let mut record = Record {
        state: State::Preparing,
        pid: std::process::id(),
        steps,
    };
    let jdir = match fs.journal_dir(true) {
        Ok(Some(d)) => d,
        Ok(None) => return Err(fail(io::Error::other("no journal folder"), Left::Untouched)),
        Err(e) => return Err(fail(e, Left::Untouched)),
    };
    let journal = Journal::create(&jdir, &record, true).map_err(|e| fail(e, Left::Untouched))?;
    let mut dirs = Dirs::new(fs);

    // P: folders, the copy under its temp name, the backup of a replaced destination.
    let prepared = (|| -> io::Result<Dir> {
        crash_point()?;
        for step in &record.steps {
            if let Step::Mkdir { base, dir } = step {
                make_dir(&mut dirs, base, dir)?;
            }
        }
        crash_point()?;
        let to = dirs.get(&base, &dir)?.try_clone()?;
        build(&to, &temp, stop)?;
        to.sync()?;
        crash_point()?;
        if let Some(b) = &backup {
            keep_backup(&to, &name, b, None)?;
            crash_point()?;
        }
        stop.check()?;
        journal.set_state(State::Committing)?;
        crash_point()?;
        Ok(to)
    })();
    let to = match prepared {
        Ok(to) => to,
        Err(e) if is_crash(&e) => return Err(fail(e, Left::Untouched)),
        Err(error) => {
            dirs.known_only = true;
            let left = match roll_back(&mut dirs, &record).and_then(|_| journal.finish()) {
                Ok(()) => Left::Untouched,
                Err(e) => Left::Broken(e),
            };
            return Err(fail(error, left));
        }
    };
    record.state = State::Committing;

    // C: the copy into place, the source aside; then the commit point.
    let applied = (|| -> io::Result<()> {
        if backup.is_some() {
            to.rename(&temp, &to, &name)?;
        } else {
            to.rename_new(&temp, &to, &name)?;
        }
        crash_point()?;
        if let Some(Step::Aside {
            base,
            dir,
            name,
            temp,
            ..
        }) = &aside
        {
            let from = dirs.get(base, dir)?;
            from.rename_new(name, from, temp)?;
            crash_point()?;
            from.sync()?;
        }
        to.sync()?;
        crash_point()?;
        journal.set_state(State::Done)?;
        crash_point()
    })();
    match applied {
        Ok(()) => {}
        Err(e) if is_crash(&e) => return Err(fail(e, Left::Untouched)),
        Err(error) => {
            let left = match roll_back(&mut dirs, &record).and_then(|_| journal.finish()) {
                Ok(()) => Left::Restored,
                Err(e) => Left::Broken(e),
            };
            return Err(fail(error, left));
        }
    }
    record.state = State::Done;

    // D: committed. What is left to delete goes now; if that fails, the journal stays and the
    // next call finishes it; the transfer itself stands.
    if roll_forward(&mut dirs, &record).is_ok() {
        if let Err(e) = crash_point() {
            return Err(fail(e, Left::Untouched));
        }
        let _ = journal.finish();
    }
    Ok(())
}

/// A simulated kill (unit tests only): the transfer stops where it is, without cleaning up,
/// as if the process had died there.
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))]
struct Crash;

impl std::fmt::Display for Crash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("simulated crash")
    }
}

impl std::error::Error for Crash {}

fn is_crash(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Crash>())
}

#[cfg(test)]
thread_local! {
    /// Crash points still to pass before the simulated kill (`None`: never).
    static CRASH_AFTER: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Arms a simulated kill at the `n`-th crash point from now (unit tests): see [`crash_point`].
#[cfg(test)]
pub(crate) fn crash_after(n: Option<usize>) {
    CRASH_AFTER.with(|c| c.set(n));
}

/// A place where a kill is simulated in unit tests (every step of a [`transfer`], and every
/// entry a builder copies): fails once the armed number of points has passed, and keeps
/// failing. Always `Ok` outside tests.
pub fn crash_point() -> io::Result<()> {
    #[cfg(test)]
    {
        let fire = CRASH_AFTER.with(|c| match c.get() {
            Some(0) => true,
            Some(n) => {
                c.set(Some(n - 1));
                false
            }
            None => false,
        });
        if fire {
            return Err(io::Error::other(Crash));
        }
    }
    Ok(())
}
