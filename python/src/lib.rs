//! `import simt`: run CUDA kernels on numpy arrays from Python and notebooks, through simt-lab's
//! own pipeline.

#![deny(unsafe_code)]

mod convert;
mod error;
mod result;

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use simt::exec::Interrupt;
use simt::gpu::{self, OccupancyRequest};
use simt::host::{ArgOverride, Overrides};
use simt::pipeline::{self, Failure, RunOptions, SampleSize};
use simt::source::SourceFile;

use error::{raise, SimtError};
use result::RunResult;

/// How often a launch in progress looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A kernel's source: a path (`str` naming a `.sk`/`.cu`/`.cuh` file or an existing file, or any
/// `os.PathLike`), or the source text itself.
fn source(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<SourceFile> {
    let path: Option<PathBuf> = match s.cast::<PyString>() {
        Ok(text) => {
            let text = text.to_str()?;
            let looks_like_path = !text.contains('\n')
                && ([".sk", ".cu", ".cuh"].iter().any(|x| text.ends_with(x))
                    || std::path::Path::new(text).is_file());
            if !looks_like_path {
                return Ok(SourceFile::new("<string>", text));
            }
            Some(PathBuf::from(text))
        }
        Err(_) => s.extract::<PathBuf>().ok(),
    };
    match path {
        Some(p) => pipeline::read(&p).map_err(|f| raise(py, &f)),
        None => Err(PyTypeError::new_err(
            "the kernel must be source text (str) or a path (str or os.PathLike)",
        )),
    }
}

/// The GPU a `gpu=` names.
fn load_gpu(py: Python<'_>, name: &str) -> PyResult<gpu::GpuConfig> {
    pipeline::load_gpu(name).map_err(|f| raise(py, &f))
}

/// Runs a kernel and returns its arrays, counters and report.
///
/// `source` is the kernel's text or a path to a `.sk`/`.cu` file. `args` maps parameter names
/// (and names the launch section sets) to numpy arrays (their dtype must be the parameter's
/// element type: `float*` takes float32), lists of numbers, numbers, `None` (NULL) or launch
/// expressions such as `"rand(4096)"`; a file's launch section supplies the rest. `grid` and
/// `block` are ints or tuples of up to three. `sample` is a fraction of the blocks, or "auto".
/// `max_steps` and `max_block_steps` are `--max-steps` and `--max-block-steps`; `max_dyn_smem`
/// is `--max-dyn-smem`, the opt-in for dynamic shared memory above 48 KB. The launch runs
/// without the GIL; Ctrl-C stops it with `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (source, grid=None, block=None, args=None, gpu="h100", kernel=None,
    dyn_smem=None, sample=None, threads=None, seed=0, regs=32, timeout=None, max_steps=None,
    max_block_steps=None, max_dyn_smem=None))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    grid: Option<&Bound<'_, PyAny>>,
    block: Option<&Bound<'_, PyAny>>,
    args: Option<&Bound<'_, PyDict>>,
    gpu: &str,
    kernel: Option<String>,
    dyn_smem: Option<u64>,
    sample: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    seed: u64,
    regs: u32,
    timeout: Option<f64>,
    max_steps: Option<u64>,
    max_block_steps: Option<u64>,
    max_dyn_smem: Option<u64>,
) -> PyResult<RunResult> {
    let src = self::source(py, source)?;
    let mut overrides = Overrides {
        grid: grid.map(|g| convert::dim("grid", g)).transpose()?,
        block: block.map(|b| convert::dim("block", b)).transpose()?,
        seed,
        ..Overrides::default()
    };
    for (k, v) in args.into_iter().flatten() {
        let name: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("args keys must be parameter names (str)"))?;
        let (value, text) = convert::arg_value(&name, &v)?;
        overrides.args.push(ArgOverride {
            label: format!("args[{name:?}]"),
            name,
            value,
            text,
        });
    }
    let sample = sample.map(parse_sample).transpose()?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let timeout = timeout
        .map(|t| {
            (t.is_finite() && t > 0.0 && t < 1e9)
                .then(|| Duration::from_secs_f64(t))
                .ok_or_else(|| {
                    PyValueError::new_err("timeout must be a positive number of seconds")
                })
        })
        .transpose()?;
    let opts = RunOptions {
        kernel,
        overrides,
        dyn_smem,
        max_dyn_smem,
        timeout,
        sample,
        regs,
        max_steps: max_steps.unwrap_or(pipeline::DEFAULT_MAX_STEPS),
        max_block_steps: max_block_steps.unwrap_or(pipeline::DEFAULT_MAX_BLOCK_STEPS),
        gpu: load_gpu(py, gpu)?,
        threads: threads.unwrap_or_else(pipeline::default_threads),
        ..RunOptions::default()
    };
    let finished = launch(py, &src, &opts)?;
    RunResult::new(py, finished)
}

