//! Global buffers and shared arrays: typed storage, bounds-checked gather/scatter, sector and bank accounting.

use super::cells::Cell;
use super::regs::Stored;
use crate::value::Scalar;

/// Typed storage of a buffer or shared array.
#[derive(Clone, Debug, PartialEq)]
pub enum BufData {
    /// `bool`
    Bool(Vec<bool>),
    /// `char`
    I8(Vec<i8>),
    /// `unsigned char`
    U8(Vec<u8>),
    /// `short`
    I16(Vec<i16>),
    /// `unsigned short`
    U16(Vec<u16>),
    /// `int`
    I32(Vec<i32>),
    /// `unsigned int`
    U32(Vec<u32>),
    /// `long long`
    I64(Vec<i64>),
    /// `unsigned long long`
    U64(Vec<u64>),
    /// `float`
    F32(Vec<f32>),
    /// `double`
    F64(Vec<f64>),
}

/// Runs `$body` with `$v` bound to the typed vector of a `BufData`.
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            BufData::Bool($v) => $body,
            BufData::I8($v) => $body,
            BufData::U8($v) => $body,
            BufData::I16($v) => $body,
            BufData::U16($v) => $body,
            BufData::I32($v) => $body,
            BufData::U32($v) => $body,
            BufData::I64($v) => $body,
            BufData::U64($v) => $body,
            BufData::F32($v) => $body,
            BufData::F64($v) => $body,
        }
    };
}
pub(crate) use with_data;

impl BufData {
    /// `len` zeros of `elem`.
    pub fn zeros(elem: Scalar, len: usize) -> BufData {
        match elem {
            Scalar::Bool => BufData::Bool(vec![false; len]),
            Scalar::I8 => BufData::I8(vec![0; len]),
            Scalar::U8 => BufData::U8(vec![0; len]),
            Scalar::I16 => BufData::I16(vec![0; len]),
            Scalar::U16 => BufData::U16(vec![0; len]),
            Scalar::I32 => BufData::I32(vec![0; len]),
            Scalar::U32 => BufData::U32(vec![0; len]),
            Scalar::I64 => BufData::I64(vec![0; len]),
            Scalar::U64 => BufData::U64(vec![0; len]),
            Scalar::F32 => BufData::F32(vec![0.0; len]),
            Scalar::F64 => BufData::F64(vec![0.0; len]),
        }
    }

    /// Converts host values (doubles) to `elem` with C casts.
    pub fn from_f64(elem: Scalar, v: &[f64]) -> BufData {
        match elem {
            Scalar::Bool => BufData::Bool(v.iter().map(|&x| x != 0.0).collect()),
            Scalar::I8 => BufData::I8(v.iter().map(|&x| x as i64 as i8).collect()),
            Scalar::U8 => BufData::U8(v.iter().map(|&x| x as i64 as u8).collect()),
            Scalar::I16 => BufData::I16(v.iter().map(|&x| x as i64 as i16).collect()),
            Scalar::U16 => BufData::U16(v.iter().map(|&x| x as i64 as u16).collect()),
            Scalar::I32 => BufData::I32(v.iter().map(|&x| x as i64 as i32).collect()),
            Scalar::U32 => BufData::U32(v.iter().map(|&x| x as i64 as u32).collect()),
            Scalar::I64 => BufData::I64(v.iter().map(|&x| x as i64).collect()),
            Scalar::U64 => BufData::U64(v.iter().map(|&x| x as u64).collect()),
            Scalar::F32 => BufData::F32(v.iter().map(|&x| x as f32).collect()),
            Scalar::F64 => BufData::F64(v.to_vec()),
        }
    }

    /// Elements `start..start + out.len()` as doubles (host arithmetic works a chunk at a time).
    pub fn read_f64(&self, start: usize, out: &mut [f64]) {
        let end = start + out.len();
        macro_rules! read {
            ($v:expr, |$x:ident| $f:expr) => {
                for (o, &$x) in out.iter_mut().zip(&$v[start..end]) {
                    *o = $f;
                }
            };
        }
        match self {
            BufData::Bool(v) => read!(v, |x| f64::from(u8::from(x))),
            BufData::I8(v) => read!(v, |x| f64::from(x)),
            BufData::U8(v) => read!(v, |x| f64::from(x)),
            BufData::I16(v) => read!(v, |x| f64::from(x)),
            BufData::U16(v) => read!(v, |x| f64::from(x)),
            BufData::I32(v) => read!(v, |x| f64::from(x)),
            BufData::U32(v) => read!(v, |x| f64::from(x)),
            BufData::I64(v) => read!(v, |x| x as f64),
            BufData::U64(v) => read!(v, |x| x as f64),
            BufData::F32(v) => read!(v, |x| f64::from(x)),
            BufData::F64(v) => out.copy_from_slice(&v[start..end]),
        }
    }

