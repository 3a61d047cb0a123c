//! CUDA's integer intrinsics, the rest of `<math.h>`, library constants and C's other type names:
//! expected values come from gcc and numpy, as noted beside each.

use crate::common;
use common::ok;

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn integer_multiply_intrinsics_match_c() {
    // Expected values printed by gcc for the documented definitions: __mul24 multiplies the low
    // 24 bits of each operand sign-extended, __umul24 the low 24 bits, __mulhi/__umulhi take the
    // high 32 bits of the 64-bit product:
    //   (int32_t)((uint32_t)s24(x) * (uint32_t)s24(y)) = -225545160
    //   (int32_t)(((int64_t)x * y) >> 32)              = -2520
    //   (x & 0xffffff) * (y & 0xffffff)                = 1670280248
    //   (uint32_t)(((uint64_t)x * y) >> 32)            = 8762912
    //   s24(9000000) * 3                                = -23331648 (9000000 overflows 24 bits)
    // __mul64hi: 3037000500^2 wraps past 2^63 to -9223372036709301616 as a long long; times 4
    // the 128-bit product is -36893488146837206464, just above -2 · 2^64: its high half is -2
    // (python: (-9223372036709301616 * 4) >> 64 == -2).
    // `mul24`/`umul24`, device_functions.hpp's wrappers (LAMMPS's GLOBAL_ID_X), give the same.
    let src = r#"
__global__ void k(int* a, unsigned* u, int x, int y) {
    a[4] = mul24(x, y);
    u[2] = umul24(x, y);
    a[0] = __mul24(x, y);
    a[1] = __mulhi(x, y);
    u[0] = __umul24(x, y);
    u[1] = __umulhi(x, y);
    a[2] = __mul24(9000000, 3);
    long long big = 3037000500ll;
    a[3] = (int)__mul64hi(big * big, 4ll);
}
launch k {
    a = zeros(5); u = zeros(3); x = -1234567; y = 8765432; block = 1; grid = 1;
    expect a == [-225545160, -2520, -23331648, -2, -225545160];
    expect u == [1670280248, 8762912, 1670280248];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn the_rest_of_math_h_and_the_fast_math_forms() {
    // Reference values from numpy in float64, rounded to float32 (each function is correctly
    // rounded in Rust's libm for these inputs to well within the tolerance used below).
    let src = r#"
__global__ void k(float* out, double* d) {
    float x = 0.5f;
    out[0] = asinf(x);
    out[1] = acosf(x);
    out[2] = atanf(x);
    out[3] = sinhf(x);
    out[4] = coshf(x);
    out[5] = expm1f(x);
    out[6] = log1pf(x);
    out[7] = cbrtf(27.0f);
    out[8] = hypotf(3.0f, 4.0f);
    out[9] = copysignf(2.0f, -0.0f);
    out[10] = fdimf(5.0f, 7.0f);
    out[11] = rintf(2.5f);
    out[12] = __saturatef(1.5f) + __saturatef(-2.0f);
    out[13] = __expf(1.0f);
    out[14] = __fdividef(1.0f, 4.0f);
    out[15] = exp10f(2.0f);
    d[0] = atan(1.0) * 4.0;
    d[1] = M_PI;
}
launch k { out = zeros(16); d = zeros(2); block = 1; grid = 1;
    expect out == [0.5235987755982989, 1.0471975511965979, 0.4636476090008061, 0.5210953054937474,
                   1.1276259652063807, 0.6487212707001282, 0.4054651081081644, 3, 5, -2, 0, 2,
                   1, 2.718281828459045, 0.25, 100];
    expect d == [3.141592653589793, 3.141592653589793];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn library_constants_have_c_types_and_values() {
    let src = r#"
__global__ void k(float* f, int* i, unsigned* u) {
    f[0] = FLT_MAX;
    f[1] = -INFINITY < -FLT_MAX ? 1.0f : 0.0f;
    f[2] = FLT_EPSILON;
    f[3] = (float)M_E;
    i[0] = INT_MAX;
    i[1] = INT_MIN;
    i[2] = CHAR_BIT;
    u[0] = UINT_MAX;
    u[1] = INT_MAX + 1u;
}
launch k { f = zeros(4); i = zeros(3); u = zeros(2); block = 1; grid = 1;
    expect f == [3.4028234663852886e38, 1, 1.1920928955078125e-07, 2.718281828459045];
    expect i == [2147483647, -2147483648, 8];
    expect u == [4294967295, 2147483648];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn stdint_limits_have_glibcs_types_and_values() {
    // CUDA-CenterPoint's `uint32_t empty_key = UINT32_MAX;`. The types are glibc's: UINT16_MAX
    // is the int 65535, so UINT16_MAX + 1 is 65536 (no wrap); UINT32_MAX is unsigned, so
    // UINT32_MAX + 1 wraps to 0; INT64_MIN and SIZE_MAX are 64-bit (SIZE_MAX + 1 wraps to 0);
    // sizeof(UINT32_MAX) is 4, sizeof(INT64_MAX) 8.
    let src = r#"
#include <cstdint>
__global__ void k(long long* o) {
    o[0] = UINT8_MAX + INT8_MIN;
    o[1] = UINT16_MAX + 1;
    o[2] = UINT32_MAX + 1;
    o[3] = INT32_MIN;
    o[4] = INT64_MIN == -9223372036854775807LL - 1;
    o[5] = SIZE_MAX + 1;
    o[6] = sizeof(UINT32_MAX) + 10 * sizeof(INT64_MAX);
    o[7] = UINT64_MAX == 18446744073709551615ULL;
}
launch k { o = zeros(8); block = 1; grid = 1;
    expect o == [127, 65536, 0, -2147483648, 1, 0, 84, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn c_spells_its_integer_types_many_ways() {
    // `long` is 64-bit in CUDA (LP64): 2^40 fits; `short int` wraps at 2^15.
    let src = r#"
__global__ void k(long long* out) {
    long int l = 1l << 40;
    unsigned long ul = 3ul;
    short int s = 32767;
    s = s + 1;
    signed x = -2;
    uint ui = 4u;
    ushort us = 65535;
    uchar uc = 255;
    out[0] = l;
    out[1] = ul + ui + us + uc;
    out[2] = s;
    out[3] = x;
}
launch k { out = zeros(4); block = 1; grid = 1;
    expect out == [1099511627776, 65797, -32768, -2];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn cxx_spellings_real_kernels_use() {
    // Function qualifiers (GCC's `__inline` too), `extern "C"`, `__launch_bounds__` with two values, `static __shared__`
    // in a kernel, functional casts and chained assignment. Thread t: s[t] = m = 2t; then
    // a[t] = s[31 - t] + m = 2 (31 - t) + 2t = 62.
    let src = r#"
static __inline__ __device__ int twice(int x) { return int(2.0f * float(x)); }
__forceinline__ __device__ int same(int x) { return x; }
__inline __device__ int plus0(int x) { if (x > 0) { return x; } return 0; }
extern "C" __global__ void __launch_bounds__(256, 2) k(int* a, float* f) {
    static __shared__ int s[32];
    int m;
    s[threadIdx.x] = m = same(twice(plus0(threadIdx.x))) + int(0);
    __syncthreads();
    a[threadIdx.x] = s[31 - threadIdx.x] + m;
    f[threadIdx.x] = f[threadIdx.x] = 1.5f;
}
launch k { a = zeros(32); f = zeros(32); block = 32; grid = 1; expect a == 62; expect f == 1.5; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn declaration_spellings_of_books_and_benchmarks() {
    // A qualifier after the return type (`void __global__`, `static void __device__`), GCC's
    // `__attribute__`, prototypes before the definitions, an anonymous namespace, and one
    // `__shared__` declaration of two aligned arrays. Thread t: s[t] = 3t, r[t] = t + 1, so
    // a[t] = twice(s[t]) + r[31 - t] = 6t + 32 - t = 5t + 32.
    let src = r#"
__global__ void k(int* a);
static int __device__ twice(int x);
namespace {
__device__ inline __attribute__((always_inline)) int one() { return 1; }
}
static int __device__ twice(int x) { return 2 * x; }
void __global__ __launch_bounds__(32) k(int* a) {
    __shared__ __align__(16) int s[32], r[2][16];
    int t = threadIdx.x;
    s[t] = 3 * t;
    r[t / 16][t % 16] = t + one();
    __syncthreads();
    a[t] = twice(s[t]) + r[(31 - t) / 16][(31 - t) % 16];
}
launch k { a = zeros(32); block = 32; grid = 1; expect a == arange(32) * 5 + 32; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn file_scope_spellings_of_shoc_and_professional_cuda_c() {
    // SHOC's `};` after a member function, Professional CUDA C's `__device__ __constant__`
    // array, and a `__managed__` variable (global memory in a launch). Thread t of 8:
    // out[t] = coef[t % 4] + s[7 - t] = (t % 4 + 1) + (7 - t); total = 8 × 1 = 8.
    let src = r#"
__device__ __constant__ float coef[4];
__managed__ float total;
class Shared {
    public:
      __device__ inline float* get() { extern __shared__ float s[]; return s; };
};
__global__ void k(float* out) {
    Shared sh;
    float* s = sh.get();
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = coef[t % 4] + s[7 - t];
    atomicAdd(&total, 1.0f);
}
launch k { coef = [1, 2, 3, 4]; total = 0; out = zeros(8); block = 8; grid = 1; dyn_smem = 32;
    expect out == [8, 8, 8, 8, 4, 4, 4, 4]; expect total == 8; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn vector_type_names_are_not_taken_for_their_prefixes() {
    // `uint4` is not `uint` followed by `4`, nor `ulonglong` `ulong`.
    let src = r#"
__global__ void k(const uint4* in, ulonglong* out) {
    uint4 v = in[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
launch k { in = arange(16); out = zeros(4); block = 4; grid = 1; expect out == arange(4) * 16 + 6; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn bit_intrinsics_match_gcc_builtins() {
    // gcc: __builtin_popcount(0xF0F0) = 8, __builtin_clz(1) = 31 (CUDA's __clz(0) is 32),
    // ffs(0) = 0, ffs(8) = 4, bit reverse of 1 = 0x80000000; the ll forms on 64 bits:
    // popcountll(~0) = 64, clzll(1) = 63, ffsll(2^40) = 41, reversed 1 = 2^63.
    let src = r#"
__global__ void k(int* i, unsigned* u, unsigned long long* w) {
    i[0] = __popc(0xF0F0u);
    i[1] = __clz(1);
    i[2] = __clz(0);
    i[3] = __ffs(0);
    i[4] = __ffs(8);
    i[5] = __popcll(-1ll);
    i[6] = __clzll(1ll);
    i[7] = __ffsll(1ll << 40);
    u[0] = __brev(1u);
    w[0] = __brevll(1ull);
}
launch k { i = zeros(8); u = zeros(1); w = zeros(1); block = 1; grid = 1;
    expect i == [8, 31, 32, 0, 4, 64, 63, 41];
    expect u == [2147483648];
    expect w == [9223372036854775808];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn c_and_cuda_forms_older_code_uses() {
    // `float in[]` parameters, several file-scope constants in one declaration, an array sized by
    // a local `constexpr`, brace initialisation, `extern float __shared__`, the mask-less
    // `__shfl_down` (a warp sum: 0 + ... + 31 = 496) and `__threadfence()`.
    let src = r#"
const int W = 32, H = 1;
__global__ void k(const float in[], int out[]) {
    constexpr int N = 4;
    float acc[N] = {0};
    extern float __shared__ smem[];
    int i{(int)threadIdx.x};
    smem[i] = in[i];
    __syncthreads();
    acc[N - 1] = smem[W * H - 1 - i];
    int v = i;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
    __threadfence();
    out[i] = (int)acc[3] + 1000 * (i == 0 ? v : 0);
}
launch k { in = arange(32); out = zeros(32); block = 32; grid = 1; dyn_smem = 128;
    expect out == [496031, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                   10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert!(r.hints.iter().any(|h| h.rule == "deprecated"));
}

#[test]
fn overloaded_device_functions_are_chosen_by_argument_types() {
    // OLCF's gaussian_pdf: gpdf(float, float) and gpdf(double, double). The float call takes the
    // float one (1), the double call the double one (2); a void overload by arity.
    let src = r#"
__device__ float pick(float a, float b) { return 1.0f; }
__device__ double pick(double a, double b) { return 2.0; }
__device__ void mark(float* o) { o[0] = 5.0f; }
__device__ void mark(float* o, int k) { o[0] = (float)k; }
__global__ void k(float* out) {
    float f = 1.0f;
    double d = 1.0;
    out[0] = pick(f, f);
    out[1] = (float)pick(d, d);
    mark(out + 2);
    mark(out + 3, 7);
}
launch k { out = zeros(4); block = 1; grid = 1; expect out == [1, 2, 5, 7]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn clock_counts_the_warp_instructions_the_block_issued() {
    // clock() is the block's issued warp instructions so far (deterministic, unlike the SM's
    // cycle counter). Block of 64 threads = 2 warps: the first clock() issues 2 (t0 = 2), the
    // load and the multiply 2 each, the second clock() 2 more: t1 = 8, t1 - t0 = 6.
    let src = r#"
__global__ void k(const float* a, float* b, clock_t* t) {
    clock_t t0 = clock();
    float x = a[threadIdx.x] * 2.0f;
    clock_t t1 = clock();
    b[threadIdx.x] = x;
    t[threadIdx.x] = t1 - t0;
}
launch k { a = ones(64); b = zeros(64); t = zeros(64); block = 64; grid = 1; expect t == 6; expect b == 2; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn rhypot_is_the_reciprocal_of_hypot_without_its_overflow() {
    // CUDA's rhypotf/rhypot = 1/√(x² + y²) (JAX's drotg), checked bit for bit against gcc 13 on
    // x86-64: (float)(1.0 / hypot(3, 4)) = 0.2f (bits 1045220557); for (2e38, 3e38) hypotf
    // overflows (1.0f / hypotf gives 0) but (float)(1.0 / hypot(2e38, 3e38)) = 2.77350037e-39,
    // subnormal (0x1.e3364p-129, bits 1979236); 1.0 / hypot(6, 8) = 0.1 (bits
    // 4591870180066957722); 1.0 / hypot(1e300, 1e300) = 7.0710678118654743e-301 (bits
    // 116617008165298724), where 1 / sqrt(x * x + y * y) gives 0. rhypotf(0, 0) = +inf, so its
    // reciprocal is 0; rhypotf(inf, y) = 0.
    let src = r#"
__global__ void k(int* f, long long* d, float* v) {
    f[0] = __float_as_int(rhypotf(3.0f, 4.0f));
    f[1] = __float_as_int(rhypotf(2e38f, 3e38f));
    d[0] = __double_as_longlong(rhypot(6.0, 8.0));
    d[1] = __double_as_longlong(rhypot(1e300, 1e300));
    v[0] = 1.0f / rhypotf(0.0f, 0.0f);
    v[1] = rhypotf(INFINITY, 1.0f);
}
launch k { f = zeros(2); d = zeros(2); v = [7, 7]; block = 1; grid = 1;
    expect f == [1045220557, 1979236];
    expect d == [4591870180066957722, 116617008165298724];
    expect v == [0, 0];
}
"#;
    ok(src, &[], ONE, ONE);
}
