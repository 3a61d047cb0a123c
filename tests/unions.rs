//! Unions, array typedefs, members defined outside their class and brace elision: C++ as kernels write it.

use crate::common;
use common::{codes, err, ok, position};

/// The one diagnostic of a kernel that does not check: its code, message and position.
fn refused(src: &str) -> (String, String, (usize, usize)) {
    let f = err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(f.errors.len(), 1, "{:?}", codes(&f));
    (
        codes(&f).remove(0),
        f.errors[0].inner.to_string(),
        position(&f),
    )
}

/// Writes through one member and reads through another see the same bytes, little-endian.
/// The expected values come from the same code compiled by gcc (x86-64, little-endian):
///
/// ```c
/// union FI { float f; int i; unsigned u; };
/// for (int t = 0; t < 4; t++) {
///     union { float f; int i; } u; u.f = t + 0.5f; out[t] = u.i;
///     union FI w; w.i = 0x3f800000 + t; fo[t] = w.f; w.u += 3; w.f *= 2.0f; out[4 + t] = w.i;
///     union { float s[4]; float elem[4]; } p = {1, 2, 3, 4};   // float4 storage, float[4] view
///     p.elem[1] = t; p.s[3] += 10.0f; fo[4 + t] = p.s[1] + p.elem[3];
/// }
/// ```
///
/// By hand for two of them: 0.5f is 0x3f000000 = 1056964608; 0x3f800001 is 1 + 2^-23
/// (1.00000012), + 3 ulps is 1 + 4·2^-23, doubled 2 + 8·2^-23 = 0x40000004 = 1073741828.
#[test]
fn union_members_read_each_others_bytes() {
    let src = r#"
union FI { float f; int i; unsigned u; };
template <typename T, int N>
struct Packed {
    union { float4 storage; T elem[N]; };
};
__global__ void k(int* out, float* fo) {
    int t = threadIdx.x;
    union { float f; int i; } u;
    u.f = t + 0.5f;
    out[t] = u.i;
    FI w;
    w.i = 0x3f800000 + t;
    fo[t] = w.f;
    w.u += 3;
    w.f *= 2.0f;
    out[4 + t] = w.i;
    Packed<float, 4> p = {1.0f, 2.0f, 3.0f, 4.0f};
    p.elem[1] = t;
    p.storage.w += 10.0f;
    fo[4 + t] = p.storage.y + p.elem[3];
}
launch k {
    out = zeros(8); fo = zeros(8);
    expect out == [1056964608, 1069547520, 1075838976, 1080033280, 1073741827, 1073741828, 1073741829, 1073741830];
    expect fo == [1, 1.00000012, 1.00000024, 1.00000036, 14, 15, 16, 17];
}
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Every union is at known indices: in registers, no local memory traffic.
    assert_eq!(r.counters.local_ld_instr + r.counters.local_st_instr, 0);
}

/// A union in global memory (through a pointer cast) and a run-time index into a union's array
/// member (local memory). From gcc:
///
/// ```c
/// typedef union { float f[2]; int i[2]; } U2;
/// float buf[16]; for (int i = 0; i < 16; i++) buf[i] = i * 0.25f;
/// for (int t = 0; t < 8; t++) { U2* p = (U2*)buf; out[t] = p[t].i[t % 2]; p[t].i[1] += t; }
/// for (int t = 0; t < 4; t++) {
///     union { unsigned w[4]; float f[4]; } v;
///     for (int k = 0; k < 4; k++) v.f[k] = k + t;
///     o2[t] = v.w[(t + 1) % 4];
/// }
/// ```
#[test]
fn unions_in_memory_and_indexed_at_run_time() {
    let src = r#"
typedef union { float f[2]; int i[2]; } U2;
__global__ void k(float* buf, int* out, int* o2) {
    int t = threadIdx.x;
    U2* p = (U2*)buf;
    out[t] = p[t].i[t % 2];
    p[t].i[1] += t;
    if (t < 4) {
        union { unsigned w[4]; float f[4]; } v;
        for (int k = 0; k < 4; k++) v.f[k] = k + t;
        o2[t] = v.w[(t + 1) % 4];
    }
}
launch k {
    buf = arange(16) * 0.25; out = zeros(8); o2 = zeros(4);
    expect out == [0, 1061158912, 1065353216, 1071644672, 1073741824, 1076887552, 1077936128, 1081081856];
    expect buf == [0, 0.25, 0.5, 0.75000006, 1, 1.25000024, 1.5, 1.75000036, 2, 2.25000095, 2.5, 2.75000119, 3, 3.25000143, 3.5, 3.75000167];
    expect o2 == [1065353216, 1077936128, 1084227584, 1077936128];
}
"#;
    let r = ok(src, &[], [1, 1, 1], [8, 1, 1]);
    // `v.w[(t + 1) % 4]` is a run-time index: `v` is in local memory.
    assert!(r.counters.local_ld_instr > 0);
}

