//! GPU descriptions: the `GpuConfig` type, its presets and JSON loading.

mod occupancy;
mod time;

pub use occupancy::{
    amdahl, gustafson, l1_bytes_per_sm, latency_hiding, occupancy, waves, LatencyHiding, Limiter,
    Occupancy, OccupancyLimits, OccupancyRequest, Waves,
};
pub use time::{
    estimate_time, refined_time, Bound, CacheTraffic, MemoryLimit, PipeInstr, RefinedInputs,
    RefinedTime, TimeEstimate, TimeInputs, UnitTime, ACHIEVABLE_BW_FRACTION,
};

use serde::{Deserialize, Serialize};

/// The structural and timing parameters of one GPU.
///
/// Field names follow the reference model's `GPUConfig` (`reference/simt_lab.py`), plus the
/// per-compute-capability occupancy constants from `cuda_occupancy.h` (`docs/gpu-facts.md`
/// §1.3). As JSON (`--gpu FILE.json`) every field is required and unknown fields are rejected.
/// Sizes are in bytes, rates per second, times in seconds.
///
/// Two hardware constants are not fields because they are the same for every compute
/// capability 7.0–12.x: the per-block register file equals `regs_per_sm` (64 K, `regsPerBlock`),
/// and the number of SM sub-partitions equals `schedulers_per_sm` (4; one warp scheduler per
/// sub-partition, `cudaOccSubPartitionsPerMultiprocessor`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GpuConfig {
    /// Display name, e.g. `"H100 SXM"`.
    pub name: String,
    /// Compute capability `(major, minor)`, e.g. `[9, 0]` in JSON. Selects the occupancy rules
    /// that are not plain numbers (barrier limit from 9.0, reserved smem in the opt-in cap from 8.0).
    pub compute_capability: (u32, u32),
    /// Number of streaming multiprocessors.
    pub n_sm: u32,
    /// Threads per warp (32).
    pub warp_size: u32,
    /// Warp schedulers per SM (= sub-partitions, 4); each issues one warp instruction per cycle.
    pub schedulers_per_sm: u32,
    /// FP32 lanes per SM.
    pub fp32_lanes_per_sm: u32,
    /// FP64 add/multiply/fma results per clock per SM (`docs/gpu-facts.md` §6.4).
    pub fp64_lanes_per_sm: u32,
    /// Special-function results (reciprocal, square root, exponential, logarithm, sine...) per
    /// clock per SM (`docs/gpu-facts.md` §6.4).
    pub sfu_lanes_per_sm: u32,
    /// Dense FP16/BF16 tensor-core multiply-adds with FP32 accumulation per clock per SM (a warp's
    /// 16×16×16 `mma_sync` is 4096; `docs/gpu-facts.md` §6.7).
    pub tensor_fma_per_sm: u32,
    /// Maximum resident threads per SM.
    pub max_threads_per_sm: u32,
    /// Maximum resident warps per SM (= `max_threads_per_sm / warp_size`).
    pub max_warps_per_sm: u32,
    /// Maximum resident blocks per SM (`cudaOccMaxBlocksPerMultiprocessor`).
    pub max_blocks_per_sm: u32,
    /// Maximum threads per block.
    pub max_threads_per_block: u32,
    /// 32-bit registers per SM (also the per-block limit).
    pub regs_per_sm: u32,
    /// Maximum registers per thread the compiler can assign (255).
    pub max_regs_per_thread: u32,
    /// Register allocation unit per warp (256 registers).
    pub reg_alloc_unit: u32,
    /// Shared memory per SM at the largest carveout (`sharedMemPerMultiprocessor`).
    pub smem_per_sm: u32,
    /// Largest shared memory per block with opt-in (`sharedMemPerBlockOptin`), excluding the reservation.
    pub max_smem_per_block: u32,
    /// Shared memory the driver reserves for every block (`reservedSharedMemPerBlock`).
    pub smem_reserved_per_block: u32,
    /// Shared memory allocation unit per block.
    pub smem_alloc_unit: u32,
    /// Shared-memory banks.
    pub n_banks: u32,
    /// Bytes per bank word.
    pub bank_bytes: u32,
    /// Bytes per global-memory sector.
    pub sector_bytes: u32,
    /// SM clock (maximum boost), Hz.
    pub clock_hz: f64,
    /// Peak DRAM bandwidth, bytes/s.
    pub mem_bw: f64,
    /// DRAM access latency, seconds.
    pub mem_latency_s: f64,
    /// Kernel launch overhead, seconds.
    pub launch_overhead_s: f64,
    /// Shared memory per block without opt-in (`sharedMemPerBlock`, 48 KB).
    pub default_smem_per_block: u32,
    /// Legal shared-memory carveout sizes per SM in KB, ascending (`cudaOccAlignUpShmemSizeVoltaPlus`).
    pub carveout_steps_kb: Vec<u32>,
    /// Hardware barriers per block slot (`numBarriersAvailable = max_blocks_per_sm × barrier_factor`).
    pub barrier_factor: u32,
    /// The unified L1 data cache and shared memory of one SM, bytes: what the shared-memory
    /// carveout leaves is the L1 (`docs/gpu-facts.md` §1.3).
    pub l1_smem_per_sm: u32,
    /// L2 cache, bytes (`cudaDeviceProp::l2CacheSize`).
    pub l2_bytes: u64,
    /// L2 bandwidth of the whole GPU in bytes per SM clock (`docs/gpu-facts.md` §6.3); `null`
    /// where no published figure is known, and the time model then has no L2 bound.
    pub l2_bytes_per_clk: Option<f64>,
}

