//! Scalar types and values with C/CUDA semantics, shared by the constant folder and the executor.

use serde::Serialize;
use std::fmt;

mod directed;
mod library;
mod rounded;
pub use directed::{round_directed, Direction, Exact};
pub use library::library_constant;
pub use rounded::{rounded, RoundedOp};

/// A scalar type of the kernel language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    /// `bool`
    Bool,
    /// `char`
    I8,
    /// `unsigned char`
    U8,
    /// `short`
    I16,
    /// `unsigned short`
    U16,
    /// `int`
    I32,
    /// `unsigned int`
    U32,
    /// `long long`
    I64,
    /// `unsigned long long`, `size_t`
    U64,
    /// `float`
    F32,
    /// `double`
    F64,
    /// `half` (`__half`, cuda_fp16.h): IEEE binary16 in memory, a `float` in a register
    F16,
    /// `__nv_bfloat16` (cuda_bf16.h): bfloat16 in memory, a `float` in a register
    BF16,
}

impl Scalar {
    /// Size in bytes in memory.
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 | Scalar::BF16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }

    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "unsigned char",
            Scalar::I16 => "short",
            Scalar::U16 => "unsigned short",
            Scalar::I32 => "int",
            Scalar::U32 => "unsigned int",
            Scalar::I64 => "long long",
            Scalar::U64 => "unsigned long long",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
            Scalar::F16 => "half",
            Scalar::BF16 => "__nv_bfloat16",
        }
    }

    /// The numpy dtype name of a buffer of this type.
    pub fn numpy_name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "int8",
            Scalar::U8 => "uint8",
            Scalar::I16 => "int16",
            Scalar::U16 => "uint16",
            Scalar::I32 => "int32",
            Scalar::U32 => "uint32",
            Scalar::I64 => "int64",
            Scalar::U64 => "uint64",
            Scalar::F32 => "float32",
            Scalar::F64 => "float64",
            Scalar::F16 => "float16",
            Scalar::BF16 => "bfloat16",
        }
    }

    /// `float`, `double` or a 16-bit float.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64 | Scalar::F16 | Scalar::BF16)
    }

    /// `half` or `__nv_bfloat16`: stored in 16 bits, computed in a `float` register and rounded
    /// back after each operation.
    pub fn is_half(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::BF16)
    }

    /// Any integer type (not `bool`).
    pub fn is_integer(self) -> bool {
        !self.is_float() && self != Scalar::Bool
    }

    /// Signed integer types.
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }

    /// The type a value of this type has in a register: C's integer promotion, and `float` for
    /// the 16-bit floats (whose operations the hardware rounds to 16 bits, which a `float`
    /// operation followed by [`round_half`] reproduces exactly).
    pub fn promoted(self) -> Scalar {
        match self {
            Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 => Scalar::I32,
            Scalar::F16 | Scalar::BF16 => Scalar::F32,
            other => other,
        }
    }

    /// C's usual arithmetic conversions: the common type of a binary operation.
    pub fn common(a: Scalar, b: Scalar) -> Scalar {
        let (a, b) = (a.promoted(), b.promoted());
        let (a, b) = (
            if a == Scalar::Bool { Scalar::I32 } else { a },
            if b == Scalar::Bool { Scalar::I32 } else { b },
        );
        if a == Scalar::F64 || b == Scalar::F64 {
            return Scalar::F64;
        }
        if a == Scalar::F32 || b == Scalar::F32 {
            return Scalar::F32;
        }
        if a == b {
            return a;
        }
        let rank = |t: Scalar| {
            if matches!(t, Scalar::I64 | Scalar::U64) {
                2
            } else {
                1
            }
        };
        let (s, u) = match (a.is_signed(), b.is_signed()) {
            (true, true) | (false, false) => return if rank(a) >= rank(b) { a } else { b },
            (true, false) => (a, b),
            (false, true) => (b, a),
        };
        if rank(u) >= rank(s) {
            u
        } else {
            // A 64-bit signed type holds every 32-bit unsigned value.
            s
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// A constant of a register type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// `bool`
    Bool(bool),
    /// `int`
    I32(i32),
    /// `unsigned`
    U32(u32),
    /// `long long`
    I64(i64),
    /// `unsigned long long`
    U64(u64),
    /// `float`
    F32(f32),
    /// `double`
    F64(f64),
}

impl Value {
    /// The register type of the value.
    pub fn ty(self) -> Scalar {
        match self {
            Value::Bool(_) => Scalar::Bool,
            Value::I32(_) => Scalar::I32,
            Value::U32(_) => Scalar::U32,
            Value::I64(_) => Scalar::I64,
            Value::U64(_) => Scalar::U64,
            Value::F32(_) => Scalar::F32,
            Value::F64(_) => Scalar::F64,
        }
    }

    /// The value as a double (exact for every type but 64-bit integers above 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Bool(b) => f64::from(u8::from(b)),
            Value::I32(v) => f64::from(v),
            Value::U32(v) => f64::from(v),
            Value::I64(v) => v as f64,
            Value::U64(v) => v as f64,
            Value::F32(v) => f64::from(v),
            Value::F64(v) => v,
        }
    }

    /// The value as a 64-bit signed integer, for integer types (and `bool`).
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Value::Bool(b) => Some(i64::from(b)),
            Value::I32(v) => Some(i64::from(v)),
            Value::U32(v) => Some(i64::from(v)),
            Value::I64(v) => Some(v),
            Value::U64(v) => Some(v as i64),
            Value::F32(_) | Value::F64(_) => None,
        }
    }

    /// Converts with C semantics (`(T)v`): wrapping between integers, saturating float → integer, `!= 0` to bool.
    pub fn cast(self, to: Scalar) -> Value {
        macro_rules! via {
            ($get:ident) => {
                match to.promoted() {
                    Scalar::Bool => Value::Bool(self.is_true()),
                    Scalar::I32 => {
                        Value::I32(Num::$get(self.num_i64(), self.num_u64(), self.num_f64()))
                    }
                    Scalar::U32 => {
                        Value::U32(Num::$get(self.num_i64(), self.num_u64(), self.num_f64()))
                    }
                    Scalar::I64 => {
                        Value::I64(Num::$get(self.num_i64(), self.num_u64(), self.num_f64()))
                    }
                    Scalar::U64 => {
                        Value::U64(Num::$get(self.num_i64(), self.num_u64(), self.num_f64()))
                    }
                    Scalar::F32 => {
                        Value::F32(Num::$get(self.num_i64(), self.num_u64(), self.num_f64()))
                    }
                    _ => Value::F64(Num::$get(self.num_i64(), self.num_u64(), self.num_f64())),
                }
            };
        }
        if self.ty().is_float() {
            // A float saturates to a narrow type's own range, as PTX `cvt.rzi.sat.s8.f32` does
            // (and Rust's `as`: NaN to 0).
            let x = self.as_f64();
            match to {
                Scalar::I8 => return Value::I32(i32::from(x as i8)),
                Scalar::U8 => return Value::I32(i32::from(x as u8)),
                Scalar::I16 => return Value::I32(i32::from(x as i16)),
                Scalar::U16 => return Value::I32(i32::from(x as u16)),
                _ => {}
            }
        }
        let v = match self.ty() {
            Scalar::F32 | Scalar::F64 => via!(pick_float),
            Scalar::I32 | Scalar::I64 | Scalar::Bool => via!(pick_signed),
            _ => via!(pick_unsigned),
        };
        // Narrow integer targets wrap to their width, then promote again; 16-bit floats round.
        match to {
            Scalar::F16 | Scalar::BF16 => Value::F32(round_half(self.as_f64(), to)),
            Scalar::I8 => Value::I32(v.num_i64() as i8 as i32),
            Scalar::U8 => Value::I32(v.num_i64() as u8 as i32),
            Scalar::I16 => Value::I32(v.num_i64() as i16 as i32),
            Scalar::U16 => Value::I32(v.num_i64() as u16 as i32),
            _ => v,
        }
    }

    /// C truth: non-zero.
    pub fn is_true(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::F32(v) => v != 0.0,
            Value::F64(v) => v != 0.0,
            other => other.num_u64() != 0,
        }
    }

    fn num_i64(self) -> i64 {
        self.as_i64().unwrap_or_else(|| self.as_f64() as i64)
    }

    fn num_u64(self) -> u64 {
        match self {
            Value::U64(v) => v,
            other => other.num_i64() as u64,
        }
    }

    fn num_f64(self) -> f64 {
        self.as_f64()
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::I32(v) => write!(f, "{v}"),
            Value::U32(v) => write!(f, "{v}u"),
            Value::I64(v) => write!(f, "{v}ll"),
            Value::U64(v) => write!(f, "{v}ull"),
            Value::F32(v) => write!(f, "{v:?}f"),
            Value::F64(v) => write!(f, "{v:?}"),
        }
    }
}

