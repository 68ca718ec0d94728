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

    /// Feeds more bytes; the result equals hashing the concatenation of every chunk, however the
    /// bytes are split. Runs of at least [`BLOCK_MIN`] bytes take the block path (see the notes
    /// above [`GROUP`]); shorter runs, and the tail of a run, take the plain loop.
    #[inline]
    pub fn update(&mut self, bytes: &[u8]) {
        self.0 = hash_blocks(self.0, bytes);
    }

    /// The raw 32-bit hash so far.
    pub fn value(&self) -> u32 {
        self.0
    }

    /// The tag so far, as 8 upper-case hex digits.
    pub fn tag(&self) -> String {
        format_tag(self.0)
    }
}

/// The definition of FNV-1a 32, one byte at a time from state `h`: a chain of one xor and one
/// multiply per byte, each waiting on the last. The block path must agree with it bit for bit.
#[inline]
fn serial(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// The FNV-1a 32 hash of `bytes`.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h = TagHasher::new();
    h.update(bytes);
    h.value()
}

/// The content tag of `bytes`: FNV-1a 32 as 8 upper-case hex digits (spec 01).
pub fn content_tag(bytes: &[u8]) -> String {
    format_tag(fnv1a32(bytes))
}

/// A 32-bit FNV-1a value as a content tag: 8 upper-case hex digits (spec 01, "Content tag").
pub fn format_tag(value: u32) -> String {
    format!("{value:08X}")
}

/// The anchor hash of one line (spec 02, anchors mode): the low byte of FNV-1a 32 of the line's
/// UTF-8 bytes without its terminator, as 2 lower-case hex digits.
pub fn line_anchor_hash(line: &str) -> String {
    format!("{:02x}", fnv1a32(line.as_bytes()) & 0xFF)
}

// ---------------------------------------------------------------------------------------------
// The block path: the same FNV-1a 32, computed with short dependency chains (spec 01, "Content
// tag": the tag must not change, only how fast it is computed).
//
// Notation: h is the 32-bit state before byte b (one byte of input), L = h mod 256 its low byte,
// x = L ^ b, P the prime. All arithmetic on h is mod 2^32.
//
// 1. The low byte runs on its own. `h ^ b` only touches the low byte, and the low byte of a
//    product depends only on the low bytes of its factors, so the next low byte is
//    (x * 0x93) mod 256 (0x93 = P mod 256): a chain through 256 states that never looks at the
//    high 24 bits.
// 2. The high bits only add up. `h ^ b` equals `h + (x - L)` (the xor replaces the low byte L by
//    x), so one step is h' = (h + d) * P with d = x - L. Over a run of n bytes,
//    h_end = h * P^n + sum_i d_i * P^(n - i), and every d_i is fixed by the low-byte chain alone.
//    So hashing the run from any two states with the same low byte differs by exactly
//    (difference of the states) * P^n. In particular, if c is the hash of the run started from
//    the bare low byte L (state L, high bits zero), the hash from h is (h - L) * P^n + c.
// 3. Hence: find the low byte at the start of each of 8 segments of a block (the only truly
//    serial part), run the 8 segments as 8 independent FNV chains that the CPU overlaps, and chain
//    the 8 results with step 2. Nothing is approximated: every step is an identity mod 2^32.
//
// The low-byte chain is found one bit plane at a time. Bit k of x * 0x93 is x's bit k xor bit k
// of (x mod 2^k) * 0x93: 0x93 is odd, so x's bit k lands on bit k once, and the lower bits of x
// reach bit k only through that smaller product (bits above k cannot reach down). So, with g_k the
// bit k of (x mod 2^k) * 0x93 (zero for k = 0), the next low byte's bit k is L[k] ^ b[k] ^ g_k:
// along the input, plane k of L is a running xor of (b[k] ^ g_k) from the block's starting bit,
// and g_k needs only planes 0..k-1 of x, all known once the lower planes are done. With 64 bytes
// held as 8 u64 planes (bit i of plane k = bit k of byte i), each plane is a handful of word
// operations for 64 bytes, and g_k is a bit-sliced column of the sum x + 2x + 16x + 128x.

