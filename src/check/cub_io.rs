//! CUB's `BlockLoad` and `BlockStore`, checked into the global accesses, shared-memory exchange
//! and synchronisation CUB builds each algorithm from (docs/libraries.md §1.3).

// Every algorithm leaves (or takes) the tile in the blocked arrangement: thread t holds items
// t·IPT … t·IPT + IPT - 1 (STRIPED: items t, t + T, …, as CUB documents). The global accesses
// follow the algorithm's own arrangement: blocked (DIRECT), striped (STRIPED, TRANSPOSE) or
// warp-striped (WARP_TRANSPOSE: warp w's lane l touches w·32·IPT + l + 32·i); the TRANSPOSE
// algorithms then go through BlockExchange's buffer in the TempStorage, with a
// `__syncthreads()` (block-wide) or a `__syncwarp()` (per warp) between its stores and loads.
// A partial store (`valid_items`) through an exchange moves `valid_items` through shared memory
// and a barrier first, as CUB does against register spilling. The loops are unrolled here, as
// `#pragma unroll` does: each item is its own access.

use super::cub::{assign, Class, Io, IoAlg};
use super::expr::{constant, load};
use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The ways a tile is spread over the block's threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrangement {
    /// Thread t: t·IPT + i.
    Blocked,
    /// Thread t: t + i·THREADS.
    Striped,
    /// Lane l of warp w: w·32·IPT + l + 32·i.
    WarpStriped,
}

/// What a `Load` or `Store` call works on, checked.
struct Call {
    /// The memory the pointer points into, and its offset (in its elements).
    mem: Mem,
    offset: Expr,
    /// The items array (a local array of `T[IPT]`, or a row of one of `T[R][IPT]`).
    items: Mem,
    /// The row's first element (`row * IPT`, held in an `int` variable), for a row.
    items_at: Option<VarId>,
    /// `valid_items`, held in a variable, if given.
    valid: Option<VarId>,
    /// `oob_default`, converted to `T`.
    oob: Option<Expr>,
}

/// Per-thread values the index expressions share, computed once per call (CUB computes them in
/// the constructor and the load helpers).
struct Ranks {
    /// The thread's rank in the template's block shape.
    tid: VarId,
    /// Its first item's index in each arrangement used.
    base: Vec<(Arrangement, VarId)>,
}

impl KernelChecker<'_, '_> {
    /// `Class(temp).Load(...)` / `.Store(...)` for a BlockLoad or BlockStore.
    pub(crate) fn block_io(
        &mut self,
        class: &Class,
        io: Io,
        (s, first): (u32, Expr),
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let store = matches!(class.kind, super::cub::Kind::BlockStore(_));
        let name = if store { "Store" } else { "Load" };
        if method.name != name {
            return Err(CheckError::CubUnsupported {
                what: format!("`{}::{}`", class.name, method.name),
                span: method.span,
                help: super::cub::HAVE.into(),
            });
        }
        let most = if store { 3 } else { 4 };
        if args.len() < 2 || args.len() > most {
            return Err(CheckError::ArgumentCount {
                name: name.into(),
                expected: if store {
                    "2 or 3 (a pointer, the items, and the number of valid items)".into()
                } else {
                    "2 to 4 (a pointer, the items, the number of valid items, and a default for the others)".into()
                },
                found: args.len(),
                span,
            });
        }
        let piece = (io.alg == IoAlg::Vectorize && args.len() == 2)
            .then(|| vector_piece(class.elem, io.items));
        // A piece of one item is the direct path's access.
        let vectors = matches!(piece, Some(Some(2..)));
        if let Some(None) = piece {
            return Err(CheckError::CubUnsupported {
                what: format!(
                    "`{}::{name}` of a full tile of `{}` items (CUB's vector accesses of 16-bit floats)",
                    class.name,
                    class.elem.c_name()
                ),
                span,
                help: format!(
                    "simt models BLOCK_{}_VECTORIZE's full tiles of integer, `float` and `double` items, and its partial tiles of any (`.{name}(p, items, n)`), which move item by item; or use BLOCK_{}_DIRECT",
                    name.to_uppercase(),
                    name.to_uppercase()
                ),
            });
        }
        let mut body = Vec::new();
        let call = self.io_call(class, io, store, args, &mut body, span)?;
        let ranks = self.io_ranks(io, &mut body, span)?;
        if vectors {
            self.io_vectors(class, io, store, &call, &ranks, &mut body, span)?;
        } else if store {
            self.io_store(class, io, (s, first), &call, &ranks, &mut body, span)?;
        } else {
            self.io_load(class, io, (s, first), &call, &ranks, &mut body, span)?;
        }
        Ok(Expr {
            kind: ExprKind::Inline {
                name: format!("{}::{}", class.name, name),
                body,
                result: None,
            },
            ty: Scalar::Bool,
            span,
        })
    }

