//! Templates and type aliases: an instance is a copy of the definition with its arguments substituted.

use std::collections::HashMap;
use std::rc::Rc;

use super::{specialise, CheckError, TemplateProblem};
use crate::source::Span;
use crate::syntax::ast::*;

/// What a template's (or the file's) names stand for in a copy.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bindings {
    /// Type parameters and aliases: name → type.
    pub types: HashMap<String, TypeName>,
    /// Value parameters: name → constant expression.
    pub values: HashMap<String, Expr>,
    /// Alias templates: name → parameters and the type they stand for.
    pub alias_templates: HashMap<String, (Vec<TemplateParam>, TypeName)>,
    /// Parameters of a function pointer type: name → the `__device__` function bound to it
    /// (`twice`, or an instance of a function template, `silu_kernel<float>`).
    pub functions: HashMap<String, String>,
    /// Template template parameters: name → the class template bound to it (`ReduceOp` →
    /// `Max`), so `ReduceOp<acc_t>` is `Max<acc_t>`.
    pub templates: HashMap<String, String>,
    /// Inside a member function: the class's other (non-static) member functions, which a
    /// plain call names (`getL()` is `this->getL()`, C++ [class.mfct.non-static]).
    pub methods: std::collections::HashSet<String>,
    /// Inside a member function: the class's name and its bases', which qualify its members
    /// (`DevPtr<T>::data` is `data`, C++ [class.qual]).
    pub classes: std::collections::HashSet<String>,
    /// Inside a static member function called as `Owner::f` without an object: the class
    /// `Owner`, through which a plain call of another member function goes (`g()` is
    /// `Owner::g()`).
    pub owner: Option<String>,
    /// The member types of the file's class templates and their specialisations, for
    /// `kernel_type<float>::compute` once a template's arguments are in place.
    pub class_members: Rc<Vec<ClassMembers>>,
    /// The file's integer constants and enumerators (`strategy::CONVENIENT`), which a class's
    /// template arguments may be written with.
    pub constants: Rc<HashMap<String, i64>>,
    /// The parameters of the template being copied that are not bound yet: a member type whose
    /// class arguments name one waits for the instance (a specialisation may match it then).
    pub open: std::collections::HashSet<String>,
    /// The file's classes that declare a constructor: `Alias(x)` of an alias naming one calls
    /// it (C++'s functional cast to a class type), where `Alias(x)` of a scalar alias is a cast.
    pub constructed: Rc<std::collections::HashSet<String>>,
    /// Packs being expanded: a type pack (`Args`) or a function parameter pack (`args`) →
    /// the names of its elements in the instance (`Args__0`, `Args__1`…).
    pub packs: HashMap<String, (bool, Vec<String>)>,
}

/// The member types (`using compute = T;`) of a class template or of one specialisation.
#[derive(Clone, Debug)]
pub(crate) struct ClassMembers {
    /// The class's name.
    pub name: String,
    /// A specialisation's arguments as written, spaces only between words (`<half>`); empty for the
    /// template itself.
    pub spec: String,
    /// A specialisation's arguments, read (`None` for the template itself, or arguments simt
    /// cannot read, which match nothing).
    pub args: Option<Vec<TemplateArg>>,
    /// The template's parameters (a partial specialisation's own; empty for an explicit one).
    pub params: Vec<TemplateParam>,
    /// The member types in order.
    pub aliases: Vec<(Ident, TypeName)>,
    /// Its `static` members with an initialiser (`static constexpr int kNBytes = sizeof(T);`),
    /// which member types may name (`using vec_t = BytesToType<kNBytes * kNElts>::Type;`).
    pub constants: Vec<(String, Expr)>,
}

impl ClassMembers {
    /// The member types of the module's class templates and specialisations, and of its plain
    /// structs that have any.
    /// A member type may name the file's own `typedef`s (dedisp's `typedef dedisp_word type;`):
    /// those its class does not hide with a parameter or a member type of that name are
    /// resolved here, where the file's are in scope.
    pub fn of(module: &Module) -> Vec<ClassMembers> {
        let mut file = Bindings::default();
        for (name, ty) in &module.aliases {
            let mut ty = ty.clone();
            file.ty(&mut ty);
            file.types.insert(name.name.clone(), ty);
        }
        module
            .structs
            .iter()
            .filter(|s| !s.template.is_empty() || !s.spec.is_empty() || !s.aliases.is_empty())
            .map(|s| ClassMembers {
                name: s.name.name.clone(),
                spec: s.spec.clone(),
                args: spec_args(&s.spec),
                params: s.template.clone(),
                aliases: {
                    let mut seen = file.clone();
                    let own = s
                        .template
                        .iter()
                        .map(|p| &p.name)
                        .chain(s.aliases.iter().map(|(n, _)| n));
                    for name in own {
                        seen.types.remove(&name.name);
                    }
                    s.aliases
                        .iter()
                        .map(|(n, ty)| {
                            let mut ty = ty.clone();
                            seen.ty(&mut ty);
                            (n.clone(), ty)
                        })
                        .collect()
                },
                constants: s
                    .fields
                    .iter()
                    .filter(|f| f.is_static && f.dims.is_empty())
                    .filter_map(|f| Some((f.name.name.clone(), f.init.clone()?)))
                    .collect(),
            })
            .collect()
    }
}

/// `v` as a literal (`-v` for a negative value), as [`Bindings::substitute_text`] writes it.
pub(crate) fn int_expr(v: i64, span: Span) -> Expr {
    Expr::integer(i128::from(v), span)
}

/// A specialisation's arguments as written after the class's name (`<S,4>`), read; `None` for
/// the primary template or arguments that cannot be read.
pub(crate) fn spec_args(spec: &str) -> Option<Vec<TemplateArg>> {
    if spec.is_empty() {
        return None;
    }
    crate::syntax::parse_kernel_ref(&format!("f{spec}"))
        .ok()
        .map(|(_, _, targs)| targs)
}

impl Bindings {
    /// `name` stands for the integer `v` of type `ty` (a value parameter).
    pub fn value(&mut self, name: &str, ty: &TypeName, v: i128, span: Span) {
        let literal = Expr::integer(v, span);
        let ty = TypeName {
            is_const: false,
            reference: false,
            span,
            ..ty.clone()
        };
        self.values.insert(
            name.to_string(),
            Expr {
                kind: ExprKind::Cast {
                    ty,
                    expr: Box::new(literal),
                },
                span,
            },
        );
    }

    /// The copy of a kernel with these bindings, named `name`.
    pub fn kernel(&self, k: &Kernel, name: &str) -> Kernel {
        let mut k = k.clone();
        k.template.clear();
        k.name.name = name.to_string();
        for p in &mut k.params {
            self.ty(&mut p.ty);
            // `const float v[][N]`: the row length of the instance.
            for r in &mut p.rows {
                self.expr(r);
            }
        }
        if let Some(t) = &mut k.enable_if {
            self.ty(t);
        }
        self.stmts(&mut k.body);
        k
    }

    /// The copy of a `__device__` function with these bindings.
    pub fn function(&self, f: &Function) -> Function {
        let mut f = f.clone();
        f.template.clear();
        self.ty(&mut f.ret);
        if let Some(e) = &mut f.ret_decltype {
            self.expr(e);
        }
        for p in &mut f.params {
            self.ty(&mut p.ty);
            for r in &mut p.rows {
                self.expr(r);
            }
            // `T b = T()`: a default is read where the call is, with the template's names bound.
            if let Some(d) = &mut p.default {
                self.expr(d);
            }
        }
        self.stmts(&mut f.body);
        f
    }

    /// The copy of a member function of a class (an instance's, with its arguments bound): a
    /// member template keeps its own parameters (`template <typename U> T operator()(const T&
    /// v1, const U& v2)` in `Plus<T>`), which each call deduces or is given.
    pub fn member(&self, m: &Function) -> Function {
        let mut f = self.function(m);
        f.template.clone_from(&m.template);
        f
    }

