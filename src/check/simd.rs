//! The CUDA Math API's SIMD intrinsics (`__vmaxs4`, `__vadd2`, `__vcmpgtu4`, `__vsadu4`, ...):
//! an `unsigned int` seen as four bytes or two halfwords, each lane computed on its own. They
//! are written out here as shifts, masks and selects on the lanes, so lowering and both engines
//! need nothing new.

use super::expr::constant;
use super::typed::{Expr, ExprKind, Stmt, StmtKind};
use super::{ast, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

/// What one lane computes from its operands `a` and `b` (signed or unsigned as the name says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LaneOp {
    /// `|a|`, wrapping (`-128` stays `0x80`).
    Abs,
    /// `|a|`, saturated to the largest signed value.
    AbsSat,
    /// `|a - b|`.
    AbsDiff,
    /// `a + b`, wrapping.
    Add,
    /// `a + b`, saturated to the lane's range.
    AddSat,
    /// `a - b`, wrapping.
    Sub,
    /// `a - b`, saturated to the lane's range.
    SubSat,
    /// `max(a, b)`.
    Max,
    /// `min(a, b)`.
    Min,
    /// `-a`, wrapping.
    Neg,
    /// `-a`, saturated (`-(-128)` is 127).
    NegSat,
    /// `(a + b + 1) >> 1`: the rounded average of unsigned lanes.
    Avg,
    /// `(a + b) >> 1`: the truncated average of unsigned lanes.
    HalfAdd,
    /// A comparison: all ones (`__vcmp*`) or 1 (`__vset*`) where it holds, else 0.
    Compare(BinOp, bool),
    /// `|a - b|` of every lane, added up (`__vsads4`, `__vsadu4`): one number, not lanes.
    SumAbsDiff,
}

/// A SIMD intrinsic: its lane operation, lane width in bits, signedness and operand count.
fn simd(name: &str) -> Option<(LaneOp, u32, bool, usize)> {
    let rest = name.strip_prefix("__v")?;
    let (stem, bits) = match rest.strip_suffix('4') {
        Some(s) => (s, 8),
        None => (rest.strip_suffix('2')?, 16),
    };
    let compare = |s: &str| -> Option<(BinOp, Option<bool>)> {
        let (op, sign) = match s.get(..2)? {
            "eq" => (BinOp::Eq, None),
            "ne" => (BinOp::Ne, None),
            "ge" => (BinOp::Ge, Some(s)),
            "gt" => (BinOp::Gt, Some(s)),
            "le" => (BinOp::Le, Some(s)),
            "lt" => (BinOp::Lt, Some(s)),
            _ => return None,
        };
        match sign.map(|s| &s[2..]) {
            None if s.len() == 2 => Some((op, None)),
            Some("s") => Some((op, Some(true))),
            Some("u") => Some((op, Some(false))),
            _ => None,
        }
    };
    if let Some(c) = stem
        .strip_prefix("cmp")
        .or_else(|| stem.strip_prefix("set"))
    {
        let (op, signed) = compare(c)?;
        let mask = stem.starts_with("cmp");
        return Some((LaneOp::Compare(op, mask), bits, signed.unwrap_or(false), 2));
    }
    let (op, signed, args) = match stem {
        "abs" => (LaneOp::Abs, true, 1),
        "absss" => (LaneOp::AbsSat, true, 1),
        "absdiffs" => (LaneOp::AbsDiff, true, 2),
        "absdiffu" => (LaneOp::AbsDiff, false, 2),
        "add" => (LaneOp::Add, false, 2),
        "addss" => (LaneOp::AddSat, true, 2),
        "addus" => (LaneOp::AddSat, false, 2),
        "sub" => (LaneOp::Sub, false, 2),
        "subss" => (LaneOp::SubSat, true, 2),
        "subus" => (LaneOp::SubSat, false, 2),
        "maxs" => (LaneOp::Max, true, 2),
        "maxu" => (LaneOp::Max, false, 2),
        "mins" => (LaneOp::Min, true, 2),
        "minu" => (LaneOp::Min, false, 2),
        "neg" => (LaneOp::Neg, true, 1),
        "negss" => (LaneOp::NegSat, true, 1),
        "avgu" => (LaneOp::Avg, false, 2),
        "haddu" => (LaneOp::HalfAdd, false, 2),
        "sads" => (LaneOp::SumAbsDiff, true, 2),
        "sadu" => (LaneOp::SumAbsDiff, false, 2),
        _ => return None,
    };
    Some((op, bits, signed, args))
}

