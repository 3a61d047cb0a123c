//! The block interpreter: runs a lowered kernel over lane arrays and counts what a profiler would.

mod atomic;
mod banks;
mod block;
mod cache;
mod cells;
mod coalesce;
mod counters;
mod epoch_log;
mod error;
mod grid_race;
mod memory;
pub(crate) mod narrowed;
mod probe;
mod race;
mod regs;
mod rounds;
pub mod sample;
mod warp;

pub use cache::{CacheConfig, CacheStats, SECTOR_BYTES};
pub use counters::{Counters, InstCounters};
pub use error::RunError;
pub use memory::BufData;
pub use probe::{Probe, WarpAccess};
pub use race::{Group, Race, RaceKind, Uninit};

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::ir::{Inst, KernelIr, Space};
use crate::value::Value;
use block::{BlockRunner, Parked};

/// A global array of a launch, held once however many pointer parameters point into it.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// Its name: the host array's, or the parameter's when it is bound to a whole array of its
    /// own. Out-of-bounds and race reports name it.
    pub name: String,
    /// Its contents.
    pub data: BufData,
    /// Made by `empty(n)`: a bit per element (64 to a word), set once a thread has written it,
    /// in this launch or an earlier one of a sequence; a read of an element whose bit is clear
    /// is reported. The launch leaves the bits it set. `None`: every element holds a value.
    pub written: Option<Vec<u64>>,
}

/// Where a pointer parameter points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The parameter's name.
    pub name: String,
    /// The array it points into (an index of [`Args::buffers`]); `None` when it is `NULL`.
    pub buffer: Option<usize>,
    /// Elements of the array (its scalar type: a `float4*` into a float array counts floats)
    /// before the one the parameter points at; for a vector parameter, a multiple of its width
    /// (the launch section refuses others).
    pub offset: usize,
    /// A struct parameter's pointer member the launch did not set (`buffer` is `None`): an
    /// access through it is [`RunError::UnsetPointer`].
    pub unset: bool,
}

impl Pointer {
    /// Parameter `name` bound to `NULL`.
    pub fn null(name: &str) -> Pointer {
        Pointer {
            name: name.to_string(),
            buffer: None,
            offset: 0,
            unset: false,
        }
    }
}

/// A pointer parameter during a launch: its array's cells (shared by the workers and by every
/// parameter that points into the same array), or none when it is `NULL`.
pub(crate) struct GlobalBuf<'a> {
    /// The array's name, or the parameter's when it is `NULL`.
    name: &'a str,
    cells: Option<cells::Cells<'a>>,
    /// [`Pointer::offset`].
    offset: usize,
    /// [`Pointer::unset`].
    unset: bool,
    /// For an array made by `empty(n)`: a bit per element, set once a thread wrote it.
    written: Option<&'a [AtomicU64]>,
    /// The first sector of the array in the cache model's address space: arrays lie far apart,
    /// each from a sector boundary.
    sector_base: u64,
    /// The byte address of the element the parameter points at ([`crate::ir::global_address`]);
    /// 0 for `NULL`.
    address: u64,
    /// The array's index in [`Args::buffers`] (0 for `NULL`): what tells arrays apart in the
    /// races between blocks.
    array: u32,
}

/// A flag another thread raises to stop a launch (the Python module's Ctrl-C); clones share it.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Interrupt {
    /// Asks the launch to stop: its workers end with [`RunError::Interrupted`] within a few
    /// thousand warp steps.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it was raised.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Two interrupts are equal when they are the same flag.
impl PartialEq for Interrupt {
    fn eq(&self, other: &Interrupt) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Interrupt {}

/// When a launch must stop before it ends: a wall-clock limit, an [`Interrupt`], or both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deadline {
    /// When the launch must stop, and the limit it was given (for the report).
    pub time: Option<(std::time::Instant, std::time::Duration)>,
    /// A flag that stops the launch when raised.
    pub interrupt: Option<Interrupt>,
}

impl Deadline {
    /// A deadline `limit` from now.
    pub fn after(limit: std::time::Duration) -> Deadline {
        Deadline {
            time: Some((std::time::Instant::now() + limit, limit)),
            interrupt: None,
        }
    }

    /// Whether the launch must stop now.
    pub fn passed(&self) -> bool {
        self.interrupt.as_ref().is_some_and(Interrupt::is_raised)
            || self
                .time
                .is_some_and(|(at, _)| std::time::Instant::now() > at)
    }

