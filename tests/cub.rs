//! CUB's warp and block reductions: their results where CUB defines them, and the shuffles,
//! shared-memory accesses and barrier they are counted as (README, "CUB").

mod common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

/// `[a, b, ...]` for a launch section.
fn list(v: impl IntoIterator<Item = i64>) -> String {
    let v: Vec<String> = v.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn warp_reduce_sum_is_five_shuffle_and_add_rounds_into_lane_zero() {
    // Two warps; thread t contributes t. Lane 0 of warp 0 gets 0 + ... + 31 = 496, of warp 1
    // 32 + ... + 63 = 1520. The same kernel without the reduction issues, per warp, 5 shuffles
    // (offsets 1, 2, 4, 8, 16) and 5 adds fewer: 2 warps × 10 = 20 warp instructions, each
    // with all 32 lanes active (640 lane slots).
    let body = |reduce: &str| {
        format!(
            r#"
__global__ void k(float* out) {{
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[2];
    int t = threadIdx.x;
    float v = t;
    float s = {reduce};
    if (t % 32 == 0) out[t / 32] = s;
}}
"#
        )
    };
    let with = ok(
        &format!(
            "{}launch k {{ out = zeros(2); expect out == [496, 1520]; }}\n",
            body("WarpReduce(temp[t / 32]).Sum(v)")
        ),
        &[],
        ONE,
        [64, 1, 1],
    );
    let without = ok(
        &format!("{}launch k {{ out = zeros(2); }}\n", body("v")),
        &[],
        ONE,
        [64, 1, 1],
    );
    assert_eq!(with.counters.warp_instr - without.counters.warp_instr, 20);
    assert_eq!(
        with.counters.active_lane_slots - without.counters.active_lane_slots,
        640
    );
    // The shuffle reduction keeps nothing in shared memory and needs no barrier.
    assert_eq!(with.counters.barriers, 0);
    assert_eq!(with.counters.smem_instr, 0);
}

#[test]
fn logical_warps_and_valid_items() {
    // WarpReduce<int, 8>: eight logical warps of 8 lanes in 64 threads. Lane 0 of logical warp
    // w holds the sum of 8w .. 8w + 7 = 64w + 28. With Sum(v, 5) only its first five lanes
    // count: 8w + 0 + ... + 8w + 4 = 40w + 10.
    let src = format!(
        r#"
__global__ void k(int* all8, int* five) {{
    using W8 = cub::WarpReduce<int, 8>;
    __shared__ typename W8::TempStorage temp;
    int t = threadIdx.x;
    int s = W8(temp).Sum(t);
    int p = W8(temp).Sum(t, 5);
    if (t % 8 == 0) {{ all8[t / 8] = s; five[t / 8] = p; }}
}}
launch k {{ all8 = zeros(8); five = zeros(8); expect all8 == {}; expect five == {}; }}
"#,
        list((0..8).map(|w| 64 * w + 28)),
        list((0..8).map(|w| 40 * w + 10)),
    );
    ok(&src, &[], ONE, [64, 1, 1]);
}

#[test]
fn reduce_takes_cub_operators_functors_and_lambdas() {
    // Thread t of a warp contributes (t * 7) % 32, a permutation of 0..31 in each warp
    // (7 is odd): the max is 31 and the min 0 in every warp. The lambda computes the max again,
    // and the functor the sum: 496 per warp, as the values are a permutation of 0..31.
    let src = r#"
struct Add {
    __device__ int operator()(int a, int b) const { return a + b; }
};
__global__ void k(int* mx, int* mn, int* lam, int* fun) {
    __shared__ cub::WarpReduce<int>::TempStorage temp;
    int t = threadIdx.x;
    int v = (t * 7) % 32;
    auto bigger = [](int a, int b) { return a < b ? b : a; };
    Add add;
    int a = cub::WarpReduce<int>(temp).Reduce(v, cub::Max());
    int b = cub::WarpReduce<int>(temp).Reduce(v, cub::Min());
    int c = cub::WarpReduce<int>(temp).Reduce(v, bigger);
    int d = cub::WarpReduce<int>(temp).Reduce(v, add);
    if (t % 32 == 0) { mx[t / 32] = a; mn[t / 32] = b; lam[t / 32] = c; fun[t / 32] = d; }
}
launch k {
    mx = zeros(2); mn = zeros(2); lam = zeros(2); fun = zeros(2);
    expect mx == 31; expect mn == 0; expect lam == 31; expect fun == 496;
}
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn block_reduce_gives_the_total_to_thread_zero_only() {
    // A block of (1, 128): 4 warps; thread t = threadIdx.y contributes t. Thread 0 gets
    // 0 + ... + 127 = 8128. Thread 32 (lane 0 of warp 1) keeps its warp's aggregate,
    // 32 + ... + 63 = 1520, as on the GPU: not the total.
    // Counted per block: lane 0 of each warp stores its aggregate (4 shared stores, one per
    // warp), one barrier, thread 0 loads the 3 other warps' aggregates (3 shared loads).
    let src = r#"
template <typename T, int X, int Y>
__global__ void k(T* total, T* warp1) {
    using BlockReduce = cub::BlockReduce<T, X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, Y>;
    __shared__ typename BlockReduce::TempStorage temp;
    T v = threadIdx.y;
    T s = BlockReduce(temp).Sum(v);
    if (threadIdx.y == 0) total[blockIdx.x] = s;
    if (threadIdx.y == 32) warp1[blockIdx.x] = s;
}
launch k<int, 1, 128> {
    total = zeros(2); warp1 = zeros(2); grid = 2; block = (1, 128);
    expect total == 8128; expect warp1 == 1520;
}
"#;
    let r = ok(src, &[], [2, 1, 1], [1, 128, 1]);
    assert_eq!(r.counters.barriers, 2);
    assert_eq!(r.counters.smem_instr, 2 * (4 + 3));
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn block_reduce_of_valid_items_and_of_a_partial_warp() {
    // 48 threads: warp 0 full, warp 1 has 16 lanes (CUB reduces those only). Sum of t over
    // 0..47 = 1128. With Sum(v, 40), threads 0..39: 780. Reduce(v, cub::Max()) = 47.
    let src = r#"
__global__ void k(int* out) {
    typedef cub::BlockReduce<int, 48> BR;
    __shared__ typename BR::TempStorage a;
    __shared__ typename BR::TempStorage b;
    __shared__ typename BR::TempStorage c;
    int t = threadIdx.x;
    int all = BR(a).Sum(t);
    int some = BR(b).Sum(t, 40);
    int top = BR(c).Reduce(t, cub::Max());
    if (t == 0) { out[0] = all; out[1] = some; out[2] = top; }
}
launch k { out = zeros(3); expect out == [1128, 780, 47]; }
"#;
    ok(src, &[], ONE, [48, 1, 1]);
}

#[test]
fn reusing_a_block_reduce_storage_without_a_barrier_is_a_race() {
    // CUB's documentation: a TempStorage reused needs a __syncthreads() first. Without it, lane
    // 0 of warp 1 stores its second aggregate while thread 0 may still be reading the first.
    let src = |between: &str| {
        format!(
            r#"
__global__ void k(int* out) {{
    using BR = cub::BlockReduce<int, 64>;
    __shared__ typename BR::TempStorage temp;
    int t = threadIdx.x;
    int a = BR(temp).Sum(t);
    {between}
    int b = BR(temp).Sum(2 * t);
    if (t == 0) {{ out[0] = a; out[1] = b; }}
}}
launch k {{ out = zeros(2); expect out == [2016, 4032]; }}
"#
        )
    };
    let racy = ok(&src(""), &[], ONE, [64, 1, 1]);
    assert!(racy.counters.race_count > 0, "the reuse races");
    let fenced = ok(&src("__syncthreads();"), &[], ONE, [64, 1, 1]);
    assert_eq!(fenced.counters.race_count, 0);
    assert_eq!(fenced.counters.barriers, 3);
}

#[test]
fn a_block_reduce_for_another_block_shape_is_refused() {
    // Specialised for 128 threads, launched with 64: CUB would compute wrong warp ids; simt
    // stops before the launch runs, pointing at the class.
    let src = r#"
__global__ void k(int* out) {
    __shared__ cub::BlockReduce<int, 128>::TempStorage temp;
    int s = cub::BlockReduce<int, 128>(temp).Sum(1);
    if (threadIdx.x == 0) out[0] = s;
}
"#;
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::block_shape"]);
    ok(
        &format!("{src}launch k {{ out = zeros(1); expect out == 128; }}\n"),
        &[],
        ONE,
        [128, 1, 1],
    );
}

#[test]
fn misuse_is_a_diagnostic() {
    let cases = [
        (
            // A TempStorage in registers.
            "    typename cub::WarpReduce<float>::TempStorage temp;",
            "simt::check::cub_storage_not_shared",
        ),
        (
            // Another class's TempStorage.
            "    __shared__ cub::WarpReduce<float>::TempStorage temp;\n    out[0] = cub::BlockReduce<float, 32>(temp).Sum(1.0f);",
            "simt::check::cub_storage",
        ),
        (
            // A CUB class simt does not model.
            "    __shared__ cub::BlockScan<float, 32>::TempStorage temp;",
            "simt::check::cub_unsupported",
        ),
        (
            // Another algorithm.
            "    __shared__ cub::BlockReduce<float, 32, cub::BLOCK_REDUCE_RAKING>::TempStorage temp;",
            "simt::check::cub_unsupported",
        ),
        (
            // A member simt does not have.
            "    __shared__ cub::WarpReduce<float>::TempStorage temp;\n    out[0] = cub::WarpReduce<float>(temp).Broadcast(1.0f, 0);",
            "simt::check::cub_unsupported",
        ),
    ];
    for (body, code) in cases {
        let src = format!("__global__ void k(float* out) {{\n{body}\n}}\n");
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), [code], "{body}");
    }
}
