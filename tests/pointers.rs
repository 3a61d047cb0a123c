//! Pointers and local arrays: counters through pointers derived by hand, results checked by expects.

use crate::common;
use common::{codes, describe, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

/// Each thread sums its own row of 8 floats by index.
const INDEXED: &str = r#"
__global__ void indexed(const float* a, float* out) {
    int t = threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 8; k++) {
        s += a[t * 8 + k];
    }
    out[t] = s;
}
"#;

/// The same sums by walking a pointer.
const WALKED: &str = r#"
__global__ void walked(const float* a, float* out) {
    const float* p = a + threadIdx.x * 8;
    const float* end = p + 8;
    float s = 0.0f;
    while (p < end) {
        s += *p;
        p++;
    }
    out[threadIdx.x] = s;
}
"#;

#[test]
fn a_pointer_walk_counts_the_sectors_of_the_indexed_loop() {
    // Row t holds 8t .. 8t + 7: its sum is 64 t + 28.
    let launch = "{ a = arange(256); out = zeros(32); expect out == arange(32) * 64 + 28; }";
    let i = ok(
        &format!("{INDEXED}launch indexed {launch}"),
        &[],
        ONE,
        b(32),
    )
    .counters;
    let w = ok(&format!("{WALKED}launch walked {launch}"), &[], ONE, b(32)).counters;
    // Load k of the warp reads a[8t + k]: 32 lanes 32 B apart, one sector each → 32 sectors,
    // 8 loads → 256; the store is contiguous: 4 sectors.
    assert_eq!((i.gld_instr, i.gld_sectors), (8, 256));
    assert_eq!((w.gld_instr, w.gld_sectors), (i.gld_instr, i.gld_sectors));
    assert_eq!((w.gst_instr, w.gst_sectors), (1, 4));
    assert_eq!(w.g_bytes_requested, i.g_bytes_requested);
}

#[test]
fn a_float4_load_through_a_cast_pointer_is_one_16_byte_access() {
    let src = r#"
__global__ void k(const float* a, float* out) {
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(&a[4 * i])[0];
    out[i] = v.x + v.y + v.z + v.w;
}
launch k { a = arange(128); out = zeros(32); expect out == arange(32) * 16 + 6; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    // 32 lanes × 16 B contiguous = 512 B = 16 sectors (4 sectors per 8 lanes) in one request.
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
    // Requested: 512 B loaded + 32 × 4 B stored.
    assert_eq!(c.g_bytes_requested, 512 + 128);
}

#[test]
fn pointer_parameters_moved_by_the_kernel_keep_their_sectors() {
    // SGEMM-tutorial style: the parameter itself is advanced to the block's row.
    let src = r#"
__global__ void k(const float* A, float* C, int n) {
    A += blockIdx.x * n;
    C += blockIdx.x * n;
    C[threadIdx.x] = A[threadIdx.x] * 2.0f;
}
launch k { n = 32; A = arange(64); C = zeros(64); expect C == arange(64) * 2; }
"#;
    let c = ok(src, &[], b(2), b(32)).counters;
    // Each block's warp reads and writes 32 contiguous aligned floats: 4 sectors each way.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 8));
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 8));
}

