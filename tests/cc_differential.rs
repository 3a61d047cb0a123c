//! simt against the system C compiler (issue 13, item 7): generated scalar expressions, every one
//! well defined in C, computed by a `.sk` kernel (one thread per case) and by a C program built
//! with `cc`, compared bit for bit — through the engine and through the reference interpreter.
//!
//! Each case is a short list of declarations and one expression over literals and loads from
//! input arrays (`xi[7]`, `xf[30]`), in every C type simt has (`bool`, `char`, `unsigned char`,
//! `short`, `unsigned short`, `int`, `unsigned`, `long long`, `unsigned long long`, `float`,
//! `double`): `+ - * / %`, shifts, bit operators, comparisons, `!`, `&&`, `||`, `?:`, casts,
//! locals initialised by implicit conversion and updated by compound assignment or `++`/`--`, the
//! exactly specified math functions (`sqrtf fabsf floorf ceilf truncf rintf nearbyintf roundf
//! fminf fmaxf fmodf fdimf copysignf fmaf` and their double forms), integer literals in decimal,
//! hex and octal with every suffix, and float literals with many digits (decimal values next to
//! the midpoint of two floats, where rounding through `double` first gives the wrong float).
//! Literal-only subtrees are folded by simt's checker, the rest run on lanes; signed zeros are
//! fed to `fminf`/`fmaxf`/`copysignf` on purpose, folded and at run time.
//!
//! Well defined in C means: signed overflow wraps (`-fwrapv`, what the GPU does), divisions and
//! remainders are guarded against zero and `MIN / -1`, shift counts are masked into range, and a
//! float is converted to an integer only when it fits. Where CUDA defines what C leaves undefined
//! or unspecified, the case says so and the C side calls a function modelling the GPU (the
//! `cuda_*` functions in [`C_PRELUDE`]), so the difference is tested, not hidden:
//!
//! - float → integer of an out-of-range value or NaN: UB in C (C11 6.3.1.4); PTX `cvt.rzi.sat`
//!   saturates to the destination type and gives 0 for NaN;
//! - shifts by the bit width or more: UB in C (6.5.7); PTX `shl`/`shr` clamp the count, so `<<`
//!   gives 0 and `>>` the sign fill;
//! - `fminf`/`fmaxf` of zeros of opposite signs: C (F.10.9.2) leaves which zero unspecified;
//!   PTX `min`/`max` order -0 below +0 (`fminf(+0, -0)` is -0 in either order);
//! - NaN payloads and signs: unspecified (x86 makes -NaN, the GPU +NaN), so NaN results compare
//!   as NaN, and `copysignf` never takes its sign from a NaN.
//!
//! The C program is compiled with `-O0 -std=c11 -fwrapv -fsigned-char -ffp-contract=off
//! -fno-fast-math -frounding-math` (no contraction of `a * b + c` into an fma; `char` signed as
//! in CUDA; no folding that forgets signed zeros) and refuses to build where
//! `FLT_EVAL_METHOD != 0`.
//!
//! Environment: `SIMT_CC_SEED=<u64>` picks another seed (the default is fixed, so CI is
//! reproducible), `SIMT_CC_CASES=<n>` runs `n` cases (default 4000), `CC` names the compiler
//! (default `cc`, then `gcc`). The test is skipped, with a message, when no C compiler runs. The
//! generated `.sk` and `.c` files of each batch are left in `target/tmp/cc_differential/`.
//!
//! A long run: `SIMT_CC_SEED=7 SIMT_CC_CASES=200000 cargo test --release --test all cc_differential::`.

use crate::common;

use simt::exec::{self, Args, BufData, Buffer, LaunchConfig};
use simt::reference;
use simt::source::SourceFile;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Cases per kernel and per C program.
const BATCH: usize = 500;
/// Elements of each input array.
const INPUTS: usize = 48;

// ---------------------------------------------------------------- types

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    B,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

const ALL: [Ty; 11] = [
    Ty::B,
    Ty::I8,
    Ty::U8,
    Ty::I16,
    Ty::U16,
    Ty::I32,
    Ty::U32,
    Ty::I64,
    Ty::U64,
    Ty::F32,
    Ty::F64,
];

/// The types with an input array (all but `bool`).
const INPUT_TYPES: &[Ty] = ALL.split_at(1).1;

/// The integer types (after `bool`, before the floats).
const INTS: &[Ty] = ALL.split_at(9).0.split_at(1).1;

impl Ty {
    fn sk(self) -> &'static str {
        match self {
            Ty::B => "bool",
            Ty::I8 => "char",
            Ty::U8 => "unsigned char",
            Ty::I16 => "short",
            Ty::U16 => "unsigned short",
            Ty::I32 => "int",
            Ty::U32 => "unsigned",
            Ty::I64 => "long long",
            Ty::U64 => "unsigned long long",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }

    /// The C spelling (`signed char`: CUDA's `char` is signed, whatever the host's is).
    fn c(self) -> &'static str {
        match self {
            Ty::I8 => "signed char",
            other => other.sk(),
        }
    }

    /// The short name of its input (`x…`) and output (`o…`) arrays.
    fn tag(self) -> &'static str {
        match self {
            Ty::B => "b",
            Ty::I8 => "c",
            Ty::U8 => "uc",
            Ty::I16 => "s",
            Ty::U16 => "us",
            Ty::I32 => "i",
            Ty::U32 => "u",
            Ty::I64 => "l",
            Ty::U64 => "ul",
            Ty::F32 => "f",
            Ty::F64 => "d",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    fn signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    fn bits(self) -> u32 {
        match self {
            Ty::B | Ty::I8 | Ty::U8 => 8,
            Ty::I16 | Ty::U16 => 16,
            Ty::I32 | Ty::U32 | Ty::F32 => 32,
            Ty::I64 | Ty::U64 | Ty::F64 => 64,
        }
    }

    /// C's integer promotions (`bool` and the narrow types to `int`).
    fn promote(self) -> Ty {
        match self {
            Ty::B | Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16 => Ty::I32,
            t => t,
        }
    }

    /// C's usual arithmetic conversions.
    fn common(a: Ty, b: Ty) -> Ty {
        let (a, b) = (a.promote(), b.promote());
        if a == Ty::F64 || b == Ty::F64 {
            return Ty::F64;
        }
        if a == Ty::F32 || b == Ty::F32 {
            return Ty::F32;
        }
        if a == b {
            return a;
        }
        let rank = |t: Ty| t.bits();
        match (a.signed(), b.signed()) {
            (true, true) | (false, false) => {
                if rank(a) >= rank(b) {
                    a
                } else {
                    b
                }
            }
            (s, _) => {
                let (s, u) = if s { (a, b) } else { (b, a) };
                if rank(u) >= rank(s) {
                    u
                } else {
                    s
                }
            }
        }
    }

    /// The most negative value of a signed promoted type, as C text of that type.
    fn min_text(self) -> &'static str {
        match self {
            Ty::I32 => "(-2147483647 - 1)",
            Ty::I64 => "(-9223372036854775807ll - 1)",
            _ => unreachable!("min of {self:?}"),
        }
    }

    /// `[lo, hi)` (or `(-1, hi)` for unsigned types) as double literals: the floats that
    /// truncate to a value of this integer type.
    fn float_range(self) -> (&'static str, &'static str) {
        match self {
            Ty::I8 => ("-128.0", "128.0"),
            Ty::U8 => ("-1.0", "256.0"),
            Ty::I16 => ("-32768.0", "32768.0"),
            Ty::U16 => ("-1.0", "65536.0"),
            Ty::I32 => ("-2147483648.0", "2147483648.0"),
            Ty::U32 => ("-1.0", "4294967296.0"),
            Ty::I64 => ("-9223372036854775808.0", "9223372036854775808.0"),
            Ty::U64 => ("-1.0", "18446744073709551616.0"),
            _ => unreachable!("float range of {self:?}"),
        }
    }
}

