//! Warp matrix multiply-accumulate, WMMA's `mma_sync` and PTX's `mma.sync`: the shapes, the element-to-lane mappings and the arithmetic.

// A fragment of an `R × C` tile holds `len = R * C / 32` elements per lane, of `bytes` bytes.
// A lane moves them in pieces of `w = min(len, 16 / bytes)` consecutive elements (one vector
// access of at most 16 bytes each): lane `l`'s `x[p * w + q]` is tile element
// `e = p * 32 * w + l * w + q` in the fragment's storage order, row-major for `row_major`
// fragments and accumulators, column-major for `col_major` ones. So piece `p` of the 32 lanes
// together is the tile's `p`-th slab of `32 * w` consecutive elements: one warp request whose
// sectors are the slab's own, and the requests together are the tile exactly once. CUDA
// leaves the mapping unspecified, so no correct kernel can tell this one from the hardware's.

use crate::value::{round_half, Scalar};

/// Elements of a lane's share of `len` elements of `bytes` bytes that one vector access moves.
pub fn piece(len: u32, bytes: u32) -> u32 {
    len.min(16 / bytes).max(1)
}

/// The tile element, in storage order, that lane `lane`'s `x[i]` holds, for a share of `len`
/// elements of `bytes` bytes.
pub fn tile_element(len: u32, bytes: u32, lane: u32, i: u32) -> u32 {
    let w = piece(len, bytes);
    (i / w) * 32 * w + lane * w + i % w
}

/// The call the `asm` lowering writes for PTX's `mma.sync.aligned.m16n8k{k}.row.col` (its
/// operands D, A, B, C, each element by element in the ISA's fragment order), by `k`.
pub fn ptx_intrinsic(k: u32) -> String {
    format!("__simt_mma_m16n8k{k}")
}

/// An operand of a warp matrix multiply-accumulate `D = A * B + C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The left factor, `m × k`.
    A,
    /// The right factor, `k × n`.
    B,
    /// The addend, `m × n`.
    C,
    /// The result, `m × n`.
    D,
}

/// One `mma_sync` specialisation: shape, element types, the operand layouts and `satf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaOp {
    /// Rows of A, C and D.
    pub m: u32,
    /// Columns of B, C and D.
    pub n: u32,
    /// Columns of A, rows of B.
    pub k: u32,
    /// A's and B's element type as stored (`F32` for `precision::tf32`).
    pub input: Scalar,
    /// `precision::tf32`: the inputs' 13 low mantissa bits are not read.
    pub tf32: bool,
    /// C's element type.
    pub c: Scalar,
    /// D's element type.
    pub d: Scalar,
    /// A is stored column-major.
    pub a_col: bool,
    /// B is stored column-major.
    pub b_col: bool,
    /// `satf`: an infinite result becomes the largest finite value of its sign and NaN
    /// becomes +0 (floats); an integer result saturates to `int`'s range.
    pub satf: bool,
    /// PTX's `mma.sync` (inline assembly): lanes hold the elements the PTX ISA assigns them
    /// ([`MmaOp::element`]), not WMMA's slabs.
    pub ptx: bool,
}

impl MmaOp {
    /// Elements of A per lane.
    pub fn a_len(&self) -> usize {
        (self.m * self.k / 32) as usize
    }

    /// Elements of B per lane.
    pub fn b_len(&self) -> usize {
        (self.k * self.n / 32) as usize
    }

    /// Elements of C and D per lane.
    pub fn c_len(&self) -> usize {
        (self.m * self.n / 32) as usize
    }

    /// The tile element, in its storage order, that lane `lane`'s `i`-th element of operand
    /// `which` holds. WMMA: [`tile_element`]. PTX's `mma.sync.m16n8k{8,16}.row.col` on 16-bit
    /// inputs (PTX ISA 9.7.14.5.8, "Matrix Fragments for mma.m16n8k16"): with `g = lane / 4`
    /// and `t = lane % 4`, A's element `i` is row `g + 8·(i/2 % 2)`, column `2t + i % 2 +
    /// 8·(i/4)` (row-major); B's is row `2t + i % 2 + 8·(i/2)`, column `g` (stored column by
    /// column); C's and D's row `g + 8·(i/2)`, column `2t + i % 2` (row-major). tf32 inputs
    /// (one per register) take A's row `g + 8·(i % 2)`, column `t + 4·(i/2)` and B's row `t +
    /// 4·i`, column `g`.
    pub fn element(&self, which: Operand, lane: u32, i: u32) -> usize {
        let (len, bytes) = match which {
            Operand::A => (self.a_len() as u32, self.input.size()),
            Operand::B => (self.b_len() as u32, self.input.size()),
            Operand::C => (self.c_len() as u32, self.c.size()),
            Operand::D => (self.c_len() as u32, self.d.size()),
        };
        if !self.ptx {
            return tile_element(len, bytes, lane, i) as usize;
        }
        let (g, t) = (lane / 4, lane % 4);
        let (row, col) = match (which, self.tf32) {
            (Operand::A, false) => (g + 8 * (i / 2 % 2), 2 * t + i % 2 + 8 * (i / 4)),
            (Operand::A, true) => (g + 8 * (i % 2), t + 4 * (i / 2)),
            (Operand::B, false) => (2 * t + i % 2 + 8 * (i / 2), g),
            (Operand::B, true) => (t + 4 * i, g),
            (Operand::C | Operand::D, _) => (g + 8 * (i / 2), 2 * t + i % 2),
        };
        (match which {
            Operand::A => row * self.k + col,
            Operand::B => col * self.k + row,
            _ => row * self.n + col,
        }) as usize
    }

