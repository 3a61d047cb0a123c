//! The output model: every document `--json` prints, as typed values.
//!
//! `run`, `sweep`, `compare`, `test`, `check`, `occupancy`, `scaling`, `gpus` and errors build
//! these structs and serialise them; nothing assembles JSON by hand. The JSON Schema of every
//! document (`simt schema`, `schema/simt-output.schema.json`) is derived from the same types with
//! `schemars`, so the doc comments below are the field descriptions a script reads there, and a
//! test (`tests/schema.rs`) validates the real output of every command against it.
//!
//! # Schema 2
//!
//! Every document has `"schema": 2`. Fields are only ever added within a version. The shared
//! part of `run`, a `compare` side and a `sweep` row is [`Measures`]: `launch`, `counters`,
//! `derived`, `ncu`, `cache`, `occupancy`, `time`, `time_refined` — the same names and types in
//! each. All times are in seconds. What changed from schema 1 is listed in README.md ("JSON").

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

use super::barriers::BarrierView;
use super::gates::GateResult;
use super::hints::Hint;
use super::lines::{LineStat, Op};
use super::{LaunchInfo, RaceView, Report, Timing, UninitView};
use crate::exec::sample::Sample;
use crate::exec::{CacheStats, Counters};
use crate::gpu::{GpuConfig, LatencyHiding, Occupancy, RefinedTime, TimeEstimate, Waves};
use crate::host::ExpectResult;

/// The schema version of the JSON output.
pub const SCHEMA: u32 = 2;

/// The `schema` field: always [`SCHEMA`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Version;

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(SCHEMA)
    }
}

impl JsonSchema for Version {
    fn schema_name() -> Cow<'static, str> {
        "SchemaVersion".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "The version of this output format; fields are only added within a version.",
            "type": "integer",
            "const": SCHEMA,
        })
    }
}

/// Any document `simt … --json` prints (the root of the schema). `simt sweep --json` and
/// `simt test --json` print one per line (NDJSON).
#[derive(Debug, JsonSchema)]
#[allow(dead_code)] // only its schema is used
#[serde(untagged)]
pub enum Document {
    /// `simt run --json`.
    Run(Box<RunOutput>),
    /// `simt run --json` of a file with a `sequence` section.
    Sequence(Box<SequenceOutput>),
    /// One line of `simt sweep --json`.
    SweepRow(Box<SweepRow>),
    /// `simt compare --json`.
    Compare(Box<CompareOutput>),
    /// One line of `simt test --json`.
    Test(TestRecord),
    /// `simt check --json`.
    Check(CheckOutput),
    /// `simt occupancy --json`.
    Occupancy(OccupancyOutput),
    /// `simt scaling --json`.
    Scaling(ScalingOutput),
    /// `simt gpus --json`.
    Gpus(GpusOutput),
    /// `simt gpus NAME --json`: one GPU description, as `--gpu FILE.json` reads it (no `schema`).
    Gpu(Box<GpuConfig>),
    /// Any command's failure with `--json`.
    Error(ErrorOutput),
}

/// The names of the documents in the schema's `$defs`, by command (for tools and tests).
pub const DOCUMENTS: [(&str, &str); 11] = [
    ("run", "RunOutput"),
    ("sequence", "SequenceOutput"),
    ("sweep", "SweepRow"),
    ("compare", "CompareOutput"),
    ("test", "TestRecord"),
    ("check", "CheckOutput"),
    ("occupancy", "OccupancyOutput"),
    ("scaling", "ScalingOutput"),
    ("gpus", "GpusOutput"),
    ("gpu", "GpuConfig"),
    ("error", "ErrorOutput"),
];

/// The JSON Schema (draft 2020-12) of every document, as `simt schema` prints it.
pub fn schema() -> Schema {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut s = generator.into_root_schema_for::<Document>();
    s.insert("title".into(), "simt --json output".into());
    s.insert(
        "description".into(),
        format!(
            "Every document `simt ... --json` prints, schema {SCHEMA}. Generated from the output \
model (src/report/model.rs); `simt schema` prints it."
        )
        .into(),
    );
    s
}