// ---------------------------------------------------------------- random numbers

/// splitmix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True `pct` percent of the time.
    fn pct(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

// ---------------------------------------------------------------- inputs

/// The input arrays as bit patterns (two's complement, IEEE), one per [`INPUT_TYPES`] entry.
struct Inputs {
    bits: Vec<Vec<u64>>,
}

const INT_SPECIALS: [i128; 40] = [
    0,
    1,
    -1,
    2,
    -2,
    3,
    5,
    7,
    -7,
    10,
    31,
    32,
    33,
    63,
    64,
    -64,
    100,
    127,
    128,
    -128,
    -129,
    255,
    256,
    1000,
    32767,
    32768,
    -32768,
    65535,
    65536,
    16_777_217,
    2_147_483_647,
    -2_147_483_648,
    -2_147_483_647,
    2_147_483_648,
    4_294_967_295,
    4_294_967_296,
    9_007_199_254_740_993,
    9_223_372_036_854_775_807,
    -9_223_372_036_854_775_808,
    18_446_744_073_709_551_615,
];

const F32_SPECIALS: [f32; 36] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    3.5,
    0.1,
    1.0 / 3.0,
    -7.75,
    1e-45,
    1.175_494_4e-38,
    f32::MAX,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    2_147_483_648.0,
    -2_147_483_648.0,
    2_147_483_520.0,
    4_294_967_296.0,
    9.223_372e18,
    1.844_674_4e19,
    127.9,
    128.0,
    -128.9,
    -129.0,
    255.5,
    32767.5,
    -32768.9,
    65535.9,
    16_777_216.0,
    8_388_607.5,
    0.499_999_97,
];

const F64_SPECIALS: [f64; 30] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.5,
    0.1,
    1.0 / 3.0,
    5e-324,
    2.225_073_858_507_201_4e-308,
    f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    2_147_483_648.0,
    -2_147_483_649.0,
    2_147_483_647.999_999_5,
    4_294_967_295.5,
    9_223_372_036_854_775_808.0,
    -9_223_372_036_854_775_808.0,
    18_446_744_073_709_551_616.0,
    18_446_744_073_709_549_568.0,
    9_007_199_254_740_991.0,
    4_503_599_627_370_495.5,
    1.000_000_059_604_644_8,
    3.402_823_466_385_288_6e38,
    3.402_823_567_797_336_6e38,
    -1e300,
    1e-310,
];

fn random_f32(rng: &mut Rng) -> f32 {
    match rng.below(5) {
        0 => f32::from_bits(rng.next() as u32),
        1 => (rng.below(4001) as i32 - 2000) as f32 / 8.0,
        2 => (rng.next() as i32) as f32 * 1.5,
        3 => (rng.next() as i64) as f32,
        _ => (rng.below(1 << 20) as f32 + 0.5) * if rng.pct(50) { 1.0 } else { -1.0 },
    }
}

fn random_f64(rng: &mut Rng) -> f64 {
    match rng.below(5) {
        0 => f64::from_bits(rng.next()),
        1 => (rng.below(4001) as i64 - 2000) as f64 / 16.0,
        2 => random_f32(rng) as f64,
        3 => (rng.next() as i64) as f64 / 3.0,
        _ => (rng.below(1 << 53) as f64 + 0.5) * if rng.pct(50) { 1.0 } else { -1.0 },
    }
}

impl Inputs {
    fn new(rng: &mut Rng) -> Inputs {
        let bits = INPUT_TYPES
            .iter()
            .map(|&ty| {
                let mut v: Vec<u64> = match ty {
                    Ty::F32 => F32_SPECIALS
                        .iter()
                        .map(|x| u64::from(x.to_bits()))
                        .collect(),
                    Ty::F64 => F64_SPECIALS.iter().map(|x| x.to_bits()).collect(),
                    // The specials that fit the type (and for narrow types, only those).
                    _ => {
                        let lo = if ty.signed() {
                            -(1i128 << (ty.bits() - 1))
                        } else {
                            0
                        };
                        let hi = if ty.signed() {
                            (1i128 << (ty.bits() - 1)) - 1
                        } else {
                            (1i128 << ty.bits()) - 1
                        };
                        INT_SPECIALS
                            .iter()
                            .filter(|&&x| x >= lo && x <= hi)
                            .map(|&x| x as u64)
                            .collect()
                    }
                };
                // Shuffle the specials in among random values.
                while v.len() < INPUTS {
                    let x = match ty {
                        Ty::F32 => u64::from(random_f32(rng).to_bits()),
                        Ty::F64 => random_f64(rng).to_bits(),
                        _ if rng.pct(50) => (rng.below(601) as i64 - 300) as u64,
                        _ => rng.next(),
                    };
                    v.push(x);
                }
                v.truncate(INPUTS);
                for i in (1..v.len()).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    v.swap(i, j);
                }
                let mask = if ty.bits() == 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.bits()) - 1
                };
                v.iter().map(|x| x & mask).collect()
            })
            .collect();
        Inputs { bits }
    }

    fn data(&self, ty: Ty) -> BufData {
        let i = INPUT_TYPES
            .iter()
            .position(|&t| t == ty)
            .expect("input type");
        let b = &self.bits[i];
        match ty {
            Ty::I8 => BufData::I8(b.iter().map(|&x| x as i8).collect()),
            Ty::U8 => BufData::U8(b.iter().map(|&x| x as u8).collect()),
            Ty::I16 => BufData::I16(b.iter().map(|&x| x as i16).collect()),
            Ty::U16 => BufData::U16(b.iter().map(|&x| x as u16).collect()),
            Ty::I32 => BufData::I32(b.iter().map(|&x| x as i32).collect()),
            Ty::U32 => BufData::U32(b.iter().map(|&x| x as u32).collect()),
            Ty::I64 => BufData::I64(b.iter().map(|&x| x as i64).collect()),
            Ty::U64 => BufData::U64(b.clone()),
            Ty::F32 => BufData::F32(b.iter().map(|&x| f32::from_bits(x as u32)).collect()),
            Ty::F64 => BufData::F64(b.iter().map(|&x| f64::from_bits(x)).collect()),
            Ty::B => unreachable!("no bool input"),
        }
    }
}

// ---------------------------------------------------------------- expressions

/// An expression as `.sk` text and as C text (they differ only where C calls a `cuda_*` model),
/// with its C type.
#[derive(Clone, Debug)]
struct E {
    sk: String,
    c: String,
    ty: Ty,
    /// A literal, a load or a declared temporary: cheap and safe to repeat in a guard.
    simple: bool,
}

impl E {
    fn same(text: String, ty: Ty) -> E {
        E {
            c: text.clone(),
            sk: text,
            ty,
            simple: false,
        }
    }
}

/// One case: declarations, then the expression whose value is the case's result.
struct Case {
    lets_sk: Vec<String>,
    lets_c: Vec<String>,
    result: E,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    lets_sk: Vec<String>,
    lets_c: Vec<String>,
    /// Temporaries declared so far (`v0`, `v1`, …).
    vars: usize,
    /// Percent of leaves that are literals (100: the whole case folds at check time).
    literal_pct: u64,
}

