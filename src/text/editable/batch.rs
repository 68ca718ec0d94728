//! Many line edits in one pass (spec 01 "Editable text"), for apply-patch: a patch with
//! thousands of hunks must cost one copy of the file, not one per hunk.

use std::ops::Range;

use super::{EditableText, Eol, TextEncoding};

/// Line edits of a text expressed as byte edits of its own bytes (see
/// [`EditableText::line_ranges_as_byte_edits`]): the new content is the old bytes with each
/// range `old` replaced by `bytes[new]`, so a large file patched in many places is written
/// from its own buffer and the new lines, never copied whole.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ByteEdits {
    /// `(old, new)`: the byte range `old` of the old content becomes `bytes[new]`. The old
    /// ranges are ascending and non-overlapping; empty ones at one offset keep their order.
    pub edits: Vec<(Range<usize>, Range<usize>)>,
    /// The new bytes of every edit, one after the other.
    pub bytes: Vec<u8>,
}

impl ByteEdits {
    /// The new content as consecutive slices of `old` (the bytes the edits were made for)
    /// and of the new bytes. Panics when an old range is out of order or out of bounds.
    pub fn parts<'a>(&'a self, old: &'a [u8]) -> Vec<&'a [u8]> {
        let mut parts = Vec::with_capacity(2 * self.edits.len() + 1);
        let mut at = 0;
        for (from, to) in &self.edits {
            parts.push(&old[at..from.start]);
            parts.push(&self.bytes[to.clone()]);
            at = from.end;
        }
        parts.push(&old[at..]);
        parts
    }

    /// The length in bytes of the new content made from `old_len` old bytes.
    pub fn new_len(&self, old_len: usize) -> usize {
        let removed: usize = self.edits.iter().map(|(from, _)| from.len()).sum();
        old_len - removed + self.bytes.len()
    }
}

impl EditableText {
    /// Replaces several line ranges at once. `edits` yields `(start, end, new_lines)`: lines
    /// `start..end` (0-based, end exclusive; `start == end` inserts before line `start`) are
    /// replaced by `new_lines` (without terminators). Ranges refer to the text before any edit
    /// and must be ascending and non-overlapping; several insertions at one position keep
    /// their order.
    ///
    /// The result is what [`EditableText::replace_lines`] applied from the last edit to the
    /// first gives, except that added lines take the dominant terminator of the original text
    /// throughout: a replacement line keeps the terminator of the line it replaces (in order),
    /// extra lines take the dominant one, untouched lines keep theirs, and whether the text
    /// ends with a terminator is kept (an empty text that gains lines ends with one).
    ///
    /// Panics when a range is out of bounds, reversed, or before the end of the previous one.
    pub fn replace_line_ranges<'a>(
        &mut self,
        edits: impl IntoIterator<Item = (usize, usize, &'a [String])>,
    ) {
        let old: Vec<&str> = self.lines().collect();
        let replaced = self.with_line_ranges_replaced(&old, edits);
        *self = replaced;
    }

    /// [`EditableText::replace_line_ranges`] as a new text, for a caller that already holds
    /// the lines of this text (`old_lines`, as [`EditableText::lines`] gives them), so they
    /// are not split twice. Runs of untouched lines are copied as one slice each.
    ///
    /// Panics as [`EditableText::replace_line_ranges`], or when `old_lines` are not this text's
    /// lines.
    pub fn with_line_ranges_replaced<'a>(
        &self,
        old_lines: &[&str],
        edits: impl IntoIterator<Item = (usize, usize, &'a [String])>,
    ) -> EditableText {
        let old = old_lines;
        assert_eq!(old.len(), self.line_count(), "the lines of another text");
        let dominant = self.dominant_eol();
        let keep_final = self.has_final_newline() || self.text.is_empty();
        let term = |i: usize| self.eols.get(i).copied();
        let mut out = Builder {
            text: String::with_capacity(self.text.len() + self.text.len() / 16),
            eols: Vec::with_capacity(self.eols.len()),
            open: None,
            open_fresh: false,
            open_start: 0,
            last_fresh: false,
            dominant,
        };
        let mut next = 0;
        for (start, end, lines) in edits {
            assert!(
                next <= start && start <= end && end <= old.len(),
                "line edits out of order or out of bounds"
            );
            out.push_kept(&self.text, old, next..start, &term);
            for (j, line) in lines.iter().enumerate() {
                let own = if start + j < end {
                    term(start + j)
                } else {
                    Some(dominant)
                };
                out.push(line, own, true);
            }
            next = end;
        }
        out.push_kept(&self.text, old, next..old.len(), &term);
        let (text, eols) = out.finish(keep_final);
        EditableText {
            encoding: self.encoding,
            text,
            eols,
        }
    }
}

