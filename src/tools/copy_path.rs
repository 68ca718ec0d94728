//! `copy-path`: copy a file, a symlink or a folder (spec 03, "move-path, copy-path,
//! make-dir"). The work is done by [`crate::fileio::transfer`]: the copy is built under a
//! temp name beside its destination and appears in one rename, all or nothing.

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ToolResult;
use crate::fileio::transfer::{self, Op, Request};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of copy-path.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct CopyPathArgs {
    /// The file, symlink or folder to copy (a symlink is copied as a link, never followed).
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub source: String,
    /// The new path. Ending in / (`dir/`) puts the copy inside that existing folder under the
    /// source's name; otherwise it is the copy's name, and missing folders above it are made.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub destination: String,
    /// Replace an existing file or symlink at the destination (default false). A replaced
    /// file needs a current read_file of it; a folder is never replaced.
    #[arg(long)]
    pub overwrite: Option<bool>,
    /// Copy a folder and everything in it (default false; needed for any folder).
    #[arg(long)]
    pub recursive: Option<bool>,
    /// Say what would be copied, copy nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// The copy-path tool.
pub struct CopyPath;

impl Tool for CopyPath {
    type Args = CopyPathArgs;
    const NAME: &'static str = "copy_path";
    const META: ToolMeta = ToolMeta {
        description: "Copy a file, a symlink or a folder (recursive: true) inside the workspace.\n\
The copy appears whole or not at all. An existing destination is refused unless overwrite: \
true (a replaced file needs a current read_file of it; a folder is never replaced or merged \
into). A destination ending in / means 'into this existing folder'. Symlinks are copied as \
links; permission bits are kept, times are new. Names such as .git inside a copied folder \
are left out (the answer lists them), and so are FIFOs, sockets and devices; a source that \
is one, or lies under a protected name, is refused. The copy is a \
new file: read_file it before editing it. Use dry_run: true to see what would happen.",
        examples: "  agtool copy-path src/a.rs src/b.rs\n  agtool copy-path templates/base out/site --recursive\n  agtool copy-path config.toml backup/ --dry-run",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files", "copy"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            reads: vec![args.source.clone()],
            writes: vec![args.destination.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: CopyPathArgs) -> ToolResult {
        let started = std::time::Instant::now();
        transfer::run(
            ctx,
            &Request {
                op: Op::Copy {
                    recursive: args.recursive.unwrap_or(false),
                },
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