impl Gen<'_> {
    fn case(rng: &mut Rng) -> Case {
        let literal_pct = rng.pick(&[20, 40, 40, 60, 100]);
        let depth = rng.pick(&[1, 2, 3, 3, 4]);
        let mut g = Gen {
            rng,
            lets_sk: Vec::new(),
            lets_c: Vec::new(),
            vars: 0,
            literal_pct,
        };
        let result = g.expr(depth);
        Case {
            lets_sk: g.lets_sk,
            lets_c: g.lets_c,
            result,
        }
    }

    /// `e` as something a guard may repeat: itself if simple, else a declared temporary.
    fn share(&mut self, e: E) -> E {
        if e.simple {
            return e;
        }
        let name = self.var();
        self.lets_sk
            .push(format!("{} {name} = {};", e.ty.sk(), e.sk));
        self.lets_c.push(format!("{} {name} = {};", e.ty.c(), e.c));
        E {
            sk: name.clone(),
            c: name,
            ty: e.ty,
            simple: true,
        }
    }

    fn var(&mut self) -> String {
        self.vars += 1;
        format!("v{}", self.vars - 1)
    }

    /// A local of a random type, initialised by an implicit conversion and often updated by a
    /// compound assignment or `++`/`--` (`char v = 100; v += 100;` wraps to -56 as in C, where
    /// the conversion back to `char` is implementation-defined and GCC wraps).
    fn local(&mut self, d: u32) -> E {
        let ty = self.rng.pick(&ALL);
        let init = self.expr(d);
        // An implicit float → integer conversion is as undefined out of range as a cast.
        let init = if init.ty.is_float() && ty != Ty::B && !ty.is_float() {
            self.float_to_int(init, ty)
        } else {
            init
        };
        let int_ops = ["+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"];
        let update = match ty {
            _ if self.rng.pct(25) => None,
            Ty::F32 | Ty::F64 => Some(self.rng.pick(&["+=", "-=", "*=", "/=", "++", "--"])),
            // `++`/`--` of a bool: removed or never allowed in C++.
            Ty::B => Some(self.rng.pick(&int_ops[..6])),
            _ => Some(self.rng.pick(&int_ops)),
        };
        // The right side: any expression for a float local, an integer one otherwise (an
        // implicit float → integer conversion could be out of range); shift counts masked.
        let rhs = match update {
            None | Some("++" | "--") => None,
            Some(op @ ("<<=" | ">>=")) => {
                let n = self.int_expr(d);
                let mask = ty.promote().bits() - 1;
                Some((
                    op,
                    format!("({}) & {mask}", n.sk),
                    format!("({}) & {mask}", n.c),
                ))
            }
            Some(op) => {
                let e = if ty.is_float() {
                    self.expr(d)
                } else {
                    self.int_expr(d)
                };
                Some((op, e.sk, e.c))
            }
        };
        let name = self.var();
        self.lets_sk
            .push(format!("{} {name} = {};", ty.sk(), init.sk));
        self.lets_c.push(format!("{} {name} = {};", ty.c(), init.c));
        match (update, rhs) {
            (_, Some((op, sk, c))) => {
                self.lets_sk.push(format!("{name} {op} {sk};"));
                self.lets_c.push(format!("{name} {op} {c};"));
            }
            (Some(op), None) => {
                let s = if self.rng.pct(50) {
                    format!("{name}{op};")
                } else {
                    format!("{op}{name};")
                };
                self.lets_sk.push(s.clone());
                self.lets_c.push(s);
            }
            (None, None) => {}
        }
        E {
            sk: name.clone(),
            c: name,
            ty,
            simple: true,
        }
    }

    fn leaf(&mut self) -> E {
        let mut e = if self.rng.pct(self.literal_pct) {
            self.literal()
        } else {
            let ty = self.rng.pick(INPUT_TYPES);
            let text = format!("x{}[{}]", ty.tag(), self.rng.below(INPUTS as u64));
            E::same(text, ty)
        };
        e.simple = true;
        e
    }

    fn literal(&mut self) -> E {
        match self.rng.below(10) {
            0..=4 => self.int_literal(),
            5..=7 => {
                let t = self.float_literal(true);
                E::same(t, Ty::F32)
            }
            8 => {
                let t = self.float_literal(false);
                E::same(t, Ty::F64)
            }
            _ => E::same(self.rng.pick(&["true", "false"]).to_string(), Ty::B),
        }
    }

    /// An integer literal in decimal, hex or octal with a random suffix, typed as C types it on
    /// LP64 (CUDA's `long` is 64 bits): unsuffixed decimal is `int` or `long`; unsuffixed hex or
    /// octal `int`, `unsigned`, `long` or `unsigned long`.
    fn int_literal(&mut self) -> E {
        let magnitudes: [u64; 22] = [
            0,
            1,
            2,
            3,
            7,
            31,
            32,
            33,
            63,
            64,
            127,
            255,
            256,
            65535,
            16_777_217,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1_0000_0000,
            (1 << 53) + 1,
            0x7fff_ffff_ffff_ffff,
            0x8000_0000_0000_0000,
        ];
        let v: u64 = match self.rng.below(4) {
            0 => self.rng.next() >> self.rng.below(64),
            1 => self.rng.below(1000),
            _ => self.rng.pick(&magnitudes),
        };
        let base = self.rng.pick(&[10, 10, 16, 16, 8]);
        let suffix = self.rng.pick(&[
            "", "", "", "u", "U", "l", "L", "ll", "LL", "ul", "UL", "ull", "ULL", "lu", "llu",
        ]);
        let unsigned = suffix.contains(['u', 'U']);
        let long = suffix.contains(['l', 'L']);
        let fits_i32 = v <= i32::MAX as u64;
        let fits_u32 = v <= u32::MAX as u64;
        let fits_i64 = v <= i64::MAX as u64;
        // A decimal literal too large for `long long` has no C type: make it unsigned.
        let (suffix, unsigned) = if base == 10 && !unsigned && !fits_i64 {
            ("ull", true)
        } else {
            (suffix, unsigned)
        };
        let ty = match (unsigned, long) {
            (false, false) if fits_i32 => Ty::I32,
            (false, false) if base != 10 && fits_u32 => Ty::U32,
            (false, _) if fits_i64 => Ty::I64,
            (false, _) => Ty::U64,
            (true, false) if fits_u32 => Ty::U32,
            (true, _) => Ty::U64,
        };
        let digits = match base {
            16 => format!("0x{v:x}"),
            8 if v != 0 => format!("0{v:o}"),
            _ => v.to_string(),
        };
        let text = format!("{digits}{suffix}");
        if self.rng.pct(25) {
            // `-2147483648` is `-(2147483648)`: a `long`, as C has no negative literals.
            E::same(format!("(-{text})"), ty)
        } else {
            E::same(text, ty)
        }
    }

    /// A float (`f` suffix) or double literal. Half of the float ones are within 2^-60 or so
    /// of the midpoint of two neighbouring floats, written with 17 to 40 digits: read as a
    /// double first, they land on the midpoint and round to even, where C rounds the decimal
    /// value once, towards its side of the midpoint.
    fn float_literal(&mut self, single: bool) -> String {
        let f = if self.rng.pct(50) { "f" } else { "F" };
        let sfx = if single { f } else { "" };
        let exact = |x: f64| -> String {
            // Shortest text that reads back as x, in a form C accepts with a suffix.
            let s = format!("{x:e}");
            if s.contains('.') || s.contains('e') {
                s
            } else {
                format!("{s}.0")
            }
        };
        match self.rng.below(7) {
            // Signed zeros, often enough to meet each other in `fminf`, `copysignf`, `-`.
            6 => {
                let zero = self.rng.pick(&["0.0", "0.", "0e0"]);
                if self.rng.pct(50) {
                    format!("(-{zero}{sfx})")
                } else {
                    format!("{zero}{sfx}")
                }
            }
            0 | 1 if single => {
                // Near a float midpoint.
                let x = loop {
                    let x = f32::from_bits(self.rng.next() as u32 & 0x7fff_ffff);
                    if x.is_finite() && x < f32::MAX {
                        break x;
                    }
                };
                let y = f32::from_bits(x.to_bits() + 1);
                let mid = (f64::from(x) + f64::from(y)) / 2.0;
                let digits = 17 + self.rng.below(24) as usize;
                let mut s = format!("{mid:.digits$e}");
                if self.rng.pct(50) {
                    // Past the rounded digits: nudges the value off an exact midpoint.
                    let e = s.find('e').expect("exponent");
                    s.insert(e, '1');
                }
                format!("{s}{sfx}")
            }
            0 | 1 => {
                // A long random decimal: double parsing must round it once.
                let mut s = format!("{}.", self.rng.below(10));
                for _ in 0..(15 + self.rng.below(20)) {
                    s.push(char::from(b'0' + self.rng.below(10) as u8));
                }
                format!("{s}e{}", self.rng.below(40) as i64 - 20)
            }
            2 => {
                let forms = [
                    ".5",
                    "2.",
                    "1e3",
                    "1.5e-3",
                    "0.1",
                    "3.14159265358979323846",
                    "1e-45",
                ];
                format!("{}{sfx}", self.rng.pick(&forms))
            }
            _ => {
                let x = if single {
                    f64::from(random_f32(self.rng))
                } else {
                    random_f64(self.rng)
                };
                let x = x.abs();
                if !x.is_finite() || (single && x > f64::from(f32::MAX)) {
                    return format!("1.0{sfx}");
                }
                if single {
                    format!("{}{sfx}", exact(f64::from(x as f32)))
                } else {
                    exact(x)
                }
            }
        }
    }

    /// An expression of an integer type (`bool` included): floats are converted.
    fn int_expr(&mut self, depth: u32) -> E {
        let e = self.expr(depth);
        if e.ty.is_float() {
            let to = self.rng.pick(INTS);
            self.float_to_int(e, to)
        } else {
            e
        }
    }

    /// `(to)e` of a float `e`. Half of the time only when `e` fits (`0` otherwise), as C
    /// requires; half of the time as CUDA does it for any value: saturating, NaN to 0 (PTX
    /// `cvt.rzi.sat`; undefined in C, so the C side calls `cuda_f2<type>`).
    fn float_to_int(&mut self, e: E, to: Ty) -> E {
        if self.rng.pct(50) {
            let x = self.share(e);
            let (lo, hi) = to.float_range();
            let cmp_lo = if to.signed() { ">=" } else { ">" };
            let text = |t: &str, x: &str| {
                format!("(({t})((({x}) {cmp_lo} {lo} && ({x}) < {hi}) ? ({x}) : 0))")
            };
            E {
                sk: text(to.sk(), &x.sk),
                c: text(to.c(), &x.c),
                ty: to,
                simple: false,
            }
        } else {
            E {
                sk: format!("(({})({}))", to.sk(), e.sk),
                c: format!("cuda_f2{}({})", to.tag(), e.c),
                ty: to,
                simple: false,
            }
        }
    }

    /// `e` as a `float` (or `double`) argument of a math function.
    fn as_float(&mut self, depth: u32, ty: Ty) -> E {
        let e = self.expr(depth);
        if e.ty == ty {
            e
        } else {
            E {
                sk: format!("(({})({}))", ty.sk(), e.sk),
                c: format!("(({})({}))", ty.c(), e.c),
                ty,
                simple: false,
            }
        }
    }

    fn expr(&mut self, depth: u32) -> E {
        if depth == 0 || self.rng.pct(10) {
            return self.leaf();
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0..=2 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&["+", "-", "*"]);
                bin(&a, op, &b, Ty::common(a.ty, b.ty))
            }
            3 | 4 => self.division(d),
            5 => {
                let (a, b) = (self.int_expr(d), self.int_expr(d));
                let op = self.rng.pick(&["&", "|", "^"]);
                bin(&a, op, &b, Ty::common(a.ty, b.ty))
            }
            6 => self.shift(d),
            7 => {
                let a = self.expr(d);
                match self.rng.below(4) {
                    0 => unary("-", &a, a.ty.promote()),
                    1 => unary("!", &a, Ty::B),
                    2 => unary("+", &a, a.ty.promote()),
                    _ => {
                        let a = if a.ty.is_float() {
                            let to = self.rng.pick(INTS);
                            self.float_to_int(a, to)
                        } else {
                            a
                        };
                        unary("~", &a, a.ty.promote())
                    }
                }
            }
            8 | 9 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                bin(&a, op, &b, Ty::B)
            }
            10 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&["&&", "||"]);
                bin(&a, op, &b, Ty::B)
            }
            11 => {
                let (c, a, b) = (self.expr(d), self.expr(d), self.expr(d));
                let ty = if a.ty == Ty::B && b.ty == Ty::B {
                    Ty::B
                } else {
                    Ty::common(a.ty, b.ty)
                };
                let text = |c: &str, a: &str, b: &str| format!("(({c}) ? ({a}) : ({b}))");
                E {
                    sk: text(&c.sk, &a.sk, &b.sk),
                    c: text(&c.c, &a.c, &b.c),
                    ty,
                    simple: false,
                }
            }
            12 | 13 => {
                let e = self.expr(d);
                let to = self.rng.pick(&ALL);
                if e.ty.is_float() && to != Ty::B && !to.is_float() {
                    self.float_to_int(e, to)
                } else {
                    E {
                        sk: format!("(({})({}))", to.sk(), e.sk),
                        c: format!("(({})({}))", to.c(), e.c),
                        ty: to,
                        simple: false,
                    }
                }
            }
            14 | 15 => {
                let ty = if self.rng.pct(60) { Ty::F32 } else { Ty::F64 };
                let a = self.as_float(d, ty);
                let f = self.rng.pick(&[
                    "sqrt",
                    "fabs",
                    "floor",
                    "ceil",
                    "trunc",
                    "rint",
                    "nearbyint",
                    "round",
                ]);
                let f = if ty == Ty::F32 {
                    format!("{f}f")
                } else {
                    f.to_string()
                };
                E {
                    sk: format!("{f}({})", a.sk),
                    c: format!("{f}({})", a.c),
                    ty,
                    simple: false,
                }
            }
            16 | 17 => self.math2(d),
            18 => {
                let ty = if self.rng.pct(60) { Ty::F32 } else { Ty::F64 };
                let (a, b, c) = (
                    self.as_float(d, ty),
                    self.as_float(d, ty),
                    self.as_float(d, ty),
                );
                let f = if ty == Ty::F32 { "fmaf" } else { "fma" };
                E {
                    sk: format!("{f}({}, {}, {})", a.sk, b.sk, c.sk),
                    c: format!("{f}({}, {}, {})", a.c, b.c, c.c),
                    ty,
                    simple: false,
                }
            }
            _ => self.local(d),
        }
    }

    /// `/` or `%`. On integers, guarded: by zero and `MIN / -1` are undefined in C (and trap on
    /// x86), so the guard picks the dividend instead. The guard is often a constant (a literal
    /// divisor of 0): then the division is in code that never runs, which must still compile.
    fn division(&mut self, d: u32) -> E {
        let (a, b) = (self.expr(d), self.expr(d));
        let ty = Ty::common(a.ty, b.ty);
        if ty.is_float() {
            return bin(&a, "/", &b, ty);
        }
        let op = self.rng.pick(&["/", "%"]);
        let (a, b) = (self.share(a), self.share(b));
        let text = |a: &str, b: &str| {
            let overflow = if ty.signed() {
                format!(" && !(({a}) == {} && ({b}) == -1)", ty.min_text())
            } else {
                String::new()
            };
            format!("((({b}) != 0{overflow}) ? (({a}) {op} ({b})) : ({a}))")
        };
        E {
            sk: text(&a.sk, &b.sk),
            c: text(&a.c, &b.c),
            ty,
            simple: false,
        }
    }

    /// `<<` or `>>`. Most counts are masked below the width of the promoted left operand, as C
    /// requires; some up to 127, where C is undefined and PTX clamps the count (`<<` gives 0,
    /// `>>` the sign fill): the C side calls `cuda_shl_<type>`/`cuda_shr_<type>`.
    fn shift(&mut self, d: u32) -> E {
        let (a, n) = (self.int_expr(d), self.int_expr(d));
        let ty = a.ty.promote();
        let op = self.rng.pick(&["<<", ">>"]);
        if self.rng.pct(70) {
            let mask = ty.bits() - 1;
            let text = |a: &str, n: &str| format!("(({a}) {op} (({n}) & {mask}))");
            E {
                sk: text(&a.sk, &n.sk),
                c: text(&a.c, &n.c),
                ty,
                simple: false,
            }
        } else {
            let f = if op == "<<" { "shl" } else { "shr" };
            E {
                sk: format!("(({}) {op} (({}) & 127))", a.sk, n.sk),
                c: format!("cuda_{f}_{}({}, ({}) & 127)", ty.tag(), a.c, n.c),
                ty,
                simple: false,
            }
        }
    }

    /// A zero of either sign, as a literal (folded) or computed at run time (`xf[k] * 0.0f`
    /// has the sign of `xf[k]`, or is a NaN), so that `fminf(+0, -0)` and the like come up.
    fn signed_zero(&mut self, ty: Ty) -> E {
        let (zero, arr) = if ty == Ty::F32 {
            ("0.0f", "xf")
        } else {
            ("0.0", "xd")
        };
        let text = match self.rng.below(3) {
            0 => zero.to_string(),
            1 => format!("(-{zero})"),
            _ => format!("({arr}[{}] * {zero})", self.rng.below(INPUTS as u64)),
        };
        E::same(text, ty)
    }

    /// The two-argument math functions.
    fn math2(&mut self, d: u32) -> E {
        let ty = if self.rng.pct(60) { Ty::F32 } else { Ty::F64 };
        let (a, b) = if self.rng.pct(30) {
            (self.signed_zero(ty), self.signed_zero(ty))
        } else {
            (self.as_float(d, ty), self.as_float(d, ty))
        };
        let name = self.rng.pick(&["fmin", "fmax", "fmod", "fdim", "copysign"]);
        let f = if ty == Ty::F32 {
            format!("{name}f")
        } else {
            name.to_string()
        };
        let (sk, c) = match name {
            // Which zero `fminf(+0, -0)` gives is unspecified in C; CUDA gives -0.
            "fmin" | "fmax" => (
                format!("{f}({}, {})", a.sk, b.sk),
                format!("cuda_{f}({}, {})", a.c, b.c),
            ),
            // The sign of a NaN is not specified (x86's default NaN is negative, the GPU's
            // positive): never copy it.
            "copysign" => {
                let b = self.share(b);
                let one = if ty == Ty::F32 { "1.0f" } else { "1.0" };
                let sign = |b: &str| format!("(({b}) != ({b}) ? {one} : ({b}))");
                (
                    format!("{f}({}, {})", a.sk, sign(&b.sk)),
                    format!("{f}({}, {})", a.c, sign(&b.c)),
                )
            }
            _ => (
                format!("{f}({}, {})", a.sk, b.sk),
                format!("{f}({}, {})", a.c, b.c),
            ),
        };
        E {
            sk,
            c,
            ty,
            simple: false,
        }
    }
}

