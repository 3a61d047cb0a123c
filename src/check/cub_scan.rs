//! CUB's warp and block scans (`WarpScanShfl`, `BlockScanWarpScans`), checked into the shuffles,
//! shared-memory accesses and barrier CUB builds them from.

// `cub::WarpScan<T, L>` is CUB's `WarpScanShfl`: log2(L) steps of `shfl.up` by 1, 2, 4, …, each
// `output = scan_op(shuffled, output)` kept only where the lane is at least the offset (CUB's
// generic step: a shuffle, the operation, a compare and a select; its `Sum` of 32- and 64-bit
// types is PTX that adds under the shuffle's own predicate, which simt, having no predicated
// instructions, counts as that generic step). The exclusive output is `inclusive - input` for
// an integer sum, else the inclusive output shuffled up by one (lane 0 then gets the initial
// value, or keeps its own inclusive value: CUB leaves it undefined). `warp_aggregate` is the
// last lane's inclusive output, shuffled to every lane (before the initial value is applied).
// `cub::BlockScan<T, X, BLOCK_SCAN_WARP_SCANS, Y, Z>` scans each warp so, lane 31 of each warp
// stores its warp's total into the TempStorage, `__syncthreads()`, every thread reads the warps'
// totals in warp order (its warp's prefix is the total before it; every thread gets the block
// aggregate) and applies its warp's prefix.

use super::cub::{assign, warps, Class, Kind, Op, RakingLayout, ScanAlg};
use super::expr::{constant, load};
use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{ArithOp, Scalar, ShflKind, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// A scan call's arguments, checked against CUB's overloads.
#[derive(Clone)]
pub(super) struct Scan<'a> {
    /// Inclusive (else exclusive) output.
    pub inclusive: bool,
    pub input: &'a ast::Expr,
    pub output: &'a ast::Expr,
    pub init: Option<&'a ast::Expr>,
    /// `ExclusiveSum`'s initial value, `T{}`.
    pub zero: bool,
    pub op: Op,
    pub aggregate: Option<&'a ast::Expr>,
}

impl KernelChecker<'_, '_> {
    /// `WarpScan(temp).InclusiveSum(in, out)` and the other scans, as a statement.
    pub(crate) fn cub_scan(
        &mut self,
        class: &Class,
        (s, first): (u32, Expr),
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let scan = self.scan_args(class, method, args, span)?;
        if let Kind::BlockScan(dims, alg) = class.kind {
            if let Some(items) = self.items_of(class, &method.name, &scan)? {
                return self.block_scan_items(
                    class,
                    &scan,
                    (dims, alg),
                    (s, first),
                    items,
                    method,
                    span,
                );
            }
        }
        let elem = class.elem;
        let input = self.expr(scan.input)?;
        let input = self.convert(input, elem);
        let inp = self.new_local("cub scan input", elem, span);
        let mut body = vec![assign(inp, input, span)];
        let init = self.scan_init(&scan, elem, &mut body, span)?;
        let (out, aggregate) = match class.kind {
            Kind::WarpScan(lanes) => {
                self.warp_scan(&scan, elem, lanes, inp, init, &mut body, span)?
            }
            Kind::BlockScan(dims, alg) => self.block_scan(
                &scan,
                elem,
                (dims, alg),
                (s, first),
                inp,
                init,
                &mut body,
                span,
            )?,
            _ => unreachable!("cub: cub_scan is called for the scans"),
        };
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let kind = self.assign(scan.output, None, span, var(out))?;
        body.push(Stmt { kind, span });
        self.finish_scan(class, &scan, method, aggregate, body, span)
    }

