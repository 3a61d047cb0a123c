//! `simt sweep`: every combination of block sizes, argument values and GPUs, one row each.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use clap::Args as ClapArgs;

use super::{emit, load_gpu, parse_dim, ModelFlags};
use crate::gpu::GpuConfig;
use crate::pipeline::{self, Failure, RunOptions, EXIT_RUN};
use crate::render;
use crate::report::model::{Measures, SweepResult, SweepRow, Version};
use crate::report::style::{Paint, Tone};
use crate::report::table::seconds;
use crate::report::{json as report_json, Report};

/// `simt sweep` flags.
#[derive(Debug, ClapArgs)]
pub struct SweepArgs {
    /// The `.sk` file.
    pub file: PathBuf,
    /// The kernel to run (needed when the file has several).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Block sizes to try, comma-separated; 2-D and 3-D shapes as XxY[xZ]: `64,128,256` or `32x8,16x16`.
    #[arg(long, value_name = "LIST")]
    pub block: Option<String>,
    /// Grid size for every row (default: the launch section's, which may follow the block size).
    #[arg(long, value_parser = parse_dim)]
    pub grid: Option<[u32; 3]>,
    /// Values to try for a parameter or host variable: NAME=v1,v2,... (commas inside brackets or
    /// parentheses do not split: `a=rand(64),ones(64)`). Repeatable; every combination runs.
    #[arg(long = "arg", value_name = "NAME=LIST")]
    pub args: Vec<String>,
    /// GPU models to try, comma-separated (presets or JSON files).
    #[arg(long, default_value = "h100", value_parser = super::GpuName, hide_possible_values = true)]
    pub gpu: String,
    /// Print one JSON object per row (NDJSON) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Shared memory, registers, step limit and seed.
    #[command(flatten)]
    pub model: ModelFlags,
    /// Rows run at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Splits at commas outside brackets and parentheses.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur.trim().to_string());
    out
}

/// One combination: its block (if swept), `--arg NAME=VALUE` texts and GPU.
#[derive(Clone, Debug)]
struct Combo {
    block: Option<[u32; 3]>,
    args: Vec<(String, String)>,
    gpu: usize,
}

