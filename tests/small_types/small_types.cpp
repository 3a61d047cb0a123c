// The expected values of deduction.sk, autos.sk, sizes.sk and overloads.sk, from the host compiler:
//   g++ -std=c++17 small_types.cpp -o small_types && ./small_types
// Each kernel runs as a function on one thread. uchar2 is a struct of two unsigned chars (as
// CUDA's vector_types.h has it, 2 bytes) and _Float16 stands in for __half: g++ 12 rounds each
// _Float16 operation to 16 bits, as __half's operators do.
#include <cstdint>
#include <cstdio>
typedef _Float16 __half;
struct uchar2 { unsigned char x, y; };
static uchar2 make_uchar2(unsigned char x, unsigned char y) { return {x, y}; }

static void print(const char* name, const int* o, int n) {
    printf("%s:", name);
    for (int i = 0; i < n; i++) printf(" %d", o[i]);
    printf("\n");
}

namespace deduction {
template<class T> int sz(T x) { return (int)sizeof(T); }
template<class T> int szr(const T& x) { return (int)sizeof(T); }
template<class T> T id(T x) { return x; }
template<class T> T twice(const T& x) { return x + x; }
template<class T> T add3_minus_first(T a, T b, T c) { return (a + b + c) - a; }
struct S { uint8_t a; unsigned short h; char c; };

void sizes(const uint8_t* p, const unsigned short* q, const uchar2* v,
           const signed char* c, const __half* hp, int* o) {
    uint8_t a = p[0];
    S s; s.a = 1; s.h = 2; s.c = 'x';
    const uint8_t k = 5;
    o[0] = sz(a);
    o[1] = sz(p[0]);
    o[2] = sz(q[0]);
    o[3] = sz(v[0].x);
    o[4] = sz(c[0]);
    o[5] = sz<uint8_t>(a);
    o[6] = sz(1.0);
    o[7] = sz((short)3);
    o[8] = sz('a');
    o[9] = sz(s.a);
    o[10] = sz(s.h);
    o[11] = sz(s.c);
    o[12] = sz(hp[0]);
    o[13] = sz(k);
    o[14] = sz(a + 1);
    o[15] = szr(p[0]);
    o[16] = sz(p[1] > 0 ? a : k);
    o[17] = sz(static_cast<uint16_t>(a));
    o[18] = sz(hp[0] + hp[1]);
}

void values(const uint8_t* p, const __half* x, int* o, __half* h) {
    unsigned char z = 200;
    auto w = id(z);
    w = w + 100;
    o[0] = w;
    o[1] = twice(p[0]);
    o[2] = twice(p[1]);
    o[3] = twice(p[2]);
    h[0] = add3_minus_first(x[0], x[1], x[2]);
    h[1] = add3_minus_first<float>(x[0], x[1], x[2]);
}
}  // namespace deduction

namespace autos {
struct S { uint8_t a; };
auto first(const uint8_t* p) { return p[0]; }
template<class A> auto plus100(A a) -> decltype(a) { return a + 100; }

void autos(const uint8_t* p, const __half* hp, int* o, __half* h) {
    S s; s.a = 200;
    auto v = s.a; v += 100; o[0] = v;
    auto w = p[0]; w += 100; o[1] = w;
    uint8_t x = 200; auto y = x; y += 100; o[2] = y;
    auto c = 'a'; c += 200; o[3] = c;
    const uint8_t k = 5; auto z = k; z += 255; o[4] = z;
    auto n = x + 100; o[5] = n;
    auto& r = s.a; r += 100; o[6] = s.a;
    auto t = (short)-1; t += 65538; o[7] = t;
    o[8] = (int)sizeof(c);
    o[9] = (int)sizeof(w);
    auto f = first(p); f += 100; o[10] = f;
    o[11] = plus100(x);
    auto g = hp[0]; g = g + hp[1];
    h[0] = g - hp[0];
    o[12] = (int)sizeof(g);
}
}  // namespace autos

namespace sizes {
struct S { uint8_t a; unsigned short h; bool b; char c; };
union U { uint32_t d; struct { uint8_t b, g, r, a; } c; };

void sizes(const uint8_t* p, const uchar2* v, const __half* hp, int* o) {
    uint8_t x = p[0];
    S s; s.a = 1; s.h = 2; s.b = true; s.c = 'x';
    U u; u.d = 0;
    uchar2 lv = make_uchar2(1, 2);
    o[0] = (int)sizeof(x);
    o[1] = (int)sizeof(p[0]);
    o[2] = (int)sizeof(s.a);
    o[3] = (int)sizeof(s.h);
    o[4] = (int)sizeof(u.c.r);
    o[5] = (int)sizeof(x + 1);
    o[6] = (int)sizeof(u.c);
    o[7] = (int)sizeof(v[0].x);
    o[8] = (int)sizeof(s.b);
    o[9] = (int)sizeof(s.c);
    o[10] = (int)sizeof(s);
    o[11] = (int)sizeof(lv.y);
    o[12] = (int)sizeof('a');
    o[13] = (int)sizeof(-x);
    o[14] = (int)sizeof(p[0] > 0 ? x : s.a);
    o[15] = (int)sizeof(hp[0]);
    o[16] = (int)sizeof(hp[0] * hp[0]);
    o[17] = (int)sizeof((unsigned short)x);
}
}  // namespace sizes

namespace overloads {
int pick(int x) { return 1; }
int pick(unsigned char x) { return 2; }
int wide(int x) { return 1; }
int wide(double x) { return 2; }
int narrow(unsigned short x) { return 1; }
int narrow(int x) { return 2; }
struct S { uint8_t a; };

void overloads(const uint8_t* p, const short* q, int* o) {
    uint8_t a = p[0];
    S s; s.a = 3;
    o[0] = pick(a);
    o[1] = pick(p[0]);
    o[2] = pick(s.a);
    o[3] = pick(a + 1);
    o[4] = pick('a');
    o[5] = pick((unsigned char)7);
    o[6] = wide(a);
    o[7] = narrow(q[0]);
    o[8] = narrow((unsigned short)a);
    o[9] = wide(true);
}
}  // namespace overloads

int main() {
    int o[19];
    __half h[2];
    {
        const uint8_t p[] = {46, 1};
        const unsigned short q[] = {7};
        const uchar2 v[] = {{1, 2}};
        const signed char c[] = {3};
        const __half hp[] = {1, 2};
        deduction::sizes(p, q, v, c, hp, o);
        print("deduction.sk sizes o", o, 19);
    }
    {
        const uint8_t p[] = {1, 2, 200};
        const __half x[] = {2048, 1, 1};
        deduction::values(p, x, o, h);
        print("deduction.sk values o", o, 4);
        printf("deduction.sk values h: %g %g\n", (double)h[0], (double)h[1]);
    }
    {
        const uint8_t p[] = {200};
        const __half hp[] = {2048, 1};
        autos::autos(p, hp, o, h);
        print("autos.sk autos o", o, 13);
        printf("autos.sk autos h: %g\n", (double)h[0]);
    }
    {
        const uint8_t p[] = {46};
        const uchar2 v[] = {{1, 2}};
        const __half hp[] = {1};
        sizes::sizes(p, v, hp, o);
        print("sizes.sk sizes o", o, 18);
    }
    {
        const uint8_t p[] = {5};
        const short q[] = {6};
        overloads::overloads(p, q, o);
        print("overloads.sk overloads o", o, 10);
    }
}
