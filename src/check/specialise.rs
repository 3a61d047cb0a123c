//! Which specialisation of a class template an instance uses: arguments matched by value, the most specialised chosen.
//!
//! C++ [temp.spec.partial.match]: an instance uses the explicit specialisation for exactly its
//! arguments, else the partial specialisation whose arguments match them (deducing its own
//! parameters), else the primary template. Arguments are compared as types and as constant
//! values, never as text: `P<1 - 1>` is `P<0>`, `Impl<float, sizeof(float)>` is `Impl<S, 4>`.
//! Of two matching partial specialisations the one whose arguments the other also matches is
//! more specialised ([temp.spec.partial.order]); where neither is, the instance is ambiguous.

use std::collections::HashMap;

use super::template::{type_key, Bindings};
use crate::syntax::ast::*;

/// One argument of an instance once evaluated.
#[derive(Clone, Debug)]
pub(crate) enum Actual {
    /// A type.
    Type(TypeName),
    /// An integer constant (`bool` is 0 or 1).
    Value(i128),
    /// An expression simt cannot evaluate here: compared as written.
    Text(String),
}

impl Actual {
    /// Whether two arguments are the same type or the same value: a type's scalar (an alias
    /// is its type), pointer and `const` alike.
    fn same(&self, other: &Actual) -> bool {
        match (self, other) {
            (Actual::Type(a), Actual::Type(b)) => key(a) == key(b),
            (Actual::Value(a), Actual::Value(b)) => a == b,
            (Actual::Text(a), Actual::Text(b)) => a == b,
            _ => false,
        }
    }
}

fn key(t: &TypeName) -> (String, bool, bool) {
    (type_key(t, t.pointer), t.is_const, t.reference)
}

/// A specialisation of a class template: its own parameters (none for an explicit one) and
/// the arguments written after the class's name.
pub(crate) struct Spec<'a> {
    pub params: &'a [TemplateParam],
    pub args: &'a [TemplateArg],
}

/// What an instance uses.
pub(crate) enum Choice {
    /// The primary template.
    Primary,
    /// Specialisation `k` (an index into the list given), with its parameters bound.
    Spec(usize, Box<Bindings>),
    /// Several matching partial specialisations, none more specialised than the others.
    Ambiguous(Vec<usize>),
}

