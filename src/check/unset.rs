//! Scalar locals declared without a value that something may read before anything sets them
//! (`float acc; for (...) acc += x;`): the checker keeps each in memory, whose per-thread
//! written marks report a read of it no thread has set, as for a local array.

use std::collections::HashSet;

use crate::source::Span;
use crate::syntax::ast::{self, ExprKind, Stmt, StmtKind};
use crate::syntax::stmt_mentions;

/// Where each such local of `module` is declared (its name's span): one whose first use reads
/// it ([`reads_first`]) and that no shuffle hands over ([`shuffled`]). The others stay
/// registers, counted as before.
pub(crate) fn unset_locals(module: &ast::Module) -> HashSet<Span> {
    let mut found = HashSet::new();
    let methods = module
        .structs
        .iter()
        .flat_map(|s| s.methods.iter().chain(&s.ctors));
    let functions = module
        .device_fns
        .iter()
        .chain(module.specializations.iter().map(|s| &s.function))
        .chain(methods);
    for body in module
        .kernels
        .iter()
        .map(|k| &k.body)
        .chain(functions.map(|f| &f.body))
    {
        scan(body, &mut found);
    }
    found
}

/// The unset locals declared in `stmts` and in the statements nested in them.
fn scan(stmts: &[Stmt], found: &mut HashSet<Span>) {
    for (k, s) in stmts.iter().enumerate() {
        match &s.kind {
            StmtKind::Decl {
                ty,
                decls,
                of: None,
            } if !ty.is_const && !ty.reference && !ty.pointer => {
                let rest = &stmts[k + 1..];
                for d in decls.iter().filter(|d| is_declared_unset(d)) {
                    if reads_first(rest, &d.name.name) && !shuffled(rest, &d.name.name) {
                        found.insert(d.name.span);
                    }
                }
            }
            StmtKind::Block(inner) => scan(inner, found),
            StmtKind::If { then, els, .. } => {
                scan(std::slice::from_ref(then), found);
                if let Some(e) = els {
                    scan(std::slice::from_ref(e), found);
                }
            }
            StmtKind::For { init, body, .. } => {
                scan(init, found);
                scan(std::slice::from_ref(body), found);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                scan(std::slice::from_ref(body), found)
            }
            StmtKind::RangeFor {
                array,
                class,
                pointer,
                ..
            } => {
                for lowered in [array, class, pointer] {
                    scan(std::slice::from_ref(lowered), found);
                }
            }
            _ => {}
        }
    }
}

/// `T x;`: a name declared without a value, no array, pointer or reference (whether `T` is a
/// scalar, the checker decides).
fn is_declared_unset(d: &ast::Declarator) -> bool {
    d.init.is_none() && d.list.is_none() && d.dims.is_empty() && !d.pointer && !d.reference
}

/// Whether `name` is an argument of a shuffle in `rest`: every lane hands its value over, and
/// only the source lanes' are used (`if (lane == 0) v = ...; v = __shfl_sync(m, v, 0);`), so
/// the other lanes' reads of it unset are no fault.
fn shuffled(rest: &[Stmt], name: &str) -> bool {
    let passed = |callee: &str, args: &[ast::Expr]| {
        callee.contains("shfl") && args.iter().any(|a| a.mentions(name))
    };
    crate::syntax::any_expr_in(rest, |e| match &e.kind {
        ExprKind::Call { callee, args, .. } => passed(&callee.name, args),
        ExprKind::Method { method, args, .. } => passed(&method.name, args),
        _ => false,
    })
}

/// Whether the first use of `name` in `stmts`, in the order they run (into blocks, the branch
/// that names it, a loop's condition and body), reads it. `x = value;` with a value that does
/// not read it sets it; a call it is passed to may set it through a reference (so does not
/// count as a read); `x += v;`, `x++`, `y = x;` and `if (x > 0)` read it.
fn reads_first(stmts: &[Stmt], name: &str) -> bool {
    let Some(s) = stmts.iter().find(|s| stmt_mentions(s, name)) else {
        return false;
    };
    let nested = |s: &Stmt| reads_first(std::slice::from_ref(s), name);
    let is_name = |e: &ast::Expr| matches!(&e.kind, ExprKind::Name(n) if n == name);
    match &s.kind {
        StmtKind::Block(inner) => reads_first(inner, name),
        StmtKind::If {
            cond, then, els, ..
        } => {
            if cond.mentions(name) {
                return read_as_value(cond, name);
            }
            match (stmt_mentions(then, name), els) {
                (true, _) => nested(then),
                (false, Some(e)) => nested(e),
                (false, None) => false,
            }
        }
        StmtKind::For {
            init,
            cond,
            body,
            step,
        } => {
            if init.iter().any(|s| stmt_mentions(s, name)) {
                return reads_first(init, name);
            }
            match cond {
                Some(c) if c.mentions(name) => read_as_value(c, name),
                _ if stmt_mentions(body, name) => nested(body),
                _ => reads_first(step, name),
            }
        }
        StmtKind::While { cond, .. } if cond.mentions(name) => read_as_value(cond, name),
        StmtKind::While { body, .. } => nested(body),
        StmtKind::DoWhile { body, .. } if stmt_mentions(body, name) => nested(body),
        StmtKind::DoWhile { cond, .. } => read_as_value(cond, name),
        StmtKind::Assign {
            target, op, value, ..
        } if is_name(target) => op.is_some() || read_as_value(value, name),
        StmtKind::IncDec { target, .. } if is_name(target) => true,
        StmtKind::Assign { target, value, .. } => {
            read_as_value(value, name) || read_as_value(target, name)
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => read_as_value(e, name),
        StmtKind::Decl { decls, .. } => decls
            .iter()
            .flat_map(|d| &d.init)
            .any(|v| read_as_value(v, name)),
        _ => false,
    }
}

/// Whether `e` reads `name` as a value: where it appears outside every call's arguments
/// (which a reference parameter may set), an address taken, an assignment and a lambda.
fn read_as_value(e: &ast::Expr, name: &str) -> bool {
    let read = |e: &ast::Expr| read_as_value(e, name);
    match &e.kind {
        ExprKind::Name(n) => n == name,
        ExprKind::Unary {
            op: ast::UnOp::AddrOf,
            ..
        } => false,
        ExprKind::Unary { operand: e, .. }
        | ExprKind::Cast { expr: e, .. }
        | ExprKind::Member { base: e, .. }
        | ExprKind::Designated { value: e, .. }
        | ExprKind::Pack(e)
        | ExprKind::IncDec { target: e, .. } => read(e),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Index {
            base: lhs,
            index: rhs,
        } => read(lhs) || read(rhs),
        ExprKind::Ternary { cond, then, els } => read(cond) || read(then) || read(els),
        ExprKind::List(items) | ExprKind::Tuple(items) => items.iter().any(read),
        _ => false,
    }
}
