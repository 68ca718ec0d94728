//! allow/ask/deny rules (spec 10 "Rules: allow, ask, deny per argument"): `[[rules]]` entries
//! compiled into a [`Ruleset`] and matched against what a call touches ([`Touches`]).
//!
//! A rule applies to a call when its `tools` (names or group names; absent = every tool)
//! hold the tool and every matcher it gives matches: `paths` (gitignore-style globs; for
//! `deny` against every path read or written, for `ask` and `allow` against the paths
//! written), `argv_prefix` (the argv, or each command of exec_command's shell line, starts
//! with these words), `hosts` (the URL's host is one of these names, `*.` patterns or CIDR
//! ranges). A rule without matchers applies to every call of its tools. The strictest
//! applying action wins (deny > ask > allow), the first such rule deciding; no rule applying
//! leaves the policy as it is.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Component, Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::{Site, Touches};
use crate::web::policy::Rule as HostRule;
use crate::workspace::config::RuleConfig;
use crate::workspace::context::Ctx;

/// A rule's action, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// Run as the policy allows.
    Allow,
    /// Run only with the host's (or the person's) approval.
    Ask,
    /// Refuse.
    Deny,
}

impl Action {
    fn parse(s: &str) -> Option<Action> {
        match s {
            "allow" => Some(Action::Allow),
            "ask" => Some(Action::Ask),
            "deny" => Some(Action::Deny),
            _ => None,
        }
    }

    /// `allow`, `ask` or `deny`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    }
}

/// What decides a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The action.
    pub action: Action,
    /// `rule <n>` (1-based, in the merged configuration's order) or `hook <command>`; None
    /// when no rule applied.
    pub source: Option<String>,
    /// What matched, for messages: `writes Cargo.lock`, `runs git push origin`, `fetches
    /// example.com`; empty for a rule without matchers.
    pub what: String,
    /// The rule's reason (or a default naming the rule).
    pub reason: String,
}

impl Decision {
    /// No rule applies.
    pub fn none() -> Decision {
        Decision {
            action: Action::Allow,
            source: None,
            what: String::new(),
            reason: "no rule applies; the policy decides as without rules".into(),
        }
    }

    /// A pre hook's `permissionDecision: "ask"`.
    pub fn ask_from_hook(reason: String) -> Decision {
        Decision {
            action: Action::Ask,
            source: Some("hook".into()),
            what: String::new(),
            reason,
        }
    }
}

struct Compiled {
    index: usize,
    action: Action,
    tools: Option<Vec<String>>,
    /// Globs against paths inside the workspace root, and against absolute paths outside it.
    paths: Option<(Gitignore, Gitignore)>,
    argv_prefix: Option<Vec<String>>,
    hosts: Option<Vec<HostRule>>,
    reason: Option<String>,
}

/// The configuration's rules, compiled.
pub struct Ruleset {
    rules: Vec<Compiled>,
}

impl Ruleset {
    /// Compiles `ctx.config.rules`. `known(name)` says whether a name is a tool or a group.
    /// Errors (one line naming the rule): an unknown action, an unknown tool or group, an
    /// invalid glob, an empty argv prefix, a host entry that is no host, pattern or range.
    pub fn from_config(ctx: &Ctx, known: &dyn Fn(&str) -> bool) -> Result<Ruleset, String> {
        let mut rules = Vec::new();
        for (i, r) in ctx.config.rules.iter().flatten().enumerate() {
            rules.push(compile(i + 1, r, &ctx.root, known)?);
        }
        Ok(Ruleset { rules })
    }

    /// Whether there is no rule at all.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The decision for a call of `site` touching `t` (see the module doc).
    pub fn decide(&self, ctx: &Ctx, site: Site, t: &Touches) -> Decision {
        self.explain(ctx, site, t)
            .into_iter()
            .fold(Decision::none(), |best, d| {
                if d.action > best.action || best.source.is_none() {
                    d
                } else {
                    best
                }
            })
    }

