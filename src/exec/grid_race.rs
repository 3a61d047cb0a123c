//! Races between the blocks of a cooperative launch: two blocks touch one global element between
//! the same grid barriers, at least one writing (atomics conflict with plain accesses only).

use std::collections::HashMap;

use super::race::{Group, Op, Race, RaceKind};
use super::LaunchConfig;
use crate::ir::KernelIr;

/// One lane's global access: the array (its index among the launch's arrays), the element, how,
/// the instruction and the warp.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    pub(crate) array: u32,
    pub(crate) index: i64,
    pub(crate) op: Op,
    pub(crate) inst: u32,
    pub(crate) warp: u32,
}

/// Entries a block's log may hold before its repeats are dropped.
const COMPACT_AT: usize = 1 << 20;

/// The global accesses of the running block since its last grid barrier.
#[derive(Debug, Default)]
pub(crate) struct Log(Vec<Touch>);

impl Log {
    /// Notes the active lanes' accesses of elements `ix` of `array`.
    pub(crate) fn note(&mut self, array: u32, (mask, ix): (&[bool], &[i64]), op: Op, inst: u32) {
        for (lane, (&m, &index)) in mask.iter().zip(ix).enumerate() {
            if m {
                self.0.push(Touch {
                    array,
                    index,
                    op,
                    inst,
                    warp: lane as u32 / 32,
                });
            }
        }
        if self.0.len() >= COMPACT_AT {
            self.compact();
        }
    }

    /// Keeps the first access of each kind to each element.
    fn compact(&mut self) {
        self.0.sort_by_key(|t| (t.array, t.index, kind(t.op)));
        self.0.dedup_by_key(|t| (t.array, t.index, kind(t.op)));
    }

    /// The block's accesses since its last grid barrier, each kind of each element once; the log
    /// starts again.
    pub(crate) fn take(&mut self) -> Vec<Touch> {
        self.compact();
        std::mem::take(&mut self.0)
    }
}

fn kind(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write => 1,
        Op::Atomic => 2,
        Op::Relaxed => 3,
    }
}

/// The first block (linear id) to touch an element one way, with the instruction and warp.
type First = (u64, u32, u32);

/// The kinds of access another block's access of kind `op` conflicts with.
fn conflicts(op: Op) -> &'static [Op] {
    match op {
        Op::Read => &[Op::Write, Op::Atomic],
        Op::Write => &[Op::Write, Op::Read, Op::Atomic, Op::Relaxed],
        Op::Atomic => &[Op::Write, Op::Read],
        Op::Relaxed => &[Op::Write],
    }
}

/// The races between the blocks of one stretch between grid barriers (the `stretch`-th): each
/// block's accesses (linear id, in block order) against those of the blocks before it, grouped
/// by the two sites and the array (`names` are the arrays' names); and the racing instruction
/// of each block, once per block and instruction (for `race_count`).
pub(crate) fn find(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    blocks: &[(u64, Vec<Touch>)],
    (stretch, names): (u32, &[&str]),
) -> (Vec<Group<Race>>, Vec<u32>) {
    // The first block (linear id) to access each element each way, with the instruction and warp.
    let mut seen: HashMap<(u32, i64), [Option<First>; 4]> = HashMap::new();
    let mut groups: Vec<Group<Race>> = Vec::new();
    let mut racing = Vec::new();
    for (id, touches) in blocks {
        // This block's hits: group, instruction, warp (sorted below, so that each warp
        // instruction counts once in its group's `warps`).
        let mut hits: Vec<(usize, u32, u32)> = Vec::new();
        for t in touches {
            let Some(entry) = seen.get(&(t.array, t.index)) else {
                continue;
            };
            let Some((other, other_inst, other_warp)) =
                conflicts(t.op).iter().find_map(|&o| entry[kind(o)])
            else {
                continue;
            };
            let site = (ir.site(t.inst), ir.site(other_inst));
            let name = names[t.array as usize];
            let g = match groups.iter().position(|g| {
                (ir.site(g.first.inst), ir.site(g.first.other_inst)) == site
                    && g.first.array == name
            }) {
                Some(g) => g,
                None => {
                    let first = Race {
                        kind: RaceKind::CrossBlock,
                        block: cfg.block_of(*id),
                        epoch: stretch,
                        array: name.to_string(),
                        index: t.index,
                        warp: t.warp,
                        other_warp,
                        other_block: Some(cfg.block_of(other)),
                        inst: t.inst,
                        other_inst,
                    };
                    groups.push(Group::new(first, *id));
                    groups.len() - 1
                }
            };
            hits.push((g, t.inst, t.warp));
        }
        hits.sort_unstable();
        for &(g, inst, warp) in &hits {
            // A cooperative grid has far fewer than 2^32 blocks: the pair is one number.
            groups[g].hit(*id, (*id << 32) | u64::from(inst), warp);
        }
        let mut insts: Vec<u32> = hits.iter().map(|h| h.1).collect();
        insts.sort_unstable();
        insts.dedup();
        racing.append(&mut insts);
        for t in touches {
            let e = seen.entry((t.array, t.index)).or_default();
            e[kind(t.op)].get_or_insert((*id, t.inst, t.warp));
        }
    }
    (groups, racing)
}
