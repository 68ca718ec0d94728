//! The seal of a journal: an HMAC-SHA-256 of its text under a key of this user's that lives
//! outside every workspace, so that recovery acts only on journals this user's agtool wrote.
//!
//! A journal tells recovery to rename and remove entries under names it gives. A journal that
//! arrived with a repository (`.agent-state/journal/` committed and cloned) or was planted by
//! another program would otherwise be obeyed by the next call of any tool, read-only ones
//! included: it could put a folder of its own in place of `.git` or remove `src/`. The key is
//! made once, 32 random bytes, in `$XDG_STATE_HOME/agtool/journal.key`, else
//! `$HOME/.local/state/agtool/journal.key`, else `/tmp/agtool-<uid>/journal.key` (a folder of
//! this user's with mode 0700); the file must be this user's and not readable by others.
//!
//! Every byte of a journal is sealed, its state byte included: the seal sits on the state
//! line (`state C <64 hex digits>`), so moving to the next state rewrites the byte and its seal
//! in one `pwrite` of 66 bytes inside the file's first sector. The sealed text is the journal
//! with those 64 digits read as `0`, followed by the binding: the journal folder (device and
//! inode). The text itself names the journal file (`file <dev> <ino>`, so a copy is another
//! file) and a random nonce (`nonce <32 hex digits>`) that is also registered, as an empty file,
//! in `journals/` beside the key. The writer removes the registration when the journal is done
//! and recovery removes it once it has acted: a journal is usable once, and a copy put back
//! later (its state set to anything) is obeyed in nothing.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use super::STATE_AT;

/// Bytes of the key.
const KEY_BYTES: usize = 32;
/// The key file's name in its folder.
const KEY_NAME: &str = "journal.key";
/// Hex digits of a seal.
pub(super) const SEAL_HEX: usize = 64;
/// Bytes of a nonce (shown as twice as many hex digits).
const NONCE_BYTES: usize = 16;
/// The folder beside the key holding one empty file per live journal, named by its nonce.
const REGISTRY: &str = "journals";

/// The folders the key may live in, first choice first (the exec sandbox hides them all,
/// spec 08).
pub fn key_folders() -> Vec<PathBuf> {
    key_dirs()
}

/// The folders the key may live in, first choice first.
fn key_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").and_then(absolute) {
        out.push(d.join("agtool"));
    }
    if let Some(h) = std::env::var_os("HOME").and_then(absolute) {
        out.push(h.join(".local/state/agtool"));
    }
    out.push(std::env::temp_dir().join(format!("agtool-{}", rustix::process::geteuid().as_raw())));
    out
}

/// Whether `meta` belongs to this user and grants nothing to others (`mode & 0o077 == 0`).
fn private_to_us(meta: &std::fs::Metadata) -> bool {
    meta.uid() == rustix::process::geteuid().as_raw() && meta.mode() & 0o077 == 0
}

/// Reads the key in `dir`; `Ok(None)` when there is none yet.
fn read_key(dir: &Path) -> io::Result<Option<[u8; KEY_BYTES]>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join(KEY_NAME))
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() || !private_to_us(&meta) || meta.len() != KEY_BYTES as u64 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} must be a {KEY_BYTES}-byte file of this user's with mode 0600",
                dir.join(KEY_NAME).display()
            ),
        ));
    }
    let mut key = [0u8; KEY_BYTES];
    (&file).read_exact(&mut key)?;
    Ok(Some(key))
}

/// Makes the key in `dir` (a temp file linked into place, so a racing process that made it
/// first wins and both use that one) and returns it.
fn make_key(dir: &Path) -> io::Result<[u8; KEY_BYTES]> {
    let mut key = [0u8; KEY_BYTES];
    SystemRandom::new()
        .fill(&mut key)
        .map_err(|_| io::Error::other("no random bytes for the journal key"))?;
    let temp = dir.join(format!(".{KEY_NAME}.{}", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let written = (|| {
        let mut f: File = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&temp)?;
        f.write_all(&key)?;
        f.sync_all()?;
        std::fs::hard_link(&temp, dir.join(KEY_NAME))
    })();
    let _ = std::fs::remove_file(&temp);
    match written {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read_key(dir)?
            .ok_or_else(|| io::Error::other("the journal key vanished while it was made")),
        Err(e) => Err(e),
    }
}

/// The key in `dir`, made when missing; the folder is made with mode 0700 and, when it is the
/// shared temp folder's, must be this user's alone.
fn key_in(dir: &Path, shared_tmp: bool) -> io::Result<[u8; KEY_BYTES]> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    if shared_tmp {
        let meta = std::fs::symlink_metadata(dir)?;
        if !meta.is_dir() || !private_to_us(&meta) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is not a folder of this user's alone", dir.display()),
            ));
        }
    }
    match read_key(dir)? {
        Some(key) => Ok(key),
        None => make_key(dir),
    }
}

