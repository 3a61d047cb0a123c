//! Structs whose members differ in type, in memory as C lays them out: each member an access of its own size at its byte offset.

use crate::common;
use common::ok;

/// `struct S { half d; uint8_t q[3]; float f; }`: `d` at byte 0, `q` at 2..4, one byte of
/// padding, `f` at 8 (`float` is 4-aligned), `sizeof` 12. A buffer of them is bytes.
const S: &str = r#"
struct S { half d; uint8_t q[3]; float f; };
__global__ void w(S* s) {
    int t = threadIdx.x;
    s[t].d = __float2half(1.0f);
    for (int k = 0; k < 3; k++) s[t].q[k] = t + k;
    s[t].f = 2.0f;
}
__global__ void r(const S* s, float* out) {
    int t = threadIdx.x;
    out[t] = __half2float(s[t].d) + s[t].q[1] + s[t].f;
}
"#;

#[test]
fn a_struct_buffer_is_its_bytes_as_c_lays_them_out() {
    // 1.0 in half is 0x3c00 (bytes 0x00 0x3c = 0 60); 2.0f is 0x40000000 (bytes 0 0 0 64,
    // little-endian); the padding byte 5 and bytes 6, 7 stay zero.
    let mut want = Vec::new();
    for t in 0..4 {
        want.extend([0, 60, t, t + 1, t + 2, 0, 0, 0, 0, 0, 0, 64].map(|b| b.to_string()));
    }
    let src = format!(
        "{S}launch w {{ s = zeros(12 * 4); expect s == [{}]; }}",
        want.join(", ")
    );
    ok(&src, &[], [1, 1, 1], [4, 1, 1]);

    // Block 0: d = 1, q[1] = 1, f = 2: 4. Block 1: d = 0x4000 = 2.0, q[1] = 7, f = 0x41000000
    // = 8.0: 17.
    let src = format!(
        "{S}launch r {{ s = [0, 60, 0, 1, 2, 0, 0, 0, 0, 0, 0, 64, 0, 64, 0, 7, 2, 0, 0, 0, 0, 0, 0, 65]; out = zeros(2); expect out == [4, 17]; }}"
    );
    ok(&src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn each_member_is_an_access_of_its_own_size_at_its_byte_address() {
    // One warp, lane t writing struct t (bytes 12t ..): `d` is 2 bytes at 12t, `q[k]` 1 byte
    // at 12t + 2 + k, `f` 4 bytes at 12t + 8. None crosses a 32-byte sector, and each spans
    // sectors floor(12t / 32) .. floor((12 * 31 + 11) / 32) = 0 .. 11 with steps of 12 < 32,
    // so every one of the 12 sectors: 5 stores of 12 sectors; requested 32 * (2 + 3 + 4) bytes.
    let src = format!("{S}launch w {{ s = zeros(12 * 32); }}");
    let c = ok(&src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gst_instr, c.gst_sectors), (5, 60));
    assert_eq!(c.g_bytes_requested, 288);
}

/// ggml's `block_q4_0` (18 bytes), behind a `void*` the kernel passes on uncast: the function
/// casts it, and the kernel's buffer is bytes.
#[test]
fn a_void_pointer_cast_only_in_a_callee_is_bytes() {
    let src = r#"
typedef struct { half d; uint8_t qs[16]; } block_q4_0;
__device__ float first(const void* vx, int ib) {
    const block_q4_0* x = (const block_q4_0*) vx;
    return __half2float(x[ib].d) * x[ib].qs[0];
}
__global__ void k(const void* vx, float* out) {
    out[threadIdx.x] = first(vx, threadIdx.x);
}
launch k { vx = arange(18 * 32) % 256; out = zeros(32); }
"#;
    // Lane t reads `d`, 2 bytes at 18t, and `qs[0]`, 1 byte at 18t + 2: sectors floor(18t / 32)
    // and floor((18t + 2) / 32) for t < 32 run 0 .. 17 in steps of 18 < 32, every one: 18
    // sectors per load. The store of 32 floats is 4.
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 36));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 4));

    // Bytes are k % 256. Block 0: d has bytes 0, 1 (0x0100, the subnormal 256 * 2^-24 =
    // 2^-16), qs[0] = 2: 2^-15 = 3.0517578125e-05. Block 1: bytes 18, 19 (0x1312: exponent 4,
    // mantissa 0x312 = 786), 2^-11 * (1 + 786 / 1024) = 0.00086307525634765625, times qs[0] =
    // 20: 0.017261505126953125 (numpy's `view` of the same bytes as a structured dtype agrees).
    let src = src.replace(
        "out = zeros(32); }",
        "out = zeros(2); expect out == [3.0517578125e-05, 0.017261505126953125]; }",
    );
    ok(&src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn shared_structs_count_banks_by_byte_address() {
    let src = r#"
struct T { float f; char c; };
__global__ void k(float* out) {
    __shared__ T m[32];
    int t = threadIdx.x;
    m[t].f = t;
    m[t].c = t;
    __syncthreads();
    out[t] = m[31 - t].f + m[31 - t].c;
}
launch k { out = zeros(32); expect out == 2 * (31 - arange(32)); }
"#;
    // sizeof(T) is 8: `f` is word 2t, `c` a byte of word 2t + 1. Both are in bank 2t mod 32
    // (or 2t + 1), so lanes t and t + 16 want two words of one bank: each of the 2 stores and
    // 2 loads takes 2 wavefronts where 1 would do: 4 instructions, 8 wavefronts, 4 conflicts.
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (4, 8, 4)
    );
}

