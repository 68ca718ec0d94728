//! One pass over a run of bytes that answers what read-file's scan asks of every chunk it does
//! not split into lines (spec 02, "Cost"): how many LF bytes it holds, whether it holds a CR,
//! and whether every byte is ASCII.
//!
//! A chunk with no CR needs no CRLF count, and an ASCII chunk needs no UTF-8 validation, so for
//! the common file (LF endings, mostly ASCII) this one pass replaces three: counting LFs,
//! looking for a CR and validating UTF-8. On x86-64 with AVX2 (detected at run time) it takes
//! 32 bytes per step, counting LFs in byte-wide lanes summed every 255 steps; elsewhere it
//! falls back to `memchr` and the standard library.

/// What one pass found in a run of bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Survey {
    /// Number of LF (`\n`) bytes.
    pub lf: u64,
    /// Whether any byte is a CR (`\r`).
    pub has_cr: bool,
    /// Whether every byte is below 0x80.
    pub ascii: bool,
}

/// Surveys `bytes` (any length; the cost is one read of each byte).
pub fn survey(bytes: &[u8]) -> Survey {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present on this CPU (checked just above).
            return unsafe { avx2::survey(bytes) };
        }
    }
    portable(bytes)
}

/// [`survey`] without SIMD of our own (`memchr` still uses what the CPU has).
pub fn portable(bytes: &[u8]) -> Survey {
    Survey {
        lf: memchr::memchr_iter(b'\n', bytes).count() as u64,
        has_cr: memchr::memchr(b'\r', bytes).is_some(),
        ascii: bytes.is_ascii(),
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Survey, portable};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_storeu_si256, _mm256_sub_epi8, _mm256_testz_si256,
    };

    /// Bytes per step.
    const STEP: usize = 32;
    /// Steps whose LF matches fit in a byte-wide lane before it must be summed (255 max).
    const STEPS_PER_SUM: usize = 255;

    /// [`super::survey`] with AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn survey(bytes: &[u8]) -> Survey {
        let lf = _mm256_set1_epi8(b'\n' as i8);
        let cr = _mm256_set1_epi8(b'\r' as i8);
        let zero = _mm256_setzero_si256();
        // Four 64-bit lanes of LF counts, the OR of every CR match, the OR of every byte.
        let mut total = zero;
        let mut any_cr = zero;
        let mut any_high = zero;
        let mut blocks = bytes.chunks_exact(STEP * STEPS_PER_SUM);
        for block in &mut blocks {
            // Each step subtracts the match mask (-1 per LF) from 32 byte-wide counters.
            let mut lanes = zero;
            for step in block.chunks_exact(STEP) {
                // SAFETY: `step` is exactly 32 readable bytes; the load is unaligned.
                let v = unsafe { _mm256_loadu_si256(step.as_ptr().cast::<__m256i>()) };
                lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(v, lf));
                any_cr = _mm256_or_si256(any_cr, _mm256_cmpeq_epi8(v, cr));
                any_high = _mm256_or_si256(any_high, v);
            }
            total = _mm256_add_epi64(total, _mm256_sad_epu8(lanes, zero));
        }
        let rest = blocks.remainder();
        let mut steps = rest.chunks_exact(STEP);
        let mut lanes = zero;
        for step in &mut steps {
            // SAFETY: as above.
            let v = unsafe { _mm256_loadu_si256(step.as_ptr().cast::<__m256i>()) };
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(v, lf));
            any_cr = _mm256_or_si256(any_cr, _mm256_cmpeq_epi8(v, cr));
            any_high = _mm256_or_si256(any_high, v);
        }
        total = _mm256_add_epi64(total, _mm256_sad_epu8(lanes, zero));
        let mut sums = [0u64; 4];
        // SAFETY: `sums` is 32 writable bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(sums.as_mut_ptr().cast::<__m256i>(), total) };
        let tail = portable(steps.remainder());
        Survey {
            lf: sums.iter().sum::<u64>() + tail.lf,
            has_cr: _mm256_testz_si256(any_cr, any_cr) == 0 || tail.has_cr,
            ascii: _mm256_movemask_epi8(any_high) == 0 && tail.ascii,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every length around the step and sum edges, every kind of byte at every position.
    #[test]
    fn agrees_with_the_portable_pass_at_every_edge() {
        let lens = [
            0,
            1,
            31,
            32,
            33,
            63,
            64,
            255 * 32 - 1,
            255 * 32,
            255 * 32 + 1,
            20_000,
        ];
        for &len in &lens {
            for (fill, odd) in [(b'a', b'\n'), (b'\n', b'\r'), (b'x', 0xC3), (b'\n', 0x80)] {
                let mut v = vec![fill; len];
                assert_eq!(survey(&v), portable(&v), "len {len} fill {fill}");
                for at in [0, len / 2, len.saturating_sub(1)] {
                    if at < len {
                        v[at] = odd;
                        assert_eq!(survey(&v), portable(&v), "len {len} {odd} at {at}");
                        v[at] = fill;
                    }
                }
            }
        }
    }

    #[test]
    fn counts_past_a_byte_lane() {
        // 255 steps of LFs overflow nothing: the lanes are summed before they wrap.
        let v = vec![b'\n'; 32 * 255 * 3 + 7];
        let s = survey(&v);
        assert_eq!(s.lf, v.len() as u64);
        assert!(!s.has_cr && s.ascii);
    }

    proptest! {
        #[test]
        fn any_bytes_survey_like_the_portable_pass(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), Just(0xE2u8), any::<u8>()],
                0..20_000,
            ),
        ) {
            prop_assert_eq!(survey(&bytes), portable(&bytes));
        }
    }
}
