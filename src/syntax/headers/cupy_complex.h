// simt's <cupy/complex.cuh>, the header CuPy's RawKernel and RawModule code includes: CuPy's
// complex<T> is thrust::complex<T> (simt's <thrust/complex.h>, read before this text), brought
// into the global scope with the functions of it simt has, and the classification functions
// CuPy adds for it. A header simt reads in place of the real one: no directives.
using thrust::complex;

template <typename T>
__host__ __device__ bool isnan(complex<T> z) { return isnan(z.real()) || isnan(z.imag()); }

template <typename T>
__host__ __device__ bool isinf(complex<T> z) { return isinf(z.real()) || isinf(z.imag()); }

template <typename T>
__host__ __device__ bool isfinite(complex<T> z) { return isfinite(z.real()) && isfinite(z.imag()); }
