//! Atomic writes of one file (spec 01, "File layer"): a temp file `.<name>.agtool-<pid>-<n>`
//! in the target's own folder is written, fsynced and renamed over the target, then the folder
//! is fsynced. A reader sees the old or the new file, never a mix. Everything is reached
//! through the file layer's handles ([`crate::fileio::fs`]), so no symlink swapped in after
//! the policy check is followed.
//!
//! Before the temp file is created, a note naming it is left in the journal folder
//! ([`TempNote`]), so the next agtool call removes the temp file of a killed process. A
//! termination signal during the write ([`Stop`]) removes the temp file and ends the call with
//! [`ErrorKind::Interrupted`](crate::error::ErrorKind::Interrupted). Writes that touch several
//! files go through the journal ([`crate::fileio::journal::commit`]).
//!
//! A write replaces the target's directory entry and never writes into the old inode, so a
//! hard link inside the workspace to an outside file's inode is replaced by the new file; the
//! outside file keeps its content.

use std::io;

use crate::fileio::beneath::{Kind, temp_name};
use crate::fileio::fs::{Fs, Located, Stop, existing_mode, fill};
use crate::fileio::journal::TempNote;
use crate::workspace::policy::CheckedPath;

/// Writes `bytes` to `p`'s resolved path atomically (module doc), creating missing parent
/// folders; a file that does not exist yet gets `new_mode` (default 0666 less the umask).
/// A symlink is written through (the policy resolved it), never replaced. Errors are the
/// filesystem's (see [`crate::fileio::fs::describe`]) or
/// [`crate::fileio::fs::Interrupted`]; on any error nothing is left behind.
pub fn write_file(
    fs: &Fs,
    p: &CheckedPath,
    parts: &[&[u8]],
    new_mode: Option<u32>,
    stop: &Stop,
) -> io::Result<()> {
    let (loc, created) = fs.make_parent(p)?;
    let result = write_located(fs, &loc, parts, new_mode, stop);
    if result.is_err() {
        fs.remove_created(&loc.base, &created);
    }
    result
}

/// Writes `parts` atomically as the entry `loc.name` of the already open folder `loc.dir`
/// (module doc): for a store that keeps one handle on its folder (the notes store). An
/// existing file keeps its mode, a new one gets `new_mode` (default 0666 less the umask); a
/// symlink or folder at the name is an error. On any error nothing is left behind.
pub fn write_at(
    fs: &Fs,
    loc: &Located,
    parts: &[&[u8]],
    new_mode: Option<u32>,
    stop: &Stop,
) -> io::Result<()> {
    write_located(fs, loc, parts, new_mode, stop)
}

fn write_located(
    fs: &Fs,
    loc: &Located,
    parts: &[&[u8]],
    new_mode: Option<u32>,
    stop: &Stop,
) -> io::Result<()> {
    let existed = loc.dir.stat_at(&loc.name).is_ok();
    let mode = existing_mode(&loc.dir, &loc.name, new_mode)?;
    let temp = temp_name(&loc.name);
    let _note = TempNote::begin(fs, &loc.base, &loc.dir_rel, &temp);
    let mut file = loc.dir.create_new(&temp, 0o666)?;
    let result = fill(&mut file, parts, mode, stop).and_then(|()| {
        drop(file);
        if existed {
            loc.dir.rename(&temp, &loc.dir, &loc.name)?;
        } else {
            // A new file replaces nothing: one that appeared meanwhile stays.
            loc.dir
                .rename_new(&temp, &loc.dir, &loc.name)
                .map_err(crate::fileio::journal::appeared)?;
        }
        loc.dir.sync()
    });
    if result.is_err() {
        let _ = loc.dir.unlink(&temp);
    }
    result
}

