//! Copying one entry through directory handles: a regular file (its bytes, in chunks), a
//! symlink (its text, never followed) or a folder with everything a listing found in it
//! ([`crate::fileio::tree::list_with`]). The builder of [`crate::fileio::journal::transfer`]
//! for move-path across filesystems and copy-path ([`crate::fileio::transfer`]).
//!
//! What is kept is [`Keep`]'s choice: a move keeps every permission bit and the modification
//! times; a copy keeps the permission bits without setuid and setgid, and gets new times.
//! A single file is fsynced; a folder tree is flushed once it is whole, with one `syncfs` of
//! the destination's filesystem (an `fsync` per file costs a journal commit each: 25 times
//! slower on 1,000 small files). A folder's own mode is set after what is in it, so a
//! read-only folder is copied too.

use std::ffi::OsStr;
use std::fs::Permissions;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::Stop;
use crate::fileio::journal;
use crate::fileio::tree::Listing;
use crate::text::path_escape::encode_path;

/// Bytes copied between two checks for a termination signal.
const CHUNK: u64 = 4 << 20;

/// What is kept of the source's metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// A move: every permission bit and the modification times.
    All,
    /// A copy: the permission bits without setuid and setgid; new modification times.
    Permissions,
}

impl Keep {
    /// The permission bits a copy of an entry with `mode` gets.
    pub fn mode(self, mode: u32) -> u32 {
        match self {
            Keep::All => mode & 0o7777,
            Keep::Permissions => mode & 0o1777,
        }
    }
}

/// Copies the entry `name` of `from` (of kind `kind`; a folder with the entries of `listing`)
/// to the new entry `temp` of `to`. Never follows a symlink; refuses special files. Crash
/// points ([`journal::crash_point`]) after each entry.
#[allow(clippy::too_many_arguments)]
pub fn copy_entry(
    from: &Dir,
    name: &OsStr,
    kind: Kind,
    listing: &Listing,
    to: &Dir,
    temp: &OsStr,
    keep: Keep,
    stop: &Stop,
) -> io::Result<()> {
    match kind {
        Kind::File => copy_file(from, name, to, temp, keep, stop).and_then(|f| f.sync_all()),
        Kind::Symlink => copy_link(from, name, to, temp, keep),
        Kind::Dir => copy_tree(from, name, listing, to, temp, keep, stop),
        other => Err(special(Path::new(name), other)),
    }
}

fn special(rel: &Path, kind: Kind) -> io::Error {
    io::Error::other(format!(
        "{} is a {}, which agtool does not copy",
        encode_path(rel),
        kind.name()
    ))
}

/// Copies a regular file's bytes (in chunks, stopping for a signal) and its mode as `keep`
/// says; returns the new file, not yet synced.
fn copy_file(
    from: &Dir,
    name: &OsStr,
    to: &Dir,
    temp: &OsStr,
    keep: Keep,
    stop: &Stop,
) -> io::Result<std::fs::File> {
    let input = from.open_file(Path::new(name))?;
    let meta = input.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other(format!(
            "{} is a {}, which agtool does not copy",
            encode_path(Path::new(name)),
            crate::fileio::fs::kind_name(&meta.file_type())
        )));
    }
    let mut out = to.create_new(temp, 0o600)?;
    copy_data(&input, &mut out, meta.len(), stop)?;
    out.set_permissions(Permissions::from_mode(keep.mode(meta.mode())))?;
    if keep == Keep::All {
        out.set_modified(meta.modified()?)?;
    }
    Ok(out)
}

