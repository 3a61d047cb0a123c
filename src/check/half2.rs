//! `half2` and `__nv_bfloat162`: pairs of 16-bit floats, their operators and cuda_fp16.h's paired intrinsics, component by component.
//!
//! A pair is a CUDA vector of two 16-bit components (4 bytes, one access). Its operations act on
//! each half and round each result ([`super::half`]). An operand that is a vector element in
//! memory is loaded once, into temporaries, before the operation: the statements that do so run
//! in an inlined block, as a helper function's body would.

use super::typed::*;
use super::vector::VecValue;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{ArithOp, Math1, Scalar};

type Result<T> = std::result::Result<T, CheckError>;

/// The 16-bit float type a paired intrinsic works on, from its spelling (`__hadd2` serves both;
/// its arguments decide).
fn pair_kind(name: &str) -> Option<Scalar> {
    name.contains("bfloat16").then_some(Scalar::BF16)
}

/// One-argument math of a pair: `h2sqrt` and friends.
fn pair_math(name: &str) -> Option<Math1> {
    Some(match name {
        "h2sqrt" => Math1::Sqrt,
        "h2rsqrt" => Math1::Rsqrt,
        "h2exp" => Math1::Exp,
        "h2exp2" => Math1::Exp2,
        "h2exp10" => Math1::Exp10,
        "h2log" => Math1::Log,
        "h2log2" => Math1::Log2,
        "h2log10" => Math1::Log10,
        "h2sin" => Math1::Sin,
        "h2cos" => Math1::Cos,
        "h2floor" => Math1::Floor,
        "h2ceil" => Math1::Ceil,
        "h2trunc" => Math1::Trunc,
        "h2rint" => Math1::Rint,
        "h2tanh" => Math1::Tanh,
        "__habs2" => Math1::Fabs,
        _ => return None,
    })
}

/// Componentwise operators of two pairs.
fn pair_binary(name: &str) -> Option<BinOp> {
    Some(match name {
        "__hadd2" | "__hadd2_rn" => BinOp::Add,
        "__hsub2" | "__hsub2_rn" => BinOp::Sub,
        "__hmul2" | "__hmul2_rn" => BinOp::Mul,
        "__h2div" => BinOp::Div,
        _ => return None,
    })
}

/// Componentwise comparisons: as a pair of 1.0 / 0.0 (`__heq2`), or as one `bool` true when both
/// hold (`__hbeq2`).
fn pair_compare(name: &str) -> Option<(BinOp, bool)> {
    let (both, op) = match name.strip_prefix("__hb") {
        Some(rest) => (true, rest),
        None => (false, name.strip_prefix("__h")?),
    };
    let op = match op {
        "eq2" => BinOp::Eq,
        "ne2" => BinOp::Ne,
        "lt2" => BinOp::Lt,
        "le2" => BinOp::Le,
        "gt2" => BinOp::Gt,
        "ge2" => BinOp::Ge,
        _ => return None,
    };
    Some((op, both))
}

/// Whether `name` is a paired intrinsic that gives a pair (or a `float2`).
pub(crate) fn is_pair_function(name: &str) -> bool {
    pair_binary(name).is_some()
        || pair_math(name).is_some()
        || pair_compare(name).is_some_and(|(_, both)| !both)
        || matches!(
            name,
            "__hfma2"
                | "__hneg2"
                | "h2rcp"
                | "__hmax2"
                | "__hmin2"
                | "__half2half2"
                | "__bfloat162bfloat162"
                | "__halves2half2"
                | "__halves2bfloat162"
                | "__floats2half2_rn"
                | "__floats2bfloat162_rn"
                | "__float2half2_rn"
                | "__float2bfloat162_rn"
                | "__float22half2_rn"
                | "__float22bfloat162_rn"
                | "__half22float2"
                | "__bfloat1622float2"
                | "__lows2half2"
                | "__highs2half2"
                | "__lows2bfloat162"
                | "__highs2bfloat162"
                | "__low2half2"
                | "__high2half2"
                | "__low2bfloat162"
                | "__high2bfloat162"
                | "__lowhigh2highlow"
        )
}