    /// Replaces a named type by what it stands for (aliases of aliases included); in a struct
    /// type's own arguments (`SharedMemory<T>`), the names it binds are replaced too.
    pub fn ty(&self, t: &mut TypeName) {
        if t.base == BaseType::Named {
            if let Some(at) = t.base_text.find('<') {
                let (name, args) = t.base_text.split_at(at);
                t.base_text = format!("{}{}", self.template_name(name), self.substitute_text(args));
                t.base_text = self.inner_types(&t.base_text);
            }
        }
        let mut seen = 0;
        while t.base == BaseType::Named && seen < 64 {
            let unchanged = |to: &TypeName| to.base == t.base && to.base_text == t.base_text;
            if let Some(to) = self
                .alias_instance(&t.base_text)
                .filter(|to| !unchanged(to))
                .or_else(|| self.member_type(&t.base_text))
                .or_else(|| {
                    // Not while the template's own parameters are open: `is_integral<T>` waits
                    // for T.
                    let open = t
                        .base_text
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|w| self.open.contains(w));
                    (!open).then(|| super::traits::transformed(&t.base_text))?
                })
            {
                t.is_const = const_of_bound(t, &to);
                t.base = to.base;
                t.base_text = to.base_text;
                t.pointer |= to.pointer;
                seen += 1;
                continue;
            }
            let Some(to) = self.types.get(&t.base_text) else {
                // `Alias::TempStorage`: the nested type of the type the alias names.
                let nested = t.base_text.split_once("::").and_then(|(outer, inner)| {
                    let to = self.types.get(outer)?;
                    (to.base == BaseType::Named).then(|| format!("{}::{inner}", to.base_text))
                });
                match nested {
                    Some(text) => {
                        t.base_text = text;
                        seen += 1;
                        continue;
                    }
                    None => return,
                }
            };
            t.is_const = const_of_bound(t, to);
            t.base = to.base;
            t.base_text = to.base_text.clone();
            t.pointer |= to.pointer;
            t.reference |= to.reference;
            seen += 1;
        }
    }

    /// `kernel_type<float>::compute` (ArrayFire's `typename common::kernel_type<T>::compute`
    /// once `T` is bound): the member type of the specialisation these arguments choose (by
    /// value, the most specialised: [`specialise::choose`]), else of the class template with
    /// its arguments in place; `None` for any other name (or an ambiguous choice).
    fn member_type(&self, text: &str) -> Option<TypeName> {
        let (class, member) = text.rsplit_once("::")?;
        // `Traits<32>::BlockScanT::TempStorage` (mamba): the member of the member type.
        if class.contains("::") && !class.ends_with('>') {
            if let Some(outer) = self
                .member_type(class)
                .filter(|t| t.base == BaseType::Named && !t.pointer)
            {
                return Some(TypeName::named(
                    format!("{}::{member}", outer.base_text),
                    outer.span,
                ));
            }
        }
        if !class.contains('<') {
            // `Traits::Op` of a plain struct (a type parameter bound to it): its member type.
            let name = super::groups::unqualified(class);
            let c = self
                .class_members
                .iter()
                .find(|c| c.name == name && c.params.is_empty() && c.spec.is_empty())?;
            return self.scope().member_of(c, member);
        }
        let open = class.find('<').filter(|_| class.ends_with('>'))?;
        let name = super::groups::unqualified(&class[..open]);
        let args: String = class[open..].split_whitespace().collect();
        let unbound = args
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| self.open.contains(w));
        if unbound {
            return None;
        }
        let (_, _, targs) =
            crate::syntax::parse_kernel_ref(&format!("{name}{}", &class[open..])).ok()?;
        let classes: Vec<&ClassMembers> = self
            .class_members
            .iter()
            .filter(|c| c.name == name)
            .collect();
        if name == "iterator_traits" && classes.is_empty() {
            return pointer_traits(&targs, member);
        }
        let primary = classes.iter().find(|c| c.spec.is_empty());
        let specs: Vec<(&ClassMembers, &[TemplateArg])> = classes
            .iter()
            .filter_map(|c| Some((*c, c.args.as_deref()?)))
            .collect();
        let scope = self.scope();
        let actual = specialise::actuals(
            &scope,
            primary.map(|c| c.params.as_slice()),
            &targs,
            &mut |e: &Expr| specialise::fold(e),
        );
        let list: Vec<specialise::Spec<'_>> = specs
            .iter()
            .map(|(c, args)| specialise::Spec {
                params: &c.params,
                args,
            })
            .collect();
        match specialise::choose(&scope, &list, &actual) {
            specialise::Choice::Spec(k, b) => b.member_of(specs[k].0, member),
            specialise::Choice::Primary => {
                let c = primary?;
                self.bound(&c.params, &targs)?.member_of(c, member)
            }
            specialise::Choice::Ambiguous(_) => None,
        }
    }

    /// The member type `member` of class `c`, these bindings its arguments'. Its integral
    /// `static` constants are bound first, each to its value, and each member type may name the
    /// ones before it (`using native = compute;`).
    fn member_of(mut self, c: &ClassMembers, member: &str) -> Option<TypeName> {
        for (name, init) in &c.constants {
            let mut e = init.clone();
            self.expr(&mut e);
            if let Some(v) = specialise::fold(&e).and_then(|v| i64::try_from(v).ok()) {
                self.values.insert(name.clone(), int_expr(v, init.span));
            }
        }
        for (alias, ty) in &c.aliases {
            let mut ty = ty.clone();
            self.ty(&mut ty);
            if alias.name == member {
                return Some(ty);
            }
            self.types.insert(alias.name.clone(), ty);
        }
        None
    }

    /// Empty bindings that still know the file's alias templates and class members.
    fn scope(&self) -> Bindings {
        Bindings {
            alias_templates: self.alias_templates.clone(),
            class_members: Rc::clone(&self.class_members),
            constants: Rc::clone(&self.constants),
            open: self.open.clone(),
            ..Bindings::default()
        }
    }

    /// `cub::BlockReduce<kvp<float>,128>`: each instance of an alias template among a type's
    /// arguments replaced by the type it stands for (`cub::KeyValuePair<float,float>`), and
    /// each member type of a class's instance (`cx<typename prom<float,double>::type>`, the
    /// keyword dropped) by the type it names (`cx<double>`).
    fn inner_types(&self, text: &str) -> String {
        let Some(open) = text.find('<') else {
            return text.to_string();
        };
        if !text.is_ascii() || (self.alias_templates.is_empty() && !text.contains(">::")) {
            return text.to_string();
        }
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let b = text.as_bytes();
        let mut out = text[..=open].to_string();
        let mut i = open + 1;
        while i < b.len() {
            if !word(b[i]) {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && (word(b[i]) || text[i..].starts_with("::")) {
                i += if word(b[i]) { 1 } else { 2 };
            }
            let name = &text[start..i];
            // `typename prom<T0, T1>::type`: the keyword only says that a type follows.
            if name == "typename" {
                while b.get(i) == Some(&b' ') {
                    i += 1;
                }
                continue;
            }
            let instance = (b.get(i) == Some(&b'<') && self.alias_templates.contains_key(name))
                .then(|| closing_angle(text, i))
                .flatten()
                .and_then(|close| Some((close, self.alias_instance(&text[start..=close])?)))
                .or_else(|| {
                    // `prom<double, int>::type`: the member type of a class's instance.
                    let close = closing_angle(text, i).filter(|_| b.get(i) == Some(&b'<'))?;
                    let mut end = close + 1;
                    if !text[end..].starts_with("::") {
                        return None;
                    }
                    end += 2;
                    while end < b.len() && word(b[end]) {
                        end += 1;
                    }
                    Some((end - 1, self.member_type(&text[start..end])?))
                });
            match instance {
                Some((close, to)) => {
                    out.push_str(&to.base_text);
                    if to.pointer {
                        out.push('*');
                    }
                    i = close + 1;
                }
                None => out.push_str(name),
            }
        }
        out
    }

    /// `Ptr<float>` of an alias template `template <typename T> using Ptr = T*;`: the type it
    /// stands for with the arguments in place (`float*`); `None` for any other name. A type pack
    /// (`template <typename... T> using RA = R<T...>;`) takes the remaining arguments, which
    /// replace its expansion `T...`.
    fn alias_instance(&self, text: &str) -> Option<TypeName> {
        let name = &text[..text.find('<')?];
        let (params, target) = self.alias_templates.get(name)?;
        let (_, _, args) = crate::syntax::parse_kernel_ref(text).ok()?;
        let mut to = target.clone();
        let params = match params.split_last() {
            Some((p, before)) if p.pack => {
                let rest = args
                    .get(before.len()..)
                    .unwrap_or_default()
                    .iter()
                    .map(arg_text)
                    .collect::<Option<Vec<_>>>()?;
                to.base_text = expand_text(&to.base_text, &p.name.name, &rest.join(","));
                before
            }
            _ => params,
        };
        let inner = self.bound(params, &args)?;
        // An alias of a class of its own name in another namespace (`cuda::std::atomic_ref` of
        // `cuda::atomic_ref<T, ...>`) names the class: its arguments are substituted, and its
        // name is not read as the alias again (which would expand without end).
        let head = |t: &str| {
            let t = t.split('<').next().unwrap_or(t);
            super::groups::unqualified(t).to_string()
        };
        if head(&to.base_text) == head(name) {
            if let Some(at) = to.base_text.find('<') {
                let (class, written) = to.base_text.split_at(at);
                to.base_text = format!("{class}{}", inner.substitute_text(written));
            }
            return Some(to);
        }
        inner.ty(&mut to);
        Some(to)
    }

    /// Type and value `params` bound to `args` by position; `None` where an argument is not of
    /// its parameter's kind.
    fn bound(&self, params: &[TemplateParam], args: &[TemplateArg]) -> Option<Bindings> {
        let mut inner = self.scope();
        for (p, a) in params.iter().zip(args) {
            match (&p.kind, a) {
                (TemplateParamKind::Type(_), TemplateArg::Type(t)) => {
                    inner.types.insert(p.name.name.clone(), t.clone());
                }
                (TemplateParamKind::Type(_), TemplateArg::Value(e)) => {
                    let ExprKind::Name(n) = &e.kind else {
                        return None;
                    };
                    inner
                        .types
                        .insert(p.name.name.clone(), named(n.clone(), e.span));
                }
                (TemplateParamKind::Value(..), TemplateArg::Value(e)) => {
                    inner.values.insert(p.name.name.clone(), e.clone());
                }
                (TemplateParamKind::Template(..), TemplateArg::Value(e)) => {
                    let ExprKind::Name(n) = &e.kind else {
                        return None;
                    };
                    inner.templates.insert(p.name.name.clone(), n.clone());
                }
                (TemplateParamKind::Value(..), TemplateArg::Type(_))
                | (TemplateParamKind::Template(..), TemplateArg::Type(_))
                | (TemplateParamKind::Function(..), _) => return None,
            }
        }
        // Parameters left to their defaults, which may name those before them
        // (`template <typename T_in1, typename T_out = T_in1>`, GraphBLAST's semirings).
        for p in params.iter().skip(args.len()) {
            match &p.kind {
                TemplateParamKind::Type(Some(default)) => {
                    let mut t = default.clone();
                    inner.ty(&mut t);
                    inner.types.insert(p.name.name.clone(), t);
                }
                TemplateParamKind::Value(_, Some(default)) => {
                    let mut e = default.clone();
                    inner.expr(&mut e);
                    inner.values.insert(p.name.name.clone(), e);
                }
                _ => return None,
            }
        }
        Some(inner)
    }

    /// The class template a template template parameter stands for (`ReduceOp` → `Max`), or
    /// the name itself.
    fn template_name<'n>(&'n self, name: &'n str) -> &'n str {
        self.templates.get(name).map_or(name, String::as_str)
    }

    /// `<T, BM>` with each bound name replaced by its type or value, and each name of a file
    /// constant not bound here (`strategy::CONVENIENT`) by its value.
    pub(crate) fn substitute_text(&self, args: &str) -> String {
        let mut out = String::new();
        let mut rest = args;
        while let Some(start) = rest.find(|c: char| c.is_alphanumeric() || c == '_') {
            out.push_str(&rest[..start]);
            let path_len = crate::syntax::qualified_len(&rest[start..]);
            let path = &rest[start..start + path_len];
            rest = &rest[start + path_len..];
            let (first, tail) = path
                .split_once("::")
                .map_or((path, None), |(a, b)| (a, Some(b)));
            // A qualified name of the file's (`E::X`) is the constant, whatever `E` is bound to;
            // a plain one is the template's parameter where it binds one. Only a class
            // qualifies a name: an enum's alias to its integer type does not replace it.
            let constant = self.constants.get(path);
            let scalar = self
                .types
                .get(first)
                .is_some_and(|t| t.base != BaseType::Named);
            let bound = match (tail, constant) {
                (Some(_), Some(_)) => None,
                (Some(_), None) if scalar => None,
                _ => self.bound_text(first),
            };
            let constant = constant.filter(|_| bound.is_none());
            match (bound, constant) {
                (Some(text), _) => out.push_str(&text),
                (None, Some(v)) => out.push_str(&v.to_string()),
                (None, None) => out.push_str(first),
            }
            if let Some(tail) = tail.filter(|_| constant.is_none()) {
                out.push_str("::");
                out.push_str(&self.substitute_text(tail));
            }
        }
        out.push_str(rest);
        out
    }

    /// What a bound name is written as in a copy's text: its type, its class template or its
    /// value (`(int)4` as `b.value` makes it, or `4` as written in a class's arguments,
    /// `CTAReduce<4, float>::Storage`); `None` for a name not bound here.
    fn bound_text(&self, word: &str) -> Option<String> {
        if let Some(t) = self.types.get(word) {
            // `iterator_traits<It>` of `It = const float*` is `iterator_traits<const float*>`.
            if t.pointer {
                let c = if t.is_const { "const " } else { "" };
                return Some(format!("{c}{}*", t.base_text));
            }
            return Some(t.base_text.clone());
        }
        if let Some(c) = self.templates.get(word) {
            return Some(c.clone());
        }
        let v = self.values.get(word)?;
        let v = match &v.kind {
            ExprKind::Cast { expr, .. } => expr,
            _ => v,
        };
        Some(match &v.kind {
            ExprKind::Int { value, .. } => value.to_string(),
            ExprKind::Unary { operand, .. } => match &operand.kind {
                ExprKind::Int { value, .. } => format!("-{value}"),
                _ => word.to_string(),
            },
            _ => word.to_string(),
        })
    }

    /// `f(std::forward<Args>(args)...)`: each pack expansion among `args` becomes its pattern
    /// once per element of the packs being expanded.
    fn expand_packs(&self, args: &mut Vec<Expr>) {
        let Some(n) = self.packs.values().map(|(_, e)| e.len()).next() else {
            return;
        };
        if !args.iter().any(|a| matches!(a.kind, ExprKind::Pack(_))) {
            return;
        }
        let mut out = Vec::with_capacity(args.len() + n);
        for a in args.drain(..) {
            let ExprKind::Pack(pattern) = a.kind else {
                out.push(a);
                continue;
            };
            for k in 0..n {
                let mut element = self.scope();
                for (name, (is_type, elements)) in &self.packs {
                    let named_as = Expr {
                        kind: ExprKind::Name(elements[k].clone()),
                        span: a.span,
                    };
                    if *is_type {
                        element
                            .types
                            .insert(name.clone(), named(elements[k].clone(), a.span));
                    } else {
                        element.values.insert(name.clone(), named_as);
                    }
                }
                let mut copy = (*pattern).clone();
                element.expr(&mut copy);
                out.push(copy);
            }
        }
        *args = out;
    }

    /// [`Self::expand_packs`] of template arguments (`g<Args...>(args...)`).
    /// The template arguments of a call in the copy's terms: `f<R>(...)` or `o.next<R>()` of a
    /// type parameter `R`, which parses as a value (a name), is the type bound to it.
    fn targs(&self, targs: &mut [TemplateArg]) {
        for a in targs {
            match a {
                TemplateArg::Value(Expr {
                    kind: ExprKind::Name(n),
                    span,
                }) if self.types.contains_key(n.as_str()) => {
                    let mut ty = self.types[n.as_str()].clone();
                    ty.span = *span;
                    *a = TemplateArg::Type(ty);
                }
                // `It<ns::B, int>(p)`: the constant's value, as in a type's arguments
                // ([`Self::substitute_text`]), so that both spell one instance. Only a
                // qualified name: no local or member hides it.
                TemplateArg::Value(Expr {
                    kind: ExprKind::Name(n),
                    span,
                }) if n.contains("::") && self.constants.contains_key(n.as_str()) => {
                    *a = TemplateArg::Value(int_expr(self.constants[n.as_str()], *span));
                }
                TemplateArg::Value(v) => self.expr(v),
                TemplateArg::Type(t) => self.ty(t),
            }
        }
    }

    fn expand_pack_targs(&self, targs: &mut Vec<TemplateArg>) {
        if self.packs.is_empty() {
            return;
        }
        let mut values: Vec<Expr> = targs
            .iter()
            .map(|a| match a {
                TemplateArg::Value(e) => e.clone(),
                TemplateArg::Type(t) => Expr {
                    kind: ExprKind::SizeOfType(t.clone()),
                    span: t.span,
                },
            })
            .collect();
        if !values.iter().any(|a| matches!(a.kind, ExprKind::Pack(_))) {
            return;
        }
        self.expand_packs(&mut values);
        *targs = values
            .into_iter()
            .map(|e| match e.kind {
                ExprKind::SizeOfType(t) => TemplateArg::Type(t),
                _ => TemplateArg::Value(e),
            })
            .collect();
    }

    pub(crate) fn stmts(&self, stmts: &mut [Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(b) => self.stmts(b),
            StmtKind::Bindings { init, .. } => self.expr(init),
            StmtKind::Decl { ty, decls, of } => {
                let written = ty.pointer;
                self.ty(ty);
                if let Some(e) = of {
                    self.expr(e);
                }
                // A pointer type by an alias (`fptr a, b;` of `typedef float* fptr`) makes
                // every name a pointer; a written `float* p, q;` only the first.
                let aliased = ty.pointer && !written;
                for d in decls {
                    d.pointer |= aliased;
                    d.dims.iter_mut().flatten().for_each(|e| self.expr(e));
                    d.rows.iter_mut().for_each(|e| self.expr(e));
                    if let Some(e) = &mut d.init {
                        self.expr(e);
                    }
                    if let Some((items, _)) = &mut d.list {
                        self.expand_packs(items);
                        items.iter_mut().for_each(|e| self.expr(e));
                    }
                }
            }
            StmtKind::Shared { ty, dims, .. } => {
                self.ty(ty);
                dims.iter_mut().flatten().for_each(|e| self.expr(e));
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            StmtKind::IncDec { target, .. } => self.expr(target),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::If {
                cond, then, els, ..
            } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.stmts(init);
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.stmts(step);
                self.stmt(body);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::RangeFor {
                range,
                array,
                class,
                pointer,
            } => {
                self.expr(range);
                self.stmt(array);
                self.stmt(class);
                self.stmt(pointer);
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Delete { ptr, .. } => self.expr(ptr),
            StmtKind::TypeAlias { ty, .. } => self.ty(ty),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Goto(_)
            | StmtKind::Label(_)
            | StmtKind::Unsupported { .. } => {}
        }
    }

    /// `member` of `Class::member` or `Class<T>::member` where `Class` is the class whose
    /// member function this is, or one of its bases.
    fn class_member(&self, name: &str) -> Option<String> {
        let (class, member) = name.rsplit_once("::")?;
        let class = class.split('<').next()?.trim();
        self.classes.contains(class).then(|| member.to_string())
    }

    pub(crate) fn expr(&self, e: &mut Expr) {
        crate::stack::grow(|| self.expr_at(e))
    }

    fn expr_at(&self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Name(n) => {
                if let Some(member) = self.class_member(n) {
                    *n = member;
                } else if let Some(f) = self.functions.get(n.as_str()) {
                    // A function passed on (`g<cpy_1>`): the function itself.
                    *n = f.clone();
                } else if let Some(c) = self.templates.get(n.as_str()) {
                    // A class template passed on (`fold3<float, Op>`): the class itself.
                    *n = c.clone();
                } else if let Some(at) = n.find('<') {
                    // `twice<T>`, an instance of a function template passed on: its arguments
                    // in the copy's terms.
                    let (name, args) = n.split_at(at);
                    *n = format!("{}{}", self.template_name(name), self.substitute_text(args));
                } else if let Some(v) = self.values.get(n.as_str()) {
                    let span = e.span;
                    *e = v.clone();
                    set_span(e, span);
                } else if let Some((ty, member)) = n.rsplit_once("::") {
                    // `packet_t::size` of an alias `packet_t`: the member of the struct it
                    // names (an enum's `Mode::ADD` keeps its name: its alias is the integer).
                    if let Some(to) = self.types.get(ty).filter(|t| t.base == BaseType::Named) {
                        *n = format!("{}::{member}", to.base_text);
                    }
                }
            }
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Str(_) => {}
            // `sizeof...(Args)` in an instance: the number of elements.
            ExprKind::SizeOfPack(name) => {
                if let Some((_, elements)) = self.packs.get(&name.name) {
                    e.kind = ExprKind::Int {
                        value: elements.len() as u64,
                        unsigned: true,
                        long: true,
                        hex: false,
                    };
                }
            }
            ExprKind::Pack(a) => self.expr(a),
            // A generic lambda keeps its invented parameters, deduced at each call.
            ExprKind::Lambda(l) => l.function = self.member(&l.function),
            ExprKind::Unary { operand: a, .. }
            | ExprKind::Designated { value: a, .. }
            | ExprKind::IncDec { target: a, .. }
            | ExprKind::SizeOfExpr(a) => self.expr(a),
            ExprKind::SizeOfType(ty) => self.ty(ty),
            ExprKind::New {
                ty, args, count, ..
            } => {
                self.ty(ty);
                args.iter_mut().for_each(|a| self.expr(a));
                if let Some(n) = count {
                    self.expr(n);
                }
            }
            ExprKind::Member { base, .. } => self.expr(base),
            ExprKind::Cast { ty, expr } => {
                self.ty(ty);
                self.expr(expr);
            }
            // `(scalar_t)-1.`: the grammar cannot tell a cast to a type parameter from a
            // subtraction, so it read `scalar_t - 1.`; a type is no operand, so it is the cast
            // of `-1.`, which binds tighter than any binary operator.
            ExprKind::Binary {
                op: op @ (BinOp::Sub | BinOp::Add),
                lhs,
                rhs,
                ..
            } if matches!(&lhs.kind, ExprKind::Name(n) if self.types.contains_key(n.as_str())) => {
                let ExprKind::Name(n) = &lhs.kind else {
                    unreachable!("matched: a type parameter")
                };
                let mut ty = self.types[n.as_str()].clone();
                ty.span = lhs.span;
                let sign = if *op == BinOp::Sub {
                    UnOp::Neg
                } else {
                    UnOp::Plus
                };
                let hole = Expr {
                    kind: ExprKind::Tuple(Vec::new()),
                    span: rhs.span,
                };
                let operand = std::mem::replace(rhs.as_mut(), hole);
                *e = cast_leftmost(ty, sign, operand, lhs.span);
                self.expr(e);
            }
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign {
                target: lhs,
                value: rhs,
                ..
            } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Index { base, index } => {
                self.expr(base);
                self.expr(index);
            }
            ExprKind::Ternary { cond, then, els } => {
                self.expr(cond);
                self.expr(then);
                self.expr(els);
            }
            ExprKind::Call {
                callee,
                targs,
                args,
            } if self.methods.contains(&callee.name) => {
                if let Some(owner) = &self.owner {
                    callee.name = format!("{owner}::{}", callee.name);
                    self.expr_at(e);
                    return;
                }
                let span = callee.span;
                let this = Expr {
                    kind: ExprKind::Name("this".into()),
                    span,
                };
                e.kind = ExprKind::Method {
                    object: Box::new(Expr {
                        kind: ExprKind::Unary {
                            op: UnOp::Deref,
                            operand: Box::new(this),
                        },
                        span,
                    }),
                    method: callee.clone(),
                    targs: std::mem::take(targs),
                    args: std::mem::take(args),
                };
                self.expr_at(e);
            }
            ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                // `P::f(x)` of a type parameter (or alias) `P` naming a struct: its member.
                if let Some((ty, member)) = callee.name.rsplit_once("::") {
                    if let Some(to) = self.types.get(ty).filter(|t| t.base == BaseType::Named) {
                        callee.name = format!("{}::{member}", to.base_text);
                    } else if let Some(at) = ty.find('<') {
                        // `Cosine<scalar_t>::dot(...)`: the instance in the copy's terms.
                        let (name, args) = ty.split_at(at);
                        callee.name = format!(
                            "{}{}::{member}",
                            self.template_name(name),
                            self.substitute_text(args)
                        );
                    }
                } else if let Some(at) = callee.name.find('<') {
                    // `Range__Iterator<T>{a, b}` (a member type's constructor, the alias
                    // resolved): the instance in the copy's terms.
                    let (name, args) = callee.name.split_at(at);
                    callee.name = format!("{name}{}", self.substitute_text(args));
                }
                // `cpy_1(cx, cdst)` of a function pointer parameter: the function bound to it;
                // `ACT_FN(x)` bound to `silu_kernel<float>`: a call of that instance.
                if let Some(f) = self.functions.get(&callee.name) {
                    match split_instance(f) {
                        Some((name, bound)) if targs.is_empty() => {
                            callee.name = name;
                            *targs = bound;
                        }
                        _ => callee.name = f.clone(),
                    }
                }
                // `ReduceOp<acc_t>()` of a template template parameter: the class bound to it.
                if !targs.is_empty() {
                    if let Some(c) = self.templates.get(&callee.name) {
                        callee.name = c.clone();
                    }
                }
                // `kvp<T>(a, b)` of an alias template `using kvp = KeyValuePair<T, T>`: the
                // constructor of the class it names (TensorRT's skip layer norm).
                if self.alias_templates.contains_key(&callee.name) {
                    let texts: Option<Vec<String>> = targs.iter().map(arg_text).collect();
                    if let Some(texts) = texts {
                        let mut t = TypeName::named(
                            format!("{}<{}>", callee.name, texts.join(",")),
                            callee.span,
                        );
                        self.ty(&mut t);
                        if t.base == BaseType::Named && !t.pointer {
                            callee.name = t.base_text;
                            targs.clear();
                        }
                    }
                }
                // `typename T::Op(2)`: a functional cast to a member type of a type parameter,
                // the struct that member type names.
                if callee.name.contains("::") && targs.is_empty() {
                    let mut t = TypeName::named(callee.name.clone(), callee.span);
                    self.ty(&mut t);
                    if t.base == BaseType::Named && !t.pointer && t.base_text != callee.name {
                        callee.name = t.base_text;
                    }
                }
                // `T(x)`: a functional cast to a type parameter; `glm::mat3(...)` names the
                // alias `mat3` declared in namespace `glm` (types resolve by their last part).
                let alias = self.types.get(&callee.name).or_else(|| {
                    let (_, last) = callee.name.rsplit_once("::")?;
                    self.types.get(last)
                });
                if let Some(to) = alias {
                    // `C(re, im)` of an alias `C` of a struct type: its constructor; `V2{a, b}`
                    // of one of a vector type: that type's brace initialiser.
                    if targs.is_empty()
                        && args.len() != 1
                        && (to.base == BaseType::Named
                            || (to.base == BaseType::Vector && !to.pointer))
                    {
                        callee.name = to.base_text.clone();
                    }
                    let class = to.base_text.split('<').next().unwrap_or_default();
                    let class = class.rsplit("::").next().unwrap_or_default();
                    if targs.is_empty()
                        && to.base == BaseType::Named
                        && !to.pointer
                        && self.constructed.contains(class)
                    {
                        callee.name = to.base_text.clone();
                    } else if targs.is_empty()
                        && args.is_empty()
                        && !matches!(to.base, BaseType::Named | BaseType::Vector)
                    {
                        // `T()` of a scalar type: value-initialised, zero, as `T{}` is
                        // (C++ [expr.type.conv]/2).
                        let mut ty = to.clone();
                        ty.span = callee.span;
                        e.kind = ExprKind::Cast {
                            ty,
                            expr: Box::new(Expr {
                                kind: ExprKind::List(Vec::new()),
                                span: e.span,
                            }),
                        };
                        return;
                    } else if targs.is_empty() && args.len() == 1 {
                        let mut ty = to.clone();
                        ty.span = callee.span;
                        let inner = args.pop().expect("one argument");
                        e.kind = ExprKind::Cast {
                            ty,
                            expr: Box::new(inner),
                        };
                        self.expr(e);
                        return;
                    }
                }
                self.expand_pack_targs(targs);
                self.expand_packs(args);
                self.targs(targs);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                self.expand_packs(items);
                items.iter_mut().for_each(|a| self.expr(a))
            }
            ExprKind::Method {
                object,
                targs,
                args,
                ..
            } => {
                self.expand_pack_targs(targs);
                self.expand_packs(args);
                self.expr(object);
                self.targs(targs);
                args.iter_mut().for_each(|a| self.expr(a));
            }
        }
    }
}

