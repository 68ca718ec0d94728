//! Editable text: read a file as it is, write it back as it was (spec 01, "Editable text").
//!
//! A file's bytes are decoded into one `\n`-normalised `String` plus the original terminator of
//! every line break (`LF`, `CRLF` or a lone `CR`), and the encoding and BOM it came in. Callers
//! match and edit the normalised text; [`EditableText::encode`] puts every untouched line's own
//! terminator back, so bytes outside an edit are identical to the original.
//!
//! Memory: the normalised text plus one byte per line break, so a 100 MB file costs about
//! 100 MB plus its line count, not a `String` per line.

use std::ops::Range;

use encoding_rs::{GB18030, GBK};

mod batch;
mod codec;

use crate::text::plural::count;
pub use batch::ByteEdits;
use codec::{decode_bytes, first_unmappable, normalise};
pub use codec::{looks_binary, sniff_bom, utf8_census};

/// How many leading bytes are searched for a NUL to call a file binary (spec 01).
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// A refused [`EditableText::decode_owned`]: why, and the bytes, given back.
pub type Refused = (DecodeError, Vec<u8>);

/// A text encoding agtool can read and write back byte-exactly (spec 01 decoding order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 without a BOM (the default; no note in read-file headers).
    Utf8,
    /// UTF-8 with the `EF BB BF` BOM.
    Utf8Bom,
    /// UTF-16 little endian with the `FF FE` BOM.
    Utf16Le,
    /// UTF-16 big endian with the `FE FF` BOM.
    Utf16Be,
    /// UTF-32 little endian with the `FF FE 00 00` BOM.
    Utf32Le,
    /// UTF-32 big endian with the `00 00 FE FF` BOM.
    Utf32Be,
    /// GBK without a BOM, accepted only when it round-trips exactly.
    Gbk,
    /// GBK text that uses GB18030 four-byte sequences (GBK's encoder never emits them).
    Gb18030,
}

impl TextEncoding {
    /// The label shown in read-file header notes (`utf-16le`, `gbk`, `utf-8 bom`).
    pub fn label(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Utf8Bom => "utf-8 bom",
            TextEncoding::Utf16Le => "utf-16le",
            TextEncoding::Utf16Be => "utf-16be",
            TextEncoding::Utf32Le => "utf-32le",
            TextEncoding::Utf32Be => "utf-32be",
            TextEncoding::Gbk => "gbk",
            TextEncoding::Gb18030 => "gb18030",
        }
    }

    /// The byte-order mark this encoding writes first (empty for UTF-8 without BOM and GBK).
    pub fn bom(self) -> &'static [u8] {
        match self {
            TextEncoding::Utf8Bom => b"\xEF\xBB\xBF",
            TextEncoding::Utf16Le => b"\xFF\xFE",
            TextEncoding::Utf16Be => b"\xFE\xFF",
            TextEncoding::Utf32Le => b"\xFF\xFE\x00\x00",
            TextEncoding::Utf32Be => b"\x00\x00\xFE\xFF",
            TextEncoding::Utf8 | TextEncoding::Gbk | TextEncoding::Gb18030 => b"",
        }
    }

    /// Whether a NUL byte is expected in text of this encoding (UTF-16/32), so the binary sniff
    /// does not apply.
    pub fn is_wide(self) -> bool {
        matches!(
            self,
            TextEncoding::Utf16Le
                | TextEncoding::Utf16Be
                | TextEncoding::Utf32Le
                | TextEncoding::Utf32Be
        )
    }
}

/// A line terminator as it was in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
    /// a lone `\r`
    Cr,
}

impl Eol {
    /// The terminator's characters.
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::Cr => "\r",
        }
    }
}

/// Why bytes could not be decoded as editable text. Use [`DecodeError::message`] for the
/// user-facing sentence of spec 01.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte in the first 8 KiB of a file that is not UTF-16/32; carries the size in bytes.
    Binary {
        /// The file's size in bytes.
        len: u64,
    },
    /// Not UTF-8, not UTF-16/32 with a BOM, not strict GBK.
    Undecodable,
    /// Not UTF-8 at some places, and though it round-trips as GBK it does not read as GBK
    /// text (UTF-8 with stray bytes, Latin-1): taken for GBK it would show as mojibake, and an
    /// edit would write GBK into it.
    Utf8Strays {
        /// Offset of the first byte that is not UTF-8.
        first: u64,
        /// How many places are not UTF-8.
        count: u64,
    },
}

