//! The page copies that make paging exact (spec 06, "Exact paging"): the text of each fetch
//! kept in `.agent-state/web/` for 15 minutes, 64 MiB in all (oldest dropped first), written
//! atomically (a temporary file renamed into place).
//!
//! A copy is one file named by a hash of (URL, raw): a first line `seal <64 hex digits>`, a
//! line of JSON (the key, the time of the fetch and the document's header fields) and then
//! the text, byte for byte. The seal is an HMAC of everything after its line and the
//! workspace root under this user's key (the journals' key, kept outside every workspace):
//! a copy forged in `.agent-state/web/` (or brought by a repository, or another workspace's)
//! is not used, and what a copy holds is escaped again on the way out
//! ([`crate::text::controls`]). The
//! folder is used through the race-free file layer ([`Dir`]): opened from the workspace
//! root's handle without following any symlink, every file reached relative to it.

use std::ffi::OsStr;
use std::hash::{Hash, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Document;
use crate::fileio::beneath::{Dir, Kind};
use crate::workspace::root;

/// How long a copy is used.
pub const TTL: Duration = Duration::from_secs(15 * 60);
/// Most bytes all copies may take together.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;
/// The folder under `.agent-state/`.
pub const DIR_NAME: &str = "web";
const SUFFIX: &str = ".page";
const FORMAT: u32 = 2;
/// What a copy's seal is for (never taken for a journal's).
const PURPOSE: &str = "agtool web page copy";

/// The first line of a copy.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    url: String,
    raw: bool,
    fetched_at_ms: u64,
    doc: Document,
}

