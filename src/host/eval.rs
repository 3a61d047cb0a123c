//! Evaluates launch-section and `--arg` expressions: initialisers, scalar arithmetic, `expect` checks.

use std::collections::HashMap;
use std::path::PathBuf;

use super::error::HostError;
use super::npy;
use super::value::{close, HostValue, Rng};
use crate::diag::did_you_mean;
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};

/// Largest array a launch section may create (elements).
pub const MAX_ELEMENTS: usize = 1 << 30;

/// Host functions, for "did you mean".
const FUNCTIONS: &[&str] = &[
    "zeros",
    "ones",
    "full",
    "arange",
    "rand",
    "randint",
    "load",
    "cdiv",
    "min",
    "max",
    "abs",
    "sqrt",
    "sum",
    "transpose",
    "cumsum",
    "matmul",
];

/// Names and values of a launch being set up.
#[derive(Debug)]
pub struct Env {
    /// Host variables, parameters, `grid` and `block`.
    pub vars: HashMap<String, HostValue>,
    rng: Rng,
    dir: PathBuf,
}

type Result<T> = std::result::Result<T, HostError>;

fn bad(message: impl Into<String>, span: Span, label: &str, help: Option<&str>) -> HostError {
    HostError::BadValue {
        message: message.into(),
        span,
        label: label.into(),
        help: help.map(Into::into),
    }
}

impl Env {
    /// An empty environment; `load` paths resolve against `dir`.
    pub fn new(seed: u64, dir: PathBuf) -> Env {
        Env {
            vars: HashMap::new(),
            rng: Rng::new(seed),
            dir,
        }
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: &Expr) -> Result<HostValue> {
        crate::stack::grow(|| self.eval_at(e))
    }

