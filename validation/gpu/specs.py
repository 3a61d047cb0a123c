"""The launches the GPU check runs: each shipped kernel at its launch section's size and at a size
that keeps an H200 busy, with the arguments built the way the launch section builds them.

Both sides read this table: `drive.py` on the GPU builds the buffers with numpy, and `simt_side.py`
runs simt with the same scalars (`--arg NAME=VALUE`); the launch section derives every array and
the grid from them, and `compare.py` checks that simt's grid and block are the ones launched here.
"""

import numpy as np


def cdiv(a, b):
    return (a + b - 1) // b


def f32(a):
    return np.ascontiguousarray(a, dtype=np.float32)


def zeros(n, dtype=np.float32):
    return np.zeros(n, dtype)


def ones(n):
    return np.ones(n, np.float32)


def randint(n, lo, hi, seed):
    return f32(np.random.default_rng(seed).integers(lo, hi, n))


def rand(n, seed):
    return f32(np.random.default_rng(seed).random(n))


def i32(v):
    return np.int32(v)


class Spec:
    """One kernel: its file and name, the scalars of each size, and how to build its arguments."""

    def __init__(self, file, kernel, sizes, args, grid, block, outputs):
        self.file = file
        self.kernel = kernel
        self.sizes = sizes  # size name -> {scalar: value}, passed to simt as --arg
        self.args = args  # scalars -> [numpy array or numpy scalar], in parameter order
        self.grid = grid  # scalars -> (x, y, z)
        self.block = block  # (x, y, z)
        self.outputs = outputs  # indices of the arguments the kernel writes

    def launch(self, size):
        s = self.sizes[size]
        return self.args(**s), self.grid(**s)


def dim(*xs):
    return tuple(xs) + (1,) * (3 - len(xs))


def _vecadd(n):
    return [f32(np.arange(n)), ones(n), zeros(n), i32(n)]


def _conv(width, height):
    return [f32(np.arange((height + 2) * (width + 2))), f32([1, 2, 1, 2, 4, 2, 1, 2, 1]),
            zeros(height * width), i32(width)]


def _diverge(n):
    return [f32(np.arange(n)), ones(n), zeros(n)]


def _matmul(M, N, K):
    return [randint(M * K, 0, 10, 1), randint(K * N, 0, 10, 2), zeros(M * N), i32(M), i32(N),
            i32(K)]


def _histogram(n):
    return [(np.arange(n) % 256).astype(np.uint8), zeros(256, np.uint32), i32(n)]


def _reduce(out_len):
    def build(n):
        return [randint(n, 0, 100, 3), zeros(out_len(n))]
    return build


def _transpose(width, height):
    return [f32(np.arange(height * width)), zeros(width * height), i32(width), i32(height)]


def _matmul_spec(name, block, grid):
    return Spec(f"{name}.sk", name,
                {"small": dict(M=64, N=64, K=64), "large": dict(M=1024, N=1024, K=1024)},
                _matmul, grid, block, [2])


def _transpose_spec(name, block):
    return Spec(f"{name}.sk", name,
                {"small": dict(width=256, height=256), "large": dict(width=4096, height=4096)},
                _transpose, lambda width, height: dim(cdiv(width, 32), cdiv(height, 32)),
                block, [1])