/// Bytes per group: one u64 bit plane covers 64 bytes.
const GROUP: usize = 64;
/// Independent FNV chains per block (step 3 above).
const LANES: usize = 8;
/// Longest segment one chain runs, in bytes: a block is at most `LANES * MAX_SEGMENT` bytes
/// (4 KiB, so a block's bit planes stay in L1 cache).
const MAX_SEGMENT: usize = 512;
/// Most groups in one block.
const MAX_GROUPS: usize = LANES * MAX_SEGMENT / GROUP;
/// Shortest run of bytes worth the block path; shorter runs (and the tail of a run, fewer than
/// this many bytes) take the plain loop.
pub const BLOCK_MIN: usize = LANES * GROUP;

/// FNV-1a 32 from state `h` over `bytes`, identical to [`serial`]: blocks of whole groups go
/// through [`hash_block`], the last fewer than [`BLOCK_MIN`] bytes through the plain loop. Since
/// the state between bytes is just `h`, any split of the input gives the same value.
fn hash_blocks(mut h: u32, mut bytes: &[u8]) -> u32 {
    let mut planes = Planes::new();
    while bytes.len() >= BLOCK_MIN {
        let segment = (bytes.len() / LANES / GROUP * GROUP).min(MAX_SEGMENT);
        let (block, rest) = bytes.split_at(segment * LANES);
        h = hash_block(h, block, segment, &mut planes);
        bytes = rest;
    }
    serial(h, bytes)
}

/// One block of `LANES * segment` bytes (`segment` a multiple of [`GROUP`]): the low bytes at
/// the segment starts, the 8 chains, and their combination (steps 1 to 3 above).
fn hash_block(h: u32, block: &[u8], segment: usize, planes: &mut Planes) -> u32 {
    let (seeds, _) = block_seeds(h as u8, block, segment, planes);
    finish_block(h, &seeds, block, segment)
}

/// Step 1 for one block that starts with low byte `low`: the low byte at the start of each of
/// its `LANES` segments, and the low byte after the block.
fn block_seeds(low: u8, block: &[u8], segment: usize, planes: &mut Planes) -> ([u8; LANES], u8) {
    let end = planes.low_bytes(low, block);
    let groups_per_segment = segment / GROUP;
    let mut seeds = [0u8; LANES];
    for (j, seed) in seeds.iter_mut().enumerate() {
        *seed = planes.starts[j * groups_per_segment];
    }
    (seeds, end)
}

/// Steps 2 and 3 for one block whose segments start with low bytes `seeds`: the state after the
/// block, from state `h`. Exact when `h`'s low byte is `seeds[0]`; for any other `h` it is still
/// the same affine map h * P^len + k evaluated at `h` (which [`SplitRun`] uses with h = 0).
fn finish_block(h: u32, seeds: &[u8; LANES], block: &[u8], segment: usize) -> u32 {
    let ends = chains(seeds, block, segment);
    let p_segment = PRIME.wrapping_pow(segment as u32);
    seeds.iter().zip(ends).fold(h, |h, (&seed, end)| {
        // h's low byte is `seed` here, so (h - seed) has no low byte: step 2 above.
        h.wrapping_sub(u32::from(seed))
            .wrapping_mul(p_segment)
            .wrapping_add(end)
    })
}

/// The hash of a run of bytes as a function of the state it starts from: `h * P^len + k` (mod
/// 2^32), exact for every starting state whose low byte is the one the run was split for (step 2
/// in the notes above [`GROUP`]). Consecutive parts compose with [`RunHash::then`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunHash {
    /// Bytes covered, mod 2^32 (enough: P's powers repeat with a period dividing 2^30).
    len: u32,
    k: u32,
}

