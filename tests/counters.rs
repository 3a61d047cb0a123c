//! Every counter pinned on small kernels, expected values derived by hand next to each assertion.

use crate::common;
use common::ok;

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

/// out[i] = a[i * stride + offset] for one warp.
const STRIDED: &str = r#"
__global__ void k(const float* a, float* out, int stride, int offset) {
    int i = threadIdx.x;
    out[i] = a[i * stride + offset];
}
"#;

fn strided(stride: &str, offset: &str) -> simt::exec::Counters {
    ok(
        STRIDED,
        &[
            ("a", "zeros(2048)"),
            ("out", "zeros(32)"),
            ("stride", stride),
            ("offset", offset),
        ],
        ONE,
        b(32),
    )
    .counters
}

#[test]
fn global_sectors_per_request_follow_the_stride() {
    // 32 lanes × 4 B contiguous and aligned = 128 B = 4 sectors.
    assert_eq!(strided("1", "0").gld_sectors, 4);
    // Stride 2: the lanes span 256 B = 8 sectors.
    assert_eq!(strided("2", "0").gld_sectors, 8);
    // Stride 4: 512 B = 16 sectors.
    assert_eq!(strided("4", "0").gld_sectors, 16);
    // Stride 8 floats = 32 B: every lane in its own sector = 32.
    assert_eq!(strided("8", "0").gld_sectors, 32);
    assert_eq!(strided("32", "0").gld_sectors, 32);
    // Shifted by one float: bytes 4..132 cross 5 sectors.
    assert_eq!(strided("1", "1").gld_sectors, 5);
    // Shifted by 8 floats = one whole sector: aligned again, 4.
    assert_eq!(strided("1", "8").gld_sectors, 4);
    let c = strided("2", "0");
    // One load and one store request for the one warp; the store is contiguous: 4 sectors.
    assert_eq!((c.gld_instr, c.gst_instr, c.gst_sectors), (1, 1, 4));
    // 2 × 32 lanes × 4 B requested; moved (8 + 4) × 32 = 384 B → 256/384.
    assert_eq!(c.g_bytes_requested, 256);
    assert!((c.bytes_requested_per_byte_moved() - 256.0 / 384.0).abs() < 1e-12);
}

#[test]
fn doubles_take_eight_sectors_and_partial_warps_count_their_bytes() {
    let src = r#"
__global__ void k(const double* a, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i];
}
"#;
    // 40 threads in blocks of 40: warp 0 has 32 lanes (256 B = 8 sectors), warp 1 has 8 lanes
    // (64 B = 2 sectors) of which n = 36 leaves 4 active (32 B = 1 sector).
    let c = ok(
        src,
        &[("a", "zeros(36)"), ("out", "zeros(36)"), ("n", "36")],
        ONE,
        b(40),
    )
    .counters;
    assert_eq!(c.gld_sectors, 8 + 1);
    assert_eq!(c.gst_sectors, 8 + 1);
    // 36 lanes × 8 B per access.
    assert_eq!(c.g_bytes_requested, 2 * 36 * 8);
    assert_eq!((c.gld_instr, c.gst_instr), (2, 2));
}

#[test]
fn atomics_count_on_both_sides_of_requested_per_moved() {
    // warp-ctc's pattern: a coalesced load then an atomicAdd to distinct floats. The load asks
    // 32 × 4 = 128 B of 4 sectors; the atomic asks another 128 B of 4 sectors. Requested 256 B
    // over 8 sectors moved = 256 B: 1.0, perfectly coalesced (counting the atomic's bytes but
    // not its sectors gave 2.0, which reads as a broadcast).
    let src = r#"
__global__ void k(const float* in, float* acc) {
    int i = threadIdx.x;
    atomicAdd(&acc[i], in[i]);
}
"#;
    let c = ok(src, &[("in", "ones(32)"), ("acc", "zeros(32)")], ONE, b(32)).counters;
    assert_eq!(
        (c.g_bytes_requested, c.gld_sectors, c.gatom_sectors),
        (256, 4, 4)
    );
    assert_eq!((c.dram_bytes(), c.bytes_moved()), (128, 256));
    assert_eq!(c.bytes_requested_per_byte_moved(), 1.0);
}

/// s[tid * stride] written then read by one warp.
const BANKS: &str = r#"
__global__ void k(float* out, int stride) {
    __shared__ float s[1056];
    int t = threadIdx.x;
    s[t * stride] = 1.0f;
    __syncthreads();
    out[t] = s[t * stride];
}
"#;

