//! CUB reductions of struct items (`cub::KeyValuePair` with `cub::ArgMax()`, a struct with its own operation), member by member.

// The struct is the reduction's item as it is in registers: one variable per member. CUB's
// `ShuffleDown` of a non-primitive item moves it word by word; simt moves it member by member,
// which gives each lane the same bytes. The steps and the TempStorage are those of the scalar
// reductions (cub.rs): `log2(L)` shuffle-and-combine steps per logical warp, lane 0 of each warp
// storing its aggregate (here each member) into the TempStorage, a barrier, thread 0 combining
// the other warps' aggregates in warp order.

use std::collections::HashMap;
use std::rc::Rc;

use super::cub::{Class, Kind, HAVE};
use super::cub_reduce_raking::ReduceAlg;
use super::expr::constant;
use super::intrinsics::RetShape;
use super::structs::{Home, Layout, MemberKind, StructPlace};
use super::typed::*;
use super::{Binding, CheckError, KernelChecker, Scope};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{Scalar, ShflKind, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// How a reduction combines two struct items.
pub(super) enum RecordOp {
    /// `cub::ArgMax()` (`max` true) or `cub::ArgMin()`: `b` where its value is larger (smaller)
    /// or equal with a smaller key, else `a` (cub/thread/thread_operators.cuh).
    Arg { max: bool, key: usize, value: usize },
    /// A `__device__` function, a function object's `operator()` or a lambda (with the scopes
    /// its body sees), called as `op(a, b)`.
    Call(ast::Function, Vec<ast::TemplateArg>, Option<Vec<Scope>>),
}

impl KernelChecker<'_, '_> {
    /// The struct a CUB call returns (`BlockReduce(temp).Reduce(kv, cub::ArgMax())`), decided
    /// from the class alone.
    pub(crate) fn cub_record_type(
        &mut self,
        object: &ast::Expr,
        method: &str,
    ) -> Option<Rc<Layout>> {
        let class = self.cub_class(object)?.ok()?;
        let record = class.record.as_ref()?;
        if method != "Reduce" {
            return None;
        }
        self.layout_named(record, object.span)?.ok()
    }

    /// The item type of a CUB class over structs: its layout, which may hold no pointer.
    pub(super) fn record_layout(&mut self, class: &Class, span: Span) -> Result<Rc<Layout>> {
        let record = class.record.as_deref().unwrap_or_default();
        let not_a_struct = || CheckError::CubUnsupported {
            what: format!(
                "`{}` (the item type `{record}`, neither a scalar nor a struct with data members)",
                class.name
            ),
            span,
            help: HAVE.into(),
        };
        let l = self.layout_named(record, span).ok_or_else(not_a_struct)??;
        if l.has_pointer() {
            return Err(CheckError::CubUnsupported {
                what: format!("`{}` (an item type that holds a pointer)", class.name),
                span,
                help: "reduce a struct of scalars: pass the buffer the pointer points to as a parameter of its own".into(),
            });
        }
        Ok(l)
    }

    /// `Class(temp).Reduce(v, op)` (and with `valid_items`) of a struct item: its members, the
    /// statements that compute them in `out`.
    pub(crate) fn cub_record_value(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<Vec<Expr>>> {
        let made = self.cub_used(object, &method.name, args)?;
        Some(made.and_then(|(class, s, first)| {
            self.record_reduce(&class, (s, first), method, args, span, out)
        }))
    }

    fn record_reduce(
        &mut self,
        class: &Class,
        storage: (u32, Expr),
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let (value, op, valid) = match (method.name.as_str(), args) {
            ("Reduce", [v, op]) => (v, op, None),
            ("Reduce", [v, op, n]) => (v, op, Some(n)),
            ("Reduce", _) => {
                return Err(CheckError::ArgumentCount {
                    name: "Reduce".into(),
                    expected: "2 or 3 (an item, an operation, and the number of valid items)"
                        .into(),
                    found: args.len(),
                    span,
                })
            }
            (other, _) => {
                return Err(CheckError::CubUnsupported {
                    what: format!("`{}::{other}` of a struct item", class.name),
                    span: method.span,
                    help: "reduce a struct item with `Reduce(v, op)` or `Reduce(v, op, valid_items)`, `op` combining two of them".into(),
                })
            }
        };
        let l = self.record_layout(class, span)?;
        let op = self.record_op(op, &l, out)?;
        let values = self.struct_value(value, &l, out)?;
        let acc = self.new_struct("cub aggregate", &l, span);
        self.writes(&acc, values, span, out)?;
        let valid = match valid {
            Some(n) => {
                let n = self.expr(n)?;
                Some(self.convert(n, Scalar::I32))
            }
            None => None,
        };
        match class.kind {
            Kind::WarpReduce(lanes) => {
                self.record_warp_reduce(&acc, lanes, &op, valid, out, span)?
            }
            Kind::BlockReduce(dims, ReduceAlg::WarpReductions) => {
                self.record_block_reduce(&acc, dims, storage, &op, valid, out, span)?
            }
            Kind::BlockReduce(dims, alg) => {
                let shape = l.buffer_shape();
                let (dims, storage) = ((dims, alg), storage);
                self.record_raking_reduce(&acc, dims, storage, shape, &op, valid, out, span)?
            }
            _ => unreachable!("cub: only the reductions take struct items (class_from)"),
        }
        self.reads(&acc, span)
    }

    /// The operation `e` names for items of type `l`.
    fn record_op(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        out: &mut Vec<Stmt>,
    ) -> Result<RecordOp> {
        let refused = |what: String| {
            CheckError::CubUnsupported {
            what,
            span: e.span,
            help: format!("combine two `{}` items with `cub::ArgMax()`, `cub::ArgMin()` (a `cub::KeyValuePair`), a function object, a lambda or a `__device__` function", l.name),
        }
        };
        match &e.kind {
            ast::ExprKind::Call { callee, args, .. }
                if args.is_empty()
                    && matches!(
                        super::groups::unqualified(callee.name.trim()),
                        "ArgMax" | "ArgMin"
                    ) =>
            {
                let max = super::groups::unqualified(callee.name.trim()) == "ArgMax";
                let leaf = |name: &str| {
                    l.member(name).and_then(|m| match m.kind {
                        MemberKind::Scalar(_) => Some(m.first),
                        _ => None,
                    })
                };
                match (leaf("key"), leaf("value")) {
                    (Some(key), Some(value)) => Ok(RecordOp::Arg { max, key, value }),
                    _ => Err(refused(format!(
                        "`{}()` of `{}` items, which have no scalar members `key` and `value`",
                        callee.name, l.name
                    ))),
                }
            }
            ast::ExprKind::Call { .. } => match self.object_of(e) {
                Some(o) => {
                    let o = o?;
                    let f = self
                        .member_fn(&o, "operator()")
                        .ok_or_else(|| refused("a function object without `operator()`".into()))?;
                    Ok(RecordOp::Call(f, Vec::new(), None))
                }
                None => Err(refused("this reduction operation".into())),
            },
            ast::ExprKind::Name(written) => {
                // `reduce_topk_op_2<T>` (its arguments substituted): a function template's
                // instance, named without a call.
                let (n, targs) = match written.split_once('<') {
                    Some((base, _)) => match crate::syntax::parse_kernel_ref(written) {
                        Ok((_, _, targs)) => (base.trim().to_string(), targs),
                        Err(_) => {
                            return Err(refused(format!("`{written}` as the reduction operation")))
                        }
                    },
                    None => (written.clone(), Vec::new()),
                };
                match self.lookup(&n) {
                    Some(Binding::Object(i)) => {
                        let o = self.objects[i as usize].clone();
                        let f = self.member_fn(&o, "operator()").ok_or_else(|| {
                            refused(format!("`{n}`, an object without `operator()`"))
                        })?;
                        Ok(RecordOp::Call(f, Vec::new(), None))
                    }
                    Some(Binding::Lambda(i)) => {
                        let (f, scopes) = self.lambdas[i as usize].clone();
                        Ok(RecordOp::Call(f, Vec::new(), Some(scopes)))
                    }
                    _ => match self.globals.functions.get(n.as_str()).copied() {
                        Some(f) => Ok(RecordOp::Call(f.clone(), targs, None)),
                        None => Err(refused(format!("`{n}` as the reduction operation"))),
                    },
                }
            }
            // `[](auto const& a, auto const& b) { return a + b; }` written in the call
            // (TensorRT's layer norm).
            ast::ExprKind::Lambda(lambda) => {
                let i = self.make_lambda("the lambda".into(), e.span, lambda, out);
                let (f, scopes) = self.lambdas[i as usize].clone();
                Ok(RecordOp::Call(f, Vec::new(), Some(scopes)))
            }
            _ => Err(refused("this reduction operation".into())),
        }
    }

    /// `op(a, b)`: the members of the combined item.
    fn record_combine(
        &mut self,
        op: &RecordOp,
        (a, b): (&StructPlace, &StructPlace),
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<Vec<Expr>> {
        let l = Rc::clone(&a.layout);
        let n = l.leaves.len();
        match op {
            RecordOp::Arg { max, key, value } => {
                let read = |this: &mut Self, p: &StructPlace, k: usize| -> Result<Expr> {
                    let leaf = this.leaf(p, k, span)?;
                    Ok(this.read(leaf, span))
                };
                let (av, bv) = (read(self, a, *value)?, read(self, b, *value)?);
                let (ak, bk) = (read(self, a, *key)?, read(self, b, *key)?);
                let cmp = if *max { BinOp::Gt } else { BinOp::Lt };
                let better = self.binary(cmp, span, bv.clone(), av.clone())?;
                let tie = self.binary(BinOp::Eq, span, av, bv)?;
                let smaller_key = self.binary(BinOp::Lt, span, bk, ak)?;
                let select = |cond: Expr, then: Expr, els: Expr| Expr {
                    kind: ExprKind::Select {
                        cond: Box::new(cond),
                        then: Box::new(then),
                        els: Box::new(els),
                    },
                    ty: Scalar::Bool,
                    span,
                };
                let no = constant(Value::Bool(false), span);
                let yes = constant(Value::Bool(true), span);
                let take_b = select(better, yes, select(tie, smaller_key, no));
                let flag = self.new_local("cub take b", Scalar::Bool, span);
                out.push(super::cub::assign(flag, take_b, span));
                let mut leaves = Vec::with_capacity(n);
                for k in 0..n {
                    let (x, y) = (read(self, b, k)?, read(self, a, k)?);
                    let ty = x.ty;
                    leaves.push(Expr {
                        kind: ExprKind::Select {
                            cond: Box::new(Expr {
                                kind: ExprKind::Var(flag),
                                ty: Scalar::Bool,
                                span,
                            }),
                            then: Box::new(x),
                            els: Box::new(y),
                        },
                        ty,
                        span,
                    });
                }
                Ok(leaves)
            }
            RecordOp::Call(f, targs, scopes) => {
                // The inlined call sees the two items through names no kernel can write.
                self.scopes.push(HashMap::new());
                let names = ["cub#a", "cub#b"];
                for (name, p) in names.iter().zip([a, b]) {
                    let binding = self.bind_struct(p.clone());
                    let ident = ast::Ident {
                        name: (*name).into(),
                        span,
                    };
                    self.declare(&ident, binding);
                }
                let args: Vec<ast::Expr> = names
                    .iter()
                    .map(|n| ast::Expr {
                        kind: ast::ExprKind::Name((*n).into()),
                        span,
                    })
                    .collect();
                self.pending_scopes = scopes.clone();
                let call = self.inline_call(f, (targs, &args), span, true);
                self.pending_scopes = None;
                let result = call.and_then(|call| {
                    if !matches!(self.last_ret, RetShape::Struct(_))
                        && matches!(call.kind, ExprKind::Inline { .. })
                    {
                        return Err(CheckError::Mismatch {
                            expected: format!("an operation that returns a `{}`", l.name),
                            found: format!("`{}`, which returns another type", f.name.name),
                            span,
                            help: Some("CUB combines two items into one of the same type".into()),
                        });
                    }
                    self.returned(call, &l, span, out)
                });
                self.scopes.pop();
                result
            }
        }
    }

    /// `acc = op(acc, other)`, only where `keep` (when given) holds.
    pub(super) fn record_step(
        &mut self,
        op: &RecordOp,
        (acc, other, next): (&StructPlace, &StructPlace, &StructPlace),
        keep: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let combined = self.record_combine(op, (acc, other), out, span)?;
        // Through `next`: a member of the result may read a member of `acc` already replaced.
        self.writes(next, combined, span, out)?;
        let values = self.reads(next, span)?;
        let values = match keep {
            None => values,
            Some(cond) => {
                let flag = self.new_local("cub step valid", Scalar::Bool, span);
                out.push(super::cub::assign(flag, cond, span));
                let old = self.reads(acc, span)?;
                values
                    .into_iter()
                    .zip(old)
                    .map(|(new, old)| {
                        let ty = new.ty;
                        Expr {
                            kind: ExprKind::Select {
                                cond: Box::new(Expr {
                                    kind: ExprKind::Var(flag),
                                    ty: Scalar::Bool,
                                    span,
                                }),
                                then: Box::new(new),
                                els: Box::new(old),
                            },
                            ty,
                            span,
                        }
                    })
                    .collect()
            }
        };
        self.writes(acc, values, span, out)
    }

    /// The shuffle warp reduction (cub.rs `warp_reduce`) of a struct item, member by member.
    pub(super) fn record_warp_reduce(
        &mut self,
        acc: &StructPlace,
        lanes: u32,
        op: &RecordOp,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let l = Rc::clone(&acc.layout);
        let other = self.new_struct("cub shuffled", &l, span);
        let next = self.new_struct("cub combined", &l, span);
        let logical_lane = match valid {
            Some(_) => {
                let tid = self.cub_tid(None, span)?;
                let mask = constant(Value::U32(lanes - 1), span);
                let lane = self.binary(BinOp::BitAnd, span, tid, mask)?;
                Some(self.convert(lane, Scalar::I32))
            }
            None => None,
        };
        let mut offset = 1;
        while offset < lanes {
            for k in 0..l.leaves.len() {
                let src = self.leaf(acc, k, span)?;
                let value = self.read(src, span);
                let arg = constant(Value::U32(offset), span);
                let moved = self.tile_shuffle(lanes, ShflKind::Down, value, arg, span)?;
                let dst = self.leaf(&other, k, span)?;
                out.push(self.write(dst, moved, span)?);
            }
            let keep = match (&valid, &logical_lane) {
                (Some(n), Some(lane)) => {
                    let shift = constant(Value::I32(offset as i32), span);
                    let src = self.binary(BinOp::Add, span, lane.clone(), shift)?;
                    Some(self.binary(BinOp::Lt, span, src, n.clone())?)
                }
                _ => None,
            };
            self.record_step(op, (acc, &other, &next), keep, out, span)?;
            offset *= 2;
        }
        Ok(())
    }

    /// BLOCK_REDUCE_WARP_REDUCTIONS (cub.rs `block_reduce`) of a struct item: each warp's
    /// aggregate stored member by member into its slot of the TempStorage.
    #[allow(clippy::too_many_arguments)]
    fn record_block_reduce(
        &mut self,
        acc: &StructPlace,
        dims: [u32; 3],
        (s, first): (u32, Expr),
        op: &RecordOp,
        valid: Option<Expr>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let l = Rc::clone(&acc.layout);
        let threads = dims[0] * dims[1] * dims[2];
        if let Some(n) = &valid {
            out.push(self.valid_within_block(n.clone(), dims, span)?);
        }
        let lanes = threads.min(32);
        let tid = self.cub_tid(Some(dims), span)?;
        let tid = self.convert(tid, Scalar::I32);
        let i32c = |v: u32| constant(Value::I32(v as i32), span);
        let warp = self.binary(BinOp::Div, span, tid.clone(), i32c(32))?;
        let warp_valid = match (&valid, threads.is_multiple_of(lanes)) {
            (None, true) => None,
            (n, _) => {
                let n = n.clone().unwrap_or_else(|| i32c(threads));
                let base = self.binary(BinOp::Mul, span, warp.clone(), i32c(32))?;
                Some(self.binary(BinOp::Sub, span, n, base)?)
            }
        };
        self.record_warp_reduce(acc, lanes.next_power_of_two(), op, warp_valid, out, span)?;
        let (elem, stride) = l.buffer_shape();
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        // Slot `w` of the TempStorage: the struct at component `first + w * stride`.
        let slot = |this: &mut Self, w: Expr| -> Result<StructPlace> {
            let at = this.binary(BinOp::Mul, span, w, i32c(stride))?;
            let at = this.binary(BinOp::Add, span, first.clone(), at)?;
            Ok(StructPlace {
                layout: Rc::clone(&l),
                home: Home::Mem {
                    mem,
                    at: this.convert(at, Scalar::I64),
                    pointers: Vec::new(),
                },
            })
        };
        let lane = self.binary(BinOp::Rem, span, tid.clone(), i32c(32))?;
        let lane0 = self.binary(BinOp::Eq, span, lane, i32c(0))?;
        let mine = slot(self, warp)?;
        let mut store = Vec::new();
        let values = self.reads(acc, span)?;
        self.writes(&mine, values, span, &mut store)?;
        out.push(Stmt {
            kind: StmtKind::If {
                cond: lane0,
                then: store,
                els: Vec::new(),
            },
            span,
        });
        out.push(Stmt {
            kind: StmtKind::Barrier,
            span,
        });
        let other = self.new_struct("cub warp aggregate", &l, span);
        let next = self.new_struct("cub combined", &l, span);
        let mut thread0 = Vec::new();
        for w in 1..super::cub::warps(dims) {
            let theirs = slot(self, i32c(w))?;
            let mut step = Vec::new();
            let values = self.reads(&theirs, span)?;
            self.writes(&other, values, span, &mut step)?;
            self.record_step(op, (acc, &other, &next), None, &mut step, span)?;
            match &valid {
                // Only warps that hold a valid item.
                Some(n) => {
                    let has = self.binary(BinOp::Lt, span, i32c(w * 32), n.clone())?;
                    thread0.push(Stmt {
                        kind: StmtKind::If {
                            cond: has,
                            then: step,
                            els: Vec::new(),
                        },
                        span,
                    });
                }
                None => thread0.extend(step),
            }
        }
        if !thread0.is_empty() {
            let is0 = self.binary(BinOp::Eq, span, tid, i32c(0))?;
            out.push(Stmt {
                kind: StmtKind::If {
                    cond: is0,
                    then: thread0,
                    els: Vec::new(),
                },
                span,
            });
        }
        Ok(())
    }
}
