//! Inline PTX's `bar.sync a, b` with operands in registers: what simt runs as `__syncthreads()`
//! (barrier 0 for every warp of the block), and what it refuses or a GPU would hang on.

use super::BlockRunner;
use crate::exec::error::RunError;
use crate::ir::Reg;

const PART_OF_BLOCK: &str = "simt runs `bar.sync 0` and `bar.sync 0, n` where n counts every thread of the block, rounded up to whole warps (`__syncthreads()`); barriers for part of a block, as warp-specialised kernels use, are not supported";

impl BlockRunner<'_> {
    /// Before the barrier at `pc + 1`: the active threads give one barrier number, 0, and one
    /// thread count (PTX ISA, "bar, barrier": 16 barriers, counts in whole warps, the same in
    /// every thread), which is the whole block's; a count waits for warps to arrive, so one
    /// whose every thread has exited hangs it (only a barrier without a count is released by
    /// exited threads).
    pub(super) fn barrier_check(
        &self,
        pc: usize,
        id: Reg,
        count: Option<Reg>,
    ) -> Result<(), RunError> {
        let Some(first) = self.mask.iter().position(|&m| m) else {
            return Ok(());
        };
        let fail = |lane: usize, what: String, help: &'static str| RunError::NamedBarrier {
            span: self.ir.spans[pc],
            block: self.block,
            thread: self.cfg.thread_of(lane),
            what,
            help,
        };
        let uniform = |reg: Reg, what: &str| -> Result<u32, RunError> {
            let values = &self.regs.w[reg.0 as usize];
            let v = values[first];
            match (first..values.len()).find(|&l| self.mask[l] && values[l] != v) {
                Some(l) => Err(fail(
                    l,
                    format!(
                        "given {what} {} here and {v} by thread {:?}",
                        values[l],
                        self.cfg.thread_of(first)
                    ),
                    "every thread at a barrier gives it the same number and thread count (PTX ISA, \"bar, barrier\")",
                )),
                None => Ok(v),
            }
        };
        let id = uniform(id, "barrier")?;
        if id > 15 {
            return Err(fail(
                first,
                format!("barrier {id}: a block has barriers 0 to 15"),
                "name a barrier from 0 to 15",
            ));
        }
        if id != 0 {
            return Err(fail(first, format!("barrier {id}"), PART_OF_BLOCK));
        }
        let Some(count) = count else {
            return Ok(());
        };
        let count = uniform(count, "thread count")?;
        let warps = self.cfg.threads_per_block().div_ceil(32);
        let all = warps * 32;
        if count == 0 || count % 32 != 0 {
            return Err(fail(
                first,
                format!("for {count} threads, not a multiple of 32"),
                "a barrier's thread count is in whole warps (PTX ISA, \"bar, barrier\")",
            ));
        }
        if u64::from(count) < all {
            return Err(fail(
                first,
                format!("for {count} of the block's {all} threads (in whole warps)"),
                PART_OF_BLOCK,
            ));
        }
        if u64::from(count) > all {
            return Err(fail(
                first,
                format!("waits for {count} threads, and the block's {warps} warps are {all}: a GPU hangs here"),
                "count the block's threads: `blockDim.x * blockDim.y * blockDim.z`, rounded up to whole warps",
            ));
        }
        // Threads elsewhere must arrive here; where they exit instead, nothing releases it.
        if let Some(l) = (0..self.mask.len()).find(|&l| !self.mask[l] && !self.returned[l]) {
            return Err(fail(
                l,
                format!("for {count} threads, reached by part of the block: this thread is elsewhere"),
                "a barrier with a thread count waits for that many threads, and threads that exit do not release it; simt runs it where every live thread of the block reaches it together",
            ));
        }
        match self.returned.chunks(32).position(|w| w.iter().all(|&r| r)) {
            Some(w) => Err(fail(
                first,
                format!("waits for {count} threads, and warp {w} of the block has exited: a GPU hangs here"),
                "exited threads release only a barrier without a thread count (`__syncthreads()`); give the count of the threads that arrive, or keep every warp until the barrier",
            )),
            None => Ok(()),
        }
    }
}