/// Copies the first `len` bytes of `input` into the new, empty `out`, keeping holes: only
/// the data extents (`SEEK_DATA` / `SEEK_HOLE`) are copied, with `copy_file_range` (in the
/// kernel; a reflink where the filesystem shares extents) or, where that is refused, reads
/// and writes at offsets; `out` gets `input`'s length at the end, so a trailing hole stays one
/// (issue 17, item 5: a 64 GiB sparse file was copied as 64 GiB of zeros). `stop` is checked
/// every [`CHUNK`] bytes. A filesystem without hole reporting is copied as one extent.
fn copy_data(
    input: &std::fs::File,
    out: &mut std::fs::File,
    len: u64,
    stop: &Stop,
) -> io::Result<()> {
    use rustix::fs::{SeekFrom, seek};
    let mut pos = 0u64;
    let mut in_kernel = true;
    while pos < len {
        stop.check()?;
        let data = match seek(input, SeekFrom::Data(pos)) {
            Ok(d) => d,
            Err(rustix::io::Errno::NXIO) => break, // only a hole is left
            Err(rustix::io::Errno::INVAL) | Err(rustix::io::Errno::OPNOTSUPP) => pos,
            Err(e) => return Err(e.into()),
        };
        if data >= len {
            break;
        }
        let end = match seek(input, SeekFrom::Hole(data)) {
            Ok(h) => h.min(len),
            Err(_) => len,
        };
        let mut at = data;
        while at < end {
            stop.check()?;
            let want = (end - at).min(CHUNK) as usize;
            let n = if in_kernel {
                let (mut off_in, mut off_out) = (at, at);
                match rustix::fs::copy_file_range(
                    input,
                    Some(&mut off_in),
                    &*out,
                    Some(&mut off_out),
                    want,
                ) {
                    Ok(n) => n,
                    Err(
                        rustix::io::Errno::XDEV
                        | rustix::io::Errno::NOSYS
                        | rustix::io::Errno::INVAL
                        | rustix::io::Errno::OPNOTSUPP,
                    ) => {
                        in_kernel = false;
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                }
            } else {
                copy_at(input, out, at, want)?
            };
            if n == 0 {
                break; // the source shrank meanwhile
            }
            at += n as u64;
        }
        pos = end.max(at);
    }
    out.set_len(len)?;
    Ok(())
}

/// Reads up to `want` bytes of `input` at `at` and writes them at the same offset of `out`;
/// returns how many (0 at the end of `input`).
fn copy_at(input: &std::fs::File, out: &std::fs::File, at: u64, want: usize) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; want.min(1 << 20)];
    let n = loop {
        match input.read_at(&mut buf, at) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => break r?,
        }
    };
    out.write_all_at(&buf[..n], at)?;
    Ok(n)
}

/// Makes `temp` a symlink with the same text as `name` (never followed).
fn copy_link(from: &Dir, name: &OsStr, to: &Dir, temp: &OsStr, keep: Keep) -> io::Result<()> {
    to.symlink(&from.read_link(name)?, temp)?;
    if keep == Keep::All {
        to.set_mtime_at(temp, from.stat_at(name)?.mtime)?;
    }
    Ok(())
}

/// A handle on the folder `rel` below `top`, reusing the last one opened.
fn cached<'c>(top: &Dir, cache: &'c mut Option<(PathBuf, Dir)>, rel: &Path) -> io::Result<&'c Dir> {
    if cache.as_ref().is_none_or(|(p, _)| p != rel) {
        *cache = Some((rel.to_path_buf(), top.open_dir(rel)?));
    }
    Ok(&cache.as_ref().expect("just set").1)
}

/// Copies the folder `name` of `from` and everything `listing` found in it to the new folder
/// `temp` of `to`: folders first (made writable for us), then each file and link, then each
/// folder's own mode (and, for a move, time), innermost first; then one flush of the filesystem.
fn copy_tree(
    from: &Dir,
    name: &OsStr,
    listing: &Listing,
    to: &Dir,
    temp: &OsStr,
    keep: Keep,
    stop: &Stop,
) -> io::Result<()> {
    let src_top = from.open_dir(Path::new(name))?;
    to.mkdir(temp, 0o700)?;
    let dst_top = to.open_dir(Path::new(temp))?;
    let (mut src_at, mut dst_at) = (None, None);
    // The listing has children right before their folder: backwards, every folder comes
    // before what is in it.
    for e in listing.entries.iter().rev() {
        stop.check()?;
        let (Some(parent), Some(leaf)) = (e.rel.parent(), e.rel.file_name()) else {
            continue;
        };
        let d = cached(&dst_top, &mut dst_at, parent)?;
        match e.kind {
            Kind::Dir => d.mkdir(leaf, 0o700)?,
            Kind::File => {
                copy_file(
                    cached(&src_top, &mut src_at, parent)?,
                    leaf,
                    d,
                    leaf,
                    keep,
                    stop,
                )?;
            }
            Kind::Symlink => {
                copy_link(cached(&src_top, &mut src_at, parent)?, leaf, d, leaf, keep)?
            }
            other => return Err(special(&e.rel, other)),
        }
        journal::crash_point()?;
    }
    // Folder modes and times last, innermost first: a read-only folder is filled before it
    // becomes read-only, and nothing made in a folder after its time is set.
    for e in listing.entries.iter().filter(|e| e.kind == Kind::Dir) {
        let st = src_top.stat(&e.rel)?;
        let d = dst_top.open_dir(&e.rel)?;
        d.set_mode(keep.mode(st.mode))?;
        if keep == Keep::All
            && let (Some(parent), Some(leaf)) = (e.rel.parent(), e.rel.file_name())
        {
            dst_top.open_dir(parent)?.set_mtime_at(leaf, st.mtime)?;
        }
    }
    let st = from.stat_at(name)?;
    dst_top.set_mode(keep.mode(st.mode))?;
    if keep == Keep::All {
        to.set_mtime_at(temp, st.mtime)?;
    }
    // Everything in the tree reaches the disk before the journal may commit it.
    dst_top.sync_filesystem()
}

