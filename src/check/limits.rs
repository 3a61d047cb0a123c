//! `<limits>`, `<type_traits>`' predicates and `static_assert`: constants the checker computes
//! from a type.

use super::typed::*;
use super::{scalar_of, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The members of `std::numeric_limits<T>` simt computes.
const MEMBERS: &str = "`max()`, `min()`, `lowest()`, `epsilon()`, `infinity()`, `quiet_NaN()`, `signaling_NaN()`, `denorm_min()`, `round_error()`, `digits`, `is_signed`, `is_integer`";

/// `std::numeric_limits<T>::m` for the scalar `s`, as C++'s `<limits>` defines it
/// ([numeric.limits.members]); the floating types' `min()` is the smallest normal number, the
/// integers' `epsilon()`, `infinity()` and NaNs are 0. `None` for a member simt does not know.
fn limit(s: Scalar, m: &str) -> Option<Value> {
    use Scalar::*;
    let float = |v: f64| Value::F64(v);
    Some(match (s, m) {
        (F32, "max") => float(f64::from(f32::MAX)),
        (F32, "min") => float(f64::from(f32::MIN_POSITIVE)),
        (F32, "lowest") => float(f64::from(f32::MIN)),
        (F32, "epsilon") => float(f64::from(f32::EPSILON)),
        (F32, "denorm_min") => float(f64::from(f32::from_bits(1))),
        (F32, "digits") => Value::I32(24),
        (F64, "max") => float(f64::MAX),
        (F64, "min") => float(f64::MIN_POSITIVE),
        (F64, "lowest") => float(f64::MIN),
        (F64, "epsilon") => float(f64::EPSILON),
        (F64, "denorm_min") => float(f64::from_bits(1)),
        (F64, "digits") => Value::I32(53),
        // cuda_fp16.h's and cuda_bf16.h's specialisations (binary16: 11 significant bits,
        // bfloat16: 8; both as exact doubles).
        (F16, "max") => float(65504.0),
        (F16, "min") => float(2f64.powi(-14)),
        (F16, "lowest") => float(-65504.0),
        (F16, "epsilon") => float(2f64.powi(-10)),
        (F16, "denorm_min") => float(2f64.powi(-24)),
        (F16, "digits") => Value::I32(11),
        (BF16, "max") => float(f64::from(f32::from_bits(0x7f7f_0000))),
        (BF16, "min") => float(f64::from(f32::MIN_POSITIVE)),
        (BF16, "lowest") => float(-f64::from(f32::from_bits(0x7f7f_0000))),
        (BF16, "epsilon") => float(2f64.powi(-7)),
        (BF16, "denorm_min") => float(2f64.powi(-133)),
        (BF16, "digits") => Value::I32(8),
        (F32 | F64 | F16 | BF16, "infinity") => float(f64::INFINITY),
        (F32 | F64 | F16 | BF16, "quiet_NaN" | "signaling_NaN") => float(f64::NAN),
        (F32 | F64 | F16 | BF16, "round_error") => float(0.5),
        (F32 | F64 | F16 | BF16, "is_signed") => Value::Bool(true),
        (F32 | F64 | F16 | BF16, "is_integer") => Value::Bool(false),
        (Bool, "max") => Value::Bool(true),
        (Bool, "min" | "lowest") => Value::Bool(false),
        (Bool, "digits") => Value::I32(1),
        (Bool, "is_signed") => Value::Bool(false),
        (_, "is_integer") => Value::Bool(true),
        (_, "max") => Value::U64(int_range(s).1),
        (_, "min" | "lowest") => Value::I64(int_range(s).0),
        (
            _,
            "epsilon" | "infinity" | "quiet_NaN" | "signaling_NaN" | "denorm_min" | "round_error",
        ) => Value::I32(0),
        (_, "digits") => Value::I32((s.size() * 8 - u32::from(s.is_signed())) as i32),
        (_, "is_signed") => Value::Bool(s.is_signed()),
        _ => return None,
    })
}

/// The members of ATen's `at::numeric_limits<T>` (aten/src/ATen/cuda/NumericLimits.cuh).
const ATEN_MEMBERS: &str = "lowest, max, lower_bound, upper_bound";

/// `at::numeric_limits<T>::m()`: `lowest` and `max` as the standard's; `lower_bound` and
/// `upper_bound` the infinities of a floating-point type, an integer type's `lowest` and `max`.
fn aten_limit(s: Scalar, m: &str) -> Option<Value> {
    let float = matches!(s, Scalar::F32 | Scalar::F64 | Scalar::F16 | Scalar::BF16);
    match (m, float) {
        ("lowest" | "max", _) => limit(s, m),
        ("lower_bound", true) => Some(Value::F64(f64::NEG_INFINITY)),
        ("upper_bound", true) => Some(Value::F64(f64::INFINITY)),
        ("lower_bound", false) => limit(s, "lowest"),
        ("upper_bound", false) => limit(s, "max"),
        _ => None,
    }
}

/// The smallest and largest values of an integer type.
fn int_range(s: Scalar) -> (i64, u64) {
    let bits = s.size() * 8;
    if s.is_signed() {
        // -2^(bits - 1) by an arithmetic shift: `-(1 << 63)` overflows for 64 bits.
        (i64::MIN >> (64 - bits), (1u64 << (bits - 1)) - 1)
    } else {
        (
            0,
            if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            },
        )
    }
}

