//! `__device__` functions that return a reference (`float& at(float4& v, int i)`): a value where read, a place where assigned.

// Read, such a call is a call like any other: its value. Assigned (`at(v, 1) = x;`,
// `at(v, 2) += y;`), it is its pointer form — the same function returning a pointer to what each
// `return` names (`return a[i];` is `return &a[i];`) — dereferenced, which is what a C++
// compiler does with a reference.

use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::syntax::ast::{self, StmtKind, UnOp};
use crate::value::Value;

/// `f` as a function returning a pointer to what its `return` statements name.
fn pointer_form(f: &ast::Function) -> ast::Function {
    let mut f = f.clone();
    f.ret.pointer = true;
    f.ret.reference = false;
    addresses(&mut f.body);
    f
}

/// `return e;` becomes `return &e;` throughout a body (lambdas, being expressions, keep theirs).
fn addresses(body: &mut [ast::Stmt]) {
    for s in body {
        match &mut s.kind {
            StmtKind::Return(Some(e)) => {
                let span = e.span;
                let operand = Box::new(e.clone());
                *e = ast::Expr {
                    kind: ast::ExprKind::Unary {
                        op: UnOp::AddrOf,
                        operand,
                    },
                    span,
                };
            }
            StmtKind::Block(b) => addresses(b),
            StmtKind::If { then, els, .. } => {
                addresses(std::slice::from_mut(then));
                if let Some(els) = els {
                    addresses(std::slice::from_mut(els));
                }
            }
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => addresses(std::slice::from_mut(body)),
            StmtKind::RangeFor { array, class, .. } => {
                addresses(std::slice::from_mut(array));
                addresses(std::slice::from_mut(class));
            }
            _ => {}
        }
    }
}

impl KernelChecker<'_, '_> {
    /// The element a call of a function returning a reference names (`vec_at(v, 1)` as an
    /// assignment's target); `None` when `e` is no such call.
    pub(crate) fn returned_place(
        &mut self,
        e: &ast::Expr,
    ) -> Option<Result<(Mem, Expr), CheckError>> {
        let ast::ExprKind::Call {
            callee,
            targs,
            args,
        } = &e.kind
        else {
            return None;
        };
        let name = super::groups::unqualified(&callee.name);
        let f = match self.overload(name, args) {
            Ok(Some(f)) if f.ret.reference && !f.ret.pointer => f,
            Ok(_) => return None,
            Err(err) => return Some(Err(err)),
        };
        let form = pointer_form(f);
        Some((|| {
            let p = self.call_pointer(&form, targs, args, e.span)?;
            let mem = self.pointee(p.mem, e.span)?;
            let zero = super::expr::constant(Value::I32(0), e.span);
            Ok((mem, self.index_through(p.offset, zero, e.span)?))
        })())
    }
}
