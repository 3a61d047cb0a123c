//! The special functions of CUDA's math library beyond Rust's std, in `double`: normcdf and its inverse, erfinv, erfcinv, erfcx, sinpi, cospi here; lgamma, tgamma and the Bessel functions from `libm`, the modified Bessel functions by their series.

use std::f64::consts::{FRAC_1_SQRT_2, PI, SQRT_2};

/// A one-argument function of CUDA's math library computed here, in `double` (a float's is
/// that value rounded once more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `normcdf`: the standard normal distribution function
    NormCdf,
    /// `normcdfinv`: its inverse
    NormCdfInv,
    /// `erfinv`
    Erfinv,
    /// `erfcinv`
    Erfcinv,
    /// `erfcx`: `e^(x²) · erfc(x)`
    Erfcx,
    /// `lgamma`: ln |Γ(x)| (musl's)
    Lgamma,
    /// `tgamma`: Γ(x) (musl's)
    Tgamma,
    /// `rcbrt`: 1 / ∛x
    Rcbrt,
    /// `sinpi`: sin(πx)
    Sinpi,
    /// `cospi`: cos(πx)
    Cospi,
    /// `j0`: the Bessel function of the first kind, order 0 (musl's)
    J0,
    /// `j1`: order 1
    J1,
    /// `y0`: the Bessel function of the second kind, order 0 (musl's)
    Y0,
    /// `y1`: order 1
    Y1,
    /// `cyl_bessel_i0`: the modified Bessel function of the first kind, order 0
    I0,
    /// `cyl_bessel_i1`: order 1
    I1,
}

impl Special {
    /// Each, by its name in CUDA's math library (the `double` form; with `f`, the `float` one).
    pub const NAMED: [(&'static str, Special); 16] = [
        ("normcdf", Special::NormCdf),
        ("normcdfinv", Special::NormCdfInv),
        ("erfinv", Special::Erfinv),
        ("erfcinv", Special::Erfcinv),
        ("erfcx", Special::Erfcx),
        ("lgamma", Special::Lgamma),
        ("tgamma", Special::Tgamma),
        ("rcbrt", Special::Rcbrt),
        ("sinpi", Special::Sinpi),
        ("cospi", Special::Cospi),
        ("j0", Special::J0),
        ("j1", Special::J1),
        ("y0", Special::Y0),
        ("y1", Special::Y1),
        ("cyl_bessel_i0", Special::I0),
        ("cyl_bessel_i1", Special::I1),
    ];

    /// The function `name` names (`normcdf`), if it is one of these.
    pub fn named(name: &str) -> Option<Special> {
        Special::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, s)| s)
    }

    /// Its value at `x`.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Special::NormCdf => normcdf(x),
            Special::NormCdfInv => normcdfinv(x),
            Special::Erfinv => erfinv(x),
            Special::Erfcinv => erfcinv(x),
            Special::Erfcx => erfcx(x),
            Special::Lgamma => libm::lgamma(x),
            Special::Tgamma => libm::tgamma(x),
            Special::Rcbrt => 1.0 / x.cbrt(),
            Special::Sinpi => sinpi(x),
            Special::Cospi => cospi(x),
            Special::J0 => libm::j0(x),
            Special::J1 => libm::j1(x),
            Special::Y0 => libm::y0(x),
            Special::Y1 => libm::y1(x),
            Special::I0 => bessel_i(0, x),
            Special::I1 => bessel_i(1, x),
        }
    }
}

/// `I₀(x)` or `I₁(x)`, the modified Bessel functions of the first kind. Up to `|x| = 20`, by
/// their power series `Σ (x/2)^(2k+n) / (k! (k+n)!)` (Abramowitz and Stegun 9.6.10), whose
/// terms all have the sign of `x^n` (no cancellation; at most 40 terms' rounding, about
/// 1e-14 relative at worst); beyond, by the asymptotic series `e^x / √(2πx) · Σ (-1)^k
/// a_k(n) / x^k`, `a_k = Π (4n² − (2j−1)²) / (k! 8^k)` (9.7.1), whose terms fall below
/// 1e-17 of the sum long before they grow again (at `k ≈ 2|x|`). `e^x` is taken as
/// `e^(x/2)` twice, so that the value is finite up to `|x| ≈ 713.99`, where a `double` ends.
fn bessel_i(n: u32, x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let sign = if n == 1 && x < 0.0 { -1.0 } else { 1.0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign * a;
    }
    if a <= 20.0 {
        let q = 0.25 * a * a;
        let mut term = if n == 1 { 0.5 * a } else { 1.0 };
        let mut sum = term;
        let mut k = 1.0;
        while term > sum * 1e-18 {
            term *= q / (k * (k + f64::from(n)));
            sum += term;
            k += 1.0;
        }
        return sign * sum;
    }
    let mu = 4.0 * f64::from(n * n);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..60 {
        let odd = f64::from(2 * k - 1);
        term *= -(mu - odd * odd) / (f64::from(k) * 8.0 * a);
        sum += term;
        if term.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    let half = (0.5 * a).exp();
    sign * half * (half / (2.0 * PI * a).sqrt() * sum)
}

/// `2/√π`, the derivative of erf at 0.
const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// The standard normal distribution function: `erfc(-x/√2) / 2`.
pub fn normcdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x * FRAC_1_SQRT_2)
}

