//! The global gitignore of our own walks (spec 02, "glob" → "Walk"): the file git's
//! `core.excludesFile` names, found where the `ignore` crate's walker looks for it, so glob and
//! list-dir hide what rg and fd hide.
//!
//! Where: the first of `$GIT_CONFIG_GLOBAL`, `~/.gitconfig`, `$XDG_CONFIG_HOME/git/config` (or
//! `~/.config/git/config`) and `$GIT_CONFIG_SYSTEM` (or `/etc/gitconfig`) that sets it, else
//! `$XDG_CONFIG_HOME/git/ignore` (or `~/.config/git/ignore`). A leading `~/` is the home folder.
//!
//! Why not the crate's `GitignoreBuilder::build_global`: it finds the setting with a regular
//! expression compiled in every process, about 0.5 ms of a 3 ms list-dir (issue 18, §7 start-up
//! row). [`excludes_file_setting`] matches the same lines by hand; a test holds it to the
//! crate's expression on generated config files.
//!
//! Reading a config file ([`probe`]): opened without blocking and read only when it is a
//! regular file that ends within [`MAX_GITCONFIG_BYTES`]; any other file is passed over as an
//! unreadable one is (the crate would block on a FIFO and read a huge file whole). The ignore file itself is read by
//! [`super::ignore_rules`], with the bounds of every other ignore file.
//!
//! grep walks with the crate's walker, which cannot take rules from outside, so it still lets
//! the crate look; [`crate_lookup_is_safe`] first checks the files the crate would open.

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Most bytes a git config file may hold to be searched for `core.excludesFile`.
pub const MAX_GITCONFIG_BYTES: u64 = 1 << 20;

/// The path of the global gitignore file (see the module doc for where it is looked for);
/// None without a home folder and without `XDG_CONFIG_HOME`.
pub fn excludes_file_path() -> Option<PathBuf> {
    config_files()
        .into_iter()
        .find_map(|path| match probe(&path, MAX_GITCONFIG_BYTES) {
            Probe::Bytes(data) => setting_path(&data),
            Probe::Nothing | Probe::Endless => None,
        })
        .or_else(default_excludes_file)
}

/// The ignore file a config file's bytes name (`~` put in); None when none is named or the
/// value is not UTF-8 (the next config file decides then, as for the crate).
fn setting_path(data: &[u8]) -> Option<PathBuf> {
    let value = std::str::from_utf8(excludes_file_setting(data)?).ok()?;
    Some(PathBuf::from(expand_tilde(value)))
}

/// The global gitignore when no config file names one: `$XDG_CONFIG_HOME/git/ignore`.
fn default_excludes_file() -> Option<PathBuf> {
    xdg_config_home().map(|x| x.join("git/ignore"))
}

