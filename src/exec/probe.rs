//! What the insight views need beyond counters: one warp's lanes of each memory instruction (the
//! first warp that ran it, or the block, warp and iteration `--map` picks).

use super::{banks, coalesce};
use crate::ir::Space;

/// Which warp's lanes to keep for each memory instruction (`simt run --map LINE --map-block B
/// --map-warp W --map-iteration N`); the default keeps the first warp that ran it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// Only this block; `None`: the first block in grid order that ran the instruction.
    pub block: Option<[u32; 3]>,
    /// Only this warp of the block; `None`: the first warp with an active lane.
    pub warp: Option<u32>,
    /// Which execution of the instruction, from 0 (a loop's iterations): the warp's, or with no
    /// warp given, the block's (those in which some warp ran it).
    pub iteration: u32,
}

impl Probe {
    /// The access `idx`/`mask` of block `block` (linear id `block_id`) if it is the one to keep.
    /// `seen` is the instruction's (block id, executions counted) so far: executions are counted
    /// per block, so the choice does not depend on how blocks are spread over workers.
    pub(crate) fn capture(
        &self,
        seen: &mut (u64, u32),
        (block, block_id): ([u32; 3], u64),
        (space, elem_bytes): (Space, u32),
        idx: &[i64],
        mask: &[bool],
    ) -> Option<WarpAccess> {
        if self.block.is_some_and(|b| b != block) {
            return None;
        }
        let active = |m: &[bool]| m.iter().any(|&x| x);
        let (warp, (ix, m)) = idx
            .chunks(32)
            .zip(mask.chunks(32))
            .enumerate()
            .filter(|&(w, _)| self.warp.is_none_or(|want| w as u32 == want))
            .find(|(_, (_, m))| active(m))?;
        if seen.0 != block_id {
            *seen = (block_id, 0);
        }
        seen.1 += 1;
        (seen.1 > self.iteration).then(|| WarpAccess {
            block,
            warp: warp as u32,
            iteration: self.iteration,
            space,
            elem_bytes,
            lanes: ix.iter().zip(m).map(|(&i, &on)| on.then_some(i)).collect(),
        })
    }
}

/// The lanes of one warp that executed one memory instruction: the first warp in the first block
/// that ran it, or the one [`Probe`] picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpAccess {
    /// The block.
    pub block: [u32; 3],
    /// The warp inside the block.
    pub warp: u32,
    /// Global buffer or shared array.
    pub space: Space,
    /// Bytes per element.
    pub elem_bytes: u32,
    /// Which execution of the instruction this was, from 0: the warp's, when [`Probe::warp`]
    /// picks it, else the block's.
    pub iteration: u32,
    /// The element index of each lane of the warp, `None` where the lane was inactive.
    pub lanes: Vec<Option<i64>>,
}

