//! `__device__` functions that return a reference (`float& at(float4& v, int i)`): a value where read, a place where assigned.

// Read, such a call is a call like any other: its value. Assigned (`at(v, 1) = x;`,
// `at(v, 2) += y;`), it is its pointer form — the same function returning a pointer to what each
// `return` names (`return a[i];` is `return &a[i];`) — dereferenced, which is what a C++
// compiler does with a reference.

use super::typed::*;
use super::{CheckError, KernelChecker};
use std::rc::Rc;

use super::structs::{Home, Layout, StructPlace};
use crate::source::Span;
use crate::syntax::ast::{self, StmtKind, UnOp};
use crate::value::{Scalar, Value};

/// `f` as a function returning a pointer to what its `return` statements name.
fn pointer_form(f: &ast::Function) -> ast::Function {
    let mut f = f.clone();
    f.ret.pointer = true;
    f.ret.reference = false;
    addresses(&mut f.body);
    f
}

/// `return e;` becomes `return &e;` throughout a body (lambdas, being expressions, keep theirs).
fn addresses(body: &mut [ast::Stmt]) {
    for s in body {
        match &mut s.kind {
            StmtKind::Return(Some(e)) => *e = address(e.clone()),
            StmtKind::Block(b) => addresses(b),
            StmtKind::If { then, els, .. } => {
                addresses(std::slice::from_mut(then));
                if let Some(els) = els {
                    addresses(std::slice::from_mut(els));
                }
            }
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => addresses(std::slice::from_mut(body)),
            StmtKind::RangeFor {
                array,
                class,
                pointer,
                ..
            } => {
                addresses(std::slice::from_mut(array));
                addresses(std::slice::from_mut(class));
                addresses(std::slice::from_mut(pointer));
            }
            _ => {}
        }
    }
}

/// `&e`, with `&(c ? a : b)` as `c ? &a : &b` (glm's `return i == 0 ? x : y;`).
fn address(e: ast::Expr) -> ast::Expr {
    let span = e.span;
    let kind = match e.kind {
        ast::ExprKind::Ternary { cond, then, els } => ast::ExprKind::Ternary {
            cond,
            then: Box::new(address(*then)),
            els: Box::new(address(*els)),
        },
        kind => ast::ExprKind::Unary {
            op: UnOp::AddrOf,
            operand: Box::new(ast::Expr { kind, span }),
        },
    };
    ast::Expr { kind, span }
}

/// Whether some function or member function of `module` returns a reference to a vector or to
/// a type parameter (`T& operator()(int y, int x)` of badslam's `CUDABuffer_<T>`).
pub(crate) fn returns_vector_refs(module: &ast::Module) -> bool {
    let to_vector = |f: &ast::Function| {
        f.ret.reference
            && !f.ret.pointer
            && matches!(f.ret.base, ast::BaseType::Vector | ast::BaseType::Named)
    };
    module.device_fns.iter().any(to_vector)
        || module
            .structs
            .iter()
            .any(|s| s.methods.iter().any(to_vector))
}

/// What a call that may return a reference calls: a member function of a struct object (its
/// `operator[]`, `operator()` or a named one), or a free function.
enum Callee<'e> {
    Member {
        object: ast::Expr,
        layout: Rc<Layout>,
        f: ast::Function,
        args: &'e [ast::Expr],
    },
    Free {
        f: ast::Function,
        targs: &'e [ast::TemplateArg],
        args: &'e [ast::Expr],
    },
}

