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
fn the_last_lane_of_a_store_decides_what_a_later_warp_is_compared_with() {
    // Within warp 0 lanes store 0..31 into one word: memory keeps lane 31's 31. Warp 1 stores
    // 31 in every lane, which leaves the word as either order would: no race.
    let r = store_one_word("(threadIdx.x < 32) ? threadIdx.x : 31");
    assert_eq!(r.counters.race_count, 0);
    // Warp 1 storing 0 (lane 0's value, not lane 31's) is a WAW.
    let r = store_one_word("(threadIdx.x < 32) ? threadIdx.x : 0");
    assert_eq!(r.counters.race_count, 1);
}
