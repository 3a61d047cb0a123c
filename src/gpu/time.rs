//! Time estimates: the reference's roofline bound and a refined, occupancy-aware estimate.

use std::fmt;

use serde::Serialize;

use super::occupancy::{latency_hiding, occupancy, waves, LatencyHiding, Occupancy, Waves};
use super::{GpuConfig, OccupancyRequest};

/// Fraction of peak DRAM bandwidth a well-coalesced streaming kernel reaches
/// (`docs/gpu-facts.md` §6.2: 82–92 % measured across H100, H800, B200, V100).
pub const ACHIEVABLE_BW_FRACTION: f64 = 0.90;

/// The counters the time models read (names as in the reference's `KernelStats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimeInputs {
    /// DRAM traffic, `(gld_sectors + gst_sectors) × sector_bytes`.
    pub dram_bytes: u64,
    /// Warp instructions issued.
    pub warp_instr: u64,
    /// Shared-memory warp instructions.
    pub smem_instr: u64,
    /// Shared-memory wavefronts (bank-conflict passes).
    pub smem_wavefronts: u64,
}

impl TimeInputs {
    /// Issue slots: warp instructions plus the extra wavefronts of bank conflicts.
    fn issue_slots(&self) -> f64 {
        let slots = i128::from(self.warp_instr) + i128::from(self.smem_wavefronts)
            - i128::from(self.smem_instr);
        slots as f64
    }
}

/// Which side of the roofline a kernel sits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// DRAM traffic takes at least as long as issuing instructions (also on a tie).
    Memory,
    /// Issuing instructions takes longer.
    Issue,
    /// The L1/shared-memory data pipe's wavefronts (shared-memory passes and the 128-byte lines
    /// of global requests) take longest (refined estimate only).
    L1,
    /// Moving the L2's sectors takes longest (refined estimate with the cache model only).
    L2,
    /// The FP32 pipe's warp instructions take longest (refined estimate only).
    Fp32,
    /// The FP64 pipe's (refined estimate only).
    Fp64,
    /// The special-function unit's (refined estimate only).
    Sfu,
    /// The tensor cores' multiply-adds take longest (refined estimate only).
    Tensor,
}

impl Bound {
    /// `"memory"` or `"issue"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Issue => "issue",
            Bound::L1 => "l1",
            Bound::L2 => "l2",
            Bound::Fp32 => "fp32",
            Bound::Fp64 => "fp64",
            Bound::Sfu => "sfu",
            Bound::Tensor => "tensor",
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The reference's time estimate (seconds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TimeEstimate {
    /// `dram_bytes / mem_bw`.
    pub t_mem: f64,
    /// `(warp_instr + smem_wavefronts − smem_instr) / (n_sm × schedulers_per_sm × clock_hz)`.
    pub t_issue: f64,
    /// `max(t_mem, t_issue) + launch_overhead_s`.
    pub t: f64,
    /// `memory` when `t_mem ≥ t_issue`, else `issue`.
    pub bound: Bound,
}

/// The reference's `estimate_time`, kept exactly: a roofline lower bound plus launch overhead.
///
/// `t_mem = dram_bytes / mem_bw`;
/// `t_issue = (warp_instr + smem_wavefronts − smem_instr) / (n_sm × schedulers_per_sm × clock_hz)`;
/// `t = max(t_mem, t_issue) + launch_overhead_s`; `bound` is `memory` on a tie.
/// Ignores caches, latency hiding, occupancy and tensor cores.
pub fn estimate_time(gpu: &GpuConfig, inputs: &TimeInputs) -> TimeEstimate {
    let t_mem = inputs.dram_bytes as f64 / gpu.mem_bw;
    let issue_rate = f64::from(gpu.n_sm) * f64::from(gpu.schedulers_per_sm) * gpu.clock_hz;
    let t_issue = inputs.issue_slots() / issue_rate;
    TimeEstimate {
        t_mem,
        t_issue,
        t: t_mem.max(t_issue) + gpu.launch_overhead_s,
        bound: if t_mem >= t_issue {
            Bound::Memory
        } else {
            Bound::Issue
        },
    }
}

/// The launch facts the refined estimate needs besides the counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefinedInputs {
    /// Blocks in the grid.
    pub n_blocks: u64,
    /// Block shape and resources, for the occupancy calculator.
    pub request: OccupancyRequest,
    /// Global-memory warp instructions (`gld_instr + gst_instr`); with the DRAM bytes this gives
    /// the bytes one warp request moves.
    pub mem_requests: u64,
    /// Global-memory load warp instructions (`gld_instr`), of `mem_requests`.
    pub load_requests: u64,
    /// DRAM latency rounds on the warps' critical paths, summed over warps (`exec::rounds`): a
    /// warp issues the independent loads of a scheduling region together and stalls at the first
    /// use of one; a store does not stall it. With `mem_requests` this gives the requests each
    /// warp keeps in flight (memory-level parallelism).
    pub latency_rounds: u64,
    /// L1 data-pipe wavefronts of global requests (one per 128-byte line a request touches).
    pub global_wavefronts: u64,
    /// Warp instructions per arithmetic pipe.
    pub pipes: PipeInstr,
    /// What the L1/L2 model let through, when the launch ran with it; without it every sector
    /// counts as DRAM traffic and the L2 is no bound.
    pub caches: Option<CacheTraffic>,
}

/// The compiled instruction mix: warp instructions that occupy each arithmetic pipe (each also
/// takes an issue slot), and those the compiler folds away (they take none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PipeInstr {
    /// FP32 add, multiply, fma, min/max, rounding.
    pub fp32: u64,
    /// Double-precision arithmetic, comparisons and math functions.
    pub fp64: u64,
    /// Single-precision division and transcendental functions.
    pub sfu: u64,
    /// Tensor-core multiply-adds of `mma_sync`, in dense FP16 multiply-adds: `m·n·k` per warp for
    /// half and bfloat16 inputs, twice that for tf32 and sixteen times for double (their rates
    /// are 1/2 and 1/16 of FP16's), half for 8-bit integers (twice the rate) — `docs/gpu-facts.md`
    /// §6.7.
    pub tensor: u64,
    /// Counted in `warp_instr` but absent from the compiled kernel: the loop control and
    /// constant arithmetic of unrolled loops, hoisted invariants, register-array accesses and
    /// multiplies contracted into FMAs (`KernelIr::folded`).
    pub folded: u64,
    /// Issue slots beyond one that instructions compiling to a sequence take: an integer division
    /// or modulo by a run-time value is [`crate::ir::DIVISION_SEQUENCE`] machine instructions.
    pub sequences: u64,
}

