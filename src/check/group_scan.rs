//! Cooperative groups' partitions (`binary_partition`, `labeled_partition`) and their reductions and scans (`cg::reduce`, `cg::inclusive_scan`, `cg::exclusive_scan`), as CUDA's headers compute them.

// CUDA's `cooperative_groups/details/coalesced_reduce.h` and `coalesced_scan.h`:
// - a tile reduces by a `shfl_xor` butterfly (`Self::group_reduce`), and scans by Hillis–Steele
//   steps of `shfl_up` by 1, 2, 4, ... (`inclusive_scan_contiguous`);
// - a coalesced group of all 32 lanes reduces by `shfl_down` by 16, 8, ..., 1, then takes lane
//   0's value; any other coalesced group scans by the same Hillis–Steele steps over its ranks
//   (`inclusive_scan_non_contiguous`: step `i` combines the value of rank `r - i`, found with a
//   binary search over the mask, here `__fns`), and a reduction is the scan's last rank's value;
// - an exclusive scan is the inclusive scan moved up one rank, `T{}` (0) at rank 0.
// Each step is `out = op(out, other)`, in this order.

use super::expr::constant;
use super::groups::{coalesced_mask, unqualified, Group};
use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{ArithOp, BitOp, Bits3, Scalar, ShflKind, Value, VoteKind, WarpFold};

type Result<T> = std::result::Result<T, CheckError>;

/// `binary_partition` or `labeled_partition`, if `e` calls one.
pub(crate) fn partition_call(e: &ast::Expr) -> Option<(&str, &[ast::Expr])> {
    match &e.kind {
        ast::ExprKind::Call { callee, args, .. } => match unqualified(&callee.name) {
            n @ ("binary_partition" | "labeled_partition") => Some((n, args)),
            _ => None,
        },
        _ => None,
    }
}

