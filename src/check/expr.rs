//! Typing expressions: C's conversions, constant folding, built-ins and math calls.

use super::typed::*;
use super::{Binding, CheckError, DimensionProblem, KernelChecker, PointerProblem};
use crate::diag::did_you_mean;
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, UnOp};
use crate::value::{fold_arith, fold_cmp, ArithOp, CmpOp, Direction, Math1, Math2, Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// Most `__device__` calls expanded in one file: each call expands its body anew, so a chain of
/// functions that each call the previous one twice grows exponentially.
const MAX_EXPANSIONS: u32 = 50_000;

/// Functions of CUDA that the simulator does not run yet, with advice.
const UNSUPPORTED_CALLS: &[(&str, &str)] = &[];

/// Math functions: name → (function, float-only `f` form).
/// Whether CUDA declares a device function `name` of numbers (`fminf`, `floorf`, `min`), which
/// a file's overloads on vectors (helper_math.h's `fminf(float3, float3)`) add to, not hide.
pub(crate) fn is_math_builtin(name: &str) -> bool {
    math_function(name).is_some()
        || matches!(
            name,
            "min"
                | "max"
                | "abs"
                | "isnan"
                | "isinf"
                | "isfinite"
                | "signbit"
                | "sincosf"
                | "__sincosf"
                | "sincos"
                | "sincospif"
                | "sincospi"
        )
}

pub(crate) fn math_function(name: &str) -> Option<(Func, Option<Scalar>)> {
    use crate::special;
    use Math1::*;
    use Math2::*;
    // `__expf` and the other fast-math forms compute the same function here (the hardware's is
    // less accurate; simt keeps the accurate value): only float forms exist.
    let fast = name.strip_prefix("__");
    let unprefixed = fast.unwrap_or(name);
    let (base, single) = match unprefixed.strip_suffix('f') {
        Some(b) if MATH_NAMES.contains(&b) || special::Special::named(b).is_some() => {
            (b, Some(Scalar::F32))
        }
        _ if fast.is_some() && unprefixed != "saturatef" => return None,
        _ => (unprefixed, None),
    };
    let single = if unprefixed == "saturatef" {
        Some(Scalar::F32)
    } else {
        single
    };
    let f = match base {
        "sqrt" => Func::Math1(Sqrt),
        "rsqrt" => Func::Math1(Rsqrt),
        "exp" => Func::Math1(Exp),
        "exp2" => Func::Math1(Exp2),
        "log" => Func::Math1(Log),
        "log2" => Func::Math1(Log2),
        "log10" => Func::Math1(Log10),
        "sin" => Func::Math1(Sin),
        "cos" => Func::Math1(Cos),
        "tan" => Func::Math1(Tan),
        "tanh" => Func::Math1(Tanh),
        "fabs" => Func::Math1(Fabs),
        "floor" => Func::Math1(Floor),
        "ceil" => Func::Math1(Ceil),
        "round" => Func::Math1(Round),
        "trunc" => Func::Math1(Trunc),
        "asin" => Func::Math1(Asin),
        "acos" => Func::Math1(Acos),
        "atan" => Func::Math1(Atan),
        "sinh" => Func::Math1(Sinh),
        "cosh" => Func::Math1(Cosh),
        "asinh" => Func::Math1(Asinh),
        "acosh" => Func::Math1(Acosh),
        "atanh" => Func::Math1(Atanh),
        "exp10" => Func::Math1(Exp10),
        "expm1" => Func::Math1(Expm1),
        "log1p" => Func::Math1(Log1p),
        "cbrt" => Func::Math1(Cbrt),
        "erf" => Func::Math1(Erf),
        "erfc" => Func::Math1(Erfc),
        "rint" | "nearbyint" => Func::Math1(Rint),
        "logb" => Func::Math1(Logb),
        "saturatef" => Func::Math1(Saturate),
        "remainder" => Func::Math2(Remainder),
        "nextafter" => Func::Math2(Nextafter),
        "hypot" => Func::Math2(Hypot),
        "rhypot" => Func::Math2(Rhypot),
        "copysign" => Func::Math2(Copysign),
        "fdim" => Func::Math2(Fdim),
        "pow" => Func::Math2(Pow),
        "fmin" => Func::Math2(Fmin),
        "fmax" => Func::Math2(Fmax),
        "atan2" => Func::Math2(Atan2),
        "fmod" => Func::Math2(Fmod),
        "fma" => Func::Fma,
        _ => Func::Math1(Special(special::Special::named(base)?)),
    };
    Some((f, single))
}

/// The `norm` family of the math library: (name of the `double` form, arguments, reciprocal).
const NORMS: [(&str, usize, bool); 4] = [
    ("norm3d", 3, false),
    ("norm4d", 4, false),
    ("rnorm3d", 3, true),
    ("rnorm4d", 4, true),
];

/// `norm3d`, `rnorm4df` and the rest of the family: (arguments, reciprocal, type).
fn norm_function(name: &str) -> Option<(usize, bool, Scalar)> {
    let (base, ty) = match name.strip_suffix('f') {
        Some(b) => (b, Scalar::F32),
        None => (name, Scalar::F64),
    };
    let &(_, n, reciprocal) = NORMS.iter().find(|(b, _, _)| *b == base)?;
    Some((n, reciprocal, ty))
}

const MATH_NAMES: &[&str] = &[
    "sqrt",
    "rsqrt",
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "tanh",
    "fabs",
    "floor",
    "ceil",
    "round",
    "trunc",
    "pow",
    "fmin",
    "fmax",
    "atan2",
    "fmod",
    "fma",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "exp10",
    "expm1",
    "log1p",
    "cbrt",
    "erf",
    "erfc",
    "rint",
    "nearbyint",
    "hypot",
    "rhypot",
    "copysign",
    "fdim",
    "logb",
    "remainder",
    "nextafter",
];

/// `__ldg`, `__ldcs` and the other cache-hinted loads: plain loads here.
pub(crate) fn is_cache_load(name: &str) -> bool {
    matches!(
        name,
        "__ldg" | "__ldca" | "__ldcg" | "__ldcs" | "__ldlu" | "__ldcv"
    )
}

/// `__stcs`, `__stwb` and the other cache-hinted stores: plain stores here.
pub(crate) fn is_cache_store(name: &str) -> bool {
    matches!(name, "__stcs" | "__stcg" | "__stwb" | "__stwt")
}

/// The callee the builder names `reinterpret_cast<float (&)[4]>(v)` by: `<cast to `float (&)[4]`>`.
const ARRAY_CAST: &str = "<cast to ";

/// Whether a call is the builder's stand-in for a cast to a reference or pointer to an array.
pub(crate) fn is_array_cast(callee: &ast::Ident) -> bool {
    callee.name.starts_with(ARRAY_CAST)
}

/// The refusal of a cast to a reference or pointer to an array, naming its type.
pub(crate) fn array_cast(callee: &ast::Ident) -> CheckError {
    let ty = &callee.name[ARRAY_CAST.len()..];
    CheckError::Unsupported {
        what: format!(
            "a cast to a reference or pointer to an array, {}",
            ty.strip_suffix('>').unwrap_or(ty)
        ),
        span: callee.span,
        help: Some(
            "cast to a pointer to the element type and index it: `reinterpret_cast<float*>(&v)[3]` reads what `reinterpret_cast<float (&)[4]>(v)[3]` does".into(),
        ),
    }
}

/// The place an out-parameter `p` names, which a store writes: `*p`, or `x` itself for `p` =
/// `&x` (`__sincosf(f, &ret.y, &ret.x)` of a vector in registers, whose components have no
/// address of their own).
pub(crate) fn out_place(p: &ast::Expr) -> ast::Expr {
    match &p.kind {
        ast::ExprKind::Unary {
            op: UnOp::AddrOf,
            operand,
        } => (**operand).clone(),
        _ => deref(p),
    }
}

/// `*p` as written.
pub(crate) fn deref(p: &ast::Expr) -> ast::Expr {
    ast::Expr {
        kind: ast::ExprKind::Unary {
            op: UnOp::Deref,
            operand: Box::new(p.clone()),
        },
        span: p.span,
    }
}

/// Every callable name, for "did you mean".
fn known_functions() -> Vec<String> {
    let special = crate::special::Special::NAMED.map(|(n, _)| n);
    let norms = NORMS.map(|(n, _, _)| n);
    let mut v: Vec<String> = MATH_NAMES
        .iter()
        .chain(&special)
        .chain(&norms)
        .flat_map(|n| [n.to_string(), format!("{n}f")])
        .collect();
    v.extend(
        [
            "min",
            "max",
            "abs",
            "labs",
            "llabs",
            "isnan",
            "isinf",
            "isfinite",
            "signbit",
            "lrintf",
            "lroundf",
            "llrintf",
            "llroundf",
            "__syncthreads",
            "__syncthreads_count",
            "__syncthreads_and",
            "__syncthreads_or",
            "__trap",
            "__fdividef",
            "fdividef",
            "__popc",
            "__popcll",
            "__clz",
            "__clzll",
            "__ffs",
            "__ffsll",
            "__brev",
            "__brevll",
            "__builtin_popcount",
            "__builtin_popcountll",
            "__builtin_clz",
            "__builtin_clzll",
            "__builtin_ctz",
            "__builtin_ctzll",
            "__builtin_ffs",
            "__builtin_ffsll",
            "__float_as_int",
            "__float_as_uint",
            "__int_as_float",
            "__uint_as_float",
            "__double_as_longlong",
            "__longlong_as_double",
            "__mul24",
            "__umul24",
            "mul24",
            "umul24",
            "__mulhi",
            "__umulhi",
            "__mul64hi",
            "__umul64hi",
            "umin",
            "umax",
            "llmin",
            "llmax",
            "ullmin",
            "ullmax",
            "lrint",
            "lround",
            "llrint",
            "llround",
            "__nanosleep",
            "__cvta_generic_to_shared",
            "__byte_perm",
            "__funnelshift_l",
            "__funnelshift_lc",
            "__funnelshift_r",
            "__funnelshift_rc",
            "__sad",
            "__usad",
            "__double2hiint",
            "__double2loint",
            "__hiloint2double",
            "__builtin_assume",
            "__builtin_expect",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    v.extend(super::intrinsics::INTRINSICS.iter().map(|s| s.to_string()));
    v.extend(crate::value::RoundedOp::names());
    v.extend(["scalbnf", "ldexpf", "scalbn", "ldexp"].map(String::from));
    v.extend(["ilogbf", "ilogb", "frexpf", "frexp", "modff", "modf"].map(String::from));
    v
}

/// Whether `name` is a function this module's calls know (math, conversions, intrinsics).
pub(crate) fn is_known_call(name: &str) -> bool {
    math_function(name).is_some()
        || rounded_conversion(name).is_some()
        || super::is_half_precision(name)
        || crate::value::Bits3::of_name(name).is_some()
        || known_functions().iter().any(|k| k == name)
}

impl KernelChecker<'_, '_> {
    /// A call of `name` with `n` arguments that passed over each of the file's functions of the
    /// name: each takes another number of arguments, or a struct or a vector where the call
    /// passes a number. The error naming each and why.
    fn passed_over(&self, name: &str, n: usize, span: Span) -> Option<CheckError> {
        let fs = self.globals.overloads.get(name)?;
        Some(CheckError::NoViableOverload {
            name: name.replace('.', "::"),
            why: "none takes these arguments".into(),
            span,
            candidates: fs
                .iter()
                .map(|f| {
                    let sig = super::operators::signature(f);
                    let what = if super::operators::takes(f, n) {
                        format!("{sig} takes a struct or a vector where this call passes a number")
                    } else {
                        format!("{sig} takes {} arguments", super::operators::arity_text(f))
                    };
                    miette::LabeledSpan::new_with_span(Some(what), f.name.span)
                })
                .collect(),
            help: "pass the arguments one of them takes (a struct or vector, `make_float3(...)` or a variable of its type, where it takes one), or declare an overload for these".into(),
        })
    }

    /// `name` is no function simt knows: the error, with the likeliest fix.
    fn unknown_function(&self, name: &str, span: Span) -> CheckError {
        if let Some(what) = unsupported_fetch(name) {
            return CheckError::Unsupported {
                what: format!("the {what} `{name}`"),
                span,
                help: Some("simt reads textures through `tex1Dfetch`, `tex1D`, `tex2D` and `tex3D` of a `cudaTextureObject_t` (or a texture reference); read and write the surface's or layer's array as a pointer parameter instead".into()),
            };
        }
        CheckError::UnknownFunction {
            name: name.to_string(),
            span,
            suggestion: self.hidden_in_namespace(name).or_else(|| {
                self.missing_header_hint(did_you_mean(name, known_functions().iter().map(String::as_str)))
            }).or_else(|| {
                Some("math functions: sqrtf expf logf sinf cosf tanhf powf fabsf fminf fmaxf floorf ceilf roundf fmaf (and double forms), min max abs".into())
            }),
        }
    }

    /// Counts one more `__device__` body to expand: `true` to go ahead. Crossing
    /// [`MAX_EXPANSIONS`] is an error; once the checker has given up on the kernel, `false`: the
    /// caller puts a placeholder in place of the body (the kernel is refused already).
    pub(crate) fn expanded(&mut self, span: Span) -> Result<bool> {
        if self.globals.gave_up.get() {
            return Ok(false);
        }
        let expansions = self.globals.expansions.get() + 1;
        self.globals.expansions.set(expansions);
        if expansions > MAX_EXPANSIONS {
            self.globals.gave_up.set(true);
            return Err(CheckError::TooComplex {
                what: format!("more than {MAX_EXPANSIONS} `__device__` calls expanded"),
                span,
            });
        }
        Ok(true)
    }

    /// Types an expression.
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        // The parser bounds the depth of the text; inlined calls can nest deeper than that.
        if self.depth >= crate::syntax::MAX_DEPTH {
            if self.globals.gave_up.get() {
                return Ok(constant(Value::I32(0), e.span));
            }
            self.globals.gave_up.set(true);
            return Err(CheckError::TooComplex {
                what: format!(
                    "expanding `__device__` calls nests this expression more than {} levels deep",
                    crate::syntax::MAX_DEPTH
                ),
                span: e.span,
            });
        }
        self.depth += 1;
        let typed = crate::stack::grow(|| self.expr_at(e));
        self.depth -= 1;
        typed
    }

    fn expr_at(&mut self, e: &ast::Expr) -> Result<Expr> {
        let span = e.span;
        if let ast::ExprKind::Index { .. } = e.kind {
            if let Some(place) = self.member_place(e) {
                return Ok(match place? {
                    super::vector::Place::Var(var, elem) => Expr {
                        kind: ExprKind::Var(var),
                        ty: elem.promoted(),
                        span,
                    },
                    super::vector::Place::Elem(mem, index) => load(mem, index, span),
                });
            }
        }
        // A struct used as a number: its conversion operator's value (`(int)d`, `int q = d;`),
        // else an error; a variable or a member without one is told so where it is read.
        if let ast::ExprKind::Call { .. }
        | ast::ExprKind::Binary { .. }
        | ast::ExprKind::Method { .. }
        | ast::ExprKind::Ternary { .. }
        | ast::ExprKind::Unary { .. }
        | ast::ExprKind::Index { .. }
        | ast::ExprKind::Name(_)
        | ast::ExprKind::Member { .. } = e.kind
        {
            if let Some(l) = self.struct_of(e) {
                if let Some(value) = self.converted(e, &l, None) {
                    return value;
                }
                if !matches!(
                    e.kind,
                    ast::ExprKind::Name(_) | ast::ExprKind::Member { .. }
                ) {
                    return Err(CheckError::NotAValue {
                        subject: "this".into(),
                        what: format!("a `{}`", l.name),
                        wanted: "a number",
                        span,
                        help: Some(format!(
                            "use a member (`.{}`), or keep it in a `{}` variable",
                            l.members.first().map_or("x", |m| m.name.as_str()),
                            l.name
                        )),
                    });
                }
            }
        }
        if let ast::ExprKind::Binary { .. }
        | ast::ExprKind::Method { .. }
        | ast::ExprKind::Index { .. }
        | ast::ExprKind::Unary { .. } = e.kind
        {
            if let Some(value) = self.struct_call(e, false) {
                return value;
            }
        }
        if let Some(call) = self.scalar_file_operator(e)? {
            return self.expr(&call);
        }
        match &e.kind {
            ast::ExprKind::Int {
                value,
                unsigned,
                long,
                hex,
            } => Ok(constant(
                int_literal_value(*value, *unsigned, *long, *hex),
                span,
            )),
            ast::ExprKind::Float { value, single } => Ok(constant(
                if *single {
                    Value::F32(*value as f32)
                } else {
                    Value::F64(*value)
                },
                span,
            )),
            ast::ExprKind::Bool(b) => Ok(constant(Value::Bool(*b), span)),
            ast::ExprKind::Name(name) => self.name(name, span),
            ast::ExprKind::Member { .. } | ast::ExprKind::Index { .. }
                if self.rewritten_place(e).is_some() =>
            {
                let read = self.rewritten_place(e).expect("checked: rewritten");
                self.expr(&read)
            }
            ast::ExprKind::Member { base, field } => self.member(base, field, span),
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: UnOp::Deref, ..
            } => {
                let (mem, index) = self.element(e)?;
                if mem.width > 1 {
                    let t = type_name(mem.elem, mem.width);
                    return Err(CheckError::NotAValue {
                        subject: "this element".into(),
                        what: format!("a `{t}`"),
                        wanted: "a scalar",
                        span,
                        help: Some(format!(
                            "use a component (`.x`) or assign it to a `{t}` variable"
                        )),
                    });
                }
                Ok(load(mem, index, span))
            }
            ast::ExprKind::Unary {
                op: UnOp::AddrOf, ..
            } => Err(pointer_as_value(span)),
            ast::ExprKind::Unary {
                op: UnOp::Not,
                operand,
            } if self.is_pointer(operand) => {
                let inner = self.scalar_or_truth(operand)?;
                self.unary(UnOp::Not, inner, span)
            }
            ast::ExprKind::Unary { op, operand } => {
                let inner = self.expr(operand)?;
                self.unary(*op, inner, span)
            }
            ast::ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } if self.is_pointer(lhs) || self.is_pointer(rhs) => {
                self.pointer_binary(*op, *op_span, lhs, rhs, span)
            }
            ast::ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let l = self.expr(lhs)?;
                let r = self.expr(rhs)?;
                let mut out = self.binary(*op, *op_span, l, r)?;
                out.span = span;
                Ok(out)
            }
            ast::ExprKind::Ternary { then, els, .. }
                if self.is_pointer(then) || self.is_pointer(els) =>
            {
                Err(pointer_as_value(span))
            }
            ast::ExprKind::Cast { ty, .. } if ty.pointer => Err(pointer_as_value(span)),
            ast::ExprKind::Ternary { cond, then, els } => {
                let c = self.condition(cond)?;
                let t = self.expr(then)?;
                let f = self.expr(els)?;
                self.ternary(c, t, f, span)
            }
            // `uint64_t{x}`: the parser's cast of a brace list of one value or none.
            ast::ExprKind::Cast { ty, expr } if matches!(&expr.kind, ast::ExprKind::List(items) if items.len() <= 1) => {
                let ast::ExprKind::List(items) = &expr.kind else {
                    unreachable!("matched: a brace list")
                };
                self.braced_cast(ty, items, span)
            }
            ast::ExprKind::Cast { ty, expr } if self.is_pointer(expr) => {
                self.pointer_as_integer(ty, expr, span)
            }
            ast::ExprKind::Cast { ty, expr } => {
                let to = super::scalar_of(ty)?;
                if let Some(l) = self.struct_of(expr) {
                    if let Some(value) = self.converted(expr, &l, Some(to)) {
                        let mut out = self.cast(value?, to);
                        out.span = span;
                        return Ok(out);
                    }
                }
                let inner = self.expr(expr)?;
                let mut out = self.cast(inner, to);
                out.span = span;
                Ok(out)
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => self.call(callee, targs, args, span),
            ast::ExprKind::Tuple(items) if items.len() >= 2 => self.comma(items, span),
            // A scalar initialised from braces: `x = {}` is zero (value-initialisation),
            // `x = {v}` is `v`.
            ast::ExprKind::List(items) if items.is_empty() => Ok(constant(Value::I32(0), span)),
            ast::ExprKind::List(items) if items.len() == 1 => self.expr(&items[0]),
            ast::ExprKind::List(_) => Err(CheckError::Unsupported {
                what: "a brace list of several values as one value".into(),
                span,
                help: Some(
                    "a scalar takes one value, `x = {v}` or `x = {}` for zero; several values initialise an array or a struct in its declaration".into(),
                ),
            }),
            ast::ExprKind::Designated { field, .. } => Err(CheckError::Unsupported {
                what: format!("the designated initialiser `.{}` here", field.name),
                span,
                help: Some(
                    "simt reads designators in the braced initialiser of a declared vector or struct (`double2 v = {.x = 1, .y = 2};`); write the values in member order elsewhere".into(),
                ),
            }),
            ast::ExprKind::Lambda(_) => Err(CheckError::Unsupported {
                what: "a lambda used here".into(),
                span,
                help: Some(
                    "keep it in a local and call it: `auto f = [&](int i) { ... }; f(3);`".into(),
                ),
            }),
            ast::ExprKind::Str(_) | ast::ExprKind::Tuple(_) => {
                Err(CheckError::Unsupported {
                    what: "this value in a kernel".into(),
                    span,
                    help: Some("strings, lists and tuples belong in a `launch` section".into()),
                })
            }
            ast::ExprKind::SizeOfType(ty) => {
                let bytes = self.size_of_type(ty)?;
                Ok(constant(Value::U64(bytes), span))
            }
            ast::ExprKind::SizeOfExpr(e) => {
                let bytes = self.size_of(e)?;
                Ok(constant(Value::U64(bytes), span))
            }
            // An instance of a variadic template has neither: its packs are expanded.
            ast::ExprKind::SizeOfPack(name) => Err(CheckError::NotAPack {
                name: name.name.clone(),
                span,
            }),
            ast::ExprKind::Pack(_) => Err(CheckError::Unsupported {
                what: "a pack expansion `...` outside a call's arguments".into(),
                span,
                help: Some(
                    "expand a pack in the arguments of a call: `f(std::forward<Args>(args)...)`"
                        .into(),
                ),
            }),
            ast::ExprKind::Assign {
                target,
                op,
                op_span,
                value,
            } => self.assignment_value(target, (*op, *op_span), value, span),
            ast::ExprKind::New { ty, .. } => Err(CheckError::NotAValue {
                subject: format!("`new {}`", ty.base_text),
                what: "a pointer".into(),
                wanted: "a number",
                span,
                help: Some("give it to a pointer: `T* p = new T(...);`, or store it in an array of pointers (`d_list[0] = new T(...);`)".into()),
            }),
            ast::ExprKind::IncDec { target, inc, post } => {
                let local = match &target.kind {
                    ast::ExprKind::Name(n) => match self.lookup(n) {
                        Some(Binding::Local { var, .. }) => Some(var),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(var) = local else {
                    // A `const` or other name says what is wrong with stepping it.
                    if matches!(target.kind, ast::ExprKind::Name(_)) {
                        self.step(target, *inc, span)?;
                    }
                    return self.stepped_place((target, *inc, *post), span);
                };
                let ty = self.locals[var.0 as usize].declared;
                let value = self.stepped((target, *inc, *post), var, ty, span)?;
                Ok(self.convert(value, ty.promoted()))
            }
            ast::ExprKind::Method {
                object,
                method,
                args,
                ..
            } => {
                if let Some(value) = self.accessor_method(object, method, args, span) {
                    return value;
                }
                if let Some(call) = self.temporary_call(e, false) {
                    return call;
                }
                match self.group(object)? {
                    Some(g) => self.group_method(g, method, args, span),
                    None => match self.cub_method(object, method, args, span) {
                        Some(collective) => collective,
                        // `list[i]->hit(...)`: a call through a pointer read from memory.
                        None if matches!(
                            &object.kind,
                            ast::ExprKind::Unary { op: ast::UnOp::Deref, operand }
                                if !matches!(operand.kind, ast::ExprKind::Name(_))
                        ) => Err(CheckError::Unsupported {
                            what: format!(
                                "calling the member function `{}` through a pointer read from memory",
                                method.name
                            ),
                            span: method.span,
                            help: Some("simt follows pointers into arrays, not pointers stored in memory (docs/heap.md): call it on an object or a reference (`h.hit(...)` with `const hitable& h`)".into()),
                        }),
                        // `names.size()` of a host variable (a `std::map` at file scope).
                        None if matches!(&object.kind, ast::ExprKind::Name(n)
                            if self.lookup(n).is_none() && self.globals.host_vars.contains_key(n.as_str())) =>
                        {
                            let ast::ExprKind::Name(n) = &object.kind else {
                                unreachable!("matched: a name")
                            };
                            Err(self.unknown_name(n, object.span))
                        }
                        None => Err(CheckError::Unsupported {
                            what: format!("calling the member function `{}`", method.name),
                            span: method.span,
                            help: Some("member functions are supported on cooperative groups (`block.sync()`, `tile.shfl_down(v, 1)`) and CUB's collectives (`BlockReduce(temp).Sum(v)`)".into()),
                        }),
                    },
                }
            }
        }
    }

    /// `(a, b, c)`, C's comma operator: `a` and `b` for their effects, in order, then the value
    /// of `c`.
    fn comma(&mut self, items: &[ast::Expr], span: Span) -> Result<Expr> {
        let (last, effects) = items
            .split_last()
            .expect("parser: a parenthesised list has two or more items here");
        let mut body = Vec::new();
        for e in effects {
            let kind = match e.kind {
                // `i++` or `m = 0` inside an expression: its value is dropped, its step or
                // store kept (zfp's `bits && (m = 0, k-- > kmin)`).
                ast::ExprKind::IncDec { .. } | ast::ExprKind::Assign { .. } => {
                    StmtKind::Eval(self.expr(e)?)
                }
                _ => match self.effect(e)? {
                    Some(kind) => kind,
                    None => continue,
                },
            };
            body.push(Stmt { kind, span: e.span });
        }
        let value = self.expr(last)?;
        let ty = value.ty;
        let result = self.new_local(",", ty, span);
        body.push(Stmt {
            kind: StmtKind::Assign { var: result, value },
            span,
        });
        Ok(Expr {
            kind: ExprKind::Inline {
                name: ",".into(),
                body,
                result: Some(result),
            },
            ty,
            span,
        })
    }

    fn name(&mut self, name: &str, span: Span) -> Result<Expr> {
        if let Some(role) = super::async_copy::pipeline_role(name) {
            return Ok(constant(Value::I32(role), span));
        }
        if let Some(Binding::Param(p)) = self.lookup(name) {
            if let Some(mem) = self.file_scalar(p) {
                // A `__constant__` or `__device__` scalar: element 0 of its one-element array.
                return Ok(load(mem, constant(Value::I32(0), span), span));
            }
        }
        if let Some(v) = self.static_member(name, span) {
            return v.map(|v| constant(v, span));
        }
        if let Some(holds) = super::traits::named_predicate(name) {
            return Ok(constant(Value::Bool(holds), span));
        }
        if let Some(v) = self.variable_template(name, span) {
            return v;
        }
        match self.lookup(name) {
            Some(Binding::Constant(v, ty)) if ty.is_half() => {
                return Ok(self.convert(constant(v, span), ty))
            }
            Some(Binding::Constant(v, _)) => return Ok(constant(v, span)),
            Some(Binding::Local { var, .. }) => {
                let ty = self.locals[var.0 as usize].declared.promoted();
                return Ok(Expr {
                    kind: ExprKind::Var(var),
                    ty,
                    span,
                });
            }
            Some(Binding::Vector { elem, width, .. }) => {
                let t = type_name(elem, width);
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: format!("a `{t}`"),
                    wanted: "a scalar",
                    span,
                    help: Some(format!("use `{name}.x`, `{name}.y`, ...")),
                });
            }
            Some(Binding::Shared(s)) if self.shared[s as usize].is_scalar() => {
                let mem = self.shared_mem(s);
                return Ok(load(mem, constant(Value::I32(0), span), span));
            }
            Some(Binding::Ref(i)) => {
                // A reference member whose constructor did not bind it (its error reported)
                // points nowhere: the pointer's own error.
                let p = self.pointer_held(i, span)?;
                let mem = self.pointee(p.mem, span)?;
                return Ok(load(mem, p.offset, span));
            }
            Some(Binding::Struct(i)) => {
                let l = &self.struct_vars[i as usize].layout;
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: format!("a `{}`", l.name),
                    wanted: "a number",
                    span,
                    help: Some(format!(
                        "use a member: `{name}.{}`",
                        l.members.first().map_or("x", |m| m.name.as_str())
                    )),
                });
            }
            Some(Binding::Lambda(_)) => {
                return Err(CheckError::Unsupported {
                    what: format!("the lambda `{name}` as a value"),
                    span,
                    help: Some(format!("call it: `{name}(...)`")),
                })
            }
            Some(Binding::Object(_)) => {
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "an object".into(),
                    wanted: "a value",
                    span,
                    help: Some(format!("call a member: `{name}.getPointer()`")),
                })
            }
            Some(Binding::Async(_)) => {
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "a barrier or pipeline".into(),
                    wanted: "a value",
                    span,
                    help: Some(
                        "use its member functions: `bar.arrive_and_wait()`, `pipe.consumer_wait()`"
                            .into(),
                    ),
                })
            }
            Some(Binding::Accessor(_)) => {
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "a tensor accessor".into(),
                    wanted: "a value",
                    span,
                    help: Some(format!("index it: `{name}[i][j]`")),
                })
            }
            Some(Binding::Group(_)) => {
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "a group of threads".into(),
                    wanted: "a value",
                    span,
                    help: Some(format!(
                        "use one of its members: `{name}.thread_rank()`, `{name}.size()`"
                    )),
                })
            }
            Some(
                Binding::Param(_)
                | Binding::Shared(_)
                | Binding::Pointer(_)
                | Binding::PointerArray(_)
                | Binding::LocalArray(_),
            ) => {
                return Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "a pointer".into(),
                    wanted: "a value",
                    span,
                    help: Some(format!("read an element: `{name}[i]` or `*{name}`")),
                })
            }
            None if name == "NULL" || name == "nullptr" => return Err(pointer_as_value(span)),
            None => {}
        }
        if let Some(v) = self
            .globals
            .consts
            .get(name.strip_prefix("::").unwrap_or(name))
        {
            return Ok(constant(*v, span));
        }
        if let Some(v) = crate::value::library_constant(name)
            .or_else(|| super::math_constants::cudart_constant(name))
        {
            return Ok(constant(v, span));
        }
        match name {
            "warpSize" => Ok(constant(Value::I32(32), span)),
            "threadIdx" | "blockIdx" | "blockDim" | "gridDim" => Err(CheckError::NotAValue {
                subject: format!("`{name}`"),
                what: "a vector".into(),
                wanted: "a scalar",
                span,
                help: Some(format!("write `{name}.x`")),
            }),
            _ => Err(self.unknown_name(name, span)),
        }
    }

    fn member(&mut self, base: &ast::Expr, field: &ast::Ident, span: Span) -> Result<Expr> {
        if let ast::ExprKind::Method { object, method, .. } = &base.kind {
            if let Some(g) = self.group(object)? {
                if let Some(e) = self.group_member(g, method, field, span)? {
                    return Ok(e);
                }
            }
        }
        if let Some(value) = self.struct_member_value(base, field, span) {
            return value;
        }
        if self.is_vector_component(base) {
            let place = self
                .component(base, field, span)
                .expect("checked: a vector component")?;
            return Ok(match place {
                super::vector::Place::Var(var, elem) => Expr {
                    kind: ExprKind::Var(var),
                    ty: elem.promoted(),
                    span,
                },
                super::vector::Place::Elem(mem, index) => load(mem, index, span),
            });
        }
        if let Some(value) = self.computed_component(base, field, span) {
            return value;
        }
        if let Some(e) = self.opaque_member_base(base) {
            return Err(e);
        }
        let ast::ExprKind::Name(name) = &base.kind else {
            return Err(CheckError::Unsupported {
                what: "member access on this expression".into(),
                span,
                help: Some(
                    "only `threadIdx`, `blockIdx`, `blockDim` and `gridDim` have members".into(),
                ),
            });
        };
        let make: fn(u8) -> Builtin = match name.as_str() {
            "threadIdx" => Builtin::ThreadIdx,
            "blockIdx" => Builtin::BlockIdx,
            "blockDim" => Builtin::BlockDim,
            "gridDim" => Builtin::GridDim,
            _ => {
                if self.lookup(name).is_none() {
                    return Err(self.unknown_name(name, base.span));
                }
                return Err(CheckError::Unsupported {
                    what: format!("member access on `{name}`"),
                    span,
                    help: Some("structs and vector types are not supported".into()),
                });
            }
        };
        let axis = match field.name.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            other => {
                return Err(CheckError::UnknownName {
                    name: format!("{name}.{other}"),
                    span: field.span,
                    suggestion: Some(format!("`{name}` has the members `x`, `y` and `z`")),
                })
            }
        };
        Ok(Expr {
            kind: ExprKind::Builtin(make(axis)),
            ty: Scalar::U32,
            span,
        })
    }

    /// An array index: an integer, or a `bool` read as the `int` 0 or 1, as C converts it.
    pub(crate) fn index_value(&mut self, ix: &ast::Expr) -> Result<Expr> {
        let t = self.expr(ix)?;
        if !t.ty.is_integer() && t.ty != Scalar::Bool {
            return Err(CheckError::NotAnInteger {
                what: "an index".into(),
                found: t.ty.to_string(),
                span: ix.span,
                help: Some("convert it: `(int)x`".into()),
            });
        }
        Ok(if t.ty == Scalar::Bool {
            self.convert(t, Scalar::I32)
        } else {
            t
        })
    }

    /// `a[i]`, `tile[r][c]`, `p[i]`, `*p`: the memory and the flat element index. Through a
    /// struct pointer, whose offset counts components, the index counts components (the
    /// memory's width 1).
    pub(crate) fn element(&mut self, e: &ast::Expr) -> Result<(Mem, Expr)> {
        if let ast::ExprKind::Unary {
            op: UnOp::Deref,
            operand,
        } = &e.kind
        {
            if !self.is_pointer(operand) {
                let t = self.expr(operand)?;
                return Err(CheckError::Pointer {
                    problem: PointerProblem::DerefNonPointer {
                        found: t.ty.to_string(),
                    },
                    span: e.span,
                    help: None,
                });
            }
            self.void_access(operand)?;
            let p = self.pointer(operand)?;
            let mem = self.pointee(p.mem.or_else(|| self.null_held(operand)), e.span)?;
            let zero = constant(Value::I32(0), e.span);
            let mem = match self.struct_stride(operand) {
                Some(_) => Mem { width: 1, ..mem },
                None => mem,
            };
            return Ok((mem, self.index_through(p.offset, zero, e.span)?));
        }
        if let Some(element) = self.accessor_element(e) {
            return element;
        }
        // A reference (a `float4&` parameter, a local whose address is taken): its element.
        if let ast::ExprKind::Name(name) = &e.kind {
            if let Some(Binding::Ref(i)) = self.lookup(name) {
                let (held, var) = (self.ptr_vars[i as usize].mem, self.ptr_vars[i as usize].var);
                let mem = self.pointee(held, e.span)?;
                let at = Expr {
                    kind: ExprKind::Var(var),
                    ty: Scalar::I64,
                    span: e.span,
                };
                return Ok((mem, at));
            }
        }
        let (cur, indices) = self.pointer_index_chain(e);
        if let Some(converted) = self.converted_index(e) {
            return self.element(&converted);
        }
        // A declared array indexed by name: its own dimensions.
        let named = match &cur.kind {
            ast::ExprKind::Name(name) => match self.lookup(name) {
                Some(Binding::Shared(s)) if !self.shared[s as usize].is_extern => {
                    Some((self.shared_mem(s), self.shared[s as usize].dims.clone()))
                }
                Some(Binding::LocalArray(l)) => Some((
                    self.local_array_mem(l),
                    self.local_arrays[l as usize].dims.clone(),
                )),
                Some(Binding::Param(p)) => self.file_array(p),
                Some(Binding::Vector { elem, width, .. }) => {
                    return Err(CheckError::Dimensions {
                        problem: DimensionProblem::NotAnArray {
                            name: name.clone(),
                            ty: type_name(elem, width).to_string(),
                        },
                        span: cur.span,
                        help: Some(format!("use a component: `{name}.x`")),
                    });
                }
                Some(Binding::Local { var, .. }) => {
                    let ty = self.locals[var.0 as usize].declared;
                    return Err(CheckError::Dimensions {
                        problem: DimensionProblem::NotAnArray {
                            name: name.clone(),
                            ty: ty.to_string(),
                        },
                        span: cur.span,
                        help: None,
                    });
                }
                None if !self.is_pointer(cur) => return Err(self.unknown_name(name, cur.span)),
                _ => None,
            },
            _ => None,
        };
        let (mem, base, dims) = match named {
            Some((mem, dims)) if dims.len() > 1 || indices.len() == dims.len() => (mem, None, dims),
            _ => {
                if !self.is_pointer(cur) {
                    return Err(CheckError::Unsupported {
                        what: "indexing this expression".into(),
                        span: cur.span,
                        help: Some("index a pointer or an array: `a[i]`, `p[i]`".into()),
                    });
                }
                self.void_access(cur)?;
                let p = self.pointer(cur)?;
                let mem = self.pointee(p.mem.or_else(|| self.null_held(cur)), cur.span)?;
                // A parameter `float t[4][8]` points to rows: `t[r][c]`.
                let rows = match &cur.kind {
                    ast::ExprKind::Name(n) => match self.lookup(n) {
                        Some(Binding::Pointer(i)) => self.ptr_vars[i as usize].rows.clone(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                let mut dims = vec![0];
                dims.extend(rows);
                (mem, Some(p.offset), dims)
            }
        };
        // A struct pointer's offset counts components: its element is given in components too.
        let stride = match base {
            Some(_) => self.struct_stride(cur),
            None => None,
        };
        if indices.len() != dims.len() {
            let what = match &cur.kind {
                ast::ExprKind::Name(n) => format!("`{n}`"),
                _ => "this pointer".into(),
            };
            return Err(CheckError::Dimensions {
                problem: DimensionProblem::IndexCount {
                    what,
                    dims: dims.len(),
                    indices: indices.len(),
                },
                span: e.span,
                help: None,
            });
        }
        let mut flat: Option<Expr> = None;
        for (i, ix) in indices.into_iter().enumerate() {
            let t = self.index_value(ix)?;
            flat = Some(match flat {
                None => t,
                Some(prev) => {
                    let width = constant(Value::I64(dims[i] as i64).cast(Scalar::I32), prev.span);
                    let op_span = t.span;
                    let scaled = self.binary(BinOp::Mul, op_span, prev, width)?;
                    self.binary(BinOp::Add, op_span, scaled, t)?
                }
            });
        }
        let index = flat.expect("checker: at least one index");
        let (mem, index) = match stride {
            Some(k) => (Mem { width: 1, ..mem }, self.scaled(index, k, e.span)?),
            None => (mem, index),
        };
        let index = match base {
            Some(offset) => self.index_through(offset, index, e.span)?,
            None => index,
        };
        Ok((mem, index))
    }

    /// The array a dereferenced pointer points into; `NULL` points into none.
    /// The memory a pointer variable that has held only `NULL` so far (a `__device__` function's
    /// parameter given `nullptr`, tested before use) is read through: a choice of no arrays, so
    /// that an access that runs is `simt::run::null_pointer`, and one that never runs is no error.
    fn null_held(&self, e: &ast::Expr) -> Option<Mem> {
        let ast::ExprKind::Name(n) = &e.kind else {
            return None;
        };
        let Some(Binding::Pointer(i)) = self.lookup(n) else {
            return None;
        };
        let pv = &self.ptr_vars[i as usize];
        let (elem, width) = pv.pointee;
        (pv.assigned && pv.mem.is_none()).then_some(Mem {
            space: Space::Choice {
                stored: elem,
                shared: false,
            },
            elem,
            width,
        })
    }

    pub(crate) fn pointee(&mut self, mem: Option<Mem>, span: Span) -> Result<Mem> {
        let mem = mem.ok_or_else(|| CheckError::Pointer {
            problem: PointerProblem::NullDereference,
            span,
            help: Some("point it into an array first".into()),
        })?;
        // A `char*` into memory kept wider (a launch array, see `cast_pointer`) reads or writes
        // a byte: the memory is held in bytes from now on, unless an atomic works on it.
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        if mem.elem.size() < stored.size() {
            self.narrow(mem.space, mem.elem);
        }
        let stored = self.stored(mem.space).unwrap_or(mem.elem);
        if mem.elem.size() < stored.size() {
            return Err(CheckError::Unsupported {
                what: format!("reading or writing single bytes of `{stored}` memory"),
                span,
                help: Some(self.view_help(mem.space, mem.elem)),
            });
        }
        Ok(mem)
    }

    fn unary(&mut self, op: UnOp, inner: Expr, span: Span) -> Result<Expr> {
        match op {
            UnOp::Plus | UnOp::Neg => {
                let ty = promote(inner.ty);
                let inner = self.convert(inner, ty);
                if op == UnOp::Plus {
                    return Ok(Expr { span, ..inner });
                }
                if let ExprKind::Const(v) = inner.kind {
                    // `-0.0f` is negative zero: negate floats, not `0 - x` (which gives +0).
                    let negated = match v {
                        Value::F32(x) => Value::F32(-x),
                        Value::F64(x) => Value::F64(-x),
                        _ => fold(ArithOp::Sub, Value::I32(0).cast(ty), v, span)?,
                    };
                    return Ok(constant(negated, span));
                }
                Ok(Expr {
                    kind: ExprKind::Neg(Box::new(inner)),
                    ty,
                    span,
                })
            }
            UnOp::BitNot => {
                if !inner.ty.is_integer() && inner.ty != Scalar::Bool {
                    return Err(CheckError::NotAnInteger {
                        what: "the operand of `~`".into(),
                        found: inner.ty.to_string(),
                        span,
                        help: None,
                    });
                }
                let ty = promote(inner.ty);
                let inner = self.convert(inner, ty);
                if let ExprKind::Const(v) = inner.kind {
                    let ones = Value::I32(-1).cast(ty);
                    return Ok(constant(fold(ArithOp::Xor, v, ones, span)?, span));
                }
                Ok(Expr {
                    kind: ExprKind::BitNot(Box::new(inner)),
                    ty,
                    span,
                })
            }
            UnOp::Not => {
                let b = self.truth(inner)?;
                if let ExprKind::Const(Value::Bool(v)) = b.kind {
                    return Ok(constant(Value::Bool(!v), span));
                }
                Ok(Expr {
                    kind: ExprKind::Not(Box::new(b)),
                    ty: Scalar::Bool,
                    span,
                })
            }
            UnOp::Deref | UnOp::AddrOf => Err(CheckError::Unsupported {
                what: if op == UnOp::Deref {
                    "pointer dereference `*p`"
                } else {
                    "taking an address `&x`"
                }
                .into(),
                span,
                help: Some("index arrays by name instead: `a[i]`".into()),
            }),
        }
    }

    /// A binary operator on typed operands, with C's conversions and folding.
    pub(crate) fn binary(&mut self, op: BinOp, op_span: Span, l: Expr, r: Expr) -> Result<Expr> {
        let span = l.span.to(r.span);
        if matches!(op, BinOp::And | BinOp::Or) {
            let l = self.truth(l)?;
            let r = self.truth(r)?;
            let and = op == BinOp::And;
            if let ExprKind::Const(Value::Bool(a)) = l.kind {
                // `true && x` is `x`; `false && x` is `false` (x never runs).
                return Ok(if a == and {
                    r
                } else {
                    constant(Value::Bool(a), span)
                });
            }
            return Ok(Expr {
                kind: ExprKind::Logic {
                    and,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                },
                ty: Scalar::Bool,
                span,
            });
        }
        for side in [&l, &r] {
            if side.ty == Scalar::Bool && !matches!(op, BinOp::Eq | BinOp::Ne) && op.is_comparison()
            {
                continue;
            }
        }
        let operand_error = |help: Option<String>| CheckError::OperandTypes {
            op: op.symbol().to_string(),
            lhs: l.ty.to_string(),
            rhs: r.ty.to_string(),
            span: op_span,
            help,
        };
        let is_bit = matches!(
            op,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        );
        if (is_bit || op == BinOp::Rem) && (l.ty.is_float() || r.ty.is_float()) {
            let help = if op == BinOp::Rem {
                Some("use `fmodf(a, b)` for a floating-point remainder".into())
            } else {
                Some("bit operators need integers; convert with `(int)x`".into())
            };
            return Err(operand_error(help));
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let ty = promote(l.ty);
            let l = self.convert(l, ty);
            let r = self.convert(r, ty);
            let aop = if op == BinOp::Shl {
                ArithOp::Shl
            } else {
                ArithOp::Shr
            };
            return self.arith(aop, ty, l, r, op_span, span);
        }
        // Two `half`s (or two `__nv_bfloat16`s) give one: the `float` result, rounded.
        let half = self.half_operands(&l, &r);
        let ty = Scalar::common(l.ty, r.ty);
        let l = self.convert(l, ty);
        let r = self.convert(r, ty);
        let cmp = match op {
            BinOp::Lt => Some(CmpOp::Lt),
            BinOp::Le => Some(CmpOp::Le),
            BinOp::Gt => Some(CmpOp::Gt),
            BinOp::Ge => Some(CmpOp::Ge),
            BinOp::Eq => Some(CmpOp::Eq),
            BinOp::Ne => Some(CmpOp::Ne),
            _ => None,
        };
        if let Some(cmp) = cmp {
            if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
                return Ok(constant(Value::Bool(fold_cmp(cmp, *a, *b)), span));
            }
            return Ok(Expr {
                kind: ExprKind::Compare {
                    op: cmp,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                },
                ty: Scalar::Bool,
                span,
            });
        }
        let aop = match op {
            BinOp::Add => ArithOp::Add,
            BinOp::Sub => ArithOp::Sub,
            BinOp::Mul => ArithOp::Mul,
            BinOp::Div => ArithOp::Div,
            BinOp::Rem => ArithOp::Rem,
            BinOp::BitAnd => ArithOp::And,
            BinOp::BitOr => ArithOp::Or,
            BinOp::BitXor => ArithOp::Xor,
            _ => unreachable!("checker: comparisons and logic handled above"),
        };
        let e = self.arith(aop, ty, l, r, op_span, span)?;
        Ok(match half {
            Some(kind) => self.round(e, kind),
            None => e,
        })
    }

    fn arith(
        &mut self,
        op: ArithOp,
        ty: Scalar,
        l: Expr,
        r: Expr,
        _op_span: Span,
        span: Span,
    ) -> Result<Expr> {
        // An integer division by a constant zero is undefined only where it runs (C11 6.5.5):
        // it is left to run and trap there (`simt::run::division_by_zero`), so that code that
        // never runs it (`D != 0 ? a[i] / D : 7` with `#define D 0`) is accepted, as by nvcc.
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            if let Ok(v) = fold_arith(op, *a, *b) {
                return Ok(constant(v, span));
            }
        }
        Ok(Expr {
            kind: ExprKind::Arith {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r),
            },
            ty,
            span,
        })
    }

    pub(crate) fn ternary(&mut self, c: Expr, t: Expr, f: Expr, span: Span) -> Result<Expr> {
        let ty = if t.ty == Scalar::Bool && f.ty == Scalar::Bool {
            Scalar::Bool
        } else {
            Scalar::common(t.ty, f.ty)
        };
        let t = self.convert(t, ty);
        let f = self.convert(f, ty);
        if let ExprKind::Const(Value::Bool(v)) = c.kind {
            return Ok(if v { t } else { f });
        }
        Ok(Expr {
            kind: ExprKind::Select {
                cond: Box::new(c),
                then: Box::new(t),
                els: Box::new(f),
            },
            ty,
            span,
        })
    }

    /// Where a call of `name` names a function of a namespace that C++ lookup does not search
    /// from the caller (scope.rs renamed `foo::name` to `foo.name`): how to name it.
    fn hidden_in_namespace(&self, name: &str) -> Option<String> {
        let mut found: Vec<String> = self
            .globals
            .functions
            .keys()
            .filter_map(|k| k.strip_suffix(name)?.strip_suffix('.'))
            .map(|ns| ns.replace('.', "::"))
            .collect();
        found.sort();
        let ns = found.first()?;
        Some(format!(
            "`{name}` is declared in namespace `{ns}`, which C++ does not search from here: call `{ns}::{name}(...)`, or write `using {ns}::{name};` or `using namespace {ns};` first"
        ))
    }

    fn call(
        &mut self,
        callee: &ast::Ident,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        if let Some(found) = self.adl(callee, args) {
            return self.call(&found, targs, args, span);
        }
        if let Some(found) = self.global_by_adl(callee, targs, args) {
            return self.call(&found, &[], args, span);
        }
        if let Some(limit) = self.numeric_limit(callee, targs, span) {
            return limit;
        }
        if let Some(same) = self.is_same(callee, targs, span) {
            return Ok(same);
        }
        if let Some(call) = self.object_call(callee, (targs, args), span, false) {
            return call;
        }
        if is_array_cast(callee) {
            return Err(array_cast(callee));
        }
        if let Some(call) = self.immediate_lambda(callee, (targs, args), span, false) {
            return call;
        }
        // `Policy::twice(x)`: a struct's static member function (a member template too:
        // `P::template inclusive<T>(v)` reads `P::inclusive<T>(v)`).
        if let Some(m) = self.static_member_fn(&callee.name, callee.span, args) {
            return self.inline_member(&m, (targs, args), span, false);
        }
        self.known_scope(callee)?;
        let name = callee.name.as_str();
        // `cg::reduce`, `wt::f`: cooperative groups and namespaced functions by their own name.
        let name = super::groups::unqualified(name);
        // `nanf("")`, `::nan("")`: C's quiet NaN, 0x7fc00000 and 0x7ff8000000000000 (glibc's
        // and `__builtin_nan("")`'s; NVIDIA documents only "a representation of a quiet NaN").
        if let ("nan" | "nanf", [arg]) = (name, args) {
            if let ast::ExprKind::Str(tag) = &arg.kind {
                if !self.globals.functions.contains_key(name) {
                    if !tag.is_empty() {
                        return Err(CheckError::Unsupported {
                            what: format!("the NaN payload tag \"{tag}\" of `{name}`"),
                            span: arg.span,
                            help: Some(format!("`{name}(\"\")` is the quiet NaN; a payload is set with `__int_as_float` or `__longlong_as_double`")),
                        });
                    }
                    let value = if name == "nanf" {
                        Value::F32(f32::from_bits(0x7fc0_0000))
                    } else {
                        Value::F64(f64::from_bits(0x7ff8_0000_0000_0000))
                    };
                    return Ok(constant(value, span));
                }
            }
        }
        // A function the file defines without `__device__` is host code (nvcc: "calling a
        // __host__ function from a __global__ function is not allowed"), unless a device
        // function or a CUDA function of that name is there too, and C++ picks it.
        if let Some(&defined) = self.globals.host_functions.get(name) {
            if !self.globals.functions.contains_key(name)
                && math_function(name).is_none()
                && !self.builtin_min_max_fits(name, args)
            {
                return Err(CheckError::HostFunction {
                    name: name.to_string(),
                    span: callee.span,
                    defined,
                });
            }
        }
        if name == "reduce" {
            return self.group_reduce(args, span);
        }
        if matches!(name, "inclusive_scan" | "exclusive_scan")
            && args
                .first()
                .is_some_and(|g| matches!(self.group(g), Ok(Some(_))))
        {
            return self.group_scan(name, args, span);
        }
        if let ("alignof", [ast::TemplateArg::Type(t)]) = (name, targs) {
            let align = if t.pointer {
                8
            } else {
                self.member_kind(t)?.shape().1
            };
            return Ok(constant(Value::U64(u64::from(align)), span));
        }
        if name == "aligned_size_t" && callee.name.starts_with("cuda::") {
            // `cuda::aligned_size_t<16>(n)`: `n` bytes, with an alignment promise that
            // `memcpy_async` reads where it is called.
            super::intrinsics::arity(name, args.len(), 1, 1, span)?;
            let n = self.expr(&args[0])?;
            return Ok(self.convert(n, Scalar::U64));
        }
        if let Some(kind) = crate::value::BlockVote::of_name(name) {
            return self.block_vote(kind, name, args, span);
        }
        if matches!(name, "clock" | "clock64") && args.is_empty() {
            return Ok(Expr {
                kind: ExprKind::Clock,
                ty: Scalar::I64,
                span,
            });
        }
        if let (Some(fetch), false) = (crate::texture::Fetch::of_name(name), targs.is_empty()) {
            return self.texture_fetch(fetch, targs, args, span);
        }
        let on_reference = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Name(n) => self
                .globals
                .constants
                .iter()
                .any(|c| c.name.name == *n && c.memory == ast::FileMemory::Texture),
            _ => false,
        };
        if matches!(name, "tex1D" | "tex2D" | "tex3D") && args.first().is_some_and(on_reference) {
            // `tex1D(texRef, x)`: the legacy texture-reference fetch with float coordinates,
            // whose filtering and addressing the host set on the reference (removed in CUDA 12).
            return Err(CheckError::Unsupported {
                what: format!("`{name}` of a texture reference, without a texel type (`{name}<float>`)"),
                span,
                help: Some(format!(
                    "texture references were removed in CUDA 12: read a 1-D reference at an integer index with `tex1Dfetch(ref, i)`, or pass a `cudaTextureObject_t` parameter and read it with `{name}<float>(tex, ...)` (the launch section binds it with `texture(...)`, filtering and addressing included)"
                )),
            });
        }
        if name == "tex1Dfetch" {
            // A legacy texture read at an integer index: the element (no filtering).
            let [tex, i] = args else {
                return Err(CheckError::ArgumentCount {
                    name: name.to_string(),
                    expected: "2".into(),
                    found: args.len(),
                    span,
                });
            };
            let element = ast::Expr {
                kind: ast::ExprKind::Index {
                    base: Box::new(tex.clone()),
                    index: Box::new(i.clone()),
                },
                span,
            };
            return self.expr(&element);
        }
        if let ("__cvta_generic_to_shared" | "__simt_ptx_shared", [p]) = (name, args) {
            return if name == "__simt_ptx_shared" {
                self.ptx_shared_address(p, span)
            } else {
                self.shared_window(p, span)
            };
        }
        if is_cache_load(name) {
            // `__ldg(p)` reads `*p`; the cache hint changes no result and no count.
            super::intrinsics::arity(name, args.len(), 1, 1, span)?;
            let p = &args[0];
            return self.expr(&deref(p));
        }
        if matches!(name, "this_thread_block" | "tiled_partition" | "this_grid") {
            return Err(CheckError::NotAValue {
                subject: format!("`{name}()`"),
                what: "a group of threads".into(),
                wanted: "a value",
                span,
                help: Some(
                    "keep it in a variable: `cg::thread_block block = cg::this_thread_block();`"
                        .into(),
                ),
            });
        }
        if let Some((_, why)) = UNSUPPORTED_CALLS.iter().find(|(n, _)| *n == name) {
            return Err(CheckError::Unsupported {
                what: format!("`{name}`"),
                span: callee.span,
                help: Some((*why).to_string()),
            });
        }
        if let Some(result) = self.wmma_call(name, args, span) {
            return result;
        }
        if let Some(result) = self.intrinsic(name, args, span) {
            return result;
        }
        if let Some(result) = self.split_math(name, args, span) {
            return result;
        }
        if let Some(result) = self.simd_call(name, args, span) {
            return result;
        }
        if let Some(result) = self.dpx_call(name, args, span) {
            return result;
        }
        if let Some(result) = self.pair_scalar_call(name, args, span) {
            return result;
        }
        if let Some(f) = self.overload_with(name, targs, args)? {
            if !self.takes_struct_of_scalar(f, args) {
                return self.inline_call(f, (targs, args), span, false);
            }
        }
        if let Some(f) = self.declared_specialization(name, targs)? {
            return self.inline_call(f, (&[], args), span, false);
        }
        if name == "__syncthreads" || name == "__syncwarp" {
            return Err(CheckError::NoValue {
                what: format!("`{name}()`"),
                why: "",
                span,
                help: Some(format!("call it as a statement of its own: `{name}();`")),
            });
        }
        // The C library's device-side memory functions take pointers: say so before the
        // arguments are read as values. `memcpy` and `memset` run as statements (`memfn`).
        if matches!(name, "memcpy" | "memset") {
            return Err(CheckError::Unsupported {
                what: format!("the value of `{name}`"),
                span: callee.span,
                help: Some(format!(
                    "call `{name}` as a statement of its own (`{name}(dst, ..., n);`); its result is only its first argument"
                )),
            });
        }
        if matches!(name, "memmove" | "memcmp") {
            return Err(CheckError::Unsupported {
                what: format!("device-side `{name}`"),
                span: callee.span,
                help: Some(
                    "copy or compare the elements in a loop of the pointers' own type (`for (int k = 0; k < n; k++) dst[k] = src[k];`), which is also how the GPU runs it"
                        .into(),
                ),
            });
        }
        // `__builtin_bit_cast(double, x)`, C++20's `std::bit_cast<double>(x)`: the bits of `x`
        // as the type, which must be as wide ([bit.cast]).
        if let ("__builtin_bit_cast" | "bit_cast", [ast::TemplateArg::Type(ty)], [arg]) =
            (name, targs, args)
        {
            let to = super::scalar_of(ty)?;
            let a = self.expr(arg)?;
            let own = self.own_type(arg, &a);
            if own.is_half() || to.is_half() {
                return Err(CheckError::Unsupported {
                    what: "a bit cast from or to a 16-bit float".into(),
                    span,
                    help: Some("use cuda_fp16.h's `__half_as_ushort(h)` and `__ushort_as_half(u)` (`__bfloat16_as_ushort` and `__ushort_as_bfloat16` for bfloat16)".into()),
                });
            }
            if own.size() != to.size() {
                return Err(CheckError::Unsupported {
                    what: format!(
                        "a bit cast of a {}-byte `{own}` to the {}-byte `{to}`",
                        own.size(),
                        to.size()
                    ),
                    span,
                    help: Some(
                        "a bit cast keeps every byte: cast to a type of the same size".into(),
                    ),
                });
            }
            let a = self.convert(a, own);
            return Ok(bit_cast(a, to, span));
        }
        let mut typed = Vec::with_capacity(args.len());
        for a in args {
            match self.expr(a) {
                Ok(t) => typed.push(t),
                // `atomicAdd_sys(p, v)`: the name is the mistake, not the pointer argument.
                Err(CheckError::NotAValue { .. }) if !is_known_call(name) => {
                    return Err(self.unknown_function(name, callee.span))
                }
                Err(e) => return Err(e),
            }
        }
        let arity = |n: usize| super::intrinsics::arity(name, args.len(), n, n, span);
        if let Some((from, round, to)) = rounded_conversion(name) {
            arity(1)?;
            let a = typed.pop().expect("one arg");
            let a = self.convert(a, from);
            let call = |func, a| Expr {
                kind: ExprKind::Call {
                    func,
                    args: vec![a],
                },
                ty: to.promoted(),
                span,
            };
            return Ok(match round {
                Rounding::Nearest => self.convert(a, to),
                Rounding::Integral(m) => {
                    let a = Expr {
                        ty: from.promoted(),
                        ..call(Func::Math1(m), a)
                    };
                    self.convert(a, to)
                }
                Rounding::Directed(dir) => call(Func::Directed { from, to, dir }, a),
            });
        }
        if let Some(result) = self.half_call(name, &mut typed, callee.span, span) {
            return result;
        }
        match name {
            _ if crate::value::RoundedOp::of_libm(name).is_some() => {
                let (op, ty) = crate::value::RoundedOp::of_libm(name).expect("matched a name");
                arity(2)?;
                let n = typed.pop().expect("two args");
                let x = typed.pop().expect("two args");
                if n.ty.is_float() {
                    return Err(CheckError::NotAnInteger {
                        what: format!("the exponent of `{name}`"),
                        found: n.ty.to_string(),
                        span: n.span,
                        help: Some("pass an `int` power of two: `ldexpf(x, 3)` is x · 8".into()),
                    });
                }
                // The exponent travels as a float of the call's type: every `int` that does not
                // already over- or underflow any value (|n| < 2^24) is exact in it.
                let n = self.convert(n, ty);
                return Ok(Expr {
                    kind: ExprKind::Call {
                        func: Func::Rounded { op, dir: None },
                        args: vec![self.convert(x, ty), n],
                    },
                    ty,
                    span,
                });
            }
            _ if crate::value::RoundedOp::of_name(name).is_some() => {
                let (op, ty, dir) = crate::value::RoundedOp::of_name(name).expect("matched a name");
                arity(op.arity())?;
                let args = typed.into_iter().map(|a| self.convert(a, ty)).collect();
                return Ok(Expr {
                    kind: ExprKind::Call {
                        func: Func::Rounded { op, dir },
                        args,
                    },
                    ty,
                    span,
                });
            }
            "__fdividef" | "fdividef" => {
                arity(2)?;
                let b = typed.pop().expect("two args");
                let a = typed.pop().expect("two args");
                let (a, b) = (self.convert(a, Scalar::F32), self.convert(b, Scalar::F32));
                return self.arith(ArithOp::Div, Scalar::F32, a, b, callee.span, span);
            }
            "__popc"
            | "__popcll"
            | "__clz"
            | "__clzll"
            | "__ffs"
            | "__ffsll"
            | "__brev"
            | "__brevll"
            | "__builtin_popcount"
            | "__builtin_popcountll"
            | "__builtin_clz"
            | "__builtin_clzll"
            | "__builtin_ctz"
            | "__builtin_ctzll"
            | "__builtin_ffs"
            | "__builtin_ffsll" => {
                arity(1)?;
                use crate::value::BitOp;
                let wide = name.ends_with("ll");
                // GCC's builtins, as nvcc compiles them for the device: `__builtin_popcount`
                // is `__popc` and so on; `__builtin_clz(0)` is 32, as `__clz(0)` (GCC leaves
                // it undefined).
                let (op, from, to) = match name.trim_end_matches("ll") {
                    "__popc" | "__builtin_popcount" => (BitOp::Popc, Scalar::U32, Scalar::I32),
                    "__clz" => (BitOp::Clz, Scalar::I32, Scalar::I32),
                    "__builtin_clz" => (BitOp::Clz, Scalar::U32, Scalar::I32),
                    "__builtin_ctz" => (BitOp::Ctz, Scalar::U32, Scalar::I32),
                    "__ffs" | "__builtin_ffs" => (BitOp::Ffs, Scalar::I32, Scalar::I32),
                    _ => (BitOp::Brev, Scalar::U32, Scalar::U32),
                };
                let from = match (wide, from) {
                    (true, Scalar::U32) => Scalar::U64,
                    (true, _) => Scalar::I64,
                    (false, t) => t,
                };
                let to = if op == BitOp::Brev { from } else { to };
                let a = typed.pop().expect("one arg");
                if a.ty.is_float() {
                    return Err(CheckError::NotAnInteger {
                        what: format!("the argument of `{name}` (it counts bits)"),
                        found: a.ty.to_string(),
                        span: a.span,
                        help: Some("reinterpret a float's bits with `__float_as_int(x)`".into()),
                    });
                }
                let a = self.convert(a, from);
                return Ok(Expr {
                    kind: ExprKind::Call {
                        func: Func::Bits(op),
                        args: vec![a],
                    },
                    ty: to,
                    span,
                });
            }
            _ if crate::value::Bits3::of_name(name).is_some() => {
                arity(3)?;
                let mut op = crate::value::Bits3::of_name(name).expect("matched a name");
                let c = typed.pop().expect("three args");
                let b = typed.pop().expect("three args");
                let a = typed.pop().expect("three args");
                // `__dp4a`'s overloads: all `int` or all `unsigned`, picked by the first.
                if op == crate::value::Bits3::Dp4a && a.ty == Scalar::U32 {
                    op = crate::value::Bits3::Dp4aU;
                }
                let (first, last, result) = match op {
                    crate::value::Bits3::Sad => (Scalar::I32, Scalar::U32, Scalar::U32),
                    crate::value::Bits3::Dp4a => (Scalar::I32, Scalar::I32, Scalar::I32),
                    _ => (Scalar::U32, Scalar::U32, Scalar::U32),
                };
                for x in [&a, &b, &c] {
                    if x.ty.is_float() {
                        return Err(CheckError::NotAnInteger {
                            what: format!("an argument of `{name}` (it works on bits)"),
                            found: x.ty.to_string(),
                            span: x.span,
                            help: Some(
                                "reinterpret a float's bits with `__float_as_uint(x)`".into(),
                            ),
                        });
                    }
                }
                let args = vec![
                    self.convert(a, first),
                    self.convert(b, first),
                    self.convert(c, last),
                ];
                return Ok(Expr {
                    kind: ExprKind::Call {
                        func: Func::Bits3(op),
                        args,
                    },
                    ty: result,
                    span,
                });
            }
            // `__builtin_expect(e, c)`: `e` as a `long`; `c` only tells the compiler which value
            // is likely.
            "__builtin_expect" => {
                arity(2)?;
                typed.pop();
                let e = typed.pop().expect("two args");
                return Ok(self.convert(e, Scalar::I64));
            }
            // The high and low words of a double's bits, and a double made of two words.
            "__double2hiint" | "__double2loint" => {
                arity(1)?;
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, Scalar::F64);
                let bits = bit_cast(a, Scalar::U64, span);
                let word = if name == "__double2hiint" {
                    let shift = constant(Value::U64(32), span);
                    self.arith(ArithOp::Shr, Scalar::U64, bits, shift, callee.span, span)?
                } else {
                    bits
                };
                return Ok(self.convert(word, Scalar::I32));
            }
            "__hiloint2double" => {
                arity(2)?;
                let lo = typed.pop().expect("two args");
                let hi = typed.pop().expect("two args");
                let lo = self.convert(lo, Scalar::U32);
                let (hi, lo) = (self.convert(hi, Scalar::U64), self.convert(lo, Scalar::U64));
                let shift = constant(Value::U64(32), span);
                let hi = self.arith(ArithOp::Shl, Scalar::U64, hi, shift, callee.span, span)?;
                let bits = self.arith(ArithOp::Or, Scalar::U64, hi, lo, callee.span, span)?;
                return Ok(bit_cast(bits, Scalar::F64, span));
            }
            "__float_as_int"
            | "__float_as_uint"
            | "__int_as_float"
            | "__uint_as_float"
            | "__double_as_longlong"
            | "__longlong_as_double" => {
                arity(1)?;
                let (from, to) = match name {
                    "__float_as_int" => (Scalar::F32, Scalar::I32),
                    "__float_as_uint" => (Scalar::F32, Scalar::U32),
                    "__int_as_float" => (Scalar::I32, Scalar::F32),
                    "__uint_as_float" => (Scalar::U32, Scalar::F32),
                    "__double_as_longlong" => (Scalar::F64, Scalar::I64),
                    _ => (Scalar::I64, Scalar::F64),
                };
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, from);
                return Ok(bit_cast(a, to, span));
            }
            // `mul24`/`umul24`: device_functions.hpp's wrappers of `__mul24`/`__umul24`.
            "__mul24" | "__umul24" | "mul24" | "umul24" | "__mulhi" | "__umulhi" | "__mul64hi"
            | "__umul64hi" => {
                arity(2)?;
                let ty = match name {
                    "__mul24" | "mul24" | "__mulhi" => Scalar::I32,
                    "__umul24" | "umul24" | "__umulhi" => Scalar::U32,
                    "__mul64hi" => Scalar::I64,
                    _ => Scalar::U64,
                };
                let op = if name.contains("24") {
                    ArithOp::Mul24
                } else {
                    ArithOp::MulHi
                };
                let b = typed.pop().expect("two args");
                let a = typed.pop().expect("two args");
                let (a, b) = (self.convert(a, ty), self.convert(b, ty));
                return self.arith(op, ty, a, b, callee.span, span);
            }
            // simt's <curand_kernel.h> skips XORWOW ahead with these (`src/curand.rs`).
            "__simt_xorwow_skipahead" | "__simt_xorwow_skipahead_sequence" => {
                arity(7)?;
                let word = match typed[6].kind {
                    ExprKind::Const(v) => v.as_i64().filter(|w| (0..5).contains(w)),
                    _ => None,
                };
                let Some(word) = word else {
                    return Err(CheckError::NotConstant {
                        what: "the word of an XORWOW skip-ahead (0 to 4)".into(),
                        span: typed[6].span,
                        help: Some("write the word as a literal: `0` … `4`".into()),
                    });
                };
                typed.truncate(6);
                let n = typed.pop().expect("seven args");
                let mut args: Vec<Expr> = typed
                    .into_iter()
                    .map(|a| self.convert(a, Scalar::U32))
                    .collect();
                args.push(self.convert(n, Scalar::U64));
                let func = Func::Xorwow {
                    word: word as u8,
                    sequence: name.ends_with("sequence"),
                };
                return Ok(self.call_node(func, Scalar::U32, args, span));
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" => {
                arity(2)?;
                let b = typed.pop().expect("two args");
                let a = typed.pop().expect("two args");
                // `umin` and friends fix the type: CUDA's `unsigned`, `long long` overloads.
                let ty = match name.trim_end_matches("min").trim_end_matches("max") {
                    "u" => Scalar::U32,
                    "ll" => Scalar::I64,
                    "ull" => Scalar::U64,
                    _ => Scalar::common(a.ty, b.ty),
                };
                let (a, b) = (self.convert(a, ty), self.convert(b, ty));
                let op = if name.ends_with("min") {
                    ArithOp::Min
                } else {
                    ArithOp::Max
                };
                return self.arith(op, ty, a, b, callee.span, span);
            }
            "abs" | "labs" | "llabs" => {
                arity(1)?;
                let a = typed.pop().expect("one arg");
                let ty = if name == "abs" {
                    promote(a.ty)
                } else {
                    Scalar::I64
                };
                let a = self.convert(a, ty);
                return Ok(self.call_node(Func::Abs, ty, vec![a], span));
            }
            // C's classification macros, as C++'s overloads: a `float` stays a float, anything
            // else is a double; the answer is a `bool`.
            // glibc's and CUDA's `__signbit(double)` (`__signbitf`, `__signbitd`) are `int`s, 1 or 0.
            "isnan" | "isinf" | "isfinite" | "signbit" | "__signbit" | "__signbitf"
            | "__signbitd" => {
                arity(1)?;
                let a = typed.pop().expect("one arg");
                let ty = match name {
                    "__signbitf" => Scalar::F32,
                    "__signbit" | "__signbitd" => Scalar::F64,
                    _ if a.ty == Scalar::F32 => Scalar::F32,
                    _ => Scalar::F64,
                };
                let a = self.convert(a, ty);
                let infinity = constant(Value::F64(f64::INFINITY).cast(ty), span);
                let magnitude = |this: &mut Self, a: Expr| {
                    this.call_node(Func::Math1(Math1::Fabs), ty, vec![a], span)
                };
                return match name {
                    "isnan" => {
                        // Exponent all ones and a mantissa: the magnitude's bits above infinity's.
                        let (int, magnitude, inf) = if ty == Scalar::F32 {
                            (Scalar::I32, Value::I32(i32::MAX), Value::I32(0x7f80_0000))
                        } else {
                            (
                                Scalar::I64,
                                Value::I64(i64::MAX),
                                Value::I64(0x7ff0_0000_0000_0000),
                            )
                        };
                        let bits = bit_cast(a, int, span);
                        let m = self.binary(
                            BinOp::BitAnd,
                            callee.span,
                            bits,
                            constant(magnitude, span),
                        )?;
                        self.binary(BinOp::Gt, callee.span, m, constant(inf, span))
                    }
                    "isinf" => {
                        let m = magnitude(self, a);
                        self.binary(BinOp::Eq, callee.span, m, infinity)
                    }
                    "isfinite" => {
                        let m = magnitude(self, a);
                        self.binary(BinOp::Lt, callee.span, m, infinity)
                    }
                    _ => {
                        // The sign bit: the bits as a signed integer are negative.
                        let int = if ty == Scalar::F32 {
                            Scalar::I32
                        } else {
                            Scalar::I64
                        };
                        let bits = bit_cast(a, int, span);
                        let zero = constant(Value::I32(0).cast(int), span);
                        let sign = self.binary(BinOp::Lt, callee.span, bits, zero)?;
                        Ok(match name {
                            "signbit" => sign,
                            _ => self.convert(sign, Scalar::I32),
                        })
                    }
                };
            }
            // The exponent as an `int`: a float of the argument's type (exact), converted as the
            // GPU's `cvt.rzi` does (saturating: inf's `INT_MAX` is 2^31 as a `float`).
            "ilogbf" | "ilogb" => {
                arity(1)?;
                let a = typed.pop().expect("one arg");
                let from = if name.ends_with('f') || a.ty == Scalar::F32 {
                    Scalar::F32
                } else {
                    Scalar::F64
                };
                let a = self.convert(a, from);
                let e = self.call_node(Func::Math1(Math1::Ilogb), from, vec![a], span);
                return Ok(self.convert(e, Scalar::I32));
            }
            // Rounded to an integral value, then a `long` (`long long`): 64 bits on Linux.
            "lrintf" | "lroundf" | "llrintf" | "llroundf" | "lrint" | "lround" | "llrint"
            | "llround" => {
                arity(1)?;
                let from = if name.ends_with('f') {
                    Scalar::F32
                } else {
                    Scalar::F64
                };
                let round = if name.contains("rint") {
                    Math1::Rint
                } else {
                    Math1::Round
                };
                let a = typed.pop().expect("one arg");
                let a = self.convert(a, from);
                let r = self.call_node(Func::Math1(round), from, vec![a], span);
                return Ok(self.convert(r, Scalar::I64));
            }
            _ => {}
        }
        if super::is_half_precision(name) {
            return Err(CheckError::Unsupported {
                what: format!("the cuda_fp16.h / cuda_bf16.h function `{name}`"),
                span: callee.span,
                help: Some(super::HALF_HELP.into()),
            });
        }
        if let Some((n, reciprocal, ty)) = norm_function(name) {
            arity(n)?;
            let args = typed.into_iter().map(|a| self.convert(a, ty)).collect();
            return Ok(self.norm(args, reciprocal, ty, span));
        }
        let Some((func, single)) = math_function(name) else {
            return Err(self
                .passed_over(name, args.len(), callee.span)
                .unwrap_or_else(|| self.unknown_function(name, callee.span)));
        };
        let n = match func {
            Func::Math1(_)
            | Func::Abs
            | Func::Bits(_)
            | Func::View { .. }
            | Func::Directed { .. } => 1,
            Func::Math2(_) => 2,
            Func::Fma | Func::Bits3(_) => 3,
            Func::Rounded { op, .. } => op.arity(),
            Func::Xorwow { .. } => 7,
        };
        arity(n)?;
        // `sqrtf` is float; unsuffixed `sqrt` is float only when every argument is (C++ overloads).
        let ty = single.unwrap_or_else(|| {
            if typed.iter().all(|a| a.ty == Scalar::F32) {
                Scalar::F32
            } else {
                Scalar::F64
            }
        });
        let args = typed.into_iter().map(|a| self.convert(a, ty)).collect();
        let func = match func {
            Func::Math2(Math2::Fmin) => {
                return self.minmax_call(ArithOp::Min, ty, args, callee.span, span)
            }
            Func::Math2(Math2::Fmax) => {
                return self.minmax_call(ArithOp::Max, ty, args, callee.span, span)
            }
            f => f,
        };
        Ok(self.call_node(func, ty, args, span))
    }

    /// `norm3d(a, b, c)`, `norm4d(a, b, c, d)` and their reciprocals as `hypot`s of pairs:
    /// `hypot(hypot(a, b), c)` and `hypot(hypot(a, b), hypot(c, d))`, `rhypot` last for the
    /// reciprocal. Each `hypot` is overflow-safe and within an ulp, as CUDA's `norm3d` is
    /// (2 ulp, the programming guide's table).
    fn norm(&mut self, mut args: Vec<Expr>, reciprocal: bool, ty: Scalar, span: Span) -> Expr {
        let hypot = |s: &mut Self, a: Expr, b: Expr, last: bool| {
            let f = if last && reciprocal {
                Math2::Rhypot
            } else {
                Math2::Hypot
            };
            s.call_node(Func::Math2(f), ty, vec![a, b], span)
        };
        let d = (args.len() == 4).then(|| args.pop().expect("four args"));
        let c = args.pop().expect("three or four args");
        let b = args.pop().expect("three or four args");
        let a = args.pop().expect("three or four args");
        let ab = hypot(self, a, b, false);
        let cd = match d {
            Some(d) => hypot(self, c, d, false),
            None => c,
        };
        hypot(self, ab, cd, true)
    }

    fn minmax_call(
        &mut self,
        op: ArithOp,
        ty: Scalar,
        mut args: Vec<Expr>,
        op_span: Span,
        span: Span,
    ) -> Result<Expr> {
        let b = args.pop().expect("two args");
        let a = args.pop().expect("two args");
        self.arith(op, ty, a, b, op_span, span)
    }

    fn call_node(&mut self, func: Func, ty: Scalar, args: Vec<Expr>, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Call { func, args },
            ty,
            span,
        }
    }

    /// Converts to `bool` as a condition: `x != 0`.
    pub(crate) fn truth(&mut self, e: Expr) -> Result<Expr> {
        if e.ty == Scalar::Bool {
            return Ok(e);
        }
        let span = e.span;
        let zero = constant(Value::I32(0).cast(e.ty), span);
        self.binary(BinOp::Ne, span, e, zero)
    }

    /// An explicit conversion to `to`: as [`Self::convert`], except that a 16-bit float made
    /// into a `float` (`(float)h`, whose value a `float` register already holds) is no longer
    /// one, so that `(float)a + (float)b` adds in `float`, not as `__hadd` would.
    pub(crate) fn cast(&mut self, e: Expr, to: Scalar) -> Expr {
        if !to.is_half() && self.half_of(&e).is_some() {
            let widened = self.round(e, Scalar::F32);
            return self.convert(widened, to);
        }
        self.convert(e, to)
    }

    /// Implicit or explicit conversion to `to` (a no-op when the type already matches).
    pub(crate) fn convert(&mut self, e: Expr, to: Scalar) -> Expr {
        let narrow = to.promoted() != to;
        if (e.ty == to && !narrow) || (to.is_half() && self.half_of(&e) == Some(to)) {
            return e;
        }
        let span = e.span;
        if let ExprKind::Const(v) = e.kind {
            if !to.is_half() {
                return constant(v.cast(to), span);
            }
            // A 16-bit float constant stays one (`(half)1.0 + h` is `__hadd`): the value,
            // rounded, under a conversion that keeps its type.
            return Expr {
                kind: ExprKind::Cast {
                    to,
                    operand: Box::new(constant(v.cast(to), span)),
                },
                ty: to.promoted(),
                span,
            };
        }
        if narrow && e.ty == to.promoted() {
            if let ExprKind::Var(_) | ExprKind::Load { .. } = e.kind {
                // Already truncated when stored.
                return Expr {
                    kind: ExprKind::Cast {
                        to,
                        operand: Box::new(e),
                    },
                    ty: to.promoted(),
                    span,
                };
            }
        }
        Expr {
            kind: ExprKind::Cast {
                to,
                operand: Box::new(e),
            },
            ty: to.promoted(),
            span,
        }
    }
}