/// A template argument as written in a type's text (`float*`, `T`); `None` for an expression.
fn arg_text(arg: &TemplateArg) -> Option<String> {
    match arg {
        TemplateArg::Type(t) => Some(format!(
            "{}{}",
            t.base_text,
            if t.pointer { "*" } else { "" }
        )),
        TemplateArg::Value(Expr {
            kind: ExprKind::Name(n),
            ..
        }) => Some(n.clone()),
        TemplateArg::Value(_) => None,
    }
}

/// `text` with each expansion `pack...` of the whole word `pack` replaced by `with`.
fn expand_text(text: &str, pack: &str, with: &str) -> String {
    let pattern = format!("{pack}...");
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&pattern) {
        let word_start = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        out.push_str(&rest[..at]);
        if word_start {
            out.push_str(with);
        } else {
            out.push_str(&pattern);
        }
        rest = &rest[at + pattern.len()..];
    }
    out.push_str(rest);
    out
}

/// Points a substituted constant at the name it replaced, so diagnostics show the use.
fn set_span(e: &mut Expr, span: Span) {
    e.span = span;
    match &mut e.kind {
        ExprKind::Cast { ty, expr } => {
            ty.span = span;
            set_span(expr, span);
        }
        ExprKind::Unary { operand, .. } => set_span(operand, span),
        _ => {}
    }
}

