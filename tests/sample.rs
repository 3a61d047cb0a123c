//! `--sample`: a run of some blocks extrapolates every counter to the whole grid, within its
//! stated error bound, and within 1 % on kernels whose blocks all do the same work.

mod common;

use simt::host::{ArgOverride, ArgValue};
use simt::pipeline::{self, RunOptions, SampleSize};
use simt::report::Report;

/// Runs a shipped kernel with `args`, whole or sampled.
fn run(file: &str, kernel: Option<&str>, args: &[(&str, &str)], sample: Option<f64>) -> Report {
    let path = format!("{}/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = pipeline::read(std::path::Path::new(&path)).expect("kernel");
    let mut opts = RunOptions {
        kernel: kernel.map(str::to_string),
        sample: sample.map(SampleSize::Fraction),
        ..RunOptions::default()
    };
    for (n, v) in args {
        let value = ArgValue::Expr(simt::syntax::parse_value(v).expect("arg"));
        opts.overrides.args.push(ArgOverride::flag(*n, value, *v));
    }
    pipeline::run(&src, &opts).unwrap_or_else(|f| panic!("{file}: {}", common::describe(&f)))
}

/// Every counter of `sampled` against `whole`: within the stated bound (plus rounding), and
/// within `tolerance` relative to the exact value.
fn agree(whole: &Report, sampled: &Report, tolerance: f64, what: &str) {
    let info = sampled.sample.as_ref().expect("a sampled run says so");
    assert!(info.blocks_run < info.blocks, "{what}: everything ran");
    assert!(
        sampled.expects.is_empty(),
        "{what}: expects are not checked"
    );
    let exact = serde_json::to_value(whole.counters).expect("json");
    let guess = serde_json::to_value(sampled.counters).expect("json");
    for (name, e) in exact.as_object().expect("counters") {
        let (e, g) = (e.as_f64().expect("n"), guess[name].as_f64().expect("n"));
        let bound = info.bounds.get(name).copied().unwrap_or(0.0);
        assert!(
            (g - e).abs() <= bound + 1.0,
            "{what}: {name} {g} vs {e}, bound {bound}"
        );
        assert!(
            (g - e).abs() <= tolerance * e.max(1.0),
            "{what}: {name} {g} vs {e} beyond {tolerance}"
        );
    }
}

/// A shipped kernel file, the kernel in it, and its `--arg`s.
type Case<'a> = (&'a str, Option<&'a str>, &'a [(&'a str, &'a str)]);

#[test]
fn regular_kernels_extrapolate_within_one_percent() {
    let cases: &[Case] = &[
        ("vecadd.sk", None, &[("n", "1048576")]),
        ("reduce_interleaved.sk", None, &[("n", "1048576")]),
        (
            "transpose_tiled.sk",
            None,
            &[("width", "1024"), ("height", "1024")],
        ),
        (
            "matmul_naive.sk",
            None,
            &[("M", "256"), ("N", "256"), ("K", "256")],
        ),
        (
            "matmul_tiled16.sk",
            None,
            &[("M", "256"), ("N", "256"), ("K", "128")],
        ),
        (
            "divergence.sk",
            Some("branch_odd_even"),
            &[("n", "1048576")],
        ),
    ];
    for (file, kernel, args) in cases {
        let whole = run(file, *kernel, args, None);
        assert!(whole.expects_passed(), "{file}");
        for fraction in [0.05, 0.3] {
            let sampled = run(file, *kernel, args, Some(fraction));
            agree(&whole, &sampled, 0.01, &format!("{file} at {fraction}"));
        }
    }
}

#[test]
fn blocks_of_unequal_work_stay_within_the_stated_bound() {
    // Block b loops b % 7 times: the blocks differ, so the interior estimate has a spread and
    // the bound must cover the error. 4096 blocks of 64 threads, 5 % sampled.
    let src = simt::source::SourceFile::new(
        "uneven.sk",
        "__global__ void k(float* a) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         float s = 0.0f;\n\
         for (int k = 0; k < blockIdx.x % 7; k++) s += a[i];\n\
         a[i] = s;\n}\n\
         launch k { a = ones(262144); block = 64; grid = 4096; }\n",
    );
    let run = |sample| {
        let opts = RunOptions {
            sample,
            ..RunOptions::default()
        };
        pipeline::run(&src, &opts).expect("runs")
    };
    let whole = run(None);
    let sampled = run(Some(SampleSize::Fraction(0.05)));
    let info = sampled.sample.as_ref().expect("sampled");
    // ceil(0.05 × 4094) = 205 interior blocks and the 2 boundary ones.
    assert_eq!(info.blocks_run, 207);
    assert!(info.bounds["warp_instr"] > 0.0);
    agree(&whole, &sampled, 0.1, "uneven blocks");
}

#[test]
fn sampled_runs_refuse_to_save_and_races_in_sampled_blocks_are_reported() {
    let (code, _, err) = common::simt(&[
        "run",
        "kernels/vecadd.sk",
        "--sample",
        "0.5",
        "--save",
        "c=/tmp/never.npy",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a sampled run does not compute whole results"),
        "{err}"
    );
    for bad in ["0", "1.5", "-0.1", "half"] {
        let (code, _, err) = common::simt(&["run", "kernels/vecadd.sk", "--sample", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
    // race_missing_sync races in every block: a sample still finds it.
    let sampled = run("race_missing_sync.sk", None, &[("n", "262144")], Some(0.05));
    assert!(sampled.counters.race_count > 0);
    assert_eq!(sampled.races.len(), 1);
    assert_eq!(sampled.races[0].line, 37);
}