    /// One warp's multiply-adds in dense FP16 multiply-adds, the tensor cores' unit of work
    /// (`docs/gpu-facts.md` §6.7): `m·n·k` for half and bfloat16 inputs (the same rate), twice
    /// that for tf32 (half the rate), sixteen times for double (1/16), half for 8-bit integers
    /// (twice the rate). Every shape has an even `m·n·k`.
    pub fn fp16_fma(&self) -> u64 {
        let fma = u64::from(self.m) * u64::from(self.n) * u64::from(self.k);
        match self.input {
            Scalar::F64 => fma * 16,
            Scalar::I8 | Scalar::U8 => fma / 2,
            _ if self.tf32 => fma * 2,
            _ => fma,
        }
    }

    /// `D = A * B + C` for one warp, each operand the tile in its storage order (A and B
    /// row- or column-major as declared, C and D row-major); values are exact (`f64` holds
    /// every `half`, `bfloat16`, `float`, `int` and `double`).
    ///
    /// Each product is exact. The sum starts from C and adds the products in `k` order, each
    /// addition rounded once to D's type (round to nearest even; a `float` sum is one fused
    /// multiply-add per product, a `half` one is the exact sum rounded to `half`, an `int` one
    /// is exact and wraps to 32 bits at the end, as adding in `int` would). The hardware adds
    /// groups of products in an order and with an internal precision NVIDIA does not specify,
    /// so a result that is not exactly representable may differ from the GPU's in its last bits.
    pub fn multiply(&self, a: &[f64], b: &[f64], c: &[f64]) -> Vec<f64> {
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        let input = |x: f64| {
            if self.tf32 {
                f64::from(f32::from_bits((x as f32).to_bits() & 0xffff_e000))
            } else {
                x
            }
        };
        let at = |i: usize, kk: usize| input(a[if self.a_col { kk * m + i } else { i * k + kk }]);
        let bt = |kk: usize, j: usize| input(b[if self.b_col { j * k + kk } else { kk * n + j }]);
        let mut d = Vec::with_capacity(m * n);
        for i in 0..m {
            for j in 0..n {
                let start = c[i * n + j];
                let products = (0..k).map(|kk| (at(i, kk), bt(kk, j)));
                d.push(self.finish(self.sum(start, products)));
            }
        }
        d
    }

    /// C's element plus the products, each addition rounded to D's type.
    fn sum(&self, start: f64, products: impl Iterator<Item = (f64, f64)>) -> f64 {
        match self.d {
            Scalar::F32 => {
                let mut acc = start as f32;
                for (x, y) in products {
                    acc = (x as f32).mul_add(y as f32, acc);
                }
                f64::from(acc)
            }
            Scalar::F64 => products.fold(start, |acc, (x, y)| x.mul_add(y, acc)),
            Scalar::F16 | Scalar::BF16 => products
                .fold(f64::from(round_half(start, self.d)), |acc, (x, y)| {
                    f64::from(round_half(acc + x * y, self.d))
                }),
            _ => {
                let exact = products.fold(start as i64, |acc, (x, y)| acc + x as i64 * y as i64);
                if self.satf {
                    exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as f64
                } else {
                    f64::from(exact as i32)
                }
            }
        }
    }

    /// `satf` on a floating-point result.
    fn finish(&self, x: f64) -> f64 {
        if !self.satf || !self.d.is_float() {
            return x;
        }
        let max = match self.d {
            Scalar::F16 => 65504.0,
            Scalar::BF16 => f64::from(f32::from_bits(0x7f7f_0000)),
            Scalar::F32 => f64::from(f32::MAX),
            _ => f64::MAX,
        };
        if x.is_nan() {
            0.0
        } else {
            x.clamp(-max, max)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(m: u32, n: u32, k: u32, d: Scalar) -> MmaOp {
        MmaOp {
            m,
            n,
            k,
            input: Scalar::F16,
            tf32: false,
            c: d,
            d,
            a_col: false,
            b_col: false,
            satf: false,
            ptx: false,
        }
    }

    #[test]
    fn lanes_hold_slabs_of_consecutive_elements() {
        // A half 16×16 tile: 8 elements a lane, one 16-byte piece: lane 3's x[5] is 3·8 + 5.
        assert_eq!(tile_element(8, 2, 3, 5), 29);
        // A float 16×16 accumulator: 8 elements in two pieces of 4: x[0..4] of lane l are
        // 4l..4l+4 (the first 128 elements), x[4..8] are 128 + 4l..: lane 3's x[5] is 141.
        assert_eq!(tile_element(8, 4, 3, 5), 128 + 12 + 1);
        // Every element of the tile exactly once.
        let mut seen: Vec<u32> = (0..32)
            .flat_map(|l| (0..8).map(move |i| tile_element(8, 4, l, i)))
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..256).collect::<Vec<_>>());
    }

