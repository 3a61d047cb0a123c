//! Whether a checked function body can reach its end without a `return`.

use super::typed::{ExprKind, Stmt, StmtKind};

/// Whether control can flow past the last of `body`'s statements. It errs towards yes: a body it
/// cannot prove returns gets a check at its end that only a thread reaching it trips.
pub(super) fn falls_through(body: &[Stmt]) -> bool {
    body.last().is_none_or(stmt_falls_through)
}

fn stmt_falls_through(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return | StmtKind::ReturnFn | StmtKind::Trap | StmtKind::Fault(_) => false,
        StmtKind::Assert(c, _) => !is_constant(c, false),
        StmtKind::If { then, els, .. } => falls_through(then) || falls_through(els),
        StmtKind::Loop { cond, body, .. } => {
            cond.as_ref().is_some_and(|c| !is_constant(c, true)) || breaks(body)
        }
        _ => true,
    }
}

fn is_constant(e: &super::typed::Expr, truth: bool) -> bool {
    matches!(&e.kind, ExprKind::Const(v) if v.is_true() == truth)
}

/// Whether a `break` in `body` leaves the loop `body` belongs to (not one nested in it).
fn breaks(body: &[Stmt]) -> bool {
    body.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { then, els, .. } => breaks(then) || breaks(els),
        _ => false,
    })
}
