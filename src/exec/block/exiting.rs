//! Threads missing from a `__syncthreads()` that leave the kernel without reaching another
//! barrier: a grid-stride loop's warps that run out of rows while others go on meeting the
//! loop's barriers. The GPU releases a barrier when the threads holding it up exit (PTX ISA,
//! `exit`), so such a barrier passes when the missing threads are whole warps; a missing thread
//! that may still reach a barrier holds it up, and the barrier is divergent. The barrier
//! releases only once they have exited, so their remaining code runs before it passes: its
//! accesses share the barrier's epoch with the other warps' accesses before it.

use super::{BlockRunner, FrameKind, GlobalBuf};
use crate::exec::error::RunError;
use crate::ir::Inst;

impl BlockRunner<'_> {
    /// Whether every live lane missing from the barrier at `pc` goes on to leave the kernel
    /// without reaching another barrier, and the missing lanes are whole warps: a warp split
    /// at a barrier is undefined in PTX (`bar.sync` is `.aligned`), exits or not.
    pub(super) fn missing_lanes_exit(&self, pc: usize) -> bool {
        let Some(last) = self.ir.insts.iter().rposition(is_barrier) else {
            return false;
        };
        self.missing_whole_warps()
            && (0..self.mask.len())
                .filter(|&l| !self.mask[l] && !self.returned[l])
                .all(|lane| self.resumes_at(lane, pc).is_some_and(|at| at > last))
    }

    /// Whether the live lanes missing from the barrier at `pc` are whole warps that go on
    /// where no enclosing loop takes them back: they may exit, whether they reach another
    /// barrier first is for running them to tell.
    pub(super) fn missing_lanes_may_exit(&self, pc: usize) -> bool {
        self.missing_whole_warps()
            && (0..self.mask.len())
                .filter(|&l| !self.mask[l] && !self.returned[l])
                .all(|lane| self.resumes_at(lane, pc).is_some())
    }

    /// Whether no warp has lanes both at the barrier and missing from it.
    fn missing_whole_warps(&self) -> bool {
        self.mask
            .chunks(32)
            .zip(self.returned.chunks(32))
            .all(|(m, r)| {
                let here = m.iter().any(|&x| x);
                let away = m.iter().zip(r).any(|(&m, &r)| !m && !r);
                !(here && away)
            })
    }

    /// Runs the lanes missing from the barrier at `pc` (which [`Self::missing_lanes_exit`] says
    /// exit) to the end of the kernel, and leaves the lanes at the barrier as they were.
    pub(super) fn run_exiting(
        &mut self,
        pc: usize,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<(), RunError> {
        let exiting: Vec<bool> = (self.mask.iter().zip(&self.returned))
            .map(|(&m, &r)| !m && !r)
            .collect();
        let (held_mask, held_frames, held_depth) = (
            self.mask.clone(),
            self.frames[..self.depth].to_vec(),
            self.depth,
        );
        let held_split = self.split.take();
        for f in &mut self.frames[..self.depth] {
            keep_only(&mut f.saved, &exiting);
            keep_only(&mut f.cont, &exiting);
        }
        // The innermost frame holding an exiting lane is where they go on.
        while self.depth > 0 && !self.frames[self.depth - 1].saved.iter().any(|&s| s) {
            self.depth -= 1;
        }
        let frame = &self.frames[self.depth - 1];
        let mut at = match frame.kind {
            FrameKind::Loop | FrameKind::Func => self.end_of(frame.at),
            FrameKind::Branch => self.other_side(frame.at, pc),
        };
        self.mask.iter_mut().for_each(|m| *m = false);
        self.update_mask();
        let at_grid_sync = self
            .interpret(globals, &mut at)
            .map_err(|e| e.in_calls(&self.ir.call_sites(at)))?;
        debug_assert!(!at_grid_sync, "exiting lanes reach no barrier");
        let gone: Vec<bool> = exiting.iter().map(|&x| !x).collect();
        self.frames[..held_depth].clone_from_slice(&held_frames);
        for f in &mut self.frames[..held_depth] {
            keep_only(&mut f.saved, &gone);
            keep_only(&mut f.cont, &gone);
        }
        self.depth = held_depth;
        self.split = held_split;
        self.mask = held_mask;
        for (r, &x) in self.returned.iter_mut().zip(&exiting) {
            *r |= x;
        }
        self.update_mask();
        Ok(())
    }

    /// Where `lane`, missing from the barrier at `pc`, waits (after a loop it left, a function
    /// it returned from, or on the other side of an `if`), where no enclosing loop takes it
    /// back; `None` otherwise. Resuming after `last`, the kernel's last barrier, it exits
    /// without reaching another.
    fn resumes_at(&self, lane: usize, pc: usize) -> Option<usize> {
        let j = (0..self.depth)
            .rev()
            .find(|&f| self.frames[f].saved[lane])?;
        if self.frames[..j].iter().any(|f| f.kind == FrameKind::Loop) {
            return None;
        }
        let frame = &self.frames[j];
        match frame.kind {
            FrameKind::Loop if frame.cont[lane] => None,
            // A short-circuit side: where its other lanes go on is not kept.
            FrameKind::Branch if frame.at == usize::MAX => None,
            FrameKind::Loop | FrameKind::Func => Some(self.end_of(frame.at)),
            FrameKind::Branch => Some(self.other_side(frame.at, pc)),
        }
    }

    /// Where lanes of the `if` at `at` not running its side that holds `pc` go on: its `else`
    /// while the `then` side runs, its end while the `else` side runs (`pc + 1` for a
    /// short-circuit side).
    fn other_side(&self, at: usize, pc: usize) -> usize {
        let Some(&Inst::If { else_at, .. }) = self.ir.insts.get(at) else {
            return pc + 1;
        };
        let else_at = else_at as usize;
        match self.ir.insts[else_at] {
            Inst::Else { end_at, .. } if pc > else_at => end_at as usize,
            _ => else_at,
        }
    }

    /// The `LoopEnd` or `FnEnd` that closes the `LoopBegin` or `FnBegin` at `begin`.
    fn end_of(&self, begin: usize) -> usize {
        let mut depth = 0usize;
        for (pc, inst) in self.ir.insts.iter().enumerate().skip(begin) {
            match inst {
                Inst::LoopBegin | Inst::FnBegin => depth += 1,
                Inst::LoopEnd | Inst::FnEnd => {
                    depth -= 1;
                    if depth == 0 {
                        return pc;
                    }
                }
                _ => {}
            }
        }
        self.ir.insts.len()
    }
}

/// Clears the lanes of `mask` not in `keep`.
fn keep_only(mask: &mut [bool], keep: &[bool]) {
    for (m, &k) in mask.iter_mut().zip(keep) {
        *m &= k;
    }
}

/// An instruction that waits for other threads of the block.
fn is_barrier(inst: &Inst) -> bool {
    matches!(
        inst,
        Inst::Barrier | Inst::BarrierVote { .. } | Inst::GridSync | Inst::Async { .. }
    )
}
