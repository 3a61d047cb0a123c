//! Base classes initialised with arguments (`: DevPtr<T>(data_arg)`) and class templates derived
//! from a class template's instance, as PCL's `PtrStepSz<T> : PtrStep<T> : DevPtr<T>` are: the
//! base constructor runs first with the arguments, and `DevPtr<T>::data` names the member.

use crate::common;
use common::{codes, describe, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// PCL's kernel_containers.h, cut down: a row-pitched image view two derivations deep.
const PCL: &str = r#"
#include <cstddef>
template <typename T>
struct DevPtr {
  T* data;
  __device__ DevPtr() : data(nullptr) {}
  __device__ DevPtr(T* data_arg) : data(data_arg) {}
};
template <typename T>
struct PtrStep : public DevPtr<T> {
  __device__ PtrStep() : step(0) {}
  __device__ PtrStep(T* data_arg, std::size_t step_arg) : DevPtr<T>(data_arg), step(step_arg) {}
  std::size_t step;
  __device__ T* ptr(int y = 0) { return (T*)((char*)DevPtr<T>::data + y * step); }
};
template <typename T>
struct PtrStepSz : public PtrStep<T> {
  __device__ PtrStepSz(int rows_arg, int cols_arg, T* data_arg, std::size_t step_arg)
      : PtrStep<T>(data_arg, step_arg), cols(cols_arg), rows(rows_arg) {}
  int cols;
  int rows;
  __device__ T* last() {
    return DevPtr<T>::data + (rows - 1) * (PtrStep<T>::step / sizeof(T)) + cols - 1;
  }
};
"#;

#[test]
fn a_base_constructor_with_arguments_runs_first_two_levels_deep() {
    let src = format!(
        "{PCL}{}",
        r#"
struct pair_base {
  int x, y;
  __device__ pair_base(int a, int b) : x(a), y(b) {}
};
struct swapped : public pair_base {
  int z;
  __device__ swapped(int b, int a) : z(x * 10 + y), pair_base(a, b) { z += 100; }
};
__global__ void k(float* buf, float* out) {
  PtrStepSz<float> s(3, 2, buf, 16);
  out[0] = sizeof(PtrStepSz<float>);
  out[1] = s.step;
  out[2] = s.cols;
  out[3] = s.rows;
  out[4] = s.ptr(2)[1];
  out[5] = *s.last();
  out[6] = s.data - buf;
  PtrStep<float> e;
  out[7] = e.step;
  swapped w(3, 4);
  out[8] = w.x;
  out[9] = w.y;
  out[10] = w.z;
  out[11] = sizeof(swapped);
}
launch k {
  buf = arange(12);
  out = zeros(12);
  // The same program built with g++ (x86-64, the Itanium ABI nvcc follows; `__device__`
  // defined away) prints these. By hand: PtrStepSz is data (8) + step (8) + cols, rows (4 + 4)
  // = 24 bytes. PtrStepSz(3, 2, buf, 16) runs PtrStep(buf, 16), which runs DevPtr(buf) first:
  // data = buf, step = 16, cols = 2, rows = 3. ptr(2) is buf + 2 * 16 bytes = &buf[8], so
  // ptr(2)[1] = buf[9] = 9; last() is buf + (3 - 1) * (16 / 4) + 2 - 1 = &buf[9] = 9; data -
  // buf = 0. PtrStep() runs DevPtr() and sets step = 0. swapped(3, 4): b = 3, a = 4, and the
  // base comes first though written last (C++ [class.base.init]/13): pair_base(4, 3) sets
  // x = 4, y = 3, then z = 4 * 10 + 3 = 43, then the body adds 100: 143; 3 ints: 12 bytes.
  expect out == [24, 16, 2, 3, 9, 9, 0, 0, 4, 3, 143, 12];
}
"#
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_base_constructors_arguments_are_read_before_its_parameters_of_the_same_names_exist() {
    let src = r#"
struct base {
  int a, b;
  __device__ base(int a, int b) : a(a), b(b) {}
};
struct derived : public base {
  __device__ derived(int a, int b) : base(b, a) {}
};
__global__ void k(int* out) {
  derived d(1, 2);
  out[0] = d.a;
  out[1] = d.b;
}
launch k {
  out = zeros(2);
  // derived(a = 1, b = 2) calls base(b, a) = base(2, 1), whose parameter `a` is 2 and `b`
  // is 1: d.a = 2, d.b = 1 (a copy that bound base's `a` before reading derived's `b` would
  // give 2, 2).
  expect out == [2, 1];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_kernel_parameter_of_a_derived_class_template_is_set_member_by_member() {
    let src = format!(
        "{PCL}{}",
        r#"
__global__ void k(PtrStep<float> p) {
  p.ptr(threadIdx.y)[threadIdx.x] += 1.0f;
}
launch k {
  p.data = [1, 2, 3, 4, 5, 6, 7, 8]; p.step = 16;
  grid = 1; block = (3, 2);
  // Rows of 16 bytes (4 floats), 3 threads per row, 2 rows: elements 0-2 and 4-6 gain 1,
  // the padding elements 3 and 7 stay.
  expect p.data == [2, 3, 4, 4, 6, 7, 8, 8];
}
"#
    );
    let r = ok(&src, &[], ONE, [3, 2, 1]);
    // One warp of 6 threads: one load and one store of `data[...]`.
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (1, 1));
}

#[test]
fn a_base_named_with_other_arguments_than_the_class_templates_own_is_refused() {
    let src = r#"
template <typename T> struct B { T v; };
template <typename T> struct D : public B<float> { T w; };
__global__ void k(float* out) { D<int> d; d.w = 1; out[0] = d.w; }
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
    assert!(describe(&f).contains("`B<float>`"), "{}", describe(&f));
}

#[test]
fn a_derived_object_given_for_its_base_by_value_is_sliced() {
    // C++ copies the base subobject: f(d) sees a = 1.5, b = 2 (1.5 * 10 + 2 = 17); `B c = d`
    // and `z = d` keep the same two members (3.5); `D m = d` of the middle class keeps c and e
    // (100 + 7). E derives from D, which derives from B, so each is a prefix of E's members.
    let src = r#"
struct B { float a; int b; __device__ float sum() const { return a + b; } };
struct D : B { double c; float e; };
struct E : D { int f; };
__device__ float f(B x) { return x.a * 10 + x.b; }
__global__ void k(float* o) {
    E d; d.a = 1.5f; d.b = 2; d.c = 100.0; d.e = 7.0f; d.f = 9;
    B c = d;
    B z; z.a = 0; z.b = 0;
    z = d;
    D m = d;
    o[0] = f(d); o[1] = c.a + c.b; o[2] = z.sum(); o[3] = m.c + m.e;
}
launch k { o = zeros(4); expect o == [17, 3.5, 3.5, 107]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
    // A polymorphic base is refused: the copy would keep the derived class's virtual members.
    let src = r#"
struct B { __device__ virtual float v() const { return 1.0f; } float a; };
struct D : B { __device__ float v() const override { return 2.0f; } };
__device__ float f(B x) { return x.v(); }
__global__ void k(float* o) { D d; d.a = 0; o[0] = f(d); }
launch k { o = zeros(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::mismatched_types"], "{e:?}");
}

#[test]
fn a_class_derived_from_a_cuda_vector_type_begins_with_its_members() {
    // gnina's `struct gfloat3 : float3` and SOFA's `CudaVec3<float> : public float3`: the
    // vector's members first, its alignment, `: float3(make_float3(x, y, z))` setting them.
    // g = (1, 12, 3) after `g.y += 10`: sum 16, f.y 12, len2 = 1 + 144 + 9 = 154, so 182.
    // sizeof(gfloat3) = 12; `tagged : int2` is 8-aligned, int2 (8) + tag (4) padded to 16;
    // `v4 : float4` is float4's 16 bytes, 16-aligned (as g++ lays out such classes).
    let src = r#"
struct gfloat3 : float3 {
    gfloat3() = default;
    __host__ __device__ inline gfloat3(float x, float y, float z) : float3(make_float3(x, y, z)) {}
    __device__ float sum() const { return x + y + z; }
};
struct __align__(8) tagged : int2 { int tag; };
struct v4 : float4 { };
__device__ float len2(float3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }
__global__ void k(float* o, unsigned long long* sizes) {
    gfloat3 g(1.0f, 2.0f, 3.0f);
    g.y += 10.0f;
    float3 f = g;
    o[0] = g.sum() + f.y + len2(g);
    sizes[0] = sizeof(gfloat3); sizes[1] = alignof(tagged); sizes[2] = sizeof(tagged);
    sizes[3] = alignof(v4); sizes[4] = sizeof(v4);
}
launch k { o = zeros(1); sizes = zeros(5); expect o == [182]; expect sizes == [12, 8, 16, 16, 16]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
    // A `half2` base (the vector table is the checker's own): two `half` members, 4 bytes
    // aligned to 4 as cuda_fp16.h's `__half2`; 1.5 + 2 = 3.5.
    let src = r#"
struct H : half2 { };
__global__ void k(float* o) {
    H h; h.x = __float2half(1.5f); h.y = __float2half(2.0f);
    o[0] = __half2float(h.x) + __half2float(h.y); o[1] = sizeof(H); o[2] = alignof(H);
}
launch k { o = zeros(3); expect o == [3.5, 4, 4]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
    // A member of the class's own named as the vector's hides it: refused.
    let src = r#"
struct B : float3 { float x; };
__global__ void k(float* o) { B b; o[0] = 0; }
launch k { o = zeros(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
    assert!(describe(&e).contains("hides"), "{}", describe(&e));
}

#[test]
fn a_class_derived_from_a_vector_type_is_given_for_the_vector() {
    // SOFA's `CudaVec3<real>::make(xi)` of a `CudaVec4<float> : public float4`, beside
    // `make(float2)`: the derived-to-base conversion picks `float4` (and `m2(float3)` for a
    // `V3`), and the argument is the base subobject. in = 0..15: a = in[4t..4t+3], so
    // m4(a) = 16t + 6, c.w = 4t + 3, m2(b) = 100.
    let src = r#"
struct V4 : float4 { };
struct V3 : float3 { };
__device__ float m2(float2 v) { return v.x + v.y; }
__device__ float m2(float3 v) { return 100.0f; }
__device__ float m4(float4 v) { return v.x + v.y + v.z + v.w; }
__global__ void k(const V4* in, float* o) {
    V4 a = in[threadIdx.x];
    V3 b; b.x = 1; b.y = 2; b.z = 3;
    float4 c = a;
    o[threadIdx.x] = m4(a) + c.w + m2(b);
}
launch k { in = arange(16); o = zeros(4); expect o == arange(4) * 16 + 6 + arange(4) * 4 + 3 + 100; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn a_pointer_to_a_derived_object_converts_to_a_pointer_to_its_base() {
    // `B* p = &d;` and `g(&e)` of a `const B*` parameter, for classes whose members are
    // floats then a double (held as bytes): the same address, read as a B. p->b += 100 writes
    // d.b (102); g(p) = 102, d.b = 102, h(&e) = e.c + 1 = 4 (e.c is then 4), g(&e) = e.b = 2.
    let src = r#"
struct B { float a; float b; };
struct D : B { double c; };
struct E : D { int k; };
__device__ float g(const B* x) { return x->b; }
__device__ double h(D* x) { x->c += 1.0; return x->c; }
__global__ void k(double* o) {
    D d; d.a = 1; d.b = 2; d.c = 5;
    B* p = &d;
    p->b += 100.0f;
    E e; e.a = 1; e.b = 2; e.c = 3; e.k = 4;
    o[0] = g(p) + d.b + h(&e) + e.c + g(&e);
}
launch k { o = zeros(1); expect o == [214]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn overloads_prefer_the_nearest_base_and_a_base_pointer_to_void() {
    // C++ [over.ics.rank]: E to D beats E to B (f(e), h(e), f(&e)), a derived pointer to its
    // base's beats one to `void*` (g(&d)), and an exact class beats its base (f(d), h(d)).
    let src = r#"
struct B { float a; };
struct D : B { float b; };
struct E : D { float c; };
__device__ float f(B x) { return 1; }
__device__ float f(D x) { return 2; }
__device__ float h(const B& x) { return 100; }
__device__ float h(const D& x) { return 200; }
__device__ float g(const B* x) { return 10; }
__device__ float g(const void* x) { return 20; }
__device__ float p(B* x) { return 1; }
__device__ float p(D* x) { return 2; }
__global__ void k(float* o) {
    D d; d.a = 1; d.b = 2;
    E e; e.a = 1; e.b = 2; e.c = 3;
    o[0] = f(d); o[1] = f(e); o[2] = h(e); o[3] = h(d); o[4] = g(&d); o[5] = p(&e);
}
launch k { o = zeros(6); expect o == [2, 2, 200, 200, 10, 2]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_base_that_does_not_begin_its_derived_class_takes_no_upcast_pointer() {
    // A class with virtual members over a base without them: g++ puts the vtable pointer at
    // byte 0 and B at byte 8, so `B* p = &d` is the address plus 8, which simt does not add.
    // It read the vtable pointer's bits as `p->a`; it is refused.
    let src = r#"
struct B { float a; float b; };
struct D : B { __device__ virtual float v() const { return 1; } float c; };
__global__ void k(float* o) { D d; d.a = 1; d.b = 2; d.c = 3; B* p = &d; o[0] = p->a; }
launch k { o = zeros(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::unsupported"], "{e:?}");
    assert!(
        describe(&e).contains("does not begin it"),
        "{}",
        describe(&e)
    );
}

#[test]
fn a_class_template_derived_from_an_instance_converts_to_that_instance() {
    // `D<T> : B<T>`: a `D<float>` slices to a `B<float>` (b.a + b.b = 3, f(d) = 3) and
    // `&d` is a `B<float>*` (p->b = 2, g(&d) = 2); a `B<int>` is another class.
    let src = r#"
template <typename T> struct B { T a; T b; };
template <typename T> struct D : B<T> { T c; };
__device__ float f(B<float> x) { return x.a + x.b; }
__device__ float g(const B<float>* x) { return x->b; }
__global__ void k(float* o) {
    D<float> d; d.a = 1; d.b = 2; d.c = 3;
    B<float> b = d;
    B<float>* p = &d;
    o[0] = b.a + b.b + f(d) + p->b + g(&d);
}
launch k { o = zeros(1); expect o == [10]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
    let text = src.replace("B<float> b = d;", "B<int> b = d;");
    let e = err(&text, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e), ["simt::check::mismatched_types"], "{e:?}");
}