impl KernelChecker<'_, '_> {
    /// The function call `e` runs, if `e` is a call, a method call or a struct's `v[k]`.
    fn callee<'e>(&mut self, e: &'e ast::Expr) -> Option<Result<Callee<'e>, CheckError>> {
        let member = |object: &ast::Expr, layout, f, args| Callee::Member {
            object: object.clone(),
            layout,
            f,
            args,
        };
        let (callee, targs, args) = match &e.kind {
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => (callee, targs, args),
            ast::ExprKind::Index { base, index } => {
                let l = self.struct_of(base).filter(|l| !l.array)?;
                let index = std::slice::from_ref(index.as_ref());
                let f = self.operator_for(&l, "operator[]", index)?;
                let f = self.for_object(base, &l, f);
                return Some(Ok(member(base, l, f, index)));
            }
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
            } => {
                let l = self.struct_of(object)?;
                // Overloads by their arguments (colmap's `GetRef(row, col)` beside
                // `GetRef(row, col, slice)`).
                let f = self.member_overload(&l, &method.name, (targs, args))?;
                let f = self.for_object(object, &l, f);
                return Some(Ok(member(object, l, f, args)));
            }
            _ => return None,
        };
        // A struct's call operator (OpenCV's `PtrStep<T>::operator()(int y, int x)`).
        if let Some((object, l, f)) = self.call_operator(callee, args) {
            return Some(Ok(member(&object, l, f?, args)));
        }
        let name = super::groups::unqualified(&callee.name);
        Some(match self.overload(name, args) {
            Ok(Some(f)) => Ok(Callee::Free {
                f: f.clone(),
                targs,
                args,
            }),
            Ok(None) => return None,
            Err(err) => Err(err),
        })
    }

    /// `buf(y, x)` where `buf` names a struct with data: the object, its layout and the
    /// `operator()` these arguments call (`None` where it has none that fits).
    pub(crate) fn call_operator(
        &mut self,
        callee: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<(ast::Expr, Rc<Layout>, Option<ast::Function>)> {
        let object = ast::Expr {
            kind: ast::ExprKind::Name(callee.name.clone()),
            span: callee.span,
        };
        let l = self.struct_of(&object).filter(|l| !l.array)?;
        let f = self
            .operator_for(&l, "operator()", args)
            .map(|f| self.for_object(&object, &l, f));
        Some((object, l, f))
    }

    /// The element a call of a function returning a reference names (`vec_at(v, 1)` as an
    /// assignment's target, `u_avg(y, x) = v;`); `None` when `e` is no such call.
    pub(crate) fn returned_place(
        &mut self,
        e: &ast::Expr,
    ) -> Option<Result<(Mem, Expr), CheckError>> {
        let (f, targs, args) = match self.callee(e)? {
            Err(err) => return Some(Err(err)),
            Ok(Callee::Member {
                object,
                layout,
                f,
                args,
            }) => return self.method_place(&object, &layout, &f, args, e.span),
            Ok(Callee::Free { f, targs, args }) => (f, targs, args),
        };
        if !f.ret.reference || f.ret.pointer {
            return None;
        }
        let form = pointer_form(&f);
        Some((|| {
            let p = self.call_pointer(&form, targs, args, e.span)?;
            let mem = self.pointee(p.mem, e.span)?;
            let zero = super::expr::constant(Value::I32(0), e.span);
            Ok((mem, self.index_through(p.offset, zero, e.span)?))
        })())
    }

    /// The vector type `e` names when it is a call returning a reference to a vector
    /// (badslam's `color_buffer(y, x)` of a `CUDABuffer_<uchar4>`, `v.at(i)` of a `float2&`).
    pub(crate) fn returned_vector_ref(&mut self, e: &ast::Expr) -> Option<(Scalar, u32)> {
        if !self.globals.vector_refs
            || !matches!(
                e.kind,
                ast::ExprKind::Call { .. }
                    | ast::ExprKind::Method { .. }
                    | ast::ExprKind::Index { .. }
            )
        {
            return None;
        }
        let errors = self.errors.len();
        let f = match self.callee(e) {
            Some(Ok(Callee::Member { f, .. } | Callee::Free { f, .. })) => f,
            _ => {
                self.errors.truncate(errors);
                return None;
            }
        };
        let shape = super::vector::elem_of(&f.ret).ok();
        (f.ret.reference && !f.ret.pointer && f.ret.base == ast::BaseType::Vector)
            .then_some(shape)
            .flatten()
            .filter(|&(_, width)| width > 1)
    }

    /// Refuses an assignment through `e`, a call returning a `const` reference (`const
    /// float2& at(int) const`), as C++ does: the element is read-only through it.
    pub(crate) fn not_const_returned(&mut self, e: &ast::Expr) -> Result<(), CheckError> {
        let errors = self.errors.len();
        let constant = match self.callee(e) {
            Some(Ok(Callee::Member { f, .. } | Callee::Free { f, .. })) => f.ret.is_const,
            _ => false,
        };
        self.errors.truncate(errors);
        if !constant {
            return Ok(());
        }
        Err(CheckError::NotAssignable {
            what: "an element through the `const` reference a function returns".into(),
            span: e.span,
            help: Some("return a reference without `const` if callers write through it".into()),
        })
    }

    /// The scalar a member function returning a reference names (`v[k]`, `v.at(k)`, `a.x()`)
    /// when `object` is a struct; `None` when `f` returns no reference to a scalar.
    fn method_place(
        &mut self,
        object: &ast::Expr,
        l: &Rc<Layout>,
        f: &ast::Function,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<(Mem, Expr), CheckError>> {
        if !f.ret.reference || f.ret.pointer || self.layout_of(&f.ret).is_some() {
            return None;
        }
        let form = pointer_form(f);
        Some((|| {
            let p = self.through_object(object, l, (f, &form), args, span)?;
            let mem = self.pointee(p.mem, span)?;
            let zero = super::expr::constant(Value::I32(0), span);
            Ok((mem, self.index_through(p.offset, zero, span)?))
        })())
    }

    /// The struct a member function returning a reference to one names (glm's `m[c]`, a
    /// column); `None` when `f` returns no reference to a struct.
    pub(crate) fn returned_struct(
        &mut self,
        object: &ast::Expr,
        l: &Rc<Layout>,
        f: &ast::Function,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<StructPlace, CheckError>> {
        if !f.ret.reference || f.ret.pointer {
            return None;
        }
        let layout = self.layout_of(&f.ret)?.ok()?;
        let form = pointer_form(f);
        Some((|| {
            let p = self.through_object(object, l, (f, &form), args, span)?;
            let mem = self.pointee(p.mem, span)?;
            // A struct pointer's offset counts components (see `struct_stride`).
            let at =
                self.index_through(p.offset, super::expr::constant(Value::I64(0), span), span)?;
            Ok(StructPlace {
                layout,
                home: Home::Mem {
                    mem: Mem { width: 1, ..mem },
                    at,
                    pointers: Vec::new(),
                },
            })
        })())
    }

    /// The pointer `form` (the pointer form of member function `f`) returns, called on `object`.
    /// A reference through the struct's pointer member (colmap's `GetRef(i)` returning `*(ptr +
    /// i)`) is memory wherever the struct is; one to a member of a struct in registers or of a
    /// temporary has no address, said so in place of what failed.
    fn through_object(
        &mut self,
        object: &ast::Expr,
        l: &Rc<Layout>,
        (f, form): (&ast::Function, &ast::Function),
        args: &[ast::Expr],
        span: Span,
    ) -> Result<super::pointer::Ptr, CheckError> {
        let errors = self.errors.len();
        let call = self.call_on(object, l, form, (&[], args), (span, false));
        if call.is_err() || self.errors.len() > errors {
            if let Err(e) = self.in_memory(object, l, f) {
                self.errors.truncate(errors);
                return Err(e);
            }
        }
        let p = self.returned_pointer(form, call?, span)?;
        // A body refused where it was first read (its errors reported, or dropped with a
        // speculative reading) points into no array: the reason is the object's if it has none.
        if p.mem
            .is_some_and(|m| m.space == super::Space::Global(u32::MAX))
        {
            self.in_memory(object, l, f)?;
        }
        Ok(p)
    }

    /// Refuses a reference into a struct that has no address: one simt keeps in registers (a
    /// struct without array members), or a temporary.
    fn in_memory(
        &mut self,
        object: &ast::Expr,
        l: &Layout,
        f: &ast::Function,
    ) -> Result<(), CheckError> {
        let held = match self.struct_place(object) {
            Some(p) => match p?.home {
                Home::Mem { .. } => return Ok(()),
                Home::Regs(_) => "held in registers",
            },
            None => "a temporary",
        };
        Err(CheckError::Unsupported {
            what: format!(
                "a reference returned by `{}` of `{}`, {held},",
                f.name.name, l.name
            ),
            span: object.span,
            help: Some(
                "simt keeps a struct without array members in registers, where a member has no \
                 address; assign the member itself (`v.x = ...;`), or give the struct an array \
                 member"
                    .into(),
            ),
        })
    }

    /// `v[k]` of a struct `v` (not an array): its `operator[]`, whatever the element's type.
    pub(crate) fn is_struct_index(&mut self, e: &ast::Expr) -> bool {
        let ast::ExprKind::Index { base, .. } = &e.kind else {
            return false;
        };
        match self.struct_of(base) {
            Some(l) => !l.array && !self.indexes_converted(base, &l),
            None => false,
        }
    }
}
