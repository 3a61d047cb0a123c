//! Launch setup: runs a kernel's `launch` section and `--arg`s into a grid, a block and bound arguments.

mod elementwise;
mod error;
mod eval;
mod exact;
mod npy;
pub mod sequence;
mod value;

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::HostError;
pub use eval::{check_alloc, Env};
pub use npy::save;
pub use value::HostValue;

use crate::check::struct_image::StructImage;
use crate::check::typed::{Kernel, Param, ParamKind};
use crate::exec::{Args, BufData, Buffer, Pointer};
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
    /// A value a library caller made (the Python module's numpy arrays and numbers). An array
    /// with a `dtype` must have its parameter's element type, as an `.npy` file must.
    Value(HostValue),
}

/// One `--arg NAME=VALUE` (or a front end's equivalent), parsed once: the name, the value, and the
/// text a diagnostic about the value points into.
#[derive(Clone, Debug)]
pub struct ArgOverride {
    /// The parameter or host variable it sets.
    pub name: String,
    /// The value.
    pub value: ArgValue,
    /// The value's text.
    pub text: String,
    /// What a diagnostic calls that text (`--arg rand(n)`; the Python module's `args["a"]`).
    pub label: String,
}

impl ArgOverride {
    /// `--arg NAME=TEXT`, whose value `value` was read from `text`.
    pub fn flag(name: impl Into<String>, value: ArgValue, text: impl Into<String>) -> ArgOverride {
        let text = text.into();
        ArgOverride {
            name: name.into(),
            value,
            label: format!("--arg {text}"),
            text,
        }
    }
}

/// Command-line settings that override the launch section, and its limits.
#[derive(Clone, Debug)]
pub struct Overrides {
    /// `--arg NAME=VALUE` in order (a later one for the same name wins).
    pub args: Vec<ArgOverride>,
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
    /// `--max-steps`, which also bounds the launch section's superlinear work (`matmul`).
    pub max_steps: u64,
}

/// The most `--max-memory` is by default: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The default `--max-memory`: the smaller of 4 GiB and half the memory this machine (or the
/// container it runs in) has available now, read once from `/proc/meminfo` and the cgroup.
pub fn default_max_memory() -> u64 {
    static DEFAULT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let meminfo = read("/proc/meminfo");
        let cgroup = read("/sys/fs/cgroup/memory.max")
            .or_else(|| read("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
        let used = read("/sys/fs/cgroup/memory.current")
            .or_else(|| read("/sys/fs/cgroup/memory/memory.usage_in_bytes"));
        max_memory_for(meminfo.as_deref(), cgroup.as_deref(), used.as_deref())
    })
}

/// [`default_max_memory`] from the text of `/proc/meminfo`, the cgroup's limit and its usage.
fn max_memory_for(meminfo: Option<&str>, limit: Option<&str>, used: Option<&str>) -> u64 {
    let available = meminfo.and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    let number = |t: Option<&str>| t.and_then(|t| t.trim().parse::<u64>().ok());
    let in_cgroup = number(limit).map(|l| l.saturating_sub(number(used).unwrap_or(0)));
    [available, in_cgroup]
        .into_iter()
        .flatten()
        .min()
        .map_or(DEFAULT_MAX_MEMORY, |a| (a / 2).min(DEFAULT_MAX_MEMORY))
}

impl Default for Overrides {
    fn default() -> Overrides {
        Overrides {
            args: Vec::new(),
            grid: None,
            block: None,
            seed: 0,
            max_memory: default_max_memory(),
            allow_paths: false,
            max_steps: crate::pipeline::DEFAULT_MAX_STEPS,
        }
    }
}

/// Where a setup error's span points: the kernel file, or the text of one `--arg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The `.sk` file.
    File,
    /// The `n`-th `--arg` ([`Overrides::args`]).
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
    /// Bound parameters, and the arrays they point into.
    pub args: Args,
    /// Shape of each array of `args.buffers`.
    pub shapes: Vec<Vec<usize>>,
    /// Host variables, for the `expect`s after the run.
    pub env: Env,
    /// `expect` statements, in order.
    pub expects: Vec<Expr>,
    /// The host names that held one of the launch's arrays: after the run they stand for its
    /// final contents.
    held: Vec<Held>,
    /// The `__constant__` variables without an initialiser the launch left unset: zeros.
    pub zeroed: Vec<String>,
}

/// An array a finished launch named, under that name.
#[derive(Debug)]
pub struct HeldArray {
    /// A kernel parameter or a launch-section variable.
    pub name: String,
    /// What the name holds after the run: the array, or its elements from where it points.
    pub data: Arc<BufData>,
    /// Its shape.
    pub shape: Vec<usize>,
    /// The whole array it is or points into, with the shape it was made with.
    pub whole: (Arc<BufData>, Vec<usize>),
    /// For an array made by `empty(n)` with elements no thread wrote: the elements of `whole`
    /// written ([`crate::exec::Buffer::written`]).
    pub written: Option<Vec<u64>>,
}

/// A host name that held one of the launch's arrays when the kernel was bound.
#[derive(Clone, Debug)]
struct Held {
    name: String,
    /// Its index in `Args::buffers`.
    buffer: usize,
    view: View,
}

/// What a name held of its array.
#[derive(Clone, Debug)]
enum View {
    /// The array, with the shape it was made with.
    Whole(Vec<usize>),
    /// A pointer to this element (`&d[3]`): the elements from there on.
    From(usize),
}

impl Setup {
    /// What host name `name` stands for after the run (for `expect` and `--save`): a name that
    /// held an array, the array; a pointer parameter bound at an offset, the elements from there
    /// to the end of its array. `Err` says why the name holds no array.
    pub fn array(
        &self,
        kernel: &Kernel,
        name: &str,
    ) -> Result<(Cow<'_, BufData>, Vec<usize>), String> {
        let h = self.held(kernel, name)?;
        let data = &self.args.buffers[h.buffer].data;
        Ok(match &h.view {
            View::Whole(shape) => (Cow::Borrowed(data), shape.clone()),
            View::From(0) => (Cow::Borrowed(data), self.shapes[h.buffer].clone()),
            &View::From(k) => (Cow::Owned(data.tail(k)), vec![data.len().saturating_sub(k)]),
        })
    }
}

impl Setup {
    /// Each name that held an array, with the array as it is now (after the run: its final
    /// contents) and its shape, in name order; names that share an array share it here too (a
    /// pointer bound at an offset gets a copy of the elements from there on).
    pub fn into_arrays(self) -> Vec<HeldArray> {
        let (arrays, written): (Vec<Arc<BufData>>, Vec<Option<Vec<u64>>>) = self
            .args
            .buffers
            .into_iter()
            .map(|b| (Arc::new(b.data), b.written))
            .unzip();
        self.held
            .into_iter()
            .map(|h| {
                let whole = &arrays[h.buffer];
                let whole_shape = self.shapes[h.buffer].clone();
                let (data, shape) = match h.view {
                    View::Whole(shape) => (Arc::clone(whole), shape),
                    View::From(0) => (Arc::clone(whole), whole_shape.clone()),
                    View::From(k) => (Arc::new(whole.tail(k)), vec![whole.len().saturating_sub(k)]),
                };
                HeldArray {
                    name: h.name,
                    data,
                    shape,
                    whole: (Arc::clone(whole), whole_shape),
                    written: written[h.buffer].clone(),
                }
            })
            .collect()
    }

    /// Whether `name` holds an array `--save` can write, or why not (with a did-you-mean among
    /// the names that do): checked before anything runs.
    pub fn check_save(&self, kernel: &Kernel, name: &str) -> Result<(), String> {
        self.held(kernel, name).map(|_| ())
    }

    /// The name that holds an array, or why `name` holds none.
    fn held(&self, kernel: &Kernel, name: &str) -> Result<&Held, String> {
        if let Some(h) = self.held.iter().find(|h| h.name == name) {
            return Ok(h);
        }
        Err(match kernel.params.iter().find(|p| p.name == name) {
            Some(p) if matches!(p.kind, ParamKind::Scalar { .. }) => {
                format!("`{name}` is not a buffer")
            }
            Some(_) => format!("`{name}` is NULL"),
            None => {
                let names = self.held.iter().map(|h| h.name.as_str());
                let hint = crate::diag::did_you_mean(name, names)
                    .map_or_else(String::new, |d| format!("; {d}"));
                format!(
                    "`{}` has no parameter `{name}`, and the launch no array of that name{hint}",
                    kernel.name
                )
            }
        })
    }
}

