//! The result of a run as plain data, rendered for people (`table`, `html`) or scripts (`json`,
//! through the typed output model, `model`).

pub mod barriers;
pub mod gates;
pub mod hints;
pub mod html;
pub mod json;
pub mod lanemap;
pub mod lines;
pub mod model;
pub mod style;
pub mod table;

use schemars::JsonSchema;
use serde::Serialize;

use crate::check::typed::Kernel;
use crate::exec::{
    CacheConfig, CacheStats, Counters, Group, Outcome, Race, RaceKind, Uninit, SECTOR_BYTES,
};
use crate::gpu::{
    estimate_time, refined_time, CacheTraffic, Occupancy, RefinedInputs, RefinedTime, TimeEstimate,
    TimeInputs,
};
use crate::gpu::{occupancy, GpuConfig, OccupancyRequest, PipeInstr};
use crate::host::ExpectResult;
use crate::ir::{KernelIr, Pipe, Space};
use crate::source::SourceFile;
use barriers::BarrierView;
use hints::Hint;
use lines::{InstStat, LineStat, Op};

/// The launch as it ran.
#[derive(Clone, Debug, Serialize, JsonSchema)]
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
    /// The kernel's opt-in to more dynamic shared memory than the default per-block limit
    /// (`--max-dyn-smem`), bytes; only present when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_dyn_smem: Option<u64>,
    /// Registers per thread assumed for occupancy (`--regs`).
    pub regs_per_thread: u32,
    /// The cache model's sizes, when the launch ran with it (not in a sampled run).
    pub cache: Option<CacheConfig>,
}

/// Wall-clock seconds of each phase of `simt run`.
#[derive(Clone, Copy, Debug, Default, Serialize, JsonSchema)]
pub struct Timing {
    /// Reading, parsing and checking the file.
    pub parse: f64,
    /// Running the launch section and lowering.
    pub setup: f64,
    /// Running the blocks.
    pub simulate: f64,
    /// Checking `expect`s, saving buffers and building the report.
    pub report: f64,
}

/// The races of one kind between two source lines, with the lines' text and where a barrier
/// would separate them.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RaceView {
    /// The first instance (RAW, WAR, WAW or a duplicate global store) and the counts.
    #[serde(flatten)]
    pub race: Group<Race>,
    /// How this access touches the word: `read`, `write` or `atomic`.
    pub access: &'static str,
    /// How the earlier conflicting access touched it.
    pub other_access: &'static str,
    /// Line of this access.
    pub line: usize,
    /// Line of the earlier conflicting access.
    pub other_line: usize,
    /// The source of this access's line.
    pub source: String,
    /// The line after which a `__syncthreads()` would separate the two accesses (`None`: no barrier helps).
    pub barrier_after_line: Option<usize>,
    /// Where the barrier goes, in words.
    pub fix: String,
}

impl RaceView {
    /// One sentence describing the first instance.
    pub fn describe(&self) -> String {
        let r = &self.race.first;
        let b = r.block;
        let verb = |access: &str, writes: &'static str| match access {
            "atomic" => "atomically updates",
            "read" => "reads",
            _ => writes,
        };
        let by = |access: &str| {
            if access == "atomic" {
                " atomically"
            } else {
                ""
            }
        };
        match r.kind {
            RaceKind::ReadAfterWrite => format!(
                "RAW in block ({},{},{}) epoch {}: warp {} reads {}[{}] (line {}) written{} by warp {} (line {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.warp, r.array, r.index, self.line, by(self.other_access), r.other_warp, self.other_line
            ),
            RaceKind::WriteAfterRead => format!(
                "WAR in block ({},{},{}) epoch {}: warp {} {} {}[{}] (line {}) read by warp {} (line {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.warp, verb(self.access, "overwrites"), r.array, r.index, self.line, r.other_warp, self.other_line
            ),
            RaceKind::WriteAfterWrite => format!(
                "WAW in block ({},{},{}) epoch {}: warp {} {} {}[{}] (line {}) written{} by warp {} (line {}) with no __syncthreads() between",
                b[0], b[1], b[2], r.epoch, r.warp, verb(self.access, "overwrites"), r.array, r.index, self.line, by(self.other_access), r.other_warp, self.other_line
            ),
            RaceKind::CrossBlock => {
                let o = r.other_block.unwrap_or_default();
                format!(
                    "between blocks: block ({},{},{}) {} {}[{}] (line {}), which block ({},{},{}) {} (line {}), with no this_grid().sync() between",
                    b[0], b[1], b[2], verb(self.access, "writes"), r.array, r.index, self.line, o[0], o[1], o[2],
                    match self.other_access { "atomic" => "updates atomically", "read" => "reads", _ => "writes" },
                    self.other_line
                )
            }
            RaceKind::AsyncCopy => format!(
                "async copy in flight in block ({},{},{}): warp {} {} {}[{}] (line {}), which an asynchronous copy of warp {} (line {}) has not finished: wait for it first (consumer_wait, arrive_and_wait, cg::wait, __pipeline_wait_prior)",
                b[0], b[1], b[2], r.warp, verb(self.access, "writes"), r.array, r.index, self.line, r.other_warp, self.other_line
            ),
            RaceKind::LostUpdate => format!(
                "lost update in block ({},{},{}): threads of warp {} update {}[{}] in one compound assignment (line {}); each reads the old value before any stores, so all but one update are lost",
                b[0], b[1], b[2], r.warp, r.array, r.index, self.line
            ),
            RaceKind::GlobalDuplicate => format!(
                "two threads of block ({},{},{}) store to {}[{}] in one instruction (line {}): the surviving value is undefined",
                b[0], b[1], b[2], r.array, r.index, self.line
            ),
        }
    }

    /// How often it happened: `in 4 blocks, 4 warp instructions, 4 words`.
    pub fn extent(&self) -> String {
        extent(self.race.blocks, self.race.warps, self.race.words)
    }
}

