//! Content tags: FNV-1a 32-bit over a file's raw bytes (spec 01, "Content tag").
//!
//! A tag is a content hash, not a timestamp, so "changed within the same second to the same
//! length" is still caught by the freshness gate. Tags print as 8 upper-case hex digits.

/// FNV-1a 32-bit offset basis.
const OFFSET: u32 = 0x811C_9DC5;
/// FNV-1a 32-bit prime.
const PRIME: u32 = 0x0100_0193;

/// Streaming FNV-1a 32 hasher, so a file can be tagged chunk by chunk in bounded memory.
#[derive(Debug, Clone, Copy)]
pub struct TagHasher(u32);

impl Default for TagHasher {
    fn default() -> Self {
        TagHasher(OFFSET)
    }
}

impl TagHasher {
    /// A hasher in its initial state (the tag of no bytes is `811C9DC5`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds more bytes; the result equals hashing the concatenation of every chunk.
    #[inline]
    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h = (h ^ u32::from(b)).wrapping_mul(PRIME);
        }
        self.0 = h;
    }

    /// The raw 32-bit hash so far.
    pub fn value(&self) -> u32 {
        self.0
    }

    /// The tag so far, as 8 upper-case hex digits.
    pub fn tag(&self) -> String {
        format!("{:08X}", self.0)
    }
}

/// The FNV-1a 32 hash of `bytes`.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h = TagHasher::new();
    h.update(bytes);
    h.value()
}

/// The content tag of `bytes`: FNV-1a 32 as 8 upper-case hex digits (spec 01).
pub fn content_tag(bytes: &[u8]) -> String {
    format!("{:08X}", fnv1a32(bytes))
}

/// The anchor hash of one line (spec 02, anchors mode): the low byte of FNV-1a 32 of the line's
/// UTF-8 bytes without its terminator, as 2 lower-case hex digits.
pub fn line_anchor_hash(line: &str) -> String {
    format!("{:02x}", fnv1a32(line.as_bytes()) & 0xFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_vectors() {
        assert_eq!(content_tag(b""), "811C9DC5");
        assert_eq!(content_tag(b"a"), "E40C292C");
        assert_eq!(content_tag(b"hello"), "4F9F2CAB");
    }

    #[test]
    fn streaming_equals_one_shot() {
        let mut h = TagHasher::new();
        h.update(b"hel");
        h.update(b"");
        h.update(b"lo");
        assert_eq!(h.tag(), "4F9F2CAB");
    }

    #[test]
    fn anchor_is_low_byte() {
        // FNV-1a("hello") = 0x4F9F2CAB, low byte 0xab.
        assert_eq!(line_anchor_hash("hello"), "ab");
        assert_eq!(line_anchor_hash(""), "c5");
    }
}
