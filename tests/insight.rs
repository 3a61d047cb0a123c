//! Insight views on the shipped kernels: per-line counters that add up, hints (each rule fired and
//! not fired), barrier analysis, lane maps and performance gates. Expected values derived by hand.

use crate::common;
use common::simt;

use serde_json::{json, Value};

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (_, out, err) = simt(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{err}"))
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("simt-insight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p.to_str().expect("utf-8 path").to_string()
}

/// Every kernel of every shipped file, as `[file, --kernel, name]` arguments.
fn shipped() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/kernels"))
        .expect("kernels/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("kernel text");
        if text.contains("// simt-test: expect-error") {
            continue; // a demo that stops with an error: no counters
        }
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("launch ") {
                let name = rest.trim_end_matches(" {").trim();
                out.push(vec![
                    format!("kernels/{}", f.file_name().expect("name").to_string_lossy()),
                    "--kernel".into(),
                    name.into(),
                ]);
            }
        }
    }
    out
}

#[test]
fn per_line_counters_sum_exactly_to_the_totals() {
    let kernels = shipped();
    assert!(kernels.len() >= 11, "{kernels:?}");
    for k in &kernels {
        let args: Vec<&str> = ["run"]
            .into_iter()
            .chain(k.iter().map(String::as_str))
            .collect();
        let v = json(&args);
        let totals = v["counters"].as_object().expect("counters");
        let lines = v["lines"].as_array().expect("lines");
        for (name, total) in totals {
            if name == "blocks" || name == "threads" {
                // Launch properties, not per line.
                assert!(lines.iter().all(|l| l.get(name).is_none()), "{name}");
                continue;
            }
            let sum: u64 = lines
                .iter()
                .map(|l| l[name].as_u64().expect("every line has every counter"))
                .sum();
            assert_eq!(Some(sum), total.as_u64(), "{k:?}: {name}");
        }
    }
}

#[test]
fn vecadd_lines_by_hand() {
    let v = json(&["run", "kernels/vecadd.sk"]);
    let lines = v["lines"].as_array().expect("lines");
    let at = |n: u64| {
        lines
            .iter()
            .find(|l| l["line"] == n)
            .unwrap_or_else(|| panic!("line {n}"))
    };
    // Line 23, `int i = blockIdx.x * blockDim.x + threadIdx.x;`: a multiply and an add per warp,
    // 32 warps → 64 warp instructions, all 32 lanes live: 2048 lane slots.
    assert_eq!(at(23)["warp_instr"], 64);
    assert_eq!(at(23)["active_lane_slots"], 2048);
    // Line 24, `if (i < n)`: a compare and the branch → 64; 32 branch evaluations, 1 divergent
    // (block 3, warp 7: lanes 992..999 in, 1000..1023 out).
    assert_eq!(at(24)["warp_instr"], 64);
    assert_eq!(
        (at(24)["branches"].as_u64(), at(24)["divergent"].as_u64()),
        (Some(32), Some(1))
    );
    // Line 25, `c[i] = a[i] + b[i];`: two loads, an add, a store → 128 warp instructions over
    // 1000 live lanes each → 4000 slots; 64 load and 32 store requests; 250 + 125 sectors;
    // 12000 B requested = 375 ideal sectors.
    let l = at(25);
    assert_eq!(l["warp_instr"], 128);
    assert_eq!(l["active_lane_slots"], 4000);
    assert_eq!(
        (l["gld_instr"].as_u64(), l["gst_instr"].as_u64()),
        (Some(64), Some(32))
    );
    assert_eq!(
        (l["gld_sectors"].as_u64(), l["gst_sectors"].as_u64()),
        (Some(250), Some(125))
    );
    assert_eq!(l["ideal_sectors"], 375);
    assert_eq!(l["source"], "c[i] = a[i] + b[i];");
    assert_eq!(lines.len(), 3);
}

