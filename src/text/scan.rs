//! One streaming pass over a file for read-file (spec 02, "Cost"): the content tag of the
//! whole file, its line count and terminator kinds, UTF-8 validation, and the lines of a
//! window, in bounded memory. A 1 GiB file with `limit 20` costs a 64 KiB buffer plus at most
//! `MAX_LINE_BYTES + 4` bytes per shown line.
//!
//! Each chunk is read once (or handed over from a memory map, see [`Stream`]) and, while it is
//! still in cache, hashed, surveyed, validated and split. One [`survey`] pass counts a chunk's
//! LFs and says whether it holds a CR or a non-ASCII byte: only then are CRLFs counted or
//! UTF-8 validated. Lines are only split one by one in the chunks that hold a shown line; every
//! other chunk is counted in bulk. Tail mode counts the whole file the same way, then finds
//! where its last lines start by searching backwards from the end, and splits only those.

use std::fs::File;
use std::io;

use super::editable::{BINARY_SNIFF_BYTES, TextEncoding, sniff_bom};
use super::render::MAX_LINE_BYTES;
use super::survey::survey;
use super::tag::TagHasher;

mod census;
mod lines;
use census::Census;
use lines::{LineOpts, Scanner};

/// Bytes read at a time: small enough to stay in cache while it is hashed, validated and
/// counted (64 KiB cost less CPU per GiB than 256 KiB or 1 MiB here, as for `cksum`).
const CHUNK: usize = 64 * 1024;
/// Bytes read at a time while searching backwards for the start of the tail.
const BACK_CHUNK: usize = 64 * 1024;
/// Bytes kept of each shown line: enough to cut at a char boundary at or before 500 bytes.
const KEEP: usize = MAX_LINE_BYTES + 4;

/// Most bytes of lines one read keeps and shows, counted by [`shown_cost`] (spec 02): past it a
/// window ends early and a tail leaves out its first lines. A `limit` of millions printed
/// 1.2 GB and held 3.2 GB.
pub const MAX_SHOWN_BYTES: usize = 1 << 20;

/// What `line` counts against [`MAX_SHOWN_BYTES`]: its text, its `L<n>: ` prefix, its
/// newline and, when it is cut, the ` [… <k> more bytes]` mark (the printed size, give or
/// take the anchor form's one byte).
pub fn shown_cost(line: &ScannedLine) -> usize {
    let digits = |n: u64| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    let prefix = 4 + digits(line.number as u64);
    let mark = if line.len > line.text.len() as u64 {
        // ` [… ` (the ellipsis is 3 bytes), the count, ` more bytes]`.
        18 + digits(line.len - line.text.len() as u64)
    } else {
        0
    };
    line.text.len() + prefix + mark
}

/// The least a shown line can cost: `L1: ` and a newline.
pub const LEAST_COST: usize = 5;

/// Which lines to keep while scanning.
#[derive(Debug, Clone, Copy)]
pub enum Window {
    /// Lines `first..=last` (1-based).
    Range {
        /// First line kept, 1-based.
        first: usize,
        /// Last line kept, 1-based, inclusive.
        last: usize,
    },
    /// The last `n` lines.
    Tail(usize),
}

/// A kept line: its number, its first bytes, its full length in bytes and its anchor hash.
#[derive(Debug, Clone)]
pub struct ScannedLine {
    /// 1-based line number.
    pub number: usize,
    /// The line's text, cut to at most [`MAX_LINE_BYTES`] at a char boundary.
    pub text: String,
    /// The full line length in bytes, without terminator.
    pub len: u64,
    /// FNV-1a 32 of the full line's bytes (for anchors).
    pub hash: u32,
}

/// What one pass found.
#[derive(Debug, Clone)]
pub struct Scan {
    /// Content tag of the whole file (8 upper-case hex digits).
    pub tag: String,
    /// `Utf8` or `Utf8Bom`.
    pub encoding: TextEncoding,
    /// Number of lines (0 for an empty file).
    pub total_lines: usize,
    /// Counts of LF, CRLF and lone CR terminators.
    pub eols: (u64, u64, u64),
    /// Whether the last line ends with a terminator.
    pub final_newline: bool,
    /// The kept lines, in order.
    pub lines: Vec<ScannedLine>,
    /// [`MAX_SHOWN_BYTES`] was reached: a window ends before its last line, a tail leaves
    /// out its first lines.
    pub over_budget: bool,
    /// A lossy scan ([`Stream::lossy`]) found bytes that are not UTF-8: the offset of the
    /// first (from the file's first byte) and how many places show U+FFFD.
    pub invalid: Option<(u64, u64)>,
}

