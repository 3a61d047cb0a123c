//! The struct-of-arrays register file and the per-lane loops over it.

use crate::ir::{bank_of, Bank, KernelIr, Reg};
use crate::value::{Num, Scalar};

/// Register banks: `bank[r][lane]`. Reused across blocks.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegFile {
    pub(crate) b: Vec<Vec<bool>>,
    pub(crate) w: Vec<Vec<u32>>,
    pub(crate) d: Vec<Vec<u64>>,
    pub(crate) f: Vec<Vec<f32>>,
    pub(crate) g: Vec<Vec<f64>>,
}

impl RegFile {
    pub(crate) fn new(ir: &KernelIr, lanes: usize) -> RegFile {
        RegFile {
            b: vec![vec![false; lanes]; ir.regs.b as usize],
            w: vec![vec![0; lanes]; ir.regs.w as usize],
            d: vec![vec![0; lanes]; ir.regs.d as usize],
            f: vec![vec![0.0; lanes]; ir.regs.f as usize],
            g: vec![vec![0.0; lanes]; ir.regs.g as usize],
        }
    }
}

/// A storage type of one bank.
pub(crate) trait Stored: Copy + Default + PartialEq + 'static {
    fn bank(r: &mut RegFile) -> &mut Vec<Vec<Self>>;
    fn bank_ref(r: &RegFile) -> &Vec<Vec<Self>>;
}

macro_rules! stored {
    ($t:ty, $field:ident) => {
        impl Stored for $t {
            #[inline(always)]
            fn bank(r: &mut RegFile) -> &mut Vec<Vec<Self>> {
                &mut r.$field
            }
            #[inline(always)]
            fn bank_ref(r: &RegFile) -> &Vec<Vec<Self>> {
                &r.$field
            }
        }
    };
}
stored!(bool, b);
stored!(u32, w);
stored!(u64, d);
stored!(f32, f);
stored!(f64, g);

/// A register value type and how it sits in its bank.
pub(crate) trait Lane: Num {
    type S: Stored;
    fn ld(s: Self::S) -> Self;
    fn st(self) -> Self::S;
}

macro_rules! lane {
    ($t:ty, $s:ty) => {
        impl Lane for $t {
            type S = $s;
            #[inline(always)]
            fn ld(s: $s) -> Self {
                s as $t
            }
            #[inline(always)]
            fn st(self) -> $s {
                self as $s
            }
        }
    };
}
lane!(i32, u32);
lane!(u32, u32);
lane!(i64, u64);
lane!(u64, u64);
lane!(f32, f32);
lane!(f64, f64);

/// The active lanes of a block.
pub(crate) struct Lanes<'a> {
    pub(crate) mask: &'a [bool],
    pub(crate) full: bool,
}

impl Lanes<'_> {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(usize)) {
        if self.full {
            (0..self.mask.len()).for_each(&mut f);
        } else {
            for (i, &m) in self.mask.iter().enumerate() {
                if m {
                    f(i)
                }
            }
        }
    }
}

/// The bits of an element of the register bank `bank` (floats as their IEEE bits).
fn bits_of(regs: &RegFile, bank: Bank, r: Reg, lane: usize) -> u64 {
    let r = r.0 as usize;
    match bank {
        Bank::B => u64::from(regs.b[r][lane]),
        Bank::W => u64::from(regs.w[r][lane]),
        Bank::D => regs.d[r][lane],
        Bank::F => u64::from(regs.f[r][lane].to_bits()),
        Bank::G => regs.g[r][lane].to_bits(),
    }
}

/// Writes `bits` (of an element of `bank`) into register `r`.
fn set_bits(regs: &mut RegFile, bank: Bank, r: Reg, lane: usize, bits: u64) {
    let r = r.0 as usize;
    match bank {
        Bank::B => regs.b[r][lane] = bits != 0,
        Bank::W => regs.w[r][lane] = bits as u32,
        Bank::D => regs.d[r][lane] = bits,
        Bank::F => regs.f[r][lane] = f32::from_bits(bits as u32),
        Bank::G => regs.g[r][lane] = f64::from_bits(bits),
    }
}

/// The bits of the element of type `ty` in register `r`: a 16-bit float's (held as an `f32`
/// value) or an integer's, `ty.size()` bytes of them.
fn elem_bits(regs: &RegFile, ty: Scalar, r: Reg, lane: usize) -> u64 {
    let bits = match ty {
        Scalar::F16 => u64::from(half::f16::from_f32(regs.f[r.0 as usize][lane]).to_bits()),
        Scalar::BF16 => u64::from(half::bf16::from_f32(regs.f[r.0 as usize][lane]).to_bits()),
        _ => bits_of(regs, bank_of(ty), r, lane),
    };
    bits & (u64::MAX >> (64 - 8 * ty.size()))
}

/// Writes the element of type `ty` whose bits are `bits` into register `r`: a 16-bit float as
/// its `f32` value, a narrow signed integer sign-extended.
fn set_elem_bits(regs: &mut RegFile, ty: Scalar, r: Reg, lane: usize, bits: u64) {
    match ty {
        Scalar::F16 => regs.f[r.0 as usize][lane] = half::f16::from_bits(bits as u16).to_f32(),
        Scalar::BF16 => regs.f[r.0 as usize][lane] = half::bf16::from_bits(bits as u16).to_f32(),
        Scalar::I8 => regs.w[r.0 as usize][lane] = bits as u8 as i8 as u32,
        Scalar::I16 => regs.w[r.0 as usize][lane] = bits as u16 as i16 as u32,
        _ => set_bits(regs, bank_of(ty), r, lane, bits),
    }
}