fn bin(a: &E, op: &str, b: &E, ty: Ty) -> E {
    E {
        sk: format!("(({}) {op} ({}))", a.sk, b.sk),
        c: format!("(({}) {op} ({}))", a.c, b.c),
        ty,
        simple: false,
    }
}

fn unary(op: &str, a: &E, ty: Ty) -> E {
    E {
        sk: format!("({op}({}))", a.sk),
        c: format!("({op}({}))", a.c),
        ty,
        simple: false,
    }
}

// ---------------------------------------------------------------- the two programs

/// What the C side needs beyond the expressions: bit patterns out, and the GPU's definitions of
/// what C leaves undefined or unspecified (see the top of this file).
const C_PRELUDE: &str = r#"#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if FLT_EVAL_METHOD != 0
#error "float arithmetic is not done in float here (FLT_EVAL_METHOD != 0)"
#endif

static void out(int k, unsigned long long bits) { printf("%d %llx\n", k, bits); }
static unsigned long long bits_f(float v) { uint32_t u; memcpy(&u, &v, 4); return u; }
static unsigned long long bits_d(double v) { uint64_t u; memcpy(&u, &v, 8); return u; }

/* float -> integer: PTX cvt.rzi.sat saturates to the destination type, NaN gives 0. */
#define CUDA_F2I(tag, T, LO, HI, MIN, MAX)                                    \
    static T cuda_f2##tag(double x) {                                       \
        if (x != x) return 0;                                               \
        if (x <= LO) return MIN;                                            \
        if (x >= HI) return MAX;                                            \
        return (T)x;                                                        \
    }
