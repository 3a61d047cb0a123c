//! Kernels defined inside namespaces, named with their namespace in a launch section
//! (`launch a::b::k`) and with `--kernel a::b::k`.

use crate::common;
use common::{codes, simt};

const FILE: &str = r#"
namespace a { namespace b {
__global__ void k(int* out) { out[threadIdx.x] = 1; }
template <int N> __global__ void t(int* out) { out[threadIdx.x] = N; }
} }
__global__ void top(int* out) { out[threadIdx.x] = 3; }
launch a::b::k { out = zeros(32); block = 32; grid = 1; expect out == 1; }
launch k { out = zeros(32); block = 32; grid = 1; expect out == 1; }
launch ::a::b::k { out = zeros(32); block = 32; grid = 1; expect out == 1; }
launch a::b::t<5> { out = zeros(32); block = 32; grid = 1; expect out == 5; }
launch ::top { out = zeros(32); block = 32; grid = 1; expect out == 3; }
"#;

fn file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("simt-names-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("writes");
    path.to_string_lossy().into_owned()
}

#[test]
fn qualified_launch_names_find_the_namespaces_kernels() {
    // Every section finds its kernel and its expect holds: the qualified, plain and
    // globally-qualified names of `a::b::k`, the template instance `a::b::t<5>`, and `::top`.
    let path = file("ok.sk", FILE);
    let (code, out, err) = simt(&["test", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");
}

#[test]
fn kernel_flag_takes_a_qualified_name() {
    let path = file("flag.sk", FILE);
    for name in ["a::b::k", "::a::b::k", "top"] {
        let (code, out, err) = simt(&["run", &path, "--kernel", name]);
        assert_eq!(code, 0, "--kernel {name}: {out}{err}");
    }
    // The instance `t<7>` runs with `t<5>`'s launch section, whose `expect out == 5` fails
    // (out is 7): exit 1, and the report names the instance.
    let (code, out, err) = simt(&["run", &path, "--kernel", "a::b::t<7>"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("t<7>"), "{out}");
    // A misspelt qualified name: the qualified names are offered.
    let (code, _, err) = simt(&["run", &path, "--kernel", "a::b::kk"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `a::b::k`?"), "{err}");
}

#[test]
fn a_launch_of_a_kernel_in_another_namespace_is_unknown() {
    // `k` is defined in `a::b`, not `a::c`: unknown, with the qualified name suggested.
    let src = "namespace a { namespace b {\n__global__ void k(int* out) { out[0] = 1; }\n} }\nlaunch a::c::k { out = zeros(1); block = 1; grid = 1; }\n";
    let Err(f) = simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)) else {
        panic!("compiled");
    };
    assert_eq!(codes(&f), ["simt::check::unknown_kernel"]);
    assert!(
        common::describe(&f).contains("no kernel named `a::c::k`"),
        "{}",
        common::describe(&f)
    );
    use miette::Diagnostic;
    let help = f.errors[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert_eq!(help, "did you mean `a::b::k`?");
}

#[test]
fn two_kernels_of_one_name_in_different_namespaces_are_refused() {
    // A plain name must name one kernel: a second `k` in another namespace is a duplicate.
    let src = "namespace a {\n__global__ void k(int* out) { out[0] = 1; }\n}\nnamespace c {\n__global__ void k(int* out) { out[0] = 2; }\n}\n";
    let Err(f) = simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)) else {
        panic!("compiled");
    };
    assert_eq!(codes(&f), ["simt::check::duplicate"]);
}

#[test]
fn a_kernel_declared_in_a_namespace_may_be_defined_outside_it() {
    // cuSZ: `template <...> __global__ void k(...);` inside `namespace cuSZ { namespace PdQ {`,
    // defined at file scope as `cuSZ::PdQ::k`, explicitly instantiated, beside an `extern
    // __constant__` array the launch sets. `scale` is found from inside the namespace: out[i] =
    // dims[i] * 2 + B.
    let text = r#"
extern __constant__ int dims[4];
namespace cuSZ { namespace PdQ {
__device__ int scale(int x) { return 2 * x; }
template <typename T, int B = 32>
__global__ void k(T* out);
} }
template <typename T, int B>
__global__ void cuSZ::PdQ::k(T* out) { out[threadIdx.x] = scale(dims[threadIdx.x]) + B; }
template __global__ void cuSZ::PdQ::k<float, 32>(float*);
launch cuSZ::PdQ::k<float, 32> { out = zeros(4); dims = [1, 2, 3, 4]; block = 4; grid = 1; expect out == [34, 36, 38, 40]; }
launch k<int, 1> { out = zeros(4); dims = [0, 0, 0, 5]; block = 4; grid = 1; expect out == [1, 1, 1, 11]; }
"#;
    let path = file("outside.sk", text);
    let (code, out, err) = simt(&["test", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}
