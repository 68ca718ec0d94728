//! The streaming count of bytes that are not UTF-8, for a lossy scan ([`super::Stream::lossy`]):
//! how many U+FFFD a lossy decoding of the whole text shows (one per maximal invalid
//! sequence, as `String::from_utf8_lossy` makes them) and where the first one is, whatever the
//! chunk edges.

/// Places that are not UTF-8 in a text fed chunk by chunk.
#[derive(Debug, Default)]
pub(super) struct Census {
    /// U+FFFD a lossy decoding shows so far.
    pub places: u64,
    /// Byte offset (in the text, from its first byte) of the first.
    pub first: Option<u64>,
    /// An incomplete sequence at the end of the last chunk (at most 3 bytes) and its offset.
    pending: Vec<u8>,
    pending_at: u64,
    /// Bytes taken so far.
    taken: u64,
}

impl Census {
    fn place(&mut self, at: u64) {
        self.places += 1;
        self.first.get_or_insert(at);
    }

    /// Takes the text's next bytes.
    pub fn take(&mut self, chunk: &[u8]) {
        let base = self.taken;
        self.taken += chunk.len() as u64;
        let mut rest = chunk;
        if !self.pending.is_empty() {
            // A valid prefix of one sequence: a few more bytes finish or break it.
            let held = self.pending.len();
            let mut join = std::mem::take(&mut self.pending);
            join.extend_from_slice(&rest[..rest.len().min(4 - held)]);
            let used = match std::str::from_utf8(&join) {
                Ok(_) => join.len(),
                Err(e) if e.valid_up_to() > 0 => e.valid_up_to(),
                Err(e) => match e.error_len() {
                    Some(bad) => {
                        self.place(self.pending_at);
                        bad
                    }
                    None => {
                        // Still incomplete: the chunk was shorter than the sequence.
                        self.pending = join;
                        return;
                    }
                },
            };
            rest = &rest[used.saturating_sub(held)..];
        }
        let mut at = 0;
        while at < rest.len() {
            match simdutf8::compat::from_utf8(&rest[at..]) {
                Ok(_) => break,
                Err(e) => {
                    let bad_at = at + e.valid_up_to();
                    let offset = base + (chunk.len() - rest.len() + bad_at) as u64;
                    match e.error_len() {
                        Some(len) => {
                            self.place(offset);
                            at = bad_at + len;
                        }
                        None => {
                            self.pending = rest[bad_at..].to_vec();
                            self.pending_at = offset;
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Ends the text: an incomplete sequence at its end is one more place.
    pub fn finish(&mut self) {
        if !self.pending.is_empty() {
            self.pending.clear();
            self.place(self.pending_at);
        }
    }
}

/// The longest lossy decoding of `bytes` (a line's first bytes) of at most `max` bytes that
/// ends on a whole character, and how many of `bytes` it covers.
pub(super) fn lossy_prefix(bytes: &[u8], max: usize) -> (String, usize) {
    let mut text = String::new();
    let mut used = 0;
    for piece in bytes.utf8_chunks() {
        for c in piece.valid().chars() {
            if text.len() + c.len_utf8() > max {
                return (text, used);
            }
            text.push(c);
            used += c.len_utf8();
        }
        if !piece.invalid().is_empty() {
            if text.len() + 3 > max {
                return (text, used);
            }
            text.push('\u{FFFD}');
            used += piece.invalid().len();
        }
    }
    (text, used)
}

/// What a lossy decoding of the whole of `bytes` shows: (U+FFFD count, offset of the first):
/// the oracle the streaming census is tested against.
#[cfg(test)]
pub(super) fn whole(bytes: &[u8]) -> (u64, Option<u64>) {
    let mut places = 0;
    let mut first = None;
    let mut at = 0u64;
    for piece in bytes.utf8_chunks() {
        at += piece.valid().len() as u64;
        if !piece.invalid().is_empty() {
            places += 1;
            first.get_or_insert(at);
            at += piece.invalid().len() as u64;
        }
    }
    (places, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn in_chunks(bytes: &[u8], size: usize) -> (u64, Option<u64>) {
        let mut c = Census::default();
        for chunk in bytes.chunks(size.max(1)) {
            c.take(chunk);
        }
        c.finish();
        (c.places, c.first)
    }

    #[test]
    fn cases() {
        let cases: &[&[u8]] = &[
            b"",
            b"plain",
            b"caf\xc3\xa9",
            b"caf\xe9 ok",
            b"\xe2\x82",
            b"\xe2\x82x",
            b"\xf0\x9f\x98\x80\xf0\x9f\x98",
            b"\xff\xfe\xfd",
            b"a\xed\xa0\x80b",
            b"\xc3",
            b"K\xf6ln, Jos\xe9",
        ];
        for bytes in cases {
            for size in 1..=bytes.len().max(1) {
                assert_eq!(in_chunks(bytes, size), whole(bytes), "{bytes:x?} by {size}");
            }
        }
    }

    #[test]
    fn prefix_of_a_line() {
        assert_eq!(lossy_prefix(b"ab\xffcd", 100), ("ab\u{FFFD}cd".into(), 5));
        // U+FFFD is 3 bytes: it does not fit in 4 after `ab`.
        assert_eq!(lossy_prefix(b"ab\xffcd", 4), ("ab".into(), 2));
        assert_eq!(lossy_prefix("é".as_bytes(), 1), (String::new(), 0));
        assert_eq!(lossy_prefix(b"\xe2\x82", 10), ("\u{FFFD}".into(), 2));
    }

    proptest! {
        #[test]
        fn any_chunking_counts_what_a_whole_decoding_shows(
            bytes in prop::collection::vec(
                prop_oneof![Just(b'a'), Just(0x80u8), Just(0xC3), Just(0xA9), Just(0xE2),
                    Just(0x82), Just(0xAC), Just(0xF0), Just(0x9F), Just(0xFF), Just(0xED),
                    Just(0xA0)],
                0..40),
            size in 1usize..9,
        ) {
            prop_assert_eq!(in_chunks(&bytes, size), whole(&bytes));
        }
    }
}
