//! Variadic templates (C++11): type packs deduced from a call's arguments, function parameter
//! packs, pack expansions in calls, `sizeof...`, `std::forward` and alias templates of packs.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn a_pack_is_deduced_from_the_arguments_and_expanded_in_a_call() {
    let src = r#"
__device__ int add3(int a, int b, int c) { return a + 10 * b + 100 * c; }
__device__ float add2(float a, float b) { return a - b; }
template <typename... Args>
__device__ auto forward_all(Args&&... args) -> decltype(add3(std::forward<Args>(args)...)) {
    return add3(std::forward<Args>(args)...);
}
template <typename F, typename... Args>
__device__ float first_then(F f, Args... rest) { return f + add2(rest...); }
template <typename... T>
__device__ int count(T... xs) { return sizeof...(T) * 100 + sizeof...(xs); }
__global__ void k(int* out, float* f) {
    int t = threadIdx.x;
    out[t] = forward_all(t, 2, 3);
    f[t] = first_then(0.5f, 4.0f, 1.0f);
    out[t + 4] = count(1, 2.0f, t);
}
launch k {
    out = zeros(8); f = zeros(4); grid = 1; block = 4;
    expect out == [320, 321, 322, 323, 303, 303, 303, 303];
    expect f == full(4, 3.5);
}
"#;
    // forward_all(t, 2, 3) = t + 20 + 300; first_then(0.5, 4, 1) = 0.5 + (4 - 1) = 3.5;
    // count of three arguments: 3 types · 100 + 3 values = 303.
    ok(src, &[], ONE, b(4));
}

#[test]
fn a_forwarded_variable_is_passed_by_reference() {
    let src = r#"
__device__ void bump(int& x, int by) { x += by; }
template <typename... Args>
__device__ void call_bump(Args&&... args) { bump(std::forward<Args>(args)...); }
__global__ void k(int* out) {
    int v = 5;
    call_bump(v, 7);
    out[threadIdx.x] = v;
}
launch k { out = zeros(2); grid = 1; block = 2; expect out == full(2, 12); }
"#;
    // `v` is a variable: Args = int&, so bump adds 7 to v itself: 12.
    ok(src, &[], ONE, b(2));
}

#[test]
fn an_alias_template_of_a_pack_names_the_instance() {
    let src = r#"
template <typename T, typename U> struct Pair { T a; U b; };
template <typename... T>
using P = Pair<T...>;
__global__ void k(float* out) {
    P<int, float> p;
    p.a = 2;
    p.b = 0.25f;
    out[threadIdx.x] = p.a + p.b;
}
launch k { out = zeros(2); grid = 1; block = 2; expect out == full(2, 2.25); }
"#;
    ok(src, &[], ONE, b(2));
}

#[test]
fn sizeof_pack_of_a_plain_parameter_is_an_error() {
    let src = r#"
template <typename T>
__device__ int f(T v) { return sizeof...(T); }
__global__ void k(int* out) { out[0] = f(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(b(1)));
    assert_eq!(codes(&e), ["simt::check::not_a_pack"]);
}

#[test]
fn a_pack_expands_in_a_braced_initialiser() {
    // Anime4KCPP's `residualArgs{ residualArg... }`: `{ 0.5f, args... }` and `{ (args * 2)...,
    // 1.0f }` were parse errors. With args (1, 2): vals = {0.5, 1, 2}, w = {2, 4, 1}, so thread
    // i gets vals[i] + w[2] = [1.5, 2, 3].
    let src = r#"
template <typename... Args>
__device__ float pick(int i, Args... args)
{
    const float vals[sizeof...(Args) + 1]{ 0.5f, args... };
    float w[] = { (args * 2)..., 1.0f };
    return vals[i] + w[2];
}
__global__ void k(float* out) { out[threadIdx.x] = pick(threadIdx.x, 1.0f, 2.0f); }
launch k { out = zeros(3); expect out == [1.5, 2, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [3, 1, 1]);
    // A struct's `P p{ args... }` and a scalar's `float one{ args... }` of one element: a
    // lone expansion was taken for one value, refused as a pack outside a call. p = {1, 2}
    // from (1, 2); one = 3 from (3): out = [1 + 3, 2 + 3].
    let src = r#"
struct P { float a, b; };
template <typename... Args>
__device__ float pick(int i, Args... args) { P p{ args... }; return i == 0 ? p.a : p.b; }
template <typename... Args>
__device__ float first(Args... args) { float one{ args... }; return one; }
__global__ void k(float* out) { out[threadIdx.x] = pick(threadIdx.x, 1.0f, 2.0f) + first(3.0f); }
launch k { out = zeros(2); expect out == [4, 5]; }
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}
