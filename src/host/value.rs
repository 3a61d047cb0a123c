//! Host values: scalars, arrays and launch dimensions, with numpy-like elementwise arithmetic.

use std::sync::Arc;

use crate::exec::BufData;
use crate::rng::{mix, GAMMA};
use crate::value::Scalar;

/// A value computed by a launch section or an `--arg`.
#[derive(Clone, Debug, PartialEq)]
pub enum HostValue {
    /// A number; `float` tells whether it came from floating data.
    Num {
        /// The value.
        v: f64,
        /// Whether it is floating-point (decides exact vs tolerant `==`).
        float: bool,
    },
    /// An array (flat, row-major) with its shape.
    Array {
        /// Elements: doubles when computed, the parameter's type once bound to a buffer name;
        /// shared, so that naming an array does not copy it.
        data: Arc<BufData>,
        /// Shape (`[n]` or `[rows, cols]`).
        shape: Vec<usize>,
        /// Whether the elements are floating-point.
        float: bool,
        /// The element type of a file it was loaded from, which the parameter must match.
        dtype: Option<Scalar>,
    },
    /// `&a[3]`: a pointer to an element of a host array, which it shares.
    Pointer {
        /// The name of the array it was taken from (`a`).
        array: String,
        /// The array's elements, shared with its name.
        data: Arc<BufData>,
        /// The element it points at.
        offset: usize,
        /// The array's shape.
        shape: Vec<usize>,
        /// Whether the elements are floating-point.
        float: bool,
        /// The element type of a file the array was loaded from.
        dtype: Option<Scalar>,
    },
    /// `texture(img, filter=linear, ...)`: an array and how a texture object samples it, for a
    /// `cudaTextureObject_t` parameter.
    Texture {
        /// The texels (row-major), in their texel type.
        data: Arc<BufData>,
        /// The array's shape: the texture's dimensions, outermost first.
        shape: Vec<usize>,
        /// Sampling state.
        desc: crate::texture::Desc,
    },
    /// `[a, &b[2], NULL]` for a `T**` parameter: a table of pointers into the launch's arrays,
    /// each entry an array, a pointer or `NULL` with the name it was written as
    /// (`crate::check::table`).
    Table(Vec<(String, HostValue)>),
    /// `NULL` or `nullptr`: a pointer parameter bound to nothing.
    Null,
    /// `(x, y, z)` for `grid` and `block`.
    Dim([u32; 3]),
    /// `"file.npy"`.
    Str(String),
}

impl HostValue {
    /// An integer.
    pub fn int(v: i64) -> HostValue {
        HostValue::Num {
            v: v as f64,
            float: false,
        }
    }

    /// A flat array.
    pub fn array(data: Vec<f64>, float: bool) -> HostValue {
        let n = data.len();
        HostValue::Array {
            data: Arc::new(BufData::F64(data)),
            shape: vec![n],
            float,
            dtype: None,
        }
    }

    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            HostValue::Num { .. } => "a number",
            HostValue::Array { .. } => "an array",
            HostValue::Pointer { .. } => "a pointer",
            HostValue::Texture { .. } => "a texture",
            HostValue::Table(_) => "a table of arrays",
            HostValue::Null => "NULL",
            HostValue::Dim(_) => "a dimension tuple",
            HostValue::Str(_) => "a string",
        }
    }

    /// Elements of an array, or of the array a pointer points into (0 for anything else).
    pub fn array_len(&self) -> usize {
        self.storage().map_or(0, |d| d.len())
    }

    /// Bytes of memory the value holds (shared with the names that share its array).
    pub fn bytes(&self) -> u64 {
        match self.storage() {
            Some(data) => data.len() as u64 * u64::from(data.elem().size()),
            None => 0,
        }
    }

    /// The array an array or a pointer holds.
    pub fn storage(&self) -> Option<&Arc<BufData>> {
        match self {
            HostValue::Array { data, .. } | HostValue::Pointer { data, .. } => Some(data),
            _ => None,
        }
    }

    /// Whether this value holds the array `data` (not a copy of it).
    pub fn holds(&self, data: &Arc<BufData>) -> bool {
        self.storage().is_some_and(|d| Arc::ptr_eq(d, data))
    }

    /// Whether floating-point.
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            HostValue::Num { float: true, .. } | HostValue::Array { float: true, .. }
        )
    }
}

/// How close two numbers must be for `expect` to call them equal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Integers: exactly.
    Exact,
    /// Floats: `|a - b| <= atol + rtol · max(|a|, |b|)`.
    Within {
        /// Relative part.
        rtol: f64,
        /// Absolute part.
        atol: f64,
    },
}

impl Tolerance {
    /// The tolerance for comparing `l` with `r`: exact for integers, relative 1e-4 (absolute
    /// 1e-6) for floats, and for 16-bit floats PyTorch's `assert_close` defaults (half: relative
    /// 1e-3, bfloat16: 1.6e-2, both absolute 1e-5), a few units in their last place.
    pub fn of(l: &HostValue, r: &HostValue) -> Tolerance {
        let elem = |v: &HostValue| match v {
            HostValue::Array { data, .. } => Some(data.elem()),
            _ => None,
        };
        Tolerance::for_sides([elem(l), elem(r)], l.is_float() || r.is_float())
    }

