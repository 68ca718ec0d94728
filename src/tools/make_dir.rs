//! `make-dir`: make a folder and its missing parents (spec 03, "move-path, copy-path,
//! make-dir"), through the file layer's handles ([`crate::fileio::mkdir::make_dir`]).

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ToolResult;
use crate::fileio::mkdir;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of make-dir.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct MakeDirArgs {
    /// The folder to make; missing folders above it are made too.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Say what would be made, make nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The make-dir tool.
pub struct MakeDir;

impl Tool for MakeDir {
    type Args = MakeDirArgs;
    const NAME: &'static str = "make_dir";
    const META: ToolMeta = ToolMeta {
        description: "Make a folder, and any missing folders above it, inside the workspace.\n\
A folder that already exists is fine (the answer says so); a file in the way is refused. \
Folders under protected names such as .git are never made.",
        examples: "  agtool make-dir src/new/module\n  agtool make-dir out --dry-run",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files", "folder"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: vec![args.path.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: MakeDirArgs) -> ToolResult {
        mkdir::make_dir(ctx, &args.path, args.dry_run.unwrap_or(false))
    }
}
