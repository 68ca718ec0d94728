//! Recovery of the journals of dead processes (module doc of [`super`], "Recovery").

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::record::{Record, State, Step};
use super::seal::{Binding, is_registered, is_sealed, unregister};
use super::{Dirs, roll_back, roll_forward};
use crate::fileio::beneath::parse_temp_name;
use crate::fileio::fs::Fs;

/// A `.new` file whose lock is free is deleted only when older than this: its writer may be
/// between creating and locking it.
const NEW_GRACE: Duration = Duration::from_secs(5);
/// The recovery lock's name in the journal folder.
pub(super) const LOCK_NAME: &str = "lock";

/// Whether a journal's steps stay where recovery may act: writable roots of the current
/// policy, single names, temp and backup names of the journal's own process.
fn trusted(fs: &Fs, rec: &Record) -> bool {
    let ours = |n: &OsStr| parse_temp_name(n) == Some(rec.pid);
    let plain = |p: &Path| {
        p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
    };
    rec.steps.iter().all(|s| match s {
        Step::Write {
            base,
            dir,
            temp,
            backup,
            ..
        } => {
            fs.is_write_base(base) && plain(dir) && ours(temp) && backup.as_deref().is_none_or(ours)
        }
        Step::Remove {
            base, dir, backup, ..
        } => fs.is_write_base(base) && plain(dir) && ours(backup),
        Step::Temp { base, dir, temp } => fs.is_write_base(base) && plain(dir) && ours(temp),
        Step::Mkdir { base, dir } => fs.is_write_base(base) && plain(dir),
        Step::Tree { base, dir, temp }
        | Step::Aside {
            base, dir, temp, ..
        } => fs.is_write_base(base) && plain(dir) && ours(temp),
        Step::Place {
            base,
            dir,
            temp,
            backup,
            ..
        } => {
            fs.is_write_base(base) && plain(dir) && ours(temp) && backup.as_deref().is_none_or(ours)
        }
    })
}