    /// The arguments, checked against CUB's signature; `valid_items` is evaluated once.
    fn io_call(
        &mut self,
        class: &Class,
        io: Io,
        store: bool,
        args: &[ast::Expr],
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<Call> {
        let method = if store { "Store" } else { "Load" };
        let wrong = |expected: String, found: &str, at: Span| CheckError::CubArgument {
            class: class.name.clone(),
            method: method.into(),
            expected,
            found: found.into(),
            span: at,
        };
        let p = &args[0];
        if !self.is_pointer(p) {
            return Err(wrong("a pointer".into(), "a value", p.span));
        }
        let ptr = self.pointer(p)?;
        let Some(mem) = ptr.mem else {
            return Err(wrong("a pointer".into(), "a null pointer", p.span));
        };
        if store && ptr.is_const {
            return Err(wrong(
                "a pointer to writable memory".into(),
                "a pointer to `const`",
                p.span,
            ));
        }
        let want = format!("a local array `{}[{}]`", class.elem.c_name(), io.items);
        // `items` or `items2d[row]` (lightseq's `inp_val[i]` of `float inp_val[R][IPT]`).
        let (name, row) = match &args[1].kind {
            ast::ExprKind::Name(n) => (n, None),
            ast::ExprKind::Index { base, index } => match &base.kind {
                ast::ExprKind::Name(n) => (n, Some(&**index)),
                _ => return Err(wrong(want, "this expression", args[1].span)),
            },
            _ => return Err(wrong(want, "this expression", args[1].span)),
        };
        let Some(Binding::LocalArray(l)) = self.lookup(name) else {
            return Err(wrong(want, &format!("`{name}`"), args[1].span));
        };
        let a = &self.local_arrays[l as usize];
        let shape_fits = match row {
            None => a.dims == [u64::from(io.items)],
            Some(_) => a.dims.len() == 2 && a.dims[1] == u64::from(io.items),
        };
        if a.elem != class.elem || a.width != 1 || !shape_fits {
            let dims: Vec<String> = a.dims.iter().map(|d| format!("[{d}]")).collect();
            let found = format!("`{} {name}{}`", a.elem.c_name(), dims.concat());
            return Err(wrong(want, &found, args[1].span));
        }
        let items = Mem {
            space: Space::Local(l),
            elem: class.elem,
            width: 1,
        };
        let items_at = match row {
            None => None,
            Some(r) => {
                let r = self.expr(r)?;
                let r = self.convert(r, Scalar::I32);
                let first = self.binary(BinOp::Mul, span, r, int(io.items, span))?;
                let v = self.new_local("cub items row", Scalar::I32, span);
                body.push(assign(v, first, span));
                Some(v)
            }
        };
        let valid = match args.get(2) {
            Some(n) => {
                let n = self.expr(n)?;
                let n = self.convert(n, Scalar::I32);
                let v = self.new_local("cub valid_items", Scalar::I32, span);
                body.push(assign(v, n, span));
                Some(v)
            }
            None => None,
        };
        let oob = match args.get(3) {
            Some(d) => {
                let d = self.expr(d)?;
                Some(self.convert(d, class.elem))
            }
            None => None,
        };
        Ok(Call {
            mem,
            offset: ptr.offset,
            items,
            items_at,
            valid,
            oob,
        })
    }

    /// The thread's rank and the first index of each arrangement the algorithm uses.
    fn io_ranks(&mut self, io: Io, body: &mut Vec<Stmt>, span: Span) -> Result<Ranks> {
        let tid = self.cub_tid(Some(io.dims), span)?;
        let tid = self.convert(tid, Scalar::I32);
        let t = self.new_local("cub linear_tid", Scalar::I32, span);
        body.push(assign(t, tid, span));
        let (global, exchange) = arrangements(io.alg);
        let mut used = vec![global];
        if let Some(other) = exchange {
            used.push(other);
            used.push(Arrangement::Blocked);
        }
        let mut base = Vec::new();
        for a in used {
            if base.iter().any(|(b, _)| *b == a) {
                continue;
            }
            let var_t = self.i32_var(t, span);
            let first = match a {
                Arrangement::Blocked => {
                    self.binary(BinOp::Mul, span, var_t, int(io.items, span))?
                }
                Arrangement::Striped => var_t,
                Arrangement::WarpStriped => {
                    let lane = self.binary(BinOp::BitAnd, span, var_t.clone(), int(31, span))?;
                    let warp = self.binary(BinOp::Shr, span, var_t, int(5, span))?;
                    let off = self.binary(BinOp::Mul, span, warp, int(32 * io.items, span))?;
                    self.binary(BinOp::Add, span, off, lane)?
                }
            };
            let v = self.new_local("cub item base", Scalar::I32, span);
            body.push(assign(v, first, span));
            base.push((a, v));
        }
        Ok(Ranks { tid: t, base })
    }

    fn i32_var(&self, v: VarId, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Var(v),
            ty: Scalar::I32,
            span,
        }
    }

