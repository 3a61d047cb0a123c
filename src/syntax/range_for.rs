//! Range-based `for` (C++11 [stmt.ranged]) rewritten as the loops it stands for.

use super::ast::*;
use crate::source::Span;

/// `for (DECL : RANGE) BODY`: what the loop declares, and where.
pub(super) struct RangeFor {
    /// The element's type as written (`int`, `auto`, `const auto`); `reference` for `auto& x`.
    pub ty: TypeName,
    /// The element's name.
    pub name: Ident,
    /// `&` or `&&` before the name: the element is another name for the range's element.
    pub reference: bool,
    /// The range.
    pub range: Expr,
    /// The body.
    pub body: Stmt,
    /// The whole statement.
    pub span: Span,
}

impl RangeFor {
    /// The statement: both loops C++ could mean, the checker choosing by the range's type.
    pub fn lower(self) -> StmtKind {
        StmtKind::RangeFor {
            array: Box::new(self.over_array()),
            class: Box::new(self.over_class(false)),
            pointer: Box::new(self.over_class(true)),
            range: self.range,
        }
    }

    /// Over an array `T a[N]`: `for (int __i1 = 0; __i1 < (int)(sizeof(a) / sizeof(a[0]));
    /// ++__i1) { DECL = a[__i1]; BODY }`, the counted loop over its elements (C++ walks
    /// `a` to `a + N`, the same elements in the same order).
    fn over_array(&self) -> Stmt {
        let at = self.span;
        let i = name("__i1", at);
        let element = |e: Expr| Expr {
            kind: ExprKind::Index {
                base: Box::new(self.range.clone()),
                index: Box::new(e),
            },
            span: at,
        };
        let first = Expr {
            kind: ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
                hex: false,
            },
            span: at,
        };
        let bytes = |e: Expr| Expr {
            kind: ExprKind::SizeOfExpr(Box::new(e)),
            span: at,
        };
        let count = Expr {
            kind: ExprKind::Cast {
                ty: int_type(at),
                expr: Box::new(binary(
                    BinOp::Div,
                    bytes(self.range.clone()),
                    bytes(element(first.clone())),
                    at,
                )),
            },
            span: at,
        };
        let init = decl(int_type(at), "__i1", false, first, at);
        let cond = binary(BinOp::Lt, i.clone(), count, at);
        let step = Stmt {
            kind: StmtKind::IncDec {
                target: i.clone(),
                inc: true,
            },
            span: at,
        };
        self.counted(vec![init], cond, vec![step], element(i))
    }

    /// Over an object with `begin()` and `end()`: `{ auto __range1 = RANGE; auto __begin1 =
    /// __range1.begin(); auto __end1 = __range1.end(); for (; __begin1 != __end1; ++__begin1)
    /// { DECL = *__begin1; BODY } }`, each operator the iterator's member, or (`pointers`) the
    /// pointers' own. `__range1` is a copy here; the checker, which knows whether the range is
    /// an lvalue, binds it by reference ([`range_by_reference`]) where C++'s `auto&&` would.
    fn over_class(&self, pointers: bool) -> Stmt {
        let at = self.span;
        let call = |object: Expr, method: &str, args: Vec<Expr>| Expr {
            kind: ExprKind::Method {
                object: Box::new(object),
                method: Ident {
                    name: method.into(),
                    span: at,
                },
                targs: Vec::new(),
                args,
            },
            span: at,
        };
        let (range, begin, end) = (
            name("__range1", at),
            name("__begin1", at),
            name("__end1", at),
        );
        let auto = TypeName {
            base: BaseType::Auto,
            base_text: "auto".into(),
            pointer: false,
            reference: false,
            is_const: false,
            span: at,
        };
        let setup = vec![
            decl(auto.clone(), "__range1", false, self.range.clone(), at),
            decl(
                auto.clone(),
                "__begin1",
                false,
                call(range.clone(), "begin", Vec::new()),
                at,
            ),
            decl(auto, "__end1", false, call(range, "end", Vec::new()), at),
        ];
        let cond = binary(BinOp::Ne, begin.clone(), end, at);
        let (step, element) = if pointers {
            let step = StmtKind::IncDec {
                target: begin.clone(),
                inc: true,
            };
            let element = Expr {
                kind: ExprKind::Unary {
                    op: UnOp::Deref,
                    operand: Box::new(begin),
                },
                span: at,
            };
            (step, element)
        } else {
            let step = StmtKind::Expr(call(begin.clone(), "operator++", Vec::new()));
            (step, call(begin, "operator*", Vec::new()))
        };
        let step = Stmt {
            kind: step,
            span: at,
        };
        let mut stmts = setup;
        stmts.push(self.counted(Vec::new(), cond, vec![step], element));
        Stmt {
            kind: StmtKind::Block(stmts),
            span: at,
        }
    }

    /// `for (init; cond; step) { DECL = element; BODY }`.
    fn counted(&self, init: Vec<Stmt>, cond: Expr, step: Vec<Stmt>, element: Expr) -> Stmt {
        let at = self.span;
        let mut ty = self.ty.clone();
        ty.reference = false;
        let own = Stmt {
            kind: StmtKind::Decl {
                of: None,
                decls: vec![Declarator {
                    name: self.name.clone(),
                    pointer: ty.pointer,
                    pointer_to_pointer: false,
                    reference: self.reference,
                    dims: Vec::new(),
                    rows: Vec::new(),
                    init: Some(element),
                    list: None,
                }],
                ty,
            },
            span: self.name.span,
        };
        let body = Stmt {
            kind: StmtKind::Block(vec![own, self.body.clone()]),
            span: self.body.span,
        };
        Stmt {
            kind: StmtKind::For {
                init,
                cond: Some(cond),
                step,
                body: Box::new(body),
            },
            span: at,
        }
    }
}

/// A range-based `for`'s class or pointer form ([`StmtKind::RangeFor`]) with its range bound by
/// reference: its first statement, `auto __range1 = RANGE;`, made `auto& __range1`, so that the
/// loop walks the range itself (`for (float& v : a)` writes into `a`).
pub(crate) fn range_by_reference(form: &Stmt) -> Stmt {
    let mut form = form.clone();
    if let StmtKind::Block(stmts) = &mut form.kind {
        if let Some(StmtKind::Decl { decls, .. }) = stmts.first_mut().map(|s| &mut s.kind) {
            for d in decls {
                d.reference = true;
            }
        }
    }
    form
}

fn name(n: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(n.into()),
        span,
    }
}

fn int_type(span: Span) -> TypeName {
    TypeName {
        base: BaseType::I32,
        base_text: "int".into(),
        pointer: false,
        reference: false,
        is_const: false,
        span,
    }
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Binary {
            op,
            op_span: span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    }
}

fn decl(ty: TypeName, n: &str, reference: bool, init: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Decl {
            of: None,
            ty,
            decls: vec![Declarator {
                name: Ident {
                    name: n.into(),
                    span,
                },
                pointer: false,
                pointer_to_pointer: false,
                reference,
                dims: Vec::new(),
                rows: Vec::new(),
                init: Some(init),
                list: None,
            }],
        },
        span,
    }
}
