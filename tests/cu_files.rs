//! Whole `.cu` programs: host code (functions without `__device__`, file-scope variables) is
//! skipped with a note; kernels and device code run as in a `.sk` file.

use crate::common;
use common::{codes, err, ok, simt};

/// A CUDA program as it would be written for nvcc: host globals, a host helper, `main` with a
/// `<<<...>>>` launch, braces inside strings, characters and comments.
const PROGRAM: &str = r#"
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { exit(1); } } while (0)

int N = 1 << 10;
float *d_a, *d_b;
static const char* name = "vecadd {demo}";

__host__ __device__ inline float add(float x, float y) { return x + y; }

__global__ void vecadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = add(a[i], b[i]);
}

void fill(float* h, int n) {
    for (int i = 0; i < n; i++) { h[i] = i; }   // a } in a comment
    char close = '}';
}

int main(int argc, char** argv) {
    float *h_a = (float*)malloc(N * sizeof(float));
    fill(h_a, N);
    CHECK(cudaMalloc(&d_a, N * sizeof(float)));
    vecadd<<<(N + 255) / 256, 256>>>(d_a, d_b, d_a, N);
    printf("done {%d}\n", N);
    return 0;
}
"#;

#[test]
fn host_code_is_skipped_and_the_kernel_runs() {
    let args = [
        ("a", "arange(64)"),
        ("b", "ones(64)"),
        ("c", "zeros(64)"),
        ("n", "64"),
    ];
    let r = ok(PROGRAM, &args, [2, 1, 1], [32, 1, 1]);
    // 64 threads, two warps, both inside n: the loads are 2 × 2 requests of 4 sectors.
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (4, 16));
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    assert!(
        note.message.contains("function `main` (line 22)"),
        "{}",
        note.message
    );
    assert!(
        note.message.contains("function `fill` (line 17)"),
        "{}",
        note.message
    );
}

