//! PTX types and the C++ syntax trees inline PTX is written as, all at the `asm` statement's span.

use super::Fail;
use crate::source::Span;
use crate::syntax::ast::*;

/// A PTX fundamental type: `.b32` is `B(32)`, `.s8` is `S(8)`, `.pred` is `Pred`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    /// Untyped bits.
    B(u32),
    /// Unsigned integer.
    U(u32),
    /// Signed integer.
    S(u32),
    /// Floating point (16, 32, 64).
    F(u32),
    /// Predicate.
    Pred,
}

impl Ty {
    /// `b32` → `B(32)`; `None` for anything else.
    pub(super) fn parse(s: &str) -> Option<Ty> {
        if s == "pred" {
            return Some(Ty::Pred);
        }
        let (kind, bits) = s.split_at(1);
        let bits: u32 = bits.parse().ok()?;
        match (kind, bits) {
            ("b" | "u" | "s", 8 | 16 | 32 | 64) | ("f", 16 | 32 | 64) => {}
            _ => return None,
        }
        Some(match kind {
            "b" => Ty::B(bits),
            "u" => Ty::U(bits),
            "s" => Ty::S(bits),
            _ => Ty::F(bits),
        })
    }

    /// Width in bits (1 for a predicate).
    pub(super) fn bits(self) -> u32 {
        match self {
            Ty::B(n) | Ty::U(n) | Ty::S(n) | Ty::F(n) => n,
            Ty::Pred => 1,
        }
    }

    pub(super) fn is_float(self) -> bool {
        matches!(self, Ty::F(_))
    }

    pub(super) fn is_int(self) -> bool {
        matches!(self, Ty::B(_) | Ty::U(_) | Ty::S(_))
    }

    pub(super) fn is_signed(self) -> bool {
        matches!(self, Ty::S(_))
    }

    /// The C type that holds it: bits are unsigned.
    fn storage(self) -> Ty {
        match self {
            Ty::B(n) => Ty::U(n),
            t => t,
        }
    }

    /// The C type's name and base.
    fn c(self) -> (BaseType, &'static str) {
        match self.storage() {
            Ty::U(8) => (BaseType::U8, "unsigned char"),
            Ty::S(8) => (BaseType::I8, "signed char"),
            Ty::U(16) => (BaseType::U16, "unsigned short"),
            Ty::S(16) => (BaseType::I16, "short"),
            Ty::U(32) => (BaseType::U32, "unsigned int"),
            Ty::S(32) => (BaseType::I32, "int"),
            Ty::U(64) => (BaseType::U64, "unsigned long long"),
            Ty::S(64) => (BaseType::I64, "long long"),
            Ty::F(16) => (BaseType::F16, "__half"),
            Ty::F(32) => (BaseType::F32, "float"),
            Ty::F(64) => (BaseType::F64, "double"),
            _ => (BaseType::Bool, "bool"),
        }
    }

    /// The smallest and largest values of an integer type.
    pub(super) fn range(self) -> (i128, i128) {
        let n = self.bits();
        if self.is_signed() {
            (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
        } else {
            (0, (1i128 << n) - 1)
        }
    }

    /// `.f32` as PTX writes it.
    pub(super) fn ptx(self) -> String {
        match self {
            Ty::B(n) => format!(".b{n}"),
            Ty::U(n) => format!(".u{n}"),
            Ty::S(n) => format!(".s{n}"),
            Ty::F(n) => format!(".f{n}"),
            Ty::Pred => ".pred".into(),
        }
    }
}

/// Builds C++ syntax at one span.
#[derive(Clone, Copy)]
pub(super) struct C {
    pub(super) span: Span,
}

impl C {
    pub(super) fn e(self, kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: self.span,
        }
    }

