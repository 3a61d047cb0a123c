//! `uint64_t{x}`, `int{}`: braced functional casts of scalars and C++11's narrowing rule.

use crate::common;
use common::{codes, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn a_braced_cast_converts_as_the_cast_does() {
    // t = 0..3. p: 2t + 4000000000 (uint64_t{threadIdx.x} widens; size_t{4000000000u} is a
    // constant that fits). q: float{1} + double{0.5f} + float{} = 1 + 0.5 + 0 = 1.5.
    // r: int{1} + unsigned{t} + int{'a'} + bool{1} = 1 + t + 97 + 1 = t + 99 (unsigned{t} of an
    // `int` narrows a run-time value: g++ warns, nvcc warns, both compile it as the cast).
    // s: uint8_t{255} fits, plus int{} (zero) = 255.
    let src = r#"
__global__ void k(unsigned long long* p, float* q, int* r, int* s) {
    int t = threadIdx.x;
    p[t] = uint64_t{threadIdx.x} * 2 + size_t{4000000000u};
    q[t] = float{1} + double{0.5f} + float{};
    r[t] = int{1} + unsigned{t} + int{'a'} + bool{1};
    s[t] = uint8_t{255} + int{};
}
launch k {
    p = zeros(4); q = zeros(4); r = zeros(4); s = zeros(4);
    expect p == arange(4) * 2 + 4000000000;
    expect q == full(4, 1.5);
    expect r == arange(4) + 99;
    expect s == full(4, 255);
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn a_vector_type_in_braces_is_still_its_constructor() {
    // `float2{x}` sets x and zeroes y (aggregate initialisation), `float2{}` is all zero; not a
    // cast of x. t = 0..3: 2t + 0 + 0 + 0.
    let src = r#"
__global__ void k(float* p) {
    int t = threadIdx.x;
    float2 a = float2{2.0f * t};
    float2 b = float2{};
    p[t] = a.x + a.y + b.x + b.y;
}
launch k { p = zeros(4); expect p == arange(4) * 2; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

/// The code and line:column of the one diagnostic for `p[0] = CAST;`, and its message.
fn narrowing(cast: &str) -> (Vec<String>, (usize, usize), String) {
    let src =
        format!("__global__ void k(int* p) {{ p[0] = {cast}; }}\nlaunch k {{ p = zeros(1); }}\n");
    let f = err(&src, &[], Some(ONE), Some([1, 1, 1]));
    (codes(&f), position(&f), f.errors[0].to_string())
}

#[test]
fn a_constant_that_braces_narrow_is_an_error() {
    // Each is a g++ -std=c++17 error ("narrowing conversion of ..."): a floating value to an
    // integer even where it is whole (2.0f), an integer the type cannot hold (-1 in unsigned,
    // 300 in char, 2 in bool), an integer a float cannot hold exactly (2^24 + 1), a double
    // beyond float's range. The label is on the value, after `p[0] = T{` (column 36 + len T + 1).
    for (cast, col, message) in [
        (
            "int{1.5}",
            40,
            "narrowing conversion of `1.5` from `double` to `int` inside braces",
        ),
        (
            "int{2.0f}",
            40,
            "narrowing conversion of `2.0f` from `float` to `int` inside braces",
        ),
        (
            "unsigned{-1}",
            45,
            "narrowing conversion of `-1` from `int` to `unsigned` inside braces",
        ),
        (
            "char{300}",
            41,
            "narrowing conversion of `300` from `int` to `char` inside braces",
        ),
        (
            "bool{2}",
            41,
            "narrowing conversion of `2` from `int` to `bool` inside braces",
        ),
        (
            "float{16777217}",
            42,
            "narrowing conversion of `16777217` from `int` to `float` inside braces",
        ),
        (
            "float{1e300}",
            42,
            "narrowing conversion of `1e300` from `double` to `float` inside braces",
        ),
    ] {
        let (codes, at, text) = narrowing(cast);
        assert_eq!(codes, ["simt::check::initialiser"], "{cast}");
        assert_eq!(at, (1, col), "{cast}");
        assert_eq!(text, message, "{cast}");
    }
}

#[test]
fn a_constant_that_fits_is_no_narrowing() {
    // 2^24 is exact in a float, 1 in bool, -128 in char: g++ accepts each.
    // 16777216 + 1 + (-128) = 16777089.
    let src = r#"
__global__ void k(float* p) { p[0] = float{16777216} + bool{1} + char{-128}; }
launch k { p = zeros(1); expect p == [16777089]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_parenthesised_type_casts_what_follows_it() {
    // StyleGAN3's `(scalar_t)((const T*)p.x)[i]` and `(scalar_t)*ptr`: C's postfix operators
    // bind tighter than a cast, and `*`/`-` after a parenthesised type are unary. A
    // parenthesised variable stays an operand: `(n) * 2`, `(n) - 1`. By hand, x = 0..3:
    // y = 2i; z = (int)x[i] * 3 = 3i; w = -x[i] + n - n*2 - ((n) - 1) = -i + 3 - 6 - 2 = -i - 5.
    let src = r#"
typedef float scalar_t;
template <typename T>
__global__ void k(const float* x, float* y, T* z, float* w) {
    int i = threadIdx.x;
    int n = 3;
    y[i] = (scalar_t)((const float*)x)[i] * 2;
    z[i] = (T)*(x + i) * 3;
    w[i] = (scalar_t)-x[i] + n - (n)*2 - ((n) - 1);
}
launch k<int> { x = arange(4); y = zeros(4); z = zeros(4); w = zeros(4);
    expect y == arange(4) * 2; expect z == arange(4) * 3; expect w == -arange(4) - 5; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}