impl DecodeError {
    /// The refusal text for `path` (without the `Error: ` prefix).
    pub fn message(&self, path: &str) -> String {
        match self {
            DecodeError::Binary { len } => {
                format!("{path} is a binary file ({})", count(*len, "byte"))
            }
            DecodeError::Undecodable => {
                format!("{path} is not UTF-8, UTF-16/32 with a BOM, or GBK; it was left untouched")
            }
            DecodeError::Utf8Strays { first, count: n } => format!(
                "{path} is not UTF-8 at {} (the first at byte {first}) and not GBK text \
                 either, so it cannot be written back exactly; it was left untouched; convert \
                 it to UTF-8 first (exec: iconv, -f for its encoding; or, for UTF-8 with a few \
                 stray bytes, iconv -f UTF-8 -t UTF-8 -c drops them)",
                count(*n, "place")
            ),
        }
    }
}

/// Why text could not be encoded back into the file's encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// The first character that has no representation in the encoding.
    pub ch: char,
    /// The encoding that could not represent it.
    pub encoding: TextEncoding,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the character {:?} (U+{:04X}) cannot be written in this file's encoding ({}); nothing was written",
            self.ch,
            self.ch as u32,
            self.encoding.label()
        )
    }
}

/// A summary of a file's line endings, for read-file header notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EolStyle {
    /// Only LF (or no line break at all).
    Lf,
    /// Only CRLF.
    CrLf,
    /// Only lone CR.
    Cr,
    /// More than one kind.
    Mixed,
}

/// Decoded text with everything needed to write it back as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditableText {
    encoding: TextEncoding,
    /// The text with every terminator replaced by `\n`.
    text: String,
    /// The original terminator of each `\n` in `text`, in order.
    eols: Vec<Eol>,
}

