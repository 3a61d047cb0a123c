//! Warp intrinsics and `__device__` function calls (inlined where they are called).

use std::collections::HashMap;
use std::rc::Rc;

use super::expr::constant;
use super::groups::Group;
use super::typed::*;
use super::{pointer, ArgumentProblem, Binding, CheckError, KernelChecker, TemplateProblem};
use crate::source::Span;
use crate::syntax::ast::{self, UnOp};
use crate::value::{Scalar, ShflKind, Value, VoteKind, WarpFold};

type Result<T> = std::result::Result<T, CheckError>;

/// Names the checker treats as intrinsics, for "did you mean".
pub(crate) const INTRINSICS: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__activemask",
    "__syncwarp",
    "__match_any_sync",
    "__match_all_sync",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
    "atomicAdd",
    "atomicSub",
    "atomicMin",
    "atomicMax",
    "atomicExch",
    "atomicCAS",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicInc",
    "atomicDec",
];

impl KernelChecker<'_, '_> {
    /// A call of a warp intrinsic or an atomic; `None` when `name` is neither.
    pub(crate) fn intrinsic(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        // The mask-less forms before CUDA 9 act on the whole warp: the `_sync` form with a full
        // mask, noted in the report as deprecated.
        if let Some(sync) = legacy_sync(name) {
            self.notes.push((
                span,
                "deprecated",
                format!("`{name}` is deprecated since CUDA 9 (and gone on Volta and later): it runs here as `{sync}(0xffffffff, ...)`; write that, or the mask of the lanes that take part"),
            ));
            let full = ast::Expr {
                kind: ast::ExprKind::Int {
                    value: u64::from(u32::MAX),
                    unsigned: true,
                    long: false,
                    hex: true,
                },
                span,
            };
            let mut with_mask = vec![full];
            with_mask.extend(args.iter().cloned());
            return self.intrinsic(sync, &with_mask, span);
        }
        let shfl = match name {
            "__shfl_sync" => Some(ShflKind::Idx),
            "__shfl_up_sync" => Some(ShflKind::Up),
            "__shfl_down_sync" => Some(ShflKind::Down),
            "__shfl_xor_sync" => Some(ShflKind::Xor),
            _ => None,
        };
        if let Some(kind) = shfl {
            return Some(self.shuffle(name, kind, args, span));
        }
        let vote = match name {
            "__ballot_sync" => Some(VoteKind::Ballot),
            "__any_sync" => Some(VoteKind::Any),
            "__all_sync" => Some(VoteKind::All),
            _ => None,
        };
        if let Some(kind) = vote {
            return Some(self.vote(name, kind, args, span));
        }
        if let Some(kind) = WarpFold::of_name(name) {
            return Some(self.warp_fold(kind, args, span));
        }
        if name == "__activemask" {
            return Some(arity(name, args.len(), 0, 0, span).map(|()| Expr {
                kind: ExprKind::ActiveMask,
                ty: Scalar::U32,
                span,
            }));
        }
        super::atomics::atomic_op(name).map(|op| self.atomic(op, args, span))
    }

    /// A scalar integer argument converted to `to`.
    fn int_arg(&mut self, e: &ast::Expr, to: Scalar, what: &str) -> Result<Expr> {
        let t = self.expr(e)?;
        if t.ty.is_float() {
            return Err(CheckError::NotAnInteger {
                what: what.to_string(),
                found: t.ty.to_string(),
                span: e.span,
                help: None,
            });
        }
        Ok(self.convert(t, to))
    }

    fn shuffle(
        &mut self,
        name: &str,
        kind: ShflKind,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        arity(name, args.len(), 3, 4, span)?;
        let mask = self.int_arg(&args[0], Scalar::U32, "the mask")?;
        let value = self.expr(&args[1])?;
        let ty = match value.ty.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let value = self.convert(value, ty);
        let arg = self.int_arg(&args[2], Scalar::U32, "the lane argument")?;
        let width = match args.get(3) {
            Some(w) => self.int_arg(w, Scalar::U32, "the width")?,
            None => constant(Value::U32(32), span),
        };
        if let ExprKind::Const(v) = width.kind {
            let w = v.as_i64().unwrap_or(0);
            if !(1..=32).contains(&w) || w & (w - 1) != 0 {
                return Err(CheckError::ArgumentType {
                    problem: ArgumentProblem::ShuffleWidth {
                        function: name.to_string(),
                        width: w,
                    },
                    span: width.span,
                    help: None,
                });
            }
        }
        Ok(Expr {
            kind: ExprKind::Shuffle {
                kind,
                mask: Box::new(mask),
                value: Box::new(value),
                arg: Box::new(arg),
                width: Box::new(width),
                strict: true,
            },
            ty,
            span,
        })
    }

    fn vote(&mut self, name: &str, kind: VoteKind, args: &[ast::Expr], span: Span) -> Result<Expr> {
        arity(name, args.len(), 2, 2, span)?;
        let mask = self.int_arg(&args[0], Scalar::U32, "the mask")?;
        let pred = self.condition(&args[1])?;
        Ok(Expr {
            kind: ExprKind::Vote {
                kind,
                mask: Box::new(mask),
                pred: Box::new(pred),
            },
            ty: if kind == VoteKind::Ballot {
                Scalar::U32
            } else {
                Scalar::I32
            },
            span,
        })
    }

