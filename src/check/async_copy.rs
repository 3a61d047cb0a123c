//! libcu++'s `cuda::barrier`/`cuda::pipeline`/`cuda::memcpy_async`, `<cuda_pipeline.h>`'s primitives and `cg::memcpy_async`, checked into copies and [`AsyncOp`]s.

use super::expr::constant;
use super::groups::{unqualified, Group};
use super::memfn::{alignment, assign, Fill, Piece};
use super::pointer::Ptr;
use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::async_copy::AsyncObj;
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The widest piece one `LDGSTS` moves per thread.
const WIDEST: u32 = 16;

/// The libcu++ class a type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AsyncType {
    /// `cuda::barrier<scope>`
    Barrier,
    /// `cuda::pipeline<scope>`
    Pipeline,
    /// `cuda::pipeline_shared_state<scope, stages>`
    SharedState,
    /// `cuda::barrier<scope>::arrival_token`
    Token,
}

/// The libcu++ class of a type as written (`cuda::barrier<cuda::thread_scope_block>`), if any.
pub(crate) fn async_type(text: &str) -> Option<AsyncType> {
    let text = text.trim();
    if !text.starts_with("cuda::") {
        return None;
    }
    if text.ends_with("::arrival_token") {
        return Some(AsyncType::Token);
    }
    match unqualified(text.split('<').next().unwrap_or(text)) {
        "barrier" => Some(AsyncType::Barrier),
        "pipeline" => Some(AsyncType::Pipeline),
        "pipeline_shared_state" => Some(AsyncType::SharedState),
        _ => None,
    }
}

/// `cuda::pipeline_role::producer` and `::consumer`: numbers (a role only labels a thread; the
/// stages are what simt completes).
pub(crate) fn pipeline_role(name: &str) -> Option<i32> {
    match name {
        "cuda::pipeline_role::producer" => Some(0),
        "cuda::pipeline_role::consumer" => Some(1),
        _ => None,
    }
}

