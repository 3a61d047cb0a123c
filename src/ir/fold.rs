//! What `nvcc` leaves out of the machine code: the lowering marks the instructions that unrolling,
//! constant folding and loop-invariant hoisting remove, so the time model can issue the
//! instructions a compiled kernel runs rather than the source's ([`super::KernelIr::folded`]).
//!
//! The rules, each what `nvcc -O3` does to a loop with constant bounds (CUDA C++ Programming
//! Guide, "#pragma unroll": "By default, the compiler unrolls small loops with a known trip
//! count"), applied to every such loop as the local-array placement already assumes:
//! - the loop's test, branch and step disappear;
//! - arithmetic whose value is a constant once the loop is unrolled (on constants, template
//!   arguments and induction variables) is folded into immediates;
//! - inside an unrolled loop, arithmetic on values the loop does not change is hoisted out of it,
//!   and sums of such values and constants become an address offset
//!   (`As[dotIdx * BM + threadRow * TM + i]` is one shared load with an immediate offset); a
//!   product of a hoisted value and a per-iteration constant still costs its multiply;
//! - accesses to local arrays the compiler keeps in registers are register operands;
//! - a `float`/`double` multiply whose only use is an addition is contracted into one FMA
//!   (`nvcc`'s default `-fmad=true`).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::check::local::{assigned_vars, Facts};
use crate::check::typed::{Expr, ExprKind, Stmt, VarId};
use crate::value::ArithOp;

/// The lowering's view of what the compiler folds.
pub(super) struct Folding<'k> {
    facts: Facts<'k>,
    /// For each enclosing unrolled loop, innermost last, the variables its body and step assign.
    loops: Vec<HashSet<VarId>>,
    /// Above zero while the instructions being emitted belong to folded code.
    depth: u32,
    /// [`Folding::free`]'s answers in the innermost unrolled loop (an expression is asked about
    /// again for each operand the lowering visits).
    seen: RefCell<HashMap<*const Expr, bool>>,
}

impl<'k> Folding<'k> {
    pub(super) fn new(body: &'k [Stmt]) -> Folding<'k> {
        Folding {
            facts: Facts::of(body),
            loops: Vec::new(),
            depth: 0,
            seen: RefCell::default(),
        }
    }

    /// Whether the instructions emitted now are folded away.
    pub(super) fn active(&self) -> bool {
        self.depth > 0
    }

    /// Whether the compiler computes `e` at compile time or outside the innermost unrolled loop,
    /// so that its instructions do not run where it is written. `false` for names and constants,
    /// which emit nothing, and inside code already folded.
    pub(super) fn folds(&self, e: &Expr) -> bool {
        if self.depth > 0 || !is_computed(e) {
            return false;
        }
        match self.loops.last() {
            Some(assigned) => self.free(e, assigned),
            None => self.facts.is_known(e),
        }
    }

    /// Whether `e` is a constant once loops are unrolled (a branch on it disappears).
    pub(super) fn known(&self, e: &Expr) -> bool {
        self.facts.is_known(e)
    }

    /// Whether loop statement `s` is unrolled completely.
    pub(super) fn unrolls(&self, s: &Stmt) -> bool {
        self.facts.is_unrolled(s)
    }

    /// Starts folding (for an expression [`Folding::folds`] accepted, or a loop's control).
    pub(super) fn enter(&mut self) {
        self.depth += 1;
    }

    /// Ends what [`Folding::enter`] started.
    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Enters the body of an unrolled loop whose body and step are `body` and `step`.
    pub(super) fn enter_loop(&mut self, body: &[Stmt], step: &[Stmt]) {
        let mut assigned = HashSet::new();
        assigned_vars(body, &mut assigned);
        assigned_vars(step, &mut assigned);
        self.loops.push(assigned);
        self.seen.borrow_mut().clear();
    }

    /// Leaves the innermost unrolled loop.
    pub(super) fn leave_loop(&mut self) {
        self.loops.pop();
        self.seen.borrow_mut().clear();
    }

    /// Whether `e` costs nothing in each unrolled copy of the loop that assigns `assigned`: a
    /// constant of the copy, a value hoisted out of the loop, or a sum of such (an immediate
    /// offset on a hoisted value).
    fn free(&self, e: &Expr, assigned: &HashSet<VarId>) -> bool {
        let key = e as *const Expr;
        if let Some(&known) = self.seen.borrow().get(&key) {
            return known;
        }
        let free = self.invariant(e, assigned)
            || self.facts.is_known(e)
            || match &e.kind {
                ExprKind::Arith {
                    op: ArithOp::Add | ArithOp::Sub,
                    lhs,
                    rhs,
                } => self.free(lhs, assigned) && self.free(rhs, assigned),
                ExprKind::Widen(a)
                | ExprKind::Cast { operand: a, .. }
                | ExprKind::Rescale { value: a, .. } => self.free(a, assigned),
                _ => false,
            };
        self.seen.borrow_mut().insert(key, free);
        free
    }

    /// Arithmetic on values the loop does not assign: computed once, before the loop.
    fn invariant(&self, e: &Expr, assigned: &HashSet<VarId>) -> bool {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::ParamBase(_) | ExprKind::Builtin(_) => true,
            ExprKind::Var(v) => !assigned.contains(v),
            ExprKind::Arith { lhs, rhs, .. } => {
                self.invariant(lhs, assigned) && self.invariant(rhs, assigned)
            }
            ExprKind::Neg(a)
            | ExprKind::BitNot(a)
            | ExprKind::Widen(a)
            | ExprKind::Cast { operand: a, .. }
            | ExprKind::Round { operand: a, .. }
            | ExprKind::Rescale { value: a, .. } => self.invariant(a, assigned),
            _ => false,
        }
    }
}

/// Whether lowering `e` emits instructions (names, built-ins and constants do not).
fn is_computed(e: &Expr) -> bool {
    !matches!(
        e.kind,
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Builtin(_) | ExprKind::ParamBase(_)
    )
}