#[test]
fn local_arrays_with_known_indices_are_registers_and_others_local_memory() {
    let regs = r#"
__global__ void regs(float* out) {
    float acc[4] = {1.0f, 2.0f};
    #pragma unroll
    for (int k = 0; k < 4; k++) {
        acc[k] += (float)k;
    }
    out[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
launch regs { out = zeros(32); expect out == 9; }
"#;
    // acc[k] with k an unrolled induction variable: registers, no local traffic; the 4
    // initialisers, 4 updates and 4 reads issue nothing either.
    let c = ok(regs, &[], ONE, b(32)).counters;
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    let local = r#"
__global__ void local(float* out) {
    float acc[4] = {0.0f};
    acc[threadIdx.x % 4] = 1.0f;
    out[threadIdx.x] = acc[threadIdx.x % 4] + acc[0];
}
"#;
    // acc[t % 4] = 1, then acc[t % 4] + acc[0]: 2 where t % 4 == 0, else 1.
    let expected: Vec<&str> = (0..32)
        .map(|t| if t % 4 == 0 { "2" } else { "1" })
        .collect();
    let local = format!(
        "{local}launch local {{ out = zeros(32); expect out == [{}]; }}\n",
        expected.join(", ")
    );
    let l = ok(&local, &[], ONE, b(32)).counters;
    // acc[threadIdx.x % 4] is indexed by the thread: local memory, interleaved so that lane k's
    // element i is word 32 i + k of the warp's local memory.
    // Uniform index i (the 4 initialisers, the read of acc[0]): words 32 i .. 32 i + 31 = 128 B
    // = 4 sectors. Index t % 4: lane k at word 32 (k % 4) + k; the 8 lanes with k % 4 = j sit in
    // words 32 j + [j, j + 28], all inside one aligned 128 B block: 4 sectors each → 16.
    // Stores: 4 initialisers (4 × 4) + 1 (16); loads: 1 (16) + 1 (4).
    assert_eq!((l.local_st_instr, l.local_st_sectors), (5, 4 * 4 + 16));
    assert_eq!((l.local_ld_instr, l.local_ld_sectors), (2, 16 + 4));
}

#[test]
fn device_functions_take_pointers_and_references() {
    let src = r#"
__device__ void add_to(float& acc, const float* x, int n) {
    for (int i = 0; i < n; i++) {
        acc += x[i];
    }
}
__device__ void swap(float& a, float& b) {
    float t = a;
    a = b;
    b = t;
}
__global__ void k(const float* in, float* out, float* pair) {
    float s = 0.0f;
    add_to(s, in + threadIdx.x * 2, 2);
    out[threadIdx.x] = s;
    if (threadIdx.x == 0) {
        swap(pair[0], pair[1]);
    }
}
launch k {
    in = arange(64); out = zeros(32); pair = [1, 2];
    expect out == arange(32) * 4 + 1;
    expect pair == [2, 1];
}
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn null_pointers_compare_and_select() {
    let src = r#"
__global__ void k(const float* x, const float* bias, float* out) {
    const float* b = bias;
    const float* none = NULL;
    float v = x[threadIdx.x];
    if (b != NULL && none == nullptr && !none) {
        v += b[threadIdx.x];
    }
    out[threadIdx.x] = v;
}
launch k { x = arange(32); bias = ones(32); out = zeros(32); expect out == arange(32) + 1; }
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn a_pointer_re_pointed_where_it_was_declared_follows_its_new_array() {
    // llm.c's softmax: `x` reads the input row, then the output row it just wrote.
    let src = r#"
__global__ void k(float* out, const float* inp, int C) {
    const float* x = inp + threadIdx.x * C;
    for (int i = 0; i < C; i++) {
        out[threadIdx.x * C + i] = x[i] * 2.0f;
    }
    x = out + threadIdx.x * C;
    float s = 0.0f;
    for (int i = 0; i < C; i++) {
        s += x[i];
    }
    out[threadIdx.x * C] = s;
}
launch k {
    C = 2; inp = ones(64); out = zeros(64);
    expect out == [4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2,
                   4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2, 4, 2];
}
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn a_pointer_is_a_condition() {
    // `if (p)` is `if (p != NULL)`, as in cuda-samples' `if (d_Input) { ... }`.
    let src = r#"
__global__ void k(const float* in, float* out) {
    const float* none = NULL;
    out[threadIdx.x] = (in ? 1.0f : 0.0f) + (none ? 10.0f : 0.0f);
    if (in && !none) {
        out[threadIdx.x] += in[threadIdx.x];
    }
}
launch k { in = arange(32); out = zeros(32); expect out == arange(32) + 1; }
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn device_functions_return_pointers_and_vectors() {
    // llm.c's add_float4 takes `const float4&` and returns a float4; `row` returns a pointer
    // into its argument's array. out[i] = x[i] + 1 component-wise; o[i] = m[2i] + m[2i + 1]
    // = 4i + 1.
    let src = r#"
__device__ float4 add_float4(const float4& a, const float4& b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ const float* row(const float* base, int r, int n) { return base + r * n; }
__global__ void k(const float4* x, const float4* y, float4* out, const float* m, float* o) {
    int i = threadIdx.x;
    float4 a = x[i];
    out[i] = add_float4(a, y[i]);
    const float* r = row(m, i, 2);
    o[i] = r[0] + r[1];
}
launch k { x = arange(32); y = ones(32); out = zeros(32); m = arange(16); o = zeros(8);
  expect out == arange(32) + 1; expect o == arange(8) * 4 + 1; }
"#;
    ok(src, &[], ONE, b(8));
}

#[test]
fn increments_inside_expressions_step_once_and_yield_the_right_value() {
    // One warp; thread t owns 4 consecutive floats. `*q++ = *p++` copies them, so each of the 4
    // load requests reads a[4t + k]: lanes 16 B apart, 32 lanes over 512 B = 16 sectors; 4
    // loads = 64 sectors, and the same for the stores: what the indexed copy
    // `b[4 * t + k] = a[4 * t + k]` counts. c: n starts at t; c[2t] = n++ is t (then n = t + 1);
    // c[2t + 1] = ++n is t + 2; m = n-- takes t + 2 and leaves n = t + 1, so d[t] = 10 * (t +
    // 2) + t + 1 = 11t + 21.
    let walk = r#"
__global__ void k(const float* a, float* b, int* c, int* d) {
    int t = threadIdx.x;
    const float* p = a + 4 * t;
    float* q = b + 4 * t;
    for (int k = 0; k < 4; k++) *q++ = *p++;
    int n = t;
    c[2 * t] = n++;
    c[2 * t + 1] = ++n;
    int m = n--;
    d[t] = 10 * m + n;
}
launch k { a = arange(128); b = zeros(128); c = zeros(64); d = zeros(32);
    expect b == a; expect c == [0, 2, 1, 3, 2, 4, 3, 5, 4, 6, 5, 7, 6, 8, 7, 9, 8, 10, 9, 11,
        10, 12, 11, 13, 12, 14, 13, 15, 14, 16, 15, 17, 16, 18, 17, 19, 18, 20, 19, 21, 20, 22,
        21, 23, 22, 24, 23, 25, 24, 26, 25, 27, 26, 28, 27, 29, 28, 30, 29, 31, 30, 32, 31, 33];
    expect d == arange(32) * 11 + 21; }
"#;
    let r = ok(walk, &[], ONE, b(32));
    let indexed = walk.replace(
        "for (int k = 0; k < 4; k++) *q++ = *p++;",
        "for (int k = 0; k < 4; k++) b[4 * t + k] = a[4 * t + k];",
    );
    let r2 = ok(&indexed, &[], ONE, b(32));
    let sectors = |r: &simt::report::Report| (r.counters.gld_sectors, r.counters.gst_sectors);
    // The stores of c and d: 2 + 1 requests; c's lanes are 8 B apart (8 sectors each), d's 4 B
    // (4 sectors): 64 + 8 + 8 + 4 = 84 store sectors.
    assert_eq!(sectors(&r), (64, 84));
    assert_eq!(sectors(&r), sectors(&r2));
}

#[test]
fn increments_inside_expressions_keep_const_and_elements_out() {
    for (src, code) in [
        // Writing through a pointer to const, stepped or not.
        (
            "__global__ void k(float* a) { const float* p = a; *p++ = 1.0f; }",
            "simt::check::not_assignable",
        ),
        // A const variable cannot be stepped.
        (
            "__global__ void k(int* a) { const int n = 2; a[0] = n++; }",
            "simt::check::not_assignable",
        ),
        // An element stepped inside an expression at an index that steps too: the index in a
        // statement of its own instead.
        (
            "__global__ void k(int* a) { int i = 0; a[1] = a[i++]++; }",
            "simt::check::unsupported",
        ),
    ] {
        let f = common::err(src, &[("a", "zeros(2)")], Some(ONE), Some(ONE));
        assert_eq!(common::codes(&f), [code], "{src}");
    }
}

#[test]
fn a_pointer_cast_sees_the_same_bytes_as_another_type_of_the_same_size() {
    // 1.0f is 0x3f800000 = 1065353216; -1 as `unsigned char` is 255 and as `unsigned` 4294967295.
    let src = r#"
__global__ void k(float* f, const char* c, int* i, unsigned* bits, unsigned* u, float* back) {
    int t = threadIdx.x;
    bits[t] = ((const unsigned*)f)[t];
    u[t] = reinterpret_cast<const unsigned char*>(c)[t];
    ((unsigned*)i)[t] = 4294967295u;
    int4 q = reinterpret_cast<const int4*>(f)[t];
    ((int*)back)[t] = q.x + q.w;
    reinterpret_cast<int*>(f)[t] = 1073741824;
}
launch k {
    f = ones(128); c = full(32, -1); i = zeros(32); bits = zeros(32); u = zeros(32); back = zeros(32);
    expect bits == 1065353216;
    expect u == 255;
    expect i == -1;
    expect sum(f) == 32 * 2 + 96;
}
"#;
    let r = ok(src, &[], ONE, b(32));
    let c = r.counters;
    // Loads: `bits` reads 32 contiguous floats (4 sectors); `c` 32 bytes (1 sector); the
    // `int4` view 32 × 16 B = 512 B (16 sectors) in one request.
    assert_eq!((c.gld_instr, c.gld_sectors), (3, 4 + 1 + 16));
    // A view is free: the same instructions as the plain accesses of the memory's own type.
    let plain = ok(
        r#"
__global__ void k(float* f, const unsigned char* c, unsigned* i, unsigned* bits, unsigned* u, int* back) {
    int t = threadIdx.x;
    bits[t] = ((const unsigned*)f)[t];
    u[t] = c[t];
    i[t] = 4294967295u;
    int4 q = reinterpret_cast<const int4*>(f)[t];
    back[t] = q.x + q.w;
    reinterpret_cast<int*>(f)[t] = 1073741824;
}
launch k { f = ones(128); c = full(32, 255); i = zeros(32); bits = zeros(32); u = zeros(32); back = zeros(32); }
"#,
        &[],
        ONE,
        b(32),
    )
    .counters;
    assert_eq!(c.warp_instr, plain.warp_instr);
}

#[test]
fn atomics_through_a_signedness_view_compare_as_the_pointer_sees() {
    // `int` memory holding -1 through an `unsigned*`: 0xffffffff is the unsigned maximum, so
    // atomicMax keeps it; through the `int*` itself, max(-1, 5) = 5.
    let src = r#"
__global__ void k(int* a, int* b) {
    atomicMax((unsigned int*)&a[0], 5u);
    atomicMax(&b[0], 5);
}
launch k { a = full(1, -1); b = full(1, -1); expect a == -1; expect b == 5; }
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn memory_is_reinterpreted_only_as_same_size_or_wider_elements() {
    // A launch array an atomic works on keeps its words: their bytes are refused.
    let f = common::err(
        r#"
__global__ void k(unsigned* in, unsigned char* out) {
    atomicAdd(&in[1], 1u);
    out[threadIdx.x] = ((const unsigned char*)in)[threadIdx.x];
}
"#,
        &[],
        Some(ONE),
        Some(b(32)),
    );
    assert_eq!(common::codes(&f), ["simt::check::unsupported"]);
    // A shared array an atomic works on is not also seen as bytes, whichever comes first
    // (`tests/bad/check_atomic_on_a_narrowed_shared_array.sk`).
    for (first, second) in [
        ("atomicAdd(&s[t], 1u);", "out[t] = ((unsigned char*)s)[t];"),
        ("out[t] = ((unsigned char*)s)[t];", "atomicAdd(&s[t], 1u);"),
    ] {
        let f = common::err(
            &format!(
                "__global__ void k(unsigned* out) {{\n    __shared__ unsigned int s[32];\n    int t = threadIdx.x;\n    s[t] = 0;\n    {first}\n    {second}\n}}"
            ),
            &[],
            Some(ONE),
            Some(b(32)),
        );
        assert_eq!(common::codes(&f), ["simt::check::unsupported"]);
        assert_eq!(common::position(&f).0, 6, "{}", common::describe(&f));
    }
    // An atomic sees whole elements, through their own type or the same bits of another 32- or
    // 64-bit type: `(int*)` of floats adds to the bits (1.0f is 0x3f800000; + 1 is 0x3f800001,
    // 1 + 2^-23, bits 1065353217), but a `__nv_bfloat16` view of halves is refused.
    common::ok(
        "__global__ void k(float* f, unsigned* bits) { atomicAdd((int*)f, 1); bits[0] = ((unsigned*)f)[0]; }\nlaunch k { f = [1.0]; bits = zeros(1); expect bits == [1065353217]; }",
        &[],
        ONE,
        ONE,
    );
    let f = common::err(
        "__global__ void k(half* h) { atomicAdd((__nv_bfloat16*)h, __float2bfloat16(1.0f)); }",
        &[],
        Some(ONE),
        Some(b(32)),
    );
    assert_eq!(common::codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_local_whose_address_is_taken_lives_in_registers_while_its_index_is_known() {
    // Thread t: sin² + cos² = 1; m = 2t by `twice`, then + 2; v = (4t, 4t+1, 4t+2, 4t+3)
    // copied through `&v` as one float4, so w.y + w.w = 8t + 4.
    let src = r#"
__device__ void twice(int* p) { *p *= 2; }
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
__global__ void k(float* a, int* n, const float* x, float* y) {
    int t = threadIdx.x;
    float s, c;
    sincosf(a[t], &s, &c);
    int m = t;
    twice(&m);
    m++;
    m += 1;
    a[t] = s * s + c * c;
    n[t] = m;
    float4 v = reinterpret_cast<const float4*>(x)[t];
    float4 w = FLOAT4(v);
    y[t] = w.y + w.w;
}
launch k {
    a = arange(32); n = zeros(32); x = arange(128); y = zeros(32);
    expect abs(a - 1) < 1e-6;
    expect n == arange(32) * 2 + 2;
    expect y == arange(32) * 8 + 4;
}
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    // Every access of `s`, `c`, `m` and `v` is at element 0: registers, no local traffic.
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // A vector's components as the out-parameters (ppl.llm's rotary embedding,
    // `__sincosf(f, &ret.y, &ret.x)`) are the components: `*&ret.y` is `ret.y`. It was "the
    // address of this expression is not supported".
    let components = src.replace(
        "float s, c;\n    sincosf(a[t], &s, &c);",
        "float2 r = {0.0f, 0.0f};\n    __sincosf(a[t], &r.y, &r.x);\n    float s = r.y, c = r.x;",
    );
    assert_ne!(components, src);
    let c = ok(&components, &[], ONE, b(32)).counters;
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // `auto` locals whose address is taken are the same (redtail's `auto val = __half2(...);
    // *(float*)&val`; it was "the address of the local variable is not supported").
    let auto = src.replace("int m = t;", "auto m = t;").replace(
        "float4 w = FLOAT4(v);",
        "auto u = v;\n    float4 w = FLOAT4(u);",
    );
    assert_ne!(auto, src);
    let c = ok(&auto, &[], ONE, b(32)).counters;
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // A run-time index through the pointer puts the variable in local memory: one store of its
    // initial value and one load through `p[t & 0]`.
    let dynamic = ok(
        r#"
__global__ void k(int* n) {
    int t = threadIdx.x;
    int v = t;
    int* p = &v;
    n[t] = p[t & 0];
}
launch k { n = zeros(32); expect n == arange(32); }
"#,
        &[],
        ONE,
        b(32),
    )
    .counters;
    assert_eq!((dynamic.local_st_instr, dynamic.local_ld_instr), (1, 1));
}

#[test]
fn void_pointers_take_the_type_the_code_casts_them_to() {
    // ggml style: a `void*` kernel parameter is a buffer of the type its first cast names
    // (float); a `const void*` helper parameter points into the argument's own memory (bytes
    // here), cast back to bytes inside. y[i] = 2 + key[i] = 2 + i.
    let src = r#"
__device__ unsigned char byte_at(const void* key, int i) {
    const unsigned char* data = (const unsigned char*)key;
    return data[i];
}
__global__ void fill(void* vy, const unsigned char* key, int n) {
    float* y = (float*) vy;
    int i = threadIdx.x;
    if (i < n) y[i] = 2.0f + byte_at(key, i);
}
launch fill { n = 4; vy = zeros(4); key = arange(4); block = 32; grid = 1; expect vy == [2, 3, 4, 5]; }
"#;
    ok(src, &[], ONE, b(32));
    // One the kernel never casts is what `void*` is: bytes, which the launch gives as such.
    ok(
        "__global__ void k(void* p) { }\nlaunch k { p = [1, 255, 7]; expect p == [1, 255, 7]; }\n",
        &[],
        ONE,
        b(32),
    );
}

#[test]
fn integer_memory_seen_as_a_wider_scalar_is_one_access_of_its_elements() {
    // cuda-samples' histogram64 clears `uchar s_Hist[]` through `(uint*)`. Little-endian:
    // shared word t = 0x04030201 + t has bytes (1 + t, 2, 3, 4), so byte t of the array is
    // 1 + t/4 where t % 4 == 0, else t % 4 + 1. Global bytes 0..127 read as words: word 1 is
    // 4 | 5 << 8 | 6 << 16 | 7 << 24 = 117835012; written back + 1, byte 4t becomes 4t + 1.
    let src = r#"
__global__ void k(unsigned int* out, unsigned int* words, const unsigned char* bytes, unsigned char* b2) {
    __shared__ unsigned char s[128];
    int t = threadIdx.x;
    ((unsigned int*)s)[t] = 0x04030201u + t;
    __syncthreads();
    out[t] = s[t];
    words[t] = ((const unsigned int*)bytes)[t];
    ((unsigned int*)b2)[t] = ((const unsigned int*)bytes)[t] + 1;
}
launch k { out = zeros(32); words = zeros(32); bytes = arange(128); b2 = zeros(128);
    expect out[0] == 1; expect out[1] == 2; expect out[3] == 4; expect out[4] == 2; expect out[8] == 3;
    expect words[1] == 117835012;
    expect b2[0] == 1; expect b2[1] == 1; expect b2[4] == 5; expect b2[127] == 127; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    // Each view access is one 4-byte access per lane: 32 × 4 B = 128 B = 4 sectors, and one
    // shared wavefront (32 lanes on 32 banks); the byte read of 32 bytes is one wavefront too.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 8));
    assert_eq!((c.gst_instr, c.gst_sectors), (3, 12));
    assert_eq!((c.smem_instr, c.smem_wavefronts), (2, 2));
    // A word view must start on a word: byte 1 is not.
    let f = common::err(
        "__global__ void k(const unsigned char* b, unsigned int* o) { o[0] = ((const unsigned int*)(b + 1))[0]; }\nlaunch k { b = arange(8); o = zeros(1); }\n",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(common::codes(&f), ["simt::run::misaligned_address"]);
}

/// LeetCUDA's `elementwise_add_f16x8_pack_kernel`: 128-bit loads and stores of `half` through
/// `float4` views, of global memory and of local arrays.
const F16X8: &str = r#"
#define LDST128BITS(value) (reinterpret_cast<float4 *>(&(value))[0])
#define HALF2(value) (reinterpret_cast<half2 *>(&(value))[0])
__global__ void elementwise_add_f16x8_pack_kernel(half *a, half *b, half *c, int N) {
  int idx = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  half pack_a[8], pack_b[8], pack_c[8];
  LDST128BITS(pack_a[0]) = LDST128BITS(a[idx]);
  LDST128BITS(pack_b[0]) = LDST128BITS(b[idx]);
  for (int i = 0; i < 8; i += 2) HALF2(pack_c[i]) = __hadd2(HALF2(pack_a[i]), HALF2(pack_b[i]));
  if ((idx + 7) < N) LDST128BITS(c[idx]) = LDST128BITS(pack_c[0]);
}
launch elementwise_add_f16x8_pack_kernel {
    a = arange(256) * 0.5; b = arange(256); c = zeros(256); N = 256;
    expect c == arange(256) * 1.5; }
"#;

/// A `float4` copy of halves and one of floats.
const COPY_F16X8: &str = r#"
__global__ void copy_f16x8(half *a, half *c) {
  int idx = 8 * threadIdx.x;
  reinterpret_cast<float4 *>(&c[idx])[0] = reinterpret_cast<float4 *>(&a[idx])[0];
}
launch copy_f16x8 { a = arange(256); c = zeros(256); expect c == arange(256); }
"#;
const COPY_F32X4: &str = r#"
__global__ void copy_f32x4(float *a, float *c) {
  int idx = 4 * threadIdx.x;
  reinterpret_cast<float4 *>(&c[idx])[0] = reinterpret_cast<float4 *>(&a[idx])[0];
}
launch copy_f32x4 { a = arange(128); c = zeros(128); expect c == arange(128); }
"#;

#[test]
fn half_memory_seen_as_float4_is_one_16_byte_access_per_lane() {
    // a[i] = i/2 and b[i] = i: c[i] = 3i/2, at most 382.5 = 765/2, which half holds exactly
    // (10 bits of significand), so the rounded sum of each pair is exact.
    let c = ok(F16X8, &[], ONE, b(32)).counters;
    // Each lane moves 8 halves = 16 B: 32 lanes × 16 B = 512 B = 16 sectors per request, two
    // loads and one store; the local packs have constant indices, so they are registers.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 32));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 16));
    assert_eq!(c.g_bytes_requested, 3 * 512);
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // A copy through the view costs what a `float4` copy of floats does: one load and one
    // store of 16 sectors each, and no instruction more (packing the halves is free).
    let h = ok(COPY_F16X8, &[], ONE, b(32)).counters;
    let f = ok(COPY_F32X4, &[], ONE, b(32)).counters;
    assert_eq!((h.gld_sectors, h.gst_sectors), (16, 16));
    assert_eq!(
        (
            h.warp_instr,
            h.gld_instr,
            h.gst_instr,
            h.gld_sectors,
            h.gst_sectors
        ),
        (
            f.warp_instr,
            f.gld_instr,
            f.gst_instr,
            f.gld_sectors,
            f.gst_sectors
        )
    );
}

#[test]
fn narrow_memory_seen_as_a_wider_vector_packs_its_elements() {
    // `uint4` of bytes: lane t's vector is bytes 16t .. 16t + 15 (byte i holds i % 128); its x
    // plus 0x01010101 adds 1 to each of its first four bytes (no carry: bytes are below 255),
    // little-endian. So out[0] = 1, out[3] = 4, out[4] = 4 (untouched), out[16] = 17.
    let src = r#"
__global__ void k(const unsigned char* in, unsigned char* out) {
  int t = threadIdx.x;
  uint4 v = reinterpret_cast<const uint4*>(in)[t];
  v.x += 0x01010101u;
  reinterpret_cast<uint4*>(out)[t] = v;
}
launch k { in = arange(512) % 128; out = zeros(512);
    expect out[0] == 1; expect out[3] == 4; expect out[4] == 4; expect out[16] == 17;
    expect out[20] == 20; expect out[499] == 116; expect out[511] == 127; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 16));
    // `float2` of shared halves: lane t stores halves 4t .. 4t + 3 and, after the barrier, loads
    // lane 31 - t's: c[4t + k] = a[4(31 - t) + k] = (124 - 4t + k) / 2, so c[0] = 62, c[3] =
    // 63.5, c[124] = 0, c[127] = 1.5. Each access is 32 lanes × 8 B = 256 B: 2 wavefronts.
    let src = r#"
__global__ void k(const half* a, half* c) {
  __shared__ half s[128];
  int t = threadIdx.x;
  reinterpret_cast<float2*>(s)[t] = reinterpret_cast<const float2*>(a)[t];
  __syncthreads();
  reinterpret_cast<float2*>(c)[t] = reinterpret_cast<float2*>(s)[31 - t];
}
launch k { a = arange(128) * 0.5; c = zeros(128);
    expect c[0] == 62; expect c[3] == 63.5; expect c[124] == 0; expect c[127] == 1.5; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.smem_instr, c.smem_wavefronts), (2, 4));
    assert_eq!((c.gld_sectors, c.gst_sectors), (8, 8));
    // A local `half` array indexed at run time, in local memory, seen as `float4`: one 16-byte
    // access per lane (32 × 16 B = 16 sectors) each. c = p[1 - k] = a + a = 2a.
    let src = r#"
__global__ void k(const half* a, half* c, int k) {
  half p[16];
  reinterpret_cast<float4*>(p)[k] = reinterpret_cast<const float4*>(a)[threadIdx.x];
  reinterpret_cast<float4*>(p)[1 - k] = reinterpret_cast<float4*>(p)[k];
  for (int i = 0; i < 8; i++) p[8 * (1 - k) + i] = p[8 * (1 - k) + i] + p[8 * k + i];
  reinterpret_cast<float4*>(c)[threadIdx.x] = reinterpret_cast<float4*>(p)[1 - k];
}
launch k { a = arange(256); c = zeros(256); k = 1; expect c == arange(256) * 2; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    // Loads: 2 views × 16 sectors + 16 halves × 2 sectors (32 × 2 B); stores: 2 views × 16 +
    // 8 halves × 2.
    assert_eq!((c.local_ld_instr, c.local_ld_sectors), (18, 64));
    assert_eq!((c.local_st_instr, c.local_st_sectors), (10, 48));
}

#[test]
fn a_float4_view_of_half_memory_must_start_on_16_bytes() {
    // Half 8t + 2 is byte 16t + 4: not a multiple of 16.
    let f = common::err(
        r#"
__global__ void k(const half* a, half* c) {
  float4 v = reinterpret_cast<const float4*>(&a[8 * threadIdx.x + 2])[0];
  reinterpret_cast<float4*>(c)[threadIdx.x] = v;
}
launch k { a = arange(512); c = zeros(512); }
"#,
        &[],
        Some(ONE),
        Some(b(32)),
    );
    assert_eq!(common::codes(&f), ["simt::run::misaligned_address"]);
    assert!(common::describe(&f).contains("16-byte access at byte offset 4"));
}

/// Issue 12: a thread's local vector seen as narrower components, as HeCBench's relu reads a
/// `float4` of halves (`half2* h = reinterpret_cast<half2*>(&v); h[3]`): its bytes, little-endian.
#[test]
fn a_local_vector_seen_as_narrower_components_is_its_bytes() {
    // The float4's component k is halves 2k (its low 16 bits) and 2k + 1 (its high 16 bits):
    //   1.0f        = 0x3f800000 → 0x0000 = 0, 0x3f80 = 2^0 × (1 + 0x380/1024) = 1.875
    //   -2.0f       = 0xc0000000 → 0, 0xc000 = -2
    //   0x3c003c00  = 2^-7 × (1 + 0x3c00/2^23) = 0.00782680511474609375 → 0x3c00, 0x3c00 = 1, 1
    //   3.0f        = 0x40400000 → 0, 0x4040 = 2^1 × (1 + 0x40/1024) = 2.125
    // (numpy: np.float32([1, -2, 0.00782680511474609375, 3]).view(np.float16)). Its bytes 0..3
    // are 1.0f's, lowest first: 0x00, 0x00, 0x80, 0x3f = 0, 0, 128, 63. Written through the
    // view, `u` is read whole: halves (0, 0x3f80) are 1.0f, (1, 1) 0x3c003c00 and (0, -2)
    // -2.0f; its last pair is v's, 3.0f.
    let src = r#"
__global__ void k(const float* in, half* h, unsigned char* b, float* w) {
    int t = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in)[t];
    half2* p = reinterpret_cast<half2*>(&v);
    for (int i = 0; i < 4; i++) reinterpret_cast<half2*>(h)[4 * t + i] = p[i];
    unsigned char* c = reinterpret_cast<unsigned char*>(&v);
    for (int i = 0; i < 4; i++) b[4 * t + i] = c[i];
    float4 u;
    half2* q = reinterpret_cast<half2*>(&u);
    q[0] = __halves2half2(__ushort_as_half(0), __ushort_as_half(0x3f80));
    q[1] = __floats2half2_rn(1.0f, 1.0f);
    q[2] = __halves2half2(__ushort_as_half(0), __ushort_as_half(0xc000));
    q[3] = p[3];
    reinterpret_cast<float4*>(w)[t] = u;
}
launch k { in = [1.0, -2.0, 0.00782680511474609375, 3.0]; h = zeros(8); b = zeros(4); w = zeros(4);
    expect h == [0, 1.875, 0, -2, 1, 1, 0, 2.125];
    expect b == [0, 0, 128, 63];
    expect w == [1.0, 0.00782680511474609375, -2.0, 3.0]; }
"#;
    let c = ok(src, &[], ONE, ONE).counters;
    // Every index through the views is known: `v` and `u` stay in registers, and reading them
    // as halves or bytes moves nothing.
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // At a run-time index the float4 is in local memory. Lane t's vector is floats 4t .. 4t + 3
    // (integers below 128: their low 16 bits are 0), and it reads pair t & 3, float 4t + (t & 3):
    //   t = 1: 5.0f  = 0x40a00000 → 0, 0x40a0 = 2 × (1 + 0xa0/1024) = 2.3125
    //   t = 2: 10.0f = 0x41200000 → 0, 0x4120 = 2 × (1 + 0x120/1024) = 2.5625
    // Counting as local memory is laid out (lane k's 4-byte word i at word 32 i + k of the warp):
    // the float4 stored whole is 32 × 16 contiguous bytes, 16 sectors; the half2 load of pair
    // j = t & 3 touches words 32 j + k of the 8 lanes k ≡ j (mod 4), 4 sectors per j: 16.
    let src = r#"
__global__ void k(const float* in, half* out) {
    int t = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in)[t];
    half2* p = reinterpret_cast<half2*>(&v);
    reinterpret_cast<half2*>(out)[t] = p[t & 3];
}
launch k { in = arange(128); out = zeros(64);
    expect out[0] == 0; expect out[1] == 0; expect out[2] == 0; expect out[3] == 2.3125;
    expect out[4] == 0; expect out[5] == 2.5625; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.local_st_instr, c.local_st_sectors), (1, 16));
    assert_eq!((c.local_ld_instr, c.local_ld_sectors), (1, 16));
}

/// Issue 12: words of a shared array read and written as bytes, as ISPASS's md5 reads its
/// message block (`unsigned char *data = (unsigned char *)sharedMemory;`).
#[test]
fn a_shared_array_seen_as_narrower_components_is_its_bytes() {
    // Word w = w * 0x01010101 + 0x00010203 has bytes, lowest first, w + 3, w + 2, w + 1, w (no
    // carries below 256). Lane t reads byte j = t & 3 of word (t + 1) & 31, which is
    // ((t + 1) & 31) + 3 - j: lanes 0-3 read 4, lanes 4-7 read 8, ..., lane 30 reads 31 + 1 = 32
    // and lane 31 word 0's byte 3, 0. Then each lane sets the lowest byte of its own word to 0xff:
    // word 0 becomes 0x000102ff = 66303, word 1 0x010203ff = 16909311.
    let src = r#"
__global__ void k(unsigned* out, unsigned char* b) {
    __shared__ unsigned int s[32];
    int t = threadIdx.x;
    s[t] = t * 0x01010101u + 0x00010203u;
    __syncthreads();
    unsigned char* c = (unsigned char*)s;
    b[t] = c[4 * ((t + 1) & 31) + (t & 3)];
    __syncthreads();
    c[4 * t] = 0xff;
    out[t] = s[t];
}
launch k { out = zeros(32); b = zeros(32);
    expect b[0] == 4; expect b[3] == 4; expect b[4] == 8; expect b[30] == 32; expect b[31] == 0;
    expect out[0] == 66303; expect out[1] == 16909311; expect out[31] == 522199551; }
"#;
    // Word 31: 0x1f << 24 | 0x20 << 16 | 0x21 << 8 | 0xff = 522199551.
    let c = ok(src, &[], ONE, b(32)).counters;
    // Counted by bytes, as the hardware does: the word store and load are one wavefront each;
    // the byte load touches 32 distinct words, one per bank, and the byte store word t: one each.
    assert_eq!((c.smem_instr, c.smem_wavefronts), (4, 4));
    assert_eq!(c.race_count, 0);
}

/// Past the end of a narrowed local, or a vector view of it at an offset that is not a multiple
/// of its size: the run-time diagnostics of any local array (`tests/bad/run_narrow_view_*.sk`).
#[test]
fn a_narrow_view_of_a_local_is_bounded_and_aligned_like_any_array() {
    let past = common::err(
        r#"
__global__ void k(const float* in, half* out) {
    float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
    half2* h = reinterpret_cast<half2*>(&v);
    reinterpret_cast<half2*>(out)[0] = h[4];
}
launch k { in = zeros(4); out = zeros(2); }
"#,
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(common::codes(&past), ["simt::run::out_of_bounds"]);
    // Half 1 of the float4 is byte 2: a `float2` there would be misaligned.
    let misaligned = common::err(
        r#"
__global__ void k(const float* in, float* out) {
    float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
    float2* f = reinterpret_cast<float2*>(reinterpret_cast<half*>(&v) + 1);
    out[0] = f[0].x;
}
launch k { in = zeros(4); out = zeros(1); }
"#,
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(
        common::codes(&misaligned),
        ["simt::run::misaligned_address"]
    );
    assert!(common::describe(&misaligned).contains("8-byte access at byte offset 2"));
}

/// Eight narrow elements make one wide component too: a `double` local seen as bytes, and a
/// shared `int` array seen as bytes and as `unsigned long long` (two of its words).
#[test]
fn a_component_may_span_eight_narrow_elements() {
    // 1.5 = 0x3ff8000000000000: byte 7 is 0x3f = 63, byte 6 0xf8 = 248, the rest 0. Writing
    // 0x40 over byte 7 makes 0x40f8000000000000 = 2^(0x40f - 1023) × 1.5 = 2^16 × 1.5 = 98304.
    // The shared words are 0x04030201 and 0x08070605 (bytes 1 .. 8); as one 64-bit value,
    // little-endian, 0x0807060504030201: high word 0x08070605 = 134678021, low 0x04030201 =
    // 67305985; its byte 5 is 6.
    let src = r#"
__global__ void k(const double* in, unsigned char* out, double* d2, unsigned* w) {
    double d = in[0];
    unsigned char* c = reinterpret_cast<unsigned char*>(&d);
    out[0] = c[7];
    out[1] = c[6];
    c[7] = 0x40;
    d2[0] = d;
    __shared__ int s[2];
    unsigned char* b = (unsigned char*)s;
    for (int i = 0; i < 8; i++) b[i] = i + 1;
    unsigned long long v = ((unsigned long long*)s)[0];
    w[0] = (unsigned)(v >> 32);
    w[1] = (unsigned)v;
    out[2] = b[5];
}
launch k { in = [1.5]; out = zeros(3); d2 = zeros(1); w = zeros(2);
    expect out == [63, 248, 6]; expect d2 == [98304]; expect w == [134678021, 67305985]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// A `void*` read as `half*` or `float*` by a flag (exllamav2's rms_norm): an array of no type of
/// its own would be converted to `half` and, with the flag set, read as float bits, so it is
/// refused (`tests/bad/host_void_pointer_two_types.sk`); `zeros` is zero bits in either type and
/// is taken, and a kernel that casts its `void*` one way only takes any array.
#[test]
fn a_void_pointer_read_two_ways_needs_an_array_of_known_type() {
    let two_ways = "__global__ void k(const void* x, float* out, const bool input_fp32) {
            int i = threadIdx.x;
            if (!input_fp32) out[i] = __half2float(((const half*)x)[i]) + 1.0f;
            else out[i] = ((const float*)x)[i] + 2.0f;
        }
        launch k { x = zeros(16); out = zeros(8); input_fp32 = 1; block = 8; grid = 1;
                   expect out == 2; }";
    common::run(two_ways, &[], None, None).expect("zeros are the same bits in both types");
    // 16 halves are the bytes of the 8 floats the flag reads.
    let refused = two_ways.replace("x = zeros(16);", "x = arange(16) + 0.5;");
    let f = common::run(&refused, &[], None, None).expect_err("a guess");
    assert_eq!(common::codes(&f), ["simt::host::void_type"]);
    let one_way = "__global__ void k(const void* x, float* out) {
            int i = threadIdx.x;
            out[i] = ((const float*)x)[i] + 2.0f;
        }
        launch k { x = arange(8) + 0.5; out = zeros(8); block = 8; grid = 1;
                   expect out == arange(8) + 2.5; }";
    common::run(one_way, &[], None, None).expect("one type");
}

#[test]
fn auto_star_takes_the_pointer_type_of_its_value() {
    // `auto* p = a + 1` is a `const float*` into `a`: p[t] = a[t + 1] = t + 1; `auto* q = o`
    // writes through `o`.
    let src = r#"
__global__ void k(const float* a, float* o) {
    const auto* p = a + 1;
    auto* q = o;
    q[threadIdx.x] = p[threadIdx.x];
}
launch k { a = arange(5); o = zeros(4); expect o == [1, 2, 3, 4]; }
"#;
    ok(src, &[], b(1), b(4));
    // `const auto*` is a pointer to const: a store through it is refused, as in C++.
    let f = common::err(
        "__global__ void k(float* o) {\n    const auto* p = o;\n    p[0] = 1.0f;\n}\n",
        &[],
        Some(b(1)),
        Some(b(1)),
    );
    assert_eq!(common::codes(&f), ["simt::check::not_assignable"]);
}

#[test]
fn the_address_of_a_parameter_passed_by_value_is_its_copy() {
    // GPTQ-for-LLaMa's `as_unsigned`: `*reinterpret_cast<unsigned int*>(&i)` of an `int i`
    // parameter reads its bits as unsigned: -1 → 0xffffffff >> 28 = 15, 1 → 0, INT_MIN →
    // 0x80000000 >> 28 = 8, 2^28 → 1. Writing through the address changes the copy only.
    let src = r#"
__device__ inline unsigned int as_unsigned(int i) { return *reinterpret_cast<unsigned int*>(&i); }
__device__ int bump(int v) { int* p = &v; *p += 1; return v; }
__global__ void k(const int* a, unsigned* out, int* same) {
    int t = threadIdx.x;
    out[t] = as_unsigned(a[t]) >> 28;
    int x = a[t];
    same[t] = bump(x) - x;
}
launch k { a = [-1, 1, -2147483648, 268435456]; out = zeros(4); same = zeros(4);
    expect out == [15, 0, 8, 1]; expect same == [1, 1, 1, 1]; }
"#;
    // The copy's every index is known, so it stays in registers: no local-memory traffic.
    let r = ok(src, &[], b(1), b(4));
    assert_eq!(
        (r.counters.local_ld_instr, r.counters.local_st_instr),
        (0, 0)
    );
}

#[test]
fn the_address_of_a_kernel_parameter_is_the_threads_copy() {
    // HiFiLES' RK45_update_kernel: `calc_dt_local(q, &dt, ...)` writes through the address of
    // the kernel's `double dt`. Each thread halves its own copy: 3 * 0.5 = 1.5, then adds its
    // index through `int*` of `int n`, 10 + t; the launch's values are not changed.
    let src = r#"
__device__ void halve(double* x) { (*x) = *x * 0.5; }
__device__ void add(int* x, int t) { *x += t; }
__global__ void k(double dt, int n, double* out, int* m) {
    halve(&dt);
    add(&n, threadIdx.x);
    out[threadIdx.x] = dt;
    m[threadIdx.x] = n;
}
launch k { dt = 3.0; n = 10; out = zeros(4); m = zeros(4); expect out == full(4, 1.5); expect m == 10 + arange(4); }
"#;
    ok(src, &[], b(1), b(4));
}

#[test]
fn a_cast_to_a_reference_type_views_the_objects_bytes() {
    // AWQ's float_to_int8_rn: `reinterpret_cast<const int8_t&>(dst)` is the first byte of
    // `dst` (little-endian): 0x1ff → 0xff → -1 as int8_t. `reinterpret_cast<const int&>(1.0f)`
    // is its bits, 0x3f800000 = 1065353216; writing 0x40000000 through `int&` makes f 2.0f.
    // `static_cast<const int&>(dst)` is dst's value, 0x1ff = 511.
    let src = r#"
static inline __device__ int8_t low_byte(uint32_t dst) { return reinterpret_cast<const int8_t&>(dst); }
__global__ void k(int* out, float* g) {
    uint32_t dst = 0x1ff;
    float f = 1.0f;
    out[0] = low_byte(dst);
    out[1] = reinterpret_cast<const int&>(f);
    reinterpret_cast<int&>(f) = 0x40000000;
    g[0] = f;
    out[2] = static_cast<const int&>(dst);
}
launch k { out = zeros(3); g = zeros(1); expect out == [-1, 1065353216, 511]; expect g == [2]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_char_pointer_is_a_byte_address_cast_back_to_the_element_type() {
    // The cudaMallocPitch idiom (COLMAP's MVS helpers, the Programming Guide's example): a row
    // step in bytes through `char*`, back to `float*`. 4 rows of 30 floats at a pitch of 128
    // bytes; block (32, 4): warp y is row y, 30 lanes active. The pitched kernel and the one
    // indexing floats (`in[y * 32 + x]`) make the same accesses: per warp one load and one
    // store of 120 bytes from a 128-byte row start = 4 sectors each, 4 warps: 4 instructions,
    // 16 sectors, 4 * 120 = 480 bytes asked per direction. out = 2 * in inside the rows, the
    // padding (columns 30, 31) stays 0.
    let pitched = r#"
__global__ void k(const float* in, float* out, size_t pitch, int width) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x >= width) return;
    const float* row = (const float*)((const char*)in + y * pitch);
    *((float*)((char*)out + y * pitch) + x) = 2.0f * row[x];
}
launch k {
    in = arange(128);
    out = zeros(128);
    pitch = 128; width = 30;
    expect out == WANT;
}
"#;
    let want: Vec<String> = (0..128)
        .map(|i| if i % 32 < 30 { 2 * i } else { 0 }.to_string())
        .collect();
    let pitched = &pitched.replace("WANT", &format!("[{}]", want.join(", ")));
    let indexed = pitched
        .replace(
            "const float* row = (const float*)((const char*)in + y * pitch);",
            "const float* row = in + y * (pitch / 4);",
        )
        .replace(
            "*((float*)((char*)out + y * pitch) + x)",
            "out[y * (pitch / 4) + x]",
        );
    for src in [pitched, &indexed] {
        let c = ok(src, &[], ONE, [32, 4, 1]).counters;
        assert_eq!((c.gld_instr, c.gld_sectors), (4, 16), "{src}");
        assert_eq!((c.gst_instr, c.gst_sectors), (4, 16), "{src}");
        assert_eq!(c.g_bytes_requested, 2 * 480, "{src}");
    }
    // A pitch that is not a multiple of 4 bytes puts row 1 at byte 126: the GPU's misaligned
    // address for the float store (lane 0 of warp 1).
    let f = err(pitched, &[("pitch", "126")], Some(ONE), Some([32, 4, 1]));
    assert_eq!(codes(&f), ["simt::run::misaligned_address"]);
    assert!(
        f.errors[0]
            .to_string()
            .contains("a 4-byte access at byte offset 126 of `in`"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn a_struct_pointer_from_a_char_byte_offset() {
    // tensorrtx's `(Detection*)((char*)out + sizeof(float) * k)` at a multiple of the struct's
    // 8 bytes: thread t's `P` starts at byte 8t + 8, floats 2t + 2 and 2t + 3 of `out`, so
    // out = [0, 0, 0, 1, 10, 11, 20, 21, 30, 31].
    let src = r#"
struct P { float a, b; };
__global__ void k(float* out) {
    char* data = (char*)out + 2 * sizeof(float) + threadIdx.x * sizeof(P);
    P* p = (P*)data;
    p->a = 10.0f * threadIdx.x;
    p->b = p->a + 1.0f;
    if (threadIdx.x == 0) out[1] = 0.0f;
}
launch k {
    out = zeros(10);
    expect out == [0, 0, 0, 1, 10, 11, 20, 21, 30, 31];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// The address of a member of a local struct or vector (`&s.b`, `&q.y`): the local gets an
/// address, and the pointer reaches its member. `*p = 5` makes s = {1, 5}, so o[0] = 1 + 5 = 6;
/// `*r = 7` makes q = {1, 7, 3}, so o[1] = 7 and o[2] = r[1] = q.z = 3.
#[test]
fn a_member_of_a_local_struct_or_vector_has_an_address() {
    let src = r#"
struct S { float a; float b; };
__global__ void k(float* o) {
    S s; s.a = 1.0f; s.b = 2.0f;
    float* p = &s.b;
    *p = 5.0f;
    o[0] = s.a + s.b;
    float3 q = make_float3(1.0f, 2.0f, 3.0f);
    float* r = &q.y;
    *r = 7.0f;
    o[1] = q.y;
    o[2] = r[1];
}
launch k {
    o = zeros(3);
    grid = 1; block = 1;
    expect o == [6, 7, 3];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_two_dimensional_array_parameter_and_a_row_passed_as_a_pointer() {
    // Lei Mao's GEMMs: `T t[4][8]` as a parameter points to rows of 8, so t[r][c] is element
    // 8 r + c; `tile[r]` of a 2-D shared array (and `t[r]` of such a parameter) is row r. Thread
    // i writes i at tile[i / 8][i % 8] through both, and reads it back in place: out = i.
    let src = r#"
__device__ void put(float t[4][8], int r, int c, float v) { t[r][c] = v; }
__device__ void put_row(float* row, int c, float v) { row[c] = v; }
__device__ void via_rows(float t[4][8], int r, int c, float v) { put_row(t[r], c, v); }
__global__ void k(float* out, float* out2) {
    __shared__ float tile[4][8];
    __shared__ float tile2[2][4][8];
    int i = threadIdx.x;
    put(tile, i / 8, i % 8, i);
    via_rows(tile2[1], i / 8, i % 8, 2 * i);
    __syncthreads();
    out[i] = tile[i / 8][i % 8];
    out2[i] = tile2[1][i / 8][i % 8];
}
launch k { out = zeros(32); out2 = zeros(32); expect out == arange(32); expect out2 == 2 * arange(32); }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn the_address_of_a_whole_array_is_its_first_elements() {
    // vllm's topkGatingSoftmax: `reinterpret_cast<AccessType*>(&row_chunk)` of a local array,
    // then one 16-byte copy into it; and `&tile` of a shared array read as float4s. Thread t
    // copies in[4t..4t+4] and doubles it; out2[t] sums tile's float4 number t, which holds
    // in[4t..4t+4]: 16t + 6.
    let src = r#"
template <int N> class alignas(16) Arr { float data[N]; };
__global__ void k(const float* in, float* out, float* out2) {
    float chunk[4];
    __shared__ float tile[128];
    Arr<4>* dst = reinterpret_cast<Arr<4>*>(&chunk);
    const Arr<4>* src = reinterpret_cast<const Arr<4>*>(in + 4 * threadIdx.x);
    dst[0] = src[0];
    for (int i = 0; i < 4; ++i) {
        out[4 * threadIdx.x + i] = chunk[i] * 2.f;
        tile[4 * threadIdx.x + i] = chunk[i];
    }
    __syncthreads();
    float4 v = reinterpret_cast<float4*>(&tile)[threadIdx.x];
    out2[threadIdx.x] = v.x + v.y + v.z + v.w;
}
launch k {
    in = arange(128); out = zeros(128); out2 = zeros(32);
    expect out == arange(128) * 2;
    expect out2 == arange(32) * 16 + 6;
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn const_cast_drops_the_const_of_the_pointee() {
    // `const_cast<int*>(a + t)` of a `const int*` parameter bound to the buffer d writes it:
    // d = [1, 2, 3, 4] doubled. Without the cast the write is refused.
    let src = r#"
__global__ void k(const int* a) {
    int* m = const_cast<int*>(a + threadIdx.x);
    *m = 2 * *m;
}
launch k { d = [1, 2, 3, 4]; a = d; expect d == [2, 4, 6, 8]; }
"#;
    common::ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let f = common::err(
        "__global__ void k(const int* a) { int* m = (int*)a; const int* c = a; c[0] = 1; m[0] = 2; }\n",
        &[("a", "zeros(1)")],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(common::codes(&f), ["simt::check::not_assignable"]);
}

#[test]
fn null_arithmetic_in_an_arm_that_never_runs_is_no_error() {
    // torch-ngp's `if (BACKWARD) ... *(aux + i)` with `const float* aux = nullptr` by default:
    // layer<false> never evaluates it (C++ makes null arithmetic undefined only where it is
    // evaluated), so out = 1 in every lane. layer<true> runs it: refused at its span.
    let src = |backward: &str| {
        format!(
            r#"
template <bool BACKWARD>
__device__ void layer(float* out, const float* aux = nullptr) {{
    float v = 1.0f;
    if (BACKWARD) v = *(aux + threadIdx.x);
    out[threadIdx.x] = v;
}}
__global__ void k(float* out) {{ layer<{backward}>(out); }}
launch k {{ out = zeros(4); block = 4; grid = 1; expect out == 1; }}
"#
        )
    };
    ok(&src("false"), &[], [1, 1, 1], [4, 1, 1]);
    let e = err(&src("true"), &[], None, None);
    assert_eq!(codes(&e), ["simt::check::pointer"], "{e:?}");
}

#[test]
fn null_plus_an_offset_that_is_never_dereferenced_is_no_error() {
    // DGL's SpMM passes `eoff + rhs_add` with `eoff = nullptr` to `CopyLhs`, which never
    // reads it: out = u. Dereferenced, it is NULL still: a run-time null dereference.
    let src = r#"
__device__ float copy_lhs(const float* lhs, const float* rhs) { return lhs[0]; }
__global__ void k(const float* u, float* out) {
    const float* eoff = nullptr;
    out[threadIdx.x] = copy_lhs(u + threadIdx.x, eoff + threadIdx.x);
}
launch k { u = arange(4); out = zeros(4); expect out == u; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    let src = src.replace("return lhs[0];", "return rhs[0];");
    let e = err(&src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::run::null_pointer"], "{e:?}");
    // An offset that does something would be dropped with the pointer: refused.
    let src = src.replace("eoff + threadIdx.x", "eoff + (n++)").replace(
        "const float* eoff = nullptr;",
        "const float* eoff = nullptr; int n = 0;",
    );
    let e = err(&src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
}

#[test]
fn dynamic_shared_memory_is_carved_into_arrays_of_other_sizes() {
    // pytorch3d's DistanceForwardKernel: `float* f = (float*)buf; int64_t* g = (int64_t*)&f[n];`
    // (the programming guide's way to hold several types in one dynamic shared array). 64
    // threads: f[t] = t, g[t] = t << 33, then out[t] = g[63 - t] + (int64)f[t] =
    // (63 - t) 2^33 + t. Per warp: f's store and load are one wavefront each (128 bytes),
    // g's two each (256 bytes): 6 wavefronts of 4 instructions, 12 of 8 for the two warps. With
    // 63 threads g starts at byte 252, not a multiple of 8: the first access traps.
    let src = |n: u32| {
        format!(
            r#"
__global__ void k(long long* out) {{
    extern __shared__ char buf[];
    float* f = (float*)buf;
    int64_t* g = (int64_t*)&f[blockDim.x];
    int t = threadIdx.x;
    f[t] = t;
    g[t] = (int64_t)t << 33;
    __syncthreads();
    out[t] = g[blockDim.x - 1 - t] + (int64_t)f[t];
}}
launch k {{
    out = zeros({n}); dyn_smem = {n} * 12 + 4; block = {n}; grid = 1;
    expect out == ({n} - 1 - arange({n})) * 8589934592 + arange({n});
}}
"#
        )
    };
    let r = ok(&src(64), &[], [1, 1, 1], [64, 1, 1]);
    assert_eq!((r.counters.smem_instr, r.counters.smem_wavefronts), (8, 12));
    let e = err(&src(63), &[], None, None);
    assert_eq!(codes(&e), ["simt::run::misaligned_address"], "{e:?}");
}

#[test]
fn every_view_of_dynamic_shared_memory_is_the_same_bytes() {
    // Paddle's KernelHistogram: `*reinterpret_cast<unsigned*>(&buf[i]) = 5u` of an
    // `extern __shared__ int buf[]`, read back as `buf[i]`, is 5 (the store was lost: 0).
    let src = r#"
__global__ void k(int* out) {
    extern __shared__ int buf[];
    if (threadIdx.x < 4) *reinterpret_cast<unsigned int*>(&buf[threadIdx.x]) = 5u;
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = buf[threadIdx.x];
}
launch k { out = zeros(4); dyn_smem = 16; expect out == 5; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    // Its CudaAtomicAdd: `atomicAdd((unsigned long long*)&buf[t % 4], 1)` of `long long`s; 32
    // threads, 8 to each of 4 slots.
    let src = r#"
__global__ void k(long long* out) {
    extern __shared__ long long buf[];
    if (threadIdx.x < 4) buf[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd((unsigned long long*)&buf[threadIdx.x % 4], 1ULL);
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = buf[threadIdx.x];
}
launch k { out = zeros(4); dyn_smem = 32; expect out == 8; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    // Two `extern __shared__` arrays, of any names and types, are the one memory: 1.0f stored
    // through `b` reads through `a` as its bits, 0x3f800000 = 1065353216. A `double` view of
    // floats: d[t] = t + 0.5 leaves its high word in s[2t + 1], whose bits are 0x3FE00000 =
    // 1071644672 for 0.5, 0x3FF80000 = 1073217536 for 1.5, 0x40020000 = 1074003968 for 2.5,
    // 0x40060000 = 1074528256 for 3.5 (IEEE 754 doubles, checked with Python's struct).
    let src = r#"
__global__ void k(int* out, float* f, unsigned* hi) {
    extern __shared__ int a[];
    extern __shared__ float b[];
    int t = threadIdx.x;
    b[t] = 1.0f;
    __syncthreads();
    out[t] = a[t];
    f[t] = b[t];
    __syncthreads();
    double* d = (double*)b;
    d[t] = t + 0.5;
    __syncthreads();
    hi[t] = a[2 * t + 1];
}
launch k {
    out = zeros(4); f = zeros(4); hi = zeros(4); dyn_smem = 32;
    expect out == 1065353216; expect f == 1;
    expect hi == [1071644672, 1073217536, 1074003968, 1074528256];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn atomics_through_wider_views_of_dynamic_shared_bytes_take_the_bytes_they_span() {
    // A histogram of `extern __shared__ unsigned char smem[]` seen as `unsigned*`: 32 threads,
    // 8 to each of 4 counters (bytes 4b..4b+3). raft's minmaxKernel: `atomicMax((int*)&f[0],
    // __float_as_int(t))` of the floats carved from a `char` array, the largest non-negative
    // float's bits: 31. A 64-bit atomic adds 2^32 per thread: 32 * 2^32 = 137438953472. A
    // `double` view of `extern __shared__ float`s: 32 * 0.5 = 16.
    let src = r#"
__global__ void k(unsigned* hist, float* mx, unsigned long long* wide) {
    extern __shared__ unsigned char smem[];
    unsigned* h = reinterpret_cast<unsigned*>(smem);
    float* f = (float*)&h[4];
    unsigned long long* w = (unsigned long long*)&h[6];
    int t = threadIdx.x;
    if (t < 4) h[t] = 0;
    if (t == 0) { f[0] = 0.0f; w[0] = 0; }
    __syncthreads();
    atomicAdd(&h[t % 4], 1u);
    atomicMax((int*)&f[0], __float_as_int((float)t));
    atomicAdd(&w[0], 1ULL << 32);
    __syncthreads();
    if (t < 4) hist[t] = h[t];
    if (t == 0) { mx[0] = f[0]; wide[0] = w[0]; }
}
launch k {
    hist = zeros(4); mx = zeros(1); wide = zeros(1); dyn_smem = 32;
    expect hist == 8; expect mx == 31; expect wide == 137438953472;
}
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let src = r#"
__global__ void k(double* out) {
    extern __shared__ float fs[];
    double* d = (double*)fs;
    if (threadIdx.x == 0) d[0] = 0.0;
    __syncthreads();
    atomicAdd(&d[0], 0.5);
    __syncthreads();
    if (threadIdx.x == 0) out[0] = d[0];
}
launch k { out = zeros(1); dyn_smem = 64; expect out == 16; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn a_launch_array_viewed_as_narrower_words_is_held_in_them() {
    // ccminer: `uint32_t *Hash = (uint32_t*)&g_hash[4 * thread];` of a `uint64_t*` buffer.
    // Thread t adds t + 1 to the high word of its first element (element 4t, bytes 32t + 4)
    // and reads the 64-bit element back whole: g_hash[4t] = (t + 1) << 32, out[t] the same.
    // Each warp's 32-bit access touches one word every 32 bytes: 32 sectors per request.
    let src = r#"
__global__ void k(unsigned long long* g_hash, unsigned long long* out) {
    unsigned int t = threadIdx.x;
    unsigned int* Hash = (unsigned int*)&g_hash[4 * t];
    Hash[1] += t + 1;
    out[t] = g_hash[4 * t];
}
launch k { g_hash = zeros(128); out = zeros(32); }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert_eq!(r.counters.gld_instr, 2);
    // The 32-bit read: 32 sectors; the 64-bit read of element 4t: 32 sectors.
    assert_eq!(r.counters.gld_sectors, 64);
    let expected: String = (0..32u64)
        .map(|t| ((t + 1) << 32).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let src = src.replace(
        "out = zeros(32); }",
        &format!("out = zeros(32); expect out == [{expected}]; expect g_hash[4] == 8589934592; }}"),
    );
    ok(&src, &[], [1, 1, 1], [32, 1, 1]);
    // A second parameter bound to the same array but kept as 64-bit words: refused at run time.
    let mixed = r#"
__global__ void k(unsigned long long* a, unsigned long long* b) {
    unsigned int* w = (unsigned int*)a;
    w[threadIdx.x] = 1;
    b[0] = 2;
}
launch k { d = zeros(4); a = &d[0]; b = &d[0]; }
"#;
    let f = err(mixed, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::mixed_views"]);
}

#[test]
fn a_launch_array_read_and_written_as_bytes_is_held_in_bytes() {
    // A hash's bytes of a `uint32_t*` block (`(const uint8_t*)data`), and a float buffer whose
    // top byte one thread overwrites. Little-endian, as on the GPU: word 0x04030201 is bytes
    // 1 2 3 4. Each warp access is 32 consecutive bytes: one sector per request.
    let src = r#"
__global__ void k(const unsigned* words, unsigned char* out, float* f) {
    unsigned t = threadIdx.x;
    const unsigned char* b = (const unsigned char*)words;
    out[t] = b[t] + 1;
    if (t == 0) ((unsigned char*)f)[7] = 0xc0;
    __syncthreads();
    f[t & 1] = f[t & 1] * 2.0f;
}
launch k {
    words = [0x04030201, 0x08070605, 0x0c0b0a09, 0x100f0e0d, 0x14131211, 0x18171615, 0x1c1b1a19, 0x201f1e1d];
    out = zeros(32);
    f = [1.5, 1.0];
    expect out == arange(32) + 2;
    expect f == [3.0, -8.0];
}
"#;
    // By hand: byte t of `words` is t + 1, so out[t] = t + 2. f[1] = 1.0f is 0x3f800000; its
    // top byte (byte 7 of the buffer) becomes 0xc0: 0xc0800000 = -4.0, doubled -8.0.
    // Loads: the bytes (1 sector) and f[0..2] (1 sector). Stores: out (1), the byte (1), f (1).
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 2));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (3, 3));
}

#[test]
fn a_struct_parameters_array_of_pointers_is_one_buffer_per_element() {
    // nvdiffrast's `TextureKernelParams { const float* tex[16]; ... }`: each element is a
    // pointer member of its own, set in the launch section as `p.tex[k] = ...`; `p.tex[level]`
    // with a run-time level picks among them, and `p.tex[0][i]` indexes the first.
    let src = r#"
struct P { const float* tex[4]; float* out; int lvl; };
__global__ void k(const P p) {
    int t = threadIdx.x;
    const float* q = p.tex[p.lvl];
    p.out[t] = q[t] + p.tex[0][t];
}
launch k {
    m = [1, 2, 3, 4, 5, 6, 7, 8];
    p.tex[0] = &m[0]; p.tex[1] = &m[4];
    p.out = zeros(4); p.lvl = 1;
    expect p.out == [6, 8, 10, 12];
}
"#;
    // By hand: q = &m[4]; out[t] = m[4 + t] + m[t] = 5 + 1, 6 + 2, 7 + 3, 8 + 4.
    // Loads: q[t] (16 bytes in one sector) and p.tex[0][t] (one sector); one store sector.
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 2));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (1, 1));
    // `--arg` names an element too: an array of its own with the same values passes.
    ok(src, &[("p.tex[1]", "[5, 6, 7, 8]")], ONE, [4, 1, 1]);
    // Element 2 is left unset, and 4 is past the end: either is a null pointer where it is
    // followed, never another element.
    for lvl in ["2", "4"] {
        let f = err(src, &[("p.lvl", lvl)], Some(ONE), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::run::null_pointer"]);
    }
}

#[test]
fn a_pointer_into_one_of_several_arrays_may_be_seen_as_vectors() {
    // nvdiffrast's `*((float4*)&pout[pidx_out + i]) = avg` where `pout` is `p.tex[level]`.
    let src = r#"
__global__ void k(float* a, float* b, int s, int at) {
    float* p = s ? b : a;
    float4 v = *((const float4*)&p[at + 4 * threadIdx.x]);
    v.x += 10.0f;
    *((float4*)&p[at + 4 * threadIdx.x]) = v;
}
launch k { a = zeros(8); b = arange(8); s = 1; at = 0; expect b == [10, 1, 2, 3, 14, 5, 6, 7]; expect a == 0; }
"#;
    // By hand: 2 lanes × 16 bytes = 32 bytes, one sector each way.
    let r = ok(src, &[], ONE, [2, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (1, 1));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (1, 1));
    // 1 float in, a float4 is 4 bytes past a 16-byte boundary.
    let f = err(src, &[("at", "1")], Some(ONE), Some([2, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::misaligned_address"]);
}

#[test]
fn a_threads_array_of_pointers_is_one_pointer_per_element() {
    // `const float* srcs[2] = {a, b};` and `float* rows[3];` filled in a loop, re-pointed
    // by a constant index, indexed by a run-time one.
    let src = r#"
__global__ void k(const float* a, const float* b, float* out, int which) {
    const float* srcs[2] = {a, b};
    float* rows[3];
    for (int i = 0; i < 2; i++) rows[i] = out + 4 * i;
    rows[2] = out + 12;
    int t = threadIdx.x;
    rows[0][t] = srcs[which][t];
    rows[1][t] = srcs[0][t] + 1.0f;
    float* r = rows[t % 3];
    if (t != 2) r[8 + t] = 7.0f;
}
launch k {
    a = [1, 2, 3, 4]; b = [10, 20, 30, 40]; out = zeros(16); which = 1;
    expect out == [10, 20, 30, 40, 2, 3, 4, 5, 7, 0, 0, 7, 0, 7, 0, 0];
}
"#;
    // By hand: rows[0] = out, rows[1] = out + 4, rows[2] = out + 12. out[0..4] = b; out[4..8]
    // = a + 1. r = rows[t % 3]: lane 0 writes out[0 + 8], lane 1 out[4 + 9] = out[13], lane 3
    // out[0 + 11] (lane 2 would write past the end).
    let r = ok(src, &[], ONE, [4, 1, 1]);
    // Loads: srcs[which] and srcs[0], one sector each. Stores: rows[0], rows[1], and r's
    // (bytes 32, 44 and 52 of `out`: one sector).
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 2));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (3, 3));
    // An index computed from memory is loaded once, not once per element: 4 loads of
    // `idx[t]` would be 4 requests.
    let loaded = r#"
__global__ void k(float* a, float* b, float* c, float* d, int* idx, float* out) {
    int t = threadIdx.x;
    const float* rows[4] = {a, b, c, d};
    out[t] = rows[idx[t]][t];
}
launch k { a = arange(4); b = arange(4) + 10; c = arange(4) + 20; d = arange(4) + 30; idx = [3, 2, 1, 0]; out = zeros(4); expect out == [30, 21, 12, 3]; }
"#;
    // Loads: `idx` (1 request, 1 sector) and the rows (1 request, one sector in each of 4
    // arrays).
    let r2 = ok(loaded, &[], ONE, [4, 1, 1]);
    assert_eq!((r2.counters.gld_instr, r2.counters.gld_sectors), (2, 5));
    // An element followed before it is set is null.
    let unset = src
        .replace("    rows[2] = out + 12;\n", "")
        .replace("if (t != 2) ", "");
    let f = err(&unset, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::null_pointer"]);
    // A constant index past the end, and an index that is not an integer, are errors at the
    // index, reading or assigning.
    for (from, to, code) in [
        (
            "rows[2] = out + 12;",
            "rows[3] = out + 12;",
            "simt::check::unsupported",
        ),
        (
            "float* r = rows[t % 3];",
            "float* r = rows[5];",
            "simt::check::unsupported",
        ),
        (
            "float* r = rows[t % 3];",
            "float* r = rows[0.5f];",
            "simt::check::mismatched_types",
        ),
    ] {
        let bad = src.replace(from, to);
        let f = err(&bad, &[], Some(ONE), Some([4, 1, 1]));
        assert_eq!(codes(&f), [code], "{to}");
        let line = bad.lines().position(|l| l.contains(to)).expect("the line") + 1;
        assert_eq!(common::position(&f).0, line, "{to}");
        assert_eq!(f.exit, 2);
    }
}

#[test]
fn the_address_of_a_const_value_in_a_register_reads_its_value() {
    // StyleGAN3's `get_stride(const int64_t& x) { return *reinterpret_cast<const T*>(&x); }`
    // of a by-value struct parameter's member: the low 32 bits of 12 (little-endian) are 12, so
    // y[i] = 12 i. A `const` local's address reads its value too: 7 + 12 i.
    let src = r#"
#include <cstdint>
struct P { float* y; longlong4 stride; };
template <class T> __device__ __forceinline__ T get_stride(const int64_t& x)
{
    return *reinterpret_cast<const T*>(&x);
}
__global__ void k(P p, int* z)
{
    int i = threadIdx.x;
    p.y[i] = (float)(i * get_stride<int32_t>(p.stride.z));
    const int c = 7 + 12 * i;
    const int* q = &c;
    z[i] = *q;
}
launch k {
    p.y = zeros(8); z = zeros(8);
    p.stride.x = 4; p.stride.y = 8; p.stride.z = 12; p.stride.w = 16;
    expect p.y == arange(8) * 12;
    expect z == 7 + 12 * arange(8);
}
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn a_vector_is_stored_through_an_incremented_pointer() {
    // Thread t reads float2s a = in[2t] and b = in[2t + 1] through `*ip++`, and stores them
    // back through `*op--` (at out[2t + 1]) and `*op` (out[2t]): out is in. `*++q` stores
    // (1, 2) at w's float2 t + 1 (floats 2t + 2, 2t + 3): w holds 32 * (1 + 2), and its first
    // float2 stays 0.
    let src = r#"
__global__ void k(const float2* in, float2* out, float2* w) {
    const float2* ip = &in[threadIdx.x * 2];
    float2* op = &out[threadIdx.x * 2 + 1];
    float2 a = *ip++;
    float2 b = *ip;
    *op-- = b;
    *op = a;
    float2* q = w + threadIdx.x;
    *++q = make_float2(1.0f, 2.0f);
}
launch k { in = arange(128); out = zeros(128); w = zeros(66); expect out == arange(128); expect sum(w) == 96; expect w[1] == 0; expect w[3] == 2; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn a_template_bool_picks_a_pointers_space() {
    // llama.cpp's softmax: `vals = use_shared ? buf + 32 : dst`. Each instance knows which
    // array it points into: shared memory for <true> (dst = 2 * tid either way, but only
    // <true> makes shared accesses: one store and one load, 1 wavefront each).
    let src = r#"
template <bool use_shared>
__global__ void k(float* dst) {
    extern __shared__ float buf[];
    float* vals = use_shared ? buf + 32 : dst;
    vals[threadIdx.x] = threadIdx.x;
    __syncthreads();
    dst[threadIdx.x] = vals[threadIdx.x] * 2.0f;
}
launch k<true> { dst = zeros(32); dyn_smem = 256; expect dst == arange(32) * 2; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert_eq!(r.counters.smem_wavefronts, 2);
    let r = ok(
        &src.replace(
            "k<true> { dst = zeros(32); dyn_smem = 256;",
            "k<false> { dst = zeros(32);",
        ),
        &[],
        ONE,
        [32, 1, 1],
    );
    assert_eq!(r.counters.smem_wavefronts, 0);
}

#[test]
fn a_reference_to_a_2d_array_over_shared_memory_indexes_its_rows() {
    // cuSZ: `T (&s)[4][4] = *reinterpret_cast<T (*)[4][4]>(&scratch);` over dynamic shared
    // memory. Thread (x, y) writes s[y][x] = 4y + x (element 4y + x) and reads s[x][y]
    // (element 4x + y) = 4x + y: out[4y + x] is the transpose of 0..15.
    let src = r#"
extern __shared__ char scratch[];
template <int B>
__global__ void k(float* out) {
    float (&s)[B][B] = *reinterpret_cast<float (*)[B][B]>(&scratch);
    s[threadIdx.y][threadIdx.x] = threadIdx.y * B + threadIdx.x;
    __syncthreads();
    out[threadIdx.y * B + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
launch k<4> { out = zeros(16); dyn_smem = 64; expect out == [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]; }
"#;
    let r = ok(src, &[], ONE, [4, 4, 1]);
    // 16 threads in one warp: the store (16 consecutive words) and the load (stride 4: banks
    // 4x + y for x, y < 4 are 16 distinct banks) are one wavefront each.
    assert_eq!(r.counters.smem_wavefronts, 2);
}

#[test]
fn pointers_to_arrays_step_over_rows() {
    // `float (*p)[4]` from a cast: p[t][j] is in[4t + j]; `float (&r)[4] = *p2` names row t
    // of the same; `reinterpret_cast<float2 (&)[2]>(v)[1]` is v's second float2 (bitsandbytes'
    // `reinterpret_cast<int4(&)[N]>(local)[0]`). out[t] = in[4t] + in[4t + 3] + in[4t + 1]
    // + (v[2] + v[3]) = 4t + 4t + 3 + 4t + 1 + 5 = 12t + 9.
    let src = r#"
__global__ void k(float* out, float* in) {
    float (*p)[4] = reinterpret_cast<float (*)[4]>(in);
    float (&r)[4] = *reinterpret_cast<float (*)[4]>(in + 4 * threadIdx.x);
    float v[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    float2 h = reinterpret_cast<float2 (&)[2]>(v)[1];
    out[threadIdx.x] = p[threadIdx.x][0] + r[3] + p[threadIdx.x][1] + h.x + h.y;
}
launch k { out = zeros(4); in = arange(16); expect out == 12 * arange(4) + 9; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // The same in C's casts (RAJAPerf's `double(*Bsmem)[MD1] = (double(*)[MD1])sDQ;`).
    let c_casts = src
        .replace("reinterpret_cast<float (*)[4]>(in)", "(float (*)[4])in")
        .replace(
            "reinterpret_cast<float (*)[4]>(in + 4 * threadIdx.x)",
            "(float(*)[4])(in + 4 * threadIdx.x)",
        )
        .replace("reinterpret_cast<float2 (&)[2]>(v)", "((float2 (&)[2])v)");
    assert!(!c_casts.contains("reinterpret_cast"));
    ok(&c_casts, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_pointer_to_arrays_steps_by_rows() {
    // p points to rows of 4 floats of in = 0..15: p + 2 is row 2 (q[0][1] = 9); q -= 1 is
    // row 1 (q[1][3] = in[11]); `p += 1; p++;` as statements are two rows (p[0][1] = 9).
    // `(p++)[0]` in an expression is refused rather than stepped by one float.
    let src = r#"
__global__ void k(float* in, float* out) {
    float (*p)[4] = reinterpret_cast<float (*)[4]>(in);
    float (*q)[4] = p + 2;
    out[0] = q[0][1];
    q -= 1;
    out[1] = q[1][3];
    p += 1;
    p++;
    out[2] = p[0][1];
}
launch k { in = arange(16); out = zeros(3); expect out == [9, 11, 9]; }
"#;
    ok(src, &[], ONE, ONE);
    let f = err(
        &src.replace("out[2] = p[0][1];", "out[2] = (p++)[0][1];"),
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_call_with_an_address_indexed_and_assigned_stays_a_call() {
    // `row(&v)[2] = 5;` could read as a declaration `row (&v)[2] = 5` of a reference to an
    // array; `row` is a function here, so it is the store through its result: v.a[2] = 5.
    let src = r#"
struct V { float a[4]; };
__device__ float* row(V* p) { return p->a; }
__global__ void k(float* out) {
    V v;
    v.a[0] = 0; v.a[1] = 0; v.a[2] = 0; v.a[3] = 0;
    row(&v)[2] = 5;
    out[0] = v.a[2];
}
launch k { out = zeros(1); expect out == [5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_reference_to_either_of_two_arrays_indexes_the_one_chosen() {
    // mamba: `auto &smem = !kIsVariableB ? smem_a : smem_b;` binds a reference to one of two
    // shared arrays. flag = 1 picks a: a[t] = t + 1 and b stays 0, so 100·a[t] + b[t] =
    // 100·(t + 1); flag = 0 picks b: t + 1.
    let src = r#"
__global__ void k(float* out, int flag) {
    __shared__ float a[32];
    __shared__ float b[32];
    a[threadIdx.x] = 0; b[threadIdx.x] = 0;
    __syncthreads();
    auto &r = flag ? a : b;
    r[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    out[threadIdx.x] = 100 * a[threadIdx.x] + b[threadIdx.x];
}
launch k { out = zeros(32); flag = 1; expect out == 100 * (arange(32) + 1); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let other = src.replace(
        "flag = 1; expect out == 100 * (arange(32) + 1);",
        "flag = 0; expect out == arange(32) + 1;",
    );
    ok(&other, &[], ONE, [32, 1, 1]);
}

#[test]
fn an_extern_shared_array_of_rows_is_the_dynamic_memory() {
    // cuda_hgemm: `extern __shared__ half smem[][AB_SMEM_STRIDE];` sees the launch's dynamic
    // shared memory as rows of STRIDE: thread t writes row t / 32, column t % 32, and reads it
    // back. 64 threads, 256 bytes: every lane in bounds; each warp's store and load are one
    // 128-byte wavefront.
    let src = r#"
#define STRIDE 32
__global__ void k(float* out) {
    extern __shared__ float smem[][STRIDE];
    smem[threadIdx.x / STRIDE][threadIdx.x % STRIDE] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = smem[threadIdx.x / STRIDE][threadIdx.x % STRIDE];
}
launch k { out = zeros(64); dyn_smem = 256; expect out == arange(64); }
"#;
    let c = ok(src, &[], ONE, [64, 1, 1]).counters;
    assert_eq!((c.smem_instr, c.smem_wavefronts), (4, 4));
    // 128 bytes hold one row: thread 32 writes past them, and the message names `smem`.
    let small = src.replace("dyn_smem = 256;", "dyn_smem = 128;");
    let f = err(&small, &[], Some(ONE), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert!(
        f.errors[0].to_string().contains("`smem[32]`"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn a_pointer_cast_to_void_is_evaluated_and_dropped() {
    // `(void)p;` and `static_cast<void>(p);` mark a pointer unused; the kernel still copies.
    let src = r#"
__global__ void k(float* out, const float* a, const float* unused) {
    (void)unused;
    static_cast<void>(out + 1);
    out[threadIdx.x] = a[threadIdx.x];
}
launch k { a = arange(32); unused = zeros(1); out = zeros(32); expect out == arange(32); }
"#;
    let r = ok(src, &[], ONE, b(32));
    assert!(r.expects_passed());
    assert_eq!(r.counters.gld_instr, 1);
}

#[test]
fn the_address_of_an_array_member_is_its_first_elements() {
    // CudaSift's `((float4*)&sift1[p1].data)[d]`: `&s[i].data` of `float data[8]` points where
    // `&s[i].data[0]` does. P is 12 floats, data from float 4: with s = arange(24),
    // s[i].data[1] = 12i + 5 and ((float4*)&s[i].data)[1].y = s[i].data[5] = 12i + 9.
    let src = r#"
typedef struct { float x; float m; float pad[2]; float data[8]; } P;
__global__ void k(P *s, float *out) {
  int i = threadIdx.x;
  out[i] = ((float*)&s[i].data)[1];
  out[i + 2] = ((float4*)&s[i].data)[1].y;
}
launch k { s = arange(24); out = zeros(4); expect out == [5, 17, 9, 21]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [2, 1, 1]).expects_passed());
}

#[test]
fn a_kernel_parameter_declared_as_an_array_of_rows_is_indexed_by_row() {
    // ising-gpu's `const float vExp[][5]` and `float w[2][3]`: pointers to rows of 5 and 3,
    // so vExp[t][4] is element 5t + 4 and w[1][t] element 3 + t.
    let src = r#"
__global__ void k(const float vExp[][5], float w[2][3], float* out) {
    out[threadIdx.x] = vExp[threadIdx.x][4] + w[1][threadIdx.x];
}
launch k { vExp = arange(10); w = arange(6) * 10; out = zeros(2); expect out == [4 + 30, 9 + 40]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [2, 1, 1]).expects_passed());
}

#[test]
fn a_kernel_templates_row_length_is_its_argument() {
    // `template <int N> k(const float v[][N])` launched as k<3>: rows of 3, v[t][2] = 3t + 2.
    let src = r#"
template<int N> __global__ void k(const float v[][N], float* out) { out[threadIdx.x] = v[threadIdx.x][N - 1]; }
launch k<3> { v = arange(6); out = zeros(2); expect out == [2, 5]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [2, 1, 1]).expects_passed());
}

#[test]
fn the_address_of_a_vector_member_in_memory_is_a_vector_pointer() {
    // `struct M { float4 a; float4 b; }` over arange(16): m[1].a is 8..11 and m[1].b 12..15.
    // `&m[1].b` is a `const float4*` (it was typed `float*`); read through a local, directly
    // and by `__ldg`, each is one 16-byte load: 4 loads of one sector each.
    let src = r#"
struct M { float4 a; float4 b; };
__global__ void k(const M* m, float4* out) {
    const float4* p = &m[1].b;
    out[0] = *p;
    out[1] = __ldg(&m[0].a);
    out[2] = __ldg(&m[1].a);
    out[3] = *(&m[1].b);
}
launch k { m = arange(16); out = zeros(16);
    expect out == [12, 13, 14, 15, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15]; }
"#;
    let r = ok(src, &[], ONE, ONE);
    assert_eq!(r.counters.gld_instr, 4);
    assert_eq!(r.counters.gld_sectors, 4);
}

#[test]
fn a_pointer_to_arrays_parameter_indexes_rows() {
    // Anime4KCPP's `const T(* const sharedPtr)[N]`, which C reads as `const T sharedPtr[][N]`:
    // row r of a 4 x 8 shared tile starts 8r floats in, so thread t reads tile[t / 8][t % 8]
    // = in[t], doubled; `(*p)[8]` without `const` reads the same row through `p[1]`: in[8 + 2].
    let src = r#"
template <typename T, int N>
__device__ const T* row(const T (* const rows)[N], int r) { return rows[r]; }
__device__ float second_row(float (*p)[8]) { return p[1][2]; }
__global__ void k(const float* in, float* out, float* one) {
    __shared__ float tile[4][8];
    int t = threadIdx.x;
    tile[t / 8][t % 8] = in[t];
    __syncthreads();
    out[t] = row<float, 8>(tile, t / 8)[t % 8] * 2.0f;
    if (t == 0) one[0] = second_row(tile);
}
launch k { in = arange(32); out = zeros(32); one = zeros(1);
    expect out == arange(32) * 2; expect one == [10]; }
"#;
    ok(src, &[], ONE, b(32));
}

#[test]
fn an_array_of_rows_plus_k_points_k_rows_in() {
    // C's decay of `float s[4][4]` is `float (*)[4]`: `s + 1` is row 1, so `rd(s + 1, 1, 3)`
    // reads s[2][3] = 11 (it read s[1][0] + ... = 8, one element in). `(float*)(l + 2)` of a
    // local `float l[3][2]` is &l[2][0] = 4; `s + 3` cast to `float*`, then [1]: s[3][1] = 13.
    let src = r#"
__device__ float rd(const float (* const p)[4], int i, int j) { return p[i][j]; }
__global__ void k(float* out) {
    __shared__ float s[4][4];
    float l[3][2];
    for (int i = 0; i < 16; i++) s[i / 4][i % 4] = i;
    for (int i = 0; i < 6; i++) l[i / 2][i % 2] = i;
    out[0] = rd(s + 1, 1, 3);
    out[1] = rd(s, 2, 3);
    out[2] = *(float*)(l + 2);
    out[3] = ((float*)(s + 3))[1];
}
launch k { out = zeros(4); expect out == [11, 11, 4, 13]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_pointer_to_arrays_of_pointers_is_refused_by_name() {
    // `float* (*p)[2]`: rows of two pointers, which simt does not hold; the diagnostic names
    // the parameter and what it is, at the parameter's name. (The body's use of `p` is then
    // reported too, as read through a plain `float*`.)
    let src = "__device__ float f(float* (*p)[2]) { return *p[0][1]; }\n__global__ void k(float* o) { o[0] = 1.0f; }\n";
    let f = err(src, &[("o", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
    let text = f.errors[0].to_string();
    assert!(
        text.contains("`p`, a pointer to arrays of pointers"),
        "{text}"
    );
    let at = src.find("p)[2]").expect("the name");
    let label = miette::Diagnostic::labels(&f.errors[0])
        .and_then(|mut l| l.next())
        .expect("a label");
    assert_eq!(label.offset(), at);
}

#[test]
fn a_function_returning_void_pointer_returns_what_its_return_gives() {
    // dietgpu's `void* getBatchStart(...)`: the caller casts it back. at(a, 2) points at a[2],
    // so threads 0..3 write 7 into a[2..5]; at(f, 4) cast to float* points at f[1], 1.5 there.
    let src = r#"
__device__ void* at(void* p, int k) { return ((unsigned char*)p) + k; }
__global__ void k(unsigned char* a, float* f) {
    unsigned char* q = (unsigned char*)at(a, 2);
    q[threadIdx.x] = 7;
    if (threadIdx.x == 0) ((float*)at(f, 4))[0] = 1.5f;
}
launch k { a = zeros(8); f = zeros(3); expect a == [0, 0, 7, 7, 7, 7, 0, 0]; expect f == [0, 1.5, 0]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_void_pointer_function_returning_two_pointee_types_is_refused_by_name() {
    // simt types a `void*` result by its first `return`; a second of another type is told so,
    // at that `return`, not as a mismatch with a `float*` the source never declared.
    let src = r#"
__device__ void* pick(int w, float* a, int* b) { if (w) return a; return b; }
__global__ void k(int* o, float* f) { ((int*)pick(0, f, o))[0] = 1; }
launch k { o = zeros(1); f = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(
        f.errors[0]
            .to_string()
            .contains("returns `int*` here and `float*` before"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn an_address_taken_through_any_chain_of_reference_parameters_is_found() {
    // f10 passes its `float4& v` down to f0, which takes its address: the kernel's `v` must
    // live in memory however long the chain (a search bounded at 8 calls refused it). v.z
    // becomes 30, so out[t] = 30 + v[t]: [31, 32, 60, 34].
    let mut src = String::from(
        "__device__ float& f0(float4& v, int i) { return reinterpret_cast<float*>(&v)[i]; }\n",
    );
    for k in 1..=10 {
        src += &format!(
            "__device__ float& f{k}(float4& v, int i) {{ return f{}(v, i); }}\n",
            k - 1
        );
    }
    src += r#"
__global__ void k(float* out) {
    float4 v = make_float4(1, 2, 3, 4);
    f10(v, 2) = 30;
    out[threadIdx.x] = v.z + f10(v, threadIdx.x);
}
launch k { out = zeros(4); expect out == [31, 32, 60, 34]; }
"#;
    ok(&src, &[], b(1), b(4));
    // GPUSPH's vector_math.h: `clamp` overloads on `const float&` whose bodies call `clamp` on
    // each member; each (function, parameter) pair is searched once (an unbounded search of
    // this family took minutes). clamp(v, 2, 3) of (1, 2.5, 9, -1) is (2, 2.5, 3, 2).
    let clamp = r#"
static __device__ __forceinline__ float clamp(const float &f, const float &a, const float &b) { return fmaxf(a, fminf(f, b)); }
static __device__ __forceinline__ float2 clamp(const float2 &v, const float &a, const float &b) { return make_float2(clamp(v.x, a, b), clamp(v.y, a, b)); }
static __device__ __forceinline__ float3 clamp(const float3 &v, const float &a, const float &b) { return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }
static __device__ __forceinline__ float4 clamp(const float4 &v, const float &a, const float &b) { return make_float4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b)); }
__global__ void k(float4* v) { v[0] = clamp(v[0], 2.0f, 3.0f); }
launch k { v = [1, 2.5, 9, -1]; expect v == [2, 2.5, 3, 2]; }
"#;
    ok(clamp, &[], b(1), b(1));
}

#[test]
fn a_shared_pointer_is_set_by_one_thread_for_the_whole_block() {
    // OP2's generated indirect kernels: `__shared__ int *map, size;` (a pointer and an int, as
    // C's declarators go) and `__shared__ float *buf;`, set by thread 0 and read by all after
    // the barrier. Block b's map starts at maps + offs[b] = 32 b, so thread t copies maps[32 b
    // + t] = 32 b + t into buf[t], and after the second barrier writes buf[31 - t]: out[32 b +
    // t] = 32 b + 31 - t. size = offs[b] + 1 is an int.
    let src = r#"
__global__ void k(const int* maps, const int* offs, float* out, int* sizes) {
    __shared__ const int *map, size;
    __shared__ float *buf;
    extern __shared__ char shared[];
    if (threadIdx.x == 0) {
        map = maps + offs[blockIdx.x];
        size = offs[blockIdx.x] + 1;
        buf = (float *) &shared[0];
    }
    __syncthreads();
    buf[threadIdx.x] = (float) map[threadIdx.x];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) sizes[blockIdx.x] = size * sizeof(size);
}
launch k {
    maps = arange(64); offs = [0, 32]; out = zeros(64); sizes = zeros(2);
    block = 32; grid = 2; dyn_smem = 128;
    expect out == [31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32];
    expect sizes == [4, 132];
}
"#;
    let r = ok(src, &[], b(2), b(32));
    assert!(r.expects_passed(), "{:?}", r.expects);
    assert_eq!(r.counters.race_count, 0);
    // Without the first barrier the other warps' lanes read `map` before thread 0 set it: with
    // two warps per block (64 threads), warp 1 reads the word warp 0 wrote, a RAW on `map`.
    // (One block of 64 threads needs 256 bytes of `buf`; the results are undefined, so the
    // expects go.)
    let racy = src
        .replacen("    __syncthreads();\n    buf[", "    buf[", 1)
        .replace("dyn_smem = 128", "dyn_smem = 256")
        .lines()
        .filter(|l| !l.contains("expect"))
        .collect::<Vec<_>>()
        .join("\n");
    let r = ok(&racy, &[], b(1), b(64));
    assert!(
        r.races.iter().any(|g| g.race.first.array == "map"
            && g.race.first.kind == simt::exec::RaceKind::ReadAfterWrite),
        "{:?}",
        r.races
    );
    // Stepping it in place is refused with its fix.
    let stepped = src.replace(
        "buf[threadIdx.x] = (float)",
        "map++; buf[threadIdx.x] = (float)",
    );
    let f = err(&stepped, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn an_extern_shared_variable_is_the_first_element_of_dynamic_shared_memory() {
    // `extern __shared__ int last;` (a stream-compaction course repository) sits at byte 0 of
    // the dynamic shared memory, as every `extern __shared__` array does: thread 0 stores 40 to
    // it, thread t stores t to arr[t + 1], so out[t] = arr[0] + arr[t + 1] = 40 + t.
    let src = r#"
__global__ void k(int* out) {
    extern __shared__ int last;
    extern __shared__ int arr[];
    arr[threadIdx.x + 1] = threadIdx.x;
    if (threadIdx.x == 0) last = 40;
    __syncthreads();
    out[threadIdx.x] = arr[0] + arr[threadIdx.x + 1];
}
launch k { out = zeros(4); dyn_smem = 20; expect out == [40, 41, 42, 43]; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
    // Without dynamic shared memory it holds nothing.
    let e = err(
        &src.replace("dyn_smem = 20", "dyn_smem = 0"),
        &[],
        Some(ONE),
        Some([4, 1, 1]),
    );
    assert_eq!(codes(&e), ["simt::run::out_of_bounds"], "{e:?}");
    // A vector variable: its members are the first two floats.
    let src = r#"
__global__ void k(float* out) {
    extern __shared__ float2 v;
    if (threadIdx.x == 0) v = make_float2(1.5f, 2.0f);
    __syncthreads();
    out[threadIdx.x] = v.x + v.y;
}
launch k { out = zeros(4); dyn_smem = 8; expect out == 3.5; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn an_extern_shared_struct_or_pointer_variable_is_one_variable() {
    // `extern __shared__ S s;` is the struct at byte 0 of the dynamic shared memory, the same
    // bytes as `buf`: s.a = 3 is buf[0], so out[t] = 3 + s.b (0.5) + t.
    let src = r#"
struct S { float a; float b; };
__global__ void k(float* out) {
    extern __shared__ float buf[];
    extern __shared__ S s;
    buf[threadIdx.x + 2] = threadIdx.x;
    if (threadIdx.x == 0) { s.a = 3; s.b = 0.5f; }
    __syncthreads();
    S c = s;
    out[threadIdx.x] = buf[0] + c.b + buf[threadIdx.x + 2];
}
launch k { out = zeros(4); dyn_smem = 24; expect out == 3.5 + arange(4); }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
    // `extern __shared__ float* p;`: a pointer the block shares, set by thread 0.
    let src = r#"
__global__ void k(float* out, float* in) {
    extern __shared__ float* p;
    if (threadIdx.x == 0) p = in;
    __syncthreads();
    out[threadIdx.x] = p[threadIdx.x];
}
launch k { in = arange(4); out = zeros(4); dyn_smem = 8; expect out == arange(4); }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn a_reference_to_a_pointer_re_points_the_callers_variable() {
    // `advance(p, 2)` of `const float*& p` moves the caller's `p` (it copied it, so `*p` read
    // a[0] = 0): p = a + 2, so out = 2. The kernel's own parameter `a` passed the same way is
    // moved too: a + 2 + 2 reads a[4] = 4; out[t] = 2 + 4 = 6.
    let src = r#"
__device__ void advance(const float*& p, int k) { p += k; }
__device__ void twice(const float*& p, int k) { advance(p, k); advance(p, k); }
__global__ void k(const float* a, float* out) {
    const float* p = a;
    advance(p, 2);
    twice(a, 2);
    out[threadIdx.x] = *p + *a;
}
launch k { a = arange(8); out = zeros(4); expect out == 6; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A struct's pointer member, an element of an array of pointers by a constant index, and
    // a local `float*& r = q;` are the pointers they name: s.p = a + 1, ps[1] = a + 1, q = a
    // + 3, so out = 1 + 1 + 3 = 5.
    let src = r#"
struct S { float* p; };
__device__ void adv(float*& p) { p++; }
__global__ void k(float* a, float* out) {
    S s; s.p = a;
    adv(s.p);
    float* ps[2] = {a, a};
    adv(ps[1]);
    float* q = a;
    float*& r = q;
    r += 3;
    out[threadIdx.x] = *s.p + *ps[1] + *q;
}
launch k { a = arange(8); out = zeros(4); expect out == 5; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_pointer_re_pointed_inside_an_expression_moves() {
    // `s += *a++;` re-points the kernel's parameter inside an expression (it was refused as
    // "cannot assign to the array `a`"): s = 0 + 1 + 2 = 3, then *a is a[3] = 3; out = 6.
    let src = r#"
__global__ void k(const float* a, float* out) {
    float s = 0;
    for (int i = 0; i < 3; i++) s += *a++;
    out[threadIdx.x] = s + *a;
}
launch k { a = arange(8); out = zeros(4); expect out == 6; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A member function's `const float*&` parameter moves the caller's pointer, the kernel's
    // own parameter included (it was refused as a pointer "that is no variable"): next(a)
    // returns a[0] = 0, then a[1] = 1; *a is a[2] = 2; out = 3.
    let src = r#"
struct R { __device__ float next(const float*& p) const { return *p++; } };
__global__ void k(const float* a, float* out) {
    R r;
    float v = r.next(a);
    v += r.next(a);
    out[threadIdx.x] = v + *a;
}
launch k { a = arange(8); out = zeros(4); expect out == 3; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A functor's `operator()` and a static member move it too: adv(a) reads a[0], S::next(a)
    // a[1] (times 10), then *a is a[2] (times 100): out = 0 + 10 + 200.
    let src = r#"
struct Adv { __device__ float operator()(const float*& p) const { return *p++; } };
struct S { __device__ static float next(const float*& p) { return *p++; } };
__global__ void k(const float* a, float* out) {
    Adv adv;
    float v = adv(a);
    v += S::next(a) * 10;
    out[threadIdx.x] = v + *a * 100;
}
launch k { a = arange(8); out = zeros(4); expect out == 210; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn later_declarators_may_be_pointers_to_pointers_and_deeper_members_are_held() {
    // `float **x, **y;` (a later name with two stars: a parse error before) as members and as
    // locals, and FDTD's host struct `P3F3 { float ***x, ***y, ***z; }`, whose members simt
    // holds without following: thread 0 gives rows[1] a heap row through `y` and `z`, each
    // thread writes its t there and reads it back, and r.n = 3: out = t + 3.
    let src = r#"
typedef struct P3F3 { float ***x, ***y, ***z; } P3F3;
struct Rows { float **a, **b; int n; };
__global__ void k(float* out, float** rows, Rows r, P3F3 p) {
    float **y, **z = rows;
    y = z;
    if (threadIdx.x == 0) y[1] = new float[4];
    __syncthreads();
    y[1][threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = z[1][threadIdx.x] + r.n;
}
launch k { rows = zeros(2); out = zeros(4); r.n = 3; expect out == arange(4) + 3; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn const_auto_of_a_pointer_is_a_const_pointer_to_mutable_data() {
    // RussWong/LLM-engineering's `const auto val_dst = v_dst;`: `float* const`, so writing
    // through it is C++ (out = 2 in); `const auto* s` of a `float*` is a `const float*`, so
    // writing through it is refused.
    let src = r#"
__global__ void k(float* out, const float* in) {
    const auto dst = out;
    const auto src = in;
    dst[threadIdx.x] = src[threadIdx.x] * 2.0f;
}
launch k { in = arange(4); out = zeros(4); expect out == arange(4) * 2; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    let src = r#"
__global__ void k(float* out) { const auto* dst = out; dst[threadIdx.x] = 1.0f; }
launch k { out = zeros(4); }
"#;
    let e = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::not_assignable"], "{e:?}");
}

#[test]
fn a_local_array_of_pointers_passes_to_a_pointer_to_pointers() {
    // Anime4KCPP's `conv<cin, cout>(rptr, ...)` of `const T* const* const rptr` given
    // `const float* r[] = { buffer };`: it was "`r` is a pointer, not a value", and T was not
    // deduced. The parameter is the caller's array: `move` re-points r[1] to in + 2t + 1.
    // sum<2> over r[0] reads in[2t] + in[2t + 1]; *r[1] is in[2t + 1]: out = 4t + 1 + 2t + 1.
    let src = r#"
template <int n, typename T>
__device__ float sum(const T* const* const rptr) {
    float s = 0;
    for (int i = 0; i < n; i++) s += rptr[0][i];
    return s;
}
__device__ void move(const float** rows) { rows[1] = rows[0] + 1; }
__global__ void k(const float* in, float* out) {
    const float* r[2] = { in + 2 * threadIdx.x, nullptr };
    move(r);
    out[threadIdx.x] = sum<2>(r) + *r[1];
}
launch k { in = arange(8); out = zeros(4); expect out == 6 * arange(4) + 2; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // An array of pointers to another type is no `int**` (nvcc refuses the conversion too).
    let src = r#"
__device__ int first(int** rows) { return rows[0][0]; }
__global__ void k(float* in, int* out) { float* r[1] = { in }; out[0] = first(r); }
"#;
    let f = err(
        src,
        &[("in", "zeros(4)"), ("out", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(
        codes(&f),
        ["simt::check::mismatched_types"],
        "{}",
        describe(&f)
    );
}