/// Constants shared by every GPU of one compute capability (`docs/gpu-facts.md` §1.3).
struct CcConstants {
    cc: (u32, u32),
    fp32_lanes_per_sm: u32,
    fp64_lanes_per_sm: u32,
    max_threads_per_sm: u32,
    max_blocks_per_sm: u32,
    smem_per_sm_kb: u32,
    max_smem_per_block_kb: u32,
    smem_reserved_per_block: u32,
    smem_alloc_unit: u32,
    carveout_steps_kb: &'static [u32],
    barrier_factor: u32,
    l1_smem_per_sm_kb: u32,
}

// Sources for the per-CC constants below (docs/gpu-facts.md §1.3): threads/blocks/smem per SM and per
// block from the CUDA C++ Programming Guide, Table 27 and §20.6–20.10 (CPG); allocation units,
// block limits, carveout steps and barrier factors from cuda_occupancy.h of CUDA 12.9 / 13
// (OCC-12.9, OCC-13); reservations from live cudaDeviceProp readings as noted; FP32 lanes from
// CPG §20.6–20.10.

/// CC 7.0 (Volta).
const CC_7_0: CcConstants = CcConstants {
    cc: (7, 0),
    fp32_lanes_per_sm: 64,                      // CPG §20.6
    fp64_lanes_per_sm: 32, // CPG arithmetic-instruction throughput table (docs/gpu-facts.md §6.4)
    max_threads_per_sm: 2048, // CPG Table 27
    max_blocks_per_sm: 32, // OCC-12.9 cudaOccMaxBlocksPerMultiprocessor
    smem_per_sm_kb: 96,    // CPG Table 27; RPT-V100 sharedMemPerMultiProcessor 98304
    max_smem_per_block_kb: 96, // CPG Table 27
    smem_reserved_per_block: 0, // RPT-V100 reservedSharedMemPerBlock 0
    smem_alloc_unit: 256,  // OCC-12.9 cudaOccSMemAllocationGranularity
    carveout_steps_kb: &[0, 8, 16, 32, 64, 96], // OCC-12.9 cudaOccAlignUpShmemSizeVoltaPlus
    barrier_factor: 2,     // OCC-12.9 (not applied below 9.0)
    l1_smem_per_sm_kb: 128, // CPG §20.6: 128 KB unified L1/shared
};

/// CC 7.5 (Turing).
const CC_7_5: CcConstants = CcConstants {
    cc: (7, 5),
    fp32_lanes_per_sm: 64,        // CPG §20.7
    fp64_lanes_per_sm: 2,         // CPG throughput table
    max_threads_per_sm: 1024,     // CPG Table 27
    max_blocks_per_sm: 16,        // OCC-12.9
    smem_per_sm_kb: 64,           // CPG Table 27
    max_smem_per_block_kb: 64,    // CPG Table 27
    smem_reserved_per_block: 0,   // UNVERIFIED, inferred (docs/gpu-facts.md §1.3)
    smem_alloc_unit: 256,         // OCC-12.9
    carveout_steps_kb: &[32, 64], // OCC-12.9 (no 0 KB step on Turing)
    barrier_factor: 2,            // OCC-12.9 (not applied below 9.0)
    l1_smem_per_sm_kb: 96,        // CPG §20.7: 96 KB unified
};

/// CC 8.0 (A100).
const CC_8_0: CcConstants = CcConstants {
    cc: (8, 0),
    fp32_lanes_per_sm: 64,                                 // CPG §20.8
    fp64_lanes_per_sm: 32,                                 // CPG throughput table
    max_threads_per_sm: 2048,                              // CPG Table 27
    max_blocks_per_sm: 32,                                 // OCC-12.9
    smem_per_sm_kb: 164,                                   // CPG Table 27
    max_smem_per_block_kb: 163,                            // CPG Table 27
    smem_reserved_per_block: 1024,                         // CPG "1 KB ... reserved for system use"
    smem_alloc_unit: 128,                                  // OCC-12.9
    carveout_steps_kb: &[0, 8, 16, 32, 64, 100, 132, 164], // OCC-12.9
    barrier_factor: 2,                                     // OCC-12.9 (not applied below 9.0)
    l1_smem_per_sm_kb: 192,                                // CPG §20.8: 192 KB unified
};

/// CC 8.6 (GA10x).
const CC_8_6: CcConstants = CcConstants {
    cc: (8, 6),
    fp32_lanes_per_sm: 128,                      // CPG §20.8
    fp64_lanes_per_sm: 2,                        // CPG throughput table
    max_threads_per_sm: 1536,                    // CPG Table 27
    max_blocks_per_sm: 16,                       // OCC-12.9
    smem_per_sm_kb: 100,                         // CPG Table 27
    max_smem_per_block_kb: 99,                   // CPG Table 27
    smem_reserved_per_block: 1024,               // CPG (1 KB reserved, CC >= 8.0)
    smem_alloc_unit: 128,                        // OCC-12.9
    carveout_steps_kb: &[0, 8, 16, 32, 64, 100], // OCC-12.9
    barrier_factor: 1,                           // OCC-12.9 (not applied below 9.0)
    l1_smem_per_sm_kb: 128,                      // CPG §20.8: 128 KB unified
};

