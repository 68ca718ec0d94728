//! Diagnostics from language servers (spec 09, "Diagnostics after every edit"): what an edit
//! broke, and nothing else.
//!
//! Two halves. In the tools' process, this module decides which server a file goes to
//! (`[lsp.<language>] command`, else with `lsp.auto` the first known server found on `PATH`),
//! and talks to the per-workspace session server ([`crate::exec::session`]), which holds the
//! warm servers in its [`manager::Manager`]: [`after_read`] syncs what a read showed,
//! [`after_write`] returns the lines an edit result ends with, [`current`] serves the
//! `diagnostics` tool, [`status`] and [`stop`] serve `agtool lsp`.
//!
//! The LSP client itself: [`framing`] (Content-Length JSON-RPC), [`conn`] (one server process:
//! handshake, answers to server requests, published diagnostics by version), [`delta`] (new
//! and fixed problems), [`wire`] (the requests to the manager).

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::exec::session::{Client, SessionError};
use crate::fileio::txn::{Change, WriteOptions};
use crate::text::plural::count;
use crate::workspace::config::Config;
use crate::workspace::context::Ctx;
use crate::workspace::policy::CheckedPath;

pub mod conn;
pub mod delta;
pub mod framing;
pub mod manager;
mod rustup;
pub mod wire;

use wire::{
    EditFile, FileResult, LspRequest, LspResponse, Outcome, ServerSandbox, ServerSpec, SyncFile,
};

/// Default `lsp.wait_ms`: how long an edit waits for fresh diagnostics (spec 09).
pub const DEFAULT_WAIT_MS: u64 = 3000;
/// Most new problems listed per file (spec 09); the rest are counted.
pub const MAX_LISTED: usize = 20;
/// Files larger than this many bytes are not sent to a language server.
pub const MAX_SYNC_BYTES: usize = 4 << 20;

/// Known servers per language, in the order `lsp.auto` tries them on `PATH` (spec 09).
pub const KNOWN_SERVERS: &[(&str, &[&str])] = &[
    ("python", &["pyright-langserver", "--stdio"]),
    ("python", &["pylsp"]),
    ("typescript", &["typescript-language-server", "--stdio"]),
    ("javascript", &["typescript-language-server", "--stdio"]),
    ("go", &["gopls"]),
    ("rust", &["rust-analyzer"]),
    ("c", &["clangd"]),
    ("cpp", &["clangd"]),
];

/// The `lsp.*` settings (spec 09).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Use known servers found on `PATH` (default true).
    pub auto: bool,
    /// How long an edit waits for fresh diagnostics, in ms (default 3000).
    pub wait_ms: u64,
    /// Configured commands per language (`lsp.<language>.command`).
    pub commands: BTreeMap<String, Vec<String>>,
    /// `trusted_workspaces` of the merged configuration: a known server found inside a
    /// trusted workspace may run (see [`choose`]).
    pub trusted_workspaces: Vec<PathBuf>,
}

impl Settings {
    /// The settings of a merged configuration.
    pub fn from_config(config: &Config) -> Settings {
        let lsp = config.lsp.as_ref();
        Settings {
            auto: lsp.and_then(|l| l.auto).unwrap_or(true),
            wait_ms: lsp.and_then(|l| l.wait_ms).unwrap_or(DEFAULT_WAIT_MS),
            commands: lsp
                .map(|l| {
                    l.servers
                        .iter()
                        .filter_map(|(lang, s)| Some((lang.clone(), s.command.clone()?)))
                        .collect()
                })
                .unwrap_or_default(),
            trusted_workspaces: config.trusted_workspaces.clone().unwrap_or_default(),
        }
    }
}

