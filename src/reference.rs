//! The reference interpreter: a slow, obviously correct oracle for the fast engine (tests only).
//!
//! It walks the checked program ([`crate::check::typed`]) one thread at a time: each thread runs
//! until it reaches a `__syncthreads()`, returns or finishes, then the next thread runs; when every
//! thread has stopped, those at the barrier continue. A thread is an explicit stack of frames over
//! the program (a statement list and how far it got, or a loop and its stage), so a barrier inside
//! loops and `if`s is simply where the thread's walk pauses.
//!
//! It shares no execution code with [`crate::exec`]'s engine: values, C arithmetic, conversions,
//! memory access and control flow are written here again, plainly. Integers are computed exactly
//! in `i128` and wrapped to their width afterwards; floating point uses Rust's `f32`/`f64`
//! operations, which are IEEE's.
//!
//! C semantics where C leaves things open, as the simulator defines them (DESIGN.md §1):
//! integer overflow wraps; `/` and `%` truncate toward zero; a shift by the type's width or more
//! (or by a negative count) gives 0, or the sign for `>>` of a negative signed value; float to
//! integer saturates to the destination type's range (`char` and `short` too, as PTX
//! `cvt.rzi.sat`) and NaN gives 0; `fminf`/`fmaxf` order -0 below +0; integer division by zero
//! traps.
//!
//! Local arrays are each thread's own storage, zeroed when the thread starts. An access of one
//! the checker placed in registers costs no instruction and is not counted as memory traffic; one
//! in local memory costs an instruction and counts as a local load or store.
//!
//! Warp-synchronous operations (shuffles, votes, `__activemask()`, `__syncwarp()`, WMMA's
//! `load_matrix_sync`, `store_matrix_sync` and `mma_sync`) need the
//! lanes of a warp to meet mid-expression, which one thread at a time cannot express: a kernel
//! using them stops with [`RefError::Unsupported`]. `__device__` functions run inline; called as
//! a statement their body may hold barriers, called inside an expression it may not.
//!
//! A program whose result depends on how threads interleave has no single right answer, and one
//! thread at a time would give just one of them: the interpreter notes which thread touched each
//! element, and when two threads touch one element between two barriers of a block (or in two
//! blocks), and one of them writes it, it stops with [`RefError::Interleaving`]. This covers data
//! races between warps and also exchanges within a warp that rely on lock-step execution
//! (`volatile` tricks without `__syncwarp()`), which the engine runs as a real warp would.
//! Two atomics never conflict; an atomic and a plain access of another thread do.
//!
//! It also keeps its own initcheck: shared arrays start each block unwritten, local arrays each
//! thread, and a launch array made by `empty(n)` the launch; a read or atomic of an element not
//! written before is noted in [`Tally::uninit`] with the array and the source span of the read
//! (values read are the zeros every array starts with).
//!
//! Synchronisation is checked the way compute-sanitizer's synccheck sees it: at each barrier,
//! every thread that has not returned must wait at the same barrier in the same iteration of the
//! same enclosing loops. (The lock-step engine agrees wherever no thread returns in a branch that
//! runs after the barrier's branch; the property tests keep to that.)
//!
//! Besides the buffers it counts, per launch, what each thread did in the cost model of
//! DESIGN.md §3, so that the engine's warp-level counters can be checked against exact sums:
//! `active_lane_slots` is the sum over threads of the instructions each executed.

use crate::check::typed::{
    Builtin, Expr, ExprKind, Func, Kernel, Mem, ParamKind, Space, Stmt, StmtKind, VarId,
    CHOICE_SHIFT, NULL_OFFSET,
};
use crate::exec::{Args, BufData, Buffer, Counters, LaunchConfig, Pointer};
use crate::value::{ArithOp, AtomicOp, BlockVote, CmpOp, Math1, Math2, Scalar, Value};

/// What a run of the reference interpreter counted, summed over all threads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Instructions the threads executed, each counted once per thread (cost model of DESIGN.md §3):
    /// equals the engine's `active_lane_slots`.
    pub thread_instr: u64,
    /// Global loads by threads.
    pub global_loads: u64,
    /// Global stores by threads.
    pub global_stores: u64,
    /// Bytes of global loads, stores and atomics: the engine's `g_bytes_requested`.
    pub global_bytes: u64,
    /// Shared-memory loads by threads.
    pub shared_loads: u64,
    /// Shared-memory stores and atomics by threads.
    pub shared_stores: u64,
    /// Loads from `__constant__` arrays by threads (through the constant cache: not global
    /// loads, and not in `global_bytes`).
    pub constant_loads: u64,
    /// Loads from local arrays in local memory by threads (arrays kept in registers move
    /// nothing and are not counted).
    pub local_loads: u64,
    /// Stores to local arrays in local memory by threads.
    pub local_stores: u64,
    /// Global atomics by threads.
    pub global_atomics: u64,
    /// Branch conditions (`if`, loop tests) evaluated by threads.
    pub branch_evals: u64,
    /// Barriers passed, once per block: the engine's `barriers`.
    pub barriers: u64,
    /// Reads of elements no thread had written (see the module documentation): the array and
    /// the span of the read.
    pub uninit: std::collections::BTreeSet<(String, crate::source::Span)>,
}