/// What a run measured: the part `run`, each side of `compare` and each `sweep` row share.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Measures {
    /// The launch as it ran.
    pub launch: LaunchInfo,
    /// The counters (the reference's `KernelStats` names).
    pub counters: Counters,
    /// Ratios of the counters.
    pub derived: Derived,
    /// The numbers that mean what Nsight Compute's metrics of the same names mean.
    pub ncu: Ncu,
    /// The L1/L2 model, or `null` in a sampled run.
    pub cache: Option<CacheView>,
    /// NVIDIA's occupancy calculator for this launch.
    pub occupancy: Occupancy,
    /// The reference's `estimate_time` (seconds).
    pub time: TimeEstimate,
    /// The occupancy-, wave-, cache- and latency-aware estimate (seconds), or why there is none.
    pub time_refined: RefinedEstimate,
}

impl Measures {
    /// The measures of a finished run.
    pub fn new(r: &Report) -> Measures {
        Measures {
            launch: r.launch.clone(),
            counters: r.counters,
            derived: Derived::new(&r.counters),
            ncu: Ncu::new(&r.counters, r.cache.as_ref()),
            cache: CacheView::new(r),
            occupancy: r.occupancy.clone(),
            time: r.time,
            time_refined: match &r.refined {
                Ok(t) => RefinedEstimate::Estimate(Box::new(t.clone())),
                Err(e) => RefinedEstimate::Unavailable { error: e.clone() },
            },
        }
    }
}

/// The refined time estimate, or why it could not be made.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RefinedEstimate {
    /// The estimate.
    Estimate(Box<RefinedTime>),
    /// No estimate.
    Unavailable {
        /// Why not (e.g. the block cannot launch on this GPU).
        error: String,
    },
}

impl RefinedEstimate {
    /// The kernel's duration, seconds, when there is an estimate.
    pub fn t(&self) -> Option<f64> {
        match self {
            RefinedEstimate::Estimate(t) => Some(t.t),
            RefinedEstimate::Unavailable { .. } => None,
        }
    }
}

/// Ratios of the counters (`derived`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Derived {
    /// `(gld_sectors + gst_sectors) × 32`: every global load and store sector, as the reference
    /// counts DRAM traffic (caches ignored; `cache.dram_bytes` has the cache model's).
    pub dram_bytes: u64,
    /// `(gld_sectors + gst_sectors + gatom_sectors) × 32`: the sectors of the global loads,
    /// stores and atomics whose bytes `g_bytes_requested` counts (`dram_bytes` without atomics).
    pub bytes_moved: u64,
    /// `g_bytes_requested / bytes_moved`: bytes the active lanes asked for per byte of the
    /// sectors moved (1 when nothing moved). 1 is perfectly coalesced, 0.125 a stride of 8
    /// floats; above 1 when lanes read the same address (a broadcast moves one sector for many
    /// lanes). Schema 1 called it `coalescing_efficiency`.
    pub bytes_requested_per_byte_moved: f64,
    /// `active_lane_slots / (warp_instr × 32)`: active lanes per issued lane slot.
    pub simt_efficiency: f64,
    /// `smem_wavefronts / smem_instr` (1 when there is no shared access).
    pub bank_conflict_factor: f64,
    /// Sectors per global request, loads and stores (ncu's sectors/request; 4 for a coalesced
    /// float access, 32 for a scattered one).
    pub sectors_per_request: f64,
    /// Sectors per global load request.
    pub sectors_per_load: f64,
    /// Sectors per global store request.
    pub sectors_per_store: f64,
    /// `1 − divergent / branches` (1 when no branch ran).
    pub branch_efficiency: f64,
    /// `cmem_transactions / cmem_instr`: constant-memory transactions per request, one per
    /// distinct address a warp reads (0 when there is none).
    pub cmem_transactions_per_request: f64,
    /// `gld_instr + gst_instr + gatom_instr`: global requests, atomics included (their bytes
    /// are in `g_bytes_requested`); the `requests` of `simt run --lines`.
    pub requests_with_atomics: u64,
    /// `(gld_sectors + gst_sectors + gatom_sectors) / requests_with_atomics` (0 when there is
    /// none); the `sect/req` of `simt run --lines`.
    pub sectors_per_request_with_atomics: f64,
    /// `⌈g_bytes_requested / 32⌉ / requests_with_atomics`: what `sectors_per_request_with_atomics`
    /// would be if the requested bytes were contiguous and aligned (0 when there is none).
    pub ideal_sectors_per_request_with_atomics: f64,
    /// `(smem_wavefronts − smem_bank_conflicts) / smem_instr`: what `bank_conflict_factor`
    /// would be without bank conflicts (1 when there is no shared access; above 1 for accesses
    /// wider than a bank's 4 bytes).
    pub ideal_bank_conflict_factor: f64,
}

