//! The benchmark launches of `bench/run.sh`, small: they run, pass their `expect`s, report the
//! timing phases, and count the same on one worker and on two. Speed itself is measured by the
//! bench, never asserted in a test.

use crate::common;

use common::simt;

/// `bench/run.sh --smoke`'s cases.
const CASES: &[&[&str]] = &[
    &["kernels/vecadd.sk", "--arg", "n=65536"],
    &["kernels/saxpy.sk", "--arg", "n=65536"],
    &["kernels/reduce_sequential.sk", "--arg", "n=65536"],
    &[
        "kernels/transpose_tiled.sk",
        "--arg",
        "width=256",
        "--arg",
        "height=256",
    ],
    &[
        "kernels/matmul_tiled16.sk",
        "--arg",
        "M=64",
        "--arg",
        "N=64",
        "--arg",
        "K=64",
    ],
];

fn report(case: &[&str], threads: &str) -> serde_json::Value {
    let mut args = vec!["run"];
    args.extend_from_slice(case);
    args.extend_from_slice(&["--threads", threads, "--json"]);
    let (code, out, err) = simt(&args);
    assert_eq!(code, 0, "{case:?}: {err}");
    serde_json::from_str(out.lines().next().expect("one JSON line")).expect("JSON")
}

#[test]
fn bench_launches_run_and_count_alike_on_any_worker_count() {
    for case in CASES {
        let one = report(case, "1");
        let two = report(case, "2");
        assert_eq!(one["ok"], true, "{case:?}: an expect failed");
        for phase in ["parse", "setup", "simulate", "report"] {
            let t = one["timing"][phase].as_f64().expect("a timing phase");
            assert!(t >= 0.0, "{case:?}: {phase} = {t}");
        }
        assert_eq!(one["counters"], two["counters"], "{case:?}");
        assert!(one["counters"]["active_lane_slots"].as_u64() > Some(0));
    }
}