/// Integer or float division/remainder by zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivByZero;

/// Arithmetic on one register type with C/CUDA semantics; used per lane by the executor and by the folder.
pub trait Num: Copy + PartialOrd + Default + Send + Sync + 'static {
    /// The type's scalar tag.
    const TY: Scalar;
    /// `a + b` (wrapping for integers).
    fn add(a: Self, b: Self) -> Self;
    /// `a - b`
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b`
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b`, truncating for integers; `Err` on integer division by zero.
    fn div(a: Self, b: Self) -> Result<Self, DivByZero>;
    /// `a % b` (C `fmod` for floats); `Err` on integer remainder by zero.
    fn rem(a: Self, b: Self) -> Result<Self, DivByZero>;
    /// `-a`
    fn neg(a: Self) -> Self;
    /// Smaller of two (`fminf` for floats: a NaN operand loses).
    fn min(a: Self, b: Self) -> Self;
    /// Larger of two.
    fn max(a: Self, b: Self) -> Self;
    /// `|a|`
    fn abs(a: Self) -> Self;
    /// Conversion used by casts from signed sources.
    fn pick_signed(i: i64, u: u64, f: f64) -> Self;
    /// Conversion used by casts from unsigned sources.
    fn pick_unsigned(i: i64, u: u64, f: f64) -> Self;
    /// Conversion used by casts from floating sources (saturating, NaN → 0, like `cvt.rzi.sat`).
    fn pick_float(i: i64, u: u64, f: f64) -> Self;
    /// Into a constant.
    fn value(self) -> Value;
    /// From a constant of the same type.
    fn from_value(v: Value) -> Self;
    /// Widened, for casts.
    fn widen(self) -> (i64, u64, f64);
    /// Whether `0`.
    fn is_zero(self) -> bool;
}

/// Bit operations on integer register types.
pub trait Int: Num {
    /// `a & b`
    fn and(a: Self, b: Self) -> Self;
    /// `a | b`
    fn or(a: Self, b: Self) -> Self;
    /// `a ^ b`
    fn xor(a: Self, b: Self) -> Self;
    /// `~a`
    fn not(a: Self) -> Self;
    /// `a << b`; counts of the bit width or more give 0 (PTX `shl` clamps).
    fn shl(a: Self, b: Self) -> Self;
    /// `a >> b`; arithmetic for signed types; counts of the bit width or more clamp (PTX `shr`).
    fn shr(a: Self, b: Self) -> Self;
    /// `__mul24`: the product of the low 24 bits of each operand (sign-extended when signed).
    fn mul24(a: Self, b: Self) -> Self;
    /// `__mulhi`: the high half of the double-width product.
    fn mulhi(a: Self, b: Self) -> Self;
}

/// Math functions on floating register types.
pub trait Float: Num {
    /// Apply a one-argument math function.
    fn math1(f: crate::value::Math1, a: Self) -> Self;
    /// `powf`, `fminf`, `fmaxf`, `atan2f`, `fmodf`.
    fn math2(f: crate::value::Math2, a: Self, b: Self) -> Self;
    /// `fmaf(a, b, c)`
    fn fma(a: Self, b: Self, c: Self) -> Self;
}

/// One-argument math functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Math1 {
    /// `sqrtf`
    Sqrt,
    /// `rsqrtf`
    Rsqrt,
    /// `expf`
    Exp,
    /// `exp2f`
    Exp2,
    /// `logf`
    Log,
    /// `log2f`
    Log2,
    /// `log10f`
    Log10,
    /// `sinf`
    Sin,
    /// `cosf`
    Cos,
    /// `tanf`
    Tan,
    /// `tanhf`
    Tanh,
    /// `fabsf`
    Fabs,
    /// `floorf`
    Floor,
    /// `ceilf`
    Ceil,
    /// `roundf` (half away from zero)
    Round,
    /// `truncf`
    Trunc,
    /// `asinf`
    Asin,
    /// `acosf`
    Acos,
    /// `atanf`
    Atan,
    /// `sinhf`
    Sinh,
    /// `coshf`
    Cosh,
    /// `asinhf`
    Asinh,
    /// `acoshf`
    Acosh,
    /// `atanhf`
    Atanh,
    /// `exp10f`
    Exp10,
    /// `expm1f`
    Expm1,
    /// `log1pf`
    Log1p,
    /// `cbrtf`
    Cbrt,
    /// `erff`: the error function
    Erf,
    /// `erfcf`: 1 - erf, accurate where erf is near 1
    Erfc,
    /// `rintf` / `nearbyintf` (half to even)`
    Rint,
    /// `__saturatef` (clamped to [0, 1], NaN to 0)`
    Saturate,
    /// `logbf`: the unbiased exponent as a float (-inf for 0, +inf for inf)
    Logb,
    /// `ilogbf`: the unbiased exponent, as a float of the call's type that the checker converts
    /// to `int` (`INT_MIN` for 0 and NaN, `INT_MAX` for inf, as CUDA and glibc give)
    Ilogb,
    /// `frexpf`'s value: the mantissa in [0.5, 1) with the argument's sign (0, inf, NaN as given)
    FrexpMant,
    /// `frexpf`'s exponent (what it stores): `x = mantissa · 2^e`; 0 for 0, inf and NaN
    FrexpExp,
    /// `modff`'s value: the fractional part with the argument's sign (±0 for ±inf)
    ModfFrac,
    /// `normcdff`, `erfinvf`, `sinpif`, the Bessel functions…: computed in `double` by
    /// [`crate::special`]
    Special(crate::special::Special),
}

