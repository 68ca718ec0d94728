//! The notes store (spec 06, "notes"): memory that outlives a session, one note a file
//! `<name>.md` in one folder (default `.agent-state/notes/`, config `notes.dir`,
//! `--notes-dir`).
//!
//! - The store folder passes the path policy (a symlinked store leading out of the workspace
//!   is refused) and is then opened through the file layer ([`crate::fileio::fs`]) from a
//!   handle on the allowed root holding it, without following any symlink, and used through
//!   that one handle ([`Dir`]): a folder renamed or swapped by another process cannot redirect
//!   a note.
//! - A note file that is a symlink or not a regular file is refused, never followed.
//! - Writes are atomic ([`atomic::write_at`]: temp file, rename, with a temp note in the
//!   journal so the next call removes the temp file of a killed writer); a write, an append
//!   (read, add, write) and a removal of one note hold the note's lock
//!   (`.agent-state/locks/`, the same lock the write tools take for that file), so concurrent
//!   writers in separate processes lose nothing.
//! - A note is at most [`MAX_NOTE_BYTES`] and always ends with a newline.

pub mod name;

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::Path;
use std::time::SystemTime;

use crate::error::{ErrorKind, ToolError, io_reason};
use crate::fileio::atomic;
use crate::fileio::beneath::{Dir, Kind};
use crate::fileio::fs::{Located, PathLock, Stop, describe, interrupted_by, kind_name};
use crate::text::path_escape::encode_path;
use crate::workspace::context::Ctx;
use crate::workspace::policy::{self, Access, CheckedPath};
use crate::workspace::root;

pub use name::NoteName;

/// Most bytes in one note (64 KiB).
pub const MAX_NOTE_BYTES: usize = 64 * 1024;
/// Most notes `notes list` shows; the rest are counted on a last line (spec 06).
pub const MAX_LISTED: usize = 200;
/// Bytes read from a note for its first line when no query needs the whole text.
const FIRST_LINE_READ_BYTES: u64 = 4096;
/// Most characters of a first line shown by `notes list`.
const FIRST_LINE_CHARS: usize = 100;

/// One note as `notes list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteInfo {
    /// The name.
    pub name: NoteName,
    /// Size in bytes.
    pub size: u64,
    /// Modification time.
    pub modified: SystemTime,
    /// The first non-blank line, on one line, at most 100 characters (`…` when cut).
    pub first_line: String,
}

/// What is in the store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// The notes matching the query (all notes without one), newest first, ties by name.
    pub notes: Vec<NoteInfo>,
    /// How many notes the store holds in all.
    pub total: usize,
    /// Entries that are not notes: other names, symlinks, folders, temp files.
    pub others: usize,
}

/// The facts of one note file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoteStat {
    /// Size in bytes.
    pub size: u64,
    /// Modification time.
    pub modified: SystemTime,
}

/// The notes store of a context, opened.
pub struct Store<'c> {
    ctx: &'c Ctx,
    /// The store folder, reached without following symlinks.
    dir: Dir,
    /// Where it is (policy-checked, symlinks resolved) and the allowed root holding it.
    at: CheckedPath,
}

/// The file that marks a folder outside `.agent-state/` as a notes store (see
/// `Store::check_ours`).
pub const STORE_MARKER: &str = ".agtool-notes";

/// What a write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Saved {
    /// The note's size afterwards, in bytes.
    pub bytes: usize,
    /// Whether the note did not exist before.
    pub created: bool,
}

/// Whether notes_write and notes_delete are sensitive (need approval in a host that asks):
/// config `notes.write_sensitive`, default false (spec 00, spec 06).
pub fn writes_sensitive(ctx: &Ctx) -> bool {
    ctx.config
        .notes
        .as_ref()
        .and_then(|n| n.write_sensitive)
        .unwrap_or(false)
}

