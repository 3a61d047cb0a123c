//! Results of kernels: C semantics, structured control flow per lane, short-circuit evaluation, shapes.

use crate::common;
use common::{codes, describe, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn c_integer_and_conversion_semantics() {
    let src = r#"
__global__ void k(int* out, float* f) {
    int t = threadIdx.x;
    int m = -7 + t;
    out[0] = m / 2;                        // truncates toward zero: -3
    out[1] = m % 2;                        // sign of the dividend: -1
    out[2] = (threadIdx.x - 1 > 5) ? 1 : 0; // unsigned: 0u - 1 = 4294967295 > 5
    int big = 2147483647 + t;
    out[3] = big + 1;                      // wraps to -2147483648
    out[4] = (int)(3.9f + t);              // truncates: 3
    out[5] = (int)(-3.9f - t);             // -3
    out[6] = (unsigned char)(300 + t);     // 300 mod 256 = 44
    out[7] = 1 << 33 - t;                  // precedence: 1 << (33 - 0); shift ≥ 32 gives 0
    out[8] = 7 / 2 * 2;                    // folded: 6
    f[0] = 7 / 2;                          // integer division before conversion: 3.0
    f[1] = 7 / 2.0f;                       // 3.5
    f[2] = sqrtf(16.0f + t) + fmaxf(1.0f, 2.0f) + (float)min(3, -4) + abs(-2);
}
launch k {
    out = zeros(9);
    f = zeros(3);
    expect out == [-3, -1, 1, -2147483648, 3, -3, 44, 0, 6];
    expect f == [3.0, 3.5, 4.0];
}
"#;
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn break_continue_and_return_per_lane() {
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t >= 40) return;
    int acc = 0;
    for (int j = 0; j < 10; j++) {
        if (j == t % 5) continue;
        if (j > t % 7) break;
        acc += j;
    }
    int w = 0;
    while (true) {
        w++;
        if (w >= t % 3 + 1) break;
    }
    int d = 0;
    do { d += 2; } while (d < t % 4);
    __syncthreads();
    out[t] = acc * 10000 + w * 100 + d;
}
"#;
    // The same computation in Rust, lane by lane.
    let expected: Vec<String> = (0..64)
        .map(|t: i64| {
            if t >= 40 {
                return "-1".to_string();
            }
            let mut acc = 0;
            for j in 0..10 {
                if j == t % 5 {
                    continue;
                }
                if j > t % 7 {
                    break;
                }
                acc += j;
            }
            let w = t % 3 + 1;
            let mut d = 0;
            loop {
                d += 2;
                if d >= t % 4 {
                    break;
                }
            }
            (acc * 10000 + w * 100 + d).to_string()
        })
        .collect();
    let full = format!(
        "{}\nlaunch k {{ out = full(64, -1); expect out == [{}]; }}",
        src,
        expected.join(",")
    );
    // `__syncthreads()` after `return` is fine: returned threads do not count.
    let r = ok(&full, &[], ONE, [64, 1, 1]);
    assert!(r.counters.divergent > 0);
}

#[test]
fn short_circuit_never_loads_behind_a_guard() {
    let src = r#"
__global__ void k(const float* a, float* out, int n) {
    int i = threadIdx.x;
    float v = 0.0f;
    if (i < n && a[i] > 1.0f) v = 1.0f;
    if (i >= n || a[i] < 0.5f) v += 10.0f;
    out[i] = i < n ? a[i] * 2.0f : -1.0f;
    out[i] += v;
}
launch k {
    n = 4;
    a = [0.0, 1.0, 2.0, 3.0];
    out = zeros(8);
    expect out == [10.0, 2.0, 5.0, 7.0, 9.0, 9.0, 9.0, 9.0];
}
"#;
    // Lanes 4..7 would read a[4..7] out of bounds if `&&`, `||` or `?:` evaluated both sides.
    let r = ok(src, &[], ONE, [8, 1, 1]);
    // Loads of a: `a[i] > 1` (4 lanes), `a[i] < 0.5` (4 lanes), `a[i] * 2` (4 lanes) = 3 requests × 16 B.
    assert_eq!(r.counters.gld_instr, 3 + 1);
    assert_eq!(
        r.counters.g_bytes_requested,
        3 * 4 * 4 + 8 * 4 + 8 * 4 + 8 * 4
    );
}

#[test]
fn two_and_three_dimensional_blocks() {
    let src = r#"
__global__ void k(int* out) {
    int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    int b = blockIdx.x + blockIdx.y * gridDim.x;
    out[b * 30 + tid] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * b;
}
"#;
    let expected: Vec<String> = (0..4)
        .flat_map(|b| {
            (0..30).map(move |tid| {
                (tid % 5 + 10 * ((tid / 5) % 3) + 100 * (tid / 15) + 1000 * b).to_string()
            })
        })
        .collect();
    let full = format!(
        "{src}\nlaunch k {{ out = zeros(120); expect out == [{}]; }}",
        expected.join(",")
    );
    // Block (5, 3, 2) = 30 threads: one partial warp per block; grid (2, 2).
    let r = ok(&full, &[], [2, 2, 1], [5, 3, 2]);
    assert_eq!((r.counters.blocks, r.counters.threads), (4, 120));
    // One store per block from a 30-lane warp, 120 B at byte offset 120·b: block 0 covers bytes
    // 0..120 (sectors 0–3, 4), block 1 120..240 (3–7, 5), block 2 240..360 (7–11, 5),
    // block 3 360..480 (11–14, 4) = 18.
    assert_eq!(r.counters.gst_sectors, 18);
}

#[test]
fn defines_consts_and_two_dimensional_shared_arrays() {
    let src = r#"
#define TILE 4
const int SCALE = 3;
__global__ void k(int* out) {
    __shared__ int tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = x * SCALE + y;
    __syncthreads();
    out[y * TILE + x] = tile[x][y];
}
launch k {
    out = zeros(16);
    block = (4, 4);
    grid = 1;
    expect out == transpose([0,3,6,9, 1,4,7,10, 2,5,8,11, 3,6,9,12], 4, 4);
}
"#;
    let r = ok(src, &[], ONE, [4, 4, 1]);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn a_failed_expect_is_reported_not_an_error() {
    let src = r#"
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }
launch k { out = zeros(4); expect out == [0, 1, 2, 4]; }
"#;
    let r = common::run(src, &[], Some(ONE), Some([4, 1, 1])).expect("runs");
    assert!(!r.expects_passed());
    let detail = r.expects[0].detail.clone().expect("a failure detail");
    assert!(
        detail.contains("1 of 4 elements differ; first at index 3: 3 == 4"),
        "{detail}"
    );
}

#[test]
fn an_expected_nan_matches_a_nan_and_nothing_else() {
    // 0/0 is NaN in lane 0 and 1 elsewhere: `a / a` on the host gives the same, so the first
    // expect holds; the second expects 1 at index 0, where the kernel wrote NaN.
    let src = r#"
__global__ void k(float* out, const float* a) { out[threadIdx.x] = a[threadIdx.x] / a[threadIdx.x]; }
launch k { a = arange(4); out = zeros(4); expect out == a / a; expect out == ones(4); }
"#;
    let r = common::run(src, &[], Some(ONE), Some([4, 1, 1])).expect("runs");
    let verdicts: Vec<bool> = r.expects.iter().map(|e| e.passed).collect();
    assert_eq!(verdicts, [true, false]);
    assert_eq!(
        r.expects[1].detail.as_deref(),
        Some("1 of 4 elements differ; first at index 0: NaN == 1 is false")
    );
}

