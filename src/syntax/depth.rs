//! Walking a syntax tree without recursion: how deeply it nests, which names are assigned, have
//! their address taken or appear at all, which calls name variables, and which types a name is cast to.
//!
//! Long operator chains such as `a + b + c + …` are left-nested trees, one level per operator,
//! and pest builds them without recursing; every later phase does recurse over them. Measuring
//! with an explicit stack lets the parser refuse a tree deeper than [`MAX_DEPTH`] before any
//! recursive code sees it.

use std::collections::HashSet;

use super::ast::{Expr, ExprKind, HostStmt, Module, SeqItem, Stmt, StmtKind, UnOp};
use crate::source::Span;

/// Most nesting levels of statements and expressions (an operator chain counts one per operator).
pub const MAX_DEPTH: usize = 1000;

enum Node<'a> {
    Stmt(&'a Stmt),
    Expr(&'a Expr),
}

/// The span of the first node nested deeper than [`MAX_DEPTH`], if any.
pub(crate) fn too_deep_module(m: &Module) -> Option<Span> {
    let mut todo: Vec<(Node<'_>, usize)> = Vec::new();
    for c in &m.consts {
        todo.push((Node::Expr(&c.value), 1));
    }
    for k in &m.kernels {
        todo.extend(k.body.iter().map(|s| (Node::Stmt(s), 1)));
    }
    for f in &m.device_fns {
        todo.extend(f.body.iter().map(|s| (Node::Stmt(s), 1)));
    }
    let in_sequences = m.sequences.iter().flat_map(|q| {
        q.items.iter().flat_map(|i| match i {
            SeqItem::Launch(l) => l.stmts.iter().collect::<Vec<_>>(),
            SeqItem::Stmt(s) => vec![s],
        })
    });
    let sections = m.launches.iter().flat_map(|l| &l.stmts);
    for s in sections.chain(in_sequences) {
        match s {
            HostStmt::Assign { value, .. } => todo.push((Node::Expr(value), 1)),
            HostStmt::Expect(e) => todo.push((Node::Expr(e), 1)),
            HostStmt::Cooperative(_) => {}
        }
    }
    walk(todo, |_, depth| depth > MAX_DEPTH)
}

/// The span of the first node of `e` nested deeper than [`MAX_DEPTH`], if any.
pub(crate) fn too_deep_expr(e: &Expr) -> Option<Span> {
    walk(vec![(Node::Expr(e), 1)], |_, depth| depth > MAX_DEPTH)
}

/// The names a body takes the address of (`&v`, or of a member: `&s.b`), shadowing ignored.
pub fn addressed_names(body: &[Stmt]) -> HashSet<&str> {
    let mut names = HashSet::new();
    walk(
        body.iter().map(|s| (Node::Stmt(s), 1)).collect(),
        |node, _| {
            if let Node::Expr(Expr {
                kind:
                    ExprKind::Unary {
                        op: UnOp::AddrOf,
                        operand,
                    },
                ..
            }) = node
            {
                // `&x`, and `&s.b` / `&q.y`, whose struct or vector must have an address too.
                let mut root = operand.as_ref();
                while let ExprKind::Member { base, .. } = &root.kind {
                    root = base;
                }
                if let ExprKind::Name(n) = &root.kind {
                    names.insert(n.as_str());
                }
            }
            false
        },
    );
    names
}

/// The names a body assigns anywhere (`x = ...`, `x += ...`, `x++`, also inside an expression:
/// `return *p++;`, `while ((q = next(q)))`), shadowing ignored.
pub fn assigned_names(body: &[Stmt]) -> HashSet<&str> {
    let mut names = HashSet::new();
    walk(
        body.iter().map(|s| (Node::Stmt(s), 1)).collect(),
        |node, _| {
            let target: &Expr = match node {
                Node::Stmt(Stmt {
                    kind: StmtKind::Assign { target, .. } | StmtKind::IncDec { target, .. },
                    ..
                }) => target,
                Node::Expr(Expr {
                    kind: ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. },
                    ..
                }) => target,
                _ => return false,
            };
            if let ExprKind::Name(n) = &target.kind {
                names.insert(n.as_str());
            }
            false
        },
    );
    names
}

/// Whether statement `s` names `name` anywhere (shadowing ignored).
pub fn stmt_mentions(s: &Stmt, name: &str) -> bool {
    walk(
        vec![(Node::Stmt(s), 1)],
        |node, _| matches!(node, Node::Expr(Expr { kind: ExprKind::Name(n), .. }) if n == name),
    )
    .is_some()
}

/// Whether any expression of `body` is one `f` picks.
pub fn any_expr_in(body: &[Stmt], mut f: impl FnMut(&Expr) -> bool) -> bool {
    walk(
        body.iter().map(|s| (Node::Stmt(s), 1)).collect(),
        |node, _| match node {
            Node::Expr(x) => f(x),
            Node::Stmt(_) => false,
        },
    )
    .is_some()
}

/// Whether `e` or any expression inside it is one `f` picks.
pub fn any_subexpr(e: &Expr, mut f: impl FnMut(&Expr) -> bool) -> bool {
    walk(vec![(Node::Expr(e), 1)], |node, _| match node {
        Node::Expr(x) => f(x),
        Node::Stmt(_) => false,
    })
    .is_some()
}

/// The calls in a body whose arguments include a bare name: the callee's name and the arguments.
pub fn calls_with_names(body: &[Stmt]) -> Vec<(&str, &[Expr])> {
    named_calls(body, false)
}

/// The member function calls in a body whose arguments include a bare name: the member
/// function's name and the arguments.
pub fn method_calls_with_names(body: &[Stmt]) -> Vec<(&str, &[Expr])> {
    named_calls(body, true)
}

/// The calls (`f(...)`), or the member function calls (`o.f(...)`, `methods`), of a body whose
/// arguments include a bare name.
fn named_calls(body: &[Stmt], methods: bool) -> Vec<(&str, &[Expr])> {
    let mut found = Vec::new();
    walk(
        body.iter().map(|s| (Node::Stmt(s), 1)).collect(),
        |node, _| {
            let call = match node {
                Node::Expr(Expr {
                    kind: ExprKind::Call { callee, args, .. },
                    ..
                }) if !methods => Some((callee.name.as_str(), args.as_slice())),
                Node::Expr(Expr {
                    kind: ExprKind::Method { method, args, .. },
                    ..
                }) if methods => Some((method.name.as_str(), args.as_slice())),
                _ => None,
            };
            if let Some((name, args)) = call {
                if args.iter().any(|a| matches!(a.kind, ExprKind::Name(_))) {
                    found.push((name, args));
                }
            }
            false
        },
    );
    found
}

/// `p`, `p.x` or `p.a.x`: a name or a member of one, as text.
fn member_path(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(n.clone()),
        ExprKind::Member { base, field } => Some(format!("{}.{}", member_path(base)?, field.name)),
        _ => None,
    }
}