    /// `__match_any_sync(mask, v)`, `__match_all_sync(mask, v, &pred)` and
    /// `__reduce_*_sync(mask, v)`, with the overloads CUDA declares: a match compares the bits of
    /// a 4- or 8-byte value of any arithmetic type; `add`, `min` and `max` take `int` or
    /// `unsigned` (other integers are ambiguous between the two), `and`, `or` and `xor`
    /// `unsigned`.
    fn warp_fold(&mut self, kind: WarpFold, args: &[ast::Expr], span: Span) -> Result<Expr> {
        let name = kind.name();
        let n = if kind == WarpFold::MatchAll { 3 } else { 2 };
        arity(name, args.len(), n, n, span)?;
        let mask = self.int_arg(&args[0], Scalar::U32, "the mask")?;
        let value = self.expr(&args[1])?;
        let found = value.ty;
        let promoted = match found.promoted() {
            Scalar::Bool => Scalar::I32,
            t => t,
        };
        let reduce_ty = match (kind, promoted) {
            (WarpFold::And | WarpFold::Or | WarpFold::Xor, t) if t.is_integer() => {
                Some(Scalar::U32)
            }
            (WarpFold::Add | WarpFold::Min | WarpFold::Max, t @ (Scalar::I32 | Scalar::U32)) => {
                Some(t)
            }
            _ => None,
        };
        let value = if kind.is_match() {
            let bits = if promoted.size() == 8 {
                Scalar::U64
            } else {
                Scalar::U32
            };
            if promoted.is_float() {
                super::expr::bit_cast(self.convert(value, promoted), bits, span)
            } else {
                self.convert(value, bits)
            }
        } else if let Some(t) = reduce_ty {
            self.convert(value, t)
        } else {
            return Err(CheckError::Mismatch {
                expected: if matches!(kind, WarpFold::And | WarpFold::Or | WarpFold::Xor) {
                    "an integer (`unsigned`)".into()
                } else {
                    "an `int` or `unsigned`".into()
                },
                found: format!("a `{found}`"),
                span: args[1].span,
                help: Some(format!(
                    "`{name}` reduces 32-bit integers; convert the value, or reduce it with `__shfl_xor_sync` steps"
                )),
            });
        };
        let ty = if kind.is_match() {
            Scalar::U32
        } else {
            value.ty
        };
        let fold = Expr {
            kind: ExprKind::WarpFold {
                kind,
                mask: Box::new(mask),
                value: Box::new(value),
            },
            ty,
            span,
        };
        if kind != WarpFold::MatchAll {
            return Ok(fold);
        }
        // `*pred` is whether all values were equal: the result, a nonzero mask, says so.
        let result = self.new_local("__match_all_sync()", Scalar::U32, span);
        let read = Expr {
            kind: ExprKind::Var(result),
            ty: Scalar::U32,
            span,
        };
        let all = Expr {
            kind: ExprKind::Compare {
                op: crate::value::CmpOp::Ne,
                lhs: Box::new(read),
                rhs: Box::new(constant(Value::U32(0), span)),
            },
            ty: Scalar::Bool,
            span,
        };
        let pred = self.assign(&super::expr::out_place(&args[2]), None, span, all)?;
        Ok(Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body: vec![
                    Stmt {
                        kind: StmtKind::Assign {
                            var: result,
                            value: fold,
                        },
                        span,
                    },
                    Stmt { kind: pred, span },
                ],
                result: Some(result),
            },
            ty: Scalar::U32,
            span,
        })
    }

    /// The element type that `space` holds (a reinterpreting pointer sees another of the same
    /// size); `None` for the placeholder of a pointer into no array.
    pub(crate) fn stored(&self, space: Space) -> Option<Scalar> {
        let narrowed = match space {
            Space::Global(p) => self.narrowed.iter().find(|n| n.0 == p).map(|n| n.1),
            _ => None,
        };
        narrowed.or_else(|| stored_in((&self.params, &self.shared, &self.local_arrays), space))
    }

    /// Whether a narrower view has re-typed the memory of `space` (see `pointer::narrow`).
    pub(crate) fn narrowed(&self, space: Space) -> bool {
        match space {
            Space::Local(l) => self
                .local_arrays
                .get(l as usize)
                .is_some_and(|a| a.stored.size() < a.elem.size()),
            Space::Shared(s) => self
                .shared
                .get(s as usize)
                .is_some_and(|a| a.stored.size() < a.elem.size()),
            Space::Global(_) | Space::Choice { .. } => false,
        }
    }

    /// The whole shared array `s`.
    pub(crate) fn shared_mem(&self, s: u32) -> Mem {
        Mem {
            space: Space::Shared(s),
            elem: self.shared[s as usize].elem,
            width: self.shared[s as usize].width,
        }
    }

    /// Inlines a call of a `__device__` function. `allow_void` when the call is a statement.
    pub(crate) fn inline_call(
        &mut self,
        f: &ast::Function,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Result<Expr> {
        let through;
        let (f, args) = match self.through_function_pointers(f, args)? {
            Some((g, kept)) => {
                through = (g, kept);
                (&through.0, &through.1[..])
            }
            None => (f, args),
        };
        let instance;
        let f = if f.template.is_empty() {
            if !targs.is_empty() {
                return Err(CheckError::TemplateArguments {
                    template: f.name.name.clone(),
                    problem: TemplateProblem::NotATemplate,
                    span,
                    help: Some(format!("call it as `{}(...)`", f.name.name)),
                });
            }
            f
        } else {
            instance = self.function_instance(f, targs, args, span)?;
            &instance
        };
        let name = &f.name.name;
        let signature = inlined_as(f);
        if self.inlining.iter().any(|(_, s)| *s == signature) {
            return Err(CheckError::Unsupported {
                what: format!("the recursive call of `{name}`"),
                span,
                help: Some(
                    "__device__ functions are inlined; rewrite the recursion as a loop".into(),
                ),
            });
        }
        // Trailing parameters with a default may be left out.
        let required = f
            .params
            .iter()
            .rposition(|p| p.default.is_none())
            .map_or(0, |k| k + 1);
        arity(name, args.len(), required, f.params.len(), span)?;
        let defaults: Vec<ast::Expr> = f.params[args.len()..]
            .iter()
            .filter_map(|p| p.default.clone())
            .collect();
        let with_defaults: Vec<ast::Expr> = args.iter().cloned().chain(defaults).collect();
        let args = with_defaults.as_slice();
        let returns_struct = self.returns_struct(f);
        let ret = if returns_struct {
            None
        } else {
            return_scalar(f)?
        };
        let returns_value = ret.is_some()
            || returns_struct
            || f.ret.pointer
            || matches!(f.ret.base, ast::BaseType::Vector | ast::BaseType::Auto);
        if !returns_value && !allow_void {
            return Err(CheckError::NoValue {
                what: format!("`{name}(...)`"),
                why: " (it returns `void`)",
                span,
                help: Some(format!("call it as a statement: `{name}(...);`")),
            });
        }
        // A member function's object is for its own body, not for calls in its arguments.
        let this = self.pending_this.take();
        let seen = self.pending_scopes.take();
        let mut values = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            values.push(self.argument(p, a)?);
        }
        self.globals.inlined.borrow_mut().insert(name.clone());
        self.pending_this = this;
        self.pending_scopes = seen;
        let call = self.expand(f, ret, values, span)?;
        if matches!(&call.kind, ExprKind::Inline { result: None, .. })
            && f.ret.base == ast::BaseType::Auto
            && !allow_void
        {
            if let RetShape::Struct(i) = self.last_ret {
                let l = &self.struct_vars[i as usize].layout;
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}(...)`"),
                    what: format!("a `{}`", l.name),
                    wanted: "a number",
                    span,
                    help: Some(format!(
                        "use a member (`{name}(...).x`), or keep it in a `{}` variable",
                        l.name
                    )),
                });
            }
            return Err(CheckError::NoValue {
                what: format!("`{name}(...)`"),
                why: " (its `auto` is `void`)",
                span,
                help: Some(format!("call it as a statement: `{name}(...);`")),
            });
        }
        // A vector returned where a number is needed (`P2 s = mk(x);` with `float2 mk(float)`
        // filling P2's first member): C++ has no such conversion.
        if matches!(&call.kind, ExprKind::Inline { result: None, .. })
            && f.ret.base == ast::BaseType::Vector
            && !f.ret.pointer
            && !returns_struct
            && !allow_void
        {
            return Err(CheckError::Mismatch {
                expected: "a number".into(),
                found: format!("`{name}(...)`, a `{}`", f.ret.base_text),
                span,
                help: Some(format!(
                    "read a component (`{name}(...).x`), or give the value to a `{}` variable",
                    f.ret.base_text
                )),
            });
        }
        Ok(call)
    }

    /// Checks a function no kernel calls, with zero arguments of its parameter types.
    pub(crate) fn check_function(&mut self, f: &ast::Function) -> Result<()> {
        // The file's `__constant__`, `__device__` and `__shared__` variables it reads, as a
        // kernel calling it would see them (only checked: what sets them up is not kept).
        let mut prologue = Vec::new();
        let shadowed: Vec<&str> = f.params.iter().map(|p| p.name.name.as_str()).collect();
        self.file_scope_params((&f.body, &shadowed), &mut prologue);
        self.file_shared((&f.body, &shadowed), &mut prologue);
        let ret = if self.returns_struct(f) {
            None
        } else {
            return_scalar(f)?
        };
        // Pointer and reference parameters point into a placeholder array of their type (the
        // function is only checked, never lowered); group parameters are a group of their type.
        let mut values = Vec::new();
        for p in &f.params {
            let group = (p.ty.base == ast::BaseType::Named
                && super::groups::is_group_type(&p.ty.base_text))
            .then(|| super::groups::group_type(&p.ty.base_text).unwrap_or(Group::Block));
            let layout = self.layout_of(&p.ty).transpose()?;
            let lib = (p.ty.base == ast::BaseType::Named)
                .then(|| super::async_copy::async_type(&p.ty.base_text))
                .flatten();
            values.push(if let Some(g) = group {
                Arg::Alias(Binding::Group(g))
            } else if let Some(kind) = lib {
                // Checked alone: a barrier or pipeline of its own.
                Arg::Alias(Binding::Async(match kind {
                    super::async_copy::AsyncType::Barrier => {
                        crate::async_copy::AsyncObj::Barrier(0)
                    }
                    _ => crate::async_copy::AsyncObj::Primitive,
                }))
            } else if let (Some(l), false) = (&layout, p.ty.pointer) {
                Arg::Struct(self.struct_parameter(Rc::clone(l), p), Vec::new())
            } else if p.pointer_to_pointer {
                Arg::Pointer(super::pointer::Ptr {
                    mem: Some(Mem {
                        space: super::Space::Global(u32::MAX),
                        elem: crate::value::Scalar::U64,
                        width: 1,
                    }),
                    offset: constant(Value::I64(0), p.name.span),
                    is_const: false,
                })
            } else if p.ty.pointer || p.ty.reference {
                let ptr = self.placeholder_pointer(&p.ty, p.name.span)?;
                if p.ty.reference {
                    let mem = ptr.mem.expect("a placeholder points into an array");
                    let i = self.new_pointer(&p.name, (mem.elem, mem.width), p.ty.is_const);
                    let bind = self.point(i, ptr, p.name.span)?;
                    Arg::Ref(i, bind)
                } else {
                    Arg::Pointer(ptr)
                }
            } else if p.ty.base == ast::BaseType::Vector {
                let (elem, width) = super::vector::elem_of(&p.ty)?;
                let mut vars = [VarId(0); 4];
                for (k, v) in vars.iter_mut().enumerate().take(width as usize) {
                    *v = self.new_local(&format!("{}.{k}", p.name.name), elem, p.name.span);
                }
                Arg::Vector(vars, elem, width, Vec::new())
            } else {
                Arg::Value(constant(Value::I32(0), p.name.span))
            });
        }
        self.expand(f, ret, values, f.span).map(|_| ())
    }

    /// The inlined body of `f` with `values` bound to its parameters.
    fn expand(
        &mut self,
        f: &ast::Function,
        ret: Option<Scalar>,
        values: Vec<Arg>,
        span: Span,
    ) -> Result<Expr> {
        let name = &f.name.name;
        // A body with errors is reported once, not once per call; a kernel past the expansion
        // budget is refused already. Either way a placeholder stands for the call.
        if self.globals.broken.borrow().contains(name) || !self.expanded(span)? {
            return Ok(constant(
                Value::I32(0).cast(ret.unwrap_or(Scalar::I32)),
                span,
            ));
        }
        let errors_before = self.errors.len();
        // The body sees only its parameters and file-scope names (and a member function its
        // object's members, in a scope of their own that the parameters shadow).
        let scopes = match (self.pending_scopes.take(), self.pending_this.take()) {
            // A lambda's body sees the scopes where it was made.
            (Some(mut seen), _) => {
                seen.push(HashMap::new());
                seen
            }
            (None, Some(members)) => vec![members, HashMap::new()],
            (None, None) => vec![HashMap::new()],
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, scopes);
        let saved_params = std::mem::replace(&mut self.params_scope, self.scopes.len() - 1);
        let saved_named = std::mem::replace(
            &mut self.named_result,
            super::structs::named_result(&f.body),
        );
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        let result = ret.map(|t| (self.new_local(&format!("{name}()"), t, f.name.span), t));
        let shape = match self.ret_slot(f) {
            Ok(shape) => shape,
            Err(e) => {
                // What the call replaced is put back: the caller goes on checking after it.
                self.loop_depth = saved_loops;
                self.scopes = saved_scopes;
                self.params_scope = saved_params;
                self.named_result = saved_named;
                return Err(e);
            }
        };
        let saved_ret = self.returns.replace(result);
        let saved_auto = std::mem::replace(
            &mut self.returns_auto,
            f.ret.base == ast::BaseType::Auto && !f.ret.pointer && f.ret_decltype.is_none(),
        );
        let saved_shape = std::mem::replace(&mut self.ret_shape, shape);
        self.inlining.push((name.clone(), inlined_as(f)));
        let body = self.inline_body(f, values, result);
        self.inlining.pop();
        // An `auto` function's result is made at its first `return`: zero it on entry, as
        // every result is.
        // So is a `decltype` return type's, made once the parameters are bound.
        let made_in_body = self.returns_auto || f.ret_decltype.is_some();
        let (result, ret) = match (made_in_body, self.returns.flatten()) {
            (true, Some((var, ty))) => (Some((var, ty)), Some(ty)),
            _ => (result, ret),
        };
        let body = body.map(|mut b| {
            if let (true, Some((var, ty))) = (self.returns_auto, result) {
                b.insert(0, zero_result(var, ty, f.name.span));
            }
            b
        });
        self.returns_auto = saved_auto;
        self.returns = saved_ret;
        // An `auto` function's first `return` of a struct made its shape.
        let shape = std::mem::replace(&mut self.ret_shape, saved_shape);
        self.last_ret = shape;
        self.loop_depth = saved_loops;
        self.scopes = saved_scopes;
        self.params_scope = saved_params;
        self.named_result = saved_named;
        if body.is_err() || self.errors.len() > errors_before {
            self.globals.broken.borrow_mut().insert(name.clone());
        }
        let mut body = body?;
        let returns_value = result.is_some() || !matches!(shape, RetShape::Plain);
        if returns_value && super::fall_through::falls_through(&body) {
            body.push(Stmt {
                kind: StmtKind::Fault(Fault::MissingReturn {
                    function: name.clone(),
                }),
                span: Span::new(f.span.end.saturating_sub(1) as usize, f.span.end as usize),
            });
        }
        // A pointer's result is its offset variable.
        let (result, ty) = match shape {
            RetShape::Pointer(i) => (Some(self.ptr_vars[i as usize].var), Scalar::I64),
            _ => (
                result.map(|(v, _)| v),
                ret.map_or(Scalar::I32, Scalar::promoted),
            ),
        };
        Ok(Expr {
            kind: ExprKind::Inline {
                name: name.clone(),
                body,
                result,
            },
            ty,
            span,
        })
    }

    /// Where `return` puts a pointer or vector result of `f` (`Plain` for a scalar or `void`).
    fn ret_slot(&mut self, f: &ast::Function) -> Result<RetShape> {
        if let Some(shape) = self.struct_ret_slot(f) {
            return shape;
        }
        if f.ret.pointer {
            let layout = self.layout_of(&f.ret).transpose()?;
            // `void*`: typed by what its first `return` gives (dietgpu's `getBatchStart`).
            let void = layout.is_none() && f.ret.base == ast::BaseType::Void;
            let pointee = match &layout {
                Some(l) => self.buffer_of(l, f.ret.span),
                None if void => (crate::value::Scalar::U8, 1),
                None => super::vector::elem_of(&f.ret)?,
            };
            let name = ast::Ident {
                name: format!("{}()", f.name.name),
                span: f.name.span,
            };
            let i = self.new_pointer(&name, pointee, f.ret.is_const);
            self.ptr_vars[i as usize].is_void = void;
            if let Some(l) = layout {
                self.struct_ptrs.insert(i, l);
            }
            return Ok(RetShape::Pointer(i));
        }
        if f.ret.base == ast::BaseType::Vector {
            let (elem, width) = super::vector::elem_of(&f.ret)?;
            let mut vars = [VarId(0); 4];
            for (k, v) in vars.iter_mut().enumerate().take(width as usize) {
                *v = self.new_local(
                    &format!("{}().{}", f.name.name, super::vector::COMPONENTS[k]),
                    elem,
                    f.name.span,
                );
            }
            return Ok(RetShape::Vector(vars, elem, width));
        }
        Ok(RetShape::Plain)
    }

    fn inline_body(
        &mut self,
        f: &ast::Function,
        values: Vec<Arg>,
        result: Option<(VarId, Scalar)>,
    ) -> Result<Vec<Stmt>> {
        let mut body = Vec::new();
        if let Some((var, ty)) = result {
            body.push(zero_result(var, ty, f.name.span));
        }
        let addressed = self.addressed_in(&f.body);
        let repointed = self.repointed_in(&f.body);
        for (p, v) in f.params.iter().zip(values) {
            let v = match v {
                Arg::Value(v) if addressed.contains(&p.name.name) => {
                    // `&i` of a parameter passed by value (GPTQ's
                    // `*reinterpret_cast<unsigned int*>(&i)`).
                    let ty = super::scalar_of(&p.ty)?;
                    let binding = self.addressed_copy(&p.name, ty, v, &mut body)?;
                    self.declare(&p.name, binding);
                    continue;
                }
                Arg::Value(v) => v,
                Arg::Pointer(ptr) if p.pointer_to_pointer => {
                    // `hitable** l`: a pointer to pointers stored in memory.
                    let i = self.slot_pointer(&p.name, &p.ty);
                    body.push(self.point(i, ptr, p.name.span)?);
                    continue;
                }
                Arg::Pointer(_) if p.ty.reference && repointed.contains(p.name.name.as_str()) => {
                    return Err(CheckError::Unsupported {
                        what: format!(
                            "re-pointing the reference parameter `{}`, bound to a pointer that is no variable",
                            p.name.name
                        ),
                        span: p.name.span,
                        help: Some(format!(
                            "pass a pointer variable to `{}` (copy the pointer into a local first), or return the new pointer",
                            f.name.name
                        )),
                    });
                }
                Arg::Pointer(ptr) => {
                    let layout = self.layout_of(&p.ty).transpose()?;
                    let pointee = match &layout {
                        Some(l) => self.buffer_of(l, p.ty.span),
                        // `const void* key`: the memory the argument points into, as it is.
                        None if p.ty.base == ast::BaseType::Void => ptr
                            .mem
                            .map_or((crate::value::Scalar::U8, 1), |m| (m.elem, m.width)),
                        None => super::vector::elem_of(&p.ty)?,
                    };
                    let i = self.new_pointer(&p.name, pointee, p.ty.is_const);
                    self.ptr_vars[i as usize].is_void =
                        layout.is_none() && p.ty.base == ast::BaseType::Void;
                    for r in &p.rows {
                        let n = self.const_size(r)?;
                        self.ptr_vars[i as usize].rows.push(n);
                    }
                    if let Some(l) = layout {
                        self.struct_ptrs.insert(i, l);
                    }
                    body.push(self.point(i, ptr, p.name.span)?);
                    self.declare(&p.name, Binding::Pointer(i));
                    continue;
                }
                Arg::Alias(binding) => {
                    self.declare(&p.name, binding);
                    continue;
                }
                Arg::Ref(i, bind) => {
                    body.push(bind);
                    self.declare(&p.name, Binding::Ref(i));
                    continue;
                }
                Arg::Vector(vars, elem, width, fill) if addressed.contains(&p.name.name) => {
                    // `&bits` of an `int4` passed by value (llm.c's `memcpy(&payload, &bits,
                    // sizeof(bits))`): its copy is a one-element local array, as an addressed
                    // local vector is.
                    body.extend(fill);
                    let span = p.name.span;
                    self.local_arrays.push(super::LocalArray::new(
                        p.name.name.clone(),
                        (elem, width),
                        vec![1],
                        span,
                    ));
                    let mem = self.local_array_mem(self.local_arrays.len() as u32 - 1);
                    let i = self.new_pointer(&p.name, (elem, width), false);
                    let start = super::pointer::Ptr {
                        mem: Some(mem),
                        offset: constant(Value::I64(0), span),
                        is_const: false,
                    };
                    body.push(self.point(i, start, span)?);
                    let component = Mem { width: 1, ..mem };
                    for (k, var) in vars.iter().take(width as usize).enumerate() {
                        body.push(Stmt {
                            kind: StmtKind::Store {
                                mem: component,
                                index: constant(Value::I64(k as i64), span),
                                value: Expr {
                                    kind: ExprKind::Var(*var),
                                    ty: elem.promoted(),
                                    span,
                                },
                            },
                            span,
                        });
                    }
                    self.declare(&p.name, Binding::Ref(i));
                    continue;
                }
                Arg::Vector(vars, elem, width, fill) => {
                    body.extend(fill);
                    self.declare(&p.name, Binding::Vector { vars, elem, width });
                    continue;
                }
                Arg::Struct(binding, fill) => {
                    body.extend(fill);
                    self.declare(&p.name, binding);
                    continue;
                }
            };
            let ty = super::scalar_of(&p.ty)?;
            let var = self.new_local(&p.name.name, ty, p.name.span);
            self.declare(
                &p.name,
                Binding::Local {
                    var,
                    is_const: p.ty.is_const,
                },
            );
            let value = self.convert(v, ty);
            self.note_address(var, &value);
            body.push(Stmt {
                kind: StmtKind::Assign { var, value },
                span: p.name.span,
            });
        }
        self.addressed.extend(addressed);
        if let Some(e) = &f.ret_decltype {
            let ty = self.decltype(e)?;
            let var = self.new_local(&format!("{}()", f.name.name), ty, f.name.span);
            body.push(zero_result(var, ty, f.name.span));
            self.returns = Some(Some((var, ty)));
        }
        let stmts = self.block(&f.body);
        body.extend(stmts);
        Ok(body)
    }
}

