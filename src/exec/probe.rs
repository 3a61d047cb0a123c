//! What the insight views need beyond counters: the first warp's lanes of each memory instruction.

use super::{banks, coalesce};
use crate::ir::Space;

/// The lanes of the first warp that executed one memory instruction (in the first block that ran it).
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
            Space::Global(_) => {
                coalesce::warp_sectors(&idx, &mask, self.elem_bytes, false, &mut scratch)
            }
            Space::Shared(_) => {
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

    /// Captures the first warp with an active lane, if any.
    pub(crate) fn capture(
        block: [u32; 3],
        space: Space,
        elem_bytes: u32,
        idx: &[i64],
        mask: &[bool],
    ) -> Option<WarpAccess> {
        let (warp, (ix, m)) = idx
            .chunks(32)
            .zip(mask.chunks(32))
            .enumerate()
            .find(|(_, (_, m))| m.iter().any(|&x| x))?;
        Some(WarpAccess {
            block,
            warp: warp as u32,
            space,
            elem_bytes,
            lanes: ix.iter().zip(m).map(|(&i, &on)| on.then_some(i)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_the_first_warp_with_an_active_lane() {
        // 64 lanes; warp 0 is idle, warp 1 has lanes 32 and 33 active.
        let idx: Vec<i64> = (0..64).collect();
        let mut mask = vec![false; 64];
        mask[32] = true;
        mask[33] = true;
        let a = WarpAccess::capture([1, 0, 0], Space::Shared(0), 4, &idx, &mask).expect("warp 1");
        assert_eq!(a.warp, 1);
        assert_eq!(a.lanes.len(), 32);
        assert_eq!(&a.lanes[..3], &[Some(32), Some(33), None]);
        // Words 32 and 33 are in banks 0 and 1: one wavefront.
        assert_eq!(a.cost(), 1);
        assert_eq!(
            WarpAccess::capture([0; 3], Space::Global(0), 4, &idx, &[false; 64]),
            None
        );
    }
}
