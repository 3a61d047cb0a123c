//! Runs one thread block: the instruction loop over lane arrays, the mask stack, barriers and memory.

use super::cache::BlockL1;
use super::coalesce::Extent;
use super::counters::InstCounters;
use super::error::RunError;
use super::memory::BufData;
use super::probe::WarpAccess;
use super::race::{Group, History, Race, RaceHit, Uninit, UninitHit};
use super::regs::{self, fill, map1, map2, map3, select, xorwow, Lane, Lanes, RegFile};
use super::rounds::{Plan, Rounds};
use super::{warp, BarrierPass, GlobalBuf, LaunchConfig};
use crate::ir::{bank_of, Bank, Input, Inst, KernelIr, Reg, Space};
use crate::value::{convert, ArithOp, CmpOp, Float, Int, Num, Scalar};
use std::sync::atomic::{AtomicU64, Ordering};

mod access;
mod asyncs;
mod barrier_check;
mod choice;
mod exiting;
mod local;
mod print;
mod split;
mod texture;
mod wmma;

pub(crate) use print::PRINTF_LIMIT;

/// Local warp instructions between updates of the launch-wide step count.
const STEP_FLUSH: u64 = 1 << 16;

/// Binds `$T` to the Rust type of a numeric register type.
macro_rules! num_ty {
    ($ty:expr, $T:ident => $body:expr) => {
        match $ty {
            Scalar::I32 => {
                type $T = i32;
                $body
            }
            Scalar::U32 => {
                type $T = u32;
                $body
            }
            Scalar::I64 => {
                type $T = i64;
                $body
            }
            Scalar::U64 => {
                type $T = u64;
                $body
            }
            Scalar::F32 => {
                type $T = f32;
                $body
            }
            Scalar::F64 => {
                type $T = f64;
                $body
            }
            other => unreachable!("lower: {other} is not a numeric register type"),
        }
    };
}

/// Binds `$T` to the Rust type of an integer register type.
macro_rules! int_ty {
    ($ty:expr, $T:ident => $body:expr) => {
        match $ty {
            Scalar::I32 => {
                type $T = i32;
                $body
            }
            Scalar::U32 => {
                type $T = u32;
                $body
            }
            Scalar::I64 => {
                type $T = i64;
                $body
            }
            Scalar::U64 => {
                type $T = u64;
                $body
            }
            other => unreachable!("checker: {other} is not an integer register type"),
        }
    };
}

/// Binds `$T` to the Rust type of a floating register type.
macro_rules! float_ty {
    ($ty:expr, $T:ident => $body:expr) => {
        match $ty {
            Scalar::F32 => {
                type $T = f32;
                $body
            }
            Scalar::F64 => {
                type $T = f64;
                $body
            }
            other => unreachable!("checker: {other} is not a floating register type"),
        }
    };
}

/// Runs `$body` with `$S` bound to the storage type of a register bank.
macro_rules! bank_ty {
    ($bank:expr, $S:ident => $body:expr) => {
        match $bank {
            Bank::B => {
                type $S = bool;
                $body
            }
            Bank::W => {
                type $S = u32;
                $body
            }
            Bank::D => {
                type $S = u64;
                $body
            }
            Bank::F => {
                type $S = f32;
                $body
            }
            Bank::G => {
                type $S = f64;
                $body
            }
        }
    };
}

/// What pushed a saved mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum FrameKind {
    /// An `if`/`else`, or a short-circuit or `?:` side.
    #[default]
    Branch,
    /// A loop (`cont` holds the lanes that `continue`d).
    Loop,
    /// An inlined `__device__` function.
    Func,
}

/// A saved mask.
#[derive(Clone, Debug, Default)]
struct Frame {
    saved: Vec<bool>,
    cont: Vec<bool>,
    kind: FrameKind,
    /// The `If`, `LoopBegin` or `FnBegin` that pushed it (`usize::MAX` for a short-circuit side).
    at: usize,
}

/// One shared array of the running block.
#[derive(Clone, Debug)]
struct SharedArr {
    name: String,
    data: BufData,
    history: History,
}

/// A block waiting at a grid barrier (`this_grid().sync()`): what [`BlockRunner`] held of it,
/// and the instruction it goes on from once every block of the grid has arrived.
#[derive(Debug)]
pub(crate) struct Parked {
    pc: usize,
    regs: RegFile,
    mask: Vec<bool>,
    frames: Vec<Frame>,
    depth: usize,
    returned: Vec<bool>,
    shared: Vec<SharedArr>,
    locals: Vec<BufData>,
    local_written: Vec<Vec<u64>>,
    epoch: u64,
    block_epoch: u64,
    local_epoch: u32,
    block: [u32; 3],
    last_barrier: Option<usize>,
    issued: u64,
    dispatched: u64,
    /// The block's L1 share, with the cache model.
    l1: Option<super::cache::SectorCache>,
    /// The block's latency rounds so far.
    rounds: Rounds,
    /// Its asynchronous copies in flight, barriers and pipelines.
    asyncs: asyncs::AsyncState,
}

impl Parked {
    /// The grid barrier the block waits at.
    pub(crate) fn at(&self) -> usize {
        self.pc - 1
    }
}

