//! Content tags and line-anchor hashes (spec 01, "Content tag"; spec 02, anchors mode).
//!
//! A content tag is XXH3-64 (seed 0, the default secret) over a file's raw bytes, shown as the
//! top 32 bits in 8 upper-case hex digits. It is a content hash, not a timestamp, so "changed
//! within the same second to the same length" is still caught by the freshness gate. The hash
//! comes from `twox-hash`, which picks its AVX2 path at run time, so a file is tagged at about
//! memory speed. Line anchors keep FNV-1a 32: only the lines shown are hashed.

use std::hash::Hasher;

use twox_hash::XxHash3_64;

/// Streaming content-tag hasher, so a file can be tagged chunk by chunk in bounded memory.
/// Any split of the bytes gives the same value as hashing them in one piece.
#[derive(Clone)]
pub struct TagHasher(XxHash3_64);

impl Default for TagHasher {
    fn default() -> Self {
        TagHasher(XxHash3_64::with_seed(0))
    }
}

impl std::fmt::Debug for TagHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TagHasher")
    }
}

impl TagHasher {
    /// A hasher over no bytes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds more bytes.
    #[inline]
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The 64-bit XXH3 hash of every byte fed so far.
    pub fn value(&self) -> u64 {
        self.0.finish()
    }

    /// The tag of every byte fed so far, as 8 upper-case hex digits.
    pub fn tag(&self) -> String {
        format_tag(self.value())
    }
}

/// The 64-bit XXH3 hash of `bytes` (seed 0).
pub fn content_hash(bytes: &[u8]) -> u64 {
    XxHash3_64::oneshot(bytes)
}

/// `[path#TAG]`, the one spelling of a content tag in results (issue 18 §5): `spelled` as the
/// caller gave it, made printable the way [`super::path_escape`] prints names (a control
/// character, a newline above all, becomes `\xHH`), so the reference stays on one line and can
/// be given back as the path.
pub fn tag_ref(spelled: &str, tag: &str) -> String {
    let name = super::path_escape::decode(spelled);
    format!("[{}#{tag}]", super::path_escape::encode(&name))
}

/// The content tag of `bytes`: the top 32 bits of XXH3-64 as 8 upper-case hex digits (spec 01).
pub fn content_tag(bytes: &[u8]) -> String {
    format_tag(content_hash(bytes))
}

/// A 64-bit XXH3 value as a content tag: its top 32 bits as 8 upper-case hex digits.
pub fn format_tag(hash: u64) -> String {
    format!("{:08X}", hash >> 32)
}

/// FNV-1a 32 offset basis.
const FNV_OFFSET: u32 = 0x811C_9DC5;
/// FNV-1a 32 prime.
const FNV_PRIME: u32 = 0x0100_0193;

/// Streaming FNV-1a 32, for the anchor hash of a line fed in pieces (spec 02, anchors mode).
#[derive(Debug, Clone, Copy)]
pub struct LineHasher(u32);

impl Default for LineHasher {
    fn default() -> Self {
        LineHasher(FNV_OFFSET)
    }
}

impl LineHasher {
    /// A hasher over no bytes yet (value `0x811C9DC5`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds more bytes, one at a time (FNV-1a is serial; lines are short).
    #[inline]
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u32::from(b)).wrapping_mul(FNV_PRIME);
        }
    }

    /// The FNV-1a 32 hash of every byte fed so far.
    pub fn value(&self) -> u32 {
        self.0
    }
}

/// The FNV-1a 32 hash of `bytes` (line anchors, lock-file names).
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h = LineHasher::new();
    h.update(bytes);
    h.value()
}

/// The anchor hash of one line (spec 02, anchors mode): the low byte of FNV-1a 32 of the line's
/// UTF-8 bytes without its terminator, as 2 lower-case hex digits.
pub fn line_anchor_hash(line: &str) -> String {
    format!("{:02x}", fnv1a32(line.as_bytes()) & 0xFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_tag_reference_stays_on_one_line_and_names_the_same_file() {
        assert_eq!(tag_ref("src/a.rs", "0A1B2C3D"), "[src/a.rs#0A1B2C3D]");
        assert_eq!(tag_ref("a\nb.txt", "0A1B2C3D"), "[a\\x0ab.txt#0A1B2C3D]");
        // An escaped spelling is kept as it is.
        assert_eq!(tag_ref("a\\x0ab.txt", "0A1B2C3D"), "[a\\x0ab.txt#0A1B2C3D]");
    }

    #[test]
    fn xxh3_reference_values() {
        // XXH3-64 of no bytes with seed 0 is 2D06800538D394C2 (the reference implementation's
        // value); the tag is its top half.
        assert_eq!(content_hash(b""), 0x2D06_8005_38D3_94C2);
        assert_eq!(content_tag(b""), "2D068005");
        assert_eq!(format_tag(0x0000_00AB_FFFF_FFFF), "000000AB");
    }

    #[test]
    fn agrees_with_an_independent_xxh3_at_every_size_class() {
        // XXH3 has separate code for 0, 1-3, 4-8, 9-16, 17-128, 129-240 bytes and longer
        // inputs (stripes of 64 bytes, blocks of 1024): cover every edge.
        let data: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in (0..=260).chain([1023, 1024, 1025, 2047, 2048, 4096, 4999, 5000]) {
            let bytes = &data[..len];
            assert_eq!(
                content_hash(bytes),
                xxhash_rust::xxh3::xxh3_64(bytes),
                "len {len}"
            );
        }
    }

    #[test]
    fn anchor_is_fnv1a_low_byte() {
        // FNV-1a 32("hello") = 0x4F9F2CAB, low byte 0xab; FNV-1a 32("") = 0x811C9DC5.
        assert_eq!(fnv1a32(b"hello"), 0x4F9F_2CAB);
        assert_eq!(line_anchor_hash("hello"), "ab");
        assert_eq!(line_anchor_hash(""), "c5");
        let mut h = LineHasher::new();
        h.update(b"hel");
        h.update(b"lo");
        assert_eq!(h.value(), 0x4F9F_2CAB);
    }

    proptest! {
        #[test]
        fn streaming_equals_one_shot(
            bytes in proptest::collection::vec(any::<u8>(), 0..3000),
            cuts in proptest::collection::vec(0usize..3000, 0..6),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut h = TagHasher::new();
            let mut at = 0;
            for c in cuts.into_iter().chain([bytes.len()]) {
                h.update(&bytes[at..c]);
                at = c;
            }
            prop_assert_eq!(h.value(), content_hash(&bytes));
            prop_assert_eq!(h.tag(), content_tag(&bytes));
            prop_assert_eq!(content_hash(&bytes), xxhash_rust::xxh3::xxh3_64(&bytes));
        }
    }
}
