//! Evaluates launch-section and `--arg` expressions: initialisers, scalar arithmetic, `expect` checks.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Weak};

use super::elementwise::{binary, compare, compare_operands, map, Fused, Operand};
use super::error::HostError;
use super::exact::{self, ExactSide};
use super::npy;
use super::value::{Draws, HostValue, Rng, Tolerance};
use super::Overrides;
use crate::diag::did_you_mean;
use crate::exec::BufData;
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::value::Scalar;

pub(crate) mod texture;

/// Largest array a launch section may create (elements).
pub const MAX_ELEMENTS: usize = 1 << 30;

/// Most dimensions an initialiser takes (`zeros(2, 3, 4)`): as many as an accessor may have.
const MAX_DIMS: usize = 8;

/// Host functions, for "did you mean".
const FUNCTIONS: &[&str] = &[
    "zeros",
    "ones",
    "empty",
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
    "reshape",
    "cumsum",
    "matmul",
    "texture",
];

/// Names and values of a launch being set up.
#[derive(Debug)]
pub struct Env {
    /// Host variables, parameters, `grid` and `block`.
    pub vars: HashMap<String, HostValue>,
    rng: Rng,
    dir: PathBuf,
    /// `--allow-paths`: `load` may leave the kernel's folder.
    allow_paths: bool,
    /// `--max-memory`.
    budget: u64,
    /// `--max-steps`: operations `matmul` may do.
    max_ops: u64,
    /// The element type of the buffer the statement being evaluated assigns, if it is one: an
    /// initialiser at its top writes that type directly (no array of doubles first).
    target: Option<Scalar>,
    /// Bytes of arrays made while evaluating the current statement (not yet bound to a name).
    temp: u64,
    /// The arrays made by `empty(n)` (and their copies in a buffer's type), each with the
    /// elements written so far (a bit each, as [`crate::exec::Buffer::written`]; none until a
    /// launch of a sequence writes some): the rest are uninitialised.
    uninit: Vec<(Weak<BufData>, Vec<u64>)>,
    /// In a `sequence`: its arrays (the heap's first) by name, in the order that numbers them
    /// for every launch of it; they come first among a launch's buffers, so that an address
    /// stored in one launch names the same array in the next.
    pub(crate) order: Vec<(String, Arc<BufData>)>,
    /// The file's host arrays a name may copy (`d_alpha_n = alpha_n;`): each a list literal of
    /// its values, evaluated where the launch section names it.
    pub(crate) file_arrays: HashMap<String, (Scalar, crate::syntax::ast::Expr)>,
    /// The exact values of 64-bit integer scalars set from what doubles cannot hold
    /// ([`Env::eval_wide`]), by name; their [`HostValue::Num`] is only the nearest double.
    pub(crate) wide: HashMap<String, i128>,
}

type Result<T> = std::result::Result<T, HostError>;

pub(crate) fn bad(
    message: impl Into<String>,
    span: Span,
    label: &str,
    help: Option<&str>,
) -> HostError {
    HostError::BadValue {
        message: message.into(),
        span,
        label: label.into(),
        help: help.map(Into::into),
    }
}

impl Env {
    /// An empty environment; `load` paths resolve against `dir`, the kernel file's folder.
    pub fn new(ov: &Overrides, dir: PathBuf) -> Env {
        Env {
            vars: HashMap::new(),
            rng: Rng::new(ov.seed),
            dir,
            allow_paths: ov.allow_paths,
            budget: ov.max_memory,
            max_ops: ov.max_steps,
            target: None,
            temp: 0,
            uninit: Vec::new(),
            order: Vec::new(),
            file_arrays: HashMap::new(),
            wide: HashMap::new(),
        }
    }

    /// `e` as the value of 64-bit integer scalar `name` of type `ty`: computed exactly where it
    /// involves what doubles cannot hold (`lookup = K[1];` of a `uint64` table, `seed =
    /// 18446744073709551557;`) and kept in [`Env::wide`], from which the parameter is bound;
    /// the ordinary way otherwise.
    pub fn eval_wide(&mut self, e: &Expr, name: &str, ty: Scalar) -> Result<HostValue> {
        self.wide.remove(name);
        if !self.wants_exact(e) {
            return self.eval(e);
        }
        let Some(ExactSide { vals, scalar: true }) = self.exact(e)? else {
            return self.eval(e);
        };
        let v = vals[0];
        // What a 64-bit integer holds, either signedness (converted modulo 2^64, as C does).
        let fits = u64::try_from(v).is_ok() || i64::try_from(v).is_ok();
        if !fits {
            return Err(bad(
                format!("{v} does not fit `{name}`, a `{ty}`"),
                e.span,
                "out of range",
                None,
            ));
        }
        self.wide.insert(name.to_string(), v);
        Ok(HostValue::Num {
            v: v as f64,
            float: false,
        })
    }

    /// The elements of `data` written so far, where it was made by `empty(n)` (or is the copy
    /// of one in a buffer's type) and some are not; `None` where every element holds a value.
    pub fn unwritten(&self, data: &Arc<BufData>) -> Option<Vec<u64>> {
        let (_, bits) = self
            .uninit
            .iter()
            .find(|(w, _)| std::ptr::eq(w.as_ptr(), Arc::as_ptr(data)))?;
        let n = data.len();
        let all = (0..n.div_ceil(64)).all(|k| {
            let want = if k < n / 64 {
                !0
            } else {
                (1u64 << (n % 64)) - 1
            };
            bits.get(k).copied().unwrap_or(0) & want == want
        });
        (!all).then(|| bits.clone())
    }

