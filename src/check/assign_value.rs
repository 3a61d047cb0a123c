//! An assignment or a step used as a value (`if ((x = f()) > 0)`, `a = (b = 5)`, `buf[++tos]`
//! of a member in memory): the store runs first, then the expression has the value it stored.

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
        // A compound assignment to memory loads the old value once; the new one is stored
        // and kept, as a statement's `a[i] += v` does.
        let current = self.expr(target)?;
        let declared = match &current.kind {
            ExprKind::Var(v) => self.locals[v.0 as usize].declared,
            ExprKind::Load { mem, .. } => mem.elem,
            _ => self.half_of(&current).unwrap_or(current.ty),
        };
        let v = self.expr(value)?;
        let mut body = Vec::new();
        let new = match op {
            Some(op) => {
                // C++17 sequences the value, side effects included, before the target's read
                // (`x = (out[j] += j++)` reads and writes out[j] with the new j).
                let v = if steps(value) {
                    let first = self.new_local("=", v.ty, span);
                    let ty = v.ty;
                    body.push(Stmt {
                        kind: StmtKind::Assign {
                            var: first,
                            value: v,
                        },
                        span,
                    });
                    Expr {
                        kind: ExprKind::Var(first),
                        ty,
                        span,
                    }
                } else {
                    v
                };
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
        body.extend([
            Stmt {
                kind: StmtKind::Assign {
                    var: held,
                    value: new,
                },
                span,
            },
            Stmt { kind: store, span },
        ]);
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

impl KernelChecker<'_, '_> {
    /// `++t`, `t--`... inside an expression, of a place in memory (`buf[++tos]` of a member
    /// `tos` of a struct that lives in local memory): one load of the old value, one store of
    /// the new one (C's `t = t + 1`, converted to `t`'s type), and the expression is the new
    /// value (`++t`) or the old one (`t++`), kept in a variable as a compiler keeps it in a
    /// register. The target's index is computed for the load and again for the store.
    pub(crate) fn stepped_place(
        &mut self,
        (target, inc, post): (&ast::Expr, bool, bool),
        span: Span,
    ) -> Result<Expr> {
        let refuse = |help: &str| CheckError::Unsupported {
            what: "`++`/`--` of anything but a variable inside an expression".into(),
            span,
            help: Some(help.into()),
        };
        if self.is_pointer(target) || self.is_struct_place(target) || self.is_vector_place(target) {
            return Err(refuse(
                "write the increment as a statement of its own: `a[i]++;`",
            ));
        }
        if steps(target) {
            return Err(refuse(
                "compute the index in a statement of its own, then step the element",
            ));
        }
        let current = self.expr(target)?;
        let declared = match &current.kind {
            ExprKind::Load { mem, .. } => mem.elem,
            _ => {
                return Err(refuse(
                    "write the increment as a statement of its own: `a[i]++;`",
                ))
            }
        };
        let old = self.new_local(if inc { "x++" } else { "x--" }, declared, span);
        let read = |var: VarId| Expr {
            kind: ExprKind::Var(var),
            ty: declared.promoted(),
            span,
        };
        let one = super::expr::constant(crate::value::Value::I32(1), span);
        let op = if inc {
            ast::BinOp::Add
        } else {
            ast::BinOp::Sub
        };
        let stepped = self.binary(op, span, read(old), one)?;
        let stepped = self.convert(stepped, declared);
        let new = self.new_local(if inc { "++x" } else { "--x" }, declared, span);
        let store = self.assign(target, None, span, read(new))?;
        let body = vec![
            Stmt {
                kind: StmtKind::Assign {
                    var: old,
                    value: current,
                },
                span,
            },
            Stmt {
                kind: StmtKind::Assign {
                    var: new,
                    value: stepped,
                },
                span,
            },
            Stmt { kind: store, span },
        ];
        Ok(Expr {
            kind: ExprKind::Inline {
                name: if inc { "++" } else { "--" }.into(),
                body,
                result: Some(if post { old } else { new }),
            },
            ty: declared.promoted(),
            span,
        })
    }
}

/// Whether evaluating `e` may change something: it assigns, increments or calls (`a[i++]`).
/// An assignment's target that does is read apart from the store; a null pointer's offset
/// that does is refused.
pub(crate) fn steps(e: &ast::Expr) -> bool {
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
        ast::ExprKind::Ternary { cond, then, els } => steps(cond) || steps(then) || steps(els),
        _ => false,
    }
}

/// The name of the variable [`held_first`] holds an assignment's value in (no source name
/// can spell it).
const HELD: &str = "(assigned value)";

/// Whether evaluating `e` assigns or steps a variable, calls' arguments included
/// (`src[i++]`, `f(j = 2)`).
fn assigns(e: &ast::Expr) -> bool {
    match &e.kind {
        ast::ExprKind::IncDec { .. } | ast::ExprKind::Assign { .. } => true,
        ast::ExprKind::Call { args, .. } => args.iter().any(assigns),
        ast::ExprKind::Method { args, .. } => args.iter().any(assigns),
        ast::ExprKind::Unary { operand: a, .. }
        | ast::ExprKind::Cast { expr: a, .. }
        | ast::ExprKind::Member { base: a, .. } => assigns(a),
        ast::ExprKind::Index { base, index } => assigns(base) || assigns(index),
        ast::ExprKind::Binary { lhs, rhs, .. } => assigns(lhs) || assigns(rhs),
        ast::ExprKind::Ternary { cond, then, els } => {
            assigns(cond) || assigns(then) || assigns(els)
        }
        ast::ExprKind::List(items) => items.iter().any(assigns),
        _ => false,
    }
}

/// Whether the assignment `target = value` must compute `value` before `target`, as C++17
/// sequences it: the target acts ([`steps`]), or the value steps a variable that a target
/// other than a plain name may read (`dst[offset + i] = src[i++]`); and the value reads
/// something (not a literal, a braced list, a null pointer or an already held value).
pub(crate) fn value_first(target: &ast::Expr, value: &ast::Expr) -> bool {
    let plain = matches!(target.kind, ast::ExprKind::Name(_));
    if !steps(target) && (plain || !assigns(value)) {
        return false;
    }
    let constant = |e: &ast::Expr| {
        matches!(
            e.kind,
            ast::ExprKind::Int { .. }
                | ast::ExprKind::Float { .. }
                | ast::ExprKind::Bool(_)
                | ast::ExprKind::Str(_)
                | ast::ExprKind::List(_)
                | ast::ExprKind::Designated { .. }
        ) || matches!(&e.kind, ast::ExprKind::Name(n) if n == HELD || n == "NULL" || n == "nullptr")
    };
    !constant(value)
}

/// `{ auto held = value; target op= held; }`: the value computed, then the target.
pub(crate) fn held_first(
    (target, op, op_span): (&ast::Expr, Option<ast::BinOp>, Span),
    value: &ast::Expr,
    span: Span,
) -> ast::Stmt {
    let held = ast::Ident {
        name: HELD.into(),
        span: value.span,
    };
    let mut auto = ast::TypeName::named("auto", span);
    auto.base = ast::BaseType::Auto;
    let stmt = |kind| ast::Stmt { kind, span };
    stmt(ast::StmtKind::Block(vec![
        stmt(ast::StmtKind::Decl {
            ty: auto,
            decls: vec![ast::Declarator::plain(held.clone(), Some(value.clone()))],
            of: None,
        }),
        stmt(ast::StmtKind::Assign {
            target: target.clone(),
            op,
            op_span,
            value: ast::Expr {
                kind: ast::ExprKind::Name(held.name),
                span: value.span,
            },
        }),
    ]))
}
