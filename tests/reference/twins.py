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


# --------------------------------------------------------------------------
# helpers for the kernels below
# --------------------------------------------------------------------------
def lane_loop(blk, init, cond, step, mask=None):
    """`for (v = init; cond(v); v = step(v))` where lanes may leave at different times:
    yields (v, lanes still in the loop) per iteration. Every test calls blk.branch over
    the lanes still in the loop, the final failing one included, as simt counts it."""
    active = blk._mask(mask)
    v = np.broadcast_to(np.asarray(init, dtype=np.int64), (blk.n_threads,)).copy()
    while True:
        active = blk.branch(cond(v), active)
        if not active.any():
            return
        yield v, active
        v = np.where(active, step(v), v)


def shfl(blk, val, src_lane):
    """A warp shuffle's values (full warps): lane l gets `val` of lane src_lane(l), or its
    own value when that lane is outside the warp. A shuffle is no memory access, so it
    does not touch any compared counter."""
    lane = blk.lane
    src = src_lane(lane)
    ok = (src >= 0) & (src < 32)
    return np.where(ok, val[blk.tid - lane + np.where(ok, src, lane)], val)


def atomic_add_global(blk, arr, idx, val, mask=None):
    """atomicAdd on a global buffer. The reference has no atomics: apply the lanes in
    order and book what simt books among the compared counters — an atomic's bytes count
    in g_bytes_requested; its requests and sectors go to gatom_instr / gatom_sectors,
    which the reference does not have."""
    act = blk._mask(mask)
    idx = blk._idx(idx)
    if not act.any():
        return
    blk._issue(act)
    blk.stats.g_bytes_requested += int(act.sum()) * arr.itemsize
    vals = np.broadcast_to(np.asarray(val), (blk.n_threads,))
    np.add.at(arr.reshape(-1), idx[act], vals[act].astype(arr.dtype))


def atomic_add_shared(blk, sh, idx, val, mask=None):
    """atomicAdd on a shared array: one shared-memory instruction with the wavefronts of
    its words (as simt counts it), applied lane by lane; atomics never race."""
    act = blk._mask(mask)
    idx = blk._idx(idx)
    blk._shared_access(sh, idx, act)
    vals = np.broadcast_to(np.asarray(val), (blk.n_threads,))
    np.add.at(sh.data, idx[act], vals[act].astype(sh.data.dtype))


# --------------------------------------------------------------------------
# saxpy.sk
# --------------------------------------------------------------------------
def saxpy(blk, n, a, x, y):
    i = _gid(blk)
    t = blk.branch(i < n)                       # if (i < n)
    xv = blk.load(x, i, mask=t)
    yv = blk.load(y, i, mask=t)
    blk.store(y, i, np.float32(a) * xv + yv, mask=t)


# --------------------------------------------------------------------------
# transpose_padded_32x32.sk (block (32, 32), one element per thread)
# --------------------------------------------------------------------------
def transpose_padded_32x32(blk, idata, odata, width, height):
    pitch = TILE_DIM + 1
    tile = blk.shared(TILE_DIM * pitch, np.float32)
    x = blk.bx * TILE_DIM + blk.tx
    y = blk.by * TILE_DIM + blk.ty
    blk.sstore(tile, blk.ty * pitch + blk.tx, blk.load(idata, y * width + x))
    blk.sync()
    x = blk.by * TILE_DIM + blk.tx
    y = blk.bx * TILE_DIM + blk.ty
    blk.store(odata, y * height + x, blk.sload(tile, blk.tx * pitch + blk.ty))


# --------------------------------------------------------------------------
# reduce_first_add.sk / reduce_unrolled_last_warp.sk (BLOCK 256, 2 inputs per thread)
# --------------------------------------------------------------------------
def _load_two(blk, inp):
    i = blk.bx * (blk.bdx * 2) + blk.tx
    return blk.load(inp, i) + blk.load(inp, i + blk.bdx)


