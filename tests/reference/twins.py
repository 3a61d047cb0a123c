"""Python twins of the shipped kernels in kernels/*.sk, written against the
reference model (shared/reference/simt_lab.py).

Each twin mirrors its kernel statement by statement:
  - every global load/store      -> blk.load / blk.store, with the lanes' active mask
  - every shared access          -> blk.sload / blk.sstore (a compound assignment
                                    `s[k] += s[m]` is: load s[k], load s[m], store s[k])
  - every __syncthreads()        -> blk.sync()
  - every evaluation of an `if` condition AND of a loop condition -> blk.branch(cond, mask)
    (simt counts loop conditions as branches: one test per iteration plus the final
    failing one, for every warp with a lane still in the loop; the reference itself
    only counts `if`, so the twins add the loop tests explicitly, see `loop`).

Only the memory, branch, barrier and race counters are mirrored. Plain arithmetic is
not replayed through blk.compute, so warp_instr / active_lane_slots of a twin do not
match simt's instruction cost model and are not part of expected.json.
"""

import os
import sys
from pathlib import Path

import numpy as np

_HERE = Path(__file__).resolve().parent
_REPO = _HERE.parents[1]
for _cand in (os.environ.get("SIMT_LAB_DIR"),
              _REPO / "shared" / "reference",           # a checkout that carries shared/
              _REPO.parent / "shared" / "reference"):   # /work/main next to /work/shared
    if _cand and (Path(_cand) / "simt_lab.py").is_file():
        sys.path.insert(0, str(_cand))
        break

import simt_lab  # noqa: E402  (path set up above)


def loop(blk, values, mask=None):
    """A loop whose condition is uniform over the block: yields each value of the
    loop variable, calling blk.branch once per passing test and once for the final
    failing test, over the lanes still in the loop (`mask`)."""
    for v in values:
        blk.branch(True, mask)
        yield v
    blk.branch(False, mask)


def _gid(blk):
    """blockIdx.x * blockDim.x + threadIdx.x"""
    return blk.bx * blk.bdx + blk.tx


# --------------------------------------------------------------------------
# vecadd.sk
# --------------------------------------------------------------------------
def vecadd(blk, a, b, c, n):
    i = _gid(blk)
    t = blk.branch(i < n)                       # if (i < n)
    x = blk.load(a, i, mask=t)
    y = blk.load(b, i, mask=t)
    blk.store(c, i, x + y, mask=t)


# --------------------------------------------------------------------------
# strided_copy.sk / offset_copy.sk
# --------------------------------------------------------------------------
def strided_copy(blk, inp, out, n, stride):
    i = _gid(blk)
    t = blk.branch(i < n)                       # if (i < n)
    v = blk.load(inp, i * stride, mask=t)
    blk.store(out, i, v, mask=t)


def offset_copy(blk, inp, out, n, offset):
    i = _gid(blk)
    t = blk.branch(i < n)                       # if (i < n)
    v = blk.load(inp, i + offset, mask=t)
    blk.store(out, i, v, mask=t)


# --------------------------------------------------------------------------
# transposes (TILE_DIM 32, BLOCK_ROWS 8, block (32, 8))
# --------------------------------------------------------------------------
TILE_DIM = 32
BLOCK_ROWS = 8


def transpose_naive(blk, idata, odata, width, height):
    x = blk.bx * TILE_DIM + blk.tx
    y = blk.by * TILE_DIM + blk.ty
    for j in loop(blk, range(0, TILE_DIM, BLOCK_ROWS)):
        v = blk.load(idata, (y + j) * width + x)
        blk.store(odata, x * height + (y + j), v)


def _transpose_smem(blk, idata, odata, width, height, pitch):
    tile = blk.shared(TILE_DIM * pitch, np.float32)     # tile[TILE_DIM][pitch], flat
    x = blk.bx * TILE_DIM + blk.tx
    y = blk.by * TILE_DIM + blk.ty
    for j in loop(blk, range(0, TILE_DIM, BLOCK_ROWS)):
        v = blk.load(idata, (y + j) * width + x)
        blk.sstore(tile, (blk.ty + j) * pitch + blk.tx, v)
    blk.sync()
    x = blk.by * TILE_DIM + blk.tx
    y = blk.bx * TILE_DIM + blk.ty
    for j in loop(blk, range(0, TILE_DIM, BLOCK_ROWS)):
        v = blk.sload(tile, blk.tx * pitch + (blk.ty + j))
        blk.store(odata, (y + j) * height + x, v)