CUDA_F2I(c, signed char, -129.0, 128.0, -128, 127)
CUDA_F2I(uc, unsigned char, -1.0, 256.0, 0, 255)
CUDA_F2I(s, short, -32769.0, 32768.0, -32768, 32767)
CUDA_F2I(us, unsigned short, -1.0, 65536.0, 0, 65535)
CUDA_F2I(i, int, -2147483649.0, 2147483648.0, -2147483647 - 1, 2147483647)
CUDA_F2I(u, unsigned, -1.0, 4294967296.0, 0, 4294967295u)
CUDA_F2I(l, long long, -9223372036854777856.0, 9223372036854775808.0,
         -9223372036854775807ll - 1, 9223372036854775807ll)
CUDA_F2I(ul, unsigned long long, -1.0, 18446744073709551616.0, 0, 18446744073709551615ull)

/* Shifts: PTX clamps the count to the width: << gives 0, >> the sign fill. */
#define CUDA_SHIFT(tag, T, W)                                                \
    static T cuda_shl_##tag(T a, unsigned long long n) {                    \
        return n >= W ? 0 : (T)((unsigned long long)a << n);                \
    }                                                                       \
    static T cuda_shr_##tag(T a, unsigned long long n) {                    \
        return n >= W ? (a < 0 ? (T)-1 : 0) : a >> n;                       \
    }
