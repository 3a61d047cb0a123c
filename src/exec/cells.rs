//! Global buffers shared by worker threads: every element is an atomic cell read and written relaxed.
//!
//! Blocks of a launch run on several threads and all of them see the global buffers. Plain
//! `&mut` access from several threads would be undefined behaviour even for a racy kernel, so a
//! buffer is viewed as a slice of atomics of the same layout; relaxed loads and stores compile to
//! ordinary moves. This module is the only one with `unsafe` code: the view conversion, allowed
//! only for the (plain, atomic) pairs the sealed `CellOf` trait vouches for. Its tests also run
//! under Miri: `cargo +nightly miri test --lib exec::cells`.
#![allow(unsafe_code)]

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{
    AtomicBool, AtomicI16, AtomicI32, AtomicI64, AtomicI8, AtomicU16, AtomicU32, AtomicU64,
    AtomicU8,
};

use super::memory::BufData;
use super::regs::Stored;

/// An element of a shared global buffer, with its register storage type.
pub(crate) trait Cell: Sync {
    type S: Stored;
    fn get(&self) -> Self::S;
    fn put(&self, v: Self::S);
}

/// A `float` cell: the bits in an `AtomicU32`.
#[repr(transparent)]
pub(crate) struct F32Cell(AtomicU32);

/// A `double` cell: the bits in an `AtomicU64`.
#[repr(transparent)]
pub(crate) struct F64Cell(AtomicU64);

/// A `half` cell: the bits in an `AtomicU16`.
#[repr(transparent)]
pub(crate) struct F16Cell(AtomicU16);

/// A `__nv_bfloat16` cell: the bits in an `AtomicU16`.
#[repr(transparent)]
pub(crate) struct BF16Cell(AtomicU16);

macro_rules! cell {
    ($t:ty, $s:ty, |$x:ident| $get:expr, |$y:ident| $put:expr) => {
        impl Cell for $t {
            type S = $s;
            #[inline(always)]
            fn get(&self) -> $s {
                let $x = self.load(Relaxed);
                $get
            }
            #[inline(always)]
            fn put(&self, $y: $s) {
                self.store($put, Relaxed)
            }
        }
    };
}
cell!(AtomicBool, bool, |x| x, |v| v);
cell!(AtomicI8, u32, |x| i32::from(x) as u32, |v| v as i8);
cell!(AtomicU8, u32, |x| u32::from(x), |v| v as u8);
cell!(AtomicI16, u32, |x| i32::from(x) as u32, |v| v as i16);
cell!(AtomicU16, u32, |x| u32::from(x), |v| v as u16);
cell!(AtomicI32, u32, |x| x as u32, |v| v as i32);
cell!(AtomicU32, u32, |x| x, |v| v);
cell!(AtomicI64, u64, |x| x as u64, |v| v as i64);
cell!(AtomicU64, u64, |x| x, |v| v);

impl Cell for F32Cell {
    type S = f32;
    #[inline(always)]
    fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }
    #[inline(always)]
    fn put(&self, v: f32) {
        self.0.store(v.to_bits(), Relaxed)
    }
}

impl Cell for F64Cell {
    type S = f64;
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Relaxed))
    }
    #[inline(always)]
    fn put(&self, v: f64) {
        self.0.store(v.to_bits(), Relaxed)
    }
}

/// A 16-bit float cell: a `float` in a register, rounded to nearest even when stored.
macro_rules! half_cell {
    ($cell:ty, $t:ty) => {
        impl Cell for $cell {
            type S = f32;
            #[inline(always)]
            fn get(&self) -> f32 {
                <$t>::from_bits(self.0.load(Relaxed)).to_f32()
            }
            #[inline(always)]
            fn put(&self, v: f32) {
                self.0.store(<$t>::from_f32(v).to_bits(), Relaxed)
            }
        }
    };
}
half_cell!(F16Cell, half::f16);
half_cell!(BF16Cell, half::bf16);

/// A 16-bit cell's bits, whatever its type (a 32-bit atomic through an `unsigned*` of `half`
/// memory sees two of them as one word).
pub(crate) trait Cell16: Sync {
    fn bits(&self) -> u16;
    fn set_bits(&self, b: u16);
}

