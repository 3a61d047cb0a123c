// simt's <curand_kernel.h>: cuRAND's device API for the XORWOW (default) and Philox4_32_10
// generators, computed as NVIDIA's headers compute it (CUDA 11's curand_kernel.h,
// curand_philox4x32_x.h, curand_uniform.h, curand_normal.h, curand_lognormal.h; docs/curand.md
// names the copy read). A header simt reads in place of the real one: no directives.
//
// Differences, all documented in docs/curand.md:
// - every member of a state is an `unsigned int` (simt keeps a struct in memory as an array of
//   one scalar type), laid out as NVIDIA's: sizeof is 48 (XORWOW) and 64 (Philox); the cached
//   Box-Muller values are stored as their bits;
// - XORWOW's skip-ahead (curand_init, skipahead, skipahead_sequence) multiplies the state by a
//   power of the generator's matrix that simt computes (src/curand.rs), not by the tables of
//   curand_precalc.h: `__simt_xorwow_skipahead[_sequence](v0, ..., v4, n, word)` is one word of
//   the result;
// - a product feeding an addition is written `fmaf`, as nvcc contracts it (-fmad=true);
// - __sincosf, __logf and sincospi are simt's accurate sinf/cosf, logf and sin(pi x)/cos(pi x).

struct curandStateXORWOW {
    unsigned int d, v[5];
    unsigned int boxmuller_flag;
    unsigned int boxmuller_flag_double;
    unsigned int boxmuller_extra;
    unsigned int boxmuller_padding;
    unsigned int boxmuller_extra_double[2];
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
    uint4 ctr;
    uint4 output;
    uint2 key;
    unsigned int STATE;
    unsigned int boxmuller_flag;
    unsigned int boxmuller_flag_double;
    unsigned int boxmuller_extra;
    unsigned int boxmuller_extra_double[2];
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

// XORWOW

static __forceinline__ __device__ void skipahead(unsigned long long n, curandStateXORWOW_t *state)
{
    unsigned int v0 = state->v[0];
    unsigned int v1 = state->v[1];
    unsigned int v2 = state->v[2];
    unsigned int v3 = state->v[3];
    unsigned int v4 = state->v[4];
    state->v[0] = __simt_xorwow_skipahead(v0, v1, v2, v3, v4, n, 0);
    state->v[1] = __simt_xorwow_skipahead(v0, v1, v2, v3, v4, n, 1);
    state->v[2] = __simt_xorwow_skipahead(v0, v1, v2, v3, v4, n, 2);
    state->v[3] = __simt_xorwow_skipahead(v0, v1, v2, v3, v4, n, 3);
    state->v[4] = __simt_xorwow_skipahead(v0, v1, v2, v3, v4, n, 4);
    state->d += 362437 * (unsigned int)n;
}

static __forceinline__ __device__ void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state)
{
    unsigned int v0 = state->v[0];
    unsigned int v1 = state->v[1];
    unsigned int v2 = state->v[2];
    unsigned int v3 = state->v[3];
    unsigned int v4 = state->v[4];
    state->v[0] = __simt_xorwow_skipahead_sequence(v0, v1, v2, v3, v4, n, 0);
    state->v[1] = __simt_xorwow_skipahead_sequence(v0, v1, v2, v3, v4, n, 1);
    state->v[2] = __simt_xorwow_skipahead_sequence(v0, v1, v2, v3, v4, n, 2);
    state->v[3] = __simt_xorwow_skipahead_sequence(v0, v1, v2, v3, v4, n, 3);
    state->v[4] = __simt_xorwow_skipahead_sequence(v0, v1, v2, v3, v4, n, 4);
}

static __forceinline__ __device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                                                   unsigned long long offset, curandStateXORWOW_t *state)
{
    unsigned int s0 = ((unsigned int)seed) ^ 0xaad26b49u;
    unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
    unsigned int t0 = 1099087573u * s0;
    unsigned int t1 = 2591861531u * s1;
    state->d = 6615241 + t1 + t0;
    state->v[0] = 123456789u + t0;
    state->v[1] = 362436069u ^ t0;
    state->v[2] = 521288629u + t1;
    state->v[3] = 88675123u ^ t1;
    state->v[4] = 5783321u + t0;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0;
    state->boxmuller_padding = 0;
    state->boxmuller_extra_double[0] = 0;
    state->boxmuller_extra_double[1] = 0;
}

