//! Declarations of locals (scalars, vectors, pointers, arrays) and whether a local array lives in registers.

use std::collections::{HashMap, HashSet};

use super::expr::constant;
use super::groups::Group;
use super::intrinsics::Arg;
use super::typed::*;
use super::{pointer, Binding, CheckError, InitialiserProblem, KernelChecker, PointerProblem};
use crate::source::Span;
use crate::syntax::ast::{self, BaseType};
use crate::value::{ArithOp, Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// Local arrays per thread above this many bytes are refused (CUDA allows 512 KiB of local memory
/// per thread; a simulated block holds one copy per thread).
const LOCAL_ARRAY_LIMIT: u64 = 16 * 1024;

impl KernelChecker<'_, '_> {
    /// One declarator of a declaration statement.
    pub(crate) fn declaration(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if let Some(done) = self.async_local(ty, d, out) {
            return done;
        }
        let positional;
        let d = match self.designated(ty, d)? {
            Some(list) => {
                positional = ast::Declarator {
                    list: Some(list),
                    ..d.clone()
                };
                &positional
            }
            None => d,
        };
        if d.pointer_to_pointer {
            return self.pointer_to_pointers(ty, d, out);
        }
        if let Some(a) = d.init.as_ref().and_then(|i| self.aligned_size(i)) {
            self.aligned_sizes.insert(d.name.name.clone(), a);
        }
        // `auto& a = reinterpret_cast<float (&)[4]>(v);`: refused once, the name still declared
        // (a pointer into no array, as a refused parameter is) so that `a[3]` is not reported
        // again.
        if let Some(ast::ExprKind::Call { callee, .. }) = d.init.as_ref().map(|i| &i.kind) {
            if super::expr::is_array_cast(callee) {
                let i = self.new_pointer(&d.name, (Scalar::F32, 1), false);
                self.ptr_vars[i as usize].mem = Some(Mem {
                    space: Space::Global(u32::MAX),
                    elem: Scalar::F32,
                    width: 1,
                });
                self.declare(&d.name, Binding::Pointer(i));
                return Err(super::expr::array_cast(callee));
            }
        }
        // `const auto* p = reinterpret_cast<const P*>(x);`: a pointer of the type the cast names.
        if let (BaseType::Auto, true, Some(init)) = (ty.base, d.pointer, &d.init) {
            if let ast::ExprKind::Cast { ty: cast, .. } = &init.kind {
                if cast.pointer {
                    let named = ast::TypeName {
                        is_const: cast.is_const || ty.is_const,
                        span: ty.span,
                        ..cast.clone()
                    };
                    return self.declaration(&named, d, out);
                }
            }
        }
        if d.reference && ty.base == BaseType::Auto && self.either_array(d.init.as_ref()) {
            // `auto& r = c ? a : b;` of two arrays (mamba's shared weights): a reference to the
            // array either names, indexed as the pointer its name decays to.
            let plain = ast::Declarator {
                reference: false,
                ..d.clone()
            };
            return self.declaration(ty, &plain, out);
        }
        if d.reference {
            return self.declare_reference(ty, d, out);
        }
        if let Some(l) = self.layout_of(ty) {
            return self.declare_struct(l?, ty, d, out);
        }
        if ty.base == BaseType::Named && !d.pointer {
            if let Some(o) = self.struct_type(&ty.base_text, ty.span) {
                return self.declare_object(d, o?);
            }
        }
        // `auto func = ReductionOp<T>();` (FasterLLaMA): an object without data.
        if let (BaseType::Auto, false, Some(init)) = (ty.base, d.pointer, &d.init) {
            if self.struct_of(init).is_none() {
                if let Some(Ok(o)) = self.object_of(init) {
                    return self.declare_object(d, o);
                }
            }
        }
        let is_group = match ty.base {
            BaseType::Named => super::groups::is_group_type(&ty.base_text),
            BaseType::Auto => match &d.init {
                Some(init) if !d.pointer => {
                    super::group_scan::partition_call(init).is_some() || self.group(init)?.is_some()
                }
                _ => false,
            },
            _ => false,
        };
        if is_group {
            let Some(init) = &d.init else {
                return Err(CheckError::Initialiser {
                    problem: InitialiserProblem::GroupWithoutValue {
                        name: d.name.name.clone(),
                    },
                    span: d.name.span,
                    help: Some("initialise it: `= cg::this_thread_block();`".into()),
                });
            };
            let takes = |g| ty.base == BaseType::Auto || super::groups::holds(&ty.base_text, g);
            // A partition: this lane's part of its parent, a coalesced group of its own mask.
            if let Some(mask) = self.partition_mask(init, out) {
                let mask = mask?;
                if !takes(Group::Coalesced(None)) {
                    return Err(CheckError::Initialiser {
                        problem: InitialiserProblem::OtherGroup {
                            name: d.name.name.clone(),
                        },
                        span: init.span,
                        help: Some("a partition is a `cg::coalesced_group`".into()),
                    });
                }
                let var = self.new_local(&d.name.name, Scalar::U32, d.name.span);
                out.push(Stmt {
                    kind: StmtKind::Assign { var, value: mask },
                    span: d.name.span,
                });
                self.declare(&d.name, Binding::Group(Group::Coalesced(Some(var))));
                return Ok(());
            }
            let found = self.group(init)?;
            return match found {
                // A coalesced group made here captures the lanes active now; a copy shares them.
                Some(Group::Coalesced(None)) if takes(Group::Coalesced(None)) => {
                    let var = self.new_local(&d.name.name, Scalar::U32, d.name.span);
                    out.push(Stmt {
                        kind: StmtKind::Assign {
                            var,
                            value: Expr {
                                kind: ExprKind::ActiveMask,
                                ty: Scalar::U32,
                                span: init.span,
                            },
                        },
                        span: d.name.span,
                    });
                    self.declare(&d.name, Binding::Group(Group::Coalesced(Some(var))));
                    Ok(())
                }
                Some(found) if takes(found) => {
                    self.declare(&d.name, Binding::Group(found));
                    Ok(())
                }
                _ => Err(CheckError::Initialiser {
                    problem: InitialiserProblem::OtherGroup {
                        name: d.name.name.clone(),
                    },
                    span: init.span,
                    help: None,
                }),
            };
        }
        if let Some(done) = self.accessor_local(ty, d, out) {
            return done;
        }
        // `auto* p = a + 1;` is `auto p = a + 1;`: the pointer's type is its value's.
        let points = d.init.as_ref().is_some_and(|init| self.is_pointer(init));
        if ty.base == BaseType::Auto && (!d.pointer || points) {
            return self.auto_declaration(ty, d, out);
        }
        if d.pointer {
            if !d.dims.is_empty() {
                return self.pointer_array(ty, d, out);
            }
            if ty.base == BaseType::Void {
                return self.void_pointer(ty, d, out);
            }
            let pointee = super::vector::elem_of(ty)?;
            let i = self.new_pointer(&d.name, pointee, ty.is_const);
            for r in &d.rows {
                let n = self.const_size(r)?;
                self.ptr_vars[i as usize].rows.push(n);
            }
            // Declared before its initialiser is checked: an error there is reported once, not
            // again at every use.
            self.declare(&d.name, Binding::Pointer(i));
            if let Some(init) = &d.init {
                out.push(self.initialise_pointer(i, init, d.name.span)?);
            }
            return Ok(());
        }
        if !d.dims.is_empty() {
            return self.local_array(super::vector::elem_of(ty)?, d, out);
        }
        if self.addressed.contains(&d.name.name) && d.list.is_none() {
            if let Ok(shape) = super::vector::elem_of(ty) {
                return self.declare_addressed(shape, ty.is_const, d, out);
            }
        }
        // `float acc;` that may be read before it is set: in memory, where such a read is seen.
        if self.globals.unset.contains(&d.name.span) {
            if let Ok(shape @ (_, 1)) = super::vector::elem_of(ty) {
                return self.declare_addressed(shape, ty.is_const, d, out);
            }
        }
        // `T x = {v};` is `T x = v;`, and `T x = {};` zero (C++ list-initialisation).
        let braced;
        let d = match &d.list {
            // A vector's braces list its components (`float2 a = {x, y};`, `half2 h = {};`).
            Some((items, span)) if ty.base == BaseType::Vector => {
                braced = ast::Declarator {
                    init: Some(ast::Expr {
                        kind: ast::ExprKind::List(items.clone()),
                        span: *span,
                    }),
                    list: None,
                    ..d.clone()
                };
                &braced
            }
            Some((items, span)) if items.len() <= 1 => {
                braced = ast::Declarator {
                    init: Some(items.first().cloned().unwrap_or(ast::Expr {
                        kind: ast::ExprKind::Int {
                            value: 0,
                            unsigned: false,
                            long: false,
                            hex: false,
                        },
                        span: *span,
                    })),
                    list: None,
                    ..d.clone()
                };
                &braced
            }
            Some(_) => {
                return Err(CheckError::Unsupported {
                    what: format!("several values in braces for the scalar `{}`", d.name.name),
                    span: d.name.span,
                    help: Some(format!(
                        "a scalar takes one value: `{} = value;`",
                        d.name.name
                    )),
                })
            }
            None => d,
        };
        if ty.base == BaseType::Vector {
            return self.declare_vector(ty, d, out);
        }
        // An unknown type is reported once; the name is still declared, so its uses are not
        // reported again.
        let declared = match super::scalar_of_base(ty) {
            Ok(t) => t,
            Err(e) => {
                self.errors.push(e);
                let var = self.new_local(&d.name.name, Scalar::I32, d.name.span);
                self.declare(
                    &d.name,
                    Binding::Local {
                        var,
                        is_const: false,
                    },
                );
                return Ok(());
            }
        };
        let value = match &d.init {
            // A bad initialiser is reported once; the name is still declared, so its uses are
            // not reported again.
            Some(init) => match self.expr(init) {
                Ok(e) => self.convert(e, declared),
                Err(e) => {
                    let var = self.new_local(&d.name.name, declared, d.name.span);
                    let is_const = ty.is_const;
                    self.declare(&d.name, Binding::Local { var, is_const });
                    return Err(e);
                }
            },
            // Uninitialised locals start at zero so results never depend on block order.
            None => Expr {
                kind: ExprKind::Const(Value::I32(0).cast(declared)),
                ty: declared.promoted(),
                span: d.name.span,
            },
        };
        self.declare_scalar(d, (declared, ty.is_const), value, out);
        Ok(())
    }

    /// `auto f = [&nx](int y, int x) { return y * nx + x; };`: a lambda, inlined where it is
    /// called, whose body sees the variables in scope here. A variable captured by value
    /// (`[x]`, or any the body names under `[=]`) is copied here, read-only, as C++ does; the
    /// rest are the variables themselves (`[&]`, `[&x]`).
    fn declare_lambda(
        &mut self,
        name: &ast::Ident,
        l: &ast::Lambda,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let label = format!("{} (the lambda at byte {})", name.name, name.span.start);
        let i = self.make_lambda(label, name.span, l, out);
        self.declare(name, Binding::Lambda(i));
        Ok(())
    }

    /// The lambda `l` made here (its copies of what it captures by value go to `out`), named
    /// `label` in messages: its index among the checker's lambdas.
    pub(crate) fn make_lambda(
        &mut self,
        label: String,
        span: Span,
        l: &ast::Lambda,
        out: &mut Vec<Stmt>,
    ) -> u32 {
        let mut scopes = self.scopes.clone();
        let names: Vec<String> = if l.copy_default {
            names_used(
                (&l.function.body, &[]),
                &self.globals.callees(),
                self.globals.structs,
            )
            .into_iter()
            .map(str::to_string)
            .collect()
        } else {
            l.by_value.iter().map(|i| i.name.clone()).collect()
        };
        let mut copies = HashMap::new();
        for n in names {
            if let Some(Binding::Local { var, .. }) = self.lookup(&n) {
                let declared = self.locals[var.0 as usize].declared;
                let copy = self.new_local(&n, declared, span);
                out.push(Stmt {
                    kind: StmtKind::Assign {
                        var: copy,
                        value: Expr {
                            kind: ExprKind::Var(var),
                            ty: declared.promoted(),
                            span,
                        },
                    },
                    span,
                });
                let binding = Binding::Local {
                    var: copy,
                    is_const: true,
                };
                copies.insert(n, (binding, span));
            }
        }
        scopes.push(copies);
        let mut function = l.function.clone();
        function.name.name = label;
        self.lambdas.push((function, scopes));
        self.lambdas.len() as u32 - 1
    }

    /// The closure type of a lambda argument (`[](float a) { ... }`, or a variable or parameter
    /// holding one): a name of its own per lambda, as C++ gives each lambda its own type.
    pub(crate) fn closure_type(&self, a: &ast::Expr) -> Option<String> {
        let at = match &a.kind {
            ast::ExprKind::Lambda(_) => a.span.start,
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Lambda(i) => self.lambdas[i as usize].0.span.start,
                _ => return None,
            },
            _ => return None,
        };
        Some(format!("__lambda_{at}"))
    }

    /// A local whose address the function takes (`wrap(&v)`, `reinterpret_cast<float4*>(&v)`):
    /// a one-element local array, which stays in registers while every access is at a known
    /// index (as `nvcc` keeps it), named as a reference to its element. It starts at its
    /// initialiser; without one, unset where something may read it before setting it (such a
    /// read is reported, [`super::unset`]), else at zero like every other local.
    fn declare_addressed(
        &mut self,
        (elem, width): (Scalar, u32),
        is_const: bool,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = d.name.span;
        self.local_arrays.push(LocalArray {
            variable: true,
            ..LocalArray::new(d.name.name.clone(), (elem, width), vec![1], span)
        });
        let l = self.local_arrays.len() as u32 - 1;
        let i = self.new_pointer(&d.name, (elem, width), false);
        let at = pointer::Ptr {
            mem: Some(self.local_array_mem(l)),
            offset: constant(Value::I64(0), span),
            is_const: false,
        };
        out.push(self.point(i, at, span)?);
        self.declare(&d.name, Binding::Ref(i));
        match &d.init {
            Some(init) => {
                let assign = ast::Stmt {
                    kind: ast::StmtKind::Assign {
                        target: ast::Expr {
                            kind: ast::ExprKind::Name(d.name.name.clone()),
                            span,
                        },
                        op: None,
                        op_span: span,
                        value: init.clone(),
                    },
                    span: span.to(init.span),
                };
                self.stmt(&assign, out)?;
            }
            None if self.globals.unset.contains(&span) => {}
            None => {
                let mem = Mem {
                    width: 1,
                    ..self.local_array_mem(l)
                };
                for k in 0..width {
                    out.push(Stmt {
                        kind: StmtKind::Store {
                            mem,
                            index: constant(Value::I64(i64::from(k)), span),
                            value: constant(Value::I32(0).cast(elem), span),
                        },
                        span,
                    });
                }
            }
        }
        self.ptr_vars[i as usize].is_const = is_const;
        Ok(())
    }

    /// A scalar local `d` of type `declared` holding `value`; a `const` one initialised with a
    /// constant (`const int TM = 8;`, `constexpr int ws = phys_warp();`) is that constant
    /// itself, so it may size an array or be a template argument.
    fn declare_scalar(
        &mut self,
        d: &ast::Declarator,
        (declared, is_const): (Scalar, bool),
        value: Expr,
        out: &mut Vec<Stmt>,
    ) {
        let value = if is_const {
            super::const_eval::folded(value)
        } else {
            value
        };
        if let (true, ExprKind::Const(v)) = (is_const, &value.kind) {
            self.declare(&d.name, Binding::Constant(*v, declared));
            return;
        }
        let var = self.new_local(&d.name.name, declared, d.name.span);
        self.declare(&d.name, Binding::Local { var, is_const });
        self.note_address(var, &value);
        out.push(Stmt {
            kind: StmtKind::Assign { var, value },
            span: d.name.span,
        });
    }

    /// Whether `init` is `c ? a : b` of two arrays of one type and shape (shared or
    /// `__constant__`); of two shapes C++ makes the result a pointer, which `auto&` cannot bind.
    fn either_array(&self, init: Option<&ast::Expr>) -> bool {
        let shape = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Shared(s)) if !self.shared[s as usize].is_scalar() => {
                    let a = &self.shared[s as usize];
                    Some((Some((a.elem, a.width)), a.dims.clone()))
                }
                Some(Binding::Param(p)) => {
                    let d = self.constant_dims.get(&p).filter(|d| !d.is_empty())?;
                    Some((None, d.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        match init.map(|e| &e.kind) {
            Some(ast::ExprKind::Ternary { then, els, .. }) => {
                shape(then).is_some_and(|a| Some(a) == shape(els))
            }
            _ => false,
        }
    }

    /// Whether reference `i` is a variable [`Self::declare_addressed`] keeps in memory (its
    /// type is its own, no reference).
    pub(crate) fn is_memory_variable(&self, i: u32) -> bool {
        match self.ptr_vars[i as usize].mem.map(|m| m.space) {
            Some(Space::Local(l)) => self.local_arrays[l as usize].variable,
            _ => false,
        }
    }

    /// `float& w = v[0];`, `const auto& q = p[1];`, `T& r = s.member;`: another name for the
    /// object the initialiser names, bound once here as a reference parameter is bound to its
    /// argument (the element `p[t]` names is fixed where the reference is declared). A `const`
    /// reference to a value that is no object holds a copy, the temporary C++ makes.
    fn declare_reference(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let span = d.name.span;
        let Some(init) = &d.init else {
            return Err(CheckError::Unsupported {
                what: format!(
                    "the reference `{}` without an initialiser (or with a braced one)",
                    d.name.name
                ),
                span,
                help: Some(format!(
                    "bind it where it is declared: `{} = x;`",
                    d.name.name
                )),
            });
        };
        // A reference to a pointer variable (`float*& r = q;`) is that variable.
        if d.dims.is_empty() && d.pointer && !d.pointer_to_pointer {
            if let Some(i) = self.pointer_var(init) {
                self.declare(&d.name, Binding::Pointer(i));
                return Ok(());
            }
        }
        if !d.dims.is_empty() || d.pointer {
            return Err(CheckError::Unsupported {
                what: format!("the reference `{}` to an array or a pointer", d.name.name),
                span,
                help: Some("use a pointer instead".into()),
            });
        }
        // A member of a struct kept in registers is a variable: the reference is that variable.
        if let Some(place) = self.member_place(init) {
            if let super::vector::Place::Var(var, _) = place? {
                let is_const = ty.is_const;
                self.declare(&d.name, Binding::Local { var, is_const });
                return Ok(());
            }
        }
        let mut pty = ty.clone();
        pty.reference = true;
        if ty.base == BaseType::Auto {
            // `auto&` takes the type of what it names.
            let named = if let Some(l) = self.struct_of(init) {
                ast::TypeName::named(l.name.clone(), ty.span)
            } else if let Some((elem, width)) = self.value_vector_shape(init)? {
                super::template::type_of(elem, width, ty.span)
            } else if let Some(
                b @ (Binding::Local { .. } | Binding::Vector { .. } | Binding::Ref(_)),
            ) = match &init.kind {
                ast::ExprKind::Name(n) => self.lookup(n),
                _ => None,
            } {
                self.declare(&d.name, b);
                return Ok(());
            } else {
                let addr = ast::Expr {
                    kind: ast::ExprKind::Unary {
                        op: ast::UnOp::AddrOf,
                        operand: Box::new(init.clone()),
                    },
                    span: init.span,
                };
                match self.pointer(&addr)?.mem {
                    Some(m) => super::template::type_of(m.elem, m.width, ty.span),
                    None => {
                        let value = self.expr(init)?;
                        super::template::type_of(self.own_type(init, &value), 1, ty.span)
                    }
                }
            };
            pty = ast::TypeName {
                is_const: ty.is_const,
                reference: true,
                ..named
            };
        }
        let param = ast::Param {
            ty: pty,
            name: d.name.clone(),
            default: None,
            volatile: false,
            moves: false,
            pack: false,
            pointer_to_pointer: false,
            rows: Vec::new(),
            extent: None,
        };
        match self.argument(&param, init)? {
            Arg::Alias(b) => self.declare(&d.name, b),
            Arg::Ref(i, bind) => {
                out.push(bind);
                self.declare(&d.name, Binding::Ref(i));
            }
            Arg::Struct(b, fill) => {
                out.extend(fill);
                self.declare(&d.name, b);
            }
            Arg::Vector(vars, elem, width, fill) => {
                out.extend(fill);
                self.declare(&d.name, Binding::Vector { vars, elem, width });
            }
            Arg::Value(v) => {
                let s = super::scalar_of(&param.ty)?;
                let v = self.convert(v, s);
                self.declare_scalar(d, (s, true), v, out);
            }
            Arg::Pointer(_) => unreachable!("checker: a reference parameter is no pointer"),
        }
        Ok(())
    }

    /// `auto x = value;`: a pointer if the value is one, else a scalar of the value's type.
    fn auto_declaration(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if let Some(ast::Expr {
            kind: ast::ExprKind::Lambda(l),
            ..
        }) = &d.init
        {
            return self.declare_lambda(&d.name, l, out);
        }
        let Some(init) = &d.init else {
            return Err(CheckError::Initialiser {
                problem: InitialiserProblem::AutoWithoutValue {
                    name: d.name.name.clone(),
                },
                span: d.name.span,
                help: Some("give it a value, or write its type".into()),
            });
        };
        if self.is_pointer(init) {
            let p = self.pointer(init)?;
            let Some(mem) = p.mem else {
                return Err(CheckError::Pointer {
                    problem: PointerProblem::AutoNull {
                        name: d.name.name.clone(),
                    },
                    span: init.span,
                    help: Some("write the pointer's type: `float* p = NULL;`".into()),
                });
            };
            // `const auto p = q;` of a `float* q` is a `float* const`: the pointer is const,
            // not what it points to (`const auto* p` is a `const float*`).
            let to_const = p.is_const || (ty.is_const && d.pointer);
            let i = self.new_pointer(&d.name, (mem.elem, mem.width), to_const);
            if let Some(l) = self.struct_pointee(init) {
                self.struct_ptrs.insert(i, l);
            }
            self.declare(&d.name, Binding::Pointer(i));
            out.push(self.point(i, p, d.name.span)?);
            return Ok(());
        }
        if let Some(l) = self.struct_of(init) {
            return self.declare_struct(l, ty, d, out);
        }
        // `auto v = ((half2*)p)[i];`, `auto t = __half22float2(v);`: the vector's own type.
        let addressed = self.addressed.contains(&d.name.name) && d.list.is_none();
        if let Some((elem, width)) = self.value_vector_shape(init)? {
            // `auto v = __half2(...); *(float*)&v` (redtail): a variable whose address is
            // taken, as with its type written.
            if addressed {
                return self.declare_addressed((elem, width), ty.is_const, d, out);
            }
            let mut vector = super::template::type_of(elem, width, ty.span);
            vector.is_const = ty.is_const;
            return self.declare_vector(&vector, d, out);
        }
        let value = self.expr(init)?;
        let declared = self.own_type(init, &value);
        if addressed {
            return self.declare_addressed((declared, 1), ty.is_const, d, out);
        }
        self.declare_scalar(d, (declared, ty.is_const), value, out);
        Ok(())
    }

    /// `const float* srcs[3] = {a, b, c};`: one pointer variable per element, each pointing
    /// where its initialiser does (`nullptr` past the list's end, as C zero-initialises, and
    /// without a list).
    /// `srcs[i]` with `i` known only at run time chooses among them, to read or to assign
    /// ([`Self::pointer_elements`]).
    fn pointer_array(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let refuse = |what: &str, help: &str| CheckError::Unsupported {
            what: format!("{what} `{}`", d.name.name),
            span: d.name.span,
            help: Some(help.into()),
        };
        if d.dims.len() > 1 || ty.base == BaseType::Void || d.init.is_some() {
            return Err(refuse(
                "the array of pointers",
                "keep one pointer per variable, or a one-dimensional array of typed pointers",
            ));
        }
        let items = d.list.as_ref().map_or(&[][..], |(items, _)| &items[..]);
        let n = match &d.dims[0] {
            Some(e) => self.const_size(e)?,
            None if !items.is_empty() => items.len() as u64,
            None => {
                return Err(refuse(
                    "the array of pointers without a size",
                    "give its size",
                ))
            }
        };
        if items.len() as u64 > n {
            return Err(refuse(
                "more initialisers than elements in",
                "give at most one pointer per element",
            ));
        }
        let pointee = super::vector::elem_of(ty)?;
        let mut vars = Vec::new();
        for k in 0..n {
            let name = ast::Ident {
                name: format!("{}[{k}]", d.name.name),
                span: d.name.span,
            };
            let i = self.new_pointer(&name, pointee, ty.is_const);
            self.ptr_vars[i as usize].in_struct = true;
            vars.push(i);
        }
        self.pointer_arrays.push(vars.clone());
        let a = self.pointer_arrays.len() as u32 - 1;
        self.declare(&d.name, Binding::PointerArray(a));
        // Without a list the elements are indeterminate in C: null here, so that reading one
        // before it is set traps, and `rows[i] = ...` keeps the others as they are.
        for (k, &i) in vars.iter().enumerate() {
            let (value, span) = match items.get(k) {
                Some(item) => (self.pointer(item)?, item.span),
                None => (super::pointer::null(d.name.span), d.name.span),
            };
            out.push(self.point(i, value, span)?);
        }
        Ok(())
    }

    /// A pointer variable `name` to pointers stored in memory, each a `ty` (`T*`), declared.
    pub(crate) fn slot_pointer(&mut self, name: &ast::Ident, ty: &ast::TypeName) -> u32 {
        let i = self.new_pointer(name, (Scalar::U64, 1), false);
        self.slot_ptrs.insert(i, ty.clone());
        self.declare(name, Binding::Pointer(i));
        i
    }

    /// `T** p = q;`: a pointer to pointers stored in memory (`new T*[n]`, a `T**` parameter),
    /// each of them a `T*`, as a `T**` parameter of a function is.
    fn pointer_to_pointers(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if !d.dims.is_empty() || !d.rows.is_empty() {
            return Err(CheckError::Unsupported {
                what: format!("the array of pointers to pointers `{}`", d.name.name),
                span: d.name.span,
                help: Some("keep the pointers in a `T*` array and index it".into()),
            });
        }
        let i = self.slot_pointer(&d.name, ty);
        if let Some(init) = &d.init {
            out.push(self.initialise_pointer(i, init, d.name.span)?);
        }
        Ok(())
    }

    /// `const void* row = (const char*)src + k;`: a pointer to the memory its initialiser
    /// points into, as it is (as a `const void*` parameter is), which a cast types again.
    fn void_pointer(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let value = d.init.as_ref().map(|init| self.pointer(init)).transpose()?;
        let pointee = value
            .as_ref()
            .and_then(|p| p.mem)
            .map_or((Scalar::U8, 1), |m| (m.elem, m.width));
        let i = self.new_pointer(&d.name, pointee, ty.is_const);
        self.ptr_vars[i as usize].is_void = true;
        self.declare(&d.name, Binding::Pointer(i));
        if let (Some(value), Some(init)) = (value, &d.init) {
            out.push(self.point(i, value, d.name.span.to(init.span))?);
        }
        Ok(())
    }

    /// `float acc[4][4] = {0};`: a per-thread array of `width` components of `elem` per
    /// element; listed elements are stored, the rest zeroed.
    pub(crate) fn local_array(
        &mut self,
        (elem, width): (Scalar, u32),
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        // `const uchar digits[] = "0123...";`
        if width == 1 && matches!(elem, Scalar::I8 | Scalar::U8) && d.dims.len() == 1 {
            if let Some(list) = d.init.as_ref().and_then(string_items) {
                let listed = ast::Declarator {
                    init: None,
                    list: Some(list),
                    ..d.clone()
                };
                return self.local_array((elem, width), &listed, out);
            }
        }
        let mut dims = Vec::new();
        for (k, dim) in d.dims.iter().enumerate() {
            match dim {
                Some(e) => dims.push(self.const_size(e)?),
                // Sized once the rest are known, by the rows its list fills.
                None if k == 0 => match &d.list {
                    Some((items, _)) if !items.is_empty() => dims.push(0),
                    _ => {
                        return Err(CheckError::NotConstant {
                            what: format!("the size of the local array `{}`", d.name.name),
                            span: d.name.span,
                            help: Some("give the size, e.g. `[8]`".into()),
                        })
                    }
                },
                None => {
                    return Err(CheckError::NotConstant {
                        what: format!("the size of the local array `{}`", d.name.name),
                        span: d.name.span,
                        help: Some("give every dimension after the first".into()),
                    })
                }
            }
        }
        // A scalar array's elements in order, its list nested or flat (a vector array's are
        // assigned one by one below).
        let mut flat = Vec::new();
        if let (Some((items, span)), 1) = (&d.list, width) {
            let rows = d.dims[0].is_some().then_some(dims[0]);
            let too_many = || CheckError::Initialiser {
                problem: InitialiserProblem::TooManyElements {
                    name: d.name.name.clone(),
                    given: items.len(),
                    count: dims.iter().product(),
                },
                span: *span,
                help: None,
            };
            let (elements, filled) =
                super::array_init::elements(items, rows, &dims[1..]).ok_or_else(too_many)?;
            (flat, dims[0]) = (elements, filled);
        } else if dims.first() == Some(&0) {
            dims[0] = d.list.as_ref().map_or(0, |(items, _)| items.len() as u64);
        }
        let array = LocalArray::new(d.name.name.clone(), (elem, width), dims, d.name.span);
        let bytes = array.components() * u64::from(elem.size());
        if bytes > LOCAL_ARRAY_LIMIT {
            return Err(CheckError::Unsupported {
                what: format!(
                    "the local array `{}` of {bytes} bytes per thread",
                    d.name.name
                ),
                span: d.name.span,
                help: Some(format!(
                    "simt keeps up to {LOCAL_ARRAY_LIMIT} bytes of local array per thread; use shared or global memory for more"
                )),
            });
        }
        if d.init.is_some() {
            return Err(CheckError::Initialiser {
                problem: InitialiserProblem::ArrayWithoutBraces {
                    name: d.name.name.clone(),
                },
                span: d.name.span,
                help: Some(format!("write `{}[...] = {{...}};`", d.name.name)),
            });
        }
        let count = array.components() / u64::from(width);
        let l = self.local_arrays.len() as u32;
        self.local_arrays.push(array);
        self.declare(&d.name, Binding::LocalArray(l));
        let Some((items, span)) = &d.list else {
            return Ok(());
        };
        too_many_items(d, (items, *span), count)?;
        if width > 1 {
            // QuEST's `cu_qcomp facs[] = {fac0, fac1};`: each element assigned its vector (a
            // variable, a call or braces), the rest zero, as C fills them.
            for k in 0..count {
                let at = |kind| ast::Expr { kind, span: *span };
                let element = at(ast::ExprKind::Index {
                    base: Box::new(at(ast::ExprKind::Name(d.name.name.clone()))),
                    index: Box::new(at(ast::ExprKind::Int {
                        value: k,
                        unsigned: false,
                        long: false,
                        hex: false,
                    })),
                });
                let value = items
                    .get(k as usize)
                    .cloned()
                    .unwrap_or_else(|| at(ast::ExprKind::List(Vec::new())));
                let assign = ast::Stmt {
                    kind: ast::StmtKind::Assign {
                        target: element,
                        op: None,
                        op_span: *span,
                        value,
                    },
                    span: *span,
                };
                self.stmt(&assign, out)?;
            }
            return Ok(());
        }
        let mem = self.local_array_mem(l);
        let mut values = Vec::with_capacity(count as usize);
        for item in flat {
            let value = match item {
                Some(item) => {
                    let e = self.expr(item)?;
                    Some(self.convert(e, elem))
                }
                None => None,
            };
            values.push(value);
        }
        for k in 0..count {
            let value = values.get(k as usize).cloned().flatten().unwrap_or(Expr {
                kind: ExprKind::Const(Value::I32(0).cast(elem)),
                ty: elem.promoted(),
                span: *span,
            });
            out.push(Stmt {
                kind: StmtKind::Store {
                    mem,
                    index: Expr {
                        kind: ExprKind::Const(Value::I32(k as i32)),
                        ty: Scalar::I32,
                        span: *span,
                    },
                    value,
                },
                span: *span,
            });
        }
        Ok(())
    }

    /// The memory of local array `l`.
    pub(crate) fn local_array_mem(&self, l: u32) -> Mem {
        let a = &self.local_arrays[l as usize];
        Mem {
            space: Space::Local(l),
            elem: a.elem,
            width: a.width,
        }
    }
}

/// Decides, for each local array, whether the compiler keeps it in registers: every index of
/// every access is computed from constants, induction variables of loops with constant bounds
/// (which `nvcc` unrolls) and variables assigned once from such values. Any other index (one
/// that depends on a thread index, a loaded value or a data-dependent loop) puts the array in
/// local memory, as `nvcc` does.
pub(crate) fn place_local_arrays(body: &[Stmt], arrays: &mut [LocalArray]) {
    if arrays.is_empty() {
        return;
    }
    let facts = Facts::of(body);
    let mut dynamic = vec![false; arrays.len()];
    for (l, index) in &facts.accesses {
        if !facts.is_static(index, &mut HashSet::new()) {
            dynamic[*l as usize] = true;
        }
    }
    for (a, d) in arrays.iter_mut().zip(dynamic) {
        a.in_registers = !d;
    }
}

/// What is known about a kernel body once `nvcc` unrolls its loops with constant bounds: which
/// loops those are and which values become constants. The local-array placement and the
/// lowering's compiled-instruction estimate ([`crate::ir::KernelIr::folded`]) both read it.
#[derive(Default)]
pub(crate) struct Facts<'a> {
    /// Every assignment of each variable.
    assigned: HashMap<VarId, Vec<&'a Expr>>,
    /// Variables set by a vector load: never static.
    loaded: HashSet<VarId>,
    /// Induction variables of loops with constant bounds and steps, not assigned in their body.
    unrolled: HashSet<VarId>,
    /// Every index into a local array.
    accesses: Vec<(u32, &'a Expr)>,
    /// The loops with constant bounds whose induction variable the body leaves alone.
    unrolled_loops: HashSet<*const Stmt>,
    /// [`Facts::is_static`]'s answer for each variable once known: a chain of variables each
    /// defined from the previous one twice (`b = a + a; c = b + b;`) is then walked once, not
    /// once per path.
    static_vars: std::cell::RefCell<HashMap<VarId, bool>>,
}

impl<'a> Facts<'a> {
    /// The facts of `body` (and of the `__device__` bodies inlined in it).
    pub(crate) fn of(body: &'a [Stmt]) -> Facts<'a> {
        let mut facts = Facts::default();
        facts.stmts(body);
        facts
    }

    /// Whether `nvcc` unrolls loop `s` completely (its bounds and step are constants).
    pub(crate) fn is_unrolled(&self, s: &Stmt) -> bool {
        self.unrolled_loops.contains(&(s as *const Stmt))
    }

    /// Whether `e` is a constant once loops are unrolled (see [`Facts::is_static`]).
    pub(crate) fn is_known(&self, e: &Expr) -> bool {
        self.is_static(e, &mut HashSet::new())
    }

    fn stmts(&mut self, body: &'a [Stmt]) {
        for (k, s) in body.iter().enumerate() {
            if let StmtKind::Loop {
                cond: Some(cond),
                test_first: true,
                body: inner,
                step,
            } = &s.kind
            {
                let init = k.checked_sub(1).map(|p| &body[p]);
                if let Some(v) = constant_trip_var(init, cond, step) {
                    let mut assigned = HashSet::new();
                    assigned_vars(inner, &mut assigned);
                    if !assigned.contains(&v) {
                        self.unrolled.insert(v);
                        self.unrolled_loops.insert(s as *const Stmt);
                    }
                }
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Assign { var, value } => {
                self.assigned.entry(*var).or_default().push(value);
                self.expr(value);
            }
            StmtKind::Store { mem, index, value } => {
                self.access(*mem, index);
                self.expr(value);
            }
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmts(then);
                self.stmts(els);
            }
            StmtKind::Loop {
                cond, body, step, ..
            } => {
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.stmts(body);
                self.stmts(step);
            }
            StmtKind::VecLoad { mem, index, vars } => {
                self.access(*mem, index);
                self.loaded.extend(vars);
            }
            StmtKind::VecStore { mem, index, values } => {
                self.access(*mem, index);
                values.iter().for_each(|v| self.expr(v));
            }
            StmtKind::VecAtomic {
                mem,
                index,
                values,
                olds,
                ..
            } => {
                self.access(*mem, index);
                values.iter().for_each(|v| self.expr(v));
                self.loaded.extend(olds);
            }
            StmtKind::SyncWarp(e) | StmtKind::Eval(e) | StmtKind::Assert(e, _) => self.expr(e),
            StmtKind::NamedBarrier { id, count } => {
                self.expr(id);
                count.iter().for_each(|c| self.expr(c));
            }
            StmtKind::Async(AsyncOp::Init { count: e, .. } | AsyncOp::Wait { token: e, .. }) => {
                self.expr(e)
            }
            StmtKind::Async(AsyncOp::Arrive { token, .. }) => {
                self.loaded.insert(*token);
            }
            StmtKind::Async(_) => {}
            StmtKind::Disjoint { dst, src, len } => {
                self.expr(&dst.0);
                self.expr(&src.0);
                self.expr(len);
            }
            StmtKind::BarrierVote { pred, result, .. } => {
                self.expr(pred);
                self.loaded.insert(*result);
            }
            StmtKind::Collective { tile, .. } => {
                if let Some(t) = tile {
                    self.expr(&t.offset);
                    self.expr(&t.ldm);
                }
            }
            StmtKind::Mma { a, b, c, d, .. } => {
                a.iter().chain(b).chain(c).for_each(|e| self.expr(e));
                self.loaded.extend(d);
            }
            StmtKind::Printf { args, .. } => args.iter().for_each(|a| self.expr(a)),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Barrier
            | StmtKind::GridSync
            | StmtKind::Trap
            | StmtKind::Fault(_)
            | StmtKind::ReturnFn => {}
        }
    }

    fn access(&mut self, mem: Mem, index: &'a Expr) {
        if let Space::Local(l) = mem.space {
            self.accesses.push((l, index));
        }
        self.expr(index);
    }

    fn expr(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Load { mem, index, .. } => self.access(*mem, index),
            ExprKind::Atomic {
                mem,
                index,
                operand,
                compare,
                ..
            } => {
                self.access(*mem, index);
                self.expr(operand);
                if let Some(c) = compare {
                    self.expr(c);
                }
            }
            ExprKind::Inline { body, .. } => self.stmts(body),
            _ => children(e).into_iter().for_each(|c| self.expr(c)),
        }
    }

    /// Known once unrolled: constants, unrolled induction variables, single-assignment variables
    /// of static values, and arithmetic, comparisons and selections of them.
    fn is_static(&self, e: &Expr, visiting: &mut HashSet<VarId>) -> bool {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::ParamBase(_) | ExprKind::ParamAddress(_) => true,
            ExprKind::Var(v) if self.unrolled.contains(v) => true,
            ExprKind::Var(v) if self.loaded.contains(v) => false,
            ExprKind::Var(v) => {
                if let Some(&known) = self.static_vars.borrow().get(v) {
                    return known;
                }
                match self.assigned.get(v).map(Vec::as_slice) {
                    Some([value]) if visiting.insert(*v) => {
                        let s = self.is_static(value, visiting);
                        visiting.remove(v);
                        self.static_vars.borrow_mut().insert(*v, s);
                        s
                    }
                    _ => false,
                }
            }
            ExprKind::Arith { .. }
            | ExprKind::Compare { .. }
            | ExprKind::Logic { .. }
            | ExprKind::Not(_)
            | ExprKind::Select { .. }
            | ExprKind::Neg(_)
            | ExprKind::BitNot(_)
            | ExprKind::Cast { .. }
            | ExprKind::Round { .. }
            | ExprKind::Widen(_)
            | ExprKind::Rescale { .. } => {
                children(e).into_iter().all(|c| self.is_static(c, visiting))
            }
            _ => false,
        }
    }
}

/// The direct operands of an expression (inlined bodies excluded).
pub(crate) fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Neg(a)
        | ExprKind::BitNot(a)
        | ExprKind::Not(a)
        | ExprKind::Widen(a)
        | ExprKind::Cast { operand: a, .. }
        | ExprKind::Round { operand: a, .. }
        | ExprKind::Rescale { value: a, .. } => vec![a],
        ExprKind::Arith { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::Logic { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Select { cond, then, els } => vec![cond, then, els],
        ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Load { index, .. } => vec![index],
        ExprKind::Shuffle {
            mask,
            value,
            arg,
            width,
            ..
        } => vec![mask, value, arg, width],
        ExprKind::Vote { mask, pred, .. } => vec![mask, pred],
        ExprKind::WarpFold { mask, value, .. } => vec![mask, value],
        ExprKind::Texture { handle, coords, .. } => {
            let mut v: Vec<&Expr> = vec![handle];
            v.extend(coords);
            v
        }
        ExprKind::Atomic {
            index,
            operand,
            compare,
            ..
        } => {
            let mut v: Vec<&Expr> = vec![index, operand];
            v.extend(compare.as_deref());
            v
        }
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Builtin(_)
        | ExprKind::LoadAtStore { .. }
        | ExprKind::ActiveMask
        | ExprKind::Clock
        | ExprKind::ParamBase(_)
        | ExprKind::ParamAddress(_)
        | ExprKind::Inline { .. } => Vec::new(),
    }
}

/// `v = C0; while (v < C1) { ...; v += C2; }`: the induction variable of a loop with constant
/// start, bound and step.
fn constant_trip_var(init: Option<&Stmt>, cond: &Expr, step: &[Stmt]) -> Option<VarId> {
    let strip = |e: &Expr| match &e.kind {
        ExprKind::Cast { operand, .. } => match operand.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        ExprKind::Var(v) => Some(*v),
        _ => None,
    };
    let is_const = |e: &Expr| matches!(e.kind, ExprKind::Const(_));
    let ExprKind::Compare { lhs, rhs, .. } = &cond.kind else {
        return None;
    };
    let v = match (strip(lhs), strip(rhs)) {
        (Some(v), None) if is_const(rhs) => v,
        (None, Some(v)) if is_const(lhs) => v,
        _ => return None,
    };
    let starts_constant = matches!(init, Some(Stmt { kind: StmtKind::Assign { var, value }, .. }) if *var == v && is_const(value));
    let steps_constant = matches!(step, [Stmt { kind: StmtKind::Assign { var, value }, .. }]
        if *var == v && matches!(&value.kind, ExprKind::Arith { op: ArithOp::Add | ArithOp::Sub | ArithOp::Mul | ArithOp::Shl | ArithOp::Shr | ArithOp::Div, lhs, rhs }
            if strip(lhs) == Some(v) && is_const(rhs)));
    (starts_constant && steps_constant).then_some(v)
}

/// Whether any statement in `body` assigns `v`.
/// Every variable `body` assigns, in the `__device__` bodies inlined in it too.
pub(crate) fn assigned_vars(body: &[Stmt], out: &mut HashSet<VarId>) {
    fn in_expr(e: &Expr, out: &mut HashSet<VarId>) {
        match &e.kind {
            ExprKind::Inline { body, .. } => assigned_vars(body, out),
            _ => children(e).into_iter().for_each(|c| in_expr(c, out)),
        }
    }
    for s in body {
        match &s.kind {
            StmtKind::Assign { var, value } => {
                out.insert(*var);
                in_expr(value, out);
            }
            StmtKind::Store { index, value, .. } => {
                in_expr(index, out);
                in_expr(value, out);
            }
            StmtKind::VecLoad { vars, index, .. } => {
                out.extend(vars);
                in_expr(index, out);
            }
            StmtKind::VecStore { index, values, .. } => {
                in_expr(index, out);
                values.iter().for_each(|v| in_expr(v, out));
            }
            StmtKind::VecAtomic {
                index,
                values,
                olds,
                ..
            } => {
                out.extend(olds);
                in_expr(index, out);
                values.iter().for_each(|v| in_expr(v, out));
            }
            StmtKind::If { cond, then, els } => {
                in_expr(cond, out);
                assigned_vars(then, out);
                assigned_vars(els, out);
            }
            StmtKind::Loop {
                cond, body, step, ..
            } => {
                if let Some(c) = cond {
                    in_expr(c, out);
                }
                assigned_vars(body, out);
                assigned_vars(step, out);
            }
            StmtKind::Eval(e) | StmtKind::SyncWarp(e) | StmtKind::Assert(e, _) => in_expr(e, out),
            StmtKind::NamedBarrier { id, count } => {
                in_expr(id, out);
                count.iter().for_each(|c| in_expr(c, out));
            }
            StmtKind::Async(AsyncOp::Init { count: e, .. } | AsyncOp::Wait { token: e, .. }) => {
                in_expr(e, out)
            }
            StmtKind::Async(AsyncOp::Arrive { token, .. }) => {
                out.insert(*token);
            }
            StmtKind::Async(_) => {}
            StmtKind::Disjoint { dst, src, len } => {
                in_expr(&dst.0, out);
                in_expr(&src.0, out);
                in_expr(len, out);
            }
            StmtKind::BarrierVote { pred, result, .. } => {
                out.insert(*result);
                in_expr(pred, out);
            }
            StmtKind::Collective { tile, .. } => {
                if let Some(t) = tile {
                    in_expr(&t.offset, out);
                    in_expr(&t.ldm, out);
                }
            }
            StmtKind::Mma { a, b, c, d, .. } => {
                out.extend(d);
                a.iter().chain(b).chain(c).for_each(|e| in_expr(e, out));
            }
            StmtKind::Printf { args, .. } => args.iter().for_each(|a| in_expr(a, out)),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Barrier
            | StmtKind::GridSync
            | StmtKind::Trap
            | StmtKind::Fault(_)
            | StmtKind::ReturnFn => {}
        }
    }
}

/// The `__device__` functions a call by name may run: the function, its overloads and its
/// explicit specialisations.
pub(crate) struct Callees<'c, 'a> {
    pub(crate) functions: &'c HashMap<&'a str, &'a ast::Function>,
    pub(crate) overloads: &'c HashMap<&'a str, Vec<&'a ast::Function>>,
    pub(crate) specializations: &'a [ast::Specialization],
}

impl<'a> Callees<'_, 'a> {
    /// What `name<targs>(...)` may run: a specialisation only where its written type
    /// arguments are the call's (`get<double>()` does not run `get<float>`'s body).
    fn of<'s>(
        &'s self,
        name: &'s str,
        targs: &'s [ast::TemplateArg],
    ) -> impl Iterator<Item = &'a ast::Function> + 's {
        let types = |args: &[ast::TemplateArg]| -> Option<Vec<(String, bool)>> {
            args.iter()
                .map(|a| match a {
                    ast::TemplateArg::Type(t) => Some((t.base_text.clone(), t.pointer)),
                    ast::TemplateArg::Value(_) => None,
                })
                .collect()
        };
        let called = types(targs).filter(|t| !t.is_empty());
        self.functions
            .get(name)
            .copied()
            .into_iter()
            .chain(self.overloads.get(name).into_iter().flatten().copied())
            .chain(
                self.specializations
                    .iter()
                    .filter(move |s| s.function.name.name == name)
                    .filter(move |s| match (&called, types(&s.args)) {
                        (Some(c), Some(w)) if !w.is_empty() => *c == w,
                        _ => true,
                    })
                    .map(|s| &s.function),
            )
    }
}