impl EditableText {
    /// Decodes a file's bytes in the order of spec 01: UTF-32 BOM, UTF-16 BOM, UTF-8 BOM,
    /// UTF-8, strict GBK. Errors: [`DecodeError::Binary`] for a NUL in the first 8 KiB of a
    /// non-UTF-16/32 file, [`DecodeError::Undecodable`] otherwise.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (encoding, decoded) = decode_bytes(bytes)?;
        Ok(Self::from_decoded(encoding, decoded))
    }

    /// [`EditableText::decode`], taking the bytes. When decoding changes nothing (UTF-8
    /// without a BOM and without any CR), the bytes become the text without a copy and `None`
    /// comes back: [`EditableText::into_bytes`] returns them unchanged as long as the text
    /// was not edited. Otherwise the text is a decoded copy and the bytes come back as they
    /// were. On an error the bytes come back too.
    pub fn decode_owned(bytes: Vec<u8>) -> Result<(Self, Option<Vec<u8>>), Refused> {
        let identity = codec::sniff_bom(&bytes).is_none()
            && !codec::looks_binary(&bytes)
            && memchr::memchr(b'\r', &bytes).is_none();
        if identity {
            match String::from_utf8(bytes) {
                Ok(text) => return Ok((Self::from_decoded(TextEncoding::Utf8, text), None)),
                // Not UTF-8: GBK or refused, as `decode` says.
                Err(e) => {
                    let bytes = e.into_bytes();
                    return match Self::decode(&bytes) {
                        Ok(text) => Ok((text, Some(bytes))),
                        Err(err) => Err((err, bytes)),
                    };
                }
            }
        }
        match Self::decode(&bytes) {
            Ok(text) => Ok((text, Some(bytes))),
            Err(err) => Err((err, bytes)),
        }
    }

    /// The `\n`-normalised text as bytes, consuming it (see [`EditableText::decode_owned`]).
    pub fn into_bytes(self) -> Vec<u8> {
        self.text.into_bytes()
    }

    /// New UTF-8 text (no BOM), as given: for files agtool creates. The caller's own
    /// terminators are kept.
    pub fn new_utf8(text: &str) -> Self {
        Self::from_decoded(TextEncoding::Utf8, text.to_owned())
    }

    /// Text in the format of `template` (its encoding and BOM), every line break of `text`
    /// taking `template`'s dominant terminator: a whole-file rewrite of an existing file
    /// (spec 03, write-file). `text` may use any terminators; they are normalised first.
    pub fn rewrite_of(template: &EditableText, text: &str) -> Self {
        let (text, eols) = normalise(text.to_owned());
        let eol = template.dominant_eol();
        EditableText {
            encoding: template.encoding,
            eols: vec![eol; eols.len()],
            text,
        }
    }

    fn from_decoded(encoding: TextEncoding, decoded: String) -> Self {
        let (text, eols) = normalise(decoded);
        EditableText {
            encoding,
            text,
            eols,
        }
    }

    /// The encoding the text came in (and will be written in).
    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    /// The `\n`-normalised text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The number of lines. An empty file has 0; `"a\nb"` and `"a\nb\n"` both have 2.
    pub fn line_count(&self) -> usize {
        if self.text.is_empty() {
            0
        } else {
            self.eols.len() + usize::from(!self.text.ends_with('\n'))
        }
    }

    /// The lines without their terminators (found with SIMD `memchr`: a 100,000-line file
    /// splits in a fraction of what `str::split` takes).
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        let body = self.text.strip_suffix('\n').unwrap_or(&self.text);
        let mut ends = memchr::memchr_iter(b'\n', body.as_bytes()).chain([body.len()]);
        let mut start = if self.text.is_empty() { None } else { Some(0) };
        std::iter::from_fn(move || {
            let from = start?;
            let end = ends.next()?;
            start = Some(end + 1);
            Some(&body[from..end])
        })
    }

    /// Whether the last line ends with a terminator.
    pub fn has_final_newline(&self) -> bool {
        self.text.ends_with('\n')
    }

    /// The original terminator of each line break, in order.
    pub fn eols(&self) -> &[Eol] {
        &self.eols
    }

    /// The summary of line endings used in the file.
    pub fn eol_style(&self) -> EolStyle {
        let (lf, crlf, cr) = self.eol_counts();
        match (lf > 0, crlf > 0, cr > 0) {
            (_, false, false) => EolStyle::Lf,
            (false, true, false) => EolStyle::CrLf,
            (false, false, true) => EolStyle::Cr,
            _ => EolStyle::Mixed,
        }
    }

    fn eol_counts(&self) -> (usize, usize, usize) {
        self.eols
            .iter()
            .fold((0, 0, 0), |(lf, crlf, cr), e| match e {
                Eol::Lf => (lf + 1, crlf, cr),
                Eol::CrLf => (lf, crlf + 1, cr),
                Eol::Cr => (lf, crlf, cr + 1),
            })
    }

    /// The terminator new lines take: the most frequent one; ties go to the first line's; LF in
    /// a file without line breaks (spec 01).
    pub fn dominant_eol(&self) -> Eol {
        let (lf, crlf, cr) = self.eol_counts();
        let max = lf.max(crlf).max(cr);
        if max == 0 {
            return Eol::Lf;
        }
        let first = self.eols[0];
        let count = |e: Eol| match e {
            Eol::Lf => lf,
            Eol::CrLf => crlf,
            Eol::Cr => cr,
        };
        if count(first) == max {
            return first;
        }
        [Eol::Lf, Eol::CrLf, Eol::Cr]
            .into_iter()
            .find(|e| count(*e) == max)
            .unwrap_or(Eol::Lf)
    }

    /// Replaces `range` (byte offsets into [`Self::text`], on char boundaries) with `new`
    /// (`\n` line breaks). Line breaks of `new` reuse the terminators of the replaced line
    /// breaks in order; any extra ones take the dominant terminator. Every other line keeps its
    /// own terminator. Panics if `range` is out of bounds or not on char boundaries.
    pub fn replace_range(&mut self, range: Range<usize>, new: &str) {
        let before = memchr::memchr_iter(b'\n', &self.text.as_bytes()[..range.start]).count();
        let removed = memchr::memchr_iter(b'\n', &self.text.as_bytes()[range.clone()]).count();
        let added = memchr::memchr_iter(b'\n', new.as_bytes()).count();
        let dominant = self.dominant_eol();
        let mut new_eols: Vec<Eol> = self.eols[before..before + removed]
            .iter()
            .copied()
            .take(added)
            .collect();
        new_eols.resize(added, dominant);
        self.eols.splice(before..before + removed, new_eols);
        let start = range.start;
        self.text.replace_range(range, new);
        self.keep_breaks_apart(before, start, new);
    }

    /// A lone CR directly followed by the LF of an empty line reads back as one CRLF break,
    /// which would silently drop a line. For the line breaks of `new` (inserted at byte
    /// `start`, the first being break number `first`), picks a terminator that keeps them
    /// apart from their neighbours: not LF right after a CR, not CR right before an LF. The
    /// neighbours outside the edit are never changed. (A deletion that brings two untouched
    /// breaks, CR then LF, next to each other cannot be helped without changing bytes outside
    /// the edit; it is left as is.)
    fn keep_breaks_apart(&mut self, first: usize, start: usize, new: &str) {
        let bytes = self.text.as_bytes();
        for (k, off) in memchr::memchr_iter(b'\n', new.as_bytes()).enumerate() {
            let (idx, pos) = (first + k, start + off);
            let after_cr =
                idx > 0 && pos > 0 && bytes[pos - 1] == b'\n' && self.eols[idx - 1] == Eol::Cr;
            let before_lf =
                bytes.get(pos + 1) == Some(&b'\n') && self.eols.get(idx + 1) == Some(&Eol::Lf);
            let bad = |e: Eol| (after_cr && e == Eol::Lf) || (before_lf && e == Eol::Cr);
            if bad(self.eols[idx]) {
                let dominant = self.dominant_eol();
                self.eols[idx] = [dominant, Eol::Cr, Eol::Lf, Eol::CrLf]
                    .into_iter()
                    .find(|e| !bad(*e))
                    .unwrap_or(Eol::CrLf);
            }
        }
    }

    /// The 1-based number of the first line that ends in a lone CR right before an empty line
    /// ending in LF: on disk the two read back as one CRLF break and a line is lost. Decoded
    /// text never has one; an edit that deletes everything between two such untouched breaks
    /// makes one, and the write tools refuse it rather than change a byte outside the edit.
    pub fn merged_break(&self) -> Option<usize> {
        if !self.eols.contains(&Eol::Cr) {
            return None;
        }
        let mut prev: Option<usize> = None;
        for (i, pos) in memchr::memchr_iter(b'\n', self.text.as_bytes()).enumerate() {
            if prev == Some(pos.wrapping_sub(1))
                && self.eols[i - 1] == Eol::Cr
                && self.eols[i] == Eol::Lf
            {
                return Some(i);
            }
            prev = Some(pos);
        }
        None
    }

    /// Byte offset in [`Self::text`] where line `index` (0-based) starts; `text().len()` for
    /// `index == line_count()`.
    pub fn line_start(&self, index: usize) -> usize {
        if index == 0 {
            return 0;
        }
        match memchr::memchr_iter(b'\n', self.text.as_bytes()).nth(index - 1) {
            Some(pos) => pos + 1,
            None => self.text.len(),
        }
    }

    /// Replaces lines `start..end` (0-based, end exclusive) with `new_lines` (without
    /// terminators); `start == end` inserts before line `start`. Replaced lines keep the
    /// terminators of the lines they replace in order, extra lines take the dominant one, and
    /// whether the file ends with a terminator is kept. Returns the byte range of
    /// [`Self::text`] that was replaced and the byte length of what replaced it, so callers
    /// can track the edited region. Panics if `start > end` or `end > line_count()`.
    pub fn replace_lines(
        &mut self,
        start: usize,
        end: usize,
        new_lines: &[String],
    ) -> (Range<usize>, usize) {
        let count = self.line_count();
        assert!(start <= end && end <= count, "line range out of bounds");
        let from = self.line_start(start);
        if start == end && new_lines.is_empty() {
            // Inserting nothing changes nothing (the open-tail rules below would otherwise
            // take a terminator or a character).
            return (from..from, 0);
        }
        let to = self.line_start(end);
        let open_tail = end == count && !self.has_final_newline() && count > 0;
        let (range, new) = if open_tail {
            // The last line has no terminator; keep it that way.
            if new_lines.is_empty() && start > 0 {
                // Deleting the last lines: the new last line gives up its terminator.
                (from - 1..to, String::new())
            } else if start == end {
                // Appending after a last line without terminator.
                let mut new = String::from("\n");
                new.push_str(&new_lines.join("\n"));
                (from..to, new)
            } else {
                (from..to, new_lines.join("\n"))
            }
        } else {
            let mut new = String::new();
            for line in new_lines {
                new.push_str(line);
                new.push('\n');
            }
            (from..to, new)
        };
        self.replace_range(range.clone(), &new);
        (range, new.len())
    }

    /// Replaces every range of `ranges` (sorted, non-overlapping byte ranges of
    /// [`Self::text`] on char boundaries) with `new`, in one pass over the text. Terminators
    /// follow [`Self::replace_range`] for each range, with the dominant terminator taken once,
    /// before any replacement. Panics on unsorted, overlapping or out-of-bounds ranges.
    pub fn replace_ranges(&mut self, ranges: &[Range<usize>], new: &str) {
        if let [only] = ranges {
            self.replace_range(only.clone(), new);
            return;
        }
        let dominant = self.dominant_eol();
        let added = memchr::memchr_iter(b'\n', new.as_bytes()).count();
        let bytes = self.text.as_bytes();
        let mut text = String::with_capacity(self.text.len());
        let mut eols = Vec::with_capacity(self.eols.len());
        let (mut pos, mut brk) = (0, 0);
        // Where each replacement went: (its first break's number, its byte offset).
        let mut placed = Vec::with_capacity(ranges.len());
        for r in ranges {
            assert!(pos <= r.start && r.start <= r.end, "ranges must be sorted");
            let kept = memchr::memchr_iter(b'\n', &bytes[pos..r.start]).count();
            eols.extend_from_slice(&self.eols[brk..brk + kept]);
            brk += kept;
            let removed = memchr::memchr_iter(b'\n', &bytes[r.clone()]).count();
            let reused = &self.eols[brk..brk + removed];
            eols.extend((0..added).map(|i| reused.get(i).copied().unwrap_or(dominant)));
            brk += removed;
            text.push_str(&self.text[pos..r.start]);
            placed.push((eols.len() - added, text.len()));
            text.push_str(new);
            pos = r.end;
        }
        text.push_str(&self.text[pos..]);
        eols.extend_from_slice(&self.eols[brk..]);
        self.text = text;
        self.eols = eols;
        for (first, start) in placed {
            self.keep_breaks_apart(first, start, new);
        }
    }

    /// Encodes back to bytes in the original encoding and BOM, with each line's own terminator.
    /// Errors when a character has no representation in the encoding (GBK only).
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let restored = self.restore_terminators();
        let mut out = Vec::with_capacity(restored.len() + 4);
        out.extend_from_slice(self.encoding.bom());
        match self.encoding {
            TextEncoding::Utf8 | TextEncoding::Utf8Bom => {
                out.extend_from_slice(restored.as_bytes())
            }
            TextEncoding::Utf16Le => restored
                .encode_utf16()
                .for_each(|u| out.extend_from_slice(&u.to_le_bytes())),
            TextEncoding::Utf16Be => restored
                .encode_utf16()
                .for_each(|u| out.extend_from_slice(&u.to_be_bytes())),
            TextEncoding::Utf32Le => restored
                .chars()
                .for_each(|c| out.extend_from_slice(&(c as u32).to_le_bytes())),
            TextEncoding::Utf32Be => restored
                .chars()
                .for_each(|c| out.extend_from_slice(&(c as u32).to_be_bytes())),
            TextEncoding::Gbk | TextEncoding::Gb18030 => {
                let enc = if self.encoding == TextEncoding::Gbk {
                    GBK
                } else {
                    GB18030
                };
                let (bytes, _, unmappable) = enc.encode(&restored);
                if unmappable {
                    let ch = first_unmappable(&restored, enc).unwrap_or('\u{FFFD}');
                    return Err(EncodeError {
                        ch,
                        encoding: self.encoding,
                    });
                }
                out.extend_from_slice(&bytes);
            }
        }
        Ok(out)
    }

    /// [`Self::encode`], consuming the text: UTF-8 text whose line breaks are all LF becomes
    /// the bytes without a copy (a 100 MB edit then holds one buffer less).
    pub fn into_encoded(self) -> Result<Vec<u8>, EncodeError> {
        if self.encoding == TextEncoding::Utf8 && self.eols.iter().all(|e| *e == Eol::Lf) {
            return Ok(self.text.into_bytes());
        }
        self.encode()
    }

    /// The text with original terminators, borrowing when every terminator is LF.
    fn restore_terminators(&self) -> std::borrow::Cow<'_, str> {
        if self.eols.iter().all(|e| *e == Eol::Lf) {
            return std::borrow::Cow::Borrowed(&self.text);
        }
        let mut out = String::with_capacity(self.text.len() + self.eols.len());
        let mut eols = self.eols.iter();
        let mut rest = self.text.as_str();
        while let Some(pos) = rest.find('\n') {
            out.push_str(&rest[..pos]);
            out.push_str(eols.next().map_or("\n", |e| e.as_str()));
            rest = &rest[pos + 1..];
        }
        out.push_str(rest);
        std::borrow::Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests;
