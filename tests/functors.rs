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
