//! Per-thread local arrays (interleaved per warp, as the hardware lays out local memory) and pointer rescaling.

use super::access::transfer;
use super::{BlockRunner, GlobalBuf};
use crate::check::typed::{choice_parts, CHOICE_SHIFT, NULL_OFFSET};
use crate::exec::coalesce;
use crate::exec::error::{in_declared, RunError};
use crate::exec::memory::{with_data, BufData, Plain};
use crate::ir::{Reg, Space};
use crate::value::Scalar;

impl BlockRunner<'_> {
    /// A load (`Err(d)`) or store (`Ok(v)`) of `width` components of local array `l` per lane.
    /// A local array the compiler keeps in registers moves no bytes; one in local memory counts
    /// the sectors of each warp's request, lane `k` of a warp at word `32 * i + k` of element `i`.
    pub(super) fn local(
        &mut self,
        pc: usize,
        l: u32,
        elem: Scalar,
        width: u32,
        (idx, idx_ty): (Reg, Scalar),
        regs: Result<&[Reg], &[Reg]>,
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        self.indices(idx, idx_ty);
        let array = &self.ir.locals[l as usize];
        let count = (array.len / u64::from(width)) as i64;
        let bad = self
            .idx
            .iter()
            .zip(&self.mask)
            .position(|(&i, &m)| m && !(0..count).contains(&i));
        if let Some(lane) = bad {
            let index = i128::from(self.idx[lane]);
            if self.idx[lane] < NULL_OFFSET / 2 {
                return Err(RunError::NullPointer {
                    array: array.name.clone(),
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(lane),
                });
            }
            let total = array.len * u64::from(array.elem.size());
            let view = (index, width * array.elem.size());
            let (index, len, note) = in_declared(view, total, &array.name, &array.declared);
            let mut help = format!(
                "`{}` is each thread's own array of {len} elements; check the index",
                array.name
            );
            if let Some(note) = note {
                help = format!("{help}; {note}");
            }
            return Err(RunError::OutOfBounds {
                space: "local",
                buffer: array.name.clone(),
                index,
                len,
                span: self.ir.spans[pc],
                block: self.block,
                thread: self.cfg.thread_of(lane),
                help,
            });
        }
        if !array.in_registers {
            self.account_local(pc, elem.size() * width, regs.is_ok());
        }
        let lanes = self.idx.len() as i64;
        for k in 0..width as usize {
            // Wrapping: an inactive lane's index register may hold any stale value (the active
            // lanes' are in bounds, checked above).
            for (lane, (o, &i)) in self.comp.iter_mut().zip(&self.idx).enumerate() {
                *o = i
                    .wrapping_mul(i64::from(width))
                    .wrapping_add(k as i64)
                    .wrapping_mul(lanes)
                    .wrapping_add(lane as i64);
            }
            let reg = match regs {
                Ok(v) => Ok(v[k]),
                Err(d) => Err(d[k]),
            };
            let (comp, mask, full) = (&self.comp, &self.mask, self.full);
            with_data!(&mut self.locals[l as usize], v => transfer(&mut Plain(&mut v[..]), (comp, None), (mask, full), &mut self.regs, reg));
            // Each slot remembers the block that last wrote it: a load of one this block's thread
            // has not written reads uninitialised memory.
            let written = &mut self.local_written[l as usize];
            for (lane, (&m, &slot)) in mask.iter().zip(comp).enumerate() {
                if !m {
                    continue;
                }
                let stamp = &mut written[slot as usize];
                if regs.is_ok() {
                    *stamp = self.block_epoch;
                } else if *stamp != self.block_epoch {
                    self.uninit_hits.push((slot / lanes, lane as u32));
                }
            }
        }
        if !self.uninit_hits.is_empty() {
            let local = &self.ir.locals[l as usize];
            let space = if local.variable { "variable" } else { "local" };
            let name = local.name.clone();
            self.note_findings(pc, (space, &name));
        }
        Ok(())
    }

    /// One local-memory request per warp with an active lane: the sectors of its lanes' words.
    fn account_local(&mut self, pc: usize, size: u32, is_store: bool) {
        let c = &mut self.counters[pc];
        for (ix, m) in self.idx.chunks(32).zip(self.mask.chunks(32)) {
            if !m.iter().any(|&x| x) {
                continue;
            }
            self.scratch.clear();
            // Inactive lanes' indices are stale values, not counted: wrapping keeps them harmless.
            let words: Vec<i64> = ix
                .iter()
                .enumerate()
                .map(|(k, &i)| i.wrapping_mul(32).wrapping_add(k as i64))
                .collect();
            let sectors = coalesce::warp_sectors(&words, m, size, false, &mut self.scratch);
            if is_store {
                c.local_st_instr += 1;
                c.local_st_sectors += sectors;
            } else {
                c.local_ld_instr += 1;
                c.local_ld_sectors += sectors;
            }
        }
    }

    /// `d = a * from / to` on the active lanes, `from` and `to` bytes per unit: a pointer cast to
    /// a wider element type traps where the offset is not a multiple of the new element.
    ///
    /// Through a parameter bound `o` components (`b = o * size` bytes) into its array, an offset
    /// of `w`-byte units counts from byte `b - b % w` (the engine shifts a `w`-byte access by
    /// `b / w`), so the cast adds `b % to - b % from`: its alignment is the real address's. A
    /// pointer into one of several arrays ([`Space::Choice`]) keeps its array's number and is
    /// rescaled as a pointer into that array.
    pub(super) fn rescale(
        &mut self,
        pc: usize,
        [d, a]: [Reg; 2],
        (from, to, size): (u32, u32, u32),
        space: Space,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        let (from, to) = (i64::from(from), i64::from(to));
        let bound = |space: Space| match space {
            Space::Global(p) => globals[p as usize].as_ref().map_or(0, |g| g.offset as i64),
            _ => 0,
        } * i64::from(size);
        let choice = matches!(space, Space::Choice { .. });
        let o = bound(space);
        for lane in 0..self.mask.len() {
            if !self.mask[lane] {
                continue;
            }
            let value = self.regs.d[a.0 as usize][lane] as i64;
            let (number, x, space, o) = if choice {
                let (k, x) = choice_parts(value);
                match usize::try_from(k).ok().and_then(|k| self.ir.choices.get(k)) {
                    Some(&s) => (k << CHOICE_SHIFT, x, s, bound(s)),
                    // Null, or far out of its array: the access through it says so.
                    None => {
                        self.regs.d[d.0 as usize][lane] = value as u64;
                        continue;
                    }
                }
            } else {
                (0, value, space, o)
            };
            let units = x.wrapping_mul(from).wrapping_add(o % to - o % from);
            if x >= NULL_OFFSET / 2 && units % to != 0 {
                // From the array's start, where a parameter bound at an offset points into.
                let at = i128::from(units) + i128::from(o - o % to);
                return Err(RunError::Misaligned {
                    buffer: self.space_name(space, globals),
                    offset: at,
                    align: to as u32,
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(lane),
                });
            }
            let out = if x < NULL_OFFSET / 2 {
                x
            } else {
                units / to + number
            };
            self.regs.d[d.0 as usize][lane] = out as u64;
        }
        Ok(())
    }
}