/// Why the streaming pass gave up: the caller decides what to do.
#[derive(Debug)]
pub enum ScanStop {
    /// A UTF-16/32 BOM: decode the whole file instead.
    Wide,
    /// Not valid UTF-8: try the whole-file decoder (GBK) instead.
    NotUtf8,
    /// A NUL byte in the first 8 KiB; carries the file size in bytes.
    Binary(u64),
    /// Reading failed.
    Io(io::Error),
}

/// Bytes that can be read at any offset: an open file (`pread`, so the file position is never
/// shared) or, in tests, a slice.
pub trait Source {
    /// Reads into `buf` from byte `offset`; 0 at the end. Like `FileExt::read_at`.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
}

impl Source for File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buf, offset)
    }
}

impl Source for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

/// Scans `source` (whose size is `size` bytes, for messages) once from the start, plus, in
/// tail mode, a read of the tail region. Reads up to the end of the file as it is when the
/// pass gets there.
pub fn scan(source: &(impl Source + ?Sized), size: u64, window: Window) -> Result<Scan, ScanStop> {
    Stream::new(size, window).finish(source)
}

/// A scan whose first bytes the caller hands over (from a memory map, say) and whose rest it
/// reads from the file: [`Stream::feed`] the bytes from offset 0 on, in pieces of about
/// [`CHUNK`] bytes so each stays in cache while it is hashed, validated and counted, then
/// [`Stream::finish`].
pub struct Stream {
    pass: Pass,
    window: Window,
    /// How kept lines are made (see [`Stream::without_line_hashes`], [`Stream::lossy`]).
    opts: LineOpts,
    size: u64,
    /// Bytes fed so far: where [`Stream::finish`] goes on reading.
    fed: u64,
}

impl Stream {
    /// Bytes per piece a caller should feed.
    pub const PIECE: usize = CHUNK;

    /// A scan of a file of `size` bytes (for messages and the read buffer) keeping `window`.
    pub fn new(size: u64, window: Window) -> Stream {
        let forward = match window {
            Window::Range { first, last } => Some((first, last)),
            Window::Tail(_) => None,
        };
        Stream {
            pass: Pass::new(size, Scanner::new(forward, 1)),
            window,
            opts: LineOpts {
                hash: true,
                lossy: false,
            },
            size,
            fed: 0,
        }
    }

    /// Kept lines get no anchor hash ([`ScannedLine::hash`] is 0): the hash covers the whole
    /// line, so a shown line of 400 MiB took most of a second to hash for a read that prints
    /// its first 500 bytes and no anchor.
    pub fn without_line_hashes(mut self) -> Stream {
        self.opts.hash = false;
        self.pass.scanner.opts = self.opts;
        self
    }

    /// A scan of a text that is not UTF-8 (nor any other encoding agtool reads): bytes that
    /// are not UTF-8 show as U+FFFD, as `String::from_utf8_lossy` shows them, and
    /// [`Scan::invalid`] says where and how often, instead of stopping with
    /// [`ScanStop::NotUtf8`]. A kept line's [`ScannedLine::len`] is its shown text's length
    /// plus the bytes of the file after it.
    pub fn lossy(mut self) -> Stream {
        self.opts.lossy = true;
        self.pass.scanner.opts = self.opts;
        self.pass.census = Some(Census::default());
        self
    }

    /// Takes the file's next bytes. The first piece must hold the file's first 3 bytes (a
    /// BOM is looked for there only). An error says why the scan stopped; nothing more may be
    /// fed after one.
    pub fn feed(&mut self, piece: &[u8]) -> Result<(), ScanStop> {
        self.fed += piece.len() as u64;
        self.pass.process(piece)
    }

    /// Reads the rest of `source` (from the bytes fed so far to its end, as it is when the
    /// read gets there) and, in tail mode, the tail region; returns what the whole pass found.
    pub fn finish(self, source: &(impl Source + ?Sized)) -> Result<Scan, ScanStop> {
        // A small file gets a buffer of its size (plus one byte to see the end in one read).
        let chunk =
            usize::try_from(self.size).map_or(CHUNK, |s| s.saturating_add(1).clamp(4096, CHUNK));
        self.finish_in_chunks(source, chunk)
    }

