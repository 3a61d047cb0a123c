//! Hopper's DPX intrinsics (`__vimax3_s32`, `__viaddmin_s16x2_relu`, `__vibmax_u32`, ...): the
//! maximum or minimum of two or three integers, of a sum and a third, or of two with which one
//! won, on one 32-bit lane or two 16-bit halves, with an optional ReLU. Written out as selects
//! on the lanes, as the SIMD intrinsics are, so lowering and both engines need nothing new; the
//! CUDA Math API emulates them the same way before sm_90.

use super::memfn::assign;
use super::typed::{Expr, ExprKind, Stmt, VarId};
use super::{ast, expr, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

/// What a DPX intrinsic computes, before the optional ReLU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `__vimax_*(a, b)`, `__vimax3_*(a, b, c)`: of two or three operands.
    Of(usize),
    /// `__viaddmax_*(a, b, c)`: of `a + b` (wrapping in the lane) and `c`.
    SumAnd,
    /// `__vibmax_*(a, b, pred...)`: of `a` and `b`, storing `a >= b` (`a <= b` for min)
    /// through one `bool*` per lane.
    Picked,
}

/// One DPX intrinsic, parsed from its name.
#[derive(Clone, Copy, Debug)]
struct Dpx {
    max: bool,
    shape: Shape,
    relu: bool,
    signed: bool,
    /// 32 for `_s32`/`_u32`, 16 for `_s16x2`/`_u16x2`.
    bits: u32,
}

impl Dpx {
    fn parse(name: &str) -> Option<Dpx> {
        let rest = name.strip_prefix("__vi")?;
        let (rest, relu) = match rest.strip_suffix("_relu") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (stem, lane) = rest.rsplit_once('_')?;
        let (signed, bits) = match lane {
            "s32" => (true, 32),
            "u32" => (false, 32),
            "s16x2" => (true, 16),
            "u16x2" => (false, 16),
            _ => return None,
        };
        let (shape, max) = match stem {
            "max" => (Shape::Of(2), true),
            "min" => (Shape::Of(2), false),
            "max3" => (Shape::Of(3), true),
            "min3" => (Shape::Of(3), false),
            "addmax" => (Shape::SumAnd, true),
            "addmin" => (Shape::SumAnd, false),
            "bmax" => (Shape::Picked, true),
            "bmin" => (Shape::Picked, false),
            _ => return None,
        };
        // The Math API has ReLU forms only of the signed lanes, and none that also picks.
        if relu && (!signed || shape == Shape::Picked) {
            return None;
        }
        Some(Dpx {
            max,
            shape,
            relu,
            signed,
            bits,
        })
    }

    /// The operands that are values (the rest are `bool*` for [`Shape::Picked`]).
    fn values(self) -> usize {
        match self.shape {
            Shape::Of(n) => n,
            Shape::SumAnd => 3,
            Shape::Picked => 2,
        }
    }

    fn lanes(self) -> u32 {
        32 / self.bits
    }

    /// The type of a 32-bit lane's operands and of the result.
    fn scalar(self) -> Scalar {
        match (self.bits, self.signed) {
            (32, true) => Scalar::I32,
            _ => Scalar::U32,
        }
    }
}

impl KernelChecker<'_, '_> {
    /// `__vimax3_s32(a, b, c)` and the rest of the DPX family; `None` for any other name.
    pub(crate) fn dpx_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, CheckError>> {
        let dpx = Dpx::parse(name)?;
        Some(self.dpx(name, dpx, args, span))
    }