#[test]
fn lines_view_snapshot() {
    let (code, out, _) = simt(&["run", "kernels/vecadd.sk", "--lines"]);
    assert_eq!(code, 0);
    let view = &out[out.find("per line").expect("per-line view")..];
    // The numbers are those of `vecadd_lines_by_hand`; 96 requests moving 375 sectors = 3.91 per
    // request, which is also what 12000 B need (ideal): perfectly coalesced.
    let expected = "\
per line · vecadd (kernels/vecadd.sk)
 line warp-inst │ requests sect/req ideal │     smem wf/inst ideal │ branches diverg │ races │ source
   21           │                         │                        │                 │       │ __global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b,
   22           │                         │                        │                 │       │                        float* c, int n) {
   23        64 │                         │                        │                 │       │     int i = blockIdx.x * blockDim.x + threadIdx.x;
   24        64 │                         │                        │       32      1 │       │     if (i < n) {
   25       128 │       96     3.91  3.91 │                        │                 │       │         c[i] = a[i] + b[i];
   26           │                         │                        │                 │       │     }
   27           │                         │                        │                 │       │ }
total       256 │       96     3.91  3.91 │                        │       32      1 │       │
";
    assert_eq!(view, expected);
}

#[test]
fn lines_view_shows_bank_conflicts_per_line() {
    let v = json(&["run", "kernels/transpose_tiled.sk"]);
    let lines = v["lines"].as_array().expect("lines");
    let at = |n: u64| lines.iter().find(|l| l["line"] == n).expect("line");
    // Line 39 stores rows of the tile: 2048 warp stores, 1 wavefront each.
    assert_eq!(
        (
            at(39)["smem_instr"].as_u64(),
            at(39)["smem_wavefronts"].as_u64()
        ),
        (Some(2048), Some(2048))
    );
    // Line 47 reads columns: 2048 loads × 32 wavefronts = 65536, ideal 2048.
    assert_eq!(at(47)["smem_wavefronts"], 65536);
    assert_eq!(at(47)["ideal_wavefronts"], 2048);
    assert_eq!(at(47)["smem_bank_conflicts"], 65536 - 2048);
}

/// The rules that fired for a run, as (rule, line).
fn hints(args: &[&str]) -> Vec<(String, Option<u64>, String)> {
    let v = json(args);
    v["hints"]
        .as_array()
        .expect("hints")
        .iter()
        .map(|h| {
            (
                h["rule"].as_str().expect("rule").to_string(),
                h["line"].as_u64(),
                h["message"].as_str().expect("message").to_string(),
            )
        })
        .collect()
}

fn rules(args: &[&str]) -> Vec<String> {
    hints(args).into_iter().map(|(r, _, _)| r).collect()
}

#[test]
fn hint_uncoalesced() {
    // A hint's message does not repeat its line (the JSON has `line`; the table prefixes it).
    // transpose_naive line 35 stores a column: lanes 256 floats = 1024 B apart, 32 sectors per
    // request where 128 B need 4.
    let h = hints(&["run", "kernels/transpose_naive.sk"]);
    assert_eq!(h.len(), 1, "{h:?}");
    let (rule, line, msg) = &h[0];
    assert_eq!((rule.as_str(), *line), ("uncoalesced", Some(35)));
    assert!(
        msg.starts_with("32.0 sectors per request (ideal 4)"),
        "{msg}"
    );
    assert!(msg.contains("1024 B apart"), "{msg}");
    // Stride 2 floats: 8 sectors where 4 would do; half of every sector is used.
    let h = hints(&["run", "kernels/strided_copy.sk"]);
    assert!(
        h[0].2
            .contains("every 2nd element (8 B apart), so only 50%"),
        "{h:?}"
    );
    // Not fired: the tiled transpose reads and writes rows (4 sectors per request).
    assert!(!rules(&["run", "kernels/transpose_tiled.sk"]).contains(&"uncoalesced".to_string()));
}