impl KernelChecker<'_, '_> {
    /// `__vmaxs4(a, b)` and the rest of the family; `None` for any other name.
    pub(crate) fn simd_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, CheckError>> {
        let (op, bits, signed, count) = simd(name)?;
        Some(self.simd_lanes(name, (op, bits, signed, count), args, span))
    }

    fn simd_lanes(
        &mut self,
        name: &str,
        (op, bits, signed, count): (LaneOp, u32, bool, usize),
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, CheckError> {
        super::intrinsics::arity(name, args.len(), count, count, span)?;
        // Each operand is computed once, into a local the lanes read.
        let mut body = Vec::new();
        let mut operands = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let value = self.expr(a)?;
            if value.ty.is_float() {
                return Err(CheckError::NotAnInteger {
                    what: format!(
                        "the argument of `{name}` (it works on the bytes of an `unsigned int`)"
                    ),
                    found: value.ty.to_string(),
                    span: value.span,
                    help: Some("reinterpret a float's bits with `__float_as_uint(x)`".into()),
                });
            }
            let value = self.convert(value, Scalar::U32);
            let var = self.new_local(&format!("<{name} operand {}>", k + 1), Scalar::U32, span);
            body.push(assign(var, value, span));
            operands.push(var);
        }
        let lanes = 32 / bits;
        let mut total: Option<Expr> = None;
        for lane in 0..lanes {
            let mut get = |k: usize| -> Result<Expr, CheckError> {
                self.simd_lane(operands[k], lane * bits, bits, signed, span)
            };
            let a = get(0)?;
            let b = if count == 2 { get(1)? } else { int(0, span) };
            let value = self.simd_lane_op(op, bits, signed, a, b, span)?;
            let placed = if op == LaneOp::SumAbsDiff {
                value
            } else {
                let masked = self.binary(BinOp::BitAnd, span, value, int(mask(bits), span))?;
                let masked = self.convert(masked, Scalar::U32);
                self.binary(BinOp::Shl, span, masked, int(i64::from(lane * bits), span))?
            };
            total = Some(match total {
                None => placed,
                Some(t) => {
                    let join = if op == LaneOp::SumAbsDiff {
                        BinOp::Add
                    } else {
                        BinOp::BitOr
                    };
                    self.binary(join, span, t, placed)?
                }
            });
        }
        let total = total.expect("at least two lanes");
        let total = self.convert(total, Scalar::U32);
        let result = self.new_local(&format!("<{name}>"), Scalar::U32, span);
        body.push(assign(result, total, span));
        Ok(Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body,
                result: Some(result),
            },
            ty: Scalar::U32,
            span,
        })
    }

    /// Lane `bits` wide at bit `at` of `var`, as an `int` (sign-extended where `signed`).
    pub(super) fn simd_lane(
        &mut self,
        var: super::typed::VarId,
        at: u32,
        bits: u32,
        signed: bool,
        span: Span,
    ) -> Result<Expr, CheckError> {
        let whole = Expr {
            kind: ExprKind::Var(var),
            ty: Scalar::U32,
            span,
        };
        let shifted = self.binary(BinOp::Shr, span, whole, int(i64::from(at), span))?;
        let field = self.binary(BinOp::BitAnd, span, shifted, int(mask(bits), span))?;
        let field = self.convert(field, Scalar::I32);
        if !signed {
            return Ok(field);
        }
        // (x ^ 0x80) - 0x80 sign-extends a byte.
        let sign = 1i64 << (bits - 1);
        let flipped = self.binary(BinOp::BitXor, span, field, int(sign, span))?;
        self.binary(BinOp::Sub, span, flipped, int(sign, span))
    }

    /// One lane's result from its operands, as an `int` (the caller keeps its low `bits`).
    fn simd_lane_op(
        &mut self,
        op: LaneOp,
        bits: u32,
        signed: bool,
        a: Expr,
        b: Expr,
        span: Span,
    ) -> Result<Expr, CheckError> {
        let (lo, hi) = if signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, mask(bits))
        };
        match op {
            LaneOp::Abs => self.lane_abs(a, span),
            LaneOp::AbsSat => {
                let v = self.lane_abs(a, span)?;
                self.lane_clamp(v, lo, hi, span)
            }
            LaneOp::AbsDiff | LaneOp::SumAbsDiff => {
                let d = self.binary(BinOp::Sub, span, a, b)?;
                self.lane_abs(d, span)
            }
            LaneOp::Add => self.binary(BinOp::Add, span, a, b),
            LaneOp::Sub => self.binary(BinOp::Sub, span, a, b),
            LaneOp::AddSat => {
                let v = self.binary(BinOp::Add, span, a, b)?;
                self.lane_clamp(v, lo, hi, span)
            }
            LaneOp::SubSat => {
                let v = self.binary(BinOp::Sub, span, a, b)?;
                self.lane_clamp(v, lo, hi, span)
            }
            LaneOp::Max | LaneOp::Min => {
                let cmp = if op == LaneOp::Max {
                    BinOp::Gt
                } else {
                    BinOp::Lt
                };
                let c = self.binary(cmp, span, a.clone(), b.clone())?;
                self.ternary(c, a, b, span)
            }
            LaneOp::Neg => self.binary(BinOp::Sub, span, int(0, span), a),
            LaneOp::NegSat => {
                let v = self.binary(BinOp::Sub, span, int(0, span), a)?;
                self.lane_clamp(v, lo, hi, span)
            }
            LaneOp::Avg | LaneOp::HalfAdd => {
                let mut s = self.binary(BinOp::Add, span, a, b)?;
                if op == LaneOp::Avg {
                    s = self.binary(BinOp::Add, span, s, int(1, span))?;
                }
                self.binary(BinOp::Shr, span, s, int(1, span))
            }
            LaneOp::Compare(cmp, all_ones) => {
                let c = self.binary(cmp, span, a, b)?;
                let yes = if all_ones { mask(bits) } else { 1 };
                self.ternary(c, int(yes, span), int(0, span), span)
            }
        }
    }

    fn lane_abs(&mut self, v: Expr, span: Span) -> Result<Expr, CheckError> {
        let negative = self.binary(BinOp::Lt, span, v.clone(), int(0, span))?;
        let negated = self.binary(BinOp::Sub, span, int(0, span), v.clone())?;
        self.ternary(negative, negated, v, span)
    }

    fn lane_clamp(&mut self, v: Expr, lo: i64, hi: i64, span: Span) -> Result<Expr, CheckError> {
        let below = self.binary(BinOp::Lt, span, v.clone(), int(lo, span))?;
        let above = self.binary(BinOp::Gt, span, v.clone(), int(hi, span))?;
        let upper = self.ternary(above, int(hi, span), v, span)?;
        self.ternary(below, int(lo, span), upper, span)
    }
}

/// The low `bits` set.
fn mask(bits: u32) -> i64 {
    (1i64 << bits) - 1
}

/// An `int` constant.
fn int(v: i64, span: Span) -> Expr {
    constant(Value::I32(v as i32), span)
}

fn assign(var: super::typed::VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}