/// Why a reference run stopped, with the engine's diagnostic code for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefError {
    /// An access through a parameter bound to `NULL`, or through a null pointer.
    NullPointer {
        /// The parameter or array.
        name: String,
    },
    /// An access through a struct parameter's pointer member the launch did not set.
    UnsetPointer {
        /// The member.
        name: String,
    },
    /// An index outside its buffer or shared array.
    OutOfBounds {
        /// The parameter or shared array.
        name: String,
        /// The index.
        index: i128,
        /// Elements it has.
        len: usize,
        /// Block and thread.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// Integer `/` or `%` by zero.
    DivisionByZero {
        /// Block.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// Live threads of a block not all at one barrier.
    DivergentBarrier {
        /// Block.
        block: [u32; 3],
    },
    /// More work than `max_steps` warp steps could hold.
    StepLimit,
    /// A CUB block collective specialised for another block shape than the launch's.
    BlockShape,
    /// One array kept as two element types by its parameters (`simt::run::mixed_views`).
    MixedViews,
    /// A thread's `memcpy` between overlapping bytes.
    OverlappingCopy {
        /// Block.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A thread reached `__trap()`.
    Trap {
        /// Block.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A thread reached a place the checker marked unreachable (see
    /// [`crate::check::typed::Fault`]).
    Fault {
        /// The engine's code for it.
        code: &'static str,
    },
    /// An `assert` false for a thread.
    Assertion {
        /// Block.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A construct one thread at a time cannot run (see the module documentation).
    Unsupported {
        /// What it is.
        what: &'static str,
    },
    /// Two threads touch one element with no barrier between them, and one writes it: the result
    /// depends on the order they run in.
    Interleaving {
        /// The parameter or shared array.
        name: String,
        /// The element.
        index: usize,
    },
}

impl RefError {
    /// The engine's diagnostic code for the same failure.
    pub fn code(&self) -> &'static str {
        match self {
            RefError::NullPointer { .. } => "simt::run::null_pointer",
            RefError::UnsetPointer { .. } => "simt::run::unset_pointer",
            RefError::OutOfBounds { .. } => "simt::run::out_of_bounds",
            RefError::DivisionByZero { .. } => "simt::run::division_by_zero",
            RefError::DivergentBarrier { .. } => "simt::run::divergent_barrier",
            RefError::StepLimit => "simt::run::step_limit",
            RefError::Assertion { .. } => "simt::run::assertion",
            RefError::Trap { .. } => "simt::run::trap",
            RefError::Fault { code } => code,
            RefError::OverlappingCopy { .. } => "simt::run::overlapping_copy",
            RefError::BlockShape => "simt::run::block_shape",
            RefError::MixedViews => "simt::run::mixed_views",
            RefError::Unsupported { .. } => "simt::reference::unsupported",
            RefError::Interleaving { .. } => "simt::reference::interleaving",
        }
    }
}

/// A value in a register: one of the promoted types.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    B(bool),
    I(i32),
    U(u32),
    L(i64),
    UL(u64),
    F(f32),
    D(f64),
}

impl V {
    fn of(v: Value) -> V {
        match v {
            Value::Bool(x) => V::B(x),
            Value::I32(x) => V::I(x),
            Value::U32(x) => V::U(x),
            Value::I64(x) => V::L(x),
            Value::U64(x) => V::UL(x),
            Value::F32(x) => V::F(x),
            Value::F64(x) => V::D(x),
        }
    }

    /// The exact integer (bools are 0 or 1); `None` for floats.
    fn int(self) -> Option<i128> {
        match self {
            V::B(x) => Some(i128::from(x)),
            V::I(x) => Some(i128::from(x)),
            V::U(x) => Some(i128::from(x)),
            V::L(x) => Some(i128::from(x)),
            V::UL(x) => Some(i128::from(x)),
            V::F(_) | V::D(_) => None,
        }
    }

    fn float(self) -> f64 {
        match self {
            V::F(x) => f64::from(x),
            V::D(x) => x,
            other => other.int().expect("an integer") as f64,
        }
    }

    fn truth(self) -> bool {
        match self {
            V::B(x) => x,
            V::F(x) => x != 0.0,
            V::D(x) => x != 0.0,
            other => other.int() != Some(0),
        }
    }
}

/// XORWOW's state words after `n` steps (`2^67·n` when `sequence`), bit by bit: the 160×160
/// matrix of one step over GF(2), squared 131 times once per process, each power applied as
/// the xor of the rows its set bits select.
fn xorwow_skip(v: [u32; 5], n: u64, sequence: bool) -> [u32; 5] {
    type Map = Vec<[u32; 5]>;
    fn apply(m: &Map, v: [u32; 5]) -> [u32; 5] {
        let mut r = [0u32; 5];
        for bit in 0..160 {
            if v[bit / 32] >> (bit % 32) & 1 == 1 {
                for w in 0..5 {
                    r[w] ^= m[bit][w];
                }
            }
        }
        r
    }
    static POWERS: std::sync::OnceLock<Vec<Map>> = std::sync::OnceLock::new();
    let powers = POWERS.get_or_init(|| {
        let one: Map = (0..160)
            .map(|bit| {
                let mut x = [0u32; 5];
                x[bit / 32] = 1 << (bit % 32);
                let t = x[0] ^ (x[0] >> 2);
                [
                    x[1],
                    x[2],
                    x[3],
                    x[4],
                    (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1)),
                ]
            })
            .collect();
        let mut all = vec![one];
        for _ in 1..131 {
            let last = all.last().expect("one power");
            let next = last.iter().map(|&row| apply(last, row)).collect();
            all.push(next);
        }
        all
    });
    let base = if sequence { 67 } else { 0 };
    (0..64)
        .filter(|k| n >> k & 1 == 1)
        .fold(v, |v, k| apply(&powers[base + k], v))
}

/// An exact integer wrapped to `ty` (two's complement), promoted back to a register type.
fn wrap(ty: Scalar, x: i128) -> V {
    match ty {
        Scalar::Bool => V::B(x != 0),
        Scalar::I8 => V::I(i32::from(x as i8)),
        Scalar::U8 => V::I(i32::from(x as u8)),
        Scalar::I16 => V::I(i32::from(x as i16)),
        Scalar::U16 => V::I(i32::from(x as u16)),
        Scalar::I32 => V::I(x as i32),
        Scalar::U32 => V::U(x as u32),
        Scalar::I64 => V::L(x as i64),
        Scalar::U64 => V::UL(x as u64),
        Scalar::F32 => V::F(x as f32),
        Scalar::F64 => V::D(x as f64),
        Scalar::F16 | Scalar::BF16 => V::F(half_value(to_half(ty, x as f64))),
    }
}

/// `x` as the 16-bit float `ty` (the `half` crate's rounding, not the engine's).
fn to_half(ty: Scalar, x: f64) -> (Scalar, u16) {
    let bits = match ty {
        Scalar::F16 => half::f16::from_f64(x).to_bits(),
        _ => half::bf16::from_f64(x).to_bits(),
    };
    (ty, bits)
}

/// The value of a 16-bit float's bits, as its register `float`.
fn half_value((ty, bits): (Scalar, u16)) -> f32 {
    match ty {
        Scalar::F16 => half::f16::from_bits(bits).to_f32(),
        _ => half::bf16::from_bits(bits).to_f32(),
    }
}

/// C's `(to)v`.
fn cast(v: V, to: Scalar) -> V {
    if to == Scalar::Bool {
        return V::B(v.truth());
    }
    match (v.int(), to) {
        (Some(x), _) => wrap(to, x),
        (None, Scalar::F32) => V::F(v.float() as f32),
        (None, Scalar::F64) => V::D(v.float()),
        (None, Scalar::F16 | Scalar::BF16) => V::F(half_value(to_half(to, v.float()))),
        // Float to integer: saturating to the destination's own range, narrow types included
        // (PTX `cvt.rzi.sat`), NaN to 0 (Rust's `as`).
        (None, Scalar::I32) => V::I(v.float() as i32),
        (None, Scalar::I8) => V::I(i32::from(v.float() as i8)),
        (None, Scalar::U8) => V::I(i32::from(v.float() as u8)),
        (None, Scalar::I16) => V::I(i32::from(v.float() as i16)),
        (None, Scalar::U16) => V::I(i32::from(v.float() as u16)),
        (None, Scalar::U32) => V::U(v.float() as u32),
        (None, Scalar::I64) => V::L(v.float() as i64),
        (None, Scalar::U64) => V::UL(v.float() as u64),
        (None, Scalar::Bool) => unreachable!("handled above"),
    }
}

fn bits(ty: Scalar) -> u32 {
    ty.size() * 8
}

/// `a op b` on two values of type `ty`; `None` on integer division by zero.
fn arith(op: ArithOp, ty: Scalar, a: V, b: V) -> Option<V> {
    if let (V::F(x), V::F(y)) = (a, b) {
        return Some(V::F(float_op(op, x, y)));
    }
    if let (V::D(x), V::D(y)) = (a, b) {
        return Some(V::D(float_op(op, x, y)));
    }
    let (x, y) = (a.int()?, b.int()?);
    let r = match op {
        ArithOp::Add => x + y,
        ArithOp::Sub => x - y,
        // The low bits of a product are those of the exact product, which may not fit i128.
        ArithOp::Mul => x.wrapping_mul(y),
        ArithOp::Div if y == 0 => return None,
        ArithOp::Rem if y == 0 => return None,
        ArithOp::Div => x / y,
        ArithOp::Rem => x % y,
        ArithOp::And => x & y,
        ArithOp::Or => x | y,
        ArithOp::Xor => x ^ y,
        ArithOp::Mul24 => {
            // The low 24 bits of each, sign-extended for signed types.
            let low = |v: i128| {
                let l = v & 0xff_ffff;
                if ty.is_signed() && l & 0x80_0000 != 0 {
                    l - 0x100_0000
                } else {
                    l
                }
            };
            low(x) * low(y)
        }
        ArithOp::MulHi => {
            let w = bits(ty);
            if ty.is_signed() || w < 64 {
                (x * y) >> w
            } else {
                ((x as u128 * y as u128) >> w) as i128
            }
        }
        ArithOp::Min => x.min(y),
        ArithOp::Max => x.max(y),
        ArithOp::Shl | ArithOp::Shr => {
            // The count as an unsigned number of the operand's width: negative counts are huge.
            let count = y & ((1i128 << bits(ty)) - 1);
            if count >= i128::from(bits(ty)) {
                if op == ArithOp::Shr && x < 0 {
                    -1
                } else {
                    0
                }
            } else if op == ArithOp::Shl {
                x << count
            } else {
                x >> count
            }
        }
    };
    Some(wrap(ty, r))
}

/// The floating operators (`%` is C's `fmod`; `min`/`max` are `fminf`/`fmaxf`).
fn float_op<T: FloatOps>(op: ArithOp, x: T, y: T) -> T {
    match op {
        ArithOp::Add => x + y,
        ArithOp::Sub => x - y,
        ArithOp::Mul => x * y,
        ArithOp::Div => x / y,
        ArithOp::Rem => x % y,
        ArithOp::Min => x.fmin(y),
        ArithOp::Max => x.fmax(y),
        other => unreachable!("checker: {other:?} on floats"),
    }
}

/// The few float operations both widths share, to write each rule once.
trait FloatOps:
    Copy
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
{
    fn fmin(self, o: Self) -> Self;
    fn fmax(self, o: Self) -> Self;
}

// PTX `min`/`max`: a NaN operand loses, and -0 is below +0 in either order (C leaves the sign of
// `fminf(+0, -0)` unspecified).
macro_rules! float_ops {
    ($t:ty) => {
        impl FloatOps for $t {
            fn fmin(self, o: $t) -> $t {
                match (self == 0.0 && o == 0.0, self.is_sign_negative()) {
                    (true, true) => self,
                    (true, false) => o,
                    _ => self.min(o),
                }
            }
            fn fmax(self, o: $t) -> $t {
                match (self == 0.0 && o == 0.0, self.is_sign_negative()) {
                    (true, true) => o,
                    (true, false) => self,
                    _ => self.max(o),
                }
            }
        }
    };
}
float_ops!(f32);
float_ops!(f64);

fn compare_values(op: CmpOp, a: V, b: V) -> bool {
    let ord = match (a, b) {
        (V::F(x), V::F(y)) => x.partial_cmp(&y),
        (V::D(x), V::D(y)) => x.partial_cmp(&y),
        _ => a.int().partial_cmp(&b.int()),
    };
    use std::cmp::Ordering::*;
    match (op, ord) {
        (_, None) => op == CmpOp::Ne,
        (CmpOp::Lt, Some(o)) => o == Less,
        (CmpOp::Le, Some(o)) => o != Greater,
        (CmpOp::Gt, Some(o)) => o == Greater,
        (CmpOp::Ge, Some(o)) => o != Less,
        (CmpOp::Eq, Some(o)) => o == Equal,
        (CmpOp::Ne, Some(o)) => o != Equal,
    }
}

/// `logb`, `ilogb` and `frexp`'s two parts of `x`, from its bits as C defines them (the engine
/// asks musl's `ilogb` and `frexp`).
fn exponent_parts(f: Math1, x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return match f {
            Math1::Logb if x == 0.0 => f64::NEG_INFINITY,
            Math1::Logb => x.abs(),
            Math1::Ilogb if x.is_infinite() => f64::from(i32::MAX),
            Math1::Ilogb => f64::from(i32::MIN),
            Math1::FrexpMant => x,
            _ => 0.0,
        };
    }
    // A subnormal is scaled by 2^64 into the normal range, its exponent read, then corrected.
    let (scaled, shift) = if x.abs() < f64::MIN_POSITIVE {
        (x * 18_446_744_073_709_551_616.0, 64)
    } else {
        (x, 0)
    };
    let bits = scaled.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023 - shift;
    match f {
        Math1::Logb | Math1::Ilogb => e as f64,
        // The same sign and fraction bits under the exponent of [0.5, 1).
        Math1::FrexpMant => f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)),
        _ => (e + 1) as f64,
    }
}

fn math1(f: Math1, v: V) -> V {
    macro_rules! apply {
        ($x:expr) => {{
            let x = $x;
            match f {
                Math1::Sqrt => x.sqrt(),
                Math1::Rsqrt => 1.0 / x.sqrt(),
                Math1::Exp => x.exp(),
                Math1::Exp2 => x.exp2(),
                Math1::Log => x.ln(),
                Math1::Log2 => x.log2(),
                Math1::Log10 => x.log10(),
                Math1::Sin => x.sin(),
                Math1::Cos => x.cos(),
                Math1::Tan => x.tan(),
                Math1::Tanh => x.tanh(),
                Math1::Fabs => x.abs(),
                Math1::Floor => x.floor(),
                Math1::Ceil => x.ceil(),
                Math1::Round => x.round(),
                Math1::Trunc => x.trunc(),
                Math1::Asin => x.asin(),
                Math1::Acos => x.acos(),
                Math1::Atan => x.atan(),
                Math1::Sinh => x.sinh(),
                Math1::Cosh => x.cosh(),
                Math1::Asinh => x.asinh(),
                Math1::Acosh => x.acosh(),
                Math1::Atanh => x.atanh(),
                Math1::Exp10 => 10f64.powf(x as f64) as _,
                Math1::Expm1 => x.exp_m1(),
                Math1::Log1p => x.ln_1p(),
                Math1::Cbrt => x.cbrt(),
                Math1::Erf => libm::erf(x as f64) as _,
                Math1::Erfc => libm::erfc(x as f64) as _,
                Math1::Rint => x.round_ties_even(),
                Math1::Saturate => {
                    if x > 0.0 {
                        x.min(1.0)
                    } else {
                        0.0
                    }
                }
                Math1::Logb | Math1::Ilogb | Math1::FrexpMant | Math1::FrexpExp => {
                    exponent_parts(f, x as f64) as _
                }
                // C's modf: the part after the point, signed as `x`; inf has none.
                Math1::ModfFrac if x.is_infinite() => 0f64.copysign(x as f64) as _,
                Math1::ModfFrac => (x - x.trunc()).copysign(x),
                Math1::Special(g) => g.apply(x as f64) as _,
            }
        }};
    }
    match v {
        V::F(x) => V::F(apply!(x)),
        V::D(x) => V::D(apply!(x)),
        other => unreachable!("checker: math on {other:?}"),
    }
}

/// A two-argument math function on two floats of one type (`f32` or `f64`).
macro_rules! math2_on {
    ($f:expr, $x:expr, $y:expr) => {{
        let (x, y) = ($x, $y);
        match $f {
            Math2::Pow => x.powf(y),
            Math2::Fmin => x.fmin(y),
            Math2::Fmax => x.fmax(y),
            Math2::Atan2 => x.atan2(y),
            Math2::Fmod => x % y,
            Math2::Hypot => x.hypot(y),
            // 1/√(x² + y²) with both divided by the larger magnitude m first, so no square
            // overflows: 1/√(u² + v²) / m.
            Math2::Rhypot if x.is_infinite() || y.is_infinite() => 0.0,
            Math2::Rhypot => {
                let m = x.abs().max(y.abs());
                let (u, v) = (x / m, y / m);
                if m == 0.0 {
                    1.0 / m
                } else {
                    (1.0 / (u * u + v * v).sqrt()) / m
                }
            }
            Math2::Copysign => x.copysign(y),
            // C's fdim: x - y when x > y, NaN when either is NaN, otherwise +0.
            Math2::Fdim if x > y => x - y,
            Math2::Fdim if x.is_nan() || y.is_nan() => x + y,
            Math2::Fdim => 0.0,
            // The engine's own: both are exact (no rounding to differ in).
            Math2::Remainder | Math2::Nextafter => crate::value::Float::math2($f, x, y),
        }
    }};
}

