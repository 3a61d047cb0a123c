//! CUDA vector types (`float2`, `float4`, `int2`, ...): components as scalar locals, one wide memory access.

use super::typed::*;
use super::{scalar_of_base, Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BaseType};
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// Component names, in order.
pub(crate) const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// The component type and count of a vector type name.
fn vector_type(name: &str) -> Option<(Scalar, u32)> {
    cuda_vector(name).filter(|&(s, n)| !is_struct_vector(s, n))
}

/// CUDA's vector types (`<vector_types.h>`): `char1` … `double4`, their component type and
/// count (`long1` … `long4` as on Linux, where `long` is 64 bits).
pub(crate) fn cuda_vector(name: &str) -> Option<(Scalar, u32)> {
    if name == "dim3" {
        // `dim3` is `uint3` with a constructor whose missing components are 1.
        return Some((Scalar::U32, 3));
    }
    let (base, n) = name.split_at(name.len().checked_sub(1)?);
    let n = n.parse::<u32>().ok().filter(|n| (1..=4).contains(n))?;
    let s = match base {
        "char" => Scalar::I8,
        "uchar" => Scalar::U8,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        // `long` is 64 bits, as CUDA on Linux (LP64) has it: `long4` is `longlong4`'s layout.
        "longlong" | "long" => Scalar::I64,
        "ulonglong" | "ulong" => Scalar::U64,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        // cuda_fp16.h's and cuda_bf16.h's pairs (there are no other widths).
        "half" | "__half" if n == 2 => Scalar::F16,
        "nv_bfloat16" | "__nv_bfloat16" if n == 2 => Scalar::BF16,
        _ => return None,
    };
    Some((s, n))
}

/// Vectors that are structs of members rather than one wide value: one or three components
/// (`float3` is 12 bytes, read a member at a time), or more than 16 bytes (`double4`: no
/// access is wider than 16 bytes).
pub(crate) fn is_struct_vector(s: Scalar, n: u32) -> bool {
    n == 1 || n == 3 || s.size() * n > 16
}

/// The vector a struct member's layout stands for, where it is one simt holds as a vector
/// (`float4 val;` of a union, `float4 b;` of a struct in memory), not as a struct of members.
pub(crate) fn value_vector_layout(l: &super::structs::Layout) -> Option<(Scalar, u32)> {
    let (s, n) = cuda_vector(&l.name)?;
    (!is_struct_vector(s, n)).then_some((s, n))
}

/// Whether calls of `f` may give a vector: it returns one, or its template parameter (an
/// instance for `half2` does).
fn returns_vector(f: &ast::Function) -> bool {
    !f.ret.pointer
        && (f.ret.base == BaseType::Vector
            || (f.ret.base == BaseType::Named
                && f.template.iter().any(|t| t.name.name == f.ret.base_text)))
}

/// `(elem, width)` of a type's base: width 1 for scalars, 2 or 4 for vector types.
pub(crate) fn elem_of(ty: &ast::TypeName) -> Result<(Scalar, u32)> {
    if ty.base != BaseType::Vector {
        return Ok((scalar_of_base(ty)?, 1));
    }
    vector_type(&ty.base_text).ok_or_else(|| CheckError::Unsupported {
        what: format!("the type `{}`", ty.base_text),
        span: ty.span,
        help: Some(
            "vector types are CUDA's: char2 … double2 and char4 … float4 (16 bytes at most)".into(),
        ),
    })
}

impl KernelChecker<'_, '_> {
    /// An inlined call of `f`, which returns a vector of `(elem, width)`: the call, then the
    /// components it returned.
    fn vector_call(
        &mut self,
        f: &ast::Function,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        (elem, width): (Scalar, u32),
        mismatch: &dyn Fn(String, Span) -> CheckError,
    ) -> Result<VecValue> {
        let call = self.inline_call(f, (targs, args), span, true)?;
        self.returned_vector(call, &f.name.name, span, (elem, width), mismatch)
    }

    /// The value of `call`, an inlined call of `name` (a function or a member function) that
    /// should return a vector of `(elem, width)`: the call, then the components it returned.
    fn returned_vector(
        &self,
        call: Expr,
        name: &str,
        span: Span,
        (elem, width): (Scalar, u32),
        mismatch: &dyn Fn(String, Span) -> CheckError,
    ) -> Result<VecValue> {
        // A template's instance (or specialisation) may return a scalar after all.
        let super::intrinsics::RetShape::Vector(vars, el, w) = self.last_ret else {
            return Err(mismatch(format!("`{name}(...)`"), span));
        };
        if (el, w) != (elem, width) {
            return Err(mismatch(format!("a `{}`", type_name(el, w)), span));
        }
        Ok(VecValue::Call(
            call,
            var_parts(&vars[..w as usize], el, span),
        ))
    }
}

impl KernelChecker<'_, '_> {
    /// Whether a function of this name returns a vector, in any of its overloads (`half
    /// twice(half)` beside `half2 twice(half2)`: the call's arguments choose).
    fn some_overload_returns_vector(&self, name: &str) -> bool {
        match self.globals.overloads.get(name) {
            Some(all) => all.iter().any(|f| returns_vector(f)),
            None => self
                .globals
                .functions
                .get(name)
                .is_some_and(|f| returns_vector(f)),
        }
    }
}

/// Reads of a vector's component variables.
pub(crate) fn var_parts(vars: &[VarId], elem: Scalar, span: Span) -> Vec<Expr> {
    vars.iter()
        .map(|&v| Expr {
            kind: ExprKind::Var(v),
            ty: elem.promoted(),
            span,
        })
        .collect()
}

/// A vector value: its components, one wide load, or an inlined call and then its components.
pub(crate) enum VecValue {
    Parts(Vec<Expr>),
    Load(Mem, Expr),
    Call(Expr, Vec<Expr>),
}

