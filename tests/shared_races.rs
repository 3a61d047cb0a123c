//! Races on shared memory between the warps of one block where the stored bits decide: stores
//! of one value by several warps leave a defined result (as the same store's lanes do), stores
//! of different values do not.

use crate::common::ok;
use simt::exec::RaceKind;

/// Every thread of a 64-thread block (2 warps) stores into `s[0]` what `value` gives it, then
/// thread 0 copies it out after a barrier.
fn store_one_word(value: &str) -> simt::report::Report {
    let src = format!(
        "__global__ void k(float* out) {{\n    __shared__ float s[1];\n    s[0] = {value};\n    __syncthreads();\n    if (threadIdx.x == 0) out[0] = s[0];\n}}\n"
    );
    ok(&src, &[("out", "zeros(1)")], [1, 1, 1], [64, 1, 1])
}

#[test]
fn warps_storing_one_value_into_a_shared_word_do_not_race() {
    // cuSZ's Lorenzo predictor zeroes a halo column from every warp: `s[y + 1][0] = 0`.
    let r = store_one_word("0.0f");
    assert_eq!(r.counters.race_count, 0);
    assert!(r.races.is_empty());
}

#[test]
fn warps_storing_their_own_values_into_a_shared_word_race() {
    // Warp 0 stores 0, warp 1 stores 1: the word keeps whichever lands last. One WAW, warp 1
    // against warp 0, in one warp instruction on one word.
    let r = store_one_word("threadIdx.x / 32");
    assert_eq!(r.counters.race_count, 1);
    let g = &r.races[0].race;
    assert_eq!(
        (g.first.kind, g.first.warp, g.first.other_warp),
        (RaceKind::WriteAfterWrite, 1, 0)
    );
    assert_eq!((g.warps, g.words), (1, 1));
}

#[test]
fn a_warp_storing_several_values_into_one_word_races_with_any_other_warps_store() {
    // Warp 0's lanes store 0..31 into one word: which lane's value the word keeps is not
    // defined, so warp 1's store of 31 (or of 0) may or may not leave it as either order of
    // the warps would: a WAW in both cases.
    let r = store_one_word("(threadIdx.x < 32) ? threadIdx.x : 31");
    assert_eq!(r.counters.race_count, 1);
    let r = store_one_word("(threadIdx.x < 32) ? threadIdx.x : 0");
    assert_eq!(r.counters.race_count, 1);
    // Warp 1 storing one value in lane 0 and others elsewhere after warp 0's uniform 0: the
    // word ends 0 or 31, a WAW (a first-lane comparison alone would have missed it).
    let r = store_one_word("(threadIdx.x < 33) ? 0 : threadIdx.x % 32");
    assert_eq!(r.counters.race_count, 1);
}

#[test]
fn warps_storing_the_same_values_into_the_same_words_do_not_race() {
    // Both warps of a 64-thread block store lane l's value l into s[l] (two warps loading one
    // tile row): each word gets one value whatever the order.
    let src = "__global__ void k(float* out) {\n    __shared__ float s[32];\n    s[threadIdx.x % 32] = threadIdx.x % 32;\n    __syncthreads();\n    out[threadIdx.x] = s[threadIdx.x % 32];\n}\n";
    let r = ok(src, &[("out", "zeros(64)")], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.race_count, 0);
    // Warp 1 storing l + 1 instead: 32 words, each a WAW, in one warp instruction.
    let r = ok(
        &src.replace(
            "s[threadIdx.x % 32] = threadIdx.x % 32;",
            "s[threadIdx.x % 32] = threadIdx.x % 32 + threadIdx.x / 32;",
        ),
        &[("out", "zeros(64)")],
        [1, 1, 1],
        [64, 1, 1],
    );
    assert_eq!((r.counters.race_count, r.races[0].race.words), (1, 32));
}

