//! The type of an unscoped enum without a written type, from its enumerators' values, worked
//! out as C++ types them (C++ [dcl.enum]/5, [conv.prom]/3).

use super::ast::*;

/// The integer types an enumerator's value may have before the enum's closing brace.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Int {
    I32,
    U32,
    I64,
    U64,
}

impl Int {
    fn signed(self) -> bool {
        matches!(self, Int::I32 | Int::I64)
    }

    fn bits(self) -> u32 {
        match self {
            Int::I32 | Int::U32 => 32,
            Int::I64 | Int::U64 => 64,
        }
    }

    /// `v` as a value of this type: wrapped modulo 2^bits, and read as signed where it is.
    fn wrap(self, v: i128) -> i128 {
        let m = v & ((1i128 << self.bits()) - 1);
        if self.signed() && m >= 1i128 << (self.bits() - 1) {
            m - (1i128 << self.bits())
        } else {
            m
        }
    }

    fn holds(self, v: i128) -> bool {
        self.wrap(v) == v
    }

    /// Of a literal (C++ [lex.icon]: the first type that holds it; an unsuffixed hexadecimal
    /// or octal one may be unsigned).
    fn of_literal(value: u64, unsigned: bool, long: bool, hex: bool) -> Int {
        let v = i128::from(value);
        let order: &[Int] = match (unsigned, long, hex) {
            (true, false, _) => &[Int::U32, Int::U64],
            (true, true, _) => &[Int::U64],
            (false, false, false) => &[Int::I32, Int::I64],
            (false, false, true) => &[Int::I32, Int::U32, Int::I64, Int::U64],
            (false, true, false) => &[Int::I64],
            (false, true, true) => &[Int::I64, Int::U64],
        };
        order
            .iter()
            .copied()
            .find(|t| t.holds(v))
            .unwrap_or(Int::U64)
    }

    /// The type the usual arithmetic conversions give two operands (both promoted to at least
    /// `int`).
    fn common(a: Int, b: Int) -> Int {
        let (wide, narrow) = if a.bits() >= b.bits() { (a, b) } else { (b, a) };
        if wide.bits() > narrow.bits() {
            wide
        } else if !a.signed() || !b.signed() {
            if wide.bits() == 32 {
                Int::U32
            } else {
                Int::U64
            }
        } else {
            wide
        }
    }

    fn of_type(t: &TypeName) -> Option<Int> {
        if t.pointer {
            return None;
        }
        Some(match t.base {
            BaseType::Bool | BaseType::I8 | BaseType::U8 | BaseType::I16 | BaseType::U16 => {
                Int::I32
            }
            BaseType::I32 => Int::I32,
            BaseType::U32 => Int::U32,
            BaseType::I64 => Int::I64,
            BaseType::U64 => Int::U64,
            _ => return None,
        })
    }
}

/// What an enumerator's initialiser evaluates to, with its type; `None` for anything but
/// literals, the enum's enumerators before it, casts to integer types and integer operators.
fn value(e: &Expr, before: &[(String, i128, Int)]) -> Option<(i128, Int)> {
    match &e.kind {
        ExprKind::Int {
            value,
            unsigned,
            long,
            hex,
        } => Some((
            i128::from(*value),
            Int::of_literal(*value, *unsigned, *long, *hex),
        )),
        ExprKind::Name(n) => before
            .iter()
            .rev()
            .find(|(name, ..)| name == n)
            .map(|&(_, v, t)| (v, t)),
        ExprKind::Cast { ty, expr } => {
            let t = Int::of_type(ty)?;
            let (v, _) = value(expr, before)?;
            Some((t.wrap(v), t))
        }
        ExprKind::Unary { op, operand } => {
            let (v, t) = value(operand, before)?;
            match op {
                UnOp::Neg => Some((t.wrap(-v), t)),
                UnOp::Plus => Some((v, t)),
                UnOp::BitNot => Some((t.wrap(!v), t)),
                _ => None,
            }
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let (a, ta) = value(lhs, before)?;
            let (b, tb) = value(rhs, before)?;
            // A shift has its left operand's type; the others convert both operands.
            let shift = matches!(op, BinOp::Shl | BinOp::Shr);
            let t = if shift { ta } else { Int::common(ta, tb) };
            let (a, b) = if shift {
                (a, b)
            } else {
                (t.wrap(a), t.wrap(b))
            };
            let v = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div if b != 0 => a / b,
                BinOp::Rem if b != 0 => a % b,
                BinOp::Shl if (0..i128::from(t.bits())).contains(&b) => a << b,
                BinOp::Shr if (0..i128::from(t.bits())).contains(&b) => a >> b,
                BinOp::BitOr => a | b,
                BinOp::BitAnd => a & b,
                BinOp::BitXor => a ^ b,
                _ => return None,
            };
            Some((t.wrap(v), t))
        }
        _ => None,
    }
}

/// For an unscoped enum without a written type whose enumerators' values do not all fit in
/// `int`: the type it promotes to, the first of `unsigned int`, `long long`, `unsigned long
/// long` that holds every value (C++ [conv.prom]/3, g++'s choices checked with
/// `std::underlying_type`), and each enumerator's value (an implicit one is the one before
/// plus one, which never wraps: [dcl.enum]/5). `None` where they fit in `int`, or where some
/// value is not worked out here (the enum then stays `int`).
pub(super) fn wide_enum(consts: &[GlobalConst]) -> Option<(&'static str, Vec<i128>)> {
    let mut before: Vec<(String, i128, Int)> = Vec::new();
    let mut values = Vec::new();
    for c in consts {
        // `prev + 1` as the builder writes an implicit enumerator: its value is one more.
        let implicit = match &c.value.kind {
            ExprKind::Binary {
                op: BinOp::Add,
                rhs,
                op_span,
                ..
            } if *op_span == c.name.span && matches!(rhs.kind, ExprKind::Int { value: 1, .. }) => {
                before.last().map(|&(_, v, t)| {
                    let next = v + 1;
                    let t = [t, Int::I64, Int::U64]
                        .into_iter()
                        .find(|t| t.holds(next))
                        .unwrap_or(Int::U64);
                    (next, t)
                })
            }
            _ => None,
        };
        let (v, t) = match implicit {
            Some(found) => found,
            None => value(&c.value, &before)?,
        };
        let own = c.name.name.rsplit("::").next().unwrap_or(&c.name.name);
        before.push((own.to_string(), v, t));
        values.push(v);
    }
    let (low, high) = (*values.iter().min()?, *values.iter().max()?);
    let fits = |t: Int| Int::holds(t, low) && Int::holds(t, high);
    let wide = if fits(Int::I32) {
        return None;
    } else if low >= 0 && fits(Int::U32) {
        "unsigned int"
    } else if fits(Int::I64) {
        "long long"
    } else if low >= 0 {
        "unsigned long long"
    } else {
        return None;
    };
    Some((wide, values))
}
