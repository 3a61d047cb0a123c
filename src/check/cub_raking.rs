//! CUB's `BlockScanRaking` (BlockScan's default algorithm), checked into the shared-memory
//! grid, serial raking, warp scan and barriers `block_scan_raking.cuh` builds it from.

// Every thread places its item in `BlockRakingLayout`'s grid (one padding element after each
// segment when the segment length is even and above 2, against bank conflicts),
// `__syncthreads()`; the first RAKING_THREADS threads (one warp) each read their segment
// (`CopySegment`), reduce it (`Upsweep`), scan the reductions with `WarpScan<T, RAKING_THREADS>`
// (shuffles), read the segment again unless memoized, scan it serially from the warp scan's
// exclusive output and write it back (`ExclusiveDownsweep` / `InclusiveDownsweep`);
// `__syncthreads()`, and every thread reads its output from where it placed its item. Asked
// for, the block aggregate goes through the TempStorage's `block_aggregate` (stored by thread
// RAKING_THREADS - 1, or by thread 0 when there is an initial value). A block of at most 32
// threads is one logical warp: CUB scans it with the warp scan alone (`WARP_SYNCHRONOUS`).

use super::cub::assign;
use super::cub_scan::{select, Scan};
use super::expr::{constant, load};
use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// `BlockRakingLayout<T, THREADS>` inside `BlockScanRaking`'s TempStorage, in elements of `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RakingLayout {
    /// The block's shape.
    pub dims: [u32; 3],
    /// `BLOCK_THREADS`.
    pub threads: u32,
    /// `SEGMENT_LENGTH`: items each raking thread reduces.
    pub segment: u32,
    /// `RAKING_THREADS`.
    pub raking_threads: u32,
    /// `USE_SEGMENT_PADDING`: one unused element after each segment.
    pub padding: bool,
    /// Where `raking_grid` starts: after the warp scan's empty storage (one byte), aligned to
    /// the grid's 16 bytes.
    pub grid: u32,
    /// Where `block_aggregate` is: after the grid, padded to 16 bytes.
    pub aggregate: u32,
    /// The whole TempStorage, padded to its 16-byte alignment.
    pub storage_len: u32,
}

impl RakingLayout {
    pub(crate) fn new(dims: [u32; 3], elem: Scalar) -> RakingLayout {
        RakingLayout::of_size(dims, elem.size())
    }

    /// The layout for items of `size` bytes.
    pub(crate) fn of_size(dims: [u32; 3], size: u32) -> RakingLayout {
        let threads = dims[0] * dims[1] * dims[2];
        let max_raking = threads.min(32);
        let segment = threads.div_ceil(max_raking);
        let raking_threads = threads.div_ceil(segment);
        let padding = segment.is_multiple_of(2) && segment > 2;
        let grid_elements = raking_threads * (segment + u32::from(padding));
        let round16 = |bytes: u32| bytes.div_ceil(16) * 16;
        let aggregate_at = 16 + round16(grid_elements * size);
        RakingLayout {
            dims,
            threads,
            segment,
            raking_threads,
            padding,
            grid: 16 / size,
            aggregate: aggregate_at / size,
            storage_len: round16(aggregate_at + size) / size,
        }
    }

    /// The block sizes simt models: whole warps, whose raking needs no guard and whose warp
    /// scan is 32 shuffle lanes, or one logical warp of a power of two (CUB scans any other
    /// size with guarded raking or a shared-memory warp scan).
    pub(crate) fn modelled(threads: u32) -> bool {
        threads.is_multiple_of(32) || (threads <= 32 && threads.is_power_of_two())
    }

    fn warp_synchronous(self) -> bool {
        self.threads == self.raking_threads
    }
}