/// CUDA's bit-counting intrinsics on 32- or 64-bit integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// `__popc`: set bits.
    Popc,
    /// `__clz`: leading zero bits.
    Clz,
    /// `__ffs`: position of the lowest set bit, from 1; 0 for 0.
    Ffs,
    /// `__brev`: bits reversed.
    Brev,
    /// GCC's `__builtin_ctz`: trailing zero bits; all of them for 0, as the device computes it
    /// (`brev` then `clz`), where GCC leaves 0 undefined.
    Ctz,
    /// `__float_as_int`, `__int_as_float`, `__double_as_longlong`...: the same bits as another
    /// type of the same width.
    Same,
}

impl BitOp {
    /// The operation on a 64-bit pattern of `bits` significant bits.
    pub fn apply(self, x: u64, bits: u32) -> u64 {
        match self {
            BitOp::Popc => u64::from(x.count_ones()),
            BitOp::Clz => u64::from(x.leading_zeros() - (64 - bits)),
            BitOp::Ffs if x == 0 => 0,
            BitOp::Ffs => u64::from(x.trailing_zeros() + 1),
            BitOp::Brev => x.reverse_bits() >> (64 - bits),
            BitOp::Ctz => u64::from(x.trailing_zeros().min(bits)),
            BitOp::Same => x,
        }
    }
}

/// Integer intrinsics of three `unsigned` operands that the GPU runs as one instruction
/// (`PRMT`, `SHF`, `VABSDIFF`), defined as the CUDA Math API documents them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bits3 {
    /// `__byte_perm(x, y, s)`: byte `n` of the result is byte `s >> 4n & 7` of the eight
    /// bytes `y:x` (`x`'s low byte is byte 0).
    BytePerm,
    /// `__funnelshift_l(lo, hi, shift)`: the high word of `hi:lo << (shift & 31)`.
    FunnelL,
    /// `__funnelshift_lc`: the same with the shift clamped to 32.
    FunnelLc,
    /// `__funnelshift_r(lo, hi, shift)`: the low word of `hi:lo >> (shift & 31)`.
    FunnelR,
    /// `__funnelshift_rc`: the same with the shift clamped to 32.
    FunnelRc,
    /// `__sad(x, y, z)`: `|x − y| + z` for `int` `x`, `y` and `unsigned` `z`, modulo 2^32.
    Sad,
    /// `__usad(x, y, z)`: `|x − y| + z` for `unsigned` operands, modulo 2^32.
    Usad,
    /// `__fns(mask, base, offset)` (PTX `fns.b32`): the position of the `|offset|`-th set bit of
    /// `mask` counted from bit `base` (which counts), upwards for a positive `offset`,
    /// downwards for a negative one; `offset` 0 is `base` if its bit is set; `0xffffffff` when
    /// there is no such bit.
    Fns,
    /// `__dp4a(a, b, c)` of `int`s (PTX `dp4a.s32.s32`): the four products of the signed
    /// bytes of `a` and `b`, added to `c`, modulo 2^32.
    Dp4a,
    /// `__dp4a` of `unsigned`s (`dp4a.u32.u32`): the same with unsigned bytes.
    Dp4aU,
}

impl Bits3 {
    /// The intrinsic `name` calls, if it is one.
    pub fn of_name(name: &str) -> Option<Bits3> {
        Some(match name {
            "__byte_perm" => Bits3::BytePerm,
            "__funnelshift_l" => Bits3::FunnelL,
            "__funnelshift_lc" => Bits3::FunnelLc,
            "__funnelshift_r" => Bits3::FunnelR,
            "__funnelshift_rc" => Bits3::FunnelRc,
            "__sad" => Bits3::Sad,
            "__usad" => Bits3::Usad,
            "__fns" => Bits3::Fns,
            "__dp4a" => Bits3::Dp4a,
            _ => return None,
        })
    }

    /// The result for operands `a`, `b`, `c` (as their 32 bits).
    pub fn apply(self, a: u32, b: u32, c: u32) -> u32 {
        let pair = u64::from(b) << 32 | u64::from(a);
        match self {
            Bits3::BytePerm => (0..4).fold(0, |r, n| {
                let byte = (pair >> (8 * (c >> (4 * n) & 7))) as u8;
                r | u32::from(byte) << (8 * n)
            }),
            Bits3::FunnelL => ((pair << (c & 31)) >> 32) as u32,
            Bits3::FunnelLc => ((u128::from(pair) << c.min(32)) >> 32) as u32,
            Bits3::FunnelR => (pair >> (c & 31)) as u32,
            Bits3::FunnelRc => (pair >> c.min(32)) as u32,
            Bits3::Sad => (i64::from(a as i32) - i64::from(b as i32))
                .unsigned_abs()
                .wrapping_add(u64::from(c)) as u32,
            Bits3::Usad => a.abs_diff(b).wrapping_add(c),
            Bits3::Fns => fns(a, b, c as i32),
            Bits3::Dp4a => (0..4).fold(c, |acc, k| {
                let (x, y) = ((a >> (8 * k)) as i8, (b >> (8 * k)) as i8);
                acc.wrapping_add((i32::from(x) * i32::from(y)) as u32)
            }),
            Bits3::Dp4aU => (0..4).fold(c, |acc, k| {
                let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
                acc.wrapping_add(u32::from(x) * u32::from(y))
            }),
        }
    }
}

/// `__fns(mask, base, offset)` ([`Bits3::Fns`]).
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    let set = |pos: u32| pos < 32 && mask >> pos & 1 == 1;
    let mut n = offset.unsigned_abs();
    if n == 0 {
        return if set(base) { base } else { u32::MAX };
    }
    let up = base..32;
    let down = (0..=base.min(31)).rev();
    let order: Box<dyn Iterator<Item = u32>> = if offset > 0 {
        Box::new(up)
    } else {
        Box::new(down)
    };
    for pos in order {
        if set(pos) {
            n -= 1;
            if n == 0 {
                return pos;
            }
        }
    }
    u32::MAX
}

