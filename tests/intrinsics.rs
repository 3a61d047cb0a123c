//! Warp intrinsics, atomics, `__device__` functions and 64-bit types: results and counters by hand.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn warp_shuffle_reduction_sums_into_lane_zero() {
    let src = r#"
__global__ void k(const int* in, int* out) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
launch k {
    in = arange(64);
    out = zeros(2);
    expect out == [496, 1520];
}
"#;
    // Lanes 0..31 hold 0..31 (sum 496), lanes 32..63 hold 32..63 (sum 1520).
    // 5 shuffles per warp (offsets 16, 8, 4, 2, 1) × 2 warps.
    let r = ok(src, &[], ONE, [64, 1, 1]);
    let c = r.counters;
    // Per warp: load 1; 6 loop tests × (compare + branch) = 12; 5 × (shuffle + add) = 10;
    // 5 steps `offset /= 2` = 5; `threadIdx.x % 32`, `== 0`, if = 3; on lane 0 only:
    // `threadIdx.x / 32` + store = 2. Total 33.
    assert_eq!(c.warp_instr, 2 * 33);
    assert_eq!((c.branches, c.divergent), (2 * (6 + 1), 2));
}

#[test]
fn shuffle_variants_follow_cuda() {
    let src = r#"
__global__ void k(int* out) {
    int l = threadIdx.x;
    out[l] = __shfl_sync(0xffffffff, l * 10, 3);             // broadcast lane 3
    out[32 + l] = __shfl_up_sync(0xffffffff, l, 1);          // lane 0 keeps 0
    out[64 + l] = __shfl_xor_sync(0xffffffff, l, 1);         // swap neighbours
    out[96 + l] = __shfl_down_sync(0xffffffff, l, 1, 8);     // segments of 8: lane 7 keeps 7
}
"#;
    let broadcast: Vec<String> = (0..32).map(|_| "30".to_string()).collect();
    let up: Vec<String> = (0..32).map(|l: i32| (l - 1).max(0).to_string()).collect();
    let xor: Vec<String> = (0..32).map(|l: i32| (l ^ 1).to_string()).collect();
    let down8: Vec<String> = (0..32)
        .map(|l: i32| if l % 8 == 7 { l } else { l + 1 }.to_string())
        .collect();
    let all = [broadcast, up, xor, down8].concat().join(",");
    let full = format!("{src}\nlaunch k {{ out = zeros(128); expect out == [{all}]; }}");
    ok(&full, &[], ONE, [32, 1, 1]);
}

