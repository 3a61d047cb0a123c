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
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
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

    /// One case of `occupancy_cases.txt`: the request, then the expected blocks per SM, the limits
    /// and the limiters that tie.
    #[derive(Debug)]
    struct Case {
        request: OccupancyRequest,
        blocks: u32,
        limits: OccupancyLimits,
        limiters: Vec<Limiter>,
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

    /// A field of a case: `-` (none) or a number, `48K` meaning 48 × 1024.
    fn value(field: &str) -> Option<u32> {
        if field == "-" {
            return None;
        }
        let (digits, unit) = field.strip_suffix('K').map_or((field, 1), |d| (d, K));
        let n: u32 = digits
            .parse()
            .unwrap_or_else(|_| panic!("`{field}` is not a number"));
        Some(n * unit)
    }

    /// `threads regs smem carveout opt-in barriers | blocks | W B R S Bar | limiters`.
    fn case(line: &str) -> Case {
        let parts: Vec<Vec<&str>> = line
            .split('|')
            .map(|p| p.split_whitespace().collect())
            .collect();
        let [request, blocks, limits, limiters] = &parts[..] else {
            panic!("`{line}`: four parts separated by |")
        };
        let (&[threads, regs, smem, carveout, opt_in, barriers], &[blocks], &[w, b, r, sm, bar]) =
            (&request[..], &blocks[..], &limits[..])
        else {
            panic!("`{line}`: six request fields, the blocks, five limits")
        };
        let number = |f: &str| value(f).unwrap_or_else(|| panic!("`{line}`: `{f}` is a number"));
        Case {
            request: OccupancyRequest {
                threads_per_block: number(threads),
                regs_per_thread: number(regs),
                smem_per_block: number(smem),
                carveout_percent: value(carveout),
                opt_in: match opt_in {
                    "opt-in" => true,
                    "-" => false,
                    other => panic!("`{line}`: `{other}` is `opt-in` or `-`"),
                },
                barriers_per_block: number(barriers),
            },
            blocks: number(blocks),
            limits: OccupancyLimits {
                warps: number(w),
                blocks: number(b),
                registers: value(r),
                shared_mem: value(sm),
                barriers: value(bar),
            },
            limiters: limiters
                .iter()
                .map(|&l| match l {
                    "W" => W,
                    "B" => B,
                    "R" => R,
                    "S" => S,
                    "Bar" => Bar,
                    other => panic!("`{line}`: `{other}` is not a limiter"),
                })
                .collect(),
        }
    }

    /// A `[section]` of `occupancy_cases.txt`.
    struct Section {
        /// The GPUs its cases hold for, by name, each with its compute capability.
        gpus: Vec<(&'static str, (u32, u32))>,
        cases: Vec<Case>,
    }

    /// The sections of `occupancy_cases.txt`.
    fn sections() -> Vec<Section> {
        let mut out: Vec<Section> = Vec::new();
        for line in include_str!("occupancy_cases.txt").lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                Some(head) => {
                    let gpus = head
                        .split(',')
                        .map(|g| {
                            let (name, cc) = g.trim().split_once(' ').expect("[NAME CC, ...]");
                            let (major, minor) = cc.split_once('.').expect("CC as MAJOR.MINOR");
                            let cc = (major.parse().expect("CC"), minor.parse().expect("CC"));
                            (name, cc)
                        })
                        .collect();
                    out.push(Section {
                        gpus,
                        cases: Vec::new(),
                    });
                }
                None => out
                    .last_mut()
                    .expect("a [section] before the first case")
                    .cases
                    .push(case(line)),
            }
        }
        out
    }

    /// Checks every case of the sections that name `name` (a preset, or `cc12`) against the
    /// calculator; at least 40 of them.
    fn check_gpu(name: &str) {
        let gpu = match name {
            "cc12" => cc12(),
            _ => crate::gpu::preset(name).expect("a preset"),
        };
        assert_eq!(gpu.validate(), Ok(()));
        let mut checked = 0;
        for Section { gpus, cases } in sections() {
            let Some(&(_, cc)) = gpus.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            assert_eq!(gpu.compute_capability, cc, "{name}");
            for (i, c) in cases.iter().enumerate() {
                let o = occupancy(&gpu, &c.request);
                let ctx = format!("{name} (CC {}.{}) case {i}: {c:?}", cc.0, cc.1);
                assert_eq!(o.limits, c.limits, "{ctx}");
                assert_eq!(o.blocks_per_sm, c.blocks, "{ctx}");
                assert_eq!(o.limiters, c.limiters, "{ctx}");
                assert_eq!(o.limiter, c.limiters[0], "{ctx}");
                let warps = c.request.threads_per_block.div_ceil(32);
                assert_eq!(o.warps_per_block, warps, "{ctx}");
                assert_eq!(o.active_warps, c.blocks * warps, "{ctx}");
                let occ = f64::from(c.blocks * warps) / f64::from(gpu.max_warps_per_sm);
                assert_eq!(o.occupancy, occ, "{ctx}");
                assert_eq!(o.cannot_launch.is_some(), c.blocks == 0, "{ctx}: {o:?}");
            }
            checked += cases.len();
        }
        assert!(checked >= 40, "{name}: {checked} cases");
    }

    #[test]
    fn table_cc_7_0() {
        check_gpu("v100");
    }

    #[test]
    fn table_cc_7_5() {
        check_gpu("t4");
    }

    #[test]
    fn table_cc_8_0() {
        check_gpu("a100-sxm");
    }

    #[test]
    fn table_cc_8_6() {
        check_gpu("rtx3090");
    }

    #[test]
    fn table_cc_8_9() {
        check_gpu("l4");
    }

    #[test]
    fn table_cc_9_0() {
        check_gpu("h100-sxm");
    }

    #[test]
    fn table_cc_10_0() {
        check_gpu("b200");
    }

    #[test]
    fn table_cc_12_0() {
        check_gpu("cc12");
    }

    #[test]
    fn the_case_file_names_only_the_gpus_checked() {
        // 54 H100 and 53 B200 cases (51 of them shared), 53 each for V100, T4 and A100, 52 each
        // for RTX 3090 and L4, 54 for the CC 12.0 part: 424 checks, as many as the tables in
        // Rust had, each GPU in one of the tests above.
        let checked = [
            "v100", "t4", "a100-sxm", "rtx3090", "l4", "h100-sxm", "b200", "cc12",
        ];
        let mut total = 0;
        for Section { gpus, cases } in sections() {
            for (name, _) in &gpus {
                assert!(checked.contains(name), "{name} is not checked");
            }
            total += gpus.len() * cases.len();
        }
        assert_eq!(total, 424);
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
