//! `diagnostics`: the current problems a language server reports for files (spec 09,
//! "Diagnostics after every edit").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::fs::refusal;
use crate::text::editable::EditableText;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Most files one call asks about.
pub const MAX_PATHS: usize = 50;

/// Arguments of diagnostics.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct DiagnosticsArgs {
    /// The files to check (at most 50); none: every file open in a language server.
    #[arg(value_name = "PATH")]
    #[schemars(length(max = 50), inner(length(max = crate::args::MAX_PATH_CHARS)))]
    pub paths: Option<Vec<String>>,
}

/// The diagnostics tool.
pub struct Diagnostics;

impl Tool for Diagnostics {
    type Args = DiagnosticsArgs;
    const NAME: &'static str = "diagnostics";
    const META: ToolMeta = ToolMeta {
        description: "Show the problems a language server (pyright, pylsp, \
typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, \
`path:line:col: severity: message (code)`, errors first. Without paths: every file open in a \
language server. Edit results already list the problems an edit added; use this for the rest.",
        examples: "  agtool diagnostics src/app.py\n  agtool diagnostics src/a.ts src/b.ts\n  agtool diagnostics",
        group: Group::Files,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(30_000),
        body: None,
        tags: &["files", "diagnostics", "lsp"],
    };

    fn run(ctx: &Ctx, args: DiagnosticsArgs) -> ToolResult {
        let paths = args.paths.unwrap_or_default();
        if paths.len() > MAX_PATHS {
            return Err(ToolError::usage(format!(
                "at most {MAX_PATHS} paths at once ({} given)",
                paths.len()
            )));
        }
        let mut files = Vec::new();
        for spelled in &paths {
            let checked = ctx.check_path(spelled, Access::Read)?;
            let mut file = ctx
                .fs
                .open_read(&checked)
                .map_err(|e| refusal("read", spelled, &e))?;
            let meta = file.metadata().map_err(|e| refusal("read", spelled, &e))?;
            if meta.is_dir() {
                return Err(ToolError::refused(format!(
                    "{spelled} is a folder; diagnostics takes files (find them with glob)"
                )));
            }
            if !meta.is_file() {
                return Err(ToolError::refused(format!(
                    "{spelled} is not a regular file"
                )));
            }
            if meta.len() > crate::lsp::MAX_SYNC_BYTES as u64 {
                return Err(ToolError::refused(format!(
                    "{spelled} is larger than {} bytes; it is not sent to a language server",
                    crate::lsp::MAX_SYNC_BYTES
                )));
            }
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            // Bounded: a file growing while it is read stops one byte past the limit.
            std::io::Read::read_to_end(
                &mut std::io::Read::take(&mut file, crate::lsp::MAX_SYNC_BYTES as u64 + 1),
                &mut bytes,
            )
            .map_err(|e| refusal("read", spelled, &e))?;
            if bytes.len() > crate::lsp::MAX_SYNC_BYTES {
                return Err(ToolError::refused(format!(
                    "{spelled} is larger than {} bytes; it is not sent to a language server",
                    crate::lsp::MAX_SYNC_BYTES
                )));
            }
            let text =
                EditableText::decode(&bytes).map_err(|e| ToolError::refused(e.message(spelled)))?;
            files.push(crate::lsp::Shown {
                spelled: spelled.clone(),
                real: checked.real.clone(),
                text: text.text().to_owned(),
            });
        }
        let found = crate::lsp::current(ctx, files).map_err(ToolError::refused)?;
        Ok(Output::text(found.text)
            .with("problems", found.problems)
            .with("checked", found.checked))
    }
}
