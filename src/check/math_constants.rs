//! `<math_constants.h>`'s `CUDART_*` constants, with the header's exact values and types.

// Copied from the CUDA Toolkit's `include/math_constants.h` (Copyright 1993-2021 NVIDIA, the
// same text since CUDA 9): each `#define` is shown beside its value. `__int_as_float(bits)` and
// `__longlong_as_double(bits)` are the bits themselves; a decimal literal is rounded to `float`
// (suffix `F`) or `double` as C rounds it, which Rust's literals do too.

use crate::value::Value;

/// The value of `<math_constants.h>`'s constant `name`, if it is one.
// The header's digits are kept as written, more than a `float` holds, near π and e.
#[allow(clippy::excessive_precision, clippy::approx_constant)]
pub(crate) fn cudart_constant(name: &str) -> Option<Value> {
    Some(match name {
        "CUDART_INF_F" => Value::F32(f32::from_bits(0x7f800000)), // __int_as_float(0x7f800000U)
        "CUDART_NAN_F" => Value::F32(f32::from_bits(0x7fffffff)), // __int_as_float(0x7fffffffU)
        "CUDART_MIN_DENORM_F" => Value::F32(f32::from_bits(0x00000001)), // __int_as_float(0x00000001U)
        "CUDART_MAX_NORMAL_F" => Value::F32(f32::from_bits(0x7f7fffff)), // __int_as_float(0x7f7fffffU)
        "CUDART_NEG_ZERO_F" => Value::F32(f32::from_bits(0x80000000)), // __int_as_float(0x80000000U)
        "CUDART_ZERO_F" => Value::F32(0.0_f32),                        // 0.0F
        "CUDART_ONE_F" => Value::F32(1.0_f32),                         // 1.0F
        "CUDART_SQRT_HALF_F" => Value::F32(0.707106781_f32),           // 0.707106781F
        "CUDART_SQRT_HALF_HI_F" => Value::F32(0.707106781_f32),        // 0.707106781F
        "CUDART_SQRT_HALF_LO_F" => Value::F32(1.210161749e-08_f32),    // 1.210161749e-08F
        "CUDART_SQRT_TWO_F" => Value::F32(1.414213562_f32),            // 1.414213562F
        "CUDART_THIRD_F" => Value::F32(0.333333333_f32),               // 0.333333333F
        "CUDART_PIO4_F" => Value::F32(0.785398163_f32),                // 0.785398163F
        "CUDART_PIO2_F" => Value::F32(1.570796327_f32),                // 1.570796327F
        "CUDART_3PIO4_F" => Value::F32(2.356194490_f32),               // 2.356194490F
        "CUDART_2_OVER_PI_F" => Value::F32(0.636619772_f32),           // 0.636619772F
        "CUDART_SQRT_2_OVER_PI_F" => Value::F32(0.797884561_f32),      // 0.797884561F
        "CUDART_PI_F" => Value::F32(3.141592654_f32),                  // 3.141592654F
        "CUDART_L2E_F" => Value::F32(1.442695041_f32),                 // 1.442695041F
        "CUDART_L2T_F" => Value::F32(3.321928094_f32),                 // 3.321928094F
        "CUDART_LG2_F" => Value::F32(0.301029996_f32),                 // 0.301029996F
        "CUDART_LGE_F" => Value::F32(0.434294482_f32),                 // 0.434294482F
        "CUDART_LN2_F" => Value::F32(0.693147181_f32),                 // 0.693147181F
        "CUDART_LNT_F" => Value::F32(2.302585093_f32),                 // 2.302585093F
        "CUDART_LNPI_F" => Value::F32(1.144729886_f32),                // 1.144729886F
        "CUDART_TWO_TO_M126_F" => Value::F32(1.175494351e-38_f32),     // 1.175494351e-38F
        "CUDART_TWO_TO_126_F" => Value::F32(8.507059173e37_f32),       // 8.507059173e37F
        "CUDART_NORM_HUGE_F" => Value::F32(3.402823466e38_f32),        // 3.402823466e38F
        "CUDART_TWO_TO_23_F" => Value::F32(8388608.0_f32),             // 8388608.0F
        "CUDART_TWO_TO_24_F" => Value::F32(16777216.0_f32),            // 16777216.0F
        "CUDART_TWO_TO_31_F" => Value::F32(2147483648.0_f32),          // 2147483648.0F
        "CUDART_TWO_TO_32_F" => Value::F32(4294967296.0_f32),          // 4294967296.0F
        "CUDART_REMQUO_BITS_F" => Value::U32(3),                       // 3U
        "CUDART_REMQUO_MASK_F" => Value::U32(!(!0u32 << 3)), // (~((~0U)<<CUDART_REMQUO_BITS_F))
        "CUDART_TRIG_PLOSS_F" => Value::F32(105615.0_f32),   // 105615.0F
        "CUDART_INF" => Value::F64(f64::from_bits(0x7ff0000000000000)), // __longlong_as_double(0x7ff0000000000000ULL)
        "CUDART_NAN" => Value::F64(f64::from_bits(0xfff8000000000000)), // __longlong_as_double(0xfff8000000000000ULL)
        "CUDART_NEG_ZERO" => Value::F64(f64::from_bits(0x8000000000000000)), // __longlong_as_double(0x8000000000000000ULL)
        "CUDART_MIN_DENORM" => Value::F64(f64::from_bits(0x0000000000000001)), // __longlong_as_double(0x0000000000000001ULL)
        "CUDART_ZERO" => Value::F64(0.0_f64),                                  // 0.0
        "CUDART_ONE" => Value::F64(1.0_f64),                                   // 1.0
        "CUDART_SQRT_TWO" => Value::F64(1.4142135623730951e+0_f64), // 1.4142135623730951e+0
        "CUDART_SQRT_HALF" => Value::F64(7.0710678118654757e-1_f64), // 7.0710678118654757e-1
        "CUDART_SQRT_HALF_HI" => Value::F64(7.0710678118654757e-1_f64), // 7.0710678118654757e-1
        "CUDART_SQRT_HALF_LO" => Value::F64(-4.8336466567264567e-17_f64), // (-4.8336466567264567e-17)
        "CUDART_THIRD" => Value::F64(3.3333333333333333e-1_f64),          // 3.3333333333333333e-1
        "CUDART_TWOTHIRD" => Value::F64(6.6666666666666667e-1_f64),       // 6.6666666666666667e-1
        "CUDART_PIO4" => Value::F64(7.8539816339744828e-1_f64),           // 7.8539816339744828e-1
        "CUDART_PIO4_HI" => Value::F64(7.8539816339744828e-1_f64),        // 7.8539816339744828e-1
        "CUDART_PIO4_LO" => Value::F64(3.0616169978683830e-17_f64),       // 3.0616169978683830e-17
        "CUDART_PIO2" => Value::F64(1.5707963267948966e+0_f64),           // 1.5707963267948966e+0
        "CUDART_PIO2_HI" => Value::F64(1.5707963267948966e+0_f64),        // 1.5707963267948966e+0
        "CUDART_PIO2_LO" => Value::F64(6.1232339957367660e-17_f64),       // 6.1232339957367660e-17
        "CUDART_3PIO4" => Value::F64(2.3561944901923448e+0_f64),          // 2.3561944901923448e+0
        "CUDART_2_OVER_PI" => Value::F64(6.3661977236758138e-1_f64),      // 6.3661977236758138e-1
        "CUDART_PI" => Value::F64(3.1415926535897931e+0_f64),             // 3.1415926535897931e+0
        "CUDART_PI_HI" => Value::F64(3.1415926535897931e+0_f64),          // 3.1415926535897931e+0
        "CUDART_PI_LO" => Value::F64(1.2246467991473532e-16_f64),         // 1.2246467991473532e-16
        "CUDART_SQRT_2PI" => Value::F64(2.5066282746310007e+0_f64),       // 2.5066282746310007e+0
        "CUDART_SQRT_2PI_HI" => Value::F64(2.5066282746310007e+0_f64),    // 2.5066282746310007e+0
        "CUDART_SQRT_2PI_LO" => Value::F64(-1.8328579980459167e-16_f64), // (-1.8328579980459167e-16)
        "CUDART_SQRT_PIO2" => Value::F64(1.2533141373155003e+0_f64),     // 1.2533141373155003e+0
        "CUDART_SQRT_PIO2_HI" => Value::F64(1.2533141373155003e+0_f64),  // 1.2533141373155003e+0
        "CUDART_SQRT_PIO2_LO" => Value::F64(-9.1642899902295834e-17_f64), // (-9.1642899902295834e-17)
        "CUDART_SQRT_2OPI" => Value::F64(7.9788456080286536e-1_f64),      // 7.9788456080286536e-1
        "CUDART_L2E" => Value::F64(1.4426950408889634e+0_f64),            // 1.4426950408889634e+0
        "CUDART_L2E_HI" => Value::F64(1.4426950408889634e+0_f64),         // 1.4426950408889634e+0
        "CUDART_L2E_LO" => Value::F64(2.0355273740931033e-17_f64),        // 2.0355273740931033e-17
        "CUDART_L2T" => Value::F64(3.3219280948873622e+0_f64),            // 3.3219280948873622e+0
        "CUDART_LG2" => Value::F64(3.0102999566398120e-1_f64),            // 3.0102999566398120e-1
        "CUDART_LG2_HI" => Value::F64(3.0102999566398120e-1_f64),         // 3.0102999566398120e-1
        "CUDART_LG2_LO" => Value::F64(-2.8037281277851704e-18_f64), // (-2.8037281277851704e-18)
        "CUDART_LGE" => Value::F64(4.3429448190325182e-1_f64),      // 4.3429448190325182e-1
        "CUDART_LGE_HI" => Value::F64(4.3429448190325182e-1_f64),   // 4.3429448190325182e-1
        "CUDART_LGE_LO" => Value::F64(1.09831965021676510e-17_f64), // 1.09831965021676510e-17
        "CUDART_LN2" => Value::F64(6.9314718055994529e-1_f64),      // 6.9314718055994529e-1
        "CUDART_LN2_HI" => Value::F64(6.9314718055994529e-1_f64),   // 6.9314718055994529e-1
        "CUDART_LN2_LO" => Value::F64(2.3190468138462996e-17_f64),  // 2.3190468138462996e-17
        "CUDART_LNT" => Value::F64(2.3025850929940459e+0_f64),      // 2.3025850929940459e+0
        "CUDART_LNT_HI" => Value::F64(2.3025850929940459e+0_f64),   // 2.3025850929940459e+0
        "CUDART_LNT_LO" => Value::F64(-2.1707562233822494e-16_f64), // (-2.1707562233822494e-16)
        "CUDART_LNPI" => Value::F64(1.1447298858494002e+0_f64),     // 1.1447298858494002e+0
        "CUDART_LN2_X_1024" => Value::F64(7.0978271289338397e+2_f64), // 7.0978271289338397e+2
        "CUDART_LN2_X_1025" => Value::F64(7.1047586007394398e+2_f64), // 7.1047586007394398e+2
        "CUDART_LN2_X_1075" => Value::F64(7.4513321910194122e+2_f64), // 7.4513321910194122e+2
        "CUDART_LG2_X_1024" => Value::F64(3.0825471555991675e+2_f64), // 3.0825471555991675e+2
        "CUDART_LG2_X_1075" => Value::F64(3.2360724533877976e+2_f64), // 3.2360724533877976e+2
        "CUDART_TWO_TO_23" => Value::F64(8388608.0_f64),            // 8388608.0
        "CUDART_TWO_TO_52" => Value::F64(4503599627370496.0_f64),   // 4503599627370496.0
        "CUDART_TWO_TO_53" => Value::F64(9007199254740992.0_f64),   // 9007199254740992.0
        "CUDART_TWO_TO_54" => Value::F64(18014398509481984.0_f64),  // 18014398509481984.0
        "CUDART_TWO_TO_M54" => Value::F64(5.5511151231257827e-17_f64), // 5.5511151231257827e-17
        "CUDART_TWO_TO_M1022" => Value::F64(2.22507385850720140e-308_f64), // 2.22507385850720140e-308
        "CUDART_TRIG_PLOSS" => Value::F64(2147483648.0_f64),               // 2147483648.0
        "CUDART_DBL2INT_CVT" => Value::F64(6755399441055744.0_f64),        // 6755399441055744.0
        _ => return None,
    })
}
