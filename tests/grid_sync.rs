//! Grid barriers: `this_grid().sync()` in a cooperative launch, its rule that every block be
//! resident, its deadlocks, and the same results on any number of workers.

use crate::common;
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

/// Each of 4 blocks of 32 writes its own 32 elements of `a` and reads the next block's (block 3
/// reads block 0's); with `SYNC` a grid barrier separates the two.
const NEIGHBOURS: &str = r#"
namespace cg = cooperative_groups;
__global__ void k(int* a, int* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 10;
    SYNC
    b[i] = a[(i + blockDim.x) % n];
    cg::this_grid().sync();
}
launch k { n = 128; a = zeros(n); b = zeros(n); grid = 4; block = 32; cooperative; }
"#;

#[test]
fn blocks_touching_one_element_between_grid_barriers_race() {
    // In block order: block 1 writes a[32..63] (line 5), which block 0 read (line 7); blocks 2
    // and 3 likewise write what blocks 1 and 2 read: one group of 3 blocks, 3 warp
    // instructions, 96 words, first at a[32]. Block 3 reads a[0..31] (line 7), which block 0
    // wrote: a second group of 1 block, 1 warp instruction, 32 words. race_count counts each
    // racing instruction once per block: blocks 1, 2, 3 at line 5 and block 3 at line 7 = 4.
    let src = NEIGHBOURS.replace("SYNC", "");
    let one = run(&src, 1, false).expect("runs");
    assert_eq!(one.counters.race_count, 4);
    let groups: Vec<_> = one
        .races
        .iter()
        .map(|r| {
            let g = &r.race;
            (
                g.first.block,
                g.first.other_block,
                r.line,
                r.other_line,
                g.first.index,
                (g.blocks, g.warps, g.words),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ([1, 0, 0], Some([0, 0, 0]), 5, 7, 32, (3, 3, 96)),
            ([3, 0, 0], Some([0, 0, 0]), 7, 5, 0, (1, 1, 32)),
        ]
    );
    assert!(one.races[0].describe().starts_with("between blocks"));
    for threads in [2, 4] {
        let r = run(&src, threads, false).expect("runs");
        assert_eq!(r.counters, one.counters, "{threads} workers");
        assert_eq!(r.races.len(), 2);
    }
    // A grid barrier between the write and the read orders them: no race.
    let synced = run(
        &NEIGHBOURS.replace("SYNC", "cg::this_grid().sync();"),
        1,
        false,
    )
    .expect("runs");
    assert_eq!(synced.counters.race_count, 0);
    assert!(synced.races.is_empty());
}

#[test]
fn atomics_of_several_blocks_do_not_race_but_a_read_beside_them_does() {
    // 4 blocks of 32 each add 1 to c[0]: atomics never conflict with each other. Read after a
    // grid barrier, c[0] = 128 everywhere and there is no race. Read before it (WHERE = the
    // read first), blocks 1..3 read c[0] which block 0 updated atomically, and blocks 1..3's
    // atomics hit block 0's read: races.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* c, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[0], 1);
    cg::this_grid().sync();
    out[i] = c[0];
}
launch k { c = zeros(1); out = zeros(128); grid = 4; block = 32; cooperative;
           expect out == 128; }
"#;
    let r = run(src, 1, false).expect("runs");
    passed(&r);
    assert!(r.races.is_empty());
    let racy = src.replace(
        "    cg::this_grid().sync();\n    out[i] = c[0];",
        "    out[i] = c[0];\n    cg::this_grid().sync();",
    );
    let r = run(&racy, 1, false).expect("runs");
    // Block 0: no earlier block. Blocks 1, 2, 3: the atomic (line 5) meets block 0's read, and
    // the read (line 6) meets block 0's atomic: 2 instructions × 3 blocks = 6.
    assert_eq!(r.counters.race_count, 6);
    assert_eq!(r.races.len(), 2);
}

#[test]
fn a_grid_group_is_valid_in_a_cooperative_launch_only() {
    // CUDA: `this_grid().is_valid()` is false unless the kernel was launched with
    // cudaLaunchCooperativeKernel, so the guarded barrier is skipped outside one: v = 0 then
    // (and no not_cooperative error), 1 in a cooperative launch.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* v) {
    cg::grid_group g = cg::this_grid();
    if (g.is_valid()) g.sync();
    v[g.thread_rank()] = g.is_valid() ? 1 : 0;
}
launch k { v = zeros(64); grid = 2; block = 32; }
"#;
    let r = run(src, 1, false).expect("runs");
    assert_eq!(r.counters.grid_syncs, 0);
    let f = run(
        &src.replace("zeros(64); grid", "zeros(64); expect v == 1; grid"),
        1,
        false,
    )
    .expect("runs");
    assert!(
        !f.expects[0].passed,
        "is_valid() is false outside a cooperative launch"
    );
    let r = run(
        &src.replace("zeros(64); grid", "zeros(64); expect v == 1; grid"),
        1,
        true,
    )
    .expect("runs");
    passed(&r);
    assert_eq!(r.counters.grid_syncs, 2);
}
