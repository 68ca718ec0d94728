//! `notes delete NAME` (notes_delete): remove one note (spec 06, "notes").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::notes::{self, NoteName, Store, unknown_note};
use crate::tools::{Group, Tool, ToolMeta, ToolView};
use crate::workspace::context::Ctx;

/// Arguments of notes_delete.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NotesDeleteArgs {
    /// The note's name (as notes_list shows it; a trailing .md is accepted).
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub name: String,
}

/// The notes_delete tool.
pub struct NotesDelete;

impl Tool for NotesDelete {
    type Args = NotesDeleteArgs;
    const NAME: &'static str = "notes_delete";
    const CLI_PARENT: Option<&'static str> = Some("notes");
    const META: ToolMeta = ToolMeta {
        description: "Delete one note kept for this workspace.\n\
Delete a note that has become wrong or useless (the fact changed, the decision was reversed); \
to correct part of a note, rewrite it with notes_write instead.",
        examples: "  agtool notes delete old-build-steps",
        group: Group::Notes,
        sensitive: false,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["notes", "memory", "delete"],
    };

    fn view(ctx: &Ctx) -> Result<ToolView, String> {
        Ok(ToolView::of(ToolMeta {
            sensitive: notes::writes_sensitive(ctx),
            ..Self::META
        }))
    }

    fn run(ctx: &Ctx, args: NotesDeleteArgs) -> ToolResult {
        let name = NoteName::parse(&args.name).map_err(ToolError::usage)?;
        let Some(store) = Store::open_existing(ctx)? else {
            return Err(unknown_note(&name, &[]));
        };
        let size = store.delete(&name)?;
        Ok(Output::text(format!(
            "Deleted note {name} ({})\n",
            crate::text::plural::count(size, "byte")
        ))
        .with("name", name.as_str())
        .with("bytes", size))
    }
}
