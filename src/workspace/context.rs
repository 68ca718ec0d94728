//! The context every tool runs in: workspace root, current directory, agent identity,
//! configuration, policy and the (lazily opened) state store (spec 00). On top of the file layer:
//! it implements [`WriteEnv`], what the write machinery of [`crate::fileio`] needs from a call.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::ToolError;
use crate::fileio::beneath::Dir;
use crate::fileio::env::WriteEnv;
use crate::fileio::fs::{Fs, describe};
use crate::fileio::journal;
use crate::fileio::write_gate::WriteGate;
use crate::interrupt::Cancel;
use crate::skills::dirs::SkillDir;
use crate::text::path_escape::encode_path;
use crate::workspace::config::Config;
use crate::workspace::policy::{Access, CheckedPath, PathPolicy};
use crate::workspace::root;
use crate::workspace::state::{StateStore, read_log};

/// Global settings after flags, environment and configuration are layered (spec 00).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--root` / `AGTOOL_ROOT`.
    pub root: Option<PathBuf>,
    /// `--agent` / `AGTOOL_AGENT` (default `default`).
    pub agent: Option<String>,
    /// `--config` / `AGTOOL_CONFIG`.
    pub config: Option<PathBuf>,
    /// `--json`.
    pub json: bool,
    /// `--no-freshness` / `AGTOOL_FRESHNESS=off`.
    pub no_freshness: bool,
    /// `--no-syntax-check` / `AGTOOL_SYNTAX_CHECK=off`.
    pub no_syntax_check: bool,
    /// `--groups` / `AGTOOL_GROUPS`.
    pub groups: Option<Vec<String>>,
    /// `--timeout-ms`: overrides every tool's default timeout.
    pub timeout_ms: Option<u64>,
    /// `--notes-dir`: the notes store (spec 06), relative to the current directory.
    pub notes_dir: Option<PathBuf>,
    /// `--skills-dir` (repeatable): skill folders (spec 06), relative to the current directory.
    pub skills_dirs: Vec<PathBuf>,
    /// `--approved`: the host approved the call in advance (spec 10 "Rules").
    pub approved: bool,
}

/// How a face asks the person behind it to approve a call (spec 10 "Rules"): called with the
/// question; `Some(true)` approved, `Some(false)` declined, `None` when no one can be asked.
pub type Asker = Arc<dyn Fn(&str) -> Option<bool> + Send + Sync>;

/// Which walked entries a folder search by a tool leaves out because a `deny` rule for that
/// tool matches them (spec 10 "Rules"): called with the tool's name, the entry's absolute path
/// and whether it is a folder; true = leave it out (and do not enter it). Set by the faces
/// from the rules (`hooks::rules::Ruleset::hides`), so the search core needs no rule code.
pub type RuleHidden = Arc<dyn Fn(&str, &Path, bool) -> bool + Send + Sync>;

