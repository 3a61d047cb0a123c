//! Runs one thread block: the instruction loop over lane arrays, the mask stack, barriers and memory.

use super::cells::{with_cells, Cells};
use super::counters::InstCounters;
use super::error::RunError;
use super::memory::{self, with_data, BufData};
use super::memory::{Extent, Global, Plain, Slots};
use super::probe::WarpAccess;
use super::race::{History, Race, RaceKind};
use super::regs::{self, fill, map1, map2, map3, select, Lane, Lanes, RegFile};
use super::{atomic, warp, GlobalBuf, LaunchConfig};
use crate::ir::{bank_of, Bank, Input, Inst, KernelIr, Reg, Space};
use crate::value::{convert, ArithOp, CmpOp, Float, Int, Num, Scalar};
use std::sync::atomic::{AtomicU64, Ordering};

/// Local warp instructions between updates of the launch-wide step count.
const STEP_FLUSH: u64 = 1 << 16;

/// Most races described in a report (all are counted).
pub(crate) const MAX_RACE_DETAILS: usize = 10;

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

/// The kind of a memory access, for the counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Load,
    Store,
    Atomic,
}

impl Access {
    /// One global warp request of this kind touching `sectors` sectors.
    fn count_global(self, c: &mut InstCounters, sectors: u64) {
        let (instr, counted) = match self {
            Access::Load => (&mut c.gld_instr, &mut c.gld_sectors),
            Access::Store => (&mut c.gst_instr, &mut c.gst_sectors),
            Access::Atomic => (&mut c.gatom_instr, &mut c.gatom_sectors),
        };
        *instr += 1;
        *counted += sectors;
    }

    /// One shared warp instruction of this kind (atomics count as stores) in `wavefronts`.
    fn count_shared(self, c: &mut InstCounters, wavefronts: u64, ideal: u64) {
        c.smem_ideal_wavefronts += ideal;
        let (instr, counted) = match self {
            Access::Load => (&mut c.smem_ld_instr, &mut c.smem_ld_wavefronts),
            Access::Store | Access::Atomic => (&mut c.smem_st_instr, &mut c.smem_st_wavefronts),
        };
        *instr += 1;
        *counted += wavefronts;
    }
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
#[derive(Debug, Default)]
struct Frame {
    saved: Vec<bool>,
    cont: Vec<bool>,
    kind: FrameKind,
}

/// One shared array of the running block.
#[derive(Debug)]
struct SharedArr {
    name: String,
    data: BufData,
    history: History,
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
    idx: Vec<i64>,
    /// Per warp: the lowest and highest index of its active lanes (`(MAX, MIN)` when none).
    spans: Vec<Extent>,
    /// Component indices of a vector access.
    comp: Vec<i64>,
    scratch: Vec<i64>,
    epoch: u64,
    local_epoch: u32,
    block: [u32; 3],
    /// Events per instruction, summed over the blocks this runner ran.
    pub(crate) counters: Vec<InstCounters>,
    /// The first races described, in block order.
    pub(crate) races: Vec<Race>,
    /// Warp instructions issued since the last flush into `budget`.
    steps: u64,
    /// Warp instructions issued by the whole launch, shared by the workers (for `--max-steps`).
    budget: &'a AtomicU64,
    /// Per instruction: the first warp's lanes of a memory instruction (for lane maps).
    pub(crate) first_access: Vec<Option<WarpAccess>>,
    /// Per instruction: whether this barrier separated conflicting accesses of two warps.
    pub(crate) barrier_protects: Vec<bool>,
    /// The barrier that began the current epoch of this block.
    last_barrier: Option<usize>,
}

impl<'a> BlockRunner<'a> {
    pub(crate) fn new(
        ir: &'a KernelIr,
        cfg: &'a LaunchConfig,
        shared_lens: &[usize],
        budget: &'a AtomicU64,
    ) -> BlockRunner<'a> {
        let lanes = cfg.threads_per_block() as usize;
        let mut regs = RegFile::new(ir, lanes);
        for &(r, ty, input) in &ir.inputs {
            let v = match input {
                Input::Const(v) => Some(v),
                Input::BlockDim(a) => Some(crate::value::Value::U32(cfg.block[a as usize])),
                Input::GridDim(a) => Some(crate::value::Value::U32(cfg.grid[a as usize])),
                Input::ThreadIdx(a) => {
                    let w = &mut regs.w[r.0 as usize];
                    for (l, x) in w.iter_mut().enumerate() {
                        *x = cfg.thread_of(l)[a as usize];
                    }
                    None
                }
                Input::BlockIdx(_) | Input::Param(_) => None,
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
            idx: vec![0; lanes],
            spans: vec![(0, 0); lanes.div_ceil(32)],
            comp: vec![0; lanes],
            scratch: Vec::with_capacity(64),
            epoch: 0,
            local_epoch: 0,
            block: [0; 3],
            counters: vec![InstCounters::default(); ir.insts.len()],
            races: Vec::new(),
            steps: 0,
            first_access: vec![None; ir.insts.len()],
            barrier_protects: vec![false; ir.insts.len()],
            last_barrier: None,
            budget,
        }
    }

