//! A pointer converted to an integer (`(uintptr_t)p`, `(size_t)ptr`): a byte address in simt's
//! model of device memory, so that alignment tests such as `((uint64_t)p & 15) == 0` answer as on
//! a GPU. Every launch array, shared and local array starts on a 4 GiB boundary of its own (more
//! than the 256 bytes `cudaMalloc` guarantees), and an element's address is its start plus its
//! byte offset; a parameter the launch binds into an array (`in = &d[3]`) starts where it points
//! ([`crate::ir::global_address`], read when the launch starts).
//!
//! An integer that holds such an address converts back to a pointer (`(T*)(a & ~3)`, llm.c's
//! `atomicAddX`) into the array it came from: the checker follows which array an integer's
//! address lies in through 64-bit locals, and the pointer's offset is the integer less that
//! array's start, re-expressed in elements (a byte offset that does not divide traps as a
//! misaligned address).

use super::error::{CheckError, PointerProblem};
use super::expr::constant;
use super::local::children;
use super::pointer::{null, Ptr};
use super::typed::{Expr, ExprKind, Mem, ParamKind, Space, VarId, NULL_OFFSET};
use super::{ast, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Scalar, Value};

/// Where shared array 0 starts (inside the generic address window of shared memory).
const SHARED_BASE: u64 = 0x7e00_0000_0000;
/// Where local array 0 starts (inside the generic address window of local memory).
const LOCAL_BASE: u64 = 0x7d00_0000_0000;

/// Which array an address in a constant lies in: shared and local arrays have constant starts.
fn constant_space(v: Value) -> Option<Space> {
    let v = match v {
        Value::U64(v) => v,
        Value::I64(v) => v as u64,
        _ => return None,
    };
    let n = u32::try_from((v & 0xff_ffff_ffff) >> 32).ok()?;
    match v >> 40 {
        0x7e => Some(Space::Shared(n)),
        0x7d => Some(Space::Local(n)),
        _ => None,
    }
}

/// The byte address of the first element of a shared or local array, or of where a pointer
/// parameter points.
fn base_address(space: Space, span: Span) -> Expr {
    let (base, n) = match space {
        Space::Global(p) => {
            return Expr {
                kind: ExprKind::ParamAddress(p),
                ty: Scalar::U64,
                span,
            }
        }
        Space::Shared(n) => (SHARED_BASE, n),
        Space::Local(n) => (LOCAL_BASE, n),
        Space::Choice { .. } => unreachable!("checker: a choice's address is refused before"),
    };
    constant(Value::U64(base + (u64::from(n) << 32)), span)
}

impl KernelChecker<'_, '_> {
    /// `(T)p` for a pointer `p` and a 64-bit integer type `T`: its byte address (0 for null).
    pub(crate) fn pointer_as_integer(
        &mut self,
        ty: &ast::TypeName,
        pointer: &ast::Expr,
        span: Span,
    ) -> Result<Expr, CheckError> {
        let to = super::scalar_of(ty)?;
        if !matches!(to, Scalar::I64 | Scalar::U64) {
            return Err(CheckError::Unsupported {
                what: format!("converting a pointer to `{}`", ty.base_text),
                span,
                help: Some(
                    "a pointer has 64 bits: convert it to `uintptr_t`, `size_t` or `uint64_t`"
                        .into(),
                ),
            });
        }
        let ptr = self.pointer(pointer)?;
        self.address_value(ptr, to, span)
    }

