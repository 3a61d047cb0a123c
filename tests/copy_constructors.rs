//! Copy constructors written for a class run where C++ copies an object: `V b = a;`, `V c(b);`,
//! by-value arguments, returned parameters, braced lists, arrays, members and bases; a returned
//! local is built in place (the named return value optimisation g++ and nvcc apply).

use crate::common;
use common::{err, ok};

/// `expect out[k] == v;` for every thread's `per_thread` values.
fn expects(per_thread: &[f64], threads: usize) -> String {
    (0..threads)
        .flat_map(|t| {
            per_thread
                .iter()
                .enumerate()
                .map(move |(j, v)| format!("expect out[{}] == {v};", t * per_thread.len() + j))
        })
        .collect::<Vec<_>>()
        .join("\n    ")
}

#[test]
fn every_copy_of_an_object_runs_its_copy_constructor() {
    // `Acc(const Acc& o)` doubles `v` and adds 10 to `n`; `Acc(x)` is (x, 1). Values of
    // `v + n` (g++ 12 prints the same for this program compiled as C++):
    // - `b = a`: (2, 11) → 13; `c(b)`: (4, 21) → 25; `take(a)`: the parameter is (2, 11) → 13;
    // - `local_ret()`: `r` is built in the result, no copy: (3, 1) → 4;
    // - `param_ret(a)`: the parameter (2, 11), copied again on return: (4, 21) → 25;
    // - `temp_ret()`: a prvalue, no copy: (5, 1) → 6;
    // - `Box b{a, 1}` copies `a` into `b.a` (2, 11); `Box c = b` copies `b.a` by `Acc`'s
    //   copy constructor: (4, 21) → 25;
    // - `Acc arr[2] = {a, a}`: each (2, 11) → 13;
    // - `q = a` assigns (the implicit copy assignment): (1, 1) → 2.
    let src = r#"
struct Acc {
    float v;
    int n;
    __device__ Acc(float x) : v(x), n(1) {}
    __device__ Acc(const Acc& o) : v(o.v * 2.0f), n(o.n + 10) {}
};

__device__ float take(Acc a) { return a.v + a.n; }
__device__ Acc local_ret() { Acc r(3.0f); return r; }
__device__ Acc param_ret(Acc p) { return p; }
__device__ Acc temp_ret() { return Acc(5.0f); }

struct Box { Acc a; int k; };

__global__ void k(float* out) {
    int i = threadIdx.x;
    Acc a(1.0f);
    Acc b = a;
    Acc c(b);
    Acc r = local_ret();
    Acc p = param_ret(a);
    Acc t = temp_ret();
    Box x{a, 1};
    Box y = x;
    Acc arr[2] = {a, a};
    Acc q(0.0f);
    q = a;
    float got[9] = {b.v + b.n, c.v + c.n, take(a), r.v + r.n, p.v + p.n, t.v + t.n,
                    y.a.v + y.a.n, arr[1].v + arr[1].n, q.v + q.n};
    for (int j = 0; j < 9; j++) out[i * 9 + j] = got[j];
}

launch k {
    out = zeros(288);
    grid = 1; block = 32;
    EXPECTS
}
"#;
    let src = src.replace(
        "EXPECTS",
        &expects(&[13., 25., 13., 4., 25., 6., 25., 13., 2.], 32),
    );
    ok(&src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn members_bases_templates_and_shared_objects_are_copied_by_their_class() {
    // `Acc<T>(const Acc<T>& o)` gives (o.v + 1, 3 o.n); `Base(const Base& o)` gives
    // (10 o.v, o.n). Values (g++ 12 prints the same):
    // - from shared `s[i+1]` = (2, 1): (3, 3) → 6;
    // - `sum(p)` copies `p`, each element of its `Acc<float> a[2]` by the constructor:
    //   (2, 3) and (5, 3) plus w 0.5 → 13.5;
    // - `Derived e = d` copies the `Base` part by its constructor: (70, 2), extra 1 → 73;
    // - from `const Acc<float>& r = s[i]` = (2, 1): (3, 3) → 6.
    let src = r#"
template <typename T>
struct Acc {
    T v;
    int n;
    __device__ Acc() : v(0), n(0) {}
    __device__ Acc(T x) : v(x), n(1) {}
    __device__ Acc(const Acc<T>& o) { v = o.v + 1; n = o.n * 3; }
};

struct Pair { Acc<float> a[2]; float w; };
struct Base { float v; int n; __device__ Base() {} __device__ Base(const Base& o) : v(o.v * 10), n(o.n) {} };
struct Derived : Base { float extra; };

__device__ float sum(Pair p) { return p.a[0].v + p.a[0].n + p.a[1].v + p.a[1].n + p.w; }

__global__ void k(float* out) {
    int i = threadIdx.x;
    __shared__ Acc<float> s[32];
    s[i] = Acc<float>(2.0f);
    __syncthreads();
    Acc<float> fromShared = s[(i + 1) % 32];
    Pair p;
    p.a[0] = Acc<float>(1.0f);
    p.a[1] = Acc<float>(4.0f);
    p.w = 0.5f;
    Derived d;
    d.v = 7.0f; d.n = 2; d.extra = 1.0f;
    Derived e = d;
    const Acc<float>& r = s[i];
    Acc<float> c = r;
    out[i * 4 + 0] = fromShared.v + fromShared.n;
    out[i * 4 + 1] = sum(p);
    out[i * 4 + 2] = e.v + e.n + e.extra;
    out[i * 4 + 3] = c.v + c.n;
}

launch k {
    out = zeros(128);
    grid = 1; block = 32;
    EXPECTS
}
"#;
    let src = src.replace("EXPECTS", &expects(&[6., 13.5, 73., 6.], 32));
    ok(&src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn a_base_copied_through_its_members_and_a_polymorphic_derived_class() {
    // `Base` has no copy constructor of its own; its member `a` has one (v + 1): copying a
    // `Derived` copies `a` by it: 1 + 1 + extra 2 → 4.
    let src = r#"
struct Acc { float v; __device__ Acc() {} __device__ Acc(const Acc& o) : v(o.v + 1) {} };
struct Base { Acc a; };
struct Derived : Base { float extra; };
__global__ void k(float* out) {
    Derived d;
    d.a.v = 1.0f; d.extra = 2.0f;
    Derived e = d;
    out[threadIdx.x] = e.a.v + e.extra;
}
launch k { out = zeros(32); grid = 1; block = 32; expect out == 4; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    // A class with virtual members starts with its vtable pointer, where the base's copy
    // constructor would write the base's members: refused, not copied wrongly.
    let src = r#"
struct Base { float v; __device__ Base() {} __device__ Base(const Base& o) : v(o.v * 2) {} };
struct Derived : Base { float extra; __device__ virtual float get() const { return v + extra; } };
__global__ void k(float* out) {
    Derived d;
    d.v = 1.0f; d.extra = 2.0f;
    Derived e = d;
    out[threadIdx.x] = e.get();
}
launch k { out = zeros(32); grid = 1; block = 32; }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([32, 1, 1]));
    assert_eq!(common::codes(&f), ["simt::check::unsupported"]);
    assert!(common::describe(&f).contains("whose base class `Base` has a copy constructor"));
}

#[test]
fn copies_that_review_found_wrong() {
    // `Acc(const Acc& o)` doubles `v`; `A(A&&)` adds 1000; values as g++ 12 gives them:
    // - `Box y = *p++;` reads `*p` once: `p` moves by one, `y.a` (2 * 100 = 200) and `y.k`
    //   (1) both from element 0 → 201;
    // - a move constructor declared first is not the copy constructor: `B b = a` → 2 * 3 = 6;
    // - slicing `Base s = d;` runs `Base`'s copy constructor, not `D`'s: 2 * 5 = 10;
    // - `: a(p)` of a constructor copies `p` by `Acc`'s copy constructor: 2 * 1 = 2, never by
    //   its `operator=` (+100);
    // - `D3 e = d3;` of `D3 : M : Base` runs the grandparent's copy constructor: 2 * 7 = 14;
    // - `return r;` of a reference local copies: 2 * 4 = 8; two locals returned: 2 * 2 = 4.
    let src = r#"
struct Acc {
    int v;
    __device__ Acc() : v(0) {}
    __device__ Acc(int x) : v(x) {}
    __device__ Acc(const Acc& o) : v(o.v * 2) {}
    __device__ Acc& operator=(const Acc& o) { v = o.v + 100; return *this; }
};
struct Box { Acc a; int k; };
struct B { int v; __device__ B(int x) : v(x) {} __device__ B(B&& o) : v(o.v + 1000) {} __device__ B(const B& o) : v(o.v * 2) {} };
struct Base { int v; __device__ Base() {} __device__ Base(const Base& o) : v(o.v * 2) {} };
struct D : Base { int w; __device__ D() {} __device__ D(const D& o) : w(o.w + 1000) { v = o.v + 1000; } };
struct M : Base { int m; };
struct D3 : M { int z; };
struct Holder { Acc a; __device__ Holder(const Acc& p) : a(p) {} };
__device__ Acc by_ref(Acc& a) { Acc& r = a; return r; }
__device__ Acc two(bool c) { Acc a(1); Acc b(2); if (c) return a; return b; }
__global__ void k(int* out) {
    Box arr[2];
    arr[0].a.v = 100; arr[0].k = 1;
    arr[1].a.v = 300; arr[1].k = 3;
    Box* p = arr;
    Box y = *p++;
    out[0] = y.a.v + y.k;
    out[1] = (int)(p - arr);
    B a(3);
    B b = a;
    out[2] = b.v;
    D d;
    d.v = 5; d.w = 0;
    Base s = d;
    out[3] = s.v;
    Holder h(Acc(1));
    out[4] = h.a.v;
    D3 d3;
    d3.v = 7;
    D3 e = d3;
    out[5] = e.v;
    Acc four(4);
    out[6] = by_ref(four).v;
    out[7] = two(false).v;
}
launch k { out = zeros(8); grid = 1; block = 1; expect out == [201, 1, 6, 10, 2, 14, 8, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}
