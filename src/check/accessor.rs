//! ATen's packed tensor accessors (`at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits>`) as kernel parameters: a buffer with sizes and strides, indexed `a[n][c][k]`.

// ATen's accessor (aten/src/ATen/core/TensorAccessor.h) is a data pointer with `sizes_[N]` and
// `strides_[N]` copied into the kernel's parameters; `a[i]` of a rank-N accessor is a rank N-1
// `TensorAccessor` at `data_ + strides_[0] * i`, and of rank 1 the element `data_[strides_[0] *
// i]`. Here an accessor parameter `p` is the buffer `p` (the launch binds an N-d array to it)
// and 2N scalar parameters `p.size(k)` and `p.stride(k)`, which the launch fills from the
// array's shape (contiguous strides). A full index `p[i0]...[iN-1]` is one access of element
// `Σ i_k * stride(k)`, computed in the accessor's index type as the operator chain computes it,
// so its sectors and banks are those of the same pointer arithmetic written by hand.
// `p.size(k)`, `p.stride(k)` (k a constant) are those parameters and `p.data()` the buffer.

use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, TemplateArg};
use crate::value::Scalar;

type Result<T> = std::result::Result<T, CheckError>;

/// One accessor parameter: its buffer parameter, rank, index type and the scalar parameters
/// holding its sizes and strides.
#[derive(Clone, Debug)]
pub(crate) struct Accessor {
    /// The buffer parameter.
    pub param: u32,
    /// `int32_t` (`PackedTensorAccessor32`) or `int64_t`.
    pub index: Scalar,
    /// `p.size(k)`, one per dimension.
    pub sizes: Vec<VarId>,
    /// `p.stride(k)`, one per dimension.
    pub strides: Vec<VarId>,
    /// For the `TensorAccessor` a partial index gave: the variable holding the element its
    /// first dimension's index 0 is at (`acc[b][0]` of a rank-4 accessor: `b * stride(0)`).
    pub base: Option<VarId>,
}

/// ATen's accessor class templates, by their own names (after `at::` or `torch::`).
const NAMES: [&str; 5] = [
    "PackedTensorAccessor32",
    "PackedTensorAccessor64",
    "GenericPackedTensorAccessor",
    "PackedTensorAccessor",
    "TensorAccessor",
];

/// Whether `ty` names one of ATen's accessor types.
pub(crate) fn is_accessor(ty: &ast::TypeName) -> bool {
    if ty.base != ast::BaseType::Named || ty.pointer {
        return false;
    }
    let head = ty.base_text.split('<').next().unwrap_or("");
    NAMES.contains(&super::groups::unqualified(head.trim()))
}

impl KernelChecker<'_, '_> {
    /// The element type, rank and index type of an accessor type: `PackedTensorAccessor32<T,
    /// N, Traits>`, `PackedTensorAccessor64<...>`, `GenericPackedTensorAccessor<T, N, Traits,
    /// index_t>` (index_t defaults to `int64_t`, as in ATen).
    fn accessor_shape(&mut self, ty: &ast::TypeName) -> Result<(Scalar, usize, Scalar)> {
        let bad = |what: &str| {
            CheckError::Unsupported {
            what: format!("the accessor type `{}` ({what})", ty.base_text),
            span: ty.span,
            help: Some(
                "write it as ATen does: `at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits>`"
                    .into(),
            ),
        }
        };
        let Some((name, targs)) = super::template::split_instance(&ty.base_text) else {
            return Err(bad("no template arguments"));
        };
        if name == "TensorAccessor" {
            return Err(CheckError::Unsupported {
                what: format!("a `{}` kernel parameter", ty.base_text),
                span: ty.span,
                help: Some(
                    "a kernel takes ATen's packed accessors, `at::PackedTensorAccessor32/64`; a \
                     TensorAccessor is what indexing one gives on the device"
                        .into(),
                ),
            });
        }
        let (Some(TemplateArg::Type(elem)), Some(TemplateArg::Value(rank))) =
            (targs.first(), targs.get(1))
        else {
            return Err(bad("its first arguments must be a type and a rank"));
        };
        let elem = super::scalar_of(elem)?;
        let rank = match self.expr(rank)?.kind {
            ExprKind::Const(v) => v.as_i64().filter(|&n| (1..=25).contains(&n)),
            _ => None,
        }
        .ok_or_else(|| bad("its rank must be a constant from 1 to 25"))?;
        let index = match name.as_str() {
            "PackedTensorAccessor32" => Scalar::I32,
            "PackedTensorAccessor64" => Scalar::I64,
            _ => match targs.get(3) {
                None => Scalar::I64,
                Some(TemplateArg::Type(t)) => match super::scalar_of(t)? {
                    s @ (Scalar::I32 | Scalar::I64) => s,
                    _ => return Err(bad("its index type must be `int32_t` or `int64_t`")),
                },
                Some(TemplateArg::Value(_)) => return Err(bad("its fourth argument is a type")),
            },
        };
        Ok((elem, rank as usize, index))
    }