/// The state of one worker running blocks one after another; buffers are reused across blocks.
#[derive(Debug)]
pub(crate) struct BlockRunner<'a> {
    ir: &'a KernelIr,
    cfg: &'a LaunchConfig,
    regs: RegFile,
    mask: Vec<bool>,
    full: bool,
    warps_active: u64,
    lanes_active: u64,
    frames: Vec<Frame>,
    depth: usize,
    returned: Vec<bool>,
    shared: Vec<SharedArr>,
    /// Each local array: every lane's copy, component-major (`[component][lane]`).
    locals: Vec<BufData>,
    /// Each local array, per slot: the block (`block_epoch`) that last wrote it.
    local_written: Vec<Vec<u64>>,
    idx: Vec<i64>,
    /// Per warp: the lowest and highest index of its active lanes (`(MAX, MIN)` when none).
    spans: Vec<Extent>,
    /// Component indices of a vector access.
    comp: Vec<i64>,
    scratch: Vec<i64>,
    /// A global store's bits per lane, for the race log.
    stored: Vec<u64>,
    /// Buffers of accesses through pointers into several arrays.
    choice: choice::Scratch,
    epoch: u64,
    /// `epoch` when the current block began: a shared word not written since is uninitialised.
    block_epoch: u64,
    local_epoch: u32,
    block: [u32; 3],
    /// The linear id of `block`.
    block_id: u64,
    /// Events per instruction, summed over the blocks this runner ran.
    pub(crate) counters: Vec<InstCounters>,
    /// Races, grouped by kind and sites, in the order first found.
    pub(crate) races: Vec<Group<Race>>,
    /// Uninitialised reads, grouped by site and array, in the order first found.
    pub(crate) uninit: Vec<Group<Uninit>>,
    /// The hazards of the memory instruction being run: hazard, element, lane.
    race_hits: Vec<RaceHit>,
    /// The global stores whose lanes collided in this epoch (a `global-WAW` or a
    /// `lost-update`, counted in `race_count` as they ran): a WAR or WAW the epoch's end finds
    /// at one of them does not count the instruction again.
    filed_stores: Vec<u32>,
    /// The uninitialised reads of the memory instruction being run: element, lane.
    uninit_hits: Vec<UninitHit>,
    /// Memory instructions run (tells the warps of one instruction from the next in a group).
    accesses: u64,
    /// Warp instructions issued since the last flush into `budget`.
    steps: u64,
    /// Warp instructions issued by the whole launch, shared by the workers (for `--max-steps`).
    budget: &'a AtomicU64,
    /// Per instruction: the first warp's lanes of a memory instruction (for lane maps).
    pub(crate) first_access: Vec<Option<WarpAccess>>,
    /// Per instruction: the block and executions `cfg.probe` has counted for `first_access`.
    probe_seen: Vec<(u64, u32)>,
    /// Per instruction: whether this barrier separated conflicting accesses of two warps.
    pub(crate) barrier_protects: Vec<bool>,
    /// The barrier that began the current epoch of this block.
    last_barrier: Option<usize>,
    /// The barrier on the other side of a split `if` that `last_barrier` passed with.
    partner_barrier: Option<usize>,
    /// Per instruction: how this barrier passed (see [`BarrierPass`]).
    pub(crate) barrier_passes: Vec<BarrierPass>,
    /// The `if` whose two sides run in turns, meeting at barriers.
    split: Option<split::Split>,
    /// Lanes missing from a barrier are being run to see whether they exit without another
    /// barrier ([`Self::arrive`]); `Some(true)` once one reached a barrier.
    probing_exit: Option<bool>,
    /// Warp instructions this block has issued (what `clock()` reads).
    issued: u64,
    /// Instructions this block has executed, each once however many warps ran it.
    dispatched: u64,
    /// The block's warps, active or not: what each instruction costs in `--max-block-steps`.
    block_warps: u64,
    /// What `printf` printed, in block order then execution order.
    pub(crate) printf: String,
    /// Some output did not fit the printf buffer.
    pub(crate) printf_truncated: bool,
    /// With the cache model on: the running block's L1 share and its trace to the L2.
    pub(crate) l1: Option<BlockL1>,
    /// The running block's asynchronous copies in flight, barriers and pipelines.
    asyncs: asyncs::AsyncState,
    /// The kernel's operands and memory kinds, for `rounds`.
    plan: Plan,
    /// The running block's DRAM latency rounds (`InstCounters::latency_rounds`).
    rounds: Rounds,
    /// The launch's textures: a texture object `h` is `textures[h - 1]`.
    textures: &'a [crate::texture::Texture],
    /// In a cooperative launch: the running block's global accesses since its last grid
    /// barrier, for the races between blocks.
    pub(crate) grid_log: Option<super::grid_race::Log>,
    /// The running block's global accesses in this barrier epoch and the one before, for the
    /// races between its warps.
    epoch_log: super::epoch_log::EpochLog,
}

