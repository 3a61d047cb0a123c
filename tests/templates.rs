//! Templates, type aliases and `assert`: instances named in launch sections and by `--kernel`,
//! deduction for calls, diagnostics for what is missing.

use crate::common;
use common::{codes, describe, err, ok, simt};
use miette::Diagnostic;

const ONE: [u32; 3] = [1, 1, 1];

/// A kernel template with a value parameter, a type parameter with a default, a function
/// template called with explicit arguments and with deduced ones, aliases and a functional cast.
const TILED: &str = r#"
typedef float real;
using index_t = int;

template <typename T>
__device__ T twice(T x) { return x + x; }

template <typename T, int N>
__device__ void fill(T* p, T v) {
    for (int i = 0; i < N; i++) {
        p[i] = v;
    }
}

template <const int BM, typename T = float>
__global__ void k(T* out, const T* in) {
    index_t i = blockIdx.x * BM + threadIdx.x;
    T local[BM / 16];
    fill<T, BM / 16>(local, in[i]);
    real r = (real)twice(local[1]) + twice<int>(BM);
    out[i] = static_cast<T>(r) + T(1);
}
"#;

#[test]
fn a_launch_section_names_an_instance() {
    // out[i] = 2 in[i] + 2 BM + 1 = 2i + 65 for BM = 32.
    let src = format!(
        "{TILED}launch k<32> {{ in = arange(64); out = zeros(64); block = 32; grid = 2; expect out == arange(64) * 2 + 65; }}\n"
    );
    let r = ok(&src, &[], [2, 1, 1], [32, 1, 1]);
    assert_eq!(r.kernel, "k<32>");
}

