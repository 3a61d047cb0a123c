//! Accesses through a pointer that may point into one of several arrays ([`Space::Choice`]): the
//! active lanes grouped by the array their pointer names, one access per group, counted as the
//! one request each warp makes in each memory (global, shared) its lanes reach.

use super::BlockRunner;
use crate::check::typed::choice_parts;
use crate::exec::counters::InstCounters;
use crate::exec::error::RunError;
use crate::ir::{Reg, Space};

/// Buffers of [`BlockRunner::choose`], kept across accesses.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// The index register as the kernel left it (array number and index together).
    saved: Vec<u64>,
    /// Each lane's array number.
    array: Vec<u32>,
    /// The active lanes before the grouping.
    mask: Vec<bool>,
    /// The array numbers the active lanes name, in order of first lane.
    present: Vec<u32>,
    /// Per warp, for global memory and for shared memory: whether an earlier array's access
    /// there already counted its request.
    counted: Vec<[bool; 2]>,
}

impl BlockRunner<'_> {
    /// Runs `access` on the arrays the active lanes' pointers (in the `i64` register `idx`) name,
    /// with `idx` holding each lane's index within its array. Where lanes of one warp name
    /// different arrays, each array's lanes are one access, and the warp's request is counted
    /// once in each memory its lanes reach (a generic load of lanes in shared and in global
    /// memory is a request to each): its sectors (global arrays never share one) and wavefronts
    /// are those of the accesses together (lanes on two shared arrays count each array's
    /// wavefronts).
    pub(super) fn choose(
        &mut self,
        pc: usize,
        idx: Reg,
        mut access: impl FnMut(&mut Self, Space) -> Result<(), RunError>,
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        let mut s = std::mem::take(&mut self.choice);
        let reg = idx.0 as usize;
        s.saved.clear();
        s.saved.extend_from_slice(&self.regs.d[reg]);
        s.array.clear();
        s.array.resize(self.mask.len(), u32::MAX);
        s.present.clear();
        let arrays = self.ir.choices.len() as i64;
        for lane in 0..self.mask.len() {
            if !self.mask[lane] {
                continue;
            }
            let (k, index) = choice_parts(s.saved[lane] as i64);
            if !(0..arrays).contains(&k) {
                self.choice = s;
                let array = if arrays == 0 {
                    "no array"
                } else {
                    "one of its arrays"
                };
                return Err(RunError::NullPointer {
                    array: array.into(),
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(lane),
                });
            }
            self.regs.d[reg][lane] = index as u64;
            s.array[lane] = k as u32;
            if !s.present.contains(&(k as u32)) {
                s.present.push(k as u32);
            }
        }
        let result = if let [k] = s.present[..] {
            access(self, self.ir.choices[k as usize])
        } else {
            self.grouped(pc, &mut s, &mut access)
        };
        self.regs.d[reg].copy_from_slice(&s.saved);
        self.choice = s;
        result
    }

    /// [`Self::choose`] where the active lanes name several arrays: one access per array, on
    /// its lanes; a warp already counted by an earlier array's access is not counted again.
    fn grouped(
        &mut self,
        pc: usize,
        s: &mut Scratch,
        access: &mut impl FnMut(&mut Self, Space) -> Result<(), RunError>,
    ) -> Result<(), RunError> {
        s.mask.clear();
        s.mask.extend_from_slice(&self.mask);
        // `--map` draws one array's lanes: an execution whose warps are split between arrays is
        // neither drawn nor counted among those `--map-iteration` picks from.
        let (drawn, seen) = (self.first_access[pc].is_some(), self.probe_seen[pc]);
        let warps = self.mask.len().div_ceil(32);
        s.counted.clear();
        s.counted.resize(warps, [false; 2]);
        let mut result = Ok(());
        for &k in &s.present {
            for (m, (&was, &a)) in self.mask.iter_mut().zip(s.mask.iter().zip(&s.array)) {
                *m = was && a == k;
            }
            self.update_mask();
            let before = requests(&self.counters[pc]);
            let space = self.ir.choices[k as usize];
            let kind = usize::from(matches!(space, Space::Shared(_)));
            result = access(self, space);
            if result.is_err() {
                break;
            }
            let again = (0..warps)
                .filter(|&w| {
                    let here = self.mask[32 * w..(32 * w + 32).min(self.mask.len())]
                        .iter()
                        .any(|&m| m);
                    let again = here && s.counted[w][kind];
                    s.counted[w][kind] |= here;
                    again
                })
                .count() as u64;
            let after = requests(&self.counters[pc]);
            if let Some(field) = (0..after.len()).find(|&f| after[f] > before[f]) {
                *request_field(&mut self.counters[pc], field) -= again;
            }
        }
        self.mask.copy_from_slice(&s.mask);
        self.update_mask();
        if !drawn {
            self.first_access[pc] = None;
        }
        self.probe_seen[pc] = seen;
        result
    }
}

/// The request counts of an instruction: one of them grows with each warp's access.
fn requests(c: &InstCounters) -> [u64; 5] {
    [
        c.gld_instr,
        c.gst_instr,
        c.gatom_instr,
        c.smem_ld_instr,
        c.smem_st_instr,
    ]
}

/// The request count number `field` of [`requests`].
fn request_field(c: &mut InstCounters, field: usize) -> &mut u64 {
    match field {
        0 => &mut c.gld_instr,
        1 => &mut c.gst_instr,
        2 => &mut c.gatom_instr,
        3 => &mut c.smem_ld_instr,
        _ => &mut c.smem_st_instr,
    }
}