    /// Element `i` as a double.
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        (i < self.len()).then(|| {
            let mut x = [0.0];
            self.read_f64(i, &mut x);
            x[0]
        })
    }

    /// Every element as a double: borrowed when they are doubles already.
    pub fn as_f64(&self) -> std::borrow::Cow<'_, [f64]> {
        match self {
            BufData::F64(v) => std::borrow::Cow::Borrowed(v),
            other => {
                let mut out = vec![0.0; other.len()];
                other.read_f64(0, &mut out);
                std::borrow::Cow::Owned(out)
            }
        }
    }

    /// Elements.
    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    pub fn elem(&self) -> Scalar {
        match self {
            BufData::Bool(_) => Scalar::Bool,
            BufData::I8(_) => Scalar::I8,
            BufData::U8(_) => Scalar::U8,
            BufData::I16(_) => Scalar::I16,
            BufData::U16(_) => Scalar::U16,
            BufData::I32(_) => Scalar::I32,
            BufData::U32(_) => Scalar::U32,
            BufData::I64(_) => Scalar::I64,
            BufData::U64(_) => Scalar::U64,
            BufData::F32(_) => Scalar::F32,
            BufData::F64(_) => Scalar::F64,
        }
    }

    /// Sets every element to zero.
    pub(crate) fn clear(&mut self) {
        with_data!(self, v => v.iter_mut().for_each(|x| *x = Default::default()))
    }
}

/// A memory element type and its register storage.
pub(crate) trait Elem: Copy + Default + PartialEq + 'static {
    type S: Stored;
    fn to_reg(self) -> Self::S;
    fn from_reg(s: Self::S) -> Self;
}

macro_rules! elem {
    ($t:ty, $s:ty, |$x:ident| $load:expr, |$y:ident| $store:expr) => {
        impl Elem for $t {
            type S = $s;
            #[inline(always)]
            fn to_reg(self) -> $s {
                let $x = self;
                $load
            }
            #[inline(always)]
            fn from_reg(s: $s) -> Self {
                let $y = s;
                $store
            }
        }
    };
}
elem!(bool, bool, |x| x, |y| y);
elem!(i8, u32, |x| x as i32 as u32, |y| y as i8);
elem!(u8, u32, |x| u32::from(x), |y| y as u8);
elem!(i16, u32, |x| x as i32 as u32, |y| y as i16);
elem!(u16, u32, |x| u32::from(x), |y| y as u16);
elem!(i32, u32, |x| x as u32, |y| y as i32);
elem!(u32, u32, |x| x, |y| y);
elem!(i64, u64, |x| x as u64, |y| y as i64);
elem!(u64, u64, |x| x, |y| y);
elem!(f32, f32, |x| x, |y| y);
elem!(f64, f64, |x| x, |y| y);

/// The lowest and highest index of one warp's active lanes.
pub(crate) type Extent = (i64, i64);

/// Per warp of `idx`: the lowest and highest `key` of its active lanes, `(i64::MAX, i64::MIN)` for
/// a warp with none. `full`: every lane is active (a branch-free pass). `key` reads a register as
/// its index type, so that 32-bit indices are scanned as they are (4 lanes to an SSE2 compare).
pub(crate) fn warp_spans<T: Copy, K: Copy + Ord + Into<i64>>(
    idx: &[T],
    key: impl Fn(T) -> K,
    mask: &[bool],
    full: bool,
    out: &mut [Extent],
) {
    for ((o, ix), ms) in out.iter_mut().zip(idx.chunks(32)).zip(mask.chunks(32)) {
        *o = if full {
            let first = key(ix[0]);
            let (lo, hi) = ix.iter().fold((first, first), |(lo, hi), &i| {
                let i = key(i);
                (lo.min(i), hi.max(i))
            });
            (lo.into(), hi.into())
        } else {
            ix.iter()
                .zip(ms)
                .fold((i64::MAX, i64::MIN), |(lo, hi), (&i, &m)| {
                    if m {
                        let i = key(i).into();
                        (lo.min(i), hi.max(i))
                    } else {
                        (lo, hi)
                    }
                })
        };
    }
}

