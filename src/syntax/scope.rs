//! Namespaces that scope function names, found as C++ finds them.
//!
//! A function declared in a named namespace (`foo::max`) is renamed `foo.max` (a name no C
//! identifier can take), and every call of that name is bound to the one C++ lookup finds:
//! `foo::max(x)` looks for namespace `foo` from the caller's namespace outward (through
//! `namespace f = foo;` aliases); an unqualified `max(x)` takes the innermost enclosing
//! namespace that declares it or brings it in with `using foo::max;` or `using namespace foo;`
//! (also written in the calling function's body), then the file scope. An unqualified call
//! from where no declaring namespace is in scope keeps its plain name, so it finds the file's
//! function or CUDA's built-in (`max`); argument-dependent lookup, which needs the arguments'
//! types, is the checker's (`foo::max` for an argument of a struct of `foo`: each struct keeps
//! its namespace). Operators are left found by name. Files whose functions are all at file
//! scope are left exactly as they were.

use std::collections::{HashMap, HashSet};

use super::ast::{BaseType, Expr, ExprKind, Module, Stmt, StmtKind, TemplateArg};
use super::class_names::ClassNames;

/// `using namespace foo;` or `using foo::f;`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Using {
    /// A using-directive: the namespace as written.
    Namespace(String),
    /// A using-declaration: the qualified name as written.
    Name(String),
}

/// Where a function, kernel or struct is defined: its namespace (`a::b`, empty at file scope)
/// and the `using` lines written in its bodies.
#[derive(Clone, Debug, Default)]
struct Place {
    ns: String,
    body: Vec<Using>,
}

/// The place of each device function, kernel, struct and function specialisation, in the
/// module's order, with the `using` lines and namespace aliases written at namespace scope.
#[derive(Debug, Default)]
pub(crate) struct Scopes {
    fns: Vec<Place>,
    kernels: Vec<Place>,
    structs: Vec<Place>,
    specializations: Vec<Place>,
    consts: Vec<Place>,
    constants: Vec<Place>,
    type_aliases: Vec<Place>,
    /// (where, what it brings in)
    pub using: Vec<(String, Using)>,
    /// (where, the alias, the namespace it names)
    pub aliases: Vec<(String, String, String)>,
    /// The `using` lines met in the bodies of the item being read.
    pub body: Vec<Using>,
}

impl Scopes {
    /// Records `ns` (and the `using` lines of their bodies) for the functions, kernels and
    /// structs added to `module` since the last call.
    pub fn record(&mut self, module: &Module, ns: &str) {
        let place = Place {
            ns: ns.to_string(),
            body: std::mem::take(&mut self.body),
        };
        let grow =
            |list: &mut Vec<Place>, len: usize| list.resize(len.max(list.len()), place.clone());
        grow(&mut self.fns, module.device_fns.len());
        grow(&mut self.kernels, module.kernels.len());
        grow(&mut self.structs, module.structs.len());
        grow(&mut self.specializations, module.specializations.len());
        grow(&mut self.consts, module.consts.len());
        grow(&mut self.constants, module.constants.len());
        grow(&mut self.type_aliases, module.aliases.len());
    }

    /// The namespace of each struct, in the module's order.
    pub fn struct_namespaces(&self) -> impl Iterator<Item = &str> {
        self.structs.iter().map(|p| p.ns.as_str())
    }

