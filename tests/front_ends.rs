//! What front ends besides the CLI rely on (the Python module): a run's arrays by name, values a
//! caller made, stopping a launch from another thread, and `simt run --html`.

use crate::common;

use std::sync::Arc;

use simt::exec::{BufData, Interrupt};
use simt::host::{ArgOverride, ArgValue, HostValue};
use simt::pipeline::{self, Failure, Finished, RunOptions, SampleSize};
use simt::source::SourceFile;
use simt::value::Scalar;

/// Runs `src` with caller-made values on one block of `block` threads.
fn run_values(
    src: &str,
    args: Vec<(&str, HostValue)>,
    block: u32,
    interrupt: Option<&Interrupt>,
) -> Result<Finished, Failure> {
    let mut opts = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    opts.overrides.grid = Some([1, 1, 1]);
    opts.overrides.block = Some([block, 1, 1]);
    for (name, v) in args {
        opts.overrides.args.push(ArgOverride {
            name: name.to_string(),
            value: ArgValue::Value(v),
            text: format!("the value of {name}"),
            label: format!("args[{name:?}]"),
        });
    }
    pipeline::run_keeping(&SourceFile::new("t.sk", src), &opts, interrupt)
}

fn array(data: BufData, shape: Vec<usize>) -> HostValue {
    let elem = data.elem();
    HostValue::Array {
        data: Arc::new(data),
        shape,
        float: elem.is_float(),
        dtype: Some(elem),
    }
}

#[test]
fn a_run_keeps_every_named_array_after_it() {
    // `d` is 2 × 8 ones; `tail` points at element 8 and the kernel doubles what it sees there,
    // so the second row becomes twos. `w` is a parameter's array of its own.
    let src = "__global__ void k(int* tail, int* w) {
    int i = threadIdx.x;
    tail[i] = tail[i] * 2;
    w[i] = i;
}
launch k {
    d = ones(2, 8);
    tail = &d[8];
    w = zeros(8);
}
";
    let mut opts = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    opts.overrides.grid = Some([1, 1, 1]);
    opts.overrides.block = Some([8, 1, 1]);
    let f = pipeline::run_keeping(&SourceFile::new("t.sk", src), &opts, None)
        .unwrap_or_else(|f| panic!("{}", simt::render::render(&f)));
    let names: Vec<&str> = f.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["d", "tail", "w"]);
    let d = &f.arrays[0];
    assert_eq!(d.shape, [2, 8]);
    let doubled: Vec<i32> = [1; 8].into_iter().chain([2; 8]).collect();
    assert_eq!(*d.data, BufData::I32(doubled.clone()));
    // The pointer sees its array from element 8 on.
    assert_eq!(f.arrays[1].shape, [8]);
    assert_eq!(*f.arrays[1].data, BufData::I32(doubled[8..].to_vec()));
    assert_eq!(*f.arrays[2].data, BufData::I32((0..8).collect()));
    // A sampled run's arrays hold only the sampled blocks' writes: none are kept.
    opts.overrides.grid = Some([64, 1, 1]);
    opts.sample = Some(SampleSize::Fraction(0.1));
    let sampled = pipeline::run_keeping(&SourceFile::new("t.sk", src), &opts, None);
    let sampled = sampled.unwrap_or_else(|f| panic!("{}", simt::render::render(&f)));
    assert!(sampled.report.sample.is_some());
    assert!(sampled.arrays.is_empty());
}

const INC: &str = "__global__ void inc(const float* a, float* b) {
    b[threadIdx.x] = a[threadIdx.x] + 1.0f;
}
";

