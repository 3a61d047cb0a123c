//! IEEE 754 arithmetic in a chosen rounding (`__fadd_rz`, `__fdiv_ru`, `__dsqrt_rd`, `__frsqrt_rn`), each result rounded once from its exact value.

use super::{Direction, Scalar};

/// The operation of one of CUDA's IEEE-rounded intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundedOp {
    /// `__fadd_rn(a, b)`, `__dadd_rz(a, b)`...
    Add,
    /// `__fsub_*`, `__dsub_*`
    Sub,
    /// `__fmul_*`, `__dmul_*`
    Mul,
    /// `__fdiv_*`, `__ddiv_*`
    Div,
    /// `__frcp_*`, `__drcp_*`: `1 / a`.
    Rcp,
    /// `__fsqrt_*`, `__dsqrt_*`
    Sqrt,
    /// `__frsqrt_rn`: `1 / sqrt(a)` (round-to-nearest only, as in CUDA).
    Rsqrt,
    /// `__fmaf_*`, `__fma_*`: `a * b + c` rounded once.
    Fma,
    /// `scalbnf(a, n)`, `ldexpf(a, n)` (and the `double` forms): `a · 2^n` rounded to nearest,
    /// `n` an integer held in the second operand.
    Scalbn,
}

impl RoundedOp {
    /// How many operands it takes.
    pub fn arity(self) -> usize {
        match self {
            RoundedOp::Rcp | RoundedOp::Sqrt | RoundedOp::Rsqrt => 1,
            RoundedOp::Fma => 3,
            _ => 2,
        }
    }

    /// The intrinsic a name calls: its operation, its float type and its rounding (`None` for
    /// `_rn`, round to nearest even): `__fadd_rz` is (Add, float, toward zero).
    pub fn of_name(name: &str) -> Option<(RoundedOp, Scalar, Option<Direction>)> {
        let (base, suffix) = name.strip_prefix("__")?.rsplit_once('_')?;
        let dir = match suffix {
            "rn" => None,
            s => Some(Direction::from_suffix(s)?),
        };
        let (op, ty) = match base {
            "fadd" => (RoundedOp::Add, Scalar::F32),
            "fsub" => (RoundedOp::Sub, Scalar::F32),
            "fmul" => (RoundedOp::Mul, Scalar::F32),
            "fdiv" => (RoundedOp::Div, Scalar::F32),
            "frcp" => (RoundedOp::Rcp, Scalar::F32),
            "fsqrt" => (RoundedOp::Sqrt, Scalar::F32),
            "frsqrt" if dir.is_none() => (RoundedOp::Rsqrt, Scalar::F32),
            "fmaf" => (RoundedOp::Fma, Scalar::F32),
            "dadd" => (RoundedOp::Add, Scalar::F64),
            "dsub" => (RoundedOp::Sub, Scalar::F64),
            "dmul" => (RoundedOp::Mul, Scalar::F64),
            "ddiv" => (RoundedOp::Div, Scalar::F64),
            "drcp" => (RoundedOp::Rcp, Scalar::F64),
            "dsqrt" => (RoundedOp::Sqrt, Scalar::F64),
            "fma" => (RoundedOp::Fma, Scalar::F64),
            _ => return None,
        };
        Some((op, ty, dir))
    }

    /// The libm function a name calls: `scalbnf`, `ldexpf` (float), `scalbn`, `ldexp` (double).
    pub fn of_libm(name: &str) -> Option<(RoundedOp, Scalar)> {
        match name {
            "scalbnf" | "ldexpf" => Some((RoundedOp::Scalbn, Scalar::F32)),
            "scalbn" | "ldexp" => Some((RoundedOp::Scalbn, Scalar::F64)),
            _ => None,
        }
    }

    /// Every intrinsic name, for "did you mean".
    pub fn names() -> Vec<String> {
        let mut v = Vec::new();
        for base in ["fadd", "fsub", "fmul", "fdiv", "frcp", "fsqrt", "fmaf"]
            .into_iter()
            .chain(["dadd", "dsub", "dmul", "ddiv", "drcp", "dsqrt", "fma"])
        {
            for s in ["rn", "rz", "ru", "rd"] {
                v.push(format!("__{base}_{s}"));
            }
        }
        v.push("__frsqrt_rn".into());
        v
    }
}

/// A finite value held exactly: `(-1)^neg · (m + f) · 2^e` with `0 < f < 1` when `sticky`,
/// else `f = 0`. A value with `sticky` has at least 26 bits in `m` (more than the 24 of a
/// `float` plus a rounding and a sticky bit); a `double` result needs 55, which every
/// operation on `double`s gives.
#[derive(Clone, Copy, Debug)]
struct Exact {
    neg: bool,
    m: u128,
    e: i32,
    sticky: bool,
}