CUDA_SHIFT(i, int, 32)
CUDA_SHIFT(u, unsigned, 32)
CUDA_SHIFT(l, long long, 64)
CUDA_SHIFT(ul, unsigned long long, 64)

/* fminf/fmaxf: PTX min/max order -0 below +0; C leaves the zero's sign unspecified. */
static float cuda_fminf(float a, float b) {
    if (a == 0 && b == 0) return signbit(a) ? a : b;
    return fminf(a, b);
}
static float cuda_fmaxf(float a, float b) {
    if (a == 0 && b == 0) return signbit(a) ? b : a;
    return fmaxf(a, b);
}
static double cuda_fmin(double a, double b) {
    if (a == 0 && b == 0) return signbit(a) ? a : b;
    return fmin(a, b);
}
static double cuda_fmax(double a, double b) {
    if (a == 0 && b == 0) return signbit(a) ? b : a;
    return fmax(a, b);
}
"#;

fn c_bits_type(ty: Ty) -> &'static str {
    match ty.bits() {
        8 => "uint8_t",
        16 => "uint16_t",
        32 => "uint32_t",
        _ => "uint64_t",
    }
}

/// The C program: the inputs from their bit patterns, then each case printing `k bits`.
fn c_program(cases: &[Case], inputs: &Inputs) -> String {
    let mut s = String::from(C_PRELUDE);
    for (i, &ty) in INPUT_TYPES.iter().enumerate() {
        let list: Vec<String> = inputs.bits[i].iter().map(|b| format!("{b:#x}u")).collect();
        let bt = c_bits_type(ty);
        let _ = writeln!(
            s,
            "static const {bt} x{t}_bits[{INPUTS}] = {{{}}};\nstatic {} x{t}[{INPUTS}];",
            list.join(", "),
            ty.c(),
            t = ty.tag()
        );
    }
    s.push_str("\nint main(void) {\n");
    for &ty in INPUT_TYPES {
        let _ = writeln!(s, "    memcpy(x{t}, x{t}_bits, sizeof x{t});", t = ty.tag());
    }
    for (k, case) in cases.iter().enumerate() {
        let ty = case.result.ty;
        let bits = match ty {
            Ty::F32 => "bits_f(r)".to_string(),
            Ty::F64 => "bits_d(r)".to_string(),
            Ty::B => "(unsigned long long)r".to_string(),
            _ => format!("(unsigned long long)({})r", c_bits_type(ty)),
        };
        let _ = writeln!(
            s,
            "    {{ {} {} r = {}; out({k}, {bits}); }}",
            case.lets_c.join(" "),
            ty.c(),
            case.result.c
        );
    }
    s.push_str("    return 0;\n}\n");
    s
}

/// The kernel: thread `t` runs case `t` (found by a binary search of `if`s, so that each thread
/// evaluates a handful of conditions) and stores its result in the output array of its type.
fn sk_kernel(cases: &[Case], slots: &[usize]) -> String {
    let mut s = String::from("__global__ void cases(");
    let mut params: Vec<String> = INPUT_TYPES
        .iter()
        .map(|t| format!("const {}* x{}", t.sk(), t.tag()))
        .collect();
    params.extend(ALL.iter().map(|t| format!("{}* o{}", t.sk(), t.tag())));
    s.push_str(&params.join(", "));
    let _ = writeln!(
        s,
        ") {{\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= {}) return;",
        cases.len()
    );
    fn dispatch(s: &mut String, cases: &[Case], slots: &[usize], lo: usize, hi: usize) {
        if hi - lo == 1 {
            let c = &cases[lo];
            let _ = writeln!(
                s,
                "{{ {} o{}[{}] = {}; }}",
                c.lets_sk.join(" "),
                c.result.ty.tag(),
                slots[lo],
                c.result.sk
            );
            return;
        }
        let mid = (lo + hi) / 2;
        let _ = writeln!(s, "if (t < {mid}) {{");
        dispatch(s, cases, slots, lo, mid);
        s.push_str("} else {\n");
        dispatch(s, cases, slots, mid, hi);
        s.push_str("}\n");
    }
    dispatch(&mut s, cases, slots, 0, cases.len());
    s.push_str("}\n");
    s
}

// ---------------------------------------------------------------- running

