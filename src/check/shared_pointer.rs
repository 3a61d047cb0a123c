//! `__shared__ T* p;`: a pointer variable one thread sets for the whole block, held in shared
//! memory (OP2's and OPS's generated kernels: `if (threadIdx.x == 0) ind_arg0_s = (double*)
//! &shared[nbytes]; __syncthreads(); ... ind_arg0_s[n]`).

use super::expr::constant;
use super::pointer::Ptr;
use super::typed::*;
use super::CheckError;
use super::{Binding, KernelChecker, STATIC_SMEM_LIMIT};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// Declares `__shared__ ty name;` of a pointer type: a pointer variable whose value lives in
    /// a one-word shared array of its name, so that each thread reads what the block stored
    /// there (uninitialised until a thread sets it, raced like any shared word).
    pub(crate) fn shared_pointer(&mut self, ty: &ast::TypeName, name: &ast::Ident) -> Result<()> {
        let pointee_ty = ast::TypeName {
            pointer: false,
            ..ty.clone()
        };
        let layout = self.layout_of(&pointee_ty).transpose()?;
        let pointee = match &layout {
            Some(l) => self.buffer_of(l, ty.span),
            None => super::vector::elem_of(&pointee_ty)?,
        };
        self.static_smem += 8;
        if self.static_smem > STATIC_SMEM_LIMIT {
            return Err(CheckError::SharedTooLarge {
                bytes: self.static_smem,
                span: name.span,
            });
        }
        let s = self.shared.len() as u32;
        self.shared.push(Shared {
            name: name.name.clone(),
            elem: Scalar::I64,
            width: 1,
            dims: Vec::new(),
            is_extern: false,
            stored: Scalar::I64,
            span: name.span,
            overlay: None,
        });
        let i = self.new_pointer(name, pointee, ty.is_const);
        self.ptr_vars[i as usize].shared = Some(s);
        if let Some(l) = layout {
            self.struct_ptrs.insert(i, l);
        }
        self.declare(name, Binding::Pointer(i));
        Ok(())
    }

    /// The offset a `__shared__` pointer variable holds (its word `s`), read from shared memory.
    pub(crate) fn shared_pointer_offset(&self, i: u32, s: u32, span: Span) -> Expr {
        let var = self.ptr_vars[i as usize].var;
        let word = Expr {
            kind: ExprKind::Load {
                mem: self.shared_mem(s),
                index: Box::new(constant(Value::I64(0), span)),
                copy: false,
            },
            ty: Scalar::I64,
            span,
        };
        Expr {
            kind: ExprKind::Inline {
                name: "shared pointer".into(),
                body: vec![Stmt {
                    kind: StmtKind::Assign { var, value: word },
                    span,
                }],
                result: Some(var),
            },
            ty: Scalar::I64,
            span,
        }
    }

    /// Stores `value`'s offset into `__shared__` pointer word `s`.
    pub(crate) fn shared_pointer_store(&self, s: u32, value: Ptr, span: Span) -> Stmt {
        Stmt {
            kind: StmtKind::Store {
                mem: self.shared_mem(s),
                index: constant(Value::I64(0), span),
                value: value.offset,
            },
            span,
        }
    }

    /// Refuses stepping `__shared__` pointer variable `i` in place (`p++`, `p += k`).
    pub(crate) fn not_shared_pointer(&self, i: u32, span: Span) -> Result<()> {
        let pv = &self.ptr_vars[i as usize];
        if pv.shared.is_none() {
            return Ok(());
        }
        Err(CheckError::Unsupported {
            what: format!("stepping the `__shared__` pointer `{}` in place", pv.name),
            span,
            help: Some(format!(
                "assign it (`{0} = {0} + k;`), or step a local copy of it",
                pv.name
            )),
        })
    }
}
