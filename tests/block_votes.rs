//! `__syncthreads_count`, `__syncthreads_and` and `__syncthreads_or`: barriers that also fold a
//! predicate over the block's threads, counted and checked like `__syncthreads()`.

use crate::common;
use common::{codes, err, ok};

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn the_folds_are_what_the_programming_guide_defines() {
    // Block of 64 threads, t = 0..63.
    // count(t % 3 == 0): 0, 3, ..., 63 = 22 threads.
    // and(t < 100) = 1 (all hold); and(t != 5) = 0 (thread 5 does not).
    // or(t == 37) = 1; or(t > 1000) = 0: any[t] = 1 + 10 * 0 = 1.
    // count(2.5f * (t == 4)): the float argument converts to int 2 on thread 4 and 0 elsewhere: 1;
    // count(0.5f): converts to int 0 on every thread: 0. half[t] = 1 + 100 * 0 = 1.
    // Loop: `while (count(i < t) > 0) i++` runs until no thread has i < t: i = 63 for all.
    // Barriers: 7 outside the loop (count, and, two or, and, two count), plus 64 tests of the
    // loop condition (i = 0..63) = 71.
    let src = r#"
__global__ void k(int* cnt, int* all, int* any, int* none, int* half, int* loops) {
    int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    all[t] = __syncthreads_and(t < 100);
    any[t] = __syncthreads_or(t == 37) + 10 * __syncthreads_or(t > 1000);
    cnt[t] = c;
    none[t] = __syncthreads_and(t != 5);
    half[t] = __syncthreads_count(2.5f * (t == 4)) + 100 * __syncthreads_count(0.5f);
    int i = 0;
    while (__syncthreads_count(i < t) > 0) i++;
    loops[t] = i;
}
launch k {
    cnt = zeros(64); all = zeros(64); any = zeros(64); none = zeros(64); half = zeros(64);
    loops = zeros(64);
    expect cnt == 22; expect all == 1; expect any == 1; expect none == 0; expect half == 1;
    expect loops == 63;
}
"#;
    let r = ok(src, &[], [1, 1, 1], b(64));
    assert_eq!(r.counters.barriers, 71);
}

#[test]
fn each_block_folds_its_own_threads_and_exited_threads_do_not_count() {
    // Two blocks of 64; in block 0 threads 40..63 return first, in block 1 none do. The barrier
    // counts the threads that arrive: block 0 counts 40 (t < 40), block 1 counts 64. `or` of
    // `t >= 40` in block 0 is 0: only threads 0..39 vote and none of them holds.
    let src = r#"
__global__ void k(int* cnt, int* any) {
    int t = threadIdx.x;
    if (blockIdx.x == 0 && t >= 40) return;
    int c = __syncthreads_count(1);
    int o = __syncthreads_or(t >= 40);
    cnt[blockIdx.x * 64 + t] = c;
    any[blockIdx.x * 64 + t] = o;
}
"#;
    let list = |f: &dyn Fn(u32) -> i32| {
        let v: Vec<String> = (0..128).map(|g| f(g).to_string()).collect();
        format!("[{}]", v.join(", "))
    };
    let cnt = list(&|g| match g {
        0..40 => 40,
        40..64 => -1,
        _ => 64,
    });
    let any = list(&|g| match g {
        0..40 => 0,
        40..64 => -1,
        _ => 1,
    });
    let src = format!(
        "{src}launch k {{ cnt = full(128, -1); any = full(128, -1); expect cnt == {cnt}; expect any == {any}; }}\n"
    );
    let r = ok(&src, &[], [2, 1, 1], b(64));
    // Two barriers in each of two blocks.
    assert_eq!(r.counters.barriers, 4);
}

#[test]
fn a_vote_separates_shared_accesses_like_a_barrier() {
    // Warp 0 reads s[32..63], which warp 1 writes: a race without a barrier between (one racing
    // load per block), none when a `__syncthreads_or` stands between the write and the read.
    let race = |between: &str| {
        let src = format!(
            "__global__ void k(int* out) {{\n    __shared__ int s[64];\n    int t = threadIdx.x;\n    s[t] = t;\n{between}\n    out[t] = s[(t + 32) % 64];\n}}\n"
        );
        ok(&src, &[("out", "zeros(64)")], [1, 1, 1], b(64))
            .counters
            .race_count
    };
    assert_eq!(race(""), 1);
    assert_eq!(race("    int v = __syncthreads_or(t == 0);"), 0);
    assert_eq!(race("    if (__syncthreads_and(t < 64)) t = t + 0;"), 0);
}

#[test]
fn a_vote_some_threads_skip_is_a_divergent_barrier() {
    // Threads 16..63 of the block do not reach the vote: the same error as for `__syncthreads()`.
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x;
    int c = 0;
    if (t < 16) c = __syncthreads_count(1);
    out[t] = c;
}
"#;
    let f = err(src, &[("out", "zeros(64)")], Some([1, 1, 1]), Some(b(64)));
    assert_eq!(codes(&f), ["simt::run::divergent_barrier"]);
}

#[test]
fn a_vote_takes_one_predicate() {
    let src = "__global__ void k(int* out) {\n    out[0] = __syncthreads_count();\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some([1, 1, 1]), Some(b(32)));
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
    let src = "__global__ void k(int* out) {\n    __syncthreads_or(1, 2);\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some([1, 1, 1]), Some(b(32)));
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
}
