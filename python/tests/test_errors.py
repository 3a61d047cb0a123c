"""Mistakes become exceptions: SimtError with the diagnostic's code, position and drawing;
Python-side mistakes are TypeError or ValueError; Ctrl-C stops a launch."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import simt

SAXPY = """__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def saxpy_args(n=1000, y=None):
    return {"a": 2.0, "x": np.ones(n, np.float32), "y": np.ones(n, np.float32) if y is None else y, "n": n}


def test_a_check_error_carries_code_line_and_column():
    src = "__global__ void k(float* a) {\n    a[0] = b;\n}\n"
    with pytest.raises(simt.SimtError) as e:
        simt.run(src, grid=1, block=1, args={"a": np.zeros(1, np.float32)})
    err = e.value
    assert (err.code, err.line, err.column, err.file) == ("simt::check::unknown_name", 2, 12, "<string>")
    assert err.message == "unknown name `b`"
    assert err.exit == 2
    assert err.help == "did you mean `a`?"
    # Its text is miette's drawing: the code, the message, the source line and the label.
    text = str(err)
    assert text.startswith("simt::check::unknown_name")
    assert "× unknown name `b`" in text
    assert "2 │     a[0] = b;" in text
    assert "not declared here" in text
    # simt.check raises the same.
    with pytest.raises(simt.SimtError, match="unknown name"):
        simt.check(src)


def test_a_failure_lists_every_diagnostic():
    src = "__global__ void k(float* a) {\n    a[0] = b;\n}\n__global__ void j(int* c) { c[0] = d; }\n"
    with pytest.raises(simt.SimtError) as e:
        simt.check(src)
    assert [(d["code"], d["line"]) for d in e.value.errors] == [
        ("simt::check::unknown_name", 2),
        ("simt::check::unknown_name", 4),
    ]
    assert str(e.value).count("× unknown name") == 2


def test_a_syntax_error_is_a_parse_diagnostic():
    with pytest.raises(simt.SimtError) as e:
        simt.check("__global__ void k(float* a) {\n    a[0] = ;\n}\n")
    assert (e.value.code, e.value.line, e.value.column) == ("simt::parse::syntax", 2, 12)
    assert e.value.label == "found `;`"


def test_a_run_time_trap_is_exit_1_with_the_thread():
    with pytest.raises(simt.SimtError) as e:
        simt.run(SAXPY, grid=4, block=256, args=saxpy_args(y=np.ones(10, np.float32)))
    err = e.value
    assert err.code == "simt::run::out_of_bounds"
    assert err.exit == 1
    assert (err.line, err.column) == (3, 34)
    assert "thread (10, 0, 0)" in err.label


def test_launch_mistakes():
    # A missing argument lists the kernel's parameters.
    with pytest.raises(simt.SimtError) as e:
        simt.run(SAXPY, grid=4, block=256, args={"a": 1.0})
    assert e.value.code == "simt::host::missing_argument"
    assert "x, y, n" in e.value.message
    # A name that matches nothing is refused with a suggestion, before anything runs.
    with pytest.raises(simt.SimtError) as e:
        simt.run(SAXPY, grid=4, block=256, args=dict(saxpy_args(), yy=1))
    assert e.value.code == "simt::host::unknown_argument"
    # A bad launch expression points into its own text.
    with pytest.raises(simt.SimtError) as e:
        simt.run(SAXPY, grid=4, block=256, args=dict(saxpy_args(), x="rand(("))
    assert e.value.file == 'args["x"]'
    assert e.value.code == "simt::parse::syntax"
    # Unknown kernel, unknown GPU, missing file.
    with pytest.raises(simt.SimtError, match="no kernel named `sxpy`"):
        simt.run(SAXPY, grid=4, block=256, args=saxpy_args(), kernel="sxpy")
    with pytest.raises(simt.SimtError, match="unknown GPU `h1000`") as e:
        simt.run(SAXPY, grid=4, block=256, args=saxpy_args(), gpu="h1000")
    assert e.value.code == "simt::usage" and e.value.line is None
    with pytest.raises(simt.SimtError, match="cannot read `no/such.sk`"):
        simt.run("no/such.sk")


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        (dict(grid=0), ValueError, "grid sizes must be between 1"),
        (dict(block=(1, 2, 3, 4)), ValueError, "block must have one to three sizes"),
        (dict(grid="four"), TypeError, "grid must be an int or a tuple"),
        (dict(sample=1.5), ValueError, "sample must be a fraction"),
        (dict(threads=0), ValueError, "threads must be at least 1"),
        (dict(timeout=-1.0), ValueError, "timeout must be a positive number"),
    ],
)
def test_python_mistakes_are_python_errors(kwargs, error, match):
    base = dict(grid=4, block=256, args=saxpy_args())
    with pytest.raises(error, match=match):
        simt.run(SAXPY, **dict(base, **kwargs))
    with pytest.raises(TypeError, match="source text"):
        simt.run(42)