/// Everything a tool needs besides its arguments. Shared across threads in `call --batch`;
/// the MCP server gives each call its own copy ([`Ctx::for_call`]) with its own stop request
/// and write gate.
pub struct Ctx {
    /// The current directory (physical, as `getcwd` gives it): relative paths resolve here.
    /// When agtool starts outside the workspace root, the root (and the process moves there).
    pub cwd: PathBuf,
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// The root as the caller spelled it (`--root` or `AGTOOL_ROOT`), when given: it may go
    /// through symlinks that [`Ctx::root`] resolved.
    pub root_given: Option<PathBuf>,
    /// Agent identity keying the freshness table.
    pub agent: String,
    /// Merged configuration files.
    pub config: Config,
    /// The keys of an untrusted workspace's config file that were ignored (see
    /// [`crate::workspace::trust::Untrusted`]).
    pub untrusted: Option<Arc<crate::workspace::trust::Untrusted>>,
    /// The path policy.
    pub policy: PathPolicy,
    /// Whether the freshness gate and table are on.
    pub freshness: bool,
    /// Whether the syntax gate is on by default.
    pub syntax_check: bool,
    /// Whether output is the `--json` envelope.
    pub json: bool,
    /// Enabled groups for `call`, `mcp`, `schema`, as spelled (checked by the faces against
    /// the registry's groups).
    pub groups: Vec<String>,
    /// Where [`Ctx::groups`] came from, for messages: `--groups`, `AGTOOL_GROUPS`, `config
    /// tools.groups` or `the default`.
    pub groups_source: &'static str,
    /// Global timeout override in ms.
    pub timeout_ms: Option<u64>,
    /// The notes store folder (spec 06): absolute, symlinks not resolved; not created.
    pub notes_dir: PathBuf,
    /// Where [`Ctx::notes_dir`] came from, for messages (`--notes-dir`, `config notes.dir`,
    /// `default`).
    pub notes_dir_origin: &'static str,
    /// The skill folders the host gave (spec 06), in order, absolute.
    pub skill_dirs: Vec<SkillDir>,
    /// The file layer: handles on the allowed roots, through which every path is reached.
    pub fs: Arc<Fs>,
    /// Set once this process has looked for interrupted writes to recover.
    recovered: Arc<OnceLock<()>>,
    /// The stop request of the call running in this context (spec 07 "mcp": cancellation and
    /// end of input). Long-running work checks it: exec passes it to the exec core, which kills
    /// the process tree when it fires. Never fires on the command line.
    pub cancel: Cancel,
    /// The line between computing and writing for the call running in this context (see
    /// [`WriteGate`]): a timeout or a cancellation abandons the call only before it writes.
    pub gate: Arc<WriteGate>,
    /// The face running calls in this context, for hooks and the trace (spec 10): `cli`
    /// (a tool subcommand), `call` or `mcp`.
    pub face: &'static str,
    /// The host approved this call in advance (`--approved`, or `"approved": true` in a
    /// `call` envelope): an `ask` rule lets it run (spec 10 "Rules").
    pub approved: bool,
    /// How an `ask` rule asks the person behind a long-lived face (the MCP client's
    /// elicitation): called with the question; `Some(true)` approved, `Some(false)` declined,
    /// `None` when it cannot ask. Unset: the face cannot ask that way.
    pub asker: Option<Asker>,
    /// Entries folder searches leave out by the rules ([`RuleHidden`]); None: no such rule.
    pub rule_hidden: Option<RuleHidden>,
    state: Arc<OnceLock<Result<Mutex<StateStore>, String>>>,
    /// The state folder's (device, inode, birth time in ns or 0) when this process last
    /// appended to its read log:
    /// a long-lived process (the MCP server) that finds another folder there later tells the
    /// caller its earlier reads are gone.
    log_dir: Arc<Mutex<Option<(u64, u64, u128)>>>,
    /// Things the caller is told once, after the result (a corrupt state database that was
    /// replaced): see [`Ctx::notice`].
    notices: Mutex<Vec<String>>,
    /// Why the last freshness registration failed, to explain a later refusal.
    unrecorded: Mutex<Option<String>>,
}

pub use crate::workspace::config::DEFAULT_GROUPS;

/// Told once when the state folder this process used was removed or replaced.
const STATE_FOLDER_GONE: &str = "Note: the state folder was removed or replaced since this \
     process last used it; reads recorded before are gone: read files again before editing them.";

fn env_off(name: &str) -> bool {
    std::env::var(name)
        .map(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "off" | "0" | "false" | "no"
            )
        })
        .unwrap_or(false)
}

fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The notes store (spec 06): `--notes-dir` (against the current directory), else config
/// `notes.dir` (against the workspace root), else `.agent-state/notes`; with its origin.
fn notes_dir(
    settings: &Settings,
    config: &Config,
    cwd: &Path,
    root: &Path,
) -> (PathBuf, &'static str) {
    if let Some(dir) = &settings.notes_dir {
        return (cwd.join(dir), "--notes-dir");
    }
    if let Some(dir) = config.notes.as_ref().and_then(|n| n.dir.as_ref()) {
        return (root.join(dir), "config notes.dir");
    }
    (root.join(root::STATE_DIR).join("notes"), "default")
}