/// The first active lane whose index is outside `0..len`, given each warp's span (`warp_spans`).
pub(crate) fn out_of_bounds(
    idx: &[i64],
    mask: &[bool],
    len: usize,
    spans: &[Extent],
) -> Option<usize> {
    let len = len as i64;
    if spans
        .iter()
        .all(|&(lo, hi)| lo > hi || (lo >= 0 && hi < len))
    {
        return None;
    }
    idx.iter()
        .zip(mask)
        .position(|(&i, &m)| m && !(0..len).contains(&i))
}

/// Element slots a memory instruction reads and writes in register form.
pub(crate) trait Slots {
    type S: Stored;
    fn get(&self, i: usize) -> Self::S;
    fn put(&mut self, i: usize, v: Self::S);
    /// `dst[l] = mem[first + l]` for every lane.
    fn get_run(&self, first: usize, dst: &mut [Self::S]);
    /// `mem[first + l] = src[l]` for every lane.
    fn put_run(&mut self, first: usize, src: &[Self::S]);
}

/// A block's own memory (shared arrays): plain elements.
pub(crate) struct Plain<'a, E>(pub(crate) &'a mut [E]);

/// Global memory: cells shared with the other worker threads.
pub(crate) struct Global<'a, C>(pub(crate) &'a [C]);

impl<E: Elem> Slots for Plain<'_, E> {
    type S = E::S;
    #[inline(always)]
    fn get(&self, i: usize) -> E::S {
        self.0[i].to_reg()
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: E::S) {
        self.0[i] = E::from_reg(v);
    }
    fn get_run(&self, first: usize, dst: &mut [E::S]) {
        let n = dst.len();
        for (o, e) in dst.iter_mut().zip(&self.0[first..first + n]) {
            *o = e.to_reg();
        }
    }
    fn put_run(&mut self, first: usize, src: &[E::S]) {
        for (e, &v) in self.0[first..first + src.len()].iter_mut().zip(src) {
            *e = E::from_reg(v);
        }
    }
}

impl<C: Cell> Slots for Global<'_, C> {
    type S = C::S;
    #[inline(always)]
    fn get(&self, i: usize) -> C::S {
        self.0[i].get()
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: C::S) {
        self.0[i].put(v)
    }
    fn get_run(&self, first: usize, dst: &mut [C::S]) {
        let n = dst.len();
        for (o, c) in dst.iter_mut().zip(&self.0[first..first + n]) {
            *o = c.get();
        }
    }
    fn put_run(&mut self, first: usize, src: &[C::S]) {
        for (c, &v) in self.0[first..first + src.len()].iter().zip(src) {
            c.put(v);
        }
    }
}

/// `dst[lane] = mem[idx[lane]]` for active lanes (indices already checked).
pub(crate) fn gather<M: Slots>(mem: &M, idx: &[i64], mask: &[bool], full: bool, dst: &mut [M::S]) {
    if full {
        for (o, &i) in dst.iter_mut().zip(idx) {
            *o = mem.get(i as usize);
        }
        return;
    }
    for ((o, &i), &m) in dst.iter_mut().zip(idx).zip(mask) {
        if m {
            *o = mem.get(i as usize);
        }
    }
}

/// `mem[idx[lane]] = src[lane]` for active lanes in lane order (indices already checked).
pub(crate) fn scatter<M: Slots>(mem: &mut M, idx: &[i64], mask: &[bool], src: &[M::S]) {
    for ((&v, &i), &m) in src.iter().zip(idx).zip(mask) {
        if m {
            mem.put(i as usize, v);
        }
    }
}

