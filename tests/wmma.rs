//! WMMA (`<mma.h>`): `mma_sync`'s results for every shape and type simt has, and the traffic of
//! `load_matrix_sync` / `store_matrix_sync` (README, "WMMA").

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];
const WARP: [u32; 3] = [32, 1, 1];

#[test]
fn one_16x16x16_tile_by_hand() {
    // A[i][k] = i + 1 and B[k][j] = j + 1 (row-major halves), C0 column-major with C0[i][j] at
    // j * 16 + i holding that index: D[i][j] = Σ_k (i + 1)(j + 1) + C0[i][j]
    // = 16 (i + 1)(j + 1) + 16 j + i, stored row-major (flat index 16 i + j).
    //
    // Traffic, hand-counted: each 16×16 half tile (512 bytes, the array starts 256-byte
    // aligned) is one warp request of 16-byte vectors, 16 sectors. The float accumulator read
    // column-major is one scalar request per element: 8 requests, in each the 32 lanes read 4
    // columns × 8 consecutive floats (32 aligned bytes), 4 sectors: 32 sectors (the tile's
    // 1024 bytes). Its row-major store is two 16-byte-vector requests, each a 512-byte slab of
    // the tile: 16 sectors each. One mma_sync: one tensor-core warp instruction.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void tile(const half *a, const half *b, const float *c0, float *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c0, 16, wmma::mem_col_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
launch tile {
    a = arange(256) / 16 + 1;
    b = arange(256) % 16 + 1;
    c0 = arange(256);
    d = zeros(256);
    expect d == 16 * (arange(256) / 16 + 1) * (arange(256) % 16 + 1) + 16 * (arange(256) % 16) + arange(256) / 16;
}
"#;
    let r = ok(src, &[], ONE, WARP);
    assert_eq!(r.counters.gld_instr, 1 + 1 + 8);
    assert_eq!(r.counters.gld_sectors, 16 + 16 + 32);
    assert_eq!(r.counters.gst_instr, 2);
    assert_eq!(r.counters.gst_sectors, 32);
    assert_eq!(r.counters.tensor_instr, 1);
}

#[test]
fn a_tile_of_a_wider_matrix_is_sixteen_sectors() {
    // The left 16×16 half tile of a row-major 16×32 matrix (ldm 32): 16 rows of 32 bytes, each
    // at a 64-byte stride from a 256-byte-aligned start: 16 sectors in one request. A column
    // of ones as B (B[k][j] = 1) makes D[i][j] = Σ_k A[i][k] = Σ_{k<16} (32 i + k)
    // = 512 i + 120, read back row-major.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, float *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(fb, 1.0f);
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
launch k {
    a = arange(512);
    d = zeros(256);
    expect d == 512 * (arange(256) / 16) + 120;
}
"#;
    // (a holds its flat index: row i, column k holds 32 i + k; the values up to 511 are exact
    // in half, and D's up to 7800 in float.)
    let r = ok(src, &[], ONE, WARP);
    assert_eq!(r.counters.gld_instr, 1);
    assert_eq!(r.counters.gld_sectors, 16);
}

/// A kernel multiplying A[i][k] = i + 1 by B[k][j] = j + 1 (row-major) for one shape and type,
/// storing D row-major: D[i][j] = k (i + 1)(j + 1).
fn product(m: u32, n: u32, k: u32, input: &str, acc: &str, out: &str) -> String {
    format!(
        r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const {input} *a, const {input} *b, {out} *d) {{
    wmma::fragment<wmma::matrix_a, {m}, {n}, {k}, {input}, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, {m}, {n}, {k}, {input}, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, {m}, {n}, {k}, {acc}> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(fa, a, {k});
    wmma::load_matrix_sync(fb, b, {n});
    wmma::mma_sync(c, fa, fb, c);
    wmma::store_matrix_sync(d, c, {n}, wmma::mem_row_major);
}}
launch k {{
    a = arange({mk}) / {k} + 1;
    b = arange({kn}) % {n} + 1;
    d = zeros({mn});
    expect d == {k} * (arange({mn}) / {n} + 1) * (arange({mn}) % {n} + 1);
}}
"#,
        mk = m * k,
        kn = k * n,
        mn = m * n,
    )
}

