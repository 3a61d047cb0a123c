//! The block interpreter: runs a lowered kernel over lane arrays and counts what a profiler would.

mod atomic;
mod block;
mod counters;
mod error;
mod memory;
mod probe;
mod race;
mod regs;
mod warp;

pub use counters::{Counters, InstCounters};
pub use error::RunError;
pub use memory::BufData;
pub use probe::WarpAccess;
pub use race::{Race, RaceKind};

use crate::ir::KernelIr;
use crate::value::Value;
use block::BlockRunner;

/// A global buffer bound to a pointer parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// The parameter name.
    pub name: String,
    /// Its contents.
    pub data: BufData,
}

/// The shape and limits of one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// `gridDim`.
    pub grid: [u32; 3],
    /// `blockDim`.
    pub block: [u32; 3],
    /// Bytes of `extern __shared__` memory per block.
    pub dyn_smem: u64,
    /// Most warp instructions the launch may issue (catches endless loops).
    pub max_steps: u64,
}

impl LaunchConfig {
    /// Threads per block.
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().map(|&d| u64::from(d)).product()
    }

    /// Blocks in the grid.
    pub fn blocks(&self) -> u64 {
        self.grid.iter().map(|&d| u64::from(d)).product()
    }

    /// `threadIdx` of a linear lane: `tid = x + y*bdx + z*bdx*bdy`.
    pub fn thread_of(&self, lane: usize) -> [u32; 3] {
        let lane = lane as u32;
        let [bx, by, _] = self.block;
        [lane % bx, (lane / bx) % by, lane / (bx * by)]
    }
}

/// Parameter values by position: scalars and buffers (the other kind is `None`).
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Scalar parameter values.
    pub scalars: Vec<Option<Value>>,
    /// Buffers of pointer parameters; written by the kernel.
    pub buffers: Vec<Option<Buffer>>,
}

/// What a launch produced besides the buffers it wrote.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Totals.
    pub counters: Counters,
    /// Events per instruction (index = instruction), for per-line reports.
    pub per_inst: Vec<InstCounters>,
    /// The first races, described.
    pub races: Vec<Race>,
    /// Per instruction: the first warp's lanes of each memory instruction that ran.
    pub first_access: Vec<Option<WarpAccess>>,
    /// Per instruction: whether a barrier separated conflicting accesses of two warps in some block.
    pub barrier_protects: Vec<bool>,
}

/// Runs every block of the grid in order. The first trap stops the launch.
pub fn launch(ir: &KernelIr, cfg: &LaunchConfig, args: &mut Args) -> Result<Outcome, RunError> {
    let elem_bytes = |e: crate::value::Scalar| u64::from(e.size());
    let shared_lens: Vec<usize> = ir
        .shared
        .iter()
        .map(|s| s.len.unwrap_or(cfg.dyn_smem / elem_bytes(s.elem)) as usize)
        .collect();
    let mut runner = BlockRunner::new(ir, cfg, &shared_lens);
    let [gx, gy, gz] = cfg.grid;
    for bz in 0..gz {
        for by in 0..gy {
            for bx in 0..gx {
                runner.run([bx, by, bz], &args.scalars, &mut args.buffers)?;
            }
        }
    }
    let mut counters = Counters {
        blocks: cfg.blocks(),
        threads: cfg.blocks() * cfg.threads_per_block(),
        ..Counters::default()
    };
    for c in &runner.counters {
        counters.add(c);
    }
    Ok(Outcome {
        counters,
        per_inst: runner.counters,
        races: runner.races,
        first_access: runner.first_access,
        barrier_protects: runner.barrier_protects,
    })
}
