//! `simt run`'s insight flags (`--lines`, `--map`, `--html`, `--max`, `--min`, `--deny`) and its output.

use clap::{Args as ClapArgs, ValueEnum};

use super::emit;
use crate::pipeline::{Failure, EXIT_RUN};
use crate::report::gates::{self, Gate};
use crate::report::model::RunOutput;
use crate::report::style::Paint;
use crate::report::{html, json as report_json, lanemap, table, Report};

/// What `--deny` can forbid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Any data race (`race_count > 0`).
    Races,
    /// Any read of uninitialised memory (`uninit_count > 0`).
    Uninit,
}

/// The insight flags of `simt run`.
#[derive(Debug, Default, ClapArgs)]
pub struct InsightArgs {
    /// Also print the kernel's source with each line's requests, sectors/request, wavefronts,
    /// branches, divergence and races.
    #[arg(long)]
    pub lines: bool,
    /// Draw lane → address → sector (global) or lane → word → bank (shared) for the first warp that
    /// executed each memory access of source line LINE (or the one --map-block, --map-warp and
    /// --map-iteration pick).
    #[arg(long, value_name = "LINE")]
    pub map: Option<usize>,
    /// With --map: draw this block's warp (X[,Y[,Z]], from 0) instead of the first block's.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = super::parse_index, requires = "map")]
    pub map_block: Option<[u32; 3]>,
    /// With --map: draw this warp of the block (from 0) instead of the first with an active lane.
    #[arg(long, value_name = "W", requires = "map")]
    pub map_warp: Option<u32>,
    /// With --map: draw the warp's Nth execution of the access (from 0; a loop's iterations)
    /// instead of its first.
    #[arg(long, value_name = "N", requires = "map")]
    pub map_iteration: Option<u32>,
    /// Gate: exit 1 if metric NAME is above V (any key of `counters`, `derived` or `ncu` in --json,
    /// or occupancy, time, time_refined, bank_conflicts, races, uninit). Repeatable.
    #[arg(long, value_name = "NAME=V")]
    pub max: Vec<String>,
    /// Gate: exit 1 if metric NAME is below V. Repeatable.
    #[arg(long, value_name = "NAME=V")]
    pub min: Vec<String>,
    /// Also write the report as one self-contained HTML page (summary, the source as a heat map,
    /// lane maps) to FILE, to open in a browser.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// Gate: exit 1 if the run has any of these (`races`, `uninit`).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,
}

impl InsightArgs {
    /// Which warp the lane maps draw.
    pub fn probe(&self) -> crate::exec::Probe {
        crate::exec::Probe {
            block: self.map_block,
            warp: self.map_warp,
            iteration: self.map_iteration.unwrap_or(0),
        }
    }

    /// The gates, checked before anything runs.
    pub fn gates(&self) -> Result<Vec<Gate>, Failure> {
        let mut out = Vec::new();
        for (list, is_max) in [(&self.max, true), (&self.min, false)] {
            for text in list {
                out.push(gates::parse(text, is_max).map_err(|(m, h)| Failure::usage(m, h))?);
            }
        }
        out.extend(self.deny.iter().map(|d| match d {
            Deny::Races => Gate::DenyRaces,
            Deny::Uninit => Gate::DenyUninit,
        }));
        Ok(out)
    }
}