impl<'a> BlockRunner<'a> {
    pub(crate) fn new(
        ir: &'a KernelIr,
        cfg: &'a LaunchConfig,
        shared_lens: &[usize],
        budget: &'a AtomicU64,
        textures: &'a [crate::texture::Texture],
    ) -> BlockRunner<'a> {
        let lanes = cfg.threads_per_block() as usize;
        let mut regs = RegFile::new(ir, lanes);
        let plan = Plan::new(ir);
        for &(r, ty, input) in &ir.inputs {
            let v = match input {
                Input::Const(v) => Some(v),
                Input::BlockDim(a) => Some(crate::value::Value::U32(cfg.block[a as usize])),
                Input::GridDim(a) => Some(crate::value::Value::U32(cfg.grid[a as usize])),
                Input::Cooperative => Some(crate::value::Value::U32(u32::from(cfg.cooperative))),
                Input::ThreadIdx(a) => {
                    let w = &mut regs.w[r.0 as usize];
                    for (l, x) in w.iter_mut().enumerate() {
                        *x = cfg.thread_of(l)[a as usize];
                    }
                    None
                }
                Input::BlockIdx(_)
                | Input::Param(_)
                | Input::ParamBase(_)
                | Input::ParamAddress(_) => None,
            };
            if let Some(v) = v {
                fill_value(&mut regs, r, ty, v);
            }
        }
        let shared = ir
            .shared
            .iter()
            .zip(shared_lens)
            .map(|(s, &len)| SharedArr {
                name: s.name.clone(),
                data: BufData::zeros(s.elem, len),
                history: History::new(len),
            })
            .collect();
        BlockRunner {
            ir,
            cfg,
            regs,
            mask: vec![true; lanes],
            full: true,
            warps_active: 0,
            lanes_active: 0,
            frames: Vec::new(),
            depth: 0,
            returned: vec![false; lanes],
            shared,
            locals: ir
                .locals
                .iter()
                .map(|a| BufData::zeros(a.elem, a.len as usize * lanes))
                .collect(),
            local_written: ir
                .locals
                .iter()
                .map(|a| vec![0; a.len as usize * lanes])
                .collect(),
            idx: vec![0; lanes],
            spans: vec![(0, 0); lanes.div_ceil(32)],
            comp: vec![0; lanes],
            scratch: Vec::with_capacity(64),
            stored: Vec::with_capacity(lanes),
            choice: choice::Scratch::default(),
            epoch: 0,
            block_epoch: 0,
            local_epoch: 0,
            block: [0; 3],
            block_id: 0,
            counters: vec![InstCounters::default(); ir.insts.len()],
            races: Vec::new(),
            uninit: Vec::new(),
            race_hits: Vec::new(),
            filed_stores: Vec::new(),
            uninit_hits: Vec::new(),
            accesses: 0,
            steps: 0,
            first_access: vec![None; ir.insts.len()],
            probe_seen: vec![(u64::MAX, 0); ir.insts.len()],
            barrier_protects: vec![false; ir.insts.len()],
            last_barrier: None,
            partner_barrier: None,
            probing_exit: None,
            barrier_passes: vec![BarrierPass::default(); ir.insts.len()],
            split: None,
            budget,
            issued: 0,
            dispatched: 0,
            block_warps: cfg.threads_per_block().div_ceil(32),
            printf: String::new(),
            printf_truncated: false,
            l1: cfg.cache.map(|c| BlockL1::new(c.l1_bytes_per_block)),
            asyncs: asyncs::AsyncState::default(),
            rounds: Rounds::new(ir, &plan),
            plan,
            textures,
            grid_log: cfg.cooperative.then(super::grid_race::Log::default),
            epoch_log: super::epoch_log::EpochLog::default(),
        }
    }

    /// Runs block `block` to completion, or until it reaches a grid barrier: then it is parked
    /// there, to go on with [`Self::resume`].
    pub(crate) fn run(
        &mut self,
        block: [u32; 3],
        scalars: &[Option<crate::value::Value>],
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<Option<Parked>, RunError> {
        self.block = block;
        self.block_id = self.cfg.linear_block(block);
        if let Some(l1) = &mut self.l1 {
            l1.start_block();
        }
        self.rounds.start_block();
        for &(r, ty, input) in &self.ir.inputs {
            match input {
                Input::BlockIdx(a) => fill(&mut self.regs, r, block[a as usize]),
                Input::Param(p) => {
                    let v =
                        scalars[p as usize].expect("pipeline: every scalar parameter has a value");
                    fill_value(&mut self.regs, r, ty, v.cast(ty));
                }
                Input::ParamBase(p) => {
                    let base = match &globals[p as usize] {
                        Some(g) if g.cells.is_some() => 0,
                        _ => crate::check::typed::NULL_OFFSET,
                    };
                    fill_value(&mut self.regs, r, ty, crate::value::Value::I64(base));
                }
                Input::ParamAddress(p) => {
                    let address = globals[p as usize].as_ref().map_or(0, |g| g.address);
                    fill_value(&mut self.regs, r, ty, crate::value::Value::U64(address));
                }
                _ => {}
            }
        }
        self.mask.iter_mut().for_each(|m| *m = true);
        self.returned.iter_mut().for_each(|m| *m = false);
        self.depth = 0;
        self.update_mask();
        for s in &mut self.shared {
            s.data.clear();
        }
        for l in &mut self.locals {
            l.clear();
        }
        self.epoch += 1;
        self.block_epoch = self.epoch;
        self.local_epoch = 0;
        self.last_barrier = None;
        self.partner_barrier = None;
        self.split = None;
        self.epoch_log.clear();
        self.issued = 0;
        self.dispatched = 0;
        self.asyncs = asyncs::AsyncState::default();
        self.go_on(0, globals)
    }

    /// Runs from `pc` to the end or the next grid barrier, where the block is parked.
    fn go_on(
        &mut self,
        mut pc: usize,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<Option<Parked>, RunError> {
        let at_grid_sync = self
            .interpret(globals, &mut pc)
            .map_err(|e| e.in_calls(&self.ir.call_sites(pc)))?;
        if !at_grid_sync {
            self.end_global_epoch();
        }
        Ok(at_grid_sync.then(|| self.park(pc)))
    }

    /// A copy of the running block's state, to go on from `pc`; the runner keeps its buffers
    /// for the next block.
    fn park(&mut self, pc: usize) -> Parked {
        Parked {
            pc,
            regs: self.regs.clone(),
            mask: self.mask.clone(),
            frames: self.frames.clone(),
            depth: self.depth,
            returned: self.returned.clone(),
            shared: self.shared.clone(),
            locals: self.locals.clone(),
            local_written: self.local_written.clone(),
            epoch: self.epoch,
            block_epoch: self.block_epoch,
            local_epoch: self.local_epoch,
            block: self.block,
            last_barrier: self.last_barrier,
            issued: self.issued,
            dispatched: self.dispatched,
            l1: self.l1.as_ref().map(BlockL1::cache),
            rounds: self.rounds.clone(),
            asyncs: std::mem::take(&mut self.asyncs),
        }
    }

    /// Goes on with a block parked at a grid barrier that every block has now reached, to the
    /// end or the next grid barrier.
    pub(crate) fn resume(
        &mut self,
        p: Parked,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<Option<Parked>, RunError> {
        self.regs = p.regs;
        self.mask = p.mask;
        self.frames = p.frames;
        self.depth = p.depth;
        self.returned = p.returned;
        self.shared = p.shared;
        self.locals = p.locals;
        self.local_written = p.local_written;
        // Epochs go on past both the block's and this runner's: the block's race history and
        // this runner's other blocks' never meet an epoch of the block's next stretch.
        self.epoch = self.epoch.max(p.epoch) + 1;
        self.block_epoch = p.block_epoch;
        self.local_epoch = p.local_epoch;
        self.block = p.block;
        self.block_id = self.cfg.linear_block(p.block);
        self.last_barrier = p.last_barrier;
        self.epoch_log.clear();
        self.issued = p.issued;
        self.dispatched = p.dispatched;
        self.rounds = p.rounds;
        self.asyncs = p.asyncs;
        if let (Some(l1), Some(cache)) = (&mut self.l1, p.l1) {
            l1.resume(cache);
        }
        self.update_mask();
        self.go_on(p.pc, globals)
    }

    /// Runs the block's instructions from `at`, leaving `at` at the one that failed on an error;
    /// `true` when it stopped at a grid barrier (`at` is then the instruction after it).
    fn interpret(
        &mut self,
        globals: &[Option<GlobalBuf<'_>>],
        at: &mut usize,
    ) -> Result<bool, RunError> {
        let insts = &self.ir.insts;
        while *at < insts.len() {
            let pc = *at;
            let inst = insts[pc];
            self.dispatched += 1;
            let mut next = pc + 1;
            let before = (
                self.warps_active,
                self.l1.as_ref().map(|l1| l1.missed_requests),
            );
            match inst {
                Inst::If { c, else_at } => {
                    self.branch(pc, c);
                    self.push(FrameKind::Branch, pc);
                    self.and_mask(c, false);
                    if self.lanes_active == 0 {
                        next = else_at as usize;
                    }
                }
                Inst::Else { .. } | Inst::EndIf if self.split.is_some() => {
                    match self.side_end(pc)? {
                        Some(to) => next = to,
                        None if matches!(inst, Inst::EndIf) => self.pop(),
                        None => self.else_mask(inst, &mut next),
                    }
                }
                Inst::Else { .. } => self.else_mask(inst, &mut next),
                Inst::EndIf | Inst::LoopEnd | Inst::MaskPop | Inst::FnEnd => self.pop(),
                Inst::LoopBegin => self.push(FrameKind::Loop, pc),
                Inst::FnBegin => self.push(FrameKind::Func, pc),
                Inst::LoopTest { c, exit_at } => {
                    self.branch(pc, c);
                    self.and_mask(c, false);
                    if self.lanes_active == 0 {
                        next = exit_at as usize;
                    }
                }
                Inst::LoopContinue => {
                    let f = &mut self.frames[self.depth - 1];
                    for (m, c) in self.mask.iter_mut().zip(f.cont.iter_mut()) {
                        *m |= *c;
                        *c = false;
                    }
                    self.update_mask();
                }
                Inst::LoopBack { head } => {
                    self.steps += self.warps_active;
                    if self.steps >= STEP_FLUSH {
                        self.flush_steps(pc)?;
                    }
                    if self.dispatched.saturating_mul(self.block_warps) > self.cfg.max_block_steps {
                        return Err(RunError::BlockStepLimit {
                            limit: self.cfg.max_block_steps,
                            span: self.ir.spans[pc],
                            block: self.block,
                            help: endless_loop_help(&self.ir.insts[head as usize..pc]),
                        });
                    }
                    if self.lanes_active > 0 {
                        next = head as usize;
                    }
                }
                Inst::MaskPush { c, negate, skip_to } => {
                    self.push(FrameKind::Branch, usize::MAX);
                    self.and_mask(c, negate);
                    if self.lanes_active == 0 {
                        next = skip_to as usize;
                    }
                }
                Inst::Break { skip_to }
                | Inst::Continue { skip_to }
                | Inst::Return { skip_to }
                | Inst::ReturnFn { skip_to } => {
                    self.leave(inst);
                    next = skip_to as usize;
                }
                Inst::BarrierCheck { id, count } => self.barrier_check(pc, id, count)?,
                Inst::Barrier => {
                    if let Some(to) = self.sync(pc, globals)? {
                        next = to;
                    }
                }
                Inst::GridSync => {
                    if self.lanes_active > 0 && !self.cfg.cooperative {
                        return Err(RunError::NotCooperative {
                            span: self.ir.spans[pc],
                        });
                    }
                    if self.arrive(pc, "this_grid().sync()", globals)? {
                        self.counters[pc].grid_syncs += 1;
                        self.count_rounds(pc, before);
                        *at = next;
                        return Ok(true);
                    }
                }
                Inst::BarrierVote { kind, d, pred } => {
                    self.barrier(pc, kind.name(), globals)?;
                    let value = kind.fold(
                        self.mask
                            .iter()
                            .zip(&self.regs.b[pred.0 as usize])
                            .filter(|(&m, _)| m)
                            .map(|(_, &p)| p),
                    );
                    let dst = &mut self.regs.w[d.0 as usize];
                    for (x, &m) in dst.iter_mut().zip(&self.mask) {
                        if m {
                            *x = value as u32;
                        }
                    }
                }
                Inst::Load {
                    space,
                    elem,
                    d,
                    idx,
                    idx_ty,
                } => {
                    self.issue_access(pc, space);
                    self.memory(pc, space, elem, 1, (idx, idx_ty), Err(&[d]), globals)?;
                }
                Inst::Store {
                    space,
                    elem,
                    idx,
                    idx_ty,
                    v,
                } => {
                    self.issue_access(pc, space);
                    self.memory(pc, space, elem, 1, (idx, idx_ty), Ok(&[v]), globals)?;
                }
                Inst::Shfl { .. }
                | Inst::Vote { .. }
                | Inst::WarpFold { .. }
                | Inst::ActiveMask { .. }
                | Inst::SyncWarp { .. } => {
                    self.issue(pc);
                    self.warp_op(pc, inst)?;
                }
                Inst::Atomic {
                    op,
                    space,
                    elem,
                    width,
                    d,
                    idx,
                    idx_ty,
                    v,
                    cmp,
                } => {
                    self.issue(pc);
                    let regs = (&d[..width as usize], &v[..width as usize], cmp);
                    self.atomic(pc, op, (space, elem), (idx, idx_ty), regs, globals)?;
                }
                Inst::LoadVec {
                    space,
                    elem,
                    width,
                    d,
                    idx,
                    idx_ty,
                } => {
                    self.issue_access(pc, space);
                    self.memory(
                        pc,
                        space,
                        elem,
                        u32::from(width),
                        (idx, idx_ty),
                        Err(&d[..usize::from(width)]),
                        globals,
                    )?;
                }
                Inst::StoreVec {
                    space,
                    elem,
                    width,
                    idx,
                    idx_ty,
                    v,
                } => {
                    self.issue_access(pc, space);
                    self.memory(
                        pc,
                        space,
                        elem,
                        u32::from(width),
                        (idx, idx_ty),
                        Ok(&v[..usize::from(width)]),
                        globals,
                    )?;
                }
                Inst::Tex {
                    fetch,
                    ty,
                    d,
                    handle,
                    coords,
                    channel,
                } => {
                    self.issue(pc);
                    self.texture(pc, (fetch, ty, channel), d, handle, coords)?;
                }
                Inst::Clock { d } => {
                    self.issue(pc);
                    let now = self.issued;
                    let dst = &mut self.regs.d[d.0 as usize];
                    for (o, &m) in dst.iter_mut().zip(&self.mask) {
                        if m {
                            *o = now;
                        }
                    }
                }
                Inst::Collective { call, tile, bytes } => self.collective(pc, call, tile, bytes)?,
                Inst::Mma { id } => {
                    self.issue(pc);
                    self.mma(pc, id)?;
                }
                Inst::Printf { id } => {
                    self.issue(pc);
                    self.printf(id);
                }
                Inst::AsyncOpen { obj } => self.async_bracket(pc, Some(obj))?,
                Inst::AsyncClose => self.async_bracket(pc, None)?,
                Inst::Async { id } => {
                    let op = self.ir.asyncs[id as usize];
                    self.async_op(pc, op, globals)?;
                }
                Inst::Assert { c, assume } => {
                    self.issue(pc);
                    let cond = &self.regs.b[c.0 as usize];
                    if let Some(lane) = (0..cond.len()).find(|&l| self.mask[l] && !cond[l]) {
                        if assume {
                            return Err(RunError::FalseAssumption {
                                span: self.ir.spans[pc],
                                block: self.block,
                                thread: self.cfg.thread_of(lane),
                            });
                        }
                        return Err(RunError::Assertion {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                        });
                    }
                }
                Inst::Disjoint {
                    a,
                    a_unit,
                    b,
                    b_unit,
                    n,
                } => {
                    let lanes = 0..self.mask.len();
                    let overlap = lanes.into_iter().find(|&l| {
                        let at = |r: Reg, unit: u32| {
                            i128::from(self.regs.d[r.0 as usize][l] as i64) * i128::from(unit)
                        };
                        let (a, b) = (at(a, a_unit), at(b, b_unit));
                        let n = i128::from(self.regs.d[n.0 as usize][l]);
                        self.mask[l] && n > 0 && a < b + n && b < a + n
                    });
                    if let Some(lane) = overlap {
                        return Err(RunError::OverlappingCopy {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                        });
                    }
                }
                Inst::Fault { id } => {
                    self.issue(pc);
                    if let Some(lane) = self.mask.iter().position(|&m| m) {
                        return Err(RunError::fault(
                            &self.ir.faults[id as usize],
                            self.ir.spans[pc],
                            (self.block, self.cfg.thread_of(lane)),
                        ));
                    }
                }
                Inst::Trap => {
                    self.issue(pc);
                    if let Some(lane) = self.mask.iter().position(|&m| m) {
                        return Err(RunError::Trap {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                        });
                    }
                }
                Inst::Widen { from, d, a } => {
                    let lanes = Lanes {
                        mask: &self.mask,
                        full: self.full,
                    };
                    if from == Scalar::U32 {
                        map1::<u32, u64>(&mut self.regs, &lanes, d, a, u64::from);
                    } else {
                        map1::<u32, u64>(&mut self.regs, &lanes, d, a, |x| x as i32 as i64 as u64);
                    }
                }
                Inst::Rescale {
                    d,
                    a,
                    from,
                    to,
                    size,
                    space,
                } => self.rescale(pc, [d, a], (from, to, size), space, globals)?,
                Inst::View { from, to, d, a } => {
                    let read = if from.is_float() || to.is_float() {
                        Inst::Bits {
                            op: crate::value::BitOp::Same,
                            from,
                            ty: to,
                            d,
                            a,
                        }
                    } else {
                        Inst::Cast {
                            from: from.promoted(),
                            to,
                            d,
                            a,
                        }
                    };
                    self.compute(pc, read)?;
                }
                Inst::Pack { from, to, n, d, a } => {
                    let lanes = Lanes {
                        mask: &self.mask,
                        full: self.full,
                    };
                    let a = &a[..usize::from(n)];
                    regs::pack(&mut self.regs, &lanes, from, a, d, to);
                }
                Inst::Unpack { from, to, n, d, a } => {
                    let lanes = Lanes {
                        mask: &self.mask,
                        full: self.full,
                    };
                    let d = &d[..usize::from(n)];
                    regs::unpack(&mut self.regs, &lanes, to, a, from, d);
                }
                Inst::Mov { ty, d, a } => {
                    let lanes = Lanes {
                        mask: &self.mask,
                        full: self.full,
                    };
                    bank_ty!(bank_of(ty), S => map1::<S, S>(&mut self.regs, &lanes, d, a, |x| x));
                }
                // Part of the 16-bit operation before it: computed, not issued.
                Inst::Round { .. } => self.compute(pc, inst)?,
                _ => {
                    self.issue(pc);
                    self.compute(pc, inst)?;
                }
            }
            self.count_rounds(pc, before);
            *at = next;
        }
        Ok(false)
    }

    /// Adds the local step count to the launch's; past `--max-steps` the loop at `pc` is blamed.
    pub(crate) fn flush_steps(&mut self, pc: usize) -> Result<(), RunError> {
        let total = self.budget.fetch_add(self.steps, Ordering::Relaxed) + self.steps;
        self.steps = 0;
        if self
            .cfg
            .deadline
            .as_ref()
            .is_some_and(super::Deadline::passed)
        {
            return Err(self.timeout(pc));
        }
        if total > self.cfg.max_steps {
            return Err(RunError::StepLimit {
                limit: self.cfg.max_steps,
                span: self.ir.spans[pc],
                block: self.block,
            });
        }
        Ok(())
    }

    /// The launch ran past its deadline, or was interrupted, while this block was at `pc`.
    #[cold]
    pub(crate) fn timeout(&self, pc: usize) -> RunError {
        let span = self.ir.spans.get(pc).copied().unwrap_or_default();
        self.cfg.deadline.as_ref().map_or(
            RunError::Timeout {
                seconds: 0.0,
                span,
                block: self.block,
            },
            |d| d.error(span, self.block),
        )
    }

    /// Takes the events counted so far, leaving zeros.
    pub(crate) fn take_counters(&mut self) -> Vec<InstCounters> {
        let fresh = vec![InstCounters::default(); self.counters.len()];
        std::mem::replace(&mut self.counters, fresh)
    }

    /// Adds the current warps and lanes to instruction `pc` (one warp instruction per warp with an active lane).
    #[inline]
    /// Adds the DRAM latency rounds instruction `pc` added to the block's critical path, given
    /// the warps that ran it and the L1's missed requests before it ran (`None` without the
    /// cache model). A warp whose load request hits the L1 in every sector waits no DRAM latency:
    /// the block's path moves when any warp's request missed, and counts for the warps that
    /// missed.
    fn count_rounds(&mut self, pc: usize, (warps, missed_before): (u64, Option<u64>)) {
        if warps == 0 {
            return;
        }
        let waiting = match (missed_before, &self.l1) {
            (Some(before), Some(l1)) if self.plan.is_cached_load(pc) => l1.missed_requests - before,
            _ => warps,
        };
        let moved = self.rounds.step(&self.plan, pc, waiting > 0);
        if moved > 0 {
            self.counters[pc].latency_rounds += u64::from(moved) * waiting;
        }
    }

    /// Issues a memory instruction, except an access of a local array kept in registers (free).
    fn issue_access(&mut self, pc: usize, space: crate::ir::Space) {
        match space {
            crate::ir::Space::Local(l) if self.ir.locals[l as usize].in_registers => {}
            _ => self.issue(pc),
        }
    }

    fn issue(&mut self, pc: usize) {
        let c = &mut self.counters[pc];
        c.warp_instr += self.warps_active;
        c.active_lane_slots += self.lanes_active;
        self.steps += self.warps_active;
        self.issued += self.warps_active;
    }

    /// A branch instruction: counts it, and the warps whose active lanes disagree on `c`.
    fn branch(&mut self, pc: usize, c: Reg) {
        self.issue(pc);
        let cond = &self.regs.b[c.0 as usize];
        let (mut branches, mut divergent) = (0, 0);
        for (m, x) in self.mask.chunks(32).zip(cond.chunks(32)) {
            let (mut act, mut taken) = (0, 0);
            for (&mi, &xi) in m.iter().zip(x) {
                act += u32::from(mi);
                taken += u32::from(mi && xi);
            }
            if act > 0 {
                branches += 1;
                if taken > 0 && taken < act {
                    divergent += 1;
                }
            }
        }
        let cnt = &mut self.counters[pc];
        cnt.branches += branches;
        cnt.divergent += divergent;
    }

    fn update_mask(&mut self) {
        let mut warps = 0;
        let mut lanes = 0;
        for w in self.mask.chunks(32) {
            let n = w.iter().filter(|&&m| m).count() as u64;
            lanes += n;
            warps += u64::from(n > 0);
        }
        self.warps_active = warps;
        self.lanes_active = lanes;
        self.full = lanes == self.mask.len() as u64;
    }

    /// A frame of `kind` pushed by the instruction at `at` (`usize::MAX`: a short-circuit side).
    fn push(&mut self, kind: FrameKind, at: usize) {
        if self.depth == self.frames.len() {
            self.frames.push(Frame::default());
        }
        let f = &mut self.frames[self.depth];
        f.saved.clear();
        f.saved.extend_from_slice(&self.mask);
        f.kind = kind;
        f.at = at;
        if kind == FrameKind::Loop {
            f.cont.clear();
            f.cont.resize(self.mask.len(), false);
        }
        self.depth += 1;
    }

    fn pop(&mut self) {
        self.depth -= 1;
        let f = &self.frames[self.depth];
        self.mask.copy_from_slice(&f.saved);
        self.update_mask();
    }

    fn and_mask(&mut self, c: Reg, negate: bool) {
        let cond = &self.regs.b[c.0 as usize];
        for (m, &x) in self.mask.iter_mut().zip(cond) {
            *m = *m && (x != negate);
        }
        self.update_mask();
    }

    /// `break`, `continue`, `return`: every active lane leaves; enclosing frames forget it.
    fn leave(&mut self, inst: Inst) {
        // The frame the lanes go back to: the innermost loop, the inlined function, or none (kernel return).
        let target = match inst {
            Inst::Break { .. } | Inst::Continue { .. } => Some(FrameKind::Loop),
            Inst::ReturnFn { .. } => Some(FrameKind::Func),
            _ => None,
        };
        for f in self.frames[..self.depth].iter_mut().rev() {
            if Some(f.kind) == target {
                if matches!(inst, Inst::Continue { .. }) {
                    for (c, &m) in f.cont.iter_mut().zip(&self.mask) {
                        *c |= m;
                    }
                }
                break;
            }
            for (s, &m) in f.saved.iter_mut().zip(&self.mask) {
                *s &= !m;
            }
        }
        if target.is_none() {
            for (r, &m) in self.returned.iter_mut().zip(&self.mask) {
                *r |= m;
            }
        }
        self.mask.iter_mut().for_each(|m| *m = false);
        self.update_mask();
    }

    fn barrier(
        &mut self,
        pc: usize,
        name: &'static str,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if self.arrive(pc, name, globals)? {
            self.counters[pc].barriers += 1;
        }
        Ok(())
    }

    /// The block's live threads arrive at barrier `pc` (`name` in diagnostics), which begins a
    /// new epoch; `false` when no thread is here.
    fn arrive(
        &mut self,
        pc: usize,
        name: &'static str,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<bool, RunError> {
        if self.lanes_active == 0 {
            // No thread is here: every one returned, or left the loop with `break`/`continue`
            // before it. No barrier executes, and none is missed.
            return Ok(false);
        }
        if self.probing_exit.is_some() {
            // Lanes run out from another barrier reached this one: that barrier is divergent.
            // They stop here for good, as if they returned (their run is abandoned).
            self.probing_exit = Some(true);
            self.leave(Inst::Return { skip_to: 0 });
            return Ok(false);
        }
        let missing = self
            .mask
            .iter()
            .zip(&self.returned)
            .position(|(&m, &r)| !m && !r);
        if let Some(lane) = missing {
            // Warps parked on the other side of a split `if` wait there, and are not exiting.
            let aligned = matches!(self.ir.insts[pc], Inst::Barrier | Inst::BarrierVote { .. })
                && self.split.is_none();
            if aligned && self.missing_lanes_exit(pc) {
                self.barrier_passes[pc].exiting = true;
                self.run_exiting(pc, globals)?;
                self.pass(pc);
                return Ok(true);
            }
            // Where a barrier follows in the code (another `case` of a `switch`), whether the
            // missing lanes reach one is known by running them: exited, they release this one.
            if aligned && self.missing_lanes_may_exit(pc) {
                let returned = self.returned.clone();
                self.probing_exit = Some(false);
                let ran = self.run_exiting(pc, globals);
                let hit = self.probing_exit.take() == Some(true);
                ran?;
                if !hit {
                    self.barrier_passes[pc].exiting = true;
                    self.pass(pc);
                    return Ok(true);
                }
                self.returned = returned;
            }
            let live = self.returned.iter().filter(|&&r| !r).count() as u32;
            return Err(RunError::DivergentBarrier {
                span: self.ir.spans[pc],
                block: self.block,
                missing: self.cfg.thread_of(lane),
                arrived: self.lanes_active as u32,
                live,
                barrier: name,
            });
        }
        self.pass(pc);
        Ok(true)
    }

    /// The block's warps active here issue the barrier at `pc`, and a new epoch begins.
    fn pass(&mut self, pc: usize) {
        self.issue(pc);
        self.end_global_epoch();
        self.epoch += 1;
        self.local_epoch += 1;
        self.last_barrier = Some(pc);
        self.partner_barrier = None;
    }

    /// `Else`: the lanes that did not take the `if` run; none → skip to its end.
    fn else_mask(&mut self, inst: Inst, next: &mut usize) {
        let Inst::Else { c, end_at } = inst else {
            return;
        };
        let f = &self.frames[self.depth - 1];
        let cond = &self.regs.b[c.0 as usize];
        for ((m, &s), &x) in self.mask.iter_mut().zip(&f.saved).zip(cond) {
            *m = s && !x;
        }
        self.update_mask();
        if self.lanes_active == 0 {
            *next = end_at as usize;
        }
    }

    /// Shuffles, votes, `__activemask()` and `__syncwarp()`.
    fn warp_op(&mut self, pc: usize, inst: Inst) -> Result<(), RunError> {
        let mask_reg = match inst {
            Inst::Shfl { mask, .. }
            | Inst::Vote { mask, .. }
            | Inst::WarpFold { mask, .. }
            | Inst::SyncWarp { mask } => Some(mask),
            _ => None,
        };
        if let Some(m) = mask_reg {
            let masks = &self.regs.w[m.0 as usize];
            if let Some(lane) = warp::outside_own_mask(&self.mask, masks) {
                return Err(RunError::LaneNotInMask {
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(lane),
                    lane: (lane % 32) as u32,
                    mask: masks[lane],
                });
            }
            if let Some((lane, missing)) =
                warp::inactive_in_mask(&self.mask, &self.returned, &self.regs.w[m.0 as usize])
            {
                return Err(RunError::DivergentWarp {
                    span: self.ir.spans[pc],
                    block: self.block,
                    thread: self.cfg.thread_of(lane),
                    missing: self.cfg.thread_of(missing),
                    mask: self.regs.w[m.0 as usize][lane],
                });
            }
        }
        match inst {
            Inst::Shfl {
                kind,
                ty,
                d,
                v,
                arg,
                width,
                strict,
                ..
            } => {
                let r = warp::ShflRegs {
                    d,
                    v,
                    arg,
                    width,
                    strict,
                };
                let lanes = (&self.mask[..], &self.returned[..]);
                let result =
                    bank_ty!(bank_of(ty), S => warp::shuffle::<S>(&mut self.regs, lanes, kind, &r));
                match result {
                    Ok(()) => {}
                    Err(warp::ShuffleFault::Width(lane)) => {
                        return Err(RunError::ShuffleWidth {
                            span: self.ir.spans[pc],
                            width: self.regs.w[width.0 as usize][lane],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                        })
                    }
                    Err(warp::ShuffleFault::Exited(lane, from)) => {
                        return Err(RunError::ShuffleFromExited {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                            from: self.cfg.thread_of(from),
                        })
                    }
                    Err(warp::ShuffleFault::Missing(lane, from)) => {
                        return Err(RunError::ShuffleFromMissing {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                            from,
                            lanes: (self.mask.len() - (lane & !31)).min(32) as u32,
                        })
                    }
                }
            }
            Inst::Vote {
                kind,
                d,
                pred,
                mask,
            } => warp::vote(&mut self.regs, &self.mask, kind, d, pred, mask),
            Inst::WarpFold {
                kind,
                ty,
                d,
                v,
                mask,
            } => warp::fold(&mut self.regs, &self.mask, kind, ty, (d, v, mask)),
            Inst::ActiveMask { d } => warp::active_mask(&mut self.regs, &self.mask, d),
            _ => {}
        }
        Ok(())
    }

    /// Arithmetic, comparisons, casts and math calls.
    fn compute(&mut self, pc: usize, inst: Inst) -> Result<(), RunError> {
        let lanes = Lanes {
            mask: &self.mask,
            full: self.full,
        };
        let regs = &mut self.regs;
        match inst {
            Inst::Arith { op, ty, d, a, b } => {
                if matches!(op, ArithOp::Div | ArithOp::Rem) && ty.is_integer() {
                    let zero = match bank_of(ty) {
                        Bank::W => regs::zero_lane::<u32>(regs, &lanes, b),
                        _ => regs::zero_lane::<u64>(regs, &lanes, b),
                    };
                    if let Some(lane) = zero {
                        return Err(RunError::DivisionByZero {
                            span: self.ir.spans[pc],
                            block: self.block,
                            thread: self.cfg.thread_of(lane),
                        });
                    }
                }
                match op {
                    ArithOp::Shl
                    | ArithOp::Shr
                    | ArithOp::And
                    | ArithOp::Or
                    | ArithOp::Xor
                    | ArithOp::Mul24
                    | ArithOp::MulHi => {
                        int_ty!(ty, T => bits::<T>(regs, &lanes, op, d, a, b))
                    }
                    _ => num_ty!(ty, T => arith::<T>(regs, &lanes, op, d, a, b)),
                }
            }
            Inst::Cmp { op, ty, d, a, b } => {
                if ty == Scalar::Bool {
                    map2::<bool, bool>(regs, &lanes, d, a, b, |x, y| op.apply(x, y));
                } else {
                    num_ty!(ty, T => compare::<T>(regs, &lanes, op, d, a, b));
                }
            }
            Inst::Neg { ty, d, a } => {
                num_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(T::neg(T::ld(x)))))
            }
            Inst::BitNot { ty, d, a } => {
                int_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(T::not(T::ld(x)))))
            }
            Inst::Not { d, a } => map1::<bool, bool>(regs, &lanes, d, a, |x| !x),
            Inst::Logic { and, d, a, b } => {
                map2::<bool, bool>(
                    regs,
                    &lanes,
                    d,
                    a,
                    b,
                    |x, y| if and { x && y } else { x || y },
                )
            }
            Inst::Cast { from, to, d, a } => cast(regs, &lanes, from, to, d, a),
            Inst::Round { from, to, d, a } => cast(regs, &lanes, from, to, d, a),
            Inst::Directed {
                from,
                to,
                dir,
                d,
                a,
            } => directed(regs, &lanes, (from, to, dir), d, a),
            Inst::Select { ty, d, c, a, b } => {
                bank_ty!(bank_of(ty), S => select::<S>(regs, &lanes, d, c, a, b))
            }
            Inst::Math1 { f, ty, d, a } => {
                float_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(T::math1(f, T::ld(x)))))
            }
            Inst::Math2 { f, ty, d, a, b } => {
                float_ty!(ty, T => map2(regs, &lanes, d, a, b, |x, y| T::st(T::math2(f, T::ld(x), T::ld(y)))))
            }
            Inst::Rounded { op, dir, ty, d, a } => {
                use crate::value::rounded;
                if ty == Scalar::F64 {
                    map3::<f64>(regs, &lanes, d, a, |x, y, z| {
                        rounded(op, ty, dir, [x, y, z])
                    })
                } else {
                    map3::<f32>(regs, &lanes, d, a, |x, y, z| {
                        rounded(op, ty, dir, [x, y, z].map(f64::from)) as f32
                    })
                }
            }
            Inst::Fma { ty, d, a, b, c } => {
                float_ty!(ty, T => map3(regs, &lanes, d, [a, b, c], |x, y, z| T::st(T::fma(T::ld(x), T::ld(y), T::ld(z)))))
            }
            // A 16-bit float's bits (`__half_as_ushort`, a `ushort*` view of `half` memory) are
            // those of the `half` the register's `float` holds; and back.
            Inst::Bits { from, ty, d, a, .. } if from.is_half() || ty.is_half() => {
                half_bits(regs, &lanes, from, ty, d, a)
            }
            // Bit casts between a float and an integer of its width: the register's bits.
            Inst::Bits { from, d, a, .. } if bank_of(from) == Bank::F => {
                map1::<f32, u32>(regs, &lanes, d, a, f32::to_bits)
            }
            Inst::Bits { ty, d, a, .. } if bank_of(ty) == Bank::F => {
                map1::<u32, f32>(regs, &lanes, d, a, f32::from_bits)
            }
            Inst::Bits { from, d, a, .. } if bank_of(from) == Bank::G => {
                map1::<f64, u64>(regs, &lanes, d, a, f64::to_bits)
            }
            Inst::Bits { ty, d, a, .. } if bank_of(ty) == Bank::G => {
                map1::<u64, f64>(regs, &lanes, d, a, f64::from_bits)
            }
            Inst::Bits { op, from, ty, d, a } => match (bank_of(from), bank_of(ty)) {
                (Bank::W, _) => {
                    map1::<u32, u32>(regs, &lanes, d, a, |x| op.apply(u64::from(x), 32) as u32)
                }
                (_, Bank::W) => map1::<u64, u32>(regs, &lanes, d, a, |x| op.apply(x, 64) as u32),
                _ => map1::<u64, u64>(regs, &lanes, d, a, |x| op.apply(x, 64)),
            },
            Inst::Bits3 { op, d, a, b, c } => {
                map3::<u32>(regs, &lanes, d, [a, b, c], |x, y, z| op.apply(x, y, z))
            }
            Inst::Abs { ty, d, a } => {
                // `Num::abs`, not the inherent `i32::abs`, which panics on `INT_MIN` in debug builds.
                num_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(<T as Num>::abs(T::ld(x)))))
            }
            Inst::Xorwow {
                word,
                sequence,
                d,
                v,
                n,
            } => xorwow(regs, &lanes, d, (v, n), word, sequence),
            other => unreachable!("block: {other:?} is handled by the control loop"),
        }
        Ok(())
    }
}