    fn eval_at(&mut self, e: &Expr) -> Result<HostValue> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, .. } => Ok(HostValue::Num {
                v: *value as f64,
                float: false,
            }),
            ExprKind::Float { value, .. } => Ok(HostValue::Num {
                v: *value,
                float: true,
            }),
            ExprKind::Bool(b) => Ok(HostValue::int(i64::from(*b))),
            ExprKind::Str(s) => Ok(HostValue::Str(s.clone())),
            ExprKind::Name(n) => self
                .vars
                .get(n)
                .cloned()
                .ok_or_else(|| HostError::UnknownName {
                    name: n.clone(),
                    span,
                    help: did_you_mean(n, self.vars.keys().map(String::as_str)).or_else(|| {
                        Some("set it earlier in the launch section or with --arg NAME=VALUE".into())
                    }),
                }),
            ExprKind::Tuple(items) => {
                if items.len() > 3 {
                    return Err(bad(
                        "a dimension has at most 3 components",
                        span,
                        "too many",
                        None,
                    ));
                }
                let mut d = [1u32; 3];
                for (slot, item) in d.iter_mut().zip(items) {
                    let v = self.eval(item)?;
                    *slot = dim_component(&v, item.span)?;
                }
                Ok(HostValue::Dim(d))
            }
            ExprKind::List(items) => {
                let mut data = Vec::with_capacity(items.len());
                let mut float = false;
                for item in items {
                    match self.eval(item)? {
                        HostValue::Num { v, float: f } => {
                            data.push(v);
                            float |= f;
                        }
                        other => {
                            return Err(bad(
                                format!("a list holds numbers, found {}", other.kind()),
                                item.span,
                                "not a number",
                                None,
                            ))
                        }
                    }
                }
                Ok(HostValue::array(data, float))
            }
            ExprKind::Unary { op, operand } => {
                let v = self.eval(operand)?;
                match op {
                    UnOp::Neg => map(&v, span, |x| -x),
                    UnOp::Plus => Ok(v),
                    UnOp::Not => map(&v, span, |x| f64::from(u8::from(x == 0.0))).map(integral),
                    _ => Err(bad(
                        "this operator is not available in a launch section",
                        span,
                        "here",
                        None,
                    )),
                }
            }
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                    return Err(bad(
                        format!("`{op}` is only allowed at the top of an `expect`"),
                        *op_span,
                        "comparison",
                        Some("write `expect a == b;`"),
                    ));
                }
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                binary(*op, &l, &r, *op_span)
            }
            ExprKind::Member { base, field } => match self.eval(base)? {
                HostValue::Dim(d) => {
                    let i = match field.name.as_str() {
                        "x" => 0,
                        "y" => 1,
                        "z" => 2,
                        _ => {
                            return Err(bad(
                                "a dimension has `.x`, `.y` and `.z`",
                                field.span,
                                "unknown member",
                                None,
                            ))
                        }
                    };
                    Ok(HostValue::int(i64::from(d[i])))
                }
                other => Err(bad(
                    format!("{} has no members", other.kind()),
                    span,
                    "not a dimension",
                    None,
                )),
            },
            ExprKind::Index { base, index } => {
                let b = self.eval(base)?;
                let i = self.eval(index)?;
                let HostValue::Array { data, float, .. } = b else {
                    return Err(bad(
                        format!("{} cannot be indexed", b.kind()),
                        base.span,
                        "not an array",
                        None,
                    ));
                };
                let i = as_index(&i, index.span)?;
                let v = *data.get(i).ok_or_else(|| {
                    bad(
                        format!(
                            "index {i} is out of bounds for an array of {} elements",
                            data.len()
                        ),
                        index.span,
                        "out of bounds",
                        None,
                    )
                })?;
                Ok(HostValue::Num { v, float })
            }
            ExprKind::Call { callee, args } => self.call(&callee.name, callee.span, args, span),
            ExprKind::Ternary { .. } | ExprKind::Cast { .. } | ExprKind::PostIncDec(_) => Err(bad(
                "this expression is not available in a launch section",
                span,
                "here",
                None,
            )),
        }
    }

    fn call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[Expr],
        span: Span,
    ) -> Result<HostValue> {
        if name == "load" {
            let [path] = args else {
                return Err(arity(name, "1", args.len(), span));
            };
            let ExprKind::Str(p) = &path.kind else {
                return Err(bad(
                    "`load` takes a file name in quotes",
                    path.span,
                    "not a string",
                    None,
                ));
            };
            return npy::load(&self.dir.join(p), path.span);
        }
        let vals = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<Vec<_>>>()?;
        let num = |i: usize| -> Result<f64> {
            match &vals[i] {
                HostValue::Num { v, .. } => Ok(*v),
                HostValue::Dim(d) => Ok(f64::from(d[0])),
                other => Err(bad(
                    format!("expected a number, found {}", other.kind()),
                    args[i].span,
                    "not a number",
                    None,
                )),
            }
        };
        let size = |i: usize| -> Result<usize> { as_size(&vals[i], args[i].span) };
        let shape = |n: usize| -> Result<Vec<usize>> {
            let dims = (0..n).map(size).collect::<Result<Vec<_>>>()?;
            let total = dims
                .iter()
                .try_fold(1usize, |a, &d| a.checked_mul(d))
                .unwrap_or(usize::MAX);
            if total > MAX_ELEMENTS {
                return Err(bad(
                    format!("{total} elements is more than the {MAX_ELEMENTS} a buffer may have"),
                    span,
                    "too large",
                    None,
                ));
            }
            Ok(dims)
        };
        let filled = |dims: Vec<usize>, f: &mut dyn FnMut() -> f64, float: bool| {
            let n = dims.iter().product();
            HostValue::Array {
                data: (0..n).map(|_| f()).collect(),
                shape: dims,
                float,
                dtype: None,
            }
        };
        let want = |lo: usize, hi: usize| -> Result<()> {
            if (lo..=hi).contains(&args.len()) {
                Ok(())
            } else {
                let expected = if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo} or {hi}")
                };
                Err(arity(name, &expected, args.len(), span))
            }
        };
        match name {
            "zeros" | "ones" => {
                want(1, 2)?;
                let v = if name == "ones" { 1.0 } else { 0.0 };
                Ok(filled(shape(args.len())?, &mut || v, false))
            }
            "full" => {
                want(2, 2)?;
                let v = num(1)?;
                let float = vals[1].is_float();
                Ok(filled(shape(1)?, &mut || v, float))
            }
            "arange" => {
                want(1, 1)?;
                let n = shape(1)?[0];
                Ok(HostValue::array((0..n).map(|i| i as f64).collect(), false))
            }
            "rand" => {
                want(1, 2)?;
                let dims = shape(args.len())?;
                let rng = &mut self.rng;
                Ok(filled(dims, &mut || rng.unit(), true))
            }
            "randint" => {
                want(3, 3)?;
                let dims = shape(1)?;
                let (lo, hi) = (num(1)?, num(2)?);
                if hi <= lo {
                    return Err(bad(
                        "`randint(n, lo, hi)` needs lo < hi",
                        span,
                        "empty range",
                        None,
                    ));
                }
                let width = (hi - lo) as u64;
                let rng = &mut self.rng;
                Ok(filled(
                    dims,
                    &mut || lo + (rng.next_u64() % width) as f64,
                    false,
                ))
            }
            "cdiv" => {
                want(2, 2)?;
                let (a, b) = (num(0)?, num(1)?);
                if b == 0.0 {
                    return Err(bad("`cdiv` by zero", args[1].span, "zero", None));
                }
                Ok(HostValue::int((a / b).ceil() as i64))
            }
            "min" | "max" | "sum" | "abs" | "sqrt" | "cumsum" => {
                if matches!(name, "min" | "max") && args.len() == 2 {
                    let (a, b) = (num(0)?, num(1)?);
                    let v = if name == "min" { a.min(b) } else { a.max(b) };
                    let float = vals[0].is_float() || vals[1].is_float();
                    return Ok(HostValue::Num { v, float });
                }
                want(1, 1)?;
                let v = &vals[0];
                match name {
                    "abs" => map(v, span, f64::abs),
                    "sqrt" => map(v, span, f64::sqrt).map(floating),
                    _ => {
                        let HostValue::Array { data, float, .. } = v else {
                            return Err(bad(
                                format!("`{name}` takes an array"),
                                args[0].span,
                                "not an array",
                                None,
                            ));
                        };
                        let float = *float;
                        Ok(match name {
                            "sum" => HostValue::Num {
                                v: data.iter().sum(),
                                float,
                            },
                            "min" => HostValue::Num {
                                v: data.iter().copied().fold(f64::INFINITY, f64::min),
                                float,
                            },
                            "max" => HostValue::Num {
                                v: data.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                                float,
                            },
                            _ => {
                                let mut acc = 0.0;
                                HostValue::array(
                                    data.iter()
                                        .map(|x| {
                                            acc += x;
                                            acc
                                        })
                                        .collect(),
                                    float,
                                )
                            }
                        })
                    }
                }
            }
            "transpose" => {
                want(3, 3)?;
                let (r, c) = (size(1)?, size(2)?);
                let (data, float) = self.flat(&vals[0], r * c, args[0].span)?;
                let mut out = vec![0.0; r * c];
                for i in 0..r {
                    for j in 0..c {
                        out[j * r + i] = data[i * c + j];
                    }
                }
                Ok(HostValue::array(out, float))
            }
            "matmul" => {
                want(5, 5)?;
                let (m, k, n) = (size(2)?, size(3)?, size(4)?);
                let (a, fa) = self.flat(&vals[0], m * k, args[0].span)?;
                let (b, fb) = self.flat(&vals[1], k * n, args[1].span)?;
                let mut out = vec![0.0; m * n];
                for i in 0..m {
                    for p in 0..k {
                        let x = a[i * k + p];
                        for j in 0..n {
                            out[i * n + j] += x * b[p * n + j];
                        }
                    }
                }
                Ok(HostValue::array(out, fa || fb))
            }
            _ => Err(HostError::BadValue {
                message: format!("unknown function `{name}` in a launch section"),
                span: name_span,
                label: "no such function".into(),
                help: did_you_mean(name, FUNCTIONS.iter().copied())
                    .or_else(|| Some(format!("available: {}", FUNCTIONS.join(", ")))),
            }),
        }
    }

    fn flat(&self, v: &HostValue, len: usize, span: Span) -> Result<(Vec<f64>, bool)> {
        match v {
            HostValue::Array { data, float, .. } if data.len() == len => Ok((data.clone(), *float)),
            HostValue::Array { data, .. } => Err(bad(
                format!("expected {len} elements, found {}", data.len()),
                span,
                "wrong size",
                None,
            )),
            other => Err(bad(
                format!("expected an array, found {}", other.kind()),
                span,
                "not an array",
                None,
            )),
        }
    }

    /// Checks `expect lhs op rhs;` (or a truth value); `Err` for an expression that cannot be evaluated.
    pub fn expect(&mut self, e: &Expr) -> Result<std::result::Result<(), String>> {
        if let ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } = &e.kind
        {
            if op.is_comparison() {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                return compare(*op, &l, &r, *op_span);
            }
        }
        let v = self.eval(e)?;
        let (data, _) = elements(&v, e.span)?;
        Ok(match data.iter().position(|&x| x == 0.0) {
            None => Ok(()),
            Some(i) => Err(format!("element {i} is zero")),
        })
    }
}

