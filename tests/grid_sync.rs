//! Grid barriers: `this_grid().sync()` in a cooperative launch, its rule that every block be
//! resident, its deadlocks, and the same results on any number of workers.

mod common;
use common::codes;
use simt::pipeline::{self, Failure, RunOptions};
use simt::report::Report;
use simt::source::SourceFile;

/// Runs `src` (its launch section gives the shape) on `threads` workers, every launch on the
/// parallel path however small; `cooperative` as `--cooperative`.
fn run(src: &str, threads: usize, cooperative: bool) -> Result<Report, Failure> {
    let opts = RunOptions {
        threads,
        parallel_min: 0,
        cooperative,
        ..RunOptions::default()
    };
    pipeline::run(&SourceFile::new("grid.sk", src), &opts)
}

fn passed(r: &Report) {
    for e in &r.expects {
        assert!(e.passed, "expect `{}` failed: {:?}", e.text, e.detail);
    }
}

/// Four blocks of 64 threads. Before the barrier thread i (block i / 64, thread t = i % 64)
/// writes a[i] = 10 i, its block's shared s[t] = block, and keeps 3 i in a register. After it,
/// thread i reads the next block's element: b[i] = a[(i + 64) % 256] = 10 ((i + 64) % 256),
/// a neighbour's shared word and its own register: c[i] = s[(t + 1) % 64] + 3 i = i / 64 + 3 i.
const TWO_PHASE: &str = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int* b, int* c, int n) {
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 10;
    s[threadIdx.x] = blockIdx.x;
    int keep = i * 3;
    grid.sync();
    b[i] = a[(i + blockDim.x) % n];
    c[i] = s[(threadIdx.x + 1) % 64] + keep;
}
launch k {
    n = 256; a = zeros(n); b = zeros(n); c = zeros(n);
    grid = 4; block = 64;
    cooperative;
    expect a == arange(n) * 10;
    expect b == ((arange(n) + 64) % n) * 10;
    expect c == (arange(n) - arange(n) % 64) / 64 + 3 * arange(n);
}
"#;

#[test]
fn blocks_read_what_other_blocks_wrote_before_a_grid_barrier() {
    let one = run(TWO_PHASE, 1, false).expect("runs");
    passed(&one);
    // Each of the 4 blocks passes the one grid barrier once: 4. No block barrier ran.
    assert_eq!(one.counters.grid_syncs, 4);
    assert_eq!(one.counters.barriers, 0);
    // 256 threads = 8 warps: stores a, s, b, c = 8 × 3 global (a, b, c) requests; loads a = 8.
    assert_eq!((one.counters.gst_instr, one.counters.gld_instr), (24, 8));
    assert!(one.races.is_empty());
    for threads in [2, 3, 4] {
        let r = run(TWO_PHASE, threads, false).expect("runs");
        passed(&r);
        assert_eq!(r.counters, one.counters, "{threads} workers");
    }
}

#[test]
fn cooperative_on_the_command_line_is_the_launch_statement() {
    let src = TWO_PHASE.replace("    cooperative;\n", "");
    let f = run(&src, 1, false).expect_err("not cooperative");
    assert_eq!(codes(&f), ["simt::run::not_cooperative"]);
    let r = run(&src, 1, true).expect("runs with --cooperative");
    passed(&r);
    assert_eq!(r.counters.grid_syncs, 4);
}

#[test]
fn a_grid_barrier_in_a_loop_passes_once_per_iteration() {
    // Three rounds of ping-pong between x and y over 2 blocks of 32: each round every thread
    // reads its right neighbour (across the block boundary at i = 31 and around at 63) and adds
    // 1: after round r, element i holds i + r (mod 64 wrapping of the index) summed: starting at
    // x[i] = i, y[i] = x[(i + 1) % 64] + 1 = (i + 1) % 64 + 1, then x[i] = y[(i + 1) % 64] + 1 =
    // (i + 2) % 64 + 2, then y[i] = (i + 3) % 64 + 3. Six barriers (two per round) × 2 blocks.
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* x, int* y) {
    cg::grid_group g = cg::this_grid();
    unsigned i = g.thread_rank();
    unsigned n = g.size();
    for (int r = 0; r < 3; r++) {
        if (r % 2 == 0) y[i] = x[(i + 1) % n] + 1; else x[i] = y[(i + 1) % n] + 1;
        g.sync();
        cg::sync(g);
    }
}
launch k {
    x = arange(64); y = zeros(64);
    grid = 2; block = 32; cooperative;
    expect x == (arange(64) + 2) % 64 + 2;
    expect y == (arange(64) + 3) % 64 + 3;
}
"#;
    for threads in [1, 2] {
        let r = run(src, threads, false).expect("runs");
        passed(&r);
        assert_eq!(r.counters.grid_syncs, 12);
    }
}

#[test]
fn a_cooperative_grid_must_fit_on_the_gpu_at_once() {
    // 64 threads, 32 registers, no shared memory on the H100: 32 blocks per SM (its block
    // limit; 2 warps × 32 = 64 warps, 2048 registers × 32 = 65536), × 132 SMs = 4224 blocks.
    let src = |grid: u32| {
        format!(
            "namespace cg = cooperative_groups;\n__global__ void k(int* a) {{ cg::this_grid().sync(); }}\n\
             launch k {{ a = zeros(1); grid = {grid}; block = 64; cooperative; }}\n"
        )
    };
    let r = run(&src(4224), 1, false).expect("4224 blocks fit");
    assert_eq!(r.counters.grid_syncs, 4224);
    let f = run(&src(4225), 1, false).expect_err("4225 do not");
    assert_eq!(codes(&f), ["simt::host::cooperative_too_large"]);
    assert_eq!(f.exit, 2);
    let text = common::describe(&f);
    assert!(
        text.contains("4225 blocks") && text.contains("32 per SM × 132 SMs = 4224"),
        "{text}"
    );
}

#[test]
fn blocks_waiting_for_blocks_that_ended_are_a_deadlock() {
    // Odd blocks return before the barrier: blocks 0 and 2 wait for 1 and 3 forever.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* a) {
    if (blockIdx.x % 2 == 1) return;
    a[blockIdx.x] = 1;
    cg::this_grid().sync();
}
launch k { a = zeros(4); grid = 4; block = 32; cooperative; }
"#;
    for threads in [1, 4] {
        let f = run(src, threads, false).expect_err("deadlock");
        assert_eq!(codes(&f), ["simt::run::grid_deadlock"]);
        let text = common::describe(&f);
        assert!(
            text.contains("2 block(s) wait") && text.contains("(1, 0, 0), (3, 0, 0)"),
            "{text}"
        );
    }
}

#[test]
fn a_grid_barrier_some_threads_of_a_block_skip_is_a_divergent_barrier() {
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* a) {
    if (threadIdx.x < 16) cg::this_grid().sync();
}
launch k { a = zeros(1); grid = 2; block = 32; cooperative; }
"#;
    let f = run(src, 1, false).expect_err("divergent");
    assert_eq!(codes(&f), ["simt::run::divergent_barrier"]);
}