/// The outcome of one `expect`.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
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

/// The names a launch section assigns.
fn assigned_names(launch: Option<&Launch>) -> Vec<&str> {
    launch
        .map(|l| {
            l.stmts
                .iter()
                .filter_map(|s| match s {
                    HostStmt::Assign { name, .. } => Some(name.name.as_str()),
                    HostStmt::Expect(_) | HostStmt::Cooperative(_) => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The launch settings a launch section assigns by name (`grid = 4;`).
pub(crate) const SETTINGS: [&str; 4] = ["grid", "block", "dyn_smem", "max_dyn_smem"];

/// The name the launch setting `setting` (`grid`, `block`, `dyn_smem`, `max_dyn_smem`) is kept
/// under: its own, or `launch_grid` (and so on) when the kernel has a parameter of that name,
/// which `grid = ...` then sets (torch-ngp's `kernel_grid(..., const float* grid, ...)`).
pub fn setting_key(kernel: &Kernel, setting: &str) -> String {
    if kernel.params.iter().any(|p| p.name == setting) {
        format!("launch_{setting}")
    } else {
        setting.to_string()
    }
}

/// The name an assignment `name = ...` (or `--arg name=...`) sets: `launch_grid` and the other
/// `launch_` forms always name the launch setting, the plain `grid` only where the kernel has no
/// parameter `grid`.
fn var_key(kernel: &Kernel, name: &str) -> String {
    match name.strip_prefix("launch_") {
        Some(s) if SETTINGS.contains(&s) => setting_key(kernel, s),
        _ => name.to_string(),
    }
}

/// The launch shape (`grid` or `block`) an assignment to `name` sets, if it sets one.
fn shape_of(kernel: &Kernel, name: &str) -> Option<&'static str> {
    let key = var_key(kernel, name);
    ["grid", "block"]
        .into_iter()
        .find(|s| key == setting_key(kernel, s))
}

/// Refuses a section that sets a parameter named like a launch setting twice (`grid =
/// load(...); ... grid = 1;`): the second is most likely meant as the launch's grid, which for
/// this kernel is `launch_grid`.
fn setting_set_twice(kernel: &Kernel, launch: Option<&Launch>) -> Result<(), HostError> {
    let mut seen: Vec<&str> = Vec::new();
    for stmt in launch.map(|l| l.stmts.as_slice()).unwrap_or_default() {
        let HostStmt::Assign { name, value } = stmt else {
            continue;
        };
        let n = name.name.as_str();
        if !SETTINGS.contains(&n) || setting_key(kernel, n) == n {
            continue;
        }
        if seen.contains(&n) {
            return Err(HostError::LaunchShape {
                message: format!(
                    "`{n}` is set twice, and for this kernel `{n}` is its parameter, not the launch's {n}"
                ),
                span: name.span.to(value.span),
                help: Some(format!(
                    "give the launch's {n} as `launch_{n} = ...;` (or --{n}), and set the parameter `{n}` once"
                )),
            });
        }
        seen.push(n);
    }
    Ok(())
}

/// Checks that every `--arg` names a parameter, a name the launch section sets or uses, or a
/// launch setting: anything else would be silently ignored.
pub fn check_arg_names(
    kernel: &Kernel,
    launch: Option<&Launch>,
    ov: &Overrides,
) -> Result<(), HostError> {
    let assigned = assigned_names(launch);
    let mut used = std::collections::HashSet::new();
    for a in &ov.args {
        if let ArgValue::Expr(e) = &a.value {
            names_in(e, &mut used);
        }
    }
    for ArgOverride { name, .. } in &ov.args {
        let element = format!("{name}[");
        let known = kernel
            .params
            .iter()
            .any(|p| p.name == *name || p.name.starts_with(&element))
            || assigned.contains(&name.as_str())
            || used.contains(name.as_str())
            || SETTINGS.contains(&name.as_str())
            || name
                .strip_prefix("launch_")
                .is_some_and(|s| SETTINGS.contains(&s));
        if !known {
            let mut names: Vec<&str> = kernel.params.iter().map(|p| p.name.as_str()).collect();
            names.extend(assigned.iter().copied());
            let help =
                crate::diag::did_you_mean(name, names.iter().copied()).unwrap_or_else(|| {
                    format!(
                        "the kernel's parameters and the launch section's names: {}",
                        names.join(", ")
                    )
                });
            return Err(HostError::UnknownArgument {
                name: name.clone(),
                help,
            });
        }
    }
    Ok(())
}

/// Runs the launch section (with overrides) and binds every kernel parameter.
pub fn prepare(
    kernel: &Kernel,
    launch: Option<&Launch>,
    ov: &Overrides,
    dir: &Path,
) -> Result<Setup, Failure> {
    prepare_in(kernel, launch, ov, Env::new(ov, dir.to_path_buf()))
}

/// Makes the file's `const` scalars (`const int N = 33 * 1024;`) names of the launch section,
/// as `#define`d names are, unless the section already has the name or a parameter takes it (a
/// parameter `N` is the launch's to set, never the file constant's); so are its host arrays
/// (`d_alpha_n = alpha_n;`).
pub fn file_constants(env: &mut Env, kernel: &Kernel) {
    for (name, elem, list) in &kernel.file_arrays {
        if !kernel.params.iter().any(|p| &p.name == name) {
            env.file_arrays.insert(name.clone(), (*elem, list.clone()));
        }
    }
    for (name, v) in &kernel.file_constants {
        if kernel.params.iter().any(|p| &p.name == name) || env.vars.contains_key(name) {
            continue;
        }
        let value = HostValue::Num {
            v: v.as_f64(),
            float: v.ty().is_float(),
        };
        env.vars.insert(name.clone(), value);
    }
}

/// [`prepare`] in an environment that already holds names (a `sequence`'s, [`sequence`]).
pub fn prepare_in(
    kernel: &Kernel,
    launch: Option<&Launch>,
    ov: &Overrides,
    mut env: Env,
) -> Result<Setup, Failure> {
    file_constants(&mut env, kernel);
    if let Some(b) = ov.block {
        env.vars
            .insert(setting_key(kernel, "block"), HostValue::Dim(b));
    }
    if let Some(g) = ov.grid {
        env.vars
            .insert(setting_key(kernel, "grid"), HostValue::Dim(g));
    }
    let assigned = assigned_names(launch);
    check_arg_names(kernel, launch, ov).map_err(|e| (e, Origin::Flag))?;
    setting_set_twice(kernel, launch).map_err(|e| (e, Origin::File))?;
    // Overrides of names the section never sets are known from the start.
    for (i, ArgOverride { name, value, .. }) in ov.args.iter().enumerate() {
        if !assigned.contains(&name.as_str()) {
            let v = eval_arg(&mut env, (kernel, name), value, i)?;
            same_dtype(kernel, name, &v, value_span(value)).map_err(|e| (e, Origin::Arg(i)))?;
            spread(&mut env, kernel, name, &v, value_span(value))
                .map_err(|e| (e, Origin::Arg(i)))?;
            let v = typed(&mut env, kernel, name, v, value_span(value))
                .map_err(|e| (e, Origin::Arg(i)))?;
            env.vars.insert(var_key(kernel, name), v);
        }
    }
    let mut expects = Vec::new();
    let mut shape_spans = (Span::default(), Span::default());
    let mut set_at: HashMap<String, Span> = HashMap::new();
    for stmt in launch.map(|l| l.stmts.as_slice()).unwrap_or_default() {
        match stmt {
            HostStmt::Assign { name, value } => {
                unknown_member(kernel, name).map_err(|e| (e, Origin::File))?;
                let key = var_key(kernel, &name.name);
                let shape = shape_of(kernel, &name.name);
                if shape.is_some_and(|s| env.vars.contains_key(&key) && overridden_shape(ov, s)) {
                    continue;
                }
                let v = match ov
                    .args
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, a)| a.name == name.name)
                {
                    Some((i, ArgOverride { value: arg, .. })) => {
                        let v = eval_arg(&mut env, (kernel, &name.name), arg, i)?;
                        same_shape(&mut env, &name.name, &v, value, arg)
                            .and_then(|()| same_dtype(kernel, &name.name, &v, value_span(arg)))
                            .map_err(|e| (e, Origin::Arg(i)))?;
                        v
                    }
                    None => {
                        let v =
                            match (buffer_elem(kernel, &name.name), wide_scalar(kernel, &key)) {
                                (Some(elem), _) => env.eval_as(value, elem),
                                (None, Some(ty)) => env.eval_wide(value, &key, ty),
                                (None, None) => env.eval(value),
                            }
                            .map_err(|e| (e, Origin::File))?;
                        same_dtype(kernel, &name.name, &v, value.span)
                            .map_err(|e| (e, Origin::File))?;
                        v
                    }
                };
                let v = if let Some(which) = shape {
                    if which == "grid" {
                        shape_spans.0 = value.span;
                    } else {
                        shape_spans.1 = value.span;
                    }
                    HostValue::Dim(to_dim(&v, value.span).map_err(|e| (e, Origin::File))?)
                } else {
                    spread(&mut env, kernel, &name.name, &v, value.span)
                        .map_err(|e| (e, Origin::File))?;
                    typed(&mut env, kernel, &name.name, v, value.span)
                        .map_err(|e| (e, Origin::File))?
                };
                set_at.insert(name.name.clone(), value.span);
                env.vars.insert(key, v);
            }
            HostStmt::Expect(e) => expects.push(e.clone()),
            HostStmt::Cooperative(_) => {}
        }
    }
    // A sequence's array the launch binds by its name (`levels = [0, 5, 5, 7];` before a launch
    // item that does not set `levels`), computed in doubles: in the parameter's type, as the
    // launch section's own assignment would make it.
    for p in &kernel.params {
        let ParamKind::Buffer { elem, .. } = p.kind else {
            continue;
        };
        if assigned.contains(&p.name.as_str()) || elem == Scalar::F64 {
            continue;
        }
        let computed = match env.vars.get(&p.name) {
            Some(
                v @ HostValue::Array {
                    data, dtype: None, ..
                },
            )
            | Some(
                v @ HostValue::Pointer {
                    data, dtype: None, ..
                },
            ) if data.elem() == Scalar::F64 => v.clone(),
            _ => continue,
        };
        let span = launch.map_or(kernel.span, |l| l.span);
        let v = typed(&mut env, kernel, &p.name, computed, span).map_err(|e| (e, Origin::File))?;
        env.vars.insert(p.name.clone(), v);
    }
    let dim = |env: &Env, which: &str, span: Span| -> Result<[u32; 3], Failure> {
        let key = setting_key(kernel, which);
        let help = if key == which {
            format!(
                "pass --{which} X[,Y[,Z]] or set `{which} = ...;` in the kernel's launch section"
            )
        } else {
            format!(
                "the kernel has a parameter `{which}`, which `{which} = ...;` sets: give the launch's {which} as `{key} = ...;` in the launch section, or pass --{which} X[,Y[,Z]]"
            )
        };
        match env.vars.get(&key) {
            Some(v) => to_dim(v, span).map_err(|e| (e, Origin::File)),
            None => Err((
                HostError::LaunchShape {
                    message: format!("no {which} size"),
                    span,
                    help: Some(help),
                },
                Origin::Flag,
            )),
        }
    };
    let block = dim(&env, "block", shape_spans.1)?;
    let grid = dim(&env, "grid", shape_spans.0)?;
    check_shape(block, grid, shape_spans)?;
    accessor_shapes(kernel, &mut env, &set_at)?;
    // A parameter the launch names no value for takes its default argument (`int* p = NULL`).
    let mut zeroed = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        if let (false, Some(d)) = (env.vars.contains_key(&p.name), &p.default) {
            if kernel.unset_constants.contains(&(i as u32)) {
                zeroed.push(p.name.clone());
            }
            // A buffer's initialiser in its own element type, exactly (a `uint64_t` table).
            let v = match p.kind {
                ParamKind::Buffer { elem, .. } => env.eval_as(d, elem),
                ParamKind::Scalar { .. } => env.eval(d),
            }
            .map_err(|e| (e, Origin::File))?;
            let v = typed(&mut env, kernel, &p.name, v, d.span).map_err(|e| (e, Origin::File))?;
            env.vars.insert(p.name.clone(), v);
        }
    }
    // The arrays move into `args`; `check_expects` lends their final contents to their names.
    let (args, shapes, held) = bind(kernel, &mut env, launch.map(|l| l.span))?;
    Ok(Setup {
        grid,
        block,
        args,
        shapes,
        env,
        expects,
        held,
        zeroed,
    })
}

/// The one-element array a file-scope scalar (`__device__ int count;`) holds when set to `v`:
/// an integer one refuses a fraction.
pub(crate) fn scalar_symbol(
    name: &str,
    elem: Scalar,
    (v, float): (f64, bool),
    span: Span,
) -> Result<HostValue, HostError> {
    if elem.is_integer() && v.fract() != 0.0 {
        return Err(HostError::BadValue {
            message: format!("`{name}` is `{}` but its value is {v}", elem.c_name()),
            span,
            label: "not an integer".into(),
            help: None,
        });
    }
    Ok(HostValue::Array {
        data: Arc::new(BufData::from_f64(elem, &[v])),
        shape: vec![1],
        float,
        dtype: None,
    })
}

/// For parameter `i`: its rank if it is an ATen accessor's array, 0 if it is one of an
/// accessor's sizes or strides, `None` for any other parameter.
fn accessor_rank(kernel: &Kernel, i: usize) -> Option<u32> {
    kernel.accessors.iter().find_map(|&(b, rank)| {
        let b = b as usize;
        if i == b {
            Some(rank)
        } else if (b + 1..=b + 2 * rank as usize).contains(&i) {
            Some(0)
        } else {
            None
        }
    })
}

/// The sizes and strides of each ATen accessor parameter (`p.size(k)`, `p.stride(k)`): its
/// array's shape, which must have the accessor's rank, with contiguous (row-major) strides.
fn accessor_shapes(
    kernel: &Kernel,
    env: &mut Env,
    set_at: &HashMap<String, Span>,
) -> Result<(), Failure> {
    for &(buffer, rank) in &kernel.accessors {
        let name = &kernel.params[buffer as usize].name;
        let rank = rank as usize;
        let span = set_at.get(name).copied().unwrap_or(kernel.span);
        let given = match env.vars.get(name) {
            None => continue,
            Some(HostValue::Array { shape, .. }) if shape.len() == rank => {
                let shape = shape.clone();
                for k in 0..rank {
                    let stride: usize = shape[k + 1..].iter().product();
                    for (what, v) in [("size", shape[k]), ("stride", stride)] {
                        let p = format!("{name}.{what}({k})");
                        let v = typed(env, kernel, &p, HostValue::int(v as i64), span)
                            .map_err(|e| (e, Origin::File))?;
                        env.vars.insert(p, v);
                    }
                }
                continue;
            }
            Some(HostValue::Array { shape, .. }) => {
                let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
                format!("an array of shape ({})", dims.join(", "))
            }
            Some(v) => v.kind().to_string(),
        };
        let example = (2..rank + 2)
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        return Err((
            HostError::AccessorRank {
                name: name.clone(),
                rank,
                given,
                example,
                span,
            },
            Origin::File,
        ));
    }
    Ok(())
}

/// `p.e = [1, 2, 3];` for an array member of a struct parameter: its elements are the
/// parameters `p.e[0]`, `p.e[1]`, ... (an array of arrays in C's order), each set from one value.
fn spread(
    env: &mut Env,
    kernel: &Kernel,
    name: &str,
    v: &HostValue,
    span: Span,
) -> Result<(), HostError> {
    let prefix = format!("{name}[");
    let mut elems: Vec<String> = kernel
        .params
        .iter()
        .filter(|p| p.name.starts_with(&prefix))
        .map(|p| p.name.clone())
        .collect();
    // `v = [40, 36];` of an `int2 v` (or a struct of numbers): its members in order, as C's
    // `int2 v = {40, 36};` gives them.
    let members = format!("{name}.");
    // (An accessor `x` is a parameter itself, its sizes and strides members of it.)
    let numbers = !kernel.params.iter().any(|p| p.name == name)
        && kernel
            .params
            .iter()
            .filter(|p| p.name.starts_with(&members))
            .all(|p| matches!(p.kind, ParamKind::Scalar { .. }));
    if elems.is_empty() && numbers && matches!(v, HostValue::Array { .. } | HostValue::Dim(_)) {
        elems = kernel
            .params
            .iter()
            .filter(|p| p.name.starts_with(&members))
            .map(|p| p.name.clone())
            .collect();
    }
    if elems.is_empty() {
        return Ok(());
    }
    let whole = if elems[0].starts_with(&members) {
        "a parameter of"
    } else {
        "an array member of"
    };
    let wrong = |given: String| HostError::BadValue {
        message: format!("`{name}` is {whole} {} numbers, given {given}", elems.len()),
        span,
        label: "not that many values".into(),
        help: Some(format!("give {} values: `{name} = [...];`", elems.len())),
    };
    // `size = (4, 1, 1);` of a `dim3 size` (a parameter or a struct parameter's member), as
    // `grid = (4, 1, 1);` is written: its x, y and z.
    let dim3 = elems.len() == 3
        && elems.iter().zip([".x", ".y", ".z"]).all(|(e, c)| {
            e.ends_with(c)
                && kernel.params.iter().any(|p| {
                    p.name == *e
                        && matches!(
                            p.kind,
                            ParamKind::Scalar {
                                ty: Scalar::U32,
                                ..
                            }
                        )
                })
        });
    if let (HostValue::Dim(d), true) = (v, dim3) {
        for (elem, &x) in elems.into_iter().zip(d) {
            let x = HostValue::Num {
                v: f64::from(x),
                float: false,
            };
            let x = typed(env, kernel, &elem, x, span)?;
            env.vars.insert(elem, x);
        }
        return Ok(());
    }
    let HostValue::Array { data, float, .. } = v else {
        return Err(wrong(v.kind().to_string()));
    };
    if data.len() != elems.len() {
        return Err(wrong(format!("{} values", data.len())));
    }
    for (k, elem) in elems.into_iter().enumerate() {
        let x = HostValue::Num {
            v: data.get_f64(k).expect("checked: the length"),
            float: *float,
        };
        let x = typed(env, kernel, &elem, x, span)?;
        env.vars.insert(elem, x);
    }
    Ok(())
}

/// `v` as parameter `name` takes it, when `name` is one: a pointer parameter's array in the
/// parameter's element type, so that the launch holds each array once, at its own size (a
/// `float` array of 2^22 elements is 16 MiB, not 32 as doubles). `NULL` only for a pointer.
fn typed(
    env: &mut Env,
    kernel: &Kernel,
    name: &str,
    v: HostValue,
    span: Span,
) -> Result<HostValue, HostError> {
    let Some(i) = kernel.params.iter().position(|p| p.name == name) else {
        return Ok(v);
    };
    let p = &kernel.params[i];
    // A `__device__`/`__constant__` symbol keeps its declared size, as in CUDA: more values than
    // it holds cannot be copied to it (cudaMemcpyToSymbol fails), and fewer would leave part of
    // it at a value the launch section does not show; both are refused rather than resized.
    let v = struct_members(kernel, i, v, name, span)?;
    if let (Some(&(_, declared)), HostValue::Array { data, .. }) =
        (kernel.symbol_sizes.iter().find(|(q, _)| *q == i as u32), &v)
    {
        let given = data.len() as u64;
        if given != declared {
            let mut help = format!(
                "`{name}` is declared with {declared} element(s) and keeps that size, as in CUDA (cudaMemcpyToSymbol of more bytes fails); give exactly {declared} values, writing out the ones the launch does not change, or change the declaration"
            );
            if let Some((_, structs, image)) = struct_symbol(kernel, i) {
                let types: Vec<&str> = image.leaves.iter().map(|(s, _)| s.c_name()).collect();
                help.push_str(&format!(
                    "; or list the members' values of its {structs} struct(s) in order, {} per struct ({})",
                    image.leaves.len(),
                    types.join(", ")
                ));
            }
            return Err(HostError::SymbolSize {
                name: name.to_string(),
                declared,
                given,
                span,
                help,
            });
        }
    }
    match (p.kind, v) {
        // `count = 2;` sets a `__constant__` or `__device__` scalar: a one-element array, which
        // expects see as it is after the launch.
        (ParamKind::Buffer { elem, .. }, HostValue::Num { v, float })
            if kernel.constant_scalars.contains(&(i as u32)) =>
        {
            scalar_symbol(name, elem, (v, float), span)
        }
        (ParamKind::Scalar { ty, .. }, HostValue::Null) => Err(HostError::NullScalar {
            param: name.to_string(),
            ty: ty.c_name().to_string(),
            span,
        }),
        (ParamKind::Scalar { ty, .. }, HostValue::Pointer { .. }) => Err(HostError::BadValue {
            message: format!("`{name}` is `{}` but was given a pointer", ty.c_name()),
            span,
            label: "a pointer".into(),
            help: None,
        }),
        (
            ParamKind::Buffer { .. },
            HostValue::Array {
                data,
                shape,
                float,
                dtype,
            },
        ) => Ok(HostValue::Array {
            data: adopt(env, kernel, p, (&data, dtype, name), span)?,
            shape,
            float,
            dtype,
        }),
        (
            ParamKind::Buffer { elem, width, .. },
            HostValue::Pointer {
                array,
                data,
                offset,
                shape,
                float,
                dtype,
            },
        ) => {
            if !offset.is_multiple_of(width as usize) {
                return Err(HostError::MisalignedOffset {
                    message: format!(
                        "`{name}` is `{}` but points at element {offset} of `{array}`, not a multiple of {width}",
                        p.kind.describe()
                    ),
                    param_ty: p.kind.describe(),
                    width,
                    bytes: width * elem.size(),
                    span,
                });
            }
            Ok(HostValue::Pointer {
                data: adopt(env, kernel, p, (&data, dtype, &array), span)?,
                array,
                offset,
                shape,
                float,
                dtype,
            })
        }
        (
            ParamKind::Buffer {
                elem: Scalar::U64, ..
            },
            HostValue::Table(entries),
        ) => table_entries(env, kernel, name, entries, span).map(HostValue::Table),
        (_, v) => Ok(v),
    }
}

/// The entries of a table of pointers for `T**` parameter `name`, each in the type of its
/// entry parameter (`crate::check::table`), as a pointer parameter's array is.
fn table_entries(
    env: &mut Env,
    kernel: &Kernel,
    name: &str,
    mut entries: Vec<(String, HostValue)>,
    span: Span,
) -> Result<Vec<(String, HostValue)>, HostError> {
    table_fits(kernel, name, entries.len(), span)?;
    for k in 0..entries.len() {
        let entry = crate::check::table::entry_name(name, k);
        let given = entries[k].1.storage().cloned();
        let v = typed(
            env,
            kernel,
            &entry,
            std::mem::replace(&mut entries[k].1, HostValue::Null),
            span,
        )?;
        // An array named twice in the table is converted once.
        if let (Some(data), Some(converted)) = (given, v.storage()) {
            for (_, later) in &mut entries[k + 1..] {
                replace(later, &data, converted);
            }
        }
        entries[k].1 = v;
    }
    Ok(entries)
}

/// Refuses a table of `given` arrays for `T**` parameter `name` where the kernel has fewer
/// entry parameters: the checker made them from the tables written on the parameter's own line
/// of the file's launch sections (not from `--arg`s, another name or a sequence's level).
fn table_fits(kernel: &Kernel, name: &str, given: usize, span: Span) -> Result<(), HostError> {
    let slots = crate::check::table::entry_count(kernel, name);
    if given <= slots {
        return Ok(());
    }
    let help = if slots == 0 {
        format!("a table binds a `T**` parameter on its own line of the file's launch section (`{name} = [a, b];`): simt makes a parameter of each entry when it checks the kernel, before `--arg`s, other names or a sequence's statements are read")
    } else {
        format!("the file's launch sections bind `{name}` to tables of at most {slots} arrays; give it as many there")
    };
    Err(HostError::BadValue {
        message: format!("`{name}` is given a table of {given} arrays but takes at most {slots}"),
        span,
        label: "this table".into(),
        help: Some(help),
    })
}

/// Symbol parameter `i`, when it holds structs: its declared number of components, how many
/// structs those are, and where their leaves lie.
fn struct_symbol(kernel: &Kernel, i: usize) -> Option<(u64, u64, &StructImage)> {
    let (_, image) = kernel
        .struct_symbols
        .iter()
        .find(|(q, _)| *q as usize == i)?;
    let &(_, declared) = kernel.symbol_sizes.iter().find(|(q, _)| *q as usize == i)?;
    let ParamKind::Buffer { elem, .. } = kernel.params[i].kind else {
        return None;
    };
    let structs = declared * u64::from(elem.size()) / u64::from(image.size);
    Some((declared, structs, image))
}

/// `p = [56, 2, 10, 0.9];` for a `__constant__` or `__device__` struct (or array of structs)
/// whose buffer holds another number of components: each struct's members' values in order,
/// converted to their types and laid out at their offsets (padding zero), as a host struct
/// copied by `cudaMemcpyToSymbol` is. Any other value stays as it is.
pub(crate) fn struct_members(
    kernel: &Kernel,
    i: usize,
    v: HostValue,
    name: &str,
    span: Span,
) -> Result<HostValue, HostError> {
    let (Some((declared, structs, image)), HostValue::Array { data, .. }) =
        (struct_symbol(kernel, i), &v)
    else {
        return Ok(v);
    };
    let ParamKind::Buffer { elem, .. } = kernel.params[i].kind else {
        return Ok(v);
    };
    let leaves = image.leaves.len();
    let given = data.len() as u64;
    if given == declared || given != structs * leaves as u64 {
        return Ok(v);
    }
    let mut values = Vec::with_capacity(data.len());
    for k in 0..data.len() {
        let x = data.get_f64(k).expect("k < len");
        let (ty, _) = image.leaves[k % leaves];
        if ty.is_integer() && x.fract() != 0.0 {
            return Err(HostError::BadValue {
                message: format!(
                    "member {} of `{name}` is `{}` but its value is {x}",
                    k % leaves,
                    ty.c_name()
                ),
                span,
                label: "not an integer".into(),
                help: None,
            });
        }
        values.push(Value::F64(x));
    }
    let components: Vec<f64> = image
        .components(&values, elem)
        .into_iter()
        .map(Value::as_f64)
        .collect();
    Ok(HostValue::Array {
        data: Arc::new(BufData::from_f64(elem, &components)),
        shape: vec![components.len()],
        float: elem.is_float(),
        dtype: None,
    })
}

/// The array `data` (named `array`, loaded from a file of `dtype` if it was) in the element type
/// of pointer parameter `p`. An array takes the type of the first parameter bound to it: one the
/// launch section computed is converted once, and every name that shares it sees the converted
/// array; one from a file of another type, or already bound to a parameter of another type, is
/// an error.
fn adopt(
    env: &mut Env,
    kernel: &Kernel,
    p: &Param,
    (data, dtype, array): (&Arc<BufData>, Option<Scalar>, &str),
    span: Span,
) -> Result<Arc<BufData>, HostError> {
    let ParamKind::Buffer { elem, .. } = p.kind else {
        unreachable!("host: only pointer parameters hold arrays");
    };
    if let Some(what) = &p.opaque {
        return Err(HostError::BadValue {
            message: format!(
                "`{}` points to `{what}`, which simt holds but does not follow, so it takes no array",
                p.name
            ),
            span,
            label: "an array".into(),
            help: Some(format!(
                "leave `{}` unset, or set it to NULL; to read data through it, declare the member as a pointer to that data's type (`float* {}`)",
                p.name,
                p.name.rsplit('.').next().unwrap_or(&p.name)
            )),
        });
    }
    // Zeros are zero bits in every type, so an output buffer of `zeros(n)` needs no type.
    let all_zero = || {
        data.as_f64()
            .iter()
            .all(|&x| x == 0.0 && x.is_sign_positive())
    };
    if dtype.is_none() && !p.views.is_empty() && !all_zero() {
        let views: Vec<String> = p.views.iter().map(|v| format!("`{v}*`")).collect();
        return Err(HostError::VoidType {
            param: p.name.clone(),
            views: views.join(" and "),
            first: format!("{}*", p.views[0]),
            span,
        });
    }
    if data.elem() == elem {
        return Ok(Arc::clone(data));
    }
    if elem == Scalar::BF16 && dtype == Some(Scalar::F32) {
        let converted = Arc::new(bfloat16_of_float32(p, data, span)?);
        share(env, data, &converted);
        return Ok(converted);
    }
    // A `void*` parameter is untyped memory: a file's bytes are what its first view reads (a
    // byte blob of ggml blocks read as `char`, floats read through `(const char*)`).
    if let (Some(_), true) = (dtype, p.untyped) {
        if let Some(bytes) = npy::reinterpret(data, elem) {
            let converted = Arc::new(bytes);
            share(env, data, &converted);
            return Ok(converted);
        }
    }
    if let Some(found) = dtype {
        return Err(HostError::DtypeMismatch {
            param: p.name.clone(),
            elem,
            found,
            numpy: found.numpy_name(),
            want: elem.numpy_name(),
            span,
        });
    }
    // Another parameter of this type holding the array takes the converted one too (`share`).
    let other = kernel.params.iter().find(|q| {
        q.name != p.name
            && !matches!(q.kind, ParamKind::Buffer { elem: e, .. } if e == elem)
            && env.vars.get(&q.name).is_some_and(|v| v.holds(data))
    });
    if let Some(q) = other {
        // `b = a;` names the array by the parameter: say which host name holds it.
        let array = if array == p.name {
            let mut names: Vec<&String> = env
                .vars
                .iter()
                .filter(|(k, v)| **k != p.name && v.holds(data))
                .map(|(k, _)| k)
                .collect();
            names.sort_by_key(|k| (kernel.params.iter().any(|q| &q.name == *k), k.as_str()));
            names.first().map_or(q.name.clone(), |k| (*k).clone())
        } else {
            array.to_string()
        };
        return Err(HostError::PointerTypeMismatch {
            message: format!(
                "`{}` is `{}` but `{array}` holds `{}` elements (it is bound to `{} {}`)",
                p.name,
                p.kind.describe(),
                data.elem(),
                q.kind.describe(),
                q.name
            ),
            param: p.name.clone(),
            array,
            elem: data.elem(),
            span,
        });
    }
    // The array (unless a name holds it already: then it is counted), its copy in the
    // parameter's type and (from another type than doubles) the doubles in between must fit.
    let n = data.len() as u64;
    let held = env.vars.values().any(|v| v.holds(data));
    let original = if held {
        0
    } else {
        n * u64::from(data.elem().size())
    };
    let widened = if data.elem() == Scalar::F64 { 0 } else { 8 * n };
    let bytes = original + widened + n * u64::from(elem.size());
    env.check_room(bytes, span, "this array and its copy in the buffer's type")?;
    let converted = Arc::new(BufData::from_f64(elem, &data.as_f64()));
    share(env, data, &converted);
    Ok(converted)
}

/// Every name that held `data` holds `converted` from now on, so that the launch's results are
/// what each of them stands for.
fn share(env: &mut Env, data: &Arc<BufData>, converted: &Arc<BufData>) {
    env.copied(data, converted);
    for v in env.vars.values_mut() {
        replace(v, data, converted);
    }
}

/// `v`, and a table's entries, holding `converted` where they held `data`.
fn replace(v: &mut HostValue, data: &Arc<BufData>, converted: &Arc<BufData>) {
    match v {
        HostValue::Array { data: d, .. } | HostValue::Pointer { data: d, .. }
            if Arc::ptr_eq(d, data) =>
        {
            *d = Arc::clone(converted);
        }
        HostValue::Table(entries) => {
            for (_, e) in entries {
                replace(e, data, converted);
            }
        }
        _ => {}
    }
}

fn overridden_shape(ov: &Overrides, name: &str) -> bool {
    if name == "grid" {
        ov.grid.is_some()
    } else {
        ov.block.is_some()
    }
}

/// Evaluates `--arg` number `i`, which sets `kernel`'s `name`: in a buffer parameter's element
/// type, or exactly for a 64-bit integer scalar.
fn eval_arg(
    env: &mut Env,
    (kernel, name): (&Kernel, &str),
    value: &ArgValue,
    i: usize,
) -> Result<HostValue, Failure> {
    match (value, buffer_elem(kernel, name), wide_scalar(kernel, name)) {
        (ArgValue::Expr(e), Some(elem), _) => env.eval_as(e, elem),
        (ArgValue::Expr(e), None, Some(ty)) => env.eval_wide(e, name, ty),
        (ArgValue::Expr(e), None, None) => env.eval(e),
        (ArgValue::File(p), ..) => env.load_arg(p, value_span(value)),
        (ArgValue::Value(v), ..) => Ok(v.clone()),
    }
    .map_err(|err| (err, Origin::Arg(i)))
}

/// The type of `kernel`'s scalar parameter `name` where it is a 64-bit integer, which a double
/// may not hold ([`Env::eval_wide`]).
fn wide_scalar(kernel: &Kernel, name: &str) -> Option<Scalar> {
    kernel
        .params
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| match p.kind {
            ParamKind::Scalar {
                ty: ty @ (Scalar::I64 | Scalar::U64),
                ..
            } => Some(ty),
            _ => None,
        })
}