impl PipeInstr {
    /// The warp instructions the compiled kernel issues, of the source's `warp_instr`.
    pub fn compiled(&self, warp_instr: u64) -> u64 {
        warp_instr - self.folded.min(warp_instr) + self.sequences
    }
}

/// The traffic the cache model found beyond the L1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheTraffic {
    /// Bytes read from and written to DRAM.
    pub dram_bytes: u64,
    /// Bytes the L2 served (reads, writes and atomics, 32 per sector).
    pub l2_bytes: u64,
}

/// One unit's time and how busy it keeps the unit over the kernel's duration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct UnitTime {
    /// The unit: `memory` (DRAM), `l2`, `l1` (the L1/shared-memory data pipe), `issue`, `fp32`,
    /// `fp64`, `sfu` or `tensor`.
    pub unit: Bound,
    /// Seconds the unit needs for the kernel's work at its rate.
    pub t: f64,
    /// `t / duration`: the fraction of the kernel the unit is busy (ncu's "Speed Of Light"
    /// percentage of peak throughput, as a fraction).
    pub utilisation: f64,
}

/// What limited the memory time of the first wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MemoryLimit {
    /// The resident warps keep enough bytes in flight to reach the achievable bandwidth.
    Bandwidth,
    /// Too few bytes in flight: Little's law caps the bandwidth below the achievable one.
    Latency,
}

/// The refined time estimate and the numbers behind it (seconds, bytes/s).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RefinedTime {
    /// The occupancy calculator's result for the launch.
    pub occupancy: Occupancy,
    /// How the grid fills the GPU.
    pub waves: Waves,
    /// `ACHIEVABLE_BW_FRACTION × mem_bw`.
    pub achievable_bw: f64,
    /// DRAM bytes per global request: the bytes DRAM moves (what the L1/L2 model lets through,
    /// or without it every sector) over `mem_requests` (0 when there are no requests): what one
    /// request has in flight on its way to or from DRAM.
    pub bytes_per_request: f64,
    /// Global requests each warp keeps in flight: `mem_requests / latency_rounds` (0 when no
    /// load waits, and no latency is then to hide).
    pub requests_in_flight_per_warp: f64,
    /// Global loads each warp keeps in flight: `load_requests / latency_rounds` (4 for four
    /// independent loads before their first use, 1 for a chain of dependent loads).
    pub loads_in_flight_per_warp: f64,
    /// DRAM latency rounds per warp: `latency_rounds` over the warps of the grid.
    pub latency_rounds_per_warp: f64,
    /// Latency hiding of the first wave (per SM, reference `latency_hiding`).
    pub latency_hiding: LatencyHiding,
    /// `dram_bytes / t_mem` (0 without DRAM traffic).
    pub effective_bw: f64,
    /// `effective_bw` as a percentage of the GPU's peak `mem_bw`.
    pub effective_bw_pct: f64,
    /// Time the DRAM traffic takes, summed over waves.
    pub t_mem: f64,
    /// Time issuing the instructions takes, summed over waves.
    pub t_issue: f64,
    /// The warp instructions the compiled kernel issues, which `t_issue` counts: `warp_instr`
    /// less what the compiler folds away (see the assumptions).
    pub compiled_warp_instr: u64,
    /// Time the L1/shared data pipe spends on the shared-memory wavefronts, summed over waves.
    pub t_smem: f64,
    /// Time the L1/shared data pipe takes for all its wavefronts, shared and global, summed over
    /// waves (`t_smem` is its shared part).
    pub t_l1: f64,
    /// Time the FP32 pipe takes, summed over waves.
    pub t_fp32: f64,
    /// Time the FP64 pipe takes, summed over waves.
    pub t_fp64: f64,
    /// Time the special-function unit takes, summed over waves.
    pub t_sfu: f64,
    /// Time the tensor cores take for the `mma_sync` multiply-adds, summed over waves.
    pub t_tensor: f64,
    /// Time the L2 takes to serve its sectors at its bandwidth (0 without the cache model or
    /// without a published L2 bandwidth for the GPU).
    pub t_l2: f64,
    /// The kernel's duration: the largest of `t_mem`, `t_l2`, `t_l1`, `t_issue`, `t_fp32`,
    /// `t_fp64`, `t_sfu`, `t_tensor`. Launch overhead is not in it
    /// (Nsight Compute's Duration excludes it too).
    pub t: f64,
    /// The host's cost of launching the kernel, seconds: beside `t`, not in it.
    pub launch_overhead: f64,
    /// The largest: `memory` (on a tie too), then `l2`, `l1`, `issue`, `fp32`, `fp64`, `sfu`,
    /// `tensor`.
    pub bound: Bound,
    /// Each unit's time and utilisation, in the order memory, l2, l1, issue, fp32, fp64, sfu,
    /// tensor.
    pub units: Vec<UnitTime>,
    /// Whether the first wave's memory time is set by bandwidth or by latency.
    pub memory_limit: MemoryLimit,
    /// The model's assumptions, in words, with this launch's numbers.
    pub assumptions: Vec<String>,
}