    /// The byte address `ptr` holds, as an integer of type `to` (0 for null).
    pub(crate) fn address_value(
        &mut self,
        ptr: Ptr,
        to: Scalar,
        span: Span,
    ) -> Result<Expr, CheckError> {
        let Some(mem) = ptr.mem else {
            return Ok(constant(Value::U64(0), span)).map(|e| self.convert(e, to));
        };
        if let Space::Choice { .. } = mem.space {
            return Err(CheckError::Unsupported {
                what: "the address of a pointer that may point into several arrays".into(),
                span,
                help: Some(
                    "convert the pointer to an integer where it points into one array".into(),
                ),
            });
        }
        let bytes = i64::from(mem.elem.size() * mem.width);
        let offset = ptr.offset;
        let null = self.binary(
            BinOp::Eq,
            span,
            offset.clone(),
            constant(Value::I64(NULL_OFFSET), span),
        )?;
        let scaled = self.binary(BinOp::Mul, span, offset, constant(Value::I64(bytes), span))?;
        let base = base_address(mem.space, span);
        let address = self.binary(BinOp::Add, span, base, scaled)?;
        let zero = constant(Value::U64(0), span);
        let value = self.ternary(null, zero, address, span)?;
        let mut out = self.convert(value, to);
        out.span = span;
        Ok(out)
    }

    /// `__cvta_generic_to_shared(p)`: where `p` points in the shared window (a `size_t`), which
    /// simt makes the low 32 bits of its generic address: the byte offset in its array (each
    /// array's window starts at 0, a 32-bit value as the hardware's). The integer still knows its
    /// array, so that PTX given it (`ld.shared`, `cp.async`, `ldmatrix`) reaches that array.
    pub(crate) fn shared_window(&mut self, p: &ast::Expr, span: Span) -> Result<Expr, CheckError> {
        let ptr = self.pointer(p)?;
        if let Some(mem) = ptr.mem {
            if !matches!(mem.space, Space::Shared(_)) {
                return Err(CheckError::Unsupported {
                    what: "the shared-window address of a pointer that is not into one `__shared__` array".into(),
                    span: p.span,
                    help: Some("pass `__cvta_generic_to_shared` a pointer into a `__shared__` array (`&tile[i]`)".into()),
                });
            }
        }
        let address = self.address_value(ptr, Scalar::U64, span)?;
        self.low_word(address, span)
    }

    /// The low 32 bits of a 64-bit address: its offset in its shared array.
    fn low_word(&mut self, address: Expr, span: Span) -> Result<Expr, CheckError> {
        let mask = constant(Value::U64(0xffff_ffff), span);
        self.binary(BinOp::BitAnd, span, address, mask)
    }

    /// The generic address an `ld.shared`/`st.shared`/`cp.async`/`ldmatrix` operand names (the
    /// inline-PTX lowering's `__simt_ptx_shared(x)`): a pointer's own address, or the generic
    /// address of a shared-window integer made by `__cvta_generic_to_shared` or `cvta.to.shared`.
    pub(crate) fn ptx_shared_address(
        &mut self,
        x: &ast::Expr,
        span: Span,
    ) -> Result<Expr, CheckError> {
        if self.is_pointer(x) {
            let ptr = self.pointer(x)?;
            return self.address_value(ptr, Scalar::U64, span);
        }
        let value = self.expr(x)?;
        let Some(Some(Space::Shared(n))) = self.address_in(&value) else {
            return Err(CheckError::Unsupported {
                what: "a shared-memory address in a register that holds no address of one `__shared__` array".into(),
                span: x.span,
                help: Some("make the address from a pointer into the array: `__cvta_generic_to_shared(&tile[i])`, or `cvta.to.shared` of it".into()),
            });
        };
        if !value.ty.is_integer() {
            return Err(CheckError::Pointer {
                problem: PointerProblem::NotAPointer {
                    found: value.ty.c_name().into(),
                },
                span: x.span,
                help: Some(
                    "a shared-memory address is an integer (`unsigned`) or a pointer".into(),
                ),
            });
        }
        let value = self.convert(value, Scalar::U64);
        let offset = self.low_word(value, span)?;
        self.binary(
            BinOp::Add,
            span,
            base_address(Space::Shared(n), span),
            offset,
        )
    }