#[test]
fn caller_made_arrays_keep_their_type_and_must_match_the_parameter() {
    let f = run_values(
        INC,
        vec![
            ("a", array(BufData::F32(vec![1.0, 2.0]), vec![2])),
            ("b", array(BufData::F32(vec![0.0; 2]), vec![2])),
        ],
        2,
        None,
    )
    .unwrap_or_else(|f| panic!("{}", simt::render::render(&f)));
    let b = f.arrays.iter().find(|a| a.name == "b").expect("b is kept");
    assert_eq!(*b.data, BufData::F32(vec![2.0, 3.0]));
    // A float64 array for `float*` is refused, as a float64 .npy file is, and the diagnostic
    // names the argument as the caller does.
    let f = run_values(
        INC,
        vec![
            ("a", array(BufData::F64(vec![1.0, 2.0]), vec![2])),
            ("b", array(BufData::F32(vec![0.0; 2]), vec![2])),
        ],
        2,
        None,
    )
    .expect_err("a float64 array for float*");
    let e = &simt::render::failure_json(&f)["error"];
    assert_eq!(e["code"], "simt::host::dtype_mismatch");
    assert_eq!(e["file"], "args[\"a\"]");
    assert_eq!(f.exit, pipeline::EXIT_USAGE);
    let text = simt::render::render(&f);
    assert!(text.contains("numpy `float64`"), "{text}");
    assert!(text.contains("a.astype(numpy.float32)"), "{text}");
    // Numbers are values too.
    let scalar = "__global__ void k(float* b, float x) { b[threadIdx.x] = x; }";
    let f = run_values(
        scalar,
        vec![
            ("b", array(BufData::F32(vec![0.0; 4]), vec![4])),
            (
                "x",
                HostValue::Num {
                    v: 2.5,
                    float: true,
                },
            ),
        ],
        4,
        None,
    )
    .unwrap_or_else(|f| panic!("{}", simt::render::render(&f)));
    assert_eq!(*f.arrays[0].data, BufData::F32(vec![2.5; 4]));
    assert_eq!(f.arrays[0].data.elem(), Scalar::F32);
}

const SPIN: &str = "__global__ void spin(int* out, long long n) {
    long long s = 0;
    for (long long k = 0; k < n; k++) { s += k; }
    out[threadIdx.x] = (int)s;
}
";

fn spin(interrupt: &Interrupt) -> Result<Finished, Failure> {
    run_values(
        SPIN,
        vec![
            ("out", array(BufData::I32(vec![0; 32]), vec![32])),
            (
                "n",
                HostValue::Num {
                    v: 1e15,
                    float: false,
                },
            ),
        ],
        32,
        Some(interrupt),
    )
}

#[test]
fn a_raised_interrupt_stops_a_launch() {
    // Raised before the launch: it stops at the first check.
    let raised = Interrupt::default();
    raised.raise();
    let f = spin(&raised).expect_err("interrupted");
    let e = &simt::render::failure_json(&f)["error"];
    assert_eq!(e["code"], "simt::run::interrupted");
    assert_eq!(f.exit, pipeline::EXIT_RUN);
    // Raised from another thread while the loop runs (10^15 iterations: days).
    let later = Interrupt::default();
    let clock = std::time::Instant::now();
    let f = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            later.raise();
        });
        spin(&later)
    })
    .expect_err("interrupted");
    assert!(clock.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(
        simt::render::failure_json(&f)["error"]["code"],
        "simt::run::interrupted"
    );
}

#[test]
fn html_flag_writes_the_page_beside_the_report() {
    let dir = std::env::temp_dir().join(format!("simt-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let page = dir.join("report.html");
    let path = page.to_str().expect("utf-8 path");
    let (code, out, err) = common::simt(&["run", "kernels/transpose_tiled.sk", "--html", path]);
    assert_eq!(code, 0, "{err}");
    // The text report still goes to stdout.
    assert!(out.contains("simt · transpose_tiled"), "{out}");
    let html = std::fs::read_to_string(&page).expect("the page was written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<h1>simt · transpose_tiled"));
    assert_eq!(html.matches("<figure class=\"lanemap\"").count(), 4);
    // A path that cannot be written is a usage error.
    let dir_path = dir.to_str().expect("utf-8 path");
    let (code, _, err) = common::simt(&["run", "kernels/vecadd.sk", "--html", dir_path]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write"), "{err}");
}