fn compare(
    op: BinOp,
    l: &HostValue,
    r: &HostValue,
    span: Span,
) -> Result<std::result::Result<(), String>> {
    let (a, la) = elements(l, span)?;
    let (b, lb) = elements(r, span)?;
    let float = l.is_float() || r.is_float();
    if la.len() > 1 && lb.len() > 1 && a.len() != b.len() {
        return Ok(Err(format!(
            "the sides have {} and {} elements",
            a.len(),
            b.len()
        )));
    }
    let n = a.len().max(b.len());
    let mut bad_count = 0usize;
    let mut first = None;
    for i in 0..n {
        let x = a[if a.len() == 1 { 0 } else { i }];
        let y = b[if b.len() == 1 { 0 } else { i }];
        let ok = match op {
            BinOp::Eq => close(x, y, float),
            BinOp::Ne => !close(x, y, float),
            BinOp::Lt => x < y,
            BinOp::Le => x <= y || close(x, y, float),
            BinOp::Gt => x > y,
            BinOp::Ge => x >= y || close(x, y, float),
            _ => unreachable!("host: comparison operators only"),
        };
        if !ok {
            bad_count += 1;
            first.get_or_insert((i, x, y));
        }
    }
    Ok(match first {
        None => Ok(()),
        Some((_, x, y)) if n == 1 => Err(format!("{x} {op} {y} is false")),
        Some((i, x, y)) => Err(format!(
            "{bad_count} of {n} elements differ; first at index {i}: {x} {op} {y} is false"
        )),
    })
}