/// Prints a finished run (report or JSON, plus the views asked for) and returns its exit status:
/// 1 when an `expect` or a gate failed.
pub fn output(
    report: &Report,
    args: &InsightArgs,
    gates: &[Gate],
    json: bool,
    paint: Paint,
) -> Result<u8, Failure> {
    let map_error = |why: String| {
        let line = args.map.unwrap_or_default();
        let p = args.probe();
        let mut picked = Vec::new();
        if let Some([x, y, z]) = p.block {
            picked.push(format!("block ({x},{y},{z})"));
        }
        if let Some(w) = p.warp {
            picked.push(format!("warp {w}"));
        }
        if p.iteration > 0 {
            picked.push(format!("at least {} times", p.iteration + 1));
        }
        let message = if picked.is_empty() {
            format!("--map {line}: line {line} has no memory access that ran")
        } else {
            format!(
                "--map {line}: no memory access of line {line} ran in {}",
                picked.join(", ")
            )
        };
        Failure::usage(message, Some(why))
    };
    // The output model, built once: the JSON, the text table and the HTML all render it.
    let mut doc = RunOutput::new(report);
    if let Some(path) = &args.html {
        std::fs::write(path, html::document(&doc, report))
            .map_err(|e| Failure::usage(format!("cannot write `{}`: {e}", path.display()), None))?;
    }
    let results = gates::check(&report_json::to_value(&doc), gates);
    let gates_ok = results.iter().all(|r| r.passed);
    if json {
        if let Some(line) = args.map {
            doc.lane_map = Some(lanemap::model(report, line).map_err(map_error)?);
        }
        if !gates.is_empty() {
            doc.gates = Some(results.clone());
            doc.gates_ok = Some(gates_ok);
        }
        emit(&format!("{}\n", report_json::to_value(&doc)));
    } else {
        let map = match args.map {
            Some(line) => Some(lanemap::render(report, line, paint).map_err(map_error)?),
            None => None,
        };
        let mut s = table::text(&doc, report.listing(), args.lines, paint);
        if let Some(map) = map {
            s.push('\n');
            s.push_str(&map);
        }
        if !results.is_empty() {
            s.push_str(&gates::render(&results, paint));
        }
        emit(&s);
    }
    if !gates_ok {
        let failed: Vec<String> = results
            .iter()
            .filter(|r| !r.passed)
            .map(|r| format!("{} (value {})", r.gate, gates::value(r.value)))
            .collect();
        eprintln!(
            "simt: {} of {} gate(s) failed: {}",
            failed.len(),
            results.len(),
            failed.join(", ")
        );
    }
    Ok(if report.expects_passed() && gates_ok {
        0
    } else {
        EXIT_RUN
    })
}

/// Prints a finished `sequence` (each launch's report under a heading, then the sequence's
/// `expect`s; or its JSON document) and returns its exit status: 1 when an `expect` failed.
/// The flags that pick one launch's lines, maps, page or gates are refused before it runs.
pub fn output_sequence(
    file: &str,
    run: &crate::pipeline::SequenceRun,
    args: &InsightArgs,
    json: bool,
    paint: Paint,
) -> Result<u8, Failure> {
    let doc = crate::report::model::SequenceOutput::new(file, run);
    if json {
        emit(&format!(
            "{}\n",
            serde_json::to_value(&doc).expect("the output model serialises")
        ));
    } else {
        let mut s = String::new();
        let count = run.launches.len();
        for (i, (r, d)) in run.launches.iter().zip(&doc.launches).enumerate() {
            s.push_str(&format!(
                "── launch {} of {count}: {} ──\n",
                i + 1,
                r.kernel
            ));
            s.push_str(&table::text(d, r.listing(), args.lines, paint));
            s.push('\n');
        }
        s.push_str("── sequence ──\n");
        if doc.expects.is_empty() {
            s.push_str("expect      none after the last launch\n");
        } else {
            s.push_str("expect\n");
            for e in &doc.expects {
                match &e.detail {
                    None => s.push_str(&format!("  ok      {}\n", e.text)),
                    Some(d) => s.push_str(&format!("  FAILED  {}: {d}\n", e.text)),
                }
            }
        }
        emit(&s);
    }
    Ok(if doc.ok { 0 } else { EXIT_RUN })
}

/// Refuses the flags `simt run` applies to one launch when the file runs a sequence.
pub fn check_sequence_flags(args: &InsightArgs) -> Result<(), Failure> {
    let used = [
        (args.map.is_some(), "--map"),
        (args.html.is_some(), "--html"),
        (!args.max.is_empty() || !args.min.is_empty(), "--max/--min"),
        (!args.deny.is_empty(), "--deny"),
    ];
    match used.iter().find(|(on, _)| *on) {
        Some((_, flag)) => Err(Failure::usage(
            format!("{flag} applies to one launch, and the file runs a `sequence` section"),
            Some("pick one launch section with --kernel NAME to use it".into()),
        )),
        None => Ok(()),
    }
}
