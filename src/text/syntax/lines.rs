//! Byte offsets to `line:column` positions, and line-by-line comparison of two texts.
//!
//! Lines end at LF, CRLF or a lone CR, as everywhere else in agtool (spec 01, "Editable
//! text"), so a position reported here is the line a read tool shows. Columns count chars.

/// The byte offset at which each line starts; the first entry is 0. A text ending with a
/// terminator has a last, empty line after it (where an "unexpected end of input" points).
pub(crate) struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while let Some(found) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let at = i + found;
            let next = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                at + 2
            } else {
                at + 1
            };
            starts.push(next);
            i = next;
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// Number of lines, counting the empty one after a final terminator.
    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of line `index` (0-based), terminator included.
    pub(crate) fn line<'t>(&self, text: &'t str, index: usize) -> &'t [u8] {
        let end = self.starts.get(index + 1).copied().unwrap_or(self.len);
        &text.as_bytes()[self.starts[index]..end]
    }

    /// 1-based line and 1-based column (in chars) of byte `offset`. An offset past the end is
    /// clamped to the end; one inside a multi-byte char counts that char as before it.
    pub(crate) fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.len);
        // The last line starting at or before `offset`.
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let prefix = &text.as_bytes()[self.starts[line]..offset];
        // Count char starts (non-continuation bytes): correct even mid-char.
        let chars = prefix.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        (line + 1, chars + 1)
    }
}

/// Byte offset of a 1-based line and 1-based byte column where lines end at LF only, as
/// serde_json reports them. Clamped to the text.
pub(crate) fn offset_of_lf_position(text: &str, line: usize, byte_column: usize) -> usize {
    let bytes = text.as_bytes();
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &bytes[start..]) {
            Some(found) => start += found + 1,
            None => break,
        }
    }
    (start + byte_column.saturating_sub(1)).min(text.len())
}

/// How line numbers of `old` carry over to `new` when only a middle region changed: lines in
/// the common prefix keep their number, lines in the common suffix shift by the difference in
/// line count, lines in between have no counterpart.
pub(crate) struct LineMap {
    prefix: usize,
    old_suffix_start: usize,
    new_suffix_start: usize,
}

impl LineMap {
    pub(crate) fn new(old: &str, new: &str) -> LineMap {
        let (old_index, new_index) = (LineIndex::new(old), LineIndex::new(new));
        let (old_count, new_count) = (old_index.count(), new_index.count());
        let same = |o: usize, n: usize| old_index.line(old, o) == new_index.line(new, n);
        let mut prefix = 0;
        while prefix < old_count && prefix < new_count && same(prefix, prefix) {
            prefix += 1;
        }
        let mut suffix = 0;
        while suffix < old_count - prefix
            && suffix < new_count - prefix
            && same(old_count - 1 - suffix, new_count - 1 - suffix)
        {
            suffix += 1;
        }
        LineMap {
            prefix,
            old_suffix_start: old_count - suffix,
            new_suffix_start: new_count - suffix,
        }
    }

    /// The 1-based line in the new text that holds the old text's 1-based `line`, if it was
    /// not in the changed region.
    pub(crate) fn map(&self, line: usize) -> Option<usize> {
        let index = line - 1;
        if index < self.prefix {
            Some(line)
        } else if index >= self.old_suffix_start {
            Some(index - self.old_suffix_start + self.new_suffix_start + 1)
        } else {
            None
        }
    }

    /// Whether the new text's 1-based `line` is in the changed region.
    pub(crate) fn is_changed_in_new(&self, line: usize) -> bool {
        let index = line - 1;
        index >= self.prefix && index < self.new_suffix_start
    }
}
