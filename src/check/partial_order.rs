//! Partial ordering of function templates (C++ [temp.func.order]): of two templates that fit a
//! call equally well, the more specialised one is called.

use std::collections::HashMap;

use crate::syntax::ast::{Function, TemplateParamKind, TypeName};

/// Whether template `f` is more specialised than template `g`: `g`'s parameters deduce from
/// `f`'s parameter types (each of `f`'s template parameters taken as a type of its own), and not
/// the other way round. `sub(V a, V b)` is more specialised than `sub(V a, S b)`: `(V, S)`
/// deduces from `(V, V)` with `S = V`, while `(V, V)` cannot deduce one `V` from `(V, S)`.
pub(crate) fn more_specialised(f: &Function, g: &Function) -> bool {
    at_least_as_specialised(f, g) && !at_least_as_specialised(g, f)
}

/// Whether `g`'s parameter types deduce from `f`'s: each of `g`'s type template parameters
/// binds one spelling of `f`'s, the same wherever it appears, and every other token matches.
/// References and `const` do not take part ([temp.deduct.partial] strips them).
fn at_least_as_specialised(f: &Function, g: &Function) -> bool {
    if f.params.len() != g.params.len() || f.params.iter().chain(&g.params).any(|p| p.pack) {
        return false;
    }
    let deducible: Vec<&str> = g
        .template
        .iter()
        .filter(|t| matches!(t.kind, TemplateParamKind::Type(_)) && !t.pack)
        .map(|t| t.name.name.as_str())
        .collect();
    let mut bound: HashMap<String, String> = HashMap::new();
    f.params.iter().zip(&g.params).all(|(pf, pg)| {
        let (tf, tg) = (spelling(&pf.ty), spelling(&pg.ty));
        let whole = tokens(&tg);
        if let [one] = whole.as_slice() {
            if deducible.contains(&one.as_str()) {
                return bind(&mut bound, one, tf);
            }
        }
        let given = tokens(&tf);
        whole.len() == given.len()
            && whole.iter().zip(given).all(|(w, t)| {
                if deducible.contains(&w.as_str()) {
                    bind(&mut bound, w, t)
                } else {
                    *w == t
                }
            })
    })
}

/// Binds `name` to `to`, or checks that an earlier binding agrees.
fn bind(bound: &mut HashMap<String, String>, name: &str, to: String) -> bool {
    match bound.get(name) {
        Some(earlier) => *earlier == to,
        None => {
            bound.insert(name.to_string(), to);
            true
        }
    }
}

/// A parameter's type without references and `const`, pointers kept: `const V&` is `V`.
fn spelling(t: &TypeName) -> String {
    let base = t.base_text.trim_start_matches("const ").trim();
    if t.pointer {
        format!("{base}*")
    } else {
        base.to_string()
    }
}

/// A type's tokens: names and numbers whole, each other character alone, spaces dropped.
fn tokens(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}
