//! CUB's raking block reductions, `BLOCK_REDUCE_RAKING` and `BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY`,
//! checked into the shared-memory grid, serial raking, warp reduction and barrier CUB builds
//! them from, for scalar and struct items alike.

// block_reduce_raking.cuh: a block of at most one warp is `WARP_SYNCHRONOUS`, a
// `WarpReduce<T, BLOCK_THREADS>` alone. Otherwise every thread places its partial in
// `BlockRakingLayout<T, BLOCK_THREADS>`'s grid (`PlacementPtr`), `CTA_SYNC()`, and the first
// RAKING_THREADS threads each take the first item of their segment (`RakingPtr`), combine the
// rest in order (`RakingReduction`; in a partial tile only items below `num_valid`) and reduce
// across the warp (`WarpReduce<T, RAKING_THREADS>`, over `ceil(num_valid / SEGMENT_LENGTH)`
// threads in a partial tile). block_reduce_raking_commutative_only.cuh: for a full tile of whole
// warps, more than one, the threads after the first warp place their partials in a
// `BlockRakingLayout<T, BLOCK_THREADS - 32>`, and each thread of the first warp folds its
// segment into its own partial (`ThreadReduce(segment, op, partial)`) before the warp reduction;
// anything else falls back to `BlockReduceRaking`. `BlockReduce::Sum/Reduce(v, op, num_valid)`
// pick the full-tile path at run time when `num_valid >= BLOCK_THREADS`. Only thread 0's
// result is defined.

use std::rc::Rc;

use super::cub::{assign, Op};
use super::cub_raking::RakingLayout;
use super::cub_record::RecordOp;
use super::expr::{constant, load};
use super::structs::{Home, Layout, StructPlace};
use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// `BLOCK_REDUCE_*`: how a BlockReduce combines its warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReduceAlg {
    /// Warp reductions; lane 0 of each stores its aggregate, thread 0 combines them (default).
    WarpReductions,
    /// A padded shared grid raked by one warp, combining in thread order.
    Raking,
    /// The first warp rakes the others' partials into its own (operators that commute).
    RakingCommutativeOnly,
}

impl ReduceAlg {
    /// The algorithm an enumerator names.
    pub(crate) fn named(name: &str) -> Option<ReduceAlg> {
        match name {
            "BLOCK_REDUCE_WARP_REDUCTIONS" => Some(ReduceAlg::WarpReductions),
            "BLOCK_REDUCE_RAKING" => Some(ReduceAlg::Raking),
            "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY" => Some(ReduceAlg::RakingCommutativeOnly),
            _ => None,
        }
    }

    /// The block sizes simt models for a raking algorithm: one logical warp of a power of two
    /// (CUB's WarpReduce of another size goes through shared memory), or whole warps (whose
    /// raking needs no guard in a full tile).
    pub(crate) fn modelled(threads: u32) -> bool {
        RakingLayout::modelled(threads)
    }

    /// Items of `size` bytes a raking TempStorage holds: the union of the commutative path's and
    /// the fallback's is the fallback's, `BlockReduceRaking<T, BLOCK_THREADS>`'s, itself a union
    /// of the warp reduction's storage and the raking grid (`__align__(16)`): the grid, from
    /// byte 0, rounded up to 16 bytes.
    pub(crate) fn storage_items(dims: [u32; 3], size: u32) -> u32 {
        let l = RakingLayout::of_size(dims, size);
        let grid = l.raking_threads * (l.segment + u32::from(l.padding));
        ((grid * size).div_ceil(16) * 16).div_ceil(size)
    }
}

/// The item a raking reduction moves: a scalar in a variable or a struct in registers, with
/// the TempStorage's shared array and the operation.
trait Item {
    /// `grid[slot] = acc`.
    fn place(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()>;
    /// `acc = grid[slot]`.
    fn take(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()>;
    /// `acc = op(acc, grid[slot])`.
    fn absorb(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>)
        -> Result<()>;
    /// The warp reduction of `acc` over `lanes` (a power of two), only below `valid` if given.
    fn warp(
        &self,
        kc: &mut KernelChecker<'_, '_>,
        lanes: u32,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
    ) -> Result<()>;
}

/// A scalar item: the TempStorage is an array of `elem` from `first`.
struct Scalar1<'a> {
    acc: VarId,
    elem: Scalar,
    op: &'a Op,
    mem: Mem,
    first: Expr,
}

impl Scalar1<'_> {
    fn at(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr) -> Result<Expr> {
        kc.binary(BinOp::Add, slot.span, self.first.clone(), slot)
    }

    fn var(&self, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Var(self.acc),
            ty: self.elem.promoted(),
            span,
        }
    }
}

