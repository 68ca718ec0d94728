//! The private temp folders of sandboxed commands (spec 08: `TMPDIR` is a fresh folder per
//! command, `agtool-cmd-*` in the system's temp folder), and the removal of those whose
//! owner died without removing them (agtool or the session server killed with SIGKILL).
//!
//! Whoever is in charge of a folder (the agtool process running a one-shot `exec`, the
//! session server for a session) holds a shared `flock` on the folder itself for as long as
//! it is in use; the kernel drops it when that process dies, however it dies. [`sweep`] removes
//! a folder only when it can take the lock exclusively, so never one in use.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The name every private temp folder starts with.
pub const PREFIX: &str = "agtool-cmd-";

/// A folder younger than this is never swept: its maker may be between making and locking it.
const YOUNG: Duration = Duration::from_secs(60);

/// How often [`sweep_now_and_then`] looks, at most.
const EVERY: Duration = Duration::from_secs(600);

/// Most folders one sweep looks at.
const MOST: usize = 10_000;

/// A shared lock on the folder `dir` (held until the returned file is dropped), or None when
/// it cannot be opened or locked (the folder is then only removed by its maker).
pub fn hold(dir: &Path) -> Option<File> {
    let file = File::open(dir).ok()?;
    file.try_lock_shared().ok()?;
    Some(file)
}

/// Whether `dir` may be one of these folders: a folder (not a symlink) named with [`PREFIX`]
/// and owned by this user.
pub fn is_private_tmp(dir: &Path) -> bool {
    let named = dir
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(PREFIX.as_bytes()));
    named
        && std::fs::symlink_metadata(dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == rustix::process::geteuid().as_raw())
}

/// Removes `path` and what is in it, but only entries this user owns, never following a
/// symlink: a command (root without its capabilities, in the sandbox) could move another
/// user's folder into its `TMPDIR`, or put one in its place, and a removal with agtool's full
/// rights deleted files the command itself could not. What is left stays. At most 256 levels.
pub fn remove_own(path: &Path) {
    remove_own_at(path, rustix::process::geteuid().as_raw(), 0);
}

fn remove_own_at(path: &Path, uid: u32, depth: usize) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if meta.uid() != uid || depth > 256 {
        return;
    }
    if meta.is_dir() {
        if let Ok(entries) = std::fs::read_dir(path) {
            for entry in entries.flatten() {
                remove_own_at(&entry.path(), uid, depth + 1);
            }
        }
        let _ = std::fs::remove_dir(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes this user's private temp folders in `base` that nobody holds (see the module
/// doc). Returns how many went. Best effort: what cannot be removed stays.
pub fn sweep(base: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(base) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten().take(MOST) {
        let dir: PathBuf = entry.path();
        if !is_private_tmp(&dir) {
            continue;
        }
        let young = std::fs::symlink_metadata(&dir)
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).unwrap_or_default() < YOUNG);
        if young {
            continue;
        }
        let Ok(file) = File::open(&dir) else { continue };
        if file.try_lock().is_err() {
            continue; // in use
        }
        remove_own(&dir);
        if !dir.exists() {
            removed += 1;
        }
    }
    removed
}

/// [`sweep`] of the system's temp folder, at most once every ten minutes per user (a stamp
/// file beside the folders says when it last ran).
pub fn sweep_now_and_then() {
    let base = std::env::temp_dir();
    let stamp = base.join(format!(
        "{PREFIX}sweep-{}",
        rustix::process::geteuid().as_raw()
    ));
    let recent = std::fs::symlink_metadata(&stamp)
        .and_then(|m| m.modified())
        .is_ok_and(|t| SystemTime::now().duration_since(t).unwrap_or_default() < EVERY);
    if recent {
        return;
    }
    // A stamp that is not a plain file of ours (a symlink planted by someone) is left alone,
    // and then no sweep runs from here.
    match std::fs::symlink_metadata(&stamp) {
        Ok(m) if !m.is_file() || m.uid() != rustix::process::geteuid().as_raw() => return,
        _ => {}
    }
    {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&stamp);
    }
    sweep(&base);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_this_user_owns_is_removed() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join(format!("{PREFIX}x"));
        std::fs::create_dir_all(dir.join("own/deeper")).unwrap();
        std::fs::write(dir.join("own/deeper/f"), "x").unwrap();
        let outside = base.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("keep"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        let mine = rustix::process::geteuid().as_raw();
        let theirs = std::fs::metadata(&dir).unwrap().uid() == 0;
        if theirs {
            // As root: a folder of another user moved in stays, with what is in it.
            let other = dir.join("other");
            std::fs::create_dir(&other).unwrap();
            std::fs::write(other.join("f"), "x").unwrap();
            std::os::unix::fs::chown(other.join("f"), Some(1000), Some(1000)).unwrap();
            std::os::unix::fs::chown(&other, Some(1000), Some(1000)).unwrap();
            remove_own(&dir);
            assert!(other.join("f").exists());
            assert!(!dir.join("own").exists());
        } else {
            assert_ne!(mine, 0);
            remove_own(&dir);
            assert!(!dir.exists());
        }
        // The symlink went, not what it leads to.
        assert!(outside.join("keep").exists());
        assert!(!dir.join("link").exists());
    }

    #[test]
    fn only_unheld_old_folders_of_this_user_go() {
        let base = tempfile::tempdir().unwrap();
        let held = base.path().join(format!("{PREFIX}held"));
        let free = base.path().join(format!("{PREFIX}free"));
        let young = base.path().join(format!("{PREFIX}young"));
        let other = base.path().join("other-folder");
        for d in [&held, &free, &young, &other] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("f"), "x").unwrap();
        }
        let old = SystemTime::now() - Duration::from_secs(3600);
        for d in [&held, &free, &other] {
            File::open(d).unwrap().set_modified(old).unwrap();
        }
        // A symlink with the name leads elsewhere: never followed, never removed.
        std::os::unix::fs::symlink(&other, base.path().join(format!("{PREFIX}link"))).unwrap();
        let lock = hold(&held).unwrap();
        assert_eq!(sweep(base.path()), 1);
        assert!(held.exists() && young.exists() && other.join("f").exists());
        assert!(!free.exists());
        drop(lock);
        assert_eq!(sweep(base.path()), 1);
        assert!(!held.exists());
    }
}