fn banks(stride: &str) -> simt::exec::Counters {
    ok(
        BANKS,
        &[("out", "zeros(32)"), ("stride", stride)],
        ONE,
        b(32),
    )
    .counters
}

#[test]
fn shared_wavefronts_count_distinct_words_per_bank() {
    // Stride 1: 32 lanes in 32 banks = 1 wavefront per instruction; 2 instructions.
    let c = banks("1");
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (2, 2, 0)
    );
    // Stride 2: word 2t is in bank 2t mod 32: 16 banks × 2 words = 2 wavefronts each.
    let c = banks("2");
    assert_eq!((c.smem_wavefronts, c.smem_bank_conflicts), (4, 2));
    // Stride 32: every lane in bank 0 = 32 wavefronts each (a tile column).
    let c = banks("32");
    assert_eq!((c.smem_wavefronts, c.smem_bank_conflicts), (64, 62));
    assert_eq!(c.bank_conflict_factor(), 32.0);
    // Stride 33 (a padded tile): bank 33t mod 32 = t mod 32, conflict-free.
    assert_eq!(banks("33").smem_wavefronts, 2);
    // Stride 0: one word broadcast to all lanes = 1 wavefront (plus the store's 1).
    assert_eq!(banks("0").smem_wavefronts, 2);
}

#[test]
fn eight_byte_shared_accesses_use_half_warp_phases() {
    let src = r#"
__global__ void k(double* out, int stride) {
    __shared__ double d[64];
    int t = threadIdx.x;
    out[t] = d[t * stride];
}
"#;
    // Stride 1: each half-warp reads 16 doubles = 32 words in 32 banks → 1 wavefront per
    // phase, 2 phases: 2 wavefronts, ideal 2, 0 conflicts.
    let c = ok(src, &[("out", "zeros(32)"), ("stride", "1")], ONE, b(32)).counters;
    assert_eq!(
        (c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts),
        (1, 2, 0)
    );
    // Stride 2: lanes 0..15 touch words 4t, 4t+1 → banks repeat every 8 lanes: 2 words per bank
    // per phase → 2 + 2 = 4 wavefronts, 2 of them conflicts.
    let c = ok(src, &[("out", "zeros(32)"), ("stride", "2")], ONE, b(32)).counters;
    assert_eq!((c.smem_wavefronts, c.smem_bank_conflicts), (4, 2));
}

#[test]
fn branches_and_divergence_per_warp() {
    let src = r#"
__global__ void k(int* out, int mode) {
    int t = threadIdx.x;
    int x = 0;
    if (mode == 0) {
        if (t % 2 == 0) x = 1; else x = 2;
    } else {
        if (t < 32) x = 3;
    }
    out[t] = x;
}
"#;
    // 2 warps. mode 0: the outer `if` is uniform (2 branches, 0 divergent); the inner one
    // splits both warps (2 branches, 2 divergent).
    let c = ok(src, &[("out", "zeros(64)"), ("mode", "0")], ONE, b(64)).counters;
    assert_eq!((c.branches, c.divergent), (4, 2));
    // mode 1: `t < 32` is uniform per warp: 4 branches, 0 divergent.
    let c = ok(src, &[("out", "zeros(64)"), ("mode", "1")], ONE, b(64)).counters;
    assert_eq!((c.branches, c.divergent), (4, 0));
}

#[test]
fn loop_conditions_are_branches() {
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x;
    int acc = 0;
    for (int j = 0; j < 4; j++) acc += j;
    for (int j = 0; j < t % 4; j++) acc += 1;
    out[t] = acc;
}
launch k {
    out = zeros(32);
    expect out == 6 + [0,1,2,3, 0,1,2,3, 0,1,2,3, 0,1,2,3, 0,1,2,3, 0,1,2,3, 0,1,2,3, 0,1,2,3];
}
"#;
    // First loop: the test runs 5 times (j = 0..4), uniformly: 5 branches, 0 divergent.
    // Second loop, trip count t % 4 ∈ {0,1,2,3}: test j=0 splits (24 of 32 stay),
    // j=1 splits (16 of 24), j=2 splits (8 of 16), j=3 all 8 leave: 4 branches, 3 divergent.
    let c = ok(src, &[], ONE, b(32)).counters;
    assert_eq!((c.branches, c.divergent), (9, 3));
}