/// Stamps out one monomorphised lane loop per operator, so the operation inlines into the loop.
macro_rules! lanes2 {
    ($regs:expr, $m:expr, $d:expr, $a:expr, $b:expr, $T:ty, $f:expr) => {
        map2($regs, $m, $d, $a, $b, |x, y| {
            <$T>::st($f(<$T>::ld(x), <$T>::ld(y)))
        })
    };
}

fn arith<T: Lane>(regs: &mut RegFile, m: &Lanes<'_>, op: ArithOp, d: Reg, a: Reg, b: Reg) {
    match op {
        ArithOp::Add => lanes2!(regs, m, d, a, b, T, T::add),
        ArithOp::Sub => lanes2!(regs, m, d, a, b, T, T::sub),
        ArithOp::Mul => lanes2!(regs, m, d, a, b, T, T::mul),
        ArithOp::Min => lanes2!(regs, m, d, a, b, T, T::min),
        ArithOp::Max => lanes2!(regs, m, d, a, b, T, T::max),
        // Zero divisors were rejected before this runs.
        ArithOp::Div => lanes2!(regs, m, d, a, b, T, |x, y| T::div(x, y).unwrap_or_default()),
        ArithOp::Rem => lanes2!(regs, m, d, a, b, T, |x, y| T::rem(x, y).unwrap_or_default()),
        other => unreachable!("block: {other:?} is a bit operator"),
    }
}

