//! Overloads as C++ chooses them: free operators by their arguments' types, templates that
//! differ only in a `volatile` pointee, and reference-to-array parameters.

use crate::common;
use common::{codes, err, ok, position, simt};
use miette::Diagnostic;

const ONE: [u32; 3] = [1, 1, 1];

/// vec3.h's operator set: `v * v`, `t * v`, `v * t`, `v / v`, `v / t`; the last declared of
/// each pair is the one C++ picks for a float operand, never the first.
const VEC3: &str = r#"
struct V {
    __device__ V() {}
    __device__ V(float a, float b, float c) { x = a; y = b; z = c; }
    float x, y, z;
};
__device__ inline V operator*(const V &a, const V &b) { return V(a.x * b.x, a.y * b.y, a.z * b.z); }
__device__ inline V operator*(float t, const V &v) { return V(t * v.x, t * v.y, t * v.z); }
__device__ inline V operator*(const V &v, float t) { return V(t * v.x + 100.0f, t * v.y, t * v.z); }
__device__ inline V operator/(V a, V b) { return V(a.x / b.x, a.y / b.y, a.z / b.z); }
__device__ inline V operator/(V v, float t) { return V(v.x / t + 1000.0f, v.y / t, v.z / t); }
__device__ inline V operator-(V a) { return V(-a.x, -a.y, -a.z); }
__device__ inline V operator-(V a, V b) { return V(a.x - b.x, a.y - b.y, a.z - b.z); }
"#;

#[test]
fn free_operators_are_chosen_by_their_arguments_types() {
    let src = format!(
        r#"{VEC3}
__global__ void k(float* out) {{
    V v(2.0f, 4.0f, 6.0f);
    V a = v * v;
    V b = 2.0f * v;
    V c = v * 2.0f;
    V d = v / v;
    V e = v / 2.0f;
    V f = 3 * v;
    V g = -(v - a);
    out[0] = a.x; out[1] = b.x; out[2] = c.x; out[3] = d.y; out[4] = e.x; out[5] = f.z;
    out[6] = g.y;
    out[7] = (v * 0.5f).y;
}}
launch k {{ out = zeros(8); expect out == [4.0, 4.0, 104.0, 1.0, 1001.0, 18.0, 12.0, 2.0]; }}
"#
    );
    // a = v*v = (4, 16, 36); b = 2*v (float, V) = (4, 8, 12); c = v*2 (V, float) adds 100 to x:
    // 104; d = v/v = (1, 1, 1); e = v/2 (V, float) adds 1000 to x: 1001; f = 3*v: the int 3
    // converts to float for (float, V), which needs no constructor, z = 18; g = -(v - a):
    // v - a = (-2, -12, -30), negated y = 12; (v * 0.5f).y = 2 (the (V, float) one only adds
    // to x).
    ok(&src, &[], ONE, ONE);
}

#[test]
fn the_first_declared_operator_is_not_taken_when_a_later_one_fits() {
    // With the (V, float) overload declared first, `v * v` still takes (V, V).
    let src = r#"
struct V { float x; __device__ V(float a) : x(a) {} };
__device__ V operator*(V v, float t) { return V(v.x * t + 10.0f); }
__device__ V operator*(V a, V b) { return V(a.x * b.x); }
__global__ void k(float* out) { V v(3.0f); V a = v * v; V b = v * 2.0f; out[0] = a.x; out[1] = b.x; }
launch k { out = zeros(2); expect out == [9.0, 16.0]; }
"#;
    // v * v = 3 * 3 = 9 (not 3 * ... + 10 through the converting constructor V(float));
    // v * 2.0f = 3 * 2 + 10 = 16.
    ok(src, &[], ONE, ONE);
}

#[test]
fn template_operators_deduce_their_type_parameters() {
    let src = r#"
template <typename T> struct P { T x; __device__ P() {} __device__ P(T a) : x(a) {} };
template <typename T> __device__ P<T> operator*(P<T> a, P<T> b) { return P<T>(a.x * b.x); }
template <typename T> __device__ P<T> operator*(T s, P<T> b) { return P<T>(s * b.x + 100); }
__global__ void k(float* out) {
    P<float> a(3.0f);
    P<float> b = a * a;
    P<float> c = 2.0f * a;
    out[0] = b.x; out[1] = c.x;
}
launch k { out = zeros(2); expect out == [9.0, 106.0]; }
"#;
    // a * a deduces T = float from two P<float>: 3 * 3 = 9; 2.0f * a matches (T, P<T>) only
    // (a float is no instance of P): 2 * 3 + 100 = 106.
    ok(src, &[], ONE, ONE);
}

#[test]
fn an_operator_no_overload_fits_lists_the_candidates() {
    let src = r#"
struct V { float x; __device__ V() {} };
struct W { float y; };
__device__ V operator*(V a, V b) { V r; r.x = a.x * b.x; return r; }
__device__ V operator*(V a, float t) { V r; r.x = a.x * t; return r; }
__global__ void k(float* out) { V v; v.x = 1.0f; W w; w.y = 2.0f; V a = v * w; out[0] = a.x; }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::operator_overload"]);
    let text = simt::cli::render(&f);
    assert!(text.contains("no `operator*` fits `V` and `W`"), "{text}");
    assert!(text.contains("`operator*(V, V)`"), "{text}");
    assert!(text.contains("`operator*(V, float)`"), "{text}");
    // The primary label is at `v * w` on line 6, where `v` is the 73rd character.
    assert_eq!(position(&f), (6, 73));
}

#[test]
fn an_operator_two_overloads_fit_equally_is_ambiguous() {
    // `v * 2` with (V, float) and (V, double): int to float and int to double are both
    // conversions, so neither is better (g++: "ambiguous overload for 'operator*'").
    let src = r#"
struct V { float x; };
__device__ V operator*(V a, float t) { V r; r.x = a.x * t; return r; }
__device__ V operator*(V a, double t) { V r; r.x = a.x * (float)t; return r; }
__global__ void k(float* out) { V v; v.x = 1.0f; V a = v * 2; out[0] = a.x; }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::operator_overload"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("more than one `operator*` fits `V` and `int`"),
        "{text}"
    );
    // A float operand promotes to double but is exact for float: no ambiguity.
    let fine = src.replace("v * 2;", "v * 2.0f;").replace(
        "out = zeros(1); }",
        "out = zeros(1); expect out == [2.0]; }",
    );
    ok(&fine, &[], ONE, ONE);
}

#[test]
fn templates_that_differ_only_in_a_volatile_pointee_are_overloads() {
    let src = r#"
template <typename T>
__device__ void copy1(T* dst, volatile T* src, int i) { dst[i] = src[i] + 1; }
template <typename T>
__device__ void copy1(volatile T* dst, T* src, int i) { dst[i] = src[i] + 2; }
template <typename T>
__device__ void copy1(T* dst, T* src, int i) { dst[i] = src[i]; }
__global__ void k(float* out, float* in) { copy1(out, in, threadIdx.x); }
launch k { in = arange(32); out = zeros(32); expect out == arange(32); }
"#;
    // Non-volatile arguments bind to the plain (T*, T*) overload, declared last, as in C++
    // (binding to `volatile T*` is a qualification conversion, worse than none): out = in, not
    // in + 1 or in + 2.
    ok(src, &[], ONE, [32, 1, 1]);
    // The same parameter list twice, `volatile` included, is still a duplicate.
    let twice = src.replacen(
        "copy1(T* dst, T* src, int i) { dst[i] = src[i]; }",
        "copy1(volatile T* dst, T* src, int i) { dst[i] = src[i]; }",
        1,
    );
    // The call is then ambiguous too: (T*, volatile T*) and (volatile T*, T*) each add a
    // qualifier to one argument.
    let f = err(&twice, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::duplicate", "simt::check::ambiguous_call"]
    );
}