/// The store as the caller sees it in messages (relative to the current directory when under
/// it), with where it was configured when that was not the default.
fn store_label(ctx: &Ctx) -> String {
    let shown = ctx.display(&ctx.notes_dir);
    match ctx.notes_dir_origin {
        "default" => format!("the notes store {shown}"),
        origin => format!("the notes store {shown} (from {origin})"),
    }
}

fn refuse(msg: String) -> ToolError {
    ToolError::refused(msg)
}

/// Checks the store folder against the path policy (the state folder may be written: the
/// default store is in it). Returns the folder with symlinks resolved, and its allowed root.
fn check_store(ctx: &Ctx, access: Access) -> Result<CheckedPath, ToolError> {
    let literal = policy::fold(&ctx.notes_dir);
    let real = policy::resolve(&literal).map_err(|_| {
        refuse(format!(
            "{} cannot be resolved: too many levels of symbolic links",
            store_label(ctx)
        ))
    })?;
    let shown = ctx.display(&ctx.notes_dir);
    ctx.policy
        .check_state_store(&shown, literal.clone(), real.clone(), access)
        .map_err(|e| {
            let via = if literal != real {
                format!(" (it leads to {})", real.display())
            } else {
                String::new()
            };
            refuse(format!(
                "{}{via}: {e}; notes stay inside the workspace: set --notes-dir or config notes.dir to a folder in it",
                store_label(ctx)
            ))
        })
}

fn open_error(ctx: &Ctx, e: &io::Error) -> ToolError {
    let label = store_label(ctx);
    match e.raw_os_error() {
        Some(libc::ENOTDIR) => refuse(format!(
            "{label} is not a folder (a file is in the way); move it, or set --notes-dir or config notes.dir"
        )),
        Some(libc::ELOOP) | Some(libc::EXDEV) => refuse(format!(
            "{label} is a symlink that changed while in use; try again"
        )),
        _ => refuse(format!("{label} cannot be opened: {}", io_reason(e))),
    }
}

/// A note file that is not a regular file (`InvalidData`, naming what it is).
fn not_regular(file: &str, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{file} is a {what}, not a regular file"),
    )
}

/// The error for a note file over [`MAX_NOTE_BYTES`] (`FileTooLarge`, naming its size).
fn oversized(file: &str, size: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{file} is {}, over the limit of {MAX_NOTE_BYTES} bytes (64 KiB) per note, so it \
             was not read; it was not written by agtool",
            crate::text::plural::count(size, "byte")
        ),
    )
}

/// The bytes of the regular file `file` of `dir` (at most `cap` bytes when given; else the
/// whole file, refused by its size over [`MAX_NOTE_BYTES`]) and its
/// facts; `None` when it does not exist. A symlink, folder or special file is refused
/// (`InvalidData`) without being followed or blocked on.
fn read_note_file(
    dir: &Dir,
    file: &str,
    cap: Option<u64>,
) -> io::Result<Option<(Vec<u8>, NoteStat)>> {
    let f = match dir.open_file(Path::new(file)) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        // The last name is never followed: a symlink there says ELOOP.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(not_regular(file, "symlink"));
        }
        Err(e) => match dir.stat_at(OsStr::new(file)) {
            Ok(st) if st.kind != Kind::File => return Err(not_regular(file, st.kind.name())),
            _ => return Err(e),
        },
    };
    let meta = f.metadata()?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "folder"
        } else {
            kind_name(&meta.file_type())
        };
        return Err(not_regular(file, what));
    }
    let stat = NoteStat {
        size: meta.len(),
        modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
    };
    // A whole read is bounded by the note limit (issue 17, item 5): a file over it was not
    // written by agtool and is refused by its size, never loaded (a 64 GiB sparse file
    // aborted `notes read` on the allocation).
    let cap = match cap {
        Some(cap) => cap,
        None if stat.size > MAX_NOTE_BYTES as u64 => return Err(oversized(file, stat.size)),
        None => MAX_NOTE_BYTES as u64 + 1,
    };
    let mut bytes = Vec::with_capacity(stat.size.min(cap) as usize);
    (&f).take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_NOTE_BYTES {
        // It grew while being read.
        return Err(oversized(file, bytes.len() as u64));
    }
    Ok(Some((bytes, stat)))
}