fn promote(t: Scalar) -> Scalar {
    match t.promoted() {
        Scalar::Bool => Scalar::I32,
        other => other,
    }
}

/// The bits of `a` as the type `to` of the same width (`__float_as_int`).
pub(crate) fn bit_cast(a: Expr, to: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Call {
            func: Func::Bits(crate::value::BitOp::Same),
            args: vec![a],
        },
        ty: to,
        span,
    }
}

/// A load of element `index` of `mem`, as a value of the element's promoted type.
pub(crate) fn load(mem: Mem, index: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Load {
            mem,
            index: Box::new(index),
            copy: false,
        },
        ty: mem.elem.promoted(),
        span,
    }
}

/// The constant `v` as a typed expression at `span`.
pub(crate) fn constant(v: Value, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Const(v),
        ty: v.ty(),
        span,
    }
}

fn fold(op: ArithOp, a: Value, b: Value, span: Span) -> Result<Value> {
    fold_arith(op, a, b).map_err(|_| CheckError::DivisionByZero { span })
}

fn pointer_as_value(span: Span) -> CheckError {
    CheckError::NotAValue {
        subject: "this".into(),
        what: "a pointer".into(),
        wanted: "a value here",
        span,
        help: Some("read the element it points to: `*p` or `p[i]`; keep the pointer in a pointer variable: `float* p = ...;`".into()),
    }
}

