//! Library headers simt reads in place of the real ones (`#include <thrust/complex.h>`):
//! results as the library computes them, derived by hand beside each case.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn thrust_complex_computes_as_thrust_does() {
    // a = 1.5 - 2i, b = 1 + i.
    // a * b + a - b = (1.5 + 2 + (1.5 - 2)i) + a - b = (3.5 - 0.5i) + (1.5 - 2i) - (1 + i)
    //   = 4 - 3.5i.
    // a / b, thrust's way: s = |1| + |1| = 2, oos = 0.5; ars = 0.75, ais = -1, brs = bis = 0.5;
    //   s = 0.25 + 0.25 = 0.5, oos = 2; re = (0.375 - 0.5) * 2 = -0.25, im = (-0.5 - 0.375) * 2
    //   = -1.75 (all exact in float).
    // abs(a) = hypot(1.5, 2) = 2.5; norm(a) = 2.25 + 4 = 6.25; conj(a) = 1.5 + 2i;
    // exp(0 + 0i) = 1 + 0i (thrust's cexp keeps an imaginary part of zero); -a = -1.5 + 2i;
    // a == a, a != b: 1 and 1. The built-ins of the same names still take scalars:
    // abs(-3) + exp(0) = 4.
    let src = r#"
#include <thrust/complex.h>
typedef thrust::complex<float> complex;
__global__ void k(float* out) {
    complex a(1.5f, -2.0f);
    complex b = complex(1.0f, 1.0f);
    complex c = a * b + a - b;
    complex d = a / b;
    complex e = thrust::exp(complex(0.0f, 0.0f));
    complex n = -a;
    out[0] = c.real(); out[1] = c.imag();
    out[2] = d.real(); out[3] = d.imag();
    out[4] = thrust::abs(a); out[5] = thrust::norm(a); out[6] = thrust::conj(a).imag();
    out[7] = e.real(); out[8] = e.imag();
    out[9] = n.real(); out[10] = n.imag();
    out[11] = (a == a) + (a != b);
    out[12] = abs(-3.0f) + exp(0.0f);
}
launch k {
    out = zeros(13);
    expect out == [4, -3.5, -0.25, -1.75, 2.5, 6.25, 2, 1, 0, -1.5, 2, 2, 4];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn cupy_complex_is_thrust_complex_in_the_global_scope() {
    // CuPy's RawKernel header: `complex<float>`, `conj`, `exp` unqualified, and CuPy's
    // `isnan`/`isfinite` of a complex. z = 1 + 2i: conj(z) * z = |z|^2 = 5 + 0i; exp(0) = 1;
    // isnan(nan + 0i) = 1, isfinite(z) = 1, isnan(z) = 0, and isnan(2.0f) is still CUDA's (0).
    let src = r#"
#include <cupy/complex.cuh>
extern "C" __global__ void k(float* out) {
    complex<float> z(1.0f, 2.0f);
    complex<float> p = conj(z) * z;
    complex<float> e = exp(complex<float>(0.0f, 0.0f));
    out[0] = p.real(); out[1] = p.imag(); out[2] = e.real();
    out[3] = isnan(complex<float>(nanf(""), 0.0f)) + isfinite(z) * 2 + isnan(z) * 4;
    out[4] = isnan(2.0f);
}
launch k {
    out = zeros(5);
    expect out == [5, 0, 1, 3, 0];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_header_is_read_once_and_only_when_included() {
    // Included twice: read once (as its include guard would), so nothing is defined twice.
    let twice = r#"
#include <thrust/complex.h>
#include "thrust/complex.h"
__global__ void k(float* out) {
    thrust::complex<float> z(3.0f, 4.0f);
    out[0] = thrust::abs(z);
}
launch k { out = zeros(1); expect out == 5; }
"#;
    ok(twice, &[], ONE, ONE);
    // Without the include, thrust::complex is unknown, as it is to nvcc.
    let without = "__global__ void k(float* out) {\n    thrust::complex<float> z(3.0f, 4.0f);\n    out[0] = z.real();\n}\n";
    let f = err(without, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert!(!codes(&f).is_empty());
}

#[test]
fn helper_math_operators_and_functions_on_vectors() {
    // Thread i of 64: s[i] = (i, 1, 2, 3); threads below 32 add s[i + 32] with helper_math's
    // uint4 operator+=: s[0] = (32, 2, 4, 6). a = s[i] + s[i], then += (1, 1, 1, 1):
    // thread 0 (65, 5, 9, 13), thread 1 ((1 + 33) * 2 + 1, 5, 9, 13) = (69, ...), thread 40
    // (81, 3, 5, 7). f: v = (1, 2, 3) * 2 = (2, 4, 6), clamped to [0, 5]: (2, 4, 5), dot 45;
    // length((3, 4)) = 5; clamp(7, 0, 1) = 1; normalize((0, 3, 4)).z = 0.8 (rsqrtf(25) = 0.2 is
    // exact); cross((1,0,0), (0,1,0)).z = 1; lerp(2, 4, 0.25) = 2.5; min(i, 3) keeps the
    // built-in: 45 + 5 + 1 + 0.8 + 1 + 2.5 + min(i, 3), added in float below.
    let out: Vec<String> = (0..64u32)
        .flat_map(|i| {
            if i < 32 {
                [4 * i + 65, 5, 9, 13]
            } else {
                [2 * i + 1, 3, 5, 7]
            }
        })
        .map(|x| x.to_string())
        .collect();
    // The sum in float, in C's order.
    let f: Vec<String> = (0..64)
        .map(|i: i32| {
            let v = 45f32 + 5.0 + 1.0 + 0.8 + 1.0 + 2.5 + i.min(3) as f32;
            format!("{v:?}")
        })
        .collect();
    let src = format!(
        r#"
#include "helper_math.h"
__global__ void k(uint4* out, float* f) {{
    __shared__ uint4 s[64];
    int i = threadIdx.x;
    s[i] = make_uint4(i, 1, 2, 3);
    __syncthreads();
    if (i < 32) s[i] += s[i + 32];
    __syncthreads();
    uint4 a = s[i] + s[i];
    a += make_uint4(1, 1, 1, 1);
    out[i] = a;
    float3 v = make_float3(1.0f, 2.0f, 3.0f) * 2.0f;
    v = clamp(v, 0.0f, 5.0f);
    float2 w = make_float2(3.0f, 4.0f);
    float3 n = normalize(make_float3(0.0f, 3.0f, 4.0f));
    float3 c = cross(make_float3(1.0f, 0.0f, 0.0f), make_float3(0.0f, 1.0f, 0.0f));
    f[i] = dot(v, v) + length(w) + clamp(7.0f, 0.0f, 1.0f) + n.z + c.z + lerp(2.0f, 4.0f, 0.25f)
         + min(i, 3);
}}
launch k {{ out = zeros(256); f = zeros(64); expect out == [{}]; expect f == [{}]; }}
"#,
        out.join(", "),
        f.join(", ")
    );
    ok(&src, &[], ONE, [64, 1, 1]);
}

#[test]
fn cucomplex_computes_as_nvidias_header_does() {
    // a = 1 + 2i, b = 3 + 4i, z = 0, big = 1e30 + 1e30i, h = 3e30 + 4e30i (as float2 pairs):
    // a·b = -5 + 10i; a / b = (11 + 2i) / 25 = 0.44 + 0.08i; |b| = 5 (v = 4, w = 3:
    // 4 · sqrt(1 + 0.75²) = 4 · 1.25); |z| = 0 (0 / 0 is NaN, and v == 0 takes v + w);
    // conj(a) = 1 - 2i; a + b - b = a. Scaling: big / big = 1 (unscaled, |big|² = 2e60
    // overflows a float) and |h| = 5e30 (unscaled, 2.5e61 overflows). The double forms agree.
    let src = r#"
#include <cuComplex.h>
typedef cuDoubleComplex magmaDoubleComplex;
__global__ void k(const cuFloatComplex* c, float* f, const magmaDoubleComplex* x, double* d) {
    f[0] = cuCrealf(cuCmulf(c[0], c[1]));
    f[1] = cuCimagf(cuCmulf(c[0], c[1]));
    f[2] = cuCrealf(cuCdivf(c[0], c[1]));
    f[3] = cuCimagf(cuCdivf(c[0], c[1]));
    f[4] = cuCabsf(c[1]);
    f[5] = cuCabsf(c[2]);
    f[6] = cuCimagf(cuConjf(c[0]));
    f[7] = cuCimagf(cuCsubf(cuCaddf(c[0], c[1]), c[1]));
    f[8] = cuCrealf(cuCdivf(c[3], c[3]));
    f[9] = cuCabsf(c[4]);
    d[0] = cuCreal(cuCdiv(x[0], x[1]));
    d[1] = cuCimag(cuCdiv(x[0], x[1]));
    d[2] = cuCimag(cuCmul(x[0], x[1]));
    d[3] = cuCabs(x[1]);
    d[4] = cuCimag(cuConj(cuCadd(x[0], cuCsub(x[1], x[1]))));
}
launch k { c = [1, 2, 3, 4, 0, 0, 1e30, 1e30, 3e30, 4e30]; f = zeros(10);
    x = [1, 2, 3, 4]; d = zeros(5); block = 1; grid = 1;
    expect f == [-5, 10, 0.44, 0.08, 5, 0, -2, 2, 1, 5e30];
    expect d == [0.44, 0.08, 10, 5, -2]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn cufft_h_names_the_transform_element_types() {
    // CS179's FFT post-processing kernels take `cufftComplex*`, cuFFT's float2: out[i] = |z|^2 of
    // (i, 2i) = 5i^2, read through .x and .y.
    let src = r#"
#include <cufft.h>
__global__ void power(const cufftComplex* z, cufftReal* out) {
    int i = threadIdx.x;
    out[i] = z[i].x * z[i].x + z[i].y * z[i].y;
}
launch power { z = [0, 0, 1, 2, 2, 4, 3, 6]; out = zeros(4); expect out == [0, 5, 20, 45]; }
"#;
    common::ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn glm_vectors_and_column_major_matrices_compute_as_glm_does() {
    // a = (1, 2, 3), b = (4, -5, 6): dot = 4 - 10 + 18 = 12; cross (glm's compute_cross:
    // x.y*y.z - y.y*x.z, x.z*y.x - y.z*x.x, x.x*y.y - y.x*x.y) = (12 + 15, 12 - 6, -5 - 8)
    // = (27, 6, -13). length(3, 4, 12) = 13; normalize(0, 3, 4) = (0, 3, 4) * (1 / 5).
    // M = mat3(1, 2, 3, 4, 5, 6, 7, 8, 10) fills columns: M[0] = (1, 2, 3), M[1] = (4, 5, 6),
    // M[2] = (7, 8, 10), so M[1][2] (column 1, row 2) = 6.
    // M * (1, 0, -1) = M[0] - M[2] = (-6, -6, -7); (1, 0, -1) * M = (dot(M[0], v), dot(M[1], v),
    // dot(M[2], v)) = (-2, -2, -3). transpose(M)[0] = (1, 4, 7).
    // A = mat3(0, 1, 0, 0, 0, 1, 1, 0, 0): A * (x, y, z) = A[0]x + A[1]y + A[2]z = (z, x, y).
    // (M * A)[j] = M * A[j]: (M * A)[0] = M * (0, 1, 0) = M[1] = (4, 5, 6);
    // (A * M)[0] = A * M[0] = (3, 1, 2): the order of the product shows.
    // mat3(2) is 2 on the diagonal: (M * mat3(2))[2][2] = 20.
    // glm::max((-1, 2, 0.5), 1) = (1, 2, 1); 2 * (1, 2, 3) / 4 + 0.5 = (1, 1.5, 2).
    // vec<4, float>(1, 2, 3, 4): dot with itself = (1 + 4) + (9 + 16) = 30; make_vec4 of
    // p = [5, 6, 7, 8] gives p's values, .w = 8.
    let src = r#"
#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>
using mat3 = glm::mat<3, 3, float>;
__global__ void k(const float* p, float* out) {
    glm::vec3 a(1.0f, 2.0f, 3.0f);
    glm::vec3 b = glm::vec3(4.0f, -5.0f, 6.0f);
    glm::vec3 c = glm::cross(a, b);
    glm::vec3 n = glm::normalize(glm::vec3(0.0f, 3.0f, 4.0f));
    mat3 M = mat3(1, 2, 3, 4, 5, 6, 7, 8, 10);
    glm::mat3 A = glm::mat3(0, 1, 0, 0, 0, 1, 1, 0, 0);
    glm::vec3 v(1.0f, 0.0f, -1.0f);
    glm::vec3 mv = M * v;
    glm::vec3 vm = v * M;
    glm::mat3 MA = M * A;
    glm::mat3 AM = A * M;
    glm::mat3 M2 = M * glm::mat3(2.0f);
    glm::mat3 T = glm::transpose(M);
    glm::vec3 m = glm::max(glm::vec3(-1.0f, 2.0f, 0.5f), 1.0f);
    glm::vec3 s = 2.0f * a / 4.0f;
    s += 0.5f;
    glm::vec<4, float> q(1.0f, 2.0f, 3.0f, 4.0f);
    glm::vec4 r = glm::make_vec4(p);
    out[0] = glm::dot(a, b);
    out[1] = c.x; out[2] = c.y; out[3] = c[2];
    out[4] = glm::length(glm::vec3(3.0f, 4.0f, 12.0f));
    out[5] = n.x; out[6] = n.y; out[7] = n.z;
    out[8] = M[1][2];
    out[9] = mv.x; out[10] = mv.y; out[11] = mv.z;
    out[12] = vm.x; out[13] = vm.y; out[14] = vm.z;
    out[15] = MA[0][0]; out[16] = MA[0][1]; out[17] = MA[0][2];
    out[18] = AM[0][0]; out[19] = AM[0][1]; out[20] = AM[0][2];
    out[21] = M2[2][2];
    out[22] = T[0][0]; out[23] = T[0][1]; out[24] = T[0][2];
    out[25] = m.x; out[26] = m.y; out[27] = m.z;
    out[28] = s.x; out[29] = s.y; out[30] = s.z;
    out[31] = glm::dot(q, q);
    out[32] = r.w;
}
launch k {
    p = [5, 6, 7, 8];
    out = zeros(33);
    expect out == [12, 27, 6, -13, 13, 0, 0.6, 0.8, 6, -6, -6, -7, -2, -2, -3, 4, 5, 6, 3, 1, 2,
                   20, 1, 4, 7, 1, 2, 1, 1, 1.5, 2, 30, 8];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_glm_vec3_buffer_reads_like_three_floats() {
    // `const glm::vec3* v` is 12-byte elements, as glm lays vec3 out (three floats, no padding).
    // One warp reads v[i] for i = 0..31: 384 contiguous bytes = 12 sectors, in the three
    // member loads (x, y, z at stride 12: each covers bytes 0..383 of the buffer, so each of the
    // three requests touches all 12 sectors): 36 sectors, the same as reading
    // p[3 * i], p[3 * i + 1], p[3 * i + 2] from a float*. The store is 32 floats = 4 sectors.
    // length of (3i, 3i + 1, 3i + 2) for i = 0: sqrt(0 + 1 + 4) = sqrt(5).
    let glm = r#"
#include <glm/glm.hpp>
__global__ void k(const glm::vec3* v, float* out) {
    glm::vec3 a = v[threadIdx.x];
    out[threadIdx.x] = a.x + a.y + a.z;
}
launch k { v = arange(96); out = zeros(32); expect out == arange(32) * 9 + 3; }
"#;
    let raw = r#"
__global__ void k(const float* p, float* out) {
    int i = threadIdx.x;
    out[i] = p[3 * i] + p[3 * i + 1] + p[3 * i + 2];
}
launch k { p = arange(96); out = zeros(32); expect out == arange(32) * 9 + 3; }
"#;
    let g = ok(glm, &[], ONE, [32, 1, 1]).counters;
    let r = ok(raw, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((g.gld_instr, g.gld_sectors, g.gst_sectors), (3, 36, 4));
    assert_eq!((r.gld_instr, r.gld_sectors, r.gst_sectors), (3, 36, 4));
}

#[test]
fn an_alias_of_a_class_constructs_with_one_argument() {
    // `Q(1.5f)` of `typedef P<3> Q;` calls P<3>'s constructor (C++'s functional cast to a class
    // type): a = 3, and `Q(q)` copies it (3, not 6). `ns::R(0.75f)` names the alias in its
    // namespace: a = 1.5. `F(2.7f)` of a scalar alias stays a cast: 2. 3 + 1.5 + 2 = 6.5.
    let src = r#"
template <int N> struct P;
template <> struct P<3> { float a; __device__ explicit P(float x) : a(x * 2.0f) {} };
typedef P<3> Q;
typedef int F;
namespace ns { typedef P<3> R; }
__global__ void k(float* out) {
    Q q = Q(1.5f);
    Q c = Q(q);
    ns::R r = ns::R(0.75f);
    out[0] = c.a + r.a + F(2.7f);
}
launch k { out = zeros(1); expect out == 6.5; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn cucomplex_types_without_the_header_name_it() {
    // nvcc's implicit cuda_runtime.h does not include cuComplex.h, so nvcc refuses this too;
    // the help names the include that fixes it.
    let src = r#"
typedef cuDoubleComplex magmaDoubleComplex;
__global__ void k(magmaDoubleComplex* z) { z[0] = z[1]; }
launch k { z = zeros(4); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::unknown_type");
    let text = simt::cli::render(&f);
    assert!(text.contains("#include <cuComplex.h>"), "{text}");
}

#[test]
fn std_scalar_type_names_are_the_c_ones() {
    // <cstddef>/<cstdint> name size_t and the fixed-width integers in std too: a struct member
    // `std::size_t step` (PCL's PtrStep) and a `std::uint8_t` local. 1 + 4, 2 + 4, 3 + 4;
    // `std::uint8_t b = 300` keeps 44 and is 1 byte.
    let src = r#"
#include <cstddef>
#include <cstdint>
struct Step { float* data; std::size_t step; };
__global__ void k(Step s, std::size_t n, int* o) {
    if (threadIdx.x < n) s.data[threadIdx.x] += (float)s.step;
    std::uint8_t b = 300;
    if (threadIdx.x == 0) { o[0] = b; o[1] = (int)sizeof(b); o[2] = (int)sizeof(std::size_t); }
}
launch k {
    s.data = [1, 2, 3]; s.step = 4; n = 3; o = zeros(3);
    expect s.data == [5, 6, 7];
    expect o == [44, 1, 8];
}
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert_eq!(r.expects.len(), 2);
}

#[test]
fn helper_math_adds_vector_forms_to_cudas_math_functions() {
    // helper_math.h overloads CUDA's own fminf, fmaxf, min, max, floorf, fmodf, fabs and abs on
    // vectors; the scalar calls inside and beside them stay CUDA's. fminf/fmaxf of (1, 5, -2)
    // and (3, 4, -1): (1, 4, -2) and (3, 5, -1); min/max of int2 (1, 7), (3, 2): (1, 2) and
    // (3, 7); uint3 max of (1, 9, 4), (2, 3, 4): (2, 9, 4); floorf (1.5, -1.5): (1, -2); fmodf
    // (7, -7, 5.5, 1) by (3, 3, 2, 1): (1, -1, 1.5, 0); fabs (-1, 2): (1, 2); abs int3 (-3, 0,
    // 4): (3, 0, 4); smoothstep(0, 2, 0.5): y = 0.25, 0.0625 * 2.5 = 0.15625, its float2 form
    // the same per component; fminf(2, 1) = 1 and max(3, 4) = 4 are CUDA's.
    let src = r#"
#include "helper_math.h"
__global__ void k(float* out) {
    float3 a = make_float3(1.0f, 5.0f, -2.0f), b = make_float3(3.0f, 4.0f, -1.0f);
    float3 lo = fminf(a, b), hi = fmaxf(a, b);
    int2 m = min(make_int2(1, 7), make_int2(3, 2)), n = max(make_int2(1, 7), make_int2(3, 2));
    uint3 u = max(make_uint3(1, 9, 4), make_uint3(2, 3, 4));
    float2 f = floorf(make_float2(1.5f, -1.5f));
    float4 r = fmodf(make_float4(7.0f, -7.0f, 5.5f, 1.0f), make_float4(3.0f, 3.0f, 2.0f, 1.0f));
    float2 g = fabs(make_float2(-1.0f, 2.0f));
    int3 h = abs(make_int3(-3, 0, 4));
    float2 s = smoothstep(make_float2(0.0f), make_float2(2.0f), make_float2(0.5f));
    float v[] = {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z, (float)m.x, (float)m.y, (float)n.x,
        (float)n.y, (float)u.x, (float)u.y, (float)u.z, f.x, f.y, r.x, r.y, r.z, r.w, g.x, g.y,
        (float)h.x, (float)h.y, (float)h.z, smoothstep(0.0f, 2.0f, 0.5f), s.x, s.y,
        fminf(2.0f, 1.0f), (float)max(3, 4)};
    for (int i = 0; i < 29; i++) out[i] = v[i];
}
launch k { out = zeros(29); expect out == [1, 4, -2, 3, 5, -1, 1, 2, 3, 7, 2, 9, 4, 1, -2,
    1, -1, 1.5, 0, 1, 2, 3, 0, 4, 0.15625, 0.15625, 0.15625, 1, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn helper_math_makes_vectors_from_one_number_or_another_vector() {
    // cuda-samples' particles: make_float3(float4) drops w; make_float3(1.0f) is (1, 1, 1);
    // make_float4(float3, w) appends w; make_float4(float3) appends 0; make_int2(float2)
    // truncates each component (2.7 -> 2, -1.5 -> -1); make_uint3(uint2, s).
    let src = r#"
#include "helper_math.h"
__global__ void k(float4* a, float3* b, int2* c, uint3* d) {
    float3 p = make_float3(a[0]);
    a[1] = make_float4(p + make_float3(1.0f), 2.0f);
    a[2] = make_float4(p);
    b[0] = p;
    c[0] = make_int2(make_float2(2.7f, -1.5f));
    d[0] = make_uint3(make_uint2(7u), 9u);
}
launch k {
    a = [1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9];
    b = zeros(3); c = zeros(2); d = zeros(3);
    expect a == [1, 2, 3, 4, 2, 3, 4, 2, 1, 2, 3, 0];
    expect b == [1, 2, 3];
    expect c == [2, -1];
    expect d == [7, 7, 9];
}
"#;
    common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn type_traits_bool_constant_is_a_tag_chosen_at_compile_time() {
    // llm.c's matmul_backward_bias_kernel8: `std::bool_constant<Atomic>` as an unnamed kernel
    // parameter picks a branch with `if constexpr`; `value` reads B. k<true> adds 1 to ones: 2;
    // k<false> stores 1 + 2 * 0: 1.
    let kernel = r#"
#include <type_traits>
template <bool Add>
__global__ void k(float* out, std::bool_constant<Add>) {
    int i = threadIdx.x;
    if constexpr (std::bool_constant<Add>::value) { out[i] += 1.0f; }
    else { out[i] = 1.0f + 2 * std::bool_constant<Add>::value; }
}
"#;
    for (b, want) in [("true", 2), ("false", 1)] {
        let src = format!("{kernel}launch k<{b}> {{ out = ones(32); expect out == {want}; }}\n");
        ok(&src, &[], ONE, [32, 1, 1]);
    }
}

#[test]
fn type_traits_keeps_the_library_traits_beside_bool_constant() {
    // The header opens `namespace std`; `std::enable_if_t` and `std::conditional_t` must still be
    // the built-in traits, not names looked up in that namespace. twice<float> (sizeof 4) is
    // enabled and doubles 1.5 into 3; conditional_t<true, float, int> keeps 0.25 a float, so
    // out = 3 + 0.25 = 3.25.
    let src = r#"
#include <type_traits>
template <typename T, std::enable_if_t<sizeof(T) == 4, int> = 0>
__device__ T twice(T x) { return x + x; }
__global__ void k(float* out) {
    std::conditional_t<true, float, int> q = 0.25f;
    out[threadIdx.x] = twice(out[threadIdx.x]) + q;
}
launch k { out = full(32, 1.5); expect out == 3.25; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn bool_constant_without_its_header_names_the_include() {
    // Without `#include <type_traits>` the tag is unknown, and the help names the header.
    let src = r#"
template <bool Add>
__global__ void k(float* out, std::bool_constant<Add>) { out[threadIdx.x] = Add; }
launch k<true> { out = zeros(32); }
"#;
    let f = err(src, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f)[0], "simt::check::unknown_type");
    let text = simt::cli::render(&f);
    assert!(text.contains("#include <type_traits>"), "{text}");
}

#[test]
fn function_objects_of_functional_and_thrust() {
    // nerfacc's scans take `std::plus<float>` as a kernel's functor argument, with <functional>
    // from torch/extension.h; thrust::maximum picks the larger. x + 1, then max(x, 4).
    let src = r#"
#include <torch/extension.h>
#include <thrust/functional.h>
template <typename T, class BinaryFunction>
__global__ void k(T* x, BinaryFunction binary_op) {
    T v = binary_op(x[threadIdx.x], T(1));
    x[threadIdx.x] = thrust::maximum<T>()(v, T(4)) + std::minus<T>()(T(0), T(0));
}
launch k<float, std::plus<float>> { x = arange(8); expect x == [4, 4, 4, 4, 5, 6, 7, 8]; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn aten_numeric_limits_has_its_bounds() {
    // ATen's NumericLimits.cuh: `lowest`/`max` as std's, `lower_bound`/`upper_bound` the
    // infinities of a float and an int's lowest and max (apex's softmax starts its max at
    // `-at::numeric_limits<accscalar_t>::max()`). 3.4028234663852886e38 is FLT_MAX.
    let src = r#"
#include <ATen/ATen.h>
__global__ void k(float* f, int* i) {
    f[0] = -at::numeric_limits<float>::max();
    f[1] = at::numeric_limits<float>::lower_bound();
    f[2] = at::numeric_limits<float>::upper_bound();
    i[0] = at::numeric_limits<int>::lower_bound();
    i[1] = at::numeric_limits<int>::upper_bound();
}
launch k { f = zeros(3); i = zeros(2);
    expect f[0] == -3.4028234663852886e38;
    expect f[1] < -3.5e38; expect f[2] > 3.5e38;
    expect i == [-2147483648, 2147483647]; }
"#;
    ok(src, &[], ONE, ONE);
    let wrong = src.replace("upper_bound();\n    i[0]", "denorm_min();\n    i[0]");
    let f = err(&wrong, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_function"]);
}

#[test]
fn numeric_limits_without_std_is_limits_unless_the_file_has_its_own() {
    // After `using namespace std;`, `numeric_limits<float>::max()` is FLT_MAX
    // (3.4028234663852886e38); a file that declares its own `numeric_limits` template (CUTLASS's
    // `platform::numeric_limits`) calls that one's member: 7.
    let src = r#"
#include <limits>
using namespace std;
__global__ void k(float* out) { out[threadIdx.x] = numeric_limits<float>::max(); }
launch k { out = zeros(2); expect out == 3.4028234663852886e38; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    let own = r#"
template <typename T> struct numeric_limits { static __device__ T max() { return T(7); } };
__global__ void k(float* out) { out[threadIdx.x] = numeric_limits<float>::max(); }
launch k { out = zeros(2); expect out == 7; }
"#;
    ok(own, &[], ONE, [2, 1, 1]);
}

#[test]
fn atens_fast_atomic_add_is_an_atomic_add_at_the_index() {
    // torchvision's ps_roi_align backward: `at::native::fastAtomicAdd(grad, index, numel, v,
    // true)`. 64 threads add 1 to out[t % 4]: 16 each; an int tensor the same with 2: 32 each.
    // Each add is one atomic instruction per warp: 2 warps x 2 calls = 4.
    let src = r#"
#include <ATen/native/cuda/KernelUtils.cuh>
__global__ void k(float* out, int* counts, int n) {
    int t = threadIdx.x;
    at::native::fastAtomicAdd(out, t % 4, n, 1.0f, true);
    at::native::fastAtomicAdd(counts, t % 4, n, 2, true);
}
launch k { n = 4; out = zeros(4); counts = zeros(4); expect out == 16; expect counts == 32; }
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.gatom_instr, 4);
    // Current torchvision (roi_align backward) calls it from PyTorch's stable ABI header,
    // `torch::headeronly::fastAtomicAdd`: the same adds.
    let stable = src
        .replace(
            "#include <ATen/native/cuda/KernelUtils.cuh>",
            "#include <torch/headeronly/cuda/KernelUtils.h>",
        )
        .replace("at::native::", "torch::headeronly::");
    let r = ok(&stable, &[], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.gatom_instr, 4);
}

#[test]
fn libcu_atomic_ref_operations_are_the_cuda_atomics() {
    // cuda::atomic_ref<T, Scope>: 64 threads fetch_add 2 into c[0] (128), fetch_max their index
    // into m[0] (63), and one compare_exchange_strong(0 -> t + 1) succeeds, storing 7 once: sum(c)
    // = 128 + 7. Three atomic instructions per warp, two warps: 6.
    let src = r#"
#include <cuda/atomic>
__global__ void k(int* c, unsigned* m, int* flag) {
  cuda::atomic_ref<int> a(c[0]);
  a.fetch_add(2, cuda::memory_order_relaxed);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> r(m[0]);
  r.fetch_max(threadIdx.x);
  cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[0]);
  int expected = 0;
  if (f.compare_exchange_strong(expected, (int)threadIdx.x + 1)) c[1 + threadIdx.x] = 7;
}
launch k { c = zeros(65); m = zeros(1); flag = zeros(1); expect sum(c) == 135; expect m == [63]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.gatom_instr, 6);
}

#[test]
fn thrust_pair_tie_and_shared_aligned_storage_as_pytorch_writes_them() {
    // PyTorch's RowwiseMomentsKernel: `__shared__ typename std::aligned_storage<sizeof(W),
    // alignof(W)>::type val_shared[32];` viewed as `W*`, and `thrust::tie(m1, m2) =
    // welford_op.project(val);` of a `thrust::pair`.
    let src = r#"
#include <thrust/pair.h>
#include <thrust/tuple.h>
#include <type_traits>
struct W { float mean; float m2; long long n; float nf; };
__device__ thrust::pair<float, float> stats(float a, float b) { return thrust::make_pair(a + b, a * b); }
__global__ void k(float* out) {
    __shared__ typename std::aligned_storage<sizeof(W), alignof(W)>::type buf[4];
    W* w = reinterpret_cast<W*>(buf);
    int t = threadIdx.x;
    w[t].mean = t; w[t].m2 = 2 * t; w[t].n = t + 100; w[t].nf = 0.5f;
    __syncthreads();
    float s, p;
    thrust::tie(s, p) = stats(w[3 - t].mean, w[3 - t].m2);
    out[t] = s * 1000 + p + (float)w[3 - t].n;
    thrust::pair<int, float> z;
    out[4 + t] = z.first + z.second;
}
launch k { out = zeros(8); expect out == [9121, 6110, 3103, 100, 0, 0, 0, 0]; }
"#;
    // By hand: W is 4 + 4 + 8 + 4 = 20 bytes, 24 with its 8-byte alignment, so `buf` is 4 × 24
    // = 96 bytes. Thread t reads w[3 - t] = (3 - t, 2(3 - t), 103 - t): s = 3(3 - t), p =
    // 2(3 - t)^2; t = 0: 9000 + 18 + 103 = 9121; t = 1: 6000 + 8 + 102; t = 2: 3000 + 2 + 101;
    // t = 3: 0 + 0 + 100. A default pair is value-initialised: 0 + 0.
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    assert_eq!(r.launch.smem_per_block, 96);
    // Unsized (`extern`), the storage is as many bytes as the launch gives.
    let dynamic = r#"
struct W { float mean; float m2; int n; };
__global__ void k(float* out) {
    extern __shared__ typename std::aligned_storage<sizeof(W), alignof(W)>::type buf[];
    W* s = reinterpret_cast<W*>(buf);
    s[threadIdx.x].mean = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[3 - threadIdx.x].mean;
}
launch k { out = zeros(4); dyn_smem = 48; expect out == [3, 2, 1, 0]; }
"#;
    ok(dynamic, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn std_array_indexes_fills_and_is_walked_by_a_range_for() {
    // Thread t: r = {0, t, 2t, 3t}; s = 6t; `float& v` adds 1 to each element of r itself (so
    // r.data()[3] is 3t + 1), then t = 6t + 4; q = {1, 2, 3} filled with its back, 3: q[0] +
    // q.front() = 6. Thread 1: 6 + 10 + 6 + 4 = 26; thread 0: 0 + 4 + 6 + 1 = 11.
    let src = r#"
#include <array>
#include <cuda/std/array>
__global__ void k(float* c) {
    cuda::std::array<float, 4> r{};
    for (int j = 0; j < r.size(); ++j) r[j] = j * threadIdx.x;
    float s = 0; for (auto v : r) s += v;
    for (float& v : r) v += 1;
    float t = 0; for (const float& v : r) t += v;
    std::array<int, 3> q = {1, 2, 3};
    q.fill(q.back());
    c[threadIdx.x] = s + t + q[0] + q.front() + r.data()[3];
}
launch k { c = zeros(2); expect c == [11, 26]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    // Through a pointer, `for (float& v : *p)` walks the array itself: 4 × (0 + 1) = 4.
    let deref = r#"
#include <array>
__global__ void k(float* out) {
    std::array<float, 4> r{};
    std::array<float, 4>* p = &r;
    for (float& v : *p) v += 1.0f;
    out[threadIdx.x] = r[0] + r[1] + r[2] + r[3];
}
launch k { out = zeros(1); expect out == [4]; }
"#;
    ok(deref, &[], ONE, ONE);
}

#[test]
fn cublas_cusparse_and_cufft_headers_bring_cucomplex() {
    // The toolkit's cublas_v2.h includes cuComplex.h (MAGMA's kernels use cuDoubleComplex
    // after it alone); with cuComplex.h included too, nothing is defined twice.
    // a = 0..7 as four complex numbers: re + im = 1, 5, 9, 13.
    let body = r#"
__global__ void k(const cuDoubleComplex* a, double* out) {
    out[threadIdx.x] = cuCreal(a[threadIdx.x]) + cuCimag(a[threadIdx.x]);
}
launch k { a = arange(8); out = zeros(4); expect out == [1, 5, 9, 13]; }
"#;
    for includes in [
        "#include <cublas_v2.h>\n",
        "#include <cusparse.h>\n",
        "#include <cuComplex.h>\n#include <cublas_v2.h>\n",
        // cufft.h (and cufftXt.h, which includes it) include cuComplex.h too: peasoup's kernels
        // call cuCmulf after `#include "cufft.h"` alone.
        "#include \"cufft.h\"\n",
        "#include <cufftXt.h>\n#include <cuComplex.h>\n",
    ] {
        ok(&format!("{includes}{body}"), &[], ONE, [4, 1, 1]);
    }
}

#[test]
fn aten_gpu_atomic_max_and_min() {
    // ATen's gpuAtomicMax / gpuAtomicMin: 64 threads give 0..63 (as floats and ints), less 20:
    // the max is 43 and the min -20 in each; the float ones start from 0 and 0, so max 43,
    // min -20.
    let src = r#"
#include <ATen/cuda/Atomic.cuh>
__global__ void k(const float* x, float* f, int* i) {
    float v = x[threadIdx.x] - 20.0f;
    gpuAtomicMax(&f[0], v);
    gpuAtomicMin(&f[1], v);
    gpuAtomicMax(&i[0], (int)v);
    gpuAtomicMin(&i[1], (int)v);
}
launch k { x = arange(64); f = zeros(2); i = zeros(2); expect f == [43, -20]; expect i == [43, -20]; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn a_thrust_complex_default_constructs_to_zero() {
    // `thrust::complex<float> t;` and `T t {};` are 0 + 0i (thrust's `complex()` value-
    // initialises both parts); adding a[i] = i + 0i gives i.
    let src = r#"
#include <thrust/complex.h>
template <typename T>
__device__ void f(const T* a, T* out) {
    T temp {};
    thrust::complex<float> zero;
    temp += a[threadIdx.x] + zero;
    out[threadIdx.x] = temp;
}
__global__ void k(const thrust::complex<float>* a, thrust::complex<float>* out) {
    f<thrust::complex<float>>(a, out);
}
launch k { a = arange(8); out = ones(8); expect out == a; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn pytorch_s_headers_define_cuda_kernel_assert_as_a_device_assert() {
    // c10/macros/Macros.h's CUDA_KERNEL_ASSERT(i < n) passes for i < 32 = n, and stops the
    // launch as a failed `assert` where n is 16: thread 16 is the first false one.
    let src = r#"
#include <torch/extension.h>
__global__ void k(int* out, int n) {
    int i = threadIdx.x;
    CUDA_KERNEL_ASSERT(i < n);
    CUDA_KERNEL_ASSERT_MSG(i >= 0, "negative");
    out[i] = i;
}
launch k { n = 32; out = zeros(32); expect out == arange(32); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let f = err(
        &src.replace("n = 32;", "n = 16;"),
        &[],
        Some(ONE),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::assertion"]);
}

#[test]
fn thrust_complex_takes_a_scalar_of_another_type_and_promotes_as_thrust_does() {
    // thrust's operators are templates of two types (ABACUS's `complex<double> / int`): in =
    // 2+2i, 4+4i; by hand: in / 2 = 1+1i, 2+2i; 2 * in = 4+4i, 8+8i (an int times a double
    // complex); the float complex 1+3i over the double 2.0 is complex<double> 0.5+1.5i, and over
    // the int 2 complex<float> 0.5+1.5i; 1 - z = 0 - 3i; the float complex times the
    // double 2+2i is complex<double> (1·2 - 3·2) + (1·2 + 3·2)i = -4 + 8i.
    let src = r#"
#include <thrust/complex.h>
__global__ void k(const thrust::complex<double>* in, thrust::complex<double>* out, double* d, float* f, int n) {
    int i = threadIdx.x;
    out[i] = in[i] / n;
    out[i] += 2 * in[i];
    thrust::complex<float> z(1.0f, 3.0f);
    thrust::complex<double> w = z / 2.0;
    thrust::complex<float> v = z / 2;
    thrust::complex<float> u = 1 - z;
    thrust::complex<double> p = z * in[0];
    if (i == 0) { d[0] = w.real(); d[1] = w.imag(); d[2] = p.real(); d[3] = p.imag(); f[0] = v.real(); f[1] = v.imag(); f[2] = u.real(); f[3] = u.imag(); }
}
launch k { in = [2, 2, 4, 4]; out = zeros(4); d = zeros(4); f = zeros(4); n = 2;
    expect out == [5, 5, 10, 10]; expect d == [0.5, 1.5, -4, 8]; expect f == [0.5, 1.5, 0, -3]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

/// A project's own copy of CUDA samples' helper_math.h, included by a path into its tree
/// (cuda_voxelizer's `"libs/cuda/helper_math.h"`), is simt's helper_math.h when it is not beside
/// the file, as is cutil_math.h; a quoted header found nowhere is named in a missing operator's help, the likelier
/// cause. d = (5, 6, 7) - (1, 1, 1): 4 + 5 + 6 = 15.
#[test]
fn helper_math_by_a_path_in_the_projects_tree_is_helper_math() {
    let body = r#"
__global__ void k(float3* a, float* out) {
    float3 d = a[0] - a[1];
    out[0] = d.x + d.y + d.z;
}
launch k { a = [5, 6, 7, 1, 1, 1]; out = zeros(1); expect out == [15]; }
"#;
    ok(
        &format!("#include \"libs/cuda/helper_math.h\"\n{body}"),
        &[],
        ONE,
        ONE,
    );
    // cutil_math.h, its name in the CUDA SDK before 5.0 (fluids3); its include guard is
    // defined, so a copy of its text after the include is skipped as after the real header
    // (it was `lerp` declared twice).
    let copy = "#ifndef CUTIL_MATH_H\n#define CUTIL_MATH_H\n__device__ float lerp(float a, float b, float t) { return a + t * (b - a); }\n#endif\n";
    ok(
        &format!("#include \"cutil_math.h\"\n{copy}{body}"),
        &[],
        ONE,
        ONE,
    );
    let copy = copy.replace("CUTIL_MATH_H", "HELPER_MATH_H");
    ok(
        &format!("#include <helper_math.h>\n{copy}{body}"),
        &[],
        ONE,
        ONE,
    );
    let f = err(
        &format!("#include \"libs/cuda/vec_ops.h\"\n{body}"),
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::no_operator"]);
    let text = miette::Diagnostic::help(&f.errors[0])
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(
        text.contains("`libs/cuda/vec_ops.h` is not beside the file"),
        "{text}"
    );
}

/// cuComplex.h's `make_cuFloatComplex` is a function of the header, not CUDA's `make_<vector>`
/// constructor: assigned to a struct's `cuFloatComplex` member it was refused ("expected a
/// number"), and in a braced list it filled the struct's members one number at a time, as does
/// `make_double2` (then "unknown function"). mwa_hyperbeam's `JONES{ make_cuDoubleComplex(...),
/// ... }`. j.a = (1, 2), J{(3, 4), (5, 6)}: 1 + 2 + 3 + 4 + 5 + 6 = 21; m.b.y = 8.
#[test]
fn cucomplex_makers_and_vector_makers_initialise_struct_members_whole() {
    let src = r#"
#include <cuComplex.h>
struct J { cuFloatComplex a; cuDoubleComplex c, d; };
struct M { double2 a; double2 b; };
__global__ void k(double* out) {
    J j;
    j.a = make_cuFloatComplex(1.0f, 2.0f);
    J i = J{ j.a, make_cuDoubleComplex(3.0, 4.0), make_cuDoubleComplex(5.0, 6.0) };
    M m = { make_double2(1.0, 2.0), make_double2(7.0, 8.0) };
    out[0] = cuCrealf(i.a) + cuCimagf(i.a) + i.c.x + i.c.y + cuCreal(i.d) + i.d.y;
    out[1] = m.b.y;
}
launch k { out = zeros(2); expect out == [21, 8]; }
"#;
    ok(src, &[], ONE, ONE);
}
