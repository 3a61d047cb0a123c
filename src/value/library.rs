//! The constants of C's and CUDA's headers (`<math.h>`, `<float.h>`, `<climits>`,
//! `<stdint.h>`) that simt provides without the headers' text, for code and for `#if` lines.

use super::Value;

/// The value and type of header constant `name`, as glibc's headers give it on x86-64
/// (`<math_constants.h>`'s are [`crate::check`]'s); `None` for any other name.
pub fn library_constant(name: &str) -> Option<Value> {
    use std::f64::consts as c;
    Some(match name {
        "M_PI" => Value::F64(c::PI),
        "M_PI_2" => Value::F64(c::FRAC_PI_2),
        "M_PI_4" => Value::F64(c::FRAC_PI_4),
        "M_1_PI" => Value::F64(c::FRAC_1_PI),
        "M_2_PI" => Value::F64(c::FRAC_2_PI),
        "M_2_SQRTPI" => Value::F64(c::FRAC_2_SQRT_PI),
        "M_E" => Value::F64(c::E),
        "M_LN2" => Value::F64(c::LN_2),
        "M_LN10" => Value::F64(c::LN_10),
        "M_LOG2E" => Value::F64(c::LOG2_E),
        "M_LOG10E" => Value::F64(c::LOG10_E),
        "M_SQRT2" => Value::F64(c::SQRT_2),
        "M_SQRT1_2" => Value::F64(c::FRAC_1_SQRT_2),
        "INFINITY" | "HUGE_VALF" => Value::F32(f32::INFINITY),
        "HUGE_VAL" => Value::F64(f64::INFINITY),
        "NAN" => Value::F32(f32::NAN),
        "FLT_MAX" => Value::F32(f32::MAX),
        "FLT_MIN" => Value::F32(f32::MIN_POSITIVE),
        "FLT_EPSILON" => Value::F32(f32::EPSILON),
        "DBL_MAX" => Value::F64(f64::MAX),
        "DBL_MIN" => Value::F64(f64::MIN_POSITIVE),
        "DBL_EPSILON" => Value::F64(f64::EPSILON),
        "CHAR_BIT" => Value::I32(8),
        // `char` is signed on x86-64 (and in nvcc's device code, which follows the host).
        "CHAR_MIN" => Value::I32(i32::from(i8::MIN)),
        "CHAR_MAX" => Value::I32(i32::from(i8::MAX)),
        "SCHAR_MAX" => Value::I32(i32::from(i8::MAX)),
        "SCHAR_MIN" => Value::I32(i32::from(i8::MIN)),
        "UCHAR_MAX" => Value::I32(i32::from(u8::MAX)),
        "SHRT_MAX" => Value::I32(i32::from(i16::MAX)),
        "SHRT_MIN" => Value::I32(i32::from(i16::MIN)),
        "USHRT_MAX" => Value::I32(i32::from(u16::MAX)),
        "INT_MAX" => Value::I32(i32::MAX),
        "INT_MIN" => Value::I32(i32::MIN),
        "UINT_MAX" => Value::U32(u32::MAX),
        "LONG_MAX" | "LLONG_MAX" => Value::I64(i64::MAX),
        "LONG_MIN" | "LLONG_MIN" => Value::I64(i64::MIN),
        "ULONG_MAX" | "ULLONG_MAX" => Value::U64(u64::MAX),
        // <stdint.h>'s limits, of the types glibc gives them on x86-64 (`UINT16_MAX` is the
        // `int` 65535, `UINT32_MAX` `4294967295U`, the 64-bit ones `long`).
        "INT8_MIN" => Value::I32(i32::from(i8::MIN)),
        "INT8_MAX" => Value::I32(i32::from(i8::MAX)),
        "UINT8_MAX" => Value::I32(i32::from(u8::MAX)),
        "INT16_MIN" => Value::I32(i32::from(i16::MIN)),
        "INT16_MAX" => Value::I32(i32::from(i16::MAX)),
        "UINT16_MAX" => Value::I32(i32::from(u16::MAX)),
        "INT32_MIN" => Value::I32(i32::MIN),
        "INT32_MAX" => Value::I32(i32::MAX),
        "UINT32_MAX" => Value::U32(u32::MAX),
        "INT64_MIN" | "INTPTR_MIN" | "INTMAX_MIN" | "PTRDIFF_MIN" => Value::I64(i64::MIN),
        "INT64_MAX" | "INTPTR_MAX" | "INTMAX_MAX" | "PTRDIFF_MAX" => Value::I64(i64::MAX),
        "UINT64_MAX" | "UINTPTR_MAX" | "UINTMAX_MAX" | "SIZE_MAX" => Value::U64(u64::MAX),
        _ => return None,
    })
}