impl Ctx {
    /// Builds the context: discovers the root, loads configuration, layers flags and
    /// environment over it. Errors are usage errors (bad `--root`, bad config file).
    pub fn new(settings: &Settings) -> Result<Ctx, String> {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?;
        let explicit_root = settings
            .root
            .clone()
            .or_else(|| std::env::var_os("AGTOOL_ROOT").map(PathBuf::from));
        let found = root::discover(&cwd, explicit_root.as_deref()).map_err(|e| e.to_string())?;
        // Logical: made absolute against the current folder, symlinks kept.
        let root_given = explicit_root.map(|r| if r.is_absolute() { r } else { cwd.join(r) });
        for w in &found.warnings {
            eprintln!("{w}");
        }
        let root = found.root;
        let explicit_config = settings
            .config
            .clone()
            .or_else(|| std::env::var_os("AGTOOL_CONFIG").map(PathBuf::from))
            .map(|p| cwd.join(p));
        let loaded = crate::workspace::trust::load(&root, explicit_config.as_deref())?;
        // Every face builds its context here, so every face warns (stderr: not for the model).
        for w in &loaded.warnings {
            eprintln!("{w}");
        }
        let config = loaded.config;
        let untrusted = loaded.untrusted.map(Arc::new);
        let from_env = match std::env::var("AGTOOL_AGENT") {
            Ok(a) => Some(a).filter(|a| !a.is_empty()),
            Err(std::env::VarError::NotPresent) => None,
            // Never "default" in its place: two such ids would share that agent's reads.
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err("AGTOOL_AGENT is not UTF-8; give an agent id in UTF-8".to_owned());
            }
        };
        let agent = settings
            .agent
            .clone()
            .filter(|a| !a.is_empty())
            .or(from_env)
            .unwrap_or_else(|| "default".to_owned());
        crate::workspace::state::check_agent_id(&agent)?;
        let freshness = !settings.no_freshness
            && !env_off("AGTOOL_FRESHNESS")
            && config.freshness.unwrap_or(true);
        let syntax_check = !settings.no_syntax_check
            && !env_off("AGTOOL_SYNTAX_CHECK")
            && config.syntax_check.unwrap_or(true);
        let (groups, groups_source) = if let Some(g) = settings.groups.clone() {
            (g, "--groups")
        } else if let Ok(g) = std::env::var("AGTOOL_GROUPS") {
            (split_list(&g), "AGTOOL_GROUPS")
        } else if let Some(g) = config.tools.as_ref().and_then(|t| t.groups.clone()) {
            (g, "config tools.groups")
        } else {
            let g = DEFAULT_GROUPS.iter().map(|g| g.to_string()).collect();
            (g, "the default")
        };
        let (notes_dir, notes_dir_origin) = notes_dir(settings, &config, &cwd, &root);
        let skill_dirs = SkillDir::from_sources(&settings.skills_dirs, &config, &cwd, &root);
        // Skill folders are readable by the read tools, so files beside a SKILL.md can be read
        // (spec 06).
        // A symlinked skill folder is a read root only when it passes the deny_read names.
        let mut policy = PathPolicy::new(
            &root,
            config.read_roots.as_deref().unwrap_or(&[]),
            config.write_roots.as_deref().unwrap_or(&[]),
            config.protected_names.as_deref().unwrap_or(&[]),
            config.deny_read.as_deref(),
        );
        let skill_roots = SkillDir::read_roots(&skill_dirs, &|n| policy.is_denied_name(n));
        policy.add_read_roots(&skill_roots);
        let fs = Fs::new(&root, policy.write_bases());
        // Started outside the workspace it was given (`--root` from an MCP host's own folder):
        // relative paths, and commands run without a workdir, start at the root instead of
        // being refused or run outside (flag paths above were read against the real cwd).
        let cwd = if cwd.starts_with(&root) {
            cwd
        } else {
            std::env::set_current_dir(&root)
                .map_err(|e| format!("cannot enter the workspace root {}: {e}", root.display()))?;
            root.clone()
        };
        Ok(Ctx {
            fs: Arc::new(fs),
            recovered: Arc::new(OnceLock::new()),
            cwd,
            root,
            root_given,
            agent,
            config,
            untrusted,
            policy,
            freshness,
            syntax_check,
            json: settings.json,
            groups,
            groups_source,
            timeout_ms: settings.timeout_ms,
            notes_dir,
            notes_dir_origin,
            skill_dirs,
            cancel: Cancel::never(),
            gate: Arc::new(WriteGate::new()),
            face: "cli",
            approved: settings.approved,
            asker: None,
            rule_hidden: None,
            state: Arc::new(OnceLock::new()),
            log_dir: Arc::new(Mutex::new(None)),
            notices: Mutex::new(Vec::new()),
            unrecorded: Mutex::new(None),
        })
    }

    /// A copy of this context for one call of a long-lived face (the MCP server): the same
    /// workspace, configuration and state store, with `cancel` as the call's stop request and a
    /// fresh write gate.
    pub fn for_call(&self, cancel: Cancel) -> Ctx {
        Ctx {
            fs: self.fs.clone(),
            recovered: self.recovered.clone(),
            cwd: self.cwd.clone(),
            root: self.root.clone(),
            root_given: self.root_given.clone(),
            agent: self.agent.clone(),
            config: self.config.clone(),
            untrusted: self.untrusted.clone(),
            policy: self.policy.clone(),
            freshness: self.freshness,
            syntax_check: self.syntax_check,
            json: self.json,
            groups: self.groups.clone(),
            groups_source: self.groups_source,
            timeout_ms: self.timeout_ms,
            notes_dir: self.notes_dir.clone(),
            notes_dir_origin: self.notes_dir_origin,
            skill_dirs: self.skill_dirs.clone(),
            cancel,
            gate: Arc::new(WriteGate::new()),
            face: self.face,
            approved: self.approved,
            asker: self.asker.clone(),
            rule_hidden: self.rule_hidden.clone(),
            state: self.state.clone(),
            log_dir: self.log_dir.clone(),
            notices: Mutex::new(Vec::new()),
            unrecorded: Mutex::new(None),
        }
    }

    /// Parses a `--groups` value (`files,edit`).
    pub fn parse_groups(s: &str) -> Vec<String> {
        split_list(s)
    }

    /// Checks a caller-spelled path against the policy. The first check of a process first
    /// recovers interrupted writes in the workspace ([`Ctx::recover_once`]).
    pub fn check_path(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError> {
        self.recover_once();
        Ok(self.policy.check(&self.cwd, spelled, access)?)
    }

    /// Checks the entry a caller-spelled path names itself (a final symlink is the link; see
    /// [`PathPolicy::check_entry`]).
    pub fn check_entry(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError> {
        self.recover_once();
        Ok(self.policy.check_entry(&self.cwd, spelled, access)?)
    }

    /// Recovers the interrupted writes of dead processes in this workspace, once per process,
    /// and says what it did once, after the call's result (spec 01, "Races and crashes"). Costs one look at the
    /// journal folder when there is nothing to do.
    pub fn recover_once(&self) {
        self.recovered.get_or_init(|| self.say(&self.recover_now()));
    }

    /// Recovers the interrupted writes of dead processes now (a write transaction does, after
    /// taking its path locks) and returns what was done, one line each, for the caller to
    /// say once.
    pub fn recover_now(&self) -> Vec<String> {
        journal::recover(&self.fs, &|p| self.display(p))
    }

    /// Queues recovery lines to be told once after this call's result ([`Ctx::notice`]),
    /// `Note: ` first.
    pub fn say(&self, lines: &[String]) {
        for line in lines {
            self.notice(format!("Note: {line}"));
        }
    }

    /// Checks a caller-spelled workdir against the read policy and opens it as a handle
    /// reached without following symlinks (spec 05): the command is started in that very
    /// folder (`fchdir`), whatever is renamed meanwhile. None stays None.
    pub fn open_workdir(&self, spelled: Option<&str>) -> Result<Option<(PathBuf, Dir)>, ToolError> {
        let Some(spelled) = spelled else {
            return Ok(None);
        };
        let checked = self.check_path(spelled, Access::Read)?;
        let not_dir = |why: &str| {
            ToolError::refused(format!("workdir {spelled} {why}; give an existing folder"))
        };
        match self.fs.open_dir(&checked) {
            Ok(dir) => Ok(Some((checked.real, dir))),
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => Err(not_dir("is not a directory")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(not_dir("does not exist")),
            Err(e) => Err(ToolError::refused(format!(
                "cannot use workdir {spelled}: {}",
                describe(&e)
            ))),
        }
    }

    /// Config `exec.prefix` (spec 05 "Backend"), empty when unset.
    pub fn exec_prefix(&self) -> Vec<String> {
        self.config
            .exec
            .as_ref()
            .and_then(|e| e.prefix.clone())
            .unwrap_or_default()
    }

    /// Checks a caller-spelled workdir against the read policy (spec 05 "workdir must pass the
    /// read policy") and that it is a directory. None stays None (the current directory).
    pub fn check_workdir(&self, spelled: Option<&str>) -> Result<Option<PathBuf>, ToolError> {
        let Some(spelled) = spelled else {
            return Ok(None);
        };
        let checked = self.check_path(spelled, Access::Read)?;
        if !checked.real.is_dir() {
            let why = if checked.real.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(ToolError::refused(format!(
                "workdir {spelled} {why}; give an existing folder"
            )));
        }
        Ok(Some(checked.real))
    }

    /// The `.agent-state/` folder (not created).
    pub fn state_dir(&self) -> PathBuf {
        self.root.join(root::STATE_DIR)
    }

    /// Runs `f` with the state store, creating `.agent-state/` and opening the database on
    /// first use. Errors when the folder cannot be created or the database cannot be opened.
    ///
    /// When `f` meets a damaged database (a corrupt page the open did not read), the database
    /// is moved aside, a fresh one started (said once, as at open) and `f` run again on it.
    pub fn with_state<T>(&self, f: impl Fn(&StateStore) -> Result<T, String>) -> Result<T, String> {
        let store = self.state.get_or_init(|| {
            let dir = root::ensure_state_dir(&self.root).map_err(|e| {
                format!(
                    "cannot use the state folder {}: {e}",
                    self.state_dir().display()
                )
            })?;
            self.check_log_dir(&dir, false);
            let mut store = StateStore::open(&dir)?;
            let days = self
                .config
                .freshness_days
                .unwrap_or(crate::workspace::config::DEFAULT_FRESHNESS_DAYS);
            // Best effort: a store that cannot forget still records and checks.
            let _ = store.forget_idle_agents(std::time::Duration::from_secs(days * 86_400));
            if let Some(note) = store.take_notice() {
                self.notice(note);
            }
            Ok(Mutex::new(store))
        });
        match store {
            Ok(m) => {
                let mut guard = m.lock().unwrap_or_else(|p| p.into_inner());
                if guard.replaced_on_disk() {
                    // A long-lived process (the MCP server) whose database another process
                    // reset or replaced, or whose state folder was removed: records go where
                    // every other process puts them, in a folder made again if need be.
                    let folder_gone = !guard.dir().exists();
                    let dir = root::ensure_state_dir(&self.root).map_err(|e| {
                        format!(
                            "cannot use the state folder {}: {e}",
                            self.state_dir().display()
                        )
                    })?;
                    *guard = StateStore::open(&dir)?;
                    self.notice(if folder_gone {
                        STATE_FOLDER_GONE
                    } else {
                        "Note: the state database was reset or replaced by another process; \
                         reads recorded before are gone: read files again before editing them."
                    });
                }
                let done = match f(&guard) {
                    Err(e) if guard.is_damaged() => {
                        guard
                            .replace_damaged()
                            .map_err(|again| format!("{e}; {again}"))?;
                        if let Some(note) = guard.take_notice() {
                            self.notice(note);
                        }
                        f(&guard)
                    }
                    done => done,
                };
                if let Some(note) = guard.take_notice() {
                    self.notice(note);
                }
                done
            }
            Err(e) => Err(e.clone()),
        }
    }

    /// Forgets everything in the state store whatever state its files are in (`agtool state
    /// reset`; see [`StateStore::reset_files`]), creating `.agent-state/` when needed.
    /// Returns what had to be removed or moved, one line each.
    pub fn reset_state(&self) -> Result<Vec<String>, String> {
        let dir = root::ensure_state_dir(&self.root).map_err(|e| {
            format!(
                "cannot use the state folder {}: {e}",
                self.state_dir().display()
            )
        })?;
        let (store, said) = StateStore::reset_files(&dir)?;
        if let Some(Ok(m)) = self.state.get() {
            *m.lock().unwrap_or_else(|p| p.into_inner()) = store;
        }
        Ok(said)
    }

    /// `path` for display: relative to the current directory when under it, else absolute
    /// (spec 00), names that are not UTF-8 escaped (crate::text::path_escape).
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => encode_path(rel).into_owned(),
            Err(_) => encode_path(path).into_owned(),
        }
    }

    /// Records that this agent was shown `tag` for `real` (freshness registration, spec 01).
    /// Returns a note for the output when the tag could not be recorded, `None` when it was
    /// (or freshness is off).
    pub fn register_tag(&self, real: &Path, tag: &str) -> Option<String> {
        if !self.freshness {
            return None;
        }
        let recorded = if self.state.get().is_none() {
            // The database is not open in this process: append to the read log, which the
            // next process to open it folds in (issue 18 §7: a read skips opening SQLite).
            self.append_read(real, tag)
        } else {
            self.with_state(|s| {
                s.record_tag(&self.agent, real, tag)?;
                s.clear_failures(&self.agent, real)
            })
        };
        match recorded {
            Ok(()) => None,
            Err(e) => {
                let note = format!(
                    "(note: the tag was not recorded, so an edit of this file will be refused \
                     until it is: {e})"
                );
                *self.unrecorded.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                Some(note)
            }
        }
    }

    /// Tells the caller once when the state folder `dir` is not the one this process last
    /// appended reads to (removed, or replaced by another folder): the reads it logged there
    /// are gone. `appending`: remember `dir` as the folder appended to from now on.
    fn check_log_dir(&self, dir: &Path, appending: bool) {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::symlink_metadata(dir) else {
            return;
        };
        // The birth time too: a folder made again often gets the inode number just freed.
        let born = meta
            .created()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        let now = (meta.dev(), meta.ino(), born);
        let mut seen = self.log_dir.lock().unwrap_or_else(|p| p.into_inner());
        if seen.is_some_and(|before| before != now) {
            self.notice(STATE_FOLDER_GONE);
        }
        *seen = appending.then_some(now);
    }

    /// Appends "this agent was shown `tag` for `real`" to the read log (see
    /// [`crate::workspace::state::read_log`]); once the log has passed
    /// [`read_log::FOLD_AT_BYTES`], opens the database, which folds it in.
    fn append_read(&self, real: &Path, tag: &str) -> Result<(), String> {
        let dir = root::ensure_state_dir(&self.root).map_err(|e| {
            format!(
                "cannot use the state folder {}: {e}",
                self.state_dir().display()
            )
        })?;
        self.check_log_dir(&dir, true);
        match read_log::append(&dir, &self.agent, real, tag)? {
            read_log::Appended::Written { size } => {
                if size > read_log::FOLD_AT_BYTES {
                    // Best effort: the record is in the log either way.
                    let _ = self.with_state(|s| s.fold_reads());
                }
                Ok(())
            }
            read_log::Appended::LogTooBig => {
                // The fold sets the log aside (said once); then the record goes in a new one.
                self.with_state(|s| s.fold_reads())?;
                match read_log::append(&dir, &self.agent, real, tag)? {
                    read_log::Appended::Written { .. } => Ok(()),
                    read_log::Appended::LogTooBig => Err(format!(
                        "the read log {} is still past {} bytes",
                        dir.join(read_log::READ_LOG).display(),
                        read_log::MAX_LOG_BYTES
                    )),
                }
            }
        }
    }

    /// Why reads cannot be recorded now (a read-only or locked state database, an unusable
    /// state folder), to explain a freshness refusal; None when they can. Asks the store with
    /// an empty write, so only for a refusal already decided.
    pub fn recording_problem(&self) -> Option<String> {
        if let Some(e) = self
            .unrecorded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            return Some(e);
        }
        match self.with_state(|s| Ok(s.write_problem())) {
            Ok(None) => read_log::append_problem(&self.state_dir()),
            Ok(problem) => problem,
            Err(e) => Some(e),
        }
    }

    /// Queues `text` to be told once, after this call's result (spec 01: a replaced state
    /// database is said once). Printed by the face that prints the result.
    pub fn notice(&self, text: impl Into<String>) {
        self.notices
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(text.into());
    }

    /// Takes the queued notices (see [`Ctx::notice`]).
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// The write machinery's view of a call (see [`WriteEnv`]): the context's own handles, gate,
/// root, policy and settings, and this agent's freshness records in the state store.
impl WriteEnv for Ctx {
    fn fs(&self) -> &Fs {
        &self.fs
    }