fn math2(f: Math2, a: V, b: V) -> V {
    match (a, b) {
        (V::F(x), V::F(y)) => V::F(math2_on!(f, x, y)),
        (V::D(x), V::D(y)) => V::D(math2_on!(f, x, y)),
        other => unreachable!("checker: math on {other:?}"),
    }
}

/// `|v|`; the most negative integer stays itself, as two's complement has no positive twin.
fn abs(ty: Scalar, v: V) -> V {
    match v {
        V::F(x) => V::F(x.abs()),
        V::D(x) => V::D(x.abs()),
        other => wrap(ty, other.int().expect("an integer").abs()),
    }
}

/// Element `i` of a buffer, as its register value.
fn read(data: &BufData, i: usize) -> V {
    match data {
        BufData::Bool(v) => V::B(v[i]),
        BufData::I8(v) => V::I(i32::from(v[i])),
        BufData::U8(v) => V::I(i32::from(v[i])),
        BufData::I16(v) => V::I(i32::from(v[i])),
        BufData::U16(v) => V::I(i32::from(v[i])),
        BufData::I32(v) => V::I(v[i]),
        BufData::U32(v) => V::U(v[i]),
        BufData::I64(v) => V::L(v[i]),
        BufData::U64(v) => V::UL(v[i]),
        BufData::F32(v) => V::F(v[i]),
        BufData::F64(v) => V::D(v[i]),
        BufData::F16(v) => V::F(v[i].to_f32()),
        BufData::BF16(v) => V::F(v[i].to_f32()),
    }
}

/// The element `v` of type `from` read as the same-size type `to`, through its bits.
fn view(v: V, from: Scalar, to: Scalar) -> V {
    if from == to {
        return v;
    }
    let bits = match v {
        V::F(f) if from.is_half() => u64::from(to_half(from, f64::from(f)).1),
        V::F(f) => u64::from(f.to_bits()),
        V::D(f) => f.to_bits(),
        x => x.int().expect("checker: an integer element") as u64,
    } & (u64::MAX >> (64 - 8 * from.size()));
    match to {
        Scalar::F16 | Scalar::BF16 => V::F(half_value((to, bits as u16))),
        Scalar::F32 => V::F(f32::from_bits(bits as u32)),
        Scalar::F64 => V::D(f64::from_bits(bits)),
        _ => wrap(to, i128::from(bits)),
    }
}

/// The unsigned integer type of `size` bytes: the bits a wider view packs or unpacks.
fn bits_type(size: u32) -> Scalar {
    match size {
        1 => Scalar::U8,
        2 => Scalar::U16,
        4 => Scalar::U32,
        _ => Scalar::U64,
    }
}

/// Stores `x` (already of the element's promoted type) into element `i`, narrowing it.
fn write(data: &mut BufData, i: usize, x: V) {
    let n = || {
        x.int()
            .expect("checker: an integer value for an integer element")
    };
    match data {
        BufData::Bool(v) => v[i] = x.truth(),
        BufData::I8(v) => v[i] = n() as i8,
        BufData::U8(v) => v[i] = n() as u8,
        BufData::I16(v) => v[i] = n() as i16,
        BufData::U16(v) => v[i] = n() as u16,
        BufData::I32(v) => v[i] = n() as i32,
        BufData::U32(v) => v[i] = n() as u32,
        BufData::I64(v) => v[i] = n() as i64,
        BufData::U64(v) => v[i] = n() as u64,
        BufData::F32(v) => v[i] = x.float() as f32,
        BufData::F64(v) => v[i] = x.float(),
        BufData::F16(v) => v[i] = half::f16::from_f64(x.float()),
        BufData::BF16(v) => v[i] = half::bf16::from_f64(x.float()),
    }
}

/// Where a paused thread's walk stands.
#[derive(Clone, Debug)]
enum Frame<'k> {
    /// A statement list and the index of the next statement.
    Seq { stmts: &'k [Stmt], next: usize },
    /// A loop: the next thing to do, and how many times the body has been entered.
    Loop {
        stmt: &'k Stmt,
        stage: Stage,
        iteration: u64,
    },
    /// An inlined `__device__` function's body starts above this: `return` comes back here, or,
    /// when `exits` ([`Kernel::exiting_calls`]), ends the thread as the kernel's `return` does.
    Call { exits: bool },
    /// A statement `to = f(...)`: once the inlined body above has run (it may pause at a
    /// barrier), `to` takes the value its `return` left in `from`.
    Copy { to: VarId, from: VarId },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Evaluate the condition.
    Test,
    /// Enter the body.
    Body,
    /// The body is done (or continued): run the step statements.
    Step,
}

/// A barrier instance: the statement, and the iteration of every loop around it.
type BarrierKey = (*const Stmt, Vec<(*const Stmt, u64)>);

#[derive(Clone, Debug, PartialEq)]
enum State {
    Running,
    AtBarrier(BarrierKey),
    Returned,
    Finished,
}

struct Thread<'k> {
    idx: [u32; 3],
    locals: Vec<V>,
    /// The thread's own copy of each local array, zeroed when it starts.
    arrays: Vec<BufData>,
    /// Per local array, which elements the thread wrote.
    written: Vec<Vec<bool>>,
    frames: Vec<Frame<'k>>,
    state: State,
    /// `__device__` calls inside expressions being run (no barrier may pause them).
    nested: u32,
    /// At a `__syncthreads_count/_and/_or`: the fold, the variable it sets and this thread's
    /// predicate.
    vote: Option<(BlockVote, VarId, bool)>,
}

/// How a thread touches an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Read,
    /// A read of a whole struct's member being copied: a race like any read, but an unwritten
    /// element is copied along, not an uninitialised read.
    Copy,
    Write,
    Atomic,
    /// An atomic whose old value the thread uses (`slot = atomicAdd(&n, 1)`): which value it
    /// gets depends on the order of every other atomic on the element.
    AtomicUsed,
}

/// What some threads did to an element.
#[derive(Clone, Copy, Debug, Default)]
struct Did {
    read: bool,
    written: bool,
    atomic: bool,
    atomic_used: bool,
}

impl Did {
    fn add(&mut self, kind: Kind) {
        match kind {
            Kind::Read | Kind::Copy => self.read = true,
            Kind::Write => self.written = true,
            Kind::Atomic => self.atomic = true,
            Kind::AtomicUsed => self.atomic_used = true,
        }
    }

    /// Whether an access of `kind` conflicts with these: two reads do not, nor two atomics
    /// unless one of them uses the old value it gets.
    fn conflicts(&self, kind: Kind) -> bool {
        let atomic = self.atomic || self.atomic_used;
        match kind {
            Kind::Read | Kind::Copy => self.written || atomic,
            Kind::Write => self.read || self.written || atomic,
            Kind::Atomic => self.read || self.written || self.atomic_used,
            Kind::AtomicUsed => self.read || self.written || atomic,
        }
    }
}

/// Who touched an element first since it was last ordered by a barrier, and what it and the
/// other threads did.
#[derive(Clone, Copy, Debug, Default)]
struct Touch {
    /// Touched at all.
    used: bool,
    /// Linear block id and barrier epoch in that block.
    block: u64,
    epoch: u64,
    /// Linear thread id in the block of the first thread.
    thread: u64,
    /// What the first thread did.
    first: Did,
    /// What the other threads did (any of them: a thread other than the first is checked
    /// against all of it, its own accesses included, which can only see more conflicts).
    others: Did,
}

impl Touch {
    /// Records an access; `true` when it conflicts with another thread's (see the module docs).
    fn record(&mut self, block: u64, epoch: u64, thread: u64, kind: Kind) -> bool {
        // A barrier orders the accesses of one block: start afresh.
        if !self.used || (self.block == block && self.epoch < epoch) {
            *self = Touch {
                used: true,
                block,
                epoch,
                thread,
                ..Touch::default()
            };
            self.first.add(kind);
            return false;
        }
        if self.block == block && self.thread == thread {
            self.first.add(kind);
            return self.others.conflicts(kind);
        }
        let conflict = self.first.conflicts(kind) || self.others.conflicts(kind);
        self.others.add(kind);
        conflict
    }
}

/// One block being run.
struct Block<'a, 'k> {
    kernel: &'k Kernel,
    cfg: &'a LaunchConfig,
    block: [u32; 3],
    /// The launch's arrays, and where each pointer parameter points into them.
    globals: &'a mut [Buffer],
    pointers: &'a [Option<Pointer>],
    shared: Vec<BufData>,
    tally: &'a mut Tally,
    fuel: &'a mut u64,
    /// Per global array and per shared array, who touched each element.
    global_touch: &'a mut [Vec<Touch>],
    shared_touch: Vec<Vec<Touch>>,
    /// Per launch array made by `empty(n)`: which elements were written.
    global_written: &'a mut [Option<Vec<bool>>],
    /// Per shared array: which elements this block wrote.
    shared_written: Vec<Vec<bool>>,
    /// Barriers this block has passed.
    epoch: u64,
    /// The atomic about to be evaluated is a statement of its own: its old value is unused.
    discarded: bool,
    /// The calls whose `return` ends the thread.
    exiting: &'a std::collections::HashSet<*const Stmt>,
}

type Step<T> = Result<T, RefError>;

/// Runs the kernel over the whole grid, block after block, writing `args`' buffers.
pub fn run(kernel: &Kernel, cfg: &LaunchConfig, args: &mut Args) -> Result<Tally, RefError> {
    if kernel.block_shapes.iter().any(|s| !s.fits(cfg.block)) {
        return Err(RefError::BlockShape);
    }
    // Buffers the kernel keeps in narrower elements, as the engine keeps them.
    let retyped =
        crate::exec::narrowed::narrow(&kernel.narrowed, args).map_err(|_| RefError::MixedViews)?;
    let tally = run_typed(kernel, cfg, args);
    crate::exec::narrowed::widen(args, &retyped);
    tally
}

/// [`run`] of buffers in the types the kernel keeps them in.
fn run_typed(kernel: &Kernel, cfg: &LaunchConfig, args: &mut Args) -> Result<Tally, RefError> {
    let mut tally = Tally::default();
    let exiting = kernel.exiting_calls();
    let mut fuel = cfg.max_steps.saturating_mul(32);
    let mut global_written: Vec<Option<Vec<bool>>> = args
        .buffers
        .iter()
        .map(|b| {
            b.written.as_ref().map(|bits| {
                (0..b.data.len())
                    .map(|i| bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1))
                    .collect()
            })
        })
        .collect();
    let mut global_touch: Vec<Vec<Touch>> = args
        .buffers
        .iter()
        .map(|b| vec![Touch::default(); b.data.len()])
        .collect();
    let [gx, gy, gz] = cfg.grid;
    for bz in 0..gz {
        for by in 0..gy {
            for bx in 0..gx {
                let shared: Vec<BufData> = kernel
                    .shared
                    .iter()
                    .map(|s| {
                        let len = if s.is_extern {
                            cfg.dyn_smem / u64::from(s.stored.size())
                        } else {
                            s.stored_len()
                        };
                        BufData::zeros(s.stored, len as usize)
                    })
                    .collect();
                let shared_touch = shared
                    .iter()
                    .map(|d| vec![Touch::default(); d.len()])
                    .collect();
                let shared_written = shared.iter().map(|d| vec![false; d.len()]).collect();
                let mut b = Block {
                    kernel,
                    cfg,
                    block: [bx, by, bz],
                    globals: &mut args.buffers,
                    pointers: &args.pointers,
                    shared,
                    tally: &mut tally,
                    fuel: &mut fuel,
                    global_touch: &mut global_touch,
                    shared_touch,
                    global_written: &mut global_written,
                    shared_written,
                    epoch: 0,
                    discarded: false,
                    exiting: &exiting,
                };
                b.run(&args.scalars)?;
            }
        }
    }
    Ok(tally)
}

