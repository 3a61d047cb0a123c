//! The memory instructions of a block: bounds, sectors and wavefronts, race tracking, data moves.

use super::{BlockRunner, FrameKind, SharedArr};
use crate::check::typed::NULL_OFFSET;
use crate::exec::banks;
use crate::exec::cache::Op as CacheOp;
use crate::exec::cells::{with_cells, Cells};
use crate::exec::coalesce::{self, Extent};
use crate::exec::counters::InstCounters;
use crate::exec::error::{in_declared, RunError};
use crate::exec::memory::{self, with_data, BufData};
use crate::exec::memory::{Global, Plain, Slots};
use crate::exec::race::{Group, Op, Race, RaceHit, RaceKind, Uninit, UninitHit};
use crate::exec::regs::{self, RegFile};
use crate::exec::{atomic, GlobalBuf};
use crate::ir::{CompoundStore, Reg, Space};
use crate::value::Scalar;
use std::sync::atomic::{AtomicU64, Ordering};

/// The kind of a memory access, for the counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Load,
    Store,
    Atomic,
}

impl Access {
    /// One global warp request of this kind touching `sectors` sectors in `lines` 128-byte lines.
    fn count_global(self, c: &mut InstCounters, sectors: u64, lines: u64) {
        c.g_wavefronts += lines;
        let (instr, counted) = match self {
            Access::Load => (&mut c.gld_instr, &mut c.gld_sectors),
            Access::Store => (&mut c.gst_instr, &mut c.gst_sectors),
            Access::Atomic => (&mut c.gatom_instr, &mut c.gatom_sectors),
        };
        *instr += 1;
        *counted += sectors;
    }