    /// A kernel parameter of an accessor type: its buffer, then `p.size(k)` and `p.stride(k)`.
    pub(crate) fn accessor_kernel_parameter(&mut self, p: &ast::Param) -> Result<Binding> {
        let (elem, rank, index) = self.accessor_shape(&p.ty)?;
        let param = self.params.len() as u32;
        self.params.push(Param {
            name: p.name.name.clone(),
            span: p.name.span,
            kind: ParamKind::Buffer {
                elem,
                width: 1,
                // A `const` accessor's elements are writable: its `operator[]` returns `T&`.
                is_const: false,
            },
            default: None,
            views: Vec::new(),
            opaque: None,
            untyped: false,
        });
        let mut scalars = |what: &str| -> Vec<VarId> {
            (0..rank)
                .map(|k| {
                    let name = format!("{}.{what}({k})", p.name.name);
                    let var = self.new_local(&name, index, p.name.span);
                    self.params.push(Param {
                        name,
                        span: p.name.span,
                        kind: ParamKind::Scalar { ty: index, var },
                        default: None,
                        views: Vec::new(),
                        opaque: None,
                        untyped: false,
                    });
                    var
                })
                .collect()
        };
        let sizes = scalars("size");
        let strides = scalars("stride");
        self.accessors.insert(
            param,
            Accessor {
                param,
                index,
                sizes,
                strides,
                base: None,
            },
        );
        Ok(Binding::Param(param))
    }

    /// The accessor a name stands for, if it stands for one.
    fn accessor_named(&self, e: &ast::Expr) -> Option<Accessor> {
        let ast::ExprKind::Name(n) = &e.kind else {
            return None;
        };
        match self.lookup(n)? {
            Binding::Param(p) => self.accessors.get(&p).cloned(),
            Binding::Accessor(i) => Some(self.local_accessors[i as usize].clone()),
            _ => None,
        }
    }

