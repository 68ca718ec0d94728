//! `read-file`: show a file's lines with a content tag, in slice, tail, anchors or
//! indentation mode (spec 02, "read-file"). Reading registers the tag (spec 01, freshness).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult, io_reason};

mod indentation;
mod many;
/// Most files one read_file call with `paths` reads (the rest are counted, not shown).
pub use many::MAX_FILES;
mod media;
use crate::fileio::fs::refusal;
use crate::fileio::map::{self, Mapped};
use crate::fileio::txn::human_size;
use crate::search::listing;
use crate::text::editable::{
    DecodeError, EditableText, EolStyle, TextEncoding, sniff_bom, utf8_census,
};
use crate::text::plural::count;
use crate::text::render::{LineStyle, MAX_LINE_BYTES, cut_at_boundary, push_kept_line};
use crate::text::scan::{
    self, MAX_SHOWN_BYTES, Scan, ScanStop, ScannedLine, Stream, Window, shown_cost,
};
use crate::text::tag::{content_tag, fnv1a32, tag_ref};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;
use indentation::{LineWindow, indentation_block, nearest_first};

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

/// What is shown of a file, however it was read.
struct View {
    tag: String,
    encoding: TextEncoding,
    eol: EolStyle,
    final_newline: bool,
    total_lines: usize,
    lines: Vec<ScannedLine>,
    /// Lines of the window were left out for [`MAX_SHOWN_BYTES`].
    over_budget: bool,
    /// Bytes that are not UTF-8, shown as U+FFFD: (offset of the first, places).
    invalid: Option<(u64, u64)>,
}

fn anchor_line(args: &ReadFileArgs) -> u64 {
    args.indentation
        .as_ref()
        .and_then(|i| i.anchor_line)
        .or(args.offset)
        .unwrap_or(1)
}

