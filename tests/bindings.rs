//! Pointer parameters bound the way CUDA host code passes them: at an offset into a host array
//! (`in = &d_in[3];`), two parameters to one array, and `NULL`. Counters derived by hand.

use crate::common;
use common::{codes, err, ok, simt};

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

/// A 1-D stencil of radius 3 that reads `in[i - 3] … in[i + 3]`: the caller passes a pointer
/// 3 elements into the padded input, so `in[-3]` is the array's first element.
const STENCIL: &str = r#"
#define RADIUS 3
__global__ void stencil(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float r = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++) {
            r += in[i + k];
        }
        out[i] = r;
    }
}
launch stencil {
    n = 1024;
    d_in = arange(n + 2 * RADIUS);
    d_out = zeros(n);
    in = &d_in[RADIUS];
    out = d_out;
    block = 256;
    grid = cdiv(n, block);
    expect d_out == (arange(n) + 3) * 7;
    expect sum(d_out) == 7 * (n * (n - 1) / 2 + 3 * n);
    expect sum(d_in) == (n + 5) * (n + 6) / 2;
    expect in == arange(n + RADIUS) + 3;
    expect out == d_out;
}
"#;

#[test]
fn a_stencil_bound_three_floats_into_its_array_counts_sectors_from_the_array_start() {
    let c = ok(STENCIL, &[], b(4), b(256)).counters;
    // 1024 threads = 32 full warps. Warp w's load for step k (k = -3 … 3) reads in[32w + k ..
    // 32w + k + 31] = d_in[32w + 3 + k ..]: 32 floats starting 4·(3 + k) bytes past a sector
    // boundary (d_in starts sector-aligned, 128 B = 4 sectors per warp row). k = -3 starts on a
    // boundary: 4 sectors; k = -2 … 3 start 4 … 24 bytes in: 5 sectors each. 4 + 6 × 5 = 34 per
    // warp; 7 requests per warp.
    assert_eq!((c.gld_instr, c.gld_sectors), (32 * 7, 32 * 34));
    // out = d_out at its start: aligned, 4 sectors per warp.
    assert_eq!((c.gst_instr, c.gst_sectors), (32, 32 * 4));
    // The shipped stencil_1d_global, which indexes the whole array as in[i + RADIUS + k], moves
    // exactly the same sectors.
    let (code, json, _) = simt(&[
        "run",
        "kernels/stencil_1d.sk",
        "--kernel",
        "stencil_1d_global",
        "--json",
    ]);
    assert_eq!(code, 0);
    let shipped: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(shipped["counters"]["gld_sectors"], c.gld_sectors);
    assert_eq!(shipped["counters"]["gld_instr"], c.gld_instr);
}

/// One warp copies 32 floats from `in`, bound `off` floats into `d`: the load's sectors, and
/// whether the report hints that it is misaligned.
fn copy_sectors(off: u32) -> (u64, bool) {
    let src = format!(
        "__global__ void copy(const float* in, float* out) {{ out[threadIdx.x] = in[threadIdx.x]; }}
launch copy {{ d = arange(64); in = &d[{off}]; out = zeros(32); expect out == arange(32) + {off}; }}"
    );
    let r = ok(&src, &[], b(1), b(32));
    let hint = r.hints.iter().any(|h| h.rule == "misaligned");
    (r.counters.gld_sectors, hint)
}

#[test]
fn an_offset_moves_a_warp_access_off_the_sector_grid_as_on_the_gpu() {
    // 32 floats = 128 bytes: 4 sectors from a boundary. 3 floats in, they span bytes 12 … 139:
    // sectors 0 … 4, five. 8 floats in (32 bytes) is on a boundary again: four.
    assert_eq!(copy_sectors(0), (4, false));
    assert_eq!(copy_sectors(3), (5, true));
    assert_eq!(copy_sectors(8), (4, false));
}