/// Whether `dir` (made absolute and resolved as far as it exists) lies inside `workspace`: a
/// key there could come with the repository, or be published by it.
fn inside(dir: &Path, workspace: &Path) -> bool {
    let mut probe = dir.to_path_buf();
    let mut rest = Vec::new();
    let resolved = loop {
        if let Ok(r) = std::fs::canonicalize(&probe) {
            break rest.iter().rev().fold(r, |p: PathBuf, c| p.join(c));
        }
        match (probe.file_name().map(|n| n.to_os_string()), probe.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                probe = parent.to_path_buf();
            }
            _ => break dir.to_path_buf(),
        }
    };
    let workspace = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
    resolved.starts_with(workspace)
}

/// This user's key, loaded (or made) once per process, from the first usable folder that is
/// not inside `workspace`, with that folder. Errors say which folders were tried.
fn key(workspace: &Path) -> io::Result<&'static (hmac::Key, PathBuf)> {
    static KEY: OnceLock<Result<(hmac::Key, PathBuf), String>> = OnceLock::new();
    KEY.get_or_init(|| {
        let dirs = key_dirs();
        let last = dirs.len() - 1;
        let mut why = Vec::new();
        for (i, dir) in dirs.iter().enumerate() {
            if inside(dir, workspace) {
                why.push(format!("{}: inside the workspace", dir.display()));
                continue;
            }
            match key_in(dir, i == last) {
                Ok(bytes) => return Ok((hmac::Key::new(hmac::HMAC_SHA256, &bytes), dir.clone())),
                Err(e) => why.push(format!("{}: {e}", dir.display())),
            }
        }
        Err(format!(
            "no key to seal write journals with ({}); set XDG_STATE_HOME to a writable folder",
            why.join("; ")
        ))
    })
    .as_ref()
    .map_err(|e| io::Error::other(e.clone()))
}

/// What a seal is bound to besides the text: the journal folder, by device and inode (a copy
/// of the folder, as in a fresh clone or an unpacked archive, is another folder), and the
/// workspace the key must stay out of.
pub(super) struct Binding<'a> {
    dev: u64,
    ino: u64,
    /// The workspace (the key must stay out of it).
    pub(super) workspace: &'a Path,
}

