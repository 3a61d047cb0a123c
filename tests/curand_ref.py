#!/usr/bin/env python3
"""An independent model of cuRAND's XORWOW and Philox4_32_10 device generators.

Written from the published algorithms (Marsaglia's xorwow; Salmon et al.'s Philox4x32-10) and
NVIDIA's curand_kernel.h / curand_philox4x32_x.h / curand_uniform.h (CUDA 11, as vendored in
ggerganov/llama.cpp @ f555db44, include/cuda/), sharing no code with simt: the XORWOW jump is
a 160x160 GF(2) matrix held as Python integers (rows are 160-bit masks), raised to 2^67 by
squaring; floats are rounded with numpy's float32/float64.

tests/curand.rs holds the values this prints; run `python3 tests/curand_ref.py` to see them.
"""
import numpy as np

M32 = 0xFFFFFFFF


# ---- XORWOW ---------------------------------------------------------------------------------

def xorwow_step(v):
    t = v[0] ^ (v[0] >> 2)
    t &= M32
    new = (v[4] ^ ((v[4] << 4) & M32)) ^ (t ^ ((t << 1) & M32))
    return [v[1], v[2], v[3], v[4], new & M32]


def pack(v):
    return sum(w << (32 * i) for i, w in enumerate(v))


def unpack(x):
    return [(x >> (32 * i)) & M32 for i in range(5)]


def step_matrix():
    """Row r of the transposed map: bit r of the result as a mask of input bits."""
    cols = [pack(xorwow_step(unpack(1 << c))) for c in range(160)]
    return [sum(((cols[c] >> r) & 1) << c for c in range(160)) for r in range(160)]


def mat_mul(a, b):
    """(a·b) row r = xor of b's rows selected by a's row r."""
    out = []
    for row in a:
        acc = 0
        r = row
        k = 0
        while r:
            if r & 1:
                acc ^= b[k]
            r >>= 1
            k += 1
        out.append(acc)
    return out


def mat_vec(m, x):
    return sum((bin(row & x).count("1") & 1) << r for r, row in enumerate(m))


POW = [step_matrix()]


def power(k):
    while len(POW) <= k:
        POW.append(mat_mul(POW[-1], POW[-1]))
    return POW[k]


def jump(v, n, base):
    x = pack(v)
    k = 0
    while n:
        if n & 1:
            x = mat_vec(power(base + k), x)
        n >>= 1
        k += 1
    return unpack(x)


class Xorwow:
    def __init__(self, seed, subsequence, offset):
        s0 = (seed & M32) ^ 0xAAD26B49
        s1 = ((seed >> 32) & M32) ^ 0xF7DCEFDD
        t0 = (1099087573 * s0) & M32
        t1 = (2591861531 * s1) & M32
        self.d = (6615241 + t1 + t0) & M32
        v = [(123456789 + t0) & M32, 362436069 ^ t0, (521288629 + t1) & M32, 88675123 ^ t1,
             (5783321 + t0) & M32]
        v = jump(v, subsequence, 67)
        v = jump(v, offset, 0)
        self.d = (self.d + 362437 * offset) & M32
        self.v = v

    def next(self):
        self.v = xorwow_step(self.v)
        self.d = (self.d + 362437) & M32
        return (self.v[4] + self.d) & M32


# ---- Philox4x32-10 ----------------------------------------------------------------------------

def philox(ctr, key):
    c = list(ctr)
    k = list(key)
    for r in range(10):
        p0 = 0xD2511F53 * c[0]
        p1 = 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


class Philox:
    """A position in the stream of 32-bit words: word i is word i%4 of philox(counter i//4)."""

    def __init__(self, seed, subsequence, offset):
        self.key = [seed & M32, (seed >> 32) & M32]
        self.pos = (subsequence << 66) + offset

    def next(self):
        block = self.pos >> 2
        ctr = [(block >> (32 * i)) & M32 for i in range(4)]
        w = philox(ctr, self.key)[self.pos & 3]
        self.pos += 1
        return w


# ---- conversions ------------------------------------------------------------------------------

def uniform(x):
    f = np.float32(x) * np.float32(2.3283064e-10) + np.float32(2.3283064e-10 / 2)
    return float(np.float32(f))


def uniform_double_hq(x, y):
    z = x ^ (y << 21)
    return float(np.float64(z) * 2.0 ** -53 + 2.0 ** -54)


def main():
    # Random123's known-answer vectors for philox4x32_10 (kat_vectors):
    print("philox(0,0)", [hex(w) for w in philox([0, 0, 0, 0], [0, 0])])
    print("philox(ff)", [hex(w) for w in philox([M32] * 4, [M32, M32])])
    print("philox(pi)", [hex(w) for w in philox(
        [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0])])
    for seed, seq, off in [(0, 0, 0), (1234, 0, 0), (1234, 1, 0), (1234, 5, 3), (1984, 77, 0),
                           (0x123456789ABCDEF0, 3, 1000000)]:
        g = Xorwow(seed, seq, off)
        print("xorwow", (seed, seq, off), [g.next() for _ in range(4)])
        g = Philox(seed, seq, off)
        print("philox", (seed, seq, off), [g.next() for _ in range(6)])
    g = Xorwow(1234, 0, 0)
    print("xorwow uniform", [uniform(g.next()) for _ in range(3)])
    g = Xorwow(1234, 0, 0)
    a, b = g.next(), g.next()
    print("xorwow uniform_double", repr(uniform_double_hq(a, b)))
    g = Philox(1234, 0, 0)
    print("philox uniform", [uniform(g.next()) for _ in range(4)])
    g = Xorwow(1234, 0, 0)
    print("xorwow uniform bits", [int(np.float32(uniform(g.next())).view(np.uint32)) for _ in range(3)])
    g = Xorwow(1234, 0, 0)
    a, b = g.next(), g.next()
    bits = int(np.float64(uniform_double_hq(a, b)).view(np.uint64))
    print("xorwow uniform_double bits", bits & M32, bits >> 32)
    g = Philox(1234, 0, 0)
    print("philox uniform bits", [int(np.float32(uniform(g.next())).view(np.uint32)) for _ in range(4)])
    g = Philox(1234, 0, 0)
    x = g.next()
    bits = int((np.float64(x) * 2.0 ** -32 + 2.0 ** -32).view(np.uint64))
    print("philox uniform_double bits", bits & M32, bits >> 32)
    g = Xorwow(1234, 5, 3)
    print("xorwow state after init (1234, 5, 3): d, v", g.d, g.v)
    # Box-Muller in float64 from the first two words (the float path rounds each step to
    # float32 and uses logf/sinf/cosf, so agrees to about 1e-6 relative).
    import math
    g = Xorwow(1234, 0, 0)
    x, y = g.next(), g.next()
    u = x * 2.0 ** -32 + 2.0 ** -33
    v = (y * 2.0 ** -32 + 2.0 ** -33) * 2 * math.pi
    s = math.sqrt(-2.0 * math.log(u))
    print("xorwow normal pair", s * math.sin(v), s * math.cos(v))


if __name__ == "__main__":
    main()