/// Two-argument math functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Math2 {
    /// `powf`
    Pow,
    /// `fminf`
    Fmin,
    /// `fmaxf`
    Fmax,
    /// `atan2f`
    Atan2,
    /// `fmodf`
    Fmod,
    /// `hypotf`
    Hypot,
    /// `rhypotf`: `1 / hypotf(a, b)`, without overflow where only `a² + b²` overflows
    Rhypot,
    /// `copysignf`
    Copysign,
    /// `fdimf`: `a - b` when positive, else 0
    Fdim,
    /// `remainderf`: `x - n·y`, `n` the nearest integer to `x/y` (ties to even)
    Remainder,
    /// `nextafterf`: the next representable value after `x` towards `y`
    Nextafter,
}

macro_rules! int_num {
    ($t:ty, $tag:ident, $bits:expr, $signed:expr, $wide:ty) => {
        impl Num for $t {
            const TY: Scalar = Scalar::$tag;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Result<Self, DivByZero> {
                if b == 0 {
                    Err(DivByZero)
                } else {
                    Ok(a.wrapping_div(b))
                }
            }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Result<Self, DivByZero> {
                if b == 0 {
                    Err(DivByZero)
                } else {
                    Ok(a.wrapping_rem(b))
                }
            }
            #[inline(always)]
            fn neg(a: Self) -> Self {
                (0 as $t).wrapping_sub(a)
            }
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self {
                Ord::min(a, b)
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                Ord::max(a, b)
            }
            #[inline(always)]
            fn abs(a: Self) -> Self {
                if $signed && a < (0 as $t) {
                    Self::neg(a)
                } else {
                    a
                }
            }
            #[inline(always)]
            fn pick_signed(i: i64, _u: u64, _f: f64) -> Self {
                i as $t
            }
            #[inline(always)]
            fn pick_unsigned(_i: i64, u: u64, _f: f64) -> Self {
                u as $t
            }
            #[inline(always)]
            fn pick_float(_i: i64, _u: u64, f: f64) -> Self {
                f as $t
            }
            fn value(self) -> Value {
                Value::$tag(self)
            }
            fn from_value(v: Value) -> Self {
                match v.cast(Scalar::$tag) {
                    Value::$tag(x) => x,
                    _ => unreachable!("cast to {} yields {}", Scalar::$tag, Scalar::$tag),
                }
            }
            #[inline(always)]
            fn widen(self) -> (i64, u64, f64) {
                (self as i64, self as u64, self as f64)
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
        }

        impl Int for $t {
            #[inline(always)]
            fn and(a: Self, b: Self) -> Self {
                a & b
            }
            #[inline(always)]
            fn or(a: Self, b: Self) -> Self {
                a | b
            }
            #[inline(always)]
            fn xor(a: Self, b: Self) -> Self {
                a ^ b
            }
            #[inline(always)]
            fn not(a: Self) -> Self {
                !a
            }
            #[inline(always)]
            fn shl(a: Self, b: Self) -> Self {
                let n = b as u64;
                if n >= $bits {
                    0
                } else {
                    a << n
                }
            }
            #[inline(always)]
            fn shr(a: Self, b: Self) -> Self {
                let n = (b as u64).min($bits - 1 + u64::from(!$signed));
                if n >= $bits {
                    0
                } else {
                    a >> n
                }
            }
            #[inline(always)]
            fn mul24(a: Self, b: Self) -> Self {
                // Shifting up then down keeps the low 24 bits, sign-extended for signed types.
                let low = |x: Self| (x << ($bits - 24)) >> ($bits - 24);
                low(a).wrapping_mul(low(b))
            }
            #[inline(always)]
            fn mulhi(a: Self, b: Self) -> Self {
                ((a as $wide * b as $wide) >> $bits) as Self
            }
        }
    };
}

int_num!(i32, I32, 32, true, i64);
int_num!(u32, U32, 32, false, u64);
int_num!(i64, I64, 64, true, i128);
int_num!(u64, U64, 64, false, u128);

macro_rules! float_num {
    ($t:ty, $tag:ident) => {
        impl Num for $t {
            const TY: Scalar = Scalar::$tag;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                a + b
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                a - b
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                a * b
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Result<Self, DivByZero> {
                Ok(a / b)
            }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Result<Self, DivByZero> {
                Ok(a % b)
            }
            #[inline(always)]
            fn neg(a: Self) -> Self {
                -a
            }
            /// `fminf` as PTX `min`: a NaN operand loses, and -0 is below +0 (`fminf(+0, -0)`
            /// is -0 in either order; C leaves that zero's sign unspecified).
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self {
                if a == b {
                    if a.is_sign_negative() {
                        a
                    } else {
                        b
                    }
                } else {
                    a.min(b)
                }
            }
            /// `fmaxf` as PTX `max`: `fmaxf(-0, +0)` is +0 in either order.
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                if a == b {
                    if a.is_sign_negative() {
                        b
                    } else {
                        a
                    }
                } else {
                    a.max(b)
                }
            }
            #[inline(always)]
            fn abs(a: Self) -> Self {
                a.abs()
            }
            #[inline(always)]
            fn pick_signed(i: i64, _u: u64, _f: f64) -> Self {
                i as $t
            }
            #[inline(always)]
            fn pick_unsigned(_i: i64, u: u64, _f: f64) -> Self {
                u as $t
            }
            #[inline(always)]
            fn pick_float(_i: i64, _u: u64, f: f64) -> Self {
                f as $t
            }
            fn value(self) -> Value {
                Value::$tag(self)
            }
            fn from_value(v: Value) -> Self {
                match v.cast(Scalar::$tag) {
                    Value::$tag(x) => x,
                    _ => unreachable!("cast to {} yields {}", Scalar::$tag, Scalar::$tag),
                }
            }
            #[inline(always)]
            fn widen(self) -> (i64, u64, f64) {
                (self as i64, self as u64, self as f64)
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0.0
            }
        }

        impl Float for $t {
            #[inline(always)]
            fn math1(f: Math1, a: Self) -> Self {
                match f {
                    Math1::Sqrt => a.sqrt(),
                    Math1::Rsqrt => 1.0 / a.sqrt(),
                    Math1::Exp => a.exp(),
                    Math1::Exp2 => a.exp2(),
                    Math1::Log => a.ln(),
                    Math1::Log2 => a.log2(),
                    Math1::Log10 => a.log10(),
                    Math1::Sin => a.sin(),
                    Math1::Cos => a.cos(),
                    Math1::Tan => a.tan(),
                    Math1::Tanh => a.tanh(),
                    Math1::Fabs => a.abs(),
                    Math1::Floor => a.floor(),
                    Math1::Ceil => a.ceil(),
                    Math1::Round => a.round(),
                    Math1::Trunc => a.trunc(),
                    Math1::Asin => a.asin(),
                    Math1::Acos => a.acos(),
                    Math1::Atan => a.atan(),
                    Math1::Sinh => a.sinh(),
                    Math1::Cosh => a.cosh(),
                    Math1::Asinh => a.asinh(),
                    Math1::Acosh => a.acosh(),
                    Math1::Atanh => a.atanh(),
                    Math1::Exp10 => 10f64.powf(a as f64) as Self,
                    Math1::Expm1 => a.exp_m1(),
                    Math1::Log1p => a.ln_1p(),
                    Math1::Cbrt => a.cbrt(),
                    // Rust's std has no erf: musl's (the `libm` crate), within 1 ulp in double;
                    // a float's is that value rounded once more.
                    Math1::Erf => libm::erf(a as f64) as Self,
                    Math1::Erfc => libm::erfc(a as f64) as Self,
                    Math1::Rint => a.round_ties_even(),
                    Math1::Saturate => {
                        if a > 0.0 {
                            a.min(1.0)
                        } else {
                            0.0
                        }
                    }
                    // Through `f64`, which holds every `f32` (subnormals included) exactly: the
                    // exponents and parts are exact in `Self` again.
                    Math1::Logb if a == 0.0 => Self::NEG_INFINITY,
                    Math1::Logb if a.is_infinite() => Self::INFINITY,
                    Math1::Logb if a.is_nan() => a,
                    Math1::Logb | Math1::Ilogb => libm::ilogb(a as f64) as Self,
                    Math1::FrexpMant => libm::frexp(a as f64).0 as Self,
                    Math1::FrexpExp => libm::frexp(a as f64).1 as Self,
                    Math1::ModfFrac => libm::modf(a as f64).0 as Self,
                    Math1::Special(g) => g.apply(a as f64) as Self,
                }
            }
            #[inline(always)]
            fn math2(f: Math2, a: Self, b: Self) -> Self {
                match f {
                    Math2::Pow => a.powf(b),
                    Math2::Fmin => <Self as Num>::min(a, b),
                    Math2::Fmax => <Self as Num>::max(a, b),
                    Math2::Atan2 => a.atan2(b),
                    Math2::Fmod => a % b,
                    Math2::Hypot => a.hypot(b),
                    Math2::Rhypot => {
                        // `hypot` scales, but its result itself may overflow (or be subnormal)
                        // where its reciprocal is a normal number: rescale by a power of two.
                        let h = a.hypot(b);
                        if h.is_infinite() && a.is_finite() && b.is_finite() {
                            0.25 / (a * 0.25).hypot(b * 0.25)
                        } else if h > 0.0 && h < Self::MIN_POSITIVE {
                            let s = (2.0 as Self).powi(Self::MANTISSA_DIGITS as i32);
                            s / (a * s).hypot(b * s)
                        } else {
                            1.0 / h
                        }
                    }
                    Math2::Copysign => a.copysign(b),
                    // Exact in `double` for floats too: the remainder is representable.
                    Math2::Remainder => libm::remainder(a as f64, b as f64) as Self,
                    Math2::Nextafter => {
                        if a.is_nan() || b.is_nan() {
                            a + b
                        } else if a == b {
                            b
                        } else if a == 0.0 {
                            Self::from_bits(1).copysign(b - a)
                        } else if (b > a) == (a > 0.0) {
                            Self::from_bits(a.to_bits() + 1)
                        } else {
                            Self::from_bits(a.to_bits() - 1)
                        }
                    }
                    Math2::Fdim => {
                        if a > b {
                            a - b
                        } else if a.is_nan() || b.is_nan() {
                            a + b
                        } else {
                            0.0
                        }
                    }
                }
            }
            #[inline(always)]
            fn fma(a: Self, b: Self, c: Self) -> Self {
                a.mul_add(b, c)
            }
        }
    };
}

