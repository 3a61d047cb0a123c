//! Structs whose members are only functions (cuda-samples' `SharedMemory<T>`): member calls are inlined calls.

use super::pointer::Ptr;
use super::template::Bindings;
use super::{Binding, CheckError, KernelChecker, PointerProblem, TemplateProblem};
use crate::source::Span;
use crate::syntax::ast;

type Result<T> = std::result::Result<T, CheckError>;

/// A struct type in use: its definition and the bindings of its template arguments.
#[derive(Clone, Debug)]
pub(crate) struct Object {
    /// Index into the file's structs.
    pub def: usize,
    /// Its template arguments.
    pub bindings: Bindings,
}

/// A static member function `owner::f` chosen for a call (where `span` is), of the struct
/// `def` with the template arguments `bindings`. What its body sees (its class's members and
/// static constants, [`KernelChecker::with_statics`]) is made only where it is inlined.
pub(crate) struct StaticCall {
    pub f: ast::Function,
    def: usize,
    bindings: Bindings,
    owner: String,
    span: Span,
}

/// What the bindings `b` bind parameter `p` to, as a template argument.
fn bound_arg(b: &Bindings, p: &ast::TemplateParam) -> ast::TemplateArg {
    let span = p.name.span;
    let name = |n: &str| {
        ast::TemplateArg::Value(ast::Expr {
            kind: ast::ExprKind::Name(n.to_string()),
            span,
        })
    };
    match &p.kind {
        ast::TemplateParamKind::Type(_) => match b.types.get(&p.name.name) {
            Some(t) => ast::TemplateArg::Type(t.clone()),
            None => name(&p.name.name),
        },
        ast::TemplateParamKind::Value(..) => match b.values.get(&p.name.name) {
            Some(e) => ast::TemplateArg::Value(e.clone()),
            None => name(&p.name.name),
        },
        ast::TemplateParamKind::Function(..) => {
            name(b.functions.get(&p.name.name).map_or(&p.name.name, |f| f))
        }
        ast::TemplateParamKind::Template(..) => {
            name(b.templates.get(&p.name.name).map_or(&p.name.name, |c| c))
        }
    }
}

impl KernelChecker<'_, '_> {
    /// The struct a type names (`SharedMemory<float>`), if it names one: a `template <>`
    /// specialisation for exactly these arguments, else the template bound to them.
    pub(crate) fn struct_type(&mut self, text: &str, span: Span) -> Option<Result<Object>> {
        Some(
            self.struct_def_of(text, span)?
                .and_then(|(def, bindings)| self.object(def, bindings, span)),
        )
    }

