//! Classes with virtual member functions and single inheritance: a call runs the override of the
//! object's own class, a base class's members come first in the layout after the vtable pointer,
//! and a base constructor runs before the derived one.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// `shape` declares `area` pure and `scale` with a body; `twice` (not virtual) calls both.
const SHAPES: &str = r#"
class shape {
    public:
        __device__ virtual float area() const = 0;
        __device__ virtual float scale() const { return 1.0f; }
        __device__ float twice() const { return 2.0f * area() * scale(); }
        __device__ virtual ~shape() {}
};
class square : public shape {
    public:
        __device__ square(float s) : side(s) {}
        __device__ virtual float area() const { return side * side; }
        float side;
};
class circle : public shape {
    public:
        __device__ circle(float r) { radius = r; }
        __device__ float area() const override;
        __device__ float scale() const override { return 10.0f; }
        float radius;
};
__device__ float circle::area() const { return 3.0f * radius * radius; }
__device__ float measure(const shape& s) { return s.area() + s.twice(); }
"#;

#[test]
fn a_call_through_a_base_reference_runs_the_override_of_the_objects_class() {
    let src = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(float* out) {
    int t = threadIdx.x;
    square q(t);
    circle c(t);
    out[t] = measure(q);
    out[t + 4] = measure(c);
}
launch k {
    out = zeros(8);
    // square: area t², scale 1 (shape's): t² + 2·t²·1 = 3t² = 0, 3, 12, 27.
    // circle: area 3t², scale 10 (its own): 3t² + 2·3t²·10 = 63t² = 0, 63, 252, 567.
    expect out == [0, 3, 12, 27, 0, 63, 252, 567];
}
"#
    );
    ok(&src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_polymorphic_class_starts_with_an_eight_byte_vtable_pointer() {
    let src = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(unsigned long long* sizes) {
    circle c(1.0f);
    sizes[0] = sizeof(shape);
    sizes[1] = sizeof(square);
    sizes[2] = sizeof(circle);
    sizes[3] = c.__vptr;
}
launch k {
    sizes = zeros(4);
    // shape: the pointer alone, 8. square: pointer 8 + float 4 = 12, rounded up to the
    // pointer's alignment 8: 16 (gcc on x86-64 says the same of these classes). circle: 16.
    // The pointer holds the class's number, its place among the file's classes from 1:
    // shape 1, square 2, circle 3.
    expect sizes == [8, 16, 16, 3];
}
"#
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_call_whose_class_is_known_costs_what_the_overrides_body_costs() {
    // nvcc inlines a call on an object whose class it knows and makes no vtable lookup: the
    // call through `const shape&` must count exactly as the override called by name.
    let through = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(float* out) {
    circle c(threadIdx.x);
    out[threadIdx.x] = measure(c);
}
launch k { out = zeros(32); }
"#
    );
    let direct = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(float* out) {
    circle c(threadIdx.x);
    out[threadIdx.x] = c.area() + 2.0f * c.area() * c.scale();
}
launch k { out = zeros(32); }
"#
    );
    let a = ok(&through, &[], ONE, [32, 1, 1]).counters;
    let b = ok(&direct, &[], ONE, [32, 1, 1]).counters;
    assert_eq!(a.warp_instr, b.warp_instr);
    assert_eq!((a.gld_instr, a.gst_instr), (0, 1));
}

