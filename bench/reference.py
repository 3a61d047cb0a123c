#!/usr/bin/env python3
"""Times the reference model (shared/reference/simt_lab.py) on the benchmark launches.

Run from the repository root with numpy installed: python3 bench/reference.py [NAME...]
Prints one JSON object per line: {"name", "seconds", "active_lane_slots"}. Used by bench/run.sh.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "reference"))
import twins  # noqa: E402  (puts simt_lab on sys.path)
from simt_lab import cdiv, launch  # noqa: E402


def vecadd():
    n = 1 << 22
    a, b, c = np.arange(n, dtype=np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
    return launch(twins.vecadd, (cdiv(n, 256),), (256,), (a, b, c, n))


def saxpy():
    n = 1 << 22
    x, y = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    return launch(twins.saxpy, (cdiv(n, 256),), (256,), (n, np.float32(2.0), x, y))


def reduce():
    n = 1 << 20
    inp = np.random.default_rng(0).integers(0, 100, n).astype(np.int32)
    out = np.zeros(n // 256, np.int32)
    return launch(twins.reduce_sequential, (n // 256,), (256,), (inp, out))


def transpose():
    w = h = 2048
    idata, odata = np.arange(w * h, dtype=np.float32), np.zeros(w * h, np.float32)
    return launch(twins.transpose_tiled, (w // 32, h // 32), (32, 8), (idata, odata, w, h))


def sgemm(size=512):
    m = n = k = size
    rng = np.random.default_rng(0)
    a = rng.integers(0, 10, m * k).astype(np.float32)
    b = rng.integers(0, 10, k * n).astype(np.float32)
    c = np.zeros(m * n, np.float32)
    return launch(twins.matmul_tiled16, (n // 16, m // 16), (16, 16), (a, b, c, m, n, k))


CASES = {
    "vecadd": vecadd,
    "saxpy": saxpy,
    "reduce": reduce,
    "transpose": transpose,
    "sgemm": sgemm,
    "sgemm256": lambda: sgemm(256),
}

for name in sys.argv[1:] or CASES:
    start = time.perf_counter()
    stats = CASES[name]()
    seconds = time.perf_counter() - start
    print(json.dumps({"name": name, "seconds": seconds, "active_lane_slots": stats.active_lane_slots}), flush=True)
