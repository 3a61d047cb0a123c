//! Classes of one name in several namespaces (`a::S`, `b::S`), renamed apart (`a__S`, `b__S`,
//! as a nested class is `Outer__Inner`) with each use bound to the one C++ lookup finds.
//!
//! The checker knows a class by its plain name, so without this `b::S<int>().get()` would run
//! whichever `S` it met first. Classes of one built-in header whose definitions read the same
//! (`std::plus` and `thrust::plus`) keep their one name: either is the other. Any others are
//! told apart even when they read the same, since a name inside may mean something else in
//! each namespace, and members defined outside them may differ.

use std::collections::{HashMap, HashSet};

use super::ast::{Module, StructDef, TypeName};
use super::scope::{enclosing, At, Resolver, Scopes, Using};
use crate::source::Span;

/// Types whose namespace qualifier the parser dropped, by where they are written: the text
/// kept and the text written (`Scalar3`, `hoomd::Scalar3`).
pub(crate) type Written = HashMap<Span, Vec<(String, String)>>;

/// The class names that several namespaces define (but for one built-in header's duplicates
/// that read the same), with those namespaces (empty for the file scope).
#[derive(Debug, Default)]
pub(crate) struct ClassNames {
    declared: HashMap<String, HashSet<String>>,
    namespaces: HashSet<String>,
    written: Written,
}

/// The name class `name` of namespace `ns` is known by once renamed (`b::S` is `b__S`).
pub(crate) fn mangled(ns: &str, name: &str) -> String {
    if ns.is_empty() {
        name.to_string()
    } else {
        format!("{}__{name}", ns.replace("::", "__"))
    }
}

impl ClassNames {
    /// The classes of `module` that need telling apart, and the types as `written`.
    pub fn of(module: &Module, scopes: &Scopes, written: Written) -> ClassNames {
        let mut by_name: HashMap<&str, HashMap<&str, Vec<&StructDef>>> = HashMap::new();
        for (s, ns) in module.structs.iter().zip(scopes.struct_namespaces()) {
            by_name
                .entry(s.name.name.as_str())
                .or_default()
                .entry(ns)
                .or_default()
                .push(s);
        }
        let mut declared = HashMap::new();
        for (name, by_ns) in by_name.into_iter().filter(|(_, n)| n.len() > 1) {
            // A built-in header's tokens are all where its `#include` is.
            let spans: HashSet<Span> = by_ns.values().flatten().map(|d| d.span).collect();
            let shapes: HashSet<Vec<String>> = by_ns
                .values()
                .map(|defs| defs.iter().map(|d| shape(d)).collect())
                .collect();
            if spans.len() > 1 || shapes.len() > 1 {
                let spaces = by_ns.keys().map(|ns| ns.to_string()).collect();
                declared.insert(name.to_string(), spaces);
            }
        }
        let namespaces = declared
            .values()
            .flatten()
            .flat_map(|ns: &String| enclosing(ns))
            .collect();
        ClassNames {
            declared,
            namespaces,
            written,
        }
    }

    /// Type `t` as written where the parser dropped the qualifier of one of these classes
    /// (`a::S<int>`, kept as `S<int>`; `a::S::Inner`, kept as `S::Inner`).
    pub(super) fn written<'t>(&'t self, t: &'t TypeName) -> &'t str {
        let path = t.base_text.split('<').next().unwrap_or_default();
        if !path
            .split("::")
            .any(|part| self.declared.contains_key(part))
        {
            return &t.base_text;
        }
        self.written
            .get(&t.span)
            .and_then(|all| all.iter().find(|(kept, _)| *kept == t.base_text))
            .map_or(&t.base_text, |(_, written)| written)
    }

    pub fn is_empty(&self) -> bool {
        self.declared.is_empty()
    }

    /// Their lookup, by C++'s rules for names in namespaces.
    pub fn resolver<'a>(&'a self, scopes: &'a Scopes) -> Resolver<'a> {
        Resolver {
            declared: self.declared.clone(),
            consts: None,
            classes: None,
            namespaces: self.namespaces.clone(),
            using: &scopes.using,
            aliases: &scopes.aliases,
            mangle: mangled,
        }
    }

    /// Renames the classes (with their constructors), binds the base each derives from where
    /// it is defined, and lets qualified names start with the new names.
    pub fn rename(&self, module: &mut Module, scopes: &Scopes) {
        if self.is_empty() {
            return;
        }
        let r = self.resolver(scopes);
        let none = HashSet::new();
        for (s, ns) in module.structs.iter_mut().zip(scopes.struct_namespaces()) {
            let at = At {
                ns,
                body: &[],
                own: &none,
            };
            if let Some(base) = &mut s.base {
                base.name = r.class_text(&base.name, at);
            }
            if !self.declared.contains_key(&s.name.name) {
                continue;
            }
            let name = mangled(ns, &s.name.name);
            for c in s.ctors.iter_mut().filter(|c| c.name.name == s.name.name) {
                c.name.name.clone_from(&name);
            }
            module.scopes.insert(name.clone());
            if !ns.is_empty() {
                let written = format!("{ns}::{}", s.name.name);
                module.made_names.push((name.clone(), written));
            }
            s.name.name = name;
        }
    }

