//! `list-dir`: a folder's entries as an indented tree (spec 02, "list-dir").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{ToolError, ToolResult};
use crate::fileio::beneath::Kind;
use crate::fileio::fs::refusal;
use crate::search::listing::{DEFAULT_DEPTH, DEFAULT_LIMIT, listing};
use crate::search::walk::WalkRules;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Arguments of list-dir.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ListDirArgs {
    /// The folder to list (default ".").
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: Option<String>,
    /// First entry to show, 1-based, in tree order (default 1).
    #[arg(long)]
    #[schemars(range(min = 1))]
    pub offset: Option<u64>,
    /// Most entries to show (default 25).
    #[arg(long)]
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
    /// How many levels deep to list (default 2).
    #[arg(long)]
    #[schemars(range(min = 1))]
    pub depth: Option<u64>,
    /// Include hidden entries (default true).
    #[arg(long)]
    pub hidden: Option<bool>,
    /// Include entries matched by .gitignore/.ignore rules (default false).
    #[arg(long)]
    pub ignored: Option<bool>,
}

/// The list-dir tool.
pub struct ListDir;

impl Tool for ListDir {
    type Args = ListDirArgs;
    const NAME: &'static str = "list_dir";
    const META: ToolMeta = ToolMeta {
        description: "List a folder as an indented tree: `name/` folders, `name@` symlinks (never \
followed), `name?` other special files. Entries are sorted by name, children right under their \
folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the \
last line says how to continue. Bytes of a name that are not UTF-8 show as `\\xHH`; every path \
argument takes that spelling back.",
        examples: "  agtool list-dir\n  agtool list-dir src --depth 3\n  agtool list-dir . --offset 26 --limit 25",
        group: Group::Files,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(30_000),
        body: None,
        tags: &["read", "files"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            reads: vec![args.path.clone().unwrap_or_else(|| ".".into())],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: ListDirArgs) -> ToolResult {
        let spelled = args.path.as_deref().unwrap_or(".");
        let checked = ctx.check_path(spelled, Access::Read)?;
        match ctx.fs.stat(&checked) {
            Ok(st) if st.kind == Kind::Dir => {}
            Ok(_) => {
                return Err(ToolError::refused(format!(
                    "{spelled} is not a folder; use read_file to read a file"
                )));
            }
            Err(e) => return Err(refusal("list", spelled, &e)),
        }
        listing(
            ctx,
            &checked,
            args.offset.unwrap_or(1),
            args.limit.unwrap_or(DEFAULT_LIMIT),
            args.depth.unwrap_or(DEFAULT_DEPTH),
            WalkRules {
                hidden: args.hidden.unwrap_or(true),
                ignored: args.ignored.unwrap_or(false),
                tool: "list_dir",
            },
        )
    }
}
