//! One streaming pass over a file for read-file (spec 02, "Cost"): the content tag of the
//! whole file, its line count and terminator kinds, UTF-8 validation, and the lines of a
//! window, in bounded memory. A 1 GiB file with `limit 20` costs a 256 KiB buffer plus at most
//! `MAX_LINE_BYTES + 4` bytes per shown line.

use std::collections::VecDeque;
use std::io::{self, Read};

use super::editable::{BINARY_SNIFF_BYTES, TextEncoding, sniff_bom};
use super::render::MAX_LINE_BYTES;
use super::tag::{RunHash, SplitRun, TagHasher, format_tag};

const CHUNK: usize = 256 * 1024;
/// Bytes kept of each shown line: enough to cut at a char boundary at or before 500 bytes.
const KEEP: usize = MAX_LINE_BYTES + 4;

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

struct LineState {
    number: usize,
    len: u64,
    keep: Vec<u8>,
    hash: TagHasher,
}

/// Files at least this big are hashed on a second thread while this one reads, validates and
/// splits lines. FNV-1a's only serial part is the low-byte chain (see `text::tag`): the second
/// thread runs it and about half of the rest of the hash; this thread finishes the other half of
/// each chunk when the chunk's buffer comes back, which keeps both threads about equally busy.
/// Smaller files are not worth a thread.
pub const PARALLEL_HASH_MIN_BYTES: u64 = 4 * 1024 * 1024;
/// Chunks in flight between the reading and the hashing thread (bounds memory: at most this
/// many + 1 buffers of [`CHUNK`] bytes).
const CHUNKS_IN_FLIGHT: usize = 4;

/// A chunk back from the hashing thread: its low-byte chain is done, and so is the hash of its
/// parts before `split`.
struct Hashed {
    chunk: Vec<u8>,
    run: SplitRun,
    first: RunHash,
    split: usize,
}

impl Hashed {
    /// Hashes the remaining parts; returns the state after the chunk, from state `h` (the state
    /// before it), and the buffer for reuse.
    fn finish(self, h: u32) -> (u32, Vec<u8>) {
        let rest = self
            .run
            .hash_parts(&self.chunk, self.split..self.run.parts());
        (self.first.then(rest).apply(h), self.chunk)
    }
}

/// Scans `reader` (whose total size is `size` bytes, for messages and for choosing the
/// strategy) once.
pub fn scan(reader: impl Read, size: u64, window: Window) -> Result<Scan, ScanStop> {
    if size >= PARALLEL_HASH_MIN_BYTES {
        scan_hashing_beside(reader, size, window)
    } else {
        scan_serial(reader, size, window)
    }
}

fn scan_serial(mut reader: impl Read, size: u64, window: Window) -> Result<Scan, ScanStop> {
    let mut buf = vec![0u8; CHUNK];
    let mut hasher = TagHasher::new();
    let mut pass = Pass::new(window, size);
    loop {
        let n = read_full(&mut reader, &mut buf).map_err(ScanStop::Io)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        pass.process(&buf[..n])?;
    }
    pass.finish(hasher.tag())
}

