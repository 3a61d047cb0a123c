//! `decltype(e)` as a local's type: the names declared take `e`'s type (C++ [dcl.type.decltype]).

use super::typed::Stmt;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `decltype(e) a = x, b;`: each name declared with `e`'s type, which is not run. A name is
    /// its declared type (`decltype(c)` of an `unsigned char c`), a vector or struct its type, any
    /// other expression its type after C's promotions (`decltype(a + b)` of two `short`s is
    /// `int`); an element or `*p` (an lvalue that is not a name) is a reference to its type, as
    /// in C++, so `decltype(a[i]) r = a[i];` names `a[i]`. A pointer is refused.
    pub(crate) fn decltype_declaration(
        &mut self,
        e: &ast::Expr,
        at: Span,
        decls: &[ast::Declarator],
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if self.is_pointer(e) {
            return Err(CheckError::Unsupported {
                what: "`decltype` of a pointer as a local's type".into(),
                span: e.span,
                help: Some("write the pointer type (`const float* q = p;`)".into()),
            });
        }
        let lvalue = match &e.kind {
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => true,
            // A reference names another object; a variable kept in memory is not one.
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Ref(i)) => !self.is_memory_variable(i),
                _ => false,
            },
            _ => false,
        };
        let ty = if let Some((elem, width)) = self.value_vector_shape(e)? {
            super::template::type_of(elem, width, at)
        } else if let Some(layout) = self.struct_of(e) {
            ast::TypeName::named(layout.name.clone(), at)
        } else {
            super::template::type_of(self.decltype(e)?, 1, at)
        };
        for d in decls {
            let d = ast::Declarator {
                reference: d.reference || lvalue,
                ..d.clone()
            };
            self.declaration(&ty, &d, out)?;
        }
        Ok(())
    }
}