float_num!(f32, F32);
float_num!(f64, F64);

/// `x` rounded to the nearest `half` (`to` = `F16`) or `__nv_bfloat16` (`BF16`), ties to even
/// (`__double2half`, `__float2bfloat16`: the `_rn` conversions), as the `float` that holds it in
/// a register. Beyond the largest finite value it is infinite, as IEEE 754 rounding gives; NaN
/// stays NaN. Rounding happens once, from `x` itself, so a `double` is not rounded twice.
pub fn round_half(x: f64, to: Scalar) -> f32 {
    // Bits of the significand after the leading one, and the smallest and largest normal
    // exponents (IEEE 754 binary16; bfloat16 is binary32's exponents with 7 bits).
    let (mant, emin, emax) = match to {
        Scalar::F16 => (10, -14, 15),
        Scalar::BF16 => (7, -126, 127),
        other => unreachable!("round_half: {other} is not a 16-bit float"),
    };
    // The largest finite value: all significand bits set at the largest exponent (65504 for
    // `half`).
    let max = (2.0 - 2f64.powi(-mant)) * 2f64.powi(emax);
    if !x.is_finite() || x == 0.0 {
        return x as f32;
    }
    // The unbiased exponent of `x` (a double too small to be normal rounds to zero anyway).
    let exp = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    // The value of the last significand bit at this exponent (subnormals share emin's).
    let quantum = 2f64.powi(exp.max(emin) - mant);
    let r = (x / quantum).round_ties_even() * quantum;
    if r.abs() > max {
        return if r > 0.0 {
            f32::INFINITY
        } else {
            f32::NEG_INFINITY
        };
    }
    r as f32
}