    /// `auto v = acc[b][0];`, `at::TensorAccessor<float, 2, …> v = acc[b][0];`: indices of some
    /// of an accessor's dimensions, leaving two or more (one left is a row, a pointer). The
    /// local holds a `TensorAccessor` of the rest: their sizes and strides, and where it starts
    /// (ATen's `operator[]` returns `TensorAccessor<T, N-1>(data_ + strides_[0] * i, …)`).
    /// `None` when `d` declares no such local.
    pub(crate) fn accessor_local(
        &mut self,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<()>> {
        let init = d.init.as_ref()?;
        if d.pointer || !d.dims.is_empty() || !(ty.base == ast::BaseType::Auto || is_accessor(ty)) {
            return None;
        }
        let mut indices = Vec::new();
        let mut cur = init;
        while let ast::ExprKind::Index { base, index } = &cur.kind {
            indices.push(index.as_ref());
            cur = base;
        }
        let a = self.accessor_named(cur)?;
        if indices.is_empty() || indices.len() + 2 > a.sizes.len() {
            return None;
        }
        indices.reverse();
        Some((|| {
            let (_, offset) = self.accessor_offset(&a, &indices)?;
            let base = self.new_local(&d.name.name, Scalar::I64, d.name.span);
            out.push(Stmt {
                kind: StmtKind::Assign {
                    var: base,
                    value: offset,
                },
                span: init.span,
            });
            let k = indices.len();
            self.local_accessors.push(Accessor {
                param: a.param,
                index: a.index,
                sizes: a.sizes[k..].to_vec(),
                strides: a.strides[k..].to_vec(),
                base: Some(base),
            });
            let i = self.local_accessors.len() as u32 - 1;
            self.declare(&d.name, Binding::Accessor(i));
            Ok(())
        })())
    }

    /// `a[i0]...[ik]` of an accessor `a`: the element, when all its dimensions are indexed;
    /// `None` when the innermost base is no accessor.
    pub(crate) fn accessor_element(&mut self, e: &ast::Expr) -> Option<Result<(Mem, Expr)>> {
        let mut indices = Vec::new();
        let mut cur = e;
        while let ast::ExprKind::Index { base, index } = &cur.kind {
            indices.push(index.as_ref());
            cur = base;
        }
        let a = self.accessor_named(cur)?;
        let ast::ExprKind::Name(name) = &cur.kind else {
            unreachable!("checked: an accessor is named")
        };
        indices.reverse();
        Some(self.accessor_index((&a, name), &indices, e.span))
    }

    /// Whether `e` indexes every dimension of an accessor but the last (RAFT's `auto fptr =
    /// fmap1[b][h1][w1]; fptr[c]`): a `TensorAccessor<T, 1>`, which simt holds as a pointer to
    /// the row's first element, since the launch gives every accessor contiguous strides (the
    /// last one 1).
    pub(crate) fn accessor_row(&self, e: &ast::Expr) -> bool {
        let mut indices = 0;
        let mut cur = e;
        while let ast::ExprKind::Index { base, .. } = &cur.kind {
            indices += 1;
            cur = base;
        }
        self.accessor_named(cur)
            .is_some_and(|a| a.sizes.len() >= 2 && indices + 1 == a.sizes.len())
    }

    /// The start of the row [`Self::accessor_row`] names: a pointer into the accessor's buffer.
    pub(crate) fn accessor_row_start(&mut self, e: &ast::Expr) -> Result<super::pointer::Ptr> {
        let mut indices = Vec::new();
        let mut cur = e;
        while let ast::ExprKind::Index { base, index } = &cur.kind {
            indices.push(index.as_ref());
            cur = base;
        }
        let a = self.accessor_named(cur).expect("checked: an accessor row");
        indices.reverse();
        let (mem, offset) = self.accessor_offset(&a, &indices)?;
        Ok(super::pointer::Ptr {
            mem: Some(mem),
            offset,
            is_const: false,
        })
    }

    fn accessor_index(
        &mut self,
        (a, name): (&Accessor, &str),
        indices: &[&ast::Expr],
        span: Span,
    ) -> Result<(Mem, Expr)> {
        if indices.len() != a.sizes.len() {
            return Err(CheckError::Unsupported {
                what: format!(
                    "{} of the {} dimensions of the accessor `{name}` indexed (a `TensorAccessor` of the rest)",
                    indices.len(),
                    a.sizes.len(),
                ),
                span,
                help: Some(format!(
                    "index every dimension at once: `{name}{0}`, or name the part in a local (`auto rest = {name}{1};`; all but the last is a row)",
                    "[i]".repeat(a.sizes.len()),
                    "[i]".repeat(indices.len()),
                )),
            });
        }
        self.accessor_offset(a, indices)
    }

    /// The element `base + Σ indices[k] * stride(k)` of the accessor's buffer, over the
    /// dimensions indexed.
    fn accessor_offset(&mut self, a: &Accessor, indices: &[&ast::Expr]) -> Result<(Mem, Expr)> {
        let mut offset: Option<Expr> = a.base.map(|v| Expr {
            kind: ExprKind::Var(v),
            ty: Scalar::I64,
            span: indices[0].span,
        });
        for (k, ix) in indices.iter().enumerate() {
            let t = self.index_value(ix)?;
            // `operator[](index_t i)`: the index is converted to the accessor's index type, and
            // `strides_[k] * i` is computed in it.
            let i = self.convert(t, a.index);
            let stride = Expr {
                kind: ExprKind::Var(a.strides[k]),
                ty: a.index,
                span: ix.span,
            };
            let term = self.binary(BinOp::Mul, ix.span, stride, i)?;
            offset = Some(match offset {
                None => term,
                Some(prev) => {
                    let term = if prev.ty == Scalar::I64 {
                        self.widen(term)
                    } else {
                        term
                    };
                    self.binary(BinOp::Add, ix.span, prev, term)?
                }
            });
        }
        let offset = offset.expect("checked: at least one dimension");
        let mem = Mem {
            space: Space::Global(a.param),
            elem: self.buffer_elem(a.param),
            width: 1,
        };
        Ok((mem, self.widen(offset)))
    }

    fn buffer_elem(&self, p: u32) -> Scalar {
        match self.params[p as usize].kind {
            ParamKind::Buffer { elem, .. } => elem,
            ParamKind::Scalar { .. } => unreachable!("checker: an accessor is a buffer"),
        }
    }

    /// `a.size(k)` and `a.stride(k)` of an accessor `a`; `None` when `object` is no accessor.
    pub(crate) fn accessor_method(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let a = self.accessor_named(object)?;
        Some((|| {
            let vars = match method.name.as_str() {
                "size" => &a.sizes,
                "stride" => &a.strides,
                other => return Err(CheckError::Unsupported {
                    what: format!("the accessor member function `{other}`"),
                    span: method.span,
                    help: Some(
                        "an accessor has `size(k)`, `stride(k)`, `data()` and indexing `a[i][j]`"
                            .into(),
                    ),
                }),
            };
            let [k] = args else {
                return Err(CheckError::ArgumentCount {
                    name: method.name.clone(),
                    expected: "1".into(),
                    found: args.len(),
                    span,
                });
            };
            let t = self.expr(k)?;
            let dim = match t.kind {
                ExprKind::Const(v) => v.as_i64(),
                _ => None,
            };
            match dim {
                Some(d) if (0..vars.len() as i64).contains(&d) => Ok(Expr {
                    kind: ExprKind::Var(vars[d as usize]),
                    ty: a.index,
                    span,
                }),
                Some(d) => Err(CheckError::Dimensions {
                    problem: super::DimensionProblem::OutOfBounds {
                        index: d.to_string(),
                        len: vars.len(),
                    },
                    span: k.span,
                    help: None,
                }),
                None => Err(CheckError::NotConstant {
                    what: format!("the dimension of `{}`", method.name),
                    span: k.span,
                    help: Some("name the dimension with a constant: `a.size(0)`".into()),
                }),
            }
        })())
    }

    /// `a.data()` of an accessor: its buffer, from its start.
    pub(crate) fn accessor_data(&self, e: &ast::Expr) -> Option<super::pointer::Ptr> {
        let ast::ExprKind::Method {
            object,
            method,
            args,
            ..
        } = &e.kind
        else {
            return None;
        };
        if method.name != "data" || !args.is_empty() {
            return None;
        }
        let a = self.accessor_named(object)?;
        let start = Expr {
            kind: ExprKind::ParamBase(a.param),
            ty: Scalar::I64,
            span: e.span,
        };
        let offset = match a.base {
            None => start,
            Some(v) => Expr {
                kind: ExprKind::Arith {
                    op: crate::value::ArithOp::Add,
                    lhs: Box::new(start),
                    rhs: Box::new(Expr {
                        kind: ExprKind::Var(v),
                        ty: Scalar::I64,
                        span: e.span,
                    }),
                },
                ty: Scalar::I64,
                span: e.span,
            },
        };
        Some(super::pointer::Ptr {
            mem: Some(Mem {
                space: Space::Global(a.param),
                elem: self.buffer_elem(a.param),
                width: 1,
            }),
            offset,
            is_const: false,
        })
    }
}
