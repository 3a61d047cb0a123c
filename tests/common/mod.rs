//! Helpers shared by the integration tests: run a kernel given as text through the library pipeline.

#![allow(dead_code)]

use simt::gpu::GpuConfig;
use simt::host::{ArgOverride, ArgValue, Overrides};
use simt::pipeline::{self, Failure, RunOptions};
use simt::report::Report;
use simt::source::SourceFile;

/// Runs `src` with `--arg`s (`name`, `value`), an optional grid and block.
pub fn run(
    src: &str,
    args: &[(&str, &str)],
    grid: Option<[u32; 3]>,
    block: Option<[u32; 3]>,
) -> Result<Report, Failure> {
    run_on(src, args, grid, block, 2)
}

/// [`run`] on `threads` worker threads.
pub fn run_threads(
    src: &str,
    args: &[(&str, &str)],
    grid: [u32; 3],
    block: [u32; 3],
    threads: usize,
) -> Result<Report, Failure> {
    run_on(src, args, Some(grid), Some(block), threads)
}

fn run_on(
    src: &str,
    args: &[(&str, &str)],
    grid: Option<[u32; 3]>,
    block: Option<[u32; 3]>,
    threads: usize,
) -> Result<Report, Failure> {
    let overrides = Overrides {
        args: args
            .iter()
            .map(|(n, v)| {
                let e = simt::syntax::parse_value(v).expect("test arg parses");
                ArgOverride::flag(*n, ArgValue::Expr(e), *v)
            })
            .collect(),
        grid,
        block,
        ..Overrides::default()
    };
    let opts = RunOptions {
        kernel: None,
        overrides,
        dyn_smem: None,
        max_dyn_smem: None,
        max_steps: 1 << 20,
        max_block_steps: pipeline::DEFAULT_MAX_BLOCK_STEPS,
        timeout: None,
        sample: None,
        launch: None,
        section: None,
        regs: 32,
        gpu: GpuConfig::h100_sxm(),
        saves: Vec::new(),
        threads,
        parallel_min: simt::exec::PARALLEL_MIN_THREADS,
        probe: simt::exec::Probe::default(),
        progress: false,
        cooperative: false,
        defines: Vec::new(),
    };
    pipeline::run(&SourceFile::new("test.sk", src), &opts)
}

/// Runs and unwraps, failing the test with the rendered diagnostics.
pub fn ok(src: &str, args: &[(&str, &str)], grid: [u32; 3], block: [u32; 3]) -> Report {
    match run(src, args, Some(grid), Some(block)) {
        Ok(r) => {
            for e in &r.expects {
                assert!(e.passed, "expect `{}` failed: {:?}", e.text, e.detail);
            }
            r
        }
        Err(f) => panic!("kernel failed: {}", describe(&f)),
    }
}

/// The codes of a failure's diagnostics.
pub fn codes(f: &Failure) -> Vec<String> {
    use miette::Diagnostic;
    f.errors
        .iter()
        .map(|e| e.code().map(|c| c.to_string()).unwrap_or_default())
        .collect()
}

/// Codes and messages, for assertion messages.
pub fn describe(f: &Failure) -> String {
    f.errors
        .iter()
        .map(|e| format!("{}: {}", codes(f).join(","), e))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The failure of a kernel expected to fail.
pub fn err(
    src: &str,
    args: &[(&str, &str)],
    grid: Option<[u32; 3]>,
    block: Option<[u32; 3]>,
) -> Failure {
    match run(src, args, grid, block) {
        Ok(_) => panic!("kernel unexpectedly succeeded"),
        Err(f) => f,
    }
}

/// The 1-based line and column where the first label of the first diagnostic starts.
pub fn position(f: &Failure) -> (usize, usize) {
    use miette::Diagnostic;
    let e = &f.errors[0];
    let label = e
        .labels()
        .and_then(|mut l| l.next())
        .expect("diagnostic has a label");
    let src = e.source_code().expect("diagnostic has a source");
    let c = src.read_span(label.inner(), 0, 0).expect("span readable");
    (c.line() + 1, c.column() + 1)
}

/// Runs the `simt` binary in the repository root (no colour): exit code, stdout, stderr.
pub fn simt(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_simt"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("simt runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A one-block kernel of 32 threads whose loop `for (int i = 0; i < bound; i++) { body }` adds
/// into `s` from `a` (2048 floats), with the parameter `n` set to `n`: the loop shapes the
/// compiled-instruction and latency-round tests vary.
pub fn sum_loop(bound: &str, n: u32, body: &str) -> String {
    format!(
        "__global__ void k(const float* a, float* out, int n) {{
            int t = threadIdx.x;
            float s = 0.0f;
            for (int i = 0; i < {bound}; i++) {{
                {body}
            }}
            out[t] = s;
        }}
        launch k {{
            n = {n};
            a = arange(2048);
            out = zeros(32);
            grid = 1;
            block = 32;
        }}"
    )
}

/// A `.npy` file: version 1 header padded to 64 bytes, then `data`. A structured `descr`
/// (`[('a', '<f4')]`) is written as it is, a plain one quoted.
pub fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
    let descr = if descr.starts_with('[') {
        descr.to_string()
    } else {
        format!("'{descr}'")
    };
    let mut header = format!(
        "{{'descr': {descr}, 'fortran_order': {}, 'shape': {shape}, }}",
        if fortran { "True" } else { "False" }
    );
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}
