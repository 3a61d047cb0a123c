//! Library headers simt reads in place of the real ones (`#include <thrust/complex.h>`):
//! results as the library computes them, derived by hand beside each case.

mod common;
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