impl EditableText {
    /// [`EditableText::with_line_ranges_replaced`] as byte edits of this text's bytes, when
    /// those bytes are its encoding: UTF-8 without a BOM, every terminator LF, and a final
    /// terminator (or no text at all). Then every line, kept or new, ends with one LF, and
    /// replacing lines `start..end` is replacing the bytes from the start of line `start` to
    /// the start of line `end` with the new lines, each followed by LF: the same bytes as
    /// [`EditableText::with_line_ranges_replaced`] then [`EditableText::into_encoded`] give.
    /// `None` for any other text (the caller builds the new text instead).
    ///
    /// Panics as [`EditableText::with_line_ranges_replaced`].
    pub fn line_ranges_as_byte_edits<'a>(
        &self,
        old_lines: &[&str],
        edits: impl IntoIterator<Item = (usize, usize, &'a [String])>,
    ) -> Option<ByteEdits> {
        let plain = self.encoding == TextEncoding::Utf8
            && (self.text.is_empty() || self.text.ends_with('\n'))
            && self.eols.iter().all(|e| *e == Eol::Lf);
        if !plain {
            return None;
        }
        let old = old_lines;
        assert_eq!(old.len(), self.line_count(), "the lines of another text");
        let base = self.text.as_ptr() as usize;
        let line_start = |i: usize| match old.get(i) {
            Some(line) => line.as_ptr() as usize - base,
            None => self.text.len(),
        };
        let mut out = ByteEdits::default();
        let mut next = 0;
        for (start, end, lines) in edits {
            assert!(
                next <= start && start <= end && end <= old.len(),
                "line edits out of order or out of bounds"
            );
            let from = out.bytes.len();
            for line in lines {
                out.bytes.extend_from_slice(line.as_bytes());
                out.bytes.push(b'\n');
            }
            out.edits
                .push((line_start(start)..line_start(end), from..out.bytes.len()));
            next = end;
        }
        Some(out)
    }

    /// The text `edits` (made by [`EditableText::line_ranges_as_byte_edits`] for a text
    /// whose bytes were `old`) give: the same text
    /// [`EditableText::with_line_ranges_replaced`] gives for those line edits.
    ///
    /// Panics when `old` and `edits` do not make UTF-8 (they always do for a pair made as
    /// above).
    pub fn from_byte_edits(old: &[u8], edits: &ByteEdits) -> EditableText {
        let text = String::from_utf8(edits.parts(old).concat())
            .expect("line edits of UTF-8 text are UTF-8");
        let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).count();
        EditableText {
            encoding: TextEncoding::Utf8,
            text,
            eols: vec![Eol::Lf; breaks],
        }
    }
}

/// Accumulates lines; a line's terminator is written when the next line arrives (or at the
/// end), because only then is it known whether the line is the last one.
struct Builder {
    text: String,
    eols: Vec<Eol>,
    /// The terminator wanted by the last pushed line (`None`: it had none, i.e. it was the
    /// unterminated last line of the original), or `None` when no line was pushed yet.
    open: Option<Option<Eol>>,
    /// Whether the open line's terminator may be chosen (a line of the edit), not kept.
    open_fresh: bool,
    /// Where the open line starts in `text`.
    open_start: usize,
    /// Whether the last terminator written was chosen rather than kept.
    last_fresh: bool,
    dominant: Eol,
}