impl RunHash {
    /// No bytes: leaves every state as it is.
    pub const EMPTY: RunHash = RunHash { len: 0, k: 0 };

    /// This part followed by `next`.
    pub fn then(self, next: RunHash) -> RunHash {
        RunHash {
            len: self.len.wrapping_add(next.len),
            k: self
                .k
                .wrapping_mul(PRIME.wrapping_pow(next.len))
                .wrapping_add(next.k),
        }
    }

    /// The state after the run, from state `h`.
    pub fn apply(self, h: u32) -> u32 {
        h.wrapping_mul(PRIME.wrapping_pow(self.len))
            .wrapping_add(self.k)
    }
}

/// A run of bytes hashed in two steps so that two threads can share the work (spec 01,
/// "Content tag"; used by read-file's scan): [`SplitRun::new`] does the serial part, the low-byte
/// chain, and [`SplitRun::hash_parts`] the rest, for any range of the run's parts, on any thread;
/// the parts' [`RunHash`]es compose in order. The run is cut exactly as [`TagHasher::update`]
/// cuts it: blocks, then a tail of fewer than [`BLOCK_MIN`] bytes (the last part, maybe empty).
#[derive(Debug, Clone)]
pub struct SplitRun {
    /// Per block: its first byte's offset in the run, its segment length in bytes, and the low
    /// byte at the start of each of its segments.
    blocks: Vec<(usize, usize, [u8; LANES])>,
    /// Offset of the tail and the low byte at its start.
    tail: (usize, u8),
    /// Low byte after the whole run.
    end: u8,
}

impl SplitRun {
    /// Runs the low-byte chain over `bytes` from low byte `low` (the low byte of the state the run
    /// will start from).
    pub fn new(mut low: u8, bytes: &[u8]) -> SplitRun {
        let mut planes = Planes::new();
        let mut blocks = Vec::new();
        let mut at = 0;
        while bytes.len() - at >= BLOCK_MIN {
            let segment = ((bytes.len() - at) / LANES / GROUP * GROUP).min(MAX_SEGMENT);
            let block = &bytes[at..at + segment * LANES];
            let (seeds, end) = block_seeds(low, block, segment, &mut planes);
            blocks.push((at, segment, seeds));
            low = end;
            at += block.len();
        }
        let tail = (at, low);
        // The tail's low bytes alone: the same chain as step 1, byte by byte.
        let end = bytes[at..]
            .iter()
            .fold(low, |l, &b| (l ^ b).wrapping_mul(PRIME as u8));
        SplitRun { blocks, tail, end }
    }

    /// The low byte of the state after the run (where the next run starts).
    pub fn end_low_byte(&self) -> u8 {
        self.end
    }

    /// Number of parts: the blocks, then the tail.
    pub fn parts(&self) -> usize {
        self.blocks.len() + 1
    }

    /// The hash of parts `range` of `bytes` (the same bytes given to [`SplitRun::new`]).
    pub fn hash_parts(&self, bytes: &[u8], range: std::ops::Range<usize>) -> RunHash {
        range.fold(RunHash::EMPTY, |acc, part| {
            let next = match self.blocks.get(part) {
                Some(&(at, segment, seeds)) => RunHash {
                    len: (segment * LANES) as u32,
                    // The block's affine map evaluated at 0 is its constant term.
                    k: finish_block(0, &seeds, &bytes[at..at + segment * LANES], segment),
                },
                None => {
                    let (at, low) = self.tail;
                    let tail = &bytes[at..];
                    let len = tail.len() as u32;
                    let from_low = serial(u32::from(low), tail);
                    let k =
                        from_low.wrapping_sub(u32::from(low).wrapping_mul(PRIME.wrapping_pow(len)));
                    RunHash { len, k }
                }
            };
            acc.then(next)
        })
    }
}

