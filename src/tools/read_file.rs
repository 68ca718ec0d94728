//! `read-file`: show a file's lines with a content tag, in slice, tail, anchors or
//! indentation mode (spec 02, "read-file"). Reading registers the tag (spec 01, freshness).

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};

mod indentation;
mod load;
mod many;
/// Most files one read_file call with `paths` reads (the rest are counted, not shown).
pub use many::MAX_FILES;
mod media;
use crate::fileio::fs::refusal;
use crate::fileio::txn::human_size;
use crate::search::listing;
use crate::text::editable::{EolStyle, TextEncoding};
use crate::text::plural::count;
use crate::text::render::{LineStyle, push_kept_line};
use crate::text::scan::MAX_SHOWN_BYTES;
use crate::text::tag::tag_ref;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;
pub use load::MAX_DECODE_BYTES;
use load::{View, load};

/// Default number of lines shown.
pub const DEFAULT_LIMIT: u64 = 2000;
/// Lines shown by `--tail` given without a value.
pub const DEFAULT_TAIL: u64 = 400;

/// How read-file chooses lines.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, clap::ValueEnum, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // variants carry plain comments: see the first variant
pub enum Mode {
    // Lines offset..offset+limit-1. (Plain comments: variant docs would turn the schema's
    // `enum` into a `oneOf` that models read less easily.)
    #[default]
    Slice,
    // The code block around a line, by indentation.
    Indentation,
}

/// Options of indentation mode (spec 02).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Indentation {
    /// The line the block is built around (1-based; default: offset).
    #[schemars(range(min = 1))]
    pub anchor_line: Option<u64>,
    /// How many indentation levels above the anchor to include (0 = no limit; default 0).
    pub max_levels: Option<u64>,
    /// Also take sibling blocks at the outermost level (default false).
    pub include_siblings: Option<bool>,
    /// Take comment lines just above the block's header (default true).
    pub include_header: Option<bool>,
    /// Most lines to show (default: limit).
    #[schemars(range(min = 1))]
    pub max_lines: Option<u64>,
}

/// Arguments of read-file.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ReadFileArgs {
    /// The file to read (relative to the current directory). A directory is listed instead.
    /// Images (.png .jpg .jpeg .gif .webp .bmp) come back as images, PDFs as text per page,
    /// notebooks (.ipynb) as cells.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: Option<String>,
    /// Instead of path: several files (or glob patterns such as "src/*.rs"), read in one call,
    /// each with its own [path#TAG] header; at most 50 files.
    #[arg(long, num_args = 1.., value_name = "PATH")]
    #[schemars(length(min = 1, max = many::MAX_ENTRIES), inner(length(max = crate::args::MAX_PATH_CHARS)))]
    pub paths: Option<Vec<String>>,
    /// PDF pages to show: "3", "3-5" or "3-" (default the first 20).
    #[arg(long)]
    #[schemars(length(max = 64))]
    pub pages: Option<String>,
    /// First line to show, 1-based (default 1); for a notebook, the first cell.
    #[arg(long)]
    #[schemars(range(min = 1))]
    pub offset: Option<u64>,
    /// Most lines to show (default 2000); for a notebook, most cells.
    #[arg(long)]
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
    /// slice (default) or indentation.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
    /// Indentation-mode options (an object; given as JSON on the command line).
    #[arg(long, value_name = "JSON", value_parser = crate::args::json_flag::<Indentation>)]
    pub indentation: Option<Indentation>,
    /// Print each line as `<n>:<hh>|text`: the anchors edit_lines takes (default false).
    #[arg(long)]
    pub anchors: Option<bool>,
    /// Show the last N lines instead, e.g. 400 (cannot be combined with offset).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "400")]
    #[schemars(range(min = 1))]
    pub tail: Option<u64>,
}

/// The read-file tool.
pub struct ReadFile;

