//! Asynchronous copies in flight in a block: their barriers and pipelines, and the accesses that race with them ([`crate::async_copy`]).

use std::collections::HashMap;

use super::{BlockRunner, GlobalBuf};
use crate::async_copy::AsyncObj;
use crate::exec::error::RunError;
use crate::exec::race::RaceKind;
use crate::ir::{AsyncIr, Space};

/// One side of one lane's copy piece in flight: the bytes it writes (or reads).
#[derive(Clone, Copy, Debug)]
struct Flight {
    lane: u32,
    obj: AsyncObj,
    /// The pipeline stage it was committed in (`None` before its commit).
    stage: Option<u32>,
    space: Space,
    /// Bytes `lo..hi` of the array.
    bytes: (i64, i64),
    /// The copy's load or store.
    pc: u32,
}

/// A `cuda::barrier`'s state.
#[derive(Clone, Copy, Debug, Default)]
struct Bar {
    /// `init`'s count, once set.
    expected: Option<u32>,
    /// Arrivals in the open phase.
    arrived: u32,
    /// Phases completed.
    phase: u64,
}

/// A block's asynchronous copies, barriers and pipelines.
#[derive(Clone, Debug, Default)]
pub(crate) struct AsyncState {
    /// Inside a copy's loads and stores: what completes it.
    open: Option<AsyncObj>,
    /// Copy pieces in flight (`None` once complete).
    flights: Vec<Option<Flight>>,
    /// Destination bytes in flight: the flight writing each.
    dst: HashMap<(Space, i64), u32>,
    /// Source bytes in flight: a flight reading each.
    src: HashMap<(Space, i64), u32>,
    /// Barriers by number.
    bars: Vec<Bar>,
    /// Per pipeline (and the implicit one, under `u32::MAX`), per lane: stages committed and
    /// stages released.
    stages: HashMap<u32, Vec<(u32, u32)>>,
}

/// The key of a pipeline in [`AsyncState::stages`].
fn pipe_key(obj: AsyncObj) -> u32 {
    match obj {
        AsyncObj::Pipeline { id, .. } => id,
        AsyncObj::Primitive | AsyncObj::Barrier(_) => u32::MAX,
    }
}

impl AsyncState {
    /// Whether an access must be looked at: inside a copy, or with bytes in flight.
    #[inline]
    pub(super) fn watching(&self) -> bool {
        self.open.is_some() || !self.flights.is_empty()
    }

    /// Inside a copy of a block's pipeline, whose consumers' wait orders its writes before
    /// their reads (a barrier's wait is a barrier already).
    #[inline]
    pub(super) fn synchronised(&self) -> bool {
        matches!(self.open, Some(AsyncObj::Pipeline { shared: true, .. }))
    }

    /// The stage counters of `obj` for `lanes` lanes.
    fn stages_of(&mut self, obj: AsyncObj, lanes: usize) -> &mut Vec<(u32, u32)> {
        self.stages
            .entry(pipe_key(obj))
            .or_insert_with(|| vec![(0, 0); lanes])
    }

    /// Completes the flights `done` picks.
    fn complete(&mut self, done: impl Fn(&Flight) -> bool) {
        for (k, f) in self.flights.iter_mut().enumerate() {
            let Some(flight) = f else { continue };
            if !done(flight) {
                continue;
            }
            for b in flight.bytes.0..flight.bytes.1 {
                for map in [&mut self.dst, &mut self.src] {
                    if map.get(&(flight.space, b)) == Some(&(k as u32)) {
                        map.remove(&(flight.space, b));
                    }
                }
            }
            *f = None;
        }
        if self.flights.iter().all(Option::is_none) {
            self.flights.clear();
            self.dst.clear();
            self.src.clear();
        }
    }
}

