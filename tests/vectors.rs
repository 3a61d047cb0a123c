//! Vector types: one 8- or 16-byte access per lane, components as scalars, the phase model in shared memory.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn float4_copy_moves_sixteen_sectors_per_request() {
    let src = r#"
__global__ void copy4(const float4* in, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
launch copy4 {
    n = 64;
    in = arange(4 * n);
    out = zeros(4 * n);
    block = 32;
    grid = cdiv(n, block);
    expect out == in;
}
"#;
    // 64 float4 = 256 floats. Each warp: 32 lanes × 16 B = 512 contiguous bytes = 16 sectors,
    // one request for the load and one for the store; 2 warps.
    let c = ok(src, &[], [2, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 32));
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 32));
    assert_eq!(c.g_bytes_requested, 2 * 64 * 16);
}

#[test]
fn components_make_and_reinterpret_cast() {
    let src = r#"
__global__ void k(const float* a, float4* out, float* sums) {
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(a)[i];
    float4 w = make_float4(v.w, v.z, v.y, v.x);
    w.x += 100.0f;
    out[i] = w;
    sums[i] = v.x + v.y + v.z + v.w + out[i].y;
}
launch k {
    a = arange(16);
    out = zeros(16);
    sums = zeros(4);
    expect out == [103, 2, 1, 0, 107, 6, 5, 4, 111, 10, 9, 8, 115, 14, 13, 12];
    expect sums == [8, 28, 48, 68];
}
"#;
    // sums[i] = (4i + 4i+1 + 4i+2 + 4i+3) + (4i+2) = 20i + 8.
    let r = ok(src, &[], ONE, [4, 1, 1]);
    // Requests: the float4 load (4 lanes × 16 B = 64 B = 2 sectors), the float4 store (2 sectors),
    // the scalar `out[i].y` load (4 lanes, bytes 4, 20, 36, 52 = 2 sectors), the sums store (1 sector).
    assert_eq!(
        (r.counters.gld_sectors, r.counters.gst_sectors),
        (2 + 2, 2 + 1)
    );
}

#[test]
fn sixteen_byte_shared_accesses_use_quarter_warp_phases() {
    let src = r#"
__global__ void k(float* out, int stride) {
    __shared__ float4 s[256];
    int t = threadIdx.x;
    float4 v = s[t * stride];
    out[t] = v.x;
}
"#;
    // Stride 1: each quarter-warp of 8 lanes reads 8 × 16 B = 128 B = 32 words in 32 banks:
    // 1 wavefront per phase, 4 phases → 4 wavefronts, ideal 4, 0 conflicts.
    let c = ok(
        src,
        &[("out", "zeros(32)"), ("stride", "1")],
        ONE,
        [32, 1, 1],
    )
    .counters;
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (1, 4, 0)
    );
    // Stride 2: a phase's 8 lanes touch words 8t..8t+3: banks repeat every 4 lanes → 2 per bank:
    // 8 wavefronts, 4 conflicts.
    let c = ok(
        src,
        &[("out", "zeros(32)"), ("stride", "2")],
        ONE,
        [32, 1, 1],
    )
    .counters;
    assert_eq!((c.smem_wavefronts, c.smem_bank_conflicts), (8, 4));
}

