//! Asynchronous copies (`cuda::memcpy_async`, `__pipeline_memcpy_async`, `cg::memcpy_async`):
//! their data after the wait, their traffic as LDGSTS, the races of touching their bytes before
//! the wait, and the diagnostics of their barriers and pipelines used wrongly.

use crate::common;
use common::{codes, err, ok};
use simt::exec::RaceKind;

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn a_two_stage_pipeline_copies_64_floats() {
    // 32 threads; stage k copies a[32k + t] into s[k][t] (one float per thread), both stages
    // committed before the first wait. out[t] = s[0][t] + s[1][t] = t + (32 + t) = 2t + 32 with
    // a = arange(64).
    // Traffic: each stage is one LDGSTS per warp: a load of 32 consecutive floats (128 bytes, 4
    // sectors) and a store of 32 consecutive words (1 wavefront). So 2 global loads, 8 sectors;
    // shared: 2 stores + the 2 reads of the sums = 4 instructions, 4 wavefronts; one global
    // store of 32 floats (4 sectors). No race: each read follows the wait of its stage.
    let src = r#"
#include <cuda/pipeline>
__global__ void k(const float* a, float* out) {
    __shared__ float s[2][32];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    for (int stage = 0; stage < 2; stage++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&s[stage][t], &a[stage * 32 + t], sizeof(float), pipe);
        pipe.producer_commit();
    }
    float sum = 0.0f;
    for (int stage = 0; stage < 2; stage++) {
        pipe.consumer_wait();
        sum += s[stage][t];
        pipe.consumer_release();
    }
    out[t] = sum;
}
launch k { a = arange(64); out = zeros(32); expect out == 2 * arange(32) + 32; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 8));
    assert_eq!((c.smem_instr, c.smem_wavefronts), (4, 4));
    assert_eq!((c.gst_instr, c.gst_sectors), (1, 4));
    assert_eq!(c.race_count, 0);
}

#[test]
fn a_16_byte_copy_is_one_ldgsts_128_per_warp() {
    // `cuda::aligned_size_t<16>(16)`: each of 32 threads copies 4 floats, a[4t .. 4t+3], in one
    // 16-byte piece: one load of 512 consecutive bytes (16 sectors) and one shared store of 512
    // bytes (4 wavefronts of 128 bytes). out[t] = s[4t] + s[4t + 3] = 4t + 4t + 3 = 8t + 3.
    let src = r#"
#include <cuda/pipeline>
__global__ void k(const float* a, float* out) {
    __shared__ alignas(alignof(float4)) float s[128];
    auto pipe = cuda::make_pipeline();
    const auto shape = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
    int t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&s[4 * t], &a[4 * t], shape, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[t] = s[4 * t] + s[4 * t + 3];
    pipe.consumer_release();
}
launch k { a = arange(128); out = zeros(32); expect out == 8 * arange(32) + 3; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.gld_instr, c.gld_sectors), (1, 16));
    // The store: 1 instruction, 4 wavefronts; the two reads: stride-4 words, 4-way bank
    // conflicts each (lanes t and t + 8 share a bank): 4 wavefronts each.
    assert_eq!((c.smem_instr, c.smem_wavefronts), (3, 12));
}

#[test]
fn reading_a_copy_before_its_wait_is_a_race() {
    // The read of s[t] on line 8 comes before consumer_wait (line 9): the copy of line 6 may
    // not have landed. Reported once per warp instruction: 2 warps of 64 threads.
    let src = r#"#include <cuda/pipeline>
__global__ void k(const float* a, float* out) {
    __shared__ float s[64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    cuda::memcpy_async(&s[t], &a[t], sizeof(float), pipe);
    pipe.producer_commit();
    float early = s[t];
    pipe.consumer_wait();
    out[t] = early + s[t];
}
launch k { a = arange(64); out = zeros(64); }
"#;
    let r = ok(src, &[], ONE, b(64));
    assert_eq!(r.counters.race_count, 1);
    assert_eq!(r.races.len(), 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::AsyncCopy);
    assert_eq!((r.races[0].line, r.races[0].other_line), (8, 6));
    assert_eq!(r.races[0].race.warps, 2);
}

#[test]
fn writing_a_copy_source_before_its_wait_is_a_race() {
    // a[t] = 0 on line 8 overwrites bytes the copy of line 6 still reads.
    let src = r#"#include <cuda_pipeline.h>
__global__ void k(float* a, float* out) {
    __shared__ float s[32];
    int t = threadIdx.x;
    // one copy per thread, the primitive pipeline
    __pipeline_memcpy_async(&s[t], &a[t], sizeof(float));
    __pipeline_commit();
    a[t] = 0.0f;
    __pipeline_wait_prior(0);
    out[t] = s[t];
}
launch k { a = arange(32); out = zeros(32); }
"#;
    let r = ok(src, &[], ONE, b(32));
    assert_eq!(r.races.len(), 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::AsyncCopy);
    assert_eq!((r.races[0].line, r.races[0].other_line), (8, 6));
}

#[test]
fn a_barrier_completes_the_copies_attached_to_it() {
    // 64 threads, two warps: each copies a[t] into s[t] attached to the barrier, then reads the
    // other warp's word s[(t + 32) % 64] after arrive_and_wait: no race. out[t] = (t + 32) % 64.
    // Barriers: __syncthreads after init, and the arrive_and_wait, then an arrive + wait: 3.
    let src = r#"
#include <cuda/barrier>
__global__ void k(const float* a, float* out) {
    __shared__ float s[64];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) {
        init(&bar, blockDim.x);
    }
    __syncthreads();
    cuda::memcpy_async(&s[t], &a[t], sizeof(float), bar);
    bar.arrive_and_wait();
    float v = s[(t + 32) % 64];
    auto token = bar.arrive();
    bar.wait(std::move(token));
    out[t] = v;
}
launch k { a = arange(64); out = zeros(64); expect out == (arange(64) + 32) % 64; }
"#;
    let c = ok(src, &[], ONE, b(64)).counters;
    assert_eq!(c.barriers, 3);
    assert_eq!(c.race_count, 0);
}

