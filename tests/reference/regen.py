#!/usr/bin/env python3
"""Regenerate tests/reference/expected.json: the counters the reference model
(shared/reference/simt_lab.py) gives for every shipped kernel in kernels/.

How to run (from the repository root, with numpy installed):

    python3 tests/reference/regen.py

It finds simt_lab.py in $SIMT_LAB_DIR, ./shared/reference or ../shared/reference.
The Rust test suite only reads expected.json; it does not need Python. Rerun this
script (and commit expected.json) whenever a kernel in kernels/ or its twin in
tests/reference/twins.py changes; the two must be edited together.

Each case uses the same launch as the kernel's `launch` section: the same grid,
block and scalar arguments, and buffers of the same sizes. Buffer *contents* only
matter for the results, not for the counters (the one kernel with data-dependent
addresses, histogram.sk, gets the same data as its launch section), so rand/randint
inputs need not match simt's generator.
The script also checks each twin's results against the kernel's `expect` lines.
"""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import twins  # noqa: E402
from simt_lab import cdiv, launch  # noqa: E402  (twins put it on sys.path)

OUT = Path(__file__).resolve().parent / "expected.json"
COUNTERS = ("gld_instr", "gst_instr", "gld_sectors", "gst_sectors", "g_bytes_requested",
            "smem_instr", "smem_wavefronts", "barriers", "branches", "divergent",
            "race_count", "blocks", "threads")

f32 = np.float32
rng = np.random.default_rng(0)


def dim3(d):
    d = (d,) if isinstance(d, int) else tuple(d)
    return list(d) + [1] * (3 - len(d))


def case_vecadd():
    n = 1000
    a, b, c = np.arange(n, dtype=f32), np.ones(n, f32), np.zeros(n, f32)
    block = 256
    grid = cdiv(n, block)
    args = {"n": n, "a": "arange(n)", "b": "ones(n)", "c": "zeros(n)"}

    def check():
        assert np.array_equal(c, a + b)
    return "vecadd.sk", twins.vecadd, grid, block, (a, b, c, n), args, check


def case_strided_copy():
    n, stride = 1024, 2
    inp, out = np.arange(n * stride, dtype=f32), np.zeros(n, f32)
    block = 256
    grid = cdiv(n, block)
    args = {"n": n, "stride": stride, "in": "arange(n * stride)", "out": "zeros(n)"}

    def check():
        assert np.array_equal(out, np.arange(n, dtype=f32) * stride)
    return "strided_copy.sk", twins.strided_copy, grid, block, (inp, out, n, stride), args, check


def case_offset_copy():
    n, offset = 1024, 1
    inp, out = np.arange(n + offset, dtype=f32), np.zeros(n, f32)
    block = 256
    grid = cdiv(n, block)
    args = {"n": n, "offset": offset, "in": "arange(n + offset)", "out": "zeros(n)"}

    def check():
        assert np.array_equal(out, np.arange(n, dtype=f32) + offset)
    return "offset_copy.sk", twins.offset_copy, grid, block, (inp, out, n, offset), args, check


def _case_transpose(name):
    def make():
        width = height = 256
        idata = np.arange(height * width, dtype=f32)
        odata = np.zeros(width * height, f32)
        block = (32, 8)
        grid = (cdiv(width, 32), cdiv(height, 32))
        args = {"width": width, "height": height, "idata": "arange(height * width)",
                "odata": "zeros(width * height)"}

        def check():
            assert np.array_equal(odata, idata.reshape(height, width).T.ravel())
        return (f"{name}.sk", getattr(twins, name), grid, block,
                (idata, odata, width, height), args, check)
    return make


def _case_reduce(name):
    def make():
        n = 4096
        inp = rng.integers(0, 100, n).astype(f32)
        block = 256
        grid = cdiv(n, block)
        out = np.zeros(cdiv(n, block), f32)
        args = {"n": n, "in": "randint(n, 0, 100)", "out": "zeros(cdiv(n, block))"}

        def check():
            assert out.sum(dtype=np.float64) == inp.sum(dtype=np.float64)
        return f"{name}.sk", getattr(twins, name), grid, block, (inp, out), args, check
    return make


