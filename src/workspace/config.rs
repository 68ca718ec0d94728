//! Layered configuration (spec 00, "Configuration"): flags > environment > `--config` file >
//! `.agent-state/config.toml` > `~/.config/agtool/config.toml` > defaults. One file's keys,
//! parsing and merging live here; loading the layers with workspace trust is
//! [`crate::workspace::trust::load`], and flags and environment are applied by the caller on
//! top of its result.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// How many days the freshness records of an agent id unseen since are kept.
pub const DEFAULT_FRESHNESS_DAYS: u64 = 7;

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
    /// Days after which the freshness records of an agent id not seen since are dropped
    /// (default [`DEFAULT_FRESHNESS_DAYS`]; issue 18 section 3).
    pub freshness_days: Option<u64>,
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
    /// read_file's media settings (spec 09).
    pub read: Option<ReadConfig>,
    /// Workspace roots whose `.agent-state/config.toml` may widen the policy (spec 00,
    /// "Workspace trust"). Read from the user's file and `--config` files only: absolute
    /// paths, or `~/...` under `$HOME`; a workspace matches when its root is one of them.
    pub trusted_workspaces: Option<Vec<PathBuf>>,
    /// Pre- and post-tool hooks (spec 10 "Hooks on every tool"). Layers add up: the user's
    /// hooks run first, then a trusted workspace's, then `--config`'s.
    pub hooks: Option<HooksConfig>,
    /// allow/ask/deny rules (spec 10 "Rules"). Layers add up (a layer never drops another's).
    pub rules: Option<Vec<RuleConfig>>,
    /// The call trace (spec 10 "Trace").
    pub trace: Option<TraceConfig>,
    /// Language servers (spec 09): `[lsp] auto`, `wait_ms`, `[lsp.<language>] command`.
    pub lsp: Option<LspConfig>,
}

/// `[hooks]` table (spec 10 "Hooks on every tool").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HooksConfig {
    /// `[[hooks.pre_tool_use]]`: run before each matching call, in order.
    pub pre_tool_use: Option<Vec<HookConfig>>,
    /// `[[hooks.post_tool_use]]`: run after each matching call, in order.
    pub post_tool_use: Option<Vec<HookConfig>>,
}

/// One hook (spec 10): which tools it matches, what it runs, how long it may take.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HookConfig {
    /// A regex over tool names, anchored at both ends; `"*"` or absent matches every tool.
    pub matcher: Option<String>,
    /// An argv list, or a string run with `sh -c`.
    pub command: HookCommand,
    /// How long the hook may run, in ms (default 10000); then its process tree is killed.
    pub timeout_ms: Option<u64>,
}

/// A hook's command: an argv list or a shell string.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum HookCommand {
    /// Run with `sh -c`.
    Shell(String),
    /// Run as is (first word looked up in PATH).
    Argv(Vec<String>),
}

impl Default for HookCommand {
    fn default() -> Self {
        HookCommand::Argv(Vec::new())
    }
}

/// One `[[rules]]` entry (spec 10 "Rules"). Every matcher given must match for the rule to
/// apply; a rule with none applies to every call of its tools.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RuleConfig {
    /// `allow`, `ask` or `deny`.
    pub action: String,
    /// Tool names or group names; absent = every tool.
    pub tools: Option<Vec<String>>,
    /// gitignore-style globs matched against every path the call touches.
    pub paths: Option<Vec<String>>,
    /// An argv prefix for exec (exec_command's command split into shell words).
    pub argv_prefix: Option<Vec<String>>,
    /// web_fetch hosts: names, `*.` wildcards, CIDR ranges.
    pub hosts: Option<Vec<String>>,
    /// The reason the model (or the person asked) reads.
    pub reason: Option<String>,
}

/// `[trace]` table (spec 10 "Trace").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// The trace file (relative to the workspace root); `AGTOOL_TRACE` overrides it.
    pub file: Option<PathBuf>,
}

