//! Pointers that may point into one of several arrays (`src = dst;` in a loop, `flag ? a : b`):
//! results checked by expects, counters derived by hand.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];
const B64: [u32; 3] = [64, 1, 1];

#[test]
fn pointers_swapped_in_a_loop_follow_the_array_they_hold() {
    let src = r#"
__global__ void pingpong(float* a, float* b, int n, int steps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* src = a;
    float* dst = b;
    for (int s = 0; s < steps; s++) {
        if (i < n) dst[i] = src[i] * 2.0f;
        float* t = src; src = dst; dst = t;
    }
}
launch pingpong {
    a = arange(64); b = zeros(64); n = 64; steps = 3;
    // Step 0: b = 2x; step 1: a = 2b = 4x; step 2: b = 2a = 8x.
    expect b == arange(64) * 8;
    expect a == arange(64) * 4;
}
"#;
    let c = ok(src, &[], ONE, B64).counters;
    // Each of 3 steps: each of 2 warps loads and stores 32 contiguous floats, 4 sectors each.
    assert_eq!((c.gld_instr, c.gld_sectors), (6, 24));
    assert_eq!((c.gst_instr, c.gst_sectors), (6, 24));
}

#[test]
fn a_warp_whose_lanes_choose_different_arrays_makes_one_request() {
    let src = r#"
__global__ void lanes(const float* a, const float* b, float* out) {
    int i = threadIdx.x;
    const float* p = (i % 2 == 0) ? a : b;
    out[i] = p[i];
}
launch lanes {
    a = arange(64); b = arange(64) + 100; out = zeros(64);
    expect out == arange(64) + 100 * (arange(64) % 2);
}
"#;
    let c = ok(src, &[], ONE, B64).counters;
    // A warp's 16 even lanes read every other float of 32 in `a` (128 B, 4 sectors) and its 16
    // odd lanes the same span of `b` (4 sectors): one request of 8 sectors per warp.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 16));
    // 32 lanes × 4 B read per warp, as for a single array.
    assert_eq!(c.g_bytes_requested, 2 * 128 + 2 * 128);
}

/// Hillis–Steele inclusive scan over two shared buffers whose roles swap every step.
const SCAN: &str = r#"
__global__ void scan(const int* in, int* out) {
    __shared__ int s0[64];
    __shared__ int s1[64];
    int* src = s0;
    int* dst = s1;
    int t = threadIdx.x;
    src[t] = in[t];
    __syncthreads();
    for (int off = 1; off < 64; off *= 2) {
        dst[t] = t >= off ? src[t] + src[t - off] : src[t];
        BARRIER
        int* tmp = src; src = dst; dst = tmp;
    }
    out[t] = src[t];
}
launch scan { in = ones(64); out = zeros(64); expect out == arange(64) + 1; }
"#;

#[test]
fn shared_buffers_swapped_by_pointer_scan_with_their_own_counters() {
    let c = ok(&SCAN.replace("BARRIER", "__syncthreads();"), &[], ONE, B64).counters;
    // Two warps. The first store: 2. Each step, warp 1 (t ≥ 32 ≥ off) loads twice and stores:
    // 3; warp 0 has lanes on both sides of `t >= off` for off = 1..16 (2 + 1 loads, 1 store: 4)
    // and only the `else` side for off = 32 (1 + 1: 2). Steps: 5 × 7 + 5 = 40. The final
    // `src[t]`: 2. Every access is 32 consecutive words: one wavefront each.
    assert_eq!((c.smem_instr, c.smem_wavefronts), (44, 44));
    assert_eq!((c.barriers, c.race_count), (7, 0));
}

#[test]
fn a_missing_barrier_between_swapped_shared_buffers_is_a_race() {
    let r = common::run(&SCAN.replace("BARRIER", ""), &[], Some(ONE), Some(B64)).expect("runs");
    assert!(r.counters.race_count > 0, "no race found");
    let arrays: Vec<&str> = r
        .races
        .iter()
        .map(|g| g.race.first.array.as_str())
        .collect();
    assert!(
        arrays.contains(&"s0") && arrays.contains(&"s1"),
        "{arrays:?}"
    );
}