    /// Notes that `copy` stands for `data`, which may be uninitialised.
    pub(crate) fn copied(&mut self, data: &Arc<BufData>, copy: &Arc<BufData>) {
        if let Some(bits) = self.unwritten(data) {
            self.uninit.push((Arc::downgrade(copy), bits));
        }
    }

    /// Notes that `data` (what a launch of a sequence left of an `empty(n)` array) has the
    /// elements `written` written.
    pub(crate) fn written(&mut self, data: &Arc<BufData>, written: Vec<u64>) {
        self.uninit.push((Arc::downgrade(data), written));
    }

    /// A launch of a sequence: its own environment knows which of the sequence's arrays are
    /// uninitialised, and where.
    pub(crate) fn share_uninit(&self, launch: &mut Env) {
        launch.uninit.clone_from(&self.uninit);
    }

    /// Evaluates the expression of one statement.
    pub fn eval(&mut self, e: &Expr) -> Result<HostValue> {
        self.statement(|env| env.value(e))
    }

    /// Evaluates the expression of a statement that assigns a buffer of `elem`: an initialiser
    /// (`zeros`, `ones`, `full`, `arange`, `rand`, `randint`, `empty`) at its top makes the
    /// array in that type at once, so `a = zeros(n)` for a `float*` holds 4n bytes, never 8n.
    pub fn eval_as(&mut self, e: &Expr, elem: Scalar) -> Result<HostValue> {
        self.statement(|env| {
            env.target =
                matches!(e.kind, ExprKind::Call { .. } | ExprKind::List(_)).then_some(elem);
            let v = env.value(e);
            env.target = None;
            v
        })
    }

    /// Runs one statement: what it makes counts against `--max-memory` until it is bound to a name.
    fn statement<T>(&mut self, f: impl FnOnce(&mut Env) -> Result<T>) -> Result<T> {
        self.temp = 0;
        let result = f(self);
        self.temp = 0;
        result
    }

    /// Reads the `.npy` file of an `--arg a=@file`.
    pub fn load_arg(&mut self, path: &Path, span: Span) -> Result<HostValue> {
        self.statement(|env| env.load(path, span))
    }

    /// Bytes held by the arrays bound to names (an array several names share counts once).
    pub fn live_bytes(&self) -> u64 {
        let mut seen = std::collections::HashSet::new();
        self.vars
            .values()
            .filter(|v| v.storage().is_some_and(|d| seen.insert(Arc::as_ptr(d))))
            .map(HostValue::bytes)
            .sum()
    }

    /// Checks that `bytes` more fit under `--max-memory` with everything else the launch holds,
    /// and that the process can have them now (an allocation refused by the system, under
    /// `ulimit -v` or a container's limit, would abort): the allocator is asked for them first.
    pub fn check_room(&self, bytes: u64, span: Span, what: &str) -> Result<()> {
        self.check_limit(bytes, span, what)?;
        check_alloc(bytes, span, what)
    }

    /// Checks that `bytes` more fit under `--max-memory` with everything else the launch holds.
    pub fn check_limit(&self, bytes: u64, span: Span, what: &str) -> Result<()> {
        let total = self
            .live_bytes()
            .saturating_add(self.temp)
            .saturating_add(bytes);
        if total > self.budget {
            return Err(HostError::MemoryLimit {
                needed: human_bytes(total),
                limit: human_bytes(self.budget),
                span,
                what: format!("{what}: {}", human_bytes(bytes)),
            });
        }
        Ok(())
    }

    /// Makes room for an array of `len` values of `size` bytes made by the current statement.
    fn reserve(&mut self, len: usize, size: u32, span: Span) -> Result<()> {
        let bytes = (len as u64).saturating_mul(u64::from(size));
        self.check_room(bytes, span, "this array")?;
        self.temp += bytes;
        Ok(())
    }

    /// Reads an `.npy` file, once its size is known to fit.
    fn load(&mut self, path: &Path, span: Span) -> Result<HostValue> {
        let file = npy::open(path, span)?;
        // The raw bytes and the elements, each the size of the data.
        let bytes = file.data_bytes().saturating_mul(2);
        self.check_room(bytes, span, "this file")?;
        self.temp += bytes;
        file.read()
    }