def _case_divergence(name):
    def make():
        n = 1024
        a, b, c = np.arange(n, dtype=f32), np.ones(n, f32), np.zeros(n, f32)
        block = 256
        grid = cdiv(n, block)
        args = {"n": n, "a": "arange(n)", "b": "ones(n)", "c": "zeros(n)"}

        def check():
            assert c.sum(dtype=np.float64) == a.sum(dtype=np.float64)
            assert np.all(c <= a + b) and np.all(c >= a - b)
        return f"divergence.sk:{name}", getattr(twins, name), grid, block, (a, b, c), args, check
    return make


def case_race_missing_sync():
    n = 1024
    inp, out = np.arange(n, dtype=f32), np.zeros(n, f32)
    block = 256
    grid = cdiv(n, block)
    args = {"n": n, "in": "arange(n)", "out": "zeros(n)"}
    return ("race_missing_sync.sk", twins.race_missing_sync, grid, block, (inp, out), args,
            lambda: None)   # no expect: the values read are racy


def case_saxpy():
    n, a = 1000, 2.0
    x, y = np.arange(n, dtype=f32), np.ones(n, f32)
    block = 256
    grid = cdiv(n, block)
    args = {"n": n, "a": a, "x": "arange(n)", "y": "ones(n)"}

    def check():
        assert np.array_equal(y, 2 * np.arange(n, dtype=f32) + 1)
    return "saxpy.sk", twins.saxpy, grid, block, (n, a, x, y), args, check


def case_transpose_padded_32x32():
    width = height = 256
    idata = np.arange(height * width, dtype=f32)
    odata = np.zeros(width * height, f32)
    block = (32, 32)
    grid = (cdiv(width, 32), cdiv(height, 32))
    args = {"width": width, "height": height, "idata": "arange(height * width)",
            "odata": "zeros(width * height)"}

    def check():
        assert np.array_equal(odata, idata.reshape(height, width).T.ravel())
    return ("transpose_padded_32x32.sk", twins.transpose_padded_32x32, grid, block,
            (idata, odata, width, height), args, check)


def _case_reduce_two_per_thread(name, out_len):
    """Reductions that add two inputs per thread: n = 4096, block 256, grid 8."""
    def make():
        n = 4096
        inp = rng.integers(0, 100, n).astype(f32)
        block = 256
        grid = n // (2 * block)
        out = np.zeros(out_len(grid), f32)
        args = {"n": n, "in": "randint(n, 0, 100)", "out": f"zeros({out_len('grid')})"}

        def check():
            assert out.sum(dtype=np.float64) == inp.sum(dtype=np.float64)
        return f"{name}.sk", getattr(twins, name), grid, block, (inp, out), args, check
    return make


def _case_scan(name):
    def make():
        inp = rng.integers(0, 10, twins.SCAN_N).astype(f32)
        out = np.zeros(twins.SCAN_N, f32)
        args = {"in": "randint(512, 0, 10)", "out": "zeros(512)"}

        def check():
            assert np.array_equal(out, np.cumsum(inp) - inp)
        return f"{name}.sk", getattr(twins, name), 1, 256, (inp, out), args, check
    return make


def _case_matmul(name, block, grid):
    def make():
        m = n = k = 64
        a = rng.integers(0, 10, m * k).astype(f32)
        b = rng.integers(0, 10, k * n).astype(f32)
        c = np.zeros(m * n, f32)
        args = {"M": m, "N": n, "K": k, "A": "randint(M * K, 0, 10)",
                "B": "randint(K * N, 0, 10)", "C": "zeros(M * N)"}

        def check():
            want = a.reshape(m, k).astype(np.float64) @ b.reshape(k, n).astype(np.float64)
            assert np.array_equal(c, want.ravel().astype(f32))
        return f"{name}.sk", getattr(twins, name), grid, block, (a, b, c, m, n, k), args, check
    return make


def _case_stencil(name):
    def make():
        n = 1024
        inp, out = np.arange(n + 6, dtype=f32), np.zeros(n, f32)
        args = {"n": n, "in": "arange(n + 6)", "out": "zeros(n)"}

        def check():
            assert np.array_equal(out, (np.arange(n, dtype=f32) + 3) * 7)
        return f"stencil_1d.sk:{name}", getattr(twins, name), n // 256, 256, (inp, out), args, check
    return make


