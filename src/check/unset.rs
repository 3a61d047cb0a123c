//! Scalar locals declared without a value that something may read before anything sets them
//! (`float acc; for (...) acc += x;`): the checker keeps each in memory, whose per-thread
//! written marks report a read of it no thread has set, as for a local array.

use std::collections::HashSet;

use crate::source::Span;
use crate::syntax::ast::{self, ExprKind, Stmt, StmtKind};
use crate::syntax::stmt_mentions;

/// Where each such local of `module` is declared (its name's span). One the statements after
/// its declaration set with a plain `x = value;` (or a `for (x = 0; ...)`) before any other
/// use stays a register: nothing can read it unset.
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
                for d in decls.iter().filter(|d| is_unset_scalar(d)) {
                    if !set_first(&stmts[k + 1..], &d.name.name) {
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
            _ => {}
        }
    }
}

/// `T x;`: one scalar name, no value, no array, no pointer, no reference.
fn is_unset_scalar(d: &ast::Declarator) -> bool {
    d.init.is_none() && d.list.is_none() && d.dims.is_empty() && !d.pointer && !d.reference
}

/// What the first use of a local does with it.
#[derive(Clone, Copy, PartialEq)]
enum FirstUse {
    /// `x = value;` with a value that does not read it.
    Sets,
    /// `x += v;`, `x++`, `y = x;`, `if (x > 0)`: reads it.
    Reads,
    /// Passes it to a call (which may set it through a reference), or nothing uses it.
    Other,
}

/// Whether something in `rest` may read `name` before anything sets it: its first use, in the
/// order the statements run (into blocks, a branch, a loop's body), reads it.
fn set_first(rest: &[Stmt], name: &str) -> bool {
    first_use(rest, name) != FirstUse::Reads
}

/// The first use of `name` in `stmts`.
fn first_use(stmts: &[Stmt], name: &str) -> FirstUse {
    let Some(s) = stmts.iter().find(|s| stmt_mentions(s, name)) else {
        return FirstUse::Other;
    };
    let nested = |s: &Stmt| first_use(std::slice::from_ref(s), name);
    match &s.kind {
        StmtKind::Block(inner) => first_use(inner, name),
        StmtKind::If {
            cond, then, els, ..
        } => {
            if cond.mentions(name) {
                return in_expr(cond, name);
            }
            match (stmt_mentions(then, name), els) {
                (true, _) => nested(then),
                (false, Some(e)) => nested(e),
                (false, None) => FirstUse::Other,
            }
        }
        StmtKind::For {
            init,
            cond,
            body,
            step,
        } => {
            if init.iter().any(|s| stmt_mentions(s, name)) {
                return first_use(init, name);
            }
            match cond {
                Some(c) if c.mentions(name) => in_expr(c, name),
                _ if stmt_mentions(body, name) => nested(body),
                _ => first_use(step, name),
            }
        }
        StmtKind::While { cond, .. } if cond.mentions(name) => in_expr(cond, name),
        StmtKind::While { body, .. } => nested(body),
        StmtKind::DoWhile { body, .. } if stmt_mentions(body, name) => nested(body),
        StmtKind::DoWhile { cond, .. } => in_expr(cond, name),
        StmtKind::Assign {
            target, op, value, ..
        } if matches!(&target.kind, ExprKind::Name(n) if n == name) => match op {
            Some(_) => FirstUse::Reads,
            None if value.mentions(name) => in_expr(value, name),
            None => FirstUse::Sets,
        },
        StmtKind::IncDec { target, .. } if matches!(&target.kind, ExprKind::Name(n) if n == name) => {
            FirstUse::Reads
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => in_expr(e, name),
        StmtKind::Decl { decls, .. } => {
            let values = decls.iter().flat_map(|d| &d.init);
            match values.into_iter().any(|v| read_as_value(v, name)) {
                true => FirstUse::Reads,
                false => FirstUse::Other,
            }
        }
        StmtKind::Assign { target, value, .. } => {
            match (in_expr(value, name), in_expr(target, name)) {
                (FirstUse::Reads, _) | (_, FirstUse::Reads) => FirstUse::Reads,
                _ => FirstUse::Other,
            }
        }
        _ => FirstUse::Other,
    }
}

/// What expression `e`, which names `name`, does with it: reads it where it appears as a value
/// (outside every call's arguments, which a reference parameter may set, an address taken,
/// an assignment and a lambda).
fn in_expr(e: &ast::Expr, name: &str) -> FirstUse {
    if read_as_value(e, name) {
        FirstUse::Reads
    } else {
        FirstUse::Other
    }
}

/// Whether `e` reads `name` as a value ([`in_expr`]).
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
