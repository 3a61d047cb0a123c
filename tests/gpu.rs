//! The GPU models against the reference model: occupancy where the formulas agree, and the refined time.

use simt::gpu::{
    estimate_time, occupancy, refined_time, GpuConfig, OccupancyRequest, RefinedInputs, TimeInputs,
};

/// The reference's `occupancy()` (simt_lab.py §7), transcribed: blocks per SM, or 0 if it cannot launch.
fn reference_blocks(threads: u32, regs: u32, smem: u32) -> u32 {
    let wpb = threads.div_ceil(32);
    if regs > 255 || smem > 227 * 1024 || threads > 1024 {
        return 0;
    }
    let regs_per_warp = (regs * 32).div_ceil(256) * 256;
    let warps = 64 / wpb;
    let blocks = 32;
    let registers = 65536u32.checked_div(regs_per_warp).map_or(32, |w| w / wpb);
    let shared = if smem > 0 {
        (228 * 1024) / ((smem + 1024).div_ceil(128) * 128)
    } else {
        32
    };
    warps.min(blocks).min(registers).min(shared)
}

/// The reference divides the whole register file; NVIDIA splits it over 4 sub-partitions first.
/// The two agree exactly when the split loses nothing.
fn register_formulas_agree(threads: u32, regs: u32) -> bool {
    let wpb = threads.div_ceil(32);
    let rpw = (regs * 32).div_ceil(256) * 256;
    rpw == 0 || (65536 / rpw) / wpb == ((16384 / rpw) * 4) / wpb
}

#[test]
fn occupancy_equals_the_reference_where_the_formulas_agree() {
    let gpu = GpuConfig::h100_sxm();
    let mut compared = 0;
    for threads in (32..=1024).step_by(32) {
        for regs in [16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 255] {
            // The reference has no 48 KB default per-block cap: compare below it.
            for smem in [0, 1024, 4096, 12288, 16384, 32768, 48 * 1024 - 1024] {
                if !register_formulas_agree(threads, regs) {
                    continue;
                }
                let ours = occupancy(&gpu, &OccupancyRequest::new(threads, regs, smem));
                let theirs = reference_blocks(threads, regs, smem);
                assert_eq!(
                    ours.blocks_per_sm, theirs,
                    "{threads} threads, {regs} regs, {smem} B"
                );
                compared += 1;
            }
        }
    }
    // Most shapes fall where the formulas agree.
    assert!(compared > 2000, "{compared}");
}

#[test]
fn refined_time_is_never_below_the_roofline() {
    let gpu = GpuConfig::h100_sxm();
    for blocks in [1u64, 7, 132, 133, 1000, 10000] {
        for dram_kb in [0u64, 4, 400, 40_000] {
            for warp_instr in [10u64, 10_000, 10_000_000] {
                for regs in [32, 64, 128] {
                    let inputs = TimeInputs {
                        dram_bytes: dram_kb * 1024,
                        warp_instr,
                        smem_instr: 0,
                        smem_wavefronts: 0,
                    };
                    let launch = RefinedInputs {
                        n_blocks: blocks,
                        request: OccupancyRequest::new(256, regs, 0),
                        mem_requests: (dram_kb * 1024 / 128).max(1),
                        load_requests: (dram_kb * 1024 / 128).max(1),
                        latency_rounds: (dram_kb * 1024 / 128).max(1),
                        global_wavefronts: 0,
                        pipes: simt::gpu::PipeInstr::default(),
                        caches: None,
                    };
                    let roofline = estimate_time(&gpu, &inputs);
                    let refined = refined_time(&gpu, &inputs, &launch).expect("launchable");
                    // The roofline adds the launch overhead; the refined time reports it beside.
                    let refined_total = refined.t + refined.launch_overhead;
                    assert!(
                        refined_total >= roofline.t * (1.0 - 1e-12),
                        "{blocks} blocks, {dram_kb} KB, {warp_instr} instr: {refined_total} < {}",
                        roofline.t
                    );
                }
            }
        }
    }
}

#[test]
fn refined_time_grows_as_occupancy_falls() {
    // A streaming kernel: 256 MB moved in 128-byte requests, one request in flight per warp.
    // 32 registers → 64 warps per SM; 128 → 16 warps per SM: fewer bytes in flight (Little's law),
    // so less of the bandwidth is reachable.
    let gpu = GpuConfig::h100_sxm();
    let inputs = TimeInputs {
        dram_bytes: 256 << 20,
        warp_instr: 1 << 20,
        smem_instr: 0,
        smem_wavefronts: 0,
    };
    let t = |regs: u32| {
        let launch = RefinedInputs {
            n_blocks: 8192,
            request: OccupancyRequest::new(256, regs, 0),
            mem_requests: (256 << 20) / 128,
            load_requests: (256 << 20) / 128,
            latency_rounds: (256 << 20) / 128,
            global_wavefronts: 0,
            pipes: simt::gpu::PipeInstr::default(),
            caches: None,
        };
        refined_time(&gpu, &inputs, &launch).expect("launchable").t
    };
    assert!(t(32) < t(64));
    assert!(t(64) < t(128));
}

#[test]
fn more_bank_conflicts_or_more_cache_traffic_are_never_faster() {
    // The same launch with its shared wavefronts growing from conflict-free (one per instruction)
    // to 32-way, then with its DRAM and L2 bytes growing: the refined time never falls.
    let gpu = GpuConfig::h100_sxm();
    for blocks in [1u64, 132, 1056, 5000] {
        for warp_instr in [1_000u64, 1_000_000] {
            let launch = |dram: u64, l2: u64| RefinedInputs {
                n_blocks: blocks,
                request: OccupancyRequest::new(256, 32, 4096),
                mem_requests: blocks * 64,
                load_requests: blocks * 64,
                latency_rounds: blocks * 64,
                global_wavefronts: 0,
                pipes: simt::gpu::PipeInstr::default(),
                caches: Some(simt::gpu::CacheTraffic {
                    dram_bytes: dram,
                    l2_bytes: l2,
                }),
            };
            let inputs = |ways: u64| TimeInputs {
                dram_bytes: blocks * 8192,
                warp_instr,
                smem_instr: blocks * 100,
                smem_wavefronts: blocks * 100 * ways,
            };
            let mut last = 0.0;
            for ways in 1..=32 {
                let t = refined_time(&gpu, &inputs(ways), &launch(blocks * 4096, blocks * 8192))
                    .expect("launchable")
                    .t;
                assert!(t >= last, "{blocks} blocks, {ways}-way: {t} < {last}");
                last = t;
            }
            let mut last = 0.0;
            for k in 0..16 {
                let bytes = blocks * 4096 * k;
                let t = refined_time(&gpu, &inputs(1), &launch(bytes, 2 * bytes))
                    .expect("launchable")
                    .t;
                // Latency-bound, the time is the same for any byte count (the bytes in flight
                // grow with the bytes moved): equal up to rounding.
                assert!(
                    t >= last * (1.0 - 1e-12),
                    "{blocks} blocks, {bytes} bytes: {t} < {last}"
                );
                last = t;
            }
        }
    }
}
