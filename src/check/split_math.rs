//! `frexpf(x, &e)` and `modff(x, &ip)`: math that returns one part and stores the other.

use super::expr::out_place;
use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{Math1, Scalar};

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `frexpf(x, p)` (`frexp`, and C++'s `frexp(float, int*)`) and `modff(x, p)` (`modf`): `x`
    /// once into a temporary, `*p` its exponent (an `int`) or integral part (`truncf`, of `x`'s
    /// type), then the mantissa or fractional part as the value. `None` for another name.
    pub(crate) fn split_math(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let frexp = match name {
            "frexpf" | "frexp" => true,
            "modff" | "modf" => false,
            _ => return None,
        };
        Some((|| {
            super::intrinsics::arity(name, args.len(), 2, 2, span)?;
            let x = self.expr(&args[0])?;
            let pointee = self.pointer(&args[1])?.mem.map(|m| (m.elem, m.width));
            // `frexpf`, `modff`; `modf` ends in `f` too but is the `double` form. C++'s
            // `modf(float, float*)` is the one a `float*` fits, whatever `x` is (pytorch3d's
            // `std::modf(x * 0.5 - off, &f)` of a `double` `x`): the overload follows the pointer.
            let ty = match pointee {
                Some((p @ (Scalar::F32 | Scalar::F64), 1)) if name == "modf" => p,
                _ if matches!(name, "frexpf" | "modff") || x.ty == Scalar::F32 => Scalar::F32,
                _ => Scalar::F64,
            };
            let stored = if frexp { Scalar::I32 } else { ty };
            if pointee != Some((stored, 1)) {
                let c = |s: Scalar| s.c_name();
                return Err(CheckError::Mismatch {
                    expected: format!(
                        "a pointer to `{}` for the second argument of `{name}`",
                        c(stored)
                    ),
                    found: pointee.map_or_else(
                        || "no pointer to one element".into(),
                        |(elem, _)| format!("a pointer to `{}`", c(elem)),
                    ),
                    span: args[1].span,
                    help: Some(format!(
                        "pass the address of a variable of type `{}`: `{name}(x, &v)`",
                        c(stored)
                    )),
                });
            }
            let x = self.convert(x, ty);
            let mut body = Vec::new();
            let t = self.new_local(&format!("{name}()"), ty, span);
            body.push(Stmt {
                kind: StmtKind::Assign { var: t, value: x },
                span,
            });
            let var = |ty| Expr {
                kind: ExprKind::Var(t),
                ty,
                span,
            };
            let (part, value) = if frexp {
                (Math1::FrexpExp, Math1::FrexpMant)
            } else {
                (Math1::Trunc, Math1::ModfFrac)
            };
            let part = self.math1(part, ty, var(ty), span);
            let part = self.convert(part, stored);
            body.push(Stmt {
                kind: self.assign(&out_place(&args[1]), None, span, part)?,
                span,
            });
            let value = self.math1(value, ty, var(ty), span);
            Ok(self.after_body(name, body, value))
        })())
    }

    /// `f(a)` of one-argument math on a float of type `ty`.
    fn math1(&mut self, f: Math1, ty: Scalar, a: Expr, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Call {
                func: Func::Math1(f),
                args: vec![a],
            },
            ty,
            span,
        }
    }
}
