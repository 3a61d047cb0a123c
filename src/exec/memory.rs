//! Global buffers and shared arrays: typed storage, conversions to and from doubles, gather and scatter.

use super::cells::{Cell, Cell16};
use super::regs::Stored;
use crate::value::{round_half, Scalar};
use half::{bf16, f16};

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
    /// `half`
    F16(Vec<f16>),
    /// `__nv_bfloat16`
    BF16(Vec<bf16>),
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
            BufData::F16($v) => $body,
            BufData::BF16($v) => $body,
        }
    };
}
pub(crate) use with_data;

/// Runs `$read!(v, |x| double of x)` on the typed vector of a `BufData`, with the conversion of
/// its element type to a double.
macro_rules! as_f64 {
    ($data:expr, $read:ident) => {
        match $data {
            BufData::Bool(v) => $read!(v, |x| f64::from(u8::from(x))),
            BufData::I8(v) => $read!(v, |x| f64::from(x)),
            BufData::U8(v) => $read!(v, |x| f64::from(x)),
            BufData::I16(v) => $read!(v, |x| f64::from(x)),
            BufData::U16(v) => $read!(v, |x| f64::from(x)),
            BufData::I32(v) => $read!(v, |x| f64::from(x)),
            BufData::U32(v) => $read!(v, |x| f64::from(x)),
            BufData::I64(v) => $read!(v, |x| x as f64),
            BufData::U64(v) => $read!(v, |x| x as f64),
            BufData::F32(v) => $read!(v, |x| f64::from(x)),
            BufData::F64(v) => $read!(v, |x| x),
            BufData::F16(v) => $read!(v, |x| x.to_f64()),
            BufData::BF16(v) => $read!(v, |x| x.to_f64()),
        }
    };
}

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
            Scalar::F16 => BufData::F16(vec![f16::ZERO; len]),
            Scalar::BF16 => BufData::BF16(vec![bf16::ZERO; len]),
        }
    }

    /// Converts host values (doubles) to `elem` with C casts.
    pub fn from_f64(elem: Scalar, v: &[f64]) -> BufData {
        BufData::from_fn(elem, v.len(), |i| v[i])
    }

    /// `len` elements of `elem`, element `i` being `f(i)` converted with a C cast, written
    /// straight into the buffer's type, in parallel chunks (`f` depends on the index only, so
    /// the result is the same for any number of threads).
    pub fn from_fn(elem: Scalar, len: usize, f: impl Fn(usize) -> f64 + Sync) -> BufData {
        let f = &f;
        match elem {
            Scalar::Bool => BufData::Bool(filled(len, f, |x| x != 0.0)),
            Scalar::I8 => BufData::I8(filled(len, f, |x| x as i64 as i8)),
            Scalar::U8 => BufData::U8(filled(len, f, |x| x as i64 as u8)),
            Scalar::I16 => BufData::I16(filled(len, f, |x| x as i64 as i16)),
            Scalar::U16 => BufData::U16(filled(len, f, |x| x as i64 as u16)),
            Scalar::I32 => BufData::I32(filled(len, f, |x| x as i64 as i32)),
            Scalar::U32 => BufData::U32(filled(len, f, |x| x as i64 as u32)),
            Scalar::I64 => BufData::I64(filled(len, f, |x| x as i64)),
            Scalar::U64 => BufData::U64(filled(len, f, |x| x as u64)),
            Scalar::F32 => BufData::F32(filled(len, f, |x| x as f32)),
            Scalar::F64 => BufData::F64(filled(len, f, |x| x)),
            Scalar::F16 => BufData::F16(filled(len, f, |x| {
                f16::from_f32(round_half(x, Scalar::F16))
            })),
            Scalar::BF16 => BufData::BF16(filled(len, f, |x| {
                bf16::from_f32(round_half(x, Scalar::BF16))
            })),
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
        as_f64!(self, read);
    }

    /// Elements `start`, `start + stride`, … (`out.len()` of them) as doubles: a column of a
    /// row-major matrix (the host's `transpose`).
    pub fn read_strided_f64(&self, start: usize, stride: usize, out: &mut [f64]) {
        macro_rules! read {
            ($v:expr, |$x:ident| $f:expr) => {
                for (k, o) in out.iter_mut().enumerate() {
                    let $x = $v[start + k * stride];
                    *o = $f;
                }
            };
        }
        as_f64!(self, read);
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

    /// A copy of the elements from `start` on (none when `start` is past the end).
    pub fn tail(&self, start: usize) -> BufData {
        macro_rules! tail {
            ($($k:ident),*) => {
                match self {
                    $(BufData::$k(v) => BufData::$k(v.get(start..).unwrap_or_default().to_vec()),)*
                }
            };
        }
        tail!(Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, F16, BF16)
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
            BufData::F16(_) => Scalar::F16,
            BufData::BF16(_) => Scalar::BF16,
        }
    }

    /// The same bytes (little-endian, as the GPU's) as elements of `to`, whose size divides
    /// them (a `bool` buffer is never re-typed).
    pub(crate) fn reinterpret(&self, to: Scalar) -> BufData {
        let mut bytes = Vec::with_capacity(self.len() * self.elem().size() as usize);
        macro_rules! put {
            ($($t:ident),*) => {
                match self {
                    BufData::Bool(v) => bytes.extend(v.iter().map(|&b| u8::from(b))),
                    $(BufData::$t(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),)*
                }
            };
        }
        put!(I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, F16, BF16);
        macro_rules! take {
            ($($t:ident: $ty:ty),*) => {
                match to {
                    Scalar::Bool => BufData::Bool(bytes.iter().map(|&b| b != 0).collect()),
                    $(Scalar::$t => BufData::$t(
                        bytes
                            .chunks_exact(std::mem::size_of::<$ty>())
                            .map(|c| <$ty>::from_le_bytes(c.try_into().expect("chunk of the size")))
                            .collect(),
                    ),)*
                }
            };
        }
        take!(I8: i8, U8: u8, I16: i16, U16: u16, I32: i32, U32: u32, I64: i64, U64: u64,
            F32: f32, F64: f64, F16: f16, BF16: bf16)
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
// A 16-bit float is a `float` in a register; storing one rounds to nearest even (`cvt.rn.f16.f32`).
elem!(f16, f32, |x| x.to_f32(), |y| f16::from_f32(y));
elem!(bf16, f32, |x| x.to_f32(), |y| bf16::from_f32(y));

/// Element slots a memory instruction reads and writes in register form.
pub(crate) trait Slots {
    type S: Stored;
    fn get(&self, i: usize) -> Self::S;
    fn put(&mut self, i: usize, v: Self::S);
    /// `dst[l] = mem[first + l]` for every lane (element by element, unless the memory has a
    /// faster way).
    fn get_run(&self, first: usize, dst: &mut [Self::S]) {
        for (l, o) in dst.iter_mut().enumerate() {
            *o = self.get(first + l);
        }
    }
    /// `mem[first + l] = src[l]` for every lane.
    fn put_run(&mut self, first: usize, src: &[Self::S]) {
        for (l, &v) in src.iter().enumerate() {
            self.put(first + l, v);
        }
    }
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

/// Elements written per task when a buffer is filled in parallel.
const FILL_CHUNK: usize = 1 << 16;

/// `len` values `cast(f(i))`, computed in parallel and written once: rayon's indexed collect
/// fills the vector's memory in place, without zeroing it first.
fn filled<T: Copy + Send>(
    len: usize,
    f: &(impl Fn(usize) -> f64 + Sync),
    cast: impl Fn(f64) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    (0..len)
        .into_par_iter()
        .with_min_len(FILL_CHUNK)
        .map(|i| cast(f(i)))
        .collect()
}

/// A register type and the one of the other kind with its bits (`float` and `unsigned`).
pub(crate) trait SameBits: Stored {
    type As: Stored;
    fn to_bits_of(self) -> Self::As;
    fn from_bits_of(b: Self::As) -> Self;
}

macro_rules! same_bits {
    ($t:ty, $as:ty, |$x:ident| $to:expr, |$y:ident| $from:expr) => {
        impl SameBits for $t {
            type As = $as;
            #[inline(always)]
            fn to_bits_of(self) -> $as {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn from_bits_of(b: $as) -> Self {
                let $y = b;
                $from
            }
        }
    };
}
same_bits!(f32, u32, |x| x.to_bits(), |y| f32::from_bits(y));
same_bits!(u32, f32, |x| f32::from_bits(x), |y| y.to_bits());
same_bits!(f64, u64, |x| x.to_bits(), |y| f64::from_bits(y));
same_bits!(u64, f64, |x| f64::from_bits(x), |y| y.to_bits());

/// 32-bit integer slots seen through a 64-bit integer pointer (nvdiffrast's `atomicCAS((unsigned
/// long long*)&hash[i], 0, key)` of `uint4` memory): element `i` is slots `2i` (its low word, as
/// the GPU is little-endian) and `2i + 1`.
pub(crate) struct Halves<M>(pub(crate) M);

impl<M: Slots<S = u32>> Slots for Halves<M> {
    type S = u64;
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        u64::from(self.0.get(2 * i)) | u64::from(self.0.get(2 * i + 1)) << 32
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: u64) {
        self.0.put(2 * i, v as u32);
        self.0.put(2 * i + 1, (v >> 32) as u32);
    }
}

/// Memory of 16-bit elements, by their bits.
pub(crate) trait Raw16 {
    fn raw(&self, i: usize) -> u16;
    fn set_raw(&mut self, i: usize, b: u16);
}

impl<C: Cell16> Raw16 for Global<'_, C> {
    #[inline(always)]
    fn raw(&self, i: usize) -> u16 {
        self.0[i].bits()
    }
    #[inline(always)]
    fn set_raw(&mut self, i: usize, b: u16) {
        self.0[i].set_bits(b)
    }
}

macro_rules! plain16 {
    ($t:ty, |$x:ident| $bits:expr, |$b:ident| $from:expr) => {
        impl Raw16 for Plain<'_, $t> {
            #[inline(always)]
            fn raw(&self, i: usize) -> u16 {
                let $x = self.0[i];
                $bits
            }
            #[inline(always)]
            fn set_raw(&mut self, i: usize, $b: u16) {
                self.0[i] = $from;
            }
        }
    };
}
plain16!(u16, |x| x, |b| b);
plain16!(i16, |x| x as u16, |b| b as i16);
plain16!(f16, |x| x.to_bits(), |b| f16::from_bits(b));
plain16!(bf16, |x| x.to_bits(), |b| bf16::from_bits(b));

/// 16-bit slots seen through a 16-bit integer pointer, each by its bits: CUDA's 16-bit
/// `atomicCAS(unsigned short*, ...)` on `unsigned short`, `short`, or `__half` memory (candle's
/// `__half` maximum loop).
pub(crate) struct Raw<M>(pub(crate) M);

impl<M: Raw16> Slots for Raw<M> {
    type S = u32;
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.0.raw(i))
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: u32) {
        self.0.set_raw(i, v as u16);
    }
}

