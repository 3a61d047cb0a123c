//! Inline PTX (`asm`): each supported instruction's value derived by hand from the PTX ISA, and its accesses counted as ordinary ones.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn cvt_rounds_and_saturates_as_ptx_does() {
    let src = r#"
__device__ int to_s8(float x) {
    unsigned int d;
    asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(d) : "f"(x));
    return (int)d;
}
__global__ void k(const float* in, int* out) {
    int i = threadIdx.x;
    out[i] = to_s8(in[i]);
    short h;
    asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=h"(h) : "f"(in[i]));
    out[8 + i] = h;
    int z, m, p;
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(z) : "f"(in[i]));
    asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(m) : "f"(in[i]));
    asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(p) : "f"(in[i]));
    out[16 + i] = z;
    out[24 + i] = m;
    out[32 + i] = p;
}
launch k {
    in = [200.7, -3.5, 2.5, -200.0, 0.5, -0.5, 126.6, 1e10];
    out = zeros(40);
    expect out == [127, -4, 2, -128, 0, 0, 127, 127,
                   127, -4, 2, -128, 0, 0, 127, 127,
                   200, -3, 2, -200, 0, 0, 126, 2147483647,
                   200, -4, 2, -200, 0, -1, 126, 2147483647,
                   201, -3, 3, -200, 1, 0, 127, 2147483647];
}
"#;
    // rni rounds half to even, then .sat clamps to [-128, 127]: 200.7 → 201 → 127; -3.5 → -4;
    // 2.5 → 2; -200 → -128; ±0.5 → 0; 126.6 → 127; 1e10 → 127. The s8 result is
    // sign-extended into the 32- or 16-bit register (-4 stays -4).
    // rzi truncates, rmi rounds down, rpi up; out of int's range saturates (1e10 → INT_MAX).
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn cvt_between_integers_and_floats() {
    let src = r#"
__global__ void k(int* out, float* f) {
    int big = 16777217 + threadIdx.x;
    float r, z;
    asm("cvt.rn.f32.s32 %0, %1;" : "=f"(r) : "r"(big));
    asm("cvt.rz.f32.s32 %0, %1;" : "=f"(z) : "r"(big + 2));
    f[0] = r;
    f[1] = z;
    unsigned a, b;
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(a) : "r"(300));
    asm("cvt.s8.s32 %0, %1;" : "=r"(b) : "r"(300));
    out[0] = a;
    out[1] = b;
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(a) : "r"(-5));
    out[2] = a;
    float s;
    asm("cvt.sat.f32.f32 %0, %1;" : "=f"(s) : "f"(1.5f));
    f[2] = s;
    double d;
    asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(0.1f));
    f[3] = (float)d;
}
launch k {
    out = zeros(3);
    f = zeros(4);
    expect out == [255, 44, 0];
    expect f == [16777216.0, 16777218.0, 1.0, 0.1];
}
"#;
    // 16777217 = 2^24 + 1 lies halfway between the floats 2^24 and 2^24 + 2: .rn takes the
    // even 2^24; 16777219 toward zero is 16777218. .sat to u8: 300 → 255, -5 → 0; without
    // .sat, s8 keeps the low byte: 300 = 0x12C → 0x2C = 44. cvt.sat.f32 clamps to [0, 1].
    // f32 → f64 is exact, and back to float gives 0.1f again.
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn special_registers() {
    let src = r#"
__global__ void k(unsigned* out) {
    unsigned lane, tid, lt, le, gt, ge, eq, ctaid;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid));
    if (tid == 37 || tid == 63) {
        int o = (tid == 37) ? 0 : 8;
        out[o] = lane; out[o + 1] = tid; out[o + 2] = lt; out[o + 3] = le;
        out[o + 4] = gt; out[o + 5] = ge; out[o + 6] = eq; out[o + 7] = ctaid;
    }
}
launch k {
    out = zeros(16);
    expect out == [5, 37, 31, 63, 4294967232, 4294967264, 32, 0,
                   31, 63, 2147483647, 4294967295, 0, 2147483648, 2147483648, 0];
}
"#;
    // Thread 37 is lane 5: lt = bits 0..4 = 31, le = bits 0..5 = 63, gt = ~63 = 0xFFFFFFC0
    // = 4294967232, ge = ~31 = 0xFFFFFFE0 = 4294967264, eq = 1 << 5 = 32. Thread 63 is lane
    // 31: lt = 0x7FFFFFFF, le = all ones, gt = 0, ge = eq = 1 << 31 = 2147483648.
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn prmt_lop3_bfe_bfi_follow_the_isa() {
    let src = r#"
__global__ void k(unsigned* out) {
    unsigned a = 0x443322F1u, b = 0x88776655u, r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0x3210)); out[0] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0x7654)); out[1] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0x0123)); out[2] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0x0008)); out[3] = r;
    unsigned x = 0xF0F0F0F0u, y = 0xCCCCCCCCu, z = 0xAAAAAAAAu;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); out[4] = r;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(z), "n"(0xE8)); out[5] = r;
    asm("bfe.u32 %0, %1, 8, 8;" : "=r"(r) : "r"(0x12345678)); out[6] = r;
    int s;
    asm("bfe.s32 %0, %1, 12, 4;" : "=r"(s) : "r"(0xF000)); out[7] = s;
    asm("bfe.s32 %0, %1, 28, 8;" : "=r"(s) : "r"(0x80000000)); out[8] = s;
    asm("bfe.s32 %0, %1, 40, 3;" : "=r"(s) : "r"(0x80000000)); out[9] = s;
    asm("bfe.u32 %0, %1, 4, 0;" : "=r"(r) : "r"(0xFF)); out[10] = r;
    asm("bfi.b32 %0, %1, %2, 8, 8;" : "=r"(r) : "r"(0xAB), "r"(0xFFFFFFFF)); out[11] = r;
    asm("bfi.b32 %0, %1, %2, 28, 8;" : "=r"(r) : "r"(0xAB), "r"(0)); out[12] = r;
}
launch k {
    out = zeros(13);
    expect out == [0x443322F1, 0x88776655, 0xF1223344, 0xF1F1F1FF, 0x96969696, 0xE8E8E8E8,
                   0x56, 4294967295, 4294967288, 4294967295, 0, 0xFFFFABFF, 0xB0000000];
}
"#;
    // prmt: selector nibbles pick bytes of {b, a} (a = bytes 0..3): 0x3210 is a, 0x7654 is b,
    // 0x0123 reverses a's bytes; nibble 8 is byte 0 (0xF1) replaced by its sign, 0xFF, and
    // the other nibbles 0 copy byte 0: 0xF1F1F1FF.
    // lop3: with a = 0xF0, b = 0xCC, c = 0xAA per byte the result is the table itself:
    // 0x96 (a ^ b ^ c) and 0xE8 (majority).
    // bfe.u32 0x12345678 at 8, length 8: 0x56. bfe.s32 of 0xF000 at 12, 4 bits: 0xF → -1;
    // of 0x80000000 at 28, 8 bits: only 4 bits exist (0x8), sign-extended → -8 = 4294967288;
    // at 40, past the top: every bit is the sign → -1; length 0 → 0.
    // bfi: 0xAB into bits 8..16 of all ones → 0xFFFFABFF; at 28 only 4 bits fit: 0xB << 28.
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn integer_arithmetic_and_predicates() {
    let src = r#"
__global__ void k(int* out) {
    unsigned hi, mx; int lo, ab, sr, mn; unsigned long long wide; long long sw;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(0xFFFFFFFFu), "r"(0xFFFFFFFFu));
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(sw) : "r"(-2), "r"(3));
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(0x10000u), "r"(0x10000u));
    asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(lo) : "r"(7), "r"(-3), "r"(1));
    asm("abs.s32 %0, %1;" : "=r"(ab) : "r"(-5));
    asm("shr.s32 %0, %1, %2;" : "=r"(sr) : "r"(-16), "r"(2));
    asm("min.s32 %0, %1, %2;" : "=r"(mn) : "r"(-1), "r"(1));
    asm("max.u32 %0, %1, %2;" : "=r"(mx) : "r"(-1), "r"(1));
    out[0] = hi; out[1] = (int)sw; out[2] = (int)(wide >> 32); out[3] = lo; out[4] = ab;
    out[5] = sr; out[6] = mn; out[7] = (int)mx;
    unsigned pc, cz, bv, sh;
    asm("popc.b32 %0, %1;" : "=r"(pc) : "r"(0xF0F0));
    asm("clz.b32 %0, %1;" : "=r"(cz) : "r"(1));
    asm("brev.b32 %0, %1;" : "=r"(bv) : "r"(1));
    asm("shr.u32 %0, %1, 40;" : "=r"(sh) : "r"(0xFFFFFFFF));
    out[8] = pc; out[9] = cz; out[10] = (int)bv; out[11] = sh;
    int sel;
    asm("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, %2;\n\tselp.s32 %0, 10, 20, p;\n}"
        : "=r"(sel) : "r"((int)threadIdx.x - 1), "r"(0));
    out[12] = sel;
    int g = 5;
    asm("{ .reg .pred q; setp.hi.u32 q, %1, 0; @q add.s32 %0, %0, 1; @!q sub.s32 %0, %0, 1; }"
        : "+r"(g) : "r"(-1));
    out[13] = g;
}
launch k {
    out = zeros(14);
    expect out == [-2, -6, 1, -20, 5, -4, -1, -1, 8, 31, -2147483648, 0, 10, 6];
}
"#;
    // (2^32-1)^2 = 2^64 - 2^33 + 1: high word 0xFFFFFFFE = -2 as int. -2 * 3 = -6 wide.
    // 2^16 * 2^16 = 2^32: high word 1. 7 * -3 + 1 = -20. |-5| = 5. -16 >> 2 arithmetic = -4.
    // min.s32(-1, 1) = -1; max.u32(0xFFFFFFFF, 1) = 0xFFFFFFFF = -1. popc(0xF0F0) = 8,
    // clz(1) = 31, brev(1) = 1 << 31, shr.u32 by 40 ≥ 32 gives 0. Thread 0: -1 < 0, so 10.
    // 0xFFFFFFFF > 0 unsigned (hi): g + 1 = 6.
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn float_arithmetic_compares_and_approximations() {
    let src = r#"
__global__ void k(float* out, int* flags) {
    float nan = __int_as_float(0x7fc00000), r;
    asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(3.0f), "f"(4.0f), "f"(0.5f)); out[0] = r;
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(3.0f)); out[1] = r;
    asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(4.0f)); out[2] = r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(16.0f)); out[3] = r;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(0.0f)); out[4] = r;
    asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(nan), "f"(2.0f)); out[5] = r;
    asm("mov.b32 %0, %1;" : "=f"(r) : "r"(0x3F800000)); out[6] = r;
    asm("add.f32 %0, %1, 0f3F800000;" : "=f"(r) : "f"(0.5f)); out[7] = r;
    int ne, neu, num;
    asm("{ .reg .pred p; setp.ne.f32 p, %1, %2; selp.s32 %0, 1, 0, p; }" : "=r"(ne) : "f"(nan), "f"(1.0f));
    asm("{ .reg .pred p; setp.neu.f32 p, %1, %2; selp.s32 %0, 1, 0, p; }" : "=r"(neu) : "f"(nan), "f"(1.0f));
    asm("{ .reg .pred p; setp.num.f32 p, %1, %2; selp.s32 %0, 1, 0, p; }" : "=r"(num) : "f"(1.0f), "f"(2.0f));
    flags[0] = ne; flags[1] = neu; flags[2] = num;
    float tiny, flushed, product;
    asm("ex2.approx.f32 %0, %1;" : "=f"(tiny) : "f"(-130.0f));
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(flushed) : "f"(-130.0f));
    asm("mul.ftz.f32 %0, %1, %2;" : "=f"(product) : "f"(1e-39f), "f"(1e30f));
    flags[3] = tiny == 7.346839692639297e-40f;
    out[8] = flushed;
    out[9] = product;
}
launch k {
    out = zeros(10);
    flags = zeros(4);
    expect out == [12.5, 8.0, 0.25, 4.0, 0.0, 2.0, 1.0, 1.5, 0.0, 0.0];
    expect flags == [0, 1, 1, 1];
}
"#;
    // 3 * 4 + 0.5 = 12.5; 2^3 = 8; 1/4; sqrt(16) = 4; tanh(0) = 0 (all exact in float, so the
    // hardware's approximations agree). max with a NaN gives the other operand. The bits
    // 0x3F800000 are 1.0f; 0f3F800000 is the PTX spelling of 1.0f. Ordered ne is false
    // with a NaN, unordered neu true; num: neither is a NaN. 2^-130 = 7.3468397e-40 is
    // subnormal (below 2^-126): kept without .ftz, flushed to 0 with it; 1e-39 is subnormal,
    // so mul.ftz reads it as 0 and 0 * 1e30 = 0 (without .ftz it would be 1e-9).
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn shfl_bfly_reduction_equals_shfl_xor_sync() {
    let src = r#"
__global__ void k(const int* in, int* out) {
    int v = in[threadIdx.x], w = v;
    for (int off = 16; off > 0; off /= 2) {
        int o;
        asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(o) : "r"(v), "r"(off));
        v += o;
        w += __shfl_xor_sync(0xffffffff, w, off);
    }
    int up, down, idx;
    asm("shfl.sync.up.b32 %0, %1, 1, 0x0, 0xffffffff;" : "=r"(up) : "r"((int)threadIdx.x));
    asm("shfl.sync.down.b32 %0, %1, 1, 0x181f, 0xffffffff;" : "=r"(down) : "r"((int)threadIdx.x));
    asm("shfl.sync.idx.b32 %0, %1, 3, 0x1f, 0xffffffff;" : "=r"(idx) : "r"((int)threadIdx.x * 10));
    out[threadIdx.x] = v;
    out[32 + threadIdx.x] = w;
    out[64 + threadIdx.x] = up + 100 * down + 10000 * idx;
}
"#;
    // Every lane ends with 0 + 1 + ... + 31 = 496 both ways. up by 1: lane 0 keeps 0, lane 7
    // gets 6, lane 8 gets 7. 0x181f is width 8 ((32 - 8) << 8 | 0x1f): lane 7 is the top of
    // its segment and keeps 7, lane 8 gets 9. idx 3 broadcasts lane 3's 30.
    let mixed = (0..32).map(|l: i32| {
        let up = (l - 1).max(0);
        let down = if l % 8 == 7 { l } else { l + 1 };
        (up + 100 * down + 10000 * 30).to_string()
    });
    let all: Vec<String> = std::iter::repeat_n("496".to_string(), 64)
        .chain(mixed)
        .collect();
    let full = format!(
        "{src}\nlaunch k {{ in = arange(32); out = zeros(96); expect out == [{}]; }}",
        all.join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
}