impl KernelChecker<'_, '_> {
    /// A parameter passed by value whose address the body takes: its copy of `value` is a
    /// one-element local array, as a local whose address is taken is, and `name` refers to it.
    pub(crate) fn addressed_copy(
        &mut self,
        name: &ast::Ident,
        ty: crate::value::Scalar,
        value: Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<Binding> {
        let span = name.span;
        self.local_arrays.push(super::LocalArray::new(
            name.name.clone(),
            (ty, 1),
            vec![1],
            span,
        ));
        let mem = self.local_array_mem(self.local_arrays.len() as u32 - 1);
        let i = self.new_pointer(name, (ty, 1), false);
        let start = super::pointer::Ptr {
            mem: Some(mem),
            offset: constant(Value::I64(0), span),
            is_const: false,
        };
        out.push(self.point(i, start, span)?);
        out.push(Stmt {
            kind: StmtKind::Store {
                mem,
                index: constant(Value::I64(0), span),
                value: self.convert(value, ty),
            },
            span,
        });
        Ok(Binding::Ref(i))
    }

    /// The names whose address a body takes (`&v`), directly or through a reference parameter
    /// of a function it calls (`vec_at(v, k)` of `float& vec_at(float4& vec, int i) { return
    /// reinterpret_cast<float*>(&vec)[i]; }`): such a variable is a one-element local array from
    /// its declaration on.
    pub(crate) fn addressed_in(&self, body: &[ast::Stmt]) -> std::collections::HashSet<String> {
        let mut names: std::collections::HashSet<String> = crate::syntax::addressed_names(body)
            .into_iter()
            .map(String::from)
            .collect();
        for (callee, args) in crate::syntax::calls_with_names(body) {
            for (k, a) in args.iter().enumerate() {
                if let ast::ExprKind::Name(n) = &a.kind {
                    if self.takes_address(callee, k) {
                        names.insert(n.clone());
                    }
                }
            }
        }
        names
    }

    /// The names a body re-points: assigned (`A += k`, `p++`) or passed to a reference-to-pointer
    /// parameter of a function it calls (`advance(p, 2)` of `void advance(const float*& p, int
    /// k) { p += k; }`), or of a member function of that name of any class (`it.next(p)`,
    /// `S::next(p)`, `adv(p)` of a functor: the class is not known here, so every class's
    /// member of that name counts).
    pub(crate) fn repointed_in<'b>(
        &self,
        body: &'b [ast::Stmt],
    ) -> std::collections::HashSet<&'b str> {
        let mut names = crate::syntax::assigned_names(body);
        let mut note = |defs: Vec<&ast::Function>, args: &'b [ast::Expr]| {
            for (k, a) in args.iter().enumerate() {
                if let ast::ExprKind::Name(n) = &a.kind {
                    let by_reference = |f: &&ast::Function| {
                        f.params
                            .get(k)
                            .is_some_and(|p| p.ty.pointer && p.ty.reference)
                    };
                    if defs.iter().any(by_reference) {
                        names.insert(n.as_str());
                    }
                }
            }
        };
        for (callee, args) in crate::syntax::calls_with_names(body) {
            // A function, a class's static member (`S::adv(p)`), or an object's `operator()`
            // (`adv(p)` of a functor `Adv adv;`).
            let name = super::groups::unqualified(callee);
            let free = self.globals.overloads.get(name);
            let members = self.globals.structs.iter().flat_map(|s| &s.methods);
            let call_operator = free.is_none();
            let defs =
                free.into_iter()
                    .flatten()
                    .copied()
                    .chain(members.filter(|f| {
                        f.name.name == name || (call_operator && f.name.name == "operator()")
                    }));
            note(defs.collect(), args);
        }
        for (method, args) in crate::syntax::method_calls_with_names(body) {
            let members = self.globals.structs.iter().flat_map(|s| &s.methods);
            note(members.filter(|f| f.name.name == method).collect(), args);
        }
        names
    }

    /// Whether some definition of `callee` takes the address of its reference parameter `k`,
    /// itself or by passing it on to a function that does, through any chain of calls (every
    /// (function, parameter) pair is visited once: GPUSPH's `clamp` overloads, each calling
    /// `clamp` on its members, made an unbounded search exponential).
    fn takes_address(&self, callee: &str, k: usize) -> bool {
        let key = (super::groups::unqualified(callee).to_string(), k);
        if let Some(&known) = self.globals.address_taking.borrow().get(&key) {
            return known;
        }
        let mut seen = std::collections::HashSet::new();
        let mut pending = vec![key.clone()];
        let mut found = false;
        while let Some((name, k)) = pending.pop() {
            if found || !seen.insert((name.clone(), k)) {
                continue;
            }
            let Some(defs) = self.globals.overloads.get(name.as_str()) else {
                continue;
            };
            for f in defs {
                let Some(p) = f.params.get(k).filter(|p| p.ty.reference) else {
                    continue;
                };
                if crate::syntax::addressed_names(&f.body).contains(p.name.name.as_str()) {
                    found = true;
                    break;
                }
                for (g, args) in crate::syntax::calls_with_names(&f.body) {
                    for (j, a) in args.iter().enumerate() {
                        if matches!(&a.kind, ast::ExprKind::Name(n) if *n == p.name.name) {
                            pending.push((super::groups::unqualified(g).to_string(), j));
                        }
                    }
                }
            }
        }
        self.globals.address_taking.borrow_mut().insert(key, found);
        found
    }
}

