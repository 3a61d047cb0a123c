//! cuRAND's device API (`#include <curand_kernel.h>`, docs/curand.md): the generators' exact
//! values against an independent model of the published algorithms (`tests/curand_ref.py`,
//! whose output the constants below are), the state's layout and buffers, and what a call costs.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// A kernel that writes the first `count` values of `curand` for `(seed, subsequence, offset)`
/// with state type `state`; the seed is given as two 32-bit halves so that any 64-bit seed fits
/// the launch section exactly.
fn first_values(state: &str, (seed, seq, off): (u64, u64, u64), values: &[u64]) -> String {
    let list: Vec<String> = values.iter().map(u64::to_string).collect();
    format!(
        r#"#include <curand_kernel.h>
__global__ void k(unsigned int* out, unsigned int lo, unsigned int hi, unsigned long long seq,
                  unsigned long long off, int count) {{
    {state} s;
    curand_init(((unsigned long long)hi << 32) | lo, seq, off, &s);
    for (int i = 0; i < count; i++) out[i] = curand(&s);
}}
launch k {{
    lo = {lo}; hi = {hi}; seq = {seq}; off = {off}; count = {n};
    out = zeros(count);
    expect out == [{list}];
}}
"#,
        lo = seed & 0xffff_ffff,
        hi = seed >> 32,
        n = values.len(),
        list = list.join(", ")
    )
}

#[test]
fn xorwow_values_match_the_independent_model() {
    // `python3 tests/curand_ref.py`, lines "xorwow (seed, subsequence, offset)": the 160-bit
    // state jumped by 2^67·subsequence + offset steps with a GF(2) matrix raised by squaring in
    // Python integers; seed 0 with subsequence 0 is Marsaglia's published start salted as
    // curand_init salts it.
    let cases: [((u64, u64, u64), [u64; 4]); 6] = [
        ((0, 0, 0), [3179217846, 1883133293, 2220552389, 674260989]),
        (
            (1234, 0, 0),
            [624778773, 1867875844, 3739671282, 1954919316],
        ),
        (
            (1234, 1, 0),
            [3522650202, 3978931785, 2198015705, 2308946676],
        ),
        (
            (1234, 5, 3),
            [1633321130, 1363217923, 2702936549, 2956155405],
        ),
        (
            (1984, 77, 0),
            [3734180291, 3173175272, 3823459026, 1390677902],
        ),
        (
            (0x1234_5678_9ABC_DEF0, 3, 1_000_000),
            [2949482871, 2307933287, 415482137, 397343338],
        ),
    ];
    for (init, values) in cases {
        ok(&first_values("curandState", init, &values), &[], ONE, ONE);
    }
}

#[test]
fn philox_values_match_random123_and_the_independent_model() {
    // Random123's known-answer vector philox4x32_10(ctr = 0, key = 0) is 6627e8d5 e169c58d
    // bc57ac4c 9b00dbd8: cuRAND's seed 0, subsequence 0, offset 0 returns those words in order,
    // then the block of counter 1. The others are `tests/curand_ref.py`'s "philox" lines
    // (subsequence s starts at counter s·2^64, offset o at word o of the stream).
    let kat = [
        0x6627e8d5u64,
        0xe169c58d,
        0xbc57ac4c,
        0x9b00dbd8,
        4175744164,
        1555169499,
    ];
    ok(
        &first_values("curandStatePhilox4_32_10_t", (0, 0, 0), &kat),
        &[],
        ONE,
        ONE,
    );
    let cases: [((u64, u64, u64), [u64; 6]); 4] = [
        (
            (1234, 1, 0),
            [
                3507855656, 1392278645, 3354607383, 253049307, 118660703, 1698527859,
            ],
        ),
        (
            (1234, 5, 3),
            [
                3180702920, 1549596404, 1069600344, 846674261, 1925342002, 648658203,
            ],
        ),
        (
            (1984, 77, 0),
            [
                2004987014, 2304320553, 1557666436, 3791857080, 3346652871, 2798085871,
            ],
        ),
        (
            (0x1234_5678_9ABC_DEF0, 3, 1_000_000),
            [
                2368883504, 3347560158, 776480206, 2793894616, 2922573971, 2130185622,
            ],
        ),
    ];
    for (init, values) in cases {
        ok(
            &first_values("curandStatePhilox4_32_10_t", init, &values),
            &[],
            ONE,
            ONE,
        );
    }
}