impl Item for Scalar1<'_> {
    fn place(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()> {
        let span = slot.span;
        let index = self.at(kc, slot)?;
        out.push(Stmt {
            kind: StmtKind::Store {
                mem: self.mem,
                index,
                value: self.var(span),
            },
            span,
        });
        Ok(())
    }

    fn take(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()> {
        let span = slot.span;
        let index = self.at(kc, slot)?;
        out.push(assign(self.acc, load(self.mem, index, span), span));
        Ok(())
    }

    fn absorb(
        &self,
        kc: &mut KernelChecker<'_, '_>,
        slot: Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = slot.span;
        let index = self.at(kc, slot)?;
        let addend = kc.new_local("cub addend", self.elem, span);
        out.push(assign(addend, load(self.mem, index, span), span));
        let addend = Expr {
            kind: ExprKind::Var(addend),
            ty: self.elem.promoted(),
            span,
        };
        let combined = kc.combine(self.op, self.var(span), addend, self.elem, span)?;
        out.push(assign(self.acc, combined, span));
        Ok(())
    }

    fn warp(
        &self,
        kc: &mut KernelChecker<'_, '_>,
        lanes: u32,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = self.first.span;
        kc.warp_reduce(self.acc, self.elem, lanes, self.op, valid, out, span)
    }
}

/// A struct item: the TempStorage is a buffer of structs, `stride` components each, from
/// component `first`.
struct Record<'a> {
    acc: &'a StructPlace,
    op: &'a RecordOp,
    mem: Mem,
    first: Expr,
    stride: u32,
}

impl Record<'_> {
    fn slot(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr) -> Result<StructPlace> {
        let span = slot.span;
        let at = kc.binary(
            BinOp::Mul,
            span,
            slot,
            constant(Value::I32(self.stride as i32), span),
        )?;
        let at = kc.binary(BinOp::Add, span, self.first.clone(), at)?;
        Ok(StructPlace {
            layout: Rc::clone(&self.acc.layout),
            home: Home::Mem {
                mem: self.mem,
                at: kc.convert(at, Scalar::I64),
                pointers: Vec::new(),
            },
        })
    }
}

impl Item for Record<'_> {
    fn place(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()> {
        let span = slot.span;
        let there = self.slot(kc, slot)?;
        let values = kc.reads(self.acc, span)?;
        kc.writes(&there, values, span, out)
    }

    fn take(&self, kc: &mut KernelChecker<'_, '_>, slot: Expr, out: &mut Vec<Stmt>) -> Result<()> {
        let span = slot.span;
        let there = self.slot(kc, slot)?;
        let values = kc.reads(&there, span)?;
        kc.writes(self.acc, values, span, out)
    }

    fn absorb(
        &self,
        kc: &mut KernelChecker<'_, '_>,
        slot: Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = slot.span;
        let there = self.slot(kc, slot)?;
        let l: &Rc<Layout> = &self.acc.layout;
        let addend = kc.new_struct("cub addend", l, span);
        let next = kc.new_struct("cub combined", l, span);
        let values = kc.reads(&there, span)?;
        kc.writes(&addend, values, span, out)?;
        kc.record_step(self.op, (self.acc, &addend, &next), None, out, span)
    }

    fn warp(
        &self,
        kc: &mut KernelChecker<'_, '_>,
        lanes: u32,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = self.first.span;
        kc.record_warp_reduce(self.acc, lanes, self.op, valid, out, span)
    }
}

