// ATen's and c10's device-side helpers, for <ATen/ATen.h>, <torch/extension.h>,
// <ATen/cuda/CUDAContext.h> and the other PyTorch extension headers.
// From pytorch/pytorch: aten/src/ATen/AccumulateType.h @ 063edef3d199ef3890cfc65155bbd22a64f56e2a
// (AccumulateType, acc_type: the CUDA specialisations, `half` and `BFloat16` left out);
// aten/src/ATen/core/TensorAccessor.h @ 95c104eff60ec95635ac9b3c59e6e2d57c8c09f6 (DefaultPtrTraits,
// RestrictPtrTraits); aten/src/ATen/cuda/ApplyGridUtils.cuh @ 8e68c2a63ad8c2fafe97c81a936eb8f6a4f70086
// (ATenCeilDiv); aten/src/ATen/cuda/Atomic.cuh's `gpuAtomicAdd`, written here as the
// `atomicAdd` of each type it is overloaded for that simt holds. The accessors themselves (at::PackedTensorAccessor32/64,
// GenericPackedTensorAccessor, torch:: spellings) are simt's own kernel parameter type
// (src/check/accessor.rs): ATen's hold their sizes and strides in arrays that indexing points
// into, which simt keeps as one scalar parameter each.
namespace at {

// c10/util/Half.h and BFloat16.h, re-exported by ATen: 16-bit floats, the bits of CUDA's own.
using Half = __half;
using BFloat16 = __nv_bfloat16;

template <typename T>
struct DefaultPtrTraits {
    typedef T* PtrType;
};

template <typename T>
struct RestrictPtrTraits {
    typedef T* __restrict__ PtrType;
};

template <typename T, bool is_cuda>
struct AccumulateType {};

template <> struct AccumulateType<float, true> { using type = float; };
template <> struct AccumulateType<double, true> { using type = double; };
template <> struct AccumulateType<int8_t, true> { using type = int64_t; };
template <> struct AccumulateType<uint8_t, true> { using type = int64_t; };
template <> struct AccumulateType<char, true> { using type = int64_t; };
template <> struct AccumulateType<int16_t, true> { using type = int64_t; };
template <> struct AccumulateType<int32_t, true> { using type = int64_t; };
template <> struct AccumulateType<int64_t, true> { using type = int64_t; };
template <> struct AccumulateType<bool, true> { using type = bool; };
template <> struct AccumulateType<float, false> { using type = float; };
template <> struct AccumulateType<double, false> { using type = double; };
template <> struct AccumulateType<int8_t, false> { using type = int64_t; };
template <> struct AccumulateType<uint8_t, false> { using type = int64_t; };
template <> struct AccumulateType<char, false> { using type = int64_t; };
template <> struct AccumulateType<int16_t, false> { using type = int64_t; };
template <> struct AccumulateType<int32_t, false> { using type = int64_t; };
template <> struct AccumulateType<int64_t, false> { using type = int64_t; };

// ATen's `typename AccumulateType<T, is_cuda>::type`: the specialisations above give both values
// of `is_cuda` the same type, so it is read with `true` (simt's alias templates substitute type
// parameters into a member's template arguments, not yet value parameters).
template <typename T, bool is_cuda>
using acc_type = typename AccumulateType<T, true>::type;

namespace cuda {

template <typename T>
__host__ __device__ __forceinline__ T ATenCeilDiv(T a, T b) {
    return (a + b - 1) / b;
}

// TensorInfo, the layout argument ATen's older CUDA kernels take (<ATen/cuda/detail/TensorInfo.cuh>):
// a data pointer, up to 25 sizes and strides, and how many are used. IndexToOffset turns a linear
// element number into an offset in elements, the last dimension varying fastest; `Dims` is the
// number of dimensions, or -1 to read it from the argument. Written for simt from the header's
// documented interface; its host-side constructor and dimension collapsing are left out (a launch
// section sets the members: `info.data = ...; info.sizes = [...]; info.strides = [...]; info.dims = 2;`).
namespace detail {

constexpr int MAX_TENSORINFO_DIMS = 25;

template <typename T, typename IndexType>
struct TensorInfo {
    __host__ __device__ inline bool isContiguous() const {
        return dims == 1 && strides[0] == 1;
    }

