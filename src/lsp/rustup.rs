//! rustup's proxies (spec 09, "Which server"): `~/.cargo/bin/rust-analyzer` is a link to
//! rustup, which runs the active toolchain's rust-analyzer or, when that component is not
//! installed, prints an error and exits. Such a proxy is not a server. Asking it costs about
//! 0.25 s (rustup starts itself again some twenty times), which every read and edit of a `.rs`
//! file paid in the one-process-per-call faces; the answer is kept in the user's cache folder
//! until rustup's toolchains or settings change.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Whether `found` is a rustup proxy whose component is not installed: asked once per
/// process and program, and across processes through [`cache_file`].
pub(super) fn is_broken_proxy(found: &Path) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashMap<PathBuf, bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(&known) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(found) {
        return known;
    }
    let broken = is_proxy(found) && answer(found);
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(found.to_path_buf(), broken);
    broken
}

/// Whether `found` is the same file as the `rustup` beside it.
fn is_proxy(found: &Path) -> bool {
    let Some(rustup) = found.parent().map(|d| d.join("rustup")) else {
        return false;
    };
    match (std::fs::metadata(found), std::fs::metadata(&rustup)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The kept answer for the proxy `found` when rustup's state is what it was, else a new
/// probe, kept.
fn answer(found: &Path) -> bool {
    let print = fingerprint(found);
    let file = cache_file(found);
    if let (Some(print), Some(file)) = (&print, &file)
        && let Ok(text) = std::fs::read_to_string(file)
        && let Some((kept, broken)) = text.trim_end().rsplit_once(' ')
        && kept == print
    {
        return broken == "broken";
    }
    let broken = probe(found);
    if let (Some(print), Some(file)) = (print, file) {
        keep(
            &file,
            &format!("{print} {}\n", if broken { "broken" } else { "works" }),
        );
    }
    broken
}

/// Runs the proxy with `--version`: it fails when the component is not installed.
fn probe(found: &Path) -> bool {
    !std::process::Command::new(found)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What the proxy's answer depends on, as one line: the proxy file, `RUSTUP_TOOLCHAIN`,
/// rustup's settings file and each toolchain's `bin` folder (a component added or removed
/// changes its time). None when rustup's home cannot be found (nothing is kept then).
fn fingerprint(found: &Path) -> Option<String> {
    let home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".rustup")))?;
    let stamp = |p: &Path| {
        std::fs::metadata(p).map_or_else(
            |_| "-".to_owned(),
            |m| format!("{}.{}.{}.{}", m.dev(), m.ino(), m.mtime(), m.mtime_nsec()),
        )
    };
    let mut parts = vec![
        stamp(found),
        format!("{:?}", std::env::var_os("RUSTUP_TOOLCHAIN")),
        stamp(&home.join("settings.toml")),
    ];
    let mut toolchains: Vec<PathBuf> = std::fs::read_dir(home.join("toolchains"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    toolchains.sort();
    for t in toolchains.iter().take(64) {
        parts.push(format!("{}={}", t.display(), stamp(&t.join("bin"))));
    }
    // One line: no line breaks from names.
    Some(parts.join(";").replace(['\n', '\r'], "?"))
}

/// `$XDG_CACHE_HOME/agtool/rustup-<hash of found>` (or `~/.cache/...`).
fn cache_file(found: &Path) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| Path::new(v).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let name = crate::text::tag::content_hash(found.as_os_str().as_encoded_bytes());
    Some(base.join("agtool").join(format!("rustup-{name:016x}")))
}

/// Writes `text` to `file` through a temporary file and a rename (best effort: a cache that
/// cannot be written is asked again next time).
fn keep(file: &Path, text: &str) {
    let Some(dir) = file.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(".rustup-{}.tmp", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}
