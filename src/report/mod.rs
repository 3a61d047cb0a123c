//! The result of a run as plain data, rendered for people (`table`) or scripts (`json`).

pub mod json;
pub mod table;

use serde::Serialize;

use crate::exec::{Counters, Outcome, Race, RaceKind};
use crate::gpu::{
    estimate_time, refined_time, Occupancy, RefinedInputs, RefinedTime, TimeEstimate, TimeInputs,
};
use crate::gpu::{occupancy, GpuConfig, OccupancyRequest};
use crate::host::ExpectResult;
use crate::ir::KernelIr;
use crate::source::SourceFile;

/// The launch as it ran.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchInfo {
    /// `gridDim`.
    pub grid: [u32; 3],
    /// `blockDim`.
    pub block: [u32; 3],
    /// Threads per block.
    pub threads_per_block: u64,
    /// Warps per block (a partial warp counts as one).
    pub warps_per_block: u64,
    /// Static plus dynamic shared memory per block, bytes.
    pub smem_per_block: u64,
    /// Registers per thread assumed for occupancy (`--regs`).
    pub regs_per_thread: u32,
}

/// A race with source lines.
#[derive(Clone, Debug, Serialize)]
pub struct RaceView {
    /// RAW, WAR, WAW or a duplicate global store.
    #[serde(flatten)]
    pub race: Race,
    /// Line of this access.
    pub line: usize,
    /// Line of the earlier conflicting access.
    pub other_line: usize,
    /// The source of this access's line.
    pub source: String,
}

impl RaceView {
    /// One sentence describing the race.
    pub fn describe(&self) -> String {
        let r = &self.race;
        let b = r.block;
        match r.kind {
            RaceKind::ReadAfterWrite => format!(
                "RAW in block ({},{},{}) epoch {}: warp {} reads {}[{}] (line {}) written by warp {} (line {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.warp, r.array, r.index, self.line, r.other_warp, self.other_line
            ),
            RaceKind::WriteAfterRead => format!(
                "WAR in block ({},{},{}) epoch {}: warp {} overwrites {}[{}] (line {}) read by warp {} (line {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.warp, r.array, r.index, self.line, r.other_warp, self.other_line
            ),
            RaceKind::WriteAfterWrite => format!(
                "WAW in block ({},{},{}) epoch {}: warps {} and {} both write {}[{}] (lines {} and {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.other_warp, r.warp, r.array, r.index, self.other_line, self.line
            ),
            RaceKind::GlobalDuplicate => format!(
                "two threads of block ({},{},{}) store to {}[{}] in one instruction (line {}): the surviving value is undefined",
                b[0], b[1], b[2], r.array, r.index, self.line
            ),
        }
    }
}

/// Everything `simt run` reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// The kernel file's name.
    pub file: String,
    /// The kernel.
    pub kernel: String,
    /// The GPU model.
    pub gpu: GpuConfig,
    /// The launch.
    pub launch: LaunchInfo,
    /// Totals.
    pub counters: Counters,
    /// Described races.
    pub races: Vec<RaceView>,
    /// The reference's time estimate.
    pub time: TimeEstimate,
    /// The occupancy calculator's result for this launch.
    pub occupancy: Occupancy,
    /// The refined estimate, or why there is none.
    pub refined: Result<RefinedTime, String>,
    /// `expect` results.
    pub expects: Vec<ExpectResult>,
}

impl Report {
    /// Builds a report from a finished launch.
    pub fn new(
        src: &SourceFile,
        ir: &KernelIr,
        outcome: &Outcome,
        gpu: &GpuConfig,
        launch: LaunchInfo,
        expects: Vec<ExpectResult>,
    ) -> Report {
        let c = outcome.counters;
        let inputs = TimeInputs {
            dram_bytes: c.dram_bytes(),
            warp_instr: c.warp_instr,
            smem_instr: c.smem_instr,
            smem_wavefronts: c.smem_wavefronts,
        };
        let request = OccupancyRequest::new(
            launch.threads_per_block as u32,
            launch.regs_per_thread,
            launch.smem_per_block.min(u64::from(u32::MAX)) as u32,
        );
        let occ = occupancy(gpu, &request);
        let refined = refined_time(
            gpu,
            &inputs,
            &RefinedInputs {
                n_blocks: c.blocks,
                request,
                mem_requests: c.gld_instr + c.gst_instr,
                requests_in_flight_per_warp: 1.0,
            },
        );
        let line = |inst: u32| src.line_of(ir.spans[inst as usize].start);
        let races = outcome
            .races
            .iter()
            .map(|r| RaceView {
                race: r.clone(),
                line: line(r.inst),
                other_line: line(r.other_inst),
                source: src.line_text(line(r.inst)).to_string(),
            })
            .collect();
        Report {
            file: src.name().to_string(),
            kernel: ir.name.clone(),
            gpu: gpu.clone(),
            launch,
            counters: c,
            races,
            time: estimate_time(gpu, &inputs),
            occupancy: occ,
            refined,
            expects,
        }
    }

    /// Whether every `expect` held.
    pub fn expects_passed(&self) -> bool {
        self.expects.iter().all(|e| e.passed)
    }
}
