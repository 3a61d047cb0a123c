// simt's <array> and <cuda/std/array>: std::array<T, N> and cuda::std::array<T, N>, an aggregate
// holding `T _Elems[N]`, with indexing, size(), empty(), data(), front(), back(), fill() and
// begin()/end() as pointers, which a range-based for walks. A header simt reads in place of the
// real one: no directives.
namespace std {

template <typename T, size_t N>
struct array {
    T _Elems[N];
    __host__ __device__ T& operator[](size_t i) { return _Elems[i]; }
    __host__ __device__ const T& operator[](size_t i) const { return _Elems[i]; }
    __host__ __device__ constexpr size_t size() const { return N; }
    __host__ __device__ constexpr bool empty() const { return N == 0; }
    __host__ __device__ T* data() { return _Elems; }
    __host__ __device__ T* begin() { return _Elems; }
    __host__ __device__ T* end() { return _Elems + N; }
    __host__ __device__ T& front() { return _Elems[0]; }
    __host__ __device__ T& back() { return _Elems[N - 1]; }
    __host__ __device__ void fill(const T& v) {
        for (size_t i = 0; i < N; ++i) _Elems[i] = v;
    }
};

}

namespace cuda {
namespace std {
template <typename T, size_t N>
using array = ::std::array<T, N>;
}
}
