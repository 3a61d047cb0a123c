//! Race detection: shared-memory hazards between warps within a barrier epoch, duplicate global stores.

use serde::Serialize;

/// The kind of hazard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RaceKind {
    /// A warp read a shared word another warp wrote in the same epoch.
    #[serde(rename = "RAW")]
    ReadAfterWrite,
    /// A warp overwrote a shared word another warp read in the same epoch.
    #[serde(rename = "WAR")]
    WriteAfterRead,
    /// Two warps wrote one shared word in the same epoch.
    #[serde(rename = "WAW")]
    WriteAfterWrite,
    /// Two lanes of one global store wrote the same address.
    #[serde(rename = "global-WAW")]
    GlobalDuplicate,
}

/// One described race.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Race {
    /// RAW, WAR, WAW or a duplicate global store.
    pub kind: RaceKind,
    /// The block.
    pub block: [u32; 3],
    /// Barrier epoch inside the block (0 before the first `__syncthreads()`).
    pub epoch: u32,
    /// The array or buffer.
    pub array: String,
    /// The element index.
    pub index: i64,
    /// The warp of this access.
    pub warp: u32,
    /// The warp of the earlier conflicting access.
    pub other_warp: u32,
    /// Instruction of this access.
    #[serde(skip)]
    pub inst: u32,
    /// Instruction of the earlier access.
    #[serde(skip)]
    pub other_inst: u32,
}

/// Bytes of history kept per shared-array element.
pub(crate) const HISTORY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// What one shared-array element saw: its last write, and its reads, in the epoch they happened.
/// One record per element, so that checking and recording an access touches one cache line.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    write_epoch: u64,
    read_epoch: u64,
    writer: u32,
    write_inst: u32,
    reader: u32,
    read_inst: u32,
    many_readers: bool,
    /// The first reader other than `reader` in the epoch (valid when `many_readers`): the warp a
    /// WAR names when the writer is `reader` itself.
    second: u32,
    second_inst: u32,
}

/// Per-element history of one shared array in the current block.
#[derive(Debug, Default)]
pub(crate) struct History(Vec<Entry>);

/// A hazard found on one lane: kind, the other warp and its instruction.
pub(crate) type Hazard = (RaceKind, u32, u32);

impl History {
    pub(crate) fn new(len: usize) -> History {
        History(vec![Entry::default(); len])
    }

    /// Whether `warp`'s access of element `e` in `epoch` conflicts with another warp's access in the
    /// epoch before: the barrier between the two epochs is what keeps them apart.
    #[inline]
    pub(crate) fn crosses(&self, e: usize, warp: u32, epoch: u64, is_store: bool) -> bool {
        let h = &self.0[e];
        let prev = epoch - 1;
        let written = h.write_epoch == prev && h.writer != warp;
        let read = is_store && h.read_epoch == prev && (h.many_readers || h.reader != warp);
        written || read
    }

    /// Records a read of element `e` by `warp`; returns a RAW hazard if another warp wrote it this epoch.
    #[inline]
    pub(crate) fn read(&mut self, e: usize, warp: u32, epoch: u64, inst: u32) -> Option<Hazard> {
        let h = &mut self.0[e];
        let hazard = (h.write_epoch == epoch && h.writer != warp).then_some((
            RaceKind::ReadAfterWrite,
            h.writer,
            h.write_inst,
        ));
        if h.read_epoch != epoch {
            h.read_epoch = epoch;
            h.reader = warp;
            h.many_readers = false;
            h.read_inst = inst;
        } else if h.reader != warp && !h.many_readers {
            h.many_readers = true;
            h.second = warp;
            h.second_inst = inst;
        }
        hazard
    }

    /// Records a write of element `e` by `warp`; returns a WAR or WAW hazard with another warp of this epoch.
    #[inline]
    pub(crate) fn write(&mut self, e: usize, warp: u32, epoch: u64, inst: u32) -> Option<Hazard> {
        let h = &mut self.0[e];
        let war = h.read_epoch == epoch && (h.many_readers || h.reader != warp);
        let waw = h.write_epoch == epoch && h.writer != warp;
        let hazard = if war {
            // Name a reader other than the writer (the writer may have read it first).
            let (other, other_inst) = if h.reader != warp {
                (h.reader, h.read_inst)
            } else {
                (h.second, h.second_inst)
            };
            Some((RaceKind::WriteAfterRead, other, other_inst))
        } else if waw {
            Some((RaceKind::WriteAfterWrite, h.writer, h.write_inst))
        } else {
            None
        };
        h.write_epoch = epoch;
        h.writer = warp;
        h.write_inst = inst;
        hazard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_war_names_a_reader_other_than_the_writer() {
        // Warp 0 reads element 0, then warp 1 reads it, then warp 0 writes it: the conflicting
        // reader is warp 1 (instruction 21), not the writer's own earlier read.
        let mut h = History::new(1);
        assert_eq!(h.read(0, 0, 1, 20), None);
        assert_eq!(h.read(0, 1, 1, 21), None);
        assert_eq!(
            h.write(0, 0, 1, 22),
            Some((RaceKind::WriteAfterRead, 1, 21))
        );
    }

    #[test]
    fn hazards_between_warps_only() {
        let mut h = History::new(4);
        assert_eq!(h.write(0, 0, 1, 10), None);
        // Same warp reads its own write: lock-step, no race.
        assert_eq!(h.read(0, 0, 1, 11), None);
        // Another warp reads it in the same epoch: RAW against warp 0's store.
        assert_eq!(h.read(0, 1, 1, 12), Some((RaceKind::ReadAfterWrite, 0, 10)));
        // After a barrier (epoch 2) the read is safe.
        assert_eq!(h.read(0, 1, 2, 12), None);
        // Warp 0 overwrites what warp 1 read in epoch 2: WAR.
        assert_eq!(
            h.write(0, 0, 2, 13),
            Some((RaceKind::WriteAfterRead, 1, 12))
        );
        // Two warps write element 1 in one epoch: WAW.
        assert_eq!(h.write(1, 0, 2, 14), None);
        assert_eq!(
            h.write(1, 3, 2, 14),
            Some((RaceKind::WriteAfterWrite, 0, 14))
        );
        // Warps 0 and 1 both read element 2, then warp 0 writes: still WAR (the reference misses this).
        assert_eq!(h.read(2, 1, 3, 20), None);
        assert_eq!(h.read(2, 0, 3, 20), None);
        assert_eq!(
            h.write(2, 0, 3, 21),
            Some((RaceKind::WriteAfterRead, 1, 20))
        );
    }

    #[test]
    fn crossing_a_barrier_needs_another_warp_in_the_epoch_before() {
        let mut h = History::new(2);
        assert_eq!(h.write(0, 0, 1, 10), None);
        // Epoch 2: warp 1 reads what warp 0 wrote in epoch 1 (RAW across the barrier).
        assert!(h.crosses(0, 1, 2, false));
        // Warp 0 reading its own write: the barrier is not needed for it.
        assert!(!h.crosses(0, 0, 2, false));
        // Two epochs later the write is no longer in the epoch just before.
        assert!(!h.crosses(0, 1, 3, false));
        // Warp 1 read element 1 in epoch 4; warp 0 overwrites it in epoch 5 (WAR across).
        assert_eq!(h.read(1, 1, 4, 11), None);
        assert!(h.crosses(1, 0, 5, true));
        // A read after another warp's read is no hazard.
        assert!(!h.crosses(1, 0, 5, false));
    }
}
