//! `__constant__` arrays: set by name in the launch section, read through the constant cache,
//! which serves one address per transaction (a warp reading one address is one; different
//! addresses serialise).

use crate::common;
use common::{codes, err, ok};

const CONV: &str = r#"
#define R 2
__constant__ float c_mask[2 * R + 1];
__constant__ int c_table[2][4];

__device__ float tap(int k) { return c_mask[k]; }

__global__ void conv(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = -R; k <= R; k++) {
        s += tap(k + R) * in[i + R + k];
    }
    out[i] = s + c_table[1][threadIdx.x % 4];
}
launch conv {
    n = 64; in = ones(n + 2 * R); out = zeros(n);
    c_mask = [1, 2, 3, 4, 5]; c_table = [0, 0, 0, 0, 10, 20, 30, 40];
    block = 32; grid = 2;
    expect out == 15 + (arange(n) % 4 + 1) * 10;
}
"#;

#[test]
fn broadcasts_are_one_transaction_and_divergent_reads_serialise() {
    let r = ok(CONV, &[], [2, 1, 1], [32, 1, 1]);
    let c = r.counters;
    // Per warp (2 warps): 5 loads of c_mask[k], one address each → 5 requests, 5 transactions;
    // c_table[1][t % 4]: 4 distinct addresses → 1 request, 4 transactions.
    // Total: 2 × 6 = 12 requests, 2 × (5 + 4) = 18 transactions.
    assert_eq!((c.cmem_instr, c.cmem_transactions), (12, 18));
    // The global loads are only `in`'s: 5 per warp; constant loads move no global sectors.
    assert_eq!(c.gld_instr, 10);
    let hint = r.hints.iter().find(|h| h.rule == "divergent-constant");
    assert_eq!(hint.and_then(|h| h.line), Some(14));
}

