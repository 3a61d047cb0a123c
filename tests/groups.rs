//! Cooperative groups: the block, warp tiles and their collectives, each checked into the
//! barrier, shuffle, vote or arithmetic it stands for.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn block_and_warp_tiles_compute_what_cuda_defines() {
    // Block of 64 threads = two warps, each split into four tiles of 8.
    // rank[t] = block.thread_rank() = t; tile8[t] = t % 8; meta[t] = t / 8 (eight tiles of 8);
    // down[t] = tile.shfl_down(t, 1): t + 1 inside the tile, t itself on a tile's last lane;
    // any[t] = tile.any(t % 8 == 7) = 1 in every tile; ballot[t] = tile.ballot(t % 2 == 0) =
    // lanes 0, 2, 4, 6 of the tile = 0b01010101 = 85; sum[t] = cg::reduce(warp, t) = the sum of
    // the warp's thread ranks: 0 + ... + 31 = 496 and 32 + ... + 63 = 1520.
    let src = r#"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned* rank, unsigned* tile8, unsigned* meta, int* down, unsigned* any,
                  unsigned* ballot, int* sum) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    auto warp = cg::tiled_partition<32>(block);
    unsigned t = block.thread_rank();
    rank[t] = t;
    tile8[t] = tile.thread_rank();
    meta[t] = tile.meta_group_rank() + 100 * (tile.meta_group_size() - 8);
    down[t] = tile.shfl_down((int)t, 1);
    any[t] = tile.any(t % 8 == 7);
    ballot[t] = tile.ballot(t % 2 == 0);
    block.sync();
    cg::sync(block);
    sum[t] = cg::reduce(warp, (int)t, cg::plus<int>());
}
"#;
    let list = |f: &dyn Fn(u32) -> u32| {
        let v: Vec<String> = (0..64).map(|t| f(t).to_string()).collect();
        format!("[{}]", v.join(", "))
    };
    let launch = format!(
        "launch k {{ rank = zeros(64); tile8 = zeros(64); meta = zeros(64); down = zeros(64); \
         any = zeros(64); ballot = zeros(64); sum = zeros(64); \
         expect rank == arange(64); expect tile8 == arange(64) % 8; expect meta == {}; \
         expect down == {}; expect any == 1; expect ballot == 85; expect sum == {}; }}\n",
        list(&|t| t / 8),
        list(&|t| if t % 8 == 7 { t } else { t + 1 }),
        list(&|t| if t < 32 { 496 } else { 1520 }),
    );
    let r = ok(&format!("{src}{launch}"), &[], ONE, [64, 1, 1]);
    // Two block syncs: 2 barriers. The 32-lane reduce is 5 shuffle-and-add rounds per warp.
    assert_eq!(r.counters.barriers, 2);
}

