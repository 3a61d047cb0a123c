//! Device-side `memcpy` and `memset`: byte-exact copies, as the loads and stores nvcc emits.

// How nvcc compiles them (its NVVM back end is LLVM's NVPTX target):
// - `NVPTXLowerAggrCopies` (llvm/lib/Target/NVPTX/NVPTXLowerAggrCopies.cpp) turns a call whose
//   length is not a compile-time constant, or is `MaxAggrCopySize` = 128 bytes or more, into a
//   loop of one-byte loads and stores (`ld.u8`/`st.u8` per byte, as
//   llvm/test/CodeGen/NVPTX/lower-aggr-copies.ll checks).
// - A shorter constant length is expanded in place by SelectionDAG
//   (`TargetLowering::findOptimalMemOpLowering`): accesses of the widest integer both pointers'
//   alignment allows, at most 8 bytes (`i64`, the widest legal integer), then narrower ones for
//   what is left.
// A pointer's alignment is its pointee type's, which the compiler sees through the conversion
// to `void*`: here the largest power of two dividing the pointee's size, at most 16 (`float`: 4,
// `uint4`: 16, `char`: 1). Each piece is an ordinary access of its array through a view of an
// unsigned integer of the piece's size, so bounds, sectors, banks and races are counted as for
// any other access; a thread's own array kept in registers costs no traffic, as with SROA.

use super::expr::{constant, load};
use super::pointer::Ptr;
use super::typed::*;
use super::{CheckError, KernelChecker, PointerProblem};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// Constant lengths below this are expanded in place; longer or unknown ones become a byte loop.
const MAX_INLINE_BYTES: u64 = 128;

/// The widest access an in-place expansion uses (`i64`).
const WIDEST_PIECE: u32 = 8;

/// What a call writes: a copy of a source's bytes, or one byte repeated.
pub(super) enum Fill {
    /// `memcpy`'s source.
    Copy(Ptr),
    /// `memset`'s byte (`unsigned char`).
    Byte(Expr),
}

impl KernelChecker<'_, '_> {
    /// `memcpy(dst, src, n);` or `memset(p, v, n);` as a statement: its loads and stores; `None`
    /// for any other expression.
    pub(crate) fn mem_function(&mut self, e: &ast::Expr) -> Option<Result<Vec<Stmt>>> {
        let ast::ExprKind::Call { callee, args, .. } = &e.kind else {
            return None;
        };
        // `std::memcpy`, `::memset`: the C library's functions by any qualified name.
        let name = super::groups::unqualified(&callee.name);
        if !matches!(name, "memcpy" | "memset") {
            return None;
        }
        Some(self.mem_call(name, args, e.span))
    }

