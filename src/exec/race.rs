//! The sanitizer's records: shared-memory hazards between warps within a barrier epoch (atomics
//! included), duplicate global stores, reads of uninitialised memory, and their grouping.

use serde::Serialize;

/// The kind of hazard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    /// Two lanes of one warp added to one element (global or shared) in one compound
    /// assignment (`c[0] += 1`): both read the old value before either stored, so one of the
    /// updates is lost.
    #[serde(rename = "lost-update")]
    LostUpdate,
    /// Two blocks of a cooperative launch touched one global element between the same grid
    /// barriers, at least one writing (an atomic conflicts with plain accesses only).
    #[serde(rename = "cross-block")]
    CrossBlock,
    /// A thread touched bytes an asynchronous copy still has in flight (its destination, or its
    /// source by writing), before the wait that completes the copy.
    #[serde(rename = "async")]
    AsyncCopy,
}

/// One described race.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Race {
    /// RAW, WAR, WAW or a duplicate global store.
    pub kind: RaceKind,
    /// The block.
    pub block: [u32; 3],
    /// Barrier epoch inside the block (0 before the first `__syncthreads()`); for a race
    /// between blocks, the grid barriers before it.
    pub epoch: u32,
    /// The array or buffer.
    pub array: String,
    /// The element index.
    pub index: i64,
    /// The warp of this access.
    pub warp: u32,
    /// The warp of the earlier conflicting access.
    pub other_warp: u32,
    /// For a race between blocks, the block of the earlier access (in block order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_block: Option<[u32; 3]>,
    /// Instruction of this access.
    #[serde(skip)]
    pub inst: u32,
    /// Instruction of the earlier access.
    #[serde(skip)]
    pub other_inst: u32,
}

/// A read of memory no thread had written: a shared or local array before this block (or this
/// thread) wrote the word, or a launch array made with `empty(n)` before any thread wrote it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Uninit {
    /// The block.
    pub block: [u32; 3],
    /// The thread that read it.
    pub thread: [u32; 3],
    /// `shared`, `local`, `variable` (a scalar local declared without a value) or `global`.
    pub space: &'static str,
    /// The array or buffer.
    pub array: String,
    /// The element index.
    pub index: i64,
    /// Instruction of the read.
    #[serde(skip)]
    pub inst: u32,
}

/// Every report of one kind at one place (for a race: the pair of source sites), however many
/// blocks, warps and words it hit; the first instance in block order is described in full.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Group<T> {
    /// The first instance.
    #[serde(flatten)]
    pub first: T,
    /// Blocks in which it happened.
    pub blocks: u64,
    /// Warp instructions in which it happened.
    pub warps: u64,
    /// Words (elements) it touched, counted once per warp instruction.
    pub words: u64,
    /// The linear id of the last block counted in `blocks`.
    #[serde(skip)]
    last_block: u64,
    /// The access (a runner's count of memory instructions) and warp last counted in `warps`.
    #[serde(skip)]
    last_warp: (u64, u32),
}

impl<T> Group<T> {
    /// An empty group in block `block` (linear id); [`Group::hit`] counts its first word.
    pub(crate) fn new(first: T, block: u64) -> Group<T> {
        Group {
            first,
            blocks: 1,
            warps: 0,
            words: 0,
            last_block: block,
            last_warp: (u64::MAX, 0),
        }
    }

    /// Counts one word of warp `warp` in memory instruction `access` of block `block` (blocks
    /// come in increasing order, accesses too).
    pub(crate) fn hit(&mut self, block: u64, access: u64, warp: u32) {
        if block != self.last_block {
            self.blocks += 1;
            self.last_block = block;
        }
        if self.last_warp != (access, warp) {
            self.warps += 1;
            self.last_warp = (access, warp);
        }
        self.words += 1;
    }

    /// Adds the counts of the same group from a later range of blocks.
    pub(crate) fn absorb(&mut self, later: &Group<T>) {
        self.blocks += later.blocks;
        self.warps += later.warps;
        self.words += later.words;
    }
}