fn eol_style(lf: u64, crlf: u64, cr: u64) -> EolStyle {
    match (lf > 0, crlf > 0, cr > 0) {
        (_, false, false) => EolStyle::Lf,
        (false, true, false) => EolStyle::CrLf,
        (false, false, true) => EolStyle::Cr,
        _ => EolStyle::Mixed,
    }
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

/// The most bytes read-file decodes whole (indentation mode, UTF-16/32, GBK): the bytes and
/// their text are both held, so this is the editing tools' bound
/// ([`crate::fileio::txn::MAX_EDIT_BYTES`]). UTF-8 slices and tails of any size are streamed.
pub const MAX_DECODE_BYTES: u64 = crate::fileio::txn::MAX_EDIT_BYTES;

/// What to do with a big file in another encoding.
const CONVERT_FIRST: &str = "convert it to UTF-8 first (exec: iconv -f <its encoding> -t \
     UTF-8) or read part of it with a command (exec: head, sed -n)";

/// Reads the file: one streaming pass for UTF-8 slice/tail reads, a whole-file decode for
/// indentation mode and for other encodings (at most [`MAX_DECODE_BYTES`]).
fn load(file: &File, args: &ReadFileArgs, spelled: &str, size: u64) -> Result<View, ToolError> {
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT) as usize;
    let offset = args.offset.unwrap_or(1) as usize;
    let window = match args.tail {
        Some(n) => Window::Tail(n as usize),
        None => Window::Range {
            first: offset,
            last: offset.saturating_add(limit - 1),
        },
    };
    // Each pass reads the one opened file from its start.
    let open = || {
        file.try_clone()
            .and_then(|mut f| f.seek(SeekFrom::Start(0)).map(|_| f))
            .map_err(|e| ToolError::refused(format!("cannot read {}: {}", spelled, io_reason(&e))))
    };
    // Why the file must be decoded whole, and what to do instead when it is too big for that.
    let mut whole = (
        "indentation mode decodes the whole file",
        "read it in slices (offset and limit) instead",
    );
    if args.mode.unwrap_or_default() == Mode::Slice {
        match scan_file(&open()?, size, window, args.anchors.unwrap_or(false)) {
            Ok(s) => return Ok(view_from_scan(s)),
            Err(ScanStop::Binary(len)) => {
                return Err(ToolError::refused(
                    DecodeError::Binary { len }.message(spelled),
                ));
            }
            Err(ScanStop::Io(e)) => {
                return Err(ToolError::refused(format!(
                    "cannot read {}: {}",
                    spelled,
                    io_reason(&e)
                )));
            }
            Err(ScanStop::Wide) => {
                whole.0 = "it is UTF-16 or UTF-32, which is decoded whole";
                whole.1 = CONVERT_FIRST;
            }
            Err(ScanStop::NotUtf8) if size > MAX_DECODE_BYTES && !looks_gbk(&open()?) => {
                // Too big to decode whole and not GBK at its start: streamed with U+FFFD (a
                // 200 MB log with one stray byte could not be read at all).
                return lossy_scan(&open()?, size, window, args.anchors.unwrap_or(false))
                    .map(view_from_scan)
                    .map_err(|e| scan_failed(e, spelled));
            }
            Err(ScanStop::NotUtf8) => {
                whole.0 = "it is not UTF-8 and looks like GBK, which is decoded whole";
                whole.1 = CONVERT_FIRST;
            }
        }
    }
    // The whole-file decoder holds the bytes and their text: bounded by the size at open, and
    // again while reading, in case the file grew since.
    let too_big = || {
        ToolError::refused(format!(
            "{spelled} is {} ({}): {}, and agtool decodes at most {} in memory; {}",
            count(size, "byte"),
            human_size(size),
            whole.0,
            human_size(MAX_DECODE_BYTES),
            whole.1
        ))
    };
    if size > MAX_DECODE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    open()?
        .take(MAX_DECODE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::refused(format!("cannot read {}: {}", spelled, io_reason(&e))))?;
    if bytes.len() as u64 > MAX_DECODE_BYTES {
        return Err(too_big());
    }
    // Bytes that are not UTF-8 nor strict GBK are still shown, as UTF-8 with U+FFFD where a
    // byte is not (a log with one bad byte was unreadable); edits of the file stay refused.
    let (text, invalid) = match EditableText::decode(&bytes) {
        Ok(text) => (text, None),
        Err(DecodeError::Utf8Strays { .. } | DecodeError::Undecodable)
            if matches!(sniff_bom(&bytes), None | Some(TextEncoding::Utf8Bom)) =>
        {
            // A UTF-8 BOM is valid UTF-8: the census counts from the file's first byte, and
            // the shown text starts after the BOM.
            let (_, places, first) = utf8_census(&bytes);
            let body = bytes
                .strip_prefix(&[0xEF, 0xBB, 0xBF][..])
                .unwrap_or(&bytes);
            let lossy = String::from_utf8_lossy(body);
            (EditableText::new_utf8(&lossy), first.map(|at| (at, places)))
        }
        Err(e) => return Err(ToolError::refused(e.message(spelled))),
    };
    // Only the lines the budget could take are held (a 60 MiB file of blank lines took
    // 1.6 GB when every line was): each shown line costs at least 5 bytes (`L1: `, newline).
    let reach = MAX_SHOWN_BYTES / scan::LEAST_COST + 1;
    let total = text.lines().count();
    let mode = args.mode.unwrap_or_default();
    let anchor = anchor_line(args) as usize;
    // The lines held, first and last (1-based, inclusive; empty when first > last).
    let (first, last) = match (mode, window) {
        (Mode::Indentation, _) => (
            anchor.saturating_sub(reach).max(1),
            anchor.saturating_add(reach).min(total),
        ),
        (Mode::Slice, Window::Tail(n)) => (total.saturating_sub(n.min(reach)) + 1, total),
        (Mode::Slice, Window::Range { first, last }) => {
            (first, last.min(total).min(first.saturating_add(reach - 1)))
        }
    };
    let held = {
        let mut it = text.lines();
        let mut indent_before = 0;
        if mode == Mode::Indentation {
            for line in it.by_ref().take(first - 1) {
                if let Some(i) = indentation::indent_of(line) {
                    indent_before = i;
                }
            }
        } else if first > 1 {
            it.nth(first - 2);
        }
        LineWindow {
            lines: it.take((last + 1).saturating_sub(first)).collect(),
            first,
            total,
            indent_before,
        }
    };
    // The lines in the order they are taken within the budget a read shows: a tail keeps
    // its last lines, an indentation block the lines nearest its anchor (the block could be
    // cut before the anchor), a window its first.
    let order: Box<dyn Iterator<Item = usize>> = match mode {
        Mode::Indentation => {
            let opts = args.indentation.clone().unwrap_or_default();
            if anchor > total {
                Box::new(std::iter::empty())
            } else {
                let max_lines = opts.max_lines.map_or(limit, |m| m as usize);
                let block = indentation_block(&held, anchor, &opts, max_lines);
                Box::new(nearest_first(&block, anchor).into_iter())
            }
        }
        Mode::Slice if matches!(window, Window::Tail(_)) => Box::new((first..=last).rev()),
        Mode::Slice => Box::new(first..=last),
    };
    let shown = |n: usize| {
        let full = held.line(n);
        ScannedLine {
            number: n,
            text: cut_at_boundary(full, MAX_LINE_BYTES).to_owned(),
            len: full.len() as u64,
            hash: fnv1a32(full.as_bytes()),
        }
    };
    let mut lines: Vec<ScannedLine> = Vec::new();
    let mut used = 0;
    let mut over_budget = false;
    for n in order {
        let line = shown(n);
        used += shown_cost(&line);
        if used > MAX_SHOWN_BYTES && !lines.is_empty() {
            over_budget = true;
            break;
        }
        lines.push(line);
    }
    lines.sort_by_key(|l| l.number);
    Ok(View {
        tag: content_tag(&bytes),
        encoding: text.encoding(),
        eol: text.eol_style(),
        final_newline: text.has_final_newline(),
        total_lines: total,
        lines,
        over_budget,
        invalid,
    })
}