/// Every combination, GPUs outermost, then blocks, then argument values in the order given.
fn combos(blocks: &[Option<[u32; 3]>], args: &[(String, Vec<String>)], gpus: usize) -> Vec<Combo> {
    let mut arg_sets: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, values) in args {
        arg_sets = arg_sets
            .iter()
            .flat_map(|set| {
                values.iter().map(move |v| {
                    let mut s = set.clone();
                    s.push((name.clone(), v.clone()));
                    s
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for gpu in 0..gpus {
        for &block in blocks {
            for set in &arg_sets {
                out.push(Combo {
                    block,
                    args: set.clone(),
                    gpu,
                });
            }
        }
    }
    out
}

/// What one row produced.
type RowResult = Result<Report, Failure>;

pub(super) fn sweep_cmd(a: SweepArgs, paint: Paint) -> Result<u8, Failure> {
    let blocks: Vec<Option<[u32; 3]>> = match &a.block {
        None => vec![None],
        Some(list) => split_top(list)
            .iter()
            .map(|b| {
                parse_dim(&b.replace(',', "x"))
                    .map(Some)
                    .map_err(|e| Failure::usage(format!("--block `{b}`: {e}"), None))
            })
            .collect::<Result<_, _>>()?,
    };
    let mut args = Vec::new();
    for text in &a.args {
        let Some((name, list)) = text.split_once('=') else {
            return Err(Failure::usage(
                format!("--arg `{text}` is not NAME=v1,v2,..."),
                Some("e.g. --arg n=1024,4096".into()),
            ));
        };
        args.push((name.trim().to_string(), split_top(list)));
    }
    let gpus: Vec<GpuConfig> = split_top(&a.gpu)
        .iter()
        .map(|g| load_gpu(g))
        .collect::<Result<_, _>>()?;
    let rows = combos(&blocks, &args, gpus.len());
    // Every row's arguments are checked before any runs, and the file is compiled once here so
    // that a parse error is one diagnostic, not one per row.
    let mut options = Vec::new();
    for c in &rows {
        let texts: Vec<String> = c.args.iter().map(|(n, v)| format!("{n}={v}")).collect();
        options.push(RunOptions {
            kernel: a.kernel.clone(),
            gpu: gpus[c.gpu].clone(),
            // Rows already run in parallel (--jobs): each launch stays on one thread.
            threads: 1,
            ..a.model.options(a.grid, c.block, &texts)?
        });
    }
    let src = pipeline::read(&a.file)?;
    pipeline::compile_with(&src, &a.model.defines)?;
    // Every row names the same arguments: one that matches nothing stops the sweep here.
    if let Some(first) = options.first() {
        pipeline::check_args(&src, first)?;
    }
    let results = run_all(&src, &options, a.jobs);
    let best = best_row(&results);
    if a.json {
        // A failed row names the kernel the others ran (or `--kernel`), so that every row says
        // what it was.
        let kernel = a.kernel.clone().or_else(|| {
            results
                .iter()
                .find_map(|r| r.as_ref().ok().map(|rep| rep.kernel.clone()))
        });
        let mut s = String::new();
        for (k, (c, r)) in rows.iter().zip(&results).enumerate() {
            let row = SweepRowOf {
                k,
                combo: c,
                file: src.name(),
                kernel: kernel.as_deref(),
                gpu: &gpus[c.gpu].name,
                grid: a.grid,
                best: best == Some(k),
            };
            s.push_str(&report_json::to_value(&row.model(r)).to_string());
            s.push('\n');
        }
        emit(&s);
    } else {
        emit(&table(&a, (&rows, &gpus), &results, best, paint));
    }
    let worst = results
        .iter()
        .map(|r| match r {
            Ok(rep) if rep.expects_passed() => 0,
            Ok(_) => EXIT_RUN,
            Err(f) => f.exit,
        })
        .max()
        .unwrap_or(0);
    Ok(worst)
}

/// Runs every row, `jobs` at a time; results in row order.
fn run_all(
    src: &crate::source::SourceFile,
    options: &[RunOptions],
    jobs: Option<usize>,
) -> Vec<RowResult> {
    let workers = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, options.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<RowResult>>> =
        Mutex::new((0..options.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(opts) = options.get(k) else { break };
                let r = pipeline::run(src, opts);
                results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("sweep: every row ran"))
        .collect()
}

/// The time a row is ranked by: the refined estimate, or the reference's when there is none.
fn rank_time(r: &Report) -> f64 {
    r.refined.as_ref().map_or(r.time.t, |t| t.t)
}

/// The row with the lowest estimated time among those that ran and passed their expects (first on a tie).
fn best_row(results: &[RowResult]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (k, r) in results.iter().enumerate() {
        if let Ok(rep) = r {
            let t = rank_time(rep);
            if rep.expects_passed() && best.is_none_or(|(_, b)| t < b) {
                best = Some((k, t));
            }
        }
    }
    best.map(|(k, _)| k)
}

fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x}x{y}"),
        [x, y, z] => format!("{x}x{y}x{z}"),
    }
}

/// What a row is, besides its result.
struct SweepRowOf<'a> {
    /// The row, counted from 0.
    k: usize,
    combo: &'a Combo,
    file: &'a str,
    kernel: Option<&'a str>,
    gpu: &'a str,
    grid: Option<[u32; 3]>,
    best: bool,
}

impl SweepRowOf<'_> {
    /// Row `k` in the output model (counted from 1, as the table's "best: row N" counts); a row
    /// that failed still says which GPU, block and grid it was.
    fn model(&self, r: &RowResult) -> SweepRow {
        let args = self.combo.args.iter().cloned().collect();
        let (kernel, gpu, block, grid, ok, result) = match r {
            Ok(rep) => (
                Some(rep.kernel.clone()),
                rep.gpu.name.clone(),
                Some(rep.launch.block),
                Some(rep.launch.grid),
                rep.expects_passed(),
                SweepResult::Ran(Box::new(Measures::new(rep))),
            ),
            Err(f) => (
                self.kernel.map(str::to_string),
                self.gpu.to_string(),
                self.combo.block,
                self.grid,
                false,
                SweepResult::Failed {
                    error: render::failure_output(f).error,
                },
            ),
        };
        SweepRow {
            schema: Version,
            row: self.k + 1,
            file: self.file.to_string(),
            kernel,
            gpu,
            block,
            grid,
            args,
            best: self.best,
            ok,
            result,
        }
    }
}

