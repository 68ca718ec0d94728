//! Layered configuration (spec 00, "Configuration"): flags > environment >
//! `.agent-state/config.toml` > `~/.config/agtool/config.toml` > defaults. Flags and
//! environment are applied by the caller on top of [`Config::load`]'s result.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// One configuration file's contents; every key optional. Unknown keys are an error naming the
/// key (serde's `deny_unknown_fields`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Extra folders that may be read (absolute, or relative to the workspace root).
    pub read_roots: Option<Vec<PathBuf>>,
    /// Extra folders that may be read and written.
    pub write_roots: Option<Vec<PathBuf>>,
    /// Path component names never read (default `.aws`, `.ssh`, `.gnupg`); replaces the default.
    pub deny_read: Option<Vec<String>>,
    /// Path component names never written, added to the built-in `.git`, `.agents`, `.codex`,
    /// `.aws`, `.agent-state`.
    pub protected_names: Option<Vec<String>>,
    /// The freshness gate (default on).
    pub freshness: Option<bool>,
    /// The syntax gate (default on).
    pub syntax_check: Option<bool>,
    /// Process tools.
    pub exec: Option<ExecConfig>,
    /// web-fetch URL policy.
    pub web: Option<WebConfig>,
    /// Notes store.
    pub notes: Option<NotesConfig>,
    /// Skill folders.
    pub skills: Option<SkillsConfig>,
    /// Tool groups enabled for `call`, `mcp` and `schema`.
    pub tools: Option<ToolsConfig>,
    /// Workspace roots whose `.agent-state/config.toml` may widen the policy (spec 00,
    /// "Workspace trust"). Read from the user's file and `--config` files only: absolute
    /// paths, or `~/...` under `$HOME`; a workspace matches when its root is one of them.
    pub trusted_workspaces: Option<Vec<PathBuf>>,
}

/// `[exec]` table (spec 05).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ExecConfig {
    /// Argv put in front of every command (sandbox or remote seam), e.g. `["env", "FOO=1"]`.
    pub prefix: Option<Vec<String>>,
    /// Shell for exec-command (default `/bin/bash`).
    pub shell: Option<String>,
    /// Default exec timeout in milliseconds.
    pub timeout_ms: Option<u64>,
}

/// `[web]` table (spec 06).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WebConfig {
    /// Host patterns and CIDR ranges allowed.
    pub allow: Option<Vec<String>>,
    /// Host patterns and CIDR ranges denied (wins over allow).
    pub deny: Option<Vec<String>>,
    /// Whether loopback and private ranges may be fetched.
    pub allow_private: Option<bool>,
}

/// `[notes]` table (spec 06).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NotesConfig {
    /// The notes folder (default `.agent-state/notes`).
    pub dir: Option<PathBuf>,
    /// Whether notes_write is marked sensitive.
    pub write_sensitive: Option<bool>,
}

/// `[skills]` table (spec 06).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SkillsConfig {
    /// Skill folders searched in order.
    pub dirs: Option<Vec<PathBuf>>,
}

/// `[tools]` table (spec 00, "Groups").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ToolsConfig {
    /// Enabled groups, e.g. `["files", "edit"]`.
    pub groups: Option<Vec<String>>,
}

/// Takes `over` where it is set, else `base`.
fn pick<T>(base: Option<T>, over: Option<T>) -> Option<T> {
    over.or(base)
}

