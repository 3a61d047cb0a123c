//! Performance gates (`--max NAME=V`, `--min NAME=V`, `--deny races`): a budget checked without a GPU.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use super::json;
use super::model::{Derived, Ncu};
use super::style::{Paint, Tone};
use crate::exec::Counters;

/// Names that are not a key of `counters`, `derived` or `ncu`, and where they live in the JSON.
const EXTRA: [(&str, &str, &str); 6] = [
    ("occupancy", "occupancy", "occupancy"),
    ("time", "time", "t"),
    ("time_refined", "time_refined", "t"),
    ("bank_conflicts", "counters", "smem_bank_conflicts"),
    ("races", "counters", "race_count"),
    ("uninit", "counters", "uninit_count"),
];

/// One gate.
#[derive(Clone, Debug, PartialEq)]
pub enum Gate {
    /// `--max NAME=V`: fails when the value is above `V`.
    Max {
        /// The metric.
        name: String,
        /// The limit.
        limit: f64,
    },
    /// `--min NAME=V`: fails when the value is below `V`.
    Min {
        /// The metric.
        name: String,
        /// The limit.
        limit: f64,
    },
    /// `--deny races`: fails when any race was found.
    DenyRaces,
    /// `--deny uninit`: fails when any uninitialised read was found.
    DenyUninit,
}

/// A gate and how it went.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GateResult {
    /// The gate as written: `max sectors_per_request=4`, `deny races`.
    pub gate: String,
    /// The metric.
    pub name: String,
    /// Its value in this run (`null` when the run has none: a refined time that could not be
    /// estimated, which fails the gate).
    pub value: Option<f64>,
    /// Whether it held.
    pub passed: bool,
}

/// Every name a gate accepts: the keys of `counters`, `derived` and `ncu`, and the extras.
pub fn names() -> Vec<String> {
    let c = Counters::default();
    let mut out: Vec<String> = EXTRA.iter().map(|(n, _, _)| n.to_string()).collect();
    for v in [
        json::to_value(&c),
        json::to_value(&Derived::new(&c)),
        json::to_value(&Ncu::new(&c, Some(&crate::exec::CacheStats::default()))),
    ] {
        if let Value::Object(m) = v {
            out.extend(m.keys().cloned());
        }
    }
    out
}

/// Names of schema 1 that a gate no longer takes, and what to write instead.
const RENAMED: [(&str, &str); 3] = [
    (
        "coalescing_efficiency",
        "schema 2 calls it bytes_requested_per_byte_moved",
    ),
    (
        "smsp__inst_executed.sum",
        "simt counts source-level operations, not SASS instructions: use warp_instr",
    ),
    (
        "smsp__thread_inst_executed.sum",
        "simt counts source-level operations, not SASS instructions: use active_lane_slots",
    ),
];

/// Parses `NAME=V` of `--max` (`is_max`) or `--min`.
pub fn parse(text: &str, is_max: bool) -> Result<Gate, (String, Option<String>)> {
    let flag = if is_max { "--max" } else { "--min" };
    let Some((name, value)) = text.split_once('=') else {
        return Err((
            format!("{flag} `{text}` is not NAME=VALUE"),
            Some(format!("e.g. {flag} sectors_per_request=4")),
        ));
    };
    let name = name.trim().to_string();
    let known = names();
    if !known.contains(&name) {
        return Err((
            format!("{flag} `{text}`: no metric named `{name}`"),
            Some(
                RENAMED.iter().find(|(old, _)| *old == name).map(|(_, new)| new.to_string()).or_else(|| crate::diag::did_you_mean(&name, known.iter().map(String::as_str))).unwrap_or_else(
                    || "a gate takes any key of `counters`, `derived` or `ncu` in --json, or occupancy, time, time_refined, bank_conflicts, races, uninit".to_string(),
                ),
            ),
        ));
    }
    let limit: f64 = match value.trim().parse() {
        Ok(v) if f64::is_finite(v) => v,
        _ => {
            return Err((
                format!("{flag} `{text}`: `{}` is not a number", value.trim()),
                None,
            ))
        }
    };
    Ok(if is_max {
        Gate::Max { name, limit }
    } else {
        Gate::Min { name, limit }
    })
}

