//! `move-path`: move or rename a file, a symlink or a folder (spec 03, "move-path, copy-path,
//! make-dir"). The work is done by [`crate::fileio::transfer`]: one rename on one
//! filesystem, a journaled copy and removal across filesystems; freshness records follow.

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ToolResult;
use crate::fileio::transfer::{self, Op, Request};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of move-path.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct MovePathArgs {
    /// The file, symlink or folder to move (a symlink is moved itself, never followed).
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub source: String,
    /// The new path. Ending in / (`dir/`) puts the source inside that existing folder under
    /// its own name; otherwise it is the new name, and missing folders above it are made.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub destination: String,
    /// Replace an existing file or symlink at the destination (default false). A replaced
    /// file needs a current read_file of it; a folder is never replaced.
    #[arg(long)]
    pub overwrite: Option<bool>,
    /// Say what would be moved, move nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The move-path tool.
pub struct MovePath;

impl Tool for MovePath {
    type Args = MovePathArgs;
    const NAME: &'static str = "move_path";
    const META: ToolMeta = ToolMeta {
        description: "Move or rename a file, a symlink or a folder inside the workspace.\n\
No read is needed (content is not changed); the records of what you read move with the file. \
An existing destination is refused unless overwrite: true (a replaced file needs a current \
read_file of it; a folder is never replaced). A destination ending in / means 'into this \
existing folder'. Symlinks are moved as links; permission bits and times are kept. A folder \
holding a protected name such as .git is not moved. Across filesystems the move is a copy \
and a removal, all or nothing. Use dry_run: true to see what would happen.",
        examples: "  agtool move-path src/old.rs src/new.rs\n  agtool move-path notes.txt docs/\n  agtool move-path build out/build --dry-run",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files", "move"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: vec![args.source.clone(), args.destination.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: MovePathArgs) -> ToolResult {
        let started = std::time::Instant::now();
        transfer::run(
            ctx,
            &Request {
                op: Op::Move,
                source: &args.source,
                destination: &args.destination,
                overwrite: args.overwrite.unwrap_or(false),
                dry_run: args.dry_run.unwrap_or(false),
                timeout_ms: ctx.timeout_ms.or(Self::META.timeout_ms),
                started,
            },
        )
    }
}
