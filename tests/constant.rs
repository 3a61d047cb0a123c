//! `__constant__` arrays: set by name in the launch section, read through the constant cache,
//! which serves one address per transaction (a warp reading one address is one; different
//! addresses serialise).

mod common;
use common::{codes, err, ok};

const CONV: &str = r#"
#define R 2
__constant__ float c_mask[2 * R + 1];
__constant__ int c_table[2][4];

__device__ float tap(int k) { return c_mask[k]; }

__global__ void conv(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = -R; k <= R; k++) {
        s += tap(k + R) * in[i + R + k];
    }
    out[i] = s + c_table[1][threadIdx.x % 4];
}
launch conv {
    n = 64; in = ones(n + 2 * R); out = zeros(n);
    c_mask = [1, 2, 3, 4, 5]; c_table = [0, 0, 0, 0, 10, 20, 30, 40];
    block = 32; grid = 2;
    expect out == 15 + (arange(n) % 4 + 1) * 10;
}
"#;

#[test]
fn broadcasts_are_one_transaction_and_divergent_reads_serialise() {
    let r = ok(CONV, &[], [2, 1, 1], [32, 1, 1]);
    let c = r.counters;
    // Per warp (2 warps): 5 loads of c_mask[k], one address each → 5 requests, 5 transactions;
    // c_table[1][t % 4]: 4 distinct addresses → 1 request, 4 transactions.
    // Total: 2 × 6 = 12 requests, 2 × (5 + 4) = 18 transactions.
    assert_eq!((c.cmem_instr, c.cmem_transactions), (12, 18));
    // The global loads are only `in`'s: 5 per warp; constant loads move no global sectors.
    assert_eq!(c.gld_instr, 10);
    let hint = r.hints.iter().find(|h| h.rule == "divergent-constant");
    assert_eq!(hint.and_then(|h| h.line), Some(14));
}

#[test]
fn constant_memory_is_read_only_and_must_be_set() {
    let src = CONV.replace("out[i] = s +", "c_mask[0] = 1.0f; out[i] = s +");
    let f = err(&src, &[], Some([2, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
    let src = CONV.replace("c_mask = [1, 2, 3, 4, 5];", "");
    let f = err(&src, &[], Some([2, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::missing_argument"]);
}

#[test]
fn constant_scalars_and_plain_pointers_into_constant_arrays() {
    // cuda-samples: `__constant__ float c_ax, c_bx;` scalars, and `unsigned int *dimBase =
    // &c_Table[y][0];` (a plain pointer into constant memory, as C++ allows). out[t] = 2 + 10 *
    // 3 + c_table[1][t % 2] = 32 + {5, 7}.
    let src = r#"
__constant__ float c_ax, c_bx;
__constant__ unsigned int c_table[2][2];
__global__ void k(float* out) {
    unsigned int *row = &c_table[1][0];
    out[threadIdx.x] = c_ax + 10.0f * c_bx + row[threadIdx.x % 2];
}
launch k { c_ax = 2; c_bx = [3]; c_table = [1, 3, 5, 7]; out = zeros(4); block = 4; grid = 1;
    expect out == [37, 39, 37, 39]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    // Per warp: c_ax and c_bx broadcast (1 + 1), row[t % 2] two addresses (2): 3 requests, 4
    // transactions.
    assert_eq!(
        (r.counters.cmem_instr, r.counters.cmem_transactions),
        (3, 4)
    );
    let src = src.replace(
        "out[threadIdx.x] = c_ax",
        "row[0] = 1; out[threadIdx.x] = c_ax",
    );
    let f = err(&src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
}
