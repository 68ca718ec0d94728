//! `notes read NAME` (notes_read): one note's text (spec 06, "notes").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::notes::{NoteName, Store, unknown_note};
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of notes_read.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NotesReadArgs {
    /// The note's name (as notes_list shows it; a trailing .md is accepted).
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub name: String,
}

/// The notes_read tool.
pub struct NotesRead;

impl Tool for NotesRead {
    type Args = NotesReadArgs;
    const NAME: &'static str = "notes_read";
    const CLI_PARENT: Option<&'static str> = Some("notes");
    const META: ToolMeta = ToolMeta {
        description: "Read one note kept for this workspace.\n\
Prints the note's whole text. An unknown name is refused with the closest names; notes_list \
shows them all.",
        examples: "  agtool notes read build\n  agtool notes read --args '{\"name\":\"decisions\"}'",
        group: Group::Notes,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(30_000),
        body: None,
        tags: &["notes", "memory", "read"],
    };

    fn run(ctx: &Ctx, args: NotesReadArgs) -> ToolResult {
        let name = NoteName::parse(&args.name).map_err(ToolError::usage)?;
        let Some(store) = Store::open_existing(ctx)? else {
            return Err(unknown_note(&name, &[]));
        };
        let (bytes, stat) = store.read(&name)?;
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if std::str::from_utf8(&bytes).is_err() {
            text.push_str(
                "\n(note: the file is not valid UTF-8; invalid bytes are shown as U+FFFD)\n",
            );
        }
        Ok(Output::text(text)
            .with("name", name.as_str())
            .with("bytes", stat.size))
    }
}