impl Derived {
    /// The ratios of `c`.
    pub fn new(c: &Counters) -> Derived {
        Derived {
            dram_bytes: c.dram_bytes(),
            bytes_moved: c.bytes_moved(),
            bytes_requested_per_byte_moved: c.bytes_requested_per_byte_moved(),
            simt_efficiency: c.simt_efficiency(),
            bank_conflict_factor: c.bank_conflict_factor(),
            sectors_per_request: c.sectors_per_request(),
            sectors_per_load: c.sectors_per_load(),
            sectors_per_store: c.sectors_per_store(),
            branch_efficiency: c.branch_efficiency(),
            cmem_transactions_per_request: c.cmem_transactions_per_request(),
            requests_with_atomics: c.requests_with_atomics(),
            sectors_per_request_with_atomics: c.sectors_per_request_with_atomics(),
            ideal_sectors_per_request_with_atomics: c.ideal_sectors_per_request_with_atomics(),
            ideal_bank_conflict_factor: c.ideal_bank_conflict_factor(),
        }
    }
}

/// Counters under the names of the Nsight Compute metrics whose meaning they have, so that a
/// script written for `ncu --csv` carries over. Instruction counts are not here: simt counts
/// source-level operations (`counters.warp_instr`), not SASS instructions, so
/// `smsp__inst_executed.sum` would not mean what ncu means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Ncu {
    /// Global load requests (`counters.gld_instr`).
    #[serde(rename = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")]
    pub global_ld_requests: u64,
    /// Global load sectors (`counters.gld_sectors`).
    #[serde(rename = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")]
    pub global_ld_sectors: u64,
    /// Global store requests (`counters.gst_instr`).
    #[serde(rename = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")]
    pub global_st_requests: u64,
    /// Global store sectors (`counters.gst_sectors`).
    #[serde(rename = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")]
    pub global_st_sectors: u64,
    /// Sectors per global load request.
    #[serde(rename = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio")]
    pub sectors_per_load: f64,
    /// Sectors per global store request.
    #[serde(rename = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio")]
    pub sectors_per_store: f64,
    /// Local load requests.
    #[serde(rename = "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum")]
    pub local_ld_requests: u64,
    /// Local load sectors.
    #[serde(rename = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum")]
    pub local_ld_sectors: u64,
    /// Local store requests.
    #[serde(rename = "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum")]
    pub local_st_requests: u64,
    /// Local store sectors.
    #[serde(rename = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")]
    pub local_st_sectors: u64,
    /// Shared-memory wavefronts (`counters.smem_wavefronts`).
    #[serde(rename = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")]
    pub smem_wavefronts: u64,
    /// Shared-memory bank conflicts: wavefronts beyond the ideal (`counters.smem_bank_conflicts`).
    #[serde(rename = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")]
    pub smem_bank_conflicts: u64,
    /// Active threads per issued warp instruction (`32 × derived.simt_efficiency`). A ratio of
    /// source-level operations; ncu's is of SASS instructions, which it follows closely.
    #[serde(rename = "smsp__thread_inst_executed_per_inst_executed.ratio")]
    pub threads_per_instruction: f64,
    /// Percentage of branch evaluations whose active lanes all went one way
    /// (`100 × derived.branch_efficiency`).
    #[serde(rename = "smsp__sass_average_branch_targets_threads_uniform.pct")]
    pub uniform_branches_pct: f64,
    /// Global-load sectors that hit in L1, percent (with the cache model).
    #[serde(
        rename = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
        skip_serializing_if = "Option::is_none"
    )]
    pub l1_hit_rate_pct: Option<f64>,
    /// Sectors L1 read from L2 (global-load misses; with the cache model).
    #[serde(
        rename = "lts__t_sectors_srcunit_tex_op_read.sum",
        skip_serializing_if = "Option::is_none"
    )]
    pub l2_read_sectors: Option<u64>,
    /// L2 read hit rate, percent (with the cache model).
    #[serde(
        rename = "lts__t_sector_op_read_hit_rate.pct",
        skip_serializing_if = "Option::is_none"
    )]
    pub l2_read_hit_rate_pct: Option<f64>,
    /// L2 hit rate of all sectors, writes counting as hits as ncu counts them, percent (with the
    /// cache model).
    #[serde(
        rename = "lts__t_sector_hit_rate.pct",
        skip_serializing_if = "Option::is_none"
    )]
    pub l2_hit_rate_pct: Option<f64>,
    /// Bytes read from DRAM (with the cache model).
    #[serde(
        rename = "dram__bytes_read.sum",
        skip_serializing_if = "Option::is_none"
    )]
    pub dram_read_bytes: Option<u64>,
    /// Bytes written to DRAM (with the cache model).
    #[serde(
        rename = "dram__bytes_write.sum",
        skip_serializing_if = "Option::is_none"
    )]
    pub dram_write_bytes: Option<u64>,
}

