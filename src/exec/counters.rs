//! Counters: plain values that add up, per instruction and per launch (DESIGN.md §3 names).

use serde::Serialize;
use std::ops::AddAssign;

/// Events attributed to one instruction (summed over warps and blocks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InstCounters {
    /// Warp instructions issued.
    pub warp_instr: u64,
    /// Σ active lanes over issued warp instructions.
    pub active_lane_slots: u64,
    /// Global load warp instructions (requests).
    pub gld_instr: u64,
    /// Global store warp instructions (requests).
    pub gst_instr: u64,
    /// Distinct 32-byte sectors touched by global loads, per warp per instruction.
    pub gld_sectors: u64,
    /// Distinct 32-byte sectors touched by global stores.
    pub gst_sectors: u64,
    /// Global atomic warp instructions (requests).
    pub gatom_instr: u64,
    /// Distinct 32-byte sectors touched by global atomics.
    pub gatom_sectors: u64,
    /// Σ active lanes × element size over global accesses.
    pub g_bytes_requested: u64,
    /// L1 data-pipe wavefronts of global loads, stores and atomics: one per distinct 128-byte
    /// line a warp request touches (`docs/gpu-facts.md` §6.3).
    pub g_wavefronts: u64,
    /// Local-memory load warp instructions (local arrays the compiler cannot keep in registers).
    pub local_ld_instr: u64,
    /// Local-memory store warp instructions.
    pub local_st_instr: u64,
    /// Distinct 32-byte sectors touched by local loads (interleaved per warp, as the hardware lays
    /// local memory out).
    pub local_ld_sectors: u64,
    /// Distinct 32-byte sectors touched by local stores.
    pub local_st_sectors: u64,
    /// Constant-memory load warp instructions (`__constant__` arrays).
    pub cmem_instr: u64,
    /// Constant-cache transactions: per warp request, one per distinct address (a broadcast is
    /// one; lanes on different addresses serialise).
    pub cmem_transactions: u64,
    /// Texture fetch warp instructions (`tex2D` and the others): requests to L1TEX's texture
    /// pipe.
    pub tex_requests: u64,
    /// Tensor-core warp instructions: one per warp per `wmma::mma_sync` (the whole warp's
    /// `m×n×k` multiply-accumulate, whatever number of `HMMA` instructions the compiler splits
    /// it into).
    pub tensor_instr: u64,
    /// Shared-memory load warp instructions.
    pub smem_ld_instr: u64,
    /// Shared-memory store warp instructions.
    pub smem_st_instr: u64,
    /// Wavefronts of shared loads.
    pub smem_ld_wavefronts: u64,
    /// Wavefronts of shared stores.
    pub smem_st_wavefronts: u64,
    /// The conflict-free minimum of wavefronts (one per active phase).
    pub smem_ideal_wavefronts: u64,
    /// `__syncthreads()` executions, once per block.
    pub barriers: u64,
    /// Grid barriers (`this_grid().sync()`) passed, once per block.
    pub grid_syncs: u64,
    /// Warps that evaluated a branch condition.
    pub branches: u64,
    /// Branch evaluations whose active lanes went both ways.
    pub divergent: u64,
    /// Instruction executions (per block) with at least one racing lane.
    pub race_count: u64,
    /// Instruction executions (per block) with at least one lane reading uninitialised memory.
    pub uninit_count: u64,
    /// DRAM latency rounds this instruction added to its block's critical path, times the warps
    /// that ran it (`exec::rounds`): summed, each warp's rounds. Input to the time model only.
    #[serde(skip)]
    pub latency_rounds: u64,
}

impl AddAssign for InstCounters {
    fn add_assign(&mut self, o: Self) {
        self.warp_instr += o.warp_instr;
        self.active_lane_slots += o.active_lane_slots;
        self.gld_instr += o.gld_instr;
        self.gst_instr += o.gst_instr;
        self.gld_sectors += o.gld_sectors;
        self.gst_sectors += o.gst_sectors;
        self.gatom_instr += o.gatom_instr;
        self.gatom_sectors += o.gatom_sectors;
        self.g_bytes_requested += o.g_bytes_requested;
        self.g_wavefronts += o.g_wavefronts;
        self.cmem_instr += o.cmem_instr;
        self.cmem_transactions += o.cmem_transactions;
        self.tex_requests += o.tex_requests;
        self.tensor_instr += o.tensor_instr;
        self.local_ld_instr += o.local_ld_instr;
        self.local_st_instr += o.local_st_instr;
        self.local_ld_sectors += o.local_ld_sectors;
        self.local_st_sectors += o.local_st_sectors;
        self.smem_ld_instr += o.smem_ld_instr;
        self.smem_st_instr += o.smem_st_instr;
        self.smem_ld_wavefronts += o.smem_ld_wavefronts;
        self.smem_st_wavefronts += o.smem_st_wavefronts;
        self.smem_ideal_wavefronts += o.smem_ideal_wavefronts;
        self.barriers += o.barriers;
        self.grid_syncs += o.grid_syncs;
        self.branches += o.branches;
        self.divergent += o.divergent;
        self.race_count += o.race_count;
        self.uninit_count += o.uninit_count;
        self.latency_rounds += o.latency_rounds;
    }
}