#[test]
fn vector_errors() {
    let check =
        |src: &str| match simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)) {
            Ok(_) => panic!("compiled: {src}"),
            Err(f) => codes(&f),
        };
    // A whole float4 used as a scalar.
    assert_eq!(
        check("__global__ void k(float4* a, float* b) { b[0] = a[0]; }"),
        ["simt::check::not_a_value"]
    );
    // A component that float2 does not have.
    assert_eq!(
        check("__global__ void k(float2* a, float* b) { float2 v = a[0]; b[0] = v.z; }"),
        ["simt::check::unknown_name"]
    );
    // make_int4 into a float4.
    assert_eq!(
        check("__global__ void k(float4* a) { a[0] = make_int4(1, 2, 3, 4); }"),
        ["simt::check::mismatched_types"]
    );
    // A vector type CUDA does not have (half vectors are pairs only). (`dim3*` is a pointer to
    // dim3s, three unsigned each, as `uint3*` is.)
    assert_eq!(
        check("__global__ void k(__half4* a) { }"),
        ["simt::check::unsupported"]
    );
    // A buffer whose length is not a whole number of float4s (enjia's vectorisation tutorial
    // casts a float array to `float4*` and leaves the tail to a scalar kernel): its whole
    // float4s are reachable, and the partial one is out of bounds, as memcheck has it.
    let write =
        "__global__ void k(float4* a) { a[threadIdx.x] = make_float4(1.0f, 1.0f, 1.0f, 1.0f); }";
    common::ok(write, &[("a", "zeros(6)")], ONE, [1, 1, 1]);
    let f = err(write, &[("a", "zeros(6)")], Some(ONE), Some([2, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert!(
        common::describe(&f).contains("`a[1]` but `a` has 1 elements"),
        "{}",
        common::describe(&f)
    );
    let shown = simt::cli::render(&f)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        shown.contains("`a` holds 6 values, so its last 2 values are no whole 4-component element"),
        "{shown}"
    );
    // Out of bounds counts float4 elements: 8 floats = 2 float4, thread 2 is out.
    let f = err(
        "__global__ void k(float4* a) {\n    a[threadIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);\n}",
        &[("a", "zeros(8)")],
        Some(ONE),
        Some([3, 1, 1]),
    );
    assert_eq!(
        f.errors[0].inner.to_string(),
        "out-of-bounds global access: `a[2]` but `a` has 2 elements"
    );
}

#[test]
fn shipped_wide_access_kernels_have_their_counters() {
    let run = |file: &str| {
        let src = simt::pipeline::read(std::path::Path::new(&format!(
            "{}/kernels/{file}",
            env!("CARGO_MANIFEST_DIR")
        )))
        .expect("kernel file");
        let opts = simt::pipeline::RunOptions {
            threads: 2,
            ..Default::default()
        };
        let r =
            simt::pipeline::run(&src, &opts).unwrap_or_else(|f| panic!("{file}: {:?}", f.errors));
        assert!(r.expects_passed(), "{file}: {:?}", r.expects);
        r.counters
    };
    // The derivations are in each kernel's header.
    let c = run("float4_copy.sk");
    assert_eq!(
        (c.gld_instr, c.gld_sectors, c.gst_instr, c.gst_sectors),
        (32, 512, 32, 512)
    );
    assert_eq!(c.bytes_requested_per_byte_moved(), 1.0);
    let c = run("dot_double.sk");
    assert_eq!((c.gld_instr, c.gld_sectors), (512, 4096));
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (1440, 2368, 0)
    );
    assert_eq!(
        (c.gatom_instr, c.gatom_sectors, c.g_bytes_requested),
        (32, 32, 131328)
    );
}