/// The pointer types a body casts `name` to (`(float*)vy`, `reinterpret_cast<float*>(p.x)`
/// for the member path `p.x`), in the order written.
pub fn casts_of<'a>(body: &'a [Stmt], name: &str) -> Vec<&'a super::ast::TypeName> {
    let mut found = Vec::new();
    walk(
        body.iter().map(|s| (Node::Stmt(s), 1)).collect(),
        |node, _| {
            if let Node::Expr(Expr {
                kind: ExprKind::Cast { ty, expr },
                ..
            }) = node
            {
                if ty.pointer && member_path(expr).is_some_and(|p| p == name) {
                    found.push(ty);
                }
            }
            false
        },
    );
    found.sort_by_key(|t| t.span.start);
    found
}

/// Visits every node depth first; the span of the first node for which `stop` holds, if any.
fn walk<'a>(
    mut todo: Vec<(Node<'a>, usize)>,
    mut stop: impl FnMut(&Node<'a>, usize) -> bool,
) -> Option<Span> {
    while let Some((node, depth)) = todo.pop() {
        let below = depth + 1;
        match node {
            Node::Stmt(s) => {
                if stop(&node, depth) {
                    return Some(s.span);
                }
                let expr = |e| (Node::Expr(e), below);
                match &s.kind {
                    StmtKind::Block(stmts) => {
                        todo.extend(stmts.iter().map(|s| (Node::Stmt(s), below)))
                    }
                    StmtKind::Decl { decls, of, .. } => {
                        todo.extend(of.as_deref().map(expr));
                        for d in decls {
                            todo.extend(d.dims.iter().flatten().map(expr));
                            todo.extend(d.rows.iter().map(expr));
                            todo.extend(d.init.iter().map(expr));
                            todo.extend(d.list.iter().flat_map(|(l, _)| l).map(expr));
                        }
                    }
                    StmtKind::Shared { dims, .. } => todo.extend(dims.iter().flatten().map(expr)),
                    StmtKind::Bindings { init, .. } => todo.push(expr(init)),
                    StmtKind::Assign { target, value, .. } => {
                        todo.push(expr(target));
                        todo.push(expr(value));
                    }
                    StmtKind::IncDec { target, .. } => todo.push(expr(target)),
                    StmtKind::Expr(e) => todo.push(expr(e)),
                    StmtKind::If {
                        cond, then, els, ..
                    } => {
                        todo.push(expr(cond));
                        todo.push((Node::Stmt(then), below));
                        todo.extend(els.iter().map(|e| (Node::Stmt(e), below)));
                    }
                    StmtKind::For {
                        init,
                        cond,
                        step,
                        body,
                    } => {
                        todo.extend(init.iter().chain(step).map(|s| (Node::Stmt(s), below)));
                        todo.extend(cond.iter().map(expr));
                        todo.push((Node::Stmt(body), below));
                    }
                    StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                        todo.push(expr(cond));
                        todo.push((Node::Stmt(body), below));
                    }
                    StmtKind::RangeFor {
                        array,
                        class,
                        pointer,
                        ..
                    } => {
                        todo.push((Node::Stmt(array), below));
                        todo.push((Node::Stmt(class), below));
                        todo.push((Node::Stmt(pointer), below));
                    }
                    StmtKind::Return(value) => todo.extend(value.iter().map(expr)),
                    StmtKind::Delete { ptr, .. } => todo.push(expr(ptr)),
                    StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Unsupported { .. }
                    | StmtKind::Empty
                    | StmtKind::Goto(_)
                    | StmtKind::Label(_)
                    | StmtKind::TypeAlias { .. } => {}
                }
            }
            Node::Expr(e) => {
                if stop(&node, depth) {
                    return Some(e.span);
                }
                let sub = |e| (Node::Expr(e), below);
                match &e.kind {
                    ExprKind::Int { .. }
                    | ExprKind::Float { .. }
                    | ExprKind::Bool(_)
                    | ExprKind::Str(_)
                    | ExprKind::SizeOfType(_)
                    | ExprKind::SizeOfPack(_)
                    | ExprKind::Name(_) => {}
                    ExprKind::Unary { operand: a, .. }
                    | ExprKind::Designated { value: a, .. }
                    | ExprKind::Cast { expr: a, .. }
                    | ExprKind::Member { base: a, .. }
                    | ExprKind::SizeOfExpr(a)
                    | ExprKind::Pack(a)
                    | ExprKind::IncDec { target: a, .. } => todo.push(sub(a)),
                    ExprKind::Binary { lhs, rhs, .. }
                    | ExprKind::Assign {
                        target: lhs,
                        value: rhs,
                        ..
                    } => {
                        todo.push(sub(lhs));
                        todo.push(sub(rhs));
                    }
                    ExprKind::Index { base, index } => {
                        todo.push(sub(base));
                        todo.push(sub(index));
                    }
                    ExprKind::Ternary { cond, then, els } => {
                        todo.extend([sub(cond), sub(then), sub(els)]);
                    }
                    ExprKind::Call { args, .. } | ExprKind::List(args) | ExprKind::Tuple(args) => {
                        todo.extend(args.iter().map(sub))
                    }
                    ExprKind::New { args, count, .. } => {
                        todo.extend(args.iter().chain(count.as_deref()).map(sub))
                    }
                    ExprKind::Method { object, args, .. } => {
                        todo.push(sub(object));
                        todo.extend(args.iter().map(sub));
                    }
                    ExprKind::Lambda(l) => {
                        todo.extend(l.function.body.iter().map(|s| (Node::Stmt(s), below)))
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn parse(body: &str) -> Result<Module, Vec<crate::syntax::ParseError>> {
        crate::syntax::parse(&SourceFile::new(
            "t.sk",
            format!("__global__ void k(int* a) {{ int t = 0; {body} }}"),
        ))
    }

    #[test]
    fn chains_count_one_level_per_operator() {
        // `a[0] = t + … + t` with n terms: the statement is at depth 1, the top `+` at 2, and
        // the first term under n - 1 left-nested `+` nodes at n + 1.
        let sum = |n: usize| format!("a[0] = {};", vec!["t"; n].join(" + "));
        assert!(parse(&sum(MAX_DEPTH - 1)).is_ok());
        assert!(parse(&sum(MAX_DEPTH + 1)).is_err());
    }
}