#[test]
fn a_base_constructor_runs_before_the_derived_class_own() {
    let src = r#"
struct counter {
    __device__ counter() { n = 5; }
    int n;
};
struct tally : public counter {
    __device__ tally(int k) : counter(), m(k) { n += 1; }
    int m;
};
struct plain : public counter { int z; };
__global__ void k(int* out) {
    tally t(7);
    plain p;
    out[0] = t.n;
    out[1] = t.m;
    out[2] = p.n;
    out[3] = sizeof(tally);
}
launch k {
    out = zeros(4);
    // tally: counter() sets n = 5, then m = 7, then its body n += 1: 6. plain has no
    // constructor of its own: the implicit one runs counter(): 5. tally: n, m, 8 bytes
    // (no virtual members, no vtable pointer).
    expect out == [6, 7, 5, 8];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn an_object_of_an_abstract_class_is_refused() {
    let src = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(float* out) {
    shape s;
    out[0] = 1.0f;
}
launch k { out = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::abstract_class");
}

#[test]
fn a_class_with_virtual_members_takes_no_brace_list() {
    let src = format!(
        "{SHAPES}{}",
        r#"
class unit : public shape {
    public:
        __device__ float area() const override { return a; }
        float a;
};
__global__ void k(float* out) {
    unit u = {2.0f};
    out[0] = u.area();
}
launch k { out = zeros(1); }
"#
    );
    // C++ [dcl.init.aggr]: a class with virtual functions is no aggregate, and `unit` has
    // only its implicit default and copy constructors.
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::argument_count");
}

#[test]
fn a_kernel_parameter_of_a_class_with_virtual_members_is_refused() {
    let src = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(square s, float* out) { out[0] = s.area(); }
launch k { out = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
}

#[test]
fn classes_are_laid_out_as_gcc_lays_them_out() {
    let src = r#"
struct counted { __device__ counted() { calls = 0; } int calls; };
class shape : public counted { public: __device__ virtual float area() const = 0; };
class square : public shape {
    public:
        __device__ float area() const override { return side; }
        float side;
};
struct vec3 { float e[3]; };
class hitable { public: __device__ virtual bool hit() const = 0; };
class sphere : public hitable {
    public:
        __device__ bool hit() const override { return true; }
        vec3 center;
        float radius;
};
__global__ void k(unsigned long long* sizes) {
    square q;
    q.side = 2.0f;
    sizes[0] = sizeof(shape);
    sizes[1] = sizeof(square);
    sizes[2] = sizeof(sphere);
    sizes[3] = q.calls;
}
launch k {
    sizes = zeros(4);
    // g++ -m64 (x86-64, the Itanium ABI nvcc follows) prints sizeof 16, 16 and 24, and
    // offsetof(square, side) 12: shape is its vtable pointer (8), then counted's `calls` at 8,
    // 4 bytes of tail padding; square, whose base is no POD, puts `side` in that padding, at
    // 12. sphere: pointer 8 + vec3 12 + float 4. The implicit constructor of square runs
    // counted(): calls = 0.
    expect sizes == [16, 16, 24, 0];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn lanes_calling_the_overrides_of_two_classes_diverge_at_the_branch_that_picks_the_object() {
    let src = format!(
        "{SHAPES}{}",
        r#"
__global__ void k(float* out) {
    int t = threadIdx.x;
    square q(t);
    circle c(t);
    if (t % 2 == 0) {
        out[t] = measure(q);
    } else {
        out[t] = measure(c);
    }
}
launch k { out = zeros(32); expect out[2] == 12; expect out[3] == 567; }
"#
    );
    let c = ok(&src, &[], ONE, [32, 1, 1]).counters;
    // One warp: the even lanes take the square's path and the odd ones the circle's, so the
    // `if` is one divergent branch; `measure` and the overrides it inlines branch nowhere.
    // (t = 2: 3·2² = 12; t = 3: 63·3² = 567, as above.)
    assert_eq!((c.branches, c.divergent), (1, 1));
    // Each half stores its 16 results once: two store instructions.
    assert_eq!(c.gst_instr, 2);
}

#[test]
fn a_class_refused_for_its_virtual_members_keeps_its_constants_and_enumerators() {
    // paracrypt's `BlockCipher`: host code full of virtual members, whose nested `Mode` enum
    // and constants the kernels read (`BlockCipher::CTR`). m = 3 is CTR, so out = K = 4.
    let src = r#"
namespace ns {
    class Cipher {
      public:
        virtual ~Cipher();
        virtual int f(int x) = 0;
        typedef enum Mode { ECB = 0, CTR = 3 } Mode;
        static const int K = 4;
    };
}
__global__ void k(const ns::Cipher::Mode m, int* out) {
    out[threadIdx.x] = (m == ns::Cipher::CTR) ? ns::Cipher::K : 2;
}
launch k { m = 3; out = zeros(4); expect out == 4; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
    // Used as a value, it is still refused at the virtual member.
    let text = src.replace(
        "out[threadIdx.x] = (m",
        "ns::Cipher c; out[threadIdx.x] = (m",
    );
    let f = err(&text, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(
        codes(&f)[0],
        "simt::check::unsupported",
        "{}",
        common::describe(&f)
    );
}