    /// The array whose address `e` holds: `None` where it holds none, `Some(None)` where it
    /// may hold addresses in several (or an address and a plain number).
    fn address_in(&self, e: &Expr) -> Option<Option<Space>> {
        let mut found: Option<Option<Space>> = match &e.kind {
            ExprKind::ParamAddress(p) => Some(Some(Space::Global(*p))),
            ExprKind::Const(v) => constant_space(*v).map(Some),
            ExprKind::Var(v) => self.address_vars.get(v).copied(),
            ExprKind::Inline {
                result: Some(v), ..
            } => self.address_vars.get(v).copied(),
            _ => None,
        };
        for c in children(e) {
            found = match (found, self.address_in(c)) {
                (a, None) => a,
                (None, b) => b,
                (Some(a), Some(b)) => Some(a.filter(|a| Some(*a) == b)),
            };
        }
        found
    }

    /// Records what `var` holds after it is assigned `value`: an address keeps the array it
    /// lies in; a second array, or a plain number after an address, leaves it unknown.
    pub(crate) fn note_address(&mut self, var: VarId, value: &Expr) {
        let now = self.address_in(value);
        let before = self.address_vars.get(&var).copied();
        let after = match (before, now) {
            (None, None) => return,
            (None, Some(a)) => a,
            (Some(a), Some(b)) => a.filter(|a| Some(*a) == b),
            (Some(_), None) => None,
        };
        self.address_vars.insert(var, after);
    }

    /// `(T*)a` for an integer `a`: a pointer into the array `a`'s address lies in, at that
    /// address (null for a constant 0).
    pub(crate) fn integer_as_pointer(
        &mut self,
        ty: &ast::TypeName,
        integer: &ast::Expr,
        span: Span,
    ) -> Result<Ptr, CheckError> {
        let value = self.expr(integer)?;
        if let ExprKind::Const(v) = value.kind {
            if v.as_i64() == Some(0) {
                return Ok(null(span));
            }
        }
        let space = match self.address_in(&value) {
            Some(Some(space)) => space,
            found => {
                let why = match found {
                    None => "an integer that holds no address of this kernel's arrays",
                    _ => "an integer that may hold addresses in several arrays",
                };
                return Err(CheckError::Unsupported {
                    what: format!("a pointer made from {why}"),
                    span: integer.span,
                    help: Some(
                        "make the integer from a pointer into one array (`uintptr_t a = (uintptr_t)p;`), or index the array instead"
                            .into(),
                    ),
                });
            }
        };
        if value.ty.size() != 8 {
            return Err(CheckError::Pointer {
                problem: PointerProblem::NotAPointer {
                    found: value.ty.c_name().into(),
                },
                span: integer.span,
                help: Some("an address has 64 bits: keep it in a `uintptr_t`".into()),
            });
        }
        let mem = match space {
            // A function checked on its own points into a placeholder: never run.
            Space::Global(u32::MAX) => Mem {
                space,
                elem: Scalar::U8,
                width: 1,
            },
            Space::Global(p) => match self.params[p as usize].kind {
                ParamKind::Buffer { elem, width, .. } => Mem { space, elem, width },
                ParamKind::Scalar { .. } => unreachable!("checker: an address is a buffer's"),
            },
            Space::Shared(s) => self.shared_mem(s),
            Space::Local(l) => self.local_array_mem(l),
            Space::Choice { .. } => unreachable!("checker: a choice's address is refused before"),
        };
        let start = base_address(space, span);
        let value = self.convert(value, Scalar::I64);
        let start = self.convert(start, Scalar::I64);
        let bytes = self.binary(BinOp::Sub, span, value, start)?;
        let stored = self.stored(space).unwrap_or(mem.elem);
        let offset = Expr {
            kind: ExprKind::Rescale {
                value: Box::new(bytes),
                from: 1,
                to: mem.elem.size() * mem.width,
                size: stored.size(),
                space,
            },
            ty: Scalar::I64,
            span,
        };
        let ptr = Ptr {
            mem: Some(mem),
            offset,
            is_const: false,
        };
        self.cast_pointer(ptr, false, ty, span)
    }
}