/// Statements to run first, then the values of the components.
pub(crate) type Staged = (Vec<Stmt>, Vec<Expr>);

impl KernelChecker<'_, '_> {
    /// A vector value's components as expressions, after the statements that load or compute
    /// them.
    pub(crate) fn staged(&mut self, e: &ast::Expr, elem: Scalar, width: u32) -> Result<Staged> {
        Ok(match self.vec_value(e, elem, width)? {
            VecValue::Parts(parts) => (Vec::new(), parts),
            VecValue::Call(call, parts) => (
                vec![Stmt {
                    kind: StmtKind::Eval(call),
                    span: e.span,
                }],
                parts,
            ),
            VecValue::Load(mem, index) => {
                let vars: Vec<VarId> = (0..width)
                    .map(|k| self.new_local(&format!("pair.{k}"), elem, e.span))
                    .collect();
                let parts = super::vector::var_parts(&vars, elem, e.span);
                let load = Stmt {
                    kind: StmtKind::VecLoad { mem, index, vars },
                    span: e.span,
                };
                (vec![load], parts)
            }
        })
    }

    /// [`Self::staged`] of each of `args`: all their statements, then each one's components.
    fn staged_all(
        &mut self,
        args: &[ast::Expr],
        kind: Scalar,
    ) -> Result<(Vec<Stmt>, Vec<Vec<Expr>>)> {
        let mut stmts = Vec::new();
        let mut operands = Vec::new();
        for a in args {
            let (s, p) = self.staged(a, kind, 2)?;
            stmts.extend(s);
            operands.push(p);
        }
        Ok((stmts, operands))
    }

    /// The pair type of an argument written as a pair: its own if it is a pair variable or
    /// element of one, else `kind` (the intrinsic's).
    fn pair_arg_kind(&mut self, e: &ast::Expr, kind: Option<Scalar>) -> Scalar {
        if let Some(kind) = kind {
            return kind;
        }
        match &e.kind {
            // A paired intrinsic's own result (`__hfma2(__hadd2(a, b), ...)`).
            ast::ExprKind::Call { callee, args, .. } if is_pair_function(&callee.name) => {
                return self.pair_gives(&callee.name, args).0;
            }
            // A variable, an element of a `__nv_bfloat162*` (AQLM's `a[i]`), a member.
            _ => {
                if let Ok(Some((elem, 2))) = self.vector_shape(e) {
                    if elem.is_half() {
                        return elem;
                    }
                }
            }
        }
        Scalar::F16
    }

