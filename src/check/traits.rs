//! `<type_traits>`: its type predicates (`is_same`, `is_convertible`…, and the <concepts> that are them) and type transformations (`enable_if`, `conditional`, `remove_cv`…).
//!
//! The predicates are evaluated once templates are bound ([meta.unary.cat], [meta.rel]); the
//! transformations stand for the type they name ([meta.trans]). `enable_if<false, T>::type` and
//! `enable_if_t<false, T>` name no type: they stay unresolved, so a specialisation whose
//! arguments need one does not match (SFINAE), and a use elsewhere is an unknown type.

use super::specialise::fold;
use super::template::type_key;
use crate::syntax::ast::*;
use crate::value::Scalar;

/// The value of predicate `name` (`std::is_same`, without `_v` or `::value`) of `args`; `None`
/// for a name that is no predicate or the wrong number of types.
pub(crate) fn predicate(name: &str, args: &[TemplateArg]) -> Option<bool> {
    let name = name.strip_prefix("std::")?;
    let types: Vec<TypeName> = args.iter().map(as_type).collect::<Option<_>>()?;
    let types: Vec<&TypeName> = types.iter().collect();
    let scalar = |t: &TypeName| super::scalar_of_base(t).ok().filter(|_| !t.pointer);
    Some(match (name, types.as_slice()) {
        ("is_same" | "same_as", [a, b]) => same(a, b),
        // Arithmetic types convert to each other, a type to itself, any pointer to `void*`.
        ("is_convertible" | "convertible_to", [from, to]) => {
            let void_pointer = to.pointer && to.base == BaseType::Void && from.pointer;
            (scalar(from).is_some() && scalar(to).is_some())
                || type_key(from, from.pointer) == type_key(to, to.pointer)
                || void_pointer
        }
        ("is_integral" | "integral", [t]) => {
            scalar(t).is_some_and(|s| s.is_integer() || s == Scalar::Bool)
        }
        // <concepts>' [concepts.arithmetic]: `unsigned_integral` is `integral && !signed_integral`,
        // so `bool` is one.
        ("signed_integral", [t]) => scalar(t).is_some_and(|s| s.is_integer() && s.is_signed()),
        ("unsigned_integral", [t]) => {
            scalar(t).is_some_and(|s| s == Scalar::Bool || (s.is_integer() && !s.is_signed()))
        }
        // `half` is no standard floating type: `std::is_floating_point<__half>` is false.
        ("is_floating_point" | "floating_point", [t]) => {
            matches!(scalar(t), Some(Scalar::F32 | Scalar::F64))
        }
        ("is_arithmetic", [t]) => scalar(t).is_some_and(|s| !s.is_half()),
        ("is_signed", [t]) => {
            scalar(t).is_some_and(|s| !s.is_half() && (s.is_float() || s.is_signed()))
        }
        ("is_unsigned", [t]) => {
            scalar(t).is_some_and(|s| s == Scalar::Bool || (s.is_integer() && !s.is_signed()))
        }
        ("is_pointer", [t]) => t.pointer,
        ("is_void", [t]) => t.base == BaseType::Void && !t.pointer,
        ("is_const", [t]) => t.is_const && !t.pointer,
        ("is_reference", [t]) => t.reference,
        _ => return None,
    })
}

/// A template argument as a type: a bare name is the type it names; `None` for an expression.
fn as_type(a: &TemplateArg) -> Option<TypeName> {
    match a {
        TemplateArg::Type(t) => Some(t.clone()),
        TemplateArg::Value(Expr {
            kind: ExprKind::Name(n),
            span,
        }) => {
            let mut t = TypeName::named(n.clone(), *span);
            t.base = BaseType::named(n);
            Some(t)
        }
        TemplateArg::Value(_) => None,
    }
}

/// C++20 <concepts>' concepts that are these predicates, used as a `bool`
/// (`if constexpr (std::same_as<Real, double>)`, pffdtd).
const CONCEPTS: [&str; 6] = [
    "std::same_as",
    "std::convertible_to",
    "std::integral",
    "std::signed_integral",
    "std::unsigned_integral",
    "std::floating_point",
];

/// The value of a predicate written as one name (`std::is_integral_v<float>` before `,` or
/// `)`, `std::is_same<int,float>::value` inside template arguments, `std::same_as<T, U>`);
/// `None` for any other name.
pub(crate) fn named_predicate(name: &str) -> Option<bool> {
    let name = name.trim_start_matches("::");
    let name = name.strip_prefix("cuda::").unwrap_or(name);
    let open = name.find('<')?;
    let close = name.rfind('>')?;
    let (callee, tail) = (&name[..open], &name[close + 1..]);
    let callee = match tail {
        "::value" => callee,
        "" if CONCEPTS.contains(&callee) => callee,
        "" => callee.strip_suffix("_v")?,
        _ => return None,
    };
    let (_, _, args) =
        crate::syntax::parse_kernel_ref(&format!("f{}", &name[open..=close])).ok()?;
    predicate(callee, &args)
}