/// The element type of `kernel`'s buffer parameter `name`, if it has one.
fn buffer_elem(kernel: &Kernel, name: &str) -> Option<Scalar> {
    kernel
        .params
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| match p.kind {
            ParamKind::Buffer { elem, .. } => Some(elem),
            _ => None,
        })
}

/// The span of an `--arg` value inside its own text (a `@file` with its `@`).
fn value_span(value: &ArgValue) -> Span {
    match value {
        ArgValue::Expr(e) => e.span,
        ArgValue::File(p) => Span::new(0, p.as_os_str().len() + 1),
        // A caller's value has no text: a diagnostic points at the whole of its description.
        ArgValue::Value(_) => Span::default(),
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
        ) if *found != elem && !(elem == Scalar::BF16 && *found == Scalar::F32) && !p.untyped => {
            Err(HostError::DtypeMismatch {
                param: name.to_string(),
                elem,
                found: *found,
                numpy: found.numpy_name(),
                want: elem.numpy_name(),
                span,
            })
        }
        _ => Ok(()),
    }
}

/// A `float32` array for a `__nv_bfloat16*` parameter (numpy has no bfloat16): its values, each
/// of which must be a bfloat16 value already, since binding it must not round silently.
fn bfloat16_of_float32(p: &Param, data: &BufData, span: Span) -> Result<BufData, HostError> {
    let values = data.as_f64();
    let inexact = values
        .iter()
        .position(|&x| f64::from(crate::value::round_half(x, Scalar::BF16)) != x && !x.is_nan());
    if let Some(index) = inexact {
        return Err(HostError::NotBfloat16 {
            param: p.name.clone(),
            index,
            value: values[index],
            span,
        });
    }
    Ok(BufData::from_f64(Scalar::BF16, &values))
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
        HostValue::Dim(d) => {
            for &c in d {
                eval::dim_component(&HostValue::int(i64::from(c)), span)?;
            }
            Ok(*d)
        }
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

/// What `bind` makes: the arguments, each array's shape, and the names that held the arrays.
type Bound = (Args, Vec<Vec<usize>>, Vec<Held>);

/// Binds every parameter from the environment; reports all missing ones at once. Each array
/// pointer parameters point into is held once, however many of them share it; the names that
/// held it give it up until `check_expects`.
/// `Ok` unless `name` sets a member (`q.bogus = 7;`) that a struct parameter of `kernel` does not
/// have: the launch would set nothing, silently.
fn unknown_member(kernel: &Kernel, name: &crate::syntax::ast::Ident) -> Result<(), HostError> {
    let Some((base, _)) = name.name.split_once('.') else {
        return Ok(());
    };
    let prefix = format!("{base}.");
    let members: Vec<&str> = kernel
        .params
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    let known = members.iter().any(|m| {
        *m == name.name
            || m.strip_prefix(name.name.as_str())
                .is_some_and(|r| r.starts_with(['.', '[']))
    });
    if known {
        return Ok(());
    }
    if members.is_empty() {
        // Not a struct passed by value: the assignment would make a launch-section variable
        // with a dotted name that nothing reads.
        let index = kernel.params.iter().position(|p| p.name == base);
        let param = index.is_some();
        let symbol =
            index.is_some_and(|i| kernel.symbol_sizes.iter().any(|&(q, _)| q as usize == i));
        return Err(HostError::BadValue {
            message: if symbol {
                format!(
                    "`{base}` is a `__constant__` or `__device__` variable without pointers: its members are not set one by one"
                )
            } else if param {
                format!(
                    "`{base}` is not a struct passed by value: its members are not set one by one"
                )
            } else {
                format!(
                    "`{}` names no member of a parameter: `{base}` is not one",
                    name.name
                )
            },
            span: name.span,
            label: "not a member".into(),
            help: Some(if symbol {
                format!("set it as a whole, as cudaMemcpyToSymbol copies it: its members' values in order (`{base} = [3, 1.5];`), its bytes, or a structured `.npy` (`{base} = load(\"{base}.npy\");`, numpy's `align=True` lays records out as C does)")
            } else if param {
                format!("set the buffer as a whole (`{base} = zeros(n);`, or a structured `.npy` of its records), as the host's cudaMemcpy does")
            } else {
                "a launch-section variable's name has no `.`; members are set as `p.x = 3;` for a struct parameter `p` passed by value".into()
            }),
        });
    }
    let list: Vec<String> = members.iter().map(|m| format!("`{m}`")).collect();
    let help = match crate::diag::did_you_mean(&name.name, members.iter().copied()) {
        Some(guess) => format!("{guess} `{base}` has {}", list.join(", ")),
        None => format!("`{base}` has {}", list.join(", ")),
    };
    Err(HostError::BadValue {
        message: format!("`{base}` has no member `{}`", &name.name[prefix.len()..]),
        span: name.span,
        label: "not a member".into(),
        help: Some(help),
    })
}

/// The scalar parameters the kernel's instructions read, from its lowered form (made only where
/// a launch leaves a struct member unset).
fn read_params(kernel: &Kernel) -> std::collections::HashSet<u32> {
    let ir = crate::ir::lower(kernel);
    let mut regs = std::collections::HashSet::new();
    for inst in &ir.insts {
        inst.reads(&ir, &mut |bank, reg| {
            regs.insert((bank, reg));
        });
    }
    ir.inputs
        .iter()
        .filter_map(|&(reg, ty, input)| match input {
            crate::ir::Input::Param(n) if regs.contains(&(crate::ir::bank_of(ty), reg)) => Some(n),
            _ => None,
        })
        .collect()
}

fn bind(kernel: &Kernel, env: &mut Env, launch_span: Option<Span>) -> Result<Bound, Failure> {
    let n = kernel.params.len();
    let mut scalars = vec![None; n];
    let mut pointers = vec![None; n];
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
    // Pointer parameters into arrays: (parameter, array, offset, the array's name if by `&a[i]`).
    // The arrays are in their parameters' types since `typed` (assignment).
    let mut into = Vec::new();
    let mut textures = Vec::new();
    let mut tables = Vec::new();
    let mut read = None;
    for (i, p) in kernel.params.iter().enumerate() {
        // An unnamed parameter is never read: it takes zero, or no array.
        if crate::syntax::ast::is_unnamed_param(&p.name) {
            match p.kind {
                ParamKind::Scalar { ty, .. } => scalars[i] = Some(Value::I32(0).cast(ty)),
                ParamKind::Buffer { .. } => pointers[i] = Some(Pointer::null(&p.name)),
            }
            continue;
        }
        if let Some(name) = p.name.strip_prefix(crate::check::heap::SEQUENCE_PREFIX) {
            // An array of pointers the kernel reaches through a `T**` member only: the
            // sequence's array of that name, or none outside a sequence.
            match env.vars.get(name) {
                Some(HostValue::Array { data, .. }) if data.elem() == Scalar::U64 => {
                    into.push((i, Arc::clone(data), 0, None));
                }
                _ => pointers[i] = Some(Pointer::null(&p.name)),
            }
            continue;
        }
        if let Some((table, k)) = crate::check::table::entry_of(&p.name) {
            // Entry `k` of a table of pointers: the array it names, where it names one.
            match env.vars.get(table) {
                Some(HostValue::Table(entries)) => match entries.get(k) {
                    Some((
                        array,
                        v @ (HostValue::Array { data, .. } | HostValue::Pointer { data, .. }),
                    )) => {
                        // An array another parameter took as another type is not this entry's.
                        if !matches!(p.kind, ParamKind::Buffer { elem, .. } if elem == data.elem())
                        {
                            return Err(mismatch(format!(
                                "entry {k} of `{table}`, `{array}`, points to `{}` but `{array}` holds `{}`",
                                p.kind.describe().trim_end_matches('*'),
                                data.elem().c_name()
                            )));
                        }
                        let offset = match v {
                            HostValue::Pointer { offset, .. } => *offset,
                            _ => 0,
                        };
                        into.push((i, Arc::clone(data), offset, Some(array.clone())));
                    }
                    _ => pointers[i] = Some(Pointer::null(&p.name)),
                },
                _ => pointers[i] = Some(Pointer::null(&p.name)),
            }
            continue;
        }
        if let Some(data) = crate::check::heap::hidden_buffer(&p.name) {
            // A sequence's heap carries over from launch to launch.
            let data = match env.vars.get(&p.name) {
                Some(HostValue::Array { data, .. }) => Arc::clone(data),
                _ => Arc::new(data),
            };
            into.push((i, data, 0, None));
            continue;
        }
        let Some(v) = env.vars.get(&p.name) else {
            if matches!(p.kind, ParamKind::Buffer { .. }) && p.name.contains('.') {
                // A struct parameter's pointer member the launch leaves unset (QuEST's `Qureg`
                // holds handles its kernels never use): no array; reading through it traps.
                pointers[i] = Some(Pointer {
                    name: p.name.clone(),
                    buffer: None,
                    offset: 0,
                    unset: true,
                });
                continue;
            }
            // A struct parameter's number member the kernel never reads (causal-conv1d's
            // `ConvParamsBase` strides of states another kernel uses): its value is never seen.
            if let ParamKind::Scalar { ty, .. } = p.kind {
                let read = read.get_or_insert_with(|| read_params(kernel));
                if p.name.contains('.') && !read.contains(&(i as u32)) {
                    scalars[i] = Some(Value::I32(0).cast(ty));
                    continue;
                }
            }
            // An accessor's sizes and strides come with its array: only the array is missing.
            if accessor_rank(kernel, i) != Some(0) {
                missing.push(p.name.clone());
            }
            continue;
        };
        if kernel.textures.contains(&(i as u32)) {
            // A texture object is a handle: 1 + its index among the launch's textures.
            textures.push(eval::texture::bound(&p.name, v).map_err(mismatch)?);
            scalars[i] = Some(Value::U64(textures.len() as u64));
            continue;
        }

        match (p.kind, v) {
            (ParamKind::Scalar { ty, .. }, HostValue::Num { .. }) if env.wide.contains_key(&p.name) => {
                let w = env.wide[&p.name];
                // Modulo 2^64, as C converts (`-1` of an `unsigned long long` is 2^64 - 1).
                scalars[i] = Some(match ty {
                    Scalar::U64 => Value::U64(w as u64),
                    _ => Value::I64(w as i64),
                });
            }
            (ParamKind::Scalar { ty, .. }, HostValue::Num { v, .. }) => {
                if ty.is_integer() && v.fract() != 0.0 {
                    return Err(mismatch(format!(
                        "`{}` is `{}` but its value is {v}",
                        p.name, ty
                    )));
                }
                // An integer converts as C converts it: modulo 2^bits (`-1` of an `unsigned` is
                // 4294967295), never clamped.
                scalars[i] = Some(match (ty.is_integer(), *v < 0.0) {
                    (true, true) => Value::I64(*v as i64).cast(ty),
                    (true, false) => Value::U64(*v as u64).cast(ty),
                    (false, _) => Value::F64(*v).cast(ty),
                });
            }
            (ParamKind::Scalar { ty, .. }, HostValue::Dim(d)) => {
                scalars[i] = Some(Value::U32(d[0]).cast(ty));
            }
            // A struct's bytes (no byte vector is wider than 4) given as rows of another size:
            // a structured `.npy` whose records are not laid out as the struct is.
            (
                ParamKind::Buffer {
                    elem: Scalar::U8,
                    width,
                    ..
                },
                HostValue::Array {
                    shape,
                    dtype: Some(Scalar::U8),
                    ..
                },
            ) if width > 4 && shape.len() > 1 && shape.last() != Some(&(width as usize)) => {
                return Err(mismatch(format!(
                    "`{}` holds {width}-byte structs but its array's rows (a structured `.npy`'s records) are {} bytes",
                    p.name,
                    shape.last().copied().unwrap_or_default()
                )));
            }
            // A struct held as bytes takes whole structs: a partial one is values given as
            // something else than its bytes (its members', say), which its bytes would misread.
            // A vector's or a one-type struct's partial last element is the tail a host leaves
            // to scalar code, reachable only up to its whole elements.
            (
                ParamKind::Buffer {
                    elem: Scalar::U8 | Scalar::I8,
                    width,
                    ..
                },
                v @ (HostValue::Array { .. } | HostValue::Pointer { .. }),
            ) if width > 4 && v.array_len() % width as usize != 0 => {
                return Err(mismatch(format!(
                    "`{}` holds {width}-byte structs but was given {} bytes, no whole number of them",
                    p.name,
                    v.array_len(),
                )));
            }
            (ParamKind::Buffer { elem, .. }, HostValue::Array { data, .. })
                if data.elem() == elem =>
            {
                into.push((i, Arc::clone(data), 0, None));
            }
            (
                ParamKind::Buffer { elem, .. },
                HostValue::Pointer {
                    array,
                    data,
                    offset,
                    ..
                },
            ) if data.elem() == elem => {
                into.push((i, Arc::clone(data), *offset, Some(array.clone())));
            }
            (ParamKind::Buffer { elem: Scalar::U64, .. }, HostValue::Table(entries)) => {
                table_fits(kernel, &p.name, entries.len(), span).map_err(|e| (e, origin))?;
                // Its words are the entries' addresses, known once the arrays are numbered.
                let words = Arc::new(BufData::zeros(Scalar::U64, entries.len()));
                into.push((i, words, 0, None));
                tables.push(i);
            }
            (ParamKind::Buffer { .. }, HostValue::Null) => {
                pointers[i] = Some(Pointer::null(&p.name));
            }
            // A `void*` parameter, or an integer one holding an address (`uintptr_t x_ptr`).
            (kind, v) if p.untyped => {
                return Err(mismatch(format!(
                    "`{}` holds the address of memory the kernel reads as `{}`, but was given {}; give it an array",
                    p.name,
                    kind.describe(),
                    v.kind()
                )))
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
            .enumerate()
            .filter(|&(i, _)| accessor_rank(kernel, i).is_none_or(|r| r > 0))
            .map(|(_, p)| format!("{} {}", p.describe(), p.name))
            .collect::<Vec<_>>()
            .join(", ");
        let example = kernel
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| missing.contains(&p.name))
            .map(|(i, p)| match (p.kind, accessor_rank(kernel, i)) {
                _ if kernel.textures.contains(&(i as u32)) => {
                    format!("--arg {}='load(\"image.npy\")'", p.name)
                }
                (_, Some(rank)) => {
                    let dims = vec!["4"; rank as usize].join(",");
                    format!("--arg '{}=zeros({dims})'", p.name)
                }
                (ParamKind::Scalar { .. }, None) => format!("--arg {}=1024", p.name),
                (ParamKind::Buffer { .. }, None) => format!("--arg {}=zeros(1024)", p.name),
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
    // Each array once, named after the array of the first `&a[i]` into it, else after the first
    // parameter bound to it.
    let mut arrays: Vec<(Arc<BufData>, String, bool)> = std::mem::take(&mut env.order)
        .into_iter()
        .map(|(name, data)| (data, name, true))
        .collect();
    for (i, data, offset, array) in into {
        let name = &kernel.params[i].name;
        let b = match arrays.iter().position(|(a, _, _)| Arc::ptr_eq(a, &data)) {
            Some(b) => b,
            None => {
                arrays.push((data, name.clone(), false));
                arrays.len() - 1
            }
        };
        if let (Some(array), false) = (array, arrays[b].2) {
            arrays[b].1 = array;
            arrays[b].2 = true;
        }
        pointers[i] = Some(Pointer {
            name: name.clone(),
            buffer: Some(b),
            offset,
            unset: false,
        });
    }
    for i in tables {
        let name = &kernel.params[i].name;
        let Some(HostValue::Table(entries)) = env.vars.get(name) else {
            unreachable!("host: a table parameter is bound to its table");
        };
        let words = (0..entries.len())
            .map(|k| {
                let entry = crate::check::table::entry_name(name, k);
                let h = kernel.params.iter().position(|p| p.name == entry);
                match h.and_then(|h| pointers[h].as_ref()) {
                    Some(&Pointer {
                        buffer: Some(b),
                        offset,
                        ..
                    }) => crate::ir::global_address(b, offset, arrays[b].0.elem().size()),
                    _ => 0,
                }
            })
            .collect();
        let b = pointers[i]
            .as_ref()
            .and_then(|p| p.buffer)
            .expect("bound above");
        arrays[b].0 = Arc::new(BufData::U64(words));
    }
    // Every name that holds one of the arrays gives it up until the `expect`s (in name order:
    // the same shapes on every run).
    let mut names: Vec<String> = env
        .vars
        .iter()
        .filter(|(_, v)| arrays.iter().any(|(a, _, _)| v.holds(a)))
        .map(|(k, _)| k.clone())
        .collect();
    names.sort();
    let mut shapes: Vec<Option<Vec<usize>>> = vec![None; arrays.len()];
    let mut held = Vec::new();
    for name in names {
        let Some(v) = env.vars.remove(&name) else {
            continue;
        };
        let Some(b) = arrays.iter().position(|(a, _, _)| v.holds(a)) else {
            continue;
        };
        let view = match v {
            HostValue::Pointer { offset, shape, .. } => {
                shapes[b].get_or_insert(shape);
                View::From(offset)
            }
            HostValue::Array { shape, .. } => {
                shapes[b] = Some(shape.clone());
                View::Whole(shape)
            }
            _ => unreachable!("bind: only arrays and pointers hold arrays"),
        };
        held.push(Held {
            name,
            buffer: b,
            view,
        });
    }
    let shapes = shapes
        .into_iter()
        .zip(&arrays)
        .map(|(s, (a, _, _))| s.unwrap_or_else(|| vec![a.len()]))
        .collect();
    // No name holds the arrays now: they move, uncopied.
    let buffers = arrays
        .into_iter()
        .map(|(data, name, _)| Buffer {
            name,
            written: env.unwritten(&data),
            data: Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone()),
        })
        .collect();
    let args = Args {
        scalars,
        buffers,
        pointers,
        textures,
    };
    Ok((args, shapes, held))
}

/// Evaluates the `expect`s after the run, with each name that held an array bound to its final
/// contents (lent, not copied; a pointer bound at an offset sees a copy of the elements from
/// there on).
pub fn check_expects(
    setup: &mut Setup,
    src: &crate::source::SourceFile,
) -> Result<Vec<ExpectResult>, HostError> {
    let arrays: Vec<Arc<BufData>> = setup
        .args
        .buffers
        .iter_mut()
        .map(|b| Arc::new(std::mem::replace(&mut b.data, BufData::F64(Vec::new()))))
        .collect();
    for h in &setup.held {
        let data = &arrays[h.buffer];
        let (data, shape) = match &h.view {
            View::Whole(shape) => (Arc::clone(data), shape.clone()),
            View::From(0) => (Arc::clone(data), setup.shapes[h.buffer].clone()),
            &View::From(k) => (Arc::new(data.tail(k)), vec![data.len().saturating_sub(k)]),
        };
        let float = data.elem().is_float();
        setup.env.vars.insert(
            h.name.clone(),
            HostValue::Array {
                data,
                shape,
                float,
                dtype: None,
            },
        );
    }
    let results = sequence::expects(&mut setup.env, &setup.expects, src);
    for h in &setup.held {
        setup.env.vars.remove(&h.name);
    }
    for (buf, data) in setup.args.buffers.iter_mut().zip(arrays) {
        buf.data = Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone());
    }
    results
}

/// Every name an expression reads (another `--arg` may set one: `--arg d=arange(16) --arg x=&d[8]`).
fn names_in<'e>(e: &'e crate::syntax::ast::Expr, out: &mut std::collections::HashSet<&'e str>) {
    use crate::syntax::ast::ExprKind;
    match &e.kind {
        ExprKind::Name(n) => {
            out.insert(n.as_str());
        }
        ExprKind::Unary { operand: a, .. }
        | ExprKind::Designated { value: a, .. }
        | ExprKind::Cast { expr: a, .. }
        | ExprKind::Member { base: a, .. }
        | ExprKind::SizeOfExpr(a)
        | ExprKind::Pack(a)
        | ExprKind::IncDec { target: a, .. } => names_in(a, out),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Assign {
            target: lhs,
            value: rhs,
            ..
        }
        | ExprKind::Index {
            base: lhs,
            index: rhs,
        } => {
            names_in(lhs, out);
            names_in(rhs, out);
        }
        ExprKind::Ternary { cond, then, els } => {
            names_in(cond, out);
            names_in(then, out);
            names_in(els, out);
        }
        ExprKind::Call { args, .. } | ExprKind::List(args) | ExprKind::Tuple(args) => {
            args.iter().for_each(|a| names_in(a, out))
        }
        ExprKind::New { args, count, .. } => {
            args.iter().for_each(|a| names_in(a, out));
            count.iter().for_each(|n| names_in(n, out));
        }
        ExprKind::Method { object, args, .. } => {
            names_in(object, out);
            args.iter().for_each(|a| names_in(a, out));
        }
        ExprKind::SizeOfPack(_) => {}
        ExprKind::Int { .. }
        | ExprKind::Float { .. }
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::Lambda(_)
        | ExprKind::SizeOfType(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_memory_limit_is_half_of_what_is_available_at_most_4_gib() {
        let meminfo = "MemTotal:       32000000 kB\nMemAvailable:    2097152 kB\n";
        // 2 GiB available: half is 1 GiB.
        assert_eq!(max_memory_for(Some(meminfo), None, None), 1 << 30);
        // 64 GiB available: 4 GiB.
        let big = "MemAvailable:   67108864 kB\n";
        assert_eq!(max_memory_for(Some(big), None, None), 4 << 30);
        // A container of 3 GiB with 1 GiB used: half of the 2 GiB left.
        let (limit, used) = ("3221225472\n", "1073741824\n");
        assert_eq!(max_memory_for(Some(big), Some(limit), Some(used)), 1 << 30);
        // cgroup v2 without a limit says `max`; nothing readable: 4 GiB.
        assert_eq!(max_memory_for(Some(big), Some("max\n"), None), 4 << 30);
        assert_eq!(max_memory_for(None, None, None), 4 << 30);
    }
}
