//! The page copies that make paging exact (spec 06, "Exact paging"): the text of each fetch
//! kept in `.agent-state/web/` for 15 minutes, 64 MiB in all (oldest dropped first), written
//! atomically (a temporary file renamed into place).
//!
//! A copy is one file named by a hash of (URL, raw): a first line of JSON (the key, the time
//! of the fetch and the document's header fields) and then the text, byte for byte.

use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Document;

/// How long a copy is used.
pub const TTL: Duration = Duration::from_secs(15 * 60);
/// Most bytes all copies may take together.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;
/// The folder under `.agent-state/`.
pub const DIR_NAME: &str = "web";
const SUFFIX: &str = ".page";
const FORMAT: u32 = 1;

/// The first line of a copy.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    url: String,
    raw: bool,
    fetched_at_ms: u64,
    doc: Document,
}

/// The copies of one workspace.
#[derive(Debug, Clone)]
pub struct Copies {
    dir: PathBuf,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Copies {
    /// The copies kept under `state_dir` (the workspace's `.agent-state/`); nothing is
    /// created until [`Copies::store`].
    pub fn new(state_dir: &Path) -> Copies {
        Copies {
            dir: state_dir.join(DIR_NAME),
        }
    }

    fn path_for(&self, url: &str, raw: bool) -> PathBuf {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (url, raw).hash(&mut h);
        self.dir.join(format!("{:016x}{SUFFIX}", h.finish()))
    }

    /// The copy of (`url`, `raw`) and its age in seconds, when one younger than [`TTL`]
    /// exists. A missing, stale, foreign or unreadable copy is `None`: the caller fetches.
    pub fn load(&self, url: &str, raw: bool) -> Option<(Document, u64)> {
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.path_for(url, raw))
            .ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        let nl = memchr::memchr(b'\n', &bytes)?;
        let header: Header = serde_json::from_slice(&bytes[..nl]).ok()?;
        if header.format != FORMAT || header.url != url || header.raw != raw {
            return None;
        }
        let age_ms = now_ms().saturating_sub(header.fetched_at_ms);
        if age_ms > TTL.as_millis() as u64 {
            return None;
        }
        bytes.drain(..=nl);
        let mut doc = header.doc;
        doc.text = String::from_utf8(bytes).ok()?;
        Some((doc, age_ms / 1000))
    }

    /// Keeps `doc` as the copy of (`url`, `doc.raw`), creating `.agent-state/web/` when
    /// needed, then drops stale copies and the oldest ones over [`MAX_TOTAL_BYTES`]. The
    /// folder must be a real folder (a symlink there is refused).
    pub fn store(&self, url: &str, doc: &Document) -> Result<(), String> {
        let state = self.dir.parent().unwrap_or(&self.dir);
        if let Some(root) = state.parent() {
            crate::workspace::root::ensure_state_dir(root)
                .map_err(|e| format!("cannot create {}: {e}", state.display()))?;
        }
        match std::fs::symlink_metadata(&self.dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(format!("{} is not a folder", self.dir.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match std::fs::create_dir(&self.dir) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(format!("cannot create {}: {e}", self.dir.display())),
                }
            }
            Err(e) => return Err(format!("cannot use {}: {e}", self.dir.display())),
        }
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
        let fail =
            |e: std::io::Error| format!("cannot write a copy in {}: {e}", self.dir.display());
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(&self.dir)
            .map_err(fail)?;
        tmp.write_all(line.as_bytes()).map_err(fail)?;
        tmp.write_all(b"\n").map_err(fail)?;
        tmp.write_all(doc.text.as_bytes()).map_err(fail)?;
        let target = self.path_for(url, doc.raw);
        tmp.persist(&target).map_err(|e| fail(e.error))?;
        self.prune(&target);
        Ok(())
    }

    /// Drops copies (and temporary files left by a crash) older than [`TTL`], then the
    /// oldest copies while all of them take more than [`MAX_TOTAL_BYTES`]; `keep` last.
    fn prune(&self, keep: &Path) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        let mut live: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if !(name.ends_with(SUFFIX) || name.starts_with(".tmp-")) {
                continue;
            }
            let Ok(meta) = e.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(UNIX_EPOCH);
            let age = now.duration_since(modified).unwrap_or_default();
            if age > TTL {
                let _ = std::fs::remove_file(&path);
            } else if name.ends_with(SUFFIX) {
                live.push((modified, meta.len(), path));
            }
        }
        let mut total: u64 = live.iter().map(|(_, len, _)| len).sum();
        live.sort_by_key(|(m, _, p)| (p == keep, *m));
        for (_, len, path) in live {
            if total <= MAX_TOTAL_BYTES {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
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
        let state = t.path().join(".agent-state");
        let copies = Copies::new(&state);
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
    fn oldest_copies_go_over_the_total() {
        let t = tempfile::tempdir().unwrap();
        let copies = Copies::new(&t.path().join(".agent-state"));
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
        let state = t.path().join(".agent-state");
        std::fs::create_dir(&state).unwrap();
        let elsewhere = t.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, state.join(DIR_NAME)).unwrap();
        let err = Copies::new(&state)
            .store("http://h.test/", &doc("x", false))
            .unwrap_err();
        assert!(err.contains("not a folder"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }
}
