//! Shared-memory bank conflicts: the wavefronts of one warp access under the phase model.

/// Words a phase may span for its bank count to use a bitmap instead of sorting.
const SEEN_WORDS: usize = 2048;

/// Shared-memory cost of one warp instruction: `(wavefronts, ideal)` under the phase model of DESIGN.md §3.
pub(crate) fn warp_wavefronts(
    idx: &[i64],
    mask: &[bool],
    size: u32,
    scratch: &mut Vec<i64>,
) -> (u64, u64) {
    let phase = match size {
        8 => 16,
        16 => 8,
        _ => 32,
    };
    let words_per_lane = (i64::from(size) / 4).max(1);
    let size = i64::from(size);
    let mut wavefronts = 0;
    let mut ideal = 0;
    for (ix, ms) in idx.chunks(phase).zip(mask.chunks(phase)) {
        // The first word of each active lane: the span of the phase's words, without storing them.
        let (lo, hi) = ix
            .iter()
            .zip(ms)
            .fold((i64::MAX, i64::MIN), |(lo, hi), (&i, &m)| {
                let word = i.wrapping_mul(size) >> 2;
                if m {
                    (lo.min(word), hi.max(word))
                } else {
                    (lo, hi)
                }
            });
        if lo > hi {
            continue;
        }
        ideal += 1;
        // Words within a window of 32 sit in distinct banks (or are one word, a broadcast):
        // one wavefront, no sorting.
        if hi + words_per_lane - 1 - lo < 32 {
            wavefronts += 1;
            continue;
        }
        // A full warp of words at a constant stride s (a column of a tile): 32 distinct words
        // over 32 / gcd(s, 32) banks, gcd(s, 32) words each.
        if size == 4 && ix.len() == 32 && ms.iter().all(|&m| m) {
            let stride = ix[1] - ix[0];
            if ix.windows(2).all(|w| w[1] - w[0] == stride) {
                wavefronts += 1 << stride.unsigned_abs().trailing_zeros().min(5);
                continue;
            }
        }
        let mut per_bank = [0u32; 32];
        if hi + words_per_lane - lo <= SEEN_WORDS as i64 {
            // Distinct words per bank, deduplicated in a bitmap of the phase's span: no sorting.
            let mut seen = [0u64; SEEN_WORDS / 64];
            for (&i, &m) in ix.iter().zip(ms) {
                if m {
                    let word = i.wrapping_mul(size) >> 2;
                    for w in word..word + words_per_lane {
                        let off = (w - lo) as usize;
                        let bit = 1u64 << (off % 64);
                        if seen[off / 64] & bit == 0 {
                            seen[off / 64] |= bit;
                            per_bank[(w & 31) as usize] += 1;
                        }
                    }
                }
            }
        } else {
            scratch.clear();
            for (&i, &m) in ix.iter().zip(ms) {
                if m {
                    let word = i.wrapping_mul(size) >> 2;
                    scratch.extend(word..word + words_per_lane);
                }
            }
            scratch.sort_unstable();
            scratch.dedup();
            for &w in scratch.iter() {
                per_bank[(w & 31) as usize] += 1;
            }
        }
        wavefronts += u64::from(*per_bank.iter().max().expect("32 banks"));
    }
    (wavefronts, ideal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(i64) -> i64) -> (Vec<i64>, Vec<bool>) {
        ((0..32).map(f).collect(), vec![true; 32])
    }

    #[test]
    fn wavefronts_count_distinct_words_per_bank() {
        let mut s = Vec::new();
        // Stride 1 floats: 32 banks, 1 word each.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (1, 1));
        // Stride 32 (a column of a 32×32 tile): all in bank 0, 32 words.
        let (i, m) = lanes(|l| l * 32);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (32, 1));
        // Stride 33 (padded tile): banks l*33 mod 32 = l: no conflict.
        let (i, m) = lanes(|l| l * 33);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (1, 1));
        // Stride 2: 16 banks × 2 words.
        let (i, m) = lanes(|l| l * 2);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (2, 1));
        // Broadcast: one word.
        let (i, m) = lanes(|_| 5);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (1, 1));
        // Doubles, stride 1: two half-warp phases of 16 lanes × 2 words = 32 banks each: 2 wavefronts, ideal 2.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_wavefronts(&i, &m, 8, &mut s), (2, 2));
        // Doubles, stride 2: per phase words 4l, 4l+1 → banks repeat every 8 lanes: 2-way → 4 wavefronts, ideal 2.
        let (i, m) = lanes(|l| l * 2);
        assert_eq!(warp_wavefronts(&i, &m, 8, &mut s), (4, 2));
        // Stride 100 words spans 3101 words (counted by sorting, not the bitmap): bank 100l mod 32
        // = 4l mod 32 → 8 banks × 4 words = 4 wavefronts.
        let (i, m) = lanes(|l| l * 100);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (4, 1));
        // Stride 3 spans 94 words but visits every bank once (3 is odd): 1. Stride 6: 2.
        let (i, m) = lanes(|l| l * 3);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (1, 1));
        let (i, m) = lanes(|l| l * 6);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (2, 1));
        // Stride 100 with the last lane back on word 0 (not a constant stride; a span over 2048
        // words, counted by sorting): 31 distinct words in banks 4l mod 32 → at most 4 per bank.
        let (mut i, m) = lanes(|l| l * 100);
        i[31] = 0;
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (4, 1));
        // Stride 32 with lane 0 inactive (not a full warp): 31 words in bank 0 → 31.
        let (i, mut m) = lanes(|l| l * 32);
        m[0] = false;
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (31, 1));
        // Stride 4 with lane pairs on one word (l / 2 * 4): 16 words in banks 0, 4, ..., 28 twice
        // → 2 wavefronts; the repeated words count once.
        let (i, m) = lanes(|l| l / 2 * 4);
        assert_eq!(warp_wavefronts(&i, &m, 4, &mut s), (2, 1));
        // Bytes: lanes 0..3 share a word (broadcast); 32 chars = 8 words in 8 banks.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_wavefronts(&i, &m, 1, &mut s), (1, 1));
    }
}