/// Global-memory cost of one warp instruction: distinct 32-byte sectors its active lanes touch.
///
/// Every access is naturally aligned (buffers start sector-aligned, elements and vectors are 1–16
/// bytes at multiples of their size), so each lane touches exactly one sector. The common case —
/// lanes in address order — is counted in one pass; anything else is sorted.
pub(crate) fn warp_sectors(
    idx: &[i64],
    mask: &[bool],
    size: u32,
    full: bool,
    scratch: &mut Vec<i64>,
) -> u64 {
    debug_assert!(size <= 32 && 32 % size == 0, "accesses are 1 to 32 bytes");
    let size = i64::from(size);
    if full && !idx.is_empty() {
        // Every lane active: a branch-free pass over neighbours.
        let (mut increasing, mut changes) = (true, 0u64);
        for w in idx.windows(2) {
            let (a, b) = ((w[0] * size) >> 5, (w[1] * size) >> 5);
            increasing &= b >= a;
            changes += u64::from(b != a);
        }
        if increasing {
            return changes + 1;
        }
        return sorted_distinct(idx, mask, |i| (i * size) >> 5, scratch);
    }
    let mut count = 0u64;
    let mut prev = i64::MIN;
    for (&i, &m) in idx.iter().zip(mask) {
        if m {
            let s = (i * size) >> 5;
            if s < prev {
                return sorted_distinct(idx, mask, |i| (i * size) >> 5, scratch);
            }
            count += u64::from(s != prev);
            prev = s;
        }
    }
    count
}

/// Distinct values of `key(idx[lane])` over active lanes, by sorting.
fn sorted_distinct(
    idx: &[i64],
    mask: &[bool],
    key: impl Fn(i64) -> i64,
    scratch: &mut Vec<i64>,
) -> u64 {
    scratch.clear();
    scratch.extend(
        idx.iter()
            .zip(mask)
            .filter(|(_, &m)| m)
            .map(|(&i, _)| key(i)),
    );
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len() as u64
}

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
                let word = (i * size) >> 2;
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
                    let word = (i * size) >> 2;
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
                    let word = (i * size) >> 2;
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

/// Whether every lane is active and lane `l` of each warp accesses its first lane's index + `l`:
/// the coalesced case, also for rows of a 2-D block.
pub(crate) fn warp_runs(idx: &[i64], full: bool) -> bool {
    // `p[1] > p[0]`: an index wrapping from i64::MAX to i64::MIN is no run.
    full && idx.chunks(32).all(|w| {
        w.windows(2).fold(true, |ok, p| {
            ok & (p[1].wrapping_sub(p[0]) == 1) & (p[1] > p[0])
        })
    })
}

/// Sectors of a contiguous run of `n` elements of `size` bytes starting at element `first`.
pub(crate) fn run_sectors(first: i64, n: i64, size: u32) -> u64 {
    let size = i64::from(size);
    (((first + n) * size - 1) >> 5) as u64 - ((first * size) >> 5) as u64 + 1
}

