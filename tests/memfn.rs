//! Device-side `memcpy` and `memset`: byte-exact, and counted as nvcc compiles them (a byte loop
//! for a length known only at run time or of 128 bytes or more; otherwise the widest pieces,
//! at most 8 bytes, that both pointers' alignment allows).

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn a_length_known_at_run_time_copies_one_byte_per_iteration() {
    let src = r#"
__global__ void k(char* dst, const char* src, int n) {
    int t = threadIdx.x;
    memcpy(dst + t * n, src + t * n, n);
}
launch k { n = 4; src = arange(32); dst = zeros(32); expect dst == arange(32); }
"#;
    let c = ok(src, &[], ONE, b(8)).counters;
    // Iteration j: lane t reads byte 4t + j, t = 0..7: bytes j .. 28 + j, one 32-byte sector.
    // Four iterations: 4 loads of 1 sector, 4 stores of 1 sector.
    assert_eq!((c.gld_instr, c.gld_sectors), (4, 4));
    assert_eq!((c.gst_instr, c.gst_sectors), (4, 4));
    // 8 lanes × 4 bytes each way.
    assert_eq!(c.g_bytes_requested, 64);
}

#[test]
fn a_known_length_copies_in_pieces_as_wide_as_both_alignments_allow() {
    let floats = r#"
__global__ void k(float* dst, const float* src) {
    int t = threadIdx.x;
    memcpy(dst + 4 * t, src + 4 * t, 16);
}
launch k { src = arange(128); dst = zeros(128); expect dst == arange(128); }
"#;
    let c = ok(floats, &[], ONE, b(32)).counters;
    // `float*`: aligned to 4, so four 4-byte pieces. Piece j: lane t reads bytes 16t + 4j ..
    // + 3, 32 lanes spread over 512 bytes: 16 sectors. 4 pieces: 64 sectors.
    assert_eq!((c.gld_instr, c.gld_sectors), (4, 64));
    assert_eq!((c.gst_instr, c.gst_sectors), (4, 64));
    let vectors = r#"
__global__ void k(float4* dst, const float4* src) {
    int t = threadIdx.x;
    memcpy(dst + t, src + t, sizeof(float4));
}
launch k { src = arange(128); dst = zeros(128); expect dst == arange(128); }
"#;
    let c = ok(vectors, &[], ONE, b(32)).counters;
    // `float4*`: aligned to 16, but the widest piece is 8 bytes (`i64`): two pieces, each 32
    // lanes × 8 bytes at a stride of 16 over 512 bytes, 16 sectors.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 32));
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 32));
    // Both move 32 × 16 bytes each way.
    assert_eq!(c.g_bytes_requested, 1024);
}

#[test]
fn a_remainder_is_copied_in_narrower_pieces() {
    let src = r#"
__global__ void k(unsigned short* dst, const unsigned short* src) {
    memcpy(dst, src, 6);
}
launch k { src = [7, 8, 9, 10]; dst = zeros(4); expect dst == [7, 8, 9, 0]; }
"#;
    let c = ok(src, &[], ONE, ONE).counters;
    // `unsigned short*`: aligned to 2, 6 bytes: three 2-byte pieces; the fourth element stays.
    assert_eq!((c.gld_instr, c.gst_instr), (3, 3));
}

#[test]
fn a_copy_between_types_moves_bytes() {
    let src = r#"
__global__ void k(int* out) {
    float f = 1.0f;
    int i;
    memcpy(&i, &f, sizeof(f));
    unsigned char b[4] = {1, 2, 3, 4};
    unsigned w;
    memcpy(&w, b, 4);
    uint4 v = make_uint4(5, 6, 7, 8);
    unsigned r[4];
    memcpy(r, &v, sizeof(v));
    out[0] = i;
    out[1] = (int)w;
    out[2] = (int)(r[0] + 10 * r[1] + 100 * r[2] + 1000 * r[3]);
}
launch k { out = zeros(3); expect out == [1065353216, 67305985, 8765]; }
"#;
    let c = ok(src, &[], ONE, ONE).counters;
    // 1.0f is 0x3f800000 = 1065353216; bytes 1, 2, 3, 4 little-endian are 0x04030201 =
    // 67305985; a uint4's components in order: 5 + 60 + 700 + 8000 = 8765.
    // Every index is known: the locals stay in registers, no local memory traffic.
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
}

#[test]
fn memset_writes_its_byte_into_every_piece() {
    let src = r#"
__global__ void k(int* out, unsigned char* bytes, int v) {
    int t = threadIdx.x;
    memset(out + 8 * t, 0xab, 8 * sizeof(int));
    memset(bytes + 2 * t, v, 2);
}
launch k { v = 0x1ff; out = zeros(64); bytes = zeros(16); expect out == -1414812757; expect bytes == 255; }
"#;
    let c = ok(src, &[], ONE, b(8)).counters;
    // `int*`, 32 bytes: eight 4-byte stores of 0xabababab (-1414812757 as an `int`);
    // `unsigned char*`, 2 bytes: two 1-byte stores of v's low byte, 0xff.
    assert_eq!(c.gst_instr, 8 + 2);
    assert_eq!(c.gld_instr, 0);
}

