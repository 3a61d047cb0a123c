//! `__syncthreads()` on both sides of an `if` that splits a block by whole warps: the sides run
//! in turns and each pair of barriers passes together, as the hardware counts arrivals at
//! barrier 0 (siboehm's double-buffered SGEMM); anything else stays a divergent barrier.

use crate::common::{err, ok, position, run_threads};
use simt::exec::RaceKind;

const PAIRED: &str = r#"
__global__ void k(float* lo, float* hi) {
    __shared__ float a[64];
    __shared__ float b[64];
    int t = threadIdx.x;
    if (t < 64) {
        a[t] = t;
        __syncthreads();
        lo[t] = b[63 - t];
    } else {
        b[t - 64] = 2 * t;
        __syncthreads();
        hi[t - 64] = a[127 - t];
    }
}
"#;

fn block(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn each_side_reads_what_the_other_stored_before_its_barrier() {
    // Warps 0-1 store a, warps 2-3 store b, each side's barrier meets the other's, then each
    // reads the other's array: lo[t] = b[63 - t] = 2 * (63 - t + 64); hi[s] = a[63 - s].
    let args = [("lo", "zeros(64)"), ("hi", "zeros(64)")];
    let src = format!(
        "{PAIRED}launch k {{ expect lo == 2 * (127 - arange(64)); expect hi == 63 - arange(64); }}\n"
    );
    let r = ok(&src, &args, block(1), block(128));
    assert_eq!(r.counters.race_count, 0);
    // Each barrier instruction ran once, by half the block.
    let lines: Vec<(usize, u64, bool)> = r
        .barriers
        .iter()
        .map(|b| (b.line, b.executions, b.split))
        .collect();
    assert_eq!(lines, [(8, 1, true), (12, 1, true)]);
    assert_eq!(r.counters.barriers, 2);
    // The branch splits no warp: 4 warps evaluate it, none divergent.
    assert_eq!((r.counters.branches, r.counters.divergent), (4, 0));
    let hint = r
        .hints
        .iter()
        .find(|h| h.rule == "split-barrier")
        .expect("a split-barrier hint");
    assert_eq!(hint.line, Some(8));
    assert!(hint.message.contains("lines 8, 12"), "{}", hint.message);
    // Without the barriers, warps 0-1 read b before warps 2-3 store it (lo stays 0): a race.
    let bare = PAIRED.replace("__syncthreads();", ";");
    let r = ok(&bare, &args, block(1), block(128));
    assert!(r.counters.race_count > 0);
}

#[test]
fn the_epoch_after_a_pair_still_races() {
    // Warps 2-3 read a[127 - t] after the pair; warps 0-1 overwrite a[t] after it too, with no
    // second barrier: the else side runs first past the pair (it is running when the pair
    // meets), so the then side's store overwrites what it read: WAR on `a`, line 8 after line 12.
    let src = r#"
__global__ void k(float* hi) {
    __shared__ float a[64];
    int t = threadIdx.x;
    if (t < 64) {
        a[t] = t;
        __syncthreads();
        a[t] = 0;
    } else {
        __syncthreads();
        hi[t - 64] = a[127 - t];
    }
}
"#;
    let r = ok(src, &[("hi", "zeros(64)")], block(1), block(128));
    assert_eq!(r.races.len(), 1);
    let g = &r.races[0];
    assert_eq!(g.race.first.kind, RaceKind::WriteAfterRead);
    assert_eq!(g.race.first.array, "a");
    assert_eq!((g.line, g.other_line), (8, 11));
    // 64 words, each written by warps 0-1 after warps 2-3 read it.
    assert_eq!(g.race.words, 64);
}

#[test]
fn a_side_that_returns_after_the_pair_leaves_the_other_to_go_on() {
    // Warps 0-1 return after the pair; warps 2-3 read their a, then meet the barrier after the
    // `if` alone (returned threads do not count, as on the hardware).
    let src = r#"
__global__ void k(float* hi) {
    __shared__ float a[64];
    int t = threadIdx.x;
    if (t < 64) {
        a[t] = t + 1;
        __syncthreads();
        return;
    } else {
        __syncthreads();
        hi[t - 64] = a[127 - t];
    }
    __syncthreads();
    hi[t - 64] += 1;
}
launch k { expect hi == 65 - arange(64); }
"#;
    let r = ok(src, &[("hi", "zeros(64)")], block(2), block(128));
    assert_eq!(r.counters.race_count, 0);
    assert_eq!(r.counters.barriers, 2 * 3);
}

#[test]
fn a_barrier_the_other_side_lacks_is_divergent() {
    // Warps 2-3 skip line 7's barrier and go on to line 11's. (Without line 11 they would leave
    // the kernel and their exit would release line 7: exit_barriers.)
    let src = r#"
__global__ void k(float* hi) {
    __shared__ float a[64];
    int t = threadIdx.x;
    if (t < 64) {
        a[t] = t;
        __syncthreads();
    } else {
        hi[t - 64] = 1;
    }
    __syncthreads();
}
"#;
    let f = err(
        src,
        &[("hi", "zeros(64)")],
        Some(block(1)),
        Some(block(128)),
    );
    assert_eq!(crate::common::codes(&f), ["simt::run::divergent_barrier"]);
    assert_eq!(position(&f).0, 7);
    assert_eq!(
        f.errors[0].inner.to_string(),
        "`__syncthreads()` reached by 64 of the block's 128 live threads"
    );
}

#[test]
fn a_split_inside_a_warp_is_divergent() {
    // Threads 0-47 and 48-127: warp 1 has lanes on both sides, which PTX leaves undefined.
    let src = PAIRED.replace("t < 64", "t < 48");
    let f = err(
        &src,
        &[("lo", "zeros(64)"), ("hi", "zeros(64)")],
        Some(block(1)),
        Some(block(128)),
    );
    assert_eq!(crate::common::codes(&f), ["simt::run::divergent_barrier"]);
    assert_eq!(position(&f).0, 8);
}

#[test]
fn paired_barriers_are_the_same_on_any_number_of_workers() {
    // 256 blocks of 128 threads: the launch is big enough for the parallel path.
    let src = PAIRED
        .replace("lo[t] =", "lo[blockIdx.x * 64 + t] =")
        .replace("hi[t - 64] =", "hi[blockIdx.x * 64 + t - 64] =");
    let args = [("lo", "zeros(256 * 64)"), ("hi", "zeros(256 * 64)")];
    let one = run_threads(&src, &args, block(256), block(128), 1).expect("runs");
    let three = run_threads(&src, &args, block(256), block(128), 3).expect("runs");
    assert_eq!(one.counters, three.counters);
    assert_eq!(one.counters.barriers, 2 * 256);
    assert_eq!(one.barriers, three.barriers);
}