#[test]
fn registration_macro_blocks_are_skipped_as_host_code() {
    // A PyTorch extension's `.cu` file: the torch.library and pybind11 registrations are macros
    // invoked at file scope with a body (strings in them hold `(`, `)`, `{` and `->`). Each is
    // named in the note at the line of its name; the kernel runs: r = a + 1.
    let src = r#"
#include <torch/extension.h>
__global__ void inc(const float* a, float* r) { r[threadIdx.x] = a[threadIdx.x] + 1.0f; }
torch::Tensor inc_cuda(const torch::Tensor& a) { return a; }
TORCH_LIBRARY(ext, m) { m.def("inc(Tensor a) -> Tensor"); }
TORCH_LIBRARY_IMPL(ext, CUDA, m) {
    m.impl("inc", &inc_cuda);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("inc", &inc_cuda, "increment {CUDA}"); }
launch inc { a = arange(32); r = zeros(32); expect r == a + 1; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    for item in [
        "function `inc_cuda` (line 4)",
        "the macro block `TORCH_LIBRARY(...) { ... }` (line 5)",
        "the macro block `TORCH_LIBRARY_IMPL(...) { ... }` (line 6)",
        "the macro block `PYBIND11_MODULE(...) { ... }` (line 9)",
    ] {
        assert!(note.message.contains(item), "{item}: {}", note.message);
    }
}

#[test]
fn a_kernel_reading_a_host_variable_is_told_why_it_cannot() {
    let src = PROGRAM.replace("if (i < n)", "if (i < N)");
    let f = err(&src, &[("n", "64")], Some([1, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::host_variable"]);
    assert!(
        common::describe(&f).contains("`N` is a host variable"),
        "{}",
        common::describe(&f)
    );
}

#[test]
fn check_lists_the_kernels_and_the_skipped_host_code() {
    let dir = std::env::temp_dir().join(format!("simt-cu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("program.cu");
    std::fs::write(&path, PROGRAM).expect("write");
    let (code, out, _) = simt(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("__global__ void vecadd(const float* a, const float* b, float* c, int n)"),
        "{out}"
    );
    assert!(out.contains("note: skipped host code"), "{out}");
}

#[test]
fn a_launch_file_sets_up_an_untouched_cu_program() {
    // The program has no launch section; setup.sk has one for `vecadd` (n = 1000, c = a + b).
    let dir = std::env::temp_dir().join(format!("simt-cu-launch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let program = dir.join("program.cu");
    std::fs::write(&program, PROGRAM).expect("write");
    let setup = dir.join("setup.sk");
    std::fs::write(
        &setup,
        "launch vecadd {\n    n = 1000;\n    a = arange(n);\n    b = ones(n);\n    c = zeros(n);\n    block = 256;\n    grid = cdiv(n, block);\n    expect c == a + b;\n}\n",
    )
    .expect("write");
    let (p, s) = (
        program.to_str().expect("utf-8"),
        setup.to_str().expect("utf-8"),
    );
    let (code, out, err) = simt(&["run", p, "--kernel", "vecadd", "--launch", s, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["ok"], true);
    assert_eq!(v["expects"][0]["text"], "c == a + b");
    assert_eq!(v["launch"]["grid"][0], 4);
    // A mistake in the launch file is shown in the launch file.
    let broken = dir.join("broken.sk");
    std::fs::write(
        &broken,
        "launch vecadd {\n    n = 8;\n    a = arange(m);\n}\n",
    )
    .expect("write");
    let b = broken.to_str().expect("utf-8");
    let (code, out, _) = simt(&["run", p, "--kernel", "vecadd", "--launch", b, "--json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["error"]["code"], "simt::host::unknown_name");
    assert_eq!(v["error"]["file"], b);
    assert_eq!(
        (v["error"]["line"].as_u64(), v["error"]["column"].as_u64()),
        (Some(3), Some(16))
    );
    // A launch file without a section for the kernel says which it has.
    let other = dir.join("other.sk");
    std::fs::write(&other, "launch saxpy { n = 1; }\n").expect("write");
    let (code, _, err) = simt(&[
        "run",
        p,
        "--kernel",
        "vecadd",
        "--launch",
        other.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("has no `launch vecadd` section"), "{err}");
    assert!(err.contains("its launch sections are for: saxpy"), "{err}");
}

#[test]
fn host_stream_operators_are_skipped() {
    let src = r#"
#include <iostream>
struct V { float x; };
inline std::istream& operator>>(std::istream &is, V &t) { is >> t.x; return is; }
inline std::ostream& operator<<(std::ostream &os, const V &t) { os << "{" << t.x << "}"; return os; }
__global__ void k(float* out) { V v; v.x = 2.0f; out[0] = v.x; }
launch k { out = zeros(1); expect out == [2.0]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    // Both operators are host functions (no `__device__`), named at their lines.
    assert!(
        note.message.contains("function `operator>>` (line 4)")
            && note.message.contains("function `operator<<` (line 5)"),
        "{}",
        note.message
    );
}

#[test]
fn a_friend_stream_operator_template_in_a_class_is_host_code() {
    // wudip/nbody-cuda's vec3.h: `template<typename U> friend std::ostream &operator<<(...)
    // { ... }` defined in a class template was a bare syntax error.
    let src = r#"
#include <iostream>
template<class T>
class Vec3 {
public:
    T x, y, z;
    template<typename U>
    friend std::ostream &operator<<(std::ostream &o, const Vec3<U> &vector) {
        o << vector.x << " " << vector.y << " " << vector.z;
        return o;
    }
};
__global__ void k(float *o) { Vec3<float> v; v.x = 1.0f; o[threadIdx.x] = v.x; }
launch k { o = zeros(4); expect o == 1.0; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn host_function_templates_are_skipped_and_calling_host_code_is_refused() {
    // ArrayFire's Param.hpp: `template<typename T> Param<T> flat(Param<T> in) { ... }`, host
    // code beside the kernels.
    let src = r#"
template <typename T>
struct P { T *ptr; int n; };
template <typename T>
P<T> flat(P<T> in) {
    in.n = 1;
    return in;
}
template <typename T>
inline void put(T *out, int i) { out[i] = i; }
inline int thrice(int x) { return 3 * x; }
__global__ void k(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }
launch k { out = zeros(4); expect out == [0, 2, 4, 6]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    for skipped in ["`flat` (line 5)", "`put` (line 10)", "`thrice` (line 11)"] {
        assert!(note.message.contains(skipped), "{}", note.message);
    }
    // Called from the kernel, each is host code (nvcc: "calling a __host__ function from a
    // __global__ function is not allowed").
    for call in ["put<float>(out, threadIdx.x)", "out[0] = thrice(2)"] {
        let kernel = format!("__global__ void k(float *out) {{ {call}; }}");
        let text = src.replace(
            "__global__ void k(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }",
            &kernel,
        );
        let f = err(&text, &[], Some([1, 1, 1]), Some([4, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::host_function"], "{call}");
    }
}

#[test]
fn file_scope_extern_declarations_are_host_code() {
    // k-means' `extern int _debug;`, cuda-samples' `extern "C" void computeGold(...);` and a
    // plain `extern int f(int);` declare host things: skipped with the note, and the kernel runs.
    // `extern __shared__` stays a shared declaration.
    let src = r#"
extern int _debug;
extern "C" void computeGold(float* reference, float* idata, const unsigned int len);
extern int f(int x);
extern __shared__ float dyn[];
__global__ void k(float *out) { dyn[threadIdx.x] = threadIdx.x; out[threadIdx.x] = 2.0f * dyn[threadIdx.x]; }
launch k { out = zeros(4); dyn_smem = 16; expect out == [0, 2, 4, 6]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    for skipped in [
        "`_debug` (line 2)",
        "`computeGold` (line 3)",
        "`f` (line 4)",
    ] {
        assert!(note.message.contains(skipped), "{}", note.message);
    }
}

#[test]
fn host_prototypes_destructors_virtual_members_and_lambda_globals_are_host_code() {
    // Round 16's host code: COLMAP's function-template prototype, tensorrtx's plugin class
    // (`~P();`, `virtual ... override`, a pure virtual base) with members defined outside it,
    // and SiftGPU's `const static cudaTextureDesc d = []() { ... }();`. None is used by the
    // kernel, which runs: out[i] = 2i.
    let src = r#"
template <typename T>
void CudaTranspose(const T* input, T* output, const int width);
struct IPluginBase {
    virtual ~IPluginBase() {}
    virtual int getWorkspaceSize(int maxBatchSize) const noexcept = 0;
};
class Plugin : public IPluginBase {
   public:
    Plugin(int n);
    ~Plugin();
    int getWorkspaceSize(int maxBatchSize) const noexcept override { return 0; }
    virtual const char* name() const noexcept { return "{yolo;}"; }
   private:
    int n_;
};
Plugin::~Plugin() {}
const static cudaTextureDesc texDataDesc = []() {
  cudaTextureDesc textureDesc;
  memset(&textureDesc, 0, sizeof(textureDesc));
  return textureDesc;
}();
__global__ void k(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }
launch k { out = zeros(4); expect out == [0, 2, 4, 6]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Device code that uses the class is refused at the virtual member; one that reads the
    // lambda-built global is told it is the host's.
    let uses = [
        (
            "Plugin p(1); out[0] = p.getWorkspaceSize(1);",
            "simt::check::unsupported",
        ),
        ("out[0] = texDataDesc;", "simt::check::host_variable"),
    ];
    for (body, code) in uses {
        let text = src.replace("out[threadIdx.x] = 2.0f * threadIdx.x;", body);
        let f = err(&text, &[], Some([1, 1, 1]), Some([4, 1, 1]));
        assert_eq!(codes(&f)[0], code, "{body}: {}", common::describe(&f));
    }
}

#[test]
fn explicit_instantiations_and_host_aliases_are_noted_with_the_host_code() {
    // OpenCV's `template void f<float>(...)`, MinkowskiEngine's kernel instantiations and
    // LightGBM's `std::function` alias: nvcc compiles them, simt names them in the note.
    let src = r#"
#include <functional>
#include <vector>
using PredictFunction =
std::function<void(const std::vector<int>&, double* output)>;
template <typename T>
__global__ void k(T* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] + p[i];
}
template <class T>
void f(T* p, int n) { k<<<1, 32>>>(p, n); }
template void f<float>(float* p, int n);
template __global__ void k<float>(float* p, int n);
launch k<float> { n = 4; p = [1, 2, 3, 4]; expect p == [2, 4, 6, 8]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "host-code")
        .expect("a note");
    for item in [
        "the type alias `PredictFunction` (line 4)",
        "the explicit instantiation `template void f<float>` (line 13)",
        "the explicit instantiation `template __global__ void k<float>` (line 14)",
    ] {
        assert!(note.message.contains(item), "{item}: {}", note.message);
    }
}

#[test]
fn an_inline_host_prototype_is_host_code() {
    // dgSPARSE's gespmm.h: `inline gespmmAlg_t gespmmAlgSel(int dense_ncol, bool
    // transpose_BC);`, a declaration without a body (the same line without `inline` was
    // already host code). The kernel runs; device code that calls it is told it is the host's.
    let src = r#"
enum gespmmAlg_t { ALG_DEFAULT, ALG_OTHER };
inline gespmmAlg_t gespmmAlgSel(int dense_ncol, bool transpose_BC);
static inline float scale(float);
__global__ void k(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }
launch k { out = zeros(4); expect out == [0, 2, 4, 6]; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
    let text = src.replace("2.0f * threadIdx.x", "scale(1.0f)");
    let f = err(&text, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::host_function"]);
}

#[test]
fn a_byte_order_mark_and_specifiers_after_a_host_functions_type_are_read() {
    // NVEnc's sources begin with a UTF-8 byte-order mark, and a header beside the file may too;
    // NVIDIA's Video SDK writes `void inline GetConstants(...)`. Both compile under nvcc. The
    // kernel writes 1 + 2 + 3 - 3 (the headers' constants) = 3.
    let dir = std::env::temp_dir().join(format!("simt-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("two.h"), "\u{feff}#define TWO 2\n").expect("write");
    // A header of ISO-8859-1 comments is read as the kernel file is (`café`, byte 0xE9).
    std::fs::write(dir.join("three.h"), b"// caf\xe9\n#define THREE 3\n").expect("write");
    let text = r#"#include "two.h"
#include "three.h"
void inline GetConstants(int iMatrix, float &wr) {
    wr = 0.2126f;
    if (iMatrix == 2) { wr = 0.2990f; }
}
int& __forceinline__ pick(int& a) { return a; }
__global__ void k(int* p) { p[threadIdx.x] = 1 + TWO + THREE - 3; }
launch k { p = zeros(2); block = 2; grid = 1; expect p == 3; }
"#;
    let path = dir.join("bom.cu");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(text.as_bytes());
    std::fs::write(&path, bytes).expect("write");
    let (code, out, errs) = simt(&["test", path.to_str().expect("utf-8 path")]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{out}{errs}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

#[test]
fn a_cxx_attribute_from_a_macro_is_an_attribute() {
    // zfp's `#define fallthrough_ [[fallthrough]];` expands to spaced tokens `[ [ fallthrough ] ]
    // ;`, still an attribute on an empty statement (simt read a list and said "no effect").
    // n = 0 falls through case 0 into case 1: p = [1, 1 + one()] = [1, 2]. `[[nodiscard]]`
    // from a macro before a function is an attribute too.
    let src = r#"
#define FT [[fallthrough]];
#define NODISCARD [[nodiscard]]
NODISCARD __device__ int one() { return 1; }
__global__ void k(int* p, int n) {
  switch (n) {
  case 0:
    p[0] = 1;
    FT
  case 1:
    p[1] = 1 + one();
    break;
  }
}
launch k { p = zeros(2); n = 0; expect p == [1, 2]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn static_may_follow_a_kernels_void() {
    // NestGPU's hashJoin.cu spells its 16 kernels `__global__ void static name(...)`.
    let src = r#"
__global__ void static k(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
}
launch k { n = 8; a = zeros(8); expect a == arange(8); }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}
