//! ATen's packed tensor accessors as kernel parameters (`a[n][c]`, `a.size(d)`), bound to N-d arrays, and the rest of the ATen shim.

use crate::common;
use common::{codes, err, ok, position};

#[test]
fn an_accessor_indexes_its_array_by_the_shape_it_was_given() {
    let src = r#"
#include <ATen/ATen.h>
__global__ void k(
    const at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> in,
    at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits> out,
    at::PackedTensorAccessor64<int64_t, 1, at::RestrictPtrTraits> dims) {
    const int n = blockIdx.x;
    const int c = threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < in.size(2); ++k) s += in[n][c][k];
    out[n][c] = s;
    out[n][c] += 0.5f;
    if (n == 0 && c == 0) {
        dims[0] = in.size(0);
        dims[1] = in.size(1);
        dims[2] = in.size(2);
        dims[3] = in.stride(0);
        dims[4] = in.stride(1);
        dims[5] = out.stride(1);
    }
}
launch k {
    in = reshape(arange(24), 2, 3, 4);
    out = zeros(2, 3);
    dims = zeros(6);
    grid = 2; block = 3;
    expect out == [6.5, 22.5, 38.5, 54.5, 70.5, 86.5];
    expect dims == [2, 3, 4, 12, 4, 1];
}
"#;
    // in[n][c][k] is element 12n + 4c + k of arange(24): row (n, c) sums 4(3n + c) * 4 + 0 +
    // 1 + 2 + 3 = 16(3n + c) + 6, i.e. 6, 22, 38, 54, 70, 86, each + 0.5. Sizes (2, 3, 4),
    // contiguous strides (12, 4, 1); out's last stride 1.
    ok(src, &[], [2, 1, 1], [3, 1, 1]);
}

#[test]
fn an_accessor_access_costs_what_the_same_pointer_arithmetic_costs() {
    let run = |body: &str, params: &str| {
        let src = format!(
            r#"
#include <torch/extension.h>
__global__ void k({params}) {{
    const int n = blockIdx.y;
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    {body}
}}
launch k {{
    a = reshape(arange(2 * 3 * 64), 2, 3, 64);
    b = zeros(2, 64);
    grid = (1, 2); block = 64;
    expect b[70] == 2 * 192 + 2 * 64 + 2 * 6;
}}
"#
        );
        ok(&src, &[], [1, 2, 1], [64, 1, 1]).counters
    };
    let accessor = run(
        "b[n][c] = a[n][2][c] + a[n][0][c];",
        "torch::PackedTensorAccessor32<float, 3, torch::RestrictPtrTraits> a, \
         torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> b",
    );
    let flat = run(
        "b[n * 64 + c] = a[n * 192 + 2 * 64 + c] + a[n * 192 + c];",
        "const float* a, float* b",
    );
    // 4 warps (2 blocks of 64 threads); each reads two rows of 32 consecutive floats (128
    // bytes, 4 sectors each) and writes 32 consecutive floats: 8 loads of 4 sectors, 4 stores
    // of 4 sectors. b[70] = b[1][6] = a[1][2][6] + a[1][0][6] = (192 + 128 + 6) + (192 + 6).
    assert_eq!((accessor.gld_instr, accessor.gld_sectors), (8, 32));
    assert_eq!((accessor.gst_instr, accessor.gst_sectors), (4, 16));
    assert_eq!(
        (
            accessor.gld_sectors,
            accessor.gst_sectors,
            accessor.g_bytes_requested
        ),
        (flat.gld_sectors, flat.gst_sectors, flat.g_bytes_requested)
    );
}