/// The totals of a launch, named as the reference's `KernelStats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Counters {
    /// Blocks launched.
    pub blocks: u64,
    /// Threads launched.
    pub threads: u64,
    /// Warp instructions issued.
    pub warp_instr: u64,
    /// Σ active lanes over issued warp instructions.
    pub active_lane_slots: u64,
    /// Global load requests.
    pub gld_instr: u64,
    /// Global store requests.
    pub gst_instr: u64,
    /// Sectors of global loads.
    pub gld_sectors: u64,
    /// Sectors of global stores.
    pub gst_sectors: u64,
    /// Global atomic requests.
    pub gatom_instr: u64,
    /// Sectors of global atomics (not in `dram_bytes`: atomics resolve in L2).
    pub gatom_sectors: u64,
    /// Bytes the active lanes asked for.
    pub g_bytes_requested: u64,
    /// L1 data-pipe wavefronts of global requests (one per distinct 128-byte line).
    pub g_wavefronts: u64,
    /// Constant-memory load requests.
    pub cmem_instr: u64,
    /// Constant-cache transactions (one per distinct address per request).
    pub cmem_transactions: u64,
    /// Texture fetch requests (warp instructions of `tex1Dfetch`, `tex1D`, `tex2D`, `tex3D`).
    pub tex_requests: u64,
    /// Tensor-core warp instructions: one per warp per `wmma::mma_sync`.
    pub tensor_instr: u64,
    /// Local-memory load requests.
    pub local_ld_instr: u64,
    /// Local-memory store requests.
    pub local_st_instr: u64,
    /// Sectors of local loads.
    pub local_ld_sectors: u64,
    /// Sectors of local stores.
    pub local_st_sectors: u64,
    /// Shared-memory warp instructions (loads + stores).
    pub smem_instr: u64,
    /// Shared-memory wavefronts (loads + stores).
    pub smem_wavefronts: u64,
    /// Wavefronts beyond the ideal (Nsight's bank conflicts).
    pub smem_bank_conflicts: u64,
    /// Barriers, once per block.
    pub barriers: u64,
    /// Grid barriers (`this_grid().sync()` in a cooperative launch), once per block: a barrier
    /// all 8 blocks of a grid pass counts 8.
    pub grid_syncs: u64,
    /// Warps that evaluated a branch.
    pub branches: u64,
    /// Of those, warps whose lanes split.
    pub divergent: u64,
    /// Racing instruction executions.
    pub race_count: u64,
    /// Instruction executions that read uninitialised memory.
    pub uninit_count: u64,
}

impl Counters {
    /// Adds one instruction's events to the totals.
    pub fn add(&mut self, c: &InstCounters) {
        self.warp_instr += c.warp_instr;
        self.active_lane_slots += c.active_lane_slots;
        self.gld_instr += c.gld_instr;
        self.gst_instr += c.gst_instr;
        self.gld_sectors += c.gld_sectors;
        self.gst_sectors += c.gst_sectors;
        self.gatom_instr += c.gatom_instr;
        self.gatom_sectors += c.gatom_sectors;
        self.g_bytes_requested += c.g_bytes_requested;
        self.g_wavefronts += c.g_wavefronts;
        self.cmem_instr += c.cmem_instr;
        self.cmem_transactions += c.cmem_transactions;
        self.tex_requests += c.tex_requests;
        self.tensor_instr += c.tensor_instr;
        self.local_ld_instr += c.local_ld_instr;
        self.local_st_instr += c.local_st_instr;
        self.local_ld_sectors += c.local_ld_sectors;
        self.local_st_sectors += c.local_st_sectors;
        self.smem_instr += c.smem_ld_instr + c.smem_st_instr;
        let wf = c.smem_ld_wavefronts + c.smem_st_wavefronts;
        self.smem_wavefronts += wf;
        self.smem_bank_conflicts += wf - c.smem_ideal_wavefronts;
        self.barriers += c.barriers;
        self.grid_syncs += c.grid_syncs;
        self.branches += c.branches;
        self.divergent += c.divergent;
        self.race_count += c.race_count;
        self.uninit_count += c.uninit_count;
    }