impl Config {
    /// Parses one TOML file's text; `origin` names the file in errors. An error names the
    /// line number and the key there, never the line's text or a value: the file may be one
    /// outside the workspace (`--config`), and its text must not reach the caller.
    pub fn parse(text: &str, origin: &Path) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| {
            // The message alone ("expected a boolean") does not say which key; the line
            // number and the key on that line do.
            let place = e.span().map(|span| {
                let line_no = text[..span.start.min(text.len())].matches('\n').count() + 1;
                let line = text.lines().nth(line_no - 1).unwrap_or_default();
                match key_of(line) {
                    Some(key) => format!(" line {line_no} (key `{key}`)"),
                    None => format!(" line {line_no}"),
                }
            });
            format!(
                "invalid configuration in {}{}: {}",
                origin.display(),
                place.unwrap_or_default(),
                without_values(e.message())
            )
        })
    }

    /// Reads a file; a missing file is an empty configuration, and so is a path through a
    /// regular file (`.agent-state` being a file, not a folder, holds no config.toml).
    pub fn read(path: &Path) -> Result<Config, String> {
        use std::io::ErrorKind;
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&text, path),
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                Ok(Config::default())
            }
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// `self` with every key set in `over` replaced by `over`'s value (tables key by key).
    pub fn merged(self, over: Config) -> Config {
        Config {
            read_roots: pick(self.read_roots, over.read_roots),
            write_roots: pick(self.write_roots, over.write_roots),
            deny_read: pick(self.deny_read, over.deny_read),
            protected_names: pick(self.protected_names, over.protected_names),
            freshness: pick(self.freshness, over.freshness),
            syntax_check: pick(self.syntax_check, over.syntax_check),
            exec: merge_table(self.exec, over.exec, |b, o| ExecConfig {
                prefix: pick(b.prefix, o.prefix),
                shell: pick(b.shell, o.shell),
                timeout_ms: pick(b.timeout_ms, o.timeout_ms),
            }),
            web: merge_table(self.web, over.web, |b, o| WebConfig {
                allow: pick(b.allow, o.allow),
                deny: pick(b.deny, o.deny),
                allow_private: pick(b.allow_private, o.allow_private),
            }),
            notes: merge_table(self.notes, over.notes, |b, o| NotesConfig {
                dir: pick(b.dir, o.dir),
                write_sensitive: pick(b.write_sensitive, o.write_sensitive),
            }),
            skills: merge_table(self.skills, over.skills, |b, o| SkillsConfig {
                dirs: pick(b.dirs, o.dirs),
            }),
            tools: merge_table(self.tools, over.tools, |b, o| ToolsConfig {
                groups: pick(b.groups, o.groups),
            }),
            trusted_workspaces: pick(self.trusted_workspaces, over.trusted_workspaces),
        }
    }

    /// Loads the file layers: the user file (`$XDG_CONFIG_HOME` or `~/.config`,
    /// `agtool/config.toml`), then `<root>/.agent-state/config.toml`, then `explicit`
    /// (`--config` / `AGTOOL_CONFIG`), each over the previous.
    ///
    /// Workspace trust (spec 00): unless the user's file or an explicit file lists `root` in
    /// `trusted_workspaces`, the workspace file's [`WIDENING_KEYS`] are taken back (see
    /// [`Widening`]) and [`Loaded::warnings`] says which, one line, with how to trust it.
    /// Errors: a file that does not parse (its line number and key, never its text), a
    /// missing explicit file, a state folder or `config.toml` that is a symlink or not a file.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Loaded, String> {
        let user_file = user_config_path();
        let user = match &user_file {
            Some(path) => Config::read(path)?,
            None => Config::default(),
        };
        let state_dir = root.join(super::root::STATE_DIR);
        let ws_file = state_dir.join("config.toml");
        super::root::refuse_symlink(&state_dir).map_err(|e| e.to_string())?;
        super::root::refuse_symlink(&ws_file).map_err(|e| e.to_string())?;
        let mut workspace = Config::read(&ws_file)?;
        let over = match explicit {
            Some(path) => {
                if !path.exists() {
                    return Err(format!(
                        "configuration file {} does not exist",
                        path.display()
                    ));
                }
                Config::read(path)?
            }
            None => Config::default(),
        };
        let mut warnings = Vec::new();
        let trusted = [&user, &over]
            .iter()
            .any(|c| lists_workspace(c.trusted_workspaces.as_deref(), root));
        if !trusted {
            let taken = workspace.restrain(&user);
            if !taken.is_empty() {
                let where_ = user_file
                    .as_deref()
                    .map_or("~/.config/agtool/config.toml".into(), |p| {
                        p.display().to_string()
                    });
                let them = if taken.len() == 1 { "it" } else { "them" };
                warnings.push(format!(
                    "agtool: warning: ignoring {} from {}: this workspace is not trusted (to obey \
                     {them}, add \"{}\" to trusted_workspaces in {where_}, or pass the setting by \
                     flag, environment or --config)",
                    taken.join(", "),
                    ws_file.display(),
                    root.display()
                ));
            }
        }
        Ok(Loaded {
            config: user.merged(workspace).merged(over),
            warnings,
        })
    }

    /// Takes back every [`WIDENING_KEYS`] entry that this (workspace) layer would widen beyond
    /// `below` (the user's file over the defaults); returns the keys taken back.
    pub fn restrain(&mut self, below: &Config) -> Vec<&'static str> {
        WIDENING_KEYS
            .iter()
            .filter(|w| (w.restrain)(self, below))
            .map(|w| w.key)
            .collect()
    }
}

/// The configuration files merged, and the warnings to print (stderr, one line each).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// The merged file layers.
    pub config: Config,
    /// Untrusted widening keys that were ignored, one line naming them.
    pub warnings: Vec<String>,
}