impl KernelChecker<'_, '_> {
    /// `std::numeric_limits<T>::max()` and the other members (the builder names the call
    /// `std::numeric_limits_max`); `None` for any other call.
    pub(crate) fn numeric_limit(
        &mut self,
        callee: &ast::Ident,
        targs: &[ast::TemplateArg],
        span: Span,
    ) -> Option<Result<Expr>> {
        let (ns, member) = match callee.name.strip_prefix("std::numeric_limits_") {
            Some(m) => ("std", m),
            None => ("at", callee.name.strip_prefix("at::numeric_limits_")?),
        };
        let [ast::TemplateArg::Type(ty)] = targs else {
            return None;
        };
        Some((|| {
            let s = scalar_of(ty)?;
            let v = match ns {
                "at" => aten_limit(s, member),
                _ => limit(s, member),
            };
            let Some(v) = v else {
                let known = if ns == "at" { ATEN_MEMBERS } else { MEMBERS };
                return Err(CheckError::UnknownFunction {
                    name: format!("{ns}::numeric_limits<{}>::{member}", s.c_name()),
                    span: callee.span,
                    suggestion: Some(format!("simt knows the members {known}")),
                });
            };
            let c = super::expr::constant(v, span);
            // The members that are values of `T` have type `T`; the others `int` or `bool`.
            Ok(match v {
                Value::Bool(_) if s != Scalar::Bool => c,
                Value::I32(_) if member == "digits" => c,
                _ => self.convert(c, s),
            })
        })())
    }

    /// `std::is_same<A, B>::value` (the builder's call `std::is_same` with the two types) and
    /// `<type_traits>`' other predicates ([`super::traits::predicate`]): `true` when A and B
    /// are the same type: the same scalar (an alias or `__half` for `half` is that scalar),
    /// vector or struct, pointer, reference and `const` alike ([meta.rel]); `None` for any
    /// other call.
    pub(crate) fn is_same(
        &mut self,
        callee: &ast::Ident,
        targs: &[ast::TemplateArg],
        span: Span,
    ) -> Option<Expr> {
        let holds = super::traits::predicate(&callee.name, targs)?;
        Some(super::expr::constant(Value::Bool(holds), span))
    }

    /// `static_assert(cond, "why")` in a body (the builder's call `static_assert`): an error
    /// when `cond` is a constant and false; a condition simt cannot evaluate to a constant, or
    /// one on a name whose declaration was an error, is ignored, as it changes nothing that
    /// runs. `None` for any other statement.
    pub(crate) fn static_assertion(&mut self, e: &ast::Expr) -> Option<Result<()>> {
        let ast::ExprKind::Call { callee, args, .. } = &e.kind else {
            return None;
        };
        if callee.name != "static_assert" || args.is_empty() {
            return None;
        }
        let message = match args.get(1).map(|a| &a.kind) {
            Some(ast::ExprKind::Str(s)) => Some(s.clone()),
            _ => None,
        };
        // A condition on a name whose declaration was an error (`constexpr int L = f(N);` of a
        // refused `f`) says nothing more.
        let refused = crate::syntax::any_subexpr(
            &args[0],
            |x| matches!(&x.kind, ast::ExprKind::Name(n) if self.refused_names.contains(n)),
        );
        if refused {
            return Some(Ok(()));
        }
        Some(match self.expr(&args[0]).map(|c| c.kind) {
            Ok(ExprKind::Const(v)) if !v.is_true() => Err(CheckError::StaticAssert {
                message: message.map_or_else(String::new, |m| format!(": {m}")),
                span: args[0].span,
            }),
            _ => Ok(()),
        })
    }
}