    /// The error that stops a launch running `span` of `block`: interrupted, or out of time.
    pub(crate) fn error(&self, span: crate::source::Span, block: [u32; 3]) -> RunError {
        match (&self.interrupt, self.time) {
            (Some(i), _) if i.is_raised() => RunError::Interrupted { span, block },
            (_, time) => RunError::Timeout {
                seconds: time.map_or(0.0, |(_, limit)| limit.as_secs_f64()),
                span,
                block,
            },
        }
    }
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
    /// Most warp steps the launch may take (catches endless loops): each warp instruction issued,
    /// each loop iteration of a warp, and each warp's launch count one.
    pub max_steps: u64,
    /// Most warp-instruction slots one block may run: each instruction the block executes counts
    /// its warps, active or not, which is what it costs to simulate (catches a loop that never
    /// ends in seconds, whatever the block size).
    pub max_block_steps: u64,
    /// Stop with [`RunError::Timeout`] or [`RunError::Interrupted`] once this has passed
    /// (`simt test --timeout`, Ctrl-C in the Python module).
    pub deadline: Option<Deadline>,
    /// Worker threads running blocks.
    pub threads: usize,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`): its blocks are all resident, and
    /// `this_grid().sync()` is a barrier over the whole grid. The caller checks that they fit.
    pub cooperative: bool,
    /// Launches of fewer threads than this run on one worker, whatever `threads` says (a pool
    /// costs more than they take): [`PARALLEL_MIN_THREADS`], or 0 to spread even the smallest
    /// launch over `threads` workers, as tests do to exercise the parallel merge.
    pub parallel_min: u64,
    /// Which warp's access [`Outcome::first_access`] keeps for each memory instruction.
    pub probe: Probe,
    /// The L1/L2 model's sizes, or `None` to run without it (every sector then counts as moved
    /// between DRAM and the SMs, as in the reference). [`launch_blocks`] gives each block its L1
    /// share (for the latency rounds) but runs no L2 and reports no cache counts.
    pub cache: Option<CacheConfig>,
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

    /// `blockIdx` of a linear block id (x fastest), the order blocks are reported in.
    pub fn block_of(&self, id: u64) -> [u32; 3] {
        let [gx, gy, _] = self.grid.map(u64::from);
        [
            (id % gx) as u32,
            ((id / gx) % gy) as u32,
            (id / (gx * gy)) as u32,
        ]
    }

    /// The linear id of `blockIdx`.
    pub fn linear_block(&self, b: [u32; 3]) -> u64 {
        let [gx, gy, _] = self.grid.map(u64::from);
        u64::from(b[0]) + u64::from(b[1]) * gx + u64::from(b[2]) * gx * gy
    }

    /// `threadIdx` of a linear lane: `tid = x + y*bdx + z*bdx*bdy`.
    pub fn thread_of(&self, lane: usize) -> [u32; 3] {
        let lane = lane as u32;
        let [bx, by, _] = self.block;
        [lane % bx, (lane / bx) % by, lane / (bx * by)]
    }
}

/// Parameter values by position, and the global arrays the pointer parameters point into.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Scalar parameter values (`None` for a pointer parameter).
    pub scalars: Vec<Option<Value>>,
    /// The launch's global arrays, each once; written by the kernel.
    pub buffers: Vec<Buffer>,
    /// Where each pointer parameter points (`None` for a scalar parameter).
    pub pointers: Vec<Option<Pointer>>,
    /// The launch's texture objects: the handle `h` a `cudaTextureObject_t` parameter holds
    /// names `textures[h - 1]` (0 is no texture).
    pub textures: Vec<crate::texture::Texture>,
}

impl Args {
    /// Each pointer parameter bound to an array of its own, at its first element; `None` in
    /// `buffers` is a scalar parameter (its value in `scalars`).
    pub fn separate(scalars: Vec<Option<Value>>, buffers: Vec<Option<Buffer>>) -> Args {
        let mut args = Args {
            scalars,
            buffers: Vec::new(),
            pointers: Vec::new(),
            textures: Vec::new(),
        };
        for b in buffers {
            args.pointers.push(b.map(|b| {
                args.buffers.push(b);
                Pointer {
                    name: args.buffers[args.buffers.len() - 1].name.clone(),
                    buffer: Some(args.buffers.len() - 1),
                    offset: 0,
                    unset: false,
                }
            }));
        }
        args
    }

    /// The array pointer parameter `p` points into and the offset, if it is bound to one.
    pub fn param(&self, p: usize) -> Option<(&Buffer, usize)> {
        let ptr = self.pointers.get(p)?.as_ref()?;
        Some((&self.buffers[ptr.buffer?], ptr.offset))
    }
}

/// How a barrier passed, in some block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarrierPass {
    /// Together with one on the other side of an `if` that split the block by warps.
    pub split: bool,
    /// With threads missing that went on to leave the kernel without reaching another barrier.
    pub exiting: bool,
}

impl std::ops::BitOrAssign for BarrierPass {
    fn bitor_assign(&mut self, other: Self) {
        self.split |= other.split;
        self.exiting |= other.exiting;
    }
}

/// What a launch produced besides the buffers it wrote.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Totals.
    pub counters: Counters,
    /// Events per instruction (index = instruction), for per-line reports.
    pub per_inst: Vec<InstCounters>,
    /// Races, grouped by kind, array and the sites of both accesses, in block order of their
    /// first instance.
    pub races: Vec<Group<Race>>,
    /// Uninitialised reads, grouped by array and site, in block order of their first instance.
    pub uninit: Vec<Group<Uninit>>,
    /// For [`launch_blocks`]: each block's totals, in the order of its ids (empty otherwise).
    pub block_totals: Vec<Counters>,
    /// Per instruction: the first warp's lanes of each memory instruction that ran.
    pub first_access: Vec<Option<WarpAccess>>,
    /// Per instruction: whether a barrier separated conflicting accesses of two warps in some block.
    pub barrier_protects: Vec<bool>,
    /// Per instruction: how, in some block, a barrier passed.
    pub barrier_passes: Vec<BarrierPass>,
    /// What the kernel's `printf`s printed: blocks in order, each in execution order, active lanes
    /// in lane order; at most the device buffer's size.
    pub printf: String,
    /// Output past the printf buffer was dropped.
    pub printf_truncated: bool,
    /// The cache model's counts, when the launch ran with it.
    pub cache: Option<CacheStats>,
    /// For [`launch_groups`]: each group's cache counts, in order (empty otherwise).
    pub group_cache: Vec<CacheStats>,
}

/// A stretch of the ids given to [`launch_groups`], replayed through the L2 as one wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockGroup {
    /// Where it ends: a position in the ids (it starts where the previous group ended).
    pub end: usize,
    /// Whether the L2 is emptied before it.
    pub clear: bool,
}

/// Elements of each shared array: its declared size, or what `--dyn-smem` holds.
fn shared_lens(ir: &KernelIr, cfg: &LaunchConfig) -> Vec<usize> {
    ir.shared
        .iter()
        .map(|s| s.len.unwrap_or(cfg.dyn_smem / u64::from(s.elem.size())) as usize)
        .collect()
}

/// Workers a launch runs its blocks on.
///
/// Kernels with global atomics run on one worker, in block order: the order in which atomics
/// apply changes float sums and the old values a kernel may use (`slot = atomicAdd(&n, 1)`), and
/// simt promises the same results for any number of threads. Launches of fewer than
/// `cfg.parallel_min` threads run on one worker too.
fn workers(ir: &KernelIr, cfg: &LaunchConfig) -> u64 {
    let global_atomics = ir.insts.iter().any(|i| {
        matches!(
            i,
            Inst::Atomic {
                space: Space::Global(_) | Space::Choice { shared: false },
                ..
            }
        )
    });
    let small = cfg.blocks().saturating_mul(cfg.threads_per_block()) < cfg.parallel_min;
    if global_atomics || small {
        1
    } else {
        cfg.threads.clamp(1, 256) as u64
    }
}

/// About how many bytes a launch allocates besides its buffers: on each worker, one block's
/// registers, masks and index vectors, its shared arrays with their race history, the
/// per-instruction counters and the L1 share; once, the L2 model. Checked against `--max-memory` before anything is allocated.
pub fn state_bytes(ir: &KernelIr, cfg: &LaunchConfig) -> u64 {
    let r = &ir.regs;
    let reg_bytes = u64::from(r.b)
        + 4 * u64::from(r.w)
        + 8 * u64::from(r.d)
        + 4 * u64::from(r.f)
        + 8 * u64::from(r.g);
    // Per lane besides registers: the mask, `returned`, the index vector.
    let lanes = cfg.threads_per_block() * (reg_bytes + 10);
    let shared: u64 = shared_lens(ir, cfg)
        .iter()
        .zip(&ir.shared)
        .map(|(&n, s)| n as u64 * (u64::from(s.elem.size()) + race::HISTORY_BYTES))
        .sum();
    let counters = ir.insts.len() as u64 * std::mem::size_of::<InstCounters>() as u64;
    // The cache model: each worker's L1 share, and the one L2.
    let (l1, l2) = cfg.cache.map_or((0, 0), |c| {
        (
            cache::state_bytes(c.l1_bytes_per_block),
            cache::state_bytes(c.l2_bytes),
        )
    });
    // A cooperative launch keeps each block parked at a grid barrier: its registers, masks,
    // shared and local arrays.
    let parked = if grid_barriers(ir, cfg) {
        let locals: u64 = ir
            .locals
            .iter()
            .map(|a| a.len * (u64::from(a.elem.size()) + 8))
            .sum();
        (lanes + shared + locals * cfg.threads_per_block()).saturating_mul(cfg.blocks())
    } else {
        0
    };
    (lanes + shared + counters + l1)
        .saturating_mul(workers(ir, cfg))
        .saturating_add(l2)
        .saturating_add(parked)
}

/// Whether blocks of this launch may park at a grid barrier: a cooperative launch of a kernel
/// with `this_grid().sync()`.
fn grid_barriers(ir: &KernelIr, cfg: &LaunchConfig) -> bool {
    cfg.cooperative && ir.insts.iter().any(|i| matches!(i, Inst::GridSync))
}

/// Blocks `from..to` (positions) on `workers` workers: contiguous ranges, `workers × 8` at most.
fn ranges(from: u64, to: u64, workers: u64) -> Vec<std::ops::Range<u64>> {
    let n = to - from;
    let chunks = (workers * 8).min(n).max(1);
    // In 128 bits: a grid may have 2^63 blocks.
    let cut = |c: u64| from + (u128::from(c) * u128::from(n) / u128::from(chunks)) as u64;
    (0..chunks).map(|c| cut(c)..cut(c + 1)).collect()
}

/// Up to eight blocks as `(x, y, z), …`, and how many more there are.
fn name_blocks(cfg: &LaunchConfig, ids: &[u64]) -> String {
    let mut s: Vec<String> = ids
        .iter()
        .take(8)
        .map(|&id| {
            let [x, y, z] = cfg.block_of(id);
            format!("({x}, {y}, {z})")
        })
        .collect();
    if ids.len() > 8 {
        s.push(format!("and {} more", ids.len() - 8));
    }
    s.join(", ")
}

/// Runs every block of the grid, on `cfg.threads` workers.
///
/// Blocks are split into contiguous ranges; per-instruction counters add up (so they do not
/// depend on the number of workers), race descriptions are ordered by block, and a trap reports
/// the first failing block in grid order. Kernels with global atomics run their blocks in order
/// on one worker, so that e.g. floating-point `atomicAdd` sums are the same on every run.
pub fn launch(ir: &KernelIr, cfg: &LaunchConfig, args: &mut Args) -> Result<Outcome, RunError> {
    launch_counting(ir, cfg, args, &Progress::default())
}

/// How far a launch has got, for a progress display: read while it runs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Blocks finished.
    pub blocks: AtomicU64,
    /// Warp steps taken (what `--max-steps` counts), added every few thousand.
    pub steps: AtomicU64,
}

/// [`launch`], counting finished blocks and steps in `progress` as it goes.
pub fn launch_counting(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    args: &mut Args,
    progress: &Progress,
) -> Result<Outcome, RunError> {
    launch_from(ir, cfg, args, progress, None, None)
}

/// Runs only the blocks `ids` (linear ids, ascending) of the grid, and reports each one's
/// totals in [`Outcome::block_totals`], in that order: what a sampled run measures.
pub fn launch_blocks(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    args: &mut Args,
    progress: &Progress,
    ids: &[u64],
) -> Result<Outcome, RunError> {
    launch_from(ir, cfg, args, progress, Some(ids), None)
}

/// Runs only the blocks `ids` (linear ids) with the cache model of `cfg`, group by group: each
/// group's blocks are replayed through the one L2 as a wave (emptied first where the group
/// says so), and [`Outcome::group_cache`] holds each group's counts. What a sampled run's cache
/// clusters measure (`sample::cache_plan`).
pub fn launch_groups(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    args: &mut Args,
    progress: &Progress,
    ids: &[u64],
    groups: &[BlockGroup],
) -> Result<Outcome, RunError> {
    launch_from(ir, cfg, args, progress, Some(ids), Some(groups))
}

/// [`launch_counting`] of the blocks `ids` (all when `None`, each one's totals kept when given),
/// with the cache model in `groups` when given; buffers the kernel keeps in narrower elements
/// are re-typed for the run and back after it.
fn launch_from(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    args: &mut Args,
    progress: &Progress,
    ids: Option<&[u64]>,
    groups: Option<&[BlockGroup]>,
) -> Result<Outcome, RunError> {
    let retyped = narrowed::narrow(&ir.narrowed, args)?;
    let outcome = launch_typed(ir, cfg, args, progress, ids, groups);
    narrowed::widen(args, &retyped);
    outcome
}

/// [`launch_from`] of buffers in the types the kernel keeps them in.
fn launch_typed(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    args: &mut Args,
    progress: &Progress,
    ids: Option<&[u64]>,
    groups: Option<&[BlockGroup]>,
) -> Result<Outcome, RunError> {
    // Each warp's launch is a step: a grid with more warps than the limit can never finish.
    let per_block = cfg.threads_per_block().div_ceil(32).max(1);
    if cfg.blocks().saturating_mul(per_block) > cfg.max_steps {
        return Err(RunError::GridStepLimit {
            limit: cfg.max_steps,
            block: cfg.block_of(cfg.max_steps / per_block),
            blocks: cfg.blocks(),
        });
    }
    if let Some(s) = ir.block_shapes.iter().find(|s| !s.fits(cfg.block)) {
        return Err(RunError::BlockShape {
            span: s.span,
            expected: s.dims,
            found: cfg.block,
        });
    }
    let shared_lens = shared_lens(ir, cfg);
    // Each array is viewed as cells once; parameters into one array share its cells.
    // An `empty(n)` array's shadow: one bit per element, set once a thread writes it.
    let shadows: Vec<Option<Vec<AtomicU64>>> = args
        .buffers
        .iter()
        .map(|b| {
            b.written.as_ref().map(|bits| {
                (0..b.data.len().div_ceil(64))
                    .map(|k| AtomicU64::new(bits.get(k).copied().unwrap_or(0)))
                    .collect()
            })
        })
        .collect();
    let arrays: Vec<(&str, cells::Cells<'_>, Option<&[AtomicU64]>, u32)> = args
        .buffers
        .iter_mut()
        .zip(&shadows)
        .map(|(Buffer { name, data, .. }, shadow)| {
            let bytes = data.elem().size();
            (name.as_str(), cells::share(data), shadow.as_deref(), bytes)
        })
        .collect();
    let globals: Vec<Option<GlobalBuf<'_>>> = args
        .pointers
        .iter()
        .map(|p| {
            p.as_ref().map(|p| match p.buffer {
                Some(b) => GlobalBuf {
                    name: arrays[b].0,
                    cells: Some(arrays[b].1),
                    offset: p.offset,
                    unset: false,
                    written: arrays[b].2,
                    sector_base: (b as u64 + 1) << 40,
                    address: crate::ir::global_address(b, p.offset, arrays[b].3),
                    array: b as u32,
                },
                None => GlobalBuf {
                    name: &p.name,
                    cells: None,
                    offset: 0,
                    unset: p.unset,
                    written: None,
                    sector_base: 0,
                    address: 0,
                    array: 0,
                },
            })
        })
        .collect();
    // What the workers split: the grid's blocks, or the positions in `ids`.
    let blocks = ids.map_or(cfg.blocks(), |ids| ids.len() as u64);
    // Whether a read of an `empty` array comes before a write depends on the order blocks run
    // in: block order, on one worker.
    let workers = if shadows.iter().any(Option::is_some) {
        1
    } else {
        workers(ir, cfg)
    };
    // A sample of blocks for the counters runs without the L2 model: its blocks are not resident
    // together. Each keeps its L1 share (which starts empty with every block, sampled or not):
    // the latency rounds (`rounds`) need to know which loads hit it. Its cache clusters
    // (`groups`) run with the L2.
    let l2_model = !(ids.is_some() && groups.is_none());
    let work = Work {
        ir,
        cfg,
        shared_lens: &shared_lens,
        scalars: &args.scalars,
        globals: &globals,
        textures: &args.textures,
        budget: &progress.steps,
        first_failure: AtomicU64::new(u64::MAX),
        blocks_done: &progress.blocks,
        ids,
    };
    let pool = (workers > 1 && blocks > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(workers as usize)
                .build()
                .ok()
        })
        .flatten();
    // With the cache model, the grid runs one wave of resident blocks at a time: the wave's
    // traces go through the L2 before the next wave starts. Without it, the grid is one wave.
    // A cooperative launch's blocks are all resident: one wave.
    let wave = match cfg.cache.filter(|_| l2_model) {
        Some(c) if !grid_barriers(ir, cfg) => c.wave_blocks.max(1),
        _ => blocks.max(1),
    };
    let mut l2 = cfg
        .cache
        .filter(|_| l2_model)
        .map(|c| cache::L2::new(c.l2_bytes));
    let mut parts: Vec<Part> = Vec::new();
    let mut group_cache = Vec::new();
    // Races between blocks (cooperative launches), the instructions they hit, and the stretches
    // between grid barriers so far.
    let names: Vec<&str> = arrays.iter().map(|a| a.0).collect();
    let (mut cross_races, mut cross_insts, mut stretches) = (Vec::new(), Vec::new(), 0u32);
    let mut start = 0;
    for g in 0.. {
        let end = match groups {
            Some(groups) if g == groups.len() => break,
            Some(groups) => (groups[g].end as u64).clamp(start, blocks),
            None if start >= blocks => break,
            None => start.saturating_add(wave).min(blocks),
        };
        if let (Some(groups), Some(l2)) = (groups, &mut l2) {
            if groups[g].clear {
                l2.clear();
            }
        }
        // Blocks park at grid barriers: the wave runs again from there, stretch after stretch,
        // until every block has ended.
        let mut chunks: Vec<Chunk> = match &pool {
            Some(_) if end - start > 1 => ranges(start, end, workers)
                .into_iter()
                .map(Chunk::Fresh)
                .collect(),
            _ if end > start => vec![Chunk::Fresh(start..end)],
            _ => Vec::new(),
        };
        let mut wave_parts: Vec<Part> = Vec::new();
        loop {
            let mut stretch: Vec<Part> = match &pool {
                Some(pool) if chunks.len() > 1 => {
                    pool.install(|| chunks.into_par_iter().map(|c| work.run(c)).collect())
                }
                // One worker, or no threads to be had: the same work in order on this one.
                _ => chunks.into_iter().map(|c| work.run(c)).collect(),
            };
            if let Some(l2) = &mut l2 {
                let mut traces: Vec<&[cache::Touch]> = Vec::new();
                for p in &stretch {
                    let mut from = 0;
                    for &end in &p.trace_ends {
                        traces.push(&p.traces[from..end]);
                        from = end;
                    }
                }
                l2.replay_wave(&traces);
                if groups.is_some() {
                    let hits = stretch.iter().map(|p| p.l1_hits).sum();
                    let misses = stretch.iter().map(|p| p.l1_misses).sum();
                    group_cache.push(l2.finish(hits, misses));
                }
            }
            let mut parked = Vec::new();
            let mut ended = Vec::new();
            let mut touches = Vec::new();
            for p in &mut stretch {
                p.traces = Vec::new();
                parked.append(&mut p.parked);
                ended.append(&mut p.ended);
                touches.append(&mut p.touches);
            }
            if !touches.is_empty() {
                let (mut found, mut insts) =
                    grid_race::find(ir, cfg, &touches, (stretches, &names));
                race::merge(&mut cross_races, std::mem::take(&mut found), |a, b| {
                    ir.site(a.inst) == ir.site(b.inst)
                        && ir.site(a.other_inst) == ir.site(b.other_inst)
                        && a.array == b.array
                });
                cross_insts.append(&mut insts);
            }
            stretches += 1;
            let failed = stretch.iter().any(|p| p.failure.is_some());
            wave_parts.append(&mut stretch);
            if failed || parked.is_empty() {
                break;
            }
            if !ended.is_empty() {
                let ids = |v: &[u64]| -> Vec<u64> {
                    v.iter()
                        .map(|&i| ids.map_or(i, |ids| ids[i as usize]))
                        .collect()
                };
                let waiting: Vec<u64> = ids(&parked.iter().map(|(i, _)| *i).collect::<Vec<_>>());
                return Err(RunError::GridDeadlock {
                    span: ir.spans[parked[0].1.at()],
                    waiting: waiting.len() as u64,
                    waiting_blocks: name_blocks(cfg, &waiting),
                    ended: ended.len() as u64,
                    ended_blocks: name_blocks(cfg, &ids(&ended)),
                });
            }
            chunks = match &pool {
                Some(_) if parked.len() > 1 => {
                    let mut parked = parked.into_iter();
                    ranges(0, parked.len() as u64, workers)
                        .into_iter()
                        .map(|r| Chunk::Parked(parked.by_ref().take(r.count()).collect()))
                        .collect()
                }
                _ => vec![Chunk::Parked(parked)],
            };
        }
        let failed = wave_parts.iter().any(|p| p.failure.is_some());
        parts.append(&mut wave_parts);
        if failed {
            break;
        }
        start = end;
    }
    let mut per_inst = vec![InstCounters::default(); ir.insts.len()];
    let mut first_access: Vec<Option<WarpAccess>> = vec![None; ir.insts.len()];
    let mut barrier_protects = vec![false; ir.insts.len()];
    let mut barrier_passes = vec![BarrierPass::default(); ir.insts.len()];
    let mut races = Vec::new();
    let mut uninit = Vec::new();
    let mut failure: Option<(u64, RunError)> = None;
    let mut printf = String::new();
    let mut printf_truncated = false;
    let mut block_totals = Vec::new();
    let (mut l1_hits, mut l1_misses) = (0, 0);
    for part in parts {
        l1_hits += part.l1_hits;
        l1_misses += part.l1_misses;
        block_totals.extend(part.block_totals);
        // Parts come in block order, so their output does too; the buffer holds the first MiB.
        printf_truncated |= part.printf_truncated;
        if printf.len() < block::PRINTF_LIMIT {
            printf.push_str(&part.printf);
        } else if !part.printf.is_empty() {
            printf_truncated = true;
        }
        for (total, c) in per_inst.iter_mut().zip(&part.counters) {
            *total += *c;
        }
        // Parts come in block order: the first one that saw an instruction wins.
        for (first, seen) in first_access.iter_mut().zip(part.first_access) {
            if first.is_none() {
                *first = seen;
            }
        }
        for (all, p) in barrier_protects.iter_mut().zip(&part.barrier_protects) {
            *all |= *p;
        }
        for (all, p) in barrier_passes.iter_mut().zip(&part.barrier_passes) {
            *all |= *p;
        }
        // Parts come in block order: a group first found in a later part comes later.
        race::merge(&mut races, part.races, |a, b| {
            a.kind == b.kind
                && ir.site(a.inst) == ir.site(b.inst)
                && ir.site(a.other_inst) == ir.site(b.other_inst)
                && a.array == b.array
        });
        race::merge(&mut uninit, part.uninit, |a, b| {
            ir.site(a.inst) == ir.site(b.inst) && a.array == b.array
        });
        if let Some((id, e)) = part.failure {
            if failure.as_ref().is_none_or(|(first, _)| id < *first) {
                failure = Some((id, e));
            }
        }
    }
    if let Some((_, e)) = failure {
        return Err(e);
    }
    for inst in cross_insts {
        per_inst[inst as usize].race_count += 1;
    }
    race::merge(&mut races, cross_races, |a, b| {
        a.kind == b.kind
            && ir.site(a.inst) == ir.site(b.inst)
            && ir.site(a.other_inst) == ir.site(b.other_inst)
            && a.array == b.array
    });
    let mut counters = Counters {
        blocks,
        threads: blocks * cfg.threads_per_block(),
        ..Counters::default()
    };
    for c in &per_inst {
        counters.add(c);
    }
    for (b, shadow) in args.buffers.iter_mut().zip(shadows) {
        if let Some(shadow) = shadow {
            b.written = Some(shadow.into_iter().map(AtomicU64::into_inner).collect());
        }
    }
    if printf.len() > block::PRINTF_LIMIT {
        let mut cut = block::PRINTF_LIMIT;
        while !printf.is_char_boundary(cut) {
            cut -= 1;
        }
        printf.truncate(cut);
        printf_truncated = true;
    }
    Ok(Outcome {
        counters,
        per_inst,
        races,
        uninit,
        block_totals,
        first_access,
        barrier_protects,
        barrier_passes,
        printf,
        printf_truncated,
        cache: l2.map(|mut l2| l2.finish(l1_hits, l1_misses)),
        group_cache,
    })
}

/// Warps of launched blocks a worker counts before adding them to the launch's steps.
const LAUNCH_FLUSH: u64 = 4096;

/// Finished blocks a worker counts before adding them to the progress count.
const DONE_FLUSH: u64 = 64;

/// Launches with fewer threads than this run their blocks on one worker (the default
/// [`LaunchConfig::parallel_min`]).
pub const PARALLEL_MIN_THREADS: u64 = 1 << 15;

/// Blocks one worker runs, in order: a range of positions from their start, or blocks parked
/// at a grid barrier that every block has reached.
enum Chunk {
    Fresh(std::ops::Range<u64>),
    Parked(Vec<(u64, Parked)>),
}

/// What one range of blocks produced.
struct Part {
    counters: Vec<InstCounters>,
    first_access: Vec<Option<WarpAccess>>,
    barrier_protects: Vec<bool>,
    barrier_passes: Vec<BarrierPass>,
    races: Vec<Group<Race>>,
    uninit: Vec<Group<Uninit>>,
    block_totals: Vec<Counters>,
    printf: String,
    printf_truncated: bool,
    failure: Option<(u64, RunError)>,
    /// With the cache model: the blocks' traces to the L2, one after another in block order.
    traces: Vec<cache::Touch>,
    /// Where each block's trace ends in `traces`.
    trace_ends: Vec<usize>,
    /// L1 hits and misses of its blocks.
    l1_hits: u64,
    l1_misses: u64,
    /// Its blocks that stopped at a grid barrier (positions), in order.
    parked: Vec<(u64, Parked)>,
    /// In a cooperative launch: its blocks that ended (positions), in order.
    ended: Vec<u64>,
    /// In a cooperative launch: each block's global accesses in this stretch (linear id).
    touches: Vec<(u64, Vec<grid_race::Touch>)>,
}

/// Everything the workers share.
struct Work<'a> {
    ir: &'a KernelIr,
    cfg: &'a LaunchConfig,
    shared_lens: &'a [usize],
    scalars: &'a [Option<Value>],
    globals: &'a [Option<GlobalBuf<'a>>],
    textures: &'a [crate::texture::Texture],
    budget: &'a AtomicU64,
    /// Linear id of the first block known to have trapped.
    first_failure: AtomicU64,
    /// Blocks finished so far.
    blocks_done: &'a AtomicU64,
    /// The blocks to run (linear ids, ascending), each one's totals kept; `None`: the grid.
    ids: Option<&'a [u64]>,
}

impl Work<'_> {
    /// Runs the blocks of `chunk` (linear ids, or positions in `ids`) in order on one runner.
    fn run(&self, chunk: Chunk) -> Part {
        let mut runner = BlockRunner::new(
            self.ir,
            self.cfg,
            self.shared_lens,
            self.budget,
            self.textures,
        );
        let mut failure = None;
        let warps = self.cfg.threads_per_block().div_ceil(32);
        // The launch's step count as this worker last saw it, and its own blocks' launch steps
        // not yet added: the shared counter is touched once per LAUNCH_FLUSH warps, not per block
        // (one cache line bounced between cores per block cost vecadd a fifth of its time).
        let (mut seen, mut pending) = (0u64, 0u64);
        let mut done = 0u64;
        let mut counters = vec![InstCounters::default(); self.ir.insts.len()];
        let mut block_totals = Vec::new();
        let (mut traces, mut trace_ends) = (Vec::new(), Vec::new());
        let (mut parked, mut ended, mut touches) = (Vec::new(), Vec::new(), Vec::new());
        let blocks: Box<dyn Iterator<Item = (u64, Option<Parked>)>> = match chunk {
            Chunk::Fresh(range) => Box::new(range.map(|i| (i, None))),
            Chunk::Parked(blocks) => Box::new(blocks.into_iter().map(|(i, p)| (i, Some(p)))),
        };
        for (i, waiting) in blocks {
            let id = self.ids.map_or(i, |ids| ids[i as usize]);
            // A block after a known failure cannot be the first one: skip it.
            if id > self.first_failure.load(Ordering::Relaxed) {
                break;
            }
            let stop = match waiting {
                Some(p) => runner.resume(p, self.globals),
                None => {
                    // Launching a block costs its warps a step each, so that even an empty
                    // kernel on a grid of 2^31 × 65535 × 65535 blocks ends at the limit. On one
                    // worker `seen + pending` is the exact count.
                    pending += warps;
                    if pending >= LAUNCH_FLUSH
                        && self.cfg.deadline.as_ref().is_some_and(Deadline::passed)
                    {
                        self.first_failure.fetch_min(id, Ordering::Relaxed);
                        failure = Some((id, runner.timeout(0)));
                        break;
                    }
                    if pending >= LAUNCH_FLUSH || seen + pending > self.cfg.max_steps {
                        seen = self.budget.fetch_add(pending, Ordering::Relaxed) + pending;
                        pending = 0;
                        if seen > self.cfg.max_steps {
                            self.first_failure.fetch_min(id, Ordering::Relaxed);
                            failure = Some((
                                id,
                                RunError::GridStepLimit {
                                    limit: self.cfg.max_steps,
                                    block: self.cfg.block_of(id),
                                    blocks: self.cfg.blocks(),
                                },
                            ));
                            break;
                        }
                    }
                    runner.run(self.cfg.block_of(id), self.scalars, self.globals)
                }
            };
            if let (Ok(_), Some(log)) = (&stop, &mut runner.grid_log) {
                touches.push((id, log.take()));
            }
            match stop {
                Err(e) => {
                    self.first_failure.fetch_min(id, Ordering::Relaxed);
                    failure = Some((id, e));
                    break;
                }
                Ok(Some(p)) => parked.push((i, p)),
                Ok(None) if self.cfg.cooperative => ended.push(i),
                Ok(None) => {}
            }
            if let Some(l1) = &runner.l1 {
                traces.extend_from_slice(&l1.trace);
                trace_ends.push(traces.len());
            }
            if self.ids.is_some() {
                let block = runner.take_counters();
                let mut total = Counters::default();
                for (sum, c) in counters.iter_mut().zip(&block) {
                    *sum += *c;
                    total.add(c);
                }
                block_totals.push(total);
            }
            done += 1;
            if done == DONE_FLUSH {
                self.blocks_done.fetch_add(done, Ordering::Relaxed);
                done = 0;
            }
        }
        self.budget.fetch_add(pending, Ordering::Relaxed);
        self.blocks_done.fetch_add(done, Ordering::Relaxed);
        for (sum, c) in counters.iter_mut().zip(&runner.take_counters()) {
            *sum += *c;
        }
        Part {
            counters,
            block_totals,
            first_access: std::mem::take(&mut runner.first_access),
            barrier_protects: std::mem::take(&mut runner.barrier_protects),
            barrier_passes: std::mem::take(&mut runner.barrier_passes),
            races: std::mem::take(&mut runner.races),
            uninit: std::mem::take(&mut runner.uninit),
            printf: std::mem::take(&mut runner.printf),
            printf_truncated: runner.printf_truncated,
            failure,
            traces,
            trace_ends,
            l1_hits: runner.l1.as_ref().map_or(0, |l1| l1.hits),
            l1_misses: runner.l1.as_ref().map_or(0, |l1| l1.misses),
            parked,
            ended,
            touches,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    /// The kernel of `src`, lowered.
    fn lowered(src: &str) -> KernelIr {
        let (_, program) =
            crate::pipeline::compile(&SourceFile::new("t.sk", src)).expect("the kernel compiles");
        crate::ir::lower(&program.kernels[0])
    }

    fn config(grid: u32, block: u32, threads: usize) -> LaunchConfig {
        LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dyn_smem: 0,
            max_steps: crate::pipeline::DEFAULT_MAX_STEPS,
            max_block_steps: crate::pipeline::DEFAULT_MAX_BLOCK_STEPS,
            deadline: None,
            threads,
            cooperative: false,
            // Every launch on the parallel path, however small.
            parallel_min: 0,
            probe: Probe::default(),
            cache: None,
        }
    }

    fn buffer(name: &str, data: BufData) -> Option<Buffer> {
        Some(Buffer {
            name: name.into(),
            data,
            written: None,
        })
    }

    #[test]
    fn global_atomics_give_the_same_results_on_any_number_of_workers() {
        // 262 144 threads each take a slot with `atomicAdd(n, 1)` (the old value orders them)
        // and add x[i] into a float sum, whose rounding depends on the order of the adds. On
        // one worker in block order: n = 262144, and the slots and the sum are the same
        // however many workers the launch is given (the guard in `workers`, checked here with
        // every launch forced onto the parallel path).
        let ir = lowered(
            "__global__ void k(int* n, float* sum, int* order, const float* x) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             order[atomicAdd(n, 1)] = i;\n\
             atomicAdd(sum, x[i]);\n}\n",
        );
        let len = 1 << 18;
        let x: Vec<f32> = (0..len).map(|i| 1.0 / (1 + i % 977) as f32).collect();
        let run = |threads| {
            let mut args = Args::separate(
                vec![None; 4],
                vec![
                    buffer("n", BufData::I32(vec![0])),
                    buffer("sum", BufData::F32(vec![0.0])),
                    buffer("order", BufData::I32(vec![0; len])),
                    buffer("x", BufData::F32(x.clone())),
                ],
            );
            let cfg = config(1024, 256, threads);
            launch_from(&ir, &cfg, &mut args, &Progress::default(), None, None).expect("runs");
            args.buffers
        };
        let one = run(1);
        assert_eq!(one[0].data, BufData::I32(vec![len as i32]));
        for threads in [2, 4] {
            assert_eq!(run(threads), one, "{threads} workers");
        }
    }

    #[test]
    fn atomics_through_a_pointer_into_several_buffers_run_as_global_atomics() {
        // The float sums of odd and even threads go to two buffers through one pointer: their
        // rounding depends on the order of the adds, so the guard must see these atomics as
        // global ones, and the sums match on any number of workers.
        let ir = lowered(
            "__global__ void k(float* even, float* odd, const float* x) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             float* s = (i & 1) ? odd : even;\n\
             atomicAdd(s, x[i]);\n}\n",
        );
        let len = 1 << 18;
        let x: Vec<f32> = (0..len).map(|i| 1.0 / (1 + i % 977) as f32).collect();
        let run = |threads| {
            let mut args = Args::separate(
                vec![None; 3],
                vec![
                    buffer("even", BufData::F32(vec![0.0])),
                    buffer("odd", BufData::F32(vec![0.0])),
                    buffer("x", BufData::F32(x.clone())),
                ],
            );
            let cfg = config(1024, 256, threads);
            assert_eq!(workers(&ir, &cfg), 1);
            launch_from(&ir, &cfg, &mut args, &Progress::default(), None, None).expect("runs");
            args.buffers
        };
        let one = run(1);
        for threads in [2, 4] {
            assert_eq!(run(threads), one, "{threads} workers");
        }
    }

    #[test]
    fn the_first_failing_block_in_grid_order_is_reported_from_any_worker() {
        // Blocks 5, 9 and 13 of 16 write before the start of `a`; on several workers the blocks
        // are spread over 16 ranges of one block each, and block 5 loops a while first, so that
        // 9 and 13 fail before it does: the report still names block 5.
        let ir = lowered(
            "__global__ void k(float* a) {\n\
             int b = blockIdx.x;\n\
             float s = 0.0f;\n\
             if (b == 5) { for (int k = 0; k < 20000; k++) s += 1.0f; }\n\
             if (b % 4 == 1 && b >= 5) a[b - 100] = s;\n\
             a[b * blockDim.x + threadIdx.x] = 2.0f;\n}\n",
        );
        for threads in [1, 2, 4] {
            let mut args = Args::separate(
                vec![None],
                vec![buffer("a", BufData::F32(vec![0.0; 16 * 64]))],
            );
            let cfg = config(16, 64, threads);
            match launch_from(&ir, &cfg, &mut args, &Progress::default(), None, None) {
                Err(RunError::OutOfBounds { block, index, .. }) => {
                    assert_eq!((block, index), ([5, 0, 0], -95), "{threads} workers");
                }
                other => panic!("{threads} workers: {:?}", other.map(|o| o.counters)),
            }
        }
    }

    /// Runs `ir` over `grid` blocks of `block` threads with the cache model (`l1` bytes per block,
    /// `l2` bytes, `wave` blocks per wave) on `threads` workers, forced parallel; `a` is the
    /// kernel's one input array and `out` its output.
    fn cached(
        ir: &KernelIr,
        (grid, block, threads): (u32, u32, usize),
        (l1, l2, wave): (u64, u64, u64),
        a: Vec<f32>,
        out: usize,
    ) -> CacheStats {
        let mut args = Args::separate(
            vec![None; 2],
            vec![
                buffer("a", BufData::F32(a)),
                buffer("out", BufData::F32(vec![0.0; out])),
            ],
        );
        let cfg = LaunchConfig {
            cache: Some(CacheConfig {
                l1_bytes_per_block: l1,
                l2_bytes: l2,
                wave_blocks: wave,
            }),
            ..config(grid, block, threads)
        };
        let o = launch_from(ir, &cfg, &mut args, &Progress::default(), None, None).expect("runs");
        let k = o.cache.expect("the cache model ran");
        // Every global-load sector is looked up in L1 once; every L1 miss reads L2 once.
        assert_eq!(k.l1_hit_sectors + k.l1_miss_sectors, o.counters.gld_sectors);
        assert_eq!(
            k.l2_read_hit_sectors + k.l2_read_miss_sectors,
            k.l1_miss_sectors
        );
        assert_eq!(k.l2_write_sectors, o.counters.gst_sectors);
        k
    }

    #[test]
    fn a_stream_without_reuse_never_hits() {
        // 8 blocks × 256 threads copy 2048 floats: each warp reads and writes 4 new sectors, so
        // 256 sectors are read, all L1 and L2 misses (8192 bytes from DRAM), and 256 written
        // (8192 bytes written back at the end).
        let ir = lowered(
            "__global__ void k(const float* a, float* out) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             out[i] = a[i];\n}\n",
        );
        let k = cached(
            &ir,
            (8, 256, 1),
            (16 << 10, 1 << 20, 4),
            vec![1.0; 2048],
            2048,
        );
        assert_eq!((k.l1_hit_sectors, k.l1_miss_sectors), (0, 256));
        assert_eq!((k.l2_read_hit_sectors, k.l2_read_miss_sectors), (0, 256));
        assert_eq!(k.l2_write_sectors, 256);
        assert_eq!((k.dram_read_bytes, k.dram_write_bytes), (8192, 8192));
    }

    #[test]
    fn a_block_rereading_its_tile_hits_on_the_second_pass() {
        // 4 blocks × 256 threads each read their 256 floats (32 sectors) twice: the first pass
        // misses 32 sectors per block, the second finds all 32 in the block's 16 KB L1 share:
        // hits = 4 × 32 = 128 = the second pass's sectors, misses = 128.
        let ir = lowered(
            "__global__ void k(const float* a, float* out) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             float s = 0.0f;\n\
             for (int p = 0; p < 2; p++) s += a[i];\n\
             out[i] = s;\n}\n",
        );
        let k = cached(
            &ir,
            (4, 256, 1),
            (16 << 10, 1 << 20, 4),
            vec![1.0; 1024],
            1024,
        );
        assert_eq!((k.l1_hit_sectors, k.l1_miss_sectors), (128, 128));
        // Without an L1 the second pass hits in L2 instead.
        let k = cached(&ir, (4, 256, 1), (0, 1 << 20, 4), vec![1.0; 1024], 1024);
        assert_eq!((k.l1_hit_sectors, k.l1_miss_sectors), (0, 256));
        assert_eq!((k.l2_read_hit_sectors, k.l2_read_miss_sectors), (128, 128));
    }

    #[test]
    fn a_working_set_larger_than_l2_misses_on_every_pass() {
        // One block walks 16384 floats (64 KB = 2048 sectors) twice, without an L1. An 8 KB L2
        // (64 lines) holds far less than the 512 lines walked in between, and LRU evicts each
        // line before it comes round again: both passes miss, 4096 sectors from DRAM. A 1 MB L2
        // keeps them all: the second pass hits, 2048 misses.
        let ir = lowered(
            "__global__ void k(const float* a, float* out) {\n\
             float s = 0.0f;\n\
             for (int p = 0; p < 2; p++)\n\
                 for (int j = threadIdx.x; j < 16384; j += blockDim.x) s += a[j];\n\
             out[threadIdx.x] = s;\n}\n",
        );
        let small = cached(&ir, (1, 256, 1), (0, 8 << 10, 1), vec![1.0; 16384], 256);
        assert_eq!(
            (small.l2_read_hit_sectors, small.l2_read_miss_sectors),
            (0, 4096)
        );
        assert_eq!(small.dram_read_bytes, 4096 * 32);
        let large = cached(&ir, (1, 256, 1), (0, 1 << 20, 1), vec![1.0; 16384], 256);
        assert_eq!(
            (large.l2_read_hit_sectors, large.l2_read_miss_sectors),
            (2048, 2048)
        );
    }

    #[test]
    fn the_cache_model_gives_the_same_counts_on_any_number_of_workers() {
        // 96 blocks each read the shared 4096-float `a` at a block-dependent offset and a strided
        // column, in waves of 12 blocks through a 16 KB L2 that cannot hold a wave's data: hits
        // depend on the order sectors reach the L2, which must not depend on the workers.
        let ir = lowered(
            "__global__ void k(const float* a, float* out) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             float s = 0.0f;\n\
             for (int j = 0; j < 8; j++) s += a[(i + 512 * j + 37 * blockIdx.x) % 4096];\n\
             s += a[(threadIdx.x * 16 + blockIdx.x) % 4096];\n\
             out[i] = s;\n}\n",
        );
        let run = |threads| {
            cached(
                &ir,
                (96, 128, threads),
                (2 << 10, 16 << 10, 12),
                (0..4096).map(|x| x as f32).collect(),
                96 * 128,
            )
        };
        let one = run(1);
        assert!(one.l1_hit_sectors > 0 && one.l2_read_hit_sectors > 0);
        assert!(one.l2_read_miss_sectors > 0);
        for threads in [2, 3, 4] {
            assert_eq!(run(threads), one, "{threads} workers");
        }
    }

    #[test]
    fn small_launches_stay_on_one_worker_and_large_ones_spread() {
        let ir = lowered("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n");
        let default = |grid| LaunchConfig {
            parallel_min: PARALLEL_MIN_THREADS,
            ..config(grid, 256, 8)
        };
        // 127 × 256 threads are fewer than 2^15 = 128 × 256.
        assert_eq!(workers(&ir, &default(127)), 1);
        assert_eq!(workers(&ir, &default(128)), 8);
        assert_eq!(workers(&ir, &config(1, 32, 8)), 8);
        let atomic = lowered("__global__ void k(int* n) { atomicAdd(n, 1); }\n");
        assert_eq!(workers(&atomic, &config(1 << 20, 256, 8)), 1);
    }
}