#[test]
fn integer_division_by_zero_traps_with_the_thread() {
    let src = r#"
__global__ void k(int* out, int d) {
    out[threadIdx.x] = 100 / (threadIdx.x - d);
}
"#;
    let f = err(
        src,
        &[("out", "zeros(8)"), ("d", "5")],
        Some(ONE),
        Some([8, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::division_by_zero"]);
    assert_eq!(f.exit, 1);
}

#[test]
fn character_literals_are_ints_with_cs_escapes() {
    // 'a' = 97, '\n' = 10, '\0' = 0, '\\' = 92, '\'' = 39, '\x41' = '\101' = 65 ('A'), and
    // '\xff' = -1: char is signed on x86-64 hosts. 'A' + t is 65 + t.
    let src = r#"
__global__ void k(int* a, char* s) {
    int t = threadIdx.x;
    const char c[8] = {'a', '\n', '\0', '\\', '\'', '\x41', '\101', '\xff'};
    a[t] = c[t];
    s[t] = 'A' + t;
}
launch k { a = zeros(8); s = zeros(8); block = 8; grid = 1;
  expect a == [97, 10, 0, 92, 39, 65, 65, -1]; expect s == arange(8) + 65; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn sizeof_gives_bytes_as_size_t() {
    // float 4; double + char + short + long long = 8 + 1 + 2 + 8 = 19; tile[4][8] of float
    // = 128; acc[3] = 12 plus one element 4 = 16; a char variable 1 (not the int it promotes
    // to) plus `c + 1`, an int, 4 = 5; float4 16, a float4 variable 16, two pointers 8 + 8 = 48;
    // with T = double: sizeof(T), an element and *in are 8 each = 24; size_t arithmetic 4 * t.
    let src = r#"
template <typename T>
__global__ void k(unsigned long long* out, const T* in) {
    __shared__ float tile[4][8];
    float acc[3];
    char c = 'x';
    float4 v = make_float4(0, 0, 0, 0);
    int t = threadIdx.x;
    out[0] = sizeof(float);
    out[1] = sizeof(double) + sizeof(char) + sizeof(short) + sizeof(long long);
    out[2] = sizeof(tile);
    out[3] = sizeof(acc) + sizeof acc[0];
    out[4] = sizeof(c) + sizeof(c + 1);
    out[5] = sizeof(float4) + sizeof(v) + sizeof(int*) + sizeof(in);
    out[6] = sizeof(T) + sizeof(in[t]) + sizeof *in;
    out[7] = sizeof(unsigned int) * t;
}
launch k<double> { out = zeros(8); in = zeros(1); block = 1; grid = 1;
  expect out == [4, 19, 128, 16, 5, 48, 24, 0]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn sizeof_a_vector_whose_address_is_taken_is_its_whole_size() {
    // `&bits` keeps the int4 in memory, named through a reference: sizeof is still 4 × 4 = 16
    // (llm.c's Packed128 static_asserts it), as it is for the untouched `other`; a `float4&`
    // parameter is 16 too (sizeof of a reference is its referee's), a `half2&` 4. q[1] reads
    // the second component, 2.
    let src = r#"
#include <cuda_fp16.h>
__device__ unsigned long long size_of_ref(float4& v, half2& h) { return sizeof(v) * 100 + sizeof(h); }
__global__ void k(unsigned long long* out) {
    int4 bits = make_int4(1, 2, 3, 4);
    int4 other = make_int4(5, 6, 7, 8);
    int* q = reinterpret_cast<int*>(&bits);
    float4 f = make_float4(0, 0, 0, 0);
    half2 h = __floats2half2_rn(1.0f, 2.0f);
    out[0] = sizeof(bits);
    out[1] = sizeof(other);
    out[2] = q[1];
    out[3] = size_of_ref(f, h);
}
launch k { out = zeros(4); block = 1; grid = 1; expect out == [16, 16, 2, 1604]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn switch_runs_the_matching_case() {
    // a: t % 5 = 0 → 10; 1 and 2 share a body → 20; 3 → default 30 (written before case 4, as
    // C allows); 4 → 40. b: the loop skips i = 1 by `continue` inside the switch (it continues
    // the loop, not the switch) and adds i = 0 and i = 2: 2. An empty switch and one whose only
    // case never matches do nothing.
    let src = r#"
__global__ void k(int* a, int* b) {
    int t = threadIdx.x;
    switch (t % 5) {
        case 0: a[t] = 10; break;
        case 1:
        case 2: a[t] = 20; break;
        default: a[t] = 30; break;
        case 4: { a[t] = 40; } break;
    }
    for (int i = 0; i < 3; i++) {
        switch (i) {
            case 1: continue;
            default: b[t] += i;
        }
    }
    switch (t) { }
    switch (t) { case 100: b[t] = -1; }
}
launch k { a = zeros(10); b = zeros(10); block = 10; grid = 1;
  expect a == [10, 20, 20, 30, 40, 10, 20, 20, 30, 40]; expect b == 2; }
"#;
    ok(src, &[], ONE, [10, 1, 1]);
}

#[test]
fn switch_cases_fall_through_in_order_and_break_leaves_anywhere() {
    // out by t & 7: 0 → case 0: 7; 1..3 → default 1000, then case 0: 1007; 4 → 50 (t ≤ 8),
    // default + 1000, case 0 + 7 = 1057, while t = 12 breaks early: 0; 5 → 1; 6 → 10 + 1;
    // 7 → 100 + 10 + 1. cnt: i = 0 runs cases 0 and 1 (+3), i = 1 case 1 (+2), i = 2 the
    // default's break: 5.
    let src = r#"
__global__ void k(int* out, int* cnt) {
    int t = threadIdx.x;
    int v = 0;
    switch (t & 7) {
        case 7: v += 100;
        case 6: v += 10;
        case 5: v += 1; break;
        case 4: if (t > 8) break; v = 50;
        default: v += 1000;
        case 0: v += 7;
    }
    out[t] = v;
    for (int i = 0; i < 3; i++) {
        switch (i) { case 0: cnt[t] += 1; case 1: cnt[t] += 2; break; default: break; }
    }
}
launch k { out = zeros(16); cnt = zeros(16); block = 16; grid = 1;
  expect out == [7, 1007, 1007, 1007, 1057, 1, 11, 111, 7, 1007, 1007, 1007, 0, 1, 11, 111];
  expect cnt == 5; }
"#;
    ok(src, &[], ONE, [16, 1, 1]);
    // A `continue` would continue the loop that runs the cases, not the one around the switch.
    let f = err(
        "__global__ void k(int* a) { for (int i = 0; i < 2; i++) { switch (i) { case 0: a[0] = 1; case 1: continue; } } }\n",
        &[("a", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_barrier_named_without_a_call_runs_no_barrier() {
    // xbeach's `__syncthreads;`: C++ names the function and drops it (nvcc warns "statement
    // has no effect"), so no barrier runs. It was an unknown name. Thread t writes s[t] and
    // reads s[63 - t], written by the other warp of the block of 64: with `__syncthreads;`
    // that read is a race between warps; with the call there is none. The name is noted once,
    // on line 4.
    let run = |barrier: &str| {
        let src = format!(
            "__global__ void k(float* a) {{\n    __shared__ float s[64];\n    s[threadIdx.x] = a[threadIdx.x];\n    {barrier};\n    a[threadIdx.x] = s[63 - threadIdx.x];\n}}\n"
        );
        common::run(&src, &[("a", "arange(64)")], Some(ONE), Some([64, 1, 1])).expect("runs")
    };
    let r = run("__syncthreads");
    assert!(r.counters.race_count > 0);
    let noted: Vec<usize> = r
        .hints
        .iter()
        .filter(|h| h.rule == "no-effect")
        .filter_map(|h| h.line)
        .collect();
    assert_eq!(noted, [4]);
    let r = run("__syncthreads()");
    assert_eq!(r.counters.race_count, 0);
    assert!(r.hints.iter().all(|h| h.rule != "no-effect"));
    // `(void)__syncthreads;` and `__syncthreads_count;` name functions too: no barrier, a race.
    for named in ["(void)__syncthreads", "__syncthreads_count"] {
        assert!(run(named).counters.race_count > 0, "{named}");
    }
}

#[test]
fn the_comma_operator_runs_its_items_in_order_and_gives_the_last() {
    // i: 0 → 1 (i++) → 2 (++i); x = 2t. Then i++ makes 3, and b = 3 + 5 = 8. For t ≤ 3,
    // (--i, i + 10) gives 12; for t > 3, (i--, i) gives 2.
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/comma.sk"))
        .expect("the seed");
    let r = common::run(&src, &[], None, None).expect("runs");
    assert!(r.expects_passed(), "{:?}", r.expects);
    // An item or a statement that only computes a value is checked, noted (as C compilers warn)
    // and not run: `a[t + 64]` would read past the end, and no access is counted for it.
    let src = "__global__ void k(int* a) { int t = threadIdx.x; a[t] = (a[t + 64], 3); a[t + 64] + 1; }\n";
    let r = common::run(src, &[("a", "zeros(32)")], Some(ONE), Some([32, 1, 1])).expect("runs");
    let noted: Vec<usize> = r
        .hints
        .iter()
        .filter(|h| h.rule == "no-effect")
        .filter_map(|h| h.line)
        .collect();
    assert_eq!(noted, [1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (0, 1));
    // A struct operand may run the file's code (a conversion operator): that runs, as in C++.
    let conversion = r#"
struct G { int* c; __device__ operator int() const { atomicAdd(c, 1); return 0; } };
__global__ void k(int* out) { G g{out}; (int)g; int r = (static_cast<int>(g), 7); out[1 + threadIdx.x] = r; }
launch k { out = zeros(5); grid = 1; block = 4; expect out == [8, 7, 7, 7, 7]; }
"#;
    let r = common::run(conversion, &[], None, None).expect("runs");
    assert!(r.expects_passed(), "{:?}", r.expects);
    assert!(r.hints.iter().all(|h| h.rule != "no-effect"));
    // Its errors are still reported.
    let f = err(
        "__global__ void k(int* a) { a[0] + b; }\n",
        &[("a", "zeros(32)")],
        Some(ONE),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
}

#[test]
fn three_dimensional_shared_arrays_index_row_major() {
    // s[2][4][8]: element [a][b][c] is at a·32 + b·8 + c. Thread t writes its own number to
    // [t/32][(t/8)%4][t%8] = element t; reading [1 - t/32][...] gives t ± 32.
    let src = r#"
__global__ void k(float* out) {
    __shared__ float s[2][4][8];
    s[threadIdx.x / 32][(threadIdx.x / 8) % 4][threadIdx.x % 8] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[1 - threadIdx.x / 32][(threadIdx.x / 8) % 4][threadIdx.x % 8];
}
launch k {
    out = zeros(64);
    expect out == (arange(64) + 32) % 64;
}
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    // 2 warps × 1 store and 1 load, each of 32 consecutive floats: 1 wavefront apiece.
    assert_eq!((r.counters.smem_instr, r.counters.smem_wavefronts), (4, 4));
}

#[test]
fn empty_braces_value_initialise_a_scalar() {
    // `x = {}` is zero, `x = {v}` is v (C++ list-initialisation of a scalar).
    let src = r#"
__global__ void k(double* out) {
    __shared__ double s[4];
    s[threadIdx.x] = {};
    s[threadIdx.x] += threadIdx.x;
    double one = {1.0};
    out[threadIdx.x] = s[threadIdx.x] + one;
}
launch k {
    out = full(4, 7);
    expect out == arange(4) + 1;
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_comma_statement_runs_each_item_in_order() {
    // `x += 1, y += 2;` then `x = x * 10, y = x + y;`: x = 10(t + 1), y = x + 2.
    let src = r#"
__global__ void k(int* a) {
    int x = threadIdx.x, y = 0;
    x += 1, y += 2;
    x = x * 10, y = x + y;
    a[threadIdx.x] = y;
}
launch k { a = zeros(4); expect a == 10 * (arange(4) + 1) + 2; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn trailing_return_types_and_decltype() {
    // `auto f(...) -> T` on functions, a prototype, members in and out of their class and a
    // template (fairseq's divUp). `-> decltype(e)` is e's type with the call's parameters:
    // g(100) returns an `unsigned char` (100 + 200 = 300 wraps to 44); h(300, 300) an `int`
    // (short + short promotes: 90000, not 90000 mod 65536); divUp(7.5f, 2) a float
    // ((7.5 + 2 - 1) / 2 = 4.25); mixed(7, 1.0f) the float of int·float, of 7 / 2 = 3;
    // q.twice(20) = 2 + 2·20 = 42.
    let src = r#"
__device__ auto seven(int a) -> int;
__device__ auto seven(int a) -> int { return a + 6; }
__device__ auto g(unsigned char c) -> decltype(c) { return c + 200; }
__device__ auto h(short a, short b) -> decltype(a + b) { return a * b; }
template <typename U, typename V>
constexpr __host__ __device__ auto divUp(U a, V b) -> decltype(a + b) { return (a + b - 1) / b; }
__device__ auto mixed(int a, float b) -> decltype(a * b) { return a / 2; }
struct P { float v; __device__ auto get() const -> float { return v; } };
struct Q { int base; __device__ auto twice(int x) -> int; };
__device__ auto Q::twice(int x) -> int { return base + 2 * x; }
__global__ void k(float* f, int* n) {
    n[0] = seven(1);
    n[1] = g(100);
    n[2] = h(300, 300);
    n[3] = divUp<int, int>(70, 32);
    f[0] = divUp(7.5f, 2);
    f[1] = mixed(7, 1.0f);
    P p{2.5f};
    f[2] = p.get();
    Q q{2};
    n[4] = q.twice(20);
}
launch k { f = zeros(3); n = zeros(5); expect n == [7, 44, 90000, 3, 42]; expect f == [4.25, 3, 2.5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn returning_a_void_call_from_a_void_function() {
    // `return f(...);` with a `void` f is the call, then `return;` (C++ [stmt.return]/2), in a
    // function, a template and a kernel. d = [0, 1, 200, 3]: thread 0 runs wrapper itself and
    // returns (0 + 1 + 5 = 6); the others through twiceW: 1 + 1 + 5 = 7, 200 > 100 so only + 5
    // = 205, 3 + 1 + 5 = 9. A value-returning call is still refused there.
    let src = r#"
__device__ void add5(float* p) { *p += 5.0f; }
__device__ void wrapper(float* p) { if (*p > 100.0f) return add5(p); *p += 1.0f; return add5(p); }
template <typename T> __device__ void twiceW(T* p) { return wrapper(p); }
__global__ void k(float* d) {
    if (threadIdx.x == 0) return wrapper(&d[0]);
    twiceW(&d[threadIdx.x]);
}
launch k { d = [0, 1, 200, 3]; expect d == [6, 7, 205, 9]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A member function's `void` call too: a.s = 1 + 2 = 3.
    let method = r#"
struct Acc { float s; __device__ void add(float v) { s += v; } };
__device__ void via(Acc& a, float v) { return a.add(v); }
__global__ void k(float* d) { Acc a{1.0f}; via(a, 2.0f); d[threadIdx.x] = a.s; }
launch k { d = zeros(2); expect d == [3, 3]; }
"#;
    ok(method, &[], ONE, [2, 1, 1]);
    let bad = r#"
__device__ float twice(float x) { return 2.0f * x; }
__device__ void w(float* p) { return twice(*p); }
__global__ void k(float* d) { w(d); }
"#;
    let f = err(bad, &[("d", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::return_type"]);
}

#[test]
fn lambdas_see_their_scope_and_copy_what_they_capture_by_value() {
    // idx(y, x) = y·nx + x reads nx by reference; scaled copies s = 2 when it is made, so the
    // later s = 5 does not reach it: b[i] = a[i] + 2 for a 4 × 8 grid of threads.
    let src = r#"
__global__ void k(const float* a, float* b, int nx, int ny) {
    auto idx = [&nx](int y, int x){ return y*nx + x; };
    float s = 2.0f;
    auto scaled = [s](float v) { return v + s; };
    s = 5.0f;
    int x = threadIdx.x, y = threadIdx.y;
    if (x < nx && y < ny) b[idx(y, x)] = scaled(a[idx(y, x)]);
}
launch k { nx = 8; ny = 4; a = arange(nx * ny); b = zeros(nx * ny); expect b == a + 2; }
"#;
    ok(src, &[], [1, 1, 1], [8, 4, 1]);
}

#[test]
fn expect_sides_computed_elementwise_report_as_before() {
    // `y == 2 * arange(n) + 1` and `c == a + b + 1` are compared a chunk at a time (no array of
    // the whole length); the verdict and the message are the ordinary comparison's: with
    // y = 2i + 1, `y == 2 * arange(n) + 2` fails at every one of n = 10000 elements, first at
    // index 0 (1 == 2). An integer `/` still truncates (7 / 2 = 3) and a one-element array
    // stands for every element.
    let src = r#"
__global__ void k(float* y, int* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { y[i] = 2.0f * i + 1.0f; q[i] = 3; }
}
launch k {
    n = 10000;
    y = zeros(n);
    q = zeros(n);
    seven = [7];
    grid = cdiv(n, 256); block = 256;
    expect y == 2 * arange(n) + 1;
    expect y == 2 * arange(n) + 2;
    expect q == seven / 2;
    expect -y < 0 * arange(n);
}
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    let verdicts: Vec<bool> = r.expects.iter().map(|e| e.passed).collect();
    assert_eq!(verdicts, [true, false, true, true]);
    assert_eq!(
        r.expects[1].detail.as_deref(),
        Some("4999 of 10000 elements differ; first at index 0: 1 == 2 is false")
    );
}

#[test]
fn sixty_four_bit_expects_are_exact() {
    // The kernel writes 2^63 + 1, 2^54 + 1 and 3 (a list for a 64-bit buffer holds its literals
    // exactly). As doubles 2^54 + 1 reads as 2^54; compared in integers the first two differ
    // from 2^63 and 2^54 by one, and `out - 1` equals them exactly. -1 in a `long long` buffer
    // is below 2^63 + 1; `2^54 + 1` against `2^54` with `>` holds.
    let src = r#"
__global__ void k(const unsigned long long* in, unsigned long long* out, long long* s) {
    int i = threadIdx.x;
    out[i] = in[i];
    s[i] = -(long long)(in[i] & 1ULL);
}
launch k {
    in = [9223372036854775809, 18014398509481985, 3];
    out = zeros(3); s = zeros(3);
    block = 3; grid = 1;
    expect out == [9223372036854775808, 18014398509481984, 3];
    expect out == [9223372036854775809, 18014398509481985, 3];
    expect out - 1 == [9223372036854775808, 18014398509481984, 2];
    expect out[1] > 18014398509481984;
    expect s < out;
    expect s == -1;
}
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    let verdicts: Vec<bool> = r.expects.iter().map(|e| e.passed).collect();
    assert_eq!(verdicts, [false, true, true, true, true, true]);
    assert_eq!(
        r.expects[0].detail.as_deref(),
        Some("2 of 3 elements differ; first at index 0: 9223372036854775809 == 9223372036854775808 is false")
    );
}

#[test]
fn sixty_four_bit_integers_that_cannot_be_exact_are_refused() {
    // `sum` computes in doubles: the two 2^53 + 1 read as 2^53 each, and their sum 2^54 would
    // "equal" 2^54 although the true sum is 2^54 + 2. Compared as integers, it is refused.
    let src = r#"
__global__ void k(unsigned long long* out) { out[threadIdx.x] = 9007199254740993ULL; }
launch k { out = zeros(2); block = 2; grid = 1; expect sum(out) == 18014398509481984; }
"#;
    let e = common::run(src, &[], None, None).expect_err("refused");
    assert!(format!("{e:?}").contains("InexactInteger"), "{e:?}");
}

#[test]
fn sixty_four_bit_scalar_parameters_are_set_exactly() {
    // bsc's postsort passes `lookup = K[1]` of a uint64 table, 0x20736f7274207472 =
    // 2338335168900658290, which a double rounds to 2338335168900658176: the parameter now gets
    // the element itself, and so do a literal past 2^53 (2^64 - 59 = 18446744073709551557) and
    // an `--arg`. `n = -(2^53 + 1)` in a `long long`, stored into the unsigned `out[2]`, is
    // 2^64 - 2^53 - 1 = 18437736874454810623.
    let src = r#"
__global__ void k(const unsigned long long* K, unsigned long long lookup, unsigned long long s,
                  long long n, unsigned long long* out) {
    out[0] = lookup; out[1] = s; out[2] = n; out[3] = K[1] == lookup;
}
launch k {
    K = [5, 2338335168900658290, 7];
    lookup = K[1]; s = 18446744073709551557; n = -9007199254740993;
    out = zeros(4); block = 1; grid = 1;
    expect out == [2338335168900658290, 18446744073709551557, 18437736874454810623, 1];
    expect lookup == 2338335168900658290;
}
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects_passed(), "{:?}", r.expects);
    let r = common::run(src, &[("s", "9007199254740993")], None, None).expect("runs");
    assert_eq!(
        r.expects[0].detail.as_deref(),
        Some("1 of 4 elements differ; first at index 1: 9007199254740993 == 18446744073709551557 is false")
    );
    // An integer converts modulo 2^bits, as C converts it: `-1` for the unsigned `s` is 2^64 -
    // 1, and `K[0] - 6 = -1` the same; `-1` for an `unsigned int` would be 4294967295.
    for value in ["-1", "K[0] - 6"] {
        let neg = src.replace("s = 18446744073709551557;", &format!("s = {value};"));
        let r = common::run(&neg, &[], None, None).expect("runs");
        assert_eq!(
            r.expects[0].detail.as_deref(),
            Some("1 of 4 elements differ; first at index 1: 18446744073709551615 == 18446744073709551557 is false"),
            "{value}"
        );
    }
    // A `float` parameter cannot take the element: it is refused, not rounded twice.
    let float = src
        .replace("unsigned long long s,", "float s,")
        .replace("s = 18446744073709551557;", "s = K[1];");
    let e = common::run(&float, &[], None, None).expect_err("refused");
    assert!(format!("{e:?}").contains("InexactInteger"), "{e:?}");
}

#[test]
fn expect_against_a_transpose_reads_columns() {
    // A 3 × 5 matrix transposed by the kernel (out[j·3 + i] = in[i·5 + j]) matches
    // transpose(in, 3, 5), compared a chunk at a time; against in itself 12 of 15 differ
    // (an element stays in place where i·5 + j = j·3 + i, j = 2i: (0, 0), (1, 2), (2, 4), at
    // 0, 7 and 14), first at index 1: out[1] = in[5] = 5 against in[1] = 1.
    let src = r#"
__global__ void k(const int* in, int* out) {
    int i = threadIdx.y, j = threadIdx.x;
    out[j * 3 + i] = in[i * 5 + j];
}
launch k { in = arange(15); out = zeros(15); block = (5, 3); grid = 1;
    expect out == transpose(in, 3, 5);
    expect out == in; }
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects[0].passed);
    assert_eq!(
        r.expects[1].detail.as_deref(),
        Some("12 of 15 elements differ; first at index 1: 5 == 1 is false")
    );
}

#[test]
fn chained_assignments_of_any_depth_assign_right_to_left() {
    // `=` is right-associative and yields its left operand, converted: c = -1.75 stores -1.75,
    // i = c is -1 (truncated), f = i is -1.0 and d = f is -1.0, so the sum is -4.75. A chain of
    // four (mmcv's `w1 = w2 = w3 = w4 = 0.;`) once panicked the parser's builder.
    let src = r#"
__global__ void k(float* o) {
    float c, f, d;
    int i;
    d = f = i = c = -1.75f;
    o[threadIdx.x] = c + i + f + d;
}
launch k { o = zeros(2); expect o == [-4.75, -4.75]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn extern_c_blocks_and_c_style_enum_typedefs() {
    // `extern "C" { ... }` only switches off name mangling: its kernel and function are the
    // file's. `typedef enum { ... } ACT;` and `typedef enum Tag { ... } Tag;` name int types
    // whose enumerators count from 0: RELU = 1, LEAKY = 2; ARANGE = 1. With a = LEAKY, x = t - 2
    // for t < 4: LEAKY gives 0.1x for x < 0, x otherwise: [-0.2, -0.1, 0, 1]; out[4] = ARANGE +
    // Funcs_t::FILL (C++ also qualifies by the typedef's name) = 1.
    let src = r#"
typedef enum { LOGISTIC, RELU, LEAKY } ACT;
typedef enum Funcs_t { FILL = 0, ARANGE = 1, } Funcs_t;
extern "C" {
__device__ float act(float x, ACT a) { return a == LEAKY ? (x > 0 ? x : 0.1f * x) : x; }
__global__ void k(float* out, ACT a) {
    int t = threadIdx.x;
    Funcs_t f = ARANGE;
    if (t < 4) out[t] = act(t - 2.0f, a);
    if (t == 4) out[4] = f + Funcs_t::FILL;
}
}
launch k { a = 2; out = zeros(5); block = 5; grid = 1;
    expect abs(out - [-0.2, -0.1, 0, 1, 1]) < 1e-7; }
"#;
    ok(src, &[], ONE, [5, 1, 1]);
}

#[test]
fn binary_literals_and_digit_separators() {
    // C++14: 0b1000 = 8, 0B11u = 3 (unsigned), 1'000'000 = 10^6, 0xFF'FF = 65535,
    // 0b1111'0000 = 240; 0b1 << 31 is an int shifted into the sign bit: -2147483648.
    // `#if 0b10 == 2` takes the binary literal in the preprocessor too.
    let src = r#"
#if 0b10 == 2 && 1'000 == 1000
#define OK 1
#endif
__global__ void k(long long* out) {
    out[0] = 0b1000;
    out[1] = 0B11u;
    out[2] = 1'000'000;
    out[3] = 0xFF'FF;
    out[4] = 0b1111'0000;
    out[5] = 0b1 << 31;
    out[6] = OK;
}
launch k { out = zeros(7); block = 1; grid = 1;
    expect out == [8, 3, 1000000, 65535, 240, -2147483648, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn if_constexpr_checks_only_the_branch_it_takes() {
    // With N = 2 the first branch runs; with N = 0 the second, whose `else` calls a function
    // that does not exist: as in a C++ template instance, the branch not taken is not checked.
    // N = 2: out = 2 * t; N = 0: out = t + 100.
    let src = r#"
template <int N> __global__ void k(int* out) {
    int t = threadIdx.x;
    if constexpr (N > 1) {
        out[t] = N * t;
    } else if constexpr (N == 0) {
        out[t] = t + 100;
    } else {
        out[t] = no_such_function(t);
    }
}
"#;
    for (n, want) in [(2, "[0, 2, 4, 6]"), (0, "[100, 101, 102, 103]")] {
        let run = format!(
            "{src}launch k<{n}> {{ out = zeros(4); block = 4; grid = 1; expect out == {want}; }}\n"
        );
        ok(&run, &[], ONE, [4, 1, 1]);
    }
    // A run-time condition is not a constant.
    let src = "__global__ void k(int* out) { if constexpr (threadIdx.x > 0) out[0] = 1; }\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::not_constant"]);
}

#[test]
fn member_type_aliases_and_static_assert() {
    // `using hip_type = float;` and `typedef int I;` inside a struct: `Conv::hip_type` outside,
    // `I` inside (here a member and a method's local). A template struct's member type may name
    // its parameter. out[t] = 2 * in[t] + Conv::one() (= 3) + b.get(0.25) (= 0.25 + 0.25).
    // static_assert: a true constant is nothing; non-constants (sizeof of a template argument
    // is constant too; `n` is not) are ignored.
    let src = r#"
struct Conv {
    static constexpr bool exists = true;
    using hip_type = float;
    typedef int I;
    I k;
    __device__ static I one() { I v = 3; return v; }
};
template <typename T> struct Box {
    using value_type = T;
    static_assert(sizeof(T) >= 1, "not empty");
    value_type v;
    __device__ value_type get(value_type x) const { value_type y = x + v; return y; }
};
static_assert(sizeof(float) == 4, "float is 4 bytes");
__global__ void k(float* out, const float* in, int n) {
    static_assert(sizeof(Conv::hip_type) == 4, "hip_type is float");
    static_assert(n > 0);
    static_assert(Conv::exists);
    Conv::hip_type v = in[threadIdx.x];
    Box<float> b;
    b.v = 0.25f;
    out[threadIdx.x] = 2 * v + Conv::one() + b.get(0.25f);
}
launch k { n = 4; in = arange(4); out = zeros(4); block = 4; grid = 1;
    expect out == arange(4) * 2 + 3.5; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A false constant condition stops the check with its message, at the condition.
    let src = "__global__ void k(int* out) {\n    static_assert(sizeof(int) == 8, \"64-bit int\");\n    out[0] = 1;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::static_assert"]);
    assert_eq!(common::position(&f), (2, 19));
    assert!(
        f.errors[0].to_string().contains("64-bit int"),
        "{}",
        f.errors[0]
    );
    // A condition on a constant whose declaration was an error (a recursive `constexpr`
    // helper, refused once where it recurses: fast-hadamard-transform's `cilog2`) is not
    // judged: it said "static assertion failed" as if a compiler would stop there too.
    let src = "constexpr int cilog2(int v) { return v > 0 ? 1 + cilog2(v >> 1) : -1; }\n\
        __global__ void k(int* out) {\n    constexpr int L = cilog2(8);\n    \
        static_assert(1 << L == 8, \"pow2\");\n    out[0] = L;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn numeric_limits_are_the_values_of_limits() {
    // <limits>: float max 3.4028234663852886e38, min (smallest normal) 2^-126, lowest -max,
    // epsilon 2^-23, infinity; int max 2^31 - 1, min -2^31; unsigned char max 255; double
    // epsilon 2^-52; half max 65504. Through a template parameter (T = float) and
    // cuda::std::, as vllm and DeepSpeed write them.
    let src = r#"
template <typename T> __device__ T lowest() { return std::numeric_limits<T>::lowest(); }
__global__ void k(float* f, double* d, long long* i) {
    f[0] = std::numeric_limits<float>::max();
    f[1] = std::numeric_limits<float>::min();
    f[2] = lowest<float>();
    f[3] = std::numeric_limits<float>::epsilon();
    f[4] = isinf(std::numeric_limits<float>::infinity()) && std::numeric_limits<float>::infinity() > 0;
    f[5] = isnan(std::numeric_limits<float>::quiet_NaN()) ? 1.0f : 0.0f;
    f[6] = cuda::std::numeric_limits<half>::max();
    i[0] = std::numeric_limits<int>::max();
    i[1] = ::std::numeric_limits<int>::min();
    i[2] = std::numeric_limits<unsigned char>::max();
    i[3] = std::numeric_limits<unsigned int>::max();
    i[4] = std::numeric_limits<float>::digits;
    i[5] = std::numeric_limits<int>::max() + 1;   // int arithmetic: wraps
    d[0] = std::numeric_limits<double>::epsilon();
    d[1] = std::numeric_limits<double>::max();
}
launch k { f = zeros(7); d = zeros(2); i = zeros(6); block = 1; grid = 1;
    expect f == [3.4028234663852886e38, 1.1754943508222875e-38, -3.4028234663852886e38,
                 1.1920928955078125e-07, 1, 1, 65504];
    expect i == [2147483647, -2147483648, 255, 4294967295, 24, -2147483648];
    expect d == [2.220446049250313e-16, 1.7976931348623157e308]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn numeric_limits_of_64_bit_integers() {
    // faiss's Limits<long>: int64 min and lowest are -2^63 = -9223372036854775808 (simt
    // panicked computing -(2^63)), max 2^63 - 1; uint64 max 2^64 - 1 = 18446744073709551615;
    // int8 min -128.
    let src = r#"
__global__ void k(long long* i, unsigned long long* u) {
    i[0] = std::numeric_limits<long long>::min();
    i[1] = std::numeric_limits<int64_t>::lowest();
    i[2] = std::numeric_limits<long long>::max();
    i[3] = std::numeric_limits<signed char>::min();
    u[0] = std::numeric_limits<unsigned long long>::max();
}
launch k { i = zeros(4); u = zeros(1); block = 1; grid = 1;
    expect i == [-9223372036854775808, -9223372036854775808, 9223372036854775807, -128];
    expect u == [18446744073709551615]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn erf_and_erfc_and_global_qualified_math() {
    // Values from Python's math.erf / math.erfc (correctly rounded doubles), rounded to float
    // for the `f` forms: erf(0.5) = 0.5204998778130465, erfc(0.5) = 0.4795001221869535,
    // erf(-1) = -0.8427007929497149, erfc(3) = 2.2090496998585438e-05; ::erf and ::expf are the
    // global namespace's (C++ <cmath>), erf of a float is the float overload.
    let src = r#"
__global__ void k(float* f, double* d) {
    float x = 0.5f;
    f[0] = erff(x);
    f[1] = erfcf(x);
    f[2] = ::erf(x);
    f[3] = ::expf(0.0f);
    f[4] = erfcf(3.0f);
    d[0] = erf(0.5);
    d[1] = ::erfc(0.5);
    d[2] = erf(-1.0);
}
launch k { f = zeros(5); d = zeros(3); block = 1; grid = 1;
    expect f == [0.5204998778130465, 0.4795001221869535, 0.5204998778130465, 1,
                 2.2090496998585438e-05];
    expect d == [0.5204998778130465, 0.4795001221869535, -0.8427007929497149]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn conditional_on_vectors_evaluates_one_side() {
    // float4 c = t % 2 ? a : b: odd threads get a = (1, 2, 3, 4), even b = (5, 6, 7, 8).
    // The side not taken is not evaluated: in[t] past the end of `in` is not read for t >= 2.
    let src = r#"
__global__ void k(float4* out, const float4* in) {
    int t = threadIdx.x;
    float4 a = make_float4(1, 2, 3, 4), b = make_float4(5, 6, 7, 8);
    float4 c = (t % 2) ? a : b;
    float4 d = t < 2 ? in[t] : make_float4(0, 0, 0, 0);
    out[t] = c;
    out[4 + t] = d;
}
launch k { in = arange(8); out = zeros(32); block = 4; grid = 1;
    expect out == [5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4,
                   0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn inline_ptx_outside_the_subset_is_reported_as_unsupported() {
    let src = "__global__ void k(unsigned* out) {\n    unsigned b;\n    asm volatile(\"red.global.add.u32 [%0], %1;\" :: \"l\"(out), \"r\"(b));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert_eq!(common::position(&f), (3, 5));
    assert!(
        f.errors[0]
            .to_string()
            .contains("the PTX instruction `red.global.add.u32 [%0], %1`"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn type_keywords_end_at_a_word_boundary_and_qualifiers_may_follow_the_type() {
    // `short intCoord` declares a short named intCoord (it read as `short int` then `Coord`),
    // as do `unsigned charge`, `long integral`, `unsigned long integer2` and `signed shorty`;
    // `unsigned long int plain` is still the three-word type. `__device__ int inline f` puts a
    // qualifier after the return type, as CS267's particle code does. Per thread i:
    // i + 2 + 3 + 4 + 5 + 1 + twice(0) = i + 15; out[4 + i] gets int 0, whose bits are 0.0f.
    let src = r#"
__device__ int inline twice(int x) { return 2 * x; }
__device__ void __forceinline__ store(int* p, int v) { *p = v; }
__global__ void k(float* out, const float* in) {
    int i = threadIdx.x;
    short intCoord = static_cast<short>(in[i]);
    unsigned charge = 2u;
    long integral = 3;
    unsigned long integer2 = 4;
    unsigned long int plain = 5;
    signed shorty = 1;
    out[i] = intCoord + charge + integral + integer2 + plain + shorty + twice(0);
    store((int*)out + 4 + i, 0);
}
launch k { in = arange(4); out = ones(8); expect out == [15, 16, 17, 18, 0, 0, 0, 0]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn named_namespaces_scope_function_and_type_names() {
    // `scale` is declared in `hoomd::fast` (×2) and `hoomd::slow` (×3). fast::twice calls
    // `scale` unqualified: its own namespace's, 2·x. At file scope, after
    // `using namespace hoomd::slow;`, `scale(1)` is slow's. Out[i] for x = 1:
    //   fast::scale 2 + slow::scale 3 + hoomd::fast::twice 2·2 = 4 + scale 3 + inner 3 = 15,
    // where `inner`, in namespace hoomd, calls `slow::scale` (hoomd::slow) → 3.
    // `hoomd::Scalar` is the typedef in namespace hoomd (double).
    let src = r#"
namespace hoomd {
typedef double Scalar;
namespace fast {
__device__ inline float scale(float x) { return 2.0f * x; }
__device__ inline float twice(float x) { return 2.0f * scale(x); }
}
namespace slow {
__device__ inline float scale(float x) { return 3.0f * x; }
}
__device__ inline float inner(float x) { return slow::scale(x); }
}
using namespace hoomd::slow;
__device__ inline hoomd::Scalar as_scalar(float x) { return (hoomd::Scalar)x; }

__global__ void k(float* out, double* d) {
    out[threadIdx.x] = hoomd::fast::scale(1.0f) + hoomd::slow::scale(1.0f)
        + hoomd::fast::twice(1.0f) + scale(1.0f) + hoomd::inner(1.0f);
    d[threadIdx.x] = as_scalar(0.5f);
}
launch k { out = zeros(4); d = zeros(4); block = 4; grid = 1;
    expect out == full(4, 15); expect d == full(4, 0.5); }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_local_array_initialised_with_braces_and_no_equals_sign() {
    // Megatron's softmax: `acc_t sum[WARP_BATCH] { 0.0f };` is `= { 0.0f }`: the rest are 0.
    let src = r#"
__global__ void k(float* out) {
    float sum[3] { 2.0f };
    sum[1] += 1.0f;
    out[threadIdx.x] = sum[0] + sum[1] + sum[2];
}
launch k { out = zeros(4); expect out == [3, 3, 3, 3]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_assignment_in_parentheses_is_a_value_of_the_targets_type() {
    let src = r#"
__device__ int next(int i) { return i + 3; }
__device__ int f(int t) { return t - 2; }
__global__ void k(int* out, int* s, unsigned char* c) {
    int t = threadIdx.x;
    int a, b;
    a = (b = 5) + t;                 // b = 5, a = 5 + t
    int x;
    int pos = 0;
    if ((x = f(t)) > 0) pos = x;     // t - 2 where t > 2: lane 3 gets 1
    int i = 0, n = 0;
    while ((i = next(i)) < 10) n++;  // i = 3, 6, 9 enter; 12 stops: n = 3, i = 12
    int y = 1;
    int z = (y += 4) * 2;            // y = 5, z = 10
    unsigned char u;
    int w = (u = 300 + t);           // 300 + t = 0x12c + t: u keeps the low byte, 44 + t
    c[t] = (s[t] = 7 * t) + 1;       // s[t] = 7t; c[t] = 7t + 1, not a reload of s[t]
    out[6 * t] = a; out[6 * t + 1] = pos; out[6 * t + 2] = n * 100 + i;
    out[6 * t + 3] = z * 100 + y; out[6 * t + 4] = w; out[6 * t + 5] = b;
}
launch k {
    out = zeros(24);
    s = zeros(4);
    c = zeros(4);
    expect out == [5, 0, 312, 1005, 44, 5,  6, 0, 312, 1005, 45, 5,
                   7, 0, 312, 1005, 46, 5,  8, 1, 312, 1005, 47, 5];
    expect s == [0, 7, 14, 21];
    expect c == [1, 8, 15, 22];
}
"#;
    let r = ok(src, &[], ONE, [4, 1, 1]);
    // The value of `(s[t] = 7 * t)` is the stored value, kept as a compiler keeps it in a
    // register: no load at all; stores: s, c and six of out, one warp instruction each.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (0, 8));
}

#[test]
fn a_compound_assignment_is_a_condition_without_extra_parentheses() {
    // QuEST's `while (x >>= 1) ans++;` is log2: 1 → 0, 8 → 3, 1000 → 9, 65536 → 16. The
    // same in `do ... while (m >>= 1)` counts one more pass (the body runs before the test),
    // `if (y -= 1)` is taken unless y was 1, and `for (...; j -= 1;)` runs j times.
    let src = r#"
__global__ void k(unsigned int* a, unsigned int* b) {
    unsigned int t = threadIdx.x;
    unsigned int x = a[t], ans = 0;
    while (x >>= 1) ans++;
    unsigned int m = a[t], passes = 0;
    do { passes++; } while (m >>= 1);
    unsigned int y = t + 1, taken = 0;
    if (y -= 1) taken = 1;
    unsigned int steps = 0;
    for (unsigned int j = t; j -= 0; j--) steps++;
    a[t] = ans;
    b[4 * t] = passes; b[4 * t + 1] = taken; b[4 * t + 2] = y; b[4 * t + 3] = steps;
}
launch k {
    a = [1, 8, 1000, 65536];
    b = zeros(16);
    expect a == [0, 3, 9, 16];
    expect b == [1, 0, 0, 0,  4, 1, 1, 1,  10, 1, 2, 2,  17, 1, 3, 3];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A plain `=` there stays a probable typo for `==` (C allows it; write `if ((x = f()))`).
    let f = err(
        "__global__ void k(int* a) { int x = a[0]; if (x = 3) a[1] = x; }\nlaunch k { a = zeros(4); }",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::parse::syntax"]);
    let help = miette::Diagnostic::help(&f.errors[0]).map(|h| h.to_string());
    assert_eq!(
        help.as_deref(),
        Some("did you mean `==`? `=` assigns; a condition compares")
    );
}

#[test]
fn a_compound_assignment_to_memory_is_a_value() {
    // `(a[t] += 5)` is the new value, of the element's type: a[t] = t + 5, v = t + 5; the
    // `unsigned char` c[t] = 250 + t, `(c[t] += 10)` wraps to 4 + t. One load and one store of
    // each element (as the statement `a[t] += 5;`), and the out store: two load requests,
    // three stores.
    let src = r#"
__global__ void k(int* a, unsigned char* c, int* out) {
    int t = threadIdx.x;
    int v = (a[t] += 5);
    int w = (c[t] += 10);
    out[t] = 1000 * v + w;
}
launch k {
    a = arange(4); c = arange(4) + 250; out = zeros(4);
    expect a == arange(4) + 5;
    expect c == arange(4) + 4;
    expect out == 1000 * (arange(4) + 5) + arange(4) + 4;
}
"#;
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (2, 3));
}

#[test]
fn assignments_used_as_values_that_simt_refuses() {
    // A target with a step in it would be evaluated twice.
    for body in [
        "int i = 0; int v = (a[i++] = 2);",
        "int* p; int v = ((p = a) != 0);",
    ] {
        let src = format!(
            "__global__ void k(int* a) {{ {body} a[1] = v; }}\nlaunch k {{ a = zeros(4); }}"
        );
        let f = err(&src, &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{body}");
    }
}

#[test]
fn a_namespace_function_is_found_only_where_cpp_lookup_finds_it() {
    // C++ [basic.lookup.unqual]: `foo::max` (a - b) is not seen by the kernel's plain
    // `max(1, 3)`, which is CUDA's max: 3 (a glm-like maths namespace made it -2, silently).
    // `using foo::twice;` in the body brings in twice: 2·1 = 2. `F::max(5, 1)` through the
    // alias `namespace F = foo;` is foo's: 4. `foo::inner(0)` calls `max` inside foo, foo's:
    // 0 - 1 = -1. `S::max(2, 3)` is the struct's static member: 6. 3 + 2 + 4 - 1 + 6 = 14.
    // k2's `using namespace foo;` brings in twice: 2·2 = 4.
    let src = r#"
namespace foo {
__device__ float twice(float a) { return 2.0f * a; }
__device__ float max(float a, float b) { return a - b; }
template <typename T> __device__ T inner(T a) { return max(a, a + 1.0f); }
}
namespace F = foo;
struct S { __device__ static float max(float a, float b) { return a * b; } };
__global__ void k(float* out) {
    using foo::twice;
    out[threadIdx.x] = twice(1.0f) + max(1.0f, 3.0f) + F::max(5.0f, 1.0f)
        + foo::inner(0.0f) + S::max(2.0f, 3.0f);
}
__global__ void k2(float* out) {
    using namespace foo;
    out[threadIdx.x] = twice(2.0f);
}
"#;
    ok(
        &format!("{src}launch k {{ out = zeros(2); expect out == [14, 14]; }}\n"),
        &[],
        ONE,
        [2, 1, 1],
    );
    ok(
        &format!("{src}launch k2 {{ out = zeros(2); expect out == [4, 4]; }}\n"),
        &[],
        ONE,
        [2, 1, 1],
    );
    // Without `using`, a function only `foo` declares is not found from file scope.
    let hidden = r#"
namespace foo { __device__ float twice(float a) { return 2.0f * a; } }
__global__ void k(float* out) { out[threadIdx.x] = twice(1.0f); }
launch k { out = zeros(2); }
"#;
    let f = err(hidden, &[], Some(ONE), Some([2, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_function"],
        "{}",
        describe(&f)
    );
}

#[test]
fn a_call_through_a_namespace_the_file_never_declares_is_unknown() {
    // AITemplate's groupnorm calls `cutlass::fast_tanh(x)` for a float x; without CUTLASS's
    // headers the file declares no `cutlass`, and nvcc rejects the call. simt used to drop the
    // qualifier and call the file's own `half fast_tanh(half)`, in half precision.
    let src = r#"
#include <cuda_fp16.h>
__device__ half fast_tanh(half x) { return x; }
__global__ void k(float* out) { out[threadIdx.x] = cutlass::fast_tanh(0.5f); }
launch k { out = zeros(2); }
"#;
    let f = err(src, &[], Some(ONE), Some([2, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_function"],
        "{}",
        describe(&f)
    );
    let text = simt::cli::render(&f);
    assert!(
        text.contains("declares no namespace, class or type `cutlass`"),
        "{text}"
    );
    // As a statement too; and a nested namespace's inner name (`namespace a::b`) is one a
    // call inside `a` may start with: b::f is a::b::f, 3.
    let stmt = src.replace(
        "out[threadIdx.x] = cutlass::fast_tanh(0.5f);",
        "cutlass::fast_tanh(0.5f);",
    );
    let f = err(&stmt, &[], Some(ONE), Some([2, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_function"],
        "{}",
        describe(&f)
    );
    let nested = r#"
namespace a::b { __device__ float f() { return 3.0f; } }
namespace a { __device__ float g() { return b::f(); } }
__global__ void k(float* out) { out[threadIdx.x] = a::g(); }
launch k { out = zeros(2); expect out == 3; }
"#;
    ok(nested, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_call_through_a_namespace_or_class_without_that_function_is_unknown() {
    // `detail::twice(1.0f)` where namespace `detail` exists but declares no `twice`, and
    // `Helper::twice(1.0f)` where struct `Helper` has no such member: nvcc rejects both. simt
    // used to drop the qualifier and run the file's own `twice` (2·1 = 2 in `out`).
    let src = r#"
__device__ float twice(float x) { return 2.0f * x; }
namespace detail { __device__ float other(float x) { return x; } }
struct Helper { int a; };
__global__ void k(float* out) { out[threadIdx.x] = CALL(1.0f); }
launch k { out = zeros(2); }
"#;
    for (call, help) in [
        (
            "detail::twice",
            "namespace `detail` declares no function `twice`",
        ),
        ("Helper::twice", "`Helper` has no member function `twice`"),
    ] {
        let f = err(&src.replace("CALL", call), &[], Some(ONE), Some([2, 1, 1]));
        assert_eq!(
            codes(&f),
            ["simt::check::unknown_function"],
            "{call}: {}",
            describe(&f)
        );
        let text = simt::cli::render(&f);
        assert!(text.contains(help), "{text}");
    }
    // A namespace that declares only a struct is still a namespace without `twice`.
    let only_struct = src.replace(
        "__device__ float other(float x) { return x; }",
        "struct Tag { int a; };",
    );
    let f = err(
        &only_struct.replace("CALL", "detail::twice"),
        &[],
        Some(ONE),
        Some([2, 1, 1]),
    );
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_function"],
        "{}",
        describe(&f)
    );
}

#[test]
fn a_namespace_function_defined_outside_it_within_another_is_the_inner_ones() {
    // `float detail::f(float)` written inside namespace a defines a::detail::f, not the file's
    // detail::f(int): a kernel at file scope calling detail::f(1.0f) calls detail::f(int), 1
    // (g++ agrees). Inside a, the body finds a's g (10), not the file's (1): a::k writes 10.
    let merge = r#"
namespace detail { __device__ float f(int x) { return 1.0f; } }
namespace a {
namespace detail { __device__ float f(float x); }
__device__ float detail::f(float x) { return 2.0f; }
}
__global__ void k(float* out) { out[threadIdx.x] = detail::f(1.0f); }
launch k { out = zeros(2); expect out == 1; }
"#;
    ok(merge, &[], ONE, [2, 1, 1]);
    let lookup = r#"
__device__ float g() { return 1.0f; }
namespace a {
__device__ float g() { return 10.0f; }
namespace detail { __device__ float f(float x); }
__device__ float detail::f(float x) { return x * g(); }
__global__ void k(float* out) { out[threadIdx.x] = detail::f(1.0f); }
}
launch a::k { out = zeros(2); expect out == 10; }
"#;
    ok(lookup, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_namespace_that_brings_in_a_function_with_using_is_called_through() {
    // `namespace util { using std::min; using std::max; }` then `util::min(3, 2) +
    // util::max(1, 5)` = 2 + 5 = 7: the namespace declares neither, but brings both in.
    let src = r#"
#include <algorithm>
namespace util { using std::min; using std::max; __device__ float z(float x) { return x; } }
__global__ void k(float* out) { out[threadIdx.x] = util::min(3.0f, 2.0f) + util::max(1.0f, 5.0f); }
launch k { out = zeros(2); expect out == 7; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_namespace_function_defined_outside_its_namespace_is_that_namespaces() {
    // `float detail::f(float x) {...}` after `namespace detail { float f(float x); }` defines
    // detail's f; its body looks names up in `detail` (g is detail's, 10, not the file's, 0).
    // S::g is a struct's static member defined outside it. 3·10 + (1 + 1) = 32.
    let src = r#"
__device__ float g() { return 0.0f; }
namespace detail {
__device__ float g() { return 10.0f; }
__device__ float f(float x);
}
__device__ float detail::f(float x) { return x * 3.0f * g(); }
struct S { static __device__ float g(float x); };
__device__ float S::g(float x) { return x + 1.0f; }
__global__ void k(float* out) { out[threadIdx.x] = detail::f(1.0f) + S::g(1.0f); }
launch k { out = zeros(2); expect out == 32; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn the_global_scope_qualifier_names_the_files_variable_past_a_local() {
    // ramsesGPU's `real_t &dx = ::gParams.dx;`: `::gv` is the file's `__device__` gv (3) past
    // the kernel's own gv (100), `::gP.dx` the `__constant__` struct's member (5), `::N` the
    // file's constant (4): 2·3 + 100 + 5 + 4 = 115.
    let src = r#"
const int N = 4;
struct P { float dx; };
__constant__ P gP;
__device__ float gv;
__global__ void k(float* o) {
    float gv = 100.0f;
    const float& dx = ::gP.dx;
    o[threadIdx.x] = ::gv * 2.0f + gv + dx + ::N;
}
launch k { o = zeros(2); gv = 3.0; gP = [5.0]; expect o == 115; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn an_unqualified_call_finds_the_functions_of_its_struct_arguments_namespace() {
    // C++ [basic.lookup.argdep]: `len2(p)` of a `geo::P` finds `geo::len2` (1 + 4 = 5);
    // `mid(p, q)` returns a `geo::P` found the same way: (2, 3), whose len2 is 13. `len2(2.0f)`
    // has no struct argument: not found (the error below). thrust's `abs(z)` of a
    // `thrust::complex<float>` is `thrust::abs`: |3 + 4i| = 5. 5 + 13 + 5 = 23.
    let src = r#"
#include <thrust/complex.h>
namespace geo {
struct P { float x, y; };
__device__ float len2(P p) { return p.x * p.x + p.y * p.y; }
__device__ P mid(P a, P b) { return P{(a.x + b.x) / 2, (a.y + b.y) / 2}; }
}
__global__ void k(float* out) {
    geo::P p{1.0f, 2.0f}, q{3.0f, 4.0f};
    thrust::complex<float> z(3.0f, 4.0f);
    out[threadIdx.x] = len2(p) + len2(mid(p, q)) + abs(z);
}
launch k { out = zeros(2); expect out == [23, 23]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    let scalar = src.replace("len2(p) +", "len2(2.0f) +");
    let f = err(&scalar, &[], Some(ONE), Some([2, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_function"],
        "{}",
        describe(&f)
    );
    // A local lambda named like a namespace function: ordinary lookup finds the variable and
    // C++ looks no further, so `len2(p)` is the lambda's 100: 100 + 13 + 5 = 118.
    let local = src
        .replace(
            "    thrust::complex<float> z(3.0f, 4.0f);",
            "    thrust::complex<float> z(3.0f, 4.0f);\n    auto len2 = [](geo::P) { return 100.0f; };",
        )
        .replace("len2(mid(p, q))", "geo::len2(mid(p, q))")
        .replace("[23, 23]", "[118, 118]");
    ok(&local, &[], ONE, [2, 1, 1]);
    // The file's own `abs(float)` takes no complex: both sets are looked in, and `abs(z)` is
    // still thrust's 5; `abs(-2.0f)` the file's 2 (an `abs(geo::P)` of the file's would be
    // called instead of a namespace's, as simt does not rank the two sets together).
    let namesake = src
        .replace(
            "__global__ void k",
            "__device__ float abs(float x) { return x < 0 ? -x : x; }\n__global__ void k",
        )
        .replace("+ abs(z);", "+ abs(z) + abs(-2.0f);")
        .replace("[23, 23]", "[25, 25]");
    ok(&namesake, &[], ONE, [2, 1, 1]);
    // ns::g takes two arguments: not viable for `g(v)`, which calls the file's g(float)
    // through V's conversion to float: 2 + 1 = 3.
    let conversion = r#"
namespace ns {
struct V { float x; __device__ operator float() const { return x; } };
__device__ float g(V a, int n) { return a.x * n; }
}
__device__ float g(float f) { return f + 1.0f; }
__global__ void k(float* out) {
    ns::V v{2.0f};
    out[0] = g(v);
}
launch k { out = zeros(1); expect out == [3]; }
"#;
    ok(conversion, &[], ONE, ONE);
}

#[test]
fn a_namespace_template_that_deduces_nothing_leaves_the_call_to_the_global_function() {
    // HOOMD: inside `namespace hoomd`, `dot(d, d)` of two `float3` finds hoomd's template
    // `dot(const vec3<Real>&, ...)` first; no `Real` deduces from a float3, so C++ drops it,
    // and argument-dependent lookup (float3 is a global type) adds the file's `dot`:
    // 1·1 + 2·2 + 2·2 = 9, sqrt 3. A `vec3<float>` argument deduces: hoomd's, a.x·b.x = 4.
    let src = r#"
inline __device__ float dot(const float3& a, const float3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
namespace hoomd {
template<class Real> struct vec3 { Real x, y, z; };
template<class Real> __device__ inline Real dot(const vec3<Real>& a, const vec3<Real>& b) { return a.x * b.x; }
__global__ void k(float* out) {
    float3 d = make_float3(1.0f, 2.0f, 2.0f);
    vec3<float> v{2.0f, 5.0f, 7.0f};
    out[0] = sqrtf(dot(d, d));
    out[1] = dot(v, v);
}
}
launch hoomd::k { out = zeros(2); grid = 1; block = 1; expect out == [3, 4]; }
"#;
    ok(src, &[], ONE, ONE);
    // Written qualified, `hoomd::dot(d, d)` names hoomd's alone, which deduces nothing (g++:
    // "no matching function").
    let qualified = src.replace("sqrtf(dot(d, d))", "sqrtf(hoomd::dot(d, d))");
    let f = err(&qualified, &[], Some(ONE), Some(ONE));
    assert_eq!(
        codes(&f),
        ["simt::check::template_arguments"],
        "{}",
        describe(&f)
    );
    // A scalar argument has no namespace to bring in: the template is all lookup found, and
    // it takes a struct (as g++: "no matching function").
    let scalar = src
        .replace("float3& a, const float3& b", "float a, float b")
        .replace(
            "a.x * b.x + a.y * b.y + a.z * b.z; }\nnamespace",
            "a * b; }\nnamespace",
        )
        .replace("sqrtf(dot(d, d))", "dot(1.0f, 2.0f)");
    let f = err(&scalar, &[], Some(ONE), Some(ONE));
    assert_eq!(
        codes(&f),
        ["simt::check::no_viable_overload"],
        "{}",
        describe(&f)
    );
}

#[test]
fn a_launch_names_a_function_of_its_kernel_s_namespace() {
    // vllm's `activation_kernel<float, gelu_new_kernel<float>>`: the launch section is read in
    // the kernel's namespace `v`, so dbl<float> (2·2 = 4) and tri (3·2 = 6) are v's.
    let src = r#"
namespace v {
template <typename T, T (*F)(const T&)>
__global__ void act(T* out) { out[threadIdx.x] = F((T)2); }
template <typename T> __device__ T dbl(const T& x) { return x + x; }
__device__ float tri(const float& x) { return 3 * x; }
}
"#;
    // vllm's host code names the kernel and the function with the namespace too:
    // `launch v::act<float, v::dbl<float>>`.
    for (kernel, args, value) in [
        ("act", "float, dbl<float>", 4),
        ("act", "float, tri", 6),
        ("v::act", "float, v::dbl<float>", 4),
        ("v::act", "float, dbl<float>", 4),
    ] {
        let launch = format!(
            "launch {kernel}<{args}> {{ out = zeros(2); expect out == [{value}, {value}]; }}"
        );
        ok(&format!("{src}{launch}\n"), &[], ONE, [2, 1, 1]);
    }
}

#[test]
fn file_scope_shared_arrays_belong_to_each_kernel_that_uses_them() {
    // Varetto's course code: `__shared__ real_t cache[BLOCK_SIZE];` at file scope, written by a
    // `__device__` helper and read by the kernel; `extern __shared__` sized by the launch.
    let kernels = r#"
typedef float real_t;
__shared__ real_t cache[32];
extern __shared__ float dyn[];
__device__ void put(const float *in) { cache[threadIdx.x] = in[threadIdx.x + blockIdx.x * 32]; }
__global__ void reverse(const float *in, float *out) {
    put(in);
    __syncthreads();
    out[threadIdx.x + blockIdx.x * 32] = cache[31 - threadIdx.x];
}
__global__ void shift(const float *in, float *out) {
    dyn[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dyn[(threadIdx.x + 1) % 32];
}
__global__ void plain(float *out) { out[threadIdx.x] = 1.0f; }
"#;
    // Each block has its own cache: block b writes out[32b + j] = in[32b + 31 - j].
    let reversed: Vec<String> = (0..2)
        .flat_map(|b| (0..32).map(move |j| (32 * b + 31 - j).to_string()))
        .collect();
    let launches = [
        format!(
            "launch reverse {{ in = arange(64); out = zeros(64); expect out == [{}]; }}",
            reversed.join(", ")
        ),
        "launch shift { in = arange(32); out = zeros(32); dyn_smem = 128; expect out == (arange(32) + 1) % 32; }".to_string(),
        "launch plain { out = zeros(32); expect out == ones(32); }".to_string(),
    ];
    let smem: Vec<u64> = launches
        .iter()
        .zip([[2, 1, 1], ONE, ONE])
        .map(|(l, grid)| {
            ok(&format!("{kernels}{l}"), &[], grid, [32, 1, 1])
                .launch
                .smem_per_block
        })
        .collect();
    // Shared memory per block: 32 floats (128 bytes) for `reverse`, which uses `cache` through
    // `put`; only its 128 dynamic bytes for `shift`; none for `plain`.
    assert_eq!(smem, [128, 128, 0]);
}

#[test]
fn a_nested_namespace_definition_opens_each_namespace() {
    // PyTorch's ATen files open with C++17's `namespace at::native {`: its functions are
    // `at::native::f`, seen unqualified from inside it.
    let src = r#"
namespace at::native {
__device__ float twice(float x) { return 2.0f * x; }
__global__ void k(float* x) { x[threadIdx.x] = at::native::twice(1.0f) + twice(0.5f); }
}
launch k { x = zeros(4); expect x == full(4, 3); }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_elaborated_enum_type_names_the_enum() {
    // C's `enum pauliOpType op` (QuEST's headers): the enum type, as `pauliOpType op` is.
    // PAULI_Y = 2; through the pointer member of the struct, codes[1] = PAULI_Z = 3: 2 + 3 = 5.
    let src = r#"
enum pauliOpType {PAULI_I=0, PAULI_X=1, PAULI_Y=2, PAULI_Z=3};
struct Hamil { enum pauliOpType* codes; int n; };
__device__ int code(enum pauliOpType p) { return (int)p; }
__global__ void k(int* a, enum pauliOpType* codes) {
    enum pauliOpType op = PAULI_Y;
    a[threadIdx.x] = code(op) + (int)codes[1];
}
launch k { a = zeros(2); codes = [0, 3]; expect a == [5, 5]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn volatile_may_come_before_shared() {
    // HSOpticalFlow's `volatile __shared__ float t[64];` is `__shared__ volatile float t[64];`:
    // thread i reads what thread 63 - i wrote.
    let src = r#"
__global__ void k(float* out) {
    volatile __shared__ float t[64];
    t[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = t[63 - threadIdx.x];
}
launch k { out = zeros(64); expect out == 63 - arange(64); }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

/// `frexpf`/`modff` (a value and a part stored through a pointer), `ilogbf` and `logbf`, and the
/// `double` forms, against glibc: the table is gcc -O0 on the same calls, printed as the bits
/// of each `float` result (`memcpy` into an `int`). Inputs (bits):
/// 0, -0, 1, -0.75, 3.5, 1e30, a subnormal (0x116c2), the smallest subnormal, inf, -inf, NaN,
/// FLT_MAX. C: for each x, `m = frexpf(x, &e)`, `f = modff(x, &ip)`, `ilogbf(x)`, `logbf(x)`;
/// doubles likewise for 0.75, -1e300, 3e-310 (subnormal), 5.5, -2.25. By hand for a few: 3.5 =
/// 0.875 · 2^2 (0.875 is 0x3f600000 = 1063256064), modff(3.5) = 0.5 (1056964608) and 3
/// (1077936128); ilogbf(0) and of NaN are INT_MIN, of inf INT_MAX; logbf(0) = -inf (-8388608).
#[test]
fn frexp_modf_ilogb_and_logb_as_glibc_computes_them() {
    let src = r#"
__global__ void k(const int* bits, int* fm, int* fe, int* mf, int* mi, int* il, int* lb) {
    int t = threadIdx.x;
    float x = __int_as_float(bits[t]);
    int e = 12345;
    float m = frexpf(x, &e);
    fm[t] = __float_as_int(m);
    fe[t] = e;
    float ip;
    mf[t] = __float_as_int(modff(x, &ip));
    mi[t] = __float_as_int(ip);
    il[t] = ilogbf(x);
    lb[t] = __float_as_int(logbf(x));
}
launch k {
    bits = [0, -2147483648, 1065353216, -1086324736, 1080033280, 1900671690, 71362, 1,
            2139095040, -8388608, 2143289344, 2139095039];
    fm = zeros(12); fe = zeros(12); mf = zeros(12); mi = zeros(12); il = zeros(12); lb = zeros(12);
    expect fm == [0, -2147483648, 1056964608, -1086324736, 1063256064, 1061810890, 1057710336,
                  1056964608, 2139095040, -8388608, 2143289344, 1065353215];
    expect fe == [0, 0, 1, 0, 2, 100, -132, -148, 0, 0, 0, 128];
    expect mf == [0, -2147483648, 0, -1086324736, 1056964608, 0, 71362, 1, 0, -2147483648,
                  2143289344, 0];
    expect mi == [0, -2147483648, 1065353216, -2147483648, 1077936128, 1900671690, 0, 0,
                  2139095040, -8388608, 2143289344, 2139095039];
    expect il == [-2147483648, -2147483648, 0, -1, 1, 99, -133, -149, 2147483647, 2147483647,
                  -2147483648, 127];
    expect lb == [-8388608, -8388608, 0, -1082130432, 1065353216, 1120272384, -1023082496,
                  -1022033920, 2139095040, 2139095040, 2143289344, 1123942400];
}
"#;
    ok(src, &[], ONE, [12, 1, 1]);
    let doubles = r#"
__global__ void k(const double* x, double* fm, int* fe, double* mf, double* mi, int* il, double* lb) {
    int t = threadIdx.x;
    int e;
    fm[t] = frexp(x[t], &e);
    fe[t] = e;
    double ip;
    mf[t] = modf(x[t], &ip);
    mi[t] = ip;
    il[t] = ilogb(x[t]);
    lb[t] = logb(x[t]);
}
launch k {
    x = [0.75, -1e300, 3e-310, 5.5, -2.25];
    fm = zeros(5); fe = zeros(5); mf = zeros(5); mi = zeros(5); il = zeros(5); lb = zeros(5);
    expect fm == [0.75, -0.74661089480257514, 0.862892704733909, 0.6875, -0.5625];
    expect fe == [0, 997, -1028, 3, 2];
    expect mf == [0.75, -0.0, 2.9999999999999908e-310, 0.5, -0.25];
    expect mi == [0, -1.0000000000000001e+300, 0, 5, -2];
    expect il == [-1, 996, -1029, 2, 1];
    expect lb == [-1, 996, -1029, 2, 1];
}
"#;
    ok(doubles, &[], ONE, [5, 1, 1]);
}

/// `frexpf`'s exponent is an `int*` and `modf`'s part a `double*` (C's declarations): another
/// pointee is refused with the declaration's type, as nvcc refuses it.
#[test]
fn frexp_with_a_pointer_of_another_type_is_refused() {
    let src = r#"
__global__ void k(float* out) { float e; out[0] = frexpf(out[0], &e); }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::mismatched_types"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("a pointer to `int` for the second argument of `frexpf`"),
        "{text}"
    );
    // A `float*` fits CUDA's `float modf(float, float*)` only (a `double*` cannot take it), so
    // a `double` first argument converts to `float` (pytorch3d's `std::modf(x * 0.5 - off,
    // &f)`): 2.75 gives 0.75 and stores 2. A `double*` with a `float` takes the `double` form.
    let src = r#"
__global__ void k(double* out) {
    float ip; out[0] = modf(out[0], &ip); out[1] = ip;
    double dp; out[2] = modf(1.5f, &dp); out[3] = dp;
}
launch k { out = [2.75, 0, 0, 0]; expect out == [0.75, 2, 0.5, 1]; }
"#;
    ok(src, &[], ONE, ONE);
    // A pointer to neither is still the mismatch.
    let src = r#"
__global__ void k(double* out) { int ip; out[0] = modf(out[0], &ip); }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::mismatched_types"]);
}

#[test]
fn type_specifiers_may_come_in_any_order() {
    // C allows specifiers in any order: `short unsigned int` wraps at 2^16 (65535 + 1 = 0),
    // `char unsigned` at 2^8 (255 + 1 = 0), `long unsigned` is 64 bits (2^32 + 1 survives),
    // `int signed` keeps -3, and `(short unsigned)70000` is 70000 - 65536 = 4464.
    let src = r#"
__global__ void k(long long* out) {
    short unsigned int a = 65535; a++;
    char unsigned c = 255; c++;
    long unsigned b = 4294967296ul; b++;
    int signed d = -3;
    out[0] = a; out[1] = c; out[2] = b; out[3] = d; out[4] = (short unsigned)70000;
}
launch k { out = zeros(5); expect out == [0, 0, 4294967297, -3, 4464]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_compound_assignment_runs_its_right_operand_before_reading_the_element() {
    // C++17 sequences `f(o + i)` before the read of o[i] in `o[i] += f(o + i)`: f stores
    // 0 + 2 into o[i] and returns 2, so o[i] = 2 + 2 = 4 (g++ -std=c++17 gives 4; reading
    // o[i] first would give 0 + 2 = 2). `p[i] -= g(p + i)` likewise: g sets p[i] = 10 and
    // returns 3, so p[i] = 10 - 3 = 7; q[i] = 1 + 2i. (tests/differential.rs holds the reference
    // interpreter to the same order.)
    let src = r#"
__device__ int f(int* p) { *p += 2; return 2; }
__device__ int g(int* p) { *p = 10; return 3; }
__global__ void k(int* o, int* p, float* q) {
    int i = threadIdx.x;
    o[i] += f(o + i);
    p[i] -= g(p + i);
    float x = i, y = 2.0f;
    q[i] += x * y;
}
launch k { o = zeros(32); p = zeros(32); q = ones(32); expect o == 4; expect p == 7; expect q == 2 * arange(32) + 1; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert!(r.expects_passed());
}

#[test]
fn a_parenthesised_assignment_statement_assigns() {
    // BEAGLE's `#define FMA(x, y, z) (z += x * y)` makes `(s += a[1] * a[2]);`: s = 1 + 2·3 = 7,
    // then `(s += 2.0f);` 9 and `(n++);` 1, so a[0] = 9 + 1 = 10. simt called each "no effect".
    let src = r#"
#define FMA(x, y, z) (z += x * y)
__global__ void k(float* a) {
    float s = 1.0f;
    int n = 0;
    FMA(a[1], a[2], s);
    (s += 2.0f);
    (n++);
    a[0] = s + n;
}
launch k { a = [0, 2, 3]; expect a == [10, 2, 3]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn global_scope_make_vector_calls_are_cudas() {
    // ViennaCL's `cond ? ((const uint2*)c)[t] : ::make_uint2(0, 0)`: `::make_X` is CUDA's
    // make_X wherever a vector is expected. The ternary makes v (1, 1, 1, 1), so
    // v.x + v.w + q.y + w.y + 8 = 1 + 1 + 6 + 2 + 8 = 18.
    let src = r#"
__device__ float2 f(float a) { return ::make_float2(a, 2.0f * a); }
__global__ void k(float* out) {
    float4 v = ::make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    int2 q = ::make_int2(5, 6);
    float2 w = f(1.0f);
    v = v.x > 0.0f ? ::make_float4(1.0f, 1.0f, 1.0f, 1.0f) : v;
    out[threadIdx.x] = v.x + v.w + q.y + w.y + ::make_int2(7, 8).y;
}
launch k { out = zeros(2); expect out == 18; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_namespaces_file_scope_variable_is_named_by_its_qualified_name() {
    // CUDASW4's `ns::dim` of `namespace ns { __constant__ int dim; }`: 4 · 2 (`::ns::scale`) = 8.
    // `other::dim` names nothing: namespace other declares no dim.
    let src = r#"
namespace ns { __constant__ int dim; __device__ float scale; }
namespace other { __device__ float unused; }
__global__ void k(float* out) { out[threadIdx.x] = ns::dim * ::ns::scale; }
launch k { dim = 4; scale = 2; out = zeros(8); expect out == 8; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
    let f = err(
        &src.replace("ns::dim *", "other::dim *"),
        &[],
        Some(ONE),
        Some([8, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::unknown_name"], "{}", describe(&f));
}

#[test]
fn stdint_least_fast_and_max_types_have_glibcs_widths() {
    // glibc on x86-64 (whose ABI nvcc's device code follows): the least types are the exact
    // widths, int_fast8_t is a char and the fast types of 16 bits and more are `long`, 8 bytes;
    // intmax_t is 8. Sizes: 1 + 2 + 4 + 8 + 1 + 8 + 8 + 8 + 8 + 8 = 56. uintmax_t wraps as 64
    // bits: 0 - 1 > 0xffffffff; uint_least16_t wraps as 16: 65535 + 1 = 0; int_fast16_t holds
    // 70000 (it is 64-bit, not 16).
    let src = r#"
#include <stdint.h>
__global__ void k(int* out) {
    out[0] = sizeof(int_least8_t) + sizeof(int_least16_t) + sizeof(uint_least32_t)
        + sizeof(int_least64_t) + sizeof(uint_fast8_t) + sizeof(int_fast16_t)
        + sizeof(uint_fast32_t) + sizeof(int_fast64_t) + sizeof(intmax_t) + sizeof(uintmax_t);
    uintmax_t m = 0;
    m = m - 1;
    out[1] = m > 0xffffffffu;
    uint_least16_t w = 65535;
    w = w + 1;
    out[2] = w;
    int_fast16_t f = 70000;
    out[3] = f == 70000;
}
launch k { out = zeros(4); expect out == [56, 1, 0, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_namespace_s_constants_are_its_own_and_the_file_s_are_the_file_s() {
    // C++ lookup: inside `ns`, a plain `N` is ns::N (10) unless a parameter, local or member
    // of that name hides it; `ns::inner` sees its own N (100) and ns's A (70); outside, a plain
    // `N` is the file's (1), never a namespace's of the same name. By hand: get = 10 + 70 +
    // M (2·10) = 100; shadow(3) = 3 + 70; local = 10 + 5; s.f() = 4 + 10; inner::get = 170;
    // other::get = 1000; N + A = 1 + 7; ns::N + ns::M + other::N = 1030.
    let src = r#"
const int N = 1;
enum { A = 7 };
namespace ns {
  const int N = 10;
  enum { A = 70 };
  const int M = N * 2;
  __device__ int get() { return N + A + M; }
  __device__ int shadow(int N) { return N + A; }
  __device__ int local() { int A = 5; return N + A; }
  struct S { int A; __device__ int f() const { return A + N; } };
  namespace inner { const int N = 100; __device__ int get() { return N + A; } }
}
namespace other { const int N = 1000; __device__ int get() { return N; } }
__global__ void k(int* out) {
  out[0] = ns::get();
  out[1] = ns::shadow(3);
  out[2] = ns::local();
  ns::S s; s.A = 4; out[3] = s.f();
  out[4] = ns::inner::get();
  out[5] = other::get();
  out[6] = N + A;
  out[7] = ns::N + ns::M + other::N;
}
__global__ void k2(int* out) {
  using namespace other;
  out[0] = ns::inner::N;
}
launch k { out = zeros(8); expect out == [100, 73, 15, 14, 170, 1000, 8, 1030]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_namespace_s_constant_is_hidden_where_cpp_hides_it() {
    // ns's N = 10 beside the file's N = 2. A template parameter (get<3>), a lambda's parameter
    // (f(4) = 8) and a local from its declaration to the end of its block (3, then 10 again)
    // hide it; a type's template argument (Arr<N>: 10) and a default argument (x = N: 10,
    // K = N: 10) read it as any expression in ns does. A kernel template's parameter N hides
    // it too (k2<6>).
    let src = r#"
const int N = 2;
template <int M> struct Arr { __device__ int n() const { return M; } };
namespace ns {
const int N = 10;
template <int N> __device__ int get() { return N; }
__device__ int f(int x = N) { return x; }
template <int K = N> __device__ int g() { return K; }
__global__ void k(int* o) {
    o[0] = get<3>();
    auto twice = [](int N) { return N * 2; };
    o[1] = twice(4);
    o[2] = N;
    { int N = 3; o[3] = N; }
    o[4] = N;
    Arr<N> a;
    o[5] = a.n();
    o[6] = f();
    o[7] = g();
}
}
launch ns::k { o = zeros(8); expect o == [3, 8, 10, 3, 10, 10, 10, 10]; }
"#;
    ok(src, &[], ONE, ONE);
    let kernel_template = r#"
namespace ns {
const int N = 10;
template <int N> __global__ void k2(int* o) { o[0] = N; }
}
launch ns::k2<6> { o = zeros(1); expect o == [6]; }
"#;
    ok(kernel_template, &[], ONE, ONE);
}

#[test]
fn a_namespace_s_function_passed_by_its_plain_name_is_the_namespace_s() {
    // Inside ns, `scale` and `scale<2>` are ns's (x - 2, x - K), not the file's (x · 2, x · K):
    // run(10) = 8 + 8; outside, viaT<2>(5) passes the file's scale<3>: 15.
    let src = r#"
template <int K> __device__ int scale(int x) { return x * K; }
__device__ int halve(int x) { return x * 2; }
__device__ int apply(int (*f)(int), int x) { return f(x); }
namespace ns {
template <int K> __device__ int scale(int x) { return x - K; }
__device__ int halve(int x) { return x - 2; }
__device__ int run(int x) { return apply(scale<2>, x) + apply(halve, x); }
}
template <int P> __device__ int viaT(int x) { return apply(scale<P + 1>, x); }
__global__ void k(int* o) { o[0] = ns::run(10); o[1] = viaT<2>(5); }
launch k { o = zeros(2); expect o == [16, 15]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_launch_section_names_a_namespace_s_constant_by_its_qualified_name() {
    // `block = ns::N;` is 8 threads; the plain `N` of the section is the file's 3.
    let src = r#"
const int N = 3;
namespace ns { const int N = 8; }
__global__ void k(int* o) { o[threadIdx.x] = ns::N + N; }
launch k { grid = 1; block = ns::N; o = zeros(ns::N + N - 3); expect o == full(8, 11); }
"#;
    let r = ok(src, &[], ONE, [8, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn sizeof_a_row_of_an_array_is_the_rows_bytes() {
    // A row is an array under `sizeof` (it converts to a pointer elsewhere): `f[0]` of
    // `float f[2][3]` is 3 × 4 = 12 (not a pointer's 8), `sh[1]` of `double sh[4][2][3]` is
    // 2 × 3 × 8 = 48 and `sh[1][1]` 24, `loc[2]` of `float loc[3][7]` 28, `ds[1]` of a 12-byte
    // struct 5 × 12 = 60, and a row through a pointer to rows `float (*)[7]` 28. So
    // `sizeof(f[0]) / sizeof(f[0][0])` counts the 3 columns.
    let src = r#"
struct S { float a; int b; char c; };
__constant__ float f[2][3];
__device__ S ds[2][5];
__global__ void k(float* out) {
    __shared__ double sh[4][2][3];
    float loc[3][7];
    loc[0][0] = 1;
    float (*rows)[7] = loc;
    out[0] = sizeof(f[0]); out[1] = sizeof(f);
    out[2] = sizeof(sh[1]); out[3] = sizeof(sh[1][1]); out[4] = sizeof(loc[2]);
    out[5] = sizeof(ds[1]); out[6] = sizeof(rows[1]); out[7] = sizeof(f[0]) / sizeof(f[0][0]);
}
launch k { out = zeros(8); grid = 1; block = 1; expect out == [12, 24, 48, 24, 28, 60, 28, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_assignment_as_a_subscript_is_its_value() {
    // graphBIG's `len = stack[pos = 0];`: pos becomes 0, then stack[0] (7) is read; `s[i += 2]`
    // with i = 1 reads s[3] = 10 and leaves i = 3.
    let src = r#"
__global__ void k(int* out) {
    int stack[4] = {7, 8, 9, 10};
    int pos = 3, i = 1;
    int len = stack[pos = 0];
    out[0] = len; out[1] = pos;
    out[2] = stack[i += 2]; out[3] = i;
}
launch k { out = zeros(4); grid = 1; block = 1; expect out == [7, 0, 10, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_function_that_falls_off_its_end_stops_the_launch_where_a_thread_reaches_it() {
    // gsdr's k_AdjustFrequency returns a float2 but has no `return`: C++ leaves the result
    // undefined ([stmt.return]/2) and nvcc only warns. simt stops the launch at the closing brace,
    // naming the first thread that got there. `pick` returns on lanes with x >= lo only: with
    // `lo = 0` every lane returns and the launch runs (out = 2 * t on each of the 32 lanes);
    // with `lo = 16` lanes 0..15 reach the end, and thread 0 is named. Functions that end in an
    // `if`/`else` that both return, a `switch` whose every arm (default too) returns, and a
    // `while (true)` left only by `return` never reach their end.
    let src = r#"
__device__ int pick(int x, int lo) { if (x >= lo) return 2 * x; }
__device__ int both(int x) { if (x & 1) { return 1; } else { return 0; } }
__device__ int arms(int x) { switch (x & 3) { case 0: return 10; case 1: return 11; default: return 12; } }
__device__ int spin(int x) { while (true) { if (x > 100) return x; x += 50; } }
__global__ void k(int* out, int* b, int lo) {
    int t = threadIdx.x;
    out[t] = pick(t, lo);
    b[t] = both(t) + arms(t) + spin(t);
}
launch k {
    out = zeros(32); b = zeros(32); lo = 0; grid = 1; block = 32;
    t = arange(32);
    expect out == 2 * t;
}
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    let f = err(src, &[("lo", "16")], None, None);
    assert_eq!(codes(&f), ["simt::run::missing_return"]);
    let d = describe(&f);
    assert!(
        d.contains("`pick` reached its end") && d.contains("thread (0, 0, 0)"),
        "{d}"
    );
}

#[test]
fn a_local_multi_dimensional_array_takes_nested_and_elided_braces() {
    // sycl-optic-flow's bicubic `const float pol[4][4] = {{input[..], ...}, ...};`. By C11
    // 6.7.9/17-22, with in = 1..6:
    //   a = {{1, 2}, {4}}             -> [[1, 2, 0], [4, 0, 0]] (each row's rest zero)
    //   b[][2] = {1, 2, 3}            -> [[1, 2], [3, 0]], two rows: sizeof(b) / sizeof(int) = 4
    //   c = {1, {2}, 3}               -> 1 enters row 0, `{2}` is c[0][1] (braces around a
    //                                    scalar), 3 is c[1][0]: [[1, 2], [3, 0]]
    //   d = {{1, 2, 3}, {{4}, {5, 6}}} -> d[0] elided into its rows [[1, 2], [3, 0]],
    //                                    d[1] = [[4, 0], [5, 6]]; flat [1, 2, 3, 0, 4, 0, 5, 6]
    // out[t] = a[t/3][t%3] + 100 b (4 past b's end) + 1000 c + 10000 d[t % 8]:
    //   t=0: 1+100+1000+10000 = 11101   t=1: 2+200+2000+20000 = 22202
    //   t=2: 0+300+3000+30000 = 33300   t=3: 4+0+0+0 = 4
    //   t=4: 0+400+0+40000 = 40400      t=5: 0+400+0+0 = 400
    // One value too many in a row is refused, as C refuses it.
    let src = r#"
__global__ void k(const float* in, float* out) {
    float a[2][3] = {{in[0], in[1]}, {in[3]}};
    int b[][2] = {1, 2, 3};
    int c[2][2] = {1, {2}, 3};
    int d[2][2][2] = {{1, 2, 3}, {{4}, {5, 6}}};
    int t = threadIdx.x;
    out[t] = a[t / 3][t % 3] + 100 * (t < 4 ? b[t / 2][t % 2] : sizeof(b) / sizeof(int))
        + 1000 * (t < 4 ? c[t / 2][t % 2] : 0) + 10000 * (d[t / 4 % 2][t / 2 % 2][t % 2]);
}
launch k {
    in = arange(6) + 1; out = zeros(6); block = 6; grid = 1;
    expect out == [11101, 22202, 33300, 4, 40400, 400];
}
"#;
    let r = ok(src, &[], ONE, [6, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    // d[1][1] = {5, 6}, the row no thread above reads; and a file-scope `[][3]` sized by the
    // rows its list fills: {{1}, 2, 3, 4, 5} is {1, 0, 0}, {2, 3, 4}, {5, 0, 0} (gcc: 36
    // bytes), so 9 ints, e[1] = 10 d[1][1][0] + d[1][1][1] = 56, e[2] = f[2][0] = 5.
    let rows = r#"
__constant__ int f[][3] = {{1}, 2, 3, 4, 5};
__global__ void k(int* e) {
    int d[2][2][2] = {{1, 2, 3}, {{4}, {5, 6}}};
    e[0] = sizeof(f) / sizeof(int);
    e[1] = 10 * d[1][1][0] + d[1][1][1];
    e[2] = f[2][0] + f[2][1] + f[0][2];
}
launch k { e = zeros(3); block = 1; grid = 1; expect e == [9, 56, 5]; }
"#;
    let r = ok(rows, &[], ONE, ONE);
    assert!(r.expects_passed(), "{:?}", r.expects);
    let bad = src.replace(
        "{{in[0], in[1]}, {in[3]}}",
        "{{in[0], in[1], in[2], in[3]}}",
    );
    let f = err(&bad, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::initialiser"]);
}
