//! The JSON output of `simt run --json`.
//!
//! # Wire format (schema 1)
//!
//! One object on stdout:
//!
//! - `schema`: `1`. Fields are only ever added within a schema version.
//! - `file`, `kernel`, `gpu` (the GPU model's name).
//! - `launch`: `grid`, `block` (`[x, y, z]`), `threads_per_block`, `warps_per_block`,
//!   `smem_per_block` (bytes), `regs_per_thread`.
//! - `counters`: the reference's `KernelStats` names — `blocks`, `threads`, `warp_instr`,
//!   `active_lane_slots`, `gld_instr`, `gst_instr`, `gld_sectors`, `gst_sectors`,
//!   `gatom_instr`, `gatom_sectors`, `g_bytes_requested`, `g_wavefronts` (L1 data-pipe passes of
//!   global requests, one per 128-byte line), `local_ld_instr`, `local_st_instr`,
//!   `local_ld_sectors`, `local_st_sectors`, `smem_instr`, `smem_wavefronts`, `smem_bank_conflicts`, `barriers`,
//!   `branches`, `divergent`, `race_count`, `uninit_count` (instruction executions, per block,
//!   with a lane reading uninitialised memory).
//! - `derived`: `dram_bytes` (the reference's: every sector × 32, caches ignored), `coalescing_efficiency`, `simt_efficiency`, `bank_conflict_factor`,
//!   `sectors_per_request`, `sectors_per_load`, `sectors_per_store`, `branch_efficiency`.
//! - `ncu`: the same numbers under Nsight Compute metric names; with the cache model also
//!   `l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct`, `lts__t_sectors_srcunit_tex_op_read.sum`,
//!   `lts__t_sector_op_read_hit_rate.pct`, `lts__t_sector_hit_rate.pct` (writes count as hits),
//!   `dram__bytes_read.sum` and `dram__bytes_write.sum`.
//! - `cache`: the L1/L2 model, or `null` in a sampled run: sizes `l1_bytes_per_block`,
//!   `l2_bytes`, `wave_blocks`; sectors `l1_hit_sectors`, `l1_miss_sectors` (global loads),
//!   `l2_read_hit_sectors`, `l2_read_miss_sectors`, `l2_write_sectors`, `l2_atomic_hit_sectors`,
//!   `l2_atomic_miss_sectors`; bytes `dram_read_bytes`, `dram_write_bytes`, `dram_bytes`; rates
//!   `l1_hit_rate_pct`, `l2_hit_rate_pct`, `l2_read_hit_rate_pct`.
//! - `races`: one object per (kind, array, line, other line): the first instance in block
//!   order `{kind, block, epoch, array, index, warp, other_warp, line, other_line, source,
//!   access, other_access}` and how often it happened, `blocks`, `warps` (warp instructions) and
//!   `words`; `kind` is `RAW`, `WAR`, `WAW` or `global-WAW`, `access` is `read`, `write` or
//!   `atomic`.
//! - `sample`: `null`, or for a sampled run (`--sample`) `{fraction, blocks_run, blocks,
//!   bounds}`: the counters are extrapolated from `blocks_run` of the grid's `blocks`, and
//!   `bounds` gives each counter's 95 % error bound (a half-width, in the counter's unit);
//!   `expects` is empty (results are not checked).
//! - `uninit`: one object per (array, line) of reads of uninitialised memory: the first
//!   instance `{block, thread, space, array, index, line, source}` (`space` is `shared`, `local`
//!   or `global`) and `blocks`, `warps`, `words`.
//! - `time`: the reference's `estimate_time`: `t_mem`, `t_issue`, `t` (seconds), `bound`.
//! - `time_refined`: occupancy-aware estimate: `t` (the kernel's duration), `launch_overhead`
//!   (beside it, not in it), `bound` (`memory`, `l2`, `l1`, `issue`, `fp32`, `fp64` or `sfu`),
//!   each unit's time (`t_mem`, `t_l2`, `t_l1` — the L1/shared data pipe, of which `t_smem` is
//!   the shared part — `t_issue`, `t_fp32`, `t_fp64`, `t_sfu`) and `units` (`{unit, t,
//!   utilisation}`), with its `assumptions`; or `{"error": "..."}`.
//! - `occupancy`: `blocks_per_sm`, `active_warps`, `occupancy`, `limiter`, `limiters`, `limits`, ...
//! - `expects`: `[{text, passed, detail}]`; `ok`: whether every expect passed.
//! - `lines`: per source line that issued, `{line, source, ideal_sectors, ideal_wavefronts}` and every
//!   counter name of `counters` except `blocks` and `threads`; each counter sums to its total.
//! - `barriers`: `[{line, executions, protects}]`; `protects: false` means possibly redundant.
//! - `hints`: `[{rule, line, message}]` (rules in `report::hints`).
//! - `printf`: the lines the kernel printed (blocks in order, then execution order, lanes in
//!   order); `printf_truncated`: whether output past the device's 1 MiB buffer was dropped.
//! - `races[].barrier_after_line`, `races[].fix`: where a `__syncthreads()` would separate the accesses.
//! - With `--map LINE`: `lane_map` (see `report::lanemap`); with gates: `gates`, `gates_ok`.
//! - `timing`: wall-clock seconds of `parse`, `setup`, `simulate` and `report` (the only field
//!   that changes from run to run).
//!
//! Errors are `{"schema": 1, "error": {code, message, file, line, column, label, help}, "errors": [...]}`.