impl Ncu {
    /// The metrics of `c`, and of the cache model's counts when the run had it.
    pub fn new(c: &Counters, cache: Option<&CacheStats>) -> Ncu {
        Ncu {
            global_ld_requests: c.gld_instr,
            global_ld_sectors: c.gld_sectors,
            global_st_requests: c.gst_instr,
            global_st_sectors: c.gst_sectors,
            sectors_per_load: c.sectors_per_load(),
            sectors_per_store: c.sectors_per_store(),
            local_ld_requests: c.local_ld_instr,
            local_ld_sectors: c.local_ld_sectors,
            local_st_requests: c.local_st_instr,
            local_st_sectors: c.local_st_sectors,
            smem_wavefronts: c.smem_wavefronts,
            smem_bank_conflicts: c.smem_bank_conflicts,
            threads_per_instruction: c.simt_efficiency() * 32.0,
            uniform_branches_pct: c.branch_efficiency() * 100.0,
            l1_hit_rate_pct: cache.map(CacheStats::l1_hit_rate_pct),
            l2_read_sectors: cache.map(|k| k.l1_miss_sectors),
            l2_read_hit_rate_pct: cache.map(CacheStats::l2_read_hit_rate_pct),
            l2_hit_rate_pct: cache.map(CacheStats::l2_hit_rate_pct),
            dram_read_bytes: cache.map(|k| k.dram_read_bytes),
            dram_write_bytes: cache.map(|k| k.dram_write_bytes),
        }
    }
}

/// The L1/L2 model's counts, sizes and rates (`cache`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CacheView {
    /// Sector counts and DRAM bytes.
    #[serde(flatten)]
    pub stats: CacheStats,
    /// The sizes the model ran with.
    #[serde(flatten)]
    pub sizes: crate::exec::CacheConfig,
    /// Global-load sectors that hit in L1, percent.
    pub l1_hit_rate_pct: f64,
    /// L2 hit rate of all sectors (writes count as hits), percent.
    pub l2_hit_rate_pct: f64,
    /// L2 read hit rate, percent.
    pub l2_read_hit_rate_pct: f64,
    /// `dram_read_bytes + dram_write_bytes`.
    pub dram_bytes: u64,
    /// `l2_read_hit_sectors + l2_read_miss_sectors`: sectors the L2 read for the L1.
    pub l2_read_sectors: u64,
    /// `l2_atomic_hit_sectors + l2_atomic_miss_sectors`: atomic sectors the L2 served.
    pub l2_atomic_sectors: u64,
}

