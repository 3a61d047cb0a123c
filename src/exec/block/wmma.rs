//! WMMA's warp-collective calls: the whole-warp precondition and `mma_sync` on the warp's registers.

use super::BlockRunner;
use crate::exec::error::RunError;
use crate::exec::regs::RegFile;
use crate::ir::Reg;
use crate::value::Scalar;
use crate::wmma::Operand;

impl BlockRunner<'_> {
    /// Each warp with an active lane must be whole and wholly active: the first warp that is not
    /// is the error.
    fn whole_warps(&self, pc: usize, call: &'static str) -> Result<(), RunError> {
        for (w, lanes) in self.mask.chunks(32).enumerate() {
            let Some(first) = lanes.iter().position(|&m| m) else {
                continue;
            };
            if lanes.len() < 32 {
                return Err(RunError::CollectivePartialWarp {
                    call,
                    span: self.ir.spans[pc],
                    block: self.block,
                    lanes: lanes.len(),
                });
            }
            if let Some(missing) = lanes.iter().position(|&m| !m) {
                return Err(RunError::CollectiveDivergent {
                    call,
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(w * 32 + first),
                    missing: self.cfg.thread_of(w * 32 + missing),
                });
            }
        }
        Ok(())
    }

    /// [`crate::ir::Inst::Collective`]: whole warps, and with a tile, one pointer and one `ldm`
    /// per warp, the pointer 32-byte aligned and `ldm` a multiple of 16 bytes.
    pub(super) fn collective(
        &self,
        pc: usize,
        call: &'static str,
        tile: Option<(Reg, Reg)>,
        bytes: u32,
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        self.whole_warps(pc, call)?;
        let Some((ptr, ldm)) = tile else {
            return Ok(());
        };
        let (ptrs, ldms) = (&self.regs.d[ptr.0 as usize], &self.regs.d[ldm.0 as usize]);
        for (w, lanes) in self.mask.chunks(32).enumerate() {
            if !lanes[0] {
                continue;
            }
            let base = w * 32;
            for (what, values) in [("pointers", ptrs), ("ldm", ldms)] {
                if let Some(k) = (base..base + 32).find(|&l| values[l] != values[base]) {
                    return Err(RunError::CollectiveNotUniform {
                        call,
                        what,
                        span: self.ir.spans[pc],
                        block: self.block,
                        thread: self.cfg.thread_of(base),
                        other: self.cfg.thread_of(k),
                    });
                }
            }
            let ldm = ldms[base] as i64;
            let stride = i128::from(ldm) * i128::from(bytes);
            if stride % 16 != 0 {
                return Err(RunError::WmmaLdm {
                    call,
                    ldm,
                    bytes: stride,
                    span: self.ir.spans[pc],
                    block: self.block,
                });
            }
            let offset = (ptrs[base] as i64)
                .wrapping_mul(i64::from(bytes))
                .rem_euclid(32);
            if offset != 0 {
                return Err(RunError::WmmaMisaligned {
                    call,
                    offset,
                    span: self.ir.spans[pc],
                    block: self.block,
                });
            }
        }
        Ok(())
    }

    /// [`crate::ir::Inst::Mma`]: `D = A * B + C` for each warp with an active lane.
    pub(super) fn mma(&mut self, pc: usize, id: u32) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        let m = &self.ir.mmas[id as usize];
        let op = m.op;
        self.whole_warps(pc, if op.ptx { "mma.sync" } else { "wmma::mma_sync" })?;
        let m = &self.ir.mmas[id as usize];
        let mut warps = 0;
        for w in 0..self.mask.len().div_ceil(32) {
            if !self.mask[w * 32] {
                continue;
            }
            warps += 1;
            let file = &self.regs;
            // The warp's elements of an operand as its tile, in storage order.
            let gather = |regs: &[Reg], which: Operand, ty: Scalar| -> Vec<f64> {
                let mut tile = vec![0.0; regs.len() * 32];
                for l in 0..32 {
                    for (i, &r) in (0..).zip(regs) {
                        tile[op.element(which, l, i)] = read(file, r, ty, w * 32 + l as usize);
                    }
                }
                tile
            };
            let a = gather(&m.a, Operand::A, op.input);
            let b = gather(&m.b, Operand::B, op.input);
            let c = gather(&m.c, Operand::C, op.c);
            let d = op.multiply(&a, &b, &c);
            for l in 0..32 {
                for (i, &r) in (0..).zip(&m.d) {
                    let v = d[op.element(Operand::D, l, i)];
                    write(&mut self.regs, r, op.d, w * 32 + l as usize, v);
                }
            }
        }
        self.counters[pc].tensor_instr += warps;
        Ok(())
    }
}

/// Lane `l` of register `r`, holding a `ty`, as an exact `f64`.
fn read(regs: &RegFile, r: Reg, ty: Scalar, l: usize) -> f64 {
    let r = r.0 as usize;
    match ty {
        Scalar::F64 => regs.g[r][l],
        Scalar::F32 | Scalar::F16 | Scalar::BF16 => f64::from(regs.f[r][l]),
        Scalar::U8 | Scalar::U32 => f64::from(regs.w[r][l]),
        _ => f64::from(regs.w[r][l] as i32),
    }
}

/// Sets lane `l` of register `r`, holding a `ty`, to `v` (already of that type).
fn write(regs: &mut RegFile, r: Reg, ty: Scalar, l: usize, v: f64) {
    let r = r.0 as usize;
    match ty {
        Scalar::F64 => regs.g[r][l] = v,
        Scalar::F32 | Scalar::F16 | Scalar::BF16 => regs.f[r][l] = v as f32,
        _ => regs.w[r][l] = v as i32 as u32,
    }
}
