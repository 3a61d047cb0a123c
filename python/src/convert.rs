//! Values across the boundary: numpy arrays and Python numbers into launch values, arrays and
//! JSON back into numpy and Python objects.

use std::sync::Arc;

use ndarray::{ArrayD, IxDyn};
use numpy::{
    dtype, Element, PyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use serde_json::Value;

use simt::exec::BufData;
use simt::host::{ArgValue, HostValue};

/// The numpy dtypes a kernel buffer can have, by their numpy names.
pub const DTYPES: &str =
    "bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64";

/// Copies a numpy array of element type `T` into a flat vector in C order (one copy, however
/// the array is laid out).
fn flat<T: Element + Copy>(a: &Bound<'_, PyUntypedArray>) -> PyResult<Vec<T>> {
    let typed = a.cast::<PyArrayDyn<T>>()?;
    let view = typed.try_readonly()?;
    let v = view.as_array();
    Ok(match v.as_slice() {
        Some(s) => s.to_vec(),
        None => v.iter().copied().collect(),
    })
}

/// A numpy array's elements as a buffer of the matching element type, or `None` for a dtype no
/// kernel buffer has.
fn buffer(a: &Bound<'_, PyUntypedArray>) -> PyResult<Option<BufData>> {
    let py = a.py();
    let d = a.dtype();
    macro_rules! try_types {
        ($($t:ty => $v:ident),*) => {
            $(if d.is_equiv_to(&dtype::<$t>(py)) {
                return Ok(Some(BufData::$v(flat::<$t>(a)?)));
            })*
        };
    }
    try_types!(bool => Bool, i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32,
        u32 => U32, i64 => I64, u64 => U64, half::f16 => F16, f32 => F32, f64 => F64);
    Ok(None)
}

/// One entry of `args=`: a numpy array (copied once, its dtype kept: it must be the parameter's
/// element type), a list or tuple of numbers (converted to the parameter's type, as
/// `--arg a=[1,2,3]`), a number, `None` (`NULL`) or a launch-section expression such as
/// `"rand(4096)"`. Returns the value and the text a diagnostic about it shows.
pub fn arg_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<(ArgValue, String)> {
    if v.is_none() {
        return Ok((ArgValue::Value(HostValue::Null), "None".into()));
    }
    if let Ok(text) = v.cast::<PyString>() {
        let text = text.to_str()?.to_string();
        let expr = simt::syntax::parse_value(&text).map_err(|e| {
            crate::error::single(
                v.py(),
                &format!("args[{name:?}]"),
                &text,
                simt::pipeline::SimtDiagnostic::from(e),
            )
        })?;
        return Ok((ArgValue::Expr(expr), text));
    }
    if let Ok(a) = v.cast::<PyUntypedArray>() {
        let shape: Vec<usize> = a.shape().to_vec();
        let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
        let described = match dims.len() {
            1 => format!("numpy.ndarray({}, shape=({},))", a.dtype(), dims[0]),
            _ => format!("numpy.ndarray({}, shape=({}))", a.dtype(), dims.join(", ")),
        };
        let Some(data) = buffer(a)? else {
            return Err(PyTypeError::new_err(format!(
                "args[{name:?}]: a numpy array of {} cannot be a kernel buffer; the dtypes are {DTYPES}",
                a.dtype()
            )));
        };
        let elem = data.elem();
        let value = HostValue::Array {
            data: Arc::new(data),
            // A 0-d array is one element.
            shape: if shape.is_empty() { vec![1] } else { shape },
            float: elem.is_float(),
            dtype: Some(elem),
        };
        return Ok((ArgValue::Value(value), described));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut data = Vec::new();
        let mut float = false;
        for item in v.try_iter()? {
            let item = item?;
            let (x, f) = number(&item).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "args[{name:?}]: a list must hold numbers, not {}",
                    type_name(&item)
                ))
            })??;
            data.push(x);
            float |= f;
        }
        let described = format!("a list of {} numbers", data.len());
        return Ok((ArgValue::Value(HostValue::array(data, float)), described));
    }
    match number(v) {
        Some(n) => {
            let (x, float) = n?;
            Ok((
                ArgValue::Value(HostValue::Num { v: x, float }),
                format!("{x}"),
            ))
        }
        None => Err(PyTypeError::new_err(format!(
            "args[{name:?}]: {} is not a kernel argument; give a numpy array, a number, a list of numbers, None or a launch expression such as \"rand(1024)\"",
            type_name(v)
        ))),
    }
}

