//! Texture objects (`cudaTextureObject_t`, `tex1Dfetch`/`tex1D`/`tex2D`/`tex3D<T>`): CUDA's
//! addressing modes, point and 9-bit linear filtering, read modes, run-time handles and the
//! texture-request counter. Every expected value is worked out by hand in its comment from the
//! CUDA C++ Programming Guide's "Texture Fetching" appendix.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// One fetch per thread of a 1-D texture at the coordinate `xs[i]`.
const FETCH_1D: &str = r#"
__global__ void k(cudaTextureObject_t t, const float* xs, float* o) {
    int i = threadIdx.x;
    o[i] = tex1D<float>(t, xs[i]);
}
"#;

fn fetch_1d(texture: &str, xs: &str, expect: &str, n: u32) {
    let src = format!(
        "{FETCH_1D}launch k {{ t = {texture}; xs = {xs}; o = zeros({n}); expect o == {expect}; }}"
    );
    ok(&src, &[], [1, 1, 1], [n, 1, 1]);
}

#[test]
fn point_sampling_clamps_or_borders_unnormalised_coordinates() {
    // Point sampling returns T[floor(x)]. x = -1.5 -0.5 0.5 1.5 2.5 3.5 4.5 5.5 floor to
    // -2 -1 0 1 2 3 4 5. Clamp makes them 0 0 0 1 2 3 3 3: 10 10 10 20 30 40 40 40.
    let xs = "[-1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5]";
    fetch_1d(
        "[10, 20, 30, 40]",
        xs,
        "[10, 10, 10, 20, 30, 40, 40, 40]",
        8,
    );
    // Border: an index outside 0..4 reads zero.
    fetch_1d(
        "texture([10, 20, 30, 40], address=border)",
        xs,
        "[0, 0, 10, 20, 30, 40, 0, 0]",
        8,
    );
}

#[test]
fn linear_filtering_uses_nine_bit_weights() {
    // T = 0 256 512 1024; xB = x - 0.5, i = floor(xB), α = frac(xB) rounded to 1/256.
    // x = 0.75:         xB = 0.25,         α = 64/256          → 0.75·0 + 0.25·256 = 64
    // x = 1 + 1/1024:   xB = 0.5009765625,  256·frac = 128.25 → α = 128/256 → 128
    //                   (with an exact weight it would be 128.25)
    // x = 1.5 - 1/1024: xB = 0.9990234375,  256·frac = 255.75 → α = 256/256 = 1 → T[1] = 256
    //                   (exact: 255.75; the ninth bit holds 1.0)
    // x = 2.5:          xB = 2, α = 0      → T[2] = 512
    // x = 0:            xB = -0.5, i = -1, α = 0.5 → clamp: T[0]/2 + T[0]/2 = 0
    // x = 4.25:         xB = 3.75, i = 3, α = 0.75 → 0.25·T[3] + 0.75·T[clamp 4 = 3] = 1024
    let xs = "[0.75, 1.0009765625, 1.4990234375, 2.5, 0, 4.25]";
    fetch_1d(
        "texture([0, 256, 512, 1024], filter=linear)",
        xs,
        "[64, 128, 256, 512, 0, 1024]",
        6,
    );
    // Border at x = 4.25: 0.25·1024 + 0.75·0 = 256; at x = 0: 0.5·0 + 0.5·T[0] = 0.
    fetch_1d(
        "texture([0, 256, 512, 1024], filter=linear, address=border)",
        xs,
        "[64, 128, 256, 512, 0, 256]",
        6,
    );
}

