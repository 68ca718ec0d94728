//! Which parts of an edited text are still the original text, and a check of spec 01's
//! invariant: every byte outside the replaced regions is identical to the original.
//!
//! [`Pieces`] follows a `\n`-normalised text (an [`EditableText`]'s [`EditableText::text`])
//! through a sequence of replacements in the coordinates of the text as it is after each
//! one. At the end it knows every unchanged original range and where it now sits
//! ([`Pieces::kept`]), and the replaced regions in final coordinates ([`Pieces::changed`]),
//! which the write tools show back to the caller. [`verify_kept`] then compares the encoded
//! bytes of every kept range in the old and the new file.

use std::collections::VecDeque;
use std::ops::Range;

use encoding_rs::{GB18030, GBK};

use super::editable::{EditableText, TextEncoding};

/// One run of the current text: original text starting at `orig`, or new text (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seg {
    orig: Option<usize>,
    len: usize,
}

/// The original/new layout of an edited text. Offsets are bytes of the `\n`-normalised text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pieces {
    segs: Vec<Seg>,
}

impl Pieces {
    /// An unedited text of `len` bytes.
    pub fn new(len: usize) -> Pieces {
        let segs = if len == 0 {
            Vec::new()
        } else {
            vec![Seg { orig: Some(0), len }]
        };
        Pieces { segs }
    }

    /// The current text length in bytes.
    pub fn len(&self) -> usize {
        self.segs.iter().map(|s| s.len).sum()
    }

    /// Whether the current text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records that each of `ranges` (current coordinates, sorted, non-overlapping) was
    /// replaced by new text of `new_lens[i]` bytes. A replacement by nothing is kept as an
    /// empty new run, so the place of a deletion is still known. Panics when the lengths
    /// differ or a range is out of bounds.
    pub fn replace(&mut self, ranges: &[Range<usize>], new_lens: &[usize]) {
        assert_eq!(ranges.len(), new_lens.len());
        let mut input: VecDeque<Seg> = std::mem::take(&mut self.segs).into();
        let mut out: Vec<Seg> = Vec::with_capacity(input.len() + 2 * ranges.len());
        let mut pos = 0;
        for (r, &n) in ranges.iter().zip(new_lens) {
            assert!(pos <= r.start && r.start <= r.end, "ranges must be sorted");
            // Copy the runs before the range, splitting the one it starts in.
            while pos < r.start {
                let s = input.pop_front().expect("range out of bounds");
                if pos + s.len <= r.start {
                    pos += s.len;
                    out.push(s);
                } else {
                    let (head, tail) = split(s, r.start - pos);
                    out.push(head);
                    input.push_front(tail);
                    pos = r.start;
                }
            }
            // Drop what the range covers.
            while pos < r.end {
                let s = input.pop_front().expect("range out of bounds");
                if pos + s.len <= r.end {
                    pos += s.len;
                } else {
                    input.push_front(split(s, r.end - pos).1);
                    pos = r.end;
                }
            }
            out.push(Seg { orig: None, len: n });
        }
        out.extend(input);
        self.segs = out;
    }

    /// [`Pieces::replace`] for one range.
    pub fn replace_one(&mut self, range: Range<usize>, new_len: usize) {
        self.replace(std::slice::from_ref(&range), &[new_len]);
    }

    /// Every unchanged original range, with the offset where it now starts, in order.
    pub fn kept(&self) -> Vec<(Range<usize>, usize)> {
        let mut pos = 0;
        let mut out = Vec::new();
        for s in &self.segs {
            if let Some(o) = s.orig {
                out.push((o..o + s.len, pos));
            }
            pos += s.len;
        }
        out
    }

    /// The replaced regions in current coordinates, adjacent ones merged. An empty range
    /// marks where text was only removed.
    pub fn changed(&self) -> Vec<Range<usize>> {
        let mut pos = 0;
        let mut out: Vec<Range<usize>> = Vec::new();
        for s in &self.segs {
            if s.orig.is_none() {
                match out.last_mut() {
                    Some(last) if last.end == pos => last.end = pos + s.len,
                    _ => out.push(pos..pos + s.len),
                }
            }
            pos += s.len;
        }
        out
    }
}

/// Splits a run after its first `k` bytes.
fn split(s: Seg, k: usize) -> (Seg, Seg) {
    (
        Seg {
            orig: s.orig,
            len: k,
        },
        Seg {
            orig: s.orig.map(|o| o + k),
            len: s.len - k,
        },
    )
}

/// Checks spec 01's invariant on encoded bytes: every range [`Pieces::kept`] reports is
/// encoded identically in `before` (the file as it was, decoded as `original`) and `after`
/// (the bytes about to be written, encoded from `edited`). `Err` names the first range that
/// differs. Costs one pass over both texts; the write tools call it in debug builds.
pub fn verify_kept(
    original: &EditableText,
    before: &[u8],
    edited: &EditableText,
    after: &[u8],
    pieces: &Pieces,
) -> Result<(), String> {
    let mut old = Cursor::new(original);
    let mut new = Cursor::new(edited);
    for (range, at) in pieces.kept() {
        let old_start = old.advance_to(range.start);
        let old_end = old.advance_to(range.end);
        let new_start = new.advance_to(at);
        let new_end = new.advance_to(at + range.len());
        let a = before.get(old_start..old_end);
        let b = after.get(new_start..new_end);
        if a.is_none() || a != b {
            return Err(format!(
                "kept text {range:?} (now at {at}) changed: bytes {old_start}..{old_end} of the \
                 original are not bytes {new_start}..{new_end} of the result"
            ));
        }
    }
    Ok(())
}

/// Walks a text, turning text offsets into offsets in its encoded bytes.
struct Cursor<'t> {
    text: &'t EditableText,
    pos: usize,
    bytes: usize,
    breaks: usize,
}

