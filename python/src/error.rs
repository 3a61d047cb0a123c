//! Diagnostics as Python exceptions: `simt.SimtError`, carrying the first diagnostic's code,
//! message, line and column, every diagnostic as a dict, and miette's drawing as its text.

use pyo3::prelude::*;
use pyo3::types::PyList;

use simt::pipeline::{Failure, Located, SimtDiagnostic, EXIT_USAGE};
use simt::source::SourceFile;

pyo3::create_exception!(
    simt,
    SimtError,
    pyo3::exceptions::PyException,
    "A kernel or launch simt refused or that failed: `str(e)` is the diagnostic as the command \
line draws it; `code`, `message`, `file`, `line`, `column`, `label`, `help` describe the first \
one, `errors` lists every one as a dict and `exit` is the command line's exit status (1 a \
run-time failure, 2 anything else)."
);

/// The exception for a failure: the drawing as its message, the first diagnostic's fields as
/// attributes.
pub fn raise(py: Python<'_>, f: &Failure) -> PyErr {
    let err = SimtError::new_err(simt::render::render(f));
    let fill = || -> PyResult<()> {
        let value = err.value(py);
        let json = simt::render::failure_json(f);
        let first = &json["error"];
        for key in ["code", "message", "file", "line", "column", "label", "help"] {
            value.setattr(key, crate::convert::to_python(py, &first[key])?)?;
        }
        value.setattr("exit", f.exit)?;
        let errors = PyList::empty(py);
        for e in json["errors"].as_array().into_iter().flatten() {
            errors.append(crate::convert::to_python(py, e)?)?;
        }
        value.setattr("errors", errors)?;
        Ok(())
    };
    match fill() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A failure of one diagnostic about `text`, shown under the name `name`.
pub fn single(py: Python<'_>, name: &str, text: &str, inner: SimtDiagnostic) -> PyErr {
    let f = Failure {
        errors: vec![Located::new(
            Some(SourceFile::new(name, text).named_source()),
            inner,
        )],
        exit: EXIT_USAGE,
    };
    raise(py, &f)
}