#[test]
fn a_vector_parameter_bound_at_a_whole_vector_offset_reads_its_elements() {
    let src = r#"
__global__ void vsum(const float4* v, float* out) {
    float4 a = v[threadIdx.x];
    out[threadIdx.x] = a.x + a.y + a.z + a.w;
}
launch vsum {
    d = arange(4 * 40);
    v = &d[4 * 8];
    out = zeros(32);
    expect out == (arange(32) + 8) * 16 + 6;
}
"#;
    let c = ok(src, &[], b(1), b(32)).counters;
    // 32 lanes × 16 B from byte 128: 512 B on the sector grid = 16 sectors in one request.
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
}

#[test]
fn a_vector_view_of_a_parameter_bound_at_an_offset_is_aligned_by_its_address_in_the_array() {
    // `p` points 2 floats (8 bytes) into `d`: `p + 2` is 16 bytes in, a float4 boundary.
    let src = r#"
__global__ void realigned(const float* p, float* out) {
    const float4* v4 = reinterpret_cast<const float4*>(p + 2);
    float4 v = v4[threadIdx.x];
    const float* q = reinterpret_cast<const float*>(&v4[threadIdx.x]);
    out[threadIdx.x] = v.x + v.w + q[1];
}
launch realigned {
    d = arange(200);
    p = &d[2];
    out = zeros(32);
    expect out == arange(32) * 12 + 16;
}
"#;
    let c = ok(src, &[], b(1), b(32)).counters;
    // Lane t's float4 is d[4 + 4t ..]: bytes 16 … 527, sectors 0 … 16 = 17; q[1] is d[5 + 4t],
    // 16 bytes apart from byte 20 on: one lane per 16 bytes, sectors 0 … 16 again.
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 34));
    // `p` itself is 8 bytes past a float4 boundary: the GPU's misaligned address.
    let f = err(&src.replace("(p + 2)", "(p)"), &[], Some(b(1)), Some(b(32)));
    assert_eq!(codes(&f), ["simt::run::misaligned_address"]);
    assert!(
        f.errors[0].to_string().contains("byte offset 8 of `d`"),
        "{}",
        f.errors[0]
    );
}

/// An in-place kernel written with separate input and output parameters.
const IN_PLACE: &str = r#"
__global__ void rotate(const int* in, int* out) {
    int t = threadIdx.x;
    out[t] = in[t] + 100;
    __syncthreads();
    int v = in[(t + 1) % blockDim.x];
    __syncthreads();
    out[t] = v;
}
launch rotate {
    d = arange(64);
    in = &d[0];
    out = &d[0];
    expect d == (arange(64) + 1) % 64 + 100;
}
"#;

#[test]
fn two_parameters_on_one_array_share_it() {
    let r = ok(IN_PLACE, &[], b(1), b(64));
    // Each thread reads what its neighbour wrote through the other parameter: d[t] ends as
    // d[t + 1] + 100. With two arrays, `in` would still hold 0 … 63.
    let c = r.counters;
    // 2 warps × (2 loads, 2 stores). The stores and the first loads are contiguous and aligned:
    // 4 sectors each. The rotated read of warp 0 takes elements 1 … 32, one float off the grid:
    // 5 sectors; warp 1's takes 33 … 63 (sectors 4 … 7) and element 0 (sector 0): 5.
    assert_eq!((c.gld_instr, c.gst_instr), (4, 4));
    assert_eq!(c.gld_sectors, 4 + 4 + 5 + 5);
    assert_eq!(c.gst_sectors, 16);
    let separate = IN_PLACE
        .replace("out = &d[0];", "e = zeros(64); out = e;")
        .replace(
            "expect d == (arange(64) + 1) % 64 + 100;",
            "expect d == arange(64); expect e == (arange(64) + 1) % 64;",
        );
    ok(&separate, &[], b(1), b(64));
}

#[test]
fn a_bare_name_shares_its_array_too() {
    let src = r#"
__global__ void twice(const float* a, float* b) { b[threadIdx.x] = 2.0f * a[threadIdx.x]; }
launch twice { x = arange(32); a = x; b = x; expect x == 2 * arange(32); expect a == b; }
"#;
    ok(src, &[], b(1), b(32));
}

