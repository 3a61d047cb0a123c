//! Memory-level parallelism: the DRAM latency rounds on a block's critical path, with the global
//! loads of one scheduling region issued together as `nvcc` schedules them.
//!
//! A warp issues in order and stalls at the first instruction that reads a register a global
//! load has not yet filled; a store does not stall it. Within a scheduling region — the code
//! between two branches the compiled kernel keeps (a loop's test when the loop is not unrolled,
//! an `if` on a value known only at run time) or barriers — the compiler moves independent loads
//! ahead of the first use (`src/ir/fold.rs` says which loops it unrolls, whose copies form one
//! region). So a load issues in the round its address is ready, and its value is ready a round
//! later; a round is one memory latency. With the cache model, a load whose sectors all hit the
//! L1 takes no round (an L1 hit's latency is a small part of one). A load stays behind an earlier store to the same array
//! in its region (they may overlap); loads of different arrays do not wait for each other's
//! stores (simt assumes arrays do not alias, as `__restrict__` tells `nvcc`).
//!
//! The block's rounds are the latest round any value is ready at. Four independent loads before
//! their first use take one round; a chain of four loads, each address from the last load,
//! four.

use std::collections::HashMap;
use std::ops::Range;

use crate::ir::{bank_index, Inst, KernelIr, Space};

/// What an instruction does to the rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Its results are ready when its operands are.
    Plain,
    /// A branch the compiled kernel keeps, or a barrier: nothing after it issues before it, and
    /// it issues after everything before it.
    Boundary,
    /// A load through the memory system (global, local, texture, atomic): its result is ready a
    /// round after it issues; it waits for earlier stores to array `array` (`None`: any array).
    Load { array: Option<u32>, stores: bool },
    /// A store to `array` (`None`: any array): later loads of the array wait for it.
    Store { array: Option<u32> },
}

/// One instruction's registers (ranges into [`Plan::regs`]) and kind.
#[derive(Clone, Debug)]
struct Op {
    reads: Range<u32>,
    writes: Range<u32>,
    kind: Kind,
    /// A global load the L1 model looks up.
    cached: bool,
}

/// The instructions' operands and kinds, worked out once per kernel.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    ops: Vec<Op>,
    /// `(bank index, register)` of every operand.
    regs: Vec<(u8, u32)>,
    /// Arrays that loads and stores name.
    arrays: usize,
}

impl Plan {
    pub(crate) fn new(ir: &KernelIr) -> Plan {
        let mut regs = Vec::new();
        let mut arrays: HashMap<Space, u32> = HashMap::new();
        let mut array = |space: Space| {
            let n = arrays.len() as u32;
            *arrays.entry(space).or_insert(n)
        };
        let ops = ir
            .insts
            .iter()
            .enumerate()
            .map(|(pc, inst)| {
                let start = regs.len() as u32;
                inst.reads(ir, &mut |b, r| regs.push((bank_index(b) as u8, r.0)));
                let mid = regs.len() as u32;
                inst.writes(ir, &mut |b, r| regs.push((bank_index(b) as u8, r.0)));
                let end = regs.len() as u32;
                let kind = kind(ir, pc, *inst, &mut array);
                let cached = matches!(
                    inst,
                    Inst::Load { space, .. } | Inst::LoadVec { space, .. }
                        if matches!(space, Space::Global(p) if !ir.constants.contains(p))
                            || *space == Space::Choice { shared: false }
                );
                Op {
                    reads: start..mid,
                    writes: mid..end,
                    kind,
                    cached,
                }
            })
            .collect();
        let arrays = arrays.len();
        Plan { ops, regs, arrays }
    }
}

impl Plan {
    /// Whether instruction `pc` is a global load the L1 model looks up (not an atomic, a
    /// texture fetch or a local load).
    pub(crate) fn is_cached_load(&self, pc: usize) -> bool {
        self.ops[pc].cached
    }
}