    T* data;
    IndexType sizes[MAX_TENSORINFO_DIMS];
    IndexType strides[MAX_TENSORINFO_DIMS];
    int dims;
};

template <typename T, typename IndexType, int Dims>
struct IndexToOffset {
    static __host__ __device__ IndexType get(IndexType linearId, const TensorInfo<T, IndexType>& info) {
        const int used = Dims == -1 ? info.dims : Dims;
        IndexType offset = 0;
        for (int d = used - 1; d > 0; --d) {
            offset += (linearId % info.sizes[d]) * info.strides[d];
            linearId /= info.sizes[d];
        }
        return offset + linearId * info.strides[0];
    }
};

}  // namespace detail
}  // namespace cuda
}  // namespace at

namespace torch {

template <typename T>
struct DefaultPtrTraits {
    typedef T* PtrType;
};

template <typename T>
struct RestrictPtrTraits {
    typedef T* __restrict__ PtrType;
};

}  // namespace torch

// <ATen/cuda/Atomic.cuh>: `gpuAtomicAdd` is `atomicAdd`, overloaded by type.
static inline __device__ float gpuAtomicAdd(float* address, float val) { return atomicAdd(address, val); }
static inline __device__ double gpuAtomicAdd(double* address, double val) { return atomicAdd(address, val); }
static inline __device__ int gpuAtomicAdd(int* address, int val) { return atomicAdd(address, val); }
static inline __device__ __half gpuAtomicAdd(__half* address, __half val) { return atomicAdd(address, val); }
// Its `gpuAtomicMax` / `gpuAtomicMin` of a float: ATen's compare-and-swap loop with
// `safe_max` / `safe_min` (a NaN in memory stays); of an int: `atomicMax` / `atomicMin`.
static inline __device__ float gpuAtomicMax(float* address, float val) {
    unsigned int* address_as_ui = (unsigned int*)address;
    unsigned int old = *address_as_ui;
    unsigned int assumed;
    do {
        assumed = old;
        float cur = __int_as_float(assumed);
        float m = isnan(cur) ? cur : (val < cur ? cur : val);
        old = atomicCAS(address_as_ui, assumed, __float_as_int(m));
    } while (assumed != old);
    return __int_as_float(old);
}
static inline __device__ float gpuAtomicMin(float* address, float val) {
    unsigned int* address_as_ui = (unsigned int*)address;
    unsigned int old = *address_as_ui;
    unsigned int assumed;
    do {
        assumed = old;
        float cur = __int_as_float(assumed);
        float m = isnan(cur) ? cur : (cur < val ? cur : val);
        old = atomicCAS(address_as_ui, assumed, __float_as_int(m));
    } while (assumed != old);
    return __int_as_float(old);
}
static inline __device__ int gpuAtomicMax(int* address, int val) { return atomicMax(address, val); }
static inline __device__ int gpuAtomicMin(int* address, int val) { return atomicMin(address, val); }

// <ATen/native/cuda/KernelUtils.cuh>: `fastAtomicAdd` of a float, double or int tensor is
// `gpuAtomicAddNoReturn(tensor + index, value)` (its `fastSpecializedAtomicAdd` for types other
// than Half and BFloat16, whose paired `__half2` atomics simt does not model: not declared).
namespace at {
namespace native {
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(float* tensor, index_t index, const index_t numel, float value, bool fast_atomics) { gpuAtomicAdd(tensor + index, value); }
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(double* tensor, index_t index, const index_t numel, double value, bool fast_atomics) { gpuAtomicAdd(tensor + index, value); }
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(int* tensor, index_t index, const index_t numel, int value, bool fast_atomics) { gpuAtomicAdd(tensor + index, value); }
}  // namespace native
}  // namespace at
// The same in PyTorch's stable ABI (<torch/headeronly/cuda/KernelUtils.h>, torchvision's
// `torch::headeronly::fastAtomicAdd`).
namespace torch {
namespace headeronly {
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(float* tensor, index_t index, const index_t numel, float value, bool fast_atomics) { atomicAdd(tensor + index, value); }
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(double* tensor, index_t index, const index_t numel, double value, bool fast_atomics) { atomicAdd(tensor + index, value); }
template <typename index_t>
__device__ __forceinline__ void fastAtomicAdd(int* tensor, index_t index, const index_t numel, int value, bool fast_atomics) { atomicAdd(tensor + index, value); }
}  // namespace headeronly
}  // namespace torch