impl KernelChecker<'_, '_> {
    /// `sizeof(T)` in bytes; `sizeof(x)` of a name that is a variable is `sizeof x`.
    fn size_of_type(&mut self, ty: &ast::TypeName) -> Result<u64> {
        if ty.pointer {
            return Ok(8);
        }
        if let Some(l) = self.layout_of(ty) {
            return Ok(u64::from(l?.size));
        }
        // `sizeof(x)` of a variable or a file-scope or library constant, which the parser takes
        // for a type.
        if ty.base == ast::BaseType::Named
            && (self.lookup(&ty.base_text).is_some()
                || self.globals.consts.contains_key(ty.base_text.as_str())
                || crate::value::library_constant(&ty.base_text).is_some())
        {
            let name = ast::Expr {
                kind: ast::ExprKind::Name(ty.base_text.clone()),
                span: ty.span,
            };
            return self.size_of(&name);
        }
        let (elem, width) = super::vector::elem_of(ty)?;
        Ok(u64::from(elem.size() * width))
    }

    /// `sizeof e` in bytes: an array's whole size, a pointer's 8, a variable's or element's own
    /// type (a `char` is 1, not the `int` it promotes to), otherwise the expression's type.
    fn size_of(&mut self, e: &ast::Expr) -> Result<u64> {
        let array = |elem: Scalar, width: u32, dims: &[u64]| {
            u64::from(elem.size() * width) * dims.iter().product::<u64>()
        };
        // `sizeof("abcd")`: the literal's bytes and its terminating zero.
        if let ast::ExprKind::Str(raw) = &e.kind {
            return Ok(super::print::literal_bytes(raw).len() as u64 + 1);
        }
        if let ast::ExprKind::Name(n) = &e.kind {
            match self.lookup(n) {
                Some(Binding::Shared(s)) => {
                    let a = &self.shared[s as usize];
                    return Ok(array(a.elem, a.width, &a.dims));
                }
                Some(Binding::LocalArray(l)) => {
                    let a = &self.local_arrays[l as usize];
                    return Ok(array(a.elem, a.width, &a.dims));
                }
                Some(Binding::Local { var, .. }) => {
                    return Ok(u64::from(self.locals[var.0 as usize].declared.size()))
                }
                Some(Binding::Vector { elem, width, .. }) => return Ok(array(elem, width, &[])),
                // A reference, or a vector local whose address is taken (kept in memory and
                // named through one): its element's own size, all components.
                Some(Binding::Ref(i)) if self.struct_size(e).is_none() => {
                    let (elem, width) = self.ptr_vars[i as usize].pointee;
                    return Ok(array(elem, width, &[]));
                }
                // A `__constant__`/`__device__` variable: its declared size, not a pointer's.
                Some(Binding::Param(p)) if self.constant_dims.contains_key(&p) => {
                    if let ParamKind::Buffer { elem, width, .. } = self.params[p as usize].kind {
                        return Ok(array(elem, width, &self.constant_dims[&p]));
                    }
                }
                _ => {}
            }
        }
        // A row of an array is an array here too (`sizeof(a[0])` of `float a[2][3]`: 12).
        if let Some(bytes) = self.row_bytes(e) {
            return Ok(bytes);
        }
        // An array member is an array here, not the pointer it converts to elsewhere.
        if self.is_pointer(e) && self.decayed_member(e).is_none() {
            return Ok(8);
        }
        if let Some(bytes) = self.struct_size(e) {
            return Ok(bytes);
        }
        if let ast::ExprKind::Index { .. }
        | ast::ExprKind::Unary {
            op: UnOp::Deref, ..
        } = e.kind
        {
            let (mem, _) = self.element(e)?;
            return Ok(array(mem.elem, mem.width, &[]));
        }
        let value = self.expr(e)?;
        Ok(u64::from(self.own_type(e, &value).size()))
    }
}