#[test]
fn every_half_shape_and_accumulator() {
    // Largest value 16 · 32 · 8 = 4096 (m8n32k16) or 16 · 16 · 16; every partial sum is an
    // integer below 2^24, exact in float (half accumulators: the next test).
    for (m, n, k) in [(16, 16, 16), (32, 8, 16), (8, 32, 16)] {
        ok(&product(m, n, k, "half", "float", "float"), &[], ONE, WARP);
        ok(
            &product(m, n, k, "__nv_bfloat16", "float", "float"),
            &[],
            ONE,
            WARP,
        );
    }
    // 8-bit rows need ldm a multiple of 16: m32n8k16's 8-byte rows of B are not, so the
    // unsigned bytes take the other two shapes.
    for (m, n, k) in [(16, 16, 16), (8, 32, 16)] {
        ok(
            &product(m, n, k, "unsigned char", "int", "int"),
            &[],
            ONE,
            WARP,
        );
    }
    // m8n8k4 in double: D[i][j] = 4 (i + 1)(j + 1).
    ok(
        &product(8, 8, 4, "double", "double", "double"),
        &[],
        ONE,
        WARP,
    );
}

#[test]
fn half_accumulators_round_each_addition() {
    // The same products into `half` accumulators. D[10][14] (flat 174) adds 11 · 15 = 165
    // sixteen times; past 2048 half's spacing is 2 and each odd sum is a tie, to even:
    // 165 · 13 = 2145 → 2144, + 165 = 2309 → 2308, + 165 = 2473 → 2472, + 165 = 2637 → 2636
    // (the exact 2640 is representable, but not on the way). The last element adds 16 · 16 =
    // 256 (or 32 · 8, 8 · 32) sixteen times, every partial sum a multiple of 256: 4096 exactly.
    for (m, n, k) in [(16, 16, 16), (32, 8, 16), (8, 32, 16)] {
        let src = product(m, n, k, "half", "half", "half");
        let (body, _) = src.split_once("    expect").expect("an expect line");
        let last = m * n - 1;
        let mut src = format!("{body}    expect d[0] == 16;\n    expect d[{last}] == 4096;\n");
        if m == 16 {
            src.push_str("    expect d[174] == 2636;\n");
        }
        src.push_str("}\n");
        ok(&src, &[], ONE, WARP);
    }
}

#[test]
fn signed_bytes_with_negative_values() {
    // A[i][k] = i - 8 (signed char), B[k][j] = j: D[i][j] = 16 (i - 8) j, down to -1920.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const signed char *a, const signed char *b, int *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(c, fa, fb, c);
    wmma::store_matrix_sync(d, c, 16, wmma::mem_row_major);
}
launch k {
    a = arange(256) / 16 - 8;
    b = arange(256) / 16;
    d = zeros(256);
    expect d == 16 * (arange(256) / 16 - 8) * (arange(256) % 16);
}
"#;
    // b is column-major: column j is the 16 bytes from 16 j, all holding j.
    ok(src, &[], ONE, WARP);
}

#[test]
fn tf32_reads_ten_mantissa_bits() {
    // Every input is 1 + 2^-12, below tf32's precision: the tensor core reads 1, so D = 8
    // (k = 8) everywhere; with the inputs as floats it would be 8 · (1 + 2^-12)^2 ≈ 8.0039,
    // outside the 1e-4 tolerance. `__float_to_tf32` rounds to nearest (ties away): 1 as well.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const float *a, const float *b, float *d, float *t) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(c, fa, fb, c);
    wmma::store_matrix_sync(d, c, 16, wmma::mem_row_major);
    t[threadIdx.x] = wmma::__float_to_tf32(a[threadIdx.x]) + wmma::__float_to_tf32(1.0f + 3.0f / 4096.0f);
}
launch k {
    a = full(128, 1.000244140625);
    b = full(128, 1.000244140625);
    d = zeros(256);
    t = zeros(32);
    expect d == full(256, 8);
    expect t == full(32, 2.0009765625);
}
"#;
    // 1 + 3 · 2^-12 is 0.75 of a tf32 unit (2^-10) above 1: it rounds up to 1 + 2^-10.
    ok(src, &[], ONE, WARP);
}

#[test]
fn satf_clamps_an_infinite_half_sum() {
    // 300 · 300 = 90000 is past half's 65504: D is infinite, or 65504 with satf.
    let body = |satf: &str| {
        format!(
            r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(half *d) {{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> c;
    wmma::fill_fragment(fa, 300.0f);
    wmma::fill_fragment(fb, 300.0f);
    wmma::fill_fragment(c, 0.0f);
    wmma::mma_sync(c, fa, fb, c{satf});
    for (int i = 0; i < c.num_elements; i++) c.x[i] = c.x[i] / (half)2;
    wmma::store_matrix_sync(d, c, 16, wmma::mem_row_major);
}}
"#
        )
    };
    let clamped = format!(
        "{}launch k {{ d = zeros(256); expect d == full(256, 32752); }}\n",
        body(", true")
    );
    ok(&clamped, &[], ONE, WARP);
    let infinite = format!(
        "{}launch k {{ d = zeros(256); expect d > full(256, 65504); }}\n",
        body("")
    );
    ok(&infinite, &[], ONE, WARP);
}

