//! Atomics: a scalar one is an expression giving the old value; one on a pair of 16-bit floats
//! (`atomicAdd(half2*, half2)`) runs as a statement that keeps the old pair in variables.

use super::expr::constant;
use super::intrinsics::arity;
use super::typed::*;
use super::vector::{var_parts, VecValue};
use super::{ArgumentProblem, CheckError, KernelChecker, PointerProblem};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{atomic_view, AtomicOp, Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The atomic a call's name spells. `atomicAdd_system` and `atomicAdd_block` (and the other
/// `_system` / `_block` forms) widen or narrow the scope the operation is atomic in: to the
/// host and other GPUs, or to the block. On one simulated GPU whose only other party is the
/// launch itself, every scope is the same, so each is the plain atomic.
pub(crate) fn atomic_op(name: &str) -> Option<AtomicOp> {
    let name = name
        .strip_suffix("_system")
        .or_else(|| name.strip_suffix("_block"))
        .unwrap_or(name);
    Some(match name {
        "atomicAdd" => AtomicOp::Add,
        "atomicSub" => AtomicOp::Sub,
        "atomicMin" => AtomicOp::Min,
        "atomicMax" => AtomicOp::Max,
        "atomicExch" => AtomicOp::Exch,
        "atomicCAS" => AtomicOp::Cas,
        "atomicAnd" => AtomicOp::And,
        "atomicOr" => AtomicOp::Or,
        "atomicXor" => AtomicOp::Xor,
        "atomicInc" => AtomicOp::Inc,
        "atomicDec" => AtomicOp::Dec,
        _ => return None,
    })
}

impl KernelChecker<'_, '_> {
    /// An atomic used as a value (or a scalar one as a statement): the old value.
    pub(crate) fn atomic(&mut self, op: AtomicOp, args: &[ast::Expr], span: Span) -> Result<Expr> {
        let (mem, index) = self.atomic_target(op, args, span)?;
        if is_pair(op, mem) {
            return Err(CheckError::Mismatch {
                expected: "a scalar".into(),
                found: format!(
                    "`{}(...)` on a `{}`, whose old value is a `{}`",
                    op.name(),
                    type_name(mem.elem, mem.width),
                    type_name(mem.elem, mem.width)
                ),
                span,
                help: Some(format!(
                    "keep the old value in a `{}` variable, or call it as a statement",
                    type_name(mem.elem, mem.width)
                )),
            });
        }
        self.scalar_atomic(op, (mem, index), args, span)
    }

    /// `atomicXxx(...);` as a statement.
    pub(crate) fn atomic_stmt(
        &mut self,
        op: AtomicOp,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<StmtKind> {
        let (mem, index) = self.atomic_target(op, args, span)?;
        if is_pair(op, mem) {
            let (call, _) = self.pair_atomic(op, (mem, index), args, false, span)?;
            return Ok(StmtKind::Eval(call));
        }
        Ok(StmtKind::Eval(self.scalar_atomic(
            op,
            (mem, index),
            args,
            span,
        )?))
    }

    /// `half2 old = atomicAdd(p, v)`: the pair atomic, then its old value, a `(elem, width)`.
    pub(crate) fn atomic_pair_value(
        &mut self,
        op: AtomicOp,
        args: &[ast::Expr],
        (elem, width): (Scalar, u32),
        span: Span,
    ) -> Result<VecValue> {
        let (mem, index) = self.atomic_target(op, args, span)?;
        if !is_pair(op, mem) || (mem.elem, mem.width) != (elem, width) {
            let gives = if is_pair(op, mem) {
                type_name(mem.elem, mem.width)
            } else {
                type_name(mem.elem.promoted(), 1)
            };
            return Err(CheckError::Mismatch {
                expected: format!("a `{}`", type_name(elem, width)),
                found: format!("`{}(...)`, a `{gives}`", op.name()),
                span,
                help: None,
            });
        }
        let (call, olds) = self.pair_atomic(op, (mem, index), args, true, span)?;
        Ok(VecValue::Call(call, var_parts(&olds, mem.elem, span)))
    }

    /// The pair atomic as an inlined block: the operand's components, then one atomic access
    /// of the pair; `keep` makes variables for the old components.
    fn pair_atomic(
        &mut self,
        op: AtomicOp,
        (mem, index): (Mem, Expr),
        args: &[ast::Expr],
        keep: bool,
        span: Span,
    ) -> Result<(Expr, Vec<VarId>)> {
        self.atomic_view_check(op, mem, args)?;
        let (mut body, values) = self.staged(&args[1], mem.elem, mem.width)?;
        let olds: Vec<VarId> = if keep {
            (0..mem.width)
                .map(|k| self.new_local(&format!("old.{k}"), mem.elem, span))
                .collect()
        } else {
            Vec::new()
        };
        body.push(Stmt {
            kind: StmtKind::VecAtomic {
                op,
                mem,
                index,
                values,
                olds: olds.clone(),
            },
            span,
        });
        let call = Expr {
            kind: ExprKind::Inline {
                name: op.name().into(),
                body,
                result: None,
            },
            ty: Scalar::Bool,
            span,
        };
        Ok((call, olds))
    }

    fn scalar_atomic(
        &mut self,
        op: AtomicOp,
        (mem, index): (Mem, Expr),
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let name = op.name();
        if mem.width > 1 || !op.types().contains(&mem.elem) {
            let names: Vec<&str> = op.types().iter().map(|t| t.c_name()).collect();
            return Err(CheckError::ArgumentType {
                problem: ArgumentProblem::PointeeType {
                    function: name.to_string(),
                    ty: type_name(mem.elem, mem.width).to_string(),
                },
                span: args[0].span,
                help: Some(pointee_help(op, mem.elem, &names)),
            });
        }
        self.atomic_view_check(op, mem, args)?;
        let ty = mem.elem.promoted();
        // A 16-bit float operand is one before the atomic adds it (the parameter's type).
        let operand_ty = if mem.elem.is_half() { mem.elem } else { ty };
        let mut operands = Vec::new();
        for a in &args[1..] {
            let t = self.expr(a)?;
            operands.push(self.convert(t, operand_ty));
        }
        let operand = operands.pop().expect("an operand");
        let compare = operands.pop().map(Box::new);
        Ok(Expr {
            kind: ExprKind::Atomic {
                op,
                mem,
                index: Box::new(index),
                operand: Box::new(operand),
                compare,
            },
            ty,
            span,
        })
    }

    /// Refuses an atomic through a view the memory's elements cannot take whole.
    fn atomic_view_check(&mut self, op: AtomicOp, mem: Mem, args: &[ast::Expr]) -> Result<()> {
        let name = op.name();
        self.atomic_spaces.insert(mem.space);
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        if stored.size() < mem.elem.size() && !stored.is_float() && self.narrowed(mem.space) {
            // A pointer views the array as narrower components: its memory holds those.
            return Err(CheckError::Unsupported {
                what: format!(
                    "`{name}` on `{}` while a pointer views it as `{stored}`",
                    self.space_name(mem.space)
                ),
                span: args[0].span,
                help: Some(format!(
                    "an atomic works on whole elements, so simt does not also view them as \
                     narrower components; take the parts of an element with shifts \
                     (`(w >> 8 * k) & 0xff`) instead of the `{stored}*` view"
                )),
            });
        }
        // A 64-bit atomic on 32-bit integers, or a 32-bit one on 16-bit elements (llm.c's
        // `atomicCAS((unsigned int*)&bf162_array[i], ...)`), takes two adjacent elements by
        // their bits, low one first.
        let two_words = stored.is_integer() && stored.size() == 4 && mem.elem.size() == 8;
        let two_halves = stored.size() == 2 && mem.elem.is_integer() && mem.elem.size() == 4;
        // A 32- or 64-bit atomic on bytes (raft's `atomicMax((int*)address, ...)` of the
        // `float`s it carves from `extern __shared__ char shmem[]`, an `atomicAdd` on a member
        // of a struct held as bytes) takes four or eight.
        let bytes = stored.size() == 1 && stored.is_integer() && matches!(mem.elem.size(), 4 | 8);
        let pair = two_words || two_halves || bytes;
        if !atomic_view(stored, mem.elem) && !pair {
            return Err(CheckError::Unsupported {
                what: format!(
                    "`{name}` on `{stored}` memory through a `{}` pointer",
                    mem.elem
                ),
                span: args[0].span,
                help: Some(atomic_view_help(op, stored)),
            });
        }
        Ok(())
    }

    /// The memory an atomic's first argument points to, and the element index: a writable
    /// pointer into global or shared memory.
    fn atomic_target(
        &mut self,
        op: AtomicOp,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<(Mem, Expr)> {
        let name = op.name();
        let n = if op == AtomicOp::Cas { 3 } else { 2 };
        arity(name, args.len(), n, n, span)?;
        let (mem, index) = self.address(&args[0], name)?;
        self.not_constant(mem, args[0].span)?;
        if self.place_is_const(&args[0]) {
            return Err(CheckError::NotAssignable {
                what: "an element through a pointer to `const`".into(),
                span: args[0].span,
                help: Some(format!(
                    "`{name}` writes memory: drop `const` from the pointer"
                )),
            });
        }
        Ok((mem, index))
    }

    /// The memory and element index of an atomic's address: any pointer into global or
    /// shared memory (`&a[i]`, `a + i`, `p`, `&shared_variable`).
    fn address(&mut self, e: &ast::Expr, name: &str) -> Result<(Mem, Expr)> {
        if !self.is_pointer(e) {
            return Err(self.bad_address(e, name));
        }
        let p = self.pointer(e)?;
        let Some(mem) = p.mem else {
            return Err(self.bad_address(e, name));
        };
        if let Space::Local(_) = mem.space {
            return Err(CheckError::Unsupported {
                what: format!("`{name}` on a local array"),
                span: e.span,
                help: Some(
                    "atomics work on global or shared memory; a thread's own array needs none"
                        .into(),
                ),
            });
        }
        let zero = constant(Value::I32(0), e.span);
        let index = self.index_through(p.offset, zero, e.span)?;
        Ok((mem, index))
    }

    fn bad_address(&self, e: &ast::Expr, name: &str) -> CheckError {
        CheckError::Pointer {
            problem: PointerProblem::NotAnAddress {
                function: name.to_string(),
            },
            span: e.span,
            help: Some("write `&a[i]`, `a + i`, `a` or `&shared_variable`".into()),
        }
    }
}

/// Whether an atomic on `mem` is CUDA's `atomicAdd` of a pair of 16-bit floats (`half2`,
/// `__nv_bfloat162`): each half atomic on its own, the 32-bit word one access.
fn is_pair(op: AtomicOp, mem: Mem) -> bool {
    op == AtomicOp::Add && mem.elem.is_half() && mem.width == 2
}

/// The help for an atomic on a type it has no overload for: the types it has, and for `float`
/// or `double` the `atomicCAS` loop on the value's bits that CUDA code builds the rest with.
fn pointee_help(op: AtomicOp, elem: Scalar, names: &[&str]) -> String {
    let have = format!("`{}` works on: {}", op.name(), names.join(", "));
    let bits = match elem {
        Scalar::F32 => ("int", "__float_as_int", "__int_as_float"),
        Scalar::F64 => (
            "unsigned long long",
            "__double_as_longlong",
            "__longlong_as_double",
        ),
        _ => return have,
    };
    let (int, to, from) = bits;
    format!(
        "{have}; for `{elem}`, loop on `atomicCAS(({int}*)p, assumed, {to}(f({from}(assumed))))` \
         until it returns `assumed`"
    )
}

/// The help for an atomic through a pointer that `atomic_view` refuses: the pointer types of
/// the memory's width that `op` has an overload for.
fn atomic_view_help(op: AtomicOp, stored: Scalar) -> String {
    let name = op.name();
    let fits: Vec<&str> = op
        .types()
        .iter()
        .filter(|&&t| atomic_view(stored, t))
        .map(|t| t.c_name())
        .collect();
    if fits.is_empty() {
        let all: Vec<&str> = op.types().iter().map(|t| t.c_name()).collect();
        return format!(
            "simt applies `{name}` to whole `{stored}` elements, and CUDA has no `{name}` of \
             that width; it works on: {}",
            all.join(", ")
        );
    }
    format!(
        "apply `{name}` through a pointer to `{}`: an atomic sees the memory's elements whole, \
         as their own type or as the same bits of another 32- or 64-bit type",
        fits.join("` or `")
    )
}
