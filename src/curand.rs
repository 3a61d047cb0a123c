//! cuRAND's XORWOW skip-ahead: powers of the generator's transition matrix over GF(2).
//!
//! XORWOW's five state words `v` change by a linear map over GF(2) (shifts and xors), so skipping
//! `n` steps is one 160×160 bit matrix, `A^n`. cuRAND's `curand_init` skips `2^67·subsequence +
//! offset` steps with tables of `A^(2^67·4^i)` and `A^(4^i)` (`curand_precalc.h`,
//! `precalc_xorwow_matrix` and `precalc_xorwow_offset_matrix`); simt computes the same powers by
//! repeated squaring, once per process, and applies each as 20 byte-indexed tables, so that a
//! million-thread `curand_init` adds well under a second (docs/curand.md has the measurement
//! and the header version this follows).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The state words a jump acts on (`curandStateXORWOW::v`).
pub type Words = [u32; 5];

/// The subsequence spacing: `skipahead_sequence(n)` skips `2^67·n` steps.
pub const SEQUENCE_SPACING: u32 = 67;

/// Exponents `2^k` tabulated: offsets need `k < 64`, subsequences `67 ≤ k < 131`.
const POWERS: usize = 64 + SEQUENCE_SPACING as usize;

/// One XORWOW step on `v` (`curand()` without the Weyl counter `d`).
pub fn step(v: Words) -> Words {
    let t = v[0] ^ (v[0] >> 2);
    [
        v[1],
        v[2],
        v[3],
        v[4],
        (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1)),
    ]
}

/// A linear map as the images of the 160 unit vectors (bit `j` of word `i` is column `32·i + j`).
type Columns = Vec<Words>;

/// `m` applied to `v`: the xor of the columns of `v`'s set bits.
fn apply(m: &Columns, v: Words) -> Words {
    let mut r = [0u32; 5];
    for (i, word) in v.iter().enumerate() {
        let mut bits = *word;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for (ri, ci) in r.iter_mut().zip(m[32 * i + j]) {
                *ri ^= ci;
            }
        }
    }
    r
}

/// A map as 20 tables, one per byte of the input: entry `b` of table `k` is the image of byte
/// value `b` in byte position `k`.
struct ByteTables(Vec<[Words; 256]>);

impl ByteTables {
    fn new(m: &Columns) -> ByteTables {
        let tables = (0..20)
            .map(|k| {
                let mut t = [[0u32; 5]; 256];
                for b in 1..256usize {
                    // The entry of `b` is that of `b` without its lowest bit, plus that bit's column.
                    let low = b.trailing_zeros() as usize;
                    let col = m[8 * k + low];
                    let rest = t[b & (b - 1)];
                    t[b] = std::array::from_fn(|w| rest[w] ^ col[w]);
                }
                t
            })
            .collect();
        ByteTables(tables)
    }

    fn apply(&self, v: Words) -> Words {
        let mut r = [0u32; 5];
        for (k, table) in self.0.iter().enumerate() {
            let byte = (v[k / 4] >> (8 * (k % 4))) & 0xff;
            let e = table[byte as usize];
            for w in 0..5 {
                r[w] ^= e[w];
            }
        }
        r
    }
}

/// `A^(2^k)` for `k < POWERS`, computed on first use.
fn powers() -> &'static [ByteTables] {
    static POWERS_OF_A: OnceLock<Vec<ByteTables>> = OnceLock::new();
    POWERS_OF_A.get_or_init(|| {
        let unit = |c: usize| -> Words {
            let mut v = [0u32; 5];
            v[c / 32] = 1 << (c % 32);
            v
        };
        let mut m: Columns = (0..160).map(|c| step(unit(c))).collect();
        let mut out = Vec::with_capacity(POWERS);
        for _ in 0..POWERS {
            out.push(ByteTables::new(&m));
            // Squaring: the image of each column under the map itself.
            m = m.iter().map(|&c| apply(&m, c)).collect();
        }
        out
    })
}

/// A skip's result, remembered: the header asks for the five words of one skip in turn (a warp
/// instruction each, over all lanes), so each lane's skip is computed once, not five times.
type Memo = HashMap<(Words, u64, bool), Words>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(HashMap::new());
}

/// Skips remembered per worker thread before the memo starts afresh (a warp's 32 lanes times
/// the blocks one thread may interleave).
const MEMO_LIMIT: usize = 4096;

/// [`skip`], remembered for the other words of the same skip.
pub fn skip_memo(v: Words, n: u64, sequence: bool) -> Words {
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(r) = memo.get(&(v, n, sequence)) {
            return *r;
        }
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        let r = skip(v, n, sequence);
        memo.insert((v, n, sequence), r);
        r
    })
}

/// `v` after `n` steps (`skipahead(n, &state)`, without the Weyl counter), or after `2^67·n`
/// steps when `sequence` (`skipahead_sequence(n, &state)`).
pub fn skip(v: Words, n: u64, sequence: bool) -> Words {
    let base = if sequence {
        SEQUENCE_SPACING as usize
    } else {
        0
    };
    let powers = powers();
    let mut v = v;
    let mut bits = n;
    while bits != 0 {
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        v = powers[base + k].apply(v);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marsaglia's published xorwow seed (cuRAND's state for seed 0 before the salt is applied).
    const V: Words = [123456789, 362436069, 521288629, 88675123, 5783321];

    #[test]
    fn small_skips_are_steps() {
        let mut v = V;
        for n in 0..40u64 {
            assert_eq!(skip(V, n, false), v, "n = {n}");
            v = step(v);
        }
    }

    #[test]
    fn skips_compose() {
        // A^(a+b) = A^a A^b, across the table boundary at 2^64 steps.
        let a = 0x8000_0000_0000_0001u64;
        let b = 12345u64;
        assert_eq!(skip(skip(V, a, false), b, false), skip(V, a + b, false));
        // 2^67·n = 2^63·(16·n): eight skips of 2^63·2 steps are one subsequence.
        let mut w = V;
        for _ in 0..8 {
            w = skip(w, 1u64 << 63, false);
            w = skip(w, 1u64 << 63, false);
        }
        assert_eq!(w, skip(V, 1, true));
    }

    #[test]
    fn the_memo_gives_what_it_remembers() {
        for n in [0u64, 1, 77, u64::MAX] {
            for sequence in [false, true] {
                assert_eq!(skip_memo(V, n, sequence), skip(V, n, sequence));
                assert_eq!(skip_memo(V, n, sequence), skip(V, n, sequence));
            }
        }
    }

    #[test]
    fn first_columns_match_curand_precalc() {
        // The first five words of `precalc_xorwow_matrix[0]` and `[1]` in NVIDIA's
        // curand_precalc.h (CUDA 11, as vendored in ggerganov/llama.cpp @ f555db44,
        // include/cuda/curand_precalc.h): the image of bit 0 of v[0] under A^(2^67) and A^(2^69).
        assert_eq!(
            skip([1, 0, 0, 0, 0], 1, true),
            [850664906, 2293210629, 1517805917, 1215500405, 1612415445]
        );
        assert_eq!(
            skip([1, 0, 0, 0, 0], 4, true),
            [1680024716, 2112340059, 3387475367, 2080916186, 1431532386]
        );
    }
}