#[test]
fn a_warp_reading_back_the_word_every_warp_stored_alike_does_not_race() {
    // Kernel Tuner's ExpDist: each of 4 warps stores sh[tx] = g[tx] (the same bits from every
    // warp), then reads sh[tx] back without a barrier. Its own store came first and no warp
    // stored other bits, so it reads g[tx] in any order: out = arange(128) % 32, no race.
    let src = r#"
__global__ void k(const float* g, float* out) {
    __shared__ float sh[32];
    int tx = threadIdx.x, ty = threadIdx.y;
    sh[tx] = g[tx];
    out[ty * 32 + tx] = sh[tx];
}
launch k { g = arange(32); out = zeros(128); expect out == arange(128) % 32; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 4, 1]);
    assert!(r.expects_passed());
    assert_eq!(r.counters.race_count, 0);
    // Only warp 0 stores, then every warp reads: warps 1..3 may read before the store lands.
    let src = r#"
__global__ void k(const float* g, float* out) {
    __shared__ float sh[32];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (ty == 0) sh[tx] = g[tx];
    out[ty * 32 + tx] = sh[tx];
}
launch k { g = arange(32); out = zeros(128); }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 4, 1]);
    assert_eq!(r.counters.race_count, 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::ReadAfterWrite);
}

#[test]
fn lanes_of_one_warp_storing_different_bits_far_apart_still_race_with_another_warp() {
    // Warp 0's lanes 0 and 1 store 1 and 2 into sh[0] while lane 31 stores into sh[100] (a
    // store spanning more than 64 words), then warp 1 stores 2 into sh[0]: which of warp 0's
    // lanes won is not defined, so the word ends 1 or 2: a WAW, however far apart the lanes.
    let src = r#"
__global__ void k(float* out) {
    __shared__ float sh[128];
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int idx = (lane < 2) ? 0 : 100;
    float v = (w == 0) ? (float)(lane + 1) : 2.0f;
    if (w == 0 ? (lane < 2 || lane == 31) : lane == 0) sh[idx] = (idx == 100) ? 5.0f : v;
    out[threadIdx.x] = sh[0];
}
"#;
    let r = ok(src, &[("out", "zeros(64)")], [1, 1, 1], [64, 1, 1]);
    assert_eq!(r.counters.race_count, 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::WriteAfterWrite);
}

#[test]
fn lanes_of_one_warp_adding_into_a_shared_word_lose_updates() {
    // The shared-memory histogram without atomics: thread 0 zeroes the bins, then each of the
    // 32 lanes of the one warp adds 1 to bin t % 4. Eight lanes share each bin, all read 0 and
    // all store 1: bins end [1, 1, 1, 1], not [8, 8, 8, 8]. One lost update at the `+=` (line
    // 5), named by its first pair of lanes (0 and 4, bin 0) and, as a global-WAW is, filed
    // for that one word. No warp races another: one warp.
    let src = r#"__global__ void k(int* out) {
    __shared__ int bins[4];
    if (threadIdx.x < 4) bins[threadIdx.x] = 0;
    __syncthreads();
    bins[threadIdx.x % 4] += 1;
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = bins[threadIdx.x];
}
launch k { out = zeros(4); grid = 1; block = 32; expect out == [1, 1, 1, 1]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    assert_eq!(r.counters.race_count, 1);
    assert_eq!(r.races.len(), 1);
    let g = &r.races[0];
    assert_eq!(g.race.first.kind, RaceKind::LostUpdate);
    assert_eq!(
        (g.race.first.array.as_str(), g.race.first.index),
        ("bins", 0)
    );
    assert_eq!((g.line, g.race.words), (5, 1));
    // With atomicAdd every lane's update lands: [8, 8, 8, 8], no race.
    let fixed = src
        .replace(
            "bins[threadIdx.x % 4] += 1;",
            "atomicAdd(&bins[threadIdx.x % 4], 1);",
        )
        .replace("[1, 1, 1, 1]", "[8, 8, 8, 8]");
    let r = ok(&fixed, &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    assert_eq!(r.counters.race_count, 0);
}