/// Casts one register value to another type with C semantics (the per-lane form of [`Value::cast`]).
#[inline(always)]
pub fn convert<S: Num, D: Num>(s: S) -> D {
    let (i, u, f) = s.widen();
    if S::TY.is_float() {
        D::pick_float(i, u, f)
    } else if S::TY.is_signed() {
        D::pick_signed(i, u, f)
    } else {
        D::pick_unsigned(i, u, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fns_finds_the_nth_set_bit_from_base() {
        // mask 0b1011_0100 has bits 2, 4, 5 and 7 set.
        let f = |base: u32, offset: i32| Bits3::Fns.apply(0b1011_0100, base, offset as u32);
        assert_eq!(f(0, 1), 2);
        assert_eq!(f(0, 3), 5);
        // The base bit counts, upwards and downwards.
        assert_eq!(f(5, 1), 5);
        assert_eq!(f(5, -2), 4);
        assert_eq!(f(7, -4), 2);
        // Offset 0: the base itself if set; no such bit: all ones.
        assert_eq!(f(4, 0), 4);
        assert_eq!(f(3, 0), u32::MAX);
        assert_eq!(f(0, 5), u32::MAX);
        assert_eq!(f(1, -1), u32::MAX);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(Scalar::common(Scalar::I32, Scalar::U32), Scalar::U32);
        assert_eq!(Scalar::common(Scalar::I64, Scalar::U32), Scalar::I64);
        assert_eq!(Scalar::common(Scalar::U64, Scalar::I64), Scalar::U64);
        assert_eq!(Scalar::common(Scalar::I16, Scalar::U8), Scalar::I32);
        assert_eq!(Scalar::common(Scalar::I32, Scalar::F32), Scalar::F32);
        assert_eq!(Scalar::common(Scalar::F32, Scalar::F64), Scalar::F64);
        assert_eq!(Scalar::common(Scalar::Bool, Scalar::Bool), Scalar::I32);
    }

    #[test]
    fn c_integer_semantics() {
        assert_eq!(i32::add(i32::MAX, 1), i32::MIN);
        assert_eq!(i32::div(-7, 2), Ok(-3));
        assert_eq!(i32::rem(-7, 2), Ok(-1));
        assert_eq!(i32::div(i32::MIN, -1), Ok(i32::MIN));
        assert_eq!(i32::div(1, 0), Err(DivByZero));
        assert_eq!(u32::shl(1, 32), 0);
        assert_eq!(i32::shr(-8, 40), -1);
        assert_eq!(u32::shr(0x8000_0000, 31), 1);
    }

    #[test]
    fn casts_follow_c() {
        assert_eq!(Value::I32(-1).cast(Scalar::U32), Value::U32(u32::MAX));
        assert_eq!(
            Value::U32(u32::MAX).cast(Scalar::I64),
            Value::I64(4_294_967_295)
        );
        assert_eq!(Value::F32(3.9).cast(Scalar::I32), Value::I32(3));
        assert_eq!(Value::F32(-3.9).cast(Scalar::I32), Value::I32(-3));
        assert_eq!(Value::F64(1e20).cast(Scalar::I32), Value::I32(i32::MAX));
        assert_eq!(Value::I32(300).cast(Scalar::U8), Value::I32(44));
        // Floats saturate to the narrow type's range, NaN to 0 (PTX `cvt.rzi.sat`).
        assert_eq!(Value::F32(1e10).cast(Scalar::I8), Value::I32(127));
        assert_eq!(Value::F32(-1e10).cast(Scalar::I8), Value::I32(-128));
        assert_eq!(Value::F64(70000.5).cast(Scalar::I16), Value::I32(32767));
        assert_eq!(Value::F32(-2.5).cast(Scalar::U16), Value::I32(0));
        assert_eq!(Value::F32(f32::NAN).cast(Scalar::U8), Value::I32(0));
        assert_eq!(Value::F32(-7.9).cast(Scalar::I8), Value::I32(-7));
        assert_eq!(Value::F32(0.5).cast(Scalar::Bool), Value::Bool(true));
        assert_eq!(convert::<i32, f32>(-2), -2.0f32);
        assert_eq!(convert::<u32, i64>(u32::MAX), 4_294_967_295);
        assert_eq!(convert::<f32, u32>(-1.0), 0);
    }

    #[test]
    fn fmin_and_fmax_order_negative_zero_below_positive_zero() {
        // PTX `min`/`max` (C leaves the zero's sign unspecified): either order.
        for (a, b) in [(0.0f32, -0.0f32), (-0.0, 0.0)] {
            assert!(<f32 as Num>::min(a, b).is_sign_negative());
            assert!(!<f32 as Num>::max(a, b).is_sign_negative());
            assert!(f32::math2(Math2::Fmin, a, b).is_sign_negative());
            assert!(!f32::math2(Math2::Fmax, a, b).is_sign_negative());
            let (a, b) = (f64::from(a), f64::from(b));
            assert!(<f64 as Num>::min(a, b).is_sign_negative());
            assert!(!<f64 as Num>::max(a, b).is_sign_negative());
        }
        assert_eq!(<f32 as Num>::min(f32::NAN, 2.0), 2.0);
        assert_eq!(<f32 as Num>::max(1.0, f32::NAN), 1.0);
        assert_eq!(
            fold_arith(ArithOp::Min, Value::F32(0.0), Value::F32(-0.0)).map(|v| v.to_string()),
            Ok("-0.0f".to_string())
        );
    }
}

/// Arithmetic and bitwise operators of the typed program and the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `min(a, b)` / `fminf`
    Min,
    /// `max(a, b)` / `fmaxf`
    Max,
    /// `__mul24(a, b)` / `__umul24`: the low 32 bits of the product of the low 24 bits of each
    /// (sign-extended for `int`).
    Mul24,
    /// `__mulhi(a, b)`, `__umulhi`, `__mul64hi`, `__umul64hi`: the high half of the full product.
    MulHi,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// Applies the comparison (IEEE semantics for floats: NaN compares unequal).
    #[inline(always)]
    pub fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// Folds an arithmetic operator on two constants of one register type (the checker's constant folder).
pub fn fold_arith(op: ArithOp, a: Value, b: Value) -> Result<Value, DivByZero> {
    fn num<T: Num>(op: ArithOp, a: T, b: T) -> Result<T, DivByZero> {
        Ok(match op {
            ArithOp::Add => T::add(a, b),
            ArithOp::Sub => T::sub(a, b),
            ArithOp::Mul => T::mul(a, b),
            ArithOp::Div => T::div(a, b)?,
            ArithOp::Rem => T::rem(a, b)?,
            ArithOp::Min => T::min(a, b),
            ArithOp::Max => T::max(a, b),
            _ => unreachable!("checker: bit operator on a float"),
        })
    }
    fn int<T: Int>(op: ArithOp, a: T, b: T) -> Result<T, DivByZero> {
        Ok(match op {
            ArithOp::Shl => T::shl(a, b),
            ArithOp::Shr => T::shr(a, b),
            ArithOp::And => T::and(a, b),
            ArithOp::Or => T::or(a, b),
            ArithOp::Xor => T::xor(a, b),
            ArithOp::Mul24 => T::mul24(a, b),
            ArithOp::MulHi => T::mulhi(a, b),
            _ => num(op, a, b)?,
        })
    }
    Ok(match (a, b) {
        (Value::I32(x), Value::I32(y)) => Value::I32(int(op, x, y)?),
        (Value::U32(x), Value::U32(y)) => Value::U32(int(op, x, y)?),
        (Value::I64(x), Value::I64(y)) => Value::I64(int(op, x, y)?),
        (Value::U64(x), Value::U64(y)) => Value::U64(int(op, x, y)?),
        (Value::F32(x), Value::F32(y)) => Value::F32(num(op, x, y)?),
        (Value::F64(x), Value::F64(y)) => Value::F64(num(op, x, y)?),
        _ => unreachable!("checker: operands of one type"),
    })
}

/// Folds a comparison of two constants of one register type.
pub fn fold_cmp(op: CmpOp, a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => op.apply(x, y),
        (Value::I32(x), Value::I32(y)) => op.apply(x, y),
        (Value::U32(x), Value::U32(y)) => op.apply(x, y),
        (Value::I64(x), Value::I64(y)) => op.apply(x, y),
        (Value::U64(x), Value::U64(y)) => op.apply(x, y),
        (Value::F32(x), Value::F32(y)) => op.apply(x, y),
        (Value::F64(x), Value::F64(y)) => op.apply(x, y),
        _ => unreachable!("checker: operands of one type"),
    }
}

/// The four warp shuffles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflKind {
    /// `__shfl_sync`: read lane `srcLane` of the segment.
    Idx,
    /// `__shfl_up_sync`: read lane `lane - delta`; lanes below `delta` keep their value.
    Up,
    /// `__shfl_down_sync`: read lane `lane + delta`; lanes past the segment keep their value.
    Down,
    /// `__shfl_xor_sync`: read lane `lane ^ laneMask`; lanes of a later segment keep their value.
    Xor,
}