/// `silu_kernel<float>`, the name of a function template's instance: the template's name and
/// the arguments; `None` for a plain name (or arguments that cannot be read).
pub(crate) fn split_instance(text: &str) -> Option<(String, Vec<TemplateArg>)> {
    let (name, args) = text.split_at(text.find('<')?);
    // `vllm::silu_kernel<float>`: a function is known by its own name.
    // `v.dbl<float>`: a function of namespace `v` (scope.rs), a name the parser does not read.
    let name = super::groups::unqualified(name)
        .trim_start_matches("template ")
        .trim();
    let (_, _, targs) = crate::syntax::parse_kernel_ref(&format!("f{args}")).ok()?;
    Some((name.to_string(), targs))
}

/// The C spelling of a template's parameter list, for messages: `template <int BM, typename T>`.
pub(crate) fn signature(params: &[TemplateParam]) -> String {
    let list: Vec<String> = params
        .iter()
        .map(|p| match &p.kind {
            TemplateParamKind::Type(_) => format!("typename {}", p.name.name),
            TemplateParamKind::Value(ty, _) => format!("{} {}", ty.base_text, p.name.name),
            TemplateParamKind::Function(ty, _) => {
                ty.replacen("(*)", &format!("(*{})", p.name.name), 1)
            }
            TemplateParamKind::Template(arity, _) => format!(
                "template <{}> class {}",
                vec!["typename"; *arity].join(", "),
                p.name.name
            ),
        })
        .collect();
    format!("template <{}>", list.join(", "))
}

impl super::KernelChecker<'_, '_> {
    /// Bindings of nothing that know the file's class members and constants: where a copy
    /// starts.
    pub(crate) fn file_bindings(&self) -> Bindings {
        Bindings {
            class_members: Rc::clone(&self.globals.class_members),
            constants: Rc::clone(&self.globals.int_consts),
            ..Bindings::default()
        }
    }

    /// The bindings of an instance: `targs` by position, then defaults; value arguments must be
    /// integer constants.
    pub(crate) fn instantiate(
        &mut self,
        params: &[TemplateParam],
        targs: &[TemplateArg],
        span: Span,
        what: &str,
    ) -> Result<Bindings, CheckError> {
        self.bind_template(
            params,
            targs,
            (&HashMap::new(), &HashMap::new()),
            span,
            what,
        )
    }

    /// Bindings from explicit arguments, then `deduced` types and `values` (from a call's
    /// arguments), then defaults.
    pub(crate) fn bind_template(
        &mut self,
        params: &[TemplateParam],
        targs: &[TemplateArg],
        (deduced, values): (&HashMap<String, TypeName>, &HashMap<String, Expr>),
        span: Span,
        what: &str,
    ) -> Result<Bindings, CheckError> {
        if targs.len() > params.len() {
            return Err(CheckError::TemplateArguments {
                template: what.to_string(),
                problem: TemplateProblem::TooMany {
                    given: targs.len(),
                    params: params.len(),
                },
                span,
                help: Some(signature(params)),
            });
        }
        let mut b = self.file_bindings();
        for (k, p) in params.iter().enumerate() {
            match (&p.kind, targs.get(k)) {
                (TemplateParamKind::Type(_), Some(TemplateArg::Type(t))) => {
                    let mut t = t.clone();
                    b.ty(&mut t);
                    b.types.insert(p.name.name.clone(), t);
                }
                (
                    TemplateParamKind::Type(_),
                    Some(TemplateArg::Value(Expr {
                        kind: ExprKind::Name(n),
                        span: at,
                    })),
                ) => {
                    // A bare name: a type of the caller's (an alias or its own parameter), or
                    // a class instance's member type (`Policy600<float>::SpmvPolicyT`).
                    let mut t = named(n.clone(), *at);
                    if n.contains(">::") {
                        b.ty(&mut t);
                    }
                    b.types.insert(p.name.name.clone(), t);
                }
                (TemplateParamKind::Type(_), Some(TemplateArg::Value(e))) => {
                    return Err(CheckError::TemplateArguments {
                        template: what.to_string(),
                        problem: TemplateProblem::ValueForType {
                            param: p.name.name.clone(),
                        },
                        span: e.span,
                        help: Some(signature(params)),
                    })
                }
                (TemplateParamKind::Type(default), None) => {
                    let t = deduced
                        .get(&p.name.name)
                        .cloned()
                        .or_else(|| default.clone());
                    let Some(mut t) = t else {
                        return Err(missing(p, params, span, what));
                    };
                    b.ty(&mut t);
                    // `typename = std::enable_if_t<cond>` whose condition is false.
                    if let Some(enabled) = self.enabled_type(&t) {
                        t = enabled;
                    } else {
                        return Err(substitution_failure(
                            what,
                            (&params[..k], &b),
                            &t,
                            "its defaulted template parameter",
                            span,
                        ));
                    }
                    b.types.insert(p.name.name.clone(), t);
                }
                (TemplateParamKind::Value(ty, default), arg)
                    if self
                        .globals
                        .fn_pointer_types
                        .contains(ty.base_text.as_str()) =>
                {
                    let f = self.bound_function(
                        p,
                        &ty.base_text,
                        (arg, default.as_ref()),
                        (params, span),
                    )?;
                    b.functions.insert(p.name.name.clone(), f);
                }
                (TemplateParamKind::Function(ty, default), arg) => {
                    let f = self.bound_function(p, ty, (arg, default.as_ref()), (params, span))?;
                    // `ACT_FN` bound to `silu_kernel<scalar_t>` in a default: the parameters
                    // before it are in place.
                    let mut e = Expr {
                        kind: ExprKind::Name(f),
                        span,
                    };
                    b.expr(&mut e);
                    let ExprKind::Name(f) = e.kind else {
                        unreachable!("a function's name stays a name")
                    };
                    b.functions.insert(p.name.name.clone(), f);
                }
                (TemplateParamKind::Template(_, default), arg) => {
                    let c =
                        self.bound_class_template(p, (arg, default.as_deref()), (params, span))?;
                    b.templates.insert(p.name.name.clone(), c);
                }
                (TemplateParamKind::Value(ty, default), arg) => {
                    // `std::enable_if_t<cond, int> = 0` whose condition is false.
                    let mut bound_ty = ty.clone();
                    b.ty(&mut bound_ty);
                    let Some(bound_ty) = self.enabled_type(&bound_ty) else {
                        return Err(substitution_failure(
                            what,
                            (&params[..k], &b),
                            &bound_ty,
                            "the type of its template parameter",
                            span,
                        ));
                    };
                    let e = match (arg, default) {
                        (Some(TemplateArg::Value(e)), _) => e.clone(),
                        (Some(TemplateArg::Type(t)), _) => {
                            return Err(CheckError::TemplateArguments {
                                template: what.to_string(),
                                problem: TemplateProblem::TypeForValue {
                                    param: p.name.name.clone(),
                                    ty: ty.base_text.clone(),
                                },
                                span: t.span,
                                help: Some(signature(params)),
                            })
                        }
                        (None, _) if values.contains_key(&p.name.name) => {
                            values[&p.name.name].clone()
                        }
                        // A default may use the parameters before it: substituted below.
                        (None, Some(d)) => d.clone(),
                        (None, None) => return Err(missing(p, params, span, what)),
                    };
                    if bound_ty.pointer {
                        // `std::enable_if_t<c>* = nullptr`: a pointer parameter there only for
                        // SFINAE; its value, null, is never read.
                        if is_null(&e) {
                            continue;
                        }
                        return Err(CheckError::Unsupported {
                            what: format!(
                                "the template parameter `{}` of pointer type bound to something other than `nullptr`",
                                p.name.name
                            ),
                            span: e.span,
                            help: Some("pass an integer or a type as the template argument".into()),
                        });
                    }
                    let mut e = e;
                    b.expr(&mut e);
                    let value = self.template_value(&e, &bound_ty)?;
                    b.value(&p.name.name, &bound_ty, value, e.span);
                }
            }
        }
        Ok(b)
    }