fn compare<T: Lane>(regs: &mut RegFile, m: &Lanes<'_>, op: CmpOp, d: Reg, a: Reg, b: Reg) {
    let f = |regs: &mut RegFile, g: fn(&T, &T) -> bool| {
        map2::<T::S, bool>(regs, m, d, a, b, |x, y| g(&T::ld(x), &T::ld(y)))
    };
    match op {
        CmpOp::Lt => f(regs, T::lt),
        CmpOp::Le => f(regs, T::le),
        CmpOp::Gt => f(regs, T::gt),
        CmpOp::Ge => f(regs, T::ge),
        CmpOp::Eq => f(regs, T::eq),
        CmpOp::Ne => f(regs, T::ne),
    }
}

fn bits<T: Lane + Int>(regs: &mut RegFile, m: &Lanes<'_>, op: ArithOp, d: Reg, a: Reg, b: Reg) {
    match op {
        ArithOp::Shl => lanes2!(regs, m, d, a, b, T, T::shl),
        ArithOp::Shr => lanes2!(regs, m, d, a, b, T, T::shr),
        ArithOp::And => lanes2!(regs, m, d, a, b, T, T::and),
        ArithOp::Or => lanes2!(regs, m, d, a, b, T, T::or),
        ArithOp::Xor => lanes2!(regs, m, d, a, b, T, T::xor),
        ArithOp::Mul24 => lanes2!(regs, m, d, a, b, T, T::mul24),
        ArithOp::MulHi => lanes2!(regs, m, d, a, b, T, T::mulhi),
        other => unreachable!("block: {other:?} is not a bit operator"),
    }
}