/// Recovers every journal of a dead process in the workspace (module doc, "Recovery").
/// Returns one line per thing done, for the caller to say once (paths through `show`). Cheap
/// when there is nothing to do: one look at the journal folder.
pub fn recover(fs: &Fs, show: &dyn Fn(&Path) -> String) -> Vec<String> {
    let Ok(Some(jdir)) = fs.journal_dir(false) else {
        return Vec::new();
    };
    let busy =
        |entries: &[crate::fileio::beneath::Entry]| entries.iter().any(|e| e.name != LOCK_NAME);
    if !jdir.entries().is_ok_and(|e| busy(&e)) {
        return Vec::new();
    }
    // A lock that is not a regular file (a folder committed to a repository would otherwise
    // turn recovery off for good) is set aside first.
    if jdir
        .stat_at(OsStr::new(LOCK_NAME))
        .is_ok_and(|st| st.kind != crate::fileio::beneath::Kind::File)
    {
        let aside = format!("{LOCK_NAME}.not-a-file.{}", std::process::id());
        let _ = jdir.rename(OsStr::new(LOCK_NAME), &jdir, OsStr::new(&aside));
    }
    let lock = match jdir.create_new(OsStr::new(LOCK_NAME), 0o644).or_else(|_| {
        jdir.open_file(Path::new(LOCK_NAME)).and_then(|f| {
            if f.metadata()?.is_file() {
                Ok(f)
            } else {
                Err(io::Error::other("not a file"))
            }
        })
    }) {
        Ok(f) => f,
        Err(e) => return vec![format!("cannot lock the journal folder to recover it: {e}")],
    };
    if lock.lock().is_err() {
        return Vec::new();
    }
    let mut said = Vec::new();
    let Ok(entries) = jdir.entries() else {
        return said;
    };
    for e in entries {
        let name = e.name;
        let text = name.to_string_lossy().into_owned();
        if text == LOCK_NAME {
            continue;
        }
        let Ok(mut file) = jdir.open_file(Path::new(&name)) else {
            continue;
        };
        if file.try_lock().is_err() {
            continue; // its process is alive
        }
        let Ok(meta) = file.metadata() else { continue };
        if !meta.is_file() || std::os::unix::fs::MetadataExt::nlink(&meta) == 0 {
            continue;
        }
        if text.starts_with('.') && text.ends_with(".new") {
            let old = meta
                .modified()
                .ok()
                .and_then(|m| SystemTime::now().duration_since(m).ok())
                .is_some_and(|age| age > NEW_GRACE);
            if old {
                let _ = jdir.unlink(&name);
            }
            continue;
        }
        if !text.ends_with(".j") {
            continue;
        }
        let mut bytes = Vec::new();
        if file.read_to_end(&mut bytes).is_err() {
            continue;
        }
        if !Binding::of(&jdir).is_ok_and(|bind| is_sealed(&bytes, &bind)) {
            // Not written by this user's agtool for this journal folder (one that came with a
            // repository or an archive, or was planted; or one written under another key):
            // never acted on, and left where it is, so that the agtool that wrote it (the same
            // user, HOME and XDG_STATE_HOME) can still recover it.
            said.push(format!(
                "journal .agent-state/journal/{text} was not written by agtool for this user in \
                 this folder (it has no valid seal), so nothing it names was touched; if a \
                 write was interrupted under another HOME or XDG_STATE_HOME, run agtool there \
                 to recover it, else remove the file"
            ));
            continue;
        }
        let record = Record::parse(&bytes);
        let Some((rec, head)) = record else {
            said.push(format!(
                "journal .agent-state/journal/{text} is unreadable; it was left as it is"
            ));
            continue;
        };
        // Usable once, and only as the file it was written as: a copy (another inode), or a
        // journal whose write finished or was already recovered (its nonce used up), put back
        // with any state, is obeyed in nothing.
        let this_file = (
            std::os::unix::fs::MetadataExt::dev(&meta),
            std::os::unix::fs::MetadataExt::ino(&meta),
        );
        let workspace = jdir
            .path()
            .parent()
            .and_then(Path::parent)
            .unwrap_or(jdir.path());
        if head.file != this_file || !is_registered(workspace, &head.nonce) {
            said.push(format!(
                "journal .agent-state/journal/{text} is a copy of a journal, or one already used \
                 up (its write finished or was recovered), so nothing it names was touched; \
                 remove the file"
            ));
            continue;
        }
        let used_up = || unregister(workspace, &head.nonce);
        if !trusted(fs, &rec) {
            said.push(format!(
                "journal .agent-state/journal/{text} names files outside the writable roots; it \
                 was left as it is"
            ));
            continue;
        }
        match rec.state {
            State::Temp => {
                for s in &rec.steps {
                    if let Step::Temp { base, dir, temp } = s
                        && let Ok(d) = fs.root(base).and_then(|r| r.open_dir(dir))
                        && d.unlink(temp).is_ok()
                    {
                        said.push(format!(
                            "removed {} left by a killed write (process {})",
                            show(&base.join(dir).join(temp)),
                            rec.pid
                        ));
                    }
                }
                let _ = jdir.unlink(&name);
                used_up();
            }
            State::Done => match roll_forward(&mut Dirs::new(fs), &rec) {
                Ok(()) => {
                    said.push(format!(
                        "removed the backups left by a completed write (process {})",
                        rec.pid
                    ));
                    let _ = jdir.unlink(&name);
                    let _ = jdir.sync();
                    used_up();
                }
                Err(e) => said.push(format!(
                    "could not remove the leftovers of a finished write of process {} ({}); \
                     the next call tries again",
                    rec.pid,
                    crate::fileio::fs::describe(&e)
                )),
            },
            State::Preparing | State::Committing => {
                let mut dirs = Dirs::new(fs);
                dirs.committed_at = meta.modified().ok();
                let rolled = roll_back(&mut dirs, &rec);
                let kept: Vec<String> = dirs.kept.iter().map(|p| show(p)).collect();
                if !kept.is_empty() {
                    said.push(format!(
                        "left {} as {} now: {} changed after an interrupted write (process {}) \
                         that is rolled back, so {} not put back",
                        kept.join(", "),
                        if kept.len() == 1 { "it is" } else { "they are" },
                        if kept.len() == 1 {
                            "it was"
                        } else {
                            "they were"
                        },
                        rec.pid,
                        if kept.len() == 1 {
                            "its old version was"
                        } else {
                            "their old versions were"
                        }
                    ));
                }
                match rolled {
                    Ok(restored) => {
                        let targets: Vec<String> = rec
                            .steps
                            .iter()
                            .filter_map(|s| match s {
                                Step::Write {
                                    base, dir, name, ..
                                }
                                | Step::Remove {
                                    base, dir, name, ..
                                }
                                | Step::Place {
                                    base, dir, name, ..
                                }
                                | Step::Aside {
                                    base, dir, name, ..
                                } => Some(show(&base.join(dir).join(name))),
                                _ => None,
                            })
                            .filter(|t| !kept.contains(t))
                            .collect();
                        let restored: Vec<String> = restored.iter().map(|p| show(p)).collect();
                        if restored.is_empty() && kept.is_empty() {
                            said.push(format!(
                                "an interrupted write (process {}) had changed nothing yet; its \
                                 temp files were removed, and {} stayed as they were",
                                rec.pid,
                                targets.join(", ")
                            ));
                        } else if !restored.is_empty() {
                            // Only what was put back is named (every target was).
                            said.push(format!(
                                "rolled back an interrupted write (process {}) so that no file is \
                                 half-changed: {} restored ({})",
                                rec.pid,
                                restored.len(),
                                restored.join(", ")
                            ));
                        }
                        let _ = jdir.unlink(&name);
                        let _ = jdir.sync();
                        used_up();
                    }
                    Err(e) => said.push(format!(
                        "could not roll back the interrupted write of process {} ({}); the next \
                     call tries again",
                        rec.pid,
                        crate::fileio::fs::describe(&e)
                    )),
                }
            }
        }
    }
    said
}
