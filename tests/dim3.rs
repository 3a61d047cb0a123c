//! `dim3`: a kernel or device parameter and a local, CUDA's `uint3` with a constructor whose
//! missing sizes are 1, set member by member or as a tuple in a launch section.

use crate::common;
use common::{codes, err, ok};

#[test]
fn dim3_locals_are_constructed_as_cuda_defines() {
    // Each line writes x + 10 y + 100 z of one dim3 (block of 4 = (4, 1, 1), grid 2 = (2, 1, 1)):
    // d(4, 2) = (4, 2, 1): 124;  dim3(5) = (5, 1, 1): 115;  d{4, 2} = 124;  = {3} = (3, 1, 1): 113;
    // dim3 d; = (1, 1, 1): 111;  = blockDim = (4, 1, 1): 114;  = gridDim = (2, 1, 1): 112;
    // = make_uint3(7, 8, 9): 987;  a uint3 of threadIdx on thread t = (t, 0, 0): t;
    // dim3(6, 7, 8) assigned over d(4): 876.
    let src = r#"
__device__ unsigned code(dim3 d) { return d.x + 10 * d.y + 100 * d.z; }
__global__ void k(unsigned* out) {
    unsigned t = threadIdx.x;
    unsigned* o = out + 10 * (blockIdx.x * blockDim.x + t);
    dim3 a(4, 2);
    o[0] = code(a);
    o[1] = code(dim3(5));
    dim3 b{4, 2};
    o[2] = code(b);
    dim3 c = {3};
    o[3] = code(c);
    dim3 d;
    o[4] = code(d);
    dim3 e = blockDim;
    o[5] = code(e);
    o[6] = code(gridDim);
    dim3 f = make_uint3(7, 8, 9);
    o[7] = code(f);
    uint3 u = threadIdx;
    o[8] = u.x + 10 * u.y + 100 * u.z;
    dim3 g(4);
    g = dim3(6, 7, 8);
    o[9] = code(g);
}
"#;
    let mut expected = Vec::new();
    for _block in 0..2 {
        for t in 0..4 {
            expected.extend([124, 115, 124, 113, 111, 114, 112, 987, t, 876]);
        }
    }
    let list: Vec<String> = expected.iter().map(|v| v.to_string()).collect();
    let src = format!(
        "{src}launch k {{ out = zeros(80); block = 4; grid = 2; expect out == [{}]; }}\n",
        list.join(", ")
    );
    ok(&src, &[], [2, 1, 1], [4, 1, 1]);
}

#[test]
fn a_dim3_parameter_is_set_member_by_member() {
    // g = (3, 4, 5): out[t] = g.x * g.y * g.z + t = 60 + t; and through a device function
    // taking it by value, tiles = g.x * g.y = 12.
    let src = r#"
__device__ unsigned tiles(dim3 grid) { return grid.x * grid.y; }
__global__ void k(unsigned* out, unsigned* n, dim3 g) {
    out[threadIdx.x] = g.x * g.y * g.z + threadIdx.x;
    n[threadIdx.x] = tiles(g);
}
launch k {
    out = zeros(4); n = zeros(4); g.x = 3; g.y = 4; g.z = 5; block = 4; grid = 1;
    expect out == 60 + arange(4); expect n == 12;
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_dim3_parameter_or_member_takes_a_tuple_as_grid_does() {
    // `g = (3, 4);` is (3, 4, 1), as `grid = (3, 4);` is: out[t] = 3 * 4 * 1 + t. nvdiffrec's
    // `p.gridSize = (4, 1, 1);` sets a struct parameter's dim3 member: n[t] = 4. Either
    // assignment used to set a launch variable nothing read, silently. An int2 takes a list,
    // not a tuple: refused.
    let src = r#"
struct P { unsigned* n; dim3 size; };
__global__ void k(unsigned* out, dim3 g, P p) {
    out[threadIdx.x] = g.x * g.y * g.z + threadIdx.x;
    p.n[threadIdx.x] = p.size.x * p.size.y * p.size.z;
}
launch k {
    out = zeros(4); n = zeros(4); g = (3, 4); p.n = n; p.size = (4, 1, 1); block = 4; grid = 1;
    expect out == 12 + arange(4); expect n == 4;
}
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let pair = r#"
__global__ void k(int* out, int2 v) { out[threadIdx.x] = v.x; }
launch k { out = zeros(4); v = (3, 4); block = 4; grid = 1; }
"#;
    let f = err(pair, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    // Nor a struct of three ints: (4, 3) would fill its third member with dim3's 1.
    let three = r#"
struct P { int a; int b; int c; };
__global__ void k(P p, int* out) { out[0] = p.c; }
launch k { p = (4, 3); out = zeros(1); block = 1; grid = 1; }
"#;
    let f = err(three, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
}

#[test]
fn a_dim3_parameter_needs_every_member() {
    // A launch section gives no constructor: `g.z` left out (and read) is a missing argument,
    // not 1.
    let src = r#"
__global__ void k(unsigned* out, dim3 g) { out[threadIdx.x] = g.x * g.z; }
launch k { out = zeros(4); g.x = 3; g.y = 4; block = 4; grid = 1; }
"#;
    let f = err(src, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::missing_argument"]);
}

#[test]
fn a_dim3_has_three_sizes() {
    let src = "__global__ void k(unsigned* out) {\n    dim3 d(1, 2, 3, 4);\n    out[0] = d.x;\n}\n";
    let f = err(
        src,
        &[("out", "zeros(1)")],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::initialiser"]);
}

#[test]
fn a_uint3_parameter_takes_a_tuple_with_a_zero() {
    // gpuNUFFT's `IndType3 offset = (2, 2, 0)` for 2-D data: 0 is a uint3's value like any
    // other (it was refused as a launch shape); `grid` and `block` still refuse it.
    let src = r#"
__global__ void k(uint3 offset, unsigned* out) {
    out[0] = offset.x; out[1] = offset.y; out[2] = offset.z;
}
launch k { offset = (2, 2, 0); out = zeros(3); block = 1; grid = 1; expect out == [2, 2, 0]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    for shape in ["grid = (2, 0, 1); block = 1;", "grid = 1; block = (0, 4);"] {
        let src = format!(
            "__global__ void k(float* o) {{ o[0] = 1; }}\nlaunch k {{ o = zeros(1); {shape} }}"
        );
        let f = err(&src, &[], None, None);
        assert_eq!(codes(&f), ["simt::host::launch_shape"], "{shape}");
    }
}