impl KernelChecker<'_, '_> {
    /// `float4 v = ...;`: one scalar local per component.
    pub(crate) fn declare_vector(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let (elem, width) = elem_of(ty)?;
        let mut vars = [VarId(0); 4];
        for (k, slot) in vars.iter_mut().enumerate().take(width as usize) {
            *slot = self.new_local(
                &format!("{}.{}", d.name.name, COMPONENTS[k]),
                elem,
                d.name.span,
            );
            out.push(Stmt {
                kind: StmtKind::Assign {
                    var: *slot,
                    value: Expr {
                        kind: ExprKind::Const(Value::I32(0).cast(elem)),
                        ty: elem.promoted(),
                        span: d.name.span,
                    },
                },
                span: d.name.span,
            });
        }
        let init = match &d.init {
            Some(init) => self.assign_vector(&vars[..width as usize], elem, width, init, out),
            None => Ok(()),
        };
        // Declared even when its initialiser is refused: one error, not one per later use.
        self.declare(&d.name, Binding::Vector { vars, elem, width });
        init
    }

    /// The vector type of `e` if it is a vector variable or a vector element (`(elem, width)`),
    /// for deducing a template parameter from it.
    pub(crate) fn vector_shape(&mut self, e: &ast::Expr) -> Result<Option<(Scalar, u32)>> {
        if let ast::ExprKind::Name(n) = &e.kind {
            match self.lookup(n) {
                Some(Binding::Vector { elem, width, .. }) => return Ok(Some((elem, width))),
                // `float2& yz = *reinterpret_cast<float2*>(&q.y);`: a reference to a vector.
                Some(Binding::Ref(i)) if self.ptr_vars[i as usize].pointee.1 > 1 => {
                    return Ok(Some(self.ptr_vars[i as usize].pointee));
                }
                _ => {}
            }
        }
        if let Some(shape) = self.returned_vector_ref(e) {
            return Ok(Some(shape));
        }
        if matches!(e.kind, ast::ExprKind::Index { .. }) && self.is_vector_place(e) {
            let (mem, _) = self.element(e)?;
            return Ok(Some((mem.elem, mem.width)));
        }
        // `*p` of a pointer to vectors (`*&v[i]`, what `__ldg(&v[i])` reads).
        if let ast::ExprKind::Unary {
            op: ast::UnOp::Deref,
            operand,
        } = &e.kind
        {
            if self.is_pointer(operand) {
                if let Some(m) = self.pointer(operand)?.mem.filter(|m| m.width > 1) {
                    return Ok(Some((m.elem, m.width)));
                }
            }
        }
        Ok(None)
    }

    /// `view(i, j)` of a struct whose `operator()` returns a vector (SpFFT's
    /// `GPUArrayConstView2D<double2>`), as the member call `view.operator()(i, j)` it stands for.
    fn vector_call_operator(&mut self, e: &ast::Expr) -> Option<ast::Expr> {
        let ast::ExprKind::Call {
            callee,
            targs,
            args,
        } = &e.kind
        else {
            return None;
        };
        let object = ast::Expr {
            kind: ast::ExprKind::Name(callee.name.clone()),
            span: callee.span,
        };
        let l = self.struct_of(&object)?;
        let f = self.member_overload(&l, "operator()", (targs, args))?;
        if f.ret.base != BaseType::Vector || f.ret.pointer || f.ret.reference {
            return None;
        }
        Some(ast::Expr {
            kind: ast::ExprKind::Method {
                object: Box::new(object),
                method: ast::Ident {
                    name: "operator()".into(),
                    span: callee.span,
                },
                targs: targs.clone(),
                args: args.clone(),
            },
            span: e.span,
        })
    }

    /// The vector type of any expression of one: a variable, an element, or a computed vector
    /// (what `auto v = ...;` takes).
    pub(crate) fn value_vector_shape(&mut self, e: &ast::Expr) -> Result<Option<(Scalar, u32)>> {
        match self.computed_vector(e)? {
            Some(shape) => Ok(Some(shape)),
            None => self.vector_shape(e),
        }
    }