fn table(
    a: &SweepArgs,
    (rows, gpus): (&[Combo], &[GpuConfig]),
    results: &[RowResult],
    best: Option<usize>,
    paint: Paint,
) -> String {
    let mut head: Vec<String> = vec!["block".into(), "grid".into()];
    if let Some(c) = rows.first() {
        head.extend(c.args.iter().map(|(n, _)| n.clone()));
    }
    head.extend(
        [
            "gpu",
            "occupancy",
            "sect/req",
            "wavefronts",
            "SIMT eff",
            "time",
            "refined",
        ]
        .map(String::from),
    );
    let mut body: Vec<(Vec<String>, Tone)> = Vec::new();
    for (k, (c, r)) in rows.iter().zip(results).enumerate() {
        let mut cells: Vec<String> = Vec::new();
        match r {
            Ok(rep) => {
                // The columns are fields of the row's JSON (`Measures`), as text.
                let m = Measures::new(rep);
                cells.push(dims(m.launch.block));
                cells.push(dims(m.launch.grid));
                cells.extend(c.args.iter().map(|(_, v)| v.clone()));
                cells.push(rep.gpu.name.clone());
                cells.push(format!("{:.0}%", m.occupancy.occupancy * 100.0));
                cells.push(format!("{:.2}", m.derived.sectors_per_request));
                cells.push(m.counters.smem_wavefronts.to_string());
                cells.push(format!("{:.3}", m.derived.simt_efficiency));
                cells.push(seconds(m.time.t));
                cells.push(m.time_refined.t().map_or("-".into(), seconds));
                if !rep.expects_passed() {
                    cells.push("expect FAILED".into());
                }
            }
            Err(f) => {
                cells.push(c.block.map_or("-".into(), dims));
                cells.push(a.grid.map_or("-".into(), dims));
                cells.extend(c.args.iter().map(|(_, v)| v.clone()));
                cells.push(gpus[c.gpu].name.clone());
                let msg = f.errors.first().map(|e| {
                    use miette::Diagnostic;
                    format!(
                        "error {}: {e}",
                        e.code().map(|c| c.to_string()).unwrap_or_default()
                    )
                });
                cells.push(msg.unwrap_or_default());
            }
        }
        let tone = match (best == Some(k), r.is_err()) {
            (true, _) => Tone::Green,
            (_, true) => Tone::Red,
            _ => Tone::Plain,
        };
        body.push((cells, tone));
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            body.iter()
                .filter(|(c, _)| c.len() >= head.len())
                .filter_map(|(c, _)| c.get(i).map(|x| x.chars().count()))
                .chain([head[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let w = if i + 1 < cells.len() {
                widths.get(i).copied().unwrap_or(0)
            } else {
                0
            };
            s.push_str(&format!("{c:<w$}  "));
        }
        s.trim_end().to_string()
    };
    let file = a.file.display();
    let kernel = results
        .iter()
        .find_map(|r| r.as_ref().ok().map(|rep| rep.kernel.clone()))
        .unwrap_or_default();
    let mut s = format!("simt sweep · {kernel} ({file}) · {} rows\n", rows.len());
    s.push_str(&format!("  {}\n", line(&head)));
    for (k, (cells, tone)) in body.iter().enumerate() {
        let mark = if best == Some(k) { "*" } else { " " };
        s.push_str(&format!("{mark} {}\n", paint.tone(&line(cells), *tone)));
    }
    if let Some(k) = best {
        s.push_str(&format!(
            "* best: row {} (lowest refined time estimate)\n",
            k + 1
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_at_top_level_commas_and_combine_in_order() {
        assert_eq!(split_top("64,128, 256"), ["64", "128", "256"]);
        assert_eq!(split_top("[1,2],rand(4)"), ["[1,2]", "rand(4)"]);
        let args = vec![
            ("n".to_string(), vec!["1".to_string(), "2".to_string()]),
            ("s".to_string(), vec!["a".to_string(), "b".to_string()]),
        ];
        let c = combos(&[Some([64, 1, 1]), Some([128, 1, 1])], &args, 2);
        // 2 GPUs × 2 blocks × 2 × 2 values = 16 rows; the last argument varies fastest.
        assert_eq!(c.len(), 16);
        assert_eq!(
            c[1].args,
            [("n".into(), "1".into()), ("s".into(), "b".into())]
        );
        assert_eq!(c[4].block, Some([128, 1, 1]));
        assert_eq!(c[8].gpu, 1);
    }
}
