//! Conversions to a float type rounded down, up or toward zero (`__int2half_rd`, `__float2half_rz`, `__ll2float_ru`).

use super::Scalar;

/// The direction of a conversion's `_rd`, `_ru` or `_rz` suffix (IEEE 754's directed roundings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `_rd`: toward negative infinity.
    Down,
    /// `_ru`: toward positive infinity.
    Up,
    /// `_rz`: toward zero.
    Zero,
}

impl Direction {
    /// The direction a CUDA suffix (`rd`, `ru`, `rz`) names.
    pub fn from_suffix(suffix: &str) -> Option<Direction> {
        match suffix {
            "rd" => Some(Direction::Down),
            "ru" => Some(Direction::Up),
            "rz" => Some(Direction::Zero),
            _ => None,
        }
    }
}

/// A value to convert, held exactly: a 64-bit integer does not always fit a `double`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exact {
    /// Any integer type's value.
    Int(i128),
    /// A `float` or `double` (a 16-bit float is a `float` in a register).
    Float(f64),
}

/// `x` rounded to the float type `to` (`half`, `__nv_bfloat16`, `float` or `double`) in
/// direction `dir`, as the `double` that holds it exactly. Past the largest finite value the
/// result is that value or infinity, as the direction says (IEEE 754: `1e6` is 65504 as a
/// `half` rounded down or toward zero, infinite rounded up); NaN stays NaN; a negative value
/// that rounds to zero is `-0`.
pub fn round_directed(x: Exact, to: Scalar, dir: Direction) -> f64 {
    // Bits of the significand after the leading one, and the smallest and largest normal
    // exponents (IEEE 754 binary16, bfloat16 = binary32's exponents with 7 bits, binary32,
    // binary64).
    let (mant, emin, emax) = match to {
        Scalar::F16 => (10, -14, 15),
        Scalar::BF16 => (7, -126, 127),
        Scalar::F32 => (23, -126, 127),
        Scalar::F64 => (52, -1022, 1023),
        other => unreachable!("round_directed: {other} is not a float type"),
    };
    let max = (2.0 - 2f64.powi(-mant)) * 2f64.powi(emax);
    let r = match x {
        Exact::Float(f) => {
            if !f.is_finite() || f == 0.0 {
                return f;
            }
            // The value of the last significand bit at `f`'s exponent (subnormals share
            // emin's); `f / quantum` is exact, as is rounding it to an integer and scaling back.
            let exp = ((f.to_bits() >> 52) & 0x7ff) as i32 - 1023;
            let quantum = 2f64.powi(exp.max(emin) - mant);
            let s = f / quantum;
            let m = match dir {
                Direction::Down => s.floor(),
                Direction::Up => s.ceil(),
                Direction::Zero => s.trunc(),
            };
            m * quantum
        }
        Exact::Int(n) => {
            // An integer's last significand bit is worth 2^k; the quotient by it, rounded, has
            // at most mant + 2 bits, so the `double` product is exact.
            let bits = 128 - n.unsigned_abs().leading_zeros() as i32;
            let k = (bits - 1 - mant).max(0);
            let q = 1i128 << k;
            let m = match dir {
                Direction::Down => n.div_euclid(q),
                Direction::Up => -(-n).div_euclid(q),
                Direction::Zero => n / q,
            };
            m as f64 * 2f64.powi(k)
        }
    };
    if r > max {
        if dir == Direction::Up {
            f64::INFINITY
        } else {
            max
        }
    } else if r < -max {
        if dir == Direction::Down {
            f64::NEG_INFINITY
        } else {
            -max
        }
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    #[test]
    fn integers_round_to_the_neighbouring_halves() {
        // 2049 lies between the halves 2048 and 2050 (spacing 2 in [2048, 4096)).
        let h = |n, d| round_directed(Exact::Int(n), Scalar::F16, d);
        assert_eq!(
            (h(2049, Down), h(2049, Up), h(2049, Zero)),
            (2048.0, 2050.0, 2048.0)
        );
        assert_eq!(
            (h(-2049, Down), h(-2049, Up), h(-2049, Zero)),
            (-2050.0, -2048.0, -2048.0)
        );
        // 70000 > 65504 = the largest half: down and toward zero stop there, up is infinite.
        assert_eq!((h(70000, Down), h(70000, Up)), (65504.0, f64::INFINITY));
        assert_eq!(
            (h(-70000, Down), h(-70000, Zero)),
            (f64::NEG_INFINITY, -65504.0)
        );
        assert_eq!(h(0, Down).to_bits(), 0);
    }

    #[test]
    fn a_64_bit_integer_is_not_rounded_through_a_double_first() {
        // 2^60 + 1 is 2^60 as a double; rounded up to bfloat16 (8 significant bits) it is the
        // next bfloat16 above 2^60: 2^60 + 2^53.
        let x = Exact::Int((1 << 60) + 1);
        assert_eq!(
            round_directed(x, Scalar::BF16, Up),
            2f64.powi(60) + 2f64.powi(53)
        );
        assert_eq!(round_directed(x, Scalar::BF16, Down), 2f64.powi(60));
    }

    #[test]
    fn tiny_floats_round_to_zero_or_the_smallest_subnormal() {
        // The smallest positive half is 2^-24.
        let f = |x, d| round_directed(Exact::Float(x), Scalar::F16, d);
        assert_eq!(f(1e-10, Up), 2f64.powi(-24));
        assert_eq!(f(1e-10, Down).to_bits(), 0);
        assert_eq!(f(-1e-10, Up).to_bits(), (-0.0f64).to_bits());
        assert_eq!(f(-1e-10, Down), -(2f64.powi(-24)));
        assert!(f(f64::NAN, Up).is_nan());
    }
}