    /// The overload a call names: `(in, out [, aggregate])` for the sums; `(in, out, op)`,
    /// `(in, out, op, aggregate)`, `(in, out, init, op)` and `(in, out, init, op, aggregate)`
    /// for the scans.
    fn scan_args<'a>(
        &self,
        class: &Class,
        method: &ast::Ident,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Result<Scan<'a>> {
        let block = matches!(class.kind, Kind::BlockScan(..));
        let unsupported = |what: String, at: Span, help: String| CheckError::CubUnsupported {
            what,
            span: at,
            help,
        };
        let (inclusive, sum) = match method.name.as_str() {
            "InclusiveSum" => (true, true),
            "ExclusiveSum" => (false, true),
            "InclusiveScan" => (true, false),
            "ExclusiveScan" => (false, false),
            other => {
                return Err(unsupported(
                    format!("`{}::{other}`", class.name),
                    method.span,
                    super::cub::HAVE.into(),
                ))
            }
        };
        let count = |expected: &str| CheckError::ArgumentCount {
            name: method.name.clone(),
            expected: expected.into(),
            found: args.len(),
            span,
        };
        let (input, output, rest) = match args {
            [i, o, rest @ ..] => (i, o, rest),
            _ => {
                return Err(count(if sum {
                    "2 or 3 (the input, the output and the aggregate)"
                } else {
                    "3 to 5 (the input, the output, an initial value, the operation and the aggregate)"
                }))
            }
        };
        if let (ast::ExprKind::Name(n), false) = (&input.kind, block) {
            if let Some(Binding::LocalArray(_)) = self.lookup(n) {
                return Err(unsupported(
                    format!("`{}::{}` of an items array", class.name, method.name),
                    input.span,
                    "WarpScan scans one item per thread (BlockScan also takes a thread's items array): scan each item's own value, or sum the thread's items first and scan the sums".into(),
                ));
            }
        }
        // A functor where the aggregate goes: after a sum's output, or after a scan's operation.
        let callback = match (sum, rest) {
            (true, [c]) => Some(c),
            (false, [op, c] | [_, op, c]) if self.is_functor(op) || is_made_op(op) => Some(c),
            _ => None,
        };
        if let Some(last) = callback.filter(|c| self.is_functor(c)) {
            return Err(unsupported(
                format!("`{}::{}` with a prefix callback", class.name, method.name),
                last.span,
                "simt models the scans without a prefix callback: add the running prefix to the outputs yourself".into(),
            ));
        }
        let (init, op, aggregate) = if sum {
            match rest {
                [] => (None, Op::Arith(ArithOp::Add), None),
                [a] => (None, Op::Arith(ArithOp::Add), Some(a)),
                _ => return Err(count("2 or 3 (the input, the output and the aggregate)")),
            }
        } else {
            match rest {
                [op] => (None, self.reduction_op(op)?, None),
                [a, b] if self.is_functor(a) || is_made_op(a) => (None, self.reduction_op(a)?, Some(b)),
                [init, op] => (Some(init), self.reduction_op(op)?, None),
                [init, op, agg] => (Some(init), self.reduction_op(op)?, Some(agg)),
                _ => {
                    return Err(count(
                        "3 to 5 (the input, the output, an initial value, the operation and the aggregate)",
                    ))
                }
            }
        };
        if block && inclusive && init.is_some() {
            return Err(unsupported(
                format!("`{}::InclusiveScan` with an initial value", class.name),
                span,
                "simt models BlockScan's InclusiveScan(in, out, op) and InclusiveScan(in, out, op, block_aggregate): combine the initial value with the output yourself".into(),
            ));
        }
        Ok(Scan {
            inclusive,
            input,
            output,
            init,
            zero: sum && !inclusive,
            op,
            aggregate,
        })
    }

    /// The input and output items arrays (`T (&items)[N]`) of a BlockScan call, if its input
    /// is one, and N.
    fn items_of(
        &self,
        class: &Class,
        method: &str,
        scan: &Scan<'_>,
    ) -> Result<Option<(Mem, Mem, u32)>> {
        let array = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::LocalArray(l)) => Some((n.clone(), l)),
                _ => None,
            },
            _ => None,
        };
        let Some((name, input)) = array(scan.input) else {
            return Ok(None);
        };
        let a = &self.local_arrays[input as usize];
        let (dims, elem, width) = (a.dims.clone(), a.elem, a.width);
        let n = match dims.as_slice() {
            [n] if elem == class.elem && width == 1 => *n as u32,
            _ => {
                let dims: Vec<String> = dims.iter().map(|d| format!("[{d}]")).collect();
                return Err(CheckError::CubArgument {
                    class: class.name.clone(),
                    method: method.into(),
                    expected: format!("a local array `{}[N]`", class.elem.c_name()),
                    found: format!("`{} {name}{}`", elem.c_name(), dims.concat()),
                    span: scan.input.span,
                });
            }
        };
        let output = match array(scan.output) {
            Some((_, o))
                if self.local_arrays[o as usize].dims == [u64::from(n)]
                    && self.local_arrays[o as usize].elem == class.elem
                    && self.local_arrays[o as usize].width == 1 =>
            {
                o
            }
            _ => {
                return Err(CheckError::CubArgument {
                    class: class.name.clone(),
                    method: method.into(),
                    expected: format!(
                        "a local array `{}[{n}]` like the input",
                        class.elem.c_name()
                    ),
                    found: "another output".into(),
                    span: scan.output.span,
                })
            }
        };
        let mem = |l: u32| Mem {
            space: Space::Local(l),
            elem: class.elem,
            width: 1,
        };
        Ok(Some((mem(input), mem(output), n)))
    }

    /// BlockScan of a thread's `items[N]`, as block_scan.cuh writes it: the thread's items
    /// reduced in order (`ThreadReduce`), a block-wide exclusive scan of the reductions (with
    /// the initial value, if any), then the items scanned in registers from the thread's prefix
    /// (`ThreadScanExclusive` / `ThreadScanInclusive`, thread 0 without a prefix).
    #[allow(clippy::too_many_arguments)]
    fn block_scan_items(
        &mut self,
        class: &Class,
        scan: &Scan<'_>,
        (dims, alg): ([u32; 3], ScanAlg),
        storage: (u32, Expr),
        (input, output, n): (Mem, Mem, u32),
        method: &ast::Ident,
        span: Span,
    ) -> Result<Expr> {
        let elem = class.elem;
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let at = |i: u32| constant(Value::I32(i as i32), span);
        let mut body = Vec::new();
        let mut items = Vec::new();
        for i in 0..n {
            let v = self.new_local("cub item", elem, span);
            body.push(assign(v, load(input, at(i), span), span));
            items.push(v);
        }
        let init = self.scan_init(scan, elem, &mut body, span)?;
        // A single item's inclusive scan is the single-item form (CUB's ITEMS_PER_THREAD == 1).
        if n == 1 && scan.inclusive {
            let (out, aggregate) = self.block_scan(
                scan,
                elem,
                (dims, alg),
                storage,
                items[0],
                None,
                &mut body,
                span,
            )?;
            return self.scan_outputs(class, scan, method, (output, n), out, aggregate, body, span);
        }
        let reduced = self.new_local("cub thread_prefix", elem, span);
        body.push(assign(reduced, var(items[0]), span));
        for &item in &items[1..] {
            let next = self.combine(&scan.op, var(reduced), var(item), elem, span)?;
            body.push(assign(reduced, next, span));
        }
        let inner = Scan {
            inclusive: false,
            ..scan.clone()
        };
        let (prefix, aggregate) = self.block_scan(
            &inner,
            elem,
            (dims, alg),
            storage,
            reduced,
            init,
            &mut body,
            span,
        )?;
        let mut outs = Vec::new();
        if scan.inclusive {
            // `inclusive = input[0]; if (linear_tid != 0) inclusive = scan_op(prefix, inclusive);`
            let running = self.new_local("cub inclusive", elem, span);
            body.push(assign(running, var(items[0]), span));
            let tid = self.cub_tid(Some(dims), span)?;
            let not0 = self.binary(BinOp::Ne, span, tid, constant(Value::U32(0), span))?;
            let seeded = self.combine(&scan.op, var(prefix), var(running), elem, span)?;
            body.push(Stmt {
                kind: StmtKind::If {
                    cond: not0,
                    then: vec![assign(running, seeded, span)],
                    els: Vec::new(),
                },
                span,
            });
            outs.push(self.snapshot(running, elem, &mut body, span));
            for &item in &items[1..] {
                let next = self.combine(&scan.op, var(running), var(item), elem, span)?;
                body.push(assign(running, next, span));
                outs.push(self.snapshot(running, elem, &mut body, span));
            }
        } else {
            // `exclusive = inclusive; inclusive = scan_op(exclusive, input[i]); output[i] =
            // exclusive;` from the prefix (the last item's inclusive value is never used).
            let running = self.new_local("cub inclusive", elem, span);
            body.push(assign(running, var(prefix), span));
            for (i, &item) in items.iter().enumerate() {
                outs.push(self.snapshot(running, elem, &mut body, span));
                if i + 1 < items.len() {
                    let next = self.combine(&scan.op, var(running), var(item), elem, span)?;
                    body.push(assign(running, next, span));
                }
            }
        }
        for (i, v) in outs.into_iter().enumerate() {
            body.push(Stmt {
                kind: StmtKind::Store {
                    mem: output,
                    index: at(i as u32),
                    value: var(v),
                },
                span,
            });
        }
        self.scan_outputs(
            class,
            scan,
            method,
            (output, 0),
            prefix,
            aggregate,
            body,
            span,
        )
    }

    /// A copy of `v` as it is now.
    /// The scan's initial value (written, or 0 for an exclusive sum) in a local of its own.
    fn scan_init(
        &mut self,
        scan: &Scan<'_>,
        elem: Scalar,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<Option<VarId>> {
        let init = match (scan.init, scan.zero) {
            (Some(e), _) => self.expr(e)?,
            (None, true) => constant(Value::I32(0), span),
            (None, false) => return Ok(None),
        };
        let v = self.convert(init, elem);
        let var = self.new_local("cub initial value", elem, span);
        body.push(assign(var, v, span));
        Ok(Some(var))
    }

    fn snapshot(&mut self, v: VarId, elem: Scalar, body: &mut Vec<Stmt>, span: Span) -> VarId {
        let copy = self.new_local("cub output", elem, span);
        let value = Expr {
            kind: ExprKind::Var(v),
            ty: elem.promoted(),
            span,
        };
        body.push(assign(copy, value, span));
        copy
    }

    /// The call's body, ending with its outputs: `out` into the first `n` items of `output`
    /// (none when `n` is 0: already stored), and the aggregate.
    #[allow(clippy::too_many_arguments)]
    fn scan_outputs(
        &mut self,
        class: &Class,
        scan: &Scan<'_>,
        method: &ast::Ident,
        (output, n): (Mem, u32),
        out: VarId,
        aggregate: Option<VarId>,
        mut body: Vec<Stmt>,
        span: Span,
    ) -> Result<Expr> {
        let ty = class.elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        if n == 1 {
            body.push(Stmt {
                kind: StmtKind::Store {
                    mem: output,
                    index: constant(Value::I32(0), span),
                    value: var(out),
                },
                span,
            });
        }
        self.finish_scan(class, scan, method, aggregate, body, span)
    }

    /// The call's body ended with the aggregate's assignment, as the call's expression.
    fn finish_scan(
        &mut self,
        class: &Class,
        scan: &Scan<'_>,
        method: &ast::Ident,
        aggregate: Option<VarId>,
        mut body: Vec<Stmt>,
        span: Span,
    ) -> Result<Expr> {
        let ty = class.elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        if let (Some(target), Some(a)) = (scan.aggregate, aggregate) {
            let kind = self.assign(target, None, span, var(a))?;
            body.push(Stmt { kind, span });
        }
        Ok(Expr {
            kind: ExprKind::Inline {
                name: format!("{}::{}", class.name, method.name),
                body,
                result: None,
            },
            ty: Scalar::Bool,
            span,
        })
    }

    /// Whether `e` names a functor or lambda variable (an operation or a prefix callback, not
    /// an item).
    fn is_functor(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::Name(n) => matches!(
                self.lookup(n),
                Some(Binding::Lambda(_) | Binding::Object(_) | Binding::Struct(_))
            ),
            _ => false,
        }
    }

    /// The thread's lane in its logical warp of `lanes`, held in an `int` variable.
    fn scan_lane(&mut self, lanes: u32, body: &mut Vec<Stmt>, span: Span) -> Result<VarId> {
        let tid = self.cub_tid(None, span)?;
        let mask = constant(Value::U32(lanes - 1), span);
        let lane = self.binary(BinOp::BitAnd, span, tid, mask)?;
        let lane = self.convert(lane, Scalar::I32);
        let v = self.new_local("cub lane", Scalar::I32, span);
        body.push(assign(v, lane, span));
        Ok(v)
    }

    /// `lane <cmp> k` for an `int` lane variable.
    pub(super) fn lane_is(&mut self, cmp: BinOp, lane: VarId, k: u32, span: Span) -> Result<Expr> {
        let lane = Expr {
            kind: ExprKind::Var(lane),
            ty: Scalar::I32,
            span,
        };
        self.binary(cmp, span, lane, constant(Value::I32(k as i32), span))
    }

    /// WarpScanShfl's `InclusiveScan`: `acc` becomes the lane's inclusive output.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn inclusive_steps(
        &mut self,
        acc: VarId,
        lane: VarId,
        elem: Scalar,
        lanes: u32,
        op: &Op,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let mut offset = 1;
        while offset < lanes {
            let up = constant(Value::U32(offset), span);
            let shuffled = self.tile_shuffle(lanes, ShflKind::Up, var(acc), up, span)?;
            let shuffled = self.convert(shuffled, elem);
            let other = self.new_local("cub shuffled", elem, span);
            body.push(assign(other, shuffled, span));
            // `output = scan_op(temp, input); if (lane_id < offset) output = input;`
            let combined = self.combine(op, var(other), var(acc), elem, span)?;
            let below = self.lane_is(BinOp::Lt, lane, offset, span)?;
            let next = select(below, var(acc), combined, ty, span);
            body.push(assign(acc, next, span));
            offset *= 2;
        }
        Ok(())
    }

    /// WarpScanShfl's `Update` without an initial value: the exclusive output from the
    /// inclusive one (`inclusive - input` for an integer sum, else shuffled up by one).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exclusive_of(
        &mut self,
        inclusive: VarId,
        input: VarId,
        elem: Scalar,
        lanes: u32,
        op: &Op,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<VarId> {
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let value = if integer_sum(op, elem) {
            self.binary(BinOp::Sub, span, var(inclusive), var(input))?
        } else {
            let one = constant(Value::U32(1), span);
            self.tile_shuffle(lanes, ShflKind::Up, var(inclusive), one, span)?
        };
        let value = self.convert(value, elem);
        let out = self.new_local("cub exclusive", elem, span);
        body.push(assign(out, value, span));
        Ok(out)
    }

    /// `cub::WarpScan<T, L>`: the output and the warp aggregate.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn warp_scan(
        &mut self,
        scan: &Scan<'_>,
        elem: Scalar,
        lanes: u32,
        input: VarId,
        init: Option<VarId>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<(VarId, Option<VarId>)> {
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let lane = self.scan_lane(lanes, body, span)?;
        let acc = self.new_local("cub inclusive", elem, span);
        body.push(assign(acc, var(input), span));
        self.inclusive_steps(acc, lane, elem, lanes, &scan.op, body, span)?;
        let aggregate = match scan.aggregate {
            Some(_) => {
                let last = constant(Value::U32(lanes - 1), span);
                let total = self.tile_shuffle(lanes, ShflKind::Idx, var(acc), last, span)?;
                let total = self.convert(total, elem);
                let a = self.new_local("cub warp aggregate", elem, span);
                body.push(assign(a, total, span));
                Some(a)
            }
            None => None,
        };
        if let Some(init) = init.filter(|_| !folded(scan, elem)) {
            // `inclusive = scan_op(initial_value, inclusive);`
            let seeded = self.combine(&scan.op, var(init), var(acc), elem, span)?;
            body.push(assign(acc, seeded, span));
        }
        if scan.inclusive {
            return Ok((acc, aggregate));
        }
        let out = self.exclusive_of(acc, input, elem, lanes, &scan.op, body, span)?;
        if let (Some(init), false) = (init, integer_sum(&scan.op, elem)) {
            // `if (lane_id == 0) exclusive = initial_value;`
            let first = self.lane_is(BinOp::Eq, lane, 0, span)?;
            let fixed = select(first, var(init), var(out), ty, span);
            body.push(assign(out, fixed, span));
        }
        Ok((out, aggregate))
    }

    /// `cub::BlockScan<T, X, ALGORITHM, Y, Z>`: the output and the block aggregate (`None`
    /// where the algorithm computes it only when asked and the call does not ask).
    #[allow(clippy::too_many_arguments)]
    fn block_scan(
        &mut self,
        scan: &Scan<'_>,
        elem: Scalar,
        (dims, alg): ([u32; 3], ScanAlg),
        storage: (u32, Expr),
        input: VarId,
        init: Option<VarId>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<(VarId, Option<VarId>)> {
        match alg {
            ScanAlg::WarpScans => {
                self.block_warp_scans(scan, elem, dims, storage, input, init, body, span)
            }
            ScanAlg::Raking { memoize } => {
                let layout = RakingLayout::new(dims, elem);
                self.block_raking_scan(
                    scan,
                    elem,
                    (layout, memoize),
                    storage,
                    input,
                    init,
                    body,
                    span,
                )
            }
        }
    }

    /// `cub::BlockScan<T, X, BLOCK_SCAN_WARP_SCANS, Y, Z>`: the output and the block
    /// aggregate.
    #[allow(clippy::too_many_arguments)]
    fn block_warp_scans(
        &mut self,
        scan: &Scan<'_>,
        elem: Scalar,
        dims: [u32; 3],
        (s, first): (u32, Expr),
        input: VarId,
        init: Option<VarId>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<(VarId, Option<VarId>)> {
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        let n_warps = warps(dims);
        // `linear_tid = RowMajorTid(X, Y, Z)`, `warp_id = linear_tid / 32`, `lane_id = %laneid`.
        let tid = self.cub_tid(Some(dims), span)?;
        let tid = self.convert(tid, Scalar::I32);
        let t = self.new_local("cub linear_tid", Scalar::I32, span);
        body.push(assign(t, tid, span));
        let t = Expr {
            kind: ExprKind::Var(t),
            ty: Scalar::I32,
            span,
        };
        let w = self.binary(BinOp::Div, span, t.clone(), constant(Value::I32(32), span))?;
        let warp = self.new_local("cub warp_id", Scalar::I32, span);
        body.push(assign(warp, w, span));
        let l = self.binary(BinOp::BitAnd, span, t, constant(Value::I32(31), span))?;
        let lane = self.new_local("cub lane_id", Scalar::I32, span);
        body.push(assign(lane, l, span));
        // The warp scans (`Scan` gives the exclusive output too).
        let acc = self.new_local("cub inclusive", elem, span);
        body.push(assign(acc, var(input), span));
        self.inclusive_steps(acc, lane, elem, 32, &scan.op, body, span)?;
        let exclusive = match scan.inclusive {
            true => None,
            false => Some(self.exclusive_of(acc, input, elem, 32, &scan.op, body, span)?),
        };
        // ComputeWarpPrefix: lane 31 shares its warp's total, a barrier, every thread adds up
        // the totals in warp order.
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        let slot = self.binary(
            BinOp::Add,
            span,
            first.clone(),
            Expr {
                kind: ExprKind::Var(warp),
                ty: Scalar::I32,
                span,
            },
        )?;
        let last = self.lane_is(BinOp::Eq, lane, 31, span)?;
        body.push(Stmt {
            kind: StmtKind::If {
                cond: last,
                then: vec![Stmt {
                    kind: StmtKind::Store {
                        mem,
                        index: slot,
                        value: var(acc),
                    },
                    span,
                }],
                els: Vec::new(),
            },
            span,
        });
        body.push(Stmt {
            kind: StmtKind::Barrier,
            span,
        });
        let total = self.new_local("cub block_aggregate", elem, span);
        body.push(assign(total, load(mem, first.clone(), span), span));
        let prefix = self.new_local("cub warp_prefix", elem, span);
        for k in 1..n_warps {
            // `if (warp_id == WARP) warp_prefix = block_aggregate;` (warp 0's prefix, which CUB
            // leaves invalid, is warp 1's here: it is never used).
            let set = match k {
                1 => var(total),
                _ => {
                    let mine = self.lane_is(BinOp::Eq, warp, k, span)?;
                    select(mine, var(total), var(prefix), ty, span)
                }
            };
            body.push(assign(prefix, set, span));
            let at = self.binary(
                BinOp::Add,
                span,
                first.clone(),
                constant(Value::I32(k as i32), span),
            )?;
            let addend = self.new_local("cub addend", elem, span);
            body.push(assign(addend, load(mem, at, span), span));
            let sum = self.combine(&scan.op, var(total), var(addend), elem, span)?;
            body.push(assign(total, sum, span));
        }
        if let Some(init) = init {
            // `warp_prefix = scan_op(initial_value, warp_prefix); if (warp_id == 0) warp_prefix
            // = initial_value;` (one warp: its prefix is the initial value).
            let seeded = match n_warps {
                1 => var(init),
                _ if folded(scan, elem) => {
                    let zero = self.lane_is(BinOp::Eq, warp, 0, span)?;
                    select(zero, var(init), var(prefix), ty, span)
                }
                _ => {
                    let seeded = self.combine(&scan.op, var(init), var(prefix), elem, span)?;
                    let zero = self.lane_is(BinOp::Eq, warp, 0, span)?;
                    select(zero, var(init), seeded, ty, span)
                }
            };
            body.push(assign(prefix, seeded, span));
        }
        let out = exclusive.unwrap_or(acc);
        // Apply the warp's prefix: `exclusive = scan_op(warp_prefix, exclusive); if (lane_id ==
        // 0) exclusive = warp_prefix;` (with no initial value, only in warps other than 0).
        let mut apply = Vec::new();
        if n_warps > 1 || init.is_some() {
            let applied = self.combine(&scan.op, var(prefix), var(out), elem, span)?;
            let applied = match scan.inclusive {
                true => applied,
                false => {
                    let first_lane = self.lane_is(BinOp::Eq, lane, 0, span)?;
                    select(first_lane, var(prefix), applied, ty, span)
                }
            };
            apply.push(assign(out, applied, span));
        }
        match init {
            Some(_) => body.extend(apply),
            None if !apply.is_empty() => {
                let other = self.lane_is(BinOp::Ne, warp, 0, span)?;
                body.push(Stmt {
                    kind: StmtKind::If {
                        cond: other,
                        then: apply,
                        els: Vec::new(),
                    },
                    span,
                });
            }
            None => {}
        }
        Ok((out, Some(total)))
    }
}

/// `op` is CUB's integer-sum specialisation (`cuda::std::plus<>` of an integer type).
fn integer_sum(op: &Op, elem: Scalar) -> bool {
    matches!(op, Op::Arith(ArithOp::Add)) && elem.is_integer()
}

/// `ExclusiveSum`'s `0 + x` of an integer type, which the compiler removes.
fn folded(scan: &Scan<'_>, elem: Scalar) -> bool {
    scan.zero && elem.is_integer()
}

/// An operation made in place (`cub::Sum()`, `cuda::std::plus<>{}`), as the third argument.
fn is_made_op(e: &ast::Expr) -> bool {
    matches!(&e.kind, ast::ExprKind::Call { args, .. } if args.is_empty())
}

pub(super) fn select(cond: Expr, then: Expr, els: Expr, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Select {
            cond: Box::new(cond),
            then: Box::new(then),
            els: Box::new(els),
        },
        ty,
        span,
    }
}
