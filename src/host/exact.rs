//! Exact integer `expect`s.
//!
//! Host arithmetic works in doubles, which hold every integer up to 2^53 and no more: 2^54 + 1
//! reads as 2^54. An `expect` that involves a 64-bit integer array or an integer literal beyond
//! 2^53 is computed here instead, in 128-bit integers, from the elements as they are stored, so
//! `expect out == [18014398509481985]` tells 2^54 + 1 from 2^54. What this cannot compute (a
//! function call, a floating-point operand) goes the ordinary way, whose comparison refuses
//! integers of 2^53 or more rather than round them (`simt::host::inexact_integer`).

use crate::exec::BufData;
use crate::syntax::ast::BinOp;

/// 2^53: the first integer above which doubles skip integers. A double of this magnitude or
/// more may be the rounding of a neighbour, so exact comparisons refuse it.
pub(crate) const EXACT_LIMIT: f64 = 9_007_199_254_740_992.0;

/// Whether a double of an integer comparison may be a rounded integer.
pub(crate) fn beyond(x: f64) -> bool {
    x.abs() >= EXACT_LIMIT
}

/// Whether a double holds the integer exactly (2^63 yes, 2^54 + 1 and 2^64 - 1 no).
pub(crate) fn holds(v: u64) -> bool {
    let f = v as f64;
    // `as u64` saturates: 2^64 - 1 rounds to 2^64, which must not read back as 2^64 - 1.
    f < 18_446_744_073_709_551_616.0 && f as u64 == v
}

/// Whether the array holds 64-bit integers (which doubles cannot all hold).
pub(crate) fn is_wide(data: &BufData) -> bool {
    matches!(data, BufData::I64(_) | BufData::U64(_))
}

/// Element `i` of a 64-bit integer array, exactly; `None` for any other array (whose elements
/// a double holds) or past its end.
pub(crate) fn wide_at(data: &BufData, i: usize) -> Option<i128> {
    match data {
        BufData::I64(v) => v.get(i).map(|&x| i128::from(x)),
        BufData::U64(v) => v.get(i).map(|&x| i128::from(x)),
        _ => None,
    }
}

/// The elements of an integer array, exactly; `None` for a floating-point one.
pub(crate) fn ints(data: &BufData) -> Option<Vec<i128>> {
    fn all<T: Copy + Into<i128>>(v: &[T]) -> Vec<i128> {
        v.iter().map(|&x| x.into()).collect()
    }
    Some(match data {
        BufData::Bool(v) => v.iter().map(|&b| i128::from(b)).collect(),
        BufData::I8(v) => all(v),
        BufData::U8(v) => all(v),
        BufData::I16(v) => all(v),
        BufData::U16(v) => all(v),
        BufData::I32(v) => all(v),
        BufData::U32(v) => all(v),
        BufData::I64(v) => all(v),
        BufData::U64(v) => all(v),
        _ => return None,
    })
}

/// One side of an exact comparison: its elements, or one number standing for every element.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ExactSide {
    /// The elements (one for a number).
    pub vals: Vec<i128>,
    /// Whether it is a number (broadcast to the other side's length).
    pub scalar: bool,
}

impl ExactSide {
    /// A number.
    pub fn number(v: i128) -> ExactSide {
        ExactSide {
            vals: vec![v],
            scalar: true,
        }
    }

    /// `-self`; `None` on overflow.
    pub fn neg(self) -> Option<ExactSide> {
        let vals = self
            .vals
            .iter()
            .map(|x| x.checked_neg())
            .collect::<Option<_>>()?;
        Some(ExactSide { vals, ..self })
    }

    /// `self op other` elementwise, a number standing for every element, with C's truncating
    /// `/` and `%`; `None` where it cannot be exact: overflow of 128 bits, a zero divisor (the
    /// ordinary way reports it), arrays of different lengths, a shift past 127 bits.
    pub fn binary(self, op: BinOp, other: ExactSide) -> Option<ExactSide> {
        let f = |x: i128, y: i128| -> Option<i128> {
            match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Div => x.checked_div(y),
                BinOp::Rem => x.checked_rem(y),
                BinOp::BitAnd => Some(x & y),
                BinOp::BitOr => Some(x | y),
                BinOp::BitXor => Some(x ^ y),
                BinOp::Shl if (0..64).contains(&y) => x.checked_mul(1i128 << y).filter(|_| x >= 0),
                BinOp::Shr if (0..128).contains(&y) => Some(x >> y),
                _ => None,
            }
        };
        let n = match (self.scalar, other.scalar) {
            (true, true) => 1,
            (true, false) => other.vals.len(),
            (false, true) => self.vals.len(),
            (false, false) if self.vals.len() == other.vals.len() => self.vals.len(),
            _ => return None,
        };
        let at = |s: &ExactSide, i: usize| if s.scalar { s.vals[0] } else { s.vals[i] };
        let vals = (0..n)
            .map(|i| f(at(&self, i), at(&other, i)))
            .collect::<Option<_>>()?;
        Some(ExactSide {
            vals,
            scalar: self.scalar && other.scalar,
        })
    }
}

