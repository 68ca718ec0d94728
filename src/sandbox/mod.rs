//! The exec sandbox (spec 08): every command that `exec`, `exec-command` sessions and
//! `exec.prefix` start runs inside an OS sandbox built from the workspace's path policy.
//!
//! How it is put together (Linux):
//! - The caller ([`prepare`], in the agtool process that handles the call) turns the policy
//!   and config into a [`Plan`] and puts `agtool sandbox-exec <plan> --` in front of the
//!   command's argv, like an `exec.prefix`. Nothing in the spawn path changes: the command is
//!   started exactly as before, only through this small re-exec of agtool.
//! - The helper ([`helper::run`], the hidden `sandbox-exec` subcommand, run before any other
//!   parsing) builds the sandbox in its own process and then `execvp`s the command, which keeps
//!   its pid, process group and pipes. It is a fresh process, not the gap between fork and
//!   exec, so it may allocate freely. In order:
//!   1. [`mounts`]: a private mount namespace (inside a new user namespace when not root):
//!      `deny_read` paths and agtool's journal key folder are covered by an empty read-only
//!      mount (as bubblewrap's `--ro-bind /dev/null`), protected names under the write roots
//!      become read-only bind mounts, and in `read-only` mode the write roots too.
//!   2. [`landlock`]: the file allow-list (reads everywhere but raw devices, writes only under
//!      the write roots, `/tmp`, the private `TMPDIR`, `exec.writable` and the usual devices)
//!      and, from ABI 4, TCP bind/connect when the network is off.
//!   3. [`seccomp`]: no socket of any family but Unix when the network is off (UDP and raw
//!      sockets are not Landlock's), and no call that would weaken the sandbox (namespaces,
//!      mounts, ptrace, chroot, io_uring, file handles, kernel modules).
//!   4. [`caps`]: every capability dropped (bounding, ambient, effective, permitted,
//!      inheritable) and the securebits locked, so root gains nothing back at exec.
//!   5. `no_new_privs`, set by Landlock and seccomp: set-uid programs gain nothing.
//! - A machine that cannot enforce a layer refuses the command ([`Unavailable`]); the
//!   `sandbox check` meta command prints what this machine enforces ([`probe`]).

pub mod caps;
pub mod helper;
pub mod landlock;
pub mod mounts;
pub mod probe;
pub mod seccomp;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::workspace::context::Ctx;

/// The hidden subcommand that builds the sandbox and execs the command.
pub const SUBCOMMAND: &str = "sandbox-exec";

/// Exit status of the helper when the sandbox could not be built (the command did not run).
pub const SETUP_FAILED: i32 = 126;

/// What the helper prints first on stderr when the sandbox could not be built.
pub const SETUP_FAILED_MARK: &str = "agtool sandbox: ";

/// The sandbox modes of config `exec.sandbox` (spec 08, "Modes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Writes only under the write roots (minus protected names), `/tmp`, the private
    /// `TMPDIR`, `exec.writable` and the usual devices.
    WorkspaceWrite,
    /// As [`Mode::WorkspaceWrite`] without the write roots.
    ReadOnly,
    /// No sandbox.
    Off,
}

impl Mode {
    /// The mode a config value names; `Err` with the message for anything else.
    pub fn parse(value: &str) -> Result<Mode, String> {
        match value {
            "workspace-write" => Ok(Mode::WorkspaceWrite),
            "read-only" => Ok(Mode::ReadOnly),
            "off" => Ok(Mode::Off),
            other => Err(format!(
                "exec.sandbox = {other:?} is not a sandbox mode; use \"workspace-write\" (the \
                 default), \"read-only\" or \"off\""
            )),
        }
    }

    /// The config spelling.
    pub fn name(self) -> &'static str {
        match self {
            Mode::WorkspaceWrite => "workspace-write",
            Mode::ReadOnly => "read-only",
            Mode::Off => "off",
        }
    }

    /// How strict the mode is, for the trust rule: a workspace's own config may only raise it.
    pub fn strength(self) -> u8 {
        match self {
            Mode::Off => 0,
            Mode::WorkspaceWrite => 1,
            Mode::ReadOnly => 2,
        }
    }
}

