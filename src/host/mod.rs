//! Launch setup: runs a kernel's `launch` section and `--arg`s into a grid, a block and bound arguments.

mod elementwise;
mod error;
mod eval;
mod npy;
mod value;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::HostError;
pub use eval::Env;
pub use npy::save;
pub use value::HostValue;

use crate::check::typed::{Kernel, ParamKind};
use crate::exec::{Args, BufData, Buffer};
use crate::source::Span;
use crate::syntax::ast::{Expr, HostStmt, Launch};
use crate::value::{Scalar, Value};

/// A value given on the command line.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// `--arg n=4096`, `--arg a=rand(16)`: an expression in the launch-section language.
    Expr(Expr),
    /// `--arg a=@input.npy`: a file, relative to the working directory.
    File(PathBuf),
}

/// Command-line settings that override the launch section, and its limits.
#[derive(Clone, Debug)]
pub struct Overrides {
    /// `--arg NAME=VALUE` in order, with the position of each among the `--arg`s.
    pub args: Vec<(String, ArgValue, usize)>,
    /// `--grid`.
    pub grid: Option<[u32; 3]>,
    /// `--block`.
    pub block: Option<[u32; 3]>,
    /// `--seed` for `rand`/`randint`.
    pub seed: u64,
    /// `--max-memory`: bytes the launch's arrays, buffers and block state may use together.
    pub max_memory: u64,
    /// `--allow-paths`: `load` may read outside the kernel's folder.
    pub allow_paths: bool,
}

/// The default `--max-memory`: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

impl Default for Overrides {
    fn default() -> Overrides {
        Overrides {
            args: Vec::new(),
            grid: None,
            block: None,
            seed: 0,
            max_memory: DEFAULT_MAX_MEMORY,
            allow_paths: false,
        }
    }
}

/// Where a setup error's span points: the kernel file, or the text of one `--arg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The `.sk` file.
    File,
    /// The `n`-th `--arg`.
    Arg(usize),
    /// A command-line flag without source text.
    Flag,
}

/// A launch ready to run.
#[derive(Debug)]
pub struct Setup {
    /// `gridDim`.
    pub grid: [u32; 3],
    /// `blockDim`.
    pub block: [u32; 3],
    /// Bound parameters.
    pub args: Args,
    /// Shape of each buffer parameter (for `--save`).
    pub shapes: Vec<Vec<usize>>,
    /// Host variables, for the `expect`s after the run.
    pub env: Env,
    /// `expect` statements, in order.
    pub expects: Vec<Expr>,
}

/// The outcome of one `expect`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ExpectResult {
    /// The expression as written.
    pub text: String,
    /// Whether it held.
    pub passed: bool,
    /// Why not, if it failed.
    pub detail: Option<String>,
    /// Where it is written.
    #[serde(skip)]
    pub span: Span,
}

/// CUDA's launch limits (CUDA C++ Programming Guide, Table 27).
const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
const MAX_GRID: [u32; 3] = [i32::MAX as u32, 65535, 65535];

type Failure = (HostError, Origin);