/// Its inverse: `-√2 · erfcinv(2p)` (NaN outside [0, 1], ∓inf at 0 and 1).
pub fn normcdfinv(p: f64) -> f64 {
    -SQRT_2 * erfcinv(2.0 * p)
}

/// The `x` in `[lo, hi]` where the decreasing or increasing `f` is 0, by Newton steps with
/// `df`, a bisection where a step would leave the bracket; to the last bit of a `double`.
fn solve(f: impl Fn(f64) -> f64, df: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let rising = f(hi) > f(lo);
    let mut x = 0.5 * (lo + hi);
    for _ in 0..200 {
        let y = f(x);
        if y == 0.0 {
            return x;
        }
        if (y > 0.0) == rising {
            hi = x;
        } else {
            lo = x;
        }
        let d = df(x);
        let next = x - y / d;
        let next = if d != 0.0 && next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
        if next == x || hi - lo <= f64::EPSILON * x.abs().max(f64::MIN_POSITIVE) {
            return next;
        }
        x = next;
    }
    x
}

/// The inverse error function on [-1, 1]: erf(x) = y.
pub fn erfinv(y: f64) -> f64 {
    if y.is_nan() || y.abs() > 1.0 {
        return f64::NAN;
    }
    if y.abs() >= 0.5 {
        // 1 - |y| is exact here, and erfcinv is accurate where erf is flat.
        return erfcinv(1.0 - y.abs()).copysign(y);
    }
    if y == 0.0 {
        return y;
    }
    let x = solve(
        |x| libm::erf(x) - y.abs(),
        |x| TWO_OVER_SQRT_PI * (-x * x).exp(),
        0.0,
        0.5,
    );
    x.copysign(y)
}

/// The inverse complementary error function on [0, 2]: erfc(x) = y.
pub fn erfcinv(y: f64) -> f64 {
    if y.is_nan() || !(0.0..=2.0).contains(&y) {
        return f64::NAN;
    }
    if y == 0.0 {
        return f64::INFINITY;
    }
    if y == 2.0 {
        return f64::NEG_INFINITY;
    }
    if y >= 1.0 {
        // erfcinv(1) = 0 exactly; above, the odd symmetry (2 - y is exact).
        return if y == 1.0 { 0.0 } else { -erfcinv(2.0 - y) };
    }
    // On logarithms, which erfc's tail makes nearly a parabola (Newton on erfc itself would
    // creep towards 1e-300 by a factor e a step); erfc(27.3) is below the smallest subnormal.
    let target = y.ln();
    solve(
        |x| libm::erfc(x).ln() - target,
        |x| -TWO_OVER_SQRT_PI * (-x * x).exp() / libm::erfc(x),
        0.0,
        27.5,
    )
}

/// `e^(a²)` for a finite `a`, with `a²` split into an exact part and a small one so that
/// its rounding does not grow through the exponential.
fn exp_square(a: f64) -> f64 {
    // `hi` keeps 26 significant bits, so `hi²` is exact.
    let hi = f64::from_bits(a.to_bits() & !((1u64 << 27) - 1));
    let lo = a - hi;
    (hi * hi).exp() * (lo * (a + hi)).exp()
}

/// The scaled complementary error function `e^(x²) · erfc(x)`, accurate where erfc
/// underflows (large `x`) and where `e^(x²)` alone would overflow before the product does.
pub fn erfcx(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return if x < -26.7 {
            f64::INFINITY
        } else {
            2.0 * exp_square(x) - erfcx(-x)
        };
    }
    if x < 25.0 {
        return exp_square(x) * libm::erfc(x);
    }
    if x.is_infinite() {
        return 0.0;
    }
    // The asymptotic series 1/(x√π) · Σ (-1)^k (2k-1)!! / (2x²)^k: at x ≥ 25 its terms fall
    // below 2^-53 of the first by k = 6.
    let w = 1.0 / (2.0 * x * x);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..10 {
        term *= -((2 * k - 1) as f64) * w;
        sum += term;
    }
    sum * (0.5 * TWO_OVER_SQRT_PI) / x
}

