//! Overloads chosen as C++ chooses them, for calls of functions and of free operators alike:
//! each argument's conversion to each candidate's parameter is ranked, and the candidate no worse
//! for any argument and better for one is called. A built-in of the same name (CUDA's
//! `make_int4(int, int, int, int)` beside a file's `make_int4(int)`) is one more candidate.

use std::collections::HashMap;
use std::rc::Rc;

use super::error::CheckError;
use super::partial_order::more_specialised;
use super::structs::Layout;
use super::{ast, KernelChecker};
use crate::source::Span;
use crate::value::Scalar;

/// How well an argument fits a parameter: C++'s ranks of implicit conversions, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    /// Through a constructor of the parameter's struct (`2.0f` for a `const V&` with `V(float)`).
    UserDefined,
    /// Between arithmetic types (`int` to `float`, `double` to `float`); also a pointer to
    /// a `void*` parameter, or one whose pointee is not known here.
    Conversion,
    /// A derived class's object (or pointer) for a base class's (C++ ranks it a conversion,
    /// better than to `void*`, and to a nearer base better than to a farther one
    /// [over.ics.rank]): 255 less the derivations between them.
    Derived(u8),
    /// `float` to `double`.
    Promotion,
    /// The same type with a qualifier added: a plain pointer to a `volatile T*` or `const T*`
    /// parameter.
    Qualified,
    /// The same type (or a template parameter, which deduces it).
    Exact,
    /// A variable bound to a non-`const` reference, which C++ prefers to a `const` one (simt
    /// also prefers it to a copy, which C++ leaves ambiguous).
    Bound,
}

/// What an argument is, as far as choosing an overload needs.
#[derive(Clone, Debug, PartialEq)]
enum Arg {
    /// A struct, by name.
    Struct(String),
    /// A CUDA vector such as `float4`.
    Vector(Scalar, u32),
    /// A number of this (promoted) type.
    Scalar(Scalar),
    /// A pointer, by what it points to (`None`: into no array yet), whether to `const`, and
    /// the struct it points to, if one.
    Pointer(Option<(Scalar, u32)>, bool, Option<String>),
    /// A cooperative group (`tile` of `cg::tiled_partition<16>(block)`).
    Group(super::groups::Group),
}

/// One argument of a call, as choosing an overload sees it.
pub(crate) struct Given {
    /// What it is; `None` where that cannot be told without running it.
    kind: Option<Arg>,
    /// A variable, which a non-`const` reference binds.
    named: bool,
    /// A value no object holds (a literal, an arithmetic result), which a non-`const`
    /// reference cannot bind.
    temporary: bool,
}

impl Arg {
    /// The type as C++ spells it, for messages.
    fn spelling(&self) -> String {
        match self {
            Arg::Struct(name) => name.clone(),
            Arg::Vector(elem, width) => super::typed::type_name(*elem, *width),
            Arg::Scalar(s) => s.c_name().into(),
            Arg::Pointer(..) => "a pointer".into(),
            Arg::Group(_) => "a cooperative group".into(),
        }
    }
}

/// The free operator function a call uses.
pub(crate) enum Choice<'g> {
    /// The one best candidate.
    One(&'g ast::Function),
    /// No operator function of this name and arity.
    Undeclared,
    /// Candidates exist but none is best: none fits, or several fit equally well.
    Unresolved {
        /// The candidates of the call's arity, in file order.
        candidates: Vec<&'g ast::Function>,
        /// The arguments' types, as C++ spells them.
        args: Vec<String>,
        /// Several fit and none is better than the others.
        ambiguous: bool,
    },
}

/// What C++'s ranking chose among a call's candidates.
enum Ranked<'g> {
    /// This function of the file.
    One(&'g ast::Function),
    /// The built-in of the name.
    Builtin,
    /// None is best: the viable ones (several, equally good), or none at all.
    Unresolved(Vec<&'g ast::Function>),
}

/// Whether `f` can be called with `n` arguments (trailing parameters with a default may be
/// left out).
pub(crate) fn takes(f: &ast::Function, n: usize) -> bool {
    let required = f
        .params
        .iter()
        .rposition(|p| p.default.is_none())
        .map_or(0, |k| k + 1);
    (required..=f.params.len()).contains(&n)
}

/// Whether a call with the explicit template arguments `targs` can bind every template
/// parameter of `f`: no more arguments than parameters (but for a pack), and each parameter
/// left out has a default or appears in a function parameter's type, whence the call's
/// arguments deduce it (C++ [temp.deduct]: otherwise the candidate is not viable).
pub(crate) fn bindable(f: &ast::Function, targs: &[ast::TemplateArg]) -> bool {
    if f.template.is_empty() {
        return targs.is_empty();
    }
    if targs.len() > f.template.len() && !f.template.iter().any(|p| p.pack) {
        return false;
    }
    let named = |e: &ast::Expr, name: &str| matches!(&e.kind, ast::ExprKind::Name(n) if n == name);
    let deduced = |name: &str| {
        f.params.iter().any(|p| {
            p.ty.base_text
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == name)
                || p.extent.as_ref().is_some_and(|e| named(e, name))
                || p.rows.iter().any(|e| named(e, name))
        })
    };
    f.template.iter().skip(targs.len()).all(|p| {
        let defaulted = match &p.kind {
            ast::TemplateParamKind::Type(d) => d.is_some(),
            ast::TemplateParamKind::Value(_, d) | ast::TemplateParamKind::Function(_, d) => {
                d.is_some()
            }
            ast::TemplateParamKind::Template(_, d) => d.is_some(),
        };
        p.pack || defaulted || deduced(&p.name.name)
    })
}