static __forceinline__ __device__ unsigned int curand(curandStateXORWOW_t *state)
{
    unsigned int t;
    t = (state->v[0] ^ (state->v[0] >> 2));
    state->v[0] = state->v[1];
    state->v[1] = state->v[2];
    state->v[2] = state->v[3];
    state->v[3] = state->v[4];
    state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
    state->d += 362437;
    return state->v[4] + state->d;
}

// Philox4_32_10

static __forceinline__ __device__ void Philox_State_Incr(curandStatePhilox4_32_10_t *s, unsigned long long n)
{
    unsigned int nlo = (unsigned int)(n);
    unsigned int nhi = (unsigned int)(n >> 32);
    s->ctr.x += nlo;
    if (s->ctr.x < nlo) {
        nhi++;
    }
    s->ctr.y += nhi;
    if (nhi > s->ctr.y) {
        s->ctr.z += 1;
        if (s->ctr.z == 0) {
            s->ctr.w += 1;
        }
    }
}

static __forceinline__ __device__ void Philox_State_Incr_hi(curandStatePhilox4_32_10_t *s, unsigned long long n)
{
    unsigned int nlo = (unsigned int)(n);
    unsigned int nhi = (unsigned int)(n >> 32);
    s->ctr.z += nlo;
    if (s->ctr.z < nlo) {
        nhi++;
    }
    s->ctr.w += nhi;
}

static __forceinline__ __device__ void Philox_State_Incr(curandStatePhilox4_32_10_t *s)
{
    s->ctr.x += 1;
    if (s->ctr.x == 0) {
        s->ctr.y += 1;
        if (s->ctr.y == 0) {
            s->ctr.z += 1;
            if (s->ctr.z == 0) {
                s->ctr.w += 1;
            }
        }
    }
}

static __forceinline__ __device__ uint4 _philox4x32round(uint4 ctr, uint2 key)
{
    unsigned int hi0 = __umulhi(0xD2511F53u, ctr.x);
    unsigned int lo0 = 0xD2511F53u * ctr.x;
    unsigned int hi1 = __umulhi(0xCD9E8D57u, ctr.z);
    unsigned int lo1 = 0xCD9E8D57u * ctr.z;
    uint4 ret = {hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0};
    return ret;
}

static __forceinline__ __device__ uint4 curand_Philox4x32_10(uint4 c, uint2 k)
{
    for (int round = 0; round < 9; round++) {
        c = _philox4x32round(c, k);
        k.x += 0x9E3779B9u;
        k.y += 0xBB67AE85u;
    }
    return _philox4x32round(c, k);
}

static __forceinline__ __device__ unsigned int curand(curandStatePhilox4_32_10_t *state)
{
    unsigned int ret;
    unsigned int index = state->STATE;
    state->STATE = index + 1;
    switch (index) {
    default:
        ret = state->output.x;
        break;
    case 1:
        ret = state->output.y;
        break;
    case 2:
        ret = state->output.z;
        break;
    case 3:
        ret = state->output.w;
        break;
    }
    if (state->STATE == 4) {
        Philox_State_Incr(state);
        state->output = curand_Philox4x32_10(state->ctr, state->key);
        state->STATE = 0;
    }
    return ret;
}

static __forceinline__ __device__ uint4 curand4(curandStatePhilox4_32_10_t *state)
{
    uint4 r;
    uint4 tmp = state->output;
    Philox_State_Incr(state);
    state->output = curand_Philox4x32_10(state->ctr, state->key);
    if (state->STATE == 1) {
        r.x = tmp.y;
        r.y = tmp.z;
        r.z = tmp.w;
        r.w = state->output.x;
    } else if (state->STATE == 2) {
        r.x = tmp.z;
        r.y = tmp.w;
        r.z = state->output.x;
        r.w = state->output.y;
    } else if (state->STATE == 3) {
        r.x = tmp.w;
        r.y = state->output.x;
        r.z = state->output.y;
        r.w = state->output.z;
    } else {
        r = tmp;
    }
    return r;
}

