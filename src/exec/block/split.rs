//! `__syncthreads()` on both sides of an `if` that splits a block by whole warps (the
//! double-buffered SGEMM's loading and computing halves): the two sides run in turns, each up to
//! its next barrier, and a barrier passes when both sides are at one, as the hardware counts
//! arrivals at barrier 0 whichever `bar.sync` instruction they come from.

use super::{BlockRunner, Frame, FrameKind, GlobalBuf};
use crate::exec::error::RunError;
use crate::ir::Inst;

/// An `if` whose sides run in turns.
#[derive(Debug)]
pub(super) struct Split {
    /// The `if`'s frame (an index into the frames).
    frame: usize,
    /// Its `Else` and `EndIf`.
    else_at: usize,
    end_at: usize,
    /// Whether the side running is the `else` side.
    running_else: bool,
    /// The side waiting.
    other: Side,
}

/// A side of the split `if` that is not running: where it goes on, its lanes and its frames
/// above the `if`'s.
#[derive(Debug)]
struct Side {
    wait: Wait,
    pc: usize,
    mask: Vec<bool>,
    frames: Vec<Frame>,
    depth: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// At the barrier `pc`, for the other side to reach one.
    AtBarrier,
    /// Ready to go on from `pc`.
    Ready,
    /// At the end of its side.
    Done,
}