impl Builder {
    /// Pushes the untouched lines `range` of `old` (slices of `base`, the text they come from)
    /// with their own terminators: the same as pushing them one by one, in one copy. Only the
    /// first line's terminator choice can depend on what came before (see [`Builder::close`]);
    /// between kept lines the rules never change a terminator, so the rest is copied as is.
    fn push_kept(
        &mut self,
        base: &str,
        old: &[&str],
        range: std::ops::Range<usize>,
        term: &impl Fn(usize) -> Option<Eol>,
    ) {
        let (first, last) = match (range.start, range.end.checked_sub(1)) {
            (first, Some(last)) if first <= last => (first, last),
            _ => return,
        };
        self.push(old[first], term(first), false);
        if first == last {
            return;
        }
        self.close();
        let offset = |line: &str| line.as_ptr() as usize - base.as_ptr() as usize;
        let from = offset(old[first + 1]);
        let to = offset(old[last]) + old[last].len();
        self.open_start = self.text.len() + (offset(old[last]) - from);
        self.text.push_str(&base[from..to]);
        // Lines first + 1 .. last - 1 are followed by another line: each has a terminator.
        self.eols
            .extend((first + 1..last).map(|i| term(i).expect("a line before another")));
        self.open = Some(term(last));
        self.open_fresh = false;
        self.last_fresh = false;
    }

    fn push(&mut self, line: &str, own: Option<Eol>, fresh: bool) {
        self.close();
        self.open_start = self.text.len();
        self.text.push_str(line);
        self.open = Some(own);
        self.open_fresh = fresh;
    }

    /// Terminates the open line: its own terminator, or the dominant one for a line that had
    /// none but is no longer last. A lone CR followed by the LF of an empty line would read
    /// back as one CRLF (a line lost), so a chosen terminator keeps the two apart: an empty
    /// line after a CR does not take LF, and a chosen CR before a kept empty LF line becomes
    /// CRLF. (Two kept terminators are never changed.)
    fn close(&mut self) {
        if let Some(own) = self.open.take() {
            let fresh = self.open_fresh || own.is_none();
            let mut eol = own.unwrap_or(self.dominant);
            let empty = self.text.len() == self.open_start;
            if empty && eol == Eol::Lf && self.eols.last() == Some(&Eol::Cr) {
                if fresh {
                    eol = Eol::Cr;
                } else if self.last_fresh
                    && let Some(prev) = self.eols.last_mut()
                {
                    *prev = Eol::CrLf;
                }
            }
            self.text.push('\n');
            self.eols.push(eol);
            self.last_fresh = fresh;
        }
    }