#[test]
fn a_device_function_takes_a_chosen_pointer() {
    let src = r#"
__device__ void scale(float* p, int i, float k) { p[i] *= k; }
__global__ void k(float* a, float* b, int which) {
    float* p = which ? b : a;
    scale(p, threadIdx.x, 3.0f);
}
launch k { a = ones(32); b = ones(32); which = 1; expect b == ones(32) * 3; expect a == ones(32); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_chosen_pointer_compares_with_each_array() {
    let src = r#"
__global__ void k(const float* a, const float* b, int* out) {
    int i = threadIdx.x;
    const float* p = (i & 1) ? b : a;
    out[i] = (p == a) + 2 * (p == b) + 4 * (p != NULL);
}
launch k { a = ones(32); b = ones(32); out = zeros(32);
    // Even lanes: 1 + 4; odd lanes: 2 + 4.
    expect out == 5 + (arange(32) % 2); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_null_chosen_pointer_is_reported_where_it_is_read() {
    let src = r#"
__global__ void k(float* a, float* b, float* out) {
    float* p = a;
    for (int s = 0; s < 3; s++) {
        out[threadIdx.x] = p[threadIdx.x];
        p = s == 0 ? b : NULL;
    }
}
launch k { a = ones(32); b = ones(32); out = zeros(32); }
"#;
    let f = err(src, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(common::codes(&f), ["simt::run::null_pointer"]);
    // The third read of `p` (line 5), after it was set to NULL.
    assert_eq!(common::position(&f).0, 5);
}

#[test]
fn pointers_that_cannot_be_a_choice_are_refused() {
    // A thread's own array, and a view of the choice as narrower components (its arrays would
    // have to be re-typed).
    for (src, what) in [
        (
            "__global__ void k(float* a, int c) { float r[4]; float* p = r; for (int i = 0; i < 2; i++) { p[0] = 1.0f; p = a; } }",
            "a thread's own array",
        ),
        (
            "__global__ void k(float* a, float* b, int c) { float* p = a; for (int i = 0; i < 2; i++) { ((char*)p)[0] = 1; p = b; } }",
            "",
        ),
    ] {
        let f = err(&format!("{src}\nlaunch k {{ a = ones(4); b = ones(4); c = 1; }}"), &[], Some(ONE), Some([1, 1, 1]));
        let d = common::describe(&f);
        assert!(d.contains("simt::check::unsupported") && d.contains(what), "{d}");
    }
}

#[test]
fn a_pointer_re_pointed_in_a_branch_reads_the_array_of_each_lane() {
    let src = r#"
__global__ void k(float* a, float* b) {
    float* p = a;
    if (threadIdx.x > 0) {
        p = b;
    }
    p[threadIdx.x] = 1.0f;
}
launch k { a = zeros(4); b = zeros(4); expect a == [1, 0, 0, 0]; expect b == [0, 1, 1, 1]; }
"#;
    let c = ok(src, &[], ONE, [4, 1, 1]).counters;
    // One warp: lane 0 stores into `a` (1 sector), lanes 1–3 into `b` (1 sector), one request.
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 2));
}

#[test]
fn a_null_argument_tested_by_the_function_is_no_error_until_it_is_read() {
    // gsplat's optional output: `f(&x, nullptr)` with `if (b != nullptr) *b = ...;`.
    let tested = r#"
__device__ void f(float* a, float* b) {
    if (a != nullptr) *a = 1.0f;
    if (b != nullptr) *b = 2.0f;
}
__global__ void k(float* out) {
    float x = 0.0f;
    f(&x, nullptr);
    out[threadIdx.x] = x;
}
launch k { out = zeros(2); expect out == [1, 1]; }
"#;
    ok(tested, &[], ONE, [2, 1, 1]);
    // Untested, the store through it runs: line 4, for thread 0 of block 0.
    let f = err(
        &tested.replace("if (b != nullptr) ", ""),
        &[],
        Some(ONE),
        Some([2, 1, 1]),
    );
    assert_eq!(common::codes(&f), ["simt::run::null_pointer"]);
    assert_eq!(common::position(&f).0, 4);
}

#[test]
fn an_error_in_a_function_is_reported_when_a_pointer_becomes_a_choice_after_the_call() {
    // `p` is pointed at `c` after the call of `f`, so the kernel is checked a second time with
    // `p` a choice of arrays. The first pass met `f`'s unknown name; the second must report it
    // too, not take `f` for a function reported already and run the kernel without its body
    // (which left c[0] at 0 with no diagnostic).
    let src = r#"
__device__ void f(float* c) {
    S[0] = 1.0f;
    c[0] = 5.0f;
}
__global__ void k(const float* a, float* c) {
    const float* p;
    p = a;
    {
        f(c);
        p = c;
    }
}
launch k { a = zeros(4); c = zeros(4); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
}

#[test]
fn a_pointer_into_one_of_several_arrays_may_be_seen_as_the_same_size_type() {
    // `((int*)p)[t]` where `p` is `a`, then `b`: 0x3f800000 is 1.0f, 0x3f800001 the next float
    // up, 1 + 2^-23 = 1.00000012.
    let src = r#"
__global__ void k(float* a, float* b) {
    float* p = a;
    for (int i = 0; i < 2; i++) { ((int*)p)[threadIdx.x] = 1065353216 + i; p = b; }
}
launch k { a = zeros(2); b = zeros(2); expect a == 1; expect b == 1.00000012; }
"#;
    let c = ok(src, &[], ONE, [2, 1, 1]).counters;
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 2));
}

#[test]
fn a_pointer_into_shared_or_global_memory_reads_each_lanes_memory() {
    // libfalcon_dsp's resampler keeps the coefficients in shared memory when they fit and reads
    // them from global memory otherwise. 2 warps of 32 lanes; `s[t] = 100 + t`, `g = arange(64)`.
    // - `p`: even lanes read `s[t]`, odd lanes `g[t]`: per warp one shared request of 16 lanes
    //   at stride 2 (16 banks, 1 wavefront) and one global request of the odd floats of a
    //   128-byte line (4 sectors).
    // - `q` with n = 100: `g[t]`, one request of 4 sectors per warp, every sector already in
    //   the L1 from `p`'s odd lanes (8 hits).
    // Global loads: 4 requests, 16 sectors. Shared: the 2 stores of `s` and `p`'s 2 loads, one
    // wavefront each.
    let src = r#"
__global__ void k(const float* g, float* out, int n) {
    __shared__ float s[64];
    s[threadIdx.x] = 100.0f + threadIdx.x;
    __syncthreads();
    const float* p = (threadIdx.x % 2 == 0) ? s : g;
    out[threadIdx.x] = p[threadIdx.x];
    const float* q;
    if (n < 64) q = s; else q = g;
    out[64 + threadIdx.x] = q[threadIdx.x];
}
launch k {
    g = arange(64); out = zeros(128); n = 100;
    expect out[0] == 100; expect out[1] == 1; expect out[62] == 162; expect out[63] == 63;
    expect out[64] == 0; expect out[127] == 63;
}
"#;
    let c = ok(src, &[], ONE, B64).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (4, 16), "{c:?}");
    assert_eq!((c.smem_instr, c.smem_wavefronts), (4, 4), "{c:?}");
    // With n = 16 `q` reads `s`: 2 more shared loads, 2 fewer global.
    let src = src.replace("n = 100", "n = 16").replace(
        "out[64] == 0; expect out[127] == 63",
        "out[64] == 100; expect out[127] == 163",
    );
    let c = ok(&src, &[], ONE, B64).counters;
    assert_eq!((c.gld_instr, c.smem_instr), (2, 6), "{c:?}");
}

#[test]
fn a_pointer_re_pointed_from_global_to_shared_memory_in_a_loop() {
    // Found a choice on the first pass, then one of both memories on the second: checked a
    // third time with `p` a choice of both from its declaration. Iteration 0 stores `a[t]`,
    // iteration 1 `s[t]`, which `a[32 + t]` then copies.
    let src = r#"
__global__ void k(float* a, int n) {
    __shared__ float s[32];
    float* p = a;
    for (int i = 0; i < n; i++) {
        p[threadIdx.x] = 1.0f + i;
        p = s;
    }
    __syncthreads();
    a[32 + threadIdx.x] = s[threadIdx.x];
}
launch k { a = zeros(64); n = 2; expect a[0] == 1; expect a[31] == 1; expect a[32] == 2; expect a[63] == 2; }
"#;
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    // Global stores: `p` once, `a[32 + t]` once; shared stores: `p` once.
    assert_eq!((c.gst_instr, c.smem_instr), (2, 2), "{c:?}");
}