    /// Item `i`'s index in the tile in arrangement `a`.
    fn tile_index(
        &mut self,
        io: Io,
        ranks: &Ranks,
        a: Arrangement,
        i: u32,
        span: Span,
    ) -> Result<Expr> {
        let base = ranks
            .base
            .iter()
            .find(|(b, _)| *b == a)
            .map(|(_, v)| *v)
            .expect("cub: io_ranks computed every arrangement used");
        let step = match a {
            Arrangement::Blocked => i,
            Arrangement::Striped => i * io.threads(),
            Arrangement::WarpStriped => i * 32,
        };
        let base = self.i32_var(base, span);
        if step == 0 {
            return Ok(base);
        }
        self.binary(BinOp::Add, span, base, int(step, span))
    }

    /// Item `i`'s element in the TempStorage's exchange buffer for arrangement `a`, with
    /// BlockExchange's padding (`offset += offset >> 5`).
    fn buffer_index(
        &mut self,
        io: Io,
        ranks: &Ranks,
        a: Arrangement,
        i: u32,
        first: &Expr,
        span: Span,
    ) -> Result<Expr> {
        let at = self.tile_index(io, ranks, a, i, span)?;
        let at = if io.padded() {
            let pad = self.binary(BinOp::Shr, span, at.clone(), int(5, span))?;
            self.binary(BinOp::Add, span, at, pad)?
        } else {
            at
        };
        self.binary(BinOp::Add, span, first.clone(), at)
    }

    /// `items[i]`, a constant index into the thread's array (after its row's first element).
    fn item(&self, call: &Call, i: u32, span: Span) -> Expr {
        load(call.items, item_index(call, i, span), span)
    }

    fn set_item(&self, call: &Call, i: u32, value: Expr, span: Span) -> Stmt {
        store(call.items, item_index(call, i, span), value, span)
    }