/// Whether two active lanes store to one index (block-wide), the reference's global race rule.
pub(crate) fn has_duplicate(
    idx: &[i64],
    mask: &[bool],
    full: bool,
    scratch: &mut Vec<i64>,
) -> bool {
    if full && idx.windows(2).fold(true, |ok, w| ok & (w[1] > w[0])) {
        return false;
    }
    let mut prev = i64::MIN;
    let mut active = 0usize;
    let mut increasing = true;
    for (&i, &m) in idx.iter().zip(mask) {
        if m {
            active += 1;
            if increasing && active > 1 && i <= prev {
                increasing = false;
            }
            prev = i;
        }
    }
    !increasing && sorted_distinct(idx, mask, |i| i, scratch) < active as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(i64) -> i64) -> (Vec<i64>, Vec<bool>) {
        ((0..32).map(f).collect(), vec![true; 32])
    }

    #[test]
    fn the_full_warp_path_counts_like_the_general_one() {
        let mut s = Vec::new();
        let m = vec![true; 32];
        let patterns: Vec<Vec<i64>> = vec![
            (0..32).collect(),
            (1..33).collect(),
            (0..32).map(|l| l * 2).collect(),
            (0..32).map(|l| 31 - l).collect(),
            (0..32).map(|l| (l * 7) % 32).collect(),
            vec![5; 32],
        ];
        for p in &patterns {
            for size in [1, 2, 4, 8, 16] {
                assert_eq!(
                    warp_sectors(p, &m, size, true, &mut s),
                    warp_sectors(p, &m, size, false, &mut s)
                );
            }
            assert_eq!(
                has_duplicate(p, &m, true, &mut s),
                has_duplicate(p, &m, false, &mut s)
            );
            let mut spans = [(0, 0)];
            warp_spans(p, |i| i, &m, true, &mut spans);
            let full = out_of_bounds(p, &m, 32, &spans);
            warp_spans(p, |i| i, &m, false, &mut spans);
            assert_eq!(full, out_of_bounds(p, &m, 32, &spans));
            assert_eq!(full, p.iter().position(|&i| !(0..32).contains(&i)));
        }
    }

    #[test]
    fn spans_cover_active_lanes_per_warp() {
        // 40 lanes = a full warp and 8 lanes of a second; lane l on 100 - l, lanes 3 and 35 inactive.
        let idx: Vec<i64> = (0..40).map(|l| 100 - l).collect();
        let mut mask = vec![true; 40];
        mask[0] = false;
        mask[35] = false;
        let mut spans = [(0, 0); 2];
        warp_spans(&idx, |i| i, &mask, false, &mut spans);
        // Warp 0: lanes 1..31 → 69..=99; warp 1: lanes 32..39 but 35 → 61..=68.
        assert_eq!(spans, [(69, 99), (61, 68)]);
        // No active lane: an empty span.
        warp_spans(&idx, |i| i, &[false; 40], false, &mut spans);
        assert!(spans.iter().all(|&(lo, hi)| lo > hi));
        assert_eq!(out_of_bounds(&idx, &[false; 40], 0, &spans), None);
        // Every lane: 61..=100; 100 is out of an array of 100 elements (lane 0).
        warp_spans(&idx, |i| i, &[true; 40], true, &mut spans);
        assert_eq!(spans, [(69, 100), (61, 68)]);
        assert_eq!(out_of_bounds(&idx, &[true; 40], 100, &spans), Some(0));
        // With lane 0 inactive nothing is out.
        warp_spans(&idx, |i| i, &mask, false, &mut spans);
        assert_eq!(out_of_bounds(&idx, &mask, 100, &spans), None);
    }

    #[test]
    fn sectors_follow_the_byte_rules() {
        let mut s = Vec::new();
        // 32 contiguous floats = 128 B = 4 sectors.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 4);
        // Shifted by one float: bytes 4..132 touch 5 sectors.
        let (i, m) = lanes(|l| l + 1);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 5);
        // 32 contiguous doubles = 256 B = 8 sectors.
        assert_eq!(
            warp_sectors(&(0..32).collect::<Vec<_>>(), &m, 8, true, &mut s),
            8
        );
        // Stride 8 floats = 32 B apart: one sector per lane.
        let (i, m) = lanes(|l| l * 8);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 32);
        // Stride 2: 256 B span = 8 sectors.
        let (i, m) = lanes(|l| l * 2);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 8);
        // Reversed order is the same set.
        let (i, m) = lanes(|l| 31 - l);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 4);
        // All lanes on one element: 1 sector.
        let (i, m) = lanes(|_| 7);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 1);
        // Only lane 0 active: 1 sector.
        let mut one = vec![false; 32];
        one[0] = true;
        assert_eq!(warp_sectors(&i, &one, 4, false, &mut s), 1);
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

    #[test]
    fn contiguous_runs() {
        assert!(warp_runs(&[4, 5, 6, 7], true));
        assert!(!warp_runs(&[4, 5, 7, 8], true));
        assert!(!warp_runs(&[4, 5, 6, 7], false));
        // Two warps, each consecutive on its own (rows 0 and 10 of a 2-D block): runs.
        let rows: Vec<i64> = (0..32).chain(320..352).collect();
        assert!(warp_runs(&rows, true));
        // Lanes wrapping past the largest index are not a run (they were once taken for one).
        assert!(!warp_runs(
            &[i64::MAX - 1, i64::MAX, i64::MIN, i64::MIN + 1],
            true
        ));
        // A break inside the second warp is not.
        let mut broken = rows.clone();
        broken[40] = 0;
        assert!(!warp_runs(&broken, true));
        // 32 floats from element 1: bytes 4..132 = sectors 0..4 = 5; from 0: 4; 8 doubles from 0: 2.
        assert_eq!(run_sectors(1, 32, 4), 5);
        assert_eq!(run_sectors(0, 32, 4), 4);
        assert_eq!(run_sectors(0, 8, 8), 2);
        assert_eq!(run_sectors(3, 1, 16), 1);
    }

    #[test]
    fn duplicates_in_one_store() {
        let mut s = Vec::new();
        let m = vec![true; 4];
        assert!(!has_duplicate(&[0, 1, 2, 3], &m, true, &mut s));
        assert!(has_duplicate(&[3, 1, 2, 3], &m, true, &mut s));
        assert!(!has_duplicate(
            &[3, 1, 2, 3],
            &[true, true, true, false],
            false,
            &mut s
        ));
    }
}