def _case_conv2d(name):
    def make():
        width = height = 64
        inp = np.arange((height + 2) * (width + 2), dtype=f32)
        w = np.array([1, 2, 1, 2, 4, 2, 1, 2, 1], f32)
        out = np.zeros(height * width, f32)
        args = {"width": width, "height": height, "in": "arange((height + 2) * (width + 2))",
                "w": "[1, 2, 1, 2, 4, 2, 1, 2, 1]", "out": "zeros(height * width)"}

        def check():
            y, x = np.divmod(np.arange(height * width), width)
            assert np.array_equal(out, (16 * ((y + 1) * (width + 2) + x + 1)).astype(f32))
        return (f"conv2d.sk:{name}", getattr(twins, name), (width // 32, height // 8), (32, 8),
                (inp, w, out, width), args, check)
    return make


def _case_histogram(name):
    def make():
        n = 16384
        data = (np.arange(n) % 256).astype(np.uint8)
        bins = np.zeros(256, np.uint32)
        args = {"n": n, "data": "arange(n) % 256", "bins": "zeros(256)"}

        def check():
            assert np.array_equal(bins, np.full(256, n // 256, np.uint32))
        return f"histogram.sk:{name}", getattr(twins, name), 8, 256, (data, bins, n), args, check
    return make


def case_softmax_rows():
    rows, cols = 64, 256
    inp = (rng.random(rows * cols) * 10).astype(f32)
    out = np.zeros(rows * cols, f32)
    block = 256
    grid = cdiv(rows, block // 32)
    args = {"rows": rows, "cols": cols, "in": "rand(rows, cols) * 10", "out": "zeros(rows, cols)"}

    def check():
        x = inp.reshape(rows, cols).astype(np.float64)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        assert np.allclose(out.reshape(rows, cols), e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    return ("softmax_rows.sk", twins.softmax_rows, grid, block, (inp, out, rows, cols), args,
            check)


CASES = [
    case_vecadd,
    case_strided_copy,
    case_offset_copy,
    _case_transpose("transpose_naive"),
    _case_transpose("transpose_tiled"),
    _case_transpose("transpose_padded"),
    _case_reduce("reduce_interleaved"),
    _case_reduce("reduce_interleaved_strided"),
    _case_reduce("reduce_sequential"),
    _case_divergence("branch_odd_even"),
    _case_divergence("branch_by_warp"),
    case_race_missing_sync,
    case_saxpy,
    case_transpose_padded_32x32,
    _case_reduce_two_per_thread("reduce_first_add", lambda grid: grid),
    _case_reduce_two_per_thread("reduce_unrolled_last_warp", lambda grid: grid),
    _case_reduce_two_per_thread("reduce_warp_shuffle", lambda grid: grid),
    _case_reduce_two_per_thread("reduce_atomic", lambda grid: 1),
    _case_scan("scan_blelloch"),
    _case_scan("scan_blelloch_padded"),
    _case_matmul("matmul_naive", (32, 8), (2, 8)),
    _case_matmul("matmul_coalesced", (32, 8), (2, 8)),
    _case_matmul("matmul_tiled16", (16, 16), (4, 4)),
    _case_matmul("matmul_tiled32", (32, 32), (2, 2)),
    _case_matmul("matmul_blocktile_1d", 256, (2, 2)),
    _case_matmul("matmul_blocktile_2d", 64, (2, 2)),
    _case_stencil("stencil_1d_global"),
    _case_stencil("stencil_1d_shared"),
    _case_conv2d("conv2d_global"),
    _case_conv2d("conv2d_shared"),
    _case_histogram("histogram_global"),
    _case_histogram("histogram_shared"),
    case_softmax_rows,
]


def main():
    result = {}
    for make in CASES:
        key, twin, grid, block, launch_args, args, check = make()
        stats = launch(twin, grid=grid, block=block, args=launch_args)
        check()
        result[key] = {
            "kernel": twin.__name__,
            "grid": dim3(grid),
            "block": dim3(block),
            "args": args,
            "counters": {name: getattr(stats, name) for name in COUNTERS},
        }
        c = result[key]["counters"]
        print(f"{key:40s} " + " ".join(f"{k}={c[k]}" for k in COUNTERS))
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
