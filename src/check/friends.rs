//! Friend functions defined in a class (`friend __device__ S operator+(S a, int n) { ... }`):
//! free functions of the file, found by their arguments' types.
//!
//! C++ [class.friend] makes such a friend a function of the enclosing namespace that only
//! argument-dependent lookup finds, through the class of an argument. simt puts it among the
//! file-scope functions under its plain name, which every call with an argument of the class
//! reaches (operators are found by name anyway). A friend of a class template is a function
//! template of the class's parameters (and its own, for a friend template): C++ defines one
//! function per instance of the class, which a call reaches through an argument of that
//! instance, so deducing the class's parameters from such an argument chooses the same
//! function. Inside it the class's name alone is the instance (`S` is `S<T>`), as in the
//! class.

use std::rc::Rc;

use super::template::Bindings;
use crate::syntax::ast;

/// A copy of `module` with every struct's friend functions moved among its device functions.
pub(crate) fn hoist(module: &ast::Module) -> ast::Module {
    let mut m = module.clone();
    let constructed: Rc<std::collections::HashSet<String>> = Rc::new(
        module
            .structs
            .iter()
            .filter(|s| !s.ctors.is_empty())
            .map(|s| s.name.name.clone())
            .collect(),
    );
    for s in &mut m.structs {
        for f in std::mem::take(&mut s.friends) {
            if s.template.is_empty() {
                m.device_fns.push(f);
                continue;
            }
            // `S` is `S<T, N>` of the class's parameters (a pack expanded: `S<Ts...>`).
            let args: Vec<String> = s
                .template
                .iter()
                .map(|p| {
                    let dots = if p.pack { "..." } else { "" };
                    format!("{}{dots}", p.name.name)
                })
                .collect();
            let instance = format!("{}<{}>", s.name.name, args.join(","));
            // The parameters stay open: `is_integral<T>` waits for the instance.
            let mut b = Bindings {
                constructed: Rc::clone(&constructed),
                open: s
                    .template
                    .iter()
                    .chain(&f.template)
                    .map(|p| p.name.name.clone())
                    .collect(),
                ..Bindings::default()
            };
            b.types.insert(
                s.name.name.clone(),
                ast::TypeName::named(instance, s.name.span),
            );
            let own = f.template.clone();
            let mut hoisted = b.function(&f);
            hoisted.template = s.template.iter().cloned().chain(own).collect();
            m.device_fns.push(hoisted);
        }
    }
    m
}