#[test]
fn vector_loads_count_like_float4_loads() {
    let plain = r#"
__global__ void k(const float* in, float* out) {
    float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
launch k { in = arange(128); out = zeros(32); expect out[1] == 4.0 + 5.0 + 6.0 + 7.0; }
"#;
    let ptx = r#"
__global__ void k(const float* in, float* out) {
    float a, b, c, d;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(in + 4 * threadIdx.x));
    out[threadIdx.x] = a + b + c + d;
}
launch k { in = arange(128); out = zeros(32); expect out[1] == 4.0 + 5.0 + 6.0 + 7.0; }
"#;
    let p = ok(plain, &[], ONE, [32, 1, 1]).counters;
    let q = ok(ptx, &[], ONE, [32, 1, 1]).counters;
    // One warp reads 32 × 16 contiguous bytes: one load instruction, 512 / 32 = 16 sectors.
    assert_eq!((q.gld_instr, q.gld_sectors), (1, 16));
    assert_eq!((p.gld_instr, p.gld_sectors), (q.gld_instr, q.gld_sectors));
    assert_eq!(p.g_bytes_requested, q.g_bytes_requested);
}

#[test]
fn guarded_vector_load_and_store() {
    let src = r#"
__global__ void k(const unsigned* src, unsigned* dst, int on) {
    uint4 d;
    asm volatile(
        "{\n"
        "\t.reg .pred p;\n"
        "\tsetp.ne.b32 p, %5, 0;\n"
        "\tmov.b32 %0, 0;\n"
        "\tmov.b32 %1, 0;\n"
        "\tmov.b32 %2, 0;\n"
        "\tmov.b32 %3, 0;\n"
        "\t@p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
        "}\n"
        : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w)
        : "l"(src + 4 * threadIdx.x), "r"((int)(on && threadIdx.x == 0)));
    asm volatile("st.global.wb.v4.u32 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "l"(dst + 4 * threadIdx.x), "r"(d.x), "r"(d.y), "r"(d.z), "r"(d.w)
                 : "memory");
    __shared__ float tile[3];
    float t = threadIdx.x + 0.5f, back;
    asm volatile("st.shared.f32 [%0+4], %1;" :: "l"(tile + threadIdx.x), "f"(t) : "memory");
    asm volatile("ld.shared.f32 %0, [%1+4];" : "=f"(back) : "l"(tile + threadIdx.x));
    dst[8 + threadIdx.x] = (unsigned)(back * 2.0f);
}
launch k {
    src = arange(8) + 1;
    dst = zeros(10);
    on = 1;
    expect dst == [1, 2, 3, 4, 0, 0, 0, 0, 1, 3];
}
"#;
    // Only thread 0 loads (the predicate); thread 1 keeps the zeros mov wrote. Each thread
    // stores t = tid + 0.5 to tile[tid + 1] (byte offset 4) and reads it back: 2t = 1, 3.
    let r = ok(src, &[], ONE, [2, 1, 1]);
    // One predicated vector load (one lane), one vector store, one scalar store.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (1, 2));
}