#[test]
fn uniforms_are_bit_exact() {
    // `tests/curand_ref.py`'s "uniform bits" lines: x·2^-32 + 2^-33 rounded to float, and
    // (x ^ y << 21)·2^-53 + 2^-54 in double (XORWOW: two words; Philox: one word, x·2^-32 +
    // 2^-32), as the IEEE bits of the results.
    let src = r#"#include <curand_kernel.h>
__global__ void k(unsigned int* f, unsigned int* d, unsigned int* pf, unsigned int* pd) {
    curandState s;
    curand_init(1234, 0, 0, &s);
    for (int i = 0; i < 3; i++) f[i] = __float_as_uint(curand_uniform(&s));
    curand_init(1234, 0, 0, &s);
    unsigned long long b = __double_as_longlong(curand_uniform_double(&s));
    d[0] = (unsigned int)b;
    d[1] = (unsigned int)(b >> 32);
    curandStatePhilox4_32_10_t p;
    curand_init(1234, 0, 0, &p);
    float4 u = curand_uniform4(&p);
    pf[0] = __float_as_uint(u.x); pf[1] = __float_as_uint(u.y);
    pf[2] = __float_as_uint(u.z); pf[3] = __float_as_uint(u.w);
    curand_init(1234, 0, 0, &p);
    unsigned long long e = __double_as_longlong(curand_uniform_double(&p));
    pd[0] = (unsigned int)e;
    pd[1] = (unsigned int)(e >> 32);
}
launch k {
    f = zeros(3); d = zeros(2); pf = zeros(4); pd = zeros(2);
    expect f == [1041560952, 1054780172, 1063184091];
    expect d == [3413818411, 1071371617];
    expect pf == [1040335565, 1062894833, 1049101089, 1061931591];
    expect pd == [2759852032, 1069566041];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn normals_follow_box_muller_and_cache_the_second_value() {
    // The first two XORWOW words for seed 1234 give, in double precision (`tests/curand_ref.py`,
    // "xorwow normal pair"), sqrt(-2 ln u)·(sin, cos)(2πv) = (0.78097372, -1.80157798); the
    // float path agrees to the expect's relative 1e-4. curand_normal returns the first, then the
    // cached second without drawing; curand_normal2 returns both from the same two words.
    let src = r#"#include <curand_kernel.h>
__global__ void k(float* n, float* pair, unsigned int* next) {
    curandState s;
    curand_init(1234, 0, 0, &s);
    n[0] = curand_normal(&s);
    n[1] = curand_normal(&s);
    next[0] = curand(&s);
    curand_init(1234, 0, 0, &s);
    float2 p = curand_normal2(&s);
    pair[0] = p.x;
    pair[1] = p.y;
}
launch k {
    n = zeros(2); pair = zeros(2); next = zeros(1);
    expect n == [0.7809737243167163, -1.8015779840131763];
    expect pair == n;
    expect next == [3739671282];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn double_normals_and_log_normals_follow_nvidias_formulas() {
    // Double Box-Muller from the first four XORWOW words for seed 1234 (x0 ^ x1 << 21 and y0 ^
    // y1 << 21 as 53-bit fractions, sqrt(-2 ln u)·(sin, cos)(πv)): (0.35873979852445503,
    // -1.239592503223552) in Python's double arithmetic; the second is cached for the next
    // call. The log-normal of mean 0.5 and deviation 2 is exp(0.5 + 2n) of the float pair of
    // `normals_follow_box_muller_and_cache_the_second_value`: (7.861264321306995,
    // 0.044907252663415734), the second cached (flag 2) as NVIDIA caches it.
    let src = r#"#include <curand_kernel.h>
__global__ void k(double* d, double* pair, float* ln) {
    curandState s;
    curand_init(1234, 0, 0, &s);
    d[0] = curand_normal_double(&s);
    d[1] = curand_normal_double(&s);
    curand_init(1234, 0, 0, &s);
    double2 p = curand_normal2_double(&s);
    pair[0] = p.x;
    pair[1] = p.y;
    curand_init(1234, 0, 0, &s);
    ln[0] = curand_log_normal(&s, 0.5f, 2.0f);
    ln[1] = curand_log_normal(&s, 0.5f, 2.0f);
}
launch k {
    d = zeros(2); pair = zeros(2); ln = zeros(2);
    expect d == [0.35873979852445503, -1.239592503223552];
    expect pair == d;
    expect ln == [7.861264321306995, 0.044907252663415734];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn monte_carlo_pi_lands_near_pi() {
    // 64 threads × 1024 points, each thread on its own subsequence: the fraction inside the
    // quarter circle estimates π/4 (65536·π/4 = 51471.9 hits), with standard error
    // sqrt(p(1-p)·65536) = 105 hits for p = π/4; the expects allow 4.7 of them either side
    // (π ± 0.03: 50980 < hits < 51964). Philox the same, four coordinates per
    // curand_uniform4.
    let kernel = |state: &str, draws: &str| {
        format!(
            r#"#include <curand_kernel.h>
__global__ void pi(unsigned int* hits, int trials) {{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    {state} s;
    curand_init(2024, id, 0, &s);
    unsigned int count = 0;
    for (int i = 0; i < trials; i += 2) {{
        {draws}
    }}
    hits[id] = count;
}}
launch pi {{
    trials = 1024; hits = zeros(64);
    expect sum(hits) > 50980;
    expect sum(hits) < 51964;
}}
"#
        )
    };
    let xorwow = kernel(
        "curandState",
        "float x = curand_uniform(&s);
        float y = curand_uniform(&s);
        if (x * x + y * y <= 1.0f) count++;
        x = curand_uniform(&s);
        y = curand_uniform(&s);
        if (x * x + y * y <= 1.0f) count++;",
    );
    let philox = kernel(
        "curandStatePhilox4_32_10_t",
        "float4 r = curand_uniform4(&s);
        if (r.x * r.x + r.y * r.y <= 1.0f) count++;
        if (r.z * r.z + r.w * r.w <= 1.0f) count++;",
    );
    ok(&xorwow, &[], [2, 1, 1], [32, 1, 1]);
    ok(&philox, &[], [2, 1, 1], [32, 1, 1]);
}

#[test]
fn skipahead_equals_drawing() {
    // skipahead(5) then curand() is the sixth value; skipahead_sequence(2) from subsequence 3 is
    // subsequence 5 (both generators): each pair of outputs must be equal.
    let src = |state: &str| {
        format!(
            r#"#include <curand_kernel.h>
__global__ void k(unsigned int* a, unsigned int* b) {{
    {state} s;
    curand_init(99, 0, 0, &s);
    for (int i = 0; i < 5; i++) curand(&s);
    a[0] = curand(&s);
    curand_init(99, 0, 0, &s);
    skipahead(5, &s);
    b[0] = curand(&s);
    curand_init(99, 5, 7, &s);
    a[1] = curand(&s);
    curand_init(99, 3, 7, &s);
    skipahead_sequence(2, &s);
    b[1] = curand(&s);
}}
launch k {{ a = zeros(2); b = zeros(2); expect a == b; }}
"#
        )
    };
    ok(&src("curandState"), &[], ONE, ONE);
    ok(&src("curandStatePhilox4_32_10_t"), &[], ONE, ONE);
}

#[test]
fn states_live_in_a_buffer_laid_out_as_nvidia_lays_them_out() {
    // A `curandState*` parameter takes 12 unsigned words per state (sizeof 48: d, v[5], the two
    // flags, the cached float, padding, the cached double), a Philox one 16 (sizeof 64). The
    // state of (1234, 5, 3) is, from `tests/curand_ref.py`, d = 833182046 and v = [542514131,
    // 2651346053, 2899778667, 1320014462, 86292494]; flags and caches are zero.
    let src = r#"#include <curand_kernel.h>
__global__ void init(curandState* states, unsigned int* sizes) {
    int id = threadIdx.x;
    curand_init(1234, 5 + id, 3, &states[id]);
    sizes[0] = sizeof(curandState);
    sizes[1] = sizeof(curandStatePhilox4_32_10_t);
}
launch init {
    states = zeros(12 * 2); sizes = zeros(2);
    expect sizes == [48, 64];
    expect states[0] == 833182046;
    expect states[1] == 542514131;
    expect states[5] == 86292494;
    expect states[6] == 0;
    expect states[11] == 0;
}
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn curand_is_nine_integer_instructions_when_compiled() {
    // XORWOW's step on a local state (kept in registers: every index is a constant): t = v0 ^
    // (v0 >> 2) (2), v4 ^ (v4 << 4) (2), t ^ (t << 1) (2), their xor (1), d += 362437 (1),
    // v4 + d (1) = 9; the word moves are register renames. A second call adds those 9 and one
    // xor into r to the compiled count of one warp. (The source-level count also pays for each
    // member access through the pointer, which nvcc folds.)
    let src = |calls: usize| {
        format!(
            r#"#include <curand_kernel.h>
__global__ void k(unsigned int* out) {{
    curandState s;
    curand_init(1, 0, 0, &s);
    unsigned int r = 0;
    {draws}
    out[threadIdx.x] = r;
}}
launch k {{ out = zeros(32); }}
"#,
            draws = "r ^= curand(&s);\n    ".repeat(calls)
        )
    };
    let compiled = |calls: usize| {
        let report = ok(&src(calls), &[], ONE, [32, 1, 1]);
        assert_eq!(
            report.counters.local_ld_instr + report.counters.local_st_instr,
            0
        );
        report
            .refined
            .expect("a refined estimate")
            .compiled_warp_instr
    };
    assert_eq!(compiled(2) - compiled(1), 10);
}

#[test]
fn the_skipahead_word_must_be_a_constant() {
    let src = r#"#include <curand_kernel.h>
__global__ void k(unsigned int* out, int w) {
    out[0] = __simt_xorwow_skipahead(1, 2, 3, 4, 5, 10ull, w);
}
launch k { out = zeros(1); w = 0; }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::not_constant"]);
}