impl KernelChecker<'_, '_> {
    /// The caller's array of pointers that `a` names, where `p` is a pointer to pointers
    /// (`T** p`, `T* const* p`).
    pub(crate) fn pointer_array_arg(&self, p: &ast::Param, a: &ast::Expr) -> Option<Binding> {
        let ast::ExprKind::Name(n) = &a.kind else {
            return None;
        };
        match self.lookup(n) {
            Some(b @ Binding::PointerArray(_)) if p.pointer_to_pointer => Some(b),
            _ => None,
        }
    }
}

/// Whether `a` names an object a reference can bind to (a variable, an element, a member, `*p`)
/// rather than a value computed for the call.
fn is_object(a: &ast::Expr) -> bool {
    matches!(
        &a.kind,
        ast::ExprKind::Name(_)
            | ast::ExprKind::Index { .. }
            | ast::ExprKind::Member { .. }
            | ast::ExprKind::Unary {
                op: UnOp::Deref,
                ..
            }
    )
}

/// `threadIdx.x` and the other built-in coordinates: values, with no address.
fn is_builtin_member(a: &ast::Expr) -> bool {
    matches!(&a.kind, ast::ExprKind::Member { base, .. }
        if matches!(&base.kind, ast::ExprKind::Name(n)
            if matches!(n.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim")))
}

/// An argument of an inlined call, as its parameter receives it.
pub(crate) enum Arg {
    /// A scalar parameter's value.
    Value(Expr),
    /// A pointer parameter's pointer (into no array yet for a function checked on its own).
    Pointer(pointer::Ptr),
    /// A reference parameter bound to a variable (or a vector's variables) of the caller.
    Alias(Binding),
    /// A reference parameter bound to an element: its pointer variable and the statement that
    /// points it there.
    Ref(u32, Stmt),
    /// A vector passed by value: its copy's components and the statements that fill them.
    Vector([VarId; 4], Scalar, u32, Vec<Stmt>),
    /// A struct: a copy (with the statements that fill it) or the place a reference names; or a
    /// lambda written in the call (with the statements that copy what it captures by value).
    Struct(Binding, Vec<Stmt>),
}

impl KernelChecker<'_, '_> {
    /// What parameter `p` receives from the argument `a`.
    pub(crate) fn argument(&mut self, p: &ast::Param, a: &ast::Expr) -> Result<Arg> {
        if p.ty.base == ast::BaseType::Named && super::groups::is_group_type(&p.ty.base_text) {
            return match self.group(a)? {
                Some(g) if super::groups::holds(&p.ty.base_text, g) => {
                    Ok(Arg::Alias(Binding::Group(g)))
                }
                _ => Err(CheckError::ArgumentType {
                    problem: ArgumentProblem::Group {
                        param: p.name.name.clone(),
                        group: p.ty.base_text.clone(),
                    },
                    span: a.span,
                    help: None,
                }),
            };
        }
        if let (ast::BaseType::Named, Some(kind)) =
            (p.ty.base, super::async_copy::async_type(&p.ty.base_text))
        {
            return self.async_argument(p, kind, a);
        }
        if p.ty.pointer {
            // A reference to a pointer variable (`const float*& p`) is that variable: the
            // function may re-point it.
            if p.ty.reference && !p.pointer_to_pointer {
                if let Some(i) = self.pointer_var(a) {
                    return Ok(Arg::Alias(Binding::Pointer(i)));
                }
            }
            // `const float* const* rptr` given a local array of pointers `const float* r[]`
            // (Anime4KCPP's convolutions): the caller's array, whose elements are pointer
            // variables, where the pointers point to what the parameter's do.
            if let Some(b @ Binding::PointerArray(arr)) = self.pointer_array_arg(p, a) {
                let want = super::vector::elem_of(&ast::TypeName {
                    pointer: false,
                    ..p.ty.clone()
                });
                let first = self.pointer_arrays[arr as usize].first().copied();
                let have = first.map(|i| self.ptr_vars[i as usize].pointee);
                match (want, have) {
                    (Ok(w), Some(h)) if w == h => return Ok(Arg::Alias(b)),
                    _ => {
                        return Err(CheckError::Mismatch {
                            expected: format!(
                                "an array of `{}*` for `{}`",
                                p.ty.base_text, p.name.name
                            ),
                            found: "an array of pointers to another type".into(),
                            span: a.span,
                            help: Some(format!(
                                "C++ converts an array of pointers only to a pointer to its own pointers: declare the array of `{}*`",
                                p.ty.base_text
                            )),
                        })
                    }
                }
            }
            let ptr = self.pointer(a)?;
            // A parameter of a struct type counts its components; a plain one, its elements.
            return Ok(Arg::Pointer(match self.layout_of(&p.ty) {
                None => self.in_vectors(ptr, a),
                Some(l) => self.upcast(ptr, a, &*l?)?,
            }));
        }
        // A function object without data (`Add add; fold(a, n, add)`): the parameter names it.
        if let ast::ExprKind::Name(n) = &a.kind {
            if let Some(b @ Binding::Object(_)) = self.lookup(n) {
                return Ok(Arg::Alias(b));
            }
        }
        // A temporary of one (`fold(a, n, Add())`, `apply(x, y, SumOp<float>())`), or a struct's
        // object member (`apply(s.op, x)`), for a parameter of its struct type: an object of
        // its own.
        if let (ast::ExprKind::Call { .. } | ast::ExprKind::Member { .. }, ast::BaseType::Named) =
            (&a.kind, p.ty.base)
        {
            if let Some(Ok(o)) = self.object_of(a) {
                let own = &self.globals.structs[o.def].name.name;
                let wanted = p.ty.base_text.split('<').next().unwrap_or_default();
                if super::groups::unqualified(wanted) == own {
                    self.objects.push(o);
                    return Ok(Arg::Alias(Binding::Object(self.objects.len() as u32 - 1)));
                }
            }
        }
        // A lambda, for a parameter of its closure type (a template's parameter deduced from
        // it): the parameter is the lambda, called where the body calls it.
        if self.closure_type(a).is_some_and(|c| c == p.ty.base_text) {
            if let ast::ExprKind::Lambda(l) = &a.kind {
                let mut fill = Vec::new();
                let label = format!("the lambda at byte {}", a.span.start);
                let i = self.make_lambda(label, a.span, l, &mut fill);
                return Ok(Arg::Struct(Binding::Lambda(i), fill));
            }
            if let ast::ExprKind::Name(n) = &a.kind {
                if let Some(b @ Binding::Lambda(_)) = self.lookup(n) {
                    return Ok(Arg::Alias(b));
                }
            }
        }
        if let Some(l) = self.layout_of(&p.ty) {
            let (binding, fill) = self.struct_argument(l?, p, a)?;
            return Ok(Arg::Struct(binding, fill));
        }
        // A `const` reference to a value that is no object (`twice((float)i)`, `f(a + 1.0f)`)
        // binds to a temporary holding it, as C++ makes one: a copy, since nothing writes it.
        let by_value = !p.ty.reference || (p.ty.is_const && !is_object(a));
        // So does one to an object of another type, or to a built-in (`threadIdx.x` for a
        // `const int64_t&`: pytorch3d's `KeyValuePair<int64_t, float>(threadIdx.x, d)`).
        if !by_value && p.ty.is_const && !p.ty.pointer && p.ty.base != ast::BaseType::Vector {
            if let Ok(s) = super::scalar_of(&p.ty) {
                let t = self.expr(a)?;
                if self.own_type(a, &t) != s || is_builtin_member(a) {
                    return Ok(Arg::Value(t));
                }
            }
        }
        if by_value && p.ty.base == ast::BaseType::Vector {
            // A copy of the vector, made where the call is.
            let (elem, width) = super::vector::elem_of(&p.ty)?;
            let mut vars = [VarId(0); 4];
            for (k, v) in vars.iter_mut().enumerate().take(width as usize) {
                *v = self.new_local(
                    &format!("{}.{}", p.name.name, super::vector::COMPONENTS[k]),
                    elem,
                    p.name.span,
                );
            }
            let mut fill = Vec::new();
            self.assign_vector(&vars[..width as usize], elem, width, a, &mut fill)?;
            return Ok(Arg::Vector(vars, elem, width, fill));
        }
        if by_value {
            return Ok(Arg::Value(self.expr(a)?));
        }
        // A reference: to a variable, it is that variable; to an element, a pointer to it.
        if let ast::ExprKind::Name(n) = &a.kind {
            match self.lookup(n) {
                Some(b @ (Binding::Local { .. } | Binding::Vector { .. } | Binding::Ref(_))) => {
                    return Ok(Arg::Alias(b))
                }
                Some(Binding::Shared(s)) if self.shared[s as usize].is_scalar() => {}
                // `BR::TempStorage& storage` of a `__shared__ BR::TempStorage temp;` (a
                // layernorm's block reduction in a helper): the shared array it is.
                Some(b @ Binding::Shared(_)) if p.ty.base_text.ends_with("::TempStorage") => {
                    return Ok(Arg::Alias(b))
                }
                // A `const` local folded to its constant (`const uint e = get_ebits<T>() + 1;`):
                // nothing can write through a `const&`, so its value is the object.
                Some(Binding::Constant(..)) if p.ty.is_const => {
                    return Ok(Arg::Value(self.expr(a)?))
                }
                Some(_) => {
                    return Err(CheckError::ArgumentType {
                        problem: ArgumentProblem::Reference {
                            param: p.name.name.clone(),
                        },
                        span: a.span,
                        help: None,
                    })
                }
                None => return Err(self.unknown_name(n, a.span)),
            }
        }
        // A member held in a variable (`add(val.re, val.im)` of a by-value struct, `swap(v.x,
        // v.y)` of a `float2` in registers) is that variable; a `const` reference to a member
        // of another type binds to a temporary copy, as C++ converts it.
        if let ast::ExprKind::Member { base, field } = &a.kind {
            // A vector member in registers (`xr(s.v, w)` of `uint2& a`, cuckoo's siphash): its
            // component variables.
            if p.ty.base == ast::BaseType::Vector && !p.ty.pointer {
                let (elem, width) = super::vector::elem_of(&p.ty)?;
                if let Some(parts) = self.vector_member(a, elem, width) {
                    let mut vars = [VarId(0); 4];
                    let mut held = true;
                    for (slot, part) in vars.iter_mut().zip(parts?) {
                        match part.kind {
                            ExprKind::Var(v) => *slot = v,
                            _ => held = false,
                        }
                    }
                    if held {
                        return Ok(Arg::Alias(Binding::Vector { vars, elem, width }));
                    }
                }
            }
            let place = match self.member_place(a) {
                Some(place) => Some(place),
                None => self.component(base, field, a.span),
            };
            if let Some(Ok(super::vector::Place::Var(var, elem))) = place {
                let is_const = p.ty.is_const;
                if super::scalar_of(&p.ty).is_ok_and(|s| s == elem) {
                    return Ok(Arg::Alias(Binding::Local { var, is_const }));
                }
                if is_const {
                    return Ok(Arg::Value(self.expr(a)?));
                }
                return Err(CheckError::ArgumentType {
                    problem: ArgumentProblem::Reference {
                        param: p.name.name.clone(),
                    },
                    span: a.span,
                    help: Some(format!(
                        "C++ binds a non-const reference only to its own type, here a `{}`: make the parameter `const`, or pass a variable of that type",
                        elem.c_name()
                    )),
                });
            }
        }
        let addr = ast::Expr {
            kind: ast::ExprKind::Unary {
                op: UnOp::AddrOf,
                operand: Box::new(a.clone()),
            },
            span: a.span,
        };
        // `d[0].data[1]` of a vector array member: its offset in vectors, as the pointer's.
        let ptr = self.pointer(&addr)?;
        let ptr = self.in_vectors(ptr, &addr);
        let pointee = super::vector::elem_of(&p.ty)?;
        let i = self.new_pointer(&p.name, pointee, p.ty.is_const);
        let bind = self.point(i, ptr, a.span)?;
        Ok(Arg::Ref(i, bind))
    }
}

impl KernelChecker<'_, '_> {
    /// The scalar type `decltype(e)` names in a trailing return type, with the parameters bound:
    /// a variable's declared type (`decltype(x)` of a `char x` is `char`), else the type of the
    /// expression (`decltype(a + b)` of two `short`s is `int`). The expression is not run.
    pub(crate) fn decltype(&mut self, e: &ast::Expr) -> Result<Scalar> {
        if let ast::ExprKind::Name(n) = &e.kind {
            if let Some(Binding::Local { var, .. }) = self.lookup(n) {
                return Ok(self.locals[var.0 as usize].declared);
            }
        }
        if self.is_pointer(e) || self.vector_shape(e)?.is_some() || self.struct_of(e).is_some() {
            return Err(CheckError::Unsupported {
                what: "`decltype` of a pointer, vector or struct as a return type".into(),
                span: e.span,
                help: Some(
                    "write the return type after `->` (`-> float*`, `-> float4`, `-> P`)".into(),
                ),
            });
        }
        let value = self.expr(e)?;
        Ok(self.own_type(e, &value))
    }
}

/// How an inlined function hands back a pointer or a vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RetShape {
    /// A scalar (in its result variable) or nothing.
    Plain,
    /// A pointer, in this pointer variable.
    Pointer(u32),
    /// A vector, one variable per component.
    Vector([VarId; 4], Scalar, u32),
    /// A struct, in this struct variable.
    Struct(u32),
}

/// The `_sync` form of a pre-CUDA-9 warp function.
fn legacy_sync(name: &str) -> Option<&'static str> {
    Some(match name {
        "__shfl" => "__shfl_sync",
        "__shfl_up" => "__shfl_up_sync",
        "__shfl_down" => "__shfl_down_sync",
        "__shfl_xor" => "__shfl_xor_sync",
        "__any" => "__any_sync",
        "__all" => "__all_sync",
        "__ballot" => "__ballot_sync",
        _ => return None,
    })
}

/// A scalar-returning function's result type; `None` for `void`, `auto` (deduced at the first
/// `return`), pointers and vectors.
pub(crate) fn return_scalar(f: &ast::Function) -> Result<Option<Scalar>> {
    Ok(match f.ret.base {
        _ if f.ret.pointer || f.ret.base == ast::BaseType::Vector => None,
        ast::BaseType::Void | ast::BaseType::Auto => None,
        _ => Some(super::scalar_of(&f.ret)?),
    })
}

/// `result = 0`: a function's result before any `return` sets it.
fn zero_result(var: VarId, ty: Scalar, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign {
            var,
            value: constant(Value::I32(0).cast(ty), span),
        },
        span,
    }
}

