//! Inline PTX on shared memory by its 32-bit window address: `__cvta_generic_to_shared` and `cvta.to.shared`, `ld`/`st.shared` with an `"r"` operand, `cp.async` (zero fill included) and `ldmatrix`, with values and counts derived by hand from the PTX ISA.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn window_addresses_made_in_helpers_reach_their_array() {
    // sgemm-style helpers: the window address comes back from one `__device__` function and
    // goes into others by value and by `const&`.
    let src = r#"
__device__ __forceinline__ uint32_t smem_u32addr(const void *smem_ptr) {
    uint32_t addr;
    asm ("{.reg .u64 u64addr;\n"
         " cvta.to.shared.u64 u64addr, %1;\n"
         " cvt.u32.u64 %0, u64addr;}\n"
         : "=r"(addr) : "l"(smem_ptr));
    return addr;
}
__device__ __forceinline__ void sts32(const float &reg, const uint32_t &addr) {
    asm volatile ("st.shared.f32 [%1], %0;\n" : : "f"(reg), "r"(addr));
}
__device__ __forceinline__ void lds128(float &r0, float &r1, float &r2, float &r3, const uint32_t &addr) {
    asm volatile ("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
        : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3) : "r"(addr));
}
__global__ void k(const float* in, float* out) {
    __shared__ __align__(16) float pad[4];
    __shared__ __align__(16) float s[128];
    int t = threadIdx.x;
    pad[t % 4] = 0.0f;
    uint32_t base = smem_u32addr(s);
    sts32(in[t], base + t * sizeof(float));
    __syncthreads();
    if (t < 32) {
        float a, b, c, d;
        lds128(a, b, c, d, base + t * 16);
        out[t] = a + b + c + d;
    }
    uint32_t w = (uint32_t)__cvta_generic_to_shared(&s[5]) - base;
    out[32 + t] = (float)w;
}
launch k {
    in = arange(128); out = zeros(160);
    expect out[3] == 12.0 + 13.0 + 14.0 + 15.0;
    expect out[31] == 124.0 + 125.0 + 126.0 + 127.0;
    expect out[40] == 20.0;
}
"#;
    // Thread t stores in[t] at byte 4t of `s` (not of `pad`); threads 0..31 read the four
    // floats at byte 16t: 4t + (4t+1) + (4t+2) + (4t+3). `&s[5]` is 20 bytes past `s`.
    let r = ok(src, &[], ONE, [128, 1, 1]);
    // Each of 4 warps stores 4 words of `pad` (one wavefront) and 32 consecutive words of `s`
    // (one); one warp reads 32 × 16 bytes: 512 bytes, 4 wavefronts. 9 instructions, 12.
    assert_eq!(r.counters.smem_instr, 9);
    assert_eq!(r.counters.smem_wavefronts, 12);
}

#[test]
fn cp_async_copies_then_zero_fills_past_src_size() {
    let src = r#"
#define CP_ASYNC_CG(dst, src, bytes) asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))
__global__ void k(const float* in, float* out, int n) {
    __shared__ __align__(16) float s[256];
    int t = threadIdx.x;
    uint32_t d = __cvta_generic_to_shared(&s[t * 4]);
    int src = (t * 4 < n) ? 16 : (t * 4 - 2 < n ? 8 : 0);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" :: "r"(d), "l"(&in[t * 4]), "r"(src));
    CP_ASYNC_COMMIT_GROUP();
    CP_ASYNC_WAIT_GROUP(0);
    __syncthreads();
    for (int i = 0; i < 4; i++) out[t * 4 + i] = s[t * 4 + i];
    __syncthreads();
    CP_ASYNC_CG(__cvta_generic_to_shared(&s[t * 4]), &in[256 + t * 4], 16);
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    for (int i = 0; i < 4; i++) out[256 + t * 4 + i] = s[t * 4 + i];
}
launch k {
    in = arange(512) + 1; out = zeros(512); n = 99;
    expect out[99] == 100.0;
    expect out[101] == 102.0;
    expect out[102] == 0.0;
    expect out[255] == 0.0;
    expect sum(out) == 102.0 * 103.0 / 2.0 + (257.0 + 512.0) * 256.0 / 2.0;
}
"#;
    // n = 99: threads 0..24 (t*4 < 99) copy 16 bytes; thread 25 (100 - 2 < 99) copies 8 of
    // them (in[100], in[101] = 101, 102) and zeros 8; threads 26..63 zero all 16. So out[0..102]
    // holds 1..102 and the rest of the first half is 0; the second copy is in[256..512].
    let r = ok(src, &[], ONE, [64, 1, 1]);
    // Loads: warp 0's whole copies are one 16-byte request over bytes 0..400 (13 sectors);
    // thread 25's partial copy is two 4-byte requests (1 sector each); warp 1 loads nothing.
    // The second copy: two requests of 512 contiguous bytes, 16 sectors each. 5 and 47.
    assert_eq!(r.counters.gld_instr, 5);
    assert_eq!(r.counters.gld_sectors, 47);
}