#[test]
fn hint_misaligned() {
    // offset 1: every warp starts 4 B into a sector → 5 sectors per request, ideal 4.
    let h = hints(&["run", "kernels/offset_copy.sk"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].0.as_str(), h[0].1), ("misaligned", Some(25)));
    assert!(
        h[0].2.contains("starts 4 B past a 32-byte sector boundary"),
        "{h:?}"
    );
    // offset 8 = 32 B: aligned again, 4 sectors, nothing to say.
    assert!(hints(&["run", "kernels/offset_copy.sk", "--arg", "offset=8"]).is_empty());
}

#[test]
fn hint_bank_conflict() {
    // tile[threadIdx.x][…] of a 32 × 32 tile: lanes 32 words apart, all in bank 0 → 32 wavefronts.
    let h = hints(&["run", "kernels/transpose_tiled.sk"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].0.as_str(), h[0].1), ("bank-conflict", Some(47)));
    assert_eq!(
        h[0].2,
        "32-way bank conflict on `tile[threadIdx.x][threadIdx.y + j]`: lanes of a warp are \
         one row (32 words) apart, all in one bank; pad the inner dimension to 33 (`tile[32][33]`)"
    );
    // Padded to 33 words per row: lanes land in 32 different banks.
    assert!(hints(&["run", "kernels/transpose_padded.sk"]).is_empty());
}

#[test]
fn hint_divergence() {
    // `threadIdx.x % 2 == 0` splits all 32 warp evaluations.
    let h = hints(&[
        "run",
        "kernels/divergence.sk",
        "--kernel",
        "branch_odd_even",
    ]);
    assert_eq!((h[0].0.as_str(), h[0].1), ("divergence", Some(37)));
    assert!(
        h[0].2
            .contains("splits 32 of 32 warp evaluations (`threadIdx.x % 2 == 0`)"),
        "{h:?}"
    );
    // Each side's store then runs with 16 of 32 lanes: 4 sectors for 64 B (ideal 2).
    assert_eq!(h[1].1, Some(38));
    assert!(h[1].2.contains("only 16 of the 32 lanes"), "{h:?}");
    // `(threadIdx.x / 32) % 2`: whole warps go one way.
    assert!(hints(&["run", "kernels/divergence.sk", "--kernel", "branch_by_warp"]).is_empty());
    // vecadd's guard splits 1 warp of 32: below the rule's half.
    assert!(hints(&["run", "kernels/vecadd.sk"]).is_empty());
}

#[test]
fn hint_race_and_where_the_barrier_goes() {
    let v = json(&["run", "kernels/race_missing_sync.sk"]);
    // The store `s[tid] = in[i]` is line 35, the racing load line 37: the barrier goes between.
    let race = &v["races"][0];
    assert_eq!(
        (race["line"].as_u64(), race["other_line"].as_u64()),
        (Some(37), Some(35))
    );
    assert_eq!(race["barrier_after_line"], 35);
    assert_eq!(
        race["fix"],
        "put __syncthreads() after line 35, before line 37"
    );
    let h = hints(&["run", "kernels/race_missing_sync.sk"]);
    assert_eq!(h.len(), 1, "one hint for the 4 racing blocks: {h:?}");
    assert_eq!(
        h[0].2,
        "RAW race on `s` with line 35: put __syncthreads() after line 35, before line 37"
    );
    assert!(!rules(&["run", "kernels/reduce_sequential.sk"]).contains(&"race".to_string()));
}

/// One warp per 32 threads, 64 threads: warps 0 and 1. Each kernel crosses one barrier.
const OWN_SLOT: &str = "__global__ void k(float* out) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[t];
}
";

/// Reads the other warp's slot before the barrier, overwrites its own after: WAR across it.
const SWAP_WAR: &str = "__global__ void k(float* out) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    float x = s[(t + 32) % 64];
    __syncthreads();
    s[t] = x;
    out[t] = x;
}
";