/// The 16 bits of `a`, of type `from`, seen as the type `to` of the same size (one of them a
/// 16-bit float, which a register holds as the `float` of its value).
fn half_bits(regs: &mut RegFile, m: &Lanes<'_>, from: Scalar, to: Scalar, d: Reg, a: Reg) {
    fn bits_of(ty: Scalar, x: f32) -> u16 {
        match ty {
            Scalar::F16 => half::f16::from_f32(x).to_bits(),
            _ => half::bf16::from_f32(x).to_bits(),
        }
    }
    fn value_of(ty: Scalar, b: u16) -> f32 {
        match ty {
            Scalar::F16 => half::f16::from_bits(b).to_f32(),
            _ => half::bf16::from_bits(b).to_f32(),
        }
    }
    match (from.is_half(), to.is_half()) {
        (true, true) => map1::<f32, f32>(regs, m, d, a, |x| value_of(to, bits_of(from, x))),
        (true, false) => map1::<f32, u32>(regs, m, d, a, |x| {
            let b = bits_of(from, x);
            // A `short` register holds the bits sign-extended, an `unsigned short` zero-extended.
            if to.is_signed() {
                i32::from(b as i16) as u32
            } else {
                u32::from(b)
            }
        }),
        _ => map1::<u32, f32>(regs, m, d, a, |x| value_of(to, x as u16)),
    }
}

