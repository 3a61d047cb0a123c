//! CUDA's IEEE-rounded arithmetic (`__fadd_rz`, `__ddiv_ru`, `__frsqrt_rn`, `scalbnf`): results
//! against a C oracle and values derived by hand.

use crate::common;
use common::ok;
use simt::value::{rounded, Direction, RoundedOp, Scalar};

// The tables come from `tests/oracle/rounded.c` (gcc, `fesetround`, SSE arithmetic and glibc's
// `sqrt`/`fma`, which honour the rounding mode): `gcc -O0 -frounding-math rounded.c -lm && ./a.out`.
// Inputs mix subnormals, values near 1, values near the largest finite one, small integers and
// random bit patterns; some pairs cancel exactly (b = -a) to reach the signed zeros.
/// One oracle row: the operation, its rounding (`None`: `__frsqrt_rn`'s own), the operands' bits
/// (the third for `fma`) and the result's bits.
type Case<B> = (RoundedOp, Option<Direction>, B, B, B, B);
include!("oracle/rounded_table.rs");

#[test]
fn float_operations_match_the_c_oracle_in_every_rounding() {
    for &(op, dir, a, b, c, want) in F32 {
        let args = [a, b, c].map(|x| f64::from(f32::from_bits(x)));
        let got = (rounded(op, Scalar::F32, dir, args) as f32).to_bits();
        assert_eq!(got, want, "{op:?} {dir:?} {a:#x} {b:#x} {c:#x}");
    }
}

#[test]
fn double_operations_match_the_c_oracle_in_every_rounding() {
    for &(op, dir, a, b, c, want) in F64 {
        let args = [a, b, c].map(f64::from_bits);
        let got = rounded(op, Scalar::F64, dir, args).to_bits();
        assert_eq!(got, want, "{op:?} {dir:?} {a:#x} {b:#x} {c:#x}");
    }
}

#[test]
fn intrinsics_round_as_their_suffix_says() {
    let src = r#"
__global__ void k(unsigned* o, float* f) {
    float third = 1.0f, three = 3.0f, tiny = 1.0f / 1073741824.0f;
    o[0] = __float_as_uint(__fdiv_rn(third, three));
    o[1] = __float_as_uint(__fdiv_rz(third, three));
    o[2] = __float_as_uint(__fdiv_ru(third, three));
    o[3] = __float_as_uint(__fdiv_rd(-third, three));
    o[4] = __float_as_uint(__fadd_ru(1.0f, tiny));
    o[5] = __float_as_uint(__fadd_rd(1.0f, tiny));
    o[6] = __float_as_uint(__fsub_rd(-1.0f, tiny));
    o[7] = __float_as_uint(__fsub_rd(1.0f, 1.0f));
    o[8] = __float_as_uint(__fsub_rn(1.0f, 1.0f));
    o[9] = __float_as_uint(__frcp_rn(three));
    o[10] = __float_as_uint(__fsqrt_rd(2.0f));
    o[11] = __float_as_uint(__fsqrt_ru(2.0f));
    o[12] = __float_as_uint(__frsqrt_rn(2.0f));
    o[13] = __float_as_uint(__fmul_rz(3.0f, third / three));
    o[14] = __float_as_uint(__fmaf_rn(1.0f + tiny * 8192.0f, 1.0f - tiny * 8192.0f, -1.0f));
    o[15] = __float_as_uint(__fmaf_ru(3.0e38f, 2.0f, -3.0e38f));
    o[16] = __float_as_uint(__fmul_ru(3.0e38f, 2.0f));
    o[17] = __float_as_uint(__fmul_rz(3.0e38f, 2.0f));
    o[18] = __float_as_uint(scalbnf(3.0f, -150));
    o[19] = __float_as_uint(ldexpf(1.5f, 4));
    o[20] = __double2loint(__ddiv_ru(1.0, 3.0));
    o[21] = __double2loint(__ddiv_rd(1.0, 3.0));
    f[0] = (float)(__dadd_rn(0.5, 0.25) * 4.0);
    f[1] = (float)scalbn(1.0, 3);
}
launch k {
    o = zeros(22);
    f = zeros(2);
    expect o == [0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaab, 0xbeaaaaab, 0x3f800001, 0x3f800000,
                 0xbf800001, 0x80000000, 0x00000000, 0x3eaaaaab, 0x3fb504f3, 0x3fb504f4,
                 0x3f3504f3, 0x3f800000, 0xae800000, 0x7f61b1e6, 0x7f800000, 0x7f7fffff,
                 0x00000002, 0x41c00000, 0x55555556, 0x55555555];
    expect f == [3, 8];
}
"#;
    // By hand, from the bit patterns (float: 1 sign, 8 exponent, 23 fraction bits):
    //  0-3  1/3 = 0x3eaaaaaa.aaa… in float units: nearest and up round the tail .aaa… (> 1/2)
    //       up to …ab, toward zero drops it (…aa); -1/3 rounded down is the larger magnitude.
    //  4-6  1 + 2^-30 lies between 1 and 1 + 2^-23 (0x3f800001): up gives the next float, down
    //       gives 1; -1 - 2^-30 rounded down is -(1 + 2^-23).
    //  7-8  1 - 1 is exactly zero: -0 when rounding down, +0 otherwise (IEEE 754 §6.3).
    //  9    1/3 to nearest, as 0-2.
    // 10-11 sqrt(2) = 1.0110101000001001111001100110011… ; its 24-bit truncation is 0x3fb504f3,
    //       and the root is irrational, so up is one more.
    // 12    1/sqrt(2) = 0.70710678118…: 0x3f3504f3 is 0.707106769, 0x3f3504f4 is 0.707106829;
    //       the first is nearer.
    // 13    3 · RN(1/3), RN(1/3) = 0x3eaaaaab = 11184811 · 2^-25: the exact product is
    //       33554433 · 2^-25 = 1 + 2^-25, toward zero 1 = 0x3f800000.
    // 14    (1 + 2^-17)(1 - 2^-17) - 1 = -2^-34 exactly: the fused product keeps it; its biased
    //       exponent is 127 - 34 = 93, so the bits are 0x80000000 | 93 << 23 = 0xae800000.
    // 15    3e38 · 2 - 3e38 = 3e38 (its float 0x7f61b1e6) exactly: no overflow inside an fma.
    // 16-17 6e38 overflows: up is infinity, toward zero the largest float 0x7f7fffff.
    // 18    3 · 2^-150 = 1.5 · 2^-149: halfway between the subnormals 1 and 2 (× 2^-149), ties
    //       to even give 2 · 2^-149 = 0x00000002.
    // 19    1.5 · 16 = 24 = 0x41c00000.
    // 20-21 1/3 in double is 0x3fd5555555555555 rounded down, …56 up: the low words.
    // f     (0.5 + 0.25) · 4 = 3; 2^3 = 8.
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}
