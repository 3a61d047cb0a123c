//! CUB's warp and block reductions: their results where CUB defines them, and the shuffles,
//! shared-memory accesses and barrier they are counted as (README, "CUB").

use crate::common;
use common::{codes, err, ok};
use miette::Diagnostic;

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
            "    __shared__ cub::BlockRadixSort<float, 32, 4>::TempStorage temp;",
            "simt::check::cub_unsupported",
        ),
        (
            // A raking algorithm for a block that is neither whole warps nor a power of two.
            "    __shared__ cub::BlockReduce<float, 48, cub::BLOCK_REDUCE_RAKING>::TempStorage temp;",
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

#[test]
fn warp_transpose_load_and_store_move_a_blocked_tile_through_each_warps_buffer() {
    // 64 threads, 4 items each: after Load, thread t holds in[4t .. 4t + 3] (CUB's blocked
    // arrangement), so first[t] = 4t; the store writes the doubled tile back in place.
    // Counted, as block_load.cuh / block_exchange.cuh / block_store.cuh issue them, per warp:
    // - Load: 4 warp-striped global loads (lane l of warp w reads w·128 + l + 32i: 128
    //   contiguous bytes, 4 sectors each); 4 shared stores at the same warp-striped places
    //   (1 wavefront each); __syncwarp; 4 shared loads at 4l + i (stride 4 words: 4-way bank
    //   conflict, 4 wavefronts each).
    // - Store: the reverse exchange (4 stores of 4 wavefronts, 4 loads of 1), then 4 global
    //   stores of 4 sectors. Without valid_items there is no barrier.
    // 2 warps: global loads 8 (32 sectors), shared 16 stores (8·1 + 8·4 = 40 wavefronts) and
    // 16 loads (8·4 + 8·1 = 40), 0 barriers; global stores 8 + 2 (first[]).
    let src = format!(
        r#"
__global__ void k(const float* in, float* out, float* first) {{
    typedef cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;
    typedef cub::BlockStore<float, 64, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> S;
    __shared__ typename L::TempStorage lt;
    __shared__ typename S::TempStorage st;
    float v[4];
    L(lt).Load(in, v);
    first[threadIdx.x] = v[0];
    for (int j = 0; j < 4; j++) v[j] *= 2;
    S(st).Store(out, v);
}}
launch k {{
    in = arange(256); out = zeros(256); first = zeros(64);
    expect first == {}; expect out == arange(256) * 2;
}}
"#,
        list((0..64).map(|t| 4 * t))
    );
    let r = ok(&src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.gld_instr, 8);
    assert_eq!(r.counters.gld_sectors, 32);
    assert_eq!(r.counters.gst_instr, 8 + 2);
    assert_eq!(r.counters.smem_instr, 16 + 16);
    assert_eq!(r.counters.smem_wavefronts, 40 + 40);
    assert_eq!(r.counters.barriers, 0);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn partial_tiles_take_valid_items_and_a_default() {
    // 32 threads × 4 items, 100 valid: thread t's items are 4t + j where below 100, else the
    // default -1. Sum per thread: 16t + 6 for t < 25, -4 above. Store(out, v, 100) writes
    // out[0..100) only (the rest stays 0).
    // BlockStore's partial store moves valid_items through shared memory: thread 0 stores it
    // (1 instruction), a barrier, every thread loads it (1 instruction); with the two 4 + 4
    // exchanges that is 9 shared stores and 9 loads, and 1 barrier.
    let sums: Vec<i64> = (0..32)
        .map(|t| if t < 25 { 16 * t + 6 } else { -4 })
        .collect();
    let out: Vec<i64> = (0..128).map(|i| if i < 100 { i } else { 0 }).collect();
    let src = format!(
        r#"
__global__ void k(const float* in, float* out, float* sum) {{
    typedef cub::BlockLoad<float, 32, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;
    typedef cub::BlockStore<float, 32, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> S;
    __shared__ typename L::TempStorage lt;
    __shared__ typename S::TempStorage st;
    float v[4];
    L(lt).Load(in, v, 100, -1.0f);
    sum[threadIdx.x] = v[0] + v[1] + v[2] + v[3];
    S(st).Store(out, v, 100);
}}
launch k {{ in = arange(128); out = zeros(128); sum = zeros(32); expect sum == {}; expect out == {}; }}
"#,
        list(sums),
        list(out)
    );
    let r = ok(&src, &[], ONE, [32, 1, 1]);
    assert_eq!(r.counters.smem_instr, 9 + 9);
    assert_eq!(r.counters.barriers, 1);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn direct_striped_and_transpose_algorithms() {
    // 64 threads × 2 items of `in = arange(128)`. DIRECT reads the blocked arrangement itself
    // (thread t: 2t, 2t + 1) with no shared memory; STRIPED leaves the striped one (t, t + 64);
    // TRANSPOSE reads striped and exchanges block-wide: blocked again, after one barrier, with
    // 2 shared stores and 2 loads per warp (4 + 4 in all).
    let src = |alg: &str, a: i64, b: i64| {
        format!(
            r#"
__global__ void k(const int* in, int* x, int* y) {{
    typedef cub::BlockLoad<int, 64, 2, cub::BLOCK_LOAD_{alg}> L;
    __shared__ typename L::TempStorage lt;
    int v[2];
    L(lt).Load(in, v);
    x[threadIdx.x] = v[0]; y[threadIdx.x] = v[1];
}}
launch k {{ in = arange(128); x = zeros(64); y = zeros(64); expect x == {}; expect y == {}; }}
"#,
            list((0..64).map(|t| a * t)),
            list((0..64).map(|t| a * t + b)),
        )
    };
    let direct = ok(&src("DIRECT", 2, 1), &[], ONE, [64, 1, 1]);
    assert_eq!(direct.counters.smem_instr, 0);
    assert_eq!(direct.counters.barriers, 0);
    let striped = ok(&src("STRIPED", 1, 64), &[], ONE, [64, 1, 1]);
    assert_eq!(striped.counters.smem_instr, 0);
    let transpose = ok(&src("TRANSPOSE", 2, 1), &[], ONE, [64, 1, 1]);
    assert_eq!(transpose.counters.smem_instr, 4 + 4);
    assert_eq!(transpose.counters.barriers, 1);
    // Warp-striped global loads touch 2 × 128 contiguous bytes per warp; blocked (DIRECT)
    // ones read every other word per instruction: 8 sectors each instead of 4.
    assert_eq!(direct.counters.gld_sectors, 2 * 2 * 8);
    assert_eq!(transpose.counters.gld_sectors, 2 * 2 * 4);
}

#[test]
fn block_reduce_as_vllm_and_bitsandbytes_write_it() {
    // 128 threads, thread t contributes t: the sum is 8128, the max 127. The op as a function
    // object (`AddOp{}` with `using AddOp = cuda::std::plus<>`, `cuda::maximum<>{}`), the block
    // dimension as template arithmetic (512 / 4), and half items (all exact in half).
    let src = r#"
using AddOp = cuda::std::plus<>;
template <int BLOCK_SIZE, int NUM_VALS>
__global__ void k(const float* in, const half* h, float* out) {
    typedef cub::BlockReduce<float, BLOCK_SIZE/NUM_VALS> BR;
    using BH = cub::BlockReduce<half, 128>;
    __shared__ typename BR::TempStorage a;
    __shared__ typename BR::TempStorage b;
    __shared__ typename BH::TempStorage c;
    float s = BR(a).Reduce(in[threadIdx.x], AddOp{}, blockDim.x);
    float m = BR(b).Reduce(in[threadIdx.x], cuda::maximum<>{});
    half hm = BH(c).Reduce(h[threadIdx.x], cub::Max(), 128);
    if (threadIdx.x == 0) { out[0] = s; out[1] = m; out[2] = __half2float(hm); }
}
launch k<512, 4> { in = arange(128); h = arange(128); out = zeros(3); expect out == [8128, 127, 127]; }
"#;
    ok(src, &[], ONE, [128, 1, 1]);
}

#[test]
fn block_load_and_store_misuse_is_a_diagnostic() {
    let cases = [
        (
            // Items of another length than ITEMS_PER_THREAD.
            "    float v[3];\n    L(t).Load(out, v);",
            "simt::check::cub_argument",
        ),
        (
            // A load used as a value.
            "    float v[4];\n    out[0] = L(t).Load(out, v);",
            "simt::check::no_value",
        ),
        (
            // Store on a BlockLoad.
            "    float v[4];\n    L(t).Store(out, v);",
            "simt::check::cub_unsupported",
        ),
    ];
    for (body, code) in cases {
        let src = format!(
            "__global__ void k(float* out) {{\n    typedef cub::BlockLoad<float, 32, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;\n    __shared__ typename L::TempStorage t;\n{body}\n}}\n"
        );
        let f = err(&src, &[("out", "zeros(128)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), [code], "{body}");
    }
    // CUB's static assertion: WARP_TRANSPOSE needs whole warps.
    let src = "__global__ void k(float* out) {\n    __shared__ cub::BlockLoad<float, 48, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>::TempStorage t;\n}\n";
    let f = err(src, &[("out", "zeros(1)")], Some(ONE), Some([48, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::cub_template"]);
}

#[test]
fn vectorize_moves_a_partial_tile_item_by_item_as_direct() {
    // BLOCK_LOAD_VECTORIZE / BLOCK_STORE_VECTORIZE with valid_items fall back to
    // LoadDirectBlocked / StoreDirectBlocked: 64 threads × 2 items, blocked (thread t: 2t,
    // 2t + 1), the first 100 valid, the others the default -1 on the load and untouched on the
    // store (which stores v, out = in below 100 and 0 above).
    let src = |alg: &str| {
        format!(
            r#"
__global__ void k(const int* in, int* out, int* x) {{
    typedef cub::BlockLoad<int, 64, 2, cub::BLOCK_LOAD_{alg}> L;
    typedef cub::BlockStore<int, 64, 2, cub::BLOCK_STORE_{alg}> S;
    __shared__ typename L::TempStorage lt;
    __shared__ typename S::TempStorage st;
    int v[2];
    L(lt).Load(in, v, 100, -1);
    x[threadIdx.x] = v[0] + v[1];
    S(st).Store(out, v, 100);
}}
launch k {{ in = arange(128); out = zeros(128); x = zeros(64); expect x == {}; expect out == {}; }}
"#,
            list((0..64).map(|t| if t < 50 { 4 * t + 1 } else { -2 })),
            list((0..128).map(|i| if i < 100 { i } else { 0 })),
        )
    };
    let direct = ok(&src("DIRECT"), &[], ONE, [64, 1, 1]).counters;
    let vectorize = ok(&src("VECTORIZE"), &[], ONE, [64, 1, 1]).counters;
    assert_eq!(vectorize.smem_instr, 0);
    assert_eq!(
        (
            vectorize.gld_instr,
            vectorize.gld_sectors,
            vectorize.gst_sectors
        ),
        (direct.gld_instr, direct.gld_sectors, direct.gst_sectors)
    );
}

#[test]
fn vectorize_moves_a_full_tile_as_vectors() {
    // CUB's InternalLoadDirectBlockedVectorized: `int v[4]` of 64 threads is one `int4` load
    // per thread (VECTOR_SIZE 4), blocked: thread t reads 4t..4t + 3; a request per warp of
    // 32 × 16 B = 512 B = 16 sectors, 2 warps. The store is the same. `double w[4]` is 32
    // bytes a thread: two `double2` accesses (nvcc's split), the lanes 32 bytes apart, so each
    // request spans 32 × 32 B = 1024 B = 32 sectors: 2 warps × 2 requests × 32. An odd count
    // (`int u[3]`) is VECTOR_SIZE 1: 3 requests per warp of 32 × 4 B spread 12 bytes apart
    // (32 × 12 = 384 B = 12 sectors each).
    let src = format!(
        r#"
__global__ void k(const int* in, int* out, const double* d, double* dout, const int* i3, int* x) {{
    typedef cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_VECTORIZE> L;
    typedef cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_VECTORIZE> S;
    typedef cub::BlockLoad<double, 64, 4, cub::BLOCK_LOAD_VECTORIZE> LD;
    typedef cub::BlockStore<double, 64, 4, cub::BLOCK_STORE_VECTORIZE> SD;
    typedef cub::BlockLoad<int, 64, 3, cub::BLOCK_LOAD_VECTORIZE> L3;
    __shared__ typename L::TempStorage lt;
    __shared__ typename S::TempStorage st;
    __shared__ typename LD::TempStorage ldt;
    __shared__ typename SD::TempStorage sdt;
    __shared__ typename L3::TempStorage l3t;
    int v[4]; double w[4]; int u[3];
    L(lt).Load(in, v);
    S(st).Store(out, v);
    LD(ldt).Load(d, w);
    SD(sdt).Store(dout, w);
    L3(l3t).Load(i3, u);
    x[threadIdx.x] = v[0] + v[3] + u[0] + u[2];
}}
launch k {{
    in = arange(256); out = zeros(256); d = arange(256); dout = zeros(256);
    i3 = arange(192); x = zeros(64);
    expect out == in; expect dout == d; expect x == {};
}}
"#,
        list((0..64).map(|t| (4 * t) + (4 * t + 3) + (3 * t) + (3 * t + 2)))
    );
    let c = ok(&src, &[], ONE, [64, 1, 1]).counters;
    // Loads: int 2 × 16 sectors, double 2 warps × 2 × 32, int[3] 2 warps × 3 × 12.
    assert_eq!(c.gld_instr, 2 + 4 + 6);
    assert_eq!(c.gld_sectors, 32 + 128 + 72);
    // Stores: the same, and `x` (2 warps × 32 × 4 B = 2 × 4 sectors).
    assert_eq!((c.gst_instr, c.gst_sectors), (2 + 4 + 2, 32 + 128 + 8));
    assert_eq!(c.smem_instr, 0);
    // A tile that starts between two vectors traps as the GPU's load does.
    let shifted = src
        .replace("L(lt).Load(in, v);", "L(lt).Load(in + 1, v);")
        .replace("in = arange(256);", "in = arange(260);");
    let f = err(&shifted, &[], Some(ONE), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::misaligned_address"]);
}

#[test]
fn vectorize_of_a_full_tile_of_halves_is_refused() {
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(const half* in) {
    typedef cub::BlockLoad<half, 64, 2, cub::BLOCK_LOAD_VECTORIZE> L;
    __shared__ typename L::TempStorage lt;
    half v[2];
    L(lt).Load(in, v);
}
launch k { in = arange(128); }
"#;
    let f = err(src, &[], Some(ONE), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::cub_unsupported"]);
    let text = simt::cli::render(&f);
    assert!(text.contains("BLOCK_LOAD_DIRECT"), "{text}");
}

#[test]
fn items_may_be_a_row_of_a_two_dimensional_array() {
    // lightseq's `BlockLoad(ts).Load(inp + r * n, inp_val[r], n, d)` into `float
    // inp_val[R][IPT]`: 32 threads × 2 items per row, blocked (thread t: 2t, 2t + 1 of the row);
    // row r of `in = arange(128)` starts at 64r, so thread t gets 64r + 2t and 64r + 2t + 1, and
    // the two rows sum to (2t) + (2t + 1) + (64 + 2t) + (65 + 2t) = 8t + 130.
    let src = format!(
        r#"
__global__ void k(const int* in, int* out, int* x) {{
    typedef cub::BlockLoad<int, 32, 2, cub::BLOCK_LOAD_DIRECT> L;
    typedef cub::BlockStore<int, 32, 2, cub::BLOCK_STORE_DIRECT> S;
    __shared__ typename L::TempStorage lt;
    __shared__ typename S::TempStorage st;
    int v[2][2];
    for (int r = 0; r < 2; r++) L(lt).Load(in + r * 64, v[r], 64, -1);
    x[threadIdx.x] = v[0][0] + v[0][1] + v[1][0] + v[1][1];
    for (int r = 0; r < 2; r++) S(st).Store(out + r * 64, v[1 - r], 64);
}}
launch k {{ in = arange(128); out = zeros(128); x = zeros(32); expect x == {}; expect out == {}; }}
"#,
        list((0..32).map(|t| 8 * t + 130)),
        list((0..128).map(|i| (i + 64) % 128)),
    );
    ok(&src, &[], ONE, [32, 1, 1]);
}

#[test]
fn warp_scan_sums_per_warp_with_the_aggregate() {
    // Two warps; thread t = 32w + l contributes t. Inclusive: Σ_{j ≤ l} (32w + j) = 32w(l + 1)
    // + l(l + 1)/2; exclusive: 32w·l + l(l - 1)/2 (lane 0: 0, the sum's initial value); the
    // warp aggregate, in every lane: 496 in warp 0, 32·32 + 496 = 1520 in warp 1.
    let inc: Vec<i64> = (0..64)
        .map(|t| 32 * (t / 32) * (t % 32 + 1) + (t % 32) * (t % 32 + 1) / 2)
        .collect();
    let exc: Vec<i64> = (0..64)
        .map(|t| 32 * (t / 32) * (t % 32) + (t % 32) * (t % 32 - 1).max(0) / 2)
        .collect();
    let agg: Vec<i64> = (0..64).map(|t| if t < 32 { 496 } else { 1520 }).collect();
    let src = format!(
        r#"
__global__ void k(int* inc, int* exc, int* agg) {{
    typedef cub::WarpScan<int> WS;
    __shared__ typename WS::TempStorage temp[2];
    int t = threadIdx.x;
    int a, b, total;
    WS(temp[t / 32]).InclusiveSum(t, a);
    WS(temp[t / 32]).ExclusiveSum(t, b, total);
    inc[t] = a; exc[t] = b; agg[t] = total;
}}
launch k {{ inc = zeros(64); exc = zeros(64); agg = zeros(64); expect inc == {}; expect exc == {}; expect agg == {}; }}
"#,
        list(inc),
        list(exc),
        list(agg)
    );
    let r = ok(&src, &[], ONE, [64, 1, 1]);
    // The shuffle scan keeps nothing in shared memory and needs no barrier.
    assert_eq!((r.counters.smem_instr, r.counters.barriers), (0, 0));
}

#[test]
fn warp_scan_inclusive_sum_is_five_shuffle_up_steps() {
    // One warp. The same kernel without the scan (`r = v`) issues fewer instructions by what
    // WarpScanShfl's InclusiveSum issues: the lane's rank, x + X·(y + Y·z) & 31 (2 multiplies,
    // 2 adds and an and: 5), then for each offset 1, 2, 4, 8, 16 one shfl.up, the add, the
    // compare `lane < offset` and the select keeping the lane's own value below it (4 × 5 = 20):
    // 25 warp instructions. The add is the select's arm for the lanes at or past the offset,
    // so it runs on 32 - offset lanes, as CUB's add under the shuffle's predicate does:
    // 25 · 32 - (1 + 2 + 4 + 8 + 16) = 769 lane slots. (CUB's PTX for this sum is the shuffle
    // and the predicated add, 2 a step; simt has no predicated instructions and counts CUB's
    // generic step, with the compare and the select.)
    let body = |scan: &str| {
        format!(
            r#"
__global__ void k(float* out) {{
    __shared__ cub::WarpScan<float>::TempStorage temp;
    float v = threadIdx.x;
    float r;
    {scan};
    out[threadIdx.x] = r;
}}
"#
        )
    };
    let sums: Vec<i64> = (0..32).map(|l| l * (l + 1) / 2).collect();
    let with = ok(
        &format!(
            "{}launch k {{ out = zeros(32); expect out == {}; }}\n",
            body("cub::WarpScan<float>(temp).InclusiveSum(v, r)"),
            list(sums)
        ),
        &[],
        ONE,
        [32, 1, 1],
    );
    let without = ok(
        &format!("{}launch k {{ out = zeros(32); }}\n", body("r = v")),
        &[],
        ONE,
        [32, 1, 1],
    );
    assert_eq!(with.counters.warp_instr - without.counters.warp_instr, 25);
    assert_eq!(
        with.counters.active_lane_slots - without.counters.active_lane_slots,
        25 * 32 - 31
    );
}

#[test]
fn warp_scan_with_operators_initial_values_and_logical_warps() {
    // WarpScan<int, 8>: 4 logical warps of 8 in 32 threads. Lane l (of every logical warp)
    // contributes (3t) % 8 = 3l % 8: 0, 3, 6, 1, 4, 7, 2, 5.
    // - InclusiveScan max: 0, 3, 6, 6, 6, 7, 7, 7.
    // - ExclusiveScan(v, r, -1, max, agg): -1, then the inclusive max of the lanes before:
    //   -1, 0, 3, 6, 6, 6, 7, 7; agg = 7 (the aggregate does not include the initial value).
    // - InclusiveScan(v, r, 100, cub::Sum()): 100 + the running sums 0, 3, 9, 10, 14, 21, 23,
    //   28.
    // - ExclusiveScan(v, r, bigger) (a lambda max, no initial value): lane 0's is undefined
    //   (not checked), lanes 1..7: 0, 3, 6, 6, 6, 7, 7.
    // - WarpScan<float, 8>::ExclusiveSum of l (the generic path, shuffled up by one): 0, 0,
    //   1, 3, 6, 10, 15, 21, aggregate 28.
    let per = |v: [i64; 8]| list((0..32).map(move |t| v[t % 8]));
    let src = format!(
        r#"
__global__ void k(int* mx, int* ex, int* ag, int* is, int* lm, float* fs, float* fa) {{
    using W8 = cub::WarpScan<int, 8>;
    using F8 = cub::WarpScan<float, 8>;
    __shared__ typename W8::TempStorage temp;
    __shared__ typename F8::TempStorage ftemp;
    int t = threadIdx.x;
    int v = (t * 3) % 8;
    auto bigger = [](int a, int b) {{ return a < b ? b : a; }};
    int r, agg;
    W8(temp).InclusiveScan(v, r, cub::Max());
    mx[t] = r;
    W8(temp).ExclusiveScan(v, r, -1, cub::Max(), agg);
    ex[t] = r; ag[t] = agg;
    W8(temp).InclusiveScan(v, r, 100, cub::Sum());
    is[t] = r;
    W8(temp).ExclusiveScan(v, r, bigger);
    lm[t] = t % 8 == 0 ? -9 : r;
    float f, fagg;
    F8(ftemp).ExclusiveSum(t % 8, f, fagg);
    fs[t] = f; fa[t] = fagg;
}}
launch k {{
    mx = zeros(32); ex = zeros(32); ag = zeros(32); is = zeros(32); lm = zeros(32); fs = zeros(32); fa = zeros(32);
    expect mx == {}; expect ex == {}; expect ag == 7; expect is == {}; expect lm == {};
    expect fs == {}; expect fa == 28;
}}
"#,
        per([0, 3, 6, 6, 6, 7, 7, 7]),
        per([-1, 0, 3, 6, 6, 6, 7, 7]),
        per([100, 103, 109, 110, 114, 121, 123, 128]),
        per([-9, 0, 3, 6, 6, 6, 7, 7]),
        per([0, 0, 1, 3, 6, 10, 15, 21]),
    );
    ok(&src, &[], ONE, [32, 1, 1]);
}

#[test]
fn block_scan_warp_scans_shares_warp_totals_through_shared_memory() {
    // 128 threads (4 warps), thread t contributes 1 to ExclusiveSum (t, block aggregate 128)
    // and t to InclusiveSum (t(t + 1)/2).
    // Counted per block and scan, as block_scan_warp_scans.cuh issues it: lane 31 of each warp
    // stores its warp's total (4 shared stores), one __syncthreads(), every thread reads the 4
    // totals (4 shared loads per warp, 16): 20 shared instructions; two scans, two storages:
    // 40 and 2 barriers per block.
    let src = format!(
        r#"
__global__ void k(int* ex, int* agg, int* in) {{
    typedef cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS> BS;
    __shared__ typename BS::TempStorage a;
    __shared__ typename BS::TempStorage b;
    int t = threadIdx.x;
    int e, total, i;
    BS(a).ExclusiveSum(1, e, total);
    BS(b).InclusiveSum(t, i);
    ex[t] = e; agg[t] = total; in[t] = i;
}}
launch k {{ ex = zeros(128); agg = zeros(128); in = zeros(128); expect ex == arange(128); expect agg == 128; expect in == {}; }}
"#,
        list((0..128).map(|t| t * (t + 1) / 2))
    );
    let r = ok(&src, &[], ONE, [128, 1, 1]);
    assert_eq!(r.counters.smem_instr, 40);
    assert_eq!(r.counters.barriers, 2);
    assert_eq!(r.counters.race_count, 0);
    assert_eq!(r.counters.uninit_count, 0);
}

#[test]
fn block_scan_with_an_operator_an_initial_value_and_a_two_dimensional_block() {
    // BlockScan<float, 32, WARP_SCANS, 2> in a (32, 2) block: rank t = x + 32y contributes t.
    // ExclusiveScan(v, r, -1, max): -1 for t = 0, else t - 1; InclusiveScan(v, r, max, agg):
    // t, agg 63. ExclusiveSum (floats: the shuffled-up path) of t: t(t - 1)/2.
    let src = format!(
        r#"
template <int X, int Y>
__global__ void k(float* ex, float* in, float* agg, float* es) {{
    using BS = cub::BlockScan<float, X, cub::BLOCK_SCAN_WARP_SCANS, Y>;
    __shared__ typename BS::TempStorage temp[3];
    int t = threadIdx.x + X * threadIdx.y;
    float v = t;
    float r, total;
    BS(temp[0]).ExclusiveScan(v, r, -1.0f, cub::Max());
    ex[t] = r;
    BS(temp[1]).InclusiveScan(v, r, cub::Max(), total);
    in[t] = r; agg[t] = total;
    BS(temp[2]).ExclusiveSum(v, r);
    es[t] = r;
}}
launch k<32, 2> {{
    ex = zeros(64); in = zeros(64); agg = zeros(64); es = zeros(64); block = (32, 2);
    expect ex == {}; expect in == arange(64); expect agg == 63; expect es == {};
}}
"#,
        list((0..64).map(|t| t - 1)),
        list((0..64).map(|t| t * (t - 1).max(0) / 2)),
    );
    let r = ok(&src, &[], ONE, [32, 2, 1]);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn block_scan_raking_counts_cubs_grid_raking_and_barriers() {
    // BlockScan<int, 64> (BlockScan's default, BLOCK_SCAN_RAKING), ExclusiveSum(1, e, total):
    // e = t, total = 64. BlockRakingLayout<int, 64>: SEGMENT_LENGTH = ceil(64 / 32) = 2,
    // RAKING_THREADS = 32, no padding (only even segments above 2 are padded). TempStorage:
    // the warp scan's empty storage (1 byte), the grid aligned to 16 (bytes 16..272),
    // block_aggregate at 272: 276 bytes, 288 with the 16-byte alignment.
    // Shared accesses (instructions / wavefronts):
    // - every thread places its item at grid[t]: 2 warps, consecutive words: 2 / 2;
    // - warp 0 reads its segment, grid[2t] and grid[2t + 1] (lanes two words apart: every
    //   even bank twice): 2 / 4; reads it again (not memoized): 2 / 4; writes it back: 2 / 4;
    // - thread 31 stores the aggregate: 1 / 1;
    // - every thread reads its output at grid[t] (2 / 2) and the aggregate (2 / 2, broadcast).
    // 13 instructions, 19 wavefronts, 2 barriers. BLOCK_SCAN_RAKING_MEMOIZE keeps the segment
    // in registers: 11 and 15.
    let src = |alg: &str| {
        format!(
            r#"
__global__ void k(int* ex, int* agg) {{
    typedef cub::BlockScan<int, 64{alg}> BS;
    __shared__ typename BS::TempStorage temp;
    int t = threadIdx.x;
    int e, total;
    BS(temp).ExclusiveSum(1, e, total);
    ex[t] = e; agg[t] = total;
}}
launch k {{ ex = zeros(64); agg = zeros(64); expect ex == arange(64); expect agg == 64; }}
"#
        )
    };
    for (alg, instr, wavefronts) in [("", 13, 19), (", cub::BLOCK_SCAN_RAKING_MEMOIZE", 11, 15)] {
        let r = ok(&src(alg), &[], ONE, [64, 1, 1]);
        assert_eq!(r.counters.smem_instr, instr, "{alg}");
        assert_eq!(r.counters.smem_wavefronts, wavefronts, "{alg}");
        assert_eq!(r.counters.barriers, 2);
        assert_eq!(r.launch.smem_per_block, 288);
        assert_eq!(r.counters.race_count, 0);
        assert_eq!(r.counters.uninit_count, 0);
    }
}

#[test]
fn block_scan_raking_pads_segments_against_bank_conflicts() {
    // BlockScan<int, 128>::InclusiveSum(t, i): i = t(t + 1)/2. SEGMENT_LENGTH = 4, even and
    // above 2, so each segment is padded by one element: thread t places its item at
    // t + t/4 and raking thread t reads 5t .. 5t + 3. The grid is 32 × 5 = 160 ints: 16 + 640
    // bytes, the aggregate at 656, 672 with the alignment.
    // - Placement (and the output read, at the same words): in a warp the lanes' words are
    //   {l + l/4} = 0..38 without 4, 9, 14, ..., 34; 32, 33, 35, 36, 37, 38 share banks with
    //   0, 1, 3, 5, 6 (4 is unused): two wavefronts per warp, 4 warps: 4 / 8 each way.
    // - Raking: lanes 5 words apart, 5 odd, so 32 distinct banks: 4 loads, 4 loads again and
    //   4 stores, one wavefront each: 12 / 12.
    // 20 instructions, 28 wavefronts.
    let src = format!(
        r#"
__global__ void k(int* in) {{
    typedef cub::BlockScan<int, 128> BS;
    __shared__ typename BS::TempStorage a;
    int t = threadIdx.x;
    int i;
    BS(a).InclusiveSum(t, i);
    in[t] = i;
}}
launch k {{ in = zeros(128); expect in == {}; }}
"#,
        list((0..128).map(|t| t * (t + 1) / 2))
    );
    let r = ok(&src, &[], ONE, [128, 1, 1]);
    assert_eq!(r.counters.smem_instr, 20);
    assert_eq!(r.counters.smem_wavefronts, 28);
    assert_eq!(r.launch.smem_per_block, 672);
}

#[test]
fn block_scan_raking_scans_with_operators_items_and_two_dimensional_blocks() {
    // BlockScan<T, 64, BLOCK_SCAN_RAKING, 2> in a (64, 2) block: rank t = x + 64y.
    // - ExclusiveScan(t, r, -1, max): -1 for t = 0, else t - 1 (thread 0 stores the aggregate
    //   when there is an initial value: checked through InclusiveScan's below).
    // - InclusiveScan(t, r, max, total): t, total 127.
    // - float ExclusiveSum(t): t(t - 1)/2.
    // - ExclusiveSum of items {t, t, t, t}: the thread's prefix is 4 × (0 + ... + t - 1) =
    //   2t(t - 1), item k gets 2t(t - 1) + k t.
    // - ExclusiveScan(t, r, max) (no initial value): t - 1, thread 0's undefined (not checked).
    // - BlockScan<int, 16> (one logical warp: CUB's warp-synchronous scan, shuffles only):
    //   ExclusiveSum(1) = t.
    let src = format!(
        r#"
__global__ void k(int* ex, int* in, int* agg, float* es, int* items, int* un) {{
    using BS = cub::BlockScan<int, 64, cub::BLOCK_SCAN_RAKING, 2>;
    using FS = cub::BlockScan<float, 64, cub::BLOCK_SCAN_RAKING, 2>;
    __shared__ typename BS::TempStorage temp[4];
    __shared__ typename FS::TempStorage ftemp;
    int t = threadIdx.x + 64 * threadIdx.y;
    int r, total;
    BS(temp[0]).ExclusiveScan(t, r, -1, cub::Max());
    ex[t] = r;
    BS(temp[1]).InclusiveScan(t, r, cub::Max(), total);
    in[t] = r; agg[t] = total;
    float f;
    FS(ftemp).ExclusiveSum((float)t, f);
    es[t] = f;
    int it[4] = {{t, t, t, t}};
    BS(temp[2]).ExclusiveSum(it, it);
    for (int k = 0; k < 4; k++) items[4 * t + k] = it[k];
    BS(temp[3]).ExclusiveScan(t, r, cub::Max());
    un[t] = t == 0 ? -1 : r;
}}
launch k {{
    ex = zeros(128); in = zeros(128); agg = zeros(128); es = zeros(128); items = zeros(512);
    un = zeros(128); block = (64, 2);
    expect ex == {0}; expect in == arange(128); expect agg == 127; expect es == {1};
    expect items == {2}; expect un == {0};
}}
"#,
        list((0..128).map(|t| t - 1)),
        list((0..128).map(|t| t * (t - 1).max(0) / 2)),
        list((0..512).map(|i| {
            let (t, k) = (i / 4, i % 4);
            2 * t * (t - 1).max(0) + k * t
        })),
    );
    let r = ok(&src, &[], ONE, [64, 2, 1]);
    assert_eq!(r.counters.race_count, 0);
    assert_eq!(r.counters.uninit_count, 0);
    let warp = r#"
__global__ void w(int* small) {
    using WS = cub::BlockScan<int, 16>;
    __shared__ typename WS::TempStorage temp;
    int r;
    WS(temp).ExclusiveSum(1, r);
    small[threadIdx.x] = r;
}
launch w { small = zeros(16); expect small == arange(16); }
"#;
    let r = ok(warp, &[], ONE, [16, 1, 1]);
    assert_eq!(r.counters.smem_instr, 0);
}

#[test]
fn block_scan_shapes_simt_does_not_model_are_refused() {
    let cases = [
        // CUB rakes 48 threads with 24 raking threads: a shared-memory warp scan.
        ("cub::BlockScan<int, 48>", "48 threads"),
        // CUB runs RAKING for a block that is not whole warps.
        (
            "cub::BlockScan<int, 48, cub::BLOCK_SCAN_WARP_SCANS>",
            "48 threads",
        ),
    ];
    for (class, named) in cases {
        let src = format!(
            "__global__ void k(int* out) {{\n    __shared__ typename {class}::TempStorage temp;\n    out[0] = 1;\n}}\n"
        );
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([64, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::cub_unsupported"], "{class}");
        let text = simt::cli::render(&f);
        assert!(text.contains(named), "{text}");
    }
}

#[test]
fn scan_misuse_is_a_diagnostic() {
    let cases = [
        // A scan returns nothing.
        (
            "    out[0] = WS(temp).InclusiveSum(1, r);",
            "simt::check::no_value",
        ),
        // An items array: BlockScan takes one, WarpScan does not.
        (
            "    int items[4];\n    WS(temp).InclusiveSum(items, items);",
            "simt::check::cub_unsupported",
        ),
        // A member simt does not have.
        (
            "    WS(temp).Broadcast(1, 0);",
            "simt::check::cub_unsupported",
        ),
        // Too few arguments.
        (
            "    WS(temp).InclusiveScan(1, r);",
            "simt::check::argument_count",
        ),
        // A block prefix callback (a functor where the aggregate goes).
        (
            "    auto p = [](int a) { return a; };\n    WS(temp).ExclusiveSum(1, r, p);",
            "simt::check::cub_unsupported",
        ),
        (
            "    auto p = [](int a) { return a; };\n    WS(temp).ExclusiveScan(1, r, cub::Sum(), p);",
            "simt::check::cub_unsupported",
        ),
    ];
    for (body, code) in cases {
        let src = format!(
            "__global__ void k(int* out) {{\n    using WS = cub::WarpScan<int>;\n    __shared__ typename WS::TempStorage temp;\n    int r;\n{body}\n}}\n"
        );
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), [code], "{body}");
    }
}

#[test]
fn block_scan_of_items_arrays() {
    // BlockScan<int, 64, WARP_SCANS> over 4 items per thread (global index g = 4t + i):
    // - ExclusiveSum of ones: g, block aggregate 256.
    // - InclusiveSum of i + 1 (1, 2, 3, 4: 10 per thread): 10t + (i + 1)(i + 2)/2.
    // - ExclusiveScan(-1, max) of g: g - 1 (-1 for g = 0).
    // Each scan reduces the thread's items in registers and scans the 64 reductions as one
    // item each: 2 warps, so 2 shared stores (lane 31) + 2 × 2 loads = 6 shared instructions
    // and 1 barrier per scan, three scans on three storages: 18 and 3.
    let src = format!(
        r#"
__global__ void k(int* ex, int* agg, int* in, int* mx) {{
    using BS = cub::BlockScan<int, 64, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage temp[3];
    int t = threadIdx.x;
    int a[4], b[4], c[4];
    for (int i = 0; i < 4; i++) {{ a[i] = 1; b[i] = i + 1; c[i] = 4 * t + i; }}
    int total;
    BS(temp[0]).ExclusiveSum(a, a, total);
    BS(temp[1]).InclusiveSum(b, b);
    BS(temp[2]).ExclusiveScan(c, c, -1, cub::Max());
    for (int i = 0; i < 4; i++) {{ ex[4 * t + i] = a[i]; in[4 * t + i] = b[i]; mx[4 * t + i] = c[i]; }}
    agg[t] = total;
}}
launch k {{
    ex = zeros(256); agg = zeros(64); in = zeros(256); mx = zeros(256);
    expect ex == arange(256); expect agg == 256; expect in == {}; expect mx == arange(256) - 1;
}}
"#,
        list((0..256).map(|g| 10 * (g / 4) + (g % 4 + 1) * (g % 4 + 2) / 2)),
    );
    let r = ok(&src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.smem_instr, 18);
    assert_eq!(r.counters.barriers, 3);
    assert_eq!((r.counters.race_count, r.counters.uninit_count), (0, 0));
}

#[test]
fn block_scan_items_must_be_arrays_of_the_class_type() {
    let cases = [
        // An output that is not an items array like the input.
        "    int a[4], r;\n    BS(temp).ExclusiveSum(a, r);",
        // Items of another type.
        "    float a[4];\n    BS(temp).InclusiveSum(a, a);",
    ];
    for body in cases {
        let src = format!(
            "__global__ void k(int* out) {{\n    using BS = cub::BlockScan<int, 32, cub::BLOCK_SCAN_WARP_SCANS>;\n    __shared__ typename BS::TempStorage temp;\n{body}\n}}\n"
        );
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), ["simt::check::cub_argument"], "{body}");
    }
}

#[test]
fn arg_max_and_arg_min_of_key_value_pairs_break_ties_to_the_smaller_key() {
    // 64 threads; thread t gives the pair (key 63 - t, value ((37 t) mod 64) / 2). As 37 is odd,
    // (37 t) mod 64 is a permutation of 0..63, so every value 0..31 occurs exactly twice.
    // The largest, 31, is where 37 t mod 64 is 62 or 63: 37⁻¹ = 45 (mod 64, 37·45 = 1665 =
    // 26·64 + 1), so t = 62·45 mod 64 = 38 and t = 63·45 mod 64 = 19, keys 25 and 44: ArgMax
    // gives key 25 (the smaller key, though thread 19 comes first). The smallest, 0, is at
    // t = 0 and t = 45, keys 63 and 18: ArgMin gives 18.
    // Counted per reduction: lane 0 of each of the 2 warps stores its pair's 2 members (4 shared
    // stores), a barrier, thread 0 loads warp 1's 2 members: 6 shared accesses, 12 for both.
    let src = r#"
#include <cub/cub.cuh>
__global__ void k(int* keys, float* vals) {
    typedef cub::BlockReduce<cub::KeyValuePair<int, float>, 64> BR;
    __shared__ typename BR::TempStorage a;
    __shared__ typename BR::TempStorage b;
    int t = threadIdx.x;
    float v = (float)(((t * 37) % 64) / 2);
    cub::KeyValuePair<int, float> mx = BR(a).Reduce(cub::KeyValuePair<int, float>(63 - t, v), cub::ArgMax());
    int mn = BR(b).Reduce(cub::KeyValuePair<int, float>(63 - t, v), cub::ArgMin()).key;
    if (t == 0) { keys[0] = mx.key; vals[0] = mx.value; keys[1] = mn; }
}
launch k { keys = zeros(2); vals = zeros(1); expect keys == [25, 18]; expect vals == 31; }
"#;
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.barriers, 2);
    assert_eq!(r.counters.smem_instr, 12);
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn warp_arg_max_of_64_bit_keys_with_valid_items() {
    // WarpReduce<KeyValuePair<int64_t, float>>: lane l of each warp gives (key 100 + l, value
    // l mod 8), so the largest value 7 is at lanes 7, 15, 23 and 31 and ArgMax picks key 107.
    // With valid_items 13 only lanes 0..12 count: value 7 at lane 7 alone, key 107 again; with
    // 6, lanes 0..5: value 5 at lane 5, key 105.
    let src = r#"
#include <cub/cub.cuh>
__global__ void k(long long* out) {
    using WR = cub::WarpReduce<cub::KeyValuePair<int64_t, float>>;
    __shared__ typename WR::TempStorage temp[2];
    int t = threadIdx.x, l = t % 32;
    cub::KeyValuePair<int64_t, float> p(100 + l, (float)(l % 8));
    int64_t all = WR(temp[t / 32]).Reduce(p, cub::ArgMax()).key;
    int64_t some = WR(temp[t / 32]).Reduce(p, cub::ArgMax(), 6).key;
    if (l == 0) { out[2 * (t / 32)] = all; out[2 * (t / 32) + 1] = some; }
}
launch k { out = zeros(4); expect out == [107, 105, 107, 105]; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn struct_items_reduce_with_a_function_object_a_lambda_and_a_function_template() {
    // FasterTransformer's form: a struct of an index and a value, the op returning the one with
    // the larger value. Lane l of each warp has u = (7 l) mod 32, a permutation of 0..31; 31 is
    // at 7 l ≡ 31 (mod 32), l = 31·23 mod 32 = 9 (7⁻¹ = 23: 7·23 = 161 = 5·32 + 1): p = 9 in
    // warp 0, 41 in warp 1, whichever op. With valid_items 9 (lanes 0..8: u = 0, 7, 14, 21, 28,
    // 3, 10, 17, 24) the largest is 28 at lane 4: p = 4 and 36. The block reduction over all 64
    // gives thread 0 the first of the two 31s it meets: warp 0's, p = 9 (the op keeps `a` on a
    // tie).
    let src = r#"
#include <cub/cub.cuh>
template <typename T> struct TopK_2 { int p; T u; };
template <typename T>
__device__ TopK_2<T> reduce_op(const TopK_2<T>& a, const TopK_2<T>& b) { return a.u >= b.u ? a : b; }
struct Larger {
    __device__ TopK_2<float> operator()(const TopK_2<float>& a, const TopK_2<float>& b) const { return a.u >= b.u ? a : b; }
};
template <typename T>
__global__ void k(int* out) {
    typedef cub::WarpReduce<TopK_2<T>> WR;
    typedef cub::BlockReduce<TopK_2<T>, 64> BR;
    __shared__ typename WR::TempStorage w;
    __shared__ typename BR::TempStorage b;
    int t = threadIdx.x;
    TopK_2<T> x;
    x.p = t;
    x.u = (T)((t * 7) % 32);
    auto lam = [](const TopK_2<T>& a, const TopK_2<T>& b) -> TopK_2<T> { return a.u >= b.u ? a : b; };
    Larger f;
    TopK_2<T> r1 = WR(w).Reduce(x, f);
    TopK_2<T> r2 = WR(w).Reduce(x, lam);
    TopK_2<T> r3 = WR(w).Reduce(x, reduce_op<T>);
    TopK_2<T> r4 = WR(w).Reduce(x, Larger(), 9);
    TopK_2<T> total = BR(b).Reduce(x, reduce_op<T>);
    if (t % 32 == 0) {
        out[t / 32 * 4] = r1.p; out[t / 32 * 4 + 1] = r2.p; out[t / 32 * 4 + 2] = r3.p; out[t / 32 * 4 + 3] = r4.p;
    }
    if (t == 0) out[8] = total.p;
}
launch k<float> { out = zeros(9); expect out == [9, 9, 9, 4, 41, 41, 41, 36, 9]; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn struct_item_misuse_is_a_diagnostic() {
    let kv = "cub::KeyValuePair<int, float>";
    let cases = [
        (
            // ArgMax of a struct without key and value.
            "    __shared__ cub::WarpReduce<P>::TempStorage t;\n    P p;\n    p.a = 1.0f;\n    out[0] = cub::WarpReduce<P>(t).Reduce(p, cub::ArgMax()).a;".to_string(),
            "simt::check::cub_unsupported",
        ),
        (
            // The pair used as a number.
            format!("    __shared__ cub::WarpReduce<{kv}>::TempStorage t;\n    {kv} p(1, 2.0f);\n    out[0] = cub::WarpReduce<{kv}>(t).Reduce(p, cub::ArgMax());"),
            "simt::check::not_a_value",
        ),
        (
            // A scan of structs.
            format!("    __shared__ cub::WarpScan<{kv}>::TempStorage t;"),
            "simt::check::cub_unsupported",
        ),
    ];
    for (body, code) in cases {
        let src = format!("#include <cub/cub.cuh>\nstruct P {{ float a; }};\n__global__ void k(float* out) {{\n{body}\n}}\n");
        let f = err(&src, &[("out", "zeros(1)")], Some(ONE), Some([32, 1, 1]));
        assert_eq!(codes(&f), [code], "{body}");
    }
}

#[test]
fn a_block_reduce_with_valid_items_runs_in_a_smaller_block() {
    // vllm's rms_norm: BlockReduce<float, 1024> in blocks of 256 with valid_items = blockDim.x.
    // CUB's partial-tile path has thread 0 combine only warps w with 32 w < 256 (warps 0..7),
    // all of which exist: thread t gives t, thread 0 gets 0 + ... + 255 = 32640. Per block:
    // 8 lane-0 stores, one barrier, 7 loads by thread 0.
    let src = |n: &str| {
        format!(
            r#"
__global__ void k(float* out) {{
    using BR = cub::BlockReduce<float, 1024>;
    __shared__ typename BR::TempStorage temp;
    float s = BR(temp).Reduce((float)threadIdx.x, cub::Sum(), {n});
    if (threadIdx.x == 0) out[0] = s;
}}
"#
        )
    };
    let r = ok(
        &format!(
            "{}launch k {{ out = zeros(1); expect out == 32640; }}\n",
            src("blockDim.x")
        ),
        &[],
        ONE,
        [256, 1, 1],
    );
    assert_eq!(r.counters.smem_instr, 8 + 7);
    assert_eq!(r.counters.barriers, 1);
    // Fewer valid items than threads: 0 + ... + 99 = 4950.
    ok(
        &format!(
            "{}launch k {{ out = zeros(1); expect out == 4950; }}\n",
            src("100")
        ),
        &[],
        ONE,
        [256, 1, 1],
    );
    // More valid items than the block has threads: warps 8..15's slots were never written.
    let f = err(
        &src("512"),
        &[("out", "zeros(1)")],
        Some(ONE),
        Some([256, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::assertion"]);
    // A block the class does not number from 0 (two rows of 256 under BLOCK_DIM_X = 1024).
    let f = err(
        &src("blockDim.x"),
        &[("out", "zeros(1)")],
        Some(ONE),
        Some([256, 2, 1]),
    );
    assert_eq!(codes(&f), ["simt::run::block_shape"]);
}

#[test]
fn block_reduce_of_a_threads_items_and_the_direct_striped_loads() {
    // cub/examples/block/example_block_reduce.cu: `LoadDirectStriped<BLOCK_THREADS>(tid, d_in,
    // data)` reads data[i] = in[tid + 64 i]; `Sum(data)` reduces each thread's four items, then
    // the block: out[0] = 0 + 1 + ... + 255 = 255 * 256 / 2 = 32640. The algorithm is a template
    // parameter of CUB's enumeration type, given by name at the launch. Reduce(data, Max()) of
    // in = 3 i mod 256 (no repeat: 3 is odd) is 255. StoreDirectStriped writes data back + 1.
    let src = r#"
#include <cub/cub.cuh>
using namespace cub;
template <int BLOCK_THREADS, BlockReduceAlgorithm ALGORITHM>
__global__ void k(const int* in, const int* in3, int* out, int* copy) {
  using BlockReduceT = BlockReduce<int, BLOCK_THREADS, ALGORITHM>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  int data[4];
  LoadDirectStriped<BLOCK_THREADS>(threadIdx.x, in, data);
  int aggregate = BlockReduceT(temp_storage).Sum(data);
  if (threadIdx.x == 0) out[0] = aggregate;
  __syncthreads();
  int tri[4];
  LoadDirectBlocked(threadIdx.x, in3, tri);
  int m = BlockReduceT(temp_storage).Reduce(tri, cub::Max());
  if (threadIdx.x == 0) out[1] = m;
  for (int i = 0; i < 4; i++) data[i] += 1;
  StoreDirectStriped<BLOCK_THREADS>(threadIdx.x, copy, data);
}
launch k<64, BLOCK_REDUCE_WARP_REDUCTIONS> {
    in = arange(256); in3 = (3 * arange(256)) % 256; out = zeros(2); copy = zeros(256);
    block = 64; grid = 1;
    expect out == [32640, 255];
    expect copy == arange(256) + 1;
}
"#;
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
}

#[test]
fn thread_load_and_store_with_cache_modifiers_are_plain_accesses() {
    // catboost's StreamLoad / WriteThrough, through a vendored CUB path: cub::ThreadLoad<LOAD_CS>
    // and cub::ThreadStore<STORE_WT> read and write as plain accesses do. 64 floats copied by
    // 64 threads: 2 load and 2 store requests of 4 sectors each.
    let src = r#"
#include <contrib/libs/cub/cub/thread/thread_load.cuh>
#include <contrib/libs/cub/cub/thread/thread_store.cuh>
__global__ void copy_cs(const float* src, float* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) cub::ThreadStore<cub::STORE_WT>(dst + i, cub::ThreadLoad<cub::LOAD_CS>(src + i));
}
launch copy_cs { n = 64; src = arange(n); dst = zeros(n); expect dst == arange(n); }
"#;
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (2, 8));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (2, 8));
}

#[test]
fn a_union_of_temp_storages_gives_each_collective_its_own() {
    // CUB's example_block_scan: one `__shared__ union` of the load's, store's and scan's
    // TempStorages, each collective handed its member. 64 threads × 4 items of ones: the
    // exclusive prefix sum of item k is k, and the aggregate is 256, stored after them.
    let template = r#"
#include <cub/cub.cuh>
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void k(int* d_in, int* d_out) {
    typedef cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE> BlockLoadT;
    typedef cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE> BlockStoreT;
    typedef cub::BlockScan<int, BLOCK_THREADS> BlockScanT;
    __shared__ union TempStorage {
        typename BlockLoadT::TempStorage load;
        typename BlockStoreT::TempStorage store;
        typename BlockScanT::TempStorage scan;
    } temp_storage;
    int data[ITEMS_PER_THREAD];
    BlockLoadT(temp_storage.load).Load(d_in, data);
    __syncthreads();
    int aggregate;
    BlockScanT(temp_storage.scan).ExclusiveSum(data, data, aggregate);
    __syncthreads();
    BlockStoreT(temp_storage.store).Store(d_out, data);
    if (threadIdx.x == 0) d_out[BLOCK_THREADS * ITEMS_PER_THREAD] = aggregate;
}
launch k<64, 4> { d_in = ones(256); d_out = zeros(257); expect d_out == arange(257); }
"#;
    let r = ok(template, &[], ONE, [64, 1, 1]);
    assert_eq!(r.counters.race_count, 0);
    // An anonymous union in a plain kernel, a reduction after a scan: out is the inclusive sum
    // of 0..127, total their sum, 127 · 128 / 2 = 8128.
    let plain = r#"
#include <cub/cub.cuh>
__global__ void k(const int* in, int* out, int* total) {
    typedef cub::BlockReduce<int, 128> BlockReduce;
    typedef cub::BlockScan<int, 128> BlockScan;
    __shared__ union {
        typename BlockReduce::TempStorage reduce;
        typename BlockScan::TempStorage scan;
    } temp;
    int v = in[threadIdx.x];
    int s;
    BlockScan(temp.scan).InclusiveSum(v, s);
    out[threadIdx.x] = s;
    __syncthreads();
    int t = BlockReduce(temp.reduce).Sum(v);
    if (threadIdx.x == 0) total[0] = t;
}
launch k { in = arange(128); out = zeros(128); total = zeros(1); expect out == cumsum(arange(128)); expect total == 8128; }
"#;
    ok(plain, &[], ONE, [128, 1, 1]);
    // A member handed to the wrong class is the storage error, naming the member.
    let wrong = plain.replace("BlockScan(temp.scan)", "BlockScan(temp.reduce)");
    let f = err(&wrong, &[], Some(ONE), Some([128, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::cub_storage"]);
    assert!(
        f.errors[0]
            .inner
            .to_string()
            .starts_with("`temp.reduce` is not a"),
        "{}",
        f.errors[0].inner
    );
}

#[test]
fn two_kernels_may_each_define_a_union_named_temp_storage() {
    // CUB's examples each define their own `union TempStorage`; k2's must not be k1's, whose
    // member names a typedef only k1 has. 1 + 1 + ... inclusive: out[i] = i + 1.
    let src = r#"
#include <cub/cub.cuh>
__global__ void k1(const int* in, int* total) {
    typedef cub::BlockReduce<int, 64> BlockReduceT;
    __shared__ union TempStorage { typename BlockReduceT::TempStorage reduce; } temp_storage;
    int t = BlockReduceT(temp_storage.reduce).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) total[0] = t;
}
__global__ void k2(const int* in, int* out) {
    typedef cub::BlockScan<int, 64> BlockScanT;
    __shared__ union TempStorage { typename BlockScanT::TempStorage scan; } temp_storage;
    int s;
    BlockScanT(temp_storage.scan).InclusiveSum(in[threadIdx.x], s);
    out[threadIdx.x] = s;
}
launch k2 { in = ones(64); out = zeros(64); expect out == arange(64) + 1; }
"#;
    ok(src, &[], ONE, [64, 1, 1]);
}

#[test]
fn a_union_of_temp_storages_takes_its_largest_members_bytes() {
    // bitsandbytes' 32-bit optimizers: four BlockLoad<float, 1024, 4, WARP_TRANSPOSE>
    // TempStorages of 1024 * 4 floats = 16 384 bytes each. As a union they share them (16 384,
    // under the 48 KB static limit); as a struct they take 4 * 16 384 = 65 536 (over it).
    let src = r#"
#include <cub/cub.cuh>
__global__ void k(float* a) {
    typedef cub::BlockLoad<float, 1024, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadFloat;
    __shared__ union {
        typename LoadFloat::TempStorage l0;
        typename LoadFloat::TempStorage l1;
        typename LoadFloat::TempStorage l2;
        typename LoadFloat::TempStorage l3;
    } temp_storage;
    float v[4];
    LoadFloat(temp_storage.l2).Load(a, v);
    a[threadIdx.x] = v[0] + 1.0f;
}
launch k { a = zeros(4096); }
"#;
    let r = ok(src, &[], ONE, [1024, 1, 1]);
    assert_eq!(r.launch.smem_per_block, 16384);
    let f = err(
        &src.replace("__shared__ union {", "__shared__ struct {"),
        &[],
        Some(ONE),
        Some([1024, 1, 1]),
    );
    assert_eq!(codes(&f), ["simt::check::shared_too_large"]);
}

#[test]
fn raking_commutative_only_folds_the_other_warps_into_the_first() {
    // 128 threads, arange(128): the sum 127 * 128 / 2 = 8128 in thread 0. CUB: threads 32..127
    // place their items in a BlockRakingLayout<float, 96> (segment 3, no padding) from the
    // TempStorage's first word (a union with the warp reduction's storage): 3 store
    // instructions of 32 consecutive words, 1 wavefront each; a barrier; thread t < 32 folds
    // words 3t + k (k = 0..2) into its own item: 3 loads at stride 3, odd, so 32 banks: 1
    // wavefront each; then 5 shuffle rounds. The TempStorage is the fallback
    // BlockReduceRaking<float, 128>'s: segment 4 padded to 5, 32 × 5 words = 640 bytes.
    let src = r#"
#include <cub/cub.cuh>
__global__ void k(const float* in, float* out) {
    typedef cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    float s = BlockReduce(temp_storage).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[0] = s;
}
launch k { in = arange(128); out = zeros(1); expect out == [8128]; }
"#;
    let r = ok(src, &[], ONE, [128, 1, 1]);
    assert_eq!((r.counters.smem_instr, r.counters.smem_wavefronts), (6, 6));
    assert_eq!(r.counters.barriers, 1);
    assert_eq!(r.launch.smem_per_block, 640);
    assert!(r.races.is_empty());
}

#[test]
fn each_algorithm_combines_in_cubs_order() {
    // `op(a, b) = (a * a + b) mod 97` neither commutes nor associates, so the result names the
    // order. Items 1..128, 128 threads, lane 0 of a shuffle round combining (own, lane + k):
    // - WARP_REDUCTIONS: each warp's tree over its 32 items, then thread 0 folds warps 1..3
    //   into warp 0's aggregate: 83;
    // - RAKING: raking thread t takes item 4t and folds 4t + 1..4t + 3, then the tree: 63;
    // - RAKING_COMMUTATIVE_ONLY: thread t < 32 folds items 32 + 3t + 0..2 into its own item t,
    //   then the tree: 13.
    // (Each value from a 20-line Python transcription of the three CUB headers' loops.)
    let run = |alg: &str, want: u32| {
        let src = format!(
            r#"
#include <cub/cub.cuh>
struct Op {{ __device__ float operator()(float a, float b) const {{ return fmodf(a * a + b, 97.0f); }} }};
__global__ void k(const float* in, float* out) {{
    typedef cub::BlockReduce<float, 128, cub::{alg}> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    Op op;
    float r = BlockReduce(temp_storage).Reduce(in[threadIdx.x], op);
    if (threadIdx.x == 0) out[0] = r;
}}
launch k {{ in = arange(128) + 1; out = zeros(1); expect out == [{want}]; }}
"#
        );
        ok(&src, &[], ONE, [128, 1, 1])
    };
    run("BLOCK_REDUCE_WARP_REDUCTIONS", 83);
    let r = run("BLOCK_REDUCE_RAKING", 63);
    // 4 placement stores of 32 words at word t + t / 4 (segments of 4, padded to 5): warp w's
    // words span 40w .. 40w + 38, whose last 7 fall on the banks of its first 7: 2 wavefronts
    // each. A barrier. Raking thread t reads 5t + k for k = 0..3: stride 5, odd, 32 banks: 1
    // wavefront each. 8 instructions, 12 wavefronts.
    assert_eq!((r.counters.smem_instr, r.counters.smem_wavefronts), (8, 12));
    assert_eq!(r.counters.barriers, 1);
    run("BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY", 13);
}

#[test]
fn a_raking_reduction_of_a_partial_tile_guards_its_items() {
    // BLOCK_REDUCE_RAKING over 64 threads (segments of 2, not padded: CUB pads segments above
    // 2), Sum of 40 valid items 1..40 = 820: raking threads 0..19 (ceil(40 / 2)) hold items,
    // each adding its second only where 2t + 1 < 40. With all 64 valid: 2080. The
    // TempStorage: the grid, 32 × 2 words = 256 bytes. Both commutative and plain raking
    // take this path for a partial tile; a full one is the test above.
    for alg in [
        "BLOCK_REDUCE_RAKING",
        "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY",
    ] {
        let src = format!(
            r#"
#include <cub/cub.cuh>
__global__ void k(const float* in, float* out, int n) {{
    typedef cub::BlockReduce<float, 64, cub::{alg}> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    float s = BlockReduce(temp_storage).Sum(in[threadIdx.x], n);
    if (threadIdx.x == 0) out[0] = s;
}}
launch k {{ in = arange(64) + 1; out = zeros(1); n = 40; expect out == [820]; }}
launch k {{ in = arange(64) + 1; out = zeros(1); n = 64; expect out == [2080]; }}
"#
        );
        let r = ok(&src, &[], ONE, [64, 1, 1]);
        assert_eq!(r.launch.smem_per_block, 256, "{alg}");
    }
}

#[test]
fn raking_commutative_only_of_key_value_pairs_takes_the_arg_max() {
    // pytorch3d's farthest point sampling: `KeyValuePair<int64_t, float>` (16 bytes) reduced
    // with cub::ArgMax over 64 threads.
    let src = r#"
#include <cub/cub.cuh>
__global__ void k(const float* in, long long* out) {
    typedef cub::BlockReduce<cub::KeyValuePair<int64_t, float>, 64, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    int64_t sel = BlockReduce(temp_storage)
                      .Reduce(cub::KeyValuePair<int64_t, float>(threadIdx.x, in[threadIdx.x]), cub::ArgMax())
                      .key;
    if (threadIdx.x == 0) out[0] = sel;
}
launch k { in = arange(64) % 7; out = zeros(1); expect out == [6]; }
"#;
    // arange(64) % 7: the largest value, 6, first at item 6 (ArgMax keeps the smaller key on a
    // tie, and CUB's commutative path folds in another order: the tie rule decides). The
    // TempStorage is the fallback's grid, 32 raking threads × 2 pairs × 16 bytes = 1024 bytes.
    let r = ok(src, &[], ONE, [64, 1, 1]);
    assert_eq!(r.launch.smem_per_block, 1024);
}

#[test]
fn a_traits_structs_static_member_is_a_dimension() {
    // mamba's kernel traits: `cub::BlockScan<int, Ktraits::kNThreads>` with `Ktraits =
    // Traits<32>`, whose `static constexpr int kNThreads` is 32, in the TempStorage and in the
    // collective alike. An inclusive sum of ones over 32 threads: 1..32.
    let src = r#"
#include <cub/block/block_scan.cuh>
template<int kNThreads_>
struct Traits {
    static constexpr int kNThreads = kNThreads_;
};
template<typename Ktraits>
__global__ void k(const int* in, int* out) {
    __shared__ typename cub::BlockScan<int, Ktraits::kNThreads>::TempStorage temp;
    int v = in[threadIdx.x];
    cub::BlockScan<int, Ktraits::kNThreads>(temp).InclusiveSum(v, v);
    out[threadIdx.x] = v;
}
launch k<Traits<32>> { in = ones(32); out = zeros(32); expect out == arange(32) + 1; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
    // A dimension that is no constant stays an error (and the collective's class then names
    // another storage than `temp`).
    let f = err(
        &src.replace(
            "cub::BlockScan<int, Ktraits::kNThreads>::TempStorage",
            "cub::BlockScan<int, Ktraits::kMissing>::TempStorage",
        ),
        &[],
        Some(ONE),
        Some([32, 1, 1]),
    );
    assert_eq!(codes(&f)[0], "simt::check::not_constant");
}

#[test]
fn a_collective_named_through_a_traits_member_type() {
    // mamba: `using BlockScanT = cub::BlockScan<int, kNThreads>;` in the traits struct, whose
    // TempStorage is `typename Ktraits::BlockScanT::TempStorage` and whose collective is made
    // by `typename Ktraits::BlockScanT(temp).InclusiveSum(v, v);`. Ones over 32 threads: 1..32.
    let src = r#"
#include <cub/block/block_scan.cuh>
template<int kNThreads_>
struct Traits {
    static constexpr int kNThreads = kNThreads_;
    using BlockScanT = cub::BlockScan<int, kNThreads>;
};
template<typename Ktraits>
__global__ void k(const int* in, int* out) {
    __shared__ typename Ktraits::BlockScanT::TempStorage temp;
    int v = in[threadIdx.x];
    typename Ktraits::BlockScanT(temp).InclusiveSum(v, v);
    out[threadIdx.x] = v;
}
launch k<Traits<32>> { in = ones(32); out = zeros(32); expect out == arange(32) + 1; }
"#;
    ok(src, &[], ONE, [32, 1, 1]);
}

#[test]
fn key_value_pairs_through_an_alias_reduced_by_a_generic_lambda() {
    // TensorRT's layer norm: `cub::BlockReduce<kvp<T>, TPB>` with `template <typename T> using
    // kvp = cub::KeyValuePair<T, T>;`, reduced by a lambda written in the call that adds two
    // pairs with the file's operator+. Each of 128 threads gives (1, v²) with v = 2: the sum
    // is (128, 512).
    let src = r#"
#include <cub/cub.cuh>
template <typename T>
using kvp = cub::KeyValuePair<T, T>;
__device__ inline kvp<float> operator+(const kvp<float>& a, const kvp<float>& b) {
    return kvp<float>(a.key + b.key, a.value + b.value);
}
template <typename T, int TPB>
__global__ void k(const T* in, T* out) {
    using BlockReduce = cub::BlockReduce<kvp<T>, TPB>;
    __shared__ typename BlockReduce::TempStorage temp;
    T v = in[threadIdx.x];
    kvp<T> t(1, v * v);
    auto s = BlockReduce(temp).Reduce(t, [](auto const& lhs, auto const& rhs) { return lhs + rhs; });
    if (threadIdx.x == 0) { out[0] = s.key; out[1] = s.value; }
}
launch k<float, 128> { in = full(128, 2); out = zeros(2); expect out == [128, 512]; }
"#;
    ok(src, &[], ONE, [128, 1, 1]);
}

#[test]
fn cub_functors_named_as_objects_combine_as_cub_defines_them() {
    // vLLM's MoE kernels: `cub::Max max; Reduce(v, max)`, `cub::Sum sum; Reduce(v, sum)`, and
    // `cub::ArgMax arg_max;` called directly and passed to Reduce of KeyValuePair<int, float>.
    // in = arange(64) % 32: max 31, sum 2 · 496 = 992; the maximum 31 is at keys 31 and 63,
    // and ArgMax keeps the lower key on a tie: 31. arg_max({5, 2}, {3, 2}) = {3, 2}.
    let src = r#"
#include <cub/cub.cuh>
template <int TPB>
__global__ void k(const float* in, float* out, int* key) {
    using kvp = cub::KeyValuePair<int, float>;
    using BlockReduce = cub::BlockReduce<float, TPB>;
    using KvpReduce = cub::BlockReduce<kvp, TPB>;
    __shared__ typename BlockReduce::TempStorage tmp;
    __shared__ typename KvpReduce::TempStorage kv_tmp;
    cub::Max max;
    cub::Sum sum;
    cub::ArgMax arg_max;
    float v = in[threadIdx.x];
    float m = BlockReduce(tmp).Reduce(v, max);
    __syncthreads();
    float s = BlockReduce(tmp).Reduce(v, sum);
    kvp mine(threadIdx.x, v);
    kvp best = KvpReduce(kv_tmp).Reduce(mine, arg_max);
    kvp pick = arg_max(kvp(5, 2.0f), kvp(3, 2.0f));
    if (threadIdx.x == 0) {
        out[0] = m; out[1] = s; out[2] = best.value; key[0] = best.key; key[1] = pick.key;
    }
}
launch k<64> { in = arange(64) % 32; out = zeros(3); key = zeros(2);
    expect out == [31, 992, 31]; expect key == [31, 3]; }
"#;
    let r = ok(src, &[], [1, 1, 1], [64, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}

#[test]
fn a_collective_named_in_a_call_takes_a_kernel_templates_dimension() {
    // TurboTransformers' `cub::BlockReduce<T, BlockDim>(ts).Reduce(...)` written inline in a kernel
    // template launched as k<64>: BlockDim is 64 there. Sum of 64 ones = 64.
    let src = r#"
#include <cub/cub.cuh>
template <int BlockDim>
__global__ void k(const float* x, float* out) {
  __shared__ typename cub::BlockReduce<float, BlockDim>::TempStorage ts;
  float s = cub::BlockReduce<float, BlockDim>(ts).Sum(x[threadIdx.x]);
  if (threadIdx.x == 0) out[0] = s;
}
launch k<64> { x = ones(64); out = zeros(1); expect out == [64]; }
"#;
    assert!(ok(src, &[], [1, 1, 1], [64, 1, 1]).expects_passed());
}

#[test]
fn a_block_reduce_takes_a_function_object_of_the_file_made_in_place() {
    // dietgpu's `BlockReduce(smem).Reduce(checksum, ReduceXor<uint32_t>())`, also one of a
    // namespace (`ns::Xor<unsigned>()`). The xor of
    // 0..63 is 0 (each aligned group of four xors to 0); of 1..64 it is 64 ^ 0 ^ ... = 64 ^ 0
    // = 64 (1..63 xor to 0 as 0..63 do).
    let src = r#"
#include <cub/cub.cuh>
template <typename T> struct Xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };
namespace ns { template <typename T> struct Xor { __device__ T operator()(const T& a, const T& b) const { return b ^ a; } }; }
__global__ void k(unsigned* out, const unsigned* in) {
    typedef cub::BlockReduce<unsigned, 64> BR;
    __shared__ typename BR::TempStorage smem;
    unsigned v = BR(smem).Reduce(in[threadIdx.x], Xor<unsigned>());
    __syncthreads();
    unsigned w = BR(smem).Reduce(in[threadIdx.x] + 1u, ns::Xor<unsigned>());
    if (threadIdx.x == 0) { out[0] = v; out[1] = w; }
}
launch k { grid = 1; block = 64; in = arange(64); out = zeros(2); expect out == [0, 64]; }
"#;
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
    // A name made in place that is neither CUB's operation nor a struct of the file is refused
    // there, saying what it could be.
    let bad = src.replacen("Xor<unsigned>()", "Nope<unsigned>()", 1);
    let f = err(&bad, &[], Some([1, 1, 1]), Some([64, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::cub_unsupported"]);
    let help = f.errors[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(help.contains("nor a struct of this file"), "{help}");
}

#[test]
fn counting_and_cache_modified_iterators_read_as_sequences() {
    // FlexSpmv's merge-path search reads `cub::CountingInputIterator<int>(0)` (0, 1, 2, ...)
    // and the row offsets through `cub::CacheModifiedInputIterator<LOAD_LDG, int, int>` (a
    // plain load). In a kernel template, `It<cub::LOAD_LDG, ...>` names one instance whether
    // written as a type or constructed: out[t] = t + row_end[t] + row_end[t + 1] = 3t + 1.
    let src = r#"
#include <cub/cub.cuh>
template <typename OffsetT>
__global__ void k(const OffsetT* row_end, OffsetT* out)
{
    cub::CountingInputIterator<OffsetT> nz(0);
    cub::CacheModifiedInputIterator<cub::LOAD_LDG, OffsetT, OffsetT> re =
        cub::CacheModifiedInputIterator<cub::LOAD_LDG, OffsetT, OffsetT>(row_end);
    out[threadIdx.x] = nz[threadIdx.x] + re[threadIdx.x] + re[threadIdx.x + 1];
}
launch k<int> { row_end = arange(9); out = zeros(8); grid = 1; block = 8; expect out == 3 * arange(8) + 1; }
"#;
    ok(src, &[], [1, 1, 1], [8, 1, 1]);
}

#[test]
fn a_temp_storage_passes_by_reference_and_dimensions_are_constant_expressions() {
    // sofar-3rd's layernorm: `BlockReduce<State, kMaxBlockSize>` of a file `constexpr int`
    // (here `2 * kMax` in an anonymous namespace), its shared TempStorage passed to a helper
    // as `BR::TempStorage&`. Sum of 0..127 = 127 · 128 / 2 = 8128.
    let src = r#"
#include <cub/block/block_reduce.cuh>
namespace {
constexpr int kMax = 64;
using BR = cub::BlockReduce<float, 2 * kMax>;
}
__device__ float block_sum(float v, BR::TempStorage& storage) { return BR(storage).Sum(v); }
__global__ void k(const float* in, float* out) {
    __shared__ BR::TempStorage temp;
    float s = block_sum(in[threadIdx.x], temp);
    if (threadIdx.x == 0) out[0] = s;
}
launch k { in = arange(128); out = zeros(1); expect out == [8128]; }
"#;
    ok(src, &[], [1, 1, 1], [128, 1, 1]);
}
