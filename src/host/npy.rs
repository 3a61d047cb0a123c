//! `.npy` files: `load("x.npy")` and `--arg a=@x.npy` in, `--save NAME=out.npy` out (written atomically).

use std::path::Path;

use ndarray::{ArrayD, IxDyn};
use ndarray_npy::{read_npy, write_npy};

use super::error::HostError;
use super::value::HostValue;
use crate::exec::BufData;
use crate::source::Span;
use crate::value::Scalar;

/// Reads an `.npy` file of any supported dtype.
pub fn load(path: &Path, span: Span) -> Result<HostValue, HostError> {
    let file_error = |reason: String, help: Option<&str>| HostError::File {
        path: path.display().to_string(),
        reason,
        span,
        help: help.map(Into::into),
    };
    if path.is_dir() {
        return Err(file_error("it is a directory".into(), None));
    }
    if !path.exists() {
        return Err(file_error(
            "no such file".into(),
            Some("paths in a launch section are relative to the kernel file"),
        ));
    }
    macro_rules! attempt {
        ($t:ty, $tag:ident, $float:expr) => {
            if let Ok(a) = read_npy::<_, ArrayD<$t>>(path) {
                let shape = a.shape().to_vec();
                let data: Vec<f64> = a.iter().map(|&x| to_f64(x)).collect();
                return Ok(HostValue::Array {
                    data,
                    shape,
                    float: $float,
                    dtype: Some(Scalar::$tag),
                });
            }
        };
    }
    attempt!(f32, F32, true);
    attempt!(f64, F64, true);
    attempt!(i32, I32, false);
    attempt!(i64, I64, false);
    attempt!(u32, U32, false);
    attempt!(u64, U64, false);
    attempt!(i16, I16, false);
    attempt!(u16, U16, false);
    attempt!(i8, I8, false);
    attempt!(u8, U8, false);
    attempt!(bool, Bool, false);
    let reason = match read_npy::<_, ArrayD<f32>>(path) {
        Err(e) => e.to_string(),
        Ok(_) => "unreadable".into(),
    };
    Err(file_error(
        format!("not a supported .npy array ({reason})"),
        Some("simt reads little-endian, C-order .npy files of bool, int8..int64, uint8..uint64, float32 or float64"),
    ))
}

trait ToF64: Copy {
    fn f(self) -> f64;
}
macro_rules! to_f64_impl {
    ($($t:ty),*) => { $(impl ToF64 for $t { fn f(self) -> f64 { self as f64 } })* };
}
to_f64_impl!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64);
impl ToF64 for bool {
    fn f(self) -> f64 {
        f64::from(u8::from(self))
    }
}
fn to_f64<T: ToF64>(x: T) -> f64 {
    x.f()
}

/// Writes a buffer as `.npy` with its own dtype: to a temporary file first, then renamed over `path`.
pub fn save(path: &Path, data: &BufData, shape: &[usize]) -> Result<(), String> {
    let tmp = path.with_extension("npy.tmp");
    let shape = IxDyn(shape);
    macro_rules! write {
        ($v:expr) => {
            ArrayD::from_shape_vec(shape, $v.clone())
                .map_err(|e| e.to_string())
                .and_then(|a| write_npy(&tmp, &a).map_err(|e| e.to_string()))
        };
    }
    let result = match data {
        BufData::Bool(v) => write!(v),
        BufData::I8(v) => write!(v),
        BufData::U8(v) => write!(v),
        BufData::I16(v) => write!(v),
        BufData::U16(v) => write!(v),
        BufData::I32(v) => write!(v),
        BufData::U32(v) => write!(v),
        BufData::I64(v) => write!(v),
        BufData::U64(v) => write!(v),
        BufData::F32(v) => write!(v),
        BufData::F64(v) => write!(v),
    };
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| e.to_string())
}
