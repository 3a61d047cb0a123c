//! One output model (issue 17): the text table, the per-line view and the HTML report print
//! the numbers `--json` carries. For every launch section of the shipped kernels, each line of
//! `simt run --lines` and each row of the HTML report is parsed, and every number in it is
//! compared with the JSON value of the metric it stands for (found by a JSON pointer), at the
//! precision printed. A line no rule reads, a number the JSON lacks or one computed another way
//! fails the test.
//!
//! It runs the `simt` binary, as a person would: `--json --html FILE` for the JSON and the HTML
//! of one run, and `--lines` for the text (the counters are deterministic; only the wall-clock
//! `timing` differs between the two runs, and its line is checked for its shape only).

use std::path::Path;
use std::process::Command;

use regex::Regex;
use serde_json::Value;
use simt::pipeline;
use simt::source::SourceFile;
use simt::suite;

/// A number as printed, with its unit: seconds (`6.621 µs`), binary bytes (`31.0 KB`), a
/// percentage (`98.1%`) or plain.
const NUM: &str = r"(-?[0-9]+(?:\.[0-9]+)?(?: (?:s|ms|µs|B|KB|MB)|%)?)";

/// A line of the text table: a regex whose captures are, in order, the values at `pointers`.
/// A pointer ending in `*100` is a fraction printed as a percentage; one naming an array stands
/// for its length; `-` is a capture the rule does not compare.
struct Rule {
    pattern: String,
    pointers: Vec<&'static str>,
}