#[test]
fn votes_and_activemask() {
    let src = r#"
__global__ void k(unsigned* out) {
    int l = threadIdx.x;
    unsigned b = __ballot_sync(0xffffffff, l % 4 == 0);
    int any = __any_sync(0xffffffff, l == 5);
    int all = __all_sync(0xffffffff, l < 32);
    unsigned am = 0;
    if (l < 8) am = __activemask();
    if (l == 0) { out[0] = b; out[1] = any; out[2] = all; out[3] = am; }
}
launch k {
    out = zeros(4);
    expect out == [286331153, 1, 1, 255];
}
"#;
    // Every 4th lane: bits 0, 4, 8, ... = 0x11111111 = 286331153; lanes 0..7 active = 0xff.
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn warp_matches_give_the_lanes_of_equal_values() {
    // Lane l holds l % 3 in a 32-lane warp: value 0 at lanes 0, 3, ..., 30 (bits 0x49249249),
    // value 1 at 1, 4, ..., 31 (0x92492492), value 2 at 2, 5, ..., 29 (0x24924924).
    // As floats (1.5 * (l % 3)) the bits are compared, so the same three masks come out; as
    // 64-bit integers too. `__match_all_sync` over the warp: values differ, so 0 and pred 0;
    // over lanes 0 and 3 (mask 9, both 0): 9 and pred 1.
    let src = r#"
__global__ void k(unsigned* out) {
    int l = threadIdx.x;
    int v = l % 3;
    out[l] = __match_any_sync(0xffffffff, v);
    out[32 + l] = __match_any_sync(0xffffffff, 1.5f * v);
    out[64 + l] = __match_any_sync(0xffffffff, (unsigned long long)v << 40);
    int pred = 7;
    out[96 + l] = __match_all_sync(0xffffffff, v, &pred);
    out[128 + l] = pred;
    if (l == 0 || l == 3) {
        int p2 = 7;
        out[160 + l] = __match_all_sync(9, v, &p2);
        out[192 + l] = p2;
    }
}
"#;
    let mask = |l: u32| [0x4924_9249u32, 0x9249_2492, 0x2492_4924][(l % 3) as usize];
    let any: Vec<String> = (0..32).map(|l| mask(l).to_string()).collect();
    let mut want = [any.clone(), any.clone(), any].concat();
    want.extend((0..64).map(|_| "0".to_string()));
    want.extend((0..64).map(|l| {
        match l {
            0 | 3 => "9",
            32 | 35 => "1",
            _ => "0",
        }
        .to_string()
    }));
    let full = format!(
        "{src}\nlaunch k {{ out = zeros(224); expect out == [{}]; }}",
        want.join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
    // Each is one warp instruction (PTX `match.sync`, `redux.sync`), as `__activemask()` is:
    // the kernels below differ only in that call, and the value operand is `threadIdx.x` as is.
    let count = |call: &str| {
        let src = format!("__global__ void k(unsigned* out) {{ out[threadIdx.x] = {call}; }}\nlaunch k {{ out = zeros(64); }}");
        ok(&src, &[], ONE, [64, 1, 1]).counters.warp_instr
    };
    let base = count("__activemask()");
    assert_eq!(count("__match_any_sync(0xffffffff, threadIdx.x)"), base);
    assert_eq!(count("__reduce_or_sync(0xffffffff, threadIdx.x)"), base);
}

#[test]
fn warp_reductions_fold_the_masks_lanes() {
    // Lanes 0..31 hold l - 5 (int) and l (unsigned): sum of l - 5 = 496 - 160 = 336;
    // signed min -5, max 26; unsigned min of (l - 5) as unsigned is 0 (lane 5), max is
    // 4294967295 (-1 at lane 4). and/or/xor of l: and = 0, or = 31, xor of 0..31 = 0.
    // Over the odd lanes (mask 0xaaaaaaaa): sum of odd l = 256; xor of 1, 3, ..., 31 = 0
    // (pairs 4k+1 ^ 4k+3 = 2, eight of them: 0).
    let src = r#"
__global__ void k(int* out) {
    int l = threadIdx.x;
    int v = l - 5;
    out[0 * 32 + l] = __reduce_add_sync(0xffffffff, v);
    out[1 * 32 + l] = __reduce_min_sync(0xffffffff, v);
    out[2 * 32 + l] = __reduce_max_sync(0xffffffff, v);
    out[3 * 32 + l] = __reduce_min_sync(0xffffffff, (unsigned)v);
    out[4 * 32 + l] = __reduce_max_sync(0xffffffff, (unsigned)v);
    out[5 * 32 + l] = __reduce_and_sync(0xffffffff, l);
    out[6 * 32 + l] = __reduce_or_sync(0xffffffff, l);
    out[7 * 32 + l] = __reduce_xor_sync(0xffffffff, l);
    if (l % 2 == 1) {
        out[8 * 32 + l] = __reduce_add_sync(0xaaaaaaaa, l);
        out[9 * 32 + l] = __reduce_xor_sync(0xaaaaaaaa, l);
    }
}
"#;
    let per = ["336", "-5", "26", "0", "-1", "0", "31", "0"];
    let mut want: Vec<String> = per
        .iter()
        .flat_map(|v| (0..32).map(move |_| v.to_string()))
        .collect();
    want.extend((0..32).map(|l| if l % 2 == 1 { "256" } else { "0" }.to_string()));
    want.extend((0..32).map(|_| "0".to_string()));
    let full = format!(
        "{src}\nlaunch k {{ out = zeros(320); expect out == [{}]; }}",
        want.join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
}

#[test]
fn warp_folds_leave_out_exited_lanes() {
    // Lanes 16..31 have returned: PTX's match.sync and redux.sync take "all non-exited threads
    // in membermask". Per lane l < 16: match_any of l / 4 is the 4-lane group's mask
    // 0xf << (l & ~3) (15, 240, 3840, 61440); match_all of 0 is the non-exited lanes, 0xffff
    // (65535); the sum of 0..15 is 120; the max is 15.
    let src = r#"
__global__ void k(unsigned* out) {
    unsigned l = threadIdx.x;
    if (l >= 16) return;
    out[l] = __match_any_sync(0xffffffff, l / 4);
    int pred;
    out[16 + l] = __match_all_sync(0xffffffff, 0u, &pred);
    out[32 + l] = __reduce_add_sync(0xffffffff, l);
    out[48 + l] = __reduce_max_sync(0xffffffff, l);
}
launch k {
    out = zeros(64);
    expect out == [15, 15, 15, 15, 240, 240, 240, 240, 3840, 3840, 3840, 3840, 61440, 61440, 61440, 61440,
                   65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535,
                   120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120, 120,
                   15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15];
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_return_from_a_function_the_kernel_ends_with_exits_the_thread() {
    // The kernel's last statement calls `body`, so `body`'s `return` is the kernel's exit (nvcc
    // inlines it and jumps to the end): lanes 16..31 have exited, not diverged, and the full-mask
    // match and barrier go ahead as in `warp_folds_leave_out_exited_lanes` (lane l gets the mask
    // of its 4-lane group). The barrier after the return counts only the 16 live threads.
    let src = r#"
__device__ void body(unsigned* o) {
    if (threadIdx.x >= 16) return;
    __syncthreads();
    o[threadIdx.x] = __match_any_sync(0xffffffff, threadIdx.x / 4);
}
__global__ void k(unsigned* o) {
    if (threadIdx.x < 32) {
        body(o);
    }
    return;
}
launch k {
    o = zeros(32);
    expect o == [15, 15, 15, 15, 240, 240, 240, 240, 3840, 3840, 3840, 3840, 61440, 61440, 61440, 61440,
                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
}
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    // Called anywhere but last, the function's `return` only leaves the function: the lanes that
    // took it are still in the kernel, and a full mask naming them is a divergent warp operation.
    let src = "__device__ void body(unsigned* o) {\n    if (threadIdx.x >= 16) return;\n    o[threadIdx.x] = __match_any_sync(0xffffffff, threadIdx.x / 4);\n}\n__global__ void k(unsigned* o) {\n    body(o);\n    o[threadIdx.x] += 1;\n}\n";
    let f = err(src, &[("o", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::divergent_warp"]);
}

#[test]
fn warp_folds_check_their_lanes_and_types() {
    // A mask naming a lane that did not come: as for shuffles.
    let src = "__global__ void k(int* out) {\n    int v = threadIdx.x;\n    if (threadIdx.x < 16) v = __reduce_add_sync(0xffffffff, v);\n    out[threadIdx.x] = v;\n}\n";
    let f = err(src, &[("out", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::divergent_warp"]);
    // CUDA declares no float reduction.
    let src = "__global__ void k(float* out) {\n    out[threadIdx.x] = __reduce_add_sync(0xffffffff, out[threadIdx.x]);\n}\n";
    let f = err(src, &[("out", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::mismatched_types"]);
}

#[test]
fn byte_permutes_funnel_shifts_and_absolute_differences_follow_the_math_api() {
    // __byte_perm(x, y, s): result byte n = byte (s >> 4n) & 7 of y:x (x's low byte is 0).
    //   s = 0x1234: bytes 4, 3, 2, 1 = 0x44, 0x33, 0x22, 0x11 → 0x11223344 = 287454020;
    //   s = 0x0123 with y = 0 reverses x: 0x00112233 = 1122867.
    // Funnel shifts of hi:lo = 0x00000003_80000001:
    //   _l by 4: 0x38_00000010, high word 0x38 = 56;  _r by 4: low word 0x38000000 = 939524096;
    //   _l by 40 (40 & 31 = 8): 0x380_00000100, high word 0x380 = 896;
    //   _lc by 40 (clamped to 32): high word = lo = 0x80000001 = 2147483649;
    //   _rc by 40 (clamped to 32): low word = hi = 3.
    // __sad(3, 10, 100) = 7 + 100 = 107, __sad(-5, 7, 0) = 12; __usad(0, 0xffffffff, 1) wraps to 0.
    // __double2hiint(1.0) = 0x3ff00000 = 1072693248, loint 0; hiint(-2.0) = 0xc0000000 = -1073741824.
    // __hiloint2double(0x40090000, 0) = 1.5625 × 2 = 3.125.
    let src = r#"
__global__ void k(long long* o, double* d, int x) {
    (void)x;
    o[0] = __byte_perm(0x33221100u, 0x77665544u, 0x1234u);
    o[1] = __byte_perm(0x33221100u, 0u, 0x0123u);
    o[2] = __funnelshift_l(0x80000001u, 3u, 4);
    o[3] = __funnelshift_r(0x80000001u, 3u, 4);
    o[4] = __funnelshift_l(0x80000001u, 3u, 40);
    o[5] = __funnelshift_lc(0x80000001u, 3u, 40);
    o[6] = __funnelshift_rc(0x80000001u, 3u, 40);
    o[7] = __sad(3, 10, 100u);
    o[8] = __sad(-5, 7, 0u);
    o[9] = __usad(0u, 0xffffffffu, 1u);
    o[10] = __double2hiint(1.0);
    o[11] = __double2loint(1.0);
    o[12] = __double2hiint(-2.0);
    if (__builtin_expect(x > 0, 1)) o[13] = 1;
    __builtin_assume(x > 0);
    d[0] = __hiloint2double(0x40090000, 0);
}
launch k {
    o = zeros(14); d = zeros(1); x = 1;
    expect o == [287454020, 1122867, 56, 939524096, 896, 2147483649, 3, 107, 12, 0,
                 1072693248, 0, -1073741824, 1];
    expect d == [3.125];
}
"#;
    ok(src, &[], ONE, [1, 1, 1]);
}

#[test]
fn a_false_builtin_assume_stops_where_it_is_false() {
    // cupy's upfirdn assumes `tid > 0`, false for thread 0: undefined behaviour.
    let src = "__global__ void k(int* out) {\n    int tid = threadIdx.x;\n    __builtin_assume(tid > 0);\n    out[tid] = tid;\n}\n";
    let f = err(src, &[("out", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::false_assumption"]);
    assert_eq!(f.exit, 1);
}

#[test]
fn nanosleep_changes_no_value() {
    let src = r#"
__global__ void k(int* out) {
    __nanosleep(100 * threadIdx.x);
    out[threadIdx.x] = threadIdx.x;
}
launch k { out = zeros(32); expect out == arange(32); }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_shuffle_naming_a_diverged_lane_is_an_error() {
    let src = "__global__ void k(int* out) {\n    int v = threadIdx.x;\n    if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffff, v, 1);\n    out[threadIdx.x] = v;\n}\n";
    let f = err(src, &[("out", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::divergent_warp"]);
    assert_eq!(f.exit, 1);
    // With the active mask it is fine: lanes 0..15 shuffle among themselves; lane 15 reads lane 16,
    // which is not in the segment of active lanes but exists: it reads its (unchanged) value 16.
    let ok_src = src.replace("0xffffffff", "__activemask()");
    let full = format!(
        "{ok_src}\nlaunch k {{ out = zeros(32); expect out == [{}]; }}",
        (0..32)
            .map(|l| if l < 16 { l + 1 } else { l }.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
}

#[test]
fn lanes_that_returned_do_not_stop_a_full_mask_shuffle_unless_it_reads_them() {
    // Lanes 24..31 return first. PTX's `shfl.sync` waits for the non-exited lanes of its mask
    // only, so the full mask is fine; in segments of 4 (width 4) lane l reads l + 1 within its
    // segment, and lane 23 (the top of segment 20..23) keeps its own value: out[l] = l + (l + 1)
    // except at the top of each segment, 2l, for l < 24.
    let src = r#"
__global__ void k(float* out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    float v = i;
    v += __shfl_down_sync(0xffffffff, v, 1, WIDTH);
    out[i] = v;
}
"#;
    let expected: Vec<String> = (0..32)
        .map(|l| match l {
            24.. => 0,
            _ if l % 4 == 3 => 2 * l,
            _ => 2 * l + 1,
        })
        .map(|v| v.to_string())
        .collect();
    let full = format!(
        "{}\nlaunch k {{ n = 24; out = zeros(32); expect out == [{}]; }}",
        src.replace("WIDTH", "4"),
        expected.join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
    // Over the whole warp, lane 23 reads lane 24, which has returned: undefined on a GPU.
    let f = err(
        &src.replace("WIDTH", "32"),
        &[("n", "24"), ("out", "zeros(32)")],
        Some(ONE),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::shuffle_from_exited"]);
    use miette::Diagnostic;
    let label = f.errors[0]
        .labels()
        .and_then(|mut l| l.next())
        .expect("a label");
    assert_eq!(
        label.label(),
        Some("block (0, 0, 0): thread (23, 0, 0) reads thread (24, 0, 0), which has returned")
    );
}

#[test]
fn a_shuffle_past_the_end_of_a_partial_warp_is_an_error() {
    // faiss's blockReduceAll: a full-mask butterfly in a block of 48 threads. Threads 32..47 are
    // lanes 0..15 of a warp whose lanes 16..31 do not exist; a missing lane is as undefined to
    // read as one that returned, so lane 0 (thread 32) reading lane 16 stops the launch.
    let src = r#"
__global__ void k(float* out) {
    float v = 1.0f;
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
    out[threadIdx.x] = v;
}
"#;
    let f = err(src, &[("out", "zeros(48)")], Some(ONE), Some([48, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::shuffle_from_missing"]);
    assert_eq!(f.exit, 1);
    use miette::Diagnostic;
    let label = f.errors[0]
        .labels()
        .and_then(|mut l| l.next())
        .expect("a label");
    assert_eq!(
        label.label(),
        Some("block (0, 0, 0): thread (32, 0, 0) reads lane 16 of its warp, which has 16 lanes")
    );
    // In 64 threads every lane exists: each sums 32 ones.
    let full = format!(
        "{src}\nlaunch k {{ out = zeros(64); expect out == [{}]; }}",
        vec!["32"; 64].join(",")
    );
    ok(&full, &[], ONE, [64, 1, 1]);
    // Segments of 16 keep their reads inside the 16 lanes that exist: thread i gets
    // i + (i + 1), or 2i at the top of its segment (i % 16 == 15).
    let src = r#"
__global__ void k(float* out) {
    float v = threadIdx.x;
    v += __shfl_down_sync(0xffffffff, v, 1, 16);
    out[threadIdx.x] = v;
}
"#;
    let expected: Vec<String> = (0..48)
        .map(|i| if i % 16 == 15 { 2 * i } else { 2 * i + 1 }.to_string())
        .collect();
    let full = format!(
        "{src}\nlaunch k {{ out = zeros(48); expect out == [{}]; }}",
        expected.join(",")
    );
    ok(&full, &[], ONE, [48, 1, 1]);
}

#[test]
fn shared_histogram_with_atomics_gives_exact_counts() {
    let src = r#"
#define BINS 8
__global__ void hist(const int* data, unsigned* bins, int n) {
    __shared__ unsigned local[BINS];
    int t = threadIdx.x;
    if (t < BINS) local[t] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    if (t < BINS) atomicAdd(&bins[t], local[t]);
}
launch hist {
    n = 1000;
    data = arange(n);
    bins = zeros(8);
    block = 128;
    grid = cdiv(n, block);
    expect bins == [125, 125, 125, 125, 125, 125, 125, 125];
}
"#;
    let r = ok(src, &[], [8, 1, 1], [128, 1, 1]);
    let c = r.counters;
    // Global atomics: one warp per block (lanes 0..7) = 8 requests, 8 × 4 B = 32 B = 1 sector each.
    assert_eq!((c.gatom_instr, c.gatom_sectors), (8, 8));
    // No races: atomics never race, and the barriers separate the plain accesses.
    assert_eq!(c.race_count, 0);
}

#[test]
fn atomic_return_values_and_kinds() {
    let src = r#"
__global__ void k(int* counter, int* old, unsigned* u, float* f) {
    int t = threadIdx.x;
    old[t] = atomicAdd(&counter[0], 1);        // lanes apply in order: 0, 1, 2, 3
    atomicMax(counter + 1, t * 10);
    atomicMin(&counter[2], -t);
    atomicCAS(&counter[3], 0, 7);               // only the first lane sees 0
    atomicExch(&counter[4], t);                 // the last lane wins
    atomicAnd(&counter[5], ~(1 << t));
    atomicOr(&counter[6], 1 << t);
    atomicXor(&counter[7], 3);
    atomicSub(&counter[8], 2);
    atomicInc(&u[0], 2u);                       // 0 → 1 → 2 → 0 → 1
    atomicDec(&u[1], 5u);                       // 0 → 5 → 4 → 3 → 2
    atomicAdd(f, 0.5f);
}
launch k {
    counter = [0, 0, 0, 0, 0, 255, 0, 0, 0];
    old = zeros(4);
    u = zeros(2);
    f = zeros(1);
    expect counter == [4, 30, -3, 7, 3, 240, 15, 0, -8];
    expect old == [0, 1, 2, 3];
    expect u == [1, 2];
    expect f == 2.0;
}
"#;
    ok(src, &[], ONE, [4, 1, 1]);
}

#[test]
fn atomics_through_a_view_of_the_other_kind_work_on_the_bits() {
    // StackOverflow 17399119's float atomicMax and the CUDA guide's double atomicAdd: atomicCAS
    // on the value's bits through an `int*` / `unsigned long long*` view of the float memory.
    let src = r#"
__device__ float atomicMaxFloat(float* address, float val) {
    int* address_as_i = (int*) address;
    int old = *address_as_i, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_i, assumed,
            __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__device__ double atomicAddDouble(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
            __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}
__global__ void k(const float* in, float* m, double* s, float* z, unsigned* zbits, int* ib) {
    int t = threadIdx.x;
    atomicMaxFloat(m, in[t]);
    atomicAddDouble(s, 0.25 * t);
    if (t == 0) {
        // z holds -0.0f (bits 0x80000000): comparing the bits of 0.0f fails, as on the GPU,
        // though -0.0f == 0.0f as floats; comparing 0x80000000 swaps in 1.0f (0x3f800000).
        zbits[0] = atomicCAS((unsigned*)z, 0u, 0x3f800000u);
        zbits[1] = atomicCAS((unsigned*)z + 1, 0x80000000u, 0x3f800000u);
        atomicExch((int*)&z[2], 0x40490fdb);    // the float nearest pi, 3.14159274101257324
        atomicAdd((float*)ib, 1.5f);             // int memory gets 1.5f's bits 0x3fc00000
    }
}
launch k {
    in = [-3.0, 7.5, -1.0, 2.0];
    m = [-100.0];
    s = zeros(1);
    z = [-0.0, -0.0, 0.0];
    zbits = zeros(2);
    ib = zeros(1);
    expect m == [7.5];
    expect s == [1.5];
    expect zbits == [2147483648, 2147483648];
    expect z == [-0.0, 1.0, 3.14159274101257324];
    expect ib == [1069547520];
}
"#;
    let r = ok(src, &[], ONE, [4, 1, 1]);
    // The four lanes apply each CAS in lane order, all on one element (1 sector a request).
    // Max from -100: round 1 (lanes 0-3 assume -100): lane 0 stores -3, the rest fail and read
    // -3; round 2 (lanes 1-3 assume -3): lane 1 stores 7.5, lanes 2 and 3 read 7.5; round 3:
    // both store 7.5 again. Sum from 0 (lanes add 0, .25, .5, .75): round 1: lanes 0 and 1 (each
    // assumes 0.0, lane 0 stores 0.0's bits) succeed, 2 and 3 read 0.25; round 2: lane 2 stores
    // 0.75, lane 3 reads it; round 3: lane 3 stores 1.5. Then lane 0's four: 3 + 3 + 4 = 10.
    let c = r.counters;
    assert_eq!((c.gatom_instr, c.gatom_sectors), (10, 10));
}

#[test]
fn device_functions_are_inlined_with_early_returns() {
    let src = r#"
__device__ int collatz_steps(int x) {
    int steps = 0;
    while (true) {
        if (x == 1) return steps;
        x = x % 2 == 0 ? x / 2 : 3 * x + 1;
        steps++;
    }
}
__device__ float square(float v) { return v * v; }
__device__ void store_twice(const int* p) { p[0] = 1; }
__global__ void k(int* out, float* sq) {
    int t = threadIdx.x;
    out[t] = collatz_steps(t + 1);
    sq[t] = square((float)t) + square(0.5f);
}
launch k {
    out = zeros(8);
    sq = zeros(8);
    expect out == [0, 1, 7, 2, 5, 8, 16, 3];
    expect sq == [0.25, 1.25, 4.25, 9.25, 16.25, 25.25, 36.25, 49.25];
}
"#;
    // A function is checked even where it is never called: `simt check` reports its store
    // through `const`; a run of the kernel, which does not call it, leaves it out and says so.
    let f = match simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)) {
        Ok(_) => panic!("an uncalled function's error passed `simt check`"),
        Err(f) => f,
    };
    assert_eq!(codes(&f), ["simt::check::not_assignable"]);
    let r = ok(src, &[], ONE, [8, 1, 1]);
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "unchecked-kernels")
        .expect("the run names what it left out");
    assert!(
        note.message.contains("function `store_twice` (line 11: "),
        "{}",
        note.message
    );
    let src = src.replace(
        "__device__ void store_twice(const int* p) { p[0] = 1; }\n",
        "",
    );
    let r = ok(&src, &[], ONE, [8, 1, 1]);
    assert!(r.hints.iter().all(|h| h.rule != "unchecked-kernels"));
}

#[test]
fn device_function_errors() {
    let check =
        |src: &str| match simt::pipeline::compile(&simt::source::SourceFile::new("t.sk", src)) {
            Ok(_) => panic!("compiled: {src}"),
            Err(f) => codes(&f),
        };
    assert_eq!(
        check("__device__ int f(int x) { return f(x - 1); }\n__global__ void k(int* a) { a[0] = f(3); }"),
        ["simt::check::unsupported"]
    );
    assert_eq!(
        check("__device__ void f(int x) { }\n__global__ void k(int* a) { a[0] = f(3); }"),
        ["simt::check::no_value"]
    );
    assert_eq!(
        check(
            "__device__ int f(int x) { return x; }\n__global__ void k(int* a) { a[0] = f(1, 2); }"
        ),
        ["simt::check::argument_count"]
    );
    // A shuffle of a pointer, an atomic on a local, a float atomicSub.
    assert_eq!(
        check("__global__ void k(int* a) { int v = __shfl_sync(0xffffffff, a, 0); }"),
        ["simt::check::not_a_value"]
    );
    assert_eq!(
        check("__global__ void k(int* a) { int x = 0; atomicAdd(&x, 1); }"),
        ["simt::check::unsupported"]
    );
    assert_eq!(
        check("__global__ void k(float* a) { atomicSub(&a[0], 1.0f); }"),
        ["simt::check::argument_type"]
    );
    assert_eq!(
        check("__global__ void k(int* a) { a[0] = __shfl_sync(0xffffffff, 1, 0, 3); }"),
        ["simt::check::argument_type"]
    );
}

#[test]
fn double_precision_dot_product_and_64_bit_integers() {
    let src = r#"
__global__ void dot(const double* x, const double* y, double* out, unsigned long long* bits, int n) {
    __shared__ double partial[64];
    int t = threadIdx.x;
    partial[t] = t < n ? x[t] * y[t] : 0.0;
    __syncthreads();
    for (int s = 32; s > 0; s >>= 1) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) { out[0] = partial[0]; bits[0] = 1ull << 40; bits[1] = (unsigned long long)(-1); }
}
launch dot {
    n = 64;
    x = arange(n);
    y = full(n, 0.5);
    out = zeros(1);
    bits = zeros(2);
    expect out == 1008.0;
    expect bits[0] == 1099511627776;
}
"#;
    // Σ 0..63 × 0.5 = 2016 / 2 = 1008. The 8-byte loads: 2 warps × 8 sectors per buffer.
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.gld_sectors, 2 * 2 * 8);
    // The first shared store: 2 warps × 2 half-warp phases, conflict-free → 4 wavefronts.
    assert!(
        r.counters.smem_bank_conflicts == 0 || r.counters.smem_wavefronts >= r.counters.smem_instr
    );
}

#[test]
fn shared_scalar_variables() {
    let src = r#"
__global__ void k(int* out) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
launch k { out = zeros(2); expect out == [2016, 2016]; }
"#;
    ok(src, &[], [2, 1, 1], [64, 1, 1]);
}

#[test]
fn bit_casts_reinterpret_ieee_bits() {
    // IEEE 754 single: 1.0f = 0x3f800000 = 1065353216, -2.0f = 0xc0000000 (-1073741824 as int,
    // 3221225472 as unsigned), 0.5f = 0x3f000000 = 1056964608, 0.0f = 0. Flipping bit 31 negates:
    // -1 + 1.0f (0x3f800000 as float) = 0, 2 + 1 = 3, -0.5 + 1 = 0.5, -0 + 1 = 1. Double: 1.0 =
    // 0x3ff0000000000000, -2.0 = 0xc000000000000000, 0.5 = 0x3fe0000000000000; the round trip
    // gives x back.
    let src = r#"
__global__ void k(const float* x, int* bits, unsigned* ubits, float* back, long long* dbits, double* dback) {
    int t = threadIdx.x;
    bits[t] = __float_as_int(x[t]);
    ubits[t] = __float_as_uint(x[t]);
    back[t] = __int_as_float(bits[t] ^ 0x80000000) + __uint_as_float(0x3f800000u);
    dbits[t] = __double_as_longlong((double)x[t]);
    dback[t] = __longlong_as_double(dbits[t]);
}
launch k { x = [1.0, -2.0, 0.5, 0.0]; bits = zeros(4); ubits = zeros(4); back = zeros(4); dbits = zeros(4); dback = zeros(4);
  block = 4; grid = 1;
  expect bits == [1065353216, -1073741824, 1056964608, 0];
  expect ubits == [1065353216, 3221225472, 1056964608, 0];
  expect back == [0, 3, 0.5, 1];
  expect dbits == [4607182418800017408, -4611686018427387904, 4602678819172646912, 0];
  expect dback == x; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    let f = err(
        "__global__ void k(int* a) { a[0] = __float_as_int(1.0f, 2.0f); }",
        &[("a", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
}

#[test]
fn conversions_with_a_rounding_mode_round_then_saturate() {
    // _rn: nearest, ties to even (2.5 → 2, 3.5 → 4, -2.5 → -2, -0.7 → -1); _rz toward zero; _rd
    // down; _ru up. 1e10 and -1e10 are past int's range: INT_MAX and INT_MIN, as cvt saturates;
    // to unsigned, negatives are 0 and 1e10 is UINT_MAX = 4294967295. As long long 1e10 fits.
    // __int2float_rn(t) + __double2float_rn(0.25) = t + 0.25.
    let src = r#"
__global__ void k(const float* x, int* rn, int* rz, int* rd, int* ru, unsigned* u, long long* l, float* f) {
    int t = threadIdx.x;
    rn[t] = __float2int_rn(x[t]);
    rz[t] = __float2int_rz(x[t]);
    rd[t] = __float2int_rd(x[t]);
    ru[t] = __float2int_ru(x[t]);
    u[t] = __float2uint_rn(x[t]);
    l[t] = __double2ll_rd((double)x[t]);
    f[t] = __int2float_rn(t) + __double2float_rn(0.25);
}
launch k { x = [2.5, 3.5, -2.5, -0.7, 1e10, -1e10]; rn = zeros(6); rz = zeros(6); rd = zeros(6); ru = zeros(6); u = zeros(6); l = zeros(6); f = zeros(6);
  block = 6; grid = 1;
  expect rn == [2, 4, -2, -1, 2147483647, -2147483648];
  expect rz == [2, 3, -2, 0, 2147483647, -2147483648];
  expect rd == [2, 3, -3, -1, 2147483647, -2147483648];
  expect ru == [3, 4, -2, 0, 2147483647, -2147483648];
  expect u == [2, 4, 0, 0, 4294967295, 0];
  expect l == [2, 3, -3, -1, 10000000000, -10000000000];
  expect f == [0.25, 1.25, 2.25, 3.25, 4.25, 5.25]; }
"#;
    ok(src, &[], ONE, [6, 1, 1]);
    // A conversion CUDA does not have is unknown: widening a float is exact (no
    // `__float2double_rd`), and `_rx` is no rounding mode.
    for call in ["__float2double_rd(0.5f)", "__int2float_rx(3)"] {
        let f = err(
            &format!("__global__ void k(float* a) {{ a[0] = {call}; }}"),
            &[("a", "zeros(1)")],
            Some(ONE),
            Some(ONE),
        );
        assert_eq!(codes(&f), ["simt::check::unknown_function"], "{call}");
    }
}

#[test]
fn classification_and_long_rounding() {
    // v = x / y = [0/0 = NaN, -1/0 = -inf, 3/0 = inf, -0/1 = -0, 1/2 = 0.5, 5/-1 = -5].
    // isnan as float and as double: 1 + 10 = 11 for NaN only; isinf for ±inf; isfinite for the
    // last three. signbit (float + 10 × double; NaN's sign is left out, as a host's 0/0 and the
    // GPU's differ): -inf, -0 and -5 have it. x / 2 = [0, -0.5, 1.5, -0, 0.5, 2.5]: lrintf
    // rounds ties to even [0, 0, 2, 0, 0, 2], lroundf away from zero [0, -1, 2, 0, 1, 3]; labs(-t)
    // = t; llabs(-2) = 2. l = lrint + 100 lround + 10000 t + 2000000.
    let src = r#"
__global__ void k(const float* x, const float* y, int* nan, int* inf, int* fin, int* sgn, long long* l) {
    int t = threadIdx.x;
    float v = x[t] / y[t];
    nan[t] = isnan(v) + 10 * isnan((double)v);
    inf[t] = isinf(v);
    fin[t] = isfinite(v);
    if (t > 0) sgn[t] = signbit(v) + 10 * signbit((double)v);
    l[t] = lrintf(x[t] * 0.5f) + 100 * lroundf(x[t] * 0.5f) + 10000 * labs(-t) + 1000000 * llabs(-2ll);
}
launch k { x = [0, -1, 3, -0.0, 1, 5]; y = [0, 0, 0, 1, 2, -1]; nan = zeros(6); inf = zeros(6); fin = zeros(6); sgn = zeros(6); l = zeros(6);
  block = 6; grid = 1;
  expect nan == [11, 0, 0, 0, 0, 0]; expect inf == [0, 1, 1, 0, 0, 0]; expect fin == [0, 0, 0, 1, 1, 1];
  expect sgn == [0, 11, 0, 11, 0, 11];
  expect l == [2000000, 2009900, 2020202, 2030000, 2040100, 2050302]; }
"#;
    ok(src, &[], ONE, [6, 1, 1]);
}

#[test]
fn simd_intrinsics_work_lane_by_lane() {
    let src = r#"
__global__ void k(const unsigned* a, const unsigned* b, unsigned* out) {
    unsigned x = a[threadIdx.x], y = b[threadIdx.x];
    unsigned* o = out + 20 * threadIdx.x;
    o[0] = __vmaxs4(x, y); o[1] = __vminu4(x, y); o[2] = __vadd4(x, y); o[3] = __vsub4(x, y);
    o[4] = __vabsdiffu4(x, y); o[5] = __vcmpgtu4(x, y); o[6] = __vaddss4(x, y);
    o[7] = __vsubus4(x, y); o[8] = __vseteq4(x, y); o[9] = __vabs4(x); o[10] = __vabsss4(x);
    o[11] = __vavgu4(x, y); o[12] = __vmaxs2(x, y); o[13] = __vsub2(x, y);
    o[14] = __vcmples2(x, y); o[15] = __vneg2(x); o[16] = __vnegss2(x); o[17] = __vhaddu2(x, y);
    o[18] = __vsadu4(x, y); o[19] = __vsads2(x, y);
}
launch k {
    a = [2164227841, 305419896, 4294934528];
    b = [2130804991, 2271560481, 98303];
    out = zeros(60);
    expect out == [
        2130804481, 2130804481, 4278255360, 33488642, 33423870, 4294901760, 4278255360, 33423360, 0, 2147581697,
        2130804481, 2155905152, 2130804481, 33488386, 4294901760, 2130804991, 2130804991, 2147516416, 510, 130052,
        308631160, 305414945, 2576980377, 2345603927, 1966150487, 65535, 2575269759, 4951, 0, 305419896,
        305419896, 1296911693, 305419896, 2328826711, 0, 3989612936, 3989612936, 1288457420, 272, 40486,
        98048, 98048, 4278255615, 4294836481, 4294836735, 4294967040, 4278255615, 4294836480, 0, 16875520,
        16875264, 2155905152, 98303, 4294836225, 4294967295, 98304, 98303, 2147516415, 765, 65537];
}
"#;
    // Expected values from an independent C model compiled with gcc (each lane extracted,
    // sign-extended for the `s` forms, computed in 64 bits, saturated or wrapped as the CUDA
    // Math API describes, and packed back), for a = 0x80FF7F01, 0x12345678, 0xFFFF8000 and
    // b = 0x7F0180FF... (as listed). By hand for the first pair, bytes a = (0x01, 0x7F, 0xFF,
    // 0x80), b = (0xFF, 0x80, 0x01, 0x7F) from the low byte: __vmaxs4 takes 1, 127, 1, 127 =
    // 0x7F017F01 = 2130804481; __vsadu4 adds 254 + 1 + 254 + 1 = 510.
    ok(src, &[], ONE, [3, 1, 1]);
}

#[test]
fn simd_intrinsics_take_integers() {
    let src = r#"
__global__ void k(float* x, unsigned* out) { out[0] = __vadd4(x[0], 1u); }
launch k { x = zeros(1); out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::not_an_integer"]);
    let f = err(
        &src.replace("__vadd4(x[0], 1u)", "__vadd4(1u)"),
        &[],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::argument_count"]);
}

#[test]
fn trap_stops_the_launch_only_where_a_thread_reaches_it() {
    // diff-gaussian-rasterization's should-not-happen path: `printf(...); __trap();`.
    let src = r#"
__global__ void k(float* a) {
    int i = threadIdx.x;
    if (a[i] < 0) {
        __trap();
    }
    a[i] = a[i] * 2.0f;
}
launch k { a = [1, 2, 3, 4]; expect a == [2, 4, 6, 8]; }
"#;
    ok(src, &[], ONE, [4, 1, 1]);
    // With a negative element, thread 2 reaches it (line 5).
    let f = err(
        &src.replace("[1, 2, 3, 4]; expect a == [2, 4, 6, 8];", "[1, 2, -3, 4];"),
        &[],
        Some(ONE),
        Some([4, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::trap"]);
    assert_eq!(common::position(&f), (5, 9));
    assert!(common::describe(&f).contains("thread (2, 0, 0)"));
}

#[test]
fn math_constants_h_has_the_headers_values() {
    // Kaldi's `CUDART_INF_F`. Bits expected, from the header's definitions:
    // CUDART_PI_F 3.141592654F rounds to 0x40490FDB = 1078530011; -CUDART_INF_F
    // (`__int_as_float(0x7f800000U)`) is 0xFF800000 = 4286578688; CUDART_NAN_F is 0x7fffffff =
    // 2147483647; CUDART_SQRT_HALF_F 0.707106781F rounds to 0x3F3504F3 = 1060439283 (0.70710677
    // is 1.2e-8 below, the next float 4.8e-8 above); CUDART_REMQUO_MASK_F is ~(~0U << 3) = 7.
    // CUDART_INF is 0x7ff0000000000000 = 9218868437227405312, CUDART_NAN 0xfff8000000000000 =
    // -2251799813685248 as a long long, CUDART_PI 3.1415926535897931 is 0x400921FB54442D18 =
    // 4614256656552045848.
    let src = r#"
#include <math_constants.h>
__global__ void k(unsigned* f, long long* d) {
    f[0] = __float_as_uint(CUDART_PI_F);
    f[1] = __float_as_uint(-CUDART_INF_F);
    f[2] = __float_as_uint(CUDART_NAN_F);
    f[3] = __float_as_uint(CUDART_SQRT_HALF_F);
    f[4] = CUDART_REMQUO_MASK_F;
    d[0] = __double_as_longlong(CUDART_INF);
    d[1] = __double_as_longlong(CUDART_NAN);
    d[2] = __double_as_longlong(CUDART_PI);
}
launch k {
    f = zeros(5); d = zeros(3);
    expect f == [1078530011, 4286578688, 2147483647, 1060439283, 7];
    expect d == [9218868437227405312, -2251799813685248, 4614256656552045848];
}
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn nan_of_an_empty_tag_is_the_quiet_nan() {
    // C's nan(""): glibc and __builtin_nan("") give 0x7ff8000000000000 (9221120237041090560)
    // and nanf("") 0x7fc00000 (2143289344); `::nan` is the same function. A payload tag is
    // refused (its bits are the compiler's choice).
    let src = r#"
__global__ void k(unsigned* f, long long* d, int* n) {
    f[0] = __float_as_uint(nanf(""));
    d[0] = __double_as_longlong(::nan(""));
    n[0] = isnan(nanf("")) + isnan(nan(""));
}
launch k { f = zeros(1); d = zeros(1); n = zeros(1);
    expect f == 2143289344; expect d == 9221120237041090560; expect n == 2; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let f = err(
        "__global__ void k(float* f) { f[0] = nanf(\"7\"); }\nlaunch k { f = zeros(1); }",
        &[],
        Some([1, 1, 1]),
        Some([1, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
}

#[test]
fn system_and_block_atomics_are_the_plain_ones_on_one_gpu() {
    // Two blocks of 32 threads: atomicAdd_system adds 1.5 64 times (96), atomicAdd_block 2.0f
    // 64 times (128); atomicCAS_block swaps 0 for 7 once (one thread sees the 0), and
    // atomicMax_system leaves the largest threadIdx.x, 31. Written with the plain atomics, the
    // kernel counts the same: each scope is the device's on one simulated GPU.
    let scoped = r#"
__global__ void k(double* out, float* f, int* c, int* first) {
    atomicAdd_system(out, 1.5);
    atomicAdd_block(f, 2.0f);
    if (atomicCAS_block(c, 0, 7) == 0) atomicAdd(first, 1);
    atomicMax_system(c + 1, (int)threadIdx.x);
}
launch k {
    out = zeros(1); f = zeros(1); c = zeros(2); first = zeros(1);
    expect out == [96];
    expect f == [128];
    expect c == [7, 31];
    expect first == [1];
}
"#;
    let plain = scoped.replace("_system(", "(").replace("_block(", "(");
    assert_ne!(plain, scoped);
    let a = ok(scoped, &[], [2, 1, 1], [32, 1, 1]);
    let b = ok(&plain, &[], [2, 1, 1], [32, 1, 1]);
    assert_eq!(a.expects.len(), 4);
    assert_eq!(format!("{:?}", a.counters), format!("{:?}", b.counters));
    // 4 atomic instructions in each block's one warp, and the CAS-guarded add in one warp:
    // 2 * 4 + 1.
    assert_eq!(a.counters.gatom_instr, 9);
}

#[test]
fn a_64_bit_atomic_cas_on_32_bit_memory_takes_two_words() {
    // nvdiffrast's edge hash: `atomicCAS((unsigned long long*)&p.evHash[i], 0, key)` of `uint4`
    // memory. The 64-bit element k is words 2k (low, little-endian) and 2k + 1.
    //  o[0]: slot 0 holds 0 → 5 stored (words 5, 0), old 0.
    //  o[1]: 5 matches → 0x1_0000_0007 stored (words 7, 1), old 5.
    //  o[2]: slot 1 holds 0, not 1: no swap, old 0.
    //  o[3]: slot 2 (words 4, 5) of &h[1]: 0 → 0xffffffff_00000002 (words 2, 4294967295).
    // Lanes 0..31 then CAS t + 1 into slot 4 + t % 4 in lane order: lanes 0-3 find 0 and store,
    // the others find the value of lane t % 4, that is t % 4 + 1.
    let src = r#"
__global__ void k(uint4* h, unsigned long long* o, unsigned long long* first) {
    unsigned long long* p = (unsigned long long*)&h[0];
    int t = threadIdx.x;
    if (t == 0) {
        o[0] = atomicCAS(p, 0ull, 5ull);
        o[1] = atomicCAS(p, 5ull, 0x100000007ull);
        o[2] = atomicCAS(p + 1, 1ull, 9ull);
        o[3] = atomicCAS((unsigned long long*)&h[1], 0ull, 0xffffffff00000002ull);
    }
    __syncthreads();
    first[t] = atomicCAS(p + 4 + t % 4, 0ull, (unsigned long long)(t + 1));
}
"#;
    let firsts: Vec<String> = (0..32)
        .map(|t| if t < 4 { 0 } else { t % 4 + 1 }.to_string())
        .collect();
    let full = format!(
        "{src}\nlaunch k {{ h = zeros(16); o = zeros(4); first = zeros(32); \
         expect o == [0, 5, 0, 0]; \
         expect h == [7, 1, 0, 0, 2, 4294967295, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0]; \
         expect first == [{}]; }}",
        firsts.join(",")
    );
    ok(&full, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_32_bit_atomic_on_16_bit_memory_takes_two_halves() {
    // llm.c's layernorm_backward_kernel4 writes bf16 pairs with a CAS loop on their 32 bits:
    // `atomicCAS((unsigned int*)&dbiasVec2[i], current, new)`. 4 blocks of 8 threads each add
    // (src[2i], src[2i + 1]) = (2i, 2i + 1) to pair i of ones(16): element j becomes 1 + 4j
    // (at most 61, exact in bf16's 8 significant bits). A CAS that saw one half only, or the
    // halves swapped, would leave odd or even elements wrong.
    let src = r#"
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* dbias, const float* src, int C) {
    __nv_bfloat162* dbiasVec2 = reinterpret_cast<__nv_bfloat162*>(dbias);
    for (int i = threadIdx.x; i < C / 2; i += blockDim.x) {
        __nv_bfloat162 add = __halves2bfloat162((__nv_bfloat16)src[i * 2], (__nv_bfloat16)src[i * 2 + 1]);
        __nv_bfloat162 current = __ldcg(&dbiasVec2[i]);
        __nv_bfloat162 next = add + current;
        unsigned int current32 = *reinterpret_cast<unsigned int*>(&current);
        unsigned int next32 = *reinterpret_cast<unsigned int*>(&next);
        unsigned int old32 = atomicCAS((unsigned int*)&dbiasVec2[i], current32, next32);
        while (old32 != current32) {
            current32 = old32;
            next = *reinterpret_cast<__nv_bfloat162*>(&current32) + add;
            next32 = *reinterpret_cast<unsigned int*>(&next);
            old32 = atomicCAS((unsigned int*)&dbiasVec2[i], current32, next32);
        }
    }
}
launch k { C = 16; dbias = ones(16); src = arange(16); expect dbias == 1 + 4 * arange(16); }
"#;
    let r = ok(src, &[], [4, 1, 1], [8, 1, 1]);
    assert!(r.expects.iter().all(|e| e.passed), "{:?}", r.expects);

    // Shared `unsigned short` memory through an `unsigned int*`: element k of the word view is
    // halves 2k (low, little-endian) and 2k + 1. 32 lanes add 0x10001 to word 0: both halves
    // 32. Lanes 0 and 1 add 0xffff to word 1: 0x1fffe, low half 0xfffe = 65534 and a carry of 1
    // into the high half, as one 32-bit add does. The CAS on word 0 (lane 0, after the barrier)
    // finds 0x200020 and swaps in 0x00030004: halves 4, 3.
    let src = r#"
__global__ void k(unsigned short* out, unsigned int* old) {
    __shared__ unsigned short s[4];
    int t = threadIdx.x;
    if (t < 4) s[t] = 0;
    __syncthreads();
    atomicAdd((unsigned int*)s, 0x10001u);
    if (t < 2) atomicAdd((unsigned int*)&s[2], 0xffffu);
    __syncthreads();
    if (t == 0) old[0] = atomicCAS((unsigned int*)&s[0], 0x200020u, 0x30004u);
    __syncthreads();
    if (t < 4) out[t] = s[t];
}
launch k { out = zeros(4); old = zeros(1); expect out == [4, 3, 65534, 1]; expect old == [2097184]; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn a_word_view_of_16_bit_memory_at_an_odd_element_is_misaligned() {
    let src = r#"
__global__ void k(unsigned short* h) { atomicAdd((unsigned int*)&h[1], 1u); }
launch k { h = zeros(4); }
"#;
    // &h[1] is 2 bytes into the array: not the start of a 4-byte word.
    let f = err(src, &[], Some(ONE), Some(ONE));
    let text = simt::cli::render(&f);
    assert!(text.contains("misaligned"), "{text}");
}

#[test]
fn a_lane_outside_its_own_mask_is_an_error() {
    // kaolin's typo: 0xfffffff is seven f's, bits 0-27, so lanes 28-31 call without their bit.
    let src = "__global__ void k(float* o) {\n    float v = o[threadIdx.x];\n    v += __shfl_down_sync(0xfffffff, v, 1);\n    o[threadIdx.x] = v;\n}\n";
    let f = err(src, &[("o", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::lane_not_in_mask"]);
    // The same holds for votes and __syncwarp: lane 0 calls with a mask of lanes 1-31 only.
    let src =
        "__global__ void k(int* o) {\n    __syncwarp(0xfffffffe);\n    o[threadIdx.x] = 1;\n}\n";
    let f = err(src, &[("o", "zeros(32)")], Some(ONE), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::lane_not_in_mask"]);
    // Lanes 0-3 in a branch with the mask 0xf: every caller names itself, and the mask names no
    // lane outside the branch, so the vote runs: 4 lanes of value 1.
    let src = "__global__ void k(int* o) {\n    if (threadIdx.x < 4) o[threadIdx.x] = __popc(__ballot_sync(0xf, 1));\n}\nlaunch k {\n    o = zeros(8);\n    expect o == [4, 4, 4, 4, 0, 0, 0, 0];\n}\n";
    ok(src, &[], ONE, [8, 1, 1]);
}

#[test]
fn dp4a_sums_byte_products_signed_or_unsigned() {
    // 0x01020304 · 0x05060708 byte by byte: 4·8 + 3·7 + 2·6 + 1·5 = 70, plus 10: 80.
    // 0xff00ff01 has the bytes 1, -1, 0, -1 as `int` (1, 255, 0, 255 as `unsigned`); with
    // 0x02020202: 2 - 2 + 0 - 2 = -2 signed, 2 + 510 + 0 + 510 = 1022 unsigned.
    let src = r#"
__global__ void k(int* out, unsigned* uout) {
    out[0] = __dp4a(0x01020304, 0x05060708, 10);
    out[1] = __dp4a((int)0xff00ff01, 0x02020202, 0);
    uout[0] = __dp4a(0xff00ff01u, 0x02020202u, 0u);
}
launch k { out = zeros(2); uout = zeros(1); expect out == [80, -2]; expect uout == [1022]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn gccs_bit_builtins_in_device_code() {
    // gsplat's rasterizer walks a bit mask with `__builtin_ctz`. 0x50 = 0b101_0000: 4 trailing
    // zeros; 0 has all 32 (the device's `brev` + `clz`); 1 << 40 has 40 of 64; `__builtin_clz(1)`
    // = 31, `__builtin_clzll(1)` = 63; 0xff has 8 bits set, 0xff00000000ff 16; `__builtin_ffs(8)`
    // = 4 (positions from 1).
    let src = r#"
__global__ void k(const unsigned* z, int* out) {
    unsigned long long big = 1ull << 40;
    out[0] = __builtin_ctz(0x50u);
    out[1] = __builtin_ctz(z[0]);
    out[2] = __builtin_ctzll(big);
    out[3] = __builtin_clz(1u);
    out[4] = __builtin_clzll(1ull);
    out[5] = __builtin_popcount(0xffu);
    out[6] = __builtin_popcountll(0xff00000000ffull);
    out[7] = __builtin_ffs(8);
}
launch k { z = [0]; out = zeros(8); expect out == [4, 32, 40, 31, 63, 8, 16, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
}

#[test]
fn builtin_bit_cast_keeps_the_bytes() {
    // DALI's CV_HEX_CONST_F(x) is static_cast<float>(__builtin_bit_cast(double, (uint64_t)x)):
    // 0x3fe0000000000000 is the double 0.5; 1.0f is 0x3f800000; 0x40400000 is 3.0f; and
    // `std::bit_cast<long long>(-0.0)` is the sign bit alone.
    let src = r#"
#include <stdint.h>
#define CV_HEX_CONST_F(x) static_cast<float>(__builtin_bit_cast(double, (uint64_t)(x)))
__global__ void k(float* out, unsigned* bits, long long* sign) {
    out[0] = CV_HEX_CONST_F(0x3fe0000000000000);
    out[1] = __builtin_bit_cast(float, 0x40400000u);
    bits[0] = __builtin_bit_cast(unsigned, 1.0f);
    sign[0] = std::bit_cast<long long>(-0.0);
}
launch k { out = zeros(2); bits = zeros(1); sign = zeros(1); expect out == [0.5, 3]; expect bits == [0x3f800000]; expect sign == [-9223372036854775808]; }
"#;
    ok(src, &[], ONE, ONE);
    // A cast between sizes keeps no meaning: a diagnostic, as C++ makes it ill-formed. A
    // 16-bit float's register is a float, so its bit cast is refused too, naming the
    // cuda_fp16.h functions that do it.
    let f = err(
        "__global__ void k(float* out) { out[0] = __builtin_bit_cast(float, 1.0); }\n",
        &[("out", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    let f = err(
        "#include <cuda_fp16.h>\n__global__ void k(const half* h, unsigned short* out) { out[0] = __builtin_bit_cast(unsigned short, h[0]); }\n",
        &[("h", "zeros(1)"), ("out", "zeros(1)")],
        Some(ONE),
        Some(ONE),
    );
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(format!("{:?}", f.errors[0]).contains("__half_as_ushort"));
}

#[test]
fn a_left_out_kernel_does_not_hide_the_launched_kernels_errors_in_a_shared_function() {
    // `k2` comes first and is left out of a run of `k4`; both instantiate `f`, whose body
    // either way views a pointer into two arrays as narrower integers, which simt refuses. Checking `k2`
    // marks `f` as already reported: that mark must go with `k2`'s dropped errors, or `k4`
    // takes the call for a placeholder and runs an empty kernel (0 instructions, no error).
    let src = r#"
template <class T, int C>
__device__ void f(float* a, float* b, int s) {
    float* p = s ? a : b;
    T v = *((const T*)&p[C * threadIdx.x]);
    *((T*)&p[C * threadIdx.x]) = v + v;
}
__global__ void k2(float* a, float* b, int s) { f<short, 2>(a, b, s); }
__global__ void k4(float* a, float* b, int s) { f<char, 4>(a, b, s); }
launch k4 { a = ones(8); b = ones(8); s = 1; expect a == 2; }
"#;
    let f = err(src, &[], Some(ONE), Some([2, 1, 1]));
    assert_eq!(
        codes(&f),
        ["simt::check::unsupported", "simt::check::unsupported"]
    );
}

#[test]
fn the_special_functions_compute_their_definitions() {
    // Values by their definitions: Φ(0) = 1/2 and Φ(-x) = 1 - Φ(x); each inverse undoes its
    // function; erfcx(1) = e · erfc(1) = 0.42758357615580705, erfcx(30) = 0.0187958888614 (its
    // asymptotic series, where erfc(30) underflows a float); lgamma(4) = ln 6; Γ(5) = 24,
    // Γ(1/2) = √π; 1/∛27 = 1/3; sin(π/6) = cos(π/3) = 1/2; J0(0) = 1, and 2.404825557695773 is
    // J0's first zero.
    let src = r#"
__global__ void k(float* f, unsigned* bits) {
    f[0] = normcdff(0.0f);
    f[1] = normcdff(-1.5f) + normcdff(1.5f);
    f[2] = normcdfinvf(normcdff(1.5f));
    f[3] = erfinvf(erff(0.3f));
    f[4] = erfcinvf(erfcf(2.5f));
    f[5] = erfcxf(1.0f);
    f[6] = erfcxf(30.0f);
    f[7] = lgammaf(4.0f);
    f[8] = tgammaf(5.0f);
    f[9] = tgammaf(0.5f);
    f[10] = rcbrtf(27.0f);
    f[11] = sinpif(1.0f / 6.0f);
    f[12] = cospif(1.0f / 3.0f);
    f[13] = j0f(0.0f);
    f[14] = (float)j0(2.404825557695773);
    f[15] = (float)normcdf(1.0);
    // Exact: 7 - 2·4 (3.5 ties to the even 4), 5 - 2·2, the next float after 1 up and after
    // 0 down, sin(π) a positive zero and sin(-3π) a negative one, cos(π/2) zero.
    bits[0] = __float_as_uint(remainderf(7.0f, 2.0f));
    bits[1] = __float_as_uint(remainderf(5.0f, 2.0f));
    bits[2] = __float_as_uint(nextafterf(1.0f, 2.0f));
    bits[3] = __float_as_uint(nextafterf(0.0f, -1.0f));
    bits[4] = __float_as_uint(sinpif(1.0f));
    bits[5] = __float_as_uint(sinpif(-3.0f));
    bits[6] = __float_as_uint(cospif(0.5f));
}
launch k {
    f = zeros(16); bits = zeros(7);
    expect f == [0.5, 1.0, 1.5, 0.3, 2.5, 0.42758357615580705, 0.018795888861416751,
                 1.791759469228055, 24.0, 1.7724538509055159, 0.3333333333333333, 0.5, 0.5,
                 1.0, 0.0, 0.8413447460685429];
    expect bits == [0xbf800000, 0x3f800000, 0x3f800001, 0x80000001, 0x00000000, 0x80000000,
                    0x00000000];
}
"#;
    let r = common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn dpx_intrinsics_follow_the_math_api_on_32_bit_and_halfword_lanes() {
    // 32-bit lanes: max(-5, 3) = 3; min_u32(0xffffffff, 2) = 2; max3(1, 9, -4) = 9;
    // min3 = -4; max_relu(-5, -3) = max(-3, 0) = 0; min_relu(7, 3) = 3.
    // addmax_s32(INT_MAX, 1, -10): the sum wraps to INT_MIN, so -10; addmin_u32(0xffffffff,
    // 2, 5): the sum wraps to 1, so 1; addmax_s32_relu(-3, -4, -10) = max(-7, -10, 0) = 0.
    // Halfwords, a = 0x8001_0005 (high -32767 signed, 32769 unsigned; low 5) and
    // b = 0x0002_ffff (high 2; low -1 signed, 65535 unsigned):
    //   max_s16x2 = (2, 5) = 0x0002_0005 = 131077; max_u16x2 = (0x8001, 0xffff) = 2147614719;
    //   min_s16x2_relu = (max(-32767, 0), max(-1, 0)) = 0; max3_u16x2(a, b, 0) = 2147614719.
    // a2 = 0x7fff_0001, b2 = 0x0001_0001, c2 = 0x8000_0000:
    //   addmax_s16x2: high 32767 + 1 wraps to -32768, max with -32768 → 0x8000; low 1 + 1 = 2,
    //   max with 0 → 2: 0x8000_0002 = 2147483650; addmin_u16x2: high min(32768, 32768) =
    //   0x8000, low min(2, 0) = 0: 2147483648.
    // Picking: bmax_s32(3, 3) = 3, flag 3 >= 3; bmin_u32(5, 2) = 2, flag 5 <= 2 false;
    // bmax_s16x2(a, b) = 131077, high flag -32767 >= 2 false, low flag 5 >= -1 true.
    let src = r#"
__global__ void k(long long* o, int* f) {
    unsigned a = 0x80010005u, b = 0x0002ffffu;
    unsigned a2 = 0x7fff0001u, b2 = 0x00010001u, c2 = 0x80000000u;
    bool p, q, hi, lo;
    o[0] = __vimax_s32(-5, 3);
    o[1] = __vimin_u32(0xffffffffu, 2u);
    o[2] = __vimax3_s32(1, 9, -4);
    o[3] = __vimin3_s32(1, 9, -4);
    o[4] = __vimax_s32_relu(-5, -3);
    o[5] = __vimin_s32_relu(7, 3);
    o[6] = __viaddmax_s32(0x7fffffff, 1, -10);
    o[7] = __viaddmin_u32(0xffffffffu, 2u, 5u);
    o[8] = __viaddmax_s32_relu(-3, -4, -10);
    o[9] = __vimax_s16x2(a, b);
    o[10] = __vimax_u16x2(a, b);
    o[11] = __vimin_s16x2_relu(a, b);
    o[12] = __vimax3_u16x2(a, b, 0u);
    o[13] = __viaddmax_s16x2(a2, b2, c2);
    o[14] = __viaddmin_u16x2(a2, b2, c2);
    o[15] = __vibmax_s32(3, 3, &p);
    o[16] = __vibmin_u32(5u, 2u, &q);
    o[17] = __vibmax_s16x2(a, b, &hi, &lo);
    f[0] = p; f[1] = q; f[2] = hi; f[3] = lo;
}
launch k {
    o = zeros(18); f = zeros(4);
    expect o == [3, 2, 9, -4, 0, 3, -10, 1, 0, 131077, 2147614719, 0, 2147614719,
                 2147483650, 2147483648, 3, 2, 131077];
    expect f == [1, 0, 0, 1];
}
"#;
    assert!(ok(src, &[], ONE, ONE).expects_passed());
}

#[test]
fn the_norms_and_modified_bessel_functions_compute_their_definitions() {
    // norm3d(2, 3, 6) = √49 = 7; rnorm3d of it 1/7; norm4d(1, 2, 2, 4) = √25 = 5; norm3df at
    // 1e30 does not overflow where the squares would: 1e30·√3 = 1.7320508e30. I0 and I1 from
    // their series in 60-digit decimals (A&S 9.6.10): I0(1) = 1.2660658777520084, I1(1) =
    // 0.565159103992485; at 25, past the series' range, the asymptotic form: I0(25) =
    // 5774560606.4663105, I1(-25) = -5657865129.878701 (I1 is odd). sincospi(1/6): 1/2 and
    // √3/2.
    let src = r#"
__global__ void k(double* d, float* f, int* flags) {
    d[0] = norm3d(2.0, 3.0, 6.0);
    d[1] = rnorm3d(2.0, 3.0, 6.0);
    d[2] = norm4d(1.0, 2.0, 2.0, 4.0);
    d[3] = cyl_bessel_i0(1.0);
    d[4] = cyl_bessel_i1(1.0);
    d[5] = cyl_bessel_i0(25.0);
    d[6] = cyl_bessel_i1(-25.0);
    sincospi(1.0 / 6.0, &d[7], &d[8]);
    f[0] = norm3df(1e30f, 1e30f, 1e30f);
    f[1] = rnorm4df(1.0f, 1.0f, 1.0f, 1.0f);
    // I0(±inf) = +inf, I1 takes x's sign.
    flags[0] = isinf(cyl_bessel_i0f(-INFINITY)) && cyl_bessel_i0f(-INFINITY) > 0.0f;
    flags[1] = isinf(cyl_bessel_i1(-INFINITY)) && cyl_bessel_i1(-INFINITY) < 0.0;
}
launch k {
    d = zeros(9); f = zeros(2); flags = zeros(2);
    expect d == [7.0, 0.14285714285714285, 5.0, 1.2660658777520084, 0.565159103992485,
                 5774560606.4663105, -5657865129.878701, 0.5, 0.8660254037844387];
    expect f == [1.7320508e30, 0.5];
    expect flags == [1, 1];
}
"#;
    let r = common::ok(src, &[], [1, 1, 1], [1, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn signbit_builtins_are_ints_and_an_unreachable_point_reached_stops_the_launch() {
    // icicle's Keccak ROTL1: `(x << 1) | __signbit(*reinterpret_cast<double*>(&x))` rotates
    // 0x8000000000000001 left by one: 3. `__signbitf(-0.0f)` is 1, `__signbit(2.0)` 0, and
    // they are `int`s (4 bytes). ML-KEM's `default: __builtin_unreachable();` is never taken
    // for sel = 0; taken, it is undefined behaviour, reported where it is.
    let src = r#"
__global__ void k(unsigned long long* out, int* s, int sel) {
    unsigned long long x = 0x8000000000000001ULL;
    out[0] = (x << 1) | __signbit(*reinterpret_cast<double*>(&x));
    s[0] = __signbitf(-0.0f); s[1] = __signbit(2.0); s[2] = sizeof(__signbit(1.0));
    switch (sel) {
    case 0: out[1] = 5; break;
    default: __builtin_unreachable();
    }
}
launch k { out = zeros(2); s = zeros(3); sel = 0; grid = 1; block = 1; expect out == [3, 5]; expect s == [1, 0, 4]; }
"#;
    ok(src, &[], [1, 1, 1], [1, 1, 1]);
    let f = err(src, &[("sel", "1")], None, None);
    assert_eq!(codes(&f), ["simt::run::unreachable"]);
    assert_eq!(common::position(&f), (8, 14));
}