impl<'k> Block<'_, 'k> {
    fn run(&mut self, scalars: &[Option<Value>]) -> Step<()> {
        let [bx, by, bz] = self.cfg.block;
        let mut threads = Vec::new();
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    let mut locals = vec![V::I(0); self.kernel.locals.len()];
                    for (p, value) in self.kernel.params.iter().zip(scalars) {
                        if let (ParamKind::Scalar { ty, var }, Some(v)) = (p.kind, value) {
                            locals[var.0 as usize] = cast(V::of(*v), ty);
                        }
                    }
                    let arrays: Vec<BufData> = self
                        .kernel
                        .local_arrays
                        .iter()
                        .map(|a| BufData::zeros(a.stored, a.stored_len() as usize))
                        .collect();
                    let written = arrays.iter().map(|a| vec![false; a.len()]).collect();
                    threads.push(Thread {
                        idx: [x, y, z],
                        locals,
                        arrays,
                        written,
                        frames: vec![Frame::Seq {
                            stmts: &self.kernel.body,
                            next: 0,
                        }],
                        state: State::Running,
                        nested: 0,
                        vote: None,
                    });
                }
            }
        }
        loop {
            for t in threads.iter_mut() {
                if t.state == State::Running {
                    self.resume(t)?;
                }
            }
            let Some(key) = threads.iter().find_map(|t| match &t.state {
                State::AtBarrier(k) => Some(k.clone()),
                _ => None,
            }) else {
                return Ok(());
            };
            let all_there = threads.iter().all(|t| match &t.state {
                State::AtBarrier(k) => *k == key,
                State::Returned => true,
                State::Running | State::Finished => false,
            });
            if !all_there {
                return Err(RefError::DivergentBarrier { block: self.block });
            }
            self.tally.barriers += 1;
            self.epoch += 1;
            let votes: Vec<_> = threads.iter().filter_map(|t| t.vote).collect();
            if let Some(&(kind, _, _)) = votes.first() {
                let value = V::I(kind.fold(votes.iter().map(|v| v.2)));
                for t in threads.iter_mut() {
                    if let Some((_, var, _)) = t.vote.take() {
                        t.locals[var.0 as usize] = value;
                    }
                }
            }
            for t in threads.iter_mut() {
                if matches!(t.state, State::AtBarrier(_)) {
                    t.state = State::Running;
                }
            }
        }
    }

    /// Runs one thread until it reaches a barrier, returns or finishes.
    fn resume(&mut self, t: &mut Thread<'k>) -> Step<()> {
        if !self.walk(t)? {
            t.state = State::Finished;
        }
        Ok(())
    }

    /// Runs the thread's frames: `true` when it stopped at a barrier or a `return`, `false` once
    /// no frame is left.
    fn walk(&mut self, t: &mut Thread<'k>) -> Step<bool> {
        while let Some(frame) = t.frames.last_mut() {
            self.burn()?;
            match frame {
                Frame::Seq { stmts, next } => {
                    let stmts: &'k [Stmt] = stmts;
                    let Some(s) = stmts.get(*next) else {
                        t.frames.pop();
                        continue;
                    };
                    *next += 1;
                    if self.stmt(t, s)? {
                        return Ok(true);
                    }
                }
                Frame::Call { .. } => {
                    t.frames.pop();
                }
                &mut Frame::Copy { to, from } => {
                    t.frames.pop();
                    t.locals[to.0 as usize] = t.locals[from.0 as usize];
                }
                Frame::Loop { stmt, stage, .. } => {
                    let (stmt, stage): (&'k Stmt, Stage) = (stmt, *stage);
                    let StmtKind::Loop {
                        cond, body, step, ..
                    } = &stmt.kind
                    else {
                        unreachable!("a loop frame holds a loop")
                    };
                    match stage {
                        Stage::Test => {
                            let go = match cond {
                                Some(c) => {
                                    let v = self.eval(t, c, None)?.truth();
                                    self.branch();
                                    v
                                }
                                None => true,
                            };
                            if go {
                                set_stage(t, Stage::Body, false);
                            } else {
                                t.frames.pop();
                            }
                        }
                        Stage::Body => {
                            set_stage(t, Stage::Step, true);
                            t.frames.push(Frame::Seq {
                                stmts: body,
                                next: 0,
                            });
                        }
                        Stage::Step => {
                            set_stage(t, Stage::Test, false);
                            t.frames.push(Frame::Seq {
                                stmts: step,
                                next: 0,
                            });
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// One unit of work against the step budget (each statement and loop stage takes one).
    fn burn(&mut self) -> Step<()> {
        if *self.fuel == 0 {
            return Err(RefError::StepLimit);
        }
        *self.fuel -= 1;
        Ok(())
    }

    fn count(&mut self) {
        self.tally.thread_instr += 1;
    }

    fn branch(&mut self) {
        self.count();
        self.tally.branch_evals += 1;
    }

    /// Stops the thread at barrier `s`, in this iteration of every loop around it.
    fn arrive(&mut self, t: &mut Thread<'k>, s: &'k Stmt) -> Step<()> {
        if t.nested > 0 {
            return Err(RefError::Unsupported {
                what: "a barrier inside an expression (a __device__ function with __syncthreads() or a __syncthreads_count/_and/_or whose value is not assigned to a variable as a whole)",
            });
        }
        self.count();
        let loops = t
            .frames
            .iter()
            .filter_map(|f| match f {
                Frame::Loop {
                    stmt, iteration, ..
                } => Some((*stmt as *const Stmt, *iteration)),
                Frame::Seq { .. } | Frame::Call { .. } | Frame::Copy { .. } => None,
            })
            .collect();
        t.state = State::AtBarrier((s as *const Stmt, loops));
        Ok(())
    }

    /// Executes one statement; `true` when the thread stops (barrier or return).
    fn stmt(&mut self, t: &mut Thread<'k>, s: &'k Stmt) -> Step<bool> {
        match &s.kind {
            StmtKind::Assign { var, value } => match &value.kind {
                // `x = f(...)`: the body runs as frames, so it may reach a barrier.
                ExprKind::Inline {
                    body,
                    result: Some(from),
                    ..
                } => {
                    t.frames.push(Frame::Copy {
                        to: *var,
                        from: *from,
                    });
                    t.frames.push(Frame::Call { exits: false });
                    t.frames.push(Frame::Seq {
                        stmts: body,
                        next: 0,
                    });
                }
                _ => {
                    let v = self.eval(t, value, None)?;
                    t.locals[var.0 as usize] = v;
                }
            },
            StmtKind::Store { mem, index, value } => {
                let (mem, i) = self.index(t, *mem, index)?;
                let v = self.eval(t, value, Some((mem, i)))?;
                self.access(mem, Access::Store);
                self.touch(
                    t,
                    mem,
                    (i * self.units(mem), self.units(mem)),
                    Kind::Write,
                    s.span,
                )?;
                self.store(t, mem, i, v);
            }
            StmtKind::If { cond, then, els } => {
                let go = self.eval(t, cond, None)?.truth();
                self.branch();
                let stmts = if go { then } else { els };
                t.frames.push(Frame::Seq { stmts, next: 0 });
            }
            StmtKind::Loop { test_first, .. } => t.frames.push(Frame::Loop {
                stmt: s,
                stage: if *test_first {
                    Stage::Test
                } else {
                    Stage::Body
                },
                iteration: 0,
            }),
            StmtKind::Break => {
                while let Some(f) = t.frames.pop() {
                    if matches!(f, Frame::Loop { .. }) {
                        break;
                    }
                }
            }
            StmtKind::Continue => {
                while let Some(Frame::Seq { .. }) = t.frames.last() {
                    t.frames.pop();
                }
                if let Some(Frame::Loop { stage, .. }) = t.frames.last_mut() {
                    *stage = Stage::Step;
                }
            }
            StmtKind::Return => {
                t.frames.clear();
                t.state = State::Returned;
                return Ok(true);
            }
            StmtKind::Barrier => {
                self.arrive(t, s)?;
                return Ok(true);
            }
            // The fuzzed kernels have no inline PTX: barrier 0 for the whole block, as the
            // engine checks (tests/asm.rs covers its refusals).
            StmtKind::NamedBarrier { id, count } => {
                self.eval(t, id, None)?;
                if let Some(c) = count {
                    self.eval(t, c, None)?;
                }
                self.arrive(t, s)?;
                return Ok(true);
            }
            StmtKind::BarrierVote { kind, pred, result } => {
                let p = self.eval(t, pred, None)?.truth();
                self.arrive(t, s)?;
                t.vote = Some((*kind, *result, p));
                return Ok(true);
            }
            StmtKind::VecLoad { mem, index, vars } => {
                let (mem, i) = self.index(t, *mem, index)?;
                self.access(mem, Access::Load);
                let (w, units) = (mem.width as usize, self.units(mem));
                self.touch(t, mem, (i * units, units), Kind::Read, s.span)?;
                for (k, var) in vars.iter().enumerate() {
                    t.locals[var.0 as usize] = self.load(t, mem, i * w + k);
                }
            }
            StmtKind::VecAtomic {
                op,
                mem,
                index,
                values,
                olds,
            } => {
                let (mem, i) = self.index(t, *mem, index)?;
                let mut vals = Vec::with_capacity(values.len());
                for v in values {
                    vals.push(self.eval(t, v, None)?);
                }
                self.access(mem, Access::Atomic);
                let kind = if olds.is_empty() {
                    Kind::Atomic
                } else {
                    Kind::AtomicUsed
                };
                let (w, units) = (mem.width as usize, self.units(mem));
                self.touch(t, mem, (i * units, units), kind, s.span)?;
                for (k, v) in vals.into_iter().enumerate() {
                    let old = self.load(t, mem, i * w + k);
                    let new = atomic(*op, mem.elem, old, v, None);
                    self.store(t, mem, i * w + k, new);
                    if let Some(var) = olds.get(k) {
                        t.locals[var.0 as usize] = old;
                    }
                }
            }
            StmtKind::VecStore { mem, index, values } => {
                let (mem, i) = self.index(t, *mem, index)?;
                let mut vals = Vec::with_capacity(values.len());
                for v in values {
                    vals.push(self.eval(t, v, None)?);
                }
                self.access(mem, Access::Store);
                let (w, units) = (mem.width as usize, self.units(mem));
                self.touch(t, mem, (i * units, units), Kind::Write, s.span)?;
                for (k, v) in vals.into_iter().enumerate() {
                    self.store(t, mem, i * w + k, v);
                }
            }
            // The reference counts what printing costs; the engine's output is checked elsewhere.
            StmtKind::Printf { args, .. } => {
                for a in args {
                    self.eval(t, a, None)?;
                }
                self.count();
            }
            StmtKind::Assert(_, true) => {
                return Err(RefError::Unsupported {
                    what: "`__builtin_assume`",
                })
            }
            StmtKind::Assert(cond, false) => {
                if !self.eval(t, cond, None)?.truth() {
                    return Err(RefError::Assertion {
                        block: self.block,
                        thread: t.idx,
                    });
                }
                self.count();
            }
            StmtKind::Disjoint { dst, src, len } => {
                let at = |v: V, unit: u32| v.int().expect("an offset") * i128::from(unit);
                let a = at(self.eval(t, &dst.0, None)?, dst.1);
                let b = at(self.eval(t, &src.0, None)?, src.1);
                let n = self.eval(t, len, None)?.int().expect("a length");
                // Two ranges of `n` bytes meet unless one ends where the other starts, or before.
                if n > 0 && (a - b).abs() < n {
                    return Err(RefError::OverlappingCopy {
                        block: self.block,
                        thread: t.idx,
                    });
                }
            }
            StmtKind::Trap => {
                return Err(RefError::Trap {
                    block: self.block,
                    thread: t.idx,
                })
            }
            StmtKind::Fault(f) => {
                return Err(RefError::Fault {
                    code: match f {
                        crate::check::typed::Fault::BadDynamicType { .. } => {
                            "simt::run::bad_dynamic_type"
                        }
                        crate::check::typed::Fault::Recursion { .. } => "simt::run::recursion",
                        crate::check::typed::Fault::BadDelete { .. } => "simt::run::bad_delete",
                        crate::check::typed::Fault::ZeroFill { .. } => "simt::run::zero_fill",
                        crate::check::typed::Fault::Unreachable => "simt::run::unreachable",
                        crate::check::typed::Fault::MissingReturn { .. } => {
                            "simt::run::missing_return"
                        }
                        crate::check::typed::Fault::PrintfArgument { .. } => {
                            "simt::run::printf_argument"
                        }
                    },
                })
            }
            StmtKind::SyncWarp(_) => {
                return Err(RefError::Unsupported {
                    what: "__syncwarp()",
                })
            }
            StmtKind::Async(_) => {
                return Err(RefError::Unsupported {
                    what: "asynchronous copies and their barriers and pipelines",
                })
            }
            StmtKind::Collective { .. } | StmtKind::Mma { .. } => {
                return Err(RefError::Unsupported {
                    what: "WMMA's warp matrix functions",
                })
            }
            StmtKind::GridSync => {
                return Err(RefError::Unsupported {
                    what: "this_grid().sync(), which needs every block running at once",
                })
            }
            StmtKind::Eval(e) => match &e.kind {
                // A call as a statement: its body runs as frames, so it may reach a barrier.
                ExprKind::Inline { body, .. } => {
                    let exits = self.exiting.contains(&std::ptr::from_ref(s));
                    t.frames.push(Frame::Call { exits });
                    t.frames.push(Frame::Seq {
                        stmts: body,
                        next: 0,
                    });
                }
                _ => {
                    self.discarded = matches!(e.kind, ExprKind::Atomic { .. });
                    self.eval(t, e, None)?;
                }
            },
            StmtKind::ReturnFn => {
                while let Some(f) = t.frames.pop() {
                    if let Frame::Call { exits } = f {
                        if exits {
                            t.frames.clear();
                            t.state = State::Returned;
                            return Ok(true);
                        }
                        break;
                    }
                }
            }
        }
        Ok(false)
    }

    /// Components of its array before the one pointer parameter `p` points at.
    fn param_offset(&self, p: u32) -> i128 {
        self.pointers
            .get(p as usize)
            .and_then(Option::as_ref)
            .map_or(0, |q| q.offset as i128)
    }

    /// The array pointer parameter `p` points into, if it is not `NULL`.
    fn array(&self, p: u32) -> Option<usize> {
        self.pointers.get(p as usize)?.as_ref()?.buffer
    }

    /// The elements of `mem`: a launch array, the block's shared array, or thread `t`'s own
    /// local array.
    fn data<'s>(&'s self, t: &'s Thread<'_>, mem: Mem) -> &'s BufData {
        match mem.space {
            Space::Global(p) => {
                let b = self.array(p).expect("reference: `checked` stops NULL");
                &self.globals[b].data
            }
            Space::Shared(s) => &self.shared[s as usize],
            Space::Local(l) => &t.arrays[l as usize],
            Space::Choice { .. } => unreachable!("reference: `index` resolves a choice"),
        }
    }

    /// How many of the memory's own elements one element of `mem` spans: its components, or
    /// the narrow elements a wider view (`(uint*)` of bytes) packs.
    fn units(&self, mem: Mem) -> usize {
        (mem.elem.size() * mem.width / self.kernel.stored(mem.space).size()) as usize
    }

    /// Component `i` of `mem`'s memory as `mem.elem`: a pointer cast may see the bytes of one
    /// type as another of the same size, or several narrow elements (integers, or 16-bit floats'
    /// bits) as one wider one (lowest first).
    fn load(&self, t: &Thread<'_>, mem: Mem, i: usize) -> V {
        let stored = self.kernel.stored(mem.space);
        let n = self.units(mem) / mem.width as usize;
        if n == 1 {
            return view(read(self.data(t, mem), i), stored, mem.elem);
        }
        let data = self.data(t, mem);
        let (size, narrow) = (8 * stored.size(), bits_type(stored.size()));
        let bits = (0..n).fold(0u64, |acc, k| {
            let x = view(read(data, i * n + k), stored, narrow);
            let x = x.int().expect("an integer") as u64;
            acc | (x & (u64::MAX >> (64 - size))) << (size * k as u32)
        });
        let wide = bits_type(mem.elem.size());
        view(wrap(wide, i128::from(bits)), wide, mem.elem)
    }

    /// Stores `v` (of `mem.elem`'s promoted type, converted to it) into component `i`.
    fn store(&mut self, t: &mut Thread<'_>, mem: Mem, i: usize, v: V) {
        let stored = self.kernel.stored(mem.space);
        let n = self.units(mem) / mem.width as usize;
        if n == 1 {
            let bytes = view(cast(v, mem.elem), mem.elem, stored);
            write(self.data_mut(t, mem), i, bytes);
            return;
        }
        let wide = bits_type(mem.elem.size());
        let bits = view(cast(v, mem.elem), mem.elem, wide)
            .int()
            .expect("an integer") as u64;
        let (size, narrow) = (8 * stored.size(), bits_type(stored.size()));
        let data = self.data_mut(t, mem);
        for k in 0..n {
            let part = (bits >> (size * k as u32)) & (u64::MAX >> (64 - size));
            write(
                data,
                i * n + k,
                view(wrap(narrow, i128::from(part)), narrow, stored),
            );
        }
    }

    fn data_mut<'s>(&'s mut self, t: &'s mut Thread<'_>, mem: Mem) -> &'s mut BufData {
        match mem.space {
            Space::Global(p) => {
                let b = self.array(p).expect("reference: `checked` stops NULL");
                &mut self.globals[b].data
            }
            Space::Shared(s) => &mut self.shared[s as usize],
            Space::Local(l) => &mut t.arrays[l as usize],
            Space::Choice { .. } => unreachable!("reference: `index` resolves a choice"),
        }
    }

    fn name(&self, mem: Mem) -> String {
        match mem.space {
            Space::Global(p) => match self.array(p) {
                Some(b) => self.globals[b].name.clone(),
                None => self.kernel.params[p as usize].name.clone(),
            },
            Space::Shared(s) => self.kernel.shared[s as usize].name.clone(),
            Space::Local(l) => self.kernel.local_arrays[l as usize].name.clone(),
            Space::Choice { .. } => unreachable!("reference: `index` resolves a choice"),
        }
    }

    /// Evaluates an index and checks it against the memory's length: the memory (a pointer
    /// into one of several arrays names its array in its value) and the element.
    fn index(&mut self, t: &mut Thread<'k>, mem: Mem, index: &'k Expr) -> Step<(Mem, usize)> {
        let i = self
            .eval(t, index, None)?
            .int()
            .expect("checker: integer index");
        let (mem, i) = match mem.space {
            Space::Choice { .. } => {
                let (k, i) = crate::check::typed::choice_parts(i as i64);
                let Some(&space) = usize::try_from(k)
                    .ok()
                    .and_then(|k| self.kernel.choices.get(k))
                else {
                    return Err(RefError::NullPointer {
                        name: "one of several arrays".into(),
                    });
                };
                (Mem { space, ..mem }, i128::from(i))
            }
            _ => (mem, i),
        };
        let i = self.checked(t, mem, i)?;
        self.heap_allowed(mem, i)?;
        Ok((mem, i))
    }

    /// For element `i` of `mem` where it is the device heap's, what the engine reports where
    /// the allocation record does not allow the access: `simt::run::use_after_free` in freed
    /// memory, `simt::run::out_of_bounds` outside its allocation.
    fn heap_allowed(&self, mem: Mem, i: usize) -> Step<()> {
        use crate::check::heap::{heap_fault, HeapFault, HEAP, HEAP_BLOCKS};
        let Space::Global(p) = mem.space else {
            return Ok(());
        };
        if self.kernel.params[p as usize].name != HEAP {
            return Ok(());
        }
        let record = self
            .kernel
            .params
            .iter()
            .position(|q| q.name == HEAP_BLOCKS);
        let Some(BufData::I32(marks)) = record
            .and_then(|q| self.array(q as u32))
            .map(|b| &self.globals[b].data)
        else {
            return Ok(());
        };
        let size = u64::from(mem.elem.size() * mem.width);
        match heap_fault(|g| marks[g as usize], i as u64 * size, size) {
            None => Ok(()),
            Some(HeapFault::Freed) => Err(RefError::Fault {
                code: "simt::run::use_after_free",
            }),
            Some(HeapFault::Outside(_)) => Err(RefError::Fault {
                code: "simt::run::out_of_bounds",
            }),
        }
    }

    /// Checks an index against the memory's length, in elements of `mem.width` components; an
    /// index through a pointer parameter becomes one from its array's start. An index far below
    /// any array comes from a null pointer, into whichever space its variable points.
    fn checked(&self, t: &Thread<'_>, mem: Mem, i: i128) -> Step<usize> {
        let mut i = i;
        let unbound = matches!(mem.space, Space::Global(p) if self.array(p).is_none());
        if let Space::Global(p) = mem.space {
            let unset = self.pointers.get(p as usize).and_then(Option::as_ref);
            if unset.is_some_and(|q| q.unset) {
                return Err(RefError::UnsetPointer {
                    name: self.name(mem),
                });
            }
        }
        if unbound || i < i128::from(NULL_OFFSET / 2) {
            return Err(RefError::NullPointer {
                name: self.name(mem),
            });
        }
        let per = self.units(mem);
        if let Space::Global(p) = mem.space {
            // A cast to a vector accounts for the rest (`Rescale`).
            i += self.param_offset(p) / per as i128;
        }
        let len = self.data(t, mem).len() / per;
        if i < 0 || i >= len as i128 {
            return Err(RefError::OutOfBounds {
                name: self.name(mem),
                index: i,
                len,
                block: self.block,
                thread: t.idx,
            });
        }
        Ok(i as usize)
    }

    /// Notes that thread `t` reads, writes or atomically updates components `first..first + n`
    /// of `mem` (the access at `span`): a conflict with another thread is an interleaving, and
    /// a read of an element not yet written an uninitialised read.
    fn touch(
        &mut self,
        t: &mut Thread<'_>,
        mem: Mem,
        (first, n): (usize, usize),
        kind: Kind,
        span: crate::source::Span,
    ) -> Step<()> {
        let written = match mem.space {
            Space::Global(p) => {
                let b = self.array(p).expect("reference: `checked` stops NULL");
                self.global_written[b].as_mut()
            }
            Space::Shared(s) => Some(&mut self.shared_written[s as usize]),
            Space::Local(l) => Some(&mut t.written[l as usize]),
            Space::Choice { .. } => unreachable!("reference: `index` resolves a choice"),
        };
        if let Some(written) = written {
            let unwritten = written[first..first + n].iter().any(|w| !w);
            let reads = matches!(kind, Kind::Read | Kind::Copy);
            if kind != Kind::Write || unwritten {
                if !reads {
                    written[first..first + n].iter_mut().for_each(|w| *w = true);
                }
                if !matches!(kind, Kind::Write | Kind::Copy) && unwritten {
                    let name = self.name(mem);
                    self.tally.uninit.insert((name, span));
                }
            }
        }
        let [bx, by, _] = self.cfg.block;
        let thread = u64::from(t.idx[0] + bx * (t.idx[1] + by * t.idx[2]));
        let block = self.cfg.linear_block(self.block);
        let slots = match mem.space {
            Space::Global(p) => {
                let b = self.array(p).expect("reference: `checked` stops NULL");
                &mut self.global_touch[b]
            }
            Space::Shared(s) => &mut self.shared_touch[s as usize],
            // A thread's own array: no other thread can touch it.
            Space::Local(_) => return Ok(()),
            Space::Choice { .. } => unreachable!("reference: `index` resolves a choice"),
        };
        let epoch = self.epoch;
        match (first..first + n).find(|&i| slots[i].record(block, epoch, thread, kind)) {
            Some(index) => Err(RefError::Interleaving {
                name: self.name(mem),
                index,
            }),
            None => Ok(()),
        }
    }

    /// Counts a load, store or atomic of `mem.width` components. A local array the compiler keeps
    /// in registers costs nothing: its elements are registers.
    fn access(&mut self, mem: Mem, access: Access) {
        if let Space::Local(l) = mem.space {
            if self.kernel.local_arrays[l as usize].in_registers {
                return;
            }
        }
        self.count();
        if let Space::Global(p) = mem.space {
            if self.kernel.params[p as usize].name == crate::check::heap::HEAP_BLOCKS {
                // The allocator's record of allocations is simt's bookkeeping, not the kernel's
                // memory traffic: the engine counts none of it either.
                return;
            }
            if self.kernel.constants.contains(&p) {
                // The checker refuses stores and atomics into constant memory.
                self.tally.constant_loads += 1;
                return;
            }
        }
        let tally = &mut *self.tally;
        match (mem.space, access) {
            (Space::Global(_), Access::Load) => tally.global_loads += 1,
            (Space::Global(_), Access::Store) => tally.global_stores += 1,
            (Space::Global(_), Access::Atomic) => tally.global_atomics += 1,
            (Space::Shared(_), Access::Load) => tally.shared_loads += 1,
            (Space::Shared(_), Access::Store | Access::Atomic) => tally.shared_stores += 1,
            (Space::Local(_), Access::Load) => tally.local_loads += 1,
            (Space::Local(_), Access::Store | Access::Atomic) => tally.local_stores += 1,
            (Space::Choice { .. }, _) => unreachable!("reference: `index` resolves a choice"),
        }
        if let Space::Global(_) = mem.space {
            tally.global_bytes += u64::from(mem.elem.size() * mem.width);
        }
    }

    /// Evaluates an expression for thread `t`; `store_at` is the element a `Store` is writing.
    fn eval(&mut self, t: &mut Thread<'k>, e: &'k Expr, store_at: Option<(Mem, usize)>) -> Step<V> {
        crate::stack::grow(|| self.eval_at(t, e, store_at))
    }

    fn eval_at(
        &mut self,
        t: &mut Thread<'k>,
        e: &'k Expr,
        store_at: Option<(Mem, usize)>,
    ) -> Step<V> {
        let ty = e.ty;
        let v = match &e.kind {
            ExprKind::Const(v) => return Ok(V::of(*v)),
            ExprKind::Var(var) => return Ok(t.locals[var.0 as usize]),
            ExprKind::Builtin(b) => {
                return Ok(V::U(match *b {
                    Builtin::ThreadIdx(a) => t.idx[a as usize],
                    Builtin::BlockIdx(a) => self.block[a as usize],
                    Builtin::BlockDim(a) => self.cfg.block[a as usize],
                    Builtin::GridDim(a) => self.cfg.grid[a as usize],
                    Builtin::Cooperative => u32::from(self.cfg.cooperative),
                }))
            }
            ExprKind::Neg(a) => {
                let x = self.eval(t, a, store_at)?;
                match x {
                    V::F(f) => V::F(-f),
                    V::D(f) => V::D(-f),
                    other => wrap(ty, -other.int().expect("an integer")),
                }
            }
            ExprKind::BitNot(a) => {
                let x = self.eval(t, a, store_at)?;
                wrap(ty, !x.int().expect("checker: `~` on an integer"))
            }
            ExprKind::Not(a) => V::B(!self.eval(t, a, store_at)?.truth()),
            ExprKind::Arith { op, lhs, rhs } => {
                let (a, b) = if lhs.reads_store_target() {
                    let b = self.eval(t, rhs, store_at)?;
                    (self.eval(t, lhs, store_at)?, b)
                } else {
                    let a = self.eval(t, lhs, store_at)?;
                    (a, self.eval(t, rhs, store_at)?)
                };
                arith(*op, ty, a, b).ok_or(RefError::DivisionByZero {
                    block: self.block,
                    thread: t.idx,
                })?
            }
            ExprKind::Compare { op, lhs, rhs } => {
                let a = self.eval(t, lhs, store_at)?;
                let b = self.eval(t, rhs, store_at)?;
                V::B(compare_values(*op, a, b))
            }
            ExprKind::Logic { and, lhs, rhs } => {
                let a = self.eval(t, lhs, store_at)?.truth();
                let b = if a == *and {
                    self.eval(t, rhs, store_at)?.truth()
                } else {
                    a
                };
                V::B(b)
            }
            ExprKind::ParamBase(p) => {
                let bound = self.array(*p).is_some();
                return Ok(V::L(if bound { 0 } else { NULL_OFFSET }));
            }
            ExprKind::ParamAddress(p) => {
                let address = match self.pointers.get(*p as usize).and_then(Option::as_ref) {
                    Some(Pointer {
                        buffer: Some(b),
                        offset,
                        ..
                    }) => {
                        crate::ir::global_address(*b, *offset, self.globals[*b].data.elem().size())
                    }
                    _ => 0,
                };
                return Ok(V::UL(address));
            }
            // Free, like a register read: no instruction counted.
            ExprKind::Widen(a) => {
                let x = self.eval(t, a, store_at)?;
                return Ok(cast(x, Scalar::I64));
            }
            ExprKind::Rescale {
                value,
                from,
                to,
                size,
                space,
            } => {
                let x = self
                    .eval(t, value, store_at)?
                    .int()
                    .expect("checker: an offset");
                if x < i128::from(NULL_OFFSET / 2) {
                    return Ok(V::L(x as i64));
                }
                // A pointer into one of several arrays keeps its array's number.
                let (number, x, space) = match space {
                    Space::Choice { .. } => {
                        let (k, within) = crate::check::typed::choice_parts(x as i64);
                        match usize::try_from(k)
                            .ok()
                            .and_then(|k| self.kernel.choices.get(k))
                        {
                            Some(&s) => (i128::from(k) << CHOICE_SHIFT, i128::from(within), s),
                            None => return Ok(V::L(x as i64)),
                        }
                    }
                    s => (0, x, *s),
                };
                // Through a parameter bound `o` bytes in, an offset in `w`-byte units counts from
                // byte `o - o % w`.
                let o = match space {
                    Space::Global(p) => self.param_offset(p),
                    _ => 0,
                } * i128::from(*size);
                let (from, to) = (i128::from(*from), i128::from(*to));
                let units = x * from + o % to - o % from;
                if units % to != 0 {
                    return Err(RefError::Unsupported {
                        what: "misaligned vector pointers",
                    });
                }
                return Ok(V::L((units / to + number) as i64));
            }
            // Free: the rounding is part of the 16-bit operation's own instruction.
            ExprKind::Round { to, operand } => {
                let x = self.eval(t, operand, store_at)?;
                return Ok(if *to == operand.ty { x } else { cast(x, *to) });
            }
            ExprKind::Cast { to, operand } => {
                let x = self.eval(t, operand, store_at)?;
                let from = operand.ty;
                if reinterprets(from, *to) {
                    // No instruction: int and unsigned of one width share their bits.
                    return Ok(cast(x, *to));
                }
                cast(x, *to)
            }
            ExprKind::Select { cond, then, els } => {
                let c = self.eval(t, cond, store_at)?.truth();
                self.eval(t, if c { then } else { els }, store_at)?
            }
            ExprKind::Call { func, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(t, a, store_at)?);
                }
                match (func, vals.as_slice()) {
                    (Func::Math1(f), [x]) => math1(*f, *x),
                    (Func::Math2(f), [x, y]) => math2(*f, *x, *y),
                    (Func::Fma, [V::F(a), V::F(b), V::F(c)]) => V::F(a.mul_add(*b, *c)),
                    (Func::Fma, [V::D(a), V::D(b), V::D(c)]) => V::D(a.mul_add(*b, *c)),
                    (Func::Abs, [x]) => abs(ty, *x),
                    (Func::Rounded { op, dir }, args) => {
                        let wide = |k: usize| match args.get(k).or(args.first()) {
                            Some(V::F(f)) => f64::from(*f),
                            Some(V::D(d)) => *d,
                            _ => unreachable!("checker: float operands"),
                        };
                        let r = crate::value::rounded(*op, ty, *dir, [0, 1, 2].map(wide));
                        if ty == Scalar::F32 {
                            V::F(r as f32)
                        } else {
                            V::D(r)
                        }
                    }
                    (Func::View { from, to }, [x]) => view(*x, *from, *to),
                    (Func::Directed { to, dir, .. }, [x]) => directed(*x, *to, *dir),
                    // A bit cast: the value's IEEE bits as the other type.
                    (Func::Bits(crate::value::BitOp::Same), [x]) => match (x, ty) {
                        (V::F(f), _) => wrap(ty, i128::from(f.to_bits())),
                        (V::D(f), _) => wrap(ty, i128::from(f.to_bits())),
                        (x, Scalar::F32) => {
                            V::F(f32::from_bits(x.int().expect("checker: an integer") as u32))
                        }
                        (x, _) => {
                            V::D(f64::from_bits(x.int().expect("checker: an integer") as u64))
                        }
                    },
                    // Computed from the exact integer's bits, independently of the engine.
                    (Func::Bits(op), [x]) => {
                        let bits = if matches!(x, V::L(_) | V::UL(_)) {
                            64
                        } else {
                            32
                        };
                        let v = x.int().expect("checker: an integer") as u64
                            & (u64::MAX >> (64 - bits));
                        let mut r = 0u64;
                        match op {
                            crate::value::BitOp::Popc => r = u64::from(v.count_ones()),
                            crate::value::BitOp::Clz => {
                                while r < bits && v & (1 << (bits - 1 - r)) == 0 {
                                    r += 1;
                                }
                            }
                            crate::value::BitOp::Ffs => {
                                if v != 0 {
                                    while v & (1 << r) == 0 {
                                        r += 1;
                                    }
                                    r += 1;
                                }
                            }
                            crate::value::BitOp::Brev => {
                                for k in 0..bits {
                                    if v & (1 << k) != 0 {
                                        r |= 1 << (bits - 1 - k);
                                    }
                                }
                            }
                            crate::value::BitOp::Ctz => {
                                while r < bits && v & (1 << r) == 0 {
                                    r += 1;
                                }
                            }
                            crate::value::BitOp::Same => r = v,
                        }
                        wrap(ty, i128::from(r))
                    }
                    // From the documented definitions, on exact integers.
                    (Func::Bits3(op), [a, b, c]) => {
                        let [a, b, c] = [a, b, c].map(|x| x.int().expect("checker: an integer"));
                        let (lo, hi, s) = (a & 0xffff_ffff, b & 0xffff_ffff, c & 0xffff_ffff);
                        let pair = hi * (1 << 32) + lo;
                        use crate::value::Bits3 as B;
                        let r: i128 = match op {
                            B::BytePerm => (0..4)
                                .map(|n| {
                                    let sel = (s >> (4 * n)) % 8;
                                    ((pair >> (8 * sel)) % 256) << (8 * n)
                                })
                                .sum(),
                            B::FunnelL => (pair << (s % 32)) >> 32,
                            B::FunnelLc => (pair << s.min(32)) >> 32,
                            B::FunnelR => pair >> (s % 32),
                            B::FunnelRc => pair >> s.min(32),
                            B::Sad => (i128::from(a as i32) - i128::from(b as i32)).abs() + s,
                            B::Usad => (lo - hi).abs() + s,
                            // The set bits from `base` up (or down), the |offset|-th of them.
                            B::Fns => {
                                let offset = i64::from(s as u32 as i32);
                                let set = |k: &i128| (lo >> k) % 2 == 1;
                                let found = match offset {
                                    0 => Some(hi).filter(|k| *k < 32 && set(k)),
                                    o if o > 0 => (hi..32).filter(set).nth((o - 1) as usize),
                                    o => (0..=hi.min(31)).rev().filter(set).nth((-o - 1) as usize),
                                };
                                found.unwrap_or(0xffff_ffff)
                            }
                            B::Dp4a | B::Dp4aU => {
                                let byte = |x: i128, k: i128| {
                                    let v = (x >> (8 * k)) % 256;
                                    if *op == B::Dp4a && v >= 128 {
                                        v - 256
                                    } else {
                                        v
                                    }
                                };
                                let c = if *op == B::Dp4a {
                                    i128::from(c as i32)
                                } else {
                                    s
                                };
                                (0..4).map(|k| byte(lo, k) * byte(hi, k)).sum::<i128>() + c
                            }
                        };
                        let bits = r.rem_euclid(1 << 32) as u32;
                        if *op == B::Dp4a {
                            V::I(bits as i32)
                        } else {
                            V::U(bits)
                        }
                    }
                    (Func::Xorwow { word, sequence }, [a, b, c, d, e, V::UL(n)]) => {
                        let v = [a, b, c, d, e].map(|x| x.int().expect("checker: a word") as u32);
                        V::U(xorwow_skip(v, *n, *sequence)[usize::from(*word)])
                    }
                    other => unreachable!("checker: call {other:?}"),
                }
            }
            ExprKind::Load { mem, index, copy } => {
                let (mem, i) = self.index(t, *mem, index)?;
                self.access(mem, Access::Load);
                let kind = if *copy { Kind::Copy } else { Kind::Read };
                self.touch(t, mem, (i * self.units(mem), self.units(mem)), kind, e.span)?;
                return Ok(self.load(t, mem, i));
            }
            ExprKind::LoadAtStore { .. } => {
                let (mem, i) = store_at.expect("checker: LoadAtStore only inside a store");
                let mem = &mem;
                self.access(*mem, Access::Load);
                self.touch(
                    t,
                    *mem,
                    (i * self.units(*mem), self.units(*mem)),
                    Kind::Read,
                    e.span,
                )?;
                return Ok(self.load(t, *mem, i));
            }
            ExprKind::Atomic {
                op,
                mem,
                index,
                operand,
                compare,
            } => {
                // The heap's allocator word: simt orders allocations (block, warp, lane), which
                // one thread at a time in thread order is too.
                let allocates = matches!(mem.space, Space::Global(p)
                    if self.kernel.params[p as usize].name == crate::check::heap::HEAP_TOP);
                let kind = if std::mem::take(&mut self.discarded) || allocates {
                    Kind::Atomic
                } else {
                    Kind::AtomicUsed
                };
                let (mem, i) = self.index(t, *mem, index)?;
                let v = self.eval(t, operand, store_at)?;
                let c = match compare {
                    Some(c) => Some(self.eval(t, c, store_at)?),
                    None => None,
                };
                self.access(mem, Access::Atomic);
                self.touch(t, mem, (i * self.units(mem), self.units(mem)), kind, e.span)?;
                let old = self.load(t, mem, i);
                let new = atomic(*op, mem.elem, old, v, c);
                self.store(t, mem, i, new);
                return Ok(old);
            }
            ExprKind::Inline { body, result, .. } => {
                // Run to its end now: an expression cannot pause at a barrier.
                let outer = std::mem::replace(
                    &mut t.frames,
                    vec![
                        Frame::Call { exits: false },
                        Frame::Seq {
                            stmts: body,
                            next: 0,
                        },
                    ],
                );
                t.nested += 1;
                let ran = self.walk(t);
                t.nested -= 1;
                t.frames = outer;
                ran?;
                let var = result.expect("checker: a call used as a value returns one");
                return Ok(t.locals[var.0 as usize]);
            }
            ExprKind::Shuffle { .. } => {
                return Err(RefError::Unsupported {
                    what: "warp shuffles",
                })
            }
            ExprKind::Vote { .. } => return Err(RefError::Unsupported { what: "warp votes" }),
            ExprKind::WarpFold { .. } => {
                return Err(RefError::Unsupported {
                    what: "warp matches and reductions",
                })
            }
            ExprKind::ActiveMask => {
                return Err(RefError::Unsupported {
                    what: "__activemask()",
                })
            }
            // A count of the block's warp instructions: a property of the engine's lock-step
            // order, which one thread at a time does not have.
            ExprKind::Clock => return Err(RefError::Unsupported { what: "clock()" }),
            ExprKind::Texture { .. } => {
                return Err(RefError::Unsupported {
                    what: "texture fetches",
                })
            }
        };
        self.count();
        Ok(v)
    }
}

