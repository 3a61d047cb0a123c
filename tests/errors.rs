//! Every class of bad input ends in a diagnostic with a stable code, a span and an exit status.

use crate::common;
use common::{codes, describe, err, position};

const ONE: Option<[u32; 3]> = Some([1, 1, 1]);
const B32: Option<[u32; 3]> = Some([32, 1, 1]);

fn check_err(src: &str) -> simt::pipeline::Failure {
    match simt::pipeline::compile(&simt::source::SourceFile::new("test.sk", src)) {
        Ok(_) => panic!("compiled unexpectedly"),
        Err(f) => f,
    }
}

#[test]
fn syntax_errors_point_at_the_token() {
    let f = check_err("__global__ void k(float* a) {\n    a[0] = 1.0f +;\n}\n");
    assert_eq!(codes(&f), ["simt::parse::syntax"]);
    assert_eq!(position(&f), (2, 18));
    assert_eq!(f.exit, 2);
    // A forgotten `;` is pointed at where it belongs: after `1.0f`.
    let f = check_err("__global__ void k(float* a) {\n    a[0] = 1.0f\n}\n");
    assert_eq!(codes(&f), ["simt::parse::missing_semicolon"]);
    assert_eq!(position(&f), (2, 15));
    let f = check_err("__global__ void k(int* a) { a[0] = 99999999999999999999; }");
    assert_eq!(codes(&f), ["simt::parse::int_out_of_range"]);
}

#[test]
fn unknown_names_suggest_a_close_one() {
    let f = check_err("__global__ void k(float* a, int n) {\n    int idx = threadIdx.x;\n    if (idx < n) a[idy] = 0.0f;\n}\n");
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    assert_eq!(position(&f), (3, 20));
    let help = f.errors[0].inner.to_string();
    assert!(help.contains("idy"));
    use miette::Diagnostic;
    assert_eq!(
        f.errors[0].help().map(|h| h.to_string()),
        Some("did you mean `idx`?".into())
    );
    let f = check_err("__global__ void k(float* a) { a[0] = sqrtff(2.0f); }");
    assert_eq!(codes(&f), ["simt::check::unknown_function"]);
}

#[test]
fn every_error_in_a_file_is_reported() {
    let f = check_err("__global__ void k(float* a) {\n    a[0] = x;\n    a[1] = y;\n}\n");
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_name", "simt::check::unknown_name"]
    );
}

#[test]
fn type_errors() {
    let f = check_err("__global__ void k(float* a) { a[0] = a[0] % 2.0f; }");
    assert_eq!(codes(&f), ["simt::check::operand_types"]);
    let f = check_err("__global__ void k(const float* a) { a[0] = 1.0f; }");
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
    let f = check_err("__global__ void k(float* a) { a[0] = fminf(1.0f); }");
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
    let f = check_err("__global__ void k(float* a) { float x = a; }");
    assert_eq!(codes(&f), ["simt::check::not_a_value"]);
    let f = check_err("__global__ void k(float* a) { a[1.5f] = 0.0f; }");
    assert_eq!(codes(&f), ["simt::check::not_an_integer"]);
    let f = check_err("__global__ void k(int* a) { break; }");
    assert_eq!(codes(&f), ["simt::check::outside_loop"]);
    let f = check_err("__global__ void k(int* a) { int i = 0; int i = 1; }");
    assert_eq!(codes(&f), ["simt::check::duplicate"]);
    let f = check_err("__global__ void k(int* a) { __shared__ float s[20000]; }");
    assert_eq!(codes(&f), ["simt::check::shared_too_large"]);
    let f = check_err("__global__ void k(int* a, int n) { __shared__ float s[n]; }");
    assert_eq!(codes(&f), ["simt::check::not_constant"]);
    let f = check_err("__global__ void k(int* a) {}\nlaunch kk { }\n");
    assert_eq!(codes(&f), ["simt::check::unknown_kernel"]);
}

#[test]
fn unsupported_cuda_constructs_say_so() {
    for src in [
        "__global__ void k(int* a) { int* p[4][2]; }",
        "__global__ void k(int* a) { int x = 0; atomicAdd(&x, 1); }",
        "__global__ void k(int* a, float* b) { atomicAdd(a, 1); char* p = (char*)a; b[0] = p[1]; }",
        "__global__ void k(__half4* a) { }",
        "__global__ void k(int* a) { int i = 0; a[1] = a[i++]++; }",
    ] {
        let f = check_err(src);
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{src}");
        assert_eq!(f.exit, 2);
    }
}

