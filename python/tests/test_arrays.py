"""numpy arrays in and out: every dtype a kernel buffer can have, shapes, layouts, scalars."""

import numpy as np
import pytest

import simt

# numpy dtype → the C type of a kernel parameter.
C_TYPES = {
    np.int8: "signed char",
    np.uint8: "unsigned char",
    np.int16: "short",
    np.uint16: "unsigned short",
    np.int32: "int",
    np.uint32: "unsigned int",
    np.int64: "long long",
    np.uint64: "unsigned long long",
    np.float16: "half",
    np.float32: "float",
    np.float64: "double",
}

INC = """
__global__ void inc(const {t}* a, {t}* b, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = ({t})(a[i] + ({t})1);
}}
"""


def extremes(dtype):
    """Values near both ends of the type, and a few ordinary ones."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.array([info.min, info.min + 1, 0, 1, 7, info.max - 1, info.max], dtype=dtype)
    return np.array([-1.5, 0.0, 0.25, 1e-3, 3.0e7, -2.0, 7.0], dtype=dtype)


@pytest.mark.parametrize("dtype", list(C_TYPES), ids=lambda d: np.dtype(d).name)
def test_every_dtype_round_trips_with_wrapping(dtype):
    a = extremes(dtype)
    b = np.zeros_like(a)
    r = simt.run(INC.format(t=C_TYPES[dtype]), grid=1, block=32, args={"a": a, "b": b, "n": len(a)})
    out = r["b"]
    assert out.dtype == np.dtype(dtype)
    assert out.shape == a.shape
    # C's arithmetic wraps at the type's width, as numpy's does.
    with np.errstate(over="ignore"):
        expected = (a + np.array(1, dtype=dtype)).astype(dtype)
    np.testing.assert_array_equal(out, expected)
    # The caller's arrays are copied in, not written.
    assert not b.any()


def test_bool_buffers():
    src = """
__global__ void flip(const bool* a, bool* b, int n) {
    int i = threadIdx.x;
    if (i < n) b[i] = !a[i];
}
"""
    a = np.array([True, False, False, True, True])
    r = simt.run(src, grid=1, block=32, args={"a": a, "b": np.zeros(5, bool), "n": 5})
    assert r["b"].dtype == np.bool_
    np.testing.assert_array_equal(r["b"], ~a)


def test_64_bit_integers_are_exact_beyond_double_precision():
    a = np.array([2**53 + 1, 2**63 - 2], dtype=np.int64)
    r = simt.run(INC.format(t="long long"), grid=1, block=32, args={"a": a, "b": np.zeros(2, np.int64), "n": 2})
    assert r["b"].tolist() == [2**53 + 2, 2**63 - 1]
    u = np.array([2**64 - 2, 2**53 + 1], dtype=np.uint64)
    r = simt.run(INC.format(t="unsigned long long"), grid=1, block=32, args={"a": u, "b": np.zeros(2, np.uint64), "n": 2})
    assert r["b"].tolist() == [2**64 - 1, 2**53 + 2]


def test_shapes_and_layouts():
    src = INC.format(t="float")
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    # A 2-D array keeps its shape; the kernel sees it flat, in C order.
    r = simt.run(src, grid=1, block=32, args={"a": a, "b": np.zeros((3, 4), np.float32), "n": 12})
    assert r["b"].shape == (3, 4)
    np.testing.assert_array_equal(r["b"], a + 1)
    # Non-contiguous and Fortran-ordered inputs are read in logical (C) order.
    strided = np.arange(24, dtype=np.float32)[::2]
    r = simt.run(src, grid=1, block=32, args={"a": strided, "b": np.zeros(12, np.float32), "n": 12})
    np.testing.assert_array_equal(r["b"], strided + 1)
    fortran = np.asfortranarray(a)
    r = simt.run(src, grid=1, block=32, args={"a": fortran, "b": np.zeros((3, 4), np.float32), "n": 12})
    np.testing.assert_array_equal(r["b"], a + 1)


def test_scalars_lists_none_and_launch_expressions():
    src = """
__global__ void axpb(float a, const float* x, float* y, int n, const float* bias) {
    int i = threadIdx.x;
    if (i < n) y[i] = a * x[i] + (bias ? bias[i] : 0.0f);
}
"""
    x = np.arange(4, dtype=np.float32)
    # numpy scalars, a list converted to the parameter's type, None as NULL.
    r = simt.run(src, grid=1, block=32, args={"a": np.float32(2), "x": [0, 1, 2, 3], "y": np.zeros(4, np.float32), "n": np.int64(4), "bias": None})
    np.testing.assert_array_equal(r["y"], 2 * x)
    assert r["x"].dtype == np.float32
    # A launch-section expression.
    r = simt.run(src, grid=1, block=32, args={"a": 1.0, "x": "arange(4)", "y": "zeros(4)", "n": 4, "bias": "ones(4)"})
    np.testing.assert_array_equal(r["y"], x + 1)
    assert "y" in r and "missing" not in r
    with pytest.raises(KeyError, match="the arrays are: bias, x, y"):
        r["missing"]


def test_the_launch_section_fills_in_what_args_leave_out(root):
    r = simt.run("kernels/vecadd.sk")
    assert r.ok
    assert set(r.arrays) >= {"a", "b", "c"}
    np.testing.assert_allclose(r["c"], r["a"] + r["b"])
    # An override of one array keeps the section's others.
    n = len(r["a"])
    a = np.full(n, 2.0, dtype=np.float32)
    r2 = simt.run("kernels/vecadd.sk", args={"a": a})
    np.testing.assert_allclose(r2["c"], a + r2["b"])


def test_a_wrong_dtype_is_a_diagnostic():
    with pytest.raises(simt.SimtError) as e:
        simt.run(INC.format(t="float"), grid=1, block=32, args={"a": np.zeros(4), "b": np.zeros(4, np.float32), "n": 4})
    assert e.value.code == "simt::host::dtype_mismatch"
    assert "float32" in e.value.help
    assert 'args["a"]' in str(e.value)


@pytest.mark.parametrize("bad", [np.zeros(4, np.complex64), np.zeros(4, "datetime64[s]"), np.array(["x"])])
def test_dtypes_no_kernel_has_are_type_errors(bad):
    with pytest.raises(TypeError, match="cannot be a kernel buffer"):
        simt.run(INC.format(t="float"), grid=1, block=32, args={"a": bad, "b": np.zeros(4, np.float32), "n": 4})


def test_other_python_values_are_type_errors():
    with pytest.raises(TypeError, match="is not a kernel argument"):
        simt.run(INC.format(t="float"), grid=1, block=32, args={"a": {"x": 1}, "b": np.zeros(4, np.float32), "n": 4})
    with pytest.raises(TypeError, match="a list must hold numbers"):
        simt.run(INC.format(t="float"), grid=1, block=32, args={"a": [1, "x"], "b": np.zeros(4, np.float32), "n": 4})