#[test]
fn a_packed_accessor32_indexes_in_int() {
    let src = r#"
#include <torch/extension.h>
__global__ void k(torch::PackedTensorAccessor32<int, 2, torch::DefaultPtrTraits> a, long long* out) {
    out[0] = sizeof(a.size(0));
    out[1] = sizeof(a.stride(1));
    a[1][2] = 7;
    out[2] = a.data()[5];
}
launch k {
    a = zeros(2, 3);
    out = zeros(3);
    grid = 1; block = 1;
    expect out == [4, 4, 7];
}
"#;
    // PackedTensorAccessor32's index_t is int32_t: size() and stride() are 4 bytes. a[1][2] is
    // element 1 * 3 + 2 = 5 of the data.
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn an_array_of_another_rank_is_refused_at_its_assignment() {
    let src = "#include <ATen/ATen.h>\n__global__ void k(at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> p) {\n    p[0][0][0] = 1.0f;\n}\nlaunch k {\n    p = rand(12);\n    grid = 1; block = 1;\n}\n";
    let f = err(src, &[], None, None);
    assert_eq!(codes(&f), ["simt::host::accessor_rank"]);
    assert_eq!(position(&f), (6, 9));
    assert_eq!(
        f.errors[0].to_string(),
        "`p` is an accessor of 3 dimensions but was given an array of shape (12)"
    );
}

#[test]
fn indexing_part_of_an_accessor_is_named() {
    let src = "#include <ATen/ATen.h>\n__global__ void k(at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits> p, float* out) {\n    out[0] = p[1];\n}\n";
    let f = err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert_eq!(position(&f), (3, 14));
}

#[test]
fn aten_helpers_compute_as_aten_does() {
    let src = r#"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
template <typename T>
__global__ void k(const T* x, long long* out) {
    using acc_T = at::acc_type<T, true>;
    acc_T s = (acc_T)x[0] * x[1];
    out[0] = sizeof(acc_T);
    out[1] = s;
    out[2] = at::cuda::ATenCeilDiv(10, 4);
    out[3] = at::cuda::ATenCeilDiv(12, 4);
}
launch k<int32_t> {
    x = [100000, 100000];
    out = zeros(4);
    grid = 1; block = 1;
    expect out == [8, 10000000000, 3, 3];
}
"#;
    // AccumulateType<int32_t, true> is int64_t (8 bytes), so 100000 * 100000 does not wrap;
    // ceil(10 / 4) = 3, ceil(12 / 4) = 3.
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn initialisers_take_any_number_of_dimensions() {
    let src = r#"
__global__ void k(float* a) {}
launch k {
    a = zeros(2, 3, 4);
    b = full(2, 3, -1);
    c = reshape(arange(6), 3, 2);
    grid = 1; block = 1;
    expect sum(a + 1) == 24;
    expect sum(b) == -6;
    expect c[5] == 5;
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

/// `inf` and `nan` (and C's `INFINITY`, `NAN`) name the special floats in a launch section: a
/// max-pool's `-inf` fill. `fmaxf(-inf, 2)` is 2; an element left alone stays `-inf`, equal to
/// itself; `nan` is unequal to everything, as in C, so `isnan` is how a kernel sees it.
#[test]
fn a_launch_section_names_infinity_and_nan() {
    let src = r#"
__global__ void k(float* m, float* q) {
    m[0] = fmaxf(m[0], 2.0f);
    q[0] = isnan(q[0]) ? 1.0f : 0.0f;
}
launch k {
    m = full(2, -inf);
    q = full(1, NAN);
    grid = 1; block = 1;
    expect m == [2, -INFINITY];
    expect q == [1];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn a_tensor_info_locates_elements_by_its_sizes_and_strides() {
    let src = r#"
#include <ATen/cuda/detail/TensorInfo.cuh>
__global__ void k(const at::cuda::detail::TensorInfo<int64_t, int> info, int64_t* out, int* off) {
    int i = threadIdx.x;
    int o = at::cuda::detail::IndexToOffset<int64_t, int, -1>::get(i, info);
    off[i] = o;
    out[i] = info.data[o];
    if (i == 0) {
        off[6] = at::cuda::detail::IndexToOffset<int64_t, int, 2>::get(5, info);
        off[7] = info.isContiguous();
    }
}
launch k {
    info.data = arange(12);
    info.sizes = [2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    info.strides = [1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    info.dims = 2;
    out = zeros(6);
    off = zeros(8);
    grid = 1; block = 6;
    expect off == [0, 4, 8, 1, 5, 9, 9, 0];
    expect out == [0, 4, 8, 1, 5, 9];
}
"#;
    // The arrays are TensorInfo's 25 members; dims says how many are used.
    // A 2 × 3 view of a 3 × 4 row-major array, transposed (strides 1 and 4). Element i is row
    // i / 3, column i % 3, at offset (i / 3) * 1 + (i % 3) * 4: 0, 4, 8, 1, 5, 9. With Dims = 2
    // fixed, element 5 is again 1 + 2 * 4 = 9; dims is 2, so the view is not contiguous.
    ok(src, &[], [1, 1, 1], [6, 1, 1]);
}

#[test]
fn an_accessor_indexed_on_all_but_its_last_dimension_is_a_row() {
    // RAFT's `auto fptr = fmap1[b][h1][w1]; fptr[c]`: a rank-1 TensorAccessor. a = 0..23 as
    // 2 × 3 × 4; row (i, j) holds 12i + 4j + 0..3, whose sum is 48i + 16j + 6.
    let src = r#"
#include <torch/extension.h>
__global__ void rows(const torch::PackedTensorAccessor32<float,3,torch::RestrictPtrTraits> a,
                     torch::PackedTensorAccessor32<float,2,torch::RestrictPtrTraits> out)
{
  int i = blockIdx.x, j = threadIdx.x;
  auto row = a[i][j];
  float s = 0;
  for (int k = 0; k < a.size(2); k++) s += row[k];
  out[i][j] = s;
}
launch rows { a = reshape(arange(24), 2, 3, 4); out = zeros(2, 3); expect out == [6, 22, 38, 54, 70, 86]; }
"#;
    let r = ok(src, &[], [2, 1, 1], [3, 1, 1]);
    // Each block's warp loads row[k] 4 times, its 3 lanes at bytes 48i + 16j + 4k: for block
    // 0, k = 0 is bytes 0, 16, 32 (sectors 0, 0, 1); for block 1, 48, 64, 80 (sectors 1, 2, 2):
    // 2 sectors each, as for any k. 8 loads, 16 sectors.
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (8, 16));
    // Two of three dimensions is no row: still the error, whose help now names the row form.
    let two = src.replace("auto row = a[i][j];", "auto row = a[i];");
    let f = err(&two, &[], Some([2, 1, 1]), Some([3, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn an_accessor_indexed_on_some_dimensions_is_a_tensor_accessor_of_the_rest() {
    // pytorch3d's points_to_volumes: `auto vol = volume_densities[b][0];` then `vol[z][y][x]`.
    // v is 2 × 3 × 4 × 5 (strides 60, 20, 5, 1), zeros. Block b, thread (x, y):
    // - `vb = v[b][1]` starts at element 60b + 20; `vb[y][x] = 1` sets 60b + 20 + 5y + x;
    // - `vr = v[b]` starts at 60b; `vr[2][y][x] = 2` sets 60b + 40 + 5y + x;
    // - `vs = vr[0]` (a rank-2 accessor of a rank-3 one) starts at 60b; `vs[y][x] = vs.size(1)
    //   + vs.stride(0)` sets 60b + 5y + x to 5 + 5 = 10.
    // With block (5, 4) every (y, x) of the 4 × 5 planes is written: each plane z = 0, 1, 2 of
    // each b holds 10, 1, 2 in all 20 elements.
    let src = r#"
#include <ATen/ATen.h>
__global__ void k(at::PackedTensorAccessor32<float, 4, at::RestrictPtrTraits> v) {
    const int b = blockIdx.x;
    auto vb = v[b][1];
    auto vr = v[b];
    at::TensorAccessor<float, 2, at::RestrictPtrTraits, int32_t> vs = vr[0];
    vb[threadIdx.y][threadIdx.x] = 1.0f;
    vr[2][threadIdx.y][threadIdx.x] = 2.0f;
    vs[threadIdx.y][threadIdx.x] = vs.size(1) + vs.stride(0);
}
launch k {
    v = zeros(2, 3, 4, 5);
    expect sum(v) == 2 * 20 * (10 + 1 + 2);
    expect v[0] == 10; expect v[19] == 10; expect v[20] == 1; expect v[40] == 2;
    expect v[60] == 10; expect v[99] == 1; expect v[100] == 2; expect v[119] == 2;
}
"#;
    let r = ok(src, &[], [2, 1, 1], [5, 4, 1]);
    // Each plane store of a block: 20 lanes on 80 contiguous bytes. Plane z starts at byte
    // 240b + 80z: block 0's planes 0, 1, 2 at bytes 0, 80, 160 (3, 3, 3 sectors: 0-2, 2-5
    // = sectors 2..=4, 5..=7); block 1's at 240, 320, 400 (sectors 7..=9, 10..=12, 12..=14).
    // Every 80-byte run covers 3 sectors: 6 stores, 18 sectors.
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (6, 18));
    // Indexed on fewer dimensions than it has, a local accessor is still no value.
    let partial = src.replace(
        "vb[threadIdx.y][threadIdx.x] = 1.0f;",
        "float w = vb[threadIdx.y]; vb[threadIdx.y][threadIdx.x] = w;",
    );
    let f = err(&partial, &[], Some([2, 1, 1]), Some([5, 4, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}