    /// Records namespace `ns` for a struct defined inside another definition, added to the
    /// module's structs after everything recorded so far.
    pub fn hoisted(&mut self, ns: &str) {
        self.structs.push(Place {
            ns: ns.to_string(),
            body: Vec::new(),
        });
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
pub(super) fn enclosing(ns: &str) -> Vec<String> {
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

pub(super) struct Resolver<'a> {
    /// For each name declared in a named namespace, the namespaces that declare it.
    pub(super) declared: HashMap<String, HashSet<String>>,
    /// The lookup of the constants (and enumerators) declared in named namespaces, by the same
    /// rules (its `declared` are theirs).
    pub(super) consts: Option<&'a Resolver<'a>>,
    /// The lookup of the classes of one name in several namespaces, which
    /// [`super::class_names`] renames apart (its `declared` are theirs).
    pub(super) classes: Option<(&'a Resolver<'a>, &'a ClassNames)>,
    /// Every namespace that declares a function, and those around them.
    pub(super) namespaces: HashSet<String>,
    pub(super) using: &'a [(String, Using)],
    pub(super) aliases: &'a [(String, String, String)],
    /// The name a declaration of a namespace is known by once renamed.
    pub(super) mangle: fn(&str, &str) -> String,
}

/// Where a call is made: its namespace and the `using` lines of the function it is in, and
/// the names declared in scope there (template parameters, parameters, locals declared before
/// it, a class's members), which hide a namespace's constants and functions of those names.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub(super) ns: &'a str,
    pub(super) body: &'a [Using],
    pub(super) own: &'a HashSet<String>,
}

impl Resolver<'_> {
    /// The name a call of `callee` made at `at` binds to: a renamed function's new name, or
    /// `callee` unqualified where it names no function of a namespace in scope (a file-scope
    /// function or a built-in); None for a name no namespace declares.
    pub(super) fn resolve(&self, callee: &str, at: At<'_>) -> Option<String> {
        let (absolute, text) = match callee.strip_prefix("::") {
            Some(rest) => (true, rest),
            None => (false, callee),
        };
        let (qualifier, name) = text.rsplit_once("::").unwrap_or(("", text));
        let spaces = self.declared.get(name)?;
        if absolute || !qualifier.is_empty() {
            // A qualified name that names no namespace declaring it (`S::f`, a struct's static
            // member) is left as written.
            return Some(
                self.qualified(qualifier, absolute, at.ns)
                    .filter(|full| spaces.contains(full))
                    .or_else(|| (!absolute).then(|| self.through_using(qualifier, spaces, at))?)
                    .map_or_else(|| callee.to_string(), |full| (self.mangle)(&full, name)),
            );
        }
        Some(
            self.unqualified(name, spaces, at)
                .unwrap_or_else(|| name.to_string()),
        )
    }

    /// The namespace `qualifier` names from namespace `ns`: the innermost enclosing one that
    /// has it, through aliases; None where none declares the name's function.
    fn qualified(&self, qualifier: &str, absolute: bool, ns: &str) -> Option<String> {
        let outer = if absolute {
            vec![String::new()]
        } else {
            enclosing(ns)
        };
        let (first, rest) = qualifier.split_once("::").unwrap_or((qualifier, ""));
        for o in &outer {
            let full = join(o, qualifier);
            if self.namespaces.contains(&full) {
                return Some(full);
            }
            let alias = self.aliases.iter().find(|(at, a, _)| at == o && a == first);
            if let Some((_, _, target)) = alias {
                let target = self
                    .qualified(target.trim_start_matches("::"), target.starts_with("::"), o)
                    .unwrap_or_else(|| target.trim_start_matches("::").to_string());
                return Some(join(&target, rest));
            }
        }
        None
    }

    /// The namespace a relative `qualifier` names inside one that a `using namespace` line in
    /// scope at `at` brings in (`wmma::f` after `using namespace nvcuda;` is `nvcuda::wmma::f`),
    /// if it declares the function.
    fn through_using(
        &self,
        qualifier: &str,
        spaces: &HashSet<String>,
        at: At<'_>,
    ) -> Option<String> {
        let inside = |n: &str, from: &str| {
            let base = self.qualified(n.trim_start_matches("::"), n.starts_with("::"), from)?;
            Some(join(&base, qualifier)).filter(|full| spaces.contains(full))
        };
        let body = at.body.iter().map(|u| (at.ns.to_string(), u));
        let scopes = enclosing(at.ns);
        let outer = self
            .using
            .iter()
            .filter(|(w, _)| scopes.contains(w))
            .map(|(w, u)| (w.clone(), u));
        body.chain(outer).find_map(|(from, u)| match u {
            Using::Namespace(n) => inside(n, &from),
            Using::Name(_) => None,
        })
    }

    /// The function an unqualified call of `name` at `at` finds, by C++'s lookup: the
    /// innermost scope that declares it or brings it in with `using`.
    fn unqualified(&self, name: &str, spaces: &HashSet<String>, at: At<'_>) -> Option<String> {
        self.unqualified_ns(name, spaces, at)
            .map(|full| (self.mangle)(&full, name))
    }

    /// The namespace of what an unqualified `name` at `at` finds (see [`Self::unqualified`]).
    fn unqualified_ns(&self, name: &str, spaces: &HashSet<String>, at: At<'_>) -> Option<String> {
        let brings = |u: &Using, from: &str| -> Option<String> {
            match u {
                Using::Name(q) => {
                    let (qualifier, last) = q.trim_start_matches("::").rsplit_once("::")?;
                    (last == name)
                        .then(|| self.qualified(qualifier, q.starts_with("::"), from))
                        .flatten()
                        .filter(|full| spaces.contains(full))
                }
                Using::Namespace(n) => self
                    .qualified(n.trim_start_matches("::"), n.starts_with("::"), from)
                    .filter(|full| spaces.contains(full)),
            }
        };
        // The function's own `using` lines are the innermost scope.
        for u in at.body {
            if let Some(full) = brings(u, at.ns) {
                return Some(full);
            }
        }
        for o in enclosing(at.ns) {
            if spaces.contains(&o) {
                return Some(o);
            }
            for (_, u) in self.using.iter().filter(|(w, _)| *w == o) {
                if let Some(full) = brings(u, &o) {
                    return Some(full);
                }
            }
        }
        None
    }

    /// Binds a plain name of a constant that namespaces around `at` declare (`N` in
    /// `namespace ns { const int N = 10; ... N ... }`) to the one C++ finds, `ns::N`, unless a
    /// name in scope there hides it; one found at file scope stays as it is.
    fn constant_name(&self, n: &mut String, at: At<'_>) {
        let Some(c) = self.consts else { return };
        if n.contains("::") || at.own.contains(n.as_str()) {
            return;
        }
        let Some(spaces) = c.declared.get(n.as_str()) else {
            return;
        };
        if let Some(full) = c.unqualified_ns(n, spaces, at).filter(|ns| !ns.is_empty()) {
            *n = format!("{full}::{n}");
        }
    }

    /// Binds a name that may be a function's (`f`, `foo::f`, `f<float>`), used as a value;
    /// an unqualified one only where it cannot be a variable's (`unqualified`, or an instance
    /// of a function template, `scale<2>` passed as a function pointer).
    fn function_name(&self, n: &mut String, at: At<'_>, unqualified: bool) {
        let (name, args) = n.split_at(n.find('<').unwrap_or(n.len()));
        if !unqualified && !name.contains("::") && args.is_empty() {
            return;
        }
        if let Some(bound) = self.resolve(name, at) {
            *n = format!("{bound}{args}");
        }
    }

    /// Template arguments: a name there is a function's (`apply<my_op>`) or a constant's.
    fn template_args(&self, targs: &mut [TemplateArg], at: At<'_>) {
        for t in targs {
            // `f<float>` may have been read as a type's name.
            if let TemplateArg::Type(ty) = t {
                if ty.base == BaseType::Named && !ty.pointer {
                    self.function_name(&mut ty.base_text, at, true);
                    // `get<N>()`: a namespace's constant may have been read as a type's name.
                    self.constant_name(&mut ty.base_text, at);
                    self.ty(ty, at);
                }
            }
            if let TemplateArg::Value(v) = t {
                match &mut v.kind {
                    ExprKind::Name(n) => {
                        self.function_name(n, at, true);
                        self.constant_name(n, at);
                        // `f<b::S<int>>`: a type read as a name.
                        if let Some((classes, _)) = self.classes {
                            *n = classes.class_text(n, at);
                        }
                    }
                    ExprKind::Unary { operand, .. } => match &mut operand.kind {
                        ExprKind::Name(n) => self.function_name(n, at, true),
                        _ => self.expr(operand, at),
                    },
                    _ => self.expr(v, at),
                }
            }
        }
    }

    fn stmts(&self, body: &mut [Stmt], at: At<'_>) {
        self.sequence(body, at);
    }

    /// Statements in order, each seeing the names the ones before it declared (a local hides
    /// a namespace's constant from its declaration to the end of its block); what the sequence
    /// declared, where it declared any.
    fn sequence(&self, body: &mut [Stmt], at: At<'_>) -> Option<HashSet<String>> {
        let mut own: Option<HashSet<String>> = None;
        for s in body {
            let here = At {
                own: own.as_ref().unwrap_or(at.own),
                ..at
            };
            self.stmt(s, here);
            let declared = self.hiding(s);
            if !declared.is_empty() {
                let mut set = own.take().unwrap_or_else(|| at.own.clone());
                set.extend(declared);
                own = Some(set);
            }
        }
        own
    }

    /// Whether a local or parameter named `n` would hide a namespace's constant or function.
    fn hides(&self, n: &str) -> bool {
        self.declared.contains_key(n) || self.consts.is_some_and(|c| c.declared.contains_key(n))
    }

    /// The names of namespaces' constants and functions statement `s` declares as its own.
    fn hiding(&self, s: &Stmt) -> Vec<String> {
        let names: Vec<&str> = match &s.kind {
            StmtKind::Decl { decls, .. } => decls.iter().map(|d| d.name.name.as_str()).collect(),
            StmtKind::Bindings { names, .. } => names.iter().map(|n| n.name.as_str()).collect(),
            StmtKind::Shared { name, .. } => vec![name.name.as_str()],
            _ => Vec::new(),
        };
        names
            .into_iter()
            .filter(|n| self.hides(n))
            .map(str::to_string)
            .collect()
    }

    /// A function's signature and body, its template parameters and parameters hiding the
    /// namespaces' constants of their names (`at.own` is its class's).
    fn function(&self, f: &mut super::ast::Function, at: At<'_>) {
        let own = own_names(&f.template, &f.params, at.own);
        let at = At { own: &own, ..at };
        self.signature(&mut f.template, &mut f.params, at);
        self.ty(&mut f.ret, at);
        if let Some(e) = &mut f.ret_decltype {
            self.expr(e, at);
        }
        self.stmts(&mut f.body, at);
    }

    /// Template parameters' and parameters' types and defaults (`int x = N`,
    /// `template <int K = N>`).
    fn signature(
        &self,
        template: &mut [super::ast::TemplateParam],
        params: &mut [super::ast::Param],
        at: At<'_>,
    ) {
        use super::ast::TemplateParamKind;
        for t in template {
            match &mut t.kind {
                TemplateParamKind::Value(ty, default) => {
                    self.ty(ty, at);
                    if let Some(e) = default {
                        self.expr(e, at);
                    }
                }
                TemplateParamKind::Type(Some(ty)) => self.ty(ty, at),
                _ => {}
            }
        }
        for p in params {
            self.ty(&mut p.ty, at);
            if let Some(e) = &mut p.default {
                self.expr(e, at);
            }
        }
    }

    /// A type: each class of one name in several namespaces it names bound to the one lookup
    /// finds ([`ClassNames`]), and a namespace's constant named in its template arguments
    /// (`Arr<N>`) bound as in an expression.
    fn ty(&self, t: &mut super::ast::TypeName, at: At<'_>) {
        if let Some((classes, names)) = self.classes {
            t.base_text = classes.class_text(names.written(t), at);
        }
        let Some(c) = self.consts else { return };
        let Some(open) = t.base_text.find('<') else {
            return;
        };
        let text = &t.base_text;
        let word = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
        let mut out = text[..open].to_string();
        let mut rest = &text[open..];
        while let Some(start) = rest.find(|ch: char| ch.is_ascii_alphabetic() || ch == '_') {
            out.push_str(&rest[..start]);
            let tail = &rest[start..];
            let end = tail.find(|ch: char| !word(ch)).unwrap_or(tail.len());
            let mut name = tail[..end].to_string();
            let after = &tail[end..];
            let qualified =
                out.ends_with("::") || after.starts_with("::") || after.starts_with('<');
            if !qualified && c.declared.contains_key(&name) {
                self.constant_name(&mut name, at);
            }
            out.push_str(&name);
            rest = after;
        }
        out.push_str(rest);
        t.base_text = out;
    }

    fn stmt(&self, s: &mut Stmt, at: At<'_>) {
        match &mut s.kind {
            StmtKind::Block(stmts) => self.stmts(stmts, at),
            StmtKind::Bindings { init, .. } => self.expr(init, at),
            StmtKind::Decl { decls, of, ty } => {
                self.ty(ty, at);
                if let Some(e) = of {
                    self.expr(e, at);
                }
                for d in decls {
                    for e in d.dims.iter_mut().flatten().chain(&mut d.rows) {
                        self.expr(e, at);
                    }
                    for e in d.init.iter_mut() {
                        self.expr(e, at);
                    }
                    for (l, _) in d.list.iter_mut() {
                        for e in l {
                            self.expr(e, at);
                        }
                    }
                }
            }
            StmtKind::Shared { dims, ty, .. } => {
                self.ty(ty, at);
                for e in dims.iter_mut().flatten() {
                    self.expr(e, at);
                }
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target, at);
                self.expr(value, at);
            }
            StmtKind::IncDec { target, .. } => self.expr(target, at),
            StmtKind::Expr(e) => self.expr(e, at),
            StmtKind::If {
                cond, then, els, ..
            } => {
                self.expr(cond, at);
                self.stmt(then, at);
                if let Some(e) = els {
                    self.stmt(e, at);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                // `for (int N = 0; ...)`: its own for the condition, the step and the body.
                let own = self.sequence(init, at);
                let at = At {
                    own: own.as_ref().unwrap_or(at.own),
                    ..at
                };
                if let Some(c) = cond {
                    self.expr(c, at);
                }
                self.stmts(step, at);
                self.stmt(body, at);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond, at);
                self.stmt(body, at);
            }
            StmtKind::RangeFor {
                range,
                array,
                class,
                pointer,
            } => {
                self.expr(range, at);
                self.stmt(array, at);
                self.stmt(class, at);
                self.stmt(pointer, at);
            }
            StmtKind::Return(value) => {
                if let Some(v) = value {
                    self.expr(v, at);
                }
            }
            StmtKind::Delete { ptr, .. } => self.expr(ptr, at),
            StmtKind::TypeAlias { ty, .. } => self.ty(ty, at),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Unsupported { .. }
            | StmtKind::Empty
            | StmtKind::Goto(_)
            | StmtKind::Label(_) => {}
        }
    }