/// `$XDG_CONFIG_HOME/agtool/config.toml`, else `$HOME/.config/agtool/config.toml`.
pub fn user_config_path() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|dir| dir.join("agtool/config.toml"))
}

/// Whether `list` (a `trusted_workspaces` value) names `root` (canonical): entries are
/// absolute or `~/...`, compared after resolving symlinks; relative entries never match.
fn lists_workspace(list: Option<&[PathBuf]>, root: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    list.unwrap_or_default().iter().any(|entry| {
        let path = match entry.strip_prefix("~") {
            Ok(rest) => match &home {
                Some(h) => h.join(rest),
                None => return false,
            },
            Err(_) => entry.clone(),
        };
        path.is_absolute() && std::fs::canonicalize(&path).unwrap_or(path) == root
    })
}

/// Groups on by default for `call`, `mcp` and `schema` (spec 00, "Groups").
pub const DEFAULT_GROUPS: [&str; 1] = ["files"];

/// A configuration key that can widen what agtool may read, write, fetch or run (spec 00,
/// "Workspace trust"). From an untrusted workspace's `.agent-state/config.toml` its widening
/// part is taken back; narrowing always applies. Flags, environment and `--config` files are
/// the host's own choice and never pass through this.
///
/// A new key joins by adding one entry to [`WIDENING_KEYS`]: its TOML name and a `restrain`
/// function. `restrain(ws, below)` edits `ws` (the workspace file's values) so that it no
/// longer widens anything beyond `below` (the user's file; defaults where it is silent), and
/// returns true when it took something back. Helpers: [`unset`] (the whole key goes),
/// [`keep_all_of`] (a list may add entries, never drop `below`'s), [`only_within`] (a list
/// may only pick from `below`'s).
pub struct Widening {
    /// The key as written in TOML, e.g. `exec.prefix`.
    pub key: &'static str,
    /// Takes back the widening part of the workspace layer; true when it took anything.
    pub restrain: fn(ws: &mut Config, below: &Config) -> bool,
}

/// Every widening key (spec 00, "Workspace trust"; issue 12 item 5).
pub const WIDENING_KEYS: &[Widening] = &[
    // Extra folders to read or write.
    Widening {
        key: "read_roots",
        restrain: |ws, _| unset(&mut ws.read_roots),
    },
    Widening {
        key: "write_roots",
        restrain: |ws, _| unset(&mut ws.write_roots),
    },
    // Replaces the default list: dropping `.ssh` would make it readable.
    Widening {
        key: "deny_read",
        restrain: |ws, below| {
            let base = below.deny_read.clone().unwrap_or_else(|| {
                super::policy::DEFAULT_DENY_READ
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            });
            keep_all_of(&mut ws.deny_read, &base)
        },
    },
    // Added to the built-in names; the workspace list must keep the user's.
    Widening {
        key: "protected_names",
        restrain: |ws, below| {
            keep_all_of(
                &mut ws.protected_names,
                below.protected_names.as_deref().unwrap_or_default(),
            )
        },
    },
    // What runs, and through what (a sandbox prefix the user set must stay).
    Widening {
        key: "exec.prefix",
        restrain: |ws, _| unset(ws.exec.as_mut().map(|e| &mut e.prefix)),
    },
    Widening {
        key: "exec.shell",
        restrain: |ws, _| unset(ws.exec.as_mut().map(|e| &mut e.shell)),
    },
    // Enabling a group the user did not.
    Widening {
        key: "tools.groups",
        restrain: |ws, below| {
            let base: Vec<String> = below
                .tools
                .as_ref()
                .and_then(|t| t.groups.clone())
                .unwrap_or_else(|| DEFAULT_GROUPS.iter().map(|g| g.to_string()).collect());
            only_within(ws.tools.as_mut().map(|t| &mut t.groups), &base)
        },
    },
    // Skill folders become readable.
    Widening {
        key: "skills.dirs",
        restrain: |ws, _| unset(ws.skills.as_mut().map(|s| &mut s.dirs)),
    },
    // Where web_fetch may go.
    Widening {
        key: "web.allow",
        restrain: |ws, _| unset(ws.web.as_mut().map(|w| &mut w.allow)),
    },
    Widening {
        key: "web.allow_private",
        restrain: |ws, _| match ws.web.as_mut() {
            Some(w) if w.allow_private == Some(true) => unset(Some(&mut w.allow_private)),
            _ => false,
        },
    },
    Widening {
        key: "web.deny",
        restrain: |ws, below| {
            let base = below
                .web
                .as_ref()
                .and_then(|w| w.deny.clone())
                .unwrap_or_default();
            match ws.web.as_mut() {
                Some(w) => keep_all_of(&mut w.deny, &base),
                None => false,
            }
        },
    },
    // Notes are written there: anywhere but the default folder is a new place to write.
    Widening {
        key: "notes.dir",
        restrain: |ws, _| unset(ws.notes.as_mut().map(|n| &mut n.dir)),
    },
    // Turning off the approval the user asked for.
    Widening {
        key: "notes.write_sensitive",
        restrain: |ws, below| {
            let user_wants = below.notes.as_ref().and_then(|n| n.write_sensitive) == Some(true);
            match ws.notes.as_mut() {
                Some(n) if user_wants && n.write_sensitive == Some(false) => {
                    unset(Some(&mut n.write_sensitive))
                }
                _ => false,
            }
        },
    },
    // A workspace cannot vouch for any workspace.
    Widening {
        key: "trusted_workspaces",
        restrain: |ws, _| unset(&mut ws.trusted_workspaces),
    },
];