/// `sin(πx)`, exact at integers (a zero of `x`'s sign) and accurate at large `x`.
pub fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    // `x % 2` is exact, in (-2, 2); then into [-1, 1] exactly.
    let mut r = x % 2.0;
    if r > 1.0 {
        r -= 2.0;
    } else if r < -1.0 {
        r += 2.0;
    }
    if r == r.trunc() {
        return 0.0f64.copysign(x);
    }
    if r > 0.5 {
        (PI * (1.0 - r)).sin()
    } else if r < -0.5 {
        -(PI * (1.0 + r)).sin()
    } else {
        (PI * r).sin()
    }
}

/// `cos(πx)`, exactly +0 at half-integers and ±1 at integers.
pub fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let mut r = x.abs() % 2.0;
    if r > 1.0 {
        r = 2.0 - r;
    }
    if r == 0.5 {
        return 0.0;
    }
    if r <= 0.25 {
        (PI * r).cos()
    } else if r <= 0.75 {
        (PI * (0.5 - r)).sin()
    } else {
        -(PI * (1.0 - r)).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverses_undo_their_functions() {
        // erf(erfinv(y)) = y and erfc(erfcinv(y)) = y to a few ulp, over the range and the
        // tails (1e-300 is far past where 1 - y would keep any digit).
        for y in [1e-12, 0.1, 0.4999, 0.5, 0.9, 0.999_999] {
            let x = erfinv(y);
            assert!((libm::erf(x) - y).abs() <= 4.0 * f64::EPSILON * y, "{y}");
            assert_eq!(erfinv(-y), -x);
        }
        // erfc falls by a factor e^(-2x) an x step, so `y`'s error is no measure in the tail:
        // the answer is right to two ulp of x when y lies between erfc of its neighbours.
        for y in [1e-300, 1e-20, 0.01, 0.5, 1.5, 1.999] {
            let x = erfcinv(y);
            let (lo, hi) = (
                x - 2.0 * f64::EPSILON * x.abs(),
                x + 2.0 * f64::EPSILON * x.abs(),
            );
            assert!(libm::erfc(hi) <= y && y <= libm::erfc(lo), "{y}");
        }
        assert_eq!(erfcinv(1.0), 0.0);
        assert_eq!((erfinv(1.0), erfcinv(0.0)), (f64::INFINITY, f64::INFINITY));
        assert!(erfinv(1.5).is_nan() && erfcinv(-0.5).is_nan());
        // normcdf(1.96) = 0.9750021048517795 (scipy.stats.norm.cdf), and back.
        assert!((normcdf(1.96) - 0.975_002_104_851_779_5).abs() < 1e-15);
        assert!((normcdfinv(0.975_002_104_851_779_5) - 1.96).abs() < 1e-13);
        assert_eq!(normcdfinv(0.5), 0.0);
    }

    #[test]
    fn erfcx_holds_where_erfc_underflows() {
        // scipy.special.erfcx: erfcx(1) = 0.42758357615580705, erfcx(30) =
        // 0.018795888861416751, erfcx(-1) = 5.00898008076228346.
        assert!((erfcx(1.0) / 0.427_583_576_155_807_05 - 1.0).abs() < 4e-16);
        assert!((erfcx(30.0) / 0.018_795_888_861_416_75 - 1.0).abs() < 4e-16);
        assert!((erfcx(-1.0) / 5.008_980_080_762_283 - 1.0).abs() < 4e-16);
        assert_eq!(erfcx(f64::INFINITY), 0.0);
    }

    #[test]
    fn sinpi_and_cospi_are_exact_where_the_answer_is() {
        assert_eq!(sinpi(1.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(sinpi(-3.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(
            (sinpi(0.5), sinpi(-2.5), sinpi(1e17 + 0.5)),
            (1.0, -1.0, 0.0)
        );
        assert_eq!(
            (cospi(0.5), cospi(1.0), cospi(-2.0), cospi(7.5)),
            (0.0, -1.0, 1.0, 0.0)
        );
        // sin(π/6) = 1/2 to the last bit or so.
        assert!((sinpi(1.0 / 6.0) - 0.5).abs() <= f64::EPSILON);
        assert!((cospi(1.0 / 3.0) - 0.5).abs() <= f64::EPSILON);
    }
}