/// The configuration language of a file (`python`, `typescript`, `javascript`, `go`, `rust`,
/// `c`, `cpp`) and its LSP language id; None for a file no language server is known for.
pub fn language_of(path: &Path) -> Option<(&'static str, &'static str)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyi" | "pyw" => ("python", "python"),
        "ts" | "mts" | "cts" => ("typescript", "typescript"),
        "tsx" => ("typescript", "typescriptreact"),
        "js" | "mjs" | "cjs" => ("javascript", "javascript"),
        "jsx" => ("javascript", "javascriptreact"),
        "go" => ("go", "go"),
        "rs" => ("rust", "rust"),
        "c" | "h" => ("c", "c"),
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => ("cpp", "cpp"),
        _ => return None,
    })
}

/// What serves a language.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// This server.
    Server(ServerSpec),
    /// `lsp.auto` is on and none of the known servers is on `PATH`; the path is a rustup
    /// proxy found there whose component is not installed, if one was.
    NoneFound(Option<PathBuf>),
    /// Not configured and `lsp.auto` is off: nothing is said.
    Off,
}

/// The display name of a command: its program's file name without `-langserver`.
fn display_name(argv: &[String]) -> String {
    let program = argv.first().map(String::as_str).unwrap_or("server");
    let base = program.rsplit('/').next().unwrap_or(program);
    base.strip_suffix("-langserver").unwrap_or(base).to_owned()
}

/// `program` found on `PATH` (or as given when it has a slash and exists).
///
/// Only absolute `PATH` entries count (an empty or relative entry names the current folder,
/// the workspace: a planted program must not run). `inside` is the workspace root when it is
/// not trusted: a hit that resolves inside it is skipped too (`PATH=$PWD/bin:...`).
fn find_program(
    program: &str,
    path_var: Option<&std::ffi::OsStr>,
    inside: Option<&Path>,
) -> Option<PathBuf> {
    let runnable = crate::exec::spawn::is_executable_file;
    let in_workspace = |p: &Path| {
        inside.is_some_and(|root| {
            let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
            real.starts_with(&real_root) || p.starts_with(root)
        })
    };
    if program.contains('/') {
        let p = Path::new(program);
        return (p.is_absolute() && runnable(p) && !in_workspace(p)).then(|| p.to_path_buf());
    }
    std::env::split_paths(path_var?)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(program))
        .find(|p| runnable(p) && !in_workspace(p))
}

/// Why no server takes `language`, and what to do: install one, or, when what is on `PATH`
/// is a rustup proxy without its component, add the component.
fn none_found_message(language: &str, proxy: Option<&Path>) -> String {
    match proxy {
        Some(p) => format!(
            "no language server found for {language} ({} is rustup's proxy, and the active \
             toolchain has no such component: run `rustup component add {}`, or set \
             lsp.{language}.command)",
            p.display(),
            p.file_name()
                .map_or("rust-analyzer".into(), |n| n.to_string_lossy())
        ),
        None => format!(
            "no language server found for {language} (install {}, or set \
             lsp.{language}.command)",
            known_for(language)
        ),
    }
}

/// Which server `language` goes to, for `ctx`'s workspace root, with the caller's
/// environment and the sandbox `ctx`'s configuration puts it in ([`server_sandbox`]).
pub fn choose(ctx: &Ctx, settings: &Settings, language: &str) -> Choice {
    let root = ctx.root.as_path();
    let env: Vec<(Vec<u8>, Vec<u8>)> = std::env::vars_os()
        .map(|(k, v)| (k.into_vec(), v.into_vec()))
        .collect();
    let spec = |argv: Vec<String>| ServerSpec {
        language: language.to_owned(),
        name: display_name(&argv),
        argv,
        env: env.clone(),
        root: root.to_path_buf(),
        sandbox: server_sandbox(ctx, language),
    };
    if let Some(argv) = settings.commands.get(language) {
        // Configured: used as given (a missing program is reported when it is started).
        return Choice::Server(spec(argv.clone()));
    }
    if !settings.auto {
        return Choice::Off;
    }
    let path_var = std::env::var_os("PATH");
    let trusted = crate::workspace::trust::is_trusted(&settings.trusted_workspaces, root);
    let inside = (!trusted).then_some(root);
    let mut proxy = None;
    for (lang, argv) in KNOWN_SERVERS {
        if *lang != language {
            continue;
        }
        if let Some(found) = find_program(argv[0], path_var.as_deref(), inside) {
            if rustup::is_broken_proxy(&found) {
                proxy = Some(found);
                continue;
            }
            let mut argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
            argv[0] = found.to_string_lossy().into_owned();
            return Choice::Server(spec(argv));
        }
    }
    Choice::NoneFound(proxy)
}