def _tree_step(blk, sdata, s, mask):
    tid = blk.tid
    lhs = blk.sload(sdata, tid, mask=mask)
    rhs = blk.sload(sdata, tid + s, mask=mask)
    blk.sstore(sdata, tid, lhs + rhs, mask=mask)


def reduce_first_add(blk, inp, out):
    sdata = blk.shared(BLOCK, np.float32)
    blk.sstore(sdata, blk.tid, _load_two(blk, inp))
    blk.sync()
    for s in loop(blk, _halving(blk.bdx // 2)):
        _tree_step(blk, sdata, s, blk.branch(blk.tid < s))
        blk.sync()
    _reduce_tail(blk, sdata, out)


def reduce_unrolled_last_warp(blk, inp, out):
    sdata = blk.shared(BLOCK, np.float32)
    blk.sstore(sdata, blk.tid, _load_two(blk, inp))
    blk.sync()
    for s in loop(blk, [s for s in _halving(blk.bdx // 2) if s > 32]):
        _tree_step(blk, sdata, s, blk.branch(blk.tid < s))
        blk.sync()
    t = blk.branch(blk.tid < 32)                # if (tid < 32): six steps, no sync
    for s in (32, 16, 8, 4, 2, 1):
        _tree_step(blk, sdata, s, t)
    _reduce_tail(blk, sdata, out)


# --------------------------------------------------------------------------
# reduce_warp_shuffle.sk / reduce_atomic.sk
# --------------------------------------------------------------------------
WARPS = BLOCK // 32


def _warp_reduce_sum(blk, v):
    for offset in (16, 8, 4, 2, 1):             # __shfl_down_sync, unrolled
        v = v + shfl(blk, v, lambda lane, o=offset: lane + o)
    return v


def _block_sum(blk, inp):
    """The warp sums in shared memory, then warp 0 reduces them. Returns (v, lane 0 of
    warp 0 mask): the block's sum sits in v there."""
    warp_sums = blk.shared(WARPS, np.float32)
    v = _warp_reduce_sum(blk, _load_two(blk, inp))
    t = blk.branch(blk.lane == 0)               # if (lane == 0)
    blk.sstore(warp_sums, blk.warp, v, mask=t)
    blk.sync()
    w0 = blk.branch(blk.warp == 0)              # if (warp == 0)
    part = blk.sload(warp_sums, blk.lane, mask=w0 & (blk.lane < WARPS))   # ?: loads only there
    v = _warp_reduce_sum(blk, np.where(blk.lane < WARPS, part, np.float32(0)))
    return v, blk.branch(blk.lane == 0, w0)     # if (lane == 0) inside warp 0


def reduce_warp_shuffle(blk, inp, out):
    v, t = _block_sum(blk, inp)
    blk.store(out, blk.bx, v, mask=t)


def reduce_atomic(blk, inp, out):
    v, t = _block_sum(blk, inp)
    atomic_add_global(blk, out, 0, v, mask=t)


# --------------------------------------------------------------------------
# scan_blelloch.sk / scan_blelloch_padded.sk (N 512, block 256)
# --------------------------------------------------------------------------
SCAN_N = 512


def _scan(blk, inp, out, pad):
    temp = blk.shared(SCAN_N + (SCAN_N >> 5 if pad else 0), np.float32)
    thid = blk.tid

    def at(a):
        return a + (a >> 5) if pad else a
    ai, bi = thid, thid + SCAN_N // 2
    blk.sstore(temp, at(ai), blk.load(inp, ai))
    blk.sstore(temp, at(bi), blk.load(inp, bi))
    offset = 1
    for d in loop(blk, _halving(SCAN_N >> 1)):             # up-sweep
        blk.sync()
        t = blk.branch(thid < d)
        a = at(offset * (2 * thid + 1) - 1)
        b = at(offset * (2 * thid + 2) - 1)
        lhs = blk.sload(temp, b, mask=t)
        rhs = blk.sload(temp, a, mask=t)
        blk.sstore(temp, b, lhs + rhs, mask=t)
        offset *= 2
    t = blk.branch(thid == 0)
    blk.sstore(temp, at(SCAN_N - 1), np.float32(0), mask=t)   # clear the root
    for d in loop(blk, _doubling(SCAN_N)):                 # down-sweep
        offset >>= 1
        blk.sync()
        t = blk.branch(thid < d)
        a = at(offset * (2 * thid + 1) - 1)
        b = at(offset * (2 * thid + 2) - 1)
        tv = blk.sload(temp, a, mask=t)
        blk.sstore(temp, a, blk.sload(temp, b, mask=t), mask=t)
        bv = blk.sload(temp, b, mask=t)
        blk.sstore(temp, b, bv + tv, mask=t)
    blk.sync()
    blk.store(out, ai, blk.sload(temp, at(ai)))
    blk.store(out, bi, blk.sload(temp, at(bi)))


def scan_blelloch(blk, inp, out):
    _scan(blk, inp, out, pad=False)


def scan_blelloch_padded(blk, inp, out):
    _scan(blk, inp, out, pad=True)


# --------------------------------------------------------------------------
# matrix multiplies (A: M × K, B: K × N, C: M × N, row-major)
# --------------------------------------------------------------------------
def _matmul_simple(blk, A, B, C, M, N, K, row, col):
    t = blk.branch((row < M) & (col < N))       # if (row < M && col < N)
    acc = np.zeros(blk.n_threads, np.float32)
    for k in loop(blk, range(K), t):
        acc += blk.load(A, row * K + k, mask=t) * blk.load(B, k * N + col, mask=t)
    blk.store(C, row * N + col, acc, mask=t)


def matmul_naive(blk, A, B, C, M, N, K):
    _matmul_simple(blk, A, B, C, M, N, K,
                   row=blk.bx * blk.bdx + blk.tx, col=blk.by * blk.bdy + blk.ty)


def matmul_coalesced(blk, A, B, C, M, N, K):
    _matmul_simple(blk, A, B, C, M, N, K,
                   row=blk.by * blk.bdy + blk.ty, col=blk.bx * blk.bdx + blk.tx)


def _matmul_tiled(blk, A, B, C, M, N, K, tile):
    As = blk.shared(tile * tile, np.float32)
    Bs = blk.shared(tile * tile, np.float32)
    row = blk.by * tile + blk.ty
    col = blk.bx * tile + blk.tx
    acc = np.zeros(blk.n_threads, np.float32)
    for t in loop(blk, range(0, K, tile)):
        blk.sstore(As, blk.ty * tile + blk.tx, blk.load(A, row * K + t + blk.tx))
        blk.sstore(Bs, blk.ty * tile + blk.tx, blk.load(B, (t + blk.ty) * N + col))
        blk.sync()
        for k in loop(blk, range(tile)):
            acc += blk.sload(As, blk.ty * tile + k) * blk.sload(Bs, k * tile + blk.tx)
        blk.sync()
    blk.store(C, row * N + col, acc)


def matmul_tiled16(blk, A, B, C, M, N, K):
    _matmul_tiled(blk, A, B, C, M, N, K, 16)


def matmul_tiled32(blk, A, B, C, M, N, K):
    _matmul_tiled(blk, A, B, C, M, N, K, 32)


BM = BN = 32
BK = 8


def matmul_blocktile_1d(blk, A, B, C, M, N, K):
    TM = 4
    As = blk.shared(BM * BK, np.float32)
    Bs = blk.shared(BK * BN, np.float32)
    t = blk.tx
    thread_col, thread_row = t % BN, t // BN
    col_a, row_a = t % BK, t // BK
    col_b, row_b = t % BN, t // BN
    row_base, col_base = blk.by * BM, blk.bx * BN
    acc = [np.zeros(blk.n_threads, np.float32) for _ in range(TM)]
    for bk in loop(blk, range(0, K, BK)):
        blk.sstore(As, row_a * BK + col_a, blk.load(A, (row_base + row_a) * K + bk + col_a))
        blk.sstore(Bs, row_b * BN + col_b, blk.load(B, (bk + row_b) * N + col_base + col_b))
        blk.sync()
        for dot in loop(blk, range(BK)):
            b = blk.sload(Bs, dot * BN + thread_col)
            for i in range(TM):
                acc[i] += blk.sload(As, (thread_row * TM + i) * BK + dot) * b
        blk.sync()
    row = row_base + thread_row * TM
    col = col_base + thread_col
    for i in range(TM):
        blk.store(C, (row + i) * N + col, acc[i])


def matmul_blocktile_2d(blk, A, B, C, M, N, K):
    TM = TN = 4
    threads = 64
    As = blk.shared(BM * BK, np.float32)
    Bs = blk.shared(BK * BN, np.float32)
    t = blk.tx
    thread_col, thread_row = t % (BN // TN), t // (BN // TN)
    col_a, row_a = t % BK, t // BK
    col_b, row_b = t % BN, t // BN
    row_base, col_base = blk.by * BM, blk.bx * BN
    acc = [[np.zeros(blk.n_threads, np.float32) for _ in range(TN)] for _ in range(TM)]
    for bk in loop(blk, range(0, K, BK)):
        for r in loop(blk, range(0, BM, threads // BK)):
            v = blk.load(A, (row_base + row_a + r) * K + bk + col_a)
            blk.sstore(As, (row_a + r) * BK + col_a, v)
        for r in loop(blk, range(0, BK, threads // BN)):
            v = blk.load(B, (bk + row_b + r) * N + col_base + col_b)
            blk.sstore(Bs, (row_b + r) * BN + col_b, v)
        blk.sync()
        for dot in loop(blk, range(BK)):
            a = [blk.sload(As, (thread_row + i * (BM // TM)) * BK + dot) for i in range(TM)]
            b = [blk.sload(Bs, dot * BN + thread_col + j * (BN // TN)) for j in range(TN)]
            for i in range(TM):
                for j in range(TN):
                    acc[i][j] += a[i] * b[j]
        blk.sync()
    row = row_base + thread_row
    col = col_base + thread_col
    for i in range(TM):
        for j in range(TN):
            blk.store(C, (row + i * (BM // TM)) * N + col + j * (BN // TN), acc[i][j])


# --------------------------------------------------------------------------
# stencil_1d.sk (RADIUS 3, BLOCK 256)
# --------------------------------------------------------------------------
RADIUS = 3


def stencil_1d_global(blk, inp, out):
    i = _gid(blk)
    result = np.zeros(blk.n_threads, np.float32)
    for offset in loop(blk, range(-RADIUS, RADIUS + 1)):
        result += blk.load(inp, i + RADIUS + offset)
    blk.store(out, i, result)


def stencil_1d_shared(blk, inp, out):
    temp = blk.shared(BLOCK + 2 * RADIUS, np.float32)
    gindex = _gid(blk)
    lindex = blk.tx + RADIUS
    blk.sstore(temp, lindex, blk.load(inp, gindex + RADIUS))
    t = blk.branch(blk.tx < RADIUS)             # the first RADIUS threads load the halos
    blk.sstore(temp, lindex - RADIUS, blk.load(inp, gindex, mask=t), mask=t)
    blk.sstore(temp, lindex + BLOCK, blk.load(inp, gindex + RADIUS + BLOCK, mask=t), mask=t)
    blk.sync()
    result = np.zeros(blk.n_threads, np.float32)
    for offset in loop(blk, range(-RADIUS, RADIUS + 1)):
        result += blk.sload(temp, lindex + offset)
    blk.store(out, gindex, result)


# --------------------------------------------------------------------------
# conv2d.sk (3 × 3 filter, input padded by one pixel, tiles 32 × 8)
# --------------------------------------------------------------------------
FW = 3
TILE_W, TILE_H = 32, 8


def conv2d_global(blk, inp, w, out, width):
    x = blk.bx * blk.bdx + blk.tx
    y = blk.by * blk.bdy + blk.ty
    pitch = width + 2
    acc = np.zeros(blk.n_threads, np.float32)
    for dy in loop(blk, range(FW)):
        for dx in loop(blk, range(FW)):
            acc += blk.load(w, dy * FW + dx) * blk.load(inp, (y + dy) * pitch + x + dx)
    blk.store(out, y * width + x, acc)


def conv2d_shared(blk, inp, w, out, width):
    tw = TILE_W + 2
    tile = blk.shared((TILE_H + 2) * tw, np.float32)
    x0, y0 = blk.bx * TILE_W, blk.by * TILE_H
    pitch = width + 2
    for r, rows in lane_loop(blk, blk.ty, lambda r: r < TILE_H + 2, lambda r: r + TILE_H):
        for c, cols in lane_loop(blk, blk.tx, lambda c: c < tw, lambda c: c + TILE_W, rows):
            v = blk.load(inp, (y0 + r) * pitch + x0 + c, mask=cols)
            blk.sstore(tile, r * tw + c, v, mask=cols)
    blk.sync()
    acc = np.zeros(blk.n_threads, np.float32)
    for dy in loop(blk, range(FW)):
        for dx in loop(blk, range(FW)):
            acc += blk.load(w, dy * FW + dx) * blk.sload(tile, (blk.ty + dy) * tw + blk.tx + dx)
    blk.store(out, (y0 + blk.ty) * width + x0 + blk.tx, acc)


# --------------------------------------------------------------------------
# histogram.sk (256 bins, grid-stride loop)
# --------------------------------------------------------------------------
BINS = 256


def _grid_stride(blk, n):
    return lane_loop(blk, _gid(blk), lambda i: i < n, lambda i: i + blk.bdx * blk.gdx)


def histogram_global(blk, data, bins, n):
    for i, act in _grid_stride(blk, n):
        atomic_add_global(blk, bins, blk.load(data, i, mask=act), 1, mask=act)


def histogram_shared(blk, data, bins, n):
    local = blk.shared(BINS, np.uint32)
    blk.sstore(local, blk.tx, np.uint32(0))
    blk.sync()
    for i, act in _grid_stride(blk, n):
        atomic_add_shared(blk, local, blk.load(data, i, mask=act), 1, mask=act)
    blk.sync()
    atomic_add_global(blk, bins, blk.tx, blk.sload(local, blk.tx))


# --------------------------------------------------------------------------
# softmax_rows.sk (one warp per row)
# --------------------------------------------------------------------------
def softmax_rows(blk, inp, out, rows, cols):
    row = blk.bx * (blk.bdx // 32) + blk.tx // 32
    lane = blk.tx % 32
    live = ~blk.branch(row >= rows)             # if (row >= rows) return;
    base = row * cols

    def over_row():
        return lane_loop(blk, lane, lambda c: c < cols, lambda c: c + 32, live)

    def butterfly(v, op):
        for offset in (16, 8, 4, 2, 1):         # __shfl_xor_sync
            v = op(v, shfl(blk, v, lambda ln, o=offset: ln ^ o))
        return v
    m = np.full(blk.n_threads, np.float32(-3.4e38))
    for c, act in over_row():
        m = np.where(act, np.fmax(m, blk.load(inp, base + c, mask=act)), m)
    m = butterfly(m, np.fmax)
    s = np.zeros(blk.n_threads, np.float32)
    for c, act in over_row():
        s = np.where(act, s + np.exp(blk.load(inp, base + c, mask=act) - m), s)
    s = butterfly(s, np.add)
    for c, act in over_row():
        blk.store(out, base + c, np.exp(blk.load(inp, base + c, mask=act) - m) / s, mask=act)
