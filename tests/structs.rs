//! Structs and classes with data members: one local per member in registers, one scalar access per member in memory.

use crate::common;
use common::{codes, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

/// `[a, b, ...]` for a launch section.
fn list(values: impl IntoIterator<Item = i64>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

#[test]
fn constructors_member_functions_and_operators_in_registers() {
    let want = list((0..4).flat_map(|t| [2 * t + 8, 2 * t + 5, 12, 2 * t + 16]));
    let src = format!(
        r#"
struct Vec2 {{
    float x, y;
    __device__ Vec2() : x(0.0f), y(0.0f) {{}}
    __device__ Vec2(float a, float b) : x(a), y(b) {{}}
    __device__ float dot(const Vec2& o) const {{ return x * o.x + y * o.y; }}
    __device__ Vec2 operator+(const Vec2& o) const {{ return Vec2(x + o.x, y + o.y); }}
    __device__ Vec2 operator*(float s) const {{ return Vec2{{x * s, y * s}}; }}
}};

__device__ Vec2 operator-(Vec2 a, Vec2 b) {{ return Vec2(a.x - b.x, a.y - b.y); }}
__device__ void twice(Vec2& v) {{ v = v + v; }}
__device__ Vec2 flip(Vec2 v) {{ return {{v.y, v.x}}; }}

__global__ void k(float* out) {{
    int t = threadIdx.x;
    Vec2 a(t, 1.0f);
    Vec2 b = {{2.0f, 3.0f}};
    Vec2 c = a + b * 2.0f;
    twice(c);
    Vec2 d = flip(c) - b;
    Vec2 e;
    e.y = d.dot(Vec2(1.0f, 0.0f));
    out[4 * t + 0] = c.x;
    out[4 * t + 1] = d.y;
    out[4 * t + 2] = e.x + e.y;
    out[4 * t + 3] = (a + b).dot(b);
}}

launch k {{
    out = zeros(16);
    expect out == {want};
}}
"#
    );
    // a = (t, 1), b = (2, 3); c = a + 2b = (t + 4, 7), doubled by reference: (2t + 8, 14).
    // d = flip(c) - b = (14 - 2, 2t + 8 - 3) = (12, 2t + 5); e = (0, 0) from the default
    // constructor, then e.y = d·(1, 0) = 12; (a + b)·b = (t + 2)·2 + 4·3 = 2t + 16.
    let r = ok(&src, &[], ONE, [4, 1, 1]);
    // Everything lives in registers: the four stores are the only memory accesses.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (0, 4));
}

#[test]
fn nested_members_arrays_defaults_statics_and_selection() {
    let want = list((0..4).flat_map(|t| {
        let x = if t % 2 == 0 { 1 } else { 3 };
        [x * 2 * (t + 1), 10, 28]
    }));
    let src = format!(
        r#"
struct Pt {{ float v[3]; }};
typedef struct box_tag {{
    Pt lo;
    Pt hi;
    int id = 7;
    static constexpr int dims = 3;
}} Box;

__device__ float volume(Box b) {{
    return (b.hi.v[0] - b.lo.v[0]) * (b.hi.v[1] - b.lo.v[1]) * (b.hi.v[2] - b.lo.v[2]);
}}

__global__ void k(float* out) {{
    int t = threadIdx.x;
    Box b = {{{{{{0.0f, 0.0f, 0.0f}}}}, {{{{1.0f, 2.0f, t + 1.0f}}}}}};
    Box c = b;
    c.hi.v[0] = 3.0f;
    Box m = t % 2 == 0 ? b : c;
    out[3 * t + 0] = volume(m);
    out[3 * t + 1] = m.id + Box::dims;
    out[3 * t + 2] = sizeof(Box);
}}

launch k {{
    out = zeros(12);
    expect out == {want};
}}
"#
    );
    // b spans (0,0,0)..(1, 2, t + 1); c is a copy whose hi.x is 3. Even threads take b: volume
    // 1·2·(t + 1); odd ones c: 3·2·(t + 1). id keeps its default 7, plus dims 3 = 10.
    // sizeof(Box) = two Pt of 12 bytes and an int = 28 (alignment 4, no padding).
    ok(&src, &[], ONE, [4, 1, 1]);
}

#[test]
fn array_of_structs_loads_count_the_structs_sectors() {
    let want = list((0..32).map(|i| 4 * i + 1));
    let src = format!(
        r#"
struct P {{ float x, y; }};
__global__ void k(const P* p, float* out) {{
    int i = threadIdx.x;
    out[i] = p[i].x + p[i].y;
}}
launch k {{
    p = arange(64);
    out = zeros(32);
    expect out == {want};
}}
"#
    );
    // p is 64 floats, 32 structs of 8 bytes: p[i].x is float 2i and p[i].y float 2i + 1, so
    // out[i] = 4i + 1. One warp: p[i].x touches bytes 0, 8, ..., 248 = 8 sectors for 128 bytes
    // asked; p[i].y the same 8 sectors; the store 32 floats = 4 sectors.
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 16));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 4));
    assert_eq!(c.g_bytes_requested, 3 * 128);
}

#[test]
fn the_address_of_a_members_member_points_into_the_buffer() {
    // altis' GUPS takes `&t[i].u32.y`. Out is four floats: a.x, a.y, b.x, b.y at floats
    // 4i .. 4i + 3. Every lane stores 3 through `&o[i].b.y` (float 4i + 3) and adds 1 into
    // o[0].a.x (float 0) atomically: o[0] = 32, o[4i + 3] = 3; f[i] = 3 + o[i].a.x, which is
    // 35 for lane 0 and 3 for the others: the sum is 35 + 31·3 = 128.
    let src = r#"
struct In { float x; float y; };
struct Out { In a; In b; };
__global__ void k(Out* o, float* f) {
    int i = threadIdx.x;
    float* p = &o[i].b.y;
    *p = 3.0f;
    atomicAdd(&o[0].a.x, 1.0f);
    f[i] = o[i].b.y + o[i].a.x;
}
launch k {
    o = zeros(128);
    f = zeros(32);
    expect sum(f) == 128;
    expect f[0] == 35;
    expect o[0] == 32;
    expect o[3] == 3;
    expect o[127] == 3;
    expect o[126] == 0;
}
"#;
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    // The store through p: 32 floats 16 bytes apart, 512 bytes = 16 sectors.
    assert_eq!(c.gatom_instr, 1);
    assert_eq!(c.gst_instr, 2);
    assert_eq!(c.gst_sectors, 16 + 4);
}

#[test]
fn an_aligned_struct_has_a_padded_stride() {
    let want = list((0..32).map(|i| 8 * i + 2));
    let src = format!(
        r#"
struct __align__(16) Q {{ float a, b, c; }};
__global__ void k(const Q* q, float* out) {{
    int i = threadIdx.x;
    const Q* r = q + i;
    out[i] = r->c + (*r).a;
}}
launch k {{
    q = arange(4 * 32);
    out = zeros(32);
    expect out == {want};
}}
"#
    );
    // sizeof(Q) = 16: three floats and 4 bytes of padding, so q[i] starts at float 4i;
    // r->c = 4i + 2, (*r).a = 4i. Each load: lanes 16 bytes apart span 512 bytes = 16 sectors.
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 32));
}

#[test]
fn alignas_of_a_type_aligns_as_that_type() {
    // tensorrtx's `struct alignas(float) Detection`: `alignas(T)` is `alignas(alignof(T))`.
    // `alignas(double)` on three floats: alignment 8, sizeof 12 rounded up to 16, so q[i]
    // starts at float 4i: r->c + r->a = 4i + 2 + 4i. Lanes 16 bytes apart: 512 bytes = 16
    // sectors per load. `alignas(float)` changes nothing: sizeof 12, q[i] at float 3i, 6i + 2,
    // lanes 12 bytes apart span 384 bytes = 12 sectors per load.
    for (align, stride, sectors) in [("double", 4, 32), ("float", 3, 24)] {
        let want = list((0..32).map(|i| 2 * stride * i + 2));
        let src = format!(
            r#"
struct alignas({align}) Q {{ float a, b, c; }};
__global__ void k(const Q* q, float* out) {{
    int i = threadIdx.x;
    const Q* r = q + i;
    out[i] = r->c + r->a;
}}
launch k {{
    q = arange({stride} * 32);
    out = zeros(32);
    expect out == {want};
}}
"#
        );
        let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
        assert_eq!((c.gld_instr, c.gld_sectors), (2, sectors), "{align}");
    }
}

#[test]
fn whole_structs_are_copied_field_by_field() {
    let want = list((0..32).flat_map(|i| [2 * i + 1, 4 * i + 1]));
    let src = format!(
        r#"
struct Node {{
    int start;
    int count;
}};
__global__ void k(Node* nodes) {{
    int i = threadIdx.x;
    Node n = nodes[i];
    nodes[i] = Node{{n.count, n.start + n.count}};
}}
launch k {{
    nodes = arange(64);
    expect nodes == {want};
}}
"#
    );
    // nodes[i] = (2i, 2i + 1) becomes (2i + 1, 4i + 1). Two loads and two stores, one per
    // member, each 8 sectors (lanes 8 bytes apart).
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 16));
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 16));
}

#[test]
fn shared_array_of_structs_has_two_way_conflicts() {
    let want = list((0..32).map(|t| 3 * (31 - t)));
    let src = format!(
        r#"
struct P {{ float x, y; }};
__global__ void k(float* out) {{
    __shared__ P s[32];
    int t = threadIdx.x;
    s[t].x = t;
    s[t].y = 2 * t;
    __syncthreads();
    P v = s[31 - t];
    out[t] = v.x + v.y;
}}
launch k {{
    out = zeros(32);
    expect out == {want};
}}
"#
    );
    // s[t].x is word 2t, in bank 2t mod 32: lanes t and t + 16 want two words of one bank, so
    // each of the 2 stores and the 2 loads (of s[31 - t], the same pattern) takes 2 wavefronts
    // where 1 would do: 4 instructions, 8 wavefronts, 4 conflicts.
    // v = (31 - t, 2(31 - t)), out[t] = 3(31 - t).
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (4, 8, 4)
    );
}

