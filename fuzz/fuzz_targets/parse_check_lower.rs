//! Any text: parse, check and lower every kernel, and render every diagnostic. Must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simt::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = SourceFile::new("fuzz.sk", text);
    match simt::pipeline::compile(&src) {
        Ok((_, program)) => {
            for k in &program.kernels {
                let _ = simt::ir::lower(k);
            }
        }
        Err(failure) => {
            let _ = simt::cli::render(&failure);
        }
    }
});