/// `_ALIGNAS`, `alignas` and `__align__` set a union's alignment; its size is its largest
/// member's, rounded up to that: `sizeof` of `{ float f; char c[6]; }` aligned 16 is 16.
#[test]
fn aligned_unions_and_their_size() {
    let src = r#"
template <typename T, int N>
union _ALIGNAS(sizeof(T) * N) ablock { T v[N]; };
union __align__(16) A16 { float f; int i; };
union alignas(8) A8 { short s[3]; unsigned short u[3]; };
__global__ void k(float* out, int* sizes, int n) {
    int j = threadIdx.x * 2;
    ablock<float, 2> b;
    b.v[0] = j;
    b.v[1] = j + 1;
    if (j < n) *(ablock<float, 2>*)&out[j] = b;
    sizes[0] = sizeof(ablock<float, 2>);
    sizes[1] = sizeof(A16);
    sizes[2] = sizeof(A8);
}
launch k {
    n = 64; out = zeros(n); sizes = zeros(3);
    expect out == arange(n);
    expect sizes == [8, 16, 8];
}
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

/// Views that split or join the storage's scalars, and a struct of two types around a union
/// read as another type, live in memory as bytes: each view reads its own scalars at its own
/// offsets. By hand (little-endian, as gcc on x86-64 gives):
/// - 1.0 is 0x3ff0000000000000; its high word 0x3ff00000 as a float is 2^0 * (1 + 0x700000 /
///   2^23) = 1.875.
/// - `s.f = 1.0f` is 0x3f800000 = 1065353216, plus the tag 3.
/// - 0x3c004000 as a `half2`: low half 0x4000 = 2.0, high 0x3c00 = 1.0; -2.0 in the low half is
///   0xc000: 0x3c00c000 = 1006682112.
/// - -2.0 is 0xc000000000000000 (hoomd's double seen as two ints): high int 0xc0000000 =
///   -1073741824, low 0.
#[test]
fn views_that_split_scalars_read_the_bytes_in_memory() {
    let src = r#"
union D { double d; float f[2]; };
struct S { int tag; union { float f; int i; }; };
union H {
    uint32_t u;
    half2 h;
    __device__ H(uint32_t v) : u(v) {}
    __device__ H(half2 v) : h(v) {}
};
union I2 { double d; int i[2]; };
__global__ void k(float* out, int* oi) {
    D u;
    u.d = 1.0;
    out[0] = u.f[1];
    S s;
    s.tag = 3;
    s.f = 1.0f;
    oi[0] = s.i + s.tag;
    H h(0x3c004000u);
    out[1] = __low2float(h.h);
    out[2] = __high2float(h.h);
    h.h.x = __float2half(-2.0f);
    oi[1] = h.u;
    half2 v = h.h;
    H g(v);
    oi[2] = g.u - h.u;
    I2 w;
    w.d = -2.0;
    oi[3] = w.i[1];
    oi[4] = w.i[0];
}
launch k {
    out = zeros(3); oi = zeros(5);
    expect out == [1.875, 2, 1];
    expect oi == [1065353219, 1006682112, 0, -1073741824, 0];
}
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // Every view is at a known index: one-element local arrays in registers, no traffic.
    assert_eq!(r.counters.local_ld_instr + r.counters.local_st_instr, 0);
}

#[test]
fn union_mistakes_are_diagnosed() {
    // `{...}` initialises a union's first member, which simt keeps only as its storage.
    let (code, message, _) = refused(
        "union U { int i; float4 v; };\n__global__ void k(float* out) {\n    U u = {1};\n    out[0] = u.v.x;\n}",
    );
    assert_eq!(code, "simt::check::unsupported");
    assert_eq!(
        message,
        "initialising the union `U` through its member `i` is not supported"
    );
}

/// `typedef unsigned int ROW_T[4];` declares arrays: a local, struct members (in registers and
/// in a buffer) and a parameter, which is a pointer to the first element as in C.
/// `x[k] = t + k` for k < 4; s.a = {t, t+1, t+2, t+3} + 10, s.b[2][1] = 7;
/// out[t] = x[3] + s.a[t % 4] + s.b[2][1] + first(x) = (t+3) + (t + t%4 + 10) + 7 + t.
#[test]
fn typedefs_of_array_types_declare_arrays() {
    let src = r#"
typedef unsigned int ROW_T[4];
typedef ROW_T GRID_T[3];
struct S { ROW_T a; GRID_T b; };
__device__ unsigned first(ROW_T r) { return r[0]; }
__global__ void k(unsigned* out, S* soa) {
    unsigned t = threadIdx.x;
    ROW_T x;
    for (int k = 0; k < 4; k++) x[k] = t + k;
    S s;
    for (int k = 0; k < 4; k++) s.a[k] = x[k] + 10;
    s.b[2][1] = 7;
    out[t] = x[3] + s.a[t % 4] + s.b[2][1] + first(x);
    soa->a[t] += t;
    soa->b[2][t % 4] = sizeof(ROW_T) + sizeof(GRID_T);
}
launch k {
    out = zeros(4); soa = zeros(16);
    expect out == [20, 24, 28, 32];
    expect soa == [0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 64, 64, 64, 64];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);

    // The uses of `p` are reported too (as a pointer to `float`, `p[0][1]` indexes a scalar).
    let f = err(
        "typedef float ROW_T[4];\n__global__ void k(const ROW_T* p, float* out) { out[0] = p[0][1]; }",
        &[],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`p`, a pointer or reference to the array type `ROW_T` is not supported"
    );
    assert_eq!(position(&f), (2, 32));
}

/// Members declared in the class and defined after it: a constructor, `operator+=` returning
/// `*this` (also a `volatile` overload), a `const` member, and a template class's member.
/// Acc starts at (0, 0); += a[i] for i < 8 adds 0 + 1 + ... + 7 = 28 and squares 140;
/// Box<float>(t).twice() = 2t.
#[test]
fn members_defined_outside_their_class() {
    let src = r#"
struct Acc {
public:
    Acc();
    float sum;
    float sq;
    Acc& operator +=( float a );
    volatile Acc& operator +=( float a ) volatile;
    __device__ float mean(int n) const;
};
inline __device__ __host__
Acc::Acc()
{
    sum = 0;
    sq = 0;
}
inline __device__ __host__
Acc&
Acc::operator +=( float a )
{
    sum += a;
    sq += a * a;
    return *this;
}
inline __device__ __host__
volatile Acc&
Acc::operator +=( float a ) volatile
{
    sum += a;
    return *this;
}
__device__ float Acc::mean(int n) const { return sum / n; }

template <class T>
struct Box {
    T v;
    __device__ Box(T x);
    __device__ T twice() const;
};
template <class T> __device__ Box<T>::Box(T x) : v(x) {}
template <class T> __device__ T Box<T>::twice() const { return v + v; }

__global__ void k(const float* a, float* out) {
    Acc s;
    for (int i = 0; i < 8; i++) s += a[i];
    Box<float> b(threadIdx.x);
    out[threadIdx.x] = s.sum + s.sq + s.mean(8) + b.twice();
}
launch k {
    a = arange(8); out = zeros(4);
    expect out == [171.5, 173.5, 175.5, 177.5];
}
"#;
    // 28 + 140 + 3.5 + 2t.
    ok(src, &[], [1, 1, 1], [4, 1, 1]);

    let (code, message, _) = refused(
        "__device__ float Nowhere::f() { return 1.0f; }\n__global__ void k(float* out) { out[0] = 0.0f; }",
    );
    assert_eq!(code, "simt::check::unsupported");
    assert_eq!(
        message,
        "the member `Nowhere::f` of a class this file does not define is not supported"
    );
}

/// Brace elision: `{1, 2, 3, 4}` fills a struct whose one member is a `float[4]`, and the
/// values run on into the next members; a braced or whole value takes one member.
/// q = {{t, t+1}, 5, {6, 7}}: out = t + (t+1)·10 + 5·100 + 7·1000.
#[test]
fn brace_elision_fills_nested_members_in_order() {
    let src = r#"
template <typename T, int N>
struct ablock { T v[N]; };
struct Q { float a[2]; float m; float2 b; };
__global__ void k(float* out, float* pairs) {
    float t = threadIdx.x;
    ablock<float, 4> p = {t, 1.0f, 2.0f, 3.0f};
    Q q = {t, t + 1.0f, 5.0f, 6.0f, 7.0f};
    out[threadIdx.x] = q.a[0] + q.a[1] * 10.0f + q.m * 100.0f + q.b.y * 1000.0f + p.v[3] * 0.0f;
    *(ablock<float, 2>*)&pairs[2 * threadIdx.x] = { t, p.v[2] };
}
launch k {
    out = zeros(4); pairs = zeros(8);
    expect out == [7510, 7521, 7532, 7543];
    expect pairs == [0, 2, 1, 2, 2, 2, 3, 2];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);

    // A member whose type has a constructor takes one item, through it: in = In(3) = (3, 6).
    let src = r#"
struct In { float a, b; __device__ In(float x) : a(x), b(2.0f * x) {} };
struct O { In in; float c; };
__global__ void k(float* out) {
    O o = {3.0f, 1.0f};
    out[0] = o.in.a + 10.0f * o.in.b + 100.0f * o.c;
}
launch k { out = zeros(1); expect out == [163]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);

    let (code, message, _) = refused(
        "struct P { float v[2]; };\n__global__ void k(float* out) {\n    P p = {1.0f, 2.0f, 3.0f};\n    out[0] = p.v[0];\n}",
    );
    assert_eq!(code, "simt::check::initialiser");
    assert_eq!(message, "`P` has 2 members; 3 values are given");
}

/// A function returning a reference is a value where read and the element it names where
/// assigned (also by `+=`); the address of a reference parameter is the caller's variable's.
/// v = (t, 1, 2, 3) → v.y = 10, v.z += 5: (t, 10, 7, 3), sum t + 20; s = 4 bumped through
/// `&x` to 5; out[4 + t] = v.x = t. Of the two `vec_at`s, C++ binds a variable to the
/// non-`const` reference: the one that doubles is never called.
#[test]
fn functions_returning_references_read_and_write_the_element() {
    let src = r#"
__device__ float& vec_at(float4& vec, int index) {
    return reinterpret_cast<float*>(&vec)[index];
}
__device__ float vec_at(const float4& vec, int index) {
    return 2.0f * reinterpret_cast<const float*>(&vec)[index];
}
__device__ float& pick(float* a, int i) { if (i < 0) { return a[0]; } return a[i]; }
__device__ void bump(float& x) { float* p = &x; *p += 1.0f; }
__global__ void k(float* out) {
    int t = threadIdx.x;
    float4 v = make_float4(t, 1.0f, 2.0f, 3.0f);
    vec_at(v, 1) = 10.0f;
    vec_at(v, 2) += 5.0f;
    float s = 4.0f;
    bump(s);
    pick(out, 4 + t) = vec_at(v, 0);
    out[t] = v.x + v.y + v.z + v.w + s;
}
launch k { out = zeros(8); expect out == [25, 26, 27, 28, 0, 1, 2, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

/// A buffer of unions is a buffer of their storage type: `Bits* all` takes floats, and a copy
/// read through the other member gives their bits (2.0f is 0x40000000; 5.0f 0x40a00000;
/// -6.0f 0xc0c00000; 0.1f is 0x3dcccccd, doubled 0x3e4ccccd, an exponent step).
/// (Until unions, this kernel was the bad-input case `check_union.sk`.)
#[test]
fn a_buffer_of_unions_holds_their_storage() {
    let src = r#"
union Bits { float f; unsigned int u; };
__global__ void k(Bits* all, unsigned int* out) {
    Bits b = all[threadIdx.x];
    b.f *= 2.0f;
    out[threadIdx.x] = b.u;
}
launch k {
    all = [1.0, 2.5, -3.0, 0.1]; out = zeros(4);
    expect out == [0x40000000, 0x40a00000, 0xc0c00000, 0x3e4ccccd];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn atomics_of_either_width_apply_to_a_union_of_integer_words() {
    // altis' GUPS word: a 64-bit integer seen as two 32-bit ones. Its memory is 32-bit words
    // (not bytes), so both atomics apply: lane i adds 5 to words 2i (low) and 2i + 1 as one
    // 64-bit value, then flips bit 0 of word 2i + 1: t[i].u64 = 5 + 2^32 = 4294967301.
    let src = r#"
typedef union {
    unsigned long long u64;
    uint2 u32;
} word;
__global__ void k(word* t, unsigned long long* out) {
    int i = threadIdx.x;
    atomicAdd(&t[i].u64, 5ull);
    atomicXor(&t[i].u32.y, 1u);
    out[i] = t[i].u64;
}
launch k {
    t = zeros(64);
    out = zeros(32);
    expect out == 4294967301;
    expect sum(t) == 32 * 6;
}
"#;
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    // Two atomic requests: 32 × 8 bytes (8 sectors), then every other word (8 sectors).
    assert_eq!((c.gatom_instr, c.gatom_sectors), (2, 16));
}

#[test]
fn anonymous_struct_and_union_types_with_declarators() {
    let src = r#"
__global__ void k(float* out) {
    struct { int a; float b; } s, t;
    s.a = threadIdx.x;
    s.b = 0.5f;
    t = s;
    __shared__ union { float f[32]; int i[32]; } u;
    __shared__ struct { float x; int n; } pair;
    if (threadIdx.x == 0) { pair.x = 2.0f; pair.n = 3; }
    u.f[threadIdx.x] = t.a + t.b;
    __syncthreads();
    out[threadIdx.x] = u.f[31 - threadIdx.x] * pair.x + pair.n + (u.i[0] == 0x3f000000);
}
launch k { out = zeros(32); expect out == (31 - arange(32) + 0.5) * 2 + 3 + 1; }
"#;
    // Thread t stores t + 0.5 in u.f[t]; thread t reads u.f[31 - t] = 31 - t + 0.5, times
    // pair.x = 2, plus pair.n = 3, plus 1 since u.i[0] holds the bits of 0.5f, 0x3f000000.
    let c = ok(src, &[], [1, 1, 1], [32, 1, 1]).counters;
    // One shared store of u.f per warp, one of each pair member by thread 0, then one load of
    // u.f, u.i and each pair member: 2 + 1 + 4 = 7 shared instructions.
    assert_eq!(c.smem_instr, 7);
}

#[test]
fn an_anonymous_union_in_a_function_body_makes_its_members_names_of_the_block() {
    let src = r#"
#include <stdint.h>
__global__ void k(short* out, signed char* bytes) {
    union { int8_t int8[2]; int16_t int16; };
    int8[0] = 3; int8[1] = 1;
    out[0] = int16;
    int16 = -2;
    bytes[0] = int8[0]; bytes[1] = int8[1];
    { int int16 = 7; out[1] = int16; }
    out[2] = int16;
    union { float f; unsigned int u; };
    f = 1.0f; out[3] = (short)(u >> 16);
}
launch k {
    out = zeros(4); bytes = zeros(2);
    // g++ (x86-64, little-endian as the GPU) runs the same body and prints these. By hand:
    // bytes 3, 1 are the int16_t 1 * 256 + 3 = 259; -2 is 0xfffe, bytes 0xfe, 0xff (-2, -1);
    // the local `int16` of the inner block hides the member there (7), not after it (-2);
    // the second union's 1.0f is 0x3f800000, its high half 0x3f80 = 16256.
    expect out == [259, 7, -2, 16256];
    expect bytes == [-2, -1];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_anonymous_unions_members_are_unknown_after_its_block() {
    let src = r#"
__global__ void k(int* out) {
    {
        union { int a; float b; };
        a = 1;
    }
    out[0] = a;
}
launch k { out = zeros(1); }
"#;
    let (code, _, at) = refused(src);
    assert_eq!((code.as_str(), at), ("simt::check::unknown_name", (7, 14)));
}

#[test]
fn an_anonymous_struct_in_a_union_and_an_enum_in_a_body() {
    // GPUJPEG's `union PackedInteger { struct __align__(8) { int16_t hShort1; int16_t hShort2; };
    // int32_t hInt; };`: the struct's members are the union's, at its offsets. Writing
    // lo = 1, hi = 2 makes the 32-bit word 2 * 65536 + 1 = 131073 (little-endian), and sizeof
    // is 8 (the struct's alignment). The body's `enum { N = 4, M = N * 2 }` gives M = 8; the
    // named `enum E { A = 3, B }` gives B = 4 and a type `E`.
    let src = r#"
union Packed { struct __align__(8) { short lo; short hi; }; int all; };
union V2 { struct { float x, y; }; float v[2]; };
__global__ void k(int* o, float* f) {
    enum { N = 4, M = N * 2 };
    enum E { A = 3, B };
    Packed p;
    p.lo = 1;
    p.hi = 2;
    o[0] = p.all;
    o[1] = sizeof(Packed);
    o[2] = M;
    E e = B;
    o[3] = e;
    __shared__ int s[M];
    s[0] = N;
    o[4] = s[0] + (int)(sizeof(s) / sizeof(int));
    V2 w;
    w.v[0] = 1.5f;
    w.y = 2.5f;
    f[0] = w.x;
    f[1] = w.v[1];
}
launch k { o = zeros(5); f = zeros(2); expect o == [131073, 8, 8, 4, 12]; expect f == [1.5, 2.5]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_anonymous_struct_in_an_anonymous_union_of_a_class_template() {
    // InfiniTAM's `Vector2_<T>`: `union { struct { T x, y; }; T v[2]; };`, its operators
    // written with `return rv += rhs;` through a friend `operator+=`, and a parameter of it
    // set member by member in the launch (`d.x = 5;`, not `d.union@...`).
    // By hand: a = (3, 4) through x and v[1]; a + a = (6, 8) → o[0] = v[0] + y = 6 + 8 = 14;
    // o[1] = d.x * d.y = 30; twice(5) = 10 by `return n += n;` on an int.
    let src = r#"
template <class T> struct Vector2_ {
    union {
        struct { T x, y; };
        T v[2];
    };
};
template <class T> struct Vector2 : public Vector2_<T> {
    __device__ friend Vector2<T> &operator += (Vector2<T> &lhs, const Vector2<T> &rhs) {
        lhs.x += rhs.x; lhs.y += rhs.y; return lhs;
    }
    __device__ friend Vector2<T> operator + (const Vector2<T> &lhs, const Vector2<T> &rhs) {
        Vector2<T> rv(lhs); return rv += rhs;
    }
};
__device__ int twice(int n) { return n += n; }
__global__ void k(const Vector2_<int> d, int* o) {
    Vector2<int> a; a.x = 3; a.v[1] = 4;
    Vector2<int> b = a + a;
    o[0] = b.v[0] + b.y; o[1] = d.x * d.y; o[2] = twice(d.x);
}
launch k { d.x = 5; d.y = 6; o = zeros(3); grid = 1; block = 1; expect o == [14, 30, 10]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_array_of_vectors_in_a_struct_or_union_is_indexed_through_memory() {
    // ethminer's `union hash32_t { uint64_t words[4]; uint2 uint2s[4]; uint4 uint4s[2]; }`,
    // read as `d_header.uint4s[0]` of a `__constant__` one (set as 8 words, 0..7) and
    // `d_light[i].uint4s[t]` of a buffer of them. `in` holds two 32-byte unions, 0..15 as 32-bit words: union k's `v[j]` is
    // words 8k + 4j .. 8k + 4j + 3. Thread t reads union t / 2, vector t % 2, so out == in.
    let src = r#"
union U { unsigned long long words[4]; uint4 v[2]; };
__constant__ U c_head;
__global__ void k(const U* in, uint4* out, uint4* head) {
    int t = threadIdx.x;
    out[t] = in[t / 2].v[t % 2];
    if (t == 0) { head[0] = c_head.v[1]; head[1] = c_head.v[0]; }
}
launch k {
    in = arange(16); out = zeros(16); head = zeros(8);
    c_head = arange(8);
    expect out == arange(16);
    expect head == [4, 5, 6, 7, 0, 1, 2, 3];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // `float a; float4 v[2];`: `v` starts at byte 16 (a float4's alignment), the struct is 48
    // bytes, 12 floats; struct i's v[0] is floats 12i + 4 .. 12i + 7, v[1] 12i + 8 .. 12i + 11.
    // `&s[i].v[1]` is a `float4*`: p->y is float 12i + 9, (p - 1)->w float 12i + 7, and
    // s[i].v[0].z float 12i + 6; their sum is 36i + 22. Each thread then overwrites v[i % 2].
    let src = r#"
struct S { float a; float4 v[2]; };
__global__ void k(S* s, float* out) {
    int i = threadIdx.x;
    float4* p = &s[i].v[1];
    out[i] = p->y + s[i].v[0].z + (p - 1)->w;
    s[i].v[i % 2] = make_float4(-1, -1, -1, -1);
}
launch k {
    s = arange(48); out = zeros(4);
    expect out == 36 * arange(4) + 22;
    expect sum(s) == 1128 - (4 + 5 + 6 + 7) - (20 + 21 + 22 + 23) - (28 + 29 + 30 + 31) - (44 + 45 + 46 + 47) - 16;
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn the_address_of_a_vector_in_a_struct_reads_the_same_however_it_is_used() {
    // `struct A { unsigned a; uint2 v[2]; }` is 6 words: a, padding, v[0].x, v[0].y, v[1].x,
    // v[1].y; struct i holds 10i + (0, 0, 1, 2, 3, 4). Every form below reads v[1].y = 10i + 4
    // or v[1].x = 10i + 3: a declared pointer, `auto`, `->` and `[]` on the address, the decayed
    // member plus one, and a `const uint2*` parameter of a helper.
    let src = r#"
struct A { unsigned a; uint2 v[2]; };
__device__ unsigned gety(const uint2* p) { return p[1].y; }
__global__ void k(A* a, unsigned* o) {
    int i = threadIdx.x;
    uint2* d = &a[i].v[0];
    auto p = &a[i].v[0];
    uint2* t = a[i].v + 1;
    uint2 e = *(&a[i].v[1]);
    o[7*i+0] = d[1].y;
    o[7*i+1] = p[1].y;
    o[7*i+2] = (&a[i].v[1])->y;
    o[7*i+3] = (&a[i].v[0])[1].x;
    o[7*i+4] = t->x;
    o[7*i+5] = e.y;
    o[7*i+6] = gety(&a[i].v[0]);
}
launch k {
    a = [0, 0, 1, 2, 3, 4, 10, 0, 11, 12, 13, 14]; o = zeros(14);
    expect o == [4, 4, 4, 3, 3, 4, 4, 14, 14, 14, 13, 13, 14, 14];
}
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_union_is_named_with_its_keyword_as_c_writes_it() {
    // luminousmining's hash.hpp: `union u_hash1024 { union u_hash512 h512[2]; ... };` and
    // `using hash256 = union u_hash256;`. b.h[1] is b.w[2..4]: w[1] of it is b.w[3] = 5 and
    // v[1] the high half of b.w[2], 7; TB is 32 bytes, c.v[0] the low half of 1.
    let src = r#"
union u_a { unsigned long long w[2]; unsigned int v[4]; };
union u_b { union u_a h[2]; unsigned long long w[4]; };
typedef union u_a TA;
using TB = union u_b;
__global__ void k(unsigned long long* out) {
    TB b; b.w[3] = 5; b.w[2] = 0x0000000700000009ULL;
    union u_a a = b.h[1];
    TA c; c.w[0] = 1;
    out[0] = a.w[1] + sizeof(TB) + a.v[1] + c.v[0];
}
launch k { out = zeros(1); grid = 1; block = 1; expect out == [45]; }
"#;
    common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
}