#[test]
fn an_instruction_outside_the_subset_is_unsupported() {
    let src = "__global__ void k(int* out) {\n    unsigned b;\n    asm(\"vote.sync.ballot.b32 %0, 1, 0xffffffff;\" : \"=r\"(b));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(common::describe(&f).contains("vote.sync.ballot.b32"));
}

#[test]
fn a_missing_operand_and_a_wrong_constraint_are_errors() {
    let src = "__global__ void k(int* out) {\n    unsigned b;\n    asm(\"add.u32 %0, %1, %2;\" : \"=r\"(b) : \"r\"(1));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::asm_operand"]);
    let src = "__global__ void k(int* out) {\n    unsigned b;\n    asm(\"mov.u32 %0, 1;\" : \"r\"(b));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::asm_operand"]);
    // A register no `.reg` declares, and an input written.
    let src = "__global__ void k(int* out) {\n    unsigned b;\n    asm(\"add.u32 %0, t, 1;\" : \"=r\"(b));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::asm_operand"]);
    let src = "__global__ void k(int* out) {\n    unsigned b = 1;\n    asm(\"add.u32 %0, %0, 1;\" :: \"r\"(b));\n    out[0] = b;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::asm_operand"]);
}

#[test]
fn nvcc_spellings_a_gcc_reading_refuses() {
    // nvcc passes `%laneid` with one `%` through (tiny-cuda-nn's lane_id()), and eviction
    // priorities and prefetch sizes change no value (`ld.global.nc.L1::no_allocate`).
    let src = r#"
__global__ void k(const int* in, int* out) {
    int lane, v;
    asm("mov.s32 %0, %laneid;" : "=r"(lane));
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.s32 %0, [%1];" : "=r"(v) : "l"(in + threadIdx.x));
    asm volatile("st.global.L1::no_allocate.s32 [%0], %1;" :: "l"(out + threadIdx.x), "r"(v + lane));
}
launch k { in = arange(64); out = zeros(64); expect out == arange(64) + arange(64) % 32; }
"#;
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (2, 2));
}