def transpose_tiled(blk, idata, odata, width, height):
    _transpose_smem(blk, idata, odata, width, height, TILE_DIM)


def transpose_padded(blk, idata, odata, width, height):
    _transpose_smem(blk, idata, odata, width, height, TILE_DIM + 1)


# --------------------------------------------------------------------------
# reductions (BLOCK 256)
# --------------------------------------------------------------------------
BLOCK = 256


def _doubling(limit):
    s = 1
    while s < limit:
        yield s
        s *= 2


def _halving(start):
    s = start
    while s > 0:
        yield s
        s >>= 1


def _reduce_tail(blk, sdata, out):
    t = blk.branch(blk.tid == 0)                # if (tid == 0)
    v = blk.sload(sdata, 0, mask=t)
    blk.store(out, blk.bx, v, mask=t)


def reduce_interleaved(blk, inp, out):
    sdata = blk.shared(BLOCK, np.float32)
    tid = blk.tid
    i = _gid(blk)
    blk.sstore(sdata, tid, blk.load(inp, i))
    blk.sync()
    for s in loop(blk, _doubling(blk.bdx)):
        t = blk.branch(tid % (2 * s) == 0)
        lhs = blk.sload(sdata, tid, mask=t)
        rhs = blk.sload(sdata, tid + s, mask=t)
        blk.sstore(sdata, tid, lhs + rhs, mask=t)
        blk.sync()
    _reduce_tail(blk, sdata, out)


def reduce_interleaved_strided(blk, inp, out):
    sdata = blk.shared(BLOCK, np.float32)
    tid = blk.tid
    i = _gid(blk)
    blk.sstore(sdata, tid, blk.load(inp, i))
    blk.sync()
    for s in loop(blk, _doubling(blk.bdx)):
        index = 2 * s * tid
        t = blk.branch(index < blk.bdx)
        lhs = blk.sload(sdata, index, mask=t)
        rhs = blk.sload(sdata, index + s, mask=t)
        blk.sstore(sdata, index, lhs + rhs, mask=t)
        blk.sync()
    _reduce_tail(blk, sdata, out)


def reduce_sequential(blk, inp, out):
    sdata = blk.shared(BLOCK, np.float32)
    tid = blk.tid
    i = _gid(blk)
    blk.sstore(sdata, tid, blk.load(inp, i))
    blk.sync()
    for s in loop(blk, _halving(blk.bdx // 2)):
        t = blk.branch(tid < s)
        lhs = blk.sload(sdata, tid, mask=t)
        rhs = blk.sload(sdata, tid + s, mask=t)
        blk.sstore(sdata, tid, lhs + rhs, mask=t)
        blk.sync()
    _reduce_tail(blk, sdata, out)


# --------------------------------------------------------------------------
# divergence.sk
# --------------------------------------------------------------------------
def _split(blk, a, b, c, cond):
    i = _gid(blk)
    x = blk.load(a, i)
    y = blk.load(b, i)
    t = blk.branch(cond)
    blk.store(c, i, x + y, mask=t)              # if side
    blk.store(c, i, x - y, mask=~t)             # else side


def branch_odd_even(blk, a, b, c):
    _split(blk, a, b, c, blk.tx % 2 == 0)


def branch_by_warp(blk, a, b, c):
    _split(blk, a, b, c, (blk.tx // 32) % 2 == 0)


# --------------------------------------------------------------------------
# race_missing_sync.sk
# --------------------------------------------------------------------------
def race_missing_sync(blk, inp, out):
    s = blk.shared(BLOCK, np.float32)
    tid = blk.tid
    i = _gid(blk)
    blk.sstore(s, tid, blk.load(inp, i))
    # missing: blk.sync()
    v = blk.sload(s, (tid + 1) % blk.bdx)
    blk.store(out, i, v)