/// The value of a metric in a report's JSON.
pub fn metric(report: &Value, name: &str) -> Option<f64> {
    if let Some((_, obj, key)) = EXTRA.iter().find(|(n, _, _)| *n == name) {
        return report[*obj][*key].as_f64();
    }
    ["counters", "derived", "ncu"]
        .iter()
        .find_map(|obj| report[*obj][name].as_f64())
}

/// Checks every gate against a report's JSON. A metric without a value (a refined time that could
/// not be estimated) fails its gate.
pub fn check(report: &Value, gates: &[Gate]) -> Vec<GateResult> {
    gates
        .iter()
        .map(|g| {
            let (gate, name, limit, is_max) = match g {
                Gate::Max { name, limit } => {
                    (format!("max {name}={limit}"), name.as_str(), *limit, true)
                }
                Gate::Min { name, limit } => {
                    (format!("min {name}={limit}"), name.as_str(), *limit, false)
                }
                Gate::DenyRaces => ("deny races".to_string(), "race_count", 0.0, true),
                Gate::DenyUninit => ("deny uninit".to_string(), "uninit_count", 0.0, true),
            };
            let value = metric(report, name);
            let passed = match value {
                Some(v) if is_max => v <= limit,
                Some(v) => v >= limit,
                None => false,
            };
            GateResult {
                gate,
                name: name.to_string(),
                value,
                passed,
            }
        })
        .collect()
}

/// The `gates` section of the human report.
pub fn render(results: &[GateResult], paint: Paint) -> String {
    let mut s = String::from("gates\n");
    for r in results {
        let (mark, tone) = if r.passed {
            ("ok    ", Tone::Green)
        } else {
            ("FAILED", Tone::Red)
        };
        let _ = writeln!(
            s,
            "  {}  {:<36} value {}",
            paint.tone(mark, tone),
            r.gate,
            value(r.value)
        );
    }
    s
}

/// A gate's value, or `unavailable`.
pub fn value(v: Option<f64>) -> String {
    v.map_or_else(|| "unavailable".to_string(), number)
}

/// A value without a trailing `.0` for whole numbers.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_checks_and_rejects() {
        let g = parse("sectors_per_request=4", true).expect("valid");
        assert_eq!(
            g,
            Gate::Max {
                name: "sectors_per_request".into(),
                limit: 4.0
            }
        );
        assert!(parse("sectors_per_reqest=4", true)
            .unwrap_err()
            .1
            .unwrap_or_default()
            .contains("did you mean `sectors_per_request`"));
        // Schema 1's names that meant something else say what to write now.
        let help = |text| parse(text, true).unwrap_err().1.unwrap_or_default();
        assert!(help("coalescing_efficiency=1").contains("bytes_requested_per_byte_moved"));
        assert!(help("smsp__inst_executed.sum=1").contains("warp_instr"));
        assert!(names().contains(&"bytes_requested_per_byte_moved".to_string()));
        assert!(names().contains(&"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum".to_string()));
        assert!(parse("occupancy", false).is_err());
        assert!(parse("occupancy=high", false).is_err());
        assert!(parse("occupancy=NaN", false).is_err());
        let report = json!({
            "counters": {"race_count": 4, "smem_bank_conflicts": 0, "uninit_count": 0},
            "derived": {"simt_efficiency": 0.5, "sectors_per_request": 8.0},
            "occupancy": {"occupancy": 1.0},
        });
        let gates = [
            Gate::Max {
                name: "sectors_per_request".into(),
                limit: 4.0,
            },
            Gate::Min {
                name: "simt_efficiency".into(),
                limit: 0.5,
            },
            Gate::Max {
                name: "bank_conflicts".into(),
                limit: 0.0,
            },
            Gate::Min {
                name: "occupancy".into(),
                limit: 0.9,
            },
            Gate::DenyRaces,
            Gate::DenyUninit,
        ];
        let passed: Vec<bool> = check(&report, &gates).iter().map(|r| r.passed).collect();
        // 8 > 4 fails; 0.5 >= 0.5 holds; 0 conflicts hold; 1.0 >= 0.9 holds; 4 races fail; no
        // uninitialised read holds.
        assert_eq!(passed, [false, true, true, true, false, true]);
        assert_eq!(number(4.0), "4");
        assert_eq!(number(0.125), "0.1250");
    }
}