impl<'a> Binding<'a> {
    /// The binding of journals in `jdir` (`<workspace>/.agent-state/journal`).
    pub(super) fn of(jdir: &'a crate::fileio::beneath::Dir) -> io::Result<Binding<'a>> {
        let st = rustix::fs::fstat(jdir.fd()).map_err(io::Error::from)?;
        let workspace = jdir
            .path()
            .parent()
            .and_then(Path::parent)
            .unwrap_or(jdir.path());
        Ok(Binding {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            workspace,
        })
    }
}

/// Where the seal's digits stand in a journal's text: after `state X ` on the second line.
fn seal_range() -> std::ops::Range<usize> {
    let at = STATE_AT as usize + 2;
    at..at + SEAL_HEX
}

/// `text` with its seal digits read as `0`, followed by the binding.
fn normalized(text: &[u8], bind: &Binding) -> Option<Vec<u8>> {
    let mut out = text.to_vec();
    out.get_mut(seal_range())?.fill(b'0');
    out.extend_from_slice(format!("bound {} {}\n", bind.dev, bind.ino).as_bytes());
    Some(out)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The seal of a journal's `text` (whose seal digits may be anything: they are read as `0`),
/// as 64 hex digits, to stand after `state X `.
pub(super) fn seal_of(text: &[u8], bind: &Binding) -> io::Result<String> {
    let (key, _) = key(bind.workspace)?;
    let data = normalized(text, bind).ok_or_else(|| io::Error::other("journal text too short"))?;
    Ok(hex(hmac::sign(key, &data).as_ref()))
}

/// Whether `bytes` (a whole journal file) carry a valid seal of this user's key over every
/// byte, state byte included. False for a journal without one, with a wrong one, or when there
/// is no key.
pub(super) fn is_sealed(bytes: &[u8], bind: &Binding) -> bool {
    let Some(digits) = bytes.get(seal_range()) else {
        return false;
    };
    if bytes.get(seal_range().end) != Some(&b'\n') {
        return false;
    }
    let Some(tag) = unhex(digits) else {
        return false;
    };
    let Ok((key, _)) = key(bind.workspace) else {
        return false;
    };
    normalized(bytes, bind).is_some_and(|data| hmac::verify(key, &data, &tag).is_ok())
}

fn unhex(digits: &[u8]) -> Option<Vec<u8>> {
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

/// The seal of `data` for `purpose` (a word naming the kind of file, so that a seal of one
/// kind is never taken for another's) under this user's key, as 64 hex digits.
pub(crate) fn seal_for(workspace: &Path, purpose: &str, data: &[u8]) -> io::Result<String> {
    let (key, _) = key(workspace)?;
    let mut ctx = hmac::Context::with_key(key);
    ctx.update(purpose.as_bytes());
    ctx.update(b"\n");
    ctx.update(data);
    Ok(hex(ctx.sign().as_ref()))
}

/// Whether `digits` is the seal [`seal_for`] gives `data` for `purpose`.
pub(crate) fn is_sealed_for(workspace: &Path, purpose: &str, data: &[u8], digits: &[u8]) -> bool {
    let (Ok((key, _)), Some(tag)) = (key(workspace), unhex(digits)) else {
        return false;
    };
    let mut ctx = hmac::Context::with_key(key);
    ctx.update(purpose.as_bytes());
    ctx.update(b"\n");
    ctx.update(data);
    let want = ctx.sign();
    let want = want.as_ref();
    // Compared in constant time, as hmac::verify does.
    want.len() == tag.len() && want.iter().zip(&tag).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// A new random nonce, as hex digits, for a journal's `nonce` line.
pub(super) fn new_nonce() -> io::Result<String> {
    let mut bytes = [0u8; NONCE_BYTES];
    SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| io::Error::other("no random bytes for a journal nonce"))?;
    Ok(hex(&bytes))
}

/// Whether `nonce` has the shape [`new_nonce`] gives (so it is a plain file name).
fn valid_nonce(nonce: &str) -> bool {
    nonce.len() == NONCE_BYTES * 2 && nonce.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The registry folder beside the key, made (mode 0700) when `make`.
fn registry(workspace: &Path, make: bool) -> io::Result<PathBuf> {
    let (_, dir) = key(workspace)?;
    let reg = dir.join(REGISTRY);
    if make {
        match DirBuilder::new().mode(0o700).create(&reg) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let meta = std::fs::symlink_metadata(&reg)?;
    if !meta.is_dir() || !private_to_us(&meta) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is not a folder of this user's alone", reg.display()),
        ));
    }
    Ok(reg)
}

/// Registers a new journal's `nonce` beside the key (an empty file), so recovery may act on
/// it once. `durable`: fsynced with its folder.
pub(super) fn register(workspace: &Path, nonce: &str, durable: bool) -> io::Result<()> {
    if !valid_nonce(nonce) {
        return Err(io::Error::other("bad journal nonce"));
    }
    let reg = registry(workspace, true)?;
    let f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(reg.join(nonce))?;
    if durable {
        f.sync_all()?;
        File::open(&reg)?.sync_all()?;
    }
    Ok(())
}

/// Whether `nonce` is registered: its journal was written and is not used up yet.
pub(super) fn is_registered(workspace: &Path, nonce: &str) -> bool {
    valid_nonce(nonce)
        && registry(workspace, false)
            .is_ok_and(|reg| std::fs::symlink_metadata(reg.join(nonce)).is_ok_and(|m| m.is_file()))
}

/// Uses up `nonce`: its journal is done (finished by its writer, or acted on by recovery).
pub(super) fn unregister(workspace: &Path, nonce: &str) {
    if valid_nonce(nonce)
        && let Ok(reg) = registry(workspace, false)
    {
        let _ = std::fs::remove_file(reg.join(nonce));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text() -> Vec<u8> {
        format!(
            "agtool-journal 2\nstate P {}\npid 7\nnonce {}\nfile 1 2\nmkdir /w a\nend\n",
            "0".repeat(SEAL_HEX),
            "ab".repeat(NONCE_BYTES)
        )
        .into_bytes()
    }

    fn sealed(text: &[u8], bind: &Binding) -> Vec<u8> {
        let mut out = text.to_vec();
        out[seal_range()].copy_from_slice(seal_of(text, bind).unwrap().as_bytes());
        out
    }

    fn bind_dir() -> (tempfile::TempDir, crate::fileio::beneath::Dir) {
        let t = tempfile::tempdir().unwrap();
        let p = std::fs::canonicalize(t.path())
            .unwrap()
            .join("ws/.agent-state/journal");
        std::fs::create_dir_all(&p).unwrap();
        let d = crate::fileio::beneath::Dir::open_root(&p).unwrap();
        (t, d)
    }

    #[test]
    fn every_byte_is_sealed_the_state_byte_too() {
        let (_t, d) = bind_dir();
        let bind = Binding::of(&d).unwrap();
        let bytes = sealed(&text(), &bind);
        assert!(is_sealed(&bytes, &bind));
        let mut moved = bytes.clone();
        moved[STATE_AT as usize] = b'C';
        assert!(!is_sealed(&moved, &bind), "the state byte is sealed");
        // Sealed again for the new state, as Journal::set_state does.
        let resealed = sealed(&moved, &bind);
        assert!(is_sealed(&resealed, &bind));
    }

    #[test]
    fn a_changed_missing_forged_or_moved_seal_fails() {
        let (_t, d) = bind_dir();
        let bind = Binding::of(&d).unwrap();
        assert!(!is_sealed(&text(), &bind));
        let bytes = sealed(&text(), &bind);
        let mut changed = bytes.clone();
        let at = changed.len() - 6;
        changed[at] = b'b'; // `mkdir /w b`
        assert!(!is_sealed(&changed, &bind));
        let mut forged = text();
        forged[seal_range()].copy_from_slice("00".repeat(32).as_bytes());
        assert!(!is_sealed(&forged, &bind));
        // The same journal in another journal folder (a copy of the tree) is not obeyed.
        let (_t2, other) = bind_dir();
        assert!(!is_sealed(&bytes, &Binding::of(&other).unwrap()));
    }

    #[test]
    fn a_nonce_is_usable_once() {
        let (_t, d) = bind_dir();
        let bind = Binding::of(&d).unwrap();
        let nonce = new_nonce().unwrap();
        assert!(!is_registered(bind.workspace, &nonce));
        register(bind.workspace, &nonce, false).unwrap();
        assert!(is_registered(bind.workspace, &nonce));
        assert!(
            register(bind.workspace, &nonce, false).is_err(),
            "never twice"
        );
        unregister(bind.workspace, &nonce);
        assert!(!is_registered(bind.workspace, &nonce));
        assert!(!is_registered(bind.workspace, "../journal.key"));
    }

    #[test]
    fn a_key_others_may_read_or_a_shared_folder_not_ours_alone_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("keys");
        // Made once, then read back the same.
        let made = key_in(&dir, true).unwrap();
        assert_eq!(key_in(&dir, true).unwrap(), made);
        let key = dir.join(KEY_NAME);
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(key_in(&dir, false).is_err(), "a key others may read");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&key, b"short").unwrap();
        assert!(key_in(&dir, false).is_err(), "a key of the wrong length");
        std::fs::remove_file(&key).unwrap();
        std::os::unix::fs::symlink(t.path().join("elsewhere"), &key).unwrap();
        assert!(
            key_in(&dir, false).is_err(),
            "a symlinked key is never followed"
        );
        // The shared temp folder's key folder must be this user's alone.
        let shared = t.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(key_in(&shared, true).is_err());
        assert!(!shared.join(KEY_NAME).exists());
    }

    #[test]
    fn a_key_folder_inside_the_workspace_is_never_used() {
        let t = tempfile::tempdir().unwrap();
        let ws = std::fs::canonicalize(t.path()).unwrap();
        assert!(inside(&ws.join(".local/state/agtool"), &ws));
        assert!(inside(&ws.join("a/../b"), &ws));
        assert!(!inside(Path::new("/nonexistent-elsewhere/agtool"), &ws));
    }
}