/// Reads of uninitialised memory at one source line, with the line's text.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct UninitView {
    /// The first instance and the counts.
    #[serde(flatten)]
    pub read: Group<Uninit>,
    /// Line of the read.
    pub line: usize,
    /// The source of that line.
    pub source: String,
}

impl UninitView {
    /// One sentence describing the first instance.
    pub fn describe(&self) -> String {
        let u = &self.read.first;
        let (b, t) = (u.block, u.thread);
        let before = match u.space {
            "shared" => "before any thread of its block wrote it",
            "local" => "before the thread wrote it",
            "variable" => {
                return format!(
                    "thread ({},{},{}) of block ({},{},{}) reads the variable `{}` (line {}) before anything set it",
                    t[0], t[1], t[2], b[0], b[1], b[2], u.array, self.line
                )
            }
            _ => "before any thread wrote it (the array was made with `empty`)",
        };
        format!(
            "thread ({},{},{}) of block ({},{},{}) reads {} {}[{}] (line {}) {before}",
            t[0], t[1], t[2], b[0], b[1], b[2], u.space, u.array, u.index, self.line
        )
    }

    /// How often it happened.
    pub fn extent(&self) -> String {
        extent(self.read.blocks, self.read.warps, self.read.words)
    }
}

fn extent(blocks: u64, warps: u64, words: u64) -> String {
    let n = |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    format!(
        "in {}, {}, {}",
        n(blocks, "block", "blocks"),
        n(warps, "warp instruction", "warp instructions"),
        n(words, "word", "words")
    )
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
    /// What the L1/L2 model counted, when the launch ran with it.
    pub cache: Option<CacheStats>,
    /// Races, grouped by kind, array and the lines of both accesses.
    pub races: Vec<RaceView>,
    /// Uninitialised reads, grouped by array and line.
    pub uninit: Vec<UninitView>,
    /// The reference's time estimate.
    pub time: TimeEstimate,
    /// The occupancy calculator's result for this launch.
    pub occupancy: Occupancy,
    /// The refined estimate, or why there is none.
    pub refined: Result<RefinedTime, String>,
    /// `expect` results.
    pub expects: Vec<ExpectResult>,
    /// The kernel file.
    pub source: SourceFile,
    /// First and last line of the kernel's definition.
    pub kernel_lines: (usize, usize),
    /// The instructions that issued, with their events.
    pub insts: Vec<InstStat>,
    /// Per-line counters; they add up to the totals.
    pub lines: Vec<LineStat>,
    /// Each `__syncthreads()` that ran and whether it kept two warps' accesses apart.
    pub barriers: Vec<BarrierView>,
    /// Advice derived from the counters.
    pub hints: Vec<Hint>,
    /// Where the time went.
    pub timing: Timing,
    /// What the kernel printed (`printf`), in block order.
    pub printf: String,
    /// Some of it did not fit the device's 1 MiB printf buffer.
    pub printf_truncated: bool,
    /// For a sampled run (`--sample`): what ran, and the error bound of each counter.
    pub sample: Option<crate::exec::sample::Sample>,
}

