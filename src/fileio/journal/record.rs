//! The journal file: its text format (module doc of [`super`], "Files") and the open journal
//! of this process, created locked and complete, moved from state to state by one byte.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::{MAGIC, STATE_AT};
use crate::fileio::beneath::Dir;

static JOURNAL_COUNTER: AtomicU32 = AtomicU32::new(0);

/// Where a journal stands (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// A single write's temp file exists.
    Temp,
    /// Temp files and backups are being made; no target has changed.
    Preparing,
    /// Targets are being replaced.
    Committing,
    /// Every target is replaced: only backups remain to delete (the commit point).
    Done,
}

impl State {
    fn byte(self) -> u8 {
        match self {
            State::Temp => b'T',
            State::Preparing => b'P',
            State::Committing => b'C',
            State::Done => b'D',
        }
    }

    fn from_byte(b: u8) -> Option<State> {
        match b {
            b'T' => Some(State::Temp),
            b'P' => Some(State::Preparing),
            b'C' => Some(State::Committing),
            b'D' => Some(State::Done),
            _ => None,
        }
    }
}

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    /// Replace (or create, when `backup` is `None`) `dir/name` with `dir/temp`.
    Write {
        base: PathBuf,
        dir: PathBuf,
        name: OsString,
        temp: OsString,
        backup: Option<OsString>,
    },
    /// Remove `dir/name`, kept as `dir/backup` until the end.
    Remove {
        base: PathBuf,
        dir: PathBuf,
        name: OsString,
        backup: OsString,
    },
    /// A single write's temp file.
    Temp {
        base: PathBuf,
        dir: PathBuf,
        temp: OsString,
    },
    /// A folder the write makes (relative to `base`).
    Mkdir { base: PathBuf, dir: PathBuf },
    /// A temp entry the write builds in P (a file, symlink or whole folder tree): removed
    /// when the write is undone, and, if still there, once it is done.
    Tree {
        base: PathBuf,
        dir: PathBuf,
        temp: OsString,
    },
    /// In C, `dir/temp` (built by a [`Step::Tree`]) is renamed to `dir/name`: without
    /// replacing anything, or, when `backup` names a hard link to the old `dir/name` made in
    /// P, over it.
    Place {
        base: PathBuf,
        dir: PathBuf,
        temp: OsString,
        name: OsString,
        backup: Option<OsString>,
    },
    /// In C, `dir/name` (the source of a move) is renamed aside to `dir/temp`; once the write
    /// is done, the set-aside entry is removed (a tree, through handles).
    Aside {
        base: PathBuf,
        dir: PathBuf,
        name: OsString,
        temp: OsString,
    },
}

/// What binds a journal's text to one file, once (module doc of [`super::seal`]): a random
/// nonce registered beside the key, and the journal file's device and inode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Header {
    pub(super) nonce: String,
    pub(super) file: (u64, u64),
}

/// A whole journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Record {
    pub(super) state: State,
    pub(super) pid: u32,
    pub(super) steps: Vec<Step>,
}