    /// Runs block `block` to completion.
    pub(crate) fn run(
        &mut self,
        block: [u32; 3],
        scalars: &[Option<crate::value::Value>],
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        self.block = block;
        for &(r, ty, input) in &self.ir.inputs {
            match input {
                Input::BlockIdx(a) => fill(&mut self.regs, r, block[a as usize]),
                Input::Param(p) => {
                    let v =
                        scalars[p as usize].expect("pipeline: every scalar parameter has a value");
                    fill_value(&mut self.regs, r, ty, v.cast(ty));
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
        self.epoch += 1;
        self.local_epoch = 0;
        self.last_barrier = None;
        let insts = &self.ir.insts;
        let mut pc = 0usize;
        while pc < insts.len() {
            let inst = insts[pc];
            let mut next = pc + 1;
            match inst {
                Inst::If { c, else_at } => {
                    self.branch(pc, c);
                    self.push(FrameKind::Branch);
                    self.and_mask(c, false);
                    if self.lanes_active == 0 {
                        next = else_at as usize;
                    }
                }
                Inst::Else { c, end_at } => {
                    let f = &self.frames[self.depth - 1];
                    let cond = &self.regs.b[c.0 as usize];
                    for ((m, &s), &x) in self.mask.iter_mut().zip(&f.saved).zip(cond) {
                        *m = s && !x;
                    }
                    self.update_mask();
                    if self.lanes_active == 0 {
                        next = end_at as usize;
                    }
                }
                Inst::EndIf | Inst::LoopEnd | Inst::MaskPop | Inst::FnEnd => self.pop(),
                Inst::LoopBegin => self.push(FrameKind::Loop),
                Inst::FnBegin => self.push(FrameKind::Func),
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
                    if self.lanes_active > 0 {
                        next = head as usize;
                    }
                }
                Inst::MaskPush { c, negate, skip_to } => {
                    self.push(FrameKind::Branch);
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
                Inst::Barrier => self.barrier(pc)?,
                Inst::Load {
                    space,
                    elem,
                    d,
                    idx,
                    idx_ty,
                } => {
                    self.issue(pc);
                    self.memory(pc, space, elem, 1, (idx, idx_ty), Err([d; 4]), globals)?;
                }
                Inst::Store {
                    space,
                    elem,
                    idx,
                    idx_ty,
                    v,
                } => {
                    self.issue(pc);
                    self.memory(pc, space, elem, 1, (idx, idx_ty), Ok([v; 4]), globals)?;
                }
                Inst::Shfl { .. }
                | Inst::Vote { .. }
                | Inst::ActiveMask { .. }
                | Inst::SyncWarp { .. } => {
                    self.issue(pc);
                    self.warp_op(pc, inst)?;
                }
                Inst::Atomic {
                    op,
                    space,
                    elem,
                    d,
                    idx,
                    idx_ty,
                    v,
                    cmp,
                } => {
                    self.issue(pc);
                    self.atomic(pc, op, space, elem, [d, idx, v], idx_ty, cmp, globals)?;
                }
                Inst::LoadVec {
                    space,
                    elem,
                    width,
                    d,
                    idx,
                    idx_ty,
                } => {
                    self.issue(pc);
                    self.memory(
                        pc,
                        space,
                        elem,
                        u32::from(width),
                        (idx, idx_ty),
                        Err(d),
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
                    self.issue(pc);
                    self.memory(
                        pc,
                        space,
                        elem,
                        u32::from(width),
                        (idx, idx_ty),
                        Ok(v),
                        globals,
                    )?;
                }
                Inst::Mov { ty, d, a } => {
                    let lanes = Lanes {
                        mask: &self.mask,
                        full: self.full,
                    };
                    bank_ty!(bank_of(ty), S => map1::<S, S>(&mut self.regs, &lanes, d, a, |x| x));
                }
                _ => {
                    self.issue(pc);
                    self.compute(pc, inst)?;
                }
            }
            pc = next;
        }
        Ok(())
    }

    /// Adds the local step count to the launch's; past `--max-steps` the loop at `pc` is blamed.
    pub(crate) fn flush_steps(&mut self, pc: usize) -> Result<(), RunError> {
        let total = self.budget.fetch_add(self.steps, Ordering::Relaxed) + self.steps;
        self.steps = 0;
        if total > self.cfg.max_steps {
            return Err(RunError::StepLimit {
                limit: self.cfg.max_steps,
                span: self.ir.spans[pc],
                block: self.block,
            });
        }
        Ok(())
    }

    /// Takes the events counted so far, leaving zeros.
    pub(crate) fn take_counters(&mut self) -> Vec<InstCounters> {
        let fresh = vec![InstCounters::default(); self.counters.len()];
        std::mem::replace(&mut self.counters, fresh)
    }

    /// Adds the current warps and lanes to instruction `pc` (one warp instruction per warp with an active lane).
    #[inline]
    fn issue(&mut self, pc: usize) {
        let c = &mut self.counters[pc];
        c.warp_instr += self.warps_active;
        c.active_lane_slots += self.lanes_active;
        self.steps += self.warps_active;
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

    fn push(&mut self, kind: FrameKind) {
        if self.depth == self.frames.len() {
            self.frames.push(Frame::default());
        }
        let f = &mut self.frames[self.depth];
        f.saved.clear();
        f.saved.extend_from_slice(&self.mask);
        f.kind = kind;
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

    fn barrier(&mut self, pc: usize) -> Result<(), RunError> {
        let missing = self
            .mask
            .iter()
            .zip(&self.returned)
            .position(|(&m, &r)| !m && !r);
        if let Some(lane) = missing {
            let live = self.returned.iter().filter(|&&r| !r).count() as u32;
            return Err(RunError::DivergentBarrier {
                span: self.ir.spans[pc],
                block: self.block,
                missing: self.cfg.thread_of(lane),
                arrived: self.lanes_active as u32,
                live,
            });
        }
        if self.lanes_active == 0 {
            // Every thread of the block has returned: no barrier executes.
            return Ok(());
        }
        self.issue(pc);
        self.counters[pc].barriers += 1;
        self.epoch += 1;
        self.local_epoch += 1;
        self.last_barrier = Some(pc);
        Ok(())
    }

    /// Indices of the active lanes as `i64`.
    fn indices(&mut self, idx: Reg, idx_ty: Scalar) {
        match idx_ty {
            Scalar::I32 => {
                for (o, &x) in self.idx.iter_mut().zip(&self.regs.w[idx.0 as usize]) {
                    *o = i64::from(x as i32);
                }
            }
            Scalar::U32 => {
                for (o, &x) in self.idx.iter_mut().zip(&self.regs.w[idx.0 as usize]) {
                    *o = i64::from(x);
                }
            }
            _ => {
                for (o, &x) in self.idx.iter_mut().zip(&self.regs.d[idx.0 as usize]) {
                    *o = x as i64;
                }
            }
        }
    }

    /// Each warp's span of indices, scanned in the index register's own width.
    fn warp_spans(&mut self, idx: Reg, idx_ty: Scalar) {
        let (mask, full, out) = (&self.mask, self.full, &mut self.spans);
        let w = &self.regs.w;
        match idx_ty {
            Scalar::I32 => memory::warp_spans(&w[idx.0 as usize], |x| x as i32, mask, full, out),
            Scalar::U32 => memory::warp_spans(&w[idx.0 as usize], |x| x, mask, full, out),
            _ => memory::warp_spans(&self.idx, |x| x, mask, full, out),
        }
    }

    fn oob(
        &self,
        pc: usize,
        space: Space,
        (lane, idx_ty): (usize, Scalar),
        width: u32,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> RunError {
        let (kind, name, len) = match space {
            Space::Global(p) => {
                let b = global(globals, p);
                ("global", b.name.to_string(), b.cells.len())
            }
            Space::Shared(s) => {
                let a = &self.shared[s as usize];
                ("shared", a.name.clone(), a.data.len())
            }
        };
        let index = match idx_ty {
            Scalar::U64 => i128::from(self.idx[lane] as u64),
            _ => i128::from(self.idx[lane]),
        };
        let help = if index < 0 {
            "the index is negative; check the arithmetic that computes it".to_string()
        } else if kind == "global" {
            format!("guard the access with a bounds check such as `if (i < n)`; the grid has more threads than `{name}` has elements")
        } else {
            format!("`{name}` is sized for fewer threads than this block has; check the block size and the index")
        };
        RunError::OutOfBounds {
            space: kind,
            buffer: name,
            index,
            len: len as u64 / u64::from(width),
            span: self.ir.spans[pc],
            block: self.block,
            thread: self.cfg.thread_of(lane),
            help,
        }
    }

    fn mem_len(&self, space: Space, globals: &[Option<GlobalBuf<'_>>]) -> usize {
        match space {
            Space::Global(p) => global(globals, p).cells.len(),
            Space::Shared(s) => self.shared[s as usize].data.len(),
        }
    }

    /// A load (`Err(d)`) or store (`Ok(v)`) of `width` components per lane (1, or 2/4 for a vector):
    /// bounds, one request in the counters, races, then the data one component at a time.
    #[allow(clippy::too_many_arguments)]
    fn memory(
        &mut self,
        pc: usize,
        space: Space,
        elem: Scalar,
        width: u32,
        (idx, idx_ty): (Reg, Scalar),
        regs: Result<[Reg; 4], [Reg; 4]>,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        self.indices(idx, idx_ty);
        let len = (self.mem_len(space, globals) / width as usize) as i64;
        // Every lane active and each warp on consecutive elements (the coalesced case, e.g. a row
        // of a 2-D block): spans, bounds and counts by arithmetic, data moved without masks.
        let runs = memory::warp_runs(&self.idx, self.full);
        if runs {
            let lanes = self.idx.len();
            for (w, s) in self.spans.iter_mut().enumerate() {
                *s = (self.idx[32 * w], self.idx[(32 * w + 31).min(lanes - 1)]);
            }
        } else {
            self.warp_spans(idx, idx_ty);
        }
        if let Some(lane) = memory::out_of_bounds(&self.idx, &self.mask, len as usize, &self.spans)
        {
            return Err(self.oob(pc, space, (lane, idx_ty), width, globals));
        }
        let is_store = regs.is_ok();
        let access = if is_store {
            Access::Store
        } else {
            Access::Load
        };
        if runs {
            self.account_runs(pc, space, elem.size() * width, access);
        } else {
            self.account(pc, space, elem.size() * width, access);
        }
        if let (Space::Global(p), true) = (space, is_store) {
            // Runs are distinct within a warp: only overlapping spans of two warps can collide.
            let disjoint = runs && self.spans.windows(2).all(|w| w[0].1 < w[1].0);
            if !disjoint
                && memory::has_duplicate(&self.idx, &self.mask, self.full, &mut self.scratch)
            {
                let lanes = first_duplicate(&self.idx, &self.mask);
                let race = Race {
                    kind: RaceKind::GlobalDuplicate,
                    block: self.block,
                    epoch: self.local_epoch,
                    array: global(globals, p).name.to_string(),
                    index: self.idx[lanes.1],
                    warp: (lanes.1 / 32) as u32,
                    other_warp: (lanes.0 / 32) as u32,
                    inst: pc as u32,
                    other_inst: pc as u32,
                };
                self.race(pc, Some(race));
            }
        }
        let mut race = None;
        for k in 0..width as usize {
            if width > 1 {
                for (o, &i) in self.comp.iter_mut().zip(&self.idx) {
                    *o = i * i64::from(width) + k as i64;
                }
            }
            let ix: &[i64] = if width > 1 { &self.comp } else { &self.idx };
            let whole = (runs && width == 1).then_some(&self.spans[..]);
            let reg = match regs {
                Ok(v) => Ok(v[k]),
                Err(d) => Err(d[k]),
            };
            match space {
                Space::Global(p) => {
                    with_cells!(&global(globals, p).cells, c => transfer(&mut Global(c), (ix, whole), (&self.mask, self.full), &mut self.regs, reg))
                }
                Space::Shared(s) => {
                    let arr = &mut self.shared[s as usize];
                    with_data!(&mut arr.data, v => transfer(&mut Plain(&mut v[..]), (ix, whole), (&self.mask, self.full), &mut self.regs, reg));
                    let ctx = RaceContext {
                        pc: pc as u32,
                        epoch: self.epoch,
                        local_epoch: self.local_epoch,
                        block: self.block,
                    };
                    // Only until the barrier is known to protect something: keeps the common case one branch.
                    let barrier = self.last_barrier.filter(|&b| !self.barrier_protects[b]);
                    let (found, crossed) = track(
                        arr,
                        (&self.mask, ix, &self.spans),
                        (width, k, runs),
                        is_store,
                        barrier.is_some(),
                        &ctx,
                    );
                    if let (Some(b), true) = (barrier, crossed) {
                        self.barrier_protects[b] = true;
                    }
                    race = race.or(found);
                }
            }
        }
        self.race(pc, race);
        Ok(())
    }

    /// `account` when every warp's lanes are on consecutive elements (`spans`): no sorting needed.
    /// Global: each warp's run of elements spans `run_sectors`. Shared: a phase's consecutive
    /// words (at most 32) fall in distinct banks, so each active phase is one wavefront, the ideal.
    fn account_runs(&mut self, pc: usize, space: Space, size: u32, access: Access) {
        if self.first_access[pc].is_none() {
            self.first_access[pc] =
                WarpAccess::capture(self.block, space, size, &self.idx, &self.mask);
        }
        let c = &mut self.counters[pc];
        let phase = match size {
            8 => 16,
            16 => 8,
            _ => 32,
        };
        for &(lo, hi) in &self.spans {
            let n = hi - lo + 1;
            match space {
                Space::Global(_) => {
                    let sectors = memory::run_sectors(lo, n, size);
                    c.g_bytes_requested += n as u64 * u64::from(size);
                    access.count_global(c, sectors);
                }
                Space::Shared(_) => {
                    let phases = ((n + phase - 1) / phase) as u64;
                    access.count_shared(c, phases, phases);
                }
            }
        }
    }

    /// Sectors (global) or wavefronts (shared) of one memory instruction, warp by warp.
    fn account(&mut self, pc: usize, space: Space, size: u32, access: Access) {
        if self.first_access[pc].is_none() {
            self.first_access[pc] =
                WarpAccess::capture(self.block, space, size, &self.idx, &self.mask);
        }
        let c = &mut self.counters[pc];
        let full = self.full;
        for ((ix, m), &(lo, hi)) in self
            .idx
            .chunks(32)
            .zip(self.mask.chunks(32))
            .zip(&self.spans)
        {
            if lo > hi {
                continue;
            }
            match space {
                // Elements of at most a word within 32 of each other are words within 32 of each
                // other: distinct banks or one word, one wavefront.
                Space::Shared(_) if size <= 4 && hi - lo < 32 => access.count_shared(c, 1, 1),
                Space::Global(_) => {
                    let sectors = memory::warp_sectors(ix, m, size, full, &mut self.scratch);
                    let active = if full {
                        m.len() as u64
                    } else {
                        m.iter().filter(|&&x| x).count() as u64
                    };
                    c.g_bytes_requested += active * u64::from(size);
                    access.count_global(c, sectors);
                }
                Space::Shared(_) => {
                    let (wf, ideal) = memory::warp_wavefronts(ix, m, size, &mut self.scratch);
                    access.count_shared(c, wf, ideal);
                }
            }
        }
    }

    /// Counts a racing instruction execution and keeps its description.
    fn race(&mut self, pc: usize, race: Option<Race>) {
        if let Some(r) = race {
            self.counters[pc].race_count += 1;
            self.describe(r);
        }
    }

    fn describe(&mut self, race: Race) {
        if self.races.len() < MAX_RACE_DETAILS {
            self.races.push(race);
        }
    }

    /// Shuffles, votes, `__activemask()` and `__syncwarp()`.
    fn warp_op(&mut self, pc: usize, inst: Inst) -> Result<(), RunError> {
        let mask_reg = match inst {
            Inst::Shfl { mask, .. } | Inst::Vote { mask, .. } | Inst::SyncWarp { mask } => {
                Some(mask)
            }
            _ => None,
        };
        if let Some(m) = mask_reg {
            if let Some((lane, missing)) =
                warp::inactive_in_mask(&self.mask, &self.regs.w[m.0 as usize])
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
                ..
            } => {
                let r = warp::ShflRegs { d, v, arg, width };
                let result = bank_ty!(bank_of(ty), S => warp::shuffle::<S>(&mut self.regs, &self.mask, kind, &r));
                if let Err(lane) = result {
                    return Err(RunError::ShuffleWidth {
                        span: self.ir.spans[pc],
                        width: self.regs.w[width.0 as usize][lane],
                        block: self.block,
                        thread: self.cfg.thread_of(lane),
                    });
                }
            }
            Inst::Vote {
                kind,
                d,
                pred,
                mask,
            } => warp::vote(&mut self.regs, &self.mask, kind, d, pred, mask),
            Inst::ActiveMask { d } => warp::active_mask(&mut self.regs, &self.mask, d),
            _ => {}
        }
        Ok(())
    }

    /// An atomic: bounds-checked, counted like a memory access, applied in lane order, never a race.
    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        pc: usize,
        op: crate::value::AtomicOp,
        space: Space,
        elem: Scalar,
        [d, idx, v]: [Reg; 3],
        idx_ty: Scalar,
        cmp: Option<Reg>,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        self.indices(idx, idx_ty);
        self.warp_spans(idx, idx_ty);
        let len = self.mem_len(space, globals);
        if let Some(lane) = memory::out_of_bounds(&self.idx, &self.mask, len, &self.spans) {
            return Err(self.oob(pc, space, (lane, idx_ty), 1, globals));
        }
        self.account(pc, space, elem.size(), Access::Atomic);
        let regs = [d, v, cmp.unwrap_or(v)];
        let (ix, mask) = (&self.idx, &self.mask);
        macro_rules! rmw {
            ($slots:expr, $signed:expr) => {
                atomic::apply($slots, $signed, op, ix, mask, &mut self.regs, regs)
            };
        }
        match space {
            Space::Global(p) => match &global(globals, p).cells {
                Cells::I32(c) => rmw!(&mut Global(c), true),
                Cells::U32(c) => rmw!(&mut Global(c), false),
                Cells::I64(c) => rmw!(&mut Global(c), true),
                Cells::U64(c) => rmw!(&mut Global(c), false),
                Cells::F32(c) => rmw!(&mut Global(c), true),
                Cells::F64(c) => rmw!(&mut Global(c), true),
                _ => unreachable!("checker: no atomic on {elem}"),
            },
            Space::Shared(s) => match &mut self.shared[s as usize].data {
                BufData::I32(v) => rmw!(&mut Plain(&mut v[..]), true),
                BufData::U32(v) => rmw!(&mut Plain(&mut v[..]), false),
                BufData::I64(v) => rmw!(&mut Plain(&mut v[..]), true),
                BufData::U64(v) => rmw!(&mut Plain(&mut v[..]), false),
                BufData::F32(v) => rmw!(&mut Plain(&mut v[..]), true),
                BufData::F64(v) => rmw!(&mut Plain(&mut v[..]), true),
                _ => unreachable!("checker: no atomic on {elem}"),
            },
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
                    ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor => {
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
            Inst::Select { ty, d, c, a, b } => {
                bank_ty!(bank_of(ty), S => select::<S>(regs, &lanes, d, c, a, b))
            }
            Inst::Math1 { f, ty, d, a } => {
                float_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(T::math1(f, T::ld(x)))))
            }
            Inst::Math2 { f, ty, d, a, b } => {
                float_ty!(ty, T => map2(regs, &lanes, d, a, b, |x, y| T::st(T::math2(f, T::ld(x), T::ld(y)))))
            }
            Inst::Fma { ty, d, a, b, c } => {
                float_ty!(ty, T => map3(regs, &lanes, d, [a, b, c], |x, y, z| T::st(T::fma(T::ld(x), T::ld(y), T::ld(z)))))
            }
            Inst::Abs { ty, d, a } => {
                // `Num::abs`, not the inherent `i32::abs`, which panics on `INT_MIN` in debug builds.
                num_ty!(ty, T => map1(regs, &lanes, d, a, |x| T::st(<T as Num>::abs(T::ld(x)))))
            }
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
        other => unreachable!("block: {other:?} is not a bit operator"),
    }
}

/// C conversions between register types, including `bool` and truncation to narrow integers.
fn cast(regs: &mut RegFile, m: &Lanes<'_>, from: Scalar, to: Scalar, d: Reg, a: Reg) {
    let narrow = to.promoted() != to;
    if from == Scalar::Bool {
        num_ty!(to.promoted(), D => map1::<bool, <D as Lane>::S>(regs, m, d, a, |x| D::st(convert::<i32, D>(i32::from(x)))));
    } else if to == Scalar::Bool {
        num_ty!(from, S => map1::<<S as Lane>::S, bool>(regs, m, d, a, |x| !S::ld(x).is_zero()));
    } else if narrow {
        num_ty!(from, S => map1::<<S as Lane>::S, u32>(regs, m, d, a, |x| {
            // Through `int`, as the constant folder does: a float saturates to its range first.
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

/// Moves one component between memory and a register: `Err(d)` loads into `d`, `Ok(v)` stores `v`.
/// `runs`: every lane active and warp `w`'s lanes on the consecutive elements `runs[w]`.
fn transfer<M: Slots>(
    mem: &mut M,
    (ix, runs): (&[i64], Option<&[Extent]>),
    (mask, full): (&[bool], bool),
    regs: &mut RegFile,
    reg: Result<Reg, Reg>,
) {
    match (reg, runs) {
        (Err(d), Some(runs)) => {
            let dst = &mut <M::S as regs::Stored>::bank(regs)[d.0 as usize];
            for (lanes, &(lo, _)) in dst.chunks_mut(32).zip(runs) {
                mem.get_run(lo as usize, lanes);
            }
        }
        (Ok(v), Some(runs)) => {
            let src = &<M::S as regs::Stored>::bank_ref(regs)[v.0 as usize];
            for (lanes, &(lo, _)) in src.chunks(32).zip(runs) {
                mem.put_run(lo as usize, lanes);
            }
        }
        (Err(d), None) => memory::gather(
            mem,
            ix,
            mask,
            full,
            &mut <M::S as regs::Stored>::bank(regs)[d.0 as usize],
        ),
        (Ok(v), None) => memory::scatter(
            mem,
            ix,
            mask,
            &<M::S as regs::Stored>::bank_ref(regs)[v.0 as usize],
        ),
    }
}

/// Where and when a shared access happens, for race reports.
struct RaceContext {
    pc: u32,
    epoch: u64,
    local_epoch: u32,
    block: [u32; 3],
}

/// Shared-memory hazards of one access, lane by lane in lane order (`distinct`: no two lanes of a
/// warp on one element): the first one found, and
/// (when `watch_barrier`) whether the access conflicts with another warp's in the previous epoch,
/// i.e. whether the barrier that began this epoch protected it.
fn track(
    arr: &mut SharedArr,
    (mask, ix, spans): (&[bool], &[i64], &[Extent]),
    (width, k, distinct): (u32, usize, bool),
    is_store: bool,
    watch_barrier: bool,
    cx: &RaceContext,
) -> (Option<Race>, bool) {
    let mut first = None;
    let mut crossed = false;
    let width = i64::from(width);
    for (w, ((ms, is), &(lo, hi))) in mask.chunks(32).zip(ix.chunks(32)).zip(spans).enumerate() {
        if lo > hi {
            continue;
        }
        let warp = w as u32;
        // The span of this component's indices.
        let (lo, hi) = (lo * width + k as i64, hi * width + k as i64);
        // A second lane of one warp on one element changes nothing in the history and finds the
        // same hazard as the first: within a window of 64 elements, a bit set skips it (not
        // needed when the lanes are known to be on distinct elements).
        let window = !distinct && hi - lo < 64;
        let mut seen = 0u64;
        for (&m, &i) in ms.iter().zip(is) {
            if !m {
                continue;
            }
            if window {
                let bit = 1u64 << (i - lo);
                if seen & bit != 0 {
                    continue;
                }
                seen |= bit;
            }
            if watch_barrier && !crossed {
                crossed = arr.history.crosses(i as usize, warp, cx.epoch, is_store);
            }
            let h = if is_store {
                arr.history.write(i as usize, warp, cx.epoch, cx.pc)
            } else {
                arr.history.read(i as usize, warp, cx.epoch, cx.pc)
            };
            if first.is_none() {
                if let Some(h) = h {
                    first = Some((h, i, warp));
                }
            }
        }
    }
    let race = first.map(|((kind, other_warp, other_inst), index, warp)| Race {
        kind,
        block: cx.block,
        epoch: cx.local_epoch,
        array: arr.name.clone(),
        index,
        warp,
        other_warp,
        inst: cx.pc,
        other_inst,
    });
    (race, crossed)
}

/// The buffer bound to pointer parameter `p`.
fn global<'g, 'a>(globals: &'g [Option<GlobalBuf<'a>>], p: u32) -> &'g GlobalBuf<'a> {
    globals[p as usize]
        .as_ref()
        .expect("pipeline: every buffer parameter is bound")
}

/// The lanes of the first duplicated index of a store: (earlier, later).
fn first_duplicate(idx: &[i64], mask: &[bool]) -> (usize, usize) {
    let mut seen = std::collections::HashMap::new();
    for (lane, (&i, &m)) in idx.iter().zip(mask).enumerate() {
        if m {
            if let Some(&first) = seen.get(&i) {
                return (first, lane);
            }
            seen.insert(i, lane);
        }
    }
    (0, 0)
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
