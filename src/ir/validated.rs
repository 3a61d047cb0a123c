//! Reads that an `atomicCAS` of the same element validates — the compare-and-swap loop's first read (`old = *p; do { assumed = old; old = atomicCAS(p, assumed, f(assumed)); } while (assumed != old);`, the Programming Guide's own idiom): the race checker counts them as relaxed reads, which conflict with plain writes but not with atomics, since the swap fails and retries on whatever a stale read saw.

use crate::check::typed::{Expr, ExprKind, Mem};
use crate::value::AtomicOp;

/// A span-free key of the element `index` of `mem` names — its array, its size and the index
/// expression, so that `*p` of a `long long*` and the swap through `(unsigned long long*)p`
/// meet — for the index expressions a CAS loop writes twice (a variable, a constant,
/// arithmetic and conversions of them); `None` for any other expression, which then matches
/// nothing.
pub(super) fn element_key(mem: Mem, index: &Expr) -> Option<String> {
    let bytes = mem.elem.size() * mem.width;
    Some(format!("{:?}|{bytes}|{}", mem.space, value_key(index)?))
}

fn value_key(e: &Expr) -> Option<String> {
    Some(match &e.kind {
        ExprKind::Const(v) => format!("{v:?}"),
        ExprKind::Var(v) => format!("v{}", v.0),
        ExprKind::Builtin(b) => format!("{b:?}"),
        ExprKind::ParamBase(p) => format!("base{p}"),
        ExprKind::ParamAddress(p) => format!("address{p}"),
        ExprKind::Widen(a) => format!("widen({})", value_key(a)?),
        ExprKind::Neg(a) => format!("-({})", value_key(a)?),
        ExprKind::Cast { to, operand } => format!("({to:?})({})", value_key(operand)?),
        ExprKind::Arith { op, lhs, rhs } => {
            format!("({:?} {} {})", op, value_key(lhs)?, value_key(rhs)?)
        }
        ExprKind::Rescale {
            value,
            from,
            to,
            size,
            space,
        } => format!(
            "rescale({}, {from}, {to}, {size}, {space:?})",
            value_key(value)?
        ),
        _ => return None,
    })
}

/// The key of the element an `atomicCAS` expression swaps, if `e` is one.
pub(super) fn cas_key(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Atomic {
            op: AtomicOp::Cas,
            mem,
            index,
            ..
        } => element_key(*mem, index),
        _ => None,
    }
}