const VECADD: &str = "__global__ void vecadd(const float* a, const float* b, float* c, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    c[i] = a[i] + b[i];\n}\n";

#[test]
fn huge_indices_are_reported_as_written() {
    // An unsigned long long index of 2^64 - 16 is that number, not -16; a signed one wrapping past
    // 2^63 - 1 is caught at the first lane (it was once taken for a coalesced run).
    let cases = [
        (
            "unsigned long long i = 18446744073709551600ull + threadIdx.x;",
            "`a[18446744073709551600]`",
        ),
        (
            "long long i = 9223372036854775800ll + threadIdx.x;",
            "`a[9223372036854775800]`",
        ),
    ];
    for (decl, shown) in cases {
        let src = format!("__global__ void k(float* a) {{\n    {decl}\n    a[i] = 1.0f;\n}}\n");
        let f = err(&src, &[("a", "zeros(64)")], Some([1, 1, 1]), B32);
        assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
        let msg = f.errors[0].inner.to_string();
        assert!(msg.contains(shown), "{msg}");
        assert_eq!(position(&f), (3, 5));
    }
}

#[test]
fn out_of_bounds_names_buffer_index_thread_and_line() {
    let f = err(
        VECADD,
        &[
            ("n", "40"),
            ("a", "ones(40)"),
            ("b", "ones(40)"),
            ("c", "zeros(40)"),
        ],
        Some([2, 1, 1]),
        B32,
    );
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert_eq!(f.exit, 1);
    let msg = f.errors[0].inner.to_string();
    assert_eq!(
        msg,
        "out-of-bounds global access: `a[40]` but `a` has 40 elements"
    );
    assert_eq!(position(&f).0, 3);
    use miette::Diagnostic;
    let label = f.errors[0]
        .labels()
        .and_then(|mut l| l.next())
        .and_then(|l| l.label().map(str::to_string));
    assert_eq!(label.as_deref(), Some("block (1, 0, 0), thread (8, 0, 0)"));
}

#[test]
fn missing_arguments_are_listed_with_types() {
    let f = err(VECADD, &[("n", "40")], ONE, B32);
    assert_eq!(codes(&f), ["simt::host::missing_argument"]);
    let msg = f.errors[0].inner.to_string();
    assert_eq!(msg, "missing kernel argument(s): a, b, c");
    use miette::Diagnostic;
    let label = f.errors[0]
        .labels()
        .and_then(|mut l| l.next())
        .and_then(|l| l.label().map(str::to_string));
    assert_eq!(
        label.as_deref(),
        Some("`vecadd` takes: const float* a, const float* b, float* c, int n")
    );
}

#[test]
fn bad_arg_values() {
    let f = err(VECADD, &[("n", "m + 1")], ONE, B32);
    assert_eq!(codes(&f), ["simt::host::unknown_name"]);
    // The span points into the --arg text itself.
    assert_eq!(position(&f), (1, 1));
    let f = err(VECADD, &[("n", "4"), ("a", "zeros(-1)")], ONE, B32);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    let f = err(VECADD, &[("n", "zeros(4)")], ONE, B32);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
}