/// A finite `double`'s exact value (a `float` widens to `double` exactly).
fn exact(x: f64) -> Exact {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = u128::from(bits & ((1 << 52) - 1));
    let (m, e) = match exp {
        0 => (frac, -1074),
        _ => (frac | 1 << 52, exp - 1075),
    };
    Exact {
        neg: x.is_sign_negative(),
        m,
        e,
        sticky: false,
    }
}

/// `x` with its significand shifted up so that its leading bit is bit `top`.
fn normalized(x: Exact, top: i32) -> Exact {
    let sh = top - (127 - x.m.leading_zeros() as i32);
    Exact {
        m: x.m << sh,
        e: x.e - sh,
        ..x
    }
}

/// `2^q` for `-1074 <= q <= 1023`.
fn pow2(q: i32) -> f64 {
    if q >= -1022 {
        f64::from_bits(((q + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (q + 1074))
    }
}

/// `x` rounded to the float type `to` in direction `dir` (`None`: to nearest, ties to even),
/// as the `double` that holds it. Past the largest finite value the result is infinite or
/// that value, as IEEE 754 says for the rounding.
fn round(x: Exact, to: Scalar, dir: Option<Direction>) -> f64 {
    let (p, emin, emax) = match to {
        Scalar::F32 => (24, -126, 127),
        _ => (53, -1022, 1023),
    };
    let sign = if x.neg { -1.0 } else { 1.0 };
    if x.m == 0 && !x.sticky {
        return sign * 0.0;
    }
    // The exponent of the result's last bit: p bits below the leading one, but no lower than a
    // subnormal's.
    let lead = x.e + 127 - x.m.leading_zeros() as i32;
    let mut q = (lead - (p - 1)).max(emin - (p - 1));
    let (mut r, half, sticky) = if q <= x.e {
        debug_assert!(!x.sticky, "an inexact value has bits below the result's");
        (x.m << (x.e - q), false, false)
    } else {
        let s = (q - x.e) as u32;
        let r = x.m.checked_shr(s).unwrap_or(0);
        let half = x.m.checked_shr(s - 1).unwrap_or(0) & 1 == 1;
        let below = match 1u128.checked_shl(s - 1) {
            Some(b) => x.m & (b - 1),
            None => x.m,
        };
        (r, half, x.sticky || below != 0)
    };
    let inexact = half || sticky;
    let up = match dir {
        None => half && (sticky || r & 1 == 1),
        Some(Direction::Zero) => false,
        Some(Direction::Up) => inexact && !x.neg,
        Some(Direction::Down) => inexact && x.neg,
    };
    if up {
        r += 1;
        if r == 1 << p {
            r >>= 1;
            q += 1;
        }
    }
    if r != 0 && q + 127 - r.leading_zeros() as i32 > emax {
        let to_infinity = match dir {
            None => true,
            Some(Direction::Zero) => false,
            Some(Direction::Up) => !x.neg,
            Some(Direction::Down) => x.neg,
        };
        let max = (2.0 - pow2(1 - p)) * pow2(emax);
        return sign * if to_infinity { f64::INFINITY } else { max };
    }
    sign * (r as f64 * pow2(q))
}

/// The exact sum of two exact values without `sticky`; its significand keeps the larger one's
/// leading bit at bit 125, so that a smaller one's bits past the end make it inexact without
/// losing the 55 bits a result needs.
fn sum(a: Exact, b: Exact) -> Exact {
    if a.m == 0 {
        return b;
    }
    if b.m == 0 {
        return a;
    }
    let lead = |x: &Exact| x.e + 127 - x.m.leading_zeros() as i32;
    let (big, small) = if lead(&a) >= lead(&b) { (a, b) } else { (b, a) };
    let big = normalized(big, 125);
    let (m2, lost) = if small.e >= big.e {
        (small.m << (small.e - big.e), false)
    } else {
        let s = (big.e - small.e) as u32;
        let kept = small.m.checked_shr(s).unwrap_or(0);
        (kept, small.m != kept << s.min(127))
    };
    let (neg, m) = if big.neg == small.neg {
        (big.neg, big.m + m2)
    } else if big.m >= m2 {
        // big - (m2 + f) = (big - m2 - 1) + (1 - f): still inexact, one unit lower.
        (big.neg, big.m - m2 - u128::from(lost))
    } else {
        (small.neg, m2 - big.m)
    };
    Exact {
        neg,
        m,
        e: big.e,
        sticky: lost,
    }
}

/// The largest integer whose square is at most `n`.
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = 1u128 << (129 - n.leading_zeros()).div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `op` on `args` (`float`s widened to `double` when `to` is `float`), rounded once to `to` as
/// `dir` says; the `double` that holds the result.
pub fn rounded(op: RoundedOp, to: Scalar, dir: Option<Direction>, args: [f64; 3]) -> f64 {
    let [a, b, c] = args;
    let finite = args[..op.arity()].iter().all(|x| x.is_finite());
    // A sum that is exactly zero is +0, or -0 rounding down, unless both addends are -0.
    let zero_sum = |x: f64, y: f64| {
        if x.is_sign_negative() == y.is_sign_negative() {
            x
        } else if dir == Some(Direction::Down) {
            -0.0
        } else {
            0.0
        }
    };
    match op {
        RoundedOp::Add | RoundedOp::Sub => {
            let b = if op == RoundedOp::Sub { -b } else { b };
            if !finite {
                return a + b;
            }
            let s = sum(exact(a), exact(b));
            if s.m == 0 && !s.sticky {
                return zero_sum(a, b);
            }
            round(s, to, dir)
        }
        RoundedOp::Mul => {
            if !finite || a == 0.0 || b == 0.0 {
                return a * b;
            }
            let (x, y) = (exact(a), exact(b));
            let p = Exact {
                neg: x.neg != y.neg,
                m: x.m * y.m,
                e: x.e + y.e,
                sticky: false,
            };
            round(p, to, dir)
        }
        RoundedOp::Div | RoundedOp::Rcp => {
            let (a, b) = if op == RoundedOp::Rcp {
                (1.0, a)
            } else {
                (a, b)
            };
            if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
                return a / b;
            }
            let (x, y) = (normalized(exact(a), 52), normalized(exact(b), 52));
            let n = x.m << 74;
            let q = Exact {
                neg: x.neg != y.neg,
                m: n / y.m,
                e: x.e - 74 - y.e,
                sticky: n % y.m != 0,
            };
            round(q, to, dir)
        }
        RoundedOp::Sqrt | RoundedOp::Rsqrt => {
            if !finite || a <= 0.0 {
                return match op {
                    RoundedOp::Sqrt => a.sqrt(),
                    _ => 1.0 / a.sqrt(),
                };
            }
            // An even exponent, so that the root of 2^e is exact.
            let mut x = normalized(exact(a), 52);
            if x.e % 2 != 0 {
                x.m <<= 1;
                x.e -= 1;
            }
            let r = if op == RoundedOp::Sqrt {
                let n = x.m << 74;
                let s = isqrt(n);
                Exact {
                    neg: false,
                    m: s,
                    e: (x.e - 74) / 2,
                    sticky: s * s != n,
                }
            } else {
                // 1/sqrt(m 2^e) = sqrt(2^126 / m) 2^(-63 - e/2); floor(sqrt(y)) is
                // floor(sqrt(floor(y))), at least 2^36 since m < 2^54.
                let n = (1u128 << 126) / x.m;
                let s = isqrt(n);
                Exact {
                    neg: false,
                    m: s,
                    e: -63 - x.e / 2,
                    sticky: s * s != n || !(1u128 << 126).is_multiple_of(x.m),
                }
            };
            round(r, to, dir)
        }
        RoundedOp::Scalbn => {
            if !a.is_finite() || a == 0.0 {
                return a;
            }
            // Past 2^±2200 every finite value over- or underflows: the clamp keeps `e` an i32.
            let x = exact(a);
            let n = b.clamp(-2200.0, 2200.0) as i32;
            round(Exact { e: x.e + n, ..x }, to, dir)
        }
        RoundedOp::Fma => {
            if !finite {
                return a.mul_add(b, c);
            }
            if a == 0.0 || b == 0.0 {
                let p = a * b;
                return if c == 0.0 {
                    zero_sum(p, c)
                } else {
                    round(exact(c), to, dir)
                };
            }
            let (x, y) = (exact(a), exact(b));
            let p = Exact {
                neg: x.neg != y.neg,
                m: x.m * y.m,
                e: x.e + y.e,
                sticky: false,
            };
            let s = sum(p, exact(c));
            if s.m == 0 && !s.sticky {
                return zero_sum(if p.neg { -1.0 } else { 1.0 }, c);
            }
            round(s, to, dir)
        }
    }
}
