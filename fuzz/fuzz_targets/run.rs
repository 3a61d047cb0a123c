//! Any text: run every kernel of the file with its launch section, under small limits, and render
//! the report or the diagnostics. Must never panic, hang or allocate past the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simt::gpu::GpuConfig;
use simt::host::Overrides;
use simt::pipeline::{self, RunOptions};
use simt::report::{json, table};
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
            arg_texts: Vec::new(),
            dyn_smem: None,
            max_steps: 20_000,
            regs: 32,
            gpu: GpuConfig::h100_sxm(),
            saves: Vec::new(),
        };
        match pipeline::run(&src, &opts) {
            Ok(report) => {
                let _ = table::render(&report);
                let _ = json::to_json(&report);
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