#[test]
fn vectors_pass_to_device_functions_by_value() {
    // cuda-samples' scan: `uint4 scan4Inclusive(uint4 idata4, ...)`. The callee gets a copy:
    // writing its parameter leaves the caller's vector alone. out = 2 in, then a.x unchanged.
    let src = r#"
inline __device__ uint4 twice4(uint4 v, unsigned k) {
    v.x = v.x * k;
    return make_uint4(v.x, v.y * k, v.z * k, v.w * k);
}
__global__ void k(const uint4* in, uint4* out, unsigned* first) {
    uint4 a = in[threadIdx.x];
    out[threadIdx.x] = twice4(a, 2);
    first[threadIdx.x] = a.x;
}
launch k { in = arange(16); out = zeros(16); first = zeros(4); block = 4; grid = 1;
    expect out == arange(16) * 2; expect first == arange(4) * 4; }
"#;
    common::ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn whole_vectors_store_through_pointers_and_into_local_arrays() {
    // One warp. `*p = make_float4(t, 1, 2, 3)` through a float4 pointer variable is one 16-byte
    // store per lane: 32 lanes × 16 B = 512 B = 16 sectors in 1 request; sum(b) = (0 + ... + 31)
    // + 32 × (1 + 2 + 3) = 496 + 192 = 688. `q[t] = w` through a second pointer copies the
    // vector to c, 16 sectors more. The local array lv[2] of float4 takes a whole vector at a
    // run-time index (local memory) and gives its .y back: o = 1.
    let src = r#"
__global__ void k(float4* b, float4* c, float* o) {
    int t = threadIdx.x;
    float4* p = b + t;
    *p = make_float4(t, 1, 2, 3);
    float4 w = *p;
    float4* q = c;
    q[t] = w;
    float4 lv[2];
    lv[t % 2] = w;
    o[t] = lv[t % 2].y;
}
launch k { b = zeros(128); c = zeros(128); o = zeros(32); block = 32; grid = 1;
    expect c == b; expect o == 1; expect sum(b) == 688; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    // Stores: b and c (16 sectors each) and o (32 × 4 B = 4 sectors).
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (3, 36));
}

#[test]
fn every_cuda_vector_type_is_a_wide_value_or_a_struct_of_members() {
    // 32 threads. Loads: `uchar4` 4 B per lane, contiguous = 128 B = 4 sectors in 1 request;
    // `double4` is a struct read member by member: 4 loads of 8 B at a 32 B stride, each lane
    // in its own sector = 4 × 32 sectors; `ulonglong2` 16 B per lane = 512 B = 16 sectors.
    // Stores: 1 B (1 sector), 8 B (8), `short2` 4 B (4), 8 B (8).
    // grey = 0.299 x + 0.587 y + 0.114 z of (4t, 4t+1, 4t+2) = 4t + 0.815, truncated: 4t.
    let src = r#"
__global__ void k(const uchar4* in, unsigned char* grey, const double4* d, double* out,
                  short2* s, const ulonglong2* u, unsigned long long* uo) {
    int t = threadIdx.x;
    uchar4 p = in[t];
    grey[t] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    double4 q = d[t];
    out[t] = q.x + q.y + q.z + q.w;
    short2 v = make_short2(-t, t);
    s[t] = v;
    ulonglong2 w = u[t];
    uo[t] = w.x + w.y;
}
launch k {
    in = arange(128); grey = zeros(32); d = arange(128); out = zeros(32); s = zeros(64);
    u = arange(64); uo = zeros(32);
    expect grey == arange(32) * 4;
    expect out == arange(32) * 16 + 6;
    expect s[1] == 0; expect s[2] == -1; expect s[3] == 1; expect s[63] == 31;
    expect uo == arange(32) * 4 + 1;
}
"#;
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (1 + 4 + 1, 4 + 4 * 32 + 16));
    assert_eq!((c.gst_instr, c.gst_sectors), (4, 1 + 8 + 4 + 8));
}