/// The copies of one workspace. Every file operation goes through a handle of the `web`
/// folder ([`Dir`]): a symlink there, or one swapped in for a copy, is never followed.
#[derive(Debug, Clone)]
pub struct Copies {
    root: PathBuf,
    dir: PathBuf,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Copies {
    /// The copies of the workspace at `root` (canonical), in `.agent-state/web/`; nothing is
    /// created until [`Copies::store`].
    pub fn new(root: &Path) -> Copies {
        Copies {
            root: root.to_path_buf(),
            dir: root.join(root::STATE_DIR).join(DIR_NAME),
        }
    }

    /// What a copy's seal covers: the workspace root (a copy from another workspace is
    /// not one of this one's) and the copy after its seal line.
    fn sealed_text(&self, body: &[u8]) -> Vec<u8> {
        use std::os::unix::ffi::OsStrExt;
        let root = self.root.as_os_str().as_bytes();
        let mut out = Vec::with_capacity(root.len() + 1 + body.len());
        out.extend_from_slice(root);
        out.push(0);
        out.extend_from_slice(body);
        out
    }

    /// `.agent-state/web`, relative to the workspace root.
    fn rel(&self) -> PathBuf {
        Path::new(root::STATE_DIR).join(DIR_NAME)
    }

    /// The folder, opened from the workspace root without following a symlink (ELOOP or
    /// EXDEV when one is in the way; NotFound when missing).
    fn open_dir(&self) -> io::Result<Dir> {
        Dir::open_root(&self.root)?.open_dir(&self.rel())
    }

    fn name_for(url: &str, raw: bool) -> String {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (url, raw).hash(&mut h);
        format!("{:016x}{SUFFIX}", h.finish())
    }

    /// The copy of (`url`, `raw`) and its age in seconds, when one younger than [`TTL`]
    /// exists. A missing, stale, foreign or unreadable copy is `None`: the caller fetches.
    pub fn load(&self, url: &str, raw: bool) -> Option<(Document, u64)> {
        root::existing_state_dir(&self.root).ok()??;
        let dir = self.open_dir().ok()?;
        let mut bytes = read_regular(&dir, &Self::name_for(url, raw)).ok()?;
        let seal_end = memchr::memchr(b'\n', &bytes)?;
        let digits = bytes[..seal_end].strip_prefix(b"seal ".as_slice())?;
        if !crate::fileio::journal::is_sealed_for(
            &self.root,
            PURPOSE,
            &self.sealed_text(&bytes[seal_end + 1..]),
            digits,
        ) {
            return None;
        }
        bytes.drain(..=seal_end);
        let nl = memchr::memchr(b'\n', &bytes)?;
        let header: Header = serde_json::from_slice(&bytes[..nl]).ok()?;
        if header.format != FORMAT || header.url != url || header.raw != raw {
            return None;
        }
        // A copy dated in the future is not one this tool wrote (a copy planted in a
        // repository would otherwise stay "fresh" for ever); a second of clock slack.
        let now = now_ms();
        if header.fetched_at_ms > now + 1000 {
            return None;
        }
        let age_ms = now.saturating_sub(header.fetched_at_ms);
        if age_ms > TTL.as_millis() as u64 {
            return None;
        }
        bytes.drain(..=nl);
        let mut doc = header.doc;
        doc.text = String::from_utf8(bytes).ok()?;
        Some((escaped(doc), age_ms / 1000))
    }

    /// Keeps `doc` as the copy of (`url`, `doc.raw`), creating `.agent-state/web/` when
    /// needed (never through a symlink), then drops stale copies and the oldest ones over
    /// [`MAX_TOTAL_BYTES`].
    pub fn store(&self, url: &str, doc: &Document) -> Result<(), String> {
        root::ensure_state_dir(&self.root).map_err(|e| e.to_string())?;
        let dir = match self.open_dir() {
            Ok(dir) => dir,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Dir::open_root(&self.root)
                .and_then(|r| r.create_dirs(&self.rel()))
                .map(|(dir, _)| dir)
                .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?,
            Err(e) => {
                return Err(format!(
                    "{} cannot be used ({e}); it must be a folder, not a symlink",
                    self.dir.display()
                ));
            }
        };
        let header = Header {
            format: FORMAT,
            url: url.to_owned(),
            raw: doc.raw,
            fetched_at_ms: now_ms(),
            doc: Document {
                text: String::new(),
                ..doc.clone()
            },
        };
        let line = serde_json::to_string(&header).map_err(|e| e.to_string())?;
        let mut body = Vec::with_capacity(line.len() + 1 + doc.text.len());
        body.extend_from_slice(line.as_bytes());
        body.push(b'\n');
        body.extend_from_slice(doc.text.as_bytes());
        let seal = crate::fileio::journal::seal_for(&self.root, PURPOSE, &self.sealed_text(&body))
            .map_err(|e| format!("cannot seal a copy: {e}"))?;
        let mut bytes = format!("seal {seal}\n").into_bytes();
        bytes.extend_from_slice(&body);
        let name = Self::name_for(url, doc.raw);
        write_atomic(&dir, &name, &bytes)
            .map_err(|e| format!("cannot write a copy in {}: {e}", self.dir.display()))?;
        prune(&dir, &name);
        Ok(())
    }
}

/// `doc` with every field a page copy gave escaped again ([`crate::text::controls`]): what
/// this tool stored was escaped when fetched, so this changes nothing in an honest copy.
fn escaped(mut doc: Document) -> Document {
    use crate::text::controls::escape_controls as esc;
    doc.url = esc(doc.url);
    doc.final_url = esc(doc.final_url);
    doc.reason = esc(doc.reason);
    doc.content_type = esc(doc.content_type);
    doc.chain = doc.chain.into_iter().map(esc).collect();
    doc.notes = doc.notes.into_iter().map(esc).collect();
    doc.text = esc(doc.text);
    doc
}

/// Drops copies (and temporary files left by a crash) older than [`TTL`], then the oldest
/// copies while all of them take more than [`MAX_TOTAL_BYTES`]; `keep` last.
fn prune(dir: &Dir, keep: &str) {
    let Ok(entries) = dir.entries() else {
        return;
    };
    let now = SystemTime::now();
    let mut live: Vec<(SystemTime, u64, String)> = Vec::new();
    for entry in entries {
        let Some(name) = entry.name.to_str().map(str::to_owned) else {
            continue;
        };
        let temp = name.starts_with('.') && name.contains(".agtool-");
        if !(name.ends_with(SUFFIX) || temp) {
            continue;
        }
        let Ok(st) = dir.stat_at(OsStr::new(&name)) else {
            continue;
        };
        if st.kind != Kind::File {
            continue;
        }
        let age = now.duration_since(st.mtime).unwrap_or_default();
        if age > TTL {
            let _ = dir.unlink(OsStr::new(&name));
        } else if !temp {
            live.push((st.mtime, st.len, name));
        }
    }
    let mut total: u64 = live.iter().map(|(_, len, _)| len).sum();
    live.sort_by_key(|(modified, _, name)| (name == keep, *modified));
    for (_, len, name) in live {
        if total <= MAX_TOTAL_BYTES {
            break;
        }
        if dir.unlink(OsStr::new(&name)).is_ok() {
            total -= len;
        }
    }
}

/// Largest page copy that is read back, in bytes: the whole store is kept within
/// [`MAX_TOTAL_BYTES`], so a bigger file is not a copy this tool wrote (issue 17, item 5: a
/// 64 GiB sparse file aborted web-fetch on the allocation). It is ignored by its size, never
/// loaded, and the page is fetched again.
pub const MAX_COPY_BYTES: u64 = MAX_TOTAL_BYTES;

/// The bytes of the regular file `name` in `dir`; a symlink there is never followed (ELOOP),
/// anything but a regular file is refused, and so is one over [`MAX_COPY_BYTES`]
/// (`FileTooLarge`) before anything is read.
fn read_regular(dir: &Dir, name: &str) -> io::Result<Vec<u8>> {
    let file = dir.open_file(Path::new(name))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{name} is not a regular file"),
        ));
    }
    let too_big = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("{name} is over {MAX_COPY_BYTES} bytes"),
        )
    };
    if meta.len() > MAX_COPY_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&file).take(MAX_COPY_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_COPY_BYTES {
        return Err(too_big()); // it grew while being read
    }
    Ok(bytes)
}