impl CacheView {
    /// The model's view of a run, when it ran with the model.
    pub fn new(r: &Report) -> Option<CacheView> {
        let (k, sizes) = (r.cache?, r.launch.cache?);
        Some(CacheView {
            stats: k,
            sizes,
            l1_hit_rate_pct: k.l1_hit_rate_pct(),
            l2_hit_rate_pct: k.l2_hit_rate_pct(),
            l2_read_hit_rate_pct: k.l2_read_hit_rate_pct(),
            dram_bytes: k.dram_bytes(),
            l2_read_sectors: k.l2_read_hit_sectors + k.l2_read_miss_sectors,
            l2_atomic_sectors: k.l2_atomic_hit_sectors + k.l2_atomic_miss_sectors,
        })
    }
}

/// A sampled run (`--sample`): what ran, and how far each extrapolated counter may be off.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SampleView {
    /// What ran and each counter's 95 % error bound.
    #[serde(flatten)]
    pub sample: Sample,
    /// `100 × blocks_run / blocks`: the share of the grid that ran, percent (`fraction` is the
    /// share asked for).
    pub blocks_run_pct: f64,
    /// Per counter of `bounds`: the bound as a percentage of the counter's extrapolated value
    /// (0 when the counter is 0).
    pub bounds_pct: BTreeMap<String, f64>,
    /// Per cache counter of `cache.bounds`: the bound as a percentage of the counter's
    /// extrapolated value (0 when it is 0; empty without a cache model).
    pub cache_bounds_pct: BTreeMap<String, f64>,
}

impl SampleView {
    /// The view of `sample`, whose counters extrapolated to `c`.
    pub fn new(sample: &Sample, c: &Counters, cache: Option<&CacheStats>) -> SampleView {
        let cache_bounds_pct = match (cache, &sample.cache) {
            (Some(k), Some(cs)) => percentages(&cs.bounds, &super::json::to_value(k)),
            _ => BTreeMap::new(),
        };
        SampleView {
            sample: sample.clone(),
            blocks_run_pct: 100.0 * sample.blocks_run as f64 / sample.blocks.max(1) as f64,
            bounds_pct: percentages(&sample.bounds, &super::json::to_value(c)),
            cache_bounds_pct,
        }
    }
}

/// Each bound as a percentage of its counter in `totals` (0 where the counter is 0).
fn percentages(
    bounds: &BTreeMap<String, f64>,
    totals: &serde_json::Value,
) -> BTreeMap<String, f64> {
    bounds
        .iter()
        .filter_map(|(name, bound)| {
            let total = totals.get(name)?.as_f64()?;
            let pct = if total == 0.0 {
                0.0
            } else {
                100.0 * bound / total
            };
            Some((name.clone(), pct))
        })
        .collect()
}

/// `simt run --json`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RunOutput {
    /// `2`.
    pub schema: Version,
    /// The kernel file, as given.
    pub file: String,
    /// The kernel that ran.
    pub kernel: String,
    /// The GPU model's name.
    pub gpu: String,
    /// What was measured.
    #[serde(flatten)]
    pub measures: Measures,
    /// Races, one record per (kind, array, line, other line): the first instance in block
    /// order and how often it happened.
    pub races: Vec<RaceView>,
    /// Reads of uninitialised memory, one record per (array, line).
    pub uninit: Vec<UninitView>,
    /// `null`, or for a sampled run (`--sample`) what ran and each counter's 95 % error bound
    /// (`expects` is then empty: results are not checked).
    pub sample: Option<SampleView>,
    /// Each `expect` of the launch section.
    pub expects: Vec<ExpectResult>,
    /// Whether every `expect` held.
    pub ok: bool,
    /// Wall-clock seconds of each phase: the only field that changes from run to run.
    pub timing: Timing,
    /// Per source line that issued: its counters, which sum to the totals.
    pub lines: Vec<LineView>,
    /// Each `__syncthreads()` that ran.
    pub barriers: Vec<BarrierView>,
    /// Advice derived from the counters.
    pub hints: Vec<Hint>,
    /// The lines the kernel printed (blocks in order, then execution order, lanes in order).
    pub printf: Vec<String>,
    /// Whether output past the device's 1 MiB printf buffer was dropped.
    pub printf_truncated: bool,
    /// With `--map LINE`: lane → address → sector (global) or lane → word → bank (shared) for
    /// the first warp that ran each memory access of the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane_map: Option<LaneMap>,
    /// With `--max`, `--min` or `--deny`: each gate and how it went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gates: Option<Vec<GateResult>>,
    /// With gates: whether every gate held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gates_ok: Option<bool>,
}