/// Writes its own slot, reads the other warp's after the barrier: RAW across it.
const SWAP_RAW: &str = "__global__ void k(float* out) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[(t + 32) % 64];
}
";

#[test]
fn barrier_analysis() {
    let run = |text: &str, name: &str| {
        let p = temp_file(name, text);
        json(&[
            "run",
            &p,
            "--arg",
            "out=zeros(64)",
            "--grid",
            "1",
            "--block",
            "64",
        ])
    };
    // Each thread reads back its own slot: the barrier on line 5 separates nothing between warps.
    let v = run(OWN_SLOT, "own.sk");
    assert_eq!(
        v["barriers"],
        serde_json::json!([{"line": 5, "executions": 1, "protects": false, "split": false, "exiting": false}])
    );
    assert_eq!(v["hints"][0]["rule"], "redundant-barrier");
    assert_eq!(v["hints"][0]["line"], 5);
    // Warp 0 read s[32..64] (warp 1's) before it, warp 1 overwrites s[32..64] after: WAR kept apart.
    let v = run(SWAP_WAR, "war.sk");
    assert_eq!(v["barriers"][0]["protects"], true);
    assert_eq!(v["hints"], serde_json::json!([]));
    // Warp 1 wrote s[32..64] before it, warp 0 reads them after: RAW kept apart.
    let v = run(SWAP_RAW, "raw.sk");
    assert_eq!(v["barriers"][0]["protects"], true);
    // The shipped reduction: the first barrier (line 41) only orders data within warps for
    // s = 1..16 (partners tid + s < tid + 32 stay in the warp), so it protects nothing between
    // warps; the loop's barrier (line 47) does from s = 32 on. 16 blocks × (1 + 8 iterations).
    let v = json(&["run", "kernels/reduce_interleaved.sk"]);
    assert_eq!(
        v["barriers"],
        serde_json::json!([
            {"line": 41, "executions": 16, "protects": false, "split": false, "exiting": false},
            {"line": 47, "executions": 128, "protects": true, "split": false, "exiting": false}
        ])
    );
    // Sequential addressing: at s = 128 thread t reads t + 128, another warp's input.
    let v = json(&["run", "kernels/reduce_sequential.sk"]);
    assert!(v["barriers"]
        .as_array()
        .expect("barriers")
        .iter()
        .all(|b| b["protects"] == true));
}