/// What a memory instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Load,
    Store,
    Atomic,
}

/// The value an atomic stores, from the old value, the operand and (for CAS) the compare value.
fn atomic(op: AtomicOp, elem: Scalar, old: V, v: V, compare: Option<V>) -> V {
    let v = cast(v, elem);
    let arith_or_old = |a| arith(a, elem, old, v).unwrap_or(old);
    match op {
        AtomicOp::Add => arith_or_old(ArithOp::Add),
        AtomicOp::Sub => arith_or_old(ArithOp::Sub),
        AtomicOp::Min => arith_or_old(ArithOp::Min),
        AtomicOp::Max => arith_or_old(ArithOp::Max),
        AtomicOp::And => arith_or_old(ArithOp::And),
        AtomicOp::Or => arith_or_old(ArithOp::Or),
        AtomicOp::Xor => arith_or_old(ArithOp::Xor),
        AtomicOp::Exch => v,
        AtomicOp::Cas => {
            let c = cast(
                compare.expect("checker: atomicCAS has a compare value"),
                elem,
            );
            if compare_values(CmpOp::Eq, old, c) {
                v
            } else {
                old
            }
        }
        // `atomicInc(p, m)`: old >= m ? 0 : old + 1; `atomicDec`: old == 0 || old > m ? m : old - 1.
        AtomicOp::Inc | AtomicOp::Dec => {
            let (o, m) = (old.int().expect("unsigned"), v.int().expect("unsigned"));
            let r = match op {
                AtomicOp::Inc if o >= m => 0,
                AtomicOp::Inc => o + 1,
                _ if o == 0 || o > m => m,
                _ => o - 1,
            };
            wrap(elem, r)
        }
    }
}

