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

#[test]
fn an_address_masked_to_a_word_is_a_pointer_to_the_bf16_pair_it_lies_in() {
    // llm.c's atomicAddX (train_gpt2.cu, layernorm_backward_kernel3), verbatim.
    let src = r#"
#include <cuda_bf16.h>
__device__ void atomicAddX(__nv_bfloat16* addr, __nv_bfloat16 val) {
    uintptr_t ptr_val = reinterpret_cast<uintptr_t>(addr);
    __nv_bfloat162* ptr_bf16 = reinterpret_cast<__nv_bfloat162*>(ptr_val & ~uintptr_t(0x3));
    __nv_bfloat162 add_val = (ptr_val & 0x3) ? __halves2bfloat162(__ushort_as_bfloat16(0), val)
                                             : __halves2bfloat162(val, __ushort_as_bfloat16(0));
    atomicAdd(ptr_bf16, add_val);
}
__global__ void k(__nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAddX(&out[i % 6 + 1], (__nv_bfloat16)1.0f);
}
launch k { n = 60; out = zeros(8); expect out == [0, 10, 10, 10, 10, 10, 10, 0]; }
"#;
    // 60 threads add 1 to out[i % 6 + 1], so elements 1..=6 get 10 each. An odd element is the
    // high half of the 4-byte pair that starts one element before it (address & ~3), so the
    // pair out[0..2] receives (0, 1) for each add to out[1] and out[0] stays 0; out[6] is the
    // low half of the pair out[6..8], which receives (1, 0), so out[7] stays 0. Without the
    // mask an odd element's pair would start at it, and its neighbour above would gain 10.
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
}

#[test]
fn an_address_back_to_a_pointer_keeps_its_array_through_locals_and_arithmetic() {
    let src = r#"
__global__ void k(float* x, int* out) {
    __shared__ float s[8];
    int t = threadIdx.x;
    s[t] = t * 10;
    __syncthreads();
    uintptr_t a = (uintptr_t)&x[t];
    a += 2 * sizeof(float);
    float* p = (float*)a;
    uintptr_t b = reinterpret_cast<uintptr_t>(s) + t * 4;
    out[t] = (int)(*p) + (int)*reinterpret_cast<float*>(b);
}
launch k { x = arange(10); out = zeros(8); expect out == [2, 13, 24, 35, 46, 57, 68, 79]; }
"#;
    // p is &x[t] moved on by 8 bytes, x[t + 2] = t + 2; b is &s[t], 10 t: t + 2 + 10 t = 11 t + 2.
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn a_misaligned_address_made_into_a_pointer_traps() {
    let src = r#"
__global__ void k(float* x) {
    uintptr_t a = (uintptr_t)x + 2;
    float* p = (float*)a;
    *p = 1.0f;
}
launch k { x = zeros(4); }
"#;
    // 2 bytes into a float array is not the start of any float: the hardware's misaligned
    // address error, not a rounded-down pointer.
    let f = err(src, &[], Some(ONE), Some(ONE));
    let text = simt::cli::render(&f);
    assert!(text.contains("misaligned"), "{text}");
}

#[test]
fn a_pointer_from_an_integer_with_no_address_is_refused() {
    let src = r#"
__global__ void k(float* x, int n) {
    unsigned long long a = n * 4096ull;
    float* p = (float*)a;
    *p = 1.0f;
}
launch k { x = zeros(4); n = 1; }
"#;
    // `a` is a number made from a number, not the address of an array: refused at its span
    // rather than guessed.
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let text = simt::cli::render(&f);
    assert!(text.contains("holds no address"), "{text}");
}

#[test]
fn an_integer_parameter_the_kernel_casts_to_a_pointer_is_given_an_array() {
    // BMTrain passes its tensors as `std::uintptr_t` and casts them in the kernel: such a
    // parameter is an array to the launch, filled as the type of the first cast, and the
    // integer is the array's byte address, so arithmetic on it before a cast moves within the
    // array: `x_ptr + 4 * sizeof(float)` is x[4], and `y_ptr`'s `const` is the integer's, not
    // the memory's.
    let src = r#"
#include <cstdint>
__global__ void k(int n, std::uintptr_t x_ptr, const uintptr_t y_ptr, unsigned long long* out) {
    float* x = reinterpret_cast<float*>(x_ptr);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
    if (i == 0) {
        ((float*)(x_ptr + 4 * sizeof(float)))[0] += 100.0f;
        ((int*)y_ptr)[1] = 7;
        out[0] = x_ptr % 256;
    }
}
launch k { n = 8; a = arange(8); x_ptr = a; y_ptr = zeros(2); out = zeros(1);
           block = 8; grid = 1;
           expect a == [0, 2, 4, 6, 108, 10, 12, 14]; expect y_ptr == [0, 7]; expect out == [0]; }
"#;
    let r = ok(src, &[], ONE, [8, 1, 1]);
    // The warp reads x[0..8] (32 bytes: 1 sector) and writes it (1 sector); thread 0 then
    // reads and writes x[4] (1 sector each), writes y[1] (1) and out[0] (1): 2 load sectors
    // and 4 store sectors.
    assert_eq!(r.counters.gld_sectors, 2);
    assert_eq!(r.counters.gst_sectors, 4);
}

#[test]
fn an_address_parameter_given_a_number_says_it_needs_an_array() {
    let src = r#"
__global__ void k(float* x, unsigned long long a) {
    float* p = (float*)a;
    *p = 1.0f;
}
launch k { x = zeros(4); a = 4096; }
"#;
    // simt cannot know which array the number 4096 would address on a GPU.
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains(
            "`a` holds the address of memory the kernel reads as `float*`, but was given a number"
        ),
        "{text}"
    );
}

#[test]
fn a_zero_integer_made_into_a_pointer_is_null() {
    let src = r#"
__global__ void k(const float* bias, float* out) {
    const float* none = (const float*)0;
    out[0] = none == nullptr;
    out[1] = bias != (float*)0;
}
launch k { bias = zeros(1); out = zeros(2); expect out == [1, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn an_uncalled_function_may_turn_an_address_back_into_a_pointer() {
    // llm.c's atomicAddX rounds a pointer down to 4 bytes through a uintptr_t. Checked on its
    // own (no kernel calls it), its parameter points into no array: checked, never run (this
    // panicked).
    let src = r#"
__device__ void f(float* addr) {
    uintptr_t p = reinterpret_cast<uintptr_t>(addr);
    float* q = reinterpret_cast<float*>(p & ~uintptr_t(0x3));
    *q = 1.0f;
}
__global__ void k(float* a) { a[threadIdx.x] = 2.0f; }
launch k { a = zeros(4); expect a == 2; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}
