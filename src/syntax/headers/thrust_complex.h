// simt's <thrust/complex.h>: thrust::complex<T> with the members, operators and functions
// thrust defines (thrust/complex.h and thrust/detail/complex/arithmetic.h), computed as thrust
// computes them. A header simt reads in place of the real one: no directives.
// thrust::exp hides CUDA's exp inside namespace thrust (C++ lookup stops at the first scope
// that declares the name), so the real part's exponential is taken out here.
template <typename T>
__host__ __device__ T __thrust_real_exp(T x) { return exp(x); }

namespace thrust {

template <typename T>
struct complex {
    T re;
    T im;
    __host__ __device__ complex(T r = 0, T i = 0) : re(r), im(i) {}
    __host__ __device__ T real() const { return re; }
    __host__ __device__ T imag() const { return im; }
    __host__ __device__ void real(T r) { re = r; }
    __host__ __device__ void imag(T i) { im = i; }
    __host__ __device__ void operator+=(const complex<T>& z) { re = re + z.re; im = im + z.im; }
    __host__ __device__ void operator-=(const complex<T>& z) { re = re - z.re; im = im - z.im; }
    __host__ __device__ void operator*=(const complex<T>& z) {
        T r = re * z.re - im * z.im;
        im = re * z.im + im * z.re;
        re = r;
    }
};

template <typename T>
__host__ __device__ complex<T> operator+(const complex<T>& x, const complex<T>& y) {
    return complex<T>(x.re + y.re, x.im + y.im);
}
template <typename T>
__host__ __device__ complex<T> operator+(const complex<T>& x, const T& y) {
    return complex<T>(x.re + y, x.im);
}
template <typename T>
__host__ __device__ complex<T> operator+(const T& x, const complex<T>& y) {
    return complex<T>(x + y.re, y.im);
}
template <typename T>
__host__ __device__ complex<T> operator-(const complex<T>& x, const complex<T>& y) {
    return complex<T>(x.re - y.re, x.im - y.im);
}
template <typename T>
__host__ __device__ complex<T> operator-(const complex<T>& x, const T& y) {
    return complex<T>(x.re - y, x.im);
}
template <typename T>
__host__ __device__ complex<T> operator-(const T& x, const complex<T>& y) {
    return complex<T>(x - y.re, -y.im);
}
template <typename T>
__host__ __device__ complex<T> operator*(const complex<T>& x, const complex<T>& y) {
    return complex<T>(x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re);
}
template <typename T>
__host__ __device__ complex<T> operator*(const complex<T>& x, const T& y) {
    return complex<T>(x.re * y, x.im * y);
}
template <typename T>
__host__ __device__ complex<T> operator*(const T& x, const complex<T>& y) {
    return complex<T>(x * y.re, x * y.im);
}
// Smith-free scaling by |Re y| + |Im y|, as thrust divides.
template <typename T>
__host__ __device__ complex<T> operator/(const complex<T>& x, const complex<T>& y) {
    T s = fabs(y.re) + fabs(y.im);
    T oos = T(1.0) / s;
    T ars = x.re * oos;
    T ais = x.im * oos;
    T brs = y.re * oos;
    T bis = y.im * oos;
    s = (brs * brs) + (bis * bis);
    oos = T(1.0) / s;
    return complex<T>(((ars * brs) + (ais * bis)) * oos, ((ais * brs) - (ars * bis)) * oos);
}
template <typename T>
__host__ __device__ complex<T> operator/(const complex<T>& x, const T& y) {
    return complex<T>(x.re / y, x.im / y);
}
// thrust's operators take a complex and a scalar, or two complexes, of other types too
// (`complex<double> / int`, `2 * z`, `complex<float> * complex<double>`), computed in thrust's
// promoted_numerical_type (thrust/detail/type_traits.h): the
// wider of two floating types, else the floating one. Where both types are the same, the forms
// above are the more specialised and are called.
template <typename A, typename B>
struct __thrust_promoted { typedef A type; };
template <>
struct __thrust_promoted<float, double> { typedef double type; };
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator+(const complex<T0>& x, const T1& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re + y, x.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T1, T0>::type> operator+(const T0& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T1, T0>::type R;
    return complex<R>(x + y.re, y.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator-(const complex<T0>& x, const T1& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re - y, x.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T1, T0>::type> operator-(const T0& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T1, T0>::type R;
    return complex<R>(x - y.re, R(0) - y.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator*(const complex<T0>& x, const T1& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re * y, x.im * y);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T1, T0>::type> operator*(const T0& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T1, T0>::type R;
    return complex<R>(x * y.re, x * y.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator/(const complex<T0>& x, const T1& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re / y, x.im / y);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator+(const complex<T0>& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re + y.re, x.im + y.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator-(const complex<T0>& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(x.re - y.re, x.im - y.im);
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator*(const complex<T0>& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(R(x.re) * R(y.re) - R(x.im) * R(y.im), R(x.re) * R(y.im) + R(x.im) * R(y.re));
}
template <typename T0, typename T1>
__host__ __device__ complex<typename __thrust_promoted<T0, T1>::type> operator/(const complex<T0>& x, const complex<T1>& y) {
    typedef typename __thrust_promoted<T0, T1>::type R;
    return complex<R>(R(x.re), R(x.im)) / complex<R>(R(y.re), R(y.im));
}
template <typename T>
__host__ __device__ complex<T> operator-(const complex<T>& y) {
    return complex<T>(y.re * -T(1), y.im * -T(1));
}
template <typename T>
__host__ __device__ bool operator==(const complex<T>& x, const complex<T>& y) {
    return x.re == y.re && x.im == y.im;
}
template <typename T>
__host__ __device__ bool operator!=(const complex<T>& x, const complex<T>& y) {
    return !(x.re == y.re && x.im == y.im);
}
template <typename T>
__host__ __device__ T abs(const complex<T>& z) {
    return hypot(z.re, z.im);
}
template <typename T>
__host__ __device__ T arg(const complex<T>& z) {
    return atan2(z.im, z.re);
}
template <typename T>
__host__ __device__ complex<T> conj(const complex<T>& z) {
    return complex<T>(z.re, -z.im);
}
template <typename T>
__host__ __device__ T norm(const complex<T>& z) {
    return z.re * z.re + z.im * z.im;
}
template <typename T>
__host__ __device__ complex<T> polar(const T& m, const T& theta) {
    return complex<T>(m * cos(theta), m * sin(theta));
}
template <typename T>
__host__ __device__ complex<T> exp(const complex<T>& z) {
    T e = __thrust_real_exp(z.re);
    if (z.im == T(0)) {
        return complex<T>(e, z.im);
    }
    return complex<T>(e * cos(z.im), e * sin(z.im));
}

}