#[test]
fn local_arrays_of_structs_and_run_time_indices_into_array_members() {
    // pytorch3d's `Pix`, filled through a template function taking a pointer.
    let src = r#"
struct Pix { float z; int idx; float d; };
struct A { float v[4]; int n; };
template <typename T>
__device__ void put(T* q, int i, float v) { q[i] = {v, i, 2 * v}; }
__global__ void k(float* out, int* oi, int j) {
    Pix q[4];
    int t = threadIdx.x;
    put(q, t % 4, 1.5f);
    out[t] = q[t % 4].z + q[t % 4].d;
    oi[t] = q[t % 4].idx;
    A a = {{1, 2, 3, 4}, 4};
    out[4 + t] = a.v[j] + a.n;
}
launch k { out = zeros(8); oi = zeros(4); j = 2; expect out == [4.5, 4.5, 4.5, 4.5, 7, 7, 7, 7]; expect oi == [0, 1, 2, 3]; }
"#;
    // Both run-time indexed: local memory. Stores: 3 members of q[t % 4], 5 of a; loads: 3
    // of q, a.v[j] and a.n.
    let c = ok(src, &[], [1, 1, 1], [4, 1, 1]).counters;
    assert_eq!((c.local_st_instr, c.local_ld_instr), (8, 5));
}

#[test]
fn atomics_on_members_of_a_struct_held_as_bytes_change_the_members_bytes() {
    // `Acc { float sum; int count; double w; }` is 16 bytes: `sum` at 0, `count` at 4, `w` at
    // 8. 64 threads each add 1.0f to a[0].sum (64.0f = 0x42800000: bytes 0 0 128 66), 1 to
    // a[0].count (64: bytes 64 0 0 0) and 0.5 to a[1].w (32.0 = 0x4040000000000000: bytes
    // 24..29 zero, then 64 64). a[0].w and a[1]'s other members stay zero.
    let src = r#"
struct Acc { float sum; int count; double w; };
__global__ void k(Acc* a) {
    atomicAdd(&a->sum, 1.0f);
    atomicAdd(&a[0].count, 1);
    atomicAdd(&a[1].w, 0.5);
}
launch k {
    a = zeros(32);
    expect a == [0, 0, 128, 66, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 64];
}
"#;
    ok(src, &[], [2, 1, 1], [32, 1, 1]);
}

