//! `switch` statements, read into the `if`/`else` chain they stand for.

use pest::iterators::Pair;

use super::ast::*;
use super::build::{Builder, Result};
use super::grammar::Rule;
use crate::source::Span;

/// One arm: its labels (`None` for `default`) and its statements.
type Arm = (Vec<Option<Expr>>, Vec<Stmt>, Span);

impl Builder<'_> {
    /// `switch (x) { case A: ... break; case B: case C: ... break; default: ... }` as
    /// `{ auto x' = x; if (x' == A) {...} else if (x' == B || x' == C) {...} else {...} }`.
    /// Labels with no statements share the next arm's; an arm must end in `break`, `return` or
    /// `continue` (or be the last): falling into the next arm, or a `break` before the end, is
    /// reported as unsupported.
    pub(super) fn switch(&self, pair: Pair<'_, Rule>) -> Result<StmtKind> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_switch);
        let selector = self.expr(inner.next().expect("grammar: switch has a selector"))?;
        let mut arms: Vec<Arm> = Vec::new();
        let mut pending = Vec::new();
        for arm in inner {
            let arm_span = self.span(&arm);
            let mut body = Vec::new();
            for part in arm.into_inner() {
                match part.as_rule() {
                    Rule::switch_label => {
                        let value = part.into_inner().find(|p| p.as_rule() == Rule::expr);
                        pending.push(value.map(|e| self.expr(e)).transpose()?);
                    }
                    _ => body.push(self.stmt(part)?),
                }
            }
            if !body.is_empty() {
                arms.push((std::mem::take(&mut pending), body, arm_span));
            }
        }
        if !pending.is_empty() {
            // Labels at the end with nothing under them: an arm that does nothing.
            arms.push((pending, Vec::new(), span));
        }
        let last = arms.len().saturating_sub(1);
        let mut chain: Option<Stmt> = None;
        let mut default = None;
        let mut cases = Vec::new();
        let var = Ident {
            name: format!("switch@{}", span.start),
            span: selector.span,
        };
        let name = || Expr {
            kind: ExprKind::Name(var.name.clone()),
            span: selector.span,
        };
        for (k, (labels, mut body, arm_span)) in arms.into_iter().enumerate() {
            match body.last().map(|s| &s.kind) {
                Some(StmtKind::Break) => {
                    body.pop();
                }
                Some(StmtKind::Return(_) | StmtKind::Continue) => {}
                _ if k == last => {}
                _ => {
                    return Ok(unsupported(
                        "a `switch` case that falls through into the next one",
                        "end each case with `break;` (or write the shared code in both cases)",
                    ))
                }
            }
            if body.iter().any(breaks) {
                return Ok(unsupported(
                    "a `break` before the end of a `switch` case",
                    "use `if`/`else` inside the case so that it ends with its only `break;`",
                ));
            }
            let block = Stmt {
                kind: StmtKind::Block(body),
                span: arm_span,
            };
            if labels.iter().any(Option::is_none) {
                default = Some(block);
                continue;
            }
            let cond = labels
                .into_iter()
                .flatten()
                .map(|value| Expr {
                    span: value.span,
                    kind: ExprKind::Binary {
                        op: BinOp::Eq,
                        op_span: value.span,
                        lhs: Box::new(name()),
                        rhs: Box::new(value),
                    },
                })
                .reduce(|a, b| Expr {
                    span: a.span,
                    kind: ExprKind::Binary {
                        op: BinOp::Or,
                        op_span: b.span,
                        lhs: Box::new(a),
                        rhs: Box::new(b),
                    },
                })
                .expect("an arm has a label");
            cases.push((cond, block));
        }
        for (cond, then) in cases.into_iter().rev() {
            let span = then.span;
            chain = Some(Stmt {
                kind: StmtKind::If {
                    cond,
                    then: Box::new(then),
                    els: chain.or(default.take()).map(Box::new),
                },
                span,
            });
        }
        let decl = Stmt {
            kind: StmtKind::Decl {
                ty: TypeName {
                    base: BaseType::Auto,
                    base_text: "auto".into(),
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span: selector.span,
                },
                decls: vec![Declarator {
                    name: var.clone(),
                    pointer: false,
                    dims: Vec::new(),
                    init: Some(selector),
                    list: None,
                }],
            },
            span,
        };
        Ok(StmtKind::Block(
            std::iter::once(decl).chain(chain.or(default)).collect(),
        ))
    }
}

fn unsupported(what: &str, help: &str) -> StmtKind {
    StmtKind::Unsupported {
        what: what.into(),
        help: help.into(),
    }
}

/// Whether `s` has a `break` that would leave the `switch` (one not inside a loop of its own).
fn breaks(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(body) => body.iter().any(breaks),
        StmtKind::If { then, els, .. } => breaks(then) || els.as_deref().is_some_and(breaks),
        _ => false,
    }
}