/// `[tools.<name>]`: a per-host definition of one tool (spec 10 "Per-host tool definitions").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ToolOverride {
    /// Replaces the tool's description.
    pub description: Option<String>,
    /// Appended to the description (after a blank line).
    pub description_append: Option<String>,
    /// Overrides the tool's sensitive flag.
    pub sensitive: Option<bool>,
    /// `false` leaves the tool out of `schema`, `call` and `mcp`.
    pub enabled: Option<bool>,
}

/// `[lsp]` table (spec 09, "Diagnostics after every edit").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct LspConfig {
    /// Use the first known server found on `PATH` for a language with no command (default
    /// true).
    pub auto: Option<bool>,
    /// How long an edit waits for fresh diagnostics, in ms (default 3000).
    pub wait_ms: Option<u64>,
    /// `[lsp.<language>]` tables, by language (`python`, `typescript`, `javascript`, `go`,
    /// `rust`, `c`, `cpp`).
    #[serde(flatten)]
    pub servers: std::collections::BTreeMap<String, LspServerConfig>,
}

/// The language names `[lsp.<language>]` may use: those file names map to (spec 09; the
/// LSP client's `language_of` maps extensions onto exactly these).
pub const LSP_LANGUAGES: [&str; 7] = [
    "python",
    "typescript",
    "javascript",
    "go",
    "rust",
    "c",
    "cpp",
];

/// `[lsp.<language>]` table (spec 09).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LspServerConfig {
    /// The server's command, program first, e.g. `["pyright-langserver", "--stdio"]`.
    pub command: Option<Vec<String>>,
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
    /// The exec sandbox mode (spec 08): `workspace-write` (default), `read-only` or `off`.
    pub sandbox: Option<String>,
    /// Whether sandboxed commands may open internet sockets (spec 08; default false).
    pub network: Option<bool>,
    /// Extra folders sandboxed commands may write (absolute, or relative to the root).
    pub writable: Option<Vec<PathBuf>>,
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
    /// Cap on a fetched body after decompression, in bytes (default 5 MiB).
    pub max_body_bytes: Option<u64>,
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

/// `[tools]` table (spec 00, "Groups"; spec 10 "Per-host tool definitions").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct ToolsConfig {
    /// Enabled groups, e.g. `["files", "edit"]`.
    pub groups: Option<Vec<String>>,
    /// `[tools.<name>]` tables, by tool name (checked against the registry when used).
    #[serde(flatten)]
    pub overrides: std::collections::BTreeMap<String, ToolOverride>,
}

/// `[read]` table (spec 09, "Images, PDFs, notebooks, several files at once").
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ReadConfig {
    /// Longest edge of an image sent to the model, in pixels (default 1568).
    pub image_max_edge: Option<u32>,
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
        let config: Config = toml::from_str(text).map_err(|e| {
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
        })?;
        // `[lsp.<language>]`: a name no file maps to (a typo such as `[lsp.py]`) would be
        // accepted and never used.
        if let Some(lsp) = &config.lsp
            && let Some(name) = lsp
                .servers
                .keys()
                .find(|k| !LSP_LANGUAGES.contains(&k.as_str()))
        {
            return Err(format!(
                "invalid configuration in {}: [lsp.{name}] names no language agtool knows; use \
                 one of {}",
                origin.display(),
                LSP_LANGUAGES.join(", ")
            ));
        }
        Ok(config)
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
            freshness_days: pick(self.freshness_days, over.freshness_days),
            syntax_check: pick(self.syntax_check, over.syntax_check),
            exec: merge_table(self.exec, over.exec, |b, o| ExecConfig {
                prefix: pick(b.prefix, o.prefix),
                shell: pick(b.shell, o.shell),
                timeout_ms: pick(b.timeout_ms, o.timeout_ms),
                sandbox: pick(b.sandbox, o.sandbox),
                network: pick(b.network, o.network),
                writable: pick(b.writable, o.writable),
            }),
            web: merge_table(self.web, over.web, |b, o| WebConfig {
                allow: pick(b.allow, o.allow),
                deny: pick(b.deny, o.deny),
                allow_private: pick(b.allow_private, o.allow_private),
                max_body_bytes: pick(b.max_body_bytes, o.max_body_bytes),
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
                overrides: merge_overrides(b.overrides, o.overrides),
            }),
            read: merge_table(self.read, over.read, |b, o| ReadConfig {
                image_max_edge: pick(b.image_max_edge, o.image_max_edge),
            }),
            trusted_workspaces: pick(self.trusted_workspaces, over.trusted_workspaces),
            hooks: merge_table(self.hooks, over.hooks, |b, o| HooksConfig {
                pre_tool_use: concat(b.pre_tool_use, o.pre_tool_use),
                post_tool_use: concat(b.post_tool_use, o.post_tool_use),
            }),
            rules: concat(self.rules, over.rules),
            trace: merge_table(self.trace, over.trace, |b, o| TraceConfig {
                file: pick(b.file, o.file),
            }),
            lsp: merge_table(self.lsp, over.lsp, |b, o| {
                let mut servers = b.servers;
                servers.extend(o.servers);
                LspConfig {
                    auto: pick(b.auto, o.auto),
                    wait_ms: pick(b.wait_ms, o.wait_ms),
                    servers,
                }
            }),
        }
    }
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