fn elements(v: &HostValue, span: Span) -> Result<(Vec<f64>, Vec<usize>)> {
    match v {
        HostValue::Num { v, .. } => Ok((vec![*v], vec![1])),
        HostValue::Array { data, shape, .. } => Ok((data.clone(), shape.clone())),
        other => Err(bad(
            format!("cannot compare {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

fn map(v: &HostValue, span: Span, f: impl Fn(f64) -> f64) -> Result<HostValue> {
    match v {
        HostValue::Num { v, float } => Ok(HostValue::Num {
            v: f(*v),
            float: *float,
        }),
        HostValue::Array {
            data, shape, float, ..
        } => Ok(HostValue::Array {
            data: data.iter().map(|&x| f(x)).collect(),
            shape: shape.clone(),
            float: *float,
            dtype: None,
        }),
        other => Err(bad(
            format!("cannot compute with {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

fn integral(v: HostValue) -> HostValue {
    match v {
        HostValue::Num { v, .. } => HostValue::Num { v, float: false },
        other => other,
    }
}

fn floating(v: HostValue) -> HostValue {
    match v {
        HostValue::Num { v, .. } => HostValue::Num { v, float: true },
        HostValue::Array {
            data, shape, dtype, ..
        } => HostValue::Array {
            data,
            shape,
            float: true,
            dtype,
        },
        other => other,
    }
}

/// Elementwise `l op r` with scalar broadcast; integer `/` and `%` truncate like C.
fn binary(op: BinOp, l: &HostValue, r: &HostValue, span: Span) -> Result<HostValue> {
    let float = l.is_float() || r.is_float();
    let scalar = |v: &HostValue| -> Option<f64> {
        match v {
            HostValue::Num { v, .. } => Some(*v),
            HostValue::Dim(d) => Some(f64::from(d[0])),
            _ => None,
        }
    };
    let f = |x: f64, y: f64| -> f64 {
        match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div if float => x / y,
            BinOp::Div => (x / y).trunc(),
            BinOp::Rem => x % y,
            BinOp::Shl => ((x as i64) << (y as i64 & 63)) as f64,
            BinOp::Shr => ((x as i64) >> (y as i64 & 63)) as f64,
            BinOp::BitAnd => ((x as i64) & (y as i64)) as f64,
            BinOp::BitOr => ((x as i64) | (y as i64)) as f64,
            BinOp::BitXor => ((x as i64) ^ (y as i64)) as f64,
            _ => unreachable!("host: arithmetic operators only"),
        }
    };
    if !float && matches!(op, BinOp::Div | BinOp::Rem) {
        let zero_divisor = match r {
            HostValue::Array { data, .. } => data.contains(&0.0),
            other => scalar(other) == Some(0.0),
        };
        if zero_divisor {
            return Err(bad(
                "integer division by zero",
                span,
                "divides by zero",
                None,
            ));
        }
    }
    match (l, r) {
        (HostValue::Array { data: a, shape, .. }, HostValue::Array { data: b, .. }) => {
            if a.len() != b.len() {
                return Err(bad(
                    format!("arrays of {} and {} elements", a.len(), b.len()),
                    span,
                    "sizes differ",
                    None,
                ));
            }
            Ok(HostValue::Array {
                data: a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect(),
                shape: shape.clone(),
                float,
                dtype: None,
            })
        }
        (HostValue::Array { data, shape, .. }, s) | (s, HostValue::Array { data, shape, .. }) => {
            let Some(s) = scalar(s) else {
                return Err(bad(
                    format!("cannot compute with {}", s.kind()),
                    span,
                    "here",
                    None,
                ));
            };
            let array_left = matches!(l, HostValue::Array { .. });
            Ok(HostValue::Array {
                data: data
                    .iter()
                    .map(|&x| if array_left { f(x, s) } else { f(s, x) })
                    .collect(),
                shape: shape.clone(),
                float,
                dtype: None,
            })
        }
        _ => match (scalar(l), scalar(r)) {
            (Some(x), Some(y)) => Ok(HostValue::Num { v: f(x, y), float }),
            _ => Err(bad(
                format!("cannot compute with {} and {}", l.kind(), r.kind()),
                span,
                "here",
                None,
            )),
        },
    }
}

fn arity(name: &str, expected: &str, found: usize, span: Span) -> HostError {
    bad(
        format!("`{name}` takes {expected} argument(s), found {found}"),
        span,
        "wrong number of arguments",
        None,
    )
}

/// A non-negative integer count.
pub fn as_size(v: &HostValue, span: Span) -> Result<usize> {
    match v {
        HostValue::Num { v, .. } if *v >= 0.0 && v.fract() == 0.0 && *v <= MAX_ELEMENTS as f64 => {
            Ok(*v as usize)
        }
        HostValue::Dim(d) => Ok(d[0] as usize),
        other => Err(bad(
            format!(
                "expected a size (a whole number from 0 to {MAX_ELEMENTS}), found {}",
                describe(other)
            ),
            span,
            "not a size",
            None,
        )),
    }
}

fn as_index(v: &HostValue, span: Span) -> Result<usize> {
    as_size(v, span)
}

/// One component of a launch dimension: 1 ..= 2^31 - 1.
pub fn dim_component(v: &HostValue, span: Span) -> Result<u32> {
    match v {
        HostValue::Num { v, float: false } if *v >= 1.0 && *v <= f64::from(i32::MAX) => {
            Ok(*v as u32)
        }
        other => Err(HostError::LaunchShape {
            message: format!(
                "a dimension must be a whole number from 1 to 2147483647, found {}",
                describe(other)
            ),
            span,
            help: None,
        }),
    }
}

fn describe(v: &HostValue) -> String {
    match v {
        HostValue::Num { v, .. } => format!("{v}"),
        other => other.kind().to_string(),
    }
}