#[test]
fn warps_that_skip_the_call_together_are_fine_and_a_split_warp_is_not() {
    // Warp 1 of 2 skips every call (its condition is warp-uniform): runs. Half a warp skipping
    // is `collective_divergent`.
    let src = |cond: &str| {
        format!(
            r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, float *d) {{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(fb, 1.0f);
    wmma::fill_fragment(c, 0.0f);
    if ({cond}) {{
        wmma::load_matrix_sync(fa, a, 16);
        wmma::mma_sync(c, fa, fb, c);
        wmma::store_matrix_sync(d, c, 16, wmma::mem_row_major);
    }}
}}
launch k {{ a = ones(256); d = zeros(256); }}
"#
        )
    };
    let r = ok(&src("threadIdx.x < 32"), &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.tensor_instr, 1);
    let f = err(&src("threadIdx.x < 48"), &[], Some(ONE), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::collective_divergent"]);
}

#[test]
fn a_shared_tile_is_one_request_of_four_wavefronts() {
    // A 16×16 half tile in shared memory with ldm 16 is 512 consecutive bytes: one 16-byte
    // vector per lane, so each quarter warp reads 128 bytes, one wavefront: 4 wavefronts and
    // no conflict. Measured as the difference between the kernel with and without the load.
    let src = |load: &str| {
        format!(
            r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, float *d) {{
    __shared__ half s[256];
    for (int i = threadIdx.x; i < 256; i += 32) s[i] = a[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(fa, 0.0f);
    wmma::fill_fragment(fb, 1.0f);
    wmma::fill_fragment(acc, 0.0f);
    {load}
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}}
launch k {{ a = arange(256); d = zeros(256); }}
"#
        )
    };
    let with = ok(&src("wmma::load_matrix_sync(fa, s, 16);"), &[], ONE, WARP);
    let without = ok(&src(""), &[], ONE, WARP);
    assert_eq!(with.counters.smem_instr - without.counters.smem_instr, 1);
    assert_eq!(
        with.counters.smem_wavefronts - without.counters.smem_wavefronts,
        4
    );
    assert_eq!(with.counters.smem_bank_conflicts, 0);
}

#[test]
fn a_wmma_loop_is_bounded_by_the_tensor_cores() {
    // One block of 4 warps on the H100, each warp 256 half 16×16×16 mma_syncs in an unrolled
    // loop: 4 × 256 × 4096 = 4 194 304 FP16 multiply-adds on one SM at 2048 a clock = 2048
    // cycles = 1.0343 µs at 1.98 GHz, above the 0.5 µs DRAM latency of the final store and the
    // issue slots (about 260 cycles a warp, one scheduler each). Each of D's elements is
    // 256 × 16 × 1 × 1 = 4096.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void spin(float *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(fa, 1.0f);
    wmma::fill_fragment(fb, 1.0f);
    wmma::fill_fragment(acc, 0.0f);
#pragma unroll
    for (int i = 0; i < 256; i++) {
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + threadIdx.x / 32 * 256, acc, 16, wmma::mem_row_major);
}
launch spin {
    d = zeros(4 * 256);
    expect d == 4096;
}
"#;
    let r = ok(src, &[], ONE, [128, 1, 1]);
    assert_eq!(r.counters.tensor_instr, 4 * 256);
    let t = r.refined.as_ref().expect("a refined estimate");
    let want = 2048.0 / 1.98e9;
    assert!(
        (t.t_tensor - want).abs() < 1e-15,
        "{} vs {want}",
        t.t_tensor
    );
    assert_eq!(t.bound, simt::gpu::Bound::Tensor);
    assert!(t.t_mem < t.t_tensor && t.t_issue < t.t_tensor);
}