    fn expr(&self, e: &mut Expr, at: At<'_>) {
        crate::stack::grow(|| self.expr_at(e, at))
    }

    fn expr_at(&self, e: &mut Expr, at: At<'_>) {
        match &mut e.kind {
            // `foo::f` as a value (a function pointer), or a namespace's constant.
            ExprKind::Name(n) => {
                // A plain name no local or parameter hides may be a namespace's function
                // passed as a pointer (`apply(scale, x)` in `ns`).
                let plain = !n.contains("::") && !at.own.contains(n.as_str());
                self.function_name(n, at, plain);
                self.constant_name(n, at);
                // `b::S::value`, a class's static member.
                if let Some((classes, _)) = self.classes.filter(|_| n.contains("::")) {
                    *n = classes.class_text(n, at);
                }
            }
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::SizeOfPack(_) => {}
            ExprKind::SizeOfType(t) => self.ty(t, at),
            ExprKind::Cast { ty, expr } => {
                self.ty(ty, at);
                self.expr(expr, at);
            }
            ExprKind::Unary { operand: a, .. }
            | ExprKind::Designated { value: a, .. }
            | ExprKind::Member { base: a, .. }
            | ExprKind::Pack(a)
            | ExprKind::SizeOfExpr(a)
            | ExprKind::IncDec { target: a, .. } => self.expr(a, at),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign {
                target: lhs,
                value: rhs,
                ..
            } => {
                self.expr(lhs, at);
                self.expr(rhs, at);
            }
            ExprKind::Index { base, index } => {
                self.expr(base, at);
                self.expr(index, at);
            }
            ExprKind::Ternary { cond, then, els } => {
                self.expr(cond, at);
                self.expr(then, at);
                self.expr(els, at);
            }
            ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                if let Some(name) = self.resolve(&callee.name, at) {
                    callee.name = name;
                }
                // `b::S<int>()`, `S(x)`, `b::S::make()`.
                if let Some((classes, _)) = self.classes {
                    callee.name = classes.class_text(&callee.name, at);
                }
                self.template_args(targs, at);
                for a in args {
                    self.expr(a, at);
                }
            }
            ExprKind::List(args) | ExprKind::Tuple(args) => {
                for a in args {
                    self.expr(a, at);
                }
            }
            ExprKind::New {
                args, count, ty, ..
            } => {
                self.ty(ty, at);
                for a in args.iter_mut().chain(count.as_deref_mut()) {
                    self.expr(a, at);
                }
            }
            ExprKind::Method { object, args, .. } => {
                self.expr(object, at);
                for a in args {
                    self.expr(a, at);
                }
            }
            // A lambda's parameters hide what their names name outside it.
            ExprKind::Lambda(l) => {
                let mut own = at.own.clone();
                own.extend(l.function.params.iter().map(|p| p.name.name.clone()));
                self.stmts(&mut l.function.body, At { own: &own, ..at });
            }
        }
    }
}