    /// `index < valid_items`.
    fn below_valid(&mut self, valid: Option<VarId>, index: Expr, span: Span) -> Result<Expr> {
        let v = valid.expect("cub: a guard needs valid_items");
        let v = self.i32_var(v, span);
        self.binary(BinOp::Lt, span, index, v)
    }

    /// `if (index < valid_items) then`, or `then` alone without `valid_items`.
    fn guarded(
        &mut self,
        valid: Option<VarId>,
        index: Expr,
        then: Stmt,
        span: Span,
    ) -> Result<Stmt> {
        if valid.is_none() {
            return Ok(then);
        }
        let cond = self.below_valid(valid, index, span)?;
        Ok(Stmt {
            kind: StmtKind::If {
                cond,
                then: vec![then],
                els: Vec::new(),
            },
            span,
        })
    }

    /// The exchange through the TempStorage: every item stored at its place in `from`, a
    /// barrier (block-wide or per warp), every item loaded from its place in `to`.
    #[allow(clippy::too_many_arguments)]
    fn exchange(
        &mut self,
        io: Io,
        (s, first): (u32, &Expr),
        call: &Call,
        ranks: &Ranks,
        (from, to): (Arrangement, Arrangement),
        elem: Scalar,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let buff = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        for i in 0..io.items {
            let at = self.buffer_index(io, ranks, from, i, first, span)?;
            let v = self.item(call, i, span);
            body.push(store(buff, at, v, span));
        }
        body.push(sync(io.alg, span));
        for i in 0..io.items {
            let at = self.buffer_index(io, ranks, to, i, first, span)?;
            body.push(self.set_item(call, i, load(buff, at, span), span));
        }
        Ok(())
    }