#[test]
fn ldmatrix_gives_each_lane_its_words_and_reads_rows_in_wavefronts() {
    let src = r#"
__global__ void k(const half* in, float* out, int stride) {
    __shared__ __align__(16) half s[16 * 24];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 16; i += 32) s[(i / 16) * stride + i % 16] = in[i];
    __syncthreads();
    uint32_t addr = __cvta_generic_to_shared(&s[(t % 16) * stride + (t / 16) * 8]);
    uint32_t r[4], q[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3]) : "r"(addr));
    float wrong = 0.0f;
    for (int j = 0; j < 4; j++) {
        int r0 = (j % 2) * 8, c0 = (j / 2) * 8;
        for (int h = 0; h < 2; h++) {
            float got = __half2float(__ushort_as_half((unsigned short)(r[j] >> (16 * h))));
            float want = (r0 + t / 4) * 16 + c0 + 2 * (t % 4) + h;
            float got_t = __half2float(__ushort_as_half((unsigned short)(q[j] >> (16 * h))));
            float want_t = (r0 + 2 * (t % 4) + h) * 16 + c0 + t / 4;
            wrong += fabsf(got - want) + fabsf(got_t - want_t);
        }
    }
    out[t] = wrong;
}
launch k { in = arange(256); out = ones(32); stride = 16; expect out == zeros(32); }
"#;
    // Lanes 8j..8j+7 address the rows of matrix j (here the 8×8 quarters: rows +8 for odd j,
    // columns +8 for j ≥ 2). Lane t gets the word of row t/4, elements 2(t%4) and 2(t%4)+1
    // (PTX ISA, "Matrix fragments for ldmatrix"); with .trans, column t/4 of rows 2(t%4) and
    // 2(t%4)+1. The tile holds its own index, so each expected value is that index.
    let r = ok(src, &[], ONE, [32, 1, 1]);
    // Rows 32 bytes apart: rows r and r+4 of a matrix share banks, two wavefronts a matrix,
    // 8 an `ldmatrix.x4`; `.trans` reads the same rows. 8 stores of 64 bytes: 8 more.
    assert_eq!(r.counters.smem_wavefronts, 16 + 8);
    let padded = src.replace("stride = 16", "stride = 24");
    let r = ok(&padded, &[], ONE, [32, 1, 1]);
    // Rows 48 bytes apart start at banks 0, 12, 24, 4, 16, 28, 8, 20: no two of a matrix's 8
    // rows of 4 banks meet, one wavefront a matrix. The stores: half-rows of 16 elements, two
    // rows a store 48 bytes apart, still one wavefront each.
    assert_eq!(r.counters.smem_wavefronts, 8 + 8);
}

#[test]
fn a_shared_address_without_an_array_is_refused() {
    let src = "__global__ void k(float* out) {\n    float v;\n    unsigned a = 64;\n    asm volatile(\"ld.shared.f32 %0, [%1];\" : \"=f\"(v) : \"r\"(a));\n    out[0] = v;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(common::describe(&f).contains("no address of one `__shared__` array"));
    let src =
        "__global__ void k(float* out) {\n    out[0] = (float)__cvta_generic_to_shared(out);\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}
