//! Library headers simt reads in place of the real ones when a file includes them.

mod mma;

// Each is written in the subset simt checks, with the library's documented semantics and no
// directives; every token of one blames the `#include` line that read it.

/// The headers that `name` includes in turn and simt has texts for: PyTorch's extension
/// headers include `<functional>` (nerfacc's scans take `std::plus<float>` with no include
/// of their own).
pub(crate) fn implied(name: &str) -> &'static [&'static str] {
    match name {
        "torch/extension.h" | "torch/torch.h" | "torch/types.h" | "ATen/ATen.h" => &["functional"],
        // cufft.h includes cuComplex.h (cufftComplex is cuComplex).
        "cufft.h" | "cufftXt.h" => &["cuComplex.h"],
        _ => &[],
    }
}

/// The macros `#include <name>` defines, as (name, body), a function-like one's name with its
/// parameters: PyTorch's c10/macros/Macros.h, which every ATen and extension header includes, defines
/// `C10_WARP_SIZE` (32 when compiling for CUDA) and the device assertions
/// `CUDA_KERNEL_ASSERT(cond)` and `CUDA_KERNEL_ASSERT_MSG(cond, msg)`, which call
/// `__assert_fail` where `cond` is false: what `assert(cond)` does in device code.
pub(crate) fn defines(name: &str) -> &'static [(&'static str, &'static str)] {
    const C10: &[(&str, &str)] = &[
        ("C10_WARP_SIZE", "32"),
        ("CUDA_KERNEL_ASSERT(cond)", "assert(cond)"),
        ("CUDA_KERNEL_ASSERT_MSG(cond,msg)", "assert(cond)"),
    ];
    match name {
        "c10/macros/Macros.h" | "torch/extension.h" | "torch/torch.h" | "torch/types.h" => C10,
        n if n.starts_with("ATen/") || n.starts_with("c10/") => C10,
        _ => &[],
    }
}

/// The include guard simt's text of header `name` defines, as the real header does: CUDA
/// samples' helper_math.h and cutil_math.h, its pre-5.0 name, so that a copy of the header's
/// text later in the file (`#ifndef CUTIL_MATH_H`) is skipped as after the real header.
pub(crate) fn guard(name: &str) -> Option<&'static str> {
    match name {
        n if n.ends_with("helper_math.h") => Some("HELPER_MATH_H"),
        n if n.ends_with("cutil_math.h") => Some("CUTIL_MATH_H"),
        _ => None,
    }
}

/// Whether `name` is one of simt's headers under another name (a path to helper_math.h,
/// `cutil_math.h`): a project's own file of that name beside the source is read instead.
pub(crate) fn is_alias(name: &str) -> bool {
    name != "helper_math.h" && (name.ends_with("helper_math.h") || name.ends_with("cutil_math.h"))
}

/// The text simt reads for `#include <name>` or `#include "name"`, if it has one.
pub(crate) fn header(name: &str) -> Option<&'static str> {
    // A project's copy of CUDA samples' helper_math.h in its own tree (cuda_voxelizer's
    // `"libs/cuda/helper_math.h"`) is the same header, and so is cutil_math.h, its name in the
    // CUDA SDK before 5.0 (fluids3).
    let name = match name.rsplit('/').next() {
        Some("helper_math.h" | "cutil_math.h") => "helper_math.h",
        _ => name,
    };
    match name {
        "thrust/complex.h" => Some(include_str!("headers/thrust_complex.h")),
        "thrust/pair.h" => Some(include_str!("headers/thrust_pair.h")),
        "cupy/complex.cuh" => Some(concat!(
            include_str!("headers/thrust_complex.h"),
            include_str!("headers/cupy_complex.h")
        )),
        "array" | "cuda/std/array" => Some(include_str!("headers/array.h")),
        "helper_math.h" => Some(include_str!("headers/helper_math.h")),
        // cuBLAS's and cuSPARSE's headers include <cuComplex.h> (their complex types).
        "cuComplex.h" | "cublas_v2.h" | "cublas.h" | "cusparse.h" | "cusparse_v2.h" => {
            Some(include_str!("headers/cucomplex.h"))
        }
        "mma.h" => Some(mma::text()),
        // cufftXt.h includes cufft.h.
        "cufft.h" | "cufftXt.h" => Some(include_str!("headers/cufft.h")),
        // `<cub/...>`, or a copy of CUB kept in a project's tree
        // (`<contrib/libs/cub/cub/thread/thread_load.cuh>`).
        n if n.starts_with("cub/") || n.contains("/cub/") => Some(include_str!("headers/cub.h")),
        "glm/glm.hpp" | "glm/gtc/type_ptr.hpp" => Some(include_str!("headers/glm.h")),
        "curand_kernel.h" => Some(include_str!("headers/curand_kernel.h")),
        "type_traits" => Some(include_str!("headers/type_traits.h")),
        "functional" | "thrust/functional.h" => Some(include_str!("headers/functional.h")),
        "cuda/atomic" | "cuda/std/atomic" => Some(include_str!("headers/cuda_atomic.h")),
        "ATen/ATen.h"
        | "ATen/AccumulateType.h"
        | "ATen/core/TensorAccessor.h"
        | "ATen/cuda/CUDAContext.h"
        | "ATen/cuda/ApplyGridUtils.cuh"
        | "ATen/cuda/CUDAApplyUtils.cuh"
        | "ATen/cuda/Atomic.cuh"
        | "ATen/cuda/detail/TensorInfo.cuh"
        | "ATen/cuda/detail/IndexUtils.cuh"
        | "ATen/native/cuda/KernelUtils.cuh"
        | "torch/extension.h"
        | "torch/types.h"
        | "torch/torch.h"
        | "torch/headeronly/cuda/KernelUtils.h" => Some(include_str!("headers/aten.h")),
        _ => None,
    }
}