/// CC 8.9 (Ada).
const CC_8_9: CcConstants = CcConstants {
    cc: (8, 9),
    fp32_lanes_per_sm: 128,                      // CPG §20.8
    fp64_lanes_per_sm: 2,                        // CPG throughput table
    max_threads_per_sm: 1536,                    // CPG Table 27; RTX 5000 Ada live props
    max_blocks_per_sm: 24,                       // OCC-12.9; RTX 5000 Ada live props
    smem_per_sm_kb: 100,                         // CPG Table 27; live 102,400 B
    max_smem_per_block_kb: 99,                   // CPG Table 27; live 101,376 B
    smem_reserved_per_block: 1024,               // live reservedSharedMemPerBlock 1,024
    smem_alloc_unit: 128,                        // OCC-12.9
    carveout_steps_kb: &[0, 8, 16, 32, 64, 100], // OCC-12.9
    barrier_factor: 1,                           // OCC-12.9 (not applied below 9.0)
    l1_smem_per_sm_kb: 128,                      // CPG §20.8: 128 KB unified
};

/// CC 9.0 (Hopper).
const CC_9_0: CcConstants = CcConstants {
    cc: (9, 0),
    fp32_lanes_per_sm: 128,        // CPG §20.9
    fp64_lanes_per_sm: 64,         // CPG throughput table
    max_threads_per_sm: 2048,      // CPG Table 27; RPT-H100 live props
    max_blocks_per_sm: 32,         // OCC-12.9; RPT-H100 maxBlocksPerMultiProcessor 32
    smem_per_sm_kb: 228,           // CPG Table 27; RPT-H100 233,472 B
    max_smem_per_block_kb: 227,    // CPG Table 27
    smem_reserved_per_block: 1024, // RPT-H100 reservedSharedMemPerBlock 1024
    smem_alloc_unit: 128,          // OCC-12.9
    carveout_steps_kb: &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228], // OCC-12.9
    barrier_factor: 2,             // OCC-12.9 cudaOccMaxBlocksPerSMBlockBarrierLimit
    l1_smem_per_sm_kb: 256,        // CPG §20.9: 256 KB unified
};

/// CC 10.0 (B200).
const CC_10_0: CcConstants = CcConstants {
    cc: (10, 0),
    fp32_lanes_per_sm: 128,        // CPG §20.10
    fp64_lanes_per_sm: 64,         // UNVERIFIED: from B200's FP64 rate (docs/gpu-facts.md §6.4)
    max_threads_per_sm: 2048,      // CPG Table 27; B200-RPT live props
    max_blocks_per_sm: 32,         // OCC-12.9; B200-RPT live props
    smem_per_sm_kb: 228,           // CPG Table 27; B200-RPT 233,472 B
    max_smem_per_block_kb: 227,    // B200-RPT sharedMemPerBlockOptin 232,448
    smem_reserved_per_block: 1024, // B200-RPT reservedSharedMemPerBlock 1,024
    smem_alloc_unit: 128,          // OCC-12.9
    carveout_steps_kb: &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228], // OCC-12.9 (same as 9.0)
    barrier_factor: 2,             // OCC-12.9 (10.0 → 2)
    l1_smem_per_sm_kb: 256,        // CPG §20.10: 256 KB unified
};

/// Builds a config from per-CC constants and the per-product numbers.
/// The per-product numbers of a preset besides its compute capability.
struct Product {
    name: &'static str,
    n_sm: u32,
    clock_hz: f64,
    mem_bw: f64,
    l2_bytes: u64,
    l2_bytes_per_clk: Option<f64>,
    /// Dense FP16 tensor multiply-adds (FP32 accumulation) per clock per SM: a product's number,
    /// since GeForce parts of a compute capability run them at half the rate of the others.
    tensor_fma_per_sm: u32,
}

fn from_cc(c: &CcConstants, p: Product) -> GpuConfig {
    let Product {
        name,
        n_sm,
        clock_hz,
        mem_bw,
        l2_bytes,
        l2_bytes_per_clk,
        tensor_fma_per_sm,
    } = p;
    GpuConfig {
        name: name.to_string(),
        compute_capability: c.cc,
        n_sm,
        warp_size: 32,        // CPG Table 27, every CC
        schedulers_per_sm: 4, // docs/gpu-facts.md §1.3 (4 sub-partitions, CC 7–12)
        fp32_lanes_per_sm: c.fp32_lanes_per_sm,
        fp64_lanes_per_sm: c.fp64_lanes_per_sm,
        sfu_lanes_per_sm: 16, // CPG throughput table, CC 7.0-9.0 (docs/gpu-facts.md §6.4)
        tensor_fma_per_sm,
        max_threads_per_sm: c.max_threads_per_sm,
        max_warps_per_sm: c.max_threads_per_sm / 32,
        max_blocks_per_sm: c.max_blocks_per_sm,
        max_threads_per_block: 1024, // CPG Table 27, every CC
        regs_per_sm: 65536,          // CPG Table 27, every CC
        max_regs_per_thread: 255,    // CPG Table 27 (header rejects only > 256)
        reg_alloc_unit: 256,         // OCC-12.9 cudaOccRegAllocationGranularity
        smem_per_sm: c.smem_per_sm_kb * 1024,
        max_smem_per_block: c.max_smem_per_block_kb * 1024,
        smem_reserved_per_block: c.smem_reserved_per_block,
        smem_alloc_unit: c.smem_alloc_unit,
        n_banks: 32,      // CPG Table 27
        bank_bytes: 4,    // CPG §20.4.3
        sector_bytes: 32, // NCU-PG §2.3.7, BPG §9.2.1
        clock_hz,
        mem_bw,
        // Reference value (simt_lab.py, "about 500 ns", Gimlet blog), kept for every preset.
        // Measured DRAM latencies (docs/gpu-facts.md §2.2) are 460–860 cycles ≈ 0.25–0.45 µs at boost;
        // no per-product figure is verified, so all presets share the reference's assumption.
        mem_latency_s: 500e-9,
        // Reference value (simt_lab.py, 4 µs); docs/gpu-facts.md §6.1 measures 4–6 µs synchronous.
        launch_overhead_s: 4e-6,
        default_smem_per_block: 48 * 1024, // CPG Table 27 (48 KB without opt-in)
        carveout_steps_kb: c.carveout_steps_kb.to_vec(),
        barrier_factor: c.barrier_factor,
        l1_smem_per_sm: c.l1_smem_per_sm_kb * 1024,
        l2_bytes,
        l2_bytes_per_clk,
    }
}

