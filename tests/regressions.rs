//! Engine bugs found by the reference interpreter's property tests, each pinned by the smallest
//! kernel that showed it. See: issue 6 (reliability), `tests/differential.rs`.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn issue6_else_branch_uses_the_condition_as_it_was() {
    // The then-branch assigns the condition variable. Lanes 0..15 take it (path 1) and must not
    // also run the else-branch once `found` is false everywhere; lanes 16..31 take the else
    // (path 2). The engine used to re-read `found` at the `else`: every lane got path 2.
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x;
    bool found = t < 16;
    int path = 0;
    if (found) {
        found = false;
        path = path + 1;
    } else {
        path = path + 2;
    }
    out[t] = path;
}
launch k {
    out = zeros(32);
    expect out == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                   2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn issue6_float_to_char_at_run_time_as_when_folded() {
    // (unsigned char)1e10f saturates to 255, whether folded (out[1]) or computed (out[0]; the
    // engine used to go through 64 bits: 1e10 = 0x2540be400, low byte 0). Saturation is to the
    // narrow type's own range, as PTX `cvt.rzi.sat` does (issue 13: simt went through `int`, then
    // wrapped, and gave 0 for (char)-1e10f and 4464 for (short)70000.5f; found against the C
    // compiler by tests/cc_differential.rs).
    let src = r#"
__global__ void k(int* out, const float* x) {
    out[0] = (unsigned char)x[0];
    out[1] = (unsigned char)1e10f;
    out[2] = (char)x[1];
    out[3] = (short)x[2];
}
launch k {
    out = zeros(4);
    x = [10000000000.0, -10000000000.0, 70000.5];
    expect out == [255, 255, -128, 32767];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn issue6_abs_of_int_min_is_int_min() {
    // |INT_MIN| has no positive int: two's complement gives INT_MIN back (the engine panicked in
    // debug builds, through Rust's inherent i32::abs). |-5| = 5, and 5 for long long too.
    let src = r#"
__global__ void k(int* out, long long* wide, const int* a) {
    out[0] = abs(a[0]);
    out[1] = abs(a[1]);
    wide[0] = abs((long long)a[1]);
}
launch k {
    out = zeros(2);
    wide = zeros(1);
    a = [-2147483648, -5];
    expect out == [-2147483648, 5];
    expect wide == 5;
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn issue6_no_barrier_counted_once_every_thread_returned() {
    // Block 0's threads all return before the barrier, so only block 1 executes it: 1 barrier
    // (the engine counted one per block, 2).
    let src = r#"
__global__ void k(int* a) {
    if (blockIdx.x == 0) return;
    __syncthreads();
    a[threadIdx.x] = 1;
}
launch k { a = zeros(32); expect sum(a) == 32; }
"#;
    let r = ok(src, &[], [2, 1, 1], [32, 1, 1]);
    assert_eq!(r.counters.barriers, 1);
}

#[test]
fn a_barrier_after_every_thread_broke_out_is_no_divergence() {
    // Rodinia's pathfinder: all threads `break` (or `continue`) before the loop's barrier in its
    // last iteration; no thread reaches the barrier then, so none misses it.
    let src = r#"
__global__ void k(int* out, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) { s += 1; if (i == n - 1) break; __syncthreads(); }
    for (int i = 0; i < n; i++) { if (i >= 1) continue; __syncthreads(); s += 10; }
    out[threadIdx.x] = s;
}
launch k { n = 2; out = zeros(64); block = 64; grid = 1; expect out == 12; }
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    // One barrier per block in the first loop (i = 0), one in the second (i = 0).
    assert_eq!(r.counters.barriers, 2);
}

#[test]
fn barriers_after_uniform_exits_in_every_loop_form_are_no_divergence() {
    // The audit of issue 14: `break`, `continue` and `return` taken by every thread before a
    // later __syncthreads() of the loop body, in `for`, `while` and `do`-`while` loops, nested
    // too. Per block: the first loop passes its barrier for i = 0, 1 (break at 2): 2; the
    // `while` skips it for odd j (j = 1, 3 after the increment) and passes it for j = 2, 4: 2;
    // the inner loop breaks at k = 1 after one barrier, for each of 2 outer iterations: 2; the
    // `do` loop passes one barrier (i = 0), then every thread returns at i = 1: 1. Total 7
    // barriers and 7 increments of s, stored before the return.
    let src = r#"
__global__ void k(int* out) {
    int s = 0;
    for (int i = 0; i < 4; i++) { if (i == 2) break; __syncthreads(); s += 1; }
    int j = 0;
    while (j < 4) { j++; if (j % 2 == 1) continue; __syncthreads(); s += 1; }
    for (int o = 0; o < 2; o++) {
        for (int k = 0; k < 4; k++) { if (k == 1) break; __syncthreads(); s += 1; }
    }
    int i = 0;
    do {
        if (i == 1) { out[threadIdx.x] = s; return; }
        __syncthreads();
        s += 1;
        i++;
    } while (i < 4);
    out[threadIdx.x] = -1;
}
launch k { out = zeros(96); block = 96; grid = 2; expect out == 7; }
"#;
    let r = ok(src, &[], [2, 1, 1], [96, 1, 1]);
    assert_eq!(r.counters.barriers, 2 * 7);
    // A `break` taken by only some threads before the barrier is still a divergent barrier:
    // warp 0 breaks at i = 1 and goes on to the barrier after the loop, while warp 1 waits at
    // the loop's (without that later barrier, warp 0 would exit and release it: exit_barriers).
    let bad = r#"
__global__ void k(int* out) {
    for (int i = 0; i < 4; i++) { if (threadIdx.x < 32 && i == 1) break; __syncthreads(); }
    __syncthreads();
    out[threadIdx.x] = 1;
}
"#;
    let f = err(
        bad,
        &[("out", "zeros(64)")],
        Some([1, 1, 1]),
        Some([64, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::divergent_barrier"]);
}

#[test]
fn issue12_stale_index_registers_of_inactive_lanes_do_not_overflow() {
    // A loop whose trip count differs per lane leaves lanes inactive in its last iterations, and
    // the register that then holds the index had last held 2^58 (the dead `x`) on them. The
    // engine multiplied every lane's index, active or not, to lay out local memory (word
    // `32 i + k`) and the components of a vector access: "attempt to multiply with overflow" in
    // debug builds (the fuzz targets' `-a`). Found by the pointer programs of the differential
    // test.
    let src = r#"
__device__ void fill(float* p, int n) {
    for (int k = 0; k < n; k++) p[k] = 1.0f;
}
__global__ void k(const long long* big, float* out) {
    long long x = big[threadIdx.x];
    x = big[0] + x;
    float r[4];
    fill(r + 1, threadIdx.x & 3);
    out[threadIdx.x] = r[threadIdx.x & 3];
}
launch k {
    big = full(8, 144115188075855872);
    out = zeros(8);
    expect out == [0, 1, 1, 1, 0, 1, 1, 1];
}
"#;
    let r = ok(src, &[], ONE, [8, 1, 1]);
    assert!(r.counters.local_st_instr > 0, "r is in local memory");
    // The same through a `float4` pointer: component k of element i is `4 i + k`.
    let src = r#"
__device__ float sum4(const float4* p, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++) {
        float4 a = p[k];
        s += a.x;
    }
    return s;
}
__global__ void k(const long long* big, const float4* v, float* out) {
    long long x = big[threadIdx.x];
    x = big[0] + x;
    out[threadIdx.x] = sum4(v + 1, threadIdx.x & 3);
}
launch k {
    big = full(8, 2305843009213693952);
    d = arange(64);
    v = d;
    out = zeros(8);
    expect out == [0, 4, 12, 24, 0, 4, 12, 24];
}
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}
