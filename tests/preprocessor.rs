//! The preprocessor through whole kernels: C's token substitution, conditionals, and
//! diagnostics that point into the file as written.

use crate::common;
use common::{codes, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn a_define_is_tokens_not_a_value() {
    // C substitutes tokens: `K * 2` is `3 + 4 * 2` = 3 + 8 = 11, not (3 + 4) * 2 = 14.
    let src = r#"
#define K 3 + 4
__global__ void k(int* out) { out[0] = K * 2; }
launch k { out = zeros(1); expect out == [11]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn function_like_macros_and_a_macro_for_a_type() {
    // IMUL(3, 5) = 15; SQUARE(x + 1) with x = 2 is ((2 + 1) * (2 + 1)) = 9; MAX(4, 9) = 9;
    // a self-referential `sqrtf(x)` expands once: sqrtf((float)(16)) = 4.
    let src = r#"
#define IMUL(a, b) __mul24(a, b)
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define DATA_TYPE float
#define sqrtf(x) sqrtf((float)(x))
__global__ void k(int* out, DATA_TYPE* f) {
    int x = 2;
    out[0] = IMUL(3, 5);
    out[1] = SQUARE(x + 1);
    out[2] = MAX(4, 9);
    DATA_TYPE r = sqrtf(16);
    f[0] = r;
}
launch k { out = zeros(3); f = zeros(1); expect out == [15, 9, 9]; expect f == [4.0]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn paste_and_variadic_macros() {
    // `v ## 1` is the local `v1` (= 20); SUM(1, 2, 3) = 1 + ((2) + (3)) = 6.
    let src = r#"
#define FIELD(n) v ## n
#define SUM(first, ...) (first + add(__VA_ARGS__))
#define add(a, b) ((a) + (b))
__global__ void k(int* out) {
    int v0 = 10, v1 = 20;
    out[0] = FIELD(1);
    out[1] = SUM(1, 2, 3);
    out[2] = FIELD(0) + FIELD(1);
}
launch k { out = zeros(3); expect out == [20, 6, 30]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn conditionals_choose_the_code() {
    // __CUDA_ARCH__ is 900: the sm_80+ branch; FAST is defined but then #undef'd.
    let src = r#"
#include <cuda_runtime.h>
#include "helper_cuda.h"
#define FAST
#undef FAST
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 800
#define PATH 80
#elif __CUDA_ARCH__ >= 700
#define PATH 70
#else
#error old GPU
#endif
__global__ void k(int* out) {
#ifdef FAST
    out[0] = -1;
#else
    out[0] = PATH;
#endif
#if __cplusplus >= 201103L
    out[1] = 1;
#endif
}
launch k { out = zeros(2); expect out == [80, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn cudart_version_is_the_runtime_of_nvcc_12_4() {
    // FasterTransformer's activation kernels stop on `#ifndef CUDART_VERSION`; nvcc's
    // cuda_runtime_api.h (12.4) defines it as 12 * 1000 + 4 * 10 = 12040, so the `>= 11000`
    // branch (bf16 enabled) is the one compiled: out = [12040, 1].
    let src = r#"
#ifndef CUDART_VERSION
#error CUDART_VERSION Undefined!
#endif
__global__ void k(int* out) {
    out[0] = CUDART_VERSION;
#if CUDART_VERSION >= 11000
    out[1] = 1;
#else
    out[1] = 2;
#endif
}
launch k { out = zeros(2); expect out == [12040, 1]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn pragma_unroll_and_macros_in_the_launch_section() {
    // 0 + 1 + 2 + 3 = 6 in every one of the N = 8 threads.
    let src = r#"
#define N 8
#define STEPS 4
__global__ void k(int* out) {
    int s = 0;
    #pragma unroll
    for (int i = 0; i < STEPS; i++) s += i;
    out[threadIdx.x] = s;
}
launch k { out = zeros(N); grid = 1; block = N; expect out == [6, 6, 6, 6, 6, 6, 6, 6]; }
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects_passed());
}

#[test]
fn file_constants_are_names_of_the_launch_section() {
    // olcf's `const size_t N = 8ULL*1024ULL*1024ULL;`: a launch section uses a file's constant
    // as it uses a `#define`d name. N = 33·4 = 132 threads store SCALE·i = i / 2.
    let src = r#"
const int N = 33 * 4;
const float SCALE = 0.5f;
__global__ void k(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = SCALE * i;
}
launch k { a = zeros(N); n = N; grid = (N + 31) / 32; block = 32; expect a == SCALE * arange(N); }
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects_passed());
    assert_eq!(r.launch.grid, [5, 1, 1]);
    // A parameter of the constant's name is the launch's to set: left unset, it is missing,
    // not silently the file's 8.
    let shadowed = r#"
const int N = 8;
__global__ void k(float* a, int N) { a[threadIdx.x] = N; }
launch k { a = zeros(4); grid = 1; block = 4; }
"#;
    let f = err(shadowed, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::missing_argument"]);
}

#[test]
fn continued_lines_with_crlf() {
    // A `\` at the end of a CRLF line continues the `#define` and a statement: (1 + 2) * 3 = 9.
    let src = "#define SUM(a, b) \\\r\n    ((a) + \\\r\n     (b))\r\n\
               __global__ void k(int* out) {\r\n    out[0] = SUM(1, 2) \\\r\n * 3;\r\n}\r\n\
               launch k { out = zeros(1); expect out == [9]; }\r\n";
    ok(src, &[], ONE, ONE);
    // A mistake after the continued lines is found on its own line and column.
    let bad = src.replace("* 3;", "* nope;");
    let f = err(&bad, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    assert_eq!(position(&f), (6, 4));
}

#[test]
fn a_mistake_inside_an_expansion_points_at_the_use() {
    // The body's unknown name: the use of BAD on line 3.
    let src = "#define BAD (nope + 1)\n\
               __global__ void k(int* out) {\n    out[0] = BAD;\n}\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    assert_eq!(position(&f), (3, 14));
    // A name passed as an argument: its own text inside the use (`nope` at column 20)…
    let src = "#define PLUS1(x) x + 1\n\
               __global__ void k(int* out) {\n    out[0] = PLUS1(nope);\n}\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    assert_eq!(position(&f), (3, 20));
    // …unless the body wraps it in parentheses, which make an expression of the body's own.
    let f = err(&src.replace("x + 1", "(x) + 1"), &[], Some(ONE), Some(ONE));
    assert_eq!(position(&f), (3, 14));
    // A syntax error inside a body: the use, and the token in the `#define` (`]`, 1:19).
    let src = "#define BROKEN (1 ]\n\
               __global__ void k(int* out) {\n    out[0] = BROKEN;\n}\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::parse::syntax"]);
    assert_eq!(position(&f), (3, 14));
    assert_eq!(labels(&f), [(3, 14), (1, 19)]);
    // Just after an expansion that left an operator dangling: the `;` after the use, and the
    // last token the macro wrote (`+`, 1:13).
    let src = "#define N 4 +\n__global__ void k(float* a) { a[0] = N; }\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(labels(&f), [(2, 39), (1, 13)]);
    assert!(simt::cli::render(&f).contains("from this macro"));
    // A syntax error in the file's own text has no macro label.
    let f = err(
        "__global__ void k(int* out) { out[0] = ; }\n",
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(labels(&f).len(), 1);
}

/// Line and column of every label of the first diagnostic.
fn labels(f: &simt::pipeline::Failure) -> Vec<(usize, usize)> {
    use miette::Diagnostic;
    let e = &f.errors[0];
    let src = e.source_code().expect("diagnostic has a source");
    e.labels()
        .into_iter()
        .flatten()
        .map(|l| {
            let c = src.read_span(l.inner(), 0, 0).expect("span readable");
            (c.line() + 1, c.column() + 1)
        })
        .collect()
}

#[test]
fn a_scoped_name_a_macro_writes_stays_one_name() {
    // pytorch_scatter's ATOMIC(NAME) writes `template <> struct Atomic##NAME##Impl<at::Half, 2>`:
    // the `at::Half` a macro writes is the name `at::Half` (half), as nvcc reads it, not `at`
    // then `::Half`. W(Add)'s specialisation for at::Half returns v + 1; A(x) writes `::` after a name
    // too. out = [1 + 1, 3].
    let src = r#"
#define W(NAME) \
  template <typename scalar, int size> struct A##NAME##Impl; \
  template <> struct A##NAME##Impl<at::Half, 2> { \
    __device__ float operator()(at::Half v) { return (float)v + 1.0f; } \
  };
W(Add)
#define T(ns) ns::Half
__global__ void k(float* out) {
    AAddImpl<at::Half, 2> op;
    out[0] = op(1.0f);
    T(c10) h = 3.0f;
    out[1] = h;
}
launch k { out = zeros(2); expect out == [2, 3]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn pragma_operator_written_directly_or_by_a_macro() {
    // `_Pragma("unroll")` is `#pragma unroll` (C99 6.10.9, C++11 [cpp.pragma.op]): no effect
    // on the result. The loops store 0..3, then add 10 to the first two.
    let src = r#"
#define UNROLL _Pragma("unroll")
_Pragma("once")
__global__ void k(int* o) {
    UNROLL for (int i = 0; i < 4; ++i) o[i] = i;
    _Pragma("unroll 2") for (int i = 0; i < 2; ++i) o[i] += 10;
}
launch k { o = zeros(4); expect o == [10, 11, 2, 3]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn execution_spaces_are_macros_as_nvccs_host_defines_make_them() {
    // faiss's StaticUtils.h: `#ifndef __host__` defines `__host__`/`__device__` as nothing for
    // non-CUDA compilers. nvcc's crt/host_defines.h has defined both, so the block is skipped and
    // `twice` stays a device function: p = 2 * [0, 1, 2, 3] = [0, 2, 4, 6]. Every keyword the
    // header defines is a macro (all = 1); `__restrict__` is GCC's keyword, no macro (restrict = 0).
    let src = r#"
#ifndef __host__
#define __host__
#define __device__
#endif
#if defined(__global__) && defined(__shared__) && defined(__constant__) && defined(__forceinline__) \
    && defined(__noinline__) && defined(__launch_bounds__) && defined(__align__) && defined(__managed__)
#define ALL 1
#else
#define ALL 0
#endif
#ifdef __restrict__
#define RESTRICT 1
#else
#define RESTRICT 0
#endif
__device__ inline float twice(float v) { return 2 * v; }
__global__ void __launch_bounds__(256) k(float* p, int* f) {
    p[threadIdx.x] = twice(p[threadIdx.x]);
    f[0] = ALL;
    f[1] = RESTRICT;
}
launch k { p = arange(4); f = zeros(2); block = 4; grid = 1; expect p == [0, 2, 4, 6]; expect f == [1, 0]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn cs_alternative_tokens_are_their_operators() {
    // `and or not not_eq bitand bitor xor compl` are `&& || ! != & | ^ ~`, in code and in `#if`.
    // Thread i of 8: out[i] = (i < 6 and not (i == 3) or i == 7) + 10 * ((i bitand 1) xor 1)
    // + 100 * (i not_eq 4): i = 0 gives 1 + 10 + 100 = 111; 3: 0 + 0 + 100; 4: 1 + 10 + 0;
    // 7: 1 + 0 + 100; 6: 0 + 10 + 100.
    let src = r#"
#if 1 and not 0
#define GOOD 1
#endif
__global__ void k(int* out) {
    int i = threadIdx.x;
    int v = (i < 6 and not (i == 3) or i == 7) + 10 * ((i bitand 1) xor 1) + 100 * (i not_eq 4);
    out[i] = GOOD ? v : -1;
}
launch k { out = zeros(8); expect out == [111, 101, 111, 100, 11, 101, 110, 101]; }
"#;
    common::ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn a_macro_expanding_to_a_template_ids_static_member_call() {
    // DGL's atomic.cuh: DEFINE_ATOMIC(NAME) expands to a body calling Cast<T>::Encode(...); the
    // expansion spaces its tokens (`Cast < int > :: Twice`), which names the same member.
    let src = r#"
template <typename T> struct Cast {
    static __device__ __forceinline__ T Twice(T v) { return v * 2; }
};
#define TWICE(x) Cast<int>::Twice(x)
__global__ void k(int* out) { out[threadIdx.x] = TWICE(threadIdx.x * 1) + Cast < int > :: Twice(1); }
launch k { out = zeros(4); expect out == [2, 4, 6, 8]; }
"#;
    // 2t + 2 for t = 0..3.
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn an_extern_declaration_of_a_cuda_builtin_declares_nothing_new() {
    // ccminer's cuda_helper.h declares `extern __device__ __device_builtin__ void
    // __syncthreads(void);` as device_functions.h does; the builtin still runs as itself.
    let src = r#"
extern __device__ __device_builtin__ void __syncthreads(void);
extern __device__ int twice(int x);
__device__ int twice(int x) { return 2 * x; }
__global__ void k(int* out) {
    __shared__ int s[4];
    s[threadIdx.x] = twice(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[3 - threadIdx.x];
}
launch k { out = zeros(4); expect out == [6, 4, 2, 0]; }
"#;
    // s = 0, 2, 4, 6; each thread reads the mirror element after the barrier.
    let r = ok(src, &[], ONE, [4, 1, 1]);
    assert_eq!(r.counters.barriers, 1);
}

#[test]
fn a_pragma_before_an_unbraced_body_annotates_that_body() {
    // StyleGAN's upfirdn2d: `for (...) #pragma unroll for (...) v += ...;`. The inner loop is
    // the outer loop's body: 2 × 3 = 6 additions, not 3 once after the outer loop. By hand:
    // n = 6; v = (0 + 1 + 2) + (10 + 11 + 12) = 36; the `if` whose condition is false skips
    // its pragma'd loop (m stays 0), and a `while` body after `_Pragma` runs 4 times (w = 4).
    let src = r#"
__global__ void k(int* out) {
    int n = 0, v = 0, m = 0, w = 0;
    for (int y = 0; y < 2; y++)
        #pragma unroll
        for (int x = 0; x < 3; x++) { n += 1; v += y * 10 + x; }
    if (threadIdx.x == 7)
        #pragma unroll
        for (int x = 0; x < 3; x++) m += 1;
    while (w < 4)
        _Pragma("unroll")
        w++;
    out[0] = n; out[1] = v; out[2] = m; out[3] = w;
    #pragma unroll
}
launch k { out = zeros(4); block = 1; grid = 1; expect out == [6, 36, 0, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// Writes `files` (name, text) into a fresh folder and runs `simt ARGS` on the first one there.
fn in_folder(tag: &str, files: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("simt-include-{}-{tag}", std::process::id()));
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        std::fs::write(path, text).expect("written");
    }
    let main = dir.join(files[0].0);
    let mut all: Vec<&str> = args.to_vec();
    all.push(main.to_str().expect("utf-8 path"));
    let out = common::simt(&all);
    std::fs::remove_dir_all(&dir).expect("removed");
    out
}

#[test]
fn a_local_header_is_read_beside_the_file() {
    // ccminer's kernels start with `#include "cuda_helper.h"`: the header beside the file is
    // preprocessed in place, its macros kept, its own `#include` read beside it
    // (`util/ops.cuh`), include-guarded or not it is read once, and a built-in header name
    // (`helper_math.h`) stays simt's. out = FOO (5) + bar() (3) + twice(2) (4) = 12, then
    // make_float2 + float2 from helper_math.h: 1.5 + 2.5 = 4.
    let main = r#"
#include "cuda_helper.h"
#include "cuda_helper.h"
#include "helper_math.h"
__global__ void k(int* o, float* f) {
    o[0] = FOO + bar() + twice(2);
    float2 s = make_float2(1.5f, 0.f) + make_float2(2.5f, 0.f);
    f[0] = s.x;
}
launch k { o = zeros(1); f = zeros(1); grid = 1; block = 1; expect o == [12]; expect f == [4]; }
"#;
    // `util/ops.cuh` is included with angle brackets, as a project whose build gives `-I` its
    // tree's root writes it (gpu-voxels' `<gpu_voxels/helpers/cuda_datatypes.h>`): it was
    // dropped without a word.
    let helper = "#ifndef CUDA_HELPER_H\n#define CUDA_HELPER_H\n#include <util/ops.cuh>\n#define FOO 5\n__device__ int bar() { return 3; }\n#endif\n";
    let ops = "__device__ int twice(int x) { return 2 * x; }\n";
    let (code, out, err) = in_folder(
        "ok",
        &[
            ("main.cu", main),
            ("cuda_helper.h", helper),
            ("util/ops.cuh", ops),
        ],
        &["test"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 passed"), "{out}");
}

#[test]
fn a_mistake_in_a_local_header_points_at_its_include_line() {
    // The header's text is not in the report's source, so a diagnostic about it points at
    // the `#include` line: an unknown name in the header's function, and a directive error
    // that names the header.
    let main = "#include \"broken.h\"\n__global__ void k(int* o) { o[0] = bar(); }\nlaunch k { o = zeros(1); grid = 1; block = 1; }\n";
    let broken = "__device__ int bar() { return NOPE; }\n";
    let (code, out, err) = in_folder(
        "name",
        &[("main.cu", main), ("broken.h", broken)],
        &["check"],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("unknown name `NOPE`"), "{err}");
    assert!(err.contains("1 │ #include \"broken.h\""), "{err}");
    let bad = "#if\n#endif\n";
    let (code, _, err) = in_folder(
        "directive",
        &[("main.cu", main), ("broken.h", bad)],
        &["check"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in `broken.h`"), "{err}");
}

#[test]
fn an_unknown_name_after_a_missing_local_header_says_where_to_put_it() {
    // `cuda_helper.h` is not beside the file: the unknown name's help names it (and not
    // `cuda_runtime.h`, a toolkit header simt's built-ins stand for).
    let main = "#include \"cuda_runtime.h\"\n#include \"cuda_helper.h\"\n__global__ void k(int* o) { o[0] = FOO; }\nlaunch k { o = zeros(1); grid = 1; block = 1; }\n";
    let (code, _, err) = in_folder("missing", &[("main.cu", main)], &["check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown name `FOO`"), "{err}");
    assert!(
        err.contains("`cuda_helper.h` is not beside the file"),
        "{err}"
    );
    assert!(!err.contains("`cuda_runtime.h`"), "{err}");
}

#[test]
fn one_header_under_two_spellings_is_read_once() {
    // `common.h` and, from `sub/x.h`, `../common.h` are one file: read once, so `one` is
    // declared once. out = one() + two() = 1 + 2 = 3.
    let main = "#include \"common.h\"\n#include \"sub/x.h\"\n__global__ void k(int* out) { out[threadIdx.x] = one() + two(); }\nlaunch k { out = zeros(2); grid = 1; block = 2; expect out == [3, 3]; }\n";
    let common = "#pragma once\n__device__ int one() { return 1; }\n";
    let x = "#pragma once\n#include \"../common.h\"\n__device__ int two() { return one() + 1; }\n";
    let (code, out, err) = in_folder(
        "spellings",
        &[("main.cu", main), ("common.h", common), ("sub/x.h", x)],
        &["test"],
    );
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_header_may_declare_one_template_and_define_another() {
    // zfp's type_info.cuh: `get_ebias` declared without a body and specialised, then `is_int`
    // defined. Every token of the header has the `#include` line's span, so the definition was
    // taken for the declaration: "declared but never defined". is_int<float>() is false: 2.
    let main = "#include \"type_info.cuh\"\ntemplate <class S> __global__ void k(int* o) { o[threadIdx.x] = (is_int<S>() ? 1 : 2) + get_ebias<S>(); }\nlaunch k<float> { o = zeros(4); grid = 1; block = 4; expect o == full(4, 129); }\n";
    let header = "template<typename T> inline __host__ __device__ int get_ebias();\ntemplate<> inline __host__ __device__ int get_ebias<float>() { return 127; }\n\ntemplate<typename T> inline __host__ __device__ bool is_int()\n{\n  return false;\n}\n";
    let (code, out, err) = in_folder(
        "decl",
        &[("main.cu", main), ("type_info.cuh", header)],
        &["test"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 passed"), "{out}");
}

#[test]
fn stdint_constant_macros_paste_their_suffix() {
    // glibc's `#define INT64_C(c) c ## L` and `UINT32_C(c) c ## U` (heavydb's
    // `INT64_C(9223372036854775807)`): 1L << 40 = 1099511627776; 4000000000U stays unsigned;
    // INT32_C(-5) is -5; sizeof(1UL) = 8, sizeof(1U) = 4; 0xFFFFFFFFFFFFFFFFUL == ~0ull;
    // INTMAX_C and UINTMAX_C are long (8 bytes each), UINT8_C and INT16_C plain int (4): 24.
    let src = r#"
#include <cstdint>
__global__ void k(long long* o) {
  auto a = INT64_C(1) << 40; auto b = UINT32_C(4000000000); auto c = INT32_C(-5);
  o[0] = a; o[1] = b; o[2] = c; o[3] = sizeof(UINT64_C(1)); o[4] = sizeof(UINT32_C(1));
  o[5] = UINT64_C(0xFFFFFFFFFFFFFFFF) == ~0ull;
  o[6] = INT64_C(9223372036854775807);
  o[7] = sizeof(INTMAX_C(1)) + sizeof(UINTMAX_C(1)) + sizeof(UINT8_C(1)) + sizeof(INT16_C(1));
}
launch k { o = zeros(8); expect o == [1099511627776, 4000000000, -5, 8, 4, 1, 9223372036854775807, 24]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [1, 1, 1]).expects_passed());
}

#[test]
fn the_host_compilers_macros_are_predefined_as_nvcc_sees_them() {
    // nvcc preprocesses device code with g++, so PhysX's PxPreprocessor.h takes its GCC,
    // Linux and x86-64 branches (else `#error "Unknown compiler"`): g++ 11.4's values.
    let src = r#"
#if !defined(__GNUC__) || !defined(__linux__) || !defined(__x86_64__)
#error "Unknown compiler"
#endif
#if __SIZEOF_POINTER__ == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__LP64__)
#define WORD 8
#endif
__global__ void k(int* out) { out[0] = __GNUC__ * 100 + __GNUC_MINOR__ * 10 + WORD; }
launch k { out = zeros(1); grid = 1; block = 1; expect out == [1148]; }
"#;
    common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// A project's own helper_math.h at the path it includes (`"libs/cuda/helper_math.h"` beside
/// the file) is read, not simt's: its `sum3` is the project's. sum3((1, 2, 3)) = 6.
#[test]
fn a_projects_own_helper_math_beside_the_file_is_read() {
    let main = "#include \"libs/cuda/helper_math.h\"\n__global__ void k(float* o) { o[0] = sum3(make_float3(1.0f, 2.0f, 3.0f)); }\nlaunch k { o = zeros(1); grid = 1; block = 1; expect o == [6]; }\n";
    let own = "#ifndef HELPER_MATH_H\n#define HELPER_MATH_H\n__device__ float sum3(float3 v) { return v.x + v.y + v.z; }\n#endif\n";
    let (code, out, err) = in_folder(
        "alias",
        &[("main.cu", main), ("libs/cuda/helper_math.h", own)],
        &["test"],
    );
    assert_eq!(code, 0, "{out}{err}");
}