/// The specialisation among `specs` that the instance with arguments `actual` uses.
pub(crate) fn choose(scope: &Bindings, specs: &[Spec<'_>], actual: &[Actual]) -> Choice {
    let matches: Vec<(usize, Bindings)> = specs
        .iter()
        .enumerate()
        .filter_map(|(k, s)| deduce(scope, s, actual).map(|b| (k, b)))
        .collect();
    // An explicit specialisation is for exactly its arguments: it wins over any partial one.
    if let Some(at) = matches
        .iter()
        .position(|(k, _)| specs[*k].params.is_empty())
    {
        let (k, b) = matches.into_iter().nth(at).expect("found above");
        return Choice::Spec(k, Box::new(b));
    }
    if matches.len() <= 1 {
        return match matches.into_iter().next() {
            Some((k, b)) => Choice::Spec(k, Box::new(b)),
            None => Choice::Primary,
        };
    }
    // `a` is at least as specialised as `b` when `b`'s arguments match `a`'s, `a`'s own
    // parameters standing for unique types and values.
    let at_least =
        |a: usize, b: usize| deduce(scope, &specs[b], &opaque(scope, &specs[a])).is_some();
    let best: Vec<usize> = matches
        .iter()
        .map(|(k, _)| *k)
        .filter(|&a| {
            matches
                .iter()
                .all(|&(b, _)| a == b || (at_least(a, b) && !at_least(b, a)))
        })
        .collect();
    match best.as_slice() {
        [one] => {
            let (k, b) = matches
                .into_iter()
                .find(|(k, _)| k == one)
                .expect("one of the matches");
            Choice::Spec(k, Box::new(b))
        }
        _ => Choice::Ambiguous(matches.into_iter().map(|(k, _)| k).collect()),
    }
}

/// The arguments of `spec` with each of its parameters standing for a type or value of its
/// own (`<T>`), for partial ordering.
fn opaque(scope: &Bindings, spec: &Spec<'_>) -> Vec<Actual> {
    let mut own = scope.clone();
    for p in spec.params {
        let stand_in = TypeName::named(format!("<{}>", p.name.name), p.name.span);
        match &p.kind {
            TemplateParamKind::Value(..) => {
                own.values.insert(
                    p.name.name.clone(),
                    Expr {
                        kind: ExprKind::Name(format!("<{}>", p.name.name)),
                        span: p.name.span,
                    },
                );
            }
            _ => {
                own.types.insert(p.name.name.clone(), stand_in);
            }
        }
    }
    spec.args
        .iter()
        .map(|a| match a {
            TemplateArg::Type(t) => {
                let mut t = t.clone();
                own.ty(&mut t);
                Actual::Type(t)
            }
            TemplateArg::Value(e) => {
                if let ExprKind::Name(n) = &e.kind {
                    if let Some(t) = own.types.get(n) {
                        return Actual::Type(t.clone());
                    }
                }
                let mut e = e.clone();
                own.expr(&mut e);
                match (&e.kind, fold(&e)) {
                    (_, Some(v)) => Actual::Value(v),
                    (ExprKind::Name(n), None) => Actual::Text(n.clone()),
                    _ => Actual::Text(format!("{e:?}")),
                }
            }
        })
        .collect()
}

/// The bindings of `spec`'s parameters under which its arguments are `actual`; `None` where
/// they do not match (or a parameter cannot be deduced from them).
pub(crate) fn deduce(scope: &Bindings, spec: &Spec<'_>, actual: &[Actual]) -> Option<Bindings> {
    if spec.args.len() != actual.len() {
        return None;
    }
    let param = |n: &str| spec.params.iter().find(|p| p.name.name == n);
    // First the arguments that are one of its parameters (`T`, `T*`, `N`).
    let mut deduced: HashMap<String, Actual> = HashMap::new();
    let mut rest = Vec::new();
    let mut work: Vec<(TemplateArg, Actual)> = spec
        .args
        .iter()
        .cloned()
        .zip(actual.iter().cloned())
        .rev()
        .collect();
    while let Some((pattern, given)) = work.pop() {
        let (pattern, given) = (&pattern, &given);
        let (name, pointer, is_const, reference) = match pattern {
            TemplateArg::Value(Expr {
                kind: ExprKind::Name(n),
                ..
            }) => (n.as_str(), false, false, false),
            TemplateArg::Type(t) if t.base == BaseType::Named => {
                (t.base_text.as_str(), t.pointer, t.is_const, t.reference)
            }
            _ => ("", false, false, false),
        };
        let Some(p) = param(name) else {
            // `Pair<K, V>` given `Pair<float,int>`: the class template's own arguments are
            // matched in turn ([temp.deduct.type]/8, `TT<T>`).
            match nested(pattern, given) {
                Some(Some(pairs)) => work.extend(pairs.into_iter().rev()),
                Some(None) => return None,
                None => rest.push((pattern.clone(), given.clone())),
            }
            continue;
        };
        let bound = match (&p.kind, given) {
            (TemplateParamKind::Type(_), Actual::Type(t)) => {
                // `T*` matches a pointer, binding T to the pointee (`const int` of a `const
                // int*`); `const T*` a pointer to `const`; `const T` a `const` type that is no
                // pointer (a `const int*` is no `const` type: its pointee is); `T&` a reference,
                // binding T to the type referred to; a pattern with any of these no reference
                // it does not name ([temp.deduct.type]).
                let matches = if reference {
                    t.reference && (!pointer || t.pointer) && (!is_const || t.is_const)
                } else if pointer {
                    t.pointer && !t.reference && (!is_const || t.is_const)
                } else if is_const {
                    t.is_const && !t.pointer && !t.reference
                } else {
                    true
                };
                if !matches {
                    return None;
                }
                let mut t = t.clone();
                t.reference &= !reference;
                t.pointer &= !pointer;
                t.is_const &= !is_const;
                Actual::Type(t)
            }
            (TemplateParamKind::Value(..), Actual::Value(_) | Actual::Text(_)) => given.clone(),
            _ => return None,
        };
        match deduced.get(name) {
            Some(before) if !before.same(&bound) => return None,
            Some(_) => {}
            None => {
                deduced.insert(name.to_string(), bound);
            }
        }
    }
    let mut b = scope.clone();
    for p in spec.params {
        match deduced.get(&p.name.name)? {
            Actual::Type(t) => {
                b.types.insert(p.name.name.clone(), t.clone());
            }
            Actual::Value(v) => {
                let ty = match &p.kind {
                    TemplateParamKind::Value(ty, _) => ty,
                    _ => return None,
                };
                b.value(&p.name.name, ty, *v, p.name.span);
            }
            Actual::Text(text) => {
                let e = Expr {
                    kind: ExprKind::Name(text.clone()),
                    span: p.name.span,
                };
                b.values.insert(p.name.name.clone(), e);
            }
        }
    }
    // Then the others, with the parameters in place (`Impl<S, 4>`'s 4, `X<T, T>`'s second T).
    for (pattern, given) in &rest {
        let same = match (pattern, given) {
            (TemplateArg::Type(t), Actual::Type(g)) => {
                let mut t = t.clone();
                b.ty(&mut t);
                key(&t) == key(g)
            }
            (TemplateArg::Value(e), Actual::Type(g)) => {
                // A bare name given for a type: the type it names.
                let ExprKind::Name(n) = &e.kind else {
                    return None;
                };
                let mut t = TypeName::named(n.clone(), e.span);
                t.base = BaseType::named(n);
                b.ty(&mut t);
                key(&t) == key(g)
            }
            (TemplateArg::Value(e), Actual::Value(v)) => {
                let mut e = e.clone();
                b.expr(&mut e);
                fold(&e) == Some(*v)
            }
            (TemplateArg::Value(e), Actual::Text(text)) => {
                matches!(&e.kind, ExprKind::Name(n) if n == text)
            }
            (TemplateArg::Type(_), _) => false,
        };
        if !same {
            return None;
        }
    }
    Some(b)
}

/// A pattern naming a class template's instance (`Pair<K, V>`) against a given type: `None` where
/// the pattern is no instance, `Some(None)` where the given type cannot match it (another
/// template, a pointer for a value), else the pairs of their arguments, in order.
/// A class template instance's name and arguments, `red::impl::plus<T>` too (a qualified
/// name, which a kernel reference cannot be, so its arguments are read after a plain one).
fn instance_parts(text: &str) -> Option<(String, Vec<TemplateArg>)> {
    let open = text.find('<')?;
    let (_, _, args) = crate::syntax::parse_kernel_ref(&format!("t{}", &text[open..])).ok()?;
    Some((text[..open].trim().to_string(), args))
}

fn nested(pattern: &TemplateArg, given: &Actual) -> Option<Option<Vec<(TemplateArg, Actual)>>> {
    // A class template's instance is read as a name in template arguments (`Pair<K,V>`).
    let t = match pattern {
        TemplateArg::Type(t) if t.base == BaseType::Named => t.clone(),
        TemplateArg::Value(Expr {
            kind: ExprKind::Name(n),
            span,
        }) => TypeName::named(n.clone(), *span),
        _ => return None,
    };
    if !t.base_text.contains('<') {
        return None;
    }
    let (name, args) = instance_parts(&t.base_text)?;
    let Actual::Type(g) = given else {
        return Some(None);
    };
    if (g.pointer, g.reference, g.is_const) != (t.pointer, t.reference, t.is_const) {
        return Some(None);
    }
    let Some((given_name, given_args)) = instance_parts(&g.base_text) else {
        return Some(None);
    };
    // A name as qualified as it was written on either side (`sundials::reductions::impl::plus`
    // in the pattern, `plus` from an alias in the namespace): simt keeps one class template of
    // a name, so the last part decides.
    let last = |n: &str| n.rsplit("::").next().unwrap_or_default().to_string();
    if last(&given_name) != last(&name) || given_args.len() != args.len() {
        return Some(None);
    }
    // An argument that is neither a type nor a constant leaves the whole type to be compared
    // as written.
    let actuals: Vec<Actual> = given_args
        .into_iter()
        .map(|a| match a {
            TemplateArg::Type(t) => Some(Actual::Type(t)),
            TemplateArg::Value(e) => match (&e.kind, fold(&e)) {
                (_, Some(v)) => Some(Actual::Value(v)),
                // A bare name in a type's arguments (`Pair<Half,int>`): a type.
                (ExprKind::Name(n), None) => {
                    let mut t = TypeName::named(n.clone(), e.span);
                    t.base = BaseType::named(n);
                    Some(Actual::Type(t))
                }
                (_, None) => None,
            },
        })
        .collect::<Option<_>>()?;
    Some(Some(args.into_iter().zip(actuals).collect()))
}

/// The arguments of an instance, evaluated: by the primary template's parameters where the file
/// defines it (defaults filled in, `bool` values 0 or 1), else as written (a bare name that is
/// no constant is a type's). `value_of` evaluates a constant expression.
pub(crate) fn actuals(
    scope: &Bindings,
    primary: Option<&[TemplateParam]>,
    targs: &[TemplateArg],
    value_of: &mut dyn FnMut(&Expr) -> Option<i128>,
) -> Vec<Actual> {
    let mut value = |e: &Expr, b: &Bindings| {
        let mut e = e.clone();
        b.expr(&mut e);
        match (value_of(&e), &e.kind) {
            (Some(v), _) => Actual::Value(v),
            (None, ExprKind::Name(n)) => Actual::Text(n.clone()),
            (None, _) => Actual::Text(format!("{:?}", e.kind)),
        }
    };
    let as_type = |a: &TemplateArg, b: &Bindings| match a {
        TemplateArg::Type(t) => {
            let mut t = t.clone();
            b.ty(&mut t);
            Some(Actual::Type(t))
        }
        TemplateArg::Value(Expr {
            kind: ExprKind::Name(n),
            span,
        }) => {
            let mut t = TypeName::named(n.clone(), *span);
            t.base = BaseType::named(n);
            b.ty(&mut t);
            Some(Actual::Type(t))
        }
        TemplateArg::Value(_) => None,
    };
    let Some(params) = primary else {
        return targs
            .iter()
            .map(|a| match a {
                TemplateArg::Value(e) => match value(e, scope) {
                    Actual::Text(_) => as_type(a, scope).unwrap_or_else(|| value(e, scope)),
                    v => v,
                },
                TemplateArg::Type(_) => as_type(a, scope).expect("a type"),
            })
            .collect();
    };
    // A default may name the parameters before it.
    let mut b = scope.clone();
    let mut out = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let given = targs.get(k);
        let a = match (&p.kind, given) {
            (TemplateParamKind::Type(_), Some(a)) => {
                as_type(a, scope).unwrap_or_else(|| Actual::Text(format!("{a:?}")))
            }
            (TemplateParamKind::Type(Some(d)), None) => {
                as_type(&TemplateArg::Type(d.clone()), &b).expect("a type")
            }
            (TemplateParamKind::Value(ty, _), Some(TemplateArg::Value(e))) => {
                bool_value(value(e, scope), ty)
            }
            (TemplateParamKind::Value(ty, Some(d)), None) => bool_value(value(d, &b), ty),
            (_, Some(a)) => Actual::Text(format!("{a:?}")),
            (_, None) => Actual::Text(String::new()),
        };
        match &a {
            Actual::Type(t) => {
                b.types.insert(p.name.name.clone(), t.clone());
            }
            Actual::Value(v) => {
                if let TemplateParamKind::Value(ty, _) = &p.kind {
                    b.value(&p.name.name, ty, *v, p.name.span);
                }
            }
            Actual::Text(_) => {}
        }
        out.push(a);
    }
    out
}

