//! Atomic read-modify-write on global or shared memory, applied lane by lane in lane order.

use super::memory::Slots;
use super::regs::{RegFile, Stored};
use crate::ir::Reg;
use crate::value::{AtomicOp, Value};

/// A register storage type that atomics work on, and its constant for the element type.
pub(crate) trait AtomicLane: Stored {
    fn value(self, elem_signed: bool) -> Value;
    fn from_value(v: Value) -> Self;
}

impl AtomicLane for u32 {
    fn value(self, signed: bool) -> Value {
        if signed {
            Value::I32(self as i32)
        } else {
            Value::U32(self)
        }
    }
    fn from_value(v: Value) -> u32 {
        match v {
            Value::I32(x) => x as u32,
            Value::U32(x) => x,
            other => unreachable!("atomic: {other} is not a 32-bit integer"),
        }
    }
}

impl AtomicLane for u64 {
    fn value(self, signed: bool) -> Value {
        if signed {
            Value::I64(self as i64)
        } else {
            Value::U64(self)
        }
    }
    fn from_value(v: Value) -> u64 {
        match v {
            Value::I64(x) => x as u64,
            Value::U64(x) => x,
            other => unreachable!("atomic: {other} is not a 64-bit integer"),
        }
    }
}

impl AtomicLane for f32 {
    fn value(self, _: bool) -> Value {
        Value::F32(self)
    }
    fn from_value(v: Value) -> f32 {
        match v {
            Value::F32(x) => x,
            other => unreachable!("atomic: {other} is not a float"),
        }
    }
}

impl AtomicLane for f64 {
    fn value(self, _: bool) -> Value {
        Value::F64(self)
    }
    fn from_value(v: Value) -> f64 {
        match v {
            Value::F64(x) => x,
            other => unreachable!("atomic: {other} is not a double"),
        }
    }
}

/// Applies `op` for every active lane in lane order; each lane gets the old value in `d`.
/// `cmp` is `atomicCAS`'s compare register (any register of the operand's bank otherwise).
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply<M: Slots>(
    mem: &mut M,
    signed: bool,
    op: AtomicOp,
    idx: &[i64],
    mask: &[bool],
    regs: &mut RegFile,
    [d, v, cmp]: [Reg; 3],
) where
    M::S: AtomicLane,
{
    let bank = M::S::bank(regs);
    let vals = bank[v.0 as usize].clone();
    let cmps = bank[cmp.0 as usize].clone();
    let dst = &mut bank[d.0 as usize];
    for (l, (&i, &m)) in idx.iter().zip(mask).enumerate() {
        if m {
            let old = mem.get(i as usize);
            let new = op.apply(
                old.value(signed),
                vals[l].value(signed),
                cmps[l].value(signed),
            );
            mem.put(i as usize, M::S::from_value(new));
            dst[l] = old;
        }
    }
}