/// How a conversion with a rounding mode in its name rounds.
enum Rounding {
    /// `_rn` to a float type: C's own conversion.
    Nearest,
    /// A float to an integer: rounded to an integral value first, then converted.
    Integral(Math1),
    /// `_rd`, `_ru`, `_rz` to a float type: one directed rounding of the exact value.
    Directed(Direction),
}

/// `__float2int_rn` and the other conversions with a rounding mode, as (argument type, rounding,
/// result type): to an integer, `_rn` rounds to nearest even, `_rz` toward zero, `_rd` down,
/// `_ru` up, then the conversion saturates as `cvt` does; to a float type (`__int2half_rd`,
/// `__float2bfloat16_rz`, `__ll2float_ru`, `__double2float_rd`), from an integer or a wider
/// float, the value is rounded once in that direction, as the CUDA Math API defines them.
fn rounded_conversion(name: &str) -> Option<(Scalar, Rounding, Scalar)> {
    let (conversion, mode) = name.strip_prefix("__")?.rsplit_once('_')?;
    let (from, to) = conversion.split_once('2')?;
    let ty = |t: &str| match t {
        "float" => Some(Scalar::F32),
        "double" => Some(Scalar::F64),
        "int" => Some(Scalar::I32),
        "uint" => Some(Scalar::U32),
        "ll" => Some(Scalar::I64),
        "ull" => Some(Scalar::U64),
        "short" => Some(Scalar::I16),
        "ushort" => Some(Scalar::U16),
        "half" => Some(Scalar::F16),
        "bfloat16" => Some(Scalar::BF16),
        _ => None,
    };
    let (from, to) = (ty(from)?, ty(to)?);
    let narrower = !from.is_float() || from.size() > to.size();
    match (from.is_float(), to.is_float(), mode) {
        (true, false, _) => {
            let round = match mode {
                "rn" => Math1::Rint,
                "rz" => Math1::Trunc,
                "rd" => Math1::Floor,
                "ru" => Math1::Ceil,
                _ => return None,
            };
            Some((from, Rounding::Integral(round), to))
        }
        (_, true, "rn") if narrower => Some((from, Rounding::Nearest, to)),
        // cuda_fp16.h and cuda_bf16.h convert a `double` to nearest only.
        (_, true, _) if narrower && !(from == Scalar::F64 && to.is_half()) => {
            Direction::from_suffix(mode).map(|d| (from, Rounding::Directed(d), to))
        }
        _ => None,
    }
}