/// Records each kernel's and file-scope variable's namespace, and makes a launch section's
/// qualified name (`launch a::b::k`) the name the kernel is known by (`k`: kernels keep their
/// own names, and two of one name in different namespaces are refused as duplicates, so a plain
/// name is never ambiguous).
pub(crate) fn qualify_kernels(module: &mut Module, scopes: &Scopes) {
    for (k, p) in module.kernels.iter_mut().zip(&scopes.kernels) {
        k.namespace = p.ns.clone();
    }
    for (c, p) in module.constants.iter_mut().zip(&scopes.constants) {
        c.namespace = p.ns.clone();
    }
    let in_sequences = module.sequences.iter_mut().flat_map(|q| {
        q.items.iter_mut().filter_map(|i| match i {
            super::ast::SeqItem::Launch(l) => Some(l),
            super::ast::SeqItem::Stmt(_) => None,
        })
    });
    for l in module.launches.iter_mut().chain(in_sequences) {
        if let Some(plain) = resolve_kernel_name(&module.kernels, &l.kernel.name) {
            l.kernel.name = plain;
        }
    }
}

/// The name kernel reference `a::b::k` (or `::a::b::k<float>`) stands for (`k`, `k<float>`),
/// where a kernel `k` is defined in namespace `a::b`; `None` for a plain name or no such kernel.
pub fn resolve_kernel_name(kernels: &[super::ast::Kernel], name: &str) -> Option<String> {
    let head = name.find(['<', '(']).unwrap_or(name.len());
    let (ns, base) = name[..head].rsplit_once("::")?;
    let ns = ns.trim_start_matches("::");
    kernels
        .iter()
        .any(|k| k.name.name == base && k.namespace == ns)
        .then(|| format!("{base}{}", &name[head..]))
}

