// simt's <thrust/pair.h>: thrust::pair<T1, T2> with its members `first` and `second`, its
// constructors (value-initialising, as thrust's default one does) and thrust::make_pair. A header
// simt reads in place of the real one: no directives.
namespace thrust {

template <typename T1, typename T2>
struct pair {
    T1 first;
    T2 second;
    __host__ __device__ pair() : first(T1()), second(T2()) {}
    __host__ __device__ pair(const T1& a, const T2& b) : first(a), second(b) {}
};

template <typename T1, typename T2>
__host__ __device__ pair<T1, T2> make_pair(T1 a, T2 b) { return pair<T1, T2>(a, b); }

}
