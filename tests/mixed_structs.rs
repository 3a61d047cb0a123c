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
