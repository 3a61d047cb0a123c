//! Barriers beyond `__syncthreads()`: `__syncthreads_count/_and/_or(p)`, which also fold a
//! predicate over the block's threads, and inline PTX's `bar.sync a, b`.

use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{BlockVote, Scalar};

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `int __syncthreads_count(int predicate)` (or `_and`, `_or`) as a value: the barrier runs
    /// as a statement inlined where the expression is evaluated, like a `__device__` call.
    pub(crate) fn block_vote(
        &mut self,
        kind: BlockVote,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let stmt = self.block_vote_stmt(kind, name, args, span)?;
        let StmtKind::BarrierVote { result, .. } = stmt else {
            unreachable!("block_vote_stmt gives a BarrierVote")
        };
        Ok(Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body: vec![Stmt { kind: stmt, span }],
                result: Some(result),
            },
            ty: Scalar::I32,
            span,
        })
    }

    /// The barrier itself, its `int` result in a new temporary.
    pub(crate) fn block_vote_stmt(
        &mut self,
        kind: BlockVote,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<StmtKind> {
        super::intrinsics::arity(name, args.len(), 1, 1, span)?;
        let p = &args[0];
        // The predicate is an `int` parameter: a `float` or `long long` argument converts to
        // `int` first (so `0.5f` is false), then any nonzero `int` counts as true.
        let pred = if self.is_pointer(p) {
            self.scalar_or_truth(p)?
        } else {
            let v = self.expr(p)?;
            let v = if v.ty == Scalar::Bool {
                v
            } else {
                self.convert(v, Scalar::I32)
            };
            self.truth(v)?
        };
        let result = self.new_local(name, Scalar::I32, span);
        Ok(StmtKind::BarrierVote { kind, pred, result })
    }

    /// Inline PTX's `bar.sync a{, b}` (`__simt_bar_sync(a{, b})`, as the PTX lowering writes
    /// it): the barrier number and thread count as `unsigned`, checked as the kernel runs.
    pub(crate) fn named_barrier(&mut self, args: &[ast::Expr], span: Span) -> Result<StmtKind> {
        super::intrinsics::arity("__simt_bar_sync", args.len(), 1, 2, span)?;
        let mut operand = |e: &ast::Expr| -> Result<Expr> {
            let v = self.expr(e)?;
            Ok(self.convert(v, Scalar::U32))
        };
        let id = operand(&args[0])?;
        let count = args.get(1).map(operand).transpose()?;
        Ok(StmtKind::NamedBarrier { id, count })
    }
}
