//! Inline PTX's `mma.sync`, which the `asm` lowering writes as `__simt_mma_m16n8k16(d..., a..., b..., c...)`: a warp matrix multiply-accumulate on the PTX ISA's fragments.

use super::typed::*;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::Scalar;
use crate::wmma::{ptx_intrinsic as intrinsic, MmaOp};

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `__simt_mma_m16n8k16(d0, .., d3, a.., b.., c0, .., c3)`: D's four elements (places
    /// assigned), then A's, B's and C's as values, in the PTX ISA's fragment order; `None` for
    /// any other expression.
    pub(crate) fn ptx_mma(&mut self, e: &ast::Expr) -> Option<Result<Vec<Stmt>>> {
        let ast::ExprKind::Call { callee, args, .. } = &e.kind else {
            return None;
        };
        let k = [8, 16].into_iter().find(|&k| callee.name == intrinsic(k))?;
        Some(self.ptx_mma_call(k, args, e.span))
    }

    fn ptx_mma_call(&mut self, k: u32, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        let values = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<Expr>>>()?;
        // A half or bfloat16 value has a `float` register; its own type is `half_of`'s.
        let types: Vec<Scalar> = values
            .iter()
            .map(|v| self.half_of(v).unwrap_or(v.ty))
            .collect();
        let input = types.get(4).copied().unwrap_or(Scalar::F16);
        // 16 × k elements of A and k × 8 of B over 32 lanes.
        let (a_len, b_len) = (k as usize / 2, k as usize / 4);
        let mut op = MmaOp {
            m: 16,
            n: 8,
            k,
            input,
            tf32: input == Scalar::F32,
            c: Scalar::F32,
            d: Scalar::F32,
            a_col: false,
            b_col: true,
            satf: false,
            ptx: true,
        };
        let shapes_agree = args.len() == 8 + a_len + b_len
            && op.a_len() == a_len
            && op.b_len() == b_len
            && types[4..4 + a_len + b_len].iter().all(|&t| t == input);
        if !shapes_agree {
            return Err(CheckError::Unsupported {
                what: format!("`{}` with these operands", intrinsic(k)),
                span,
                help: Some("write the multiply-accumulate as inline PTX `mma.sync.aligned.m16n8k16.row.col...` (simt's own lowering calls this)".into()),
            });
        }
        op.d = types[0];
        op.c = types[4 + a_len + b_len];
        let mut values = values.into_iter();
        let d: Vec<VarId> = (0..4)
            .map(|_| {
                values.next();
                self.new_local("mma.sync", op.d, span)
            })
            .collect();
        let a: Vec<Expr> = values.by_ref().take(a_len).collect();
        let b: Vec<Expr> = values.by_ref().take(b_len).collect();
        let c: Vec<Expr> = values.collect();
        let mut out = vec![Stmt {
            kind: StmtKind::Mma {
                op,
                a,
                b,
                c,
                d: d.clone(),
            },
            span,
        }];
        for (target, v) in args.iter().zip(d) {
            let value = Expr {
                kind: ExprKind::Var(v),
                ty: op.d,
                span,
            };
            let kind = self.assign(target, None, span, value)?;
            out.push(Stmt { kind, span });
        }
        Ok(out)
    }
}
