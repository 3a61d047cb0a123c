//! Cooperative groups: the block and warp tiles, checked into the barriers, shuffles and votes they stand for.

use super::expr::constant;
use super::typed::*;
use super::{ArgumentProblem, Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{ArithOp, Scalar, ShflKind, Value, VoteKind};

type Result<T> = std::result::Result<T, CheckError>;

/// A group of threads a kernel can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// `cg::thread_block`: the whole block.
    Block,
    /// `cg::thread_block_tile<N>`: `N` consecutive threads of a warp (`N` a power of two ≤ 32).
    Tile(u32),
    /// `cg::grid_group`: the whole grid; its `sync()` needs a cooperative launch.
    Grid,
    /// `cg::coalesced_group`: the warp's lanes active where it was made (their mask in this
    /// variable; `None` for a temporary, made where it is used).
    Coalesced(Option<VarId>),
}

/// The last part of a qualified name: `cg::sync` → `sync`.
pub(crate) fn unqualified(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// Whether a declared type (a parameter's or a local's) holds the group `g`: `thread_group`
/// holds any group, the other types their own kind (a tile type its own size).
pub(crate) fn holds(text: &str, g: Group) -> bool {
    match group_type(text) {
        Some(Group::Coalesced(_)) => matches!(g, Group::Coalesced(_)),
        Some(want) => want == g,
        None if is_deduced_tile(text) => matches!(g, Group::Tile(_)),
        None => is_generic_group(text),
    }
}

/// Whether a type is a cooperative group's: one [`group_type`] names, `thread_group`, or
/// `thread_block_tile` with its size deduced.
pub(crate) fn is_group_type(text: &str) -> bool {
    group_type(text).is_some() || is_generic_group(text) || is_deduced_tile(text)
}

/// `cg::thread_block_tile g = cg::tiled_partition<8>(block);`: C++17 deduces the tile's size
/// from its initialiser (punica's BGMV expand).
fn is_deduced_tile(text: &str) -> bool {
    !text.contains('<') && unqualified(text).trim() == "thread_block_tile"
}

/// Whether a type names a cooperative group's class, whatever its template arguments
/// (`cg::thread_block_tile<M>` of a template, before `M` is bound).
pub(crate) fn names_group(text: &str) -> bool {
    matches!(
        unqualified(text.split('<').next().unwrap_or(text)).trim(),
        "thread_block" | "grid_group" | "coalesced_group" | "thread_block_tile" | "thread_group"
    )
}

/// `cg::thread_group`, the type every group converts to.
fn is_generic_group(text: &str) -> bool {
    unqualified(text.split('<').next().unwrap_or(text)) == "thread_group"
}

/// The group a cooperative-groups type names, if it is one.
pub(crate) fn group_type(text: &str) -> Option<Group> {
    let base = unqualified(text.split('<').next().unwrap_or(text));
    match base {
        "thread_block" => Some(Group::Block),
        "grid_group" => Some(Group::Grid),
        "coalesced_group" => Some(Group::Coalesced(None)),
        "thread_block_tile" => Some(Group::Tile(tile_argument(text)?.parse().ok()?)),
        _ => None,
    }
}

/// The size argument of `cg::thread_block_tile<8>` (or `<8, cg::thread_block>`, its parent
/// named too): `8`, or the `M` of a template; `None` for any other type.
pub(crate) fn tile_argument(text: &str) -> Option<&str> {
    let (base, rest) = text.split_once('<')?;
    (unqualified(base).trim() == "thread_block_tile").then_some(())?;
    let arg = rest
        .trim_end()
        .trim_end_matches('>')
        .split(',')
        .next()?
        .trim();
    (!arg.is_empty()).then_some(arg)
}

impl KernelChecker<'_, '_> {
    /// The group `e` evaluates to, if it names one.
    pub(crate) fn group(&mut self, e: &ast::Expr) -> Result<Option<Group>> {
        match &e.kind {
            ast::ExprKind::Name(n) => Ok(match self.lookup(n) {
                Some(Binding::Group(g)) => Some(g),
                _ => None,
            }),
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => match unqualified(&callee.name) {
                "this_thread_block" => Ok(Some(Group::Block)),
                "this_grid" => Ok(Some(Group::Grid)),
                "tiled_partition" => {
                    let (parent, size) = match (targs.as_slice(), args.as_slice()) {
                        ([ast::TemplateArg::Value(n)], [p]) => (p, n),
                        ([], [p, n]) => (p, n),
                        _ => {
                            return Err(CheckError::ArgumentCount {
                                name: "tiled_partition".into(),
                                expected: "a group and a size (`tiled_partition<32>(block)`)"
                                    .into(),
                                found: args.len(),
                                span: e.span,
                            })
                        }
                    };
                    let parent_group = self.group(parent)?;
                    let n = self.const_size(size)?;
                    if !(n.is_power_of_two() && n <= 32) {
                        return Err(CheckError::Unsupported {
                            what: format!("a tile of {n} threads"),
                            span: size.span,
                            help: Some(
                                "tiles of a warp or less: 1, 2, 4, 8, 16 or 32 threads".into(),
                            ),
                        });
                    }
                    match parent_group {
                        Some(Group::Block) => Ok(Some(Group::Tile(n as u32))),
                        Some(Group::Tile(m)) if n as u32 <= m => Ok(Some(Group::Tile(n as u32))),
                        _ => Err(CheckError::ArgumentType {
                            problem: ArgumentProblem::PartitionParent,
                            span: parent.span,
                            help: Some(
                                "write `tiled_partition<32>(cg::this_thread_block())`".into(),
                            ),
                        }),
                    }
                }
                "coalesced_threads" => Ok(Some(Group::Coalesced(None))),
                "binary_partition" | "labeled_partition" => Err(CheckError::Unsupported {
                    what: format!("`{}` used without a name", unqualified(&callee.name)),
                    span: e.span,
                    help: Some("keep the partition in a variable: `cg::coalesced_group part = cg::binary_partition(tile, pred);`".into()),
                }),
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// `g.sync()` or `cg::sync(g)` as a statement.
    pub(crate) fn group_sync(&mut self, g: Group, span: Span) -> Result<StmtKind> {
        match g {
            Group::Block => Ok(StmtKind::Barrier),
            Group::Tile(n) => Ok(StmtKind::SyncWarp(self.tile_mask(n, span)?)),
            Group::Coalesced(v) => Ok(StmtKind::SyncWarp(coalesced_mask(v, span))),
            Group::Grid => Ok(StmtKind::GridSync),
        }
    }

    /// A coalesced group's members: `thread_rank()` (active lanes below this one), `size()`,
    /// `shfl(v, rank)`, `shfl_down(v, d)`, `shfl_up(v, d)`, `any`, `all`, `sync`.
    fn coalesced_method(
        &mut self,
        v: Option<VarId>,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let mask = coalesced_mask(v, span);
        let popc = |e: Expr| Expr {
            kind: ExprKind::Call {
                func: Func::Bits(crate::value::BitOp::Popc),
                args: vec![e],
            },
            ty: Scalar::I32,
            span,
        };
        match (method.name.as_str(), args) {
            ("size" | "num_threads", []) => Ok(self.convert(popc(mask), Scalar::U32)),
            ("thread_rank", []) => {
                // Set bits of the mask below this lane: (1 << lane) - 1.
                let lane = self.lane(span)?;
                let one = constant(Value::U32(1), span);
                let bit = self.binary(BinOp::Shl, span, one, lane)?;
                let below = self.arith_u32(ArithOp::Sub, bit, 1, span)?;
                let lower = self.binary(BinOp::BitAnd, span, mask, below)?;
                Ok(self.convert(popc(lower), Scalar::U32))
            }
            // cooperative_groups' own: `shfl` reads rank r's lane, `__fns(mask, 0, r + 1)`;
            // `shfl_down`/`shfl_up` the lane d ranks above or below, `__fns(mask, lane, ±(d +
            // 1))`, or this lane's own value where the group has none.
            ("shfl", [value, src]) => {
                let rank = self.expr(src)?;
                let rank = self.convert(rank, Scalar::U32);
                let nth = self.arith_u32(ArithOp::Add, rank.clone(), 1, span)?;
                let found = fns(mask.clone(), constant(Value::U32(0), span), nth, span);
                // A whole warp reads lane `rank` itself (mod 32, as `__shfl_sync` does).
                let full = constant(Value::U32(u32::MAX), span);
                let whole = self.binary(BinOp::Eq, span, mask.clone(), full)?;
                let lane = Expr {
                    kind: ExprKind::Select {
                        cond: Box::new(whole),
                        then: Box::new(rank),
                        els: Box::new(found),
                    },
                    ty: Scalar::U32,
                    span,
                };
                self.coalesced_shuffle(mask, value, (Vec::new(), lane), span)
            }
            (dir @ ("shfl_down" | "shfl_up"), [value, delta]) => {
                let delta = self.expr(delta)?;
                let delta = self.convert(delta, Scalar::U32);
                let mut nth = self.arith_u32(ArithOp::Add, delta, 1, span)?;
                if dir == "shfl_up" {
                    nth = self.binary(BinOp::Sub, span, constant(Value::U32(0), span), nth)?;
                }
                let own = self.lane(span)?;
                let t = self.new_local("group.lane", Scalar::U32, span);
                let found = fns(mask.clone(), own.clone(), nth, span);
                let prelude = vec![Stmt {
                    kind: StmtKind::Assign { var: t, value: found },
                    span,
                }];
                let found = Expr {
                    kind: ExprKind::Var(t),
                    ty: Scalar::U32,
                    span,
                };
                let outside =
                    self.binary(BinOp::Ge, span, found.clone(), constant(Value::U32(32), span))?;
                let lane = Expr {
                    kind: ExprKind::Select {
                        cond: Box::new(outside),
                        then: Box::new(own),
                        els: Box::new(found),
                    },
                    ty: Scalar::U32,
                    span,
                };
                self.coalesced_shuffle(mask, value, (prelude, lane), span)
            }
            (kind @ ("any" | "all"), [p]) => {
                let pred = self.scalar_or_truth(p)?;
                Ok(Expr {
                    kind: ExprKind::Vote {
                        kind: if kind == "any" { VoteKind::Any } else { VoteKind::All },
                        mask: Box::new(mask),
                        pred: Box::new(pred),
                    },
                    ty: Scalar::I32,
                    span,
                })
            }
            _ => Err(CheckError::Unsupported {
                what: format!("the coalesced group member `{}`", method.name),
                span: method.span,
                help: Some("a coalesced group here has thread_rank(), size(), shfl(v, rank), shfl_down(v, d), shfl_up(v, d), any(), all() and sync()".into()),
            }),
        }
    }

    /// `value` from lane `lane` of the coalesced group `mask`, once `prelude` has run.
    fn coalesced_shuffle(
        &mut self,
        mask: Expr,
        value: &ast::Expr,
        (mut prelude, lane): (Vec<Stmt>, Expr),
        span: Span,
    ) -> Result<Expr> {
        let value = self.expr(value)?;
        let ty = match value.ty.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let value = self.convert(value, ty);
        let r = self.new_local("group.shfl", ty, span);
        let shuffled = Expr {
            kind: ExprKind::Shuffle {
                kind: ShflKind::Idx,
                mask: Box::new(mask),
                value: Box::new(value),
                arg: Box::new(lane),
                width: Box::new(constant(Value::U32(32), span)),
                strict: false,
            },
            ty,
            span,
        };
        prelude.push(Stmt {
            kind: StmtKind::Assign {
                var: r,
                value: shuffled,
            },
            span,
        });
        Ok(Expr {
            kind: ExprKind::Inline {
                name: "shfl".into(),
                body: prelude,
                result: Some(r),
            },
            ty,
            span,
        })
    }

    /// `block.thread_rank()`, `tile.shfl_down(v, 1)`, `tile.any(p)`, ... as a value.
    pub(crate) fn group_method(
        &mut self,
        g: Group,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let name = method.name.as_str();
        let arity = |n: usize| super::intrinsics::arity(name, args.len(), n, n, span);
        let unknown = || {
            CheckError::UnknownFunction {
            name: name.to_string(),
            span: method.span,
            suggestion: Some(match g {
                Group::Block => "a thread block has sync(), thread_rank(), size(), num_threads(), group_index(), thread_index(), group_dim()".into(),
                _ => "a tile has sync(), thread_rank(), size(), num_threads(), meta_group_rank(), meta_group_size(), shfl(), shfl_up(), shfl_down(), shfl_xor(), any(), all(), ballot()".into(),
            }),
        }
        };
        if g == Group::Grid {
            return self.grid_method(method, args, span);
        }
        if let Group::Coalesced(v) = g {
            return self.coalesced_method(v, method, args, span);
        }
        match (g, name) {
            (_, "sync") => Err(CheckError::NoValue {
                what: "`sync()`".into(),
                why: "",
                span,
                help: Some("call it as a statement of its own".into()),
            }),
            (_, "thread_rank") => {
                arity(0)?;
                let tid = self.linear_tid(span)?;
                // A tile of a power of two up to 32 lies inside one warp: its rank is the low bits.
                Ok(match g {
                    Group::Tile(n) => self.arith_u32(ArithOp::And, tid, n - 1, span)?,
                    _ => tid,
                })
            }
            (Group::Block, "size" | "num_threads") => {
                arity(0)?;
                self.block_threads(span)
            }
            (Group::Tile(n), "size" | "num_threads") => {
                arity(0)?;
                Ok(constant(Value::U32(n), span))
            }
            (Group::Tile(n), "meta_group_rank") => {
                arity(0)?;
                let tid = self.linear_tid(span)?;
                self.arith_u32(ArithOp::Div, tid, n, span)
            }
            (Group::Tile(n), "meta_group_size") => {
                arity(0)?;
                let threads = self.block_threads(span)?;
                let up = self.arith_u32(ArithOp::Add, threads, n - 1, span)?;
                self.arith_u32(ArithOp::Div, up, n, span)
            }
            (Group::Tile(n), "shfl" | "shfl_up" | "shfl_down" | "shfl_xor") => {
                arity(2)?;
                let kind = match name {
                    "shfl" => ShflKind::Idx,
                    "shfl_up" => ShflKind::Up,
                    "shfl_down" => ShflKind::Down,
                    _ => ShflKind::Xor,
                };
                let value = self.expr(&args[0])?;
                let arg = self.expr(&args[1])?;
                self.tile_shuffle(n, kind, value, arg, span)
            }
            (Group::Tile(n), "any" | "all" | "ballot") => {
                arity(1)?;
                let pred = self.scalar_or_truth(&args[0])?;
                let kind = match name {
                    "any" => VoteKind::Any,
                    "all" => VoteKind::All,
                    _ => VoteKind::Ballot,
                };
                let vote = Expr {
                    kind: ExprKind::Vote {
                        kind,
                        mask: Box::new(self.tile_mask(n, span)?),
                        pred: Box::new(pred),
                    },
                    ty: Scalar::U32,
                    span,
                };
                if kind != VoteKind::Ballot || n == 32 {
                    return Ok(vote);
                }
                // A tile's ballot counts from its first lane.
                let lane = self.lane(span)?;
                let first = self.arith_u32(ArithOp::And, lane, !(n - 1), span)?;
                let shifted = self.binary(BinOp::Shr, span, vote, first)?;
                self.arith_u32(ArithOp::And, shifted, (1u32 << n) - 1, span)
            }
            _ => Err(unknown()),
        }
    }

    /// `g.group_index().x` and friends: the built-in they stand for.
    pub(crate) fn group_member(
        &mut self,
        g: Group,
        method: &ast::Ident,
        field: &ast::Ident,
        span: Span,
    ) -> Result<Option<Expr>> {
        let make: fn(u8) -> Builtin = match (g, method.name.as_str()) {
            (Group::Block, "group_index") => Builtin::BlockIdx,
            (Group::Block, "thread_index") => Builtin::ThreadIdx,
            (Group::Block, "group_dim" | "dim_threads") => Builtin::BlockDim,
            _ => return Ok(None),
        };
        let axis = match field.name.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return Ok(None),
        };
        Ok(Some(Expr {
            kind: ExprKind::Builtin(make(axis)),
            ty: Scalar::U32,
            span,
        }))
    }

    /// `cg::reduce(tile, v, cg::plus<T>())`: a butterfly of `log2(N)` shuffles, every lane ends
    /// with the result.
    pub(crate) fn group_reduce(&mut self, args: &[ast::Expr], span: Span) -> Result<Expr> {
        if args.len() != 3 {
            return Err(CheckError::ArgumentCount {
                name: "reduce".into(),
                expected: "3 (a tile, a value and an operation)".into(),
                found: args.len(),
                span,
            });
        }
        let n = match self.group(&args[0])? {
            Some(Group::Tile(n)) => n,
            Some(Group::Coalesced(v)) => {
                let op = self.reduce_op(&args[2])?;
                let value = self.expr(&args[1])?;
                let ty = match value.ty.promoted() {
                    Scalar::Bool => Scalar::I32,
                    t => t,
                };
                let value = self.convert(value, ty);
                return self.coalesced_reduce(v, value, op, span);
            }
            _ => {
                return Err(CheckError::Unsupported {
                    what: "`cg::reduce` over this group".into(),
                    span: args[0].span,
                    help: Some("reduce over a warp tile (`cg::tiled_partition<32>(block)`) or a coalesced group".into()),
                })
            }
        };
        let op = self.reduce_op(&args[2])?;
        let value = self.expr(&args[1])?;
        let ty = match value.ty.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let value = self.convert(value, ty);
        let acc = self.new_local("reduce()", ty, span);
        let var = |span| Expr {
            kind: ExprKind::Var(acc),
            ty,
            span,
        };
        let mut body = vec![Stmt {
            kind: StmtKind::Assign { var: acc, value },
            span,
        }];
        let mut offset = n / 2;
        while offset > 0 {
            let arg = constant(Value::U32(offset), span);
            let other = self.tile_shuffle(n, ShflKind::Xor, var(span), arg, span)?;
            let combined = Expr {
                kind: ExprKind::Arith {
                    op,
                    lhs: Box::new(var(span)),
                    rhs: Box::new(other),
                },
                ty,
                span,
            };
            body.push(Stmt {
                kind: StmtKind::Assign {
                    var: acc,
                    value: combined,
                },
                span,
            });
            offset /= 2;
        }
        Ok(Expr {
            kind: ExprKind::Inline {
                name: "cg::reduce".into(),
                body,
                result: Some(acc),
            },
            ty,
            span,
        })
    }

    /// The operation of `cg::reduce` and the scans: `cg::plus<T>()` and the others.
    pub(super) fn reduce_op(&mut self, e: &ast::Expr) -> Result<ArithOp> {
        let op = match &e.kind {
            ast::ExprKind::Call { callee, .. } => match unqualified(&callee.name) {
                "plus" => ArithOp::Add,
                "less" => ArithOp::Min,
                "greater" => ArithOp::Max,
                "bit_and" => ArithOp::And,
                "bit_or" => ArithOp::Or,
                "bit_xor" => ArithOp::Xor,
                other => {
                    return Err(CheckError::Unsupported {
                        what: format!("`cg::reduce` with `{other}`"),
                        span: e.span,
                        help: Some("use cg::plus, cg::less, cg::greater, cg::bit_and, cg::bit_or or cg::bit_xor".into()),
                    })
                }
            },
            _ => {
                return Err(CheckError::Unsupported {
                    what: "this reduction operation".into(),
                    span: e.span,
                    help: Some("pass `cg::plus<T>()`, `cg::less<T>()` or `cg::greater<T>()`".into()),
                })
            }
        };
        Ok(op)
    }

    /// A shuffle among the `n` lanes of each tile.
    pub(crate) fn tile_shuffle(
        &mut self,
        n: u32,
        kind: ShflKind,
        value: Expr,
        arg: Expr,
        span: Span,
    ) -> Result<Expr> {
        let ty = match value.ty.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let value = self.convert(value, ty);
        let arg = self.convert(arg, Scalar::U32);
        Ok(Expr {
            kind: ExprKind::Shuffle {
                kind,
                mask: Box::new(self.tile_mask(n, span)?),
                value: Box::new(value),
                arg: Box::new(arg),
                width: Box::new(constant(Value::U32(n), span)),
                strict: false,
            },
            ty,
            span,
        })
    }

    /// The lanes of this lane's tile as a warp mask.
    pub(super) fn tile_mask(&mut self, n: u32, span: Span) -> Result<Expr> {
        if n == 32 {
            return Ok(constant(Value::U32(u32::MAX), span));
        }
        let lane = self.lane(span)?;
        let first = self.arith_u32(ArithOp::And, lane, !(n - 1), span)?;
        let ones = constant(Value::U32((1u32 << n) - 1), span);
        self.binary(BinOp::Shl, span, ones, first)
    }

    /// The thread's lane in its warp.
    pub(super) fn lane(&mut self, span: Span) -> Result<Expr> {
        let tid = self.linear_tid(span)?;
        self.arith_u32(ArithOp::And, tid, 31, span)
    }

    /// `x + blockDim.x * (y + blockDim.y * z)`: the thread's rank in its block.
    fn linear_tid(&mut self, span: Span) -> Result<Expr> {
        self.linear(Builtin::ThreadIdx, Builtin::BlockDim, span)
    }

    /// `index.x + dim.x * (index.y + dim.y * index.z)`: a thread's rank in its block, or a
    /// block's in the grid.
    fn linear(
        &mut self,
        index: fn(u8) -> Builtin,
        dim: fn(u8) -> Builtin,
        span: Span,
    ) -> Result<Expr> {
        let b = |f: fn(u8) -> Builtin, a: u8| Expr {
            kind: ExprKind::Builtin(f(a)),
            ty: Scalar::U32,
            span,
        };
        let yz = self.binary(BinOp::Mul, span, b(dim, 1), b(index, 2))?;
        let yz = self.binary(BinOp::Add, span, b(index, 1), yz)?;
        let yz = self.binary(BinOp::Mul, span, b(dim, 0), yz)?;
        self.binary(BinOp::Add, span, b(index, 0), yz)
    }

    /// `dim.x * dim.y * dim.z`: the threads of a block, or the blocks of the grid.
    fn volume(&mut self, dim: fn(u8) -> Builtin, span: Span) -> Result<Expr> {
        let b = |a: u8| Expr {
            kind: ExprKind::Builtin(dim(a)),
            ty: Scalar::U32,
            span,
        };
        let xy = self.binary(BinOp::Mul, span, b(0), b(1))?;
        self.binary(BinOp::Mul, span, xy, b(2))
    }

    /// What a grid group answers as a value (`this_grid().thread_rank()` as a global index):
    /// ranks and sizes, `unsigned long long` as in CUDA. `sync()` is a statement
    /// ([`Self::group_sync`]).
    fn grid_method(&mut self, method: &ast::Ident, args: &[ast::Expr], span: Span) -> Result<Expr> {
        let name = method.name.as_str();
        super::intrinsics::arity(name, args.len(), 0, 0, span)?;
        let block_rank = self.linear(Builtin::BlockIdx, Builtin::GridDim, span)?;
        let block_rank = self.convert(block_rank, Scalar::U64);
        let blocks = self.volume(Builtin::GridDim, span)?;
        let blocks = self.convert(blocks, Scalar::U64);
        let threads = self.block_threads(span)?;
        let threads = self.convert(threads, Scalar::U64);
        match name {
            "thread_rank" => {
                let base = self.binary(BinOp::Mul, span, block_rank, threads)?;
                let tid = self.linear_tid(span)?;
                let tid = self.convert(tid, Scalar::U64);
                self.binary(BinOp::Add, span, base, tid)
            }
            "size" | "num_threads" => self.binary(BinOp::Mul, span, blocks, threads),
            "block_rank" => Ok(block_rank),
            "num_blocks" => Ok(blocks),
            // A grid group is valid in a cooperative launch only, as in CUDA.
            "is_valid" => {
                let flag = Expr {
                    kind: ExprKind::Builtin(Builtin::Cooperative),
                    ty: Scalar::U32,
                    span,
                };
                self.binary(BinOp::Ne, span, flag, constant(Value::U32(0), span))
            }
            _ => Err(CheckError::Unsupported {
                what: format!("the grid group member `{name}`"),
                span: method.span,
                help: Some("a grid group has thread_rank(), size(), num_threads(), block_rank(), num_blocks(), is_valid() and, as a statement in a cooperative launch, sync()".into()),
            }),
        }
    }

    /// `blockDim.x * blockDim.y * blockDim.z`.
    fn block_threads(&mut self, span: Span) -> Result<Expr> {
        self.volume(Builtin::BlockDim, span)
    }

    fn arith_u32(&mut self, op: ArithOp, a: Expr, b: u32, span: Span) -> Result<Expr> {
        let a = self.convert(a, Scalar::U32);
        let bop = match op {
            ArithOp::And => BinOp::BitAnd,
            ArithOp::Div => BinOp::Div,
            ArithOp::Add => BinOp::Add,
            ArithOp::Sub => BinOp::Sub,
            _ => unreachable!("groups: only &, / and + on ranks"),
        };
        self.binary(bop, span, a, constant(Value::U32(b), span))
    }
}

/// A coalesced group's lanes: the mask it captured, or the warp's active lanes now.
pub(super) fn coalesced_mask(v: Option<VarId>, span: Span) -> Expr {
    match v {
        Some(var) => Expr {
            kind: ExprKind::Var(var),
            ty: Scalar::U32,
            span,
        },
        None => Expr {
            kind: ExprKind::ActiveMask,
            ty: Scalar::U32,
            span,
        },
    }
}

/// `__fns(mask, base, nth)`: the lane of the `nth` set bit of `mask` from `base` (down for a
/// negative `nth`), 0xffffffff where there is none.
fn fns(mask: Expr, base: Expr, nth: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Call {
            func: Func::Bits3(crate::value::Bits3::Fns),
            args: vec![mask, base, nth],
        },
        ty: Scalar::U32,
        span,
    }
}