impl Tool for ReadFile {
    type Args = ReadFileArgs;
    const NAME: &'static str = "read_file";
    const META: ToolMeta = ToolMeta {
        description: "Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.\n\
Output starts with [path#TAG]; each line is `L<n>: text`. Read a file before editing it: the write \
tools refuse files you have not read or that changed since. Use offset/limit to page (the last line \
says how to continue), tail for the end of a log, anchors: true to get `<n>:<hh>|` anchors for \
edit_lines, and mode: indentation with indentation.anchor_line to see the code block around a line. \
A directory path returns its listing. Images (png, jpg, gif, webp, bmp) come back as images you can \
see; PDFs as text per page (pages: \"3-5\", default the first 20); notebooks (.ipynb) as cells \
`[cell 3 · code · id=ab12]` with outputs summarised, paged like text with offset/limit counting \
cells (edit them with notebook_edit). Several files \
at once: paths: [\"a.rs\", \"src/*.rs\"] (at most 50), each with its own header or Error: line.",
        examples: "  agtool read-file src/lib.rs\n  agtool read-file src/lib.rs --offset 40 --limit 20\n  agtool read-file app.log --tail 100\n  agtool read-file src/lib.rs --anchors true\n  agtool read-file screenshot.png\n  agtool read-file paper.pdf --pages 3-5\n  agtool read-file --paths src/lib.rs 'src/tools/*.rs'",
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
            // `paths` entries as given (a glob among them is matched as its own text).
            reads: args
                .path
                .iter()
                .chain(args.paths.iter().flatten())
                .cloned()
                .collect(),
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: ReadFileArgs) -> ToolResult {
        match (&args.path, &args.paths) {
            (Some(_), Some(_)) => Err(ToolError::usage(
                "give path (one file) or paths (several), not both",
            )),
            (None, None) => Err(ToolError::usage(
                "give path (one file) or paths (several files or globs)",
            )),
            (None, Some(list)) => many::read_many(ctx, &args, list),
            (Some(spelled), None) => {
                let (mut out, seen) = read_one(ctx, &args, spelled)?;
                if let Some(seen) = seen
                    && let Some(note) = ctx.register_tag(&seen.real, &seen.tag)
                {
                    out.text.push_str(&note);
                    out.text.push('\n');
                }
                Ok(out)
            }
        }
    }
}

/// A file shown whose tag is to be recorded for freshness (spec 01): the caller records it
/// once the output is sure to reach the model.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The resolved path.
    pub real: std::path::PathBuf,
    /// Its content tag.
    pub tag: String,
}

