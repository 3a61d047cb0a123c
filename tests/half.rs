//! `half` and `__nv_bfloat16`: each operation rounds to 16 bits (ties to even), conversions,
//! bit views, intrinsics, memory traffic and `expect` tolerance, with values derived by hand.
//!
//! A `half` has 10 fraction bits: between 1 and 2 its values are 2^-10 apart, so 1 + 2^-11 is
//! exactly halfway between 1 (fraction 0, even) and 1 + 2^-10 (fraction 1, odd). Its bits are
//! sign, 5 exponent bits biased by 15, 10 fraction bits: 1.0 is 0x3C00 = 15360. A bfloat16 has 7
//! fraction bits and float's exponent: 1.0 is 0x3F80 = 16256.

use crate::common;
use common::{codes, err, ok, run};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn each_half_operation_rounds_to_nearest_even() {
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const float* in, unsigned short* bits, unsigned* fbits) {
    half one = __float2half(in[0]);          // 1
    half tiny = __float2half(in[1]);         // 2^-11
    half three = __float2half(in[2]);        // 3 * 2^-11
    half sum = one + tiny;                   // 1 + 2^-11: a tie, to even: 1
    bits[0] = __half_as_ushort(sum);
    bits[1] = __half_as_ushort(one + three); // 1 + 3 * 2^-11: a tie, to even: 1 + 2^-9
    bits[2] = __half_as_ushort((one + tiny) + tiny);  // rounded twice: 1, not 1 + 2^-10
    bits[3] = __half_as_ushort(__hadd(one, tiny));
    half big = __float2half(60000.0f);
    bits[4] = __half_as_ushort(big + __float2half(10000.0f));   // 70000 > 65504: infinity
    // A `float` mixed in keeps the `float`: no rounding to 16 bits.
    float f = __half2float(one) + __half2float(tiny);
    fbits[0] = __float_as_uint(f);
    float g = one + 1.0f / 2048.0f;
    fbits[1] = __float_as_uint(g);
}
launch k {
    in = [1.0, 0.00048828125, 0.00146484375];
    bits = zeros(5);
    fbits = zeros(2);
    // 0x3C00, 0x3C02, 0x3C00, 0x3C00, 0x7C00 (+infinity).
    expect bits == [15360, 15362, 15360, 15360, 31744];
    // 1 + 2^-11 as a float: 0x3F800000 + (1 << 12) = 1065357312.
    expect fbits == [1065357312, 1065357312];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn compound_assignment_converts_the_right_side_to_half_first() {
    // `h += f` is `operator+=(__half&, const __half&)`: f = 2^-11 + 2^-22 becomes the half
    // 2^-11 (its 2^-22 is below half a unit), and 1 + 2^-11 is a tie that rounds to 1. Adding
    // the float unrounded would give 1 + 2^-11 + 2^-22, above the tie: 1 + 2^-10 (0x3C01).
    let src = r#"
__global__ void k(const float* in, unsigned short* bits, half* h) {
    half x = __float2half(1.0f);
    x += in[0];
    bits[0] = __half_as_ushort(x);
    h[0] = __float2half(1.0f);
    h[0] += in[0];
    bits[1] = __half_as_ushort(h[0]);
}
launch k {
    in = [0.000488519668579101562];
    bits = zeros(2);
    h = zeros(1);
    expect bits == [15360, 15360];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn fma_rounds_once_and_math_rounds_the_float_result() {
    // a = b = 1 + 2^-10, so a·b = 1 + 2^-9 + 2^-20 exactly. With c = -(1 + 2^-9), the fused
    // a·b + c is 2^-20, a half (subnormals are multiples of 2^-24: 16 · 2^-24, bits 0x0010 = 16);
    // rounding a·b first gives 1 + 2^-9 and then 0.
    // hsqrt(2): sqrt(2) = 1.41421356…, between 1448 · 2^-10 and 1449 · 2^-10, nearer the first:
    // 1.4140625 = 0x3C00 + 424 = 15784.
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(unsigned short* bits) {
    half a = __float2half(1.0009765625f);
    half c = __float2half(-1.001953125f);
    bits[0] = __half_as_ushort(__hfma(a, a, c));
    bits[1] = __half_as_ushort(__hadd(__hmul(a, a), c));
    bits[2] = __half_as_ushort(hsqrt(__float2half(2.0f)));
    bits[3] = __half_as_ushort(__hneg(a));          // sign bit: 0x8000 | 0x3C01 = 48129
    bits[4] = __half_as_ushort(__hmax(a, c));       // a
    bits[5] = __hlt(c, a) + 2 * (a > c) + 4 * __heq(a, a);
}
launch k {
    bits = zeros(6);
    expect bits == [16, 0, 15784, 48129, 15361, 7];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn bfloat16_rounds_to_seven_fraction_bits() {
    // 1 + 2^-8 is a tie between 1 (even) and 1 + 2^-7: 1 = 0x3F80. 1 + 3 · 2^-8 is a tie between
    // 1 + 2^-7 (odd) and 1 + 2^-6 (even): 0x3F82 = 16258. 2^-8 itself is exact (0x3B80 = 15232).
    let src = r#"
#include <cuda_bf16.h>
__global__ void k(const float* in, unsigned short* bits, float* back) {
    __nv_bfloat16 one = __float2bfloat16(in[0]);
    __nv_bfloat16 t = __float2bfloat16(in[1]);
    __nv_bfloat16 t3 = __float2bfloat16(in[2]);
    bits[0] = __bfloat16_as_ushort(one + t);
    bits[1] = __bfloat16_as_ushort(one + t3);
    bits[2] = __bfloat16_as_ushort(t);
    back[0] = __bfloat162float(one + t3);
}
launch k {
    in = [1.0, 0.00390625, 0.01171875];
    bits = zeros(3);
    back = zeros(1);
    expect bits == [16256, 16258, 15232];
    expect back == [1.015625];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn conversions_between_halves_and_integers_follow_the_mode() {
    // 2.5 as a half is exact; _rn rounds it to even (2), _rz truncates (2), _ru goes up (3),
    // _rd down (2); -2.5 with _rz is -2. __int2half_rn(2049): halves from 2048 to 4096 are 2
    // apart, so 2049 is a tie between 2048 (fraction 0) and 2050: 2048. __ushort_as_half(0x7C00)
    // is +infinity.
    let src = r#"
__global__ void k(int* out, float* f) {
    half h = __float2half(2.5f);
    out[0] = __half2int_rn(h);
    out[1] = __half2int_rz(h);
    out[2] = __half2int_ru(h);
    out[3] = __half2int_rd(h);
    out[4] = __half2int_rz(__hneg(h));
    out[5] = (int)__half2float(__int2half_rn(2049));
    out[6] = isinf(__half2float(__ushort_as_half(31744)));
    f[0] = __half2float(half(0.1f));
}
launch k {
    out = zeros(7);
    f = zeros(1);
    expect out == [2, 2, 3, 2, -2, 2048, 1];
    // 0.1 as a half: 1638 · 2^-14 = 0.0999755859375 (exactly; 0.1 · 2^14 = 1638.4).
    expect f == [0.0999755859375];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn half_buffers_move_two_bytes_per_element() {
    // One warp reads 32 consecutive halves (64 bytes, 2 sectors) twice and writes 32 (2
    // sectors); with `float` elements each request would be 4 sectors.
    let src = r#"
__global__ void k(const half* a, half* b) {
    int i = threadIdx.x;
    b[i] = a[i] * a[i];
}
launch k {
    a = rand(32);
    b = zeros(32);
    expect b == a * a;
}
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 4));
    // Load, load, multiply (its rounding to half is part of it), store: 4 warp instructions.
    assert_eq!(r.counters.warp_instr, 4);
    assert_eq!(r.counters.gst_sectors, 2);
}

#[test]
fn expect_on_halves_allows_a_unit_in_the_last_place() {
    // rand values are rounded to halves when bound; a + b rounds again. Against the exact sum the
    // error is at most half a unit (2^-11 relative at most), within the 1e-3 of a half and far
    // beyond a float's 1e-4 for some of 256 elements. A result off by 8 units is not accepted.
    let src = r#"
__global__ void k(const half* a, const half* b, half* c, half* d) {
    int i = threadIdx.x;
    c[i] = a[i] + b[i];
    d[i] = c[i] * __float2half(1.0078125f);
}
launch k {
    a = rand(256);
    b = rand(256);
    c = zeros(256);
    d = zeros(256);
    expect c == a + b;
}
"#;
    ok(src, &[], ONE, [256, 1, 1]);
    let wrong = src.replace("expect c == a + b;", "expect d == a + b;");
    let r = run(&wrong, &[], Some(ONE), Some([256, 1, 1])).expect("runs");
    assert!(!r.expects[0].passed);
}

#[test]
fn half2_operations_act_on_each_half() {
    // (1, 2^-11) + (2^-11, 1): each half is 1 + 2^-11, a tie that rounds to 1 (0x3C00 = 15360).
    // (1, 2^-11) · (2^-11, 1) = (2^-11, 2^-11): exponent -11 + 15 = 4, bits 4 << 10 = 4096.
    // __hfma2((1, 2^-11), (1, 2^-11), (2^-11, 1)): 1 + 2^-11 → 1 and 2^-22 + 1 → 1.
    // __heq2 of different pairs is (0, 0); __hlt2((2^-11, 1), (1, 2^-11)).x is 1.0 (15360).
    // Swapping a pair into itself twice gives it back.
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const float* in, unsigned short* bits, float* f) {
    half2 one_tiny = __floats2half2_rn(in[0], in[1]);
    half2 tiny_one = __lowhigh2highlow(one_tiny);
    half2 s = __hadd2(one_tiny, tiny_one);
    bits[0] = __half_as_ushort(__low2half(s));
    bits[1] = __half_as_ushort(__high2half(s));
    half2 p = one_tiny * tiny_one;
    bits[2] = __half_as_ushort(p.x);
    bits[3] = __half_as_ushort(p.y);
    float2 g = __half22float2(__hfma2(one_tiny, one_tiny, tiny_one));
    f[0] = g.x;
    f[1] = g.y;
    bits[4] = __hbeq2(s, __half2half2(__float2half(1.0f)));
    half2 e = __heq2(one_tiny, tiny_one);
    bits[5] = __half_as_ushort(e.x) + __half_as_ushort(__low2half(__hlt2(tiny_one, one_tiny)));
    half2 t = tiny_one;
    t = __lowhigh2highlow(t);
    bits[6] = __hbeq2(t, one_tiny);
    t = __halves2half2(t.y, t.x);
    bits[7] = __hbeq2(t, tiny_one);
}
launch k {
    in = [1.0, 0.00048828125];
    bits = zeros(8);
    f = zeros(2);
    expect bits == [15360, 15360, 4096, 4096, 1, 15360, 1, 1];
    expect f == [1.0, 1.0];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn half2_buffers_are_one_four_byte_access_per_lane() {
    // 32 lanes × 4 bytes = 128 bytes: 4 sectors per request, as for `float`; a and b are read
    // once each, c written once.
    let src = r#"
__global__ void k(const half2* a, const half2* b, half2* c) {
    int i = threadIdx.x;
    c[i] = __hadd2(a[i], b[i]);
}
launch k {
    a = rand(64);
    b = rand(64);
    c = zeros(64);
    expect c == a + b;
}
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 8));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (1, 4));
}

#[test]
fn atomic_add_on_halves_rounds_each_sum() {
    // Halves from 2048 to 4096 are 2 apart: 2048 + 1 = 2049 is a tie that rounds to 2048, so 32
    // atomicAdds of 1 leave 2048 where a float would reach 2080. From 0 the 32 sums are exact.
    // A bfloat16 at 256 is 2 apart too (7 fraction bits): 256 + 1 rounds back to 256.
    let src = r#"
__global__ void k(half* h, __nv_bfloat16* b) {
    atomicAdd(&h[0], __float2half(1.0f));
    atomicAdd(&h[1], __float2half(1.0f));
    atomicAdd(&b[0], __float2bfloat16(1.0f));
}
launch k {
    h = [2048, 0];
    b = [256];
    expect h == [2048, 32];
    expect b == [256];
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn atomic_add_on_pairs_rounds_each_half_in_one_access() {
    // CUDA's atomicAdd(half2*, half2) and (__nv_bfloat162*, ...): each half is an atomic add of
    // its own, rounded as it is stored; the 32-bit word is one access. Low half `.x` = h[0]:
    // 2048 + 1 = 2049 is a tie between 2048 and 2050 that rounds to even, 2048, every time
    // (an exact sum would give 2052); high half: 0 + 4 × 0.5 = 2 exactly. bfloat16: at 256 the
    // spacing is 2 (7 fraction bits), so 256 + 1 rounds back to 256; 0 + 4 × 0.25 = 1.
    // The old pairs (h[2], h[3]) start at (0, 0) and grow by (1, 2) in lane order.
    let src = r#"
__global__ void k(half* h, __nv_bfloat16* b, float* olds) {
    int t = threadIdx.x;
    atomicAdd((half2*)h, __floats2half2_rn(1.0f, 0.5f));
    half2 o = atomicAdd((half2*)&h[2], __floats2half2_rn(1.0f, 2.0f));
    olds[2 * t] = __low2float(o);
    olds[2 * t + 1] = __high2float(o);
    atomicAdd(reinterpret_cast<__nv_bfloat162*>(b), __floats2bfloat162_rn(1.0f, 0.25f));
}
launch k {
    h = [2048, 0, 0, 0];
    b = [256, 0];
    olds = zeros(8);
    expect h == [2048, 2, 4, 8];
    expect b == [256, 1];
    expect olds == [0, 0, 1, 2, 2, 4, 3, 6];
}
"#;
    let r = ok(src, &[], ONE, [4, 1, 1]);
    // Three warp atomics, each of the 4 lanes on one 4-byte word: 1 sector each (two scalar
    // atomics per pair would be 6).
    let c = r.counters;
    assert_eq!((c.gatom_instr, c.gatom_sectors), (3, 3));
}

#[test]
fn a_pair_atomic_used_as_a_scalar_is_an_error() {
    let src = r#"
__global__ void k(half2* h, float* out) {
    out[0] = atomicAdd(h, __floats2half2_rn(1.0f, 0.5f));
}
launch k { h = zeros(2); out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::mismatched_types"]);
}

#[test]
fn reciprocals_round_to_nearest_even_in_16_bits() {
    // hrcp / h2rcp: "half reciprocal in round-to-nearest-even mode" (CUDA math API). Bits from
    // gcc's _Float16 of the double 1/x (a C program over all 2^16 halves also found that
    // rounding the float quotient gives the same bits for every one):
    // 1/3 = 1.0101...b × 2^-2: fraction .333 × 1024 = 341.3 → 341 = 0x155, exponent 13:
    //   0 01101 0101010101 = 0x3555 (0.333251953125, rounded down);
    // 1/7 = 1.142857 × 2^-3: .142857 × 1024 = 146.3 → 146 = 0x092, exponent 12: 0x3092;
    // 1/1.2998046875 (0x3d33) = 1.538693 × 2^-1: .538693 × 1024 = 551.6 → 552 = 0x228 (up),
    //   exponent 14: 0x3a28 = 0.76953125;
    // 1/65504 = 1.5266e-5, below the least normal half 2^-14: a subnormal, 1.5266e-5 / 2^-24 =
    //   256.1 → 256: 0x0100;
    // 1/2^-24 (the least subnormal) = 2^24 > 65504: infinity, 0x7c00.
    // bfloat16 (7 fraction bits): 1/3: .333 × 128 = 42.67 → 43 = 0x2b (up), exponent 125:
    //   0 01111101 0101011 = 0x3eab. h2tanh(0.5) = 0.46211716 = 1.848469 × 2^-2: .848469 × 1024 =
    //   868.8 → 869 = 0x365, exponent 13: 0x3765 (gcc: _Float16 of tanh(0.5) is 0x3765).
    let src = r#"
__global__ void k(const half* x, unsigned short* bits, unsigned short* pbits, unsigned short* bbits) {
    int t = threadIdx.x;
    bits[t] = __half_as_ushort(hrcp(x[t]));
    half2 p = h2rcp(__halves2half2(x[t], x[t]));
    half2 q = h2tanh(__floats2half2_rn(0.0f, 0.5f));
    pbits[2 * t] = __half_as_ushort(__low2half(p));
    pbits[2 * t + 1] = __half_as_ushort(__high2half(q));
    bbits[t] = __bfloat16_as_ushort(hrcp(__float2bfloat16(3.0f)));
}
launch k {
    x = [3, 7, 1.2998046875, 65504, 0.000000059604644775390625];
    bits = zeros(5);
    pbits = zeros(10);
    bbits = zeros(5);
    expect bits == [0x3555, 0x3092, 0x3a28, 0x0100, 0x7c00];
    expect pbits == [0x3555, 0x3765, 0x3092, 0x3765, 0x3a28, 0x3765, 0x0100, 0x3765, 0x7c00, 0x3765];
    expect bbits == [0x3eab, 0x3eab, 0x3eab, 0x3eab, 0x3eab];
}
"#;
    ok(src, &[], ONE, [5, 1, 1]);
}

#[test]
fn hmax_nan_propagates_nan_and_hmax_does_not() {
    // __hmax(NaN, 1) is 1 (as fmaxf); __hmax_nan(NaN, 1) is NaN; __hmin_nan(2, 1) is 1.
    let src = r#"
__global__ void k(int* out) {
    half n = __ushort_as_half(0x7E00);
    half one = __float2half(1.0f);
    out[0] = (int)__half2float(__hmax(n, one));
    out[1] = __hisnan(__hmax_nan(n, one));
    out[2] = (int)__half2float(__hmin_nan(__float2half(2.0f), one));
}
launch k { out = zeros(3); expect out == [1, 1, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn host_arithmetic_on_half_buffers_is_floating_point() {
    // A half buffer is floating-point data in the launch section: `a / 2` of 3 is 1.5, not the
    // integer 1.
    let src = r#"
__global__ void k(const half* a, half* c) { c[0] = a[0] * __float2half(0.5f); }
launch k { a = [3]; c = zeros(1); expect c == a / 2; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn directed_conversions_to_half_round_the_exact_value_once() {
    // Halves between 2048 and 4096 are 2 apart: 2049 lies between 2048 (0x6800) and 2050
    // (0x6801); -3001 rounded down is -3002 = -(1 + 477/512) · 2^11: 0x8000 | 26 << 10 | 477.
    // 70000 and 2^32 - 1 are past 65504 (0x7BFF): down or toward zero stop there, up is
    // infinity (0x7C00). 0.1f = 13421773 · 2^-27 is 1638.4 units of 2^-14: between 1638 and
    // 1639 units, bits 11 << 10 | (1638 - 1024) = 0x2E66 and 0x2E67. -1e-10 is below the
    // smallest subnormal, 2^-24: up it is -0 (0x8000), down -2^-24 (0x8001). Each was checked
    // with Python's fractions against every half's exact value.
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const int* n, const float* f, unsigned short* h) {
    h[0] = __half_as_ushort(__int2half_rd(n[0]));
    h[1] = __half_as_ushort(__int2half_ru(n[0]));
    h[2] = __half_as_ushort(__int2half_rz(n[0]));
    h[3] = __half_as_ushort(__int2half_rd(-n[0]));
    h[4] = __half_as_ushort(__int2half_ru(-n[0]));
    h[5] = __half_as_ushort(__short2half_rd((short)n[1]));
    h[6] = __half_as_ushort(__ll2half_rd((long long)n[2]));
    h[7] = __half_as_ushort(__ll2half_ru((long long)n[2]));
    h[8] = __half_as_ushort(__int2half_rd(-n[2]));
    h[9] = __half_as_ushort(__int2half_rz(-n[2]));
    h[10] = __half_as_ushort(__uint2half_ru(4294967295u));
    h[11] = __half_as_ushort(__ull2half_rz(4294967295ull));
    h[12] = __half_as_ushort(__float2half_rd(f[0]));
    h[13] = __half_as_ushort(__float2half_ru(f[0]));
    h[14] = __half_as_ushort(__float2half_rz(f[0]));
    h[15] = __half_as_ushort(__float2half_ru(f[1]));
    h[16] = __half_as_ushort(__float2half_rd(f[1]));
    h[17] = __half_as_ushort(__ushort2half_rn((unsigned short)n[0]));
}
launch k {
    n = [2049, -3001, 70000];
    f = [0.1, -1e-10];
    h = zeros(18);
    expect h == [26624, 26625, 26624, 59393, 59392, 59869, 31743, 31744, 64512, 64511,
                 31744, 31743, 11878, 11879, 11878, 32768, 32769, 26624];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn directed_conversions_to_bfloat16_and_float_do_not_round_twice() {
    // 2^60 + 1 is 2^60 as a double; rounded up to bfloat16 (7 fraction bits) it is the next
    // bfloat16 above 2^60, 2^60 + 2^53: exponent 60 + 127 = 187, bits 187 << 7 | 1 = 0x5D81.
    // 1 + 2^-8 + 2^-20 lies between the bfloat16s 1 (0x3F80) and 1 + 2^-7 (0x3F81).
    // 16777217 = 2^24 + 1 lies between the floats 2^24 (0x4B800000) and 2^24 + 2.
    // The double 0.1 is below the float 0.1f (0x3DCCCCCD), so rounded down it is 0x3DCCCCCC.
    let src = r#"
#include <cuda_bf16.h>
__global__ void k(const int* n, const float* f, unsigned short* b, unsigned* w) {
    long long big = (1LL << 60) + n[0];
    b[0] = __bfloat16_as_ushort(__ll2bfloat16_ru(big));
    b[1] = __bfloat16_as_ushort(__ll2bfloat16_rd(big));
    b[2] = __bfloat16_as_ushort(__float2bfloat16_rd(f[0]));
    b[3] = __bfloat16_as_ushort(__float2bfloat16_ru(f[0]));
    b[4] = __bfloat16_as_ushort(__float2bfloat16_rz(-f[0]));
    w[0] = __float_as_uint(__int2float_rz((int)n[1]));
    w[1] = __float_as_uint(__int2float_ru((int)n[1]));
    w[2] = __float_as_uint(__ll2float_rd(-(long long)n[1]));
    w[3] = __float_as_uint(__double2float_rd(0.1));
    w[4] = __float_as_uint(__double2float_ru(0.1));
}
launch k {
    n = [1, 16777217];
    f = [1.00390720367431640625];
    b = zeros(5);
    w = zeros(5);
    // -(1 + 2^-8 + 2^-20) toward zero: -1 = 0xBF80 = 49024.
    expect b == [23937, 23936, 16256, 16257, 49024];
    expect w == [1266679808, 1266679809, 3414163457, 1036831948, 1036831949];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_cast_to_float_leaves_16_bits_behind() {
    // a = 1 + 2^-10 = 1025/1024, b = 5.33203125 = 1365/256, both halves. In float:
    // a + b = 6.3330078125 (= 6485/1024, exact), a - b = -4.3310546875 (exact), a * b =
    // 1399125/262144 = 5.337238311767578125 (21 bits, exact). Added as halves (2^-8 apart in
    // [4, 8)) the sum would round to 6.33203125 and the product to 5.3359375: the casts make the
    // operators `float`'s, as in C++ (a cast `float` has no `__half` operator+). bfloat16 the
    // same: 1.0078125 * 3.015625 = 3.0391845703125 in float (3.046875 as a bfloat16).
    let src = r#"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(const half* in, const __nv_bfloat16* bf, float* out) {
    half a = in[0];
    out[0] = (float)a + (float)in[1];
    out[1] = static_cast<float>(in[0]) - static_cast<float>(in[1]);
    out[2] = float(a) * float(in[1]);
    out[3] = (float)bf[0] * (float)bf[1];
    out[4] = a + in[1];
}
launch k {
    in = [1.0009765625, 5.33203125];
    bf = [1.0078125, 3.015625];
    out = zeros(5);
    // out[4]: two halves add as halves, rounded to 6.33203125.
    expect out == [6.3330078125, -4.3310546875, 5.337238311767578, 3.0391845703125, 6.33203125];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_half_constant_keeps_its_type_in_arithmetic() {
    // vllm's gelu kernels write `((T)1.0) + t` with T = half: `operator+(__half, __half)`,
    // rounded to half. h = half(0.0007) = 0.000699996948... (normal; half's ulp at 1 is 2^-10
    // and h > 2^-11), so 1 + h rounds to 1 + 2^-10 = 1.0009765625 in half, every spelling of
    // the constant alike; `(float)one + h` adds in float (h widened): 1.000699996948...
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const half* in, float* out, float* wide) {
    half h = in[0];
    const half one = (half)1.0;
    out[0] = (float)(((half)1.0) + h);
    out[1] = (float)(half(1.0f) + h);
    out[2] = (float)(static_cast<half>(1.0) + h);
    out[3] = (float)(__float2half(1.0f) + h);
    out[4] = (float)(((half)1) + h);
    out[5] = (float)(one + h);
    out[6] = (float)(h + one);
    wide[0] = (float)one + (float)h;
}
launch k {
    in = [0.0007]; out = zeros(7); wide = zeros(1);
    expect out == 1.0009765625;
    expect wide == 1.000699996948242;
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn half2_compound_assignment_is_hadd2() {
    // cuda_fp16.hpp's `__half2 &operator+=(__half2&, const __half2&)` (llama.cpp's mmv:
    // `sumh2 += x2[col2] * make_half2(...)`): four rounds of (1·2, 1·3) give (8, 12); `-=`
    // then takes (1, 1) off each half, `*=` doubles: (14, 22).
    let src = r#"
__global__ void k(const half2* x, float* out, int n) {
    half2 s = make_half2(0.0f, 0.0f);
    for (int i = 0; i < n; ++i) {
        s += x[i] * make_half2(2.0f, 3.0f);
    }
    out[0] = __low2float(s);
    out[1] = __high2float(s);
    s -= make_half2(1.0f, 1.0f);
    s *= make_half2(2.0f, 2.0f);
    out[2] = __low2float(s);
    out[3] = __high2float(s);
}
launch k { x = ones(8); out = zeros(4); n = 4; expect out == [8, 12, 14, 22]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_sixteen_bit_atomic_cas_loop_builds_a_half_maximum() {
    // candle's atomicMaxf(__half*): atomicCAS((unsigned short*)address, ...) on the half's 16
    // bits until it returns `assumed`. 64 threads offer 0..63: m = 63. The same loop on plain
    // unsigned shorts adds 3 per thread: 192.
    let src = r#"
#include <cuda_fp16.h>
__device__ __half atomicMaxh(__half* address, __half val) {
    unsigned short int* casted_address = (unsigned short int*)address;
    unsigned short int old = *casted_address;
    unsigned short int assumed;
    do {
        assumed = old;
        old = atomicCAS(casted_address, assumed, __half_as_ushort(__hmax(val, __ushort_as_half(assumed))));
    } while (assumed != old);
    return __ushort_as_half(old);
}
__global__ void k(const float* in, __half* m, unsigned short* count) {
    atomicMaxh(m, __float2half(in[threadIdx.x]));
    unsigned short old = count[0], assumed;
    do { assumed = old; old = atomicCAS(count, assumed, (unsigned short)(assumed + 3)); } while (assumed != old);
}
launch k { in = arange(64); m = zeros(1); count = zeros(1); expect m == 63; expect count == 192; }
"#;
    let r = common::ok(src, &[], [1, 1, 1], [64, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_sixteen_bit_atomic_cas_works_on_short_memory_global_and_shared() {
    // `atomicCAS((unsigned short*)p, 0, 5)` over `short` memory compares and swaps the 16
    // bits: a global 0 becomes 5, and a shared word set to 0 becomes 5 (read back as 5).
    // A second CAS expecting 0 finds 5 and leaves it (old = 5, stored to a[2]).
    let src = r#"
__global__ void k(short* a) {
    __shared__ short s[1];
    s[0] = 0;
    atomicCAS((unsigned short*)a, (unsigned short)0, (unsigned short)5);
    atomicCAS((unsigned short*)s, (unsigned short)0, (unsigned short)5);
    a[1] = s[0];
    a[2] = (short)atomicCAS((unsigned short*)s, (unsigned short)0, (unsigned short)7);
}
launch k { a = zeros(3); expect a == [5, 5, 5]; }
"#;
    let r = common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn hisinf_signs_infinities_and_hisnan_reads_its_operand_once() {
    // cuda_fp16.h: __hisinf gives -1 for -inf, 1 for +inf, 0 otherwise; __hisnan 1 for NaN.
    // Each compares its operand twice in simt's expansion, but the hardware loads h[i] once:
    // one load request per call per warp, so gld_instr = 2 for the two calls in one warp.
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const half* h, int* o, int* n) {
    o[threadIdx.x] = __hisinf(h[threadIdx.x]);
    n[threadIdx.x] = __hisnan(h[threadIdx.x]);
}
launch k { h = [1, inf, -inf, nan]; o = zeros(4); n = zeros(4); expect o == [0, 1, -1, 0]; expect n == [0, 0, 0, 1]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    assert!(r.expects_passed());
    assert_eq!(r.counters.gld_instr, 2);
}

#[test]
fn paired_intrinsics_on_bfloat162_elements_compute_in_bfloat16() {
    // AQLM: `__hfma2(__hadd2(a[i], b[i]), b[i], z)` on `__nv_bfloat162*` elements, nested: the
    // kind comes from the element (and from the inner call), not half's by default. Pair 0:
    // (1 + 1) * 1 = 2, (2 + 1) * 1 = 3. Pair 1: 256 + 1 = 257 is not a bfloat16 (8 significant
    // bits: 256 and 258 are its neighbours, the tie goes to the even 256), times 1 = 256; in
    // half it would be 257. (4 + 2) * 2 = 12.
    let src = r#"
#include <cuda_bf16.h>
__global__ void k(const __nv_bfloat162* a, const __nv_bfloat162* b, __nv_bfloat162* c) {
    int i = threadIdx.x;
    __nv_bfloat162 z = {};
    c[i] = __hfma2(__hadd2(a[i], b[i]), b[i], z);
}
launch k {
    a = [1, 2, 256, 4]; b = [1, 1, 1, 2]; c = zeros(4);
    expect c == [2, 3, 256, 12];
}
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}
