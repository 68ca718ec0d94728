//! Loading the configuration layers with workspace trust (spec 00, "Configuration" and
//! "Workspace trust"): the user's file, the workspace's `.agent-state/config.toml` and the
//! host's `--config` file, each over the previous; from a workspace the user has not listed in
//! `trusted_workspaces`, the keys that widen what agtool may read, write, fetch or run are
//! taken back ([`WIDENING_KEYS`]).

use std::path::{Path, PathBuf};

use crate::workspace::config::{Config, DEFAULT_GROUPS};

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
    let state_dir = root.join(crate::workspace::root::STATE_DIR);
    let ws_file = state_dir.join("config.toml");
    crate::workspace::root::refuse_symlink(&state_dir).map_err(|e| e.to_string())?;
    crate::workspace::root::refuse_symlink(&ws_file).map_err(|e| e.to_string())?;
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
    let mut untrusted = None;
    let trusted = [&user, &over]
        .iter()
        .any(|c| lists_workspace(c.trusted_workspaces.as_deref(), root));
    if !trusted {
        let taken = restrain(&mut workspace, &user);
        if !taken.is_empty() {
            let where_ = user_file
                .as_deref()
                .map_or("~/.config/agtool/config.toml".into(), |p| {
                    p.display().to_string()
                });
            let ignored = Untrusted {
                keys: taken,
                file: ws_file.display().to_string(),
                how_to_trust: format!(
                    "add \"{}\" to trusted_workspaces in {where_}, or pass the setting by \
                     flag, environment or --config",
                    root.display()
                ),
            };
            let them = if ignored.keys.len() == 1 {
                "it"
            } else {
                "them"
            };
            warnings.push(format!(
                "agtool: warning: ignoring {} from {}: this workspace is not trusted (to obey \
                 {them}, {})",
                ignored.keys.join(", "),
                ignored.file,
                ignored.how_to_trust
            ));
            untrusted = Some(ignored);
        }
    }
    Ok(Loaded {
        config: user.merged(workspace).merged(over),
        warnings,
        untrusted,
    })
}

/// The widening keys of an untrusted workspace's config file that were taken back, for
/// messages that would otherwise suggest setting them (a web-fetch refusal: the model reads
/// only stdout, never the warning on stderr).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Untrusted {
    /// The keys taken back (`web.allow_private`), as in [`WIDENING_KEYS`].
    pub keys: Vec<&'static str>,
    /// The workspace config file that set them.
    pub file: String,
    /// How to make them count: `add "<root>" to trusted_workspaces in <user file>, or pass
    /// the setting by flag, environment or --config`.
    pub how_to_trust: String,
}

/// Takes back every [`WIDENING_KEYS`] entry that the workspace layer `ws` would widen beyond
/// `below` (the user's file over the defaults); returns the keys taken back.
pub fn restrain(ws: &mut Config, below: &Config) -> Vec<&'static str> {
    WIDENING_KEYS
        .iter()
        .filter(|w| (w.restrain)(ws, below))
        .map(|w| w.key)
        .collect()
}

/// The configuration files merged, and the warnings to print (stderr, one line each).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// The merged file layers.
    pub config: Config,
    /// Untrusted widening keys that were ignored, one line naming them.
    pub warnings: Vec<String>,
    /// The same keys, for messages (`None` when nothing was taken back).
    pub untrusted: Option<Untrusted>,
}

/// `$XDG_CONFIG_HOME/agtool/config.toml`, else `$HOME/.config/agtool/config.toml`.
pub fn user_config_path() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|dir| dir.join("agtool/config.toml"))
}

