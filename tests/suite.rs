//! `simt test`: every shipped kernel passes; failures, expected errors and bad paths are reported.

use crate::common;

use std::path::PathBuf;

/// Exit code and stdout of `simt ARGS`.
fn simt(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::simt(args);
    (code, out)
}

/// A fresh folder of `.sk` files for one test.
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("simt-suite-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (f, text) in files {
        std::fs::write(dir.join(f), text).expect("write a kernel");
    }
    dir
}

#[test]
fn every_shipped_kernel_passes() {
    let (code, out) = simt(&["test"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let (summary, cases) = lines.split_last().expect("output");
    // One line per launch section, every one `ok`; the expected failure says what it stopped with.
    assert!(cases.len() >= 36, "{out}");
    assert!(cases.iter().all(|l| l.starts_with("ok      ")), "{out}");
    assert_eq!(*summary, format!("{} passed, 0 failed", cases.len()));
    assert!(out.contains(
        "ok      vecadd_no_guard (kernels/out_of_bounds.sk)  (stopped with simt::run::out_of_bounds, as expected)"
    ));
    // Files of several kernels run each launch section.
    assert!(out.contains("ok      branch_odd_even (kernels/divergence.sk)\n"));
    assert!(out.contains("ok      branch_by_warp (kernels/divergence.sk)\n"));
}

#[test]
fn single_files_can_be_named() {
    let (code, out) = simt(&["test", "kernels/vecadd.sk", "kernels/divergence.sk"]);
    assert_eq!(code, 0);
    assert!(out.ends_with("\n3 passed, 0 failed\n"), "{out}");
}

#[test]
fn failures_are_listed_with_their_reasons_and_exit_1() {
    const KERNEL: &str = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n";
    let dir = folder(
        "fail",
        &[
            (
                "a_expect.sk",
                &format!("{KERNEL}launch k {{ a = zeros(32); block = 32; grid = 1; expect a == 2; }}\n"),
            ),
            ("b_no_launch.sk", KERNEL),
            (
                "c_no_error.sk",
                &format!(
                    "// simt-test: expect-error simt::run::out_of_bounds\n{KERNEL}\
launch k {{ a = zeros(32); block = 32; grid = 1; }}\n"
                ),
            ),
            (
                "d_oob.sk",
                &format!(
                    "// simt-test: expect-error simt::run::out_of_bounds\n{KERNEL}\
launch k {{ a = zeros(16); block = 32; grid = 1; }}\n"
                ),
            ),
            (
                "e_unexpected.sk",
                &format!("{KERNEL}launch k {{ a = zeros(16); block = 32; grid = 1; }}\n"),
            ),
            (
                "f_directive.sk",
                &format!(
                    "// simt-test: expect-failure\n{KERNEL}launch k {{ a = zeros(32); block = 32; grid = 1; }}\n"
                ),
            ),
        ],
    );
    let d = dir.display();
    let (code, out) = simt(&["test", dir.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}");
    let want = format!(
        "FAILED  k ({d}/a_expect.sk)
        expect a == 2: 32 of 32 elements differ; first at index 0: 1 == 2 is false
FAILED  {d}/b_no_launch.sk
        no `launch` or `sequence` section: nothing to run
FAILED  k ({d}/c_no_error.sk)
        ran to completion, but the file expects the error simt::run::out_of_bounds
ok      k ({d}/d_oob.sk)  (stopped with simt::run::out_of_bounds, as expected)
FAILED  k ({d}/e_unexpected.sk)
        simt::run::out_of_bounds: out-of-bounds global access: `a[16]` but `a` has 16 elements
FAILED  {d}/f_directive.sk
        line 1: unknown directive `expect-failure` (the directives are `// simt-test: expect-error CODE`, `expect-race` and `expect-uninit`)
1 passed, 5 failed
"
    );
    assert_eq!(out, want);
}

#[test]
fn a_path_that_does_not_exist_is_a_usage_error() {
    let (code, out) = simt(&["test", "kernels/no_such_kernel.sk"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    let empty = folder("empty", &[]);
    let (code, _) = simt(&["test", empty.to_str().expect("utf-8 path")]);
    assert_eq!(code, 2);
}

/// A kernel whose loop never ends for warp 0 of a block of 256 (`k` wraps before it can go
/// negative), and one that finishes.
const SPIN: &str = "__global__ void spin(int* out) {\n    int k = 0;\n    if (threadIdx.x < 32) {\n        while (k >= 0) { k = (k + 1) & 0xffff; }\n    }\n    out[threadIdx.x] = k;\n}\nlaunch spin { out = zeros(256); block = 256; grid = 1; }\n";
const FINE: &str = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\nlaunch k { a = zeros(32); block = 32; grid = 1; expect a == 1; }\n";

#[test]
fn an_endless_loop_stops_at_the_block_step_limit_or_the_timeout() {
    let dir = folder("spin", &[("spin.sk", SPIN)]);
    let path = dir.join("spin.sk");
    let path = path.to_str().expect("utf-8 path");
    // 2^20 warp-instruction slots: 8 warps × (under 2^17 instructions), far less than the
    // endless loop needs; the error points at the loop (line 4).
    let (code, out, err) = common::simt(&["run", path, "--max-block-steps", "1048576"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("simt::run::block_step_limit"), "{err}");
    assert!(
        err.contains("more than 1048576 warp-instruction slots"),
        "{err}"
    );
    assert!(err.contains("spin.sk:4:"), "{err}");
    // `simt test --timeout`: the loop is stopped by the clock (the block limit set out of reach).
    let (code, out) = simt(&[
        "test",
        path,
        "--timeout",
        "0.2",
        "--max-block-steps",
        "1000000000000",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("simt::run::timeout: time limit: the launch ran for more than 0.2 s"),
        "{out}"
    );
}

#[test]
fn an_endless_loop_reading_global_memory_may_wait_for_another_block() {
    // parallel-binomial-option-pricing's hand-rolled grid barrier: block 0 spins on `*flag`,
    // which only block 1 would set, and simt runs block 1 after block 0. The plain spin above
    // reads no global memory: its help says nothing of blocks.
    let wait = "__global__ void w(volatile int* flag, int* out) {\n    if (blockIdx.x == 1) { *flag = 1; }\n    while (*flag == 0) { }\n    out[blockIdx.x] = 1;\n}\nlaunch w { flag = zeros(1); out = zeros(2); block = 32; grid = 2; }\n";
    let dir = folder("wait", &[("wait.sk", wait), ("spin.sk", SPIN)]);
    let run = |name: &str| {
        let path = dir.join(name);
        let (code, _, err) = common::simt(&[
            "run",
            path.to_str().expect("utf-8 path"),
            "--max-block-steps",
            "1048576",
        ]);
        assert_eq!(code, 1, "{err}");
        err.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let err = run("wait.sk");
    assert!(err.contains("simt::run::block_step_limit"), "{err}");
    assert!(
        err.contains("it reads global memory: if it waits for another block to write there"),
        "{err}"
    );
    assert!(!run("spin.sk").contains("another block"));
}

#[test]
fn jobs_keep_file_order_and_json_gives_one_record_per_kernel() {
    let files: Vec<(String, &str)> = (0..12)
        .map(|i| (format!("f{i:02}.sk"), if i % 5 == 3 { SPIN } else { FINE }))
        .collect();
    let named: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let dir = folder("jobs", &named);
    let d = dir.to_str().expect("utf-8 path");
    let (code, out) = simt(&["test", d, "--jobs", "4", "--max-block-steps", "1048576"]);
    assert_eq!(code, 1, "{out}");
    let names: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("ok") || l.starts_with("FAILED"))
        .map(|l| l.rsplit('/').next().unwrap_or(""))
        .collect();
    let want: Vec<String> = (0..12).map(|i| format!("f{i:02}.sk)")).collect();
    assert_eq!(names, want, "{out}");
    assert!(out.ends_with("\n10 passed, 2 failed\n"), "{out}");
    let (code, out) = simt(&[
        "test",
        d,
        "--jobs",
        "3",
        "--json",
        "--max-block-steps",
        "1048576",
    ]);
    assert_eq!(code, 1);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON record per line"))
        .collect();
    assert_eq!(records.len(), 12);
    assert_eq!(records[3]["verdict"], "error");
    assert_eq!(records[3]["passed"], false);
    assert!(records[3]["details"][0]
        .as_str()
        .is_some_and(|d| d.starts_with("simt::run::block_step_limit")));
    assert_eq!(records[0]["verdict"], "passed");
    assert_eq!(records[0]["kernel"], "k");
    assert_eq!(simt(&["test", d, "--jobs", "0"]).0, 2);
}

#[test]
fn races_and_uninitialised_reads_fail_unless_the_file_expects_them() {
    // `s[t]` is read by the next thread's warp at line 4 without a barrier (lane 31 of warp 0
    // reads s[32], written by warp 1), and `u[t]` is never written.
    let racing = "__global__ void r(float* o) {\n    __shared__ float s[64]; __shared__ float u[64];\n    int t = threadIdx.x; s[t] = t;\n    o[t] = s[(t + 1) % 64] * 0 + u[t] * 0 + 1;\n}\nlaunch r { o = zeros(64); block = 64; grid = 1; expect o == 1; }\n";
    let dir = folder(
        "findings",
        &[
            ("a.sk", racing),
            (
                "b.sk",
                &format!("{racing}// simt-test: expect-race\n// simt-test: expect-uninit\n"),
            ),
            ("c.sk", &format!("{FINE}// simt-test: expect-race\n")),
        ],
    );
    let (code, out) = simt(&["test", dir.to_str().expect("utf-8 path"), "--jobs", "1"]);
    assert_eq!(code, 1, "{out}");
    let a = out.split("FAILED  r (").nth(1).expect("a.sk fails");
    assert!(a.contains("race: RAW in block (0,0,0) epoch 0: warp 0 reads s[32] (line 4) written by warp 1 (line 3)"), "{out}");
    assert!(
        a.contains(
            "uninitialised read: thread (0,0,0) of block (0,0,0) reads shared u[0] (line 4)"
        ),
        "{out}"
    );
    assert!(out.contains("ok      r ("), "{out}");
    assert!(
        out.contains("the file expects a race (`expect-race`), but the run found none"),
        "{out}"
    );
    assert!(out.ends_with("\n1 passed, 2 failed\n"), "{out}");
}

#[test]
fn a_timeout_that_is_not_a_positive_number_is_a_usage_error() {
    // `--timeout=-1`: with a space, clap would take `-1` for a flag.
    for bad in ["0", "soon", "inf", "-1"] {
        let arg = format!("--timeout={bad}");
        let (code, out, err) = common::simt(&["test", "kernels/vecadd.sk", &arg]);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(
            err.contains("is not a positive number of seconds"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn an_infinity_never_passes_for_a_finite_value() {
    // `|a - b| <= atol + rtol · max(|a|, |b|)` is `inf <= inf` when either side is infinite; an
    // infinity must equal only itself, or a kernel that overflows (or masks with -inf where it
    // should not) passes `simt test`.
    const KERNEL: &str = "__global__ void k(float* d) { d[0] = -INFINITY; d[1] = 5.0f; }\n";
    let dir = folder(
        "inf",
        &[
            (
                "a_inf_for_finite.sk",
                &format!("{KERNEL}launch k {{ d = zeros(2); grid = 1; block = 1; expect d == [1.0, 5.0]; }}\n"),
            ),
            (
                "b_finite_only.sk",
                &format!("{KERNEL}launch k {{ d = zeros(2); grid = 1; block = 1; expect d[1] == 5.0; }}\n"),
            ),
        ],
    );
    let (code, out) = simt(&["test", dir.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "expect d == [1.0, 5.0]: 1 of 2 elements differ; first at index 0: -inf == 1 is false"
        ),
        "{out}"
    );
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
}

#[test]
fn each_launch_section_of_one_kernel_runs_with_its_own_values() {
    // Two sections launch `k`; the second expects 2 where the kernel writes 1. Each section is
    // its own case, so the second fails (it was once run with the first section's values and
    // reported `ok`).
    const KERNEL: &str = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n";
    let dir = folder(
        "sections",
        &[(
            "two.sk",
            &format!(
                "{KERNEL}launch k {{ a = zeros(32); block = 32; grid = 1; expect a == 1; }}\n\
                 launch k {{ a = zeros(64); block = 64; grid = 1; expect a == 2; }}\n"
            ),
        )],
    );
    let file = dir.join("two.sk");
    let (code, out) = simt(&["test", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ok      k ("), "{out}");
    assert!(out.contains("FAILED  k ("), "{out}");
    assert!(out.contains("1 == 2 is false"), "{out}");
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
    // `simt run` runs one of them, and says which.
    let (code, out) = simt(&["run", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 launch sections name `k` (lines 2, 3): this run used the first, at line 2"),
        "{out}"
    );
}

#[test]
fn a_failed_expect_lists_the_findings_and_the_hint_names_only_missing_directives() {
    // The racing reversal gives wrong values: the failed expect comes first, then the race
    // that explains it. With `expect-race`, the never-written `u` is the one finding, and the
    // hint names only `expect-uninit`.
    let racing = "__global__ void r(float* o) {\n    __shared__ float s[64]; __shared__ float u[64];\n    int t = threadIdx.x; s[t] = t;\n    o[t] = s[63 - t] + u[t] * 0;\n}\n";
    let dir = folder(
        "expect_findings",
        &[
            (
                "a.sk",
                &format!("{racing}launch r {{ o = zeros(64); block = 64; grid = 1; expect o == 0; }}\n// simt-test: expect-uninit\n"),
            ),
            (
                "b.sk",
                &format!("{racing}launch r {{ o = zeros(64); block = 64; grid = 1; }}\n// simt-test: expect-race\n"),
            ),
        ],
    );
    let (code, out) = simt(&["test", dir.to_str().expect("utf-8 path"), "--jobs", "1"]);
    assert_eq!(code, 1, "{out}");
    let a = out.split("FAILED  r (").nth(1).expect("a.sk fails");
    let expect = a.find("expect o == 0: ").expect("the failed expect");
    let race = a.find("race: RAW in block (0,0,0)").expect("the race");
    assert!(expect < race, "{out}");
    let b = out.split("FAILED  r (").nth(2).expect("b.sk fails");
    assert!(b.contains("uninitialised read:"), "{out}");
    assert!(
        b.contains("(a demonstration of this bug says so with `// simt-test: expect-uninit`)"),
        "{out}"
    );
}