/// Everything the helper needs, decided by the caller and passed as one JSON argument. Paths
/// are absolute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// `WorkspaceWrite` or `ReadOnly` (an `Off` plan is never made).
    pub mode: Mode,
    /// Whether internet sockets are allowed (`exec.network`).
    pub network: bool,
    /// The workspace root and `write_roots`, resolved.
    pub write_roots: Vec<PathBuf>,
    /// `read_roots`, resolved: scanned for `deny_read` names like the write roots.
    pub read_roots: Vec<PathBuf>,
    /// `exec.writable`, resolved (they exist).
    pub writable: Vec<PathBuf>,
    /// The private temp folder set as `TMPDIR`.
    pub tmpdir: Option<PathBuf>,
    /// Folders whose top level is searched for `deny_read` names (the home folder).
    pub home: Option<PathBuf>,
    /// `deny_read` names.
    pub deny_read: Vec<String>,
    /// Protected names (built-in and config).
    pub protected: Vec<String>,
    /// Folders hidden whole (agtool's journal key folders and session server folders that
    /// exist).
    pub hidden: Vec<PathBuf>,
    /// How many entries the scan for names may look at before the command is refused
    /// ([`mounts::SCAN_BUDGET`] unless `AGTOOL_SANDBOX_SCAN_BUDGET` says otherwise).
    #[serde(default = "default_scan_budget")]
    pub scan_budget: usize,
}

fn default_scan_budget() -> usize {
    mounts::SCAN_BUDGET
}

/// The scan budget in force: `AGTOOL_SANDBOX_SCAN_BUDGET` when it is a number (for tests, and
/// for a workspace too big for the default), else [`mounts::SCAN_BUDGET`].
pub fn scan_budget() -> usize {
    std::env::var("AGTOOL_SANDBOX_SCAN_BUDGET")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(mounts::SCAN_BUDGET)
}

/// The sandbox settings in force for one call: the mode, the network, the writable folders.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// `exec.sandbox`.
    pub mode: Mode,
    /// `exec.network`.
    pub network: bool,
    /// `exec.writable`, resolved against the root.
    pub writable: Vec<PathBuf>,
}

impl Settings {
    /// Reads `exec.sandbox`, `exec.network` and `exec.writable` from the merged config (the
    /// trust rule was applied when it was loaded). Errors: an unknown mode, a writable entry
    /// that is `/` (that is `off` by another name) or does not exist.
    pub fn from_ctx(ctx: &Ctx) -> Result<Settings, String> {
        let exec = ctx.config.exec.clone().unwrap_or_default();
        let mode = match exec.sandbox.as_deref() {
            Some(v) => Mode::parse(v)?,
            None => Mode::WorkspaceWrite,
        };
        let mut writable = Vec::new();
        for entry in exec.writable.unwrap_or_default() {
            let joined = ctx.root.join(&entry);
            let real = std::fs::canonicalize(&joined).map_err(|_| {
                format!(
                    "exec.writable entry {} does not exist; make it first or remove it from the \
                     configuration",
                    entry.display()
                )
            })?;
            if real == Path::new("/") {
                return Err(format!(
                    "exec.writable entry {} is the whole filesystem: that is exec.sandbox = \
                     \"off\" by another name; say that instead if it is what you mean",
                    entry.display()
                ));
            }
            writable.push(real);
        }
        Ok(Settings {
            mode,
            network: exec.network.unwrap_or(false),
            writable,
        })
    }

    /// One sentence for the exec and exec_command descriptions (spec 08, "What the model
    /// sees").
    pub fn sentence(&self) -> String {
        match self.mode {
            Mode::Off => "Commands run without a sandbox (exec.sandbox = \"off\").".into(),
            mode => format!(
                "Commands run in the {} sandbox: {}; reads everywhere but secrets (.ssh, \
                 deny_read names); network {}.",
                mode.name(),
                match mode {
                    Mode::ReadOnly => "no writes but /tmp",
                    _ => "writes only in the workspace (not .git or .agent-state) and /tmp",
                },
                if self.network { "on" } else { "off" }
            ),
        }
    }
}

