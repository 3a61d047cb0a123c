// simt's <type_traits>: std::bool_constant, a tag type kernels take by value to choose a branch at
// compile time (llm.c's `std::bool_constant<Atomic>`), with its `value` and its conversion to
// bool. The traits themselves (is_same, conditional, enable_if...) are simt's built-ins.
namespace std {
template <bool B> struct bool_constant {
    static constexpr bool value = B;
    __host__ __device__ constexpr operator bool() const { return B; }
};
}