    /// The tolerance for two sides: the element types of those that are arrays of a buffer's
    /// type, and whether either is floating-point.
    pub fn for_sides(elems: [Option<Scalar>; 2], float: bool) -> Tolerance {
        if elems.contains(&Some(Scalar::BF16)) {
            Tolerance::Within {
                rtol: 1.6e-2,
                atol: 1e-5,
            }
        } else if elems.contains(&Some(Scalar::F16)) {
            Tolerance::Within {
                rtol: 1e-3,
                atol: 1e-5,
            }
        } else if float {
            Tolerance::Within {
                rtol: 1e-4,
                atol: 1e-6,
            }
        } else {
            Tolerance::Exact
        }
    }

    /// Whether `a` and `b` are equal within it. A NaN equals a NaN, as in numpy's
    /// `assert_allclose`: an expected NaN that the kernel produced is a match.
    pub fn close(self, a: f64, b: f64) -> bool {
        match self {
            _ if a == b || (a.is_nan() && b.is_nan()) => true,
            Tolerance::Exact => false,
            // Unequal with an infinity on either side: the bound below would read `inf <= inf`.
            _ if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() => false,
            Tolerance::Within { rtol, atol } => (a - b).abs() <= atol + rtol * a.abs().max(b.abs()),
        }
    }
}

/// A small, fixed PRNG (splitmix64) so `rand(n)` is the same on every machine and run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded generator.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next `n` draws (SplitMix64) as a stream indexed from 0; the generator moves past them.
    /// Each draw is computed from its index alone, so arrays fill in parallel with the numbers a
    /// sequential fill gives.
    pub fn take(&mut self, n: usize) -> Draws {
        let base = self.0;
        self.0 = self.0.wrapping_add(GAMMA.wrapping_mul(n as u64));
        Draws(base)
    }
}

/// 24 random bits as a number in [0, 1).
fn unit(bits: u64) -> f64 {
    (bits >> 40) as f64 / (1u64 << 24) as f64
}

/// A run of draws of an [`Rng`], any of which can be computed on its own.
#[derive(Clone, Copy, Debug)]
pub struct Draws(u64);

impl Draws {
    /// Draw `i`: 64 random bits.
    pub fn bits(&self, i: usize) -> u64 {
        mix(self.0.wrapping_add(GAMMA.wrapping_mul(i as u64 + 1)))
    }

    /// Draw `i` as a number in [0, 1).
    pub fn unit(&self, i: usize) -> f64 {
        unit(self.bits(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_only_for_floats() {
        let float = HostValue::Num {
            v: 1.0,
            float: true,
        };
        let int = HostValue::Num {
            v: 1.0,
            float: false,
        };
        let halves = |elem| HostValue::Array {
            data: Arc::new(BufData::zeros(elem, 2)),
            shape: vec![2],
            float: true,
            dtype: None,
        };
        let tol = Tolerance::of(&float, &int);
        assert!(tol.close(1.0, 1.00001));
        assert!(!tol.close(1.0, 1.1));
        // An infinity equals only itself (numpy's `isclose`): never a finite value, never the
        // other sign.
        assert!(tol.close(f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(!tol.close(f64::NEG_INFINITY, 1.0));
        assert!(!tol.close(5.0, f64::INFINITY));
        assert!(!tol.close(f64::INFINITY, f64::NEG_INFINITY));
        assert!(tol.close(f64::NAN, -f64::NAN));
        assert!(!tol.close(f64::NAN, 1.0));
        assert!(!tol.close(0.0, f64::NAN));
        assert!(!Tolerance::of(&int, &int).close(100000.0, 100001.0));
        // One unit in the last place of a half at 1 is 2^-10 ≈ 9.8e-4: within 1e-3 relative; a
        // float's tolerance (1e-4) would not accept it; bfloat16's 2^-7 ≈ 7.8e-3 needs 1.6e-2.
        let half = Tolerance::of(&halves(Scalar::F16), &float);
        assert!(half.close(1.0, 1.0 + 2f64.powi(-10)));
        assert!(!half.close(1.0, 1.0 + 2f64.powi(-8)));
        assert!(!tol.close(1.0, 1.0 + 2f64.powi(-10)));
        let bf = Tolerance::of(&float, &halves(Scalar::BF16));
        assert!(bf.close(1.0, 1.0 + 2f64.powi(-7)));
        assert!(!half.close(1.0, 1.0 + 2f64.powi(-7)));
        // SplitMix64 from state 0: its first output is 0xE220A8397B1DCDAF (the reference
        // implementation's published first value for seed 0).
        assert_eq!(Draws(0).bits(0), 0xE220_A839_7B1D_CDAF);
        // Two runs of draws continue each other: 3 then 2 are the 5 of one run.
        let (mut one, mut two) = (Rng::new(7), Rng::new(7));
        let five = one.take(5);
        let (first, second) = (two.take(3), two.take(2));
        let split: Vec<u64> = (0..3)
            .map(|i| first.bits(i))
            .chain((0..2).map(|i| second.bits(i)))
            .collect();
        assert_eq!(split, (0..5).map(|i| five.bits(i)).collect::<Vec<_>>());
        let x = five.unit(0);
        assert!((0.0..1.0).contains(&x));
        assert_eq!(
            x * f64::from(1u32 << 24),
            (x * f64::from(1u32 << 24)).floor()
        );
    }
}