    #[test]
    fn a_small_product_by_hand() {
        // m8n32k16 is too big to write out; the arithmetic does not depend on the shape, so
        // a 2×2×2 operation shows it: A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]] (row-major),
        // C = 1: A·B = [[19, 22], [43, 50]], D = [[20, 23], [44, 51]].
        let o = op(2, 2, 2, Scalar::F32);
        let d = o.multiply(&[1., 2., 3., 4.], &[5., 6., 7., 8.], &[1.; 4]);
        assert_eq!(d, vec![20., 23., 44., 51.]);
        // B column-major holds [[5, 7], [6, 8]] in memory order for the same matrix.
        let d = MmaOp { b_col: true, ..o }.multiply(&[1., 2., 3., 4.], &[5., 7., 6., 8.], &[1.; 4]);
        assert_eq!(d, vec![20., 23., 44., 51.]);
    }

    #[test]
    fn float_sums_round_at_each_addition_in_k_order() {
        // 2^24 + 1 + 1 in float: 2^24 + 1 rounds to 2^24 (ties to even), then again, so 2^24;
        // the exact sum 2^24 + 2 would be representable.
        let o = op(1, 1, 2, Scalar::F32);
        let d = o.multiply(&[1., 1.], &[1., 1.], &[16_777_216.]);
        assert_eq!(d, vec![16_777_216.]);
        // In double the sum is exact.
        let d = MmaOp {
            d: Scalar::F64,
            c: Scalar::F64,
            ..o
        }
        .multiply(&[1., 1.], &[1., 1.], &[16_777_216.]);
        assert_eq!(d, vec![16_777_218.]);
    }

    #[test]
    fn half_sums_round_to_half_and_satf_clamps() {
        // 2048 + 1 in half: the spacing at 2048 is 2, the tie goes to even, 2048.
        let o = op(1, 1, 1, Scalar::F16);
        assert_eq!(o.multiply(&[1.], &[1.], &[2048.]), vec![2048.]);
        // 300 · 300 = 90000 overflows half: infinity, or 65504 with satf.
        assert_eq!(o.multiply(&[300.], &[300.], &[0.]), vec![f64::INFINITY]);
        let s = MmaOp { satf: true, ..o };
        assert_eq!(s.multiply(&[300.], &[300.], &[0.]), vec![65504.]);
    }

    #[test]
    fn integer_sums_wrap_or_saturate() {
        // 127 · 127 = 16129, plus 2^31 - 16000: 129 past i32::MAX wraps to i32::MIN + 128.
        let mut o = op(1, 1, 1, Scalar::I32);
        o.input = Scalar::I8;
        let c = f64::from(i32::MAX - 16000);
        assert_eq!(
            o.multiply(&[127.], &[127.], &[c]),
            vec![f64::from(i32::MIN + 128)]
        );
        let s = MmaOp { satf: true, ..o };
        assert_eq!(
            s.multiply(&[127.], &[127.], &[c]),
            vec![f64::from(i32::MAX)]
        );
    }

    #[test]
    fn tf32_inputs_drop_their_low_mantissa_bits() {
        // 1 + 2^-12 is below tf32's precision (10 mantissa bits): read as 1.
        let mut o = op(1, 1, 1, Scalar::F32);
        o.input = Scalar::F32;
        o.tf32 = true;
        let x = 1.0 + 2f64.powi(-12);
        assert_eq!(o.multiply(&[x], &[1.], &[0.]), vec![1.]);
    }

    #[test]
    fn tensor_work_is_counted_at_the_fp16_rate() {
        // 16×16×16 half: 4096 multiply-adds. bfloat16 runs at the same rate: 4096.
        let half = op(16, 16, 16, Scalar::F32);
        assert_eq!(half.fp16_fma(), 4096);
        let bf16 = MmaOp {
            input: Scalar::BF16,
            ..half
        };
        assert_eq!(bf16.fp16_fma(), 4096);
        // 16×16×8 tf32: 2048 at half the rate, 4096 FP16 multiply-adds.
        let tf32 = MmaOp {
            k: 8,
            input: Scalar::F32,
            tf32: true,
            ..half
        };
        assert_eq!(tf32.fp16_fma(), 4096);
        // 16×16×16 signed bytes: 4096 at twice the rate, 2048.
        let s8 = MmaOp {
            input: Scalar::I8,
            c: Scalar::I32,
            d: Scalar::I32,
            ..half
        };
        assert_eq!(s8.fp16_fma(), 2048);
        // 8×8×4 double: 256 at 1/16 of the rate, 4096.
        let double = MmaOp {
            input: Scalar::F64,
            ..op(8, 8, 4, Scalar::F64)
        };
        assert_eq!(double.fp16_fma(), 4096);
    }
}