#[test]
fn a_pointer_to_const_and_a_plain_pointer_are_overloads() {
    // `c(float*)` takes a plain pointer exactly; `c(const float*)` takes it by adding `const`
    // (worse), and is the only one a pointer to `const` fits. Declared in either order.
    let src = r#"
__device__ float c(const float* p) { return 1.0f; }
__device__ float c(float* p) { return 2.0f; }
__device__ float d(float* p) { return 2.0f; }
__device__ float d(const float* p) { return 1.0f; }
__global__ void k(float* out, const float* in) {
    const float* q = out;
    out[0] = c(out); out[1] = c(in); out[2] = d(out); out[3] = d(in); out[4] = c(q); out[5] = d(q);
}
launch k { out = zeros(6); in = ones(2); expect out == [2, 1, 2, 1, 1, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_call_two_overloads_fit_equally_is_ambiguous() {
    // `m(1.0f, 1.0f)`: (float, double) is exact then a promotion, (double, float) a promotion
    // then exact; neither is better for every argument (g++: "call of overloaded 'm(float,
    // float)' is ambiguous").
    let src = r#"
__device__ float m(float a, double b) { return 1.0f; }
__device__ float m(double a, float b) { return 2.0f; }
__global__ void k(float* out) { out[0] = m(1.0f, 1.0f); }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::ambiguous_call"]);
    // Line 4, `1.0f` at character 44.
    assert_eq!(position(&f), (4, 44));
    let text = simt::cli::render(&f);
    assert!(
        text.contains("more than one `m` fits `float` and `float`"),
        "{text}"
    );
    // A double first argument makes (double, float) exact for both.
    let fine = src.replace("m(1.0f, 1.0f)", "m(1.0, 1.0f)").replace(
        "out = zeros(1); }",
        "out = zeros(1); expect out == [2.0]; }",
    );
    ok(&fine, &[], ONE, ONE);
}

#[test]
fn a_reference_to_an_array_parameter_writes_the_callers_array() {
    let src = r#"
__device__ void fill4(float (&items)[4], float v) { for (int i = 0; i < 4; i++) items[i] = v + i; }
template <int N>
__device__ float sum(const float (&a)[N]) { float s = 0.0f; for (int i = 0; i < N; i++) s += a[i]; return s; }
__global__ void k(float* out) {
    float a[4];
    fill4(a, threadIdx.x);
    out[threadIdx.x] = sum<4>(a);
}
launch k { out = zeros(4); expect out == [6.0, 10.0, 14.0, 18.0]; }
"#;
    // Thread t fills a = (t, t+1, t+2, t+3); the sum is 4t + 6: 6, 10, 14, 18.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_constructor_with_the_wrong_argument_count_is_named_as_cpp_names_it() {
    let src = r#"
struct V { float x, y; __device__ V(float a, float b) : x(a), y(b) {} };
__global__ void k(float* out) { V v = {1.0f}; out[0] = v.x; }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("`V::V` takes 2 argument(s), found 1"),
        "{text}"
    );
}

#[test]
fn long_chains_of_overloaded_free_operators_stay_fast() {
    // Each `*` asks its operands for their types; asking twice per level would take 2^60 steps
    // here. 60 factors of v = 1, then 1.0f and v alternating (float * V and V * float), then 20
    // negations (even: +1): 1 + 1 + 1 = 3.
    let chain = vec!["v"; 60].join(" * ");
    let mixed: Vec<&str> = (0..61)
        .map(|i| if i % 2 == 1 { "v" } else { "1.0f" })
        .collect();
    let negated = format!("{}v{}", "-(".repeat(20), ")".repeat(20));
    let src = format!(
        r#"
struct V {{ float x; __device__ V() {{}} __device__ V(float a) : x(a) {{}} }};
__device__ V operator*(V a, V b) {{ return V(a.x * b.x); }}
__device__ V operator*(float t, V b) {{ return V(t * b.x); }}
__device__ V operator*(V a, float t) {{ return V(a.x * t); }}
__device__ V operator-(V a) {{ return V(-a.x); }}
__device__ V operator-(V a, V b) {{ return V(a.x - b.x); }}
__global__ void k(float* out) {{
    V v(1.0f);
    V q = {chain};
    V r = {mixed};
    V s = {negated};
    out[0] = q.x + r.x + s.x;
}}
launch k {{ out = zeros(1); expect out == [3.0]; }}
"#,
        mixed = mixed.join(" * ")
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_file_s_make_overload_sits_beside_the_built_in() {
    // OpenMM's vectorOps.cu: make_int4(int a) calls the built-in make_int4(a, a, a, a), and
    // both stay callable. make_int2(float, float) has the built-in's arity: int arguments take
    // the built-in (exact) and float ones the file's (exact for it, a conversion for the
    // built-in). make_float3(float) beside the built-in make_float3(x, y, z), a struct vector.
    let src = r#"
inline __device__ int4 make_int4(int a) { return make_int4(a, a, a, a); }
inline __device__ int2 make_int2(float a, float b) { return make_int2((int)(a * 10), (int)(b * 10)); }
inline __device__ float3 make_float3(float a) { return make_float3(a, a, a); }
__global__ void k(int4* v, int2* w, float* f) {
    int i = threadIdx.x;
    if (i % 2) v[i] = make_int4(7);
    else v[i] = make_int4(i, i + 1, i + 2, i + 3);
    w[2 * i] = make_int2(i, 2 * i);
    w[2 * i + 1] = make_int2(0.5f * i, 1.5f);
    float3 p = make_float3(1.0f * i);
    float3 q = make_float3(1.0f, 2.0f, 3.0f);
    f[i] = p.x + p.y + p.z + q.x * q.y * q.z;
}
launch k { v = zeros(16); w = zeros(16); f = zeros(4);
    expect v == [0, 1, 2, 3, 7, 7, 7, 7, 2, 3, 4, 5, 7, 7, 7, 7];
    expect w == [0, 0, 0, 15, 1, 2, 5, 15, 2, 4, 10, 15, 3, 6, 15, 15];
    expect f == [6, 9, 12, 15]; }
"#;
    // v: even lanes i..i+3, odd lanes 7s. w: lane i writes (i, 2i) then (int)(5i), 15.
    // f: 3i + 1·2·3 = 3i + 6.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn function_overloads_are_ranked_as_cpp_ranks_them() {
    // With a float argument: f(double) is a promotion, f(int) a conversion, so f(double) is
    // called although f(int) comes first: 2 · 1.5 = 3. With an int argument f(int) is exact:
    // 1 + 100 = 101. g(float) and the template g(T) fit a float exactly; the function beats
    // the template: 1.5 + 10 = 11.5; an int argument deduces T = int for the template, exact
    // against g(float)'s conversion: 1 + 20 = 21.
    let src = r#"
__device__ float f(int x) { return x + 100; }
__device__ float f(double x) { return 2 * x; }
template <typename T> __device__ float g(T x) { return x + 20; }
__device__ float g(float x) { return x + 10; }
__global__ void k(float* out) {
    float h = 1.5f;
    int n = 1;
    out[0] = f(h); out[1] = f(n); out[2] = g(h); out[3] = g(n);
}
launch k { out = zeros(4); expect out == [3, 101, 11.5, 21]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_vector_argument_takes_the_vector_overload_declared_after_the_scalar_one() {
    // exllama's `half silu(half)` then `half2 silu(half2)`: a half2 argument calls the second.
    // Declared in that order, the call was typed by the first (a scalar) and refused. Thread t
    // doubles the pair (2t, 2t + 1) and the float pair (t, -t) through the vector overloads.
    let src = r#"
#include <cuda_fp16.h>
__device__ half twice(half x) { return __hadd(x, x); }
__device__ half2 twice(half2 x) { return __hadd2(x, x); }
__device__ float twice(float x) { return x + x; }
__device__ float2 twice(float2 v) { return make_float2(v.x + v.x, v.y + v.y); }
__global__ void k(half* x, float* f) {
    int t = threadIdx.x;
    half2 v = ((half2*)x)[t];
    v = twice(v);
    ((half2*)x)[t] = v;
    float2 w = twice(make_float2(t, -t));
    f[2 * t] = w.x;
    f[2 * t + 1] = w.y + twice(0.5f);
}
launch k { x = arange(8); f = zeros(8);
    expect x == 2 * arange(8);
    expect f == [0, 1, 2, -1, 4, -3, 6, -5]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

/// DualSPHysics' overloads of one `__global__` name, which differ in their parameters.
const KERNEL_OVERLOADS: &str = r#"
__global__ void k(int n, float* a) { if (threadIdx.x < n) a[threadIdx.x] = 1.0f; }
__global__ void k(int n, int* a) { if (threadIdx.x < n) a[threadIdx.x] = 2; }
__global__ void k(int n, float* a, float* b) {
    if (threadIdx.x < n) { a[threadIdx.x] = 3.0f; b[threadIdx.x] = 4.0f; }
}
launch k { n = 4; a = zeros(4); b = zeros(4); block = 4; grid = 1; expect a == full(4, 3); expect b == full(4, 4); }
launch k(int, int *) { n = 4; a = zeros(4); block = 4; grid = 1; expect a == full(4, 2); }
launch k(int,float*) { n = 4; a = zeros(4); block = 4; grid = 1; expect a == full(4, 1); }
"#;

#[test]
fn kernel_overloads_are_chosen_by_the_parameters_a_launch_section_sets() {
    // The first section sets n, a and b: of the overloads whose parameters it all sets (all
    // three), k(int, float*, float*) uses the most (3 of its names), so a = 3 and b = 4. The
    // others name an overload by its parameter types, as written or with other spacing: a = 2
    // from k(int, int*), a = 1 from k(int, float*).
    let dir = std::env::temp_dir().join(format!("simt-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("overloads.sk");
    std::fs::write(&path, KERNEL_OVERLOADS).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&["test", "--jobs", "1", p]);
    assert_eq!(code, 0, "{out}{errs}");
    for name in ["k(int,float*,float*)", "k(int,int*)", "k(int,float*)"] {
        assert!(out.contains(&format!("ok      {name} ")), "{name}: {out}");
    }
    // --kernel names an overload by its signature, with any spacing; the plain name is none.
    let (code, out, errs) = simt(&["run", p, "--kernel", "k(int, float *)", "--json"]);
    assert_eq!(code, 0, "{errs}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["kernel"], "k(int,float*)");
    let (code, _, errs) = simt(&["run", p, "--kernel", "k"]);
    assert_eq!(code, 2);
    assert!(errs.contains("k(int,int*)"), "{errs}");
}

#[test]
fn a_launch_section_that_fits_two_kernel_overloads_lists_them() {
    // `n` and `a` are the parameters of both k(int, float*) and k(int, int*): two fit equally
    // (k(int, float*, float*) lacks b).
    let src = KERNEL_OVERLOADS.replace(
        "launch k { n = 4; a = zeros(4); b = zeros(4);",
        "launch k { n = 4; a = zeros(4);",
    );
    let f = err(&src, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::kernel_overload"]);
    let text = f.errors[0].to_string();
    assert!(
        text.contains("`k` has 3 overloads and this launch section fits 2 of them"),
        "{text}"
    );
}

#[test]
fn a_signature_names_the_one_kernel_of_its_name_too() {
    // Host code names an instance with its parameter types even where the kernel has no
    // overload (DeepSpeed's `attn_softmax<8, 16, 8>(float*, ...)`): the launch and --kernel
    // take the template's own types (`T*`) or the instance's (`float*`); another signature is
    // no kernel of the file.
    let src = r#"
template <typename T, int N>
__global__ void k(T* a, int n) { if (threadIdx.x < n) a[threadIdx.x] = N; }
__global__ void plain(float* a, int n) { if (threadIdx.x < n) a[threadIdx.x] = 5; }
launch k<float, 8>(float*, int) { n = 4; a = zeros(4); grid = 1; block = 4; expect a == 8; }
launch k<double, 3>(T *, int) { n = 4; a = zeros(4); grid = 1; block = 4; expect a == 3; }
launch plain(float*, int) { n = 4; a = zeros(4); grid = 1; block = 4; expect a == 5; }
"#;
    let dir = std::env::temp_dir().join(format!("simt-sole-signature-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sole.sk");
    std::fs::write(&path, src).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&["test", "--jobs", "1", p]);
    assert_eq!(code, 0, "{out}{errs}");
    for name in ["k<float,8>", "k<double,3>", "plain"] {
        assert!(out.contains(&format!("ok      {name} ")), "{name}: {out}");
    }
    let (code, out, errs) = simt(&["run", p, "--kernel", "plain(float *, int)", "--json"]);
    assert_eq!(code, 0, "{errs}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["kernel"], "plain");
    let wrong = src.replace("launch plain(float*, int)", "launch plain(float*, float)");
    let f = err(&wrong, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::unknown_kernel"]);
}

/// catboost's transform.cu: each operation is two kernel templates of one name, one adding an
/// array and one a number.
const ADD_IMPL: &str = r#"
template <typename T>
__global__ void AddImpl(T* x, const T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += y[i];
}
template <typename T>
__global__ void AddImpl(T* x, const T y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += y;
}
launch AddImpl<float> { n = 8; x = arange(n); y = ones(n) * 10; grid = 1; block = 8; expect x == arange(n) + 10; }
launch AddImpl<int> { n = 8; x = arange(n); y = 2; grid = 1; block = 8; expect x == arange(n) + 2; }
sequence {
    a = arange(8);
    launch AddImpl<float> { x = a; y = 3.5; n = 8; grid = 1; block = 8; }
    launch AddImpl<float> { x = a; y = a; n = 8; grid = 1; block = 8; }
    expect a == (arange(8) + 3.5) * 2;
}
"#;

#[test]
fn kernel_template_overloads_are_chosen_by_the_kinds_of_values_a_launch_sets() {
    // Both overloads have parameters x, y and n, so the names a section sets cannot choose; an
    // array for `y` fits `const T* y` only and a number `const T y` only. The first section adds
    // 10 to each of 0..7 through the array, the second 2 through the number; the sequence adds
    // 3.5 (a number) then the array to itself, (i + 3.5) * 2. Each instance is named by its
    // template's signature.
    let dir = std::env::temp_dir().join(format!("simt-template-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("add.sk");
    std::fs::write(&path, ADD_IMPL).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&["test", "--jobs", "1", p]);
    assert_eq!(code, 0, "{out}{errs}");
    for name in [
        "AddImpl<float>(T*,const T*,int)",
        "AddImpl<int>(T*,const T,int)",
        "sequence (AddImpl<float>(T*,const T,int), AddImpl<float>(T*,const T*,int))",
    ] {
        assert!(out.contains(&format!("ok      {name} ")), "{name}: {out}");
    }
    // --kernel names an instance of one overload by the template's parameter types; the
    // section of its template's other instance gives the rest, and its expect sees x = 5 + 40.
    let (code, out, errs) = simt(&[
        "run",
        p,
        "--kernel",
        "AddImpl<double>(T *, const T, int)",
        "--arg",
        "n=1",
        "--arg",
        "x=[5]",
        "--arg",
        "y=40",
        "--grid",
        "1",
        "--block",
        "1",
        "--json",
    ]);
    assert_eq!(code, 1, "{errs}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["kernel"], "AddImpl<double>(T*,const T,int)");
    assert_eq!(v["expects"][0]["detail"], "45 == 2 is false", "{out}");
}

#[test]
fn a_launch_that_fits_no_kernel_template_overload_lists_them() {
    // `x = 1` is a number, which neither overload's `T* x` takes: 0 of 2 fit, in a launch
    // section and in a sequence alike.
    let src = ADD_IMPL.replace("y = 2;", "y = 2; x = 1;");
    let f = err(&src, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::kernel_overload"]);
    assert_eq!(position(&f), (13, 8));
    let text = f.errors[0].to_string();
    assert!(
        text.contains("`AddImpl<int>` has 2 overloads and this launch section fits 0 of them"),
        "{text}"
    );
    let help = f.errors[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(
        help.contains("`AddImpl<int>(T* x, const T y, int n)`"),
        "{help}"
    );
    let src = ADD_IMPL.replace("y = a; n = 8", "y = a; x = 1; n = 8");
    let f = err(&src, &[], None, None);
    assert_eq!(codes(&f), ["simt::check::kernel_overload"]);
    assert_eq!(position(&f), (17, 12));
}

#[test]
fn a_host_template_max_loses_to_cudas_built_in_max() {
    // thundersvm's util/common.h: a host `template<class T> T max(T, T)`. For two doubles (and
    // for int/unsigned, and float/double pairs) CUDA's non-template built-in is an exact match
    // and wins the tie ([over.match.best]), as nvcc compiles it. t = 0..3: max(t, 1.5) =
    // 1.5, 1.5, 2, 3; min(t, 2u) = 0, 1, 2, 2; max(1.0f, 0.5) = 1.
    let src = r#"
template<class T>
static inline T max(T x, T y) { return (x > y) ? x : y; }
template<class T>
static inline T min(T x, T y) { return (x < y) ? x : y; }
__global__ void k(double* p, unsigned* q, double* r) {
    p[threadIdx.x] = max(p[threadIdx.x], 1.5);
    q[threadIdx.x] = min((int)threadIdx.x, 2u);
    r[threadIdx.x] = max(1.0f, 0.5);
}
launch k { p = arange(4); q = zeros(4); r = zeros(4);
    expect p == [1.5, 1.5, 2, 3]; expect q == [0, 1, 2, 2]; expect r == full(4, 1); }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_host_template_max_that_fits_better_is_still_a_host_call() {
    // Two `unsigned char`s: the template deduces T = unsigned char (exact), the built-in
    // max(int, int) needs a promotion, so C++ picks the host template and nvcc refuses the call.
    let src = r#"
template<class T>
static inline T max(T x, T y) { return (x > y) ? x : y; }
__global__ void k(unsigned char* p) { p[threadIdx.x] = max(p[threadIdx.x], p[0]); }
launch k { p = zeros(4); }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::host_function"]);
}

#[test]
fn every_compound_assignment_operator_may_be_declared() {
    // cuda_helper.h's `operator^=(uint2&, uint2)`, and the others, free and as members.
    // v = (t, 1): ^= (1, 2) gives (t^1, 3); |= 4 on x, &= 6 on y: (t^1 | 4, 3 & 6 = 2);
    // S s{t + 8}: %= 5, <<= 2, >>= 1: ((t + 8) % 5) * 4 / 2 = 2 * ((t + 8) % 5).
    // t = 0..3: x = 5, 4, 7, 6; y = 2; s = 6, 8, 0, 2.
    let src = r#"
static __device__ __forceinline__ void operator^=(uint2& a, uint2 b) { a.x ^= b.x; a.y ^= b.y; }
__device__ void operator|=(uint2& a, unsigned b) { a.x |= b; }
__device__ void operator&=(uint2& a, unsigned b) { a.y &= b; }
struct S {
    int v;
    __device__ S& operator%=(int m) { v = v % m; return *this; }
    __device__ S& operator<<=(int n) { v = v << n; return *this; }
    __device__ S& operator>>=(int n) { v = v >> n; return *this; }
};
__global__ void k(unsigned* p, int* q) {
    unsigned t = threadIdx.x;
    uint2 v = make_uint2(t, 1);
    v ^= make_uint2(1, 2);
    v |= 4u;
    v &= 6u;
    p[2 * t] = v.x;
    p[2 * t + 1] = v.y;
    S s{(int)t + 8};
    s %= 5;
    s <<= 2;
    s >>= 1;
    q[t] = s.v;
}
launch k { p = zeros(8); q = zeros(4);
    expect p == [5, 2, 4, 2, 7, 2, 6, 2]; expect q == [6, 8, 0, 2]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

/// Two function templates that fit a call equally: C++ calls the more specialised one
/// ([temp.func.order]), in either order of declaration. `sub(V, V)` is more specialised than
/// `sub(V, S)` (the second deduces from the first with `S = V`, not the other way round), so
/// `sub(a, b)` of two `float2` computes `a.x - b.x` = 5 - 2 = 3; with a `float` second argument
/// only `sub(V, S)` deduces, and `a.x - b` = 5 - 1.5 = 3.5.
#[test]
fn the_more_specialised_template_wins_a_tie() {
    let general = "template <typename S, typename V> __device__ V sub(V a, S b) { V r; r.x = a.x - b; r.y = 0; return r; }\n";
    let special = "template <typename V> __device__ V sub(V a, V b) { V r; r.x = a.x - b.x; r.y = 1; return r; }\n";
    let kernel = "__global__ void k(float2* o) {\n    o[0] = sub(o[1], o[2]);\n    o[3] = sub(o[1], 1.5f);\n}\nlaunch k {\n    o = [0, 0, 5, 0, 2, 0, 0, 0];\n    expect o == [3, 1, 5, 0, 2, 0, 3.5, 0];\n}\n";
    for order in [[general, special], [special, general]] {
        ok(&format!("{}{}{kernel}", order[0], order[1]), &[], ONE, ONE);
    }
    // The same for free operators (kaolin's `operator-(V, S)` beside `operator-(V, V)`).
    let src = "template <typename S, typename V> __device__ V operator-(V a, S b) { V r; r.x = a.x - b; r.y = 0; return r; }\ntemplate <typename V> __device__ V operator-(V a, V b) { V r; r.x = a.x - b.x; r.y = 1; return r; }\n__global__ void k(float2* o) { o[0] = o[1] - o[2]; }\nlaunch k {\n    o = [0, 0, 5, 0, 2, 0];\n    expect o == [3, 1, 5, 0, 2, 0];\n}\n";
    ok(src, &[], ONE, ONE);
}

/// Two free operators of one signature told apart by `enable_if` (kaolin's `operator-(V, const
/// V&)` for 3- and for 2-component `V`): the one whose condition fails for the operands is
/// discarded, so `float3 - float3` calls the 3-component one: {5, 7, 9} - {1, 2, 3} = {4, 5, 6};
/// and `float2 - float2` the other, which adds 100 to x: {5, 7} - {1, 2} = {104, 5}.
#[test]
fn enable_if_tells_free_operators_of_one_signature_apart() {
    let src = r#"
#include <type_traits>
template <typename V, std::enable_if_t<std::is_same<V, float3>::value>* = nullptr>
__device__ V operator-(V a, const V& b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; return a; }
template <typename V, std::enable_if_t<std::is_same<V, float2>::value>* = nullptr>
__device__ V operator-(V a, const V& b) { a.x -= b.x - 100.0f; a.y -= b.y; return a; }
__global__ void k(float3* t, float2* d) {
    t[0] = t[1] - t[2];
    d[0] = d[1] - d[2];
}
launch k {
    t = [0, 0, 0, 5, 7, 9, 1, 2, 3];
    d = [0, 0, 5, 7, 1, 2];
    grid = 1; block = 1;
    expect t == [4, 5, 6, 5, 7, 9, 1, 2, 3];
    expect d == [104, 5, 5, 7, 1, 2];
}
"#;
    ok(src, &[], ONE, ONE);
}

/// C++ [over.match.funcs]: a member function's implicit object parameter is `T&`, or `const T&`
/// when it is declared `const`; of two overloads that differ only in that, a `const` object (a
/// `const` local or reference, a `const T&` parameter, `*this` in a `const` member function, an
/// element of a `const T*`, a member of any of these) calls the `const` one, any other object
/// the other. Expected values from g++ on the same code without `__device__` (2 for the
/// non-`const` overload, 1 for the `const` one; `viaThis` is `which() * 10 + this->which()`).
#[test]
fn a_const_object_calls_the_const_overload_and_any_other_the_other() {
    let src = r#"
struct S {
    float e[2];
    __device__ int which() const { return 1; }
    __device__ int which() { return 2; }
    __device__ int viaThis() const { return which() * 10 + this->which(); }
    __device__ int viaThisMut() { return which() * 10 + (*this).which(); }
};
struct Outer { S s; __device__ int inner() const { return s.which(); } };
__device__ int byConst(const S& x) { return x.which(); }
__device__ int byRef(S& x) { return x.which(); }
__device__ int byValue(S x) { return x.which(); }
__global__ void k(const S* in, S* io, int* out) {
    S s;
    s.e[0] = 1.0f; s.e[1] = 2.0f;
    const S c = s;
    const S& r = s;
    Outer o;
    o.s = s;
    out[0] = s.which();
    out[1] = c.which();
    out[2] = r.which();
    out[3] = byConst(s);
    out[4] = byRef(s);
    out[5] = byValue(c);
    out[6] = s.viaThis();
    out[7] = s.viaThisMut();
    out[8] = in[0].which();
    out[9] = io[0].which();
    out[10] = o.inner();
    out[11] = o.s.which();
}
launch k { in = zeros(2); io = zeros(2); out = zeros(12);
  expect out == [2, 1, 1, 1, 2, 2, 11, 22, 1, 2, 1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// A template argument that is a reference to a vector (`float2& yz =
/// *reinterpret_cast<float2*>(&q.z)`) deduces the vector type, not its component: `sa(yz, yz)`
/// with q = {1, 2, 3, 4} has yz = {3, 4}, so a.x + 10 × b.y = 3 + 40 = 43.
#[test]
fn a_reference_to_a_vector_deduces_the_vector_type() {
    let src = r#"
template <typename V> __device__ float sa(const V& a, V b) { return a.x + 10.0f * b.y; }
__global__ void k(float4* in, float* o) {
    float4 q = in[0];
    float2& yz = *reinterpret_cast<float2*>(&q.z);
    o[0] = sa(yz, yz);
}
launch k { in = [1, 2, 3, 4]; o = zeros(1); grid = 1; block = 1; expect o == [43]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// Ray Tracing in One Weekend's `vec3`: `float operator[](int) const` declared before `float&
/// operator[](int)`. `c[0] = sqrt(c[0])` on a non-`const` `vec3` assigns through the second; a
/// `const vec3&` reads through the first. By hand: sqrt(4) = 2, 9 + 1 = 10, 16 / 4 = 4.
#[test]
fn assigning_through_the_non_const_operator_index_of_a_class_with_both() {
    let src = r#"
class vec3 {
public:
    __device__ vec3() {}
    __device__ vec3(float a, float b, float c) { e[0] = a; e[1] = b; e[2] = c; }
    __device__ inline float operator[](int i) const { return e[i]; }
    __device__ inline float& operator[](int i) { return e[i]; };
    float e[3];
};
__device__ float third(const vec3& v) { return v[2]; }
__global__ void k(float* out) {
    vec3 c(4.0f, 9.0f, 16.0f);
    c[0] = sqrt(c[0]);
    c[1] += 1.0f;
    c[2] /= 4.0f;
    out[0] = c[0]; out[1] = c[1]; out[2] = third(c);
}
launch k { out = zeros(3); expect out == [2, 10, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_non_const_reference_takes_only_its_own_type_and_a_half_fits_half_exactly() {
    // sglang's merge_attn_states: `from_float(half&, float)` beside `from_float(float&,
    // float)`; an element of a `half` array binds only the first (C++ [dcl.init.ref]: no
    // conversion binds a non-const reference). `to_float(half)` beside `to_float(float)`: a
    // `half` argument fits its own type exactly, better than the `float` its conversion gives.
    let src = r#"
#include <cuda_fp16.h>
__device__ void from_float(float& d, float s) { d = s + 100.0f; }
__device__ void from_float(half& d, float s) { d = __float2half(s); }
__device__ float to_float(float u) { return u + 1000.0f; }
__device__ float to_float(half u) { return __half2float(u); }
__global__ void k(half* h, float* f) {
    int t = threadIdx.x;
    from_float(h[t], 2.0f * t);
    from_float(f[t], to_float(h[t]) + to_float(f[t]));
}
launch k {
    h = zeros(4);
    f = zeros(4);
    expect h == [0, 2, 4, 6];
    expect f == [1100, 1102, 1104, 1106];
}
"#;
    // h[t] = 2t through the half overload; f[t] = to_float(h[t]) = 2t, plus to_float(0.0f) =
    // 1000, then the float overload adds 100: 2t + 1100.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_reference_to_an_array_deduces_its_size() {
    // CUB's histogram example: `template <int NUM_BINS, int ACTIVE_CHANNELS> void
    // DecodePixel(uchar4 pixel, unsigned int (&bins)[ACTIVE_CHANNELS])` called as
    // `DecodePixel<NUM_BINS>(pixel, bins)` with `unsigned int bins[3]`: ACTIVE_CHANNELS = 3.
    let src = r#"
template <int SCALE, int N>
__device__ int fill(unsigned int (&a)[N]) {
    for (int i = 0; i < N; ++i) a[i] = SCALE * i;
    return N;
}
template <int N>
__device__ int total(unsigned int (&a)[N]) {
    int s = 0;
    for (int i = 0; i < N; ++i) s += a[i];
    return 100 * N + s;
}
__global__ void k(int* out) {
    unsigned int bins[3];
    __shared__ unsigned int wide[5];
    int n = fill<10>(bins);
    if (threadIdx.x == 0) fill<1>(wide);
    __syncthreads();
    out[0] = n;
    out[1] = total(bins);
    out[2] = total(wide);
}
launch k {
    out = zeros(3);
    expect out == [3, 330, 510];
}
"#;
    // bins = 0, 10, 20 (N = 3): 100·3 + 30 = 330; wide = 0..4 (N = 5): 100·5 + 10 = 510.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_pointer_to_another_type_makes_an_overload_not_viable() {
    // Paddle's phi::CudaAtomicAdd overloads for float*, int* and double*, called as
    // CudaAtomicAdd(&out[i], 1) on a double buffer: the int argument fits `int val` exactly
    // and `double val` by conversion, but a double* converts to no float* or int*, so only
    // the double overload is viable (C++ [conv.ptr]).
    let src = r#"
__device__ __forceinline__ float CudaAtomicAdd(float* address, const float val) { return atomicAdd(address, val + 100.0f); }
__device__ __forceinline__ int CudaAtomicAdd(int* address, const int val) { return atomicAdd(address, val + 1000); }
__device__ __forceinline__ double CudaAtomicAdd(double* address, const double val) { return atomicAdd(address, val); }
__global__ void k(double* out, int* n) { CudaAtomicAdd(&out[0], 1); CudaAtomicAdd(&n[0], 1); }
launch k { out = zeros(1); n = zeros(1); expect out == 4; expect n == 4004; }
"#;
    // Four threads: out gets 1 each (the double overload); n gets 1 + 1000 each.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn static_member_overloads_by_count_and_type_and_through_a_namespace() {
    // DGL's reducers: `static Call(out, arg_u, arg_e, val, uid, eid)` beside `static Call(out,
    // arg, val, id)`, called with four arguments; `Pick(int)` beside `Pick(float)`; and
    // `ns::Add::Call` of a class in a namespace.
    let src = r#"
namespace ns {
struct Add { static __device__ int Call(int a, int b) { return a + b; } };
}
struct S {
    static __device__ void Call(float* out, int* au, int* ae, float v, int u, int e) { *out += v; }
    static __device__ void Call(float* out, int* a, float v, int id) { *out += 2 * v; }
    static __device__ int Pick(int x) { return 1; }
    static __device__ int Pick(float x) { return 2; }
};
__global__ void k(float* out) {
    float acc = 0.f; int arg = -1;
    S::Call(&acc, &arg, 1.5f, 0);
    out[0] = acc;
    out[1] = S::Pick(3) * 10 + S::Pick(3.0f);
    out[2] = ns::Add::Call(4, 1);
}
launch k { out = zeros(3); expect out == [3, 12, 5]; }
"#;
    // The four-argument Call adds 2 * 1.5 = 3; Pick(3) is the int one (1), Pick(3.0f) the
    // float one (2): 12; 4 + 1 = 5.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_files_atomic_overload_leaves_other_types_to_cudas() {
    // torch-ngp's gridencoder: `atomicAdd(__half*, __half)` defined for old architectures
    // beside `atomicAdd(float*, float)` calls. The file's overload fits only `__half*`; the
    // float calls are CUDA's: 32 threads add 1 → 32. Its own type still calls the file's
    // (which here returns without adding: h stays 0).
    let src = r#"
#include <cuda_fp16.h>
__device__ inline __half atomicAdd(__half* address, __half val) { return val; }
__global__ void k(float* out, __half* h) {
    atomicAdd(&out[0], 1.0f);
    atomicAdd(&h[0], __float2half(1.0f));
}
launch k { out = zeros(1); h = zeros(1); block = 32; grid = 1; expect out == 32; expect h == 0; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn member_operators_and_methods_are_chosen_by_their_arguments_scalar_types() {
    // Overloads of one arity that differ only in `int` vs `float`: C++ picks the exact match
    // ([over.ics.rank]), never the first declared. Each overload returns or adds its own
    // marker, so a wrong choice changes the result.
    let src = r#"
struct P { float v; };
struct S {
    float v;
    __device__ S& operator+=(int x) { v += 1.0f; return *this; }
    __device__ S& operator+=(float x) { v += 20.0f; return *this; }
    __device__ float operator[](int i) const { return 3.0f; }
    __device__ float operator[](float f) const { return 40.0f; }
    __device__ P at(int i) const { P p; p.v = 5.0f; return p; }
    __device__ P at(float f) const { P p; p.v = 60.0f; return p; }
    __device__ P operator*(int k) const { P p; p.v = 7.0f; return p; }
    __device__ P operator*(float k) const { P p; p.v = 80.0f; return p; }
};
__global__ void k(float* out) {
    S s; s.v = 0.0f;
    s += 1;
    out[0] = s.v;
    s += 1.0f;
    out[1] = s.v;
    out[2] = s[1];
    out[3] = s[1.0f];
    out[4] = s.at(1).v;
    out[5] = s.at(1.0f).v;
    out[6] = (s * 2).v;
    out[7] = (s * 2.0f).v;
}
launch k {
    out = zeros(8);
    expect out == [1, 21, 3, 40, 5, 60, 7, 80];
}
"#;
    // By hand: 0 + 1 = 1 (`+=(int)`), then 1 + 20 = 21 (`+=(float)`); the rest are each
    // overload's marker.
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_function_objects_overloads_are_chosen_by_their_arguments() {
    // A struct without data members (a functor): `f(int)` / `f(float)` and `operator()(int)` /
    // `operator()(float)`, each returning its own marker.
    let src = r#"
struct A {
    __device__ float f(int x) { return 6.0f; }
    __device__ float f(float x) { return 100.0f; }
    __device__ float operator()(int x) { return 1.0f; }
    __device__ float operator()(float x) { return 2.0f; }
};
__global__ void k(float* out) { A a; out[0] = a.f(1); out[1] = a.f(1.0f); out[2] = a(1); out[3] = a(1.0f); }
launch k { out = zeros(4); expect out == [6, 100, 1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_sequences_arrays_count_as_set_when_an_overload_is_chosen() {
    // The sequence sets `a`, its launch `n`: both parameters of k(int, float*), which sets a to
    // ones; k(int) (ran before: a stayed zeros) takes fewer of them.
    let src = r#"
__global__ void k(int n, float* a) { int i = threadIdx.x; if (i < n) a[i] = 1.0f; }
__global__ void k(int n) { }
sequence {
    a = zeros(4);
    launch k { n = 4; grid = 1; block = 4; }
    expect a == [1, 1, 1, 1];
}
"#;
    let dir = std::env::temp_dir().join(format!("simt-seq-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("seq.sk");
    std::fs::write(&path, src).expect("write");
    let (code, out, errs) = simt(&["test", "--jobs", "1", path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{errs}");
    assert!(out.contains("ok      sequence (k(int,float*))"), "{out}");
}

#[test]
fn an_element_or_member_binds_a_non_const_reference_first() {
    // An array element and a struct member are lvalues: g(float&) beats g(const float&) for
    // them as for a variable, and increments them: a[1] = 1, s.x = 4, their sum 5.
    let src = r#"
struct S { float x; };
__device__ float g(float& v) { v += 1; return 1.0f; }
__device__ float g(const float& v) { return 2.0f; }
__global__ void k(float* out) {
    float a[2] = {0, 0};
    S s; s.x = 3;
    out[0] = g(a[1]);
    out[1] = g(s.x);
    out[2] = a[1] + s.x;
}
launch k { out = zeros(3); expect out == [1, 1, 5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_number_converts_to_float_before_half() {
    // `__half` is a class: int -> float and double -> float are standard conversions, better
    // than the converting constructor to `__half`; a `__half` takes g(__half) exactly.
    let src = r#"
#include <cuda_fp16.h>
__device__ float g(float v) { return 1.0f; }
__device__ float g(__half v) { return 2.0f; }
__global__ void k(float* out) {
    int i = threadIdx.x + 3;
    out[0] = g(i);
    out[1] = g(1.0);
    out[2] = g(__float2half(1.0f));
}
launch k { out = zeros(3); expect out == [1, 1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn templates_on_a_pointer_and_a_pointer_to_const_take_their_own() {
    // g(T*) takes a plain pointer exactly, g(const T*) by adding const; for a pointer to
    // const, partial ordering prefers g(const T*). A temporary (v + 1) binds only
    // `const T&`, a variable `T&` first.
    let src = r#"
template <typename T> __device__ float g(T* p) { return 1.0f; }
template <typename T> __device__ float g(const T* p) { return 2.0f; }
template <typename T> __device__ float h(T& x) { return 1.0f; }
template <typename T> __device__ float h(const T& x) { return 2.0f; }
__global__ void k(float* out, const float* in) {
    float v = 1;
    out[0] = g(out);
    out[1] = g(in);
    out[2] = h(v);
    out[3] = h(v + 1);
}
launch k { out = zeros(4); in = zeros(2); expect out == [1, 2, 1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_calls_result_binds_only_a_const_reference() {
    // make_float4(...) and make(1), returned by value, are temporaries: g(const T&) takes
    // them (2); variables and elements take g(T&) (1).
    let src = r#"
struct P { float x; };
__device__ P make(int v) { P p; p.x = v; return p; }
__device__ float g(float4& v) { return 1.0f; }
__device__ float g(const float4& v) { return 2.0f; }
__device__ float g(P& x) { return 1.0f; }
__device__ float g(const P& x) { return 2.0f; }
__global__ void k(float* out) {
    float4 v = make_float4(0, 0, 0, 0);
    P ps[2];
    out[0] = g(v);
    out[1] = g(make_float4(1, 2, 3, 4));
    out[2] = g(ps[1]);
    out[3] = g(make(1));
}
launch k { out = zeros(4); expect out == [1, 2, 1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_template_the_call_cannot_bind_is_not_a_candidate() {
    // TurboTransformers declares `template <typename Type, Type t, int N> blockReduce` (never
    // defined) beside `template <ReduceType R, int N> blockReduce`. `blockReduce<kSum, 2>(v)`
    // leaves the first's N neither given nor deducible from `float* v`, so C++ drops it and
    // calls the second, which adds 2 to each element.
    let src = r#"
namespace types { enum class ReduceType { kMax = 0, kSum }; }
using ReduceType = types::ReduceType;
template <typename Type, Type t, int NumElem>
__device__ void blockReduce(float* v);
template <ReduceType R, int N>
__device__ void g(float* v);
template <>
__device__ void g<ReduceType::kSum, 2>(float* v) { v[threadIdx.x] += 2; }
template <ReduceType R, int N>
__device__ void blockReduce(float* v) { g<R, N>(v); }
__global__ void k(float* v) { blockReduce<ReduceType::kSum, 2>(v); }
launch k { v = zeros(4); expect v == 2; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn a_pointer_argument_deduces_the_template_parameter_it_points_to() {
    // OpenPose's bicubicInterpolate: `f(const T* p, T x)` and `f(const unsigned char* p, T x)`
    // called with an `unsigned char*` and a float. The first would need T = unsigned char
    // (from p) and T = float (from x), so only the second fits: 3 · 2 = 6, not 3 + 2.
    let src = r#"
template <typename T> __device__ T pick(const T* p, const T x) { return p[0] + x; }
template <typename T> __device__ T pick(const unsigned char* p, const T x) { return T(p[0]) * x; }
__global__ void k(float* out, const unsigned char* src, const float* f) {
  out[0] = pick(src, 2.0f);
  out[1] = pick(f, 2.0f);
}
launch k { out = zeros(2); src = [3]; f = [3]; expect out == [6, 5]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_pointer_to_a_struct_deduces_the_struct_not_its_scalars() {
    // `struct V { float v; }` has float's shape, but `V*` converts to no `float*`, and `T*`
    // given a `V*` deduces T = V: of `pick(const T*, T)` and `pick(const float*, T)` only the
    // first fits, giving vs[0].v + a.v = 3 + 4 (g++ prints 7).
    let src = r#"
struct V { float v; };
template <typename T> __device__ float pick(const T* p, const T x) { return p[0].v + x.v; }
template <typename T> __device__ float pick(const float* p, const T x) { return 100; }
__global__ void k(float* out, const V* vs) { V a = vs[1]; out[0] = pick(vs, a); }
launch k { out = zeros(1); vs = [3, 4]; expect out == [7]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_template_parameter_with_a_default_or_deduced_from_an_extent_stays_bindable() {
    // `scale<2>(v)` with `template <int K, typename T = float> scale(float*)` beside an
    // undefined `template <int K, int M> scale(float*)` (M neither given nor deducible: not
    // a candidate): T takes its default, so v[t] = 2·t. `sum(a)` deduces N = 3 from
    // `float (&a)[N]`, beside `template <int N, int M> sum(const float*)`, which cannot bind
    // M: 1 + 2 + 3 = 6 is added.
    let src = r#"
template <int K, int M> __device__ void scale(float* v);
template <int K, typename T = float> __device__ void scale(float* v) { v[threadIdx.x] *= T(K); }
template <int N, int M> __device__ float sum(const float* a);
template <int N> __device__ float sum(float (&a)[N]) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; return s; }
__global__ void k(float* v) {
    scale<2>(v);
    float a[3] = {1, 2, 3};
    v[threadIdx.x] += sum(a);
}
launch k { v = arange(4); expect v == 2 * arange(4) + 6; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn a_call_returns_a_pointer_where_the_overload_it_calls_does() {
    // Anime4KCPP's overloads by argument count: `f(a)` calls `float* f(float*)`, not the first
    // declared `void f(float*, const float*)` ("expected a pointer, found `long long`"), and
    // `pick(a)` the one-argument `pick` ("takes 2 argument(s)"). a = [0, 9, 7].
    let src = r#"
__device__ void f(float* dst, const float* src) { dst[0] = src[0]; }
__device__ float* f(float* src) { return src + 1; }
__device__ float* pick(float* a, int i) { return a + i; }
__device__ float* pick(float* a) { return a + 2; }
__global__ void k(float* a) {
    float* p = f(a);
    *p = 9.0f;
    float* q = pick(a);
    *q = 7.0f;
}
launch k { a = zeros(3); expect a == [0, 9, 7]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_vector_member_of_a_struct_in_memory_chooses_the_vector_operator() {
    // helper_math.h's `float4 - float` for `nodes[1].a - 2.0f` (the `float2` overload was
    // taken): (0 - 2) / 2 = -1 in every component.
    let src = r#"
#include "helper_math.h"
struct N { float4 a; float4 b; };
__global__ void k(const N* nodes, float4* out) {
    out[0] = (nodes[1].a - 2.0f) / 2.0f;
}
launch k { nodes = zeros(16); out = zeros(4); expect out == [-1, -1, -1, -1]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// ABACUS's `veff_pw` overloads take `thrust::complex<T>*`: overloads of a kernel template
/// whose parameter types name another template are chosen like the rest, each instance named
/// by its signature (whose `<` inside the parentheses is not the instance's). The first
/// section sets `out1` and runs the overload that has it, scaling both arrays by `in`; the
/// second scales `out` only. A plain overload of a template type is named alike.
#[test]
fn kernel_overloads_whose_parameters_name_templates_are_chosen_too() {
    let src = r#"
#include <thrust/complex.h>
template <typename T> struct Box { T v; };
template <typename T>
__global__ void k(const int n, thrust::complex<T>* out, const T* in) {
    int i = threadIdx.x;
    if (i < n) out[i] *= in[i];
}
template <typename T>
__global__ void k(const int n, thrust::complex<T>* out, thrust::complex<T>* out1, const T* in) {
    int i = threadIdx.x;
    if (i < n) { out[i] *= in[i]; out1[i] *= in[i] + 1; }
}
__global__ void p(Box<float>* b) { b[threadIdx.x].v += 1; }
__global__ void p(float* b) { b[threadIdx.x] += 2; }
launch k<double> { n = 2; out = [1, 1, 2, 2]; out1 = [1, 0, 1, 0]; in = [3, 4];
    block = 2; grid = 1; expect out == [3, 3, 8, 8]; expect out1 == [4, 0, 5, 0]; }
launch k<float> { n = 2; out = [1, 1, 2, 2]; in = [3, 4];
    block = 2; grid = 1; expect out == [3, 3, 8, 8]; }
launch p(float*) { b = [1, 2]; block = 2; grid = 1; expect b == [3, 4]; }
launch p(Box<float>*) { b = [1, 2]; block = 2; grid = 1; expect b == [2, 3]; }
"#;
    let dir = std::env::temp_dir().join(format!("simt-complex-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("k.sk");
    std::fs::write(&path, src).expect("write");
    let (code, out, errs) = simt(&["test", "--jobs", "1", path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{errs}");
    for name in [
        "k<double>(const int,complex<T>*,complex<T>*,const T*)",
        "k<float>(const int,complex<T>*,const T*)",
        "p(float*)",
        "p(Box<float>*)",
    ] {
        assert!(out.contains(&format!("ok      {name} ")), "{name}: {out}");
    }
}

/// A file's overloads of CUDA's classification and sincos functions on vectors
/// (libfreenect2's `int3 isnan(float3)` calling `isnan(v.x)`, `sincosf(float3, float3*,
/// float3*)`): the arguments choose between them and CUDA's, as for `expf`. `isnan(v.x)` inside
/// the overload ran the overload again ("a `int3`, not a number"), and a `sincosf` statement
/// never reached the file's. a = (1, NaN, 2): r = (0, -1, 0); sin and cos of (0, 0, 0) are 0
/// and 1.
#[test]
fn a_files_vector_overloads_of_classification_and_sincos_functions() {
    let src = r#"
static inline __device__ int3 isnan(float3 v) {
    return make_int3(isnan(v.x) ? -1 : 0, isnan(v.y) ? -1 : 0, isnan(v.z) ? -1 : 0);
}
static inline __device__ void sincosf(float3 v, float3* a, float3* b) {
    sincosf(v.x, &a->x, &b->x);
    sincosf(v.y, &a->y, &b->y);
    sincosf(v.z, &a->z, &b->z);
}
__global__ void k(const float* a, int* out, float* f) {
    int3 r = isnan(make_float3(a[0], a[1], a[2]));
    out[0] = r.x; out[1] = r.y; out[2] = r.z; out[3] = isnan(a[1]);
    float3 s, c;
    sincosf(make_float3(0.0f, 0.0f, 0.0f), &s, &c);
    f[0] = s.x + s.y + s.z; f[1] = c.x + c.y + c.z;
}
launch k { a = [1.0, nan, 2.0]; out = zeros(4); f = zeros(2); expect out == [0, -1, 0, 1]; expect f == [0, 3]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn cudas_own_math_overloads_compete_with_the_files() {
    // DGL's fp16.cuh declares `half max(half, half)`; `max(float, float)` is CUDA's exact
    // match, so the floats are not rounded to half: max(0.6653866, 0) = 0.6653866 (as half it
    // is 0.66552734). Two halves take the file's overload (exact for it; CUDA's float `max`
    // needs their conversion): max(0.5, 0.25) + 0 = 0.5 via __hgt. A file's `double
    // twice_max(double, double)` named `max` loses to CUDA's `max(int, int)` for ints: the
    // file's would give 100 + 3. A file's function template `max(T, T)` loses a tie to CUDA's
    // function (C++ prefers a function to a template): fmaxf-like max(2, 5) = 5, not 5 + 1000.
    let src = r#"
#include <cuda_fp16.h>
static __device__ __forceinline__ half max(half a, half b) {
  return __hgt(__half(a), __half(b)) ? a : b;
}
__device__ double max(double a, double b) { return 100 + (a > b ? a : b); }
__global__ void k(const float* a, float* out, int* n) {
    out[0] = max(a[0], 0.0f);
    out[1] = __half2float(max(__float2half(0.5f), __float2half(0.25f)));
    n[0] = max(2, 3);
}
launch k { a = [0.6653866171836853]; out = zeros(2); n = zeros(1);
    expect out == [0.6653866171836853, 0.5]; expect n == [3]; }
"#;
    ok(src, &[], ONE, ONE);
    let src = r#"
template <typename T> __device__ T max(T a, T b) { return (a > b ? a : b) + 1000; }
__global__ void k(float* out) { out[0] = max(2.0f, 5.0f); }
launch k { out = zeros(1); expect out == [5]; }
"#;
    ok(src, &[], ONE, ONE);
    // CUDA declares no `max(float, int)` (it would convert the int): the file's template
    // `max(T, U)` is exact and wins, 1000 (g++ with CUDA's overload set agrees). Nor any
    // `abs` of a `short`, `signed char` (promoted: 103, 104, as g++ gives) or `unsigned` (105);
    // `abs(-7)` is CUDA's `abs(int)`: 7. A file's three-argument `max` is the only one of
    // its count: 100 + 1.
    let src = r#"
template <typename T, typename U> __device__ float max(T a, U b) { return 1000.0f; }
template <typename T> __device__ T abs(T a) { return a < 0 ? -a + 100 : a + 100; }
__device__ float max(float a, float b, float c) { return 100.0f + a; }
__global__ void k(float* out, int* n) {
    float f = 1.5f; int i = 2;
    out[0] = max(f, i);
    out[1] = max(1, 2, 3);
    short s = -3; signed char c = -4; unsigned u = 5;
    n[0] = abs(s); n[1] = abs(c); n[2] = abs(u); n[3] = abs(-7);
}
launch k { out = zeros(2); n = zeros(4); expect out == [1000, 101];
    expect n == [103, 104, 105, 7]; }
"#;
    ok(src, &[], ONE, ONE);
}
