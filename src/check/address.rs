//! A pointer converted to an integer (`(uintptr_t)p`, `(size_t)ptr`): a byte address in simt's
//! model of device memory, so that alignment tests such as `((uint64_t)p & 15) == 0` answer as on
//! a GPU. Every launch array, shared and local array starts on a 4 GiB boundary of its own (more
//! than the 256 bytes `cudaMalloc` guarantees), and an element's address is its start plus its
//! byte offset; a parameter the launch binds into an array (`in = &d[3]`) starts where it points
//! ([`crate::ir::global_address`], read when the launch starts).

use super::error::CheckError;
use super::expr::constant;
use super::typed::{Expr, ExprKind, Space, NULL_OFFSET};
use super::{ast, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

/// Where shared array 0 starts (inside the generic address window of shared memory).
const SHARED_BASE: u64 = 0x7e00_0000_0000;
/// Where local array 0 starts (inside the generic address window of local memory).
const LOCAL_BASE: u64 = 0x7d00_0000_0000;

/// The byte address of the first element of a shared or local array, or of where a pointer
/// parameter points.
fn base_address(space: Space, span: Span) -> Expr {
    let (base, n) = match space {
        Space::Global(p) => {
            return Expr {
                kind: ExprKind::ParamAddress(p),
                ty: Scalar::U64,
                span,
            }
        }
        Space::Shared(n) => (SHARED_BASE, n),
        Space::Local(n) => (LOCAL_BASE, n),
        Space::Choice { .. } => unreachable!("checker: a choice's address is refused before"),
    };
    constant(Value::U64(base + (u64::from(n) << 32)), span)
}

impl KernelChecker<'_, '_> {
    /// `(T)p` for a pointer `p` and a 64-bit integer type `T`: its byte address (0 for null).
    pub(crate) fn pointer_as_integer(
        &mut self,
        ty: &ast::TypeName,
        pointer: &ast::Expr,
        span: Span,
    ) -> Result<Expr, CheckError> {
        let to = super::scalar_of(ty)?;
        if !matches!(to, Scalar::I64 | Scalar::U64) {
            return Err(CheckError::Unsupported {
                what: format!("converting a pointer to `{}`", ty.base_text),
                span,
                help: Some(
                    "a pointer has 64 bits: convert it to `uintptr_t`, `size_t` or `uint64_t`"
                        .into(),
                ),
            });
        }
        let ptr = self.pointer(pointer)?;
        let Some(mem) = ptr.mem else {
            return Ok(constant(Value::U64(0), span)).map(|e| self.convert(e, to));
        };
        if let Space::Choice { .. } = mem.space {
            return Err(CheckError::Unsupported {
                what: "the address of a pointer that may point into several arrays".into(),
                span,
                help: Some(
                    "convert the pointer to an integer where it points into one array".into(),
                ),
            });
        }
        let bytes = i64::from(mem.elem.size() * mem.width);
        let offset = ptr.offset;
        let null = self.binary(
            BinOp::Eq,
            span,
            offset.clone(),
            constant(Value::I64(NULL_OFFSET), span),
        )?;
        let scaled = self.binary(BinOp::Mul, span, offset, constant(Value::I64(bytes), span))?;
        let base = base_address(mem.space, span);
        let address = self.binary(BinOp::Add, span, base, scaled)?;
        let zero = constant(Value::U64(0), span);
        let value = self.ternary(null, zero, address, span)?;
        let mut out = self.convert(value, to);
        out.span = span;
        Ok(out)
    }
}