    /// `(gld_sectors + gst_sectors) × 32`.
    pub fn dram_bytes(&self) -> u64 {
        (self.gld_sectors + self.gst_sectors) * 32
    }

    /// `(gld_sectors + gst_sectors + gatom_sectors) × 32`: the sectors of every global access
    /// whose bytes `g_bytes_requested` counts, atomics included.
    pub fn bytes_moved(&self) -> u64 {
        (self.gld_sectors + self.gst_sectors + self.gatom_sectors) * 32
    }

    /// Requested bytes / moved bytes, both over loads, stores and atomics (1 when nothing moved).
    pub fn bytes_requested_per_byte_moved(&self) -> f64 {
        let moved = self.bytes_moved();
        if moved == 0 {
            1.0
        } else {
            self.g_bytes_requested as f64 / moved as f64
        }
    }

    /// Active lanes per issued lane slot (1 when nothing issued).
    pub fn simt_efficiency(&self) -> f64 {
        if self.warp_instr == 0 {
            1.0
        } else {
            self.active_lane_slots as f64 / (self.warp_instr as f64 * 32.0)
        }
    }

    /// Wavefronts per shared instruction (1 when none).
    pub fn bank_conflict_factor(&self) -> f64 {
        ratio(self.smem_wavefronts, self.smem_instr, 1.0)
    }

    /// Sectors per global load request.
    pub fn sectors_per_load(&self) -> f64 {
        ratio(self.gld_sectors, self.gld_instr, 0.0)
    }

    /// Sectors per global store request.
    pub fn sectors_per_store(&self) -> f64 {
        ratio(self.gst_sectors, self.gst_instr, 0.0)
    }

    /// Sectors per global request, loads and stores together.
    pub fn sectors_per_request(&self) -> f64 {
        ratio(
            self.gld_sectors + self.gst_sectors,
            self.gld_instr + self.gst_instr,
            0.0,
        )
    }

    /// Constant-memory transactions per request: one per distinct address a warp reads (0 when
    /// there is none).
    pub fn cmem_transactions_per_request(&self) -> f64 {
        ratio(self.cmem_transactions, self.cmem_instr, 0.0)
    }

    /// Global requests with the atomics: loads, stores and atomic read-modify-writes (whose bytes
    /// are in `g_bytes_requested` too).
    pub fn requests_with_atomics(&self) -> u64 {
        self.gld_instr + self.gst_instr + self.gatom_instr
    }

    /// Sectors per global request, atomics included (0 when none).
    pub fn sectors_per_request_with_atomics(&self) -> f64 {
        ratio(
            self.gld_sectors + self.gst_sectors + self.gatom_sectors,
            self.requests_with_atomics(),
            0.0,
        )
    }

    /// ⌈requested bytes / 32⌉: the sectors the requested bytes would need if every request were
    /// contiguous and aligned.
    pub fn ideal_sectors(&self) -> u64 {
        self.g_bytes_requested.div_ceil(32)
    }

    /// Shared-memory wavefronts without bank conflicts.
    pub fn ideal_wavefronts(&self) -> u64 {
        self.smem_wavefronts - self.smem_bank_conflicts
    }

    /// [`Self::ideal_sectors`] per global request, atomics included (0 when none).
    pub fn ideal_sectors_per_request_with_atomics(&self) -> f64 {
        ratio(self.ideal_sectors(), self.requests_with_atomics(), 0.0)
    }

    /// Wavefronts per shared instruction without bank conflicts (1 when none; above 1 for
    /// accesses wider than a bank's 4 bytes).
    pub fn ideal_bank_conflict_factor(&self) -> f64 {
        ratio(self.ideal_wavefronts(), self.smem_instr, 1.0)
    }

    /// Fraction of branch evaluations that did not diverge (1 when none).
    pub fn branch_efficiency(&self) -> f64 {
        if self.branches == 0 {
            1.0
        } else {
            1.0 - self.divergent as f64 / self.branches as f64
        }
    }
}

fn ratio(a: u64, b: u64, empty: f64) -> f64 {
    if b == 0 {
        empty
    } else {
        a as f64 / b as f64
    }
}
