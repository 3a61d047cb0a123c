// simt's <cub/cub.cuh> (and every other <cub/...> header): the data types CUB's collectives take
// that are ordinary structs, as cub/util_type.cuh defines them. The collectives themselves
// (cub::BlockReduce, cub::WarpScan, ...) and cub::ArgMax / cub::ArgMin are built into the
// checker. A header simt reads in place of the real one: no directives.
namespace cub {

// The algorithm enumerations, in CCCL's order (cub/block/block_load.cuh, block_store.cuh,
// block_reduce.cuh, block_scan.cuh), so that a template parameter can have their type
// (`template <int T, BlockReduceAlgorithm ALGORITHM>`). src/check/cub.rs names them in the same
// order.
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <typename _Key, typename _Value>
struct KeyValuePair {
    _Key key;
    _Value value;
    __host__ __device__ KeyValuePair() {}
    __host__ __device__ KeyValuePair(const _Key& k, const _Value& v) : key(k), value(v) {}
};

// cub/thread/thread_load.cuh and thread_store.cuh: a load or store with a cache modifier
// (`ld.global.cs`, `st.global.wt`, ...). The modifier changes no value and no counter of simt's
// (its sectors are those of the plain access), so each is the plain load or store.
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };
template <CacheLoadModifier MODIFIER, typename T>
__device__ __forceinline__ T ThreadLoad(T* ptr) { return *ptr; }

// cub/iterator/counting_input_iterator.cuh: the sequence val, val + 1, ... read by index.
template <typename ValueType, typename OffsetT = ptrdiff_t>
class CountingInputIterator {
public:
    ValueType val;
    __host__ __device__ __forceinline__ CountingInputIterator(const ValueType& v) : val(v) {}
    __host__ __device__ __forceinline__ ValueType operator*() const { return val; }
    __host__ __device__ __forceinline__ ValueType operator[](OffsetT n) const { return val + (ValueType)n; }
    __host__ __device__ __forceinline__ CountingInputIterator operator+(OffsetT n) const { return CountingInputIterator(val + (ValueType)n); }
};

// cub/iterator/cache_modified_input_iterator.cuh: a pointer read through ThreadLoad<MODIFIER>,
// each read the plain load (above).
template <CacheLoadModifier MODIFIER, typename ValueType, typename OffsetT = ptrdiff_t>
class CacheModifiedInputIterator {
public:
    const ValueType* ptr;
    __host__ __device__ __forceinline__ CacheModifiedInputIterator(const ValueType* p) : ptr(p) {}
    __device__ __forceinline__ ValueType operator*() const { return *ptr; }
    __device__ __forceinline__ ValueType operator[](OffsetT n) const { return ptr[n]; }
    __device__ __forceinline__ CacheModifiedInputIterator operator+(OffsetT n) const { return CacheModifiedInputIterator(ptr + n); }
};
template <CacheStoreModifier MODIFIER, typename OutputIteratorT, typename T>
__device__ __forceinline__ void ThreadStore(OutputIteratorT itr, T val) { *itr = val; }

// The thread-level loads and stores of cub/block/block_load.cuh and block_store.cuh: a thread's
// items in a blocked (consecutive), striped (BLOCK_THREADS apart) or warp-striped arrangement.
template <typename InputT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD]) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) items[ITEM] = block_itr[(linear_tid * ITEMS_PER_THREAD) + ITEM];
}
template <typename InputT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++)
        if ((linear_tid * ITEMS_PER_THREAD) + ITEM < valid_items) items[ITEM] = block_itr[(linear_tid * ITEMS_PER_THREAD) + ITEM];
}
template <typename InputT, typename DefaultT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) items[ITEM] = oob_default;
    LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
}
template <int BLOCK_THREADS, typename InputT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD]) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) items[ITEM] = block_itr[linear_tid + ITEM * BLOCK_THREADS];
}
template <int BLOCK_THREADS, typename InputT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++)
        if (linear_tid + (ITEM * BLOCK_THREADS) < valid_items) items[ITEM] = block_itr[linear_tid + ITEM * BLOCK_THREADS];
}
template <int BLOCK_THREADS, typename InputT, typename DefaultT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) items[ITEM] = oob_default;
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items, valid_items);
}
template <typename InputT, int ITEMS_PER_THREAD, typename InputIteratorT>
__device__ __forceinline__ void LoadDirectWarpStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD]) {
    int tid = linear_tid & 31;
    int wid = linear_tid >> 5;
    int warp_offset = wid * 32 * ITEMS_PER_THREAD;
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) items[ITEM] = block_itr[warp_offset + tid + (ITEM * 32)];
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ __forceinline__ void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) block_itr[(linear_tid * ITEMS_PER_THREAD) + ITEM] = items[ITEM];
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ __forceinline__ void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++)
        if (ITEM + (linear_tid * ITEMS_PER_THREAD) < valid_items) block_itr[(linear_tid * ITEMS_PER_THREAD) + ITEM] = items[ITEM];
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ __forceinline__ void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) block_itr[linear_tid + ITEM * BLOCK_THREADS] = items[ITEM];
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ __forceinline__ void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++)
        if ((ITEM * BLOCK_THREADS) + linear_tid < valid_items) block_itr[linear_tid + ITEM * BLOCK_THREADS] = items[ITEM];
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ __forceinline__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    int tid = linear_tid & 31;
    int wid = linear_tid >> 5;
    int warp_offset = wid * 32 * ITEMS_PER_THREAD;
    for (int ITEM = 0; ITEM < ITEMS_PER_THREAD; ITEM++) block_itr[warp_offset + tid + (ITEM * 32)] = items[ITEM];
}

// cub/thread/thread_operators.cuh's functors, for a kernel that names one as an object
// (`cub::Sum sum; ... Reduce(v, sum)`, vLLM's `cub::ArgMax arg_max; arg_max(a, b)`); made in
// place (`cub::Sum()`) they are the checker's own.
struct Sum {
    template <typename T>
    __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a + b; }
};
struct Max {
    template <typename T>
    __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return (a < b) ? b : a; }
};
struct Min {
    template <typename T>
    __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return (b < a) ? b : a; }
};
struct ArgMax {
    template <typename T, typename OffsetT>
    __host__ __device__ __forceinline__ KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a, const KeyValuePair<OffsetT, T>& b) const {
        if ((b.value > a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
        return a;
    }
};
struct ArgMin {
    template <typename T, typename OffsetT>
    __host__ __device__ __forceinline__ KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a, const KeyValuePair<OffsetT, T>& b) const {
        if ((b.value < a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
        return a;
    }
};

}