    /// The `__device__` function an argument (or the default) of a function pointer parameter
    /// of type `ty` names: `cpy_1_f32_f16` in `cpy_f32_f16<cpy_1_f32_f16>`, `&f` too, or an
    /// instance of a function template, `silu_kernel<float>`.
    fn bound_function(
        &self,
        p: &TemplateParam,
        ty: &str,
        (arg, default): (Option<&TemplateArg>, Option<&Expr>),
        (params, span): (&[TemplateParam], Span),
    ) -> Result<String, CheckError> {
        let e = match (arg, default) {
            (Some(TemplateArg::Value(e)), _) | (None, Some(e)) => e,
            (Some(TemplateArg::Type(t)), _) => {
                return Err(CheckError::TemplateArguments {
                    template: ty.to_string(),
                    problem: TemplateProblem::TypeForValue {
                        param: p.name.name.clone(),
                        ty: ty.to_string(),
                    },
                    span: t.span,
                    help: Some(signature(params)),
                })
            }
            (None, None) => return Err(missing(p, params, span, ty)),
        };
        let named = match &e.kind {
            ExprKind::Name(n) => Some(n),
            ExprKind::Unary {
                op: UnOp::AddrOf,
                operand,
            } => match &operand.kind {
                ExprKind::Name(n) => Some(n),
                _ => None,
            },
            _ => None,
        };
        let function = |n: &str| {
            let base = split_instance(n).map_or_else(|| n.to_string(), |(base, _)| base);
            let base = super::groups::unqualified(&base);
            self.globals.functions.contains_key(base)
        };
        match named {
            Some(n) if function(n) => Ok(n.clone()),
            _ => Err(CheckError::NotAFunction {
                param: p.name.name.clone(),
                ty: ty.to_string(),
                span: e.span,
            }),
        }
    }

    /// The class template an argument (or the default) of a template template parameter names:
    /// `Max` in `warp_reduce<float, Max>`, a struct template of the file (or a name the
    /// caller's own template template parameter passes on, already replaced).
    fn bound_class_template(
        &self,
        p: &TemplateParam,
        (arg, default): (Option<&TemplateArg>, Option<&str>),
        (params, span): (&[TemplateParam], Span),
    ) -> Result<String, CheckError> {
        let (name, at) = match (arg, default) {
            (Some(TemplateArg::Value(e)), _) => match &e.kind {
                ExprKind::Name(n) => (n.as_str(), e.span),
                _ => return Err(not_class_template(p, e.span, params)),
            },
            (Some(TemplateArg::Type(t)), _) => return Err(not_class_template(p, t.span, params)),
            (None, Some(d)) => (d, span),
            (None, None) => return Err(missing(p, params, span, &p.name.name)),
        };
        let base = super::groups::unqualified(name);
        let is_class_template = self
            .globals
            .structs
            .iter()
            .any(|s| s.name.name == base && !s.template.is_empty());
        match is_class_template {
            true => Ok(base.to_string()),
            false => Err(not_class_template(p, at, params)),
        }
    }

    /// `t` with an `enable_if` that `<type_traits>`' folding could not settle (its condition
    /// names a class's static member, `_typeConvert<float>::exists`) settled by evaluating the
    /// condition here: its type where the condition holds (`void` by default), `None` where it
    /// does not or is no constant (the type names no type). Any other type is itself.
    pub(crate) fn enabled_type(&mut self, t: &TypeName) -> Option<TypeName> {
        if !names_no_type(t) {
            return Some(t.clone());
        }
        let text = t.base_text.trim_start_matches("::");
        let text = text.strip_prefix("cuda::").unwrap_or(text);
        let rest = text.strip_prefix("std::enable_if")?;
        let (open, close) = (rest.find('<')?, rest.rfind('>')?);
        let tail = &rest[close + 1..];
        let plain = matches!((&rest[..open], tail), ("_t", "") | ("", "::type"));
        if !plain {
            return None;
        }
        let (_, _, args) =
            crate::syntax::parse_kernel_ref(&format!("f{}", &rest[open..=close])).ok()?;
        let (TemplateArg::Value(c), ty) = (args.first()?, args.get(1)) else {
            return None;
        };
        let mut c = c.clone();
        set_span(&mut c, t.span);
        let holds = match self.expr(&c).ok()?.kind {
            super::typed::ExprKind::Const(v) => v.is_true(),
            _ => return None,
        };
        if !holds {
            return None;
        }
        let mut enabled = match ty {
            None => TypeName {
                base: BaseType::Void,
                base_text: "void".into(),
                pointer: false,
                reference: false,
                is_const: false,
                span: t.span,
            },
            Some(TemplateArg::Type(ty)) => ty.clone(),
            Some(TemplateArg::Value(Expr {
                kind: ExprKind::Name(n),
                span,
            })) => named(n.clone(), *span),
            Some(TemplateArg::Value(_)) => return None,
        };
        // `std::enable_if_t<c>*` is a `void*`.
        enabled.pointer |= t.pointer;
        Some(enabled)
    }

    /// The integer a value argument stands for.
    fn template_value(&mut self, e: &Expr, ty: &TypeName) -> Result<i128, CheckError> {
        let to = super::scalar_of_base(ty)?;
        let t = self.constant_expr(e)?;
        let t = self.convert(t, to);
        match t.kind {
            super::typed::ExprKind::Const(v)
                if to.is_integer() || to == crate::value::Scalar::Bool =>
            {
                Ok(match v {
                    crate::value::Value::U64(x) => i128::from(x),
                    other => other.as_i64().map_or(0, i128::from),
                })
            }
            super::typed::ExprKind::Const(_) => Err(CheckError::Unsupported {
                what: format!("a template value parameter of type `{}`", ty.base_text),
                span: ty.span,
                help: Some("template value parameters are integers".into()),
            }),
            _ => Err(CheckError::NotConstant {
                what: "a template argument".into(),
                span: e.span,
                help: Some("use a literal, a `#define` or a `const` global".into()),
            }),
        }
    }
}

impl super::KernelChecker<'_, '_> {
    /// A type named in a body whose class template arguments name local constants
    /// (awq's `packed_as<float, num_elems_T>::type` with `constexpr auto num_elems_T = 2;`):
    /// the type with their values in place and the member type the instance chooses.
    pub(crate) fn with_local_constants(&self, ty: &TypeName) -> TypeName {
        let mut t = ty.clone();
        let Some(open) = t.base_text.find('<').filter(|_| t.base == BaseType::Named) else {
            return t;
        };
        let mut b = self.file_bindings();
        for word in t.base_text[open..].split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if let Some(super::Binding::Constant(v, _)) = self.lookup(word) {
                if let (true, Some(x)) = (v.ty().is_integer(), v.as_i64()) {
                    let ty = type_of(v.ty(), 1, t.span);
                    b.value(word, &ty, i128::from(x), t.span);
                }
            }
        }
        if !b.values.is_empty() {
            b.ty(&mut t);
        }
        t
    }
}

impl super::KernelChecker<'_, '_> {
    /// `bitsof<float>`, an instance of a variable template: its initialiser with the arguments
    /// in place, as its type; an object of a `std::integral_constant` type initialised with `{}`
    /// is its `value` (the conversion to its value type). `None` for any other name.
    pub(crate) fn variable_template(
        &mut self,
        name: &str,
        span: Span,
    ) -> Option<Result<super::typed::Expr, CheckError>> {
        let (base, targs) = split_instance(name)?;
        let vars = self.globals.var_templates;
        let v = vars.iter().find(|v| v.name.name == base)?;
        Some((|| {
            let b = self.instantiate(&v.params, &targs, span, name)?;
            let mut ty = v.ty.clone();
            b.ty(&mut ty);
            match &v.init {
                Some(init) => {
                    let mut e = init.clone();
                    b.expr(&mut e);
                    set_span(&mut e, span);
                    let to = super::scalar_of(&ty)?;
                    let value = self.expr(&e)?;
                    Ok(self.convert(value, to))
                }
                None => match self.static_member(&format!("{}::value", ty.base_text), span) {
                    Some(value) => value.map(|x| super::expr::constant(x, span)),
                    None => Err(CheckError::Unsupported {
                        what: format!(
                            "the variable template `{base}` of type `{}` initialised with `{{}}`",
                            ty.base_text
                        ),
                        span,
                        help: Some(
                            "give it a value (`= ...`), or a type with a static `value` such as a `std::integral_constant`".into(),
                        ),
                    }),
                },
            }
        })())
    }
}

/// An argument of a template template parameter that is not a class template's name.
fn not_class_template(p: &TemplateParam, span: Span, params: &[TemplateParam]) -> CheckError {
    CheckError::TemplateArguments {
        template: p.name.name.clone(),
        problem: TemplateProblem::NotAClassTemplate {
            param: p.name.name.clone(),
        },
        span,
        help: Some(format!(
            "pass the name of a struct template of the file, without arguments ({})",
            signature(params)
        )),
    }
}

fn missing(p: &TemplateParam, params: &[TemplateParam], span: Span, what: &str) -> CheckError {
    CheckError::TemplateArguments {
        template: what.to_string(),
        problem: TemplateProblem::Missing {
            param: p.name.name.clone(),
        },
        span,
        help: Some(format!(
            "give every parameter of {}, e.g. `{}<...>`",
            signature(params),
            what.split('<').next().unwrap_or(what)
        )),
    }
}

impl super::KernelChecker<'_, '_> {
    /// Whether `a` names an array (a thread's own or a `__shared__` one), not a pointer.
    fn is_array(&self, a: &Expr) -> bool {
        let ExprKind::Name(n) = &a.kind else {
            return false;
        };
        match self.lookup(n) {
            Some(super::Binding::LocalArray(_)) => true,
            Some(super::Binding::Shared(s)) => !self.shared[s as usize].is_scalar(),
            _ => false,
        }
    }