impl KernelChecker<'_, '_> {
    /// `cub::BlockScan<T, X, BLOCK_SCAN_RAKING[_MEMOIZE], Y, Z>`: the output and, when the call
    /// asks for it, the block aggregate.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn block_raking_scan(
        &mut self,
        scan: &Scan<'_>,
        elem: Scalar,
        (layout, memoize): (RakingLayout, bool),
        (s, first): (u32, Expr),
        input: VarId,
        init: Option<VarId>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<(VarId, Option<VarId>)> {
        if layout.warp_synchronous() {
            return self.warp_scan(scan, elem, layout.threads, input, init, body, span);
        }
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let int = |v: u32| constant(Value::I32(v as i32), span);
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        let tid = self.cub_tid(Some(layout.dims), span)?;
        let tid = self.raking_tid(tid, body, span)?;
        let t = || Expr {
            kind: ExprKind::Var(tid),
            ty: Scalar::I32,
            span,
        };
        let grid = self.binary(BinOp::Add, span, first.clone(), int(layout.grid))?;
        // PlacementPtr: `offset = linear_tid; offset += offset / SEGMENT_LENGTH;` (padding).
        let mut offset = t();
        if layout.padding {
            let pads = self.binary(BinOp::Div, span, t(), int(layout.segment))?;
            offset = self.binary(BinOp::Add, span, offset, pads)?;
        }
        let placement = self.binary(BinOp::Add, span, grid.clone(), offset)?;
        let placed = self.new_local("cub placement", Scalar::I32, span);
        body.push(assign(placed, placement, span));
        let placed = || Expr {
            kind: ExprKind::Var(placed),
            ty: Scalar::I32,
            span,
        };
        body.push(store(mem, placed(), var(input), span));
        body.push(barrier(span));

        // The raking warp: `if (linear_tid < RAKING_THREADS)`.
        let mut rake = Vec::new();
        let stride = layout.segment + u32::from(layout.padding);
        let start = self.binary(BinOp::Mul, span, t(), int(stride))?;
        let start = self.binary(BinOp::Add, span, grid, start)?;
        let raking = self.new_local("cub raking_ptr", Scalar::I32, span);
        rake.push(assign(raking, start, span));
        let at = |k: u32, me: &mut Self| {
            let base = Expr {
                kind: ExprKind::Var(raking),
                ty: Scalar::I32,
                span,
            };
            me.binary(BinOp::Add, span, base, int(k))
        };
        // Upsweep: CopySegment into registers, then the serial reduction.
        let mut cached = Vec::new();
        for k in 0..layout.segment {
            let v = self.new_local("cub cached_segment", elem, span);
            rake.push(assign(v, load(mem, at(k, self)?, span), span));
            cached.push(v);
        }
        let partial = self.new_local("cub upsweep_partial", elem, span);
        rake.push(assign(partial, var(cached[0]), span));
        for &item in &cached[1..] {
            let next = self.combine(&scan.op, var(partial), var(item), elem, span)?;
            rake.push(assign(partial, next, span));
        }
        // The warp scan of the partials: `Scan` (inclusive and exclusive) where the aggregate
        // comes from the last raking thread, else `ExclusiveScan` (with the initial value and
        // its warp aggregate, if any).
        let (prefix, inclusive, warp_total) = if scan.aggregate.is_some() && init.is_none() {
            let acc = self.new_local("cub inclusive_partial", elem, span);
            rake.push(assign(acc, var(partial), span));
            let lane = self.new_local("cub lane", Scalar::I32, span);
            rake.push(assign(lane, t(), span));
            let lanes = layout.raking_threads;
            self.inclusive_steps(acc, lane, elem, lanes, &scan.op, &mut rake, span)?;
            let excl = self.exclusive_of(acc, partial, elem, lanes, &scan.op, &mut rake, span)?;
            (excl, Some(acc), None)
        } else {
            let exclusive = Scan {
                inclusive: false,
                aggregate: scan.aggregate.filter(|_| init.is_some()),
                ..scan.clone()
            };
            let lanes = layout.raking_threads;
            let (excl, total) =
                self.warp_scan(&exclusive, elem, lanes, partial, init, &mut rake, span)?;
            (excl, None, total)
        };
        // The downsweep: the segment again (unless memoized), scanned from the prefix, which
        // thread 0 does not apply when there is no initial value.
        if !memoize {
            for (k, &v) in cached.iter().enumerate() {
                rake.push(assign(v, load(mem, at(k as u32, self)?, span), span));
            }
        }
        let first_item = self.combine(&scan.op, var(prefix), var(cached[0]), elem, span)?;
        let seeded = match init {
            Some(_) => first_item,
            None => {
                let not0 = self.binary(BinOp::Ne, span, t(), int(0))?;
                select(not0, first_item, var(cached[0]), ty, span)
            }
        };
        let running = self.new_local("cub inclusive", elem, span);
        rake.push(assign(running, seeded, span));
        // Each output goes back to the segment as it is made (CUB scans into registers, then
        // writes them all: the same accesses). An exclusive scan's last combination is dead.
        if scan.inclusive {
            rake.push(store(mem, at(0, self)?, var(running), span));
            for (k, &item) in cached.iter().enumerate().skip(1) {
                let next = self.combine(&scan.op, var(running), var(item), elem, span)?;
                rake.push(assign(running, next, span));
                rake.push(store(mem, at(k as u32, self)?, var(running), span));
            }
        } else {
            rake.push(store(mem, at(0, self)?, var(prefix), span));
            for (k, &item) in cached.iter().enumerate().skip(1) {
                rake.push(store(mem, at(k as u32, self)?, var(running), span));
                if k + 1 < cached.len() {
                    let next = self.combine(&scan.op, var(running), var(item), elem, span)?;
                    rake.push(assign(running, next, span));
                }
            }
        }
        // The block aggregate's broadcast.
        let slot = self.binary(BinOp::Add, span, first.clone(), int(layout.aggregate))?;
        if let Some(total) = inclusive
            .or(warp_total)
            .filter(|_| scan.aggregate.is_some())
        {
            let writer = if init.is_some() {
                0
            } else {
                layout.raking_threads - 1
            };
            let mine = self.binary(BinOp::Eq, span, t(), int(writer))?;
            rake.push(Stmt {
                kind: StmtKind::If {
                    cond: mine,
                    then: vec![store(mem, slot.clone(), var(total), span)],
                    els: Vec::new(),
                },
                span,
            });
        }
        let raking_warp = self.binary(BinOp::Lt, span, t(), int(layout.raking_threads))?;
        body.push(Stmt {
            kind: StmtKind::If {
                cond: raking_warp,
                then: rake,
                els: Vec::new(),
            },
            span,
        });
        body.push(barrier(span));
        let out = self.new_local("cub output", elem, span);
        body.push(assign(out, load(mem, placed(), span), span));
        let aggregate = match scan.aggregate {
            Some(_) => {
                let a = self.new_local("cub block_aggregate", elem, span);
                body.push(assign(a, load(mem, slot, span), span));
                Some(a)
            }
            None => None,
        };
        Ok((out, aggregate))
    }

    /// `linear_tid` in an `int` variable.
    fn raking_tid(&mut self, tid: Expr, body: &mut Vec<Stmt>, span: Span) -> Result<VarId> {
        let tid = self.convert(tid, Scalar::I32);
        let v = self.new_local("cub linear_tid", Scalar::I32, span);
        body.push(assign(v, tid, span));
        Ok(v)
    }
}

fn store(mem: Mem, index: Expr, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Store { mem, index, value },
        span,
    }
}

fn barrier(span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Barrier,
        span,
    }
}