/// Renames the functions of named namespaces, and binds their calls as C++ lookup does; binds
/// the plain names of namespaces' constants used inside them to the namespace's, so that a
/// file-scope constant of the same name is the one code outside them reads; binds each use of
/// a class that `classes` renamed apart to its new name.
pub(crate) fn scope_functions(module: &mut Module, scopes: &Scopes, classes: &ClassNames) {
    let mut spaces: HashMap<String, HashSet<String>> = HashMap::new();
    for (f, p) in module.device_fns.iter().zip(&scopes.fns) {
        spaces
            .entry(f.name.name.clone())
            .or_default()
            .insert(p.ns.clone());
    }
    // Operators stay found by name: argument-dependent lookup finds a namespace's operators
    // for its types, which is not modelled.
    spaces.retain(|name, s| !name.starts_with("operator") && s.iter().any(|ns| !ns.is_empty()));
    let mut consts: HashMap<String, HashSet<String>> = HashMap::new();
    for (c, p) in module.consts.iter().zip(&scopes.consts) {
        if !c.name.name.contains("::") {
            consts
                .entry(c.name.name.clone())
                .or_default()
                .insert(p.ns.clone());
        }
    }
    consts.retain(|_, s| s.iter().any(|ns| !ns.is_empty()));
    if spaces.is_empty() && consts.is_empty() && classes.is_empty() {
        return;
    }
    let constants = Resolver {
        namespaces: consts
            .values()
            .flatten()
            .flat_map(|ns| enclosing(ns))
            .collect(),
        declared: consts,
        consts: None,
        classes: None,
        using: &scopes.using,
        aliases: &scopes.aliases,
        mangle: mangled,
    };
    let class_lookup = classes.resolver(scopes);
    let namespaces = scopes.fns.iter().flat_map(|p| enclosing(&p.ns)).collect();
    let r = Resolver {
        declared: spaces,
        consts: Some(&constants),
        classes: (!classes.is_empty()).then_some((&class_lookup, classes)),
        namespaces,
        using: &scopes.using,
        aliases: &scopes.aliases,
        mangle: mangled,
    };
    let none = HashSet::new();
    for (k, p) in module.kernels.iter_mut().zip(&scopes.kernels) {
        let own = own_names(&k.template, &k.params, &none);
        let at = At {
            ns: &p.ns,
            body: &p.body,
            own: &own,
        };
        r.signature(&mut k.template, &mut k.params, at);
        if let Some(t) = &mut k.enable_if {
            r.ty(t, at);
        }
        r.stmts(&mut k.body, at);
    }
    // A launch section's template arguments are read where its kernel is defined.
    for l in &mut module.launches {
        // `launch v::act<...>` names kernel `act` (kernel names are unique without their
        // namespaces).
        let head = l.kernel.name.split('<').next().unwrap_or_default();
        let base = head.rsplit("::").next().unwrap_or_default();
        let place = module
            .kernels
            .iter()
            .zip(&scopes.kernels)
            .find(|(k, _)| k.name.name == base)
            .map(|(_, p)| p);
        if let Some(p) = place {
            r.template_args(
                &mut l.targs,
                At {
                    ns: &p.ns,
                    body: &[],
                    own: &none,
                },
            );
        }
    }
    for (s, p) in module.structs.iter_mut().zip(&scopes.structs) {
        s.namespace = p.ns.clone();
        // A class's members and template parameters hide a namespace's names in it.
        let mut class = own_names(&s.template, &[], &none);
        class.extend(s.fields.iter().map(|f| f.name.name.clone()));
        let members = s.methods.iter_mut().chain(s.ctors.iter_mut());
        for f in members.chain(s.friends.iter_mut()) {
            r.function(
                f,
                At {
                    ns: &p.ns,
                    body: &p.body,
                    own: &class,
                },
            );
        }
        // `static constexpr int n = f(N);`, `Arr<N> a;`
        let at = At {
            ns: &p.ns,
            body: &p.body,
            own: &class,
        };
        for f in &mut s.fields {
            r.ty(&mut f.ty, at);
            for e in f.init.iter_mut().chain(f.dims.iter_mut().flatten()) {
                r.expr(e, at);
            }
        }
        for (_, ty) in &mut s.aliases {
            r.ty(ty, at);
        }
        if let Some((classes, _)) = r.classes {
            s.base_args = classes.class_text(&s.base_args, at);
        }
    }
    let file = At {
        ns: "",
        body: &[],
        own: &none,
    };
    for (a, p) in module.aliases.iter_mut().zip(&scopes.type_aliases) {
        r.ty(
            &mut a.1,
            At {
                ns: &p.ns,
                body: &p.body,
                own: &none,
            },
        );
    }
    for (_, _, ty) in &mut module.alias_templates {
        r.ty(ty, file);
    }
    for (c, p) in module.constants.iter_mut().zip(&scopes.constants) {
        r.ty(
            &mut c.ty,
            At {
                ns: &p.ns,
                body: &[],
                own: &none,
            },
        );
    }
    // `constexpr uint32_t packed = encode(15u, 1);` in a namespace.
    for (c, p) in module.consts.iter_mut().zip(&scopes.consts) {
        r.ty(
            &mut c.ty,
            At {
                ns: &p.ns,
                body: &p.body,
                own: &none,
            },
        );
        r.expr(
            &mut c.value,
            At {
                ns: &p.ns,
                body: &p.body,
                own: &none,
            },
        );
    }
    let functions = module.device_fns.iter_mut().zip(&scopes.fns).chain(
        module
            .specializations
            .iter_mut()
            .map(|s| &mut s.function)
            .zip(&scopes.specializations),
    );
    for (f, p) in functions {
        r.function(
            f,
            At {
                ns: &p.ns,
                body: &p.body,
                own: &none,
            },
        );
        if r.declared.contains_key(&f.name.name) {
            f.name.name = mangled(&p.ns, &f.name.name);
        }
    }
    // The plain name of a namespace's constant stands for it where no file-scope constant has
    // that name: the file's is what a plain name outside the namespace reads.
    let file_scope: HashSet<String> = module
        .consts
        .iter()
        .zip(&scopes.consts)
        .filter(|(c, p)| p.ns.is_empty() && !c.name.name.contains("::"))
        .map(|(c, _)| c.name.name.clone())
        .collect();
    let mut places = scopes.consts.iter();
    module.consts.retain(|c| {
        let inside = places.next().is_some_and(|p| !p.ns.is_empty());
        !(inside && !c.name.name.contains("::") && file_scope.contains(&c.name.name))
    });
}