    /// Whether a folder search by `site` (grep, glob, list_dir, read_file's `paths` globs)
    /// must leave out the walked entry `abs` (absolute; `is_dir` when a folder): a `deny` rule
    /// for that tool whose `paths` match it, as a deny-read name is left out (spec 10
    /// "Rules"). A rule with `argv_prefix` or `hosts` never applies to a search.
    pub fn hides(&self, root: &Path, site: Site, abs: &Path, is_dir: bool) -> bool {
        self.rules.iter().any(|r| {
            r.action == Action::Deny
                && r.argv_prefix.is_none()
                && r.hosts.is_none()
                && r.for_tool(site)
                && r.paths
                    .as_ref()
                    .is_some_and(|(i, o)| matches_abs(root, abs, is_dir, i, o))
        })
    }

    /// Whether a `deny` or `ask` rule with `paths` is for the tool of `site`.
    pub fn has_path_rules(&self, site: Site) -> bool {
        self.rules
            .iter()
            .any(|r| r.action > Action::Allow && r.paths.is_some() && r.for_tool(site))
    }

    /// Every rule that applies to the call, in order, as a decision each.
    pub fn explain(&self, ctx: &Ctx, site: Site, t: &Touches) -> Vec<Decision> {
        self.rules
            .iter()
            .filter_map(|r| r.applies(ctx, site, t))
            .collect()
    }
}