static __forceinline__ __device__ void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    state->STATE += (unsigned int)(n & 3);
    n /= 4;
    if (state->STATE > 3) {
        n += 1;
        state->STATE -= 4;
    }
    Philox_State_Incr(state, n);
    state->output = curand_Philox4x32_10(state->ctr, state->key);
}

static __forceinline__ __device__ void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    Philox_State_Incr_hi(state, n);
    state->output = curand_Philox4x32_10(state->ctr, state->key);
}

static __forceinline__ __device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                                                   unsigned long long offset, curandStatePhilox4_32_10_t *state)
{
    state->ctr = make_uint4(0, 0, 0, 0);
    state->key.x = (unsigned int)seed;
    state->key.y = (unsigned int)(seed >> 32);
    state->STATE = 0;
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0;
    state->boxmuller_extra_double[0] = 0;
    state->boxmuller_extra_double[1] = 0;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
}

// Uniform (curand_uniform.h): 2^-32 and 2^-53 are exact, so each product is exact and the sum
// rounds once, fused or not.

static __forceinline__ __device__ float _curand_uniform(unsigned int x)
{
    return x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
}

static __forceinline__ __device__ double _curand_uniform_double(unsigned int x)
{
    return x * 2.3283064365386963e-10 + 2.3283064365386963e-10;
}

static __forceinline__ __device__ double _curand_uniform_double_hq(unsigned int x, unsigned int y)
{
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
    return z * 1.1102230246251565e-16 + (1.1102230246251565e-16 / 2.0);
}

static __forceinline__ __device__ float curand_uniform(curandStateXORWOW_t *state)
{
    return _curand_uniform(curand(state));
}

static __forceinline__ __device__ double curand_uniform_double(curandStateXORWOW_t *state)
{
    unsigned int x = curand(state);
    unsigned int y = curand(state);
    return _curand_uniform_double_hq(x, y);
}

static __forceinline__ __device__ float curand_uniform(curandStatePhilox4_32_10_t *state)
{
    return _curand_uniform(curand(state));
}

static __forceinline__ __device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state)
{
    uint4 x = curand4(state);
    return make_float4(_curand_uniform(x.x), _curand_uniform(x.y), _curand_uniform(x.z), _curand_uniform(x.w));
}

static __forceinline__ __device__ double curand_uniform_double(curandStatePhilox4_32_10_t *state)
{
    return _curand_uniform_double(curand(state));
}

static __forceinline__ __device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state)
{
    uint4 x = curand4(state);
    return make_double2(_curand_uniform_double_hq(x.x, x.y), _curand_uniform_double_hq(x.z, x.w));
}

// Normal (curand_normal.h): Box-Muller; curand_normal returns the first value and keeps the
// second in the state for the next call.

static __forceinline__ __device__ float2 _curand_box_muller(unsigned int x, unsigned int y)
{
    float u = x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
    float v = fmaf((float)y, 2.3283064e-10f * 6.2831855f, (2.3283064e-10f * 6.2831855f) / 2.0f);
    float s = sqrtf(-2.0f * logf(u));
    return make_float2(__sinf(v) * s, __cosf(v) * s);
}

static __forceinline__ __device__ double2 _curand_box_muller_double(unsigned int x0, unsigned int x1,
                                                                   unsigned int y0, unsigned int y1)
{
    unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << (53 - 32));
    double u = zx * 1.1102230246251565e-16 + (1.1102230246251565e-16 / 2.0);
    unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
    double v = zy * (1.1102230246251565e-16 * 2.0) + 1.1102230246251565e-16;
    double s = sqrt(-2.0 * log(u));
    return make_double2(sin(v * 3.1415926535897932) * s, cos(v * 3.1415926535897932) * s);
}

// One Box-Muller pair per two draws, the second value kept in the state for the next call; the
// same for both generators (NVIDIA's header writes it out once per state type).
template <typename S>
static __forceinline__ __device__ float _curand_normal(S *state)
{
    if (state->boxmuller_flag != 1) {
        unsigned int x = curand(state);
        unsigned int y = curand(state);
        float2 v = _curand_box_muller(x, y);
        state->boxmuller_extra = __float_as_uint(v.y);
        state->boxmuller_flag = 1;
        return v.x;
    }
    state->boxmuller_flag = 0;
    return __uint_as_float(state->boxmuller_extra);
}

