//! What the front ends show, made once: diagnostics drawn by miette and as JSON, and the JSON of
//! `check`, `gpus` and `occupancy`. The CLI prints it; the Python module hands it to Python.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use serde_json::Value;

use crate::check::typed::Program;
use crate::gpu::{GpuConfig, LatencyHiding, Occupancy, Waves};
use crate::pipeline::{self, Failure, EXIT_RUN, EXIT_USAGE};
use crate::report::json::to_value;
use crate::report::model::{
    CheckOutput, CheckedKernel, CheckedParam, ErrorOutput, ErrorRecord, GpuPreset, GpusOutput,
    OccupancyOutput, Version,
};
use crate::source::SourceFile;
use crate::syntax::ast;

/// The diagnostics of a failure as the terminal shows them, without colour.
pub fn render(f: &Failure) -> String {
    render_with(f, GraphicalTheme::unicode_nocolor())
}

/// Diagnostics of one failure drawn in full; the rest are counted by code (`--json` lists all).
const MAX_RENDERED: usize = 20;

/// The diagnostics of a failure drawn with `theme`.
pub fn render_with(f: &Failure, theme: GraphicalTheme) -> String {
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for e in f.errors.iter().take(MAX_RENDERED) {
        let _ = handler.render_report(&mut out, e);
    }
    if f.errors.len() > MAX_RENDERED {
        let mut codes: Vec<(String, usize)> = Vec::new();
        for e in &f.errors[MAX_RENDERED..] {
            let code = e
                .code()
                .map_or_else(|| "other".to_string(), |c| c.to_string());
            match codes.iter_mut().find(|(c, _)| *c == code) {
                Some((_, n)) => *n += 1,
                None => codes.push((code, 1)),
            }
        }
        let counted: Vec<String> = codes.iter().map(|(c, n)| format!("{n} × {c}")).collect();
        out.push_str(&format!(
            "\n... and {} more errors not shown: {} (--json lists every one)\n",
            f.errors.len() - MAX_RENDERED,
            counted.join(", ")
        ));
    }
    out
}

/// One diagnostic in the output model: code, message, file, line and column of the first label.
pub fn error_record(e: &pipeline::Located) -> ErrorRecord {
    let label = e.labels().and_then(|mut l| l.next());
    let (line, column, label_text) = match (&label, &e.src) {
        (Some(l), Some(src)) => {
            let (line, column) = src.line_col(l.offset());
            (Some(line), Some(column), l.label().map(str::to_string))
        }
        _ => (None, None, None),
    };
    ErrorRecord {
        code: e.code().map(|c| c.to_string()),
        message: e.to_string(),
        file: e.src.as_ref().map(|s| s.name().to_string()),
        line,
        column,
        label: label_text,
        help: e.help().map(|h| h.to_string()),
        exit: if matches!(e.inner, pipeline::SimtDiagnostic::Run(_)) {
            EXIT_RUN
        } else {
            EXIT_USAGE
        },
    }
}

/// One diagnostic as JSON (an [`ErrorRecord`]).
pub fn error_json(e: &pipeline::Located) -> Value {
    to_value(&error_record(e))
}

/// A failure in the output model: `{schema, error, errors}`, `error` the first of `errors`.
pub fn failure_output(f: &Failure) -> ErrorOutput {
    let errors: Vec<ErrorRecord> = f.errors.iter().map(error_record).collect();
    let error = errors.first().cloned().unwrap_or_else(|| ErrorRecord {
        code: None,
        message: "failed".into(),
        file: None,
        line: None,
        column: None,
        label: None,
        help: None,
        exit: f.exit,
    });
    ErrorOutput {
        schema: Version,
        error,
        errors,
    }
}

/// A failure as `--json` prints it (an [`ErrorOutput`]).
pub fn failure_json(f: &Failure) -> Value {
    to_value(&failure_output(f))
}

/// `simt check --json`: the file's kernels with their parameters, and the host code it skips.
pub fn check_json(src: &SourceFile, module: &ast::Module, program: &Program) -> Value {
    to_value(&CheckOutput {
        schema: Version,
        file: src.name().to_string(),
        ok: true,
        kernels: program
            .kernels
            .iter()
            .map(|k| CheckedKernel {
                name: k.name.clone(),
                params: k
                    .params
                    .iter()
                    .map(|p| CheckedParam {
                        name: p.name.clone(),
                        ty: p.describe(),
                    })
                    .collect(),
            })
            .collect(),
        host_code: pipeline::host_note(module, src),
    })
}

/// `simt gpus --json`: each preset's numbers and its `--gpu` name.
pub fn gpus_json(presets: &[(&str, GpuConfig)]) -> Value {
    to_value(&GpusOutput {
        schema: Version,
        gpus: presets
            .iter()
            .map(|(preset, g)| GpuPreset {
                preset: preset.to_string(),
                gpu: g.clone(),
            })
            .collect(),
    })
}

/// `simt occupancy --json`: the calculator's result, with the waves and the latency hiding when
/// they were asked for.
pub fn occupancy_json(
    gpu: &GpuConfig,
    occ: &Occupancy,
    waves: Option<&Waves>,
    hiding: Option<&LatencyHiding>,
) -> Value {
    to_value(&OccupancyOutput {
        schema: Version,
        gpu: gpu.name.clone(),
        occupancy: occ.clone(),
        waves: waves.copied(),
        latency_hiding: hiding.copied(),
    })
}