#[test]
fn a_grid_sync_needs_a_cooperative_launch() {
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(float* a) {
    cg::grid_group grid = cg::this_grid();
    grid.sync();
}
"#;
    let f = err(src, &[("a", "zeros(1)")], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::run::not_cooperative"]);
    assert!(
        common::describe(&f).contains("not cooperative"),
        "{}",
        common::describe(&f)
    );
}

#[test]
fn a_coalesced_group_is_the_lanes_active_where_it_was_made() {
    // Block of 64 = two warps; threads with t % 3 != 0 take the branch. In warp 0 the active
    // lanes are 1, 2, 4, 5, ..., 31: 32 - 11 multiples of 3 (0, 3, ..., 30) = 21 lanes; in warp 1
    // (t = 32..63) the multiples of 3 are 33, ..., 63, 11 again, so 21 lanes. A member's rank is
    // the number of active lanes below it: t - ceil(t / 3) in warp 0, and counted per warp in
    // warp 1. shfl(t, 0) reads the lowest active lane: t = 1 in warp 0, t = 32 in warp 1. Each
    // group's rank-0 thread adds the group's size to the counter (warp-aggregated atomics, as
    // cuda-samples' warpAggregatedAtomicsCG does): 21 + 21 = 42. Inactive threads write -1.
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* rank, int* size, int* lead, int* count) {
    int t = threadIdx.x;
    rank[t] = -1; size[t] = -1; lead[t] = -1;
    if (t % 3 != 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        rank[t] = active.thread_rank();
        size[t] = active.size();
        lead[t] = active.shfl(t, 0);
        if (active.thread_rank() == 0) atomicAdd(count, active.size());
    }
}
"#;
    let per_thread = |f: &dyn Fn(u32) -> i64| {
        let v: Vec<String> = (0..64).map(|t| f(t).to_string()).collect();
        format!("[{}]", v.join(", "))
    };
    let rank = |t: u32| {
        let warp = t / 32 * 32;
        (warp..t).filter(|l| l % 3 != 0).count() as i64
    };
    let launch = format!(
        "launch k {{ rank = zeros(64); size = zeros(64); lead = zeros(64); count = zeros(1); \
         expect rank == {}; expect size == {}; expect lead == {}; expect count[0] == 42; }}\n",
        per_thread(&|t| if t % 3 == 0 { -1 } else { rank(t) }),
        per_thread(&|t| if t % 3 == 0 { -1 } else { 21 }),
        per_thread(&|t| match (t % 3, t / 32) {
            (0, _) => -1,
            (_, 0) => 1,
            _ => 32,
        }),
    );
    ok(&format!("{src}{launch}"), &[], ONE, [64, 1, 1]);
}

