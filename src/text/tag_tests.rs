//! Tests of the content tag: the block path and the split runs against the plain loop.

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

use proptest::prelude::*;

/// Deterministic pseudo-random bytes (xorshift64), so failures reproduce.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

#[test]
fn bit_planes_hold_bit_k_of_byte_i() {
    let group: [u8; GROUP] = noise(GROUP, 3).try_into().unwrap();
    let planes = bit_planes(&group);
    for (i, byte) in group.iter().enumerate() {
        for (k, plane) in planes.iter().enumerate() {
            assert_eq!(
                (plane >> i) & 1,
                u64::from(byte >> k) & 1,
                "byte {i} bit {k}"
            );
        }
    }
}

#[test]
fn block_path_equals_serial_for_every_short_length() {
    for len in 0..=300 {
        let bytes = noise(len, len as u64 + 1);
        assert_eq!(fnv1a32(&bytes), serial(OFFSET, &bytes), "len {len}");
    }
}

#[test]
fn block_path_equals_serial_around_block_sizes() {
    // Every segment size from one group to MAX_SEGMENT, each with a ragged tail, and a few
    // starting states (the low byte seeds the chain).
    for len in (BLOCK_MIN - 2..LANES * MAX_SEGMENT * 2 + 70).step_by(61) {
        let bytes = noise(len, len as u64);
        for start in [OFFSET, 0, 0xFFFF_FFFF, 0x1234_5600] {
            assert_eq!(
                hash_blocks(start, &bytes),
                serial(start, &bytes),
                "len {len}"
            );
        }
    }
}

#[test]
fn block_path_equals_serial_on_uniform_bytes() {
    for len in [BLOCK_MIN, 4096, 4096 * 3 + 17, 100_000] {
        for byte in [0x00, 0xFF, 0x80, 0x01] {
            let bytes = vec![byte; len];
            assert_eq!(fnv1a32(&bytes), serial(OFFSET, &bytes), "{byte:#x} x {len}");
        }
    }
}

#[test]
fn block_path_equals_serial_on_one_mib() {
    let bytes = noise(1 << 20, 99);
    assert_eq!(fnv1a32(&bytes), serial(OFFSET, &bytes));
    let text = b"the quick brown fox jumps over the lazy dog 0123456789\n".repeat(20_000);
    assert_eq!(fnv1a32(&text), serial(OFFSET, &text));
}

#[test]
fn streaming_in_fixed_chunk_sizes_equals_one_shot() {
    let bytes = noise(20_000, 7);
    let want = serial(OFFSET, &bytes);
    for size in [1, 63, 64, 65, 511, 512, 513, 4095, 4096, 4097] {
        let mut h = TagHasher::new();
        for chunk in bytes.chunks(size) {
            h.update(chunk);
        }
        assert_eq!(h.value(), want, "chunks of {size}");
    }
}

#[test]
fn split_run_in_any_two_parts_equals_serial() {
    for len in [0, 5, BLOCK_MIN, BLOCK_MIN + 3, 4096 * 3 + 1000, 70_000] {
        let bytes = noise(len, len as u64 + 11);
        for start in [OFFSET, 0x0000_00FF, 0xABCD_EF00] {
            let run = SplitRun::new(start as u8, &bytes);
            let want = serial(start, &bytes);
            assert_eq!(run.end_low_byte(), want as u8, "len {len}");
            for cut in 0..=run.parts() {
                let first = run.hash_parts(&bytes, 0..cut);
                let second = run.hash_parts(&bytes, cut..run.parts());
                assert_eq!(first.then(second).apply(start), want, "len {len} cut {cut}");
                assert_eq!(
                    second.apply(first.apply(start)),
                    want,
                    "len {len} cut {cut}"
                );
            }
        }
    }
}

#[test]
fn split_runs_chain_like_update() {
    // Runs of a stream split one after the other, each from the previous run's end.
    let bytes = noise(50_000, 21);
    let mut h = OFFSET;
    for run_bytes in bytes.chunks(9_999) {
        let run = SplitRun::new(h as u8, run_bytes);
        h = run.hash_parts(run_bytes, 0..run.parts()).apply(h);
    }
    assert_eq!(h, serial(OFFSET, &bytes));
}

proptest! {
    #[test]
    fn any_bytes_any_start_match_serial(
        bytes in proptest::collection::vec(any::<u8>(), 0..6000),
        start in any::<u32>(),
    ) {
        prop_assert_eq!(hash_blocks(start, &bytes), serial(start, &bytes));
    }

    #[test]
    fn any_chunk_split_matches_one_shot(
        bytes in proptest::collection::vec(any::<u8>(), 0..12_000),
        cuts in proptest::collection::vec(0usize..12_000, 0..12),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut h = TagHasher::new();
        let mut from = 0;
        for cut in cuts.into_iter().chain([bytes.len()]) {
            h.update(&bytes[from..cut]);
            from = cut;
        }
        prop_assert_eq!(h.value(), serial(OFFSET, &bytes));
    }
}

/// Raw hashing throughput, block path vs the plain loop, in MB/s (not a timed assertion:
/// run it by hand, in release: `cargo test --release --lib tag::tests::throughput --
/// --ignored --nocapture`). Also used by bench/tag.sh.
#[test]
#[ignore]
fn throughput() {
    let bytes = noise(256 << 20, 5);
    let mb = bytes.len() as f64 / 1e6;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let plain = serial(OFFSET, &bytes);
        let plain_s = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        let fast = fnv1a32(&bytes);
        let fast_s = t.elapsed().as_secs_f64();
        assert_eq!(plain, fast);
        println!(
            "fnv1a32 256 MB: plain loop {:.0} MB/s, block path {:.0} MB/s ({:.2}x)",
            mb / plain_s,
            mb / fast_s,
            plain_s / fast_s
        );
    }
}