/// The sentence for the exec and exec_command descriptions in `ctx`, stating the sandbox
/// mode (spec 08, "What the model sees").
pub fn sentence(ctx: &Ctx) -> String {
    match Settings::from_ctx(ctx) {
        Ok(s) => s.sentence(),
        Err(e) => format!("The sandbox configuration is invalid, so commands are refused: {e}."),
    }
}

/// The sandbox for one command, ready to put in front of its argv.
#[derive(Debug)]
pub struct Prepared {
    /// `[agtool, sandbox-exec, <plan>, --]`, or empty when the mode is `off`.
    pub prefix: Vec<String>,
    /// The private temp folder, removed when this is dropped (keep it until the command ends)
    /// unless [`Prepared::hand_over_tmp`] is set; only what this user owns is removed
    /// ([`crate::exec::tmpdirs::remove_own`]).
    pub tmpdir: Option<tempfile::TempDir>,
    /// Someone else (the session server) removes the folder: this does not.
    pub hand_over_tmp: bool,
    /// A shared lock on it while this process is in charge of it, so a sweep never removes it
    /// ([`crate::exec::tmpdirs`]).
    pub tmp_lock: Option<std::fs::File>,
    /// The `Note:` line for a command that failed (spec 08), without a newline; None when off.
    pub note: Option<String>,
}

