//! Scalar locals declared without a value: a read before anything sets one is reported, as a
//! read of an unwritten local array element is; one set before any use stays a register.

use crate::common;
use common::ok;

const BLOCK: [u32; 3] = [32, 1, 1];
const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn an_accumulator_never_set_is_reported_where_it_is_read() {
    // canny-edge-detector's Gaussian filter: `double kernelSum; ... kernelSum += ...`. Each of
    // the 32 threads reads `acc` unset once, in the loop's first iteration only (the `+=` sets
    // it for the next): 1 warp instruction, 32 words.
    let src = r#"
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float acc;
    for (int j = 0; j < 4; j++) {
        acc += in[i];
    }
    out[i] = acc;
}
launch k { in = ones(32); out = zeros(32); expect out == 4; }
"#;
    let r = ok(src, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 1);
    let u = &r.uninit[0];
    assert_eq!(
        (u.read.first.space, u.read.first.array.as_str()),
        ("variable", "acc")
    );
    assert_eq!((u.line, u.read.warps, u.read.words), (6, 1, 32));
    assert_eq!(
        u.describe(),
        "thread (0,0,0) of block (0,0,0) reads the variable `acc` (line 6) before anything set it"
    );
}

#[test]
fn only_a_first_use_that_reads_makes_a_local_tracked() {
    // `out[i] = v;` reads `v` before `v = 2.0f;` sets it: every thread, 1 instruction.
    let read_first = r#"
__global__ void k(float* out) {
    int i = threadIdx.x;
    float v;
    out[i] = v;
    v = 2.0f;
    out[i] += v;
}
launch k { out = zeros(32); }
"#;
    let r = ok(read_first, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 1);
    assert_eq!((r.uninit[0].line, r.uninit[0].read.words), (5, 32));
    // A branch that sets it first, in the order the statements run, leaves it a register: a
    // read after an `if` that may not have run is beyond this rule, not reported.
    let branch_first = r#"
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float v;
    if (i < 16) { v = in[i]; }
    out[i] = v + 1.0f;
}
launch k { in = ones(32); out = zeros(32); }
"#;
    let r = ok(branch_first, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 0);
}

#[test]
fn a_value_carried_from_an_earlier_iteration_is_set_by_then() {
    // `prev` is read from the second iteration on, after the first set it: nothing to report,
    // and the result is the running pairwise sum.
    let src = r#"
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float prev;
    float sum = 0.0f;
    for (int j = 0; j < 4; j++) {
        if (j > 0) { sum += prev; }
        prev = in[i * 4 + j];
    }
    out[i] = sum;
}
launch k { in = arange(128); out = zeros(32); expect out == 12 * arange(32) + 3; }
"#;
    let r = ok(src, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 0);
}

#[test]
fn a_local_set_before_any_use_stays_a_register() {
    // `float x; x = in[i];` and `int j; for (j = 0; ...)` are set before any read: they count
    // exactly as the same kernel with the values written in the declarations.
    let set_later = r#"
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float x;
    x = in[i];
    int j;
    float r[4];
    for (j = 0; j < 4; j++) { r[j] = x * j; }
    out[i] = r[0] + r[1] + r[2] + r[3];
}
launch k { in = ones(32); out = zeros(32); expect out == 6; }
"#;
    let set_at_once = set_later
        .replace("float x;\n    x = in[i];", "float x = in[i];")
        .replace(
            "int j;\n    float r[4];\n    for (j = 0;",
            "float r[4];\n    for (int j = 0;",
        );
    assert_ne!(set_later, set_at_once);
    let a = ok(set_later, &[], ONE, BLOCK).counters;
    let b = ok(&set_at_once, &[], ONE, BLOCK).counters;
    assert_eq!(a.uninit_count, 0);
    assert_eq!(
        (a.warp_instr, a.local_ld_instr, a.local_st_instr),
        (b.warp_instr, b.local_ld_instr, b.local_st_instr)
    );
    // `r` stays in registers either way: `j` is still a known induction variable.
    assert_eq!(a.local_st_instr, 0);
}

#[test]
fn a_local_a_call_may_set_is_not_reported() {
    // `sincosf` sets `s` and `c` through pointers, `set` sets `v` through a reference: the
    // first use is the call, so none is reported.
    let src = r#"
__device__ void set(float& v, float x) { v = x; }
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float s, c, v;
    sincosf(in[i], &s, &c);
    set(v, in[i]);
    out[i] = s * s + c * c + v;
}
launch k { in = zeros(32); out = zeros(32); expect out == 1; }
"#;
    let r = ok(src, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 0);
}

#[test]
fn simt_test_fails_a_kernel_that_reads_a_variable_unset() {
    let dir = std::env::temp_dir().join(format!("simt-unset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("acc.sk");
    std::fs::write(
        &path,
        r#"
__global__ void k(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc;
        acc += in[i];
        out[i] = acc;
    }
}
launch k { n = 32; in = ones(n); out = zeros(n); block = 32; grid = 1; expect out == 1; }
"#,
    )
    .expect("write");
    let (code, out, _) = common::simt(&["test", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("reads the variable `acc` (line 6)"), "{out}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_tracked_variable_keeps_its_type_shuffles_and_statics_are_not_reads() {
    // `v` is read first (`res += v` from the second iteration), so it is kept in memory:
    // `decltype(v)` is still `float`, no reference (it was refused as a reference to `v * 2`).
    // out = (0+1) + (1+2) + ... over j = 1..3 of in + j - 1, plus w = 2 * (in + 3) = 8.
    let src = r#"
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
    float v;
    float res = 0.0f;
    for (int j = 0; j < 4; j++) {
        if (j > 0) res += v;
        v = in[i] + j;
    }
    decltype(v) w = v * 2;
    out[i] = res + w;
}
launch k { in = ones(32); out = zeros(32); expect out == 6 + 8; }
"#;
    let r = ok(src, &[], ONE, BLOCK);
    assert_eq!(r.counters.uninit_count, 0);
    // A shuffle hands every lane's `v` over and uses lane 0's, which lane 0 set: the other
    // lanes' unset values are never used, and nothing is reported.
    let broadcast = r#"
__global__ void k(const float* in, float* out) {
    int lane = threadIdx.x & 31;
    float acc = 0.0f;
    float v;
    for (int it = 0; it < 4; it++) {
        if (it > 0) acc += v;
        if (lane == 0) v = in[it];
        v = __shfl_sync(0xffffffff, v, 0);
    }
    out[threadIdx.x] = acc;
}
launch k { in = ones(32); out = zeros(32); expect out == 3; }
"#;
    assert_eq!(ok(broadcast, &[], ONE, BLOCK).counters.uninit_count, 0);
    // A `static` local is zero before its first use, as C++ gives static storage.
    let counter = r#"
__device__ int next() { static int count; count++; return count; }
__global__ void k(int* out) { out[threadIdx.x] = next(); }
launch k { out = zeros(32); }
"#;
    assert_eq!(ok(counter, &[], ONE, BLOCK).counters.uninit_count, 0);
}
