//! Function objects: stateless structs passed to kernels by value, and functors that call other functors.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn a_kernel_parameter_of_an_empty_struct_needs_nothing_from_the_launch() {
    // warp-ctc passes `ctc_helper::exponential<float>()` by value: a struct with no data members
    // (sizeof 1 in C++, nothing to read), whose `operator()` is inlined. The launch sets `p` only.
    // p = 0, 1, 2, 3: neg gives -0, -1, -2, -3; twice(neg) of `q` = 2·(-t) = 0, -2, -4, -6.
    let src = r#"
struct negf { __device__ float operator()(const float& x) const { return -x; } };
template <typename A> struct scale { __device__ A operator()(const A& x) const { return x * A(2); } };
template <typename F, typename G>
__global__ void k(F f, G g, float* p, float* q) {
    p[threadIdx.x] = f(p[threadIdx.x]);
    q[threadIdx.x] = g(f(q[threadIdx.x]));
}
launch k<negf, scale<float>> {
    p = arange(4);
    q = arange(4);
    expect p == [0, -1, -2, -3];
    expect q == [0, -2, -4, -6];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_empty_struct_parameter_of_a_template_type_written_out() {
    // `neg<float> f` written in the parameter list, not through a template parameter:
    // t = 0..3 becomes 0 - t.
    let src = r#"
template <typename A> struct neg { __device__ A operator()(const A& x) const { return -x; } };
__global__ void k(neg<float> f, float* p) { p[threadIdx.x] = f(p[threadIdx.x]); }
launch k { p = arange(4); expect p == 0 - arange(4); }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_functor_that_calls_another_functor_is_no_recursion() {
    // Both `operator()` take (float, float); the old recursion test compared name and parameter
    // types only. Lp(t, 2) = max(t, 2) + 1: t = 0, 1, 2, 3 gives 3, 3, 3, 4.
    let src = r#"
struct Mx { __device__ float operator()(float x, float y) const { return x < y ? y : x; } };
struct Lp { __device__ float operator()(float x, float y) const { return Mx()(x, y) + 1; } };
__global__ void k(float* p) { p[threadIdx.x] = Lp()(p[threadIdx.x], 2.0f); }
launch k { p = arange(4); expect p == [3, 3, 3, 4]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_functor_that_calls_itself_is_still_recursion() {
    let src = r#"
struct R { __device__ float operator()(float x) const { return x > 0 ? R()(x - 1) : x; } };
__global__ void k(float* p) { p[threadIdx.x] = R()(p[threadIdx.x]); }
launch k { p = arange(4); }
"#;
    let f = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(f.errors[0]
        .to_string()
        .contains("recursive call of `operator()`"));
}

#[test]
fn a_function_pointer_parameter_binds_the_function_a_call_names() {
    // CloverLeaf's and TeaLeaf's `Reduce<T, N>::run(array, out, T (*func)(T, T))`, given
    // `min`, `max` or a file's function; a typedef'd pointer type, `&f` and `(*f)(...)`.
    // By hand for a = 0..3: apply(a, mx) = max(a, 1) = [1, 1, 2, 3]; twice(a) via op_t = 2a;
    // min through an unnamed-then-named chain: min(a, 2) = [0, 1, 2, 2].
    let src = r#"
typedef float (*op_t)(float);
__device__ float mx(float a, float b) { return a < b ? b : a; }
__device__ float twice(float x) { return 2.0f * x; }
__device__ float apply(float x, float (*func)(float, float)) { return func(x, 1.0f); }
__device__ float once(float x, op_t f) { return (*f)(x); }
__device__ float lower(float x, float (*)(float, float), float (*g)(float, float)) { return g(x, 2.0f); }
__global__ void k(const float* a, float* p, float* q, float* r) {
    int i = threadIdx.x;
    p[i] = apply(a[i], mx);
    q[i] = once(a[i], &twice);
    r[i] = lower(a[i], mx, min);
}
launch k { a = arange(4); p = zeros(4); q = zeros(4); r = zeros(4); block = 4; grid = 1;
    expect p == [1, 1, 2, 3]; expect q == arange(4) * 2; expect r == [0, 1, 2, 2]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // A pointer the call does not name a function for: told so, at the argument.
    let bad = src.replace("p[i] = apply(a[i], mx);", "p[i] = apply(a[i], 0);");
    let f = err(&bad, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn class_template_instances_calling_each_other_are_not_recursion() {
    // libSGM's `min_impl<T, STEP>::call` calls `min_impl<T, STEP / 2>::call`, ended by the
    // partial specialisation `min_impl<T, 1u>`: a butterfly minimum over 32 lanes of
    // 100 - lane = min over 69..100 = 69. The same instance calling itself stays an error.
    let src = r#"
template <typename T, unsigned int STEP>
struct min_impl {
    static __device__ T call(T x) {
        x = min(x, __shfl_xor_sync(0xffffffffu, x, STEP / 2, 32));
        return min_impl<T, STEP / 2>::call(x);
    }
};
template <typename T>
struct min_impl<T, 1u> {
    static __device__ T call(T x) { return x; }
};
__global__ void k(unsigned int* o) { o[threadIdx.x] = min_impl<unsigned int, 32u>::call(100u - threadIdx.x); }
launch k { o = zeros(32); grid = 1; block = 32; expect o == 69; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let itself = src.replace(
        "return min_impl<T, STEP / 2>::call(x);",
        "return min_impl<T, STEP>::call(x);",
    );
    let f = err(&itself, &[], Some([1, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_function_object_returning_void_is_called_as_a_statement() {
    // ElasticFusion's `__global__ void icpKernel(const ICPReduction icp) { icp(); }`: the
    // functor's `void operator()() const` called for its effect, on a parameter and on a local.
    // By hand: o[i] = 2i for i < 8; every one of 8 threads bumps c[0]: 8.
    let src = r#"
struct Fill {
  int n;
  float* out;
  __device__ __forceinline__ void operator()() const {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
  }
};
struct Bump { __device__ void operator()(int* p) const { atomicAdd(p, 1); } };
__global__ void k(const Fill f, int* c) { f(); Bump b; b(&c[0]); }
launch k { o = zeros(8); f.n = 8; f.out = o; c = zeros(1); grid = 1; block = 8;
    expect o == 2 * arange(8); expect c == 8; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn a_generic_lambda_deduces_its_auto_parameters_at_each_call() {
    // cuSZ's `auto global_id = [&](auto i) { return blockIdx.x * chunk + i; };`: each `auto`
    // parameter is a template parameter of the call operator. global_id(threadIdx.x) = 4 b + t,
    // so every element is written once. mad(2, 3.25f, base) = int 2 * float 3.25 + 0.5 = 7;
    // mad(1, 2, base) = int 2 + float 0.5 = 2.5; mad(7, 2, base) / 8 = 14.5 / 8 = 1.8125.
    // out = 11.3125 everywhere.
    let src = r#"
template <typename T>
__global__ void k(T* out, unsigned chunk) {
    auto global_id = [&](auto i) { return blockIdx.x * chunk + i; };
    auto mad = [](const auto& a, auto b, auto* p) { return a * b + p[0]; };
    T base[1] = {0.5f};
    out[global_id(threadIdx.x)] = mad(2, 3.25f, base) + mad(1, 2, base) + mad(7, 2, base) / 8;
}
launch k<float> { out = zeros(8); chunk = 4; block = 4; grid = 2; expect out == 11.3125; }
"#;
    ok(src, &[], [2, 1, 1], [4, 1, 1]);
}

#[test]
fn an_object_holding_objects_without_data_is_one_and_its_methods_call_theirs() {
    // GraphBLAST's monoids hold `SemiringT sr;` of a semiring with functions only, whose
    // `T_out` defaults to `T_in1`: Add<SR<float>> and Mul<SR<float>> are objects without data,
    // their `typename S::out_type` is float, and `add_op(s, mul_op(2, 3))` calls a member
    // object's function from inside another's arguments: 1 + 2 * 3 = 7, plus the lane above's
    // 7 from the shuffle (lane 31 keeps its own): 14.
    let src = r#"
template <typename A, typename B = A, typename C = A>
struct SR {
    typedef C out_type;
    __device__ C mul(A a, B b) { return a * b; }
    __device__ C add(C a, C b) { return a + b; }
};
template <typename S>
struct Add {
    typedef typename S::out_type out_type;
    template <typename X, typename Y> __device__ out_type operator()(X x, Y y) { return sr.add(x, y); }
    S sr;
};
template <typename S>
struct Mul {
    typedef typename S::out_type out_type;
    template <typename X, typename Y> __device__ out_type operator()(X x, Y y) { return sr.mul(x, y); }
    S sr;
};
template <typename T, typename M, typename A>
__global__ void k(T* o, M mul_op, A add_op) {
    T s = 1;
    s = add_op(s, mul_op(2.0f, 3.0f));
    s = add_op(s, __shfl_down_sync(0xffffffff, s, 1));
    o[threadIdx.x] = s;
}
launch k<float, Mul<SR<float>>, Add<SR<float>>> { o = zeros(32); expect o == 14; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [32, 1, 1]).expects_passed());
}

#[test]
fn a_struct_holds_objects_without_data_beside_its_data() {
    // `Op op; T acc;` (a reducer holding its operator) and `Mul m; float a, b;`: the objects
    // take one byte each, as in C++, and their member functions are called through the member
    // (`op(acc, x)` inside, `p.m.apply(...)` and `r.op.identity()` outside). Per thread t:
    // r.acc = 1 + 0 + 1 + 2 + 3 = 7; p.prod() = 2·t; p.m.apply(1, 2) = 2; identity 0;
    // q.prod() = 3·4 = 12: 21 + 2t. sizeof(Pair) = 1 byte + 3 padding + 2 floats = 12 and
    // sizeof(Reducer) = 1 + 3 + 4 = 8. A buffer of Pair has 3 words per element, a at word
    // 3t + 1 and b at 3t + 2: with ps = arange(12), a + b = 6t + 3.
    let src = r#"
template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } __device__ T identity() const { return T(0); } };
struct Mul { __device__ float apply(float a, float b) const { return a * b; } };
template <typename T, typename Op>
struct Reducer {
  Op op;
  T acc;
  __device__ Reducer(Op o, T init) : op(o), acc(init) {}
  __device__ void add(T x) { acc = op(acc, x); }
};
struct Pair { Mul m; float a; float b; __device__ float prod() const { return m.apply(a, b); } };
__global__ void k(float* out, int* sz, const Pair* ps, float* sums) {
  Reducer<float, Plus<float>> r(Plus<float>(), 1.0f);
  for (int i = 0; i < 4; ++i) r.add(i);
  Pair p; p.a = 2; p.b = threadIdx.x;
  Pair q = {Mul(), 3.0f, 4.0f};
  out[threadIdx.x] = r.acc + p.prod() + p.m.apply(1.0f, 2.0f) + r.op.identity() + q.prod();
  sz[0] = sizeof(Pair);
  sz[1] = sizeof(Reducer<float, Plus<float>>);
  sums[threadIdx.x] = ps[threadIdx.x].a + ps[threadIdx.x].b;
}
launch k {
  out = zeros(4); sz = zeros(2); ps = arange(12); sums = zeros(4);
  expect out == 21 + 2 * arange(4);
  expect sz == [12, 8];
  expect sums == 6 * arange(4) + 3;
}
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
}

#[test]
fn an_object_member_is_given_an_object_of_its_type() {
    // `: op(2.0f)` gives a float to a member of an empty struct type; C++ has no conversion.
    let src = r#"
struct Op { __device__ float operator()(float a) const { return a; } };
struct S { Op op; float s; __device__ S() : op(2.0f), s(1.0f) {} };
__global__ void k(float* o) { S v; o[threadIdx.x] = v.op(v.s); }
launch k { o = zeros(4); }
"#;
    let e = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::mismatched_types"]);
}

#[test]
fn an_object_member_is_passed_and_made_as_cpp_makes_it() {
    // `apply(v.op, x)` passes the member object (to a template's F and to an `Op` parameter);
    // `: op(2.0f)` makes it with Op's converting constructor, which has nothing to set; a
    // braced list gives `Plus<int>` its own instance. 2·3 + (2·1 + 1) + 3 + 2.5 = 14.5.
    let src = r#"
template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
struct Op { __device__ Op() {} __device__ Op(float) {} __device__ float operator()(float a) const { return a * 2; } };
struct S { Op op; float s; __device__ S() : op(2.0f), s(3.0f) {} };
struct R { Plus<int> p; float a; };
template <typename F> __device__ float apply(F f, float x) { return f(x); }
__device__ float apply2(Op f, float x) { return f(x) + 1; }
__global__ void k(float* o) {
    S v; R r = {Plus<int>(), 2.5f};
    o[threadIdx.x] = apply(v.op, v.s) + apply2(v.op, 1.0f) + r.p(1, 2) + r.a;
}
launch k { o = zeros(4); expect o == 14.5; }
"#;
    assert!(ok(src, &[], ONE, [4, 1, 1]).expects_passed());
    // `Plus<float>()` for a `Plus<int>` member: another type, which C++ does not convert.
    let other = src.replace("R r = {Plus<int>(), 2.5f}", "R r = {Plus<float>(), 2.5f}");
    let e = err(&other, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::mismatched_types"]);
}

#[test]
fn a_member_function_of_an_object_without_data_calls_its_class_s_members_first() {
    // Inside a member function, a plain `f(x)` names the class's `f` (and a base's), which hides
    // the file's `f` (C++ [basic.lookup.unqual]); `this->f(x)` and `(*this).f(x)` name it too.
    // x = 1: the file's f gives 2, the members' f gives 10, so every slot must be 10; the
    // static `N = 4` is in scope: c.g(1) = 1·4 + 4 = 8; P<3>: 1·3 + 1 = 4.
    let src = r#"
__device__ float f(float x) { return x + 1.0f; }
struct T { __device__ float f(float x) { return x * 10.0f; }
           __device__ float g(float x) { return f(x); }
           __device__ float h(float x) { return this->f(x); }
           __device__ float i(float x) { return (*this).f(x); } };
struct B { __device__ float f(float x) { return x * 10.0f; } };
struct E : B { __device__ float g(float x) { return f(x); } };
struct C { static constexpr int N = 4;
           __device__ float f(float x) { return x * N; }
           __device__ float g(float x) { return f(x) + N; } };
template <int M> struct P { __device__ float f(float x) { return x * M; }
                            __device__ float g(float x) { return f(x) + 1.0f; } };
__global__ void k(float* out) {
    T t; E e; C c; P<3> p;
    out[0] = t.g(1.0f);
    out[1] = t.h(1.0f);
    out[2] = t.i(1.0f);
    out[3] = e.g(1.0f);
    out[4] = c.g(1.0f);
    out[5] = p.g(1.0f);
    out[6] = P<3>().g(1.0f);
}
launch k { out = zeros(7); expect out == [10, 10, 10, 10, 8, 4, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_static_member_function_sees_its_class_s_static_members_and_functions() {
    // `S::g(1)` calls the class's static `f` (10·x), not the file's (x + 1): 10. The static
    // members are in scope in a struct with data, one without, and a template's instance:
    // C::f() = 4, D::f() = 5, E<3>::f() = 3·2 = 6, and E<3>::h() = f() + 1 = 7.
    let src = r#"
__device__ float f(float x) { return x + 1.0f; }
struct S { int pad; static __device__ float f(float x) { return x * 10.0f; }
           static __device__ float g(float x) { return f(x); } };
struct C { int pad; static constexpr int N = 4; static __device__ int f() { return N; } };
struct D { static constexpr int N = 5; static __device__ int f() { return N; } };
template <int M> struct E { static constexpr int N = M * 2;
                            static __device__ int f() { return N; }
                            static __device__ int h() { return f() + 1; } };
__global__ void k(float* out, int* n) {
    out[0] = S::g(1.0f);
    n[0] = C::f(); n[1] = D::f(); n[2] = E<3>::f(); n[3] = E<3>::h();
}
launch k { out = zeros(1); n = zeros(4); expect out == [10]; expect n == [4, 5, 6, 7]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_function_pointer_argument_may_be_a_function_template_s_instance() {
    // GPUPrefixSums passes `ScanExclusiveFull<PER_THREAD>` for a `void (*)(...)` parameter.
    // addk<3> then addk<K + 1> with K = 4 of the kernel template: 0 + 3 + 5 = 8 in each slot.
    // An instance of a name that is no function template is still refused.
    let src = r#"
template <int K> __device__ void addk(int* a) { a[threadIdx.x] += K; }
__device__ void apply(int* a, void (*f)(int*)) { (*f)(a); }
template <int K> __global__ void k(int* a) { apply(a, addk<3>); apply(a, &addk<K + 1>); }
launch k<4> { a = zeros(8); expect a == full(8, 8); }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
    let bad = src.replace("apply(a, addk<3>);", "apply(a, subk<3>);");
    let f = err(&bad, &[], Some(ONE), Some([8, 1, 1]));
    assert!(!f.errors.is_empty());
}

#[test]
fn a_parameter_or_local_hides_the_class_s_member_function_of_its_name() {
    // R::run(5, Add()) calls its parameter `op` (5 + 5), not the static member op (5 · 5);
    // T::f(2) calls its local lambda g (2 + 40), not the static member g (2 + 1).
    let src = r#"
struct Add { __device__ int operator()(int a, int b) const { return a + b; } };
struct R {
    __device__ static int op(int a, int b) { return a * b; }
    template <typename Op> __device__ static int run(int a, Op op) { return op(a, a); }
};
struct T {
    __device__ static int g(int y) { return y + 1; }
    __device__ static int f(int x) { auto g = [](int y) { return y + 40; }; return g(x); }
};
__global__ void k(int* o) { o[0] = R::run(5, Add()); o[1] = T::f(2); }
launch k { o = zeros(2); expect o == [10, 42]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_function_object_may_be_initialised_from_a_temporary_or_another() {
    // FasterLLaMA's warpAllReduce: `auto func = ReductionOp<T>();`, then `func(a, b)`. An object
    // without data copies nothing: f, g and h all add, m takes the larger, so out[t] =
    // ((t + 1) + 1) + 0.5 + max(t, 3).
    let src = r#"
struct SumOp { __device__ float operator()(float a, float b) const { return a + b; } };
template <typename T> struct MaxOp { __device__ T operator()(const T& a, const T& b) const { return a > b ? a : b; } };
__global__ void k(const float* in, float* out) {
    auto f = SumOp();
    SumOp g = SumOp();
    SumOp h = f;
    MaxOp<float> m = MaxOp<float>();
    out[threadIdx.x] = h(g(f(in[threadIdx.x], 1.0f), 1.0f), 0.5f) + m(in[threadIdx.x], 3.0f);
}
launch k { in = arange(8); out = zeros(8); expect out == arange(8) + 2.5 + [3, 3, 3, 3, 4, 5, 6, 7]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [8, 1, 1]).expects_passed());
}

#[test]
fn a_function_object_is_not_initialised_from_another_instance_of_its_template() {
    // `MaxOp<int> m = MaxOp<float>();`: no conversion between the two classes, as nvcc says.
    let src = r#"
template <typename T> struct MaxOp { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
__global__ void k(float* out) { MaxOp<int> m = MaxOp<float>(); out[0] = m(1.5f, 1.2f); }
launch k { out = zeros(1); }
"#;
    let e = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&e)[0], "simt::check::unsupported", "{e:?}");
}
