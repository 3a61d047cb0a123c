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