/// The memory space's array key: `None` for a pointer that may reach any array.
fn kind(ir: &KernelIr, pc: usize, inst: Inst, array: &mut impl FnMut(Space) -> u32) -> Kind {
    let mut memory = |space: Space| match space {
        Space::Global(p) if ir.constants.contains(&p) => None,
        Space::Global(_) => Some(Some(array(space))),
        Space::Local(l) if !ir.locals[l as usize].in_registers => Some(Some(array(space))),
        Space::Choice { shared: false } => Some(None),
        Space::Local(_) | Space::Shared(_) | Space::Choice { shared: true } => None,
    };
    let kept = !ir.folded.get(pc).copied().unwrap_or(false);
    match inst {
        Inst::If { .. } | Inst::LoopTest { .. } if kept => Kind::Boundary,
        Inst::Barrier | Inst::GridSync | Inst::BarrierVote { .. } | Inst::SyncWarp { .. } => {
            Kind::Boundary
        }
        Inst::Load { space, .. } | Inst::LoadVec { space, .. } => match memory(space) {
            Some(array) => Kind::Load {
                array,
                stores: false,
            },
            None => Kind::Plain,
        },
        Inst::Store { space, .. } | Inst::StoreVec { space, .. } => match memory(space) {
            Some(array) => Kind::Store { array },
            None => Kind::Plain,
        },
        Inst::Atomic { space, .. } => match memory(space) {
            Some(array) => Kind::Load {
                array,
                stores: true,
            },
            None => Kind::Plain,
        },
        // A texture is read-only while the kernel runs: no store is to it.
        Inst::Tex { .. } => Kind::Load {
            array: Some(u32::MAX),
            stores: false,
        },
        _ => Kind::Plain,
    }
}

/// The running block's rounds.
#[derive(Clone, Debug)]
pub(crate) struct Rounds {
    /// Per bank, per register: the round its value is ready.
    ready: [Vec<u32>; 5],
    /// Per array: the latest round a store to it issued.
    stored: Vec<u32>,
    /// The latest round a store to any array issued.
    stored_any: u32,
    /// Nothing issues before this round (the last boundary's).
    floor: u32,
    /// The latest round anything issued.
    top: u32,
    /// The latest round anything is ready: the block's rounds so far.
    horizon: u32,
}

impl Rounds {
    pub(crate) fn new(ir: &KernelIr, plan: &Plan) -> Rounds {
        let n = |c: u32| vec![0; c as usize];
        let r = ir.regs;
        Rounds {
            ready: [n(r.b), n(r.w), n(r.d), n(r.f), n(r.g)],
            stored: vec![0; plan.arrays],
            stored_any: 0,
            floor: 0,
            top: 0,
            horizon: 0,
        }
    }

    /// Starts a block: every register ready in round 0.
    pub(crate) fn start_block(&mut self) {
        self.ready.iter_mut().for_each(|r| r.fill(0));
        self.stored.fill(0);
        (self.stored_any, self.floor, self.top, self.horizon) = (0, 0, 0, 0);
    }

    /// Runs instruction `pc`; returns how many rounds it added to the block's critical path.
    /// `missed`: a load's sectors did not all hit the L1 (always, without the cache model); a
    /// load that hit waits an L1 latency, not a round. An atomic resolves in the L2: a round.
    pub(crate) fn step(&mut self, plan: &Plan, pc: usize, missed: bool) -> u32 {
        let op = &plan.ops[pc];
        let regs = |r: &Range<u32>| &plan.regs[r.start as usize..r.end as usize];
        let mut at = self.floor;
        for &(b, r) in regs(&op.reads) {
            if let Some(&t) = self.ready[usize::from(b)].get(r as usize) {
                at = at.max(t);
            }
        }
        let done = match op.kind {
            Kind::Plain => at,
            Kind::Boundary => {
                at = at.max(self.top);
                self.floor = at;
                at
            }
            Kind::Load { array, stores } => {
                at = at.max(self.stored_any);
                match array {
                    Some(a) => {
                        if let Some(&t) = self.stored.get(a as usize) {
                            at = at.max(t);
                        }
                    }
                    None => at = self.stored.iter().fold(at, |m, &t| m.max(t)),
                }
                if stores {
                    self.store(array, at);
                }
                at + u32::from(missed || stores)
            }
            Kind::Store { array } => {
                self.store(array, at);
                at
            }
        };
        for &(b, r) in regs(&op.writes) {
            if let Some(t) = self.ready[usize::from(b)].get_mut(r as usize) {
                *t = done;
            }
        }
        self.top = self.top.max(at);
        let moved = done.saturating_sub(self.horizon);
        self.horizon = self.horizon.max(done);
        moved
    }

    fn store(&mut self, array: Option<u32>, at: u32) {
        match array.and_then(|a| self.stored.get_mut(a as usize)) {
            Some(t) => *t = (*t).max(at),
            None => self.stored_any = self.stored_any.max(at),
        }
    }
}
