//! Argument-dependent lookup: an unqualified call given an object of a struct defined in a
//! namespace also finds that namespace's functions (`abs(z)` of a `thrust::complex<float>` is
//! `thrust::abs`).

use super::KernelChecker;
use crate::syntax::ast;

impl KernelChecker<'_, '_> {
    /// The function an unqualified call of `callee` with `args` reaches through the namespace of
    /// a struct argument's type ([basic.lookup.argdep]); `None` where ordinary lookup finds a
    /// variable (a lambda, a function object: C++ then looks no further) or where the file
    /// defines a function of the plain name too, whose overloads simt does not weigh against
    /// the namespace's (the file's is called).
    pub(crate) fn adl(&mut self, callee: &ast::Ident, args: &[ast::Expr]) -> Option<ast::Ident> {
        let name = callee.name.as_str();
        if name.contains("::")
            || name.contains('.')
            || self.globals.functions.contains_key(name)
            || self.lookup(name).is_some()
        {
            return None;
        }
        args.iter().find_map(|a| {
            let (def, _) = self.struct_of(a)?.def.clone()?;
            let ns = &self.globals.structs[def].namespace;
            let found = format!("{}.{name}", ns.replace("::", "."));
            let known = !ns.is_empty() && self.globals.functions.contains_key(found.as_str());
            known.then_some(ast::Ident {
                name: found,
                span: callee.span,
            })
        })
    }
}