/// `found` arguments where `name` takes `lo` to `hi`: fine, or the error that counts them.
pub(crate) fn arity(name: &str, found: usize, lo: usize, hi: usize, span: Span) -> Result<()> {
    if (lo..=hi).contains(&found) {
        return Ok(());
    }
    Err(CheckError::ArgumentCount {
        name: name.to_string(),
        expected: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} or {hi}")
        },
        found,
        span,
    })
}

/// What tells inlined functions apart, for recursion: overloads of one name are different
/// functions (helper_math.h's `clamp(float3, ...)` calls `clamp(float, ...)`), and so are two
/// classes' `operator()(float, float)` (warp-ctc's `log_plus` calls `maximum`'s), so a function
/// is its name, where its definition is written and its parameter types.
pub(crate) fn inlined_as(f: &ast::Function) -> String {
    let params: Vec<&str> = f.params.iter().map(|p| p.ty.base_text.as_str()).collect();
    format!(
        "{}@{}({})",
        f.name.name,
        f.name.span.start,
        params.join(",")
    )
}

impl KernelChecker<'_, '_> {
    /// A call of `f` whose parameters include function pointers (CloverLeaf's `T (*func)(T,
    /// T)`): `f` with each bound to the `__device__` function its argument names (`mx` or
    /// `&mx`), its body's calls of it renamed, and without those parameters and arguments; as
    /// a call through the pointer runs that function. `None` where `f` takes no function
    /// pointer.
    fn through_function_pointers(
        &self,
        f: &ast::Function,
        args: &[ast::Expr],
    ) -> Result<Option<(ast::Function, Vec<ast::Expr>)>> {
        let is_pointer = |p: &ast::Param| {
            p.ty.base_text.contains("(*)")
                || self
                    .globals
                    .fn_pointer_types
                    .contains(p.ty.base_text.as_str())
        };
        if !f.params.iter().any(is_pointer) {
            return Ok(None);
        }
        let mut b = self.file_bindings();
        // A file's function, or CUDA's (`Reduce<double, N>::run(..., min)`), or an instance of
        // a file's function template (GPUPrefixSums' `ScanExclusiveFull<PER_THREAD>`).
        let function = |n: &&String| {
            let known =
                |n: &str| self.globals.functions.contains_key(n) || super::expr::is_known_call(n);
            known(n)
                || super::template::split_instance(n).is_some_and(|(name, _)| {
                    self.globals
                        .functions
                        .get(name.as_str())
                        .is_some_and(|f| !f.template.is_empty())
                })
        };
        let mut g = f.clone();
        g.params.clear();
        let mut kept = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let Some(p) = f.params.get(k).filter(|p| is_pointer(p)) else {
                if let Some(p) = f.params.get(k) {
                    g.params.push(p.clone());
                }
                kept.push(a.clone());
                continue;
            };
            let named = match &a.kind {
                ast::ExprKind::Name(n) => Some(n),
                ast::ExprKind::Unary {
                    op: UnOp::AddrOf,
                    operand,
                } => match &operand.kind {
                    ast::ExprKind::Name(n) => Some(n),
                    _ => None,
                },
                _ => None,
            };
            let Some(name) = named.filter(function) else {
                return Err(CheckError::Unsupported {
                    what: format!(
                        "an argument for the function pointer `{}` that is not a `__device__` function's name",
                        p.name.name
                    ),
                    span: a.span,
                    help: Some(format!(
                        "pass the function itself (`{}(..., f)`): simt binds a function pointer parameter to the function a call names",
                        f.name.name
                    )),
                });
            };
            b.functions.insert(p.name.name.clone(), name.clone());
        }
        // Parameters left for their defaults stay.
        g.params.extend(f.params.iter().skip(args.len()).cloned());
        b.stmts(&mut g.body);
        Ok(Some((g, kept)))
    }
}