    /// `load("x.npy")` in a launch section: relative to the kernel's folder, and inside it.
    fn section_path(&self, p: &str, span: Span) -> Result<PathBuf> {
        let written = Path::new(p);
        let joined = self.dir.join(written);
        if self.allow_paths {
            return Ok(joined);
        }
        let escape = || HostError::PathEscape {
            path: p.to_string(),
            span,
        };
        let leaves = written.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::RootDir | Component::Prefix(_)
            )
        });
        if leaves {
            return Err(escape());
        }
        // A symbolic link inside the folder may still point out of it.
        let dir = if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &self.dir
        };
        if let (Ok(real), Ok(base)) = (joined.canonicalize(), dir.canonicalize()) {
            if !real.starts_with(base) {
                return Err(escape());
            }
        }
        Ok(joined)
    }

    /// The variable a name stands for, or a member of a struct parameter (`p.y`, the parameter
    /// the kernel's `P p` gives each member).
    fn named(&self, e: &Expr) -> Option<&HostValue> {
        match &e.kind {
            ExprKind::Name(n) => self.vars.get(n),
            ExprKind::Member { base, field } => match &base.kind {
                ExprKind::Name(n) => self.vars.get(&format!("{n}.{}", field.name)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The shape `e` would have, if it is an initialiser whose size is cheap to know.
    pub fn shape_of(&mut self, e: &Expr) -> Option<Vec<usize>> {
        match &e.kind {
            ExprKind::Name(_) | ExprKind::Member { .. } => match self.named(e)? {
                HostValue::Array { shape, .. } => Some(shape.clone()),
                _ => None,
            },
            ExprKind::List(items) => Some(vec![items.len()]),
            ExprKind::Call { callee, args, .. } => {
                let name = callee.name.as_str();
                if name == "load" {
                    let ExprKind::Str(p) = &args.first()?.kind else {
                        return None;
                    };
                    let path = self.section_path(p, e.span).ok()?;
                    return npy::open(&path, e.span).ok().map(|f| f.shape);
                }
                let dims = match name {
                    "zeros" | "ones" | "empty" | "rand" => args.len(),
                    "full" | "arange" | "randint" => 1,
                    _ => return None,
                };
                args.get(..dims)?
                    .iter()
                    .map(|a| {
                        let v = self.value(a).ok()?;
                        as_size(&v, a.span).ok()
                    })
                    .collect()
            }
            _ => None,
        }
    }

    fn value(&mut self, e: &Expr) -> Result<HostValue> {
        crate::stack::grow(|| self.value_at(e))
    }

    fn value_at(&mut self, e: &Expr) -> Result<HostValue> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, .. } => {
                // A literal a double cannot hold (2^54 + 1) is refused, never rounded.
                if !exact::holds(*value) {
                    return Err(HostError::InexactInteger {
                        what: format!("the integer {value}"),
                        span,
                    });
                }
                Ok(HostValue::Num {
                    v: *value as f64,
                    float: false,
                })
            }
            ExprKind::Float { value, .. } => Ok(HostValue::Num {
                v: *value,
                float: true,
            }),
            ExprKind::Bool(b) => Ok(HostValue::int(i64::from(*b))),
            ExprKind::Str(s) => Ok(HostValue::Str(s.clone())),
            ExprKind::Name(n) if !self.vars.contains_key(n) && (n == "NULL" || n == "nullptr") => {
                Ok(HostValue::Null)
            }
            ExprKind::Name(n) if !self.vars.contains_key(n) && special_float(n).is_some() => {
                Ok(HostValue::Num {
                    v: special_float(n).expect("matched"),
                    float: true,
                })
            }
            ExprKind::Name(n) if !self.vars.contains_key(n) && self.file_arrays.contains_key(n) => {
                // In its own element type, exactly (a `uint64_t` table past 2^53).
                let (elem, list) = self.file_arrays[n].clone();
                let outer = self.target.replace(elem);
                let v = self.value(&list);
                self.target = outer;
                v
            }
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
                // A `uint3` parameter's may be 0 (`offset = (2, 2, 0);`); a launch shape's
                // may not ([`dim_component`], when `grid` or `block` takes it).
                let mut d = [1u32; 3];
                for (slot, item) in d.iter_mut().zip(items) {
                    let v = self.value(item)?;
                    *slot = match v {
                        HostValue::Num { v: 0.0, float: false } => 0,
                        v => dim_component(&v, item.span)?,
                    };
                }
                Ok(HostValue::Dim(d))
            }
            ExprKind::List(items) => {
                if let Some(table) = self.table(items)? {
                    self.target = None;
                    return Ok(table);
                }
                // A list for a 64-bit integer buffer holds its literals exactly.
                if let Some(elem @ (Scalar::I64 | Scalar::U64)) = self.target.take() {
                    if let Some(v) = self.exact_list(items, elem, span)? {
                        return Ok(v);
                    }
                }
                self.reserve(items.len(), 8, span)?;
                let mut data = Vec::with_capacity(items.len());
                let mut float = false;
                for item in items {
                    match self.value(item)? {
                        HostValue::Num { v, float: f } => {
                            data.push(v);
                            float |= f;
                        }
                        // `[NULL, NULL]` for a `T**`: null pointers, 0.
                        HostValue::Null => data.push(0.0),
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
            ExprKind::Unary {
                op: UnOp::AddrOf,
                operand,
            } => self.address(operand, span),
            ExprKind::Unary { op, operand } => {
                let v = self.value(operand)?;
                self.reserve(v.array_len(), 8, span)?;
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
                    return self.truth(*op, lhs, rhs, *op_span);
                }
                let l = self.value(lhs)?;
                let r = self.value(rhs)?;
                self.reserve(l.array_len().max(r.array_len()), 8, span)?;
                binary(*op, &l, &r, *op_span)
            }
            ExprKind::Member { .. } if self.named(e).is_some() => {
                Ok(self.named(e).expect("checked: named").clone())
            }
            ExprKind::Member { base, field } => match self.value(base)? {
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
                let b = self.value(base)?;
                let i = self.value(index)?;
                // Through a pointer, `p[i]` is element `i` past where it points.
                let (data, float, start) = match b {
                    HostValue::Array { data, float, .. } => (data, float, 0),
                    HostValue::Pointer {
                        data,
                        float,
                        offset,
                        ..
                    } => (data, float, offset),
                    b => {
                        return Err(bad(
                            format!("{} cannot be indexed", b.kind()),
                            base.span,
                            "not an array",
                            None,
                        ))
                    }
                };
                let i = start + as_index(&i, index.span)?;
                // A 64-bit element a double cannot hold is refused, never rounded.
                if let Some(w) = exact::wide_at(&data, i) {
                    if u64::try_from(w.unsigned_abs()).is_ok_and(|m| !exact::holds(m)) {
                        return Err(HostError::InexactInteger {
                            what: format!("element {i}, {w},"),
                            span,
                        });
                    }
                }
                let v = data.get_f64(i).ok_or_else(|| {
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
            ExprKind::Call { callee, targs, .. } if !targs.is_empty() => Err(bad(
                format!("`{}` takes no template arguments in a launch section", callee.name),
                span,
                "template arguments",
                Some("an array takes the element type of the parameter it is given to: write `zeros(n)`, and declare the parameter's type in the kernel"),
            )),
            ExprKind::Call { callee, args, .. } => self.call(&callee.name, callee.span, args, span),
            ExprKind::Ternary { cond, then, els } => {
                let c = self.scalar_truth(cond)?;
                self.value(if c { then } else { els })
            }
            ExprKind::Cast { .. }
            | ExprKind::IncDec { .. }
            | ExprKind::Assign { .. }
            | ExprKind::SizeOfType(_)
            | ExprKind::SizeOfExpr(_)
            | ExprKind::SizeOfPack(_)
            | ExprKind::Pack(_)
            | ExprKind::Lambda(_)
            | ExprKind::New { .. }
            | ExprKind::Designated { .. }
            | ExprKind::Method { .. } => Err(bad(
                "this expression is not available in a launch section",
                span,
                "here",
                None,
            )),
        }
    }

    /// A comparison or `&&`/`||` inside an expression is C's: numbers give 0 or 1, and `&&` and
    /// `||` evaluate their right side only when the left does not decide (as host code sizing a
    /// grid writes `(n % b > 0)`). Arrays compare only at the top of an `expect`.
    fn truth(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, op_span: Span) -> Result<HostValue> {
        let holds = match op {
            BinOp::And => self.scalar_truth(lhs)? && self.scalar_truth(rhs)?,
            BinOp::Or => self.scalar_truth(lhs)? || self.scalar_truth(rhs)?,
            _ => {
                let (l, r) = (self.number(lhs, op_span)?, self.number(rhs, op_span)?);
                match op {
                    BinOp::Lt => l < r,
                    BinOp::Gt => l > r,
                    BinOp::Le => l <= r,
                    BinOp::Ge => l >= r,
                    BinOp::Eq => l == r,
                    _ => l != r,
                }
            }
        };
        Ok(HostValue::int(i64::from(holds)))
    }

    /// A number used as a condition: true when it is not zero.
    fn scalar_truth(&mut self, e: &Expr) -> Result<bool> {
        Ok(self.number(e, e.span)? != 0.0)
    }

    /// `e`'s value, which must be a number (an array compares only at the top of an `expect`).
    fn number(&mut self, e: &Expr, at: Span) -> Result<f64> {
        match self.value(e)? {
            HostValue::Num { v, .. } => Ok(v),
            other => Err(bad(
                format!("a comparison or condition of {} is only allowed at the top of an `expect`", other.kind()),
                at,
                "not a number",
                Some("compare whole arrays with `expect a == b;`; inside an expression, conditions are on numbers"),
            )),
        }
    }

    /// `&a[i]`: a pointer to element `i` of the array named `a`, sharing it (or `i` elements
    /// past where the pointer `a` points). An offset may be one past the end, not beyond.
    fn address(&mut self, operand: &Expr, span: Span) -> Result<HostValue> {
        let ExprKind::Index { base, index } = &operand.kind else {
            return Err(bad(
                "`&` in a launch section takes an element of an array, as in `&d[3]`",
                span,
                "not an array element",
                Some("bind a pointer parameter to a whole array with `p = d;`, or to an element with `p = &d[3];`"),
            ));
        };
        let ExprKind::Name(name) = &base.kind else {
            return Err(bad(
                "`&` in a launch section takes an element of a named array",
                base.span,
                "not a name",
                Some("set the array first, then point into it: `d = arange(n); p = &d[3];`"),
            ));
        };
        let (array, data, start, shape, float, dtype) = match self.value(base)? {
            HostValue::Array {
                data,
                shape,
                float,
                dtype,
            } => (name.clone(), data, 0, shape, float, dtype),
            HostValue::Pointer {
                array,
                data,
                offset,
                shape,
                float,
                dtype,
            } => (array, data, offset, shape, float, dtype),
            other => {
                return Err(HostError::NotAnArray {
                    name: name.clone(),
                    kind: other.kind(),
                    span: base.span,
                })
            }
        };
        let i = match self.value(index)? {
            HostValue::Num { v, .. } if v.fract() == 0.0 => v,
            HostValue::Dim(d) => f64::from(d[0]),
            other => {
                return Err(bad(
                    format!("an offset is a whole number, found {}", describe(&other)),
                    index.span,
                    "not a whole number",
                    None,
                ))
            }
        };
        let at = start as f64 + i;
        if !(0.0..=data.len() as f64).contains(&at) {
            return Err(HostError::OffsetOutOfBounds {
                offset: format!("{at}"),
                array,
                len: data.len(),
                span: index.span,
            });
        }
        Ok(HostValue::Pointer {
            array,
            data,
            offset: at as usize,
            shape,
            float,
            dtype,
        })
    }

    fn call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[Expr],
        span: Span,
    ) -> Result<HostValue> {
        // Only the statement's top call writes the target type; its arguments compute in doubles.
        let target = self.target.take();
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
            let path_buf = self.section_path(p, path.span)?;
            return self.load(&path_buf, path.span);
        }
        if name == "texture" {
            return self.texture(args, span);
        }
        let vals = args
            .iter()
            .map(|a| self.value(a))
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
        // An initialiser at the top of a buffer's assignment writes the buffer's type.
        let elem = target.unwrap_or(Scalar::F64);
        let filled = |dims, f, float| filled(elem, dims, f, float);
        let want = |lo: usize, hi: usize| -> Result<()> {
            if (lo..=hi).contains(&args.len()) {
                Ok(())
            } else {
                let expected = if lo == hi {
                    lo.to_string()
                } else if hi == lo + 1 {
                    format!("{lo} or {hi}")
                } else {
                    format!("{lo} to {hi}")
                };
                Err(arity(name, &expected, args.len(), span))
            }
        };
        let size_of = elem.size();
        match name {
            "zeros" | "ones" | "empty" => {
                want(1, MAX_DIMS)?;
                let v = if name == "ones" { 1.0 } else { 0.0 };
                let dims = shape(args.len())?;
                self.reserve(dims.iter().product(), size_of, span)?;
                let array = filled(dims, Fill::Value(v), false);
                if let (HostValue::Array { data, .. }, "empty") = (&array, name) {
                    // Its zeros stand for leftover memory: reads before a write are reported.
                    self.uninit.push((Arc::downgrade(data), Vec::new()));
                }
                Ok(array)
            }
            "full" => {
                want(2, MAX_DIMS + 1)?;
                let last = args.len() - 1;
                let v = num(last)?;
                let float = vals[last].is_float();
                let dims = shape(last)?;
                self.reserve(dims.iter().product(), size_of, span)?;
                Ok(filled(dims, Fill::Value(v), float))
            }
            "reshape" => {
                want(2, MAX_DIMS + 1)?;
                let dims = (1..args.len()).map(size).collect::<Result<Vec<_>>>()?;
                let HostValue::Array {
                    data, float, dtype, ..
                } = &vals[0]
                else {
                    return Err(bad(
                        format!("`reshape` takes an array, found {}", vals[0].kind()),
                        args[0].span,
                        "not an array",
                        None,
                    ));
                };
                let n: usize = dims.iter().product();
                if n != data.len() {
                    return Err(bad(
                        format!("`reshape` of {} elements to {n}", data.len()),
                        span,
                        "another number of elements",
                        Some("give sizes whose product is the array's length"),
                    ));
                }
                Ok(HostValue::Array {
                    data: Arc::clone(data),
                    shape: dims,
                    float: *float,
                    dtype: *dtype,
                })
            }
            "arange" => {
                want(1, 1)?;
                let dims = shape(1)?;
                self.reserve(dims[0], size_of, span)?;
                Ok(filled(dims, Fill::Index, false))
            }
            "rand" => {
                want(1, MAX_DIMS)?;
                let dims = shape(args.len())?;
                self.reserve(dims.iter().product(), size_of, span)?;
                let draws = self.rng.take(dims.iter().product());
                Ok(filled(dims, Fill::Unit(draws), true))
            }
            "randint" => {
                want(3, 3)?;
                let dims = shape(1)?;
                let (lo, hi) = (num(1)?, num(2)?);
                // `as` saturates: NaN and ranges narrower than one integer give 0.
                let width = (hi - lo) as u64;
                if width == 0 {
                    return Err(bad(
                        "`randint(n, lo, hi)` needs lo < hi, at least 1 apart",
                        span,
                        "empty range",
                        None,
                    ));
                }
                self.reserve(dims[0], size_of, span)?;
                let draws = self.rng.take(dims[0]);
                Ok(filled(dims, Fill::Int { draws, lo, width }, false))
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
                self.reserve(v.array_len(), 8, span)?;
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
                        let data = data.as_f64();
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
                let (data, float) = flat(&vals[0], r * c, args[0].span)?;
                self.reserve(r * c, 8, span)?;
                // Row by row, so that a typed buffer is not widened to doubles as a whole.
                let mut out = vec![0.0; r * c];
                let mut row = vec![0.0; c];
                for i in 0..r {
                    data.read_f64(i * c, &mut row);
                    for (j, &x) in row.iter().enumerate() {
                        out[j * r + i] = x;
                    }
                }
                Ok(HostValue::array(out, float))
            }
            "matmul" => {
                want(5, 5)?;
                let (m, k, n) = (size(2)?, size(3)?, size(4)?);
                let ops = (m as u64).saturating_mul(k as u64).saturating_mul(n as u64);
                if ops > self.max_ops {
                    return Err(HostError::WorkLimit {
                        what: format!("matmul(…, {m}, {k}, {n})"),
                        ops,
                        limit: self.max_ops,
                        span,
                    });
                }
                let (a, fa) = flat(&vals[0], m * k, args[0].span)?;
                let (b, fb) = flat(&vals[1], k * n, args[1].span)?;
                let (a, b) = (a.as_f64(), b.as_f64());
                self.reserve(m.saturating_mul(n), 8, span)?;
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

    /// Checks `expect lhs op rhs;` (or a truth value); `Err` for an expression that cannot be evaluated.
    pub fn expect(&mut self, e: &Expr) -> Result<std::result::Result<(), String>> {
        self.statement(|env| env.check(e))
    }

    /// `e` as a [`Fused`] side of an `expect`, where it is elementwise arithmetic on the
    /// arrays and numbers the launch section names and `arange(n)`; `None` for anything else
    /// (computed the ordinary way), and for what the ordinary way would refuse or must check
    /// first (arrays of different lengths, an integer `/` or `%`, which refuses a zero divisor).
    fn fused(&mut self, e: &Expr) -> Result<Option<FusedSide>> {
        let side = |expr, len, float| FusedSide {
            expr,
            len,
            float,
            elem: None,
        };
        Ok(match &e.kind {
            ExprKind::Int { .. } | ExprKind::Float { .. } => match self.value(e)? {
                HostValue::Num { v, float } => Some(side(Fused::Number(v), None, float)),
                _ => None,
            },
            ExprKind::Name(_) | ExprKind::Member { .. } => match self.named(e) {
                Some(HostValue::Num { v, float }) => Some(side(Fused::Number(*v), None, *float)),
                Some(HostValue::Array { data, float, .. }) => Some(FusedSide {
                    expr: Fused::Array(Arc::clone(data)),
                    len: Some(data.len()),
                    float: *float,
                    elem: Some(data.elem()),
                }),
                _ => None,
            },
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } => self
                .fused(operand)?
                .map(|a| side(Fused::Neg(Box::new(a.expr)), a.len, a.float)),
            ExprKind::Binary { op, lhs, rhs, .. }
                if !op.is_comparison() && !matches!(op, BinOp::And | BinOp::Or) =>
            {
                let (Some(a), Some(b)) = (self.fused(lhs)?, self.fused(rhs)?) else {
                    return Ok(None);
                };
                let float = a.float || b.float;
                let same_len = match (a.len, b.len) {
                    (Some(x), Some(y)) => x == y,
                    _ => true,
                };
                if !same_len || (!float && matches!(op, BinOp::Div | BinOp::Rem)) {
                    return Ok(None);
                }
                let len = a.len.or(b.len);
                Some(side(
                    Fused::Binary(*op, Box::new(a.expr), Box::new(b.expr), float),
                    len,
                    float,
                ))
            }
            // `transpose(a, rows, cols)` of a named array of `rows × cols` elements.
            ExprKind::Call { callee, args, .. }
                if callee.name == "transpose" && args.len() == 3 =>
            {
                let ExprKind::Name(n) = &args[0].kind else {
                    return Ok(None);
                };
                let Some(HostValue::Array { data, float, .. }) = self.vars.get(n).cloned() else {
                    return Ok(None);
                };
                let r = self.value(&args[1])?;
                let c = self.value(&args[2])?;
                let (r, c) = (as_size(&r, args[1].span)?, as_size(&c, args[2].span)?);
                if r.checked_mul(c) != Some(data.len()) || r == 0 {
                    return Ok(None);
                }
                Some(side(Fused::Transpose(data, r, c), Some(r * c), float))
            }
            ExprKind::Call { callee, args, .. } if callee.name == "arange" && args.len() == 1 => {
                let n = self.value(&args[0])?;
                let n = as_size(&n, args[0].span)?;
                Some(side(Fused::Index, Some(n), false))
            }
            _ => None,
        })
    }

    /// Whether `e` involves what doubles may not hold exactly: a 64-bit integer array, an
    /// integer literal or number of 2^53 or more.
    fn wants_exact(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int { value, .. } => exact::beyond(*value as f64),
            ExprKind::Name(_) | ExprKind::Member { .. } => match self.named(e) {
                Some(HostValue::Num { v, float: false }) => exact::beyond(*v),
                Some(HostValue::Array { data, .. }) => exact::is_wide(data),
                _ => false,
            },
            ExprKind::Unary { operand, .. } => self.wants_exact(operand),
            ExprKind::Binary { lhs, rhs, .. } => self.wants_exact(lhs) || self.wants_exact(rhs),
            ExprKind::List(items) => items.iter().any(|i| self.wants_exact(i)),
            ExprKind::Index { base, index } => self.wants_exact(base) || self.wants_exact(index),
            ExprKind::Call { args, .. } => args.iter().any(|a| self.wants_exact(a)),
            _ => false,
        }
    }

    /// `e` computed exactly in 128-bit integers, where it is integer arithmetic on integer
    /// literals, integer arrays and numbers, list literals, `a[i]`, `arange(n)` and `load` of
    /// integers; `None` for
    /// anything else, and where it cannot be exact (overflow, a zero divisor): the ordinary way
    /// computes it, or says why not.
    fn exact(&mut self, e: &Expr) -> Result<Option<ExactSide>> {
        Ok(match &e.kind {
            ExprKind::Int { value, .. } => Some(ExactSide::number(i128::from(*value))),
            ExprKind::Bool(b) => Some(ExactSide::number(i128::from(*b))),
            ExprKind::Name(n) if self.wide.contains_key(n) => Some(ExactSide::number(self.wide[n])),
            ExprKind::Name(_) | ExprKind::Member { .. } => match self.named(e) {
                Some(HostValue::Num { v, float: false }) if !exact::beyond(*v) => {
                    Some(ExactSide::number(*v as i128))
                }
                Some(HostValue::Array {
                    data, float: false, ..
                }) => exact::ints(data).map(|vals| ExactSide {
                    vals,
                    scalar: false,
                }),
                _ => None,
            },
            ExprKind::List(items) => self.exact_items(items)?.map(|vals| ExactSide {
                vals,
                scalar: false,
            }),
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } => self.exact(operand)?.and_then(ExactSide::neg),
            ExprKind::Unary {
                op: UnOp::Plus,
                operand,
            } => self.exact(operand)?,
            ExprKind::Binary { op, lhs, rhs, .. } if !op.is_comparison() => {
                match (self.exact(lhs)?, self.exact(rhs)?) {
                    (Some(a), Some(b)) => a.binary(*op, b),
                    _ => None,
                }
            }
            ExprKind::Index { base, index } => {
                let Some(HostValue::Array {
                    data, float: false, ..
                }) = self.named(base).cloned()
                else {
                    return Ok(None);
                };
                let i = self.value(index)?;
                let i = as_index(&i, index.span)?;
                match exact::ints(&data) {
                    Some(v) if i < v.len() => Some(ExactSide::number(v[i])),
                    _ => None,
                }
            }
            ExprKind::Call { callee, args, .. } if callee.name == "arange" && args.len() == 1 => {
                let n = self.value(&args[0])?;
                let n = as_size(&n, args[0].span)?;
                Some(ExactSide {
                    vals: (0..n as i128).collect(),
                    scalar: false,
                })
            }
            // `load("x.npy")`: exact where the file holds integers.
            ExprKind::Call { callee, .. } if callee.name == "load" => match self.value(e)? {
                HostValue::Num { v, float: false } if !exact::beyond(v) => {
                    Some(ExactSide::number(v as i128))
                }
                HostValue::Array {
                    data, float: false, ..
                } => exact::ints(&data).map(|vals| ExactSide {
                    vals,
                    scalar: false,
                }),
                _ => None,
            },
            _ => None,
        })
    }

    /// `[…]` of integer literals for a buffer of 64-bit integers, held exactly; `None` when an
    /// item is not an integer literal (the list is computed the ordinary way).
    /// A list's items as exact integers, if each is one.
    fn exact_items(&mut self, items: &[Expr]) -> Result<Option<Vec<i128>>> {
        let mut vals = Vec::with_capacity(items.len());
        for item in items {
            match self.exact(item)? {
                Some(ExactSide {
                    vals: v,
                    scalar: true,
                }) => vals.push(v[0]),
                _ => return Ok(None),
            }
        }
        Ok(Some(vals))
    }

    /// `[a, &b[2], NULL]`: a table of pointers into arrays, for a `T**` parameter; None where
    /// no item is an array or a pointer (a list of numbers written with names).
    fn table(&mut self, items: &[Expr]) -> Result<Option<HostValue>> {
        // Decided without evaluating anything (a `rand` item draws once).
        let names_array = |item: &Expr| match &item.kind {
            ExprKind::Name(n) => matches!(
                self.vars.get(n),
                Some(HostValue::Array { .. } | HostValue::Pointer { .. })
            ),
            ExprKind::Unary {
                op: UnOp::AddrOf, ..
            } => true,
            _ => false,
        };
        if !items.iter().any(names_array) {
            return Ok(None);
        }
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            values.push(self.value(item)?);
        }
        let mut entries = Vec::with_capacity(items.len());
        for (item, v) in items.iter().zip(values) {
            let name = match (&item.kind, &v) {
                (_, HostValue::Pointer { array, .. }) => array.clone(),
                (ExprKind::Name(n), _) => n.clone(),
                (_, HostValue::Array { .. }) => {
                    // Reports and `expect`s name an entry's array by its name.
                    return Err(bad(
                        "a table's array has no name",
                        item.span,
                        "an unnamed array",
                        Some("name it first (`e1 = ones(8); planes = [a, e1];`), so that expects and reports can name it"),
                    ));
                }
                _ => "NULL".into(),
            };
            match v {
                HostValue::Array { .. } | HostValue::Pointer { .. } | HostValue::Null => {
                    entries.push((name, v))
                }
                HostValue::Num { v: 0.0, .. } => entries.push((name, HostValue::Null)),
                other => {
                    return Err(bad(
                        format!(
                            "a table of pointers holds arrays, `&a[i]` and NULL, found {}",
                            other.kind()
                        ),
                        item.span,
                        "not an array",
                        Some(
                            "name an array of the launch section, or an element of one as `&a[i]`",
                        ),
                    ))
                }
            }
        }
        Ok(Some(HostValue::Table(entries)))
    }

    fn exact_list(
        &mut self,
        items: &[Expr],
        elem: Scalar,
        span: Span,
    ) -> Result<Option<HostValue>> {
        let Some(vals) = self.exact_items(items)? else {
            return Ok(None);
        };
        self.reserve(items.len(), 8, span)?;
        let data = if elem == Scalar::I64 {
            // C's conversion: modulo 2^64.
            BufData::I64(vals.iter().map(|&v| v as i64).collect())
        } else {
            BufData::U64(vals.iter().map(|&v| v as u64).collect())
        };
        Ok(Some(HostValue::Array {
            data: Arc::new(data),
            shape: vec![items.len()],
            float: false,
            dtype: None,
        }))
    }

    fn check(&mut self, e: &Expr) -> Result<std::result::Result<(), String>> {
        if let ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } = &e.kind
        {
            if op.is_comparison() {
                // 64-bit integers beyond 2^53 are compared in 128-bit integers.
                if self.wants_exact(lhs) || self.wants_exact(rhs) {
                    if let (Some(l), Some(r)) = (self.exact(lhs)?, self.exact(rhs)?) {
                        return Ok(exact::compare(*op, &l, &r));
                    }
                }
                // Elementwise arithmetic on whole arrays is compared a chunk at a time, without
                // making its result (`c == a + b`, `y == 2 * arange(n) + 1`).
                if let (Some(l), Some(r)) = (self.fused(lhs)?, self.fused(rhs)?) {
                    if l.len.is_some() || r.len.is_some() {
                        return l.compare(*op, &r, *op_span);
                    }
                }
                let l = self.value(lhs)?;
                let r = self.value(rhs)?;
                return compare(*op, &l, &r, *op_span);
            }
        }
        let v = self.value(e)?;
        let data = elements(&v, e.span)?;
        Ok(match data.iter().position(|&x| x == 0.0) {
            None => Ok(()),
            Some(i) => Err(format!("element {i} is zero")),
        })
    }
}