#[test]
fn a_struct_buffer_of_a_partial_last_struct_reaches_its_whole_ones() {
    // 63 floats are 31 whole 2-float structs and half of one: p[31].x is the 63rd float, in
    // bounds (as memcheck sees 4 bytes inside the allocation); p[31].y is past the end.
    let src = "struct P { float x, y; };\n__global__ void k(P* p) { p[threadIdx.x].x = 1.0f; p[threadIdx.x % 31].y = 2.0f; }";
    common::ok(src, &[("p", "zeros(63)")], ONE, [32, 1, 1]);
    // A struct held as bytes (`int` and `float` members) takes whole structs only: 5 values
    // are no bytes of 8-byte structs, more likely members' values its bytes would misread.
    let bytes =
        "struct Q { int n; float w; };\n__global__ void k(const Q* q, float* o) { o[0] = q[0].w; }";
    let f = err(
        bytes,
        &[("q", "[3, 7, 1, 0, 5]"), ("o", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert!(common::describe(&f).contains("holds 8-byte structs but was given 5 bytes"));
    let past = src.replace("threadIdx.x % 31", "threadIdx.x");
    let f = err(&past, &[("p", "zeros(63)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
}

/// The one diagnostic of a kernel that does not check: its code, message and position.
fn refused(src: &str) -> (String, String, (usize, usize)) {
    let f = err(src, &[], Some(ONE), Some([1, 1, 1]));
    assert_eq!(f.errors.len(), 1, "{:?}", codes(&f));
    (
        codes(&f).remove(0),
        f.errors[0].inner.to_string(),
        position(&f),
    )
}

#[test]
fn unsupported_struct_constructs_are_named_where_they_are_written() {
    let (code, message, at) = refused(
        "struct V { const float* data; };\n__global__ void k(V* vs, float* out) {\n    out[0] = 0.0f;\n}",
    );
    assert_eq!(code, "simt::check::unsupported");
    assert_eq!(
        message,
        "a buffer or array of struct `V`, which holds a pointer is not supported"
    );
    assert_eq!(at, (2, 19));
}

#[test]
fn struct_mistakes_get_targeted_messages() {
    let (code, message, at) = refused(
        "struct P { float x, y; };\n__global__ void k(float* out) {\n    P p = {1.0f, 2.0f};\n    out[0] = p.z;\n}",
    );
    assert_eq!(code, "simt::check::unknown_name");
    assert_eq!(message, "unknown name `z`");
    assert_eq!(at, (4, 16));

    let (code, message, _) = refused(
        "struct P { float x, y; };\n__global__ void k(float* out) {\n    P a = {1.0f, 2.0f};\n    P b = a * a;\n    out[0] = b.x;\n}",
    );
    assert_eq!(code, "simt::check::no_operator");
    assert_eq!(message, "`*` is not defined on `P`");

    let (code, message, _) = refused(
        "struct P { float x, y; };\n__global__ void k(float* out) {\n    P a = {1.0f, 2.0f, 3.0f};\n    out[0] = a.x;\n}",
    );
    assert_eq!(code, "simt::check::initialiser");
    assert_eq!(message, "`P` has 2 members; 3 values are given");

    // A struct-valued call where a number is wanted (this reached the lowering once).
    let (code, message, at) = refused(
        "struct P { float x, y; };\n__device__ P f(P v) { return v; }\n__global__ void k(float* out) {\n    P p = {1.0f, 2.0f};\n    out[0] = f(p);\n}",
    );
    assert_eq!(code, "simt::check::not_a_value");
    assert_eq!(message, "this is a `P`, not a number");
    assert_eq!(at, (5, 14));
}

#[test]
fn the_spellings_real_code_uses_declare_structs() {
    // llm.c's `struct __align__(8) SumMax`, Rodinia's `typedef struct latLong {...} LatLong;`
    // and `Node*` parameters (these were syntax errors, then "not supported").
    for (src, args) in [
        (
            "struct __align__(8) S { float m; float s; };\n__global__ void k(float* a) { S v = {1.0f, 2.0f}; a[0] = v.m + v.s; }",
            &[("a", "zeros(1)")][..],
        ),
        (
            "typedef struct latLong { float lat; float lng; } LatLong;\n__global__ void k(LatLong* p, float* a) { a[0] = p->lat + p[0].lng; }",
            &[("a", "zeros(1)"), ("p", "[1, 2]")][..],
        ),
        (
            "struct Node { int starting; int no_of_edges; };\n__global__ void k(Node* g, float* a) { a[0] = g[0].starting + g->no_of_edges; }",
            &[("a", "zeros(1)"), ("g", "[1, 2]")][..],
        ),
    ] {
        // Each sums the two members: 1 + 2.
        let r = ok(src, args, ONE, ONE);
        assert_eq!(r.counters.gst_instr, 1, "{src}");
    }
}

#[test]
fn templated_classes_with_operators_and_indexing() {
    let want = list((0..4).flat_map(|t| [3 * t + 3, 2 * t + 1]));
    let src = format!(
        r#"
template <typename T>
class Pair {{
public:
    T a;
    T b;
    __device__ Pair(T x, T y) : a(x), b(y) {{}}
    __device__ T operator[](int k) const {{ return k == 0 ? a : b; }}
    __device__ Pair& operator+=(const Pair& o) {{ a += o.a; b += o.b; return *this; }}
}};

template <typename T>
__device__ Pair<T> operator*(T s, Pair<T> p) {{ return Pair<T>(s * p.a, s * p.b); }}

__global__ void k(int* out) {{
    int t = threadIdx.x;
    Pair<int> p(t, t + 1);
    p += 2 * p;
    Pair<int> q = Pair<int>{{1, 2}};
    out[2 * t] = p[1];
    out[2 * t + 1] = p[0] - t + q.a + this_is(q);
}}

__device__ int this_is(Pair<int> q) {{ return q.b - 2; }}

launch k {{
    out = zeros(8);
    expect out == {want};
}}
"#
    );
    // p = (t, t + 1), plus 2p = (3t, 3t + 3); out[2t] = p[1] = 3t + 3,
    // out[2t + 1] = 3t - t + 1 + (2 - 2) = 2t + 1.
    ok(&src, &[], ONE, [4, 1, 1]);
}

#[test]
fn constant_structs_are_read_through_the_constant_cache() {
    let src = r#"
struct Cam { float scale, shift; };
__constant__ Cam cam;
__constant__ Cam cams[2];
__global__ void k(float* out) {
    int i = threadIdx.x;
    out[i] = i * cam.scale + cam.shift + cams[i % 2].shift;
}
launch k {
    cam = [2, 1];
    cams = [0, 10, 0, 20];
    out = zeros(4);
    expect out == [11, 23, 15, 27];
}
"#;
    // out[i] = 2i + 1 + (10 or 20). cam.scale and cam.shift are one address each for the warp
    // (1 transaction); cams[i % 2].shift is floats 1 and 3 (2 transactions).
    let c = ok(src, &[], ONE, [4, 1, 1]).counters;
    assert_eq!((c.cmem_instr, c.cmem_transactions), (3, 4));
}

#[test]
fn a_local_array_of_structs_is_an_array_of_their_members() {
    let want = list((0..4).map(|t| 6 * t));
    let src = format!(
        r#"
struct P {{ float x, y; }};
__global__ void k(float* out) {{
    P ps[4];
    int t = threadIdx.x;
    for (int j = 0; j < 4; j++) {{
        ps[j].x = j;
        ps[j].y = t;
    }}
    float s = 0.0f;
    for (int j = 0; j < 4; j++) s += ps[j].x * ps[j].y;
    out[t] = s;
}}
launch k {{
    out = zeros(4);
    expect out == {want};
}}
"#
    );
    // s = (0 + 1 + 2 + 3) · t = 6t. Both loops have constant bounds, so every index is known
    // once they are unrolled and the 8 floats stay in registers: no local memory traffic.
    let c = ok(&src, &[], ONE, [4, 1, 1]).counters;
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
}

#[test]
fn prefix_operators_and_c_spellings_of_struct_types() {
    let src = r#"
struct Node;
typedef struct Node Node_t;
struct Node {
    float x;
    int n;
    struct { int lo, hi; } range;
    __device__ Node operator-() const { return Node{-x, -n, {range.hi, range.lo}}; }
    __device__ bool operator!() const { return n == 0; }
    __device__ Node operator-(const Node& o) const { return Node{x - o.x, n - o.n, range}; }
};
__device__ Node operator~(Node p) { return Node{p.x * 2, ~p.n, p.range}; }

__global__ void k(struct Node* nodes, float* out) {
    struct Local { float w; };
    Local l = {10.0f};
    Node_t p = nodes[0];
    Node q = -p;
    Node r = ~q - p;
    out[0] = q.x + r.x + r.n + (!p ? 100.0f : 0.0f) + l.w + q.range.lo;
}
launch k {
    nodes = [0, 0, 128, 63, 3, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0];
    out = zeros(1);
    expect out == [14];
}
"#;
    // Node mixes a float and ints, so its buffer is its bytes: 1.0f is 0x3f800000 (bytes 0 0
    // 128 63, little-endian), then the ints 3, 7, 9. p = (1, 3, {7, 9}); q = -p = (-1, -3, {9,
    // 7}); ~q = (-2, ~-3 = 2); r = ~q - p = (-3, -1); !p is false (p.n is 3).
    // out = -1 - 3 - 1 + 0 + 10 + 9 = 14.
    ok(src, &[], ONE, ONE);
    // The same kernel with the node built in registers.
    let src = src
        .replace("struct Node* nodes, ", "")
        .replace("nodes[0]", "Node{1.0f, 3, {7, 9}}")
        .replace(
            "    nodes = [0, 0, 128, 63, 3, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0];\n",
            "",
        );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_struct_holding_an_array_is_indexed_like_a_local_array() {
    let src = r#"
struct Vec4 {
    float v[4];
    __device__ float sum() const {
        float s = 0.0f;
        for (int k = 0; k < 4; k++) s += v[k];
        return s;
    }
};
__global__ void k(const float* in, float* out, int j) {
    int t = threadIdx.x;
    Vec4 a;
    for (int k = 0; k < 4; k++) a.v[k] = in[4 * t + k];
    out[t] = a.sum() + a.v[j];
}
launch k {
    in = arange(128);
    out = zeros(32);
    j = 2;
    expect out == 20 * arange(32) + 8;
}
"#;
    // a.v = (4t, 4t + 1, 4t + 2, 4t + 3): the sum is 16t + 6, a.v[2] = 4t + 2, 20t + 8 in all.
    // `a.v[j]` has an index known only at run time, so `a` is local memory, as the compiler
    // places it: 4 stores (the loop) and 5 loads (4 in sum(), a.v[j]), each 32 lanes × 4 bytes
    // interleaved = 4 sectors. `Vec4 a;` has no initialiser: no store.
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.local_st_instr, c.local_st_sectors), (4, 16));
    assert_eq!((c.local_ld_instr, c.local_ld_sectors), (5, 20));
    // With constant indices only (the loops unroll), the array stays in registers.
    let src = src
        .replace(" + a.v[j]", "")
        .replace("20 * arange(32) + 8", "16 * arange(32) + 6");
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.local_st_instr, c.local_ld_instr), (0, 0));
}

/// Issue 12: the address of a local struct, as exllamav2 copies a `half8` in one 16-byte access
/// (`half8 a; ((uint4*)&a)[0] = ((uint4*)a_ptr)[0];`): the struct is then a one-element local
/// array of its members, which any view of its bytes reads and writes.
#[test]
fn the_address_of_a_local_struct_views_its_bytes() {
    let src = r#"
typedef struct __align__(16) { half2 x, y, z, w; } half8;
struct F4 { float x, y, z, w; };
__global__ void k(const half* a, half* c, float* f) {
    int t = threadIdx.x;
    half8 v;
    ((uint4*)&v)[0] = ((const uint4*)a)[t];
    v.y = __hadd2(v.y, v.x);
    ((uint4*)c)[t] = ((uint4*)&v)[0];
    F4 s = {1.0f, 2.0f, 3.0f, 4.0f};
    F4* p = &s;
    p->y += (float)t;
    reinterpret_cast<float4*>(f)[t] = *reinterpret_cast<float4*>(&s);
}
launch k { a = arange(256); c = zeros(256); f = zeros(128);
    expect c[0] == 0; expect c[1] == 1; expect c[2] == 2; expect c[3] == 4; expect c[7] == 7;
    expect c[8] == 8; expect c[10] == 18; expect c[11] == 20; expect c[250] == 498;
    expect f[0] == 1; expect f[1] == 2; expect f[5] == 3; expect f[125] == 33; expect f[127] == 4; }
"#;
    // Lane t's half8 holds halves 8t .. 8t + 7: x = (8t, 8t + 1), y = (8t + 2, 8t + 3), and
    // y += x makes halves 8t + 2, 8t + 3 into 16t + 2, 16t + 4 (t = 1: 18, 20; t = 31: 498, 500,
    // exact in half); the rest are copied. The F4 is (1, 2 + t, 3, 4): f[4t + 1] = 2 + t.
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    // One 16-byte access per lane each way (32 × 16 B = 16 sectors), the structs in registers.
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 32));
    assert_eq!((c.local_ld_instr, c.local_st_instr), (0, 0));
    // A struct parameter passed by value is kept in registers, one variable per member: it has
    // no address (`tests/bad/check_address_of_struct_parameter.sk`).
    let (code, message, at) = refused(
        "struct H { int n; float w; };\n__device__ int f(H h) { return *(int*)&h; }\n__global__ void k(int* out) {\n    H h = {1, 2.0f};\n    out[0] = f(h);\n}",
    );
    assert_eq!(code, "simt::check::unsupported");
    assert_eq!(message, "the address of the struct `h` is not supported");
    assert_eq!(at, (2, 39));
}

#[test]
fn a_type_alias_in_a_body_names_a_struct_for_the_rest_of_its_block() {
    let src = r#"
template <typename T>
struct Packet {
    static constexpr int size = 16 / sizeof(T);
    T v[size];
};
__global__ void k(float* out) {
    using packet_t = Packet<float>;
    typedef int index_t;
    index_t i = threadIdx.x * packet_t::size;
    packet_t p;
    for (int k = 0; k < p.size; k++) p.v[k] = i + k;
    out[threadIdx.x] = p.v[0] + p.v[3] + sizeof(packet_t);
}
launch k {
    out = zeros(2);
    expect out == [19, 27];
}
"#;
    // size = 16 / 4 = 4, so i = 4t and p.v = (4t, ..., 4t + 3): 4t + 4t + 3 + 16 = 8t + 19.
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn long_operator_chains_in_a_file_with_struct_operators() {
    // Every `+` may call `operator+`, so the checker asks each operand for its struct type: a
    // 900-term sum (the parser allows 1000 levels) must neither overflow the stack nor take
    // long, for numbers and for structs alike.
    let sum = vec!["x"; 900].join(" + ");
    let chain = vec!["p"; 900].join(" + ");
    let src = format!(
        r#"
struct P {{
    float a;
    __device__ P operator+(const P& o) const {{ return P{{a + o.a}}; }}
}};
__global__ void k(float* out) {{
    float x = 1.0f;
    P p = {{1.0f}};
    P q = {chain};
    out[0] = {sum};
    out[1] = q.a;
}}
launch k {{
    out = zeros(2);
    expect out == [900, 900];
}}
"#
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_struct_kernel_parameter_is_one_parameter_per_member() {
    let src = r#"
struct Params {
    int n;
    float alpha;
    struct { float lo, hi; } clamp;
};
__global__ void k(Params p, float* out) {
    int i = threadIdx.x;
    if (i < p.n) out[i] = fminf(fmaxf(p.alpha * i, p.clamp.lo), p.clamp.hi);
}
launch k {
    p.n = 3;
    p.alpha = 0.5;
    p.clamp.lo = 0.25;
    p.clamp.hi = 0.75;
    out = zeros(4);
    expect out == [0.25, 0.5, 0.75, 0];
}
"#;
    // 0.5i clamped to [0.25, 0.75] for i < 3: 0 → 0.25, 0.5, 1 → 0.75; out[3] stays 0. Like any
    // scalar parameter, the members are registers from the start: no memory access but the
    // store.
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (0, 1));
    // `--arg` names a member the same way: alpha 0.25 gives 0.25, 0.25, 0.5, so the expect fails.
    let r = common::run(src, &[("p.alpha", "0.25")], Some(ONE), Some([4, 1, 1]))
        .unwrap_or_else(|f| panic!("{}", common::describe(&f)));
    assert!(!r.expects[0].passed);
}

#[test]
fn float3_is_a_struct_of_three_floats() {
    let src = r#"
__device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__global__ void step(float3* pos, const float3* vel, float* energy, float dt) {
    int i = threadIdx.x;
    float3 v = vel[i];
    pos[i] = pos[i] + dt * v;
    energy[i] = 0.5f * dot(v, v) + make_float3(1, 2, 3).y + sizeof(float3);
}
launch step {
    pos = arange(96);
    vel = ones(96);
    energy = zeros(32);
    dt = 0.5;
    expect energy == 15.5;
    expect pos == arange(96) + 0.5;
}
"#;
    // energy = ½·(1 + 1 + 1) + 2 + 12. A float3 is 12 bytes with alignment 4, read one member
    // at a time as the hardware does: each of the 6 loads (3 of vel, 3 of pos) and the 3 pos
    // stores has 32 lanes 12 bytes apart, 384 bytes = 12 sectors; energy is 4 sectors.
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (6, 72));
    assert_eq!((c.gst_instr, c.gst_sectors), (4, 40));
}

#[test]
fn a_scalar_buffer_cast_to_a_struct_pointer_is_read_and_written_as_structs() {
    // OneFlow's Pack2X: float memory seen as pairs. Thread t reads pair t = (2t, 2t+1) member by
    // member (two loads of 4 B at an 8 B stride over 32 lanes: 256 B = 8 sectors each) and
    // writes the swapped pair back whole through the cast pointer (one store per member).
    let src = r#"
struct P { float x; float y; };
__global__ void k(float* a, float* o) {
    const P* q = reinterpret_cast<const P*>(a);
    int t = threadIdx.x;
    o[t] = q[t].x + q[t].y;
    P s{q[t].y, q[t].x};
    reinterpret_cast<P*>(a)[t] = s;
}
launch k { a = arange(64); o = zeros(32);
    expect o == arange(32) * 4 + 1;
    expect a[0] == 1; expect a[1] == 0; expect a[62] == 63; expect a[63] == 62; }
"#;
    let c = ok(src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (4, 4 * 8));
    assert_eq!(c.gst_instr, 1 + 2);
}

#[test]
fn function_objects_are_called_through_their_operator() {
    // SHOC's texture readers and thrust-style functors: `twice(x)` is Scale::operator() on an
    // object with data (2x), `op(acc, a[i])` Add::operator() on one without, passed through a
    // template parameter. fold over a[0..4] = 0 + 1 + 2 + 3 = 6, so out[t] = 2t + 6.
    let src = r#"
struct Scale { float s; __device__ float operator()(float x) const { return s * x; } };
struct Add { __device__ float operator()(float a, float b) const { return a + b; } };
template <typename Op>
__device__ float fold(const float* a, int n, Op op) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++) acc = op(acc, a[i]);
    return acc;
}
__global__ void k(const float* a, float* out) {
    Scale twice{2.0f};
    Add add;
    out[threadIdx.x] = twice(a[threadIdx.x]) + fold(a, 4, add);
}
launch k { a = arange(8); out = zeros(8); block = 8; grid = 1; expect out == arange(8) * 2 + 6; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn static_members_and_member_templates_are_called_through_the_type() {
    // cudahandbook's scan policies: `Policy::twice(v)` and `P::template inclusive<T>(v, p)` of a
    // template parameter bound to a policy struct; an unnamed parameter takes no argument.
    // out[i] = 2 · i + 3 · i.
    let src = r#"
struct Policy {
    static inline __device__ int twice(int v) { return 2 * v; }
    template<class T>
    static inline __device__ T thrice(T v, volatile T* /*unused*/) { return 3 * v; }
};
template<class P>
__global__ void k(int* out, unsigned long long) {
    int i = threadIdx.x;
    out[i] = Policy::twice(i) + P::template thrice<int>(i, out);
}
launch k<Policy> { out = zeros(8); expect out == 5 * arange(8); }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

/// A static member function called only through its type reads the file's `__device__` and
/// `__constant__` variables, itself or through what it calls (zeknox's
/// `KeccakHasher::gpu_hash_one` reading `gpu_keccakf_rndc`): they said "unknown name", as the
/// kernel's search for the variables it uses did not follow `KH::one()` into the struct.
/// out = tab[1] + tab[2] + c[1] = 2 + 3 + 20 = 25.
#[test]
fn a_static_member_reads_the_files_device_and_constant_variables() {
    let src = r#"
__device__ unsigned long long tab[3] = {1, 2, 3};
__constant__ float c[2] = {10.0f, 20.0f};
namespace N { __device__ float second() { return c[1]; } }
template <int K> struct KH {
    __device__ static unsigned long long one() { return tab[1] + two(); }
    __device__ static unsigned long long two() { return tab[K] + (unsigned long long)N::second(); }
};
__global__ void k(unsigned long long* s) { s[0] = KH<2>::one(); }
launch k { s = zeros(1); expect s == [25]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// A local array of structs takes a brace list, as C++ does: each element from its item (a
/// braced list or a struct), the rest value-initialised, and `S s[4]{}` all zero (a DB join's
/// per-thread buckets; it was refused). `T` has a default member initialiser run by its
/// constructor. o[i] = s[i].a · 1000 + s[i].b · 100 + r[i % 2].a · 10 + t[i].v: 1200 + 50 + 1,
/// 3400 + 70 + 2, 0 + 50 + 7 (s[2] and t[2] are value-initialised).
#[test]
fn a_local_array_of_structs_takes_a_brace_list() {
    let src = r#"
struct S { int a; int b; };
struct T { int v = 7; __device__ T() {} __device__ T(int x) : v(x) {} };
__global__ void k(int* o) {
    S s[3] = {{1, 2}, {3, 4}};
    S r[] = {{5, 6}, {7, 8}};
    T t[3] = {T(1), 2};
    S z[4]{};
    int i = threadIdx.x;
    z[i].a += i;
    o[i] = s[i].a * 1000 + s[i].b * 100 + r[i % 2].a * 10 + t[i].v + z[i].a + z[i].b;
}
launch k { o = zeros(3); expect o == [1251, 3473, 59]; }
"#;
    ok(src, &[], ONE, [3, 1, 1]);
    let bad = src.replace("S r[] = {{5, 6}, {7, 8}};", "S r[1] = {{5, 6}, {7, 8}};");
    let f = err(&bad, &[], Some(ONE), Some([3, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::initialiser"]);
    // Brace elision (`{5, 6, 7, 8}` filling members across elements) is refused, not read as
    // one element per number.
    let elided = src.replace("S r[] = {{5, 6}, {7, 8}};", "S r[2] = {5, 6, 7, 8};");
    let f = err(&elided, &[], Some(ONE), Some([3, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    // A member of a call's result is a temporary (nvcc: "expression must be a modifiable
    // lvalue"); the message said "a built-in variable".
    let temporary = "__device__ float2 mk() { return make_float2(1.0f, 2.0f); }\n\
        __global__ void k(float* o) { mk().x = 3.0f; o[0] = 1.0f; }\n";
    let f = err(temporary, &[("o", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
    assert!(f.errors[0]
        .to_string()
        .contains("a member of a call's result"));
}

#[test]
fn an_object_built_from_variables_is_not_a_function_declaration() {
    // `C a(x, y);` with variables: unnamed parameters are allowed in definitions, so a
    // declaration of a function `a` taking types `x` and `y` must not be read here
    // (cbe_julia's `cuComplex a(jx, jy);`). a.m() = 2 + 3.
    let src = r#"
struct C {
    float r, i;
    __device__ C(float a, float b) : r(a), i(b) {}
    __device__ float m(void) { return r + i; }
};
__device__ float f(float x, float y) { C a(x, y); return a.m(); }
__global__ void k(float* out) { out[0] = f(2.0f, 3.0f); }
launch k { out = zeros(1); expect out == [5]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// A struct's vector members taken and given whole (exllamav2's `half8 { half2 x, y, z, w; }`):
/// `p.a = make_float2(1, 2)` then `p.a.y + p.s` = 2 + 3 = 5; `p.a = v` with v = (5, 6), 5 + 6 =
/// 11; `p.a = in[1]` of `float2* in` over arange(4) is (2, 3), 2 · 3 = 6; `h.x =
/// __floats2half2_rn(1.5, 2.5)` (both exact in half), `h.y = h.x`, then `__low2float(h.y) +
/// __high2float(h.y)` = 1.5 + 2.5 = 4.
#[test]
fn vector_members_are_assigned_and_read_whole() {
    let src = r#"
struct half8 { half2 x; half2 y; };
struct P { float2 a; float s; };
__global__ void k(float* fo, const float2* in) {
    P p;
    p.s = 3.0f;
    p.a = make_float2(1.0f, 2.0f);
    fo[0] = p.a.y + p.s;
    float2 v = make_float2(5.0f, 6.0f);
    p.a = v;
    fo[1] = p.a.x + p.a.y;
    p.a = in[1];
    fo[2] = p.a.x * p.a.y;
    half8 h;
    h.x = __floats2half2_rn(1.5f, 2.5f);
    h.y = h.x;
    fo[3] = __low2float(h.y) + __high2float(h.y);
}
launch k { fo = zeros(4); in = arange(4); block = 1; grid = 1; expect fo == [5.0, 11.0, 6.0, 4.0]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_member_initialiser_names_the_member_not_a_parameter_of_its_name() {
    // `w(w)` initialises the member `w` with the parameter `w`, as C++ does: each thread's `s.w`
    // is its threadIdx.x + 5. (Read as `w = w` in the constructor's scope it assigned the
    // parameter to itself and left the member 0.)
    let src = r#"
struct S { int w; __device__ S(int w) : w(w) {} };
__global__ void k(int* out) { S s(threadIdx.x + 5); out[threadIdx.x] = s.w; }
launch k { out = zeros(3); expect out == [5, 6, 7]; }
"#;
    ok(src, &[], ONE, [3, 1, 1]);
}

/// exllamav2's view classes: a pointer member set in a constructor's initialiser list, read in
/// member functions returning a scalar, a `half2` and a pointer.
const VIEW: &str = r#"
class View {
public:
    const float* data;
    const int width;
    __device__ View(const float* data, const int width) : data(data), width(width) { }
    __device__ float item(int r, int c) const { return data[r * width + c]; }
    __device__ float2 pair(int r, int c) const { return ((float2*)data)[(r * width + c) / 2]; }
    __device__ const float* item_ptr(int r, int c) const { return &data[r * width + c]; }
};
"#;

#[test]
fn a_pointer_member_points_into_the_array_it_was_given() {
    let src = format!(
        r#"{VIEW}
__device__ float first(View v) {{ return v.data[0]; }}

__global__ void k(const float* m, float* out) {{
    int t = threadIdx.x;
    View v(m, 4);
    View w = v;
    w.data += 2;
    float2 p = v.pair(t, 2);
    const float* q = v.item_ptr(t, 3);
    out[4 * t + 0] = v.item(t, 1);
    out[4 * t + 1] = w.data[4 * t] + first(w);
    out[4 * t + 2] = p.x + p.y;
    out[4 * t + 3] = *q - this_is_zero(v);
}}
"#
    )
    .replace(
        "__device__ float first",
        "__device__ float this_is_zero(const View& v) { return v.data == nullptr ? 1.0f : 0.0f; }\n__device__ float first",
    );
    // m = arange(16) as a 4×4 row-major matrix, so m[r][c] = 4r + c.
    // item(t, 1) = 4t + 1. w is a copy whose pointer moved 2 on: w.data[4t] = m[4t + 2] = 4t + 2,
    // and first(w) = m[2] = 2, so 4t + 4; v is unchanged by w's move (item(t, 1) above).
    // pair(t, 2) is the float2 at element 4t + 2: (4t + 2) + (4t + 3) = 8t + 5.
    // *item_ptr(t, 3) = 4t + 3; v.data is not null, so this_is_zero gives 0.
    let want: Vec<String> = (0..4)
        .flat_map(|t| [4 * t + 1, 4 * t + 4, 8 * t + 5, 4 * t + 3])
        .map(|v| v.to_string())
        .collect();
    let src = format!(
        "{src}\nlaunch k {{ m = arange(16); out = zeros(16); expect out == [{}]; }}\n",
        want.join(", ")
    );
    let r = ok(&src, &[], ONE, [4, 1, 1]);
    // Through the member the loads are the array's own: per warp, item (4 lanes, stride 16
    // bytes: 2 sectors), w.data[4t] (2 sectors), first(w) (1 sector, every lane the same
    // address), pair (8-byte loads, 2 sectors) and *q (2 sectors): 5 requests, 9 sectors.
    assert_eq!(r.counters.gld_instr, 5);
    assert_eq!(r.counters.gld_sectors, 9);
}

#[test]
fn a_struct_kernel_parameter_holding_pointers_gives_each_its_buffer() {
    let src = r#"
struct Params { const float* x; float* y; int n; float a; };
__global__ void saxpy(Params p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.y[i] = p.a * p.x[i] + p.y[i];
}
launch saxpy {
    p.n = 10; p.a = 2.0; p.x = arange(10); p.y = ones(10);
    expect p.y == 2 * arange(10) + 1;
    expect p.x == arange(10);
}
"#;
    // y = 2x + 1 for the 10 threads with i < n; x is read, not written.
    let r = ok(src, &[], [2, 1, 1], [8, 1, 1]);
    // Each warp (8 threads, one per block) loads x and y once and stores y once; 10 floats are
    // 40 bytes: block 0's eight 4-byte loads are one sector, block 1's two another.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (4, 2));
    assert_eq!(r.counters.gld_sectors, 4);
    // `--arg p.y=...` sets the member's buffer like any buffer: ones(10) * 2 breaks the expect.
    let r = common::run(
        src,
        &[("p.y", "ones(10) * 2")],
        Some([2, 1, 1]),
        Some([8, 1, 1]),
    )
    .unwrap_or_else(|f| panic!("{}", common::describe(&f)));
    assert!(!r.expects[0].passed);
}

#[test]
fn a_braced_struct_takes_a_pointer_member_and_defaults_it_to_null() {
    let src = r#"
struct Span { const int* at; int n; };
struct Opt { const int* p = nullptr; int k = 7; };
__global__ void k(const int* in, int* out) {
    Span s = {in + 2, 3};
    Opt o;
    out[threadIdx.x] = s.at[s.n - 1] + (o.p == nullptr ? o.k : 0);
}
launch k { in = arange(8) * 10; out = zeros(2); expect out == [47, 47]; }
"#;
    // s.at points at in[2], so s.at[2] = in[4] = 40; o.p is null, so 40 + 7.
    ok(src, &[], ONE, [2, 1, 1]);

    let src = r#"
__constant__ float table[4];
struct Lut { const float* at = table + 1; };
__global__ void k(float* out) {
    Lut l;
    out[threadIdx.x] = l.at[threadIdx.x] + table[0];
}
launch k { table = [10, 20, 30, 40]; out = zeros(3); expect out == [30, 40, 50]; }
"#;
    // The default points at table[1]: l.at[t] + table[0] = table[t + 1] + 10.
    ok(src, &[], ONE, [3, 1, 1]);
}

#[test]
fn a_pointer_member_follows_the_array_it_is_re_pointed_into() {
    let src = r#"
struct P { float* d; };
__global__ void k(float* a, float* b) {
    P p = {a};
    p.d[threadIdx.x] = 1.0f;
    p.d = b;
    p.d[threadIdx.x] = 2.0f;
}
launch k { a = zeros(2); b = zeros(2); expect a == [1, 1]; expect b == [2, 2]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_struct_kernel_parameter_holding_arrays_takes_each_array_whole() {
    // The ray tracer's `vec3 { float e[3]; }` by value, and a 2×2 array member: each element is a
    // parameter (`o.e[0]`, `f.w[1][0]`), set at once from a list in C's order.
    let src = r#"
struct V3 { float e[3]; };
struct F { float w[2][2]; float n; };
__global__ void k(float* out, V3 o, F f) {
    int t = threadIdx.x;
    out[t] = o.e[t] + f.w[t % 2][1] * f.n;
}
launch k { out = zeros(3); o.e = [1.0, 2.0, 3.0]; f.w = [10, 20, 30, 40]; f.n = 2; expect out == [41, 82, 43]; }
"#;
    // t = 0: e[0] + w[0][1]·2 = 1 + 40; t = 1: 2 + w[1][1]·2 = 2 + 80; t = 2: 3 + w[0][1]·2 = 43.
    let r = ok(src, &[], ONE, [3, 1, 1]);
    // Indexed at run time, each struct is local memory (all of it, as simt keeps a struct holding
    // an array): the kernel stores the 3 + 5 parameters there first (one request each), then
    // loads e[t], w[t % 2][1] and n.
    assert_eq!(
        (r.counters.local_st_instr, r.counters.local_ld_instr),
        (8, 3)
    );
    // `--arg o.e=...` replaces the whole array.
    let r = common::run(src, &[("o.e", "[0, 0, 0]")], Some(ONE), Some([3, 1, 1]))
        .unwrap_or_else(|f| panic!("{}", common::describe(&f)));
    assert!(!r.expects[0].passed);
    // Two values for three elements is an error on the value.
    let f = err(
        &src.replace("o.e = [1.0, 2.0, 3.0]", "o.e = [1.0, 2.0]"),
        &[],
        Some(ONE),
        Some([3, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert_eq!(
        f.errors[0].to_string(),
        "`o.e` is an array member of 3 numbers, given 2 values"
    );
}

#[test]
fn a_struct_element_whose_index_has_an_effect_is_found_once() {
    // C++ evaluates `arr[n++]` once, then copies the whole struct: each member used to repeat
    // the index, so `n++` ran once per member (x in arr[0], y in arr[1], n == 2) — a silent
    // wrong result round 10 found in detectron2's rotated-box IoU.
    let src = r#"
struct P { float x, y; };
__global__ void k(float* o, P* g, const int* idx) {
    P arr[4];
    int n = 0;
    P v = {1.0f, 2.0f};
    arr[n++] = v;
    arr[n++] = {3.0f, 4.0f};
    P w = arr[--n];
    o[0] = n; o[1] = arr[0].x; o[2] = arr[0].y; o[3] = w.x; o[4] = w.y;
    int m = 0;
    g[m++] = v;
    g[idx[threadIdx.x]] = w;
    o[5] = m;
}
launch k { o = zeros(6); g = zeros(8); idx = [2];
    expect o == [1, 1, 2, 3, 4, 1];
    expect g == [1, 2, 0, 0, 3, 4, 0, 0];
}
"#;
    // arr[0] = v, arr[1] = (3, 4), n back to 1 and w = arr[1]; g[0] = v, g[idx[0] = 2] = w.
    let r = ok(src, &[], ONE, ONE);
    // `idx[0]` is loaded once for the two members of g[2] (it was loaded per member); the
    // stores are o's 6 and g's 2 × 2. In local memory: 2 structs stored (4 members), w and
    // arr[0] read (4).
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (1, 10));
    assert_eq!(
        (r.counters.local_st_instr, r.counters.local_ld_instr),
        (4, 4)
    );
}

#[test]
fn functions_nothing_calls_see_a_struct_parameters_pointer_as_pointing_somewhere() {
    // exllama's matrix.cuh: helpers taking a view by value and calling its pointer-returning
    // member, none of them called by the kernel. Checked on their own, the view's pointer points
    // into a placeholder array (as a pointer parameter does); this once panicked the checker.
    let src = r#"
struct V {
    const float* data;
    int width;
    __device__ V(const float* data, int width) : data(data), width(width) { }
    __device__ const float* row_ptr(int row) const { return &data[row * width]; }
};
__device__ float first(V v) { const float* p = v.row_ptr(0); return p[0]; }
__device__ float second(V v) { const float* p = v.row_ptr(1); return p[0]; }
__global__ void k(const float* x, float* out) { out[threadIdx.x] = x[threadIdx.x]; }
launch k { x = arange(4); out = zeros(4); expect out == arange(4); }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    assert!(simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)).is_ok());
}

#[test]
fn default_constructors_run_for_each_array_element_and_member() {
    // C++ [dcl.init]: `P arr[3];` default-initialises each element by calling P(), in order;
    // a member `P m[2];` of a class without a constructor, and a member `Q q;`, are
    // default-initialised the same way when their holder is. A constructor whose parameters
    // all have defaults is the default constructor (detectron2's `Point(const T& px = 0, ...)`).
    let src = r#"
struct P { float x, y; __device__ P() : x(7), y(9) {} };
struct Q { float x, y; __device__ Q(float a = 1.5f, float b = 2.5f) : x(a), y(b) {} };
struct H { P m[2]; Q q; float z; };
__global__ void k(float* o) {
    P arr[3];
    Q qa[2];
    H h;
    Q one(4.0f);
    Q two(5.0f, 6.0f);
    Q q;
    o[0] = arr[2].x; o[1] = arr[0].y; o[2] = qa[1].x; o[3] = qa[0].y;
    o[4] = h.m[1].x + h.m[0].y; o[5] = h.q.x + h.q.y; o[6] = sizeof(H);
    o[7] = one.x + one.y; o[8] = two.x * two.y; o[9] = q.x - q.y;
}
launch k { o = full(10, -1); expect o == [7, 9, 1.5, 2.5, 16, 4, 28, 6.5, 30, -1]; }
"#;
    // arr[i] = (7, 9); qa[i] = (1.5, 2.5); h.m[1].x + h.m[0].y = 7 + 9 = 16; h.q = (1.5, 2.5)
    // adds to 4; sizeof(H) = 2 * 8 + 8 + 4 = 28 (h.z is indeterminate in C++, so unread);
    // one = (4, 2.5): 6.5; two = (5, 6): 30; q = (1.5, 2.5): -1.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_constructor_with_defaults_says_how_many_arguments_it_takes() {
    let (code, message, at) = refused(
        "struct Q { float x, y; __device__ Q(float a, float b = 2) : x(a), y(b) {} };\n__global__ void k(float* out) {\n    Q q;\n    out[0] = q.x;\n}",
    );
    assert_eq!(code, "simt::check::argument_count");
    assert_eq!(message, "`Q::Q` takes 1 to 2 argument(s), found 0");
    assert_eq!(at, (3, 7));
}

#[test]
fn reference_locals_name_the_object_they_are_bound_to() {
    // C++ [dcl.ref]: a reference local is another name for its object: writes through it go
    // there, and the element `p[t]` names is fixed where it is declared (detectron2's
    // `const auto& AB = vec2[0];`, `auto& start = p[t];`). A `const` reference to a value that
    // is no object (`acc + 1`) holds a copy.
    let src = r#"
struct Pt { float x, y; };
struct Box { Pt a; float m; };
__global__ void k(float* o) {
  float v[2] = {o[0], o[1]};
  const float& r = v[1];
  float& w = v[0];
  w = 5;
  Pt p[2];
  p[0].x = 1; p[0].y = 2; p[1].x = 3; p[1].y = 4;
  int t = 1;
  const auto& q = p[t];
  auto& s = p[0];
  t = 0;
  s.y = 7;
  o[2] = r + v[0];
  o[3] = q.x + p[0].y;
  Box b; b.a.x = 1; b.a.y = 2; b.m = 3;
  float& m = b.m;
  m += 10;
  Pt& ba = b.a;
  ba.x = 20;
  auto& bx = b.a.y;
  bx = 30;
  float acc = 1;
  auto& ra = acc;
  ra *= 4;
  const float& tmp = acc + 1;
  acc += 100;
  o[4] = b.m + b.a.x + b.a.y;
  o[5] = acc + tmp;
}
launch k { o = [1, 2, 0, 0, 0, 0]; expect o == [1, 2, 7, 10, 63, 109]; }
"#;
    // o[2] = r + v[0] = v[1] + 5 = 7; q is p[1] though t changes after: 3 + s.y = 3 + 7 = 10;
    // b.m = 3 + 10, b.a = (20, 30): 63; acc = 1 * 4 = 4, tmp = 5 (a copy), acc += 100: 109.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_member_function_calls_another_by_its_plain_name_and_classes_are_declared_ahead() {
    // C++ [class.mfct.non-static]: `getL()` inside a member function is `this->getL()`
    // (HOOMD's BoxDim::wrap); `template<class R> struct pair2;` and `struct S;` declare a class
    // defined later (HOOMD's VectorMath.h).
    let src = r#"
template<class Real> struct pair2;
struct S;
struct Box {
    __device__ float getL() { return m_L; }
    __device__ float twice(float w) { return 2 * w; }
    __device__ float wrap(float w) { return w >= getL() ? twice(w - getL()) : w; }
    float m_L;
};
template<class Real> struct pair2 { Real a, b; };
__global__ void k(float* out) {
    Box box;
    box.m_L = 10;
    pair2<float> p;
    p.a = 1; p.b = 2;
    out[threadIdx.x] = box.wrap(out[threadIdx.x]) + p.a * p.b;
}
launch k { out = [1, 5, 11, 12]; expect out == [3, 7, 4, 6]; }
"#;
    // wrap: 1 → 1, 5 → 5, 11 → 2 * 1 = 2, 12 → 2 * 2 = 4; each plus 1 * 2.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_member_without_a_default_constructor_is_built_by_its_holder() {
    // `In` has no default constructor: O's initialiser list and `{...}` build it, and no
    // default construction of it is attempted (that would be "takes 1 argument(s)").
    let src = r#"
struct In { float a, b; __device__ In(float x) : a(x), b(2.0f * x) {} };
struct O { In in; float c; __device__ O(float x) : in(x), c(1.0f) {} };
struct B { In in; float c; };
__global__ void k(float* out) {
    O o(3.0f);
    B b = {4.0f, 5.0f};
    out[0] = o.in.a + 10.0f * o.in.b + 100.0f * o.c;
    out[1] = b.in.a + 10.0f * b.in.b + 100.0f * b.c;
}
launch k { out = zeros(2); expect out == [163, 584]; }
"#;
    // o.in = In(3) = (3, 6), o.c = 1: 3 + 60 + 100; b.in = In(4) = (4, 8), b.c = 5: 4 + 80 + 500.
    ok(src, &[], ONE, ONE);
}

#[test]
fn the_address_of_a_struct_elements_member_points_into_the_buffer() {
    let src = r#"
struct P { float a; float b; };
__global__ void k(P* p, float* out) {
    float* q = &p[threadIdx.x].b;
    out[threadIdx.x] = *q;
    atomicAdd(&p[0].a, 1.0f);
}
launch k { p = [1, 2, 3, 4]; out = zeros(2); expect out == [2, 4]; expect p == [3, 2, 3, 4]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn noexcept_on_functions_constructors_and_members_changes_nothing() {
    // ArrayFire's Param<T>: `__DH__ Param() noexcept : ...`, `size_t elements() const noexcept`.
    let src = r#"
struct P {
    float *ptr;
    int n;
    __device__ P() noexcept : ptr(nullptr), n(3) {}
    __device__ explicit P(int m) noexcept(true) : ptr(nullptr), n(m) {}
    __device__ int size() const noexcept { return n; }
    __device__ int twice() noexcept(sizeof(int) == 4) { return 2 * n; }
    __device__ ~P() noexcept {}
};
__device__ int add(int a, int b) noexcept { return a + b; }
__device__ int sub(int a, int b) noexcept(false);
__device__ int sub(int a, int b) noexcept(false) { return a - b; }
__global__ void k(int *out) noexcept {
    P a;
    P b(threadIdx.x);
    auto f = [](int x) noexcept { return x + 1; };
    out[threadIdx.x] = add(a.size(), b.twice()) + sub(f(10), 1);
}
launch k { out = zeros(4); expect out == [13, 15, 17, 19]; }
"#;
    // a.n = 3, b.n = t: 3 + 2t, plus (10 + 1) - 1 = 10: 13 + 2t.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn defaulted_copy_and_move_members_copy_member_by_member() {
    // ArrayFire's `Param(Param<T> &&other) noexcept = default;` and its assignments: the copy
    // C++ makes of every member, which simt makes of any struct.
    let src = r#"
template <typename T>
struct P {
    T v[2];
    __device__ P(T a, T b) : v{a, b} {}
    P(const P<T> &other) noexcept = default;
    P(P<T> &&other) noexcept = default;
    P<T> &operator=(const P<T> &other) noexcept = default;
    P<T> &operator=(P<T> &&other) noexcept = default;
};
template <typename T>
__device__ T sum(P<T> p) { return p.v[0] + p.v[1]; }
__global__ void k(float *out) {
    int t = threadIdx.x;
    P<float> a(t, 10.0f);
    P<float> b = a;
    P<float> c(2.0f, 3.0f);
    c = b;
    b.v[0] = 100.0f;
    out[t] = sum(c) + b.v[0];
}
launch k { out = zeros(4); expect out == [110, 111, 112, 113]; }
"#;
    // c is a copy of a (t, 10), so sum(c) = t + 10; b's later change (100) leaves c alone:
    // out[t] = t + 10 + 100.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn copying_a_struct_whose_copy_member_is_deleted_is_refused() {
    let deleted = |member: &str, copy: &str| {
        format!(
            r#"
struct P {{
    float v;
    __device__ P(float x) : v(x) {{}}
    {member}
}};
__global__ void k(float *out) {{
    P a(1.0f);
    P b(2.0f);
    {copy}
    out[threadIdx.x] = b.v;
}}
launch k {{ out = zeros(4); }}
"#
        )
    };
    let ctor = "P(const P &other) = delete;";
    let assign = "P &operator=(const P &) = delete;";
    // The deleted copy constructor forbids `P c = a;` (line 10); the deleted assignment `b = a;`.
    for (member, copy) in [(ctor, "P c = a; b.v = c.v;"), (assign, "b = a;")] {
        let f = err(&deleted(member, copy), &[], Some(ONE), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::deleted_member"], "{member}");
        assert_eq!(position(&f).0, 10, "{member}");
    }
    // Each alone leaves the other copy allowed: b = a (1), and c = a.
    ok(&deleted(ctor, "b = a;"), &[], ONE, [4, 1, 1]);
    ok(
        &deleted(assign, "P c = a; b.v = c.v + 1.0f;"),
        &[],
        ONE,
        [4, 1, 1],
    );
    // A deleted move member, or a defaulted member of another type, is reported where the
    // struct is used.
    for member in ["P(P &&other) = delete;", "P(const Q &other) = default;"] {
        let f = err(&deleted(member, "b = a;"), &[], Some(ONE), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{member}");
    }
}

#[test]
fn a_struct_holding_a_pointer_and_arrays_is_a_kernel_parameter() {
    // ArrayFire's `Param<T> { T *ptr; dim_t dims[4]; dim_t strides[4]; }`, passed by value to
    // every ArrayFire kernel: the arrays are a one-element local array, the pointer a register.
    let src = r#"
struct Param { float *ptr; long long dims[4]; long long strides[4]; };
__global__ void k(Param out, int j) {
    int x = threadIdx.x, y = threadIdx.y;
    long long n = 1;
    for (int d = 0; d < 4; d++) n *= out.dims[d];
    if (x < out.dims[0] && y < out.dims[1])
        out.ptr[x * out.strides[0] + y * out.strides[1]] = x + 10 * y + n * out.strides[j];
}
launch k {
    o = zeros(12);
    out.ptr = o;
    out.dims = [4, 3, 1, 1];
    out.strides = [1, 4, 12, 12];
    j = 0;
    expect o == [12, 13, 14, 15, 22, 23, 24, 25, 32, 33, 34, 35];
}
"#;
    // n = 4·3·1·1 = 12 and strides[0] = 1: o[x + 4y] = x + 10y + 12.
    // `out.strides[j]` is indexed at run time, so the struct's 8 array elements are local memory
    // (its pointer stays a register): the kernel first stores them (8 requests), then loads
    // dims[0..3] in the loop, dims[0], dims[1], strides[0], strides[1] and strides[j] (9). The
    // 12 lanes (one warp) each hold their own 8-byte copy, interleaved: 12 × 8 B = 96 B = 3
    // sectors a request. The one global store: lanes x + 4y write o[0..12], 48 bytes from the
    // buffer's start = 2 sectors.
    let c = ok(src, &[], ONE, [4, 3, 1]).counters;
    assert_eq!((c.local_st_instr, c.local_st_sectors), (8, 24));
    assert_eq!((c.local_ld_instr, c.local_ld_sectors), (9, 27));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 2));
    assert_eq!(c.gld_instr, 0);
    // With constant indices only (the loop unrolls), the arrays stay in registers: the pointer's
    // store is the only memory access.
    let src = src.replace("out.strides[j]", "out.strides[0]");
    let c = ok(&src, &[], ONE, [4, 3, 1]).counters;
    assert_eq!((c.local_st_instr, c.local_ld_instr), (0, 0));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 2));
}

#[test]
fn a_local_struct_holding_a_pointer_and_an_array_is_copied_and_passed() {
    // PyTorch's accessors and ATen's TensorInfo hold a pointer and size arrays, built as locals,
    // copied, and passed by value and by reference to `__device__` functions.
    let src = r#"
struct View {
    int n[2];
    const float *data;
    __device__ float at(int i, int j) const { return data[i * n[1] + j]; }
};
__device__ float total(View v) {
    float s = 0.0f;
    for (int i = 0; i < v.n[0]; i++)
        for (int j = 0; j < 3; j++) s += v.at(i, j);
    return s;
}
__device__ void shift(View& v, int k) { v.data = v.data + k; v.n[0] -= 1; }
__global__ void k(const float* in, float* out) {
    View a;
    a.n[0] = 2; a.n[1] = 3; a.data = in;
    View b = a;
    shift(b, 3);
    out[0] = total(a);
    out[1] = b.at(0, 2);
    out[2] = b.n[0] * 10 + a.n[0];
}
launch k { in = arange(6); out = zeros(3); expect out == [15, 5, 12]; }
"#;
    // total(a) = in[0] + ... + in[5] = 15; b.data = in + 3, so b.at(0, 2) = in[3 + 2] = 5;
    // b.n[0] = 2 - 1 = 1, a.n[0] = 2: 1·10 + 2 = 12. `a` and `b` are copied member by member.
    // Every index of `n` is a constant, so each copy's array stays in registers: no local
    // memory. One thread: 6 loads in total(), 1 in b.at(0, 2), and the 3 stores.
    let c = ok(src, &[], ONE, ONE).counters;
    assert_eq!((c.local_st_instr, c.local_ld_instr), (0, 0));
    assert_eq!((c.gld_instr, c.gst_instr), (7, 3));
    // An index known only at run time (`n[q]`, q = 1, adding 3 - 3) puts `a` and `b` in local
    // memory; `total`'s copy `v` has constant indices only and stays in registers. Stores:
    // a.n[0], a.n[1]; b = a (2); shift's b.n[0] -= 1: 5. Loads: b = a (2); b.n[0] in shift;
    // total(a) copies a.n (2); b.at reads b.n[1]; out[2] reads b.n[0], a.n[0], b.n[q], a.n[q]
    // (4): 10. The pointers stay registers either way.
    let src = src
        .replace(
            "__global__ void k(const float* in, float* out) {",
            "__global__ void k(const float* in, float* out, int q) {",
        )
        .replace(
            "out[2] = b.n[0] * 10 + a.n[0];",
            "out[2] = b.n[0] * 10 + a.n[0] + b.n[q] - a.n[q];",
        )
        .replace("out = zeros(3);", "out = zeros(3); q = 1;");
    let c = ok(&src, &[], ONE, ONE).counters;
    assert_eq!((c.local_st_instr, c.local_ld_instr), (5, 10));
    assert_eq!((c.gld_instr, c.gst_instr), (7, 3));
}

#[test]
fn a_macro_written_call_operator_and_a_temporary_function_object() {
    // pytorch_scatter's atomics.cuh: `ATOMIC(NAME)` writes `operator()` through a macro, which
    // hands the parser `operator ( )`; `F<float>()(p, v)` calls a temporary's operator().
    // out[t] = Twice(3) + Thrice(1) = 6 + 3 = 9; then each of the 2 threads adds 1 to out[2]
    // through a temporary Add<float>, and Scale<float>()(out[2]) = 2 * 2 = 4 goes to out[3]
    // (thread 0, after a barrier).
    let src = r#"
#define DEFS(N) struct N { __device__ float operator()(float v) { return 2.0f * v; } }
DEFS(Twice);
struct Thrice { __device__ float operator( )(float v) { return 3.0f * v; } };
template <typename T> struct Add {
    inline __device__ void operator()(T* address, T val) { atomicAdd(address, val); }
};
template <typename T> struct Scale { __device__ T operator()(T v) const { return 2 * v; } };
__global__ void k(float* out) {
    Twice t;
    Thrice u;
    out[threadIdx.x] = t(3.0f) + u(1.0f);
    Add<float>()(&out[2], 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[3] = Scale<float>()(out[2]);
}
launch k { out = zeros(4); expect out == [9, 9, 2, 4]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn temporary_function_objects_are_passed_to_templates() {
    // cudacodes' softmax reductions: `fold(a, n, init, SumOpF())` and `MaxOp<float>()` built as
    // temporaries where the call is, `Op` deduced from them (`MaxOp<float>` with its argument).
    // With a = 0..7, thread t folds a[0..=t]: the sum t(t + 1)/2 and the max t, so out[t] =
    // t(t + 1)/2 + 100t = [0, 101, 203, 306, 410, 515, 621, 728].
    let src = r#"
template <typename T> struct MaxOp { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
struct SumOpF { __device__ float operator()(float a, float b) const { return a + b; } };
template <typename T, typename Op>
__device__ T fold(const T* a, int n, T init, Op op) {
    T acc = init;
    for (int i = 0; i < n; i++) acc = op(acc, a[i]);
    return acc;
}
__global__ void k(const float* a, float* out) {
    int t = threadIdx.x;
    out[t] = fold(a, t + 1, 0.0f, SumOpF()) + 100.0f * fold(a, t + 1, -1.0f, MaxOp<float>());
}
launch k { a = arange(8); out = zeros(8); expect out == [0, 101, 203, 306, 410, 515, 621, 728]; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn lambdas_are_passed_to_templates() {
    // A lambda argument of a template parameter `Op` (its closure type, as C++ deduces it), also
    // nvcc's extended `[] __device__ (...)` and `[&] __host__ __device__ (...) -> float`, and
    // passed on from one template to another. `add_s` copied s = 10 when it was made; `[&]`
    // sees s = 1000. out[t] = t·1 + (t + t + 10) + (2 - 3 + 1000) = 3t + 1009.
    let src = r#"
template <typename T, typename Op>
__device__ T combine(T a, T b, Op op) { return op(a, b); }
template <typename T, typename Op>
__device__ T twice(T a, Op op) { return combine(a, a, op); }
__global__ void k(float* out) {
    int t = threadIdx.x;
    float s = 10.0f;
    auto add_s = [s](float a, float b) { return a + b + s; };
    s = 1000.0f;
    out[t] = combine((float)t, 1.0f, [] __device__ (float a, float b) { return a * b; })
           + twice((float)t, add_s)
           + combine(2.0f, 3.0f, [&] __host__ __device__ (float a, float b) -> float { return a - b + s; });
}
launch k { out = zeros(4); expect out == [1009, 1012, 1015, 1018]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn constexpr_constructors_of_a_class_template() {
    // lmdeploy's SubBytePtr: `constexpr SubBytePtr() = default;` and a `constexpr explicit`
    // constructor from a pointer. Each thread writes 1 + t through p.p_: out = [1, 2].
    let src = r#"
template <class T>
struct Ptr {
    constexpr Ptr() = default;
    __device__ constexpr explicit Ptr(T* p): p_(p) {}
    T* p_;
};
__global__ void k(float* out) { Ptr<float> p(out); p.p_[threadIdx.x] = 1.0f + threadIdx.x; }
launch k { out = zeros(2); expect out == [1, 2]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

/// QuEST's `Qureg` and hoomd's argument structs: a struct kernel parameter whose pointer
/// members point to scalars, to vectors wider than 16 bytes (`double4`) and to plain structs.
const MEMBER_POINTERS: &str = r#"
struct P { float x; float y; };
struct S { int n; const float* a; P* ps; double4* f; };
__global__ void k(S s, float* out) {
    int i = threadIdx.x;
    out[i] = s.a[i] + s.ps[i].y;
    s.ps[i].x = s.f[i].w;
}
launch k {
    s.n = 32; s.a = arange(32); s.ps = arange(64); s.f = ones(128); out = zeros(32);
    expect out == arange(32) * 3 + 1;
    expect s.ps[0] == 1; expect s.ps[1] == 1; expect s.ps[62] == 1; expect s.ps[63] == 63;
}
"#;

/// The same accesses through pointer parameters.
const PARAM_POINTERS: &str = r#"
struct P { float x; float y; };
__global__ void k(const float* a, P* ps, double4* f, float* out) {
    int i = threadIdx.x;
    out[i] = a[i] + ps[i].y;
    ps[i].x = f[i].w;
}
launch k {
    a = arange(32); ps = arange(64); f = ones(128); out = zeros(32);
    expect out == arange(32) * 3 + 1;
}
"#;

#[test]
fn pointer_members_reach_scalars_vectors_and_structs_and_count_as_pointer_parameters() {
    // out[i] = a[i] + ps[i].y = i + (2i + 1). Loads over 32 lanes: a[i], 4 B apart from byte 0,
    // 128 B = 4 sectors; ps[i].y, 8 B apart from byte 4, bytes 4..255 = 8 sectors; f[i].w, one
    // double of a 32-byte double4, 32 B apart from byte 24: one sector per lane, 32. Stores:
    // out[i], 4 sectors; ps[i].x, 8 B apart from byte 0, 8 sectors.
    let m = ok(MEMBER_POINTERS, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((m.gld_instr, m.gld_sectors), (3, 4 + 8 + 32));
    assert_eq!((m.gst_instr, m.gst_sectors), (2, 4 + 8));
    let p = ok(PARAM_POINTERS, &[], ONE, [32, 1, 1]).counters;
    assert_eq!(
        (m.gld_instr, m.gld_sectors, m.gst_instr, m.gst_sectors),
        (p.gld_instr, p.gld_sectors, p.gst_instr, p.gst_sectors)
    );
}

/// QuEST's `Qureg` holds a `void*` handle, a `CuQuantumConfig*` (a `void**`) and a
/// `QASMLogger*` (a struct holding a `char*`) that its kernels never use.
const OPAQUE_MEMBERS: &str = r#"
struct Logger { char* buffer; int fill; };
struct Q { int n; void* handle; void** config; Logger* log; float* re; };
__global__ void k(Q q) {
    Q copy = q;
    if (threadIdx.x < copy.n) copy.re[threadIdx.x] *= 2.0f;
}
"#;

#[test]
fn pointer_members_simt_does_not_follow_may_be_unset_null_or_copied() {
    // The unused members are left unset (`config`, `log`) or NULL (`handle`).
    let src = format!(
        "{OPAQUE_MEMBERS}launch k {{ q.n = 3; q.handle = NULL; q.re = [1, 2, 3, 4]; expect q.re == [2, 4, 6, 4]; }}"
    );
    ok(&src, &[], ONE, [4, 1, 1]);
    // Given an array, such a member is refused where the array is given.
    let src = format!("{OPAQUE_MEMBERS}launch k {{ q.n = 3; q.log = zeros(4); q.re = zeros(4); }}");
    let f = err(&src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`q.log` points to `Logger`, which simt holds but does not follow, so it takes no array"
    );
    // Read by the kernel, each is refused where it is read: `void**` is a pointer to a pointer,
    // never a `void*`; a `void*` the kernel never casts is bytes it does not follow.
    for (read, member, pointee) in [
        ("q.handle", "q.handle", "void"),
        ("(float*)q.config[0]", "q.config", "void*"),
        ("q.log->fill", "q.log", "Logger"),
    ] {
        let (code, message, _) = refused(&format!(
            "struct Logger {{ char* buffer; int fill; }};\nstruct Q {{ void* handle; void** config; Logger* log; }};\n__global__ void k(Q q, float* out) {{ out[0] = {read} != 0; }}"
        ));
        assert_eq!(code, "simt::check::unsupported", "{read}");
        assert_eq!(
            message,
            format!("reading the member `{member}`, a pointer to `{pointee}`, is not supported")
        );
    }
}

#[test]
fn a_pointer_member_the_launch_leaves_unset_traps_where_it_is_read() {
    // `q.im` is unset: unread (n = 2) the launch runs; read (n = 3, thread 2 reads it) it traps
    // with the member's name, in the engine and in the reference interpreter alike.
    let src = r#"
struct Q { int n; float* re; float* im; };
__global__ void k(Q q) {
    int i = threadIdx.x;
    q.re[i] = i;
    if (i >= 2 && i < q.n) q.im[i] = 1.0f;
}
launch k { q.n = 2; q.re = zeros(4); expect q.re == [0, 1, 2, 3]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    let f = err(src, &[("q.n", "3")], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::unset_pointer"]);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`q.im` is not set: the launch section gives this pointer member no array"
    );
    assert_eq!(position(&f), (6, 28));
}

#[test]
fn enums_inside_structs_and_namespaces_are_constants_of_their_scope() {
    // xmrig-cuda's `struct Blake2b_IV { enum Values : uint64_t { iv0 = ... }; }` and
    // `template <...> struct SelectBytes { enum { value = ... }; }`; a namespace's enumerators
    // and constants named from outside it (`K::a`, `C::D::M`).
    // 0x6a09e667f3bcc908 ^ 3 = 0x6a09e667f3bcc90b = 7640891576956012811; Pack<3, 4> = 3 | 4 << 4
    // = 67; Next::b = a + 1 = 11.
    let src = r#"
struct K {
    enum Values : unsigned long long { a = 0x6a09e667f3bcc908ull, b = 3, };
};
template <unsigned a, unsigned b>
struct Pack { enum { value = a | (b << 4) }; };
struct Next { enum { a = 10, b }; };
namespace N { enum { e = 5 }; const int n = 6; }
namespace C { namespace D { constexpr int M = 7; } }
__global__ void k(unsigned long long* o) {
    o[0] = K::a ^ K::b;
    o[1] = Pack<3, 4>::value;
    o[2] = Next::b;
    o[3] = N::e + N::n;
    o[4] = C::D::M;
    K::Values v = K::b;
    o[5] = v;
}
launch k {
    o = zeros(6);
    expect o == [7640891576956012811, 67, 11, 11, 7, 3];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// Issue 13: a struct pointer formed from a float pointer at a float offset (tensorrtx's
/// CalDetection, `Detection* det = (Detection*)(out + 1 + count * sizeof(Detection) / 4)`). The
/// struct is aligned as its largest member (4 bytes), and each member access is an access of
/// the member's size, so the pointer may point at any float.
#[test]
fn a_struct_pointer_at_a_float_offset_stores_member_by_member() {
    let want = list((0..161).map(|m| match m {
        m if m >= 5 && m % 5 == 0 => 7,
        m if m % 5 == 3 => m / 5,
        _ => 0,
    }));
    let src = format!(
        r#"
struct Det {{ float bbox[4]; float conf; }};
__global__ void k(float* out) {{
    int i = threadIdx.x;
    Det* d = (Det*)(out + 1 + i * (sizeof(Det) / sizeof(float)));
    d->conf = 7.0f;
    d->bbox[2] = (float)i;
}}
launch k {{
    out = zeros(161);
    expect out == {want};
}}
"#
    );
    // Lane i's Det starts at float 5i + 1: conf is float 5i + 5 (7 at 5, 10, ..., 160) and
    // bbox[2] float 5i + 3 (i at 3, 8, ..., 158). Each store is one 4-byte store per lane:
    // conf at bytes 20i + 20, lanes 20 bytes apart from byte 20 to 643, every sector 0..20
    // (a step of 20 < 32 skips none) = 21; bbox[2] at bytes 20i + 12, from 12 to 635, sectors
    // 0..19 = 20.
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gst_instr, c.gst_sectors), (2, 41));
    assert_eq!(c.g_bytes_requested, 2 * 128);
}

/// A struct pointer at a float offset steps, indexes, subtracts and copies in whole structs:
/// its offset counts floats, `p + k` and `p[k]` move `k` structs.
#[test]
fn a_struct_pointer_at_a_float_offset_moves_in_whole_structs() {
    let want2 = list((0..32).flat_map(|i| [5 * i + 6, 5 * i + 8, i]));
    let want3 = list((0..164).map(|m| if (3..163).contains(&m) { m - 1 } else { 0 }));
    let src = format!(
        r#"
struct Det {{ float bbox[4]; float conf; }};
__global__ void k(const float* in, float* o2, float* o3) {{
    int i = threadIdx.x;
    const Det* s = (const Det*)(in + 2);
    const Det* q = &s[i];
    o2[3 * i] = s[i].conf;
    o2[3 * i + 1] = (q + 1)->bbox[1];
    o2[3 * i + 2] = (float)(q - s);
    Det* c = (Det*)(o3 + 3) + i;
    *c = *q;
}}
launch k {{
    in = arange(200);
    o2 = zeros(96);
    o3 = zeros(164);
    expect o2 == {want2};
    expect o3 == {want3};
}}
"#
    );
    // s is float 2 of in = arange: s[i] spans floats 5i + 2 .. 5i + 6. s[i].conf = 5i + 6;
    // (q + 1) is s[i + 1], whose bbox[1] is float 5(i + 1) + 2 + 1 = 5i + 8; q - s = i structs.
    // c is float 3 + 5i of o3 and gets s[i]'s five floats 5i + 2 .. 5i + 6: o3[m] = m - 1 for
    // m in 3 .. 162. Loads: conf, bbox[1], and the copy's five members = 7 per lane; stores:
    // three to o2 and five members = 8.
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    assert_eq!((c.gld_instr, c.gst_instr), (7, 8));
}

/// A struct aligned beyond its members (`__align__(16)`) traps where a pointer to it is not
/// at a multiple of 16 bytes, as the GPU does; a float offset is 4-byte aligned but a byte
/// offset of 2 is not even that.
#[test]
fn a_struct_pointer_off_its_alignment_traps() {
    for (ty, at) in [("A", "out + 1"), ("Det", "(float*)((char*)out + 2)")] {
        let src = format!(
            r#"
struct __align__(16) A {{ float x, y, z, w; }};
struct Det {{ float bbox[4]; float conf; }};
__global__ void k(float* out) {{
    {ty}* p = ({ty}*)({at});
    p->x_or_conf = 1.0f;
}}
"#
        )
        .replace("x_or_conf", if ty == "A" { "x" } else { "conf" });
        let f = err(&src, &[("out", "zeros(64)")], Some(ONE), Some([1, 1, 1]));
        assert_eq!(codes(&f), ["simt::run::misaligned_address"], "{ty}");
    }
    // At a multiple of 16 bytes the aligned struct is fine: float 4 is byte 16.
    let src = r#"
struct __align__(16) A { float x, y, z, w; };
__global__ void k(float* out) {
    A* p = (A*)(out + 4);
    p->y = 1.0f;
}
launch k { out = zeros(8); expect out == [0, 0, 0, 0, 0, 1, 0, 0]; }
"#;
    ok(src, &[], ONE, [1, 1, 1]);
}

/// Issue 13: cuda-samples' `SharedMemory<T>` (an object whose `operator T*()` views the dynamic
/// shared memory, here through `(T*)(void*)__smem`) of a struct type, indexed as the object
/// itself (`sm[i] = v`, `sm[i] += sm[j]`): member operators chosen by their argument, a
/// `float` for `operator+=(float)`, a struct for `operator+=(const P&)`.
#[test]
fn shared_memory_of_a_struct_type_is_indexed_through_its_conversion() {
    let want = list((0..16).flat_map(|t| [2 * t + 16, t * t + (t + 16) * (t + 16)]));
    let src = format!(
        r#"
struct P {{
    float s, q;
    __device__ void operator+=(float a) {{ s += a; q += a * a; }}
    __device__ void operator+=(const P& o) {{ s += o.s; q += o.q; }}
}};
template <class T>
struct SharedMemory {{
    __device__ inline operator T*() {{
        extern __shared__ int __smem[];
        return (T*)(void*)__smem;
    }}
}};
__global__ void k(P* out) {{
    SharedMemory<P> sm;
    int t = threadIdx.x;
    P v = {{0.0f, 0.0f}};
    v += (float)t;
    sm[t] = v;
    __syncthreads();
    if (t < 16) sm[t] += sm[t + 16];
    __syncthreads();
    if (t < 16) out[t] = sm[t];
}}
launch k {{
    out = zeros(32);
    dyn_smem = 256;
    expect out == {want};
}}
"#
    );
    // Thread t's P is (t, t²); after the step, sm[t] for t < 16 is (t + t + 16, t² + (t + 16)²)
    // = (2t + 16, t² + (t + 16)²), which out[t] gets.
    // Shared: `sm[t] = v` is two stores, lane t at word 2t: lanes t and t + 16 share bank 2t mod
    // 32, 2 wavefronts each = 4. The step (16 lanes) loads sm[t].s, .q, sm[t + 16].s, .q and
    // stores .s, .q: words 2t (+ 32), even banks 0..30 for the 16 lanes, 1 wavefront each: 4
    // loads, 2 stores. `out[t] = sm[t]` loads .s and .q, 1 wavefront each.
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    // In all 4 + 6 = 10 instructions and 6 + 6 = 12 wavefronts, 2 beyond one per instruction.
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (10, 12, 2)
    );
    assert_eq!(c.gst_instr, 2);
}

/// C++ [class.nest]: a class nested in a class (template) names the enclosing class's
/// enumerators and static constants (warp-ctc's `CTAReduce<NT, T>`: `enum { Size = NT,
/// Capacity = NT }; struct Storage { T shared[Capacity]; };`). By hand: `Storage` of
/// `CTAReduce<4, float>` holds 4 floats; thread t reads in[3 - t] + Size = 4 - t + 4 (8, 7, 6,
/// 5); `Plain::Inner::v` has `Twice` = 2 * 3 = 6 ints; n = 6 + 4 * 10 + 7 * 100 = 746.
#[test]
fn a_nested_class_sizes_an_array_by_its_enclosing_classs_enumerator() {
    let src = r#"
template <int NT, typename T>
struct CTAReduce {
    enum { Size = NT, Capacity = NT };
    struct Storage { T shared[Capacity]; };
};
struct Plain {
    static constexpr int kN = 3;
    enum { Twice = 2 * kN };
    struct Inner { int v[Twice]; int seven; };
};
__global__ void k(const float* in, float* out, int* n) {
    __shared__ CTAReduce<4, float>::Storage storage;
    int tid = threadIdx.x;
    storage.shared[tid] = in[tid];
    __syncthreads();
    out[tid] = storage.shared[3 - tid] + CTAReduce<4, float>::Size;
    Plain::Inner pi;
    pi.seven = 7;
    n[tid] = sizeof(pi.v) / sizeof(int) + sizeof(storage) / sizeof(float) * 10 + pi.seven * 100;
}
launch k { in = [1, 2, 3, 4]; out = zeros(4); n = zeros(4);
    expect out == [8, 7, 6, 5]; expect n == [746, 746, 746, 746]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // A nested class that declares `kN` itself: `Twice` (2 * the outer's `kN`) would mean its
    // member there, so it is not shared, and `v[Twice]` is refused rather than sized wrongly.
    let shadowed = src.replace("int seven; };", "int seven; int kN; };");
    let f = err(&shadowed, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f)[0], "simt::check::unknown_name");
}

/// An unknown name among a class template's arguments is labelled where the type is written,
/// not at the same offset of the file's first line (the arguments are read again from the
/// type's text).
#[test]
fn an_unknown_template_argument_of_a_class_is_labelled_at_the_type() {
    let src = r#"
template <int NT, typename T>
struct Box { T v[NT]; };
__global__ void k(float* out) {
    Box<NOPE, float> b;
    b.v[0] = 1.0f;
    out[0] = b.v[0];
}
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::unknown_name");
    // Line 5 of `src` (its first line is empty), column 5: `Box<NOPE, float>`.
    assert_eq!(position(&f), (5, 5));
}

#[test]
fn a_void_pointer_member_the_kernel_casts_is_a_buffer_of_the_casts_type() {
    // causal-conv1d's ConvParamsBase holds every tensor as `void *__restrict__`, cast by the
    // kernel to its element type, as a `void*` parameter is: x_ptr is read as int (T = int),
    // out_ptr as float, through a local alias as causal-conv1d writes it; `unused` is never
    // cast and stays opaque (NULL). out = 2 * [5, 6, 7] + 1 = [11, 13, 15], the last untouched.
    let src = r#"
struct Params { int n; void *__restrict__ x_ptr; void *__restrict__ out_ptr; void *unused; };
template <typename T>
__global__ void k(Params params) {
    using out_t = float;
    T *x = reinterpret_cast<T *>(params.x_ptr);
    out_t *out = (out_t *)params.out_ptr;
    if (threadIdx.x < params.n) out[threadIdx.x] = 2 * x[threadIdx.x] + 1;
}
launch k<int> { params.n = 3; params.x_ptr = [5, 6, 7, 8]; params.out_ptr = zeros(4);
    params.unused = NULL; block = 4; grid = 1; expect params.out_ptr == [11, 13, 15, 0]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn gccs_aligned_attribute_pads_a_struct() {
    // MILC's `site __attribute__ ((aligned))` (HeCBench su3): the largest alignment, 16 bytes,
    // so 12 bytes of floats take 16 and s[1] starts at float 4; `aligned(8)` on 12 bytes of
    // floats makes 16 too, `aligned(4)` leaves 12.
    let src = r#"
typedef struct { float v[3]; } site __attribute__ ((aligned));
struct __attribute__((aligned(8))) P { float a, b, c; };
struct Q { float a, b, c; } __attribute__((aligned(4)));
__global__ void k(site* s, int* o) {
    o[0] = sizeof(site);
    o[1] = sizeof(P);
    o[2] = sizeof(Q);
    o[3] = (int)s[1].v[0];
}
launch k { s = arange(8); o = zeros(4); expect o == [16, 16, 12, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// A 2-D array of structs that hold an array: `ps[i]` is a row (a `P*` to pass on), `ps[i][j]`
/// a struct, in local and in shared memory. By hand, thread t with u = (t + 1) mod 32 and
/// r = t / 8: q = sp[u / 8][u % 8] has x = {u, 2u}; `rowsum(sp[r], 8)` adds 2(8r + j) + 1 over
/// j < 8, 128 r + 64; `rowsum(lp[1], 3)` adds (1 + j) + 0, 6. out = 3u + 128 r + 70.
#[test]
fn a_two_dimensional_array_of_structs_holding_arrays() {
    let src = r#"
struct P { float x[2]; int n; };
__device__ float rowsum(const P* row, int m) {
    float s = 0;
    for (int j = 0; j < m; ++j) s += row[j].x[1] + row[j].n;
    return s;
}
__global__ void k(float* out) {
    __shared__ P sp[4][8];
    P lp[2][3];
    int t = threadIdx.x;
    sp[t / 8][t % 8].x[0] = t;
    sp[t / 8][t % 8].x[1] = 2 * t;
    sp[t / 8][t % 8].n = 1;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) { lp[i][j].x[1] = i + j; lp[i][j].n = 0; }
    __syncthreads();
    P q = sp[(t + 1) % 32 / 8][(t + 1) % 8];
    out[t] = q.x[0] + q.x[1] + rowsum(sp[t / 8], 8) + rowsum(lp[1], 3);
}
launch k {
    out = zeros(32);
    expect out == 3 * ((arange(32) + 1) % 32) + 128 * (arange(32) / 8) + 70;
}
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    // A static member of such an element (once refused, tests/bad).
    let src = r#"
struct F { float x[8]; static const int num_elements = 8; };
__global__ void k(float *d) {
    F c[2][2];
    for (int t = 0; t < c[1][1].num_elements; t++) c[1][1].x[t] = t;
    d[threadIdx.x] = c[1][1].x[3];
}
launch k { d = zeros(32); expect d == 3; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn an_array_member_converts_to_a_pointer_to_its_first_element() {
    // ggml's `const uint8_t* q = x->qs + 4;` over `{ half d; uint8_t qs[16]; }` (18 bytes, the
    // buffer's bytes 0..36 hold 0, 0, 0..15, 0, 0, 16..31): block b reads qs[4] and qs[5] of
    // struct b, 4 + 5 and 20 + 21. A local struct's member passed as `unsigned r[2]`: 4 + 5.
    let src = r#"
typedef struct {
    half d;
    uint8_t qs[16];
} blk;
struct S { unsigned w[2]; };
__device__ void fill(unsigned r[2]) { r[0] = 4; r[1] = 5; }
__global__ void k(const void* vx, int* out) {
    const blk* x = (const blk*) vx + blockIdx.x;
    const uint8_t* q = x->qs + 4;
    S s;
    fill(s.w);
    out[blockIdx.x] = q[0] + q[1];
    out[2 + blockIdx.x] = s.w[0] + s.w[1];
}
launch k {
    vx = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
          0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31];
    out = zeros(4);
    expect out == [9, 41, 9, 9];
}
"#;
    ok(src, &[], [2, 1, 1], ONE);
}

#[test]
fn conversion_operators_to_numbers_and_friends_after_qualifiers() {
    // int_fastdiv (HeCBench idivide): `operator int()` gives the divisor back for `(int)d` and
    // for `int q = d;`; the friend is declared with its qualifiers before `friend`, and a
    // deleted member template declares nothing that runs. Box has two conversions: a cast picks
    // the one to its own type.
    let src = r#"
#define ESS __host__ __device__ __forceinline__
struct Div {
    int d;
    ESS Div(int v) : d(v) {}
    ESS operator int() const { return d; }
    ESS friend int operator/(const int n, const Div& v);
    template <class T> ESS static int pick(T) = delete;
};
ESS int operator/(const int n, const Div& v) { return n / v.d + 100; }
struct Box {
    float f;
    __device__ operator float() const { return f; }
    __device__ operator int() const { return 7; }
};
__global__ void k(int* out) {
    int t = threadIdx.x;
    Div d(t + 1);
    int q = d;
    Box b{2.5f};
    out[4 * t + 0] = (int)d * 10;
    out[4 * t + 1] = q + 1;
    out[4 * t + 2] = 12 / d;
    out[4 * t + 3] = (int)((float)b * 2.0f) + (int)b;
}
launch k {
    out = zeros(8);
    expect out == [10, 2, 112, 12, 20, 3, 106, 12];
}
"#;
    // Thread 0: d = 1, so 1 * 10, 1 + 1, 12 / 1 + 100; thread 1: d = 2: 20, 3, 6 + 100. Box:
    // (float)b = 2.5, doubled 5, plus (int)b = 7 (its own `operator int`): 12.
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn member_overloads_by_pointer_type_and_array_members_named_alone() {
    // HeCBench chacha20: `next(uint32_t result[16])` beside `next(uint8_t result8[64])`, and
    // `block.next(keystream8)` inside a member function, where the member array `keystream8`
    // converts to a pointer to its first element (C++ [conv.array]).
    let src = r#"
#include <stdint.h>
struct Gen {
    uint32_t s;
    __device__ void next(uint32_t* w) { w[0] = s * 0x01010101u + 0x03020100u; s += 10; }
    __device__ void next(uint8_t* out) {
        uint32_t w[1];
        next(w);
        for (int i = 0; i < 4; i++) out[i] = (w[0] >> (8 * i)) & 0xff;
    }
};
struct Stream {
    Gen g;
    uint8_t ks[4];
    int pos;
    __device__ Stream(uint32_t seed) : pos(4) { g.s = seed; }
    __device__ void crypt(uint8_t* b, int n) {
        for (int i = 0; i < n; i++) {
            if (pos >= 4) { g.next(ks); pos = 0; }
            b[i] ^= ks[pos];
            pos++;
        }
    }
};
__global__ void k(uint8_t* b) {
    Stream s(1);
    s.crypt(b, 8);
}
launch k {
    b = full(8, 255);
    expect b == [254, 253, 252, 251, 244, 243, 242, 241];
}
"#;
    // Seed 1: the word is 0x01010101 + 0x03020100 = 0x04030201, bytes 1 2 3 4; then seed 11:
    // 0x0b0b0b0b + 0x03020100 = 0x0e0d0c0b, bytes 11 12 13 14. 255 ^ 1 = 254, 255 ^ 2 = 253,
    // 255 ^ 3 = 252, 255 ^ 4 = 251, 255 ^ 11 = 244, 255 ^ 12 = 243, 255 ^ 13 = 242, 255 ^ 14 = 241.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_packed_struct_is_laid_out_where_packing_changes_nothing() {
    // miniBUDE's `struct __attribute__((__packed__)) FFParams` and cuSZ's `struct { float val;
    // uint32_t idx; } __attribute__((packed));`: members that need no padding. By hand: 4 + 4
    // = 8 bytes either way; the kernel reads q[1] = (3.5, 7): 3.5 + 7 = 10.5.
    let src = r#"
struct __attribute__((__packed__)) P { float x; float n; };
struct Q { float v; unsigned idx; } __attribute__((packed));
__global__ void k(const P* q, float* out) {
    out[0] = sizeof(P); out[1] = sizeof(Q);
    out[2] = q[1].x + q[1].n;
}
launch k { q = [1.5, 2, 3.5, 7]; out = zeros(3); grid = 1; block = 1; expect out == [8, 8, 10.5]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // char + int + short packs to 7 bytes; aligned it is 12: refused, not read misaligned.
    let padded = src.replace(
        "struct Q { float v; unsigned idx; }",
        "struct Q { char c; int i; short s; }",
    );
    let f = err(&padded, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_vector_is_stored_whole_through_a_struct_s_vector_pointer_member() {
    // nvdiffrast's `p.workBuffer[idx++] = make_int4(...)` with `int4* workBuffer;` in the
    // parameter struct: thread t stores (t+1, 2, 3, 4) at wb[t] and then, through a variable,
    // (5, 6, 7, t) at wb[t + 2]. w = [1,2,3,4, 2,2,3,4, 5,6,7,0, 5,6,7,1]; the four sums are 10,
    // 11, 18 and 19, 58 in all. Each store is one instruction of two 16-byte lanes, 32 contiguous bytes: one sector.
    let src = r#"
struct P { int4* wb; int n; };
__global__ void k(P p) {
    int t = threadIdx.x;
    p.wb[t] = make_int4(t + 1, 2, 3, 4);
    int4 v = make_int4(5, 6, 7, t);
    p.wb[t + p.n] = v;
}
launch k {
    w = zeros(16); p.wb = w; p.n = 2;
    block = 2; grid = 1;
    expect w == [1, 2, 3, 4, 2, 2, 3, 4, 5, 6, 7, 0, 5, 6, 7, 1];
}
"#;
    let r = ok(src, &[], [1, 1, 1], [2, 1, 1]);
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (2, 2));
}

#[test]
fn a_constructor_taking_another_struct_converts_it() {
    // cuckoo's `diphash_state<> v(sip_keys);` of `diphash_state(const siphash_keys &sk)`:
    // kk[0] = {5, 2}, so v0 = 5 + (2 << 3) = 21; `state_t t = kk[1];` converts the same way:
    // {1, 1} gives 1 + 8 = 9.
    let src = r#"
struct keys_t { unsigned k0; unsigned k1; };
class state_t {
public:
  unsigned v0;
  __device__ state_t(const keys_t &k, int shift = 3) { v0 = k.k0 + (k.k1 << shift); }
};
__global__ void k(const keys_t* kk, unsigned* out) {
  state_t s(kk[0]);
  state_t t = kk[1];
  out[0] = s.v0;
  out[1] = t.v0;
}
launch k { kk = [5, 2, 1, 1]; out = zeros(2); expect out == [21, 9]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_vector_is_stored_through_the_pointer_a_member_function_returns() {
    // PCL's `output.ptr(y)[x] = c` with `PtrStep<uchar4>::ptr(y)` = data + y * step bytes:
    // rows of 16 bytes hold 4 uchar4s, so thread (x, y) copies in[4 y + x] to the same place
    // and o == in. uchar4 components of arange(32) are its bytes 0..31.
    let src = r#"
template <typename T> struct Rows {
    T* data; size_t step;
    __device__ T* ptr(int y) { return (T*)((char*)data + y * step); }
};
__global__ void k(const uchar4* in, Rows<uchar4> out) {
    int x = threadIdx.x, y = blockIdx.x;
    uchar4 c = in[y * 4 + x];
    out.ptr(y)[x] = c;
}
launch k { in = arange(32); o = zeros(32); out.data = o; out.step = 16; expect o == arange(32); }
"#;
    ok(src, &[], [2, 1, 1], [4, 1, 1]);
}

#[test]
fn a_nested_class_declared_only_is_a_pointer_held_but_never_followed() {
    // libSGM's pimpl: `class Impl; Impl* impl_;` in a class whose constant the kernel reads
    // (o = 4). Following such a pointer is refused, naming the class.
    let src = |body: &str| {
        format!(
            r#"
class StereoSGM {{
public:
    static const int SUBPIXEL_SHIFT = 4;
private:
    class Impl;
    Impl* impl_;
}};
struct S {{ Imp* p; int n; }};
__global__ void k(int* o, S s) {{ {body} }}
launch k {{ o = zeros(1); s.n = 1; expect o == 4; }}
"#
        )
    };
    ok(
        &src("o[0] = StereoSGM::SUBPIXEL_SHIFT;"),
        &[],
        [1, 1, 1],
        [1, 1, 1],
    );
    let e = err(&src("o[0] = s.p[0];"), &[], None, None);
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
}

#[test]
fn a_member_function_returns_a_pointer_into_its_objects_array() {
    // `data()` of a struct held in the thread (its array in local memory), const and non-const
    // overloads beside `operator[]`'s: v = {1, 2, 3, 4} written through both, and
    // sum = v[0] + v[1] + data()[2] = 6, read through the const overloads.
    let src = r#"
struct V {
    float d[4];
    __device__ float& operator[](int i) { return d[i]; }
    __device__ const float& operator[](int i) const { return d[i]; }
    __device__ float* data() { return d; }
    __device__ const float* data() const { return d; }
};
__device__ float sum(const V& v) { return v[0] + v[1] + v.data()[2]; }
__global__ void k(float* out) {
    V v; v[0] = 1; v[1] = 2; v.data()[2] = 3; float* q = v.data(); q[3] = 4;
    out[0] = sum(v);
    out[1] = v.d[3];
}
launch k { out = zeros(2); expect out == [6, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_auto_function_or_lambda_returns_a_struct() {
    // `auto f(P, P) { return x + y; }` and a generic lambda `[](auto const& l, auto const& r)
    // { return l + r; }` return the struct operator+ makes: (1, 2) + (3, 4) = (4, 6), 10 each;
    // `g` returns a local `P r`: 10 again, and its member `.a` is 4. 10 + 10 + 10 + 4 = 34.
    // `h` returns `auto r = x` with y.a added: (1 + 3, 2), 6.
    let src = r#"
struct P { float a, b; };
__device__ P operator+(const P& x, const P& y) { return P{x.a + y.a, x.b + y.b}; }
__device__ auto f(const P& x, const P& y) { return x + y; }
__device__ auto g(const P& x, const P& y) { P r = x + y; return r; }
__device__ auto h(const P& x, const P& y) { auto r = x; r.a += y.a; return r; }
__global__ void k(float* out) {
    P p{1, 2}, q{3, 4};
    auto op = [](auto const& l, auto const& r) { return l + r; };
    P s = f(p, q);
    P t = op(p, q);
    P u = g(p, q);
    P w = h(p, q);
    out[0] = s.a + s.b + t.a + t.b + u.a + u.b + g(p, q).a;
    out[1] = w.a + w.b;
}
launch k { out = zeros(2); expect out == [34, 6]; }
"#;
    ok(src, &[], ONE, ONE);
    // Where a number is needed, the struct is no number (and never a crash).
    for call in ["op(p, q)", "g(p, q)"] {
        let wrong = src.replace(
            "out[0] = s.a + s.b + t.a + t.b + u.a + u.b + g(p, q).a;",
            &format!("out[0] = {call};"),
        );
        let f = err(&wrong, &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::check::not_a_value"], "{call}");
    }
    // A recursive `auto` function is an error, not a search without end.
    let recursive = r#"
struct P { float a, b; };
__device__ auto f(const P& x, int n) { if (n > 0) return f(x, n - 1); return x; }
__global__ void k(float* out) { P p{1, 2}; P s = f(p, 2); out[0] = s.a; }
launch k { out = zeros(1); }
"#;
    err(recursive, &[], Some(ONE), Some(ONE));
}

#[test]
fn a_struct_without_subscript_is_indexed_through_its_pointer_conversion() {
    // OpenCV's `PtrStepSz<T>` (YACCLAB's `labels[i]`) has `operator T*()` and no
    // `operator[]`: `a[i]` subscripts the pointer the conversion gives, as do `T* p = a` and
    // `first(b)`; passed by value it stays a struct (`get(b, i)` reads b.step).
    // d[i] = b[i] + 1 + b[i]·10 + b[0] + b[1], doubled through the copy c:
    // 2·((i+1) + 1 + 10(i+1) + 1 + 2).
    let src = r#"
template <typename T> struct DevPtr {
    T* data;
    int step;
    __device__ operator       T*()       { return data; }
    __device__ operator const T*() const { return data; }
};
template <typename T> __device__ T get(const DevPtr<T> p, int i) { return p.data[i] * p.step; }
__device__ int first(const int* p) { return p[0]; }
__global__ void k(DevPtr<int> a, const DevPtr<int> b) {
    int i = threadIdx.x;
    a[i] = b[i] + 1;
    a[i] += get(b, i) + first(b) + b[1];
    DevPtr<int> c = a;
    int* p = c;
    p[i] *= 2;
}
launch k {
    d = zeros(4); a.data = d; a.step = 1; b.data = [1, 2, 3, 4]; b.step = 10;
    expect d == 2 * ([2, 3, 4, 5] + [10, 20, 30, 40] + 1 + 2);
}
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn a_struct_that_converts_to_a_pointer_is_still_a_struct() {
    // Its size is its members' (a pointer and an int, padded: 16), `auto` copies it, a
    // function template takes it by value (T = DevPtr<int>), and members of its elements are
    // reached through the conversion (`v[1].x`); `operator bool()` declared first does not
    // stand in for `operator T*()`. out = 16, 16, 7, 7, d[1] + d[0] = 3, 3 + w[1] = 5, 5.
    let src = r#"
template<class T> struct DevPtr {
    T* data; int step;
    __device__ operator bool() const { return data != 0; }
    __device__ operator T*() { return data; }
};
template <typename T> __device__ T id(T x) { return x; }
__device__ int first(const int* p) { return p[0]; }
__global__ void k(DevPtr<int> a, int* out, DevPtr<float2> v) {
  DevPtr<int> b = a; out[0] = sizeof(b); out[1] = sizeof(DevPtr<int>);
  auto c = a; out[2] = c.step;
  auto e = id(a); out[3] = e.step;
  out[4] = a[1] + first(a);
  a[0] = 5;
  v[1].x = 3; out[5] = v[1].x + v[0].y;
  int* p = a; out[6] = p[0];
}
launch k {
  d = [1, 2]; a.data = d; a.step = 7; w = [1, 2, 3, 4]; v.data = w; v.step = 0; out = zeros(7);
  expect out == [16, 16, 7, 7, 3, 5, 5];
}
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_file_scope_struct_may_declare_host_variables_of_its_type() {
    // heavydb's `struct Output { ... } output;`: the type is the file's, the variables the
    // host's (skipped like `Output output;` would be); a kernel uses the type.
    let src = r#"
struct Output { int block_size; double total_time; } output, *other;
__global__ void k(int* a) { Output o; o.block_size = 3; a[threadIdx.x] = o.block_size + sizeof(Output); }
launch k { a = zeros(4); expect a == 19; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn reference_members_refer_to_what_they_were_bound_to() {
    // torchaudio's `struct Indexer2D { const int& size2_; ... }` and an accumulator holding
    // `float& s`. acc is bound to out[t]: 0 + 1 + in[t], doubled, plus 1 = 2(1 + in[t]) + 1
    // (23, 43, 63, 83), written through the member from inside (`s += v`) and outside
    // (`acc.s *= 2`, `acc.s++`). v binds `const` references to the register m = w + 1 = 5
    // and to in[0] = 10: twice() + n + c = 10 + 5 + 10 = 25; its copy u refers to the same m.
    // An aggregate binds its reference to the item: {out[t + 12], 2} adds 2 to it.
    let src = r#"
struct Acc { float& s; __device__ Acc(float& x) : s(x) {} __device__ void add(float v) { s += v; } };
struct View {
  const int& n; const float& c;
  __device__ View(const int& m, const float& e) : n(m), c(e) {}
  __device__ int twice() const { return 2 * n; }
};
struct Bump { float& total; int k; };
__global__ void k(float* out, const float* in, int w) {
  Acc acc(out[threadIdx.x]);
  acc.add(1.0f);
  acc.add(in[threadIdx.x]);
  acc.s *= 2;
  acc.s++;
  int m = w + 1;
  View v(m, in[0]);
  out[threadIdx.x + 4] = v.twice() + v.n + v.c;
  View u = v;
  out[threadIdx.x + 8] = u.n;
  Bump b = {out[threadIdx.x + 12], 2};
  b.total += b.k;
}
launch k {
  out = zeros(16); in = [10, 20, 30, 40]; w = 4;
  expect out == [23, 43, 63, 83, 25, 25, 25, 25, 5, 5, 5, 5, 2, 2, 2, 2];
}
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn a_variable_a_const_reference_member_holds_is_not_assigned_after() {
    // simt binds `const int& n` to a register variable as a copy of its value: assigning the
    // variable while the object may still read it would go unseen, so it is refused.
    let src = r#"
struct View { const int& n; __device__ View(const int& m) : n(m) {} };
__global__ void k(int* out, int w) {
  int m = w + 1;
  View v(m);
  m = 7;
  out[threadIdx.x] = v.n;
}
launch k { out = zeros(4); w = 4; }
"#;
    let e = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::unsupported"]);
    assert_eq!(position(&e), (6, 3));
}

#[test]
fn a_constructor_may_name_its_class_with_template_arguments() {
    // Belewitte's `template<> struct Reduction<bulk> { __device__ Reduction<bulk>() : count(0U) {} }`
    // (C++17 accepts the injected class name with its arguments): count starts at 0, +3.
    let src = r#"
enum Kind { bulk, warp };
template <Kind K> struct Reduction;
template <> struct Reduction<bulk> {
    unsigned count;
    __device__ Reduction<bulk>() : count(0U) {}
    __device__ void update() { count += 3; }
};
__global__ void k(unsigned* out) { Reduction<bulk> r; r.update(); out[threadIdx.x] = r.count; }
launch k { out = zeros(2); expect out == 3; }
"#;
    assert!(ok(src, &[], ONE, [2, 1, 1]).expects_passed());
}

#[test]
fn a_void_member_is_typed_by_the_casts_of_its_structs_member_functions() {
    // nvdiffrec's `struct Tensor { void* val; int dims[4], strides[4]; bool fp16; ... float
    // fetch(unsigned idx) const { return ((float*)val)[idx]; } }`: the member functions' casts
    // type `p.in.val` and `p.out.val` as float buffers (there is no cast in the kernel), also
    // where the arrays beside them put the struct in local memory. b = 2 a; the warp reads a
    // (4 floats: 1 request, 1 sector) and writes b (1 request, 1 sector).
    for arrays in ["", " int dims[4], strides[4]; bool fp16;"] {
        let src = format!(
            r#"
struct Tensor {{
    void* val; int n;{arrays}
    __device__ float fetch(unsigned idx) const {{ return ((float*)val)[idx]; }}
    __device__ void store(unsigned idx, float v) {{ ((float*)this->val)[idx] = v; }}
}};
struct Params {{ Tensor in; Tensor out; }};
__global__ void k(Params p) {{
    int i = threadIdx.x;
    if (i < p.in.n) p.out.store(i, 2.0f * p.in.fetch(i));
}}
launch k {{ a = arange(4); b = zeros(4); p.in.val = a; p.in.n = 4; p.out.val = b; p.out.n = 4;{sets}
    grid = 1; block = 4; expect b == 2 * arange(4); }}
"#,
            sets = if arrays.is_empty() {
                ""
            } else {
                " p.in.dims = [0, 0, 0, 0]; p.in.strides = [0, 0, 0, 0]; p.in.fp16 = 0;
    p.out.dims = [0, 0, 0, 0]; p.out.strides = [0, 0, 0, 0]; p.out.fp16 = 0;"
            }
        );
        let r = ok(&src, &[], [1, 1, 1], [4, 1, 1]);
        assert_eq!(
            (r.counters.gld_instr, r.counters.gld_sectors),
            (1, 1),
            "{arrays}"
        );
        assert_eq!(
            (r.counters.gst_instr, r.counters.gst_sectors),
            (1, 1),
            "{arrays}"
        );
    }
}

#[test]
fn a_struct_is_assigned_through_a_function_returning_a_reference_to_it() {
    // nvblox's `access(x, y, cols, out) = color;` with `template <typename T> T& access(...)`
    // at T = Color: the element the reference names is written, member by member.
    let src = r#"
struct Color { unsigned char r, g, b, a; };
template <typename T>
__device__ inline T& access(int i, T* data) { return data[i]; }
__global__ void k(const Color* in, Color* out) {
    const Color c = in[threadIdx.x];
    access(threadIdx.x, out) = c;
}
launch k { in = [1, 2, 3, 4, 5, 6, 7, 8]; out = zeros(8); expect out == [1, 2, 3, 4, 5, 6, 7, 8]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_void_member_takes_only_its_own_structs_casts() {
    // Review: struct A's `(double*)val` typed B's `val`, whose ints were then read back as
    // doubles. Only the parameter's own struct (B) casts its member: int, b.val = [1, 2, 3, 4].
    let src = r#"
struct A { void* val; __device__ double fetch(int i) const { return ((double*)val)[i]; } };
struct B { void* val; __device__ void put(int i, int v) { ((int*)val)[i] = v; } };
__global__ void k(B b) { b.put(threadIdx.x, threadIdx.x + 1); }
launch k { b.val = zeros(4); expect b.val == [1, 2, 3, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_constructor_initialiser_sets_a_vector_pointer_member() {
    // CUDASW4's `: tmp(tmp_)` of a `float2* tmp` (and `this->tmp = tmp_;`) points the member at
    // the argument; simt read `this.tmp` as a float2 element and called the pointer null.
    // out[i] = 2i + tmp[0].x = 2i + 1.
    let src = r#"
struct Holder {
    float2* tmp;
    const float* in;
    __device__ Holder(float2* tmp_, const float* in_) : tmp(tmp_), in(in_) {}
    __device__ Holder(float2* tmp_) { this->tmp = tmp_; in = nullptr; }
    __device__ float first() const { return tmp[0].x; }
};
__global__ void k(const float* in, float* out, float2* t) {
    Holder h(t, in);
    Holder g(t);
    out[threadIdx.x] = h.in[threadIdx.x] * 2.0f + (h.first() + g.first()) / 2.0f;
}
launch k { in = arange(32); out = zeros(32); t = ones(8); expect out == arange(32) * 2 + 1; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn a_nested_class_sees_its_enclosing_class_and_is_named_through_it() {
    // C++ [class.nest]: `T` inside `B` is `A::T`, and `A::B`, `A::C` (a typedef'd anonymous
    // struct) and `Z::B` are three types: b2.x + c.y + z.b.n = 2 + 3 + 4 = 9. The union member
    // of `V<int>`, a specialisation, names its class's `Type` and `H`: mask.x = 5 is val.x.
    let src = r#"
struct A {
    typedef float T;
    struct B { T x; } b;
    typedef struct { T y; } C;
};
struct Z { struct B { int n; } b; };
template <class D> struct V {};
template <> struct V<int> {
    typedef float2 Type;
    typedef struct __align__(8) { float x; float y; } H;
    union Data { H val; Type mask; } data;
};
__global__ void k(float* out) {
    A a; a.b.x = 2.0f;
    A::B b2 = a.b;
    A::C c; c.y = 3.0f;
    Z z; z.b.n = 4;
    V<int> v; v.data.mask = make_float2(5.0f, 6.0f);
    V<int>::H h = v.data.val;
    out[0] = b2.x + c.y + z.b.n;
    out[1] = h.x;
    out[2] = sizeof(V<int>::H);
}
launch k { out = zeros(3); expect out == [9, 5, 8]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn assigning_to_a_struct_calls_the_operator_it_declares() {
    // `a = 2.5f` calls `operator=(float)`: s = 2.5, n = 1. `b = a` copies member-wise (the
    // declared operator takes a float, not an `Acc`): b = {2.5, 1}. `y = x` of `Cnt`, which
    // declares its own copy assignment, adds 100: 7 + 100. `w = u.data.val` picks the
    // `float4&` overload for a union's `float4` member, not the first declared: w.v.y = 6.
    let src = r#"
struct Acc {
    float s; int n;
    __device__ Acc& operator=(float v) { s = v; n = 1; return *this; }
};
struct Cnt {
    int c;
    __device__ Cnt& operator=(const Cnt& o) { c = o.c + 100; return *this; }
};
struct Half { float a; };
struct W {
    float4 v;
    __device__ W& operator=(Half& in) { v.x = in.a; return *this; }
    __device__ W& operator=(float4& in) { v = in; return *this; }
};
struct U { union D { float4 val; float4 mask; } data; };
__global__ void k(float* out) {
    Acc a; a.s = 0.0f; a.n = 5;
    a = 2.5f;
    Acc b; b.s = 9.0f; b.n = 9;
    b = a;
    Cnt x; x.c = 7;
    Cnt y; y.c = 0;
    y = x;
    U u; u.data.val = make_float4(5, 6, 7, 8);
    W w; w.v = make_float4(0, 0, 0, 0);
    w = u.data.val;
    out[0] = a.s; out[1] = a.n; out[2] = b.s; out[3] = b.n; out[4] = y.c; out[5] = w.v.y;
}
launch k { out = zeros(6); expect out == [2.5, 1, 2.5, 1, 107, 6]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_specialisation_names_itself_by_its_class_name() {
    // Inside `template <> struct W<int>`, `W` is `W<int>` (the injected class name), as it is
    // `W<T>` inside the primary: W<float>'s twice of 3 is 6, W<int>'s of (3 + 1) is 8.
    let src = r#"
template <class T> struct W {
    T v;
    __device__ W& operator=(float x) { v = x; return *this; }
    __device__ W twice() const { W r; r.v = 2 * v; return r; }
};
template <> struct W<int> {
    int v;
    __device__ W& operator=(float x) { v = (int)x + 1; return *this; }
    __device__ W twice() const { W r; r.v = 2 * v; return r; }
};
__global__ void k(float* out) {
    W<float> a; a = 3.0f;
    W<int> b; b = 3.0f;
    out[0] = a.twice().v; out[1] = b.twice().v;
}
launch k { out = zeros(2); expect out == [6, 8]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_vector_member_named_without_this_is_the_vector() {
    // cuckoo's siphash state: `uint2 t = v1;` and `v0 ^= v1;` (a free `operator^=(uint2&,
    // uint2)`) inside member functions, and `swap2(v1)`. v0 = (1, 2) ^ (4, 8) = (5, 10);
    // v1 swapped = (8, 4).
    let src = r#"
static __device__ __forceinline__ void operator^=(uint2& a, uint2 b) { a.x ^= b.x, a.y ^= b.y; }
__device__ uint2 swap2(const uint2 a) { return make_uint2(a.y, a.x); }
class st {
public:
    uint2 v0; uint2 v1;
    __device__ st() { v0 = make_uint2(1, 2); v1 = make_uint2(4, 8); }
    __device__ void rnd() { v0 ^= v1; uint2 t = v1; v1 = swap2(t); }
};
__global__ void k(unsigned* out) {
    st s; s.rnd();
    out[0] = s.v0.x; out[1] = s.v0.y; out[2] = s.v1.x; out[3] = s.v1.y;
}
launch k { out = zeros(4); expect out == [5, 10, 8, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn the_implicit_copy_assignment_stays_where_no_declared_operator_is_one() {
    // A template `operator=` is never the copy assignment: `p = q` of two `P<float>` copies
    // (1), `p = r` of a `P<int>` calls it: 2 + 100. `typedef struct Tag {...} Name;` declares
    // its copy assignment by the tag: `a = b` calls it (1 + 10), and `Tag` names the struct in
    // the kernel too (3 + 10 through `Tag c; c = b;` with b.x = 3). `s = {3, 4}` builds an
    // `S` for the implicit copy beside `operator=(float)`; `s2 = 5` calls that: (5, 10).
    let src = r#"
template <typename T> struct P {
    T x;
    template <typename U> __device__ P& operator=(const P<U>& o) { x = (T)o.x + 100; return *this; }
};
typedef struct Tag {
    float x;
    __device__ Tag& operator=(const Tag& o) { x = o.x + 10.0f; return *this; }
} Name;
struct S { float x, y; __device__ S& operator=(float v) { x = v; y = 2 * v; return *this; } };
__global__ void k(float* out) {
    P<float> p, q; q.x = 1.0f; p.x = 0.0f;
    p = q;
    out[0] = p.x;
    P<int> r; r.x = 2;
    p = r;
    out[1] = p.x;
    Name a, b; b.x = 1.0f;
    a = b;
    out[2] = a.x;
    b.x = 3.0f;
    Tag c; c = b;
    out[3] = c.x;
    S s; s = {3.0f, 4.0f};
    S s2; s2 = 5.0f;
    out[4] = s.x; out[5] = s.y; out[6] = s2.x; out[7] = s2.y;
}
launch k { out = zeros(8); expect out == [1, 102, 11, 13, 3, 4, 5, 10]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_vector_member_named_without_this_reaches_an_object_in_memory() {
    // The same `step` on an object in global memory and one in shared memory: v0 ^= v1 and
    // v1 swapped, (1, 2, 4, 8) -> (5, 10, 8, 4) in both.
    let src = r#"
struct C {
    uint2 v0, v1;
    __device__ void step() { uint2 t = v1; v0.x ^= t.x; v0.y ^= t.y; v1 = make_uint2(t.y, t.x); }
};
__global__ void k(C* g, unsigned* out) {
    g[0].step();
    __shared__ C s;
    s.v0 = make_uint2(1, 2); s.v1 = make_uint2(4, 8);
    s.step();
    out[0] = s.v0.x; out[1] = s.v0.y; out[2] = s.v1.x; out[3] = s.v1.y;
}
launch k { g = [1, 2, 4, 8]; out = zeros(4); expect out == [5, 10, 8, 4]; expect g == [5, 10, 8, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn every_name_of_a_nested_typedef_struct_names_it() {
    // `typedef struct Tag { float p, q; } Named, Other;` inside a class: `Tag`, `Named` and
    // `Other` are one type, inside the class and through it. g() = n.p + n.q = 1 + 4; t2.q = 3;
    // sizeof(A::Other) = 8.
    let src = r#"
struct A {
    typedef struct Tag { float p, q; } Named, Other;
    Named n;
    __device__ float g() const { Tag t; t.p = n.p; Other o; o.q = n.q; return t.p + o.q; }
};
__global__ void k(float* out) {
    A a; a.n.p = 1.0f; a.n.q = 4.0f;
    out[0] = a.g();
    A::Tag t2; t2.q = 3.0f;
    out[1] = t2.q;
    out[2] = sizeof(A::Other);
}
launch k { out = zeros(3); expect out == [5, 3, 8]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_struct_s_operator_subscript_returning_a_pointer_is_a_row_the_next_subscript_indexes() {
    // MMseqs2's PSSM_2D_View: `v[r]` is `v.data + r * stride`, a pointer, and `v[r][c]` an
    // element of row r. Rows of 4 over arange(12): v[2][t] reads 8 + t; the kernel writes
    // w[1][t] = 10·t into row 1 of `out` (elements 4..7), and w[0][t] = v[2][t].
    let src = r#"
template <class T> struct View2D {
    int stride;
    T* data;
    __device__ T* operator[](int row) { return data + row * stride; }
    __device__ const T* operator[](int row) const { return data + row * stride; }
};
__global__ void k(View2D<float> v, View2D<float> w) {
    int t = threadIdx.x;
    w[1][t] = 10.0f * t;
    w[0][t] = v[2][t];
}
launch k {
    v.stride = 4; v.data = arange(12);
    w.stride = 4; w.data = zeros(8);
    expect w.data == [8, 9, 10, 11, 0, 10, 20, 30];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn members_defined_outside_their_namespace_name_it_before_the_class() {
    // kinfu_remake's device.hpp: `__device__ float3 kfusion::device::Reprojector::operator()(...)
    // const`, a constructor and a class template's member likewise. r(0) = 5 * 2 = 10 and
    // t.sum() = 1 + 2 + 3 = 6: o[1] = 16.
    let src = r#"
namespace kf { namespace dev {
struct R { float* d; __device__ float operator()(int i) const; __device__ R(float* p); };
template <int N> struct T { float v[N]; __device__ float sum() const; };
} }
__device__ kf::dev::R::R(float* p) : d(p) {}
__device__ float kf::dev::R::operator()(int i) const { return d[i] * 2; }
template <int N> __device__ float kf::dev::T<N>::sum() const { float s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
__global__ void k(float* o) { kf::dev::R r(o); kf::dev::T<3> t; t.v[0] = 1; t.v[1] = 2; t.v[2] = 3; o[1] = r(0) + t.sum(); }
launch k { o = [5, 0]; block = 1; grid = 1; expect o == [5, 16]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_call_operator_returning_a_struct_by_value_gives_its_value() {
    // kinfu's `Reprojector::operator()(int x, int y, float z) const` returns a `float3`: r(1)
    // is (5, 10, 0), so o[2] = 15 (this panicked: the call was looked up as a free function).
    let src = r#"
struct R { float* d; __device__ float3 operator()(int i) const { return make_float3(d[i], d[i] * 2, 0); } };
__global__ void k(float* o) { R r; r.d = o; float3 v = r(1); o[2] = v.x + v.y; }
launch k { o = [0, 5, 0]; block = 1; grid = 1; expect o == [0, 5, 15]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_typedef_struct_names_pointers_to_it_and_may_hold_pragmas() {
    // `} *v_st_t;` (Enterprise's comm.h) names `vertex*`; `Pair, *PPair` the struct and a
    // pointer to it. vs holds {1, 2}, {3, 4}, ...: thread t reads vs[t].depth = 2t + 2, vs[1]'s
    // src_ver = 3 and ps[t].b = 2t + 1. `#pragma hd_warning_disable` in a class body (SlabHash)
    // does nothing.
    let src = r#"
typedef struct vertex
{
	int src_ver;
	int depth;
}*v_st_t;
typedef struct { float a; float b; } Pair, *PPair, Couple;
struct S {
#pragma hd_warning_disable
  __host__ __device__ S() : v(1) {}
  int v;
};
__device__ int get(v_st_t v, int i) { return v[i].depth; }
__global__ void k(vertex* vs, PPair ps, float* o) {
    v_st_t p = vs + 1;
    Pair* c = ps;
    S s;
    o[threadIdx.x] = get(vs, threadIdx.x) + p->src_ver + c[threadIdx.x].b + s.v;
}
launch k {
    vs = [1, 2, 3, 4, 5, 6, 7, 8]; ps = arange(8); o = zeros(4); grid = 1; block = 4;
    expect o == [2 + 3 + 1 + 1, 4 + 3 + 3 + 1, 6 + 3 + 5 + 1, 8 + 3 + 7 + 1];
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_member_of_the_struct_a_call_returns_a_pointer_to() {
    // `M` is 16 bytes (`key` 0-7, `index` 8-11, `local` 12-15), a buffer of bytes. Thread i
    // reads t[i].index (0), adds 5 to it atomically through `&at(t, i)->index`, sets `local`
    // to 3 through the call and adds i through a pointer: struct i's bytes end
    // 0 × 8, 5 0 0 0, 3 + i 0 0 0.
    let src = r#"
struct M { long long key; int index; int local; };
__device__ M* at(M* t, int i) { return t + i; }
__global__ void k(M* t, int* o) {
  int i = threadIdx.x;
  o[i] = at(t, i)->index;
  atomicAdd(&at(t, i)->index, 5);
  at(t, i)->local = 3;
  int* p = &at(t, i)->local;
  *p += i;
}
launch k {
    t = zeros(4 * 16); o = ones(4); grid = 1; block = 4;
    expect o == 0;
    expect t == [WANT];
}
"#;
    let want: Vec<String> = (0..4)
        .flat_map(|i| {
            let mut b = [0; 16];
            b[8] = 5;
            b[12] = 3 + i;
            b
        })
        .map(|b| b.to_string())
        .collect();
    ok(&src.replace("WANT", &want.join(", ")), &[], ONE, [4, 1, 1]);
}

#[test]
fn pragma_pack_packs_the_structs_after_it_or_is_refused() {
    // `#pragma pack(push, 1)` ... `pack(pop)` packs `P` as `__attribute__((packed))` does
    // (no padding: sizeof 8 either way), not `Q` after the pop. Packed `R { int; char; }`
    // would be 5 bytes where simt lays out 8: refused, as is `pack(4)`, where before both
    // were laid out with C's alignment without a word.
    let src = r#"
#pragma pack(push, 1)
struct P { int a; float b; };
#pragma pack(pop)
struct Q { int i; char c; };
__global__ void k(int* out) { P p; p.a = 3; out[0] = sizeof(P) + p.a; out[1] = sizeof(Q); }
launch k { out = zeros(2); grid = 1; block = 1; expect out == [11, 8]; }
"#;
    ok(src, &[], ONE, ONE);
    // With a label (`push, r1, 1`), the number is the packing; `pop, r1` restores C's.
    let labelled = src
        .replace("pack(push, 1)", "pack(push, r1, 1)")
        .replace("pack(pop)", "pack(pop, r1)");
    ok(&labelled, &[], ONE, ONE);
    // A packing simt cannot read is refused too, never taken as C's alignment.
    for pragma in [
        "#pragma pack(1)",
        "#pragma pack(4)",
        "#pragma pack(push, 2)",
        "#pragma pack(N)",
    ] {
        let src = format!(
            "{pragma}\nstruct R {{ int i; char c; }};\n__global__ void k(int* out) {{ out[0] = sizeof(R); }}\n"
        );
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{pragma}");
    }
}

#[test]
fn a_copy_constructor_is_not_a_conversion_from_another_type() {
    // jdftx's matrix3: `2.0 * m` with no `operator*` that fits tried the copy constructor on
    // 2.0, whose argument needed the same conversion again, without end (`simt check` never
    // returned). A copy constructor takes a matrix3, so the conversion has no constructor and
    // the product no operator: nvcc's error.
    let src = r#"
template<typename scalar=double> struct matrix3
{
    scalar m[3][3];
    explicit __device__ matrix3(scalar d0=scalar(), scalar d1=scalar(), scalar d2=scalar()) { m[0][0]=d0; m[1][1]=d1; m[2][2]=d2; }
    __device__ matrix3(const matrix3<scalar>& n) { m[0][0]=n.m[0][0]; }
};
__device__ double twice(const matrix3<> &m) { matrix3<> r = 2.0 * m; return r.m[0][0]; }
__global__ void kk(double* o) { matrix3<> a(1.0); o[threadIdx.x] = twice(a); }
"#;
    let f = err(src, &[("o", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::no_operator"]);
    // Nor from another instance: vector3<double>(iv) of a vector3<int> takes the converting
    // constructor template (v = 2 * iv.v), not the copy constructor, whose argument would
    // need the same conversion (jdftx again).
    let src = r#"
template<typename scalar=double> struct vector3
{
    scalar v[3];
    __device__ explicit vector3(scalar a=scalar(), scalar b=scalar(), scalar c=scalar()) { v[0]=a; v[1]=b; v[2]=c; }
    template<typename scalar2> __device__ explicit vector3(const vector3<scalar2>& a) { for(int k=0; k<3; k++) v[k]=a.v[k] * 2; }
    __device__ vector3(const vector3<scalar>& o) { for(int k=0; k<3; k++) v[k]=o.v[k]; }
};
__global__ void k(double* o) {
    vector3<int> iv(1, 2, 3);
    vector3<double> d(iv);
    o[0] = d.v[2];
}
launch k { o = zeros(1); expect o == [6]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn defaulted_template_arguments_name_one_instance_and_a_free_operator_can_win() {
    // jdftx's vector3<scalar = double>: `vector3<>` and `vector3<double>` are one type (a
    // `vector3<>` parameter returned as `vector3<double>`).
    // `iG + k` of a vector3<int> and a vector3<double>: the member `operator+(const vector3&)`
    // of vector3<int> cannot take k (its converting constructor is explicit), the free
    // `operator+(vector3<int>, vector3<>)` takes both, so C++ calls the free one; simt took the
    // member's vector3<int> type for the sum while calling the free one (a wrong result).
    // s = (1 + 0.5, 2 + 0.25, 3 + 0.125); same(k)[0] = 0.5.
    let src = r#"
template<typename scalar=double> class vector3
{
    scalar v[3];
public:
    __device__ scalar& operator[](int k) { return v[k]; }
    __device__ const scalar& operator[](int k) const { return v[k]; }
    __device__ explicit vector3(scalar a=scalar(), scalar b=scalar(), scalar c=scalar()) { v[0]=a; v[1]=b; v[2]=c; }
    template<typename scalar2> __device__ explicit vector3(const vector3<scalar2>& a) { for(int k=0; k<3; k++) v[k]=a[k]; }
    __device__ vector3 operator+(const vector3 &a) const { return vector3(v[0]+a[0], v[1]+a[1], v[2]+a[2]); }
};
__device__ vector3<> operator+(vector3<int> a, vector3<> b) { return vector3<double>(a[0]+b[0], a[1]+b[1], a[2]+b[2]); }
__device__ vector3<double> same(const vector3<> &v) { return vector3<double>(v); }
__global__ void kk(const vector3<int> S, vector3<> k, double* o) {
    vector3<int> iG(1, 2, 3);
    vector3<> s = iG + k;
    o[0] = same(k)[0]; o[1] = S[1]; o[2] = s[0]; o[3] = s[2]; o[4] = (iG + k)[1];
}
launch kk {
    S.v = [4, 6, 8];
    k.v = [0.5, 0.25, 0.125];
    o = zeros(5);
    expect o == [0.5, 6, 1.5, 3.125, 2.25];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_member_template_returns_the_struct_its_arguments_name() {
    // CGBN's `bn_context.env<env_t>()`: two member templates `env`, one of a type parameter
    // and one of two values; `c.env<E>()` binds only the first, which returns an E (its
    // struct type was not seen, and lowering panicked). `c.env<8, 1>()` the second: an X<8, 1>
    // whose v is bits (8). out = t + 8.
    let src = r#"
template<unsigned bits, int s> struct X { int v; };
struct E { int v; };
struct ctx_t {
  int inst;
  template<class env_t> __device__ env_t env() { env_t e; e.v = inst; return e; }
  template<unsigned bits, int syncable> __device__ X<bits, syncable> env() { X<bits, syncable> e; e.v = bits; return e; }
};
__global__ void k(int* out) {
    ctx_t c;
    c.inst = threadIdx.x;
    E e(c.env<E>());
    X<8, 1> x = c.env<8, 1>();
    out[threadIdx.x] = e.v + x.v;
}
launch k { out = zeros(32); expect out == arange(32) + 8; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_member_may_ask_for_its_own_alignment() {
    // C++ [dcl.align] on a data member (QMCPACK's `alignas(T) unsigned char data_[...]`): S's
    // d starts at byte 8, so S is 8 + 3 bytes, rounded up to its alignment 8: 16. A<double>:
    // b at 8, 10 bytes, 16; A<short>: b at 2, 4 bytes. CUDA's `__builtin_align__(16)` on a
    // union (halmd) is `__align__(16)`: 16 bytes for one float.
    let src = r#"
struct S { char c; alignas(8) char d[3]; };
template <class T> struct A { char c; alignas(T) unsigned char b[2]; };
union __builtin_align__(16) U { float x; };
__global__ void k(int* out) {
    out[0] = sizeof(S);
    out[1] = sizeof(A<double>);
    out[2] = sizeof(A<short>);
    out[3] = sizeof(U);
}
launch k { out = zeros(4); expect out == [16, 16, 4, 16]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_parameter_struct_may_carry_a_stream_handle() {
    // decoding_attention's DecodingParams ends with `cudaStream_t stream;`, which the kernel
    // never reads and the launch leaves unset. It is a pointer in CUDA: 8 bytes at offset 16
    // after float* (8) and int (4, padded to 8), so P is 24 bytes.
    let src = r#"
struct P { float* x; int n; cudaStream_t stream; };
__global__ void k(const P p, int* size) {
    int i = threadIdx.x;
    if (i < p.n) p.x[i] *= 2.0f;
    size[0] = sizeof(P);
}
launch k { a = ones(8); p.x = a; p.n = 6; size = zeros(1); expect a == [2, 2, 2, 2, 2, 2, 1, 1]; expect size == [24]; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn a_function_pointer_member_is_held_not_followed() {
    // Mordred's KernelArgs.h: `template <typename T> using group_func_t = T (*)(T, T);` names
    // a member the kernel never calls; the struct is 8 (int*) + 8 + 8 (two function pointers) = 24
    // bytes, its pointer member left unset by the launch. Calling through it is refused with
    // its fix, not reported as an unknown member.
    let src = r#"
template <typename T>
using group_func_t = T (*)(T, T);
typedef int (*fn_t)(int, int);
struct args_t { int* col; group_func_t<int> f; fn_t g; };
__global__ void k(args_t a, int* out) {
    out[threadIdx.x] = a.col[threadIdx.x] + 1;
    if (threadIdx.x == 0) out[32] = sizeof(args_t);
}
launch k { a.col = arange(32); out = zeros(33); block = 32; grid = 1;
    expect out == [i + 1 for i in 0..32] ; }
"#;
    let src = src.replace(
        "[i + 1 for i in 0..32] ",
        &format!(
            "[{}, 24]",
            (1..=32)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let r = ok(&src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    let call = src.replace("a.col[threadIdx.x] + 1;", "a.f(a.col[threadIdx.x], 1);");
    let f = err(&call, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let d = common::describe(&f);
    assert!(d.contains("function pointer member `f`"), "{d}");
}

#[test]
fn a_pointer_to_the_struct_being_laid_out_is_held_and_not_followed() {
    // `Node* self;` (a graph repository's device handle), a class template's `L<T>* next;` and
    // `B { A* a; }` inside `A`: each struct holds a pointer, so the pointer is held and never
    // followed, as for any pointer to a struct that holds pointers; the launch sets the data.
    // out = l.v + a.x + a.b.k = 1.5 + 2 + 3.
    let src = r#"
template <typename T> struct L { L<T>* next; T v; };
struct A;
struct B { A* a; int k; };
struct A { B b; float x; };
struct Node { Node* self; float* data; };
__global__ void k(L<float> l, A a, Node n, float* out) {
    out[threadIdx.x] = l.v + a.x + a.b.k + n.data[threadIdx.x];
}
launch k { l.v = 1.5; a.x = 2; a.b.k = 3; n.data = arange(4); out = zeros(4); expect out == 6.5 + arange(4); }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
    // Following one is refused, naming the member.
    let src = r#"
struct Node { Node* next; float v; };
__global__ void k(Node n, float* out) { out[threadIdx.x] = n.next->v; }
launch k { n.v = 1; out = zeros(4); }
"#;
    let e = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
    assert!(
        common::describe(&e).contains("`n.next`"),
        "{}",
        common::describe(&e)
    );
}

#[test]
fn the_address_of_a_struct_member_is_a_pointer_to_that_struct() {
    // FastGEMV's int4 GEMV: `(uint4_2*)&mat_val.x` of a struct member of a local. Here
    // `&v.y` of a local copy (written through: v.y.a = in[4t + 2] + 10), `&in[t].y` of the
    // buffer (its b is in[4t + 3]) and `&q->x` through a pointer to the local (b = in[4t + 1]).
    let src = r#"
struct V2 { float a; float b; };
struct W { V2 x; V2 y; };
__global__ void k(W* in, float* out) {
    W v = in[threadIdx.x];
    V2* p = &v.y;
    p->a += 10.0f;
    const V2* g = &in[threadIdx.x].y;
    W* q = &v;
    V2* r = &q->x;
    out[threadIdx.x] = v.y.a + g->b + r->b;
}
launch k { in = arange(128); out = zeros(32);
    expect out == (arange(32) * 4 + 12) + (arange(32) * 4 + 3) + (arange(32) * 4 + 1); }
"#;
    assert!(ok(src, &[], ONE, [32, 1, 1]).expects_passed());
    // A one-byte struct member read through a pointer to another struct type: p->data is byte
    // 4t + 1 of in, whose low nibble is (4t + 1) % 16.
    let src = r#"
struct P { unsigned char data; };
struct P4 { P x, y, z, w; };
__global__ void k(P* in, int* out) {
    P4* in4 = reinterpret_cast<P4*>(in);
    P4 v = in4[threadIdx.x];
    const P* p = (P*)&v.y;
    out[threadIdx.x] = p->data & 0x0F;
}
launch k { in = arange(128); out = zeros(32); expect out == (arange(32) * 4 + 1) % 16; }
"#;
    assert!(ok(src, &[], ONE, [32, 1, 1]).expects_passed());
}

#[test]
fn a_pointer_to_a_class_template_with_default_arguments_is_held_inside_it() {
    // `M<T>* next;` inside `template <typename T, int K = 2> struct M`, whose layout is kept
    // as `M<float,2>`: a held pointer, as without the default. o = m.w + m.v[1] = 5 + 2.
    let src = r#"
template <typename T, int K = 2> struct M { T v[K]; M<T>* next; T w; };
__global__ void k(M<float> m, float* o) { o[0] = m.w + m.v[1]; }
launch k { m.v = [1, 2]; m.w = 5; o = zeros(1); expect o == [7]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_reference_a_member_function_returns_into_a_struct_in_registers_is_refused() {
    // `c.get().y` of a local `T c` (in registers) whose `get` returns `const A&` to a member:
    // the member has no address. It panicked in lowering (a pointer into no array).
    let src = r#"
struct A { float x; float y; };
struct T { A a; __device__ const A& get() const { return a; } };
__global__ void k(const T* in, float* out) { T c = in[0]; out[0] = c.get().y; }
launch k { in = [1, 2]; out = zeros(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
    assert!(
        common::describe(&e).contains("held in registers"),
        "{}",
        common::describe(&e)
    );
}

#[test]
fn static_members_of_class_type_leave_the_constants_after_them() {
    // ray-tracing-in-one-weekend's `interval` declares `static const interval empty;` (defined
    // after the class) and gnnlab's `Constant` a host `static const std::string` before the
    // `static constexpr` its kernels read: neither is a constant of the layout, and neither
    // hides the ones after it. clamp(0) = 0, clamp(0.5) = 0.5, clamp(1) = clamp(1.5) = 0.999;
    // `kEmptyKey` is 0xFFFFFFFF.
    let src = r#"
#include <limits>
#include <string>
class interval {
public:
    float min, max;
    __host__ __device__ interval(float a, float b) : min(a), max(b) {}
    __host__ __device__ float clamp(float x) const { return x < min ? min : (x > max ? max : x); }
    static const interval empty;
};
const interval interval::empty = interval(1.0f, -1.0f);
class Constant {
 public:
  static const std::string kMetaFile;
  static constexpr unsigned kEmptyKey = std::numeric_limits<unsigned>::max();
};
__device__ float f(float x) {
    static const interval intensity(0.000, 0.999);
    return intensity.clamp(x);
}
__global__ void k(float* out, unsigned* key) {
    out[threadIdx.x] = f(threadIdx.x * 0.5f);
    key[threadIdx.x] = Constant::kEmptyKey;
}
launch k { out = zeros(4); key = zeros(4); grid = 1; block = 4;
           expect out == [0, 0.5, 0.999, 0.999]; expect key == 4294967295; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_auto_static_member_has_its_initialisers_type_and_hides_the_files_name() {
    // `static constexpr auto N = 4;` is an `int` 4 inside `S` (a file constant `N = 9` is
    // hidden): `int a[N]` makes `sizeof(S)` 16. A review found it silently read as the file's.
    let src = r#"
constexpr int N = 9;
struct S {
    static constexpr auto N = 4;
    int a[N];
    __device__ int sz() const { return N; }
};
__global__ void k(int* out) {
    S s;
    out[0] = s.sz();
    out[1] = S::N;
    out[2] = sizeof(S);
}
launch k { out = zeros(3); grid = 1; block = 1; expect out == [4, 4, 16]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn this_is_a_pointer_to_an_object_in_memory() {
    // wudip/nbody-cuda's `SimpleCell::getCell`: `return this + diff;` reaches a neighbour in
    // the array the object lives in. cells = [0, 1, 2, 3, 4] (one int each): cells[i].self()
    // is cells[i] (i); same(&cells[i]) is true (100), same(&cells[0]) only for i = 0 (1000);
    // next() reads cells[i + 1] (10 (i + 1)).
    let src = r#"
struct C {
    int v;
    __device__ C* self() { return this; }
    __device__ bool same(const C* o) const { return this == o; }
    __device__ int next() const { return (this + 1)->v; }
};
__global__ void k(C* cells, int* out) {
    int i = threadIdx.x;
    out[i] = cells[i].self()->v + (cells[i].same(&cells[i]) ? 100 : 0)
        + (cells[i].same(&cells[0]) ? 1000 : 0) + cells[i].next() * 10;
}
launch k { cells = arange(5); out = zeros(4);
    expect out == arange(4) + 100 + 10 * (arange(4) + 1) + [1000, 0, 0, 0]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Of an element of a `__shared__` array too: sv[t].x = 2t.
    let src = r#"
struct V { float x; __device__ const V* self() const { return this; } };
__global__ void k(float* out) {
    __shared__ V sv[4];
    sv[threadIdx.x].x = threadIdx.x * 2;
    __syncthreads();
    out[threadIdx.x] = sv[threadIdx.x].self()->x;
}
launch k { out = zeros(4); expect out == [0, 2, 4, 6]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // A local kept in registers has no address: refused, naming `this`.
    let src = r#"
struct C { int v; __device__ const C* self() const { return this; } };
__global__ void k(int* out) { C local; local.v = 7; out[threadIdx.x] = local.self()->v; }
launch k { out = zeros(4); }
"#;
    let e = err(src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
    assert!(
        common::describe(&e).contains("`this` as a pointer"),
        "{e:?}"
    );
}