/// Runs the launch section (with overrides) and binds every kernel parameter.
pub fn prepare(
    kernel: &Kernel,
    launch: Option<&Launch>,
    ov: &Overrides,
    dir: &Path,
) -> Result<Setup, Failure> {
    let mut env = Env::new(ov, dir.to_path_buf());
    if let Some(b) = ov.block {
        env.vars.insert("block".into(), HostValue::Dim(b));
    }
    if let Some(g) = ov.grid {
        env.vars.insert("grid".into(), HostValue::Dim(g));
    }
    let assigned: Vec<&str> = launch
        .map(|l| {
            l.stmts
                .iter()
                .filter_map(|s| match s {
                    HostStmt::Assign { name, .. } => Some(name.name.as_str()),
                    HostStmt::Expect(_) => None,
                })
                .collect()
        })
        .unwrap_or_default();
    // Overrides of names the section never sets are known from the start.
    for (name, value, i) in &ov.args {
        if !assigned.contains(&name.as_str()) {
            let v = eval_arg(&mut env, value, *i)?;
            same_dtype(kernel, name, &v, value_span(value)).map_err(|e| (e, Origin::Arg(*i)))?;
            let v = typed(&env, kernel, name, v, value_span(value))
                .map_err(|e| (e, Origin::Arg(*i)))?;
            env.vars.insert(name.clone(), v);
        }
    }
    let mut expects = Vec::new();
    let mut shape_spans = (Span::default(), Span::default());
    for stmt in launch.map(|l| l.stmts.as_slice()).unwrap_or_default() {
        match stmt {
            HostStmt::Assign { name, value } => {
                let is_shape = matches!(name.name.as_str(), "grid" | "block");
                if is_shape && env.vars.contains_key(&name.name) && overridden_shape(ov, &name.name)
                {
                    continue;
                }
                let v = match ov.args.iter().rev().find(|(n, _, _)| *n == name.name) {
                    Some((_, arg, i)) => {
                        let v = eval_arg(&mut env, arg, *i)?;
                        same_shape(&mut env, &name.name, &v, value, arg)
                            .and_then(|()| same_dtype(kernel, &name.name, &v, value_span(arg)))
                            .map_err(|e| (e, Origin::Arg(*i)))?;
                        v
                    }
                    None => {
                        let v = env.eval(value).map_err(|e| (e, Origin::File))?;
                        same_dtype(kernel, &name.name, &v, value.span)
                            .map_err(|e| (e, Origin::File))?;
                        v
                    }
                };
                let v = if is_shape {
                    if name.name == "grid" {
                        shape_spans.0 = value.span;
                    } else {
                        shape_spans.1 = value.span;
                    }
                    HostValue::Dim(to_dim(&v, value.span).map_err(|e| (e, Origin::File))?)
                } else {
                    typed(&env, kernel, &name.name, v, value.span).map_err(|e| (e, Origin::File))?
                };
                env.vars.insert(name.name.clone(), v);
            }
            HostStmt::Expect(e) => expects.push(e.clone()),
        }
    }
    let dim = |env: &Env, which: &str, span: Span| -> Result<[u32; 3], Failure> {
        match env.vars.get(which) {
            Some(v) => to_dim(v, span).map_err(|e| (e, Origin::File)),
            None => Err((
                HostError::LaunchShape {
                    message: format!("no {which} size"),
                    span,
                    help: Some(format!(
                        "pass --{which} X[,Y[,Z]] or set `{which} = ...;` in the kernel's launch section"
                    )),
                },
                Origin::Flag,
            )),
        }
    };
    let block = dim(&env, "block", shape_spans.1)?;
    let grid = dim(&env, "grid", shape_spans.0)?;
    check_shape(block, grid, shape_spans)?;
    // The buffers move into `args`; `check_expects` binds their final contents again.
    let (args, shapes) = bind(kernel, &mut env, launch.map(|l| l.span))?;
    Ok(Setup {
        grid,
        block,
        args,
        shapes,
        env,
        expects,
    })
}

/// `v` in the element type of the buffer parameter `name`, if it is one: the launch holds each
/// buffer once, at its own size (a `float` buffer of 2^22 elements is 16 MiB, not 32 as doubles).
fn typed(
    env: &Env,
    kernel: &Kernel,
    name: &str,
    v: HostValue,
    span: Span,
) -> Result<HostValue, HostError> {
    let elem = kernel.params.iter().find_map(|p| match p.kind {
        ParamKind::Buffer { elem, .. } if p.name == name => Some(elem),
        _ => None,
    });
    match (elem, v) {
        (
            Some(elem),
            HostValue::Array {
                data,
                shape,
                float,
                dtype,
            },
        ) if data.elem() != elem => {
            // The array is not bound yet: it, the copy in the buffer's type, and (from another
            // type than doubles) the doubles in between must fit together.
            let n = data.len() as u64;
            let widened = if data.elem() == Scalar::F64 { 0 } else { 8 * n };
            let bytes = n * u64::from(data.elem().size()) + widened + n * u64::from(elem.size());
            env.check_room(bytes, span, "this array and its copy in the buffer's type")?;
            Ok(HostValue::Array {
                data: Arc::new(BufData::from_f64(elem, &data.as_f64())),
                shape,
                float,
                dtype,
            })
        }
        (_, v) => Ok(v),
    }
}

fn overridden_shape(ov: &Overrides, name: &str) -> bool {
    if name == "grid" {
        ov.grid.is_some()
    } else {
        ov.block.is_some()
    }
}