fn rule(pattern: &str, pointers: &[&'static str]) -> Rule {
    Rule {
        pattern: format!("^{}$", pattern.replace("{}", NUM)),
        pointers: pointers.to_vec(),
    }
}

/// The rules of `simt run`'s table (`table::render`), one per kind of line.
fn text_rules() -> Vec<Rule> {
    vec![
        rule(
            r"simt · (.+) \((.+)\) on (.+)",
            &["/kernel", "/file", "/gpu"],
        ),
        rule(
            r"launch      grid (.+) × block (.+) = {} blocks, {} threads, {} warps/block",
            &[
                "/launch/grid",
                "/launch/block",
                "/counters/blocks",
                "/counters/threads",
                "/launch/warps_per_block",
            ],
        ),
        rule(
            r"sampled     {} of {} blocks \({}\), counters extrapolated with 95% error bounds: warp_instr ±{}, gld_sectors ±{}, gst_sectors ±{}, smem_wavefronts ±{} \(all in --json\); results and expects not checked",
            &[
                "/sample/blocks_run",
                "/sample/blocks",
                "/sample/blocks_run_pct",
                "/sample/bounds_pct/warp_instr",
                "/sample/bounds_pct/gld_sectors",
                "/sample/bounds_pct/gst_sectors",
                "/sample/bounds_pct/smem_wavefronts",
            ],
        ),
        rule(
            r"  caches    {} of {} clusters \({} blocks with warm-ups\), (?:whole waves|clusters of 1/{} wave, each with that share of the L2: reuse between clusters of a wave is not seen, so L2 misses and DRAM reads are upper bounds): l2_read_miss_sectors ±{}, dram_read_bytes ±{}",
            &[
                "/sample/cache/clusters_run",
                "/sample/cache/clusters",
                "/sample/cache/blocks_run",
                "/sample/cache/clusters_per_wave",
                "/sample/cache_bounds_pct/l2_read_miss_sectors",
                "/sample/cache_bounds_pct/dram_read_bytes",
            ],
        ),
        rule(
            r"(global memory|shared memory|control flow|expect|constant memory|texture|local memory \(arrays indexed at run time\)|races       none|)",
            &["-"],
        ),
        rule(
            r"  loads +{} requests +{} sectors +{} sectors/request",
            &[
                "/counters/gld_instr",
                "/counters/gld_sectors",
                "/derived/sectors_per_load",
            ],
        ),
        rule(
            r"  stores +{} requests +{} sectors +{} sectors/request",
            &[
                "/counters/gst_instr",
                "/counters/gst_sectors",
                "/derived/sectors_per_store",
            ],
        ),
        rule(
            r"  requested +{} bytes +moved {} bytes +requested/moved {}",
            &[
                "/counters/g_bytes_requested",
                "/derived/bytes_moved",
                "/derived/bytes_requested_per_byte_moved",
            ],
        ),
        rule(
            r"caches      L1 {} per block · L2 {} · {} blocks per wave",
            &[
                "/cache/l1_bytes_per_block",
                "/cache/l2_bytes",
                "/cache/wave_blocks",
            ],
        ),
        rule(
            r"  L1 +{} hits +{} misses +hit rate {} \(global-load sectors\)",
            &[
                "/cache/l1_hit_sectors",
                "/cache/l1_miss_sectors",
                "/cache/l1_hit_rate_pct",
            ],
        ),
        rule(
            r"  L2 +{} reads +{} writes {} atomics  read hit rate {}, hit rate {}",
            &[
                "/cache/l2_read_sectors",
                "/cache/l2_write_sectors",
                "/cache/l2_atomic_sectors",
                "/cache/l2_read_hit_rate_pct",
                "/cache/l2_hit_rate_pct",
            ],
        ),
        rule(
            r"  DRAM +{} bytes read +{} bytes written",
            &["/cache/dram_read_bytes", "/cache/dram_write_bytes"],
        ),
        rule(
            r"  loads +{} requests +{} transactions \({} per request: one per distinct address\)",
            &[
                "/counters/cmem_instr",
                "/counters/cmem_transactions",
                "/derived/cmem_transactions_per_request",
            ],
        ),
        rule(
            r"  fetches +{} requests \(texture pipe; no texture cache modelled\)",
            &["/counters/tex_requests"],
        ),
        rule(
            r"  loads +{} requests +{} sectors",
            &["/counters/local_ld_instr", "/counters/local_ld_sectors"],
        ),
        rule(
            r"  stores +{} requests +{} sectors",
            &["/counters/local_st_instr", "/counters/local_st_sectors"],
        ),
        rule(
            r" +{} instructions +{} wavefronts  {} bank conflicts  {} wavefronts/instruction",
            &[
                "/counters/smem_instr",
                "/counters/smem_wavefronts",
                "/counters/smem_bank_conflicts",
                "/derived/bank_conflict_factor",
            ],
        ),
        rule(
            r" +{} warp instructions  {} active lane slots  SIMT efficiency {}",
            &[
                "/counters/warp_instr",
                "/counters/active_lane_slots",
                "/derived/simt_efficiency",
            ],
        ),
        rule(
            r" +{} branches  {} divergent  branch efficiency {}",
            &[
                "/counters/branches",
                "/counters/divergent",
                "/derived/branch_efficiency",
            ],
        ),
        rule(r" +{} barriers", &["/counters/barriers"]),
        rule(
            r" +{} grid barriers \(this_grid\(\)\.sync\(\), once per block\)",
            &["/counters/grid_syncs"],
        ),
        rule(
            r"races       {} racing instruction\(s\) in {} group\(s\)",
            &["/counters/race_count", "/races"],
        ),
        rule(
            r"uninit      {} instruction\(s\) read uninitialised memory, in {} group\(s\)",
            &["/counters/uninit_count", "/uninit"],
        ),
        rule(
            r"occupancy   cannot launch: (.+)",
            &["/occupancy/cannot_launch"],
        ),
        rule(
            r"occupancy   {} blocks/SM, {} warps/SM \({}\), limited by (.+) \({} regs/thread assumed, --regs\)",
            &[
                "/occupancy/blocks_per_sm",
                "/occupancy/active_warps",
                "/occupancy/occupancy*100",
                "/occupancy/limiters",
                "/launch/regs_per_thread",
            ],
        ),
        rule(
            r"time        {} \((\w+)-bound: memory {}, issue {}, \+ launch overhead\)",
            &["/time/t", "/time/bound", "/time/t_mem", "/time/t_issue"],
        ),
        rule(
            r"  refined   {} \((\w+)-bound; {} wave\(s\), effective bandwidth {} of peak\), \+ {} launch overhead",
            &[
                "/time_refined/t",
                "/time_refined/bound",
                "/time_refined/waves/waves",
                "/time_refined/effective_bw_pct",
                "/time_refined/launch_overhead",
            ],
        ),
    ]
}

/// `text` as printed: a number in its unit (seconds and bytes converted), and the half-width
/// of the interval its rounding leaves, in the same unit; `None` when it is not a number.
fn printed(text: &str) -> Option<(f64, f64)> {
    let (digits, unit) = text.split_once(' ').unwrap_or((text, ""));
    let digits = digits.trim_end_matches('%');
    let decimals = digits.split_once('.').map_or(0, |(_, f)| f.len());
    let scale = match unit {
        "s" | "" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        _ => return None,
    };
    let n: f64 = digits.parse().ok()?;
    Some((n * scale, 0.5 * 10f64.powi(-(decimals as i32)) * scale))
}

/// `(i, j)` as the table prints a grid or block.
fn dims(v: &Value) -> String {
    let d: Vec<u64> = v
        .as_array()
        .expect("a size")
        .iter()
        .map(|x| x.as_u64().expect("an integer"))
        .collect();
    match d.as_slice() {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("({x}, {y})"),
        [x, y, z] => format!("({x}, {y}, {z})"),
        _ => panic!("not a size: {v}"),
    }
}

/// Compares one printed value with the JSON value at `pointer`; `what` names it in a failure.
fn compare(json: &Value, pointer: &str, text: &str, what: &str) -> Result<(), String> {
    if pointer == "-" {
        return Ok(());
    }
    let (pointer, factor) = match pointer.strip_suffix("*100") {
        Some(p) => (p, 100.0),
        None => (pointer, 1.0),
    };
    let Some(v) = json.pointer(pointer) else {
        return Err(format!(
            "{what}: `{text}` stands for {pointer}, which the JSON does not have"
        ));
    };
    let ok = match v {
        Value::String(s) => s == text,
        Value::Array(_) if pointer.ends_with("grid") || pointer.ends_with("block") => {
            dims(v) == text
        }
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            names.join(" + ") == text
        }
        Value::Array(items) => printed(text).is_some_and(|(n, _)| n == items.len() as f64),
        Value::Number(n) => printed(text).is_some_and(|(shown, tolerance)| {
            let want = n.as_f64().expect("a number") * factor;
            (shown - want).abs() <= tolerance * (1.0 + 1e-9)
        }),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what}: shows `{text}` for {pointer}, the JSON has {v}"
        ))
    }
}

