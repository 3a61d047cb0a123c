// simt's <cuda/atomic> and <cuda/std/atomic>: libcu++'s `cuda::atomic_ref<T, Scope>` on an object
// in global or shared memory (`cuda::std::atomic_ref` and `cuda::atomic` are not declared). Each read-modify-write is
// the CUDA atomic of its operation (atomicAdd, atomicSub, atomicMin, atomicMax, atomicAnd,
// atomicOr, atomicXor, atomicExch, atomicCAS), one atomic instruction as libcu++ compiles it; the
// scope and the memory order change no value simt computes (its atomics are sequentially
// consistent). `load` and `store`, which are no atomic instruction of those, are not declared.
namespace cuda {
enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release, memory_order_acq_rel, memory_order_seq_cst };
template <typename T, thread_scope Scope = thread_scope_system>
struct atomic_ref {
    T* ptr;
    __device__ explicit atomic_ref(T& obj) : ptr(&obj) {}
    __device__ T fetch_add(T v, memory_order order = memory_order_seq_cst) const { return atomicAdd(ptr, v); }
    __device__ T fetch_sub(T v, memory_order order = memory_order_seq_cst) const { return atomicSub(ptr, v); }
    __device__ T fetch_min(T v, memory_order order = memory_order_seq_cst) const { return atomicMin(ptr, v); }
    __device__ T fetch_max(T v, memory_order order = memory_order_seq_cst) const { return atomicMax(ptr, v); }
    __device__ T fetch_and(T v, memory_order order = memory_order_seq_cst) const { return atomicAnd(ptr, v); }
    __device__ T fetch_or(T v, memory_order order = memory_order_seq_cst) const { return atomicOr(ptr, v); }
    __device__ T fetch_xor(T v, memory_order order = memory_order_seq_cst) const { return atomicXor(ptr, v); }
    __device__ T exchange(T v, memory_order order = memory_order_seq_cst) const { return atomicExch(ptr, v); }
    __device__ bool compare_exchange_strong(T& expected, T desired, memory_order order = memory_order_seq_cst) const {
        T old = atomicCAS(ptr, expected, desired);
        bool swapped = old == expected;
        expected = old;
        return swapped;
    }
    __device__ bool compare_exchange_weak(T& expected, T desired, memory_order order = memory_order_seq_cst) const {
        return compare_exchange_strong(expected, desired, order);
    }
};
}