impl KernelChecker<'_, '_> {
    /// A raking BlockReduce of the scalar in `acc` (see the module's comment).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn raking_reduce(
        &mut self,
        acc: VarId,
        elem: Scalar,
        (dims, alg): ([u32; 3], ReduceAlg),
        (s, first): (u32, Expr),
        op: &Op,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        let item = Scalar1 {
            acc,
            elem,
            op,
            mem,
            first,
        };
        self.rake(&item, (dims, alg, elem.size()), valid, out, span)
    }

    /// A raking BlockReduce of the struct in `acc`, whose TempStorage holds structs of `stride`
    /// components of `elem`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_raking_reduce(
        &mut self,
        acc: &StructPlace,
        (dims, alg): ([u32; 3], ReduceAlg),
        (s, first): (u32, Expr),
        (elem, stride): (Scalar, u32),
        op: &RecordOp,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        let item = Record {
            acc,
            op,
            mem,
            first,
            stride,
        };
        self.rake(&item, (dims, alg, elem.size() * stride), valid, out, span)
    }

    fn rake(
        &mut self,
        item: &dyn Item,
        (dims, alg, size): ([u32; 3], ReduceAlg, u32),
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let threads = dims[0] * dims[1] * dims[2];
        if let Some(n) = &valid {
            out.push(self.valid_within_block(n.clone(), dims, span)?);
        }
        if threads <= 32 {
            return item.warp(self, threads, valid, out);
        }
        let tid = self.cub_tid(Some(dims), span)?;
        let tid = self.convert(tid, Scalar::I32);
        let t = self.new_local("cub linear_tid", Scalar::I32, span);
        out.push(assign(t, tid, span));
        let commutative = alg == ReduceAlg::RakingCommutativeOnly;
        let Some(n) = valid else {
            return self.rake_tile(item, (dims, size), (t, commutative, None), out, span);
        };
        // `num_valid >= BLOCK_THREADS`: the full tile's path; else the guarded one.
        let full = self.binary(
            BinOp::Ge,
            span,
            n.clone(),
            constant(Value::I32(threads as i32), span),
        )?;
        let mut then = Vec::new();
        self.rake_tile(item, (dims, size), (t, commutative, None), &mut then, span)?;
        let mut els = Vec::new();
        self.rake_tile(item, (dims, size), (t, false, Some(n)), &mut els, span)?;
        out.push(Stmt {
            kind: StmtKind::If {
                cond: full,
                then,
                els,
            },
            span,
        });
        Ok(())
    }

    /// One tile's raking reduction by thread `t`: commutative (the first warp folds the other
    /// threads' partials into its own), or in order, guarded by `valid` in a partial tile.
    fn rake_tile(
        &mut self,
        item: &dyn Item,
        (dims, size): ([u32; 3], u32),
        (t, commutative, valid): (VarId, bool, Option<Expr>),
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let threads = dims[0] * dims[1] * dims[2];
        let int = |v: u32| constant(Value::I32(v as i32), span);
        let tid = || Expr {
            kind: ExprKind::Var(t),
            ty: Scalar::I32,
            span,
        };
        // The commutative path's grid holds the partials of the threads after the first warp.
        let sharing = if commutative { threads - 32 } else { threads };
        // The grid is the TempStorage's first bytes (a union with the warp reduction's).
        let layout = RakingLayout::of_size([sharing, 1, 1], size);
        // PlacementPtr: `offset = i; offset += offset / SEGMENT_LENGTH` (with padding).
        let mut placed = if commutative {
            self.binary(BinOp::Sub, span, tid(), int(32))?
        } else {
            tid()
        };
        if layout.padding {
            let pads = self.binary(BinOp::Div, span, placed.clone(), int(layout.segment))?;
            placed = self.binary(BinOp::Add, span, placed, pads)?;
        }
        let mut place = Vec::new();
        item.place(self, placed, &mut place)?;
        if commutative {
            let sharer = self.binary(BinOp::Ge, span, tid(), int(32))?;
            out.push(Stmt {
                kind: StmtKind::If {
                    cond: sharer,
                    then: place,
                    els: Vec::new(),
                },
                span,
            });
        } else {
            out.extend(place);
        }
        out.push(Stmt {
            kind: StmtKind::Barrier,
            span,
        });
        // RakingPtr: the segment of raking thread `t`.
        let mut rake = Vec::new();
        let stride = layout.segment + u32::from(layout.padding);
        let start = self.binary(BinOp::Mul, span, tid(), int(stride))?;
        let seg = self.new_local("cub raking_segment", Scalar::I32, span);
        rake.push(assign(seg, start, span));
        let at = |k: u32, me: &mut Self| {
            let base = Expr {
                kind: ExprKind::Var(seg),
                ty: Scalar::I32,
                span,
            };
            me.binary(BinOp::Add, span, base, int(k))
        };
        let from = if commutative {
            0
        } else {
            let first = at(0, self)?;
            item.take(self, first, &mut rake)?;
            1
        };
        for k in from..layout.segment {
            let slot = at(k, self)?;
            match &valid {
                // `(linear_tid * SEGMENT_LENGTH) + ITERATION < num_valid`.
                Some(n) => {
                    let mut add = Vec::new();
                    item.absorb(self, slot, &mut add)?;
                    let before = self.binary(BinOp::Mul, span, tid(), int(layout.segment))?;
                    let index = self.binary(BinOp::Add, span, before, int(k))?;
                    let cond = self.binary(BinOp::Lt, span, index, n.clone())?;
                    rake.push(Stmt {
                        kind: StmtKind::If {
                            cond,
                            then: add,
                            els: Vec::new(),
                        },
                        span,
                    });
                }
                None => item.absorb(self, slot, &mut rake)?,
            }
        }
        // The raking threads valid in a partial tile: `(num_valid + SEGMENT_LENGTH - 1) /
        // SEGMENT_LENGTH`.
        let raking_valid = match &valid {
            Some(n) => {
                let up = self.binary(BinOp::Add, span, n.clone(), int(layout.segment - 1))?;
                Some(self.binary(BinOp::Div, span, up, int(layout.segment))?)
            }
            None => None,
        };
        item.warp(self, layout.raking_threads, raking_valid, &mut rake)?;
        let raking = self.binary(BinOp::Lt, span, tid(), int(layout.raking_threads))?;
        out.push(Stmt {
            kind: StmtKind::If {
                cond: raking,
                then: rake,
                els: Vec::new(),
            },
            span,
        });
        Ok(())
    }
}
