// simt's <functional> and <thrust/functional.h>: the arithmetic, comparison and logical function
// objects (C++ [function.objects], Thrust's functional.h), each an empty struct whose
// operator() applies its operator to two `T`s (one for the unary ones).
namespace std {
template <typename T> struct plus { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a + b; } };
template <typename T> struct minus { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a - b; } };
template <typename T> struct multiplies { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a * b; } };
template <typename T> struct divides { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a / b; } };
template <typename T> struct modulus { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a % b; } };
template <typename T> struct negate { __host__ __device__ constexpr T operator()(const T& a) const { return -a; } };
template <typename T> struct equal_to { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a == b; } };
template <typename T> struct not_equal_to { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a != b; } };
template <typename T> struct greater { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a > b; } };
template <typename T> struct less { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a < b; } };
template <typename T> struct greater_equal { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a >= b; } };
template <typename T> struct less_equal { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a <= b; } };
template <typename T> struct logical_and { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a && b; } };
template <typename T> struct logical_or { __host__ __device__ constexpr bool operator()(const T& a, const T& b) const { return a || b; } };
template <typename T> struct bit_and { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a & b; } };
template <typename T> struct bit_or { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a | b; } };
template <typename T> struct bit_xor { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a ^ b; } };
}
namespace thrust {
template <typename T> struct plus { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a + b; } };
template <typename T> struct minus { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a - b; } };
template <typename T> struct multiplies { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a * b; } };
template <typename T> struct maximum { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <typename T> struct minimum { __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a < b ? a : b; } };
}