/// How many arguments `f` takes: `2`, or `0 to 2` where trailing parameters have defaults.
pub(crate) fn arity_text(f: &ast::Function) -> String {
    let required = f
        .params
        .iter()
        .rposition(|p| p.default.is_none())
        .map_or(0, |k| k + 1);
    if required == f.params.len() {
        required.to_string()
    } else {
        format!("{required} to {}", f.params.len())
    }
}

impl<'g> KernelChecker<'g, '_> {
    /// The free `operator op` (`name` is `operator*`) that `args` call, ranked as C++ ranks
    /// overloads. Each argument comes with its struct type, which the caller has asked for
    /// already (asking again here would double the work at every level of `a * b * c * ...`).
    pub(crate) fn free_operator(
        &mut self,
        name: &str,
        args: &[(&ast::Expr, Option<Rc<Layout>>)],
    ) -> Choice<'g> {
        let candidates: Vec<&'g ast::Function> = match self.globals.overloads.get(name) {
            Some(all) => all
                .iter()
                .copied()
                .filter(|f| f.params.len() == args.len())
                .collect(),
            None => Vec::new(),
        };
        match candidates[..] {
            [] => return Choice::Undeclared,
            // One candidate is called; binding its parameters names any mismatch.
            [only] => return Choice::One(only),
            _ => {}
        }
        // kaolin's `operator-(V, const V&)` twice, for 3- and 2-component `V` by `enable_if`:
        // the one whose condition fails is discarded (SFINAE). Where every one is, binding the
        // first names the mismatch.
        let candidates = if candidates.iter().any(|f| conditional(f)) {
            let exprs: Vec<ast::Expr> = args.iter().map(|(a, _)| (*a).clone()).collect();
            match self.substitutable(name, candidates.clone(), &[], &exprs) {
                Ok(kept) if kept.len() == 1 => return Choice::One(kept[0]),
                Ok(kept) => kept,
                Err(_) => candidates,
            }
        } else {
            candidates
        };
        let given: Vec<Given> = args.iter().map(|(a, l)| self.given(a, l)).collect();
        match self.rank(&candidates, &given, None, &[]) {
            Ranked::One(f) => Choice::One(f),
            Ranked::Builtin => unreachable!("operators have no built-in candidate"),
            Ranked::Unresolved(viable) => Choice::Unresolved {
                ambiguous: !viable.is_empty(),
                args: given
                    .iter()
                    .map(|g| g.kind.as_ref().map_or_else(|| "?".into(), Arg::spelling))
                    .collect(),
                candidates,
            },
        }
    }

    /// The definition of `name` a call with `args` uses, ranked as C++ ranks overloads; `None`
    /// where the file defines no function of the name, or where the built-in of the name fits
    /// better (`make_int4(a, a, a, a)` beside a file's `make_int4(int a)`). Where none is best,
    /// the first viable one (or, none viable, the first of the right arity, or the only one)
    /// is called, and binding its parameters names any mismatch.
    pub(crate) fn overload(
        &mut self,
        name: &str,
        args: &[ast::Expr],
    ) -> Result<Option<&'g ast::Function>, CheckError> {
        self.overload_with(name, &[], args)
    }

    /// [`Self::overload`] of a call with explicit template arguments `targs` (`f<float>(x)`).
    /// A function template whose `enable_if` names no type for the call's arguments is
    /// discarded first, as C++ discards it (SFINAE); where that leaves none, the call is
    /// `simt::check::no_viable_overload`, naming each candidate and why.
    pub(crate) fn overload_with(
        &mut self,
        name: &str,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
    ) -> Result<Option<&'g ast::Function>, CheckError> {
        let Some(all) = self.globals.overloads.get(name) else {
            return Ok(None);
        };
        // CUDA's `make_float4(float, float, float, float)` and the other vector constructors.
        let builtin = name
            .strip_prefix("make_")
            .and_then(super::vector::cuda_vector);
        let mut fitting: Vec<&'g ast::Function> = all
            .iter()
            .copied()
            .filter(|f| takes(f, args.len()))
            .collect();
        // A template whose parameters the call can neither be given nor deduce is discarded
        // (TurboTransformers' prototype `template <typename Type, Type t, int N>` beside the
        // `template <ReduceType R, int N>` that `blockReduce<kSum, 2>(v)` calls).
        let bound: Vec<&'g ast::Function> = fitting
            .iter()
            .copied()
            .filter(|f| bindable(f, targs))
            .collect();
        if !bound.is_empty() {
            fitting = bound;
        }
        let fitting = self.substitutable(name, fitting, targs, args)?;
        // CUDA's own atomics and math functions overload the file's (torch-ngp's
        // `atomicAdd(__half*, __half)` beside a `float*` call, helper_math's `fminf(float3,
        // float3)` beside `fminf(a.x, b.x)`): a file's function no argument fits leaves the
        // call to them.
        let cuda_too = cuda_declares(name);
        match (builtin, fitting.len()) {
            (Some(_), 0) => return Ok(None),
            (None, 0 | 1) if !cuda_too => return Ok(fitting.first().or(all.first()).copied()),
            (None, 0) => return Ok(None),
            _ => {}
        }
        let mut given = Vec::with_capacity(args.len());
        for a in args {
            let layout = self.struct_of(a);
            given.push(self.given(a, &layout));
        }
        let builtin = builtin.filter(|&(_, width)| width as usize == args.len());
        let builtin_fits = match builtin {
            // Each component converts from a number.
            Some((elem, _)) => Some(given.iter().map(|g| number_fit(elem, g)).collect()),
            None => math_builtin_fits(name, &given),
        };
        let builtin = builtin_fits.is_some();
        Ok(match self.rank(&fitting, &given, builtin_fits, targs) {
            Ranked::One(f) => Some(f),
            Ranked::Builtin => None,
            // Where every argument's type is known, C++ refuses a tie (unless two of the
            // overloads differ only in types simt holds as one: `long` and `long long`).
            Ranked::Unresolved(viable)
                if viable.len() > 1
                    && !builtin
                    && given.iter().all(|g| g.kind.is_some())
                    && !any_alike(&viable) =>
            {
                return Err(ambiguous(name, &viable, &given, args));
            }
            Ranked::Unresolved(viable) => match (viable.first(), builtin) {
                (Some(&f), _) => Some(f),
                (None, true) => None,
                (None, false) if cuda_too => None,
                (None, false) => Some(fitting[0]),
            },
        })
    }

    /// The file's function a call of `name` runs: the overload its arguments choose, else the
    /// first declared, unless CUDA has a function of the name too, which then takes the call.
    pub(crate) fn file_callee(
        &mut self,
        name: &str,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
    ) -> Result<Option<&'g ast::Function>, CheckError> {
        Ok(match self.overload_with(name, targs, args)? {
            Some(f) => Some(f),
            None if cuda_declares(name) => None,
            None => self.globals.functions.get(name).copied(),
        })
    }

    /// `candidates` without the function templates whose substitution fails for `targs` and
    /// `args` (an `enable_if` that names no type); an error where that leaves none.
    fn substitutable(
        &mut self,
        name: &str,
        candidates: Vec<&'g ast::Function>,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
    ) -> Result<Vec<&'g ast::Function>, CheckError> {
        if !candidates.iter().any(|f| conditional(f)) {
            return Ok(candidates);
        }
        let span = match (args.first(), args.last()) {
            (Some(a), Some(b)) => a.span.to(b.span),
            _ => candidates[0].name.span,
        };
        let mut kept = Vec::new();
        let mut discarded = Vec::new();
        for f in &candidates {
            if !conditional(f) {
                kept.push(*f);
                continue;
            }
            match self.function_instance(f, targs, args, span) {
                Err(e @ CheckError::SubstitutionFailure { .. }) => discarded.push((*f, e)),
                _ => kept.push(*f),
            }
        }
        if !kept.is_empty() {
            return Ok(kept);
        }
        if let [(_, only)] = discarded.as_slice() {
            // The only candidate: its own failure says it all.
            let CheckError::SubstitutionFailure {
                name,
                with,
                why,
                at,
                help,
                ..
            } = only
            else {
                unreachable!("kept above: substitution failures only")
            };
            return Err(CheckError::SubstitutionFailure {
                name: name.clone(),
                with: with.clone(),
                why: why.clone(),
                span,
                at: *at,
                help: help.clone(),
            });
        }
        let reasons: Vec<(String, Span)> = discarded
            .iter()
            .map(|(f, e)| {
                let reason = match e {
                    CheckError::SubstitutionFailure { with, why, .. } => {
                        format!("with {with}, {why}")
                    }
                    _ => unreachable!("kept above: substitution failures only"),
                };
                (format!("{} discarded: {reason}", signature(f)), f.name.span)
            })
            .collect();
        Err(CheckError::NoViableOverload {
            name: name.to_string(),
            why: format!(
                "{} candidates, each discarded because its `enable_if` names no type for these arguments",
                discarded.len()
            ),
            span,
            candidates: reasons
                .iter()
                .map(|(r, at)| miette::LabeledSpan::new_with_span(Some(r.clone()), *at))
                .collect(),
            help: "pass arguments one candidate's `enable_if` condition holds for, or declare an overload for these".into(),
        })
    }

    /// The best of several constructors of one arity for `args`, ranked as C++ ranks overloads
    /// (`half2_uint32(uint32_t)` and `half2_uint32(half2)`); the first where none is best.
    pub(crate) fn best_constructor(
        &mut self,
        ctors: &[&'g ast::Function],
        args: &[ast::Expr],
    ) -> &'g ast::Function {
        self.best_of(ctors, args)
    }

    /// The member function a call with `args` calls among `candidates`, a struct's member
    /// functions of one name (chacha20's `next(uint32_t result[16])` beside `next(uint8_t
    /// result8[64])`, DGL's static `Call` of six and of four parameters): the best of those
    /// taking that many arguments, ranked as C++ ranks overloads; the first where none is best
    /// or none takes them.
    pub(crate) fn best_member(
        &mut self,
        candidates: Vec<ast::Function>,
        args: &[ast::Expr],
    ) -> Option<ast::Function> {
        let fitting: Vec<&ast::Function> =
            candidates.iter().filter(|m| takes(m, args.len())).collect();
        match fitting.as_slice() {
            [] => candidates.first().cloned(),
            [one] => Some((*one).clone()),
            _ => Some(self.best_of(&fitting, args).clone()),
        }
    }

    /// The best of `candidates` (no built-in among them) for `args`; the first viable one, or
    /// the first, where none is best.
    fn best_of<'c>(
        &mut self,
        candidates: &[&'c ast::Function],
        args: &[ast::Expr],
    ) -> &'c ast::Function {
        let mut given = Vec::with_capacity(args.len());
        for a in args {
            let layout = self.struct_of(a);
            given.push(self.given(a, &layout));
        }
        match self.rank(candidates, &given, None, &[]) {
            Ranked::One(f) => f,
            Ranked::Builtin => unreachable!("no built-in candidate was given"),
            Ranked::Unresolved(viable) => viable.first().copied().unwrap_or(candidates[0]),
        }
    }

    /// Whether a call of `name` with `args` calls CUDA's built-in vector constructor although
    /// the file defines functions of its name (OpenMM's `make_int4(int a)` beside CUDA's
    /// `make_int4(int, int, int, int)`).
    pub(crate) fn builtin_wins(&mut self, name: &str, args: &[ast::Expr]) -> bool {
        name.strip_prefix("make_")
            .and_then(super::vector::cuda_vector)
            .is_some()
            && self.globals.overloads.contains_key(name)
            && matches!(self.overload(name, args), Ok(None))
    }

    /// The file's function a call of a built-in vector constructor's name calls, where the file
    /// overloads it and its function fits better (`make_float3(a)` of `make_float3(float)`).
    pub(crate) fn user_constructor(
        &mut self,
        name: &str,
        args: &[ast::Expr],
    ) -> Result<Option<&'g ast::Function>, CheckError> {
        if !name.starts_with("make_") || !self.globals.overloads.contains_key(name) {
            return Ok(None);
        }
        self.overload(name, args)
    }

    /// Whether a call of `min` or `max` with `args` is an exact match for one of CUDA's built-in
    /// device overloads (math_functions.hpp: `int`/`unsigned` pairs, `long long`/`unsigned long
    /// long` pairs, `float`/`double` pairs). Then C++ picks the built-in over a file's host
    /// function of the name: a template `T max(T, T)` loses the tie to the non-template
    /// ([over.match.best]), and a non-template of the same parameters would redeclare it
    /// (thundersvm's host `max` beside a kernel's `max(double, double)`). With other arguments
    /// (`unsigned char`, `short`) the host template fits better than the built-in, and nvcc
    /// refuses the call from device code.
    pub(crate) fn builtin_min_max_fits(&mut self, name: &str, args: &[ast::Expr]) -> bool {
        if !matches!(name, "min" | "max") || args.len() != 2 {
            return false;
        }
        let mut types = Vec::with_capacity(2);
        for a in args {
            if self.is_pointer(a) || self.struct_of(a).is_some() {
                return false;
            }
            let Ok(t) = self.expr(a) else {
                return false;
            };
            types.push(self.own_type(a, &t));
        }
        let family = |t: Scalar| match t {
            Scalar::I32 | Scalar::U32 => Some(0),
            Scalar::I64 | Scalar::U64 => Some(1),
            Scalar::F32 | Scalar::F64 => Some(2),
            _ => None,
        };
        matches!((family(types[0]), family(types[1])), (Some(a), Some(b)) if a == b)
    }

    /// The best of `candidates` for arguments `given`, and of the built-in whose fits for them
    /// are `builtin` if there is one (`make_int4`'s four `int`s, CUDA's `max(float, float)`):
    /// the candidate no worse for any argument and better for one; on a tie the file's
    /// function beats the built-in, and the built-in (a function, as C++ ranks it) a function
    /// template.
    fn rank<'c>(
        &mut self,
        candidates: &[&'c ast::Function],
        given: &[Given],
        builtin: Option<Vec<Option<Fit>>>,
        targs: &[ast::TemplateArg],
    ) -> Ranked<'c> {
        // Per candidate, each argument's fit; `None` where one cannot be converted at all. A
        // parameter of a type given explicitly (`cmul<float2, float>(a, 0.5f)`) is of that
        // type, which the argument converts to as to any other.
        let mut fits: Vec<Option<Vec<Fit>>> = candidates
            .iter()
            .map(|f| {
                let mut deduced = HashMap::new();
                explicit_params(f, targs)
                    .iter()
                    .zip(given)
                    .map(|(p, g)| self.fit(f, p, g, &mut deduced))
                    .collect()
            })
            .collect();
        // The built-in last.
        if let Some(b) = builtin {
            fits.push(b.into_iter().collect());
        }
        // A template, or the built-in (past the end of `candidates`), loses a tie to a
        // function; of two templates, the more specialised wins it.
        let rank_on_tie = |i: usize| match candidates.get(i) {
            Some(f) if f.template.is_empty() => 3,
            Some(_) => 1,
            None => 2,
        };
        let wins_tie = |i: usize, j: usize| match (candidates.get(i), candidates.get(j)) {
            (Some(f), Some(g)) if !f.template.is_empty() && !g.template.is_empty() => {
                more_specialised(f, g)
            }
            _ => rank_on_tie(i) > rank_on_tie(j),
        };
        let better = |i: usize, j: usize| {
            let (a, b) = (
                fits[i].as_deref().expect("viable"),
                fits[j].as_deref().expect("viable"),
            );
            let no_worse = a.iter().zip(b).all(|(x, y)| x >= y);
            no_worse && (a.iter().zip(b).any(|(x, y)| x > y) || wins_tie(i, j))
        };
        let viable: Vec<usize> = (0..fits.len()).filter(|&i| fits[i].is_some()).collect();
        let best = viable
            .iter()
            .copied()
            .find(|&i| viable.iter().all(|&j| j == i || better(i, j)));
        match best {
            Some(i) if i == candidates.len() => Ranked::Builtin,
            Some(i) => Ranked::One(candidates[i]),
            None => Ranked::Unresolved(
                viable
                    .iter()
                    .filter_map(|&i| candidates.get(i).copied())
                    .collect(),
            ),
        }
    }

    /// What `e` (of struct type `layout`, if any) is, decided without running it.
    fn given(&mut self, e: &ast::Expr, layout: &Option<Rc<Layout>>) -> Given {
        // An lvalue: a variable, an element, a member, what a pointer points to.
        let named = matches!(
            e.kind,
            ast::ExprKind::Name(_)
                | ast::ExprKind::Index { .. }
                | ast::ExprKind::Member { .. }
                | ast::ExprKind::Unary {
                    op: ast::UnOp::Deref,
                    ..
                }
        );
        // An array member (`ks` in a member function) is the pointer it converts to.
        // A vector member of a union is laid out as a struct of its components, but is the
        // vector (`u.data.val` of a `union { float4 val; ... } data;`).
        let vector = layout
            .as_ref()
            .and_then(|l| super::vector::value_vector_layout(l));
        let kind = if let Some((elem, width)) = vector {
            Some(Arg::Vector(elem, width))
        } else if let Some(l) = layout.as_ref().filter(|l| !l.array) {
            Some(Arg::Struct(l.name.clone()))
        } else if let Ok(Some(g)) = self.group(e) {
            Some(Arg::Group(g))
        } else if self.is_pointer(e) {
            let p = self.pointer(e).ok();
            Some(Arg::Pointer(
                p.as_ref().and_then(|p| p.mem.map(|m| (m.elem, m.width))),
                p.is_some_and(|p| p.is_const),
                self.struct_pointee(e).map(|l| l.name.clone()),
            ))
        } else if let Ok(Some((elem, width))) = self.value_vector_shape(e) {
            Some(Arg::Vector(elem, width))
        } else {
            self.expr(e).ok().map(|t| Arg::Scalar(self.own_type(e, &t)))
        };
        let temporary = match &e.kind {
            ast::ExprKind::Int { .. }
            | ast::ExprKind::Float { .. }
            | ast::ExprKind::Bool(_)
            | ast::ExprKind::Binary { .. } => true,
            // A call's result, unless the function returns a reference (`make_float4(...)`,
            // a `__device__ P make(int)`).
            ast::ExprKind::Call { callee, .. } => self
                .globals
                .functions
                .get(callee.name.as_str())
                .map_or(callee.name.starts_with("make_"), |f| !f.ret.reference),
            _ => false,
        };
        Given {
            kind,
            named,
            temporary,
        }
    }

    /// How well an argument of kind `arg` fits parameter `p` of `f`; `None` where it cannot.
    /// `deduced` holds what `f`'s template parameters stand for, as deduced from the arguments
    /// before; a second argument that deduces another type makes `f` not fit.
    fn fit(
        &mut self,
        f: &ast::Function,
        p: &ast::Param,
        given: &Given,
        deduced: &mut HashMap<String, String>,
    ) -> Option<Fit> {
        // An argument of a kind not told (a call the checker reports later) fits anything
        // equally, so the other arguments decide.
        let Some(arg) = &given.kind else {
            return Some(Fit::Conversion);
        };
        if given.temporary && p.ty.reference && !p.ty.is_const {
            return None;
        }
        let fit = self.fit_type(f, p, arg, deduced)?;
        Some(match fit {
            Fit::Exact if p.volatile => Fit::Qualified,
            Fit::Exact if given.named && p.ty.reference && !p.ty.is_const => Fit::Bound,
            fit => fit,
        })
    }

    /// How well an argument of kind `arg` converts to the type of parameter `p` of `f`.
    fn fit_type(
        &mut self,
        f: &ast::Function,
        p: &ast::Param,
        arg: &Arg,
        deduced: &mut HashMap<String, String>,
    ) -> Option<Fit> {
        // A template's type parameter is deduced from the argument: `T` takes the argument's
        // type (a pointer for a `T*`), `P<T>` an instance of `P`, whose arguments `T` takes;
        // every argument must deduce the same type for it.
        let text = &p.ty.base_text;
        let is_param = |word: &str| {
            f.template
                .iter()
                .any(|t| matches!(t.kind, ast::TemplateParamKind::Type(_)) && t.name.name == word)
        };
        // A group fits its own type exactly (as a template's `group_t`, or the
        // `thread_block_tile<M>` of a template, whose M it deduces), and `thread_group` by
        // conversion; a tile of 16 does not fit a `thread_block_tile<8>`.
        if let Arg::Group(g) = arg {
            let own = is_param(text)
                || super::groups::group_type(text) == Some(*g)
                || (super::groups::names_group(text) && !super::groups::is_group_type(text));
            return if p.ty.pointer || p.ty.base != ast::BaseType::Named {
                None
            } else if own {
                Some(Fit::Exact)
            } else if super::groups::holds(text, *g) {
                Some(Fit::Conversion)
            } else {
                None
            };
        }
        let words = |t: &str| -> Vec<String> {
            t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect()
        };
        if words(text).iter().any(|w| is_param(w)) {
            let mut bind = |param: &str, to: String| -> bool {
                !is_param(param) || deduced.entry(param.to_string()).or_insert(to.clone()) == &to
            };
            return match (text.split_once('<'), arg) {
                // `g(const T*)` takes a plain pointer by adding `const`, worse than `g(T*)`;
                // `g(T*)` takes a pointer to `const` with `T` a `const` type, which partial
                // ordering puts after `g(const T*)`: ranked so here.
                (None, Arg::Pointer(pointee, to_const, of_struct)) if p.ty.pointer => {
                    // `T*` given a pointer deduces T as the struct or scalar it points to.
                    let to = match (of_struct, pointee) {
                        (Some(name), _) => Some(name.clone()),
                        (None, Some((s, 1))) => Some(s.c_name().to_string()),
                        _ => None,
                    };
                    if to.is_some_and(|to| !bind(text, to)) {
                        return None;
                    }
                    Some(if p.ty.is_const == *to_const {
                        Fit::Exact
                    } else {
                        Fit::Qualified
                    })
                }
                (None, _) if p.ty.pointer => None,
                (None, arg) => bind(text, arg.spelling()).then_some(Fit::Exact),
                (Some((template, params)), Arg::Struct(s)) => {
                    let (name, args) = s.split_once('<')?;
                    let params: Vec<&str> = params.trim_end_matches('>').split(',').collect();
                    let args: Vec<&str> = args.trim_end_matches('>').split(',').collect();
                    let same = name == template
                        && params.len() == args.len()
                        && params
                            .iter()
                            .zip(&args)
                            .all(|(p, a)| p == a || bind(p.trim(), a.trim().to_string()));
                    same.then_some(Fit::Exact)
                }
                _ => None,
            };
        }
        if p.ty.pointer {
            let Arg::Pointer(pointee, to_const, of_struct) = arg else {
                return None;
            };
            // `const` may be added to what a pointer points to, never dropped
            // ([conv.qual]); adding it ranks below the same type.
            if *to_const && !p.ty.is_const {
                return None;
            }
            let qualified = p.ty.is_const && !to_const;
            // A pointer to a struct of one scalar type points to its scalars, as many as it has
            // (`curand(curandStatePhilox4_32_10_t*)` beside `curand(curandState*)`).
            let layout = self.layout_of(&p.ty);
            let written = match &layout {
                Some(Ok(l)) => l.leaves.first().map(|&(s, _)| (s, l.leaves.len() as u32)),
                Some(Err(_)) => None,
                None => super::vector::elem_of(&p.ty).ok(),
            };
            let same = pointee.is_some_and(|shape| written == Some(shape));
            // A pointer to another known type converts to no typed pointer (C++ [conv.ptr]:
            // only to `void*`): Paddle's `CudaAtomicAdd(float*, float)` beside
            // `CudaAtomicAdd(double*, double)` for a `double*` and an `int`.
            let other = matches!((pointee, written), (Some(a), Some(b)) if *a != b);
            // Nor a pointer to a struct to one of another type of the same scalars (`V*` to
            // `float*` for `struct V { float v; }`).
            let written_struct = match layout {
                Some(Ok(l)) => Some(l.name.clone()),
                _ => None,
            };
            // A pointer to a derived class for one to its base ([conv.ptr]/3).
            if let (Some(found), Some(base)) = (of_struct, &written_struct) {
                if found != base {
                    if let Some(fit) = self.derived_from(found, base) {
                        return Some(fit);
                    }
                }
            }
            let other = other || (of_struct.is_some() && *of_struct != written_struct);
            if other && p.ty.base != ast::BaseType::Void {
                return None;
            }
            return Some(match (same, qualified) {
                (true, false) => Fit::Exact,
                (true, true) => Fit::Qualified,
                (false, _) => Fit::Conversion,
            });
        }
        if let Some(layout) = self.layout_of(&p.ty) {
            let name = layout.ok()?.name.clone();
            return match arg {
                Arg::Struct(s) if *s == name => Some(Fit::Exact),
                // A derived class's object for its base ([over.best.ics]: a conversion).
                Arg::Struct(s) if *s != name => self.derived_from(s, &name),
                Arg::Scalar(_) if self.converts_from_one(&name) => Some(Fit::UserDefined),
                _ => None,
            };
        }
        if let Ok((elem, width)) = super::vector::elem_of(&p.ty) {
            if width > 1 {
                return match arg {
                    Arg::Struct(s) => self.derived_from(s, &super::typed::type_name(elem, width)),
                    _ => (*arg == Arg::Vector(elem, width)).then_some(Fit::Exact),
                };
            }
        }
        let Arg::Scalar(t) = arg else {
            return None;
        };
        let s = super::scalar_of_base(&p.ty).ok()?;
        // A non-`const` reference binds an object of its own type only ([dcl.init.ref]):
        // `from_float(half& d, float s)` beside `from_float(float& d, float s)`.
        if p.ty.reference && !p.ty.is_const && s != *t {
            return None;
        }
        Some(scalar_fit(s, *t))
    }

    /// How a `class` fits a parameter of its base, the class or vector type `base` (and a
    /// pointer to one, a pointer to the other); `None` where it does not derive from it.
    fn derived_from(&mut self, class: &str, base: &str) -> Option<Fit> {
        let l = self.layout_named(class, Span::default())?.ok()?;
        let depth = self.base_depth(&l, base)?;
        Some(Fit::Derived(255 - depth.min(255) as u8))
    }

    /// Whether struct `name` has a constructor of one argument (a converting constructor).
    fn converts_from_one(&self, name: &str) -> bool {
        self.globals
            .structs
            .iter()
            .filter(|d| d.name.name == name)
            .any(|d| d.ctors.iter().any(|c| c.params.len() == 1))
    }
}

