//! Which of a member function's `const` and non-`const` overloads an object calls.

// C++ [over.match.funcs]: a member function's implicit object parameter is `T&`, or `const T&`
// for one declared `const`. Of two overloads that differ only in it (`float operator[](int)
// const` and `float& operator[](int)`), a `const` object can bind only the `const` one's, and
// any other object binds the other's better ([over.ics.rank]: the less cv-qualified reference).

use super::structs::Layout;
use super::{Binding, KernelChecker};
use crate::syntax::ast::{self, UnOp};
use crate::syntax::param_type;

impl KernelChecker<'_, '_> {
    /// Records a struct binding as `const` (a `const` local, a `const T&` parameter, `*this` in a
    /// `const` member function) where `is_const`.
    pub(crate) fn mark_const(&mut self, b: &Binding, is_const: bool) {
        if let (Binding::Struct(i), true) = (b, is_const) {
            self.const_structs.insert(*i);
        }
    }

    /// Whether the struct object `e` names is `const`: a `const` variable or reference, a member
    /// or element of one, `*p` of a pointer to `const`. A temporary is not.
    pub(crate) fn object_is_const(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Struct(i)) => self.const_structs.contains(&i),
                _ => false,
            },
            ast::ExprKind::Member { base, .. } => self.object_is_const(base),
            ast::ExprKind::Index { base, .. } => match self.struct_of(base) {
                Some(l) if l.array => self.object_is_const(base),
                // An element an `operator[]` returns: what it returns says, not the object.
                Some(_) => false,
                None => self.place_is_const(e),
            },
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } => match &operand.kind {
                ast::ExprKind::Name(n) if n == "this" => self.object_is_const(operand),
                _ => self.place_is_const(e),
            },
            ast::ExprKind::Cast { ty, .. } => ty.is_const,
            _ => false,
        }
    }

    /// `f`, a member function of `l` chosen for a call on `object`, or its overload with the
    /// same parameters that `object`'s constness picks instead. A `const` object with only a
    /// non-`const` overload keeps it.
    pub(crate) fn for_object(
        &mut self,
        object: &ast::Expr,
        l: &Layout,
        f: ast::Function,
    ) -> ast::Function {
        let wanted = self.object_is_const(object);
        if f.is_const == wanted {
            return f;
        }
        let Some((def, bindings)) = &l.def else {
            return f;
        };
        let params: Vec<String> = f.params.iter().map(param_type).collect();
        self.globals.structs[*def]
            .methods
            .iter()
            .filter(|m| {
                m.name.name == f.name.name && m.is_const == wanted && m.params.len() == params.len()
            })
            .map(|m| bindings.member(m))
            .find(|m| m.params.iter().map(param_type).eq(params.iter().cloned()))
            .unwrap_or(f)
    }
}
