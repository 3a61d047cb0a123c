//! A class's conversion operators to numbers: `(int)d` or `int q = d;` of a struct with `operator int()`.

use std::rc::Rc;

use super::structs::Layout;
use super::typed::Expr;
use super::{CheckError, KernelChecker};
use crate::syntax::ast;
use crate::value::Scalar;

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `e`, a struct of layout `l`, used as a number: the value its conversion operator returns
    /// (C++ [class.conv.fct]), or `None` where the class has none to a number. Of several, the
    /// one to `to` (the type of a cast); without one, an implicit conversion needs exactly one.
    pub(crate) fn converted(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        to: Option<Scalar>,
    ) -> Option<Result<Expr>> {
        let numeric = self.methods_where(l, |m| {
            m.name.name == "operator" && m.params.is_empty() && super::scalar_of(&m.ret).is_ok()
        })?;
        let f = match (numeric.len(), to) {
            (0, _) => return None,
            (1, _) => numeric.into_iter().next()?,
            (_, Some(to)) => numeric
                .into_iter()
                .find(|m| super::scalar_of(&m.ret).is_ok_and(|t| t == to))?,
            (_, None) => return None,
        };
        let f = self.for_object(e, l, f);
        Some(self.call_on(e, l, &f, (&[], &[]), (e.span, false)))
    }
}