#[test]
fn hint_occupancy_and_partial_warp() {
    // 255 registers × 256 threads: the register file holds 1 block = 8 of 64 warps = 12.5%.
    let h = hints(&["run", "kernels/vecadd.sk", "--regs", "255"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].0.as_str(), h[0].1), ("occupancy", None));
    assert!(
        h[0].2
            .starts_with("occupancy 12.5% (8 of 64 warps per SM) is limited by registers"),
        "{h:?}"
    );
    // 100 threads = 3 full warps + 4 lanes.
    let h = hints(&["run", "kernels/vecadd.sk", "--block", "100"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(
        h[0].2,
        "100 threads per block is not a multiple of 32: the last warp of every block runs 4 of 32 lanes"
    );
    // 32 registers, 256 threads: 100 % occupancy, whole warps.
    assert!(hints(&["run", "kernels/vecadd.sk"]).is_empty());
}

#[test]
fn hints_are_printed_in_the_report() {
    let (code, out, _) = simt(&["run", "kernels/offset_copy.sk"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("hints\n  ▸ line 25: 5.0 sectors per request (ideal 4) on `in[i + offset]`"),
        "{out}"
    );
}

#[test]
fn lane_map_of_a_column_store() {
    // transpose_naive line 35, block (0,0,0) warp 0 (threadIdx.y = 0, x = lane), j = 0:
    // load idata[lane] → addresses 4·lane, sectors 0..3 (4); store odata[lane · 256] →
    // addresses 1024·lane, sector 32·lane (32 sectors).
    let v = json(&["run", "kernels/transpose_naive.sk", "--map", "35"]);
    let m = &v["lane_map"];
    assert_eq!(m["line"], 35);
    let acc = m["accesses"].as_array().expect("accesses");
    assert_eq!(acc.len(), 2);
    assert_eq!(
        (acc[0]["op"].as_str(), acc[0]["array"].as_str()),
        (Some("global_load"), Some("idata"))
    );
    assert_eq!(acc[0]["cost"], 4);
    assert_eq!(acc[1]["op"], "global_store");
    assert_eq!(acc[1]["cost"], 32);
    assert_eq!(acc[1]["warp"], 0);
    let lane = |k: usize| &acc[1]["lanes"][k];
    assert_eq!(lane(1)["index"], 256);
    assert_eq!(lane(1)["address"], 1024);
    assert_eq!(lane(31)["sector"], 31 * 32);
    assert_eq!(acc[1]["lanes"].as_array().expect("lanes").len(), 32);
}

#[test]
fn lane_map_of_the_block_warp_and_iteration_asked_for() {
    // transpose_naive line 35 in block (2,1,0), warp 3 (threadIdx.y = 3), iteration 2 (j = 16):
    // x = 2·32 + lane, y + j = 1·32 + 3 + 16 = 51. Load idata[51·256 + 64 + lane] = 13120 + lane;
    // store odata[(64 + lane)·256 + 51] = 16435 + 256·lane.
    let pick = [
        "run",
        "kernels/transpose_naive.sk",
        "--map",
        "35",
        "--map-block",
        "2,1",
        "--map-warp",
        "3",
        "--map-iteration",
        "2",
    ];
    let v = json(&pick);
    let acc = v["lane_map"]["accesses"].as_array().expect("accesses");
    assert_eq!(
        (&acc[0]["block"], &acc[0]["warp"]),
        (&json!([2, 1, 0]), &json!(3))
    );
    assert_eq!(acc[0]["lanes"][0]["index"], 13120);
    assert_eq!(acc[0]["lanes"][31]["index"], 13151);
    assert_eq!(acc[1]["lanes"][1]["index"], 16435 + 256);
    let (code, out, _) = simt(&pick);
    assert_eq!(code, 0);
    assert!(
        out.contains("  block (2,1,0) warp 3 iteration 2: 32 active lanes, 4 sectors\n"),
        "{out}"
    );
    // The loop runs 4 times (j = 0, 8, 16, 24): there is no iteration 4.
    let mut past = pick.to_vec();
    past[9] = "4";
    let (code, _, err) = simt(&past);
    assert_eq!(code, 2);
    assert!(
        err.contains("no memory access of line 35 ran in block (2,1,0), warp 3, at least 5 times"),
        "{err}"
    );
    // The grid is 8 × 8 blocks of 8 warps; both are checked before the run.
    let (code, _, err) = simt(&[
        "run",
        "kernels/transpose_naive.sk",
        "--map",
        "35",
        "--map-block",
        "8",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--map-block (8,0,0): the grid is (8,8,1) blocks"),
        "{err}"
    );
    let (code, _, err) = simt(&[
        "run",
        "kernels/transpose_naive.sk",
        "--map",
        "35",
        "--map-warp",
        "8",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--map-warp 8: a block of 256 threads has 8 warp(s)"),
        "{err}"
    );
    // Without --map the picks mean nothing: a usage error, not silently ignored.
    let (code, _, _) = simt(&["run", "kernels/transpose_naive.sk", "--map-warp", "1"]);
    assert_eq!(code, 2);
}

#[test]
fn lane_map_snapshot_of_a_bank_conflict() {
    // transpose_tiled line 47 reads tile[lane][0]: word 32·lane, bank 0 for every lane → 32
    // wavefronts; the store to odata on the same line is a row: 4 sectors.
    let (code, out, _) = simt(&["run", "kernels/transpose_tiled.sk", "--map", "47"]);
    assert_eq!(code, 0);
    let view = &out[out.find("line 47 · load").expect("map")..];
    let expected = "\
line 47 · load tile (shared, 4 B) `tile[threadIdx.x][threadIdx.y + j]`
  block (0,0,0) warp 0: 32 active lanes, 32 wavefronts
  lane 0     0   1   2   3   4   5   6   7
  index      0  32  64  96 128 160 192 224
  word       0  32  64  96 128 160 192 224
  bank       0   0   0   0   0   0   0   0
  lane 8     8   9  10  11  12  13  14  15
  index    256 288 320 352 384 416 448 480
  word     256 288 320 352 384 416 448 480
  bank       0   0   0   0   0   0   0   0
  lane 16   16  17  18  19  20  21  22  23
  index    512 544 576 608 640 672 704 736
  word     512 544 576 608 640 672 704 736
  bank       0   0   0   0   0   0   0   0
  lane 24   24  25  26  27  28  29  30  31
  index    768 800 832 864 896 928 960 992
  word     768 800 832 864 896 928 960 992
  bank       0   0   0   0   0   0   0   0
  busiest bank 0: 32 distinct word(s) (same word = broadcast, free)

line 47 · store odata (global, 4 B) `odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j]`
  block (0,0,0) warp 0: 32 active lanes, 4 sectors
";
    assert!(view.starts_with(expected), "{view}");
    assert!(
        view.ends_with("  sectors of the lanes' first bytes: 0, 1, 2, 3\n"),
        "{view}"
    );
}

#[test]
fn lane_map_of_a_line_without_memory_is_a_usage_error() {
    let (code, out, err) = simt(&["run", "kernels/vecadd.sk", "--map", "23"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--map 23: line 23 has no memory access that ran"),
        "{err}"
    );
    assert!(
        err.contains("lines with memory accesses that ran: 25"),
        "{err}"
    );
    let (code, out, _) = simt(&["run", "kernels/vecadd.sk", "--map", "0", "--json"]);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).expect("JSON error");
    assert_eq!(v["error"]["code"], "simt::usage");
}

#[test]
fn gates_fail_with_exit_one_and_list_the_failures() {
    let gates = [
        "--max",
        "sectors_per_request=4",
        "--max",
        "bank_conflicts=0",
        "--min",
        "simt_efficiency=0.9",
        "--deny",
        "races",
    ];
    // transpose_tiled: 4 sectors per request, SIMT efficiency 1, no races, but 63488 conflicts.
    let mut args = vec!["run", "kernels/transpose_tiled.sk"];
    args.extend(gates);
    let (code, out, err) = simt(&args);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("gates\n  ok      max sectors_per_request=4            value 4\n  FAILED  max bank_conflicts=0                 value 63488\n"), "{out}");
    assert_eq!(
        err,
        "simt: 1 of 4 gate(s) failed: max bank_conflicts=0 (value 63488)\n"
    );
    // The padded tile passes all four.
    let mut args = vec!["run", "kernels/transpose_padded.sk"];
    args.extend(gates);
    let (code, _, err) = simt(&args);
    assert_eq!(code, 0, "{err}");
    // --deny races on the racy kernel; in JSON the gates are listed too.
    let v = json(&["run", "kernels/race_missing_sync.sk", "--deny", "races"]);
    assert_eq!(v["gates_ok"], false);
    assert_eq!(v["gates"][0]["gate"], "deny races");
    assert_eq!(v["gates"][0]["value"], 4.0);
    let (code, _, _) = simt(&[
        "run",
        "kernels/race_missing_sync.sk",
        "--deny",
        "races",
        "--json",
    ]);
    assert_eq!(code, 1);
    // Occupancy and time are gates too: 1.0 ≥ 0.5; 4.004 µs ≤ 5 µs.
    let (code, _, _) = simt(&[
        "run",
        "kernels/vecadd.sk",
        "--min",
        "occupancy=0.5",
        "--max",
        "time=5e-6",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn bad_gates_are_usage_errors() {
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--max", "sectors_per_reqest=4"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no metric named `sectors_per_reqest`"),
        "{err}"
    );
    assert!(err.contains("did you mean `sectors_per_request`?"), "{err}");
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--min", "occupancy"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not NAME=VALUE"), "{err}");
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--max", "occupancy=lots"]);
    assert_eq!(code, 2);
    assert!(err.contains("`lots` is not a number"), "{err}");
    let (code, _, _) = simt(&["run", "kernels/vecadd.sk", "--deny", "bugs"]);
    assert_eq!(code, 2);
}

#[test]
fn device_functions_and_atomics_are_attributed_to_their_own_lines() {
    let p = temp_file(
        "dev.sk",
        "__device__ float twice(float x) {\n    return 2.0f * x;\n}\n\n__global__ void k(float* a, int* count) {\n    int i = threadIdx.x;\n    a[i] = twice(a[i]);\n    atomicAdd(&count[0], 1);\n}\n",
    );
    let args = [
        "run",
        &p,
        "--arg",
        "a=ones(64)",
        "--arg",
        "count=zeros(1)",
        "--grid",
        "1",
        "--block",
        "64",
    ];
    let v = json(&args);
    let lines = v["lines"].as_array().expect("lines");
    let at = |n: u64| lines.iter().find(|l| l["line"] == n).expect("line");
    // 64 threads = 2 warps. The inlined body's multiply is line 2: 2 warp instructions.
    assert_eq!(at(2)["warp_instr"], 2);
    // Line 7: a load and a store per warp = 4; line 8: one atomic per warp = 2 requests, all lanes
    // on count[0]: 1 sector each.
    assert_eq!(at(7)["warp_instr"], 4);
    assert_eq!(
        (
            at(8)["gatom_instr"].as_u64(),
            at(8)["gatom_sectors"].as_u64()
        ),
        (Some(2), Some(2))
    );
    // The view shows the function's line apart from the kernel's, after a gap.
    let mut a = args.to_vec();
    a.push("--lines");
    let (_, out, _) = simt(&a);
    assert!(out.contains("    2         2 │"), "{out}");
    assert!(out.contains("    ⋮           │"), "{out}");
    assert!(
        out.contains("    8         2 │        2     1.00  4.00 │"),
        "{out}"
    );
}

#[test]
fn a_branch_on_the_lane_is_called_a_warp_idiom_not_a_mistake() {
    // One lane per warp adds the warp's sum (`if (lane == 0) atomicAdd`): the branch splits
    // every warp, by design. The hint says so instead of asking for a uniform condition.
    let dir = std::env::temp_dir().join(format!("simt-insight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("lane.sk");
    std::fs::write(
        &path,
        "__global__ void k(const float* x, float* total) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         int lane = threadIdx.x % 32;\n\
         float v = x[i];\n\
         for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n\
         if (lane == 0) atomicAdd(total, v);\n\
         if (threadIdx.x % 2 == 0) total[0] += 0.0f;\n\
         }\n\
         launch k { x = ones(256); total = zeros(1); block = 128; grid = 2; }\n",
    )
    .expect("write");
    let h = hints(&["run", path.to_str().expect("utf-8")]);
    let lane: Vec<_> = h.iter().filter(|x| x.0 == "lane-divergence").collect();
    assert_eq!(lane.len(), 1, "{h:?}");
    assert_eq!(lane[0].1, Some(6));
    assert!(lane[0].2.contains("by the lane within the warp"), "{h:?}");
    // `threadIdx.x % 2` is not a lane idiom: the usual advice.
    assert!(
        h.iter().any(|x| x.0 == "divergence" && x.1 == Some(7)),
        "{h:?}"
    );
}