    /// The instance of a `__device__` function template a call needs: explicit arguments first,
    /// then type parameters deduced from the arguments (`T`, `T*`, `const T&` parameters).
    pub(crate) fn function_instance(
        &mut self,
        f: &Function,
        targs: &[TemplateArg],
        args: &[Expr],
        span: Span,
    ) -> Result<Function, CheckError> {
        let expanded;
        let f = if f.template.iter().any(|p| p.pack) {
            expanded = expand_variadic(f, targs.len(), args, span)?;
            &expanded
        } else {
            f
        };
        let mut deduced = HashMap::new();
        // Non-type parameters deduced from a struct argument's (`N` of `Array<T, N>&`).
        let mut values = HashMap::new();
        let is_value_param = |n: &str| {
            f.template
                .iter()
                .any(|t| t.name.name == n && matches!(t.kind, TemplateParamKind::Value(..)))
        };
        // A parameter given explicitly (`f<float, float2>(...)`) is not deduced: C++ deduces
        // only the rest ([temp.arg.explicit]), so an argument is not typed for it.
        let explicit: Vec<&str> = f
            .template
            .iter()
            .take(targs.len())
            .map(|t| t.name.name.as_str())
            .collect();
        // Parameters `T& q` given a local or shared array: read as `T* q` in the instance.
        let mut array_refs = Vec::new();
        for (k, (p, a)) in f.params.iter().zip(args).enumerate() {
            // `unsigned (&bins)[N]` given `unsigned bins[3]`: N = 3.
            if let Some(Expr {
                kind: ExprKind::Name(n),
                ..
            }) = &p.extent
            {
                if is_value_param(n) && !explicit.contains(&n.as_str()) {
                    if let Some(len) = self.array_length(a) {
                        values.entry(n.clone()).or_insert(Expr {
                            kind: ExprKind::Int {
                                value: len,
                                unsigned: false,
                                long: false,
                                hex: false,
                            },
                            span: a.span,
                        });
                    }
                }
            }
            let is_param = |n: &str| {
                f.template
                    .iter()
                    .any(|t| t.name.name == n && matches!(t.kind, TemplateParamKind::Type(_)))
            };
            if p.ty.base != BaseType::Named
                || deduced.contains_key(&p.ty.base_text)
                || explicit.contains(&p.ty.base_text.as_str())
            {
                continue;
            }
            // `template <typename group_t> f(group_t g, …)` called with a tile or a block: the
            // parameter binds to the argument's group, whatever kind it is.
            if is_param(&p.ty.base_text) && !p.ty.pointer && self.group(a)?.is_some() {
                let ty = named("cooperative_groups::thread_group".into(), a.span);
                deduced.insert(p.ty.base_text.clone(), ty);
                continue;
            }
            // `template <int M> f(cg::thread_block_tile<M> g, …)` given a tile of 8: M = 8.
            if let Some(m) = super::groups::tile_argument(&p.ty.base_text) {
                if is_value_param(m) && !explicit.contains(&m) {
                    if let Some(super::groups::Group::Tile(n)) = self.group(a)? {
                        values.entry(m.to_string()).or_insert(Expr {
                            kind: ExprKind::Int {
                                value: n.into(),
                                unsigned: false,
                                long: false,
                                hex: false,
                            },
                            span: a.span,
                        });
                        continue;
                    }
                }
            }
            // `template <typename PointQ> f(PointQ& q)` given a local array `Pix q[8]` (pytorch3d's
            // CheckPixelInsidePoint): `PointQ` is the array type, so `q` is the caller's array,
            // as `Pix (&q)[8]` is; simt reads both as `Pix* q` (see `param_list`), and deduces
            // `PointQ` as the element type for `q[i]`.
            if is_param(&p.ty.base_text) && p.ty.reference && !p.ty.pointer && self.is_array(a) {
                let ty = match self.struct_pointee(a) {
                    Some(l) => named(l.name.clone(), a.span),
                    None => match self.pointer(a)?.mem {
                        Some(m) => type_of(m.elem, m.width, a.span),
                        None => continue,
                    },
                };
                deduced.insert(p.ty.base_text.clone(), ty);
                array_refs.push(k);
                continue;
            }
            // A function object without data: its struct type (`SumOp<float>` of the temporary
            // `SumOp<float>()`, with its arguments).
            if let (true, false, Some(Ok(o))) =
                (is_param(&p.ty.base_text), p.ty.pointer, self.object_of(a))
            {
                let name = match &a.kind {
                    ExprKind::Call { callee, targs, .. } if !targs.is_empty() => self
                        .targs_text(targs)
                        .map(|t| format!("{}<{t}>", callee.name)),
                    _ => None,
                };
                let name = name.unwrap_or_else(|| self.globals.structs[o.def].name.name.clone());
                deduced.insert(p.ty.base_text.clone(), named(name, a.span));
                continue;
            }
            // A lambda: its closure type, one of its own per lambda as in C++.
            if let (true, false, Some(closure)) = (
                is_param(&p.ty.base_text),
                p.ty.pointer,
                self.closure_type(a),
            ) {
                deduced.insert(p.ty.base_text.clone(), named(closure, a.span));
                continue;
            }
            if let (Some(l), false) = (self.struct_of(a), p.ty.pointer) {
                if is_param(&p.ty.base_text) {
                    deduced.insert(p.ty.base_text.clone(), named(l.name.clone(), a.span));
                } else {
                    // `Pair<T>` from a `Pair<int>`, `Array<T, N>` from an `Array<float, 4>`
                    // ([temp.deduct.type]): each argument that is a parameter of `f` takes the
                    // struct's own binding at that position.
                    for (name, arg) in self.struct_arguments(&l, &p.ty.base_text) {
                        match arg {
                            TemplateArg::Type(ty) if is_param(&name) => {
                                deduced.entry(name).or_insert(ty);
                            }
                            TemplateArg::Value(e) if is_value_param(&name) => {
                                values.entry(name).or_insert(e);
                            }
                            _ => {}
                        }
                    }
                }
                continue;
            }
            if !is_param(&p.ty.base_text) {
                continue;
            }
            // `const T* const* rptr` given a local array of pointers `const float* r[]`
            // (Anime4KCPP's convolutions): T is what its pointers point to.
            if let Some(super::Binding::PointerArray(arr)) = self.pointer_array_arg(p, a) {
                let first = self.pointer_arrays[arr as usize].first().copied();
                if let Some(i) = first.filter(|i| !self.struct_ptrs.contains_key(i)) {
                    let (elem, width) = self.ptr_vars[i as usize].pointee;
                    deduced.insert(p.ty.base_text.clone(), type_of(elem, width, a.span));
                }
                continue;
            }
            // `T** tab` given an array of pointers (a `float**` parameter): T is what its
            // pointers point to.
            if let (true, Some(slot)) = (p.pointer_to_pointer, self.pointers_in(a)) {
                let ty = TypeName {
                    pointer: false,
                    is_const: slot.is_const && !p.ty.is_const,
                    span: a.span,
                    ..slot
                };
                deduced.insert(p.ty.base_text.clone(), ty);
                continue;
            }
            // `T* arr` given a pointer: T is what it points to, `const` where that is (`const
            // int*` makes `T = const int`); `T a` given one: T is the pointer type itself
            // (XSBench's `Int_Type num_nucs` of a `const int*`). An array of structs makes T
            // the struct, not the vector type of the same layout (`struct P2 { float a, b; }`
            // is not a float2).
            if self.is_pointer(a) {
                let ptr = self.pointer(a)?;
                let mut ty = match (self.struct_pointee(a), ptr.mem) {
                    (Some(l), _) => named(l.name.clone(), a.span),
                    (None, Some(m)) => type_of(m.elem, m.width, a.span),
                    (None, None) => continue,
                };
                // `const T* a` takes the `const` itself: T = float for a `const float*`.
                ty.is_const = ptr.is_const && !(p.ty.pointer && p.ty.is_const);
                ty.pointer = !p.ty.pointer;
                deduced.insert(p.ty.base_text.clone(), ty);
                continue;
            }
            let found = if p.ty.pointer {
                None
            } else if let Some(shape) = self.value_vector_shape(a)? {
                // A computed vector too: `make_float2(2, 5)`, `__floats2half2_rn(a, b)`, a
                // call of a function returning one (it is no number, so `expr` refuses it).
                Some(shape)
            } else {
                let value = self.expr(a)?;
                Some((self.own_type(a, &value), 1))
            };
            if let Some((elem, width)) = found {
                deduced.insert(p.ty.base_text.clone(), type_of(elem, width, a.span));
            }
        }
        let b = self.bind_template(&f.template, targs, (&deduced, &values), span, &f.name.name)?;
        let mut instance = b.function(f);
        if let Some(s) = self.specialization(f, &b)? {
            // C++ forbids a specialisation to repeat a default argument: the primary's apply
            // (jetson-utils' `alpha(T vec, base_type_t<T> default_alpha = 255)`).
            let mut s = s.clone();
            for (p, primary) in s.params.iter_mut().zip(&instance.params) {
                if p.default.is_none() {
                    p.default = primary.default.clone();
                }
            }
            return Ok(s);
        }
        if f.declared_only(self.globals.declared) {
            return Err(CheckError::Undefined {
                name: f.name.name.clone(),
                with: bound_args(&f.template, &b),
                span,
                declared: f.span,
            });
        }
        for k in array_refs {
            let ty = &mut instance.params[k].ty;
            (ty.pointer, ty.reference) = (true, false);
        }
        // `std::enable_if_t<cond, T> f(T x)` whose condition is false for these arguments.
        match self.enabled_type(&instance.ret) {
            Some(ret) => instance.ret = ret,
            None => {
                return Err(substitution_failure(
                    &f.name.name,
                    (&f.template, &b),
                    &instance.ret,
                    "its return type",
                    span,
                ))
            }
        }
        Ok(instance)
    }
}

/// Whether a type, its template's arguments in place, names no type: `enable_if<c, T>::type`
/// or `enable_if_t<c, T>` whose condition is false (a true one is its type already).
pub(crate) fn names_no_type(t: &TypeName) -> bool {
    t.base == BaseType::Named && t.base_text.contains("enable_if")
}

/// The template arguments `b` binds to `params`, as a message names them ("`T = int`, `N =
/// 4`"; "these arguments" where none has a name).
fn bound_args(params: &[TemplateParam], b: &Bindings) -> String {
    let with: Vec<String> = params
        .iter()
        .filter_map(|p| {
            let n = &p.name.name;
            let value = match (b.types.get(n), b.values.get(n)) {
                (Some(t), _) => format!("{}{}", t.base_text, if t.pointer { "*" } else { "" }),
                (
                    None,
                    Some(Expr {
                        kind: ExprKind::Cast { expr, .. },
                        ..
                    }),
                ) => match &expr.kind {
                    ExprKind::Int { value, .. } => value.to_string(),
                    _ => return None,
                },
                _ => return None,
            };
            (!is_unnamed_param(n) && !n.starts_with("<unnamed")).then(|| format!("`{n} = {value}`"))
        })
        .collect();
    if with.is_empty() {
        "these arguments".to_string()
    } else {
        with.join(", ")
    }
}