#[test]
fn bilinear_filtering_weights_four_texels() {
    // T(x, y): row y = 0 is 0 100, row y = 1 is 200 300 (width 2, height 2).
    // (1, 1): α = β = 0.5 → (0 + 100 + 200 + 300) / 4 = 150.
    // (0.75, 1.25): α = 0.25, β = 0.75 →
    //   0.75·0.25·0 + 0.25·0.25·100 + 0.75·0.75·200 + 0.25·0.75·300 = 6.25 + 112.5 + 56.25 = 175.
    let src = r#"
__global__ void k(cudaTextureObject_t t, const float* xs, const float* ys, float* o) {
    int i = threadIdx.x;
    o[i] = tex2D<float>(t, xs[i], ys[i]);
}
launch k {
    t = texture([0, 100, 200, 300], filter=linear, width=2, height=2);
    xs = [1.0, 0.75]; ys = [1.0, 1.25]; o = zeros(2);
    expect o == [150, 175];
}
"#;
    ok(src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn trilinear_filtering_of_a_3d_texture() {
    // 2×2×2 texels T(x, y, z) = x + 2y + 4z. At the centre (1, 1, 1) every weight is 1/8:
    // (0+1+2+3+4+5+6+7)/8 = 3.5. At (0.75, 1, 1.25): α = 0.25, β = 0.5, γ = 0.75, and a
    // trilinear blend of a linear function is the function at (α, β, γ) = 0.25 + 1 + 3 = 4.25.
    // Point sampling at (1.5, 0.5, 1.5) is T(1, 0, 1) = 5.
    let src = r#"
__global__ void k(cudaTextureObject_t lin, cudaTextureObject_t pt, float* o) {
    o[0] = tex3D<float>(lin, 1.0f, 1.0f, 1.0f);
    o[1] = tex3D<float>(lin, 0.75f, 1.0f, 1.25f);
    o[2] = tex3D<float>(pt, 1.5f, 0.5f, 1.5f);
}
launch k {
    lin = texture(arange(8), filter=linear, width=2, height=2, depth=2);
    pt = texture(arange(8), width=2, height=2, depth=2);
    o = zeros(3);
    expect o == [3.5, 4.25, 5];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn normalised_coordinates_wrap_and_mirror() {
    // N = 4 texels 1 2 3 4; a normalised x is x·N.
    // wrap:   x = 1.125 → 4.5 → texel 4 mod 4 = 0 → 1;  x = -0.125 → -0.5 → -1 mod 4 = 3 → 4;
    //         x = 0.6 → 2.4 → texel 2 → 3.
    // mirror: x = 1.125: floor 1 is odd, so 1 - 0.125 = 0.875 → 3.5 → texel 3 → 4;
    //         x = -0.125: floor -1 is odd, 1 - 0.875 = 0.125 → 0.5 → texel 0 → 1; 0.6 → 3.
    // clamp:  1.125 → 4.5 → texel 3 → 4; -0.125 → texel 0 → 1; 0.6 → 3.
    let xs = "[1.125, -0.125, 0.6]";
    fetch_1d(
        "texture([1, 2, 3, 4], normalized=true, address=wrap)",
        xs,
        "[1, 4, 3]",
        3,
    );
    fetch_1d(
        "texture([1, 2, 3, 4], normalized=true, address=mirror)",
        xs,
        "[4, 1, 3]",
        3,
    );
    fetch_1d("texture([1, 2, 3, 4], normalized=true)", xs, "[4, 1, 3]", 3);
}

#[test]
fn integer_texels_read_as_elements_or_normalised_floats() {
    // Element type: `tex1Dfetch<unsigned char>` returns the byte; indices past the end clamp.
    // Normalised float: uchar v / 255 (0, 51 → 0.2, 255 → 1); signed char max(v / 127, -1)
    // (-128 and -127 → -1, 127 → 1).
    let src = r#"
__global__ void k(cudaTextureObject_t u8, cudaTextureObject_t u8f, cudaTextureObject_t s8f,
                  int* e, float* f, float* s) {
    int i = threadIdx.x;
    e[i] = tex1Dfetch<unsigned char>(u8, i + 1);
    f[i] = tex1Dfetch<float>(u8f, i);
    s[i] = tex1Dfetch<float>(s8f, i);
}
launch k {
    u8 = texture([0, 51, 255], type=uint8);
    u8f = texture([0, 51, 255], type=uint8, read=normalized);
    s8f = texture([-128, -127, 127], type=int8, read=normalized);
    e = zeros(3); f = zeros(3); s = zeros(3);
    expect e == [51, 255, 255];
    expect f == [0, 0.2, 1];
    expect s == [-1, -1, 1];
}
"#;
    ok(src, &[], [1, 1, 1], [3, 1, 1]);
    // Linear filtering of normalised bytes 0 and 255 at x = 0.75 (α = 0.25): 0.25·1.0 = 0.25.
    fetch_1d(
        "texture([0, 255], type=uint8, read=normalized, filter=linear)",
        "[0.75]",
        "[0.25]",
        1,
    );
}

#[test]
fn handles_are_values_chosen_at_run_time() {
    // Odd threads read `b`, even ones `a`, through a local handle and a device function.
    let src = r#"
__device__ float read(cudaTextureObject_t t, int i) { return tex1Dfetch<float>(t, i); }
__global__ void k(cudaTextureObject_t a, cudaTextureObject_t b, float* o) {
    int i = threadIdx.x;
    cudaTextureObject_t t = (i & 1) ? b : a;
    o[i] = read(t, i);
}
launch k { a = [1, 2, 3, 4]; b = [10, 20, 30, 40]; o = zeros(4); expect o == [1, 20, 3, 40]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn texture_requests_count_one_per_warp_and_fetch() {
    // 64 threads = 2 warps, each thread fetching twice: 2 × 2 = 4 texture requests, and no
    // global load (the fetches are not global loads); the store is 2 requests.
    let src = r#"
__global__ void k(cudaTextureObject_t t, float* o) {
    int i = threadIdx.x;
    o[i] = tex1Dfetch<float>(t, i) + tex1Dfetch<float>(t, i + 1);
}
launch k { t = arange(65); o = zeros(64); expect o == 2 * arange(64) + 1; }
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.tex_requests, 4);
    assert_eq!(r.counters.gld_instr, 0);
    assert_eq!(r.counters.gst_instr, 2);
}

#[test]
fn textures_cuda_would_refuse_are_launch_errors() {
    let src = |t: &str| format!("{FETCH_1D}launch k {{ t = {t}; xs = [0]; o = zeros(1); }}");
    for t in [
        // Linear filtering of integers read as integers: cudaErrorInvalidFilterSetting.
        "texture([1, 2], type=uint8, filter=linear)",
        // Normalised reads are for 8- and 16-bit integers.
        "texture([1, 2], read=normalized)",
        // Misspelt options and values.
        "texture([1, 2], filtr=linear)",
        "texture([1, 2], filter=liner)",
        "texture([1, 2, 3], width=2)",
    ] {
        let f = err(&src(t), &[], Some([1, 1, 1]), Some([1, 1, 1]));
        assert_eq!(codes(&f), ["simt::host::texture"], "{t}");
    }
    let f = err(&src("3"), &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
}

#[test]
fn a_fetch_of_the_wrong_shape_or_type_stops_the_launch() {
    let src = |fetch: &str| {
        format!(
            "__global__ void k(cudaTextureObject_t t, float* o) {{ o[0] = {fetch}; }}\n\
             launch k {{ t = [1, 2, 3, 4]; o = zeros(1); }}"
        )
    };
    for fetch in [
        "tex2D<float>(t, 0.5f, 0.5f)",
        "tex1Dfetch<int>(t, 0)",
        "tex1Dfetch<float>(0ull, 0)",
    ] {
        let f = err(&src(fetch), &[], Some([1, 1, 1]), Some([1, 1, 1]));
        assert_eq!(codes(&f), ["simt::run::texture"], "{fetch}");
    }
}

#[test]
fn vector_texels_are_read_whole() {
    // A 4 × 3 texture of float4 (Packt's and Altis' `tex2D<float4>`): texel i holds 4i .. 4i + 3,
    // so its components sum to 16i + 6; a fetch of four components is one texture request
    // per warp (3 warps of 4 threads).
    let src = r#"
__global__ void k(cudaTextureObject_t t, float4* out, float* sum) {
    int x = threadIdx.x, y = blockIdx.x;
    float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
    out[y * 4 + x] = v;
    sum[y * 4 + x] = v.x + v.y + v.z + v.w;
}
launch k {
    grid = 3; block = 4;
    t = texture(arange(48), width = 4, height = 3, channels = 4);
    out = zeros(48);
    sum = zeros(12);
    expect out == arange(48);
    expect sum == 16 * arange(12) + 6;
}
"#;
    let c = ok(src, &[], [3, 1, 1], [4, 1, 1]).counters;
    assert_eq!(c.tex_requests, 3);
    // uchar4 texels read as normalised floats (the image kernels' `cudaReadModeNormalizedFloat`):
    // texel 1 is (4, 5, 6, 7), so w − x = 3/255; and two channels filtered linearly, each on
    // its own: at x = 1.0 the weight of texel 1 is 0.5, so (0 + 2)/2 = 1 and (10 + 20)/2 = 15.
    let src = r#"
__global__ void k(cudaTextureObject_t t, cudaTextureObject_t u, float* out, float2* mid) {
    float4 v = tex1Dfetch<float4>(t, 1);
    out[0] = v.w - v.x;
    mid[0] = tex1D<float2>(u, 1.0f);
}
launch k {
    t = texture(arange(16), type = uint8, channels = 4, read = normalized);
    u = texture([0, 10, 2, 20], channels = 2, filter = linear);
    out = zeros(1);
    mid = zeros(2);
    expect out == [7.0 / 255 - 4.0 / 255];
    expect mid == [1, 15];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    // A fetch of one channel from a texture of four is refused when it runs, naming both.
    let src = r#"
__global__ void k(cudaTextureObject_t t, float* out) {
    out[0] = tex1Dfetch<float>(t, 0);
}
launch k { t = texture(arange(8), channels = 4); out = zeros(1); }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::texture"]);
    let text = common::describe(&f);
    assert!(
        text.contains("reads one channel but `t` has 4 channels"),
        "{text}"
    );
}

#[test]
fn wrap_without_normalised_coordinates_clamps() {
    // SobelFilter's and fluidsGL's textures: wrap addressing, unnormalised coordinates. The
    // programming guide supports wrap for normalised coordinates only; CUDA accepts the texture
    // and clamps: fetches at -1 and 5 of [1, 2, 3] read 1 and 3 (wrap would read 3 and 3).
    let src = format!(
        "{FETCH_1D}launch k {{ t = texture([1, 2, 3], address=wrap); xs = [-1, 5]; o = zeros(2); expect o == [1, 3]; }}"
    );
    ok(&src, &[], [1, 1, 1], [2, 1, 1]);
}

#[test]
fn a_two_dimensional_texture_reference_is_refused_only_where_a_kernel_reads_it() {
    // ppl.cv's warp.hpp declares 2-D texture references that only its *Tex kernels read: the
    // other kernels of the file run; a kernel that reads one is refused at its declaration.
    let refs = r#"
texture<float, 2, cudaReadModeElementType> tex_a;
texture<float, cudaTextureType2D> tex_b;
"#;
    let k = "__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }\nlaunch k { out = zeros(4); expect out == 1; }";
    assert!(ok(&format!("{refs}{k}"), &[], ONE, [4, 1, 1]).expects_passed());
    let s = "__global__ void s(float* out) { float v = tex_b; out[0] = v; }\nlaunch s { out = zeros(4); }";
    let e = err(&format!("{refs}{s}"), &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&e), ["simt::check::unsupported"]);
    assert!(
        e.errors[0]
            .to_string()
            .contains("the 2-D texture reference `tex_b`"),
        "{}",
        e.errors[0]
    );
}