#[test]
fn launch_shapes_beyond_cuda_limits() {
    let f = err(
        VECADD,
        &[
            ("n", "4"),
            ("a", "ones(4)"),
            ("b", "ones(4)"),
            ("c", "ones(4)"),
        ],
        ONE,
        Some([2048, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
    let f = err(
        VECADD,
        &[
            ("n", "4"),
            ("a", "ones(4)"),
            ("b", "ones(4)"),
            ("c", "ones(4)"),
        ],
        ONE,
        Some([32, 32, 2]),
    );
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
    let f = err(
        VECADD,
        &[
            ("n", "4"),
            ("a", "ones(4)"),
            ("b", "ones(4)"),
            ("c", "ones(4)"),
        ],
        Some([1, 70000, 1]),
        B32,
    );
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
    let f = err(
        VECADD,
        &[
            ("n", "4"),
            ("a", "ones(4)"),
            ("b", "ones(4)"),
            ("c", "ones(4)"),
        ],
        None,
        B32,
    );
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
}

#[test]
fn divergent_barrier_is_a_run_time_error() {
    let src = "__global__ void k(int* a) {\n    if (threadIdx.x < 16) {\n        __syncthreads();\n    }\n}\n";
    let f = err(src, &[("a", "zeros(1)")], ONE, Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::divergent_barrier"]);
    assert_eq!(f.exit, 1);
    assert_eq!(position(&f).0, 3);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`__syncthreads()` reached by 16 of the block's 64 live threads"
    );
}

#[test]
fn endless_loops_hit_the_step_limit_at_the_loop() {
    let src = "__global__ void k(int* a) {\n    int i = 0;\n    while (i < 10) {\n        a[0] = i;\n    }\n}\n";
    let f = err(src, &[("a", "zeros(1)")], ONE, B32);
    assert_eq!(codes(&f), ["simt::run::step_limit"]);
    assert_eq!(f.exit, 1);
    assert_eq!(position(&f).0, 3);
    let src = "__global__ void k(int* a) {\n    for (;;) { }\n}\n";
    let f = err(src, &[("a", "zeros(1)")], ONE, B32);
    assert_eq!(codes(&f), ["simt::run::step_limit"]);
}

#[test]
fn shared_out_of_bounds() {
    let src =
        "__global__ void k(int* a) {\n    __shared__ int s[32];\n    s[threadIdx.x] = 1;\n}\n";
    let f = err(src, &[("a", "zeros(1)")], ONE, Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "out-of-bounds shared access: `s[32]` but `s` has 32 elements"
    );
}

#[test]
fn beginner_mistakes_get_targeted_help() {
    // A forgotten `;` is pointed at the end of the statement that lacks it, not at the next line.
    let f = check_err("__global__ void k(int* a) {\n    int i = threadIdx.x\n    a[i] = 1;\n}\n");
    assert_eq!(codes(&f), ["simt::parse::missing_semicolon"]);
    // `if (i = n)`: did you mean `==`?
    let f = check_err(
        "__global__ void k(int* a, int n) {\n    int i = 0;\n    if (i = n) a[0] = 1;\n}\n",
    );
    let help = miette::Diagnostic::help(&f.errors[0].inner).map(|h| h.to_string());
    assert_eq!(
        help.as_deref(),
        Some("did you mean `==`? `=` assigns; a condition compares")
    );
}

#[test]
fn an_out_of_bounds_access_under_a_guard_blames_the_index_not_a_missing_guard() {
    // `if (i < n) a[i + 1]`: the guard is there, the index is off by one.
    let src = "__global__ void k(float* a, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) a[i + 1] = 1.0f;\n}\n";
    let f = common::err(
        src,
        &[("a", "zeros(64)"), ("n", "64")],
        Some([2, 1, 1]),
        Some([32, 1, 1]),
    );
    let text = simt::cli::render(&f);
    assert!(text.contains("simt::run::out_of_bounds"), "{text}");
    assert!(text.contains("already inside a condition"), "{text}");
    assert!(!text.contains("guard the access"), "{text}");
    // Without the guard, the advice is the guard.
    let bare =
        "__global__ void k(float* a) {\n    a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;\n}\n";
    let f = common::err(
        bare,
        &[("a", "zeros(48)")],
        Some([2, 1, 1]),
        Some([32, 1, 1]),
    );
    assert!(simt::cli::render(&f).contains("guard the access with a bounds check"));
}

#[test]
fn a_parameter_of_an_unknown_type_is_reported_once_not_at_each_use() {
    // Both parameters' types are unknown; their four uses are not "unknown name" errors.
    let f = check_err(
        "__global__ void k(const flaot* x, flaot n) { x[0] = x[1] + n; if (n) { x[2] = 0; } }",
    );
    assert_eq!(
        codes(&f),
        ["simt::check::unknown_type", "simt::check::unknown_type"]
    );
}

#[test]
fn a_dependent_type_named_with_typename_is_a_type_not_a_syntax_error() {
    // `typename` before a qualified type parses; a library simt does not have (hipCUB's
    // namespace is not CUB's) leaves its type unknown (one diagnostic, at the type).
    let f = check_err(
        "__global__ void k(int* a) {\n    __shared__ typename hipcub::BlockReduce<int, 128>::TempStorage t;\n}\n",
    );
    assert_eq!(codes(&f), ["simt::check::unknown_type"]);
    assert_eq!(position(&f), (2, 16));
}

#[test]
fn an_unknown_name_in_pointer_arithmetic_is_reported_as_unknown() {
    let f = check_err(
        "__global__ void k(unsigned int* o) {\n    unsigned int* p = (unsigned int*)(nosuch + 1);\n    o[0] = p[0];\n}\n",
    );
    assert_eq!(codes(&f), ["simt::check::unknown_name"]);
    assert_eq!(position(&f), (2, 39));
}

#[test]
fn a_half_precision_function_simt_lacks_is_named_as_unsupported() {
    // `__half2char_rz` (a half to a `signed char`, CUDA 12.2) and `__nv_bfloat16_raw` are not
    // modelled: one diagnostic each, naming the header's name, no "unknown name" or "unknown
    // function" after.
    let f = check_err(
        "__global__ void k(const float* x, half* y, __nv_bfloat16_raw* z) {\n    y[0] = __half2char_rz(y[1]) + __float2half(x[1]);\n}\n",
    );
    assert_eq!(
        codes(&f),
        ["simt::check::unsupported", "simt::check::unsupported"]
    );
    let all = describe(&f);
    assert!(
        all.contains("__half2char_rz") && all.contains("__nv_bfloat16_raw"),
        "{all}"
    );
}

#[test]
fn a_trap_inside_a_device_function_shows_each_call_that_led_to_it() {
    // `get` reads `a[i + 1]`: thread 31 of the second call reads `a[32]`. The first call
    // (`get(a, 0)`, line 5) never traps, so the label must be on the second call (line 6, column
    // 16), then on `twice`'s call in the kernel (line 10, column 14).
    let src = "__device__ float get(const float* a, int i) {
    return a[i + 1];
}
__device__ float twice(const float* a, int i) {
    float x = get(a, 0);
    return x + get(a, i);
}
__global__ void k(const float* a, float* out) {
    int t = threadIdx.x;
    out[t] = twice(a, t);
}
launch k { a = arange(32); out = zeros(32); }";
    let f = err(src, &[], ONE, B32);
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    assert_eq!(position(&f), (2, 12));
    use miette::Diagnostic;
    let at = |offset: usize| {
        let before = &src[..offset];
        (
            before.lines().count(),
            offset - before.rfind('\n').map_or(0, |n| n + 1) + 1,
        )
    };
    let labels: Vec<_> = f.errors[0]
        .labels()
        .expect("labels")
        .map(|l| (at(l.offset()), l.label().unwrap_or_default().to_string()))
        .collect();
    assert_eq!(
        labels,
        [
            ((2, 12), "block (0, 0, 0), thread (31, 0, 0)".to_string()),
            ((6, 16), "in the function called here".to_string()),
            ((10, 14), "called from here".to_string()),
        ]
    );
    // The help is the trap's own.
    assert!(f.errors[0]
        .help()
        .expect("help")
        .to_string()
        .contains("bounds check"));
}

#[test]
fn out_of_bounds_counts_in_the_declared_elements() {
    use miette::Diagnostic;
    // The failure's message and help both say what they must.
    let says = |f: &simt::pipeline::Failure, message: &str, help: &str| {
        assert_eq!(codes(f), ["simt::run::out_of_bounds"]);
        assert!(f.errors[0].to_string().contains(message), "{}", describe(f));
        let h = f.errors[0]
            .help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        assert!(h.contains(help), "{h}");
    };
    // `__shared__ MD s[8]` of 8-byte structs: thread 8 reads s[8], whose `m` member is float 16
    // of the array's 16 floats. The message counts MDs: s[8] of 8 (it said s[16] of 16).
    let src = r#"
struct MD { float m; float d; };
__global__ void k(float* out) {
    __shared__ MD s[8];
    if (threadIdx.x < 8) { s[threadIdx.x].m = 1.0f; s[threadIdx.x].d = 2.0f; }
    __syncthreads();
    MD v = s[threadIdx.x];
    out[threadIdx.x] = v.m + v.d;
}
"#;
    says(
        &err(src, &[("out", "zeros(9)")], ONE, Some([9, 1, 1])),
        "`s[8]` but `s` has 8 elements",
        "this 4-byte access starts at byte 64 of `s`, which holds 8 `MD` (8 bytes each",
    );
    // An `int4` store through a cast `float*` at vals[8] of `float vals[8]`: 16 bytes from byte
    // 32, past the 32 bytes. Counted in floats, not int4s (it said vals[2] of 2).
    let src = r#"
__global__ void k(float* out) {
    float vals[8] = {0.0f};
    for (int r = 0; r < 3; ++r)
        *reinterpret_cast<int4*>(&vals[r * 4]) = make_int4(1, 1, 1, 1);
    out[threadIdx.x] = vals[0];
}
"#;
    says(
        &err(src, &[("out", "zeros(1)")], ONE, ONE),
        "`vals[8]` but `vals` has 8 elements",
        "this 16-byte access starts at byte 32 of `vals`",
    );
}