/// Moves the innermost frame, a loop, to `stage`; `enter` counts an iteration.
fn set_stage(t: &mut Thread<'_>, to: Stage, enter: bool) {
    if let Some(Frame::Loop {
        stage, iteration, ..
    }) = t.frames.last_mut()
    {
        *stage = to;
        *iteration += u64::from(enter);
    }
}

/// A cast between `int` and `unsigned` of one width (or `long long` and `unsigned long long`):
/// the engine emits no instruction for it, so the cost model counts none.
fn reinterprets(from: Scalar, to: Scalar) -> bool {
    let word = |t: Scalar| match t {
        Scalar::I32 | Scalar::U32 => Some(4),
        Scalar::I64 | Scalar::U64 => Some(8),
        _ => None,
    };
    word(from).is_some() && word(from) == word(to)
}

/// Equal element by element, as the engine's and the reference's results must be; NaN equals NaN
/// (the payload and sign are not compared: CUDA leaves them unspecified, and the host computing
/// a NaN picks its own). That holds for a NaN stored through a float view of an integer buffer
/// too (`((float*)pi)[0] = x`): a 32- or 64-bit word that is a NaN's bits equals another.
pub fn same_data(a: &BufData, b: &BufData) -> bool {
    fn eq<T: PartialEq + Copy>(a: &[T], b: &[T], nan: impl Fn(T) -> bool) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| x == y || (nan(x) && nan(y)))
    }
    let nan32 = |bits: u32| f32::from_bits(bits).is_nan();
    let nan64 = |bits: u64| f64::from_bits(bits).is_nan();
    match (a, b) {
        (BufData::F32(x), BufData::F32(y)) => eq(x, y, f32::is_nan),
        (BufData::F64(x), BufData::F64(y)) => eq(x, y, f64::is_nan),
        (BufData::I32(x), BufData::I32(y)) => eq(x, y, |v| nan32(v as u32)),
        (BufData::U32(x), BufData::U32(y)) => eq(x, y, nan32),
        (BufData::I64(x), BufData::I64(y)) => eq(x, y, |v| nan64(v as u64)),
        (BufData::U64(x), BufData::U64(y)) => eq(x, y, nan64),
        (BufData::F16(x), BufData::F16(y)) => eq(x, y, half::f16::is_nan),
        (BufData::BF16(x), BufData::BF16(y)) => eq(x, y, half::bf16::is_nan),
        (x, y) => x == y,
    }
}