impl<'t> Cursor<'t> {
    fn new(text: &'t EditableText) -> Cursor<'t> {
        Cursor {
            text,
            pos: 0,
            bytes: text.encoding().bom().len(),
            breaks: 0,
        }
    }

    /// Moves to text offset `to` (not before the current one) and returns its byte offset.
    fn advance_to(&mut self, to: usize) -> usize {
        let span = &self.text.text()[self.pos..to];
        let unit = match self.text.encoding() {
            TextEncoding::Utf16Le | TextEncoding::Utf16Be => 2,
            TextEncoding::Utf32Le | TextEncoding::Utf32Be => 4,
            _ => 1,
        };
        for line in span.split_inclusive('\n') {
            let (body, brk) = match line.strip_suffix('\n') {
                Some(b) => (b, true),
                None => (line, false),
            };
            self.bytes += encoded_len(self.text.encoding(), body);
            if brk {
                let eol = self
                    .text
                    .eols()
                    .get(self.breaks)
                    .map_or(1, |e| e.as_str().len());
                self.bytes += eol * unit;
                self.breaks += 1;
            }
        }
        self.pos = to;
        self.bytes
    }
}

/// Bytes `s` (no line breaks) takes in `enc`.
fn encoded_len(enc: TextEncoding, s: &str) -> usize {
    match enc {
        TextEncoding::Utf8 | TextEncoding::Utf8Bom => s.len(),
        TextEncoding::Utf16Le | TextEncoding::Utf16Be => s.encode_utf16().count() * 2,
        TextEncoding::Utf32Le | TextEncoding::Utf32Be => s.chars().count() * 4,
        TextEncoding::Gbk | TextEncoding::Gb18030 => {
            let table = if enc == TextEncoding::Gbk {
                GBK
            } else {
                GB18030
            };
            let mut buf = [0u8; 4];
            s.chars()
                .map(|c| {
                    if c.is_ascii() {
                        1
                    } else {
                        table.encode(c.encode_utf8(&mut buf)).0.len()
                    }
                })
                .sum()
        }
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    #[test]
    fn one_replacement() {
        let mut p = Pieces::new(10);
        p.replace(&[3..5], &[4]);
        assert_eq!(p.kept(), vec![(0..3, 0), (5..10, 7)]);
        assert_eq!(p.changed(), vec![3..7]);
        assert_eq!(p.len(), 12);
    }

    #[test]
    fn many_and_across_earlier_edits() {
        let mut p = Pieces::new(20);
        p.replace(&[0..2, 5..5, 18..20], &[1, 3, 0]);
        // now: N1 [2..5) N3 [5..18) N0 : len 1+3+3+13 = 20
        assert_eq!(p.kept(), vec![(2..5, 1), (5..18, 7)]);
        assert_eq!(p.changed(), vec![0..1, 4..7, 20..20]);
        // A range spanning new and old text merges into one region.
        p.replace(&[0..6], &[2]);
        assert_eq!(p.kept(), vec![(5..18, 3)]);
        assert_eq!(p.changed(), vec![0..3, 16..16]);
        // Insertion at the very end.
        let end = p.len();
        p.replace(&[end..end], &[5]);
        assert_eq!(p.changed(), vec![0..3, 16..21]);
    }

    #[test]
    fn range_over_several_runs() {
        let mut p = Pieces::new(30);
        p.replace(&[10..12, 20..22], &[2, 2]);
        p.replace(&[5..25], &[1]);
        assert_eq!(p.kept(), vec![(0..5, 0), (25..30, 6)]);
        assert_eq!(p.changed(), vec![5..6]);
    }

    #[test]
    fn empty_text() {
        let mut p = Pieces::new(0);
        p.replace(&[0..0], &[3]);
        assert_eq!(p.changed(), vec![0..3]);
        assert!(p.kept().is_empty());
    }

    #[test]
    fn verify_catches_a_changed_terminator() {
        let bytes = b"a\r\nb\r\nc\r\n";
        let original = EditableText::decode(bytes).unwrap();
        let mut edited = original.clone();
        edited.replace_range(2..3, "B");
        let mut p = Pieces::new(original.text().len());
        p.replace(&[2..3], &[1]);
        let good = edited.encode().unwrap();
        assert_eq!(verify_kept(&original, bytes, &edited, &good, &p), Ok(()));
        let bad = b"a\nB\r\nc\r\n";
        assert!(verify_kept(&original, bytes, &edited, bad, &p).is_err());
    }

    #[test]
    fn verify_wide_encodings() {
        let text = "x\u{e9}\r\ny\u{1F600}\nz";
        for enc in [
            TextEncoding::Utf16Le,
            TextEncoding::Utf16Be,
            TextEncoding::Utf32Le,
        ] {
            let mut bytes = enc.bom().to_vec();
            match enc {
                TextEncoding::Utf16Le => text
                    .encode_utf16()
                    .for_each(|u| bytes.extend(u.to_le_bytes())),
                TextEncoding::Utf16Be => text
                    .encode_utf16()
                    .for_each(|u| bytes.extend(u.to_be_bytes())),
                _ => text
                    .chars()
                    .for_each(|c| bytes.extend((c as u32).to_le_bytes())),
            }
            let original = EditableText::decode(&bytes).unwrap();
            let mut edited = original.clone();
            let at = original.text().find('y').unwrap();
            edited.replace_range(at..at + 1, "Y\nY");
            let mut p = Pieces::new(original.text().len());
            p.replace(&[at..at + 1], &[3]);
            let after = edited.encode().unwrap();
            assert_eq!(verify_kept(&original, &bytes, &edited, &after, &p), Ok(()));
        }
    }
}