#[cfg(test)]
mod tests {
    //! Kills at every step of a transfer (spec 01 "Races and crashes"): the journal's crash
    //! points stop a real transfer where it is, as a SIGKILL would; recovery must then leave
    //! the old state or the new one, with no temp file and no journal.
    use super::*;
    use crate::fileio::fs::Fs;
    use crate::fileio::journal::{Left, Transfer, crash_after, recover, transfer};
    use crate::fileio::tree::{Verdict, list_with};
    use crate::workspace::policy::{Access, CheckedPath, PathPolicy};
    use std::collections::BTreeMap;
    use std::os::unix::fs::symlink;

    struct Fixture {
        _t: tempfile::TempDir,
        root: PathBuf,
        policy: PathPolicy,
        fs: Fs,
    }

    /// What a tree holds, for comparing: path → kind, bytes or link text, and mode.
    type Snapshot = BTreeMap<String, (String, Vec<u8>, u32)>;

    fn fixture() -> Fixture {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap().join("ws");
        std::fs::create_dir_all(root.join("src/sub/deep")).unwrap();
        std::fs::create_dir_all(root.join("src/empty")).unwrap();
        std::fs::write(root.join("src/a.txt"), "a\n").unwrap();
        std::fs::write(root.join("src/sub/b.sh"), "b\n").unwrap();
        std::fs::set_permissions(
            root.join("src/sub/b.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::fs::write(root.join("src/sub/deep/c.txt"), "c\n").unwrap();
        symlink("../../outside", root.join("src/sub/out")).unwrap();
        std::fs::write(root.join("old.txt"), "old\n").unwrap();
        std::fs::write(root.join("keep.txt"), "keep\n").unwrap();
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
        fn entry(&self, s: &str) -> CheckedPath {
            self.policy
                .check_entry(&self.root, s, Access::Write)
                .unwrap()
        }

        fn snapshot(&self) -> Snapshot {
            let mut out = Snapshot::new();
            snap(&self.root, Path::new(""), &mut out);
            out
        }

        fn listing(&self, rel: &str) -> Listing {
            let top = Dir::open_root(&self.root.join(rel)).unwrap();
            list_with(&top, &|_| Verdict::Take).unwrap()
        }

        /// Runs one transfer of `from` (a move when `aside`) to `to`, with a simulated kill at
        /// crash point `k` (`None`: none). `Ok(true)`: it ran to its end.
        fn run(&self, from: &str, to: &str, aside: bool, replace: bool, k: Option<usize>) -> bool {
            let src = self.entry(from);
            let dst = self.entry(to);
            let st = self.fs.stat(&src).unwrap();
            let listing = if st.kind == Kind::Dir {
                self.listing(from)
            } else {
                Listing::default()
            };
            let loc = self.fs.parent(&src).unwrap();
            let keep = if aside { Keep::All } else { Keep::Permissions };
            let t = Transfer {
                to: &dst,
                replace,
                aside: aside.then_some(&src),
            };
            let mut build = |into: &Dir, temp: &OsStr, stop: &Stop| {
                copy_entry(
                    &loc.dir, &loc.name, st.kind, &listing, into, temp, keep, stop,
                )
            };
            crash_after(k);
            let r = transfer(&self.fs, &t, &mut build, &Stop::never());
            crash_after(None);
            match r {
                Ok(()) => true,
                Err(e) => {
                    assert_eq!(e.error.to_string(), "simulated crash", "{e:?}");
                    false
                }
            }
        }

        fn journals(&self) -> usize {
            std::fs::read_dir(self.root.join(".agent-state/journal"))
                .map(|r| r.flatten().filter(|e| e.file_name() != "lock").count())
                .unwrap_or(0)
        }
    }

    fn snap(root: &Path, rel: &Path, out: &mut Snapshot) {
        for e in std::fs::read_dir(root.join(rel)).unwrap().flatten() {
            let name = e.file_name();
            if rel.as_os_str().is_empty() && name == ".agent-state" {
                continue;
            }
            let r = rel.join(&name);
            let meta = std::fs::symlink_metadata(root.join(&r)).unwrap();
            let mode = meta.mode() & 0o7777;
            let key = r.to_string_lossy().into_owned();
            if meta.file_type().is_symlink() {
                let t = std::fs::read_link(root.join(&r)).unwrap();
                out.insert(
                    key,
                    ("link".into(), t.into_os_string().into_encoded_bytes(), 0),
                );
            } else if meta.is_dir() {
                out.insert(key, ("dir".into(), Vec::new(), mode));
                snap(root, &r, out);
            } else {
                out.insert(
                    key,
                    ("file".into(), std::fs::read(root.join(&r)).unwrap(), mode),
                );
            }
        }
    }

    /// This process's umask, read without changing it.
    fn umask() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
        u32::from_str_radix(line.trim_start_matches("Umask:").trim(), 8).unwrap()
    }

    /// `snapshot` with every path under `from` also (copy) or only (move) under `to`.
    fn moved(old: &Snapshot, from: &str, to: &str, keep_source: bool) -> Snapshot {
        let mut out = Snapshot::new();
        for (k, v) in old {
            let under = k == from || k.starts_with(&format!("{from}/"));
            if under {
                out.insert(format!("{to}{}", &k[from.len()..]), v.clone());
            }
            if !under || keep_source {
                out.insert(k.clone(), v.clone());
            }
        }
        out
    }

    /// For k = 0, 1, 2, ...: a fresh fixture, a transfer killed at crash point k, recovery;
    /// then the tree must be all old or all new. Returns (kills, rolled back, rolled forward).
    fn kill_everywhere(
        prepare: impl Fn(&Fixture),
        go: impl Fn(&Fixture, Option<usize>) -> bool,
        expect_new: impl Fn(&Snapshot) -> Snapshot,
    ) -> (usize, usize, usize) {
        let (mut back, mut forward) = (0, 0);
        for k in 0.. {
            let f = fixture();
            prepare(&f);
            let old = f.snapshot();
            let new = expect_new(&old);
            if go(&f, Some(k)) {
                assert_eq!(f.snapshot(), new, "a transfer without a kill");
                return (k, back, forward);
            }
            let said = recover(&f.fs, &|p| p.display().to_string());
            let now = f.snapshot();
            if now == old {
                back += 1;
            } else if now == new {
                forward += 1;
            } else {
                panic!(
                    "kill at point {k}: neither old nor new after recovery ({said:?})\nnow: {now:#?}"
                );
            }
            assert_eq!(
                f.journals(),
                0,
                "kill at point {k}: a journal is left ({said:?})"
            );
            assert!(
                recover(&f.fs, &|p| p.display().to_string()).is_empty(),
                "kill at point {k}: a second recovery found work"
            );
            assert!(k < 200, "no end to the crash points");
        }
        unreachable!()
    }

    #[test]
    fn a_kill_at_every_step_of_a_folder_move_is_all_or_nothing() {
        // Into a folder that does not exist yet, so the journal also makes (and unmakes) it.
        let (kills, back, forward) = kill_everywhere(
            |_| {},
            |f, k| f.run("src", "new/dst", true, false, k),
            |old| {
                let mut new = moved(old, "src", "new/dst", false);
                new.insert("new".into(), ("dir".into(), Vec::new(), 0o777 & !umask()));
                new
            },
        );
        eprintln!("folder move: {kills} kill points: {back} rolled back, {forward} rolled forward");
        assert!(kills > 10 && back > 0 && forward > 0);
    }

    #[test]
    fn a_kill_at_every_step_of_a_folder_copy_is_all_or_nothing() {
        let (kills, back, forward) = kill_everywhere(
            |_| {},
            |f, k| f.run("src", "dst", false, false, k),
            |old| moved(old, "src", "dst", true),
        );
        eprintln!("folder copy: {kills} kill points: {back} rolled back, {forward} rolled forward");
        assert!(kills > 10 && back > 0 && forward > 0);
    }

    #[test]
    fn a_kill_at_every_step_of_a_replacing_file_move_is_all_or_nothing() {
        let (kills, back, forward) = kill_everywhere(
            |_| {},
            |f, k| f.run("keep.txt", "old.txt", true, true, k),
            |old| {
                let mut new = old.clone();
                let v = new.remove("keep.txt").unwrap();
                new.insert("old.txt".into(), v);
                new
            },
        );
        eprintln!("file move over a file: {kills} kill points: {back} back, {forward} forward");
        assert!(kills > 5 && back > 0 && forward > 0);
    }

    #[test]
    fn a_copy_keeps_modes_but_not_setuid_and_a_move_keeps_times() {
        let f = fixture();
        std::fs::set_permissions(
            f.root.join("src/sub"),
            std::fs::Permissions::from_mode(0o555),
        )
        .unwrap();
        std::fs::set_permissions(
            f.root.join("src/a.txt"),
            std::fs::Permissions::from_mode(0o4755),
        )
        .unwrap();
        std::fs::File::options()
            .write(true)
            .open(f.root.join("src/a.txt"))
            .unwrap()
            .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000))
            .unwrap();
        assert!(f.run("src", "cp", false, false, None));
        let mode = |p: &str| std::fs::symlink_metadata(f.root.join(p)).unwrap().mode() & 0o7777;
        let mtime = |p: &str| std::fs::symlink_metadata(f.root.join(p)).unwrap().mtime();
        assert_eq!(mode("cp/sub"), 0o555);
        assert_eq!(mode("cp/a.txt"), 0o755, "setuid is not copied");
        assert_eq!(mode("cp/sub/b.sh"), 0o755);
        assert_ne!(mtime("cp/a.txt"), 1_000_000_000, "a copy is new");
        assert_eq!(
            std::fs::read_link(f.root.join("cp/sub/out")).unwrap(),
            Path::new("../../outside")
        );
        assert!(f.run("src", "mv", true, false, None));
        assert_eq!(mode("mv/a.txt"), 0o4755, "a move keeps every bit");
        assert_eq!(mtime("mv/a.txt"), 1_000_000_000);
        assert_eq!(mode("mv/sub"), 0o555);
        assert!(!f.root.join("src").exists());
        std::fs::set_permissions(
            f.root.join("cp/sub"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::fs::set_permissions(
            f.root.join("mv/sub"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }

    #[test]
    fn a_destination_that_appears_meanwhile_or_a_source_that_goes_undoes_the_transfer() {
        // Another process makes the destination while the copy is built: nothing changes and
        // its file stays.
        let f = fixture();
        let (src, dst) = (f.entry("src"), f.entry("dst"));
        let listing = f.listing("src");
        let loc = f.fs.parent(&src).unwrap();
        let root = f.root.clone();
        let mut build = |into: &Dir, temp: &OsStr, stop: &Stop| {
            std::fs::write(root.join("dst"), "theirs").unwrap();
            copy_entry(
                &loc.dir,
                &loc.name,
                Kind::Dir,
                &listing,
                into,
                temp,
                Keep::All,
                stop,
            )
        };
        let t = Transfer {
            to: &dst,
            replace: false,
            aside: Some(&src),
        };
        let before = f.snapshot();
        let e = transfer(&f.fs, &t, &mut build, &Stop::never()).unwrap_err();
        assert_eq!(e.error.kind(), io::ErrorKind::AlreadyExists);
        assert!(matches!(e.left, Left::Restored), "{e:?}");
        let mut expect = before.clone();
        expect.insert("dst".into(), ("file".into(), b"theirs".to_vec(), 0o644));
        assert_eq!(f.snapshot(), expect);
        assert_eq!(f.journals(), 0);

        // The source goes while the copy is built: the placed copy is taken back.
        let f = fixture();
        let (src, dst) = (f.entry("src"), f.entry("dst"));
        let listing = f.listing("src");
        let loc = f.fs.parent(&src).unwrap();
        let root = f.root.clone();
        let mut build = |into: &Dir, temp: &OsStr, stop: &Stop| {
            let r = copy_entry(
                &loc.dir,
                &loc.name,
                Kind::Dir,
                &listing,
                into,
                temp,
                Keep::All,
                stop,
            );
            std::fs::rename(root.join("src"), root.join("elsewhere")).unwrap();
            r
        };
        let t = Transfer {
            to: &dst,
            replace: false,
            aside: Some(&src),
        };
        let before = f.snapshot();
        let e = transfer(&f.fs, &t, &mut build, &Stop::never()).unwrap_err();
        assert_eq!(e.error.kind(), io::ErrorKind::NotFound, "{e:?}");
        assert!(matches!(e.left, Left::Restored), "{e:?}");
        assert_eq!(f.snapshot(), moved(&before, "src", "elsewhere", false));
        assert_eq!(f.journals(), 0);
    }
}
