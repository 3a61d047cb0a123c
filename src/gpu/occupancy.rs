//! Occupancy as NVIDIA's `cuda_occupancy.h` computes it, plus waves, latency hiding, Amdahl and Gustafson.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::GpuConfig;

/// What a kernel launch asks of one SM: the inputs of the occupancy calculator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OccupancyRequest {
    /// Threads per block.
    pub threads_per_block: u32,
    /// Registers per thread, as the compiler reports them (`numRegs`).
    pub regs_per_thread: u32,
    /// Shared memory per block in bytes, static plus dynamic (without the driver's reservation).
    pub smem_per_block: u32,
    /// Shared-memory carveout preference in percent (`cudaFuncAttributePreferredSharedMemoryCarveout`);
    /// `None` is the default (−1): the whole `smem_per_sm`.
    pub carveout_percent: Option<u32>,
    /// Whether the kernel opted in to more than `default_smem_per_block`
    /// (`cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...)`).
    pub opt_in: bool,
    /// Block barriers the kernel uses (`numBlockBarriers`; 1 for any kernel from `cudaFuncAttributes`).
    pub barriers_per_block: u32,
}

impl OccupancyRequest {
    /// A request with the runtime's defaults: no carveout preference, no opt-in, one barrier.
    pub fn new(threads_per_block: u32, regs_per_thread: u32, smem_per_block: u32) -> Self {
        OccupancyRequest {
            threads_per_block,
            regs_per_thread,
            smem_per_block,
            carveout_percent: None,
            opt_in: false,
            barriers_per_block: 1,
        }
    }
}

/// A resource that can limit the number of resident blocks per SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    /// Warp slots per SM (`OCC_LIMIT_WARPS`).
    Warps,
    /// The per-SM block limit of the compute capability (`OCC_LIMIT_BLOCKS`).
    Blocks,
    /// The register file (`OCC_LIMIT_REGISTERS`).
    Registers,
    /// Shared memory (`OCC_LIMIT_SHARED_MEMORY`).
    SharedMem,
    /// Hardware block barriers, CC 9.0 and newer (`OCC_LIMIT_BARRIERS`).
    Barriers,
}

impl Limiter {
    /// All limiters in reporting order (the reference's order, barriers last).
    pub const ALL: [Limiter; 5] = [
        Limiter::Warps,
        Limiter::Blocks,
        Limiter::Registers,
        Limiter::SharedMem,
        Limiter::Barriers,
    ];

    /// The name used in JSON and reports (`"shared_mem"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::Blocks => "blocks",
            Limiter::Registers => "registers",
            Limiter::SharedMem => "shared_mem",
            Limiter::Barriers => "barriers",
        }
    }
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Blocks per SM allowed by each resource; `None` means the resource sets no limit
/// (the header's `INT_MAX`: no registers, no shared memory, or no barrier limit on this CC).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OccupancyLimits {
    /// `blockLimitWarps`.
    pub warps: u32,
    /// `blockLimitBlocks`.
    pub blocks: u32,
    /// `blockLimitRegs`.
    pub registers: Option<u32>,
    /// `blockLimitSharedMem`.
    pub shared_mem: Option<u32>,
    /// `blockLimitBarriers` (only CC ≥ 9.0 with at least one barrier per block).
    pub barriers: Option<u32>,
}

impl OccupancyLimits {
    /// The limit set by one resource.
    pub fn get(&self, limiter: Limiter) -> Option<u32> {
        match limiter {
            Limiter::Warps => Some(self.warps),
            Limiter::Blocks => Some(self.blocks),
            Limiter::Registers => self.registers,
            Limiter::SharedMem => self.shared_mem,
            Limiter::Barriers => self.barriers,
        }
    }
}

/// The result of the occupancy calculator for one launch shape on one GPU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Occupancy {
    /// Resident blocks per SM (`activeBlocksPerMultiprocessor`); 0 when the kernel cannot launch.
    pub blocks_per_sm: u32,
    /// Resident warps per SM.
    pub active_warps: u32,
    /// Theoretical occupancy, `active_warps / max_warps_per_sm` (0–1).
    pub occupancy: f64,
    /// The first limiter in reporting order (`limiters[0]`).
    pub limiter: Limiter,
    /// Every resource whose limit equals `blocks_per_sm`.
    pub limiters: Vec<Limiter>,
    /// The limit each resource sets.
    pub limits: OccupancyLimits,
    /// Warps per block, `ceil(threads / warp_size)`.
    pub warps_per_block: u32,
    /// Registers allocated per block (`regs per warp rounded to 256 × warps`).
    pub allocated_regs_per_block: u64,
    /// Shared memory allocated per block, reservation and rounding included.
    pub allocated_smem_per_block: u64,
    /// Shared memory per SM the carveout provides for this launch (0 if it could not be chosen).
    pub smem_per_sm_effective: u64,
    /// Why no block fits, when `blocks_per_sm` is 0.
    pub cannot_launch: Option<String>,
}

fn ceil_div(x: u64, y: u64) -> u64 {
    x.div_ceil(y.max(1))
}

fn round_up(x: u64, y: u64) -> u64 {
    ceil_div(x, y) * y.max(1)
}

fn to_u32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// The smallest legal carveout (bytes) that holds `bytes` (`cudaOccAlignUpShmemSizeVoltaPlus`);
/// `None` if `bytes` exceeds the largest step.
fn carveout_step(gpu: &GpuConfig, bytes: u64) -> Option<u64> {
    gpu.carveout_steps_kb
        .iter()
        .map(|&kb| u64::from(kb) * 1024)
        .find(|&step| step >= bytes)
}

/// L1 data cache bytes per SM for a launch: the unified L1/shared memory less the carveout the
/// driver configures, the smallest legal step that holds the resident blocks' shared memory
/// (with the per-block reservation) (`docs/gpu-facts.md` §6.3).
pub fn l1_bytes_per_sm(gpu: &GpuConfig, occ: &Occupancy) -> u64 {
    let smem = u64::from(occ.blocks_per_sm) * occ.allocated_smem_per_block;
    let carveout = carveout_step(gpu, smem).unwrap_or(u64::from(gpu.smem_per_sm));
    u64::from(gpu.l1_smem_per_sm).saturating_sub(carveout)
}

/// Computes how many blocks of a launch fit on one SM, following `cuda_occupancy.h`
/// (`cudaOccMaxActiveBlocksPerMultiprocessor`, CUDA 12.6–13) step by step:
///
/// 1. warps per block = `ceil(threads / warp_size)`; warp limit =
///    `(max_threads_per_sm / warp_size) / warps_per_block` (0 above `max_threads_per_block`);
/// 2. registers: `regs_per_warp = round_up(regs × warp_size, 256)`; the launch fails if
///    `regs_per_warp × round_up(warps, 4)` (hardware check) or `regs_per_warp × warps`
///    (software check) exceeds the 64 K per-block register file, or if regs per thread exceed
///    `max_regs_per_thread` (255; the header's own threshold is 256, a count no compiler emits);
///    otherwise limit = `(regs_per_sm / 4 / regs_per_warp) × 4 / warps` (registers are split over
///    4 sub-partitions), or none with 0 registers;
/// 3. block limit = `max_blocks_per_sm`;
/// 4. shared memory: per block `round_up(smem + reserved, smem_alloc_unit)`, which must not exceed
///    the per-block cap (`default_smem_per_block`, or `max_smem_per_block` with opt-in when the
///    block needs more; plus the reservation on CC ≥ 8.0); per SM the carveout (default: all of
///    `smem_per_sm`; else `percent × smem_per_sm / 100`) rounded up to a legal carveout step, or,
///    if that is smaller than one block, the block's size rounded up to a step;
///    limit = `smem per SM / smem per block`, or none for 0 bytes;
/// 5. on CC ≥ 9.0 with barriers: limit = `max_blocks_per_sm × barrier_factor / barriers_per_block`;
/// 6. blocks per SM = the minimum; every resource whose limit equals it is a limiter.
///
/// Deliberate difference: the header flags warps/registers/shared memory/blocks against the
/// minimum *before* the barrier limit is applied; here every limiter ties with the final value.
/// With one barrier per block (the default) the two agree.
pub fn occupancy(gpu: &GpuConfig, req: &OccupancyRequest) -> Occupancy {
    let warp = u64::from(gpu.warp_size.max(1));
    let threads = u64::from(req.threads_per_block);
    let warps_per_block = ceil_div(threads, warp);
    let max_warps_sm = u64::from(gpu.max_threads_per_sm) / warp;
    let mut reasons: Vec<String> = Vec::new();

    if threads == 0 {
        return Occupancy {
            blocks_per_sm: 0,
            active_warps: 0,
            occupancy: 0.0,
            limiter: Limiter::Warps,
            limiters: vec![Limiter::Warps],
            limits: OccupancyLimits {
                warps: 0,
                blocks: gpu.max_blocks_per_sm,
                registers: None,
                shared_mem: None,
                barriers: None,
            },
            warps_per_block: 0,
            allocated_regs_per_block: 0,
            allocated_smem_per_block: 0,
            smem_per_sm_effective: 0,
            cannot_launch: Some("a block needs at least one thread".to_string()),
        };
    }

    // 1. Warp limit (cudaOccMaxBlocksPerSMWarpsLimit).
    let warps_limit = if req.threads_per_block > gpu.max_threads_per_block {
        reasons.push(format!(
            "{} threads per block > {} maximum",
            req.threads_per_block, gpu.max_threads_per_block
        ));
        0
    } else {
        to_u32(max_warps_sm / warps_per_block)
    };

    // 2. Register limit (cudaOccMaxBlocksPerSMRegsLimit).
    let regs = u64::from(req.regs_per_thread);
    let reg_unit = u64::from(gpu.reg_alloc_unit.max(1));
    let regs_per_warp = round_up(regs * warp, reg_unit);
    let alloc_regs = regs_per_warp.saturating_mul(warps_per_block);
    let sub_partitions = u64::from(gpu.schedulers_per_sm.max(1));
    let warps_rounded = round_up(warps_per_block, sub_partitions);
    let regs_assumed = regs_per_warp.saturating_mul(warps_rounded);
    let regs_per_block = u64::from(gpu.regs_per_sm);
    let rounded_regs = regs_per_warp / warp;
    let registers_limit = if req.regs_per_thread > gpu.max_regs_per_thread {
        reasons.push(format!(
            "{} registers per thread > {} maximum",
            req.regs_per_thread, gpu.max_regs_per_thread
        ));
        Some(0)
    } else if alloc_regs > regs_per_block {
        let rounding = if rounded_regs != regs {
            format!(" ({regs} registers per thread are allocated as {rounded_regs})")
        } else {
            String::new()
        };
        if threads % warp == 0 {
            reasons.push(format!(
                "{threads} threads × {rounded_regs} registers = {alloc_regs} > {regs_per_block} registers per block{rounding}"
            ));
        } else {
            reasons.push(format!(
                "{warps_per_block} warps ({threads} threads rounded up to whole warps) × {regs_per_warp} registers per warp = {alloc_regs} > {regs_per_block} registers per block{rounding}"
            ));
        }
        Some(0)
    } else if regs_assumed > regs_per_block {
        reasons.push(format!(
            "{regs_per_warp} registers per warp × {warps_rounded} warps ({warps_per_block} rounded up to a multiple of {sub_partitions} sub-partitions) = {regs_assumed} > {regs_per_block} registers per block (hardware check)"
        ));
        Some(0)
    } else {
        // 0 registers per warp: no register limit (the header's INT_MAX).
        let regs_per_sub_partition = u64::from(gpu.regs_per_sm) / sub_partitions;
        regs_per_sub_partition
            .checked_div(regs_per_warp)
            .map(|warps_per_sub_partition| {
                to_u32(warps_per_sub_partition * sub_partitions / warps_per_block)
            })
    };

    // 3. Block limit (cudaOccMaxBlocksPerMultiprocessor).
    let blocks_limit = gpu.max_blocks_per_sm;

    // 4. Shared-memory limit (cudaOccMaxBlocksPerSMSmemLimit).
    let reserved = u64::from(gpu.smem_reserved_per_block);
    let smem_total = u64::from(req.smem_per_block) + reserved;
    let smem_unit = u64::from(gpu.smem_alloc_unit.max(1));
    let alloc_smem = round_up(smem_total, smem_unit);
    // With opt-in, maxDynamicSharedSizeBytes is taken to be exactly what the launch uses, so the
    // header's `static + reserved + maxDynamic` is `smem_total`.
    let default_cap = u64::from(gpu.default_smem_per_block);
    let mut cap = if req.opt_in && smem_total > default_cap {
        u64::from(gpu.max_smem_per_block)
    } else {
        default_cap
    };
    if gpu.compute_capability.0 >= 8 {
        cap += reserved;
    }
    let smem_per_sm = u64::from(gpu.smem_per_sm);
    let preference = match req.carveout_percent {
        None => Ok(smem_per_sm),
        Some(p) if p <= 100 => Ok(u64::from(p) * smem_per_sm / 100),
        Some(p) => Err(format!("carveout {p} % is not between 0 and 100")),
    };
    let preference = preference.and_then(|bytes| {
        carveout_step(gpu, bytes).ok_or_else(|| {
            format!("carveout of {bytes} bytes exceeds the largest carveout step of this GPU")
        })
    });
    let mut smem_per_sm_effective = 0;
    let shared_limit = match preference {
        Err(reason) => {
            reasons.push(reason);
            Some(0)
        }
        Ok(_) if alloc_smem > cap => {
            let mut reason = if reserved > 0 {
                format!(
                    "{alloc_smem} bytes of shared memory per block ({} requested + {reserved} reserved, rounded up to {smem_unit}) > {cap}-byte per-block limit",
                    req.smem_per_block
                )
            } else {
                format!(
                    "{alloc_smem} bytes of shared memory per block ({} requested, rounded up to {smem_unit}) > {cap}-byte per-block limit",
                    req.smem_per_block
                )
            };
            let opt_in_cap = u64::from(gpu.max_smem_per_block)
                + if gpu.compute_capability.0 >= 8 {
                    reserved
                } else {
                    0
                };
            if !req.opt_in && alloc_smem <= opt_in_cap {
                reason.push_str(&format!(
                    " without opt-in (up to {} bytes with opt-in)",
                    gpu.max_smem_per_block
                ));
            }
            reasons.push(reason);
            Some(0)
        }
        Ok(pref) => {
            let sm_bytes = if pref >= alloc_smem {
                Ok(pref)
            } else {
                carveout_step(gpu, alloc_smem).ok_or_else(|| {
                    format!(
                        "{alloc_smem} bytes per block exceed the largest carveout step of this GPU"
                    )
                })
            };
            match sm_bytes {
                Err(reason) => {
                    reasons.push(reason);
                    Some(0)
                }
                Ok(sm_bytes) => {
                    smem_per_sm_effective = sm_bytes;
                    // 0 bytes per block: no shared-memory limit (the header's INT_MAX).
                    sm_bytes.checked_div(alloc_smem).map(to_u32)
                }
            }
        }
    };

    // 5. Barrier limit (cudaOccMaxBlocksPerSMBlockBarrierLimit), Hopper onwards.
    let barriers_limit = if gpu.compute_capability.0 >= 9 && req.barriers_per_block > 0 {
        let available = u64::from(blocks_limit) * u64::from(gpu.barrier_factor);
        let limit = available / u64::from(req.barriers_per_block);
        if limit == 0 {
            reasons.push(format!(
                "{} barriers per block > {available} barriers per SM",
                req.barriers_per_block
            ));
        }
        Some(to_u32(limit))
    } else {
        None
    };

    // 6. Combine.
    let limits = OccupancyLimits {
        warps: warps_limit,
        blocks: blocks_limit,
        registers: registers_limit,
        shared_mem: shared_limit,
        barriers: barriers_limit,
    };
    let blocks_per_sm = Limiter::ALL
        .iter()
        .filter_map(|&l| limits.get(l))
        .min()
        .unwrap_or(0);
    let limiters: Vec<Limiter> = Limiter::ALL
        .iter()
        .copied()
        .filter(|&l| limits.get(l) == Some(blocks_per_sm))
        .collect();
    let limiter = limiters.first().copied().unwrap_or(Limiter::Warps);
    let active_warps = to_u32(u64::from(blocks_per_sm) * warps_per_block);
    let occupancy = if gpu.max_warps_per_sm > 0 {
        f64::from(active_warps) / f64::from(gpu.max_warps_per_sm)
    } else {
        0.0
    };
    let cannot_launch = if blocks_per_sm == 0 {
        if reasons.is_empty() {
            Some(format!("no block fits on an SM (limited by {limiter})"))
        } else {
            Some(reasons.join("; "))
        }
    } else {
        None
    };
    Occupancy {
        blocks_per_sm,
        active_warps,
        occupancy,
        limiter,
        limiters,
        limits,
        warps_per_block: to_u32(warps_per_block),
        allocated_regs_per_block: alloc_regs,
        allocated_smem_per_block: alloc_smem,
        smem_per_sm_effective,
        cannot_launch,
    }
}