/// Adds `later`'s groups (from blocks after `groups`') to `groups`, matching them with `same`.
pub(crate) fn merge<T>(
    groups: &mut Vec<Group<T>>,
    later: Vec<Group<T>>,
    same: impl Fn(&T, &T) -> bool,
) {
    for g in later {
        match groups.iter_mut().find(|h| same(&h.first, &g.first)) {
            Some(h) => h.absorb(&g),
            None => groups.push(g),
        }
    }
}

/// Bytes of history kept per shared-array element.
pub(crate) const HISTORY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// How a warp touches a shared word (or, between blocks, a global element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Read,
    Write,
    /// A read-modify-write: conflicts with plain reads and writes of other warps, never with
    /// another atomic.
    Atomic,
    /// A read an `atomicCAS` of the same element validates (the compare-and-swap loop's first
    /// read, [`crate::ir::KernelIr::relaxed`]): conflicts with plain writes of other warps only.
    Relaxed,
}

/// The warps that did one kind of access to a word in one epoch: the first, and the first other
/// one (so that a conflict can always name a warp other than the one asking). 24 bytes: the
/// history is read on every shared access.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    epoch: u64,
    warp: u32,
    inst: u32,
    /// The first other warp, [`NONE`] while there is none.
    second: u32,
    second_inst: u32,
}

/// No warp (a block has at most 32 warps).
const NONE: u32 = u32::MAX;

impl Seen {
    fn note(&mut self, warp: u32, epoch: u64, inst: u32) {
        // A fill (`History::fill`) of this epoch gives way to the first real access.
        if self.epoch != epoch || self.warp == NONE {
            *self = Seen {
                epoch,
                warp,
                inst,
                second: NONE,
                second_inst: 0,
            };
        } else if self.warp != warp && self.second == NONE {
            self.second = warp;
            self.second_inst = inst;
        }
    }

    /// A warp other than `warp` that did this in `epoch`, with its instruction.
    fn other(&self, warp: u32, epoch: u64) -> Option<(u32, u32)> {
        if self.epoch != epoch || self.warp == NONE {
            None
        } else if self.warp != warp {
            Some((self.warp, self.inst))
        } else if self.second != NONE {
            Some((self.second, self.second_inst))
        } else {
            None
        }
    }
}

/// What one shared-array element saw: its plain writes, plain reads and atomics, each in the
/// epoch they happened, and the bits the last plain write stored. One record per element, so
/// that checking and recording an access touches one cache line.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    write: Seen,
    read: Seen,
    atomic: Seen,
    /// The bits of the last plain write, where its warp's lanes all stored the same (which lane
    /// of several wins is not defined): a write of the same bits after another warp's leaves
    /// the element as either order would, so it is no WAW (as two lanes of one store).
    stored: Option<u64>,
    /// The warps that wrote the element plainly in `write`'s epoch, a bit each.
    writers: u32,
}

/// Per-element history of one shared array in the current block.
#[derive(Clone, Debug, Default)]
pub(crate) struct History(Vec<Entry>);

/// A hazard found on one lane: kind, the other warp and its instruction.
pub(crate) type Hazard = (RaceKind, u32, u32);

/// A hazard of one memory instruction: what, on which element, on which lane.
pub(crate) type RaceHit = (Hazard, i64, u32);

/// An uninitialised read of one memory instruction: element and lane.
pub(crate) type UninitHit = (i64, u32);

impl History {
    pub(crate) fn new(len: usize) -> History {
        History(vec![Entry::default(); len])
    }

    /// Whether `warp`'s access of element `e` in `epoch` conflicts with another warp's access in the
    /// epoch before: the barrier between the two epochs is what keeps them apart.
    #[inline]
    pub(crate) fn crosses(&self, e: usize, warp: u32, epoch: u64, op: Op) -> bool {
        let h = &self.0[e];
        let prev = epoch - 1;
        let written = h.write.other(warp, prev).is_some();
        let read = !matches!(op, Op::Read | Op::Relaxed) && h.read.other(warp, prev).is_some();
        let atomic =
            !matches!(op, Op::Atomic | Op::Relaxed) && h.atomic.other(warp, prev).is_some();
        written || read || atomic
    }

