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

/// Property tests: random text in random encodings and line endings, random edits through
/// every editing entry point; every byte outside the edit stays the original one.
#[cfg(test)]
mod props {
    use super::*;
    use crate::text::editable::Eol;
    use proptest::prelude::*;
    use proptest::sample::Index;

    const ENCODINGS: [TextEncoding; 7] = [
        TextEncoding::Utf8,
        TextEncoding::Utf8Bom,
        TextEncoding::Utf16Le,
        TextEncoding::Utf16Be,
        TextEncoding::Utf32Le,
        TextEncoding::Utf32Be,
        TextEncoding::Gbk,
    ];

    /// Encodes by hand (independently of `EditableText::encode`).
    fn encode(enc: TextEncoding, s: &str) -> Vec<u8> {
        let mut out = enc.bom().to_vec();
        match enc {
            TextEncoding::Utf16Le => s.encode_utf16().for_each(|u| out.extend(u.to_le_bytes())),
            TextEncoding::Utf16Be => s.encode_utf16().for_each(|u| out.extend(u.to_be_bytes())),
            TextEncoding::Utf32Le => s.chars().for_each(|c| out.extend((c as u32).to_le_bytes())),
            TextEncoding::Utf32Be => s.chars().for_each(|c| out.extend((c as u32).to_be_bytes())),
            TextEncoding::Gbk | TextEncoding::Gb18030 => {
                out.extend_from_slice(&GBK.encode(s).0);
            }
            TextEncoding::Utf8 | TextEncoding::Utf8Bom => out.extend_from_slice(s.as_bytes()),
        }
        out
    }

    /// The characters of `text[range]` with each line break's original terminator.
    fn restored(t: &EditableText, range: Range<usize>) -> String {
        let mut idx = memchr::memchr_iter(b'\n', &t.text().as_bytes()[..range.start]).count();
        let mut out = String::new();
        for c in t.text()[range].chars() {
            if c == '\n' {
                out.push_str(t.eols()[idx].as_str());
                idx += 1;
            } else {
                out.push(c);
            }
        }
        out
    }

    fn alphabet(enc: TextEncoding) -> Vec<char> {
        let mut a = vec!['a', 'b', ' ', '\t', 'x', '中', '文'];
        if enc != TextEncoding::Gbk {
            a.extend(['é', '\u{1F600}', '\u{a0}']);
        }
        a
    }

    fn text_strategy() -> impl Strategy<Value = (TextEncoding, String)> {
        (0..ENCODINGS.len()).prop_flat_map(|e| {
            let enc = ENCODINGS[e];
            let chars = alphabet(enc);
            let line = proptest::collection::vec(proptest::sample::select(chars), 0..12)
                .prop_map(|v| v.into_iter().collect::<String>());
            let term = proptest::sample::select(vec!["\n", "\r\n", "\r"]);
            (
                proptest::collection::vec((line, term), 0..12),
                any::<bool>(),
            )
                .prop_map(move |(lines, final_nl)| {
                    let mut s = String::new();
                    let n = lines.len();
                    for (i, (l, t)) in lines.into_iter().enumerate() {
                        s.push_str(&l);
                        if i + 1 < n || final_nl {
                            s.push_str(t);
                        }
                    }
                    (enc, s)
                })
        })
    }

    fn new_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            proptest::sample::select(vec!['n', 'E', 'W', '\n', ' ', '中']),
            0..10,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    /// A char boundary of `s` picked by `i`.
    fn boundary(s: &str, i: Index) -> usize {
        let bounds: Vec<usize> = s
            .char_indices()
            .map(|(b, _)| b)
            .chain(std::iter::once(s.len()))
            .collect();
        bounds[i.index(bounds.len())]
    }

    /// The invariant for one edited range, checked from first principles.
    fn check_outside(
        orig: &EditableText,
        before: &[u8],
        edited: &EditableText,
        after: &[u8],
        range: Range<usize>,
        pieces: &Pieces,
    ) -> Result<(), TestCaseError> {
        let prefix = encode(orig.encoding(), &restored(orig, 0..range.start));
        let mut suffix = encode(
            orig.encoding(),
            &restored(orig, range.end..orig.text().len()),
        );
        suffix.drain(..orig.encoding().bom().len());
        prop_assert!(after.starts_with(&prefix), "prefix changed");
        prop_assert!(after.ends_with(&suffix), "suffix changed");
        prop_assert!(after.len() >= prefix.len() + suffix.len());
        prop_assert!(before.starts_with(&prefix) && before.ends_with(&suffix));
        prop_assert_eq!(verify_kept(orig, before, edited, after, pieces), Ok(()));
        // A CR break right before the LF of an empty line reads back as one CRLF. Only a
        // deletion between two untouched breaks may bring them together; a break the edit
        // wrote never takes part in such a pair.
        let pairs = ambiguous_pairs(edited);
        let changed = pieces.changed();
        let new_at = |p: usize| changed.iter().any(|r| r.start <= p && p < r.end);
        for (p, q) in &pairs {
            prop_assert!(!new_at(*p) && !new_at(*q), "a new break merges at {}", p);
        }
        if pairs.is_empty() {
            let back = EditableText::decode(after).unwrap();
            prop_assert_eq!(back.text(), edited.text());
        }
        Ok(())
    }

