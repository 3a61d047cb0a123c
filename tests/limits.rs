//! Pathological sizes: deep nesting, long chains, exploding `#define`s and very long lines end
//! in a diagnostic, never in a stack overflow, a hang or a panic.
//!
//! Each test runs on the test harness's own thread (2 MiB of stack), smaller than `main`'s.

use crate::common;
use common::codes;
use simt::pipeline::{self, Failure};
use simt::source::SourceFile;

fn compile_err(text: String) -> Failure {
    match pipeline::compile(&SourceFile::new("deep.sk", text)) {
        Ok(_) => panic!("compiled unexpectedly"),
        Err(f) => f,
    }
}

/// A launch of `grid` × `block` with the default limits, on one worker.
fn launch_config(grid: [u32; 3], block: [u32; 3]) -> simt::exec::LaunchConfig {
    simt::exec::LaunchConfig {
        grid,
        block,
        dyn_smem: 0,
        max_steps: pipeline::DEFAULT_MAX_STEPS,
        max_block_steps: pipeline::DEFAULT_MAX_BLOCK_STEPS,
        deadline: None,
        threads: 1,
        cooperative: false,
        parallel_min: simt::exec::PARALLEL_MIN_THREADS,
        probe: simt::exec::Probe::default(),
        cache: None,
    }
}

fn kernel(body: &str) -> String {
    format!("__global__ void k(int* a) {{\n    int t = threadIdx.x;\n    {body}\n}}\n")
}

#[test]
fn ten_thousand_nested_parentheses() {
    // Parentheses alone add no level to the tree: `((…(t)…))` is `t`, and it compiles.
    let parens = |n: usize| kernel(&format!("a[0] = {}t{};", "(".repeat(n), ")".repeat(n)));
    assert!(pipeline::compile(&SourceFile::new("deep.sk", parens(10_000))).is_ok());
    // A million of them exhaust the parser's own stack: a diagnostic, not an overflow.
    let f = compile_err(parens(1_000_000));
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
    // 10 000 nested negations `-(-(…))` are 10 000 levels.
    let f = compile_err(kernel(&format!(
        "a[0] = {}t{};",
        "-(".repeat(10_000),
        ")".repeat(10_000)
    )));
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
    assert_eq!(f.exit, 2);
    // The diagnostic renders (its line is long, and shown as a window).
    assert!(simt::cli::render(&f).contains("nested too deeply"));
}

#[test]
fn five_thousand_nested_ifs() {
    let f = compile_err(kernel(&format!(
        "{}a[0] = 1;{}",
        "if (t) { ".repeat(5_000),
        " }".repeat(5_000)
    )));
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
    let f = compile_err(kernel(&format!("{}a[0] = 1;", "if (t) ".repeat(5_000))));
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
}

#[test]
fn long_else_if_chains_and_sums() {
    // 5000 `else if`s nest 5000 deep: refused. 300 are fine and pick the right branch:
    // thread 0 of the 1-thread block takes the first arm, `t == 0`, and stores 0 + 7.
    let chain = |n: usize| -> String {
        let arms: String = (0..n)
            .map(|i| format!("if (t == {i}) a[0] = {i} + 7;\n    else "))
            .collect();
        kernel(&format!("{arms}a[0] = -1;"))
    };
    assert_eq!(codes(&compile_err(chain(5_000))), ["simt::parse::too_deep"]);
    let ok = chain(300) + "launch k { a = zeros(1); grid = 1; block = 1; expect a == 7; }\n";
    let r = common::run(&ok, &[], None, None).expect("300 else-ifs run");
    assert!(r.expects.iter().all(|e| e.passed));
    // `t + t + … + t`: 100 000 terms are refused; 900 terms are summed (t = 0 → 0).
    let sum = |n: usize| kernel(&format!("a[0] = {};", vec!["t"; n].join(" + ")));
    assert_eq!(codes(&compile_err(sum(100_000))), ["simt::parse::too_deep"]);
    assert!(pipeline::compile(&SourceFile::new("sum.sk", sum(900))).is_ok());
    // 100 000 prefix operators.
    let f = compile_err(kernel(&format!("a[0] = {}t;", "-".repeat(100_000))));
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
}