/// `simt run --json` of a `sequence` section: each launch's document, in order, and the
/// sequence's own `expect`s.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SequenceOutput {
    /// `2`.
    pub schema: Version,
    /// The kernel file, as given.
    pub file: String,
    /// Each launch of the sequence, in the order it ran, as `simt run --json` reports one
    /// launch (its `expects` are the launch item's own).
    pub launches: Vec<RunOutput>,
    /// Each `expect` of the sequence, checked after its last launch.
    pub expects: Vec<ExpectResult>,
    /// Whether every `expect`, the launches' and the sequence's, held.
    pub ok: bool,
}

impl SequenceOutput {
    /// The document of a finished sequence.
    pub fn new(file: &str, run: &crate::pipeline::SequenceRun) -> SequenceOutput {
        SequenceOutput {
            schema: Version,
            file: file.to_string(),
            launches: run.launches.iter().map(RunOutput::new).collect(),
            expects: run.expects.clone(),
            ok: run.expects_passed(),
        }
    }
}

impl RunOutput {
    /// The document of a finished run (without a lane map or gates).
    pub fn new(r: &Report) -> RunOutput {
        RunOutput {
            schema: Version,
            file: r.file.clone(),
            kernel: r.kernel.clone(),
            gpu: r.gpu.name.clone(),
            measures: Measures::new(r),
            races: r.races.clone(),
            uninit: r.uninit.clone(),
            sample: r
                .sample
                .as_ref()
                .map(|s| SampleView::new(s, &r.counters, r.cache.as_ref())),
            expects: r.expects.clone(),
            ok: r.expects_passed(),
            timing: r.timing,
            lines: r.lines.iter().map(LineView::new).collect(),
            barriers: r.barriers.clone(),
            hints: r.hints.clone(),
            printf: r.printf.lines().map(str::to_string).collect(),
            printf_truncated: r.printf_truncated,
            lane_map: None,
            gates: None,
            gates_ok: None,
        }
    }
}

/// The counters of one source line.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LineView {
    /// The line (from 1).
    pub line: usize,
    /// Its text.
    pub source: String,
    /// Sectors its global accesses would move if each warp's bytes were contiguous and aligned.
    pub ideal_sectors: u64,
    /// Wavefronts its shared accesses would take without bank conflicts.
    pub ideal_wavefronts: u64,
    /// Every counter of `counters` but `blocks` and `threads`, for this line.
    #[serde(flatten)]
    pub counters: LineCounters,
    /// The ratios of `derived`, of this line's counters.
    pub derived: Derived,
}

impl LineView {
    /// The view of one line's statistics.
    pub fn new(l: &LineStat) -> LineView {
        LineView {
            line: l.line,
            source: l.source.clone(),
            ideal_sectors: l.counters.ideal_sectors(),
            ideal_wavefronts: l.counters.ideal_wavefronts(),
            counters: LineCounters(l.counters),
            derived: Derived::new(&l.counters),
        }
    }
}

/// [`Counters`] without `blocks` and `threads`, which a line does not launch: the same names,
/// written once (in `exec::Counters`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineCounters(pub Counters);

/// Counters a line does not have.
const NOT_PER_LINE: [&str; 2] = ["blocks", "threads"];

impl Serialize for LineCounters {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut v = serde_json::to_value(self.0).map_err(serde::ser::Error::custom)?;
        if let Some(m) = v.as_object_mut() {
            for k in NOT_PER_LINE {
                m.remove(k);
            }
        }
        v.serialize(s)
    }
}

