// simt's <cufft.h>: the element types of cuFFT's transforms, which kernels that pre- or
// post-process an FFT take. The library's host API (plans, cufftExecC2C) runs on the CPU side and
// is not here. cufftComplex is cuComplex, a float2; cufftDoubleComplex a double2.
// A header simt reads in place of the real one: no directives.
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef float2 cufftComplex;
typedef double2 cufftDoubleComplex;