fn eval_arg(env: &mut Env, value: &ArgValue, i: usize) -> Result<HostValue, Failure> {
    match value {
        ArgValue::Expr(e) => env.eval(e),
        ArgValue::File(p) => env.load_arg(p, value_span(value)),
    }
    .map_err(|err| (err, Origin::Arg(i)))
}

/// The span of an `--arg` value inside its own text (a `@file` with its `@`).
fn value_span(value: &ArgValue) -> Span {
    match value {
        ArgValue::Expr(e) => e.span,
        ArgValue::File(p) => Span::new(0, p.as_os_str().len() + 1),
    }
}

/// A buffer parameter given the contents of an `.npy` file must have the file's element type.
fn same_dtype(kernel: &Kernel, name: &str, v: &HostValue, span: Span) -> Result<(), HostError> {
    let Some(p) = kernel.params.iter().find(|p| p.name == name) else {
        return Ok(());
    };
    match (p.kind, v) {
        (
            ParamKind::Buffer { elem, .. },
            HostValue::Array {
                dtype: Some(found), ..
            },
        ) if *found != elem => Err(HostError::DtypeMismatch {
            param: name.to_string(),
            elem,
            found: *found,
            numpy: found.numpy_name(),
            want: elem.numpy_name(),
            span,
        }),
        _ => Ok(()),
    }
}

/// An array given with `--arg` in place of one the launch section makes must have its shape.
fn same_shape(
    env: &mut Env,
    name: &str,
    given: &HostValue,
    section: &Expr,
    arg: &ArgValue,
) -> Result<(), HostError> {
    let HostValue::Array { shape, .. } = given else {
        return Ok(());
    };
    match env.shape_of(section) {
        Some(expected) if expected != *shape => {
            let expected = npy::show_shape(&expected);
            Err(HostError::ShapeMismatch {
                name: name.to_string(),
                found: npy::show_shape(shape),
                expected,
                span: value_span(arg),
            })
        }
        _ => Ok(()),
    }
}

fn to_dim(v: &HostValue, span: Span) -> Result<[u32; 3], HostError> {
    match v {
        HostValue::Dim(d) => Ok(*d),
        other => Ok([eval::dim_component(other, span)?, 1, 1]),
    }
}

fn check_shape(block: [u32; 3], grid: [u32; 3], spans: (Span, Span)) -> Result<(), Failure> {
    let origin = |s: Span| {
        if s == Span::default() {
            Origin::Flag
        } else {
            Origin::File
        }
    };
    let threads: u64 = block.iter().map(|&d| u64::from(d)).product();
    let axes = ["x", "y", "z"];
    for i in 0..3 {
        if block[i] > MAX_BLOCK[i] {
            return Err((
                HostError::LaunchShape {
                    message: format!(
                        "block.{} = {} exceeds CUDA's limit of {}",
                        axes[i], block[i], MAX_BLOCK[i]
                    ),
                    span: spans.1,
                    help: None,
                },
                origin(spans.1),
            ));
        }
        if grid[i] > MAX_GRID[i] {
            return Err((
                HostError::LaunchShape {
                    message: format!(
                        "grid.{} = {} exceeds CUDA's limit of {}",
                        axes[i], grid[i], MAX_GRID[i]
                    ),
                    span: spans.0,
                    help: None,
                },
                origin(spans.0),
            ));
        }
    }
    if threads > 1024 {
        return Err((
            HostError::LaunchShape {
                message: format!("{threads} threads per block exceeds CUDA's limit of 1024"),
                span: spans.1,
                help: Some("use fewer threads per block and more blocks".into()),
            },
            origin(spans.1),
        ));
    }
    Ok(())
}