/// Every name written in `body` or in the `__device__` functions it calls (by name, transitively:
/// every overload and explicit specialisation of the name).
pub(crate) fn names_used<'a>(
    (body, shadowed): (&'a [ast::Stmt], &[&str]),
    callees: &Callees<'_, 'a>,
    structs: &'a [ast::StructDef],
) -> HashSet<&'a str> {
    let mut names = HashSet::new();
    let mut seen_fns = HashSet::new();
    let mut seen_structs = HashSet::new();
    let mut todo: Vec<&[ast::Stmt]> = vec![body];
    // The names `body` itself shadows (a kernel's parameters) are not the file's there.
    let mut hidden = shadowed;
    while let Some(stmts) = todo.pop() {
        let shadowed = std::mem::take(&mut hidden);
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        let mut stmts: Vec<&ast::Stmt> = stmts.iter().collect();
        while let Some(s) = stmts.pop() {
            match &s.kind {
                ast::StmtKind::Block(b) => stmts.extend(b),
                ast::StmtKind::Decl { ty, decls, of } => {
                    exprs.extend(of.as_deref());
                    // An object's member functions run where it is used (`r(i)`, `s.get()`).
                    let name = ty.base_text.split('<').next().unwrap_or(&ty.base_text);
                    let name = super::groups::unqualified(name);
                    for d in structs.iter().filter(|d| d.name.name == name) {
                        if seen_structs.insert(name) {
                            todo.extend(d.methods.iter().chain(&d.ctors).map(|f| &f.body[..]));
                        }
                    }
                    for d in decls {
                        exprs.extend(d.dims.iter().flatten());
                        exprs.extend(&d.rows);
                        exprs.extend(d.init.iter());
                        exprs.extend(d.list.iter().flat_map(|(l, _)| l));
                    }
                }
                ast::StmtKind::Shared { dims, .. } => exprs.extend(dims.iter().flatten()),
                ast::StmtKind::Assign { target, value, .. } => exprs.extend([target, value]),
                ast::StmtKind::IncDec { target, .. } => exprs.push(target),
                ast::StmtKind::Expr(e) | ast::StmtKind::Return(Some(e)) => exprs.push(e),
                ast::StmtKind::If {
                    cond, then, els, ..
                } => {
                    exprs.push(cond);
                    stmts.push(then);
                    stmts.extend(els.as_deref());
                }
                ast::StmtKind::For {
                    init,
                    cond,
                    step,
                    body,
                } => {
                    stmts.extend(init);
                    stmts.extend(step);
                    exprs.extend(cond.iter());
                    stmts.push(body);
                }
                ast::StmtKind::While { cond, body } | ast::StmtKind::DoWhile { body, cond } => {
                    exprs.push(cond);
                    stmts.push(body);
                }
                ast::StmtKind::RangeFor {
                    array,
                    class,
                    pointer,
                    ..
                } => {
                    stmts.push(array);
                    stmts.push(class);
                    stmts.push(pointer);
                }
                _ => {}
            }
        }
        while let Some(e) = exprs.pop() {
            match &e.kind {
                // `::gParams` names the file's `gParams`, `ns::dim` the `dim` of a namespace
                // (the file's by its plain name).
                ast::ExprKind::Name(n) if shadowed.contains(&n.as_str()) => {}
                ast::ExprKind::Name(n) => {
                    names.insert(n.strip_prefix("::").unwrap_or(n));
                    if let Some((_, last)) = n.rsplit_once("::") {
                        names.insert(last);
                    }
                }
                ast::ExprKind::Call {
                    callee,
                    args,
                    targs,
                } => {
                    let f = super::groups::unqualified(&callee.name);
                    // Each template-argument list once (by its place in the tree).
                    let at = if targs.is_empty() {
                        0
                    } else {
                        targs.as_ptr() as usize
                    };
                    if seen_fns.insert((f, at)) {
                        todo.extend(callees.of(f, targs).map(|func| &func.body[..]));
                    }
                    // `KH::one()`, a static member function: its struct's members run.
                    if let Some((owner, _)) = callee.name.rsplit_once("::") {
                        let owner = super::groups::unqualified(owner);
                        let owner = owner.split('<').next().unwrap_or(owner);
                        for d in structs.iter().filter(|d| d.name.name == owner) {
                            if seen_structs.insert(owner) {
                                todo.extend(d.methods.iter().chain(&d.ctors).map(|f| &f.body[..]));
                            }
                        }
                    }
                    exprs.extend(args);
                }
                ast::ExprKind::Method { object, args, .. } => {
                    exprs.push(object);
                    exprs.extend(args);
                }
                ast::ExprKind::Unary { operand: a, .. }
                | ast::ExprKind::Cast { expr: a, .. }
                | ast::ExprKind::Member { base: a, .. }
                | ast::ExprKind::SizeOfExpr(a)
                | ast::ExprKind::IncDec { target: a, .. } => exprs.push(a),
                ast::ExprKind::Binary { lhs, rhs, .. }
                | ast::ExprKind::Assign {
                    target: lhs,
                    value: rhs,
                    ..
                }
                | ast::ExprKind::Index {
                    base: lhs,
                    index: rhs,
                } => exprs.extend([lhs.as_ref(), rhs.as_ref()]),
                ast::ExprKind::Ternary { cond, then, els } => {
                    exprs.extend([cond.as_ref(), then.as_ref(), els.as_ref()])
                }
                ast::ExprKind::List(items) | ast::ExprKind::Tuple(items) => exprs.extend(items),
                ast::ExprKind::Lambda(l) => todo.push(&l.function.body),
                _ => {}
            }
        }
    }
    names
}