/// `d` = the narrow elements of type `from` in the registers `a` (lowest first) as one element
/// of type `to`, on the active lanes: a wider view's load.
pub(crate) fn pack(regs: &mut RegFile, m: &Lanes<'_>, from: Scalar, a: &[Reg], d: Reg, to: Scalar) {
    let size = 8 * from.size();
    m.each(|l| {
        let bits = a.iter().enumerate().fold(0u64, |acc, (k, &r)| {
            acc | elem_bits(regs, from, r, l) << (size * k as u32)
        });
        set_elem_bits(regs, to, d, l, bits);
    });
}

/// `d[k]` = the `k`-th piece of type `to` of the element in `a` (of type `from`), on the active
/// lanes: a wider view's store.
pub(crate) fn unpack(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    to: Scalar,
    a: Reg,
    from: Scalar,
    d: &[Reg],
) {
    let size = 8 * to.size();
    m.each(|l| {
        let bits = elem_bits(regs, from, a, l);
        for (k, &r) in d.iter().enumerate() {
            set_elem_bits(regs, to, r, l, bits >> (size * k as u32));
        }
    });
}

/// `d = f(a)` on the active lanes.
#[inline(always)]
pub(crate) fn map1<A: Stored, D: Stored>(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    d: Reg,
    a: Reg,
    f: impl Fn(A) -> D,
) {
    let mut dst = std::mem::take(&mut D::bank(regs)[d.0 as usize]);
    let x = &A::bank_ref(regs)[a.0 as usize];
    if m.full {
        for (o, &v) in dst.iter_mut().zip(x) {
            *o = f(v);
        }
    } else {
        m.each(|i| dst[i] = f(x[i]));
    }
    D::bank(regs)[d.0 as usize] = dst;
}

/// `d = f(a, b)` on the active lanes.
#[inline(always)]
pub(crate) fn map2<A: Stored, D: Stored>(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    d: Reg,
    a: Reg,
    b: Reg,
    f: impl Fn(A, A) -> D,
) {
    let mut dst = std::mem::take(&mut D::bank(regs)[d.0 as usize]);
    let bank = A::bank_ref(regs);
    let (x, y) = (&bank[a.0 as usize], &bank[b.0 as usize]);
    if m.full {
        for ((o, &p), &q) in dst.iter_mut().zip(x).zip(y) {
            *o = f(p, q);
        }
    } else {
        m.each(|i| dst[i] = f(x[i], y[i]));
    }
    D::bank(regs)[d.0 as usize] = dst;
}

/// `d = f(a, b, c)` on the active lanes.
#[inline(always)]
pub(crate) fn map3<A: Stored>(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    d: Reg,
    [a, b, c]: [Reg; 3],
    f: impl Fn(A, A, A) -> A,
) {
    let mut dst = std::mem::take(&mut A::bank(regs)[d.0 as usize]);
    let bank = A::bank_ref(regs);
    let (x, y, z) = (
        &bank[a.0 as usize],
        &bank[b.0 as usize],
        &bank[c.0 as usize],
    );
    m.each(|i| dst[i] = f(x[i], y[i], z[i]));
    A::bank(regs)[d.0 as usize] = dst;
}

/// `d` = word `word` of the XORWOW state words `v` after `n` steps (`2^67·n` when `sequence`),
/// on the active lanes.
pub(crate) fn xorwow(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    d: Reg,
    (v, n): ([Reg; 5], Reg),
    word: u8,
    sequence: bool,
) {
    let mut dst = std::mem::take(&mut regs.w[d.0 as usize]);
    let steps = &regs.d[n.0 as usize];
    let words = v.map(|r| &regs.w[r.0 as usize]);
    m.each(|i| {
        let state = words.map(|w| w[i]);
        dst[i] = crate::curand::skip_memo(state, steps[i], sequence)[usize::from(word)];
    });
    regs.w[d.0 as usize] = dst;
}

/// `d = c ? a : b` on the active lanes.
#[inline(always)]
pub(crate) fn select<A: Stored>(regs: &mut RegFile, m: &Lanes<'_>, d: Reg, c: Reg, a: Reg, b: Reg) {
    let mut dst = std::mem::take(&mut A::bank(regs)[d.0 as usize]);
    let cond = &regs.b[c.0 as usize];
    let bank = A::bank_ref(regs);
    let (x, y) = (&bank[a.0 as usize], &bank[b.0 as usize]);
    m.each(|i| dst[i] = if cond[i] { x[i] } else { y[i] });
    A::bank(regs)[d.0 as usize] = dst;
}

/// The first active lane where `b` is zero, for integer division.
pub(crate) fn zero_lane<A: Stored>(regs: &RegFile, m: &Lanes<'_>, b: Reg) -> Option<usize> {
    let y = &A::bank_ref(regs)[b.0 as usize];
    let zero = A::default();
    (0..y.len()).find(|&i| m.mask[i] && y[i] == zero)
}

/// Fills a register on every lane.
pub(crate) fn fill<A: Stored>(regs: &mut RegFile, r: Reg, v: A) {
    A::bank(regs)[r.0 as usize].iter_mut().for_each(|x| *x = v);
}