#[test]
fn a_file_scope_struct_initialiser_fills_each_member_at_its_offset() {
    // Each value is converted to its member's type and written at the member's offset, as the
    // compiler writes the symbol: `S` is bytes (`float` at 0, `char` at 4, `int` at 8), `V` is
    // floats (`float3` at 0, `r` at 12), `H` is bytes (half 1.0 = 0x3c00 at 0, short -2 at 2,
    // double 0.25 at 8). A missing element is `{}`: `D`'s default member initialiser gives
    // `a = 3`, `b = 0`. `U`'s `{1.0f}` initialises `f`, whose bits read as `u` are 0x3f800000 =
    // 1065353216.
    let src = r#"
struct S { float a; char c; int b; };
struct V { float3 p; float r; };
struct H { __half h; short s; double d; };
struct D { float a = 3.0f; int b; };
union U { float f; unsigned u; };
__constant__ S cs = {2.5f, 'x', 7};
__device__ S ds[2] = {{1.5f, 'a', 2}, {3.5f, 'b', 4}};
__constant__ V cv[3] = {{{1, 2, 3}, 4}, {}, {{5, 6, 7}, 8}};
__device__ H dh = {1.0, -2, 0.25};
__device__ D dd[2] = {{1.5f, 2}};
__constant__ U cu = {1.0f};
__global__ void k(float* o) {
    o[0] = cs.a; o[1] = cs.c; o[2] = cs.b;
    o[3] = ds[1].a; o[4] = ds[1].c; o[5] = ds[0].b;
    o[6] = cv[0].p.y; o[7] = cv[1].r; o[8] = cv[2].p.z; o[9] = cv[2].r;
    o[10] = __half2float(dh.h); o[11] = dh.s; o[12] = dh.d;
    o[13] = dd[0].a; o[14] = dd[1].a; o[15] = dd[1].b;
    o[16] = cu.u;
}
launch k {
    grid = 1; block = 1; o = zeros(17);
    expect o == [2.5, 120, 7, 3.5, 98, 2, 2, 0, 7, 8, 1, -2, 0.25, 1.5, 3, 0, 1065353216];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_file_scope_struct_array_without_element_braces_is_refused() {
    // `{1.5f, 2, 3.5f, 4}` would fill `a`, `b` of element 0, then of element 1 (brace
    // elision); read one element per value it would be wrong, so it is refused.
    let src = r#"
struct S { float a; int b; };
__device__ S s[2] = {1.5f, 2, 3.5f, 4};
__global__ void k(float* o) { o[0] = s[1].a; }
"#;
    let f = common::err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(
        f.errors[0].to_string().contains("without their braces"),
        "{}",
        f.errors[0]
    );
    // The same in a row of a 2-D array: `{1, 2}` is the members of c[0][0] in C (c[0][0] =
    // {1, 2}, c[0][1] = {0, 0}), never c[0][0].x = 1, c[0][1].x = 2.
    let src = r#"
struct S { int x; int y; };
__constant__ S c[2][3] = { {1, 2}, {3, 4} };
__global__ void k(int* o) { o[0] = c[0][1].x; }
"#;
    let f = common::err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(f.errors[0].to_string().contains("without their braces"));
    // A struct simt refuses (a bit-field) is refused with its initialiser, not read.
    let src = r#"
struct R { unsigned a : 3; unsigned b : 5; };
__device__ R r = {5, 17};
__global__ void k(float* o) { o[0] = r.a + r.b * 100; }
"#;
    let f = common::err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(
        f.errors[0].to_string().contains("bit-field"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn file_scope_arrays_of_structs_of_two_dimensions_reach_members_and_rows() {
    // `cv[1][0]` is element 1 * 2 + 0 = 2 of the buffer; a row missing from a list is `{}`
    // (`cv[0][1]` all zeros, `dm[1][2]` too until the kernel stores 9). `cf[1]` decays to a
    // pointer to row 1 (`row[2]` = 7), `cf[0]` to row 0 (`r[0] + r[3]` = 1 + 4 = 5).
    let src = r#"
struct V { float3 p; float r; };
struct M { float a; int b; };
__constant__ V cv[2][2] = {{{{1, 2, 3}, 4}}, {{{5, 6, 7}, 8}, {{9, 10, 11}, 12}}};
__device__ M dm[2][3] = {{{1.5f, 1}, {2.5f, 2}}, {{3.5f, 3}}};
__constant__ float cf[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
__device__ float sum(const float* r) { return r[0] + r[3]; }
__global__ void k(float* o) {
    o[0] = cv[0][0].p.y; o[1] = cv[0][1].r; o[2] = cv[1][1].p.z; o[3] = cv[1][0].r;
    o[4] = dm[0][1].a; o[5] = dm[1][0].b; o[6] = dm[1][2].a;
    const float* row = cf[1];
    o[7] = row[2]; o[8] = sum(cf[0]);
    dm[1][2].a = 9; o[9] = dm[1][2].a;
}
launch k { grid = 1; block = 1; o = zeros(10); expect o == [2, 0, 11, 8, 2.5, 3, 0, 7, 5, 9]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}
