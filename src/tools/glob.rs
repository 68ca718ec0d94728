//! `glob`: find files by name pattern, newest first (spec 02, "glob").

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::beneath::Kind;
use crate::fileio::fs::refusal;
use crate::search::handle_walk::{self, Found};
use crate::search::walk::{self, Base, Problems, WalkRules};
use crate::text::path_escape::encode_path;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Default number of paths shown.
pub const DEFAULT_LIMIT: u64 = 100;
/// Largest `limit` accepted.
pub const MAX_LIMIT: u64 = 2000;

/// Arguments of glob.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GlobArgs {
    /// Glob pattern, e.g. "**/*.rs" or "src/*.{ts,tsx}". `*` and `?` stay within one folder,
    /// `**` crosses folders; a pattern without "/" matches at any depth.
    #[schemars(length(min = 1, max = crate::args::MAX_PATTERN_CHARS))]
    pub pattern: String,
    /// The folder to search under (default ".").
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: Option<String>,
    /// Most paths to show (default 100, at most 2000).
    #[arg(long)]
    #[schemars(range(min = 1, max = 2000))]
    pub limit: Option<u64>,
    /// Include hidden files and folders (default false).
    #[arg(long)]
    pub hidden: Option<bool>,
    /// Include files matched by .gitignore/.ignore rules (default false).
    #[arg(long)]
    pub ignored: Option<bool>,
}

/// The glob tool.
pub struct Glob;

impl Tool for Glob {
    type Args = GlobArgs;
    const NAME: &'static str = "glob";
    const META: ToolMeta = ToolMeta {
        description: "Find files whose path matches a glob pattern, newest first.\n\
`*` and `?` match within one folder, `**` across folders, `{a,b}` alternatives, `[...]` classes; a \
pattern without `/` matches at any depth (`*.rs` = `**/*.rs`). Paths are relative to the current \
folder, one a line, most recently modified first. Hidden files and files ignored by \
.gitignore/.ignore are left out unless hidden/ignored is true; symlinks are listed, never followed.",
        examples: "  agtool glob '**/*.rs'\n  agtool glob '*.{ts,tsx}' web --limit 500\n  agtool glob '.github/**/*.yml' --hidden true",
        group: Group::Files,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["search", "files"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            reads: vec![args.path.clone().unwrap_or_else(|| ".".into())],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: GlobArgs) -> ToolResult {
        let normalized = walk::normalize_glob(&args.pattern, "pattern")?;
        let matcher = walk::compile_glob(&normalized, "pattern")?;
        let spelled = args.path.as_deref().unwrap_or(".");
        let checked = ctx.check_path(spelled, Access::Read)?;
        // The base folder as a handle: the walk starts from it and reaches every folder and
        // match from it, never following a symlink (one swapped in after the check too).
        let dir = match ctx.fs.open_dir(&checked) {
            Ok(d) => d,
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
                return Err(ToolError::refused(format!(
                    "{spelled} is not a folder; give the folder to search under as path"
                )));
            }
            Err(e) => return Err(refusal("search", spelled, &e)),
        };
        let base = Base::new(&checked, Some(dir));
        let rules = WalkRules {
            hidden: args.hidden.unwrap_or(false),
            ignored: args.ignored.unwrap_or(false),
            tool: "glob",
        };
        // Only matching files are stat'ed (the sort needs their times), by name through the
        // handle of the folder that listed them.
        let visit = |found: &mut Vec<(SystemTime, PathBuf)>, entry: &Found<'_>| {
            if matcher.is_match(entry.rel)
                && let Ok(st) = entry.dir.stat_at(entry.name)
                && st.kind != Kind::Dir
            {
                found.push((st.mtime, entry.path.to_path_buf()));
            }
        };
        let (states, problems) = handle_walk::walk(ctx, &base, rules, Vec::new, visit)?;
        let mut files = states.concat();
        if walk::is_literal_glob(&args.pattern)
            && let Some(named) = named_exactly(ctx, &base, &normalized)
        {
            files.push(named);
        }
        // Newest first, ties by path (byte order: cheaper than comparing components, and
        // extracted trees have many equal times); the named path may also have been walked.
        files.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.as_os_str().as_bytes().cmp(b.1.as_os_str().as_bytes()))
        });
        files.dedup_by(|a, b| a.1 == b.1);
        Ok(render(ctx, &base, &args, files, problems))
    }
}

/// The file a wildcard-free pattern names under the base, if it exists, is not a folder and
/// passes the path policy: returned even when hidden or ignored (spec 02).
fn named_exactly(ctx: &Ctx, base: &Base, normalized: &str) -> Option<(SystemTime, PathBuf)> {
    let rel = normalized.strip_prefix("**/").unwrap_or(normalized);
    let path = base.real.join(rel);
    ctx.check_path(&encode_path(&path), Access::Read).ok()?;
    let st = base.dir.as_ref()?.stat(Path::new(rel)).ok()?;
    if st.kind == Kind::Dir {
        return None;
    }
    Some((st.mtime, path))
}

fn render(
    ctx: &Ctx,
    base: &Base,
    args: &GlobArgs,
    files: Vec<(SystemTime, PathBuf)>,
    problems: Problems,
) -> Output {
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT) as usize;
    let total = files.len();
    let mut text = String::new();
    if total == 0 {
        text.push_str(&format!("No files matched {}\n", args.pattern));
    }
    for (_, path) in files.iter().take(limit) {
        base.push_display(ctx, path, &mut text);
        text.push('\n');
    }
    if total > limit {
        text.push_str(&format!(
            "({} more not shown; narrow the pattern or raise limit)\n",
            total - limit
        ));
    }
    let skipped = problems.len();
    problems.render(&mut text);
    Output::text(text)
        .with("matches", total)
        .with("shown", total.min(limit))
        .with("skipped", skipped)
}