/// The error of an instance of `name` whose type `ty` (`what` it is) names no type, with the
/// arguments bound to `params` so far.
fn substitution_failure(
    name: &str,
    (params, b): (&[TemplateParam], &Bindings),
    ty: &TypeName,
    what: &str,
    span: Span,
) -> CheckError {
    let with = bound_args(params, b);
    CheckError::SubstitutionFailure {
        name: name.to_string(),
        with,
        why: format!(
            "{what} `{}` names no type (its condition is false, or no constant)",
            ty.base_text
        ),
        span,
        at: ty.span,
        help: "call it with arguments its `enable_if` condition holds for, or declare an overload for these (C++ discards this one: SFINAE)".into(),
    }
}

/// The function template `f`, whose last template parameter is a type pack, with the pack made
/// as many type parameters as the call needs (`Args__0`, `Args__1`…): one per argument given to
/// its function parameter pack (`Args&&... args` becomes `args__0`, `args__1`…), or one per
/// explicit template argument past the others where it has none. Each pack expansion in its
/// body becomes one pattern per element, and `sizeof...` the count, as C++ deduces a pack.
fn expand_variadic(
    f: &Function,
    explicit: usize,
    given: &[Expr],
    span: Span,
) -> Result<Function, CheckError> {
    let unsupported = |what: &str| {
        CheckError::Unsupported {
        what: format!("{what} (in the variadic template `{}`)", f.name.name),
        span,
        help: Some(
            "simt expands one type pack, the last template parameter, and the one function parameter pack of its type, the last parameter"
                .into(),
        ),
    }
    };
    let Some((pack, before)) = f.template.split_last().filter(|(p, _)| p.pack) else {
        return Err(unsupported(
            "a parameter pack before other template parameters",
        ));
    };
    let value_pack = match f.params.iter().position(|p| p.pack) {
        Some(k) if k + 1 != f.params.len() => {
            return Err(unsupported(
                "a function parameter pack before other parameters",
            ))
        }
        Some(k) if f.params[k].ty.base_text != pack.name.name => {
            return Err(unsupported("a function parameter pack of another type"));
        }
        other => other,
    };
    let n = match value_pack {
        Some(k) => given
            .len()
            .saturating_sub(k)
            .max(explicit.saturating_sub(before.len())),
        None => explicit.saturating_sub(before.len()),
    };
    let types: Vec<String> = (0..n).map(|k| format!("{}__{k}", pack.name.name)).collect();
    let mut g = f.clone();
    g.template = before.to_vec();
    g.template.extend(types.iter().map(|t| TemplateParam {
        name: Ident {
            name: t.clone(),
            span: pack.name.span,
        },
        kind: TemplateParamKind::Type(None),
        pack: false,
    }));
    let mut b = Bindings::default();
    b.packs
        .insert(pack.name.name.clone(), (true, types.clone()));
    if let Some(k) = value_pack {
        let p = g
            .params
            .pop()
            .expect("found: the pack is the last parameter");
        let values: Vec<String> = (0..n).map(|e| format!("{}__{e}", p.name.name)).collect();
        for (e, (t, v)) in types.iter().zip(&values).enumerate() {
            let mut ty = p.ty.clone();
            ty.base_text = t.clone();
            // `Args&&... args` given a value (`f(3)`) deduces a plain type, so that element is
            // the value itself; given a variable, a reference to it (C++'s forwarding reference).
            ty.reference &= given.get(k + e).is_none_or(is_place);
            g.params.push(Param {
                ty,
                name: Ident {
                    name: v.clone(),
                    span: p.name.span,
                },
                default: None,
                volatile: p.volatile,
                moves: p.moves,
                pack: false,
                pointer_to_pointer: p.pointer_to_pointer,
                rows: p.rows.clone(),
                extent: p.extent.clone(),
            });
        }
        debug_assert_eq!(g.params.len(), k + n);
        b.packs.insert(p.name.name.clone(), (false, values));
    }
    if let Some(e) = &mut g.ret_decltype {
        b.expr(e);
    }
    b.stmts(&mut g.body);
    Ok(g)
}

/// Whether `e` names an object a reference can bind (C++'s lvalue): a variable, an element, a
/// member or a dereferenced pointer.
fn is_place(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(_) | ExprKind::Index { .. } | ExprKind::Member { .. } => true,
        ExprKind::Unary { op, .. } => *op == UnOp::Deref,
        _ => false,
    }
}

/// A type's identity when matching a specialisation: its scalar (an alias of `float` is
/// `float`), its vector type, or its name; and whether it is a pointer.
pub(crate) fn type_key(t: &TypeName, pointer: bool) -> String {
    let base = match super::scalar_of_base(t) {
        Ok(s) => s.c_name().to_string(),
        Err(_) => match super::vector::cuda_vector(&t.base_text) {
            Some((elem, n)) => format!("{}{n}", elem.c_name()),
            // A class is known by its own name, as types resolve by their last part:
            // `wmma::matrix_a` and `nvcuda::wmma::matrix_a` are the `matrix_a` of a header.
            None => {
                let open = t.base_text.find('<').unwrap_or(t.base_text.len());
                let (class, args) = t.base_text.split_at(open);
                format!("{}{args}", super::groups::unqualified(class))
            }
        },
    };
    format!("{base}{}", if pointer { "*" } else { "" })
}

/// What a template argument written as `arg` is, for matching: a type's key, or a value's text
/// (folded by the caller).
enum ArgKey {
    Type(String),
    Value(Expr),
}

/// `arg` as a type (`as_type`: a bare name is a type's name) or a value.
fn arg_key(arg: &TemplateArg, as_type: bool) -> ArgKey {
    match arg {
        TemplateArg::Type(t) => ArgKey::Type(type_key(t, t.pointer)),
        TemplateArg::Value(Expr {
            kind: ExprKind::Name(n),
            span,
        }) if as_type => ArgKey::Type(type_key(&named(n.clone(), *span), false)),
        TemplateArg::Value(e) => ArgKey::Value(e.clone()),
    }
}

/// The arguments a specialisation gives the template parameters `template`, in order: `args`
/// as written after its name, or deduced by matching its return and parameter types (`spec`)
/// against the primary's (`primary`, in the same order): `template <> float conv(int)` of
/// `template <class T> T conv(int)` gives T = float.
fn specialization_args(
    template: &[TemplateParam],
    args: &[TemplateArg],
    primary: &[&TypeName],
    spec: &[&TypeName],
) -> Vec<Option<ArgKey>> {
    if !args.is_empty() {
        return template
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let as_type = matches!(p.kind, TemplateParamKind::Type(_));
                args.get(k).map(|a| arg_key(a, as_type))
            })
            .collect();
    }
    let pairs: Vec<(&TypeName, &TypeName)> =
        primary.iter().copied().zip(spec.iter().copied()).collect();
    template
        .iter()
        .map(|t| {
            pairs
                .iter()
                .find(|(p, _)| p.base == BaseType::Named && p.base_text == t.name.name)
                .map(|(p, q)| ArgKey::Type(type_key(q, q.pointer && !p.pointer)))
        })
        .collect()
}

/// Whether a specialisation `spec` has the parameter types of the primary template `f` where
/// those name none of its template parameters: of two primaries overloaded on such a type
/// (jetson-utils' `cast_vec<T>(const float3&)` and `cast_vec<T>(const float4&)`), each
/// specialisation specialises the one whose types it repeats.
fn same_fixed_params(f: &Function, spec: &Function) -> bool {
    let dependent = |t: &TypeName| {
        t.base_text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| f.template.iter().any(|p| p.name.name == w))
    };
    f.params.iter().zip(&spec.params).all(|(p, q)| {
        dependent(&p.ty)
            || (type_key(&p.ty, p.ty.pointer) == type_key(&q.ty, q.ty.pointer)
                && p.ty.reference == q.ty.reference)
    })
}

/// A function's return type, then its parameters' types: what a deduced specialisation matches.
fn signature_types(f: &Function) -> Vec<&TypeName> {
    std::iter::once(&f.ret)
        .chain(f.params.iter().map(|p| &p.ty))
        .collect()
}