/// How a grid fills the GPU in waves of `n_sm × blocks_per_sm` blocks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Waves {
    /// Number of waves, `ceil(n_blocks / (n_sm × blocks_per_sm))`.
    pub waves: u64,
    /// Fraction of block slots the last wave uses.
    pub last_wave_utilisation: f64,
    /// `n_blocks / (waves × n_sm × blocks_per_sm)`.
    pub overall_utilisation: f64,
}

/// Waves and tail utilisation of a grid (reference `waves`): 133 blocks at 1 per SM on 132 SMs
/// take 2 waves, the second 1/132 full. All zero when no block fits or the grid is empty.
pub fn waves(gpu: &GpuConfig, n_blocks: u64, blocks_per_sm: u32) -> Waves {
    let cap = u64::from(gpu.n_sm) * u64::from(blocks_per_sm);
    if cap == 0 || n_blocks == 0 {
        return Waves {
            waves: 0,
            last_wave_utilisation: 0.0,
            overall_utilisation: 0.0,
        };
    }
    let w = n_blocks.div_ceil(cap);
    let last = n_blocks - (w - 1) * cap;
    Waves {
        waves: w,
        last_wave_utilisation: last as f64 / cap as f64,
        overall_utilisation: n_blocks as f64 / (w as f64 * cap as f64),
    }
}

/// Little's law on one SM: can the resident warps keep enough bytes in flight?
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LatencyHiding {
    /// Achievable fraction of the SM's share of DRAM bandwidth, `min(1, have / need)`.
    pub fraction: f64,
    /// Bytes that must be in flight per SM: `mem_bw / n_sm × mem_latency_s`.
    pub need_bytes: f64,
    /// Bytes in flight per SM: `active_warps × requests_in_flight_per_warp × bytes_per_warp_request`.
    pub have_bytes: f64,
}

/// Latency hiding (reference `latency_hiding`). Fraction 1 when no bytes need to be in flight.
pub fn latency_hiding(
    gpu: &GpuConfig,
    active_warps: f64,
    bytes_per_warp_request: f64,
    requests_in_flight_per_warp: f64,
) -> LatencyHiding {
    let need = gpu.mem_bw / f64::from(gpu.n_sm) * gpu.mem_latency_s;
    let have = active_warps * requests_in_flight_per_warp * bytes_per_warp_request;
    let fraction = if need > 0.0 {
        (have / need).min(1.0)
    } else {
        1.0
    };
    LatencyHiding {
        fraction,
        need_bytes: need,
        have_bytes: have,
    }
}

/// Amdahl's law: speed-up `1 / (s + (1 − s) / n)` of a fixed problem on `n` processors.
pub fn amdahl(serial_frac: f64, n: f64) -> f64 {
    1.0 / (serial_frac + (1.0 - serial_frac) / n)
}

/// Gustafson's law: scaled speed-up `s + (1 − s) × n` when the problem grows with `n`.
pub fn gustafson(serial_frac: f64, n: f64) -> f64 {
    serial_frac + (1.0 - serial_frac) * n
}

#[cfg(test)]
mod tests {
    use super::*;
    use Limiter::{Barriers as Bar, Blocks as B, Registers as R, SharedMem as S, Warps as W};

    const K: u32 = 1024;
    const N: Option<u32> = None;

    const fn s(x: u32) -> Option<u32> {
        Some(x)
    }

    /// One occupancy case: the request, then the expected blocks per SM, the limits
    /// (warps, blocks, registers, shared memory, barriers) and the limiters that tie.
    #[derive(Debug)]
    struct Row {
        threads: u32,
        regs: u32,
        smem: u32,
        carveout: Option<u32>,
        opt_in: bool,
        barriers: u32,
        blocks: u32,
        limits: (u32, u32, Option<u32>, Option<u32>, Option<u32>),
        limiters: &'static [Limiter],
    }

    #[allow(clippy::too_many_arguments)]
    const fn row(
        threads: u32,
        regs: u32,
        smem: u32,
        carveout: Option<u32>,
        opt_in: bool,
        barriers: u32,
        blocks: u32,
        limits: (u32, u32, Option<u32>, Option<u32>, Option<u32>),
        limiters: &'static [Limiter],
    ) -> Row {
        Row {
            threads,
            regs,
            smem,
            carveout,
            opt_in,
            barriers,
            blocks,
            limits,
            limiters,
        }
    }

    /// A CC 12.0 part (RTX PRO 6000 Blackwell: 188 SMs, 1,536 threads, 24 blocks,
    /// 102,400 B smem/SM, 1,024 B reserved — docs/gpu-facts.md §1.3). Only the occupancy numbers matter.
    fn cc12() -> GpuConfig {
        GpuConfig {
            name: "CC 12.0 test part".to_string(),
            compute_capability: (12, 0),
            n_sm: 188,
            max_threads_per_sm: 1536,
            max_warps_per_sm: 48,
            max_blocks_per_sm: 24,
            smem_per_sm: 100 * 1024,
            max_smem_per_block: 99 * 1024,
            smem_reserved_per_block: 1024,
            smem_alloc_unit: 128,
            carveout_steps_kb: vec![0, 8, 16, 32, 64, 100],
            barrier_factor: 1,
            ..GpuConfig::h100_sxm()
        }
    }

    fn request(r: &Row) -> OccupancyRequest {
        OccupancyRequest {
            threads_per_block: r.threads,
            regs_per_thread: r.regs,
            smem_per_block: r.smem,
            carveout_percent: r.carveout,
            opt_in: r.opt_in,
            barriers_per_block: r.barriers,
        }
    }

    fn check_family(gpu: &GpuConfig, cc: (u32, u32), rows: &[Row]) {
        assert_eq!(gpu.compute_capability, cc);
        assert_eq!(gpu.validate(), Ok(()));
        assert!(rows.len() >= 40, "{} rows", rows.len());
        for (i, r) in rows.iter().enumerate() {
            let o = occupancy(gpu, &request(r));
            let ctx = format!("CC {}.{} row {i}: {r:?}", cc.0, cc.1);
            let (w, b, reg, sm, bar) = r.limits;
            let want = OccupancyLimits {
                warps: w,
                blocks: b,
                registers: reg,
                shared_mem: sm,
                barriers: bar,
            };
            assert_eq!(o.limits, want, "{ctx}");
            assert_eq!(o.blocks_per_sm, r.blocks, "{ctx}");
            assert_eq!(o.limiters, r.limiters.to_vec(), "{ctx}");
            assert_eq!(o.limiter, r.limiters[0], "{ctx}");
            let warps = r.threads.div_ceil(32);
            assert_eq!(o.warps_per_block, warps, "{ctx}");
            assert_eq!(o.active_warps, r.blocks * warps, "{ctx}");
            let occ = f64::from(r.blocks * warps) / f64::from(gpu.max_warps_per_sm);
            assert_eq!(o.occupancy, occ, "{ctx}");
            assert_eq!(o.cannot_launch.is_some(), r.blocks == 0, "{ctx}: {o:?}");
        }
    }