/// A value given for a `bool` parameter is 0 or 1.
fn bool_value(a: Actual, ty: &TypeName) -> Actual {
    match a {
        Actual::Value(v) if ty.base == BaseType::Bool => Actual::Value(i128::from(v != 0)),
        a => a,
    }
}

/// The integer value of a constant expression made of literals, `sizeof` of a scalar or
/// vector type, `<type_traits>` predicates, casts to integer types and C's operators; `None`
/// for anything else.
pub(crate) fn fold(e: &Expr) -> Option<i128> {
    use crate::value::Scalar;
    Some(match &e.kind {
        ExprKind::Int { value, .. } => i128::from(*value),
        ExprKind::Bool(b) => i128::from(*b),
        ExprKind::Unary { op, operand } => {
            let v = fold(operand)?;
            match op {
                UnOp::Neg => -v,
                UnOp::Plus => v,
                UnOp::Not => i128::from(v == 0),
                UnOp::BitNot => !v,
                UnOp::Deref | UnOp::AddrOf => return None,
            }
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let (a, b) = (fold(lhs)?, fold(rhs)?);
            match op {
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div => a.checked_div(b)?,
                BinOp::Rem => a.checked_rem(b)?,
                BinOp::Shl => a.checked_shl(u32::try_from(b).ok().filter(|&s| s < 64)?)?,
                BinOp::Shr => a >> u32::try_from(b).ok().filter(|&s| s < 64)?,
                BinOp::Lt => i128::from(a < b),
                BinOp::Gt => i128::from(a > b),
                BinOp::Le => i128::from(a <= b),
                BinOp::Ge => i128::from(a >= b),
                BinOp::Eq => i128::from(a == b),
                BinOp::Ne => i128::from(a != b),
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::And => i128::from(a != 0 && b != 0),
                BinOp::Or => i128::from(a != 0 || b != 0),
            }
        }
        ExprKind::Ternary { cond, then, els } => {
            if fold(cond)? != 0 {
                fold(then)?
            } else {
                fold(els)?
            }
        }
        ExprKind::Cast { ty, expr } => {
            let v = fold(expr)?;
            let s = super::scalar_of_base(ty).ok()?;
            match s {
                Scalar::Bool => i128::from(v != 0),
                Scalar::I8 => i128::from(v as i8),
                Scalar::U8 => i128::from(v as u8),
                Scalar::I16 => i128::from(v as i16),
                Scalar::U16 => i128::from(v as u16),
                Scalar::I32 => i128::from(v as i32),
                Scalar::U32 => i128::from(v as u32),
                Scalar::I64 => i128::from(v as i64),
                Scalar::U64 => i128::from(v as u64),
                Scalar::F32 | Scalar::F64 | Scalar::F16 | Scalar::BF16 => return None,
            }
        }
        ExprKind::Call {
            callee,
            targs,
            args,
        } if args.is_empty() => i128::from(super::traits::predicate(&callee.name, targs)?),
        ExprKind::Name(n) => i128::from(super::traits::named_predicate(n)?),
        ExprKind::SizeOfType(t) if t.pointer => 8,
        ExprKind::SizeOfType(t) => match super::scalar_of_base(t) {
            Ok(s) => i128::from(s.size()),
            Err(_) => {
                let (s, n) = super::vector::cuda_vector(&t.base_text)?;
                i128::from(s.size() * n)
            }
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<TemplateArg> {
        crate::syntax::parse_kernel_ref(&format!("f{text}"))
            .expect("readable")
            .2
    }

    fn type_param(name: &str) -> TemplateParam {
        TemplateParam {
            name: Ident {
                name: name.into(),
                span: crate::source::Span { start: 0, end: 0 },
            },
            kind: TemplateParamKind::Type(None),
            pack: false,
        }
    }

    fn float() -> Actual {
        Actual::Type(super::super::template::type_of(
            crate::value::Scalar::F32,
            1,
            crate::source::Span { start: 0, end: 0 },
        ))
    }

    #[test]
    fn folds_c_arithmetic_and_sizeof() {
        // 1 - 1 = 0; sizeof(float) * 8 = 32; ((2 > 1) && !0) = 1; sizeof(float4) = 16.
        for (text, want) in [
            ("<1 - 1>", 0),
            ("<sizeof(float) * 8>", 32),
            ("<((2 > 1) && !0)>", 1),
            ("<sizeof(float4)>", 16),
        ] {
            let read = args(text);
            let [TemplateArg::Value(e)] = read.as_slice() else {
                panic!("{text} is a value");
            };
            assert_eq!(fold(e), Some(want), "{text}");
        }
    }

    #[test]
    fn the_more_specialised_partial_specialisation_wins() {
        // X<float, float> matches <T, U> (T = U = float), <T, T> and <T, float>; <T, T> and
        // <T, float> are each matched by <T, U> but not one by the other: ambiguous. X<int,
        // int> matches only <T, U> and <T, T>, and <T, T> is more specialised.
        let (t, u) = (type_param("T"), type_param("U"));
        let (tu, tt, tf) = (args("<T, U>"), args("<T, T>"), args("<T, float>"));
        let one = [t.clone()];
        let two = [t, u];
        let specs = [
            Spec {
                params: &two,
                args: &tu,
            },
            Spec {
                params: &one,
                args: &tt,
            },
            Spec {
                params: &one,
                args: &tf,
            },
        ];
        let scope = Bindings::default();
        assert!(matches!(
            choose(&scope, &specs, &[float(), float()]),
            Choice::Ambiguous(k) if k == [0, 1, 2]
        ));
        let int = Actual::Type(super::super::template::type_of(
            crate::value::Scalar::I32,
            1,
            crate::source::Span { start: 0, end: 0 },
        ));
        assert!(matches!(
            choose(&scope, &specs, &[int.clone(), int]),
            Choice::Spec(1, _)
        ));
    }
}