    /// A paired intrinsic or a pair operator (`a + b` on `half2`), as the vector `(elem, width)`
    /// the context wants; `None` when `e` is neither.
    pub(crate) fn pair_value(
        &mut self,
        e: &ast::Expr,
        elem: Scalar,
        width: u32,
    ) -> Option<Result<VecValue>> {
        match &e.kind {
            ast::ExprKind::Binary { op, lhs, rhs, .. }
                if elem.is_half()
                    && width == 2
                    && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) =>
            {
                Some(self.pair_binary_value(*op, lhs, rhs, elem, e.span))
            }
            ast::ExprKind::Unary {
                op: ast::UnOp::Neg,
                operand,
            } if elem.is_half() && width == 2 => {
                Some(self.pair_map(operand, elem, e.span, |this, x| {
                    Ok(Expr {
                        span: x.span,
                        kind: ExprKind::Neg(Box::new(x)),
                        ty: Scalar::F32,
                    })
                    .map(|n| this.round(n, elem))
                }))
            }
            ast::ExprKind::Call { callee, args, .. } if is_pair_function(&callee.name) => {
                Some(self.pair_call(&callee.name, args, (elem, width), e.span))
            }
            ast::ExprKind::Call { callee, args, .. } if elem.is_half() && width == 2 => {
                let op = super::atomics::atomic_op(&callee.name)?;
                Some(self.atomic_pair_value(op, args, (elem, width), e.span))
            }
            _ => None,
        }
    }

    fn pair_binary_value(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        kind: Scalar,
        span: Span,
    ) -> Result<VecValue> {
        let (mut stmts, a) = self.staged(lhs, kind, 2)?;
        let (more, b) = self.staged(rhs, kind, 2)?;
        stmts.extend(more);
        let mut parts = Vec::new();
        for (x, y) in a.into_iter().zip(b) {
            parts.push(self.binary(op, span, x, y)?);
        }
        Ok(self.finish(stmts, parts, span))
    }

    /// `f` of each component of the pair `e`.
    fn pair_map(
        &mut self,
        e: &ast::Expr,
        kind: Scalar,
        span: Span,
        mut f: impl FnMut(&mut Self, Expr) -> Result<Expr>,
    ) -> Result<VecValue> {
        let (stmts, a) = self.staged(e, kind, 2)?;
        let mut parts = Vec::new();
        for x in a {
            parts.push(f(self, x)?);
        }
        Ok(self.finish(stmts, parts, span))
    }

    /// The components, computed after `stmts` in an inlined block. Each is held in a variable of
    /// its own, set in the block: so everything runs before the value is used, and assigning
    /// the pair to a variable it reads (`v = __lowhigh2highlow(v)`) reads it whole first.
    fn finish(&mut self, stmts: Vec<Stmt>, parts: Vec<Expr>, span: Span) -> VecValue {
        if parts.iter().all(|p| matches!(p.kind, ExprKind::Const(_))) && stmts.is_empty() {
            return VecValue::Parts(parts);
        }
        let mut body = stmts;
        let mut held = Vec::new();
        for (k, p) in parts.into_iter().enumerate() {
            let declared = self.half_of(&p).unwrap_or(p.ty);
            let var = self.new_local(&format!("pair.{k}"), declared, span);
            body.push(Stmt {
                kind: StmtKind::Assign { var, value: p },
                span,
            });
            held.push(Expr {
                kind: ExprKind::Var(var),
                ty: declared.promoted(),
                span,
            });
        }
        let call = Expr {
            kind: ExprKind::Inline {
                name: "half2".into(),
                body,
                result: None,
            },
            ty: Scalar::Bool,
            span,
        };
        VecValue::Call(call, held)
    }

    /// The vector type the paired intrinsic `name` gives for `args`: a pair of its first
    /// argument's type (or the type its name says), or two floats.
    pub(crate) fn pair_gives(&mut self, name: &str, args: &[ast::Expr]) -> (Scalar, u32) {
        match name {
            "__half22float2" | "__bfloat1622float2" => (Scalar::F32, 2),
            "__floats2half2_rn" | "__float2half2_rn" | "__float22half2_rn" => (Scalar::F16, 2),
            "__floats2bfloat162_rn" | "__float2bfloat162_rn" | "__float22bfloat162_rn" => {
                (Scalar::BF16, 2)
            }
            "__half2half2" | "__halves2half2" => (Scalar::F16, 2),
            "__bfloat162bfloat162" | "__halves2bfloat162" => (Scalar::BF16, 2),
            _ => {
                let kind = pair_kind(name);
                let first = args
                    .first()
                    .map_or(Scalar::F16, |a| self.pair_arg_kind(a, kind));
                (first, 2)
            }
        }
    }

    /// A paired intrinsic giving a vector, checked against the `(elem, width)` wanted.
    fn pair_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        (elem, width): (Scalar, u32),
        span: Span,
    ) -> Result<VecValue> {
        let first = args
            .first()
            .map_or(Scalar::F16, |a| self.pair_arg_kind(a, pair_kind(name)));
        let gives = self.pair_gives(name, args);
        if gives != (elem, width) {
            return Err(CheckError::Mismatch {
                expected: format!("a `{}`", type_name(elem, width)),
                found: format!("`{name}(...)`, a `{}`", type_name(gives.0, gives.1)),
                span,
                help: None,
            });
        }
        let kind = gives.0;
        let arity = |n: usize| super::intrinsics::arity(name, args.len(), n, n, span);
        if let Some(op) = pair_binary(name) {
            arity(2)?;
            return self.pair_binary_value(op, &args[0], &args[1], kind, span);
        }
        if let Some((op, _)) = pair_compare(name) {
            arity(2)?;
            let (stmts, mut operands) = self.staged_all(&args[..2], kind)?;
            let (b, a) = (operands.pop().expect("two"), operands.pop().expect("two"));
            let mut parts = Vec::new();
            for (x, y) in a.into_iter().zip(b) {
                // 1.0 where it holds, else 0.0: a half from the `bool`.
                let holds = self.binary(op, span, x, y)?;
                parts.push(self.convert(holds, kind));
            }
            return Ok(self.finish(stmts, parts, span));
        }
        if let Some(m) = pair_math(name) {
            arity(1)?;
            return self.pair_map(&args[0], kind, span, |this, x| {
                let r = Expr {
                    kind: ExprKind::Call {
                        func: Func::Math1(m),
                        args: vec![x],
                    },
                    ty: Scalar::F32,
                    span,
                };
                Ok(this.round(r, kind))
            });
        }
        match name {
            "h2rcp" => {
                arity(1)?;
                self.pair_map(&args[0], kind, span, |this, x| {
                    Ok(this.reciprocal(x, kind, span))
                })
            }
            "__hneg2" => {
                arity(1)?;
                self.pair_map(&args[0], kind, span, |this, x| {
                    let n = Expr {
                        span,
                        kind: ExprKind::Neg(Box::new(x)),
                        ty: Scalar::F32,
                    };
                    Ok(this.round(n, kind))
                })
            }
            "__hmax2" | "__hmin2" => {
                arity(2)?;
                let op = if name == "__hmax2" {
                    ArithOp::Max
                } else {
                    ArithOp::Min
                };
                let (stmts, mut operands) = self.staged_all(&args[..2], kind)?;
                let (b, a) = (operands.pop().expect("two"), operands.pop().expect("two"));
                let parts = a
                    .into_iter()
                    .zip(b)
                    .map(|(x, y)| {
                        let m = Expr {
                            kind: ExprKind::Arith {
                                op,
                                lhs: Box::new(x),
                                rhs: Box::new(y),
                            },
                            ty: Scalar::F32,
                            span,
                        };
                        self.round(m, kind)
                    })
                    .collect();
                Ok(self.finish(stmts, parts, span))
            }
            "__hfma2" => {
                arity(3)?;
                let (stmts, operands) = self.staged_all(args, kind)?;
                let mut parts = Vec::new();
                for k in 0..2 {
                    // One rounding of the exact a·b + c, as `__hfma` ([`super::half`]).
                    let fma_args = operands
                        .iter()
                        .map(|p| self.round(p[k].clone(), Scalar::F64))
                        .collect();
                    let fma = Expr {
                        kind: ExprKind::Call {
                            func: Func::Fma,
                            args: fma_args,
                        },
                        ty: Scalar::F64,
                        span,
                    };
                    parts.push(self.round(fma, kind));
                }
                Ok(self.finish(stmts, parts, span))
            }
            // Two scalars.
            "__halves2half2"
            | "__halves2bfloat162"
            | "__floats2half2_rn"
            | "__floats2bfloat162_rn" => {
                arity(2)?;
                let mut parts = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    parts.push(self.convert(v, kind));
                }
                Ok(self.finish(Vec::new(), parts, span))
            }
            // One scalar, twice.
            "__half2half2"
            | "__bfloat162bfloat162"
            | "__float2half2_rn"
            | "__float2bfloat162_rn" => {
                arity(1)?;
                let v = self.expr(&args[0])?;
                let v = self.convert(v, kind);
                let var = self.new_local("pair.both", kind, span);
                let set = Stmt {
                    kind: StmtKind::Assign { var, value: v },
                    span,
                };
                let read = Expr {
                    kind: ExprKind::Var(var),
                    ty: Scalar::F32,
                    span,
                };
                Ok(self.finish(vec![set], vec![read.clone(), read], span))
            }
            // A `float2`, rounded component by component; and back.
            "__float22half2_rn" | "__float22bfloat162_rn" => {
                arity(1)?;
                self.pair_map(&args[0], Scalar::F32, span, |this, x| {
                    Ok(this.convert(x, kind))
                })
            }
            "__half22float2" | "__bfloat1622float2" => {
                arity(1)?;
                self.pair_map(&args[0], first, span, |this, x| {
                    Ok(this.round(x, Scalar::F32))
                })
            }
            // Rearranging halves of one or two pairs.
            _ => {
                let (picks, n): (&[(usize, usize)], usize) = match name {
                    "__lows2half2" | "__lows2bfloat162" => (&[(0, 0), (1, 0)], 2),
                    "__highs2half2" | "__highs2bfloat162" => (&[(0, 1), (1, 1)], 2),
                    "__low2half2" | "__low2bfloat162" => (&[(0, 0), (0, 0)], 1),
                    "__high2half2" | "__high2bfloat162" => (&[(0, 1), (0, 1)], 1),
                    _ => (&[(0, 1), (0, 0)], 1),
                };
                arity(n)?;
                let (stmts, operands) = self.staged_all(&args[..n], kind)?;
                let parts = picks
                    .iter()
                    .map(|&(arg, k)| operands[arg][k].clone())
                    .collect();
                Ok(self.finish(stmts, parts, span))
            }
        }
    }

    /// A paired intrinsic giving a scalar (`__low2half`, `__hbeq2`), or `None` for other names.
    pub(crate) fn pair_scalar_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let (pick, to_float) = match name {
            "__low2half" | "__low2bfloat16" => (Some(0), false),
            "__high2half" | "__high2bfloat16" => (Some(1), false),
            "__low2float" => (Some(0), true),
            "__high2float" => (Some(1), true),
            _ => (None, false),
        };
        let both = pair_compare(name).filter(|&(_, both)| both);
        if pick.is_none() && both.is_none() {
            return None;
        }
        let n = if pick.is_some() { 1 } else { 2 };
        if let Err(e) = super::intrinsics::arity(name, args.len(), n, n, span) {
            return Some(Err(e));
        }
        let kind = self.pair_arg_kind(&args[0], pair_kind(name));
        Some((|| {
            let (mut stmts, operands) = self.staged_all(args, kind)?;
            let (value, declared) = match (pick, both) {
                (Some(k), _) => {
                    let v = operands[0][k].clone();
                    if to_float {
                        (self.round(v, Scalar::F32), Scalar::F32)
                    } else {
                        (v, kind)
                    }
                }
                (None, Some((op, _))) => {
                    let [a, b] = &operands[..] else {
                        unreachable!("two pairs")
                    };
                    let low = self.binary(op, span, a[0].clone(), b[0].clone())?;
                    let high = self.binary(op, span, a[1].clone(), b[1].clone())?;
                    (self.binary(BinOp::And, span, low, high)?, Scalar::Bool)
                }
                (None, None) => unreachable!("returned above"),
            };
            if stmts.is_empty() {
                return Ok(value);
            }
            let result = self.new_local(name, declared, span);
            stmts.push(Stmt {
                kind: StmtKind::Assign { var: result, value },
                span,
            });
            Ok(Expr {
                kind: ExprKind::Inline {
                    name: name.to_string(),
                    body: stmts,
                    result: Some(result),
                },
                ty: declared.promoted(),
                span,
            })
        })())
    }
}