/// The C compiler to use, if one runs: `$CC`, `cc`, `gcc`.
fn compiler() -> Option<String> {
    let mut names: Vec<String> = std::env::var("CC").into_iter().collect();
    names.extend(["cc".to_string(), "gcc".to_string()]);
    names.into_iter().find(|cc| {
        Command::new(cc)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cc_differential");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Starts compiling `c` (returns at once; the compiler runs beside simt).
fn start_cc(cc: &str, c_path: &Path, exe: &Path) -> Child {
    Command::new(cc)
        .args([
            "-O0",
            "-std=c11",
            "-fwrapv",
            "-fsigned-char",
            "-ffp-contract=off",
            "-fno-fast-math",
            // Without it GCC 12 folds `0.0 - (double)(0 >= c)` into a negation even at -O0,
            // giving -0 where IEEE subtraction gives +0 (found by this test).
            "-frounding-math",
            "-w",
            "-o",
        ])
        .arg(exe)
        .arg(c_path)
        .arg("-lm")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the C compiler starts")
}

/// The result of each case as a bit pattern (zero-extended), and whether it is a NaN.
fn buffer_bits(data: &BufData, i: usize) -> (u64, bool) {
    match data {
        BufData::Bool(v) => (u64::from(v[i]), false),
        BufData::I8(v) => (u64::from(v[i] as u8), false),
        BufData::U8(v) => (u64::from(v[i]), false),
        BufData::I16(v) => (u64::from(v[i] as u16), false),
        BufData::U16(v) => (u64::from(v[i]), false),
        BufData::I32(v) => (u64::from(v[i] as u32), false),
        BufData::U32(v) => (u64::from(v[i]), false),
        BufData::I64(v) => (v[i] as u64, false),
        BufData::U64(v) => (v[i], false),
        BufData::F32(v) => (u64::from(v[i].to_bits()), v[i].is_nan()),
        BufData::F64(v) => (v[i].to_bits(), v[i].is_nan()),
        BufData::F16(v) => (u64::from(v[i].to_bits()), v[i].is_nan()),
        BufData::BF16(v) => (u64::from(v[i].to_bits()), v[i].is_nan()),
    }
}

fn is_nan_bits(ty: Ty, bits: u64) -> bool {
    match ty {
        Ty::F32 => f32::from_bits(bits as u32).is_nan(),
        Ty::F64 => f64::from_bits(bits).is_nan(),
        _ => false,
    }
}

fn fmt_bits(ty: Ty, bits: u64) -> String {
    match ty {
        Ty::F32 => format!("{:#010x} ({:e})", bits, f32::from_bits(bits as u32)),
        Ty::F64 => format!("{:#018x} ({:e})", bits, f64::from_bits(bits)),
        _ => format!("{bits:#x}"),
    }
}

/// One batch, prepared: its cases, where each result goes, and both programs written out.
struct Batch {
    cases: Vec<Case>,
    slots: Vec<usize>,
    inputs: Inputs,
    sk_path: PathBuf,
    exe: PathBuf,
    cc: Child,
}

fn prepare(rng: &mut Rng, n: usize, name: &str, cc: &str) -> Batch {
    let inputs = Inputs::new(rng);
    let cases: Vec<Case> = (0..n).map(|_| Gen::case(rng)).collect();
    let mut counts = [0usize; 11];
    let slots: Vec<usize> = cases
        .iter()
        .map(|c| {
            let i = ALL.iter().position(|&t| t == c.result.ty).expect("type");
            counts[i] += 1;
            counts[i] - 1
        })
        .collect();
    let dir = work_dir();
    let sk_path = dir.join(format!("{name}.sk"));
    let c_path = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&sk_path, sk_kernel(&cases, &slots)).expect("write .sk");
    std::fs::write(&c_path, c_program(&cases, &inputs)).expect("write .c");
    let cc = start_cc(cc, &c_path, &exe);
    Batch {
        cases,
        slots,
        inputs,
        sk_path,
        exe,
        cc,
    }
}

/// The output arrays' lengths per type.
fn out_lens(b: &Batch) -> [usize; 11] {
    let mut lens = [1usize; 11];
    for (c, &s) in b.cases.iter().zip(&b.slots) {
        let i = ALL.iter().position(|&t| t == c.result.ty).expect("type");
        lens[i] = lens[i].max(s + 1);
    }
    lens
}

fn zeros(ty: Ty, n: usize) -> BufData {
    match ty {
        Ty::B => BufData::Bool(vec![false; n]),
        Ty::I8 => BufData::I8(vec![0; n]),
        Ty::U8 => BufData::U8(vec![0; n]),
        Ty::I16 => BufData::I16(vec![0; n]),
        Ty::U16 => BufData::U16(vec![0; n]),
        Ty::I32 => BufData::I32(vec![0; n]),
        Ty::U32 => BufData::U32(vec![0; n]),
        Ty::I64 => BufData::I64(vec![0; n]),
        Ty::U64 => BufData::U64(vec![0; n]),
        Ty::F32 => BufData::F32(vec![0.0; n]),
        Ty::F64 => BufData::F64(vec![0.0; n]),
    }
}

/// Runs the batch's kernel on the engine and on the reference interpreter: the output arrays
/// of each (in [`ALL`] order).
fn run_simt(b: &Batch) -> [Vec<BufData>; 2] {
    let text = std::fs::read_to_string(&b.sk_path).expect("read .sk");
    let src = SourceFile::new(b.sk_path.display().to_string(), text);
    let program = match simt::pipeline::compile(&src) {
        Ok((_, p)) => p,
        Err(f) => panic!(
            "generated kernel {} does not compile:\n{}",
            b.sk_path.display(),
            simt::cli::render(&f)
        ),
    };
    let kernel = &program.kernels[0];
    let lens = out_lens(b);
    let mut buffers: Vec<Option<Buffer>> = Vec::new();
    for &ty in INPUT_TYPES {
        buffers.push(Some(Buffer {
            name: format!("x{}", ty.tag()),
            written: None,
            data: b.inputs.data(ty),
        }));
    }
    for (i, ty) in ALL.iter().enumerate() {
        buffers.push(Some(Buffer {
            name: format!("o{}", ty.tag()),
            written: None,
            data: zeros(*ty, lens[i]),
        }));
    }
    let scalars = vec![None; buffers.len()];
    let args = Args::separate(scalars, buffers);
    let block = 128u32;
    let cfg = LaunchConfig {
        grid: [(b.cases.len() as u32).div_ceil(block), 1, 1],
        block: [block, 1, 1],
        dyn_smem: 0,
        max_steps: 1 << 32,
        max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
        deadline: None,
        threads: 1,
        cooperative: false,
        parallel_min: exec::PARALLEL_MIN_THREADS,
        probe: exec::Probe::default(),
        cache: None,
    };
    let outputs = |a: Args| -> Vec<BufData> {
        a.buffers[INPUT_TYPES.len()..]
            .iter()
            .map(|b| b.data.clone())
            .collect()
    };
    let mut fast = args.clone();
    if let Err(e) = exec::launch(&simt::ir::lower(kernel), &cfg, &mut fast) {
        panic!("{}: the engine stops: {e}", b.sk_path.display());
    }
    let mut slow = args;
    if let Err(e) = reference::run(kernel, &cfg, &mut slow) {
        panic!("{}: the reference stops: {e:?}", b.sk_path.display());
    }
    [outputs(fast), outputs(slow)]
}

/// Runs the compiled C program: the bits of each case's result, in case order.
fn run_c(b: &mut Batch) -> Vec<u64> {
    let out = b.cc.wait_with_output_ref();
    assert!(
        out.0.success(),
        "the C program of {} does not compile:\n{}",
        b.sk_path.display(),
        out.1
    );
    let run = Command::new(&b.exe).output().expect("the C program runs");
    assert!(
        run.status.success(),
        "the C program {} fails: {:?}",
        b.exe.display(),
        run.status
    );
    let text = String::from_utf8(run.stdout).expect("ASCII output");
    let mut bits = vec![0u64; b.cases.len()];
    let mut seen = 0;
    for line in text.lines() {
        let (k, v) = line.split_once(' ').expect("`k bits`");
        let k: usize = k.parse().expect("case number");
        bits[k] = u64::from_str_radix(v, 16).expect("hex bits");
        seen += 1;
    }
    assert_eq!(seen, b.cases.len(), "the C program printed every case");
    bits
}

/// `Child::wait_with_output` without consuming the child.
trait WaitRef {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String);
}

impl WaitRef for Child {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String) {
        use std::io::Read;
        let mut err = String::new();
        if let Some(mut e) = self.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        (self.wait().expect("the C compiler finishes"), err)
    }
}

/// Compares one batch: the mismatches, described.
fn compare(b: &Batch, c_bits: &[u64], sims: &[Vec<BufData>; 2]) -> Vec<String> {
    let mut bad = Vec::new();
    for (k, case) in b.cases.iter().enumerate() {
        let ty = case.result.ty;
        let i = ALL.iter().position(|&t| t == ty).expect("type");
        let want = c_bits[k];
        for (who, outs) in ["engine", "reference"].iter().zip(sims) {
            let (got, nan) = buffer_bits(&outs[i], b.slots[k]);
            // NaN payloads and signs are not specified: a NaN matches a NaN.
            let same = got == want || (nan && is_nan_bits(ty, want));
            if !same {
                bad.push(format!(
                    "case {k} ({}), {who}: simt {} but C {}\n    sk: {} {}\n    C:  {} {}",
                    ty.sk(),
                    fmt_bits(ty, got),
                    fmt_bits(ty, want),
                    case.lets_sk.join(" "),
                    case.result.sk,
                    case.lets_c.join(" "),
                    case.result.c
                ));
            }
        }
    }
    bad
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|s| {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s}: not a number"))
    })
}