    /// The vector type of an expression that computes a vector (`make_float2(a, b)`, a call of
    /// a function returning one, `__ldg(&v[i])`, `__hadd2(a, b)`, `a + b` on `half2`s), if it
    /// is one; variables and elements are [`Self::vector_shape`]'s.
    pub(crate) fn computed_vector(&mut self, e: &ast::Expr) -> Result<Option<(Scalar, u32)>> {
        if let Some(method) = self.vector_call_operator(e) {
            return self.computed_vector(&method);
        }
        Ok(match &e.kind {
            ast::ExprKind::Call { callee, args, .. } => {
                let name = super::groups::unqualified(&callee.name);
                if super::half2::is_pair_function(name) {
                    Some(self.pair_gives(name, args))
                } else if let Some(made) = name.strip_prefix("make_").and_then(vector_type) {
                    Some(made)
                } else if crate::texture::Fetch::of_name(name).is_some() {
                    // `tex2D<float4>(t, x, y)`: the vector it names.
                    match e.kind {
                        ast::ExprKind::Call { ref targs, .. } => match targs.as_slice() {
                            [ast::TemplateArg::Type(t)] if t.base == BaseType::Vector => {
                                vector_type(&t.base_text)
                            }
                            _ => None,
                        },
                        _ => None,
                    }
                } else if let Some(shape) = vector_type(name) {
                    Some(shape)
                } else if super::expr::is_cache_load(name) && args.len() == 1 {
                    let target = super::expr::deref(&args[0]);
                    match self.computed_vector(&target)? {
                        Some(shape) => Some(shape),
                        None => self.vector_shape(&target)?,
                    }
                } else if let Some(Binding::Lambda(i)) = self.lookup(&callee.name) {
                    let ret = &self.lambdas[i as usize].0.ret;
                    vector_type(&ret.base_text)
                        .filter(|_| ret.base == BaseType::Vector && !ret.pointer)
                } else {
                    let targs = match &e.kind {
                        ast::ExprKind::Call { targs, .. } => targs.as_slice(),
                        _ => &[],
                    };
                    let returns = |f: &ast::Function| {
                        (f.ret.base == BaseType::Vector && !f.ret.pointer)
                            .then(|| vector_type(&f.ret.base_text))
                            .flatten()
                    };
                    // `InternalType<T>::zero_vec4()`: a static member function (StyleGAN3).
                    if callee.name.contains("::") {
                        if let Some(m) = self.static_member_fn(&callee.name, e.span, args) {
                            return Ok(returns(&m.f));
                        }
                    }
                    let f = match self.declared_specialization(name, targs)? {
                        Some(f) => Some(f),
                        None => self.file_callee(name, targs, args)?,
                    };
                    // `load_as<uint4>(p)` of `template <typename T, ...> T load_as(...)`: the
                    // vector its explicit argument names.
                    let explicit = |f: &ast::Function| {
                        let k = f
                            .template
                            .iter()
                            .position(|p| p.name.name == f.ret.base_text)?;
                        match targs.get(k) {
                            Some(ast::TemplateArg::Type(t))
                                if t.base == BaseType::Vector && !f.ret.pointer =>
                            {
                                vector_type(&t.base_text)
                            }
                            _ => None,
                        }
                    };
                    let Some(f) = f else {
                        return Ok(None);
                    };
                    if let Some(shape) = returns(f).or_else(|| explicit(f)) {
                        return Ok(Some(shape));
                    }
                    // `lerp(lerp(a, b, t), ...)` of `template <class T> T lerp(const T& a, ...)`:
                    // the type deduced from the arguments.
                    let deduces =
                        !f.ret.pointer && f.template.iter().any(|p| p.name.name == f.ret.base_text);
                    if !deduces {
                        return Ok(None);
                    }
                    match self.function_instance(f, targs, args, e.span) {
                        Ok(instance) => returns(&instance),
                        Err(_) => None,
                    }
                }
            }
            // C++ looks for a file's operator only where an operand is of a class type: `x * y`
            // of two floats stays the built-in product beside `float2 operator*(float2, float2)`.
            _ if self.file_operator(e).is_some() && self.has_class_operand(e)? => {
                let call = self.file_operator(e).expect("checked: a file operator");
                self.computed_vector(&call)?
            }
            // A tile's shuffle of a vector (`tile.shfl_xor(v, 1)`): the vector's shape.
            ast::ExprKind::Method {
                object,
                method,
                args,
                ..
            } if is_shuffle(&method.name)
                && args.len() == 2
                && matches!(self.group(object)?, Some(super::groups::Group::Tile(_))) =>
            {
                match self.value_vector_shape(&args[0])? {
                    Some(shape) => Some(shape),
                    // A struct's vector member (`result.y` of a `uint4`).
                    None => self
                        .struct_of(&args[0])
                        .and_then(|l| cuda_vector(&l.name))
                        .filter(|&(s, n)| !is_struct_vector(s, n)),
                }
            }
            ast::ExprKind::Method { object, method, .. } => {
                self.vector_method(object, &method.name)
            }
            ast::ExprKind::Ternary { then, .. } => self.value_vector_shape(then)?,
            ast::ExprKind::Binary { lhs, .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Neg,
                operand: lhs,
            } => {
                let shape = match self.computed_vector(lhs)? {
                    Some(shape) => Some(shape),
                    None => self.vector_shape(lhs)?,
                };
                // Only pairs of 16-bit floats have operators of their own.
                shape.filter(|&(elem, width)| elem.is_half() && width == 2)
            }
            _ => None,
        })
    }