/// How a number of type `t` (its own type: an `unsigned char` element stays one) converts to a
/// parameter of type `s`: the same type is exact; C++'s promotions (a `bool`, `char` or `short`
/// to `int`, `float` to `double`) come next; any other arithmetic type is a conversion. A 16-bit
/// float converts to `float` through its conversion operator, ranked between the two.
fn scalar_fit(s: Scalar, t: Scalar) -> Fit {
    if s == t {
        return Fit::Exact;
    }
    if t.is_half() {
        // Through its `operator float()`: worse than a parameter of its own type, better than
        // one the `float` must convert to again.
        return if s == Scalar::F32 {
            Fit::Promotion
        } else {
            Fit::Conversion
        };
    }
    if s.is_half() {
        // `__half` and `__nv_bfloat16` are classes: a number becomes one through a converting
        // constructor, worse than any standard conversion (`g(float)` beside `g(__half)` takes
        // an `int`).
        return Fit::UserDefined;
    }
    let promotes = (s == Scalar::I32 && (t == Scalar::Bool || t.promoted() == s))
        || (s == Scalar::F64 && t == Scalar::F32);
    if promotes {
        Fit::Promotion
    } else {
        Fit::Conversion
    }
}

/// Whether two of `fs` take parameters simt cannot tell apart: of one scalar type under two
/// names (`long` and `long long` are both 64-bit here), the rest alike.
fn any_alike(fs: &[&ast::Function]) -> bool {
    let quals = |p: &ast::Param| (p.ty.pointer, p.ty.reference, p.ty.is_const, p.volatile);
    let alike = |a: &ast::Param, b: &ast::Param| {
        quals(a) == quals(b)
            && match (super::scalar_of_base(&a.ty), super::scalar_of_base(&b.ty)) {
                (Ok(x), Ok(y)) => x == y,
                _ => a.ty.base_text == b.ty.base_text,
            }
    };
    fs.iter().enumerate().any(|(i, f)| {
        fs[i + 1..].iter().any(|g| {
            f.params.len() == g.params.len()
                && f.params.iter().zip(&g.params).all(|(a, b)| alike(a, b))
        })
    })
}