/// For [`Widening::restrain`]: clears a key (`slot` None: its table is absent); true when
/// it was set.
pub fn unset<'a, T: 'a>(slot: impl Into<Option<&'a mut Option<T>>>) -> bool {
    slot.into().and_then(Option::take).is_some()
}

/// For [`Widening::restrain`]: a list key that replaces `base` may add entries but not drop
/// any: the dropped ones are put back. True when some were.
pub fn keep_all_of(slot: &mut Option<Vec<String>>, base: &[String]) -> bool {
    let Some(list) = slot.as_mut() else {
        return false;
    };
    let missing: Vec<String> = base.iter().filter(|b| !list.contains(b)).cloned().collect();
    list.extend(missing.iter().cloned());
    !missing.is_empty()
}

/// For [`Widening::restrain`]: a list key may only pick entries of `base` (`all` in `base`
/// allows anything): the others are removed. True when some were.
pub fn only_within(slot: Option<&mut Option<Vec<String>>>, base: &[String]) -> bool {
    let Some(Some(list)) = slot else {
        return false;
    };
    if base.iter().any(|b| b == "all") {
        return false;
    }
    let before = list.len();
    list.retain(|g| base.contains(g));
    list.len() != before
}

/// The bare key a TOML line assigns (`timeout_ms` in `timeout_ms = 5`), when it looks like
/// one: short, and only letters, digits, `_`, `-` and `.`.
fn key_of(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let ok = !key.is_empty()
        && key.len() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    ok.then_some(key)
}

/// A TOML/serde message without the values it quotes: `invalid type: string "x", expected
/// a boolean` becomes `invalid type: string, expected a boolean`. Key names in backticks
/// (`unknown field `x``) stay.
fn without_values(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or_default();
    for head in ["invalid type: ", "invalid value: ", "invalid length "] {
        if let Some(rest) = first.strip_prefix(head)
            && let Some((got, expected)) = rest.split_once(", expected")
        {
            let kind = got.split_whitespace().next().unwrap_or("value");
            return format!("{head}{kind}, expected{expected}");
        }
    }
    // Anything else: drop double-quoted spans, which only ever hold values.
    let mut out = String::new();
    let mut quoted = false;
    for c in msg.chars() {
        if c == '"' {
            quoted = !quoted;
            if quoted {
                out.push_str("\"...\"");
            }
        } else if !quoted {
            out.push(c);
        }
    }
    out
}