/// Why a command cannot be sandboxed on this machine (spec 08: never silently unsandboxed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this machine cannot enforce the exec sandbox ({0}); fix the machine (see `agtool sandbox \
     check`), or run commands unsandboxed with exec.sandbox = \"off\" in your configuration"
)]
pub struct Unavailable(pub String);

/// Builds the sandbox for a command started by a tool of `ctx`: the settings, the plan and
/// the helper prefix, and a fresh private temp folder. `off` gives an empty prefix.
///
/// Errors: a bad `exec.*` value (the message), or [`Unavailable`] when this kernel lacks a
/// layer (Landlock ABI 3, seccomp; namespaces are checked by the helper).
pub fn prepare(ctx: &Ctx) -> Result<Prepared, String> {
    let settings = Settings::from_ctx(ctx)?;
    if settings.mode == Mode::Off {
        return Ok(Prepared {
            prefix: Vec::new(),
            tmpdir: None,
            hand_over_tmp: false,
            tmp_lock: None,
            note: None,
        });
    }
    probe::require().map_err(|e| e.to_string())?;
    if let Some(link) = symlink_to_root(ctx, &settings) {
        return Err(format!(
            "the workspace is reached through the symlink {}, in a folder commands may write: \
             a command could point it at a copy of the workspace with a planted git hook, which \
             a later `cd` there would run outside the sandbox; nothing was run. Work from the \
             real path ({}): cd there, or pass --root {}",
            link.display(),
            ctx.root.display(),
            ctx.root.display()
        ));
    }
    // Private to this user whatever the umask (it was made 0755 under 022).
    let tmpdir = tempfile::Builder::new()
        .prefix(crate::exec::tmpdirs::PREFIX)
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir()
        .map_err(|e| format!("cannot make the command's private temp folder: {e}"))?;
    let mut tmpdir = tmpdir;
    // Removed by `Drop for Prepared`, only what this user owns: tempfile's removal has every
    // right agtool has, which the command does not.
    tmpdir.disable_cleanup(true);
    let tmp_lock = crate::exec::tmpdirs::hold(tmpdir.path());
    // Folders left by an agtool or session server killed with SIGKILL (now and then).
    crate::exec::tmpdirs::sweep_now_and_then();
    let plan = plan_for(ctx, &settings, Some(tmpdir.path()));
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find agtool's own executable for the sandbox: {e}"))?;
    let json = serde_json::to_string(&plan).map_err(|e| e.to_string())?;
    Ok(Prepared {
        prefix: vec![
            exe.to_string_lossy().into_owned(),
            SUBCOMMAND.into(),
            json,
            "--".into(),
        ],
        tmpdir: Some(tmpdir),
        hand_over_tmp: false,
        tmp_lock,
        note: Some(note(ctx, &settings)),
    })
}

/// A symlink on the way to the workspace root, as the caller spelled it (`--root`,
/// `AGTOOL_ROOT`, or the shell's `PWD` inside the workspace), that lies in a folder commands
/// may write (`/tmp`, `exec.writable`, a write root): the mounts pin real folders, and a symlink
/// cannot be pinned, so a command could point it elsewhere. None when there is none.
fn symlink_to_root(ctx: &Ctx, settings: &Settings) -> Option<PathBuf> {
    let mut writable: Vec<PathBuf> = vec![PathBuf::from("/tmp")];
    writable.extend(settings.writable.iter().cloned());
    writable.extend(ctx.policy.write_bases());
    let pwd = std::env::var_os("PWD")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .filter(|p| std::fs::canonicalize(p).is_ok_and(|c| c.starts_with(&ctx.root)));
    for spelled in ctx.root_given.iter().chain(pwd.iter()) {
        for dir in spelled.ancestors() {
            let is_link = std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
            if !is_link {
                continue;
            }
            // Only a link that leads to the root or above it moves the workspace.
            let leads_to_root = std::fs::canonicalize(dir).is_ok_and(|c| ctx.root.starts_with(&c));
            let in_writable = dir
                .parent()
                .and_then(|p| std::fs::canonicalize(p).ok())
                .is_some_and(|p| writable.iter().any(|w| p.starts_with(w)));
            if leads_to_root && in_writable {
                return Some(dir.to_path_buf());
            }
        }
    }
    None
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if let Some(t) = &self.tmpdir
            && !self.hand_over_tmp
        {
            crate::exec::tmpdirs::remove_own(t.path());
        }
    }
}

impl Prepared {
    /// `self.prefix ++ exec_prefix`: the sandbox goes in front of the config's prefix, so the
    /// prefix's program runs inside it too (spec 08).
    pub fn prefix_with(&self, exec_prefix: Vec<String>) -> Vec<String> {
        self.prefix.iter().cloned().chain(exec_prefix).collect()
    }

    /// The text of a command's result with the `Note:` line added when it exited non-zero or
    /// was killed by a signal (spec 08; not after its timeout), or the helper's refusal when
    /// the sandbox could not be built or the program not executed (`Err`: the sentence, for
    /// an `Error: `).
    pub fn finish(&self, exit_code: i32, timed_out: bool, text: String) -> Result<String, String> {
        let Some(note) = &self.note else {
            return Ok(text);
        };
        let mark = format!("Output:\n{SETUP_FAILED_MARK}");
        if exit_code == SETUP_FAILED
            && let Some(at) = text.find(&mark)
        {
            let line = text[at + mark.len()..].lines().next().unwrap_or("");
            return Err(line.to_string());
        }
        // A timeout is the caller's limit, not the sandbox's doing.
        if exit_code == 0 || timed_out {
            return Ok(text);
        }
        let mut text = text;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        // A blank line first: right under `Output:` it read as the command's own output.
        text.push('\n');
        text.push_str(note);
        text.push('\n');
        Ok(text)
    }
}

/// Checks, before the sandbox helper is put in front, that `argv0` can be executed from
/// `workdir` (a name without `/` on `PATH`), so a missing program is refused as `cannot run
/// <argv0>: <reason>` exactly as without the sandbox, rather than reported by the helper.
/// Errors: the reason, in [`crate::exec::spawn::describe_spawn`]'s words.
pub fn check_program(argv: &[String], workdir: &Path) -> Result<(), String> {
    let Some(argv0) = argv.first() else {
        return Ok(());
    };
    if argv.iter().any(|a| a.contains('\0')) {
        return Err("an argument holds a NUL byte".into());
    }
    let path_var = std::env::var_os("PATH");
    let found = crate::exec::spawn::find_program(argv0, path_var.as_deref(), workdir).is_some();
    if found {
        return Ok(());
    }
    let kind = if argv0.contains('/') && workdir.join(argv0).exists() {
        std::io::ErrorKind::PermissionDenied
    } else {
        std::io::ErrorKind::NotFound
    };
    Err(crate::exec::spawn::describe_spawn(
        argv,
        Some(workdir),
        &std::io::Error::from(kind),
    ))
}