    /// What this access asks of the caches.
    fn cache_op(self) -> CacheOp {
        match self {
            Access::Load => CacheOp::Read,
            Access::Store => CacheOp::Write,
            Access::Atomic => CacheOp::Atomic,
        }
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

impl BlockRunner<'_> {
    /// Indices of the active lanes as `i64`.
    pub(super) fn indices(&mut self, idx: Reg, idx_ty: Scalar) {
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

    /// Each warp's span of indices, scanned in the index register's own width; `shift` is what
    /// [`Self::shift`] added to `idx` (the register itself does not have it).
    fn warp_spans(&mut self, idx: Reg, idx_ty: Scalar, shift: i64) {
        let (mask, full, out) = (&self.mask, self.full, &mut self.spans);
        let w = &self.regs.w;
        match idx_ty {
            Scalar::I32 => coalesce::warp_spans(&w[idx.0 as usize], |x| x as i32, mask, full, out),
            Scalar::U32 => coalesce::warp_spans(&w[idx.0 as usize], |x| x, mask, full, out),
            _ => return coalesce::warp_spans(&self.idx, |x| x, mask, full, out),
        }
        if shift != 0 {
            for (lo, hi) in out.iter_mut().filter(|(lo, hi)| lo <= hi) {
                *lo += shift;
                *hi += shift;
            }
        }
    }

    /// Where a pointer parameter points, for an access of `width` components through it: the
    /// shift from the kernel's indices (relative to the parameter) to the array's, `offset /
    /// width` (0 when it points at the array's start, or the space is not global; a cast to a
    /// vector accounts for the rest, see `rescale`). A parameter bound to `NULL` traps here.
    #[inline]
    fn param_shift(
        &self,
        pc: usize,
        space: Space,
        width: u32,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<i64, RunError> {
        match space {
            Space::Global(p) => match &globals[p as usize] {
                Some(GlobalBuf {
                    cells: Some(_),
                    offset: 0,
                    ..
                }) => Ok(0),
                Some(GlobalBuf {
                    cells: Some(_),
                    offset,
                    ..
                }) => Ok((offset / width as usize) as i64),
                unbound => Err(self.null_parameter(pc, p, unbound.as_ref())),
            },
            _ => Ok(0),
        }
    }

    /// An access through pointer parameter `p`, bound to `NULL`.
    #[cold]
    #[inline(never)]
    fn null_parameter(&self, pc: usize, p: u32, g: Option<&GlobalBuf<'_>>) -> RunError {
        let lane = self.mask.iter().position(|&m| m).unwrap_or(0);
        if let Some(g) = g.filter(|g| g.unset) {
            return unset_pointer(
                g.name,
                self.ir.spans[pc],
                self.block,
                self.cfg.thread_of(lane),
            );
        }
        RunError::NullPointer {
            array: g.map_or_else(|| format!("parameter {p}"), |g| g.name.to_string()),
            span: self.ir.spans[pc],
            block: self.block,
            thread: self.cfg.thread_of(lane),
        }
    }

    /// Adds a parameter's shift to the indices of the active lanes (all lanes: the inactive
    /// ones are never read). Wrapping, as 64-bit addresses do.
    fn shift(&mut self, shift: i64) {
        if shift != 0 {
            for i in &mut self.idx {
                *i = i.wrapping_add(shift);
            }
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
        let (kind, name, len, declared) = match space {
            Space::Global(p) => {
                let b = global(globals, p);
                if b.unset {
                    return unset_pointer(
                        b.name,
                        self.ir.spans[pc],
                        self.block,
                        self.cfg.thread_of(lane),
                    );
                }
                ("global", b.name.to_string(), cells(globals, p).len(), None)
            }
            Space::Shared(s) => {
                let a = &self.shared[s as usize];
                let ir = &self.ir.shared[s as usize];
                let bytes = a.data.len() as u64 * u64::from(ir.elem.size());
                let view = width * ir.elem.size();
                (
                    "shared",
                    a.name.clone(),
                    a.data.len(),
                    Some((bytes, view, &ir.declared)),
                )
            }
            Space::Local(_) => unreachable!("exec: local arrays are checked in `local`"),
            Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
        };
        let index = match idx_ty {
            Scalar::U64 => i128::from(self.idx[lane] as u64),
            _ => i128::from(self.idx[lane]),
        };
        if index < i128::from(NULL_OFFSET / 2) {
            return RunError::NullPointer {
                array: name,
                span: self.ir.spans[pc],
                block: self.block,
                thread: self.cfg.thread_of(lane),
            };
        }
        // Inside an `if` or a loop the access has a guard already: the index is what is wrong.
        let guarded = self.frames[..self.depth]
            .iter()
            .any(|f| matches!(f.kind, FrameKind::Branch | FrameKind::Loop));
        let help = if index < 0 {
            "the index is negative; check the arithmetic that computes it".to_string()
        } else if guarded {
            format!("the access is already inside a condition, so the index itself is wrong for this thread: check how it is computed, and that the condition bounds this index (not another one) by the size of `{name}`")
        } else if kind == "global" {
            format!("guard the access with a bounds check such as `if (i < n)`; the grid has more threads than `{name}` has elements")
        } else {
            format!("`{name}` is sized for fewer threads than this block has; check the block size and the index")
        };
        let (index, len, help) = match declared {
            Some((total, view, declared)) => {
                let (index, len, note) = in_declared((index, view), total, &name, declared);
                (
                    index,
                    len,
                    note.map_or(help.clone(), |n| format!("{help}; {n}")),
                )
            }
            // A vector view of an array whose length is no whole number of vectors (a `float`
            // array of 6 read as `float4*`): its last values are no whole element.
            None if !(len as u64).is_multiple_of(u64::from(width)) => (
                index,
                len as u64 / u64::from(width),
                match len as u64 % u64::from(width) {
                    1 => format!("{help}; `{name}` holds {len} values, so its last value is no whole {width}-component element"),
                    tail => format!("{help}; `{name}` holds {len} values, so its last {tail} values are no whole {width}-component element"),
                },
            ),
            None => (index, len as u64 / u64::from(width), help),
        };
        RunError::OutOfBounds {
            space: kind,
            buffer: name,
            index,
            len,
            span: self.ir.spans[pc],
            block: self.block,
            thread: self.cfg.thread_of(lane),
            help,
        }
    }

    /// How many of the space's elements an atomic through a pointer to `view` takes as one: two
    /// for a 64-bit view of 32-bit integers (`double` ones too) or a 32-bit view of 16-bit elements,
    /// four or eight for a 32- or 64-bit view of shared bytes; otherwise one.
    fn cells_per_element(
        &self,
        view: Scalar,
        space: Space,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> u32 {
        let held = match space {
            // A `NULL` parameter holds nothing: `param_shift` traps on it next.
            Space::Global(p) => match global(globals, p).cells.as_ref() {
                Some(Cells::I32(_) | Cells::U32(_)) => 4,
                Some(Cells::I16(_) | Cells::U16(_) | Cells::F16(_) | Cells::BF16(_)) => 2,
                Some(Cells::I8(_) | Cells::U8(_)) => 1,
                _ => return 1,
            },
            Space::Shared(s) => match self.shared[s as usize].data {
                BufData::I32(_) | BufData::U32(_) => 4,
                BufData::I16(_) | BufData::U16(_) | BufData::F16(_) | BufData::BF16(_) => 2,
                BufData::I8(_) | BufData::U8(_) => 1,
                _ => return 1,
            },
            Space::Local(_) | Space::Choice { .. } => return 1,
        };
        match (held, view.size() / held) {
            (1, n @ (4 | 8)) => n,
            (2 | 4, 2) => 2,
            _ => 1,
        }
    }

    fn mem_len(&self, space: Space, globals: &[Option<GlobalBuf<'_>>]) -> usize {
        match space {
            Space::Global(p) => cells(globals, p).len(),
            Space::Shared(s) => self.shared[s as usize].data.len(),
            Space::Local(_) => unreachable!("exec: local arrays are checked in `local`"),
            Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
        }
    }

    /// The name of the buffer or array a space stands for.
    pub(super) fn space_name(&self, space: Space, globals: &[Option<GlobalBuf<'_>>]) -> String {
        match space {
            Space::Global(p) => global(globals, p).name.to_string(),
            Space::Shared(s) => self.shared[s as usize].name.clone(),
            Space::Local(l) => self.ir.locals[l as usize].name.clone(),
            Space::Choice { .. } => "one of several arrays".into(),
        }
    }

    /// A load (`Err(d)`) or store (`Ok(v)`) of `width` components per lane (1, or up to 16 for a vector):
    /// bounds, one request in the counters, races, then the data one component at a time.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn memory(
        &mut self,
        pc: usize,
        space: Space,
        elem: Scalar,
        width: u32,
        (idx, idx_ty): (Reg, Scalar),
        regs: Result<&[Reg], &[Reg]>,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if let Space::Local(l) = space {
            return self.local(pc, l, elem, width, (idx, idx_ty), regs);
        }
        if let Space::Choice { .. } = space {
            return self.choose(pc, idx, |me, s| {
                me.memory(pc, s, elem, width, (idx, idx_ty), regs, globals)
            });
        }
        if self.lanes_active == 0 {
            return Ok(());
        }
        let shift = self.param_shift(pc, space, width, globals)?;
        self.indices(idx, idx_ty);
        self.shift(shift);
        let len = (self.mem_len(space, globals) / width as usize) as i64;
        // Every lane active and each warp on consecutive elements (the coalesced case, e.g. a row
        // of a 2-D block): spans, bounds and counts by arithmetic, data moved without masks.
        let runs = coalesce::warp_runs(&self.idx, self.full);
        if runs {
            let lanes = self.idx.len();
            for (w, s) in self.spans.iter_mut().enumerate() {
                *s = (self.idx[32 * w], self.idx[(32 * w + 31).min(lanes - 1)]);
            }
        } else {
            self.warp_spans(idx, idx_ty, shift);
        }
        if let Some(lane) =
            coalesce::out_of_bounds(&self.idx, &self.mask, len as usize, &self.spans)
        {
            return Err(self.oob(pc, space, (lane, idx_ty), width, globals));
        }
        let is_store = regs.is_ok();
        let access = if is_store {
            Access::Store
        } else {
            Access::Load
        };
        let heap = match space {
            Space::Global(p) => heap_role(global(globals, p).name),
            _ => None,
        };
        if heap == Some(HeapRole::Heap) {
            self.heap_bounds(pc, elem.size() * width, access, globals)?;
        }
        let base = sector_base(space, globals);
        if heap == Some(HeapRole::Record) {
            // The allocator's books: no memory traffic of the kernel's.
        } else if runs {
            self.account_runs(pc, (space, base), elem.size() * width, access);
        } else {
            self.account(pc, (space, base), elem.size() * width, access);
        }
        let compound = self.ir.compound[pc];
        let in_global = matches!(space, Space::Global(_));
        if is_store && (in_global || (compound.is_some() && matches!(space, Space::Shared(_)))) {
            // Runs are distinct within a warp: only overlapping spans of two warps can collide.
            let disjoint = runs && self.spans.windows(2).all(|w| w[0].1 < w[1].0);
            if !disjoint
                && coalesce::has_duplicate(&self.idx, &self.mask, self.full, &mut self.scratch)
            {
                self.duplicate_store(pc, (elem, width), regs, (compound, in_global));
            }
        }
        if self.asyncs.watching() {
            self.async_access(pc, space, (elem.size() * width, width), is_store);
        }
        let op = match (is_store, self.ir.relaxed[pc]) {
            (true, _) => Op::Write,
            (false, true) => Op::Relaxed,
            (false, false) => Op::Read,
        };
        for k in 0..width as usize {
            if width > 1 {
                // Wrapping: an inactive lane's index register may hold any stale value.
                for (o, &i) in self.comp.iter_mut().zip(&self.idx) {
                    *o = i.wrapping_mul(i64::from(width)).wrapping_add(k as i64);
                }
            }
            let ix: &[i64] = if width > 1 { &self.comp } else { &self.idx };
            let whole = (runs && width == 1).then_some(&self.spans[..]);
            let reg = match regs {
                Ok(v) => Ok(v[k]),
                Err(d) => Err(d[k]),
            };
            match space {
                Space::Local(_) => unreachable!("exec: local arrays are accessed in `local`"),
                Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
                Space::Global(p) => {
                    with_cells!(cells(globals, p), c => transfer(&mut Global(c), (ix, whole), (&self.mask, self.full), &mut self.regs, reg));
                    if heap != Some(HeapRole::Record) {
                        let g = global(globals, p);
                        if let Ok(r) = reg {
                            row_bits(&self.regs, r, elem, &mut self.stored);
                        }
                        let values = is_store.then_some(&self.stored[..]);
                        let runs = runs.then_some((&self.spans[..], i64::from(width), k as i64));
                        self.epoch_log.note(
                            (g.array, g.name),
                            (op, pc as u32),
                            (&self.mask, ix),
                            runs,
                            values,
                        );
                    }
                    if let Some(log) = &mut self.grid_log {
                        log.note(global(globals, p).array, (&self.mask, ix), op, pc as u32);
                    }
                    if let Some(written) = global(globals, p).written {
                        self.track_written(written, op, width > 1);
                    }
                }
                Space::Shared(s) => {
                    let arr = &mut self.shared[s as usize];
                    with_data!(&mut arr.data, v => transfer(&mut Plain(&mut v[..]), (ix, whole), (&self.mask, self.full), &mut self.regs, reg));
                    if self.asyncs.synchronised() {
                        self.fill_shared(s, width);
                    } else {
                        self.track_shared(pc, s, (width, k, runs), (op, reg.ok(), elem));
                    }
                }
            }
        }
        if !self.race_hits.is_empty() || !self.uninit_hits.is_empty() {
            let name = self.space_name(space, globals);
            self.note_findings(pc, (space_word(space), &name));
        }
        Ok(())
    }

    /// Files the first pair of active lanes of the store at `pc` (values in `regs`) that write
    /// one element with a result that depends on their order: different values (a global
    /// store's `global-WAW`, in global memory only; lanes that store the same value, `*flag =
    /// true`, leave a defined result), or, for a compound assignment (`compound`), a
    /// `lost-update`: the lanes each read the element before either stored, so unless both
    /// leave it as it was (`+= 0`), or `&=`/`|=` the same bits, one's update is lost.
    fn duplicate_store(
        &mut self,
        pc: usize,
        (elem, width): (Scalar, u32),
        regs: Result<&[Reg], &[Reg]>,
        (compound, in_global): (Option<CompoundStore>, bool),
    ) {
        let v = regs.expect("a store has values");
        let regs_ref = &self.regs;
        // An integer store keeps the type's low bytes; a float's register holds its own bits
        // (a `half`'s as a `float`).
        let bits = |r: Reg, ty: Scalar, lane: usize| {
            let b = lane_bits(regs_ref, r, ty, lane);
            if ty.is_integer() {
                b & size_mask(ty)
            } else {
                b
            }
        };
        let differ = |a: usize, b: usize| {
            v[..width as usize]
                .iter()
                .any(|&r| bits(r, elem, a) != bits(r, elem, b))
        };
        let changes =
            |c: CompoundStore, lane: usize| bits(c.old, c.ty, lane) != bits(v[0], elem, lane);
        let kind = |a: usize, b: usize| match compound {
            Some(c) if c.idempotent => differ(a, b).then_some(RaceKind::LostUpdate),
            Some(c) if changes(c, a) || changes(c, b) => Some(RaceKind::LostUpdate),
            _ => (in_global && differ(a, b)).then_some(RaceKind::GlobalDuplicate),
        };
        if let Some((earlier, later)) =
            first_duplicate(&self.idx, &self.mask, |a, b| kind(a, b).is_some())
        {
            let kind = kind(earlier, later).expect("the pair races");
            self.race_hits.push((
                (kind, (earlier / 32) as u32, pc as u32),
                self.idx[later],
                later as u32,
            ));
            if in_global && !self.filed_stores.contains(&(pc as u32)) {
                self.filed_stores.push(pc as u32);
            }
        }
    }

    /// For the first active lane whose access of the device heap (elements of `size` bytes at
    /// the indices in `idx`) the allocation record ([`crate::check::heap::HEAP_BLOCKS`]) does
    /// not allow: `simt::run::use_after_free` in freed memory, `simt::run::out_of_bounds`
    /// past the end of its allocation or outside every one.
    fn heap_bounds(
        &self,
        pc: usize,
        size: u32,
        access: Access,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        use crate::check::heap::{heap_fault, HeapFault};
        let record = globals
            .iter()
            .flatten()
            .find(|g| heap_role(g.name) == Some(HeapRole::Record));
        let Some(Cells::I32(marks)) = record.and_then(|g| g.cells.as_ref()) else {
            return Ok(());
        };
        let mark = |g: u64| marks[g as usize].load(Ordering::Relaxed);
        let access = match access {
            Access::Store => "store",
            Access::Atomic => "atomic",
            Access::Load => "load",
        };
        for (lane, (&m, &i)) in self.mask.iter().zip(&self.idx).enumerate() {
            if !m {
                continue;
            }
            let (byte, size) = (i as u64 * u64::from(size), u64::from(size));
            let Some(fault) = heap_fault(mark, byte, size) else {
                continue;
            };
            let (span, block, thread) = (self.ir.spans[pc], self.block, self.cfg.thread_of(lane));
            match fault {
                HeapFault::Freed => {
                    return Err(RunError::UseAfterFree {
                        access,
                        byte,
                        span,
                        block,
                        thread,
                    })
                }
                HeapFault::Outside(allocation) => {
                    return Err(RunError::HeapOutOfBounds {
                        access,
                        size,
                        byte,
                        allocation,
                        span,
                        block,
                        thread,
                    })
                }
            }
        }
        Ok(())
    }

    /// Checks and marks the elements of an `empty(n)` array the active lanes access (in `comp`
    /// for a vector component, else in `idx`): a read or an atomic of one no thread wrote yet is
    /// an uninitialised read; a write or an atomic marks it written.
    fn track_written(&mut self, written: &[AtomicU64], op: Op, vector: bool) {
        let ix: &[i64] = if vector { &self.comp } else { &self.idx };
        for (lane, (&m, &i)) in self.mask.iter().zip(ix).enumerate() {
            if !m {
                continue;
            }
            let (word, bit) = (&written[i as usize / 64], 1u64 << (i % 64));
            let was = if op == Op::Read {
                word.load(Ordering::Relaxed)
            } else {
                word.fetch_or(bit, Ordering::Relaxed)
            };
            if op != Op::Write && was & bit == 0 {
                self.uninit_hits.push((i, lane as u32));
            }
        }
    }

    /// Runs [`track`] for component `k` of an access of shared array `s` (indices in `comp`
    /// when `width > 1`, else in `idx`; a store's values of type `elem` in register `stored`),
    /// and notes whether the barrier that began this epoch protected it.
    fn track_shared(
        &mut self,
        pc: usize,
        s: u32,
        (width, k, runs): (u32, usize, bool),
        (op, stored, elem): (Op, Option<Reg>, Scalar),
    ) {
        let ix: &[i64] = if width > 1 { &self.comp } else { &self.idx };
        // Only until the barrier is known to protect something: keeps the common case one branch.
        let barrier = self.last_barrier.filter(|&b| !self.barrier_protects[b]);
        let regs = &self.regs;
        let bits = |lane: usize| stored.map_or(0, |r| lane_bits(regs, r, elem, lane));
        let crossed = track(
            &mut self.shared[s as usize],
            (&self.mask, ix, &self.spans),
            (width, k, runs),
            (op, barrier.is_some(), bits),
            (self.epoch, self.block_epoch, pc as u32),
            (&mut self.race_hits, &mut self.uninit_hits),
        );
        if let (Some(b), true) = (barrier, crossed) {
            self.barrier_protects[b] = true;
            if let Some(p) = self.partner_barrier {
                self.barrier_protects[p] = true;
            }
        }
    }

    /// Ends the block's barrier epoch in global memory: files the races between its warps, and
    /// notes whether the barrier that began it separated an access from another warp's in the
    /// epoch before.
    pub(super) fn end_global_epoch(&mut self) {
        let watch = self.last_barrier.filter(|&b| !self.barrier_protects[b]);
        let (mut found, crossed) = self.epoch_log.end_epoch(watch.is_some());
        if let (Some(b), true) = (watch, crossed) {
            self.barrier_protects[b] = true;
            if let Some(p) = self.partner_barrier {
                self.barrier_protects[p] = true;
            }
        }
        found.sort_by_key(|f| (f.seq, f.warp));
        let mut at = 0;
        while at < found.len() {
            let end = at
                + found[at..]
                    .iter()
                    .take_while(|f| f.seq == found[at].seq)
                    .count();
            let f = &found[at];
            let (inst, array) = (f.inst as usize, self.epoch_log.name(f.array).to_string());
            self.race_hits.extend(
                found[at..end]
                    .iter()
                    .map(|f| (f.hazard, f.index, f.warp * 32)),
            );
            let counted = self.filed_stores.contains(&(inst as u32));
            self.note_findings(inst, ("global", &array));
            if counted {
                // One execution with racing lanes, whichever hazards it had.
                self.counters[inst].race_count -= 1;
            }
            at = end;
        }
        self.filed_stores.clear();
    }

    /// Files the hazards and uninitialised reads the instruction at `pc` (on `array`) found
    /// into their groups, and counts the instruction once in `race_count` / `uninit_count`.
    pub(super) fn note_findings(&mut self, pc: usize, (space, array): (&'static str, &str)) {
        self.accesses += 1;
        let (block, access) = (self.block_id, self.accesses);
        if !self.race_hits.is_empty() {
            self.counters[pc].race_count += 1;
            let ir = self.ir;
            for ((kind, other_warp, other_inst), index, lane) in self.race_hits.drain(..) {
                let warp = lane / 32;
                let site = (ir.site(pc as u32), ir.site(other_inst));
                let at = self.races.iter().position(|g| {
                    let r = &g.first;
                    r.kind == kind
                        && (ir.site(r.inst), ir.site(r.other_inst)) == site
                        && r.array == array
                });
                let g = match at {
                    Some(g) => &mut self.races[g],
                    None => {
                        let first = Race {
                            kind,
                            block: self.block,
                            epoch: self.local_epoch,
                            array: array.to_string(),
                            index,
                            warp,
                            other_warp,
                            other_block: None,
                            inst: pc as u32,
                            other_inst,
                        };
                        self.races.push(Group::new(first, block));
                        self.races.last_mut().expect("just pushed")
                    }
                };
                g.hit(block, access, warp);
            }
        }
        // A whole struct's member copied (`return p;`) carries an unwritten element along.
        if self.ir.copies[pc] {
            self.uninit_hits.clear();
        }
        if !self.uninit_hits.is_empty() {
            self.counters[pc].uninit_count += 1;
            let site = self.ir.site(pc as u32);
            let at = self
                .uninit
                .iter()
                .position(|g| self.ir.site(g.first.inst) == site && g.first.array == array);
            let g = match at {
                Some(g) => g,
                None => {
                    let (index, lane) = self.uninit_hits[0];
                    let first = Uninit {
                        block: self.block,
                        thread: self.cfg.thread_of(lane as usize),
                        space,
                        array: array.to_string(),
                        index,
                        inst: pc as u32,
                    };
                    self.uninit.push(Group::new(first, block));
                    self.uninit.len() - 1
                }
            };
            for (_, lane) in self.uninit_hits.drain(..) {
                self.uninit[g].hit(block, access, lane / 32);
            }
        }
    }

    /// `account` when every warp's lanes are on consecutive elements (`spans`): no sorting needed.
    /// Global: each warp's run of elements spans `run_span`. Shared: a phase's consecutive
    /// words (at most 32) fall in distinct banks, so each active phase is one wavefront, the ideal.
    /// `base` is the array's first sector in the cache model ([`sector_base`]).
    fn account_runs(&mut self, pc: usize, (space, base): (Space, u64), size: u32, access: Access) {
        self.probe(pc, space, size);
        let c = &mut self.counters[pc];
        let phase = match size {
            8 => 16,
            16 => 8,
            _ => 32,
        };
        for &(lo, hi) in &self.spans {
            let n = hi - lo + 1;
            match space {
                Space::Local(_) => unreachable!("exec: local arrays are accessed in `local`"),
                Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
                // A constant-cache request serialises on distinct addresses: a run of n elements
                // is n of them.
                Space::Global(p) if self.ir.constants.contains(&p) => {
                    c.cmem_instr += 1;
                    c.cmem_transactions += n as u64;
                }
                Space::Global(_) => {
                    let (first, last) = coalesce::run_span(lo, n, size);
                    let sectors = (last - first + 1) as u64;
                    if let Some(l1) = &mut self.l1 {
                        let from = base + first as u64;
                        l1.request(from..from + sectors, access.cache_op());
                    }
                    c.g_bytes_requested += n as u64 * u64::from(size);
                    let lines = ((last >> 2) - (first >> 2) + 1) as u64;
                    access.count_global(c, sectors, lines);
                }
                Space::Shared(_) => {
                    let phases = ((n + phase - 1) / phase) as u64;
                    access.count_shared(c, phases, phases);
                }
            }
        }
    }

    /// Keeps the lanes' addresses of instruction `pc` for `--map`, the first time the probe's
    /// block, warp and iteration reach it.
    fn probe(&mut self, pc: usize, space: Space, size: u32) {
        if self.first_access[pc].is_none() {
            self.first_access[pc] = self.cfg.probe.capture(
                &mut self.probe_seen[pc],
                (self.block, self.block_id),
                (space, size),
                &self.idx,
                &self.mask,
            );
        }
    }

    /// Sectors (global) or wavefronts (shared) of one memory instruction, warp by warp; with the
    /// cache model on, each warp's sectors (from `base`, [`sector_base`]) go to the block's L1.
    fn account(&mut self, pc: usize, (space, base): (Space, u64), size: u32, access: Access) {
        self.probe(pc, space, size);
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
                Space::Local(_) => unreachable!("exec: local arrays are accessed in `local`"),
                Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
                // Elements of at most a word within 32 of each other are words within 32 of each
                // other: distinct banks or one word, one wavefront.
                Space::Shared(_) if size <= 4 && hi - lo < 32 => access.count_shared(c, 1, 1),
                Space::Global(p) if self.ir.constants.contains(&p) => {
                    c.cmem_instr += 1;
                    c.cmem_transactions += distinct(ix, m, &mut self.scratch);
                }
                Space::Global(_) => {
                    coalesce::warp_sector_list(ix, m, size, &mut self.scratch);
                    if let Some(l1) = &mut self.l1 {
                        let list = self.scratch.iter().map(|&s| base + s as u64);
                        l1.request(list, access.cache_op());
                    }
                    let sectors = self.scratch.len() as u64;
                    let lines = 1 + self
                        .scratch
                        .windows(2)
                        .filter(|w| w[0] >> 2 != w[1] >> 2)
                        .count() as u64;
                    let active = if full {
                        m.len() as u64
                    } else {
                        m.iter().filter(|&&x| x).count() as u64
                    };
                    c.g_bytes_requested += active * u64::from(size);
                    access.count_global(c, sectors, lines);
                }
                Space::Shared(_) => {
                    let (wf, ideal) = banks::warp_wavefronts(ix, m, size, &mut self.scratch);
                    access.count_shared(c, wf, ideal);
                }
            }
        }
    }

    /// An atomic: bounds-checked, counted like a memory access, applied in lane order; on shared
    /// memory, tracked as an access that conflicts with plain ones (never with another atomic).
    /// One register in `d` and `v` per component: a pair (`atomicAdd(half2*, half2)`) is one
    /// access of its 4 bytes, each half added on its own.
    pub(super) fn atomic(
        &mut self,
        pc: usize,
        op: crate::value::AtomicOp,
        (space, elem): (Space, Scalar),
        (idx, idx_ty): (Reg, Scalar),
        (d, v, cmp): (&[Reg], &[Reg], Option<Reg>),
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        if let Space::Choice { .. } = space {
            return self.choose(pc, idx, |me, s| {
                me.atomic(pc, op, (s, elem), (idx, idx_ty), (d, v, cmp), globals)
            });
        }
        let width = d.len() as u32;
        // A 64-bit atomic on 32-bit integers, or a 32-bit one on 16-bit elements: one access of
        // each pair of elements, tracked as both (`cells` elements per index).
        let packed = self.cells_per_element(elem, space, globals);
        let halves = packed > 1;
        let cells_per = if halves { packed } else { width };
        let shift = self.param_shift(pc, space, cells_per, globals)?;
        self.indices(idx, idx_ty);
        self.shift(shift);
        self.warp_spans(idx, idx_ty, shift);
        let len = self.mem_len(space, globals) / cells_per as usize;
        if let Some(lane) = coalesce::out_of_bounds(&self.idx, &self.mask, len, &self.spans) {
            return Err(self.oob(pc, space, (lane, idx_ty), width, globals));
        }
        if let Space::Global(p) = space {
            if heap_role(global(globals, p).name) == Some(HeapRole::Heap) {
                self.heap_bounds(pc, elem.size() * width, Access::Atomic, globals)?;
            }
        }
        let base = sector_base(space, globals);
        self.account(pc, (space, base), elem.size() * width, Access::Atomic);
        // `elem` is the type the kernel's pointer sees: `int` memory through an `unsigned*`
        // compares and wraps as unsigned; `float` memory through an `int*` (or `int` memory
        // through a `float*`) is the element's bits in a register of the other kind, so
        // `atomicCAS` compares bits, as the hardware does (`-0.0f` is not `0.0f`).
        let (signed, float_view) = (elem.is_signed(), elem.is_float());
        for k in 0..cells_per as usize {
            if cells_per > 1 {
                for (o, &i) in self.comp.iter_mut().zip(&self.idx) {
                    *o = i.wrapping_mul(i64::from(cells_per)).wrapping_add(k as i64);
                }
            }
            let r = if halves { 0 } else { k };
            let regs = [d[r], v[r], cmp.unwrap_or(v[r])];
            let (ix, mask) = (if width > 1 { &self.comp } else { &self.idx }, &self.mask);
            macro_rules! rmw {
                ($slots:expr, $float:expr) => {{
                    let mut slots = $slots;
                    if $float == float_view {
                        atomic::apply(&mut slots, signed, op, ix, mask, &mut self.regs, regs)
                    } else {
                        let mut bits = memory::Bits(&mut slots);
                        atomic::apply(&mut bits, signed, op, ix, mask, &mut self.regs, regs)
                    }
                }};
            }
            match space {
                _ if halves && k > 0 => {}
                Space::Local(_) => unreachable!("exec: local arrays are accessed in `local`"),
                Space::Choice { .. } => unreachable!("exec: choices are resolved in `choose`"),
                Space::Global(p) => match cells(globals, p) {
                    Cells::I32(c) if halves => rmw!(memory::Halves(Global(c)), false),
                    Cells::U32(c) if halves => rmw!(memory::Halves(Global(c)), false),
                    Cells::I16(c) if halves => rmw!(memory::Pairs(Global(c)), false),
                    Cells::U16(c) if halves => rmw!(memory::Pairs(Global(c)), false),
                    Cells::F16(c) if halves => rmw!(memory::Pairs(Global(c)), false),
                    Cells::BF16(c) if halves => rmw!(memory::Pairs(Global(c)), false),
                    // CUDA's 16-bit `atomicCAS(unsigned short*, ...)`, on any 16-bit memory
                    // by its bits.
                    Cells::U16(c) => rmw!(memory::Raw(Global(c)), false),
                    Cells::I16(c) => rmw!(memory::Raw(Global(c)), false),
                    Cells::F16(c) if !float_view => rmw!(memory::Raw(Global(c)), false),
                    Cells::BF16(c) if !float_view => rmw!(memory::Raw(Global(c)), false),
                    Cells::U8(c) if packed == 4 => rmw!(memory::Bytes::<_, 4>(Global(c)), false),
                    Cells::I8(c) if packed == 4 => rmw!(memory::Bytes::<_, 4>(Global(c)), false),
                    Cells::U8(c) if packed == 8 => rmw!(memory::Bytes::<_, 8>(Global(c)), false),
                    Cells::I8(c) if packed == 8 => rmw!(memory::Bytes::<_, 8>(Global(c)), false),
                    Cells::I32(c) => rmw!(Global(c), false),
                    Cells::U32(c) => rmw!(Global(c), false),
                    Cells::I64(c) => rmw!(Global(c), false),
                    Cells::U64(c) => rmw!(Global(c), false),
                    Cells::F32(c) => rmw!(Global(c), true),
                    Cells::F64(c) => rmw!(Global(c), true),
                    Cells::F16(c) => rmw!(Global(c), true),
                    Cells::BF16(c) => rmw!(Global(c), true),
                    _ => unreachable!("checker: no atomic on {elem}"),
                },
                Space::Shared(s) => match &mut self.shared[s as usize].data {
                    BufData::I32(v) if halves => rmw!(memory::Halves(Plain(&mut v[..])), false),
                    BufData::U32(v) if halves => rmw!(memory::Halves(Plain(&mut v[..])), false),
                    BufData::I16(v) if halves => rmw!(memory::Pairs(Plain(&mut v[..])), false),
                    BufData::U16(v) if halves => rmw!(memory::Pairs(Plain(&mut v[..])), false),
                    BufData::F16(v) if halves => rmw!(memory::Pairs(Plain(&mut v[..])), false),
                    BufData::BF16(v) if halves => rmw!(memory::Pairs(Plain(&mut v[..])), false),
                    BufData::U16(v) => rmw!(memory::Raw(Plain(&mut v[..])), false),
                    BufData::I16(v) => rmw!(memory::Raw(Plain(&mut v[..])), false),
                    BufData::F16(v) if !float_view => rmw!(memory::Raw(Plain(&mut v[..])), false),
                    BufData::BF16(v) if !float_view => rmw!(memory::Raw(Plain(&mut v[..])), false),
                    BufData::U8(v) if packed == 4 => {
                        rmw!(memory::Bytes::<_, 4>(Plain(&mut v[..])), false)
                    }
                    BufData::I8(v) if packed == 4 => {
                        rmw!(memory::Bytes::<_, 4>(Plain(&mut v[..])), false)
                    }
                    BufData::U8(v) if packed == 8 => {
                        rmw!(memory::Bytes::<_, 8>(Plain(&mut v[..])), false)
                    }
                    BufData::I8(v) if packed == 8 => {
                        rmw!(memory::Bytes::<_, 8>(Plain(&mut v[..])), false)
                    }
                    BufData::I32(v) => rmw!(Plain(&mut v[..]), false),
                    BufData::U32(v) => rmw!(Plain(&mut v[..]), false),
                    BufData::I64(v) => rmw!(Plain(&mut v[..]), false),
                    BufData::U64(v) => rmw!(Plain(&mut v[..]), false),
                    BufData::F32(v) => rmw!(Plain(&mut v[..]), true),
                    BufData::F64(v) => rmw!(Plain(&mut v[..]), true),
                    BufData::F16(v) => rmw!(Plain(&mut v[..]), true),
                    BufData::BF16(v) => rmw!(Plain(&mut v[..]), true),
                    _ => unreachable!("checker: no atomic on {elem}"),
                },
            }
            match space {
                Space::Shared(s) => {
                    self.track_shared(pc, s, (cells_per, k, false), (Op::Atomic, None, elem))
                }
                Space::Global(p) => {
                    let ix = if cells_per > 1 { &self.comp } else { &self.idx };
                    let g = global(globals, p);
                    if heap_role(g.name) != Some(HeapRole::Record) {
                        self.epoch_log.note(
                            (g.array, g.name),
                            (Op::Atomic, pc as u32),
                            (&self.mask, ix),
                            None,
                            None,
                        );
                    }
                    if let Some(log) = &mut self.grid_log {
                        log.note(
                            global(globals, p).array,
                            (&self.mask, ix),
                            Op::Atomic,
                            pc as u32,
                        );
                    }
                    if let Some(written) = global(globals, p).written {
                        self.track_written(written, Op::Atomic, cells_per > 1);
                    }
                }
                Space::Local(_) | Space::Choice { .. } => {}
            }
        }
        if !self.race_hits.is_empty() || !self.uninit_hits.is_empty() {
            let name = self.space_name(space, globals);
            self.note_findings(pc, (space_word(space), &name));
        }
        Ok(())
    }
}

/// Moves one component between memory and a register: `Err(d)` loads into `d`, `Ok(v)` stores `v`.
/// `runs`: every lane active and warp `w`'s lanes on the consecutive elements `runs[w]`.
pub(super) fn transfer<M: Slots>(
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

/// Shared-memory hazards and uninitialised reads of one access, lane by lane in lane order
/// (`distinct`: no two lanes of a warp on one element), pushed to `hits`; returns (when
/// `watch_barrier`) whether the access conflicts with another warp's in the previous epoch,
/// i.e. whether the barrier that began this epoch protected it. `bits`: a store's bits per
/// lane. `epochs`: the current epoch, the block's first, and the instruction.
fn track(
    arr: &mut SharedArr,
    (mask, ix, spans): (&[bool], &[i64], &[Extent]),
    (width, k, distinct): (u32, usize, bool),
    (op, watch_barrier, bits): (Op, bool, impl Fn(usize) -> u64),
    (epoch, block_epoch, pc): (u64, u64, u32),
    (races, uninit): (&mut Vec<RaceHit>, &mut Vec<UninitHit>),
) -> bool {
    let mut crossed = false;
    let width = i64::from(width);
    let reads = op != Op::Write;
    // A warp's stored bits per word of its window (valid where its lanes store).
    let mut vals = [0u64; 64];
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
        // The bits a store puts in each word of the window, and the words that lanes of this
        // warp store different bits into: which lane wins is not defined, so a same-bits store
        // there is no defined result.
        let mut mixed = 0u64;
        if window && op == Op::Write {
            let mut have = 0u64;
            for (l, (_, &i)) in ms.iter().zip(is).enumerate().filter(|(_, (&m, _))| m) {
                let (off, b) = ((i - lo) as usize, bits(32 * w + l));
                if have & (1 << off) == 0 {
                    have |= 1 << off;
                    vals[off] = b;
                } else if vals[off] != b {
                    mixed |= 1 << off;
                }
            }
        }
        // Beyond the window, the lanes (a bit each) whose word two of this warp's lanes store
        // different bits into: the (word, bits, lane) triples sorted, on the stack.
        let mut far_mixed = 0u32;
        if !window && !distinct && op == Op::Write {
            let mut triples = [(0i64, 0u64, 0usize); 32];
            let mut n = 0;
            for l in (0..ms.len()).filter(|&l| ms[l]) {
                triples[n] = (is[l], bits(32 * w + l), l);
                n += 1;
            }
            let triples = &mut triples[..n];
            triples.sort_unstable();
            for run in triples.chunk_by(|a, b| a.0 == b.0) {
                if run.iter().any(|t| t.1 != run[0].1) {
                    for t in run {
                        far_mixed |= 1 << t.2;
                    }
                }
            }
        }
        for (l, (&m, &i)) in ms.iter().zip(is).enumerate() {
            if !m {
                continue;
            }
            let e = i as usize;
            let lane = (32 * w + l) as u32;
            if window {
                let bit = 1u64 << (i - lo);
                if seen & bit != 0 {
                    continue;
                }
                seen |= bit;
            }
            if watch_barrier && !crossed {
                crossed = arr.history.crosses(e, warp, epoch, op);
            }
            if reads && !arr.history.initialised(e, block_epoch) {
                uninit.push((i, lane));
            }
            let stored = match (op, window) {
                (Op::Write, true) => {
                    let off = (i - lo) as usize;
                    (mixed >> off & 1 == 0).then_some(vals[off])
                }
                (Op::Write, false) => (far_mixed >> l & 1 == 0).then(|| bits(lane as usize)),
                _ => None,
            };
            if let Some(h) = arr.history.access(e, (warp, epoch, pc), op, stored) {
                races.push((h, i, lane));
            }
        }
    }
    crossed
}

/// How reports name a space.
fn space_word(space: Space) -> &'static str {
    match space {
        Space::Global(_) => "global",
        Space::Shared(_) | Space::Choice { shared: true } => "shared",
        Space::Local(_) => "local",
        Space::Choice { shared: false } => "global",
    }
}

/// The first sector of the array a global space stands for, in the cache model (0 otherwise).
fn sector_base(space: Space, globals: &[Option<GlobalBuf<'_>>]) -> u64 {
    match space {
        Space::Global(p) => globals[p as usize].as_ref().map_or(0, |g| g.sector_base),
        _ => 0,
    }
}

/// Pointer parameter `p`.
/// What a hidden buffer of the device heap is to the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HeapRole {
    /// The heap's bytes: an access is checked against the allocation record.
    Heap,
    /// The allocation record: not counted as the kernel's memory traffic.
    Record,
}

/// The role of the array named `name` in the device heap, if it has one.
fn heap_role(name: &str) -> Option<HeapRole> {
    use crate::check::heap::{HEAP, HEAP_BLOCKS};
    // Only a hidden buffer's name starts with `(`: one byte decides for every other array.
    if !name.starts_with('(') {
        return None;
    }
    match name {
        HEAP => Some(HeapRole::Heap),
        HEAP_BLOCKS => Some(HeapRole::Record),
        _ => None,
    }
}

fn global<'g, 'a>(globals: &'g [Option<GlobalBuf<'a>>], p: u32) -> &'g GlobalBuf<'a> {
    globals[p as usize]
        .as_ref()
        .expect("exec: a pointer parameter has an entry")
}

/// The cells of the array pointer parameter `p` points into (known not `NULL`: `param_shift`
/// traps first).
fn cells<'g, 'a>(globals: &'g [Option<GlobalBuf<'a>>], p: u32) -> &'g Cells<'a> {
    global(globals, p)
        .cells
        .as_ref()
        .expect("exec: `param_shift` stops accesses through NULL")
}

/// Distinct indices among the active lanes of one warp.
fn distinct(ix: &[i64], m: &[bool], scratch: &mut Vec<i64>) -> u64 {
    scratch.clear();
    scratch.extend(ix.iter().zip(m).filter(|(_, &a)| a).map(|(&i, _)| i));
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len() as u64
}

/// The first two active lanes of a store on one index whose values `differ`: (earlier, later).
fn first_duplicate(
    idx: &[i64],
    mask: &[bool],
    differ: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashMap::new();
    for (lane, (&i, &m)) in idx.iter().zip(mask).enumerate() {
        if m {
            if let Some(&first) = seen.get(&i) {
                if differ(first, lane) {
                    return Some((first, lane));
                }
            } else {
                seen.insert(i, lane);
            }
        }
    }
    None
}

/// The low `ty.size()` bytes: what a store of a `ty` keeps of a register's bits.
fn size_mask(ty: Scalar) -> u64 {
    u64::MAX >> (64 - 8 * ty.size())
}

/// The bits every lane of register `r` holds as a `ty` (as [`lane_bits`] gives them), into `out`.
fn row_bits(regs: &RegFile, r: Reg, ty: Scalar, out: &mut Vec<u64>) {
    let r = r.0 as usize;
    out.clear();
    match crate::ir::bank_of(ty) {
        crate::ir::Bank::B => out.extend(regs.b[r].iter().map(|&x| u64::from(x))),
        crate::ir::Bank::W => out.extend(regs.w[r].iter().map(|&x| u64::from(x))),
        crate::ir::Bank::D => out.extend_from_slice(&regs.d[r]),
        crate::ir::Bank::F => out.extend(regs.f[r].iter().map(|x| u64::from(x.to_bits()))),
        crate::ir::Bank::G => out.extend(regs.g[r].iter().map(|x| x.to_bits())),
    }
}

/// The bits of register `r` (holding a value of type `ty`) in lane `lane`.
fn lane_bits(regs: &RegFile, r: Reg, ty: Scalar, lane: usize) -> u64 {
    let r = r.0 as usize;
    match crate::ir::bank_of(ty) {
        crate::ir::Bank::B => u64::from(regs.b[r][lane]),
        crate::ir::Bank::W => u64::from(regs.w[r][lane]),
        crate::ir::Bank::D => regs.d[r][lane],
        crate::ir::Bank::F => u64::from(regs.f[r][lane].to_bits()),
        crate::ir::Bank::G => regs.g[r][lane].to_bits(),
    }
}

/// An access through a struct parameter's pointer member the launch did not set.
#[cold]
fn unset_pointer(
    member: &str,
    span: crate::source::Span,
    block: [u32; 3],
    thread: [u32; 3],
) -> RunError {
    RunError::UnsetPointer {
        member: member.to_string(),
        span,
        block,
        thread,
        help: format!(
            "set it in the launch section (`{member} = zeros(n);`, or `= NULL` where the kernel checks for it); a pointer member the kernel never reads may stay unset"
        ),
    }
}