#[test]
fn exploding_defines() {
    // A40 would expand to 2^40 uses of threadIdx.x: the preprocessor stops at its bound.
    let mut text: String = "#define A0 (threadIdx.x)\n".into();
    for i in 1..=40 {
        text += &format!("#define A{i} (A{} + A{})\n", i - 1, i - 1);
    }
    text += "__global__ void k(int* a) { a[0] = A40; }\n";
    assert_eq!(codes(&compile_err(text)), ["simt::parse::macro_too_large"]);
    // A chain of 3000 defines, each one deeper than the last: `threadIdx.x + 1 + … + 1` is a
    // 3000-operator chain, past the parser's depth bound.
    let mut text: String = "#define B0 threadIdx.x\n".into();
    for i in 1..3000 {
        text += &format!("#define B{i} B{} + 1\n", i - 1);
    }
    text += "__global__ void k(int* a) { a[0] = B2999; }\n";
    let f = compile_err(text);
    assert_eq!(codes(&f), ["simt::parse::too_deep"]);
    // The diagnostic points at the use.
    assert_eq!(common::position(&f), (3001, 36));
    // Macro calls nested 5000 deep in each other's arguments.
    let text = format!(
        "#define F(x) x\n__global__ void k(int* a) {{ a[0] = {}1{}; }}\n",
        "F(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(codes(&compile_err(text)), ["simt::parse::too_deep"]);
}

#[test]
fn errors_on_very_long_lines_render() {
    // The error sits past column 65535, where miette's padding would panic: it is shown as a
    // window of the line around the span.
    let text = format!(
        "__global__ void k(int* a) {{ a[0] = {}x; }}\n",
        " ".repeat(70_000)
    );
    let f = compile_err(text);
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    let shown = simt::cli::render(&f);
    assert!(shown.contains("deep.sk:1:70036"), "{shown}");
    assert!(shown.contains("not declared here"), "{shown}");
    assert!(shown.lines().all(|l| l.chars().count() < 400), "{shown}");
}

#[test]
fn exploding_and_deeply_chained_device_functions() {
    // f24 would inline 2^25 - 1 bodies; one diagnostic, then the checker stops expanding.
    let mut text: String = "__device__ int f0(int x) { return x + 1; }\n".into();
    for i in 1..=24 {
        text += &format!(
            "__device__ int f{i}(int x) {{ return f{}(x) + f{}(x); }}\n",
            i - 1,
            i - 1
        );
    }
    text += "__global__ void k(int* a) { a[0] = f24(1); }\n";
    assert_eq!(codes(&compile_err(text)), ["simt::check::too_complex"]);
    // 1500 functions, each calling the one before: nested past 1000 levels once inlined.
    let mut text: String = "__device__ int g0(int x) { return x + 1; }\n".into();
    for i in 1..1500 {
        text += &format!(
            "__device__ int g{i}(int x) {{ return g{}(x) + 1; }}\n",
            i - 1
        );
    }
    text += "__global__ void k(int* a) { a[0] = g1499(1); }\n";
    assert_eq!(codes(&compile_err(text)), ["simt::check::too_complex"]);
}

#[test]
fn long_flat_files_parse() {
    // 4000 statements (146 KB) used to exceed the parser's step budget and be reported as
    // nested too deeply; they are flat, and parse.
    let body: String = (0..4000)
        .map(|i| format!("    a[{i}] = a[{i}] * 2.0f + 1.0f;\n"))
        .collect();
    let text = format!("__global__ void k(float* a) {{\n{body}}}\n");
    assert!(pipeline::compile(&SourceFile::new("long.sk", text)).is_ok());
}

#[test]
fn a_grid_with_more_warps_than_the_step_limit_is_refused_before_it_starts() {
    // 65535² blocks of 32 warps are 2^37 warp launches, over the default 2^32: refused before
    // any block runs (it used to run about a minute before the limit stopped it).
    let src = SourceFile::new("empty.sk", "__global__ void k() {}\n");
    let (_, program) = pipeline::compile(&src).expect("compiles");
    let ir = simt::ir::lower(program.kernel("k").expect("kernel k"));
    let cfg = launch_config([65535, 65535, 1], [1024, 1, 1]);
    let done = simt::exec::Progress::default();
    let e = simt::exec::launch_counting(&ir, &cfg, &mut simt::exec::Args::default(), &done)
        .expect_err("refused");
    assert!(
        matches!(e, simt::exec::RunError::GridStepLimit { .. }),
        "{e:?}"
    );
    assert_eq!(done.blocks.load(std::sync::atomic::Ordering::Relaxed), 0);
    // Under a limit of 2^27 steps, 2^27 + 1 blocks of one warp are one launch too many.
    let over = simt::exec::LaunchConfig {
        grid: [(1 << 27) + 1, 1, 1],
        block: [32, 1, 1],
        max_steps: 1 << 27,
        ..cfg.clone()
    };
    let mut args = simt::exec::Args::default();
    assert!(matches!(
        simt::exec::launch_counting(&ir, &over, &mut args, &done),
        Err(simt::exec::RunError::GridStepLimit { .. })
    ));
    assert_eq!(done.blocks.load(std::sync::atomic::Ordering::Relaxed), 0);
}

#[test]
fn many_errors_are_counted_past_the_first_twenty_and_all_listed_in_json() {
    // 100 lines that each use an undeclared `b`: 100 diagnostics, lines 2 to 101.
    let body: String = (0..100).map(|_| "    a[0] = b;\n").collect();
    let f = compile_err(format!("__global__ void k(int* a) {{\n{body}}}\n"));
    assert_eq!(f.errors.len(), 100);
    let text = simt::cli::render(&f);
    assert_eq!(
        text.matches("simt::check::unknown_name").count(),
        21,
        "{text}"
    );
    assert!(text.contains(
        "... and 80 more errors not shown: 80 × simt::check::unknown_name (--json lists every one)"
    ));
    let lines: Vec<u64> = f
        .errors
        .iter()
        .map(|e| simt::cli::error_json(e)["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(lines, (2..102).collect::<Vec<u64>>());
}

#[test]
fn a_launch_predicted_to_take_long_is_announced() {
    let src = SourceFile::new(
        "k.sk",
        "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n",
    );
    let (_, program) = pipeline::compile(&src).expect("compiles");
    let ir = simt::ir::lower(program.kernel("k").expect("kernel k"));
    let cfg = |blocks: u32| launch_config([blocks, 1, 1], [1024, 1, 1]);
    let n = ir.insts.len() as u64 + 1;
    // 5 s at 5e7 warp instructions a second is 2.5e8: 32 warps a block × n instructions.
    let just_under = (2.5e8 / (32 * n) as f64) as u32 - 1;
    assert_eq!(pipeline::long_work_note(&ir, &cfg(just_under)), None);
    let note = pipeline::long_work_note(&ir, &cfg(just_under * 10)).expect("a note");
    assert!(
        note.starts_with(&format!(
            "note: a large launch: {} warps × {n} steps",
            u64::from(just_under) * 320
        )),
        "{note}"
    );
}

/// Writes `text` to a fresh file and returns its path.
fn kernel_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("simt-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.sk"));
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn initialisers_write_the_buffer_type_so_a_float_array_takes_four_bytes_each() {
    // 2^24 floats are 64 MiB; as doubles first they would be 128 MiB. Under a 100 MiB limit
    // (the engine's state is well under the 36 MiB left) the launch runs.
    let path = kernel_file(
        "typed",
        "__global__ void k(float* a, int* b) { a[0] = 1; b[0] = 1; }\n\
         launch k { a = rand(16777216); b = arange(1024); block = 32; grid = 1; expect a[1] < 1; expect b[1023] == 1023; }\n",
    );
    let (code, out, err) =
        common::simt(&["run", path.to_str().expect("utf-8"), "--max-memory", "100M"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_refused_allocation_is_a_diagnostic_not_an_abort() {
    // 300 million floats (1.2 GB) under a 1 GiB address-space limit: the allocator refuses, and
    // simt says so (it used to abort with "memory allocation of … bytes failed").
    let path = kernel_file(
        "oom",
        "__global__ void k(float* a) { a[0] = 1; }\nlaunch k { a = zeros(300000000); block = 32; grid = 1; }\n",
    );
    let script = format!(
        "ulimit -v 1048576 && exec {} run {}",
        env!("CARGO_BIN_EXE_simt"),
        path.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("simt::host::out_of_memory"), "{err}");
    assert!(err.contains("needs 1.1 GiB (1200000000 bytes)"), "{err}");
}

#[test]
fn host_work_past_the_step_limit_is_refused_before_it_runs() {
    // 4096³ multiply-adds (2^36) are more than the default --max-steps (2^32) allows.
    let path = kernel_file(
        "matmul",
        "__global__ void k(float* a) { a[0] = 1; }\nlaunch k { o = matmul(ones(16777216), ones(16777216), 4096, 4096, 4096); a = zeros(32); block = 32; grid = 1; expect a == o[0]; }\n",
    );
    let (code, _, err) = common::simt(&["run", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("simt::host::work_limit"), "{err}");
    assert!(err.contains("needs 68719476736 operations"), "{err}");
    assert!(err.contains("(4294967296)"), "{err}");
}

#[test]
fn files_of_a_hundred_thousand_lines_check_run_and_report() {
    // 10^5 statements, each on its own line: the kernel runs and every line is in the report;
    // with an error on each line, all 10^5 diagnostics come back (20 drawn).
    let body: String = (0..100_000).map(|_| "    a[0] = a[0] + 1.0f;\n").collect();
    let path = kernel_file(
        "long",
        &format!("__global__ void k(float* a) {{\n{body}}}\nlaunch k {{ a = zeros(32); block = 32; grid = 1; expect a[0] == 100000; }}\n"),
    );
    let (code, out, err) =
        common::simt(&["run", path.to_str().expect("utf-8"), "--json", "--lines"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["lines"].as_array().map(Vec::len), Some(100_000));
    assert_eq!(v["lines"][99_999]["line"], 100_001);
    let bad: String = (0..100_000).map(|_| "    a[0] = b;\n").collect();
    let f = compile_err(format!("__global__ void k(float* a) {{\n{bad}}}\n"));
    assert_eq!(f.errors.len(), 100_000);
    assert!(simt::cli::render(&f).contains("... and 99980 more errors not shown"));
    assert_eq!(simt::cli::error_json(&f.errors[99_999])["line"], 100_001);
}

#[test]
fn a_long_file_keeps_its_step_limit_while_other_threads_read_short_text() {
    // pest's step limit is one setting for the process. The 10^5-line file below needs some
    // 190 steps per byte (2.7·10^8 in all), more than the least limit (10^8) a short text is
    // given: were a short parse on another thread to set its limit while the long one starts,
    // the long file would stop part-way with `simt::parse::too_large`.
    let bad: String = (0..100_000).map(|_| "    a[0] = b;\n").collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    let f = std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    assert!(simt::syntax::parse_value("1").is_ok());
                }
            });
        }
        let f = compile_err(format!("__global__ void k(float* a) {{\n{bad}}}\n"));
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        f
    });
    assert_eq!(codes(&f)[0], "simt::check::unknown_name");
    assert_eq!(f.errors.len(), 100_000);
}