/// A refined estimate that accounts for occupancy, waves, achievable bandwidth and latency hiding.
///
/// `dram_bytes` is what the L1/L2 model let through to DRAM (`launch.caches`), or without it
/// every counted sector (`inputs.dram_bytes`). Let `bps` be the occupancy calculator's blocks
/// per SM, `W` warps per block, `cap = n_sm × bps` the blocks per wave, and assume every block
/// does the same work: `B = dram_bytes / n_blocks` bytes and `I = (warp_instr + smem_wavefronts − smem_instr) / n_blocks`
/// issue slots. The grid runs as `n_blocks / cap` full waves of `cap` blocks plus, if
/// `n_blocks % cap ≠ 0`, one partial wave. For a wave of `m` blocks:
///
/// * resident warps per SM `a = m × W / n_sm`; `f = latency_hiding(a, bytes_per_request,
///   requests_in_flight_per_warp).fraction` (Little's law, reference model), where
///   `bytes_per_request = dram_bytes / mem_requests`, the DRAM bytes a request has in flight, and
///   `requests_in_flight_per_warp = mem_requests / latency_rounds`, from the kernel's own
///   dependences (`exec::rounds`): four independent loads before their first use are four
///   requests in flight, a chain of dependent loads one, and stores never stall a warp. Their
///   product is the DRAM bytes a warp moves per latency, so a request's scattered sectors add
///   bytes in flight only where DRAM moves them. `f = 1` when no load waits;
/// * bandwidth `bw = mem_bw × min(ACHIEVABLE_BW_FRACTION, f)`;
/// * `t_mem(m) = max(m × B / bw, mem_latency_s)` if `B > 0`, else 0;
/// * `t_issue(m) = m × I / (min(m × W, n_sm × schedulers_per_sm) × clock_hz)` — a scheduler
///   issues at most one warp instruction per cycle and only schedulers with a resident warp issue;
/// * `t_l1(m) = m × (S + G) / (min(m, n_sm) × clock_hz)` with `S = smem_wavefronts / n_blocks`
///   and `G = global_wavefronts / n_blocks` — an SM's L1/shared data pipe passes one wavefront
///   (128 bytes) per cycle (`docs/gpu-facts.md` §3.1, §3.2, §6.3), shared-memory passes and the
///   lines of global requests alike, and only SMs with a resident block use theirs; `t_smem` is
///   the `S` part. Bank conflicts add wavefronts and a scattered warp request touches a line per
///   lane, so both cost time here even when the kernel's DRAM traffic is the same;
/// * `t_pipe(m) = m × P / (min(m, n_sm) × lanes / 32 × clock_hz)` for the FP32, FP64 and
///   special-function pipes, `P` the pipe's warp instructions per block and `lanes` its results
///   per clock per SM (`docs/gpu-facts.md` §6.4): an FP64 kernel on a GPU with 2 FP64 lanes per
///   SM takes 64 times as long as on one with 128;
/// * `t_tensor(m) = m × T / (min(m, n_sm) × tensor_fma_per_sm × clock_hz)` with `T` the block's
///   tensor multiply-adds in dense FP16 multiply-adds (`PipeInstr::tensor`): a warp's 16×16×16
///   half `mma_sync` is 4096, 4 clocks of an A100 SM's 1024 (`docs/gpu-facts.md` §6.7).
///
/// The three are summed over the waves. The L2 is one unit for the whole GPU: `t_l2 = l2_bytes /
/// (l2_bytes_per_clk × clock_hz)` with the cache model's L2 traffic (0 without the model or a
/// published L2 bandwidth). `t`, the largest unit time, is the kernel's duration;
/// the launch overhead is reported beside it, not added. `bound` names the largest (`memory` on a
/// tie, then in the order of `units`), and `units` each unit's utilisation `t_unit / t`. Without the cache
/// model, with full waves and enough bytes in flight, `t` is the reference estimate's memory time
/// with the bandwidth scaled by 0.90. Errors when the GPU description is
/// invalid or no block fits on an SM.
pub fn refined_time(
    gpu: &GpuConfig,
    inputs: &TimeInputs,
    launch: &RefinedInputs,
) -> Result<RefinedTime, String> {
    gpu.validate()
        .map_err(|e| format!("invalid GPU description `{}`: {e}", gpu.name))?;
    let occ = occupancy(gpu, &launch.request);
    if occ.blocks_per_sm == 0 {
        let reason = occ
            .cannot_launch
            .as_deref()
            .unwrap_or("no block fits on an SM");
        return Err(format!("the kernel cannot launch: {reason}"));
    }
    let wv = waves(gpu, launch.n_blocks, occ.blocks_per_sm);
    let n_sm = f64::from(gpu.n_sm);
    let warps_per_block = f64::from(occ.warps_per_block);
    let cap = u64::from(gpu.n_sm) * u64::from(occ.blocks_per_sm);
    let achievable_bw = ACHIEVABLE_BW_FRACTION * gpu.mem_bw;
    let dram = launch.caches.map_or(inputs.dram_bytes, |c| c.dram_bytes) as f64;
    let per_request = |n: u64| {
        if launch.mem_requests > 0 {
            n as f64 / launch.mem_requests as f64
        } else {
            0.0
        }
    };
    let bytes_per_request = per_request(dram as u64);
    let per_round = |n: u64| {
        if launch.latency_rounds > 0 {
            n as f64 / launch.latency_rounds as f64
        } else {
            0.0
        }
    };
    let mlp = per_round(launch.mem_requests);
    let loads_in_flight = per_round(launch.load_requests);
    let grid_warps = launch.n_blocks as f64 * warps_per_block;
    let rounds_per_warp = if grid_warps > 0.0 {
        launch.latency_rounds as f64 / grid_warps
    } else {
        0.0
    };
    let (bytes_per_block, slots_per_block) = if launch.n_blocks > 0 {
        let n = launch.n_blocks as f64;
        (
            dram / n,
            (inputs.issue_slots() - launch.pipes.folded as f64 + launch.pipes.sequences as f64) / n,
        )
    } else {
        (0.0, 0.0)
    };
    let schedulers = n_sm * f64::from(gpu.schedulers_per_sm);

    let hiding = |m: f64| {
        let lh = latency_hiding(gpu, m * warps_per_block / n_sm, bytes_per_request, mlp);
        if launch.mem_requests == 0 || launch.latency_rounds == 0 {
            // No request count to apply Little's law to, or no load that a warp waits for: take
            // the latency as hidden.
            LatencyHiding {
                fraction: 1.0,
                ..lh
            }
        } else {
            lh
        }
    };
    let wave_mem = |m: f64| {
        let bytes = m * bytes_per_block;
        if bytes > 0.0 {
            let bw = gpu.mem_bw * ACHIEVABLE_BW_FRACTION.min(hiding(m).fraction);
            (bytes / bw).max(gpu.mem_latency_s)
        } else {
            0.0
        }
    };
    let smem_per_block = if launch.n_blocks > 0 {
        inputs.smem_wavefronts as f64 / launch.n_blocks as f64
    } else {
        0.0
    };
    let global_per_block = if launch.n_blocks > 0 {
        launch.global_wavefronts as f64 / launch.n_blocks as f64
    } else {
        0.0
    };
    let wave_smem = |m: f64| m * smem_per_block / (m.min(n_sm) * gpu.clock_hz);
    let wave_l1 = |m: f64| m * (smem_per_block + global_per_block) / (m.min(n_sm) * gpu.clock_hz);
    let per_block = |n: u64| {
        if launch.n_blocks > 0 {
            n as f64 / launch.n_blocks as f64
        } else {
            0.0
        }
    };
    // A pipe that passes `per_clock` of its operations a clock on each SM with a resident block;
    // one of `lanes` results per clock passes `lanes / 32` warp instructions.
    let wave_pipe = |m: f64, n: u64, per_clock: f64| {
        m * per_block(n) / (m.min(n_sm) * per_clock * gpu.clock_hz)
    };
    let warps_per_clock = |lanes: u32| f64::from(lanes) / 32.0;
    let p = launch.pipes;
    let wave_pipes = |m: f64| {
        [
            wave_pipe(m, p.fp32, warps_per_clock(gpu.fp32_lanes_per_sm)),
            wave_pipe(m, p.fp64, warps_per_clock(gpu.fp64_lanes_per_sm)),
            wave_pipe(m, p.sfu, warps_per_clock(gpu.sfu_lanes_per_sm)),
            wave_pipe(m, p.tensor, f64::from(gpu.tensor_fma_per_sm)),
        ]
    };
    let wave_issue = |m: f64| {
        let slots = m * slots_per_block;
        if slots > 0.0 {
            slots / ((m * warps_per_block).min(schedulers) * gpu.clock_hz)
        } else {
            0.0
        }
    };

    let full = launch.n_blocks.checked_div(cap).unwrap_or(0);
    let rem = launch.n_blocks.checked_rem(cap).unwrap_or(0);
    let (cap_f, full_f, rem_f) = (cap as f64, full as f64, rem as f64);
    let mut t_mem = full_f * wave_mem(cap_f);
    let mut t_issue = full_f * wave_issue(cap_f);
    let mut t_smem = full_f * wave_smem(cap_f);
    let mut t_l1 = full_f * wave_l1(cap_f);
    let mut t_pipes = wave_pipes(cap_f).map(|t| full_f * t);
    if rem > 0 {
        for (t, w) in t_pipes.iter_mut().zip(wave_pipes(rem_f)) {
            *t += w;
        }
        t_mem += wave_mem(rem_f);
        t_issue += wave_issue(rem_f);
        t_smem += wave_smem(rem_f);
        t_l1 += wave_l1(rem_f);
    }
    let first_wave = launch.n_blocks.min(cap) as f64;
    let first_hiding = hiding(first_wave);
    let memory_limit = if first_hiding.fraction >= ACHIEVABLE_BW_FRACTION {
        MemoryLimit::Bandwidth
    } else {
        MemoryLimit::Latency
    };
    let effective_bw = if t_mem > 0.0 { dram / t_mem } else { 0.0 };
    let l2_bw = gpu.l2_bytes_per_clk.map(|b| b * gpu.clock_hz);
    let t_l2 = match (launch.caches, l2_bw) {
        (Some(c), Some(bw)) => c.l2_bytes as f64 / bw,
        _ => 0.0,
    };
    let [t_fp32, t_fp64, t_sfu, t_tensor] = t_pipes;
    let unit_times = [
        (Bound::Memory, t_mem),
        (Bound::L2, t_l2),
        (Bound::L1, t_l1),
        (Bound::Issue, t_issue),
        (Bound::Fp32, t_fp32),
        (Bound::Fp64, t_fp64),
        (Bound::Sfu, t_sfu),
        (Bound::Tensor, t_tensor),
    ];
    let t = unit_times.iter().fold(0.0f64, |t, &(_, u)| t.max(u));
    // The first unit that takes the longest: `memory` on a tie.
    let bound = unit_times
        .iter()
        .find(|&&(_, u)| u >= t)
        .map_or(Bound::Memory, |&(b, _)| b);
    let units = unit_times
        .into_iter()
        .map(|(unit, tu)| UnitTime {
            unit,
            t: tu,
            utilisation: if t > 0.0 { tu / t } else { 0.0 },
        })
        .collect();
    let traffic = match launch.caches {
        Some(c) => format!(
            "DRAM moves what the L1/L2 model lets through: {} bytes read and written, of {} bytes of sectors requested",
            c.dram_bytes, inputs.dram_bytes
        ),
        None => "no L1/L2 reuse: every counted sector moves between DRAM and the SMs".to_string(),
    };
    let l2_line = match (launch.caches, l2_bw) {
        (Some(c), Some(bw)) => format!(
            "the L2 serves {} bytes at {} bytes/clock = {:.0} GB/s (docs/gpu-facts.md §6.3)",
            c.l2_bytes,
            gpu.l2_bytes_per_clk.unwrap_or_default(),
            bw / 1e9
        ),
        (Some(_), None) => format!(
            "no published L2 bandwidth for {}: the L2 is not a bound",
            gpu.name
        ),
        (None, _) => "no cache model: the L2 is not a bound".to_string(),
    };

    let compiled_warp_instr = launch.pipes.compiled(inputs.warp_instr);
    let mut assumptions = vec![
        format!(
            "achievable DRAM bandwidth is {ACHIEVABLE_BW_FRACTION:.2} × peak = {:.1} GB/s (82–92 % measured, docs/gpu-facts.md §6.2)",
            achievable_bw / 1e9
        ),
        traffic,
        l2_line,
        format!(
            "every block does the same work: {bytes_per_block:.1} DRAM bytes and {slots_per_block:.1} issue slots"
        ),
        format!(
            "blocks run in waves of {} SMs × {} blocks = {cap}; {full} full wave(s) and {} partial",
            gpu.n_sm,
            occ.blocks_per_sm,
            u64::from(rem > 0)
        ),
        format!(
            "Little's law per wave: bandwidth ≤ resident warps × {mlp:.2} request(s) in flight × {bytes_per_request:.1} DRAM bytes / {:.0} ns latency; a warp keeps {loads_in_flight:.2} load(s) in flight: it issues the independent loads of a region together (unrolled loops are one region) and stalls at the first use of one, {rounds_per_warp:.2} latency round(s) per warp; a store does not stall it",
            gpu.mem_latency_s * 1e9
        ),
        format!(
            "a wave with DRAM traffic lasts at least one DRAM latency ({:.0} ns)",
            gpu.mem_latency_s * 1e9
        ),
        "each scheduler issues at most one warp instruction per cycle; schedulers without a resident warp idle".to_string(),
        format!(
            "the compiled kernel issues {} of the source's {} warp instructions: nvcc unrolls loops with constant bounds, folds their control and index arithmetic, hoists what they do not change, keeps register arrays in registers and contracts multiply-adds into FMAs; an integer division or modulo by a value known only at run time is {} instructions (docs/gpu-facts.md §6.5)",
            compiled_warp_instr, inputs.warp_instr, crate::ir::DIVISION_SEQUENCE
        ),
        format!(
            "each SM's FP32, FP64 and special-function pipes pass {}, {} and {} results per clock (docs/gpu-facts.md §6.4)",
            gpu.fp32_lanes_per_sm, gpu.fp64_lanes_per_sm, gpu.sfu_lanes_per_sm
        ),
        format!(
            "each SM's tensor cores do {} dense FP16 multiply-adds per clock with FP32 accumulation; tf32 at half that, 8-bit integers at twice, double at 1/16; a half accumulator is no faster (docs/gpu-facts.md §6.7)",
            gpu.tensor_fma_per_sm
        ),
        "each SM's L1/shared data pipe passes one wavefront (128 B) per cycle: a shared-memory pass or one 128-byte line of a global request, so bank conflicts and scattered accesses take time (docs/gpu-facts.md §3.1, §6.3)".to_string(),
        format!(
            "launch overhead {:.1} µs is reported beside the kernel's time, not in it",
            gpu.launch_overhead_s * 1e6
        ),
    ];
    if launch.mem_requests == 0 && inputs.dram_bytes > 0 {
        assumptions.push(
            "no global-memory request count was given: latency is taken as hidden".to_string(),
        );
    } else if launch.mem_requests > 0 && launch.latency_rounds == 0 {
        assumptions.push(
            "no warp waits for a global load (stores only): latency is taken as hidden".to_string(),
        );
    }

    Ok(RefinedTime {
        occupancy: occ,
        waves: wv,
        achievable_bw,
        bytes_per_request,
        requests_in_flight_per_warp: mlp,
        loads_in_flight_per_warp: loads_in_flight,
        latency_rounds_per_warp: rounds_per_warp,
        latency_hiding: first_hiding,
        effective_bw,
        effective_bw_pct: effective_bw / gpu.mem_bw * 100.0,
        t_mem,
        t_issue,
        compiled_warp_instr,
        t_smem,
        t_l1,
        t_fp32,
        t_fp64,
        t_sfu,
        t_tensor,
        t_l2,
        t,
        launch_overhead: gpu.launch_overhead_s,
        bound,
        units,
        memory_limit,
        assumptions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's vector add: 1000 floats, 4 blocks × 256 threads. Each of the 32 warps
    /// issues load, load, add, store (128 warp instructions); a, b and c are 125 sectors each:
    /// gld 250 + gst 125 = 375 sectors × 32 B = 12000 bytes.
    fn vecadd() -> TimeInputs {
        TimeInputs {
            dram_bytes: (250 + 125) * 32,
            warp_instr: 128,
            smem_instr: 0,
            smem_wavefronts: 0,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
    }

    #[test]
    fn estimate_time_matches_the_reference_on_vecadd() {
        let e = estimate_time(&GpuConfig::h100_sxm(), &vecadd());
        assert_eq!(vecadd().dram_bytes, 12000);
        // Python: 12000 / 3.35e12, 128 / (132 * 4 * 1.98e9), max(...) + 4e-6
        assert_eq!(e.t_mem, 12000.0 / 3.35e12);
        assert_eq!(e.t_mem, 3.582089552238806e-09);
        assert_eq!(e.t_issue, 1.224364860728497e-10);
        assert_eq!(e.t, 4.003582089552239e-06);
        assert_eq!(e.bound, Bound::Memory);
    }

    #[test]
    fn estimate_time_counts_bank_conflict_wavefronts() {
        let inputs = TimeInputs {
            smem_instr: 10,
            smem_wavefronts: 40,
            ..vecadd()
        };
        // (128 + 40 − 10) / (132 × 4 × 1.98e9)
        let e = estimate_time(&GpuConfig::h100_sxm(), &inputs);
        assert_eq!(e.t_issue, 1.5113253749617386e-10);
    }

    #[test]
    fn estimate_time_says_memory_on_a_tie_and_issue_otherwise() {
        let unit = GpuConfig {
            n_sm: 1,
            schedulers_per_sm: 1,
            clock_hz: 1.0,
            mem_bw: 1.0,
            launch_overhead_s: 0.0,
            ..GpuConfig::h100_sxm()
        };
        let tie = TimeInputs {
            dram_bytes: 10,
            warp_instr: 10,
            ..TimeInputs::default()
        };
        let e = estimate_time(&unit, &tie);
        assert_eq!((e.t_mem, e.t_issue, e.t), (10.0, 10.0, 10.0));
        assert_eq!(e.bound, Bound::Memory);
        let issue = TimeInputs {
            warp_instr: 11,
            ..tie
        };
        assert_eq!(estimate_time(&unit, &issue).bound, Bound::Issue);
        let empty = estimate_time(&GpuConfig::h100_sxm(), &TimeInputs::default());
        assert_eq!((empty.t_mem, empty.t_issue, empty.t), (0.0, 0.0, 4e-6));
        assert_eq!(empty.bound, Bound::Memory);
    }

    #[test]
    fn estimate_time_uses_the_gpu_numbers() {
        let e = estimate_time(&GpuConfig::a100_sxm(), &vecadd());
        assert_eq!(e.t_mem, 12000.0 / 2.039e12);
        assert_eq!(e.t_issue, 128.0 / (108.0 * 4.0 * 1.41e9));
        let json = serde_json::to_value(e).expect("serialise");
        assert_eq!(json["bound"], "memory");
        assert_eq!(Bound::Issue.to_string(), "issue");
    }

    /// A streaming kernel on the H100: `n_blocks` blocks of 256 threads, 3 × 4 bytes and
    /// 4 warp instructions (3 of them 128-byte memory requests) per thread-warp.
    fn stream(n_blocks: u64, mlp: f64) -> (TimeInputs, RefinedInputs) {
        let warps = n_blocks * 8;
        let inputs = TimeInputs {
            dram_bytes: n_blocks * 256 * 12,
            warp_instr: warps * 4,
            smem_instr: 0,
            smem_wavefronts: 0,
        };
        let launch = RefinedInputs {
            n_blocks,
            request: OccupancyRequest::new(256, 16, 0),
            mem_requests: warps * 3,
            load_requests: warps * 2,
            // Each warp's 3 requests take `3 / mlp` latency rounds.
            latency_rounds: (warps as f64 * 3.0 / mlp).round() as u64,
            global_wavefronts: 0,
            pipes: PipeInstr::default(),
            caches: None,
        };
        (inputs, launch)
    }

    #[test]
    fn refined_full_waves_with_enough_requests_in_flight_run_at_90_percent() {
        let h100 = GpuConfig::h100_sxm();
        // 256 thr, 16 regs → 8 blocks per SM (warps); 132 × 8 = 1056 blocks per wave; 10 waves.
        let (inputs, launch) = stream(10 * 1056, 4.0);
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert_eq!(r.occupancy.blocks_per_sm, 8);
        assert_eq!(r.waves.waves, 10);
        assert_eq!(r.bytes_per_request, 128.0);
        // 64 warps × 4 × 128 B = 32768 B in flight > 12689 B needed.
        assert_eq!(r.latency_hiding.fraction, 1.0);
        assert_eq!(r.memory_limit, MemoryLimit::Bandwidth);
        assert_eq!(r.achievable_bw, 0.9 * 3.35e12);
        let reference = estimate_time(&h100, &inputs);
        assert!(
            close(r.t_mem, reference.t_mem / 0.9),
            "{} vs {}",
            r.t_mem,
            reference.t_mem
        );
        assert!(close(r.effective_bw, 0.9 * 3.35e12));
        // All 528 schedulers busy in every wave: same issue time as the reference.
        assert!(close(r.t_issue, reference.t_issue));
        assert_eq!(r.bound, Bound::Memory);
        assert_eq!(r.t, r.t_mem);
        assert_eq!(r.launch_overhead, 4e-6);
    }

    #[test]
    fn refined_shared_wavefronts_take_one_cycle_each_per_sm() {
        let h100 = GpuConfig::h100_sxm();
        // 10 full waves of 1056 blocks, no DRAM traffic, 8 issue slots per block; each block
        // has 16 shared instructions of 32 wavefronts (a 32-way conflict): 512 wavefronts.
        // Per wave 1056 × 512 wavefronts over 132 SMs at one per cycle: 4096 cycles; ten waves
        // 40960 cycles / 1.98 GHz = 20.687 µs; issue is 1056 × (24 + 496) slots / 528 schedulers
        // = 1040 cycles a wave. The same accesses without conflicts (16 wavefronts per block)
        // take 1/32 of the shared time: 128 cycles a wave, still above issue's 48.
        let launch = RefinedInputs {
            n_blocks: 10 * 1056,
            request: OccupancyRequest::new(256, 16, 0),
            mem_requests: 0,
            load_requests: 0,
            latency_rounds: 0,
            global_wavefronts: 0,
            pipes: PipeInstr::default(),
            caches: None,
        };
        let conflicted = TimeInputs {
            dram_bytes: 0,
            warp_instr: 10 * 1056 * 24,
            smem_instr: 10 * 1056 * 16,
            smem_wavefronts: 10 * 1056 * 512,
        };
        let r = refined_time(&h100, &conflicted, &launch).expect("launches");
        assert!(close(r.t_smem, 40960.0 / 1.98e9), "{}", r.t_smem);
        assert_eq!(r.bound, Bound::L1);
        assert!(close(r.t, r.t_smem));
        assert_eq!(r.t_l1, r.t_smem);
        let clean = TimeInputs {
            smem_wavefronts: 10 * 1056 * 16,
            ..conflicted
        };
        let c = refined_time(&h100, &clean, &launch).expect("launches");
        assert!(close(c.t_smem, r.t_smem / 32.0));
        assert!(close(c.t_issue, 10.0 * 48.0 / 1.98e9));
        assert!(c.t < r.t);
    }

    #[test]
    fn refined_fp64_pipe_runs_at_its_lanes_per_clock() {
        // 10 full waves of 1056 blocks (256 threads, 16 registers, 8 blocks per SM), each block
        // 8000 warp instructions, all FP64. Issue: 1056 × 8000 / 528 schedulers = 16000 cycles a
        // wave. FP64 on an H100 (64 lanes = 2 warp instructions per clock per SM): 1056 × 8000 /
        // (132 × 2) = 32000 cycles a wave, the bound; ten waves 320000 cycles / 1.98 GHz. With 2
        // FP64 lanes (a consumer part) it is 32 times as long.
        let h100 = GpuConfig::h100_sxm();
        let n = 10 * 1056;
        let inputs = TimeInputs {
            warp_instr: n * 8000,
            ..TimeInputs::default()
        };
        let launch = RefinedInputs {
            n_blocks: n,
            request: OccupancyRequest::new(256, 16, 0),
            mem_requests: 0,
            load_requests: 0,
            latency_rounds: 0,
            global_wavefronts: 0,
            pipes: PipeInstr {
                fp64: n * 8000,
                ..PipeInstr::default()
            },
            caches: None,
        };
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert!(close(r.t_fp64, 320000.0 / 1.98e9), "{}", r.t_fp64);
        assert!(close(r.t_issue, 160000.0 / 1.98e9), "{}", r.t_issue);
        assert_eq!(r.bound, Bound::Fp64);
        assert_eq!(r.t, r.t_fp64);
        let fp64 = r
            .units
            .iter()
            .find(|u| u.unit == Bound::Fp64)
            .expect("fp64 unit");
        assert_eq!(fp64.utilisation, 1.0);
        let slow = GpuConfig {
            fp64_lanes_per_sm: 2,
            ..GpuConfig::h100_sxm()
        };
        let s = refined_time(&slow, &inputs, &launch).expect("launches");
        assert!(close(s.t_fp64, 32.0 * r.t_fp64));
    }

    #[test]
    fn refined_tensor_cores_do_their_fp16_multiply_adds_per_clock() {
        // 108 blocks of 4 warps (128 threads, 16 registers: 16 blocks per SM, so one partial
        // wave), each warp 100 half 16×16×16 mma_syncs: 4 × 100 × 4096 = 1 638 400 FP16
        // multiply-adds and 400 warp instructions per block.
        // A100 (1024 a clock per SM, 108 SMs, 1.41 GHz): one block per SM, 1600 cycles; issue is
        // 108 × 400 slots on 432 schedulers = 100 cycles. Bound: tensor.
        // H100 (2048, 132 SMs): 108 SMs busy, 800 cycles at 1.98 GHz.
        // V100 (512, 80 SMs): 108 × 1 638 400 / (80 × 512) = 4320 cycles at 1.53 GHz.
        let n = 108;
        let inputs = TimeInputs {
            warp_instr: n * 400,
            ..TimeInputs::default()
        };
        let launch = RefinedInputs {
            n_blocks: n,
            request: OccupancyRequest::new(128, 16, 0),
            mem_requests: 0,
            load_requests: 0,
            latency_rounds: 0,
            global_wavefronts: 0,
            pipes: PipeInstr {
                tensor: n * 1_638_400,
                ..PipeInstr::default()
            },
            caches: None,
        };
        let a100 = refined_time(&GpuConfig::a100_sxm(), &inputs, &launch).expect("launches");
        assert!(close(a100.t_tensor, 1600.0 / 1.41e9), "{}", a100.t_tensor);
        assert!(close(a100.t_issue, 100.0 / 1.41e9), "{}", a100.t_issue);
        assert_eq!(a100.bound, Bound::Tensor);
        assert_eq!(a100.t, a100.t_tensor);
        let unit = a100.units.last().expect("units");
        assert_eq!((unit.unit, unit.utilisation), (Bound::Tensor, 1.0));
        let h100 = refined_time(&GpuConfig::h100_sxm(), &inputs, &launch).expect("launches");
        assert!(close(h100.t_tensor, 800.0 / 1.98e9), "{}", h100.t_tensor);
        let v100 = refined_time(&GpuConfig::v100(), &inputs, &launch).expect("launches");
        assert!(close(v100.t_tensor, 4320.0 / 1.53e9), "{}", v100.t_tensor);
        assert_eq!(Bound::Tensor.to_string(), "tensor");
    }

    #[test]
    fn refined_too_few_bytes_in_flight_is_latency_bound() {
        let h100 = GpuConfig::h100_sxm();
        let (inputs, launch) = stream(10 * 1056, 1.0);
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        // 64 warps × 1 × 128 B = 8192 B in flight; need 3.35e12 / 132 × 500 ns.
        let f = 8192.0 / (3.35e12 / 132.0 * 500e-9);
        assert_eq!(r.latency_hiding.fraction, f);
        assert_eq!(r.memory_limit, MemoryLimit::Latency);
        assert!(close(r.t_mem, inputs.dram_bytes as f64 / (f * 3.35e12)));
    }

    #[test]
    fn refined_bytes_in_flight_are_what_dram_moves_not_the_sectors_requested() {
        // Two launches whose DRAM moves the same bytes after the L1/L2 model, one requesting
        // 4.5 times the sectors (a transpose's scattered stores, merged in the L2). Little's law
        // sees the same DRAM bytes per latency round in both: 1056 blocks × 256 × 12 B over
        // 1056 × 8 × 3 requests = 128 B a request, 4 requests in flight per warp (mlp 4).
        let h100 = GpuConfig::h100_sxm();
        let (inputs, mut launch) = stream(1056, 4.0);
        launch.caches = Some(CacheTraffic {
            dram_bytes: inputs.dram_bytes,
            l2_bytes: inputs.dram_bytes,
        });
        let coalesced = refined_time(&h100, &inputs, &launch).expect("launches");
        let scattered_inputs = TimeInputs {
            dram_bytes: inputs.dram_bytes * 9 / 2,
            ..inputs
        };
        let scattered = refined_time(&h100, &scattered_inputs, &launch).expect("launches");
        assert_eq!(coalesced.bytes_per_request, 128.0);
        assert_eq!(scattered.bytes_per_request, 128.0);
        assert_eq!(scattered.requests_in_flight_per_warp, 4.0);
        assert_eq!(scattered.latency_hiding, coalesced.latency_hiding);
        assert_eq!(scattered.t_mem, coalesced.t_mem);
    }

    #[test]
    fn refined_tail_wave_leaves_schedulers_idle() {
        let h100 = GpuConfig::h100_sxm();
        // 1024 thr at 64 regs → 2048/warp → 8 × 4 = 32 warps → 1 block per SM; 133 blocks →
        // a full wave of 132 and a wave of 1 block whose 32 warps use 32 of 528 schedulers.
        let inputs = TimeInputs {
            warp_instr: 133 * 32 * 100,
            ..TimeInputs::default()
        };
        let launch = RefinedInputs {
            n_blocks: 133,
            request: OccupancyRequest::new(1024, 64, 0),
            mem_requests: 0,
            load_requests: 0,
            latency_rounds: 0,
            global_wavefronts: 0,
            pipes: PipeInstr::default(),
            caches: None,
        };
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert_eq!(r.waves.waves, 2);
        let want = 132.0 * 3200.0 / (528.0 * 1.98e9) + 3200.0 / (32.0 * 1.98e9);
        assert!(close(r.t_issue, want), "{} vs {want}", r.t_issue);
        assert_eq!(r.t_mem, 0.0);
        assert_eq!(r.bound, Bound::Issue);
        assert!(r.t_issue > estimate_time(&h100, &inputs).t_issue);
    }

    #[test]
    fn refined_small_grid_pays_the_memory_latency() {
        let h100 = GpuConfig::h100_sxm();
        // One block: each warp makes 3 dependent 128-byte requests, one latency each.
        let (inputs, launch) = stream(1, 1.0);
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert!(close(r.t_mem, 3.0 * 500e-9), "{}", r.t_mem);
        assert_eq!(r.memory_limit, MemoryLimit::Latency);
        // With 4 requests in flight the 3 requests overlap: the one-latency floor applies.
        let (inputs, launch) = stream(1, 4.0);
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert_eq!(r.t_mem, 500e-9);
    }

    #[test]
    fn refined_errors() {
        let h100 = GpuConfig::h100_sxm();
        let (inputs, mut launch) = stream(10, 1.0);
        launch.request = OccupancyRequest::new(1024, 65, 0);
        let err = refined_time(&h100, &inputs, &launch).expect_err("cannot launch");
        assert!(
            err.starts_with("the kernel cannot launch: 1024 threads × 72 registers"),
            "{err}"
        );
    }

    #[test]
    fn refined_rejects_an_invalid_gpu() {
        let mut gpu = GpuConfig::h100_sxm();
        gpu.n_sm = 0;
        let (inputs, launch) = stream(10, 1.0);
        let err = refined_time(&gpu, &inputs, &launch).expect_err("invalid GPU");
        assert!(err.contains("`n_sm` must be greater than 0"), "{err}");
    }

    #[test]
    fn refined_empty_grid_and_missing_request_count() {
        let h100 = GpuConfig::h100_sxm();
        let (inputs, launch) = stream(0, 1.0);
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert_eq!((r.t_mem, r.t_issue, r.t), (0.0, 0.0, 0.0));
        assert!(r.units.iter().all(|u| u.utilisation == 0.0));
        assert_eq!(r.waves.waves, 0);
        let (inputs, mut launch) = stream(1056, 1.0);
        launch.mem_requests = 0;
        let r = refined_time(&h100, &inputs, &launch).expect("launches");
        assert_eq!(r.latency_hiding.fraction, 1.0);
        assert!(r
            .assumptions
            .iter()
            .any(|a| a.contains("latency is taken as hidden")));
    }

    #[test]
    fn refined_serialises_with_its_assumptions() {
        let (inputs, launch) = stream(2112, 4.0);
        let r = refined_time(&GpuConfig::h100_sxm(), &inputs, &launch).expect("launches");
        assert!(r.assumptions.len() >= 6);
        assert!(
            r.assumptions[0].contains("0.90 × peak = 3015.0 GB/s"),
            "{}",
            r.assumptions[0]
        );
        let v = serde_json::to_value(&r).expect("serialise");
        assert_eq!(v["bound"], "memory");
        assert_eq!(v["memory_limit"], "bandwidth");
        assert_eq!(v["occupancy"]["blocks_per_sm"], 8);
        assert_eq!(v["waves"]["waves"], 2);
        assert!(v["assumptions"].as_array().is_some_and(|a| !a.is_empty()));
    }

    /// A launch drawn for the monotonicity properties: a grid, a block shape and its work.
    fn drawn_launch() -> impl proptest::strategy::Strategy<Value = (TimeInputs, RefinedInputs)> {
        use proptest::prelude::*;
        (
            (
                1u64..5000,
                prop::sample::select(vec![32u32, 64, 96, 128, 256, 512, 1024]),
            ),
            (0u64..1 << 30, 0u64..1 << 24, 0u64..1 << 20, 0u64..32),
            (0u64..1 << 20, 0u64..=100, 1u64..8, 0u64..1 << 22),
            (0u64..1 << 22, 0u64..1 << 20, 0u64..1 << 18, any::<bool>()),
        )
            .prop_map(
                |(
                    (n_blocks, threads),
                    (dram, instr, smem, ways),
                    (req, loads, mlp, gw),
                    (fp32, fp64, sfu, cached),
                )| {
                    let inputs = TimeInputs {
                        dram_bytes: dram,
                        warp_instr: instr,
                        smem_instr: smem,
                        smem_wavefronts: smem * (1 + ways),
                    };
                    let launch = RefinedInputs {
                        n_blocks,
                        request: OccupancyRequest::new(threads, 32, 0),
                        mem_requests: req,
                        load_requests: req * loads / 100,
                        latency_rounds: req.div_ceil(mlp),
                        global_wavefronts: gw,
                        pipes: PipeInstr {
                            fp32,
                            fp64,
                            sfu,
                            ..PipeInstr::default()
                        },
                        caches: cached.then_some(CacheTraffic {
                            dram_bytes: dram / 2,
                            l2_bytes: dram,
                        }),
                    };
                    (inputs, launch)
                },
            )
    }

    /// Issue 15's monotonicity: more bank conflicts (shared wavefronts for the same shared
    /// instructions) never make a launch faster, on every preset; nor do more DRAM bytes for
    /// the same requests, more warp instructions, or more FP64 instructions.
    #[test]
    fn more_conflicts_or_more_work_are_never_faster() {
        use proptest::prelude::*;
        proptest!(|((inputs, launch) in drawn_launch(), extra in 1u64..1 << 24, what in 0usize..4, g in 0usize..crate::gpu::presets().len())| {
            let gpu = crate::gpu::presets().swap_remove(g);
            let base = refined_time(&gpu, &inputs, &launch).expect("launches");
            let (mut more, mut more_launch) = (inputs, launch.clone());
            match what {
                0 => more.smem_wavefronts += extra,
                1 => {
                    more.dram_bytes += extra;
                    if let Some(c) = more_launch.caches.as_mut() {
                        c.dram_bytes += extra;
                    }
                }
                2 => more.warp_instr += extra,
                _ => {
                    more.warp_instr += extra;
                    more_launch.pipes.fp64 += extra;
                }
            }
            let slower = refined_time(&gpu, &more, &more_launch).expect("launches");
            prop_assert!(slower.t >= base.t * (1.0 - 1e-12), "{} < {}", slower.t, base.t);
        });
    }

    /// Issue 15's monotonicity: the same work at a higher occupancy (fewer registers per
    /// thread, so more resident blocks) is never slower, for grids of whole waves at the higher
    /// occupancy. A partial last wave is the exception, in the model as on the GPU (the tail
    /// effect): 4225 blocks of 32 threads at 32 blocks per SM on the H100 leave one block for a
    /// second wave, which lasts at least a DRAM latency (500 ns) after the first, while at 28 per
    /// SM the second wave holds 529 blocks whose bytes the first wave no longer has to move.
    #[test]
    fn higher_occupancy_is_never_slower_at_equal_work() {
        use proptest::prelude::*;
        proptest!(|((inputs, launch) in drawn_launch(), regs in 33u32..=255, waves in 1u64..6, g in 0usize..crate::gpu::presets().len())| {
            let gpu = crate::gpu::presets().swap_remove(g);
            let high = occupancy(&gpu, &launch.request);
            prop_assume!(high.blocks_per_sm > 0);
            let high_launch = RefinedInputs {
                n_blocks: waves * u64::from(gpu.n_sm) * u64::from(high.blocks_per_sm),
                ..launch
            };
            let low_launch = RefinedInputs {
                request: OccupancyRequest::new(high_launch.request.threads_per_block, regs, 0),
                ..high_launch.clone()
            };
            let (Ok(high_t), Ok(low_t)) = (refined_time(&gpu, &inputs, &high_launch), refined_time(&gpu, &inputs, &low_launch)) else {
                return Ok(());
            };
            prop_assume!(high_t.occupancy.blocks_per_sm >= low_t.occupancy.blocks_per_sm);
            prop_assert!(
                high_t.t <= low_t.t * (1.0 + 1e-12),
                "{} blocks/SM: {} s; {} blocks/SM: {} s",
                high_t.occupancy.blocks_per_sm, high_t.t, low_t.occupancy.blocks_per_sm, low_t.t
            );
        });
    }
}