/// The plan for `settings` in `ctx`'s workspace.
pub fn plan_for(ctx: &Ctx, settings: &Settings, tmpdir: Option<&Path>) -> Plan {
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .and_then(|h| canon(&h));
    Plan {
        mode: settings.mode,
        network: settings.network,
        write_roots: ctx.policy.write_bases(),
        read_roots: ctx.policy.read_bases(),
        writable: settings.writable.clone(),
        tmpdir: tmpdir.map(Path::to_path_buf),
        home,
        deny_read: ctx.policy.deny_read_names(),
        protected: ctx.policy.protected_names(),
        // The key folders, and every folder a session server's socket may be in: a command
        // that reached the server could ask it for a session outside the sandbox.
        hidden: crate::fileio::journal::key_folders()
            .into_iter()
            .chain(crate::exec::session::server_folders(&ctx.state_dir()))
            .filter_map(|d| canon(&d))
            .collect(),
        scan_budget: scan_budget(),
    }
}

/// The `Note:` line for a failed command in `ctx` (write_stdin, which reports a session's
/// exit): None when the sandbox is off or its settings are invalid.
pub fn note_for(ctx: &Ctx) -> Option<String> {
    let settings = Settings::from_ctx(ctx).ok()?;
    (settings.mode != Mode::Off).then(|| note(ctx, &settings))
}

/// The `Note:` line after a failed command (spec 08): the mode, what it allows, that protected
/// names stay read-only inside the write roots and `deny_read` paths look empty, the keys.
fn note(ctx: &Ctx, settings: &Settings) -> String {
    let mut writes: Vec<String> = Vec::new();
    if settings.mode == Mode::WorkspaceWrite {
        writes.extend(
            ctx.policy
                .write_bases()
                .iter()
                .map(|p| p.display().to_string()),
        );
    }
    writes.push("/tmp".into());
    writes.extend(settings.writable.iter().map(|p| p.display().to_string()));
    let mut keys = vec!["exec.writable"];
    if !settings.network {
        keys.push("exec.network");
    }
    keys.push("exec.sandbox");
    let mut names = ctx.policy.protected_names();
    if names.len() > 3 {
        names.truncate(3);
        names.push("...".into());
    }
    format!(
        "Note: ran in the {} sandbox (writes: {}; network {}); protected names ({}) are \
         read-only even there and deny_read paths look empty or missing; a \"Permission \
         denied\", \"Operation not permitted\" or \"Read-only file system\" may be the \
         sandbox: {} (git commits need exec.writable = [\".git\"])",
        settings.mode.name(),
        writes.join(", "),
        if settings.network { "on" } else { "off" },
        names.join(", "),
        keys.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_rank() {
        assert_eq!(Mode::parse("read-only"), Ok(Mode::ReadOnly));
        assert_eq!(Mode::parse("off"), Ok(Mode::Off));
        let err = Mode::parse("bogus").unwrap_err();
        assert!(
            err.contains("\"bogus\"") && err.contains("workspace-write"),
            "{err}"
        );
        assert!(Mode::Off.strength() < Mode::WorkspaceWrite.strength());
        assert!(Mode::WorkspaceWrite.strength() < Mode::ReadOnly.strength());
    }

    #[test]
    fn a_plan_round_trips_as_json() {
        let plan = Plan {
            mode: Mode::ReadOnly,
            network: false,
            write_roots: vec!["/w".into()],
            read_roots: vec![],
            writable: vec!["/w/out".into()],
            tmpdir: Some("/tmp/x".into()),
            home: None,
            deny_read: vec![".env".into()],
            protected: vec![".git".into()],
            hidden: vec![],
            scan_budget: 10,
        };
        let json = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<Plan>(&json).unwrap(), plan);
    }
}
