//! Results, counters, cache counts, races and errors do not depend on the number of worker threads.
//!
//! Launches below `exec::PARALLEL_MIN_THREADS` threads normally run on one worker whatever
//! `threads` says; these tests set `parallel_min: 0` so that every launch given several workers
//! really spreads its blocks over them.

use simt::pipeline::{self, RunOptions};

fn run_all(threads: usize) -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/kernels"))
        .expect("kernels/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sk"))
        .collect();
    files.sort();
    for path in files {
        let src = pipeline::read(&path).expect("readable");
        let (module, _) = pipeline::compile(&src).expect("shipped kernels compile");
        for launch in &module.launches {
            let opts = RunOptions {
                kernel: Some(launch.kernel.name.clone()),
                threads,
                parallel_min: 0,
                ..RunOptions::default()
            };
            let summary = match pipeline::run(&src, &opts) {
                Ok(r) => format!(
                    "{} {} {:?} {:?}",
                    serde_json::to_string(&r.counters).expect("json"),
                    serde_json::to_string(&r.cache).expect("json"),
                    r.races.iter().map(|x| x.describe()).collect::<Vec<_>>(),
                    r.expects
                        .iter()
                        .map(|e| (e.passed, e.detail.clone()))
                        .collect::<Vec<_>>()
                ),
                Err(f) => format!(
                    "{:?}",
                    f.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
                ),
            };
            out.push((
                format!("{}:{}", path.display(), launch.kernel.name),
                summary,
            ));
        }
    }
    out
}

#[test]
fn every_shipped_kernel_is_identical_on_one_and_several_threads() {
    let one = run_all(1);
    let three = run_all(3);
    assert!(one.len() >= 12);
    for (a, b) in one.iter().zip(&three) {
        assert_eq!(a, b);
    }
}

#[test]
fn the_first_failing_block_is_reported_whatever_the_threads() {
    let src = simt::source::SourceFile::new(
        "oob.sk",
        "__global__ void k(float* a) {\n    float s = 1.0f;\n    if (blockIdx.x == 31) { for (int k = 0; k < 20000; k++) s += 1.0f; }\n    a[blockIdx.x * blockDim.x + threadIdx.x] = s;\n}\n",
    );
    let run = |threads| {
        let mut opts = RunOptions {
            threads,
            parallel_min: 0,
            ..RunOptions::default()
        };
        opts.overrides.grid = Some([64, 1, 1]);
        opts.overrides.block = Some([32, 1, 1]);
        opts.overrides.args.push(simt::host::ArgOverride::flag(
            "a",
            simt::host::ArgValue::Expr(simt::syntax::parse_value("zeros(1000)").expect("arg")),
            "zeros(1000)",
        ));
        match pipeline::run(&src, &opts) {
            Ok(_) => panic!("out of bounds expected"),
            Err(f) => f.errors[0].inner.to_string() + &format!("{:?}", f.errors[0].inner),
        }
    };
    // 1000 floats: block 31 (threads 992..1023) is the first to write out of bounds, at a[1000].
    // Blocks 32 to 63 fail too, and on 4 workers they fail while block 31 is still in its loop:
    // the merge of the workers' parts must still report block 31.
    let one = run(1);
    assert!(one.contains("`a[1000]`"), "{one}");
    assert!(one.contains("block: [31, 0, 0]"), "{one}");
    assert_eq!(one, run(4));
}

#[test]
fn launches_big_enough_to_run_in_parallel_are_identical_too() {
    // Each launch has at least 2^15 threads, the size from which blocks are spread over workers.
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("vecadd.sk", &[("n", "65536")]),
        ("reduce_sequential.sk", &[("n", "65536")]),
        ("transpose_tiled.sk", &[("width", "512"), ("height", "512")]),
        ("race_missing_sync.sk", &[("n", "65536")]),
        (
            "matmul_tiled16.sk",
            &[("M", "256"), ("N", "256"), ("K", "64")],
        ),
    ];
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, args) in cases {
        let src = pipeline::read(std::path::Path::new(&format!("{root}/kernels/{file}")))
            .expect("kernel");
        let run = |threads| {
            let mut opts = RunOptions {
                threads,
                ..RunOptions::default()
            };
            for (n, v) in args.iter() {
                let value = simt::host::ArgValue::Expr(simt::syntax::parse_value(v).expect("arg"));
                opts.overrides
                    .args
                    .push(simt::host::ArgOverride::flag(*n, value, *v));
            }
            let r = pipeline::run(&src, &opts).unwrap_or_else(|f| panic!("{file}: {:?}", f.errors));
            assert!(
                r.counters.threads >= 1 << 15,
                "{file} is too small to run in parallel"
            );
            assert!(r.expects_passed(), "{file}: {:?}", r.expects);
            (
                serde_json::to_string(&r.counters).expect("json"),
                r.races.iter().map(|x| x.describe()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(run(1), run(3), "{file}");
    }
}