/// Runs the pipeline on a thread of its own while this one, without the GIL, waits for it and
/// looks for Ctrl-C: a `KeyboardInterrupt` raises the launch's interrupt and is re-raised once
/// the launch has stopped.
fn launch(py: Python<'_>, src: &SourceFile, opts: &RunOptions) -> PyResult<pipeline::Finished> {
    let interrupt = Interrupt::default();
    let (tx, mut rx) = mpsc::channel::<()>();
    let mut signal: Option<PyErr> = None;
    let outcome = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let r = pipeline::run_keeping(src, opts, Some(&interrupt));
            // The receiver may be gone only if this thread's parent stopped waiting: nothing to tell.
            let _ = tx.send(());
            r
        });
        loop {
            let (done, back) = py.detach(move || {
                let done = !matches!(
                    rx.recv_timeout(SIGNAL_POLL),
                    Err(mpsc::RecvTimeoutError::Timeout)
                );
                (done, rx)
            });
            rx = back;
            if done {
                break;
            }
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    interrupt.raise();
                    signal = Some(e);
                }
            }
        }
        worker.join()
    });
    if let Some(e) = signal {
        return Err(e);
    }
    match outcome {
        Ok(r) => r.map_err(|f: Failure| raise(py, &f)),
        Err(_) => Err(PyRuntimeError::new_err(
            "simt stopped with an internal error (a bug in simt: please report it with the kernel)",
        )),
    }
}

/// `sample=`: a fraction above 0 and at most 1, or "auto".
fn parse_sample(v: &Bound<'_, PyAny>) -> PyResult<SampleSize> {
    if let Ok(s) = v.extract::<String>() {
        if s == "auto" {
            return Ok(SampleSize::Auto);
        }
    }
    match v.extract::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(SampleSize::Fraction(f)),
        _ => Err(PyValueError::new_err(
            "sample must be a fraction of the blocks above 0 and at most 1, or \"auto\"",
        )),
    }
}

/// Parses and type-checks a kernel without running it: the file's kernels with their
/// parameters (`simt check --json`). Raises `SimtError` on a mistake.
#[pyfunction]
fn check<'py>(py: Python<'py>, source: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let src = self::source(py, source)?;
    let (module, program) = pipeline::compile(&src).map_err(|f| raise(py, &f))?;
    convert::to_python(py, &simt::render::check_json(&src, &module, &program))
}

/// NVIDIA's occupancy calculator for one launch shape (`simt occupancy --json`); with `blocks`
/// the waves, with `bytes_per_request` the latency hiding of the resident warps.
#[pyfunction]
#[pyo3(signature = (threads, regs=32, smem=0, blocks=None, gpu="h100", carveout=None,
    bytes_per_request=None, in_flight=1.0))]
#[allow(clippy::too_many_arguments)]
fn occupancy<'py>(
    py: Python<'py>,
    threads: u32,
    regs: u32,
    smem: u32,
    blocks: Option<u64>,
    gpu: &str,
    carveout: Option<u32>,
    bytes_per_request: Option<f64>,
    in_flight: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let g = load_gpu(py, gpu)?;
    if carveout.is_some_and(|c| c > 100) {
        return Err(PyValueError::new_err("carveout is a percentage, 0 to 100"));
    }
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if bytes_per_request.is_some_and(|b| !positive(b)) || !positive(in_flight) {
        return Err(PyValueError::new_err(
            "bytes_per_request and in_flight must be positive",
        ));
    }
    let mut req = OccupancyRequest::new(threads, regs, smem);
    req.carveout_percent = carveout;
    let occ = gpu::occupancy(&g, &req);
    let waves = blocks.map(|b| gpu::waves(&g, b, occ.blocks_per_sm));
    let hiding = bytes_per_request
        .map(|b| gpu::latency_hiding(&g, f64::from(occ.active_warps), b, in_flight));
    convert::to_python(
        py,
        &simt::render::occupancy_json(&g, &occ, waves.as_ref(), hiding.as_ref()),
    )
}

/// The GPU presets and their numbers (`simt gpus --json`'s list); each `preset` is a `gpu=` name.
#[pyfunction]
fn gpus(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let v = simt::render::gpus_json(&gpu::named_presets());
    convert::to_python(py, &v["gpus"])
}

/// A paper GPU: run CUDA kernels on numpy arrays and see what a profiler on an H100 would show.
#[pymodule(name = "simt")]
fn simt_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(occupancy, m)?)?;
    m.add_function(wrap_pyfunction!(gpus, m)?)?;
    m.add_class::<RunResult>()?;
    m.add("SimtError", m.py().get_type::<SimtError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
