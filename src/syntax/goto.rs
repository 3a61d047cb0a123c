//! Forward `goto`s, read into the structured statements they stand for.
//!
//! A `goto L;` that jumps forward to a label of the block that holds it, or of an enclosing
//! one (`goto end;` out of nested loops), sets a flag of its own; each loop it leaves `break`s
//! on it, and the statements it skips run under `if (!flag)`. Any other `goto` (backward, or
//! into a block) is left for the checker to refuse.

use super::ast::*;
use crate::source::Span;

/// Rewrites the forward `goto`s of `stmts` whose labels `stmts` itself holds.
pub(super) fn structure(stmts: &mut Vec<Stmt>) {
    let mut at = 0;
    while at < stmts.len() {
        if let StmtKind::Label(label) = &stmts[at].kind {
            let label = label.clone();
            if stmts[..at].iter().any(|s| jumps_to(s, &label.name)) {
                let flag = format!("goto {}", label.name);
                let mut before: Vec<Stmt> = stmts.drain(..at).collect();
                leave(&mut before, (&label.name, &flag), false);
                before.insert(0, flag_decl(&flag, label.span));
                at = before.len();
                stmts.splice(0..0, before);
            }
        }
        at += 1;
    }
}

/// Whether `s` holds a `goto label;` (lambdas aside: their bodies are expressions).
fn jumps_to(s: &Stmt, label: &str) -> bool {
    match &s.kind {
        StmtKind::Goto(l) => l.name == label,
        StmtKind::Block(b) => b.iter().any(|s| jumps_to(s, label)),
        StmtKind::If { then, els, .. } => {
            jumps_to(then, label) || els.as_deref().is_some_and(|e| jumps_to(e, label))
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => jumps_to(body, label),
        // Its three readings each hold the body.
        StmtKind::RangeFor { array, .. } => jumps_to(array, label),
        _ => false,
    }
}

/// The statements `stmts` (in a loop, where `in_loop`) with each `goto label` setting `flag`:
/// a loop that holds one is left (`break`) once it is set, and the statements after one run
/// only while it is not.
fn leave(stmts: &mut Vec<Stmt>, names: (&str, &str), in_loop: bool) {
    let Some(k) = stmts.iter().position(|s| jumps_to(s, names.0)) else {
        return;
    };
    rewrite(&mut stmts[k], names, in_loop);
    let span = stmts[k].span;
    let mut rest: Vec<Stmt> = stmts.drain(k + 1..).collect();
    if in_loop {
        stmts.push(if_flag(names.1, true, break_stmt(span), span));
        leave(&mut rest, names, in_loop);
        stmts.extend(rest);
    } else {
        leave(&mut rest, names, in_loop);
        stmts.extend(skipped(rest, names.1, span));
    }
}

/// `stmts`, which a jump that set `flag` skips, under `if (!flag)`: runs of statements in one
/// block, the declarations that do nothing (`int y;`, `typedef short T;`, a `__shared__`
/// array) left where they are so that the names they declare keep their scope; a declaration
/// that does something is guarded with the rest of the list, which C++ lets no jump pass into.
fn skipped(stmts: Vec<Stmt>, flag: &str, span: Span) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut run = Vec::new();
    let flush = |run: &mut Vec<Stmt>, out: &mut Vec<Stmt>| {
        if !run.is_empty() {
            let block = Stmt {
                kind: StmtKind::Block(std::mem::take(run)),
                span,
            };
            out.push(if_flag(flag, false, block, span));
        }
    };
    let mut rest = stmts.into_iter();
    while let Some(s) = rest.next() {
        match &s.kind {
            StmtKind::Decl { .. } if does_nothing(&s) => {
                flush(&mut run, &mut out);
                out.push(s);
            }
            StmtKind::Decl { .. } | StmtKind::Bindings { .. } => {
                run.push(s);
                run.extend(rest.by_ref());
            }
            // A `__shared__` array is the block's, whether or not anything here runs.
            StmtKind::TypeAlias { .. }
            | StmtKind::Shared { .. }
            | StmtKind::Empty
            | StmtKind::Label(_) => {
                flush(&mut run, &mut out);
                out.push(s);
            }
            _ => run.push(s),
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `int y;`, `float* p;`: a declaration of numbers or pointers without a value, which runs
/// nothing (a class's constructor would).
fn does_nothing(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Decl { ty, decls, .. } => {
            !matches!(ty.base, BaseType::Named | BaseType::Auto)
                && decls.iter().all(|d| d.init.is_none() && d.list.is_none())
        }
        _ => false,
    }
}

fn rewrite(s: &mut Stmt, names: (&str, &str), in_loop: bool) {
    let span = s.span;
    match &mut s.kind {
        StmtKind::Goto(l) if l.name == names.0 => {
            let mut jump = vec![set_flag(names.1, span)];
            if in_loop {
                jump.push(break_stmt(span));
            }
            s.kind = StmtKind::Block(jump);
        }
        StmtKind::Block(b) => leave(b, names, in_loop),
        StmtKind::If { then, els, .. } => {
            rewrite(then, names, in_loop);
            if let Some(e) = els {
                rewrite(e, names, in_loop);
            }
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => rewrite(body, names, true),
        StmtKind::RangeFor {
            array,
            class,
            pointer,
            ..
        } => {
            for form in [array, class, pointer] {
                rewrite(form, names, in_loop);
            }
        }
        _ => {}
    }
}

fn name(flag: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(flag.into()),
        span,
    }
}

/// `bool flag = false;`
fn flag_decl(flag: &str, span: Span) -> Stmt {
    let ident = Ident {
        name: flag.into(),
        span,
    };
    let init = Expr {
        kind: ExprKind::Bool(false),
        span,
    };
    Stmt {
        kind: StmtKind::Decl {
            of: None,
            ty: TypeName {
                base: BaseType::Bool,
                base_text: "bool".into(),
                pointer: false,
                reference: false,
                is_const: false,
                span,
            },
            decls: vec![Declarator::plain(ident, Some(init))],
        },
        span,
    }
}

/// `flag = true;`
fn set_flag(flag: &str, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign {
            target: name(flag, span),
            op: None,
            op_span: span,
            value: Expr {
                kind: ExprKind::Bool(true),
                span,
            },
        },
        span,
    }
}

fn break_stmt(span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Break,
        span,
    }
}

/// `if (flag) then` (`set`), or `if (!flag) then`.
fn if_flag(flag: &str, set: bool, then: Stmt, span: Span) -> Stmt {
    let cond = if set {
        name(flag, span)
    } else {
        Expr {
            kind: ExprKind::Unary {
                op: UnOp::Not,
                operand: Box::new(name(flag, span)),
            },
            span,
        }
    };
    Stmt {
        kind: StmtKind::If {
            cond,
            then: Box::new(then),
            els: None,
            constexpr: false,
        },
        span,
    }
}