/// The git config files that may set `core.excludesFile`, first one deciding: the global
/// ones, then the system one.
fn config_files() -> Vec<PathBuf> {
    let system = non_empty_var("GIT_CONFIG_SYSTEM")
        .map_or_else(|| PathBuf::from("/etc/gitconfig"), PathBuf::from);
    [
        non_empty_var("GIT_CONFIG_GLOBAL").map(PathBuf::from),
        home_dir().map(|h| h.join(".gitconfig")),
        xdg_config_home().map(|x| x.join("git/config")),
        Some(system),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Whether the `ignore` crate's own lookup of the global gitignore (grep's walker runs it) is
/// safe to let run. The crate opens the config files in order, without a timeout, reading each
/// whole until one names the file, then reads that file whole when it is a regular one. So the
/// lookup is followed here the same way, each file read bounded and without blocking
/// ([`probe`]): false as soon as a file the crate would read never ends or is larger than the
/// bound ([`MAX_GITCONFIG_BYTES`] for a config, `max_ignore_bytes` for the ignore file). A
/// file the crate cannot open or read is passed over, as the crate passes it over. When false,
/// grep walks without the global gitignore. A file swapped between this check and the crate's
/// read is not covered.
pub fn crate_lookup_is_safe(max_ignore_bytes: u64) -> bool {
    let ignore_ok = |path: PathBuf| {
        // The crate reads only a regular file.
        !std::fs::metadata(&path).is_ok_and(|m| m.is_file())
            || !matches!(probe(&path, max_ignore_bytes), Probe::Endless)
    };
    for path in config_files() {
        match probe(&path, MAX_GITCONFIG_BYTES) {
            Probe::Endless => return false,
            Probe::Nothing => {}
            Probe::Bytes(data) => {
                if let Some(named) = setting_path(&data) {
                    return ignore_ok(named);
                }
            }
        }
    }
    default_excludes_file().is_none_or(ignore_ok)
}

/// The value of the first `excludesFile = <value>` setting in a git config file's bytes, the
/// way the `ignore` crate finds it: a line (after blanks) starting with `excludesfile` in any
/// case, `=`, then one word without blanks, optionally in double quotes, and nothing but blanks
/// after it up to the line's end. Sections are not looked at. Blanks are ASCII white space,
/// line breaks included, so a setting may run over lines (`excludesfile =⏎ ~/x`). The value
/// keeps a quote that is not matched by one at its other end. None when no line matches.
pub fn excludes_file_setting(data: &[u8]) -> Option<&[u8]> {
    let mut start = 0;
    loop {
        // From a line start, a match skips blanks (line breaks too) to the key. From every
        // line start up to the key it would skip to the same place and fail the same way, so
        // the next try is on the line after the key's: one pass over the data, not one per
        // blank line.
        let key = skip_blanks(data, start);
        if let Some(value) = setting_at_key(data, key) {
            return Some(value);
        }
        start = key + memchr::memchr(b'\n', &data[key..])? + 1;
    }
}

/// ASCII white space as the crate's expression means it (`\s` without Unicode).
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The index of the first non-blank byte at or after `i` (`data.len()` if none).
fn skip_blanks(data: &[u8], mut i: usize) -> usize {
    while i < data.len() && is_blank(data[i]) {
        i += 1;
    }
    i
}

/// Whether blanks from `i` reach a line's end (a `\n`) or the data's end.
fn blanks_to_line_end(data: &[u8], mut i: usize) -> bool {
    while i < data.len() {
        match data[i] {
            b'\n' => return true,
            b if is_blank(b) => i += 1,
            _ => return false,
        }
    }
    true
}

/// The setting's value when the key of a match is at `key` (the first non-blank byte after a
/// line start).
fn setting_at_key(data: &[u8], key: usize) -> Option<&[u8]> {
    const KEY: &[u8] = b"excludesfile";
    let key_end = key.checked_add(KEY.len()).filter(|&e| e <= data.len())?;
    if !data[key..key_end].eq_ignore_ascii_case(KEY) {
        return None;
    }
    let eq = skip_blanks(data, key_end);
    if data.get(eq) != Some(&b'=') {
        return None;
    }
    let after = skip_blanks(data, eq + 1);
    // First with an opening quote taken apart from the value, then with it kept in.
    if data.get(after) == Some(&b'"')
        && let Some(value) = value_at(data, skip_blanks(data, after + 1))
    {
        return Some(value);
    }
    value_at(data, after)
}

/// The shortest run of non-blank bytes from `at` after which only an optional closing quote
/// and blanks come before the line's end. None when the run is empty or something else follows.
fn value_at(data: &[u8], at: usize) -> Option<&[u8]> {
    let len = data[at..].iter().take_while(|&&b| !is_blank(b)).count();
    if len == 0 {
        return None;
    }
    let end = at + len;
    // The run's last byte is a closing quote: the value stops before it.
    if len >= 2 && data[end - 1] == b'"' && blanks_to_line_end(data, end) {
        return Some(&data[at..end - 1]);
    }
    if blanks_to_line_end(data, end) {
        return Some(&data[at..end]);
    }
    // Blanks, then a closing quote, then blanks to the line's end.
    let quote = skip_blanks(data, end);
    if data.get(quote) == Some(&b'"') && blanks_to_line_end(data, quote + 1) {
        return Some(&data[at..end]);
    }
    None
}

/// What reading a file whole comes to, bounded (see [`probe`]).
#[derive(Debug, PartialEq, Eq)]
enum Probe {
    /// Its bytes: a regular file that ends within the bound.
    Bytes(Vec<u8>),
    /// Nothing to read, at once: missing, unopenable, a folder, a socket, the null device, or
    /// a read that fails before giving any byte.
    Nothing,
    /// A read that would not end within the bound or would wait: a regular file past the bound
    /// (whatever size it claims: procfs files claim 0) or failing after some bytes, a FIFO,
    /// any other device.
    Endless,
}

/// Reads the file at `path` (symlinks followed) as a plain whole read would, but opened without
/// blocking and without becoming a controlling terminal, and at most `max` bytes.
fn probe(path: &Path, max: u64) -> Probe {
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
    else {
        return Probe::Nothing;
    };
    let Ok(meta) = file.metadata() else {
        return Probe::Nothing;
    };
    let kind = meta.file_type();
    if kind.is_dir()
        || kind.is_socket()
        || (kind.is_char_device() && meta.rdev() == libc::makedev(1, 3))
    {
        return Probe::Nothing;
    }
    if !kind.is_file() || meta.len() > max {
        return Probe::Endless;
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    match (&file as &File).take(max + 1).read_to_end(&mut data) {
        Ok(_) if data.len() as u64 <= max => Probe::Bytes(data),
        Ok(_) => Probe::Endless,
        // A file that fails at once fails the crate's read too. One that fails after giving
        // bytes may have failed on this read's size alone (procfs files such as
        // `/proc/self/pagemap` refuse sizes that are not a multiple of 8), so it counts as
        // never ending, as does one that would block.
        Err(e) if e.kind() != std::io::ErrorKind::WouldBlock && data.is_empty() => Probe::Nothing,
        Err(_) => Probe::Endless,
    }
}

/// `~` or `~/…` with the home folder put in; any other value as it is.
fn expand_tilde(value: &str) -> String {
    let Some(rest) = value.strip_prefix('~') else {
        return value.to_owned();
    };
    if !rest.is_empty() && !rest.starts_with('/') {
        return value.to_owned();
    }
    match home_dir() {
        Some(home) => format!("{}{rest}", home.to_string_lossy()),
        None => value.to_owned(),
    }
}

fn non_empty_var(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

fn xdg_config_home() -> Option<PathBuf> {
    non_empty_var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home_dir().map(|h| h.join(".config")))
}

#[allow(deprecated)] // `$HOME`, then the password database: what the crate uses.
fn home_dir() -> Option<PathBuf> {
    std::env::home_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `ignore` crate's expression for the setting (ignore 0.4, `parse_excludes_file`).
    fn crate_setting(data: &[u8]) -> Option<Vec<u8>> {
        static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
        let re = RE.get_or_init(|| {
            regex::bytes::Regex::new(r#"(?im-u)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$"#)
                .unwrap()
        });
        re.captures(data)
            .and_then(|c| c.get(1))
            .map(|m| m.as_bytes().to_vec())
    }

    #[test]
    fn plain_settings_are_found() {
        let cases: &[(&str, Option<&str>)] = &[
            ("[core]\nexcludesFile = /foo/bar", Some("/foo/bar")),
            ("[core]\n\texcludesfile=~/g\n", Some("~/g")),
            ("[core]\n  EXCLUDESFILE = \"/q/x\"  \r\n", Some("/q/x")),
            ("[core]\nexcludeFile = /foo", None),
            ("[core] excludesfile = /foo", None),
            ("excludesfile = /a b\nexcludesfile = /c\n", Some("/c")),
            ("excludesfile = \"/a b\"\n", None),
            ("excludesfile =\n   /next/line\n", Some("/next/line")),
            ("excludesfile = \"/open\n", Some("/open")),
            ("excludesfile = /close\"\n", Some("/close")),
            ("excludesfile = \"\n", Some("\"")),
        ];
        for (data, want) in cases {
            let got = excludes_file_setting(data.as_bytes());
            assert_eq!(got, want.map(str::as_bytes), "{data:?}");
            assert_eq!(
                got.map(<[u8]>::to_vec),
                crate_setting(data.as_bytes()),
                "{data:?}"
            );
        }
    }

    /// Generated config files of the pieces that matter (keys, blanks, quotes, `=`, line
    /// breaks, other bytes) give the same value as the crate's expression.
    #[test]
    fn generated_settings_match_the_crates_expression() {
        const PIECES: &[&str] = &[
            "excludesfile",
            "ExcludesFile",
            "excludesfil",
            "excludesfilex",
            "=",
            "==",
            " ",
            "\t",
            "\n",
            "\r\n",
            "\x0b",
            "\x0c",
            "\"",
            "/p",
            "~/q",
            "a",
            "#",
            "[core]",
            "\u{e9}",
            "\u{a0}",
        ];
        let cases: usize = std::env::var("GIT_GLOBAL_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        // A small linear congruential generator: the same cases on every run.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let mut found = 0;
        for _ in 0..cases {
            let mut data = Vec::new();
            for _ in 0..1 + next(12) {
                // Key-shaped lines are common, so most cases reach the value's rules.
                if next(3) == 0 {
                    data.extend_from_slice(b"excludesfile = ");
                }
                data.extend_from_slice(PIECES[next(PIECES.len())].as_bytes());
            }
            if next(4) == 0 {
                data.push(0xff);
            }
            let want = crate_setting(&data);
            found += usize::from(want.is_some());
            assert_eq!(
                excludes_file_setting(&data).map(<[u8]>::to_vec),
                want,
                "{:?}",
                String::from_utf8_lossy(&data)
            );
        }
        // Enough cases find a value for the comparison to mean something.
        assert!(
            found * 10 > cases,
            "only {found} of {cases} cases set the file"
        );
    }

    #[test]
    fn a_fifo_or_a_huge_config_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(probe(&fifo, MAX_GITCONFIG_BYTES), Probe::Endless);
        let huge = dir.path().join("huge");
        let f = File::create(&huge).unwrap();
        f.set_len(MAX_GITCONFIG_BYTES + 1).unwrap();
        assert_eq!(probe(&huge, MAX_GITCONFIG_BYTES), Probe::Endless);
        let fits = dir.path().join("fits");
        std::fs::write(&fits, b"[core]\n\texcludesFile = /x\n").unwrap();
        assert_eq!(
            probe(&fits, MAX_GITCONFIG_BYTES),
            Probe::Bytes(b"[core]\n\texcludesFile = /x\n".to_vec())
        );
        assert_eq!(probe(dir.path(), MAX_GITCONFIG_BYTES), Probe::Nothing);
        assert_eq!(probe(&dir.path().join("none"), 9), Probe::Nothing);
        assert_eq!(probe(Path::new("/dev/null"), 9), Probe::Nothing);
    }

    #[test]
    fn a_tilde_is_the_home_folder() {
        let home = home_dir().unwrap().to_string_lossy().into_owned();
        assert_eq!(expand_tilde("~/x"), format!("{home}/x"));
        assert_eq!(expand_tilde("~"), home);
        assert_eq!(expand_tilde("~user/x"), "~user/x");
        assert_eq!(expand_tilde("/abs"), "/abs");
    }
}
