//! Pointers: values that point into an array, with an offset counted in pointee elements.

// The array a pointer points into is usually known when the kernel is checked; the offset is a
// run-time value, so indexing, arithmetic, comparison and `NULL` work as in C, and every access
// through a pointer is an ordinary access of its array, counted from the array's own addresses.
// A pointer variable moves freely within its array (`p += k`); pointed into another array where
// it is declared, it becomes a new variable from there on. A pointer that may point into one of
// several arrays (swapped in a loop, re-pointed in a branch, `flag ? a : b`) is a
// `Space::Choice` pointer: its value carries its array's number (`CHOICE_SHIFT`), and the engine
// sends each lane's access to the array it names. A variable found re-pointed after its first
// use makes the checker start the kernel again with that variable a choice from its declaration.

use super::expr::constant;
use super::typed::*;
use super::{Binding, CheckError, KernelChecker, PointerProblem};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, UnOp};
use crate::value::{CmpOp, Scalar, Value};
use std::rc::Rc;

type Result<T> = std::result::Result<T, CheckError>;

/// A pointer value.
#[derive(Clone, Debug)]
pub(crate) struct Ptr {
    /// The array and pointee type; `None` for the null pointer constant (`NULL`, `nullptr`, `0`).
    pub mem: Option<Mem>,
    /// Offset from the array's first element in pointee units (`i64`); [`NULL_OFFSET`] where null.
    pub offset: Expr,
    /// `const T*`: stores through it are rejected.
    pub is_const: bool,
}

/// A pointer variable: a local `T* p`, a re-pointed kernel parameter, or a `__device__`
/// function's pointer parameter. Its variable holds the offset.
#[derive(Clone, Debug)]
pub(crate) struct PtrVar {
    /// The name (for messages).
    pub name: String,
    /// The `i64` variable holding the offset.
    pub var: VarId,
    /// Declared pointee: component type and components.
    pub pointee: (Scalar, u32),
    /// The array it points into, once known (from its first assignment).
    pub mem: Option<Mem>,
    /// Assigned at all (perhaps only `NULL`).
    pub assigned: bool,
    /// How many scopes were open where it was declared.
    pub scope: usize,
    /// Where it was declared.
    pub span: Span,
    /// `const T*`.
    pub is_const: bool,
    /// A `__device__` function's `void*` parameter: it must be cast before it is read.
    pub is_void: bool,
    /// A struct's pointer member, or an element of an array of pointers: its variable is the
    /// struct's leaf or the array's element, so it is never declared again under a new variable.
    pub in_struct: bool,
    /// A struct's pointer member simt holds but does not follow ([`super::structs::Target::Opaque`]),
    /// its pointee as written: reading it is refused.
    pub opaque: Option<String>,
    /// Re-pointed into another array after its first use (an earlier pass found it): it may
    /// point into several, so it holds a [`Space::Choice`] value from its declaration on.
    pub choice: bool,
    /// Pointed into shared memory and into global memory (an earlier pass found it): its
    /// choice may be of either ([`may_be_global`]).
    pub mixed: bool,
    /// `float t[4][8]` as a parameter: a pointer to rows of 8, so `t[r][c]` is `t[8 r + c]`.
    pub rows: Vec<u64>,
    /// `__shared__ T* p;`: the shared word that holds its offset for the whole block
    /// ([`super::shared_pointer`]); its variable is only each read's copy.
    pub shared: Option<u32>,
}

/// `a[i][j]`: the expression indexed (`a`) and the indices, outermost first.
pub(crate) fn index_chain(e: &ast::Expr) -> (&ast::Expr, Vec<&ast::Expr>) {
    let mut indices = Vec::new();
    let mut cur = e;
    while let ast::ExprKind::Index { base, index } = &cur.kind {
        indices.push(index.as_ref());
        cur = base;
    }
    indices.reverse();
    (cur, indices)
}

/// A row of a multi-dimensional array ([`KernelChecker::row_of`]).
pub(crate) struct RowOf<'e> {
    /// The array's memory (`None`: the pointer's).
    mem: Option<Mem>,
    /// Its dimensions (a pointer's first is 0: unknown).
    dims: Vec<u64>,
    /// The indices given, fewer than the dimensions.
    indices: Vec<&'e ast::Expr>,
    /// The pointer parameter indexed, for a pointer to rows.
    base: Option<&'e ast::Expr>,
}