impl JsonSchema for LineCounters {
    fn schema_name() -> Cow<'static, str> {
        "LineCounters".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut s = Counters::json_schema(generator);
        if let Some(p) = s.get_mut("properties").and_then(|p| p.as_object_mut()) {
            for k in NOT_PER_LINE {
                p.remove(k);
            }
        }
        if let Some(r) = s.get_mut("required").and_then(|r| r.as_array_mut()) {
            r.retain(|k| !NOT_PER_LINE.iter().any(|n| k == n));
        }
        s.insert(
            "description".into(),
            "The counters of `counters` but `blocks` and `threads`.".into(),
        );
        s
    }
}

/// `--map LINE`: the lanes of the first warp that ran each memory access of a line.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LaneMap {
    /// The line asked for.
    pub line: usize,
    /// Each memory instruction of the line that ran.
    pub accesses: Vec<LaneAccess>,
}

/// One memory instruction's access by one warp.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LaneAccess {
    /// What the instruction does.
    pub op: Op,
    /// The array or buffer.
    pub array: Option<String>,
    /// `global`, `shared` or `local`.
    pub space: String,
    /// Bytes per element.
    pub elem_bytes: u32,
    /// The source of the access.
    pub text: String,
    /// The block of the warp.
    pub block: [u32; 3],
    /// The warp within the block.
    pub warp: u32,
    /// Which execution of the instruction this was, from 0 (the warp's with `--map-warp`, else
    /// the block's), as `--map-iteration` picks it.
    pub iteration: u32,
    /// Sectors (global, local) or wavefronts (shared) the access cost.
    pub cost: u64,
    /// The active lanes.
    pub lanes: Vec<Lane>,
}

/// Where one active lane's access went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Lane {
    /// The lane (0–31).
    pub lane: usize,
    /// The element index.
    pub index: i64,
    /// Byte offset in the buffer (global and local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<i64>,
    /// 32-byte sector (global and local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sector: Option<i64>,
    /// 4-byte word of the shared array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub word: Option<i64>,
    /// Its bank, `word mod 32`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank: Option<i64>,
}

/// One line of `simt sweep --json`: a combination of block, argument values and GPU.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SweepRow {
    /// `2`.
    pub schema: Version,
    /// The row, counted from 1 as in the table's "best: row N".
    pub row: usize,
    /// The kernel file.
    pub file: String,
    /// The kernel (`null` when no row ran and `--kernel` did not name it).
    pub kernel: Option<String>,
    /// The GPU model's name.
    pub gpu: String,
    /// The block: as it ran, or the one the row asked for (`null` when `--block` was not swept
    /// and the row failed).
    pub block: Option<[u32; 3]>,
    /// The grid: as it ran, or `--grid` (`null` when the row failed without `--grid`).
    pub grid: Option<[u32; 3]>,
    /// The `--arg` values of this row, by name.
    pub args: BTreeMap<String, String>,
    /// Whether this row has the lowest refined time among those that ran and passed.
    pub best: bool,
    /// Whether it ran and every `expect` held.
    pub ok: bool,
    /// What it measured, or its error.
    #[serde(flatten)]
    pub result: SweepResult,
}

/// A sweep row's measures, or the error that stopped it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SweepResult {
    /// It ran.
    Ran(Box<Measures>),
    /// It stopped.
    Failed {
        /// The first diagnostic.
        error: ErrorRecord,
    },
}

/// `simt compare --json`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CompareOutput {
    /// `2`.
    pub schema: Version,
    /// The GPU model's name.
    pub gpu: String,
    /// The first kernel.
    pub a: CompareSide,
    /// The second kernel.
    pub b: CompareSide,
    /// Each compared metric's B / A (`null` when A is 0), by its name in `counters`, `derived`,
    /// `cache` or `occupancy`, or `time` and `time_refined` (seconds, as everywhere in JSON).
    pub ratios: BTreeMap<String, Option<f64>>,
}