/// A kernel with an optional bias, as in llm.c's matmul_forward.
const BIAS: &str = r#"
__global__ void bias_add(float* x, const float* bias, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float b = 0.0f;
        if (bias != NULL) {
            b = bias[i];
        }
        x[i] = x[i] + b;
    }
}
launch bias_add {
    n = 64;
    x = ones(n);
    bias = NULL;
    expect x == ones(n);
}
"#;

#[test]
fn an_optional_parameter_bound_to_null_is_skipped_and_bound_to_an_array_is_read() {
    let none = ok(BIAS, &[], b(1), b(64)).counters;
    // 2 warps: `i < n` and `bias != NULL` are 2 branch evaluations each, none divergent; the
    // bias load never issues: loads are x's 2 requests (4 sectors each), stores 2.
    assert_eq!((none.branches, none.divergent), (4, 0));
    assert_eq!((none.gld_instr, none.gld_sectors), (2, 8));
    assert_eq!((none.gst_instr, none.gst_sectors), (2, 8));
    let src = BIAS.replace("expect x == ones(n);", "expect x == ones(n) + arange(n);");
    let with = ok(&src, &[("bias", "arange(n)")], b(1), b(64)).counters;
    assert_eq!((with.gld_instr, with.gld_sectors), (4, 16));
    // `nullptr` is the same.
    ok(&BIAS.replace("NULL;", "nullptr;"), &[], b(1), b(64));
}

#[test]
fn reading_a_parameter_bound_to_null_is_a_null_dereference() {
    let src = BIAS.replace("if (bias != NULL) {", "{");
    let f = err(&src, &[], Some(b(1)), Some(b(64)));
    assert_eq!(codes(&f), ["simt::run::null_pointer"]);
    assert_eq!(f.exit, 1);
}