/// The error for a call of `name` with `args` (kinds `given`) that the overloads `viable` fit
/// equally well.
fn ambiguous(
    name: &str,
    viable: &[&ast::Function],
    given: &[Given],
    args: &[ast::Expr],
) -> CheckError {
    let list: Vec<String> = viable.iter().map(|f| signature(f)).collect();
    let types: Vec<String> = given
        .iter()
        .map(|g| {
            format!(
                "`{}`",
                g.kind.as_ref().map_or_else(|| "?".into(), Arg::spelling)
            )
        })
        .collect();
    let span = match (args.first(), args.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => viable[0].name.span,
    };
    CheckError::AmbiguousCall {
        name: name.into(),
        args: types.join(" and "),
        span,
        candidates: viable
            .iter()
            .zip(&list)
            .map(|(f, s)| miette::LabeledSpan::new_with_span(Some(s.clone()), f.name.span))
            .collect(),
        help: format!(
            "cast an argument so that one of {} fits better than the others",
            list.join(", ")
        ),
    }
}

/// The error for an operator no candidate, or more than one, fits.
pub(crate) fn unresolved(
    op: &str,
    candidates: &[&ast::Function],
    args: &[String],
    ambiguous: bool,
    span: Span,
) -> CheckError {
    let list: Vec<String> = candidates.iter().map(|f| signature(f)).collect();
    let args = args
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    CheckError::OperatorOverload {
        op: op.into(),
        args,
        ambiguous,
        span,
        candidates: candidates
            .iter()
            .zip(&list)
            .map(|(f, s)| miette::LabeledSpan::new_with_span(Some(s.clone()), f.name.span))
            .collect(),
        help: if ambiguous {
            format!(
                "convert an argument so that one of {} fits better than the others",
                list.join(", ")
            )
        } else {
            format!(
                "declare `operator{op}` for these argument types, or convert an argument to fit one of {}",
                list.join(", ")
            )
        },
    }
}

