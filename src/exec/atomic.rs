//! Atomic read-modify-write on global or shared memory, applied lane by lane in lane order.

use super::memory::BufData;
use super::regs::RegFile;
use crate::ir::Reg;
use crate::value::{AtomicOp, Value};

/// Applies `op` for every active lane in lane order; each lane gets the old value in `d`.
/// `cmp` is `atomicCAS`'s compare register (any register of the operand's bank otherwise).
pub(crate) fn apply(
    data: &mut BufData,
    op: AtomicOp,
    idx: &[i64],
    mask: &[bool],
    regs: &mut RegFile,
    [d, v, cmp]: [Reg; 3],
) {
    macro_rules! rmw {
        ($vec:expr, $bank:ident, $tag:ident, $load:expr, $store:expr) => {{
            let vals = regs.$bank[v.0 as usize].clone();
            let cmps = regs.$bank[cmp.0 as usize].clone();
            let dst = &mut regs.$bank[d.0 as usize];
            for (l, (&i, &m)) in idx.iter().zip(mask).enumerate() {
                if m {
                    let old = $vec[i as usize];
                    let new = op.apply(
                        Value::$tag(old),
                        Value::$tag($load(vals[l])),
                        Value::$tag($load(cmps[l])),
                    );
                    if let Value::$tag(n) = new {
                        $vec[i as usize] = n;
                    }
                    dst[l] = $store(old);
                }
            }
        }};
    }
    match data {
        BufData::I32(vec) => rmw!(vec, w, I32, |x: u32| x as i32, |x: i32| x as u32),
        BufData::U32(vec) => rmw!(vec, w, U32, |x: u32| x, |x: u32| x),
        BufData::I64(vec) => rmw!(vec, d, I64, |x: u64| x as i64, |x: i64| x as u64),
        BufData::U64(vec) => rmw!(vec, d, U64, |x: u64| x, |x: u64| x),
        BufData::F32(vec) => rmw!(vec, f, F32, |x: f32| x, |x: f32| x),
        BufData::F64(vec) => rmw!(vec, g, F64, |x: f64| x, |x: f64| x),
        other => unreachable!("checker: no atomic on {}", other.elem()),
    }
}
