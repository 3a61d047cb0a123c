//! Named namespaces that scope function names.
//!
//! simt reads a qualified name by its last part (`wt::f` is `f`), which is right as long as a
//! name is declared in one namespace. Where the same function name is declared in two (HOOMD's
//! `hoomd::fast::rsqrt` and `hoomd::slow::rsqrt`), the functions of the named namespaces are
//! renamed `fast.rsqrt`, `slow.rsqrt` (a name no C identifier can take), and every call of
//! that name is bound to the one C++ would find: `fast::rsqrt(x)` looks for namespace `fast`
//! from the caller's namespace outward; an unqualified `rsqrt(x)` takes the innermost
//! enclosing namespace that declares it, then a `using namespace` in scope, then the file
//! scope. Files without such a collision are left exactly as they were.

use std::collections::{HashMap, HashSet};

use super::ast::{Expr, ExprKind, Module, Stmt, StmtKind};

/// The namespace (`a::b`, empty at file scope) of each device function and kernel, in the
/// module's order, and the `using namespace` directives with the namespace they appear in.
#[derive(Debug, Default)]
pub(crate) struct Scopes {
    fns: Vec<String>,
    kernels: Vec<String>,
    /// (where, the namespace it uses)
    pub using: Vec<(String, String)>,
}

impl Scopes {
    /// Records `ns` for the functions and kernels added to `module` since the last call.
    pub fn record(&mut self, module: &Module, ns: &str) {
        while self.fns.len() < module.device_fns.len() {
            self.fns.push(ns.to_string());
        }
        while self.kernels.len() < module.kernels.len() {
            self.kernels.push(ns.to_string());
        }
    }
}

/// The name a function `name` of namespace `ns` is known by once renamed.
fn mangled(ns: &str, name: &str) -> String {
    if ns.is_empty() {
        name.to_string()
    } else {
        format!("{}.{name}", ns.replace("::", "."))
    }
}

/// `a::b` and `c` joined: `a::b::c` (either may be empty).
fn join(outer: &str, inner: &str) -> String {
    match (outer.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (_, true) => outer.to_string(),
        _ => format!("{outer}::{inner}"),
    }
}

/// `a::b::c`, `a::b`, `a`, and the file scope: where a name used in `ns` is looked for.
fn enclosing(ns: &str) -> Vec<String> {
    let mut out = vec![ns.to_string()];
    let mut cur = ns;
    while let Some((outer, _)) = cur.rsplit_once("::") {
        out.push(outer.to_string());
        cur = outer;
    }
    if !ns.is_empty() {
        out.push(String::new());
    }
    out
}

struct Resolver<'a> {
    /// For each colliding name, the namespaces that declare it.
    declared: HashMap<String, HashSet<String>>,
    using: &'a [(String, String)],
}

