//! cuda_fp16.h and cuda_bf16.h: `half` and `__nv_bfloat16` values, whose operations round to 16 bits, and their intrinsics.
//!
//! A 16-bit float is a `float` in a register. An operation on two of them (`a + b`, `__hmul`,
//! `hsqrt`) is the `float` operation rounded back to 16 bits, as the hardware's `add.f16` gives:
//! a `float` holds every product of two halves exactly and rounds a sum, quotient or square root
//! of them so that rounding again to 16 bits is correctly rounded (24 ≥ 2·11 + 2 significand
//! bits; Figueroa, "When is double rounding innocuous?", 1995). A `float` mixed with a `half`
//! stays a `float`. The C++ type of an expression is read from how it was formed
//! ([`KernelChecker::half_of`]), since its register type is `float` either way.

use super::expr::constant;
use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{ArithOp, Math1, Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The 16-bit float type a cuda_fp16.h / cuda_bf16.h name is about, from its spelling.
fn kind_in(name: &str) -> Scalar {
    if name.contains("bfloat16") {
        Scalar::BF16
    } else {
        Scalar::F16
    }
}

/// `hsqrt` and the other one-argument math of cuda_fp16.h (and its `h2` forms' scalar parts),
/// as the `float` function.
fn half_math(name: &str) -> Option<Math1> {
    Some(match name {
        "hsqrt" => Math1::Sqrt,
        "hrsqrt" => Math1::Rsqrt,
        "hexp" => Math1::Exp,
        "hexp2" => Math1::Exp2,
        "hexp10" => Math1::Exp10,
        "hlog" => Math1::Log,
        "hlog2" => Math1::Log2,
        "hlog10" => Math1::Log10,
        "hsin" => Math1::Sin,
        "hcos" => Math1::Cos,
        "htanh" | "htanh_approx" => Math1::Tanh,
        "hfloor" => Math1::Floor,
        "hceil" => Math1::Ceil,
        "htrunc" => Math1::Trunc,
        "hrint" => Math1::Rint,
        "__habs" => Math1::Fabs,
        _ => return None,
    })
}

impl KernelChecker<'_, '_> {
    /// The 16-bit float type `e` has in C++, if it is one: a variable or element declared so,
    /// a conversion to one, or an operation that keeps one.
    pub(crate) fn half_of(&self, e: &Expr) -> Option<Scalar> {
        let half = |t: Scalar| t.is_half().then_some(t);
        match &e.kind {
            ExprKind::Cast { to, .. } | ExprKind::Round { to, .. } => half(*to),
            ExprKind::Call {
                func: Func::View { to, .. },
                ..
            } => half(*to),
            ExprKind::Var(v) => half(self.locals[v.0 as usize].declared),
            ExprKind::Inline {
                result: Some(v), ..
            } => half(self.locals[v.0 as usize].declared),
            ExprKind::Load { mem, .. }
            | ExprKind::LoadAtStore { mem }
            | ExprKind::Atomic { mem, .. } => half(mem.elem),
            ExprKind::Neg(x) => self.half_of(x),
            ExprKind::Shuffle { value, .. } => self.half_of(value),
            ExprKind::Select { then, els, .. } => {
                let t = self.half_of(then)?;
                (self.half_of(els) == Some(t)).then_some(t)
            }
            _ => None,
        }
    }

    /// The 16-bit float type an arithmetic operator on `l` and `r` keeps: both operands are of
    /// it (cuda_fp16.hpp's `operator+(const __half&, const __half&)` and friends).
    pub(crate) fn half_operands(&self, l: &Expr, r: &Expr) -> Option<Scalar> {
        self.half_of(l).filter(|&k| self.half_of(r) == Some(k))
    }

    /// `hrcp(a)`, `a` a 16-bit float of `kind`: `1.0f / a` rounded to it, which is the correctly
    /// rounded reciprocal the CUDA math API documents ("round-to-nearest-even"): a `float`
    /// quotient rounds innocuously (as `__hdiv`), and the hardware's `rcp.approx.f32` (1 ulp)
    /// gives the same 16 bits, since no reciprocal of a half comes within 2 `float` ulps of a
    /// point halfway between two halves (checked for all 2^16 with a C program).
    pub(crate) fn reciprocal(&mut self, a: Expr, kind: Scalar, span: Span) -> Expr {
        let r = Expr {
            kind: ExprKind::Arith {
                op: ArithOp::Div,
                lhs: Box::new(constant(Value::F32(1.0), span)),
                rhs: Box::new(a),
            },
            ty: Scalar::F32,
            span,
        };
        self.round(r, kind)
    }

    /// The last two of `typed`, as the 16-bit float `kind`.
    fn two_halves(&mut self, typed: &mut Vec<Expr>, kind: Scalar) -> (Expr, Expr) {
        let b = typed.pop().expect("two args");
        let a = typed.pop().expect("two args");
        (self.convert(a, kind), self.convert(b, kind))
    }

    /// The right side of `target op= value` where the target is of type `target`: a 16-bit
    /// float target converts it to its own type first (`operator+=(__half&, const __half&)`).
    pub(crate) fn compound_operand(&mut self, target: Scalar, value: Expr) -> Expr {
        if target.is_half() {
            self.convert(value, target)
        } else {
            value
        }
    }

    /// The `float` result of an operation on 16-bit floats, rounded to `kind` by the operation's
    /// own instruction (`kind` = `F32` or `F64`: the value as a plain `float` or, exactly, a
    /// `double`, as the 16-bit unit reads its operands).
    pub(crate) fn round(&mut self, e: Expr, kind: Scalar) -> Expr {
        if let ExprKind::Const(v) = e.kind {
            return constant(v.cast(kind), e.span);
        }
        let span = e.span;
        Expr {
            kind: ExprKind::Round {
                to: kind,
                operand: Box::new(e),
            },
            ty: kind.promoted(),
            span,
        }
    }

    /// A cuda_fp16.h or cuda_bf16.h function on scalars, or `None` when `name` is not one.
    /// `typed` holds the checked arguments.
    pub(crate) fn half_call(
        &mut self,
        name: &str,
        typed: &mut Vec<Expr>,
        op_span: Span,
        span: Span,
    ) -> Option<Result<Expr>> {
        let n = typed.len();
        let arity = |want: usize| super::intrinsics::arity(name, n, want, want, span);
        // The type the arguments share, where the name does not say (`__hadd` has both).
        let shared = |typed: &[Expr], this: &Self| {
            typed
                .iter()
                .find_map(|a| this.half_of(a))
                .unwrap_or_else(|| kind_in(name))
        };
        let result = match name {
            // Constructors and conversions that name their target.
            "half" | "__half" | "__nv_bfloat16" | "nv_bfloat16" | "__float2half"
            | "__double2half" | "__float2bfloat16" | "__double2bfloat16" => {
                let kind = kind_in(name);
                // `half()` is zero, as C++ value-initialisation gives.
                if n == 0 && !name.starts_with("__float2") && !name.starts_with("__double2") {
                    return Some(Ok(self.convert(constant(Value::F32(0.0), span), kind)));
                }
                arity(1).map(|()| {
                    let a = typed.pop().expect("one arg");
                    self.convert(a, kind)
                })
            }
            "__half2float" | "__bfloat162float" => arity(1).map(|()| {
                let a = typed.pop().expect("one arg");
                let kind = kind_in(name);
                let a = self.convert(a, kind);
                self.round(a, Scalar::F32)
            }),
            "__half_as_short"
            | "__half_as_ushort"
            | "__bfloat16_as_short"
            | "__bfloat16_as_ushort"
            | "__short_as_half"
            | "__ushort_as_half"
            | "__short_as_bfloat16"
            | "__ushort_as_bfloat16" => arity(1).map(|()| {
                let kind = kind_in(name);
                let int = if name.contains("ushort") {
                    Scalar::U16
                } else {
                    Scalar::I16
                };
                let (from, to) = if name.ends_with("short") {
                    (kind, int)
                } else {
                    (int, kind)
                };
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, from);
                Expr {
                    kind: ExprKind::Call {
                        func: Func::View { from, to },
                        args: vec![a],
                    },
                    ty: to.promoted(),
                    span,
                }
            }),
            "__hadd" | "__hsub" | "__hmul" | "__hdiv" | "__hadd_rn" | "__hsub_rn" | "__hmul_rn"
            | "__heq" | "__hne" | "__hlt" | "__hle" | "__hgt" | "__hge" => {
                if let Err(e) = arity(2) {
                    return Some(Err(e));
                }
                let kind = shared(typed, self);
                let (a, b) = self.two_halves(typed, kind);
                let op = match name.trim_end_matches("_rn") {
                    "__hadd" => BinOp::Add,
                    "__hsub" => BinOp::Sub,
                    "__hmul" => BinOp::Mul,
                    "__hdiv" => BinOp::Div,
                    "__heq" => BinOp::Eq,
                    "__hne" => BinOp::Ne,
                    "__hlt" => BinOp::Lt,
                    "__hle" => BinOp::Le,
                    "__hgt" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                self.binary(op, op_span, a, b)
            }
            "__hmax" | "__hmin" | "__hmax_nan" | "__hmin_nan" => {
                if let Err(e) = arity(2) {
                    return Some(Err(e));
                }
                let kind = shared(typed, self);
                let (a, b) = self.two_halves(typed, kind);
                let op = if name.starts_with("__hmax") {
                    ArithOp::Max
                } else {
                    ArithOp::Min
                };
                // The larger of two halves is one of them: the conversion back is exact.
                let best = Expr {
                    kind: ExprKind::Arith {
                        op,
                        lhs: Box::new(a.clone()),
                        rhs: Box::new(b.clone()),
                    },
                    ty: Scalar::F32,
                    span,
                };
                let best = self.round(best, kind);
                if !name.ends_with("_nan") {
                    return Some(Ok(best));
                }
                // `_nan`: NaN if either is (their sum is then NaN), else the larger one.
                let result = (|| {
                    let a_nan = self.binary(BinOp::Ne, op_span, a.clone(), a.clone())?;
                    let b_nan = self.binary(BinOp::Ne, op_span, b.clone(), b.clone())?;
                    let either = self.binary(BinOp::Or, op_span, a_nan, b_nan)?;
                    let sum = self.binary(BinOp::Add, op_span, a, b)?;
                    Ok(Expr {
                        kind: ExprKind::Select {
                            cond: Box::new(either),
                            then: Box::new(sum),
                            els: Box::new(best),
                        },
                        ty: Scalar::F32,
                        span,
                    })
                })();
                return Some(result);
            }
            "__hneg" => arity(1).map(|()| {
                let kind = shared(typed, self);
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, kind);
                Expr {
                    kind: ExprKind::Neg(Box::new(a)),
                    ty: Scalar::F32,
                    span,
                }
            }),
            "__hfma" => {
                if let Err(e) = arity(3) {
                    return Some(Err(e));
                }
                let kind = shared(typed, self);
                // One rounding of the exact a·b + c: a `double` holds a·b exactly and rounds
                // the sum once more, innocuously (53 ≥ 2·11 + 2).
                let args: Vec<Expr> = std::mem::take(typed)
                    .into_iter()
                    .map(|a| {
                        let a = self.convert(a, kind);
                        self.round(a, Scalar::F64)
                    })
                    .collect();
                let fma = Expr {
                    kind: ExprKind::Call {
                        func: Func::Fma,
                        args,
                    },
                    ty: Scalar::F64,
                    span,
                };
                Ok(self.round(fma, kind))
            }
            "hrcp" => arity(1).map(|()| {
                let kind = shared(typed, self);
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, kind);
                self.reciprocal(a, kind, span)
            }),
            "__hisnan" => arity(1).and_then(|()| {
                let a = typed.pop().expect("one arg");
                // NaN is the one value unequal to itself.
                self.read_once(name, a, |this, a| {
                    this.binary(BinOp::Ne, op_span, a.clone(), a)
                })
            }),
            // cuda_fp16.h: -1 for -inf, 1 for +inf, else 0.
            "__hisinf" => arity(1).and_then(|()| {
                let a = typed.pop().expect("one arg");
                self.read_once(name, a, |this, a| {
                    let inf = |v: f32| constant(Value::F32(v), span);
                    let pos = this.binary(BinOp::Eq, op_span, a.clone(), inf(f32::INFINITY))?;
                    let neg = this.binary(BinOp::Eq, op_span, a, inf(f32::NEG_INFINITY))?;
                    let int = |v: i32| constant(Value::I32(v), span);
                    let select = |cond: Expr, then: Expr, els: Expr| Expr {
                        kind: ExprKind::Select {
                            cond: Box::new(cond),
                            then: Box::new(then),
                            els: Box::new(els),
                        },
                        ty: Scalar::I32,
                        span,
                    };
                    Ok(select(pos, int(1), select(neg, int(-1), int(0))))
                })
            }),
            _ => {
                let m = half_math(name)?;
                arity(1).map(|()| {
                    let kind = shared(typed, self);
                    let a = typed.pop().expect("one arg");
                    let a = self.convert(a, kind);
                    let r = Expr {
                        kind: ExprKind::Call {
                            func: Func::Math1(m),
                            args: vec![a],
                        },
                        ty: Scalar::F32,
                        span,
                    };
                    self.round(r, kind)
                })
            }
        };
        Some(result)
    }

    /// `f` of `a` read once (into a variable), where `f` uses its operand more than once:
    /// a load in `a` is one load, as in the hardware's code.
    fn read_once(
        &mut self,
        name: &str,
        a: Expr,
        f: impl FnOnce(&mut Self, Expr) -> Result<Expr>,
    ) -> Result<Expr> {
        let mut body = Vec::new();
        let a = self.hold(name, "operand", a, &mut body);
        let value = f(self, a)?;
        if body.is_empty() || matches!(value.kind, ExprKind::Const(_)) {
            return Ok(value);
        }
        Ok(self.after_body(name, body, value))
    }
}