    /// [`Stream::finish`] reading `chunk` bytes at a time (tests use tiny chunks to reach
    /// every chunk edge).
    fn finish_in_chunks(
        self,
        source: &(impl Source + ?Sized),
        chunk: usize,
    ) -> Result<Scan, ScanStop> {
        let Stream {
            mut pass,
            window,
            opts,
            fed,
            ..
        } = self;
        let mut buf = vec![0u8; chunk];
        let mut at = fed;
        loop {
            let n = read_full(source, &mut buf, at, u64::MAX).map_err(ScanStop::Io)?;
            if n == 0 {
                break;
            }
            at += n as u64;
            pass.process(&buf[..n])?;
        }
        let body_start = pass.body_start();
        let mut scan = pass.finish()?;
        if let Window::Tail(n) = window {
            (scan.lines, scan.over_budget) =
                tail_lines(source, &mut buf, body_start, at, &scan, n, opts)?;
        }
        Ok(scan)
    }
}

/// [`scan`] reading `chunk` bytes at a time.
#[cfg(test)]
fn scan_in_chunks(
    source: &(impl Source + ?Sized),
    size: u64,
    window: Window,
    chunk: usize,
) -> Result<Scan, ScanStop> {
    Stream::new(size, window).finish_in_chunks(source, chunk)
}