/// Every name a function body declares (its locals, wherever they are), for the checker: a
/// member function's local or parameter hides the class's member function of its name.
pub(crate) fn local_names(body: &[Stmt]) -> HashSet<String> {
    fn walk(s: &Stmt, out: &mut HashSet<String>) {
        match &s.kind {
            StmtKind::Block(stmts) => stmts.iter().for_each(|s| walk(s, out)),
            StmtKind::Decl { decls, .. } => out.extend(decls.iter().map(|d| d.name.name.clone())),
            StmtKind::Bindings { names, .. } => out.extend(names.iter().map(|n| n.name.clone())),
            StmtKind::Shared { name, .. } => {
                out.insert(name.name.clone());
            }
            StmtKind::If { then, els, .. } => {
                walk(then, out);
                els.iter().for_each(|e| walk(e, out));
            }
            StmtKind::For {
                init, step, body, ..
            } => {
                init.iter().chain(step.iter()).for_each(|s| walk(s, out));
                walk(body, out);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => walk(body, out),
            StmtKind::RangeFor {
                array,
                class,
                pointer,
                ..
            } => [array, class, pointer]
                .into_iter()
                .for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = HashSet::new();
    body.iter().for_each(|s| walk(s, &mut out));
    out
}

/// The names of a function's template parameters and parameters, and `outer`'s (its class's):
/// what hides a namespace's constants of those names in its body.
fn own_names(
    template: &[super::ast::TemplateParam],
    params: &[super::ast::Param],
    outer: &HashSet<String>,
) -> HashSet<String> {
    let mut out = outer.clone();
    out.extend(template.iter().map(|t| t.name.name.clone()));
    out.extend(params.iter().map(|p| p.name.name.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolver<'a>(
        using: &'a [(String, Using)],
        aliases: &'a [(String, String, String)],
    ) -> Resolver<'a> {
        let declared = HashMap::from([
            (
                "rsqrt".to_string(),
                HashSet::from([
                    "hoomd::fast".to_string(),
                    "hoomd::slow".to_string(),
                    String::new(),
                ]),
            ),
            ("max".to_string(), HashSet::from(["foo".to_string()])),
        ]);
        let namespaces = ["hoomd::fast", "hoomd::slow", "foo"]
            .iter()
            .flat_map(|n| enclosing(n))
            .collect();
        Resolver {
            declared,
            consts: None,
            classes: None,
            namespaces,
            using,
            aliases,
            mangle: mangled,
        }
    }

    /// No names of the function's own.
    fn none() -> &'static HashSet<String> {
        Box::leak(Box::default())
    }

    fn at(ns: &str) -> At<'_> {
        At {
            ns,
            body: &[],
            own: none(),
        }
    }

    #[test]
    fn a_relative_qualifier_is_found_inside_a_used_namespace() {
        // `using namespace hoomd;` then `fast::rsqrt(x)` is `hoomd::fast::rsqrt`, as
        // `using namespace nvcuda;` then `wmma::f(x)` is `nvcuda::wmma::f`.
        let using = vec![(String::new(), Using::Namespace("hoomd".into()))];
        let r = resolver(&using, &[]);
        assert_eq!(
            r.resolve("fast::rsqrt", at("")).as_deref(),
            Some("hoomd.fast.rsqrt")
        );
        // Without the `using` line it is left as written.
        let r = resolver(&[], &[]);
        assert_eq!(
            r.resolve("fast::rsqrt", at("")).as_deref(),
            Some("fast::rsqrt")
        );
    }

    #[test]
    fn lookup_goes_outward_then_through_using() {
        let using = vec![(String::new(), Using::Namespace("hoomd::slow".into()))];
        let r = resolver(&using, &[]);
        // From inside `hoomd`, `fast::rsqrt` is `hoomd::fast::rsqrt`.
        assert_eq!(
            r.resolve("fast::rsqrt", at("hoomd")).as_deref(),
            Some("hoomd.fast.rsqrt")
        );
        assert_eq!(
            r.resolve("hoomd::slow::rsqrt", at("")).as_deref(),
            Some("hoomd.slow.rsqrt")
        );
        // Unqualified inside `hoomd::fast`: its own; at file scope: the file's, before `using`.
        assert_eq!(
            r.resolve("rsqrt", at("hoomd::fast")).as_deref(),
            Some("hoomd.fast.rsqrt")
        );
        assert_eq!(r.resolve("rsqrt", at("")).as_deref(), Some("rsqrt"));
        assert_eq!(
            r.resolve("::rsqrt", at("hoomd::fast")).as_deref(),
            Some("rsqrt")
        );
        assert_eq!(r.resolve("other", at("")), None);
        assert_eq!(enclosing("a::b"), ["a::b", "a", ""]);
    }

    #[test]
    fn a_namespace_function_is_found_only_where_it_is_in_scope() {
        // `foo::max` is not seen by an unqualified call at file scope (CUDA's `max` is), nor
        // from `hoomd`; inside `foo`, or through `using`, it is.
        let r = resolver(&[], &[]);
        assert_eq!(r.resolve("max", at("")).as_deref(), Some("max"));
        assert_eq!(r.resolve("max", at("hoomd::fast")).as_deref(), Some("max"));
        assert_eq!(r.resolve("max", at("foo")).as_deref(), Some("foo.max"));
        assert_eq!(r.resolve("foo::max", at("")).as_deref(), Some("foo.max"));
        // `S::max` (a struct's static member) is left as written.
        assert_eq!(r.resolve("S::max", at("")).as_deref(), Some("S::max"));
        let body = [Using::Name("foo::max".into())];
        let local = At {
            ns: "",
            body: &body,
            own: none(),
        };
        assert_eq!(r.resolve("max", local).as_deref(), Some("foo.max"));
        let body = [Using::Namespace("foo".into())];
        let local = At {
            ns: "",
            body: &body,
            own: none(),
        };
        assert_eq!(r.resolve("max", local).as_deref(), Some("foo.max"));
        // A directive in `hoomd` counts inside `hoomd::fast`, not at file scope.
        let using = vec![("hoomd".to_string(), Using::Namespace("::foo".into()))];
        let r = resolver(&using, &[]);
        assert_eq!(
            r.resolve("max", at("hoomd::fast")).as_deref(),
            Some("foo.max")
        );
        assert_eq!(r.resolve("max", at("")).as_deref(), Some("max"));
        // `namespace f = foo;` makes `f::max` foo's.
        let aliases = vec![(String::new(), "f".to_string(), "foo".to_string())];
        let r = resolver(&[], &aliases);
        assert_eq!(r.resolve("f::max", at("")).as_deref(), Some("foo.max"));
    }
}