impl<'g> KernelChecker<'g, '_> {
    /// [`index_chain`], stopped at an element of an array of pointers (`p.tex[0][i]` is
    /// `p.tex[0]` indexed by `i`).
    pub(crate) fn pointer_index_chain<'e>(
        &self,
        e: &'e ast::Expr,
    ) -> (&'e ast::Expr, Vec<&'e ast::Expr>) {
        let mut indices = Vec::new();
        let mut cur = e;
        while let ast::ExprKind::Index { base, index } = &cur.kind {
            // `ptrs[k]` of an array of pointers (a local's, a struct's, a `T**`'s): a pointer
            // the rest of the chain indexes (`keys[0][i]`); `v[r]` of a struct whose
            // `operator[]` returns a pointer, which `v[r][c]` indexes.
            if !std::ptr::eq(cur, e)
                && (self.pointer_elements(cur).is_some()
                    || self.slot_type(cur).is_some()
                    || self.pointer_conversion(cur).is_some())
            {
                break;
            }
            indices.push(index.as_ref());
            cur = base;
        }
        indices.reverse();
        (cur, indices)
    }

    /// `s` of a struct with data whose conversion operator gives a pointer (OpenCV's
    /// `PtrStepSz<T>` with its `operator T*()`), where a pointer is needed (`s[i]`,
    /// `T* p = s;`): the call `s.operator T*()`. And `s[r]` of a struct whose `operator[]`
    /// returns a pointer (MMseqs2's `PSSM_2D_View` rows, `v[r][c]`): `s.operator[](r)`.
    pub(crate) fn pointer_conversion(&self, e: &ast::Expr) -> Option<ast::Expr> {
        let (object, method, args) = match &e.kind {
            ast::ExprKind::Name(_) => (e, "operator", Vec::new()),
            ast::ExprKind::Index { base, index } => {
                (&**base, "operator[]", vec![(**index).clone()])
            }
            _ => return None,
        };
        self.pointer_method(object, method).map(|_| ast::Expr {
            kind: ast::ExprKind::Method {
                object: Box::new(object.clone()),
                method: ast::Ident {
                    name: method.into(),
                    span: e.span,
                },
                targs: Vec::new(),
                args,
            },
            span: e.span,
        })
    }

    /// `s.a`, `p->a` or `ps[i].a` of an array member of scalars (or `a` alone in a member
    /// function), as the pointer to its first element it converts to (C++ [conv.array]):
    /// `&s.a[0]` (ggml's `x->qs + 4*il`, a member array passed as a pointer argument).
    pub(crate) fn decayed_member(&self, e: &ast::Expr) -> Option<ast::Expr> {
        let inner = match &e.kind {
            ast::ExprKind::Member { base, field } => {
                let layout = self.named_layout(base)?;
                let super::structs::MemberKind::Compound(inner) = &layout.member(&field.name)?.kind
                else {
                    return None;
                };
                Rc::clone(inner)
            }
            // An array member named alone in a member function (`g.next(ks)`).
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => Rc::clone(&self.struct_vars[i as usize].layout),
                _ => return None,
            },
            _ => return None,
        };
        let scalars = inner.members.iter().all(|m| match &m.kind {
            super::structs::MemberKind::Scalar(_) => true,
            // `uint4 v[2]`: an array of vectors decays to a `uint4*`.
            super::structs::MemberKind::Compound(v) => v.def.is_none() && !v.array,
            super::structs::MemberKind::Pointer(_) => false,
        });
        if !inner.array || !scalars {
            return None;
        }
        let zero = ast::Expr {
            kind: ast::ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
                hex: false,
            },
            span: e.span,
        };
        Some(ast::Expr {
            kind: ast::ExprKind::Unary {
                op: UnOp::AddrOf,
                operand: Box::new(ast::Expr {
                    kind: ast::ExprKind::Index {
                        base: Box::new(e.clone()),
                        index: Box::new(zero),
                    },
                    span: e.span,
                }),
            },
            span: e.span,
        })
    }

    /// The struct `e` names, where its name and form say so without typing it: a struct
    /// variable or `__constant__` struct, `*p` or `p[i]` of a pointer to structs (a parameter
    /// or a variable), a struct member of one.
    pub(crate) fn named_layout(&self, e: &ast::Expr) -> Option<Rc<super::structs::Layout>> {
        let pointee = |n: &str| match self.lookup(n)? {
            Binding::Pointer(i) => self.struct_ptrs.get(&i).cloned(),
            Binding::Param(p) => self.struct_spaces.get(&Space::Global(p)).cloned(),
            Binding::Shared(s) => self.struct_spaces.get(&Space::Shared(s)).cloned(),
            _ => None,
        };
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => Some(Rc::clone(&self.struct_vars[i as usize].layout)),
                Binding::Param(p) if self.file_scalar(p).is_some() => {
                    self.struct_spaces.get(&Space::Global(p)).cloned()
                }
                _ => None,
            },
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            }
            | ast::ExprKind::Index { base: operand, .. } => match &operand.kind {
                ast::ExprKind::Name(n) => pointee(n),
                _ => None,
            },
            ast::ExprKind::Member { base, field } => {
                match &self.named_layout(base)?.member(&field.name)?.kind {
                    super::structs::MemberKind::Compound(sub) if !sub.array => Some(Rc::clone(sub)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `e` is a pointer-valued expression (decided from names and forms, without typing it).
    /// The function a call of `name` with `n` arguments calls, as far as the number tells: the
    /// one overload taking `n` (`float* f(float*)` beside `void f(float*, const float*)`), or
    /// the first of several that agree on returning a pointer or not; else the first declared.
    fn callee_of_arity(&self, name: &str, n: usize) -> Option<&'g ast::Function> {
        let first = self.globals.functions.get(name).copied();
        let Some(all) = self.globals.overloads.get(name) else {
            return first;
        };
        let fitting: Vec<&ast::Function> = all
            .iter()
            .copied()
            .filter(|f| super::operators::takes(f, n))
            .collect();
        match fitting.split_first() {
            Some((f, rest)) if rest.iter().all(|g| g.ret.pointer == f.ret.pointer) => Some(f),
            _ => first,
        }
    }

    pub(crate) fn is_pointer(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                // A `__constant__` scalar is a value.
                Some(Binding::Param(p)) => !self.constant_dims.get(&p).is_some_and(Vec::is_empty),
                Some(Binding::Pointer(_)) => true,
                Some(Binding::Shared(s)) => !self.shared[s as usize].is_scalar(),
                Some(Binding::LocalArray(_)) => true,
                // `this` in a member function (`return this + diff;`).
                Some(Binding::Struct(_)) if n == "this" => true,
                Some(Binding::Struct(_)) => self.decayed_member(e).is_some(),
                // `SharedMemory<T> s;` indexed as `s[i]`: its `operator T*()`.
                Some(Binding::Object(i)) => self.globals.structs[self.objects[i as usize].def]
                    .methods
                    .iter()
                    .any(|m| m.name.name == "operator" && m.ret.pointer),
                Some(_) => false,
                None => n == "NULL" || n == "nullptr",
            },
            ast::ExprKind::Unary {
                op: UnOp::AddrOf, ..
            } => true,
            ast::ExprKind::Member { .. } => {
                self.member_pointer(e).is_some() || self.decayed_member(e).is_some()
            }
            ast::ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
                ..
            } => self.is_pointer(lhs) || self.is_pointer(rhs),
            ast::ExprKind::Binary {
                op: BinOp::Sub,
                lhs,
                rhs,
                ..
            } => self.is_pointer(lhs) && !self.is_pointer(rhs),
            ast::ExprKind::Cast { ty, .. } => ty.pointer,
            ast::ExprKind::New { .. } => true,
            // `tile[i]` of `float tile[4][8]`: row i.
            ast::ExprKind::Index { .. } if self.accessor_row(e) => true,
            ast::ExprKind::Index { .. } if self.pointer_conversion(e).is_some() => true,
            ast::ExprKind::Index { .. } if self.row_of(e).is_some() => true,
            ast::ExprKind::Index { .. } if self.pointer_elements(e).is_some() => true,
            // `d_list[i]`, `*d_world`: a pointer stored in memory.
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: UnOp::Deref, ..
            } => self.holds_pointers(e),
            ast::ExprKind::IncDec { target, .. } => self.is_pointer(target),
            ast::ExprKind::Ternary { then, els, .. } => {
                self.is_pointer(then) || self.is_pointer(els)
            }
            ast::ExprKind::Call { callee, .. } if self.is_heap_call(callee, "malloc") => true,
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                let name = super::groups::unqualified(&callee.name);
                let f = self.callee_of_arity(name, args.len());
                f.is_some_and(|f| f.ret.pointer || self.returns_bound_pointer(f, targs, args))
                    || (args.is_empty() && self.struct_converts(name))
            }
            ast::ExprKind::Method { .. } if self.accessor_data(e).is_some() => true,
            ast::ExprKind::Method { object, method, .. } => match &object.kind {
                ast::ExprKind::Name(n) if matches!(self.lookup(n), Some(Binding::Object(_))) => {
                    let Some(Binding::Object(i)) = self.lookup(n) else {
                        unreachable!("matched: an object")
                    };
                    self.globals.structs[self.objects[i as usize].def]
                        .methods
                        .iter()
                        .any(|m| m.name.name == method.name && m.ret.pointer)
                }
                _ => self.pointer_method(object, &method.name).is_some(),
            },
            _ => false,
        }
    }

    /// The pointer `e` evaluates to. `e` must satisfy [`Self::is_pointer`], or be the integer 0.
    /// `tile[i]` of a shared or local array declared with more dimensions than it is indexed
    /// with (`float tile[4][8]`): a row, which decays to a pointer to its first element as in
    /// C. Its memory, the array's dimensions and the indices given.
    /// A pointer parameter declared with rows (`T t[4][8]`) is a row too: `t[k]` (its base is
    /// then `Some`, the pointer itself).
    pub(crate) fn row_of<'e>(&self, e: &'e ast::Expr) -> Option<RowOf<'e>> {
        let (cur, indices) = index_chain(e);
        let ast::ExprKind::Name(n) = &cur.kind else {
            return None;
        };
        let (mem, dims, base) = match self.lookup(n)? {
            Binding::Shared(s) if !self.shared[s as usize].is_extern => (
                Some(self.shared_mem(s)),
                self.shared[s as usize].dims.clone(),
                None,
            ),
            Binding::LocalArray(l) => (
                Some(self.local_array_mem(l)),
                self.local_arrays[l as usize].dims.clone(),
                None,
            ),
            Binding::Param(p) => {
                let (mem, dims) = self.file_array(p)?;
                (Some(mem), dims, None)
            }
            Binding::Pointer(i) if !self.ptr_vars[i as usize].rows.is_empty() => {
                let mut dims = vec![0];
                dims.extend(&self.ptr_vars[i as usize].rows);
                (None, dims, Some(cur))
            }
            _ => return None,
        };
        (!indices.is_empty() && indices.len() < dims.len()).then_some(RowOf {
            mem,
            dims,
            indices,
            base,
        })
    }

    /// `sizeof` of a row of an array of several dimensions (`sizeof(a[0])` of `float a[2][3]`:
    /// 12), which elsewhere converts to a pointer; `None` if `e` is no row.
    pub(crate) fn row_bytes(&self, e: &ast::Expr) -> Option<u64> {
        let row = self.row_of(e)?;
        let (elem, width) = match (row.mem, row.base.map(|b| &b.kind)) {
            (Some(m), _) => (m.elem, m.width),
            (None, Some(ast::ExprKind::Name(n))) => match self.lookup(n)? {
                Binding::Pointer(i) => self.ptr_vars[i as usize].pointee,
                _ => return None,
            },
            _ => return None,
        };
        let n: u64 = row.dims[row.indices.len()..].iter().product();
        Some(u64::from(elem.size() * width) * n)
    }

    pub(crate) fn pointer(&mut self, e: &ast::Expr) -> Result<Ptr> {
        let span = e.span;
        if let Some(call) = self.pointer_conversion(e) {
            return self.pointer(&call);
        }
        match &e.kind {
            ast::ExprKind::New {
                place: Some(place), ..
            } => Err(CheckError::Unsupported {
                what: "placement `new`".into(),
                span: *place,
                help: Some("simt's `new` allocates from the device heap: construct the object as a local (`T t(args);`) and copy it where it goes".into()),
            }),
            ast::ExprKind::New {
                ty, args, count, ..
            } => self.new_pointer_value((ty, args, count.as_deref()), span),
            ast::ExprKind::Call { callee, args, .. } if self.is_heap_call(callee, "malloc") => {
                self.malloc(args, span)
            }
            ast::ExprKind::Index { .. } if self.accessor_row(e) => self.accessor_row_start(e),
            ast::ExprKind::Index { .. } if self.row_of(e).is_some() => {
                let RowOf {
                    mem,
                    dims,
                    indices,
                    base,
                } = self.row_of(e).expect("checked: a row");
                let mut offset: Option<Expr> = None;
                for (k, ix) in indices.iter().enumerate() {
                    let t = self.index_value(ix)?;
                    let t = self.convert(t, Scalar::I64);
                    offset = Some(match offset {
                        None => t,
                        Some(prev) => {
                            let width = constant(Value::I64(dims[k] as i64), span);
                            let scaled = self.binary(BinOp::Mul, span, prev, width)?;
                            self.binary(BinOp::Add, span, scaled, t)?
                        }
                    });
                }
                // A struct array's offsets count its structs' components.
                let stride = self.struct_stride(index_chain(e).0).unwrap_or(1);
                let row: u64 = dims[indices.len()..].iter().product::<u64>() * u64::from(stride);
                let first = offset.expect("checked: at least one index");
                let offset = self.binary(BinOp::Mul, span, first, constant(Value::I64(row as i64), span))?;
                match base {
                    None => Ok(Ptr {
                        mem,
                        offset,
                        is_const: false,
                    }),
                    Some(b) => {
                        let p = self.pointer(b)?;
                        let offset = self.binary(BinOp::Add, span, p.offset, offset)?;
                        Ok(Ptr { offset, ..p })
                    }
                }
            }
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: UnOp::Deref, ..
            } if self.holds_pointers(e) => self.loaded_pointer(e),
            // `*p++`: the pointer variable's offset before (or after) its step.
            ast::ExprKind::IncDec { target, inc, post } if self.pointer_var(target).is_some() => {
                let i = self
                    .pointer_var(target)
                    .expect("checked: a pointer variable");
                if !self.ptr_vars[i as usize].rows.is_empty() {
                    return Err(step_rows(span));
                }
                self.not_shared_pointer(i, span)?;
                let pv = &self.ptr_vars[i as usize];
                let (mem, var, is_const) = (pv.mem, pv.var, pv.is_const);
                let offset = self.stepped((target, *inc, *post), var, Scalar::I64, span)?;
                Ok(Ptr {
                    mem,
                    offset,
                    is_const,
                })
            }
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Param(p)) => match self.params[p as usize].kind {
                    ParamKind::Buffer {
                        elem,
                        width,
                        is_const,
                    } => Ok(Ptr {
                        // `__constant__` memory is not `const` in C++'s types: a plain pointer
                        // may point into it (writes are refused where they are written).
                        is_const: is_const && !self.constant_dims.contains_key(&p),
                        mem: Some(Mem {
                            space: Space::Global(p),
                            elem,
                            width,
                        }),
                        offset: Expr {
                            kind: ExprKind::ParamBase(p),
                            ty: Scalar::I64,
                            span,
                        },
                    }),
                    ParamKind::Scalar { .. } => {
                        unreachable!("checker: scalar params bind as locals")
                    }
                },
                Some(Binding::Shared(s)) => Ok(Ptr {
                    mem: Some(self.shared_mem(s)),
                    offset: constant(Value::I64(0), span),
                    is_const: false,
                }),
                Some(Binding::LocalArray(l)) => Ok(Ptr {
                    mem: Some(self.local_array_mem(l)),
                    offset: constant(Value::I64(0), span),
                    is_const: false,
                }),
                Some(Binding::Pointer(i)) => self.pointer_held(i, span),
                // `this` in a member function: the object's address.
                Some(Binding::Struct(i)) if n == "this" => self.struct_address(i, n, span),
                Some(Binding::Struct(_)) if self.decayed_member(e).is_some() => {
                    let first = self.decayed_member(e).expect("checked: an array member");
                    self.pointer(&first)
                }
                Some(Binding::Object(_)) if self.is_pointer(e) => self
                    .object_pointer(e)
                    .expect("checked: an object that converts to a pointer"),
                None if n == "NULL" || n == "nullptr" => Ok(null(span)),
                _ => self.null_constant(e),
            },
            ast::ExprKind::Unary {
                op: UnOp::AddrOf,
                operand,
            } => self.address_of(operand, span),
            ast::ExprKind::Member { .. } if self.member_pointer(e).is_some() => {
                let i = self.member_pointer(e).expect("checked: a pointer member");
                self.pointer_held(i, span)
            }
            ast::ExprKind::Index { .. } if self.pointer_elements(e).is_some() => {
                let (vars, index) = self.pointer_elements(e).expect("checked: pointer elements");
                self.pointer_element(&vars, index, span)
            }
            ast::ExprKind::Member { .. } if self.decayed_member(e).is_some() => {
                // `&s.a[0]` is found through the struct `s.a` belongs to; where that is not
                // known here, taking it again would come back to this member.
                if !self.struct_of(e).is_some_and(|l| l.array) {
                    return Err(CheckError::Unsupported {
                        what: "the address of this array member".into(),
                        span,
                        help: Some(
                            "reach the struct through a pointer parameter or a local, or index the member (`s.a[i]`)".into(),
                        ),
                    });
                }
                let first = self.decayed_member(e).expect("checked: an array member");
                self.pointer(&first)
            }
            ast::ExprKind::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                op_span,
                lhs,
                rhs,
            } => {
                let (p, k) = if self.is_pointer(lhs) {
                    (lhs, rhs)
                } else {
                    (rhs, lhs)
                };
                if !self.is_pointer(p) {
                    // Neither side is a pointer: type the other side first, so that an unknown
                    // name there is reported as one (not as "expected a pointer").
                    self.expr(k)?;
                }
                let base = self.pointer(p)?;
                let Some(mem) = base.mem else {
                    // `eoff + i` of `eoff = nullptr`, an operand DGL's `CopyLhs` never reads:
                    // points nowhere still, so a dereference is refused where it is. An
                    // offset that does something (`e + i++`) would be dropped with it.
                    self.offset_operand(k)?;
                    if super::assign_value::steps(k) {
                        return Err(CheckError::Unsupported {
                            what: "an offset with side effects added to a null pointer".into(),
                            span: k.span,
                            help: Some("compute the offset first (`int j = i++;`), then add it".into()),
                        });
                    }
                    return Ok(base);
                };
                let mut k = self.offset_operand(k)?;
                if let Some(stride) = self.struct_stride(p) {
                    k = self.scaled(k, stride, *op_span)?;
                }
                if let Some(row) = self.pointer_var(p).and_then(|i| self.row_size(i, span)) {
                    k = self.scaled(k, row?, *op_span)?;
                }
                // `s + 1` of `float s[4][4]`: a pointer to row 1, four elements in.
                if let Some(row) = self.array_row_size(p) {
                    let row = u32::try_from(row).map_err(|_| CheckError::TooComplex {
                        what: format!("a row of {row} elements"),
                        span,
                    })?;
                    k = self.scaled(k, row, *op_span)?;
                }
                let offset = self.add_offset(base.offset, k, *op, *op_span)?;
                Ok(Ptr {
                    mem: Some(mem),
                    offset: Expr { span, ..offset },
                    is_const: base.is_const,
                })
            }
            // `(T*)(a & ~3)`: an integer holding an address, back to a pointer.
            ast::ExprKind::Cast { ty, expr }
                if ty.pointer
                    && !ty.reference
                    && !self.is_pointer(expr)
                    && !matches!(&expr.kind, ast::ExprKind::Name(n) if n == "NULL" || n == "nullptr") =>
            {
                self.integer_as_pointer(ty, expr, span)
            }
            ast::ExprKind::Cast { ty, expr } if ty.pointer => {
                let inner = self.pointer(expr)?;
                if ty.reference {
                    self.c_reference_cast(ty, expr, &inner)?;
                }
                // `(void*)p`: the same address, typed again by the cast around it
                // (`(T*)(void*)smem`, as cuda-samples' `SharedMemory<T>` writes it).
                if ty.base == ast::BaseType::Void {
                    return Ok(inner);
                }
                let mut source = expr.as_ref();
                while let ast::ExprKind::Cast { ty, expr } = &source.kind {
                    if !(ty.pointer && ty.base == ast::BaseType::Void) {
                        break;
                    }
                    source = expr;
                }
                let from_struct = self.struct_stride(source).is_some();
                self.cast_pointer(inner, from_struct, ty, span)
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if self.is_pointer(e) => {
                if let Some(p) = self.object_pointer(e) {
                    return p;
                }
                let name = super::groups::unqualified(&callee.name);
                let f = match self.overload_with(name, targs, args)? {
                    Some(f) => f,
                    None => self.globals.functions[name],
                };
                self.call_pointer(f, targs, args, span)
            }
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
                ..
            } if self.is_pointer(e) => {
                if let Some(p) = self.accessor_data(e) {
                    return Ok(p);
                }
                if let Some(p) = self.object_pointer(e) {
                    return p;
                }
                let f = self
                    .pointer_method(object, &method.name)
                    .expect("checked: a pointer method");
                let call = match self.struct_of(object) {
                    // A conversion operator: the one to a pointer, whatever others there are.
                    Some(l) if method.name == "operator" => {
                        self.call_on(object, &l, &f, (targs, args), (span, false))?
                    }
                    _ => self.method_call(object, &method.name, (targs, args), span, false)?,
                };
                self.returned_pointer(&f, call, span)
            }
            ast::ExprKind::Ternary { cond, then, els } => {
                let c = self.condition(cond)?;
                // A condition known when checking (a template's `bool`) picks one side, which
                // may point into another space than the other (llama.cpp's `use_shared ?
                // buf_iw + WARP_SIZE : dst`).
                if let ExprKind::Const(v) = c.kind {
                    return self.pointer(if v.is_true() { then } else { els });
                }
                let t = self.pointer(then)?;
                let f = self.pointer(els)?;
                self.select_pointer(c, t, f, span)
            }
            _ => self.null_constant(e),
        }
    }

    /// Element `index` of an array of pointers held in `vars` (`p.tex[level]`). A constant index
    /// is that element; one known only at run time picks among them, each element costing a
    /// compare and a select (the hardware's one indexed load of the kernel's parameters is not
    /// modelled), and past the end gives a null pointer, which traps where it is followed.
    fn pointer_element(&mut self, vars: &[u32], index: &ast::Expr, span: Span) -> Result<Ptr> {
        let ix = match self.element_of(vars, index)? {
            Ok(var) => return self.pointer_held(var, span),
            Err(ix) => ix,
        };
        // The index is computed once (`rows[idx[t]]` loads `idx[t]` once), then compared.
        let mut body = Vec::new();
        let ix = self.held_once(ix, "index", &mut body);
        let mut picked = null(span);
        for (k, &var) in vars.iter().enumerate().rev() {
            let here = self.pointer_held(var, span)?;
            let c = self.is_element(&ix, k, span)?;
            picked = self.select_pointer(c, here, picked, span)?;
        }
        if body.is_empty() {
            return Ok(picked);
        }
        let result = self.new_local("pointer element", Scalar::I64, span);
        body.push(super::memfn::assign(result, picked.offset, span));
        Ok(Ptr {
            offset: Expr {
                kind: ExprKind::Inline {
                    name: "[]".into(),
                    body,
                    result: Some(result),
                },
                ty: Scalar::I64,
                span,
            },
            ..picked
        })
    }

    /// The element of an array of pointers (`vars`, one per element) that `index` names: its
    /// pointer variable where the index is a constant (one past the end is an error, as an
    /// array's constant index is), else the index, an integer, to compare at run time.
    fn element_of(
        &mut self,
        vars: &[u32],
        index: &ast::Expr,
    ) -> Result<std::result::Result<u32, Expr>> {
        let ix = super::const_eval::folded(self.expr(index)?);
        if !ix.ty.is_integer() {
            return Err(CheckError::Mismatch {
                expected: "an integer index".into(),
                found: format!("a `{}`", ix.ty),
                span: index.span,
                help: Some("index an array of pointers with an integer".into()),
            });
        }
        let ExprKind::Const(v) = ix.kind else {
            return Ok(Err(ix));
        };
        let k = v.as_i64().and_then(|k| usize::try_from(k).ok());
        match k.and_then(|k| vars.get(k)) {
            Some(&var) => Ok(Ok(var)),
            None => Err(CheckError::Unsupported {
                what: format!("element {v} of an array of {} pointers", vars.len()),
                span: index.span,
                help: Some(format!("index it from 0 to {}", vars.len() - 1)),
            }),
        }
    }

    /// `e` as a value that may be read again: itself where it is a variable or a constant,
    /// else a new variable `out` first assigns it to.
    fn held_once(&mut self, e: Expr, what: &str, out: &mut Vec<Stmt>) -> Expr {
        if matches!(e.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
            return e;
        }
        let (ty, span) = (e.ty, e.span);
        let var = self.new_local(what, ty, span);
        out.push(super::memfn::assign(var, e, span));
        Expr {
            kind: ExprKind::Var(var),
            ty,
            span,
        }
    }

    /// `rows[i] = value;` of a thread's array of pointers with `i` known only at run time: each
    /// element takes `value` where `i` names it and keeps what it held elsewhere (a compare and
    /// a select per element).
    pub(crate) fn assign_pointer_elements(
        &mut self,
        vars: &[u32],
        index: &ast::Expr,
        value: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let ix = match self.element_of(vars, index)? {
            Ok(var) => {
                let p = self.pointer_for(var, value)?;
                out.push(self.point(var, p, span)?);
                return Ok(());
            }
            Err(ix) => ix,
        };
        let mut p = self.pointer(value)?;
        // Each computed once, before any element changes.
        let ix = self.held_once(ix, "index", out);
        p.offset = self.held_once(p.offset, "pointer", out);
        for (k, &var) in vars.iter().enumerate() {
            let old = self.pointer_held(var, span)?;
            let c = self.is_element(&ix, k, span)?;
            let new = self.select_pointer(c, p.clone(), old, span)?;
            out.push(self.point(var, new, span)?);
        }
        Ok(())
    }

    /// `ix == k` for an index into an array of pointers.
    fn is_element(&mut self, ix: &Expr, k: usize, span: Span) -> Result<Expr> {
        let number = constant(Value::I64(k as i64), span);
        let widened = self.widen(ix.clone());
        self.binary(BinOp::Eq, span, widened, number)
    }

    /// `c ? t : f` of two pointers, which may point into different arrays.
    fn select_pointer(&mut self, c: Expr, t: Ptr, f: Ptr, span: Span) -> Result<Ptr> {
        let (t, f) = self.unify((t, f), true, span)?;
        let mem = self.same_array(t.mem, f.mem, span)?;
        let is_const = t.is_const || f.is_const;
        let offset = self.select_offset(c, t.offset, f.offset, span);
        Ok(Ptr {
            mem,
            offset,
            is_const,
        })
    }

    /// The pointer a pointer variable holds.
    pub(crate) fn pointer_held(&self, i: u32, span: Span) -> Result<Ptr> {
        if let Some(e) = self.opaque_read(i, span) {
            return Err(e);
        }
        let pv = &self.ptr_vars[i as usize];
        let offset = match pv.shared {
            Some(s) => self.shared_pointer_offset(i, s, span),
            None => Expr {
                kind: ExprKind::Var(pv.var),
                ty: Scalar::I64,
                span,
            },
        };
        if pv.mem.is_none() && pv.assigned {
            // Only `NULL` so far: a null pointer held in a variable.
            return Ok(Ptr {
                mem: None,
                offset,
                is_const: pv.is_const,
            });
        }
        let Some(mem) = pv.mem else {
            return Err(CheckError::Pointer {
                problem: PointerProblem::Unassigned {
                    name: pv.name.clone(),
                    moved: false,
                },
                span,
                help: Some(format!("assign it first, e.g. `{} = a + i;`", pv.name)),
            });
        };
        Ok(Ptr {
            mem: Some(mem),
            offset,
            is_const: pv.is_const,
        })
    }

    /// The error for reading pointer variable `i` if it is an opaque pointer member (to `void`,
    /// to a pointer, to a struct that holds pointers), which simt holds but does not follow.
    fn opaque_read(&self, i: u32, span: Span) -> Option<CheckError> {
        let pv = &self.ptr_vars[i as usize];
        let what = pv.opaque.as_ref()?;
        Some(CheckError::Unsupported {
            what: format!("reading the member `{}`, a pointer to `{what}`,", pv.name),
            span,
            help: Some(
                "simt holds a pointer member to `void`, to a pointer, to a struct that holds pointers or to a class the file only declares, but does not follow it; declare the member as a pointer to the type the kernel reads (`float* data;`)".into(),
            ),
        })
    }

    /// `p->x` or `(*p).x` where `p` is an opaque pointer member: the error for reading it.
    pub(crate) fn opaque_member_base(&self, base: &ast::Expr) -> Option<CheckError> {
        let ast::ExprKind::Unary {
            op: UnOp::Deref,
            operand,
        } = &base.kind
        else {
            return None;
        };
        self.opaque_read(self.member_pointer(operand)?, operand.span)
    }

    /// The pointer an inlined call of `f` returns.
    pub(crate) fn call_pointer(
        &mut self,
        f: &ast::Function,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Ptr> {
        let call = self.inline_call(f, (targs, args), span, false)?;
        self.returned_pointer(f, call, span)
    }

    /// A pointer of type `ty` into a placeholder array: a parameter of a function checked on its
    /// own, or what a function whose body has errors returns. It is only checked, never run.
    pub(crate) fn placeholder_pointer(&mut self, ty: &ast::TypeName, span: Span) -> Result<Ptr> {
        let (elem, width) = match self.layout_of(ty).transpose()? {
            Some(l) => self.buffer_of(&l, ty.span),
            None => super::vector::elem_of(ty)?,
        };
        Ok(Ptr {
            mem: Some(Mem {
                space: Space::Global(u32::MAX),
                elem,
                width,
            }),
            offset: constant(Value::I64(0), span),
            is_const: ty.is_const,
        })
    }

    /// Whether a call of the function template `f` returns a pointer through the type
    /// parameter it returns, bound to a pointer: `template <class It> It first(It lo)` given
    /// `t + 1` (deduced from the argument of a parameter of that type), or `first<float*>(t)`.
    fn returns_bound_pointer(
        &self,
        f: &ast::Function,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
    ) -> bool {
        let ret = &f.ret;
        if ret.base != ast::BaseType::Named || ret.pointer || ret.reference {
            return false;
        }
        let Some(k) = f.template.iter().position(|p| {
            p.name.name == ret.base_text && matches!(p.kind, ast::TemplateParamKind::Type(_))
        }) else {
            return false;
        };
        if let Some(ast::TemplateArg::Type(t)) = targs.get(k) {
            return t.pointer;
        }
        f.params.iter().zip(args).any(|(p, a)| {
            p.ty.base == ast::BaseType::Named
                && p.ty.base_text == ret.base_text
                && !p.ty.pointer
                && self.is_pointer(a)
        })
    }

    /// The pointer the inlined call `call` of `f` returned.
    pub(crate) fn returned_pointer(
        &mut self,
        f: &ast::Function,
        call: Expr,
        span: Span,
    ) -> Result<Ptr> {
        let name = &f.name.name;
        let super::intrinsics::RetShape::Pointer(i) = self.last_ret else {
            // A body with errors (reported already) stands for a pointer into no real array.
            return self.placeholder_pointer(&f.ret, span);
        };
        let pv = &self.ptr_vars[i as usize];
        let Some(mem) = pv.mem else {
            if self.globals.broken.borrow().contains(name) {
                return self.placeholder_pointer(&f.ret, span);
            }
            return Err(CheckError::Pointer {
                problem: PointerProblem::ReturnsNowhere {
                    function: name.to_string(),
                },
                span,
                help: Some("return a pointer into a parameter or an array".into()),
            });
        };
        Ok(Ptr {
            mem: Some(mem),
            offset: call,
            is_const: pv.is_const,
        })
    }

    /// `0` where a pointer is expected is the null pointer; anything else is a type error.
    fn null_constant(&mut self, e: &ast::Expr) -> Result<Ptr> {
        let t = self.expr(e)?;
        match t.kind {
            ExprKind::Const(v) if t.ty.is_integer() && v.as_i64() == Some(0) => Ok(null(e.span)),
            _ => Err(CheckError::Pointer {
                problem: PointerProblem::NotAPointer {
                    found: t.ty.to_string(),
                },
                span: e.span,
                help: Some("point into an array: `a + i`, `&a[i]`, or `NULL`".into()),
            }),
        }
    }

    /// The address of a member `place` of `base` when it is an element in memory; `None` when
    /// it is not (held in registers, or no member place at all).
    fn element_address(
        &mut self,
        place: Option<Result<super::vector::Place>>,
        base: &ast::Expr,
    ) -> Option<Result<Ptr>> {
        match place? {
            Ok(super::vector::Place::Elem(mem, index)) => Some(Ok(Ptr {
                mem: Some(mem),
                offset: self.widen(index),
                is_const: self.place_is_const(base),
            })),
            Err(e) => Some(Err(e)),
            Ok(_) => None,
        }
    }

    /// `&x` of a `const` value simt holds in a register (StyleGAN3's `get_stride(const int64_t&
    /// x) { return *reinterpret_cast<const T*>(&x); }` of a struct parameter's member): a
    /// one-element local array holding its value, written where the address is taken. Nothing
    /// may write through it (`const`), so the copy always reads as the value does.
    pub(crate) fn const_address(&mut self, n: &str, var: VarId, span: Span) -> Result<Ptr> {
        let declared = self.locals[var.0 as usize].declared;
        let name = ast::Ident {
            name: format!("&{n}"),
            span,
        };
        let one = ast::Expr {
            kind: ast::ExprKind::Int {
                value: 1,
                unsigned: false,
                long: false,
                hex: false,
            },
            span,
        };
        let value = ast::Expr {
            kind: ast::ExprKind::Name(n.to_string()),
            span,
        };
        let d = ast::Declarator {
            dims: vec![Some(one)],
            list: Some((vec![value], span)),
            ..ast::Declarator::plain(name.clone(), None)
        };
        let mut body = Vec::new();
        self.local_array((declared, 1), &d, &mut body)?;
        let start = self.pointer(&ast::Expr {
            kind: ast::ExprKind::Name(name.name.clone()),
            span,
        })?;
        let at = self.new_local(&format!("{}.offset", name.name), Scalar::I64, span);
        body.push(Stmt {
            kind: StmtKind::Assign {
                var: at,
                value: start.offset,
            },
            span,
        });
        Ok(Ptr {
            mem: start.mem,
            offset: Expr {
                kind: ExprKind::Inline {
                    name: name.name,
                    body,
                    result: Some(at),
                },
                ty: Scalar::I64,
                span,
            },
            is_const: true,
        })
    }

    /// `&place`: the element's address.
    fn address_of(&mut self, operand: &ast::Expr, span: Span) -> Result<Ptr> {
        match &operand.kind {
            // `&data[i]` of a struct's array member (`float data[4];` in memory).
            ast::ExprKind::Index { base, .. }
                if self.struct_of(base).is_some_and(|l| l.array) =>
            {
                if let Some(place) = self.struct_place(operand) {
                    let place = place?;
                    if let super::structs::Home::Mem { .. } = place.home {
                        return Ok(self.place_address(place, span));
                    }
                }
                let place = self.member_place(operand);
                self.element_address(place, base).unwrap_or_else(|| {
                    Err(CheckError::Unsupported {
                        what: "the address of an element of a struct held in registers".into(),
                        span,
                        help: Some("read or assign the element itself".into()),
                    })
                })
            }
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: UnOp::Deref, ..
            } => {
                let is_const = self.place_is_const(operand);
                let (mut mem, mut index) = self.element(operand)?;
                // `&p[i]` of a struct: a struct pointer, whose offset counts components.
                if let Some(l) = self.struct_of(operand) {
                    index = self.scaled(index, mem.width, span)?;
                    mem.width = l.buffer_shape().1;
                }
                let offset = self.widen(index);
                Ok(Ptr {
                    mem: Some(mem),
                    offset: Expr { span, ..offset },
                    is_const,
                })
            }
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Shared(s)) if self.shared[s as usize].is_scalar() => Ok(Ptr {
                    mem: Some(self.shared_mem(s)),
                    offset: constant(Value::I64(0), span),
                    is_const: false,
                }),
                Some(Binding::Ref(i)) => {
                    let pv = &self.ptr_vars[i as usize];
                    Ok(Ptr {
                        mem: pv.mem,
                        offset: Expr {
                            kind: ExprKind::Var(pv.var),
                            ty: Scalar::I64,
                            span,
                        },
                        is_const: pv.is_const,
                    })
                }
                Some(Binding::Param(p)) if self.constant_dims.get(&p).is_some_and(Vec::is_empty) => {
                    // `&c_scale` of a `__constant__` scalar: its one element.
                    let mut at = self.pointer(&ast::Expr {
                        kind: ast::ExprKind::Name(n.clone()),
                        span,
                    })?;
                    at.offset = constant(Value::I64(0), span);
                    Ok(at)
                }
                Some(Binding::Param(_) | Binding::Pointer(_)) => Err(CheckError::Unsupported {
                    what: format!("a pointer to the pointer `{n}`"),
                    span,
                    help: Some("pass the pointer itself, or an offset".into()),
                }),
                Some(Binding::Struct(i)) => self.struct_address(i, n, span),
                // `&chunk` of a whole array (vllm's `reinterpret_cast<AccessType*>(&row_chunk)`,
                // `memcpy(&a, ...)`): the address of its first element, which the cast or call
                // around it types again.
                Some(Binding::LocalArray(_) | Binding::Shared(_)) => self.pointer(operand),
                Some(Binding::Local { var, is_const: true }) => self.const_address(n, var, span),
                Some(_) => Err(CheckError::Unsupported {
                    what: format!("the address of the local variable `{n}`"),
                    span,
                    help: Some(
                        "pass it by reference (`float& x` in the function's parameters), or use a local array `float x[1]`"
                            .into(),
                    ),
                }),
                None => Err(self.unknown_name(n, operand.span)),
            },
            // `&acc[i].y` of a `float4*` buffer (diff-gaussian-rasterization's atomic
            // accumulators), `&pts[i].b` of a struct buffer or `&t[i].u32.y` of a member's
            // member (altis' GUPS): the member's own element, as `(float*)&acc[i] + 1`.
            ast::ExprKind::Member { base, field }
                if matches!(
                    base.kind,
                    ast::ExprKind::Index { .. }
                        | ast::ExprKind::Name(_)
                        | ast::ExprKind::Member { .. }
                        | ast::ExprKind::Unary {
                            op: UnOp::Deref,
                            ..
                        }
                ) =>
            {
                // `&s[i].data` of an array member: the address of its first element, which a
                // cast around it types again (CudaSift's `(float4*)&sift1[p1].data`).
                if let Some(first) = self.decayed_member(operand) {
                    return self.pointer(&first);
                }
                // `&m[i].b` of a `float4` member of a struct in memory: a `float4*`, whose
                // offset counts vectors, where a struct pointer's counts components.
                if self.vector_member_in_memory(operand) {
                    if let Some(place) = self.struct_place(operand) {
                        let place = place?;
                        if let super::structs::Home::Mem { .. } = place.home {
                            let mut p = self.place_address(place, span);
                            p.is_const = self.place_is_const(base);
                            let width = p.mem.map_or(1, |m| m.width);
                            p.offset = self.counted_in_vectors(p.offset, width, span)?;
                            return Ok(p);
                        }
                    }
                }
                // `&v.y` of a struct member (FastGEMV's `(uint4_2*)&mat_val.x`): a struct
                // pointer to it, where the struct holding it is in memory.
                if self.struct_of(operand).is_some() {
                    if let Some(place) = self.struct_place(operand) {
                        let place = place?;
                        if let super::structs::Home::Mem { .. } = place.home {
                            let mut p = self.place_address(place, span);
                            p.is_const = self.place_is_const(base);
                            return Ok(p);
                        }
                    }
                }
                let place = match self.member_place(operand) {
                    Some(p) => Some(p),
                    None => self.component(base, field, span),
                };
                self.element_address(place, base).unwrap_or_else(|| {
                    Err(CheckError::Unsupported {
                        what: "the address of this expression".into(),
                        span,
                        help: Some("take the address of an element: `&a[i]`".into()),
                    })
                })
            }
            // `reinterpret_cast<float (&)[4]>(v)` bound to a reference: the cast's own refusal.
            ast::ExprKind::Call { callee, .. } if super::expr::is_array_cast(callee) => {
                Err(super::expr::array_cast(callee))
            }
            // `&GetRef(i, 0)` (colmap's `return GetRef(row, col, 0);` in a function returning a
            // reference): the element the returned reference names.
            ast::ExprKind::Call { .. } | ast::ExprKind::Method { .. } => {
                match self.returned_place(operand) {
                    Some(place) => {
                        let (mem, index) = place?;
                        Ok(Ptr {
                            mem: Some(mem),
                            offset: self.widen(index),
                            is_const: false,
                        })
                    }
                    // `&output.GetRef(row, col)` of a reference to a struct element (colmap's
                    // `curandState`s): the struct's address.
                    None if self.struct_of(operand).is_some() => {
                        let place = self.struct_place(operand).unwrap_or_else(|| {
                            Err(CheckError::Unsupported {
                                what: "the address of a struct returned by value".into(),
                                span,
                                help: Some("C++ takes no address of a temporary either: copy it into a variable first (`S s = f(...); S* p = &s;`), or return a reference (`S& f(...)`)".into()),
                            })
                        })?;
                        match place.home {
                            super::structs::Home::Mem { .. } => Ok(self.place_address(place, span)),
                            super::structs::Home::Regs(_) => Err(CheckError::Unsupported {
                                what: "the address of a struct held in registers".into(),
                                span,
                                help: Some("read or assign its members".into()),
                            }),
                        }
                    }
                    None => Err(CheckError::Unsupported {
                        what: "the address of this expression".into(),
                        span,
                        help: Some("take the address of an element: `&a[i]`".into()),
                    }),
                }
            }
            _ => Err(CheckError::Unsupported {
                what: "the address of this expression".into(),
                span,
                help: Some("take the address of an element: `&a[i]`".into()),
            }),
        }
    }

    /// Whether `e` is a member of a struct in memory that simt holds as a vector (`m[i].b` of
    /// `struct M { float4 a, b; }`): its address is a vector pointer, not a struct pointer.
    pub(crate) fn vector_member_in_memory(&mut self, e: &ast::Expr) -> bool {
        matches!(e.kind, ast::ExprKind::Member { .. })
            && self
                .struct_of(e)
                .is_some_and(|l| super::vector::value_vector_layout(&l).is_some())
            && matches!(
                self.struct_place(e),
                Some(Ok(super::structs::StructPlace {
                    home: super::structs::Home::Mem { .. },
                    ..
                }))
            )
    }

    /// An integer pointer offset (`p + k`) widened to `i64`.
    fn offset_operand(&mut self, k: &ast::Expr) -> Result<Expr> {
        let t = self.expr(k)?;
        if !t.ty.is_integer() && t.ty != Scalar::Bool {
            return Err(CheckError::NotAnInteger {
                what: "a pointer offset".into(),
                found: t.ty.to_string(),
                span: k.span,
                help: Some("convert it: `(int)x`".into()),
            });
        }
        Ok(self.widen(t))
    }

    /// `e` as an `i64` offset: constants fold, other values widen for free.
    pub(crate) fn widen(&mut self, e: Expr) -> Expr {
        if e.ty == Scalar::I64 {
            return e;
        }
        let span = e.span;
        if let ExprKind::Const(v) = e.kind {
            return constant(v.cast(Scalar::I64), span);
        }
        let e = if e.ty == Scalar::Bool {
            self.convert(e, Scalar::I32)
        } else {
            e
        };
        Expr {
            kind: ExprKind::Widen(Box::new(e)),
            ty: Scalar::I64,
            span,
        }
    }

    /// Elements in one step of pointer `i` when it points to arrays (`float (*p)[4]`: 4), so
    /// that `p + 1` is the next row; `None` for a pointer to elements.
    /// The elements of one row of the array of several dimensions `e` names, which `e + k`
    /// steps over `k` times (C's decay of `float s[4][8]` to `float (*)[8]`).
    fn array_row_size(&self, e: &ast::Expr) -> Option<u64> {
        let ast::ExprKind::Name(n) = &e.kind else {
            return None;
        };
        let dims: &[u64] = match self.lookup(n)? {
            Binding::Shared(s) => &self.shared[s as usize].dims,
            Binding::LocalArray(l) => &self.local_arrays[l as usize].dims,
            Binding::Param(p) => self.constant_dims.get(&p)?,
            _ => return None,
        };
        (dims.len() > 1).then(|| dims[1..].iter().product())
    }

    fn row_size(&self, i: u32, span: Span) -> Option<Result<u32>> {
        let rows = &self.ptr_vars[i as usize].rows;
        if rows.is_empty() {
            return None;
        }
        let n: u64 = rows.iter().product();
        Some(u32::try_from(n).map_err(|_| CheckError::TooComplex {
            what: format!("a row of {n} elements"),
            span,
        }))
    }

    /// `offset ± k` (both `i64`); a zero offset is left out.
    pub(crate) fn add_offset(
        &mut self,
        offset: Expr,
        k: Expr,
        op: BinOp,
        op_span: Span,
    ) -> Result<Expr> {
        let zero = |e: &Expr| matches!(e.kind, ExprKind::Const(v) if v.as_i64() == Some(0));
        if zero(&k) {
            return Ok(offset);
        }
        if zero(&offset) && op == BinOp::Add {
            return Ok(k);
        }
        self.binary(op, op_span, offset, k)
    }

    /// `base[index]`: the element index of a pointer's element (a parameter's own offset is
    /// applied by the engine, so a plain `a[i]` stays one load).
    pub(crate) fn index_through(&mut self, base: Expr, index: Expr, span: Span) -> Result<Expr> {
        let zero = matches!(base.kind, ExprKind::Const(v) if v.as_i64() == Some(0));
        if zero || matches!(base.kind, ExprKind::ParamBase(_)) {
            return Ok(index);
        }
        let index = self.widen(index);
        self.add_offset(base, index, BinOp::Add, span)
    }

    fn select_offset(&mut self, c: Expr, t: Expr, f: Expr, span: Span) -> Expr {
        if let ExprKind::Const(Value::Bool(v)) = c.kind {
            return if v { t } else { f };
        }
        Expr {
            kind: ExprKind::Select {
                cond: Box::new(c),
                then: Box::new(t),
                els: Box::new(f),
            },
            ty: Scalar::I64,
            span,
        }
    }

    /// Two pointers as values of one kind: where they point into different arrays and one of
    /// them may already point into several (or `choose`, for `?:` and comparisons), both become
    /// [`Space::Choice`] pointers.
    fn unify(&mut self, (a, b): (Ptr, Ptr), choose: bool, span: Span) -> Result<(Ptr, Ptr)> {
        let (Some(x), Some(y)) = (a.mem, b.mem) else {
            return Ok((a, b));
        };
        let is_choice = |m: Mem| matches!(m.space, Space::Choice { .. });
        if x.space == y.space || !(choose || is_choice(x) || is_choice(y)) {
            return Ok((a, b));
        }
        Ok((self.as_choice(a, span)?, self.as_choice(b, span)?))
    }

    /// `p` as a [`Space::Choice`] pointer: its offset plus its array's number among the kernel's
    /// choices ([`CHOICE_SHIFT`]); null stays null.
    fn as_choice(&mut self, p: Ptr, span: Span) -> Result<Ptr> {
        let Some(mem) = p.mem else {
            return Ok(p);
        };
        let refuse = |what: String| {
            CheckError::Unsupported {
            what: format!("a pointer that may point into {what} or into another array"),
            span,
            help: Some(
                "simt follows a pointer into one of several global buffers or shared arrays; index this array on its own branch"
                    .into(),
            ),
        }
        };
        let stored = match mem.space {
            Space::Choice { .. } => return Ok(p),
            Space::Local(_) => {
                return Err(refuse(format!(
                    "`{}`, a thread's own array,",
                    self.space_name(mem.space)
                )))
            }
            Space::Global(q) if self.constant_dims.contains_key(&q) => {
                return Err(refuse(format!(
                    "`{}`, a `__constant__` array,",
                    self.space_name(mem.space)
                )))
            }
            space => self.stored(space).unwrap_or(mem.elem),
        };
        let k = match self.choices.iter().position(|&c| c == mem.space) {
            Some(k) => k,
            None => {
                self.choices.push(mem.space);
                self.choices.len() - 1
            }
        };
        let number = constant(Value::I64((k as i64) << CHOICE_SHIFT), span);
        let offset = self.add_offset(p.offset, number, BinOp::Add, span)?;
        Ok(Ptr {
            mem: Some(Mem {
                space: Space::Choice {
                    stored,
                    shared: matches!(mem.space, Space::Shared(_)),
                },
                ..mem
            }),
            offset,
            is_const: p.is_const,
        })
    }

    /// The array two pointers share (either may be null); pointers into two arrays are refused.
    fn same_array(&self, a: Option<Mem>, b: Option<Mem>, span: Span) -> Result<Option<Mem>> {
        match (a, b) {
            (Some(x), Some(y)) if x.space != y.space => {
                let (what, help) = match (x.space, y.space) {
                    (Space::Choice { stored: a, .. }, Space::Choice { stored: b, .. })
                        if a != b =>
                    {
                        (
                            format!("a pointer that may point into `{a}` memory or into `{b}` memory"),
                            "the arrays one pointer may point into must hold one element type; use a pointer variable for each type".to_string(),
                        )
                    }
                    // A choice among shared arrays and one among global buffers: a choice among
                    // them all (`n < MAX ? s : coeffs`).
                    (Space::Choice { .. }, Space::Choice { .. })
                        if (x.elem, x.width) == (y.elem, y.width) =>
                    {
                        return Ok(Some(Mem {
                            space: may_be_global(x.space),
                            ..x
                        }));
                    }
                    _ => (
                        format!(
                            "subtracting pointers into `{}` and into `{}`",
                            self.space_name(x.space),
                            self.space_name(y.space)
                        ),
                        "C++ defines the difference of two pointers only within one array".into(),
                    ),
                };
                Err(CheckError::Unsupported {
                    what,
                    span,
                    help: Some(help),
                })
            }
            (Some(x), Some(y)) if (x.elem, x.width) != (y.elem, y.width) => {
                Err(CheckError::Pointer {
                    problem: PointerProblem::MixedTypes {
                        lhs: type_name(x.elem, x.width).to_string(),
                        rhs: type_name(y.elem, y.width).to_string(),
                    },
                    span,
                    help: Some("cast one side: `(float4*)p`".into()),
                })
            }
            (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
            (None, None) => Ok(None),
        }
    }

    /// The name of the array a space stands for.
    pub(crate) fn space_name(&self, space: Space) -> String {
        match space {
            Space::Global(p) => self
                .params
                .get(p as usize)
                .map_or_else(|| "a pointer parameter".into(), |x| x.name.clone()),
            Space::Shared(s) => self.shared[s as usize].name.clone(),
            Space::Local(l) => self.local_arrays[l as usize].name.clone(),
            Space::Choice { .. } => "one of several arrays".into(),
        }
    }

    /// `(T*)p`, `reinterpret_cast<T*>(p)`: the same array seen as `T` elements (`from_struct`:
    /// `p` points to structs, so its offset counts components).
    /// A C cast to a `const` reference to an arithmetic type (`(const float&)i`, read by the
    /// parser as `*(const float*)&i`) of a scalar of another type: C++ makes it a `static_cast`,
    /// which converts the value into a temporary (g++ gives `(const int&)f` of `1.5f` as 1), so
    /// seeing the bytes would be wrong. Refused where the two differ (a float and an integer, or
    /// two sizes); `int` and `unsigned` have the same bits either way.
    fn c_reference_cast(&mut self, ty: &ast::TypeName, address: &ast::Expr, p: &Ptr) -> Result<()> {
        let (Some(mem), Ok(to)) = (p.mem, super::scalar_of_base(ty)) else {
            return Ok(());
        };
        let object = match &address.kind {
            ast::ExprKind::Unary {
                op: ast::UnOp::AddrOf,
                operand,
            } => operand,
            _ => return Ok(()),
        };
        let same_bits = mem.elem == to
            || (mem.elem.is_integer() && to.is_integer() && mem.elem.size() == to.size());
        if !ty.is_const || mem.width > 1 || same_bits || self.struct_of(object).is_some() {
            return Ok(());
        }
        Err(CheckError::Unsupported {
            what: format!(
                "a C cast to `const {}&` of a `{}`, which C++ makes a value conversion",
                ty.base_text,
                mem.elem.c_name()
            ),
            span: ty.span,
            help: Some(format!(
                "write `({0})x` for the converted value, or `({0}&)x` (no `const`) for the object's bytes",
                ty.base_text
            )),
        })
    }

    pub(crate) fn cast_pointer(
        &mut self,
        p: Ptr,
        from_struct: bool,
        ty: &ast::TypeName,
        span: Span,
    ) -> Result<Ptr> {
        // A struct pointer (`reinterpret_cast<Pack2X<float>*>(out)`) sees its one field type.
        let layout = self.layout_of(ty).transpose()?;
        let (elem, width) = match &layout {
            Some(l) => self.buffer_of(l, ty.span),
            None => super::vector::elem_of(ty)?,
        };
        // What the new type is called in a message: a struct by its name, not its view.
        let target = layout
            .as_ref()
            .map_or_else(|| type_name(elem, width).to_string(), |l| l.name.clone());
        let Some(mem) = p.mem else {
            return Ok(Ptr {
                is_const: ty.is_const,
                ..p
            });
        };
        // A pointer into one of several arrays is seen as the same or wider components
        // (`(float4*)` of nvdiffrast's `p.tex[level]`): its arrays are not re-typed.
        if let Space::Choice { stored, .. } = mem.space {
            if elem.size() < stored.size() {
                return Err(CheckError::Unsupported {
                    what: format!(
                        "viewing a pointer that may point into several arrays as `{target}`"
                    ),
                    span: ty.span,
                    help: Some(
                        "cast each array to the new type where it is chosen (`p = flag ? (char*)a : (char*)b;`)"
                            .into(),
                    ),
                });
            }
        }
        // Dynamic shared memory has no type of its own: `(float*)smem` of an
        // `extern __shared__ int smem[]` is the same memory seen as floats (`SharedMemory<T>`),
        // and so is `(int64_t*)&f[n]` past the floats carved from it (the programming guide's
        // way to hold arrays of several types in it): one array, every view reading and writing
        // its bytes. A view wider than float elements (`(double*)` of `float`s) holds them as
        // unsigned integers of their size, which it reads packed; a narrower one narrows them
        // (`narrow`). The offset is rescaled below.
        let written = mem;
        if let Space::Shared(s) = mem.space {
            let stored = self.shared[s as usize].stored;
            let floats = !(stored.is_integer() || stored.is_half() || stored == Scalar::Bool);
            if self.shared[s as usize].is_extern
                && floats
                && elem.size() > stored.size()
                && !self.atomic_spaces.contains(&mem.space)
            {
                self.shared[s as usize].stored = unsigned_of(stored.size());
            }
        }
        // A launch array seen through `char*` is not re-typed yet: the pitch idiom's byte
        // arithmetic (`(float*)((char*)p + y * pitch)`) reads whole elements again. A byte
        // read or written through it re-types it (`pointee`).
        if elem.size() * width > 1 || !matches!(mem.space, Space::Global(_)) {
            self.narrow(mem.space, elem);
        }
        // Same-size components are the same bytes seen as another type (`(unsigned*)&ints[5]`,
        // `reinterpret_cast<int4*>(floats)`): lowering converts the bits on each access. A
        // scalar or vector whose components span 2, 4 or 8 narrow elements (integers or 16-bit
        // floats: `(uint*)` of bytes, `float4*` of `half`, `(double*)` of bytes), 16 bytes at
        // most, is one access of those elements, packed.
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        let plain = |s: Scalar| s != Scalar::Bool;
        let same_bytes = stored.size() == elem.size() && plain(stored) && plain(elem);
        let wider = (stored.is_integer() || stored.is_half())
            && plain(elem)
            && elem.size() % stored.size() == 0
            && matches!(elem.size() / stored.size(), 2 | 4 | 8)
            && elem.size() * width <= 16;
        // `(char*)p` of memory simt keeps wider (a launch array, an atomic's): a byte address, for
        // byte arithmetic that a cast back to a wider type ends (the cudaMallocPitch idiom
        // `(float*)((char*)p + y * pitch)`); a byte read or written through it re-types a launch
        // array, and is refused for an atomic's (`pointee`).
        let bytes = elem.size() == 1 && width == 1 && plain(elem) && stored.size() > 1;
        if mem.elem != elem && !same_bytes && !wider && !bytes {
            return Err(CheckError::Unsupported {
                what: format!(
                    "reinterpreting `{}` memory as `{target}`",
                    type_name(mem.elem, mem.width),
                ),
                span: ty.span,
                help: Some(self.view_help(mem.space, elem)),
            });
        }
        // The offset counts elements of the view (components of a struct): re-expressed in the
        // new one's, in bytes. A struct is aligned as C aligns it, its largest member's
        // alignment (or its `__align__`): where that is more than a component, the offset is
        // checked at that alignment.
        let unit = |elem: Scalar, width: u32, is_struct: bool| match is_struct {
            true => elem.size(),
            false => elem.size() * width,
        };
        let from = unit(written.elem, written.width, from_struct);
        let to = unit(elem, width, layout.is_some());
        let rescale = |value: Expr, from: u32, to: u32| Expr {
            kind: ExprKind::Rescale {
                value: Box::new(value),
                from,
                to,
                size: stored.size(),
                space: mem.space,
            },
            ty: Scalar::I64,
            span,
        };
        let mut offset = if from == to {
            p.offset
        } else if let ExprKind::Const(Value::I64(0)) = p.offset.kind {
            p.offset
        } else {
            rescale(p.offset, from, to)
        };
        if let Some(align) = layout.as_ref().map(|l| l.align).filter(|&a| a > to) {
            if !matches!(offset.kind, ExprKind::Const(Value::I64(0))) {
                let aligned = rescale(offset, to, align);
                let k = constant(Value::I64(i64::from(align / to)), span);
                offset = self.binary(BinOp::Mul, span, aligned, k)?;
            }
        }
        Ok(Ptr {
            mem: Some(Mem { elem, width, ..mem }),
            offset,
            is_const: ty.is_const,
        })
    }

    /// A thread's own array, or a static shared array, seen as `elem` components (`half2*` of a
    /// `float4` local, as HeCBench's relu writes it; `(unsigned char*)` of a shared `unsigned
    /// int` array, as ISPASS's md5 does): where they are narrower than its memory's elements,
    /// its memory holds from now on the unsigned integer of their size, which every wider view
    /// (the declared type's, and any earlier cast's) reads and writes packed, as `half*` seen as
    /// `float4*` is. A launch array is held so while the kernel runs (`exec::narrowed`). An array
    /// an atomic works on keeps its elements.
    pub(crate) fn narrow(&mut self, space: Space, elem: Scalar) {
        let (declared, stored) = match space {
            Space::Local(l) => {
                let a = &self.local_arrays[l as usize];
                (a.elem, a.stored)
            }
            Space::Shared(s) => {
                let a = &self.shared[s as usize];
                (a.elem, a.stored)
            }
            // A launch array viewed as narrower words (ccminer's `(uint32_t*)&g_hash[8 * i]`
            // of a `uint64_t*`, a hash's bytes of a `uint32_t*`).
            Space::Global(p) => match self.params.get(p as usize).map(|p| p.kind) {
                Some(ParamKind::Buffer { elem: declared, .. }) => {
                    (declared, self.stored(space).unwrap_or(declared))
                }
                _ => return,
            },
            _ => return,
        };
        let plain = elem != Scalar::Bool && declared != Scalar::Bool;
        if !plain || elem.size() >= stored.size() || self.atomic_spaces.contains(&space) {
            return;
        }
        let narrow = unsigned_of(elem.size().min(4));
        match space {
            Space::Local(l) => self.local_arrays[l as usize].stored = narrow,
            Space::Shared(s) => self.shared[s as usize].stored = narrow,
            Space::Global(p) => {
                self.narrowed.retain(|n| n.0 != p);
                self.narrowed.push((p, narrow));
            }
            Space::Choice { .. } => {}
        }
    }

    /// Why a view of `space` as `elem` components is refused, and what to write instead.
    pub(super) fn view_help(&self, space: Space, elem: Scalar) -> String {
        let narrower = self.stored(space).is_some_and(|s| elem.size() < s.size());
        match space {
            _ if narrower && self.atomic_spaces.contains(&space) => format!(
                "an atomic works on `{}`'s own elements, so simt does not also view them as \
                 narrower components; read whole elements and take their parts with shifts \
                 (`(w >> 8 * k) & 0xff`)",
                self.space_name(space)
            ),
            _ => "simt reinterprets memory as a type whose components have the same size \
                  (`float*` as `int*`, `uint4*` or `float4*`), integer or 16-bit float memory \
                  as a type whose components are two, four or eight of its elements wide, 16 \
                  bytes at most (`uchar*` as `uint*`, `half*` as `float4*`), and a thread's own \
                  or a shared array as narrower components (`half2*` of a local `float4`); read \
                  the elements and combine them with shifts"
                .into(),
        }
    }

    /// `extern __shared__ T name[];` where the kernel has declared dynamic shared memory of
    /// another type already (`first`): `name` is a pointer to it seen as `T`, as
    /// `T* const name = (T*)first;` is.
    pub(crate) fn extern_alias(
        &mut self,
        first: u32,
        ty: &ast::TypeName,
        name: &ast::Ident,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let from_struct = self.struct_spaces.contains_key(&Space::Shared(first));
        let whole = Ptr {
            mem: Some(self.shared_mem(first)),
            offset: super::expr::constant(Value::I64(0), span),
            is_const: false,
        };
        let view = self.cast_pointer(whole, from_struct, ty, span)?;
        let mem = view.mem.expect("a cast of an array points into it");
        let i = self.new_pointer(name, (mem.elem, mem.width), false);
        if let Some(Ok(l)) = self.layout_of(ty) {
            self.struct_ptrs.insert(i, l);
        }
        self.declare(name, Binding::Pointer(i));
        out.push(self.point(i, view, name.span)?);
        Ok(())
    }

    /// `extern __shared__ T name[][C];` (statement `s`, its dimensions `dims`): the one dynamic
    /// shared memory, declared as `extern __shared__ T name[]`, and `name` then a pointer to
    /// its rows of `C` (as a parameter `T t[][C]` is).
    pub(crate) fn extern_rows(
        &mut self,
        s: &ast::Stmt,
        dims: &[Option<ast::Expr>],
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let ast::StmtKind::Shared { ty, name, .. } = &s.kind else {
            unreachable!("checker: extern_rows of a shared declaration")
        };
        let mut rows = Vec::new();
        for d in &dims[1..] {
            match d {
                Some(e) => rows.push(self.const_size(e)?),
                None => {
                    return Err(CheckError::NotConstant {
                        what: "the size of a `__shared__` array's inner dimension".into(),
                        span: name.span,
                        help: Some("only the first dimension of `extern __shared__ T name[][C];` is left to the launch".into()),
                    })
                }
            }
        }
        let (at, mem) = self.dynamic_start(ty, name, s.span, out)?;
        let i = self.new_pointer(name, (mem.elem, mem.width), false);
        self.ptr_vars[i as usize].rows = rows;
        out.push(self.point(i, at, name.span)?);
        self.declare(name, Binding::Pointer(i));
        Ok(())
    }

    /// The one dynamic shared memory declared as `extern __shared__ T name[]` (at `span`) in a
    /// scope of its own: a pointer to its start, and the memory. The array takes the name too,
    /// for messages.
    fn dynamic_start(
        &mut self,
        ty: &ast::TypeName,
        name: &ast::Ident,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(Ptr, Mem)> {
        let whole = ast::Stmt {
            kind: ast::StmtKind::Shared {
                ty: ty.clone(),
                name: name.clone(),
                dims: vec![None],
                is_extern: true,
            },
            span,
        };
        let first = ast::Expr {
            kind: ast::ExprKind::Name(name.name.clone()),
            span: name.span,
        };
        self.scopes.push(std::collections::HashMap::new());
        let at = self.stmt(&whole, out).and_then(|()| self.pointer(&first));
        self.scopes.pop();
        let at = at?;
        let mem = at
            .mem
            .expect("checker: the dynamic shared memory is an array");
        Ok((at, mem))
    }

    /// `extern __shared__ T name;` (statement `s`): a variable at the start of the one dynamic
    /// shared memory, as CUDA places it; declared as `extern __shared__ T name[]`, and `name`
    /// then a reference to its first element.
    pub(crate) fn extern_scalar(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<()> {
        let ast::StmtKind::Shared { ty, name, .. } = &s.kind else {
            unreachable!("checker: extern_scalar of a shared declaration")
        };
        let (at, mem) = self.dynamic_start(ty, name, s.span, out)?;
        // A struct (`extern __shared__ S s;`): the one at the start, as `__shared__ S s;` is.
        if let Some(l) = self.layout_of(ty) {
            let place = super::structs::scalar_place(l?, mem, name.span);
            let binding = self.bind_struct(place);
            self.declare(name, binding);
            return Ok(());
        }
        let i = self.new_pointer(name, (mem.elem, mem.width), false);
        out.push(self.point(i, at, name.span)?);
        self.declare(name, Binding::Ref(i));
        Ok(())
    }

    /// `p op q` for pointers (`==`, `<`, ...) or `p - q` (elements between them, `long long`).
    pub(crate) fn pointer_binary(
        &mut self,
        op: BinOp,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Result<Expr> {
        let bad = |what: &'static str| {
            CheckError::Pointer {
            problem: PointerProblem::Operator { op: op.symbol().to_string(), what },
            span: op_span,
            help: Some("compare pointers with `==`, `!=`, `<`...; subtract two pointers into one array; index a pointer with `p[i]`".into()),
        }
        };
        let cmp = match op {
            BinOp::Lt => CmpOp::Lt,
            BinOp::Le => CmpOp::Le,
            BinOp::Gt => CmpOp::Gt,
            BinOp::Ge => CmpOp::Ge,
            BinOp::Eq => CmpOp::Eq,
            BinOp::Ne => CmpOp::Ne,
            BinOp::Sub => {
                let l = self.pointer(lhs)?;
                let r = self.pointer(rhs)?;
                let (l, r) = self.unify((l, r), false, span)?;
                match self.same_array(l.mem, r.mem, span)? {
                    Some(_) if l.mem.is_some() && r.mem.is_some() => {
                        let d = self.binary(BinOp::Sub, op_span, l.offset, r.offset)?;
                        // Struct pointers count components: the structs between them.
                        return match self.struct_stride(lhs) {
                            Some(k) if k > 1 => {
                                let k = constant(Value::I64(i64::from(k)), op_span);
                                self.binary(BinOp::Div, op_span, d, k)
                            }
                            _ => Ok(d),
                        };
                    }
                    _ => return Err(bad("needs two pointers into one array")),
                }
            }
            BinOp::And | BinOp::Or => {
                let l = self.scalar_or_truth(lhs)?;
                let r = self.scalar_or_truth(rhs)?;
                return self.binary(op, op_span, l, r);
            }
            BinOp::Add => {
                return Err(CheckError::NotAValue {
                    subject: "this".into(),
                    what: "a pointer".into(),
                    wanted: "a value here",
                    span,
                    help: Some("read the element: `p[i]` or `*(p + i)`".into()),
                })
            }
            _ => return Err(bad("is not defined on a pointer")),
        };
        let l = self.pointer(lhs)?;
        let r = self.pointer(rhs)?;
        let (l, r) = self.unify((l, r), true, span)?;
        self.same_array(l.mem, r.mem, span)?;
        Ok(Expr {
            kind: ExprKind::Compare {
                op: cmp,
                lhs: Box::new(l.offset),
                rhs: Box::new(r.offset),
            },
            ty: Scalar::Bool,
            span,
        })
    }

    /// A condition's value: a pointer means "is not null".
    pub(crate) fn scalar_or_truth(&mut self, e: &ast::Expr) -> Result<Expr> {
        if self.is_pointer(e) {
            let p = self.pointer(e)?;
            return Ok(Expr {
                kind: ExprKind::Compare {
                    op: CmpOp::Ne,
                    lhs: Box::new(p.offset),
                    rhs: Box::new(constant(Value::I64(NULL_OFFSET), e.span)),
                },
                ty: Scalar::Bool,
                span: e.span,
            });
        }
        let t = self.expr(e)?;
        self.truth(t)
    }

    /// A new pointer variable of pointee `(elem, width)`, not yet pointing anywhere.
    pub(crate) fn new_pointer(
        &mut self,
        name: &ast::Ident,
        pointee: (Scalar, u32),
        is_const: bool,
    ) -> u32 {
        let var = self.new_local(&name.name, Scalar::I64, name.span);
        self.ptr_vars.push(PtrVar {
            name: name.name.clone(),
            var,
            pointee,
            mem: None,
            assigned: false,
            scope: self.scopes.len(),
            span: name.span,
            is_const,
            is_void: false,
            in_struct: false,
            opaque: None,
            choice: self.choice_vars.contains(&name.span),
            mixed: self.mixed_vars.contains(&name.span),
            rows: Vec::new(),
            shared: None,
        });
        self.ptr_vars.len() as u32 - 1
    }

    /// `*vx` or `vx[i]` of a `void*` parameter: an error, as in C++ (`void` has no size).
    pub(crate) fn void_access(&self, pointer: &ast::Expr) -> Result<()> {
        let ast::ExprKind::Name(n) = &pointer.kind else {
            return Ok(());
        };
        match self.lookup(n) {
            Some(Binding::Pointer(i)) if self.ptr_vars[i as usize].is_void => {
                Err(CheckError::Pointer {
                    problem: PointerProblem::VoidAccess { name: n.clone() },
                    span: pointer.span,
                    help: Some(format!(
                        "cast it to the element type first, as ggml does: `const float* x = (const float*) {n};` or `((const float*) {n})[i]`"
                    )),
                })
            }
            _ => Ok(()),
        }
    }

    /// `T* p = init;` of pointer variable `i`, declared already (`name` is its name's span): an
    /// error in `init` leaves `p` pointing into no real array, so that its uses (the kernel is
    /// refused already) report nothing again.
    /// `value` in the units pointer variable `i` counts. The address of a vector element of a
    /// struct in memory (`&a[k].v[1]` of `uint2 v[2]`) counts the struct's components, as a
    /// struct pointer does (`auto p = ...`, `(&a[k].v[1])->y` read it so); a declared `uint2*`
    /// counts vectors.
    pub(crate) fn pointer_for(&mut self, i: u32, value: &ast::Expr) -> Result<Ptr> {
        let p = self.pointer(value)?;
        if let Some(declared) = self.struct_ptrs.get(&i).cloned() {
            return self.upcast(p, value, &declared);
        }
        Ok(self.in_vectors(p, value))
    }

    /// `p`, the pointer `value`, for a pointer to `declared`: where `value` points to a class
    /// derived from it (`B* b = &d;`), the same address seen as a `declared`, whose members the
    /// derived class's layout begins with.
    pub(crate) fn upcast(
        &mut self,
        p: Ptr,
        value: &ast::Expr,
        declared: &super::structs::Layout,
    ) -> Result<Ptr> {
        match self.struct_pointee(value) {
            Some(found)
                if found.name != declared.name && self.derives_from(&found, &declared.name) =>
            {
                // A class with virtual members over a base without: the base lies after the
                // vtable pointer, at an offset simt does not add.
                if !found.leaves.starts_with(&declared.leaves) {
                    return Err(CheckError::Unsupported {
                        what: format!(
                            "a `{}*` as a pointer to its base `{}`, which does not begin it,",
                            found.name, declared.name
                        ),
                        span: value.span,
                        help: Some("a class with virtual members over a base without them begins with its vtable pointer: give the base the virtual members, or pass the object by reference".into()),
                    });
                }
                let ty = ast::TypeName::named(declared.name.clone(), value.span);
                self.cast_pointer(p, true, &ty, value.span)
            }
            _ => Ok(p),
        }
    }

    /// `value`'s pointer `p` for a plain (no struct) pointer: where `value` is the address of a
    /// vector in a struct in memory, its offset in vectors rather than components.
    pub(crate) fn in_vectors(&mut self, p: Ptr, value: &ast::Expr) -> Ptr {
        if !self.vector_member_address(value) {
            return p;
        }
        let Some(mem) = p.mem else {
            return p;
        };
        let size = mem.elem.size();
        let offset = Expr {
            kind: ExprKind::Rescale {
                value: Box::new(p.offset),
                from: size,
                to: size * mem.width,
                size,
                space: mem.space,
            },
            ty: Scalar::I64,
            span: value.span,
        };
        Ptr { offset, ..p }
    }

    /// Whether `e` is `&s.v[k]` of a vector element of an array member of a struct in memory,
    /// `s.v`, which decays to `&s.v[0]`, or either plus or minus an offset.
    fn vector_member_address(&mut self, e: &ast::Expr) -> bool {
        if let Some(decayed) = self.decayed_member(e) {
            return self.vector_member_address(&decayed);
        }
        // `s.v + 1`: the pointer side's units.
        if let ast::ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs,
            rhs,
            ..
        } = &e.kind
        {
            let side = if self.is_pointer(lhs) { lhs } else { rhs };
            return self.vector_member_address(side);
        }
        let ast::ExprKind::Unary {
            op: UnOp::AddrOf,
            operand,
        } = &e.kind
        else {
            return false;
        };
        let ast::ExprKind::Index { base, .. } = &operand.kind else {
            return false;
        };
        self.struct_of(base).is_some_and(|l| l.array)
            && self
                .struct_of(operand)
                .is_some_and(|l| l.def.is_none() && !l.array)
    }

    pub(crate) fn initialise_pointer(
        &mut self,
        i: u32,
        init: &ast::Expr,
        name: Span,
    ) -> Result<Stmt> {
        let pointed = self
            .pointer_for(i, init)
            .and_then(|value| self.point(i, value, name.to(init.span)));
        if pointed.is_err() {
            let (elem, width) = self.ptr_vars[i as usize].pointee;
            self.ptr_vars[i as usize].mem.get_or_insert(Mem {
                space: Space::Global(u32::MAX),
                elem,
                width,
            });
        }
        pointed
    }

    /// `p = value`: the value's offset, after checking it points into `p`'s array with `p`'s type.
    pub(crate) fn point(&mut self, i: u32, mut value: Ptr, span: Span) -> Result<Stmt> {
        self.ptr_vars[i as usize].assigned = true;
        let pv = self.ptr_vars[i as usize].clone();
        if let Some(mem) = value.mem {
            // A heap object's pointer is its bytes whatever its class (`material* m = new
            // lambertian(...)`): its members are read at their offsets.
            let heap_object = Some(mem.space) == self.heap.map(Space::Global)
                && (mem.elem, mem.width) == (Scalar::U8, 1)
                && self.struct_ptrs.contains_key(&i);
            if (mem.elem, mem.width) != pv.pointee && !heap_object {
                return Err(CheckError::Pointer {
                    problem: PointerProblem::Pointee {
                        name: pv.name.to_string(),
                        declared: type_name(pv.pointee.0, pv.pointee.1).to_string(),
                        found: type_name(mem.elem, mem.width).to_string(),
                    },
                    span,
                    help: Some(format!(
                        "cast it: `({}*)...`",
                        type_name(pv.pointee.0, pv.pointee.1)
                    )),
                });
            }
            if value.is_const && !pv.is_const {
                return Err(CheckError::Pointer {
                    problem: PointerProblem::ConstPointee {
                        name: pv.name.to_string(),
                    },
                    span,
                    help: Some(format!(
                        "declare it `const {}* {}`",
                        type_name(pv.pointee.0, pv.pointee.1),
                        pv.name
                    )),
                });
            }
            let choice =
                pv.choice || matches!(pv.mem, Some(m) if matches!(m.space, Space::Choice { .. }));
            if choice {
                value = self.as_choice(value, span)?;
                let mut mem = value.mem.expect("not null: it has an array");
                if pv.mixed {
                    mem.space = may_be_global(mem.space);
                }
                value.mem = Some(mem);
                match pv.mem {
                    Some(old) if old.space == mem.space => {}
                    // Into shared memory, then into global memory (or the other way): checked
                    // again with the variable a choice of both from its declaration.
                    Some(old) if may_be_global(old.space) == may_be_global(mem.space) => {
                        self.mixed_found.push(pv.span);
                        return Err(CheckError::Unsupported {
                            what: format!(
                                "pointing `{}` into global memory and into shared memory",
                                pv.name
                            ),
                            span,
                            help: None,
                        });
                    }
                    Some(
                        old @ Mem {
                            space: Space::Choice { .. },
                            ..
                        },
                    ) => {
                        return Err(self
                            .same_array(Some(old), Some(mem), span)
                            .expect_err("different arrays"))
                    }
                    // The first array, or the first after an error left a placeholder.
                    _ => self.ptr_vars[i as usize].mem = Some(mem),
                }
            } else {
                match pv.mem {
                    // Re-pointed into another array where it was declared (not in a branch or
                    // a loop of its own): from here on the name is a new variable, as if
                    // declared again.
                    Some(old)
                        if old.space != mem.space
                            && self.scopes.len() == pv.scope
                            && !pv.in_struct =>
                    {
                        let name = ast::Ident {
                            name: pv.name.clone(),
                            span: pv.span,
                        };
                        let fresh = self.new_pointer(&name, pv.pointee, pv.is_const);
                        self.scopes[pv.scope - 1]
                            .insert(pv.name.clone(), (Binding::Pointer(fresh), pv.span));
                        return self.point(fresh, value, span);
                    }
                    // Elsewhere it may point into either array when it is used: the kernel is
                    // checked again with the variable a choice of arrays from its declaration.
                    Some(old) if old.space != mem.space => {
                        self.choice_found.push(pv.span);
                        return Err(CheckError::Unsupported {
                            what: format!(
                                "pointing `{}` into `{}` after it pointed into `{}`",
                                pv.name,
                                self.space_name(mem.space),
                                self.space_name(old.space),
                            ),
                            span,
                            help: Some(
                                "simt follows a pointer variable into one array where it cannot see every place it is assigned; use a second pointer variable for the other array"
                                    .into(),
                            ),
                        });
                    }
                    Some(_) => {}
                    None => self.ptr_vars[i as usize].mem = Some(mem),
                }
            }
        }
        if let Some(s) = pv.shared {
            return Ok(self.shared_pointer_store(s, value, span));
        }
        Ok(Stmt {
            kind: StmtKind::Assign {
                var: pv.var,
                value: value.offset,
            },
            span,
        })
    }

    /// `p op= value` / `p++` for a pointer variable.
    pub(crate) fn assign_pointer(
        &mut self,
        i: u32,
        op: Option<BinOp>,
        op_span: Span,
        value: &ast::Expr,
        span: Span,
    ) -> Result<Stmt> {
        match op {
            None => {
                let p = self.pointer_for(i, value)?;
                self.point(i, p, span)
            }
            Some(op @ (BinOp::Add | BinOp::Sub)) => {
                self.not_shared_pointer(i, span)?;
                let pv = self.ptr_vars[i as usize].clone();
                if pv.mem.is_none() {
                    return Err(CheckError::Pointer {
                        problem: PointerProblem::Unassigned {
                            name: pv.name.to_string(),
                            moved: true,
                        },
                        span,
                        help: None,
                    });
                }
                let mut k = self.offset_operand(value)?;
                if let Some(l) = self.struct_ptrs.get(&i) {
                    let stride = l.buffer_shape().1;
                    k = self.scaled(k, stride, op_span)?;
                }
                if let Some(row) = self.row_size(i, span) {
                    k = self.scaled(k, row?, op_span)?;
                }
                let current = Expr {
                    kind: ExprKind::Var(pv.var),
                    ty: Scalar::I64,
                    span,
                };
                let offset = self.add_offset(current, k, op, op_span)?;
                Ok(Stmt {
                    kind: StmtKind::Assign {
                        var: pv.var,
                        value: offset,
                    },
                    span,
                })
            }
            Some(op) => Err(CheckError::Pointer {
                problem: PointerProblem::Operator {
                    op: format!("{}=", op.symbol()),
                    what: "is not defined on a pointer",
                },
                span: op_span,
                help: Some("move a pointer with `p += k`, `p -= k`, `p++`".into()),
            }),
        }
    }

    /// Whether a place (`p[i]`, `*p`, `a[i]`) is reached through a pointer to `const`.
    pub(crate) fn place_is_const(&self, place: &ast::Expr) -> bool {
        let mut cur = place;
        loop {
            match &cur.kind {
                ast::ExprKind::Index { base, .. } => cur = base,
                ast::ExprKind::Unary {
                    op: UnOp::Deref,
                    operand,
                }
                | ast::ExprKind::IncDec {
                    target: operand, ..
                } => cur = operand,
                ast::ExprKind::Binary { lhs, rhs, .. } => {
                    cur = if self.is_pointer(lhs) { lhs } else { rhs }
                }
                ast::ExprKind::Cast { ty, .. } => return ty.is_const,
                ast::ExprKind::Name(n) => {
                    return match self.lookup(n) {
                        Some(Binding::Param(p)) => {
                            matches!(
                                self.params[p as usize].kind,
                                ParamKind::Buffer { is_const: true, .. }
                            ) && !self.constant_dims.contains_key(&p)
                        }
                        Some(Binding::Pointer(i) | Binding::Ref(i)) => {
                            self.ptr_vars[i as usize].is_const
                        }
                        _ => false,
                    }
                }
                _ => return false,
            }
        }
    }
}

/// The null pointer constant.
pub(crate) fn null(span: Span) -> Ptr {
    Ptr {
        mem: None,
        offset: constant(Value::I64(NULL_OFFSET), span),
        is_const: false,
    }
}

/// The unsigned integer of `size` bytes (1, 2, 4 or 8).
fn unsigned_of(size: u32) -> Scalar {
    match size {
        1 => Scalar::U8,
        2 => Scalar::U16,
        4 => Scalar::U32,
        _ => Scalar::U64,
    }
}

/// `p++` of a pointer to arrays: not read (`p += 1` is).
pub(crate) fn step_rows(span: Span) -> CheckError {
    CheckError::Unsupported {
        what: "`++` or `--` of a pointer to arrays".into(),
        span,
        help: Some("step it by rows with `p += 1` or `p -= 1`".into()),
    }
}

/// A [`Space::Choice`] that may also point into global memory: its arrays may be global buffers
/// and shared arrays alike (the engine resolves each lane's array), so it counts as global
/// memory where one kind must be named (the latency model, the order of atomics).
fn may_be_global(space: Space) -> Space {
    match space {
        Space::Choice { stored, .. } => Space::Choice {
            stored,
            shared: false,
        },
        other => other,
    }
}
