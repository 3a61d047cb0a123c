//! Cooperative groups: the block, warp tiles and their collectives, each checked into the
//! barrier, shuffle, vote or arithmetic it stands for.

mod common;
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
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(
        common::describe(&f).contains("grid-wide group"),
        "{}",
        common::describe(&f)
    );
}