    /// A full tile of BLOCK_LOAD_VECTORIZE / BLOCK_STORE_VECTORIZE (CUB's
    /// `InternalLoadDirectBlockedVectorized` and `StoreDirectBlockedVectorized`): the thread's
    /// `ITEMS_PER_THREAD` blocked items moved as vectors of 4 (or 2, or 1) items, the pointer
    /// reinterpreted as the vector type (a misaligned one traps, as on the GPU); a vector wider
    /// than 16 bytes (`double` by 4) is moved as 16-byte halves, as nvcc splits it.
    #[allow(clippy::too_many_arguments)]
    fn io_vectors(
        &mut self,
        class: &Class,
        io: Io,
        store: bool,
        call: &Call,
        ranks: &Ranks,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let width = vector_piece(class.elem, io.items).expect("block_io: checked vectorisable");
        let mut ty = super::template::type_of(class.elem, width, span);
        ty.pointer = true;
        let whole = super::pointer::Ptr {
            mem: Some(call.mem),
            offset: call.offset.clone(),
            is_const: !store,
        };
        let view = self.cast_pointer(whole, false, &ty, span)?;
        let mem = view.mem.expect("a cast of an array points into it");
        let blocked = ranks
            .base
            .iter()
            .find(|(a, _)| *a == Arrangement::Blocked)
            .map(|(_, v)| *v)
            .expect("cub: io_ranks computed the blocked arrangement");
        // The thread's first vector: its first item's, in vectors.
        let first = self.i32_var(blocked, span);
        let first = self.binary(BinOp::Div, span, first, int(width, span))?;
        for v in 0..io.items / width {
            let at = self.binary(BinOp::Add, span, first.clone(), int(v, span))?;
            let index = self.index_through(view.offset.clone(), at, span)?;
            let items = (0..width).map(|c| v * width + c);
            if store {
                let values = items.map(|i| self.item(call, i, span)).collect();
                body.push(Stmt {
                    kind: StmtKind::VecStore { mem, index, values },
                    span,
                });
            } else {
                let vars: Vec<VarId> = (0..width)
                    .map(|_| self.new_local("cub vector item", class.elem, span))
                    .collect();
                body.push(Stmt {
                    kind: StmtKind::VecLoad {
                        mem,
                        index,
                        vars: vars.clone(),
                    },
                    span,
                });
                for (i, var) in items.zip(vars) {
                    let value = Expr {
                        kind: ExprKind::Var(var),
                        ty: class.elem,
                        span,
                    };
                    body.push(self.set_item(call, i, value, span));
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn io_load(
        &mut self,
        class: &Class,
        io: Io,
        (s, first): (u32, Expr),
        call: &Call,
        ranks: &Ranks,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        if let Some(d) = &call.oob {
            for i in 0..io.items {
                body.push(self.set_item(call, i, d.clone(), span));
            }
        }
        let (global, exchange) = arrangements(io.alg);
        // Past `valid_items` without a default, CUB leaves items unassigned and its exchange
        // copies whatever the registers held. simt copies only the assigned ones (each stored
        // to the buffer right after its load, under the load's guard, and read back under a
        // guard of its own), so the copies are not reported as uninitialised reads; a kernel's
        // own read of an unassigned item still is.
        if let (Some(from), Some(_), None) = (exchange, call.valid, &call.oob) {
            let buff = Mem {
                space: Space::Shared(s),
                elem: class.elem,
                width: 1,
            };
            for i in 0..io.items {
                let at = self.tile_index(io, ranks, global, i, span)?;
                let index = self.index_through(call.offset.clone(), at.clone(), span)?;
                let v = load(call.mem, index, span);
                let v = self.convert(v, class.elem);
                let set = self.set_item(call, i, v, span);
                let slot = self.buffer_index(io, ranks, from, i, &first, span)?;
                let keep = store(buff, slot, self.item(call, i, span), span);
                body.push(Stmt {
                    kind: StmtKind::If {
                        cond: self.below_valid(call.valid, at, span)?,
                        then: vec![set, keep],
                        els: Vec::new(),
                    },
                    span,
                });
            }
            body.push(sync(io.alg, span));
            for i in 0..io.items {
                let at = self.tile_index(io, ranks, Arrangement::Blocked, i, span)?;
                let slot = self.buffer_index(io, ranks, Arrangement::Blocked, i, &first, span)?;
                let set = self.set_item(call, i, load(buff, slot, span), span);
                body.push(self.guarded(call.valid, at, set, span)?);
            }
            return Ok(());
        }
        for i in 0..io.items {
            let at = self.tile_index(io, ranks, global, i, span)?;
            let index = self.index_through(call.offset.clone(), at.clone(), span)?;
            let v = load(call.mem, index, span);
            let v = self.convert(v, class.elem);
            let set = self.set_item(call, i, v, span);
            body.push(self.guarded(call.valid, at, set, span)?);
        }
        if let Some(from) = exchange {
            let pair = (from, Arrangement::Blocked);
            self.exchange(io, (s, &first), call, ranks, pair, class.elem, body, span)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn io_store(
        &mut self,
        class: &Class,
        io: Io,
        (s, first): (u32, Expr),
        call: &Call,
        ranks: &Ranks,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let (global, exchange) = arrangements(io.alg);
        let mut valid = call.valid;
        if let Some(to) = exchange {
            let pair = (Arrangement::Blocked, to);
            self.exchange(io, (s, &first), call, ranks, pair, class.elem, body, span)?;
            if let Some(v) = valid {
                // `if (linear_tid == 0) temp_storage.valid_items = valid_items; CTA_SYNC();`,
                // then every thread reads it back (a volatile shared `int` beside the buffer).
                let slot = Mem {
                    space: Space::Shared(s + 1),
                    elem: Scalar::I32,
                    width: 1,
                };
                let index = match first.kind {
                    ExprKind::Const(_) => int(0, span),
                    _ => self.binary(
                        BinOp::Div,
                        span,
                        first.clone(),
                        int(class_storage_len(io), span),
                    )?,
                };
                let t = self.i32_var(ranks.tid, span);
                let is0 = self.binary(BinOp::Eq, span, t, int(0, span))?;
                body.push(Stmt {
                    kind: StmtKind::If {
                        cond: is0,
                        then: vec![store(slot, index.clone(), self.i32_var(v, span), span)],
                        els: Vec::new(),
                    },
                    span,
                });
                body.push(Stmt {
                    kind: StmtKind::Barrier,
                    span,
                });
                let shared = self.new_local("cub shared valid_items", Scalar::I32, span);
                body.push(assign(shared, load(slot, index, span), span));
                valid = Some(shared);
            }
        }
        let stored = call.mem.elem;
        for i in 0..io.items {
            let at = self.tile_index(io, ranks, global, i, span)?;
            let index = self.index_through(call.offset.clone(), at.clone(), span)?;
            let v = self.item(call, i, span);
            let v = self.convert(v, stored);
            let put = store(call.mem, index, v, span);
            body.push(self.guarded(valid, at, put, span)?);
        }
        Ok(())
    }
}

/// The arrangement of an algorithm's global accesses, and the arrangement its exchange turns
/// into (or out of) the blocked one, if it exchanges.
/// Items per vector access of a full VECTORIZE tile of `items` items per thread: CUB's
/// `VECTOR_SIZE` (4 where the items divide by 4, else 2 where even, else 1) of words of the
/// item's size, at most 16 bytes an access; `None` for 16-bit floats (CUB moves them as
/// `ushort` vectors, which simt does not view a `half` buffer as).
fn vector_piece(elem: Scalar, items: u32) -> Option<u32> {
    if matches!(elem, Scalar::F16 | Scalar::BF16 | Scalar::Bool) {
        return None;
    }
    let size = if items.is_multiple_of(4) {
        4
    } else if items.is_multiple_of(2) {
        2
    } else {
        1
    };
    Some(size.min(16 / elem.size()))
}

fn arrangements(alg: IoAlg) -> (Arrangement, Option<Arrangement>) {
    match alg {
        IoAlg::Direct | IoAlg::Vectorize => (Arrangement::Blocked, None),
        IoAlg::Striped => (Arrangement::Striped, None),
        IoAlg::Transpose => (Arrangement::Striped, Some(Arrangement::Striped)),
        IoAlg::WarpTranspose => (Arrangement::WarpStriped, Some(Arrangement::WarpStriped)),
    }
}

/// The elements of one exchanging TempStorage (the `first` element of storage `k` is `k` times
/// this).
fn class_storage_len(io: Io) -> u32 {
    let tile = io.threads() * io.items;
    tile + if io.padded() { tile >> 5 } else { 0 }
}

/// BlockExchange's synchronisation between its stores and loads.
fn sync(alg: IoAlg, span: Span) -> Stmt {
    let kind = match alg {
        IoAlg::WarpTranspose => StmtKind::SyncWarp(constant(Value::U32(u32::MAX), span)),
        _ => StmtKind::Barrier,
    };
    Stmt { kind, span }
}

/// Item `i`'s index in the items array: `i`, or `row * IPT + i` for a row of a 2-D array.
fn item_index(call: &Call, i: u32, span: Span) -> Expr {
    let Some(row) = call.items_at else {
        return int(i, span);
    };
    let first = Expr {
        kind: ExprKind::Var(row),
        ty: Scalar::I32,
        span,
    };
    if i == 0 {
        return first;
    }
    Expr {
        kind: ExprKind::Arith {
            op: crate::value::ArithOp::Add,
            lhs: Box::new(first),
            rhs: Box::new(int(i, span)),
        },
        ty: Scalar::I32,
        span,
    }
}

fn int(v: u32, span: Span) -> Expr {
    constant(Value::I32(v as i32), span)
}

fn store(mem: Mem, index: Expr, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Store { mem, index, value },
        span,
    }
}
