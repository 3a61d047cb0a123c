//! `__syncthreads()` passed while whole warps are away that leave the kernel without reaching
//! another barrier: the GPU releases a barrier when the warps holding it up exit (PTX ISA,
//! `exit`), as CSR-vector SpMV's row loops rely on. A warp split at the barrier, or a missing
//! warp that may still reach a barrier, stays a divergent barrier.

use crate::common::{codes, err, ok, position};

fn block(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

/// Two warps share rows 0..m by warp: with m = 3, warp 0 takes rows 0 and 2, warp 1 row 1.
const ROWS: &str = r#"
__global__ void k(int m, float* y) {
    __shared__ float s[64];
    int warp = threadIdx.x / 32;
    for (int row = warp; row < m; row += 2) {
        s[threadIdx.x] = row; __syncthreads();
        if ((threadIdx.x & 31) == 0) y[row] = s[threadIdx.x] + 1.0f;
        __syncthreads();
    }
}
launch k { m = 3; y = zeros(3); expect y == arange(3) + 1; }
"#;

#[test]
fn warps_that_finish_a_loop_early_release_its_barriers() {
    // Trip 1: both warps pass lines 6 and 8 (2 barriers). Trip 2: warp 0 alone, warp 1 has left
    // the loop and the kernel after it has no barrier: line 6 passes once warp 1 has exited,
    // and line 8 finds every live warp (2 more).
    let r = ok(ROWS, &[], block(1), block(64));
    assert_eq!(r.counters.barriers, 4);
    let seen: Vec<(usize, u64, bool)> = r
        .barriers
        .iter()
        .map(|b| (b.line, b.executions, b.exiting))
        .collect();
    assert_eq!(seen, [(6, 2, true), (8, 2, false)]);
    assert_eq!(r.counters.race_count, 0);
    let hint = r
        .hints
        .iter()
        .find(|h| h.rule == "exit-barrier")
        .expect("an exit-barrier hint");
    assert_eq!(hint.line, Some(6));
    assert!(
        hint.message.contains("line(s) 6 passed"),
        "{}",
        hint.message
    );
    // Every warp running every trip (m = 4): no barrier passes with a warp away, no hint.
    let r = ok(
        &ROWS.replace(
            "m = 3; y = zeros(3); expect y == arange(3) + 1;",
            "m = 4; y = zeros(4);",
        ),
        &[],
        block(1),
        block(64),
    );
    assert!(r.barriers.iter().all(|b| !b.exiting));
    assert!(r.hints.iter().all(|h| h.rule != "exit-barrier"));
}

#[test]
fn a_warp_that_returns_from_a_helper_or_skips_a_branch_releases_it_too() {
    // Warp 1 returns from `tile` (m = 1) and the kernel ends: warp 0's two barriers pass, and
    // y[0] = s[0] = 1, the last trip's store. Then a branch warp 1 never takes: its barrier
    // passes and warp 0 reads the reversed tile, out[t] = s[31 - t] = 31 - t for t < 32; warp 1
    // writes the same formula without shared memory.
    let helper = r#"
__device__ void tile(float* s, float* y, int m) {
    int warp = threadIdx.x / 32;
    if (warp >= m) return;
    for (int i = 0; i < 2; i++) { s[threadIdx.x] = i; __syncthreads(); }
    if ((threadIdx.x & 31) == 0) y[warp] = s[threadIdx.x];
}
__global__ void k(int m, float* y) {
    __shared__ float s[64];
    tile(s, y, m);
}
launch k { m = 1; y = full(2, -1); expect y == [1, -1]; }
"#;
    let r = ok(helper, &[], block(1), block(64));
    assert_eq!(r.counters.barriers, 2);
    let branch = r#"
__global__ void k(int* out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = t;
        __syncthreads();
        out[t] = s[31 - t];
    } else {
        out[t] = 31 - t;
    }
}
launch k { out = full(64, 7); expect out == 31 - arange(64); }
"#;
    let r = ok(branch, &[], block(1), block(64));
    assert_eq!(r.counters.barriers, 1);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn a_missing_warp_that_may_still_reach_a_barrier_holds_it_up() {
    let args = [("y", "zeros(8)")];
    let diverges = |src: &str, line: usize| {
        let f = err(src, &args, Some(block(1)), Some(block(64)));
        assert_eq!(codes(&f), ["simt::run::divergent_barrier"], "{src}");
        assert_eq!(position(&f).0, line, "{src}");
    };
    // Lanes 0..15 take rows 0 and 4, lanes 16..31 row 1 only: warp 0 splits at the second
    // trip's barrier (PTX's bar.sync is .aligned), exits or not.
    diverges(
        r#"
__global__ void k(float* y) {
    for (int row = threadIdx.x / 16; row < 5; row += 4) {
        __syncthreads();
        y[row] = 1;
    }
}
"#,
        4,
    );
    // Warp 1 `continue`s at i = 0: it comes back to the barrier a trip behind.
    diverges(
        r#"
__global__ void k(float* y) {
    for (int i = 0; i < 2; i++) {
        if (threadIdx.x >= 32 && i == 0) continue;
        __syncthreads();
    }
    y[0] = 1;
}
"#,
        5,
    );
    // Warp 1 leaves the inner loop after one trip, but the outer loop takes it back to it.
    diverges(
        r#"
__global__ void k(float* y) {
    for (int o = 0; o < 2; o++) {
        for (int row = threadIdx.x / 32; row < 3; row += 2) {
            __syncthreads();
        }
    }
    y[0] = 1;
}
"#,
        5,
    );
    // Warp 1 skips the branch and goes on to the barrier after it.
    diverges(
        r#"
__global__ void k(float* y) {
    if (threadIdx.x < 32) {
        __syncthreads();
    }
    __syncthreads();
    y[0] = 1;
}
"#,
        4,
    );
}

#[test]
fn a_barrier_later_in_the_code_that_a_missing_warp_cannot_reach_does_not_hold_it_up() {
    // CloverLeaf's reduction: `switch (r)` with a `__syncthreads()` inside an `if` in each
    // case. For r = 0 warp 1 skips case 0's `if`, leaves the switch by `break` and exits: it
    // never reaches case 1's barrier, which comes later in the code. The barrier passes once
    // warp 1 has exited; warp 0 then reads s[t + 32], which warp 1 wrote before it: out[t] =
    // t + 32 for t < 32, and out[32..] keeps the 7 warp 1 stored on its way out.
    let src = r#"
__global__ void k(float* out, int r) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    switch (r) {
    case 0:
        if (threadIdx.x < 32) { __syncthreads(); out[threadIdx.x] = s[threadIdx.x + 32]; }
        break;
    case 1:
        if (threadIdx.x < 32) { __syncthreads(); out[threadIdx.x] = -1; }
        break;
    }
    if (threadIdx.x >= 32) out[threadIdx.x] = 7;
}
launch k { r = 0; out = zeros(64); expect out == [32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]; }
"#;
    let r = ok(src, &[], block(1), block(64));
    assert!(r.races.is_empty());
    // The same with warp 1 going on to case 1's barrier (no `break` in case 0): it reaches a
    // barrier warp 0 is not at, which holds case 0's up.
    let falls = src.replacen("        break;\n    case 1:", "    case 1:", 1);
    assert_ne!(falls, src);
    let f = err(
        &falls,
        &[("out", "zeros(64)"), ("r", "0")],
        Some(block(1)),
        Some(block(64)),
    );
    assert_eq!(codes(&f), ["simt::run::divergent_barrier"]);
    assert_eq!(position(&f).0, 7);
}

