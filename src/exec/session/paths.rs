//! Where the session server lives on disk (spec 05): a private folder in the state directory,
//! the socket path and its fallback, and the record that says where the socket is.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::FIRST_SESSION_ID;

/// Longest socket path the OS takes: `sun_path` is 108 bytes on Linux, including the NUL.
const SUN_PATH_MAX: usize = 107;

/// The session server's files for one state directory.
#[derive(Debug, Clone)]
pub(crate) struct Paths {
    /// `<state dir>/sessions`, mode 0700.
    pub dir: PathBuf,
    /// Held (exclusive `flock`) by the live server for its whole life.
    pub lock: PathBuf,
    /// The server's stdout and stderr.
    pub log: PathBuf,
    /// [`Record`] as JSON.
    pub record: PathBuf,
    /// 16 hex digits of FNV-1a 64 over the canonical state dir: names the fallback socket and
    /// tags the server's sessions.
    pub hash: String,
}

/// What the server writes to `server.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Record {
    /// Pid of the server that wrote it.
    pub pid: u32,
    /// Where that server listens.
    pub socket: PathBuf,
    /// The next session id to issue; a new server starts from here so ids are never reused.
    pub next_id: u64,
}

impl Paths {
    /// Paths for `state_dir` (need not exist yet; it is made absolute, and canonical when it
    /// exists, so every caller agrees on the hash).
    /// Errors: `state_dir` is a symlink (spec 01: the state directory is never followed
    /// through one; the server would make its socket and log wherever it points).
    pub fn new(state_dir: &Path) -> io::Result<Paths> {
        let abs = std::path::absolute(state_dir)?;
        crate::workspace::root::refuse_symlink(&abs)?;
        let canon = fs::canonicalize(&abs).unwrap_or(abs);
        let dir = canon.join("sessions");
        Ok(Paths {
            lock: dir.join("server.lock"),
            log: dir.join("server.log"),
            record: dir.join("server.json"),
            hash: format!("{:016x}", fnv1a64(canon.as_os_str().as_encoded_bytes())),
            dir,
        })
    }

    /// Creates the private folder (0700) if needed and checks it is ours and private.
    pub fn ensure_dir(&self) -> io::Result<()> {
        ensure_private_dir(&self.dir)
    }

    /// The socket path: in the private folder when short enough for a socket address, else in
    /// `$XDG_RUNTIME_DIR/agtool/` or `/tmp/agtool-<uid>/` (created 0700 and checked).
    pub fn choose_socket(&self) -> io::Result<PathBuf> {
        let local = self.dir.join("server.sock");
        if local.as_os_str().len() <= SUN_PATH_MAX {
            return Ok(local);
        }
        let name = format!("{}.sock", self.hash);
        let uid = rustix::process::geteuid().as_raw();
        let mut bases = Vec::new();
        if let Some(x) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from)
            && x.is_absolute()
            && x.is_dir()
        {
            bases.push(x.join("agtool"));
        }
        bases.push(PathBuf::from(format!("/tmp/agtool-{uid}")));
        for base in bases {
            let path = base.join(&name);
            if path.as_os_str().len() <= SUN_PATH_MAX {
                ensure_private_dir(&base)?;
                return Ok(path);
            }
        }
        Err(io::Error::other(
            "no socket path short enough for the session server",
        ))
    }

    pub fn read_record(&self) -> Option<Record> {
        serde_json::from_slice(&fs::read(&self.record).ok()?).ok()
    }

    /// Writes the record atomically (temporary file + rename).
    pub fn write_record(&self, rec: &Record) -> io::Result<()> {
        let tmp = self
            .dir
            .join(format!("server.json.{}.tmp", std::process::id()));
        fs::write(&tmp, serde_json::to_vec(rec)?)?;
        fs::rename(&tmp, &self.record)
    }

    /// The id a new server starts from: the record's next id, or [`FIRST_SESSION_ID`].
    pub fn first_free_id(&self) -> u64 {
        self.read_record()
            .map_or(FIRST_SESSION_ID, |r| r.next_id.max(FIRST_SESSION_ID))
    }
}