    fn s(self, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: self.span,
        }
    }

    pub(super) fn ident(self, name: &str) -> Ident {
        Ident {
            name: name.into(),
            span: self.span,
        }
    }

    pub(super) fn name(self, n: &str) -> Expr {
        self.e(ExprKind::Name(n.into()))
    }

    /// A type by its C spelling.
    pub(super) fn ty(self, ty: Ty) -> TypeName {
        let (base, text) = ty.c();
        self.type_named(base, text)
    }

    pub(super) fn type_named(self, base: BaseType, text: &str) -> TypeName {
        TypeName {
            base,
            base_text: text.into(),
            pointer: false,
            reference: false,
            is_const: false,
            span: self.span,
        }
    }

    /// An integer constant of type `ty`.
    pub(super) fn int(self, v: i128, ty: Ty) -> Expr {
        let lit = self.e(ExprKind::Int {
            value: v.unsigned_abs() as u64,
            unsigned: true,
            long: true,
            hex: false,
        });
        let lit = if v < 0 { self.un(UnOp::Neg, lit) } else { lit };
        self.cast(ty, lit)
    }

    /// A `float` or `double` constant of type `ty` (a `__half` one is converted from `float`).
    pub(super) fn float(self, v: f64, ty: Ty) -> Expr {
        let lit = self.e(ExprKind::Float {
            value: v,
            single: ty != Ty::F(64),
        });
        self.cast(ty, lit)
    }

    pub(super) fn cast(self, ty: Ty, e: Expr) -> Expr {
        self.cast_to(self.ty(ty), e)
    }

    pub(super) fn cast_to(self, ty: TypeName, e: Expr) -> Expr {
        self.e(ExprKind::Cast {
            ty,
            expr: Box::new(e),
        })
    }

    pub(super) fn call(self, f: &str, args: Vec<Expr>) -> Expr {
        self.e(ExprKind::Call {
            callee: self.ident(f),
            targs: Vec::new(),
            args,
        })
    }

    pub(super) fn bin(self, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Binary {
            op,
            op_span: self.span,
            lhs: Box::new(a),
            rhs: Box::new(b),
        })
    }

    pub(super) fn un(self, op: UnOp, a: Expr) -> Expr {
        self.e(ExprKind::Unary {
            op,
            operand: Box::new(a),
        })
    }

    pub(super) fn tern(self, c: Expr, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Ternary {
            cond: Box::new(c),
            then: Box::new(a),
            els: Box::new(b),
        })
    }

    pub(super) fn member(self, e: Expr, field: &str) -> Expr {
        self.e(ExprKind::Member {
            base: Box::new(e),
            field: self.ident(field),
        })
    }

    pub(super) fn decl(self, ty: TypeName, name: &str, init: Option<Expr>) -> Stmt {
        self.s(StmtKind::Decl {
            of: None,
            ty,
            decls: vec![Declarator::plain(self.ident(name), init)],
        })
    }

    pub(super) fn assign(self, target: Expr, value: Expr) -> Stmt {
        self.s(StmtKind::Assign {
            target,
            op: None,
            op_span: self.span,
            value,
        })
    }

    pub(super) fn expr_stmt(self, e: Expr) -> Stmt {
        self.s(StmtKind::Expr(e))
    }

    pub(super) fn block(self, body: Vec<Stmt>) -> Stmt {
        self.s(StmtKind::Block(body))
    }

    pub(super) fn when(self, cond: Expr, body: Vec<Stmt>) -> Stmt {
        self.s(StmtKind::If {
            cond,
            then: Box::new(self.block(body)),
            els: None,
            constexpr: false,
        })
    }

    /// `e`, of C type `from`, as PTX reads a register of type `from` for an instruction of type
    /// `to`: integers convert (truncated, or extended by `from`'s signedness), integers and
    /// floats of one width share their bits, a 16-bit float sits in the low bits of an integer.
    pub(super) fn view(self, e: Expr, from: Ty, to: Ty) -> Result<Expr, Fail> {
        let (from_s, to_s) = (from.storage(), to.storage());
        if from_s == to_s {
            return Ok(e);
        }
        let (fb, tb) = (from.bits(), to.bits());
        let mismatch = || Fail::invalid(format!("a {} register used as {}", from.ptx(), to.ptx()));
        match (from, to) {
            (Ty::Pred, _) | (_, Ty::Pred) => Err(mismatch()),
            _ if from.is_int() && to.is_int() => Ok(self.cast(to, e)),
            (Ty::F(_), Ty::F(_)) => Err(mismatch()),
            _ if from.is_int() => {
                // The float's bits from the integer's low `tb` bits.
                if fb < tb {
                    return Err(mismatch());
                }
                let bits = self.cast(Ty::U(tb), e);
                Ok(match tb {
                    16 => self.call("__ushort_as_half", vec![bits]),
                    32 => self.call("__uint_as_float", vec![bits]),
                    _ => self.call("__longlong_as_double", vec![self.cast(Ty::S(64), bits)]),
                })
            }
            _ => {
                // The integer from the float's bits, zero-extended.
                if tb < fb {
                    return Err(mismatch());
                }
                let bits = match fb {
                    16 => self.call("__half_as_ushort", vec![e]),
                    32 => self.call("__float_as_uint", vec![e]),
                    _ => self.call("__double_as_longlong", vec![e]),
                };
                Ok(self.cast(to, bits))
            }
        }
    }
}

/// The CUDA vector type of `n` elements of `ty` (`.v4.f32` is `float4`).
pub(super) fn vector_name(ty: Ty, n: usize) -> Option<String> {
    let base = match ty.storage() {
        Ty::U(8) => "uchar",
        Ty::S(8) => "char",
        Ty::U(16) => "ushort",
        Ty::S(16) => "short",
        Ty::U(32) => "uint",
        Ty::S(32) => "int",
        Ty::U(64) => "ulonglong",
        Ty::S(64) => "longlong",
        Ty::F(32) => "float",
        Ty::F(64) => "double",
        _ => return None,
    };
    (n == 2 || (n == 4 && ty.bits() <= 32)).then(|| format!("{base}{n}"))
}