/// One side of an `expect` as a [`Fused`] expression.
struct FusedSide {
    expr: Fused,
    /// Its length; `None` for a number.
    len: Option<usize>,
    /// Whether it is floating-point (decides `/` and the tolerance).
    float: bool,
    /// The element type of a side that is one array as it is.
    elem: Option<crate::value::Scalar>,
}

impl FusedSide {
    /// `self op other`, as `compare` would find it.
    fn compare(
        self,
        op: BinOp,
        other: &FusedSide,
        span: Span,
    ) -> Result<std::result::Result<(), String>> {
        let tol = Tolerance::for_sides([self.elem, other.elem], self.float || other.float);
        compare_operands(op, self.operand(), other.operand(), tol, span)
    }

    /// The side as an operand: a number, or an array of one element, stands for every element.
    fn operand(&self) -> Operand<'_> {
        match (self.len, &self.expr) {
            (None, Fused::Number(v)) => Operand::Number(*v),
            (Some(1), e) => {
                let mut x = [0.0];
                e.read(0, &mut x);
                Operand::Number(x[0])
            }
            (len, e) => Operand::Fused(e, len.unwrap_or(1)),
        }
    }
}

/// An array of `len` elements, and whether it is floating-point.
fn flat(v: &HostValue, len: usize, span: Span) -> Result<(&BufData, bool)> {
    match v {
        HostValue::Array { data, float, .. } if data.len() == len => Ok((data, *float)),
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

fn elements(v: &HostValue, span: Span) -> Result<Cow<'_, [f64]>> {
    match v {
        HostValue::Num { v, .. } => Ok(Cow::Owned(vec![*v])),
        HostValue::Array { data, .. } => Ok(data.as_f64()),
        other => Err(bad(
            format!("cannot compare {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

/// The launch section's names of the special floats: numpy's `inf` and `nan`, C's `INFINITY`
/// and `NAN`.
fn special_float(name: &str) -> Option<f64> {
    match name {
        "inf" | "INFINITY" => Some(f64::INFINITY),
        "nan" | "NAN" => Some(f64::NAN),
        _ => None,
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

/// `4294967296` → `4.0 GiB (4294967296 bytes)`.
pub(crate) fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if b < 1024 {
        return format!("{b} bytes");
    }
    let mut v = b as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {} ({b} bytes)", UNITS[unit])
}

/// Asks the allocator for `bytes` and gives them back: an error naming `what` when the process
/// cannot have them (so that the allocation that follows does not abort).
pub fn check_alloc(bytes: u64, span: Span, what: &str) -> Result<()> {
    let refused = || HostError::OutOfMemory {
        bytes: human_bytes(bytes),
        what: what.to_string(),
        span,
    };
    let n = usize::try_from(bytes).map_err(|_| refused())?;
    Vec::<u8>::new().try_reserve_exact(n).map_err(|_| refused())
}

/// What an initialiser writes into element `i`.
#[derive(Clone, Copy)]
enum Fill {
    /// One value everywhere (`zeros`, `ones`, `full`, `empty`).
    Value(f64),
    /// The index (`arange`).
    Index,
    /// Uniform in [0, 1) (`rand`).
    Unit(Draws),
    /// Uniform integers from `lo` (`randint`).
    Int { draws: Draws, lo: f64, width: u64 },
}

/// An array of `dims` of `elem`, written by `fill` (each variant its own loop: no call per
/// element).
fn filled(elem: Scalar, dims: Vec<usize>, fill: Fill, float: bool) -> HostValue {
    let n = dims.iter().product();
    let data = match fill {
        // All bits zero (not -0.0): zeroed memory, which the allocator hands out without
        // writing it.
        Fill::Value(v) if v.to_bits() == 0 => BufData::zeros(elem, n),
        Fill::Value(v) => BufData::from_fn(elem, n, |_| v),
        Fill::Index => BufData::from_fn(elem, n, |i| i as f64),
        Fill::Unit(d) => BufData::from_fn(elem, n, |i| d.unit(i)),
        Fill::Int { draws, lo, width } => {
            BufData::from_fn(elem, n, |i| lo + (draws.bits(i) % width) as f64)
        }
    };
    HostValue::Array {
        data: Arc::new(data),
        shape: dims,
        float,
        dtype: None,
    }
}