#[test]
fn a_copy_past_the_end_traps_at_the_call() {
    let src = r#"
__global__ void k(float* dst, const float* src) {
    memcpy(dst, src, 8 * sizeof(float));
}
launch k { src = zeros(4); dst = zeros(8); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert_eq!(common::position(&f), (3, 5));
}

#[test]
fn memcpy_as_a_value_says_to_call_it_as_a_statement() {
    let src = r#"
__global__ void k(float* dst, const float* src) {
    float* p = (float*)memcpy(dst, src, 4);
    p[0] = 1.0f;
}
launch k { src = zeros(4); dst = zeros(8); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let text = simt::cli::render(&f);
    assert!(text.contains("as a statement of its own"), "{text}");
}

#[test]
fn overlapping_ranges_of_one_array_trap_and_adjacent_ones_copy() {
    let src = r#"
__global__ void k(float* a, int gap) {
    memcpy(a + gap, a, 2 * sizeof(float));
}
launch k { gap = 2; a = [1, 2, 3, 4]; expect a == [1, 2, 1, 2]; }
"#;
    // [a, a + 8 bytes) and [a + 8, a + 16): adjacent, not overlapping.
    ok(src, &[], ONE, ONE);
    // gap 1: [a, a + 8) and [a + 4, a + 12) share bytes 4 .. 7.
    let f = err(src, &[("gap", "1")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::run::overlapping_copy"]);
    assert_eq!(common::position(&f), (3, 5));
}

#[test]
fn the_overlap_check_costs_no_instruction() {
    let one = r#"
__global__ void k(float* a, float* b) { memcpy(b + 1, a, 4); }
launch k { a = [1, 2]; b = [0, 0]; expect b == [0, 1]; }
"#;
    let same = r#"
__global__ void k(float* a) { memcpy(a + 1, a, 4); }
launch k { a = [1, 2]; expect a == [1, 1]; }
"#;
    // One pointer add, one 4-byte load and one store either way; the second also checks a + 1
    // against a, for free.
    let (x, y) = (
        ok(one, &[], ONE, ONE).counters,
        ok(same, &[], ONE, ONE).counters,
    );
    assert_eq!(x.warp_instr, y.warp_instr);
}

#[test]
fn a_run_time_length_copies_launch_floats_byte_by_byte() {
    // A length known only at run time is copied a byte at a time (as nvcc does): the float
    // arrays are held in bytes while the kernel runs, and read back as the floats they were.
    let src = r#"
__global__ void k(float* dst, const float* src, int n) {
    memcpy(dst, src, n * sizeof(float));
}
launch k { src = [1.5, -2.0, 3.25, 7.0]; dst = zeros(4); n = 3; expect dst == [1.5, -2.0, 3.25, 0.0]; }
"#;
    let c = ok(src, &[], ONE, ONE).counters;
    // 3 floats are 12 bytes: 12 one-byte loads and 12 one-byte stores.
    assert_eq!((c.gld_instr, c.gst_instr), (12, 12));
}

#[test]
fn the_library_functions_are_called_by_any_qualified_name() {
    // `std::memset` and `::memcpy` are the same functions (cstring puts them in both scopes):
    // lane t zeroes its four floats, then copies element t of `a` over its second one.
    let src = r#"
#include <cstring>
__global__ void k(float* out, const float* a) {
    float r[4];
    std::memset(r, 0, sizeof(r));
    ::memcpy(&r[1], a + threadIdx.x, sizeof(float));
    out[threadIdx.x] = r[0] + r[1] + r[2] + r[3];
}
launch k { a = arange(32) + 1; out = zeros(32); expect out == arange(32) + 1; }
"#;
    assert!(ok(src, &[], ONE, b(32)).expects_passed());
}

#[test]
fn a_function_no_kernel_calls_is_checked_with_its_pointer_parameters() {
    // mochimo's keccak init (`memset(ctx, ...)` of a parameter) and xmr-stak's `memcpy(st, in,
    // len)`: checked alone, each pointer points into a placeholder of its type. This panicked.
    let src = r#"
#include <cuda_pipeline.h>
struct S { int a; float b; };
__device__ void f(unsigned char* in, unsigned char* out, S* s) {
    unsigned char l[8];
    memset(in, 0, 8);
    memcpy(out, in, 8);
    memcpy(l, in, 8);
    memcpy(in, l, 8);
    memset(s, 0, sizeof(S));
}
__device__ void g(float4* dst, const float4* src) { __pipeline_memcpy_async(dst, src, 16); }
__global__ void k(unsigned* out) { out[threadIdx.x] = 7; }
launch k { out = zeros(32); expect out == full(32, 7); }
"#;
    assert!(ok(src, &[], ONE, b(32)).expects_passed());
}