/// Warp 0 (rows 0 and 2) and warp 1 (row 1) with m = 3: after trip 1's barrier warp 1 leaves
/// the loop; the barrier of trip 2 releases only when it has exited, so its code after the
/// loop runs alongside warp 0's trip 2 (before that barrier) and before all that follows it.
const AFTER: &str = r#"
__global__ void k(int m, float* y, float* z) {
    __shared__ float s[64];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int row = warp; row < m; row += 2) {
        TRIP
        __syncthreads();
    }
    AFTER
}
launch k { m = 3; y = zeros(64); z = zeros(64); }
"#;

fn after(trip: &str, tail: &str) -> String {
    AFTER.replace("TRIP", trip).replace("AFTER", tail)
}

#[test]
fn an_exiting_warps_last_code_races_with_the_trip_its_barrier_ends() {
    // Warp 0 writes s[0..31] on trip 2 (line 6); warp 1 reads them after the loop (line 9)
    // with no barrier between: a read after write, 32 lanes.
    let src = after(
        "if (row == 2) s[lane] = row;",
        "if (warp == 1) y[lane] = s[lane];",
    );
    let r = ok(&src, &[], block(1), block(64));
    assert_eq!(r.counters.race_count, 1, "{:?}", r.races);
    assert_eq!((r.races[0].line, r.races[0].other_line), (9, 6));
    // The same through global memory: warp 0 stores z[0..31] on trip 2, warp 1 loads them.
    let src = after(
        "if (row == 2) z[lane] = row;",
        "if (warp == 1) y[lane] = z[lane];",
    );
    let r = ok(&src, &[], block(1), block(64));
    assert_eq!(r.counters.race_count, 1, "{:?}", r.races);
    assert_eq!((r.races[0].line, r.races[0].other_line), (9, 6));
}