/// Reads one path as read_file does, without recording the tag: the output (text and
/// `--json` fields, an image in the `images` field) and what to record.
pub fn read_one(
    ctx: &Ctx,
    args: &ReadFileArgs,
    spelled: &str,
) -> Result<(Output, Option<Seen>), ToolError> {
    {
        if args.tail.is_some() && args.offset.is_some() {
            return Err(ToolError::usage("tail cannot be combined with offset"));
        }
        if args.tail.is_some() && args.mode == Some(Mode::Indentation) {
            return Err(ToolError::usage(
                "tail cannot be combined with mode indentation",
            ));
        }
        let checked = ctx.check_path(spelled, Access::Read)?;
        // Opened through the file layer, without blocking: no symlink swapped in after the
        // check is followed, and a FIFO is never waited on.
        let file = ctx
            .fs
            .open_read(&checked)
            .map_err(|e| refusal("read", spelled, &e))?;
        let meta = file.metadata().map_err(|e| refusal("read", spelled, &e))?;
        if meta.is_dir() {
            return listing::listing(
                ctx,
                &checked,
                1,
                listing::DEFAULT_LIMIT,
                1,
                crate::search::walk::WalkRules {
                    hidden: true,
                    ignored: false,
                    tool: "read_file",
                },
            )
            .map(|out| (out, None));
        }
        if !meta.is_file() {
            // Opening a FIFO would block until a writer appears; a device may never end.
            return Err(ToolError::refused(format!(
                "{} is not a regular file ({}); read_file reads files and folders only",
                spelled,
                crate::fileio::fs::kind_name(&meta.file_type())
            )));
        }
        if let Some(read) = media::read_media(ctx, args, spelled, &checked, &file, meta.len()) {
            return read;
        }
        let view = load(&file, args, spelled, meta.len())?;
        let style = if args.anchors.unwrap_or(false) {
            LineStyle::Anchored
        } else {
            LineStyle::Numbered
        };
        let mut text = header(spelled, &view);
        let offset = args.offset.unwrap_or(1) as usize;
        if view.total_lines == 0 {
            text.push_str("(empty file)\n");
        } else if view.lines.is_empty() && args.tail.is_none() {
            let first = match args.mode.unwrap_or_default() {
                Mode::Slice => offset,
                Mode::Indentation => anchor_line(args) as usize,
            };
            return Err(ToolError::refused(format!(
                "offset {first} is past the end of {} ({})",
                spelled,
                count(view.total_lines, "line")
            )));
        }
        if view.over_budget
            && let (Some(asked), Some(first)) = (args.tail, view.lines.first())
        {
            // A tail that does not fit: its first lines are left out, and said where they are.
            let asked_first = view.total_lines.saturating_sub(asked as usize) + 1;
            let left_out = first.number - asked_first;
            text.push_str(&format!(
                "({} left out before L{}: a read shows at most {}; read them with offset={} \
                 limit={})\n",
                count(left_out, "line"),
                first.number,
                human_size(MAX_SHOWN_BYTES as u64),
                asked_first,
                left_out
            ));
        }
        for line in &view.lines {
            push_kept_line(
                &mut text,
                style,
                line.number,
                &line.text,
                line.len,
                line.hash,
            );
        }
        if let Some(last) = view.lines.last() {
            let remaining = view.total_lines - last.number;
            if remaining > 0 && args.mode.unwrap_or_default() == Mode::Slice {
                let why = if view.over_budget && args.tail.is_none() {
                    format!(
                        "a read shows at most {}; ",
                        human_size(MAX_SHOWN_BYTES as u64)
                    )
                } else {
                    String::new()
                };
                text.push_str(&format!(
                    "({why}{}; continue with offset={})\n",
                    count(remaining, "more line"),
                    last.number + 1
                ));
            }
        }
        if view.over_budget && args.mode.unwrap_or_default() == Mode::Indentation {
            text.push_str(&format!(
                "(the block is cut to the lines nearest L{}: a read shows at most {}; read \
                 around them with offset and limit)\n",
                anchor_line(args),
                human_size(MAX_SHOWN_BYTES as u64)
            ));
        }
        crate::lsp::after_read_path(ctx, &checked);
        let seen = Seen {
            real: checked.real.clone(),
            tag: view.tag.clone(),
        };
        Ok((
            Output::text(text)
                .with("path", checked.spelled.clone())
                .with("tag", view.tag.clone())
                .with("total_lines", view.total_lines),
            Some(seen),
        ))
    }
}

fn anchor_line(args: &ReadFileArgs) -> u64 {
    args.indentation
        .as_ref()
        .and_then(|i| i.anchor_line)
        .or(args.offset)
        .unwrap_or(1)
}

/// `[path#TAG]` plus the notes of spec 02 when not the default.
fn header(spelled: &str, view: &View) -> String {
    let mut notes: Vec<&str> = Vec::new();
    if view.encoding != TextEncoding::Utf8 {
        notes.push(view.encoding.label());
    }
    match view.eol {
        EolStyle::Lf => {}
        EolStyle::CrLf => notes.push("crlf"),
        EolStyle::Cr => notes.push("cr"),
        EolStyle::Mixed => notes.push("mixed eol"),
    }
    if !view.final_newline && view.total_lines > 0 {
        notes.push("no final newline");
    }
    let invalid;
    if let Some((first, places)) = view.invalid {
        invalid = format!(
            "not UTF-8 at byte {first}{}: shown as \u{FFFD}; edits are refused",
            match places {
                0 | 1 => String::new(),
                n => format!(" and {}", count(n - 1, "more place")),
            }
        );
        notes.push(&invalid);
    }
    if notes.is_empty() {
        format!("{}\n", tag_ref(spelled, &view.tag))
    } else {
        format!("{} ({})\n", tag_ref(spelled, &view.tag), notes.join(", "))
    }
}