impl Report {
    /// Builds a report from a finished launch.
    pub fn new(
        src: &SourceFile,
        kernel: &Kernel,
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
        let request = OccupancyRequest {
            opt_in: launch.max_dyn_smem.is_some(),
            ..OccupancyRequest::new(
                launch.threads_per_block as u32,
                launch.regs_per_thread,
                launch.smem_per_block.min(u64::from(u32::MAX)) as u32,
            )
        };
        let occ = occupancy(gpu, &request);
        let refined = refined_time(
            gpu,
            &inputs,
            &RefinedInputs {
                n_blocks: c.blocks,
                request,
                mem_requests: c.gld_instr + c.gst_instr,
                load_requests: c.gld_instr,
                latency_rounds: outcome.per_inst.iter().map(|i| i.latency_rounds).sum(),
                global_wavefronts: c.g_wavefronts,
                pipes: pipes(ir, &outcome.per_inst),
                caches: outcome.cache.map(|k| CacheTraffic {
                    dram_bytes: k.dram_bytes(),
                    l2_bytes: k.l2_sectors() * SECTOR_BYTES,
                }),
            },
        );
        let refined = refined.map(|mut r| {
            if c.grid_syncs > 0 {
                r.assumptions.push(format!(
                    "grid barriers cost nothing: the {} block arrivals at this_grid().sync() are counted, not timed (each is a block barrier plus an atomic and a spin on a global counter; its latency on P100 and V100 is measured in Zhang et al., \"A Study of Single and Multi-device Synchronization Methods in Nvidia GPUs\", IPDPS 2020; simt has no model of it)",
                    c.grid_syncs
                ));
            }
            r
        });
        let line = |inst: u32| src.line_of(ir.spans[inst as usize].start);
        let access = |inst: u32| match ir.insts[inst as usize] {
            crate::ir::Inst::Atomic { .. } => "atomic",
            crate::ir::Inst::Load { .. } | crate::ir::Inst::LoadVec { .. } => "read",
            _ => "write",
        };
        let races = outcome
            .races
            .iter()
            .map(|g| {
                let r = &g.first;
                let (barrier_after_line, fix) = barriers::race_fix(
                    r,
                    line(r.inst),
                    line(r.other_inst),
                    (access(r.inst) == "atomic", access(r.other_inst) == "atomic"),
                );
                RaceView {
                    race: g.clone(),
                    access: access(r.inst),
                    other_access: access(r.other_inst),
                    line: line(r.inst),
                    other_line: line(r.other_inst),
                    source: src.line_text(line(r.inst)).to_string(),
                    barrier_after_line,
                    fix,
                }
            })
            .collect();
        let uninit = outcome
            .uninit
            .iter()
            .map(|g| UninitView {
                read: g.clone(),
                line: line(g.first.inst),
                source: src.line_text(line(g.first.inst)).to_string(),
            })
            .collect();
        let insts = inst_stats(src, kernel, ir, outcome);
        let lines = lines::per_line(&insts, |n| src.line_text(n).to_string());
        let mut report = Report {
            file: src.name().to_string(),
            kernel: ir.name.clone(),
            gpu: gpu.clone(),
            launch,
            counters: c,
            cache: outcome.cache,
            races,
            uninit,
            time: estimate_time(gpu, &inputs),
            occupancy: occ,
            refined,
            expects,
            source: src.clone(),
            kernel_lines: (
                src.line_of(kernel.span.start),
                src.line_of(kernel.span.end.saturating_sub(1)),
            ),
            barriers: barriers::barriers(
                &insts,
                (&outcome.barrier_protects, &outcome.barrier_passes),
            ),
            insts,
            lines,
            hints: Vec::new(),
            timing: Timing::default(),
            printf: outcome.printf.clone(),
            printf_truncated: outcome.printf_truncated,
            sample: None,
        };
        report.hints = hints::hints(&report);
        // What the checker noted (deprecated forms that run, statements without effect, a
        // `printf` conversion of the other kind), at the line they are written on.
        for (span, rule, message) in &kernel.notes {
            let line = src.line_of(span.start);
            report.hints.push(hints::Hint {
                rule,
                line: Some(line),
                message: message.clone(),
            });
        }
        report
    }