/// C's type for an integer literal: the first of int, (unsigned int,) long long, unsigned long long that holds it.
fn int_literal_value(v: u64, unsigned: bool, long: bool, hex: bool) -> Value {
    let fits_i32 = v <= i32::MAX as u64;
    let fits_u32 = v <= u32::MAX as u64;
    let fits_i64 = v <= i64::MAX as u64;
    match (unsigned, long) {
        (false, false) if fits_i32 => Value::I32(v as i32),
        (false, false) if hex && fits_u32 => Value::U32(v as u32),
        (true, false) if fits_u32 => Value::U32(v as u32),
        (false, _) if fits_i64 => Value::I64(v as i64),
        _ => Value::U64(v),
    }
}

impl<'g> KernelChecker<'g, '_> {
    /// Whether `f` takes a struct or a vector where `args` pass a scalar: then, as in C++, it
    /// is no candidate, and a built-in of the name may be (`thrust::exp(complex<T>)` beside
    /// `exp(x)`, helper_math.h's `clamp(float2, ...)` beside `clamp(float, ...)`).
    fn takes_struct_of_scalar(&mut self, f: &ast::Function, args: &[ast::Expr]) -> bool {
        f.params.iter().zip(args).any(|(p, a)| {
            // `Pair<T>` is a struct; `typename Info<T>::Base` is a member type of one, which may
            // be a scalar (jetson-utils' `alpha(T, typename cudaVectorTypeInfo<T>::Base)`).
            // A group (`cg::thread_block_tile<8>`) is neither.
            let aggregate = (p.ty.base == ast::BaseType::Named
                && p.ty.base_text.ends_with('>')
                && !super::groups::names_group(&p.ty.base_text))
                || p.ty.base == ast::BaseType::Vector;
            // A vector whose address is taken is a reference into memory, and a struct or
            // object keeps its binding: none of them is a scalar.
            let aggregate_name = match &a.kind {
                ast::ExprKind::Name(n) => match self.lookup(n) {
                    Some(Binding::Ref(i)) => self.ptr_vars[i as usize].pointee.1 > 1,
                    Some(
                        Binding::LocalArray(_)
                        | Binding::Struct(_)
                        | Binding::Object(_)
                        | Binding::Vector { .. },
                    ) => true,
                    // `f(gridDim)` of `f(dim3 d)`: the whole built-in vector.
                    None => super::is_builtin(n),
                    _ => false,
                },
                _ => false,
            };
            aggregate
                && !aggregate_name
                && !p.ty.pointer
                && !self.is_pointer(a)
                && self.struct_of(a).is_none()
                && matches!(self.vector_shape(a), Ok(None))
                && matches!(self.computed_vector(a), Ok(None))
        })
    }
}