/// The sandbox a language server for `language` runs in (spec 08, issue 19 item 5): none when
/// `exec.sandbox = "off"`; otherwise the `read-only` mode with the network off, whatever
/// `exec.network` and `exec.writable` say (a server needs neither), writable only in its own
/// cache folder ([`server_cache_dir`]) and `/tmp`. A machine that cannot build the sandbox, or
/// a bad `exec.*` value, gives [`ServerSandbox::Refused`]: the server is never started
/// unconfined when the configuration asks for the sandbox.
pub fn server_sandbox(ctx: &Ctx, language: &str) -> ServerSandbox {
    use crate::sandbox::{self, Mode};
    let settings = match sandbox::Settings::from_ctx(ctx) {
        Ok(s) => s,
        Err(why) => return ServerSandbox::Refused { why },
    };
    if settings.mode == Mode::Off {
        return ServerSandbox::Off;
    }
    if let Err(e) = sandbox::probe::require() {
        return ServerSandbox::Refused { why: e.to_string() };
    }
    // The session server's folders exist before the plan lists what to hide: the server
    // this is for is started by it, and must not reach its socket.
    crate::exec::session::prepare_server_folders(&ctx.state_dir());
    let confined = sandbox::Settings {
        mode: Mode::ReadOnly,
        network: false,
        writable: Vec::new(),
    };
    // No private TMPDIR in the plan: Landlock would grant whatever that path leads to when
    // the server starts. Its temp folder is inside the cache folder instead.
    let mut plan = sandbox::plan_for(ctx, &confined, None);
    // No folder of its own that sandboxed commands cannot replace: the server still runs,
    // with its caches in a fresh folder under /tmp (writable to it as /tmp is).
    let cache = server_cache_dir(language, &plan).ok();
    plan.writable.extend(cache.clone());
    ServerSandbox::Plan {
        plan: Box::new(plan),
        cache,
    }
}

/// A language server's own cache folder, made when missing: `$XDG_CACHE_HOME/agtool/lsp/
/// <language>` (or `~/.cache/...`), mode 0700, with a `tmp` folder inside. The language name
/// is reduced to `[A-Za-z0-9_-]`.
///
/// It is granted to the server's sandbox by path, so nothing a sandboxed program can write may
/// decide where it leads. Errors (a sentence): no cache base; the base is under `/tmp` or
/// `/dev/shm`, or inside a root or writable folder of `plan` (where sandboxed commands could
/// swap a component for a symlink to `.git`); a component of `agtool/lsp/<language>` that is
/// a symlink, not a folder, or not ours.
pub fn server_cache_dir(language: &str, plan: &crate::sandbox::Plan) -> Result<PathBuf, String> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let absolute = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute(std::env::var_os("XDG_CACHE_HOME"))
        .or_else(|| absolute(std::env::var_os("HOME")).map(|h| h.join(".cache")))
        .ok_or("neither XDG_CACHE_HOME nor HOME names a folder")?;
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&base);
    let base = std::fs::canonicalize(&base)
        .map_err(|e| format!("the cache base {} cannot be used: {e}", base.display()))?;
    let exposed = ["/tmp", "/dev/shm"]
        .iter()
        .map(PathBuf::from)
        .chain(plan.write_roots.iter().cloned())
        .chain(plan.read_roots.iter().cloned())
        .chain(plan.writable.iter().cloned())
        .find(|p| base.starts_with(p));
    if let Some(p) = exposed {
        return Err(format!(
            "the cache base {} is inside {}, where sandboxed commands can write or the \
             workspace lies",
            base.display(),
            p.display()
        ));
    }
    let name: String = language
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.is_empty() {
        "_".to_owned()
    } else {
        name
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    let mut dir = base;
    for part in ["agtool", "lsp", name.as_str()] {
        dir.push(part);
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        let meta = std::fs::symlink_metadata(&dir)
            .map_err(|e| format!("cannot make the cache folder {}: {e}", dir.display()))?;
        if meta.file_type().is_symlink() || !meta.is_dir() || meta.uid() != uid {
            return Err(format!(
                "{} is a symlink, not a folder, or not ours; it is not used as a cache folder",
                dir.display()
            ));
        }
    }
    let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    // The server may have replaced its own `tmp` (it can write there): only a real folder
    // is kept. The `tmp` path is never granted by itself, so a swap cannot widen anything.
    let tmp = dir.join("tmp");
    match std::fs::symlink_metadata(&tmp) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            let _ = std::fs::remove_file(&tmp);
        }
        Err(_) => {}
    }
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&tmp);
    Ok(dir)
}