impl BlockRunner<'_> {
    /// `__syncthreads()` at `pc`: the barrier, or, where the threads missing from it are on the
    /// other side of an `if` that splits the block by warps and may reach a barrier before they
    /// exit, a turn of that side. `Some(pc)`: where to go on.
    pub(super) fn sync(
        &mut self,
        pc: usize,
        globals: &[Option<GlobalBuf<'_>>],
    ) -> Result<Option<usize>, RunError> {
        if self.lanes_active == 0
            || self.probing_exit.is_some()
            || self.missing_lane().is_none()
            || (self.split.is_none() && self.missing_lanes_exit(pc))
        {
            self.barrier(pc, "__syncthreads", globals)?;
            return Ok(None);
        }
        let Some(split) = &self.split else {
            if let Some(split) = self.split_at(pc) {
                self.park_at_barrier(pc);
                self.split = Some(split);
                return Ok(Some(self.take_turn(Wait::AtBarrier, pc)));
            }
            self.barrier(pc, "__syncthreads", globals)?;
            return Ok(None);
        };
        match split.other.wait {
            Wait::AtBarrier if self.missing_in(&split.other.mask) => {
                let partner = split.other.pc;
                if let Some(s) = &mut self.split {
                    s.other.wait = Wait::Ready;
                    s.other.pc = partner + 1;
                }
                self.barrier_passes[partner].split = true;
                self.barrier_passes[pc].split = true;
                self.pass(pc);
                self.counters[pc].barriers += 1;
                self.partner_barrier = Some(partner);
                Ok(None)
            }
            Wait::Ready => {
                self.park_at_barrier(pc);
                Ok(Some(self.take_turn(Wait::AtBarrier, pc)))
            }
            // The other side finished without this barrier, or a thread of this side is
            // missing too: the barrier is divergent.
            Wait::AtBarrier | Wait::Done => {
                self.barrier(pc, "__syncthreads", globals)?;
                Ok(None)
            }
        }
    }

    /// The side running reaches `Else` or `EndIf` at `pc`: `Some(pc)` to go on from when it ends
    /// a side of the split `if` (the other side's turn, or after the `if` once both are done).
    pub(super) fn side_end(&mut self, pc: usize) -> Result<Option<usize>, RunError> {
        let Some(split) = &self.split else {
            return Ok(None);
        };
        let end = if split.running_else {
            split.end_at
        } else {
            split.else_at
        };
        if pc != end {
            return Ok(None);
        }
        match split.other.wait {
            Wait::Ready => Ok(Some(self.take_turn(Wait::Done, pc))),
            Wait::Done => {
                let (frame, end_at) = (split.frame, split.end_at);
                self.split = None;
                self.depth = frame + 1;
                self.pop();
                Ok(Some(end_at + 1))
            }
            Wait::AtBarrier => {
                // The other side waits at a barrier this side never reached.
                let (at, lanes) = (split.other.pc, split.other.mask.clone());
                let missing = self
                    .mask
                    .iter()
                    .position(|&m| m)
                    .or_else(|| (0..lanes.len()).find(|&l| !lanes[l] && !self.returned[l]))
                    .unwrap_or(0);
                let live = self.returned.iter().filter(|&&r| !r).count() as u32;
                Err(RunError::DivergentBarrier {
                    span: self.ir.spans[at],
                    block: self.block,
                    missing: self.cfg.thread_of(missing),
                    arrived: lanes.iter().filter(|&&m| m).count() as u32,
                    live,
                    barrier: "__syncthreads",
                })
            }
        }
    }

    /// The live lanes not active here, if any.
    fn missing_lane(&self) -> Option<usize> {
        self.mask
            .iter()
            .zip(&self.returned)
            .position(|(&m, &r)| !m && !r)
    }

    /// Whether every live lane missing here is one of `lanes`.
    fn missing_in(&self, lanes: &[bool]) -> bool {
        self.mask
            .iter()
            .zip(&self.returned)
            .zip(lanes)
            .all(|((&m, &r), &o)| m || r || o)
    }

    /// The `if` whose `else` side holds exactly the live lanes missing from the barrier at `pc`
    /// on its `then` side, when it splits the block's warps whole (a warp split between two
    /// barriers is undefined in PTX: `bar.sync` is `.aligned`).
    fn split_at(&self, pc: usize) -> Option<Split> {
        (0..self.depth).rev().find_map(|f| {
            let frame = &self.frames[f];
            let Inst::If { else_at, .. } = *self.ir.insts.get(frame.at)? else {
                return None;
            };
            let else_at = else_at as usize;
            let Inst::Else { c, end_at } = self.ir.insts[else_at] else {
                return None;
            };
            if frame.kind != FrameKind::Branch || pc >= else_at || frame.at >= pc {
                return None;
            }
            let cond = &self.regs.b[c.0 as usize];
            let other: Vec<bool> = frame
                .saved
                .iter()
                .zip(cond)
                .map(|(&s, &x)| s && !x)
                .collect();
            let exact = self
                .mask
                .iter()
                .zip(&self.returned)
                .zip(&other)
                .all(|((&m, &r), &o)| o == (!m && !r));
            let whole_warps = self
                .mask
                .chunks(32)
                .zip(other.chunks(32))
                .all(|(m, o)| !(m.iter().any(|&x| x) && o.iter().any(|&x| x)));
            (exact && whole_warps).then(|| Split {
                frame: f,
                else_at,
                end_at: end_at as usize,
                running_else: false,
                other: Side {
                    wait: Wait::Ready,
                    pc: else_at + 1,
                    mask: other,
                    frames: Vec::new(),
                    depth: f + 1,
                },
            })
        })
    }

    /// The running side's warps issue the barrier at `pc` and wait there.
    fn park_at_barrier(&mut self, pc: usize) {
        self.issue(pc);
        self.counters[pc].barriers += 1;
    }

    /// The running side stops (`wait`, at `pc`) and the other side runs: where it goes on.
    fn take_turn(&mut self, wait: Wait, pc: usize) -> usize {
        let split = self.split.as_mut().expect("a split if is running");
        let above = split.frame + 1;
        let mine = Side {
            wait,
            pc,
            mask: self.mask.clone(),
            frames: self.frames[above..self.depth].to_vec(),
            depth: self.depth,
        };
        let other = std::mem::replace(&mut split.other, mine);
        split.running_else = !split.running_else;
        self.frames.truncate(above);
        self.frames.extend(other.frames);
        self.depth = other.depth;
        self.mask = other.mask;
        self.update_mask();
        other.pc
    }
}
