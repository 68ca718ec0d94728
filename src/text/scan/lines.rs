//! The line splitter of the streaming scan: it takes the text chunk by chunk, counts lines
//! and terminators (in bulk, from a [`survey`], in the chunks that hold no kept line), and
//! keeps the lines of a window within [`MAX_SHOWN_BYTES`].

use std::collections::VecDeque;

use super::super::editable::TextEncoding;
use super::super::render::MAX_LINE_BYTES;
use super::super::survey::{Survey, survey};
use super::super::tag::LineHasher;
use super::census::lossy_prefix;
use super::{KEEP, MAX_SHOWN_BYTES, Scan, ScannedLine, shown_cost};

/// How kept lines are made.
#[derive(Debug, Clone, Copy)]
pub(super) struct LineOpts {
    /// Hash each kept line for anchors.
    pub hash: bool,
    /// Show bytes that are not UTF-8 as U+FFFD (the text is not UTF-8: a lossy scan).
    pub lossy: bool,
}

/// The line being read.
struct LineState {
    number: usize,
    len: u64,
    keep: Vec<u8>,
    hash: LineHasher,
}

/// Splits text into lines, keeping those of a window (`first..=last`) and counting the rest.
pub(super) struct Scanner {
    window: Option<(usize, usize)>,
    cur: LineState,
    /// The last chunk ended in a CR that ended a line: an LF first in the next chunk makes it
    /// a CRLF.
    pending_cr: bool,
    eols: (u64, u64, u64),
    kept: VecDeque<ScannedLine>,
    /// The [`shown_cost`] of the kept lines.
    kept_bytes: usize,
    /// Past [`MAX_SHOWN_BYTES`], drop the first kept lines (a tail) instead of ending the
    /// window (a range).
    pub(super) drop_front: bool,
    /// Lines were left out for [`MAX_SHOWN_BYTES`].
    over_budget: bool,
    /// How kept lines are made.
    pub(super) opts: LineOpts,
}

impl Scanner {
    /// A scanner whose first line is number `first_number`, keeping the lines of `window`.
    pub(super) fn new(window: Option<(usize, usize)>, first_number: usize) -> Scanner {
        Scanner {
            window,
            cur: LineState {
                number: first_number,
                len: 0,
                keep: Vec::new(),
                hash: LineHasher::new(),
            },
            pending_cr: false,
            eols: (0, 0, 0),
            kept: VecDeque::new(),
            kept_bytes: 0,
            drop_front: false,
            over_budget: false,
            opts: LineOpts {
                hash: true,
                lossy: false,
            },
        }
    }

    fn wanted(&self, n: usize) -> bool {
        self.window
            .is_some_and(|(first, last)| n >= first && n <= last)
    }

    /// Takes the next bytes; `found` is their [`survey`] when the caller already made it.
    pub(super) fn feed(&mut self, mut chunk: &[u8], mut found: Option<Survey>) {
        if self.pending_cr && !chunk.is_empty() {
            self.pending_cr = false;
            if chunk[0] == b'\n' {
                self.eols.1 += 1;
                chunk = &chunk[1..];
                if let Some(f) = &mut found {
                    f.lf -= 1;
                }
            } else {
                self.eols.2 += 1;
            }
        }
        if chunk.is_empty() {
            return;
        }
        let n = self.cur.number;
        match self.window {
            Some((_, last)) if n > last => self.count(chunk, Some(Counts::of(chunk, found))),
            Some((first, _)) => {
                let counts = Counts::of(chunk, found);
                // This chunk holds lines n ..= n + terminators: split it only when one of
                // them is shown.
                if n + counts.terminators() < first {
                    self.count(chunk, Some(counts));
                } else {
                    self.split(chunk);
                }
            }
            None => self.count(chunk, Some(Counts::of(chunk, found))),
        }
    }

    /// Counts a chunk none of whose lines is kept (the bulk path).
    fn count(&mut self, chunk: &[u8], counts: Option<Counts>) {
        let c = counts.unwrap_or_else(|| Counts::of(chunk, None));
        self.eols.0 += c.lf - c.crlf;
        self.eols.1 += c.crlf;
        self.eols.2 += c.cr - c.crlf - u64::from(c.ends_in_cr);
        self.pending_cr = c.ends_in_cr;
        let terminators = c.terminators();
        self.cur.number += terminators;
        // Only a chunk that ends a line is searched for its last terminator.
        match (terminators > 0)
            .then(|| memchr::memrchr2(b'\n', b'\r', chunk))
            .flatten()
        {
            Some(p) => self.cur.len = (chunk.len() - p - 1) as u64,
            None => self.cur.len += chunk.len() as u64,
        }
    }

