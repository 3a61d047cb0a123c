//! `.npy` files: `load("x.npy")` and `--arg a=@x.npy` in, `--save NAME=out.npy` out (written atomically).
//!
//! Reading parses the header itself (format versions 1–3: magic, version, header length, a
//! Python dict with `descr`, `fortran_order` and `shape`), so that a wrong dtype, a truncated
//! file or a header that disagrees with the data each get their own message, and so that the
//! size is known — and checked against `--max-memory` — before any data is read.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ndarray::{ArrayD, IxDyn};
use ndarray_npy::write_npy;

use super::error::HostError;
use super::value::HostValue;
use crate::exec::BufData;
use crate::source::Span;
use crate::value::Scalar;

/// What the error help says simt reads.
const SUPPORTED: &str = "simt reads C-order .npy files of bool, int8..int64, uint8..uint64, float32 or float64 (either byte order)";

/// An opened `.npy` file whose header has been read and checked against its length.
#[derive(Debug)]
pub(crate) struct NpyFile {
    path: PathBuf,
    file: std::fs::File,
    span: Span,
    /// Element type.
    pub(crate) dtype: Scalar,
    big_endian: bool,
    /// Shape from the header.
    pub(crate) shape: Vec<usize>,
    /// Elements (the product of the shape).
    pub(crate) len: usize,
}

fn file_error(path: &Path, span: Span, reason: impl Into<String>, help: Option<&str>) -> HostError {
    HostError::File {
        path: path.display().to_string(),
        reason: reason.into(),
        span,
        help: help.map(Into::into),
    }
}

/// Opens `path` and reads its header; the data is not read yet.
pub(crate) fn open(path: &Path, span: Span) -> Result<NpyFile, HostError> {
    let fail = |reason: String, help: Option<&str>| file_error(path, span, reason, help);
    if path.is_dir() {
        return Err(fail("it is a directory".into(), Some("name a .npy file")));
    }
    let mut file = std::fs::File::open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            fail(
                "no such file".into(),
                Some("paths in a launch section are relative to the kernel file; `--arg a=@file` paths to the working directory"),
            )
        } else {
            fail(e.to_string(), None)
        }
    })?;
    let file_len = file
        .metadata()
        .map_err(|e| fail(e.to_string(), None))?
        .len();
    let not_npy = |what: &str| {
        fail(
            format!("not a .npy file ({what})"),
            Some("write it with numpy.save, or simt run --save"),
        )
    };
    let mut head = [0u8; 10];
    file.read_exact(&mut head[..8])
        .map_err(|_| not_npy("shorter than the .npy magic"))?;
    if &head[..6] != b"\x93NUMPY" {
        return Err(not_npy("it does not start with \\x93NUMPY"));
    }
    let (header_len, prefix) = match head[6] {
        1 => {
            file.read_exact(&mut head[8..10])
                .map_err(|_| not_npy("the header is cut off"))?;
            (u64::from(u16::from_le_bytes([head[8], head[9]])), 10)
        }
        2 | 3 => {
            let mut n = [0u8; 4];
            file.read_exact(&mut n)
                .map_err(|_| not_npy("the header is cut off"))?;
            (u64::from(u32::from_le_bytes(n)), 12)
        }
        v => return Err(not_npy(&format!("format version {v}"))),
    };
    if prefix + header_len > file_len {
        return Err(not_npy("the header is cut off"));
    }
    let mut header = vec![0u8; header_len as usize];
    file.read_exact(&mut header)
        .map_err(|e| fail(e.to_string(), None))?;
    let header = String::from_utf8_lossy(&header);
    let descr = dict_value(&header, "descr").ok_or_else(|| not_npy("its header has no 'descr'"))?;
    // A structured array (`np.dtype([('a', '<f4'), ('r', '<i4', (3,))])`) is its records' bytes,
    // each record one row: what an array of structs, or a `__constant__` struct, is made of.
    let record = if descr.starts_with('[') {
        let fields = &descr[..list_end(descr).unwrap_or(0) + 1];
        Some(record_size(fields).ok_or_else(|| {
            fail(
                format!("its structured dtype {fields} is not supported"),
                Some("simt reads a structured dtype as its records' bytes: give it little-endian numbers, bytes and padding (`V`) only, no nested records"),
            )
        })?)
    } else {
        None
    };
    let (dtype, big_endian) = match record {
        Some(_) => (Scalar::U8, false),
        None => {
            let descr = quoted(descr).ok_or_else(|| not_npy("its header has no 'descr'"))?;
            dtype_of(descr).ok_or_else(|| {
                fail(
                    format!("its dtype '{descr}' is not supported"),
                    Some(SUPPORTED),
                )
            })?
        }
    };
    match dict_value(&header, "fortran_order").map(|v| v.trim_start()) {
        Some(v) if v.starts_with("False") => {}
        Some(v) if v.starts_with("True") => {
            return Err(fail(
                "it is stored in Fortran (column-major) order".into(),
                Some("save numpy.ascontiguousarray(a) instead"),
            ))
        }
        _ => return Err(not_npy("its header has no 'fortran_order'")),
    }
    let mut shape = dict_value(&header, "shape")
        .and_then(tuple)
        .ok_or_else(|| not_npy("its header has no readable 'shape'"))?;
    shape.extend(record);
    let len = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| {
            fail(
                "its shape has more elements than memory can hold".into(),
                None,
            )
        })?;
    let data_len = file_len - prefix - header_len;
    let wanted = (len as u128) * u128::from(dtype.size());
    if u128::from(data_len) != wanted {
        let shown = show_shape(&shape);
        let reason = if u128::from(data_len) < wanted {
            format!("it is truncated: its header promises {shown} {} ({wanted} bytes of data) but only {data_len} bytes follow", dtype.numpy_name())
        } else {
            format!(
                "its header says {shown} {} ({wanted} bytes of data) but {data_len} bytes follow",
                dtype.numpy_name()
            )
        };
        return Err(fail(
            reason,
            Some("the file is damaged or was not written by numpy.save"),
        ));
    }
    Ok(NpyFile {
        path: path.to_path_buf(),
        file,
        span,
        dtype,
        big_endian,
        shape,
        len,
    })
}