    fn mem_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        let [dst, what, len] = args else {
            return Err(CheckError::ArgumentCount {
                name: name.to_string(),
                expected: "3".into(),
                found: args.len(),
                span,
            });
        };
        let d = self.mem_pointer(name, dst)?;
        if d.is_const {
            return Err(CheckError::NotAssignable {
                what: format!("the destination of `{name}`, a pointer to `const`"),
                span: dst.span,
                help: Some("pass a pointer to writable memory".into()),
            });
        }
        let fill = if name == "memcpy" {
            Fill::Copy(self.mem_pointer(name, what)?)
        } else {
            let v = self.expr(what)?;
            if !v.ty.is_integer() {
                return Err(CheckError::NotAnInteger {
                    what: "`memset`'s byte".into(),
                    found: v.ty.to_string(),
                    span: what.span,
                    help: Some("pass an integer; `memset` writes its low byte".into()),
                });
            }
            Fill::Byte(self.convert(v, Scalar::U8))
        };
        let n = self.expr(len)?;
        if !n.ty.is_integer() {
            return Err(CheckError::NotAnInteger {
                what: format!("`{name}`'s length"),
                found: n.ty.to_string(),
                span: len.span,
                help: Some("pass a number of bytes: `sizeof(x)`, `n * sizeof(float)`".into()),
            });
        }
        let n = self.convert(n, Scalar::U64);
        let (Some(dmem), smem) = (d.mem, self.source_mem(&fill)) else {
            return Err(null_pointer(name, dst.span));
        };
        let smem = match (&fill, smem) {
            (Fill::Copy(_), None) => return Err(null_pointer(name, what.span)),
            (_, s) => s,
        };
        self.not_constant(dmem, dst.span)?;
        let known = match n.kind {
            ExprKind::Const(v) => v.as_i64().and_then(|k| u64::try_from(k).ok()),
            _ => None,
        };
        let mut out = Vec::new();
        // Two ranges of one array must not overlap: checked (for free) on each thread, from
        // the pointers and length read once.
        let (d, fill, n) = match (fill, smem) {
            (Fill::Copy(s), Some(smem))
                if smem.space == dmem.space && !matches!(smem.space, Space::Choice { .. }) =>
            {
                let d = self.hold_pointer(name, "dst", d, &mut out);
                let s = self.hold_pointer(name, "src", s, &mut out);
                let n = self.hold(name, "n", n, &mut out);
                out.push(Stmt {
                    kind: StmtKind::Disjoint {
                        dst: (d.offset.clone(), dmem.elem.size() * dmem.width),
                        src: (s.offset.clone(), smem.elem.size() * smem.width),
                        len: n.clone(),
                    },
                    span,
                });
                (d, Fill::Copy(s), n)
            }
            (fill, _) => (d, fill, n),
        };
        match known {
            Some(k) if k < MAX_INLINE_BYTES => {
                let mut unit = WIDEST_PIECE.min(alignment(dmem));
                if let Some(s) = smem {
                    unit = unit.min(alignment(s));
                }
                let mut at = 0u64;
                while at < k {
                    while u64::from(unit) > k - at {
                        unit /= 2;
                    }
                    let piece = Piece {
                        bytes: unit,
                        at: constant(Value::I64(to_i64(at / u64::from(unit))), span),
                    };
                    out.push(self.piece(name, (&d, dmem), (&fill, smem), piece, span)?);
                    at += u64::from(unit);
                }
            }
            _ => self.byte_loop(name, (&d, dmem), (&fill, smem), n, span, &mut out)?,
        }
        Ok(out)
    }

    /// A pointer argument of `name`.
    pub(super) fn mem_pointer(&mut self, name: &str, e: &ast::Expr) -> Result<Ptr> {
        if !self.is_pointer(e) {
            let t = self.expr(e)?;
            return Err(CheckError::Pointer {
                problem: PointerProblem::NotAPointer {
                    found: t.ty.to_string(),
                },
                span: e.span,
                help: Some(format!(
                    "`{name}` takes addresses: `&x`, `a + i`, `&a[i]` or a pointer variable"
                )),
            });
        }
        self.pointer(e)
    }

    /// `e` kept in a new variable (named `name.what`) assigned in `out`, so that it is computed
    /// once; a constant or a variable as it is.
    pub(super) fn hold(&mut self, name: &str, what: &str, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        if let ExprKind::Const(_) | ExprKind::Var(_) = e.kind {
            return e;
        }
        let (ty, span) = (e.ty, e.span);
        let v = self.new_local(&format!("{name}.{what}"), ty, span);
        out.push(assign(v, e, span));
        Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        }
    }

    /// `value` computed after the statements `body`, as one expression (`name` for messages):
    /// a new variable holds it.
    pub(super) fn after_body(&mut self, name: &str, mut body: Vec<Stmt>, value: Expr) -> Expr {
        let (ty, span) = (value.ty, value.span);
        let result = self.new_local(&format!("{name}.result"), ty, span);
        body.push(assign(result, value, span));
        Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body,
                result: Some(result),
            },
            ty,
            span,
        }
    }

    /// `p` with its offset kept in a variable (see [`Self::hold`]).
    pub(super) fn hold_pointer(
        &mut self,
        name: &str,
        what: &str,
        p: Ptr,
        out: &mut Vec<Stmt>,
    ) -> Ptr {
        let offset = self.hold(name, what, p.offset.clone(), out);
        Ptr { offset, ..p }
    }

    fn source_mem(&self, fill: &Fill) -> Option<Mem> {
        match fill {
            Fill::Copy(p) => p.mem,
            Fill::Byte(_) => None,
        }
    }

    /// The loop a copy of a length known only at run time (or of 128 bytes or more) becomes:
    /// one byte loaded and stored per iteration.
    fn byte_loop(
        &mut self,
        name: &str,
        (d, dmem): (&Ptr, Mem),
        (fill, smem): (&Fill, Option<Mem>),
        n: Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let var = |v: VarId, ty: Scalar| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        // The pointers, the byte and the length are read once, before the loop.
        let d = self.hold_pointer(name, "dst", d.clone(), out);
        let fill = match fill {
            Fill::Copy(s) => Fill::Copy(self.hold_pointer(name, "src", s.clone(), out)),
            Fill::Byte(b) => Fill::Byte(self.hold(name, "byte", b.clone(), out)),
        };
        let count = self.hold(name, "n", n, out);
        let k = self.new_local(&format!("{name}.k"), Scalar::U64, span);
        out.push(assign(k, constant(Value::U64(0), span), span));
        let body = self.piece(
            name,
            (&d, dmem),
            (&fill, smem),
            Piece {
                bytes: 1,
                at: var(k, Scalar::U64),
            },
            span,
        )?;
        let cond = self.binary(BinOp::Lt, span, var(k, Scalar::U64), count)?;
        let next = self.binary(
            BinOp::Add,
            span,
            var(k, Scalar::U64),
            constant(Value::U64(1), span),
        )?;
        out.push(Stmt {
            kind: StmtKind::Loop {
                cond: Some(cond),
                test_first: true,
                body: vec![body],
                step: vec![assign(k, next, span)],
            },
            span,
        });
        Ok(())
    }

    /// One access of `piece.bytes` bytes: the destination's piece set to the source's.
    pub(super) fn piece(
        &mut self,
        name: &str,
        (d, dmem): (&Ptr, Mem),
        (fill, smem): (&Fill, Option<Mem>),
        piece: Piece,
        span: Span,
    ) -> Result<Stmt> {
        let unit = unsigned(piece.bytes);
        let (dview, dindex) = self.piece_of(name, (d, dmem), &piece, span)?;
        let value = match (fill, smem) {
            (Fill::Copy(s), Some(smem)) => {
                let (sview, sindex) = self.piece_of(name, (s, smem), &piece, span)?;
                load(sview, sindex, span)
            }
            (Fill::Byte(b), _) => self.splat(b.clone(), unit, span)?,
            (Fill::Copy(_), None) => unreachable!("checker: a copy's source points into an array"),
        };
        Ok(Stmt {
            kind: StmtKind::Store {
                mem: dview,
                index: dindex,
                value,
            },
            span,
        })
    }

    /// The view of `p`'s array as `piece.bytes`-byte unsigned integers, and the index of the
    /// piece in it.
    fn piece_of(
        &mut self,
        name: &str,
        (p, mem): (&Ptr, Mem),
        piece: &Piece,
        span: Span,
    ) -> Result<(Mem, Expr)> {
        let unit = unsigned(piece.bytes);
        // A function checked on its own points into a placeholder: its declared type.
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        if stored == Scalar::Bool {
            return Err(self.unviewable(name, mem, unit, span));
        }
        if unit.size() < stored.size() {
            self.narrow(mem.space, unit);
        }
        let stored = self.stored(mem.space).unwrap_or(stored);
        let per = i64::from(mem.elem.size() * mem.width / piece.bytes);
        // A choice's value carries its array's number in its high bits: it is scaled by nothing.
        let choice_differs = matches!(mem.space, Space::Choice { .. }) && per != 1;
        if unit.size() < stored.size() || choice_differs {
            return Err(self.unviewable(name, mem, unit, span));
        }
        let base = self.widen(p.offset.clone());
        let base = if per == 1 {
            base
        } else {
            self.binary(BinOp::Mul, span, base, constant(Value::I64(per), span))?
        };
        let at = self.widen(piece.at.clone());
        let index = match (&base.kind, &at.kind) {
            (_, ExprKind::Const(Value::I64(0))) => base,
            _ => self.binary(BinOp::Add, span, base, at)?,
        };
        let index = Expr { span, ..index };
        Ok((
            Mem {
                space: mem.space,
                elem: unit,
                width: 1,
            },
            index,
        ))
    }

    /// `memset`'s byte repeated across an unsigned integer of type `unit`.
    fn splat(&mut self, byte: Expr, unit: Scalar, span: Span) -> Result<Expr> {
        let ones = (0..unit.size()).fold(0u64, |acc, k| acc | 1 << (8 * k));
        if let ExprKind::Const(v) = byte.kind {
            let b = v.as_i64().expect("checker: a byte is an integer") as u64 & 0xff;
            return Ok(constant(Value::U64(b * ones).cast(unit), span));
        }
        let wide = self.convert(byte, unit.promoted());
        let ones = constant(Value::U64(ones).cast(unit.promoted()), span);
        self.binary(BinOp::Mul, span, wide, ones)
    }

    /// Why `mem` cannot be copied in `unit` pieces.
    fn unviewable(&self, name: &str, mem: Mem, unit: Scalar, span: Span) -> CheckError {
        CheckError::Unsupported {
            what: format!(
                "`{name}` on `{}` in {}-byte pieces",
                self.space_name(mem.space),
                unit.size()
            ),
            span,
            help: Some(format!(
                "nvcc copies this length in {}-byte accesses, and simt views a launch array, \
                 an `extern __shared__` array or an array that is several arrays' choice only \
                 as its own or wider elements; copy the elements in a loop of their own type \
                 (`for (int k = 0; k < n; k++) dst[k] = src[k];`)",
                unit.size()
            )),
        }
    }
}

/// One access of a call: `bytes` bytes at index `at` of the `bytes`-sized pieces after where
/// the pointers point.
pub(super) struct Piece {
    pub(super) bytes: u32,
    pub(super) at: Expr,
}

/// The alignment the compiler assumes for a pointer to `mem`'s type: the largest power of two
/// dividing its size, at most 16.
pub(super) fn alignment(mem: Mem) -> u32 {
    let size = mem.elem.size() * mem.width;
    (1 << size.trailing_zeros()).min(16)
}

/// The unsigned integer of `bytes` bytes.
fn unsigned(bytes: u32) -> Scalar {
    match bytes {
        1 => Scalar::U8,
        2 => Scalar::U16,
        4 => Scalar::U32,
        _ => Scalar::U64,
    }
}

fn to_i64(k: u64) -> i64 {
    i64::try_from(k).expect("a length below 128 bytes")
}

pub(super) fn assign(var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}

fn null_pointer(name: &str, span: Span) -> CheckError {
    CheckError::Pointer {
        problem: PointerProblem::NullDereference,
        span,
        help: Some(format!("pass `{name}` a pointer into an array")),
    }
}
