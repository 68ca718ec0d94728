//! `notes list` (notes_list): the notes in the store, newest first (spec 06, "notes").

use std::fmt::Write as _;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolResult};
use crate::notes::{MAX_LISTED, Store};
use crate::text::clock::format_utc;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of notes_list.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NotesListArgs {
    /// Only notes whose name or text contains this (any letter case).
    #[arg(long)]
    #[schemars(length(min = 1, max = crate::args::MAX_PATTERN_CHARS))]
    pub query: Option<String>,
}

/// The notes_list tool.
pub struct NotesList;

impl Tool for NotesList {
    type Args = NotesListArgs;
    const NAME: &'static str = "notes_list";
    const CLI_PARENT: Option<&'static str> = Some("notes");
    const META: ToolMeta = ToolMeta {
        description: "List the notes kept for this workspace, newest first.\n\
Notes are what earlier sessions chose to remember about this workspace (build quirks, \
decisions and their reasons, where things live). Check them at the start of a task. One note \
a line: name, size, last change (UTC), first line. query keeps the notes whose name or text \
contains it. At most 200 are shown; a last line counts the rest.",
        examples: "  agtool notes list\n  agtool notes list --query build",
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

    fn run(ctx: &Ctx, args: NotesListArgs) -> ToolResult {
        let Some(store) = Store::open_existing(ctx)? else {
            return Ok(Output::text("No notes yet.\n")
                .with("notes", 0)
                .with("total", 0));
        };
        let listing = store.list(args.query.as_deref())?;
        let mut text = String::new();
        if listing.notes.is_empty() {
            match &args.query {
                Some(q) if listing.total > 0 => {
                    let _ = writeln!(
                        text,
                        "No notes match {q:?} ({} in all).",
                        crate::text::plural::count(listing.total, "note")
                    );
                }
                _ => text.push_str("No notes yet.\n"),
            }
        }
        for note in listing.notes.iter().take(MAX_LISTED) {
            let _ = writeln!(
                text,
                "{}  {}  {}  {}",
                note.name,
                crate::text::plural::count(note.size, "byte"),
                format_utc(note.modified),
                note.first_line
            );
        }
        if listing.notes.len() > MAX_LISTED {
            let _ = writeln!(
                text,
                "({} more; narrow with query)",
                listing.notes.len() - MAX_LISTED
            );
        }
        if listing.others > 0 {
            let _ = writeln!(
                text,
                "({} other {} in the store ignored)",
                listing.others,
                if listing.others == 1 { "file" } else { "files" }
            );
        }
        Ok(Output::text(text)
            .with("notes", listing.notes.len())
            .with("total", listing.total)
            .with("others", listing.others))
    }
}
