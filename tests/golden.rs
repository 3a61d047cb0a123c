//! Golden reports: the human report and the JSON of every launch section in `kernels/`
//! (or, for a kernel that must fail, its rendered diagnostic and JSON error object) are
//! compared with `tests/golden/<file>[.<kernel>].{txt,json}`, so any change in a counter,
//! a derived number or the report layout shows up in review.
//!
//! After an intended change, regenerate and review the diff:
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --test all golden::
//! git diff tests/golden
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use miette::{GraphicalReportHandler, GraphicalTheme};
use simt::pipeline::{self, Failure};
use simt::report::model::RunOutput;
use simt::report::{json as report_json, table};
use simt::source::SourceFile;
use simt::suite;

/// The text and JSON snapshots of one launch section.
fn snapshots(src: &SourceFile, kernel: &str) -> (String, String) {
    match pipeline::run(src, &suite::defaults(Some(kernel.to_string()))) {
        Ok(mut report) => {
            // Wall-clock times are the one part of a report that changes from run to run.
            report.timing = Default::default();
            (
                table::render(&RunOutput::new(&report)),
                pretty(&report_json::to_json(&report)),
            )
        }
        Err(f) => (render_failure(&f), pretty(&failure_json(&f))),
    }
}

fn pretty(v: &serde_json::Value) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(v).expect("JSON serialises")
    )
}

/// The diagnostics as `simt run` prints them on stderr, without colour, 100 columns wide.
fn render_failure(f: &Failure) -> String {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut s = String::new();
    for e in &f.errors {
        handler.render_report(&mut s, e).expect("renders");
    }
    s
}

/// The error object `simt run --json` prints.
fn failure_json(f: &Failure) -> serde_json::Value {
    simt::render::failure_json(f)
}

/// Every snapshot, by golden file name.
fn current() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    for path in suite::files(&[root.join("kernels")]).expect("kernels/") {
        let file = path.file_name().and_then(|f| f.to_str()).expect("name");
        let text = std::fs::read_to_string(&path).expect("readable");
        // The name the reports show: relative, so that the snapshots do not depend on the checkout.
        let src = SourceFile::new(format!("kernels/{file}"), text);
        let (module, _) = pipeline::compile(&src).expect("shipped kernels compile");
        let stem = file.trim_end_matches(".sk");
        for l in &module.launches {
            let kernel = &l.kernel.name;
            let name = if module.launches.len() == 1 {
                stem.to_string()
            } else {
                format!("{stem}.{kernel}")
            };
            let (txt, json) = snapshots(&src, kernel);
            out.insert(format!("{name}.txt"), txt);
            out.insert(format!("{name}.json"), json);
        }
    }
    out
}

#[test]
fn reports_match_the_golden_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let snaps = current();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let on_disk: Vec<String> = std::fs::read_dir(&dir)
        .map(|r| {
            r.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    if update {
        std::fs::create_dir_all(&dir).expect("tests/golden");
        for stale in on_disk.iter().filter(|n| !snaps.contains_key(*n)) {
            std::fs::remove_file(dir.join(stale)).expect("remove a stale golden file");
        }
        for (name, text) in &snaps {
            std::fs::write(dir.join(name), text).expect("write a golden file");
        }
        return;
    }
    let mut problems = Vec::new();
    for stale in on_disk.iter().filter(|n| !snaps.contains_key(*n)) {
        problems.push(format!("{stale}: no kernel produces it any more"));
    }
    for (name, text) in &snaps {
        match std::fs::read_to_string(dir.join(name)) {
            Err(_) => problems.push(format!("{name}: missing")),
            Ok(want) if want != *text => {
                let (n, (w, g)) = want
                    .lines()
                    .chain(std::iter::repeat(""))
                    .zip(text.lines().chain(std::iter::repeat("")))
                    .enumerate()
                    .find(|(_, (w, g))| w != g)
                    .expect("the texts differ");
                problems.push(format!(
                    "{name}: line {}\n    golden: {w}\n    now:    {g}",
                    n + 1
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "golden reports differ (after an intended change: UPDATE_GOLDEN=1 cargo test --test all golden::, \
then review `git diff tests/golden`):\n{}",
        problems.join("\n")
    );
}
