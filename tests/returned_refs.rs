//! Writes through member functions and operators that return a reference (`v[k] = x`, `m[c][r] += y`, `v.at(k)++`).

use crate::common;
use common::{codes, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn member_operators_and_functions_returning_a_reference_are_assignable() {
    let src = r#"
struct V {
    float data[4];
    __device__ float& operator[](int i) { return data[i]; }
    __device__ float& at(int i) { return data[i]; }
    __device__ float& x() { return data[0]; }
};
__global__ void k(float* out) {
    V v;
    for (int i = 0; i < 4; i++) v[i] = i;
    v.at(1) = 10.0f;
    v.x() = 5.0f;
    v[2] += 3.0f;
    v[3]++;
    ++v[3];
    v.at(1) -= 0.5f;
    for (int i = 0; i < 4; i++) out[i] = v[i];
}
launch k {
    out = zeros(4);
    expect out == [5, 9.5, 5, 5];
}
"#;
    // data = [0, 1, 2, 3]; at(1) = 10 then -= 0.5 gives 9.5; x() = 5 sets data[0]; data[2] =
    // 2 + 3; data[3] = 3 + 1 + 1.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_template_element_operator_writes_its_payload() {
    let src = r#"
template <class ElementType>
struct alignas(16) Packed {
    ElementType payload[16 / sizeof(ElementType)];
    __device__ ElementType& operator[](int index) { return payload[index]; }
    __device__ const ElementType& operator[](int index) const { return payload[index]; }
};
__global__ void k(int* out) {
    Packed<int> p;
    for (int k = 0; k < 4; k++) p[k] = 10 * k;
    p[3] += 1;
    for (int k = 0; k < 4; k++) out[k] = p[k];
}
launch k {
    out = zeros(4);
    expect out == [0, 10, 20, 31];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn glm_matrix_elements_are_written_through_both_operators() {
    let src = r#"
#include <glm/glm.hpp>
__global__ void k(float* out) {
    glm::mat3 S = glm::mat3(1.0f);
    S[0][0] = 2.0f;
    S[1][1] += 3.0f;
    S[2][1] = 7.0f;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out[c * 3 + r] = S[c][r];
}
launch k {
    out = zeros(9);
    expect out == [2, 0, 0, 0, 4, 0, 0, 7, 1];
}
"#;
    // mat3(1) is the identity; S[c][r] is column c, row r (out[3c + r]): S[0][0] = 2,
    // S[1][1] = 1 + 3, S[2][1] = 7 (out[7]), S[2][2] stays 1.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_write_through_operator_index_of_a_struct_buffer_counts_the_member_access() {
    let kernel = |write: &str| {
        format!(
            r#"
struct P {{
    float v[4];
    __device__ float& operator[](int i) {{ return v[i]; }}
}};
__global__ void k(P* p) {{
    int t = threadIdx.x;
    {write}
}}
launch k {{
    p = zeros(128);
    expect p[5] == 1;
    expect p[6] == 1;
}}
"#
        )
    };
    // P is 16 bytes; lane t writes byte 16t + 4 (and reads and writes 16t + 8): 32 lanes span
    // 512 bytes, 16 sectors per request, as `p[t].v[1]` does. Struct 1 (floats 4..8) gets
    // v[1] = 1 and v[2] = 0 + 1.
    let through = ok(
        &kernel("p[t][1] = t;\n    p[t][2] += 1.0f;"),
        &[],
        ONE,
        [32, 1, 1],
    )
    .counters;
    let direct = ok(
        &kernel("p[t].v[1] = t;\n    p[t].v[2] += 1.0f;"),
        &[],
        ONE,
        [32, 1, 1],
    )
    .counters;
    assert_eq!((through.gld_instr, through.gld_sectors), (1, 16));
    assert_eq!((through.gst_instr, through.gst_sectors), (2, 32));
    assert_eq!(
        (
            through.gld_sectors,
            through.gst_sectors,
            through.g_bytes_requested
        ),
        (
            direct.gld_sectors,
            direct.gst_sectors,
            direct.g_bytes_requested
        )
    );
}

#[test]
fn a_reference_into_a_struct_in_registers_is_refused_where_it_is_taken() {
    let src = "struct W { float x, y;\n    __device__ float& operator[](int i) { return i == 0 ? x : y; }\n};\n__global__ void k(float* out) {\n    W w;\n    w[1] = 2.0f;\n    out[0] = w.y;\n}";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert_eq!(position(&f), (6, 5));
    assert!(f.errors[0].to_string().contains("held in registers"));
}

#[test]
fn a_reference_through_a_by_value_structs_pointer_is_memory() {
    // colmap's `GpuMatView<T>` (passed by value, so in registers): `GetRef(row, col)` returns
    // `GetRef(row, col, 0)`, which returns `*(ptr + ...)` into global memory; `Set` assigns
    // through it. By hand: a[t] = 2t. A reference to a member of a struct in registers stays
    // refused (it has no address).
    let src = r#"
template <typename T>
struct View {
  T* const ptr;
  const unsigned long n;
  __device__ T& GetRef(const unsigned long i, const unsigned long j) { return *(ptr + i + j); }
  __device__ T& GetRef(const unsigned long i) { return GetRef(i, 0); }
  __device__ void Set(const unsigned long i, const T v) { GetRef(i) = v; }
};
__global__ void k(View<float> v) {
  if (threadIdx.x < v.n) v.Set(threadIdx.x, 2.0f * threadIdx.x);
}
launch k { a = zeros(8); v.ptr = a; v.n = 8; block = 8; grid = 1; expect a == arange(8) * 2; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
    let member = r#"
struct V { float x, y; __device__ float& X() { return x; } };
__global__ void k(float* a) { V v; v.x = 1; v.y = 2; v.X() = 5; a[threadIdx.x] = v.x; }
launch k { a = zeros(2); block = 2; grid = 1; }
"#;
    let f = err(member, &[], Some([1, 1, 1]), Some([2, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_call_operator_returning_a_reference_is_assigned_through() {
    // OpenCV's PtrStep<T>: `T& operator()(int y, int x) { return ptr(y)[x]; }`, row y at byte
    // y * step; `u_avg(y, x) = v;`. Rows of 8 floats (step 32 bytes): m(0, t) = t writes
    // data[t], m(1, t) += 2t adds to data[8 + t] (initially 1), and reading m(1, t) back gives
    // 1 + 2t for out.
    let src = r#"
template <typename T> struct Step
{
    T* data;
    size_t step;
    __device__ T* ptr(int y = 0) { return (T*)((char*)data + y * step); }
    __device__ T& operator ()(int y, int x) { return ptr(y)[x]; }
};
__global__ void k(Step<float> m, float* out) {
    int t = threadIdx.x;
    m(0, t) = t;
    m(1, t) += 2 * t;
    out[t] = m(1, t);
}
launch k {
    m.data = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]; m.step = 32; out = zeros(8);
    expect m.data == [0, 1, 2, 3, 4, 5, 6, 7, 1, 3, 5, 7, 9, 11, 13, 15];
    expect out == 1 + 2 * arange(8);
}
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn the_address_of_a_returned_struct_reference_is_the_struct_in_memory() {
    // colmap's InitRandomStateKernel: `curand_init(id, 0, 0, &output.GetRef(row, col))`,
    // GetRef returning `T&` of a struct T. Here p = &v.GetRef(t) and p->b = t + 1: the b of
    // struct t, component 2t + 1, of four structs of two floats.
    let src = r#"
struct S { float a, b; };
template <typename T> struct View
{
    T* ptr;
    __device__ T& GetRef(const size_t i) { return ptr[i]; }
};
__global__ void k(View<S> v) {
    S* p = &v.GetRef(threadIdx.x);
    p->b = threadIdx.x + 1;
}
launch k { v.ptr = zeros(8); expect v.ptr == [0, 1, 0, 2, 0, 3, 0, 4]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// badslam's `CUDABuffer_<T>::operator()(y, x)` returns `T&`: read and written whole for
/// vectors (`uchar4`, `float2`) and the three-component ones simt keeps as structs (`uchar3`),
/// through the call operator, a named member and a free function. Pixel (y, x) of a 2 × 2
/// buffer is `y * 2 + x`: brightness writes (r + g + b, 0, 0, 255) of pixel 1's (3, 4, 5) = 12;
/// `at(d, 1)` swaps pixel 1's components, (7, 6).
#[test]
fn a_returned_reference_to_a_vector_is_read_and_written_whole() {
    let src = r#"
template <typename T> struct Buf {
    T* data; int pitch;
    __device__ T& operator()(int y, int x) { return data[y * pitch + x]; }
    __device__ T& get(int i) { return data[i]; }
};
__device__ float2& at(float2* a, int i) { return a[i]; }
__global__ void k(Buf<uchar3> in, Buf<uchar4> out, float2* d) {
    uchar3 c = in(0, 1);
    out(1, 0) = make_uchar4(c.x + c.y + c.z, 0, 0, 255);
    uchar4 o = out.get(2);
    out.get(3) = make_uchar4(o.w, o.z, o.y, o.x);
    float2 v = at(d, 1);
    at(d, 1) = make_float2(v.y, v.x);
}
launch k {
    px = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]; in.data = px; in.pitch = 2;
    q = zeros(16); out.data = q; out.pitch = 2;
    d = [1, 2, 6, 7];
    grid = 1; block = 1;
    expect q == [0, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 255, 255, 0, 0, 12];
    expect d == [1, 2, 7, 6];
}
"#;
    // A `uchar3` (a struct in simt) is read member by member, 3 loads; each `uchar4` and
    // `float2` is one vector access: 3 + 1 + 1 loads, 3 stores.
    let r = common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (5, 3));
}

/// A member function returning a pointer or reference to an element of the struct's own
/// vector array (`return &v[i];`, `return v[i];` of a `float2 v[4]`) counts vectors, as its
/// `float2*` does: s[1] is (1, 10), at(2) is (2, 20) (they read v[2] and v[4] of floats before,
/// and a `float4` one ran off the end).
#[test]
fn a_returned_pointer_into_a_vector_array_member_counts_vectors() {
    let src = r#"
struct S {
    float2 v[4];
    __device__ float2& operator[](int i) { return v[i]; }
    __device__ float2* at(int i) { return &v[i]; }
};
__global__ void k(float* out) {
    S s;
    for (int i = 0; i < 4; i++) s.v[i] = make_float2(i, 10 * i);
    float2 r = s[1];
    s[0] = make_float2(5, 6);
    float2 q = *s.at(2);
    out[0] = r.x; out[1] = r.y; out[2] = s.v[0].x; out[3] = s.v[0].y; out[4] = q.x; out[5] = q.y;
}
launch k { out = zeros(6); grid = 1; block = 1; expect out == [1, 10, 5, 6, 2, 20]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// A component of a returned vector reference is a place of its own (`b.at(t).x += 1.0f`: it
/// said "cannot assign to a built-in variable"), and a compound assignment to the whole
/// reference calls the file's `operator+=` or `operator+` (it said "unknown function
/// `make_float2`"). Element t starts (t, 0): x += 1 gives t + 1, then y = 2 + x = t + 3, and
/// the operator adds (10, 20); q[t] reads y back through the call operator. Through a returned
/// `const float2&` nothing is assignable.
#[test]
fn a_component_of_a_returned_vector_reference_and_a_compound_assignment_to_it() {
    let src = r#"
__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
struct Buf {
    float2* d;
    __device__ float2& at(int i) { return d[i]; }
    __device__ float2& operator()(int r, int c) { return d[r * 4 + c]; }
};
__global__ void k(float2* p, float* q) {
    Buf b; b.d = p;
    int t = threadIdx.x;
    b.at(t).x += 1.0f;
    b(0, t).y = 2.0f + b.at(t).x;
    q[t] = b(0, t).y;
    b(0, t) += make_float2(10.0f, 20.0f);
}
launch k {
    p = [0, 0, 1, 0, 2, 0, 3, 0]; q = zeros(4);
    expect p == [11, 23, 12, 24, 13, 25, 14, 26];
    expect q == [3, 4, 5, 6];
}
"#;
    // One component access each: loads of x (+=), x, y, then the whole vector for `+`; stores
    // of x, y, q[t] and the whole vector.
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (4, 4));
    let bad = src.replace("__device__ float2 operator+", "__device__ float2 plus");
    let f = err(&bad, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    // Through a `const float2&`, neither a component nor the whole is assignable.
    let constant = src.replace(
        "__device__ float2& at(int i) { return d[i]; }",
        "__device__ const float2& at(int i) const { return d[i]; }",
    );
    for write in ["b.at(t).x += 1.0f;", "b.at(t) = make_float2(1.0f, 2.0f);"] {
        let bad = constant.replace("b.at(t).x += 1.0f;", write);
        let f = err(&bad, &[], Some(ONE), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::not_assignable"], "{write}");
    }
}