/// `expect l op r` on exact sides, with the messages of the ordinary comparison.
pub(crate) fn compare(op: BinOp, l: &ExactSide, r: &ExactSide) -> Result<(), String> {
    let one = |s: &ExactSide| s.scalar || s.vals.len() == 1;
    let (a, b) = (l.vals.len(), r.vals.len());
    if a != b && !one(l) && !one(r) {
        return Err(format!("the sides have {a} and {b} elements"));
    }
    let n = if one(l) { b } else { a };
    let at = |s: &ExactSide, i: usize| if one(s) { s.vals[0] } else { s.vals[i] };
    let holds = |x: i128, y: i128| match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => unreachable!("host: comparison operators only"),
    };
    let mut failed = (0..n).filter(|&i| !holds(at(l, i), at(r, i)));
    let Some(i) = failed.next() else {
        return Ok(());
    };
    let (x, y) = (at(l, i), at(r, i));
    // torchvision's NMS mask saved by torch as int64 beside the kernel's `unsigned long long`s.
    let signs = if (x - y).abs() == 1i128 << 64 {
        " (the same 64 bits, read as unsigned on one side and signed on the other: give both \
         sides one type, e.g. save the expected array as uint64)"
    } else {
        ""
    };
    if n == 1 {
        return Err(format!("{x} {op} {y} is false{signs}"));
    }
    let count = 1 + failed.count();
    Err(format!(
        "{count} of {n} elements differ; first at index {i}: {x} {op} {y} is false{signs}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_neighbours_beyond_two_to_the_53() {
        let two54 = 1i128 << 54;
        let out = ExactSide {
            vals: vec![(1i128 << 63) + 1, two54 + 1, 3],
            scalar: false,
        };
        // As doubles, 2^54 + 1 and 2^54 are one number; here they differ.
        assert_eq!((two54 as f64) as i128, ((two54 + 1) as f64) as i128);
        let wrong = ExactSide {
            vals: vec![1i128 << 63, two54, 3],
            scalar: false,
        };
        assert_eq!(
            compare(BinOp::Eq, &out, &wrong),
            Err(format!(
                "2 of 3 elements differ; first at index 0: {} == {} is false",
                (1i128 << 63) + 1,
                1i128 << 63
            ))
        );
        // `wrong + 1 == out`, exactly.
        let plus = wrong
            .binary(BinOp::Add, ExactSide::number(1))
            .expect("fits");
        assert_eq!(plus.vals, vec![(1i128 << 63) + 1, two54 + 1, 4]);
        assert_eq!(
            compare(BinOp::Eq, &plus, &out),
            Err("1 of 3 elements differ; first at index 2: 4 == 3 is false".into())
        );
        assert!(holds(1 << 63) && !holds((1 << 54) + 1) && !holds(u64::MAX));
        // 2^63 + 5 as a uint64 and as an int64 (-2^63 + 5) differ by exactly 2^64: said so.
        let unsigned = ExactSide {
            vals: vec![(1i128 << 63) + 5],
            scalar: false,
        };
        let signed = ExactSide {
            vals: vec![-(1i128 << 63) + 5],
            scalar: false,
        };
        let why = compare(BinOp::Eq, &unsigned, &signed).expect_err("differ");
        assert!(why.contains("the same 64 bits"), "{why}");
        assert!(beyond(two54 as f64) && !beyond((two54 / 4) as f64));
        // u64::MAX is 2^64 - 1 exactly: a u64 array reads it so.
        assert_eq!(
            ints(&BufData::U64(vec![u64::MAX])),
            Some(vec![(1i128 << 64) - 1])
        );
        assert_eq!(ints(&BufData::F32(vec![1.0])), None);
        // C's `/` truncates toward zero: -7 / 2 == -3; a zero divisor is not exact.
        let q = ExactSide::number(-7).binary(BinOp::Div, ExactSide::number(2));
        assert_eq!(q, Some(ExactSide::number(-3)));
        assert_eq!(
            ExactSide::number(1).binary(BinOp::Div, ExactSide::number(0)),
            None
        );
    }
}
