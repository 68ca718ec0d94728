//! read-file's loading (spec 02): the streaming scan for UTF-8 slices and tails of any size
//! (fed from a memory map when big), a lossy scan for big files that are neither UTF-8 nor
//! GBK, and the whole-file decode (indentation mode, UTF-16/32, GBK, lossy UTF-8), which holds
//! only the lines the budget could show.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use super::indentation::{self, LineWindow, indentation_block, nearest_first};
use super::{DEFAULT_LIMIT, Mode, ReadFileArgs, anchor_line};
use crate::error::{ToolError, io_reason};
use crate::fileio::map::{self, Mapped};
use crate::fileio::txn::human_size;
use crate::text::editable::{
    DecodeError, EditableText, EolStyle, TextEncoding, sniff_bom, utf8_census,
};
use crate::text::plural::count;
use crate::text::render::{MAX_LINE_BYTES, cut_at_boundary};
use crate::text::scan::{
    self, MAX_SHOWN_BYTES, Scan, ScanStop, ScannedLine, Stream, Window, shown_cost,
};
use crate::text::tag::{content_tag, fnv1a32};

/// What is shown of a file, however it was read.
pub(super) struct View {
    pub(super) tag: String,
    pub(super) encoding: TextEncoding,
    pub(super) eol: EolStyle,
    pub(super) final_newline: bool,
    pub(super) total_lines: usize,
    pub(super) lines: Vec<ScannedLine>,
    /// Lines of the window were left out for [`MAX_SHOWN_BYTES`].
    pub(super) over_budget: bool,
    /// Bytes that are not UTF-8, shown as U+FFFD: (offset of the first, places).
    pub(super) invalid: Option<(u64, u64)>,
}

fn eol_style(lf: u64, crlf: u64, cr: u64) -> EolStyle {
    match (lf > 0, crlf > 0, cr > 0) {
        (_, false, false) => EolStyle::Lf,
        (false, true, false) => EolStyle::CrLf,
        (false, false, true) => EolStyle::Cr,
        _ => EolStyle::Mixed,
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
pub(super) fn load(
    file: &File,
    args: &ReadFileArgs,
    spelled: &str,
    size: u64,
) -> Result<View, ToolError> {
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