/// Groups on by default for `call`, `mcp` and `schema` (spec 00, "Groups").
pub const DEFAULT_GROUPS: [&str; 1] = ["files"];

/// Both lists, `base`'s first: hooks and rules of every layer count (spec 10).
fn concat<T>(base: Option<Vec<T>>, over: Option<Vec<T>>) -> Option<Vec<T>> {
    match (base, over) {
        (None, None) => None,
        (b, o) => Some(b.into_iter().chain(o).flatten().collect()),
    }
}

/// Per-tool definitions merged key by key, `over` winning.
fn merge_overrides(
    mut base: std::collections::BTreeMap<String, ToolOverride>,
    over: std::collections::BTreeMap<String, ToolOverride>,
) -> std::collections::BTreeMap<String, ToolOverride> {
    for (name, o) in over {
        let b = base.remove(&name).unwrap_or_default();
        base.insert(
            name,
            ToolOverride {
                description: pick(b.description, o.description),
                description_append: pick(b.description_append, o.description_append),
                sensitive: pick(b.sensitive, o.sensitive),
                enabled: pick(b.enabled, o.enabled),
            },
        );
    }
    base
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
        let err = Config::parse("[web]\nmax_body = 5\n", Path::new("c.toml")).unwrap_err();
        assert!(err.contains("max_body"), "{err}");
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
    fn an_lsp_language_no_file_maps_to_is_refused() {
        let ok = "[lsp.python]\ncommand = [\"pylsp\"]\n[lsp.cpp]\ncommand = [\"clangd\"]\n";
        assert!(Config::parse(ok, Path::new("c.toml")).is_ok());
        let err =
            Config::parse("[lsp.py]\ncommand = [\"pylsp\"]\n", Path::new("c.toml")).unwrap_err();
        assert!(err.contains("[lsp.py] names no language"), "{err}");
        assert!(err.contains("python, typescript"), "{err}");
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

    #[test]
    fn a_file_in_place_of_the_state_folder_means_no_config() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join(".agent-state"), "a file").unwrap();
        let got = Config::read(&t.path().join(".agent-state/config.toml"));
        assert_eq!(got, Ok(Config::default()));
    }

    #[test]
    fn web_keys_parse_and_layer() {
        let base = Config::parse(
            "[web]\nallow = [\"127.0.0.1\"]\ndeny = [\"*.bad.test\"]\nallow_private = true\n\
             max_body_bytes = 1024\n",
            Path::new("a"),
        )
        .unwrap();
        let over = Config::parse("[web]\nmax_body_bytes = 2048\n", Path::new("b")).unwrap();
        let web = base.merged(over).web.unwrap();
        assert_eq!(web.allow, Some(vec!["127.0.0.1".to_owned()]));
        assert_eq!(web.deny, Some(vec!["*.bad.test".to_owned()]));
        assert_eq!(web.allow_private, Some(true));
        assert_eq!(web.max_body_bytes, Some(2048));
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
