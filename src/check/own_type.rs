//! The C++ type of a scalar expression, which deduction, `auto`, `decltype` and `sizeof` see.
//!
//! A typed [`Expr`]'s `ty` is its register type: an `unsigned char` element is read as an `int`
//! and a `__half` as a `float`. C++ deduces and measures the expression's own type
//! ([temp.deduct.call] promotes nothing): `f(p[0])` of a `uint8_t*` is `f<unsigned char>`,
//! `auto c = 'a';` is a `char`, `sizeof(s.a)` of a `uint8_t` member is 1. Arithmetic results
//! have the promoted type (`sizeof(x + 1)` is 4), which is the register type.

use super::typed::{Expr, ExprKind};
use super::{ast, Binding, KernelChecker};
use crate::value::Scalar;

impl KernelChecker<'_, '_> {
    /// The C++ type of the value `typed` (checked from `e`): the declared type of the variable,
    /// element or member it reads, of the function it calls, of the cast it makes, of a `const`
    /// it names, `char` for a character literal (read as a cast to `char`), a 16-bit float for
    /// a 16-bit float operation, and for `c ? a : b` the arms' type where they have the same;
    /// otherwise (arithmetic, comparisons) the register type.
    pub(crate) fn own_type(&self, e: &ast::Expr, typed: &Expr) -> Scalar {
        let own = match (&e.kind, &typed.kind) {
            // A cast names its type, also where it compiles to nothing (`(int)uc`, whose `unsigned
            // char` is already an `int` in its register): bm3d's `L2p2((int)a, (int)b)` deduces
            // `int`.
            (ast::ExprKind::Cast { ty, .. }, _) if !ty.reference && !ty.pointer => {
                super::scalar_of(ty).unwrap_or(typed.ty)
            }
            (ast::ExprKind::Name(n), ExprKind::Const(_)) => match self.lookup(n) {
                Some(Binding::Constant(_, declared)) => declared,
                _ => typed.ty,
            },
            (
                ast::ExprKind::Ternary { then, els, .. },
                ExprKind::Select {
                    then: t, els: f, ..
                },
            ) => {
                let a = self.own_type(then, t);
                if a == self.own_type(els, f) {
                    a
                } else {
                    typed.ty
                }
            }
            _ => self.typed_own_type(typed),
        };
        if own.promoted() == typed.ty {
            own
        } else {
            typed.ty
        }
    }

    /// [`Self::own_type`] of a checked expression whose source is not at hand (a constant then
    /// has its register type).
    fn typed_own_type(&self, e: &Expr) -> Scalar {
        if let Some(half) = self.half_of(e) {
            return half;
        }
        match &e.kind {
            ExprKind::Cast { to, .. } => *to,
            ExprKind::Var(v)
            | ExprKind::Inline {
                result: Some(v), ..
            } => self.locals[v.0 as usize].declared,
            ExprKind::Load { mem, .. }
            | ExprKind::LoadAtStore { mem }
            | ExprKind::Atomic { mem, .. } => mem.elem,
            ExprKind::Texture { returns, .. } => *returns,
            _ => e.ty,
        }
    }
}