    /// Whether element `e` was written (plainly or by an atomic) since `since`, the epoch the
    /// block began in: reading it otherwise reads uninitialised memory.
    #[inline]
    pub(crate) fn initialised(&self, e: usize, since: u64) -> bool {
        let h = &self.0[e];
        h.write.epoch >= since || h.atomic.epoch >= since
    }

    /// Element `e` written in `epoch` by an asynchronous copy that a block pipeline's wait
    /// made visible to the threads that wait: initialised, and in conflict with no warp.
    #[inline]
    pub(crate) fn fill(&mut self, e: usize, epoch: u64) {
        let w = &mut self.0[e].write;
        if w.epoch != epoch {
            *w = Seen {
                epoch,
                warp: NONE,
                inst: 0,
                second: NONE,
                second_inst: 0,
            };
        }
    }

    /// Records `warp`'s access of element `e` (a write stores `bits`, `None` where the warp's
    /// lanes store several values); returns the hazard with another warp of this epoch, named
    /// after this (the later) access: a read conflicts with a write or an atomic (RAW); a write
    /// with a read (WAR), a write of other bits than the last or an atomic (WAW); an atomic
    /// with a read (WAR) or a write (WAW).
    #[inline]
    pub(crate) fn access(
        &mut self,
        e: usize,
        (warp, epoch, inst): (u32, u64, u32),
        op: Op,
        bits: Option<u64>,
    ) -> Option<Hazard> {
        let h = &mut self.0[e];
        let with = |kind: RaceKind, s: &Seen| s.other(warp, epoch).map(|(w, i)| (kind, w, i));
        // A warp reading back a word it wrote, which the other warps wrote with the same bits
        // (a differing write was a WAW), reads those bits in any order (Kernel Tuner's
        // `ExpDist`: every warp stores one row, then reads its own lane's element).
        let wrote = |h: &Entry| h.write.epoch == epoch && h.writers & (1 << warp) != 0;
        let hazard = match op {
            Op::Read => with(RaceKind::ReadAfterWrite, &h.write)
                .filter(|_| !(wrote(h) && h.stored.is_some()))
                .or_else(|| with(RaceKind::ReadAfterWrite, &h.atomic)),
            Op::Write => with(RaceKind::WriteAfterRead, &h.read)
                .or_else(|| {
                    let same = bits.is_some() && h.stored == bits;
                    with(RaceKind::WriteAfterWrite, &h.write).filter(|_| !same)
                })
                .or_else(|| with(RaceKind::WriteAfterWrite, &h.atomic)),
            Op::Atomic => with(RaceKind::WriteAfterRead, &h.read)
                .or_else(|| with(RaceKind::WriteAfterWrite, &h.write)),
            Op::Relaxed => with(RaceKind::ReadAfterWrite, &h.write),
        };
        match op {
            Op::Read => h.read.note(warp, epoch, inst),
            Op::Write => {
                if h.write.epoch != epoch || h.write.warp == NONE {
                    h.writers = 0;
                }
                h.write.note(warp, epoch, inst);
                h.writers |= 1 << warp;
                h.stored = bits;
            }
            Op::Atomic => h.atomic.note(warp, epoch, inst),
            // Not kept: an atomic after it is no conflict, and only atomics touch a CAS loop's
            // word between its reads.
            Op::Relaxed => {}
        }
        hazard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fill_initialises_and_conflicts_with_no_warp() {
        // A block pipeline's copy fills element 0 in epoch 2: initialised for a block that
        // began in epoch 1, and warp 3's read finds no hazard.
        let mut h = History::new(1);
        h.fill(0, 2);
        assert!(h.initialised(0, 1));
        assert_eq!(h.access(0, (3, 2, 10), Op::Read, None), None);
        // A real write of warp 1 in the same epoch conflicts with that read as usual.
        assert_eq!(
            h.access(0, (1, 2, 11), Op::Write, Some(11)),
            Some((RaceKind::WriteAfterRead, 3, 10))
        );
    }

    #[test]
    fn a_warp_reading_back_its_own_write_of_agreed_bits_is_no_raw() {
        // Warps 0, 1 and 2 store 7 to element 0 in epoch 1. Warp 2 reads it back: every write
        // stored 7, its own included, so it reads 7 in any order. Warp 3, which wrote nothing,
        // may read the value from before the epoch: RAW.
        let mut h = History::new(1);
        for w in 0..3 {
            assert_eq!(h.access(0, (w, 1, 10), Op::Write, Some(7)), None);
        }
        assert_eq!(h.access(0, (2, 1, 11), Op::Read, None), None);
        assert_eq!(
            h.access(0, (3, 1, 11), Op::Read, None),
            Some((RaceKind::ReadAfterWrite, 0, 10))
        );
        // In epoch 2 warp 0 writes 7 and warp 1 writes 8: a WAW. Epoch 1's writers are
        // forgotten: warp 2 wrote nothing in epoch 2, so its read is a RAW.
        assert_eq!(h.access(0, (0, 2, 10), Op::Write, Some(7)), None);
        assert_eq!(
            h.access(0, (1, 2, 10), Op::Write, Some(8)),
            Some((RaceKind::WriteAfterWrite, 0, 10))
        );
        assert_eq!(
            h.access(0, (2, 2, 11), Op::Read, None),
            Some((RaceKind::ReadAfterWrite, 0, 10))
        );
    }

    #[test]
    fn a_war_names_a_reader_other_than_the_writer() {
        // Warp 0 reads element 0, then warp 1 reads it, then warp 0 writes it: the conflicting
        // reader is warp 1 (instruction 21), not the writer's own earlier read.
        let mut h = History::new(1);
        assert_eq!(h.access(0, (0, 1, 20), Op::Read, None), None);
        assert_eq!(h.access(0, (1, 1, 21), Op::Read, None), None);
        assert_eq!(
            h.access(0, (0, 1, 22), Op::Write, Some(22)),
            Some((RaceKind::WriteAfterRead, 1, 21))
        );
    }

    #[test]
    fn hazards_between_warps_only() {
        let mut h = History::new(4);
        assert_eq!(h.access(0, (0, 1, 10), Op::Write, Some(10)), None);
        // Same warp reads its own write: lock-step, no race.
        assert_eq!(h.access(0, (0, 1, 11), Op::Read, None), None);
        // Another warp reads it in the same epoch: RAW against warp 0's store.
        assert_eq!(
            h.access(0, (1, 1, 12), Op::Read, None),
            Some((RaceKind::ReadAfterWrite, 0, 10))
        );
        // After a barrier (epoch 2) the read is safe.
        assert_eq!(h.access(0, (1, 2, 12), Op::Read, None), None);
        // Warp 0 overwrites what warp 1 read in epoch 2: WAR.
        assert_eq!(
            h.access(0, (0, 2, 13), Op::Write, Some(13)),
            Some((RaceKind::WriteAfterRead, 1, 12))
        );
        // Two warps write element 1 in one epoch: WAW.
        assert_eq!(h.access(1, (0, 2, 14), Op::Write, Some(14)), None);
        assert_eq!(
            h.access(1, (3, 2, 14), Op::Write, Some(99)),
            Some((RaceKind::WriteAfterWrite, 0, 14))
        );
        // Warps 0 and 1 both read element 2, then warp 0 writes: still WAR (the reference misses this).
        assert_eq!(h.access(2, (1, 3, 20), Op::Read, None), None);
        assert_eq!(h.access(2, (0, 3, 20), Op::Read, None), None);
        assert_eq!(
            h.access(2, (0, 3, 21), Op::Write, Some(21)),
            Some((RaceKind::WriteAfterRead, 1, 20))
        );
    }

    #[test]
    fn a_write_of_the_bits_stored_last_is_no_waw() {
        let mut h = History::new(2);
        // Warps 0 and 1 store 5 (`flag = true` in every warp): either order leaves 5.
        assert_eq!(h.access(0, (0, 1, 10), Op::Write, Some(5)), None);
        assert_eq!(h.access(0, (1, 1, 10), Op::Write, Some(5)), None);
        // Warp 2 stores 7: the element's value depends on the order, a WAW against warp 0.
        assert_eq!(
            h.access(0, (2, 1, 11), Op::Write, Some(7)),
            Some((RaceKind::WriteAfterWrite, 0, 10))
        );
        // Warp 3 stores 5 after the 7: its order with warp 2's still decides the value.
        assert_eq!(
            h.access(0, (3, 1, 12), Op::Write, Some(5)),
            Some((RaceKind::WriteAfterWrite, 0, 10))
        );
        // A read by another warp is a RAW whatever the bits.
        assert_eq!(
            h.access(0, (4, 1, 13), Op::Read, None),
            Some((RaceKind::ReadAfterWrite, 0, 10))
        );
        // Warp 4 then stores the 5 it read: a WAR against its own read is none, but warp 5's
        // read before it is.
        assert_eq!(
            h.access(0, (5, 1, 14), Op::Read, None).map(|h| h.0),
            Some(RaceKind::ReadAfterWrite)
        );
        assert_eq!(
            h.access(0, (4, 1, 15), Op::Write, Some(5)),
            Some((RaceKind::WriteAfterRead, 5, 14))
        );
        // Element 1: warp 0 stores 3, then warp 1 stores 3 in some lanes and other bits in
        // others (`None`): whichever lane wins, the order of the warps may matter: a WAW.
        assert_eq!(h.access(1, (0, 1, 20), Op::Write, Some(3)), None);
        assert_eq!(
            h.access(1, (1, 1, 21), Op::Write, None),
            Some((RaceKind::WriteAfterWrite, 0, 20))
        );
        // And a uniform store after that mixed one is compared with nothing it can trust.
        assert_eq!(
            h.access(1, (2, 1, 22), Op::Write, Some(3)),
            Some((RaceKind::WriteAfterWrite, 0, 20))
        );
    }

    #[test]
    fn crossing_a_barrier_needs_another_warp_in_the_epoch_before() {
        let mut h = History::new(2);
        assert_eq!(h.access(0, (0, 1, 10), Op::Write, Some(10)), None);
        // Epoch 2: warp 1 reads what warp 0 wrote in epoch 1 (RAW across the barrier).
        assert!(h.crosses(0, 1, 2, Op::Read));
        // Warp 0 reading its own write: the barrier is not needed for it.
        assert!(!h.crosses(0, 0, 2, Op::Read));
        // Two epochs later the write is no longer in the epoch just before.
        assert!(!h.crosses(0, 1, 3, Op::Read));
        // Warp 1 read element 1 in epoch 4; warp 0 overwrites it in epoch 5 (WAR across).
        assert_eq!(h.access(1, (1, 4, 11), Op::Read, None), None);
        assert!(h.crosses(1, 0, 5, Op::Write));
        // A read after another warp's read is no hazard.
        assert!(!h.crosses(1, 0, 5, Op::Read));
    }

    #[test]
    fn a_relaxed_read_conflicts_with_plain_writes_only() {
        let mut h = History::new(2);
        // Element 0: a CAS loop's first reads by warps 0 and 1, then their swaps: nothing.
        assert_eq!(h.access(0, (0, 1, 10), Op::Relaxed, None), None);
        assert_eq!(h.access(0, (1, 1, 10), Op::Relaxed, None), None);
        assert_eq!(h.access(0, (0, 1, 11), Op::Atomic, None), None);
        assert_eq!(h.access(0, (1, 1, 11), Op::Atomic, None), None);
        // A relaxed read after the atomics (a later round's): still nothing.
        assert_eq!(h.access(0, (1, 1, 10), Op::Relaxed, None), None);
        // Element 1: warp 2 stores it plainly; warp 0's relaxed read is RAW against it.
        assert_eq!(h.access(1, (2, 1, 20), Op::Write, Some(20)), None);
        assert_eq!(
            h.access(1, (0, 1, 21), Op::Relaxed, None),
            Some((RaceKind::ReadAfterWrite, 2, 20))
        );
        // Across a barrier: the write of the epoch before crosses it, a swap does not.
        assert!(h.crosses(1, 0, 2, Op::Relaxed));
        assert!(!h.crosses(0, 2, 2, Op::Relaxed));
    }

    #[test]
    fn atomics_conflict_with_plain_accesses_of_other_warps_only() {
        let mut h = History::new(3);
        // Element 0, epoch 1: warp 0 zeroes it, warp 1 adds to it atomically: WAW against the
        // plain write; warp 2 adds too: two atomics, and warp 0's write already named.
        assert_eq!(h.access(0, (0, 1, 10), Op::Write, Some(10)), None);
        assert_eq!(
            h.access(0, (1, 1, 11), Op::Atomic, None),
            Some((RaceKind::WriteAfterWrite, 0, 10))
        );
        // Warp 0 reads it back: RAW against warp 1's atomic (its own write is no hazard).
        assert_eq!(
            h.access(0, (0, 1, 12), Op::Read, None),
            Some((RaceKind::ReadAfterWrite, 1, 11))
        );
        // Element 1: atomics of many warps and no plain access: nothing.
        for w in 0..8 {
            assert_eq!(h.access(1, (w, 1, 11), Op::Atomic, None), None);
        }
        // A plain write after them by warp 3: WAW against another warp's atomic (warp 0).
        assert_eq!(
            h.access(1, (3, 1, 13), Op::Write, Some(13)),
            Some((RaceKind::WriteAfterWrite, 0, 11))
        );
        // Element 2: warp 1 reads it, then warp 0 updates it atomically: WAR.
        assert_eq!(h.access(2, (1, 1, 12), Op::Read, None), None);
        assert_eq!(
            h.access(2, (0, 1, 14), Op::Atomic, None),
            Some((RaceKind::WriteAfterRead, 1, 12))
        );
        // The same warp's atomic after its own read: no hazard (epoch 2).
        assert_eq!(h.access(2, (1, 2, 12), Op::Read, None), None);
        assert_eq!(h.access(2, (1, 2, 14), Op::Atomic, None), None);
    }

    #[test]
    fn a_barrier_between_plain_accesses_and_atomics_protects() {
        let mut h = History::new(1);
        // Epoch 1: warp 0 zeroes the counter. Epoch 2: warp 1's atomic needs that barrier.
        assert_eq!(h.access(0, (0, 1, 10), Op::Write, Some(10)), None);
        assert!(h.crosses(0, 1, 2, Op::Atomic));
        assert_eq!(h.access(0, (1, 2, 11), Op::Atomic, None), None);
        // Epoch 3: warp 0 reads the total: the barrier after the atomics protects it.
        assert!(h.crosses(0, 0, 3, Op::Read));
        // Another atomic in epoch 3 does not need the barrier against warp 1's atomic.
        assert!(!h.crosses(0, 2, 3, Op::Atomic));
    }

    #[test]
    fn an_element_is_initialised_by_a_write_or_an_atomic_of_this_block() {
        let mut h = History::new(3);
        // Block one runs epochs 1..=2; block two begins at epoch 3.
        h.access(0, (0, 1, 10), Op::Write, Some(10));
        h.access(1, (0, 2, 11), Op::Atomic, None);
        assert!(h.initialised(0, 1) && h.initialised(1, 1));
        assert!(!h.initialised(2, 1));
        // What block one wrote does not initialise block two's copy.
        assert!(!h.initialised(0, 3) && !h.initialised(1, 3));
        // A read initialises nothing.
        h.access(2, (0, 3, 12), Op::Read, None);
        assert!(!h.initialised(2, 3));
    }
}