impl Default for GpuConfig {
    /// The H100 SXM, as in the reference.
    fn default() -> Self {
        GpuConfig::h100_sxm()
    }
}

// Every preset's L2 size is the one in docs/gpu-facts.md §2.1 (device-reported `l2CacheSize` where
// known); its L2 bytes per clock are in §6.3: 2048 for GV100, 5120 for GA100 and GH100 (the
// architecture's figure, the same on every product of the chip), unknown elsewhere.
impl GpuConfig {
    /// H100 SXM5 80GB (CC 9.0) — the default; equals the reference's `GPUConfig()`.
    pub fn h100_sxm() -> GpuConfig {
        // 132 SMs: NVIDIA datasheet (hpctech copy), reference; 1.98 GHz: RPT-H100 clockRate
        // 1980000 kHz, reference; 3.35 TB/s: NVIDIA datasheet (marketed), reference.
        from_cc(
            &CC_9_0,
            Product {
                name: "H100 SXM",
                n_sm: 132,
                clock_hz: 1.98e9,
                mem_bw: 3.35e12,
                l2_bytes: 52428800,
                l2_bytes_per_clk: Some(5120.0),
                tensor_fma_per_sm: 2048, // 4 tensor cores × 512 (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// H100 PCIe 80GB (CC 9.0).
    pub fn h100_pcie() -> GpuConfig {
        // 114 SMs, 1755 MHz max boost: chipsandcheese 2023-07-02; 2,000 GB/s HBM2e: hpctech page.
        from_cc(
            &CC_9_0,
            Product {
                name: "H100 PCIe",
                n_sm: 114,
                clock_hz: 1.755e9,
                mem_bw: 2.0e12,
                l2_bytes: 52428800,
                l2_bytes_per_clk: Some(5120.0),
                tensor_fma_per_sm: 2048, // GH100: 4 tensor cores × 512 (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// H200 SXM 141GB (CC 9.0).
    pub fn h200() -> GpuConfig {
        // 132 SMs, 4.8 TB/s: saulelectric.com and lzwjava.github.io H200 spec pages;
        // 1980 MHz: hmc-tech.com (same FP64 as H100 SXM ⇒ same clock) — UNVERIFIED (~1930 elsewhere).
        from_cc(
            &CC_9_0,
            Product {
                name: "H200 SXM",
                n_sm: 132,
                clock_hz: 1.98e9,
                mem_bw: 4.8e12,
                l2_bytes: 52428800,
                l2_bytes_per_clk: Some(5120.0),
                tensor_fma_per_sm: 2048, // GH100: 4 tensor cores × 512 (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// A100 SXM4 80GB (CC 8.0).
    pub fn a100_sxm() -> GpuConfig {
        // 108 SMs: glennklockwood.com A100 page and live props; 1410 MHz, 2,039 GB/s:
        // thundercompute A100 guide (live 1593 MHz × 5120-bit → 2.039 TB/s agrees).
        from_cc(
            &CC_8_0,
            Product {
                name: "A100 SXM 80GB",
                n_sm: 108,
                clock_hz: 1.41e9,
                mem_bw: 2.039e12,
                l2_bytes: 41943040,
                l2_bytes_per_clk: Some(5120.0),
                tensor_fma_per_sm: 1024, // 4 tensor cores × 256, A100 whitepaper (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// A100 PCIe 40GB (CC 8.0).
    pub fn a100_pcie() -> GpuConfig {
        // 108 SMs, 1410 MHz, 1,555 GB/s HBM2: thundercompute A100 guide; techpowerup (1215 MHz × 5120-bit).
        from_cc(
            &CC_8_0,
            Product {
                name: "A100 PCIe 40GB",
                n_sm: 108,
                clock_hz: 1.41e9,
                mem_bw: 1.555e12,
                l2_bytes: 41943040,
                l2_bytes_per_clk: Some(5120.0),
                tensor_fma_per_sm: 1024, // 4 tensor cores × 256, A100 whitepaper (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// L4 24GB (CC 8.9).
    pub fn l4() -> GpuConfig {
        // 58 SMs, 2040 MHz: live device-properties dump; 300 GB/s (192-bit GDDR6 @ 6251 MHz):
        // same dump and fpsbench.com.
        from_cc(
            &CC_8_9,
            Product {
                name: "L4",
                n_sm: 58,
                clock_hz: 2.04e9,
                mem_bw: 300e9,
                l2_bytes: 50331648,
                l2_bytes_per_clk: None,
                tensor_fma_per_sm: 512, // UNVERIFIED: from the 121 TFLOPS dense FP16 datasheet figure (§6.7)
            },
        )
    }

    /// GeForce RTX 4090 (CC 8.9).
    pub fn rtx4090() -> GpuConfig {
        // 128 SMs, 2520 MHz boost, 1,008 GB/s: holynerdvana RTX 4090 specs; thefpsreview.
        from_cc(
            &CC_8_9,
            Product {
                name: "RTX 4090",
                n_sm: 128,
                clock_hz: 2.52e9,
                mem_bw: 1.008e12,
                l2_bytes: 75497472,
                l2_bytes_per_clk: None,
                tensor_fma_per_sm: 256, // UNVERIFIED: GeForce, FP32 accumulation at half rate (§6.7)
            },
        )
    }

    /// GeForce RTX 3090 (CC 8.6).
    pub fn rtx3090() -> GpuConfig {
        // 82 SMs, 1695 MHz boost, 936 GB/s: holynerdvana RTX 3090 specs.
        from_cc(
            &CC_8_6,
            Product {
                name: "RTX 3090",
                n_sm: 82,
                clock_hz: 1.695e9,
                mem_bw: 936e9,
                l2_bytes: 6291456,
                l2_bytes_per_clk: None,
                tensor_fma_per_sm: 256, // UNVERIFIED: GeForce, FP32 accumulation at half rate (§6.7)
            },
        )
    }

    /// B200 HGX 180GB (CC 10.0).
    pub fn b200() -> GpuConfig {
        // 148 SMs: B200-RPT live cudaDeviceProp; 1965 MHz: B200-RPT nvidia-smi max SM clock;
        // 8 TB/s marketed: modal.com GPU glossary (7.672 TB/s from the bus width).
        from_cc(
            &CC_10_0,
            Product {
                name: "B200",
                n_sm: 148,
                clock_hz: 1.965e9,
                mem_bw: 8.0e12,
                l2_bytes: 132644864,
                l2_bytes_per_clk: None,
                tensor_fma_per_sm: 4096, // UNVERIFIED: from the 2.25 PFLOPS dense FP16 figure (§6.7)
            },
        )
    }

    /// Tesla V100 SXM2 (CC 7.0).
    pub fn v100() -> GpuConfig {
        // 80 SMs: Volta whitepaper table (techrival copy); 1530 MHz boost: sysrqmts (SXM3 page,
        // SXM2 UNVERIFIED); 900 GB/s marketed (876 MHz × 4096-bit × 2 = 897 GB/s).
        from_cc(
            &CC_7_0,
            Product {
                name: "V100 SXM2",
                n_sm: 80,
                clock_hz: 1.53e9,
                mem_bw: 900e9,
                l2_bytes: 6291456,
                l2_bytes_per_clk: Some(2048.0),
                tensor_fma_per_sm: 512, // 8 tensor cores × 64, Volta whitepaper (docs/gpu-facts.md §6.7)
            },
        )
    }

    /// Tesla T4 16GB (CC 7.5).
    pub fn t4() -> GpuConfig {
        // 40 SMs, 1590 MHz: deviceQuery table in sylvia-ymlin/cuda-kernels-from-scratch README;
        // 320 GB/s (256-bit GDDR6 @ 5001 MHz): sysrqmts.
        from_cc(
            &CC_7_5,
            Product {
                name: "T4",
                n_sm: 40,
                clock_hz: 1.59e9,
                mem_bw: 320e9,
                l2_bytes: 4194304,
                l2_bytes_per_clk: None,
                tensor_fma_per_sm: 512, // UNVERIFIED: Turing's 8 × 64, T4's 65 TFLOPS (§6.7)
            },
        )
    }

    /// Parses a GPU description from JSON (all fields required, unknown fields rejected) and
    /// checks that its numbers are usable.
    pub fn from_json_str(json: &str) -> Result<GpuConfig, String> {
        let gpu: GpuConfig =
            serde_json::from_str(json).map_err(|e| format!("invalid GPU description: {e}"))?;
        gpu.validate()
            .map_err(|e| format!("invalid GPU description `{}`: {e}", gpu.name))?;
        Ok(gpu)
    }

    /// Checks the invariants the occupancy and time models rely on (no zero divisors,
    /// ascending carveout steps covering `smem_per_sm`, CC 7.0 or newer, ...).
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("n_sm", self.n_sm),
            ("warp_size", self.warp_size),
            ("schedulers_per_sm", self.schedulers_per_sm),
            ("fp32_lanes_per_sm", self.fp32_lanes_per_sm),
            ("fp64_lanes_per_sm", self.fp64_lanes_per_sm),
            ("sfu_lanes_per_sm", self.sfu_lanes_per_sm),
            ("tensor_fma_per_sm", self.tensor_fma_per_sm),
            ("max_threads_per_sm", self.max_threads_per_sm),
            ("max_warps_per_sm", self.max_warps_per_sm),
            ("max_blocks_per_sm", self.max_blocks_per_sm),
            ("max_threads_per_block", self.max_threads_per_block),
            ("regs_per_sm", self.regs_per_sm),
            ("max_regs_per_thread", self.max_regs_per_thread),
            ("reg_alloc_unit", self.reg_alloc_unit),
            ("smem_per_sm", self.smem_per_sm),
            ("default_smem_per_block", self.default_smem_per_block),
            ("smem_alloc_unit", self.smem_alloc_unit),
            ("n_banks", self.n_banks),
            ("bank_bytes", self.bank_bytes),
            ("sector_bytes", self.sector_bytes),
            ("barrier_factor", self.barrier_factor),
        ];
        for (field, value) in positive {
            if value == 0 {
                return Err(format!("`{field}` must be greater than 0"));
            }
        }
        let rates = [("clock_hz", self.clock_hz), ("mem_bw", self.mem_bw)];
        for (field, value) in rates {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("`{field}` must be a positive number, got {value}"));
            }
        }
        let times = [
            ("mem_latency_s", self.mem_latency_s),
            ("launch_overhead_s", self.launch_overhead_s),
        ];
        for (field, value) in times {
            if !(value.is_finite() && value >= 0.0) {
                return Err(format!("`{field}` must be a number ≥ 0, got {value}"));
            }
        }
        if self.l1_smem_per_sm < self.smem_per_sm {
            return Err(format!(
                "`l1_smem_per_sm` ({}) is smaller than `smem_per_sm` ({})",
                self.l1_smem_per_sm, self.smem_per_sm
            ));
        }
        if self.l2_bytes == 0 {
            return Err("`l2_bytes` must be greater than 0".to_string());
        }
        if let Some(bw) = self.l2_bytes_per_clk {
            if !(bw.is_finite() && bw > 0.0) {
                return Err(format!(
                    "`l2_bytes_per_clk` must be a positive number or null, got {bw}"
                ));
            }
        }
        if self.compute_capability.0 < 7 {
            return Err(format!(
                "compute capability {}.{} is not modelled (7.0 or newer)",
                self.compute_capability.0, self.compute_capability.1
            ));
        }
        if !self.max_threads_per_sm.is_multiple_of(self.warp_size)
            || self.max_warps_per_sm != self.max_threads_per_sm / self.warp_size
        {
            return Err(format!(
                "`max_warps_per_sm` ({}) must equal `max_threads_per_sm / warp_size` ({} / {})",
                self.max_warps_per_sm, self.max_threads_per_sm, self.warp_size
            ));
        }
        if self.max_threads_per_block > self.max_threads_per_sm {
            return Err(format!(
                "`max_threads_per_block` ({}) exceeds `max_threads_per_sm` ({})",
                self.max_threads_per_block, self.max_threads_per_sm
            ));
        }
        if self.default_smem_per_block > self.max_smem_per_block {
            return Err(format!(
                "`default_smem_per_block` ({}) exceeds `max_smem_per_block` ({})",
                self.default_smem_per_block, self.max_smem_per_block
            ));
        }
        if self.max_smem_per_block > self.smem_per_sm {
            return Err(format!(
                "`max_smem_per_block` ({}) exceeds `smem_per_sm` ({})",
                self.max_smem_per_block, self.smem_per_sm
            ));
        }
        if self.carveout_steps_kb.is_empty() {
            return Err("`carveout_steps_kb` must list at least one size".to_string());
        }
        if self.carveout_steps_kb.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!(
                "`carveout_steps_kb` must be strictly ascending, got {:?}",
                self.carveout_steps_kb
            ));
        }
        let largest = self.carveout_steps_kb.last().copied().unwrap_or(0);
        if u64::from(largest) * 1024 < u64::from(self.smem_per_sm) {
            return Err(format!(
                "the largest carveout step ({largest} KB) is smaller than `smem_per_sm` ({} bytes)",
                self.smem_per_sm
            ));
        }
        Ok(())
    }
}

/// A preset's accepted names (the first is canonical) and its constructor.
type Preset = (&'static [&'static str], fn() -> GpuConfig);

/// Every preset, in listing order.
const PRESETS: &[Preset] = &[
    (&["h100-sxm", "h100"], GpuConfig::h100_sxm),
    (&["h100-pcie"], GpuConfig::h100_pcie),
    (&["h200"], GpuConfig::h200),
    (&["a100-sxm", "a100"], GpuConfig::a100_sxm),
    (&["a100-pcie"], GpuConfig::a100_pcie),
    (&["l4"], GpuConfig::l4),
    (&["rtx4090"], GpuConfig::rtx4090),
    (&["rtx3090"], GpuConfig::rtx3090),
    (&["b200"], GpuConfig::b200),
    (&["v100"], GpuConfig::v100),
    (&["t4"], GpuConfig::t4),
];

/// Every preset, H100 SXM (the default) first.
pub fn presets() -> Vec<GpuConfig> {
    PRESETS.iter().map(|(_, make)| make()).collect()
}

/// Each preset with the name to type for it (`--gpu h100-pcie`), in preset order.
pub fn named_presets() -> Vec<(&'static str, GpuConfig)> {
    PRESETS
        .iter()
        .map(|(names, make)| (names[0], make()))
        .collect()
}

/// Every name `preset` accepts, canonical names and aliases, in preset order.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS
        .iter()
        .flat_map(|(names, _)| names.iter().copied())
        .collect()
}

/// Looks a preset up by short name, ignoring case; `_` and spaces count as `-`
/// (`"H100"`, `"h100_sxm"` and `"H100 SXM"` all give the H100 SXM).
pub fn preset(name: &str) -> Option<GpuConfig> {
    let key: String = name
        .trim()
        .chars()
        .map(|c| match c {
            '_' | ' ' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    PRESETS
        .iter()
        .find(|(names, _)| names.contains(&key.as_str()))
        .map(|(_, make)| make())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h100_sxm_equals_the_reference_defaults() {
        let g = GpuConfig::h100_sxm();
        // reference GPUConfig() field by field (simt_lab.py §1)
        assert_eq!(g.n_sm, 132);
        assert_eq!(g.warp_size, 32);
        assert_eq!(g.schedulers_per_sm, 4);
        assert_eq!(g.fp32_lanes_per_sm, 128);
        assert_eq!(g.max_threads_per_sm, 2048);
        assert_eq!(g.max_warps_per_sm, 64);
        assert_eq!(g.max_blocks_per_sm, 32);
        assert_eq!(g.max_threads_per_block, 1024);
        assert_eq!(g.regs_per_sm, 65536);
        assert_eq!(g.max_regs_per_thread, 255);
        assert_eq!(g.reg_alloc_unit, 256);
        assert_eq!(g.smem_per_sm, 228 * 1024);
        assert_eq!(g.max_smem_per_block, 227 * 1024);
        assert_eq!(g.smem_reserved_per_block, 1024);
        assert_eq!(g.smem_alloc_unit, 128);
        assert_eq!(g.n_banks, 32);
        assert_eq!(g.bank_bytes, 4);
        assert_eq!(g.sector_bytes, 32);
        assert_eq!(g.clock_hz, 1.98e9);
        assert_eq!(g.mem_bw, 3.35e12);
        assert_eq!(g.mem_latency_s, 500e-9);
        assert_eq!(g.launch_overhead_s, 4e-6);
        // additions
        assert_eq!(g.compute_capability, (9, 0));
        assert_eq!(g.default_smem_per_block, 49152);
        assert_eq!(g.barrier_factor, 2);
        assert_eq!(g.l1_smem_per_sm, 256 * 1024);
        assert_eq!(g.l2_bytes, 50 * 1024 * 1024);
        assert_eq!(g.l2_bytes_per_clk, Some(5120.0));
        assert_eq!(
            g.carveout_steps_kb,
            vec![0, 8, 16, 32, 64, 100, 132, 164, 196, 228]
        );
        assert_eq!(GpuConfig::default(), g);
    }

    #[test]
    fn every_preset_is_valid_and_named_uniquely() {
        let all = presets();
        assert_eq!(all.len(), 11);
        for g in &all {
            assert_eq!(g.validate(), Ok(()), "{}", g.name);
        }
        let mut names: Vec<_> = all.iter().map(|g| g.name.clone()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 11);
        assert_eq!(all[0], GpuConfig::h100_sxm());
    }

    #[test]
    fn preset_numbers_match_gpu_facts() {
        // (short name, CC, SMs, clock, bandwidth, warps/SM, blocks/SM, smem/SM) — docs/gpu-facts.md §2.1, §1.3
        type Row = (&'static str, (u32, u32), u32, f64, f64, u32, u32, u32);
        let table: &[Row] = &[
            ("h100-pcie", (9, 0), 114, 1.755e9, 2.0e12, 64, 32, 233_472),
            ("h200", (9, 0), 132, 1.98e9, 4.8e12, 64, 32, 233_472),
            ("a100-sxm", (8, 0), 108, 1.41e9, 2.039e12, 64, 32, 167_936),
            ("a100-pcie", (8, 0), 108, 1.41e9, 1.555e12, 64, 32, 167_936),
            ("l4", (8, 9), 58, 2.04e9, 300e9, 48, 24, 102_400),
            ("rtx4090", (8, 9), 128, 2.52e9, 1.008e12, 48, 24, 102_400),
            ("rtx3090", (8, 6), 82, 1.695e9, 936e9, 48, 16, 102_400),
            ("b200", (10, 0), 148, 1.965e9, 8.0e12, 64, 32, 233_472),
            ("v100", (7, 0), 80, 1.53e9, 900e9, 64, 32, 98_304),
            ("t4", (7, 5), 40, 1.59e9, 320e9, 32, 16, 65_536),
        ];
        for &(name, cc, n_sm, clock, bw, warps, blocks, smem) in table {
            let g = preset(name).expect(name);
            assert_eq!(g.compute_capability, cc, "{name}");
            assert_eq!(g.n_sm, n_sm, "{name}");
            assert_eq!(g.clock_hz, clock, "{name}");
            assert_eq!(g.mem_bw, bw, "{name}");
            assert_eq!(g.max_warps_per_sm, warps, "{name}");
            assert_eq!(g.max_blocks_per_sm, blocks, "{name}");
            assert_eq!(g.smem_per_sm, smem, "{name}");
        }
        assert_eq!(GpuConfig::v100().smem_reserved_per_block, 0);
        assert_eq!(GpuConfig::t4().carveout_steps_kb, vec![32, 64]);
        assert_eq!(GpuConfig::rtx3090().barrier_factor, 1);
        assert_eq!(GpuConfig::a100_sxm().fp32_lanes_per_sm, 64);
        // L2 sizes and bandwidths: docs/gpu-facts.md §2.1, §6.3.
        assert_eq!(GpuConfig::a100_sxm().l2_bytes, 40 * 1024 * 1024);
        assert_eq!(GpuConfig::b200().l2_bytes, 132_644_864);
        assert_eq!(GpuConfig::t4().l2_bytes, 4 * 1024 * 1024);
        assert_eq!(GpuConfig::v100().l2_bytes_per_clk, Some(2048.0));
        assert_eq!(GpuConfig::l4().l2_bytes_per_clk, None);
        assert_eq!(GpuConfig::a100_sxm().l1_smem_per_sm, 192 * 1024);
        assert_eq!(GpuConfig::t4().l1_smem_per_sm, 96 * 1024);
        // FP64: full rate on the data-centre parts, 1/64 of FP32 on the consumer ones.
        assert_eq!(GpuConfig::h100_sxm().fp64_lanes_per_sm, 64);
        assert_eq!(GpuConfig::a100_sxm().fp64_lanes_per_sm, 32);
        assert_eq!(GpuConfig::rtx4090().fp64_lanes_per_sm, 2);
        assert_eq!(GpuConfig::t4().fp64_lanes_per_sm, 2);
        // docs/gpu-facts.md §6.7: 8 × 64 (Volta), 4 × 256 (A100), 4 × 512 (H100) a clock.
        assert_eq!(GpuConfig::v100().tensor_fma_per_sm, 512);
        assert_eq!(GpuConfig::a100_sxm().tensor_fma_per_sm, 1024);
        assert_eq!(GpuConfig::h100_sxm().tensor_fma_per_sm, 2048);
        assert_eq!(GpuConfig::v100().sfu_lanes_per_sm, 16);
        assert_eq!(GpuConfig::a100_sxm().max_smem_per_block, 163 * 1024);
    }

    #[test]
    fn preset_lookup_by_short_name() {
        let cases = [
            ("h100", "H100 SXM"),
            ("H100", "H100 SXM"),
            ("h100-sxm", "H100 SXM"),
            ("H100_SXM", "H100 SXM"),
            ("H100 SXM", "H100 SXM"),
            ("h100-pcie", "H100 PCIe"),
            ("h200", "H200 SXM"),
            ("a100", "A100 SXM 80GB"),
            ("A100-SXM", "A100 SXM 80GB"),
            ("a100-pcie", "A100 PCIe 40GB"),
            ("l4", "L4"),
            ("RTX4090", "RTX 4090"),
            ("rtx3090", "RTX 3090"),
            ("b200", "B200"),
            ("V100", "V100 SXM2"),
            ("t4", "T4"),
        ];
        for (key, name) in cases {
            assert_eq!(preset(key).map(|g| g.name), Some(name.to_string()), "{key}");
        }
        assert_eq!(preset("h300"), None);
        assert_eq!(preset(""), None);
        let names = preset_names();
        assert_eq!(names.len(), 13);
        for n in names {
            assert!(preset(n).is_some(), "{n}");
        }
    }

    #[test]
    fn json_round_trip() {
        for g in presets() {
            let text = serde_json::to_string_pretty(&g).expect("serialise");
            let back = GpuConfig::from_json_str(&text).expect("parse back");
            assert_eq!(back, g);
        }
        let text = serde_json::to_string(&GpuConfig::h100_sxm()).expect("serialise");
        assert!(text.contains("\"compute_capability\":[9,0]"), "{text}");
    }

    #[test]
    fn json_unknown_field_is_named() {
        let mut v = serde_json::to_value(GpuConfig::h100_sxm()).expect("to value");
        if let Some(obj) = v.as_object_mut() {
            obj.insert("n_sms".to_string(), serde_json::json!(132));
        }
        let err = GpuConfig::from_json_str(&v.to_string()).expect_err("unknown field");
        assert!(err.contains("unknown field `n_sms`"), "{err}");
    }

    #[test]
    fn json_missing_field_is_named() {
        let mut v = serde_json::to_value(GpuConfig::h100_sxm()).expect("to value");
        if let Some(obj) = v.as_object_mut() {
            obj.remove("barrier_factor");
        }
        let err = GpuConfig::from_json_str(&v.to_string()).expect_err("missing field");
        assert!(err.contains("missing field `barrier_factor`"), "{err}");
    }

    #[test]
    fn json_bad_values_are_rejected() {
        let bad = |edit: &dyn Fn(&mut GpuConfig), needle: &str| {
            let mut g = GpuConfig::h100_sxm();
            edit(&mut g);
            let text = serde_json::to_string(&g).expect("serialise");
            let err = GpuConfig::from_json_str(&text).expect_err(needle);
            assert!(err.contains(needle), "{err} (wanted {needle})");
        };
        bad(&|g| g.warp_size = 0, "`warp_size` must be greater than 0");
        bad(&|g| g.mem_bw = 0.0, "`mem_bw` must be a positive number");
        bad(&|g| g.mem_latency_s = -1.0, "`mem_latency_s`");
        bad(&|g| g.compute_capability = (6, 1), "compute capability 6.1");
        bad(&|g| g.max_warps_per_sm = 48, "`max_warps_per_sm` (48)");
        bad(&|g| g.carveout_steps_kb = vec![], "at least one size");
        bad(&|g| g.l1_smem_per_sm = 1024, "`l1_smem_per_sm` (1024)");
        bad(&|g| g.l2_bytes = 0, "`l2_bytes` must be greater than 0");
        bad(&|g| g.l2_bytes_per_clk = Some(-1.0), "`l2_bytes_per_clk`");
        bad(
            &|g| g.carveout_steps_kb = vec![0, 64, 8],
            "strictly ascending",
        );
        bad(
            &|g| g.carveout_steps_kb = vec![0, 8, 100],
            "largest carveout step (100 KB)",
        );
        bad(
            &|g| g.max_smem_per_block = 300 * 1024,
            "`max_smem_per_block`",
        );
        let err = GpuConfig::from_json_str("{").expect_err("syntax");
        assert!(err.starts_with("invalid GPU description"), "{err}");
        let err = GpuConfig::from_json_str("[]").expect_err("not an object");
        assert!(err.starts_with("invalid GPU description"), "{err}");
    }
}