/// The kind of the entry `file` of `dir` (not following a symlink); `None` when missing.
fn kind_of(dir: &Dir, file: &str) -> io::Result<Option<(Kind, u64)>> {
    match dir.stat_at(OsStr::new(file)) {
        Ok(st) => Ok(Some((st.kind, st.len))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

impl<'c> Store<'c> {
    /// Opens the store for reading; `None` when it does not exist yet (nothing is created).
    pub fn open_existing(ctx: &'c Ctx) -> Result<Option<Store<'c>>, ToolError> {
        let at = check_store(ctx, Access::Read)?;
        // What a killed writer left (a temp note file) is cleaned up first.
        ctx.recover_once();
        match ctx.fs.open_dir(&at) {
            Ok(dir) => Ok(Some(Store { ctx, dir, at })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(open_error(ctx, &e)),
        }
    }

    /// Opens the store for writing, creating it (and `.agent-state/`, for the locks) when
    /// missing: each missing folder is made and opened from its parent's handle, from the
    /// allowed root down, never through a symlink.
    pub fn open_for_write(ctx: &'c Ctx) -> Result<Store<'c>, ToolError> {
        let at = check_store(ctx, Access::Write)?;
        ctx.recover_once();
        let dir = match ctx.fs.open_dir(&at) {
            Ok(dir) => dir,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // The default store is in the state folder: made the usual way, with its
                // .gitignore.
                if at.real.starts_with(ctx.state_dir()) {
                    root::ensure_state_dir(&ctx.root).map_err(|e| open_error(ctx, &e))?;
                }
                let rel = at.real.strip_prefix(&at.base).unwrap_or(Path::new(""));
                ctx.fs
                    .root(&at.base)
                    .and_then(|r| r.create_dirs(rel))
                    .map(|(dir, _)| dir)
                    .map_err(|e| open_error(ctx, &e))?
            }
            Err(e) => return Err(open_error(ctx, &e)),
        };
        Ok(Store { ctx, dir, at })
    }

    /// The store folder as the caller sees it.
    pub fn shown(&self) -> String {
        self.ctx.display(&self.at.real)
    }

    /// The notes, newest first; with `query`, only those whose name or text contains it (any
    /// letter case).
    pub fn list(&self, query: Option<&str>) -> Result<Listing, ToolError> {
        let names = self.dir.entries().map_err(|e| {
            refuse(format!(
                "{} cannot be listed: {}",
                store_label(self.ctx),
                io_reason(&e)
            ))
        })?;
        let query = query.map(str::to_lowercase);
        let mut listing = Listing::default();
        for entry in names {
            let file = entry.name;
            let note = file
                .to_str()
                .and_then(NoteName::from_file_name)
                .filter(|_| {
                    kind_of(&self.dir, file.to_str().unwrap_or_default())
                        .ok()
                        .flatten()
                        .is_some_and(|(k, _)| k == Kind::File)
                });
            let Some(name) = note else {
                listing.others += 1;
                continue;
            };
            let cap = if query.is_some() {
                None
            } else {
                Some(FIRST_LINE_READ_BYTES)
            };
            let (text, stat) = match read_note_file(&self.dir, &name.file_name(), cap) {
                Ok(Some((bytes, stat))) => (String::from_utf8_lossy(&bytes).into_owned(), stat),
                // Removed since the folder was read: no longer a note.
                Ok(None) => continue,
                // Unreadable (or replaced by a symlink meanwhile): still listed, never dropped.
                Err(e) => match self.dir.stat_at(OsStr::new(&name.file_name())) {
                    Ok(st) => (
                        format!("(cannot be read: {})", io_reason(&e)),
                        NoteStat {
                            size: st.len,
                            modified: st.mtime,
                        },
                    ),
                    Err(_) => continue,
                },
            };
            listing.total += 1;
            if let Some(q) = &query
                && !name.as_str().to_lowercase().contains(q.as_str())
                && !text.to_lowercase().contains(q.as_str())
            {
                continue;
            }
            listing.notes.push(NoteInfo {
                first_line: first_line(&text),
                name,
                size: stat.size,
                modified: stat.modified,
            });
        }
        listing.notes.sort_by(|a, b| {
            b.modified
                .cmp(&a.modified)
                .then_with(|| a.name.cmp(&b.name))
        });
        Ok(listing)
    }

    /// The names of every note, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .dir
            .entries()
            .unwrap_or_default()
            .iter()
            .filter_map(|e| e.name.to_str().and_then(NoteName::from_file_name))
            .map(|n| n.as_str().to_owned())
            .collect();
        names.sort();
        names
    }

    /// A note's bytes and facts. Errors: no such note (with the closest names), a symlink or
    /// other non-regular file, an unreadable file.
    pub fn read(&self, name: &NoteName) -> Result<(Vec<u8>, NoteStat), ToolError> {
        match read_note_file(&self.dir, &name.file_name(), None) {
            Ok(Some(found)) => Ok(found),
            Ok(None) => Err(self.unknown(name)),
            Err(e) => Err(self.bad_file(name, &e)),
        }
    }

    /// Writes `content` as the note `name`, or appends it (on a new line) to the existing
    /// note with `append` (creating it when missing). The note ends with a newline. Errors:
    /// over [`MAX_NOTE_BYTES`], a note file that is a symlink or not a regular file, a store
    /// folder agtool did not make, the filesystem's. Nothing is written (and no lock file made) when refused.
    pub fn write(&self, name: &NoteName, content: &str, append: bool) -> Result<Saved, ToolError> {
        // Planned once before taking the lock, so a refused write creates nothing, and again
        // under it: the note may have changed while this call waited.
        self.plan_write(name, content, append)?;
        self.check_ours()?;
        let _lock = self.lock(name)?;
        let (after, created) = self.plan_write(name, content, append)?;
        let _writing = self.ctx.gate.start_writing().ok_or_else(|| {
            refuse("the call timed out before writing; nothing was changed".to_owned())
        })?;
        let loc = Located {
            dir: self.dir.try_clone().map_err(|e| open_error(self.ctx, &e))?,
            name: name.file_name().into(),
            base: self.at.base.clone(),
            dir_rel: self
                .at
                .real
                .strip_prefix(&self.at.base)
                .unwrap_or(Path::new(""))
                .to_path_buf(),
        };
        let stop = Stop::watching();
        atomic::write_at(&self.ctx.fs, &loc, &[&after], None, &stop).map_err(|e| {
            match interrupted_by(&e) {
                Some(sig) => ToolError {
                    kind: ErrorKind::Interrupted(sig),
                    message: format!(
                        "interrupted by {} while writing note {name}; nothing was changed",
                        crate::interrupt::signal_name(sig)
                    ),
                    fields: serde_json::Map::new(),
                },
                None => refuse(format!(
                    "cannot write note {name}: {}; nothing was changed",
                    describe(&e)
                )),
            }
        })?;
        Ok(Saved {
            bytes: after.len(),
            created,
        })
    }

    /// The note's bytes after the write, and whether it is new.
    fn plan_write(
        &self,
        name: &NoteName,
        content: &str,
        append: bool,
    ) -> Result<(Vec<u8>, bool), ToolError> {
        // A replacement needs only to know whether the note exists (an oversized one is
        // replaced without being read); an append reads it, bounded by the note limit.
        let cap = if append { None } else { Some(0) };
        let before = match read_note_file(&self.dir, &name.file_name(), cap) {
            Ok(found) => found.map(|(bytes, _)| bytes),
            Err(e) => return Err(self.bad_file(name, &e)),
        };
        let mut after: Vec<u8> = Vec::with_capacity(content.len() + 1);
        // An append to a missing note creates it (several agents may start one log at once:
        // the per-note lock orders them).
        if append && let Some(old) = &before {
            after.extend_from_slice(old);
            if !old.is_empty() && !old.ends_with(b"\n") {
                after.push(b'\n');
            }
        }
        after.extend_from_slice(content.as_bytes());
        if !after.ends_with(b"\n") {
            after.push(b'\n');
        }
        if after.len() > MAX_NOTE_BYTES {
            let what = match &before {
                Some(old) if append => format!(
                    "appending {} to note {name} ({}) would make it {}",
                    crate::text::plural::count(content.len(), "byte"),
                    crate::text::plural::count(old.len(), "byte"),
                    crate::text::plural::count(after.len(), "byte")
                ),
                _ => format!(
                    "note {name} would be {}",
                    crate::text::plural::count(after.len(), "byte")
                ),
            };
            return Err(too_big(&what));
        }
        Ok((after, before.is_none()))
    }

    /// Refuses to write or delete in a store folder that agtool did not make as one, since its
    /// `.md` files may be the project's own (`--notes-dir docs` would let a note replace
    /// `docs/guide.md`). A store under `.agent-state/` is agtool's; another folder is a store
    /// when it holds the marker file [`STORE_MARKER`], which is put into a folder that holds
    /// nothing else on its first write.
    fn check_ours(&self) -> Result<(), ToolError> {
        if self.at.real.starts_with(self.ctx.state_dir()) {
            return Ok(());
        }
        let marker = OsStr::new(STORE_MARKER);
        if self.dir.stat_at(marker).is_ok() {
            return Ok(());
        }
        // A folder that cannot be listed is not known to be empty.
        let entries = self.dir.entries().map_err(|e| {
            refuse(format!(
                "{} cannot be listed ({}), so it is not known to hold only notes; nothing was \
                 changed",
                store_label(self.ctx),
                io_reason(&e)
            ))
        })?;
        let mut others: Vec<String> = entries
            .into_iter()
            .map(|e| encode_path(Path::new(&e.name)).into_owned())
            .collect();
        others.sort_unstable();
        if others.is_empty() {
            return match self.dir.create_new(marker, 0o644) {
                Ok(_) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(refuse(format!(
                    "cannot mark {} as a notes store: {}",
                    self.shown(),
                    io_reason(&e)
                ))),
            };
        }
        let shown: Vec<&str> = others.iter().map(String::as_str).take(3).collect();
        let more = if others.len() > 3 { ", ..." } else { "" };
        Err(refuse(format!(
            "{} was not made as a notes store and holds other files ({}{more}); notes could \
             replace or delete them, so nothing was changed. Point --notes-dir or config \
             notes.dir at a new or empty folder, or create {}/{STORE_MARKER} to make this \
             folder a notes store",
            store_label(self.ctx),
            shown.join(", "),
            self.shown(),
        )))
    }

    /// Removes the note `name`; returns its size. Errors as [`Store::read`]; nothing is
    /// removed (and no lock file made) when refused.
    pub fn delete(&self, name: &NoteName) -> Result<u64, ToolError> {
        self.check_ours()?;
        self.deletable(name)?;
        let _lock = self.lock(name)?;
        let size = self.deletable(name)?;
        let _writing = self.ctx.gate.start_writing().ok_or_else(|| {
            refuse("the call timed out before deleting; nothing was changed".to_owned())
        })?;
        self.dir
            .unlink(OsStr::new(&name.file_name()))
            .and_then(|()| self.dir.sync())
            .map_err(|e| refuse(format!("cannot delete note {name}: {}", describe(&e))))?;
        Ok(size)
    }

    /// The size of the note `name` when it is a regular file that can be removed.
    fn deletable(&self, name: &NoteName) -> Result<u64, ToolError> {
        let file = name.file_name();
        match kind_of(&self.dir, &file) {
            Ok(Some((Kind::File, size))) => Ok(size),
            Ok(Some((kind, _))) => {
                let what = if kind == Kind::Dir {
                    "folder"
                } else {
                    kind.name()
                };
                Err(self.bad_file(name, &not_regular(&file, what)))
            }
            Ok(None) => Err(self.unknown(name)),
            Err(e) => Err(self.bad_file(name, &e)),
        }
    }

    fn lock(&self, name: &NoteName) -> Result<PathLock, ToolError> {
        root::ensure_state_dir(&self.ctx.root).map_err(|e| {
            refuse(format!(
                "cannot create {} (it holds the note locks): {}",
                self.ctx.display(&self.ctx.state_dir()),
                io_reason(&e)
            ))
        })?;
        let target = self.at.real.join(name.file_name());
        PathLock::acquire(&self.ctx.state_dir(), &target)
            .map_err(|e| refuse(format!("cannot lock note {name}: {}", io_reason(&e))))
    }

    /// `no note named <name>` with the closest existing names.
    pub fn unknown(&self, name: &NoteName) -> ToolError {
        unknown_note(name, &self.names())
    }

    fn bad_file(&self, name: &NoteName, e: &io::Error) -> ToolError {
        let path = self.ctx.display(&self.at.real.join(name.file_name()));
        if e.kind() == io::ErrorKind::FileTooLarge {
            refuse(format!(
                "note {name} ({path}): {e}; remove it or cut it down by hand"
            ))
        } else if e.kind() == io::ErrorKind::InvalidData {
            refuse(format!(
                "note {name} ({path}) is not a regular file ({e}); notes never follow symlinks: \
                 remove it or replace it with a regular file"
            ))
        } else {
            refuse(format!(
                "cannot read note {name} ({path}): {}",
                io_reason(e)
            ))
        }
    }
}

/// The error for a note that does not exist, with up to 5 closest names of `existing` (all
/// of them when there are at most 10 and none is close).
pub fn unknown_note(name: &NoteName, existing: &[String]) -> ToolError {
    if existing.is_empty() {
        return refuse(format!("no note named {name} (the store has no notes yet)"));
    }
    let names: Vec<&str> = existing.iter().map(String::as_str).collect();
    let close: Vec<&str> = crate::text::names::rank_by_likeness(name.as_str(), &names)
        .into_iter()
        .filter(|(_, score)| *score >= 0.4)
        .take(5)
        .map(|(n, _)| n)
        .collect();
    if !close.is_empty() {
        refuse(format!(
            "no note named {name}; closest: {}",
            close.join(", ")
        ))
    } else if names.len() <= 10 {
        refuse(format!(
            "no note named {name}; the notes are: {}",
            names.join(", ")
        ))
    } else {
        refuse(format!(
            "no note named {name}; none is close (notes_list shows all {})",
            names.len()
        ))
    }
}

/// The refusal for a note over [`MAX_NOTE_BYTES`]; `what` says how big it would be.
pub fn too_big(what: &str) -> ToolError {
    refuse(format!(
        "{what}, over the limit of {MAX_NOTE_BYTES} bytes (64 KiB) per note; nothing was \
         written. Keep notes short: split this into several notes or drop what is no longer \
         needed"
    ))
}

/// The first non-blank line of a note, on one line, cut at 100 characters with `…`.
fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let line: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match line.char_indices().nth(FIRST_LINE_CHARS) {
        None => line,
        Some((at, _)) => format!("{}…", &line[..at]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines() {
        assert_eq!(first_line("\n\n  # Build\nmore"), "# Build");
        assert_eq!(first_line(""), "");
        let long = "x".repeat(150);
        assert_eq!(first_line(&long).chars().count(), FIRST_LINE_CHARS + 1);
        assert_eq!(first_line("a\tb"), "a b");
    }

    #[test]
    fn unknown_names_the_closest() {
        let n = NoteName::parse("biuld").unwrap();
        let e = unknown_note(&n, &["build".into(), "deploy".into(), "build-notes".into()]);
        assert!(
            e.message.starts_with("no note named biuld; closest: build"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("deploy"), "{}", e.message);
        let e = unknown_note(&n, &[]);
        assert!(e.message.contains("no notes yet"), "{}", e.message);
    }
}