/// [`scan_file`] of a text that is neither UTF-8 nor GBK: bytes that are not UTF-8 show as
/// U+FFFD and the view says where (spec 02).
fn lossy_scan(file: &File, size: u64, window: Window, anchors: bool) -> Result<Scan, ScanStop> {
    let mut stream = Stream::new(size, window).lossy();
    if !anchors {
        stream = stream.without_line_hashes();
    }
    stream.finish(file)
}

/// The message for a lossy scan that stopped: a NUL in its first bytes, or a failed read.
fn scan_failed(stop: ScanStop, spelled: &str) -> ToolError {
    match stop {
        ScanStop::Binary(len) => ToolError::refused(DecodeError::Binary { len }.message(spelled)),
        ScanStop::Io(e) => {
            ToolError::refused(format!("cannot read {}: {}", spelled, io_reason(&e)))
        }
        ScanStop::Wide | ScanStop::NotUtf8 => ToolError::refused(format!(
            "cannot read {spelled}: the file changed while it was read"
        )),
    }
}

/// How much of a big file's start [`looks_gbk`] decodes.
const GBK_SAMPLE_BYTES: u64 = 4 << 20;

/// Whether the first [`GBK_SAMPLE_BYTES`] of `file` (up to their last line break, so no
/// character is cut) decode as GBK by the rules of spec 01. A big file that does is refused
/// with how to convert it rather than shown as U+FFFD; one whose start is UTF-8 or ASCII is
/// streamed lossily even if GBK comes later (its header says where the first stray byte is).
fn looks_gbk(file: &File) -> bool {
    let mut sample = Vec::with_capacity(GBK_SAMPLE_BYTES as usize);
    if file
        .take(GBK_SAMPLE_BYTES)
        .read_to_end(&mut sample)
        .is_err()
    {
        return false;
    }
    if sample.len() as u64 == GBK_SAMPLE_BYTES
        && let Some(end) = memchr::memrchr(b'\n', &sample)
    {
        sample.truncate(end + 1);
    }
    EditableText::decode(&sample)
        .is_ok_and(|t| matches!(t.encoding(), TextEncoding::Gbk | TextEncoding::Gb18030))
}

/// The streaming pass over `file` (`size` bytes when opened): a large file is fed from a
/// memory map, then whatever it grew by is read; one cut short under the map is read again.
fn scan_file(file: &File, size: u64, window: Window, anchors: bool) -> Result<Scan, ScanStop> {
    let mut stream = Stream::new(size, window);
    if !anchors {
        stream = stream.without_line_hashes();
    }
    match map::for_each_piece(file, size, Stream::PIECE, |piece| stream.feed(piece)) {
        Mapped::NotMapped | Mapped::Done => stream.finish(file),
        Mapped::Stopped(stop) => Err(stop),
        Mapped::Cut => scan::scan(file, size, window),
    }
}

fn view_from_scan(s: Scan) -> View {
    View {
        eol: eol_style(s.eols.0, s.eols.1, s.eols.2),
        tag: s.tag,
        encoding: s.encoding,
        final_newline: s.final_newline,
        total_lines: s.total_lines,
        lines: s.lines,
        over_budget: s.over_budget,
        invalid: s.invalid,
    }
}