#[test]
fn constant_memory_is_read_only_and_zero_until_set() {
    let src = CONV.replace("out[i] = s +", "c_mask[0] = 1.0f; out[i] = s +");
    let f = err(&src, &[], Some([2, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
    // A `__constant__` array the launch does not set is zeros, as CUDA zero-initialises a
    // symbol host code never copies to (it was a missing argument): s = 0, and the report
    // says which were left unset.
    let src = CONV
        .replace("c_mask = [1, 2, 3, 4, 5];", "")
        .replace("expect out == 15 +", "expect out ==");
    let r = ok(&src, &[], [2, 1, 1], [32, 1, 1]);
    let hint = r.hints.iter().find(|h| h.rule == "unset-constant");
    assert!(
        hint.is_some_and(|h| h.message.starts_with("`c_mask` is `__constant__` memory")),
        "{:?}",
        r.hints
    );
    assert!(ok(CONV, &[], [2, 1, 1], [32, 1, 1])
        .hints
        .iter()
        .all(|h| h.rule != "unset-constant"));
}

#[test]
fn constant_scalars_and_plain_pointers_into_constant_arrays() {
    // cuda-samples: `__constant__ float c_ax, c_bx;` scalars, and `unsigned int *dimBase =
    // &c_Table[y][0];` (a plain pointer into constant memory, as C++ allows). out[t] = 2 + 10 *
    // 3 + c_table[1][t % 2] = 32 + {5, 7}.
    let src = r#"
__constant__ float c_ax, c_bx;
__constant__ unsigned int c_table[2][2];
__global__ void k(float* out) {
    unsigned int *row = &c_table[1][0];
    out[threadIdx.x] = c_ax + 10.0f * c_bx + row[threadIdx.x % 2];
}
launch k { c_ax = 2; c_bx = [3]; c_table = [1, 3, 5, 7]; out = zeros(4); block = 4; grid = 1;
    expect out == [37, 39, 37, 39]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Per warp: c_ax and c_bx broadcast (1 + 1), row[t % 2] two addresses (2): 3 requests, 4
    // transactions.
    assert_eq!(
        (r.counters.cmem_instr, r.counters.cmem_transactions),
        (3, 4)
    );
    let src = src.replace(
        "out[threadIdx.x] = c_ax",
        "row[0] = 1; out[threadIdx.x] = c_ax",
    );
    let f = err(&src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
}

/// `__device__` variables: global memory every block shares, set by name like `__constant__`
/// ones, starting from their initialiser (or zero) when the launch sets nothing.
const TICKETS: &str = r#"
__device__ unsigned int count = 0;
__device__ int total;
__device__ float table[4];
__global__ void k(unsigned* order, float* out) {
    if (threadIdx.x == 0) order[blockIdx.x] = atomicInc(&count, gridDim.x);
    atomicAdd(&total, 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x % 4];
}
launch k { order = zeros(4); out = zeros(32); table = [1, 2, 3, 4]; grid = 4; block = 8;
    expect order == [0, 1, 2, 3]; expect count == 4; expect total == 32;
    expect out == arange(32) % 4 + 1; }
"#;

#[test]
fn device_variables_are_global_memory_every_block_shares() {
    // 4 blocks of 8. Thread 0 of each block takes a ticket with atomicInc(&count, 4): blocks run
    // in order, so the tickets are 0, 1, 2, 3 and count ends at 4 (below the wrap at 4). Every
    // thread adds 1 to total: 32. out reads table[t % 4] = t % 4 + 1, set by the launch.
    let r = ok(TICKETS, &[], [4, 1, 1], [8, 1, 1]);
    // __device__ variables are global memory: the table loads are global requests (one per
    // warp, 4 warps) and nothing goes through the constant cache.
    assert_eq!(r.counters.gld_instr, 4);
    assert_eq!(r.counters.cmem_instr, 0);
    // Written by name: every thread reads the initialiser -7 first; thread 0 then stores 5,
    // 6, 7, which the expect sees after the launch.
    let src = r#"
__device__ volatile int flag = -7;
__global__ void g(int* o) {
    o[threadIdx.x] = flag;
    if (threadIdx.x == 0) { flag = 5; flag += 1; flag++; }
}
launch g { o = zeros(32); grid = 1; block = 32; expect o == -7; expect flag == 7; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.races.is_empty(), "{:?}", r.races);
}

#[test]
fn device_variable_mistakes_are_diagnostics() {
    const ONE: Option<[u32; 3]> = Some([1, 1, 1]);
    // C requires a constant initialiser.
    let src = "__device__ int n = threadIdx.x;\n__global__ void k(int* a) { a[0] = n; }";
    let f = err(src, &[("a", "zeros(1)")], ONE, ONE);
    assert_eq!(codes(&f), ["simt::check::not_constant"]);
    // An array's initialiser is a brace list, not one value.
    let src = "__device__ int n[2] = 0;\n__global__ void k(int* a) { a[0] = n[0]; }";
    let f = err(src, &[("a", "zeros(1)")], ONE, ONE);
    assert_eq!(codes(&f), ["simt::check::initialiser"]);
    // An integer variable given a fraction by the launch.
    let src = "__device__ unsigned int n;\n__global__ void k(int* a) { a[0] = n; }";
    let f = err(src, &[("a", "zeros(1)"), ("n", "1.5")], ONE, ONE);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    // A `__constant__` scalar stays read-only when written by name.
    let src = "__constant__ float c;\n__global__ void k(float* a) { c = 2.0f; a[0] = c; }";
    let f = err(src, &[("a", "zeros(1)"), ("c", "1")], ONE, ONE);
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
}

#[test]
fn a_legacy_1d_texture_is_read_only_global_memory_bound_by_the_launch() {
    // SHOC/Rodinia style: `texture<float, 1>` bound to a buffer of any length, read with
    // tex1Dfetch through a functor. 32 lanes read 32 consecutive floats: one request of 4
    // sectors, like a global load (not the constant cache: no cmem transactions).
    let src = r#"
texture<float, 1, cudaReadModeElementType> vecTex;
struct Reader { __device__ float operator()(int i) const { return tex1Dfetch(vecTex, i); } };
__global__ void k(float* out) {
    Reader r;
    out[threadIdx.x] = 2.0f * r(threadIdx.x);
}
launch k { vecTex = arange(40); out = zeros(32); block = 32; grid = 1; expect out == arange(32) * 2; }
"#;
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 4));
    assert_eq!(c.cmem_instr, 0);
    // A texture of float4 read by a functor that returns the vector (SHOC's MD): element t is
    // (4t, 4t + 1, 4t + 2, 4t + 3), so x + w = 8t + 3; one 16-byte access per lane.
    let src = r#"
texture<float4, 1, cudaReadModeElementType> posTexture;
struct Reader { __device__ float4 operator()(int i) const { return tex1Dfetch(posTexture, i); } };
__global__ void k(float* out) {
    Reader r;
    float4 p = r(threadIdx.x);
    out[threadIdx.x] = p.x + p.w;
}
launch k { posTexture = arange(128); out = zeros(32); block = 32; grid = 1; expect out == arange(32) * 8 + 3; }
"#;
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
    // `__align__(8)` before it (a multigrid Poisson solver's): the same texture, where it was
    // taken for host code and skipped, so `tex1Dfetch(texA, i)` was an unknown name.
    let src = r#"
__align__(8) texture<float> texA;
static __align__(8) texture<float> texB;
__global__ void k(float* out) { out[threadIdx.x] = tex1Dfetch(texA, threadIdx.x) + tex1Dfetch(texB, 0); }
launch k { texA = arange(32); texB = ones(1); out = zeros(32); block = 32; grid = 1; expect out == arange(32) + 1; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let f = err(
        "texture<float, 2> t2;\n__global__ void k(float* out) { out[0] = tex2D(t2, 0.5f, 0.5f); }\n",
        &[],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn file_scope_arrays_start_at_their_initialisers_unless_the_launch_sets_them() {
    // C's rules: w = {0.1, 0.2, 0.4, 0, 0} (the rest zero); m = {{1, 2}, {3}} is rows (1, 2),
    // (3, 0); scale = 2. out[t] = w[t] * scale + lut[t % 4] + m[t % 2][t % 2]:
    // t=0: 0.2 + 3 + 1 = 4.2; t=1: 0.4 + 1 + 0 = 1.4; t=2: 0.8 + 4 + 1 = 5.8;
    // t=3: 0 + 1 + 0 = 1; t=4: 0 + 3 + 1 = 4. The second launch sets w to ones:
    // 2 + 3 + 1 = 6, 2 + 1 + 0 = 3, 2 + 4 + 1 = 7, 2 + 1 = 3, 2 + 3 + 1 = 6.
    let src = r#"
__constant__ float w[5] = {0.1f, 0.2f, 0.4f};
__constant__ int m[2][2] = {{1, 2}, {3}};
__constant__ float scale = 2.0f;
__device__ int lut[4] = {3, 1, 4, 1};
__global__ void k(float* out) {
    int t = threadIdx.x;
    out[t] = w[t] * scale + lut[t % 4] + m[t % 2][t % 2];
}
launch k { out = zeros(5); block = 5; grid = 1; expect abs(out - [4.2, 1.4, 5.8, 1, 4]) < 1e-6; }
launch k { w = ones(5); out = zeros(5); block = 5; grid = 1; expect out == [6, 3, 7, 3, 6]; }
"#;
    ok(src, &[], [1, 1, 1], [5, 1, 1]);
}

#[test]
fn a_file_scope_array_keeps_its_declared_size_whatever_the_launch_gives() {
    // CUDA gives a symbol its declared size: `w` holds 2 floats (sizeof(w)/sizeof(w[0]) is 2),
    // so 4 values cannot be copied to it (cudaMemcpyToSymbol fails) and 1 would leave w[1] at a
    // value the launch does not show. Both are host errors, for `__constant__` and `__device__`
    // arrays and from `--arg` as from the launch section; exactly 2 values run.
    let src = "__constant__ float w[2];\n__device__ int t[3];\n__global__ void k(float* o) { o[0] = w[0] + w[1] + t[2]; }\n";
    let one = Some([1, 1, 1]);
    for (name, value) in [
        ("w", "[1, 2, 3, 4]"),
        ("w", "[1]"),
        ("t", "zeros(4)"),
        ("t", "[1, 2]"),
    ] {
        let mut args = vec![("o", "zeros(1)"), ("w", "[1, 2]"), ("t", "[0, 0, 5]")];
        args.retain(|(n, _)| *n != name);
        args.push((name, value));
        let f = err(src, &args, one, one);
        assert_eq!(codes(&f), ["simt::host::symbol_size"], "{name} = {value}");
    }
    // 1 + 2 + 5 = 8.
    let run = format!(
        "{src}launch k {{ w = [1, 2]; t = [0, 0, 5]; o = zeros(1); block = 1; grid = 1; expect o == [8]; }}\n"
    );
    ok(&run, &[], [1, 1, 1], [1, 1, 1]);
    // The launch section's reproducer (round 9): reading w[2] of a 2-element `w` set to 4 values.
    let src = r#"
__constant__ float w[2];
__global__ void k(float* o) { for (int i = 0; i < 4; i++) o[i] = w[i]; }
launch k { w = [1, 2, 3, 4]; o = zeros(4); block = 1; grid = 1; }
"#;
    let f = err(src, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::symbol_size"]);
    assert_eq!(common::position(&f), (4, 16));
}

#[test]
fn a_file_scope_array_may_be_sized_by_its_initialiser() {
    // C: `t[] = {0, 16, 235}` has 3 elements; sizeof(t) / sizeof(t[0]) = 3 and c has 2.
    // out = t[0..3], then the counts: [0, 16, 235, 3, 2, 2.5 + 0.5].
    let src = r#"
__device__ int t[] = {0, 16, 235};
__constant__ float c[] = {2.5f, 0.5f};
__global__ void k(float* out) {
    for (int i = 0; i < 3; i++) out[i] = t[i];
    out[3] = sizeof(t) / sizeof(t[0]);
    out[4] = sizeof(c) / sizeof(c[0]);
    out[5] = c[0] + c[1];
}
launch k { out = zeros(6); block = 1; grid = 1; expect out == [0, 16, 235, 3, 2, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_constant_struct_holding_pointers_is_set_member_by_member() {
    // CMU 15-418's renderer keeps its buffers in `__constant__ GlobalConstants params;`, filled
    // with cudaMemcpyToSymbol. Each member is set by name; a pointer member takes an array (here
    // `d`, which the expect then reads): d[i] = 2i for i < n = 6, unchanged after.
    let src = r#"
struct Params { int n; float* data; const float* scale; };
__constant__ Params cParams;
__global__ void scale() {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= cParams.n) return;
    cParams.data[i] *= cParams.scale[0];
}
launch scale {
    cParams.n = 6;
    d = arange(8);
    cParams.data = d;
    cParams.scale = [2.0];
    expect d == [0, 2, 4, 6, 8, 10, 6, 7];
}
"#;
    let r = ok(src, &[], [1, 1, 1], [8, 1, 1]);
    // The members are read like a kernel's parameters (no memory access); the 6 threads load
    // d[i] and scale[0] and store d[i]: one request each per warp.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (2, 1));
    // A pointer member the launch leaves unset binds to no array: the kernel's read through it
    // stops, naming the member.
    let f = err(
        &src.replace("    cParams.scale = [2.0];\n", ""),
        &[],
        Some([1, 1, 1]),
        Some([8, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::unset_pointer"]);
    assert!(
        f.errors[0].to_string().contains("cParams.scale"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn a_constant_only_a_specialisation_reads_is_the_instances_that_run_it() {
    // cuda-samples' nbody: `getSofteningSquared<T>` reads `a`, its `double` specialisation
    // reads `b`. k<float> reads only a (2 * 3 = 6), k<double> only b (2 * 4 = 8): each launch
    // sets the one its instance reads, and the other is not missing.
    let code = r#"
__constant__ float a;
__constant__ double b;
template <typename T> __device__ T get() { return a; }
template <> __device__ double get<double>() { return b; }
template <typename T> __device__ T twice() { return 2 * get<T>(); }
template <typename T> __global__ void k(T *o) { o[0] = twice<T>(); }
"#;
    let one = [1, 1, 1];
    let float = format!("{code}launch k<float> {{ a = 3; o = zeros(1); expect o == [6]; }}\n");
    ok(&float, &[], one, one);
    let double = format!("{code}launch k<double> {{ b = 4; o = zeros(1); expect o == [8]; }}\n");
    ok(&double, &[], one, one);
    // A constant the instance reads and the launch leaves unset is zero, and said so.
    let unset = format!("{code}launch k<float> {{ o = zeros(1); expect o == [0]; }}\n");
    let r = ok(&unset, &[], one, one);
    let hint = r.hints.iter().find(|h| h.rule == "unset-constant");
    assert!(
        hint.is_some_and(|h| h.message.starts_with("`a` is")),
        "{:?}",
        r.hints
    );
}

#[test]
fn a_constant_pointer_points_into_global_memory_set_by_the_launch() {
    // ethminer's `__constant__ hash64_t* d_light;` (set with cudaMemcpyToSymbol of a device
    // address): the pointer is in constant memory, what it points to is global memory. 32
    // lanes read 32 consecutive unsigned ints through it: one request of 4 sectors, no
    // constant-cache transaction. Through a struct pointer, `words[1]` of 32 consecutive
    // 16-byte structs: one request, each lane's 4 bytes in its own 16 bytes, 512 bytes = 16
    // sectors.
    let src = r#"
typedef struct { unsigned words[4]; } h16_t;
__constant__ unsigned* d_light;
__constant__ const h16_t* d_dag;
__global__ void k(unsigned* out) {
    int t = threadIdx.x;
    out[t] = d_light[t] + d_dag[t].words[1];
}
launch k {
    d_light = arange(32);
    d_dag = arange(128);
    out = zeros(32);
    expect out == arange(32) * 5 + 1;
}
"#;
    // t + (4t + 1) = 5t + 1.
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 4 + 16));
    assert_eq!(c.cmem_instr, 0);
    // An array of pointers, or an initialised one, is refused with a diagnostic, not misread as
    // an array of its pointee type.
    let f = err(
        "__constant__ float* tables[4];\n__global__ void k(float* out) { out[0] = *tables[1]; }\n",
        &[("out", "zeros(1)")],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
    assert!(
        f.errors[0].to_string().contains("`tables` array"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn a_constant_pointer_the_launch_leaves_unset_is_null() {
    // CUDA zero-initialises a symbol: GPU-Raytracer's `__constant__ float2* pmj_samples;`,
    // never read at the sample index its launch uses, needs no value. Compared with NULL it is
    // equal (out = 1, 1); read through, it traps naming the pointer.
    let src = r#"
__constant__ float* table;
__global__ void k(float* out) { out[threadIdx.x] = (table == NULL) ? 1.0f : 2.0f; }
launch k { out = zeros(2); expect out == [1, 1]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
    let f = err(
        "__constant__ float* table;\n__global__ void k(float* out) { out[0] = table[0]; }\n",
        &[("out", "zeros(1)")],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::null_pointer"]);
    assert!(
        f.errors[0].to_string().contains("`table`"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn an_aligned_file_scope_array_reads_as_any_other() {
    // ccminer: `static __constant__ __align__(8) uint64_t K[4] = {...}` and `__constant__
    // uint32_t __align__(32) midstate[4];`; `__device__ __align__(16) float acc[4];`. Every
    // array starts aligned in simt, so the alignment changes no address: 32 lanes reading
    // K[t % 4] touch 4 distinct constant addresses, 4 transactions.
    let want: Vec<String> = (0..32).map(|t| (12 * (t % 4 + 1)).to_string()).collect();
    let src = r#"
#include <stdint.h>
static __constant__ __align__(8) uint64_t K[4] = { 11, 22, 33, 44 };
__constant__ uint32_t __align__(32) midstate[4];
__device__ __align__(16) float acc[4];
__global__ void k(uint64_t* out) {
    int t = threadIdx.x;
    out[t] = K[t % 4] + midstate[t % 4] + (uint64_t)acc[t % 4];
}
launch k { midstate = [1, 2, 3, 4]; out = zeros(32); expect out == WANT; }
"#
    .replace("WANT", &format!("[{}]", want.join(", ")));
    // K[i] + midstate[i] = 11 + 1, 22 + 2, ... = 12 (i + 1); acc is zero.
    let c = ok(&src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.cmem_instr, c.cmem_transactions), (2, 8));
}

#[test]
fn vector_arrays_take_brace_lists_of_components() {
    // ccminer's Keccak round constants: `__constant__ uint2 rc[24] = { {a, b}, ... }`. Each
    // element is a brace list of its components, the rest zero; braces may be elided (C
    // fills the components in order); an uninitialised `__device__ uint2 d[2]` is 4 zeros.
    // a = {(1, 2), (3, 0)}: o = 10x + y = 12, 30. c[0] = {(1, 2), (3, 0)}: 6;
    // c[1] = {(4, 5), (0, 0)}: 9.
    let src = r#"
__constant__ uint2 a[2] = { 1u, 2u, 3u };
__constant__ float2 c[2][2] = { { {1.f, 2.f}, {3.f} }, { {4.f, 5.f} } };
__constant__ uint2 rc[2] = { { 1u, 2u }, { 3u, 4u } };
__device__ uint2 d[2];
__global__ void k(unsigned int *o, float* f, unsigned int* r) {
    int t = threadIdx.x;
    o[t] = a[t].x * 10 + a[t].y + d[t].y;
    f[t] = c[t][0].x + c[t][0].y + c[t][1].x + c[t][1].y;
    r[t] = rc[t].x + rc[t].y;
}
launch k { o = zeros(2); f = zeros(2); r = zeros(2); expect o == [12, 30]; expect f == [6, 9]; expect r == [3, 7]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_launch_copies_a_host_array_into_constant_memory_by_name() {
    // ccminer: `static const uint64_t host_keccak_round_constants[24] = {...};` copied with
    // `cudaMemcpyToSymbol(d_keccak_round_constants, host_keccak_round_constants, ...)`; here the
    // launch section's `d_rc = host_rc;`. Values past 2^53 stay exact, and a 2-D table keeps
    // C's order.
    let src = r#"
#include <stdint.h>
static const uint64_t host_rc[3] = { 0x0000000000000001ULL, 0x8000000000008002ULL, 0x800000000000808AULL };
const uint32_t host_t[2][3] = { {1, 2, 3}, {4, 5, 6} };
__constant__ uint64_t d_rc[3];
__constant__ uint32_t d_t[2][3];
__global__ void k(uint64_t* out, uint32_t* t) {
    int i = threadIdx.x;
    out[i] = d_rc[i] ^ 1;
    t[i] = d_t[1][i] * 10 + d_t[0][i];
}
launch k {
    d_rc = host_rc; d_t = host_t;
    out = zeros(3); t = zeros(3);
    expect out == [0, 9223372036854808579, 9223372036854808715];
    expect t == [41, 52, 63];
}
"#;
    // By hand: 1 ^ 1 = 0; 0x8000000000008002 ^ 1 = 0x8000000000008003 = 2^63 + 32771 =
    // 9223372036854808579; 0x800000000000808A ^ 1 = 2^63 + 32907 = 9223372036854808715.
    // t[i] = 10 * row 1 + row 0: 41, 52, 63.
    ok(src, &[], [1, 1, 1], [3, 1, 1]);
    // Device code cannot name the host array, as in CUDA.
    let device = src.replace("out[i] = d_rc[i] ^ 1;", "out[i] = host_rc[i];");
    let f = err(&device, &[], Some([1, 1, 1]), Some([3, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::host_array"]);
    // A parameter of the array's name is the launch's to set: the file's array is not taken.
    let param = src.replace("uint32_t* t)", "uint32_t* t, const uint32_t* host_t)");
    let f = err(&param, &[], Some([1, 1, 1]), Some([3, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::unknown_name"]);
}

#[test]
fn an_initialised_64_bit_constant_table_keeps_values_past_2_53() {
    // ccminer's lbry: `static __constant__ uint64_t K_512[80] = { 0x428A2F98D728AE22, ... };`
    // with no launch value: its initialiser, in its own type, exactly.
    let src = r#"
#include <stdint.h>
static __constant__ uint64_t K[2] = { 0x428A2F98D728AE22, 0xB5C0FBCFEC4D3B2F };
__global__ void k(uint64_t* out) { out[threadIdx.x] = K[threadIdx.x] + 1; }
launch k { out = zeros(2); expect out == [4794697086780616227, 13096744586834688816]; }
"#;
    // By hand: 0x428A2F98D728AE22 = 4794697086780616226 (+ 1); 0xB5C0FBCFEC4D3B2F =
    // 13096744586834688815 (+ 1).
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn host_tables_are_taken_only_where_simt_can_read_them_and_leave_nothing_behind() {
    // A table in a namespace stays skipped host code (two namespaces may each have a `t`), and
    // so does one simt cannot read (a multi-character literal): the file still runs.
    let src = r#"
namespace A { const int t[] = {1, 2, 3}; }
namespace B { const int t[] = {4, 5, 6}; }
static const int tags[] = { 'ab' };
__constant__ int d_t[3];
__global__ void k(int* a) { a[threadIdx.x] = d_t[threadIdx.x % 3]; }
launch k { d_t = t; a = zeros(4); }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::unknown_name"]);
    ok(
        &src.replace("d_t = t;", "d_t = [7, 8, 9];"),
        &[],
        [1, 1, 1],
        [4, 1, 1],
    );
    // A function that fails to check in a table's initialiser is still reported where a
    // kernel calls it: the table's dropped errors take nothing with them.
    let broken = r#"
__host__ __device__ int sq(int x) { return x * x + undefined_thing; }
static const int tab[] = { sq(2), 3 };
__global__ void k1(int* a) { a[threadIdx.x] = threadIdx.x; }
__global__ void k2(int* a) { a[threadIdx.x] = sq(threadIdx.x) + 1; }
launch k2 { a = zeros(2); }
"#;
    let f = err(broken, &[], Some([1, 1, 1]), Some([2, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
}

#[test]
fn file_scope_char_arrays_take_a_string_and_arrays_their_lists_length() {
    // "ACGT" is 65 67 71 84 and the terminating 0; "A\x43\n" is 65, 67 ('C'), 10 and 0, its
    // size 4 from the string; `t[]` is as long as its list.
    let src = r#"
__constant__ char query[5] = "ACGT";
__device__ char q2[] = "A\x43\n";
__device__ int t[] = {5, 6, 7};
__global__ void k(int* out) {
    int i = threadIdx.x;
    out[i] = query[i] + q2[i % 4] * 1000 + t[i % 3] * 1000000;
}
launch k {
    out = zeros(5);
    expect out == [65, 67, 71, 84, 0] + [65, 67, 10, 0, 65] * 1000 + [5, 6, 7, 5, 6] * 1000000;
}
"#;
    assert!(ok(src, &[], [1, 1, 1], [5, 1, 1]).expects_passed());
}

#[test]
fn a_flat_list_fills_rows_of_an_array_of_unknown_bound() {
    // `t[][2] = {1, 2, 3, 4, 5}` is 3 rows of 2 (the last row 5, 0), so t[2][1] is 0 and
    // t[3][0] is past its 6 ints; braced rows count one each: u has 2 rows.
    let src = r#"
__device__ int t[][2] = {1, 2, 3, 4, 5};
__device__ int u[][3] = {{1, 2, 3}, {4}};
__global__ void k(int* out) {
    int i = threadIdx.x;
    out[i] = t[i / 2][i % 2] + 10 * u[i / 3][i % 3];
}
launch k { out = zeros(6); expect out == [11, 22, 33, 44, 5, 0]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [6, 1, 1]).expects_passed());
    // Lanes 6 and 7 read t[3], past its 3 rows (in bounds were it 5 rows of the list's 5).
    let past = r#"
__device__ int t[][2] = {1, 2, 3, 4, 5};
__global__ void k(int* out) { out[threadIdx.x] = t[threadIdx.x / 2][threadIdx.x % 2]; }
launch k { out = zeros(8); }
"#;
    let f = err(past, &[], Some([1, 1, 1]), Some([8, 1, 1]));
    assert!(
        codes(&f).contains(&"simt::run::out_of_bounds".to_string()),
        "{f:?}"
    );
}

#[test]
fn an_extern_device_variable_is_the_variable_its_definition_or_the_launch_gives() {
    // Belewitte's bfs.hpp: `extern __device__ unsigned frontier;` in a header, defined in the
    // .cu. Declared twice then defined, `twice` is the definition's 3; `only_declared` has no
    // definition here, so the launch sets it: 5 + 4 lanes' atomicAdd = 9.
    let src = r#"
extern __device__ unsigned only_declared;
extern __device__ int twice;
extern __device__ int twice;
__device__ int twice = 3;
__global__ void k(int* a) { atomicAdd(&only_declared, 1U); a[threadIdx.x] = twice; }
launch k { a = zeros(4); only_declared = [5]; expect only_declared == 9; expect a == 3; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn a_constant_struct_without_pointers_is_set_as_a_whole() {
    // ramsesGPU-like `__constant__ P gP;` of two floats: `gP = [3.0, 1.0];` sets dx and dy in
    // order (o = 2·3 + 1 = 7); member by member is refused, saying what to write instead (it
    // used to call gP "not a struct passed by value", as if it were a parameter).
    let src = r#"
struct P { float dx; float dy; };
__constant__ P gP;
__global__ void k(float* o) { o[0] = gP.dx * 2.0f + gP.dy; }
launch k { o = zeros(1); gP = [3.0, 1.0]; grid = 1; block = 1; expect o == 7; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let one_by_one = src.replace("gP = [3.0, 1.0];", "gP.dx = 3.0; gP.dy = 1.0;");
    let f = err(&one_by_one, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("`gP` is a `__constant__` or `__device__` variable without pointers"),
        "{text}"
    );
    assert!(
        text.contains("its members' values in order (`gP ="),
        "{text}"
    );
}

#[test]
fn a_constant_struct_of_mixed_members_takes_their_values_in_order() {
    // GPU_Cloth's `__constant__ ConstParam constParam;` (three `unsigned int`s and a `float`):
    // held as 16 bytes, set by its 4 members' values. out = 0.5 * 10 + 56 + 2 = 63. An array of
    // two `{char c; double d;}` (16 bytes each, 7 of padding after `c`) takes 4 values:
    // pairs[1].c * pairs[1].d = 3 * 0.25.
    let src = r#"
struct ConstParam { unsigned int n; unsigned int colors; unsigned int iters; float k; };
struct Pair { char c; double d; };
__constant__ ConstParam constParam;
__constant__ Pair pairs[2];
__global__ void k(float* out) {
    out[0] = constParam.k * constParam.iters + constParam.n + constParam.colors;
    out[1] = pairs[1].c * pairs[1].d + pairs[0].c;
}
launch k { out = zeros(2); constParam = [56, 2, 10, 0.5]; pairs = [1, 2.0, 3, 0.25];
           grid = 1; block = 1; expect out == [63, 1.75]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [1, 1, 1]).expects_passed());
    // Three values fit neither the 16 bytes nor the 4 members: the help says both.
    let short = src.replace("[56, 2, 10, 0.5]", "[56, 2, 10]");
    let f = err(&short, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::symbol_size"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("4 per struct (unsigned int, unsigned int, unsigned int, float)"),
        "{text}"
    );
    // A fraction for an integer member is refused, never truncated.
    let fraction = src.replace("[56, 2, 10, 0.5]", "[56, 2.5, 10, 0.5]");
    let f = err(&fraction, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert!(simt::cli::render(&f)
        .contains("member 1 of `constParam` is `unsigned int` but its value is 2.5"));
    // Set in a `sequence`, as the host sets it once for several launches: a's p.n += 1
    // carries to b, so o = [3 + 0.5, 4 * 0.5].
    let seq = r#"
struct P { int n; float w; };
__device__ P p;
__global__ void a(float* o) { o[0] = p.n + p.w; p.n += 1; }
__global__ void b(float* o) { o[1] = p.n * p.w; }
sequence {
    o = zeros(2);
    p = [3, 0.5];
    launch a { grid = 1; block = 1; }
    launch b { grid = 1; block = 1; }
    expect o == [3.5, 2];
}
"#;
    let run = simt::pipeline::run_sequence(
        &simt::source::SourceFile::new("seq.sk", seq),
        &simt::pipeline::RunOptions::default(),
        0,
    )
    .unwrap_or_else(|f| panic!("{}", common::describe(&f)));
    assert!(run.expects_passed());
}

/// C++ takes declaration specifiers in any order, and real headers use them so: solana's
/// `static const uint8_t __device__ __constant__ sigma[16]`, `static const __device__ T x[]`,
/// atpqc's `__device__ extern const int16_t zetas[128];` before its definition, ndzip's
/// `inline constexpr index_type warp_size = 32;`, luminousmining's `constexpr uint64_t LEN{ 32u };`
/// sppark's `static constexpr size_t __device__ bit_length()` and ktransformers' `static
/// constexpr __device__ int8_t kvalues_iq4nl[16]`. Each value is read back:
/// 6 + 30 + (-758) + 32 + 64 + 32 + 113 = -481.
#[test]
fn specifiers_in_any_order_declare_the_same_variables() {
    let src = r#"
static const unsigned char __device__ __constant__ sigma[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const __device__ int tab[4] = {10, 20, 30, 40};
namespace z { __device__ extern const short zetas[4]; }
namespace z { __device__ const short zetas[4] = {-1044, -758, -359, -1517}; }
namespace gpu { using index_type = unsigned int; inline constexpr index_type warp_size = 32; }
namespace algo { constexpr unsigned long long LEN{ 32u }; }
struct G { static constexpr unsigned __device__ bits() { return 64; } };
static constexpr __device__ signed char kv[4] = {-127, -104, 1, 113};
__global__ void k(int* out) {
    out[0] = sigma[5] + tab[2] + z::zetas[1] + (int)gpu::warp_size + (int)G::bits() + (int)algo::LEN + kv[3];
}
launch k { out = zeros(1); grid = 1; block = 1; expect out == [-481]; }
"#;
    common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// A `const __device__` variable is global memory a kernel may read but not modify: nvcc
/// refuses `lim = 5` ("expression must be a modifiable lvalue"), and a write through a pointer
/// into it is a write to a `const` object. It was a plain `__device__` variable, written.
#[test]
fn a_const_device_variable_is_not_assignable() {
    let src = r#"
const __device__ int lim = 3;
__device__ const float tab[2] = {1.0f, 2.0f};
__global__ void k(float* out) {
    int t = threadIdx.x;
    out[t] = lim + tab[t % 2];
}
launch k { out = zeros(4); expect out == [4, 5, 4, 5]; }
"#;
    common::ok(src, &[], [1, 1, 1], [4, 1, 1]);
    for write in ["lim = 5;", "tab[1] += 1.0f;", "atomicAdd((int*)&lim, 1);"] {
        let bad = src.replace(
            "int t = threadIdx.x;",
            &format!("int t = threadIdx.x; {write}"),
        );
        let f = err(&bad, &[], Some([1, 1, 1]), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::not_assignable"], "{write}");
        let text = f.errors[0].to_string();
        assert!(
            text.contains("a `const __device__` variable"),
            "{write}: {text}"
        );
    }
}

/// `extern __constant__` declared before its definition is the defined variable, initialiser
/// included (the declaration's zeros had shadowed it once unset constants read zeros).
#[test]
fn an_extern_constant_before_its_definition_is_the_definition() {
    let src = r#"
extern __constant__ int z[4];
extern __constant__ float sc;
__constant__ int z[4] = {1, 2, 3, 4};
__constant__ float sc = 2.5f;
__global__ void k(float* out) { out[threadIdx.x] = z[threadIdx.x] + sc; }
launch k { out = zeros(4); expect out == [3.5, 4.5, 5.5, 6.5]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    assert!(
        r.hints.iter().all(|h| h.rule != "unset-constant"),
        "{:?}",
        r.hints
    );
}

#[test]
fn a_file_scope_vector_is_one_element_in_memory() {
    // `ci` is constant memory: `int4 v = ci` is one request, `ci.y` another (a broadcast, one
    // transaction each). `dv` is global memory the kernel writes whole (one 8-byte store),
    // updates (`dv.y += 1`: load and store of one component), reads through `get(dv)` (a
    // reference: 2 loads) and through a pointer (`p->x`: 1 load); `kc` is a `const`
    // `__device__` vector read once. 3 * 5 = 15 is `dv.x * dv.y` after `dv.y` = 5 + 1 = 6: 18.
    let src = r#"
__constant__ int4 ci = {1, 2, 3, 4};
__device__ float2 dv;
__device__ const float4 kc = {1, 2, 3, 4};
__device__ float get(const float2& r) { return r.x * r.y; }
__global__ void k(float* out) {
    int4 v = ci;
    dv = make_float2(3, 5);
    dv.y += 1;
    float2* p = &dv;
    out[0] = v.w; out[1] = ci.y; out[2] = dv.y; out[3] = get(dv); out[4] = p->x; out[5] = kc.z;
}
launch k { out = zeros(6); block = 1; grid = 1; expect out == [4, 2, 6, 18, 3, 3]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let c = r.counters;
    assert_eq!((c.cmem_instr, c.cmem_transactions), (2, 2));
    assert_eq!(c.gst_instr, 2 + 6, "dv twice, out six times");
    assert_eq!(
        c.gld_instr,
        1 + 2 + 1 + 1 + 1,
        "dv.y, get, p->x, out[2]'s dv.y, kc.z"
    );

    // Writes to read-only vectors name the memory they are in.
    let src = r#"
__constant__ int4 ci;
__device__ const float4 kc = {1, 2, 3, 4};
__global__ void k(float* out) { ci.x = 3; kc.y = 2; }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(f.errors[0].to_string().contains("`ci`, a `__constant__`"));
    assert!(f.errors[1]
        .to_string()
        .contains("`kc`, a `const __device__`"));
}

#[test]
fn a_kernel_parameter_hides_the_file_variable_of_its_name() {
    // MatthewNunes' force.cu: `__constant__ float s;` beside `force(..., float s)`. In the
    // kernel `s` is the parameter, so `s = 2` sets it (the file's `s`, which nothing reads,
    // is no parameter of the launch too): o = 2.
    let src = r#"
__constant__ float s;
__global__ void k(float *o, float s) { o[threadIdx.x] = s; }
launch k { o = zeros(32); s = 2.0; expect o == 2.0; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}
