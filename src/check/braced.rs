//! `uint64_t{x}`, `int{}`: a scalar's braced functional cast and C++11's narrowing rule for it.

use super::error::InitialiserProblem;
use super::expr::constant;
use super::typed::{Expr, ExprKind};
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `T{v}` (`items` is `[v]`) or `T{}` (`[]`, zero: value-initialisation). A constant whose
    /// conversion narrows ([dcl.init.list]: a floating value to an integer, an integer that `T`
    /// cannot hold or a float cannot hold exactly, a double outside `float`'s range) is an error,
    /// as g++ and nvcc make it; a narrowing conversion of a run-time value converts as `(T)v`
    /// does (g++ and nvcc warn, and compile it).
    pub(crate) fn braced_cast(
        &mut self,
        ty: &ast::TypeName,
        items: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let to = super::scalar_of(ty)?;
        let Some(item) = items.first() else {
            return Ok(constant(Value::I32(0).cast(to), span));
        };
        let inner = self.expr(item)?;
        if let ExprKind::Const(v) = inner.kind {
            if narrows(v, to) {
                return Err(CheckError::Initialiser {
                    problem: InitialiserProblem::Narrowing {
                        value: constant_text(v),
                        from: v.ty().c_name().into(),
                        to: ty.base_text.clone(),
                    },
                    span: item.span,
                    help: Some(format!(
                        "braces allow no narrowing conversion of a constant: write the cast `({})x` \
                         or `static_cast<{}>(x)` to convert it as C does, or a value that fits",
                        ty.base_text, ty.base_text
                    )),
                });
            }
        }
        let mut out = self.convert(inner, to);
        out.span = span;
        Ok(out)
    }
}

/// Whether converting the constant `v` to `to` in braces narrows it.
fn narrows(v: Value, to: Scalar) -> bool {
    let from = v.ty();
    match (from.is_float(), to.is_float()) {
        // A floating value never initialises an integer (or `bool`) in braces, constant or not.
        (true, false) => true,
        (true, true) => {
            let x = v.as_f64();
            to.size() < from.size() && x.is_finite() && x.abs() > float_max(to)
        }
        (false, true) => {
            let n = integer(v);
            let back = match to {
                Scalar::F64 => n as f64 as i128,
                _ => f64::from(n as f32) as i128,
            };
            back != n
        }
        (false, false) => {
            let n = integer(v);
            let (lo, hi) = range(to);
            n < lo || n > hi
        }
    }
}

/// An integer constant's value.
fn integer(v: Value) -> i128 {
    match v {
        Value::U64(u) => i128::from(u),
        Value::U32(u) => i128::from(u),
        other => i128::from(other.as_i64().unwrap_or(0)),
    }
}

/// The values an integer type holds.
fn range(to: Scalar) -> (i128, i128) {
    match to {
        Scalar::Bool => (0, 1),
        Scalar::I8 => (i128::from(i8::MIN), i128::from(i8::MAX)),
        Scalar::U8 => (0, i128::from(u8::MAX)),
        Scalar::I16 => (i128::from(i16::MIN), i128::from(i16::MAX)),
        Scalar::U16 => (0, i128::from(u16::MAX)),
        Scalar::I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Scalar::U32 => (0, i128::from(u32::MAX)),
        Scalar::I64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
        _ => (0, i128::from(u64::MAX)),
    }
}

/// The largest finite value of a floating type.
fn float_max(to: Scalar) -> f64 {
    match to {
        Scalar::F16 => 65504.0,
        Scalar::BF16 => 3.389_531_389_251_535_5e38,
        Scalar::F32 => f64::from(f32::MAX),
        _ => f64::MAX,
    }
}

/// A constant as the message shows it.
fn constant_text(v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::F32(x) => format!("{x:?}f"),
        Value::F64(x) => format!("{x:?}"),
        other => integer(other).to_string(),
    }
}