    /// The struct definition a type names and the bindings of its template arguments.
    pub(crate) fn struct_def_of(
        &mut self,
        text: &str,
        span: Span,
    ) -> Option<Result<(usize, Bindings)>> {
        let base = text.split('<').next().unwrap_or(text);
        let base = super::groups::unqualified(base);
        let defs = self.globals.structs;
        if !defs.iter().any(|d| d.name.name == base) {
            return None;
        }
        let written = &text[text.find('<').unwrap_or(text.len())..];
        let primary = defs
            .iter()
            .position(|d| d.name.name == base && d.spec.is_empty());
        let specs: Vec<(usize, Vec<ast::TemplateArg>)> = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.name.name == base)
            .filter_map(|(k, d)| Some((k, super::template::spec_args(&d.spec)?)))
            .collect();
        if written.is_empty() {
            return Some(Ok((primary?, Bindings::default())));
        }
        let targs = match crate::syntax::parse_kernel_ref(&format!("{base}{written}")) {
            Ok((_, _, mut targs)) => {
                targs.iter_mut().for_each(|t| t.respan(span));
                targs
            }
            Err(_) => {
                return Some(Err(CheckError::TemplateArguments {
                    template: text.to_string(),
                    problem: TemplateProblem::Unreadable,
                    span,
                    help: None,
                }))
            }
        };
        Some(self.choose_specialisation(text, primary, &specs, &targs, span))
    }

    /// The struct (a specialisation among `specs`, else the `primary` template) an instance
    /// with arguments `targs` uses, and the bindings of its parameters: C++'s matching by value
    /// ([`super::specialise`]).
    fn choose_specialisation(
        &mut self,
        text: &str,
        primary: Option<usize>,
        specs: &[(usize, Vec<ast::TemplateArg>)],
        targs: &[ast::TemplateArg],
        span: Span,
    ) -> Result<(usize, Bindings)> {
        let defs = self.globals.structs;
        let scope = self.file_bindings();
        let params = primary.map(|k| defs[k].template.as_slice());
        // The primary's bindings check the arguments, evaluate them and fill in defaults.
        let bound = match params {
            Some(params) if !params.is_empty() => {
                Some(self.instantiate(params, targs, span, text)?)
            }
            _ => None,
        };
        let actual = match &bound {
            Some(b) => super::specialise::actuals(
                &scope,
                params,
                &params
                    .unwrap_or_default()
                    .iter()
                    .map(|p| bound_arg(b, p))
                    .collect::<Vec<_>>(),
                &mut |e: &ast::Expr| super::specialise::fold(e),
            ),
            None => super::specialise::actuals(&scope, None, targs, &mut |e: &ast::Expr| {
                self.constant_value(e)
            }),
        };
        // A specialisation's argument that names a constant of the file (`Op<B, float>` of
        // `enum E { A, B }`) is that constant's value, as the instance's arguments are.
        let evaluated: Vec<Vec<ast::TemplateArg>> = specs
            .iter()
            .map(|(k, args)| {
                let own = &defs[*k].template;
                args.iter().map(|a| self.evaluated_arg(a, own)).collect()
            })
            .collect();
        let list: Vec<super::specialise::Spec<'_>> = specs
            .iter()
            .zip(&evaluated)
            .map(|((k, _), args)| super::specialise::Spec {
                params: &defs[*k].template,
                args,
            })
            .collect();
        match super::specialise::choose(&scope, &list, &actual) {
            super::specialise::Choice::Spec(k, b) => Ok((specs[k].0, *b)),
            super::specialise::Choice::Primary => match (primary, bound) {
                (Some(k), Some(b)) => Ok((k, b)),
                (Some(k), None) => Ok((k, Bindings::default())),
                (None, _) => Err(CheckError::TemplateArguments {
                    template: text.to_string(),
                    problem: TemplateProblem::NoSpecialisation,
                    span,
                    help: Some(match text.split('<').next().unwrap_or(text) {
                        f if super::groups::unqualified(f) == "fragment" => {
                            super::wmma::HAVE.to_string()
                        }
                        t => format!(
                            "`{t}` is only declared: define it, or a specialisation for these arguments"
                        ),
                    }),
                }),
            },
            super::specialise::Choice::Ambiguous(ks) => Err(CheckError::TemplateArguments {
                template: text.to_string(),
                problem: TemplateProblem::Ambiguous,
                span,
                help: Some(format!(
                    "these partial specialisations match it and none is more specialised than the others: {}; add an explicit specialisation `template <> struct {}`",
                    ks.iter()
                        .map(|&k| format!("`{}{}`", defs[specs[k].0].name.name, defs[specs[k].0].spec))
                        .collect::<Vec<_>>()
                        .join(", "),
                    text
                )),
            }),
        }
    }

    /// A specialisation's argument `a`: a name of a constant (an enumerator, not one of the
    /// specialisation's `own` parameters) as its value, anything else as written.
    fn evaluated_arg(
        &mut self,
        a: &ast::TemplateArg,
        own: &[ast::TemplateParam],
    ) -> ast::TemplateArg {
        let ast::TemplateArg::Value(e) = a else {
            return a.clone();
        };
        let ast::ExprKind::Name(n) = &e.kind else {
            return a.clone();
        };
        if own.iter().any(|p| &p.name.name == n) || n.contains('<') {
            return a.clone();
        }
        let value = self
            .globals
            .consts
            .get(n.as_str())
            .and_then(|v| v.ty().is_integer().then(|| v.as_i64()).flatten());
        let Some(v) = value else {
            return a.clone();
        };
        ast::TemplateArg::Value(super::template::int_expr(v, e.span))
    }

    /// The integer constant `e` stands for here, if it is one.
    fn constant_value(&mut self, e: &ast::Expr) -> Option<i128> {
        let t = self.constant_expr(e).ok()?;
        match t.kind {
            super::typed::ExprKind::Const(crate::value::Value::U64(x)) => Some(i128::from(x)),
            super::typed::ExprKind::Const(v)
                if t.ty.is_integer() || t.ty == crate::value::Scalar::Bool =>
            {
                v.as_i64().map(i128::from)
            }
            _ => None,
        }
    }

    fn object(&mut self, def: usize, bindings: Bindings, span: Span) -> Result<Object> {
        let d = &self.globals.structs[def];
        if self.holds_data(def, &bindings, span) {
            return Err(CheckError::Unsupported {
                what: format!("the struct `{}` with data members here", d.name.name),
                span,
                help: Some(
                    "a struct with data is a value: declare a variable of it, pass it, or point to a buffer of it"
                        .into(),
                ),
            });
        }
        Ok(Object { def, bindings })
    }

    /// Whether struct `def` holds data: a member simt refuses, or a field other than an object
    /// without data (GraphBLAST's monoids hold `SemiringT sr;` of a semiring of functions only:
    /// one byte in C++ that nothing reads).
    pub(crate) fn holds_data(&mut self, def: usize, bindings: &Bindings, span: Span) -> bool {
        let d = &self.globals.structs[def];
        if d.unsupported.is_some() {
            return true;
        }
        if self.data_open.contains(&def) {
            return true;
        }
        let fields: Vec<ast::Field> = d.fields.iter().filter(|f| !f.is_static).cloned().collect();
        self.data_open.push(def);
        let data = fields
            .iter()
            .any(|f| self.empty_field(f, bindings, span).is_none());
        self.data_open.pop();
        data
    }

    /// The object a field of a struct (under `bindings`) is, where its type is a struct without
    /// data held by value.
    pub(crate) fn empty_field(
        &mut self,
        f: &ast::Field,
        bindings: &Bindings,
        span: Span,
    ) -> Option<Object> {
        let mut ty = f.ty.clone();
        bindings.ty(&mut ty);
        let plain = f.dims.is_empty() && !f.anonymous && !ty.pointer && !ty.reference;
        if !plain || ty.base != ast::BaseType::Named {
            return None;
        }
        self.struct_type(&ty.base_text, span)?.ok()
    }

    /// The scope the member functions of object `o` see: `this`, the object itself, and its
    /// fields, which are objects themselves (`sr.add_op(a, b)` in a monoid's `operator()`).
    pub(crate) fn object_members(&mut self, o: &Object, span: Span) -> Option<super::Scope> {
        let fields: Vec<ast::Field> = self.globals.structs[o.def]
            .fields
            .iter()
            .filter(|f| !f.is_static)
            .cloned()
            .collect();
        let name = self.globals.structs[o.def].name.name.clone();
        let mut scope = self
            .static_scope((o.def, &o.bindings), (&name, span))
            .ok()?;
        self.objects.push(o.clone());
        let this = Binding::Object(self.objects.len() as u32 - 1);
        scope.insert("this".into(), (this, span));
        for f in &fields {
            let member = self.empty_field(f, &o.bindings, span)?;
            self.objects.push(member);
            let i = self.objects.len() as u32 - 1;
            scope.insert(f.name.name.clone(), (Binding::Object(i), f.name.span));
        }
        Some(scope)
    }

    /// The member function `name` of an object, with the object's template arguments applied
    /// (`operator` for the conversion to a pointer).
    pub(crate) fn member_fn(&self, o: &Object, name: &str) -> Option<ast::Function> {
        let d = &self.globals.structs[o.def];
        let m = if name == "operator" {
            d.methods
                .iter()
                .filter(|m| m.name.name == "operator" && m.ret.pointer)
                .min_by_key(|m| m.ret.is_const)
        } else {
            d.methods.iter().find(|m| m.name.name == name)
        }?;
        Some(o.bindings.member(m))
    }

    /// The member function `name` of an object that a call with `args` calls: of its overloads
    /// (`operator()(int)` beside `operator()(float)`), the best by C++'s ranking.
    pub(crate) fn member_fn_for(
        &mut self,
        o: &Object,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<ast::Function> {
        let candidates = self.methods_of(o.def, &o.bindings, |m| m.name.name == name);
        if candidates.len() < 2 {
            return self.member_fn(o, name);
        }
        self.best_member(candidates, args)
    }

    /// The member function `Owner::f` names, where `Owner` is a struct of the file or an
    /// instance of a struct template (`Cosine<float>::dot`): called without an object, as a
    /// static member is.
    pub(crate) fn static_member_fn(
        &mut self,
        name: &str,
        span: Span,
        args: &[ast::Expr],
    ) -> Option<StaticCall> {
        let (owner, member) = name.rsplit_once("::")?;
        let owner = owner.trim_start_matches("::");
        let (def, bindings) = if owner.contains('<') {
            self.struct_def_of(owner, span)?.ok()?
        } else {
            // `dgl::aten::Add::Call`: a class of a namespace, by its own name where the file
            // has no class of the qualified one.
            let plain = |owner: &str| {
                self.globals
                    .structs
                    .iter()
                    .position(|d| d.name.name == owner && d.template.is_empty())
            };
            let def = plain(owner).or_else(|| plain(super::groups::unqualified(owner)))?;
            (def, Bindings::default())
        };
        let candidates: Vec<ast::Function> = self.globals.structs[def]
            .methods
            .iter()
            .filter(|m| m.name.name == member)
            .map(|m| {
                if !owner.contains('<') {
                    return m.clone();
                }
                // Named by its instance (`min_impl<T, 16u / 2>::call`), so that one instance
                // calling another (libSGM's `min_impl<T, STEP / 2>::call`, ended by a
                // specialisation) is not taken for recursion.
                let mut f = bindings.member(m);
                f.name.name = format!("{owner}::{member}");
                f
            })
            .collect();
        Some(StaticCall {
            f: self.best_member(candidates, args)?,
            def,
            bindings,
            owner: owner.to_string(),
            span,
        })
    }

    /// The scope of a member function of the struct `def` (`ty`, named where `span` is) for
    /// its static members: each a constant of its name.
    fn static_scope(
        &mut self,
        (def, bindings): (usize, &Bindings),
        (ty, span): (&str, Span),
    ) -> Result<super::Scope> {
        let values = self.static_values((def, bindings), (ty, span), None)?;
        Ok(values
            .into_iter()
            .map(|(n, v)| (n.name, (Binding::Constant(v, v.ty()), n.span)))
            .collect())
    }

    /// Inlines a static member function's call.
    pub(crate) fn inline_member(
        &mut self,
        m: &StaticCall,
        call: (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Result<super::typed::Expr> {
        self.with_statics(m, |s, f| s.inline_call(f, call, span, allow_void))
    }

    /// Runs `run` (an inlining) on the static member function `m`'s body as its class reads it
    /// ([`Self::in_class`]), with the class's static members in scope.
    pub(crate) fn with_statics<T>(
        &mut self,
        m: &StaticCall,
        run: impl FnOnce(&mut Self, &ast::Function) -> Result<T>,
    ) -> Result<T> {
        let f = self.in_class(m.def, &m.f, Some(&m.owner));
        let scope = self.static_scope((m.def, &m.bindings), (&m.owner, m.span))?;
        let outer = self.pending_this.replace(scope);
        let result = run(self, &f);
        self.pending_this = outer;
        result
    }

    /// The object `e` names: a variable of a struct type, or a temporary `S<T>()`.
    pub(crate) fn object_of(&mut self, e: &ast::Expr) -> Option<Result<Object>> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Object(i)) => Some(Ok(self.objects[i as usize].clone())),
                _ => None,
            },
            // `this->f()` in a member function of an object without data.
            ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                operand,
            } if matches!(&operand.kind, ast::ExprKind::Name(n) if n == "this") => {
                self.object_of(operand)
            }
            // `r.op` of a struct holding an object beside its data.
            ast::ExprKind::Member { base, field } => {
                let l = self.struct_of(base)?;
                let m = l.objects.iter().find(|m| m.name == field.name)?;
                Some(Ok(m.object.clone()))
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if args.is_empty() => {
                let text = if targs.is_empty() {
                    callee.name.clone()
                } else {
                    format!("{}<{}>", callee.name, self.targs_text(targs)?)
                };
                self.struct_type(&text, e.span)
            }
            _ => None,
        }
    }

    /// `r.op = o` of an object member (a constructor's `: op(o)`): an object holds no data,
    /// so nothing is copied.
    pub(crate) fn object_assignment(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
    ) -> Result<()> {
        let member = self.object_of(target).expect("checked: an object member")?;
        self.object_value(&member, value)
    }

    /// Checks that `value`, given for an object of `member`'s type, is one (or `{}`).
    pub(crate) fn object_value(&mut self, member: &Object, value: &ast::Expr) -> Result<()> {
        if matches!(&value.kind, ast::ExprKind::List(items) if items.is_empty()) {
            return Ok(());
        }
        let d = &self.globals.structs[member.def];
        let ty = d.name.name.clone();
        match self.object_of(value) {
            Some(Ok(o)) if self.same_instance(&o, member) => Ok(()),
            Some(Err(e)) => Err(e),
            Some(Ok(_)) => Err(CheckError::Mismatch {
                expected: format!("an object of `{ty}` with the member's template arguments"),
                found: "another instance".into(),
                span: value.span,
                help: Some(format!("give the member's own type, `{ty}<...>()`")),
            }),
            // `: op(2.0f)` of a class with a converting constructor: one that does nothing
            // (an object has no data to set) makes the object, as C++ does.
            None if d
                .ctors
                .iter()
                .any(|c| c.params.len() == 1 && c.body.is_empty()) =>
            {
                Ok(())
            }
            None if d.ctors.iter().any(|c| c.params.len() == 1) => Err(CheckError::Unsupported {
                what: format!("an object member of `{ty}` made by a constructor with a body"),
                span: value.span,
                help: Some(format!("give it an object, `{ty}()`")),
            }),
            None => Err(CheckError::Mismatch {
                expected: format!("an object of `{ty}`"),
                found: "a value".into(),
                span: value.span,
                help: Some(format!("give an object of `{ty}` (`{ty}()`)")),
            }),
        }
    }

    /// Whether two objects are of one type: one struct, with the same template arguments.
    fn same_instance(&mut self, a: &Object, b: &Object) -> bool {
        if a.def != b.def {
            return false;
        }
        let params = self.globals.structs[a.def].template.clone();
        params.iter().all(|p| {
            let name = &p.name.name;
            let ty = |o: &Object| {
                o.bindings
                    .types
                    .get(name)
                    .map(|t| (t.base_text.clone(), t.pointer))
            };
            let value = |this: &mut Self, o: &Object| {
                let e = o.bindings.values.get(name)?.clone();
                this.constant_value(&e)
            };
            ty(a) == ty(b) && value(self, a) == value(self, b)
        })
    }

    /// Template arguments as text (`float`, `64`; a constant expression such as `sizeof(T)`
    /// by its value), for naming a struct instance.
    pub(crate) fn targs_text(&mut self, targs: &[ast::TemplateArg]) -> Option<String> {
        let parts: Option<Vec<String>> = targs
            .iter()
            .map(|a| match a {
                ast::TemplateArg::Type(t) => Some(t.base_text.clone()),
                ast::TemplateArg::Value(ast::Expr {
                    kind: ast::ExprKind::Name(n),
                    ..
                }) => Some(n.clone()),
                ast::TemplateArg::Value(ast::Expr {
                    kind: ast::ExprKind::Int { value, .. },
                    ..
                }) => Some(value.to_string()),
                ast::TemplateArg::Value(e) => self.constant_value(e).map(|v| v.to_string()),
            })
            .collect();
        parts.map(|p| p.join(","))
    }

    /// `F<float>()(p, v)`: a call of a temporary function object without data (pytorch_scatter's
    /// `AtomicAddDecimalImpl<scalar_t, sizeof(scalar_t)>()(address, val)`): its `operator()`;
    /// `op.identity()` or `Min<P>().identity()`: a member function of a named or temporary object
    /// without data (faiss's `Sum<T>`).
    pub(crate) fn temporary_call(
        &mut self,
        e: &ast::Expr,
        allow_void: bool,
    ) -> Option<Result<super::typed::Expr>> {
        let ast::ExprKind::Method {
            object,
            method,
            targs,
            args,
        } = &e.kind
        else {
            return None;
        };
        // `op.f()`, `r.op.f()` of an object member, or `S<T>().f()`.
        let named = match &object.kind {
            ast::ExprKind::Name(_) | ast::ExprKind::Member { .. } => true,
            ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                operand,
            } => matches!(&operand.kind, ast::ExprKind::Name(n) if n == "this"),
            _ => false,
        };
        if !named && !matches!(object.kind, ast::ExprKind::Call { .. }) {
            return None;
        }
        let o = self.object_of(object)?;
        // `Min<P>().identity()`: another member of a temporary is called only where the
        // temporary is an object without data (a struct with data is a value).
        if !named && method.name != "operator()" && o.is_err() {
            return None;
        }
        Some(o.and_then(|o| {
            self.call_object(&o, &method.name, (targs, args), e.span, allow_void)
                .unwrap_or_else(|| {
                    Err(CheckError::UnknownFunction {
                        name: method.name.clone(),
                        span: method.span,
                        suggestion: Some(format!("this struct has no `{}` to call", method.name)),
                    })
                })
        }))
    }

    /// A pointer from an object: `SharedMemory<T>()` or `SharedMemory<T> s;` converted, or
    /// `smem.getPointer()`.
    pub(crate) fn object_pointer(&mut self, e: &ast::Expr) -> Option<Result<Ptr>> {
        let (o, method, args) = match &e.kind {
            ast::ExprKind::Name(_) => (self.object_of(e)?, "operator", &[][..]),
            ast::ExprKind::Method {
                object,
                method,
                args,
                ..
            } => (
                self.object_of(object)?,
                method.name.as_str(),
                args.as_slice(),
            ),
            ast::ExprKind::Call { .. } => (self.object_of(e)?, "operator", &[][..]),
            _ => return None,
        };
        Some(o.and_then(|o| {
            let f = self.member_fn(&o, method).filter(|f| f.ret.pointer);
            let Some(f) = f else {
                return Err(CheckError::Pointer {
                    problem: PointerProblem::NoPointerMethod {
                        method: method.to_string(),
                    },
                    span: e.span,
                    help: None,
                });
            };
            self.call_pointer(&f, &[], args, e.span)
        }))
    }

    /// Whether a struct of this name converts to a pointer (`operator T*()`).
    pub(crate) fn struct_converts(&self, name: &str) -> bool {
        self.globals.structs.iter().any(|d| {
            d.name.name == name
                && d.methods
                    .iter()
                    .any(|m| m.name.name == "operator" && m.ret.pointer)
        })
    }

    /// `SharedMemory<T> smem;`: an object with no data; `= SumOp<float>()` or `= other` of
    /// its own type copies nothing.
    pub(crate) fn declare_object(&mut self, d: &ast::Declarator, o: Object) -> Result<()> {
        let copied = match &d.init {
            Some(init) => match self.object_of(init) {
                Some(Ok(from)) => self.same_instance(&from, &o),
                _ => false,
            },
            None => true,
        };
        if !copied || d.list.is_some() || !d.dims.is_empty() || d.pointer {
            return Err(CheckError::Unsupported {
                what: format!("this declaration of the struct object `{}`", d.name.name),
                span: d.name.span,
                help: Some("declare it on its own: `SharedMemory<T> smem;`".into()),
            });
        }
        self.objects.push(o);
        self.declare(&d.name, Binding::Object(self.objects.len() as u32 - 1));
        Ok(())
    }
}