/// The same pass with the hash shared with a second thread. Buffers go to the hasher after this
/// thread has processed them and come back, in order, for this thread to finish their hash and
/// reuse them, so memory stays at a few chunks.
fn scan_hashing_beside(mut reader: impl Read, size: u64, window: Window) -> Result<Scan, ScanStop> {
    std::thread::scope(|scope| {
        let (to_hash, chunks) = std::sync::mpsc::sync_channel::<Vec<u8>>(CHUNKS_IN_FLIGHT);
        let (give_back, free) = std::sync::mpsc::channel::<Hashed>();
        let hasher = scope.spawn(move || {
            let mut low = TagHasher::new().value() as u8;
            for chunk in chunks {
                let run = SplitRun::new(low, &chunk);
                low = run.end_low_byte();
                let split = run.parts() / 2;
                let first = run.hash_parts(&chunk, 0..split);
                // The reader may have stopped early and dropped its end: nothing to do then.
                let _ = give_back.send(Hashed {
                    chunk,
                    run,
                    first,
                    split,
                });
            }
        });
        let stopped = || ScanStop::Io(io::Error::other("the hashing thread stopped"));
        let mut h = TagHasher::new().value();
        let mut pass = Pass::new(window, size);
        let mut allocated = 0;
        let outcome = loop {
            let mut buf = match free.try_recv() {
                Ok(hashed) => {
                    let (next, buf) = hashed.finish(h);
                    h = next;
                    buf
                }
                Err(_) if allocated <= CHUNKS_IN_FLIGHT => {
                    allocated += 1;
                    Vec::with_capacity(CHUNK)
                }
                Err(_) => match free.recv() {
                    Ok(hashed) => {
                        let (next, buf) = hashed.finish(h);
                        h = next;
                        buf
                    }
                    Err(_) => break Err(stopped()),
                },
            };
            buf.resize(CHUNK, 0);
            let n = match read_full(&mut reader, &mut buf) {
                Ok(n) => n,
                Err(e) => break Err(ScanStop::Io(e)),
            };
            if n == 0 {
                break Ok(());
            }
            buf.truncate(n);
            if let Err(stop) = pass.process(&buf) {
                break Err(stop);
            }
            if to_hash.send(buf).is_err() {
                break Err(stopped());
            }
        };
        drop(to_hash);
        if outcome.is_ok() {
            // The chunks still with the hasher come back in order once it has seen them all.
            for hashed in free.iter() {
                h = hashed.finish(h).0;
            }
        }
        hasher
            .join()
            .map_err(|_| ScanStop::Io(io::Error::other("the hashing thread panicked")))?;
        outcome?;
        pass.finish(format_tag(h))
    })
}

/// Everything but the hash: BOM, binary sniff, UTF-8 validation across chunk edges, lines.
struct Pass {
    size: u64,
    scanner: Scanner,
    /// An incomplete UTF-8 sequence from the previous chunk.
    carry: Vec<u8>,
    first: bool,
    sniffed: usize,
    encoding: TextEncoding,
}

impl Pass {
    fn new(window: Window, size: u64) -> Pass {
        Pass {
            size,
            scanner: Scanner::new(window),
            carry: Vec::new(),
            first: true,
            sniffed: 0,
            encoding: TextEncoding::Utf8,
        }
    }

    /// Takes the next chunk of the file (the BOM, when there is one, is in the first chunk:
    /// chunks are full reads of [`CHUNK`] bytes except the last).
    fn process(&mut self, mut chunk: &[u8]) -> Result<(), ScanStop> {
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
        validate_utf8(&mut self.carry, chunk)?;
        self.scanner.feed(chunk);
        Ok(())
    }

    fn finish(self, tag: String) -> Result<Scan, ScanStop> {
        if !self.carry.is_empty() {
            return Err(ScanStop::NotUtf8);
        }
        Ok(self.scanner.finish(tag, self.encoding))
    }
}

fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
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
    match std::str::from_utf8(rest) {
        Ok(_) => Ok(()),
        Err(e) if e.error_len().is_none() => {
            carry.extend_from_slice(&rest[e.valid_up_to()..]);
            Ok(())
        }
        Err(_) => Err(ScanStop::NotUtf8),
    }
}

struct Scanner {
    window: Window,
    cur: LineState,
    pending_cr: bool,
    eols: (u64, u64, u64),
    kept: VecDeque<ScannedLine>,
}

impl Scanner {
    fn new(window: Window) -> Scanner {
        Scanner {
            window,
            cur: LineState {
                number: 1,
                len: 0,
                keep: Vec::new(),
                hash: TagHasher::new(),
            },
            pending_cr: false,
            eols: (0, 0, 0),
            kept: VecDeque::new(),
        }
    }

    fn wanted(&self, n: usize) -> bool {
        match self.window {
            Window::Range { first, last } => n >= first && n <= last,
            Window::Tail(k) => k > 0,
        }
    }

    fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.wanted(self.cur.number) {
            let room = KEEP.saturating_sub(self.cur.keep.len());
            self.cur
                .keep
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
            self.cur.hash.update(bytes);
        }
        self.cur.len += bytes.len() as u64;
    }

    fn end_line(&mut self) {
        let n = self.cur.number;
        if self.wanted(n) {
            let keep = std::mem::take(&mut self.cur.keep);
            let text = cut_utf8(&keep, MAX_LINE_BYTES);
            self.kept.push_back(ScannedLine {
                number: n,
                text,
                len: self.cur.len,
                hash: self.cur.hash.value(),
            });
            if let Window::Tail(k) = self.window {
                while self.kept.len() > k {
                    self.kept.pop_front();
                }
            }
        }
        self.cur.number += 1;
        self.cur.len = 0;
        self.cur.keep.clear();
        self.cur.hash = TagHasher::new();
    }

    fn feed(&mut self, chunk: &[u8]) {
        let mut i = 0;
        if self.pending_cr {
            self.pending_cr = false;
            if chunk.first() == Some(&b'\n') {
                self.eols.1 += 1;
                i = 1;
            } else {
                self.eols.2 += 1;
            }
        }
        while i < chunk.len() {
            match memchr::memchr2(b'\n', b'\r', &chunk[i..]) {
                None => {
                    self.append(&chunk[i..]);
                    break;
                }
                Some(off) => {
                    let p = i + off;
                    self.append(&chunk[i..p]);
                    self.end_line();
                    if chunk[p] == b'\n' {
                        self.eols.0 += 1;
                        i = p + 1;
                    } else if p + 1 == chunk.len() {
                        self.pending_cr = true;
                        i = p + 1;
                    } else if chunk[p + 1] == b'\n' {
                        self.eols.1 += 1;
                        i = p + 2;
                    } else {
                        self.eols.2 += 1;
                        i = p + 1;
                    }
                }
            }
        }
    }

    fn finish(mut self, tag: String, encoding: TextEncoding) -> Scan {
        if self.pending_cr {
            self.eols.2 += 1;
        }
        let open_line = self.cur.len > 0;
        let ended = self.cur.number - 1;
        if open_line {
            self.end_line();
        }
        Scan {
            tag,
            encoding,
            total_lines: ended + usize::from(open_line),
            eols: self.eols,
            final_newline: !open_line && ended > 0,
            lines: self.kept.into_iter().collect(),
        }
    }
}

