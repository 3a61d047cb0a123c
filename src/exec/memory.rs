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
        BufData::from_f64(elem, &vec![0.0; len])
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

    /// Every element as a double (for `expect` and reports).
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            BufData::Bool(v) => v.iter().map(|&x| f64::from(u8::from(x))).collect(),
            BufData::I8(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::U8(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::I16(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::U16(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::I32(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::U32(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::I64(v) => v.iter().map(|&x| x as f64).collect(),
            BufData::U64(v) => v.iter().map(|&x| x as f64).collect(),
            BufData::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
            BufData::F64(v) => v.clone(),
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

/// The first active lane whose index is outside `0..len`.
pub(crate) fn out_of_bounds(idx: &[i64], mask: &[bool], len: usize) -> Option<usize> {
    let len = len as i64;
    idx.iter()
        .zip(mask)
        .position(|(&i, &m)| m && !(0..len).contains(&i))
}

/// Element slots a memory instruction reads and writes in register form.
pub(crate) trait Slots {
    type S: Stored;
    fn get(&self, i: usize) -> Self::S;
    fn put(&mut self, i: usize, v: Self::S);
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
}

/// `dst[lane] = mem[idx[lane]]` for active lanes (indices already checked).
pub(crate) fn gather<M: Slots>(mem: &M, idx: &[i64], mask: &[bool], dst: &mut [M::S]) {
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
pub(crate) fn warp_sectors(idx: &[i64], mask: &[bool], size: u32, scratch: &mut Vec<i64>) -> u64 {
    scratch.clear();
    let size = i64::from(size);
    for (&i, &m) in idx.iter().zip(mask) {
        if m {
            let first = (i * size) >> 5;
            let last = (i * size + size - 1) >> 5;
            scratch.push(first);
            if last != first {
                scratch.push(last);
            }
        }
    }
    if !scratch.windows(2).all(|w| w[0] <= w[1]) {
        scratch.sort_unstable();
    }
    let mut n = 0u64;
    let mut prev = None;
    for &s in scratch.iter() {
        if prev != Some(s) {
            n += 1;
            prev = Some(s);
        }
    }
    n
}

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
    let mut wavefronts = 0;
    let mut ideal = 0;
    for (ix, ms) in idx.chunks(phase).zip(mask.chunks(phase)) {
        scratch.clear();
        for (&i, &m) in ix.iter().zip(ms) {
            if m {
                let word = (i * i64::from(size)) >> 2;
                for k in 0..words_per_lane {
                    scratch.push(word + k);
                }
            }
        }
        if scratch.is_empty() {
            continue;
        }
        scratch.sort_unstable();
        scratch.dedup();
        let mut per_bank = [0u32; 32];
        for &w in scratch.iter() {
            per_bank[(w & 31) as usize] += 1;
        }
        wavefronts += u64::from(*per_bank.iter().max().expect("32 banks"));
        ideal += 1;
    }
    (wavefronts, ideal)
}

/// Whether two active lanes store to one index (block-wide), the reference's global race rule.
pub(crate) fn has_duplicate(idx: &[i64], mask: &[bool], scratch: &mut Vec<i64>) -> bool {
    scratch.clear();
    scratch.extend(idx.iter().zip(mask).filter(|(_, &m)| m).map(|(&i, _)| i));
    if scratch.windows(2).all(|w| w[0] < w[1]) {
        return false;
    }
    scratch.sort_unstable();
    scratch.windows(2).any(|w| w[0] == w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(i64) -> i64) -> (Vec<i64>, Vec<bool>) {
        ((0..32).map(f).collect(), vec![true; 32])
    }

    #[test]
    fn sectors_follow_the_byte_rules() {
        let mut s = Vec::new();
        // 32 contiguous floats = 128 B = 4 sectors.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 4);
        // Shifted by one float: bytes 4..132 touch 5 sectors.
        let (i, m) = lanes(|l| l + 1);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 5);
        // 32 contiguous doubles = 256 B = 8 sectors.
        assert_eq!(warp_sectors(&(0..32).collect::<Vec<_>>(), &m, 8, &mut s), 8);
        // Stride 8 floats = 32 B apart: one sector per lane.
        let (i, m) = lanes(|l| l * 8);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 32);
        // Stride 2: 256 B span = 8 sectors.
        let (i, m) = lanes(|l| l * 2);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 8);
        // Reversed order is the same set.
        let (i, m) = lanes(|l| 31 - l);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 4);
        // All lanes on one element: 1 sector.
        let (i, m) = lanes(|_| 7);
        assert_eq!(warp_sectors(&i, &m, 4, &mut s), 1);
        // Only lane 0 active: 1 sector.
        let mut one = vec![false; 32];
        one[0] = true;
        assert_eq!(warp_sectors(&i, &one, 4, &mut s), 1);
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
        // Bytes: lanes 0..3 share a word (broadcast); 32 chars = 8 words in 8 banks.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_wavefronts(&i, &m, 1, &mut s), (1, 1));
    }

    #[test]
    fn duplicates_in_one_store() {
        let mut s = Vec::new();
        let m = vec![true; 4];
        assert!(!has_duplicate(&[0, 1, 2, 3], &m, &mut s));
        assert!(has_duplicate(&[3, 1, 2, 3], &m, &mut s));
        assert!(!has_duplicate(
            &[3, 1, 2, 3],
            &[true, true, true, false],
            &mut s
        ));
    }
}