#[test]
fn a_vector_kernel_parameter_by_value_is_one_scalar_per_component() {
    // out[t] = t - pos.x + pos.y = t + 2; the int4 copy sums to 1 + 2 + 3 + 4 = 10.
    let src = r#"
__global__ void k(float* out, float2 pos, int4 q, int* sum) {
    float2 p = pos;
    out[threadIdx.x] = threadIdx.x - p.x + pos.y;
    if (threadIdx.x == 0) sum[0] = q.x + q.y + q.z + q.w;
}
launch k { pos.x = 1.0; pos.y = 3.0; q.x = 1; q.y = 2; q.z = 3; q.w = 4; out = zeros(32); sum = zeros(1);
    expect out == arange(32) + 2; expect sum == 10; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let missing = err(
        "__global__ void k(float* out, float2 pos) { out[0] = pos.x + pos.y; }\nlaunch k { pos.x = 1.0; out = zeros(1); }\n",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert!(
        common::describe(&missing).contains("pos.y"),
        "{}",
        common::describe(&missing)
    );
}

#[test]
fn a_compound_assignment_to_a_vector_calls_the_files_operator() {
    // helper_math.h style: `operator+=` for uint4, `operator-` for float2 (so `-=` is
    // `a = a - b`). s[t] = (1, 2, 3, 4) for all 64 threads; after s[t] += s[t + 32], s[0]
    // sums to 2 × 10 = 20. f = (5, 7) - (1, 2) = (4, 5).
    let src = r#"
__device__ void operator+=(uint4 &a, uint4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
__device__ float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__global__ void k(unsigned int* out, float* g) {
    __shared__ uint4 s[64];
    s[threadIdx.x] = make_uint4(1, 2, 3, 4);
    __syncthreads();
    if (threadIdx.x < 32) s[threadIdx.x] += s[threadIdx.x + 32];
    __syncthreads();
    float2 f = make_float2(5, 7);
    f -= make_float2(1, 2);
    if (threadIdx.x == 0) { out[0] = s[0].x + s[0].y + s[0].z + s[0].w; g[0] = f.x; g[1] = f.y; }
}
launch k { out = zeros(1); g = zeros(2); block = 64; grid = 1; expect out == [20]; expect g == [4, 5]; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
    let f = err(
        "__global__ void k(float2* a) { a[0] *= a[1]; }\n",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_component_of_a_computed_vector() {
    // make_float2(1, 2).y = 2; swap(v).x = v.y = 4; __ldg(&q[1]).z = q[1].z = 6 (q = 0..8 as
    // float4s: q[1] = (4, 5, 6, 7)); __hadd2(h, h).y = 2 · 1.5 = 3.
    let src = r#"
__device__ float2 swap(float2 v) { return make_float2(v.y, v.x); }
__global__ void k(const float4* q, float* out) {
    float2 v = make_float2(3.0f, 4.0f);
    half2 h = __floats2half2_rn(0.5f, 1.5f);
    out[0] = make_float2(1.0f, 2.0f).y;
    out[1] = swap(v).x;
    out[2] = __ldg(&q[1]).z;
    out[3] = __half2float(__hadd2(h, h).y);
}
launch k {
    q = arange(8);
    out = zeros(4);
    expect out == [2, 4, 6, 3];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn auto_takes_the_type_of_a_vector_initialiser() {
    let src = r#"
__global__ void k(half* p, float* f) {
    auto v = ((half2*)p)[threadIdx.x];
    auto w = __hadd2(v, v);
    ((half2*)p)[threadIdx.x] = w;
    auto t = __half22float2(w);
    const auto m = make_float4(t.x, t.y, 1.0f, 2.0f);
    auto c = m;
    f[threadIdx.x] = c.x + c.y + c.z * c.w;
}
launch k { p = arange(8); f = zeros(4); expect p == 2 * arange(8); expect f == [4.0, 12.0, 20.0, 28.0]; }
"#;
    // Thread t doubles the pair (2t, 2t + 1) to (4t, 4t + 2), exact in half; c = (4t, 4t + 2,
    // 1, 2), so f[t] = 4t + (4t + 2) + 1 * 2 = 8t + 4: 4, 12, 20, 28.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn braces_initialise_a_vector_component_by_component() {
    // `T v = {}` and `v = {}` are zero, `{x}` fills x and zeroes the rest, `{x, y}` both, as C++
    // aggregate initialisation does; half2 too (GPTQ's `half2 acc = {};`). Thread t:
    // a = (0, 0), b = (t, 0), c = (1, 2), h = (0, 0) then (t, t): 0 + t + 0 + 1 + 2 + 2t = 3t + 3.
    let src = r#"
__global__ void k(float* out) {
    int t = threadIdx.x;
    float2 a = {};
    float2 b = {(float)t};
    float2 c;
    c = {1.0f, 2.0f};
    half2 h = {};
    h = __hadd2(h, __float2half2_rn(t));
    out[t] = a.x + a.y + b.x + b.y + c.x + c.y + __low2float(h) + __high2float(h);
}
launch k { out = zeros(4); expect out == [3, 6, 9, 12]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn the_address_of_a_vector_elements_component_is_a_scalar_pointer() {
    // diff-gaussian-rasterization's backward pass accumulates into `float4*`/`float3*` buffers
    // with `atomicAdd(&acc[i].y, v)`.
    let src = r#"
__global__ void k(float4* acc, float3* m) {
    atomicAdd(&acc[threadIdx.x % 2].y, 1.0f);
    atomicAdd(&m[0].z, 2.0f);
    float* p = &m[0].x;
    p[1] = 5.0f;
}
launch k { acc = zeros(8); m = zeros(3);
    expect acc == [0, 16, 0, 0, 0, 16, 0, 0]; expect m == [0, 5, 64]; }
"#;
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    // Two atomic requests: the first's lanes hit bytes 4 and 20 (one sector), the second's byte 8.
    assert_eq!((c.gatom_instr, c.gatom_sectors), (2, 2));
}

#[test]
fn long_vectors_are_64_bit_as_on_linux() {
    // FlowNet2 passes tensor sizes as `long4`. With CUDA on Linux `long` is 64 bits, so `long4`
    // is `longlong4`: sizeof 4 × 8 = 32; v.w = 4 and the parameter's y = 10: 32 + 4 + 10 = 46.
    let src = "__global__ void k(long* out, long4 s) {
        long4 v = make_long4(1, 2, 3, 4);
        ulong2 u = make_ulong2(5, 6);
        out[threadIdx.x] = sizeof(v) + v.w + s.y + (sizeof(u) - 16) + (long)(u.y - 6);
    }
    launch k { out = zeros(2); s.x = 1; s.y = 10; s.z = 3; s.w = 4; expect out == [46, 46]; }";
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn vector_types_are_brace_initialised_as_values() {
    // `uchar2{a, b}` stored through a cast pointer (thread t writes t, t + 10 at 2t), through
    // a template parameter (`V2{...}` with V2 = uchar2), `float4{1, 2}` with the rest zero, and
    // `auto v = int2{...}`: as `uchar2 v = {a, b};` would be.
    let src = r#"
template <class V2>
__device__ void put(unsigned char* p, int t) {
    *(V2*)(p + 2 * t) = V2{ (unsigned char)(t + 20), (unsigned char)(t + 30) };
}
__global__ void k(unsigned char* p, unsigned char* q, float4* f, int* i) {
    int t = threadIdx.x;
    *(uchar2*)(p + 2 * t) = uchar2{ (unsigned char)t, (unsigned char)(t + 10) };
    put<uchar2>(q, t);
    if (t == 0) {
        f[0] = float4{1.0f, 2.0f};
        auto v = int2{t + 5, t + 6};
        i[0] = v.x * 10 + v.y;
    }
}
launch k {
    p = zeros(8); q = zeros(8); f = full(4, 9); i = zeros(1);
    expect p == [0, 10, 1, 11, 2, 12, 3, 13];
    expect q == [20, 30, 21, 31, 22, 32, 23, 33];
    expect f == [1, 2, 0, 0];
    expect i == [56];
}
"#;
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!(r.expects.len(), 4);
}

#[test]
fn a_vector_brace_initialiser_of_another_type_is_a_mismatch() {
    let src = r#"
__global__ void k(float4* f) {
    f[0] = float2{1.0f, 2.0f};
}
"#;
    let e = err(src, &[("f", "zeros(4)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::mismatched_types"], "{e:?}");
}

#[test]
fn a_cache_hinted_store_of_a_vector_is_one_wide_store() {
    // llm.c's store128cs: `__stcs(p, v)` of an int4 is `*p = v`: one 16-byte store per call,
    // so one warp request each (2 stores of 1 thread: 2 requests, 2 sectors).
    let src = r#"
__global__ void k(int4* a, int4* b) {
    int4 v = __ldcs(&a[0]);
    __stcs(&b[0], v);
    __stcg(reinterpret_cast<int4*>(&b[1]), make_int4(v.w, v.z, v.y, v.x));
}
launch k { a = [1, 2, 3, 4]; b = zeros(8); expect b == [1, 2, 3, 4, 4, 3, 2, 1]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (2, 2));
}

#[test]
fn a_vector_stored_through_pointer_arithmetic() {
    // `*(out + i) = v` and `__stcs(out + i, v)` of a float4: thread i copies in[i] (4 floats).
    let src = r#"
__global__ void k(float4* out, float4* out2, const float4* in) {
    float4 v = __ldcs(in + threadIdx.x);
    __stcs(out + threadIdx.x, v);
    *(out2 + threadIdx.x) = v;
}
launch k { in = arange(128); out = zeros(128); out2 = zeros(128); expect out == in; expect out2 == in; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn designated_initialisers_and_braced_arrays_of_vectors() {
    // QuEST's `cu_qcomp out = {.x = a.x + b.x, .y = a.y + b.y};` and `cu_qcomp facs[] = {fac0,
    // fac1};`. By hand: facs = [(1, 2), (3, 4)]; more = [(0, 5), (6, 7), (0, 0)] (`.y` alone
    // leaves x zero; a short list zero-fills); s = {.a = 8, .c = 9} leaves b zero.
    let src = r#"
struct S { int a; int b; int c; };
__global__ void k(double2* o, int* q) {
    double2 a = make_double2(1.0, 2.0);
    double2 b = {.x = 3.0, .y = 4.0};
    double2 c = {.y = 5.0};
    double2 facs[] = {a, b};
    double2 more[3] = {c, {6.0, 7.0}};
    S s = {.a = 8, .c = 9};
    int p = threadIdx.x;
    o[p] = facs[p];
    o[2 + p] = more[p + 1];
    o[4] = more[0];
    q[0] = s.a; q[1] = s.b; q[2] = s.c;
}
launch k { o = zeros(10); q = zeros(3); grid = 1; block = 2;
    expect o == [1, 2, 3, 4, 6, 7, 0, 0, 0, 5]; expect q == [8, 0, 9]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
    // C++20 takes designators in member order, and only members.
    for (bad, code) in [
        ("S s = {.a = 8, .c = 9};", "S s = {.c = 9, .a = 8};"),
        ("S s = {.a = 8, .c = 9};", "S s = {.a = 8, .d = 9};"),
    ]
    .map(|(from, to)| (src.replace(from, to), to))
    {
        let f = err(&bad, &[], Some([1, 1, 1]), Some([2, 1, 1]));
        let want = if code.contains(".d") {
            "simt::check::unknown_name"
        } else {
            "simt::check::unsupported"
        };
        assert_eq!(codes(&f), [want], "{code}");
    }
    // An array has no members to designate: said so at its initialiser.
    let array = r#"
__global__ void k(float* o) { float a[2] = {.x = 1.0f}; o[0] = a[0]; }
launch k { o = zeros(1); grid = 1; block = 1; }
"#;
    let f = err(array, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_files_comparison_operator_on_vectors_is_called() {
    // kaolin's `bool operator==(const float2&, const float2&)`: in = (1, 2) and (1, 2), so
    // a == b is true (out[0] = 1, and the `if` stores 5); the file's `operator<` compares x only,
    // 1 < 1 is false (out[1] = 0); two floats keep the built-in `==` (out[3] = 1).
    let src = r#"
__device__ static __forceinline__ bool operator== (const float2& a, const float2& b) {
  return a.x == b.x && a.y == b.y;
}
__device__ bool operator<(const float2& a, const float2& b) { return a.x < b.x; }
__global__ void k(const float* in, int* out) {
    float2 a = make_float2(in[0], in[1]);
    float2 b = make_float2(in[2], in[3]);
    out[0] = (a == b) ? 1 : 0;
    out[1] = a < b;
    if (a == b) out[2] = 5;
    out[3] = in[0] == in[2];
}
launch k { in = [1, 2, 1, 2]; out = zeros(4); expect out == [1, 0, 5, 1]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_static_member_function_returns_a_vector() {
    // StyleGAN3's `vec4_t v = InternalType<T>::zero_vec4();`: a specialisation's static member
    // returning its typedef'd float4, and a plain struct's returning a float2. v = (1, 0, 0, 0),
    // w = (2, 0): out = 1 + 2 = 3 in both lanes.
    let src = r#"
template <class T> struct IT;
template <> struct IT<float> {
    typedef float4 vec4_t;
    __device__ static vec4_t one_vec4(void) { return make_float4(1, 0, 0, 0); }
};
struct S { typedef float2 v2; __device__ static v2 two() { return make_float2(2, 0); } };
template <class T>
__global__ void k(float* out) {
    typedef typename IT<T>::vec4_t vec4_t;
    vec4_t v = IT<T>::one_vec4();
    float2 w = S::two();
    out[threadIdx.x] = v.x + v.y + v.z + v.w + w.x + w.y;
}
launch k<float> { out = zeros(2); expect out == 3; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_vector_member_binds_to_a_vector_reference() {
    // cuckoo's siphash: `operator^=(uint2 &a, uint2 b)` on members of a struct in registers.
    // s.v = (6, 9) ^ (3, 1) = (5, 8).
    let src = r#"
__device__ void xr(uint2 &a, uint2 b) { a.x ^= b.x; a.y ^= b.y; }
struct st { uint2 v; };
__global__ void k(unsigned* out) {
  st s;
  s.v = make_uint2(6u, 9u);
  xr(s.v, make_uint2(3u, 1u));
  out[0] = s.v.x; out[1] = s.v.y;
}
launch k { out = zeros(2); expect out == [5, 8]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_vector_assignment_is_a_value_and_a_template_returning_t_returns_the_vector() {
    // nvdiffrast: `avg += (a00 = *((const T*)&pIn[tc.x]));` and `bilerp` calling
    // `lerp(lerp(a, b, e.x), lerp(c, d, e.x), e.y)` with `template<class T> T lerp(...)` of
    // float4s, whose own operators the file defines.
    let src = r#"
__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
__device__ float4 operator*(float c, float4 a) { return make_float4(c * a.x, c * a.y, c * a.z, c * a.w); }
template<class T> __device__ T lerp(const T& a, const T& b, float c) { return a + c * (b - a); }
template<class T> __device__ T bilerp(const T& a, const T& b, const T& c, const T& d, float2 e) {
    return lerp(lerp(a, b, e.x), lerp(c, d, e.x), e.y);
}
__global__ void k(const float4* in, float4* out) {
    float4 a00, a10;
    float4 c = (a00 = in[0]);
    a10 = in[1];
    out[0] = c;
    out[1] = bilerp(a00, a10, a00, a10, make_float2(0.5f, 0.0f));
}
launch k { in = arange(8); out = zeros(8); expect out == [0, 1, 2, 3, 2, 3, 4, 5]; }
"#;
    // By hand: a00 = (0, 1, 2, 3) and c its copy; a10 = (4, 5, 6, 7). Halfway between them in x
    // is (2, 3, 4, 5); y = 0 keeps the first row.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_vector_parameter_is_set_from_a_list_of_its_components() {
    // cuTT's `int2 tiledVol`: `tiledVol = [40, 36];` is `int2 tiledVol = {40, 36};`, x then y:
    // out = 40 + 2 * 36 = 112. Three values for two members is refused.
    let src = r#"
__global__ void k(int* out, int2 v) { out[threadIdx.x] = v.x + 2 * v.y; }
launch k { out = zeros(2); v = [40, 36]; expect out == 112; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    let f = err(
        &src.replace("[40, 36]", "[40, 36, 1]"),
        &[],
        Some(ONE),
        Some([2, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert!(
        f.errors[0]
            .to_string()
            .contains("`v` is a parameter of 2 numbers, given 3 values"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn shared_scalar_of_vector_type_is_one_element() {
    // jetson-inference's depthNet: `__shared__ int2 range_shared;`, set whole, its members
    // updated by atomics through `&range_shared.x`, then read whole.
    let src = r#"
__global__ void k(int2* range, const int* v) {
    __shared__ int2 r;
    __shared__ float4 f;
    if (threadIdx.x == 0) { r = make_int2(INT_MAX, INT_MIN); f = make_float4(1, 2, 3, 4); }
    __syncthreads();
    atomicMin(&r.x, v[threadIdx.x]);
    atomicMax(&r.y, v[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) { range[0] = r; range[1] = make_int2(f.y, f.w); }
}
launch k {
    v = arange(64) - 20;
    range = zeros(4);
    grid = 1; block = 64;
    expect range == [-20, 43, 2, 4];
}
"#;
    // v runs from -20 to 43. Static shared memory: an int2 (8 B) and a float4 (16 B).
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.launch.smem_per_block, 8 + 16);
}

/// A reference to a vector element of a struct's array member is that element (PhysX's
/// addBlockSumsKernel4x4 passes `data[id].data[0]` to `operator+(const int4&, const int4&)`):
/// its offset counts vectors, not ints. `d = arange(64)` is 4 `Q`s of 16 ints, so
/// `d[0].data[1].x` = 4, `d[1].data[2].y` = 16 + 8 + 1 = 25, `p->data[3].w` of `p = &d[2]` =
/// 32 + 12 + 3 = 47, and the shared copy's `s[1].data[2].z` = 16 + 8 + 2 = 26; a write through
/// `w[0].data[1]` lands in int 4 (it went to int 16, and a read to 16 * 4 ints on).
#[test]
fn a_reference_to_a_vector_array_member_is_that_element() {
    let src = r#"
struct Q { int4 data[4]; };
__device__ int second(const int4& v) { return v.y; }
__global__ void k(Q* d, int* o, Q* w) {
    __shared__ Q s[2];
    const int4& a = d[0].data[1];
    o[0] = a.x;
    o[1] = second(d[1].data[2]);
    const Q* p = &d[2];
    const int4& b = p->data[3];
    o[2] = b.w;
    s[1].data[2] = d[1].data[2];
    const int4& q = s[1].data[2];
    o[3] = q.z;
    int4& r = w[0].data[1];
    r.x = 99;
}
launch k { d = arange(64); o = zeros(4); w = zeros(64); block = 1; grid = 1;
    expect o == [4, 25, 47, 26]; expect w[4] == 99; expect sum(w) == 99; }
"#;
    common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_compound_assignment_to_a_vector_element_names_the_element_once() {
    // `a[pick(i)] += v` through the file's `operator+` calls `pick` once (calls = 1) and is one
    // 8-byte load and one store; `h[j++] += ...` on a `__half2` increments j once; a returned
    // `float2&` (`b(0, 1) += ...`) is found once too. Before, the target was evaluated twice.
    let src = r#"
#include <cuda_fp16.h>
struct B { float2* d; __device__ float2& operator()(int y, int x) { return d[y * 4 + x]; } };
__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ int calls;
__device__ int pick(int i) { atomicAdd(&calls, 1); return i; }
__global__ void k(float2* a, __half2* h, int* o) {
    int i = 0, j = 0;
    a[pick(i)] += make_float2(1, 2);
    h[j++] += __floats2half2_rn(1.0f, 2.0f);
    B b{a};
    b(0, 1) += make_float2(3, 4);
    o[0] = calls; o[1] = j;
}
launch k { a = zeros(8); h = zeros(4); o = zeros(2); grid = 1; block = 1;
  expect o == [1, 1]; expect a == [1, 2, 3, 4, 0, 0, 0, 0]; expect h == [1, 2, 0, 0]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // Loads: a[0], h[0], a[1], calls (o[0] = calls): 4; stores: those three elements and o's 2.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (4, 5));
}

#[test]
fn a_component_of_the_vector_a_call_returns_a_pointer_to() {
    // `at(v, 1)` points at floats 4..8 of arange(8): `->y` reads 5, then `+= 1` makes it 6;
    // `at(v, 0)[1].z` is float 6, set to 5; `*at(v, 1)` copies the whole vector (w.y = 6).
    let src = r#"
__device__ float4* at(float4* p, int i) { return p + i; }
__global__ void k(float4* v, float* o) {
    o[0] = at(v, 1)->y;
    at(v, 1)->y += 1;
    at(v, 0)[1].z = 5;
    float4 w = *at(v, 1);
    o[1] = w.y;
}
launch k { v = arange(8); o = zeros(2); grid = 1; block = 1; expect o == [5, 6]; expect v == [0, 1, 2, 3, 4, 6, 5, 7]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_struct_call_operator_returning_a_vector_is_a_vector() {
    // SpFFT's `GPUArrayConstView2D<double2>::operator()` returns its `double2` element: `v(i)`
    // is that vector as a value, for `auto`, for a `double2` and as an operand of `.y`. d =
    // 0..63 as 32 double2s, so out[i] = (2 * d[2i], d[2i + 1]).
    let src = r#"
struct View {
    const double2* data_;
    __device__ double2 operator()(const int i) const { return data_[i]; }
};
__global__ void k(const View v, double2* out) {
    auto a = v(threadIdx.x);
    double2 b = v(threadIdx.x);
    out[threadIdx.x] = make_double2(a.x + b.x, v(threadIdx.x).y);
}
launch k { d = arange(64); v.data_ = d; out = zeros(64); block = 32; grid = 1;
    expect out == [LIST]; }
"#
    .replace("LIST", "0, 1, 4, 3, 8, 5, 12, 7, 16, 9, 20, 11, 24, 13, 28, 15, 32, 17, 36, 19, 40, 21, 44, 23, 48, 25, 52, 27, 56, 29, 60, 31, 64, 33, 68, 35, 72, 37, 76, 39, 80, 41, 84, 43, 88, 45, 92, 47, 96, 49, 100, 51, 104, 53, 108, 55, 112, 57, 116, 59, 120, 61, 124, 63");
    let r = ok(&src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    // Overloads are told by their arguments: `v(t)` is the `float` one (10 a[t].x = 20 t),
    // `v(t, 1)` the `float2` one (a[2t + 1].y = 2(2t + 1) + 1 = 4t + 3).
    let overloads = r#"
struct View {
    const float2* p; int ld;
    __device__ float2 operator()(int i, int j) const { return p[i * ld + j]; }
    __device__ float operator()(int i) const { return p[i].x * 10.0f; }
};
__global__ void k(const float2* a, float* out, float* y) {
    int t = threadIdx.x;
    View v; v.p = a; v.ld = 2;
    auto s = v(t);
    out[t] = s;
    y[t] = v(t, 1).y;
}
launch k { a = arange(16); out = zeros(4); y = zeros(4); grid = 1; block = 4;
    expect out == [0, 20, 40, 60]; expect y == [3, 7, 11, 15]; }
"#;
    let r = ok(overloads, &[], [1, 1, 1], [4, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}