/// C conversions between register types, including `bool`, truncation to narrow integers and
/// rounding to 16-bit floats.
fn cast(regs: &mut RegFile, m: &Lanes<'_>, from: Scalar, to: Scalar, d: Reg, a: Reg) {
    let narrow = to.promoted() != to;
    if from == Scalar::Bool {
        num_ty!(to.promoted(), D => map1::<bool, <D as Lane>::S>(regs, m, d, a, |x| D::st(convert::<i32, D>(i32::from(x)))));
    } else if to == Scalar::Bool {
        num_ty!(from, S => map1::<<S as Lane>::S, bool>(regs, m, d, a, |x| !S::ld(x).is_zero()));
    } else if to.is_half() {
        num_ty!(from, S => map1::<<S as Lane>::S, f32>(regs, m, d, a, |x| {
            crate::value::round_half(S::ld(x).widen().2, to)
        }));
    } else if narrow {
        let float = from.is_float();
        num_ty!(from, S => map1::<<S as Lane>::S, u32>(regs, m, d, a, |x| {
            if float {
                // A float saturates to the narrow type's own range (PTX `cvt.rzi.sat`), NaN
                // to 0, as the constant folder does.
                let f = S::ld(x).widen().2;
                return (match to {
                    Scalar::I8 => i32::from(f as i8),
                    Scalar::U8 => i32::from(f as u8),
                    Scalar::I16 => i32::from(f as i16),
                    _ => i32::from(f as u16),
                }) as u32;
            }
            // Integers wrap to the narrow width.
            let v: i32 = convert::<S, i32>(S::ld(x));
            (match to {
                Scalar::I8 => i32::from(v as i8),
                Scalar::U8 => i32::from(v as u8),
                Scalar::I16 => i32::from(v as i16),
                _ => i32::from(v as u16),
            }) as u32
        }));
    } else {
        num_ty!(from, S => num_ty!(to, D => map1::<<S as Lane>::S, <D as Lane>::S>(regs, m, d, a, |x| D::st(convert::<S, D>(S::ld(x))))));
    }
}