#[test]
fn shf_is_the_funnel_shift_wrapping_or_clamping_its_count() {
    let src = r#"
__global__ void k(const unsigned* n, unsigned* out) {
    unsigned lo = 0x89ABCDEFu, hi = 0x01234567u, r;
    unsigned s = n[threadIdx.x];
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); out[threadIdx.x] = r;
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); out[4 + threadIdx.x] = r;
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); out[8 + threadIdx.x] = r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); out[12 + threadIdx.x] = r;
    if (threadIdx.x == 0) {
        asm("shf.l.wrap.b32 %0, %1, %1, 1;" : "=r"(r) : "r"(0x80000001u)); out[16] = r;
        asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "n"(8)); out[17] = r;
    }
}
launch k {
    n = [4, 36, 0, 32];
    out = zeros(18);
    expect out == [0x12345678, 0x12345678, 0x01234567, 0x01234567,
                   0x789ABCDE, 0x789ABCDE, 0x89ABCDEF, 0x89ABCDEF,
                   0x12345678, 0x89ABCDEF, 0x01234567, 0x89ABCDEF,
                   0x789ABCDE, 0x01234567, 0x89ABCDEF, 0x01234567,
                   0x00000003, 0x6789ABCD];
}
"#;
    // PTX ISA "shf": with {b, a} = 0x01234567_89ABCDEF (a the low word) and n the count,
    // .l gives (b << n) | (a >> (32 - n)), the high word of {b, a} << n, and .r gives
    // (b << (32 - n)) | (a >> n), the low word of {b, a} >> n; .wrap takes n = c & 31,
    // .clamp n = min(c, 32) (a shift by 32 of a 32-bit word gives 0).
    // c = 4: .l 0x12345670 | 0x89ABCDEF >> 28 = 0x12345670 | 0x8 = 0x12345678;
    //        .r 0x01234567 << 28 | 0x89ABCDEF >> 4 = 0x70000000 | 0x089ABCDE = 0x789ABCDE
    //        (both modes: 4 is below 32).
    // c = 36: .wrap counts 36 & 31 = 4, as above; .clamp counts 32: .l is a (b << 32 = 0,
    //        a >> 0), .r is b.
    // c = 0: .l is b (a >> 32 = 0), .r is a (b << 32 = 0), both modes.
    // c = 32: .wrap counts 0 (.l b, .r a); .clamp 32 (.l a, .r b).
    // {x, x} << 1 is a rotation: 0x80000001 << 1 | 0x80000001 >> 31 = 0x2 | 0x1 = 3.
    // The count as an "n" constant 8: 0x67000000 | 0x0089ABCD = 0x6789ABCD.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn f16x2_arithmetic_rounds_each_half_to_nearest_even() {
    let src = r#"