impl ShflKind {
    /// The lane (within the warp) that `lane` reads, or `None` to keep its own value.
    /// `width` is a power of two from 1 to 32; `arg` is srcLane, delta or laneMask.
    pub fn source(self, lane: u32, arg: u32, width: u32) -> Option<u32> {
        let base = lane & !(width - 1);
        let pos = lane - base;
        match self {
            ShflKind::Idx => Some(base + arg % width),
            ShflKind::Up => (pos >= arg).then(|| lane - arg),
            ShflKind::Down => pos
                .checked_add(arg)
                .filter(|&p| p < width)
                .map(|_| lane + arg),
            ShflKind::Xor => {
                let src = lane ^ (arg & 31);
                (src < base + width).then_some(src)
            }
        }
    }
}

/// Warp votes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteKind {
    /// `__ballot_sync`: a bit per lane whose predicate holds.
    Ballot,
    /// `__any_sync`: 1 if any lane's predicate holds.
    Any,
    /// `__all_sync`: 1 if every lane's predicate holds.
    All,
}

/// Warp-wide matches and reductions (`__match_*_sync`, `__reduce_*_sync`): every lane of the mask
/// gets a value folded from the values of all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpFold {
    /// `__match_any_sync`: the bits of the mask's lanes whose value has the same bits as this one's.
    MatchAny,
    /// `__match_all_sync`: the mask if all its lanes' values have the same bits, else 0.
    MatchAll,
    /// `__reduce_add_sync`: the sum, wrapping at 2^32.
    Add,
    /// `__reduce_min_sync`: the least value (signed for `int`).
    Min,
    /// `__reduce_max_sync`: the greatest value (signed for `int`).
    Max,
    /// `__reduce_and_sync`: the bitwise and.
    And,
    /// `__reduce_or_sync`: the bitwise or.
    Or,
    /// `__reduce_xor_sync`: the bitwise exclusive or.
    Xor,
}

impl WarpFold {
    /// The fold a CUDA intrinsic's name calls, if it is one.
    pub fn of_name(name: &str) -> Option<WarpFold> {
        use WarpFold::*;
        [MatchAny, MatchAll, Add, Min, Max, And, Or, Xor]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// The CUDA intrinsic's name.
    pub fn name(self) -> &'static str {
        match self {
            WarpFold::MatchAny => "__match_any_sync",
            WarpFold::MatchAll => "__match_all_sync",
            WarpFold::Add => "__reduce_add_sync",
            WarpFold::Min => "__reduce_min_sync",
            WarpFold::Max => "__reduce_max_sync",
            WarpFold::And => "__reduce_and_sync",
            WarpFold::Or => "__reduce_or_sync",
            WarpFold::Xor => "__reduce_xor_sync",
        }
    }

    /// Whether this is a match (a lane mask of equal values) rather than a reduction.
    pub fn is_match(self) -> bool {
        matches!(self, WarpFold::MatchAny | WarpFold::MatchAll)
    }

    /// The result of lane `lane`, from the values `values` of the lanes whose bit `named` has
    /// (bits as stored: a 32-bit value zero-extended); `signed` orders `Min`/`Max` as `int`.
    pub fn fold(self, values: &[u64], named: u32, lane: usize, signed: bool) -> u32 {
        let taking = || {
            values
                .iter()
                .enumerate()
                .filter(move |&(l, _)| named >> l & 1 == 1)
                .map(|(_, &v)| v)
        };
        let key = |v: u64| {
            if signed {
                i64::from(v as u32 as i32)
            } else {
                v as i64
            }
        };
        match self {
            WarpFold::MatchAny => values
                .iter()
                .enumerate()
                .filter(|&(l, &v)| named >> l & 1 == 1 && v == values[lane])
                .fold(0u32, |b, (l, _)| b | 1 << l),
            WarpFold::MatchAll => {
                if taking().all(|v| v == values[lane]) {
                    named
                } else {
                    0
                }
            }
            WarpFold::Add => taking().fold(0u32, |a, v| a.wrapping_add(v as u32)),
            WarpFold::Min => taking().min_by_key(|&v| key(v)).unwrap_or(0) as u32,
            WarpFold::Max => taking().max_by_key(|&v| key(v)).unwrap_or(0) as u32,
            WarpFold::And => taking().fold(u32::MAX, |a, v| a & v as u32),
            WarpFold::Or => taking().fold(0, |a, v| a | v as u32),
            WarpFold::Xor => taking().fold(0, |a, v| a ^ v as u32),
        }
    }
}

/// Block-wide votes that are also barriers (`__syncthreads_count/_and/_or`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockVote {
    /// `__syncthreads_count`: how many of the block's threads have a true predicate.
    Count,
    /// `__syncthreads_and`: 1 if every thread's predicate holds.
    And,
    /// `__syncthreads_or`: 1 if any thread's predicate holds.
    Or,
}

impl BlockVote {
    /// The vote a `__syncthreads_*` name calls, if it is one.
    pub fn of_name(name: &str) -> Option<BlockVote> {
        [BlockVote::Count, BlockVote::And, BlockVote::Or]
            .into_iter()
            .find(|v| v.name() == name)
    }

    /// The CUDA function's name.
    pub fn name(self) -> &'static str {
        match self {
            BlockVote::Count => "__syncthreads_count",
            BlockVote::And => "__syncthreads_and",
            BlockVote::Or => "__syncthreads_or",
        }
    }

    /// The value every thread gets, from the predicates of the block's threads.
    pub fn fold(self, preds: impl Iterator<Item = bool>) -> i32 {
        let (mut count, mut all) = (0i32, true);
        for p in preds {
            count += i32::from(p);
            all &= p;
        }
        match self {
            BlockVote::Count => count,
            BlockVote::And => i32::from(all),
            BlockVote::Or => i32::from(count > 0),
        }
    }
}