/// Binds every parameter from the environment; reports all missing ones at once.
fn bind(
    kernel: &Kernel,
    env: &mut Env,
    launch_span: Option<Span>,
) -> Result<(Args, Vec<Vec<usize>>), Failure> {
    let n = kernel.params.len();
    let mut args = Args {
        scalars: vec![None; n],
        buffers: vec![None; n],
    };
    let mut shapes = vec![Vec::new(); n];
    let mut missing = Vec::new();
    let span = launch_span.unwrap_or(kernel.span);
    let origin = if launch_span.is_some() {
        Origin::File
    } else {
        Origin::Flag
    };
    let mismatch = |message: String| {
        (
            HostError::BadValue {
                message,
                span,
                label: "bound here".into(),
                help: None,
            },
            origin,
        )
    };
    // Buffers' arrays are in their parameter's type since `typed` (assignment): they move.
    let mut moved = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        let Some(v) = env.vars.get(&p.name) else {
            missing.push(p.name.clone());
            continue;
        };
        match (p.kind, v) {
            (ParamKind::Scalar { ty, .. }, HostValue::Num { v, .. }) => {
                if ty.is_integer() && v.fract() != 0.0 {
                    return Err(mismatch(format!(
                        "`{}` is `{}` but its value is {v}",
                        p.name, ty
                    )));
                }
                args.scalars[i] = Some(Value::F64(*v).cast(ty));
            }
            (ParamKind::Scalar { ty, .. }, HostValue::Dim(d)) => {
                args.scalars[i] = Some(Value::U32(d[0]).cast(ty));
            }
            (ParamKind::Buffer { width, .. }, HostValue::Array { data, .. })
                if data.len() % width as usize != 0 =>
            {
                return Err(mismatch(format!(
                    "`{}` is `{}` but its {} values are not a whole number of {}-component vectors",
                    p.name,
                    p.kind.describe(),
                    data.len(),
                    width
                )));
            }
            (ParamKind::Buffer { elem, .. }, HostValue::Array { data, .. })
                if data.elem() == elem =>
            {
                moved.push(i)
            }
            (kind, v) => {
                return Err(mismatch(format!(
                    "`{}` is `{}` but was given {}",
                    p.name,
                    kind.describe(),
                    v.kind()
                )))
            }
        }
    }
    if !missing.is_empty() {
        let signature = kernel
            .params
            .iter()
            .map(|p| format!("{} {}", p.kind.describe(), p.name))
            .collect::<Vec<_>>()
            .join(", ");
        let example = kernel
            .params
            .iter()
            .filter(|p| missing.contains(&p.name))
            .map(|p| match p.kind {
                ParamKind::Scalar { .. } => format!("--arg {}=1024", p.name),
                ParamKind::Buffer { .. } => format!("--arg {}=zeros(1024)", p.name),
            })
            .collect::<Vec<_>>()
            .join(" ");
        return Err((
            HostError::MissingArguments {
                missing: missing.join(", "),
                span: kernel.span,
                kernel: kernel.name.clone(),
                signature,
                help: format!(
                    "give them with --arg, e.g. {example}, or in a `launch {}` section",
                    kernel.name
                ),
            },
            Origin::File,
        ));
    }
    for i in moved {
        let name = &kernel.params[i].name;
        let Some(HostValue::Array { data, shape, .. }) = env.vars.remove(name) else {
            unreachable!("bind: `{name}` was an array above");
        };
        // Two names for one array (`b = a;`) are two buffers.
        let data = Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone());
        args.buffers[i] = Some(Buffer {
            name: name.clone(),
            data,
        });
        shapes[i] = shape;
    }
    Ok((args, shapes))
}

/// Evaluates the `expect`s after the run, with each buffer parameter bound to its final contents
/// (lent to the host names for the duration, not copied).
pub fn check_expects(
    setup: &mut Setup,
    kernel: &Kernel,
    src: &crate::source::SourceFile,
) -> Result<Vec<ExpectResult>, HostError> {
    let mut lent = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        if let Some(buf) = &mut setup.args.buffers[i] {
            let data = Arc::new(std::mem::replace(&mut buf.data, BufData::F64(Vec::new())));
            let float = matches!(data.elem(), Scalar::F32 | Scalar::F64);
            setup.env.vars.insert(
                p.name.clone(),
                HostValue::Array {
                    data: Arc::clone(&data),
                    shape: setup.shapes[i].clone(),
                    float,
                    dtype: None,
                },
            );
            lent.push((i, data));
        }
    }
    let results = setup
        .expects
        .iter()
        .map(|e| {
            let result = setup.env.expect(e)?;
            Ok(ExpectResult {
                text: src
                    .slice(e.span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                passed: result.is_ok(),
                detail: result.err(),
                span: e.span,
            })
        })
        .collect();
    for (i, data) in lent {
        setup.env.vars.remove(&kernel.params[i].name);
        if let Some(buf) = &mut setup.args.buffers[i] {
            buf.data = Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone());
        }
    }
    results
}