fn compile(
    index: usize,
    r: &RuleConfig,
    root: &Path,
    known: &dyn Fn(&str) -> bool,
) -> Result<Compiled, String> {
    let at = format!("rule {index} in the configuration ([[rules]])");
    let action = Action::parse(&r.action)
        .ok_or_else(|| format!("{at}: action {:?} is not allow, ask or deny", r.action))?;
    if let Some(tools) = &r.tools {
        for t in tools {
            if !known(&t.replace('-', "_")) {
                return Err(format!(
                    "{at}: {t:?} in tools is no tool or group name (see agtool schema --groups all)"
                ));
            }
        }
    }
    let paths = match &r.paths {
        None => None,
        Some(globs) => {
            let mut inside = GitignoreBuilder::new(root);
            let mut outside = GitignoreBuilder::new("/");
            for g in globs {
                let bad = |e: ignore::Error| format!("{at}: path glob {g:?} is not valid: {e}");
                inside.add_line(None, g).map_err(bad)?;
                outside.add_line(None, g).map_err(bad)?;
            }
            let built = |b: GitignoreBuilder| b.build().map_err(|e| format!("{at}: {e}"));
            Some((built(inside)?, built(outside)?))
        }
    };
    if let Some(p) = &r.argv_prefix
        && (p.is_empty() || p[0].is_empty())
    {
        return Err(format!("{at}: argv_prefix is empty"));
    }
    let hosts = match &r.hosts {
        None => None,
        Some(list) => Some(
            list.iter()
                .map(|h| HostRule::parse(h, &format!("{at}: hosts")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok(Compiled {
        index,
        action,
        tools: r
            .tools
            .as_ref()
            .map(|v| v.iter().map(|t| t.replace('-', "_")).collect()),
        paths,
        argv_prefix: r.argv_prefix.clone(),
        hosts,
        reason: r.reason.clone(),
    })
}

impl Compiled {
    /// Whether the rule's `tools` hold the tool (absent: every tool).
    fn for_tool(&self, site: Site) -> bool {
        self.tools.as_ref().is_none_or(|tools| {
            tools
                .iter()
                .any(|n| n == site.name || n == site.group || n == "all")
        })
    }

    fn applies(&self, ctx: &Ctx, site: Site, t: &Touches) -> Option<Decision> {
        if !self.for_tool(site) {
            return None;
        }
        let mut what = Vec::new();
        if let Some((inside, outside)) = &self.paths {
            let candidates: Vec<&String> = if self.action == Action::Deny {
                t.writes.iter().chain(&t.reads).collect()
            } else {
                t.writes.iter().collect()
            };
            let hit = candidates
                .into_iter()
                .find(|p| path_matches(ctx, p, inside, outside))?;
            let verb = if t.writes.contains(hit) {
                "writes"
            } else {
                "reads"
            };
            what.push(format!("{verb} {hit}"));
        }
        if let Some(prefix) = &self.argv_prefix {
            let argv = t.argv.as_ref()?;
            let start = command_starts(argv)
                .into_iter()
                .find(|&i| argv[i..].starts_with(prefix))?;
            what.push(format!("runs {}", argv[start..].join(" ")));
        }
        if let Some(hosts) = &self.hosts {
            let host = t
                .url
                .as_deref()
                .and_then(|u| url::Url::parse(u).ok())
                .and_then(|u| u.host_str().map(str::to_owned))?;
            hosts.iter().find(|h| h.matches(&host))?;
            what.push(format!("fetches {host}"));
        }
        Some(Decision {
            action: self.action,
            source: Some(format!("rule {}", self.index)),
            what: what.join(", "),
            reason: self
                .reason
                .clone()
                .unwrap_or_else(|| format!("rule {} says {}", self.index, self.action.name())),
        })
    }
}

/// Where commands start in a shell line split into words: the first word and each word after
/// `;`, `&&`, `||`, `|`, `&` (standing alone or ending a word). For a plain argv only the
/// first word starts a command in practice, and no word of an argv is an operator.
fn command_starts(argv: &[String]) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, w) in argv.iter().enumerate() {
        if [";", "&&", "||", "|", "&"].iter().any(|op| w.ends_with(op)) && i + 1 < argv.len() {
            starts.push(i + 1);
        }
    }
    starts
}

/// Whether the spelled path `p` (relative to the current directory, or absolute) matches:
/// its lexical form and, when it differs, the form with symlinks resolved (the file, or its
/// folder when the file does not exist yet), so a link cannot hide a protected name.
fn path_matches(ctx: &Ctx, p: &str, inside: &Gitignore, outside: &Gitignore) -> bool {
    let lexical = normalize(&ctx.cwd.join(p));
    let mut forms = vec![lexical.clone()];
    let resolved = std::fs::canonicalize(&lexical).ok().or_else(|| {
        let parent = std::fs::canonicalize(lexical.parent()?).ok()?;
        Some(parent.join(lexical.file_name()?))
    });
    if let Some(r) = resolved
        && r != lexical
    {
        forms.push(r);
    }
    forms
        .iter()
        .any(|abs| matches_abs(&ctx.root, abs, abs.is_dir(), inside, outside))
}

/// Whether the absolute path `abs` matches the globs: relative to `root` inside it, from `/`
/// outside it; the root itself never matches.
fn matches_abs(
    root: &Path,
    abs: &Path,
    is_dir: bool,
    inside: &Gitignore,
    outside: &Gitignore,
) -> bool {
    match abs.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            inside.matched_path_or_any_parents(rel, is_dir).is_ignore()
        }
        Ok(_) => false,
        Err(_) => outside
            .matched_path_or_any_parents(abs.strip_prefix("/").unwrap_or(abs), is_dir)
            .is_ignore(),
    }
}

/// `p` without `.` and with `..` applied, lexically.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Asks the person at the terminal `question` (y/N) when there is one: stderr is a terminal
/// and `/dev/tty` opens. `Some(answer)`, or None when no one can be asked.
pub fn ask_terminal(question: &str) -> Option<bool> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()?;
    let mut w = tty.try_clone().ok()?;
    write!(w, "agtool: approval needed: {question}\nRun it? [y/N] ").ok()?;
    w.flush().ok()?;
    let mut line = String::new();
    std::io::BufReader::new(tty).read_line(&mut line).ok()?;
    Some(matches!(line.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}