/// What must hold between the engine's warp-level counters and what the threads did (a run of
/// [`run`] on the same launch): the first rule `c` and `t` break, or `None`.
pub fn counters_disagree(c: &Counters, t: &Tally) -> Option<&'static str> {
    let rules: [(bool, &'static str); 18] = [
        // Exact: every active lane of an issued instruction is one thread executing it.
        (
            c.active_lane_slots == t.thread_instr,
            "active lane slots are the threads' instructions",
        ),
        (
            c.g_bytes_requested == t.global_bytes,
            "global bytes requested are the threads' bytes",
        ),
        (c.barriers == t.barriers, "barriers"),
        // A warp instruction has 1 to 32 active lanes.
        (
            c.warp_instr <= c.active_lane_slots && c.active_lane_slots <= 32 * c.warp_instr,
            "1 to 32 lanes per warp instruction",
        ),
        (within(c.gld_instr, t.global_loads), "global load requests"),
        (
            within(c.gst_instr, t.global_stores),
            "global store requests",
        ),
        (
            within(c.gatom_instr, t.global_atomics),
            "global atomic requests",
        ),
        (
            within(c.smem_instr, t.shared_loads + t.shared_stores),
            "shared-memory requests",
        ),
        // Local arrays in registers count neither; those in local memory, one request per warp.
        (
            within(c.local_ld_instr, t.local_loads),
            "local load requests",
        ),
        (
            within(c.local_st_instr, t.local_stores),
            "local store requests",
        ),
        (
            within(c.cmem_instr, t.constant_loads),
            "constant-cache requests",
        ),
        (within(c.branches, t.branch_evals), "branches"),
        // A request touches at least one sector (or wavefront), and an aligned element at most
        // one sector per lane.
        (
            c.gld_sectors >= c.gld_instr && c.gld_sectors <= t.global_loads,
            "global load sectors",
        ),
        (
            c.gst_sectors >= c.gst_instr && c.gst_sectors <= t.global_stores,
            "global store sectors",
        ),
        (
            c.smem_wavefronts >= c.smem_instr,
            "shared-memory wavefronts",
        ),
        // A constant-cache request serialises on the distinct addresses of its lanes.
        (
            c.cmem_transactions >= c.cmem_instr && c.cmem_transactions <= t.constant_loads,
            "constant-cache transactions",
        ),
        // Lane `k`'s element `i` of a local array is word `32 i + k`: each lane's element lies
        // in one sector.
        (
            c.local_ld_sectors >= c.local_ld_instr
                && c.local_ld_sectors <= t.local_loads
                && c.local_st_sectors >= c.local_st_instr
                && c.local_st_sectors <= t.local_stores,
            "local-memory sectors",
        ),
        (c.divergent <= c.branches, "divergent branches"),
    ];
    rules
        .iter()
        .find(|(holds, _)| !holds)
        .map(|&(_, rule)| rule)
}