    fn finish(mut self, keep_final: bool) -> (String, Vec<Eol>) {
        if keep_final {
            self.close();
        }
        (self.text, self.eols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same edits applied with `replace_lines` from the last to the first.
    fn sequential(text: &EditableText, edits: &[(usize, usize, Vec<String>)]) -> EditableText {
        let mut t = text.clone();
        for (start, end, lines) in edits.iter().rev() {
            t.replace_lines(*start, *end, lines);
        }
        t
    }

    fn batch(text: &EditableText, edits: &[(usize, usize, Vec<String>)]) -> EditableText {
        let mut t = text.clone();
        t.replace_line_ranges(edits.iter().map(|(s, e, l)| (*s, *e, l.as_slice())));
        t
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// A small deterministic generator (xorshift) so the comparison covers many shapes.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn added_lines_never_merge_with_a_lone_cr() {
        // "a" ends in a lone CR in a mostly-LF file: an empty line added after it would take
        // LF and read back as part of one CRLF, losing the line.
        let text = EditableText::decode(b"a\rb\nc\nd\n").unwrap();
        let t = batch(&text, &[(1, 1, lines(&[""]))]);
        let back = EditableText::decode(&t.encode().unwrap()).unwrap();
        assert_eq!(back.text(), "a\n\nb\nc\nd\n");
        assert!(t.encode().unwrap().starts_with(b"a\r"), "the kept CR stays");
        // A line added before a kept empty LF line, after a CR-dominant run.
        let text = EditableText::decode(b"x\ry\rz\r\n\nw\r").unwrap();
        let t = batch(&text, &[(3, 3, lines(&["new"]))]);
        let back = EditableText::decode(&t.encode().unwrap()).unwrap();
        assert_eq!(back.text(), t.text());
    }

    #[test]
    fn matches_sequential_replace_lines_on_uniform_files() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..3000 {
            let eol = ["\n", "\r\n", "\r"][rng.below(3)];
            let count = rng.below(7);
            let mut raw: String = (0..count).map(|i| format!("l{i}{eol}")).collect();
            if count > 0 && rng.below(2) == 0 {
                raw.truncate(raw.len() - eol.len());
            }
            let text = EditableText::new_utf8(&raw);
            let mut edits = Vec::new();
            let mut next = 0;
            while next <= count && rng.below(3) != 0 {
                let start = next + rng.below(count - next + 1);
                let end = start + rng.below(count - start + 1);
                let new: Vec<String> = (0..rng.below(3)).map(|j| format!("n{round}.{j}")).collect();
                if start == end && new.is_empty() {
                    break;
                }
                edits.push((start, end, new));
                next = end;
                if start == end && rng.below(2) == 0 {
                    continue;
                }
            }
            let want = sequential(&text, &edits);
            let got = batch(&text, &edits);
            let removed: usize = edits.iter().map(|(s, e, _)| e - s).sum();
            if count > 0 && removed == count {
                // One by one, the text passes through empty and forgets it had no final
                // newline; in one pass it is kept.
                if !got.text().is_empty() {
                    assert_eq!(got.has_final_newline(), text.has_final_newline());
                }
                assert_eq!(
                    got.text().trim_end_matches('\n'),
                    want.text().trim_end_matches('\n')
                );
                continue;
            }
            assert_eq!(got.text(), want.text(), "{raw:?} {edits:?}");
            // Every terminator stays the file's own. (Applied one by one, an edit that empties
            // the text would make later insertions fall back to LF.)
            let own = text.dominant_eol();
            assert!(got.eols().iter().all(|e| *e == own), "{raw:?} {edits:?}");
            if want.eols().iter().all(|e| *e == own) {
                assert_eq!(
                    got.encode().unwrap(),
                    want.encode().unwrap(),
                    "{raw:?} {edits:?}"
                );
            }
        }
    }

    #[test]
    fn mixed_terminators_keep_their_own_and_new_lines_take_the_dominant() {
        let text = EditableText::new_utf8("a\r\nb\nc\r\nd\r\n");
        let got = batch(&text, &[(1, 2, lines(&["B", "B2"])), (4, 4, lines(&["e"]))]);
        assert_eq!(got.encode().unwrap(), b"a\r\nB\nB2\r\nc\r\nd\r\ne\r\n");
    }

    #[test]
    fn final_newline_presence_is_kept() {
        let text = EditableText::new_utf8("x\ny");
        assert_eq!(
            batch(&text, &[(1, 2, lines(&["Y"]))]).encode().unwrap(),
            b"x\nY"
        );
        assert_eq!(
            batch(&text, &[(2, 2, lines(&["z"]))]).encode().unwrap(),
            b"x\ny\nz"
        );
        assert_eq!(batch(&text, &[(1, 2, vec![])]).encode().unwrap(), b"x");
        assert_eq!(batch(&text, &[(0, 2, vec![])]).encode().unwrap(), b"");
        let empty = EditableText::new_utf8("");
        assert_eq!(
            batch(&empty, &[(0, 0, lines(&["a"]))]).encode().unwrap(),
            b"a\n"
        );
    }

    #[test]
    fn insertions_at_one_position_keep_order() {
        let text = EditableText::new_utf8("a\n");
        let got = batch(&text, &[(1, 1, lines(&["b"])), (1, 1, lines(&["c"]))]);
        assert_eq!(got.text(), "a\nb\nc\n");
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn overlapping_edits_panic() {
        let mut text = EditableText::new_utf8("a\nb\nc\n");
        let one = lines(&["x"]);
        text.replace_line_ranges([(0, 2, one.as_slice()), (1, 3, one.as_slice())]);
    }

    /// The batch with every untouched line pushed one by one (what `push_kept` replaces).
    fn line_by_line(text: &EditableText, edits: &[(usize, usize, Vec<String>)]) -> EditableText {
        let old: Vec<&str> = text.lines().collect();
        let dominant = text.dominant_eol();
        let term = |i: usize| text.eols.get(i).copied();
        let mut out = Builder {
            text: String::new(),
            eols: Vec::new(),
            open: None,
            open_fresh: false,
            open_start: 0,
            last_fresh: false,
            dominant,
        };
        let mut next = 0;
        for (start, end, new) in edits {
            (next..*start).for_each(|i| out.push(old[i], term(i), false));
            for (j, line) in new.iter().enumerate() {
                let own = if start + j < *end {
                    term(start + j)
                } else {
                    Some(dominant)
                };
                out.push(line, own, true);
            }
            next = *end;
        }
        (next..old.len()).for_each(|i| out.push(old[i], term(i), false));
        let (t, eols) = out.finish(text.has_final_newline() || text.text.is_empty());
        EditableText {
            encoding: text.encoding,
            text: t,
            eols,
        }
    }

    #[test]
    fn byte_edits_give_the_bytes_and_text_of_the_batch() {
        let mut rng = Rng(0x6A09_E667_F3BC_C908);
        let mut checked = 0;
        for round in 0..4000 {
            let count = rng.below(9);
            let mut raw = String::new();
            for i in 0..count {
                if rng.below(4) != 0 {
                    raw.push_str(&format!("l{i}"));
                }
                // Mostly LF (the byte-edit case); sometimes CR or CRLF, which must decline.
                raw.push_str(["\n", "\n", "\n", "\n", "\r\n", "\r"][rng.below(6)]);
            }
            if count > 0 && rng.below(5) == 0 {
                raw.push_str("tail");
            }
            let text = EditableText::decode(raw.as_bytes()).unwrap();
            let n = text.line_count();
            let mut edits = Vec::new();
            let mut next = 0;
            while next <= n && rng.below(4) != 0 {
                let start = next + rng.below(n - next + 1);
                let end = start + rng.below(n - start + 1);
                let new: Vec<String> = (0..rng.below(3))
                    .map(|j| match rng.below(4) {
                        0 => String::new(),
                        // A lone CR inside an added line stays part of the line.
                        1 => format!("n{round}\r{j}"),
                        _ => format!("n{round}.{j}"),
                    })
                    .collect();
                edits.push((start, end, new));
                next = end;
            }
            let old: Vec<&str> = text.lines().collect();
            let as_edits: Vec<(usize, usize, &[String])> = edits
                .iter()
                .map(|(s, e, l)| (*s, *e, l.as_slice()))
                .collect();
            let want = text.with_line_ranges_replaced(&old, as_edits.clone());
            let got = text.line_ranges_as_byte_edits(&old, as_edits);
            let plain = !raw.contains('\r') && (raw.is_empty() || raw.ends_with('\n'));
            let Some(got) = got else {
                assert!(!plain, "declined a plain text: {raw:?} {edits:?}");
                continue;
            };
            assert!(plain, "took a text that is not plain: {raw:?}");
            let bytes = got.parts(raw.as_bytes()).concat();
            assert_eq!(got.new_len(raw.len()), bytes.len());
            assert_eq!(
                bytes,
                want.clone().into_encoded().unwrap(),
                "{raw:?} {edits:?}"
            );
            assert_eq!(
                EditableText::from_byte_edits(raw.as_bytes(), &got),
                want,
                "{raw:?} {edits:?}"
            );
            checked += 1;
        }
        assert!(checked > 1000, "only {checked} plain texts");
    }

    #[test]
    fn kept_runs_copied_whole_equal_pushing_each_line() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for round in 0..3000 {
            let count = rng.below(9);
            let mut raw = String::new();
            for i in 0..count {
                if rng.below(3) != 0 {
                    raw.push_str(&format!("l{i}"));
                }
                raw.push_str(["\n", "\r\n", "\r"][rng.below(3)]);
            }
            if count > 0 && rng.below(3) == 0 {
                raw.push_str("tail");
            }
            let text = EditableText::decode(raw.as_bytes()).unwrap();
            let n = text.line_count();
            let mut edits = Vec::new();
            let mut next = 0;
            while next <= n && rng.below(3) != 0 {
                let start = next + rng.below(n - next + 1);
                let end = start + rng.below(n - start + 1);
                let new: Vec<String> = (0..rng.below(3))
                    .map(|j| {
                        if rng.below(2) == 0 {
                            String::new()
                        } else {
                            format!("n{round}.{j}")
                        }
                    })
                    .collect();
                edits.push((start, end, new));
                next = end;
            }
            let want = line_by_line(&text, &edits);
            let got = batch(&text, &edits);
            assert_eq!(got, want, "{raw:?} {edits:?}");
        }
    }
}