    fn gate(&self) -> &WriteGate {
        &self.gate
    }

    fn root(&self) -> &Path {
        &self.root
    }

    fn policy(&self) -> &PathPolicy {
        &self.policy
    }

    fn check_path(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError> {
        Ctx::check_path(self, spelled, access)
    }

    fn check_entry(&self, spelled: &str, access: Access) -> Result<CheckedPath, ToolError> {
        Ctx::check_entry(self, spelled, access)
    }

    fn display(&self, path: &Path) -> String {
        Ctx::display(self, path)
    }

    fn freshness(&self) -> bool {
        self.freshness
    }

    fn syntax_check(&self) -> bool {
        self.syntax_check
    }

    fn say(&self, lines: &[String]) {
        Ctx::say(self, lines)
    }

    fn recorded_tag(&self, real: &Path) -> Result<Option<String>, String> {
        self.with_state(|s| s.recorded_tag(&self.agent, real))
    }

    fn register_tag(&self, real: &Path, tag: &str) -> Option<String> {
        Ctx::register_tag(self, real, tag)
    }

    fn forget_tag(&self, real: &Path) -> Result<(), String> {
        self.with_state(|s| s.forget(real).map(|_| ()))
    }

    fn move_tags(&self, from: &Path, to: &Path) -> Result<(), String> {
        self.with_state(|s| s.move_entries(from, to).map(|_| ()))
    }

    fn recording_problem(&self) -> Option<String> {
        Ctx::recording_problem(self)
    }
}