impl BlockRunner<'_> {
    /// `Inst::AsyncOpen` and `Inst::AsyncClose`.
    pub(super) fn async_bracket(
        &mut self,
        pc: usize,
        obj: Option<AsyncObj>,
    ) -> Result<(), RunError> {
        if let (Some(AsyncObj::Barrier(b)), true) = (obj, self.lanes_active > 0) {
            self.initialised(pc, b)?;
        }
        self.asyncs.open = obj;
        Ok(())
    }

    /// The access of `bytes` bytes per lane at the vector indices in `idx` (already bounds
    /// checked): inside a copy, its bytes go in flight; otherwise, an access of bytes in flight
    /// is a race with the copy.
    pub(super) fn async_access(
        &mut self,
        pc: usize,
        space: Space,
        (bytes, width): (u32, u32),
        is_store: bool,
    ) {
        let bytes = i64::from(bytes);
        let lanes = self.mask.len();
        if let Some(obj) = self.asyncs.open {
            for l in 0..lanes {
                if !self.mask[l] {
                    continue;
                }
                let lo = self.idx[l] * bytes;
                let k = self.asyncs.flights.len() as u32;
                if is_store {
                    // Two copies in flight writing one byte: the later one races the earlier.
                    if let Some(&other) = self.asyncs.dst.get(&(space, lo)) {
                        if let Some(f) = self.asyncs.flights[other as usize] {
                            self.race_hits.push((
                                (RaceKind::AsyncCopy, f.lane / 32, f.pc),
                                self.idx[l] * i64::from(width),
                                l as u32,
                            ));
                        }
                    }
                }
                self.asyncs.flights.push(Some(Flight {
                    lane: l as u32,
                    obj,
                    stage: None,
                    space,
                    bytes: (lo, lo + bytes),
                    pc: pc as u32,
                }));
                let map = if is_store {
                    &mut self.asyncs.dst
                } else {
                    &mut self.asyncs.src
                };
                for b in lo..lo + bytes {
                    map.insert((space, b), k);
                }
            }
            return;
        }
        for l in 0..lanes {
            if !self.mask[l] {
                continue;
            }
            let lo = self.idx[l] * bytes;
            let hit = (lo..lo + bytes).find_map(|b| {
                let dst = self.asyncs.dst.get(&(space, b));
                let src = is_store.then(|| self.asyncs.src.get(&(space, b))).flatten();
                dst.or(src).copied()
            });
            if let Some(Some(f)) = hit.map(|k| self.asyncs.flights[k as usize]) {
                self.race_hits.push((
                    (RaceKind::AsyncCopy, f.lane / 32, f.pc),
                    self.idx[l] * i64::from(width),
                    l as u32,
                ));
            }
        }
    }

    /// Marks the shared elements the active lanes write (this component's, in `comp` for a
    /// vector) as written by a block pipeline's copy ([`crate::exec::race::History::fill`]).
    pub(super) fn fill_shared(&mut self, s: u32, width: u32) {
        let ix: &[i64] = if width > 1 { &self.comp } else { &self.idx };
        let arr = &mut self.shared[s as usize];
        for (&m, &i) in self.mask.iter().zip(ix) {
            if m {
                arr.history.fill(i as usize, self.epoch);
            }
        }
    }

    /// Barrier `bar` has had its `init`.
    fn initialised(&mut self, pc: usize, bar: u32) -> Result<u32, RunError> {
        match self.asyncs.bars.get(bar as usize).and_then(|b| b.expected) {
            Some(n) => Ok(n),
            None => Err(RunError::BarrierUninit {
                span: self.ir.spans[pc],
                block: self.block,
            }),
        }
    }

    /// The active lanes arrive at barrier `bar`: `true` when that completes its phase.
    fn bar_arrive(&mut self, pc: usize, bar: u32) -> Result<bool, RunError> {
        let expected = self.initialised(pc, bar)?;
        let b = &mut self.asyncs.bars[bar as usize];
        b.arrived += self.lanes_active as u32;
        if b.arrived > expected {
            return Err(RunError::BarrierArrivals {
                span: self.ir.spans[pc],
                block: self.block,
                arrived: b.arrived,
                expected,
            });
        }
        if b.arrived < expected {
            return Ok(false);
        }
        b.arrived = 0;
        b.phase += 1;
        Ok(true)
    }

    /// The lanes wait for barrier `bar`'s phase to complete: its copies complete, and where
    /// every live thread is here the wait separates two epochs, as `__syncthreads()` does.
    fn bar_wait(
        &mut self,
        pc: usize,
        bar: u32,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        self.asyncs.complete(|f| f.obj == AsyncObj::Barrier(bar));
        let all = self.mask.iter().zip(&self.returned).all(|(&m, &r)| m || r);
        if all {
            self.barrier(pc, "cuda::barrier wait", globals)?;
        } else {
            self.issue(pc);
        }
        Ok(())
    }

    /// `Inst::Async`.
    pub(super) fn async_op(
        &mut self,
        pc: usize,
        op: AsyncIr,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        if self.lanes_active == 0 {
            return Ok(());
        }
        let lanes = self.mask.len();
        // A wait issues as the barrier it is; a thread pipeline's acquire and release are
        // libcu++ bookkeeping in registers (no instruction of their own).
        let free = matches!(
            op,
            AsyncIr::ArriveAndWait { .. }
                | AsyncIr::Wait { .. }
                | AsyncIr::Acquire(_)
                | AsyncIr::Release(AsyncObj::Pipeline { shared: false, .. })
        );
        if !free {
            self.issue(pc);
        }
        match op {
            AsyncIr::Init { bar, count } => {
                let n = (0..lanes)
                    .filter(|&l| self.mask[l])
                    .map(|l| self.regs.w[count.0 as usize][l])
                    .max()
                    .expect("a lane is active");
                if self.asyncs.bars.len() <= bar as usize {
                    self.asyncs.bars.resize(bar as usize + 1, Bar::default());
                }
                self.asyncs.bars[bar as usize] = Bar {
                    expected: Some(n),
                    arrived: 0,
                    phase: 0,
                };
            }
            AsyncIr::ArriveAndWait { bar } => {
                if !self.bar_arrive(pc, bar)? {
                    return Err(self.never_completes(pc, bar));
                }
                self.bar_wait(pc, bar, globals)?;
            }
            AsyncIr::Arrive { bar, token } => {
                let phase = self.asyncs.bars.get(bar as usize).map_or(0, |b| b.phase);
                self.bar_arrive(pc, bar)?;
                for l in 0..lanes {
                    if self.mask[l] {
                        self.regs.d[token.0 as usize][l] = phase;
                    }
                }
            }
            AsyncIr::Wait { bar, token } => {
                self.initialised(pc, bar)?;
                let phase = self.asyncs.bars[bar as usize].phase;
                let waiting =
                    (0..lanes).any(|l| self.mask[l] && self.regs.d[token.0 as usize][l] >= phase);
                if waiting {
                    return Err(self.never_completes(pc, bar));
                }
                self.bar_wait(pc, bar, globals)?;
            }
            AsyncIr::Acquire(_) => {}
            AsyncIr::Commit(obj) => {
                let mask = self.mask.clone();
                let stages = self.asyncs.stages_of(obj, lanes).clone();
                for f in self.asyncs.flights.iter_mut().flatten() {
                    if f.obj == obj && f.stage.is_none() && mask[f.lane as usize] {
                        f.stage = Some(stages[f.lane as usize].0);
                    }
                }
                for (s, &m) in self.asyncs.stages_of(obj, lanes).iter_mut().zip(&mask) {
                    if m {
                        s.0 += 1;
                    }
                }
            }
            AsyncIr::ConsumerWait(obj) => {
                self.uncommitted(pc, obj, "consumer_wait()")?;
                let stages = self.asyncs.stages_of(obj, lanes).clone();
                let mask = self.mask.clone();
                let shared = matches!(obj, AsyncObj::Pipeline { shared: true, .. });
                // A block's pipeline: the oldest stage a waiting consumer has not released.
                let oldest = (0..lanes)
                    .filter(|&l| mask[l])
                    .map(|l| stages[l].1)
                    .min()
                    .expect("a lane is active");
                self.asyncs.complete(|f| {
                    f.obj == obj
                        && match (shared, f.stage) {
                            (true, Some(s)) => s <= oldest,
                            (false, Some(s)) => {
                                mask[f.lane as usize] && s <= stages[f.lane as usize].1
                            }
                            (_, None) => false,
                        }
                });
            }
            AsyncIr::Release(obj) => {
                let mask = self.mask.clone();
                for (s, &m) in self.asyncs.stages_of(obj, lanes).iter_mut().zip(&mask) {
                    if m {
                        s.1 += 1;
                    }
                }
            }
            AsyncIr::WaitPrior { obj, keep, call } => {
                self.uncommitted(pc, obj, call)?;
                let stages = self.asyncs.stages_of(obj, lanes).clone();
                let mask = self.mask.clone();
                self.asyncs.complete(|f| {
                    f.obj == obj
                        && mask[f.lane as usize]
                        && f.stage
                            .is_some_and(|s| s + keep < stages[f.lane as usize].0)
                });
            }
        }
        Ok(())
    }

    /// A wait of `obj` by a lane whose only copies in flight were never committed: the wait
    /// covers committed stages only, so it waits for none of them.
    fn uncommitted(&self, pc: usize, obj: AsyncObj, call: &'static str) -> Result<(), RunError> {
        let committed = |l: usize| {
            self.asyncs
                .flights
                .iter()
                .flatten()
                .any(|f| f.obj == obj && f.lane as usize == l && f.stage.is_some())
        };
        let found = self.asyncs.flights.iter().flatten().find(|f| {
            f.obj == obj
                && f.stage.is_none()
                && self.mask[f.lane as usize]
                && !committed(f.lane as usize)
        });
        match found {
            Some(f) => Err(RunError::WaitWithoutCommit {
                span: self.ir.spans[pc],
                copy: self.ir.spans[f.pc as usize],
                call,
                block: self.block,
                thread: self.cfg.thread_of(f.lane as usize),
            }),
            None => Ok(()),
        }
    }

    /// The error of a wait on barrier `bar`'s phase that cannot complete.
    fn never_completes(&self, pc: usize, bar: u32) -> RunError {
        let b = self.asyncs.bars[bar as usize];
        RunError::BarrierIncomplete {
            span: self.ir.spans[pc],
            block: self.block,
            arrived: b.arrived,
            expected: b.expected.unwrap_or(0),
        }
    }
}