/// Whether two types are one: the same scalar (an alias is its type), vector or struct,
/// pointer, reference and `const` alike.
pub(crate) fn same(a: &TypeName, b: &TypeName) -> bool {
    let key = |t: &TypeName| (type_key(t, t.pointer), t.reference, t.is_const);
    key(a) == key(b)
}

/// The type a transformation names (`std::enable_if<true, float>::type` is `float`,
/// `std::conditional_t<false, int, float>` is `float`); `None` for any other name, or for
/// `enable_if` whose condition is false or not yet a constant.
pub(crate) fn transformed(text: &str) -> Option<TypeName> {
    let text = text.trim_start_matches("::");
    let text = text.strip_prefix("cuda::").unwrap_or(text);
    let text = text.strip_prefix("std::")?;
    let open = text.find('<')?;
    let close = text.rfind('>')?;
    let (name, tail) = (&text[..open], &text[close + 1..]);
    let name = match tail {
        "::type" => name,
        "" => name.strip_suffix("_t")?,
        _ => return None,
    };
    let (_, _, args) =
        crate::syntax::parse_kernel_ref(&format!("f{}", &text[open..=close])).ok()?;
    let condition = |a: &TemplateArg| match a {
        TemplateArg::Value(e) => fold(e).map(|v| v != 0),
        TemplateArg::Type(_) => None,
    };
    let void = |span| TypeName {
        base: BaseType::Void,
        base_text: "void".into(),
        pointer: false,
        reference: false,
        is_const: false,
        span,
    };
    Some(match (name, args.as_slice()) {
        ("enable_if", [c]) => {
            let span = match c {
                TemplateArg::Value(e) => e.span,
                TemplateArg::Type(t) => t.span,
            };
            condition(c)?.then(|| void(span))?
        }
        ("enable_if", [c, t]) => condition(c)?.then(|| as_type(t))??,
        ("conditional", [c, a, b]) => as_type(if condition(c)? { a } else { b })?,
        ("remove_cv" | "remove_const" | "remove_volatile", [t]) => {
            let mut t = as_type(t)?;
            if !t.pointer {
                t.is_const = false;
            }
            t
        }
        ("remove_reference", [t]) => TypeName {
            reference: false,
            ..as_type(t)?
        },
        ("remove_cvref" | "decay", [t]) => {
            let mut t = as_type(t)?;
            t.reference = false;
            if !t.pointer {
                t.is_const = false;
            }
            t
        }
        ("remove_pointer", [t]) => {
            let mut t = as_type(t)?;
            if !t.pointer {
                return Some(t);
            }
            t.pointer = false;
            t
        }
        ("add_pointer", [t]) => {
            let mut t = as_type(t)?;
            if t.pointer {
                return None;
            }
            t.pointer = true;
            t
        }
        ("type_identity", [t]) => as_type(t)?,
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

    #[test]
    fn predicates_follow_the_standard() {
        // [meta.unary.cat]: int and bool are integral, float is floating point, half is
        // neither (no standard type); unsigned int is unsigned; float* is a pointer.
        // [meta.rel]: int converts to float; float* does not convert to int.
        for (name, text, want) in [
            ("std::is_integral", "<int>", true),
            ("std::is_integral", "<bool>", true),
            ("std::is_integral", "<float>", false),
            ("std::is_floating_point", "<double>", true),
            ("std::is_floating_point", "<half>", false),
            ("std::is_unsigned", "<unsigned int>", true),
            ("std::is_signed", "<unsigned int>", false),
            ("std::is_pointer", "<float*>", true),
            ("std::is_convertible", "<int, float>", true),
            ("std::is_convertible", "<float*, int>", false),
            ("std::is_same", "<int, int>", true),
        ] {
            assert_eq!(predicate(name, &args(text)), Some(want), "{name}{text}");
        }
    }

    #[test]
    fn transformations_name_their_type() {
        // enable_if<1, float>::type is float; enable_if_t<(2 > 3)> names nothing;
        // conditional_t<(4 > 2), int, float> is int; remove_cv<const float>::type is float.
        let base = |t: Option<TypeName>| t.map(|t| (t.base, t.is_const));
        assert_eq!(
            base(transformed("std::enable_if<1, float>::type")),
            Some((BaseType::F32, false))
        );
        assert_eq!(base(transformed("std::enable_if_t<(2 > 3)>")), None);
        assert_eq!(
            base(transformed("std::conditional_t<(4 > 2), int, float>")),
            Some((BaseType::I32, false))
        );
        assert_eq!(
            base(transformed("std::remove_cv<const float>::type")),
            Some((BaseType::F32, false))
        );
    }
}