impl NpyFile {
    /// Bytes of the data on disk.
    pub(crate) fn data_bytes(&self) -> u64 {
        self.len as u64 * u64::from(self.dtype.size())
    }

    /// Reads the data, in the file's own element type.
    pub(crate) fn read(mut self) -> Result<HostValue, HostError> {
        let mut raw = vec![0u8; self.data_bytes() as usize];
        self.file
            .read_exact(&mut raw)
            .map_err(|e| file_error(&self.path, self.span, e.to_string(), None))?;
        Ok(HostValue::Array {
            data: Arc::new(decode(self.dtype, self.big_endian, &raw)),
            shape: self.shape,
            float: self.dtype.is_float(),
            dtype: Some(self.dtype),
        })
    }
}

/// The raw elements of a file in their own type.
fn decode(dtype: Scalar, big_endian: bool, raw: &[u8]) -> BufData {
    macro_rules! num {
        ($variant:ident, $t:ty) => {
            BufData::$variant(
                raw.chunks_exact(std::mem::size_of::<$t>())
                    .map(|b| {
                        let a = b.try_into().expect("npy: chunk of the element size");
                        if big_endian {
                            <$t>::from_be_bytes(a)
                        } else {
                            <$t>::from_le_bytes(a)
                        }
                    })
                    .collect(),
            )
        };
    }
    match dtype {
        Scalar::Bool => BufData::Bool(raw.iter().map(|&b| b != 0).collect()),
        Scalar::I8 => num!(I8, i8),
        Scalar::U8 => num!(U8, u8),
        Scalar::I16 => num!(I16, i16),
        Scalar::U16 => num!(U16, u16),
        Scalar::I32 => num!(I32, i32),
        Scalar::U32 => num!(U32, u32),
        Scalar::I64 => num!(I64, i64),
        Scalar::U64 => num!(U64, u64),
        Scalar::F32 => num!(F32, f32),
        Scalar::F64 => num!(F64, f64),
        Scalar::F16 => num!(F16, half::f16),
        Scalar::BF16 => unreachable!("npy: numpy has no bfloat16 dtype to read"),
    }
}