    // Notation in the derivations: "thr" threads per block; W warp limit (max warps per SM /
    // warps per block); R register limit (regs×32 rounded up to 256 per warp, 16384 registers per
    // sub-partition / regs per warp, ×4 sub-partitions, / warps per block; "hw check" = regs per
    // warp × warps rounded up to 4); B block limit of the CC; S shared memory (request + reserved,
    // rounded to the allocation unit; "SM" = shared memory per SM from the carveout, "cap" = the
    // per-block limit); Bar barrier limit (blocks × factor / barriers, CC ≥ 9.0 only); "none" = no
    // limit; min = blocks per SM, [..] = every limit equal to it.
    /// CC 7.0: GpuConfig::v100().
    #[rustfmt::skip]
    const CC7_0: &[Row] = &[
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 1, 8, (8, 32, s(8), N, N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (8, 32, s(2), N, N), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 32; S: 49152+0 = 49152; SM 98304; 98304/49152 = 2; Bar: none (CC < 9); min 2 [S]
        row(128, 40, 48 * K, N, false, 1, 2, (16, 32, s(12), s(2), N), &[S]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (2, 32, s(0), N, N), &[R]),
        // 96 thr → 3 warps; W: 64/3 = 21; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [R]
        row(96, 40, 0, N, false, 1, 16, (21, 32, s(16), N, N), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [B]
        row(32, 16, 0, N, false, 1, 32, (64, 32, s(128), N, N), &[B]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [W B R]
        row(64, 32, 0, N, false, 1, 32, (32, 32, s(32), N, N), &[W, B, R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [W R]
        row(128, 32, 0, N, false, 1, 16, (16, 32, s(16), N, N), &[W, R]),
        // 192 thr → 6 warps; W: 64/6 = 10; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (10, 32, s(6), N, N), &[R]),
        // 384 thr → 12 warps; W: 64/12 = 5; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (5, 32, s(2), N, N), &[R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W R]
        row(512, 32, 0, N, false, 1, 4, (4, 32, s(4), N, N), &[W, R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (4, 32, s(2), N, N), &[R]),
        // 640 thr → 20 warps; W: 64/20 = 3; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(640, 40, 0, N, false, 1, 2, (3, 32, s(2), N, N), &[R]),
        // 768 thr → 24 warps; W: 64/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 32, s(2), N, N), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W R]
        row(1024, 32, 0, N, false, 1, 2, (2, 32, s(2), N, N), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [R]
        row(1024, 64, 0, N, false, 1, 1, (2, 32, s(1), N, N), &[R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 0 regs → none; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W]
        row(1024, 0, 0, N, false, 1, 2, (2, 32, N, N, N), &[W]),
        // 33 thr → 2 warps; W: 64/2 = 32; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [W B]
        row(33, 24, 0, N, false, 1, 32, (32, 32, s(42), N, N), &[W, B]),
        // 1 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [B]
        row(1, 0, 0, N, false, 1, 32, (64, 32, N, N, N), &[B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (16, 32, s(2), N, N), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (64, 32, s(8), N, N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 256 > 255 regs/thread → 0; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (8, 32, s(0), N, N), &[R]),
        // 800 thr → 25 warps; W: 64/25 = 2; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (2, 32, s(0), N, N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (8, 32, s(3), N, N), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (16, 32, s(3), N, N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 32; S: 16384+0 = 16384; SM 98304; 98304/16384 = 6; Bar: none (CC < 9); min 6 [R S]
        row(256, 40, 16 * K, N, false, 1, 6, (8, 32, s(6), s(6), N), &[R, S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 32768+0 = 32768; SM 98304; 98304/32768 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 32, 32 * K, N, false, 1, 3, (16, 32, s(16), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4000+0 → 4096; SM 98304; 98304/4096 = 24; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 4000, N, false, 1, 8, (8, 32, s(8), s(24), N), &[W, R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 32; S: 1000+0 → 1024; SM 98304; 98304/1024 = 96; Bar: none (CC < 9); min 32 [W B]
        row(64, 16, 1000, N, false, 1, 32, (32, 32, s(64), s(96), N), &[W, B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 32; S: 8192+0 = 8192; SM 98304; 98304/8192 = 12; Bar: none (CC < 9); min 12 [S]
        row(128, 24, 8 * K, N, false, 1, 12, (16, 32, s(21), s(12), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 49152+0 = 49152; SM 98304; 98304/49152 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 48 * K, N, false, 1, 2, (8, 32, s(8), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+0 = 65536 > cap 49152 → 0; Bar: none (CC < 9); min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (8, 32, s(8), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+0 = 65536; SM 98304; 98304/65536 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 64 * K, N, true, 1, 1, (8, 32, s(8), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 98304+0 = 98304; SM 98304; 98304/98304 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (16, 32, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 102400+0 = 102400 > cap 98304 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (16, 32, s(16), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, s(0), false, 1, 8, (8, 32, s(8), N, N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4096+0 = 4096; 0% = 0 → step 0 < 4096 → step 8192; 8192/4096 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 4 * K, s(0), false, 1, 2, (8, 32, s(8), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 8192+0 = 8192; 25% = 24576 → step 32768; 32768/8192 = 4; Bar: none (CC < 9); min 4 [S]
        row(256, 32, 8 * K, s(25), false, 1, 4, (8, 32, s(8), s(4), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 16384+0 = 16384; 50% = 49152 → step 65536; 65536/16384 = 4; Bar: none (CC < 9); min 4 [S]
        row(128, 32, 16 * K, s(50), false, 1, 4, (16, 32, s(16), s(4), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, s(100), false, 1, 8, (8, 32, s(8), N, N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 20480+0 = 20480; 10% = 9830 → step 16384 < 20480 → step 32768; 32768/20480 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (8, 32, s(8), s(1), N), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 32, s(1), N, N), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 0, 8, (8, 32, s(8), N, N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 3, 8, (8, 32, s(8), N, N), &[W, R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [B]
        row(32, 32, 0, N, false, 2, 32, (64, 32, s(64), N, N), &[B]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [R]
        row(1024, 48, 0, N, false, 1, 1, (2, 32, s(1), N, N), &[R]),
        // 160 thr → 5 warps; W: 64/5 = 12; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (12, 32, s(7), N, N), &[R]),
        // 224 thr → 7 warps; W: 64/7 = 9; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 32; S: 2048+0 = 2048; SM 98304; 98304/2048 = 48; Bar: none (CC < 9); min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (9, 32, s(2), s(48), N), &[R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 0 regs → none; B: 32; S: 0+0 = 0; none; Bar: none (CC < 9); min 32 [W B]
        row(64, 0, 0, N, false, 1, 32, (32, 32, N, N, N), &[W, B]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 48128+0 = 48128; SM 98304; 98304/48128 = 2; Bar: none (CC < 9); min 2 [S]
        row(32, 0, 47 * K, N, false, 1, 2, (64, 32, N, s(2), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 98304+0 = 98304; SM 98304; 98304/98304 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (16, 32, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 1+0 → 256; 0% = 0 → step 0 < 256 → step 8192; 8192/256 = 32; Bar: none (CC < 9); min 16 [W R]
        row(128, 32, 1, s(0), false, 1, 16, (16, 32, s(16), s(32), N), &[W, R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 9216+0 = 9216; 10% = 9830 → step 16384; 16384/9216 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 9 * K, s(10), false, 1, 1, (16, 32, s(16), s(1), N), &[S]),
    ];

    /// CC 7.5: GpuConfig::t4().
    #[rustfmt::skip]
    const CC7_5: &[Row] = &[
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 0, N, false, 1, 4, (4, 16, s(8), N, N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (4, 16, s(2), N, N), &[R]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 16; S: 49152+0 = 49152; SM 65536; 65536/49152 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 40, 48 * K, N, false, 1, 1, (8, 16, s(12), s(1), N), &[S]),
        // 1024 thr → 32 warps; W: 32/32 = 1; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (1, 16, s(0), N, N), &[R]),
        // 96 thr → 3 warps; W: 32/3 = 10; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 10 [W]
        row(96, 40, 0, N, false, 1, 10, (10, 16, s(16), N, N), &[W]),
        // 32 thr → 1 warps; W: 32/1 = 32; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [B]
        row(32, 16, 0, N, false, 1, 16, (32, 16, s(128), N, N), &[B]),
        // 64 thr → 2 warps; W: 32/2 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [W B]
        row(64, 32, 0, N, false, 1, 16, (16, 16, s(32), N, N), &[W, B]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W]
        row(128, 32, 0, N, false, 1, 8, (8, 16, s(16), N, N), &[W]),
        // 192 thr → 6 warps; W: 32/6 = 5; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 5 [W]
        row(192, 48, 0, N, false, 1, 5, (5, 16, s(6), N, N), &[W]),
        // 384 thr → 12 warps; W: 32/12 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W R]
        row(384, 64, 0, N, false, 1, 2, (2, 16, s(2), N, N), &[W, R]),
        // 512 thr → 16 warps; W: 32/16 = 2; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W]
        row(512, 32, 0, N, false, 1, 2, (2, 16, s(4), N, N), &[W]),
        // 512 thr → 16 warps; W: 32/16 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [W R]
        row(512, 64, 0, N, false, 1, 2, (2, 16, s(2), N, N), &[W, R]),
        // 640 thr → 20 warps; W: 32/20 = 1; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W]
        row(640, 40, 0, N, false, 1, 1, (1, 16, s(2), N, N), &[W]),
        // 768 thr → 24 warps; W: 32/24 = 1; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W]
        row(768, 40, 0, N, false, 1, 1, (1, 16, s(2), N, N), &[W]),
        // 1024 thr → 32 warps; W: 32/32 = 1; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W]
        row(1024, 32, 0, N, false, 1, 1, (1, 16, s(2), N, N), &[W]),
        // 1024 thr → 32 warps; W: 32/32 = 1; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W R]
        row(1024, 64, 0, N, false, 1, 1, (1, 16, s(1), N, N), &[W, R]),
        // 1024 thr → 32 warps; W: 32/32 = 1; R: 0 regs → none; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W]
        row(1024, 0, 0, N, false, 1, 1, (1, 16, N, N, N), &[W]),
        // 33 thr → 2 warps; W: 32/2 = 16; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [W B]
        row(33, 24, 0, N, false, 1, 16, (16, 16, s(42), N, N), &[W, B]),
        // 1 thr → 1 warps; W: 32/1 = 32; R: 0 regs → none; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [B]
        row(1, 0, 0, N, false, 1, 16, (32, 16, N, N, N), &[B]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (8, 16, s(2), N, N), &[R]),
        // 32 thr → 1 warps; W: 32/1 = 32; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (32, 16, s(8), N, N), &[R]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 256 > 255 regs/thread → 0; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (4, 16, s(0), N, N), &[R]),
        // 800 thr → 25 warps; W: 32/25 = 1; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (1, 16, s(0), N, N), &[R]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (4, 16, s(3), N, N), &[R]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (8, 16, s(3), N, N), &[R]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 16; S: 16384+0 = 16384; SM 65536; 65536/16384 = 4; Bar: none (CC < 9); min 4 [W S]
        row(256, 40, 16 * K, N, false, 1, 4, (4, 16, s(6), s(4), N), &[W, S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 32768+0 = 32768; SM 65536; 65536/32768 = 2; Bar: none (CC < 9); min 2 [S]
        row(128, 32, 32 * K, N, false, 1, 2, (8, 16, s(16), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 4000+0 → 4096; SM 65536; 65536/4096 = 16; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 4000, N, false, 1, 4, (4, 16, s(8), s(16), N), &[W]),
        // 64 thr → 2 warps; W: 32/2 = 16; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 16; S: 1000+0 → 1024; SM 65536; 65536/1024 = 64; Bar: none (CC < 9); min 16 [W B]
        row(64, 16, 1000, N, false, 1, 16, (16, 16, s(64), s(64), N), &[W, B]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 16; S: 8192+0 = 8192; SM 65536; 65536/8192 = 8; Bar: none (CC < 9); min 8 [W S]
        row(128, 24, 8 * K, N, false, 1, 8, (8, 16, s(21), s(8), N), &[W, S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 49152+0 = 49152; SM 65536; 65536/49152 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 48 * K, N, false, 1, 1, (4, 16, s(8), s(1), N), &[S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 65536+0 = 65536 > cap 49152 → 0; Bar: none (CC < 9); min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (4, 16, s(8), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 65536+0 = 65536; SM 65536; 65536/65536 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 64 * K, N, true, 1, 1, (4, 16, s(8), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 98304+0 = 98304 > cap 65536 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 96 * K, N, true, 1, 0, (8, 16, s(16), s(0), N), &[S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 102400+0 = 102400 > cap 65536 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (8, 16, s(16), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 0, s(0), false, 1, 4, (4, 16, s(8), N, N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 4096+0 = 4096; 0% = 0 → step 32768; 32768/4096 = 8; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 4 * K, s(0), false, 1, 4, (4, 16, s(8), s(8), N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 8192+0 = 8192; 25% = 16384 → step 32768; 32768/8192 = 4; Bar: none (CC < 9); min 4 [W S]
        row(256, 32, 8 * K, s(25), false, 1, 4, (4, 16, s(8), s(4), N), &[W, S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 16384+0 = 16384; 50% = 32768 → step 32768; 32768/16384 = 2; Bar: none (CC < 9); min 2 [S]
        row(128, 32, 16 * K, s(50), false, 1, 2, (8, 16, s(16), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 0, s(100), false, 1, 4, (4, 16, s(8), N, N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 20480+0 = 20480; 10% = 6553 → step 32768; 32768/20480 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (4, 16, s(8), s(1), N), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 16, s(1), N, N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 0, N, false, 0, 4, (4, 16, s(8), N, N), &[W]),
        // 256 thr → 8 warps; W: 32/8 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 4 [W]
        row(256, 32, 0, N, false, 3, 4, (4, 16, s(8), N, N), &[W]),
        // 32 thr → 1 warps; W: 32/1 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [B]
        row(32, 32, 0, N, false, 2, 16, (32, 16, s(64), N, N), &[B]),
        // 1024 thr → 32 warps; W: 32/32 = 1; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 1 [W R]
        row(1024, 48, 0, N, false, 1, 1, (1, 16, s(1), N, N), &[W, R]),
        // 160 thr → 5 warps; W: 32/5 = 6; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 6 [W]
        row(160, 56, 0, N, false, 1, 6, (6, 16, s(7), N, N), &[W]),
        // 224 thr → 7 warps; W: 32/7 = 4; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 16; S: 2048+0 = 2048; SM 65536; 65536/2048 = 32; Bar: none (CC < 9); min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (4, 16, s(2), s(32), N), &[R]),
        // 64 thr → 2 warps; W: 32/2 = 16; R: 0 regs → none; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 16 [W B]
        row(64, 0, 0, N, false, 1, 16, (16, 16, N, N, N), &[W, B]),
        // 32 thr → 1 warps; W: 32/1 = 32; R: 0 regs → none; B: 16; S: 48128+0 = 48128; SM 65536; 65536/48128 = 1; Bar: none (CC < 9); min 1 [S]
        row(32, 0, 47 * K, N, false, 1, 1, (32, 16, N, s(1), N), &[S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 0+0 = 0; none; Bar: none (CC < 9); min 8 [W]
        row(128, 32, 0, s(0), false, 1, 8, (8, 16, s(16), N, N), &[W]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 33792+0 = 33792; SM 65536; 65536/33792 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 33 * K, N, true, 1, 1, (8, 16, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 32/4 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 40960+0 = 40960; 50% = 32768 → step 32768 < 40960 → step 65536; 65536/40960 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 40 * K, s(50), true, 1, 1, (8, 16, s(16), s(1), N), &[S]),
    ];

    /// CC 8.0: GpuConfig::a100_sxm().
    #[rustfmt::skip]
    const CC8_0: &[Row] = &[
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 1, 8, (8, 32, s(8), s(164), N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (8, 32, s(2), s(164), N), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 32; S: 49152+1024 = 50176; SM 167936; 167936/50176 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 40, 48 * K, N, false, 1, 3, (16, 32, s(12), s(3), N), &[S]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (2, 32, s(0), s(164), N), &[R]),
        // 96 thr → 3 warps; W: 64/3 = 21; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 16 [R]
        row(96, 40, 0, N, false, 1, 16, (21, 32, s(16), s(164), N), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [B]
        row(32, 16, 0, N, false, 1, 32, (64, 32, s(128), s(164), N), &[B]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [W B R]
        row(64, 32, 0, N, false, 1, 32, (32, 32, s(32), s(164), N), &[W, B, R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 16 [W R]
        row(128, 32, 0, N, false, 1, 16, (16, 32, s(16), s(164), N), &[W, R]),
        // 192 thr → 6 warps; W: 64/6 = 10; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (10, 32, s(6), s(164), N), &[R]),
        // 384 thr → 12 warps; W: 64/12 = 5; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (5, 32, s(2), s(164), N), &[R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 4 [W R]
        row(512, 32, 0, N, false, 1, 4, (4, 32, s(4), s(164), N), &[W, R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (4, 32, s(2), s(164), N), &[R]),
        // 640 thr → 20 warps; W: 64/20 = 3; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [R]
        row(640, 40, 0, N, false, 1, 2, (3, 32, s(2), s(164), N), &[R]),
        // 768 thr → 24 warps; W: 64/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 32, s(2), s(164), N), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [W R]
        row(1024, 32, 0, N, false, 1, 2, (2, 32, s(2), s(164), N), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 1 [R]
        row(1024, 64, 0, N, false, 1, 1, (2, 32, s(1), s(164), N), &[R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [W]
        row(1024, 0, 0, N, false, 1, 2, (2, 32, N, s(164), N), &[W]),
        // 33 thr → 2 warps; W: 64/2 = 32; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [W B]
        row(33, 24, 0, N, false, 1, 32, (32, 32, s(42), s(164), N), &[W, B]),
        // 1 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [B]
        row(1, 0, 0, N, false, 1, 32, (64, 32, N, s(164), N), &[B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (16, 32, s(2), s(164), N), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (64, 32, s(8), s(164), N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 256 > 255 regs/thread → 0; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (8, 32, s(0), s(164), N), &[R]),
        // 800 thr → 25 warps; W: 64/25 = 2; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (2, 32, s(0), s(164), N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (8, 32, s(3), s(164), N), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (16, 32, s(3), s(164), N), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 32; S: 16384+1024 = 17408; SM 167936; 167936/17408 = 9; Bar: none (CC < 9); min 6 [R]
        row(256, 40, 16 * K, N, false, 1, 6, (8, 32, s(6), s(9), N), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 32768+1024 = 33792; SM 167936; 167936/33792 = 4; Bar: none (CC < 9); min 4 [S]
        row(128, 32, 32 * K, N, false, 1, 4, (16, 32, s(16), s(4), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4000+1024 → 5120; SM 167936; 167936/5120 = 32; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 4000, N, false, 1, 8, (8, 32, s(8), s(32), N), &[W, R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 32; S: 1000+1024 → 2048; SM 167936; 167936/2048 = 82; Bar: none (CC < 9); min 32 [W B]
        row(64, 16, 1000, N, false, 1, 32, (32, 32, s(64), s(82), N), &[W, B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 32; S: 8192+1024 = 9216; SM 167936; 167936/9216 = 18; Bar: none (CC < 9); min 16 [W]
        row(128, 24, 8 * K, N, false, 1, 16, (16, 32, s(21), s(18), N), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 49152+1024 = 50176; SM 167936; 167936/50176 = 3; Bar: none (CC < 9); min 3 [S]
        row(256, 32, 48 * K, N, false, 1, 3, (8, 32, s(8), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: none (CC < 9); min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (8, 32, s(8), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560; SM 167936; 167936/66560 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 64 * K, N, true, 1, 2, (8, 32, s(8), s(2), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 98304+1024 = 99328; SM 167936; 167936/99328 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (16, 32, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 102400+1024 = 103424; SM 167936; 167936/103424 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 100 * K, N, true, 1, 1, (16, 32, s(16), s(1), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: none (CC < 9); min 8 [W R S]
        row(256, 32, 0, s(0), false, 1, 8, (8, 32, s(8), s(8), N), &[W, R, S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (8, 32, s(8), s(1), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 8192+1024 = 9216; 25% = 41984 → step 65536; 65536/9216 = 7; Bar: none (CC < 9); min 7 [S]
        row(256, 32, 8 * K, s(25), false, 1, 7, (8, 32, s(8), s(7), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 16384+1024 = 17408; 50% = 83968 → step 102400; 102400/17408 = 5; Bar: none (CC < 9); min 5 [S]
        row(128, 32, 16 * K, s(50), false, 1, 5, (16, 32, s(16), s(5), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 100% = 167936 → step 167936; 167936/1024 = 164; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, s(100), false, 1, 8, (8, 32, s(8), s(164), N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 20480+1024 = 21504; 10% = 16793 → step 32768; 32768/21504 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (8, 32, s(8), s(1), N), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 32, s(1), s(164), N), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 0, 8, (8, 32, s(8), s(164), N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 8 [W R]
        row(256, 32, 0, N, false, 3, 8, (8, 32, s(8), s(164), N), &[W, R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [B]
        row(32, 32, 0, N, false, 2, 32, (64, 32, s(64), s(164), N), &[B]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 1 [R]
        row(1024, 48, 0, N, false, 1, 1, (2, 32, s(1), s(164), N), &[R]),
        // 160 thr → 5 warps; W: 64/5 = 12; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (12, 32, s(7), s(164), N), &[R]),
        // 224 thr → 7 warps; W: 64/7 = 9; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 32; S: 2048+1024 = 3072; SM 167936; 167936/3072 = 54; Bar: none (CC < 9); min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (9, 32, s(2), s(54), N), &[R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 167936; 167936/1024 = 164; Bar: none (CC < 9); min 32 [W B]
        row(64, 0, 0, N, false, 1, 32, (32, 32, N, s(164), N), &[W, B]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 48128+1024 = 49152; SM 167936; 167936/49152 = 3; Bar: none (CC < 9); min 3 [S]
        row(32, 0, 47 * K, N, false, 1, 3, (64, 32, N, s(3), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 166912+1024 = 167936; SM 167936; 167936/167936 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 163 * K, N, true, 1, 1, (16, 32, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 167936+1024 = 168960 > cap 167936 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 164 * K, N, true, 1, 0, (16, 32, s(16), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 40960+1024 = 41984; 60% = 100761 → step 102400; 102400/41984 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 40 * K, s(60), false, 1, 2, (8, 32, s(8), s(2), N), &[S]),
    ];

    /// CC 8.6: GpuConfig::rtx3090().
    #[rustfmt::skip]
    const CC8_6: &[Row] = &[
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 1, 6, (6, 16, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (6, 16, s(2), s(100), N), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 16; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: none (CC < 9); min 2 [S]
        row(128, 40, 48 * K, N, false, 1, 2, (12, 16, s(12), s(2), N), &[S]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (1, 16, s(0), s(100), N), &[R]),
        // 96 thr → 3 warps; W: 48/3 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [W B R]
        row(96, 40, 0, N, false, 1, 16, (16, 16, s(16), s(100), N), &[W, B, R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(32, 16, 0, N, false, 1, 16, (48, 16, s(128), s(100), N), &[B]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(64, 32, 0, N, false, 1, 16, (24, 16, s(32), s(100), N), &[B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 12 [W]
        row(128, 32, 0, N, false, 1, 12, (12, 16, s(16), s(100), N), &[W]),
        // 192 thr → 6 warps; W: 48/6 = 8; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (8, 16, s(6), s(100), N), &[R]),
        // 384 thr → 12 warps; W: 48/12 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (4, 16, s(2), s(100), N), &[R]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [W]
        row(512, 32, 0, N, false, 1, 3, (3, 16, s(4), s(100), N), &[W]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (3, 16, s(2), s(100), N), &[R]),
        // 640 thr → 20 warps; W: 48/20 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [W R]
        row(640, 40, 0, N, false, 1, 2, (2, 16, s(2), s(100), N), &[W, R]),
        // 768 thr → 24 warps; W: 48/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 16, s(2), s(100), N), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W]
        row(1024, 32, 0, N, false, 1, 1, (1, 16, s(2), s(100), N), &[W]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W R]
        row(1024, 64, 0, N, false, 1, 1, (1, 16, s(1), s(100), N), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 0 regs → none; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W]
        row(1024, 0, 0, N, false, 1, 1, (1, 16, N, s(100), N), &[W]),
        // 33 thr → 2 warps; W: 48/2 = 24; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(33, 24, 0, N, false, 1, 16, (24, 16, s(42), s(100), N), &[B]),
        // 1 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(1, 0, 0, N, false, 1, 16, (48, 16, N, s(100), N), &[B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (12, 16, s(2), s(100), N), &[R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (48, 16, s(8), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 256 > 255 regs/thread → 0; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (6, 16, s(0), s(100), N), &[R]),
        // 800 thr → 25 warps; W: 48/25 = 1; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (1, 16, s(0), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (6, 16, s(3), s(100), N), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (12, 16, s(3), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 16; S: 16384+1024 = 17408; SM 102400; 102400/17408 = 5; Bar: none (CC < 9); min 5 [S]
        row(256, 40, 16 * K, N, false, 1, 5, (6, 16, s(6), s(5), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 32768+1024 = 33792; SM 102400; 102400/33792 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 32, 32 * K, N, false, 1, 3, (12, 16, s(16), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 4000+1024 → 5120; SM 102400; 102400/5120 = 20; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 4000, N, false, 1, 6, (6, 16, s(8), s(20), N), &[W]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 16; S: 1000+1024 → 2048; SM 102400; 102400/2048 = 50; Bar: none (CC < 9); min 16 [B]
        row(64, 16, 1000, N, false, 1, 16, (24, 16, s(64), s(50), N), &[B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 16; S: 8192+1024 = 9216; SM 102400; 102400/9216 = 11; Bar: none (CC < 9); min 11 [S]
        row(128, 24, 8 * K, N, false, 1, 11, (12, 16, s(21), s(11), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 48 * K, N, false, 1, 2, (6, 16, s(8), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: none (CC < 9); min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (6, 16, s(8), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 65536+1024 = 66560; SM 102400; 102400/66560 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 64 * K, N, true, 1, 1, (6, 16, s(8), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 98304+1024 = 99328; SM 102400; 102400/99328 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (12, 16, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 102400+1024 = 103424 > cap 102400 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (12, 16, s(16), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, s(0), false, 1, 6, (6, 16, s(8), s(8), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (6, 16, s(8), s(1), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 8192+1024 = 9216; 25% = 25600 → step 32768; 32768/9216 = 3; Bar: none (CC < 9); min 3 [S]
        row(256, 32, 8 * K, s(25), false, 1, 3, (6, 16, s(8), s(3), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 16384+1024 = 17408; 50% = 51200 → step 65536; 65536/17408 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 32, 16 * K, s(50), false, 1, 3, (12, 16, s(16), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+1024 = 1024; 100% = 102400 → step 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, s(100), false, 1, 6, (6, 16, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 20480+1024 = 21504; 10% = 10240 → step 16384 < 21504 → step 32768; 32768/21504 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (6, 16, s(8), s(1), N), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 16, s(1), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 0, 6, (6, 16, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 3, 6, (6, 16, s(8), s(100), N), &[W]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(32, 32, 0, N, false, 2, 16, (48, 16, s(64), s(100), N), &[B]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W R]
        row(1024, 48, 0, N, false, 1, 1, (1, 16, s(1), s(100), N), &[W, R]),
        // 160 thr → 5 warps; W: 48/5 = 9; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (9, 16, s(7), s(100), N), &[R]),
        // 224 thr → 7 warps; W: 48/7 = 6; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 16; S: 2048+1024 = 3072; SM 102400; 102400/3072 = 33; Bar: none (CC < 9); min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (6, 16, s(2), s(33), N), &[R]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 0 regs → none; B: 16; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [B]
        row(64, 0, 0, N, false, 1, 16, (24, 16, N, s(100), N), &[B]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 16; S: 48128+1024 = 49152; SM 102400; 102400/49152 = 2; Bar: none (CC < 9); min 2 [S]
        row(32, 0, 47 * K, N, false, 1, 2, (48, 16, N, s(2), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 101376+1024 = 102400; SM 102400; 102400/102400 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 99 * K, N, true, 1, 1, (12, 16, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 16; S: 102400+1024 = 103424 > cap 102400 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (12, 16, s(16), s(0), N), &[S]),
    ];

    /// CC 8.9: GpuConfig::l4().
    #[rustfmt::skip]
    const CC8_9: &[Row] = &[
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 1, 6, (6, 24, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (6, 24, s(2), s(100), N), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 24; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: none (CC < 9); min 2 [S]
        row(128, 40, 48 * K, N, false, 1, 2, (12, 24, s(12), s(2), N), &[S]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (1, 24, s(0), s(100), N), &[R]),
        // 96 thr → 3 warps; W: 48/3 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 16 [W R]
        row(96, 40, 0, N, false, 1, 16, (16, 24, s(16), s(100), N), &[W, R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [B]
        row(32, 16, 0, N, false, 1, 24, (48, 24, s(128), s(100), N), &[B]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [W B]
        row(64, 32, 0, N, false, 1, 24, (24, 24, s(32), s(100), N), &[W, B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 12 [W]
        row(128, 32, 0, N, false, 1, 12, (12, 24, s(16), s(100), N), &[W]),
        // 192 thr → 6 warps; W: 48/6 = 8; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (8, 24, s(6), s(100), N), &[R]),
        // 384 thr → 12 warps; W: 48/12 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (4, 24, s(2), s(100), N), &[R]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [W]
        row(512, 32, 0, N, false, 1, 3, (3, 24, s(4), s(100), N), &[W]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (3, 24, s(2), s(100), N), &[R]),
        // 640 thr → 20 warps; W: 48/20 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [W R]
        row(640, 40, 0, N, false, 1, 2, (2, 24, s(2), s(100), N), &[W, R]),
        // 768 thr → 24 warps; W: 48/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 24, s(2), s(100), N), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W]
        row(1024, 32, 0, N, false, 1, 1, (1, 24, s(2), s(100), N), &[W]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W R]
        row(1024, 64, 0, N, false, 1, 1, (1, 24, s(1), s(100), N), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W]
        row(1024, 0, 0, N, false, 1, 1, (1, 24, N, s(100), N), &[W]),
        // 33 thr → 2 warps; W: 48/2 = 24; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [W B]
        row(33, 24, 0, N, false, 1, 24, (24, 24, s(42), s(100), N), &[W, B]),
        // 1 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [B]
        row(1, 0, 0, N, false, 1, 24, (48, 24, N, s(100), N), &[B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (12, 24, s(2), s(100), N), &[R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (48, 24, s(8), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 256 > 255 regs/thread → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (6, 24, s(0), s(100), N), &[R]),
        // 800 thr → 25 warps; W: 48/25 = 1; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (1, 24, s(0), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (6, 24, s(3), s(100), N), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (12, 24, s(3), s(100), N), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 24; S: 16384+1024 = 17408; SM 102400; 102400/17408 = 5; Bar: none (CC < 9); min 5 [S]
        row(256, 40, 16 * K, N, false, 1, 5, (6, 24, s(6), s(5), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 32768+1024 = 33792; SM 102400; 102400/33792 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 32, 32 * K, N, false, 1, 3, (12, 24, s(16), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 4000+1024 → 5120; SM 102400; 102400/5120 = 20; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 4000, N, false, 1, 6, (6, 24, s(8), s(20), N), &[W]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 24; S: 1000+1024 → 2048; SM 102400; 102400/2048 = 50; Bar: none (CC < 9); min 24 [W B]
        row(64, 16, 1000, N, false, 1, 24, (24, 24, s(64), s(50), N), &[W, B]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 24; S: 8192+1024 = 9216; SM 102400; 102400/9216 = 11; Bar: none (CC < 9); min 11 [S]
        row(128, 24, 8 * K, N, false, 1, 11, (12, 24, s(21), s(11), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: none (CC < 9); min 2 [S]
        row(256, 32, 48 * K, N, false, 1, 2, (6, 24, s(8), s(2), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: none (CC < 9); min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (6, 24, s(8), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 65536+1024 = 66560; SM 102400; 102400/66560 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 64 * K, N, true, 1, 1, (6, 24, s(8), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 98304+1024 = 99328; SM 102400; 102400/99328 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (12, 24, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 102400+1024 = 103424 > cap 102400 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (12, 24, s(16), s(0), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, s(0), false, 1, 6, (6, 24, s(8), s(8), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (6, 24, s(8), s(1), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 8192+1024 = 9216; 25% = 25600 → step 32768; 32768/9216 = 3; Bar: none (CC < 9); min 3 [S]
        row(256, 32, 8 * K, s(25), false, 1, 3, (6, 24, s(8), s(3), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 16384+1024 = 17408; 50% = 51200 → step 65536; 65536/17408 = 3; Bar: none (CC < 9); min 3 [S]
        row(128, 32, 16 * K, s(50), false, 1, 3, (12, 24, s(16), s(3), N), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; 100% = 102400 → step 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, s(100), false, 1, 6, (6, 24, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 20480+1024 = 21504; 10% = 10240 → step 16384 < 21504 → step 32768; 32768/21504 = 1; Bar: none (CC < 9); min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (6, 24, s(8), s(1), N), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 24, s(1), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 0, 6, (6, 24, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 6 [W]
        row(256, 32, 0, N, false, 3, 6, (6, 24, s(8), s(100), N), &[W]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [B]
        row(32, 32, 0, N, false, 2, 24, (48, 24, s(64), s(100), N), &[B]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 1 [W R]
        row(1024, 48, 0, N, false, 1, 1, (1, 24, s(1), s(100), N), &[W, R]),
        // 160 thr → 5 warps; W: 48/5 = 9; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (9, 24, s(7), s(100), N), &[R]),
        // 224 thr → 7 warps; W: 48/7 = 6; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 24; S: 2048+1024 = 3072; SM 102400; 102400/3072 = 33; Bar: none (CC < 9); min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (6, 24, s(2), s(33), N), &[R]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (CC < 9); min 24 [W B]
        row(64, 0, 0, N, false, 1, 24, (24, 24, N, s(100), N), &[W, B]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 24; S: 48128+1024 = 49152; SM 102400; 102400/49152 = 2; Bar: none (CC < 9); min 2 [S]
        row(32, 0, 47 * K, N, false, 1, 2, (48, 24, N, s(2), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 101376+1024 = 102400; SM 102400; 102400/102400 = 1; Bar: none (CC < 9); min 1 [S]
        row(128, 32, 99 * K, N, true, 1, 1, (12, 24, s(16), s(1), N), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 102400+1024 = 103424 > cap 102400 → 0; Bar: none (CC < 9); min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (12, 24, s(16), s(0), N), &[S]),
    ];

    /// CC 9.0: GpuConfig::h100_sxm().
    #[rustfmt::skip]
    const CC9_0: &[Row] = &[
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 0, N, false, 1, 8, (8, 32, s(8), s(228), s(64)), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (8, 32, s(2), s(228), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 32; S: 49152+1024 = 50176; SM 233472; 233472/50176 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(128, 40, 48 * K, N, false, 1, 4, (16, 32, s(12), s(4), s(64)), &[S]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (2, 32, s(0), s(228), s(64)), &[R]),
        // 96 thr → 3 warps; W: 64/3 = 21; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 16 [R]
        row(96, 40, 0, N, false, 1, 16, (21, 32, s(16), s(228), s(64)), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [B]
        row(32, 16, 0, N, false, 1, 32, (64, 32, s(128), s(228), s(64)), &[B]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B R]
        row(64, 32, 0, N, false, 1, 32, (32, 32, s(32), s(228), s(64)), &[W, B, R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 16 [W R]
        row(128, 32, 0, N, false, 1, 16, (16, 32, s(16), s(228), s(64)), &[W, R]),
        // 192 thr → 6 warps; W: 64/6 = 10; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (10, 32, s(6), s(228), s(64)), &[R]),
        // 384 thr → 12 warps; W: 64/12 = 5; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (5, 32, s(2), s(228), s(64)), &[R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 4 [W R]
        row(512, 32, 0, N, false, 1, 4, (4, 32, s(4), s(228), s(64)), &[W, R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (4, 32, s(2), s(228), s(64)), &[R]),
        // 640 thr → 20 warps; W: 64/20 = 3; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(640, 40, 0, N, false, 1, 2, (3, 32, s(2), s(228), s(64)), &[R]),
        // 768 thr → 24 warps; W: 64/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 32, s(2), s(228), s(64)), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W R]
        row(1024, 32, 0, N, false, 1, 2, (2, 32, s(2), s(228), s(64)), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 1 [R]
        row(1024, 64, 0, N, false, 1, 1, (2, 32, s(1), s(228), s(64)), &[R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W]
        row(1024, 0, 0, N, false, 1, 2, (2, 32, N, s(228), s(64)), &[W]),
        // 33 thr → 2 warps; W: 64/2 = 32; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B]
        row(33, 24, 0, N, false, 1, 32, (32, 32, s(42), s(228), s(64)), &[W, B]),
        // 1 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [B]
        row(1, 0, 0, N, false, 1, 32, (64, 32, N, s(228), s(64)), &[B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (16, 32, s(2), s(228), s(64)), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (64, 32, s(8), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 256 > 255 regs/thread → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (8, 32, s(0), s(228), s(64)), &[R]),
        // 800 thr → 25 warps; W: 64/25 = 2; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (2, 32, s(0), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (8, 32, s(3), s(228), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (16, 32, s(3), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 32; S: 16384+1024 = 17408; SM 233472; 233472/17408 = 13; Bar: 32×2/1 = 64; min 6 [R]
        row(256, 40, 16 * K, N, false, 1, 6, (8, 32, s(6), s(13), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 32768+1024 = 33792; SM 233472; 233472/33792 = 6; Bar: 32×2/1 = 64; min 6 [S]
        row(128, 32, 32 * K, N, false, 1, 6, (16, 32, s(16), s(6), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4000+1024 → 5120; SM 233472; 233472/5120 = 45; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 4000, N, false, 1, 8, (8, 32, s(8), s(45), s(64)), &[W, R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 32; S: 1000+1024 → 2048; SM 233472; 233472/2048 = 114; Bar: 32×2/1 = 64; min 32 [W B]
        row(64, 16, 1000, N, false, 1, 32, (32, 32, s(64), s(114), s(64)), &[W, B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 32; S: 8192+1024 = 9216; SM 233472; 233472/9216 = 25; Bar: 32×2/1 = 64; min 16 [W]
        row(128, 24, 8 * K, N, false, 1, 16, (16, 32, s(21), s(25), s(64)), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 49152+1024 = 50176; SM 233472; 233472/50176 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(256, 32, 48 * K, N, false, 1, 4, (8, 32, s(8), s(4), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: 32×2/1 = 64; min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (8, 32, s(8), s(0), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560; SM 233472; 233472/66560 = 3; Bar: 32×2/1 = 64; min 3 [S]
        row(256, 32, 64 * K, N, true, 1, 3, (8, 32, s(8), s(3), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 98304+1024 = 99328; SM 233472; 233472/99328 = 2; Bar: 32×2/1 = 64; min 2 [S]
        row(128, 32, 96 * K, N, true, 1, 2, (16, 32, s(16), s(2), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 102400+1024 = 103424; SM 233472; 233472/103424 = 2; Bar: 32×2/1 = 64; min 2 [S]
        row(128, 32, 100 * K, N, true, 1, 2, (16, 32, s(16), s(2), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: 32×2/1 = 64; min 8 [W R S]
        row(256, 32, 0, s(0), false, 1, 8, (8, 32, s(8), s(8), s(64)), &[W, R, S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (8, 32, s(8), s(1), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 8192+1024 = 9216; 25% = 58368 → step 65536; 65536/9216 = 7; Bar: 32×2/1 = 64; min 7 [S]
        row(256, 32, 8 * K, s(25), false, 1, 7, (8, 32, s(8), s(7), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 16384+1024 = 17408; 50% = 116736 → step 135168; 135168/17408 = 7; Bar: 32×2/1 = 64; min 7 [S]
        row(128, 32, 16 * K, s(50), false, 1, 7, (16, 32, s(16), s(7), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 100% = 233472 → step 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 0, s(100), false, 1, 8, (8, 32, s(8), s(228), s(64)), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 20480+1024 = 21504; 10% = 23347 → step 32768; 32768/21504 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (8, 32, s(8), s(1), s(64)), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 32, s(1), s(228), s(64)), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: none (0 barriers); min 8 [W R]
        row(256, 32, 0, N, false, 0, 8, (8, 32, s(8), s(228), N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/3 = 21; min 8 [W R]
        row(256, 32, 0, N, false, 3, 8, (8, 32, s(8), s(228), s(21)), &[W, R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/2 = 32; min 32 [B Bar]
        row(32, 32, 0, N, false, 2, 32, (64, 32, s(64), s(228), s(32)), &[B, Bar]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 1 [R]
        row(1024, 48, 0, N, false, 1, 1, (2, 32, s(1), s(228), s(64)), &[R]),
        // 160 thr → 5 warps; W: 64/5 = 12; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (12, 32, s(7), s(228), s(64)), &[R]),
        // 224 thr → 7 warps; W: 64/7 = 9; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 32; S: 2048+1024 = 3072; SM 233472; 233472/3072 = 76; Bar: 32×2/1 = 64; min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (9, 32, s(2), s(76), s(64)), &[R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B]
        row(64, 0, 0, N, false, 1, 32, (32, 32, N, s(228), s(64)), &[W, B]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 48128+1024 = 49152; SM 233472; 233472/49152 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(32, 0, 47 * K, N, false, 1, 4, (64, 32, N, s(4), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 204800+1024 = 205824; SM 233472; 233472/205824 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(128, 32, 200 * K, N, true, 1, 1, (16, 32, s(16), s(1), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 232448+1024 = 233472; SM 233472; 233472/233472 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(128, 32, 227 * K, N, true, 1, 1, (16, 32, s(16), s(1), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 233472+1024 = 234496 > cap 233472 → 0; Bar: 32×2/1 = 64; min 0 [S]
        row(128, 32, 228 * K, N, true, 1, 0, (16, 32, s(16), s(0), s(64)), &[S]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/40 = 1; min 1 [Bar]
        row(64, 32, 0, N, false, 40, 1, (32, 32, s(32), s(228), s(1)), &[Bar]),
    ];

    /// CC 10.0: GpuConfig::b200().
    #[rustfmt::skip]
    const CC10_0: &[Row] = &[
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 0, N, false, 1, 8, (8, 32, s(8), s(228), s(64)), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (8, 32, s(2), s(228), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 32; S: 49152+1024 = 50176; SM 233472; 233472/50176 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(128, 40, 48 * K, N, false, 1, 4, (16, 32, s(12), s(4), s(64)), &[S]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (2, 32, s(0), s(228), s(64)), &[R]),
        // 96 thr → 3 warps; W: 64/3 = 21; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 16 [R]
        row(96, 40, 0, N, false, 1, 16, (21, 32, s(16), s(228), s(64)), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [B]
        row(32, 16, 0, N, false, 1, 32, (64, 32, s(128), s(228), s(64)), &[B]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B R]
        row(64, 32, 0, N, false, 1, 32, (32, 32, s(32), s(228), s(64)), &[W, B, R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 16 [W R]
        row(128, 32, 0, N, false, 1, 16, (16, 32, s(16), s(228), s(64)), &[W, R]),
        // 192 thr → 6 warps; W: 64/6 = 10; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (10, 32, s(6), s(228), s(64)), &[R]),
        // 384 thr → 12 warps; W: 64/12 = 5; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (5, 32, s(2), s(228), s(64)), &[R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 4 [W R]
        row(512, 32, 0, N, false, 1, 4, (4, 32, s(4), s(228), s(64)), &[W, R]),
        // 512 thr → 16 warps; W: 64/16 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (4, 32, s(2), s(228), s(64)), &[R]),
        // 640 thr → 20 warps; W: 64/20 = 3; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(640, 40, 0, N, false, 1, 2, (3, 32, s(2), s(228), s(64)), &[R]),
        // 768 thr → 24 warps; W: 64/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 32, s(2), s(228), s(64)), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W R]
        row(1024, 32, 0, N, false, 1, 2, (2, 32, s(2), s(228), s(64)), &[W, R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 1 [R]
        row(1024, 64, 0, N, false, 1, 1, (2, 32, s(1), s(228), s(64)), &[R]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [W]
        row(1024, 0, 0, N, false, 1, 2, (2, 32, N, s(228), s(64)), &[W]),
        // 33 thr → 2 warps; W: 64/2 = 32; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B]
        row(33, 24, 0, N, false, 1, 32, (32, 32, s(42), s(228), s(64)), &[W, B]),
        // 1 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [B]
        row(1, 0, 0, N, false, 1, 32, (64, 32, N, s(228), s(64)), &[B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (16, 32, s(2), s(228), s(64)), &[R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (64, 32, s(8), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 256 > 255 regs/thread → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (8, 32, s(0), s(228), s(64)), &[R]),
        // 800 thr → 25 warps; W: 64/25 = 2; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (2, 32, s(0), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (8, 32, s(3), s(228), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (16, 32, s(3), s(228), s(64)), &[R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 32; S: 16384+1024 = 17408; SM 233472; 233472/17408 = 13; Bar: 32×2/1 = 64; min 6 [R]
        row(256, 40, 16 * K, N, false, 1, 6, (8, 32, s(6), s(13), s(64)), &[R]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 32768+1024 = 33792; SM 233472; 233472/33792 = 6; Bar: 32×2/1 = 64; min 6 [S]
        row(128, 32, 32 * K, N, false, 1, 6, (16, 32, s(16), s(6), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4000+1024 → 5120; SM 233472; 233472/5120 = 45; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 4000, N, false, 1, 8, (8, 32, s(8), s(45), s(64)), &[W, R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 32; S: 1000+1024 → 2048; SM 233472; 233472/2048 = 114; Bar: 32×2/1 = 64; min 32 [W B]
        row(64, 16, 1000, N, false, 1, 32, (32, 32, s(64), s(114), s(64)), &[W, B]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 32; S: 8192+1024 = 9216; SM 233472; 233472/9216 = 25; Bar: 32×2/1 = 64; min 16 [W]
        row(128, 24, 8 * K, N, false, 1, 16, (16, 32, s(21), s(25), s(64)), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 49152+1024 = 50176; SM 233472; 233472/50176 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(256, 32, 48 * K, N, false, 1, 4, (8, 32, s(8), s(4), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: 32×2/1 = 64; min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (8, 32, s(8), s(0), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 65536+1024 = 66560; SM 233472; 233472/66560 = 3; Bar: 32×2/1 = 64; min 3 [S]
        row(256, 32, 64 * K, N, true, 1, 3, (8, 32, s(8), s(3), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 98304+1024 = 99328; SM 233472; 233472/99328 = 2; Bar: 32×2/1 = 64; min 2 [S]
        row(128, 32, 96 * K, N, true, 1, 2, (16, 32, s(16), s(2), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 102400+1024 = 103424; SM 233472; 233472/103424 = 2; Bar: 32×2/1 = 64; min 2 [S]
        row(128, 32, 100 * K, N, true, 1, 2, (16, 32, s(16), s(2), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: 32×2/1 = 64; min 8 [W R S]
        row(256, 32, 0, s(0), false, 1, 8, (8, 32, s(8), s(8), s(64)), &[W, R, S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (8, 32, s(8), s(1), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 8192+1024 = 9216; 25% = 58368 → step 65536; 65536/9216 = 7; Bar: 32×2/1 = 64; min 7 [S]
        row(256, 32, 8 * K, s(25), false, 1, 7, (8, 32, s(8), s(7), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 16384+1024 = 17408; 50% = 116736 → step 135168; 135168/17408 = 7; Bar: 32×2/1 = 64; min 7 [S]
        row(128, 32, 16 * K, s(50), false, 1, 7, (16, 32, s(16), s(7), s(64)), &[S]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; 100% = 233472 → step 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 8 [W R]
        row(256, 32, 0, s(100), false, 1, 8, (8, 32, s(8), s(228), s(64)), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 20480+1024 = 21504; 10% = 23347 → step 32768; 32768/21504 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (8, 32, s(8), s(1), s(64)), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 32, s(1), s(228), s(64)), &[W]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: none (0 barriers); min 8 [W R]
        row(256, 32, 0, N, false, 0, 8, (8, 32, s(8), s(228), N), &[W, R]),
        // 256 thr → 8 warps; W: 64/8 = 8; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/3 = 21; min 8 [W R]
        row(256, 32, 0, N, false, 3, 8, (8, 32, s(8), s(228), s(21)), &[W, R]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/2 = 32; min 32 [B Bar]
        row(32, 32, 0, N, false, 2, 32, (64, 32, s(64), s(228), s(32)), &[B, Bar]),
        // 1024 thr → 32 warps; W: 64/32 = 2; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 1 [R]
        row(1024, 48, 0, N, false, 1, 1, (2, 32, s(1), s(228), s(64)), &[R]),
        // 160 thr → 5 warps; W: 64/5 = 12; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (12, 32, s(7), s(228), s(64)), &[R]),
        // 224 thr → 7 warps; W: 64/7 = 9; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 32; S: 2048+1024 = 3072; SM 233472; 233472/3072 = 76; Bar: 32×2/1 = 64; min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (9, 32, s(2), s(76), s(64)), &[R]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 0 regs → none; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/1 = 64; min 32 [W B]
        row(64, 0, 0, N, false, 1, 32, (32, 32, N, s(228), s(64)), &[W, B]),
        // 32 thr → 1 warps; W: 64/1 = 64; R: 0 regs → none; B: 32; S: 48128+1024 = 49152; SM 233472; 233472/49152 = 4; Bar: 32×2/1 = 64; min 4 [S]
        row(32, 0, 47 * K, N, false, 1, 4, (64, 32, N, s(4), s(64)), &[S]),
        // 128 thr → 4 warps; W: 64/4 = 16; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 32; S: 232448+1024 = 233472; SM 233472; 233472/233472 = 1; Bar: 32×2/1 = 64; min 1 [S]
        row(128, 32, 227 * K, N, true, 1, 1, (16, 32, s(16), s(1), s(64)), &[S]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/64 = 1; min 1 [Bar]
        row(64, 32, 0, N, false, 64, 1, (32, 32, s(32), s(228), s(1)), &[Bar]),
        // 64 thr → 2 warps; W: 64/2 = 32; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 32; S: 0+1024 = 1024; SM 233472; 233472/1024 = 228; Bar: 32×2/65 = 0; min 0 [Bar]
        row(64, 32, 0, N, false, 65, 0, (32, 32, s(32), s(228), s(0)), &[Bar]),
    ];

    /// CC 12.0: cc12().
    #[rustfmt::skip]
    const CC12_0: &[Row] = &[
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 6 [W]
        row(256, 32, 0, N, false, 1, 6, (6, 24, s(8), s(100), s(24)), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 128×32 = 4096/warp, 16384/4096 = 4 ×4 = 16 warps → 16/8 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [R]
        row(256, 128, 0, N, false, 1, 2, (6, 24, s(2), s(100), s(24)), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/4 = 12; B: 24; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: 24×1/1 = 24; min 2 [S]
        row(128, 40, 48 * K, N, false, 1, 2, (12, 24, s(12), s(2), s(24)), &[S]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 65×32 = 2080 → 2304/warp, ×32 warps = 73728 > 65536 → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 0 [R]
        row(1024, 65, 0, N, false, 1, 0, (1, 24, s(0), s(100), s(24)), &[R]),
        // 96 thr → 3 warps; W: 48/3 = 16; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/3 = 16; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 16 [W R]
        row(96, 40, 0, N, false, 1, 16, (16, 24, s(16), s(100), s(24)), &[W, R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 24 [B Bar]
        row(32, 16, 0, N, false, 1, 24, (48, 24, s(128), s(100), s(24)), &[B, Bar]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/2 = 32; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 24 [W B Bar]
        row(64, 32, 0, N, false, 1, 24, (24, 24, s(32), s(100), s(24)), &[W, B, Bar]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 12 [W]
        row(128, 32, 0, N, false, 1, 12, (12, 24, s(16), s(100), s(24)), &[W]),
        // 192 thr → 6 warps; W: 48/6 = 8; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/6 = 6; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 6 [R]
        row(192, 48, 0, N, false, 1, 6, (8, 24, s(6), s(100), s(24)), &[R]),
        // 384 thr → 12 warps; W: 48/12 = 4; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/12 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [R]
        row(384, 64, 0, N, false, 1, 2, (4, 24, s(2), s(100), s(24)), &[R]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/16 = 4; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 3 [W]
        row(512, 32, 0, N, false, 1, 3, (3, 24, s(4), s(100), s(24)), &[W]),
        // 512 thr → 16 warps; W: 48/16 = 3; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/16 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [R]
        row(512, 64, 0, N, false, 1, 2, (3, 24, s(2), s(100), s(24)), &[R]),
        // 640 thr → 20 warps; W: 48/20 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/20 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [W R]
        row(640, 40, 0, N, false, 1, 2, (2, 24, s(2), s(100), s(24)), &[W, R]),
        // 768 thr → 24 warps; W: 48/24 = 2; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/24 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [W R]
        row(768, 40, 0, N, false, 1, 2, (2, 24, s(2), s(100), s(24)), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/32 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 1 [W]
        row(1024, 32, 0, N, false, 1, 1, (1, 24, s(2), s(100), s(24)), &[W]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 64×32 = 2048/warp, 16384/2048 = 8 ×4 = 32 warps → 32/32 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 1 [W R]
        row(1024, 64, 0, N, false, 1, 1, (1, 24, s(1), s(100), s(24)), &[W, R]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 1 [W]
        row(1024, 0, 0, N, false, 1, 1, (1, 24, N, s(100), s(24)), &[W]),
        // 33 thr → 2 warps; W: 48/2 = 24; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/2 = 42; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 24 [W B Bar]
        row(33, 24, 0, N, false, 1, 24, (24, 24, s(42), s(100), s(24)), &[W, B, Bar]),
        // 1 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 24 [B Bar]
        row(1, 0, 0, N, false, 1, 24, (48, 24, N, s(100), s(24)), &[B, Bar]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/4 = 2; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 2 [R]
        row(128, 255, 0, N, false, 1, 2, (12, 24, s(2), s(100), s(24)), &[R]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 255×32 = 8160 → 8192/warp, 16384/8192 = 2 ×4 = 8 warps → 8/1 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 8 [R]
        row(32, 255, 0, N, false, 1, 8, (48, 24, s(8), s(100), s(24)), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 256 > 255 regs/thread → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 0 [R]
        row(256, 256, 0, N, false, 1, 0, (6, 24, s(0), s(100), s(24)), &[R]),
        // 800 thr → 25 warps; W: 48/25 = 1; R: 80×32 = 2560/warp, hw check ×28 warps = 71680 > 65536 → 0; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 0 [R]
        row(800, 80, 0, N, false, 1, 0, (1, 24, s(0), s(100), s(24)), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 72×32 = 2304/warp, 16384/2304 = 7 ×4 = 28 warps → 28/8 = 3; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 3 [R]
        row(256, 72, 0, N, false, 1, 3, (6, 24, s(3), s(100), s(24)), &[R]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 168×32 = 5376/warp, 16384/5376 = 3 ×4 = 12 warps → 12/4 = 3; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 3 [R]
        row(128, 168, 0, N, false, 1, 3, (12, 24, s(3), s(100), s(24)), &[R]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 40×32 = 1280/warp, 16384/1280 = 12 ×4 = 48 warps → 48/8 = 6; B: 24; S: 16384+1024 = 17408; SM 102400; 102400/17408 = 5; Bar: 24×1/1 = 24; min 5 [S]
        row(256, 40, 16 * K, N, false, 1, 5, (6, 24, s(6), s(5), s(24)), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 32768+1024 = 33792; SM 102400; 102400/33792 = 3; Bar: 24×1/1 = 24; min 3 [S]
        row(128, 32, 32 * K, N, false, 1, 3, (12, 24, s(16), s(3), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 4000+1024 → 5120; SM 102400; 102400/5120 = 20; Bar: 24×1/1 = 24; min 6 [W]
        row(256, 32, 4000, N, false, 1, 6, (6, 24, s(8), s(20), s(24)), &[W]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/2 = 64; B: 24; S: 1000+1024 → 2048; SM 102400; 102400/2048 = 50; Bar: 24×1/1 = 24; min 24 [W B Bar]
        row(64, 16, 1000, N, false, 1, 24, (24, 24, s(64), s(50), s(24)), &[W, B, Bar]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 24×32 = 768/warp, 16384/768 = 21 ×4 = 84 warps → 84/4 = 21; B: 24; S: 8192+1024 = 9216; SM 102400; 102400/9216 = 11; Bar: 24×1/1 = 24; min 11 [S]
        row(128, 24, 8 * K, N, false, 1, 11, (12, 24, s(21), s(11), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 49152+1024 = 50176; SM 102400; 102400/50176 = 2; Bar: 24×1/1 = 24; min 2 [S]
        row(256, 32, 48 * K, N, false, 1, 2, (6, 24, s(8), s(2), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 65536+1024 = 66560 > cap 50176 → 0; Bar: 24×1/1 = 24; min 0 [S]
        row(256, 32, 64 * K, N, false, 1, 0, (6, 24, s(8), s(0), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 65536+1024 = 66560; SM 102400; 102400/66560 = 1; Bar: 24×1/1 = 24; min 1 [S]
        row(256, 32, 64 * K, N, true, 1, 1, (6, 24, s(8), s(1), s(24)), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 98304+1024 = 99328; SM 102400; 102400/99328 = 1; Bar: 24×1/1 = 24; min 1 [S]
        row(128, 32, 96 * K, N, true, 1, 1, (12, 24, s(16), s(1), s(24)), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 102400+1024 = 103424 > cap 102400 → 0; Bar: 24×1/1 = 24; min 0 [S]
        row(128, 32, 100 * K, N, true, 1, 0, (12, 24, s(16), s(0), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; 0% = 0 → step 0 < 1024 → step 8192; 8192/1024 = 8; Bar: 24×1/1 = 24; min 6 [W]
        row(256, 32, 0, s(0), false, 1, 6, (6, 24, s(8), s(8), s(24)), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 4096+1024 = 5120; 0% = 0 → step 0 < 5120 → step 8192; 8192/5120 = 1; Bar: 24×1/1 = 24; min 1 [S]
        row(256, 32, 4 * K, s(0), false, 1, 1, (6, 24, s(8), s(1), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 8192+1024 = 9216; 25% = 25600 → step 32768; 32768/9216 = 3; Bar: 24×1/1 = 24; min 3 [S]
        row(256, 32, 8 * K, s(25), false, 1, 3, (6, 24, s(8), s(3), s(24)), &[S]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 16384+1024 = 17408; 50% = 51200 → step 65536; 65536/17408 = 3; Bar: 24×1/1 = 24; min 3 [S]
        row(128, 32, 16 * K, s(50), false, 1, 3, (12, 24, s(16), s(3), s(24)), &[S]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; 100% = 102400 → step 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 6 [W]
        row(256, 32, 0, s(100), false, 1, 6, (6, 24, s(8), s(100), s(24)), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 20480+1024 = 21504; 10% = 10240 → step 16384 < 21504 → step 32768; 32768/21504 = 1; Bar: 24×1/1 = 24; min 1 [S]
        row(256, 32, 20 * K, s(10), false, 1, 1, (6, 24, s(8), s(1), s(24)), &[S]),
        // 1025 thr → 33 warps; W: 1025 > 1024 thr → 0; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/33 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 0 [W]
        row(1025, 32, 0, N, false, 1, 0, (0, 24, s(1), s(100), s(24)), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: none (0 barriers); min 6 [W]
        row(256, 32, 0, N, false, 0, 6, (6, 24, s(8), s(100), N), &[W]),
        // 256 thr → 8 warps; W: 48/8 = 6; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/8 = 8; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/3 = 8; min 6 [W]
        row(256, 32, 0, N, false, 3, 6, (6, 24, s(8), s(100), s(8)), &[W]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/1 = 64; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/2 = 12; min 12 [Bar]
        row(32, 32, 0, N, false, 2, 12, (48, 24, s(64), s(100), s(12)), &[Bar]),
        // 1024 thr → 32 warps; W: 48/32 = 1; R: 48×32 = 1536/warp, 16384/1536 = 10 ×4 = 40 warps → 40/32 = 1; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 1 [W R]
        row(1024, 48, 0, N, false, 1, 1, (1, 24, s(1), s(100), s(24)), &[W, R]),
        // 160 thr → 5 warps; W: 48/5 = 9; R: 56×32 = 1792/warp, 16384/1792 = 9 ×4 = 36 warps → 36/5 = 7; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 7 [R]
        row(160, 56, 0, N, false, 1, 7, (9, 24, s(7), s(100), s(24)), &[R]),
        // 224 thr → 7 warps; W: 48/7 = 6; R: 96×32 = 3072/warp, 16384/3072 = 5 ×4 = 20 warps → 20/7 = 2; B: 24; S: 2048+1024 = 3072; SM 102400; 102400/3072 = 33; Bar: 24×1/1 = 24; min 2 [R]
        row(224, 96, 2 * K, N, false, 1, 2, (6, 24, s(2), s(33), s(24)), &[R]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/1 = 24; min 24 [W B Bar]
        row(64, 0, 0, N, false, 1, 24, (24, 24, N, s(100), s(24)), &[W, B, Bar]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 0 regs → none; B: 24; S: 48128+1024 = 49152; SM 102400; 102400/49152 = 2; Bar: 24×1/1 = 24; min 2 [S]
        row(32, 0, 47 * K, N, false, 1, 2, (48, 24, N, s(2), s(24)), &[S]),
        // 64 thr → 2 warps; W: 48/2 = 24; R: 0 regs → none; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/2 = 12; min 12 [Bar]
        row(64, 0, 0, N, false, 2, 12, (24, 24, N, s(100), s(12)), &[Bar]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/24 = 1; min 1 [Bar]
        row(32, 16, 0, N, false, 24, 1, (48, 24, s(128), s(100), s(1)), &[Bar]),
        // 32 thr → 1 warps; W: 48/1 = 48; R: 16×32 = 512/warp, 16384/512 = 32 ×4 = 128 warps → 128/1 = 128; B: 24; S: 0+1024 = 1024; SM 102400; 102400/1024 = 100; Bar: 24×1/49 = 0; min 0 [Bar]
        row(32, 16, 0, N, false, 49, 0, (48, 24, s(128), s(100), s(0)), &[Bar]),
        // 128 thr → 4 warps; W: 48/4 = 12; R: 32×32 = 1024/warp, 16384/1024 = 16 ×4 = 64 warps → 64/4 = 16; B: 24; S: 101376+1024 = 102400; SM 102400; 102400/102400 = 1; Bar: 24×1/1 = 24; min 1 [S]
        row(128, 32, 99 * K, N, true, 1, 1, (12, 24, s(16), s(1), s(24)), &[S]),
    ];

    #[test]
    fn table_cc_7_0() {
        check_family(&GpuConfig::v100(), (7, 0), CC7_0);
    }

    #[test]
    fn table_cc_7_5() {
        check_family(&GpuConfig::t4(), (7, 5), CC7_5);
    }

    #[test]
    fn table_cc_8_0() {
        check_family(&GpuConfig::a100_sxm(), (8, 0), CC8_0);
    }

    #[test]
    fn table_cc_8_6() {
        check_family(&GpuConfig::rtx3090(), (8, 6), CC8_6);
    }

    #[test]
    fn table_cc_8_9() {
        check_family(&GpuConfig::l4(), (8, 9), CC8_9);
    }

    #[test]
    fn table_cc_9_0() {
        check_family(&GpuConfig::h100_sxm(), (9, 0), CC9_0);
    }

    #[test]
    fn table_cc_10_0() {
        check_family(&GpuConfig::b200(), (10, 0), CC10_0);
    }

    #[test]
    fn table_cc_12_0() {
        check_family(&cc12(), (12, 0), CC12_0);
    }

    #[test]
    fn h100_256_threads_32_regs_is_full_occupancy() {
        // 256 thr → 8 warps; 32 regs × 32 = 1024/warp; 16384/1024 = 16 warps per sub-partition
        // × 4 = 64 → 64/8 = 8 blocks; warps 64/8 = 8 → tie.
        let o = occupancy(&GpuConfig::h100_sxm(), &OccupancyRequest::new(256, 32, 0));
        assert_eq!(o.blocks_per_sm, 8);
        assert_eq!(o.active_warps, 64);
        assert_eq!(o.occupancy, 1.0);
        assert_eq!(o.limiter, Limiter::Warps);
        assert_eq!(o.limiters, vec![Limiter::Warps, Limiter::Registers]);
        assert_eq!(o.allocated_regs_per_block, 8192);
        assert_eq!(o.allocated_smem_per_block, 1024);
        assert_eq!(o.smem_per_sm_effective, 233_472);
        assert_eq!(o.cannot_launch, None);
    }

    #[test]
    fn gpu_facts_1_4_h100_table() {
        let h100 = GpuConfig::h100_sxm();
        // (threads, regs, smem, regs/warp, warps/blk, L_regs, L_warps, L_blocks, smem/blk, L_smem, result)
        let table = [
            (256, 32, 0, 1024, 8, 8, 8, 32, 1024, 228, 8),
            (256, 128, 0, 4096, 8, 2, 8, 32, 1024, 228, 2),
            (128, 40, 48 * K, 1280, 4, 12, 16, 32, 50_176, 4, 4),
            (1024, 65, 0, 2304, 32, 0, 2, 32, 1024, 228, 0),
        ];
        for (t, r, sm, rpw, wpb, l_regs, l_warps, l_blocks, smem_blk, l_smem, result) in table {
            let o = occupancy(&h100, &OccupancyRequest::new(t, r, sm));
            assert_eq!(o.allocated_regs_per_block, u64::from(rpw * wpb), "{t}/{r}");
            assert_eq!(o.warps_per_block, wpb);
            assert_eq!(o.limits.registers, Some(l_regs), "{t}/{r}");
            assert_eq!(o.limits.warps, l_warps, "{t}/{r}");
            assert_eq!(o.limits.blocks, l_blocks, "{t}/{r}");
            assert_eq!(o.allocated_smem_per_block, smem_blk, "{t}/{r}");
            assert_eq!(o.limits.shared_mem, Some(l_smem), "{t}/{r}");
            assert_eq!(o.blocks_per_sm, result, "{t}/{r}");
        }
        let o = occupancy(&h100, &OccupancyRequest::new(256, 128, 0));
        assert_eq!((o.active_warps, o.occupancy), (16, 0.25));
        assert_eq!(o.limiters, vec![Limiter::Registers]);
        let o = occupancy(&h100, &OccupancyRequest::new(128, 40, 48 * K));
        assert_eq!(o.limiters, vec![Limiter::SharedMem]);
        assert_eq!(o.active_warps, 16);
    }

    #[test]
    fn h100_1024_threads_65_regs_cannot_launch() {
        // 65 regs → 65 × 32 = 2080 → 2304 per warp (72 per thread); × 32 warps = 73728 > 65536.
        let o = occupancy(&GpuConfig::h100_sxm(), &OccupancyRequest::new(1024, 65, 0));
        assert_eq!(o.blocks_per_sm, 0);
        assert_eq!(o.limiter, Limiter::Registers);
        assert_eq!(o.limiters, vec![Limiter::Registers]);
        assert_eq!(
            o.cannot_launch.as_deref(),
            Some(
                "1024 threads × 72 registers = 73728 > 65536 registers per block \
                 (65 registers per thread are allocated as 72)"
            )
        );
        let o = occupancy(&GpuConfig::h100_sxm(), &OccupancyRequest::new(1024, 64, 0));
        assert_eq!(o.blocks_per_sm, 1, "64 registers still fit");
    }

    #[test]
    fn nvidia_register_formula_beats_the_reference_for_96_threads_at_40_regs() {
        let h100 = GpuConfig::h100_sxm();
        // NVIDIA: 96 thr → 3 warps; 40 × 32 = 1280/warp; 16384/1280 = 12 warps per
        // sub-partition × 4 = 48 → 48/3 = 16 blocks.
        let o = occupancy(&h100, &OccupancyRequest::new(96, 40, 0));
        assert_eq!(o.blocks_per_sm, 16);
        assert_eq!(o.limiters, vec![Limiter::Registers]);
        // The reference: (65536 // 1280) // 3 = 51 // 3 = 17 (no sub-partition split).
        let reference = (h100.regs_per_sm / 1280) / 3;
        assert_eq!(reference, 17);
    }

    #[test]
    fn cc12_barriers_tie_with_blocks() {
        // 32 thr → 1 warp; W 48; R 16 × 32 = 512/warp → 32 per sub-partition × 4 = 128;
        // S 1024 B → 102400/1024 = 100; B 24; barriers 24 × 1 / 1 = 24 → 24 [blocks, barriers].
        let o = occupancy(&cc12(), &OccupancyRequest::new(32, 16, 0));
        assert_eq!(o.blocks_per_sm, 24);
        assert_eq!(o.limiters, vec![Limiter::Blocks, Limiter::Barriers]);
        // On 9.0 the same kernel has 32 × 2 = 64 barriers: blocks alone.
        let o = occupancy(&GpuConfig::h100_sxm(), &OccupancyRequest::new(32, 16, 0));
        assert_eq!(o.limiters, vec![Limiter::Blocks]);
        assert_eq!(o.limits.barriers, Some(64));
        // Below 9.0 there is no barrier limit.
        let o = occupancy(&GpuConfig::l4(), &OccupancyRequest::new(32, 16, 0));
        assert_eq!(o.limits.barriers, None);
        assert_eq!(o.limiters, vec![Limiter::Blocks]);
    }

    #[test]
    fn limiters_tie_with_the_final_value_after_the_barrier_limit() {
        // 12.0, 2 barriers: barrier limit 24 / 2 = 12 < blocks 24. The header would also flag
        // BLOCKS (it compares before applying barriers); here only barriers tie with 12.
        let mut req = OccupancyRequest::new(32, 16, 0);
        req.barriers_per_block = 2;
        let o = occupancy(&cc12(), &req);
        assert_eq!(o.blocks_per_sm, 12);
        assert_eq!(o.limiters, vec![Limiter::Barriers]);
    }

    #[test]
    fn cannot_launch_reasons() {
        let h100 = GpuConfig::h100_sxm();
        let reason = |req: OccupancyRequest| {
            let o = occupancy(&h100, &req);
            assert_eq!(o.blocks_per_sm, 0, "{req:?}");
            o.cannot_launch.unwrap_or_default()
        };
        assert_eq!(
            reason(OccupancyRequest::new(0, 32, 0)),
            "a block needs at least one thread"
        );
        assert_eq!(
            reason(OccupancyRequest::new(1025, 32, 0)),
            "1025 threads per block > 1024 maximum"
        );
        assert_eq!(
            reason(OccupancyRequest::new(256, 256, 0)),
            "256 registers per thread > 255 maximum"
        );
        // 800 thr → 25 warps; 80 × 32 = 2560/warp; software 25 × 2560 = 64000 fits, but the
        // hardware check rounds to 28 warps: 71680 > 65536.
        assert_eq!(
            reason(OccupancyRequest::new(800, 80, 0)),
            "2560 registers per warp × 28 warps (25 rounded up to a multiple of 4 sub-partitions) \
             = 71680 > 65536 registers per block (hardware check)"
        );
        // 1000 thr → 32 warps (not a whole number of warps): 32 × 2304 = 73728.
        assert_eq!(
            reason(OccupancyRequest::new(1000, 72, 0)),
            "32 warps (1000 threads rounded up to whole warps) × 2304 registers per warp = 73728 \
             > 65536 registers per block"
        );
        assert_eq!(
            reason(OccupancyRequest::new(256, 32, 64 * K)),
            "66560 bytes of shared memory per block (65536 requested + 1024 reserved, rounded up \
             to 128) > 50176-byte per-block limit without opt-in (up to 232448 bytes with opt-in)"
        );
        let mut req = OccupancyRequest::new(256, 32, 0);
        req.carveout_percent = Some(150);
        assert_eq!(reason(req), "carveout 150 % is not between 0 and 100");
        let mut req = OccupancyRequest::new(256, 32, 0);
        req.barriers_per_block = 65;
        assert_eq!(reason(req), "65 barriers per block > 64 barriers per SM");
        // Several reasons are joined.
        assert_eq!(
            reason(OccupancyRequest::new(2048, 300, 0)),
            "2048 threads per block > 1024 maximum; 300 registers per thread > 255 maximum"
        );
        // V100 has no reservation and no opt-in beyond 96 KB.
        let o = occupancy(&GpuConfig::v100(), &OccupancyRequest::new(128, 32, 97 * K));
        assert_eq!(
            o.cannot_launch.as_deref(),
            Some(
                "99328 bytes of shared memory per block (99328 requested, rounded up to 256) \
                 > 49152-byte per-block limit"
            )
        );
    }

    #[test]
    fn huge_requests_do_not_overflow() {
        let o = occupancy(
            &GpuConfig::h100_sxm(),
            &OccupancyRequest::new(u32::MAX, u32::MAX, u32::MAX),
        );
        assert_eq!(o.blocks_per_sm, 0);
        assert!(o.cannot_launch.is_some());
    }

    #[test]
    fn zero_registers_and_zero_smem_set_no_limit() {
        // CC 7.0 reserves nothing, so an empty kernel has neither a register nor a smem limit.
        let o = occupancy(&GpuConfig::v100(), &OccupancyRequest::new(64, 0, 0));
        assert_eq!(o.limits.registers, None);
        assert_eq!(o.limits.shared_mem, None);
        assert_eq!(o.blocks_per_sm, 32);
        assert_eq!(o.limiters, vec![Limiter::Warps, Limiter::Blocks]);
        // CC 9.0 reserves 1 KB per block: 228 blocks' worth of shared memory.
        let o = occupancy(&GpuConfig::h100_sxm(), &OccupancyRequest::new(64, 0, 0));
        assert_eq!(o.limits.shared_mem, Some(228));
    }

    #[test]
    fn carveout_rounds_up_to_a_step() {
        let h100 = GpuConfig::h100_sxm();
        let mut req = OccupancyRequest::new(256, 32, 8 * K);
        // 25 % of 233472 = 58368 → 64 KB step; 65536 / 9216 = 7.
        req.carveout_percent = Some(25);
        let o = occupancy(&h100, &req);
        assert_eq!(o.smem_per_sm_effective, 65_536);
        assert_eq!(o.blocks_per_sm, 7);
        // 0 % → the 0 KB step, smaller than one block (9216 B) → the block rounded up to a
        // step: 16 KB; 16384 / 9216 = 1.
        req.carveout_percent = Some(0);
        let o = occupancy(&h100, &req);
        assert_eq!(o.smem_per_sm_effective, 16_384);
        assert_eq!(o.blocks_per_sm, 1);
        // Turing has no 0 KB step: 0 % → 32 KB.
        let mut req = OccupancyRequest::new(128, 32, 4 * K);
        req.carveout_percent = Some(0);
        let o = occupancy(&GpuConfig::t4(), &req);
        assert_eq!(o.smem_per_sm_effective, 32_768);
        assert_eq!(o.limits.shared_mem, Some(8));
    }

    #[test]
    fn opt_in_raises_the_per_block_cap() {
        let h100 = GpuConfig::h100_sxm();
        let mut req = OccupancyRequest::new(128, 32, 227 * K);
        let o = occupancy(&h100, &req);
        assert_eq!(o.blocks_per_sm, 0);
        req.opt_in = true;
        // 232448 + 1024 = 233472 ≤ 227 KB + 1 KB cap; 233472 / 233472 = 1.
        let o = occupancy(&h100, &req);
        assert_eq!(o.blocks_per_sm, 1);
        assert_eq!(o.allocated_smem_per_block, 233_472);
        // 48 KB exactly needs no opt-in on CC ≥ 8 (the cap includes the 1 KB reservation).
        let o = occupancy(&h100, &OccupancyRequest::new(128, 32, 48 * K));
        assert_eq!(o.blocks_per_sm, 4);
    }

    #[test]
    fn occupancy_serialises_with_reference_names() {
        let o = occupancy(&GpuConfig::v100(), &OccupancyRequest::new(256, 32, 0));
        let v = serde_json::to_value(&o).expect("serialise");
        assert_eq!(v["blocks_per_sm"], 8);
        assert_eq!(v["active_warps"], 64);
        assert_eq!(v["occupancy"], 1.0);
        assert_eq!(v["limiter"], "warps");
        assert_eq!(v["limiters"], serde_json::json!(["warps", "registers"]));
        assert_eq!(v["limits"]["warps"], 8);
        assert_eq!(v["limits"]["blocks"], 32);
        assert_eq!(v["limits"]["registers"], 8);
        assert!(v["limits"]["shared_mem"].is_null());
        assert!(v["limits"]["barriers"].is_null());
        assert!(v["cannot_launch"].is_null());
        let o = occupancy(
            &GpuConfig::h100_sxm(),
            &OccupancyRequest::new(128, 40, 48 * K),
        );
        let v = serde_json::to_value(&o).expect("serialise");
        assert_eq!(v["limiter"], "shared_mem");
        assert_eq!(Limiter::SharedMem.to_string(), "shared_mem");
    }

    #[test]
    fn request_round_trips_through_json() {
        let req = OccupancyRequest::new(256, 32, 1024);
        let text = serde_json::to_string(&req).expect("serialise");
        let back: OccupancyRequest = serde_json::from_str(&text).expect("parse");
        assert_eq!(back, req);
        assert_eq!(req.barriers_per_block, 1);
        assert_eq!(req.carveout_percent, None);
        assert!(!req.opt_in);
    }

    #[test]
    fn waves_like_the_reference() {
        let h100 = GpuConfig::h100_sxm();
        // 133 blocks, 1 per SM on 132 SMs → 2 waves, the last 1/132 full.
        let w = waves(&h100, 133, 1);
        assert_eq!(w.waves, 2);
        assert_eq!(w.last_wave_utilisation, 1.0 / 132.0);
        assert_eq!(w.overall_utilisation, 133.0 / 264.0);
        // Exactly one wave of 132 × 8.
        let w = waves(&h100, 1056, 8);
        assert_eq!(
            (w.waves, w.last_wave_utilisation, w.overall_utilisation),
            (1, 1.0, 1.0)
        );
        // 4 blocks on 132 SMs × 8.
        let w = waves(&h100, 4, 8);
        assert_eq!(w.waves, 1);
        assert_eq!(w.last_wave_utilisation, 4.0 / 1056.0);
        // Nothing fits, or nothing to run.
        let zero = Waves {
            waves: 0,
            last_wave_utilisation: 0.0,
            overall_utilisation: 0.0,
        };
        assert_eq!(waves(&h100, 100, 0), zero);
        assert_eq!(waves(&h100, 0, 8), zero);
    }

    #[test]
    fn latency_hiding_like_the_reference() {
        let h100 = GpuConfig::h100_sxm();
        // need = 3.35e12 / 132 × 500e-9 ≈ 12689.4 bytes per SM.
        let need = 3.35e12 / 132.0 * 500e-9;
        let lh = latency_hiding(&h100, 64.0, 128.0, 1.0);
        assert_eq!(lh.need_bytes, need);
        assert_eq!(lh.have_bytes, 8192.0);
        assert_eq!(lh.fraction, 8192.0 / need);
        assert!((lh.fraction - 0.6456).abs() < 1e-4);
        // Two requests in flight per warp: 16384 > need → fully hidden.
        let lh = latency_hiding(&h100, 64.0, 128.0, 2.0);
        assert_eq!(lh.fraction, 1.0);
        assert_eq!(lh.have_bytes, 16384.0);
        // No warps → nothing in flight.
        assert_eq!(latency_hiding(&h100, 0.0, 128.0, 1.0).fraction, 0.0);
        // No latency → nothing to hide.
        let mut g = GpuConfig::h100_sxm();
        g.mem_latency_s = 0.0;
        assert_eq!(latency_hiding(&g, 1.0, 4.0, 1.0).fraction, 1.0);
    }

    #[test]
    fn amdahl_and_gustafson() {
        assert!((amdahl(0.1, 10.0) - 1.0 / 0.19).abs() < 1e-12);
        assert_eq!(amdahl(0.0, 8.0), 8.0);
        assert_eq!(amdahl(1.0, 1000.0), 1.0);
        assert!((amdahl(0.05, f64::INFINITY) - 20.0).abs() < 1e-12);
        assert!((gustafson(0.1, 10.0) - 9.1).abs() < 1e-12);
        assert_eq!(gustafson(0.0, 64.0), 64.0);
        assert_eq!(gustafson(1.0, 64.0), 1.0);
    }
}