    /// The class an out-of-class member's owner names (`b::S` of `b::S<T>::get`, written in
    /// namespace `enclosing`), renamed; None where it is none of these.
    pub fn owner(
        &self,
        scopes: &Scopes,
        owner: &str,
        enclosing: &str,
        body: &[Using],
    ) -> Option<String> {
        let last = owner.rsplit("::").next().unwrap_or(owner);
        if !self.declared.contains_key(last) {
            return None;
        }
        let none = HashSet::new();
        let at = At {
            ns: enclosing,
            body,
            own: &none,
        };
        Some(self.resolver(scopes).class_text(owner, at))
    }
}

impl Resolver<'_> {
    /// `text` (a type as written, `b::S<a::S<int>>`, or a qualified name, `b::S::f`) with each
    /// class name it uses renamed to the class lookup finds from `at`.
    pub(super) fn class_text(&self, text: &str, at: At<'_>) -> String {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while !rest.is_empty() {
            let Some(start) = rest.find(|c: char| word(c) || c == ':') else {
                break;
            };
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            // A path: `::`? word (`::` word)*. One after `>` (`S<T>::type`) names a member.
            let lead = if rest.starts_with("::") { 2 } else { 0 };
            let absolute = lead > 0 && !out.trim_end().ends_with('>');
            let len = lead + super::qualified_len(&rest[lead..]);
            let parts: Vec<&str> = rest[lead..len]
                .split("::")
                .filter(|p| !p.is_empty())
                .collect();
            let path = &rest[..len.max(1)];
            rest = &rest[len.max(1)..];
            out.push_str(&self.class_path(path, &parts, absolute, at));
        }
        out.push_str(rest);
        out
    }

    /// One path of [`Self::class_text`], split into `parts`: its first class name renamed.
    fn class_path(&self, path: &str, parts: &[&str], absolute: bool, at: At<'_>) -> String {
        // A member of a class named before it (`::type` of `S<T>::type`), or a number.
        let member = path.starts_with("::") && !absolute;
        let number = parts
            .first()
            .is_some_and(|p| p.starts_with(|c: char| c.is_ascii_digit()));
        let class = parts
            .iter()
            .position(|p| self.declared.contains_key(*p))
            .filter(|&k| !member && !number && (k > 0 || !at.own.contains(parts[0])));
        let Some(k) = class else {
            return path.to_string();
        };
        let mut prefix = parts[..=k].join("::");
        if absolute {
            prefix.insert_str(0, "::");
        }
        let mut out = self.resolve(&prefix, at).unwrap_or(prefix);
        for p in &parts[k + 1..] {
            out.push_str("::");
            out.push_str(p);
        }
        out
    }
}

/// What a class definition says, wherever it is written: two that read the same are one class
/// to the checker.
fn shape(def: &StructDef) -> String {
    let text = format!("{def:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('}').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_class_name_of_a_type_is_bound_where_it_is_written() {
        // `S` is declared in `a`, in `b` and at file scope.
        let names = ClassNames {
            declared: HashMap::from([(
                "S".to_string(),
                HashSet::from(["a".to_string(), "b".to_string(), String::new()]),
            )]),
            namespaces: ["a", "b", ""].iter().map(|n| n.to_string()).collect(),
            written: Written::new(),
        };
        let scopes = Scopes::default();
        let r = names.resolver(&scopes);
        let none = HashSet::new();
        let own = HashSet::from(["S".to_string()]);
        let at = |ns| At {
            ns,
            body: &[],
            own: &none,
        };
        let text = |t: &str, ns| r.class_text(t, at(ns));
        assert_eq!(text("b::S<a::S<int>>", ""), "b__S<a__S<int>>");
        assert_eq!(text("::a::S::value", "b"), "a__S::value");
        // Plain `S` is the innermost namespace's, else the file's.
        assert_eq!(text("S<4>", "b"), "b__S<4>");
        assert_eq!(text("S", ""), "S");
        // A member named after the class (`X<T>::S`) and a template parameter `S` stay.
        assert_eq!(text("X<T>::S", "a"), "X<T>::S");
        let hidden = At {
            ns: "a",
            body: &[],
            own: &own,
        };
        assert_eq!(r.class_text("S", hidden), "S");
    }
}