/// The known servers for `language`, for the "none found" line.
fn known_for(language: &str) -> String {
    let names: Vec<&str> = KNOWN_SERVERS
        .iter()
        .filter(|(l, _)| *l == language)
        .map(|(_, argv)| argv[0])
        .collect();
    names.join(" or ")
}

fn client(ctx: &Ctx) -> Client {
    Client::new(ctx.state_dir())
}

/// Sends `req` to the manager. `autostart`: start the session server when none runs.
fn ask(
    ctx: &Ctx,
    req: &LspRequest,
    autostart: bool,
    wait: Duration,
) -> Result<Option<LspResponse>, String> {
    let body = serde_json::to_value(req).map_err(|e| e.to_string())?;
    match client(ctx).extension(body, autostart, wait) {
        Ok(None) => Ok(None),
        Ok(Some(v)) => match serde_json::from_value::<LspResponse>(v) {
            Ok(LspResponse::Failed { error }) => Err(error),
            Ok(r) => Ok(Some(r)),
            Err(e) => Err(format!("bad answer from the session server: {e}")),
        },
        Err(SessionError::Server(e)) => Err(e),
        Err(e) => Err(e.to_string()),
    }
}

/// After a read: opens or updates the file in its language server, without waiting, so the
/// problems before the next edit are known (spec 09). Does nothing for a file no server
/// serves, and never fails the read.
pub fn after_read(ctx: &Ctx, real: &Path, text: &str) {
    if text.len() > MAX_SYNC_BYTES {
        return;
    }
    let Some((language, language_id)) = language_of(real) else {
        return;
    };
    let settings = Settings::from_config(&ctx.config);
    let Choice::Server(server) = choose(ctx, &settings, language) else {
        return;
    };
    sync_read(ctx, server, real, language_id, text);
}

/// Sends one read file's text to `server`'s manager without waiting for its diagnostics.
fn sync_read(ctx: &Ctx, server: ServerSpec, real: &Path, language_id: &str, text: &str) {
    let req = LspRequest::Sync {
        files: vec![SyncFile {
            server,
            path: real.to_path_buf(),
            language_id: language_id.to_owned(),
            text: text.to_owned(),
        }],
    };
    let _ = ask(ctx, &req, true, Duration::from_secs(5));
}

/// One file a write tool wrote, for [`after_write`].
#[derive(Debug, Clone)]
pub struct Written {
    /// The path as the caller spelled it (shown in the lines).
    pub spelled: String,
    /// The policy's resolved path.
    pub real: PathBuf,
    /// The text before (None: a new file).
    pub old_text: Option<String>,
    /// The text after (None: deleted).
    pub new_text: Option<String>,
    /// The new content tag.
    pub tag: Option<String>,
}