impl KernelChecker<'_, '_> {
    /// `o.name(args)` of the object `o` without data: the member function inlined with the
    /// objects `o` holds in scope; `None` where it has no such member.
    pub(crate) fn call_object(
        &mut self,
        o: &super::objects::Object,
        name: &str,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Option<Result<Expr>> {
        let f = self.member_fn_for(o, name, args)?;
        let f = self.in_class(o.def, &f, None);
        // A call in the arguments of an enclosing member call (`add(s, mul(a, b))`, checked
        // while its template arguments are deduced) leaves that call's object.
        let members = self.object_members(o, span);
        let outer = std::mem::replace(&mut self.pending_this, members);
        let call = self.inline_call(&f, (targs, args), span, allow_void);
        self.pending_this = outer;
        Some(call)
    }

    /// `[&]() { ... }();`: a lambda called where it is written (the parser gives it as the
    /// first argument of `<lambda>`), made and called in place (a GPU hash join's probe).
    pub(crate) fn immediate_lambda(
        &mut self,
        callee: &ast::Ident,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Option<Result<Expr>> {
        let (ast::ExprKind::Lambda(l), args) = (&args.first()?.kind, &args[1..]) else {
            return None;
        };
        (callee.name == "<lambda>").then_some(())?;
        let mut made = Vec::new();
        let label = format!("the lambda at byte {}", callee.span.start);
        let i = self.make_lambda(label, callee.span, l, &mut made);
        let call = self.call_lambda(i, (targs, args), span, allow_void);
        // Its copies of what it captures by value are made first.
        Some(call.map(|mut call| {
            if let ExprKind::Inline { body, .. } = &mut call.kind {
                body.splice(0..0, made);
            }
            call
        }))
    }

    /// A call of lambda `i`, inlined: the arguments checked in the caller's scopes, the body in
    /// the lambda's.
    fn call_lambda(
        &mut self,
        i: u32,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Result<Expr> {
        let (f, scopes) = self.lambdas[i as usize].clone();
        self.pending_scopes = Some(scopes);
        let call = self.inline_call(&f, (targs, args), span, allow_void);
        self.pending_scopes = None;
        call
    }

    /// `callee(args)` where `callee` is a function object (`Reader r; r(i)`, a struct with an
    /// `operator()`) or a lambda: the call, inlined (a lambda's body in the scopes it was made
    /// in); `allow_void` where it is a statement of its own (ElasticFusion's `icp();`).
    /// `None` where `callee` names neither.
    pub(crate) fn object_call(
        &mut self,
        callee: &ast::Ident,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Option<Result<Expr>> {
        Some(match self.lookup(&callee.name)? {
            Binding::Object(i) => {
                let o = self.objects[i as usize].clone();
                self.call_object(&o, "operator()", (targs, args), span, allow_void)
                    .unwrap_or_else(|| Err(not_callable(callee)))
            }
            Binding::Lambda(i) => self.call_lambda(i, (targs, args), span, allow_void),
            Binding::Struct(_) => {
                let object = ast::Expr {
                    kind: ast::ExprKind::Name(callee.name.clone()),
                    span: callee.span,
                };
                self.method_call(&object, "operator()", (&[], args), span, allow_void)
            }
            _ => return None,
        })
    }
}

/// What CUDA's texture or surface function `name` is, where simt does not run it (a surface
/// read or write, a layered, cubemap, gather, level-of-detail or gradient fetch).
fn unsupported_fetch(name: &str) -> Option<&'static str> {
    let surface = name.starts_with("surf") && (name.ends_with("read") || name.ends_with("write"));
    let kinds = ["Layered", "Cubemap", "gather", "Gather", "Lod", "Grad"];
    if surface {
        Some("surface function")
    } else if name.starts_with("tex") && kinds.iter().any(|k| name.contains(k)) {
        Some("texture fetch")
    } else {
        None
    }
}

/// `callee(args)` of an object without an `operator()`.
pub(crate) fn not_callable(callee: &ast::Ident) -> CheckError {
    CheckError::UnknownFunction {
        name: callee.name.clone(),
        span: callee.span,
        suggestion: Some(format!(
            "`{}` is an object without an `operator()`",
            callee.name
        )),
    }
}