/// `d` = `a` (of type `from`) rounded to the float type `to` in direction `dir`.
fn directed(
    regs: &mut RegFile,
    m: &Lanes<'_>,
    (from, to, dir): (Scalar, Scalar, crate::value::Direction),
    d: Reg,
    a: Reg,
) {
    use crate::value::{round_directed, Exact};
    let exact = move |(i, u, f): (i64, u64, f64)| {
        if from.is_float() {
            Exact::Float(f)
        } else if from.is_signed() {
            Exact::Int(i128::from(i))
        } else {
            Exact::Int(i128::from(u))
        }
    };
    if to == Scalar::F64 {
        num_ty!(from.promoted(), S => map1::<<S as Lane>::S, f64>(regs, m, d, a, |x| round_directed(exact(S::ld(x).widen()), to, dir)));
    } else {
        num_ty!(from.promoted(), S => map1::<<S as Lane>::S, f32>(regs, m, d, a, |x| round_directed(exact(S::ld(x).widen()), to, dir) as f32));
    }
}

fn fill_value(regs: &mut RegFile, r: Reg, ty: Scalar, v: crate::value::Value) {
    use crate::value::Value;
    match v.cast(ty) {
        Value::Bool(x) => fill(regs, r, x),
        Value::I32(x) => fill(regs, r, x as u32),
        Value::U32(x) => fill(regs, r, x),
        Value::I64(x) => fill(regs, r, x as u64),
        Value::U64(x) => fill(regs, r, x),
        Value::F32(x) => fill(regs, r, x),
        Value::F64(x) => fill(regs, r, x),
    }
}

/// What to say of a loop (its instructions `body`) that does not end: one that reads global
/// memory may be waiting for another block, which in simt never runs beside it.
fn endless_loop_help(body: &[Inst]) -> String {
    let reads_global = body.iter().any(|i| {
        matches!(
            i,
            Inst::Load {
                space: Space::Global(_),
                ..
            } | Inst::LoadVec {
                space: Space::Global(_),
                ..
            } | Inst::Atomic {
                space: Space::Global(_),
                ..
            }
        )
    });
    let mut help = "this loop does not end for some thread: check that its condition can become false (the variable it tests changes, with the right sign and type)".to_string();
    if reads_global {
        help.push_str("; it reads global memory: if it waits for another block to write there (a grid barrier or a lock built of atomics and a spin), it cannot end here, as simt runs a launch's blocks one after another (a GPU runs only as many at once as fit, so such a wait is not safe there either); use `cooperative_groups::this_grid().sync()` in a cooperative launch (`cooperative;`)");
    }
    help.push_str(
        "; if one block really does this much work, raise the limit with --max-block-steps",
    );
    help
}