impl Written {
    /// Whether [`after_write`] would look at a file of this path and size: keep its texts.
    pub fn wanted(path: &Path, len: usize) -> bool {
        language_of(path).is_some() && len <= MAX_SYNC_BYTES
    }
}

/// The lines an edit result ends with (spec 09), each ending in a newline; empty when nothing
/// changed. For each changed file with a language server: `New problems (<server>):`, then up
/// to [`MAX_LISTED`] `path:line:col: severity: message (code)` lines (errors first), then
/// `(<n> more: agtool diagnostics <path>)`, then `Fixed: n problems`; `Diagnostics: not ready
/// after N ms` when the wait ran out; the reason when the server could not run; one line when
/// no server was found for the language. With several files, the lines that do not name a
/// path end with ` (<path>)`.
pub fn after_write(ctx: &Ctx, files: Vec<Written>) -> String {
    let settings = Settings::from_config(&ctx.config);
    let mut out = String::new();
    let mut edits = Vec::new();
    let mut spelled = Vec::new();
    let mut none_found: Vec<(&'static str, Option<PathBuf>)> = Vec::new();
    let several = files.len() > 1;
    for f in files {
        let Some((language, language_id)) = language_of(&f.real) else {
            continue;
        };
        if f.old_text == f.new_text {
            continue;
        }
        let too_big = |t: &Option<String>| t.as_ref().is_some_and(|t| t.len() > MAX_SYNC_BYTES);
        if too_big(&f.old_text) || too_big(&f.new_text) {
            continue;
        }
        match choose(ctx, &settings, language) {
            Choice::Server(server) => {
                spelled.push(f.spelled.trim_start_matches("./").to_owned());
                edits.push(EditFile {
                    server,
                    path: f.real,
                    language_id: language_id.to_owned(),
                    old_text: f.old_text,
                    new_text: f.new_text,
                    tag: f.tag,
                });
            }
            Choice::NoneFound(proxy)
                if f.new_text.is_some() && !none_found.iter().any(|(l, _)| *l == language) =>
            {
                none_found.push((language, proxy));
            }
            _ => {}
        }
    }
    for (language, proxy) in none_found {
        out.push_str(&format!(
            "Diagnostics: {}\n",
            none_found_message(language, proxy.as_deref())
        ));
    }
    if edits.is_empty() {
        return out;
    }
    let wait = settings.wait_ms;
    let req = LspRequest::Edit {
        files: edits,
        wait_ms: wait,
    };
    match ask(ctx, &req, true, Duration::from_millis(wait)) {
        Ok(Some(LspResponse::Files { files })) => {
            for (r, shown) in files.iter().zip(&spelled) {
                out.push_str(&render_delta(r, shown, several));
            }
        }
        Ok(_) => out.push_str("Diagnostics: the session server gave no answer\n"),
        Err(e) => out.push_str(&format!("Diagnostics: {e}\n")),
    }
    out
}

/// Before a write transaction commits: the texts [`after_write`] needs of the `changes` a
/// language server may serve (taken from the change, or decoded from its bytes). Empty for a
/// dry run.
pub fn prepare(changes: &[Change], opts: WriteOptions) -> Vec<Written> {
    if opts.dry_run {
        return Vec::new();
    }
    let decode = |bytes: &[u8]| {
        crate::text::editable::EditableText::decode(bytes)
            .ok()
            .map(|t| t.text().to_owned())
    };
    changes
        .iter()
        .filter(|c| language_of(&c.path.real).is_some())
        .filter_map(|c| {
            let before_len = c.before.as_ref().map_or(0, Vec::len);
            let after_bytes: Option<Vec<u8>> = c
                .after
                .as_ref()
                .map(|a| a.parts(c.before.as_deref()).concat());
            let after_len = after_bytes.as_ref().map_or(0, Vec::len);
            if before_len > MAX_SYNC_BYTES || after_len > MAX_SYNC_BYTES {
                return None;
            }
            let old_text = match (&c.old_text, &c.before) {
                (Some(t), _) => Some(t.clone()),
                (None, Some(b)) => Some(decode(b)?),
                (None, None) => None,
            };
            let new_text = match (&c.new_text, &after_bytes) {
                (Some(t), _) => Some(t.clone()),
                (None, Some(b)) => Some(decode(b)?),
                (None, None) => None,
            };
            Some(Written {
                spelled: c.path.spelled.clone(),
                real: c.path.real.clone(),
                old_text,
                new_text,
                tag: None,
            })
        })
        .collect()
}

/// After the commit: [`after_write`] on what [`prepare`] kept, with the new tags of
/// `written` (the transaction's result, in the order of its changes).
pub fn report(
    ctx: &Ctx,
    mut prepared: Vec<Written>,
    written: &[crate::fileio::txn::Written],
) -> String {
    if prepared.is_empty() {
        return String::new();
    }
    for p in &mut prepared {
        if let Some(w) = written.iter().find(|w| w.spelled == p.spelled) {
            p.tag = w.tag.clone();
        }
    }
    after_write(ctx, prepared)
}

/// After a read of `path`: [`after_read`] with its whole text, read again through the file
/// layer (a read shows only part of a file). Does nothing for a file no server serves.
pub fn after_read_path(ctx: &Ctx, path: &CheckedPath) {
    let Some((language, language_id)) = language_of(&path.real) else {
        return;
    };
    let settings = Settings::from_config(&ctx.config);
    let Choice::Server(server) = choose(ctx, &settings, language) else {
        return;
    };
    let Ok(file) = ctx.fs.open_read(path) else {
        return;
    };
    let mut bytes = Vec::new();
    use std::io::Read;
    if file
        .take(MAX_SYNC_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .is_err()
        || bytes.len() > MAX_SYNC_BYTES
    {
        return;
    }
    if let Ok(text) = crate::text::editable::EditableText::decode(&bytes) {
        sync_read(ctx, server, &path.real, language_id, text.text());
    }
}

/// The lines for one file's result after an edit.
pub fn render_delta(r: &FileResult, shown: &str, several: bool) -> String {
    let whose = if several {
        format!(" ({shown})")
    } else {
        String::new()
    };
    let mut out = String::new();
    match &r.outcome {
        Outcome::Delta { new, fixed } => {
            if !new.is_empty() {
                out.push_str(&format!("New problems ({}):\n", r.server));
                for d in new.iter().take(MAX_LISTED) {
                    out.push_str(&d.line_for(shown));
                    out.push('\n');
                }
                if new.len() > MAX_LISTED {
                    out.push_str(&format!(
                        "({} more: agtool diagnostics {shown})\n",
                        new.len() - MAX_LISTED
                    ));
                }
            }
            if *fixed > 0 {
                out.push_str(&format!("Fixed: {}{whose}\n", count(*fixed, "problem")));
            }
        }
        Outcome::NotReady { waited_ms } => {
            out.push_str(&format!(
                "Diagnostics: not ready after {waited_ms} ms{whose}\n"
            ));
        }
        Outcome::Failed { message } => {
            out.push_str(&format!("Diagnostics{whose}: {message}\n"));
        }
        Outcome::Current { .. } | Outcome::Nothing => {}
    }
    out
}

/// A file for [`current`]: its spelling, resolved path and decoded text.
#[derive(Debug, Clone)]
pub struct Shown {
    /// As the caller spelled it.
    pub spelled: String,
    /// The policy's resolved path.
    pub real: PathBuf,
    /// Its decoded text.
    pub text: String,
}

/// What [`current`] found: the text shown, how many problems it lists, and how many of the
/// files a language server checked (the rest are unchecked: no server, too large, not ready,
/// failed), so that a caller can tell "no problems" from "not checked".
#[derive(Debug)]
pub struct Current {
    /// One line per problem or per file without problems or not checked.
    pub text: String,
    /// Problems listed.
    pub problems: usize,
    /// Files whose current diagnostics a language server gave.
    pub checked: usize,
}

/// The current problems of `files` (or, when empty, of every file open in a server), as
/// lines: `path:line:col: severity: message (code)`, errors first, per file; a file without
/// problems says so, one without a server says that. `Err` when the session server cannot be
/// reached.
pub fn current(ctx: &Ctx, files: Vec<Shown>) -> Result<Current, String> {
    let settings = Settings::from_config(&ctx.config);
    let wait = settings.wait_ms;
    let mut out = String::new();
    let mut problems = 0;
    let mut checked = 0;
    let none_open = || Current {
        text: "No files are open in a language server.\n".to_owned(),
        problems: 0,
        checked: 0,
    };
    if files.is_empty() {
        let req = LspRequest::Diagnostics {
            files: Vec::new(),
            all_open: true,
            wait_ms: wait,
        };
        let Some(LspResponse::Files { files }) =
            ask(ctx, &req, false, Duration::from_millis(wait))?
        else {
            return Ok(none_open());
        };
        if files.is_empty() {
            return Ok(none_open());
        }
        for r in &files {
            let shown = ctx.display(&r.path);
            problems += render_current(&mut out, r, &shown);
            checked += usize::from(matches!(r.outcome, Outcome::Current { .. }));
        }
        return Ok(Current {
            text: out,
            problems,
            checked,
        });
    }
    let mut syncs = Vec::new();
    let mut order: Vec<(String, Option<usize>, Option<String>)> = Vec::new();
    for f in files {
        let shown = f.spelled.trim_start_matches("./").to_owned();
        let Some((language, language_id)) = language_of(&f.real) else {
            order.push((
                shown,
                None,
                Some("no language server for this file type".into()),
            ));
            continue;
        };
        match choose(ctx, &settings, language) {
            Choice::Server(server) if f.text.len() <= MAX_SYNC_BYTES => {
                order.push((shown, Some(syncs.len()), None));
                syncs.push(SyncFile {
                    server,
                    path: f.real,
                    language_id: language_id.to_owned(),
                    text: f.text,
                });
            }
            Choice::Server(_) => order.push((
                shown,
                None,
                Some(format!(
                    "larger than {}, not sent to a language server",
                    count(MAX_SYNC_BYTES, "byte")
                )),
            )),
            Choice::NoneFound(proxy) => order.push((
                shown,
                None,
                Some(none_found_message(language, proxy.as_deref())),
            )),
            Choice::Off => order.push((
                shown,
                None,
                Some(format!(
                    "no language server for {language} (lsp.auto is off; set \
                     lsp.{language}.command)"
                )),
            )),
        }
    }
    let results = if syncs.is_empty() {
        Vec::new()
    } else {
        let req = LspRequest::Diagnostics {
            files: syncs,
            all_open: false,
            wait_ms: wait,
        };
        match ask(ctx, &req, true, Duration::from_millis(wait))? {
            Some(LspResponse::Files { files }) => files,
            _ => return Err("the session server gave no answer".into()),
        }
    };
    for (shown, index, note) in order {
        match (index.and_then(|i| results.get(i)), note) {
            (Some(r), _) => {
                problems += render_current(&mut out, r, &shown);
                checked += usize::from(matches!(r.outcome, Outcome::Current { .. }));
            }
            (None, Some(note)) => out.push_str(&format!("{shown}: {note}\n")),
            (None, None) => {}
        }
    }
    Ok(Current {
        text: out,
        problems,
        checked,
    })
}

fn render_current(out: &mut String, r: &FileResult, shown: &str) -> usize {
    match &r.outcome {
        Outcome::Current { diags } if diags.is_empty() => {
            out.push_str(&format!("{shown}: no problems ({})\n", r.server));
            0
        }
        Outcome::Current { diags } => {
            for d in diags {
                out.push_str(&d.line_for(shown));
                out.push('\n');
            }
            diags.len()
        }
        Outcome::NotReady { waited_ms } => {
            out.push_str(&format!(
                "{shown}: diagnostics not ready after {waited_ms} ms ({})\n",
                r.server
            ));
            0
        }
        Outcome::Failed { message } => {
            out.push_str(&format!("{shown}: {message}\n"));
            0
        }
        Outcome::Delta { .. } | Outcome::Nothing => 0,
    }
}

/// The servers the session server runs (empty when no session server runs).
pub fn status(ctx: &Ctx) -> Result<Vec<wire::ServerStatus>, String> {
    match ask(ctx, &LspRequest::Status, false, Duration::from_secs(5))? {
        None => Ok(Vec::new()),
        Some(LspResponse::Status { servers }) => Ok(servers),
        Some(_) => Err("unexpected answer from the session server".into()),
    }
}

/// Stops every language server of the workspace; returns how many ran.
pub fn stop(ctx: &Ctx) -> Result<usize, String> {
    match ask(ctx, &LspRequest::Stop, false, Duration::from_secs(10))? {
        None => Ok(0),
        Some(LspResponse::Stopped { servers }) => Ok(servers),
        Some(_) => Err("unexpected answer from the session server".into()),
    }
}

/// `Diag`s re-exported for renderers.
pub use wire::Diag as Diagnostic;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::wire::Diag;

    #[test]
    fn names_and_languages() {
        assert_eq!(
            display_name(&["/x/bin/pyright-langserver".into(), "--stdio".into()]),
            "pyright"
        );
        assert_eq!(display_name(&["pylsp".into()]), "pylsp");
        assert_eq!(
            language_of(Path::new("a/b.tsx")),
            Some(("typescript", "typescriptreact"))
        );
        assert_eq!(language_of(Path::new("README.md")), None);
        // Every language a file maps to, and every known server's, can be configured.
        for ext in [
            "py", "ts", "tsx", "js", "jsx", "go", "rs", "c", "cpp", "hpp",
        ] {
            let (language, _) = language_of(Path::new(&format!("a.{ext}"))).unwrap();
            assert!(
                crate::workspace::config::LSP_LANGUAGES.contains(&language),
                "{ext}"
            );
        }
        for (language, _) in KNOWN_SERVERS {
            assert!(crate::workspace::config::LSP_LANGUAGES.contains(language));
        }
    }

    #[test]
    fn a_delta_renders_as_the_spec_shows() {
        let d = Diag {
            line: 3,
            column: 5,
            severity: 1,
            message: "\"foo\" is not defined".into(),
            code: Some("reportUndefinedVariable".into()),
            source: Some("Pyright".into()),
        };
        let r = FileResult {
            path: "/w/src/a.py".into(),
            server: "pyright".into(),
            outcome: Outcome::Delta {
                new: vec![d.clone(); 22],
                fixed: 1,
            },
        };
        let text = render_delta(&r, "src/a.py", false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "New problems (pyright):");
        assert_eq!(
            lines[1],
            "src/a.py:3:5: error: \"foo\" is not defined (reportUndefinedVariable)"
        );
        assert_eq!(lines.len(), 1 + 20 + 2);
        assert_eq!(lines[21], "(2 more: agtool diagnostics src/a.py)");
        assert_eq!(lines[22], "Fixed: 1 problem");
        let quiet = FileResult {
            outcome: Outcome::Delta {
                new: vec![],
                fixed: 0,
            },
            ..r
        };
        assert_eq!(render_delta(&quiet, "src/a.py", false), "");
    }
}
