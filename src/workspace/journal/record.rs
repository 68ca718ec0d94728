//! The journal file: its text format (module doc of [`super`], "Files") and the open journal
//! of this process, created locked and complete, moved from state to state by one byte.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::workspace::beneath::Dir;

pub(super) const MAGIC: &str = "agtool-journal 1\n";
/// Offset of the state byte: after the magic line and `state `.
pub(super) const STATE_AT: u64 = (MAGIC.len() + "state ".len()) as u64;
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
    /// The journal's text with its seal line (see [`super::seal`]), bound to the journal
    /// folder `jdir`: what is written to disk. Errors when there is no key to seal with.
    pub(super) fn render_sealed(&self, jdir: &Dir) -> io::Result<String> {
        let mut text = self.render();
        let bind = super::seal::Binding::of(jdir)?;
        text.push_str(&super::seal::seal_line(text.as_bytes(), &bind)?);
        Ok(text)
    }

    /// The journal's text without the seal line.
    pub(super) fn render(&self) -> String {
        let mut out = format!(
            "{MAGIC}state {}\npid {}\n",
            self.state.byte() as char,
            self.pid
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
    pub(super) fn parse(text: &[u8]) -> Option<Record> {
        let text = std::str::from_utf8(text).ok()?;
        let rest = text.strip_prefix(MAGIC)?;
        let mut lines = rest.lines();
        let state = State::from_byte(*lines.next()?.strip_prefix("state ")?.as_bytes().first()?)?;
        let pid = lines.next()?.strip_prefix("pid ")?.parse().ok()?;
        let mut steps = Vec::new();
        let path = |f: &str| dec(f).map(|b| PathBuf::from(OsString::from_vec(b)));
        let name = |f: &str| dec(f).map(OsString::from_vec);
        for line in lines {
            let f: Vec<&str> = line.split(' ').collect();
            let step = match f.as_slice() {
                ["end"] => return Some(Record { state, pid, steps }),
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
}

impl<'d> Journal<'d> {
    /// Writes `record` as a new journal in `dir` (module doc, "Files"). `durable`: fsync it
    /// and the folder before returning.
    pub(super) fn create(dir: &'d Dir, record: &Record, durable: bool) -> io::Result<Journal<'d>> {
        let text = record.render_sealed(dir)?;
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
            let written = file
                .lock()
                .and_then(|()| file.write_all(text.as_bytes()))
                .and_then(|()| if durable { file.sync_all() } else { Ok(()) })
                .and_then(|()| dir.rename_new(&new, dir, &name));
            match written {
                Ok(()) => {}
                Err(e) => {
                    let _ = dir.unlink(&new);
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        continue;
                    }
                    return Err(e);
                }
            }
            if durable {
                dir.sync()?;
            }
            return Ok(Journal {
                dir,
                name,
                file,
                durable,
            });
        }
    }

    /// Moves to `state` (one byte, then `fdatasync`).
    pub(super) fn set_state(&self, state: State) -> io::Result<()> {
        rustix::io::pwrite(&self.file, &[state.byte()], STATE_AT)
            .map_err(|e| io::Error::from_raw_os_error(e.raw_os_error()))?;
        if self.durable {
            self.file.sync_data()?;
        }
        Ok(())
    }

    /// Removes the journal (the commit point of a multi-file write).
    pub(super) fn finish(self) -> io::Result<()> {
        self.dir.unlink(&self.name)?;
        if self.durable {
            self.dir.sync()?;
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
        let text = rec.render();
        assert_eq!(text.as_bytes()[STATE_AT as usize], b'C');
        assert_eq!(Record::parse(text.as_bytes()), Some(rec));
        assert_eq!(Record::parse(&text.as_bytes()[..text.len() - 4]), None);
        assert_eq!(Record::parse(b"garbage"), None);
    }
}