    /// Whether an operand of the operator expression `e` is a vector or a struct.
    fn has_class_operand(&mut self, e: &ast::Expr) -> Result<bool> {
        let operands = match &e.kind {
            ast::ExprKind::Binary { lhs, rhs, .. } => vec![&**lhs, &**rhs],
            ast::ExprKind::Unary { operand, .. } => vec![&**operand],
            _ => return Ok(false),
        };
        for o in operands {
            if self.value_vector_shape(o)?.is_some() || self.struct_of(o).is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `a + b`, `-a` or `~a` on vectors where the file defines that operator (helper_math.h's,
    /// ccminer's `uint2 operator~(uint2)`): the call `operator+(a, b)` it stands for.
    fn file_operator(&self, e: &ast::Expr) -> Option<ast::Expr> {
        let (name, args) = match &e.kind {
            ast::ExprKind::Binary { op, lhs, rhs, .. } => (
                format!("operator{}", op.symbol()),
                vec![(**lhs).clone(), (**rhs).clone()],
            ),
            ast::ExprKind::Unary { op, operand } => {
                let symbol = match op {
                    ast::UnOp::Neg => "-",
                    ast::UnOp::Plus => "+",
                    ast::UnOp::BitNot => "~",
                    _ => return None,
                };
                (format!("operator{symbol}"), vec![(**operand).clone()])
            }
            _ => return None,
        };
        let defined = self.globals.overloads.get(name.as_str())?;
        defined
            .iter()
            .any(|f| f.params.len() == args.len() && returns_vector(f))
            .then(|| ast::Expr {
                kind: ast::ExprKind::Call {
                    callee: ast::Ident { name, span: e.span },
                    targs: Vec::new(),
                    args,
                },
                span: e.span,
            })
    }

    /// `a == b` of vectors where the file defines a number-valued `operator==` (kaolin's on
    /// `float2`): the call `operator==(a, b)` it stands for. C++ looks for a file's operator
    /// only where an operand is of a class type, so two numbers keep the built-in operator.
    pub(crate) fn scalar_file_operator(&mut self, e: &ast::Expr) -> Result<Option<ast::Expr>> {
        let ast::ExprKind::Binary { op, lhs, rhs, .. } = &e.kind else {
            return Ok(None);
        };
        // Every expression passes here: a file without operators costs no name built.
        if !self.globals.operators {
            return Ok(None);
        }
        let name = format!("operator{}", op.symbol());
        let Some(defined) = self.globals.overloads.get(name.as_str()) else {
            return Ok(None);
        };
        if !defined
            .iter()
            .any(|f| f.params.len() == 2 && !returns_vector(f))
        {
            return Ok(None);
        }
        if self.value_vector_shape(lhs)?.is_none() && self.value_vector_shape(rhs)?.is_none() {
            return Ok(None);
        }
        Ok(Some(ast::Expr {
            kind: ast::ExprKind::Call {
                callee: ast::Ident { name, span: e.span },
                targs: Vec::new(),
                args: vec![(**lhs).clone(), (**rhs).clone()],
            },
            span: e.span,
        }))
    }

    /// `make_float2(a, b).y`, `__hadd2(a, b).x`, `f(v).z`: component `field` of a computed
    /// vector, after whatever computes it; `None` when `base` computes no vector.
    pub(crate) fn computed_component(
        &mut self,
        base: &ast::Expr,
        field: &ast::Ident,
        span: Span,
    ) -> Option<Result<Expr>> {
        let (elem, width) = match self.computed_vector(base) {
            Ok(Some(shape)) => shape,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let Some(k) = COMPONENTS[..width as usize]
            .iter()
            .position(|c| *c == field.name)
        else {
            return Some(Err(CheckError::UnknownName {
                name: field.name.clone(),
                span: field.span,
                suggestion: Some(format!(
                    "a `{}` has the components {}",
                    type_name(elem, width),
                    COMPONENTS[..width as usize].join(", ")
                )),
            }));
        };
        Some(self.staged(base, elem, width).map(|(stmts, parts)| {
            let part = parts[k].clone();
            if stmts.is_empty() {
                return part;
            }
            let declared = self.half_of(&part).unwrap_or(part.ty);
            let result = self.new_local(
                &format!("{}.{}", type_name(elem, width), field.name),
                declared,
                span,
            );
            let mut body = stmts;
            body.push(Stmt {
                kind: StmtKind::Assign {
                    var: result,
                    value: part,
                },
                span,
            });
            Expr {
                kind: ExprKind::Inline {
                    name: type_name(elem, width),
                    body,
                    result: Some(result),
                },
                ty: declared.promoted(),
                span,
            }
        }))
    }

    /// Whether an assignment target is a whole vector (a vector variable or element).
    pub(crate) fn is_vector_place(&self, target: &ast::Expr) -> bool {
        let mut cur = target;
        let mut through = false;
        loop {
            cur = match &cur.kind {
                ast::ExprKind::Index { base, .. }
                | ast::ExprKind::Unary {
                    op: ast::UnOp::Deref,
                    operand: base,
                } => base,
                // `*(out + i)`: pointer arithmetic under a dereference.
                ast::ExprKind::Binary {
                    op: ast::BinOp::Add | ast::BinOp::Sub,
                    lhs,
                    ..
                } if through => lhs,
                // `*out++` (exllama's `*out2_ptr++ = m2;`).
                ast::ExprKind::IncDec { target, .. } if through => target,
                _ => break,
            };
            through = true;
        }
        let element = !matches!(target.kind, ast::ExprKind::Name(_));
        match &cur.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Vector { .. }) => true,
                Some(Binding::Pointer(i)) => self.ptr_vars[i as usize].pointee.1 > 1 && element,
                Some(Binding::Ref(i)) => self.ptr_vars[i as usize].pointee.1 > 1 && !element,
                Some(Binding::LocalArray(l)) => self.local_arrays[l as usize].width > 1 && element,
                Some(Binding::Param(p)) => {
                    matches!(self.params[p as usize].kind, ParamKind::Buffer { width, .. } if width > 1)
                        && !matches!(target.kind, ast::ExprKind::Name(_))
                }
                Some(Binding::Shared(s)) => {
                    self.shared[s as usize].width > 1
                        && !matches!(target.kind, ast::ExprKind::Name(_))
                }
                _ => false,
            },
            ast::ExprKind::Cast { ty, .. } => ty.pointer && ty.base == BaseType::Vector,
            // `at(v, i)->y` of the file's `__device__ float4* at(...)`.
            ast::ExprKind::Call { callee, .. } => {
                element
                    && self
                        .globals
                        .overloads
                        .get(super::groups::unqualified(&callee.name))
                        .is_some_and(|fs| {
                            !fs.is_empty()
                                && fs
                                    .iter()
                                    .all(|f| f.ret.pointer && f.ret.base == BaseType::Vector)
                        })
            }
            // `out.ptr(y)[x]` of a member function returning a `uchar4*` (PCL's `PtrStep`).
            ast::ExprKind::Method { object, method, .. } => {
                element
                    && self
                        .pointer_method(object, &method.name)
                        .is_some_and(|f| f.ret.base == BaseType::Vector)
            }
            // `p.wb[i]` of a struct's `int4* wb` (nvdiffrast's `p.workBuffer[idx++] = ...`);
            // `p.wb` itself is the pointer (CUDASW4's `: tmp(tmp_)` of a `float2* tmp`).
            ast::ExprKind::Member { .. } => {
                through
                    && self
                        .member_pointer(cur)
                        .is_some_and(|i| self.ptr_vars[i as usize].pointee.1 > 1)
            }
            _ => false,
        }
    }

    /// Whether `base.field` names a component: `base` is a vector variable or a vector element.
    pub(crate) fn is_vector_component(&mut self, base: &ast::Expr) -> bool {
        if self.returned_vector_ref(base).is_some() {
            return true;
        }
        match &base.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Vector { .. }) => true,
                Some(Binding::Ref(i)) => self.ptr_vars[i as usize].pointee.1 > 1,
                _ => false,
            },
            // `(*p).x`, `p->x` and `((short2&)u).y` (read as `(*(short2*)&u).y`) are `p[0].x`.
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => self.is_vector_place(base),
            _ => false,
        }
    }

    /// `v = value;` or `a[i] = value;` for a vector target.
    pub(crate) fn vector_assignment(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if let ast::ExprKind::Name(n) = &target.kind {
            if let Some(Binding::Vector { vars, elem, width }) = self.lookup(n) {
                return self.assign_vector(&vars[..width as usize], elem, width, value, out);
            }
        }
        let (mem, index) = match self.returned_place(target) {
            // `buf(y, x) = make_uchar4(...);` through a returned `uchar4&`.
            Some(place) if self.returned_vector_ref(target).is_some() => {
                self.not_const_returned(target)?;
                place?
            }
            _ => {
                self.writable(target)?;
                self.element(target)?
            }
        };
        self.not_constant(mem, target.span)?;
        let values = self.vector_components(value, mem.elem, mem.width, out)?;
        out.push(Stmt {
            kind: StmtKind::VecStore { mem, index, values },
            span: target.span.to(value.span),
        });
        Ok(())
    }

    /// `tile.shfl_xor(v, k)` (and `shfl`, `shfl_up`, `shfl_down`) of a vector `v` through a
    /// cooperative-groups tile: one 32-bit shuffle per component, as CUDA's `shfl` of a type
    /// wider than 32 bits is; `None` when `e` is no such shuffle.
    fn tile_vector_shuffle(
        &mut self,
        e: &ast::Expr,
        elem: Scalar,
        width: u32,
    ) -> Option<Result<VecValue>> {
        let ast::ExprKind::Method {
            object,
            method,
            args,
            ..
        } = &e.kind
        else {
            return None;
        };
        if !is_shuffle(&method.name) {
            return None;
        }
        let kind = match method.name.as_str() {
            "shfl" => crate::value::ShflKind::Idx,
            "shfl_up" => crate::value::ShflKind::Up,
            "shfl_down" => crate::value::ShflKind::Down,
            _ => crate::value::ShflKind::Xor,
        };
        if args.len() != 2 || width < 2 {
            return None;
        }
        let n = match self.group(object) {
            Ok(Some(super::groups::Group::Tile(n))) => n,
            Ok(_) => return None,
            Err(err) => return Some(Err(err)),
        };
        Some((|| {
            let mut first = Vec::new();
            let parts = self.vector_components(&args[0], elem, width, &mut first)?;
            let arg = self.expr(&args[1])?;
            let mut shuffled = Vec::new();
            for part in parts {
                shuffled.push(self.tile_shuffle(n, kind, part, arg.clone(), e.span)?);
            }
            if first.is_empty() {
                return Ok(VecValue::Parts(shuffled));
            }
            let call = Expr {
                kind: ExprKind::Inline {
                    name: method.name.clone(),
                    body: first,
                    result: None,
                },
                ty: Scalar::Bool,
                span: e.span,
            };
            Ok(VecValue::Call(call, shuffled))
        })())
    }

    /// The components of the vector value `e` of `width` `elem`s, as expressions.
    pub(crate) fn vector_components(
        &mut self,
        e: &ast::Expr,
        elem: Scalar,
        width: u32,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        Ok(match self.vec_value(e, elem, width)? {
            VecValue::Parts(parts) => parts,
            VecValue::Call(call, parts) => {
                out.push(Stmt {
                    kind: StmtKind::Eval(call),
                    span: e.span,
                });
                parts
            }
            VecValue::Load(mem, index) => {
                // The copy has the loaded memory's components.
                let vars: Vec<VarId> = (0..mem.width as usize)
                    .map(|k| {
                        let name = format!("copy.{}", COMPONENTS[k]);
                        self.new_local(&name, mem.elem, e.span)
                    })
                    .collect();
                out.push(Stmt {
                    kind: StmtKind::VecLoad {
                        mem,
                        index,
                        vars: vars.clone(),
                    },
                    span: e.span,
                });
                vars.into_iter()
                    .map(|v| Expr {
                        kind: ExprKind::Var(v),
                        ty: mem.elem.promoted(),
                        span: e.span,
                    })
                    .collect()
            }
        })
    }

    pub(crate) fn assign_vector(
        &mut self,
        vars: &[VarId],
        elem: Scalar,
        width: u32,
        value: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        match self.vec_value(value, elem, width)? {
            VecValue::Parts(parts) => {
                for (&var, value) in vars.iter().zip(parts) {
                    out.push(Stmt {
                        span: value.span,
                        kind: StmtKind::Assign { var, value },
                    });
                }
            }
            VecValue::Load(mem, index) => out.push(Stmt {
                kind: StmtKind::VecLoad {
                    mem,
                    index,
                    vars: vars.to_vec(),
                },
                span: value.span,
            }),
            VecValue::Call(call, parts) => {
                out.push(Stmt {
                    kind: StmtKind::Eval(call),
                    span: value.span,
                });
                for (&var, value) in vars.iter().zip(parts) {
                    out.push(Stmt {
                        span: value.span,
                        kind: StmtKind::Assign { var, value },
                    });
                }
            }
        }
        Ok(())
    }

    /// `e`, an object of a class derived from the vector type of `width` `elem`s (SOFA's
    /// `CudaVec4<float> : public float4`), given for that vector: its base subobject, the
    /// class's first members.
    fn base_vector(&mut self, e: &ast::Expr, elem: Scalar, width: u32) -> Option<Result<VecValue>> {
        let l = self.struct_of(e)?;
        let want = type_name(elem, width);
        let first = (0..width).map(|k| (elem, k * elem.size()));
        if l.name == want
            || !self.derives_from(&l, &want)
            || !first.eq(l.leaves.iter().take(width as usize).copied())
        {
            return None;
        }
        let mut body = Vec::new();
        let values = match self.struct_value(e, &l, &mut body) {
            Ok(values) => values,
            Err(err) => return Some(Err(err)),
        };
        let parts = values[..width as usize].to_vec();
        if body.is_empty() {
            return Some(Ok(VecValue::Parts(parts)));
        }
        let call = Expr {
            kind: ExprKind::Inline {
                name: want,
                body,
                result: None,
            },
            ty: Scalar::Bool,
            span: e.span,
        };
        Some(Ok(VecValue::Call(call, parts)))
    }

    /// A value of vector type `(elem, width)`: a vector variable, `make_float4(...)` or a vector element.
    pub(crate) fn vec_value(
        &mut self,
        e: &ast::Expr,
        elem: Scalar,
        width: u32,
    ) -> Result<VecValue> {
        if let Some(pair) = self.pair_value(e, elem, width) {
            return pair;
        }
        if let Some(parts) = self.vector_member(e, elem, width) {
            return parts.map(VecValue::Parts);
        }
        if let Some(base) = self.base_vector(e, elem, width) {
            return base;
        }
        if let Some(shuffled) = self.tile_vector_shuffle(e, elem, width) {
            return shuffled;
        }
        // A struct's `operator()` returning a vector: the member call it stands for.
        if let Some(method) = self.vector_call_operator(e) {
            return self.vec_value(&method, elem, width);
        }
        let want = type_name(elem, width);
        let mismatch = |found: String, span: Span| CheckError::Mismatch {
            expected: format!("a `{want}`"),
            found,
            span,
            help: Some(format!(
                "use `make_{want}(...)`, a `{want}` variable or an element of a `{want}*`"
            )),
        };
        match &e.kind {
            // `(a00 = *((const float4*)&p[i]))` as a value (nvdiffrast's `avg += (a00 = ...)`):
            // the assignment, then the variable.
            ast::ExprKind::Assign {
                target,
                op: None,
                value,
                ..
            } => {
                let vars = match &target.kind {
                    ast::ExprKind::Name(n) => match self.lookup(n) {
                        Some(Binding::Vector {
                            vars,
                            elem: el,
                            width: w,
                        }) if (el, w) == (elem, width) => vars,
                        _ => return Err(mismatch(format!("`{n}`"), target.span)),
                    },
                    _ => {
                        return Err(CheckError::Unsupported {
                            what: "a vector assignment to an element used as a value".into(),
                            span: e.span,
                            help: Some(
                                "assign first, then use the element: `a[i] = v; s += a[i];`".into(),
                            ),
                        })
                    }
                };
                let mut body = Vec::new();
                self.vector_assignment(target, value, &mut body)?;
                let call = Expr {
                    kind: ExprKind::Inline {
                        name: "=".into(),
                        body,
                        result: None,
                    },
                    ty: Scalar::Bool,
                    span: e.span,
                };
                Ok(VecValue::Call(
                    call,
                    var_parts(&vars[..width as usize], elem, e.span),
                ))
            }
            // `{}`, `{x, y}`: C's aggregate initialisation, components past the list are zero.
            ast::ExprKind::List(items) if items.len() <= width as usize => {
                let mut parts = Vec::new();
                for item in items {
                    let t = self.expr(item)?;
                    parts.push(self.convert(t, elem));
                }
                while parts.len() < width as usize {
                    parts.push(super::expr::constant(Value::I32(0).cast(elem), e.span));
                }
                Ok(VecValue::Parts(parts))
            }
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Vector {
                    vars,
                    elem: el,
                    width: w,
                }) if el == elem && w == width => {
                    Ok(VecValue::Parts(var_parts(&vars[..w as usize], el, e.span)))
                }
                Some(Binding::Vector {
                    elem: el, width: w, ..
                }) => Err(mismatch(format!("a `{}`", type_name(el, w)), e.span)),
                Some(Binding::Ref(i)) => {
                    let pv = &self.ptr_vars[i as usize];
                    match pv.mem {
                        Some(mem) if (mem.elem, mem.width) == (elem, width) => {
                            let index = Expr {
                                kind: ExprKind::Var(pv.var),
                                ty: Scalar::I64,
                                span: e.span,
                            };
                            Ok(VecValue::Load(mem, index))
                        }
                        _ => Err(mismatch(format!("`{n}`"), e.span)),
                    }
                }
                _ => Err(mismatch(format!("`{n}`"), e.span)),
            },
            // A call returning a reference to a vector: the element it names.
            _ if self.returned_vector_ref(e).is_some() => {
                let (mem, index) = self
                    .returned_place(e)
                    .expect("matched: a call returning a reference")?;
                if (mem.elem, mem.width) != (elem, width) {
                    return Err(mismatch(
                        format!("a `{}`", type_name(mem.elem, mem.width)),
                        e.span,
                    ));
                }
                Ok(VecValue::Load(mem, index))
            }
            ast::ExprKind::Call { callee, args, .. }
                if super::expr::is_cache_load(&callee.name) && args.len() == 1 =>
            {
                self.vec_value(&super::expr::deref(&args[0]), elem, width)
            }
            // A texture object's fetch (`tex2D<float4>(t, x, y)`): one fetch per component.
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if !targs.is_empty() && crate::texture::Fetch::of_name(&callee.name).is_some() => {
                let fetch = crate::texture::Fetch::of_name(&callee.name).expect("matched: a fetch");
                let found = match targs.as_slice() {
                    [ast::TemplateArg::Type(t)] if t.base == BaseType::Vector => {
                        cuda_vector(&t.base_text)
                    }
                    _ => None,
                };
                if found != Some((elem, width)) {
                    let what = match targs.as_slice() {
                        [ast::TemplateArg::Type(t)] => format!("a `{}`", t.base_text),
                        _ => format!("`{}`", callee.name),
                    };
                    return Err(mismatch(what, e.span));
                }
                let parts = self.texture_fetch_parts(fetch, targs, args, e.span)?;
                Ok(VecValue::Parts(
                    parts.into_iter().map(|p| self.convert(p, elem)).collect(),
                ))
            }
            // A texture of vectors read at an index: its element.
            ast::ExprKind::Call { callee, args, .. }
                if callee.name == "tex1Dfetch" && args.len() == 2 =>
            {
                let element = ast::Expr {
                    kind: ast::ExprKind::Index {
                        base: Box::new(args[0].clone()),
                        index: Box::new(args[1].clone()),
                    },
                    span: e.span,
                };
                self.vec_value(&element, elem, width)
            }
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => {
                let (mem, index) = self.element(e)?;
                let (mem, index) = self.whole_vector(e, mem, index, width);
                if mem.elem != elem || mem.width != width {
                    return Err(mismatch(
                        format!("a `{}`", type_name(mem.elem, mem.width)),
                        e.span,
                    ));
                }
                Ok(VecValue::Load(mem, index))
            }
            // `make_T2<float2, float>(x, y)`: the explicit specialisation of a template the file
            // declares without a body (SHOC's FFT codelets).
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if !targs.is_empty()
                && self
                    .declared_specialization(super::groups::unqualified(&callee.name), targs)
                    .ok()
                    .flatten()
                    .is_some_and(returns_vector) =>
            {
                let name = super::groups::unqualified(&callee.name);
                let f = self
                    .declared_specialization(name, targs)?
                    .expect("matched: a specialisation");
                self.vector_call(f, (&[], args), e.span, (elem, width), &mismatch)
            }
            // `InternalType<T>::zero_vec4()`: a static member function returning a vector
            // (StyleGAN3's filtered_lrelu).
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if callee.name.contains("::")
                && self
                    .static_member_fn(&callee.name, e.span, args)
                    .is_some_and(|m| returns_vector(&m.f)) =>
            {
                let m = self
                    .static_member_fn(&callee.name, e.span, args)
                    .expect("matched: a static member");
                self.with_statics(&m, |s, f| {
                    s.vector_call(f, (targs, args), e.span, (elem, width), &mismatch)
                })
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if self.some_overload_returns_vector(super::groups::unqualified(&callee.name))
                && !self.builtin_wins(super::groups::unqualified(&callee.name), args) =>
            {
                let name = super::groups::unqualified(&callee.name);
                let f = match self.overload_with(name, targs, args)? {
                    Some(f) => f,
                    None => self.globals.functions[name],
                };
                self.vector_call(f, (targs, args), e.span, (elem, width), &mismatch)
            }
            _ if self.file_operator(e).is_some() => {
                let call = self.file_operator(e).expect("checked: a file operator");
                self.vec_value(&call, elem, width)
            }
            // A member function returning a vector (`view.item_half2(r, c)`).
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
                ..
            } if self.vector_method(object, &method.name).is_some() => {
                let call = self.method_call(object, &method.name, (targs, args), e.span, true)?;
                self.returned_vector(call, &method.name, e.span, (elem, width), &mismatch)
            }
            // A lambda returning a vector (cuda-samples' `auto idxToElem = [&result](unsigned
            // idx) -> const uint4 { ... };`): inlined in the scopes it was made in.
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if matches!(self.lookup(&callee.name), Some(Binding::Lambda(_))) => {
                let Some(Binding::Lambda(i)) = self.lookup(&callee.name) else {
                    unreachable!("matched: a lambda")
                };
                let (f, scopes) = self.lambdas[i as usize].clone();
                if f.ret.base != BaseType::Vector || f.ret.pointer {
                    return Err(mismatch(format!("`{}(...)`", callee.name), e.span));
                }
                self.pending_scopes = Some(scopes);
                let call = self.vector_call(&f, (targs, args), e.span, (elem, width), &mismatch);
                self.pending_scopes = None;
                call
            }
            // A function object whose `operator()` returns a vector (SHOC's texture readers).
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if matches!(self.lookup(&callee.name), Some(Binding::Object(_))) => {
                let Some(Binding::Object(i)) = self.lookup(&callee.name) else {
                    unreachable!("matched: an object")
                };
                let o = self.objects[i as usize].clone();
                match self.member_fn(&o, "operator()") {
                    Some(f) if f.ret.base == BaseType::Vector && !f.ret.pointer => {
                        self.vector_call(&f, (targs, args), e.span, (elem, width), &mismatch)
                    }
                    _ => Err(mismatch(format!("`{}(...)`", callee.name), e.span)),
                }
            }
            // `uchar2{a, b}`, `float4{x, y, z, w}`, also through a template parameter
            // (`V2{a, b}`): the vector struct aggregate-initialised, as `{a, b}` is (a vector
            // of one or three components, such as `float3{...}`, is a struct temporary).
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if targs.is_empty() && vector_type(&callee.name).is_some() => {
                if vector_type(&callee.name) != Some((elem, width)) {
                    return Err(mismatch(format!("a `{}`", callee.name), e.span));
                }
                let list = ast::Expr {
                    kind: ast::ExprKind::List(args.clone()),
                    span: e.span,
                };
                self.vec_value(&list, elem, width)
            }
            // `::make_uint2(0, 0)` is CUDA's too (ViennaCL).
            // (A function of the file named `make_...`, cuComplex.h's `make_cuFloatComplex`,
            // is a call.)
            ast::ExprKind::Call { callee, args, .. }
                if callee
                    .name
                    .trim_start_matches("::")
                    .strip_prefix("make_")
                    .and_then(vector_type)
                    .is_some() =>
            {
                let made = vector_type(&callee.name.trim_start_matches("::")["make_".len()..]);
                if made != Some((elem, width)) {
                    return Err(mismatch(format!("`{}(...)`", callee.name), e.span));
                }
                if args.len() != width as usize {
                    return Err(CheckError::ArgumentCount {
                        name: callee.name.clone(),
                        expected: width.to_string(),
                        found: args.len(),
                        span: e.span,
                    });
                }
                let mut parts = Vec::new();
                for a in args {
                    let t = self.expr(a)?;
                    parts.push(self.convert(t, elem));
                }
                Ok(VecValue::Parts(parts))
            }
            // `c ? a : b` of two vectors: one side runs, into a copy (C++ [expr.cond]: the
            // result is a vector of the operands' type; the other side is not evaluated).
            ast::ExprKind::Ternary { cond, then, els } => {
                let cond = self.condition(cond)?;
                let vars: Vec<VarId> = (0..width as usize)
                    .map(|k| self.new_local(&format!("?:.{}", COMPONENTS[k]), elem, e.span))
                    .collect();
                let side = |this: &mut Self, value: &ast::Expr| -> Result<Vec<Stmt>> {
                    let mut stmts = Vec::new();
                    this.assign_vector(&vars, elem, width, value, &mut stmts)?;
                    Ok(stmts)
                };
                let then = side(self, then)?;
                let els = side(self, els)?;
                let body = vec![Stmt {
                    kind: StmtKind::If { cond, then, els },
                    span: e.span,
                }];
                let call = Expr {
                    kind: ExprKind::Inline {
                        name: "?:".into(),
                        body,
                        result: None,
                    },
                    ty: Scalar::I32,
                    span: e.span,
                };
                Ok(VecValue::Call(call, var_parts(&vars, elem, e.span)))
            }
            // `a * b` of two vectors with only a host `operator*` (parboil's FFT): host code.
            ast::ExprKind::Binary { op, .. }
                if self
                    .globals
                    .host_functions
                    .contains_key(format!("operator{}", op.symbol()).as_str()) =>
            {
                Err(self.missing_operator(op.symbol(), want, e.span))
            }
            // `tex2D(vtex, x, y)` of a `float4` texture reference simt refuses: the refusal of
            // the name, rather than of the call's type.
            ast::ExprKind::Call { args, .. } => {
                for a in args {
                    if matches!(&a.kind, ast::ExprKind::Name(n) if self.lookup(n).is_none()) {
                        self.expr(a)?;
                    }
                }
                Err(mismatch("this expression".into(), e.span))
            }
            _ => Err(mismatch("this expression".into(), e.span)),
        }
    }

    /// `v.x` of a vector variable, or `a[i].x` of a vector element; `None` if `base` is neither.
    pub(crate) fn component(
        &mut self,
        base: &ast::Expr,
        field: &ast::Ident,
        span: Span,
    ) -> Option<Result<Place>> {
        let k = COMPONENTS.iter().position(|c| *c == field.name);
        let bad_field = |width: u32| CheckError::UnknownName {
            name: field.name.clone(),
            span: field.span,
            suggestion: Some(format!(
                "the components are {}",
                COMPONENTS[..width as usize].join(", ")
            )),
        };
        // `b.at(t).x` of a member function returning a `float2&`: a component of the element
        // it names.
        if self.returned_vector_ref(base).is_some() {
            return Some(self.returned_place(base)?.and_then(|(mem, index)| match k {
                Some(k) if k < mem.width as usize => self.component_place(mem, index, k, span),
                _ => Err(bad_field(mem.width)),
            }));
        }
        match &base.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Vector { vars, elem, width }) => Some(match k {
                    Some(k) if k < width as usize => Ok(Place::Var(vars[k], elem)),
                    _ => Err(bad_field(width)),
                }),
                // A reference to a vector element: component `k` of the element it points at.
                Some(Binding::Ref(i)) => {
                    let pv = &self.ptr_vars[i as usize];
                    let (mem, var) = (pv.mem?, pv.var);
                    Some(match k {
                        Some(k) if k < mem.width as usize => {
                            let at = Expr {
                                kind: ExprKind::Var(var),
                                ty: Scalar::I64,
                                span,
                            };
                            self.component_place(mem, at, k, span)
                        }
                        _ => Err(bad_field(mem.width)),
                    })
                }
                _ => None,
            },
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => Some(self.element(base).and_then(|(mem, index)| {
                // No vector is wider than 4: an element this wide is a struct of an array of
                // structs with more than one dimension (`F c[2][2]; c[i][j].x`), whose
                // members simt does not reach yet.
                if mem.width > 4 {
                    return Err(CheckError::Unsupported {
                        what: "a member of an element of a multi-dimensional array of structs"
                            .into(),
                        span,
                        help: Some(
                            "declare the array with one dimension and index it as `c[i * COLS + j]`"
                                .into(),
                        ),
                    });
                }
                if mem.width == 1 {
                    return Err(CheckError::Mismatch {
                        expected: "a vector".into(),
                        found: format!("`{}`, which has no components", mem.elem),
                        span,
                        help: None,
                    });
                }
                let k = match k {
                    Some(k) if k < mem.width as usize => k,
                    _ => return Err(bad_field(mem.width)),
                };
                self.component_place(mem, index, k, span)
            })),
            _ => None,
        }
    }

    /// `p[k]` or `*p` of a struct pointer to vectors (`&a[i].v[1]` of a member `uint2 v[2]`,
    /// `a[i].v[k]`), which [`Self::element`] gives as its first component: the whole vector,
    /// one access, at the component index re-expressed in vectors.
    fn whole_vector(&mut self, e: &ast::Expr, mem: Mem, index: Expr, width: u32) -> (Mem, Expr) {
        let root = match &e.kind {
            ast::ExprKind::Index { base, .. } => base,
            ast::ExprKind::Unary { operand, .. } => operand,
            _ => return (mem, index),
        };
        let vector = self
            .struct_pointee(root)
            .is_some_and(|l| l.def.is_none() && !l.array && l.buffer_shape() == (mem.elem, width));
        if mem.width != 1 || width == 1 || !vector {
            return (mem, index);
        }
        let size = mem.elem.size();
        let span = index.span;
        let index = Expr {
            kind: ExprKind::Rescale {
                value: Box::new(index),
                from: size,
                to: size * width,
                size,
                space: mem.space,
            },
            ty: Scalar::I64,
            span,
        };
        (Mem { width, ..mem }, index)
    }

    /// Component `k` of the vector at `index` in `mem`: scalar element `index * width + k`.
    fn component_place(&mut self, mem: Mem, index: Expr, k: usize, span: Span) -> Result<Place> {
        let constant = |v: i64| Expr {
            kind: ExprKind::Const(Value::I64(v)),
            ty: Scalar::I64,
            span,
        };
        let scaled = self.binary(ast::BinOp::Mul, span, index, constant(i64::from(mem.width)))?;
        let flat = self.binary(ast::BinOp::Add, span, scaled, constant(k as i64))?;
        Ok(Place::Elem(Mem { width: 1, ..mem }, flat))
    }
}

/// One scalar component: a variable or a memory element.
pub(crate) enum Place {
    /// A component variable of a vector local.
    Var(VarId, Scalar),
    /// A component of a vector element in memory.
    Elem(Mem, Expr),
}

/// Whether a group's method of this name is a shuffle.
fn is_shuffle(name: &str) -> bool {
    matches!(name, "shfl" | "shfl_up" | "shfl_down" | "shfl_xor")
}