/// Whether `trusted_workspaces` (the merged configuration's value) names the workspace
/// `root` (canonical). A workspace's own file never sets that key (it is taken back unless
/// trusted), so the merged value is the user's or the host's.
pub fn is_trusted(trusted_workspaces: &[PathBuf], root: &Path) -> bool {
    lists_workspace(Some(trusted_workspaces), root)
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

/// `web.max_body_bytes` when no layer sets it (the web layer's `DEFAULT_MAX_BODY_BYTES`; kept
/// here so the base layer imports no domain core; a test in `web` checks they agree).
pub const DEFAULT_WEB_MAX_BODY_BYTES: u64 = 5 << 20;
/// `exec.timeout_ms` when no layer sets it (the exec layer's `DEFAULT_TIMEOUT_MS`, likewise).
pub const DEFAULT_EXEC_TIMEOUT_MS: u64 = 10_000;

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
                crate::workspace::policy::DEFAULT_DENY_READ
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
    // The exec sandbox (spec 08): a weaker mode than the user's, the network, more writable
    // folders. An unknown mode stays, so that it is refused with its message.
    Widening {
        key: "exec.sandbox",
        restrain: |ws, below| {
            // Weakest first; the same order as the sandbox's own `Mode::strength`.
            let rank = |v: Option<&str>| {
                ["off", "workspace-write", "read-only"]
                    .iter()
                    .position(|m| *m == v.unwrap_or("workspace-write"))
            };
            let base = rank(below.exec.as_ref().and_then(|e| e.sandbox.as_deref()));
            match ws.exec.as_mut() {
                Some(e) if e.sandbox.is_some() => match (rank(e.sandbox.as_deref()), base) {
                    (Some(mine), Some(theirs)) if mine < theirs => unset(Some(&mut e.sandbox)),
                    _ => false,
                },
                _ => false,
            }
        },
    },
    Widening {
        key: "exec.network",
        restrain: |ws, below| {
            let user_allows = below.exec.as_ref().and_then(|e| e.network) == Some(true);
            match ws.exec.as_mut() {
                Some(e) if e.network == Some(true) && !user_allows => unset(Some(&mut e.network)),
                _ => false,
            }
        },
    },
    Widening {
        key: "exec.writable",
        restrain: |ws, _| unset(ws.exec.as_mut().map(|e| &mut e.writable)),
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
    // Safeguards a workspace may not weaken (issue 17, item 6): a larger body cap (a gzip
    // bomb's memory), the freshness gate and the syntax gate off, a longer exec timeout.
    Widening {
        key: "web.max_body_bytes",
        restrain: |ws, below| {
            let base = below
                .web
                .as_ref()
                .and_then(|w| w.max_body_bytes)
                .unwrap_or(DEFAULT_WEB_MAX_BODY_BYTES);
            match ws.web.as_mut() {
                Some(w) if w.max_body_bytes.is_some_and(|m| m > base) => {
                    unset(Some(&mut w.max_body_bytes))
                }
                _ => false,
            }
        },
    },
    Widening {
        key: "freshness",
        restrain: |ws, below| {
            below.freshness != Some(false)
                && ws.freshness == Some(false)
                && unset(&mut ws.freshness)
        },
    },
    Widening {
        key: "syntax_check",
        restrain: |ws, below| {
            below.syntax_check != Some(false)
                && ws.syntax_check == Some(false)
                && unset(&mut ws.syntax_check)
        },
    },
    Widening {
        key: "exec.timeout_ms",
        restrain: |ws, below| {
            let base = below
                .exec
                .as_ref()
                .and_then(|e| e.timeout_ms)
                .unwrap_or(DEFAULT_EXEC_TIMEOUT_MS);
            match ws.exec.as_mut() {
                Some(e) if e.timeout_ms.is_some_and(|t| t > base) => unset(Some(&mut e.timeout_ms)),
                _ => false,
            }
        },
    },
    // Hooks run the host's code with the host's rights (spec 10).
    Widening {
        key: "hooks",
        restrain: |ws, _| unset(&mut ws.hooks),
    },
    // The trace file is a place to write, possibly outside the workspace.
    Widening {
        key: "trace.file",
        restrain: |ws, _| unset(ws.trace.as_mut().map(|t| &mut t.file)),
    },
    // Turning off a tool's sensitive flag takes away the host's approval (spec 10).
    Widening {
        key: "tools.<name>.sensitive",
        restrain: |ws, _| {
            let mut took = false;
            if let Some(t) = ws.tools.as_mut() {
                for o in t.overrides.values_mut() {
                    if o.sensitive == Some(false) {
                        o.sensitive = None;
                        took = true;
                    }
                }
            }
            took
        },
    },
    // Turning a tool back on that the user's file turned off.
    Widening {
        key: "tools.*.enabled",
        restrain: |ws, below| {
            let off = |name: &str| {
                below
                    .tools
                    .as_ref()
                    .and_then(|t| t.overrides.get(name))
                    .and_then(|o| o.enabled)
                    == Some(false)
            };
            let mut took = false;
            if let Some(t) = ws.tools.as_mut() {
                for (name, o) in t.overrides.iter_mut() {
                    if o.enabled == Some(true) && off(name) {
                        o.enabled = None;
                        took = true;
                    }
                }
            }
            took
        },
    },
    // Tool definitions are read by the model: a workspace's text there is a prompt injection.
    Widening {
        key: "tools.*.description",
        restrain: |ws, _| {
            let mut took = false;
            for o in ws.tools.iter_mut().flat_map(|t| t.overrides.values_mut()) {
                took |= unset(&mut o.description);
            }
            took
        },
    },
    Widening {
        key: "tools.*.description_append",
        restrain: |ws, _| {
            let mut took = false;
            for o in ws.tools.iter_mut().flat_map(|t| t.overrides.values_mut()) {
                took |= unset(&mut o.description_append);
            }
            took
        },
    },
    // An `allow` rule lets a call past the user's `ask` (spec 00 lists them as needing trust);
    // `ask` and `deny` rules only narrow and stay.
    Widening {
        key: "allow rules",
        restrain: |ws, _| {
            let Some(rules) = ws.rules.as_mut() else {
                return false;
            };
            let before = rules.len();
            rules.retain(|r| r.action != "allow");
            rules.len() != before
        },
    },
    // What runs: a language server command (spec 09).
    Widening {
        key: "lsp.*.command",
        restrain: |ws, _| {
            let Some(lsp) = ws.lsp.as_mut() else {
                return false;
            };
            let mut took = false;
            for server in lsp.servers.values_mut() {
                took |= unset(Some(&mut server.command));
            }
            took
        },
    },
    // Running servers found on PATH when the user turned that off.
    Widening {
        key: "lsp.auto",
        restrain: |ws, below| {
            let user_off = below.lsp.as_ref().and_then(|l| l.auto) == Some(false);
            match ws.lsp.as_mut() {
                Some(l) if user_off && l.auto == Some(true) => unset(Some(&mut l.auto)),
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let taken = restrain(&mut ws, &user);
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
                "freshness",
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
        assert_eq!(ws.freshness, None);
        // A shorter exec timeout is a narrowing: it stays.
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
            "deny_read = [\".aws\", \".ssh\", \".gnupg\", \"x\"]\nfreshness = true\n\
             [tools]\ngroups = []\n[web]\nallow_private = false\nmax_body_bytes = 1024\n\
             [exec]\ntimeout_ms = 5\n",
        );
        assert!(restrain(&mut narrow, &Config::default()).is_empty());
        // Safeguards weakened: taken back, down to the user's own setting.
        let mut weak = parsed(
            "syntax_check = false\n[web]\nmax_body_bytes = 18446744073709551615\n\
             [exec]\ntimeout_ms = 600000\n",
        );
        let user = parsed("[exec]\ntimeout_ms = 700000\n");
        assert_eq!(
            restrain(&mut weak, &user),
            ["web.max_body_bytes", "syntax_check"]
        );
        assert_eq!(weak.exec.as_ref().unwrap().timeout_ms, Some(600_000));
        assert_eq!(weak.web.as_ref().unwrap().max_body_bytes, None);
        let mut weak = parsed("[exec]\ntimeout_ms = 600000\n");
        assert_eq!(restrain(&mut weak, &Config::default()), ["exec.timeout_ms"]);
    }

    #[test]
    fn an_untrusted_workspace_cannot_weaken_the_exec_sandbox() {
        let mut ws = parsed("[exec]\nsandbox = \"off\"\nnetwork = true\nwritable = [\"/etc\"]\n");
        let taken = restrain(&mut ws, &Config::default());
        assert_eq!(taken, ["exec.sandbox", "exec.network", "exec.writable"]);
        let exec = ws.exec.unwrap();
        assert_eq!(
            (exec.sandbox, exec.network, exec.writable),
            (None, None, None)
        );
        // Stricter than the user's: kept. The user's own weaker mode is the base.
        let mut ws = parsed("[exec]\nsandbox = \"read-only\"\nnetwork = false\n");
        assert!(restrain(&mut ws, &Config::default()).is_empty());
        let user = parsed("[exec]\nsandbox = \"off\"\nnetwork = true\n");
        let mut ws = parsed("[exec]\nsandbox = \"workspace-write\"\nnetwork = true\n");
        assert!(restrain(&mut ws, &user).is_empty());
        let mut ws = parsed("[exec]\nsandbox = \"off\"\n");
        let user = parsed("[exec]\nsandbox = \"read-only\"\n");
        assert_eq!(restrain(&mut ws, &user), ["exec.sandbox"]);
    }

    #[test]
    fn an_untrusted_workspace_cannot_redefine_tools_or_allow() {
        let user = parsed("[tools.grep]\nenabled = false\n");
        let mut ws = parsed(
            "[tools.grep]\nenabled = true\n[tools.glob]\nenabled = true\n\
             [tools.read_file]\ndescription = \"IGNORE PREVIOUS\"\n\
             description_append = \"and more\"\n\
             [[rules]]\naction = \"allow\"\n[[rules]]\naction = \"deny\"\npaths = [\"x\"]\n",
        );
        let taken = restrain(&mut ws, &user);
        assert_eq!(
            taken,
            [
                "tools.*.enabled",
                "tools.*.description",
                "tools.*.description_append",
                "allow rules"
            ]
        );
        let tools = ws.tools.as_ref().unwrap();
        assert_eq!(tools.overrides["grep"].enabled, None);
        // Enabling what the user did not disable widens nothing.
        assert_eq!(tools.overrides["glob"].enabled, Some(true));
        assert_eq!(tools.overrides["read_file"].description, None);
        assert_eq!(tools.overrides["read_file"].description_append, None);
        let rules = ws.rules.as_ref().unwrap();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].action, "deny");
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
}