impl<'g> super::KernelChecker<'g, '_> {
    /// The explicit specialisation of template `f` for the arguments `b` binds, if the file
    /// defines one: it is used instead of an instance of the template, as C++ requires.
    fn specialization(
        &mut self,
        f: &Function,
        b: &Bindings,
    ) -> Result<Option<&'g Function>, CheckError> {
        let specs = self.globals.specializations;
        // A specialisation of `f` has `f`'s parameters; one with another count specialises an
        // overload of the same name (awq's unary `cuda_max<To, Ti>(Ti)` beside `cuda_max(T, T)`).
        for s in specs.iter().filter(|s| {
            s.function.name.name == f.name.name
                && s.function.params.len() == f.params.len()
                && same_fixed_params(f, &s.function)
        }) {
            let args = specialization_args(
                &f.template,
                &s.args,
                &signature_types(f),
                &signature_types(&s.function),
            );
            if self.binds_args(&f.template, b, args)? {
                return Ok(Some(&s.function));
            }
        }
        Ok(None)
    }

    /// The kernel the request `r` names: the instance of the kernel template, or the explicit
    /// specialisation for its arguments where the file defines one; None where the file has
    /// neither.
    pub(crate) fn instance(
        &mut self,
        module: &Module,
        r: &super::KernelRef,
    ) -> Result<Option<Kernel>, CheckError> {
        let renamed = |s: &Kernel| {
            let mut s = s.clone();
            s.specialization = None;
            s.name.name = r.name.clone();
            s
        };
        let templates: Vec<&Kernel> = module
            .kernels
            .iter()
            .filter(|k| k.name.name == r.base && !k.template.is_empty())
            .collect();
        let Some(&first) = templates.first() else {
            let declared =
                self.declared_kernel_specialization(&r.base, &r.targs, &module.kernels)?;
            return Ok(declared.map(renamed));
        };
        let (t, b) = if templates.len() == 1 && first.enable_if.is_none() {
            (
                first,
                self.instantiate(&first.template, &r.targs, r.span, &r.name)?,
            )
        } else {
            self.enabled_kernel(&templates, r)?
        };
        Ok(Some(
            match self.kernel_specialization(t, &b, &module.kernels)? {
                Some(s) => renamed(s),
                None => b.kernel(t, &r.name),
            },
        ))
    }

    /// The one of kernel templates `templates` (overloads told apart by their `enable_if`
    /// return types, SFINAE) that instance `r` uses, with its bindings: the others' conditions
    /// do not hold for its arguments. None left is `simt::check::no_viable_overload` (one
    /// template: `simt::check::substitution_failure`).
    fn enabled_kernel<'k>(
        &mut self,
        templates: &[&'k Kernel],
        r: &super::KernelRef,
    ) -> Result<(&'k Kernel, Bindings), CheckError> {
        let mut discarded = Vec::new();
        for &t in templates {
            let b = match self.instantiate(&t.template, &r.targs, r.span, &r.name) {
                Ok(b) => b,
                Err(e @ CheckError::SubstitutionFailure { .. }) => {
                    discarded.push((t, e));
                    continue;
                }
                Err(e) => return Err(e),
            };
            let Some(ret) = &t.enable_if else {
                return Ok((t, b));
            };
            let mut written = ret.clone();
            b.ty(&mut written);
            if let Some(ret) = self.enabled_type(&written) {
                if ret.base != BaseType::Void || ret.pointer {
                    return Err(CheckError::Unsupported {
                        what: format!(
                            "the kernel `{}` returning `{}`",
                            r.name, ret.base_text
                        ),
                        span: ret.span,
                        help: Some(
                            "a kernel returns `void`: write `std::enable_if_t<cond>` (its type defaults to `void`)".into(),
                        ),
                    });
                }
                return Ok((t, b));
            }
            discarded.push((
                t,
                substitution_failure(
                    &r.base,
                    (&t.template, &b),
                    &written,
                    "its return type",
                    r.span,
                ),
            ));
        }
        if let [(_, only)] = discarded.as_slice() {
            return Err(match only {
                CheckError::SubstitutionFailure {
                    name,
                    with,
                    why,
                    at,
                    help,
                    ..
                } => CheckError::SubstitutionFailure {
                    name: name.clone(),
                    with: with.clone(),
                    why: why.clone(),
                    span: r.span,
                    at: *at,
                    help: help.clone(),
                },
                _ => unreachable!("substitution failures only"),
            });
        }
        let candidates = discarded
            .iter()
            .map(|(t, e)| {
                let reason = match e {
                    CheckError::SubstitutionFailure { with, why, .. } => {
                        format!("discarded: with {with}, {why}")
                    }
                    _ => unreachable!("substitution failures only"),
                };
                miette::LabeledSpan::new_with_span(Some(reason), t.name.span)
            })
            .collect();
        Err(CheckError::NoViableOverload {
            name: r.base.clone(),
            why: format!(
                "{} kernel templates, each discarded because its `enable_if` names no type for these arguments",
                discarded.len()
            ),
            span: r.span,
            candidates,
            help: "launch an instance one template's `enable_if` condition holds for".into(),
        })
    }

    /// The explicit specialisation of kernel template `t` among `kernels` for the arguments
    /// `b` binds (`template <> __global__ void k(float* out)` for `k<float>`), if the file
    /// defines one: it runs instead of an instance of the template, as in C++.
    fn kernel_specialization<'k>(
        &mut self,
        t: &Kernel,
        b: &Bindings,
        kernels: &'k [Kernel],
    ) -> Result<Option<&'k Kernel>, CheckError> {
        let primary: Vec<&TypeName> = t.params.iter().map(|p| &p.ty).collect();
        for k in kernels.iter().filter(|k| k.name.name == t.name.name) {
            let Some(written) = &k.specialization else {
                continue;
            };
            let spec: Vec<&TypeName> = k.params.iter().map(|p| &p.ty).collect();
            let args = specialization_args(&t.template, written, &primary, &spec);
            if self.binds_args(&t.template, b, args)? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    /// Whether the bindings `b` of the parameters `template` are the arguments `args` of a
    /// specialisation.
    fn binds_args(
        &mut self,
        template: &[TemplateParam],
        b: &Bindings,
        args: Vec<Option<ArgKey>>,
    ) -> Result<bool, CheckError> {
        // What `b` binds each parameter to, in the same terms.
        let bound = template.iter().map(|p| match &p.kind {
            TemplateParamKind::Type(_) => b
                .types
                .get(&p.name.name)
                .map(|t| ArgKey::Type(type_key(t, t.pointer))),
            TemplateParamKind::Value(..) => b.values.get(&p.name.name).cloned().map(ArgKey::Value),
            // A specialisation for one function or class template is not matched (none seen in
            // real code).
            TemplateParamKind::Function(..) | TemplateParamKind::Template(..) => None,
        });
        self.same_args(args.into_iter().zip(bound).collect())
    }

    /// The specialisation a call `name<targs>(...)` names when the file declares the template
    /// without defining it (`template <class T> T max_value();` and `template <> int
    /// max_value<int>() {...}`).
    pub(crate) fn declared_specialization(
        &mut self,
        name: &str,
        targs: &[TemplateArg],
    ) -> Result<Option<&'g Function>, CheckError> {
        if targs.is_empty() {
            return Ok(None);
        }
        let specs = self.globals.specializations;
        for s in specs.iter().filter(|s| s.function.name.name == name) {
            if self.written_args_match(&s.args, targs)? {
                return Ok(Some(&s.function));
            }
        }
        Ok(None)
    }

    /// The kernel specialisation among `kernels` that a launch of `name<targs>` names when the
    /// file declares the kernel template without defining it (`template <class T> __global__
    /// void k(T*);` and `template <> __global__ void k<float>(float* p) {...}`).
    fn declared_kernel_specialization<'k>(
        &mut self,
        name: &str,
        targs: &[TemplateArg],
        kernels: &'k [Kernel],
    ) -> Result<Option<&'k Kernel>, CheckError> {
        for k in kernels.iter().filter(|k| k.name.name == name) {
            if let Some(written) = &k.specialization {
                if !targs.is_empty() && self.written_args_match(written, targs)? {
                    return Ok(Some(k));
                }
            }
        }
        Ok(None)
    }

    /// Whether a specialisation's arguments as written are `targs`, without the template's own
    /// parameter list to say which are types.
    fn written_args_match(
        &mut self,
        written: &[TemplateArg],
        targs: &[TemplateArg],
    ) -> Result<bool, CheckError> {
        if written.len() != targs.len() {
            return Ok(false);
        }
        // A bare name is a type's unless it is a file-scope constant or a name in scope
        // (LightSeq's `const int num = 2; warpReduce<ReduceType::kSum, num>(pval);`).
        let as_type = |x: &TemplateArg| {
            !matches!(x, TemplateArg::Value(Expr { kind: ExprKind::Name(n), .. })
                if self.globals.consts.contains_key(n.as_str()) || self.lookup(n).is_some())
        };
        let pairs: Vec<(Option<ArgKey>, Option<ArgKey>)> = written
            .iter()
            .zip(targs)
            .map(|(a, t)| (Some(arg_key(a, as_type(a))), Some(arg_key(t, as_type(t)))))
            .collect();
        self.same_args(pairs)
    }

    /// Whether every pair of template arguments is the same type or the same constant.
    fn same_args(
        &mut self,
        pairs: Vec<(Option<ArgKey>, Option<ArgKey>)>,
    ) -> Result<bool, CheckError> {
        for pair in pairs {
            let same = match pair {
                (Some(ArgKey::Type(x)), Some(ArgKey::Type(y))) => x == y,
                (Some(ArgKey::Value(x)), Some(ArgKey::Value(y))) => self.same_constant(&x, &y)?,
                _ => false,
            };
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether two constant expressions have the same value.
    fn same_constant(&mut self, a: &Expr, b: &Expr) -> Result<bool, CheckError> {
        let (a, b) = (self.expr(a)?, self.expr(b)?);
        Ok(match (a.kind, b.kind) {
            (super::typed::ExprKind::Const(x), super::typed::ExprKind::Const(y)) => {
                x.as_i64() == y.as_i64() && x.as_f64() == y.as_f64()
            }
            _ => false,
        })
    }
}

/// The named type `text` (a struct's or a group's), as a plain value type.
fn named(text: String, span: Span) -> TypeName {
    let mut t = TypeName::named(text, span);
    if t.base == BaseType::Named {
        t.base = BaseType::named(&t.base_text);
    }
    t
}

/// The type name of `width` components of `elem`.
pub(crate) fn type_of(elem: crate::value::Scalar, width: u32, span: Span) -> TypeName {
    use crate::value::Scalar;
    let base = if width > 1 {
        BaseType::Vector
    } else {
        match elem {
            Scalar::Bool => BaseType::Bool,
            Scalar::I8 => BaseType::I8,
            Scalar::U8 => BaseType::U8,
            Scalar::I16 => BaseType::I16,
            Scalar::U16 => BaseType::U16,
            Scalar::I32 => BaseType::I32,
            Scalar::U32 => BaseType::U32,
            Scalar::I64 => BaseType::I64,
            Scalar::U64 => BaseType::U64,
            Scalar::F32 => BaseType::F32,
            Scalar::F64 => BaseType::F64,
            Scalar::F16 => BaseType::F16,
            Scalar::BF16 => BaseType::BF16,
        }
    };
    TypeName {
        base,
        base_text: super::typed::type_name(elem, width),
        pointer: false,
        reference: false,
        is_const: false,
        span,
    }
}

/// `(ty)` applied with `sign` to the leftmost operand of `e` (`(T)-a * b` is `((T)(-a)) * b`):
/// the expression `T - e` was parsed as, with the cast in its place.
fn cast_leftmost(ty: TypeName, sign: UnOp, e: Expr, start: Span) -> Expr {
    let span = Span {
        start: start.start,
        end: e.span.end,
    };
    match e.kind {
        ExprKind::Binary {
            op: op @ (BinOp::Mul | BinOp::Div | BinOp::Rem),
            op_span,
            lhs,
            rhs,
        } => Expr {
            kind: ExprKind::Binary {
                op,
                op_span,
                lhs: Box::new(cast_leftmost(ty, sign, *lhs, start)),
                rhs,
            },
            span,
        },
        kind => {
            let operand = Expr { kind, span: e.span };
            let signed = Expr {
                kind: ExprKind::Unary {
                    op: sign,
                    operand: Box::new(operand),
                },
                span,
            };
            Expr {
                kind: ExprKind::Cast {
                    ty,
                    expr: Box::new(signed),
                },
                span,
            }
        }
    }
}

/// `nullptr`, `NULL` or `0`: the null pointer constant.
fn is_null(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(n) => n == "nullptr" || n == "NULL",
        ExprKind::Int { value, .. } => *value == 0,
        _ => false,
    }
}

/// Where the `>` closing the `<` at byte `open` of `text` is.
fn closing_angle(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (at, c) in text.char_indices().skip_while(|&(at, _)| at < open) {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// `std::iterator_traits<T*>::member` (and `cuda::std::`'s): a pointer's value type (`const`
/// dropped), its pointer and reference types and `ptrdiff_t`; `None` for an argument that is
/// no pointer (an iterator class is not modelled).
fn pointer_traits(targs: &[TemplateArg], member: &str) -> Option<TypeName> {
    let [TemplateArg::Type(t)] = targs else {
        return None;
    };
    if !t.pointer {
        return None;
    }
    let value = TypeName {
        pointer: false,
        is_const: false,
        ..t.clone()
    };
    match member {
        "value_type" => Some(value),
        "pointer" => Some(t.clone()),
        "reference" => Some(TypeName {
            reference: true,
            is_const: t.is_const,
            ..value
        }),
        "difference_type" => Some(TypeName {
            base: BaseType::I64,
            base_text: "ptrdiff_t".into(),
            ..value
        }),
        _ => None,
    }
}

/// Whether the pointee of written type `t` (`const T`, `T const`) is `const` once its name is
/// bound to `to`: a `const` written on a name bound to a pointer (`T const` with `T = float*`)
/// is the pointer's own, `float* const`, which leaves the floats writable ([dcl.type.cv]); the
/// pointee is `const` only where `to` says so.
fn const_of_bound(t: &TypeName, to: &TypeName) -> bool {
    if to.pointer && !t.pointer {
        to.is_const
    } else {
        t.is_const || to.is_const
    }
}