/// Removes the entry `p` names: a final symlink is removed itself (its target is untouched),
/// anything else at the resolved path. Not for folders.
pub fn remove_file(fs: &Fs, p: &CheckedPath) -> io::Result<()> {
    let loc = if p.entry != p.real {
        fs.entry_parent(p)?
    } else {
        fs.parent(p)?
    };
    if loc.dir.stat_at(&loc.name)?.kind == Kind::Dir {
        return Err(io::Error::other(format!("{} is a directory", p.spelled)));
    }
    loc.dir.unlink(&loc.name)?;
    loc.dir.sync()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fileio::beneath::is_swapped;
    use crate::fileio::fs::describe;
    use crate::workspace::policy::{Access, PathPolicy};
    use std::ffi::OsString;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::fs::symlink;
    use std::path::PathBuf;

    struct Fixture {
        _t: tempfile::TempDir,
        root: PathBuf,
        policy: PathPolicy,
        fs: Fs,
    }

    fn fixture() -> Fixture {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let policy = PathPolicy::new(&root, &[], &[], &[], None);
        let fs = Fs::new(&root, policy.write_bases());
        Fixture {
            _t: t,
            root,
            policy,
            fs,
        }
    }

    impl Fixture {
        fn write(&self, spelled: &str, bytes: &[u8]) -> io::Result<()> {
            let p = self
                .policy
                .check(&self.root, spelled, Access::Write)
                .unwrap();
            write_file(&self.fs, &p, &[bytes], None, &Stop::never())
        }
    }

    #[test]
    fn keeps_mode_and_leaves_no_temp() {
        let f = fixture();
        let file = f.root.join("run.sh");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        f.write("run.sh", b"new").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o755);
        let names: Vec<_> = std::fs::read_dir(&f.root)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .filter(|n| n != ".agent-state")
            .collect();
        assert_eq!(names, vec![OsString::from("run.sh")]);
    }

    #[test]
    fn creates_parents_and_refuses_directories() {
        let f = fixture();
        f.write("a/b/c.txt", b"x").unwrap();
        assert_eq!(std::fs::read(f.root.join("a/b/c.txt")).unwrap(), b"x");
        assert!(f.write("a", b"x").is_err());
    }

    #[test]
    fn new_mode_applies_only_to_a_new_file() {
        let f = fixture();
        let p = f.policy.check(&f.root, "new.sh", Access::Write).unwrap();
        write_file(&f.fs, &p, &[b"x"], Some(0o750), &Stop::never()).unwrap();
        let file = f.root.join("new.sh");
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o750
        );
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_file(&f.fs, &p, &[b"y"], Some(0o755), &Stop::never()).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let f = fixture();
        std::fs::write(f.root.join("real.txt"), "old").unwrap();
        symlink("real.txt", f.root.join("link.txt")).unwrap();
        f.write("link.txt", b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(f.root.join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(f.root.join("real.txt")).unwrap(), b"new");
    }

    #[test]
    fn a_folder_swapped_after_the_check_fails_the_write() {
        let f = fixture();
        let outside = f.root.parent().unwrap().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::create_dir_all(f.root.join("d")).unwrap();
        let p = f.policy.check(&f.root, "d/x.txt", Access::Write).unwrap();
        std::fs::remove_dir(f.root.join("d")).unwrap();
        symlink(&outside, f.root.join("d")).unwrap();
        let e = write_file(&f.fs, &p, &[b"x"], None, &Stop::never()).unwrap_err();
        assert!(is_swapped(&e), "{e}");
        assert!(describe(&e).contains("replaced by a symlink"));
        assert!(!outside.join("x.txt").exists());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }

    #[test]
    fn a_hard_link_to_an_outside_inode_is_replaced_not_written_into() {
        let f = fixture();
        let outside = f.root.parent().unwrap().join("outside.txt");
        std::fs::write(&outside, "outside").unwrap();
        std::fs::hard_link(&outside, f.root.join("linked.txt")).unwrap();
        f.write("linked.txt", b"new").unwrap();
        assert_eq!(std::fs::read(&outside).unwrap(), b"outside");
        assert_eq!(std::fs::read(f.root.join("linked.txt")).unwrap(), b"new");
    }

    #[test]
    fn remove_file_removes_a_link_not_its_target() {
        let f = fixture();
        std::fs::write(f.root.join("real.txt"), "x").unwrap();
        symlink("real.txt", f.root.join("link.txt")).unwrap();
        let p = f.policy.check(&f.root, "link.txt", Access::Write).unwrap();
        remove_file(&f.fs, &p).unwrap();
        assert!(f.root.join("real.txt").exists());
        assert!(std::fs::symlink_metadata(f.root.join("link.txt")).is_err());
    }
}