#[test]
fn a_block_copy_strides_its_pieces_over_the_threads() {
    // cg::memcpy_async(block, s, a, 256 bytes) with 32 threads: 4-byte pieces (float's
    // alignment), thread t copies floats t and t + 32. out[t] = s[t] + s[63 - t] = 63.
    // cg::wait(block) syncs the block: 1 barrier. Loads: 2 per warp (t and t + 32), 4 sectors
    // each.
    let src = r#"
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float* a, float* out) {
    __shared__ float s[64];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, a, sizeof(float) * 64);
    cg::wait(block);
    int t = threadIdx.x;
    out[t] = s[t] + s[63 - t];
}
launch k { a = arange(64); out = zeros(32); expect out == 63; }
"#;
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!(c.barriers, 1);
    assert_eq!((c.gld_instr, c.gld_sectors), (2, 8));
    assert_eq!(c.race_count, 0);
}

#[test]
fn wait_prior_leaves_the_newest_stages_in_flight() {
    // Two committed batches: s[t] then s[32 + t]. wait_prior(1) completes the first only, so
    // reading s[t] is safe and s[32 + t] would race; after wait_prior(0) both are safe.
    // out[t] = t + (32 + t).
    let src = r#"
__global__ void k(const float* a, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &a[t], sizeof(float));
    __pipeline_commit();
    __pipeline_memcpy_async(&s[32 + t], &a[32 + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    float x = s[t];
    __pipeline_wait_prior(0);
    out[t] = x + s[32 + t];
}
launch k { a = arange(64); out = zeros(32); expect out == 2 * arange(32) + 32; }
"#;
    assert_eq!(ok(src, &[], ONE, b(32)).counters.race_count, 0);
    // Read early, x is 32 + t and out[t] = 2 · (32 + t).
    let early = src
        .replace("float x = s[t];", "float x = s[32 + t];")
        .replace("2 * arange(32) + 32", "2 * arange(32) + 64");
    let r = ok(&early, &[], ONE, b(32));
    assert_eq!(r.races.len(), 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::AsyncCopy);
}

#[test]
fn a_wait_without_a_commit_is_reported() {
    let src = r#"
__global__ void k(const float* a, float* out) {
    __shared__ float s[32];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &a[t], sizeof(float));
    __pipeline_wait_prior(0);
    out[t] = s[t];
}
"#;
    let f = err(
        src,
        &[("a", "arange(32)"), ("out", "zeros(32)")],
        Some(ONE),
        Some(b(32)),
    );
    assert_eq!(codes(&f), ["simt::run::wait_without_commit"]);
}

const BARRIER: &str = r#"
__global__ void k(const float* a, float* out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    INIT
    __syncthreads();
    bar.arrive_and_wait();
    out[t] = a[t];
}
"#;

fn barrier_failure(init: &str) -> Vec<String> {
    let src = BARRIER.replace("INIT", init);
    let f = err(
        &src,
        &[("a", "arange(64)"), ("out", "zeros(64)")],
        Some(ONE),
        Some(b(64)),
    );
    codes(&f)
}

#[test]
fn a_barrier_used_before_init_is_reported() {
    assert_eq!(barrier_failure(""), ["simt::run::barrier_uninit"]);
}

#[test]
fn a_barrier_count_other_than_the_arrivals_is_reported() {
    // 64 threads arrive; a count of 32 overflows the phase, a count of 128 never completes it.
    assert_eq!(
        barrier_failure("if (t == 0) init(&bar, 32);"),
        ["simt::run::barrier_overflow"]
    );
    assert_eq!(
        barrier_failure("if (t == 0) init(&bar, 128);"),
        ["simt::run::barrier_incomplete"]
    );
}

#[test]
fn a_copy_needs_a_barrier_or_a_pipeline() {
    let src = r#"
__global__ void k(const float* a, float* out) {
    __shared__ float s[32];
    int x = 0;
    cuda::memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float), x);
    out[threadIdx.x] = s[threadIdx.x];
}
"#;
    let f = err(
        src,
        &[("a", "arange(32)"), ("out", "zeros(32)")],
        Some(ONE),
        Some(b(32)),
    );
    assert_eq!(codes(&f), ["simt::check::async_object"]);
}
