//! `simt compare`: two kernels with the same launch flags, counters and estimates side by side.

use std::path::PathBuf;

use clap::Args as ClapArgs;

use super::{emit, load_gpu, parse_dim, ModelFlags};
use crate::gpu::GpuConfig;
use crate::pipeline::{self, Failure, RunOptions, EXIT_RUN};
use crate::report::model::{CompareOutput, CompareSide, Measures, Version};
use crate::report::style::{Paint, Tone};
use crate::report::table::dim;
use crate::report::{json as report_json, Report};

/// `simt compare` flags.
#[derive(Debug, ClapArgs)]
pub struct CompareArgs {
    /// `A.sk B.sk`, or one file with two `--kernel`s.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Kernel names: one for both files, one per file (A then B), or two kernels of one file.
    #[arg(long = "kernel", value_name = "NAME")]
    pub kernels: Vec<String>,
    /// Grid size for both (overrides the launch sections).
    #[arg(long, value_parser = parse_dim)]
    pub grid: Option<[u32; 3]>,
    /// Block size for both (overrides the launch sections).
    #[arg(long, value_parser = parse_dim)]
    pub block: Option<[u32; 3]>,
    /// Set a parameter or host variable of both: NAME=VALUE.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// GPU model.
    #[arg(long, default_value = "h100", value_parser = super::GpuName, hide_possible_values = true)]
    pub gpu: String,
    /// Print one JSON object: `a`, `b` and `ratios` (B / A).
    #[arg(long)]
    pub json: bool,
    /// Shared memory, registers, step limit and seed.
    #[command(flatten)]
    pub model: ModelFlags,
}

/// The two (file, kernel) pairs the flags name.
fn sides(a: &CompareArgs) -> Result<[(PathBuf, Option<String>); 2], Failure> {
    let k = |i: usize| a.kernels.get(i).cloned();
    match (a.files.as_slice(), a.kernels.len()) {
        ([f, g], 0) => Ok([(f.clone(), None), (g.clone(), None)]),
        ([f, g], 1) => Ok([(f.clone(), k(0)), (g.clone(), k(0))]),
        ([f, g], 2) => Ok([(f.clone(), k(0)), (g.clone(), k(1))]),
        ([f], 2) => Ok([(f.clone(), k(0)), (f.clone(), k(1))]),
        _ => Err(Failure::usage(
            format!(
                "compare needs two kernels: got {} file(s) and {} --kernel",
                a.files.len(),
                a.kernels.len()
            ),
            Some(
                "simt compare A.sk B.sk, or simt compare FILE.sk --kernel one --kernel two".into(),
            ),
        )),
    }
}

/// The metrics compared, in display order: JSON pointers into a side's measures, as `run
/// --json` prints them, so that each name and value is the model's. A metric the run does not
/// have (`cache` in a sampled run, a refined time that could not be estimated) is left out.
const COMPARED: [&str; 25] = [
    "/counters/warp_instr",
    "/counters/active_lane_slots",
    "/counters/gld_instr",
    "/counters/gld_sectors",
    "/counters/gst_instr",
    "/counters/gst_sectors",
    "/counters/g_bytes_requested",
    "/derived/dram_bytes",
    "/derived/sectors_per_request",
    "/derived/bytes_requested_per_byte_moved",
    "/counters/smem_instr",
    "/counters/smem_wavefronts",
    "/counters/smem_bank_conflicts",
    "/counters/branches",
    "/counters/divergent",
    "/derived/simt_efficiency",
    "/counters/barriers",
    "/counters/race_count",
    "/occupancy/occupancy",
    "/time/t",
    "/cache/l1_hit_rate_pct",
    "/cache/l2_hit_rate_pct",
    "/cache/dram_read_bytes",
    "/cache/dram_write_bytes",
    "/time_refined/t",
];

