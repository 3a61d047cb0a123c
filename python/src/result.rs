//! `simt.Result`: one finished run — its arrays as numpy arrays, its counters and findings as
//! the dicts `simt run --json` prints, its report as text and as HTML.

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use simt::report::model::RunOutput;
use simt::report::{html, json as report_json, lanemap, style::Paint, table, Report};

/// What `simt.run` returns.
///
/// `result["c"]` (or `result.arrays["c"]`) is array `c` after the run, a numpy array of its
/// dtype and shape. `counters`, `derived`, `ncu`, `races`, `uninit`, `hints`, `occupancy`,
/// `time`, `time_refined`, `lines`, `barriers`, `expects`, `launch` and `sample` are the fields
/// of `simt run --json` of the same names (`json` is the whole object). `str(result)` is the
/// text report; in Jupyter the result draws itself as HTML.
#[pyclass(name = "Result", module = "simt", frozen)]
pub struct RunResult {
    report: Report,
    /// The output model of the run, built once: the JSON, the text and the HTML render it.
    model: RunOutput,
    /// `simt run --json`'s object, as Python dicts and lists.
    json: Py<PyDict>,
    /// Array name → numpy array.
    arrays: Py<PyDict>,
}

impl RunResult {
    /// Wraps a finished run, converting its JSON and arrays once.
    pub fn new(py: Python<'_>, finished: simt::pipeline::Finished) -> PyResult<RunResult> {
        let model = RunOutput::new(&finished.report);
        let json = crate::convert::to_python(py, &report_json::to_value(&model))?
            .cast_into::<PyDict>()?
            .unbind();
        let arrays = PyDict::new(py);
        for a in finished.arrays {
            arrays.set_item(&a.name, crate::convert::to_numpy(py, a.data, &a.shape)?)?;
        }
        Ok(RunResult {
            report: finished.report,
            model,
            json,
            arrays: arrays.unbind(),
        })
    }

    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json
            .bind(py)
            .get_item(key)?
            .ok_or_else(|| PyKeyError::new_err(key.to_string()))
    }
}

#[pymethods]
impl RunResult {
    /// Array `name` after the run (a kernel parameter or a launch-section array).
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let arrays = self.arrays.bind(py);
        match arrays.get_item(name)? {
            Some(a) => Ok(a),
            None => {
                let names: Vec<String> = arrays
                    .keys()
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>();
                Err(PyKeyError::new_err(if names.is_empty() {
                    format!("no array `{name}`: this run keeps none (a sampled run's arrays hold only the sampled blocks' writes)")
                } else {
                    format!("no array `{name}`; the arrays are: {}", names.join(", "))
                }))
            }
        }
    }

    fn __contains__(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        self.arrays.bind(py).contains(name)
    }

    /// Every array after the run, by name: kernel parameters and launch-section arrays.
    #[getter]
    fn arrays<'py>(&self, py: Python<'py>) -> Bound<'py, PyDict> {
        self.arrays.bind(py).clone()
    }

    /// The whole `simt run --json` object.
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> Bound<'py, PyDict> {
        self.json.bind(py).clone()
    }

    /// The kernel that ran (an instance's name for a template: `k<64,8>`).
    #[getter]
    fn kernel(&self) -> &str {
        &self.report.kernel
    }

    /// The GPU model's name.
    #[getter]
    fn gpu(&self) -> &str {
        &self.report.gpu.name
    }

    /// Totals by the reference's names: `gld_sectors`, `smem_wavefronts`, `divergent`, ...
    #[getter]
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "counters")
    }

    /// Ratios of the counters: `bytes_requested_per_byte_moved`, `sectors_per_request`, ...
    #[getter]
    fn derived<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "derived")
    }

    /// The counters under Nsight Compute's metric names.
    #[getter]
    fn ncu<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "ncu")
    }

    /// Data races, grouped by kind, array and the lines of both accesses.
    #[getter]
    fn races<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "races")
    }

    /// Reads of uninitialised memory, grouped by array and line.
    #[getter]
    fn uninit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "uninit")
    }

    /// Advice derived from the counters: `{rule, line, message}`.
    #[getter]
    fn hints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "hints")
    }

    /// The occupancy calculator's result for this launch.
    #[getter]
    fn occupancy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "occupancy")
    }

    /// The roofline time estimate: `t` (seconds), `t_mem`, `t_issue`, `bound`.
    #[getter]
    fn time<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "time")
    }

    /// The occupancy-aware estimate, or `{"error": ...}`.
    #[getter]
    fn time_refined<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "time_refined")
    }

    /// Per source line that issued: its counters and text.
    #[getter]
    fn lines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "lines")
    }

    /// Each `__syncthreads()` that ran and whether it separated two warps' accesses.
    #[getter]
    fn barriers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "barriers")
    }

    /// The launch section's `expect`s: `{text, passed, detail}`.
    #[getter]
    fn expects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "expects")
    }

    /// Whether every `expect` held.
    #[getter]
    fn ok(&self) -> bool {
        self.report.expects_passed()
    }

    /// The launch: grid, block, threads and warps per block, shared memory, registers.
    #[getter]
    fn launch<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "launch")
    }

    /// `None`, or for a sampled run what ran and each counter's error bound.
    #[getter]
    fn sample<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "sample")
    }

    /// What the kernel printed with `printf`.
    #[getter]
    fn printf(&self) -> &str {
        &self.report.printf
    }

    /// The text report, as `simt run` prints it.
    #[getter]
    fn report(&self) -> String {
        table::text(&self.model, self.report.listing(), false, Paint::default())
    }

    /// The text report; with `lines=True` the per-line view (`simt run --lines`) after it.
    #[pyo3(signature = (lines = false))]
    fn text(&self, lines: bool) -> String {
        table::text(&self.model, self.report.listing(), lines, Paint::default())
    }

    /// The HTML report: a `<div>` for a page of your own, or with `full=True` a whole
    /// self-contained page (what `simt run --html` writes).
    #[pyo3(signature = (full = false))]
    fn html(&self, full: bool) -> String {
        if full {
            html::document(&self.model, &self.report)
        } else {
            html::fragment(&self.model, &self.report)
        }
    }

    /// Writes the HTML report, a whole page, to `path`.
    fn save_html(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, html::document(&self.model, &self.report)).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot write `{}`: {e}", path.display()))
        })
    }

    /// Lane → address → sector (global) or lane → word → bank (shared) for the first warp that
    /// ran each memory access of source line `line` (`simt run --map LINE --json`'s `lane_map`).
    fn lane_map<'py>(&self, py: Python<'py>, line: usize) -> PyResult<Bound<'py, PyAny>> {
        let v = lanemap::to_json(&self.report, line).map_err(|why| {
            PyValueError::new_err(format!("line {line} has no memory access that ran; {why}"))
        })?;
        crate::convert::to_python(py, &v)
    }

    fn _repr_html_(&self) -> String {
        html::fragment(&self.model, &self.report)
    }

    fn __str__(&self) -> String {
        self.report()
    }

    fn __repr__(&self) -> String {
        let (m, c, d) = (
            &self.model,
            &self.model.measures.counters,
            &self.model.measures.derived,
        );
        format!(
            "<simt.Result {} on {}: {} blocks, {:.2} sectors/request, {:.2} wavefronts/instruction, {} races, {}>",
            m.kernel,
            m.gpu,
            c.blocks,
            d.sectors_per_request,
            d.bank_conflict_factor,
            c.race_count,
            table::seconds(m.measures.time.t)
        )
    }
}