impl KernelChecker<'_, '_> {
    /// The barrier or pipeline `e` names.
    fn async_obj(&mut self, e: &ast::Expr) -> Option<AsyncObj> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Async(o)) => Some(o),
                _ => None,
            },
            ast::ExprKind::Unary {
                op: ast::UnOp::AddrOf,
                operand,
            } => self.async_obj(operand),
            _ => None,
        }
    }

    /// What a `cuda::barrier&` or `cuda::pipeline&` parameter receives: the object the argument
    /// names (a pointer parameter, `cuda::barrier<...>* b`, with `&bar`).
    pub(crate) fn async_argument(
        &mut self,
        p: &ast::Param,
        kind: AsyncType,
        a: &ast::Expr,
    ) -> Result<super::intrinsics::Arg> {
        let found = self.async_obj(a);
        let fits = matches!(
            (kind, found),
            (AsyncType::Barrier, Some(AsyncObj::Barrier(_)))
                | (
                    AsyncType::Pipeline,
                    Some(AsyncObj::Pipeline { .. } | AsyncObj::Primitive)
                )
                | (
                    AsyncType::SharedState,
                    Some(AsyncObj::Pipeline { shared: true, .. })
                )
        );
        match (found, fits) {
            (Some(o), true) => Ok(super::intrinsics::Arg::Alias(Binding::Async(o))),
            _ => Err(CheckError::AsyncObject {
                call: p.name.name.clone(),
                wanted: match kind {
                    AsyncType::Barrier => "a `cuda::barrier`",
                    AsyncType::Pipeline => "a `cuda::pipeline`",
                    AsyncType::SharedState => "a `cuda::pipeline_shared_state`",
                    AsyncType::Token => "an arrival token",
                },
                span: a.span,
                help: Some(format!(
                    "pass the object itself: `{}` is a `{}`",
                    p.name.name, p.ty.base_text
                )),
            }),
        }
    }

    /// `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` or
    /// `__shared__ cuda::pipeline_shared_state<...> state;`: `None` for another type.
    pub(crate) fn shared_async(
        &mut self,
        ty: &ast::TypeName,
        name: &ast::Ident,
        dims: &[Option<ast::Expr>],
    ) -> Option<Result<()>> {
        let kind = async_type(&ty.base_text)?;
        Some((|| {
            if !dims.is_empty() {
                return Err(CheckError::Unsupported {
                    what: format!("an array of `{}`", ty.base_text),
                    span: name.span,
                    help: Some("declare one object per name".into()),
                });
            }
            let obj = match kind {
                AsyncType::Barrier => {
                    if !ty.base_text.contains("thread_scope_block") {
                        return Err(scope_unsupported(ty));
                    }
                    // An mbarrier is 8 bytes of shared memory.
                    self.static_smem += 8;
                    self.async_barriers += 1;
                    AsyncObj::Barrier(self.async_barriers - 1)
                }
                AsyncType::SharedState => {
                    self.async_pipelines += 1;
                    AsyncObj::Pipeline {
                        id: self.async_pipelines - 1,
                        shared: true,
                    }
                }
                AsyncType::Pipeline | AsyncType::Token => {
                    return Err(CheckError::Unsupported {
                        what: format!("a `__shared__` `{}`", ty.base_text),
                        span: name.span,
                        help: Some("a pipeline is a local: `cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();`; the shared part of a block's pipeline is a `__shared__ cuda::pipeline_shared_state<...>`".into()),
                    })
                }
            };
            self.declare(name, Binding::Async(obj));
            Ok(())
        })())
    }

    /// A local of a libcu++ type, or an `auto` one made by `make_pipeline` or `bar.arrive()`:
    /// `None` for any other declaration.
    pub(crate) fn async_local(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<()>> {
        let named = match ty.base {
            ast::BaseType::Named => async_type(&ty.base_text),
            _ => None,
        };
        let init = d.init.as_ref();
        let made = init.and_then(|i| self.async_maker(i));
        if named.is_none() && made.is_none() {
            return None;
        }
        Some(match (named, made) {
            (Some(AsyncType::Barrier | AsyncType::SharedState), _) => Err(CheckError::Unsupported {
                what: format!("a `{}` in a thread's registers", ty.base_text),
                span: d.name.span,
                help: Some("declare it `__shared__`, initialise it with `init(&bar, count)` from one thread and `__syncthreads()`".into()),
            }),
            (_, Some(Maker::Arrive(bar))) => {
                let token = self.new_local(&d.name.name, Scalar::U64, d.name.span);
                out.push(Stmt {
                    kind: StmtKind::Async(AsyncOp::Arrive { bar, token }),
                    span: d.name.span,
                });
                self.declare(
                    &d.name,
                    Binding::Local {
                        var: token,
                        is_const: false,
                    },
                );
                Ok(())
            }
            (_, Some(Maker::Pipeline(obj))) => {
                self.declare(&d.name, Binding::Async(obj));
                Ok(())
            }
            (Some(_), None) => Err(CheckError::AsyncObject {
                call: d.name.name.clone(),
                wanted: "a value of its kind",
                span: init.map_or(d.name.span, |i| i.span),
                help: Some("a pipeline comes from `cuda::make_pipeline()`, a token from `bar.arrive()`".into()),
            }),
            (None, None) => unreachable!("one of them is there"),
        })
    }

    /// What `cuda::make_pipeline(...)` or `bar.arrive()` makes.
    fn async_maker(&mut self, e: &ast::Expr) -> Option<Maker> {
        match &e.kind {
            ast::ExprKind::Call { callee, args, .. }
                if unqualified(&callee.name) == "make_pipeline" =>
            {
                match args.as_slice() {
                    [] => {
                        self.async_pipelines += 1;
                        Some(Maker::Pipeline(AsyncObj::Pipeline {
                            id: self.async_pipelines - 1,
                            shared: false,
                        }))
                    }
                    [_, state, ..] => match self.async_obj(state) {
                        Some(o @ AsyncObj::Pipeline { shared: true, .. }) => {
                            Some(Maker::Pipeline(o))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            ast::ExprKind::Method {
                object,
                method,
                args,
                ..
            } if method.name == "arrive" && args.is_empty() => match self.async_obj(object) {
                Some(AsyncObj::Barrier(b)) => Some(Maker::Arrive(b)),
                _ => None,
            },
            _ => None,
        }
    }

    /// An asynchronous-copy statement: its statements, or `None` for any other expression.
    pub(crate) fn async_statement(&mut self, e: &ast::Expr) -> Option<Result<Vec<Stmt>>> {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                let full = callee.name.as_str();
                let name = unqualified(full);
                let cg = full.starts_with("cg::") || full.starts_with("cooperative_groups::");
                match name {
                    "init" if args.len() == 2 && self.async_obj(&args[0]).is_some() => {
                        Some(self.barrier_init(args, span))
                    }
                    "memcpy_async" => Some(self.memcpy_async(full, args, span)),
                    "__pipeline_memcpy_async" => Some(self.pipeline_memcpy(args, span)),
                    "__pipeline_commit" => Some(match args.is_empty() {
                        true => Ok(vec![op(AsyncOp::Commit(AsyncObj::Primitive), span)]),
                        false => Err(count(name, "0", args.len(), span)),
                    }),
                    "__pipeline_wait_prior" => Some((|| {
                        let [n] = args.as_slice() else {
                            return Err(count(name, "1", args.len(), span));
                        };
                        let keep = self.stages_kept(n)?;
                        Ok(vec![op(
                            AsyncOp::WaitPrior {
                                obj: AsyncObj::Primitive,
                                keep,
                                call: "__pipeline_wait_prior",
                            },
                            span,
                        )])
                    })()),
                    "wait" | "wait_prior" if cg => Some(self.group_wait(name, targs, args, span)),
                    _ => None,
                }
            }
            ast::ExprKind::Method {
                object,
                method,
                args,
                ..
            } => {
                let obj = self.async_obj(object)?;
                Some(self.async_method(obj, method, args, span))
            }
            _ => None,
        }
    }

    /// `init(&bar, count)`.
    fn barrier_init(&mut self, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        let Some(AsyncObj::Barrier(bar)) = self.async_obj(&args[0]) else {
            return Err(CheckError::AsyncObject {
                call: "init".into(),
                wanted: "a `cuda::barrier`",
                span: args[0].span,
                help: Some("`init(&bar, blockDim.x)` of a `__shared__ cuda::barrier<cuda::thread_scope_block> bar;`".into()),
            });
        };
        let n = self.expr(&args[1])?;
        let count = self.convert(n, Scalar::U32);
        Ok(vec![op(AsyncOp::Init { bar, count }, span)])
    }

    /// A member function of a barrier or pipeline, as a statement.
    fn async_method(
        &mut self,
        obj: AsyncObj,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Vec<Stmt>> {
        let name = method.name.as_str();
        let arity = |n: usize| super::intrinsics::arity(name, args.len(), n, n, span);
        let o = match (obj, name) {
            (AsyncObj::Barrier(bar), "arrive_and_wait") => {
                arity(0)?;
                AsyncOp::ArriveAndWait { bar }
            }
            (AsyncObj::Barrier(bar), "arrive") => {
                arity(0)?;
                let token = self.new_local("arrive()", Scalar::U64, span);
                AsyncOp::Arrive { bar, token }
            }
            (AsyncObj::Barrier(bar), "wait") => {
                arity(1)?;
                let token = self.expr(moved(&args[0]))?;
                let token = self.convert(token, Scalar::U64);
                AsyncOp::Wait { bar, token }
            }
            (AsyncObj::Pipeline { .. }, "producer_acquire") => {
                arity(0)?;
                AsyncOp::Acquire(obj)
            }
            (AsyncObj::Pipeline { .. }, "producer_commit") => {
                arity(0)?;
                AsyncOp::Commit(obj)
            }
            (AsyncObj::Pipeline { .. }, "consumer_wait") => {
                arity(0)?;
                AsyncOp::ConsumerWait(obj)
            }
            (AsyncObj::Pipeline { .. }, "consumer_release") => {
                arity(0)?;
                AsyncOp::Release(obj)
            }
            (AsyncObj::Barrier(_), _) => {
                return Err(CheckError::Unsupported {
                    what: format!("the `cuda::barrier` member `{name}`"),
                    span: method.span,
                    help: Some("a barrier here has arrive_and_wait(), arrive() and wait(token)".into()),
                })
            }
            _ => {
                return Err(CheckError::Unsupported {
                    what: format!("the `cuda::pipeline` member `{name}`"),
                    span: method.span,
                    help: Some("a pipeline here has producer_acquire(), producer_commit(), consumer_wait() and consumer_release()".into()),
                })
            }
        };
        Ok(vec![op(o, span)])
    }

    /// The count of `wait_prior`: a constant, 0 (wait for every stage) or more.
    fn stages_kept(&mut self, n: &ast::Expr) -> Result<u32> {
        let t = self.expr(n)?;
        match t.kind {
            ExprKind::Const(v) if t.ty.is_integer() && v.as_i64() == Some(0) => Ok(0),
            _ => Ok(self.const_size(n)? as u32),
        }
    }

    /// `cg::wait(g)` or `cg::wait_prior<n>(g)`: the thread's committed copies but the newest
    /// `n` complete, then the group synchronises.
    fn group_wait(
        &mut self,
        name: &str,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Vec<Stmt>> {
        let [g] = args else {
            return Err(count(name, "1 (a group)", args.len(), span));
        };
        let keep = match (name, targs) {
            ("wait", []) => 0,
            ("wait_prior", [ast::TemplateArg::Value(n)]) => self.stages_kept(n)?,
            _ => {
                return Err(CheckError::ArgumentCount {
                    name: name.into(),
                    expected: "`cg::wait(g)` or `cg::wait_prior<N>(g)`".into(),
                    found: targs.len(),
                    span,
                })
            }
        };
        let Some(group) = self.group(g)? else {
            return Err(not_a_group(name, g.span));
        };
        let call = if name == "wait" {
            "cg::wait"
        } else {
            "cg::wait_prior"
        };
        Ok(vec![
            op(
                AsyncOp::WaitPrior {
                    obj: AsyncObj::Primitive,
                    keep,
                    call,
                },
                span,
            ),
            Stmt {
                kind: self.group_sync(group, span)?,
                span,
            },
        ])
    }

    /// `__pipeline_memcpy_async(dst, src, bytes[, zfill])`: one thread's copy in the implicit
    /// pipeline; the last `zfill` of the `bytes` are zeros instead of the source's (PTX's
    /// `cp.async ... cp-size, src-size` is this with `zfill = cp-size - src-size`).
    fn pipeline_memcpy(&mut self, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        let call = "__pipeline_memcpy_async";
        let (dst, src, n, zfill) = match args {
            [dst, src, n] => (dst, src, n, None),
            [dst, src, n, z] => (dst, src, n, Some(z)),
            _ => {
                return Err(count(
                    call,
                    "3 or 4 (dst, src, bytes[, zfill])",
                    args.len(),
                    span,
                ))
            }
        };
        let zfill = match zfill {
            Some(z) => {
                let t = self.byte_count(
                    (call, "zfill"),
                    z,
                    "pass the number of bytes to zero at the end",
                )?;
                match t.kind {
                    ExprKind::Const(v) if v.as_i64() == Some(0) => None,
                    _ => Some((self.convert(t, Scalar::U64), z.span)),
                }
            }
            None => None,
        };
        match zfill {
            None => self.thread_copy(call, (dst, src, n), AsyncObj::Primitive, span),
            Some(z) => self.zero_filled_copy(call, (dst, src, n), z, span),
        }
    }

    /// A copy of `bytes` (a constant 4, 8 or 16) whose last `zfill` bytes are zeros: whole
    /// pieces where `zfill` is 0, zero pieces where it is all of them, and otherwise 4-byte
    /// pieces, copied up to `bytes - zfill` and zeroed after (a count that is not a multiple of 4
    /// bytes, or more than `bytes`, stops the launch: [`Fault::ZeroFill`]).
    fn zero_filled_copy(
        &mut self,
        call: &str,
        operands: (&ast::Expr, &ast::Expr, &ast::Expr),
        (zfill, zspan): (Expr, Span),
        span: Span,
    ) -> Result<Vec<Stmt>> {
        let mut out = vec![];
        let o = self.copy_operands(call, operands, &mut out)?;
        // The partial copy moves 4-byte pieces: both pointers must be aligned to 4 at least.
        let Some(k) = o.known.filter(|k| matches!(k, 4 | 8 | 16) && o.unit >= 4) else {
            return Err(CheckError::Unsupported {
                what: format!("`{call}` with a zero fill, other than of 4, 8 or 16 bytes between pointers to 4-byte (or wider) elements"),
                span: operands.2.span,
                help: Some("copy 4, 8 or 16 bytes as words, as `cp.async` does: cast the pointers to `unsigned*`, `uint2*` or `uint4*`".into()),
            });
        };
        let z = self.hold(
            call,
            "zfill",
            Expr {
                span: zspan,
                ..zfill
            },
            &mut out,
        );
        let u = |x: u64| constant(Value::U64(x), span);
        let copied = self.binary(BinOp::Sub, span, u(k), z.clone())?;
        let copied = self.hold(call, "copied", copied, &mut out);
        let mut whole = vec![];
        let mut zeros = vec![];
        for at in 0..k / u64::from(o.unit) {
            let at = constant(Value::I64(at as i64), span);
            whole.extend(self.async_piece(call, &o, o.unit, at.clone(), span)?);
            zeros.push(self.zero_piece(call, &o, o.unit, at, span)?);
        }
        let mut partial = vec![];
        let valid = self.binary(BinOp::Le, span, z.clone(), u(k))?;
        let rem = self.binary(BinOp::Rem, span, copied.clone(), u(4))?;
        let whole_words = self.binary(BinOp::Eq, span, rem, u(0))?;
        let ok = self.binary(BinOp::And, span, valid, whole_words)?;
        partial.push(Stmt {
            kind: StmtKind::If {
                cond: ok,
                then: vec![],
                els: vec![Stmt {
                    kind: StmtKind::Fault(Fault::ZeroFill {
                        call: call.to_string(),
                        bytes: k,
                    }),
                    span: zspan,
                }],
            },
            span,
        });
        for at in 0..k / 4 {
            let here = constant(Value::I64(at as i64), span);
            let copy = self.async_piece(call, &o, 4, here.clone(), span)?;
            let zero = self.zero_piece(call, &o, 4, here, span)?;
            let cond = self.binary(BinOp::Le, span, u((at + 1) * 4), copied.clone())?;
            partial.push(Stmt {
                kind: StmtKind::If {
                    cond,
                    then: copy,
                    els: vec![zero],
                },
                span,
            });
        }
        let is = |this: &mut Self, v: Expr| this.binary(BinOp::Eq, span, z.clone(), v);
        let none = is(self, u(0))?;
        let all = is(self, u(k))?;
        out.push(op(AsyncOp::Open(AsyncObj::Primitive), span));
        out.push(Stmt {
            kind: StmtKind::If {
                cond: none,
                then: whole,
                els: vec![Stmt {
                    kind: StmtKind::If {
                        cond: all,
                        then: zeros,
                        els: partial,
                    },
                    span,
                }],
            },
            span,
        });
        out.push(op(AsyncOp::Close, span));
        Ok(out)
    }

    /// Piece `at` of a copy's destination, in `unit`-byte pieces, written with zeros.
    fn zero_piece(
        &mut self,
        call: &str,
        o: &Operands,
        unit: u32,
        at: Expr,
        span: Span,
    ) -> Result<Stmt> {
        if unit <= 8 {
            let zero = constant(Value::I32(0), span);
            let zero = Fill::Byte(self.convert(zero, Scalar::U8));
            return self.piece(
                call,
                (&o.d.0, o.d.1),
                (&zero, None),
                Piece { bytes: unit, at },
                span,
            );
        }
        let (view, index) = self.wide_piece(call, (&o.d.0, o.d.1), at, span)?;
        let zero = match view.elem {
            Scalar::U64 => constant(Value::U64(0), span),
            _ => constant(Value::U32(0), span),
        };
        Ok(Stmt {
            kind: StmtKind::VecStore {
                mem: view,
                index,
                values: vec![zero; view.width as usize],
            },
            span,
        })
    }

    /// `cuda::memcpy_async(dst, src, n, barrier_or_pipeline)` or
    /// `cg::memcpy_async(group, dst, src, n)`.
    fn memcpy_async(&mut self, full: &str, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        match args {
            [g, dst, src, n] if self.group(g)?.is_some() => {
                let group = self.group(g)?.expect("just matched");
                let mut out = self.group_copy(group, (dst, src, n), AsyncObj::Primitive, span)?;
                // cg's copy commits its batch: `cg::wait` / `wait_prior` wait for it.
                out.push(op(AsyncOp::Commit(AsyncObj::Primitive), span));
                Ok(out)
            }
            [g, dst, src, n, sync] if self.group(g)?.is_some() => {
                let group = self.group(g)?.expect("just matched");
                let obj = self.copy_sync(full, sync)?;
                self.group_copy(group, (dst, src, n), obj, span)
            }
            [dst, src, n, sync] => {
                let obj = self.copy_sync(full, sync)?;
                self.thread_copy(full, (dst, src, n), obj, span)
            }
            _ => Err(count(
                full,
                "4 (dst, src, size, barrier or pipeline) or (group, dst, src, size)",
                args.len(),
                span,
            )),
        }
    }

    /// The barrier or pipeline a copy is attached to.
    fn copy_sync(&mut self, call: &str, sync: &ast::Expr) -> Result<AsyncObj> {
        self.async_obj(sync).ok_or_else(|| CheckError::AsyncObject {
            call: call.into(),
            wanted: "a `cuda::barrier` or a `cuda::pipeline`",
            span: sync.span,
            help: Some("pass a `__shared__ cuda::barrier<cuda::thread_scope_block>` or a `cuda::pipeline` made by `cuda::make_pipeline()`".into()),
        })
    }

    /// The pointers and the byte count of a copy, and the piece size its alignment allows.
    fn copy_operands(
        &mut self,
        call: &str,
        (dst, src, n): (&ast::Expr, &ast::Expr, &ast::Expr),
        out: &mut Vec<Stmt>,
    ) -> Result<Operands> {
        let d = self.mem_pointer(call, dst)?;
        let s = self.mem_pointer(call, src)?;
        let (Some(dmem), Some(smem)) = (d.mem, s.mem) else {
            return Err(CheckError::Pointer {
                problem: super::PointerProblem::NullDereference,
                span: if d.mem.is_none() { dst.span } else { src.span },
                help: Some(format!("pass `{call}` pointers into arrays")),
            });
        };
        let shared = |m: Mem| {
            matches!(
                m.space,
                Space::Shared(_) | Space::Choice { shared: true, .. }
            )
        };
        let global = |m: Mem| {
            matches!(
                m.space,
                Space::Global(_) | Space::Choice { shared: false, .. }
            )
        };
        if !shared(dmem) || !global(smem) {
            return Err(CheckError::Unsupported {
                what: format!("`{call}` other than from global into shared memory"),
                span: if shared(dmem) { src.span } else { dst.span },
                help: Some("simt models the copies the hardware does asynchronously (LDGSTS): from a global buffer into a `__shared__` array; copy other memory with a plain assignment".into()),
            });
        }
        if d.is_const {
            return Err(CheckError::NotAssignable {
                what: format!("the destination of `{call}`, a pointer to `const`"),
                span: dst.span,
                help: Some("pass a pointer to writable memory".into()),
            });
        }
        let promised = self.aligned_size(n);
        let bytes = self.byte_count(
            (call, "size"),
            n,
            "pass a number of bytes: `sizeof(float4)`, `cuda::aligned_size_t<16>(n)`",
        )?;
        let bytes = self.convert(bytes, Scalar::U64);
        let known = match bytes.kind {
            ExprKind::Const(v) => v.as_i64().and_then(|k| u64::try_from(k).ok()),
            _ => None,
        };
        let typed = alignment(dmem).min(alignment(smem));
        let mut unit = WIDEST.min(promised.map_or(typed, |p| p.max(typed)));
        if let Some(k) = known {
            while unit > 1 && k % u64::from(unit) != 0 {
                unit /= 2;
            }
        }
        let d = self.hold_pointer(call, "dst", d, out);
        let s = self.hold_pointer(call, "src", s, out);
        let bytes = self.hold(call, "n", bytes, out);
        Ok(Operands {
            d: (d, dmem),
            s: (s, smem),
            bytes,
            known,
            unit,
        })
    }

    /// A copy's count of bytes (`what`: its `size` or `zfill`), which must be an integer.
    fn byte_count(
        &mut self,
        (call, what): (&str, &str),
        n: &ast::Expr,
        help: &str,
    ) -> Result<Expr> {
        let bytes = self.expr(n)?;
        if !bytes.ty.is_integer() {
            return Err(CheckError::NotAnInteger {
                what: format!("`{call}`'s {what}"),
                found: bytes.ty.to_string(),
                span: n.span,
                help: Some(help.into()),
            });
        }
        Ok(bytes)
    }

    /// The alignment `cuda::aligned_size_t<N>(x)` promises, written in the call or in the
    /// initialiser of the `const` the call names.
    pub(crate) fn aligned_size(&mut self, n: &ast::Expr) -> Option<u32> {
        match &n.kind {
            ast::ExprKind::Call { callee, targs, .. }
                if unqualified(&callee.name) == "aligned_size_t" =>
            {
                let [ast::TemplateArg::Value(a)] = targs.as_slice() else {
                    return None;
                };
                self.const_size(a).ok().map(|a| a as u32)
            }
            ast::ExprKind::Name(name) => self.aligned_sizes.get(name).copied(),
            _ => None,
        }
    }

    /// One thread's copy: pieces at 0, 1, 2, ... of its `unit` bytes.
    fn thread_copy(
        &mut self,
        call: &str,
        operands: (&ast::Expr, &ast::Expr, &ast::Expr),
        obj: AsyncObj,
        span: Span,
    ) -> Result<Vec<Stmt>> {
        let mut out = vec![];
        let o = self.copy_operands(call, operands, &mut out)?;
        out.push(op(AsyncOp::Open(obj), span));
        match o.known {
            Some(k) if k / u64::from(o.unit) <= 8 => {
                for at in 0..k / u64::from(o.unit) {
                    let at = constant(Value::I64(at as i64), span);
                    out.extend(self.async_piece(call, &o, o.unit, at, span)?);
                }
            }
            _ => {
                let one = constant(Value::U64(1), span);
                self.piece_loop(call, &o, (o.unit, None, one), span, &mut out)?;
            }
        }
        out.push(op(AsyncOp::Close, span));
        Ok(out)
    }

    /// A group's copy: the group's threads take its `unit`-byte pieces in turn (thread `r`
    /// pieces `r`, `r + size`, ...), as cooperative groups' implementation strides them.
    fn group_copy(
        &mut self,
        group: Group,
        operands: (&ast::Expr, &ast::Expr, &ast::Expr),
        obj: AsyncObj,
        span: Span,
    ) -> Result<Vec<Stmt>> {
        if matches!(group, Group::Grid | Group::Coalesced(_)) {
            return Err(CheckError::Unsupported {
                what: "`cg::memcpy_async` over this group".into(),
                span: operands.0.span,
                help: Some("copy with a thread block or a tile: `cg::memcpy_async(block, dst, src, bytes)`".into()),
            });
        }
        let call = "cg::memcpy_async";
        let mut out = vec![];
        let o = self.copy_operands(call, operands, &mut out)?;
        let ident = |name: &str| ast::Ident {
            name: name.into(),
            span,
        };
        let rank = self.group_method(group, &ident("thread_rank"), &[], span)?;
        let rank = self.convert(rank, Scalar::U64);
        let size = self.group_method(group, &ident("size"), &[], span)?;
        let size = self.convert(size, Scalar::U64);
        let rank = self.hold(call, "rank", rank, &mut out);
        let size = self.hold(call, "size", size, &mut out);
        out.push(op(AsyncOp::Open(obj), span));
        self.piece_loop(
            call,
            &o,
            (o.unit, Some(rank.clone()), size.clone()),
            span,
            &mut out,
        )?;
        if o.known.is_none_or(|k| k % u64::from(o.unit) != 0) && o.unit > 1 {
            // What a whole number of pieces leaves: byte by byte.
            self.piece_loop(call, &o, (1, Some(rank), size), span, &mut out)?;
        }
        out.push(op(AsyncOp::Close, span));
        Ok(out)
    }

    /// `for (k = first; k < bytes / unit; k += step) piece(k)`, where a 1-byte loop after a
    /// wider one starts past the wider one's whole pieces.
    fn piece_loop(
        &mut self,
        call: &str,
        o: &Operands,
        (unit, first, step): (u32, Option<Expr>, Expr),
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty: Scalar::U64,
            span,
        };
        let k = self.new_local(&format!("{call}.k"), Scalar::U64, span);
        let first = first.unwrap_or_else(|| constant(Value::U64(0), span));
        let u = |x: u32| constant(Value::U64(u64::from(x)), span);
        // Pieces of `unit` bytes from byte `skip`: those a wider loop before left.
        let skip = if unit < o.unit {
            let whole = self.binary(BinOp::Div, span, o.bytes.clone(), u(o.unit))?;
            self.binary(BinOp::Mul, span, whole, u(o.unit))?
        } else {
            constant(Value::U64(0), span)
        };
        let start = self.binary(BinOp::Add, span, skip, first)?;
        out.push(assign(k, start, span));
        let end = self.binary(BinOp::Div, span, o.bytes.clone(), u(unit))?;
        let cond = self.binary(BinOp::Lt, span, var(k), end)?;
        let at = self.convert(var(k), Scalar::I64);
        let body = self.async_piece(call, o, unit, at, span)?;
        let next = self.binary(BinOp::Add, span, var(k), step)?;
        out.push(Stmt {
            kind: StmtKind::Loop {
                cond: Some(cond),
                test_first: true,
                body,
                step: vec![assign(k, next, span)],
            },
            span,
        });
        Ok(())
    }

    /// Piece `at` (an `i64`, in `unit`-byte pieces) of a copy: one load and one store.
    fn async_piece(
        &mut self,
        call: &str,
        o: &Operands,
        unit: u32,
        at: Expr,
        span: Span,
    ) -> Result<Vec<Stmt>> {
        if unit <= 8 {
            let fill = Fill::Copy(o.s.0.clone());
            let piece = Piece { bytes: unit, at };
            return Ok(vec![self.piece(
                call,
                (&o.d.0, o.d.1),
                (&fill, Some(o.s.1)),
                piece,
                span,
            )?]);
        }
        // 16 bytes: one vector access of each side, as `LDGSTS.128`.
        let (dview, dindex) = self.wide_piece(call, (&o.d.0, o.d.1), at.clone(), span)?;
        let (sview, sindex) = self.wide_piece(call, (&o.s.0, o.s.1), at, span)?;
        let vars: Vec<VarId> = (0..sview.width)
            .map(|_| self.new_local(&format!("{call}.v"), sview.elem, span))
            .collect();
        let values = vars
            .iter()
            .map(|&v| Expr {
                kind: ExprKind::Var(v),
                ty: sview.elem,
                span,
            })
            .collect();
        Ok(vec![
            Stmt {
                kind: StmtKind::VecLoad {
                    mem: sview,
                    index: sindex,
                    vars,
                },
                span,
            },
            Stmt {
                kind: StmtKind::VecStore {
                    mem: dview,
                    index: dindex,
                    values,
                },
                span,
            },
        ])
    }

    /// A 16-byte view of `p`'s array (`uint4`, or `ulonglong2` of 8-byte memory) and the index of
    /// piece `at` after where `p` points; a pointer not at a multiple of 16 bytes traps as a
    /// misaligned address, as the hardware's copy does.
    fn wide_piece(
        &mut self,
        call: &str,
        (p, mem): (&Ptr, Mem),
        at: Expr,
        span: Span,
    ) -> Result<(Mem, Expr)> {
        // A function checked on its own points into a placeholder: its declared type.
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        if stored == Scalar::Bool {
            return Err(CheckError::Unsupported {
                what: format!("`{call}` of `bool` memory"),
                span,
                help: Some("copy the elements with a loop".into()),
            });
        }
        let elem = if stored.size() >= 8 {
            Scalar::U64
        } else {
            Scalar::U32
        };
        let view = Mem {
            space: mem.space,
            elem,
            width: WIDEST / elem.size(),
        };
        let from = mem.elem.size() * mem.width;
        let base = Expr {
            kind: ExprKind::Rescale {
                value: Box::new(self.widen(p.offset.clone())),
                from,
                to: WIDEST,
                size: stored.size(),
                space: mem.space,
            },
            ty: Scalar::I64,
            span,
        };
        let base = if from == WIDEST {
            self.widen(p.offset.clone())
        } else {
            base
        };
        let index = self.binary(BinOp::Add, span, base, at)?;
        Ok((view, Expr { span, ..index }))
    }
}

/// A copy's operands, each held in a variable.
struct Operands {
    d: (Ptr, Mem),
    s: (Ptr, Mem),
    bytes: Expr,
    known: Option<u64>,
    unit: u32,
}

/// What a declaration's initialiser makes.
enum Maker {
    /// `bar.arrive()`: a token.
    Arrive(u32),
    /// `cuda::make_pipeline(...)`.
    Pipeline(AsyncObj),
}

/// `std::move(x)` is `x`.
fn moved(e: &ast::Expr) -> &ast::Expr {
    match &e.kind {
        ast::ExprKind::Call { callee, args, .. }
            if matches!(callee.name.as_str(), "std::move" | "move") && args.len() == 1 =>
        {
            &args[0]
        }
        _ => e,
    }
}

fn op(o: AsyncOp, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Async(o),
        span,
    }
}

fn count(name: &str, expected: &str, found: usize, span: Span) -> CheckError {
    CheckError::ArgumentCount {
        name: name.into(),
        expected: expected.into(),
        found,
        span,
    }
}

fn not_a_group(name: &str, span: Span) -> CheckError {
    CheckError::AsyncObject {
        call: format!("cg::{name}"),
        wanted: "a group of threads",
        span,
        help: Some("pass the group that copied: `cg::wait(block)`".into()),
    }
}

fn scope_unsupported(ty: &ast::TypeName) -> CheckError {
    CheckError::Unsupported {
        what: format!("`{}`", ty.base_text),
        span: ty.span,
        help: Some("simt has the block's barrier, `cuda::barrier<cuda::thread_scope_block>`, in shared memory".into()),
    }
}