impl Resolver<'_> {
    /// The name a call of `callee` made in namespace `ns` binds to, if it is a colliding one.
    fn resolve(&self, callee: &str, ns: &str) -> Option<String> {
        let (absolute, text) = match callee.strip_prefix("::") {
            Some(rest) => (true, rest),
            None => (false, callee),
        };
        let (qualifier, name) = text.rsplit_once("::").unwrap_or(("", text));
        let spaces = self.declared.get(name)?;
        let outer = if absolute {
            vec![String::new()]
        } else {
            enclosing(ns)
        };
        for o in &outer {
            let full = join(o, qualifier);
            if spaces.contains(&full) {
                return Some(mangled(&full, name));
            }
        }
        if qualifier.is_empty() && !absolute {
            for (at, used) in self.using {
                let visible = at.is_empty() || ns == at || ns.starts_with(&format!("{at}::"));
                if visible && spaces.contains(used) {
                    return Some(mangled(used, name));
                }
            }
        }
        None
    }

    fn stmts(&self, body: &mut [Stmt], ns: &str) {
        for s in body {
            self.stmt(s, ns);
        }
    }

    fn stmt(&self, s: &mut Stmt, ns: &str) {
        match &mut s.kind {
            StmtKind::Block(stmts) => self.stmts(stmts, ns),
            StmtKind::Decl { decls, .. } => {
                for d in decls {
                    for e in d.dims.iter_mut().flatten() {
                        self.expr(e, ns);
                    }
                    for e in d.init.iter_mut() {
                        self.expr(e, ns);
                    }
                    for (l, _) in d.list.iter_mut() {
                        for e in l {
                            self.expr(e, ns);
                        }
                    }
                }
            }
            StmtKind::Shared { dims, .. } => {
                for e in dims.iter_mut().flatten() {
                    self.expr(e, ns);
                }
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target, ns);
                self.expr(value, ns);
            }
            StmtKind::IncDec { target, .. } => self.expr(target, ns),
            StmtKind::Expr(e) => self.expr(e, ns),
            StmtKind::If {
                cond, then, els, ..
            } => {
                self.expr(cond, ns);
                self.stmt(then, ns);
                if let Some(e) = els {
                    self.stmt(e, ns);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.stmts(init, ns);
                if let Some(c) = cond {
                    self.expr(c, ns);
                }
                self.stmts(step, ns);
                self.stmt(body, ns);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond, ns);
                self.stmt(body, ns);
            }
            StmtKind::Return(value) => {
                if let Some(v) = value {
                    self.expr(v, ns);
                }
            }
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Unsupported { .. }
            | StmtKind::Empty
            | StmtKind::TypeAlias { .. } => {}
        }
    }

    fn expr(&self, e: &mut Expr, ns: &str) {
        crate::stack::grow(|| self.expr_at(e, ns))
    }

    fn expr_at(&self, e: &mut Expr, ns: &str) {
        match &mut e.kind {
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::SizeOfType(_)
            | ExprKind::Name(_) => {}
            ExprKind::Unary { operand: a, .. }
            | ExprKind::Cast { expr: a, .. }
            | ExprKind::Member { base: a, .. }
            | ExprKind::SizeOfExpr(a)
            | ExprKind::IncDec { target: a, .. } => self.expr(a, ns),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign {
                target: lhs,
                value: rhs,
                ..
            } => {
                self.expr(lhs, ns);
                self.expr(rhs, ns);
            }
            ExprKind::Index { base, index } => {
                self.expr(base, ns);
                self.expr(index, ns);
            }
            ExprKind::Ternary { cond, then, els } => {
                self.expr(cond, ns);
                self.expr(then, ns);
                self.expr(els, ns);
            }
            ExprKind::Call { callee, args, .. } => {
                if let Some(name) = self.resolve(&callee.name, ns) {
                    callee.name = name;
                }
                for a in args {
                    self.expr(a, ns);
                }
            }
            ExprKind::List(args) | ExprKind::Tuple(args) => {
                for a in args {
                    self.expr(a, ns);
                }
            }
            ExprKind::Method { object, args, .. } => {
                self.expr(object, ns);
                for a in args {
                    self.expr(a, ns);
                }
            }
            ExprKind::Lambda(l) => self.stmts(&mut l.function.body, ns),
        }
    }
}

/// Renames the functions whose name two namespaces declare, and binds their calls.
pub(crate) fn scope_functions(module: &mut Module, scopes: &Scopes) {
    let mut spaces: HashMap<String, HashSet<String>> = HashMap::new();
    for (f, ns) in module.device_fns.iter().zip(&scopes.fns) {
        spaces
            .entry(f.name.name.clone())
            .or_default()
            .insert(ns.clone());
    }
    spaces.retain(|_, s| s.len() > 1);
    if spaces.is_empty() {
        return;
    }
    let r = Resolver {
        declared: spaces,
        using: &scopes.using,
    };
    for (k, ns) in module.kernels.iter_mut().zip(&scopes.kernels) {
        r.stmts(&mut k.body, ns);
    }
    for (f, ns) in module.device_fns.iter_mut().zip(&scopes.fns) {
        r.stmts(&mut f.body, ns);
        if r.declared.contains_key(&f.name.name) {
            f.name.name = mangled(ns, &f.name.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_goes_outward_then_through_using() {
        let declared = HashMap::from([(
            "rsqrt".to_string(),
            HashSet::from([
                "hoomd::fast".to_string(),
                "hoomd::slow".to_string(),
                String::new(),
            ]),
        )]);
        let using = vec![(String::new(), "hoomd::slow".to_string())];
        let r = Resolver {
            declared,
            using: &using,
        };
        // From inside `hoomd`, `fast::rsqrt` is `hoomd::fast::rsqrt`.
        assert_eq!(
            r.resolve("fast::rsqrt", "hoomd").as_deref(),
            Some("hoomd.fast.rsqrt")
        );
        assert_eq!(
            r.resolve("hoomd::slow::rsqrt", "").as_deref(),
            Some("hoomd.slow.rsqrt")
        );
        // Unqualified inside `hoomd::fast`: its own; at file scope: the file's, before `using`.
        assert_eq!(
            r.resolve("rsqrt", "hoomd::fast").as_deref(),
            Some("hoomd.fast.rsqrt")
        );
        assert_eq!(r.resolve("rsqrt", "").as_deref(), Some("rsqrt"));
        assert_eq!(
            r.resolve("::rsqrt", "hoomd::fast").as_deref(),
            Some("rsqrt")
        );
        assert_eq!(r.resolve("other", ""), None);
        assert_eq!(enclosing("a::b"), ["a::b", "a", ""]);
    }
}
