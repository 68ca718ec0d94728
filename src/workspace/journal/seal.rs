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
//! The sealed text is the journal with its state byte read as `-` (the state moves by one-byte
//! writes after sealing); the seal is the last line, `seal <64 hex digits>`, after `end`.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use super::record::STATE_AT;

/// Bytes of the key.
const KEY_BYTES: usize = 32;
/// The key file's name in its folder.
const KEY_NAME: &str = "journal.key";
/// What stands before the seal's hex digits.
const SEAL_PREFIX: &[u8] = b"seal ";
/// The line that ends a journal's steps.
const END_LINE: &[u8] = b"\nend\n";

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
/// not inside `workspace`. Errors say which folders were tried.
fn key(workspace: &Path) -> io::Result<&'static hmac::Key> {
    static KEY: OnceLock<Result<hmac::Key, String>> = OnceLock::new();
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
                Ok(bytes) => return Ok(hmac::Key::new(hmac::HMAC_SHA256, &bytes)),
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
    workspace: &'a Path,
}

impl<'a> Binding<'a> {
    /// The binding of journals in `jdir` (`<workspace>/.agent-state/journal`).
    pub(super) fn of(jdir: &'a crate::workspace::beneath::Dir) -> io::Result<Binding<'a>> {
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

/// `text` with its state byte read as `-`, followed by the binding.
fn normalized(text: &[u8], bind: &Binding) -> Vec<u8> {
    let mut out = text.to_vec();
    if let Some(b) = out.get_mut(STATE_AT as usize) {
        *b = b'-';
    }
    out.extend_from_slice(format!("bound {} {}\n", bind.dev, bind.ino).as_bytes());
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The seal line (`seal <hex>\n`) for a journal's `text`, which ends with `end\n`.
pub(super) fn seal_line(text: &[u8], bind: &Binding) -> io::Result<String> {
    let tag = hmac::sign(key(bind.workspace)?, &normalized(text, bind));
    Ok(format!("seal {}\n", hex(tag.as_ref())))
}

/// Whether `bytes` (a whole journal file) carry a valid seal of this user's key. False for a
/// journal without one, with a wrong one, or when there is no key.
pub(super) fn is_sealed(bytes: &[u8], bind: &Binding) -> bool {
    let Some(at) = bytes
        .windows(END_LINE.len() + SEAL_PREFIX.len())
        .rposition(|w| w.starts_with(END_LINE) && w.ends_with(SEAL_PREFIX))
    else {
        return false;
    };
    let (text, rest) = bytes.split_at(at + END_LINE.len());
    let Some(digits) = rest
        .strip_prefix(SEAL_PREFIX)
        .and_then(|r| r.strip_suffix(b"\n"))
    else {
        return false;
    };
    let Some(tag) = unhex(digits) else {
        return false;
    };
    let Ok(key) = key(bind.workspace) else {
        return false;
    };
    hmac::verify(key, &normalized(text, bind), &tag).is_ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &[u8] = b"agtool-journal 1\nstate P\npid 7\nmkdir /w a\nend\n";

    fn bind_dir() -> (tempfile::TempDir, crate::workspace::beneath::Dir) {
        let t = tempfile::tempdir().unwrap();
        let p = std::fs::canonicalize(t.path())
            .unwrap()
            .join("ws/.agent-state/journal");
        std::fs::create_dir_all(&p).unwrap();
        let d = crate::workspace::beneath::Dir::open_root(&p).unwrap();
        (t, d)
    }

    #[test]
    fn a_sealed_journal_verifies_whatever_its_state_byte() {
        let (_t, d) = bind_dir();
        let bind = Binding::of(&d).unwrap();
        let mut bytes = TEXT.to_vec();
        bytes.extend_from_slice(seal_line(TEXT, &bind).unwrap().as_bytes());
        assert!(is_sealed(&bytes, &bind));
        bytes[STATE_AT as usize] = b'C';
        assert!(is_sealed(&bytes, &bind), "the state moves after sealing");
    }

    #[test]
    fn a_changed_missing_forged_or_moved_seal_fails() {
        let (_t, d) = bind_dir();
        let bind = Binding::of(&d).unwrap();
        assert!(!is_sealed(TEXT, &bind));
        let mut bytes = TEXT.to_vec();
        bytes.extend_from_slice(seal_line(TEXT, &bind).unwrap().as_bytes());
        let mut changed = bytes.clone();
        changed[TEXT.len() - 8] = b'b'; // `mkdir /w b`
        assert!(!is_sealed(&changed, &bind));
        let mut forged = TEXT.to_vec();
        forged.extend_from_slice(format!("seal {}\n", "00".repeat(32)).as_bytes());
        assert!(!is_sealed(&forged, &bind));
        // The same journal in another journal folder (a copy of the tree) is not obeyed.
        let (_t2, other) = bind_dir();
        assert!(!is_sealed(&bytes, &Binding::of(&other).unwrap()));
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
