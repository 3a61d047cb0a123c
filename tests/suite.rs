//! `simt test`: every shipped kernel passes; failures, expected errors and bad paths are reported.

mod common;

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
        no `launch` section: nothing to run
FAILED  k ({d}/c_no_error.sk)
        ran to completion, but the file expects the error simt::run::out_of_bounds
ok      k ({d}/d_oob.sk)  (stopped with simt::run::out_of_bounds, as expected)
FAILED  k ({d}/e_unexpected.sk)
        simt::run::out_of_bounds: out-of-bounds global access: `a[16]` but `a` has 16 elements
FAILED  {d}/f_directive.sk
        line 1: unknown directive `expect-failure` (the one directive is `// simt-test: expect-error CODE`)
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
