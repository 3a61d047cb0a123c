//! C++ constructs of real kernels (issue 13), each checked against the same code compiled by
//! g++ on x86-64 (little-endian, as the GPU) or by hand.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// The one diagnostic of a kernel that does not check: its code and message.
fn refused(src: &str) -> (String, String) {
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(f.errors.len(), 1, "{:?}", codes(&f));
    (codes(&f).remove(0), f.errors[0].to_string())
}

/// lmdeploy's `Store`/`Ldg` (turbomind's array_ops.h), called as it calls them (`T` and `N`
/// deduced from the `Array<T, N>&` argument): `(const uint4&)src` sees an
/// `Array<float, 4>` as one `uint4`, and `(uint4&)dst = __ldg(...)` writes its bytes. Expected
/// values from g++ -fno-strict-aliasing on the same code with host structs:
///
/// ```c
/// float in[16]: in[i] = i * 0.25
/// for t in 0..4: Array<float,4> v; (uint4&)v = *(const uint4*)(in + 4t); v[1] += 1;
///   *(uint4*)(out + 4t) = (const uint4&)v;
///   float f = 1.5f + t; (int&)f += 1; bits[t] = (int&)f;
///   short2 r = {t, -1}; bits[4 + t] = (int&)r;
///   unsigned u0 = 0x00020001u * (t + 1); bits[8 + t] = ((short2&)u0).y;
/// ```
///
/// By hand: 1.5f is 0x3fc00000 = 1069547520, one ulp up 1069547521; a `short2` {t, -1} is
/// 0xffff0000 | t = -65536 + t; 0x00020001 * (t + 1) has (t + 1) * 2 in its high half.
#[test]
fn a_c_cast_to_a_reference_type_views_the_objects_bytes_in_place() {
    let src = r#"
template <typename T, int N>
struct Array {
    T a[N];
    __device__ T& operator[](int i) { return a[i]; }
    __device__ const T& operator[](int i) const { return a[i]; }
};
template <typename T, int N>
__device__ void Store(T* dst, const Array<T, N>& src) {
    if constexpr (sizeof(Array<T, N>) == sizeof(uint4)) {
        *(uint4*)dst = (const uint4&)src;
    } else if constexpr (sizeof(Array<T, N>) == sizeof(uint2)) {
        *(uint2*)dst = (const uint2&)src;
    }
}
template <typename T, int N>
__device__ void Ldg(Array<T, N>& dst, const T* src) {
    (uint4&)dst = __ldg((const uint4*)src);
}
__global__ void k(const float* in, float* out, int* bits) {
    int t = threadIdx.x;
    Array<float, 4> v;
    Ldg(v, in + 4 * t);
    v[1] += 1.0f;
    Store(out + 4 * t, v);
    float f = 1.5f + t;
    (int&)f += 1;
    bits[t] = (int&)f;
    short2 r;
    r.x = t;
    r.y = -1;
    bits[4 + t] = (int&)r;
    uint u0 = 0x00020001u * (t + 1);
    short2 h = (short2&)u0;
    bits[8 + t] = h.y;
}
launch k {
    in = arange(16) * 0.25; out = zeros(16); bits = zeros(12);
    expect out == [0, 1.25, 0.5, 0.75, 1, 2.25, 1.5, 1.75, 2, 3.25, 2.5, 2.75, 3, 4.25, 3.5, 3.75];
    expect bits == [1069547521, 1075838977, 1080033281, 1083179009, -65536, -65535, -65534, -65533, 2, 4, 6, 8];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// `(const int&)f` of a float is a `static_cast` in C++: a temporary holding the converted
/// value (g++ prints 1 for 1.5f), not the bits, so simt refuses it and says which to write.
/// `(const unsigned&)i` of an `int` has the same bits either way and runs: -1 is 4294967295.
#[test]
fn a_c_cast_to_a_const_reference_that_converts_is_refused() {
    let (code, msg) = refused(
        "__global__ void k(int* out) { float f = 1.5f; out[0] = (const int&)f; }\nlaunch k { out = zeros(1); }",
    );
    assert_eq!(code, "simt::check::unsupported");
    assert!(msg.contains("`const int&` of a `float`"), "{msg}");
    let src = r#"
__global__ void k(unsigned* out) {
    int i = -1;
    out[0] = (const unsigned&)i;
}
launch k { out = zeros(1); expect out == [4294967295]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// `decltype(e)` as a local's type. Expected values from g++ on the same code (host `float4`
/// struct), by hand: `decltype(c)` of an `unsigned char` wraps 250 + t + 10 to 4 + t;
/// `decltype(s1 + s2)` of two `short`s is `int` (60000), `decltype(s1)` a `short` (60000 -
/// 65536 = -5536); `decltype(t * 1.5f)` is `float` (7 / 2 = 3.5); `decltype(a[t])` is `float&`,
/// so `r = 7 + t` writes `a[t]`.
#[test]
fn decltype_declares_a_local_of_the_expressions_type() {
    let src = r#"
__global__ void k(float* a, int* io, float* fo) {
    int t = threadIdx.x;
    unsigned char c = 250 + t;
    decltype(c) d = c + 10;
    short s1 = 300, s2 = t;
    decltype(s1 + s2) e = s1 * 200;
    decltype(s1) f = s1 * 200;
    decltype(t) u;
    u = 5 + t;
    io[t] = d; io[4 + t] = e; io[8 + t] = f; io[12 + t] = u;
    float4 v = make_float4(t, 1, 2, 3);
    decltype(v) w = v;
    w.x += 0.5f;
    decltype(v.y) g = 2.5f;
    decltype(t * 1.5f) h = 7;
    h /= 2;
    decltype(a[t]) r = a[t];
    r = 7 + t;
    fo[t] = w.x; fo[4 + t] = g + v.y; fo[8 + t] = h;
}
launch k {
    a = zeros(4); io = zeros(16); fo = zeros(12);
    expect io == [4, 5, 6, 7, 60000, 60000, 60000, 60000, -5536, -5536, -5536, -5536, 5, 6, 7, 8];
    expect fo == [0.5, 1.5, 2.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5];
    expect a == [7, 8, 9, 10];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// `decltype` of a pointer is refused with its fix; as a struct member's type it is a syntax
/// error.
#[test]
fn decltype_of_a_pointer_or_as_a_member_is_refused() {
    let (code, msg) =
        refused("__global__ void k(float* p) { decltype(p) q = p; }\nlaunch k { p = zeros(1); }");
    assert_eq!(code, "simt::check::unsupported");
    assert!(msg.contains("`decltype` of a pointer"), "{msg}");
    let (code, _) = refused(
        "struct S { int a; decltype(a) b; };\n__global__ void k(int* p) { S s; s.a = 1; p[0] = s.a; }\nlaunch k { p = zeros(1); }",
    );
    assert_eq!(code, "simt::parse::syntax");
}

/// A lambda returning a vector (cuda-samples' shfl_intimage_rows: `auto idxToElem =
/// [&result](unsigned int idx) -> const uint4 { switch (idx) { ... } return {}; };`), its value
/// stored to a `uint4*`. By hand, thread t: x = (t, t+1, t+2, t+3), y = (10t, 0, 0, 7); the
/// lambda captures `result` by reference, so after `result.y.w = 99` it returns w = 99; an
/// index past the cases returns `{}`, zeros.
#[test]
fn a_lambda_returning_a_vector_is_stored_whole() {
    let src = r#"
struct packed_result { uint4 x, y; };
__global__ void k(uint4* out) {
    unsigned int t = threadIdx.x;
    packed_result result;
    result.x = make_uint4(t, t + 1, t + 2, t + 3);
    result.y = make_uint4(10 * t, 0, 0, 7);
    auto idxToElem = [&result](unsigned int idx) -> const uint4 {
        switch (idx) {
            case 0:
                return result.x;
            case 1:
                return result.y;
        }
        return {};
    };
    out[3 * t] = idxToElem(0);
    result.y.w = 99;
    out[3 * t + 1] = idxToElem(1);
    out[3 * t + 2] = idxToElem(t + 5);
}
launch k {
    out = zeros(24);
    expect out == [0, 1, 2, 3, 0, 0, 0, 99, 0, 0, 0, 0,
                   1, 2, 3, 4, 10, 0, 0, 99, 0, 0, 0, 0];
}
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

/// A local array passed to a function template's reference parameter (pytorch3d's
/// `template <typename PointQ> CheckPixelInsidePoint(..., PointQ& q, ...)` given `Pix
/// q[kMaxPointsPerPixel]`): `PointQ` is the array type, `q[i]` the caller's element. By hand,
/// thread t: q = {(1.5t, 10 + t), (2, 20)}, n = 2, so out[t] = 1.5t + 2 and io[t] = (10 + t) *
/// 100 + 20 + 2; `bump(f)` adds 100 to f[3] = t in place, so the sum is 1 + 2 + 3 + t + 100.
#[test]
fn a_local_array_binds_to_a_templates_reference_parameter() {
    let src = r#"
struct Pix { float z; int idx; };
template <typename PointQ>
__device__ void put(PointQ& q, int& n, float z, int idx) {
    q[n] = {z, idx};
    n++;
}
template <typename A>
__device__ void bump(A& a) { a[3] += 100; }
template <typename A>
__device__ float sum4(const A& a) {
    float s = 0;
    for (int i = 0; i < 4; i++) s += a[i];
    return s;
}
__global__ void k(float* out, int* io) {
    int t = threadIdx.x;
    Pix q[4];
    int n = 0;
    put(q, n, 1.5f * t, 10 + t);
    put(q, n, 2.0f, 20);
    float f[4] = {1, 2, 3, (float)t};
    bump(f);
    out[t] = q[0].z + q[1].z;
    io[t] = q[0].idx * 100 + q[1].idx + n;
    out[4 + t] = sum4(f);
}
launch k {
    out = zeros(8); io = zeros(4);
    expect out == [2, 3.5, 5, 6.5, 106, 107, 108, 109];
    expect io == [1022, 1122, 1222, 1322];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// A union declared in a kernel template whose members have the template's parameter types
/// (OpenCV cudacodec's `union ColorOutx2 { Colorx2 d; Color ColorArray[2]; };` in
/// `YuvToColorKernel`), and a struct in a function template using its `T`. By hand: `in` holds
/// the bytes 0..15 as four `uchar4`; thread t writes in[2t + 1] then in[2t] as one `uint2`,
/// little-endian: 0x07060504, 0x03020100 for thread 0, 0x0f0e0d0c, 0x0b0a0908 for thread 1.
/// `twice(1.5 t)` keeps v and v + v in its local `Box`: 3t.
#[test]
fn a_union_in_a_kernel_template_uses_its_parameter_types() {
    let src = r#"
template <typename T>
__device__ T twice(T v) {
    struct Box { T a; T b; };
    Box x;
    x.a = v;
    x.b = v + v;
    return x.b;
}
template <class Color, class Colorx2>
__global__ void k(const Color* in, Colorx2* out, float* f) {
    union ColorOutx2 {
        Colorx2 d;
        Color ColorArray[2];
    };
    int t = threadIdx.x;
    ColorOutx2 o;
    o.ColorArray[0] = in[2 * t + 1];
    o.ColorArray[1] = in[2 * t];
    out[t] = o.d;
    f[t] = twice(1.5f * t);
}
launch k<uchar4, uint2> {
    in = arange(16); out = zeros(4); f = zeros(2);
    expect out == [117835012, 50462976, 252579084, 185207048];
    expect f == [0, 3];
}
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

/// A member of a C cast to a reference type (`((short2&)u).y`, `((const uint4&)src[1]).z`),
/// of `reinterpret_cast<float2&>(v)`, read and assigned, and `p->w` / `(*p).y` of a vector
/// pointer: each is the component of the object the pointer or reference names. Expected values
/// from g++ -fno-strict-aliasing on the same code with host structs: 0x00030001 as a `short2`
/// is {1, 3}; its `.x = 7` makes 0x00030007 = 196615; `v.y` 2.5 + 1 = 3.5; `src` is {9, 8, 7,
/// 6}, {5, 4, 3, 2}.
#[test]
fn a_member_of_a_cast_to_a_reference_or_of_a_dereferenced_vector_pointer() {
    let src = r#"
__global__ void k(const uint4* src, int* out, float* fo) {
    unsigned u = 0x00030001u;
    out[0] = ((short2&)u).y;
    out[1] = ((const uint4&)src[1]).z;
    float2 v = make_float2(1.5f, 2.5f);
    fo[0] = reinterpret_cast<float2&>(v).y;
    fo[1] = reinterpret_cast<const float2&>(v).x;
    ((short2&)u).x = 7;
    reinterpret_cast<float2&>(v).y += 1.0f;
    out[2] = u;
    fo[2] = v.y;
    const uint4* p = src + 1;
    out[3] = p->w;
    out[4] = (*src).y;
    out[5] = ((const uint4*)src)->z;
}
launch k {
    src = [9, 8, 7, 6, 5, 4, 3, 2]; out = zeros(6); fo = zeros(3);
    expect out == [3, 3, 196615, 2, 8, 7];
    expect fo == [2.5, 1.5, 3.5];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_lambda_called_as_a_statement_runs_for_its_effects() {
    // JAX's Threefry `round(x, rotations[i]);`: a discarded-value expression may be `void`
    // ([stmt.expr]), and a value-returning lambda so called still writes what it captures.
    // Lane 0: x = 1, +3 = 4, ^1 = 5, +5 = 10; lane 1: x = 2, +3 = 5, ^1 = 4, +4 = 8.
    let src = r#"
__global__ void k(unsigned* p) {
    unsigned x = p[threadIdx.x];
    auto bump = [&](unsigned r) { x += r; };
    auto flip = [&](unsigned r) { x ^= r; return x; };
    bump(3u);
    flip(1u);
    bump(x);
    p[threadIdx.x] = x;
}
launch k { p = [1, 2]; block = 2; grid = 1; expect p == [10, 8]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

/// A lambda called where it is written (`[&]() { ... }();`, GPUDB-Prefetch's probe picking a
/// source; it was refused): made and called in place, in a statement or an expression, its
/// by-value captures copied first. y = 2(i + 1); z = (i + 1) + 10; the last adds 100 and
/// `return`s early for i < 2 (a void lambda's return). o = 4i + 114, and 1000 more for i >= 2.
#[test]
fn a_lambda_called_where_it_is_written_runs_in_place() {
    let src = r#"
__global__ void k(int* o) {
    int i = threadIdx.x;
    int x = i + 1;
    int y = [=]() { return x * 2; }();
    int z = [x](int a) { return x + a; }(10);
    [&](int a) {
        o[i] = y + z + a + x;
        if (i < 2) return;
        o[i] += 1000;
    }(100);
}
launch k { o = zeros(4); expect o == [114, 118, 1122, 1126]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_string_literal_in_an_assert_is_true() {
    // TransformerEngine's `assert(n > 0 && "message")`: a string literal is an array that
    // converts to a non-null pointer, `true` ([conv.array], [conv.bool]); n = 3 passes all
    // three, and every thread writes n.
    let src = r#"
#include <cassert>
__global__ void k(int* p, int n) {
    assert(n > 0 && "n must be positive");
    assert("either order" && n < 10);
    assert(n == 3 || "always true");
    p[threadIdx.x] = n;
}
launch k { p = zeros(4); n = 3; block = 4; grid = 1; expect p == [3, 3, 3, 3]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // `!"..."` is false: with n = 3, `n != 3 || !"n must not be 3"` is false || false.
    let src = r#"
#include <cassert>
__global__ void k(int* p, int n) {
    assert(n != 3 || !"n must not be 3");
    p[threadIdx.x] = n;
}
launch k { p = zeros(4); n = 3; }
"#;
    let f = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::assertion"]);
}

#[test]
fn an_operator_called_by_its_name() {
    // faiss's Pair: `return !operator==(rhs);` is `!(*this == rhs)`; `this->operator==(rhs)`
    // and `a.operator+(b)` are the member calls `*this == rhs` and `a + b`. With a.k = 0..3
    // and b.k = 2: a != b is [1, 1, 0, 1]; (a + b).k * 10 + (a same as b) = [20, 30, 41, 50].
    let src = r#"
struct P {
    int k;
    __device__ bool operator==(const P& rhs) const { return k == rhs.k; }
    __device__ bool operator!=(const P& rhs) const { return !operator==(rhs); }
    __device__ bool same(const P& rhs) const { return this->operator==(rhs); }
    __device__ P operator+(const P& o) const { return P{k + o.k}; }
};
__global__ void kern(int* p, int* q) {
    P a{p[threadIdx.x]};
    P b{2};
    P s = a.operator+(b);
    p[threadIdx.x] = (a != b) ? 1 : 0;
    q[threadIdx.x] = s.k * 10 + (a.same(b) ? 1 : 0);
}
launch kern { p = arange(4); q = zeros(4); block = 4; grid = 1;
    expect p == [1, 1, 0, 1]; expect q == [20, 30, 41, 50]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn member_calls_on_a_struct_without_data() {
    // faiss's `op.identity()` on `Sum<T>`: s.id() = 7, s.twice(i) = 2i, op(op.identity(), 1)
    // = 0 + 1: p = 8 + 2i = [8, 10, 12, 14].
    let src = r#"
struct S {
    __device__ float id() const { return 7; }
    __device__ float twice(float v) const { return 2 * v; }
};
template <typename T> struct Sum {
    __device__ T identity() const { return T(0); }
    __device__ T operator()(T a, T b) const { return a + b; }
};
__global__ void k(float* p) {
    S s;
    Sum<float> op;
    p[threadIdx.x] = s.id() + s.twice(p[threadIdx.x]) + op(op.identity(), 1.0f);
}
launch k { p = arange(4); block = 4; grid = 1; expect p == [8, 10, 12, 14]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_struct_with_constructors_copied_from_a_member_functions_result() {
    // faiss's `Limits<Pair<K, V>>::getMax()` in `Min<Pair>::identity()`: the implicit copy
    // constructor ([class.copy.ctor]) takes the result, whether a static member function's
    // (v = {2.5, 7}) or a data-less object's member function's (w = {2.5, 7}):
    // p = 2.5 + 2.5 = 5, q = 7 + 2 * 7 = 21.
    let src = r#"
struct P {
    __device__ P() {}
    __device__ P(float key, int value) : k(key), v(value) {}
    float k;
    int v;
};
struct Lim { static __device__ P getMax() { return P(2.5f, 7); } };
struct Min { __device__ P identity() const { return Lim::getMax(); } };
__global__ void kern(float* p, int* q) {
    P v = Lim::getMax();
    Min m;
    P w = m.identity();
    p[threadIdx.x] = v.k + w.k;
    q[threadIdx.x] = v.v + 2 * w.v;
}
launch kern { p = zeros(4); q = zeros(4); block = 4; grid = 1;
    expect p == [5, 5, 5, 5]; expect q == [21, 21, 21, 21]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_functional_cast_to_a_typename_member_type() {
    // CUB's `typename Ktraits::BlockLoadT(smem).Load(...)` in causal-conv1d: `typename T::Op(2)`
    // with T = Traits is `Twice(2)`, whose apply(v) = 2v: p = 2 * [0, 1, 2, 3] = [0, 2, 4, 6].
    let src = r#"
struct Twice { int k; __device__ Twice(int kk) : k(kk) {} __device__ int apply(int v) const { return k * v; } };
struct Traits { using Op = Twice; };
template <typename T> __global__ void k(int* p) { p[threadIdx.x] = typename T::Op(2).apply(p[threadIdx.x]); }
launch k<Traits> { p = arange(4); block = 4; grid = 1; expect p == [0, 2, 4, 6]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_cast_to_a_reference_to_an_array_indexes_its_operands_elements() {
    // mamba's `auto &a = reinterpret_cast<float (&)[N]>(v)`: thread t's float4 v = p[4t..4t+3];
    // a[3] is v.w = 4t + 3, stored at p[4t]; the cast indexed at once, [2], is v.z = 4t + 2,
    // stored at p[4t + 1]. p = [3, 2, 2, 3, 7, 6, 6, 7].
    let src = r#"
__global__ void k(float* p) {
    float4 v = reinterpret_cast<float4*>(p)[threadIdx.x];
    auto &a = reinterpret_cast<float (&)[4]>(v);
    p[4 * threadIdx.x] = a[3];
    p[4 * threadIdx.x + 1] = reinterpret_cast<float (&)[4]>(v)[2];
}
launch k { p = arange(8); expect p == [3, 2, 2, 3, 7, 6, 6, 7]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_cast_to_a_pointer_to_an_array_is_refused_by_name() {
    // causal-conv1d's `*reinterpret_cast<vec_t (*)[1]>(&x[k])` passed to a reference to an
    // array: refused naming the type, once. (Declaring a pointer to arrays, or a reference to
    // one, from such a cast is read: `tests/pointers.rs`.)
    let (code, msg) = refused(
        r#"
__device__ float sum4(const float (&v)[4]) { return v[0] + v[1] + v[2] + v[3]; }
__global__ void k(float* p) {
    float a[8];
    for (int i = 0; i < 8; i++) a[i] = i;
    p[threadIdx.x] = sum4(*reinterpret_cast<float (*)[4]>(&a[4]));
}
launch k { p = zeros(1); }
"#,
    );
    assert_eq!(code, "simt::check::unsupported");
    assert!(msg.contains("`float (*)[4]`"), "{msg}");
}

#[test]
fn typename_in_a_calls_template_arguments() {
    // mamba's `Converter<typename Ktraits::input_t, kNItems>::to_float(...)`: `typename K::input_t`
    // is a type argument. Conv<float, 2>::get sums two floats: in = [0..8), thread t sums
    // in[2t] + in[2t + 1] = 4t + 1: [1, 5, 9, 13].
    let src = r#"
struct Traits { using input_t = float; static constexpr int N = 2; };
template <typename T, int N> struct Conv {
    static __device__ float get(const T* p) { float s = 0; for (int i = 0; i < N; i++) s += p[i]; return s; }
};
template <typename K> __global__ void k(const float* in, float* out) {
    out[threadIdx.x] = Conv<typename K::input_t, K::N>::get(in + 2 * threadIdx.x);
}
launch k<Traits> { in = arange(8); out = zeros(4); block = 4; grid = 1; expect out == [1, 5, 9, 13]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// faiss's `Pair<K, V>` with its `Limits<Pair<K, V>>` partial specialisation, `Min<T>` functor and
/// `warpReduceAll`'s `val = op(val, shfl_xor(val, mask))`.
const PAIR: &str = r#"
template <typename K, typename V>
struct Pair {
    __device__ Pair() {}
    __device__ Pair(K key, V value) : k(key), v(value) {}
    K k;
    V v;
};
template <typename T> struct Limits {};
template <> struct Limits<float> { static __device__ float getMax() { return 100.0f; } };
template <> struct Limits<int> { static __device__ int getMax() { return 7; } };
template <typename K, typename V>
struct Limits<Pair<K, V>> {
    static __device__ Pair<K, V> getMax() { return Pair<K, V>(Limits<K>::getMax(), Limits<V>::getMax()); }
};
template <typename T>
struct Min {
    __device__ T operator()(T a, T b) const { return b.k < a.k ? b : a; }
    __device__ T identity() const { return Limits<T>::getMax(); }
};
template <typename T, typename U>
__device__ Pair<T, U> shfl_xor(const Pair<T, U>& p, int m) {
    return Pair<T, U>(__shfl_xor_sync(0xffffffff, p.k, m), __shfl_xor_sync(0xffffffff, p.v, m));
}
"#;

#[test]
fn a_partial_specialisation_for_a_class_templates_instance_returns_a_struct() {
    // `Limits<Pair<K, V>>` matches `Limits<Pair<float, int>>` with K = float, V = int
    // ([temp.deduct.type]), so getMax() is Pair(Limits<float>::getMax(), Limits<int>::getMax())
    // = (100, 7), not the primary template (which has no getMax), nor a default-built Pair.
    let src = format!(
        "{PAIR}{}",
        r#"
__global__ void k(float* key, int* idx) {
    using KV = Pair<float, int>;
    KV p = Limits<Pair<float, int>>::getMax();
    KV q = Limits<KV>::getMax();
    key[0] = p.k; idx[0] = q.v;
}
launch k { key = zeros(1); idx = zeros(1); block = 1; grid = 1; expect key == [100]; expect idx == [7]; }
"#
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_functor_returning_a_struct_and_a_temporarys_member_function() {
    // Lane 3 holds Min<KV>().identity() = (100, 7); the others (in[t], t): (5, 0), (2, 1), (9, 2).
    // The xor-butterfly over 4 lanes (masks 2, 1) leaves every lane the smallest key, (2, 1).
    let src = format!(
        "{PAIR}{}",
        r#"
template <typename T, typename Op>
__device__ T reduceAll(T val, Op op) {
    for (int mask = 2; mask > 0; mask >>= 1) {
        val = op(val, shfl_xor(val, mask));
    }
    return val;
}
__global__ void k(const float* in, float* key, int* idx) {
    int t = threadIdx.x;
    using KV = Pair<float, int>;
    KV p(in[t], t);
    if (t == 3) p = Min<KV>().identity();
    KV r = reduceAll<KV, Min<KV>>(p, Min<KV>());
    key[t] = r.k;
    idx[t] = r.v;
}
launch k { in = [5, 2, 9, 4]; key = zeros(4); idx = zeros(4); block = 4; grid = 1;
  expect key == [2, 2, 2, 2]; expect idx == [1, 1, 1, 1]; }
"#
    );
    ok(&src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_destructor_may_say_its_parameter_list_is_void() {
    // CUDA by Example's lock.h writes `Lock( void )` and `~Lock( void )`; C++ allows `(void)`
    // for an empty parameter list of any function, destructors included. The destructor runs
    // nothing here; the member function sets out[0] = 3 + 4 = 7.
    let src = r#"
struct Acc {
    int base;
    __device__ Acc( void ) : base(3) {}
    __device__ ~Acc( void ) {}
    __device__ int plus( int k ) { return base + k; }
};
__global__ void k(int* out) {
    Acc a;
    out[0] = a.plus(4);
}
launch k { out = zeros(1); expect out == [7]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_constructor_of_host_code_is_skipped_and_refused_in_device_code() {
    // CUDA by Example's `Lock`: its constructor allocates with cudaMalloc through a `void**`
    // cast, host code; the kernel takes the lock as a parameter and only calls its device
    // members. The launch sets `mutex` (a struct parameter's pointer member) to an array.
    let src = r#"
struct Lock {
    int *mutex;
    Lock( void ) {
        int state = 0;
        cudaMalloc( (void**)&mutex, sizeof(int) );
        cudaMemcpy( mutex, &state, sizeof(int), cudaMemcpyHostToDevice );
    }
    __device__ void lock( void ) { while( atomicCAS( mutex, 0, 1 ) != 0 ); }
    __device__ void unlock( void ) { atomicExch( mutex, 0 ); }
};
__global__ void k(Lock lock, int* c) {
    if (threadIdx.x == 0) {
        lock.lock();
        c[0] += 1;
        lock.unlock();
    }
}
launch k { lock.mutex = zeros(1); c = zeros(1); grid = 4; block = 32; expect c == [4]; }
"#;
    ok(src, &[], [4, 1, 1], [32, 1, 1]);
    // Device code that constructs one calls host code: refused, naming the constructor.
    let device = src.replace(
        "__global__ void k(Lock lock, int* c) {",
        "__global__ void k(int* c) {\n    Lock lock;",
    );
    let f = err(&device, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
    let message = common::describe(&f);
    assert!(
        message.contains("the host constructor `Lock(...)`"),
        "{message}"
    );
}

#[test]
fn a_member_function_of_host_code_is_skipped_and_refused_in_device_code() {
    // A host member that allocates (`cudaMalloc((void**)&p, ...)`) beside the device member the
    // kernel calls: the file runs; p = [0, 1, 2, 3] doubled.
    let src = r#"
struct Buf {
    float* p;
    int n;
    void alloc(int count) {
        n = count;
        cudaMalloc((void**)&p, count * sizeof(float));
    }
    __device__ float get(int i) const { return p[i]; }
};
__global__ void k(Buf b, float* out) {
    out[threadIdx.x] = b.get(threadIdx.x) * 2.0f;
}
launch k { b.p = arange(4); b.n = 4; out = zeros(4); expect out == [0, 2, 4, 6]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // The kernel calling the host member: refused, naming it.
    let device = src.replace("b.get(threadIdx.x) * 2.0f;", "1.0f;\n    b.alloc(4);");
    let f = err(&device, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let message = common::describe(&f);
    assert!(
        message.contains("the host member function `alloc`"),
        "{message}"
    );
}

#[test]
fn a_grid_constant_parameter_and_frexp_called_for_its_exponent() {
    // cuda-samples' LargeKernelParameter: `__grid_constant__ const P p` reads the struct in place;
    // 1 + 4 = 5. cuda-samples' eigenvalues: `frexp((float)n, &exp);` as a statement stores the
    // exponent: 20 = 0.625 * 2^5, so 1 << (5 - 1) = 16; modff(5.5, &ip) stores 5.
    let src = r#"
struct P { int v[4]; };
__device__ inline int floorPow2(int n) { int exp; frexp((float)n, &exp); return (1 << (exp - 1)); }
__global__ void k(__grid_constant__ const P p, int* o, float* f) {
    o[0] = p.v[0] + p.v[3];
    o[1] = floorPow2(o[1]);
    float ip;
    modff(f[0], &ip);
    f[1] = ip;
}
launch k {
    p.v = [1, 2, 3, 4];
    o = [0, 20];
    f = [5.5, 0];
    expect o == [5, 16];
    expect f == [5.5, 5];
}
"#;
    ok(src, &[], ONE, ONE);
}

/// `++`/`--` of an element in memory inside an expression (`buf[++tos]` of a member in local
/// memory, `int v = a[t]++;`): C's value, old for postfix and new for prefix, converted to
/// the element's type. By hand, thread t: v = t, a[t] becomes t + 1; w = a[t + 32] + 1
/// = t + 33; g = f[t] = t + 0.5 before it becomes t − 0.5; the char c[t % 2] starts 254 (even
/// t) or 0 (odd), so x = 254 + 255 or 0 + 1, and c[0] wraps to 0 on even t (254 for odd t,
/// which step c[1]). Traffic: each step is one load and one store of its element (a, a, f:
/// three load requests; three stores, `out`'s and `popped`'s: five).
#[test]
fn a_step_of_an_element_in_memory_inside_an_expression() {
    let src = r#"
template <int D>
struct Stack {
    int buf[D];
    int tos;
    __device__ void push(int v) { buf[++tos] = v; }
    __device__ int pop() { return buf[tos--]; }
};
__global__ void k(int* a, float* f, int* out, int* popped) {
    unsigned char c[2] = {254, 0};
    int t = threadIdx.x;
    int v = a[t]++;
    int w = ++a[t + 32];
    float g = f[t]--;
    int x = c[t % 2]++;
    x += c[t % 2]++;
    out[t] = v + 100 * w + 10000 * (int)g + x * 1000000 + c[0];
    Stack<4> s;
    s.tos = -1;
    s.push(t);
    s.push(2 * t);
    int top = s.pop();
    popped[t] = 10 * top + s.pop() + s.tos;
}
launch k {
    a = arange(64); f = arange(32) + 0.5; out = zeros(32); popped = zeros(32);
    expect out == arange(32) + 100 * (arange(32) + 33) + 10000 * arange(32) + (1 - arange(32) % 2) * 509000000 + arange(32) % 2 * 1000000 + arange(32) % 2 * 254;
    expect a == arange(64) + 1;
    expect f == arange(32) - 0.5;
    expect popped == 21 * arange(32) - 1;
}
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert_eq!(r.counters.gld_instr, 3);
    assert_eq!(r.counters.gst_instr, 5);
}

/// C++17 structured bindings ([dcl.struct.bind]): `auto [a, b] = e;` names the members of a
/// copy, `auto& [a, b] = s;` those of `s` itself, in declaration order. By hand, thread t:
/// a = t + 100 (the copy's, make(t) is {t, t/2}), b = t/2; `qb = 3` sets q.b; pa = t and
/// pb = 1 read ps[t] in place; `inner` is a copy of q ({t, 3}) and w of {2, 5}. out = t + 100
/// + t/2 + 3 + 1000 t + 1 + 3 + 5. Three names for a struct of two members is a mismatch.
#[test]
fn structured_bindings_name_the_members_of_a_copy_or_of_the_object() {
    let src = r#"
struct Pair { int a; float b; };
struct Box { Pair p; float w[2]; };
__device__ Pair make(int t) { return {t, 0.5f * t}; }
__global__ void k(float* out, Pair* ps) {
    int t = threadIdx.x;
    auto [a, b] = make(t);
    a += 100;
    Pair q = {t, 1.0f};
    auto& [qa, qb] = q;
    qb = 3.0f;
    ps[t].a = t; ps[t].b = 1.0f;
    const auto& [pa, pb] = ps[t];
    Box bx; bx.p = q; bx.w[0] = 2.0f; bx.w[1] = 5.0f;
    auto [inner, w] = bx;
    out[t] = a + b + q.b + pa * 1000 + pb + inner.b + w[1];
}
launch k {
    out = zeros(32); ps = zeros(256);
    expect out == (arange(32) + 100) + 0.5 * arange(32) + 3 + 1000 * arange(32) + 1 + 3 + 5;
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let f = err(
        "struct P { int a; int b; };\n__global__ void k(int* o) { P p = {1, 2}; auto [x, y, z] = p; o[0] = x; }\nlaunch k { o = zeros(1); }",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::mismatched_types"]);
    // A vector's components (CUDA's `float2` is a struct of x and y): in[t] = {2t, 2t + 1};
    // `auto& [vx, vy] = v` names v's own, so `vy = 10` sets v.y; make_float4(t, 0, 0, 1)
    // gives a = t, d = 1. out = 2t + 100 (2t + 1) + 10 + t + 1.
    let src = r#"
__global__ void k(float2* in, float* out) {
    int t = threadIdx.x;
    auto [x, y] = in[t];
    float2 v = make_float2(1.0f, 2.0f);
    auto& [vx, vy] = v;
    vy = 10.0f;
    auto [a, b, c, d] = make_float4(t, 0, 0, 1);
    out[t] = x + 100 * y + v.y + a + d;
}
launch k {
    in = arange(64); out = zeros(32);
    expect out == 2 * arange(32) + 100 * (2 * arange(32) + 1) + 10 + arange(32) + 1;
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    // An array's elements ([dcl.struct.bind]/1: `auto a = arr[0]; ...`, or references with
    // `auto&`): a = 100 changes the copy only, r = 7 sets arr[2]; the shared s = {5, 6}.
    // out = 100 + 2 + 3 + arr[0] (1) + arr[2] (7) + p (1) + 10·5 + 100·6 = 764.
    let src = r#"
__global__ void k(float* out) {
    int t = threadIdx.x;
    float arr[3] = {1.0f, 2.0f, 3.0f};
    auto [a, b, c] = arr;
    a = 100.0f;
    auto& [p, q, r] = arr;
    r = 7.0f;
    __shared__ int s[2];
    if (t == 0) { s[0] = 5; s[1] = 6; }
    __syncthreads();
    auto [s0, s1] = s;
    out[t] = a + b + c + arr[0] + arr[2] + p + 10 * s0 + 100 * s1;
}
launch k { out = zeros(32); expect out == 764; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn what_nvcc_for_hopper_compiles_in() {
    // llama.cpp under `__CUDA_ARCH__ >= 900`: programmatic-dependent-launch calls, which a
    // plain launch makes no-ops; `#if __has_include(<cub/cub.cuh>)` (1: simt takes every
    // include); `register` locals; ATen's gpuAtomicAdd. Each thread adds 1 to acc[t % 4]:
    // 8 each for 32 threads, and y = x + 1.
    let src = r#"
#include <ATen/cuda/Atomic.cuh>
#if defined(__has_include) && __has_include(<cub/cub.cuh>)
#define ONE_MORE 1.0f
#endif
__global__ void k(const float* x, float* y, float* acc) {
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
    register int i = threadIdx.x;
    y[i] = x[i] + ONE_MORE;
    gpuAtomicAdd(acc + i % 4, 1.0f);
#if __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}
launch k { x = arange(32); y = zeros(32); acc = zeros(4); expect y == arange(32) + 1; expect acc == [8, 8, 8, 8]; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_char_array_initialised_from_a_string_literal() {
    // HeCBench's base64: `const uchar base64chars[] = "ABC...";` — the characters and the
    // terminating zero: '0' is 48, sizeof is 17, and element 16 is the zero.
    let src = r#"
typedef unsigned char uchar;
__global__ void k(int* out) {
    const uchar digits[] = "0123456789abcdef";
    char padded[8] = "ab";
    out[threadIdx.x] = digits[threadIdx.x] + sizeof(digits) - 17;
    out[4 + threadIdx.x] = digits[16] + padded[threadIdx.x + 1];
}
launch k { out = zeros(8); expect out == [48, 49, 50, 51, 98, 0, 0, 0]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn file_scope_auto_constants_take_their_initialisers_type() {
    // HeCBench perlin: `static constexpr auto INVSQRT2 = .70710678118654752440;` is a double,
    // `N_GRADIENTS = 8` an int, `2.5f` a float, `7u` an unsigned int; sizeof says which.
    let src = r#"
static constexpr auto INVSQRT2 = .70710678118654752440;
static constexpr auto N_GRADIENTS = 8;
constexpr auto HALF = 2.5f;
constexpr auto BIG = 7u;
__global__ void k(double* out) {
    out[0] = INVSQRT2 * 2.0;
    out[1] = N_GRADIENTS / 3;
    out[2] = HALF;
    out[3] = sizeof(INVSQRT2) * 1000 + sizeof(N_GRADIENTS) * 100 + sizeof(HALF) * 10 + sizeof(BIG);
    out[4] = BIG - 8u > 0 ? 1 : 0;
}
launch k {
    out = zeros(5);
    expect out == [1.4142135623730951, 2, 2.5, 8444, 1];
}
"#;
    // 2 * .70710678118654752440 in double is 1.4142135623730951; 8 / 3 = 2 in int; sizes 8,
    // 4, 4, 4; 7u - 8u wraps to 4294967295 > 0 (unsigned), so 1.
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_scoped_enumerator_may_name_the_ones_before_it() {
    // Paddle's common::DataLayout: `ANY = UNDEFINED`, `kNCHW = NCHW` inside `enum class`,
    // where the names are unqualified until the closing brace; also an expression of them.
    let src = r#"
enum class Layout { UNDEFINED = 0, ANY = UNDEFINED, NHWC, NCHW, kNCHW = NCHW, BOTH = NHWC | NCHW << 2 };
__global__ void k(int* out) {
    out[0] = static_cast<int>(Layout::kNCHW);
    out[1] = static_cast<int>(Layout::ANY);
    out[2] = static_cast<int>(Layout::BOTH);
}
launch k { out = zeros(3); expect out == [2, 0, 9]; }
"#;
    // UNDEFINED = 0, ANY = 0, NHWC = 1, NCHW = 2, kNCHW = 2, BOTH = 1 | 2 << 2 = 9.
    ok(src, &[], ONE, ONE);
}

#[test]
fn an_unscoped_enum_too_wide_for_int_promotes_as_cpp_says() {
    // C++ [conv.prom]/3, g++'s choices checked with std::underlying_type: an enum without a
    // written type whose values do not fit in int promotes to the first of unsigned int, long,
    // unsigned long that holds them all. FNV's offset basis 2166136261 (> INT_MAX) is
    // unsigned: widened it stays 2166136261 (it was -2128831035), and it is > 0. -1 beside
    // 0x80000000 needs a signed 64-bit type: widened, -1 and 2147483648. 1 << 40 is long:
    // 1099511627776, and NEXT one more; sizeof 8.
    let src = r#"
enum Fnv { FNV_PRIME = 16777619, FNV_OFFSET = 2166136261u };
enum Mixed { NEG = -1, TOP = 0x80000000 };
enum Wide { BIG = 1ull << 40, NEXT };
__global__ void k(long long* out) {
    out[0] = FNV_OFFSET;
    out[1] = FNV_OFFSET > 0 ? 1 : 0;
    out[2] = NEG;
    out[3] = TOP;
    out[4] = BIG;
    out[5] = NEXT;
    out[6] = sizeof(Wide);
}
launch k { out = zeros(7); expect out == [2166136261, 1, -1, 2147483648, 1099511627776, 1099511627777, 8]; }
"#;
    ok(src, &[], ONE, ONE);
    // The values are worked out in C++'s types (each checked with g++): `1 << 31` is int's
    // -2147483648, so that enum stays int; `-0x80000000` negates an unsigned int (2147483648);
    // `-1u` and `~0u` are 4294967295; `HI | 1` names the enumerator before; `(int)0x80000000u`
    // is -2147483648 beside 2147483648 (long long, 8 bytes); an implicit enumerator after
    // 0xFFFFFFFF or 0x7FFFFFFF is one more, never wrapped; `A3 << 1` overflows int to
    // -2147483648, and that enum stays int.
    let src = r#"
enum E1 { S1 = 1 << 31 };
enum E2 { N2 = -0x80000000 };
enum E3 { N3 = -1u, N4 = ~0u };
enum E6 { HI6 = 0x80000000u, ALL6 = HI6 | 1 };
enum E9 { A9 = (int)0x80000000u, B9 = 0x80000000u };
enum F1 { A1 = 0xFFFFFFFF, B1 };
enum F2 { A2 = 0x7FFFFFFF, B2, C2 = -1 };
enum F3 { A3 = 1 << 30, B3 = A3 << 1 };
__global__ void k(long long* out) {
    out[0] = S1; out[1] = S1 < 0; out[2] = N2; out[3] = N3; out[4] = N4; out[5] = ALL6;
    out[6] = A9; out[7] = B9; out[8] = sizeof(E9); out[9] = B1; out[10] = B2; out[11] = B3;
    out[12] = sizeof(E1);
}
launch k { out = zeros(13); expect out == [-2147483648, 1, 2147483648, 4294967295, 4294967295, 2147483649, -2147483648, 2147483648, 8, 4294967296, 2147483648, -2147483648, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn constexpr_functions_without_device_are_evaluated_in_constant_expressions() {
    // causal-conv1d's `constexpr_min` and gsplat's `encode`: host `constexpr` functions that
    // initialise static members and namespace constants (always legal in CUDA), and one called
    // from the kernel (nvcc's `--expt-relaxed-constexpr`, which such projects build with).
    // By hand: twice(3) = 6; cmin(8, 4) = 4; cmin(8, 20) = 8; (15 << 16) | 1 = 983041;
    // twice(0 + 5) = 10.
    let src = r#"
constexpr int twice(int a) { return 2 * a; }
template <typename T> constexpr T cmin(T a, T b) { return a < b ? a : b; }
namespace ns {
constexpr unsigned enc(unsigned t, int k) { return (t << 16) | (unsigned)(k & 0xffff); }
constexpr unsigned PACKED = enc(15u, 1);
}
struct Plain { static constexpr int kV = twice(3); };
template <int N> struct Traits { static constexpr int kN = cmin(8, N); };
__global__ void k(unsigned* out) {
    out[0] = Plain::kV; out[1] = Traits<4>::kN; out[2] = Traits<20>::kN;
    out[3] = ns::PACKED; out[4] = twice(threadIdx.x + 5);
}
launch k { out = zeros(5); expect out == [6, 4, 8, 983041, 10]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn attributes_on_declarations_are_hints() {
    // CloverLeaf's `__attribute__((__unused__)) const int lid = ...;`, C++17's
    // `[[maybe_unused]]`, an attribute after the declared name and on a struct member.
    // By hand: a[t] = 2t + 1 (w = 1).
    let src = r#"
struct S { [[maybe_unused]] int pad; __attribute__((unused)) int w; };
__global__ void k(int* a) {
    __attribute__((__unused__)) const int lid = threadIdx.x;
    [[maybe_unused]] int spare = 3;
    int two __attribute__((unused)) = 2;
    S s; s.w = 1;
    a[threadIdx.x] = threadIdx.x * two + s.w;
}
launch k { a = zeros(8); block = 8; grid = 1; expect a == arange(8) * 2 + 1; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn a_conditional_of_two_places_is_assigned_the_one_it_picks() {
    // StyleGAN3's bias_act: `((G == 0) ? x : xref) += b;`. By hand for t = 0..3 with
    // a = 10t: even t adds 5 to x (x = t + 5, y = 0), odd t sets y = 7 (x = t); then the
    // nested `(t < 2 ? a[t] : (t == 2 ? x : y)) = 1` writes a[0], a[1], x of t = 2, y of t = 3.
    let src = r#"
__global__ void k(int* a, int* out) {
    int t = threadIdx.x;
    int x = t, y = 0;
    if (t % 2 == 0) ((t % 2 == 0) ? x : y) += 5; else (false ? x : y) = 7;
    (t < 2 ? a[t] : (t == 2 ? x : y)) = 1;
    out[2 * t] = x; out[2 * t + 1] = y;
}
launch k { a = arange(4) * 10; out = zeros(8); block = 4; grid = 1;
    expect a == [1, 1, 20, 30]; expect out == [5, 0, 1, 7, 1, 0, 3, 1]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn value_initialisation_of_a_type_is_zero() {
    // pytorch3d's `return T();` (C++ [expr.type.conv]/2: a value-initialised scalar is 0).
    // zero_or<float>(a, i - 1, 4) is a[i - 1] inside the array and 0 outside, so out =
    // [0, 5, 6, 7, 8, 0] + 1 + float() + int() + real() + float2().x + .y + unsigned() + z<int>().
    let src = r#"
typedef double real;
template <typename T> __device__ T z() { return T(); }
template <typename T>
__device__ T zero_or(const T* a, int i, int n) {
    if (i < 0 || i >= n) return T();
    return a[i];
}
__global__ void k(const float* a, float* out, int n) {
    int i = threadIdx.x;
    float2 v = float2();
    out[i] = zero_or<float>(a, i - 1, n) + 1.0f + float() + int() + real() + v.x + v.y
        + unsigned() + z<int>();
}
launch k { n = 4; a = [5, 6, 7, 8]; out = zeros(6); expect out == [1, 6, 7, 8, 9, 1]; }
"#;
    ok(src, &[], [1, 1, 1], [6, 1, 1]);
}

#[test]
fn ccminers_declarations_off_t_extern_host_functions_const_constant_and_two_device_variables() {
    // ccminer writes `off_t` (64-bit on Linux), `__host__` then `extern void f() {...}` (host
    // code, skipped), `const __constant__` (the `const` changes nothing), and two `__device__`
    // variables in one declaration. Thread t: o[t] = c_H[t] + (t ? d_b : d_a) + (off_t)t:
    // 1 + 3 + 0 = 4 and 2 + 4 + 1 = 7; sizeof(off_t) = 8 in o[2].
    let src = r#"
#include <sys/types.h>
const __constant__ unsigned int c_H[2] = { 1u, 2u };
__device__ int d_a = 3, d_b = 4;
__host__
extern void k_init(int thr_id, unsigned int threads)
{
}
__global__ void k(long long* o) {
    off_t p = threadIdx.x;
    o[p] = c_H[p] + (p ? d_b : d_a) + p;
    if (p == 0) o[2] = sizeof(off_t);
}
launch k { o = zeros(3); expect o == [4, 7, 8]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_files_unary_operators_on_vectors() {
    // ccminer's `uint2 operator~(uint2)` (and a unary `+` of its own): ~(1, 2) is
    // (2^32 - 2, 2^32 - 3); +(5, 6) doubles it by the file's definition: (10, 12).
    let src = r#"
static __device__ __forceinline__ uint2 operator~ (uint2 a) { return make_uint2(~a.x, ~a.y); }
static __device__ __forceinline__ uint2 operator+ (uint2 a) { return make_uint2(2 * a.x, 2 * a.y); }
__global__ void k(uint2 *s) {
    uint2 w = s[0];
    s[1] = ~w;
    s[2] = +s[3];
}
launch k { s = [1, 2, 0, 0, 0, 0, 5, 6]; expect s == [1, 2, 4294967294, 4294967293, 10, 12, 5, 6]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn host_members_of_class_templates_and_host_containers_are_skipped_host_code() {
    // pytorch_scatter's headers: `TensorInfo<T, IndexType>::TensorInfo()` and a member defined
    // after a class template, and a `const std::map` at file scope that only host code reads.
    // None is device code; the kernel doubles `info.data`: out = 2 · [0, 1, 2, 3].
    let src = r#"
#include <map>
#include <string>
enum ReductionType { SUM, MEAN };
const std::map<std::string, ReductionType> reduce2REDUCE = {{"sum", SUM}, {"mean", MEAN}};
template <typename T>
struct Info {
  Info();
  void reduceDim(int d);
  T* data;
  int dims;
};
template <typename T>
Info<T>::Info() {
  data = nullptr;
  dims = 0;
}
template <typename T>
void
Info<T>::reduceDim(int d) {
  dims = d;
}
__global__ void k(const Info<float> info, float* out) { out[threadIdx.x] = info.data[threadIdx.x] * 2; }
launch k { a = arange(4); info.data = a; info.dims = 1; out = zeros(4); expect out == 2 * arange(4); }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // Device code reading the map (`reduce2REDUCE.size()`) is told it is the host's.
    let reads = src.replace(
        "out[threadIdx.x] = info.data[threadIdx.x] * 2;",
        "out[threadIdx.x] = reduce2REDUCE.size();",
    );
    let f = err(&reads, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::host_variable"]);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`reduce2REDUCE` is a host variable: device code cannot read it"
    );
}

#[test]
fn a_conversion_operator_called_by_name_is_the_conversion() {
    // `var.operator __half()` of an `at::Half` (pytorch_scatter's shuffles) is `(__half)var`,
    // and `f.operator float()` calls the struct's own: raw / 4 = [0.75, -2.5].
    let src = r#"
#include <ATen/ATen.h>
struct Fixed {
    int raw;
    __device__ operator float() const { return raw / 4.0f; }
};
__device__ float widen(const at::Half var) { return __half2float(var.operator __half()); }
__global__ void k(const int* raw, float* out, float* back) {
    Fixed f;
    f.raw = raw[threadIdx.x];
    out[threadIdx.x] = f.operator float();
    back[threadIdx.x] = widen(__float2half(out[threadIdx.x]));
}
launch k { raw = [3, -10]; out = zeros(2); back = zeros(2); expect out == [0.75, -2.5]; expect back == out; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn at_half_names_the_16_bit_float_with_or_without_aten_included() {
    // <ATen/ATen.h> declares namespace `at`; its `Half` is still CUDA's `__half`: 1.5 is exact.
    for include in ["#include <ATen/ATen.h>\n", ""] {
        let src = format!(
            "{include}__device__ float w(const at::Half v) {{ return __half2float(v); }}\n\
             __global__ void k(at::Half* a, float* o) {{ o[0] = w(a[0]); }}\n\
             launch k {{ a = [1.5]; o = zeros(1); expect o == 1.5; }}\n"
        );
        ok(&src, &[], ONE, ONE);
    }
}

#[test]
fn a_const_reference_to_another_type_or_a_builtin_binds_a_temporary() {
    // `const long long&` given threadIdx.x (a built-in, no address) and an `int` variable or
    // element (another type): each binds a converted copy, as C++ makes one. Thread t:
    // out = 2t, out2 = 2 in[t].
    let src = r#"
__device__ long long twice(const long long& k) { return k * 2; }
__global__ void k(const int* in, long long* out, long long* out2) {
    int i = in[threadIdx.x];
    out[threadIdx.x] = twice(threadIdx.x);
    out2[threadIdx.x] = twice(in[threadIdx.x]) + twice(i) - twice(i);
}
launch k { in = [5, 6, 7, 8]; out = zeros(4); out2 = zeros(4); expect out == [0, 2, 4, 6]; expect out2 == [10, 12, 14, 16]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn volatile_may_come_before_device_in_a_file_scope_variable() {
    // SHOC's BFS: `volatile __device__ int g_mutex = 0;`. 32 threads add 1 each: 32.
    let src = r#"
volatile __device__ int g_mutex = 0;
__global__ void k(int* out) {
    atomicAdd((int*)&g_mutex, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[0] = g_mutex;
}
launch k { out = zeros(1); expect out == [32]; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn long_double_is_double_on_the_device() {
    // nvcc treats `long double` as `double` in device code (bifrost's Complex.hpp specialises
    // traits for both): x = 2.5, (int)(x * 2) = 5, plus is_fp<double>::value = 1.
    let src = r#"
template<typename T> struct is_fp { enum { value = false }; };
template<> struct is_fp<double> { enum { value = true }; };
template<> struct is_fp<long double> { enum { value = true }; };
__global__ void k(int *out) {
    long double x = 2.5;
    out[threadIdx.x] = is_fp<double>::value + is_fp<int>::value + (int)(x * 2);
}
launch k { out = zeros(32); expect out == 6; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn fallthrough_commas_and_const_references_to_folded_constants() {
    // `[[fallthrough]];` is an empty statement: n = 0 adds 1 + 10 + 100, n = 1 adds 110,
    // n = 2 adds 100. `(m = 0, i-- > 0)` stores m before the test: the loop runs for i = 4..1,
    // n2 = 4 with m = 0, and the final test stores m = 0 again. `twice(e)` binds a `const&` to
    // the folded constant e = 8 + 1: 18. out = v + 1000 * n2 + 10000 * m + 100000 * 18.
    let src = r#"
template <typename T> __device__ int ebits();
template <> __device__ int ebits<float>() { return 8; }
__device__ unsigned twice(const unsigned& n) { return 2 * n; }
__global__ void k(int* out) {
    int n = threadIdx.x % 3, v = 0;
    switch (n) {
    case 0:
        v += 1;
        [[fallthrough]];
    case 1:
        v += 10;
        [[fallthrough]];
    default:
        v += 100;
    }
    int m = 5, n2 = 0, i = 4;
    while (n2 < 10 && (m = 0, i-- > 0)) { n2 += 1 + m; }
    const unsigned e = ebits<float>() + 1;
    out[threadIdx.x] = v + 1000 * n2 + 10000 * m + 100000 * twice(e);
}
launch k { out = zeros(3); expect out == [111, 110, 100] + 4000 + 1800000; }
"#;
    assert!(ok(src, &[], ONE, [3, 1, 1]).expects_passed());
}

#[test]
fn host_member_templates_are_skipped_and_using_enum_names_the_enumerators() {
    // CIS 565's timer class: member function templates whose bodies are host code (`throw`,
    // `static_cast<decltype(m)>`) are host methods, never run. `using enum` (C++20) brings
    // eTimerDevice's enumerators into the kernel's namespace: GPU = 4, CPU = 3, so 43.
    let src = r#"
namespace common {
enum class eTimerDevice { CPU = 3, GPU };
class PerformanceTimer {
public:
    template <eTimerDevice D> void start() { if (started) throw std::runtime_error("started"); started = true; }
    template <int D> void stop(double d) { ms = static_cast<decltype(ms)>(d); }
    bool started = false;
    float ms = 0.f;
};
}
namespace StreamCompaction { namespace Naive {
using enum common::eTimerDevice;
__global__ void k(int* o) { o[threadIdx.x] = (int)GPU * 10 + (int)CPU; }
} }
launch StreamCompaction::Naive::k { o = zeros(2); expect o == 43; }
"#;
    assert!(ok(src, &[], ONE, [2, 1, 1]).expects_passed());
}

#[test]
fn a_trailing_comma_in_a_member_initialiser_and_a_restrict_reference_parse() {
    // svox2: `background_reso{ cond ? a : 0, }` in a constructor's initialiser list (C++
    // allows the comma) and `SingleRaySpec& __restrict__ ray` parameters. s.x = a[0] = 5, and
    // f reads r.l[0] = 3 through the reference: a = [5, 3].
    let src = r#"
struct S {
    __device__ S(int a) : x{a > 0 ? a : 0,} {}
    int x;
};
struct R { int l[3]; };
__device__ float f(R& __restrict__ r, const R& __restrict c) { return r.l[0] + c.l[1]; }
__global__ void k(int* a) {
    S s(a[0]);
    R r;
    r.l[0] = 3;
    r.l[1] = 0;
    a[0] = s.x;
    a[1] = f(r, r);
}
launch k { a = [5, 0]; grid = 1; block = 1; expect a == [5, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn explicit_may_come_before_a_constructor_s_other_specifiers() {
    // BundleFusion's `explicit inline __device__ __host__ float3x3(const float2x2&)`: C++ takes
    // decl-specifiers in any order, in definitions and in declarations (which the first
    // alternative of a member declaration read as a function returning a type `explicit`).
    // B(a) doubles a.v: t → 2t.
    let src = r#"
struct A { float v; };
struct B {
    float v;
    inline __device__ __host__ B() {}
    explicit inline __device__ __host__ B(const A& a) { v = 2.0f * a.v; }
    explicit __device__ B(int n) : v(n) {}
    explicit __host__ __device__ B(const float& f);
    template <class C> explicit inline __device__ __host__ B(const C& c);
};
__global__ void k(float* out, float* same) {
    A a; a.v = threadIdx.x; B b(a); out[threadIdx.x] = b.v;
    B c(3); same[threadIdx.x] = c.v;
}
launch k { out = zeros(4); same = zeros(4); expect out == [0, 2, 4, 6]; expect same == [3, 3, 3, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_const_computed_at_start_up_is_the_hosts_and_extern_c_declares_a_kernel() {
    // `PI` is initialised when the host program starts (`std::asin` is no constant
    // expression): the host's variable, which no device code reads here. `extern "C"` before a
    // kernel's prototype (NPB, graphBIG) declares it.
    let src = r#"
#include <cmath>
const float PI = 2.0 * std::asin(1.0);
extern "C"
__global__ void k(float *out, int n);

__global__ void k(float *out, int n) { out[threadIdx.x] = n; }
launch k { out = zeros(4); n = 5; grid = 1; block = 4; expect out == 5; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Read in device code, it is an error, as nvcc's "identifier is undefined in device code".
    let src =
        "const float PI = 2.0 * std::asin(1.0);\n__global__ void k(float* out) { out[0] = PI; }\n";
    let f = err(
        src,
        &[("out", "zeros(1)")],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::host_variable"]);
}

#[test]
fn execution_space_qualifiers_may_follow_a_reference_return_type() {
    // LOGAN's `T const & __device__ __host__ larger(...)`: the qualifiers after `T const &`.
    // twice(larger(t, 7)) is 14 for t < 8, then 16 and 18.
    let src = r#"
template <typename T>
T const & __device__ __host__ larger(const T& a, const T& b) { return a < b ? b : a; }
int __device__ twice(int x) { return 2 * x; }
__global__ void k(int* o) { int a = threadIdx.x, b = 7; o[threadIdx.x] = twice(larger(a, b)); }
launch k { o = zeros(10); grid = 1; block = 10; expect o == [14, 14, 14, 14, 14, 14, 14, 14, 16, 18]; }
"#;
    ok(src, &[], [1, 1, 1], [10, 1, 1]);
}

#[test]
fn sys_types_fixed_width_names_are_the_c_types() {
    // <sys/types.h>'s `u_int8_t`... (NicoDelle's Smith-Waterman, gpuprog's AES): each wraps at
    // its own width: 250 + 10 = 260 - 256 = 4, 65535 + 1 = 0, 0 - 1 = 2^32 - 1, and that + 1
    // in 64 bits is 2^32. Sizes 1 + 2 * 10 + 4 * 100 + 8 * 1000 = 8421.
    let src = r#"
__global__ void k(unsigned long long* o) {
    u_int8_t a = 250; a += 10;
    u_int16_t b = 65535; b++;
    u_int32_t c = 0; c--;
    u_int64_t d = c; d += 1;
    o[0] = a; o[1] = b; o[2] = c; o[3] = d;
    o[4] = sizeof(u_int8_t) + sizeof(u_int16_t) * 10 + sizeof(u_int32_t) * 100 + sizeof(u_int64_t) * 1000;
}
launch k { o = zeros(5); expect o == [4, 0, 4294967295, 4294967296, 8421]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn sizeof_a_string_literal_counts_its_bytes_and_the_zero() {
    // gpuprog's `sizeof(CS) - 1` of `#define CS "abcd"`: 4. "a\x41\n" is three bytes and "é"
    // two (UTF-8), each with its terminating zero: 4 and 3.
    let src = r#"
#define CS "abcd"
__global__ void k(int* out) {
    out[0] = sizeof(CS) - 1;
    out[1] = sizeof("a\x41\n");
    out[2] = sizeof("é");
}
launch k { out = zeros(3); expect out == [4, 4, 3]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_numeric_limits_member_named_in_parentheses_is_called() {
    // gnina's `(std::numeric_limits<fl>::max)()`: the parentheses keep a `max` macro from
    // expanding. <limits>: FLT_MAX = 3.4028234663852886e38 and INT_MIN = -2147483648.
    let src = r#"
#include <limits>
const float max_fl = (std::numeric_limits<float>::max)();
__global__ void k(float* o, int* i) { o[0] = max_fl; i[0] = (std::numeric_limits<int>::min)(); }
launch k { o = zeros(1); i = zeros(1); expect o == [3.4028234663852886e38]; expect i == [-2147483648]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_member_function_returning_a_pointer_names_its_struct() {
    // graphlearn-for-pytorch's hash table: `table.Get(i)->idx`, `&table.Get(i)->idx` and
    // `*(table.Get(i))` bound to `const auto&`, as a free function's returned pointer is.
    // Slot i holds key 0, idx 0, value 0; atomicMin(idx, 5) leaves 0 and `value = 10 + i`
    // makes out[i] = 10 + i + 0.
    let src = r#"
struct KV { long long key; int idx; int value; };
class Table {
public:
  __device__ KV* Get(int pos) { return kvs_ + pos; }
  KV* kvs_;
  int size_;
};
__global__ void k(Table t, int* out) {
  int i = threadIdx.x;
  atomicMin(reinterpret_cast<unsigned int*>(&t.Get(i)->idx), 5u);
  t.Get(i)->value = 10 + i;
  const auto& kv = *(t.Get(i));
  out[i] = kv.value + kv.idx + (*t.Get(i)).key;
}
launch k {
  kv = zeros(4 * 16);
  t.kvs_ = kv; t.size_ = 4;
  out = full(4, 9);
  grid = 1; block = 4;
  expect out == [10, 11, 12, 13];
}
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn host_member_functions_may_start_with_inline_static_or_host() {
    // GPU_Cloth's `Dvector<T>::alloc`: a host member whose body (`(void**)&_list`) is no device
    // code. Each specifier used to need a word after it that was no identifier.
    for word in ["inline", "__host__", "static inline", "constexpr"] {
        let src = format!(
            r#"
template <typename T>
class Dvector {{
public:
    T* _list;
    {word} void alloc() {{ cudaMalloc((void**)&_list, 4); }}
}};
__global__ void k(float* a) {{ a[threadIdx.x] = 1.0f; }}
launch k {{ a = zeros(32); expect a == 1; }}
"#
        );
        assert!(ok(&src, &[], ONE, [32, 1, 1]).expects_passed(), "{word}");
    }
}

#[test]
fn a_returned_pointer_is_the_overload_the_objects_constness_picks() {
    // `get()` on a `const T&` is the `const` overload, which returns a `const B*`: `->v` is
    // B's second int (xb[1] = 4); on a `T&` it is the other, an `A*`, whose `v` is xa[0] = 1.
    // Following the first overload found read xb[0] = 3 through A's layout.
    let src = r#"
struct A { int v; int w; };
struct B { int pad; int v; };
struct T {
  A* a; B* b;
  __device__ A* get() { return a; }
  __device__ const B* get() const { return b; }
};
__device__ int read(const T& t) { return t.get()->v; }
__device__ int write(T& t) { return t.get()->v; }
__global__ void k(T t, int* out) { out[0] = read(t); out[1] = write(t); }
launch k { xa = [1, 2]; xb = [3, 4]; t.a = xa; t.b = xb; out = zeros(2); expect out == [4, 1]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_returned_struct_is_the_overload_the_objects_constness_picks() {
    // `c.get()` of a `const T` is the `const` overload, an `A` whose `y` is 2; `m.get()` the
    // other, a `B` whose only member `y` is 5. Reading the first overload's layout for both
    // panicked looking up `y`'s leaf (B has one member, A two).
    let src = r#"
struct A { float x; float y; };
struct B { float y; };
struct T {
    float v;
    __device__ A get() const { A a; a.x = 1.0f; a.y = 2.0f; return a; }
    __device__ B get() { B b; b.y = 5.0f; return b; }
};
__global__ void k(float* out) {
    const T c = T();
    T m;
    m.v = 0;
    out[0] = c.get().y;
    out[1] = m.get().y;
}
launch k { out = zeros(2); expect out == [2, 5]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_forward_goto_leaves_loops_and_skips_statements() {
    // The same function compiled by gcc prints 10006 10111 10321 1416: in[t] found at step
    // 4i + j + 1 adds 100 per finished outer iteration and 10000 at `found`; 99 is never
    // found (16 steps, 4 × 100, 1000); thread 3 skips the `+= 5`.
    let src = r#"
__global__ void k(const int* in, int* out) {
    int t = threadIdx.x, n = 0;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            n += 1;
            if (in[t] == i * 4 + j) goto found;
        }
        n += 100;
    }
    n += 1000;
    goto done;
found:
    n += 10000;
done:
    out[t] = n;
    if (t == 3) goto skip;
    out[t] += 5;
skip:
    ;
}
launch k { in = [0, 5, 15, 99]; out = zeros(4); expect out == [10006, 10111, 10321, 1416]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // A `goto end;` from a `switch` in a range-for, a label that ends a loop's body (a
    // `continue`), and `int y;` declared between the jump and the label (C++ lets a jump pass
    // a declaration without an initialiser), still named after it. g++ prints 11, 11, 15,
    // 13, 19, 56, 56, 50: odd items but 7 are skipped, the rest summed, and 7 adds 50 and
    // leaves before y is set (then unread).
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x, s = 0;
    int items[3] = {t, t + 1, t + 2};
    for (int v : items) {
        if (v % 2 && v != 7) goto next;
        switch (v) {
            case 7: s += 50; goto end;
            default: s += v;
        }
    next:
        ;
    }
    int y;
    y = 9;
end:
    out[t] = s + (s >= 50 ? 0 : y);
}
launch k { out = zeros(8); expect out == [11, 11, 15, 13, 19, 56, 56, 50]; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
    // A declaration the jump passes stays where it is: `v += 1` is the outer v's (g++: 6
    // for thread 0, 5 for thread 1, which skips it). A label in the goto's own `switch` case:
    // case 0 skips `n += 2` (1 + 4 = 5); the default adds 8.
    let src = r#"
__global__ void k(int* out, int* m) {
    int t = threadIdx.x;
    int v = 5;
    {
        if (t == 1) goto L;
        v += 1;
        int v;
        v = 100;
    L:
        ;
    }
    out[t] = v;
    int n = 0;
    switch (t) {
        case 0: n += 1; if (n) goto in0; n += 2;
        in0: n += 4; break;
        default: n += 8;
    }
    m[t] = n;
}
launch k { out = zeros(2); m = zeros(2); expect out == [6, 5]; expect m == [5, 8]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_declaration_is_an_ifs_condition() {
    // CUDA-CCL's `if (unsigned int label = labels[i])`: the variable is tested, and named in
    // both arms (and no further). labels 0 take the else: out = 100 + i.
    let src = r#"
__global__ void k(const unsigned int *labels, unsigned int *out) {
    int i = threadIdx.x;
    if (unsigned int label = labels[i]) out[i] = label + 1;
    else out[i] = 100 + i + label;
}
launch k { labels = [0, 1, 2, 0]; out = zeros(4); expect out == [100, 2, 3, 103]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A pointer and a reference declared as conditions: thread 0's p is null (nothing
    // stored), thread 1 stores 9 through it; r names m[t]: 0 takes the else (5), 7 adds 1.
    let src = r#"
__global__ void k(int* out, int* m) {
    int t = threadIdx.x;
    if (int* p = (t ? out + t : nullptr)) *p = 9;
    if (int& r = m[t]) r += 1; else r = 5;
}
launch k { out = zeros(2); m = [0, 7]; expect out == [0, 9]; expect m == [5, 8]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn an_assignment_computes_its_value_before_its_target_steps() {
    // C++17 [expr.ass]/1: the right operand is sequenced before the left, for `=` and `op=`,
    // so `out[i++] = in[i] + 1` reads in[i] with the old i (CU.Syntch's toPCMStereo8 writes
    // `output[i++] = maxValue * bufferL[i] + 127;`; simt stepped i first, silently). With
    // i = 2t: out[2t] = in[2t] + 1 and out[2t + 1] = in[2t + 1], in = 10k: out = [1, 10, 21,
    // 30, 41, 50, 61, 70], as g++ -std=c++17 prints for the same statements. `acc[j++] += j`
    // adds the old j (t) to acc[t], and `acc[m = t + 4] = m + 100` stores the old m (0) + 100
    // at acc[t + 4].
    let src = r#"
__global__ void k(const int* in, int* out, int* acc) {
    int t = threadIdx.x;
    int i = 2 * t;
    out[i++] = in[i] + 1;
    out[i] = in[i];
    int j = t;
    acc[j++] += j;
    int m = 0;
    acc[m = t + 4] = m + 100;
}
launch k {
    in = arange(8) * 10; out = zeros(8); acc = ones(8);
    expect out == [1, 10, 21, 30, 41, 50, 61, 70];
    expect acc == [1, 2, 3, 4, 100, 100, 100, 100];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn every_assignment_form_computes_its_value_first() {
    // The same rule ([expr.ass]/1) where the target steps through a call (`min(i++, 3)`, a
    // device function taking `int&`), and for vector, struct and pointer targets, which are
    // assigned apart from numbers; and a compound assignment used as a value reads and writes
    // the element its stepped index names: with j = 1, `(o[j] += j++)` adds 1 to o[2].
    // i = 0: out[0] = in[0] = 1 (i becomes 1); out[step(i)] = in[i] stores in[1] = 11 at
    // out[1]; v[0] = (in[2], in[2]) = 21; ps[0] = {in[3]} = 31; *ptrs[0] = in[4] = 41.
    let src = r#"
struct P { int a; };
__device__ int step(int& i) { return i++; }
__global__ void k(const int* in, int* out, float2* v, P* ps, int* o) {
    int i = 0;
    out[min(i++, 3)] = in[i];
    out[step(i)] = in[i];
    int n = 2;
    v[n++ - 2] = make_float2(in[n], in[n]);
    int m = 3;
    ps[m++ - 3] = P{in[m]};
    const int* ptrs[2];
    int q = 4;
    ptrs[q++ - 4] = &in[q];
    out[2] = *ptrs[0];
    int j = 1;
    int x = (o[j] += j++);
    out[3] = x;
}
launch k {
    in = arange(8) * 10 + 1; out = zeros(4); v = zeros(2); ps = zeros(1); o = arange(4) + 100;
    expect out == [1, 11, 41, 103];
    expect v == [21, 21];
    expect ps == [31];
    expect o == [100, 101, 103, 103];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_cast_may_name_its_type_with_its_tag() {
    // gpudb's `(struct rleHeader *)fact`: C's elaborated type in a cast, as in a declaration
    // (a syntax error before). raw holds the int 7: 7 + 7 + 7 + 5.
    let src = r#"
struct P { int a; float b; };
enum E { A, B = 5 };
union U { int i; float f; };
__global__ void k(char* raw, int* out) {
    struct P* p = (struct P*)raw;
    const struct P* q = (const struct P *)raw;
    union U* u = (union U*)raw;
    int e = (enum E)5;
    out[0] = p->a + q->a + u->i + e;
}
launch k { raw = [7, 0, 0, 0, 0, 0, 0, 0]; out = zeros(1); expect out == 26; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_value_that_steps_is_computed_before_the_target_reads_the_variable() {
    // `dst[offset + i] = src[i++]` stores src[i] at dst[offset + i + 1] (C++17: the value,
    // side effects included, first): dst = [0, 0, 0, 10, 20] for src = 10k; and a struct
    // target, `ps[n].a = in[n++]`, writes ps[1]. Values `auto` cannot hold, which read no
    // variable (`blockDim`, `(const int*)0`), are stored as written, as before.
    let src = r#"
struct P { int a; int b; };
__global__ void k(const int* src, int* dst, P* ps, uint3* ds, int* out) {
    int i = 0, offset = 1;
    while (i < 3) dst[offset + i] = src[i++];
    int n = 0;
    ps[n].a = src[n++ + 1];
    int j = 0;
    ds[j++] = blockDim;
    const int* ptrs[2];
    int q = 0;
    ptrs[q++] = (const int*)0;
    ptrs[q++] = &src[2];
    out[0] = ptrs[0] == 0 ? *ptrs[1] : -1;
}
launch k {
    src = arange(5) * 10; dst = zeros(5); ps = zeros(4); ds = zeros(3); out = zeros(1);
    expect dst == [0, 0, 0, 10, 20];
    expect ps == [0, 0, 10, 0];
    expect ds == [1, 1, 1];
    expect out == [20];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}
