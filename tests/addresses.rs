//! Pointers converted to integers: byte addresses in simt's memory model, where every buffer
//! starts on a boundary of at least 256 bytes (as `cudaMalloc` guarantees).

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn alignment_tests_answer_as_on_a_gpu() {
    let src = r#"
#include <cstdint>
template <typename T>
__device__ bool is_aligned(T* p, int bytes) { return ((uint64_t)p) % bytes == 0; }
__global__ void k(float* x, double* d, int* out) {
    __shared__ float s[64];
    float local[8];
    out[0] = is_aligned(x, 256);
    out[1] = is_aligned(x + 1, 8);
    out[2] = is_aligned(x + 4, 16);
    out[3] = ((size_t)(x + 3) & 15) == 12;
    out[4] = (int)(reinterpret_cast<uintptr_t>(d + 5) - reinterpret_cast<uintptr_t>(d));
    out[5] = (int)((uintptr_t)&x[7] - (uintptr_t)x);
    out[6] = is_aligned(s, 256) && is_aligned(local, 256);
    out[7] = (uint64_t)x != (uint64_t)d;
    float* none = nullptr;
    out[8] = (uint64_t)none == 0;
    out[9] = ((uintptr_t)(reinterpret_cast<float4*>(x) + 1) & 255) == 16;
}
launch k { x = zeros(16); d = zeros(8); out = zeros(10); expect out == [1, 0, 1, 1, 40, 28, 1, 1, 1, 1]; }
"#;
    // Buffers start 256-byte aligned: x is (1); x + 1 is 4 bytes in, not a multiple of 8 (0);
    // x + 4 is 16 bytes in (1); x + 3 is 12 bytes in, 12 & 15 = 12 (1); d + 5 is 5 * 8 = 40
    // bytes after d; &x[7] is 7 * 4 = 28 bytes after x; shared and local arrays are aligned too
    // (1); two buffers have two addresses (1); null is 0 (1); one float4 past x is 16 bytes in.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_pointer_fits_only_a_64_bit_integer() {
    let src = r#"
__global__ void k(float* x, int* out) { out[0] = (int)x; }
launch k { x = zeros(1); out = zeros(1); }
"#;
    // g++ and nvcc refuse `(int)p` on a 64-bit target ("loses precision").
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let text = simt::cli::render(&f);
    assert!(text.contains("converting a pointer to `int`"), "{text}");
    assert!(
        text.contains("`uintptr_t`, `size_t` or `uint64_t`"),
        "{text}"
    );
}

#[test]
fn a_parameter_bound_into_an_array_has_that_elements_address() {
    let src = r#"
__global__ void k(const float* a, const float* b, const float* c, int* out) {
    out[0] = ((uintptr_t)a & 15) == 4;
    out[1] = (uintptr_t)c - (uintptr_t)a == 3 * sizeof(float);
    out[2] = (uintptr_t)b == (uintptr_t)(a - 1);
    out[3] = (uintptr_t)(b + 4) % 16 == 0;
}
launch k { d = arange(16); a = &d[1]; b = &d[0]; c = &d[4]; out = zeros(4); expect out == [1, 1, 1, 1]; }
"#;
    // d starts aligned; a = &d[1] is 4 bytes in (4 & 15 = 4); c = &d[4] lies 12 bytes after a;
    // b = &d[0] is one float before a; b + 4 = &d[4], 16 bytes in.
    ok(src, &[], ONE, ONE);
}