    /// Splits a chunk line by line (the chunks that hold kept lines).
    fn split(&mut self, chunk: &[u8]) {
        let mut i = 0;
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

    fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.wanted(self.cur.number) {
            let room = KEEP.saturating_sub(self.cur.keep.len());
            self.cur
                .keep
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
            if self.opts.hash {
                self.cur.hash.update(bytes);
            }
        }
        self.cur.len += bytes.len() as u64;
    }

    fn end_line(&mut self) {
        let n = self.cur.number;
        if self.wanted(n) {
            let keep = std::mem::take(&mut self.cur.keep);
            let line = if self.opts.lossy {
                // `len` counts the shown text and the bytes after it: the cut mark says
                // how many bytes of the file are not shown.
                let (text, used) = lossy_prefix(&keep, MAX_LINE_BYTES);
                ScannedLine {
                    number: n,
                    len: text.len() as u64 + (self.cur.len - used as u64),
                    text,
                    hash: self.cur.hash.value(),
                }
            } else {
                ScannedLine {
                    number: n,
                    text: cut_utf8(&keep, MAX_LINE_BYTES),
                    len: self.cur.len,
                    hash: self.cur.hash.value(),
                }
            };
            self.keep_line(line);
        }
        self.cur.number += 1;
        self.cur.len = 0;
        self.cur.keep.clear();
        self.cur.hash = LineHasher::new();
    }

    /// Keeps `line` within [`MAX_SHOWN_BYTES`]: past it a range ends (no later line is
    /// wanted) and a tail drops its first lines. The first line is always kept.
    fn keep_line(&mut self, line: ScannedLine) {
        let cost = shown_cost(&line);
        if !self.drop_front && !self.kept.is_empty() && self.kept_bytes + cost > MAX_SHOWN_BYTES {
            self.over_budget = true;
            if let Some((first, _)) = self.window {
                self.window = Some((first, line.number - 1));
            }
            return;
        }
        self.kept_bytes += cost;
        self.kept.push_back(line);
        while self.kept_bytes > MAX_SHOWN_BYTES && self.kept.len() > 1 {
            if let Some(dropped) = self.kept.pop_front() {
                self.kept_bytes -= shown_cost(&dropped);
                self.over_budget = true;
            }
        }
    }

    /// Ends the text: the counts and the kept lines.
    pub(super) fn finish(mut self, tag: String, encoding: TextEncoding) -> Scan {
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
            over_budget: self.over_budget,
            invalid: None,
        }
    }

    /// Ends the text: only the kept lines, and whether lines were left out for the budget.
    pub(super) fn finish_lines(self) -> (Vec<ScannedLine>, bool) {
        let scan = self.finish(String::new(), TextEncoding::Utf8);
        (scan.lines, scan.over_budget)
    }
}

/// The terminator bytes of one chunk (after any CR pending from the chunk before).
#[derive(Debug, Clone, Copy)]
struct Counts {
    lf: u64,
    cr: u64,
    crlf: u64,
    /// The chunk's last byte is a CR: it ends a line, and an LF first in the next chunk
    /// would make it a CRLF, so it is not classified yet (it is in `cr`).
    ends_in_cr: bool,
}

impl Counts {
    /// The counts of `chunk`, whose [`survey`] is `found` when already made.
    fn of(chunk: &[u8], found: Option<Survey>) -> Counts {
        let found = found.unwrap_or_else(|| survey(chunk));
        let lf = found.lf;
        if !found.has_cr {
            return Counts {
                lf,
                cr: 0,
                crlf: 0,
                ends_in_cr: false,
            };
        }
        Counts {
            lf,
            cr: memchr::memchr_iter(b'\r', chunk).count() as u64,
            crlf: memchr::memmem::find_iter(chunk, b"\r\n").count() as u64,
            ends_in_cr: chunk.last() == Some(&b'\r'),
        }
    }

    /// Line breaks in the chunk: every LF, and every CR not followed by an LF.
    fn terminators(&self) -> usize {
        (self.lf + self.cr - self.crlf) as usize
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
