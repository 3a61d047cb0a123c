//! Argument-dependent lookup: an unqualified call given an object of a struct defined in a
//! namespace also finds that namespace's functions (`abs(z)` of a `thrust::complex<float>` is
//! `thrust::abs`).

use super::KernelChecker;
use crate::syntax::ast;

impl KernelChecker<'_, '_> {
    /// The function an unqualified call of `callee` with `args` reaches through the namespace of
    /// a struct argument's type ([basic.lookup.argdep]); `None` where ordinary lookup finds a
    /// variable (a lambda, a function object: C++ then looks no further) or where a function
    /// of the plain name the file defines takes that argument as well (a parameter of the
    /// struct's type or of a template's type parameter): simt does not rank the two sets
    /// together, and calls the file's.
    pub(crate) fn adl(&mut self, callee: &ast::Ident, args: &[ast::Expr]) -> Option<ast::Ident> {
        let name = callee.name.as_str();
        if name.contains("::") || name.contains('.') || self.lookup(name).is_some() {
            return None;
        }
        let globals = self.globals;
        let file = globals.overloads.get(name).map_or(&[][..], Vec::as_slice);
        args.iter().enumerate().find_map(|(k, a)| {
            let (def, _) = self.struct_of(a)?.def.clone()?;
            let d = &self.globals.structs[def];
            let ns = &d.namespace;
            let found = format!("{}.{name}", ns.replace("::", "."));
            // Some overload there takes this many arguments (a file function it would hide
            // may take the call through a conversion).
            let known = !ns.is_empty()
                && self
                    .globals
                    .overloads
                    .get(found.as_str())
                    .is_some_and(|fs| fs.iter().any(|f| super::operators::takes(f, args.len())));
            let takes = |f: &&ast::Function| {
                f.params.get(k).is_some_and(|p| {
                    let head = p.ty.base_text.split('<').next().unwrap_or_default().trim();
                    f.template.iter().any(|t| t.name.name == head)
                        || super::groups::unqualified(head) == d.name.name
                })
            };
            (known && !file.iter().any(takes)).then_some(ast::Ident {
                name: found,
                span: callee.span,
            })
        })
    }

    /// The file-scope function an unqualified call reaches where lookup stopped at a namespace's
    /// function templates of the name: none deduces from `args`, so C++ drops them, and a
    /// struct or vector argument of the global namespace brings in the file's function
    /// (HOOMD's `dot(d, d)` of two `float3` inside `namespace hoomd`, whose `dot` is a template
    /// of `vec3<Real>`).
    pub(crate) fn global_by_adl(
        &mut self,
        callee: &ast::Ident,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
    ) -> Option<ast::Ident> {
        let (_, plain) = callee.name.rsplit_once('.')?;
        // Written qualified (`hoomd::dot(d, d)`), the call names the namespace's alone.
        let written = (callee.span.end - callee.span.start) as usize;
        if written != plain.len()
            || !targs.is_empty()
            || !self.globals.functions.contains_key(plain)
        {
            return None;
        }
        let candidates = self.globals.overloads.get(callee.name.as_str())?.clone();
        if candidates.iter().any(|f| f.template.is_empty()) {
            return None;
        }
        let global_arg = args.iter().any(|a| match self.struct_of(a) {
            Some(l) => l
                .def
                .as_ref()
                .is_none_or(|&(d, _)| self.globals.structs[d].namespace.is_empty()),
            None => matches!(self.value_vector_shape(a), Ok(Some(_))),
        });
        let none_deduces = candidates.iter().all(|f| {
            matches!(
                self.function_instance(f, &[], args, callee.span),
                Err(super::CheckError::TemplateArguments { .. })
            )
        });
        (global_arg && none_deduces).then(|| ast::Ident {
            name: plain.to_string(),
            span: callee.span,
        })
    }
}
