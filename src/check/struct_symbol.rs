//! The initial bytes of a file-scope `__device__`/`__constant__` struct (or array of structs), laid out as in memory.

// A struct in memory is a buffer of its one leaf type, of 32-bit words, or of bytes
// (`Layout::buffer_shape`); its initialiser's values are its leaves' (each converted to its
// member's type, nested braces and constructors as for a local), so the buffer's components
// are cut from the leaves' bytes at their offsets, padding zero, as the compiler writes the
// symbol's image.

use std::rc::Rc;

use super::error::InitialiserProblem;
use super::structs::Layout;
use super::typed::{Expr, ExprKind};
use super::{CheckError, KernelChecker};
use crate::syntax::ast;
use crate::value::{Scalar, Value};

impl KernelChecker<'_, '_> {
    /// The components of `c`'s buffer of `(elem, width)` per struct that its initialiser
    /// gives, `dims` structs of layout `l` (none: one struct); `None` without an initialiser.
    pub(crate) fn struct_initialiser(
        &mut self,
        c: &ast::ConstantArray,
        l: &Rc<Layout>,
        (elem, width): (Scalar, u32),
        dims: &[u64],
    ) -> Result<Option<Vec<Value>>, CheckError> {
        let Some(init) = &c.init else {
            return Ok(None);
        };
        // A refused struct (a bit-field's) has no leaves: its refusal is the error.
        if l.leaves.is_empty() {
            return Ok(None);
        }
        let mut items = Vec::new();
        if dims.is_empty() {
            items.push(Some(init));
        } else {
            let ast::ExprKind::List(list) = &init.kind else {
                return Err(CheckError::Initialiser {
                    problem: InitialiserProblem::WrongShape {
                        name: c.name.name.clone(),
                        array: true,
                    },
                    span: init.span,
                    help: Some("an array takes `{a, b, ...}`".into()),
                });
            };
            self.braced_rows(l, list, dims.len())?;
            items = super::array_init::elements(list, Some(dims[0]), &dims[1..])
                .ok_or_else(|| super::too_many_for(c, dims, init.span))?
                .0;
        }
        let empty = ast::Expr {
            kind: ast::ExprKind::List(Vec::new()),
            span: init.span,
        };
        let mut values = Vec::with_capacity(items.len() * l.leaves.len());
        for item in items {
            let item = item.unwrap_or(&empty);
            let mut out = Vec::new();
            let leaves = self.struct_value(item, l, &mut out)?;
            for value in &leaves {
                values.push(constant_of(value).ok_or_else(|| not_constant(c, item.span))?);
            }
            if !out.is_empty() {
                return Err(not_constant(c, item.span));
            }
        }
        debug_assert_eq!(l.size, elem.size() * width);
        Ok(Some(l.image().components(&values, elem)))
    }

    /// Refuses an array of structs `l` of `rank` dimensions listing members' values without
    /// their braces in any row (`{{1, 2}, {3, 4}}` of `S c[2][3]` is c[0][0] = {1, 2} in C).
    fn braced_rows(
        &mut self,
        l: &Layout,
        items: &[ast::Expr],
        rank: usize,
    ) -> Result<(), CheckError> {
        if rank > 1 {
            for item in items {
                if let ast::ExprKind::List(row) = &item.kind {
                    self.braced_rows(l, row, rank - 1)?;
                } else {
                    self.braced_elements(l, std::slice::from_ref(item))?;
                }
            }
            return Ok(());
        }
        self.braced_elements(l, items)
    }
}

/// The value of a constant leaf: a 16-bit float one is its rounded value under the conversion
/// that keeps its type.
fn constant_of(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Const(v) => Some(*v),
        ExprKind::Cast { to, operand } if to.is_half() => match operand.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

fn not_constant(c: &ast::ConstantArray, span: crate::source::Span) -> CheckError {
    CheckError::NotConstant {
        what: format!("the initialiser of `{}`", c.name.name),
        span,
        help: Some("use literals, `#define`s or `const` globals".into()),
    }
}