/// `requests` warp requests are `lanes` thread accesses: 1 to 32 each.
fn within(requests: u64, lanes: u64) -> bool {
    requests <= lanes && lanes <= 32 * requests
}

/// `x` rounded to the float type `to` in direction `dir`, found by bisecting the type's
/// non-negative bit patterns (whose values grow with them, up to infinity) for the two
/// neighbours of `|x|`, compared with `x` exactly; independent of the engine's arithmetic.
fn directed(x: V, to: Scalar, dir: crate::value::Direction) -> V {
    use crate::value::Direction;
    use std::cmp::Ordering;
    let (top, value): (u64, fn(u64) -> f64) = match to {
        Scalar::F16 => (0x7c00, |b| half::f16::from_bits(b as u16).to_f64()),
        Scalar::BF16 => (0x7f80, |b| f64::from(f32::from_bits((b as u32) << 16))),
        Scalar::F32 => (0x7f80_0000, |b| f64::from(f32::from_bits(b as u32))),
        _ => (0x7ff0_0000_0000_0000, f64::from_bits),
    };
    // |x| against a finite or infinite non-negative value, exactly; the sign apart.
    let (negative, cmp): (bool, Box<dyn Fn(f64) -> Ordering>) = match x {
        V::F(f) => (
            f.is_sign_negative(),
            Box::new(move |v| f64::from(f.abs()).total_cmp(&v)),
        ),
        V::D(f) => (
            f.is_sign_negative(),
            Box::new(move |v| f.abs().total_cmp(&v)),
        ),
        x => {
            let n = x.int().expect("checker: an integer or a float");
            let m = n.unsigned_abs();
            let cmp = move |v: f64| {
                if v.is_infinite() {
                    return Ordering::Less;
                }
                // Every finite value of these types below 2^128 has an exact integer part.
                let whole = v.trunc() as u128;
                m.cmp(&whole).then(if v.fract() > 0.0 {
                    Ordering::Less
                } else {
                    Ordering::Equal
                })
            };
            (n < 0, Box::new(cmp))
        }
    };
    // NaN stays the same NaN, sign included, as the engine's conversions keep it.
    match x {
        V::F(f) if f.is_nan() && to == Scalar::F64 => return V::D(f64::from(f)),
        V::F(f) if f.is_nan() => return V::F(f),
        V::D(f) if f.is_nan() && to == Scalar::F64 => return V::D(f),
        V::D(f) if f.is_nan() => return V::F(f as f32),
        _ => {}
    }
    // The largest pattern whose value is at most |x|, and the smallest at least |x|.
    let (mut lo, mut hi) = (0u64, top);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if cmp(value(mid)) == Ordering::Less {
            hi = mid - 1;
        } else {
            lo = mid;
        }
    }
    let below = value(lo);
    let above = if cmp(below) == Ordering::Equal {
        below
    } else {
        value(lo + 1)
    };
    // Toward zero takes the smaller magnitude; down the smaller value, which for a negative
    // `x` is the larger magnitude.
    let magnitude = match (dir, negative) {
        (Direction::Zero, _) | (Direction::Down, false) | (Direction::Up, true) => below,
        _ => above,
    };
    let r = if negative { -magnitude } else { magnitude };
    if to == Scalar::F64 {
        V::D(r)
    } else {
        V::F(r as f32)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nans_are_equal_whatever_their_sign_even_as_integer_words() {
        use super::{same_data, BufData};
        // 0x7fc00000 and 0xffc00000 are both quiet NaNs as floats; 1 and 2 are not NaNs.
        let nan = |bits: u32| BufData::I32(vec![0, bits as i32]);
        assert!(same_data(&nan(0x7fc0_0000), &nan(0xffc0_0000)));
        assert!(!same_data(&BufData::I32(vec![1]), &BufData::I32(vec![2])));
        let f = |x: f32| BufData::F32(vec![x]);
        assert!(same_data(&f(f32::NAN), &f(-f32::NAN)));
        assert!(!same_data(&f(0.0), &f(f32::NAN)));
    }

    use super::*;

    #[test]
    fn c_arithmetic() {
        let i = |x| V::I(x);
        assert_eq!(
            arith(ArithOp::Add, Scalar::I32, i(i32::MAX), i(1)),
            Some(i(i32::MIN))
        );
        // -7 / 2 truncates to -3; -7 % 2 keeps the dividend's sign: -1.
        assert_eq!(arith(ArithOp::Div, Scalar::I32, i(-7), i(2)), Some(i(-3)));
        assert_eq!(arith(ArithOp::Rem, Scalar::I32, i(-7), i(2)), Some(i(-1)));
        assert_eq!(arith(ArithOp::Div, Scalar::I32, i(1), i(0)), None);
        // INT_MIN / -1 = 2^31 wraps to INT_MIN.
        assert_eq!(
            arith(ArithOp::Div, Scalar::I32, i(i32::MIN), i(-1)),
            Some(i(i32::MIN))
        );
        // Shifts by 32 or more, or by a negative count: 0, or the sign for >> of a negative.
        assert_eq!(arith(ArithOp::Shl, Scalar::I32, i(1), i(32)), Some(i(0)));
        assert_eq!(arith(ArithOp::Shr, Scalar::I32, i(-8), i(40)), Some(i(-1)));
        assert_eq!(arith(ArithOp::Shr, Scalar::I32, i(-8), i(-1)), Some(i(-1)));
        assert_eq!(
            arith(ArithOp::Shl, Scalar::I32, i(3), i(30)),
            Some(i(i32::MIN + (1 << 30)))
        );
        assert_eq!(
            arith(ArithOp::Shr, Scalar::U32, V::U(0x8000_0000), V::U(31)),
            Some(V::U(1))
        );
        // u64::MAX * u64::MAX = 1 (mod 2^64).
        assert_eq!(
            arith(ArithOp::Mul, Scalar::U64, V::UL(u64::MAX), V::UL(u64::MAX)),
            Some(V::UL(1))
        );
        assert_eq!(abs(Scalar::I32, i(i32::MIN)), i(i32::MIN));
    }

    #[test]
    fn c_conversions() {
        assert_eq!(cast(V::I(-1), Scalar::U32), V::U(u32::MAX));
        assert_eq!(cast(V::F(-3.9), Scalar::I32), V::I(-3));
        assert_eq!(cast(V::D(1e20), Scalar::I32), V::I(i32::MAX));
        assert_eq!(cast(V::F(f32::NAN), Scalar::I64), V::L(0));
        assert_eq!(cast(V::F(-1.0), Scalar::U32), V::U(0));
        // 300 wraps to 44 in a byte; a float saturates to the byte's own range.
        assert_eq!(cast(V::I(300), Scalar::U8), V::I(44));
        assert_eq!(cast(V::F(1e10), Scalar::I8), V::I(127));
        assert_eq!(cast(V::D(-1e10), Scalar::I8), V::I(-128));
        assert_eq!(cast(V::F(-3.5), Scalar::U8), V::I(0));
        assert_eq!(cast(V::F(70000.5), Scalar::I16), V::I(32767));
        assert_eq!(cast(V::F(f32::NAN), Scalar::U16), V::I(0));
        assert_eq!(cast(V::F(200.7), Scalar::U8), V::I(200));
        // fminf/fmaxf of zeros of opposite signs, either order.
        for (a, b) in [(0.0f32, -0.0f32), (-0.0, 0.0)] {
            assert!(float_op(ArithOp::Min, a, b).is_sign_negative());
            assert!(!float_op(ArithOp::Max, a, b).is_sign_negative());
            assert!(math2(Math2::Fmin, V::F(a), V::F(b)) == V::F(-0.0));
        }
        assert!(float_op(ArithOp::Min, 0.0f64, -0.0).is_sign_negative());
        assert!(!float_op(ArithOp::Max, -0.0f64, 0.0).is_sign_negative());
        assert_eq!(cast(V::F(f32::NAN), Scalar::Bool), V::B(true));
        assert_eq!(cast(V::UL(u64::MAX), Scalar::F32), V::F(u64::MAX as f32));
        assert!(compare_values(CmpOp::Ne, V::F(f32::NAN), V::F(f32::NAN)));
        assert!(!compare_values(CmpOp::Eq, V::F(f32::NAN), V::F(f32::NAN)));
        assert!(reinterprets(Scalar::I32, Scalar::U32) && !reinterprets(Scalar::I32, Scalar::I64));
    }

    #[test]
    fn counter_rules() {
        let (c, t) = (Counters::default(), Tally::default());
        assert_eq!(counters_disagree(&c, &t), None);
        // One warp instruction of 33 lanes, and 40 thread loads for one warp request.
        let wide = Counters {
            warp_instr: 1,
            active_lane_slots: 33,
            ..c
        };
        let tally = Tally {
            thread_instr: 33,
            ..t.clone()
        };
        assert!(counters_disagree(&wide, &tally).is_some());
        let loads = Counters {
            warp_instr: 2,
            active_lane_slots: 40,
            local_ld_instr: 1,
            local_ld_sectors: 1,
            ..c
        };
        let tally = Tally {
            thread_instr: 40,
            local_loads: 40,
            ..t
        };
        assert_eq!(
            counters_disagree(&loads, &tally),
            Some("local load requests")
        );
        assert!(same_data(
            &BufData::F32(vec![f32::NAN]),
            &BufData::F32(vec![-f32::NAN])
        ));
        assert!(!same_data(
            &BufData::F32(vec![0.0]),
            &BufData::F32(vec![1.0])
        ));
    }
}