template <typename S>
static __forceinline__ __device__ float2 _curand_normal2(S *state)
{
    unsigned int x = curand(state);
    unsigned int y = curand(state);
    return _curand_box_muller(x, y);
}

static __forceinline__ __device__ float curand_normal(curandStateXORWOW_t *state) { return _curand_normal(state); }
static __forceinline__ __device__ float curand_normal(curandStatePhilox4_32_10_t *state) { return _curand_normal(state); }
static __forceinline__ __device__ float2 curand_normal2(curandStateXORWOW_t *state) { return _curand_normal2(state); }
static __forceinline__ __device__ float2 curand_normal2(curandStatePhilox4_32_10_t *state) { return _curand_normal2(state); }

static __forceinline__ __device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state)
{
    uint4 x = curand4(state);
    float2 a = _curand_box_muller(x.x, x.y);
    float2 b = _curand_box_muller(x.z, x.w);
    return make_float4(a.x, a.y, b.x, b.y);
}

static __forceinline__ __device__ double curand_normal_double(curandStateXORWOW_t *state)
{
    if (state->boxmuller_flag_double != 1) {
        unsigned int x0 = curand(state);
        unsigned int x1 = curand(state);
        unsigned int y0 = curand(state);
        unsigned int y1 = curand(state);
        double2 v = _curand_box_muller_double(x0, x1, y0, y1);
        unsigned long long bits = __double_as_longlong(v.y);
        state->boxmuller_extra_double[0] = (unsigned int)bits;
        state->boxmuller_extra_double[1] = (unsigned int)(bits >> 32);
        state->boxmuller_flag_double = 1;
        return v.x;
    }
    state->boxmuller_flag_double = 0;
    return __longlong_as_double(((unsigned long long)state->boxmuller_extra_double[1] << 32) |
                                state->boxmuller_extra_double[0]);
}

static __forceinline__ __device__ double curand_normal_double(curandStatePhilox4_32_10_t *state)
{
    if (state->boxmuller_flag_double != 1) {
        uint4 x = curand4(state);
        double2 v = _curand_box_muller_double(x.x, x.y, x.z, x.w);
        unsigned long long bits = __double_as_longlong(v.y);
        state->boxmuller_extra_double[0] = (unsigned int)bits;
        state->boxmuller_extra_double[1] = (unsigned int)(bits >> 32);
        state->boxmuller_flag_double = 1;
        return v.x;
    }
    state->boxmuller_flag_double = 0;
    return __longlong_as_double(((unsigned long long)state->boxmuller_extra_double[1] << 32) |
                                state->boxmuller_extra_double[0]);
}

static __forceinline__ __device__ double2 curand_normal2_double(curandStateXORWOW_t *state)
{
    unsigned int x0 = curand(state);
    unsigned int x1 = curand(state);
    unsigned int y0 = curand(state);
    unsigned int y1 = curand(state);
    return _curand_box_muller_double(x0, x1, y0, y1);
}

static __forceinline__ __device__ double2 curand_normal2_double(curandStatePhilox4_32_10_t *state)
{
    uint4 x = curand4(state);
    return _curand_box_muller_double(x.x, x.y, x.z, x.w);
}

// Log-normal (curand_lognormal.h): exp of mean + stddev times a Box-Muller value, the second
// kept in the state as curand_normal keeps it (flag 2).

template <typename S>
static __forceinline__ __device__ float _curand_log_normal(S *state, float mean, float stddev)
{
    if (state->boxmuller_flag != 2) {
        unsigned int x = curand(state);
        unsigned int y = curand(state);
        float2 v = _curand_box_muller(x, y);
        state->boxmuller_extra = __float_as_uint(expf(fmaf(stddev, v.y, mean)));
        state->boxmuller_flag = 2;
        return expf(fmaf(stddev, v.x, mean));
    }
    state->boxmuller_flag = 0;
    return __uint_as_float(state->boxmuller_extra);
}

static __forceinline__ __device__ float curand_log_normal(curandStateXORWOW_t *state, float mean, float stddev)
{
    return _curand_log_normal(state, mean, stddev);
}

static __forceinline__ __device__ float curand_log_normal(curandStatePhilox4_32_10_t *state, float mean, float stddev)
{
    return _curand_log_normal(state, mean, stddev);
}