/// Compares the captures of the rule that read `what` with the JSON; a line or row no rule read
/// is a problem.
fn read(
    found: Option<(regex::Captures<'_>, &Rule)>,
    json: &Value,
    what: &str,
    problems: &mut Vec<String>,
) {
    let Some((caps, r)) = found else {
        problems.push(format!("{what}: no rule reads it"));
        return;
    };
    for (k, pointer) in r.pointers.iter().enumerate() {
        let text = caps.get(k + 1).map_or("", |m| m.as_str());
        if let Err(e) = compare(json, pointer, text, what) {
            problems.push(e);
        }
    }
}

/// Checks the table of `simt run` against its JSON: every line is read by a rule, or is text
/// the JSON carries verbatim.
fn check_table(table: &str, json: &Value, problems: &mut Vec<String>) {
    let rules: Vec<(Regex, Rule)> = text_rules()
        .into_iter()
        .map(|r| (Regex::new(&r.pattern).expect("a valid rule"), r))
        .collect();
    let texts = |pointer: &str, key: Option<&str>| -> Vec<String> {
        json.pointer(pointer)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| match key {
                        Some(k) => x.get(k)?.as_str().map(str::to_string),
                        None => x.as_str().map(str::to_string),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let assumptions = texts("/time_refined/assumptions", None);
    let expects = texts("/expects", Some("text"));
    let mut in_groups = false;
    for line in table.lines() {
        let what = format!("text `{line}`");
        // The races' and uninitialised reads' details: the JSON's records, described.
        if in_groups && line.starts_with("  ") {
            continue;
        }
        in_groups = line.starts_with("races       ") && line != "races       none"
            || line.starts_with("uninit      ");
        if let Some(a) = line.strip_prefix("            assumes ") {
            if !assumptions.iter().any(|x| x == a) {
                problems.push(format!("{what}: not one of time_refined.assumptions"));
            }
            continue;
        }
        if let Some(units) = line.strip_prefix("            busy: ") {
            let units: Vec<&str> = units.split(" · ").collect();
            for (k, u) in units.iter().enumerate() {
                let (name, pct) = u.rsplit_once(' ').expect("`unit N%`");
                let at = format!("/time_refined/units/{k}");
                for (p, t) in [
                    (format!("{at}/unit"), name),
                    (format!("{at}/utilisation*100"), pct),
                ] {
                    if let Err(e) = compare(json, &p, t, &what) {
                        problems.push(e);
                    }
                }
            }
            continue;
        }
        let expect = line
            .strip_prefix("  ok      ")
            .or_else(|| line.strip_prefix("  FAILED  "));
        if let Some(e) = expect {
            if !expects.iter().any(|x| e.starts_with(x.as_str())) {
                problems.push(format!("{what}: not one of expects"));
            }
            continue;
        }
        // Wall-clock: the JSON is of another run.
        if line.starts_with("timing      parse ") {
            continue;
        }
        let found = rules
            .iter()
            .find_map(|(re, r)| Some((re.captures(line)?, r)));
        read(found, json, &what, problems);
    }
}

/// The counters and ratios each column of the per-line views shows, in order, under `at`
/// (`/lines/N` or the root for the total row), with the count that leaves a cell empty when it
/// is 0.
const COLUMNS: [(&str, &str); 10] = [
    ("/warp_instr", "/warp_instr"),
    (
        "/derived/requests_with_atomics",
        "/derived/requests_with_atomics",
    ),
    (
        "/derived/sectors_per_request_with_atomics",
        "/derived/requests_with_atomics",
    ),
    (
        "/derived/ideal_sectors_per_request_with_atomics",
        "/derived/requests_with_atomics",
    ),
    ("/smem_instr", "/smem_instr"),
    ("/derived/bank_conflict_factor", "/smem_instr"),
    ("/derived/ideal_bank_conflict_factor", "/smem_instr"),
    ("/branches", "/branches"),
    ("/divergent", "/divergent"),
    ("/race_count", "/race_count"),
];

/// Checks one row of a per-line view: `cells` (10) against line `line`'s JSON entry, or the
/// totals for `None`.
fn check_row(json: &Value, line: Option<u64>, cells: &[String], what: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let at = match line {
        None => Some(String::new()),
        Some(n) => json["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .position(|l| l["line"] == n)
            .map(|i| format!("/lines/{i}")),
    };
    let Some(at) = at else {
        // A line that issued nothing: no entry, no numbers.
        if cells.iter().any(|c| !c.is_empty()) {
            problems.push(format!(
                "{what}: numbers on a line the JSON has no entry for"
            ));
        }
        return problems;
    };
    for ((value, gate_pointer), cell) in COLUMNS.iter().zip(cells) {
        // The totals' counters are under `counters`, their ratios under `derived`.
        let path = |p: &str| match (line, p.starts_with("/derived")) {
            (None, false) => format!("/counters{p}"),
            _ => format!("{at}{p}"),
        };
        let gate = json.pointer(&path(gate_pointer)).and_then(Value::as_u64);
        match (gate, cell.is_empty()) {
            (Some(0), true) => {}
            (Some(0), false) => problems.push(format!(
                "{what}: `{cell}` where {} is 0",
                path(gate_pointer)
            )),
            _ => {
                if let Err(e) = compare(json, &path(value), cell, what) {
                    problems.push(e);
                }
            }
        }
    }
    problems
}

/// Checks `simt run --lines`'s per-line view (after the table) against the JSON's `lines`.
fn check_lines(view: &str, json: &Value, problems: &mut Vec<String>) {
    // Right-aligned cells of fixed widths between `│` group separators.
    const WIDTHS: [usize; 11] = [5, 9, 8, 8, 5, 8, 7, 5, 8, 6, 5];
    for line in view.lines().skip(2) {
        let chars: Vec<char> = line.chars().collect();
        let mut cells = Vec::new();
        let mut at = 0;
        for (i, w) in WIDTHS.iter().enumerate() {
            at += match i {
                0 => 0,
                2 | 5 | 8 | 10 => 3,
                _ => 1,
            };
            let cell: String = chars.iter().skip(at).take(*w).collect();
            cells.push(cell.trim().to_string());
            at += w;
        }
        let what = format!("--lines `{line}`");
        let row = match cells[0].as_str() {
            "⋮" => continue,
            "total" => None,
            n => Some(n.parse::<u64>().expect("a line number")),
        };
        problems.extend(check_row(json, row, &cells[1..], &what));
    }
}

/// The HTML text of `html`, tags removed and entities decoded.
fn html_text(html: &str) -> String {
    let tags = Regex::new("<[^>]*>").expect("regex");
    tags.replace_all(html, "")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The rules of the HTML summary: its label, then a rule over `value | note`.
fn html_rules() -> Vec<(&'static str, Rule)> {
    vec![
        (
            "launch",
            rule(
                r"grid (.+) × block (.+) \| {} blocks, {} threads, {} warps/block",
                &[
                    "/launch/grid",
                    "/launch/block",
                    "/counters/blocks",
                    "/counters/threads",
                    "/launch/warps_per_block",
                ],
            ),
        ),
        (
            "warp instructions",
            rule(
                r"{} \| SIMT efficiency {}",
                &["/counters/warp_instr", "/derived/simt_efficiency"],
            ),
        ),
        (
            "global loads",
            rule(
                r"{} sectors/request \| {} requests, {} sectors",
                &[
                    "/derived/sectors_per_load",
                    "/counters/gld_instr",
                    "/counters/gld_sectors",
                ],
            ),
        ),
        (
            "global stores",
            rule(
                r"{} sectors/request \| {} requests, {} sectors",
                &[
                    "/derived/sectors_per_store",
                    "/counters/gst_instr",
                    "/counters/gst_sectors",
                ],
            ),
        ),
        (
            "bytes requested / moved",
            rule(
                r"{} \| {} bytes requested, {} bytes moved",
                &[
                    "/derived/bytes_requested_per_byte_moved",
                    "/counters/g_bytes_requested",
                    "/derived/bytes_moved",
                ],
            ),
        ),
        (
            "shared memory",
            rule(
                r"{} wavefronts/instruction \| {} instructions, {} wavefronts, {} bank conflicts",
                &[
                    "/derived/bank_conflict_factor",
                    "/counters/smem_instr",
                    "/counters/smem_wavefronts",
                    "/counters/smem_bank_conflicts",
                ],
            ),
        ),
        (
            "divergent branches",
            rule(
                r"{} \| of {} branches, branch efficiency {}",
                &[
                    "/counters/divergent",
                    "/counters/branches",
                    "/derived/branch_efficiency",
                ],
            ),
        ),
        (
            "barriers",
            rule(
                r"{} \| __syncthreads\(\) per block",
                &["/counters/barriers"],
            ),
        ),
        (
            "races",
            rule(
                r"{} \| {} uninitialised reads",
                &["/counters/race_count", "/counters/uninit_count"],
            ),
        ),
        (
            "occupancy",
            rule(
                r"{} \| {} blocks/SM, {} warps, limited by (.+)",
                &[
                    "/occupancy/occupancy*100",
                    "/occupancy/blocks_per_sm",
                    "/occupancy/active_warps",
                    "/occupancy/limiters",
                ],
            ),
        ),
        (
            "occupancy",
            rule(r"cannot launch \| (.+)", &["/occupancy/cannot_launch"]),
        ),
        (
            "time estimate",
            rule(
                r"{} \| (\w+)-bound \(roofline\)",
                &["/time/t", "/time/bound"],
            ),
        ),
        (
            "refined estimate",
            rule(
                r"{} \| (\w+)-bound, occupancy-aware",
                &["/time_refined/t", "/time_refined/bound"],
            ),
        ),
        (
            "refined estimate",
            rule(r"— \| (.+)", &["/time_refined/error"]),
        ),
        (
            "expects",
            rule(r"{} of {} passed \| .*", &["-", "/expects"]),
        ),
    ]
}

/// Checks the HTML report's header, summary and per-line table against the JSON.
fn check_html(html: &str, json: &Value, problems: &mut Vec<String>) {
    let rules: Vec<(&str, Regex, Rule)> = html_rules()
        .into_iter()
        .map(|(label, r)| (label, Regex::new(&r.pattern).expect("a valid rule"), r))
        .collect();
    let text = html_text(html);
    let heading = [
        rule(r"simt · (\S+) (\S+) on (.+)", &["/kernel", "/file", "/gpu"]),
        rule(
            r"Sampled: {} of {} blocks ran \({}\); the counters are extrapolated and the results are not checked.",
            &[
                "/sample/blocks_run",
                "/sample/blocks",
                "/sample/blocks_run_pct",
            ],
        ),
    ];
    let sampled = json["sample"].is_object();
    for (r, wanted) in heading.iter().zip([true, sampled]) {
        let re = Regex::new(&format!("(?m){}", r.pattern)).expect("a valid rule");
        let found = re.captures(&text).map(|caps| (caps, r));
        if wanted || found.is_some() {
            read(found, json, &format!("HTML `{}`", r.pattern), problems);
        }
    }
    let summary = html
        .split("<table id=\"summary\">")
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .expect("a summary table");
    let cell = Regex::new(r"<td[^>]*>([^<]*)</td>").expect("regex");
    for tr in summary.split("<tr>").skip(1) {
        let cells: Vec<String> = cell.captures_iter(tr).map(|c| html_text(&c[1])).collect();
        let [label, value, note] = cells.as_slice() else {
            problems.push(format!("HTML summary row `{tr}`: not three cells"));
            continue;
        };
        let text = format!("{value} | {note}");
        let what = format!("HTML `{label}: {text}`");
        let found = rules
            .iter()
            .filter(|(l, _, _)| l == label)
            .find_map(|(_, re, r)| Some((re.captures(&text)?, r)));
        let passed_shown = found.as_ref().map(|(caps, _)| caps[1].to_string());
        read(found, json, &what, problems);
        if let (true, Some(shown)) = (label == "expects", passed_shown) {
            let passed = json["expects"]
                .as_array()
                .expect("expects")
                .iter()
                .filter(|e| e["passed"] == true)
                .count();
            if shown.parse::<usize>() != Ok(passed) {
                problems.push(format!("{what}: {passed} passed in the JSON"));
            }
        }
    }
    let lines = html
        .split("<table id=\"lines\">")
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .expect("a per-line table");
    for tr in lines.split("<tr").skip(2) {
        let cells: Vec<String> = cell.captures_iter(tr).map(|c| html_text(&c[1])).collect();
        let what = format!("HTML per-line row `{}`", cells.join("|"));
        let row = match cells.first().map(String::as_str) {
            Some("total") => None,
            Some(n) => Some(n.parse::<u64>().expect("a line number")),
            None => continue,
        };
        problems.extend(check_row(json, row, &cells[1..11], &what));
    }
}

fn simt(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_simt"))
        .args(args)
        .output()
        .expect("simt runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs one launch section with `extra` flags and checks its text and HTML against its JSON;
/// returns whether it ran (a kernel that must fail has no report).
fn check_section(file: &Path, kernel: &str, extra: &[&str], problems: &mut Vec<String>) -> bool {
    let file = file.to_str().expect("a UTF-8 path");
    let html_path = std::env::temp_dir().join(format!(
        "simt-one-model-{}-{kernel}-{}.html",
        std::process::id(),
        extra.len()
    ));
    let html_arg = html_path.to_str().expect("a UTF-8 path");
    let mut args = vec!["run", file, "--kernel", kernel, "--color", "never"];
    args.extend(extra);
    let json: Value = serde_json::from_str(&simt(
        &[args.as_slice(), &["--json", "--html", html_arg]].concat(),
    ))
    .expect("simt run --json prints JSON");
    if json.get("error").is_some() {
        return false;
    }
    let text = simt(&[args.as_slice(), &["--lines"]].concat());
    let html = std::fs::read_to_string(&html_path).expect("--html wrote the page");
    let _ = std::fs::remove_file(&html_path);
    let mut found = Vec::new();
    // The kernel's printf output comes first and the hints after the table: the table starts at
    // its heading and ends before `hints`.
    let start = text.find("simt · ").expect("a table");
    let (table, view) = text[start..]
        .split_once("\nper line · ")
        .expect("a per-line view");
    let table = table
        .split("\nhints\n")
        .next()
        .expect("split yields a first part");
    check_table(table, &json, &mut found);
    check_lines(view, &json, &mut found);
    check_html(&html, &json, &mut found);
    problems.extend(
        found
            .into_iter()
            .map(|p| format!("{file} {kernel} {extra:?}: {p}")),
    );
    true
}

#[test]
fn the_table_and_the_html_show_the_numbers_of_the_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut ran = 0;
    for path in suite::files(&[root.join("kernels")]).expect("kernels/") {
        let text = std::fs::read_to_string(&path).expect("readable");
        let src = SourceFile::new(path.display().to_string(), text);
        let (module, _) = pipeline::compile(&src).expect("shipped kernels compile");
        for l in &module.launches {
            ran += usize::from(check_section(&path, &l.kernel.name, &[], &mut problems));
        }
    }
    // A sampled run: the sample line, its cache model's line and their bounds.
    let matmul = root.join("kernels/matmul_naive.sk");
    assert!(check_section(
        &matmul,
        "matmul_naive",
        &["--sample", "0.25"],
        &mut problems
    ));
    assert!(ran >= 20, "only {ran} launch sections ran");
    assert!(
        problems.is_empty(),
        "{} number(s) differ from the JSON:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