/// Atomic read-modify-write operations; each returns the old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `old + v`
    Add,
    /// `old - v`
    Sub,
    /// `min(old, v)`
    Min,
    /// `max(old, v)`
    Max,
    /// `v`
    Exch,
    /// `old == compare ? v : old`
    Cas,
    /// `old & v`
    And,
    /// `old | v`
    Or,
    /// `old ^ v`
    Xor,
    /// `old >= v ? 0 : old + 1` (unsigned)
    Inc,
    /// `old == 0 || old > v ? v : old - 1` (unsigned)
    Dec,
}

/// Whether an atomic on memory of `stored` elements works through a pointer to `view`: the
/// memory's own type, another integer of its width, or the same 32 or 64 bits in a register of
/// the other kind (the `int*` or `unsigned*` of `float` memory that `atomicCAS` loops build float
/// atomics with, the `unsigned long long*` of `double`). A 16-bit float through its own type, or
/// by its bits through a 16-bit integer (`atomicCAS((unsigned short*)h, ...)`).
pub fn atomic_view(stored: Scalar, view: Scalar) -> bool {
    let plain = |s: Scalar| s != Scalar::Bool;
    let wide_or_bits = stored.size() >= 4 || view.is_integer();
    stored == view || (stored.size() == view.size() && wide_or_bits && plain(stored) && plain(view))
}

impl AtomicOp {
    /// The CUDA name.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "atomicAdd",
            AtomicOp::Sub => "atomicSub",
            AtomicOp::Min => "atomicMin",
            AtomicOp::Max => "atomicMax",
            AtomicOp::Exch => "atomicExch",
            AtomicOp::Cas => "atomicCAS",
            AtomicOp::And => "atomicAnd",
            AtomicOp::Or => "atomicOr",
            AtomicOp::Xor => "atomicXor",
            AtomicOp::Inc => "atomicInc",
            AtomicOp::Dec => "atomicDec",
        }
    }

    /// The element types CUDA provides this atomic for.
    pub fn types(self) -> &'static [Scalar] {
        use Scalar::*;
        match self {
            // `atomicAdd(__half*, __half)` (sm_70) and `(__nv_bfloat16*, …)` (sm_80): the sum is
            // rounded to the element's 16 bits as it is stored.
            AtomicOp::Add => &[I32, U32, U64, F32, F64, F16, BF16],
            AtomicOp::Sub => &[I32, U32],
            AtomicOp::Min | AtomicOp::Max => &[I32, U32, I64, U64],
            AtomicOp::Exch => &[I32, U32, U64, F32],
            // `unsigned short atomicCAS(unsigned short*, ...)` (sm_70).
            AtomicOp::Cas => &[I32, U32, U64, U16],
            AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => &[I32, U32, U64],
            AtomicOp::Inc | AtomicOp::Dec => &[U32],
        }
    }

    /// The value stored, given the old value, the operand `v` and (for CAS) the compare value.
    #[inline]
    pub fn apply(self, old: Value, v: Value, compare: Value) -> Value {
        let same = |x: Value| x.cast(old.ty());
        let (v, compare) = (same(v), same(compare));
        let arith = |op| fold_arith(op, old, v).unwrap_or(old);
        match self {
            AtomicOp::Add => arith(ArithOp::Add),
            AtomicOp::Sub => arith(ArithOp::Sub),
            AtomicOp::Min => arith(ArithOp::Min),
            AtomicOp::Max => arith(ArithOp::Max),
            AtomicOp::And => arith(ArithOp::And),
            AtomicOp::Or => arith(ArithOp::Or),
            AtomicOp::Xor => arith(ArithOp::Xor),
            AtomicOp::Exch => v,
            AtomicOp::Cas => {
                if fold_cmp(CmpOp::Eq, old, compare) {
                    v
                } else {
                    old
                }
            }
            AtomicOp::Inc => match (old, v) {
                (Value::U32(o), Value::U32(m)) => Value::U32(if o >= m { 0 } else { o + 1 }),
                _ => old,
            },
            AtomicOp::Dec => match (old, v) {
                (Value::U32(o), Value::U32(m)) => {
                    Value::U32(if o == 0 || o > m { m } else { o - 1 })
                }
                _ => old,
            },
        }
    }
}

#[cfg(test)]
mod warp_tests {
    use super::*;

    #[test]
    fn shuffle_sources_follow_cuda() {
        // Down by 16 within 32: lanes 0..15 read 16..31; lanes 16.. keep their own value.
        assert_eq!(ShflKind::Down.source(3, 16, 32), Some(19));
        assert_eq!(ShflKind::Down.source(16, 16, 32), None);
        // Width 8: lane 13 is position 5 of segment 8..15; down 2 → 15; down 3 → keeps.
        assert_eq!(ShflKind::Down.source(13, 2, 8), Some(15));
        assert_eq!(ShflKind::Down.source(13, 3, 8), None);
        assert_eq!(ShflKind::Up.source(1, 2, 32), None);
        assert_eq!(ShflKind::Up.source(9, 2, 8), None);
        assert_eq!(ShflKind::Up.source(10, 2, 8), Some(8));
        // Broadcast lane 0 of each 16-lane segment; srcLane is taken modulo width.
        assert_eq!(ShflKind::Idx.source(20, 0, 16), Some(16));
        assert_eq!(ShflKind::Idx.source(20, 17, 16), Some(17));
        assert_eq!(ShflKind::Xor.source(5, 1, 32), Some(4));
        // Xor into a later segment keeps the own value.
        assert_eq!(ShflKind::Xor.source(5, 8, 8), None);
        assert_eq!(ShflKind::Xor.source(13, 8, 8), Some(5));
    }

    #[test]
    fn atomics_compute_the_new_value() {
        let u = Value::U32;
        assert_eq!(
            AtomicOp::Add.apply(Value::I32(5), Value::I32(-7), Value::I32(0)),
            Value::I32(-2)
        );
        assert_eq!(AtomicOp::Inc.apply(u(3), u(3), u(0)), u(0));
        assert_eq!(AtomicOp::Inc.apply(u(2), u(3), u(0)), u(3));
        assert_eq!(AtomicOp::Dec.apply(u(0), u(9), u(0)), u(9));
        assert_eq!(AtomicOp::Dec.apply(u(10), u(9), u(0)), u(9));
        assert_eq!(AtomicOp::Dec.apply(u(5), u(9), u(0)), u(4));
        assert_eq!(AtomicOp::Cas.apply(u(5), u(1), u(5)), u(1));
        assert_eq!(AtomicOp::Cas.apply(u(5), u(1), u(4)), u(5));
        assert_eq!(
            AtomicOp::Max.apply(Value::F32(1.0), Value::F32(2.0), Value::F32(0.0)),
            Value::F32(2.0)
        );
    }
}