/// `data`'s bytes (little-endian, as a GPU holds them) read as elements of `to`: the array a
/// `void*` parameter cast to `to*` sees; `None` when they are not a whole number of them, or
/// `to` is bfloat16 (which a file cannot give).
pub(crate) fn reinterpret(data: &BufData, to: Scalar) -> Option<BufData> {
    macro_rules! raw {
        ($v:expr, $f:expr) => {
            $v.iter().flat_map($f).collect::<Vec<u8>>()
        };
    }
    let raw = match data {
        BufData::Bool(v) => raw!(v, |&b| [u8::from(b)]),
        BufData::I8(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::U8(v) => v.clone(),
        BufData::I16(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::U16(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::I32(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::U32(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::I64(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::U64(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::F32(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::F64(v) => raw!(v, |x| x.to_le_bytes()),
        BufData::F16(v) => raw!(v, |x| x.to_bits().to_le_bytes()),
        BufData::BF16(v) => raw!(v, |x| x.to_bits().to_le_bytes()),
    };
    let whole = raw.len() % to.size() as usize == 0;
    (whole && to != Scalar::BF16).then(|| decode(to, false, &raw))
}

/// `'<f4'` → (`float`, little-endian).
fn dtype_of(descr: &str) -> Option<(Scalar, bool)> {
    let (order, code) = descr.split_at_checked(1)?;
    let big = match order {
        "<" | "|" | "=" => false,
        ">" => true,
        _ => return None,
    };
    let ty = match code {
        "b1" => Scalar::Bool,
        "i1" => Scalar::I8,
        "u1" => Scalar::U8,
        "i2" => Scalar::I16,
        "u2" => Scalar::U16,
        "i4" => Scalar::I32,
        "u4" => Scalar::U32,
        "i8" => Scalar::I64,
        "u8" => Scalar::U64,
        "f2" => Scalar::F16,
        "f4" => Scalar::F32,
        "f8" => Scalar::F64,
        _ => return None,
    };
    Some((ty, big))
}

/// Where the list `[...]` that `text` starts with ends: its `]`, past quoted names and nested
/// brackets.
fn list_end(text: &str) -> Option<usize> {
    let mut depth = 0;
    let mut quote = None;
    for (k, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The bytes of one record of a structured dtype's field list (`[('a', '<f4'), ('r', '<i4',
/// (3,))]`: 16); None for what the record's bytes would not hold as written (a big-endian
/// number, a nested record, an object).
fn record_size(fields: &str) -> Option<usize> {
    let mut rest = fields.strip_prefix('[')?.trim_start();
    let mut size = 0usize;
    while !rest.starts_with(']') {
        rest = rest.strip_prefix('(')?;
        let name = quoted(rest.trim_start())?;
        rest = rest.trim_start()[name.len() + 2..]
            .trim_start()
            .strip_prefix(',')?;
        let code = quoted(rest.trim_start())?;
        rest = rest.trim_start()[code.len() + 2..].trim_start();
        let count = match rest.strip_prefix(',') {
            Some(shape) => {
                let dims = tuple(shape.trim_start())?;
                rest = &shape[shape.find(')')? + 1..];
                dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?
            }
            None => 1,
        };
        rest = rest.trim_start().strip_prefix(')')?.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
        let bytes = match code.split_at_checked(1)? {
            (_, c) if c.starts_with(['V', 'S']) => c[1..].parse().ok()?,
            _ => match dtype_of(code)? {
                (t, false) => t.size() as usize,
                (t, true) if t.size() == 1 => 1,
                _ => return None,
            },
        };
        size = size.checked_add(bytes.checked_mul(count)?)?;
    }
    Some(size)
}

/// The text after `'key':` in the header dict.
fn dict_value<'h>(header: &'h str, key: &str) -> Option<&'h str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = &header[at + key.len() + 2..];
    Some(rest.trim_start().strip_prefix(':')?.trim_start())
}

/// `'<f4', …` → `<f4`.
fn quoted(v: &str) -> Option<&str> {
    let q = v.chars().next().filter(|&c| c == '\'' || c == '"')?;
    let rest = &v[1..];
    Some(&rest[..rest.find(q)?])
}

/// `(3, 4), …` → `[3, 4]`; `()` → `[]`.
fn tuple(v: &str) -> Option<Vec<usize>> {
    let inner = &v.strip_prefix('(')?[..v.find(')')? - 1];
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse().ok())
        .collect()
}

/// `(3, 4)` or `(5,)` as numpy writes shapes.
pub(crate) fn show_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Writes a buffer as `.npy` with its own dtype: to a temporary file beside `path`, then renamed
/// over it, so an interrupted or failed write never leaves a partial `path`.
pub fn save(path: &Path, data: &BufData, shape: &[usize]) -> Result<(), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
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
        // ndarray-npy writes no `half`: the bits are written as `uint16` and the header's dtype,
        // `'<u2'`, is then renamed `'<f2'` in place (the same length, so nothing moves).
        BufData::F16(v) => write!(v.iter().map(|x| x.to_bits()).collect::<Vec<u16>>())
            .and_then(|()| relabel(&tmp, b"'<u2'", b"'<f2'")),
        // numpy has no bfloat16: the values are written as `float32`, which holds each exactly.
        BufData::BF16(v) => write!(v.iter().map(|x| x.to_f32()).collect::<Vec<f32>>()),
    }
    .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| e.to_string()));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Replaces the dtype `from` by `to` (of the same length) in the header of the `.npy` at `path`.
fn relabel(path: &Path, from: &[u8], to: &[u8]) -> Result<(), String> {
    let mut bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    // The header ends at the first newline; the data after it is not searched.
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let at = bytes[..end]
        .windows(from.len())
        .position(|w| w == from)
        .ok_or("npy: the written header has no dtype to relabel")?;
    bytes[at..at + to.len()].copy_from_slice(to);
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields() {
        let h = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
        assert_eq!(dict_value(h, "descr").and_then(quoted), Some("<f4"));
        assert_eq!(dict_value(h, "shape").and_then(tuple), Some(vec![3, 4]));
        let h = "{'descr': '|b1', 'fortran_order': False, 'shape': (7,), }";
        assert_eq!(dict_value(h, "shape").and_then(tuple), Some(vec![7]));
        let h = "{'descr': '>i8', 'fortran_order': False, 'shape': (), }";
        assert_eq!(dict_value(h, "shape").and_then(tuple), Some(vec![]));
        assert_eq!(dtype_of(">i8"), Some((Scalar::I64, true)));
        assert_eq!(dtype_of("<c8"), None);
        assert_eq!(dtype_of("|O"), None);
        // Records: 4 + 4 + 3 * 4 bytes; with numpy's `align=True` padding (`|V4`) and a byte
        // string; a big-endian number or a nested record is refused.
        assert_eq!(
            record_size("[('a', '<f4'), ('b', '<f4'), ('r', '<i4', (3,))]"),
            Some(20)
        );
        assert_eq!(
            record_size("[('c', '|u1'), ('', '|V7'), ('d', '<f8'), ('s', '|S3', (2, 2))]"),
            Some(28)
        );
        assert_eq!(record_size("[('a', '>f4')]"), None);
        // A name may hold `],`; the list ends at its own `]`.
        let descr = "[('a],', '<f4'), ('s', [('x', '<f4')])], 'fortran_order': False";
        assert_eq!(list_end(descr), Some(38));
        assert_eq!(record_size("[('s', [('x', '<f4')])]"), None);
        assert_eq!(show_shape(&[5]), "(5,)");
        assert_eq!(show_shape(&[2, 3]), "(2, 3)");
        // Big-endian 1.0f32 is 3f 80 00 00.
        assert_eq!(
            decode(Scalar::F32, true, &[0x3f, 0x80, 0, 0]),
            BufData::F32(vec![1.0])
        );
        assert_eq!(
            decode(Scalar::I16, false, &[0xff, 0xff, 2, 0]),
            BufData::I16(vec![-1, 2])
        );
        // 2^53 + 1 survives a load of int64 (it has no double).
        let big = (1i64 << 53) + 1;
        assert_eq!(
            decode(Scalar::I64, false, &big.to_le_bytes()),
            BufData::I64(vec![big])
        );
    }
}
