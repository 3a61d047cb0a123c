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
matter for the results, not for the counters (no kernel here has data-dependent
control flow or addresses), so rand/randint inputs need not match simt's generator.
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