/// Reads from `at` until `buf` is full, the end of the file, or `end`; returns the bytes read.
fn read_full(
    source: &(impl Source + ?Sized),
    buf: &mut [u8],
    at: u64,
    end: u64,
) -> io::Result<usize> {
    let want = buf
        .len()
        .min(usize::try_from(end - at).unwrap_or(usize::MAX));
    let mut filled = 0;
    while filled < want {
        match source.read_at(&mut buf[filled..want], at + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The last `n` lines of a file whose forward pass found `scan`, whose text starts at byte
/// `body_start` (after a BOM) and which was read up to byte `end`: where they start is found by
/// searching backwards from `end` for terminators, then only they are split. Within
/// [`MAX_SHOWN_BYTES`]: the flag says the first lines were left out.
fn tail_lines(
    source: &(impl Source + ?Sized),
    buf: &mut [u8],
    body_start: u64,
    end: u64,
    scan: &Scan,
    n: usize,
    opts: LineOpts,
) -> Result<(Vec<ScannedLine>, bool), ScanStop> {
    let total = scan.total_lines;
    if n == 0 || total == 0 {
        return Ok((Vec::new(), false));
    }
    // No more lines than the budget could show even if all were empty.
    let most = MAX_SHOWN_BYTES / LEAST_COST;
    let cut_by_count = n > most && total > most;
    let n = n.min(most);
    let (start, first) = if n >= total {
        (body_start, 1)
    } else {
        // Line j ends with terminator j; the shown lines start right after terminator
        // total - n, which is this many terminators from the end:
        let back = n + usize::from(scan.final_newline);
        let start = nth_terminator_from_end(source, buf, body_start, end, back)
            .map_err(ScanStop::Io)?
            .ok_or_else(changed)?;
        (start, total - n + 1)
    };
    let mut scanner = Scanner::new(Some((first, total)), first);
    scanner.drop_front = true;
    scanner.opts = opts;
    let mut at = start;
    while at < end {
        let got = read_full(source, buf, at, end).map_err(ScanStop::Io)?;
        if got == 0 {
            return Err(changed());
        }
        scanner.feed(&buf[..got], None);
        at += got as u64;
    }
    let (lines, over_budget) = scanner.finish_lines();
    if lines.last().map(|l| l.number) != Some(total) {
        return Err(changed());
    }
    Ok((lines, over_budget || cut_by_count))
}

fn changed() -> ScanStop {
    ScanStop::Io(io::Error::other("the file changed while it was being read"))
}

/// The offset right after the `k`-th terminator (LF, CRLF or lone CR) counted backwards from
/// `end`, searching no further back than `floor`; `None` when there are fewer.
fn nth_terminator_from_end(
    source: &(impl Source + ?Sized),
    buf: &mut [u8],
    floor: u64,
    end: u64,
    k: usize,
) -> io::Result<Option<u64>> {
    let mut found = 0;
    let mut hi = end;
    // The CR of a CRLF whose LF was seen in the block to the right: not a terminator of its own.
    let mut skip_cr_at: Option<u64> = None;
    let size = BACK_CHUNK.min(buf.len());
    let block = &mut buf[..size];
    while hi > floor {
        let lo = hi.saturating_sub(block.len() as u64).max(floor);
        let len = (hi - lo) as usize;
        if read_full(source, &mut block[..len], lo, hi)? != len {
            return Ok(None);
        }
        let bytes = &block[..len];
        let mut right = len;
        while let Some(p) = memchr::memrchr2(b'\n', b'\r', &bytes[..right]) {
            right = p;
            let abs = lo + p as u64;
            if skip_cr_at == Some(abs) {
                skip_cr_at = None;
                continue;
            }
            if bytes[p] == b'\n' && abs > floor {
                let before = if p > 0 {
                    bytes[p - 1]
                } else {
                    let mut one = [0u8; 1];
                    if read_full(source, &mut one, abs - 1, abs)? != 1 {
                        return Ok(None);
                    }
                    one[0]
                };
                if before == b'\r' {
                    skip_cr_at = Some(abs - 1);
                }
            }
            found += 1;
            if found == k {
                return Ok(Some(abs + 1));
            }
        }
        hi = lo;
    }
    Ok(None)
}

/// Everything but the tail: hash, BOM, binary sniff, UTF-8 validation across chunk edges, lines.
struct Pass {
    size: u64,
    hasher: TagHasher,
    scanner: Scanner,
    /// An incomplete UTF-8 sequence from the previous chunk.
    carry: Vec<u8>,
    /// A lossy scan counts what is not UTF-8 instead of stopping there.
    census: Option<Census>,
    first: bool,
    sniffed: usize,
    encoding: TextEncoding,
}

impl Pass {
    fn new(size: u64, scanner: Scanner) -> Pass {
        Pass {
            size,
            hasher: TagHasher::new(),
            scanner,
            carry: Vec::new(),
            census: None,
            first: true,
            sniffed: 0,
            encoding: TextEncoding::Utf8,
        }
    }

    /// Where the text starts: after the BOM, if there is one.
    fn body_start(&self) -> u64 {
        self.encoding.bom().len() as u64
    }

    /// Takes the next chunk of the file (the BOM, when there is one, is in the first chunk:
    /// chunks are at least 3 bytes long except the last).
    fn process(&mut self, mut chunk: &[u8]) -> Result<(), ScanStop> {
        self.hasher.update(chunk);
        if self.first {
            self.first = false;
            match sniff_bom(chunk) {
                Some(TextEncoding::Utf8Bom) => {
                    self.encoding = TextEncoding::Utf8Bom;
                    chunk = &chunk[3..];
                }
                Some(_) => return Err(ScanStop::Wide),
                None => {}
            }
        }
        if self.sniffed < BINARY_SNIFF_BYTES {
            let look = &chunk[..chunk.len().min(BINARY_SNIFF_BYTES - self.sniffed)];
            if memchr::memchr(0, look).is_some() {
                return Err(ScanStop::Binary(self.size));
            }
            self.sniffed += look.len();
        }
        // One pass says whether the chunk needs UTF-8 validation and a CRLF count at all.
        let found = survey(chunk);
        if let Some(census) = &mut self.census {
            census.take(chunk);
        } else if !found.ascii || !self.carry.is_empty() {
            validate_utf8(&mut self.carry, chunk)?;
        }
        self.scanner.feed(chunk, Some(found));
        Ok(())
    }

    fn finish(self) -> Result<Scan, ScanStop> {
        if !self.carry.is_empty() {
            return Err(ScanStop::NotUtf8);
        }
        let bom = self.body_start();
        let mut scan = self.scanner.finish(self.hasher.tag(), self.encoding);
        if let Some(mut census) = self.census {
            census.finish();
            scan.invalid = census.first.map(|at| (bom + at, census.places));
        }
        Ok(scan)
    }
}

/// Validates `chunk` as the continuation of a UTF-8 stream whose previous chunk left an
/// incomplete sequence in `carry`.
fn validate_utf8(carry: &mut Vec<u8>, chunk: &[u8]) -> Result<(), ScanStop> {
    let mut rest = chunk;
    if !carry.is_empty() {
        // Finish the carried sequence: its lead byte says how long it is.
        let width = match carry[0] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return Err(ScanStop::NotUtf8),
        };
        let need = width - carry.len();
        if rest.len() < need {
            carry.extend_from_slice(rest);
            return match std::str::from_utf8(carry) {
                Err(e) if e.error_len().is_none() => Ok(()),
                _ => Err(ScanStop::NotUtf8),
            };
        }
        carry.extend_from_slice(&rest[..need]);
        if std::str::from_utf8(carry).is_err() {
            return Err(ScanStop::NotUtf8);
        }
        carry.clear();
        rest = &rest[need..];
    }
    // The SIMD validator (runtime dispatch) runs at memory speed on any text, not only ASCII.
    match simdutf8::compat::from_utf8(rest) {
        Ok(_) => Ok(()),
        Err(e) if e.error_len().is_none() => {
            carry.extend_from_slice(&rest[e.valid_up_to()..]);
            Ok(())
        }
        Err(_) => Err(ScanStop::NotUtf8),
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