/// The longest prefix of `bytes` of at most `max` bytes that ends on a char boundary, as text.
fn cut_utf8(bytes: &[u8], max: usize) -> String {
    let mut end = bytes.len().min(max);
    loop {
        match std::str::from_utf8(&bytes[..end]) {
            Ok(s) => return s.to_owned(),
            Err(e) => end = e.valid_up_to().min(end.saturating_sub(1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bytes: &[u8], window: Window) -> Scan {
        scan(bytes, bytes.len() as u64, window)
            .map_err(|e| format!("{e:?}"))
            .unwrap()
    }

    #[test]
    fn counts_and_window() {
        let s = run(b"a\r\nb\nc\rd", Window::Range { first: 2, last: 3 });
        assert_eq!(s.total_lines, 4);
        assert_eq!(s.eols, (1, 1, 1));
        assert!(!s.final_newline);
        let texts: Vec<_> = s
            .lines
            .iter()
            .map(|l| (l.number, l.text.as_str()))
            .collect();
        assert_eq!(texts, [(2, "b"), (3, "c")]);
        assert_eq!(s.tag, crate::text::tag::content_tag(b"a\r\nb\nc\rd"));
    }

    #[test]
    fn tail_keeps_last_lines() {
        let s = run(b"1\n2\n3\n4\n", Window::Tail(2));
        let n: Vec<_> = s.lines.iter().map(|l| l.number).collect();
        assert_eq!(n, [3, 4]);
        assert!(s.final_newline);
        assert_eq!(s.total_lines, 4);
    }

    #[test]
    fn empty_and_blank() {
        let s = run(b"", Window::Range { first: 1, last: 10 });
        assert_eq!(s.total_lines, 0);
        let s = run(b"\n\n", Window::Range { first: 1, last: 10 });
        assert_eq!(s.total_lines, 2);
        assert_eq!(s.lines.len(), 2);
    }

    #[test]
    fn stops() {
        assert!(matches!(
            scan(&b"ab\0"[..], 3, Window::Tail(1)),
            Err(ScanStop::Binary(3))
        ));
        assert!(matches!(
            scan(&b"\xFF\xFEa\0"[..], 4, Window::Tail(1)),
            Err(ScanStop::Wide)
        ));
        assert!(matches!(
            scan(&b"caf\xE9\n"[..], 5, Window::Tail(1)),
            Err(ScanStop::NotUtf8)
        ));
    }

    #[test]
    fn utf8_split_across_chunks_is_valid() {
        let mut carry = Vec::new();
        let s = "é€😀".as_bytes();
        for split in 0..s.len() {
            carry.clear();
            validate_utf8(&mut carry, &s[..split]).unwrap();
            validate_utf8(&mut carry, &s[split..]).unwrap();
            assert!(carry.is_empty(), "split {split}");
        }
        carry.clear();
        validate_utf8(&mut carry, b"\xE2\x82").unwrap();
        assert!(validate_utf8(&mut carry, b"A").is_err());
    }

    #[test]
    fn crlf_split_across_chunks() {
        let mut s = Scanner::new(Window::Tail(10));
        s.feed(b"a\r");
        s.feed(b"\nb\r");
        s.feed(b"c");
        let r = s.finish(String::new(), TextEncoding::Utf8);
        assert_eq!(r.eols, (0, 1, 1));
        assert_eq!(r.total_lines, 3);
    }

    #[test]
    fn hashing_beside_gives_the_same_scan() {
        // Several chunks, a CRLF and a multi-byte char split at chunk edges, a BOM.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let mut n = 0;
        while bytes.len() < 3 * CHUNK + 1000 {
            n += 1;
            bytes.extend_from_slice(format!("line {n} \u{e9}t\u{e9}\r\n").as_bytes());
        }
        let size = bytes.len() as u64;
        for window in [Window::Range { first: 2, last: 4 }, Window::Tail(3)] {
            let a = scan_serial(&bytes[..], size, window)
                .map_err(|e| format!("{e:?}"))
                .unwrap();
            let b = scan_hashing_beside(&bytes[..], size, window)
                .map_err(|e| format!("{e:?}"))
                .unwrap();
            assert_eq!(a.tag, crate::text::tag::content_tag(&bytes));
            assert_eq!(a.tag, b.tag);
            assert_eq!(a.total_lines, b.total_lines);
            assert_eq!(a.eols, b.eols);
            assert_eq!(a.encoding, TextEncoding::Utf8Bom);
            let la: Vec<_> = a.lines.iter().map(|l| (l.number, l.text.clone())).collect();
            let lb: Vec<_> = b.lines.iter().map(|l| (l.number, l.text.clone())).collect();
            assert_eq!(la, lb);
        }
        let mut binary = bytes.clone();
        binary[100] = 0;
        assert!(matches!(
            scan_hashing_beside(&binary[..], size, Window::Tail(1)),
            Err(ScanStop::Binary(_))
        ));
    }

    #[test]
    fn long_line_kept_short_with_full_hash() {
        let line = "x".repeat(2000);
        let s = run(format!("{line}\n").as_bytes(), Window::Tail(1));
        assert_eq!(s.lines[0].len, 2000);
        assert_eq!(s.lines[0].text.len(), MAX_LINE_BYTES);
        assert_eq!(s.lines[0].hash, crate::text::tag::fnv1a32(line.as_bytes()));
    }
}
