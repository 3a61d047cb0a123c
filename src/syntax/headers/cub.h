// simt's <cub/cub.cuh> (and every other <cub/...> header): the data types CUB's collectives take
// that are ordinary structs, as cub/util_type.cuh defines them. The collectives themselves
// (cub::BlockReduce, cub::WarpScan, ...) and cub::ArgMax / cub::ArgMin are built into the
// checker. A header simt reads in place of the real one: no directives.
namespace cub {

template <typename _Key, typename _Value>
struct KeyValuePair {
    _Key key;
    _Value value;
    __host__ __device__ KeyValuePair() {}
    __host__ __device__ KeyValuePair(const _Key& k, const _Value& v) : key(k), value(v) {}
};

}
