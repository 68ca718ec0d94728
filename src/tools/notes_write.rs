//! `notes write NAME` (notes_write): save a note, or append to one (spec 06, "notes").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::notes::{self, MAX_NOTE_BYTES, NoteName, Store, too_big};
use crate::tools::{Group, Tool, ToolMeta, ToolView};
use crate::workspace::context::Ctx;

/// Arguments of notes_write.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NotesWriteArgs {
    /// The note's name: 1-64 characters of A-Z a-z 0-9 . _ -, not starting with a dot (a
    /// trailing .md is dropped), e.g. build, decisions, api-layout.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub name: String,
    /// The text (CLI: --content, or stdin). Replaces the note, or is added at its end with
    /// append. A final newline is added when missing.
    #[arg(long)]
    #[schemars(required, length(max = crate::args::MAX_BODY_CHARS))]
    pub content: Option<String>,
    /// Add the content at the end of the existing note, on a new line, instead of replacing
    /// it (default false).
    #[arg(long)]
    pub append: Option<bool>,
}

/// The notes_write tool.
pub struct NotesWrite;

impl Tool for NotesWrite {
    type Args = NotesWriteArgs;
    const NAME: &'static str = "notes_write";
    const CLI_PARENT: Option<&'static str> = Some("notes");
    const META: ToolMeta = ToolMeta {
        description: "Save a note for later sessions in this workspace, or append to one.\n\
Write a note when you learn a durable fact about this workspace that a later session will \
need and could not easily find again: a build or test quirk, a decision and its reason, where \
something lives, a pitfall you hit. Do not write a log of the conversation or of your steps, \
and nothing the code, its docs or the git history already say. Keep a note short and \
specific, one topic per note; at most 64 KiB. append: true adds to the end on a new line, \
creating the note when missing (safe with other writers at the same time). Check notes_list first to update an existing note \
instead of starting another.",
        examples: "  agtool notes write build --content 'cargo test needs RUST_MIN_STACK=8388608 (deep recursion in parser tests)'\n  agtool notes write decisions --append true --content 'Chose sqlite over sled: sled is unmaintained.'\n  agtool notes write layout < layout.md",
        group: Group::Notes,
        sensitive: false,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: Some("content"),
        tags: &["notes", "memory", "write"],
    };

    fn view(ctx: &Ctx) -> Result<ToolView, String> {
        Ok(ToolView::of(ToolMeta {
            sensitive: notes::writes_sensitive(ctx),
            ..Self::META
        }))
    }

    fn run(ctx: &Ctx, args: NotesWriteArgs) -> ToolResult {
        let name = NoteName::parse(&args.name).map_err(ToolError::usage)?;
        let content = args.content.ok_or_else(|| {
            ToolError::usage("content is required (pass it, or pipe it on stdin)")
        })?;
        let append = args.append.unwrap_or(false);
        if content.is_empty() {
            return Err(ToolError::usage(if append {
                "content is empty: there is nothing to append"
            } else {
                "content is empty: a note needs text (notes_delete removes a note)"
            }));
        }
        if let Some(at) = content.find('\0') {
            return Err(ToolError::usage(format!(
                "content has a NUL byte at byte {at}; notes are text"
            )));
        }
        // A new text alone over the cap is refused before the store is touched.
        let own = content.len() + usize::from(!content.ends_with('\n'));
        if own > MAX_NOTE_BYTES {
            return Err(too_big(&format!(
                "note {name} would be {}",
                crate::text::plural::count(own, "byte")
            )));
        }
        let store = Store::open_for_write(ctx)?;
        let saved = store.write(&name, &content, append)?;
        let size = crate::text::plural::count(saved.bytes, "byte");
        // An append says so, with the note's whole size after it (issue 18 §5).
        let said = if append {
            format!("Appended to note {name} ({size} now)\n")
        } else {
            format!("Saved note {name} ({size})\n")
        };
        Ok(Output::text(said)
            .with("name", name.as_str())
            .with("bytes", saved.bytes)
            .with("created", saved.created))
    }
}
