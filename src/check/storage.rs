//! `std::aligned_storage<N, A>::type`: `N` bytes that a copy moves as one, seen as the unsigned
//! type of `N` bytes (`uint4` for 16, `uint2` for 8, `unsigned int` for 4, ...); the alignment
//! changes nothing the simulation sees.

use super::error::CheckError;
use super::typed::ExprKind;
use super::{ast, KernelChecker};
use crate::value::{Scalar, Value};

impl KernelChecker<'_, '_> {
    /// The type `std::aligned_storage<N, A>::type` stands for; `None` for any other type.
    pub(crate) fn aligned_storage(
        &mut self,
        ty: &ast::TypeName,
    ) -> Option<Result<ast::TypeName, CheckError>> {
        let size = storage_size(ty)?;
        Some(self.storage_of(ty, size, false).map(|(t, _)| t))
    }

    /// A `__shared__` array of `std::aligned_storage<N, A>::type` (PyTorch's
    /// `val_shared[WARP_SIZE]`, viewed as its real type by a cast): the type of its elements and
    /// how many of them stand for one. Storage of a size no unsigned type has (`WelfordData`'s
    /// 24 bytes) is its bytes, `N` `unsigned char`s each.
    pub(crate) fn shared_storage(
        &mut self,
        ty: &ast::TypeName,
    ) -> Option<Result<(ast::TypeName, u64), CheckError>> {
        let size = storage_size(ty)?;
        Some(self.storage_of(ty, size, true))
    }

    fn storage_of(
        &mut self,
        ty: &ast::TypeName,
        size: &str,
        as_bytes: bool,
    ) -> Result<(ast::TypeName, u64), CheckError> {
        let unreadable = |why: String| {
            CheckError::Unsupported {
            what: format!("`std::aligned_storage` of {why}"),
            span: ty.span,
            help: Some(
                "give a size of 1, 2, 4, 8 or 16 bytes, such as `4 * sizeof(float)`, or copy through a vector type such as `uint4`".into(),
            ),
        }
        };
        let parsed = crate::syntax::parse_kernel_ref(&format!("aligned_storage<{size}>"));
        let Ok((_, _, mut args)) = parsed else {
            return Err(unreadable(format!("the size `{size}`")));
        };
        let Some(ast::TemplateArg::Value(mut e)) = args.pop() else {
            return Err(unreadable(format!("the size `{size}`")));
        };
        e.span = ty.span;
        let bytes = match self.expr(&e)?.kind {
            ExprKind::Const(v) => v.cast(Scalar::I64),
            _ => return Err(unreadable(format!("the size `{size}`, not a constant"))),
        };
        let (elem, width, count) = match bytes {
            Value::I64(16) => (Scalar::U32, 4, 1),
            Value::I64(8) => (Scalar::U32, 2, 1),
            Value::I64(4) => (Scalar::U32, 1, 1),
            Value::I64(2) => (Scalar::U16, 1, 1),
            Value::I64(1) => (Scalar::U8, 1, 1),
            Value::I64(n) if as_bytes && n > 0 => (Scalar::U8, 1, n as u64),
            Value::I64(n) => return Err(unreadable(format!("{n} bytes"))),
            _ => return Err(unreadable(format!("the size `{size}`"))),
        };
        let mut out = super::template::type_of(elem, width, ty.span);
        out.pointer = ty.pointer;
        out.reference = ty.reference;
        out.is_const = ty.is_const;
        Ok((out, count))
    }
}

/// `N` of `std::aligned_storage<N, A>::type`, as written; `None` for any other type.
fn storage_size(ty: &ast::TypeName) -> Option<&str> {
    let text = ty
        .base_text
        .strip_prefix("typename")
        .unwrap_or(&ty.base_text);
    let text = text.strip_prefix("std::").unwrap_or(text);
    let args = text
        .strip_prefix("aligned_storage<")?
        .strip_suffix(">::type")?;
    Some(first_argument(args))
}

/// The first of a template's arguments, written `a, b` (commas inside brackets are not
/// separators).
fn first_argument(args: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in args.char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => return &args[..i],
            _ => {}
        }
    }
    args
}
