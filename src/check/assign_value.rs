//! An assignment used as a value, in parentheses (`if ((x = f()) > 0)`, `a = (b = 5)`): the
//! assignment runs first, then the expression reads the target's new value.

use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `(target op= value)` as a value: the new value, converted to the target's type, is held
    /// in a variable of that type, stored to the target, and is the expression's value (as a
    /// compiler keeps it in a register: the target is not read back).
    pub(crate) fn assignment_value(
        &mut self,
        target: &ast::Expr,
        (op, op_span): (Option<ast::BinOp>, Span),
        value: &ast::Expr,
        span: Span,
    ) -> Result<Expr> {
        let refuse = |what: &str, help: &str| CheckError::Unsupported {
            what: format!("{what} used as a value"),
            span,
            help: Some(help.into()),
        };
        if self.is_pointer(target) {
            return Err(refuse(
                "a pointer assignment",
                "assign the pointer in a statement of its own, then use it",
            ));
        }
        if self.is_struct_place(target) || self.is_vector_place(target) {
            return Err(refuse(
                "a struct or vector assignment",
                "assign it in a statement of its own, then use the variable",
            ));
        }
        if steps(target) {
            return Err(refuse(
                "an assignment whose target has `++`/`--`, a call or an assignment in it",
                "compute the index in a statement of its own",
            ));
        }
        let current = self.expr(target)?;
        if op.is_some() && !matches!(current.kind, ExprKind::Var(_)) {
            // Its old value is read at the store's index (`LoadAtStore`); the new one would
            // have to be read back, a load the compiler does not make.
            return Err(refuse(
                "a compound assignment to memory",
                "write `a[i] += v;` as a statement, then read `a[i]`",
            ));
        }
        let declared = match &current.kind {
            ExprKind::Var(v) => self.locals[v.0 as usize].declared,
            ExprKind::Load { mem, .. } => mem.elem,
            _ => self.half_of(&current).unwrap_or(current.ty),
        };
        let v = self.expr(value)?;
        let new = match op {
            Some(op) => {
                let v = self.compound_operand(declared, v);
                self.binary(op, op_span, current, v)?
            }
            None => v,
        };
        let new = self.convert(new, declared);
        let held = self.new_local("=", declared, span);
        let read = Expr {
            kind: ExprKind::Var(held),
            ty: declared.promoted(),
            span,
        };
        let store = self.assign(target, None, op_span, read)?;
        let body = vec![
            Stmt {
                kind: StmtKind::Assign {
                    var: held,
                    value: new,
                },
                span,
            },
            Stmt { kind: store, span },
        ];
        Ok(Expr {
            kind: ExprKind::Inline {
                name: "=".into(),
                body,
                result: Some(held),
            },
            ty: declared.promoted(),
            span,
        })
    }
}

/// Whether an assignment's target may change something when it is evaluated (`a[i++]`, a
/// call): the value's check reads it apart from the store.
fn steps(e: &ast::Expr) -> bool {
    match &e.kind {
        ast::ExprKind::IncDec { .. }
        | ast::ExprKind::Assign { .. }
        | ast::ExprKind::Call { .. }
        | ast::ExprKind::Method { .. } => true,
        ast::ExprKind::Unary { operand: a, .. }
        | ast::ExprKind::Cast { expr: a, .. }
        | ast::ExprKind::Member { base: a, .. } => steps(a),
        ast::ExprKind::Index { base, index } => steps(base) || steps(index),
        ast::ExprKind::Binary { lhs, rhs, .. } => steps(lhs) || steps(rhs),
        _ => false,
    }
}