BIG = 1 << 24
SPECS = [
    Spec("vecadd.sk", "vecadd", {"small": dict(n=1000), "large": dict(n=BIG)}, _vecadd,
         lambda n: dim(cdiv(n, 256)), dim(256), [2]),
    Spec("saxpy.sk", "saxpy", {"small": dict(n=1000), "large": dict(n=BIG)},
         lambda n: [i32(n), np.float32(2.0), f32(np.arange(n)), ones(n)],
         lambda n: dim(cdiv(n, 256)), dim(256), [3]),
    Spec("offset_copy.sk", "offset_copy",
         {"small": dict(n=1024), "large": dict(n=BIG)},
         lambda n: [f32(np.arange(n + 1)), zeros(n), i32(n), i32(1)],
         lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("strided_copy.sk", "strided_copy",
         {"small": dict(n=1024), "large": dict(n=BIG // 2)},
         lambda n: [f32(np.arange(n * 2)), zeros(n), i32(n), i32(2)],
         lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("float4_copy.sk", "copy4", {"small": dict(n=4096), "large": dict(n=BIG)},
         lambda n: [rand(n, 4), zeros(n), i32(n // 4)],
         lambda n: dim(cdiv(n // 4, 256)), dim(256), [1]),
    Spec("divergence.sk", "branch_odd_even", {"small": dict(n=1024), "large": dict(n=BIG)},
         _diverge, lambda n: dim(cdiv(n, 256)), dim(256), [2]),
    Spec("divergence.sk", "branch_by_warp", {"small": dict(n=1024), "large": dict(n=BIG)},
         _diverge, lambda n: dim(cdiv(n, 256)), dim(256), [2]),
    Spec("conv2d.sk", "conv2d_global",
         {"small": dict(width=64, height=64), "large": dict(width=4096, height=4096)},
         _conv, lambda width, height: dim(width // 32, height // 8), dim(32, 8), [2]),
    Spec("conv2d.sk", "conv2d_shared",
         {"small": dict(width=64, height=64), "large": dict(width=4096, height=4096)},
         _conv, lambda width, height: dim(width // 32, height // 8), dim(32, 8), [2]),
    Spec("dot_double.sk", "dot", {"small": dict(n=8192), "large": dict(n=BIG // 4)},
         lambda n: [np.arange(n, dtype=np.float64), np.full(n, 0.5), np.zeros(1), i32(n)],
         lambda n: dim(cdiv(n, 256)), dim(256), [2]),
    Spec("histogram.sk", "histogram_global", {"small": dict(n=16384), "large": dict(n=BIG)},
         _histogram, lambda n: dim(8), dim(256), [1]),
    Spec("histogram.sk", "histogram_shared", {"small": dict(n=16384), "large": dict(n=BIG)},
         _histogram, lambda n: dim(8), dim(256), [1]),
    _matmul_spec("matmul_naive", dim(32, 8), lambda M, N, K: dim(cdiv(M, 32), cdiv(N, 8))),
    _matmul_spec("matmul_coalesced", dim(32, 8), lambda M, N, K: dim(cdiv(N, 32), cdiv(M, 8))),
    _matmul_spec("matmul_tiled16", dim(16, 16), lambda M, N, K: dim(N // 16, M // 16)),
    _matmul_spec("matmul_tiled32", dim(32, 32), lambda M, N, K: dim(N // 32, M // 32)),
    _matmul_spec("matmul_blocktile_1d", dim(256), lambda M, N, K: dim(N // 32, M // 32)),
    _matmul_spec("matmul_blocktile_2d", dim(64), lambda M, N, K: dim(N // 32, M // 32)),
    Spec("race_missing_sync.sk", "race_missing_sync", {"small": dict(n=1024)},
         lambda n: [f32(np.arange(n)), zeros(n)], lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("reduce_interleaved.sk", "reduce_interleaved",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: cdiv(n, 256)),
         lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("reduce_interleaved_strided.sk", "reduce_interleaved_strided",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: cdiv(n, 256)),
         lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("reduce_sequential.sk", "reduce_sequential",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: cdiv(n, 256)),
         lambda n: dim(cdiv(n, 256)), dim(256), [1]),
    Spec("reduce_first_add.sk", "reduce_first_add",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: n // 512),
         lambda n: dim(n // 512), dim(256), [1]),
    Spec("reduce_unrolled_last_warp.sk", "reduce_unrolled_last_warp",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: n // 512),
         lambda n: dim(n // 512), dim(256), [1]),
    Spec("reduce_warp_shuffle.sk", "reduce_warp_shuffle",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: n // 512),
         lambda n: dim(n // 512), dim(256), [1]),
    Spec("reduce_atomic.sk", "reduce_atomic",
         {"small": dict(n=4096), "large": dict(n=BIG)}, _reduce(lambda n: 1),
         lambda n: dim(n // 512), dim(256), [1]),
    Spec("scan_blelloch.sk", "scan_blelloch", {"small": dict()},
         lambda: [randint(512, 0, 10, 5), zeros(512)], lambda: dim(1), dim(256), [1]),
    Spec("scan_blelloch_padded.sk", "scan_blelloch_padded", {"small": dict()},
         lambda: [randint(512, 0, 10, 5), zeros(512)], lambda: dim(1), dim(256), [1]),
    Spec("softmax_rows.sk", "softmax_rows",
         {"small": dict(rows=64, cols=256), "large": dict(rows=65536, cols=256)},
         lambda rows, cols: [rand(rows * cols, 6) * np.float32(10), zeros(rows * cols),
                             i32(rows), i32(cols)],
         lambda rows, cols: dim(cdiv(rows, 8)), dim(256), [1]),
    Spec("stencil_1d.sk", "stencil_1d_global", {"small": dict(n=1024), "large": dict(n=BIG)},
         lambda n: [f32(np.arange(n + 6)), zeros(n)], lambda n: dim(n // 256), dim(256), [1]),
    Spec("stencil_1d.sk", "stencil_1d_shared", {"small": dict(n=1024), "large": dict(n=BIG)},
         lambda n: [f32(np.arange(n + 6)), zeros(n)], lambda n: dim(n // 256), dim(256), [1]),
    _transpose_spec("transpose_naive", dim(32, 8)),
    _transpose_spec("transpose_tiled", dim(32, 8)),
    _transpose_spec("transpose_padded", dim(32, 8)),
    _transpose_spec("transpose_padded_32x32", dim(32, 32)),
]

# Launches of kernels whose lesson is an error: run under compute-sanitizer only, never timed.
SANITIZE = [
    Spec("out_of_bounds.sk", "vecadd_no_guard", {"small": dict(n=1000)}, _vecadd,
         lambda n: dim(cdiv(n, 256)), dim(256), [2]),
]


def runs(specs=SPECS):
    """Every (spec, size) pair, in the order the driver launches them."""
    return [(s, size) for s in specs for size in s.sizes]


def kernel_source(path):
    """The CUDA text of a `.sk` file: everything before its first `launch` section."""
    text = open(path).read()
    cut = text.find("\nlaunch ")
    return text if cut < 0 else text[: cut + 1]