/// Writes `bytes` as `name` in `dir`: a temp file beside it, fsynced, renamed over it, the
/// folder fsynced. The temp file is removed when a step fails; one left by a kill is dropped
/// by [`prune`] once older than [`TTL`].
fn write_atomic(dir: &Dir, name: &str, bytes: &[u8]) -> io::Result<()> {
    let (temp, mut file) = dir.create_temp(OsStr::new(name))?;
    let result = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        dir.rename(&temp, dir, OsStr::new(name))?;
        dir.sync()
    })();
    if result.is_err() {
        let _ = dir.unlink(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str, raw: bool) -> Document {
        Document {
            url: "http://h.test/".into(),
            final_url: "http://h.test/x".into(),
            status: 200,
            reason: "OK".into(),
            content_type: "text/plain".into(),
            chain: vec!["http://h.test/".into()],
            notes: vec![],
            raw,
            text: text.into(),
        }
    }

    #[test]
    fn store_and_load_exactly() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let state = root.join(".agent-state");
        let copies = Copies::new(&root);
        assert!(copies.load("http://h.test/", false).is_none());
        let text = "line\n\nzweite é 中\r\nend";
        copies.store("http://h.test/", &doc(text, false)).unwrap();
        let (got, age) = copies.load("http://h.test/", false).unwrap();
        assert_eq!(got, doc(text, false));
        assert!(age < 5);
        assert!(copies.load("http://h.test/", true).is_none());
        assert!(copies.load("http://h.test/other", false).is_none());
        assert_eq!(
            std::fs::read_to_string(state.join(".gitignore")).unwrap(),
            "*\n"
        );
    }

    #[test]
    fn a_copy_dated_in_the_future_is_never_used() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let copies = Copies::new(&root);
        copies.store("http://h.test/", &doc("real", false)).unwrap();
        let file = root
            .join(".agent-state/web")
            .join(Copies::name_for("http://h.test/", false));
        let text = std::fs::read_to_string(&file).unwrap();
        let (_seal, rest) = text.split_once('\n').unwrap();
        let (head, body) = rest.split_once('\n').unwrap();
        assert_eq!(body, "real");
        // Dated in the future and sealed as this tool would: still not used.
        let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
        header["fetched_at_ms"] = (now_ms() + 3_600_000).into();
        let rest = format!("{header}\nplanted");
        let seal =
            crate::fileio::journal::seal_for(&root, PURPOSE, &copies.sealed_text(rest.as_bytes()))
                .unwrap();
        std::fs::write(&file, format!("seal {seal}\n{rest}")).unwrap();
        assert!(copies.load("http://h.test/", false).is_none());
    }

    #[test]
    fn a_forged_or_foreign_copy_is_never_used() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let copies = Copies::new(&root);
        copies.store("http://h.test/", &doc("real", false)).unwrap();
        let file = root
            .join(".agent-state/web")
            .join(Copies::name_for("http://h.test/", false));
        let honest = std::fs::read_to_string(&file).unwrap();
        // Another text under the honest seal; no seal; an old-format copy.
        let changed = honest.replace("\nreal", "\n\u{1b}]0;pwned\u{7}forged");
        let (_, unsealed) = honest.split_once('\n').unwrap();
        for forged in [changed.as_str(), unsealed] {
            std::fs::write(&file, forged).unwrap();
            assert!(copies.load("http://h.test/", false).is_none(), "{forged}");
        }
        // The same bytes in another workspace are not its copy.
        let t2 = tempfile::tempdir().unwrap();
        let other = std::fs::canonicalize(t2.path()).unwrap();
        std::fs::create_dir_all(other.join(".agent-state/web")).unwrap();
        std::fs::write(
            other
                .join(".agent-state/web")
                .join(Copies::name_for("http://h.test/", false)),
            &honest,
        )
        .unwrap();
        assert!(Copies::new(&other).load("http://h.test/", false).is_none());
        // A sealed copy holding raw control and bidi characters is escaped on the way out.
        let mut d = doc("a\u{1b}[2Jb\u{202e}c", false);
        d.final_url = "http://h.test/\u{1b}]8;;evil\u{7}".into();
        copies.store("http://h.test/", &d).unwrap();
        let (got, _) = copies.load("http://h.test/", false).unwrap();
        assert_eq!(got.text, "a\\x1b[2Jb\\u202ec");
        assert_eq!(got.final_url, "http://h.test/\\x1b]8;;evil\\x07");
    }

    #[test]
    fn a_copy_over_its_cap_is_ignored_by_its_size() {
        // Issue 17, item 5: a huge copy was read whole (a 64 GiB sparse one aborted
        // web-fetch). Valid header, fresh, grown past the cap (sparse: no disk used).
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let copies = Copies::new(&root);
        copies.store("http://h.test/", &doc("real", false)).unwrap();
        let file = root
            .join(".agent-state/web")
            .join(Copies::name_for("http://h.test/", false));
        let f = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
        // Over the cap it is passed over by its size before any read (a sealed copy grown
        // this way would also fail its seal, but only after being read whole).
        f.set_len(MAX_COPY_BYTES + 1).unwrap();
        assert!(copies.load("http://h.test/", false).is_none());
    }

    #[test]
    fn oldest_copies_go_over_the_total() {
        let t = tempfile::tempdir().unwrap();
        let copies = Copies::new(&std::fs::canonicalize(t.path()).unwrap());
        let big = "x".repeat(25 << 20);
        for i in 0..3 {
            copies
                .store(&format!("http://h.test/{i}"), &doc(&big, false))
                .unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(copies.load("http://h.test/0", false).is_none());
        assert!(copies.load("http://h.test/1", false).is_some());
        assert!(copies.load("http://h.test/2", false).is_some());
    }

    #[test]
    fn a_symlinked_folder_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let state = root.join(".agent-state");
        std::fs::create_dir(&state).unwrap();
        let elsewhere = root.join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, state.join(DIR_NAME)).unwrap();
        let copies = Copies::new(&root);
        let err = copies
            .store("http://h.test/", &doc("x", false))
            .unwrap_err();
        assert!(err.contains("not a symlink"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        // A copy planted behind the link is never read.
        std::fs::write(
            elsewhere.join(Copies::name_for("http://h.test/", false)),
            "x",
        )
        .unwrap();
        assert!(copies.load("http://h.test/", false).is_none());
    }
}