#[test]
fn an_exiting_warps_last_code_comes_before_what_follows_the_barrier() {
    // In the loop, warp 0 writes s[32..63] and warp 1 s[0..31]. Both warps write s[lane] and
    // y[lane] after the loop: warp 1 before trip 2's barrier
    // releases, warp 0 after it. Ordered, so no race, and warp 0's values are the ones left:
    // y = 0 + 1. Each warp reads back its own s[lane]: z[0..31] = 0, z[32..63] = 1.
    let src = after(
        "s[63 - threadIdx.x] = row;",
        "s[lane] = warp; y[lane] = warp + 1; __syncwarp(); z[threadIdx.x] = s[lane];",
    )
    .replace(
        "y = zeros(64); z = zeros(64); }",
        "y = zeros(32); z = zeros(64); expect y == ones(32); expect sum(z) == 32; }",
    );
    let r = ok(&src, &[], block(1), block(64));
    assert_eq!(r.counters.race_count, 0, "{:?}", r.races);
    assert!(r.barriers.iter().all(|b| b.exiting));
}

#[test]
fn an_error_in_an_exiting_warps_last_code_names_its_own_call() {
    // Warp 1 leaves body()'s loop after one trip and runs tail() ahead of the barrier it
    // releases; tail's store at out[32 + 1000] is out of bounds, and the report names the call
    // of tail (line 13, column 5), not the call of body that holds the barrier.
    let src = r#"
__device__ void tail(int* out, int t) {
    out[t + 1000] = 1;
}
__device__ void body(int m, int t) {
    int warp = t / 32;
    for (int row = warp; row < m; row += 2) {
        __syncthreads();
    }
}
__global__ void k(int m, int* out) {
    int t = threadIdx.x;
    body(m, t);
    tail(out, t);
}
launch k { m = 3; out = zeros(64); }
"#;
    let f = err(src, &[], Some(block(1)), Some(block(64)));
    assert_eq!(codes(&f), ["simt::run::out_of_bounds"]);
    let text = simt::cli::render(&f);
    let called = text
        .lines()
        .position(|l| l.contains("in the function called here"))
        .expect("a call site");
    assert!(
        text.lines()
            .take(called)
            .any(|l| l.contains("tail(out, t);")),
        "{text}"
    );
}