#[test]
fn generated_expressions_match_the_c_compiler_bit_for_bit() {
    let Some(cc) = compiler() else {
        eprintln!("skipping cc_differential: no C compiler (`$CC`, `cc` or `gcc`) runs here");
        return;
    };
    let seed = env_u64("SIMT_CC_SEED").unwrap_or(0x5117_c0de);
    let total = env_u64("SIMT_CC_CASES").unwrap_or(4000) as usize;
    let mut rng = Rng(seed);
    let start = std::time::Instant::now();
    let batches = total.div_ceil(BATCH);
    let mut mismatches = Vec::new();
    // The next batch's C program compiles while simt runs this one.
    let mut next = Some(prepare(&mut rng, total.min(BATCH), "batch0", &cc));
    for i in 0..batches {
        let mut b = next.take().expect("a prepared batch");
        if i + 1 < batches {
            let n = (total - (i + 1) * BATCH).min(BATCH);
            next = Some(prepare(&mut rng, n, &format!("batch{}", i + 1), &cc));
        }
        let sims = run_simt(&b);
        let c_bits = run_c(&mut b);
        let bad = compare(&b, &c_bits, &sims);
        if !bad.is_empty() {
            mismatches.push(format!(
                "{} ({} of {} results differ):\n  {}",
                b.sk_path.display(),
                bad.len(),
                2 * b.cases.len(),
                bad.iter()
                    .take(12)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n  ")
            ));
        }
    }
    eprintln!(
        "cc_differential: {total} cases (seed {seed:#x}, {cc}) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        mismatches.is_empty(),
        "simt and the C compiler disagree (seed {seed:#x}):\n{}",
        mismatches.join("\n")
    );
}

// ---------------------------------------------------------------- what this test found
//
// Each bug the comparison found in simt, pinned by a small kernel that needs no C compiler, run
// on the engine (through the pipeline, with its `expect`s) and on the reference interpreter.

/// Runs `src` (one launch section, with its shape) on both interpreters; every `expect` must
/// hold on each.
fn on_both(src: &str) {
    match common::run(src, &[], None, None) {
        Ok(r) => {
            for e in &r.expects {
                assert!(
                    e.passed,
                    "engine: expect `{}` failed: {:?}",
                    e.text, e.detail
                );
            }
        }
        Err(f) => panic!("kernel failed: {}", common::describe(&f)),
    }
    let file = SourceFile::new("pinned.sk", src);
    let (module, program) = simt::pipeline::compile(&file).expect("compiles");
    let launch = &module.launches[0];
    let kernel = program.kernel(&launch.kernel.name).expect("kernel");
    let mut setup = simt::host::prepare(
        kernel,
        Some(launch),
        &simt::host::Overrides::default(),
        Path::new("."),
    )
    .expect("launch section runs");
    let cfg = LaunchConfig {
        grid: setup.grid,
        block: setup.block,
        dyn_smem: 0,
        max_steps: 1 << 20,
        max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
        deadline: None,
        threads: 1,
        cooperative: false,
        parallel_min: exec::PARALLEL_MIN_THREADS,
        probe: exec::Probe::default(),
        cache: None,
    };
    reference::run(kernel, &cfg, &mut setup.args).expect("the reference runs it");
    for e in simt::host::check_expects(&mut setup, &file).expect("expects evaluate") {
        assert!(
            e.passed,
            "reference: expect `{}` failed: {:?}",
            e.text, e.detail
        );
    }
}

#[test]
fn float_literals_round_once_to_float() {
    // The decimal is just above the midpoint of 1 and the next float: C rounds it up. Read as a
    // double first (as simt did), it is the midpoint, which rounds to even: 1.0f. A double
    // literal converted to float is rounded twice in C too. Half the smallest subnormal, and a
    // hair above and below it.
    on_both(
        r#"
__global__ void k(int* out) {
    float x = 1.00000005960464477550f;
    out[0] = x == 1.0f;
    out[1] = x == 1.00000011920928955078125f;
    out[2] = (float)1.00000005960464477550 == 1.0f;
    out[3] = 7.00649232162408535461865e-46f > 0.0f;
    out[4] = 7.006492321624085354618e-46f > 0.0f;
}
launch k { out = zeros(5); block = 1; grid = 1; expect out == [0, 1, 1, 1, 0]; }
"#,
    );
}

#[test]
fn division_by_a_constant_zero_is_an_error_only_where_it_runs() {
    // C: undefined behaviour only if evaluated; the checker used to refuse the kernel.
    on_both(
        r#"
#define D 0
__global__ void k(const int* a, int* out) {
    int t = threadIdx.x;
    out[t] = D != 0 ? a[t] / D : 7;
    if (D) out[t] = a[t] % D;
    out[t + 4] = (D && 1 / D) + (0 ? 5 / 0 : 2);
}
launch k { a = arange(4); out = zeros(8); block = 4; grid = 1; expect out == [7, 7, 7, 7, 2, 2, 2, 2]; }
"#,
    );
    // Where it runs, the thread traps, as a division by a run-time zero does.
    let f = common::err(
        "__global__ void k(int* out) { out[threadIdx.x] = 1 / 0; }",
        &[("out", "zeros(4)")],
        Some([1, 1, 1]),
        Some([4, 1, 1]),
    );
    assert_eq!(common::codes(&f), ["simt::run::division_by_zero"]);
    assert_eq!(f.exit, 1);
}

#[test]
fn fminf_and_fmaxf_order_negative_zero_below_positive_zero() {
    // PTX min/max: fminf(+0, -0) is -0 and fmaxf is +0, in either order, computed or folded
    // (simt returned the first argument). The sign shows in 1/x.
    on_both(
        r#"
__global__ void k(const float* z, const double* zd, int* out) {
    float p = z[0], n = -z[0];
    double pd = zd[0], nd = -zd[0];
    out[0] = 1.0f / fminf(p, n) < 0.0f;
    out[1] = 1.0f / fminf(n, p) < 0.0f;
    out[2] = 1.0f / fmaxf(p, n) < 0.0f;
    out[3] = 1.0f / fmaxf(n, p) < 0.0f;
    out[4] = 1.0f / fminf(0.0f, -0.0f) < 0.0f;
    out[5] = 1.0f / fmaxf(-0.0f, 0.0f) < 0.0f;
    out[6] = 1.0 / fmin(pd, nd) < 0.0;
    out[7] = 1.0 / fmax(nd, pd) < 0.0;
    out[8] = 1.0f / min(p, n) < 0.0f;
    out[9] = 1.0f / max(n, p) < 0.0f;
}
launch k {
    z = zeros(1);
    zd = zeros(1);
    out = zeros(10);
    block = 1;
    grid = 1;
    expect out == [1, 1, 0, 0, 1, 0, 1, 0, 1, 0];
}
"#,
    );
}

#[test]
fn float_to_narrow_integers_saturates_to_the_narrow_range() {
    // PTX `cvt.rzi.sat` saturates to the destination type, char and short included, NaN to 0
    // (simt saturated to int's range and then wrapped: (char)1e10f was -1, (short)70000.5f 4464).
    on_both(
        r#"
__global__ void k(const float* x, int* out) {
    float nan = x[5] / x[5];
    out[0] = (char)x[0];
    out[1] = (char)x[1];
    out[2] = (unsigned char)x[2];
    out[3] = (unsigned char)x[3];
    out[4] = (short)x[4];
    out[5] = (unsigned short)x[1];
    out[6] = (char)1e10f;
    out[7] = (short)-70000.5f;
    char c = x[2];
    out[8] = c;
    out[9] = (char)nan;
    out[10] = (unsigned short)(double)x[4];
    out[11] = (char)-7.9f;
}
launch k {
    x = [10000000000.0, -10000000000.0, 300.5, -5.5, 70000.5, 0];
    out = zeros(12);
    block = 1;
    grid = 1;
    expect out == [127, -128, 255, 0, 32767, 0, 127, -32768, 127, 0, 65535, -7];
}
"#,
    );
}