impl WarpAccess {
    /// What this warp's access cost: sectors (global) or wavefronts (shared), by the counters' rules.
    pub fn cost(&self) -> u64 {
        let idx: Vec<i64> = self.lanes.iter().map(|l| l.unwrap_or(0)).collect();
        let mask: Vec<bool> = self.lanes.iter().map(Option::is_some).collect();
        let mut scratch = Vec::new();
        match self.space {
            Space::Global(_) | Space::Choice { shared: false } => {
                coalesce::warp_sectors(&idx, &mask, self.elem_bytes, false, &mut scratch)
            }
            Space::Shared(_) | Space::Choice { shared: true } => {
                banks::warp_wavefronts(&idx, &mask, self.elem_bytes, &mut scratch).0
            }
            // Lane `k` of the warp reads word `32 * i + k` of the interleaved local memory.
            Space::Local(_) => {
                let words: Vec<i64> = idx
                    .iter()
                    .enumerate()
                    .map(|(k, &i)| i.wrapping_mul(32).wrapping_add(k as i64))
                    .collect();
                coalesce::warp_sectors(&words, &mask, self.elem_bytes, false, &mut scratch)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `probe` over executions of one instruction: (block, lanes' indices, mask) each.
    fn probe(p: Probe, runs: &[([u32; 3], &[i64], &[bool])]) -> Option<WarpAccess> {
        let mut seen = (u64::MAX, 0);
        runs.iter().find_map(|&(block, idx, mask)| {
            p.capture(
                &mut seen,
                (block, u64::from(block[0])),
                (Space::Shared(0), 4),
                idx,
                mask,
            )
        })
    }

    #[test]
    fn captures_the_first_warp_with_an_active_lane() {
        // 64 lanes; warp 0 is idle, warp 1 has lanes 32 and 33 active.
        let idx: Vec<i64> = (0..64).collect();
        let mut mask = vec![false; 64];
        mask[32] = true;
        mask[33] = true;
        let a = probe(Probe::default(), &[([1, 0, 0], &idx, &mask)]).expect("warp 1");
        assert_eq!(a.warp, 1);
        assert_eq!(a.lanes.len(), 32);
        assert_eq!(&a.lanes[..3], &[Some(32), Some(33), None]);
        // Words 32 and 33 are in banks 0 and 1: one wavefront.
        assert_eq!(a.cost(), 1);
        assert_eq!(
            probe(Probe::default(), &[([0; 3], &idx, &[false; 64])]),
            None
        );
    }

    #[test]
    fn picks_the_block_warp_and_iteration_asked_for() {
        // A loop runs the instruction three times in block 0 and three in block 1; iteration k
        // reads element 100 * k + lane (+ 1000 in block 1). Warp 1's lanes are active only in the
        // last iteration.
        let idx = |block: i64, k: i64| -> Vec<i64> {
            (0..64).map(|l| 1000 * block + 100 * k + l).collect()
        };
        let warp0 = [vec![true; 32], vec![false; 32]].concat();
        let all = vec![true; 64];
        let runs: Vec<([u32; 3], Vec<i64>, &[bool])> = vec![
            ([0, 0, 0], idx(0, 0), &warp0),
            ([0, 0, 0], idx(0, 1), &warp0),
            ([0, 0, 0], idx(0, 2), &all),
            ([1, 0, 0], idx(1, 0), &warp0),
            ([1, 0, 0], idx(1, 1), &warp0),
            ([1, 0, 0], idx(1, 2), &all),
        ];
        let runs: Vec<([u32; 3], &[i64], &[bool])> =
            runs.iter().map(|(b, i, m)| (*b, &i[..], *m)).collect();
        let first = |a: Option<WarpAccess>| a.map(|a| (a.block, a.warp, a.lanes[0]));
        // The default: block 0's first execution, warp 0, element 0.
        assert_eq!(
            first(probe(Probe::default(), &runs)),
            Some(([0, 0, 0], 0, Some(0)))
        );
        // Iteration 2 of block 0: element 200.
        let third = Probe {
            iteration: 2,
            ..Probe::default()
        };
        assert_eq!(first(probe(third, &runs)), Some(([0, 0, 0], 0, Some(200))));
        // Warp 1 runs the instruction once per block, in its third iteration: its first
        // execution is element 200 + 32.
        let warp1 = Probe {
            warp: Some(1),
            ..Probe::default()
        };
        assert_eq!(first(probe(warp1, &runs)), Some(([0, 0, 0], 1, Some(232))));
        // Warp 1 never runs it twice in one block: a second iteration is not counted across
        // blocks.
        assert_eq!(
            first(probe(
                Probe {
                    iteration: 1,
                    ..warp1
                },
                &runs
            )),
            None
        );
        // Block 1, iteration 1: element 1000 + 100.
        let block1 = Probe {
            block: Some([1, 0, 0]),
            warp: None,
            iteration: 1,
        };
        assert_eq!(
            first(probe(block1, &runs)),
            Some(([1, 0, 0], 0, Some(1100)))
        );
    }
}