fn merge_table<T: Default>(base: Option<T>, over: Option<T>, f: impl Fn(T, T) -> T) -> Option<T> {
    match (base, over) {
        (None, None) => None,
        (b, o) => Some(f(b.unwrap_or_default(), o.unwrap_or_default())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_named() {
        let err = Config::parse("frshness = false\n", Path::new("c.toml")).unwrap_err();
        assert!(err.contains("frshness"), "{err}");
        let err = Config::parse("[exec]\nprefx = []\n", Path::new("c.toml")).unwrap_err();
        assert!(err.contains("prefx"), "{err}");
    }

    #[test]
    fn a_wrong_type_names_the_line_and_key() {
        let text = "# settings\n[exec]\ntimeout_ms = \"soon\"\n";
        let err = Config::parse(text, Path::new("c.toml")).unwrap_err();
        assert!(err.contains("c.toml line 3 (key `timeout_ms`)"), "{err}");
        assert!(!err.contains("soon"), "the value is not quoted: {err}");
        let err = Config::parse("freshness = \"no\"\n", Path::new("c.toml")).unwrap_err();
        assert!(err.contains("line 1 (key `freshness`)"), "{err}");
        assert!(err.contains("expected a boolean"), "{err}");
        assert!(!err.contains("\"no\""), "{err}");
    }

    #[test]
    fn errors_never_quote_the_file() {
        for text in [
            "root:x:0:0:secret-TOKEN-123:/root:/bin/bash\n",
            "freshness = \"secret-TOKEN-123\"\n",
            "[exec]\ntimeout_ms = 'secret-TOKEN-123'\n",
            "write_roots = [1, \"secret-TOKEN-123\"]\n",
            "secret-TOKEN-123\n",
        ] {
            let err = Config::parse(text, Path::new("/etc/x")).unwrap_err();
            assert!(!err.contains("TOKEN"), "{err}");
            assert!(
                err.contains("/etc/x line 1") || err.contains("line 2"),
                "{err}"
            );
        }
    }

    fn parsed(text: &str) -> Config {
        Config::parse(text, Path::new("t")).unwrap()
    }

    #[test]
    fn an_untrusted_workspace_cannot_widen() {
        let user = parsed("deny_read = [\".ssh\", \"secret\"]\n[web]\ndeny = [\"evil.example\"]\n");
        let mut ws = parsed(
            "write_roots = [\"/\"]\nread_roots = [\"/etc\"]\ndeny_read = [\"private\"]\n\
             protected_names = [\"keep\"]\nfreshness = false\ntrusted_workspaces = [\"/\"]\n\
             [exec]\nprefix = [\"env\"]\nshell = \"/bin/sh\"\ntimeout_ms = 5\n\
             [tools]\ngroups = [\"files\", \"exec\"]\n[skills]\ndirs = [\"/\"]\n\
             [web]\nallow = [\"*\"]\nallow_private = true\ndeny = []\n[notes]\ndir = \"/tmp\"\n",
        );
        let taken = ws.restrain(&user);
        assert_eq!(
            taken,
            [
                "read_roots",
                "write_roots",
                "deny_read",
                "exec.prefix",
                "exec.shell",
                "tools.groups",
                "skills.dirs",
                "web.allow",
                "web.allow_private",
                "web.deny",
                "notes.dir",
                "trusted_workspaces"
            ]
        );
        assert_eq!(ws.write_roots, None);
        assert_eq!(ws.read_roots, None);
        // Narrowing parts stay: its own deny_read name is added to the user's.
        assert_eq!(
            ws.deny_read.as_deref(),
            Some(&["private".to_owned(), ".ssh".to_owned(), "secret".to_owned()][..])
        );
        assert_eq!(
            ws.protected_names.as_deref(),
            Some(&["keep".to_owned()][..])
        );
        assert_eq!(ws.freshness, Some(false));
        let exec = ws.exec.as_ref().unwrap();
        assert_eq!(
            (exec.prefix.as_ref(), exec.shell.as_ref(), exec.timeout_ms),
            (None, None, Some(5))
        );
        assert_eq!(
            ws.tools.as_ref().unwrap().groups.as_deref(),
            Some(&["files".to_owned()][..])
        );
        assert_eq!(
            ws.web.as_ref().unwrap().deny.as_deref(),
            Some(&["evil.example".to_owned()][..])
        );
        // Narrowing only: nothing to take back.
        let mut narrow = parsed(
            "deny_read = [\".aws\", \".ssh\", \".gnupg\", \"x\"]\n[tools]\ngroups = []\n[web]\nallow_private = false\n",
        );
        assert!(narrow.restrain(&Config::default()).is_empty());
    }

    #[test]
    fn trusted_workspaces_match_the_root() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let list = vec![PathBuf::from("relative"), root.clone()];
        assert!(lists_workspace(Some(&list), &root));
        assert!(!lists_workspace(Some(&list[..1]), &root));
        assert!(!lists_workspace(None, &root));
        assert!(!lists_workspace(Some(&[root.join("sub")]), &root));
    }

    #[test]
    fn a_file_in_place_of_the_state_folder_means_no_config() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join(".agent-state"), "a file").unwrap();
        let got = Config::read(&t.path().join(".agent-state/config.toml"));
        assert_eq!(got, Ok(Config::default()));
    }

    #[test]
    fn layers_override_key_by_key() {
        let base = Config::parse(
            "freshness = false\n[exec]\nshell = \"/bin/sh\"\ntimeout_ms = 5\n",
            Path::new("a"),
        )
        .unwrap();
        let over = Config::parse("[exec]\ntimeout_ms = 9\n", Path::new("b")).unwrap();
        let m = base.merged(over);
        assert_eq!(m.freshness, Some(false));
        let exec = m.exec.unwrap();
        assert_eq!(exec.shell.as_deref(), Some("/bin/sh"));
        assert_eq!(exec.timeout_ms, Some(9));
    }
}