#[test]
fn two_dimensional_arrays_of_fragments() {
    // Lei Mao's GEMM v07 keeps `acc_frags[i][j]` of a warp's 2 × 2 output tiles. Here A's two
    // 16×16 tiles hold 1 and 2, B's 1 and 3, so tile (i, j) of D is 16 a_i b_j: (0, 0) 16,
    // (0, 1) 48, (1, 0) 32, (1, 1) 96, stored at (2 i + j) · 256. Traffic, as in
    // `one_16x16x16_tile_by_hand`: four half tiles loaded, one 16-sector request each; four
    // float tiles stored row-major, two 16-sector requests each; four mma_sync.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half* a, const half* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frags[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_frags[2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frags[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::fill_fragment(acc_frags[i][j], 0.0f);
    for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(a_frags[i], a + i * 16 * 16, 16);
        wmma::load_matrix_sync(b_frags[i], b + i * 16 * 16, 16);
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::mma_sync(acc_frags[i][j], a_frags[i], b_frags[j], acc_frags[i][j]);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(c + (i * 2 + j) * 256, acc_frags[i][j], 16, wmma::mem_row_major);
}
launch k {
    a = arange(512) / 256 + 1;
    b = arange(512) / 256 * 2 + 1;
    c = zeros(1024);
    expect c == 16 * (arange(1024) / 512 + 1) * (arange(1024) / 256 % 2 * 2 + 1);
}
"#;
    let r = ok(src, &[], ONE, WARP);
    assert_eq!(r.counters.gld_instr, 4);
    assert_eq!(r.counters.gld_sectors, 64);
    assert_eq!(r.counters.gst_instr, 8);
    assert_eq!(r.counters.gst_sectors, 128);
    assert_eq!(r.counters.tensor_instr, 4);
}

#[test]
fn a_wmma_store_to_null_traps_only_where_it_runs() {
    // less_slow.cpp's `if (threadIdx.x == 2147483647) wmma::store_matrix_sync(nullptr, ...)`
    // never runs: flag = 1. Guarded by `blockIdx.x == 0` (the whole warp) it runs, and the
    // store through NULL traps at run time.
    let src = |cond: &str| {
        format!(
            r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(int* flag) {{
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 1.0f);
    if ({cond}) wmma::store_matrix_sync(nullptr, c, 16, wmma::mem_row_major);
    if (threadIdx.x == 0) flag[0] = 1;
}}
launch k {{ flag = zeros(1); block = 32; grid = 1; expect flag == [1]; }}
"#
        )
    };
    ok(
        &src("threadIdx.x == 2147483647"),
        &[],
        [1, 1, 1],
        [32, 1, 1],
    );
    let e = err(&src("blockIdx.x == 0"), &[], None, None);
    assert_eq!(codes(&e), ["simt::run::null_pointer"], "{e:?}");
}

#[test]
fn fragments_move_through_views_of_another_types_memory() {
    // DLRM's fp16 interaction kernel stores its float accumulator through a `float*` view of
    // its `half` staging buffer; ECE408's fused convolution carves one `extern __shared__
    // float` buffer into `__half` tiles and a float tile. Each element moves through the view
    // as any access does: ones(16x16) times ones(16x16) is 16 everywhere.
    let src = r#"
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half* a, float* out) {
  extern __shared__ half sh[];
  for (int i = threadIdx.x; i < 256; i += 32) sh[i] = a[i];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, sh, 16);
  wmma::load_matrix_sync(fb, sh, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  float* st = reinterpret_cast<float*>(sh);
  wmma::store_matrix_sync(st, acc, 16, wmma::mem_row_major);
  for (int i = threadIdx.x; i < 256; i += 32) out[i] = st[i];
}
launch k { a = ones(256); out = zeros(256); grid = 1; block = 32; dyn_smem = 1024; expect out == 16; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let carved = r#"
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void k(const float *a, const float *b, float *c) {
    extern __shared__ float shared[];
    __half* ta = (__half*)shared;
    __half* tb = (__half*)ta + 256;
    float* tc = (float*)tb + 256;
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) { ta[i] = __float2half(a[i]); tb[i] = __float2half(b[i]); }
    __syncwarp();
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
    wmma::fill_fragment(cf, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> bf;
    wmma::load_matrix_sync(af, ta, 16);
    wmma::load_matrix_sync(bf, tb, 16);
    wmma::mma_sync(cf, af, bf, cf);
    wmma::store_matrix_sync(tc, cf, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32) c[i] = tc[i];
}
launch k { a = ones(256); b = ones(256); c = zeros(256); grid = 1; block = 32; dyn_smem = 3072; expect c == 16; }
"#;
    ok(carved, &[], [1, 1, 1], [32, 1, 1]);
}