/// Percent-encodes every byte outside printable ASCII, `%` and space; `.` stands for empty.
fn enc(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_graphic() && b != b'%' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn dec(field: &str) -> Option<Vec<u8>> {
    if field == "." {
        return Some(Vec::new());
    }
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

fn enc_path(p: &Path) -> String {
    enc(p.as_os_str().as_bytes())
}

impl Record {
    /// The journal's text, sealed over every byte and bound to the journal folder `jdir`
    /// (see [`super::seal`]): what is written to disk. Errors when there is no key.
    pub(super) fn render_sealed(&self, jdir: &Dir, head: &Header) -> io::Result<String> {
        let text = self.render(head);
        let bind = super::seal::Binding::of(jdir)?;
        let seal = super::seal::seal_of(text.as_bytes(), &bind)?;
        let at = STATE_AT as usize + 2;
        Ok(format!("{}{seal}{}", &text[..at], &text[at + seal.len()..]))
    }

    /// The journal's text with its seal digits all `0`.
    pub(super) fn render(&self, head: &Header) -> String {
        let mut out = format!(
            "{MAGIC}state {} {}\npid {}\nnonce {}\nfile {} {}\n",
            self.state.byte() as char,
            "0".repeat(super::seal::SEAL_HEX),
            self.pid,
            head.nonce,
            head.file.0,
            head.file.1
        );
        for step in &self.steps {
            let line = match step {
                Step::Write {
                    base,
                    dir,
                    name,
                    temp,
                    backup,
                } => format!(
                    "write {} {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(name.as_bytes()),
                    enc(temp.as_bytes()),
                    backup
                        .as_ref()
                        .map_or("-".to_owned(), |b| enc(b.as_bytes()))
                ),
                Step::Remove {
                    base,
                    dir,
                    name,
                    backup,
                } => format!(
                    "remove {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(name.as_bytes()),
                    enc(backup.as_bytes())
                ),
                Step::Temp { base, dir, temp } => format!(
                    "temp {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(temp.as_bytes())
                ),
                Step::Mkdir { base, dir } => format!("mkdir {} {}", enc_path(base), enc_path(dir)),
                Step::Tree { base, dir, temp } => format!(
                    "tree {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(temp.as_bytes())
                ),
                Step::Place {
                    base,
                    dir,
                    temp,
                    name,
                    backup,
                } => format!(
                    "place {} {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(temp.as_bytes()),
                    enc(name.as_bytes()),
                    backup
                        .as_ref()
                        .map_or("-".to_owned(), |b| enc(b.as_bytes()))
                ),
                Step::Aside {
                    base,
                    dir,
                    name,
                    temp,
                } => format!(
                    "aside {} {} {} {}",
                    enc_path(base),
                    enc_path(dir),
                    enc(name.as_bytes()),
                    enc(temp.as_bytes())
                ),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("end\n");
        out
    }

    /// Parses a journal; `None` when it is not one, or not complete.
    pub(super) fn parse(text: &[u8]) -> Option<(Record, Header)> {
        let text = std::str::from_utf8(text).ok()?;
        let rest = text.strip_prefix(MAGIC)?;
        let mut lines = rest.lines();
        let state = State::from_byte(*lines.next()?.strip_prefix("state ")?.as_bytes().first()?)?;
        let pid = lines.next()?.strip_prefix("pid ")?.parse().ok()?;
        let nonce = lines.next()?.strip_prefix("nonce ")?.to_owned();
        let (dev, ino) = lines.next()?.strip_prefix("file ")?.split_once(' ')?;
        let head = Header {
            nonce,
            file: (dev.parse().ok()?, ino.parse().ok()?),
        };
        let mut steps = Vec::new();
        let path = |f: &str| dec(f).map(|b| PathBuf::from(OsString::from_vec(b)));
        let name = |f: &str| dec(f).map(OsString::from_vec);
        for line in lines {
            let f: Vec<&str> = line.split(' ').collect();
            let step = match f.as_slice() {
                ["end"] => return Some((Record { state, pid, steps }, head)),
                ["write", base, dir, n, temp, backup] => Step::Write {
                    base: path(base)?,
                    dir: path(dir)?,
                    name: name(n)?,
                    temp: name(temp)?,
                    backup: if *backup == "-" {
                        None
                    } else {
                        Some(name(backup)?)
                    },
                },
                ["remove", base, dir, n, backup] => Step::Remove {
                    base: path(base)?,
                    dir: path(dir)?,
                    name: name(n)?,
                    backup: name(backup)?,
                },
                ["temp", base, dir, temp] => Step::Temp {
                    base: path(base)?,
                    dir: path(dir)?,
                    temp: name(temp)?,
                },
                ["mkdir", base, dir] => Step::Mkdir {
                    base: path(base)?,
                    dir: path(dir)?,
                },
                ["tree", base, dir, temp] => Step::Tree {
                    base: path(base)?,
                    dir: path(dir)?,
                    temp: name(temp)?,
                },
                ["place", base, dir, temp, n, backup] => Step::Place {
                    base: path(base)?,
                    dir: path(dir)?,
                    temp: name(temp)?,
                    name: name(n)?,
                    backup: if *backup == "-" {
                        None
                    } else {
                        Some(name(backup)?)
                    },
                },
                ["aside", base, dir, n, temp] => Step::Aside {
                    base: path(base)?,
                    dir: path(dir)?,
                    name: name(n)?,
                    temp: name(temp)?,
                },
                _ => return None,
            };
            steps.push(step);
        }
        None
    }
}

/// An open journal of this process: its file stays locked until it is finished or dropped.
pub(super) struct Journal<'d> {
    pub(super) dir: &'d Dir,
    pub(super) name: OsString,
    pub(super) file: File,
    durable: bool,
    /// The text as written (seal digits aside), to seal each new state.
    text: Vec<u8>,
    /// Its registered nonce, used up when it is finished.
    pub(super) nonce: String,
}

impl<'d> Journal<'d> {
    /// Writes `record` as a new journal in `dir` (module doc, "Files"). `durable`: fsync it
    /// and the folder before returning.
    pub(super) fn create(dir: &'d Dir, record: &Record, durable: bool) -> io::Result<Journal<'d>> {
        let bind = super::seal::Binding::of(dir)?;
        loop {
            // A name left by a dead process whose pid this one reuses is skipped, never taken
            // over (its journal may still wait for recovery).
            let n = JOURNAL_COUNTER.fetch_add(1, Ordering::Relaxed);
            let id = format!("{}-{n}", std::process::id());
            let new = OsString::from(format!(".{id}.new"));
            let name = OsString::from(format!("{id}.j"));
            let mut file = match dir.create_new(&new, 0o644) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                other => other?,
            };
            let mut registered = None;
            let written = (|| -> io::Result<Vec<u8>> {
                file.lock()?;
                let st = rustix::fs::fstat(&file).map_err(io::Error::from)?;
                let head = Header {
                    nonce: super::seal::new_nonce()?,
                    file: (st.st_dev as u64, st.st_ino as u64),
                };
                let text = record.render_sealed(dir, &head)?;
                // Registered before it can be found under its `.j` name.
                super::seal::register(bind.workspace, &head.nonce, durable)?;
                registered = Some(head.nonce);
                file.write_all(text.as_bytes())?;
                if durable {
                    file.sync_all()?;
                }
                dir.rename_new(&new, dir, &name)?;
                Ok(text.into_bytes())
            })();
            let text = match written {
                Ok(text) => text,
                Err(e) => {
                    let _ = dir.unlink(&new);
                    if let Some(nonce) = &registered {
                        super::seal::unregister(bind.workspace, nonce);
                    }
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        continue;
                    }
                    return Err(e);
                }
            };
            if durable {
                dir.sync()?;
            }
            return Ok(Journal {
                dir,
                name,
                file,
                durable,
                text,
                nonce: registered.unwrap_or_default(),
            });
        }
    }

    /// Moves to `state`: the state byte and the seal over the new text in one `pwrite` (both
    /// lie in the file's first sector), then `fdatasync`.
    pub(super) fn set_state(&self, state: State) -> io::Result<()> {
        let mut text = self.text.clone();
        text[STATE_AT as usize] = state.byte();
        let bind = super::seal::Binding::of(self.dir)?;
        let seal = super::seal::seal_of(&text, &bind)?;
        let mut patch = vec![state.byte(), b' '];
        patch.extend_from_slice(seal.as_bytes());
        rustix::io::pwrite(&self.file, &patch, STATE_AT)
            .map_err(|e| io::Error::from_raw_os_error(e.raw_os_error()))?;
        if self.durable {
            self.file.sync_data()?;
        }
        Ok(())
    }

    /// Removes the journal (the commit point of a multi-file write) and uses up its nonce.
    pub(super) fn finish(self) -> io::Result<()> {
        self.dir.unlink(&self.name)?;
        if self.durable {
            self.dir.sync()?;
        }
        if let Ok(bind) = super::seal::Binding::of(self.dir) {
            super::seal::unregister(bind.workspace, &self.nonce);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_incomplete_ones_are_refused() {
        let rec = Record {
            state: State::Committing,
            pid: 42,
            steps: vec![
                Step::Mkdir {
                    base: "/r".into(),
                    dir: "a b".into(),
                },
                Step::Write {
                    base: "/r".into(),
                    dir: "".into(),
                    name: OsString::from_vec(b"x%\xff y".to_vec()),
                    temp: ".x.agtool-42-0".into(),
                    backup: None,
                },
                Step::Remove {
                    base: "/r".into(),
                    dir: "a b".into(),
                    name: "z".into(),
                    backup: ".z.agtool-42-1".into(),
                },
                Step::Tree {
                    base: "/r".into(),
                    dir: "d".into(),
                    temp: ".t.agtool-42-2".into(),
                },
                Step::Place {
                    base: "/r".into(),
                    dir: "d".into(),
                    temp: ".t.agtool-42-2".into(),
                    name: "t u".into(),
                    backup: Some(".t.agtool-42-3".into()),
                },
                Step::Place {
                    base: "/r".into(),
                    dir: "".into(),
                    temp: ".t.agtool-42-4".into(),
                    name: "t".into(),
                    backup: None,
                },
                Step::Aside {
                    base: "/s".into(),
                    dir: "e".into(),
                    name: "src".into(),
                    temp: ".src.agtool-42-5".into(),
                },
            ],
        };
        let head = Header {
            nonce: "0123456789abcdef0123456789abcdef".into(),
            file: (7, 42),
        };
        let text = rec.render(&head);
        assert_eq!(text.as_bytes()[STATE_AT as usize], b'C');
        assert_eq!(Record::parse(text.as_bytes()), Some((rec, head)));
        assert_eq!(Record::parse(&text.as_bytes()[..text.len() - 4]), None);
        assert_eq!(Record::parse(b"garbage"), None);
    }
}