/// A compared metric's name: its key, or for an estimate's `t` the estimate's (`time`,
/// `time_refined`; seconds).
fn name(pointer: &'static str) -> &'static str {
    let mut parts = pointer.rsplit('/');
    let key = parts.next().unwrap_or(pointer);
    match (key, parts.next()) {
        ("t", Some(estimate)) => estimate,
        _ => key,
    }
}

/// The metrics compared, as (name, value) in display order.
fn metrics(m: &Measures) -> Vec<(&'static str, f64)> {
    let v = report_json::to_value(m);
    COMPARED
        .iter()
        .filter_map(|p| Some((name(p), v.pointer(p)?.as_f64()?)))
        .collect()
}

/// B / A, or `None` when A is 0.
fn ratio(a: f64, b: f64) -> Option<f64> {
    (a != 0.0).then(|| b / a)
}

fn side(r: &Report) -> CompareSide {
    CompareSide {
        file: r.file.clone(),
        kernel: r.kernel.clone(),
        measures: Measures::new(r),
        ok: r.expects_passed(),
    }
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}

pub(super) fn compare_cmd(a: CompareArgs, paint: Paint) -> Result<u8, Failure> {
    let sides = sides(&a)?;
    let gpu: GpuConfig = load_gpu(&a.gpu)?;
    let options = a.model.options(a.grid, a.block, &a.args)?;
    let mut reports = Vec::new();
    for (file, kernel) in sides {
        let src = pipeline::read(&file)?;
        let opts = RunOptions {
            kernel,
            gpu: gpu.clone(),
            threads: pipeline::default_threads(),
            ..options.clone()
        };
        reports.push(pipeline::run(&src, &opts)?);
    }
    let (ra, rb) = (&reports[0], &reports[1]);
    let (sa, sb) = (side(ra), side(rb));
    let (ma, mb) = (metrics(&sa.measures), metrics(&sb.measures));
    if a.json {
        let ratios = ma
            .iter()
            .zip(&mb)
            .map(|((n, x), (_, y))| (n.to_string(), ratio(*x, *y)))
            .collect();
        let doc = CompareOutput {
            schema: Version,
            gpu: gpu.name.clone(),
            a: sa,
            b: sb,
            ratios,
        };
        emit(&format!("{}\n", report_json::to_value(&doc)));
    } else {
        let mut s = format!("simt compare on {}\n", gpu.name);
        for (side, r) in [("A", ra), ("B", rb)] {
            s.push_str(&format!(
                "  {side}  {} ({})  grid {} × block {}\n",
                r.kernel,
                r.file,
                dim(r.launch.grid),
                dim(r.launch.block)
            ));
        }
        s.push_str(&format!(
            "\n  {:<30}{:>16}{:>16}{:>10}\n",
            "metric", "A", "B", "B/A"
        ));
        for ((name, x), (_, y)) in ma.iter().zip(&mb) {
            // The table shows times in µs, under names that say so.
            let (label, x, y) = match *name {
                "time" | "time_refined" => (format!("{name}_us"), x * 1e6, y * 1e6),
                _ => (name.to_string(), *x, *y),
            };
            let (r, tone) = match ratio(x, y) {
                Some(r) if (r - 1.0).abs() < 1e-9 => ("1.00".to_string(), Tone::Plain),
                Some(r) => (format!("{r:.2}"), Tone::Bold),
                None if y == 0.0 => ("=".to_string(), Tone::Plain),
                None => ("new".to_string(), Tone::Bold),
            };
            s.push_str(&format!(
                "  {:<30}{:>16}{:>16}{}\n",
                label,
                number(x),
                number(y),
                paint.cell(&r, 10, tone)
            ));
        }
        emit(&s);
    }
    Ok(if ra.expects_passed() && rb.expects_passed() {
        0
    } else {
        EXIT_RUN
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_b_over_a_and_undefined_for_zero() {
        assert_eq!(ratio(4.0, 32.0), Some(8.0));
        assert_eq!(ratio(0.0, 3.0), None);
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.5), "0.500");
        assert_eq!(name("/counters/warp_instr"), "warp_instr");
        assert_eq!(name("/time/t"), "time");
        assert_eq!(name("/time_refined/t"), "time_refined");
        assert_eq!(name("/occupancy/occupancy"), "occupancy");
    }
}