__global__ void k(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) {
    unsigned r;
    asm("add.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a[0]), "r"(b[0])); out[0] = r;
    asm("add.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a[0]), "r"(b[0])); out[1] = r;
    asm("sub.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a[1]), "r"(b[1])); out[2] = r;
    asm("mul.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a[2]), "r"(b[2])); out[3] = r;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a[3]), "r"(b[3]), "r"(c[0])); out[4] = r;
    unsigned short h;
    asm("add.f16 %0, %1, %2;" : "=h"(h) : "h"((unsigned short)0x3C01), "h"((unsigned short)0x1000));
    out[5] = h;
    asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(h)
        : "h"((unsigned short)0x3C01), "h"((unsigned short)0x0FFE), "h"((unsigned short)0x3C01));
    out[6] = h;
}
launch k {
    a = [0x3C013C00, 0x42003C00, 0x3C017BFF, 0x3C013C01];
    b = [0x10001000, 0x3C000C00, 0x3C014000, 0x0FFE3BFF];
    c = [0x3C01BC00];
    out = zeros(7);
    expect out == [0x3C023C00, 0x3C023C00, 0x40003C00, 0x3C027C00, 0x3C010FFE, 0x3C02, 0x3C01];
}
"#;
    // Halves (low half first): 0x3C00 = 1, 0x3C01 = 1 + 2^-10, 0x3BFF = 1 - 2^-11,
    // 0x4000 = 2, 0x4200 = 3, 0x7BFF = 65504 (the largest), 0xBC00 = -1,
    // 0x1000 = 2^-11 (exponent field 4: 2^(4 - 15)), 0x0C00 = 2^-12,
    // 0x0FFE = 2^-12 * (1 + 1022/1024) = 2^-11 - 2^-21. In [1, 2) the halves are 2^-10 apart.
    // add: 1 + 2^-11 is halfway between 1 (mantissa 0, even) and 1 + 2^-10: 0x3C00;
    //   (1 + 2^-10) + 2^-11 is halfway between 0x3C01 and 0x3C02 (even): 0x3C02. `.rn` is
    //   the default, so add.rn gives the same.
    // sub: 1 - 2^-12 is halfway between 1 - 2^-11 (0x3BFF, odd) and 1: 0x3C00; 3 - 1 = 2: 0x4000.
    // mul: 65504 * 2 overflows: +inf 0x7C00; (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20, nearest 1 + 2^-9:
    //   0x3C02.
    // fma, one rounding of the exact a*b + c: low (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21,
    //   a half (0x0FFE), where rounding the product first gives 1 and then 0. High
    //   (1 + 2^-10)(2^-11 - 2^-21) + (1 + 2^-10) = 1 + 2^-10 + 2^-11 - 2^-31: just below the
    //   midpoint between 0x3C01 and 0x3C02, so 0x3C01 (a float sum would round to the midpoint
    //   first, then to the even 0x3C02).
    // The same on one half in an "h" register: 0x3C01 + 0x1000 = 0x3C02; the fma 0x3C01.
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn trap_in_ptx_is_trap() {
    let src = r#"
__global__ void k(const int* bad, int* o) {
    if (bad[threadIdx.x]) asm("trap;");
    o[threadIdx.x] = 1;
}
launch k { bad = [0, 0]; o = zeros(2); expect o == [1, 1]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    // Thread 1 reaches it: the launch stops as with `__trap()`, at the `asm` (line 3).
    let f = err(
        &src.replace(
            "[0, 0]; o = zeros(2); expect o == [1, 1];",
            "[0, 1]; o = zeros(2);",
        ),
        &[],
        Some(ONE),
        Some([2, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::trap"]);
    assert_eq!(common::position(&f), (3, 27));
    assert!(common::describe(&f).contains("thread (1, 0, 0)"));
}

#[test]
fn unsupported_shf_and_half_qualifiers_are_reported() {
    // `.ftz` and `.sat` on halves, `fma` on halves without its `.rn`, `.bf16x2`, a funnel
    // shift without its mode or of another type, and `trap` with a qualifier are not run.
    for inst in [
        "add.ftz.f16x2 %0, %1, %1;",
        "mul.sat.f16x2 %0, %1, %1;",
        "fma.f16x2 %0, %1, %1, %1;",
        "fma.rz.f16x2 %0, %1, %1, %1;",
        "add.bf16x2 %0, %1, %1;",
        "shf.l.b32 %0, %1, %1, %1;",
        "shf.r.wrap.u32 %0, %1, %1, %1;",
        "shf.wrap.b32 %0, %1, %1, %1;",
        "trap.uni;",
    ] {
        let operands = if inst.starts_with("trap") {
            ""
        } else {
            " : \"=r\"(b) : \"r\"(1u)"
        };
        let src = format!(
            "__global__ void k(int* out) {{\n    unsigned b = 0;\n    asm(\"{inst}\"{operands});\n    out[0] = b;\n}}\n"
        );
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([1, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{inst}");
        assert!(
            common::describe(&f).contains(inst.trim_end_matches(';')),
            "{inst}"
        );
    }
}

#[test]
fn a_register_the_template_declares_may_be_named_like_a_temporary() {
    // murmur-cuda's fmix32: `.reg .b32 t1;` in its own braces. The lowering's temporaries were
    // named `ptx.t1`, `ptx.t2`..., so `t1` was "declared twice". h ^ (h >> 16) for
    // h = 0x10000 + t is (0x10000 + t) ^ 1.
    let src = r#"
__device__ __forceinline__ unsigned mix(unsigned h) {
    asm("{\n\t"
        ".reg .b32 t1;\n\t"
        " shr.b32 t1, %0, 16;\n\t"
        " xor.b32 %0, %0, t1;\n\t"
        "}"
        : "+r"(h));
    return h;
}
__global__ void k(unsigned* out) { out[threadIdx.x] = mix(threadIdx.x + 0x10000); }
launch k { out = zeros(32); expect out == ((arange(32) + 65536) ^ 1); }
"#;
    assert!(ok(src, &[], ONE, [32, 1, 1]).expects_passed());
}

/// `bar.sync a, b` with its operands in registers (nv-wavenet's `namedBarrierSync(0,
/// blockDim.x)`): barrier 0 for every warp of the block is `__syncthreads()`. Thread t reads
/// what thread 63 - t wrote, so without the barrier the read races (and the engine reports it).
#[test]
fn a_ptx_barrier_with_the_blocks_thread_count_is_syncthreads() {
    let src = r#"
__device__ __forceinline__ void named(int name, int n) {
    asm volatile("bar.sync %0, %1;" : : "r"(name), "r"(n) : "memory");
}
__global__ void k(int* out, int id, int count) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    named(id, count);
    asm volatile("barrier.sync.aligned 0;");
    out[threadIdx.x] = s[63 - threadIdx.x];
}
launch k { out = zeros(64); id = 0; count = 64; grid = 1; block = 64; expect out == 63 - arange(64); }
"#;
    let r = ok(src, &[], ONE, [64, 1, 1]);
    // One barrier per `bar.sync` for the block: the check before each costs nothing.
    assert_eq!(r.counters.barriers, 2);
    // A 48-thread block is two warps: a count of 64.
    ok(
        &src.replace("block = 64;", "block = 48;")
            .replace("zeros(64)", "zeros(48)")
            .replace("63 - arange(64)", "47 - arange(48)")
            .replace("s[63 - threadIdx.x]", "s[47 - threadIdx.x]"),
        &[],
        ONE,
        [48, 1, 1],
    );
    let refused = |args: &[(&str, &str)], what: &str| {
        let f = err(src, args, None, None);
        assert_eq!(codes(&f), ["simt::run::named_barrier"], "{args:?}");
        let msg = f.errors[0].to_string();
        assert!(msg.contains(what), "{args:?}: {msg}");
    };
    refused(&[("count", "32")], "for 32 of the block's 64 threads");
    refused(&[("count", "96")], "waits for 96 threads");
    refused(&[("count", "40")], "40 threads, not a multiple of 32");
    refused(&[("id", "1")], "barrier 1");
    refused(&[("id", "16")], "barriers 0 to 15");
}

/// The threads at one `bar.sync` give it one number and count; a count waits for warps to
/// arrive, so a warp that has exited hangs it (exits release only a barrier without a count).
#[test]
fn a_ptx_barrier_count_is_uniform_and_waits_for_exited_warps() {
    let src = r#"
__global__ void k(int* out) {
    if (threadIdx.x >= 32) return;
    unsigned n = 64;
    asm volatile("bar.sync 0, %0;" : : "r"(n));
    out[threadIdx.x] = 1;
}
launch k { out = zeros(64); grid = 1; block = 64; }
"#;
    let f = err(src, &[], None, None);
    assert_eq!(codes(&f), ["simt::run::named_barrier"]);
    assert!(f.errors[0]
        .to_string()
        .contains("warp 1 of the block has exited"));
    let uneven = src.replace("if (threadIdx.x >= 32) return;", "").replace(
        "unsigned n = 64;",
        "unsigned n = threadIdx.x < 5 ? 64 : 32;",
    );
    let f = err(&uneven, &[], None, None);
    assert_eq!(codes(&f), ["simt::run::named_barrier"]);
    let msg = f.errors[0].to_string();
    assert!(
        msg.contains("given thread count 32 here and 64 by thread [0, 0, 0]"),
        "{msg}"
    );
    // Warp 1 has not exited when warp 0 arrives, but will without arriving: a GPU hangs.
    let later = src
        .replace("if (threadIdx.x >= 32) return;", "if (threadIdx.x < 32) {")
        .replace("out[threadIdx.x] = 1;", "out[threadIdx.x] = 1; }");
    let f = err(&later, &[], None, None);
    assert_eq!(codes(&f), ["simt::run::named_barrier"]);
    assert!(f.errors[0]
        .to_string()
        .contains("reached by part of the block"));
    // The lowering's own call, written by hand with another operand count, is an argument
    // error, not a crash.
    let by_hand = "__global__ void k(int* o) { __simt_bar_sync(); o[0] = 1; }\n\
                   launch k { o = zeros(1); grid = 1; block = 1; }";
    assert_eq!(
        codes(&err(by_hand, &[], None, None)),
        ["simt::check::argument_count"]
    );
    // A barrier number written in the instruction is refused before the kernel runs.
    let literal = src.replace("bar.sync 0, %0;", "bar.sync 2, %0;");
    assert_eq!(
        codes(&err(&literal, &[], None, None)),
        ["simt::check::unsupported"]
    );
}

/// Extended precision through the carry flag (PTX ISA, "Extended-Precision Integer Arithmetic
/// Instructions"), as solana's 128-bit adds and sppark's field code chain it. Expected values
/// are Python's big integers: a 128-bit add of two u64 pairs (carry out of the low word), a
/// 96-bit subtraction of u32 triples (borrows through two words), and (hi:lo) = a * b + (c1:c0)
/// mod 2^64 by `mad.lo.cc` then `madc.hi` on u32s.
#[test]
fn carry_chains_add_subtract_and_multiply_in_extended_precision() {
    let src = r#"
__global__ void k(const unsigned long long* a, const unsigned long long* b, unsigned long long* s,
                  const unsigned* x, const unsigned* y, unsigned* d, const unsigned* m, unsigned* p) {
    int t = threadIdx.x;
    unsigned long long lo, hi;
    asm("add.cc.u64 %0, %2, %4;\n\taddc.u64 %1, %3, %5;"
        : "=l"(lo), "=l"(hi) : "l"(a[2 * t]), "l"(a[2 * t + 1]), "l"(b[2 * t]), "l"(b[2 * t + 1]));
    s[2 * t] = lo; s[2 * t + 1] = hi;
    unsigned r0, r1, r2;
    asm("sub.cc.u32 %0, %3, %6;\n\tsubc.cc.u32 %1, %4, %7;\n\tsubc.u32 %2, %5, %8;"
        : "=r"(r0), "=r"(r1), "=r"(r2)
        : "r"(x[3 * t]), "r"(x[3 * t + 1]), "r"(x[3 * t + 2]), "r"(y[3 * t]), "r"(y[3 * t + 1]), "r"(y[3 * t + 2]));
    d[3 * t] = r0; d[3 * t + 1] = r1; d[3 * t + 2] = r2;
    unsigned plo, phi;
    asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, %5;"
        : "=r"(plo), "=r"(phi) : "r"(m[4 * t]), "r"(m[4 * t + 1]), "r"(m[4 * t + 2]), "r"(m[4 * t + 3]));
    p[2 * t] = plo; p[2 * t + 1] = phi;
}
launch k {
    a = [18446744073709551615, 0, 18446744073709551615, 18446744073709551615, 1, 2, 9223372036854775808, 5];
    b = [1, 0, 1, 0, 3, 4, 9223372036854775808, 18446744073709551615];
    s = zeros(8);
    x = [0, 0, 1, 5, 6, 7, 0, 4294967295, 0, 4294967295, 4294967295, 4294967295];
    y = [1, 0, 0, 6, 6, 7, 1, 0, 0, 4294967295, 4294967295, 4294967295];
    d = zeros(12);
    m = [4294967295, 4294967295, 4294967295, 4294967295, 3, 4, 5, 6, 2147483648, 2, 2147483648, 1, 4294967295, 1, 1, 0];
    p = zeros(8);
    grid = 1; block = 4;
    expect s == [0, 1, 0, 0, 4, 6, 0, 5];
    expect d == [4294967295, 4294967295, 0, 4294967295, 4294967295, 4294967295, 4294967295, 4294967294, 0, 0, 0, 0];
    expect p == [0, 4294967294, 17, 6, 2147483648, 2, 0, 1];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// `shfl.up.b32 r|p, ...` writes whether the source lane is in the segment (PTX ISA,
/// "shfl.sync": lane - b at least the segment's first lane for `up`, lane + b at most its last
/// for `down`), and the pre-Volta `shfl` without `.sync` is the whole warp's. surfelwarp's scan
/// adds where `p`: ones give 1, 2, 2, ... Width 16 (lane control 0x1000 for up, 0x101f for
/// down), shift 3: up reads lane - 3 where lane % 16 >= 3, down lane + 3 where lane % 16 <= 12.
#[test]
fn a_shuffle_writes_whether_its_source_lane_is_in_the_segment() {
    let src = r#"
__device__ __forceinline__ float shfl_add(float x, int offset) {
    float result = 0;
    asm volatile ("{.reg .f32 r0;" ".reg .pred p;" "shfl.up.b32 r0|p, %1, %2, 0;" "@p add.f32 r0, r0, %1;" "mov.f32 %0, r0;}"
        : "=f"(result) : "f"(x), "r"(offset));
    return result;
}
__global__ void k(float* a, int* v, int* p) {
    int t = threadIdx.x;
    a[t] = shfl_add(a[t], 1);
    int r, q;
    asm("{.reg .pred p; shfl.sync.up.b32 %0|p, %2, 3, 0x1000, 0xffffffff; selp.s32 %1, 1, 0, p;}" : "=r"(r), "=r"(q) : "r"(t));
    v[t] = r; p[t] = q;
    asm("{.reg .pred p; shfl.sync.down.b32 %0|p, %2, 3, 0x101f, 0xffffffff; selp.s32 %1, 1, 0, p;}" : "=r"(r), "=r"(q) : "r"(t));
    v[32 + t] = r; p[32 + t] = q;
    asm("{.reg .pred p; shfl.sync.idx.b32 %0|p, %2, 5, 0x1f, 0xffffffff; selp.s32 %1, 1, 0, p;}" : "=r"(r), "=r"(q) : "r"(t));
    v[64 + t] = r; p[64 + t] = q;
}
launch k {
    a = ones(32); v = zeros(96); p = zeros(96); block = 32; grid = 1;
    expect a == [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
    expect v == [0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 13, 14, 15, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 29, 30, 31,
                 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5];
    expect p == [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0,
                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    // Only `shfl` writes a second, predicate result.
    let pair = "__global__ void k(int* o) { int r; asm(\"{.reg .pred p; add.s32 %0|p, %1, 1;}\" : \"=r\"(r) : \"r\"(o[0])); o[0] = r; }\n\
                launch k { o = zeros(1); grid = 1; block = 1; }";
    let f = err(pair, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(f.errors[0].to_string().contains("`d|p`"));
}