use serde_json::{json, Value};

use super::{lines, Report};
use crate::exec::{CacheStats, Counters};

/// The schema version of the JSON output.
pub const SCHEMA: u32 = 1;

/// The report as a JSON value.
pub fn to_json(r: &Report) -> Value {
    let c = &r.counters;
    json!({
        "schema": SCHEMA,
        "file": r.file,
        "kernel": r.kernel,
        "gpu": r.gpu.name,
        "launch": r.launch,
        "counters": c,
        "derived": derived(c),
        "ncu": ncu(c, r.cache.as_ref()),
        "cache": cache(r),
        "races": r.races,
        "uninit": r.uninit,
        "sample": r.sample,
        "time": r.time,
        "time_refined": match &r.refined {
            Ok(t) => json!(t),
            Err(e) => json!({ "error": e }),
        },
        "occupancy": r.occupancy,
        "expects": r.expects,
        "ok": r.expects_passed(),
        "timing": r.timing,
        "lines": lines::to_json(&r.lines),
        "barriers": r.barriers,
        "hints": r.hints,
        "printf": r.printf.lines().collect::<Vec<_>>(),
        "printf_truncated": r.printf_truncated,
    })
}

/// The `derived` object: ratios of the counters.
pub fn derived(c: &Counters) -> Value {
    json!({
        "dram_bytes": c.dram_bytes(),
        "coalescing_efficiency": c.coalescing_efficiency(),
        "simt_efficiency": c.simt_efficiency(),
        "bank_conflict_factor": c.bank_conflict_factor(),
        "sectors_per_request": c.sectors_per_request(),
        "sectors_per_load": c.sectors_per_load(),
        "sectors_per_store": c.sectors_per_store(),
        "branch_efficiency": c.branch_efficiency(),
    })
}

/// The `cache` object: the cache model's sizes and counts with their rates, or `null` for a run
/// without it (a sampled run).
pub fn cache(r: &Report) -> Value {
    match (&r.cache, &r.launch.cache) {
        (Some(k), Some(cfg)) => {
            let mut v = json!(k);
            if let Value::Object(m) = &mut v {
                m.insert("l1_bytes_per_block".into(), json!(cfg.l1_bytes_per_block));
                m.insert("l2_bytes".into(), json!(cfg.l2_bytes));
                m.insert("wave_blocks".into(), json!(cfg.wave_blocks));
                m.insert("l1_hit_rate_pct".into(), json!(k.l1_hit_rate_pct()));
                m.insert("l2_hit_rate_pct".into(), json!(k.l2_hit_rate_pct()));
                m.insert(
                    "l2_read_hit_rate_pct".into(),
                    json!(k.l2_read_hit_rate_pct()),
                );
                m.insert("dram_bytes".into(), json!(k.dram_bytes()));
            }
            v
        }
        _ => Value::Null,
    }
}

/// The `ncu` object: the counters under Nsight Compute metric names, and the cache model's
/// numbers under the names whose meaning they have (when the run had the model).
pub fn ncu(c: &Counters, cache: Option<&CacheStats>) -> Value {
    let mut v = json!({
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": c.gld_instr,
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": c.gld_sectors,
            "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": c.gst_instr,
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": c.gst_sectors,
            "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio": c.sectors_per_load(),
            "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio": c.sectors_per_store(),
            "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum": c.local_ld_instr,
            "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum": c.local_ld_sectors,
            "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum": c.local_st_instr,
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum": c.local_st_sectors,
            "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": c.smem_wavefronts,
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": c.smem_bank_conflicts,
            "smsp__inst_executed.sum": c.warp_instr,
            "smsp__thread_inst_executed.sum": c.active_lane_slots,
            "smsp__thread_inst_executed_per_inst_executed.ratio": c.simt_efficiency() * 32.0,
            "smsp__sass_average_branch_targets_threads_uniform.pct": c.branch_efficiency() * 100.0,
    });
    if let (Some(k), Value::Object(m)) = (cache, &mut v) {
        let metrics = [
            (
                "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                json!(k.l1_hit_rate_pct()),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_read.sum",
                json!(k.l1_miss_sectors),
            ),
            (
                "lts__t_sector_op_read_hit_rate.pct",
                json!(k.l2_read_hit_rate_pct()),
            ),
            ("lts__t_sector_hit_rate.pct", json!(k.l2_hit_rate_pct())),
            ("dram__bytes_read.sum", json!(k.dram_read_bytes)),
            ("dram__bytes_write.sum", json!(k.dram_write_bytes)),
        ];
        for (name, value) in metrics {
            m.insert(name.to_string(), value);
        }
    }
    v
}