    /// Positions of (CR break, LF break of the empty line right after it).
    fn ambiguous_pairs(t: &EditableText) -> Vec<(usize, usize)> {
        let pos: Vec<usize> = memchr::memchr_iter(b'\n', t.text().as_bytes()).collect();
        (1..pos.len())
            .filter(|&i| {
                pos[i] == pos[i - 1] + 1 && t.eols()[i - 1] == Eol::Cr && t.eols()[i] == Eol::Lf
            })
            .map(|i| (pos[i - 1], pos[i]))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn replace_range_changes_nothing_outside(
            (enc, raw) in text_strategy(),
            a in any::<Index>(),
            b in any::<Index>(),
            new in new_text(),
        ) {
            let before = encode(enc, &raw);
            let orig = EditableText::decode(&before).unwrap();
            prop_assert_eq!(orig.encode().unwrap(), before.clone(), "round trip");
            let (x, y) = (boundary(orig.text(), a), boundary(orig.text(), b));
            let range = x.min(y)..x.max(y);
            let mut edited = orig.clone();
            edited.replace_range(range.clone(), &new);
            let mut pieces = Pieces::new(orig.text().len());
            pieces.replace_one(range.clone(), new.len());
            let after = edited.encode().unwrap();
            check_outside(&orig, &before, &edited, &after, range, &pieces)?;
            // Added line breaks take the dominant terminator (unless it would merge with a
            // neighbour), the replaced ones their own.
            let added = new.matches('\n').count();
            let removed = orig.text()[x.min(y)..x.max(y)].matches('\n').count();
            if added > removed && !orig.eols().contains(&Eol::Cr) {
                let first = orig.text()[..x.min(y)].matches('\n').count();
                let extra = &edited.eols()[first + removed..first + added];
                prop_assert!(extra.iter().all(|e| *e == orig.dominant_eol()));
            }
        }

        #[test]
        fn replace_ranges_and_lines_change_nothing_outside(
            (enc, raw) in text_strategy(),
            picks in proptest::collection::vec(any::<Index>(), 0..6),
            new in new_text(),
            l1 in any::<Index>(),
            l2 in any::<Index>(),
            lines in proptest::collection::vec("[a-z中]{0,4}", 0..4),
        ) {
            let before = encode(enc, &raw);
            let orig = EditableText::decode(&before).unwrap();
            // Several disjoint ranges at once.
            let mut cuts: Vec<usize> = picks.iter().map(|i| boundary(orig.text(), *i)).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let ranges: Vec<Range<usize>> = cuts.chunks_exact(2).map(|c| c[0]..c[1]).collect();
            let mut edited = orig.clone();
            edited.replace_ranges(&ranges, &new);
            let mut pieces = Pieces::new(orig.text().len());
            pieces.replace(&ranges, &vec![new.len(); ranges.len()]);
            let after = edited.encode().unwrap();
            prop_assert_eq!(verify_kept(&orig, &before, &edited, &after, &pieces), Ok(()));
            if let (Some(f), Some(l)) = (ranges.first(), ranges.last()) {
                check_outside(&orig, &before, &edited, &after, f.start..l.end, &pieces)?;
            }
            // Whole lines.
            let count = orig.line_count();
            let (s, e) = (l1.index(count + 1), l2.index(count + 1));
            let (s, e) = (s.min(e), s.max(e));
            let mut edited = orig.clone();
            let (range, new_len) = edited.replace_lines(s, e, &lines);
            let mut pieces = Pieces::new(orig.text().len());
            pieces.replace_one(range.clone(), new_len);
            let after = edited.encode().unwrap();
            check_outside(&orig, &before, &edited, &after, range, &pieces)?;
            // (An empty last line without a terminator cannot exist: "a\n" is one line.)
            let orig_lines: Vec<&str> = orig.lines().collect();
            let intended_last = if e < count {
                orig_lines.last().copied()
            } else if let Some(l) = lines.last() {
                Some(l.as_str())
            } else if s > 0 {
                Some(orig_lines[s - 1])
            } else {
                None
            };
            let empty_tail = intended_last == Some("");
            if !orig.text().is_empty() && !edited.text().is_empty() && !empty_tail {
                prop_assert_eq!(edited.has_final_newline(), orig.has_final_newline());
            }
        }
    }
}