/// 16-bit slots seen through a 32-bit integer pointer (llm.c's `atomicCAS((unsigned
/// int*)&bf162_array[i], ...)`): element `i` is slots `2i` (its low half) and `2i + 1`, by their
/// bits, so a compare-and-swap of a float pair compares exactly what the hardware compares.
pub(crate) struct Pairs<M>(pub(crate) M);

impl<M: Raw16> Slots for Pairs<M> {
    type S = u32;
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.0.raw(2 * i)) | u32::from(self.0.raw(2 * i + 1)) << 16
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: u32) {
        self.0.set_raw(2 * i, v as u16);
        self.0.set_raw(2 * i + 1, (v >> 16) as u16);
    }
}

/// Bytes seen through a 32- or 64-bit pointer (raft's `atomicMax((int*)address, ...)` of the
/// `float`s carved from an `extern __shared__ char` array, or an `atomicAdd` on a `float` member
/// of a struct held as bytes): element `i` is bytes `N i` (its lowest, as the GPU is
/// little-endian) to `N i + N - 1` of the byte slots `M` (whose registers hold a byte's bits in
/// their low 8).
pub(crate) struct Bytes<M, const N: usize>(pub(crate) M);

impl<M: Slots<S = u32>> Slots for Bytes<M, 4> {
    type S = u32;
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from_le_bytes(std::array::from_fn(|k| self.0.get(4 * i + k) as u8))
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: u32) {
        for (k, b) in v.to_le_bytes().into_iter().enumerate() {
            self.0.put(4 * i + k, u32::from(b));
        }
    }
}

impl<M: Slots<S = u32>> Slots for Bytes<M, 8> {
    type S = u64;
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        u64::from_le_bytes(std::array::from_fn(|k| self.0.get(8 * i + k) as u8))
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: u64) {
        for (k, b) in v.to_le_bytes().into_iter().enumerate() {
            self.0.put(8 * i + k, u32::from(b));
        }
    }
}

/// Slots seen through a same-size pointer of the other kind (`atomicCAS` through an `int*` of
/// `float` memory): every element's bits, unchanged.
pub(crate) struct Bits<'a, M>(pub(crate) &'a mut M);

impl<M: Slots> Slots for Bits<'_, M>
where
    M::S: SameBits,
{
    type S = <M::S as SameBits>::As;
    #[inline(always)]
    fn get(&self, i: usize) -> Self::S {
        self.0.get(i).to_bits_of()
    }
    #[inline(always)]
    fn put(&mut self, i: usize, v: Self::S) {
        self.0.put(i, M::S::from_bits_of(v))
    }
}
