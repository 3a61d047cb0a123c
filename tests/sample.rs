//! `--sample`: a run of some blocks extrapolates every counter to the whole grid, within its
//! stated error bound, and within 1 % on kernels whose blocks all do the same work.

use crate::common;

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

/// Every cache counter of `sampled` against `whole`: within the stated bound plus one sector
/// (the grid's first cluster has no warm-up, as on the GPU, and its edge sectors differ by
/// one), and within `tolerance` relative to the exact value.
fn caches_agree(whole: &Report, sampled: &Report, tolerance: f64, what: &str) {
    let info = sampled.sample.as_ref().expect("sampled");
    let cs = info
        .cache
        .as_ref()
        .expect("a sampled run models the caches");
    let exact = serde_json::to_value(whole.cache.expect("cache model")).expect("json");
    let guess = serde_json::to_value(sampled.cache.expect("sampled cache model")).expect("json");
    for (name, e) in exact.as_object().expect("cache") {
        let (e, g) = (e.as_f64().expect("n"), guess[name].as_f64().expect("n"));
        let bound = cs.bounds[name];
        let sector = if name.ends_with("bytes") { 32.0 } else { 1.0 };
        assert!(
            (g - e).abs() <= bound + sector,
            "{what}: cache {name} {g} vs {e}, bound {bound}"
        );
        assert!(
            (g - e).abs() <= tolerance * e.max(1.0),
            "{what}: cache {name} {g} vs {e} beyond {tolerance}"
        );
    }
}

#[test]
fn streams_without_reuse_sample_the_caches_exactly() {
    // vecadd, a tiled transpose and a reduction read every sector once and write each output
    // sector once: every block misses all its sectors in L1 and L2 (hits 0), whatever cluster
    // it runs in, so per block the counts are the same and the estimate is exact with a
    // bound of 0, in clusters of a tenth or half a wave (0.05 and 0.3 of vecadd's 4096 blocks
    // on the H100's 1056-block waves) as in whole waves (0.6: more than two waves' budget).
    let cases: &[Case] = &[
        ("vecadd.sk", None, &[("n", "1048576")]),
        (
            "transpose_tiled.sk",
            None,
            &[("width", "1024"), ("height", "1024")],
        ),
    ];
    for (file, kernel, args) in cases {
        let whole = run(file, *kernel, args, None);
        let k = whole.cache.expect("cache model");
        assert_eq!((k.l1_hit_sectors, k.l2_read_hit_sectors), (0, 0), "{file}");
        for fraction in [0.05, 0.3, 0.6] {
            let sampled = run(file, *kernel, args, Some(fraction));
            let s = sampled.cache.expect("sampled cache model");
            assert_eq!(s, k, "{file} at {fraction}");
            caches_agree(&whole, &sampled, 0.0, &format!("{file} at {fraction}"));
        }
    }
    let per_wave = |f| {
        let r = run("vecadd.sk", None, &[("n", "1048576")], Some(f));
        r.sample.and_then(|s| s.cache).map(|c| c.clusters_per_wave)
    };
    assert_eq!([per_wave(0.05), per_wave(0.6)], [Some(10), Some(1)]);
    // A reduction's blocks each write one float of the output: 8 consecutive blocks share a
    // sector, and clusters start at multiples of 8 blocks (1056 / 10 = 105.6 does not at
    // 0.05: its clusters cut sectors, each cut sector written back by both neighbours, which
    // the clusters' spread does not show; 1056 / 2 = 528 at 0.3 does). Reads are exact; the
    // writes within 10 %.
    let args: &[(&str, &str)] = &[("n", "1048576")];
    let whole = run("reduce_interleaved.sk", None, args, None);
    for fraction in [0.05, 0.3] {
        let sampled = run("reduce_interleaved.sk", None, args, Some(fraction));
        let (k, s) = (whole.cache.expect("cache"), sampled.cache.expect("sampled"));
        assert_eq!(s.dram_read_bytes, k.dram_read_bytes);
        assert_eq!(s.l2_read_hit_sectors, 0);
        let (w, e) = (s.dram_write_bytes as f64, k.dram_write_bytes as f64);
        assert!((w - e).abs() <= 0.1 * e, "reduce at {fraction}: {w} vs {e}");
    }
}

#[test]
fn whole_waves_see_the_reuse_between_blocks_and_clusters_give_upper_bounds() {
    // matmul_naive 512 × 512 × 256: blocks of 32 × 8 threads, a grid of 16 × 64 = 1024 blocks,
    // one wave on the H100 (8 blocks on each of 132 SMs hold 1056), so blocks share their rows
    // of A and columns of B in the L2. Sampled at 0.05 the wave is cut into
    // round(2 × 1024 / 52) = 39 clusters: L1 counts are per block and exact, but a cluster sees
    // only its own blocks' reuse, so the L2 misses are an upper bound of the exhaustive run's.
    let args: &[(&str, &str)] = &[("M", "512"), ("N", "512"), ("K", "256")];
    let whole = run("matmul_naive.sk", None, args, None);
    let k = whole.cache.expect("cache model");
    let sampled = run("matmul_naive.sk", None, args, Some(0.05));
    let s = sampled.cache.expect("sampled");
    let cs = sampled
        .sample
        .as_ref()
        .and_then(|s| s.cache.clone())
        .expect("clusters");
    assert_eq!(cs.clusters_per_wave, 39);
    assert_eq!(
        (s.l1_hit_sectors, s.l1_miss_sectors),
        (k.l1_hit_sectors, k.l1_miss_sectors)
    );
    assert!(s.l2_read_miss_sectors >= k.l2_read_miss_sectors);
    assert!(s.dram_read_bytes >= k.dram_read_bytes);
    // A 7-point stencil read from global memory: neighbouring blocks share their halo sectors
    // in L2. 4194304 points in 16384 blocks of 256, 1056 per wave: at 0.3 the budget (4916
    // blocks) holds more than two waves, so whole waves run, each after a warm-up by the wave
    // before, and every cache counter lands within its bound and 1 %.
    let args: &[(&str, &str)] = &[("n", "4194304")];
    let k = Some("stencil_1d_global");
    let whole = run("stencil_1d.sk", k, args, None);
    assert!(whole.cache.is_some_and(|c| c.l2_read_hit_sectors > 0));
    let sampled = run("stencil_1d.sk", k, args, Some(0.3));
    caches_agree(&whole, &sampled, 0.01, "stencil_1d at 0.3");
}

#[test]
fn sampled_caches_are_the_same_on_any_number_of_workers() {
    let path = format!("{}/kernels/matmul_naive.sk", env!("CARGO_MANIFEST_DIR"));
    let src = pipeline::read(std::path::Path::new(&path)).expect("kernel");
    let go = |threads| {
        let mut opts = RunOptions {
            sample: Some(SampleSize::Fraction(0.1)),
            threads,
            parallel_min: 0,
            ..RunOptions::default()
        };
        for (n, v) in [("M", "256"), ("N", "256"), ("K", "128")] {
            let value = ArgValue::Expr(simt::syntax::parse_value(v).expect("arg"));
            opts.overrides.args.push(ArgOverride::flag(n, value, v));
        }
        pipeline::run(&src, &opts).expect("runs").cache
    };
    let one = go(1);
    assert!(one.is_some_and(|k| k.l2_read_hit_sectors > 0));
    for threads in [2, 3] {
        assert_eq!(go(threads), one, "{threads} workers");
    }
}