# 2^17 blocks of 2^14 iterations each: about 2^37 warp steps, hours of simulation, stopped here
# by a signal, a timeout or (after 2^32 steps) the step limit; no block comes near the per-block
# limit.
SPIN = """__global__ void spin(int* out, int n) {
    int s = 0;
    for (int k = 0; k < n; k++) { s += k; }
    out[threadIdx.x] = s;
}
"""
SPIN_ARGS = dict(grid=1 << 17, block=32, args={"out": np.zeros(32, np.int32), "n": 1 << 14})


@pytest.fixture
def ctrl_c():
    """Python's own SIGINT handler, as a terminal or a notebook kernel has it (a shell that
    starts this suite in the background leaves SIGINT ignored, and Python keeps it so)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_stops_a_long_launch(ctrl_c):
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        simt.run(SPIN, **SPIN_ARGS)
    # The launch stopped within a moment of the signal.
    assert time.monotonic() - start < 5


def test_a_timeout_stops_a_long_launch():
    start = time.monotonic()
    with pytest.raises(simt.SimtError) as e:
        simt.run(SPIN, **SPIN_ARGS, timeout=0.2)
    assert e.value.code == "simt::run::timeout"
    assert time.monotonic() - start < 5


def test_step_limits_can_be_set():
    with pytest.raises(simt.SimtError) as e:
        simt.run(SPIN, **SPIN_ARGS, max_steps=10_000)
    assert e.value.code == "simt::run::step_limit"
    with pytest.raises(simt.SimtError) as e:
        simt.run(SPIN, **SPIN_ARGS, max_block_steps=1_000)
    assert e.value.code == "simt::run::block_step_limit"


def test_the_gil_is_released_during_a_launch():
    counted = []
    done = threading.Event()

    def count():
        n = 0
        while not done.is_set():
            n += 1
        counted.append(n)

    t = threading.Thread(target=count)
    t.start()
    with pytest.raises(simt.SimtError):
        simt.run(SPIN, **SPIN_ARGS, timeout=0.5)
    done.set()
    t.join()
    # Had the launch held the GIL for its half second, the thread would have counted only in
    # the interpreter's switch intervals.
    assert counted[0] > 100_000


def test_dynamic_shared_memory_above_48_kb_needs_max_dyn_smem():
    # 64 KB of dynamic shared memory is refused without the opt-in, and runs with it.
    src = """
__global__ void k(float* a) {
    extern __shared__ float s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    a[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
"""
    a = np.zeros(256, np.float32)
    with pytest.raises(simt.SimtError) as e:
        simt.run(src, grid=1, block=256, args={"a": a}, dyn_smem=65536)
    assert e.value.code == "simt::host::dynamic_shared_memory"
    r = simt.run(src, grid=1, block=256, args={"a": a}, dyn_smem=65536, max_dyn_smem=65536)
    assert r["a"][0] == 255