macro_rules! cell16 {
    ($t:ty, |$x:ident| $inner:expr, |$b:ident| $to:expr) => {
        impl Cell16 for $t {
            #[inline(always)]
            fn bits(&self) -> u16 {
                let $x = self;
                $inner.load(Relaxed) as u16
            }
            #[inline(always)]
            fn set_bits(&self, $b: u16) {
                let $x = self;
                $inner.store($to, Relaxed)
            }
        }
    };
}
cell16!(AtomicU16, |x| x, |b| b);
cell16!(AtomicI16, |x| x, |b| b as i16);
cell16!(F16Cell, |x| x.0, |b| b);
cell16!(BF16Cell, |x| x.0, |b| b);

/// A global buffer viewed as cells, shareable between threads.
#[derive(Clone, Copy)]
pub(crate) enum Cells<'a> {
    Bool(&'a [AtomicBool]),
    I8(&'a [AtomicI8]),
    U8(&'a [AtomicU8]),
    I16(&'a [AtomicI16]),
    U16(&'a [AtomicU16]),
    I32(&'a [AtomicI32]),
    U32(&'a [AtomicU32]),
    I64(&'a [AtomicI64]),
    U64(&'a [AtomicU64]),
    F32(&'a [F32Cell]),
    F64(&'a [F64Cell]),
    F16(&'a [F16Cell]),
    BF16(&'a [BF16Cell]),
}

/// Runs `$body` with `$c` bound to the cell slice of a `Cells`.
macro_rules! with_cells {
    ($cells:expr, $c:ident => $body:expr) => {
        match $cells {
            Cells::Bool($c) => $body,
            Cells::I8($c) => $body,
            Cells::U8($c) => $body,
            Cells::I16($c) => $body,
            Cells::U16($c) => $body,
            Cells::I32($c) => $body,
            Cells::U32($c) => $body,
            Cells::I64($c) => $body,
            Cells::U64($c) => $body,
            Cells::F32($c) => $body,
            Cells::F64($c) => $body,
            Cells::F16($c) => $body,
            Cells::BF16($c) => $body,
        }
    };
}
pub(crate) use with_cells;

impl Cells<'_> {
    /// Elements.
    pub(crate) fn len(&self) -> usize {
        with_cells!(self, c => c.len())
    }
}

/// `Self` is an atomic cell with the in-memory representation of `T`, and every value of `T` is
/// a valid `Self`: a buffer of `T`s may be viewed as `Self`s. The layout half is checked when
/// [`view`] is compiled for the pair ([`CellOf::SAME_LAYOUT`]).
///
/// # Safety
///
/// Implement it only for an atomic type the standard library documents as having the same
/// in-memory representation as `T` (or a `#[repr(transparent)]` wrapper of one, over the bits
/// of `T`), so that any `T` is a valid value of it.
unsafe trait CellOf<T>: Cell + Sized {
    /// Evaluated for each pair [`view`] is used with: a layout mismatch fails the build.
    const SAME_LAYOUT: () = assert!(
        std::mem::size_of::<T>() == std::mem::size_of::<Self>()
            && std::mem::align_of::<T>() == std::mem::align_of::<Self>(),
        "cells: an atomic has the layout of its plain type"
    );
}

// SAFETY: each atomic integer type "has the same in-memory representation as" its integer type
// (std::sync::atomic), and `F32Cell`/`F64Cell` are transparent over `AtomicU32`/`AtomicU64`, whose
// representations equal `u32`/`u64`, which have the size and alignment of `f32`/`f64` and accept
// any of their bit patterns; `F16Cell`/`BF16Cell` are transparent over `AtomicU16`, and
// `half::f16`/`half::bf16` are `#[repr(transparent)]` over `u16`, any of whose bit patterns is a
// value of them.
unsafe impl CellOf<bool> for AtomicBool {}
unsafe impl CellOf<i8> for AtomicI8 {}
unsafe impl CellOf<u8> for AtomicU8 {}
unsafe impl CellOf<i16> for AtomicI16 {}
unsafe impl CellOf<u16> for AtomicU16 {}
unsafe impl CellOf<i32> for AtomicI32 {}
unsafe impl CellOf<u32> for AtomicU32 {}
unsafe impl CellOf<i64> for AtomicI64 {}
unsafe impl CellOf<u64> for AtomicU64 {}
unsafe impl CellOf<f32> for F32Cell {}
unsafe impl CellOf<f64> for F64Cell {}
unsafe impl CellOf<half::f16> for F16Cell {}
unsafe impl CellOf<half::bf16> for BF16Cell {}

/// Views `data` as cells of the same layout (only for the pairs [`CellOf`] vouches for).
fn view<T, C: CellOf<T>>(data: &mut [T]) -> &[C] {
    #[allow(clippy::let_unit_value)]
    let () = C::SAME_LAYOUT;
    // SAFETY: `C: CellOf<T>` means `C` has the layout of `T` (checked at compile time above) and
    // accepts every `T` value, so the pointer and length describe valid `C`s. The exclusive
    // borrow of `data` lasts as long as the returned slice, so nothing reads or writes the plain
    // `T`s meanwhile; all access through the view is atomic, which is allowed through a shared
    // reference.
    unsafe { std::slice::from_raw_parts(data.as_mut_ptr().cast::<C>(), data.len()) }
}

/// Views a buffer as cells for the duration of a launch.
pub(crate) fn share(data: &mut BufData) -> Cells<'_> {
    match data {
        BufData::Bool(v) => Cells::Bool(view(v)),
        BufData::I8(v) => Cells::I8(view(v)),
        BufData::U8(v) => Cells::U8(view(v)),
        BufData::I16(v) => Cells::I16(view(v)),
        BufData::U16(v) => Cells::U16(view(v)),
        BufData::I32(v) => Cells::I32(view(v)),
        BufData::U32(v) => Cells::U32(view(v)),
        BufData::I64(v) => Cells::I64(view(v)),
        BufData::U64(v) => Cells::U64(view(v)),
        BufData::F32(v) => Cells::F32(view(v)),
        BufData::F64(v) => Cells::F64(view(v)),
        BufData::F16(v) => Cells::F16(view(v)),
        BufData::BF16(v) => Cells::BF16(view(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_write_the_buffer() {
        let mut data = BufData::F32(vec![1.5, 2.5]);
        {
            let Cells::F32(c) = share(&mut data) else {
                unreachable!("a float buffer")
            };
            assert_eq!(c[1].get(), 2.5);
            c[0].put(-3.0);
        }
        assert_eq!(data, BufData::F32(vec![-3.0, 2.5]));
        let mut ints = BufData::I8(vec![-1, 5]);
        let Cells::I8(c) = share(&mut ints) else {
            unreachable!("a char buffer")
        };
        // Loaded as a sign-extended int register.
        assert_eq!(c[0].get(), u32::MAX);
    }

    #[test]
    fn every_kind_of_buffer_is_shared_between_threads() {
        // Two threads at once copy element 1 into 0 and element 3 into 2 through the view:
        // [a, b, c, d] becomes [b, b, d, d] in each element type (what Miri checks here is that
        // the view and the concurrent atomic accesses are defined behaviour).
        let cases = [
            (
                BufData::Bool(vec![false, true, true, false]),
                BufData::Bool(vec![true, true, false, false]),
            ),
            (
                BufData::I8(vec![-1, 2, -3, 4]),
                BufData::I8(vec![2, 2, 4, 4]),
            ),
            (
                BufData::U8(vec![1, 2, 3, 255]),
                BufData::U8(vec![2, 2, 255, 255]),
            ),
            (
                BufData::I16(vec![-1, -300, 3, 4]),
                BufData::I16(vec![-300, -300, 4, 4]),
            ),
            (
                BufData::U16(vec![1, 65535, 3, 4]),
                BufData::U16(vec![65535, 65535, 4, 4]),
            ),
            (
                BufData::I32(vec![1, -2, 3, i32::MIN]),
                BufData::I32(vec![-2, -2, i32::MIN, i32::MIN]),
            ),
            (
                BufData::U32(vec![1, 2, 3, u32::MAX]),
                BufData::U32(vec![2, 2, u32::MAX, u32::MAX]),
            ),
            (
                BufData::I64(vec![1, -2, 3, i64::MAX]),
                BufData::I64(vec![-2, -2, i64::MAX, i64::MAX]),
            ),
            (
                BufData::U64(vec![1, 2, 3, u64::MAX]),
                BufData::U64(vec![2, 2, u64::MAX, u64::MAX]),
            ),
            (
                BufData::F32(vec![1.0, -0.5, 3.0, f32::INFINITY]),
                BufData::F32(vec![-0.5, -0.5, f32::INFINITY, f32::INFINITY]),
            ),
            (
                BufData::F64(vec![1.0, 2.5, 3.0, -1e300]),
                BufData::F64(vec![2.5, 2.5, -1e300, -1e300]),
            ),
        ];
        for (mut data, want) in cases {
            with_cells!(share(&mut data), c => std::thread::scope(|s| {
                for k in [0, 2] {
                    s.spawn(move || c[k].put(c[k + 1].get()));
                }
            }));
            assert_eq!(data, want);
        }
    }
}