/// Whether `f` is a function template whose return type or template parameters hold an
/// `enable_if`: one that substituting its arguments may discard.
fn conditional(f: &ast::Function) -> bool {
    let has = |t: &ast::TypeName| t.base_text.contains("enable_if");
    !f.template.is_empty()
        && (has(&f.ret)
            || f.template.iter().any(|p| match &p.kind {
                ast::TemplateParamKind::Type(d) => d.as_ref().is_some_and(has),
                ast::TemplateParamKind::Value(t, _) => has(t),
                _ => false,
            }))
}

/// `operator*(const V&, float)`: a candidate's parameter types as written.
pub(crate) fn signature(f: &ast::Function) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            format!(
                "{}{}{}{}",
                if p.ty.is_const { "const " } else { "" },
                p.ty.base_text,
                if p.ty.pointer { "*" } else { "" },
                if p.ty.reference { "&" } else { "" }
            )
        })
        .collect();
    format!(
        "`{}({})`",
        f.name.name.replace('.', "::"),
        params.join(", ")
    )
}

/// `f`'s parameters with the template's type parameters that `targs` gives explicitly put in
/// place (`T2 a` of `cmul<float2, float>` is `float2 a`).
fn explicit_params(f: &ast::Function, targs: &[ast::TemplateArg]) -> Vec<ast::Param> {
    let given: HashMap<&str, &ast::TypeName> = f
        .template
        .iter()
        .zip(targs)
        .filter_map(|(t, a)| match (&t.kind, a) {
            (ast::TemplateParamKind::Type(_), ast::TemplateArg::Type(ty)) => {
                Some((t.name.name.as_str(), ty))
            }
            _ => None,
        })
        .collect();
    f.params
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if let Some(ty) = given.get(p.ty.base_text.as_str()) {
                p.ty.base = ty.base;
                p.ty.base_text = ty.base_text.clone();
                p.ty.pointer |= ty.pointer;
                p.ty.is_const |= ty.is_const;
            }
            p
        })
        .collect()
}