    fn dpx(
        &mut self,
        name: &str,
        dpx: Dpx,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, CheckError> {
        let preds = if dpx.shape == Shape::Picked {
            dpx.lanes() as usize
        } else {
            0
        };
        let count = dpx.values() + preds;
        super::intrinsics::arity(name, args.len(), count, count, span)?;
        let ty = dpx.scalar();
        // Each operand is computed once, into a local the lanes read.
        let mut body = Vec::new();
        let mut operands = Vec::new();
        for (k, a) in args[..dpx.values()].iter().enumerate() {
            let value = self.expr(a)?;
            if value.ty.is_float() {
                return Err(CheckError::NotAnInteger {
                    what: format!("the argument of `{name}`"),
                    found: value.ty.to_string(),
                    span: value.span,
                    help: Some("DPX intrinsics compare integers; convert with `(int)x`".into()),
                });
            }
            let value = self.convert(value, ty);
            let var = self.new_local(&format!("<{name} operand {}>", k + 1), ty, span);
            body.push(assign(var, value, span));
            operands.push(var);
        }
        let mut result: Option<Expr> = None;
        for lane in 0..dpx.lanes() {
            let at = lane * dpx.bits;
            let get = |me: &mut Self, k: usize| me.dpx_lane(operands[k], ty, dpx, at, span);
            let (a, b) = (get(self, 0)?, get(self, 1)?);
            let mut value = match dpx.shape {
                Shape::Of(n) => {
                    let two = self.pick(dpx.max, a, b, span)?;
                    if n == 3 {
                        let c = get(self, 2)?;
                        self.pick(dpx.max, two, c, span)?
                    } else {
                        two
                    }
                }
                Shape::SumAnd => {
                    let sum = self.binary(BinOp::Add, span, a, b)?;
                    let sum = self.wrap_lane(sum, dpx, span)?;
                    let c = get(self, 2)?;
                    self.pick(dpx.max, sum, c, span)?
                }
                Shape::Picked => {
                    let cmp = if dpx.max { BinOp::Ge } else { BinOp::Le };
                    let won = self.binary(cmp, span, a.clone(), b.clone())?;
                    // Lane 0 is the low half: its flag goes through the last pointer.
                    let target = &args[args.len() - 1 - lane as usize];
                    let store = self.assign(&expr::out_place(target), None, span, won)?;
                    body.push(Stmt { kind: store, span });
                    self.pick(dpx.max, a, b, span)?
                }
            };
            if dpx.relu {
                value = self.pick(true, value, int(0, span), span)?;
            }
            let placed = if dpx.bits == 32 {
                self.convert(value, ty)
            } else {
                let low = self.binary(BinOp::BitAnd, span, value, int(0xffff, span))?;
                let low = self.convert(low, Scalar::U32);
                self.binary(BinOp::Shl, span, low, int(i64::from(at), span))?
            };
            result = Some(match result {
                None => placed,
                Some(r) => self.binary(BinOp::BitOr, span, r, placed)?,
            });
        }
        let total = self.convert(result.expect("at least one lane"), ty);
        let var = self.new_local(&format!("<{name}>"), ty, span);
        body.push(assign(var, total, span));
        Ok(Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body,
                result: Some(var),
            },
            ty,
            span,
        })
    }

    /// A lane of operand `var`: the variable itself for a 32-bit lane, else the 16 bits at
    /// `at`, sign-extended where signed, as an `int` (the SIMD intrinsics' lane).
    fn dpx_lane(
        &mut self,
        var: VarId,
        ty: Scalar,
        dpx: Dpx,
        at: u32,
        span: Span,
    ) -> Result<Expr, CheckError> {
        if dpx.bits == 32 {
            return Ok(Expr {
                kind: ExprKind::Var(var),
                ty,
                span,
            });
        }
        self.simd_lane(var, at, dpx.bits, dpx.signed, span)
    }

    /// A 16-bit lane's value wrapped to the lane (sign-extended where signed); a 32-bit lane's
    /// arithmetic wraps by itself.
    fn wrap_lane(&mut self, v: Expr, dpx: Dpx, span: Span) -> Result<Expr, CheckError> {
        if dpx.bits == 32 {
            return Ok(self.convert(v, dpx.scalar()));
        }
        let low = self.binary(BinOp::BitAnd, span, v, int(0xffff, span))?;
        if !dpx.signed {
            return Ok(low);
        }
        // (x ^ 0x8000) - 0x8000 sign-extends a halfword.
        let flipped = self.binary(BinOp::BitXor, span, low, int(0x8000, span))?;
        self.binary(BinOp::Sub, span, flipped, int(0x8000, span))
    }

    /// `max(a, b)` or `min(a, b)` as a select.
    fn pick(&mut self, max: bool, a: Expr, b: Expr, span: Span) -> Result<Expr, CheckError> {
        let cmp = if max { BinOp::Gt } else { BinOp::Lt };
        let c = self.binary(cmp, span, a.clone(), b.clone())?;
        self.ternary(c, a, b, span)
    }
}

/// An `int` constant.
fn int(v: i64, span: Span) -> Expr {
    expr::constant(Value::I32(v as i32), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_their_shape_and_lanes() {
        let d = Dpx::parse("__viaddmax_s16x2_relu").expect("a DPX name");
        assert!(d.max && d.relu && d.signed && d.bits == 16 && d.shape == Shape::SumAnd);
        let d = Dpx::parse("__vibmin_u32").expect("a DPX name");
        assert!(!d.max && !d.relu && !d.signed && d.bits == 32 && d.shape == Shape::Picked);
        assert_eq!(
            Dpx::parse("__vimin3_s32").map(|d| d.shape),
            Some(Shape::Of(3))
        );
        // No ReLU of unsigned lanes or of the picking forms; no other lane widths.
        assert!(Dpx::parse("__vimax_u32_relu").is_none());
        assert!(Dpx::parse("__vibmax_s32_relu").is_none());
        assert!(Dpx::parse("__vimax_s8x4").is_none());
    }
}
