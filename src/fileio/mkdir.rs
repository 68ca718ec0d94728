//! Making folders (spec 03, "make-dir"): the folder and its missing parents are made one at
//! a time through the file layer's handles ([`crate::fileio::beneath::Dir::create_dirs`]),
//! so a folder swapped for a symlink meanwhile makes the call fail instead of leading
//! outside. Like `mkdir -p`, a folder already there is not an error; a kill midway leaves the
//! folders made so far (empty folders, never a half-written file).

use std::io;
use std::path::Path;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::beneath::Kind;
use crate::fileio::env::WriteEnv;
use crate::fileio::fs::refusal;
use crate::text::plural::count;
use crate::workspace::policy::{Access, CheckedPath};

/// Runs a make-dir call (spec 03): makes the folder and its missing parents through handles.
/// A folder already there is not an error (as `mkdir -p`): `<path>/ already exists`. Output:
/// `Created <path>/`; `dry_run`: `Would create <path>/ (<n> folders)`.
pub fn make_dir(env: &dyn WriteEnv, spelled: &str, dry_run: bool) -> ToolResult {
    let p = env.check_path(spelled, Access::Write)?;
    let shown = format!("{}/", spelled.trim_end_matches('/'));
    let root = env
        .fs()
        .root(&p.base)
        .map_err(|e| refusal("create", spelled, &e))?;
    let rel = p.real.strip_prefix(&p.base).unwrap_or(Path::new(""));
    // The folders missing, from the innermost up to the nearest existing one.
    let mut missing = 0usize;
    let mut at = Some(rel);
    while let Some(dir) = at {
        match root.stat(dir) {
            Ok(st) if st.kind == Kind::Dir => break,
            Ok(st) => {
                let what = env.display(&p.base.join(dir));
                return Err(ToolError::refused(if missing == 0 {
                    format!(
                        "{spelled} exists and is a {}, not a folder; nothing was created",
                        st.kind.name()
                    )
                } else {
                    not_a_folder(&what, st.kind, &shown)
                }));
            }
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.raw_os_error() == Some(libc::ENOTDIR) =>
            {
                missing += 1;
                at = dir.parent();
            }
            Err(e) => return Err(refusal("create", spelled, &e)),
        }
    }
    if missing == 0 {
        return Ok(
            Output::text(format!("{shown} already exists; nothing was created\n"))
                .with("path", shown)
                .with("created", 0),
        );
    }
    if dry_run {
        return Ok(Output::text(format!(
            "Would create {shown} ({})\n",
            count(missing, "folder")
        ))
        .with("dry_run", true)
        .with("created", missing));
    }
    let _writing = env.gate().writing()?;
    let (_, created) = root
        .create_dirs(rel)
        .map_err(|e| refusal("create", spelled, &e))?;
    // The outermost new folder's entry is durable once its parent is synced.
    if let Some(parent) = created.first().and_then(|c| c.parent())
        && let Ok(d) = root.open_dir(parent)
    {
        let _ = d.sync();
    }
    let parents = created.len().saturating_sub(1);
    let mut text = format!("Created {shown}");
    if parents > 0 {
        text.push_str(&format!(
            " (and {} above it)",
            count(parents, "missing folder")
        ));
    }
    text.push('\n');
    Ok(Output::text(text)
        .with("path", shown)
        .with("created", created.len()))
}

/// `<what> is a <kind>, not a folder, so <shown> cannot be made in it`: why a path cannot be
/// made under an entry that is not a folder (make-dir, and the destinations of move-path and
/// copy-path).
pub fn not_a_folder(what: &str, kind: Kind, shown: &str) -> String {
    format!(
        "{what} is a {}, not a folder, so {shown} cannot be made in it",
        kind.name()
    )
}

/// The nearest existing entry above `p` (its folder, that folder's folder, ...) when it is
/// not a folder: its path as shown to the caller and its kind. `None` when it is a folder, or
/// when it cannot be looked at (the caller's own step then says why).
pub fn non_folder_above(env: &dyn WriteEnv, p: &CheckedPath) -> Option<(String, Kind)> {
    let root = env.fs().root(&p.base).ok()?;
    let rel = p.real.strip_prefix(&p.base).ok()?;
    let mut at = rel.parent();
    while let Some(dir) = at {
        match root.stat(dir) {
            Ok(st) if st.kind == Kind::Dir => return None,
            Ok(st) => return Some((env.display(&p.base.join(dir)), st.kind)),
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.raw_os_error() == Some(libc::ENOTDIR) =>
            {
                at = dir.parent();
            }
            Err(_) => return None,
        }
    }
    None
}
