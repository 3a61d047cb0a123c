//! Constant evaluation of an inlined call whose arguments are constants (`cdiv(10, 4)` of a `constexpr` helper), for array sizes and template arguments.

// The checker folds an operator of two constants as it builds it, but an inlined function's
// parameters are variables, so `int a[cdiv(N, 4)]` was an inlined body rather than a
// constant. This walks such a body as one thread would run it, with the variables it assigns:
// assignments, `if`, loops (C++14's `while (n > 1) { n >>= 1; r++; }`), `break`, `continue`
// and `return`, over the operators the checker folds anyway. Anything else (memory, built-ins
// such as `threadIdx`, math calls) is not a constant expression here, as C++ says of most of
// it too.

use super::typed::*;
use crate::value::{fold_arith, fold_cmp, ArithOp, Value};
use std::collections::HashMap;

/// Statements run before a body is given up on (C++ compilers bound constant evaluation too).
const MAX_STEPS: u32 = 10_000;

impl super::KernelChecker<'_, '_> {
    /// `e` checked where C++ wants a constant expression (an array size, a template argument):
    /// a call of a helper on constants is the constant it returns.
    pub(crate) fn constant_expr(
        &mut self,
        e: &crate::syntax::ast::Expr,
    ) -> Result<Expr, super::CheckError> {
        Ok(folded(self.expr(e)?))
    }
}

/// `e` as the constant it evaluates to where it is one (`phys_warp()` of a `constexpr` helper),
/// else as it is.
pub(crate) fn folded(mut e: Expr) -> Expr {
    if !matches!(e.kind, ExprKind::Const(_)) {
        if let Some(v) = Eval::default().expr(&e) {
            e.kind = ExprKind::Const(v);
        }
    }
    e
}

/// How a statement list ended.
enum Flow {
    /// It ran to its end.
    Next,
    /// `break` of the innermost loop.
    Break,
    /// `continue` of the innermost loop.
    Continue,
    /// `return` of an inlined function.
    Return,
}

#[derive(Default)]
struct Eval {
    vars: HashMap<VarId, Value>,
    steps: u32,
}

impl Eval {
    fn expr(&mut self, e: &Expr) -> Option<Value> {
        let v = match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Var(v) => *self.vars.get(v)?,
            ExprKind::Neg(a) => {
                let a = self.expr(a)?;
                fold_arith(ArithOp::Mul, Value::I32(-1).cast(a.ty()), a).ok()?
            }
            ExprKind::BitNot(a) => {
                let a = self.expr(a)?;
                fold_arith(ArithOp::Xor, Value::I32(-1).cast(a.ty()), a).ok()?
            }
            ExprKind::Not(a) => Value::Bool(!self.expr(a)?.is_true()),
            ExprKind::Arith { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                fold_arith(*op, a, b).ok()?
            }
            ExprKind::Compare { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                Value::Bool(fold_cmp(*op, a, b))
            }
            ExprKind::Logic { and, lhs, rhs } => {
                let a = self.expr(lhs)?.is_true();
                Value::Bool(if a == *and {
                    self.expr(rhs)?.is_true()
                } else {
                    a
                })
            }
            ExprKind::Cast { to, operand } => self.expr(operand)?.cast(*to),
            ExprKind::Select { cond, then, els } => {
                if self.expr(cond)?.is_true() {
                    self.expr(then)?
                } else {
                    self.expr(els)?
                }
            }
            ExprKind::Inline { body, result, .. } => {
                self.stmts(body)?;
                *self.vars.get(&(*result)?)?
            }
            _ => return None,
        };
        Some(v.cast(e.ty))
    }

    fn stmts(&mut self, body: &[Stmt]) -> Option<Flow> {
        for s in body {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return None;
            }
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    let v = self.expr(value)?;
                    self.vars.insert(*var, v);
                }
                StmtKind::If { cond, then, els } => {
                    let taken = if self.expr(cond)?.is_true() {
                        then
                    } else {
                        els
                    };
                    match self.stmts(taken)? {
                        Flow::Next => {}
                        flow => return Some(flow),
                    }
                }
                StmtKind::Loop {
                    cond,
                    test_first,
                    body,
                    step,
                } => {
                    if let Flow::Return = self.run_loop(cond.as_ref(), *test_first, body, step)? {
                        return Some(Flow::Return);
                    }
                }
                StmtKind::Break => return Some(Flow::Break),
                StmtKind::Continue => return Some(Flow::Continue),
                StmtKind::ReturnFn => return Some(Flow::Return),
                _ => return None,
            }
        }
        Some(Flow::Next)
    }

    /// A loop to its end: `Next` when it stops, `Return` when its body returns.
    fn run_loop(
        &mut self,
        cond: Option<&Expr>,
        test_first: bool,
        body: &[Stmt],
        step: &[Stmt],
    ) -> Option<Flow> {
        let mut first = true;
        loop {
            // An empty body counts too: `while (true) {}` is given up on.
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return None;
            }
            if test_first || !first {
                if let Some(c) = cond {
                    if !self.expr(c)?.is_true() {
                        return Some(Flow::Next);
                    }
                }
            }
            first = false;
            match self.stmts(body)? {
                Flow::Break => return Some(Flow::Next),
                Flow::Return => return Some(Flow::Return),
                Flow::Next | Flow::Continue => {}
            }
            if let Flow::Return = self.stmts(step)? {
                return Some(Flow::Return);
            }
        }
    }
}