#[test]
fn bounds_are_the_whole_arrays() {
    // `in` points 3 floats in: in[-3] is d[0], in[28] is d[31], the last; in[29] is past it.
    let src = |i: &str| {
        format!(
            "__global__ void k(const float* in, float* out) {{ out[threadIdx.x] = in[{i}]; }}
launch k {{ d = arange(32); in = &d[3]; out = zeros(32); }}"
        )
    };
    ok(&src("(int)threadIdx.x - 3"), &[], b(1), b(32));
    let f = err(&src("(int)threadIdx.x - 2"), &[], Some(b(1)), Some(b(32)));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    let message = f.errors[0].to_string();
    assert!(
        message.contains("`d[32]` but `d` has 32 elements"),
        "{message}"
    );
    let f = err(&src("(int)threadIdx.x - 4"), &[], Some(b(1)), Some(b(32)));
    assert!(
        f.errors[0].to_string().contains("`d[-1]`"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn args_bind_offsets_and_null_and_save_sees_arrays_by_their_host_names() {
    let dir = std::env::temp_dir().join(format!("simt-bindings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("k.sk");
    std::fs::write(
        &file,
        "__global__ void k(float* x, const float* bias, int n) {
    int i = threadIdx.x;
    if (i < n) x[i] = x[i] + (bias ? bias[i] : 100.0f);
}\n",
    )
    .expect("write");
    let (whole, view) = (dir.join("d.npy"), dir.join("x.npy"));
    let path = |p: &std::path::Path| p.display().to_string();
    let run = |bias: &str| {
        simt(&[
            "run",
            &path(&file),
            "--grid",
            "1",
            "--block",
            "32",
            "--arg",
            "n=8",
            "--arg",
            "d=arange(16)",
            "--arg",
            "x=&d[8]",
            "--arg",
            &format!("bias={bias}"),
            "--save",
            &format!("d={}", path(&whole)),
            "--save",
            &format!("x={}", path(&view)),
        ])
    };
    // x[i] = d[8 + i] += d[i]: 8 + 2i.
    let (code, out, errs) = run("&d[0]");
    assert_eq!(code, 0, "{out}{errs}");
    let expected: Vec<f32> = (0..8)
        .map(|i| i as f32)
        .chain((0..8).map(|i| 8.0 + 2.0 * i as f32))
        .collect();
    assert_eq!(floats(&whole), expected);
    assert_eq!(floats(&view), expected[8..]);
    let (code, out, errs) = run("NULL");
    assert_eq!(code, 0, "{out}{errs}");
    assert_eq!(
        floats(&view),
        (0..8).map(|i| 108.0 + i as f32).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The elements of a little-endian float32 `.npy` file.
fn floats(path: &std::path::Path) -> Vec<f32> {
    let bytes = std::fs::read(path).expect("saved file");
    let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let text = String::from_utf8_lossy(&bytes[10..10 + header]);
    assert!(text.contains("'<f4'"), "{text}");
    bytes[10 + header..]
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn default_arguments_fill_what_the_call_or_the_launch_leaves_out() {
    // cuda-samples' shfl_scan: `int *partial_sums = NULL` on the kernel, bound by no launch;
    // a __device__ function's default `k = 3`.
    let src = r#"
__device__ int add(int a, int k = 3) { return a + k; }
__global__ void k(int* out, int* partial = NULL, int scale = 2) {
    out[threadIdx.x] = add(threadIdx.x) * scale + add(0, 10);
    if (partial != NULL) partial[0] = 1;
}
launch k { out = zeros(4); block = 4; grid = 1; expect out == [16, 18, 20, 22]; }
"#;
    common::ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_parameter_named_grid_is_set_by_grid_and_the_shape_by_launch_grid() {
    // torch-ngp's `kernel_grid(..., const float* grid, ...)`: `grid = ...` binds the parameter,
    // `launch_grid`/`launch_block` give the shape. 2 blocks of 4 threads double grid[0..8).
    let src = r#"
__global__ void k(const float* grid, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = grid[i] * 2.0f;
}
launch k {
    grid = arange(8);
    out = zeros(8);
    n = 8;
    launch_block = 4;
    launch_grid = 2;
    expect out == [0, 2, 4, 6, 8, 10, 12, 14];
}
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects.iter().all(|e| e.passed));
    assert_eq!((r.launch.grid, r.launch.block), ([2, 1, 1], [4, 1, 1]));
    // `--arg grid=...` sets the parameter too: ones(8) doubled is 2 everywhere.
    let with_arg = src.replace(
        "expect out == [0, 2, 4, 6, 8, 10, 12, 14];",
        "expect out == 2;",
    );
    let r = common::run(&with_arg, &[("grid", "ones(8)")], None, None).expect("runs");
    assert!(r.expects.iter().all(|e| e.passed));
    // A kernel without such a parameter takes `launch_grid` as its grid too.
    let plain = "__global__ void p(int* o) { o[blockIdx.x] = 1; }\n\
                 launch p { o = zeros(3); launch_grid = 3; block = 1; expect o == 1; }";
    let r = common::run(plain, &[], None, None).expect("runs");
    assert!(r.expects.iter().all(|e| e.passed));
    // Without `launch_grid`, the shape is missing, and the help says how to give it.
    let missing = src.replace("launch_grid = 2;", "");
    let f = err(&missing, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
    let help = miette::Diagnostic::help(&f.errors[0])
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(help.contains("launch_grid = ...;"), "{help}");
    // `grid` set twice: the second was meant as the shape; refused, naming `launch_grid`.
    let twice = src.replace("launch_grid = 2;", "grid = 2;");
    let f = err(&twice, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::launch_shape"]);
    assert!(
        common::describe(&f).contains("`grid` is set twice"),
        "{}",
        common::describe(&f)
    );
}

#[test]
fn a_reference_binds_a_member_held_in_registers() {
    // QuEST's `add(val.re, val.im)` with `const qreal&` parameters on a by-value struct, and
    // members of a `float2` local. By hand: add(1.0, 2.5) = 3.5; addf(1, 2) = 3; swap makes
    // v = (2, 1), so o[2] = 2 * 10 + 1 = 21; a `const double&` to the float member 2.0f takes a
    // converted copy: twice(2.0) = 4.
    let src = r#"
struct C { double re; double im; };
__device__ double add(const double& v1, const double& v2) { return v1 + v2; }
__device__ float addf(const float& v1, const float& v2) { return v1 + v2; }
__device__ void swap(float& a, float& b) { float t = a; a = b; b = t; }
__device__ double twice(const double& x) { return 2 * x; }
__device__ double f(C val) { return add(val.re, val.im); }
__global__ void k(double* o) {
    C c; c.re = 1.0; c.im = 2.5;
    o[0] = f(c);
    float2 v = make_float2(1.f, 2.f);
    o[1] = addf(v.x, v.y);
    swap(v.x, v.y);
    o[2] = v.x * 10 + v.y;
    o[3] = twice(v.x);
}
launch k { o = zeros(4); grid = 1; block = 1; expect o == [3.5, 3, 21, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // A non-const `double&` cannot bind a `float` member (C++: no temporary for it).
    let bad = src.replace(
        "__device__ double twice(const double& x)",
        "__device__ double twice(double& x)",
    );
    let f = err(&bad, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::argument_type"]);
}

#[test]
fn a_kernel_parameters_default_may_name_the_files_constants() {
    // torch-ngp's `const nvcuda::wmma::layout_t output_layout = nvcuda::wmma::mem_row_major`
    // (mma.h: enum layout_t { mem_row_major, mem_col_major }, so 0), a scoped enumerator
    // (Mode::B = 1) and a constant expression (2 * K = 6): the launch leaves them out.
    // out = 1 (row major) + 10 * 1 + 100 * 6 = 611.
    let src = r#"
#include <mma.h>
enum class Mode { A, B };
constexpr int K = 3;
__global__ void k(int* out, const nvcuda::wmma::layout_t layout = nvcuda::wmma::mem_row_major,
                  Mode m = Mode::B, int twice = 2 * K) {
    out[0] = (layout == nvcuda::wmma::mem_row_major ? 1 : 2) + 10 * (int)m + 100 * twice;
}
launch k { out = zeros(1); expect out == [611]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_struct_member_the_kernel_never_reads_may_be_left_unset() {
    // causal-conv1d's ConvParamsBase carries strides only other kernels read. `unused_stride`
    // is read by no instruction, so the launch need not set it; `p.n` is read, and leaving it
    // out names it alone.
    let src = r#"
struct Params { int n; unsigned unused_stride; void* x_ptr; void* unused_ptr; };
__global__ void scale(Params p) {
    int i = threadIdx.x;
    if (i < p.n) reinterpret_cast<float*>(p.x_ptr)[i] *= 2.0f;
}
launch scale { p.n = 8; x = arange(8); p.x_ptr = x; expect x == arange(8) * 2; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let f = err(
        &src.replace("p.n = 8; ", ""),
        &[],
        Some([1, 1, 1]),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::host::missing_argument"]);
    assert!(
        f.errors[0]
            .to_string()
            .ends_with("missing kernel argument(s): p.n"),
        "{}",
        f.errors[0]
    );
}

#[test]
fn conditions_on_numbers_size_a_launch_as_host_code_does() {
    // PointGroup's `#define DIVUP(m,n) ((m) / (n) + ((m) % (n) > 0))`: 1000 / 512 + (488 > 0)
    // is 2 blocks, so all 1000 elements are written (with `>` taken as 0 the second block's 488
    // would stay zero). `n > 600 ? 512 : 64` is 512; `0 && 1 / 0` never divides.
    let src = r#"
#define DIVUP(m,n) ((m) / (n) + ((m) % (n) > 0))
__global__ void k(float *out, int n, int z) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1.0f + z; }
launch k {
    n = 1000; out = zeros(n); z = 0 && 1 / 0 || n != 1000;
    block = n > 600 ? 512 : 64; grid = DIVUP(n, block);
    expect out == ones(n);
}
"#;
    let r = common::run(src, &[], None, None).expect("runs");
    assert!(r.expects.iter().all(|e| e.passed));
    assert_eq!((r.launch.grid, r.launch.block), ([2, 1, 1], [512, 1, 1]));
    // Arrays compare only at the top of an `expect`.
    let arrays = src.replace("z = 0 &&", "z = zeros(2) < 1 &&");
    let f = err(&arrays, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert!(f.errors[0]
        .to_string()
        .contains("only allowed at the top of an `expect`"));
}