/// One side of a comparison.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CompareSide {
    /// The kernel file.
    pub file: String,
    /// The kernel.
    pub kernel: String,
    /// What was measured.
    #[serde(flatten)]
    pub measures: Measures,
    /// Whether every `expect` held.
    pub ok: bool,
}

/// One line of `simt test --json`: one launch section (or a file that could not be split
/// into them).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TestRecord {
    /// `2`.
    pub schema: Version,
    /// The file, as given or found.
    pub file: String,
    /// The kernel of the launch section, when the file got that far.
    pub kernel: Option<String>,
    /// Whether the case passed.
    pub passed: bool,
    /// How it ended.
    pub verdict: TestVerdict,
    /// Why it failed, one line per reason (empty when it passed).
    pub details: Vec<String>,
}

/// How a test case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TestVerdict {
    /// It ran and every `expect` held.
    Passed,
    /// It stopped with the diagnostic code the file's directive expects.
    FailedAsExpected,
    /// It ran, but an `expect` failed.
    ExpectsFailed,
    /// It raced or read uninitialised memory, and the file does not say it should.
    Findings,
    /// It stopped with diagnostics the file did not expect.
    Error,
    /// No launch section, a bad directive, or a run that succeeded where an error was expected.
    Invalid,
}

/// `simt check --json`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CheckOutput {
    /// `2`.
    pub schema: Version,
    /// The file.
    pub file: String,
    /// `true` (a file that does not check is an error document).
    pub ok: bool,
    /// Its kernels.
    pub kernels: Vec<CheckedKernel>,
    /// A note on the host code that is skipped, if any.
    pub host_code: Option<String>,
}

/// A kernel and its parameters.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CheckedKernel {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<CheckedParam>,
}

/// A kernel parameter.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CheckedParam {
    /// Its name.
    pub name: String,
    /// Its type, as C writes it.
    #[serde(rename = "type")]
    pub ty: String,
}

/// `simt occupancy --json`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct OccupancyOutput {
    /// `2`.
    pub schema: Version,
    /// The GPU model's name.
    pub gpu: String,
    /// The calculator's result.
    #[serde(flatten)]
    pub occupancy: Occupancy,
    /// With `--blocks`: how the grid fills the GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waves: Option<Waves>,
    /// With `--bytes-per-request`: the latency hiding of the resident warps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_hiding: Option<LatencyHiding>,
}

/// `simt scaling --json`.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub struct ScalingOutput {
    /// `2`.
    pub schema: Version,
    /// The serial fraction of the work.
    pub serial: f64,
    /// The number of processors.
    pub procs: f64,
    /// Amdahl's speedup (fixed problem size).
    pub amdahl: f64,
    /// Gustafson's speedup (the problem grows with the processors).
    pub gustafson: f64,
}

/// `simt gpus --json`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GpusOutput {
    /// `2`.
    pub schema: Version,
    /// Each preset.
    pub gpus: Vec<GpuPreset>,
}

/// A preset and its numbers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GpuPreset {
    /// The name `--gpu` takes (`h100-pcie`).
    pub preset: String,
    /// The GPU description (what `--gpu FILE.json` reads).
    #[serde(flatten)]
    pub gpu: GpuConfig,
}

/// A failure with `--json`: every diagnostic, the first also as `error`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ErrorOutput {
    /// `2`.
    pub schema: Version,
    /// The first diagnostic.
    pub error: ErrorRecord,
    /// Every diagnostic.
    pub errors: Vec<ErrorRecord>,
}

/// One diagnostic.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ErrorRecord {
    /// Its stable code (`simt::run::out_of_bounds`).
    pub code: Option<String>,
    /// What went wrong.
    pub message: String,
    /// The file it is about (a kernel file, or `--arg NAME=` for a flag's value).
    pub file: Option<String>,
    /// The line of its first label (from 1).
    pub line: Option<usize>,
    /// The column of its first label (from 1).
    pub column: Option<usize>,
    /// The first label's text.
    pub label: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// The exit status it gives: 1 at run time, 2 otherwise.
    pub exit: u8,
}
