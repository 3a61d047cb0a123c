//! Lesson pairs: each slow kernel in `kernels/` and its fix, run with their launch sections.
//! Every test asserts the direction of the counter the lesson teaches and, where the kernel
//! header derives it by hand, the exact numbers (the derivations are in the kernel files).

use simt::exec::Counters;
use simt::host::{ArgOverride, ArgValue, Overrides};
use simt::pipeline::{self, Failure};
use simt::report::Report;
use simt::source::SourceFile;
use simt::suite;

fn source(file: &str) -> SourceFile {
    let path = format!("{}/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("kernel file");
    SourceFile::new(format!("kernels/{file}"), text)
}

/// Runs a launch section of `src`, with `--arg`s; every `expect` must hold.
fn run_src(
    src: &SourceFile,
    kernel: Option<&str>,
    args: &[(&str, &str)],
) -> Result<Report, Failure> {
    let mut opts = suite::defaults(kernel.map(str::to_string));
    opts.overrides = Overrides {
        args: args
            .iter()
            .map(|(n, v)| {
                let e = simt::syntax::parse_value(v).expect("test arg parses");
                ArgOverride::flag(*n, ArgValue::Expr(e), *v)
            })
            .collect(),
        ..Overrides::default()
    };
    let report = pipeline::run(src, &opts)?;
    assert!(report.expects_passed(), "{:?}", report.expects);
    Ok(report)
}

/// The counters of `file` (one of its kernels when it has several), with `--arg`s.
fn counters(file: &str, kernel: Option<&str>, args: &[(&str, &str)]) -> Counters {
    run_src(&source(file), kernel, args)
        .unwrap_or_else(|f| panic!("{file} failed: {:?}", f.errors))
        .counters
}

fn of(file: &str) -> Counters {
    counters(file, None, &[])
}

/// Global-memory traffic: load and store requests and sectors.
fn global(c: &Counters) -> [u64; 4] {
    [c.gld_instr, c.gld_sectors, c.gst_instr, c.gst_sectors]
}

#[test]
fn strided_copy_sectors_grow_with_the_stride_until_every_lane_has_its_own() {
    // 32 warps; a warp's 32 loads span 128 · stride bytes: 4, 8, 16, 32 sectors, at most 32.
    for (stride, per_request) in [(1, 4), (2, 8), (4, 16), (8, 32), (32, 32)] {
        let c = counters("strided_copy.sk", None, &[("stride", &stride.to_string())]);
        assert_eq!(c.gld_sectors, 32 * per_request, "stride {stride}");
        // The stores stay contiguous: 4 sectors per request.
        assert_eq!((c.gld_instr, c.gst_instr, c.gst_sectors), (32, 32, 128));
        // 8192 B requested of (32 · per_request + 128) sectors moved.
        let moved = (32 * per_request + 128) * 32;
        assert!((c.bytes_requested_per_byte_moved() - 8192.0 / moved as f64).abs() < 1e-12);
    }
}

#[test]
fn offset_copy_pays_a_fifth_sector_unless_aligned_to_a_sector() {
    assert_eq!(counters("offset_copy.sk", None, &[]).gld_sectors, 32 * 5);
    for offset in ["0", "8"] {
        let c = counters("offset_copy.sk", None, &[("offset", offset)]);
        assert_eq!(c.gld_sectors, 32 * 4, "offset {offset}");
    }
}

#[test]
fn the_bounds_check_is_what_keeps_the_last_block_in_bounds() {
    use miette::Diagnostic;
    let guarded = of("vecadd.sk");
    assert_eq!((guarded.branches, guarded.divergent), (32, 1));
    let f = run_src(&source("out_of_bounds.sk"), None, &[]).expect_err("runs off the end");
    assert_eq!(f.exit, 1);
    let e = &f.errors[0];
    assert_eq!(
        e.code().map(|c| c.to_string()).as_deref(),
        Some("simt::run::out_of_bounds")
    );
    assert_eq!(
        e.to_string(),
        "out-of-bounds global access: `a[1000]` but `a` has 1000 elements"
    );
    let label = e.labels().and_then(|mut l| l.next()).expect("a label");
    assert_eq!(label.label(), Some("block (3, 0, 0), thread (232, 0, 0)"));
}

#[test]
fn divergence_by_thread_doubles_the_stores_and_halves_the_lanes() {
    let odd_even = counters("divergence.sk", Some("branch_odd_even"), &[]);
    let by_warp = counters("divergence.sk", Some("branch_by_warp"), &[]);
    assert_eq!((odd_even.branches, odd_even.divergent), (32, 32));
    assert_eq!((by_warp.branches, by_warp.divergent), (32, 0));
    // Both sides of the branch store: 64 requests of 4 sectors (16 lanes over 128 B) against 32.
    assert_eq!((odd_even.gst_instr, odd_even.gst_sectors), (64, 256));
    assert_eq!((by_warp.gst_instr, by_warp.gst_sectors), (32, 128));
    assert!(odd_even.simt_efficiency() < by_warp.simt_efficiency());
}

#[test]
fn the_missing_barrier_is_the_race() {
    let racy = source("race_missing_sync.sk");
    let c = run_src(&racy, None, &[]).expect("runs").counters;
    // One racing load per block.
    assert_eq!((c.race_count, c.barriers), (4, 0));
    let fixed = SourceFile::new(
        "race_fixed.sk",
        racy.text()
            .replace("// missing: __syncthreads();", "__syncthreads();"),
    );
    let c = run_src(&fixed, None, &[]).expect("runs").counters;
    assert_eq!((c.race_count, c.barriers), (0, 4));
}

#[test]
fn transpose_coalesces_through_a_tile_and_padding_removes_the_conflicts() {
    let naive = of("transpose_naive.sk");
    let tiled = of("transpose_tiled.sk");
    let padded = of("transpose_padded.sk");
    // Naive: every store lane in its own sector; through the tile both sides are 4 per request.
    assert_eq!(global(&naive), [2048, 8192, 2048, 65536]);
    assert_eq!(global(&tiled), [2048, 8192, 2048, 8192]);
    assert_eq!(global(&padded), global(&tiled));
    // 2048 tile stores (rows: 1 wavefront each) and 2048 tile loads (columns): 32 wavefronts per
    // load with tile[32][32], 1 with tile[32][33].
    assert_eq!((tiled.smem_instr, padded.smem_instr), (4096, 4096));
    assert_eq!(tiled.smem_wavefronts, 2048 + 2048 * 32);
    assert_eq!(padded.smem_wavefronts, 2048 + 2048);
    assert_eq!(padded.smem_bank_conflicts, 0);
    // The same, per line: wavefronts per shared instruction on the write and the read side.
    for (file, read_side) in [("transpose_tiled.sk", 32), ("transpose_padded.sk", 1)] {
        let report = run_src(&source(file), None, &[]).expect("runs");
        let per_instr = |text: &str| {
            let l = report
                .lines
                .iter()
                .find(|l| l.source.contains(text))
                .expect("the line");
            (
                l.counters.smem_instr,
                l.counters.smem_wavefronts / l.counters.smem_instr,
            )
        };
        assert_eq!(
            per_instr("tile[threadIdx.y + j][threadIdx.x] ="),
            (2048, 1),
            "{file}"
        );
        assert_eq!(
            per_instr("= tile[threadIdx.x][threadIdx.y + j]"),
            (2048, read_side),
            "{file}"
        );
    }
}

#[test]
fn the_32x8_block_shape_changes_the_work_per_thread_not_the_traffic() {
    let classic = of("transpose_padded.sk");
    let one_each = of("transpose_padded_32x32.sk");
    assert_eq!(global(&classic), global(&one_each));
    assert_eq!(
        (
            classic.smem_instr,
            classic.smem_wavefronts,
            classic.barriers
        ),
        (
            one_each.smem_instr,
            one_each.smem_wavefronts,
            one_each.barriers
        )
    );
    // 4 elements per thread: a quarter of the threads.
    assert_eq!((classic.threads, one_each.threads), (16384, 65536));
    // 101 warp instructions per warp × 512 warps (the loop as written) against 21 × 2048.
    assert_eq!((classic.warp_instr, one_each.warp_instr), (51712, 43008));
}

#[test]
fn the_reduction_tutorial_step_by_step() {
    let k1 = of("reduce_interleaved.sk");
    let k2 = of("reduce_interleaved_strided.sk");
    let k3 = of("reduce_sequential.sk");
    let k4 = of("reduce_first_add.sk");
    let k5 = of("reduce_unrolled_last_warp.sk");
    let shfl = of("reduce_warp_shuffle.sk");
    let atomic = of("reduce_atomic.sk");
    // The same 4096 inputs, read once each, in every version.
    for c in [&k1, &k2, &k3, &k4, &k5, &shfl, &atomic] {
        assert_eq!((c.gld_instr, c.gld_sectors), (128, 512));
    }
    // 1 → 2: the strided index packs the working threads: divergence 768 → 96 ...
    assert_eq!((k1.divergent, k2.divergent), (768, 96));
    // ... but lanes 2s words apart share banks: the same 2400 wavefronts from 720 instructions.
    assert_eq!((k1.smem_instr, k1.smem_wavefronts), (2400, 2400));
    assert_eq!((k2.smem_instr, k2.smem_wavefronts), (720, 2400));
    // 2 → 3: sequential addressing: consecutive words, no conflicts.
    assert_eq!((k3.smem_instr, k3.smem_wavefronts), (720, 720));
    assert_eq!((k2.smem_bank_conflicts, k3.smem_bank_conflicts), (1680, 0));
    // 3 → 4: two inputs per thread, half the blocks: the tree work halves.
    assert_eq!((k3.blocks, k4.blocks), (16, 8));
    assert_eq!((k3.smem_instr, k4.smem_instr), (720, 360));
    assert_eq!((k3.barriers, k4.barriers), (144, 72));
    assert_eq!((k3.branches, k4.branches), (2304, 1152));
    // 4 → 5: the last warp needs neither barriers nor `if (tid < s)`.
    assert_eq!((k4.barriers, k5.barriers), (72, 24));
    assert_eq!((k4.branches, k5.branches), (1152, 448));
    assert_eq!((k4.divergent, k5.divergent), (48, 8));
    assert_eq!(k5.smem_instr, k4.smem_instr);
    assert!(k5.warp_instr < k4.warp_instr);
    // 5 → shuffles: the shared-memory tree is gone.
    assert_eq!((k5.smem_instr, shfl.smem_instr), (360, 72));
    assert_eq!((k5.barriers, shfl.barriers), (24, 8));
    assert!(shfl.warp_instr < k5.warp_instr);
    // shuffles → atomicAdd of block sums: one launch finishes the sum; the 8 partial-sum stores
    // become 8 atomics.
    assert_eq!((shfl.gst_instr, shfl.gatom_instr), (8, 0));
    assert_eq!(
        (atomic.gst_instr, atomic.gatom_instr, atomic.gatom_sectors),
        (0, 8, 8)
    );
}

#[test]
fn blelloch_scan_padding_removes_600_conflicting_wavefronts() {
    let plain = of("scan_blelloch.sk");
    let padded = of("scan_blelloch_padded.sk");
    assert_eq!((plain.smem_instr, plain.smem_wavefronts), (193, 793));
    assert_eq!(plain.smem_bank_conflicts, 600);
    assert_eq!((padded.smem_instr, padded.smem_wavefronts), (193, 193));
    assert_eq!(padded.smem_bank_conflicts, 0);
    // The price: an extra shift and add per index.
    assert!(padded.warp_instr > plain.warp_instr);
    assert_eq!(
        (plain.barriers, plain.branches, plain.divergent),
        (19, 312, 11)
    );
    assert_eq!(
        (padded.barriers, padded.branches, padded.divergent),
        (19, 312, 11)
    );
}

#[test]
fn matrix_multiply_from_naive_to_register_blocking() {
    let naive = of("matmul_naive.sk");
    let coalesced = of("matmul_coalesced.sk");
    let t16 = of("matmul_tiled16.sk");
    let t32 = of("matmul_tiled32.sk");
    let b1 = of("matmul_blocktile_1d.sk");
    let b2 = of("matmul_blocktile_2d.sk");
    // Coalescing: 33 sectors per k step (32 rows of A + a broadcast of B) become 5.
    assert_eq!(global(&naive), [16384, 128 * 64 * 33, 128, 4096]);
    assert_eq!(global(&coalesced), [16384, 128 * 64 * 5, 128, 512]);
    // Shared tiles: each element is fetched once per block that needs it.
    assert_eq!(global(&t16), [1024, 4096, 128, 512]);
    assert_eq!(global(&t32), [512, 2048, 128, 512]);
    assert_eq!((t16.barriers, t32.barriers), (128, 16));
    // Register blocking keeps the global traffic of 32-wide tiles ...
    assert_eq!(global(&b1), global(&t32));
    assert_eq!(global(&b2), global(&t32));
    // ... and cuts the shared loads per multiply-add. 64³ / 32 = 8192 warp-FMAs; the staging
    // stores (warps × K-tiles × stores per tile) are subtracted.
    let loads_per_fma = |c: &Counters, stores: u64| (c.smem_instr - stores) as f64 / 8192.0;
    assert_eq!(t32.smem_instr, 16896);
    assert_eq!(loads_per_fma(&t32, 128 * 2 * 2), 2.0);
    assert_eq!(b1.smem_instr, 10752);
    assert_eq!(loads_per_fma(&b1, 32 * 8 * 2), 1.25);
    assert_eq!(b2.smem_instr, 4608);
    assert_eq!(loads_per_fma(&b2, 8 * 8 * 8), 0.5);
    for c in [&t16, &t32, &b1, &b2] {
        assert_eq!(c.smem_bank_conflicts, 0);
    }
}

#[test]
fn stencil_and_convolution_read_their_inputs_once_through_shared_memory() {
    let g = counters("stencil_1d.sk", Some("stencil_1d_global"), &[]);
    let s = counters("stencil_1d.sk", Some("stencil_1d_shared"), &[]);
    assert_eq!((g.gld_instr, g.gld_sectors), (224, 1088));
    assert_eq!((s.gld_instr, s.gld_sectors), (40, 168));
    assert_eq!((s.smem_instr, s.smem_wavefronts, s.barriers), (264, 264, 4));
    let g = counters("conv2d.sk", Some("conv2d_global"), &[]);
    let s = counters("conv2d.sk", Some("conv2d_shared"), &[]);
    assert_eq!((g.gld_instr, g.gld_sectors), (2304, 6720));
    assert_eq!((s.gld_instr, s.gld_sectors), (1472, 2064));
    assert_eq!(
        (s.smem_instr, s.smem_wavefronts, s.barriers),
        (1472, 1472, 16)
    );
}

#[test]
fn a_private_shared_histogram_cuts_the_global_atomics_eightfold() {
    let g = counters("histogram.sk", Some("histogram_global"), &[]);
    let s = counters("histogram.sk", Some("histogram_shared"), &[]);
    assert_eq!((g.gatom_instr, g.gatom_sectors), (512, 2048));
    assert_eq!((s.gatom_instr, s.gatom_sectors), (64, 256));
    // The updates move into shared memory: 512 shared atomics plus zeroing and merging.
    assert_eq!((g.smem_instr, s.smem_instr), (0, 640));
    assert_eq!((s.barriers, s.race_count), (16, 0));
}

#[test]
fn softmax_rows_communicates_through_shuffles_only() {
    let c = of("softmax_rows.sk");
    assert_eq!((c.smem_instr, c.barriers, c.race_count), (0, 0, 0));
    assert_eq!(global(&c), [1536, 6144, 512, 2048]);
}

#[test]
fn bank_conflicts_cost_time_in_the_refined_estimate() {
    // transpose_tiled at 2048²: 4 325 376 shared wavefronts (32-way conflicts on the column
    // read); padded, 262 144. At one wavefront per cycle per SM the tiled version's L1/shared pipe
    // (16.5 µs over its 4096 blocks in waves of 1056) outlasts its DRAM time, the padded one's
    // does not: the lesson's speed-up shows in the time, not only in the counters.
    let args = [("width", "2048"), ("height", "2048")];
    let time = |file: &str| {
        run_src(&source(file), None, &args)
            .unwrap_or_else(|f| panic!("{file}: {:?}", f.errors))
            .refined
            .expect("a refined estimate")
    };
    let (tiled, padded) = (time("transpose_tiled.sk"), time("transpose_padded.sk"));
    assert_eq!(tiled.bound.as_str(), "l1");
    assert_eq!(padded.bound.as_str(), "memory");
    assert!(tiled.t_smem > 16.0 * padded.t_smem);
    assert!(tiled.t > padded.t);
}

#[test]
fn the_caches_serve_the_naive_matmuls_rereads() {
    // matmul_naive at 64³: each block of 32 × 8 threads covers 32 rows of C and 8 columns, so it
    // reads 32 rows of A (32 × 64 floats = 256 sectors) and 64 rows of 8 B-columns (one sector
    // each, 64): 320 distinct sectors, 10 KB, which fit its 31 KB share of the L1 (248 KB left by
    // an 8 KB carveout, over 8 blocks). 16 blocks miss 16 × 320 = 5120 sectors; the other
    // 270336 − 5120 = 265216 sectors of its loads hit. In L2 only the first touch of each of A's
    // and B's 512 sectors misses: 1024 sectors = 32768 bytes from DRAM, and C's 512 sectors are
    // written back (16384 bytes). The tiled kernel moves exactly as much DRAM traffic: the
    // 132-fold difference in sectors is served by the caches, not by DRAM.
    let run = |file: &str| {
        run_src(&source(file), None, &[])
            .unwrap_or_else(|f| panic!("{file}: {:?}", f.errors))
            .cache
            .expect("the cache model ran")
    };
    let naive = run("matmul_naive.sk");
    assert_eq!(
        (naive.l1_hit_sectors, naive.l1_miss_sectors),
        (265216, 5120)
    );
    assert_eq!(
        (naive.l2_read_hit_sectors, naive.l2_read_miss_sectors),
        (4096, 1024)
    );
    assert_eq!(
        (naive.dram_read_bytes, naive.dram_write_bytes),
        (32768, 16384)
    );
    let tiled = run("matmul_tiled32.sk");
    assert_eq!(tiled.l1_hit_sectors, 0);
    assert_eq!(
        (tiled.dram_read_bytes, tiled.dram_write_bytes),
        (naive.dram_read_bytes, naive.dram_write_bytes)
    );
}

#[test]
fn double_precision_work_is_charged_to_the_fp64_pipe_of_each_gpu() {
    // dot_double's multiply-adds and the reduction's adds are FP64: the refined estimate counts
    // them in the FP64 pipe, which an RTX 4090 SM runs at 2 results per clock and an H100 SM at
    // 64. The launch is one wave on both, so the pipe's time scales by 64 / 2 × 1.98 / 2.52.
    let src = source("dot_double.sk");
    let t = |gpu: &str| {
        let mut opts = suite::defaults(None);
        opts.gpu = simt::gpu::preset(gpu).expect("a preset");
        let r = pipeline::run(&src, &opts).unwrap_or_else(|f| panic!("{gpu}: {:?}", f.errors));
        assert!(r.expects_passed(), "{:?}", r.expects);
        r.refined.expect("a refined estimate")
    };
    let (h100, rtx) = (t("h100"), t("rtx4090"));
    assert!(h100.t_fp64 > 0.0);
    let want = 32.0 * 1.98 / 2.52;
    assert!(
        (rtx.t_fp64 / h100.t_fp64 - want).abs() < 1e-9 * want,
        "{} / {}",
        rtx.t_fp64,
        h100.t_fp64
    );
    assert_eq!((h100.t_fp32, h100.t_sfu), (0.0, 0.0));
}