impl KernelChecker<'_, '_> {
    /// The mask of the partition `e` makes for this lane (the lanes of its parent with the same
    /// predicate, or label), `None` when `e` makes none.
    pub(crate) fn partition_mask(
        &mut self,
        e: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<Expr>> {
        let (name, args) = partition_call(e)?;
        Some((|| {
            let [parent, x] = args else {
                return Err(CheckError::ArgumentCount {
                    name: name.into(),
                    expected: "2 (a group and a predicate or label)".into(),
                    found: args.len(),
                    span: e.span,
                });
            };
            let span = e.span;
            let pmask = match self.group(parent)? {
                Some(Group::Tile(n)) => self.tile_mask(n, span)?,
                Some(Group::Coalesced(v)) => coalesced_mask(v, span),
                _ => {
                    return Err(CheckError::Unsupported {
                        what: format!("`{name}` of this group"),
                        span: parent.span,
                        help: Some("partition a warp tile (`cg::tiled_partition<32>(block)`) or a coalesced group".into()),
                    })
                }
            };
            let parent_var = self.new_local(&format!("{name}.parent"), Scalar::U32, span);
            out.push(assign(parent_var, pmask, span));
            let pmask = var(parent_var, Scalar::U32, span);
            if name == "labeled_partition" {
                let label = self.expr(x)?;
                if !label.ty.is_integer() {
                    return Err(CheckError::NotAnInteger {
                        what: "a partition's label".into(),
                        found: label.ty.to_string(),
                        span: x.span,
                        help: Some("label threads with an integer".into()),
                    });
                }
                let wide = label.ty.size() == 8;
                let label = self.convert(label, if wide { Scalar::U64 } else { Scalar::U32 });
                return Ok(Expr {
                    kind: ExprKind::WarpFold {
                        kind: WarpFold::MatchAny,
                        mask: Box::new(pmask),
                        value: Box::new(label),
                    },
                    ty: Scalar::U32,
                    span,
                });
            }
            let pred = self.scalar_or_truth(x)?;
            let p = self.new_local("binary_partition.pred", Scalar::Bool, span);
            out.push(assign(p, pred, span));
            let ballot = Expr {
                kind: ExprKind::Vote {
                    kind: VoteKind::Ballot,
                    mask: Box::new(pmask.clone()),
                    pred: Box::new(var(p, Scalar::Bool, span)),
                },
                ty: Scalar::U32,
                span,
            };
            let b = self.new_local("binary_partition.ballot", Scalar::U32, span);
            out.push(assign(b, ballot, span));
            let set = self.binary(
                BinOp::BitAnd,
                span,
                var(b, Scalar::U32, span),
                pmask.clone(),
            )?;
            let unset = Expr {
                kind: ExprKind::BitNot(Box::new(var(b, Scalar::U32, span))),
                ty: Scalar::U32,
                span,
            };
            let unset = self.binary(BinOp::BitAnd, span, unset, pmask)?;
            Ok(Expr {
                kind: ExprKind::Select {
                    cond: Box::new(var(p, Scalar::Bool, span)),
                    then: Box::new(set),
                    els: Box::new(unset),
                },
                ty: Scalar::U32,
                span,
            })
        })())
    }

    /// `cg::inclusive_scan(g, v[, op])` or `cg::exclusive_scan(g, v[, op])` over a tile or a
    /// coalesced group.
    pub(crate) fn group_scan(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let (g, v, op) = match args {
            [g, v] => (g, v, ArithOp::Add),
            [g, v, op] => (g, v, self.reduce_op(op)?),
            _ => {
                return Err(CheckError::ArgumentCount {
                    name: name.into(),
                    expected: "2 or 3 (a group, a value and an operation)".into(),
                    found: args.len(),
                    span,
                })
            }
        };
        let group = self.group(g)?;
        let value = self.expr(v)?;
        let ty = match value.ty.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let value = self.convert(value, ty);
        let acc = self.new_local(name, ty, span);
        let mut body = vec![assign(acc, value, span)];
        let rank = match group {
            Some(Group::Tile(n)) => {
                let rank = self.tile_scan(n, (acc, ty, op), span, &mut body)?;
                if name == "exclusive_scan" {
                    let one = constant(Value::U32(1), span);
                    let up = self.tile_shuffle(n, ShflKind::Up, var(acc, ty, span), one, span)?;
                    body.push(assign(acc, up, span));
                }
                rank
            }
            Some(Group::Coalesced(v)) => {
                let c = self.coalesced(v, span, &mut body)?;
                self.coalesced_scan(&c, (acc, ty, op), span, &mut body)?;
                if name == "exclusive_scan" {
                    // `group.shfl_up(ret, 1)`: the rank below, found with `__fns`.
                    let src = self.rank_lane(&c, 1, span)?;
                    let up = shuffle(c.mask.clone(), var(acc, ty, span), src, ty, span);
                    body.push(assign(acc, up, span));
                }
                var(c.rank, Scalar::U32, span)
            }
            _ => {
                return Err(CheckError::Unsupported {
                    what: format!("`cg::{name}` over this group"),
                    span: g.span,
                    help: Some("scan over a warp tile or a coalesced group (`cg::tiled_partition<32>(block)`, `cg::coalesced_threads()`)".into()),
                })
            }
        };
        if name == "exclusive_scan" {
            // Rank 0 gets `T{}`.
            let first = self.binary(BinOp::Eq, span, rank, constant(Value::U32(0), span))?;
            let zero = self.convert(constant(Value::I32(0), span), ty);
            body.push(assign(
                acc,
                Expr {
                    kind: ExprKind::Select {
                        cond: Box::new(first),
                        then: Box::new(zero),
                        els: Box::new(var(acc, ty, span)),
                    },
                    ty,
                    span,
                },
                span,
            ));
        }
        Ok(inline(name, body, acc, ty, span))
    }

    /// `cg::reduce(g, v, op)` over a coalesced group: a `shfl_down` butterfly where the group
    /// is the whole warp, else the scan's last rank's value.
    pub(crate) fn coalesced_reduce(
        &mut self,
        v: Option<VarId>,
        value: Expr,
        op: ArithOp,
        span: Span,
    ) -> Result<Expr> {
        let ty = value.ty;
        let acc = self.new_local("cg::reduce", ty, span);
        let mut body = vec![assign(acc, value, span)];
        let c = self.coalesced(v, span, &mut body)?;
        let mut whole = Vec::new();
        for offset in [16u32, 8, 4, 2, 1] {
            let other = Expr {
                kind: ExprKind::Shuffle {
                    kind: ShflKind::Down,
                    mask: Box::new(c.mask.clone()),
                    value: Box::new(var(acc, ty, span)),
                    arg: Box::new(constant(Value::U32(offset), span)),
                    width: Box::new(constant(Value::U32(32), span)),
                    strict: false,
                },
                ty,
                span,
            };
            whole.push(assign(
                acc,
                combine(op, var(acc, ty, span), other, ty, span),
                span,
            ));
        }
        let zero = constant(Value::U32(0), span);
        whole.push(assign(
            acc,
            shuffle(c.mask.clone(), var(acc, ty, span), zero, ty, span),
            span,
        ));
        let mut part = Vec::new();
        self.coalesced_scan(&c, (acc, ty, op), span, &mut part)?;
        // The last rank is the mask's highest lane: 31 - __clz(mask).
        let clz = Expr {
            kind: ExprKind::Call {
                func: Func::Bits(BitOp::Clz),
                args: vec![c.mask.clone()],
            },
            ty: Scalar::I32,
            span,
        };
        let last = self.binary(BinOp::Sub, span, constant(Value::I32(31), span), clz)?;
        let last = self.convert(last, Scalar::U32);
        part.push(assign(
            acc,
            shuffle(c.mask.clone(), var(acc, ty, span), last, ty, span),
            span,
        ));
        let full = self.binary(
            BinOp::Eq,
            span,
            var(c.size, Scalar::U32, span),
            constant(Value::U32(32), span),
        )?;
        body.push(Stmt {
            kind: StmtKind::If {
                cond: full,
                then: whole,
                els: part,
            },
            span,
        });
        Ok(inline("cg::reduce", body, acc, ty, span))
    }

    /// A coalesced group's mask, this lane's rank and the group's size, each in a variable.
    fn coalesced(
        &mut self,
        v: Option<VarId>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Coalesced> {
        let m = self.new_local("group.mask", Scalar::U32, span);
        out.push(assign(m, coalesced_mask(v, span), span));
        let mask = var(m, Scalar::U32, span);
        let lane = self.lane(span)?;
        let one = constant(Value::U32(1), span);
        let bit = self.binary(BinOp::Shl, span, one.clone(), lane.clone())?;
        let below = self.binary(BinOp::Sub, span, bit, one)?;
        let lower = self.binary(BinOp::BitAnd, span, mask.clone(), below)?;
        let rank = self.new_local("group.rank", Scalar::U32, span);
        let popc = |e: Expr| Expr {
            kind: ExprKind::Call {
                func: Func::Bits(BitOp::Popc),
                args: vec![e],
            },
            ty: Scalar::I32,
            span,
        };
        let r = self.convert(popc(lower), Scalar::U32);
        out.push(assign(rank, r, span));
        let size = self.new_local("group.size", Scalar::U32, span);
        let s = self.convert(popc(mask.clone()), Scalar::U32);
        out.push(assign(size, s, span));
        Ok(Coalesced {
            mask,
            lane,
            rank,
            size,
        })
    }

    /// The lane of rank `rank - back` in the group (this lane where there is none):
    /// `__fns(mask, 0, rank - back + 1)`.
    fn rank_lane(&mut self, c: &Coalesced, back: u32, span: Span) -> Result<Expr> {
        let rank = var(c.rank, Scalar::U32, span);
        let has = self.binary(
            BinOp::Ge,
            span,
            rank.clone(),
            constant(Value::U32(back), span),
        )?;
        let nth = self.binary(BinOp::Sub, span, rank, constant(Value::U32(back - 1), span))?;
        let fns = Expr {
            kind: ExprKind::Call {
                func: Func::Bits3(Bits3::Fns),
                args: vec![c.mask.clone(), constant(Value::U32(0), span), nth],
            },
            ty: Scalar::U32,
            span,
        };
        Ok(Expr {
            kind: ExprKind::Select {
                cond: Box::new(has),
                then: Box::new(fns),
                els: Box::new(c.lane.clone()),
            },
            ty: Scalar::U32,
            span,
        })
    }

    /// Hillis–Steele steps over the ranks of a coalesced group: at step `i` (1, 2, 4, 8, 16,
    /// while `i` is below the group's size) rank `r ≥ i` combines rank `r - i`'s value.
    fn coalesced_scan(
        &mut self,
        c: &Coalesced,
        (acc, ty, op): (VarId, Scalar, ArithOp),
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        for i in [1u32, 2, 4, 8, 16] {
            let src = self.rank_lane(c, i, span)?;
            let tmp = shuffle(c.mask.clone(), var(acc, ty, span), src, ty, span);
            let t = self.new_local("scan.tmp", ty, span);
            let takes = self.binary(
                BinOp::Le,
                span,
                constant(Value::U32(i), span),
                var(c.rank, Scalar::U32, span),
            )?;
            let step = vec![
                assign(t, tmp, span),
                Stmt {
                    kind: StmtKind::If {
                        cond: takes,
                        then: vec![assign(
                            acc,
                            combine(op, var(acc, ty, span), var(t, ty, span), ty, span),
                            span,
                        )],
                        els: vec![],
                    },
                    span,
                },
            ];
            let more = self.binary(
                BinOp::Lt,
                span,
                constant(Value::U32(i), span),
                var(c.size, Scalar::U32, span),
            )?;
            out.push(Stmt {
                kind: StmtKind::If {
                    cond: more,
                    then: step,
                    els: vec![],
                },
                span,
            });
        }
        Ok(())
    }

    /// A tile's inclusive scan into `acc`: `shfl_up` by 1, 2, ... below `n`; returns the rank.
    fn tile_scan(
        &mut self,
        n: u32,
        (acc, ty, op): (VarId, Scalar, ArithOp),
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Expr> {
        let lane = self.lane(span)?;
        let rank = self.binary(BinOp::BitAnd, span, lane, constant(Value::U32(n - 1), span))?;
        let r = self.new_local("scan.rank", Scalar::U32, span);
        out.push(assign(r, rank, span));
        let mut d = 1;
        while d < n {
            let up = self.tile_shuffle(
                n,
                ShflKind::Up,
                var(acc, ty, span),
                constant(Value::U32(d), span),
                span,
            )?;
            let t = self.new_local("scan.tmp", ty, span);
            out.push(assign(t, up, span));
            let takes = self.binary(
                BinOp::Le,
                span,
                constant(Value::U32(d), span),
                var(r, Scalar::U32, span),
            )?;
            out.push(Stmt {
                kind: StmtKind::If {
                    cond: takes,
                    then: vec![assign(
                        acc,
                        combine(op, var(acc, ty, span), var(t, ty, span), ty, span),
                        span,
                    )],
                    els: vec![],
                },
                span,
            });
            d *= 2;
        }
        Ok(var(r, Scalar::U32, span))
    }
}

/// A coalesced group as its scan sees it.
struct Coalesced {
    mask: Expr,
    lane: Expr,
    rank: VarId,
    size: VarId,
}

fn var(v: VarId, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        ty,
        span,
    }
}

fn assign(var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}

/// `value` of lane `src` among the lanes of `mask`.
fn shuffle(mask: Expr, value: Expr, src: Expr, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Shuffle {
            kind: ShflKind::Idx,
            mask: Box::new(mask),
            value: Box::new(value),
            arg: Box::new(src),
            width: Box::new(constant(Value::U32(32), span)),
            strict: false,
        },
        ty,
        span,
    }
}

/// `op(mine, other)`.
fn combine(op: ArithOp, mine: Expr, other: Expr, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Arith {
            op,
            lhs: Box::new(mine),
            rhs: Box::new(other),
        },
        ty,
        span,
    }
}

fn inline(name: &str, body: Vec<Stmt>, result: VarId, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Inline {
            name: name.into(),
            body,
            result: Some(result),
        },
        ty,
        span,
    }
}