#[test]
fn coalesced_groups_shuffle_by_rank() {
    // The even lanes of a warp form a coalesced group of 16 (rank r is lane 2r). As
    // cooperative_groups defines them: shfl(v, 3) reads rank 3, lane 6; shfl_down(v, 1) reads
    // the next even lane, the last rank (lane 30) its own value; shfl_up(v, 2) reads lane
    // t - 4, ranks 0 and 1 (lanes 0, 2) their own. Odd lanes store -1.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* from, int* down, int* up) {
    int t = threadIdx.x;
    from[t] = down[t] = up[t] = -1;
    if (t % 2 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        from[t] = g.shfl(t, 3);
        down[t] = g.shfl_down(t, 1);
        up[t] = g.shfl_up(t, 2);
    }
}
"#;
    let list = |f: &dyn Fn(i32) -> i32| {
        let v: Vec<String> = (0..32)
            .map(|t| if t % 2 == 0 { f(t) } else { -1 }.to_string())
            .collect();
        format!("[{}]", v.join(", "))
    };
    let src = format!(
        "{src}launch k {{ from = zeros(32); down = zeros(32); up = zeros(32); \
         expect from == {}; expect down == {}; expect up == {}; }}\n",
        list(&|_| 6),
        list(&|t| (t + 2).min(30)),
        list(&|t| if t < 4 { t } else { t - 4 }),
    );
    let r = ok(&src, &[], ONE, [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_whole_warp_coalesced_group_shuffles_as_the_warp_does() {
    // With all 32 lanes in the group cooperative_groups calls __shfl_sync(mask, v, r) itself:
    // rank 33 is lane 33 mod 32 = 1.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* a) {
    cg::coalesced_group g = cg::coalesced_threads();
    a[threadIdx.x] = g.shfl((int)threadIdx.x, 33);
}
launch k { a = zeros(32); expect a == 1; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn coalesced_groups_say_what_they_cannot_do() {
    // A block declared from coalesced_threads() is the wrong kind of group.
    let wrong_kind = r#"
namespace cg = cooperative_groups;
__global__ void k(int* a) {
    cg::thread_block b = cg::coalesced_threads();
    a[threadIdx.x] = 1;
}
"#;
    let f = err(
        wrong_kind,
        &[("a", "zeros(32)")],
        Some(ONE),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::initialiser"]);
}

#[test]
fn a_thread_group_parameter_takes_any_group() {
    // OLCF's reduce(thread_group g, ...) pattern: one function sums over the block and over
    // 16-thread tiles made with the run-time form tiled_partition(b, 16). Thread rank 0 of each
    // group ends with its group's sum: the block 0 + ... + 63 = 2016; tile k, 16 consecutive
    // ranks from 16k: 16 * 16k + (0 + ... + 15) = 256k + 120, so 120, 376, 632, 888.
    // Barriers: the block sum runs log2(64) = 6 rounds of two g.sync() = 12, plus b.sync() = 13;
    // a tile's sync is a warp sync, not a barrier.
    let src = r#"
namespace cg = cooperative_groups;
__device__ int sum(cg::thread_group g, int* x, int v) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = v; g.sync();
        if (lane < i) v += x[lane + i];
        g.sync();
    }
    return v;
}
__global__ void k(int* whole, int* part) {
    __shared__ int s[64];
    cg::thread_block b = cg::this_thread_block();
    cg::thread_group t = cg::tiled_partition(b, 16);
    int r = b.thread_rank();
    whole[r] = sum(b, s, r);
    b.sync();
    part[r] = sum(t, s + r / 16 * 16, r);
}
launch k { whole = zeros(64); part = zeros(64);
    expect whole[0] == 2016;
    expect part[0] == 120; expect part[16] == 376; expect part[32] == 632; expect part[48] == 888; }
"#;
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.barriers, 13);
    assert!(r.races.is_empty(), "{:?}", r.races);
}

#[test]
fn a_template_type_parameter_takes_a_group() {
    // `template <typename group_t> warp_sum(group_t g, float v)` called with a 32-lane tile
    // and with a 16-lane one: the tile's shfl_down tree over ones gives the tile size on lane 0
    // of each tile (32; 16 and 16), and g.size() is the tile's size in each instance.
    let src = r#"
namespace cg = cooperative_groups;
template <typename group_t>
__device__ float warp_sum(group_t g, float v) {
    for (int o = g.size() / 2; o > 0; o >>= 1) v += g.shfl_down(v, o);
    return v;
}
__global__ void k(const float* a, float* w, float* h) {
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
    cg::thread_block_tile<16> u = cg::tiled_partition<16>(cg::this_thread_block());
    float s = warp_sum(t, a[threadIdx.x]);
    float q = warp_sum(u, a[threadIdx.x]);
    if (t.thread_rank() == 0) w[0] = s;
    if (u.thread_rank() == 0) h[threadIdx.x / 16] = q;
}
launch k { a = ones(32); w = zeros(1); h = zeros(2); expect w == [32]; expect h == [16, 16]; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_grid_group_gives_ranks_and_sizes_without_a_cooperative_launch() {
    // Grid (2, 2) of blocks of 8: block (bx, by) has rank bx + 2 by; thread t of it has grid
    // rank 8 (bx + 2 by) + t = its slot. size = 4 blocks × 8 = 32, num_blocks = 4.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(unsigned long long* rank, unsigned long long* sizes) {
    cg::grid_group g = cg::this_grid();
    unsigned long long r = g.thread_rank();
    rank[r] = r;
    if (r == 0) { sizes[0] = g.size(); sizes[1] = g.num_blocks(); }
    if (threadIdx.x == 0) sizes[2 + g.block_rank()] = blockIdx.x + 2 * blockIdx.y;
}
launch k { rank = zeros(32); sizes = zeros(6); grid = (2, 2); block = 8;
    expect rank == arange(32); expect sizes == [32, 4, 0, 1, 2, 3]; }
"#;
    ok(src, &[], [2, 2, 1], [8, 1, 1]);
}

#[test]
fn a_group_of_the_wrong_kind_is_an_error() {
    // A 16-thread tile is neither a block nor a 32-thread tile.
    for (decl, call, code) in [
        (
            "cg::thread_block b2 = cg::tiled_partition(b, 16);",
            "",
            "simt::check::initialiser",
        ),
        (
            "",
            "f(cg::tiled_partition<16>(b));",
            "simt::check::argument_type",
        ),
    ] {
        let src = format!(
            "namespace cg = cooperative_groups;\n\
             __device__ void f(cg::thread_block_tile<32> w) {{ w.sync(); }}\n\
             __global__ void k(int* a) {{ cg::thread_block b = cg::this_thread_block(); {decl} {call} a[0] = 1; }}"
        );
        let f = err(&src, &[("a", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), [code], "{decl}{call}");
    }
}

/// Issue 13 (cuda-samples' shfl_scan, `result.y = tile.shfl_xor(result.y, 1)` of a `uint4`
/// member): a tile's shuffle of a vector is one 32-bit shuffle per component, so it computes
/// and costs what the four component shuffles written out do.
#[test]
fn a_tile_shuffle_of_a_vector_member_shuffles_each_component() {
    let whole = "r.b = tile.shfl_xor(r.a, 1);\n    uint4 v = tile.shfl_down(r.a, 2);";
    let parts = "r.b.x = tile.shfl_xor(r.a.x, 1); r.b.y = tile.shfl_xor(r.a.y, 1);
    r.b.z = tile.shfl_xor(r.a.z, 1); r.b.w = tile.shfl_xor(r.a.w, 1);
    uint4 v;
    v.x = tile.shfl_down(r.a.x, 2); v.y = tile.shfl_down(r.a.y, 2);
    v.z = tile.shfl_down(r.a.z, 2); v.w = tile.shfl_down(r.a.w, 2);";
    // Lane t's r.a = (t, 10t, 100t, 1000t). r.b is lane t ^ 1's: s = t ^ 1 gives (s, 10s,
    // 100s, 1000s); v is lane t + 2's inside the 32-lane tile, t's own on lanes 30 and 31.
    let want = |f: &dyn Fn(u32) -> u32| {
        let v: Vec<String> = (0..32)
            .flat_map(|t| {
                let s = f(t);
                [s, 10 * s, 100 * s, 1000 * s]
            })
            .map(|x| x.to_string())
            .collect();
        format!("[{}]", v.join(", "))
    };
    let (xor, down) = (want(&|t| t ^ 1), want(&|t| if t < 30 { t + 2 } else { t }));
    let mut instructions = Vec::new();
    for body in [whole, parts] {
        let src = format!(
            r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct R {{ uint4 a; uint4 b; }};
__global__ void k(uint4* b, uint4* d) {{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    unsigned t = threadIdx.x;
    R r;
    r.a = make_uint4(t, 10 * t, 100 * t, 1000 * t);
    {body}
    b[t] = r.b;
    d[t] = v;
}}
launch k {{ b = zeros(128); d = zeros(128); expect b == {xor}; expect d == {down}; }}
"#
        );
        instructions.push(ok(&src, &[], ONE, [32, 1, 1]).counters.warp_instr);
    }
    assert_eq!(instructions[0], instructions[1]);
}

/// `[f(0), f(1), ..., f(n - 1)]` in the launch-section language.
fn list(n: u32, f: &dyn Fn(u32) -> i64) -> String {
    let v: Vec<String> = (0..n).map(|t| f(t).to_string()).collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn partitions_reduce_and_scan_over_their_own_lanes() {
    // One warp. binary_partition(warp, t even): the even lanes and the odd lanes, 16 each.
    // sum: 0 + 2 + ... + 30 = 2 * 120 = 240 for even t, 1 + 3 + ... + 31 = 256 for odd t.
    // rank: t / 2 (the members below). incl: an inclusive scan of 1s is rank + 1.
    // excl: an exclusive scan of t: for t = 2r the even lanes below sum to 2 * (0 + ... + r-1)
    // = r(r - 1); for t = 2r + 1 the odd lanes below sum to 1 + 3 + ... + (2r - 1) = r².
    // labeled_partition(warp, t % 4): four groups of 8; greater: the largest member,
    // 28 + t % 4. bits: bit_or over the group of t % 4 of (1 << (t / 4)) = 0xff.
    let src = r#"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int* sum, unsigned* size, unsigned* rank, int* incl, int* excl, int* most,
                  int* bits) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int t = threadIdx.x;
    cg::coalesced_group part = cg::binary_partition(warp, t % 2 == 0);
    sum[t] = cg::reduce(part, t, cg::plus<int>());
    size[t] = part.size();
    rank[t] = part.thread_rank();
    incl[t] = cg::inclusive_scan(part, 1);
    excl[t] = cg::exclusive_scan(part, t, cg::plus<int>());
    auto fours = cg::labeled_partition(warp, t % 4);
    most[t] = cg::reduce(fours, t, cg::greater<int>());
    bits[t] = cg::reduce(fours, 1 << (t / 4), cg::bit_or<int>());
}
"#;
    let launch = format!(
        "launch k {{ sum = zeros(32); size = zeros(32); rank = zeros(32); incl = zeros(32); \
         excl = zeros(32); most = zeros(32); bits = zeros(32); \
         expect sum == {}; expect size == 16; expect rank == {}; expect incl == {}; \
         expect excl == {}; expect most == {}; expect bits == 255; }}\n",
        list(32, &|t| if t % 2 == 0 { 240 } else { 256 }),
        list(32, &|t| i64::from(t / 2)),
        list(32, &|t| i64::from(t / 2 + 1)),
        list(32, &|t| {
            let r = i64::from(t / 2);
            if t % 2 == 0 {
                r * (r - 1)
            } else {
                r * r
            }
        }),
        list(32, &|t| 28 + i64::from(t % 4)),
    );
    let r = ok(&format!("{src}{launch}"), &[], ONE, [32, 1, 1]);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn a_coalesced_reduce_of_the_whole_warp_and_of_a_part() {
    // all: coalesced_threads() of a whole warp reduces by shfl_down: 0 + ... + 31 = 496.
    // part: inside `if (t < 10)`, lanes 0..9: 0 + ... + 9 = 45; its scan: t(t + 1) / 2; other
    // lanes keep -1. tile: an inclusive scan over tiles of 8 of t: from the tile's first lane
    // f = t - t % 8 to t, (f + t)(t - f + 1) / 2; its exclusive scan drops t itself.
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* all, int* part, int* scan, int* tile, int* tilex) {
    int t = threadIdx.x;
    cg::coalesced_group everyone = cg::coalesced_threads();
    all[t] = cg::reduce(everyone, t, cg::plus<int>());
    part[t] = -1;
    scan[t] = -1;
    if (t < 10) {
        cg::coalesced_group few = cg::coalesced_threads();
        part[t] = cg::reduce(few, t, cg::plus<int>());
        scan[t] = cg::inclusive_scan(few, t, cg::plus<int>());
    }
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(cg::this_thread_block());
    tile[t] = cg::inclusive_scan(eight, t);
    tilex[t] = cg::exclusive_scan(eight, t);
}
"#;
    let tile = |t: u32| {
        let (f, t) = (i64::from(t - t % 8), i64::from(t));
        (f + t) * (t - f + 1) / 2
    };
    let launch = format!(
        "launch k {{ all = zeros(32); part = zeros(32); scan = zeros(32); tile = zeros(32); \
         tilex = zeros(32); expect all == 496; expect part == {}; expect scan == {}; \
         expect tile == {}; expect tilex == {}; }}\n",
        list(32, &|t| if t < 10 { 45 } else { -1 }),
        list(32, &|t| if t < 10 {
            i64::from(t * (t + 1) / 2)
        } else {
            -1
        }),
        list(32, &tile),
        list(32, &|t| tile(t) - i64::from(t)),
    );
    ok(&format!("{src}{launch}"), &[], ONE, [32, 1, 1]);
}

#[test]
fn a_partition_needs_a_name() {
    let src = r#"
namespace cg = cooperative_groups;
__global__ void k(int* out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(cg::binary_partition(warp, threadIdx.x < 3), 1, cg::plus<int>());
}
"#;
    let f = err(src, &[("out", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn a_tile_parameter_of_a_device_function_takes_the_tile() {
    // `__device__ float tile_sum(cg::thread_block_tile<8> g, float v)`: a tree of shfl_down over
    // 8 lanes sums 8 ones, so lane 0 of each tile holds 8; `thread_block_tile<8, cg::thread_block>`
    // (its parent named) is the same type. The template form deduces M = 8 from the tile, or
    // takes it given. simt used to read the tile parameter as a struct, drop the
    // candidate and call `tile_sum` unknown.
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float tile_sum(cg::thread_block_tile<8> g, float val) {
    for (int i = g.size() / 2; i > 0; i /= 2) val += g.shfl_down(val, i);
    return val;
}
__device__ float tile_sum_p(cg::thread_block_tile<8, cg::thread_block> g, float val) {
    for (int i = g.size() / 2; i > 0; i /= 2) val += g.shfl_down(val, i);
    return val;
}
template <typename T, int M>
__device__ T tile_sum_t(cg::thread_block_tile<M> g, T val) {
    for (int i = g.size() / 2; i > 0; i /= 2) val += g.shfl_down(val, i);
    return val;
}
__global__ void k(float* out) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    float v = CALL;
    if (tile.thread_rank() == 0) out[threadIdx.x / 8] = v;
}
launch k { out = zeros(4); expect out == 8; }
"#;
    for call in [
        "tile_sum(tile, 1.0f)",
        "tile_sum_p(tile, 1.0f)",
        "tile_sum_t(tile, 1.0f)",
        "tile_sum_t<float, 8>(tile, 1.0f)",
    ] {
        ok(&src.replace("CALL", call), &[], [1, 1, 1], [32, 1, 1]);
    }
}

#[test]
fn an_overload_for_the_tiles_own_type_beats_thread_group() {
    // `f(cg::thread_group, v)` returns 1, `f(cg::thread_block_tile<16>, v)` 16, and
    // `f(cg::thread_block_tile<8>, v)` 8. A tile of 16 fits its own type exactly and
    // thread_group by conversion, the tile of 8 not at all: 16, as g++ chooses. simt took the
    // first in the file, 1.
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float f(cg::thread_group g, float v) { return 1.0f; }
__device__ float f(cg::thread_block_tile<8> g, float v) { return 8.0f; }
__device__ float f(cg::thread_block_tile<16> g, float v) { return 16.0f; }
__global__ void k(float* out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    out[threadIdx.x] = f(tile, 1.0f) + f(cg::this_thread_block(), 0.0f);
}
launch k { out = zeros(32); expect out == 17; }
"#;
    ok(src, &[], [1, 1, 1], [32, 1, 1]);
}

/// `cg::thread_block_tile g = cg::tiled_partition<8>(block);` with the tile's size deduced
/// from its initialiser (C++17, punica's BGMV expand; it was an unknown type). Each tile of 8
/// sums its lanes by shfl_down and broadcasts lane 0's sum: tile k holds 8k..8k+7, sum 64k + 28.
/// A deduced tile cannot hold a coalesced group.
#[test]
fn a_tile_declared_without_its_size_takes_its_initialisers() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* out) {
    auto block = cg::this_thread_block();
    cg::thread_block_tile g = cg::tiled_partition<8>(block);
    float s = threadIdx.x;
    for (int o = 4; o > 0; o /= 2) s += g.shfl_down(s, o);
    s = g.shfl(s, 0);
    out[threadIdx.x] = s + g.size() - 8;
}
launch k { out = zeros(32); expect out == (arange(32) / 8) * 64 + 28; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    let bad = src.replace("cg::tiled_partition<8>(block)", "cg::coalesced_threads()");
    let f = err(&bad, &[], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f)[0], "simt::check::initialiser");
}