/// Every folder where a session server of `state_dir`, or of any state directory too deep
/// for a socket address, may keep its socket: `<state dir>/sessions`, `$XDG_RUNTIME_DIR/agtool`
/// and `/tmp/agtool-<uid>`. The exec sandbox hides them from commands (spec 08).
pub fn server_folders(state_dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(p) = Paths::new(state_dir) {
        out.push(p.dir);
    }
    if let Some(x) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from)
        && x.is_absolute()
    {
        out.push(x.join("agtool"));
    }
    let uid = rustix::process::geteuid().as_raw();
    out.push(PathBuf::from(format!("/tmp/agtool-{uid}")));
    out
}

/// Makes the folders a session server of `state_dir` keeps its socket in (the private folder,
/// and the short-path folder when the socket needs one), so that a sandbox plan built before
/// the server starts can hide them (spec 08). Errors are ignored: a folder that cannot be
/// made now is made, and checked, by the server.
pub fn prepare_server_folders(state_dir: &Path) {
    if let Ok(p) = Paths::new(state_dir) {
        let _ = p.ensure_dir();
        let _ = p.choose_socket();
    }
}

/// Makes `dir` (mode 0700) unless it exists; refuses one that is a symlink, owned by someone
/// else, or open to others: another user could then reach or replace the socket.
fn ensure_private_dir(dir: &Path) -> io::Result<()> {
    crate::workspace::root::refuse_symlink(dir)?;
    match fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = fs::symlink_metadata(dir)?;
    let uid = rustix::process::geteuid().as_raw();
    if !meta.is_dir() || meta.uid() != uid {
        return Err(io::Error::other(format!(
            "{} is not a folder owned by uid {uid}; remove it or fix its owner",
            dir.display()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// FNV-1a, 64 bits: a stable name for a path, not a security measure.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_state_dir_keeps_the_socket_inside() {
        let tmp = tempfile::tempdir().unwrap();
        let p = Paths::new(tmp.path()).unwrap();
        p.ensure_dir().unwrap();
        assert_eq!(p.choose_socket().unwrap(), p.dir.join("server.sock"));
        let mode = fs::metadata(&p.dir).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn long_state_dir_falls_back_to_a_short_private_path() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = tmp.path().join("d".repeat(60)).join("e".repeat(60));
        let p = Paths::new(&deep).unwrap();
        let sock = p.choose_socket().unwrap();
        assert!(sock.as_os_str().len() <= SUN_PATH_MAX);
        assert!(sock.ends_with(format!("{}.sock", p.hash)));
        let mode = fs::metadata(sock.parent().unwrap()).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn a_folder_open_to_others_is_made_private() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("x");
        fs::create_dir(&d).unwrap();
        fs::set_permissions(&d, fs::Permissions::from_mode(0o777)).unwrap();
        ensure_private_dir(&d).unwrap();
        assert_eq!(fs::metadata(&d).unwrap().mode() & 0o777, 0o700);
    }

    #[test]
    fn a_symlink_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("real");
        fs::create_dir(&d).unwrap();
        let l = tmp.path().join("link");
        std::os::unix::fs::symlink(&d, &l).unwrap();
        assert!(ensure_private_dir(&l).is_err());
    }

    #[test]
    fn record_round_trips_and_gives_the_first_free_id() {
        let tmp = tempfile::tempdir().unwrap();
        let p = Paths::new(tmp.path()).unwrap();
        p.ensure_dir().unwrap();
        assert_eq!(p.first_free_id(), FIRST_SESSION_ID);
        p.write_record(&Record {
            pid: 1,
            socket: "/x".into(),
            next_id: 1042,
        })
        .unwrap();
        assert_eq!(p.first_free_id(), 1042);
        fs::write(&p.record, "not json").unwrap();
        assert_eq!(p.first_free_id(), FIRST_SESSION_ID);
    }
}
