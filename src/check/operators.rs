//! Free operator overloads chosen as C++ chooses them: each argument's conversion to each
//! candidate's parameter is ranked, and the candidate no worse for any argument and better for
//! one is called.

use std::collections::HashMap;
use std::rc::Rc;

use super::error::CheckError;
use super::structs::Layout;
use super::{ast, KernelChecker};
use crate::source::Span;
use crate::value::Scalar;

/// How well an argument fits a parameter: C++'s ranks of implicit conversions, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    /// Through a constructor of the parameter's struct (`2.0f` for a `const V&` with `V(float)`).
    UserDefined,
    /// Between arithmetic types (`int` to `float`, `double` to `float`).
    Conversion,
    /// `float` to `double`.
    Promotion,
    /// The same type (or a template parameter, which deduces it).
    Exact,
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
    /// A pointer.
    Pointer,
}

impl Arg {
    /// The type as C++ spells it, for messages.
    fn spelling(&self) -> String {
        match self {
            Arg::Struct(name) => name.clone(),
            Arg::Vector(elem, width) => super::typed::type_name(*elem, *width),
            Arg::Scalar(s) => s.c_name().into(),
            Arg::Pointer => "a pointer".into(),
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
        let kinds: Vec<Option<Arg>> = args.iter().map(|(a, l)| self.arg_kind(a, l)).collect();
        // Per candidate, each argument's fit; `None` where one cannot be converted at all.
        let fits: Vec<Option<Vec<Fit>>> = candidates
            .iter()
            .map(|f| {
                let mut deduced = HashMap::new();
                f.params
                    .iter()
                    .zip(&kinds)
                    .map(|(p, k)| self.fit(f, p, k.as_ref(), &mut deduced))
                    .collect()
            })
            .collect();
        let better = |a: &[Fit], b: &[Fit]| {
            a.iter().zip(b).all(|(x, y)| x >= y) && a.iter().zip(b).any(|(x, y)| x > y)
        };
        let viable: Vec<usize> = (0..candidates.len())
            .filter(|&i| fits[i].is_some())
            .collect();
        let best = viable.iter().copied().find(|&i| {
            let mine = fits[i].as_deref().expect("viable");
            viable
                .iter()
                .all(|&j| j == i || better(mine, fits[j].as_deref().expect("viable")))
        });
        match best {
            Some(i) => Choice::One(candidates[i]),
            None => Choice::Unresolved {
                ambiguous: !viable.is_empty(),
                args: kinds
                    .iter()
                    .map(|k| k.as_ref().map_or_else(|| "?".into(), Arg::spelling))
                    .collect(),
                candidates,
            },
        }
    }

    /// What `e` (of struct type `layout`, if any) is, decided without running it; `None` where
    /// that cannot be told.
    fn arg_kind(&mut self, e: &ast::Expr, layout: &Option<Rc<Layout>>) -> Option<Arg> {
        if let Some(l) = layout {
            return Some(Arg::Struct(l.name.clone()));
        }
        if self.is_pointer(e) {
            return Some(Arg::Pointer);
        }
        if let Ok(Some((elem, width))) = self.vector_shape(e) {
            return Some(Arg::Vector(elem, width));
        }
        self.expr(e).ok().map(|t| Arg::Scalar(t.ty))
    }

    /// How well an argument of kind `arg` fits parameter `p` of `f`; `None` where it cannot.
    /// `deduced` holds what `f`'s template parameters stand for, as deduced from the arguments
    /// before; a second argument that deduces another type makes `f` not fit.
    fn fit(
        &mut self,
        f: &ast::Function,
        p: &ast::Param,
        arg: Option<&Arg>,
        deduced: &mut HashMap<String, String>,
    ) -> Option<Fit> {
        // An argument of a kind not told (a call the checker reports later) fits anything
        // equally, so the other arguments decide.
        let Some(arg) = arg else {
            return Some(Fit::Conversion);
        };
        // A template's type parameter is deduced from the argument: `T` takes the argument's
        // type (a pointer for a `T*`), `P<T>` an instance of `P`, whose arguments `T` takes;
        // every argument must deduce the same type for it.
        let text = &p.ty.base_text;
        let is_param = |word: &str| {
            f.template
                .iter()
                .any(|t| matches!(t.kind, ast::TemplateParamKind::Type(_)) && t.name.name == word)
        };
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
                (None, Arg::Pointer) if p.ty.pointer => Some(Fit::Exact),
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
            return (*arg == Arg::Pointer).then_some(Fit::Exact);
        }
        if let Some(layout) = self.layout_of(&p.ty) {
            let name = layout.ok()?.name.clone();
            return match arg {
                Arg::Struct(s) if *s == name => Some(Fit::Exact),
                Arg::Scalar(_) if self.converts_from_one(&name) => Some(Fit::UserDefined),
                _ => None,
            };
        }
        if let Ok((elem, width)) = super::vector::elem_of(&p.ty) {
            if width > 1 {
                return (*arg == Arg::Vector(elem, width)).then_some(Fit::Exact);
            }
        }
        let Arg::Scalar(t) = arg else {
            return None;
        };
        let s = super::scalar_of_base(&p.ty).ok()?;
        Some(if s.promoted() == *t {
            Fit::Exact
        } else if s == Scalar::F64 && *t == Scalar::F32 {
            Fit::Promotion
        } else {
            Fit::Conversion
        })
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

/// `operator*(const V&, float)`: a candidate's parameter types as written.
fn signature(f: &ast::Function) -> String {
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
    format!("`{}({})`", f.name.name, params.join(", "))
}
