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
//!   `gatom_instr`, `gatom_sectors`, `g_bytes_requested`, `local_ld_instr`, `local_st_instr`,
//!   `local_ld_sectors`, `local_st_sectors`, `smem_instr`, `smem_wavefronts`, `smem_bank_conflicts`, `barriers`,
//!   `branches`, `divergent`, `race_count`, `uninit_count` (instruction executions, per block,
//!   with a lane reading uninitialised memory).
//! - `derived`: `dram_bytes`, `coalescing_efficiency`, `simt_efficiency`, `bank_conflict_factor`,
//!   `sectors_per_request`, `sectors_per_load`, `sectors_per_store`, `branch_efficiency`.
//! - `ncu`: the same numbers under Nsight Compute metric names.
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
//! - `time_refined`: occupancy-aware estimate with its `assumptions`, or `{"error": "..."}`.
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
use crate::exec::Counters;

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
        "ncu": ncu(c),
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

/// The `ncu` object: the counters under Nsight Compute metric names.
pub fn ncu(c: &Counters) -> Value {
    json!({
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
            "dram__bytes.sum": c.dram_bytes(),
    })
}