/// A Python or numpy number as a float and whether it is floating-point; `None` for anything
/// else.
fn number(v: &Bound<'_, PyAny>) -> Option<PyResult<(f64, bool)>> {
    if v.is_instance_of::<PyBool>() {
        return Some(v.extract::<bool>().map(|b| (f64::from(u8::from(b)), false)));
    }
    if v.is_instance_of::<PyInt>() {
        return Some(int(v));
    }
    if v.is_instance_of::<PyFloat>() {
        return Some(v.extract::<f64>().map(|x| (x, true)));
    }
    // numpy scalars (`np.int32(3)`, `np.float32(0.5)`) and 0-d arrays: their dtype decides.
    let kind: Option<String> = v
        .getattr("dtype")
        .and_then(|d| d.getattr("kind"))
        .and_then(|k| k.extract())
        .ok();
    match kind.as_deref() {
        Some("b") => Some(v.extract::<bool>().map(|b| (f64::from(u8::from(b)), false))),
        Some("i" | "u") => Some(int(v)),
        Some("f") => Some(v.extract::<f64>().map(|x| (x, true))),
        _ => None,
    }
}

/// An integer, exactly when it fits in 64 bits.
fn int(v: &Bound<'_, PyAny>) -> PyResult<(f64, bool)> {
    match (v.extract::<i64>(), v.extract::<u64>()) {
        (Ok(i), _) => Ok((i as f64, false)),
        (_, Ok(u)) => Ok((u as f64, false)),
        _ => Err(PyValueError::new_err(format!(
            "{} does not fit in 64 bits",
            v.str()?
        ))),
    }
}

fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map_or_else(|_| "this value".into(), |n| format!("a {n}"))
}

/// An array of the launch as a numpy array of its element type and shape. The vector moves into
/// numpy uncopied when no other name shares it.
pub fn to_numpy<'py>(
    py: Python<'py>,
    data: Arc<BufData>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let data = Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone());
    // A pointer bound at an offset sees fewer elements than the shape of its whole array.
    let shape: Vec<usize> = if shape.iter().product::<usize>() == data.len() {
        shape.to_vec()
    } else {
        vec![data.len()]
    };
    fn make<'py, T: Element>(
        py: Python<'py>,
        v: Vec<T>,
        shape: Vec<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = ArrayD::from_shape_vec(IxDyn(&shape), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyArray::from_owned_array(py, a).into_any())
    }
    match data {
        BufData::Bool(v) => make(py, v, shape),
        BufData::I8(v) => make(py, v, shape),
        BufData::U8(v) => make(py, v, shape),
        BufData::I16(v) => make(py, v, shape),
        BufData::U16(v) => make(py, v, shape),
        BufData::I32(v) => make(py, v, shape),
        BufData::U32(v) => make(py, v, shape),
        BufData::I64(v) => make(py, v, shape),
        BufData::U64(v) => make(py, v, shape),
        BufData::F32(v) => make(py, v, shape),
        BufData::F64(v) => make(py, v, shape),
        BufData::F16(v) => make(py, v, shape),
        // numpy has no bfloat16: float32 holds each value exactly.
        BufData::BF16(v) => make(py, v.iter().map(|x| x.to_f32()).collect(), shape),
    }
}

/// A JSON value as Python objects: objects become dicts, arrays lists, integers ints.
pub fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (_, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            Ok(list.into_any())
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_python(py, item)?)?;
            }
            Ok(dict.into_any())
        }
    }
}

/// `grid=` or `block=`: an int or a tuple of one to three positive ints.
pub fn dim(what: &str, v: &Bound<'_, PyAny>) -> PyResult<[u32; 3]> {
    let parts: Vec<i64> = match v.extract::<i64>() {
        Ok(x) => vec![x],
        Err(_) => v.extract::<Vec<i64>>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be an int or a tuple of one to three ints"
            ))
        })?,
    };
    if parts.is_empty() || parts.len() > 3 {
        return Err(PyValueError::new_err(format!(
            "{what} must have one to three sizes, not {}",
            parts.len()
        )));
    }
    let mut d = [1u32; 3];
    for (slot, &p) in d.iter_mut().zip(&parts) {
        *slot = u32::try_from(p)
            .ok()
            .filter(|&x| x >= 1 && x <= i32::MAX as u32)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{what} sizes must be between 1 and 2147483647, not {p}"
                ))
            })?;
    }
    Ok(d)
}
