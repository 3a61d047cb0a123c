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
    /// Labels with no statements share the next arm's. An arm that falls into the next one, or
    /// breaks before its end, needs C's own order instead ([`Builder::fallthrough`]).
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
                // A `goto` to a label later in its own case.
                super::goto::structure(&mut body);
                arms.push((std::mem::take(&mut pending), body, arm_span));
            }
        }
        if !pending.is_empty() {
            // Labels at the end with nothing under them: an arm that does nothing.
            arms.push((pending, Vec::new(), span));
        }
        let last = arms.len().saturating_sub(1);
        // Each arm ends in `break`, `return` or `continue` (or is the last) and breaks nowhere
        // else: an `if`/`else` chain.
        let plain = arms.iter().enumerate().all(|(k, (_, body, _))| {
            let last_kind = body.last().map(|s| &s.kind);
            let ends = matches!(
                last_kind,
                Some(StmtKind::Break | StmtKind::Return(_) | StmtKind::Continue)
            );
            let before = match last_kind {
                Some(StmtKind::Break) => &body[..body.len() - 1],
                _ => &body[..],
            };
            (ends || k == last) && !before.iter().any(breaks)
        });
        if !plain {
            return Ok(self.fallthrough(selector, arms, span));
        }
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
        for (labels, mut body, arm_span) in arms {
            if let Some(StmtKind::Break) = body.last().map(|s| &s.kind) {
                body.pop();
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
                    constexpr: false,
                },
                span,
            });
        }
        let decl = Stmt {
            kind: StmtKind::Decl {
                of: None,
                ty: TypeName {
                    base: BaseType::Auto,
                    base_text: "auto".into(),
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span: selector.span,
                },
                decls: vec![Declarator::plain(var.clone(), Some(selector))],
            },
            span,
        };
        Ok(StmtKind::Block(
            std::iter::once(decl).chain(chain.or(default)).collect(),
        ))
    }
}

impl Builder<'_> {
    /// A `switch` whose arms fall into each other or break early, in C's order:
    /// `{ auto x' = x; bool none = !(x' == A || ...); bool m = false;
    ///    do { if (m || x' == A) { m = true; ... } ... if (m || none) { m = true; default } ... }
    ///    while (false); }`: the loop that runs once is what `break` leaves. A `continue` in an
    /// arm would continue that loop, not the one around the `switch`, so it is refused.
    fn fallthrough(&self, selector: Expr, arms: Vec<Arm>, span: Span) -> StmtKind {
        if arms.iter().any(|(_, body, _)| body.iter().any(continues)) {
            return unsupported(
                "a `continue` inside a `switch` whose cases fall through",
                "end each case with `break;`, or move the `continue` after the `switch`",
            );
        }
        let at = selector.span;
        let name = |n: &str| Expr {
            kind: ExprKind::Name(format!("switch@{}.{n}", span.start)),
            span: at,
        };
        let binary = |op, lhs: Expr, rhs: Expr| Expr {
            span: lhs.span,
            kind: ExprKind::Binary {
                op,
                op_span: rhs.span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
        };
        let flag = |value: bool| Expr {
            kind: ExprKind::Bool(value),
            span: at,
        };
        let decl = |n: &str, base: BaseType, text: &str, init: Expr| Stmt {
            kind: StmtKind::Decl {
                of: None,
                ty: TypeName {
                    base,
                    base_text: text.into(),
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span: at,
                },
                decls: vec![Declarator::plain(
                    Ident {
                        name: format!("switch@{}.{n}", span.start),
                        span: at,
                    },
                    Some(init),
                )],
            },
            span,
        };
        let equals = |value: &Expr| binary(BinOp::Eq, name("x"), value.clone());
        let any_case = arms
            .iter()
            .flat_map(|(labels, _, _)| labels.iter().flatten())
            .map(equals)
            .reduce(|a, b| binary(BinOp::Or, a, b))
            .unwrap_or_else(|| flag(false));
        let none = Expr {
            span: at,
            kind: ExprKind::Unary {
                op: UnOp::Not,
                operand: Box::new(any_case),
            },
        };
        let mut body = Vec::new();
        for (labels, stmts, arm_span) in arms {
            let hit = if labels.iter().any(Option::is_none) {
                name("none")
            } else {
                labels
                    .iter()
                    .flatten()
                    .map(equals)
                    .reduce(|a, b| binary(BinOp::Or, a, b))
                    .expect("an arm has a label")
            };
            let set = Stmt {
                kind: StmtKind::Assign {
                    target: name("m"),
                    op: None,
                    op_span: at,
                    value: flag(true),
                },
                span: arm_span,
            };
            body.push(Stmt {
                kind: StmtKind::If {
                    cond: binary(BinOp::Or, name("m"), hit),
                    then: Box::new(Stmt {
                        kind: StmtKind::Block(std::iter::once(set).chain(stmts).collect()),
                        span: arm_span,
                    }),
                    els: None,
                    constexpr: false,
                },
                span: arm_span,
            });
        }
        let once = Stmt {
            kind: StmtKind::DoWhile {
                body: Box::new(Stmt {
                    kind: StmtKind::Block(body),
                    span,
                }),
                cond: flag(false),
            },
            span,
        };
        StmtKind::Block(vec![
            decl("x", BaseType::Auto, "auto", selector),
            decl("none", BaseType::Bool, "bool", none),
            decl("m", BaseType::Bool, "bool", flag(false)),
            once,
        ])
    }
}

/// Whether `s` has a `continue` that would leave the `switch` (one not inside a loop of its own).
fn continues(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(body) => body.iter().any(continues),
        StmtKind::If { then, els, .. } => continues(then) || els.as_deref().is_some_and(continues),
        _ => false,
    }
}

fn unsupported(what: &str, help: &str) -> StmtKind {
    StmtKind::Unsupported {
        what: what.into(),
        help: help.into(),
        invalid: false,
        declares: Vec::new(),
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
