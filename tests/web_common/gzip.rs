//! A gzip bomb made by hand.

/// A gzip stream whose content is `len` bytes of `a`, written by hand as one fixed-Huffman
/// deflate block: a literal `a`, copies of 258 bytes at distance 1, then single literals for
/// the rest. About 13 bits per 258 bytes: 1 GiB is 6.8 MB, made in milliseconds. `crc` is the
/// CRC-32 of the content (given: computing it for 1 GiB is the slow part).
pub fn gzip_of_as(len: u64, crc: u32) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        n: u32,
    }
    impl Bits {
        /// Writes `len` bits of `v`, least significant first (deflate's bit order).
        fn put(&mut self, v: u64, len: u32) {
            self.acc |= v << self.n;
            self.n += len;
            while self.n >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.n -= 8;
            }
        }
        /// Writes a Huffman code, most significant bit first.
        fn code(&mut self, code: u32, len: u32) {
            let mut rev = 0u64;
            for i in 0..len {
                rev |= u64::from((code >> i) & 1) << (len - 1 - i);
            }
            self.put(rev, len);
        }
    }
    assert!(len >= 1);
    let copies = (len - 1) / 258;
    let literals = len - copies * 258;
    let mut b = Bits {
        out: vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff],
        acc: 0,
        n: 0,
    };
    b.put(1, 1); // BFINAL
    b.put(1, 2); // BTYPE 01: fixed Huffman
    b.code(0x30 + u32::from(b'a'), 8); // literal 'a'
    for _ in 0..copies {
        b.code(0b1100_0101, 8); // length code 285: 258 bytes
        b.code(0, 5); // distance code 0: distance 1
    }
    for _ in 1..literals {
        b.code(0x30 + u32::from(b'a'), 8);
    }
    b.code(0, 7); // end of block
    if b.n > 0 {
        b.out.push(b.acc as u8);
    }
    b.out.extend_from_slice(&crc.to_le_bytes());
    b.out.extend_from_slice(&(len as u32).to_le_bytes());
    b.out
}