#[test]
fn kernel_flag_names_another_instance_and_borrows_the_launch() {
    let dir = std::env::temp_dir().join(format!("simt-templates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("tiled.sk");
    // The launch section is for k<32>; k<64, float> (grid 1 of 64 threads) uses it, with
    // 2 BM + 1 = 129 added.
    std::fs::write(
        &path,
        format!(
            "{TILED}launch k<32> {{ in = arange(64); out = zeros(64); block = 32; grid = 2; }}\n"
        ),
    )
    .expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&[
        "run",
        p,
        "--kernel",
        "k<64, float>",
        "--grid",
        "1",
        "--block",
        "64",
        "--json",
    ]);
    assert_eq!(code, 0, "{errs}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["kernel"], "k<64,float>");
    let (code, _, errs) = simt(&["run", p, "--kernel", "k<>"]);
    assert_eq!(code, 2);
    assert!(
        errs.contains("needs a template argument for `BM`"),
        "{errs}"
    );
    assert!(errs.contains("template <int BM, typename T>"), "{errs}");
}

#[test]
fn template_mistakes_are_diagnostics() {
    // Nothing names an instance.
    let f = err(TILED, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::template_arguments"]);
    // A type where a value is expected, and the other way round.
    let src = format!("{TILED}launch k<float> {{ }}\n");
    assert_eq!(
        codes(&err(&src, &[], Some(ONE), Some(ONE))),
        ["simt::check::template_arguments"]
    );
    let src = format!("{TILED}launch k<32, 7> {{ }}\n");
    assert_eq!(
        codes(&err(&src, &[], Some(ONE), Some(ONE))),
        ["simt::check::template_arguments"]
    );
    // A misspelled type gets a did-you-mean.
    let src = "__global__ void k(float* a) { flaot x = 1.0f; a[0] = x; }";
    let f = err(src, &[("a", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_type"]);
    let help = miette::Diagnostic::help(&f.errors[0].inner).map(|h| h.to_string());
    assert_eq!(help.as_deref(), Some("did you mean `float`?"));
}

#[test]
fn a_failed_assert_stops_the_launch_at_the_first_false_thread() {
    let src = r#"
__global__ void k(float* a, int n) {
    assert(n > 0);
    assert(threadIdx.x < 8);
    a[threadIdx.x] = 1.0f;
}
"#;
    ok(src, &[("a", "zeros(8)"), ("n", "1")], ONE, [8, 1, 1]);
    let f = err(
        src,
        &[("a", "zeros(16)"), ("n", "1")],
        Some(ONE),
        Some([16, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::assertion"]);
    // Thread 8 is the first where `threadIdx.x < 8` is false.
    assert!(
        common::describe(&f).contains("thread (8, 0, 0)"),
        "{}",
        common::describe(&f)
    );
}

/// cuda-samples' idiom: dynamic shared memory through a struct template's conversion operator,
/// with a `template <>` specialisation for double.
const SHARED_MEMORY: &str = r#"
template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double *() {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};
template <class T> __global__ void reduce(T *in, T *out) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
"#;

#[test]
fn a_struct_template_converts_to_dynamic_shared_memory() {
    // Two blocks of 64 sum 0..63 and 64..127: 2016 and 6112. The float instance views the
    // `int` dynamic shared memory as floats; the double one takes the specialisation.
    for t in ["float", "double"] {
        let src = format!(
            "{SHARED_MEMORY}launch reduce<{t}> {{ in = arange(128); out = zeros(2); dyn_smem = 512; expect out == [2016, 6112]; }}\n"
        );
        let r = ok(&src, &[], [2, 1, 1], [64, 1, 1]);
        // log2(64) = 6 rounds + the first store: 7 barriers per block.
        assert_eq!(r.counters.barriers, 2 * 7, "{t}");
    }
}

#[test]
fn an_auto_function_returns_the_type_of_its_first_return() {
    // half: the first return is `-1.0f`, so the result is a float: half(4) = 2.0f and half(3)
    // = 1.5f (an int result would truncate it to 1); half(-1) returns -1.0f before the second
    // return. twice(short 20000): `s + s` promotes to int, 40000 (a short would wrap to
    // -25536). pick(x) returns bools, `x > 1` or `false`: 1 or 0, stored as 1.0f / 0.0f.
    let src = r#"
__device__ auto half(int x) { if (x < 0) return -1.0f; return x * 0.5f; }
__device__ auto twice(short s) { return s + s; }
__device__ auto pick(int x) { if (x > 0) return x > 1; return false; }
__global__ void k(float* h, int* w, float* p) {
    int t = threadIdx.x;
    h[t] = half(t - 1);
    w[t] = twice((short)20000);
    p[t] = pick(t - 1);
}
launch k { h = zeros(5); w = zeros(5); p = zeros(5);
    expect h == [-1, 0, 0.5, 1, 1.5]; expect w == 40000; expect p == [0, 0, 0, 1, 1]; }
"#;
    ok(src, &[], ONE, [5, 1, 1]);
}

#[test]
fn an_auto_function_with_two_return_types_is_an_error() {
    // C++ deduces one type from every return: `1.0` (double) and `2` (int) are ill-formed.
    let two = "__device__ auto f(int x) { if (x > 2) return 1.0; return 2; }\n\
               __global__ void k(double* a) { a[threadIdx.x] = f(threadIdx.x); }";
    let f = err(two, &[("a", "zeros(4)")], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::return_type"]);
    assert!(
        common::describe(&f).contains("returns `double`"),
        "{}",
        common::describe(&f)
    );
    // A function with no `return` value deduces `void`: using it as a value is an error.
    let void = "__device__ auto g(int* a) { a[0] = 1; }\n\
                __global__ void k(int* a) { a[1] = g(a); }";
    let f = err(void, &[("a", "zeros(2)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::no_value"]);
}

#[test]
fn file_scope_aliases_reach_constants_and_struct_members() {
    // `CUDA Programming` (brucefan) style: `real` sizes a constant and types struct members;
    // a struct template's own `T` hides the file's `typedef double T`, so Pair<int> holds ints.
    // M = sizeof(float) * 4 = 16; a[t] = lx + lx2 + M + (int)(p.a / 2) = 1 + 0.5 + 16 + 3.
    let src = r#"
typedef float real;
typedef double T;
const int M = sizeof(real) * 4;
struct Box { real lx; real lx2; };
template <typename T> struct Pair { T a; T b; };
__global__ void k(Box box, float* a) {
    Pair<int> p;
    p.a = 7;
    a[threadIdx.x] = box.lx + box.lx2 + M + p.a / 2;
}
launch k { box.lx = 1.0; box.lx2 = 0.5; a = zeros(4); block = 4; grid = 1; expect a == 20.5; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_explicit_specialisation_replaces_the_template_for_its_arguments() {
    // C++ [temp.expl.spec]: `conv<float>` calls the specialisation (0.5 + i), `conv<int>` the
    // template (i); the specialisation's argument is deduced from its return type (float). The
    // named form `twice<int>` is used for `int` and the template doubles a float.
    let src = r#"
template <class T>
__device__ T conv(const int i) { return static_cast<T>(i); }
template <>
__device__ float conv(const int i) { return 0.5f + i; }

template <typename T>
__device__ T twice(T x) { return x + x; }
template <>
__device__ int twice<int>(int x) { return 3 * x; }

template <class T>
__global__ void k(float* out, int* n) {
    int i = threadIdx.x;
    out[i] = conv<T>(i) + twice(0.25f);
    n[i] = conv<int>(i) + twice(i);
}
launch k<float> {
    out = zeros(4);
    n = zeros(4);
    expect out == arange(4) + 1.0;
    expect n == 4 * arange(4);
}
"#;
    // out[i] = (0.5 + i) + 0.5; n[i] = i + 3i.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_specialisation_named_through_a_typedef_is_the_one_chosen() {
    // gsdr's `template <> cuComplex zero<cuComplex>()`: the argument is a typedef (cuComplex =
    // float2, and a file's own `cplx`), read as a name; it names the type the call binds, so
    // the specialisation runs and the template's `return 0;` (no float2) is never checked.
    // Kernel `k<cplx>` likewise runs its specialisation: out = (1, 2) + (3, 4) per element.
    let src = r#"
#include <cuComplex.h>
typedef float2 cplx;
template <class T>
__device__ T zero() { return 0; }
template <>
__device__ cuComplex zero<cuComplex>() { return make_cuComplex(1, 2); }
template <class T>
__global__ void k(T* out) { out[threadIdx.x] = 0; }
template <>
__global__ void k<cplx>(cplx* out) {
    cplx z = zero<cplx>();
    out[threadIdx.x] = make_float2(z.x + 3, z.y + 4);
}
launch k<cplx> {
    out = zeros(8);
    expect out == [4, 6, 4, 6, 4, 6, 4, 6];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_explicit_specialisation_of_a_kernel_template_runs_for_its_arguments() {
    // C++ [temp.expl.spec], as nvcc runs it (FasterTransformer's add_bias_tanh<half>, LightSeq's
    // `ker<__half>`): k<float> runs the deduced specialisation (T = float from `float* out`), so
    // out[i] = 2; k<int> the one named `<int>`, 3; k<double> the template, 1.
    let src = r#"
template <typename T>
__global__ void k(T* out) { out[threadIdx.x] = (T)1; }
template <>
__global__ void k(float* out) { out[threadIdx.x] = 2.0f; }
template <>
__global__ void k<int>(int* out) { out[threadIdx.x] = 3; }
"#;
    for (name, value) in [("k<float>", 2), ("k<int>", 3), ("k<double>", 1)] {
        let launch = format!("launch {name} {{ out = zeros(4); expect out == full(4, {value}); }}");
        let r = ok(&format!("{src}{launch}\n"), &[], ONE, [4, 1, 1]);
        assert_eq!(r.kernel, name);
    }
}

#[test]
fn a_kernel_specialisation_of_a_value_parameter_or_a_declared_template_runs() {
    // `template <> __global__ void fill<4>`: fill<4> writes 40, fill<2> the template's N = 2.
    // `only<float>` has only a declaration as its primary template, so only the
    // specialisation (7) can run.
    let src = r#"
template <int N>
__global__ void fill(int* out) { out[threadIdx.x] = N; }
template <>
__global__ void fill<4>(int* out) { out[threadIdx.x] = 40; }
template <typename T>
__global__ void only(T* out);
template <>
__global__ void only<float>(float* out) { out[threadIdx.x] = 7.0f; }
"#;
    for (name, value) in [("fill<4>", 40), ("fill<2>", 2), ("only<float>", 7)] {
        let launch =
            format!("launch {name} {{ out = zeros(2); expect out == [{value}, {value}]; }}");
        ok(&format!("{src}{launch}\n"), &[], ONE, [2, 1, 1]);
    }
}

#[test]
fn a_pointer_parameter_given_an_array_of_structs_deduces_the_struct() {
    // pytorch3d's BubbleSort(T* arr, int n) over `Pix q[K]`: T is the struct, not the vector type
    // of the same layout (two floats were a float2, three a float3; lowering panicked). first(q)
    // is q[0] = {1, 2}: s.b = 2. Sorting q by z (3, 1, 2) gives z = 1, 2, 3 with idx 10, 20, 30:
    // q[0].idx + 100 · q[1].idx = 10 + 2000 = 2010; out = 2 + 2010 = 2012.
    let src = r#"
struct P2 { float a; float b; };
struct Pix { float z; float idx; float dist2; };
__device__ inline bool operator<(const Pix& a, const Pix& b) { return a.z < b.z; }
template <typename T> __device__ T first(T* arr) { return arr[0]; }
template <typename T>
__device__ inline void BubbleSort(T* arr, int n) {
  for (int i = 0; i < n - 1; ++i)
    for (int j = 0; j < n - i - 1; ++j)
      if (arr[j + 1] < arr[j]) { T temp = arr[j]; arr[j] = arr[j + 1]; arr[j + 1] = temp; }
}
__global__ void k(float* out) {
    P2 q[2];
    q[0] = {1.0f, 2.0f};
    q[1] = {3.0f, 4.0f};
    P2 s = first(q);
    Pix p[3];
    p[0] = {3.0f, 30.0f, 0.5f};
    p[1] = {1.0f, 10.0f, 0.5f};
    p[2] = {2.0f, 20.0f, 0.5f};
    BubbleSort(p, 3);
    out[threadIdx.x] = s.b + p[0].idx + p[1].idx * 100;
}
launch k { out = zeros(2); expect out == [2012, 2012]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_specialisation_of_a_template_only_declared_is_called_by_its_arguments() {
    // candle's `template <typename T> T max_value();` with only specialisations defined.
    let src = r#"
template <typename T>
__device__ T max_value();
template <>
__device__ int max_value<int>() { return 0x7FFFFFFF; }
template <>
__device__ float max_value<float>() { return 3.0f; }

__global__ void k(int* out, float* f) {
    out[threadIdx.x] = max_value<int>();
    f[threadIdx.x] = max_value<float>();
}
launch k {
    out = zeros(2);
    f = zeros(2);
    expect out == [2147483647, 2147483647];
    expect f == [3, 3];
}
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn alias_templates_stand_for_their_type() {
    // cx.h's `r_Ptr<T>`: `T* __restrict__`; `cr_Ptr<T>` adds const. out = 2 · in.
    let src = r#"
template<typename T> using r_Ptr = T * __restrict__;
template<typename T> using cr_Ptr = const T * __restrict__;
__global__ void k(r_Ptr<float> out, cr_Ptr<float> in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cr_Ptr<float> p = in + i;
    if (i < n) out[i] = 2.0f * p[0];
}
launch k { n = 64; in = arange(n); out = zeros(n); expect out == 2 * in; }
"#;
    ok(src, &[], [2, 1, 1], [32, 1, 1]);
}

#[test]
fn overloads_that_differ_in_the_pointee_take_the_argument_s() {
    // get(float*) multiplies by 10, get(half*) adds 0.5: a float buffer calls the first, a half
    // buffer the second, whichever is declared first.
    let src = r#"
__device__ float get(const half* p, int i) { return __half2float(p[i]) + 0.5f; }
__device__ float get(const float* p, int i) { return p[i] * 10.0f; }
__global__ void k(const float* a, const half* h, float* out, float* out2) {
    int i = threadIdx.x;
    out[i] = get(a, i);
    out2[i] = get(h, i);
}
launch k { a = arange(4); h = arange(4); out = zeros(4); out2 = zeros(4);
           expect out == 10 * arange(4); expect out2 == arange(4) + 0.5; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn enums_are_named_integer_constants() {
    // ADD = 0, MUL = 1, SUB = 7 (written), NEG = 8; `enum class Act` needs `Act::`; an enum
    // class is a value template parameter, with a specialisation per enumerator.
    let src = r#"
enum Mode { ADD, MUL, SUB = 7, NEG };
enum class Act : int { GELU, SILU };
template <Act A> __device__ inline float act(float x);
template <> __device__ inline float act<Act::SILU>(float x) { return x * 2.0f; }
template <> __device__ inline float act<Act::GELU>(float x) { return x + 1.0f; }
template <Act A>
__global__ void k(int* codes, float* y) {
    Mode m = MUL;
    codes[0] = ADD; codes[1] = m; codes[2] = SUB; codes[3] = Mode::NEG;
    codes[4] = (int)Act::SILU;
    y[0] = act<A>(3.0f);
    y[1] = act<Act::GELU>(3.0f);
}
launch k<Act::SILU> { codes = zeros(5); y = zeros(2);
    expect codes == [0, 1, 7, 8, 1]; expect y == [6, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// ggml's pattern: a function pointer type as a template parameter, bound to a named
/// `__device__` function by the launch (`cpy_f32_f16<cpy_1_f32_f16>`), next to value parameters.
const FUNCTION_PARAMETER: &str = r#"
typedef float (*unary_t)(const float x);
typedef void (*store_t)(const float* src, float* dst, int k);
// ggml's tile allocators take pointers to pointers (declared here, not used).
typedef void (*allocate_tiles_t)(int ** x_ql, float ** x_dm, int ** x_qh, int ** x_sc);

__device__ float twice(const float x) { return 2.0f * x; }
__device__ float square(const float x) { return x * x; }
__device__ void put(const float* src, float* dst, int k) { dst[0] = src[0] + (float)k; }

template <int scale, unary_t f, store_t st>
__global__ void k(const float* in, float* out, float* side) {
    int i = threadIdx.x;
    out[i] = scale * f(in[i]);
    st(in + i, side + i, scale);
}
"#;

#[test]
fn a_function_pointer_template_parameter_calls_the_function_it_names() {
    // k<3, twice, put>: out[i] = 3 · 2 · i = 6i, side[i] = i + 3.
    // k<1, square, put>: out[i] = i², side[i] = i + 1.
    for (targs, out, side) in [
        ("3, twice, put", "arange(8) * 6", "arange(8) + 3"),
        ("1, square, put", "arange(8) * arange(8)", "arange(8) + 1"),
    ] {
        let src = format!(
            "{FUNCTION_PARAMETER}launch k<{targs}> {{ in = arange(8); out = zeros(8); side = zeros(8); block = 8; grid = 1; expect out == {out}; expect side == {side}; }}\n"
        );
        let r = ok(&src, &[], ONE, [8, 1, 1]);
        // The instance is named with its arguments as written, without spaces.
        assert_eq!(r.kernel, format!("k<{}>", targs.replace(" ", "")));
    }
}

#[test]
fn a_function_template_takes_a_function_argument() {
    // square(square(x)) = x⁴ and twice(twice(x)) = 4x: for x = 0..3, 0, 5, 24, 93.
    let src = r#"
typedef float (*unary_t)(const float x);
__device__ float twice(const float x) { return 2.0f * x; }
__device__ float square(const float x) { return x * x; }

template <unary_t g>
__device__ float apply_twice(float x) { return g(g(x)); }

__global__ void nested(const float* in, float* out) {
    int i = threadIdx.x;
    out[i] = apply_twice<square>(in[i]) + apply_twice<&twice>(in[i]);
}
launch nested { in = arange(4); out = zeros(4); block = 4; grid = 1; expect out == [0, 5, 24, 93]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_function_pointer_parameter_refuses_anything_but_a_function() {
    // `3` and the kernel's own parameter name are not `__device__` functions.
    for targ in ["3, 3, put", "3, in, put"] {
        let src = format!(
            "{FUNCTION_PARAMETER}launch k<{targ}> {{ in = arange(8); out = zeros(8); side = zeros(8); block = 8; grid = 1; }}\n"
        );
        let f = err(&src, &[], Some(ONE), Some([8, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::not_a_function"], "{targ}");
    }
}

/// vllm's pattern: a function pointer parameter written as a declarator, `T (*F)(const T&)`,
/// bound to an instance of a function template (`twice<float>`, named in the launch section),
/// passed on to another template, with a default that uses the parameter before it.
const DECLARATOR_PARAMETER: &str = r#"
template <typename T> __device__ T twice(const T& x) { return x * 2; }
template <typename T> __device__ T plus3(const T& x) { return x + 3; }
__device__ float neg(const float& x) { return -x; }

template <typename T, T (*F)(const T&), bool first>
__device__ T apply(const T& x, const T& y) { return first ? F(x) * y : x * F(y); }

template <typename T, T (*F)(const T&), T (*G)(const T&) = plus3<T>>
__global__ void k(T* out, const T* in, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = apply<T, F, true>(in[i], (T)2) + G(in[i]);
}
"#;

#[test]
fn a_declarator_function_pointer_parameter_takes_a_function_template_instance() {
    // k<float, twice<float>>: twice(i) · 2 + plus3(i) = 4i + i + 3 = 5i + 3.
    // k<float, plus3<float>, &neg>: plus3(i) · 2 + neg(i) = 2i + 6 - i = i + 6.
    // k<int, twice<int>>: 5i + 3 again, in ints (the instance of each template is int's).
    for (targs, out) in [
        ("float, twice<float>", "arange(8) * 5 + 3"),
        ("float, plus3<float>, &neg", "arange(8) + 6"),
        ("int, twice<int>", "arange(8) * 5 + 3"),
    ] {
        let src = format!(
            "{DECLARATOR_PARAMETER}launch k<{targs}> {{ n = 8; in = arange(n); out = zeros(n); block = 8; grid = 1; expect out == {out}; }}\n"
        );
        let r = ok(&src, &[], ONE, [8, 1, 1]);
        assert_eq!(r.kernel, format!("k<{}>", targs.replace(' ', "")));
    }
}

#[test]
fn a_declarator_function_pointer_parameter_refuses_anything_but_a_function() {
    // `2` is a number and `cube` no function of the file.
    for targ in ["float, 2", "float, cube<float>"] {
        let src = format!(
            "{DECLARATOR_PARAMETER}launch k<{targ}> {{ n = 8; in = arange(n); out = zeros(n); block = 8; grid = 1; }}\n"
        );
        let f = err(&src, &[], Some(ONE), Some([8, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::not_a_function"], "{targ}");
        // The message names the parameter's type as written.
        assert!(
            f.errors[0].to_string().contains("T (*)(const T&)"),
            "{}",
            f.errors[0]
        );
    }
}

#[test]
fn kernel_flag_names_an_instance_with_a_function_template_argument() {
    // --kernel 'k<float, plus3<float>>' borrows k<float, twice<float>>'s section: G is plus3 by
    // default, so out[i] = (i + 3) · 2 + i + 3 = 3i + 9.
    let dir = std::env::temp_dir().join(format!("simt-fn-targ-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("act.sk");
    std::fs::write(
        &path,
        format!(
            "{DECLARATOR_PARAMETER}launch k<float, twice<float>> {{ n = 8; in = arange(n); out = zeros(n); block = 8; grid = 1; }}\n"
        ),
    )
    .expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&[
        "run",
        p,
        "--kernel",
        "k<float, plus3<float>>",
        "--save",
        &format!("out={}", dir.join("out.npy").display()),
    ]);
    assert_eq!(code, 0, "{out}{errs}");
    let saved = std::fs::read(dir.join("out.npy")).expect("saved");
    let values: Vec<f32> = saved[saved.len() - 32..]
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(values, [9.0, 12.0, 15.0, 18.0, 21.0, 24.0, 27.0, 30.0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_struct_template_instance_is_a_type_argument() {
    // P = Pair<float>: out[i] = 1 + i.
    let src = r#"
template <typename T> struct Pair { T a, b; };
template <typename P> __device__ float sum(P p) { return p.a + p.b; }
template <typename P>
__global__ void k(float* out) { P p; p.a = 1; p.b = threadIdx.x; out[threadIdx.x] = sum<P>(p); }
launch k<Pair<float>> { out = zeros(4); block = 4; grid = 1; expect out == arange(4) + 1; }
"#;
    assert_eq!(ok(src, &[], ONE, [4, 1, 1]).kernel, "k<Pair<float>>");
}

#[test]
fn a_const_reference_parameter_binds_a_computed_value() {
    // C++ binds `const T&` to a temporary holding the value: twice((float)i) = 2i,
    // twice(a + 1.0f) = 2i + 2, half_y(make_float4(a, 4a, 0, 0)) = 2i, twice<int>(i * 3) = 6i:
    // 12i + 2 in all.
    let src = r#"
template <typename T> __device__ T twice(const T& x) { return x * 2; }
__device__ float half_y(const float4& v) { return v.y / 2.0f; }
__global__ void k(float* out) {
    int i = threadIdx.x;
    float a = i;
    out[i] = twice((float)i) + twice(a + 1.0f) + half_y(make_float4(a, 4.0f * a, 0.0f, 0.0f))
           + (float)twice<int>(i * 3);
}
launch k { out = zeros(8); block = 8; grid = 1; expect out == arange(8) * 12 + 2; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn aligned_storage_copies_its_bytes_as_one_access() {
    let src = r#"
template <typename T>
__device__ void load_store(T* dst, T* src, int d, int s) {
  typedef typename std::aligned_storage<4 * sizeof(T), 4 * alignof(T)>::type LT;
  ((LT*)dst)[d] = ((LT*)src)[s];
}
template <typename T>
__device__ void copy2(T* dst, T* src, int i) {
  typedef typename std::aligned_storage<2 * sizeof(T), 2 * alignof(T)>::type LT;
  ((LT*)dst)[i] = ((LT*)src)[i];
}
__global__ void k(float* out, float* in, short* a, short* b) {
  load_store(out, in, threadIdx.x, threadIdx.x);
  copy2(b, a, threadIdx.x);
}
launch k { in = arange(64); out = zeros(64); a = arange(32); b = zeros(32); expect out == arange(64); expect b == arange(32); }
"#;
    // 16 threads, one warp, copy 4 floats each as one 16-byte `uint4` and 2 shorts each as one
    // 4-byte `unsigned int`: one load and one store instruction per copy, 2 and 2.
    let r = ok(src, &[], ONE, [16, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gst_instr), (2, 2));
}

#[test]
fn aligned_storage_of_an_odd_size_is_named() {
    let src = r#"
__global__ void k(float* out) {
  typedef std::aligned_storage<12, 4>::type LT;
  out[0] = 1.0f;
}
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let text = simt::cli::render(&f);
    assert!(
        text.contains("`std::aligned_storage` of 12 bytes"),
        "{text}"
    );
}

#[test]
fn a_cast_to_a_type_parameter_of_a_negated_value_is_a_cast() {
    // pytorch_cluster's `scalar_t best = (scalar_t)-1.;`. The cast binds tighter than `*`:
    // `(T)-x * 3` with T = int, x = 1.5 is ((int)-1.5) * 3 = -1 * 3 = -3 (not (int)-(4.5) = -4),
    // and `(T)+x - 1` is 1 - 1 = 0.
    let src = r#"
template <typename T>
__global__ void k(T* out, float x) {
    out[0] = (T)-1.;
    out[1] = (T)-x * 3;
    out[2] = (T)+x - 1;
}
launch k<int> { out = zeros(3); x = 1.5; expect out == [-1, -3, 0]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn member_types_of_class_template_instances_through_an_alias_template() {
    // ArrayFire's `template<typename T> using compute_t = typename common::kernel_type<T>::compute;`
    // with a specialisation whose member type differs: the instance's arguments choose it.
    let src = r#"
namespace common {
template <typename T>
struct kernel_type { using data = T; using compute = T; using native = compute; };
template <>
struct kernel_type<int> { using data = int; using compute = float; using native = compute; };
}
template <typename T>
using compute_t = typename common::kernel_type<T>::compute;
template <typename T>
__global__ void k(T *in, float *out) {
    compute_t<T> v = in[threadIdx.x];
    v = v / 2;
    out[threadIdx.x] = v;
}
__global__ void plain(float *out) {
    common::kernel_type<short>::native a = 7;
    common::kernel_type<int>::native b = 7;
    out[0] = a / 2;
    out[1] = b / 2;
}
launch k<int> { in = arange(4); out = zeros(4); expect out == [0, 0.5, 1, 1.5]; }
"#;
    // k<int>: the specialisation's `compute` is float, so t / 2 keeps its half. k<short>: the
    // template's is `short`, so the division is an integer one (0, 0, 1, 1). `native` names
    // `compute`: 7 / 2 is 3 for short, 3.5 for int's float.
    ok(src, &[], ONE, [4, 1, 1]);
    let short = src.replace(
        "launch k<int> { in = arange(4); out = zeros(4); expect out == [0, 0.5, 1, 1.5]; }",
        "launch k<short> { in = arange(4); out = zeros(4); expect out == [0, 0, 1, 1]; }",
    );
    ok(&short, &[], ONE, [4, 1, 1]);
    let plain = src.replace(
        "launch k<int> { in = arange(4); out = zeros(4); expect out == [0, 0.5, 1, 1.5]; }",
        "launch plain { out = zeros(2); expect out == [3, 3.5]; }",
    );
    ok(&plain, &[], ONE, ONE);
}

#[test]
fn is_same_compares_the_bound_types() {
    // FasterTransformer's `const bool IS_FP16 = std::is_same<T, half>::value;`. With T = float:
    // is_same<T, half> 0; is_same_v<T, float> 1; <T*, float*> 1; <const T, T> 0 (const is part
    // of the type); <real, T> 1 (an alias is its type); <T, float2> 0 (a vector is no scalar).
    let src = r#"
#include <type_traits>
typedef float real;
template <typename T>
__global__ void k(int* out) {
    const bool IS_FP16 = std::is_same<T, half>::value;
    out[0] = IS_FP16 ? 1 : 0;
    out[1] = std::is_same_v<T, float>;
    out[2] = cuda::std::is_same<T*, float*>::value;
    out[3] = std::is_same<const T, T>::value;
    out[4] = ::std::is_same<real, T>::value;
    out[5] = std::is_same<T, float2>::value;
}
launch k<float> { out = zeros(6); expect out == [0, 1, 1, 0, 1, 0]; }
"#;
    ok(src, &[], ONE, ONE);
    // T = half: only is_same<T, half> holds.
    let half = src.replace(
        "launch k<float> { out = zeros(6); expect out == [0, 1, 1, 0, 1, 0]; }",
        "launch k<half> { out = zeros(6); expect out == [1, 0, 0, 0, 0, 0]; }",
    );
    ok(&half, &[], ONE, ONE);
}

/// C++20 <concepts>' concepts that are type predicates, used as a `bool` (pffdtd's `if constexpr
/// (std::same_as<Real, double>)`; it was an unknown name). T = float: same_as<T, double> 0,
/// floating_point 1, integral 0; unsigned_integral<unsigned> 1, signed_integral<bool> 0 and
/// unsigned_integral<bool> 1 (`integral && !signed_integral`), convertible_to<int, T> 1. The `if constexpr` picks `__fadd_rz`: 1.5 + 2.
#[test]
fn concepts_are_the_type_predicates_they_name() {
    let src = r#"
#include <concepts>
template <typename Real>
__device__ Real add(Real x, Real y) {
    if constexpr (std::same_as<Real, double>) { return __dadd_rn(x, y); } else { return __fadd_rz(x, y); }
}
template <typename T>
__global__ void k(float* out) {
    out[0] = std::same_as<T, double>;
    out[1] = std::floating_point<T>;
    out[2] = std::integral<T>;
    out[3] = std::unsigned_integral<unsigned>;
    out[4] = std::signed_integral<bool> + 2 * std::unsigned_integral<bool>;
    out[5] = std::convertible_to<int, T>;
    out[6] = add(T(1.5), T(2));
}
launch k<float> { out = zeros(7); expect out == [0, 1, 0, 1, 2, 1, 3.5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_static_member_of_a_trait_instance_is_a_constant() {
    // FasterTransformer's `num_elems<T>::value`: a trait declared, then specialised, with no data
    // members. T = float: num_elems<float> = 1, num_elems<float2> = 2, and bits<float> builds on
    // its own earlier member: bytes = 4, value = 4 * 8 = 32. It sizes a local array too:
    // acc[num_elems<float2>::value] holds 2 elements, 5 + 6 = 11.
    let src = r#"
template <typename T> struct num_elems;
template <> struct num_elems<float> { static constexpr int value = 1; };
template <> struct num_elems<float2> { static constexpr int value = 2; };
template <typename T> struct bits {
    static constexpr int bytes = sizeof(T);
    static constexpr int value = bytes * 8;
};
template <typename T>
__global__ void k(int* out) {
    out[0] = num_elems<T>::value;
    out[1] = num_elems<float2>::value;
    out[2] = bits<T>::value;
    int acc[num_elems<float2>::value] = {5, 6};
    out[3] = acc[0] + acc[1];
}
launch k<float> { out = zeros(4); expect out == [1, 2, 32, 11]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_static_member_function_of_a_struct_template_instance() {
    // pytorch_cluster's `Cosine<scalar_t>::dot(...)` as a value and pytorch_scatter's
    // `Reducer<scalar_t, REDUCE>::atomic_write(...);` (void) as a statement, in a kernel template
    // and in a plain kernel: out[t] = twice(3) + Acc<float, 2>::scale(1) = 6 + 2 = 8 from k<float>,
    // and out[t] = twice(3) = 6 from plain.
    let src = r#"
template <typename T> struct S {
    static inline __device__ T twice(T x) { return 2 * x; }
    static inline __device__ void put(T* p, T x) { *p = x; }
};
template <typename T, int N> struct Acc {
    static __device__ T scale(T x) { return x * N; }
};
template <typename T>
__global__ void k(T* out) {
    T v = S<T>::twice(3.0f) + Acc<T, 2>::scale(1.0f);
    S<T>::put(&out[threadIdx.x], v);
}
launch k<float> { out = zeros(2); expect out == [8, 8]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
    let plain = src.replace(
        "launch k<float> { out = zeros(2); expect out == [8, 8]; }",
        "__global__ void plain(float* out) { out[threadIdx.x] = S<float>::twice(3.0f); }\nlaunch plain { out = zeros(2); expect out == [6, 6]; }",
    );
    ok(&plain, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_void_template_declared_without_a_body_runs_its_specialisations() {
    // LightSeq's `blockReduce<ReduceType::kSum, 1>(pval);`: the primary is only declared, each
    // specialisation has a body. v = 1: kSum adds 1 (2), then kMax takes max(2, 5) = 5; the
    // <kSum, 2> specialisation (named through the local constant `num`, as LightSeq does) adds
    // 10 to both: [15, 13] from [5, 3].
    let src = r#"
enum class ReduceType { kMax = 0, kSum };
template <ReduceType Rtype, int Num>
__device__ void blockReduce(float* pval);
template <>
__device__ void blockReduce<ReduceType::kSum, 1>(float* pval) { *pval += 1.0f; }
template <>
__device__ void blockReduce<ReduceType::kMax, 1>(float* pval) { *pval = fmaxf(*pval, 5.0f); }
template <>
__device__ void blockReduce<ReduceType::kSum, 2>(float* pval) {
    pval[0] += 10.0f;
    pval[1] += 10.0f;
}
__global__ void k(float* out) {
    float v[1] = {1.0f};
    blockReduce<ReduceType::kSum, 1>(v);
    blockReduce<ReduceType::kMax, 1>(v);
    float w[2] = {v[0], 3.0f};
    const int num = 2;
    blockReduce<ReduceType::kSum, num>(w);
    out[0] = w[0];
    out[1] = w[1];
}
launch k { out = zeros(2); expect out == [15, 13]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn integral_constant_bases_and_enum_parameters_of_struct_templates() {
    // lmdeploy's `struct int_constant: std::integral_constant<int, I> {};` gives the member
    // `value` = I; `std::true_type` / `std::false_type` give 1 / 0. pytorch_scatter's
    // `template <typename scalar_t, ReductionType REDUCE> struct Reducer`: an enum parameter on a
    // struct template. k<float, MAX>: out = [4, 1, 0, 5 (MAX), 2 * 3 = 6 (Scale<float, MAX>)].
    let src = r#"
#include <type_traits>
enum ReductionType { SUM, MEAN, MUL, DIV, MIN, MAX };
template <int I>
struct int_constant: std::integral_constant<int, I> {};
struct yes : public std::true_type {};
struct no : std::false_type {};
template <typename scalar_t, ReductionType REDUCE> struct Scale {
    static __device__ scalar_t apply(scalar_t v) { return REDUCE == MAX ? 2 * v : v; }
};
template <typename scalar_t, ReductionType REDUCE>
__global__ void k(scalar_t* out) {
    out[0] = int_constant<4>::value;
    out[1] = yes::value;
    out[2] = no::value;
    out[3] = REDUCE;
    out[4] = Scale<scalar_t, REDUCE>::apply(3.0f);
}
launch k<float, MAX> { out = zeros(5); expect out == [4, 1, 0, 5, 6]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn template_template_parameters_name_class_templates() {
    // Megatron's `template <typename acc_t, ..., template<typename> class ReduceOp>`: `Op<T>` is
    // the class bound to `Op` with T in place, as a local (`Op<T> r; r(a, b)`), a static member
    // (`Op<T>::apply`) and a temporary (`Op<T>()(c, c)`); `outer` passes its own `Op` on and has
    // a default. fold3 = Op(Op(a, b), Op(c, c)):
    //   fold3<float, Add>(1, 2, 3) = 3 + 6 = 9; fold3<int, Max>(4, 7, 5) = max(7, 5) = 7;
    //   outer<Add>(10) = fold3<float, Add>(10, 1, 2) = 11 + 4 = 15;
    //   outer(0.5) (Max) = max(max(0.5, 1), 2) = 2.
    // The kernel k2<float, Add> takes it from a launch section: out[i] = i + 2.
    let ops = r#"
template <typename T>
struct Add {
    __device__ T operator()(T a, T b) const { return a + b; }
    static __device__ T apply(T a, T b) { return a + b; }
};
template <typename T>
struct Max {
    __device__ T operator()(T a, T b) const { return a < b ? b : a; }
    static __device__ T apply(T a, T b) { return a < b ? b : a; }
};
"#;
    let src = format!(
        "{ops}{}",
        r#"
template <typename T, template <typename> class Op>
__device__ T fold3(T a, T b, T c) {
    Op<T> r;
    return r(Op<T>::apply(a, b), Op<T>()(c, c));
}
template <template <typename> class Op = Max>
__device__ float outer(float a) { return fold3<float, Op>(a, 1.0f, 2.0f); }
__global__ void k(float* out) {
    out[0] = fold3<float, Add>(1.0f, 2.0f, 3.0f);
    out[1] = fold3<int, Max>(4, 7, 5);
    out[2] = outer<Add>(10.0f);
    out[3] = outer(0.5f);
}
launch k { out = zeros(4); expect out == [9, 7, 15, 2]; }
"#
    );
    ok(&src, &[], ONE, ONE);
    let src = format!(
        "{ops}{}",
        r#"
template <typename T, template <typename> class Op>
__global__ void k2(T* out) { Op<T> r; out[threadIdx.x] = r((T)threadIdx.x, (T)2); }
launch k2<float, Add> { out = zeros(4); expect out == arange(4) + 2; }
"#
    );
    let r = ok(&src, &[], ONE, [4, 1, 1]);
    assert_eq!(r.kernel, "k2<float,Add>");
}

#[test]
fn pytorch_half_types_are_half_and_bfloat16() {
    // `c10::Half` / `at::Half` hold half's 16 bits: Megatron's copy_vector<c10::Half, 4>
    // specialisation serves copy_vector<half, 4>, which copies 4 halves as one float2; the
    // primary has no body, so only a matching specialisation can run. out = in = i.
    let src = r#"
template <typename Datatype, int ELEMENTS_PER_LDG>
__device__ __inline__ void copy_vector(Datatype *dst, const Datatype *src);
template <>
__device__ __inline__ void copy_vector<c10::Half, 4>(c10::Half *dst, const c10::Half *src) { *((float2*) dst) = *((float2*) src); }
template <>
__device__ __inline__ void copy_vector<at::BFloat16, 4>(at::BFloat16 *dst, const at::BFloat16 *src) { *dst = *src; }
template <typename input_t, int N>
__global__ void k(input_t* out, const input_t* in) {
    input_t t[N];
    copy_vector<input_t, N>(t, in + threadIdx.x * N);
    copy_vector<input_t, N>(out + threadIdx.x * N, t);
}
launch k<half, 4> { in = arange(128); out = zeros(128); block = 32; grid = 1; expect out == arange(128); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_template_instance_before_a_comma_or_parenthesis_is_a_name_but_comparisons_stay() {
    // `pick(a < b, c > d)`: `a<b, c>` followed by `d` cannot be an instance, so these are two
    // comparisons: 1 < 2 and 3 > 0 are both true, 2 * 1 + 1 = 3. `pick(a < b, (c > d))` too.
    let src = r#"
__device__ int pick(bool x, bool y) { return x * 2 + y; }
__global__ void k(int* out, int a, int b, int c, int d) {
    out[0] = pick(a < b, c > d);
    out[1] = pick(a < b, (c > d));
}
launch k { out = zeros(2); a = 1; b = 2; c = 3; d = 0; expect out == [3, 3]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn partial_specialisations_are_matched_by_value_and_the_most_specialised_wins() {
    // C++ [temp.spec.partial.match]: arguments are compared as values and types, not as text.
    // P<1 - 1> is P<0> (100); P<3> the primary (10 + 3 = 13). Pow2<5> recurses through
    // Pow2<4>…Pow2<0> (= 1): 2^5 = 32. Impl<float, sizeof(float)> is Impl<S, 4> (4),
    // Impl<double, 8> is Impl<S, 8> (8), Impl<short, 2> the primary (1). packed_as<float, 1>
    // takes the partial packed_as<T, 1> (type float, a = 2.5), packed_as<float2, 1> the explicit
    // specialisation over the partial one (float, b = 3.5), packed_as<float, 2> is float2
    // (c.y = 2): (int)(2.5 * 2) + (int)(3.5 * 2) + 2 = 5 + 7 + 2 = 14.
    let src = r#"
template <int N> struct P { static constexpr int value = 10 + N; };
template <> struct P<0> { static constexpr int value = 100; };
template <int N> struct Pow2 { static constexpr int value = 2 * Pow2<N - 1>::value; };
template <> struct Pow2<0> { static constexpr int value = 1; };
template <typename S, int B> struct Impl { static __device__ int get() { return 1; } };
template <typename S> struct Impl<S, 4> { static __device__ int get() { return 4; } };
template <typename S> struct Impl<S, 8> { static __device__ int get() { return 8; } };
template <typename T, int num> struct packed_as;
template <typename T> struct packed_as<T, 1> { using type = T; };
template <> struct packed_as<float, 2> { using type = float2; };
template <> struct packed_as<float2, 1> { using type = float; };
template <typename T>
__global__ void k(int* out) {
    out[0] = P<1 - 1>::value;
    out[1] = P<3>::value;
    out[2] = Pow2<5>::value;
    out[3] = Impl<T, sizeof(T)>::get();
    out[4] = Impl<double, sizeof(double)>::get();
    out[5] = Impl<short, sizeof(short)>::get();
    typename packed_as<T, 1>::type a = 2.5f;
    typename packed_as<float2, 1>::type b = 3.5f;
    typename packed_as<T, 2>::type c = make_float2(1.f, 2.f);
    out[6] = (int)(a * 2) + (int)(b * 2) + (int)c.y;
}
launch k<float> { out = zeros(7); expect out == [100, 13, 32, 4, 8, 1, 14]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_member_type_whose_argument_is_a_local_constant() {
    // awq's `constexpr auto num_elems_T = num_elems<T>::value;` then `using float_packed_t =
    // typename packed_as<float, num_elems_T>::type;`. T = float2: num_elems_T = 2, so
    // packed_t = packed_as<float, 2>::type = float2, and scalar_t = packed_as<float2, 1>::type =
    // float. out = 1.5 + 2.5 + 4.25 = 8.25.
    let src = r#"
template <typename T> struct num_elems;
template <> struct num_elems<float> { static constexpr int value = 1; };
template <> struct num_elems<float2> { static constexpr int value = 2; };
template <typename T, int num> struct packed_as;
template <typename T> struct packed_as<T, 1> { using type = T; };
template <> struct packed_as<float, 2> { using type = float2; };
template <> struct packed_as<float2, 1> { using type = float; };
template <typename T>
__global__ void k(float* out) {
    constexpr auto n = num_elems<T>::value;
    using packed_t = typename packed_as<float, n>::type;
    using scalar_t = typename packed_as<T, 1>::type;
    packed_t p = make_float2(1.5f, 2.5f);
    scalar_t s = 4.25f;
    out[0] = p.x + p.y + s;
}
launch k<float2> { out = zeros(1); expect out == [8.25]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn type_traits_predicates_and_transformations() {
    // TensorFlow's `ToTypeIfConvertible<U, T>` = `enable_if<is_convertible<U, T>::value, T>::type`
    // is float for float/float: add() is atomicAdd, acc = 2.5. T = float: is_integral<T> is
    // false, so conditional<…, int, float>::type is float and h = 7.75 (out[0] = 31);
    // is_floating_point_v<T> is true, so conditional_t<…, int, float> is int and g = (int)3.5 =
    // 3 (out[1] = 12); Pick<0 + 2 * 1> = 2; remove_cv_t<const float> is float, r = 1.5 and the
    // `if constexpr` branch of a floating T gives 3; float* does not convert to int (0).
    let src = r#"
#include <type_traits>
template <typename From, typename To>
using ToTypeIfConvertible = typename std::enable_if<std::is_convertible<From, To>::value, To>::type;
template <typename T, typename U>
__device__ ToTypeIfConvertible<U, T> add(T* p, U v) { return atomicAdd(p, v); }
template <int N> struct Pick { static constexpr int value = N; };
template <typename T>
__global__ void k(int* out, float* acc) {
    add(acc, 2.5f);
    typename std::conditional<std::is_integral<T>::value, int, float>::type h = 7.75f;
    std::conditional_t<std::is_floating_point_v<T>, int, float> g = 3.5f;
    std::remove_cv_t<const float> r = 1.5f;
    out[0] = (int)(h * 4);
    out[1] = (int)(g * 4);
    out[2] = Pick<std::is_integral<T>::value + 2 * std::is_unsigned_v<unsigned int>>::value;
    static_assert(std::is_same_v<std::remove_reference_t<T&>, T>, "remove_reference");
    if constexpr (std::is_floating_point<T>::value) {
        out[3] = (int)(r * 2);
    } else {
        out[3] = -1;
    }
    out[4] = std::is_convertible_v<T*, int>;
}
launch k<float> { out = zeros(5); acc = zeros(1); expect out == [31, 12, 2, 3, 0]; expect acc == [2.5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_temporary_of_a_partial_specialisation_chosen_by_sizeof_is_called() {
    // pytorch_scatter's `AtomicAddDecimalImpl<scalar_t, sizeof(scalar_t)>()(address, val)`: the
    // primary is only declared; sizeof(float) = 4 picks <scalar, 4>, which adds 2 * val. Four
    // threads add 2 * 1 each: 8.
    let src = r#"
template <typename scalar, size_t size> struct AtomicAddImpl;
template <typename scalar> struct AtomicAddImpl<scalar, 4> {
  inline __device__ void operator()(scalar *address, scalar val) { atomicAdd(address, val * 2); }
};
template <typename scalar> struct AtomicAddImpl<scalar, 8> {
  inline __device__ void operator()(scalar *address, scalar val) { atomicAdd(address, val * 3); }
};
template <typename T>
__global__ void k(T* out) {
    AtomicAddImpl<T, sizeof(T)>()(out, (T)1);
}
launch k<float> { out = zeros(1); expect out == [8]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn variable_templates_are_constants_per_instance() {
    // lmdeploy's `template <class T> inline constexpr bitsof_t<T> bitsof{};` with bitsof_t<T>
    // deriving from int_constant<sizeof(T) * 8> (its `value`): bitsof<float> = 32, bitsof<char>
    // = 8, so 3 * 32 / 8 = 12. bytes_of<double> + bytes_of<float> = 8 + 4 = 12; an array of
    // bytes_of<short> = 2 elements holds 5 + 6 = 11.
    let src = r#"
#include <type_traits>
template <int I> struct int_constant : std::integral_constant<int, I> {};
template <class T> struct bitsof_t : int_constant<sizeof(T) * 8> {};
template <class T> inline constexpr bitsof_t<T> bitsof{};
template <typename T> constexpr int bytes_of = sizeof(T);
template <typename T>
__global__ void k(int* out) {
    static_assert(bitsof<T> % 8 == 0, "whole bytes");
    out[0] = 3 * bitsof<T> / bitsof<char>;
    out[1] = (bytes_of<double>) + bytes_of<T>;
    int a[bytes_of<short>] = {5, 6};
    out[2] = a[0] + a[1];
}
launch k<float> { out = zeros(3); expect out == [12, 12, 11]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_variable_template_is_read_before_arithmetic_operators() {
    // microhh's stencil coefficients, `ci0<TF> * a[i-1] + ci1<TF> * a[i]`. With a = 1, 2, 3, 4:
    // lane 1 gives -1/16 * 1 + 9/16 * 2 = 17/16; `c<TF> - a` is 0.5 - 2 = -1.5; `c<TF> + -a`
    // is 0.5 - 2 = -1.5; `m<int> & i` keeps 1 & 1 = 1. `f(i < n, j > -1)` stays two comparisons:
    // f(1 < 2, 3 > -1) = 1 + 1 = 2.
    let src = r#"
template <typename TF> constexpr TF ci0 = -1./16.;
template <typename TF> constexpr TF ci1 = 9./16.;
template <typename TF> constexpr TF c = 0.5;
template <typename T> constexpr T m = 1;
__device__ int f(bool a, bool b) { return a + b; }
template <typename TF>
__global__ void k(const TF* a, TF* out, int* bits) {
    out[0] = ci0<TF> * a[0] + ci1<TF> * a[1];
    out[1] = c<TF> - a[1];
    out[2] = c<TF> + -a[1];
    int i = 1, n = 2, j = 3;
    bits[0] = m<int> & i;
    bits[1] = f(i < n, j > -1);
}
launch k<double> { a = [1, 2, 3, 4]; out = zeros(3); bits = zeros(2);
    expect out == [1.0625, -1.5, -1.5]; expect bits == [1, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_chained_comparison_read_as_a_variable_template_says_so() {
    // `a < b > -c` reads as the variable template `a<b>` minus c (see the test above); where
    // `a` is a variable the diagnostic says so and names the fix, not "unknown name `a<b>`".
    let src = "__global__ void k(int* out) { int a = 1, b = 2, c = 3; out[0] = a < b > -c; }\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let help = f.errors[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(help.contains("(a < b) > ..."), "{}: {help}", describe(&f));
}

#[test]
fn an_explicit_specialisation_belongs_to_the_overload_with_its_parameter_count() {
    // awq's `cuda_max`: a unary template `cmax<To, Ti>(Ti)` with a specialisation for `float2`,
    // and a binary `cmax(T, T)`. The two-argument call deduces the binary one (the unary
    // specialisation was once taken for it: "takes 1 argument(s), found 2"). Lane i writes
    // max(i, 3) + i: 3, 4, 5, 6, 8, 10, 12, 14; the float2 specialisation gives max(2, 5) = 5.
    let src = r#"
template <typename To, typename Ti> __device__ To cmax(Ti x) { return (To)x; }
template <> __device__ float cmax(float2 v) { return fmaxf(v.x, v.y); }
template <typename T> __device__ T cmax(T a, T b) { return a > b ? a : b; }
__global__ void k(float* out, float* pair) {
    int i = threadIdx.x;
    float2 v = make_float2(2.0f, 5.0f);
    out[i] = cmax(1.0f * i, 3.0f) + cmax<float, int>(i);
    if (i == 0) pair[0] = cmax<float, float2>(v);
}
launch k { out = zeros(8); pair = zeros(1); expect out == [3, 4, 5, 6, 8, 10, 12, 14]; expect pair == [5]; }
"#;
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn built_in_calls_are_arguments_of_template_calls() {
    // awq's `cuda_max<float, float2>(make_float2(2, 5))` once said "unknown function
    // `make_float2`": the argument was typed as a number to deduce `Ti`, which the explicit
    // arguments had bound already. Explicit: max(2, 5) = 5; deduced from make_float2(3, 7):
    // 3 + 7 = 10; from a function returning a float2, mk(4) = (4, 8): 12; from make_int2(1, 2):
    // 1 + 2 = 3; from __floats2half2_rn(0.5, 1.5): 2.
    let src = r#"
#include <cuda_fp16.h>
template <typename To, typename Ti> __device__ To cmax(Ti x) { return (To)x; }
template <> __device__ float cmax(float2 v) { return fmaxf(v.x, v.y); }
template <typename V> __device__ float sum(V v) { return (float)v.x + (float)v.y; }
__device__ float2 mk(float a) { return make_float2(a, 2 * a); }
__global__ void k(float* out) {
    out[0] = cmax<float, float2>(make_float2(2, 5));
    out[1] = sum(make_float2(3, 7));
    out[2] = sum(mk(4));
    out[3] = sum<int2>(make_int2(1, 2));
    out[4] = sum(__floats2half2_rn(0.5f, 1.5f));
}
launch k { out = zeros(5); expect out == [5, 10, 12, 3, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn friends_defined_in_a_class_are_free_functions_found_by_their_arguments() {
    // lmdeploy's SubBytePtr<T>: `friend operator+(const SubBytePtr a, int n)` inside the class
    // template, where `SubBytePtr` alone is the instance; a call with a Ptr<float> deduces T =
    // float, one with a Ptr<int> T = int. in = 0, 1, 2, ...: q = p + 2 points at 2, r = 1 + q at
    // 3, so out[0] = 2 + 3 = 5; p + 3 == r holds: 1. Acc's friends (a plain struct): a * 3 of v =
    // in[1] = 1 is 3, twice that 6. The int pointer j = 4 + i over int data 10, 11, ... reads 14.
    // Friend declarations without a body (`friend class Other;`) change nothing.
    let src = r#"
template <class T>
struct Ptr {
    __host__ __device__ Ptr(char* p) : p_(p) {}
    friend __host__ __device__ Ptr operator+(const Ptr a, int n) { return Ptr{a.p_ + n * sizeof(T)}; }
    friend __host__ __device__ Ptr operator+(int n, const Ptr a) { return a + n; }
    friend __device__ bool operator==(const Ptr& a, const Ptr& b) { return a.p_ == b.p_; }
    friend class Other;
    friend struct Ptr<char>;
    template <class U> friend struct Ptr;
    __device__ T get() const { return *(T*)p_; }
    char* p_;
};
struct Acc {
    float v;
    friend __device__ float twice(const Acc& a) { return 2 * a.v; }
    friend __device__ Acc operator*(Acc a, float s) { Acc r; r.v = a.v * s; return r; }
};
__global__ void k(float* in, int* ints, float* out) {
    Ptr<float> p((char*)in);
    Ptr<float> q = p + 2;
    Ptr<float> r = 1 + q;
    out[0] = q.get() + r.get();
    out[1] = (p + 3 == r) ? 1.0f : 0.0f;
    Acc a; a.v = in[1];
    out[2] = twice(a * 3.0f);
    Ptr<int> i((char*)ints);
    Ptr<int> j = 4 + i;
    out[3] = j.get();
}
launch k { in = arange(8); ints = arange(8) + 10; out = zeros(4); expect out == [5, 1, 6, 14]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn sfinae_discards_overloads_whose_enable_if_names_no_type() {
    // f(1.5f): T = float, the first f's enable_if holds, the second's (!is_same) does not:
    // 1.5 * 2 = 3. f(2): T = int, only the second: 2 * 3 = 6. g(1): only the integral one (10);
    // g(1.0f): only the floating one (20). h<float>(x) with an explicit argument: only the
    // float one, 4 + 1 = 5; h<int>(4): 4 - 1 = 3.
    let src = r#"
#include <type_traits>
template <typename T>
__device__ std::enable_if_t<std::is_same_v<T, float>, T> f(T x) { return x * 2; }
template <typename T>
__device__ typename std::enable_if<!std::is_same<T, float>::value, T>::type f(T x) { return x * 3; }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
__device__ int g(T x) { return 10; }
template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
__device__ int g(T x) { return 20; }
template <typename T>
__device__ std::enable_if_t<std::is_same_v<T, float>, float> h(float x) { return x + 1; }
template <typename T>
__device__ std::enable_if_t<std::is_same_v<T, int>, float> h(float x) { return x - 1; }
__global__ void k(float* out) {
    out[0] = f(1.5f);
    out[1] = f(2);
    out[2] = g(1);
    out[3] = g(1.0f);
    out[4] = h<float>(4);
    out[5] = h<int>(4);
}
launch k { out = zeros(6); expect out == [3, 6, 10, 20, 5, 3]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn kernel_templates_told_apart_by_enable_if_are_chosen_per_instance() {
    // vllm's fused_add_rms_norm_kernel: two kernel templates of one name, `__global__
    // std::enable_if_t<(width > 0) && Conv<T>::exists>` and `<(width == 0) || !Conv<T>::exists>`,
    // the condition naming a class's static member. k<float, 4>: Conv<float>::exists holds, the
    // first runs (out = width = 4); k<float, 0> and k<int, 4> (Conv<int>::exists is false) the
    // second (-1). A device function enabled the same way: twice<float>(3) = 6.
    let src = r#"
#include <type_traits>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<float> { static constexpr bool exists = true; };
template <typename T>
__device__ std::enable_if_t<Conv<T>::exists, T> twice(T x) { return 2 * x; }
template <typename T, int width>
__global__ std::enable_if_t<(width > 0) && Conv<T>::exists> k(T* out) { out[threadIdx.x] = width + twice<float>(0); }
template <typename T, int width>
__global__ std::enable_if_t<(width == 0) || !Conv<T>::exists> k(T* out) { out[threadIdx.x] = -1 + twice(0.0f); }
__global__ void d(float* out) { out[0] = twice(3.0f); }
launch k<float, 4> { out = zeros(2); grid = 1; block = 2; expect out == [4, 4]; }
launch k<float, 0> { out = zeros(2); grid = 1; block = 2; expect out == [-1, -1]; }
launch k<int, 4> { out = zeros(2); grid = 1; block = 2; expect out == [-1, -1]; }
launch d { out = zeros(1); grid = 1; block = 1; expect out == [6]; }
"#;
    let dir = std::env::temp_dir().join(format!("simt-sfinae-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sfinae.sk");
    std::fs::write(&path, src).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, errs) = simt(&["test", "--jobs", "1", p]);
    assert_eq!(code, 0, "{out}{errs}");
    for name in ["k<float,4>", "k<float,0>", "k<int,4>", "d"] {
        assert!(out.contains(&format!("ok      {name} ")), "{name}: {out}");
    }
}

#[test]
fn local_aliases_of_a_specialisations_member_types_are_those_types() {
    // vllm's `using Converter = _typeConvert<scalar_t>; using T2 = typename
    // Converter::packed_hip_type;` then `if constexpr (std::is_same_v<T2, float2>)`: for
    // scalar_t = float the explicit specialisation's float2, so the first branch runs (a = 2).
    // The local aliases were once resolved without the file's class members, so is_same_v was
    // false for both (a wrong result: -1 and 0) and `T1 x` an unreadable type.
    let src = r#"
#include <type_traits>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<float> {
    static constexpr bool exists = true;
    using hip_type = float;
    using packed_hip_type = float2;
};
template <typename scalar_t>
__global__ void k(float* out) {
    using Converter = Conv<scalar_t>;
    using T1 = typename Converter::hip_type;
    using T2 = typename Converter::packed_hip_type;
    if constexpr (std::is_same_v<T2, float2>) {
        T1 a = 2.5f;
        out[0] = a;
    } else {
        out[0] = -1;
    }
    out[1] = std::is_same_v<T1, float> ? 1 : 0;
}
launch k<float> { out = zeros(2); expect out == [2.5, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn partial_specialisations_match_pointer_const_and_reference_patterns() {
    // Each expected value checked with g++ -std=c++17 static_asserts: K2<const float*> is a
    // pointer (to const float), not a `const` type: 1; K2<const int&> a reference: 3; with T =
    // float, K2<T*> 1, K2<const T> 2, K2<T> 0. K3<const int*> takes `const T*` over `T*` (more
    // specialised): 4; K3<int*> 1; K3<float*> its explicit specialisation: 5. Elem<T*>::type is
    // T = float: 7.5 * 2 = 15.
    let src = r#"
template <typename T> struct K2 { static constexpr int value = 0; };
template <typename T> struct K2<T*> { static constexpr int value = 1; };
template <typename T> struct K2<const T> { static constexpr int value = 2; };
template <typename T> struct K2<T&> { static constexpr int value = 3; };
template <typename T> struct K3 { static constexpr int value = 0; };
template <typename T> struct K3<T*> { static constexpr int value = 1; };
template <typename T> struct K3<const T*> { static constexpr int value = 4; };
template <> struct K3<float*> { static constexpr int value = 5; };
template <typename T> struct Elem { using type = T; };
template <typename T> struct Elem<T*> { using type = T; };
template <typename T>
__global__ void k(int* out) {
    out[0] = K2<const float*>::value;
    out[1] = K2<const int&>::value;
    out[2] = K2<T*>::value;
    out[3] = K2<const T>::value;
    out[4] = K2<T>::value;
    out[5] = K3<const int*>::value;
    out[6] = K3<int*>::value;
    out[7] = K3<T*>::value;
    typename Elem<T*>::type e = 7.5f;
    out[8] = (int)(e * 2);
}
launch k<float> { out = zeros(9); expect out == [1, 3, 1, 2, 0, 4, 1, 5, 15]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn using_function_pointer_aliases_and_attributes_read() {
    // llm.c's common.h: `using reduction_func_t = float (*) (float);` as a template parameter's
    // type (blockReduce<warpReduceSum>), `[[nodiscard]]` before a function, and a host function
    // template with a parameter pack (skipped). twice(3) + 1 = 7 through the alias; the
    // [[nodiscard]] device function gives 5.
    let src = r#"
using reduction_func_t = float (*) (float);
__device__ float twice(float x) { return 2 * x; }
template <reduction_func_t op>
__device__ inline float apply_plus_one(float v) { return op(v) + 1; }
[[nodiscard]] __device__ float five() { return 5; }
template <class Kernel, class... KernelArgs>
[[nodiscard]] float benchmark_kernel(int repeats, Kernel kernel, KernelArgs&&... kernel_args) {
    return 0.0f;
}
__global__ void k(float* out) {
    out[0] = apply_plus_one<twice>(3);
    out[1] = five();
}
launch k { out = zeros(2); expect out == [7, 5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_product_of_floats_is_no_vector_beside_a_files_vector_operator() {
    // awq's generalLayerNorm: `cuda_sum<float>(val_f * val_f)` of a float val_f, with the file's
    // `float2 operator*(float2, float2)` and a `cuda_sum(float2)` overload. C++ takes a file's
    // operator only for an operand of class type, so the product is a float, Ti = float and
    // cuda_sum gives 3 * 3 = 9.
    let src = r#"
inline __device__ float2 operator*(float2 a, float2 b) { return make_float2(a.x * b.x, a.y * b.y); }
template <typename To, typename Ti>
__device__ inline To cuda_sum(Ti val) { return (To)val; }
template <typename To>
__device__ inline To cuda_sum(float2 val) { return (To)(val.x + val.y); }
__global__ void k(float* o) {
    float v = 3.0f;
    o[0] = cuda_sum<float>(v * v);
}
launch k { o = zeros(1); expect o == [9]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_parameter_of_a_dependent_member_type_is_that_type() {
    // jetson-utils' `alpha(T vec, typename cudaVectorTypeInfo<T>::Base default_alpha)`: the
    // second parameter is `Info<float4>::Base` = float, so 1.5f passes as 1.5 and is returned.
    let src = r#"
template<class T> struct Info { typedef float Base; };
template<> struct Info<int4> { typedef int Base; };
template<typename T> __device__ float getw(T vec, typename Info<T>::Base d) { return d; }
__global__ void k(float4* a, int4* b, float* o) {
    o[0] = getw(a[0], 1.5f);
    o[1] = getw(b[0], 2.75f);
}
launch k { a = zeros(4); b = zeros(4); o = zeros(2); expect o == [1.5, 2]; }
"#;
    // For int4 the specialisation makes Base `int`: 2.75f converts to 2 at the call, then
    // back to float for the return.
    ok(src, &[], ONE, ONE);
}

#[test]
fn an_explicit_specialisation_takes_the_primarys_default_arguments() {
    // C++ forbids repeating a default argument in a specialisation ([temp.expl.spec]): the
    // primary's `d = 255` applies to `getw(float4 v, int d)`. a[0].w = 4: 4 + 255 = 259; the
    // primary for a float gives d itself, 255, or the 7 passed.
    let src = r#"
template<typename T> __device__ int getw(T v, int d = 255) { return d; }
template<> __device__ int getw(float4 v, int d) { return (int)v.w + d; }
__global__ void k(float4* a, int* o) {
    o[0] = getw(a[0]);
    o[1] = getw(3.0f);
    o[2] = getw(a[0], 7);
}
launch k { a = [0, 0, 0, 4]; o = zeros(3); expect o == [259, 255, 11]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn specialisations_of_primaries_overloaded_on_a_parameter_type_each_specialise_their_own() {
    // jetson-utils' `cast_vec<T>(const float3&)` and `cast_vec<T>(const float4&)`, each
    // specialised for float4: a float4 argument calls the float4 primary's specialisation
    // (keeps w = 7), a float3 the float3 one's (w = 0); a float4 result of T = float is `.x`.
    let src = r#"
template<typename T> __device__ T cv(const float3& a) { return a.x; }
template<typename T> __device__ T cv(const float4& a) { return a.x; }
template<> __device__ float4 cv(const float3& a) { return make_float4(a.x, a.y, a.z, 0.0f); }
template<> __device__ float4 cv(const float4& a) { return make_float4(a.x, a.y, a.z, a.w); }
__global__ void k(float4* o, float* f) {
    float4 out = {};
    out.x = 2; out.w = 7;
    float3 t = make_float3(5, 6, 8);
    o[0] = cv<float4>(out);
    o[1] = cv<float4>(t);
    f[0] = cv<float>(out) + cv<float>(t);
}
launch k { o = zeros(8); f = zeros(1); expect o == [2, 0, 0, 7, 5, 6, 8, 0]; expect f == [7]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// SFINAE through a non-type template parameter, in both of its spellings: `std::enable_if_t<c>*
/// = nullptr` (a `void*` parameter whose value is never read) and `typename
/// std::enable_if<c, int>::type = 0` (kaolin). Each overload is discarded where its condition is
/// false, so `sum2` of a `float2` {1, 2} is 1 + 2 = 3 and of the float 4 is 10 × 4 = 40.
#[test]
fn enable_if_as_a_value_parameter_discards_an_overload() {
    let src = r#"
#include <type_traits>
template <typename V, std::enable_if_t<std::is_same<V, float2>::value>* = nullptr>
__device__ float sum2(const V& a) { return a.x + a.y; }
template <typename V, typename std::enable_if<std::is_same<V, float>::value, int>::type = 0>
__device__ float sum2(const V& a) { return 10 * a; }
__global__ void k(float2* in, float* o) {
    o[0] = sum2(in[0]);
    o[1] = sum2(o[1]);
}
launch k {
    in = [1, 2];
    o = [0, 4];
    grid = 1; block = 1;
    expect o == [3, 40];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// Member function templates of class templates and of plain classes (qsim's `Plus<T>`:
/// `template <typename U> T operator()(const T& v1, const U& v2) const`): the class's
/// arguments are bound, the member's own parameters deduced from each call or given. Expected
/// values from g++ on the same code without `__device__`: 1.5 + 2 = 3.5; 0.25 + 3 = 3.25;
/// `Acc<int>` 1 + (int)2.7f * 2 + 3 * 2 = 11; 0.5f * 7 = 3.5; 0.5f * 3.0 = 1.5.
#[test]
fn a_member_function_template_deduces_its_own_parameters() {
    let src = r#"
template <typename T>
struct Plus {
  template <typename U>
  __device__ __forceinline__ T operator()(const T& v1, const U& v2) const {
    return v1 + v2;
  }
};
template <typename T>
struct Acc {
  T total;
  template <typename U>
  __device__ void add(U v) { total += (T)v * 2; }
};
struct Scale {
  float s;
  template <typename U>
  __device__ float by(U v) const { return s * v; }
};
template <typename Op>
__device__ float apply(Op op, float a, int b) { return op(a, b); }
__global__ void k(float* out) {
  Plus<float> p;
  out[0] = p(1.5f, 2);
  out[1] = apply(Plus<float>(), 0.25f, 3);
  Acc<int> a;
  a.total = 1;
  a.add(2.7f);
  a.add(3);
  out[2] = a.total;
  Scale sc;
  sc.s = 0.5f;
  out[3] = sc.by(7);
  out[4] = sc.by<double>(3.0);
}
launch k { out = zeros(5); expect out == [3.5, 3.25, 11, 3.5, 1.5]; }
"#;
    ok(src, &[], ONE, ONE);
}

/// A member function template declared in its class and defined after it (HeCBench kiss's
/// `template <class Result> constexpr Result next() noexcept;`): with one `template <class R>`
/// for a plain class, with the class's then its own for a class template; explicit template
/// arguments reach a call without arguments, and a member calling `next<R>()` passes its own
/// `R`. By hand, thread t: `Gen<int> g(t)`; `next<float>()` makes x = t + 1 and returns it;
/// `scaled(2.0f)` makes x = t + 2, returning 2 (t + 2); so out = t + 1 + 2t + 4 = 3t + 5, and
/// `next<int>()` then returns t + 3. `Acc::get<float>()` of 1 + 0.5 is 1.5.
#[test]
fn a_member_function_template_is_defined_after_its_class() {
    let src = r#"
template <class T>
class Gen {
public:
    __device__ explicit Gen(T s) : x(s) {}
    template <class R>
    __device__ R next();
    template <class R>
    __device__ R scaled(R k) { return next<R>() * k; }
private:
    T x;
};
template <class T>
template <class R>
__device__ R Gen<T>::next() { x = x + 1; return (R)x; }
struct Acc {
    float v;
    template <typename U>
    __device__ U get() const;
};
template <typename U>
__device__ U Acc::get() const { return (U)v; }
__global__ void k(float* out, int* cnt, float* acc) {
    Gen<int> g(threadIdx.x);
    float a = g.next<float>();
    float b = g.scaled(2.0f);
    out[threadIdx.x] = a + b;
    cnt[threadIdx.x] = g.next<int>();
    Acc s;
    s.v = 1.5f;
    acc[threadIdx.x] = s.get<float>();
}
launch k {
    out = zeros(32); cnt = zeros(32); acc = zeros(32);
    expect out == 3 * arange(32) + 5; expect cnt == arange(32) + 3; expect acc == 1.5;
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

/// `template <> template <> ... Gen<int>::next<float>()`, an explicit specialisation of a
/// member function template: one `unsupported` diagnostic at the member's name, and its calls
/// are not reported again as unknown names.
#[test]
fn an_explicit_specialisation_of_a_member_template_is_refused_once() {
    let src = r#"
template <class T>
struct Gen {
    template <class R>
    __device__ R next();
    T x;
};
template <>
template <>
__device__ float Gen<int>::next<float>() { return (float)x; }
__global__ void k(float* out) {
    Gen<int> g;
    g.x = threadIdx.x;
    out[threadIdx.x] = g.next<float>();
}
launch k { out = zeros(32); }
"#;
    let f = err(src, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let text = format!("{:?}", f.errors[0]);
    assert!(text.contains("Gen::next"), "{text}");
    assert!(text.contains("is_same<R, float>"), "{text}");
}

/// C++ [temp.deduct.type]: a non-type parameter is deduced from a class template argument
/// (`N` of `const Array<T, N>&` given an `Array<float, 4>`), as lmdeploy's array_ops.h calls
/// `Store(dst, vec)` and `Ldg(vec, src)`. Expected values from g++ on the same code: v = {1, 2,
/// 3, 4} sums to 10; w = {10, 11, 12} to 33; `count` of an `Array<float, 4>` is 4.
#[test]
fn a_value_parameter_is_deduced_from_a_class_template_argument() {
    let src = r#"
template <typename T, int N>
struct Array {
    T a[N];
    __device__ T& operator[](int i) { return a[i]; }
    __device__ const T& operator[](int i) const { return a[i]; }
};
template <typename T, int N>
__device__ T sum(const Array<T, N>& x) {
    T s = 0;
    for (int i = 0; i < N; i++) s += x[i];
    return s;
}
template <typename T, int N>
__device__ void fill(Array<T, N>& dst, T v) {
    for (int i = 0; i < N; i++) dst[i] = v + i;
}
template <int N>
__device__ int count(const Array<float, N>&) { return N; }
__global__ void k(float* out) {
    Array<float, 4> v;
    fill(v, 1.0f);
    Array<int, 3> w;
    fill(w, 10);
    out[0] = sum(v);
    out[1] = sum(w);
    out[2] = count(v);
}
launch k { out = zeros(3); expect out == [10, 33, 4]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_value_parameters_default_ends_at_the_first_greater_than() {
    // C++ [temp.param]: the first `>` not nested ends the list, so `W = 32> inline` is W = 32,
    // in a host template (skipped) and in a device one. scale(i) = 32 * i, scale<float, 2>(1) = 2:
    // p = [0 + 2, 32 + 2, 64 + 2, 96 + 2] = [2, 34, 66, 98].
    let src = r#"
template <typename T, int W = 32>
inline T host_twice(T v) { return 2 * v; }
template <typename T, int W = 32>
inline __device__ T scale(T v) { return W * v; }
__global__ void k(float* p) { p[threadIdx.x] = scale(p[threadIdx.x]) + scale<float, 2>(1.0f); }
launch k { p = arange(4); block = 4; grid = 1; expect p == [2, 34, 66, 98]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn typename_and_a_conditional_are_template_arguments() {
    // `Conv<typename Traits::in_t, Traits::kN>::to_float` (mamba's `Converter<typename
    // Ktraits::input_t, kNItems>`) names an instance by a dependent type; `using Two =
    // Pick<!kWide ? 2 : 4>` (mamba's `using ... = cub::BlockLoad<..., !kDirectIO ? A : B>`) a
    // value by a conditional.
    // With Traits<int, 3>, kWide = false: to_float scales by N = 3 and Pick<2>::v = 2, so
    // out[i] = 3 * i + 2; with kWide = true (the chained `? :`) Pick<4>::v = 4: w = [4].
    let src = r#"
template <typename T, int N>
struct Traits { using in_t = T; static constexpr int kN = N; static constexpr bool kWide = false; };
template <typename T, int N>
struct Conv { static __device__ float to_float(T v) { return (float)(v * N); } };
template <int V>
struct Pick { static constexpr int v = V; };
template <typename Tr>
__global__ void k(float* out, int* w) {
    constexpr bool kWide = Tr::kWide;
    using Two = Pick<!kWide ? 2 : 4>;
    out[threadIdx.x] = Conv<typename Tr::in_t, Tr::kN>::to_float(threadIdx.x) + Two::v;
    using Wide = Pick<kWide ? 8 : !kWide ? 4 : 1>;
    w[0] = Wide::v;
}
launch k<Traits<int, 3>> { out = zeros(4); w = zeros(1); block = 4; grid = 1; expect out == 3 * arange(4) + 2; expect w == [4]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_conditional_is_a_template_argument_of_a_call() {
    // `twice<big ? 4 : 2>()`: a constant conditional expression among a call's template
    // arguments, as in a type's; 2 · 4 = 8. A comparison with `?` and no call stays an
    // expression: 3 < 5 ? 3 : 5 is 3.
    let src = r#"
template <int N>
__device__ int twice() { return 2 * N; }
__global__ void k(int* o) {
    const bool big = true;
    o[0] = twice<big ? 4 : 2>();
    int x = 3, y = 5;
    o[1] = x < y ? x : y;
}
launch k { o = zeros(2); grid = 1; block = 1; expect o == [8, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_pointer_argument_deduces_a_pointer_or_its_pointee_with_its_const() {
    // [temp.deduct.call]: `P a` given a `const int*` makes P = const int*, so `second(q)` reads
    // q[1] = 8 (XSBench's `Int_Type num_nucs`); `T* a` given a `const int*` makes T = const int
    // (not int, which would let the array be written); `const T* a` given a `const float*`
    // makes T = float, so `T s = 0; s += a[i]` may assign: 1 + 2 + 3 = 6.
    let src = r#"
template <class T> __device__ T sum(const T* a, int n) { T s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
template <class T> __device__ int first(T* a) { return a[1]; }
template <class T> __device__ void put(T* a, T v) { a[0] = v; }
template <class P> __device__ int second(P a) { return a[1]; }
__global__ void k(const float* p, float* o, const int* q, int* r) {
    o[0] = sum(p, 3);
    put(o + 1, 2.5f);
    r[0] = second(q);
    r[1] = first(q) + second(r + 1);
}
launch k {
    p = [1, 2, 3]; o = zeros(2); q = [7, 8]; r = [0, 0, 9];
    expect o == [6, 2.5];
    expect r == [8, 17, 9];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_declared_template_specialised_for_a_vector_and_overloads_given_their_arguments() {
    // SHOC's FFT codelets: `make_T2` is declared, and only its float2 specialisation has a
    // body; `cmul` is overloaded on (T2, T2) and (T2, T), and `cmul<float2, float>(z, 0.5f)`
    // takes the second, since 0.5f does not convert to a float2. (1 + 1i)^2 = 2i; times 0.5: i.
    let src = r#"
template <class T2, class T> __device__ T2 make_T2(T x, T y);
template <> inline __device__ float2 make_T2<float2, float>(float x, float y) { return make_float2(x, y); }
template <class T2, class T> __device__ T2 cmul(T2 a, T2 b) { return make_T2<T2, T>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
template <class T2, class T> __device__ T2 cmul(T2 a, T b) { T2 r; r.x = b * a.x; r.y = b * a.y; return r; }
__global__ void k(float2* o) {
    o[0] = cmul<float2, float>(cmul<float2, float>(o[1], o[1]), 0.5f);
    float2 v = make_T2<float2, float>(3.0f, 4.0f);
    o[2] = v;
}
launch k {
    o = [0, 0, 1, 1, 0, 0];
    expect o == [0, 1, 1, 1, 3, 4];
}
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_launch_names_an_instance_through_the_files_type_alias() {
    // cuda-samples' alignedTypes: `typedef unsigned char uint8;` and `testKernel<uint8>`; the
    // instance copies 32 bytes, and `real` (float) copies 32 floats.
    let kernel = r#"
typedef unsigned char uint8;
using real = float;
template <class T> __global__ void k(T* o, T* i) { o[threadIdx.x] = i[threadIdx.x]; }
"#;
    for t in ["uint8", "real"] {
        let src = format!(
            "{kernel}launch k<{t}> {{ i = arange(32); o = zeros(32); block = 32; expect o == i; }}\n"
        );
        let r = ok(&src, &[], ONE, [32, 1, 1]);
        // One 32-byte sector for 32 bytes, four for 128.
        let sectors = if t == "uint8" { 1 } else { 4 };
        assert_eq!(r.counters.gld_sectors, sectors, "{t}");
    }
}

/// A `constexpr` helper called with constants is a constant expression (C++11 [expr.const]):
/// an array size and a template argument. By hand: cdiv(10, 4) = 3; ilog2(64) (a C++14 loop)
/// = 6; pick(5) takes the `if` branch, 5 * 2 = 10; twice<cdiv(7, 2)>() = 2 · 4 = 8. Each thread
/// fills its 3 ones and sums them: out = 3 + 6 + 10 + 8 = 27. A helper that reads `threadIdx`
/// is no constant: the array size is `simt::check::not_constant`.
#[test]
fn a_constexpr_helper_of_constants_is_a_constant_expression() {
    let src = r#"
__host__ __device__ constexpr int cdiv(int a, int b) { return (a + b - 1) / b; }
__host__ __device__ constexpr int ilog2(int n) {
    int r = 0;
    while (n > 1) { n >>= 1; r++; }
    return r;
}
__host__ __device__ constexpr int pick(int n) {
    if (n > 4) return n * 2;
    return n;
}
template <int N> __device__ int twice() { return 2 * N; }
__global__ void k(int* out) {
    int local[cdiv(10, 4)];
    int s = 0;
    for (int i = 0; i < cdiv(10, 4); i++) local[i] = 1;
    for (int v : local) s += v;
    int bits[ilog2(64)];
    int picked[pick(5)];
    out[threadIdx.x] = s + sizeof(bits) / sizeof(int) + sizeof(picked) / sizeof(int) + twice<cdiv(7, 2)>();
}
launch k { out = zeros(32); expect out == 27; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let f = err(
        "__device__ int lane() { return threadIdx.x % 4 + 1; }\n__global__ void k(int* out) { int a[lane()]; a[0] = 1; out[0] = a[0]; }\nlaunch k { out = zeros(1); }",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::not_constant"]);
}

#[test]
fn a_class_specialisation_written_with_a_typedef_is_the_aliased_types() {
    // SPIKE's `template <> struct __dynamic_shmem__<cuDoubleComplex>`: a specialisation whose
    // argument is an alias was never chosen, so the primary ran silently. Tr<real_t> is
    // Tr<float>: `acc` is double, 1 / 4 = 0.25, plus id 1 = 1.25 (the primary's int division
    // gave 0); Tr<int> is the primary: 1 / 4 = 0, id 0. Pick<cuDoubleComplex> is Pick<double2>.
    let kernel = r#"
#include <cuComplex.h>
typedef float real_t;
template <typename T> struct Tr { typedef int acc; static const int id = 0; };
template <> struct Tr<real_t> { typedef double acc; static const int id = 1; };
template <typename T> struct Pick { __device__ static int id() { return 0; } };
template <> struct Pick<cuDoubleComplex> { __device__ static int id() { return 2; } };
template <typename T> __global__ void k(double* out) {
    typename Tr<T>::acc x = 1;
    x = x / 4;
    out[threadIdx.x] = x + Tr<T>::id + Pick<T>::id();
}
"#;
    for (instance, want) in [("float", "1.25"), ("int", "0"), ("double2", "2")] {
        let src =
            format!("{kernel}launch k<{instance}> {{ out = zeros(4); expect out == {want}; }}\n");
        ok(&src, &[], ONE, [4, 1, 1]);
    }
    // Only an alias of a plain type is resolved so (g++ agrees with each): `A<cf>` of a
    // `const float` alias is not `A<float>`; `B<vec3>` of an array type is none of simt's
    // instances; `C<Foo::value_type>` is Foo's member type (int), not the file's
    // `value_type` (double). So k<float> gets 0 + 0 + 0, k<int> 0 + 0 + 1 and k<double> 0.
    let kernel = r#"
typedef const float cf;
typedef float vec3[3];
struct Foo { typedef int value_type; };
typedef double value_type;
template <typename T> struct A { static const int id = 0; };
template <> struct A<cf> { static const int id = 3; };
template <typename T> struct B { static const int id = 0; };
template <> struct B<vec3> { static const int id = 5; };
template <typename T> struct C { static const int id = 0; };
template <> struct C<Foo::value_type> { static const int id = 1; };
template <typename T> __global__ void k(float* out) {
    out[threadIdx.x] = A<T>::id + B<T>::id + C<T>::id;
}
"#;
    for (instance, want) in [("float", "0"), ("int", "1"), ("double", "0")] {
        let src =
            format!("{kernel}launch k<{instance}> {{ out = zeros(4); expect out == {want}; }}\n");
        ok(&src, &[], ONE, [4, 1, 1]);
    }
}

#[test]
fn class_specialisations_named_by_enumerators_are_chosen_by_value() {
    // kaldi's TransReduceOp<LINFNORM, Real> and xmrig's Traits<Algo::CN_R>: a specialisation
    // written with an enumerator matches an instance whose argument is that enumerator
    // (simt used to compare the name with the value and fall back to the primary template).
    let kernel = r#"
enum E { A, B, NEG = -2 };
enum class Algo { CN_0, CN_R };
template <E K, typename Real> struct Op { __device__ Real Get() const { return Real(0); } };
template <> struct Op<B, float> { __device__ float Get() const { return 7.0f; } };
template <typename Real> struct Op<A, Real> { __device__ Real Get() const { return Real(5); } };
template <typename Real> struct Op<NEG, Real> { __device__ Real Get() const { return Real(3); } };
template <Algo X> struct Traits { static constexpr int rounds = 1; };
template <> struct Traits<Algo::CN_R> { static constexpr int rounds = 4; };
template <E K, Algo X>
__global__ void k(float* out) {
    Op<K, float> op;
    out[0] = op.Get();
    out[1] = Traits<X>::rounds;
    Op<NEG, float> n;
    out[2] = n.Get();
}
"#;
    // <B, CN_R>: the explicit Op<B, float> (7) and Traits<CN_R> (4); <A, CN_0>: the partial
    // Op<A, Real> (5) and the primary Traits (1). Op<NEG, float> (NEG = -2) is the partial
    // specialisation for NEG either way: 3.
    for (instance, want) in [
        ("B, Algo::CN_R", "[7, 4, 3]"),
        ("A, Algo::CN_0", "[5, 1, 3]"),
    ] {
        let src = format!(
            "{kernel}launch k<{instance}> {{\n    out = zeros(3);\n    expect out == {want};\n}}\n"
        );
        ok(&src, &[], ONE, ONE);
    }
}

#[test]
fn a_static_members_definition_outside_its_class_adds_nothing() {
    // DGL's functor.cuh: `template <typename DType> constexpr bool Add<DType>::use_lhs;` after
    // the class that gives it its value, and the same for a plain class.
    let src = r#"
template <typename DType>
struct Add {
    static constexpr bool use_lhs = true;
    static __device__ DType Call(const DType* a, const DType* b) { return a[0] + b[0]; }
};
template <typename DType>
constexpr bool Add<DType>::use_lhs;
struct Scale { static constexpr int k = 3; };
constexpr int Scale::k;
__global__ void k(const float* a, const float* b, float* out) {
    int i = threadIdx.x;
    out[i] = Add<float>::use_lhs ? Add<float>::Call(a + i, b + i) * Scale::k : 0.f;
}
launch k { a = arange(4); b = ones(4); out = zeros(4); expect out == [3, 6, 9, 12]; }
"#;
    // (i + 1) * 3.
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_arm_that_never_runs_may_hold_what_simt_cannot_run() {
    // DGL's `template <bool atomic> acc(float* buf, float v) { if (!atomic) *buf += v; else
    // atomicAdd(buf, v); }` called as acc<false>(&local, ...): the atomic on a local never runs,
    // so simt leaves it out rather than refusing the kernel. Four adds of 1: 4.
    let src = r#"
template <bool atomic>
__device__ __forceinline__ void acc(float* buf, float v) {
    if (!atomic) {
        *buf += v;
    } else {
        atomicAdd(buf, v);
    }
}
__global__ void k(const float* x, float* out) {
    float local = 0.f;
    for (int i = 0; i < 4; ++i) acc<false>(&local, x[threadIdx.x * 4 + i]);
    out[threadIdx.x] = local;
}
launch k { x = ones(128); out = zeros(32); expect out == 4; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    // The same construct where it runs is refused; an error of the program (an unknown name)
    // in an arm that never runs is still one, as nvcc reports it; and a helper refused in a
    // dead arm is still refused where a live call reaches it.
    let refused = |body: &str| {
        let src = format!(
            "__device__ void h(float* p) {{ atomicAdd(p, 1.0f); }}\n__global__ void k(float* out) {{\n    float l = 0.f;\n    {body}\n    out[0] = l;\n}}\n"
        );
        codes(&err(&src, &[("out", "zeros(1)")], Some(ONE), Some(ONE)))
    };
    assert_eq!(
        refused("if (1) atomicAdd(&l, 1.0f);"),
        ["simt::check::unsupported"]
    );
    assert_eq!(refused("if (0) l = nope;"), ["simt::check::unknown_name"]);
    assert_eq!(
        refused("if (0) h(&l);\n    h(&l);"),
        ["simt::check::unsupported"]
    );
}

#[test]
fn a_local_constexpr_from_a_helper_is_a_template_argument() {
    // vLLM's `constexpr int ws = phys_warp();` then `red<ws>(x)`: the butterfly over 32 lanes
    // sums 32 ones, so out[0] = 32; `int a[half]` sizes by the helper's 32 / 2 = 16.
    let src = r#"
static constexpr __device__ int phys_warp() { return 32; }
template <int width>
__device__ float red(float x) {
    for (int o = width / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);
    return x;
}
__global__ void k(float* out) {
    constexpr int ws = phys_warp();
    const int half = ws / 2;
    int a[half];
    a[half - 1] = half;
    float s = red<ws>(1.0f);
    if (threadIdx.x == 0) { out[0] = s; out[1] = a[15]; }
}
launch k { out = zeros(2); block = 32; grid = 1; expect out == [32, 16]; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn a_member_type_whose_argument_is_the_class_s_static_constants() {
    // causal-conv1d's `using vec_t = typename BytesToType<kNBytes * kNElts>::Type;` with
    // `static constexpr int kNBytes = sizeof(T_)`: for T_ = float, kNBytes = 4 and kNElts = 4,
    // so vec_t = BytesToType<16>::Type = uint4 (16 bytes). cuSZ's alias template
    // `UInt_t<ByteWidth>` with `ByteWidth = sizeof(T)`: Z<short>::U = UInt<2>::T, 2 bytes.
    // out = [16, 2].
    let src = r#"
template<int BYTES> struct BytesToType {};
template<> struct BytesToType<16> { using Type = uint4; };
template<> struct BytesToType<4> { using Type = uint32_t; };
template<typename T_>
struct Traits {
    static constexpr int kNBytes = sizeof(T_);
    static constexpr int kNElts = kNBytes == 4 ? 4 : 8;
    using vec_t = typename BytesToType<kNBytes * kNElts>::Type;
};
template <int ByteWidth> struct UInt;
template <> struct UInt<2> { using T = unsigned short; };
template <> struct UInt<4> { using T = unsigned int; };
template <int ByteWidth> using UInt_t = typename UInt<ByteWidth>::T;
template <typename T>
struct Z {
    static constexpr int ByteWidth = sizeof(T);
    using U = UInt_t<ByteWidth>;
};
template<typename K>
__global__ void k(int* out) {
    using vec_t = typename K::vec_t;
    out[0] = sizeof(vec_t);
    out[1] = sizeof(typename Z<short>::U);
}
launch k<Traits<float>> { out = zeros(2); expect out == [16, 2]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_conditional_on_a_scoped_enumerator_chooses_by_its_value() {
    // cuSZ's `std::conditional_t<OS == outlier_stragegy::CONVINIENT, f4, ValT>`: OS defaults to
    // CONVENIENT (0), so cell<double>'s val is a float (4 bytes, then idx at byte 4), and
    // cell<double, RIGOROUS>'s val a double (8 bytes, idx at byte 8, size 16).
    // out = [4 + 4, 16].
    let src = r#"
#include <type_traits>
enum class strategy { CONVENIENT, RIGOROUS };
template <typename ValT, strategy OS = strategy::CONVENIENT>
struct cell {
  using OutlierValT = std::conditional_t<OS == strategy::CONVENIENT, float, ValT>;
  OutlierValT val;
  float idx;
};
__global__ void k(int* out) {
    out[0] = sizeof(cell<double>);
    out[1] = sizeof(cell<double, strategy::RIGOROUS>);
}
launch k { out = zeros(2); expect out == [8, 16]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_c_cast_to_a_typename_dependent_type_and_an_auto_vector_from_a_template() {
    // cudpp's `(typename typeToVector<T,4>::Result*)d_in` reads float4s: d_out[t] = sum of
    // d_in[4t..4t+3] = [0+1+2+3, 4+5+6+7] = [6, 22]. libSGM's `const auto v =
    // load_as<uint4>(in)` views 16 bytes as a uint4: little-endian words 1, 2, 3, 4, so
    // o = [10, 0] from thread 0 (v.x + v.y + v.z + v.w).
    let src = r#"
template <typename T, int N> struct typeToVector { typedef T Result; };
template <> struct typeToVector<float, 4> { typedef float4 Result; };
template <typename T, typename S>
__device__ inline T load_as(const S *p) { return *reinterpret_cast<const T *>(p); }
template <class T>
__global__ void k(const T* d_in, T* d_out, const unsigned char* bytes, unsigned* o) {
    typename typeToVector<T,4>::Result* inData = (typename typeToVector<T,4>::Result*)d_in;
    typename typeToVector<T,4>::Result v = inData[threadIdx.x];
    d_out[threadIdx.x] = v.x + v.y + v.z + v.w;
    const auto w = load_as<uint4>(bytes);
    if (threadIdx.x == 0) o[0] = w.x + w.y + w.z + w.w;
}
launch k<float> {
    d_in = arange(8); d_out = zeros(2); bytes = [1,0,0,0, 2,0,0,0, 3,0,0,0, 4,0,0,0]; o = zeros(2);
    expect d_out == [6, 22]; expect o == [10, 0];
}
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn an_alias_template_named_like_the_class_it_names_is_that_class() {
    // `namespace std { template <typename T> using atomic_ref = cuda::atomic_ref<T>; }` beside
    // the class: reading `cuda::atomic_ref<int>` expanded the alias into itself without end (the
    // checker never finished). 32 threads add 1: count = 32.
    let src = r#"
namespace cuda {
template <typename T>
struct atomic_ref {
    T* ptr;
    __device__ explicit atomic_ref(T& obj) : ptr(&obj) {}
    __device__ T fetch_add(T v) const { return atomicAdd(ptr, v); }
};
namespace std {
template <typename T>
using atomic_ref = cuda::atomic_ref<T>;
}
}
__global__ void k(int* count) {
    cuda::atomic_ref<int> ref(count[0]);
    ref.fetch_add(1);
}
launch k { count = zeros(1); expect count == [32]; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

#[test]
fn an_unnamed_parameter_may_keep_its_name_in_a_comment() {
    // PyTorch's WelfordOps writes `index_t /*idx*/`: the comment after a typedef or template
    // type was read as part of its name. y = 2x + 1 for x = i.
    let src = r#"
typedef long long index_t2;
template <typename index_t>
__device__ float add_one(float acc, float data, index_t /*idx*/) { return acc + data; }
__device__ float twice(float x, index_t2 /* unused */) { return 2.f * x; }
__global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = add_one<long long>(twice(x[i], 0), 1.f, (long long)i);
}
launch k { n = 64; x = arange(n); y = zeros(n); expect y == 2 * arange(n) + 1; }
"#;
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
}

#[test]
fn a_member_of_a_class_template_may_be_specialised_for_some_arguments() {
    // cudpp's `template <> __device__ int OperatorMax<int>::identity() const`: the member of
    // OperatorMax<int> alone; its other members are the primary's with T = int. Hand-derived:
    // int: identity -7, op(3, 4) = max + bias 1 = 5, twice(5) = 10, sizeof 4; float: -1.5,
    // op(1, 2) = 2 + 0.5, twice(1.25) = 2.5; double (no specialisation): op(1, 3) = 3 + 2,
    // sizeof 8.
    let src = r#"
template <typename T>
class OperatorMax {
public:
    T bias;
    __device__ T operator()(const T a, const T b) const { return max(a, b) + bias; }
    __device__ T identity() const;
    __device__ T twice(T x) const { return x + x; }
};
template <>
__device__ inline int OperatorMax<int>::identity() const { return -7; }
template <>
__device__ inline float OperatorMax<float>::identity() const { return -1.5f; }
__global__ void k(int* o, float* f, double* d) {
    OperatorMax<int> op; op.bias = 1;
    OperatorMax<float> fop; fop.bias = 0.5f;
    OperatorMax<double> dop; dop.bias = 2.0;
    o[0] = op.identity(); o[1] = op(3, 4); o[2] = op.twice(5); o[3] = sizeof(op);
    f[0] = fop.identity(); f[1] = fop(1.f, 2.f); f[2] = fop.twice(1.25f);
    d[0] = dop(1.0, 3.0); d[1] = sizeof(dop);
}
launch k {
    o = zeros(4); f = zeros(3); d = zeros(2);
    expect o == [-7, 5, 10, 4]; expect f == [-1.5, 2.5, 2.5]; expect d == [5, 8];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // A class template with a value parameter given as a literal: W<3>::get is the file's
    // (3); one given as another name is refused, naming the member.
    let src = r#"
template <int N>
struct W { __device__ int get() const; };
template <>
__device__ int W<3>::get() const { return 3; }
__global__ void k(int* o) { W<3> w; o[0] = w.get(); }
launch k { o = zeros(1); expect o == [3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let src = r#"
template <int N>
struct W { __device__ int get() const; };
enum { K = 3 };
template <>
__device__ int W<K>::get() const { return 3; }
__global__ void k(int* o) { W<K> w; o[0] = w.get(); }
"#;
    let f = err(src, &[("o", "zeros(1)")], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f)[0], "simt::check::unsupported");
    assert!(simt::cli::render(&f).contains("`W<K>::get`"));
}

#[test]
fn a_member_specialisation_sees_the_members_defined_after_it() {
    // `C<int>::f` is specialised before the primary's out-of-class `f` and `g`: C<int> still has
    // the primary's `g`, which calls its own `f`. int (v = 1): f = 101, g = f + 10 = 111;
    // float (v = 2): f = 2, g = 12.
    let src = r#"
template <typename T> struct C {
    T v;
    __device__ T f();
    __device__ T g();
};
template <> __device__ int C<int>::f() { return 100 + v; }
template <typename T> __device__ T C<T>::f() { return v; }
template <typename T> __device__ T C<T>::g() { return f() + 10; }
__global__ void k(int* out, float* fo) {
    C<int> a; a.v = 1;
    C<float> b; b.v = 2.0f;
    out[0] = a.f(); out[1] = a.g();
    fo[0] = b.f(); fo[1] = b.g();
}
launch k { out = zeros(2); fo = zeros(2); expect out == [101, 111]; expect fo == [2, 12]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_constructor_template_converts_another_instance_of_its_class() {
    // OpenCV's cuda_types.hpp: `template <typename U> explicit PtrStepSz(const PtrStepSz<U>& d)
    // : PtrStep<T>(...), cols(d.cols), rows(d.rows) {}`, a constructor template with an
    // initialiser list. `Box<float> b(a)` of a `Box<int>` deduces U = int and runs it:
    // b.v = (float)t * 2, so o = 2t + 0.5. The other constructors still run: `Box<int> a(t)`.
    let src = r#"
template <typename T> struct Box
{
    __host__ __device__ Box() : v(0) {}
    __host__ __device__ Box(T x) : v(x) {}
    template <typename U>
    __host__ __device__ explicit Box(const Box<U>& d) : v((T)d.v * 2) {}
    T v;
};
__global__ void k(float* o) {
    Box<int> a(threadIdx.x);
    Box<float> b(a);
    o[threadIdx.x] = b.v + 0.5f;
}
launch k { o = zeros(4); expect o == arange(4) * 2 + 0.5; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_template_declared_without_a_body_is_its_specialisations() {
    // Caffe declares `template <typename Dtype> Dtype f(Dtype);` and defines `f<float>` and
    // `f<double>` only. A call deduces T from the declaration, then uses the specialisation.
    // `twice` is declared ahead of the kernel (its parameter named U) and defined after it
    // (named T): the same template, the definition is used.
    let src = r#"
template <typename T>
inline __device__ T add_one(const T v);
template <>
inline __device__ float add_one(const float v) { return v + 1.0f; }
template <>
inline __device__ double add_one(const double v) { return v + 2.0; }
template <typename U> __device__ U twice(U v);

__global__ void k(float* out, double* d, int* i) {
    out[threadIdx.x] = add_one(out[threadIdx.x]);
    d[threadIdx.x] = add_one(d[threadIdx.x]);
    i[threadIdx.x] = twice(i[threadIdx.x]);
}
template <typename T> __device__ T twice(T v) { return 2 * v; }
launch k {
    out = arange(4); d = arange(4); i = arange(4);
    grid = 1; block = 4;
    expect out == [1, 2, 3, 4];
    expect d == [2, 3, 4, 5];
    expect i == [0, 2, 4, 6];
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn an_alias_template_names_a_constructor_in_an_expression() {
    // TensorRT: `threadData + kvp<T>(a, b)` with `template <typename T> using kvp =
    // cub::KeyValuePair<T, T>;` constructs the pair (3, 4); added to (1, 2) by the file's
    // operator+: (4, 6), and key + value = 10.
    let src = r#"
template <typename A, typename B> struct P {
    A key; B value;
    __device__ P() {}
    __device__ P(A a, B b) : key(a), value(b) {}
};
__device__ P<float, float> operator+(const P<float, float>& a, const P<float, float>& b) {
    return P<float, float>(a.key + b.key, a.value + b.value);
}
template <typename T>
using kvp = P<T, T>;
template <typename T>
__global__ void k(T* out) {
    kvp<T> a(1, 2);
    a = a + kvp<T>(3, 4);
    out[0] = a.key + a.value;
}
launch k<float> { out = zeros(1); expect out == 10; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn the_template_disambiguator_after_a_class_instance_names_its_member_template() {
    // AMGX's `Warp_reduce<N>::template execute<Op>(x)`: `template` after `::` says the
    // dependent member is a template. N = 1: an xor butterfly over masks 16..1 sums the warp,
    // 0 + 1 + ... + 31 = 496.
    let src = r#"
struct Add {
    template <typename T>
    static __device__ T eval(T x, T y) { return x + y; }
};
template <int N>
struct Reduce {
    template <typename Op, typename T>
    static __device__ T execute(T x) {
        for (int m = 16; m >= N; m >>= 1) x = Op::eval(x, __shfl_xor_sync(0xffffffff, x, m));
        return x;
    }
};
template <int N, typename Op, typename T>
__device__ T warp_reduce(T x) {
    return Reduce<N>::template execute<Op>(x);
}
__global__ void k(const float* in, float* out) {
    float s = warp_reduce<1, Add>(in[threadIdx.x]);
    if (threadIdx.x == 0) out[0] = s;
}
launch k { in = arange(32); out = zeros(1); expect out == 496; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_class_instance_is_one_type_however_its_scalar_arguments_are_spelled() {
    // lmdeploy's embeddingLookupKernel<uint16_t, 8>: `Array<T, N>` with T = uint16_t in the
    // kernel, and `Store(T* dst, const Array<T, N>&)` deducing T = unsigned short from
    // `&dst[0]`: Array<uint16_t, 4> and Array<unsigned short, 4> are one type in C++.
    let src = r#"
template<typename T, int N>
struct Array { T __a[N]; };
template<typename T, int N>
__device__ void Store(T* dst, const Array<T, N>& src) {
    for (int i = 0; i < N; ++i) dst[i] = src.__a[i];
}
template<class T, int vec_size>
__global__ void k(T* dst, const T* src) {
    Array<T, vec_size> vec;
    for (int i = 0; i < vec_size; ++i) vec.__a[i] = src[i] + 1;
    Store(&dst[0], vec);
    Array<ushort, vec_size> same = vec;
    dst[vec_size] = same.__a[vec_size - 1];
}
launch k<uint16_t, 4> { dst = zeros(5); src = arange(4); expect dst == [1, 2, 3, 4, 4]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_member_type_may_name_a_file_typedef() {
    // dedisp's `template<int IN_NBITS> struct SumType { typedef dedisp_word type; };`: the member
    // type names the file's typedef, unsigned int. s = 3, out = s + 4 = 7. The class's own
    // `typedef float word_t;` in Other hides the file's: Other<1>::type is float, 0.5 + 4.
    let src = r#"
typedef unsigned int word_t;
template<int N> struct SumType { typedef word_t type; };
template<int N> struct Other { typedef float word_t; typedef word_t type; };
template<int N>
__global__ void k(unsigned int *out, float* f) {
    typedef typename SumType<N>::type sum_type;
    sum_type s = 3;
    out[threadIdx.x] = s + 4;
    typename Other<N>::type h = 0.5f;
    f[threadIdx.x] = h + 4;
}
launch k<8> { out = zeros(2); f = zeros(2); expect out == 7; expect f == 4.5; }
"#;
    let r = ok(src, &[], [1, 1, 1], [2, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_defaulted_type_parameter_may_name_a_file_alias() {
    // ginkgo's `template <typename IndexType = size_type>` with `using size_type =
    // std::size_t;`: the default is what the alias names, here a 64-bit unsigned, so the flat
    // index of block 1, thread 3 of 32-thread blocks is 35, and sizeof(IndexType) is 8.
    let src = r#"
using size_type = unsigned long;
template <typename IndexType = size_type>
__device__ IndexType flat_id() { return threadIdx.x + static_cast<IndexType>(blockDim.x) * blockIdx.x; }
__global__ void k(int* a) { a[flat_id()] = flat_id() * 10 + sizeof(flat_id()); }
launch k { a = zeros(64); expect a == arange(64) * 10 + 8; }
"#;
    assert!(ok(src, &[], [2, 1, 1], [32, 1, 1]).expects_passed());
}

#[test]
fn iterator_traits_of_a_pointer_name_its_value_and_difference_types() {
    // cusp's kernels take iterators and recover their types: for `It = const float*`,
    // value_type is float (T(2) is 2.0f, so min(2, a[i])), difference_type is 64-bit.
    let src = r#"
#include <iterator>
template <typename It>
__global__ void k(const It a, float* o, long long* d, int n) {
    typedef typename ::cuda::std::iterator_traits<It>::value_type T;
    typedef typename std::iterator_traits<It>::difference_type D;
    int i = threadIdx.x;
    if (i < n) { o[i] = min(T(2.5f), a[i]); d[i] = sizeof(D) * 10 + sizeof(T); }
}
launch k<const float*> { n = 8; a = arange(n); o = zeros(n); d = zeros(n);
    expect o == [0, 1, 2, 2.5, 2.5, 2.5, 2.5, 2.5]; expect d == full(n, 84); }
"#;
    assert!(ok(src, &[], ONE, [8, 1, 1]).expects_passed());
}

#[test]
fn a_default_argument_names_the_templates_parameters() {
    // `T x = T()` and `T b = T(N)` are read with T (and N) bound, not in the caller's scope:
    // Box<float>().v is 0, scale(2) is 2 * 4, scale<float, 3>(1) is 1 * 3: 0 + 1 + 8 + 3 = 12.
    let src = r#"
template <typename T> struct Box { T v; __device__ Box(T x = T()) : v(x) {} };
template <typename T, int N = 4> __device__ T scale(T a, T b = T(N)) { return a * b; }
__global__ void k(float* out) { Box<float> b; out[threadIdx.x] = b.v + 1 + scale(2.0f) + scale<float, 3>(1.0f); }
launch k { out = zeros(2); expect out == 12; }
"#;
    assert!(ok(src, &[], ONE, [2, 1, 1]).expects_passed());
}

#[test]
fn a_type_parameter_deduced_as_a_pointer_returns_a_pointer() {
    // GenomeWorks' `template <class It, class V> It lower_bound(It, It, V)` given
    // `const uint64_t*`, and `T ident(T)` given `t + 1` or `ident<const u64*>(t)`: It and T
    // are pointers, so the calls are. With t = 0, 2, …, 14 the first element ≥ 3·x is at
    // 0, 2, 3, 5 for x = 0..3; *ident(t + 1) + ident(t)[2] = 2 + 4 = 6.
    let src = r#"
template <typename It, typename V>
__device__ It lower_bound(It lo, It hi, V v) {
  while (lo < hi) { It mid = lo + (hi - lo) / 2; if (*mid < v) lo = mid + 1; else hi = mid; }
  return lo;
}
template <typename T> __device__ T ident(T x) { return x; }
__global__ void k(int* out, const unsigned long long* t) {
    auto p = lower_bound(t, t + 8, (unsigned long long)threadIdx.x * 3);
    out[threadIdx.x] = p - t;
    out[threadIdx.x + 4] = *ident(t + 1) + ident<const unsigned long long*>(t)[2];
}
launch k { t = [0, 2, 4, 6, 8, 10, 12, 14]; out = zeros(8); expect out == [0, 2, 3, 5, 6, 6, 6, 6]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn a_cstdint_type_named_with_std_is_a_template_argument() {
    // NWQ-Sim's `std::array<std::uint32_t, N>`: `std::uint32_t`, read as a bare name in the
    // argument list, is <cstdint>'s uint32_t, in a class template of the file's and of simt's
    // <array> alike. q[1] + b.v = 3 + 2.
    let src = r#"
#include <array>
#include <cstdint>
template <typename T> struct Box { T v; };
__global__ void k(unsigned* out) {
  std::array<std::uint32_t, 4> q{}; q[1] = 3;
  Box<std::uint32_t> b; b.v = 2;
  out[threadIdx.x] = q[1] + b.v + (sizeof(Box<std::uint64_t>) == 8);
}
launch k { out = zeros(4); expect out == 6; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [4, 1, 1]).expects_passed());
}

#[test]
fn const_on_a_type_parameter_bound_to_a_pointer_is_the_pointers() {
    // CUDASW4's `OutIter const out` with OutIter = float*: `float* const`, a constant pointer to
    // writable floats (and `const T` the same), so out[t] = in[t] + 1 is allowed. A `const T*`
    // with T = float stays a pointer to const floats, and writing through it is refused.
    let src = r#"
template <class OutIter, class Other>
__global__ void k(OutIter const out, const Other other, const float* in) {
    out[threadIdx.x] = in[threadIdx.x] + 1.0f;
    other[threadIdx.x] = 2.0f;
}
launch k<float*, float*> { in = arange(4); out = zeros(4); other = zeros(4);
    expect out == arange(4) + 1; expect other == 2; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    let through_const = r#"
template <class T>
__global__ void k(const T* out) { out[threadIdx.x] = 1.0f; }
launch k<float> { out = zeros(4); }
"#;
    let f = err(through_const, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::not_assignable"],
        "{}",
        describe(&f)
    );
}

#[test]
fn a_class_s_member_type_names_a_template_argument() {
    // `cx<typename prom<T0, T1>::type>`: the member type of prom's instance, chosen by its
    // specialisation: prom<float, double>::type is double, prom<double, int>::type double,
    // prom<float, int>::type float. 7 / 2 in each: 3.5 (a double or a float).
    let src = r#"
template <typename T> struct cx { T re; __device__ cx(T r = 0) : re(r) {} };
template <typename A, typename B> struct prom { typedef A type; };
template <> struct prom<float, double> { typedef double type; };
template <typename T0, typename T1>
__device__ cx<typename prom<T0, T1>::type> div(const cx<T0>& x, const T1& y) {
    return cx<typename prom<T0, T1>::type>(x.re / y);
}
__global__ void k(double* d, float* f) {
    cx<float> a(7.0f);
    cx<double> b(7.0);
    cx<double> p = div(a, 2.0);
    cx<double> q = div(b, 2);
    cx<float> r = div(a, 2);
    d[0] = p.re; d[1] = q.re; f[0] = r.re;
}
launch k { d = zeros(2); f = zeros(1); expect d == [3.5, 3.5]; expect f == [3.5]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_cast_argument_deduces_the_type_it_casts_to() {
    // bm3d's block matching: `L2p2((int)s_image_p[..], (int)image[..])` of unsigned chars. The
    // cast compiles to nothing (an unsigned char already sits in an int register), but T is
    // int, so (137 - 121)^2 = 256 and (200 - 0)^2 = 40000; deduced as unsigned char, 16 * 16
    // wraps to 0 and 200 * 200 = 40000 to 64. Also `static_cast<int>`, `int(x)` and `int{x}`;
    // the shorts 300 and 0 deduce int too (90000, which a short would wrap).
    let src = r#"
template<typename T>
__device__ T sq(const T i1, const T i2) { T d = i1 - i2; return d * d; }
__global__ void k(const unsigned char* a, const unsigned char* b, const short* c, unsigned int* out) {
    int i = threadIdx.x;
    unsigned char x = a[i], y = b[i];
    out[i] = sq(static_cast<int>(a[i]), static_cast<int>(b[i]));
    out[2 + i] = sq((int)x, (int)y);
    out[4 + i] = sq(int(x), int(y));
    out[6 + i] = sq(int{x}, int{y});
    out[8 + i] = sq((int)c[i], (int)c[i + 2]);
}
launch k {
    a = [137, 200]; b = [121, 0]; c = [300, 0, 0, 200]; out = zeros(10); grid = 1; block = 2;
    expect out == [256, 40000, 256, 40000, 256, 40000, 256, 40000, 90000, 40000];
}
"#;
    let r = ok(src, &[], ONE, [2, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_partial_specialisation_for_a_qualified_class_template_is_chosen() {
    // SUNDIALS' `template <typename T> struct atomic<sundials::reductions::impl::plus<T>>`,
    // reached through `using op = sundials::reductions::impl::plus<T>;` inside the namespace
    // (and through the launch's own qualified name): T = float, so the 64 lanes' atomicAdd
    // of 1.0 sums to 64. The pattern's default argument (`Arg1 = Ret`) does not get in the way.
    let src = r#"
namespace red { namespace impl {
template <typename Ret, typename Arg1 = Ret>
struct plus { __device__ Ret operator()(const Arg1& a, const Arg1& b) const { return a + b; } };
} }
namespace cu {
template <typename Op> struct atomic;
template <typename T>
struct atomic<red::impl::plus<T>> {
    __device__ void operator()(T* out, const T val) { atomicAdd(out, val); }
};
template <typename T, typename Op>
__global__ void k(const T* x, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomic<Op>{}(out, x[i]);
}
template <typename T>
__global__ void via_alias(const T* x, T* out, int n) {
    using op = red::impl::plus<T>;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomic<op>{}(out, x[i]);
}
}
launch k<float, red::impl::plus<float>> {
    n = 64; x = ones(n); out = zeros(1); block = 64; grid = 1; expect out == 64;
}
launch via_alias<float> {
    n = 64; x = ones(n); out = zeros(1); block = 64; grid = 1; expect out == 64;
}
"#;
    let (code, out, err) = {
        let dir = std::env::temp_dir().join(format!("simt-qualified-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let path = dir.join("spec.sk");
        std::fs::write(&path, src).expect("write");
        simt(&["test", path.to_str().expect("utf-8")])
    };
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}

#[test]
fn an_explicit_specialisation_without_device_takes_its_templates_space() {
    // gnina's `template<typename T> T __device__ __host__ zero(void);` specialised as
    // `template<> float zero(void)` and as `template<> int zero<int>(void)`, neither marked
    // `__device__`: each is the template's (clang's CUDA front end gives a specialisation the
    // template's execution space). zero<float>() + 1 = 1 and zero<int>() + 2 = 9 + 2 = 11.
    let src = r#"
template<typename T> T __device__ __host__ zero(void);
template<> float zero(void) {
  return 0;
}
template<> int zero<int>(void) { return 9; }
__global__ void k(float *o) { o[0] = zero<float>() + 1.0f; o[1] = zero<int>() + 2; }
launch k { o = zeros(2); expect o == [1, 11]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [1, 1, 1]).expects_passed());
    // A host template of the name in another namespace keeps its own specialisation: the
    // device template's zero<float>() is still T(1) = 1.
    let both = r#"
template <class T> __device__ T zero() { return T(1); }
namespace host { template <class T> T zero() { return T(2); }
                 template <> float zero<float>() { return 5.0f; } }
__global__ void k(float* out) { out[0] = zero<float>(); }
launch k { out = zeros(1); expect out == [1]; }
"#;
    assert!(ok(both, &[], [1, 1, 1], [1, 1, 1]).expects_passed());
    // A specialisation of a host template is host code: a kernel calling it is told so.
    let host = r#"
template<typename T> T host_zero(void);
template<> float host_zero<float>(void) { return 0; }
__global__ void k(float *o) { o[0] = host_zero<float>(); }
launch k { o = zeros(1); }
"#;
    let f = err(host, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(
        common::describe(&f).contains("host"),
        "{}",
        common::describe(&f)
    );
}

#[test]
fn a_parameter_is_deduced_from_an_explicit_specialisations_instance() {
    // `get(v)` of a `V<float>`, where `V<float>` is an explicit specialisation (SOFA's
    // `template <> class CudaVec3<float>`): `real` is float, read from the arguments written
    // after its name; a partial specialisation's own parameters are put in place (`A<int, 4>`
    // of `template <class T> struct A<T, 4>`: T = int, N = 4, so size() = 4 * sizeof(int)).
    let src = r#"
template<class real> class V;
template<> class V<float> { public: float x; };
template<class real> __device__ real get(const V<real>& a) { return a.x; }
template<class T, int N> struct A { T v[N]; };
template<class T> struct A<T, 4> { T v[4]; T extra; };
template<class T, int N> __device__ int size(const A<T, N>& a) { return N * sizeof(T); }
__global__ void k(float* o, int* s) {
    V<float> v; v.x = 3.0f; o[0] = get(v);
    A<int, 4> a; s[0] = size(a);
}
launch k { o = zeros(1); s = zeros(1); expect o == [3]; expect s == [16]; }
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn a_launch_names_a_member_type_of_a_class_instance() {
    // FlexSpmv launches `k<merged::Policy600<float>::SpmvPolicyT>`, CUB's tuning-policy idiom:
    // the typedef of the instance is `AgentPolicy<128, 7>` (sizeof(float) is 4, not > 4), so
    // TILE_ITEMS = 128 * 7 = 896; for `double` it is 64 * 7 = 448.
    let src = r#"
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD>
struct AgentPolicy {
    enum { BLOCK_THREADS = _BLOCK_THREADS, ITEMS_PER_THREAD = _ITEMS_PER_THREAD };
};
template <typename ValueT>
struct Policy600 {
    typedef AgentPolicy<(sizeof(ValueT) > 4) ? 64 : 128, 7> SpmvPolicyT;
};
template <typename PolicyT>
__global__ void k(int* out)
{
    enum { TILE_ITEMS = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD };
    out[threadIdx.x] = TILE_ITEMS;
}
launch k<Policy600<float>::SpmvPolicyT> { out = zeros(4); grid = 1; block = 4; expect out == 896; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let src = src.replace("<float>", "<double>").replace("896", "448");
    ok(&src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_template_argument_names_the_constant_in_scope() {
    // A call's template argument `N` or `BLOCK` is the local `constexpr` or the class's enum,
    // not the file's constant of that name (a review found both replaced by the file's).
    let src = r#"
const int N = 4;
enum { BLOCK = 32 };
template <int K> __device__ int f() { return K; }
template <typename T> struct P {
    enum { BLOCK = 64 };
    __device__ int m() const { return f<BLOCK>(); }
};
template <typename T> __global__ void k(T* out) {
    constexpr int N = 8;
    out[0] = f<N>();
    out[1] = P<T>().m();
}
launch k<int> { grid = 1; block = 1; out = zeros(2); expect out == [8, 64]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_member_template_of_a_value_specialisation_is_specialised() {
    // DGL's selector.h: `template <> template <typename T> T Selector<2>::Call(...)` for a
    // class template over `int target`. Selector<2>::Call takes dst (3i); Selector<0> keeps
    // the primary's (src, i) and its other members still see `target` (0 here, 2 in the
    // specialisation): out = 3i + 2 + i + 0 = 4i + 2.
    let src = r#"
template <int target>
struct Selector {
  template <typename T>
  static __device__ __forceinline__ T Call(T src, T edge, T dst) { return src; }
  static __device__ int which() { return target; }
};
template <>
template <typename T>
__device__ __forceinline__ T Selector<2>::Call(T src, T edge, T dst) { return dst; }
__global__ void k(const int* a, const int* b, int* out) {
  int i = threadIdx.x;
  out[i] = Selector<2>::Call(a[i], i, b[i]) + Selector<2>::which()
      + Selector<0>::Call(a[i], i, b[i]) + Selector<0>::which();
}
launch k { a = arange(8); b = arange(8) * 3; out = zeros(8); expect out == 4 * arange(8) + 2; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}