    /// Whether every `expect` held.
    pub fn expects_passed(&self) -> bool {
        self.expects.iter().all(|e| e.passed)
    }

    /// The source and printed text the human views show beside the output model.
    pub fn listing(&self) -> Listing<'_> {
        Listing {
            source: &self.source,
            kernel_lines: self.kernel_lines,
            printf: &self.printf,
        }
    }
}

/// What the text and HTML reports show beside the numbers of the output model
/// ([`model::RunOutput`]): the kernel file, to list every line of the kernel (those that issued
/// nothing too), and what the kernel printed, verbatim. It carries no measurement.
#[derive(Clone, Copy, Debug)]
pub struct Listing<'a> {
    /// The kernel file.
    pub source: &'a SourceFile,
    /// First and last line of the kernel's definition.
    pub kernel_lines: (usize, usize),
    /// What the kernel printed (`printf`).
    pub printf: &'a str,
}

impl Listing<'_> {
    /// The lines the per-line views list, in order: the kernel's, and those of inlined
    /// `__device__` functions elsewhere in the file that issued.
    pub fn shown(&self, issued: &[model::LineView]) -> Vec<usize> {
        let mut shown: Vec<usize> = (self.kernel_lines.0..=self.kernel_lines.1).collect();
        shown.extend(issued.iter().map(|l| l.line));
        shown.sort_unstable();
        shown.dedup();
        shown
    }

    /// The text of line `n` (from 1; empty past the end).
    pub fn line(&self, n: usize) -> &str {
        self.source
            .text()
            .lines()
            .nth(n.saturating_sub(1))
            .unwrap_or("")
    }
}

/// The compiled instruction mix: each instruction's issued warps, by its pipe, or folded, and the
/// issue slots its machine-instruction sequence adds.
fn pipes(ir: &KernelIr, per_inst: &[crate::exec::InstCounters]) -> PipeInstr {
    let mut p = PipeInstr::default();
    for (((inst, c), &folded), &machine) in ir
        .insts
        .iter()
        .zip(per_inst)
        .zip(&ir.folded)
        .zip(&ir.machine)
    {
        if folded {
            p.folded += c.warp_instr;
            continue;
        }
        p.sequences += c.warp_instr * u64::from(machine - 1);
        if let crate::ir::Inst::Mma { id } = inst {
            p.tensor += c.tensor_instr * ir.mmas[*id as usize].op.fp16_fma();
        }
        match inst.pipe() {
            Pipe::Fp32 => p.fp32 += c.warp_instr,
            Pipe::Fp64 => p.fp64 += c.warp_instr,
            Pipe::Sfu => p.sfu += c.warp_instr,
            Pipe::Other => {}
        }
    }
    p
}

/// The instructions that issued at least once, with their line, text, array and first warp.
fn inst_stats(
    src: &SourceFile,
    kernel: &Kernel,
    ir: &KernelIr,
    outcome: &Outcome,
) -> Vec<InstStat> {
    ir.insts
        .iter()
        .enumerate()
        .filter(|(i, _)| outcome.per_inst[*i] != Default::default())
        .map(|(i, inst)| {
            let span = ir.spans[i];
            let (array, dims) = match inst {
                crate::ir::Inst::Load { space, .. }
                | crate::ir::Inst::Store { space, .. }
                | crate::ir::Inst::LoadVec { space, .. }
                | crate::ir::Inst::StoreVec { space, .. }
                | crate::ir::Inst::Atomic { space, .. } => match *space {
                    Space::Global(p) => (
                        kernel.params.get(p as usize).map(|p| p.name.clone()),
                        Vec::new(),
                    ),
                    Space::Shared(s) => match kernel.shared.get(s as usize) {
                        Some(a) => (Some(a.name.clone()), a.dims.clone()),
                        None => (None, Vec::new()),
                    },
                    Space::Local(l) => match kernel.local_arrays.get(l as usize) {
                        Some(a) => (Some(a.name.clone()), a.dims.clone()),
                        None => (None, Vec::new()),
                    },
                    Space::Choice { .. } => (None, Vec::new()),
                },
                _ => (None, Vec::new()),
            };
            InstStat {
                index: i,
                line: src.line_of(span.start),
                op: Op::of(inst),
                text: src
                    .slice(span)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                array,
                dims,
                counters: outcome.per_inst[i],
                access: outcome.first_access.get(i).cloned().flatten(),
            }
        })
        .collect()
}
