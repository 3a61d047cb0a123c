//! Classes of one name in several namespaces: each use runs the class C++ lookup finds.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn each_namespace_runs_its_own_class_template() {
    // `a::S<int>().get()` is 1 and `b::S<int>().get()` is 2; x.get() * 10 + y.get() = 12.
    let src = r#"
namespace a { template <class T> struct S { __device__ T get() { return 1; } }; }
namespace b { template <class T> struct S { __device__ T get() { return 2; } }; }
__global__ void k(int* out) {
    out[0] = a::S<int>().get();
    out[1] = b::S<int>().get();
    a::S<int> x; b::S<int> y;
    out[2] = x.get() * 10 + y.get();
}
launch k { out = zeros(3); expect out == [1, 2, 12]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn every_way_of_naming_a_class_finds_the_one_lookup_finds() {
    // Three classes `S`: the file's (v + 100), a's (v + 1) and b's template (v + 2).
    // out[0]: the file's S{10}.get() = 110. out[1]: inside a, plain `S` is a::S: 11.
    // out[2]: inside b, typedef `SI` is b::S<int>, its get() defined outside the class: 12.
    // out[3]: a::S::K = 5. out[4]: b::S<int>::make() = 7. out[5]: D derives from a::S, so
    // get() = 10 + 1 and twice() = 22. out[6]: a template argument b::S<int>, 20 + 2 = 22.
    // out[7]: a `const a::S*` parameter's in[1] = {3}: 4. out[8]: a::Box<a::S>{{3}}: (3 + 1)
    // * 2 = 8. out[9]: `using b::S;` in a function of namespace c makes `S<int>` b's (it hides
    // the file's `S`): 30 + 2 = 32.
    let src = r#"
struct S { int v; __device__ int get() const { return v + 100; } };
namespace a {
struct S { int v; __device__ int get() const { return v + 1; } static constexpr int K = 5; };
__device__ int use(int x) { S s{x}; return s.get(); }
template <class T> struct Box { T t; __device__ int get() const { return t.get() * 2; } };
}
namespace b {
template <class T> struct S { T v; __device__ T get() const; static __device__ T make() { return 7; } };
typedef S<int> SI;
__device__ int use(int x) { SI s{x}; return s.get(); }
}
template <class T> __device__ T b::S<T>::get() const { return v + 2; }
namespace c {
__device__ int use(int x) { using b::S; S<int> s{x}; return s.get(); }
}
struct D : a::S { __device__ int twice() const { return get() * 2; } };
template <class T> __device__ int call(const T& t) { return t.get(); }
__global__ void k(int* out, const a::S* in) {
    S f{10};
    out[0] = f.get();
    out[1] = a::use(10);
    out[2] = b::use(10);
    out[3] = a::S::K;
    out[4] = b::S<int>::make();
    D d; d.v = 10; out[5] = d.twice();
    out[6] = call<b::S<int>>(b::S<int>{20});
    out[7] = in[1].get();
    a::Box<a::S> bx{{3}}; out[8] = bx.get();
    out[9] = c::use(30);
}
launch k { out = zeros(10); in = [1, 3]; expect out == [110, 11, 12, 5, 7, 22, 22, 4, 8, 32]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn classes_that_read_the_same_stay_one_class() {
    // std::plus and thrust::plus (the built-in headers) and two identical `P`s: 2 + 3 = 5
    // through either, and p.x + q.x = 1 + 2 = 3.
    let src = r#"
#include <functional>
#include <thrust/functional.h>
namespace a { struct P { int x; }; }
namespace b { struct P { int x; }; }
__global__ void k(int* out) {
    out[0] = std::plus<int>()(2, 3);
    out[1] = thrust::plus<int>()(2, 3);
    a::P p{1}; b::P q{2};
    out[2] = p.x + q.x;
}
launch k { out = zeros(3); expect out == [5, 5, 3]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_plain_name_no_namespace_in_scope_declares_is_unknown() {
    // Only a::S and b::S exist: a plain `S` at file scope names neither (g++: "'S' was not
    // declared in this scope"), never whichever was read first.
    let src = r#"
namespace a { struct S { int v; }; }
namespace b { struct S { float v; }; }
__global__ void k(int* out) { S s{1}; out[0] = s.v; }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(
        codes(&f)[0],
        "simt::check::unknown_type",
        "{}",
        common::describe(&f)
    );
}

#[test]
fn classes_that_read_the_same_but_mean_different_things_stay_apart() {
    // Declared alike, their members defined outside: a::S::get is v + 1, b::S::get v + 2 (g++:
    // 11 12). Written alike, their names bound in their namespaces: f() is 1 in a and 2 in b,
    // N is 2 and 5, so sizeof is 8 and 20. Classes nested in each: a::S::Inner 5 + 1, b's 5 + 2.
    let src = r#"
namespace a { struct S { int v; __device__ int get() const; }; }
namespace b { struct S { int v; __device__ int get() const; }; }
__device__ int a::S::get() const { return v + 1; }
__device__ int b::S::get() const { return v + 2; }
namespace a { __device__ int f() { return 1; } const int N = 2; struct T { int arr[N]; __device__ int g() const { return f(); } }; }
namespace b { __device__ int f() { return 2; } const int N = 5; struct T { int arr[N]; __device__ int g() const { return f(); } }; }
namespace a { struct U { struct Inner { int v; __device__ int get() const { return v + 1; } }; }; }
namespace b { struct U { struct Inner { int v; __device__ int get() const { return v + 2; } }; }; }
__global__ void k(int* out) {
    a::S x{10}; b::S y{10}; out[0] = x.get(); out[1] = y.get();
    a::T s; b::T t; out[2] = s.g(); out[3] = t.g(); out[4] = sizeof(a::T); out[5] = sizeof(b::T);
    a::U::Inner i{5}; b::U::Inner j{5}; out[6] = i.get(); out[7] = j.get();
}
launch k { out = zeros(8); expect out == [11, 12, 1, 2, 8, 20, 6, 7]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_base_may_be_named_through_its_namespace_or_its_class() {
    // `: public ns::Base` and `: Outer::Inner` (refused before): d.get() = 5 * 2, + 1 = 11;
    // e.twice() = 7 + 100, + 1 = 108.
    let src = r#"
namespace ns { struct Base { int v; __device__ int get() const { return v * 2; } }; }
struct Outer { struct Inner { int w; __device__ int twice() const { return w + 100; } }; };
struct D : public ns::Base { __device__ int more() const { return get() + 1; } };
struct E : Outer::Inner { __device__ int more() const { return twice() + 1; } };
__global__ void k(int* out) { D d; d.v = 5; E e; e.w = 7; out[0] = d.more(); out[1] = e.more(); }
launch k { out = zeros(2); expect out == [11, 108]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn diagnostics_name_classes_as_the_source_writes_them() {
    // The checker knows b::V as `b__V` and Outer::Inner as `Outer__Inner`; the message, its
    // label, its help and --json all say what the file says.
    let src = r#"
namespace a { struct V { int x; }; }
namespace b { struct V { float y; }; }
struct Outer { struct Inner { int z; }; };
__global__ void k(int* out) {
    b::V v; v.y = 1.0f;
    Outer::Inner w; w.z = 2;
    int q = v;
    int r = w;
    out[threadIdx.x] = q + r;
}
launch k { out = zeros(32); grid = 1; block = 32; }
"#;
    let f = err(src, &[], None, None);
    let shown = simt::render::render(&f);
    assert!(shown.contains("`v` is a `b::V`, not a number"), "{shown}");
    assert!(shown.contains("╰── a `b::V`"), "{shown}");
    assert!(shown.contains("`w` is a `Outer::Inner`"), "{shown}");
    let json = simt::render::failure_json(&f).to_string();
    assert!(json.contains("b::V") && !json.contains("b__V"), "{json}");
    assert!(!json.contains("Outer__Inner"), "{json}");
}
