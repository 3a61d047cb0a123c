//! Any text: run every kernel of the file with its launch section, under small limits, and render
//! the report (table, JSON, per-line view, hints, lane maps) or the diagnostics. Must never panic,
//! hang or allocate past the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simt::host::Overrides;
use simt::pipeline::{self, RunOptions};
use simt::report::model::RunOutput;
use simt::report::style::Paint;
use simt::report::{hints, json, lanemap, lines, table};
use simt::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = SourceFile::new("fuzz.sk", text);
    let Ok((_, program)) = pipeline::compile(&src) else {
        return;
    };
    for kernel in &program.kernels {
        let opts = RunOptions {
            kernel: Some(kernel.name.clone()),
            overrides: Overrides {
                max_memory: 32 << 20,
                ..Overrides::default()
            },
            max_steps: 20_000,
            max_block_steps: 20_000 * 32,
            threads: 1,
            ..RunOptions::default()
        };
        match pipeline::run(&src, &opts) {
            Ok(report) => {
                let output = RunOutput::new(&report);
                let _ = table::render(&output);
                let _ = json::to_json(&report);
                let _ = hints::hints(&report);
                let _ = lines::render(&output, report.listing(), Paint::default());
                // The lane map of every line with memory accesses (first lines only: it is slow).
                for line in 1..=40 {
                    let _ = lanemap::render(&report, line, Paint::default());
                }
            }
            Err(failure) => {
                let _ = simt::cli::render(&failure);
                for e in &failure.errors {
                    let _ = simt::cli::error_json(e);
                }
            }
        }
    }
});