/// How CUDA's own overloads of the math function `name` fit arguments `given`: the fits of
/// the overload C++ would pick among them (`max` of `int`, `unsigned`, `long long`, `unsigned
/// long long`, `float` or `double` pairs and CUDA's mixed ones; `abs` of `int`, `long long`,
/// `float` and `double`; `sinf` of `float`; `sin` of `float` and `double`, as `<cmath>`
/// declares it). `None` where none of them takes these arguments (a vector, a struct, a
/// pointer, another count) or simt does not rank them (`sincosf`, the atomics): the file's
/// function is called where one fits.
fn math_builtin_fits(name: &str, given: &[Given]) -> Option<Vec<Option<Fit>>> {
    use Scalar::*;
    let same = |types: &[Scalar], n: usize| -> Vec<Vec<Scalar>> {
        types.iter().map(|&s| vec![s; n]).collect()
    };
    let signatures = match name {
        "min" | "max" => {
            let mut s = same(&[I32, U32, I64, U64, F32, F64], 2);
            // math_functions.hpp's mixed pairs: signed and unsigned of one width, float and
            // double.
            let mixed = [
                [I32, U32],
                [U32, I32],
                [I64, U64],
                [U64, I64],
                [F32, F64],
                [F64, F32],
            ];
            s.extend(mixed.map(Vec::from));
            s
        }
        "abs" => same(&[I32, I64, F32, F64], 1),
        "isnan" | "isinf" | "isfinite" | "signbit" => same(&[F32, F64], 1),
        _ => {
            let (f, single) = super::expr::math_function(name)?;
            let arity = match f {
                super::typed::Func::Math1(_) => 1,
                super::typed::Func::Math2(_) => 2,
                super::typed::Func::Fma => 3,
                _ => return None,
            };
            match single {
                Some(F32) => same(&[F32], arity),
                _ => same(&[F32, F64], arity),
            }
        }
    };
    let fits = |sig: &Vec<Scalar>| -> Option<Vec<Fit>> {
        sig.iter()
            .zip(given)
            .map(|(&s, g)| number_fit(s, g))
            .collect()
    };
    // Of the viable ones, the one whose worst fits are best (CUDA declares no two that tie).
    let best = signatures
        .iter()
        .filter(|s| s.len() == given.len())
        .filter_map(fits)
        .max_by_key(|f| {
            let mut sorted = f.clone();
            sorted.sort();
            sorted
        })?;
    Some(best.into_iter().map(Some).collect())
}

/// How argument `g` fits a built-in's parameter of number type `s`: as a number converts (an
/// argument of unknown type, through a conversion); a vector, struct or pointer not at all.
fn number_fit(s: Scalar, g: &Given) -> Option<Fit> {
    match &g.kind {
        None => Some(Fit::Conversion),
        Some(Arg::Scalar(t)) => Some(scalar_fit(s, *t)),
        Some(_) => None,
    }
}

/// Whether CUDA declares device functions called `name` beside any the file declares: an
/// atomic, or a math function of numbers.
fn cuda_declares(name: &str) -> bool {
    super::atomics::atomic_op(name).is_some() || super::expr::is_math_builtin(name)
}