/// Runs FNV-1a over segment j of `block` (`segment` bytes) from the bare low byte `seeds[j]`, the
/// 8 segments side by side so their multiplies overlap instead of waiting on each other.
fn chains(seeds: &[u8; LANES], block: &[u8], segment: usize) -> [u32; LANES] {
    let mut lanes = seeds.map(u32::from);
    for offset in (0..segment).step_by(8) {
        let mut words = [0u64; LANES];
        for (j, word) in words.iter_mut().enumerate() {
            let at = j * segment + offset;
            *word = u64::from_le_bytes(block[at..at + 8].try_into().expect("8 bytes"));
        }
        for shift in (0..64).step_by(8) {
            for (lane, word) in lanes.iter_mut().zip(words) {
                *lane = (*lane ^ ((word >> shift) as u32 & 0xFF)).wrapping_mul(PRIME);
            }
        }
    }
    lanes
}

/// Work space for the low-byte chain of one block, bit-sliced: `b[k][i]` is plane k of the
/// input bytes of group i, `x[k][i]` the same plane of x = L ^ b, `starts[i]` the low byte at the
/// start of group i.
struct Planes {
    b: [[u64; MAX_GROUPS]; 8],
    x: [[u64; MAX_GROUPS]; 8],
    starts: [u8; MAX_GROUPS],
}

impl Planes {
    fn new() -> Planes {
        Planes {
            b: [[0; MAX_GROUPS]; 8],
            x: [[0; MAX_GROUPS]; 8],
            starts: [0; MAX_GROUPS],
        }
    }

    /// Fills `starts` with the low byte at the start of each group of `block` (a whole number of
    /// groups, at most [`MAX_GROUPS`]) when the block starts with low byte `low`; returns the low
    /// byte after the block. Works plane by
    /// plane over the whole block rather than group by group: the groups of one plane then only
    /// wait on each other for one xor (the running bit), so the CPU overlaps them.
    // The loops walk several parallel per-group arrays by group index.
    #[allow(clippy::needless_range_loop)]
    fn low_bytes(&mut self, low: u8, block: &[u8]) -> u8 {
        let n = block.len() / GROUP;
        for (i, group) in block.chunks_exact(GROUP).enumerate() {
            let planes = bit_planes(group.try_into().expect("a whole group"));
            for (k, plane) in planes.into_iter().enumerate() {
                self.b[k][i] = plane;
            }
        }
        self.starts[..n].fill(0);
        // g: the g_k plane per group. (c0, c1): the carry into column k of x + 2x + 16x + 128x,
        // c0 + 2 * c1 (at most 2).
        let mut g = [0u64; MAX_GROUPS];
        let mut c0 = [0u64; MAX_GROUPS];
        let mut c1 = [0u64; MAX_GROUPS];
        let mut end = self.plane(0, low, &g, n);
        // Column k adds x[k] (from x), x[k-1] (2x), x[k-4] (16x), x[k-7] (128x) and the carry;
        // g_k is that column without x[k], mod 2.
        let x = &self.x;
        g[..n].copy_from_slice(&x[0][..n]);
        end |= self.plane(1, low, &g, n) << 1;
        let x = &self.x;
        for i in 0..n {
            c0[i] = x[1][i] & x[0][i];
            g[i] = x[1][i] ^ c0[i];
        }
        end |= self.plane(2, low, &g, n) << 2;
        let x = &self.x;
        for i in 0..n {
            c0[i] = full_add(x[2][i], x[1][i], c0[i]).1;
            g[i] = x[2][i] ^ c0[i];
        }
        end |= self.plane(3, low, &g, n) << 3;
        let x = &self.x;
        for i in 0..n {
            c0[i] = full_add(x[3][i], x[2][i], c0[i]).1;
            g[i] = x[3][i] ^ x[0][i] ^ c0[i];
        }
        end |= self.plane(4, low, &g, n) << 4;
        for k in 5..8 {
            let x = &self.x;
            for i in 0..n {
                // Column k-1 held x[k-1], x[k-2], x[k-5] and the carry c0 + 2 * c1; its sum is
                // s + 2 * (k1 + k2 + c1), so the carry out is k1 + k2 + c1 (at most 2).
                let (s, k1) = full_add(x[k - 1][i], x[k - 2][i], x[k - 5][i]);
                let k2 = s & c0[i];
                (c0[i], c1[i]) = full_add(k1, k2, c1[i]);
                let from_128x = if k == 7 { x[0][i] } else { 0 };
                g[i] = x[k - 1][i] ^ x[k - 4][i] ^ from_128x ^ c0[i];
            }
            end |= self.plane(k, low, &g, n) << k;
        }
        end
    }