#[test]
fn warp_instructions_follow_the_cost_model() {
    let src = r#"
__global__ void k(const float* a, float* out) {
    int i = threadIdx.x;
    out[i] = a[i] * 2.0f + 1.0f;
}
"#;
    // `int i = threadIdx.x` is free (same-width int conversion, variable write); then
    // load (1) + mul (1) + add (1) + store (1) = 4 warp instructions for 1 warp, 4 × 32 lane slots.
    let c = ok(src, &[("a", "ones(32)"), ("out", "zeros(32)")], ONE, b(32)).counters;
    assert_eq!((c.warp_instr, c.active_lane_slots), (4, 128));
    assert_eq!(c.simt_efficiency(), 1.0);
    // With 48 threads the second warp has 16 lanes: 8 warp instructions, (32 + 16) × 4 lanes.
    let c = ok(src, &[("a", "ones(48)"), ("out", "zeros(48)")], ONE, b(48)).counters;
    assert_eq!((c.warp_instr, c.active_lane_slots), (8, 192));
    assert!((c.simt_efficiency() - 192.0 / 256.0).abs() < 1e-12);
}

#[test]
fn barriers_count_once_per_block() {
    let src = r#"
__global__ void k(float* out) {
    __syncthreads();
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
"#;
    // 2 barriers × 3 blocks = 6; each barrier issues once per warp: 2 × 3 × 2 warps = 12 of
    // the warp instructions (plus mul, add and store per warp: 3 × 6 = 18).
    let c = ok(src, &[("out", "zeros(192)")], [3, 1, 1], b(64)).counters;
    assert_eq!(c.barriers, 6);
    assert_eq!(c.warp_instr, 12 + 18);
}

fn race_count(body: &str) -> (u64, Vec<simt::report::RaceView>) {
    let src = format!(
        "__global__ void k(int* out) {{\n    __shared__ int s[64];\n    int t = threadIdx.x;\n    int x = 0;\n{body}\n    out[blockIdx.x * 64 + t] = x;\n}}\n"
    );
    let r = ok(&src, &[("out", "zeros(128)")], [2, 1, 1], b(64));
    (r.counters.race_count, r.races)
}

#[test]
fn shared_races_between_warps() {
    // RAW: warp 0 reads s[32..63], written by warp 1 in the same epoch: 1 racing load per block.
    let (n, races) = race_count("    s[t] = t;\n    x = s[(t + 32) % 64];");
    assert_eq!(n, 2);
    assert_eq!(
        races[0].race.first.kind,
        simt::exec::RaceKind::ReadAfterWrite
    );
    // The read is on line 6 of the generated kernel, the write on line 5.
    assert_eq!((races[0].line, races[0].other_line), (6, 5));
    // With a barrier between, no race.
    assert_eq!(
        race_count("    s[t] = t;\n    __syncthreads();\n    x = s[(t + 32) % 64];").0,
        0
    );
    // WAR: read a word of the other warp, then overwrite the own word another warp read.
    let (n, races) = race_count("    x = s[(t + 32) % 64];\n    s[t] = x;");
    assert_eq!(n, 2);
    assert_eq!(
        races[0].race.first.kind,
        simt::exec::RaceKind::WriteAfterRead
    );
    // WAW: warps 0 and 1 both write s[0..31] in one instruction.
    let (n, races) = race_count("    s[t % 32] = t;");
    assert_eq!(n, 2);
    assert_eq!(
        races[0].race.first.kind,
        simt::exec::RaceKind::WriteAfterWrite
    );
    // Inside one warp the exchange is lock-step: no race.
    assert_eq!(race_count("    s[t] = t;\n    x = s[t ^ 1];").0, 0);
}

#[test]
fn duplicate_global_store_is_one_race_per_instruction() {
    let src = r#"
__global__ void k(int* out) {
    out[0] = threadIdx.x;
}
"#;
    // Every lane writes out[0]: one racing store per block, 3 blocks.
    let r = ok(src, &[("out", "zeros(1)")], [3, 1, 1], b(8));
    assert_eq!(r.counters.race_count, 3);
    assert_eq!(
        r.races[0].race.first.kind,
        simt::exec::RaceKind::GlobalDuplicate
    );
    // Each warp of 64 threads stores to out[0..31]: both warps are coalesced runs, and they
    // overlap: one racing store per block.
    let src = r#"
__global__ void k(int* out) {
    out[threadIdx.x % 32] = threadIdx.x;
}
"#;
    let r = ok(src, &[("out", "zeros(32)")], [2, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 2);
    let race = &r.races[0].race.first;
    assert_eq!(
        (race.kind, race.index),
        (simt::exec::RaceKind::GlobalDuplicate, 0)
    );
    // Every lane storing the same value (`*found = true`) leaves a defined result: no race.
    let same = "__global__ void k(int* out) {\n    out[threadIdx.x % 32] = 7;\n}\n";
    let r = ok(same, &[("out", "zeros(32)")], [2, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 0);
    // Rows of a (32, 4) block are runs 32 elements apart: no overlap, no race; 4 requests of
    // 128 B = 4 sectors each.
    let src = r#"
__global__ void k(int* out) {
    out[threadIdx.y * 64 + threadIdx.x] = 1;
}
"#;
    let r = ok(src, &[("out", "zeros(256)")], [1, 1, 1], [32, 4, 1]);
    assert_eq!(r.counters.race_count, 0);
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (4, 16));
}

#[test]
fn grouped_reports_count_blocks_warps_and_words() {
    // RAW: in each of 2 blocks of 64 threads, warp 0 reads s[32..63] (written by warp 1) and
    // warp 1 reads s[0..31] (written by warp 0): one group of 2 blocks, 2 × 2 = 4 warp
    // instructions and 2 × 64 = 128 words; race_count 1 load per block = 2.
    let (n, races) = race_count("    s[t] = t;\n    x = s[(t + 32) % 64];");
    assert_eq!(n, 2);
    assert_eq!(races.len(), 1);
    let g = &races[0].race;
    assert_eq!((g.blocks, g.warps, g.words), (2, 4, 128));
    // Uninitialised reads: only threads 0..15 fill the tile, then all 64 read tile[t]: warp 0
    // reads 16 unwritten words (16..31), warp 1 all 32 of its own (32..63) → per block 2 warps,
    // 48 words; 2 blocks → 2, 4, 96. The local `v`: only v[0] is written, and the lanes with
    // t % 4 != 0 read v[1..3] → 24 of each warp's 32 lanes, 2 warps in 2 blocks → 2, 4, 96.
    let src = "__global__ void k(int* out) {\n    __shared__ int tile[64];\n    int v[4];\n    int t = threadIdx.x;\n    if (t < 16) tile[t] = t;\n    __syncthreads();\n    v[0] = t;\n    out[blockIdx.x * 64 + t] = tile[t] + v[t % 4];\n}\n";
    let r = ok(src, &[("out", "zeros(128)")], [2, 1, 1], b(64));
    let counts: Vec<(&str, u64, u64, u64)> = r
        .uninit
        .iter()
        .map(|u| {
            (
                u.read.first.array.as_str(),
                u.read.blocks,
                u.read.warps,
                u.read.words,
            )
        })
        .collect();
    assert_eq!(counts, [("tile", 2, 4, 96), ("v", 2, 4, 96)]);
    // One instruction per block for each array: 4.
    assert_eq!(r.counters.uninit_count, 4);
}

#[test]
fn copying_a_struct_with_an_unwritten_member_is_no_uninitialised_read() {
    // chai's partitioner: `make` writes two of three members and returns the struct (its
    // address is taken, so it lives in local memory); `first` writes `current` through a
    // pointer before anything reads it. The copy at `return p;` carries the unwritten member
    // along: no uninitialised read. Reading the member itself in `make` still is one (32 lanes
    // of the one warp, 1 instruction).
    let src = r#"
typedef struct { int n_tasks; int cut; int current; } Partitioner;
__device__ inline Partitioner make(int n) {
    Partitioner p;
    p.n_tasks = n;
    p.cut = 0;
    return p;
}
__device__ inline int first(Partitioner *p) {
    p->current = p->cut + threadIdx.x;
    return p->current;
}
__global__ void k(int *out) {
    Partitioner p = make(4);
    out[threadIdx.x] = p.n_tasks + first(&p);
}
launch k { out = zeros(32); expect out == arange(32) + 4; }
"#;
    let r = ok(src, &[], [1, 1, 1], b(32));
    assert_eq!(r.counters.uninit_count, 0);
    let early = src.replace(
        "    return p;",
        "    int c = p.current;\n    p.cut = c - c;\n    return p;",
    );
    let r = ok(&early, &[], [1, 1, 1], b(32));
    assert_eq!(r.counters.uninit_count, 1);
    assert_eq!(r.uninit[0].read.words, 32);
}