impl KernelChecker<'_, '_> {
    /// `T v = {.x = a, .y = b};`: the braced initialiser of a vector or struct with designators,
    /// as the positional list it stands for, an omitted member zero (C++20 [dcl.init.aggr]:
    /// designators name direct members in declaration order). `None` without designators.
    fn designated(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
    ) -> Result<Option<(Vec<ast::Expr>, Span)>> {
        let Some((items, span)) = &d.list else {
            return Ok(None);
        };
        if !items
            .iter()
            .any(|i| matches!(i.kind, ast::ExprKind::Designated { .. }))
        {
            return Ok(None);
        }
        let members: Vec<String> = if ty.base == BaseType::Vector && !ty.pointer {
            let (_, width) = super::vector::elem_of(ty)?;
            super::vector::COMPONENTS[..width as usize]
                .iter()
                .map(|c| c.to_string())
                .collect()
        } else if let (Some(l), false, true) = (self.layout_of(ty), ty.pointer, d.dims.is_empty()) {
            l?.members.iter().map(|m| m.name.clone()).collect()
        } else {
            return Err(CheckError::Unsupported {
                what: format!("designated initialisers for `{}`", d.name.name),
                span: *span,
                help: Some("designators name the members of a vector or struct variable".into()),
            });
        };
        let zero = |span| ast::Expr {
            kind: ast::ExprKind::List(Vec::new()),
            span,
        };
        let mut list = Vec::new();
        for item in items {
            let ast::ExprKind::Designated { field, value } = &item.kind else {
                return Err(CheckError::Unsupported {
                    what: "a braced initialiser mixing designated and positional values".into(),
                    span: item.span,
                    help: Some(
                        "designate every value (`.x = 1, .y = 2`), as C++20 requires".into(),
                    ),
                });
            };
            let Some(at) = members.iter().position(|m| *m == field.name) else {
                return Err(CheckError::UnknownName {
                    name: field.name.clone(),
                    span: field.span,
                    suggestion: Some(format!(
                        "`{}` has the members {}",
                        ty.base_text,
                        members.join(", ")
                    )),
                });
            };
            if at < list.len() {
                return Err(CheckError::Unsupported {
                    what: format!("the designator `.{}` out of member order", field.name),
                    span: field.span,
                    help: Some(format!(
                        "C++20 takes designators in declaration order: {}",
                        members.join(", ")
                    )),
                });
            }
            while list.len() < at {
                list.push(zero(item.span));
            }
            list.push((**value).clone());
        }
        Ok(Some((list, *span)))
    }
}

/// A string literal initialising a `char` array: its bytes, escapes read, and the terminating
/// zero, as braces would list them (C++ [dcl.init.string]); `None` for another initialiser.
pub(crate) fn string_items(init: &ast::Expr) -> Option<(Vec<ast::Expr>, Span)> {
    let ast::ExprKind::Str(text) = &init.kind else {
        return None;
    };
    let items = super::print::literal_bytes(text)
        .into_iter()
        .chain([0])
        .map(|b| ast::Expr {
            kind: ast::ExprKind::Int {
                value: u64::from(b),
                unsigned: false,
                long: false,
                hex: false,
            },
            span: init.span,
        })
        .collect();
    Some((items, init.span))
}

/// `float a[2] = {1, 2, 3};`: more items in the list of local array `d` than its `count`
/// elements.
pub(crate) fn too_many_items(
    d: &ast::Declarator,
    (items, span): (&[ast::Expr], Span),
    count: u64,
) -> Result<()> {
    if items.len() as u64 <= count {
        return Ok(());
    }
    Err(CheckError::Initialiser {
        problem: InitialiserProblem::TooManyElements {
            name: d.name.name.clone(),
            given: items.len(),
            count,
        },
        span,
        help: None,
    })
}