    /// Plane k for the first `n` groups: L[k] is the running xor of b[k] ^ g_k, starting from bit
    /// k of `low`; stores x[k] = L[k] ^ b[k] and adds bit k of each group's starting low byte.
    #[inline(always)]
    fn plane(&mut self, k: usize, low: u8, g: &[u64; MAX_GROUPS], n: usize) -> u8 {
        let mut inclusive = [0u64; MAX_GROUPS];
        for ((p, &b), &g) in inclusive[..n].iter_mut().zip(&self.b[k][..n]).zip(&g[..n]) {
            *p = prefix_xor(b ^ g);
        }
        // The running bit crosses from group to group: the only serial step, one xor per group.
        let mut bit = u64::from(low >> k) & 1;
        let groups = self.starts[..n]
            .iter_mut()
            .zip(&mut self.x[k][..n])
            .zip(&self.b[k][..n])
            .zip(&inclusive[..n]);
        for (((start, x), &b), &p) in groups {
            *start |= (bit as u8) << k;
            // Exclusive form: L at byte i is the xor of the terms before it.
            *x = (p << 1) ^ bit.wrapping_neg() ^ b;
            bit ^= p >> 63;
        }
        bit as u8
    }
}

/// Bit i of the result is the xor of bits 0..=i of `p`.
#[inline(always)]
fn prefix_xor(mut p: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        p ^= p << shift;
    }
    p
}

/// Bit-sliced full adder: (sum bits, carry bits) of three planes.
#[inline(always)]
fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let ab = a ^ b;
    (ab ^ c, (a & b) | (c & ab))
}

/// The 8 bit planes of 64 bytes: bit i of plane k is bit k of byte i.
#[inline(always)]
fn bit_planes(group: &[u8; GROUP]) -> [u64; 8] {
    // Each 8-byte word becomes an 8x8 bit matrix flipped so that its byte k holds bit k of its 8
    // bytes; then byte k of every word is gathered into plane k (an 8x8 byte transpose).
    let mut w = [0u64; 8];
    for (word, bytes) in w.iter_mut().zip(group.chunks_exact(8)) {
        *word = transpose_bits(u64::from_le_bytes(bytes.try_into().expect("8 bytes")));
    }
    for (span, mask) in [
        (4, 0x0000_0000_FFFF_FFFF),
        (2, 0x0000_FFFF_0000_FFFF),
        (1, 0x00FF_00FF_00FF_00FF),
    ] {
        for j in (0..8).filter(|j| j & span == 0) {
            // Swap the high part of word j with the low part of word j + span.
            let t = ((w[j] >> (8 * span)) ^ w[j + span]) & mask;
            w[j + span] ^= t;
            w[j] ^= t << (8 * span);
        }
    }
    w
}

/// Transposes the 8x8 bit matrix held in a u64 (row r = byte r, column c = bit c): bit 8r + c
/// moves to bit 8c + r, by swapping ever smaller off-diagonal blocks.
#[inline(always)]
fn transpose_bits(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[cfg(test)]
#[path = "tag_tests.rs"]
mod tests;
