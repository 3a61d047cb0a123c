//! Memory-level parallelism in the refined time model (`src/exec/rounds.rs`): the DRAM latency
//! rounds on a warp's critical path, and the global loads and requests a warp keeps in flight.
//! Each small launch is one warp (one block of 32 threads), so the numbers are per warp; the
//! expected values are derived by hand in the comments.

use crate::common;

/// `(loads in flight, requests in flight, latency rounds)` per warp of `src` on one warp.
fn mlp(src: &str, args: &[(&str, &str)]) -> (f64, f64, f64) {
    let report = common::run(src, args, Some([1, 1, 1]), Some([32, 1, 1])).expect("runs");
    let r = report.refined.as_ref().expect("a refined estimate");
    (
        r.loads_in_flight_per_warp,
        r.requests_in_flight_per_warp,
        r.latency_rounds_per_warp,
    )
}

#[test]
fn four_independent_loads_before_their_first_use_are_four_in_flight() {
    // `for (i = 0; i < 4; i++) s += a[i * 32 + t]` is unrolled (constant bounds): one region.
    // No load's address depends on a load, so all four issue in round 0 and are ready in round 1;
    // the adds and the store of `s` wait for them: 1 round. Loads in flight 4 / 1; requests
    // (4 loads + 1 store) 5 / 1.
    assert_eq!(
        mlp(&common::sum_loop("4", 4, "s += a[i * 32 + t];"), &[]),
        (4.0, 5.0, 1.0)
    );
}

#[test]
fn a_loop_nvcc_does_not_unroll_waits_each_iteration() {
    // `i < n` with n = 4 at run time: the loop's test is a branch the compiled kernel keeps, so
    // each iteration is a region of its own: iteration k's load issues once the add of k − 1
    // has (round k) and the add waits a round for it. 4 loads in 4 rounds: 1 in flight;
    // requests 5 / 4.
    assert_eq!(
        mlp(&common::sum_loop("n", 4, "s += a[i * 32 + t];"), &[]),
        (1.0, 1.25, 4.0)
    );
}

fn chain(next: &str) -> String {
    format!(
        "__global__ void k(const int* next, int* out) {{
            int t = threadIdx.x;
            int x = next[t];
            x = next[x];
            x = next[x];
            x = next[x];
            out[t] = x;
        }}
        launch k {{
            next = {next};
            out = zeros(32);
            grid = 1;
            block = 32;
        }}"
    )
}

#[test]
fn a_chain_of_dependent_loads_keeps_one_in_flight() {
    // Each address is the value the load before it returned, and `next[i] = i + 32` sends each
    // load to the next 128-byte line (32 ints), which the L1 has not seen: load k issues in
    // round k − 1 and is ready in round k. 4 loads, 4 rounds; requests (4 loads + 1 store)
    // 5 / 4.
    assert_eq!(mlp(&chain("arange(160) + 32"), &[]), (1.0, 1.25, 4.0));
}

#[test]
fn a_load_that_hits_the_l1_waits_no_round() {
    // The same chain with `next[i] = i`: every load after the first reads the line the first
    // brought into the L1, so only the first takes a round: 4 loads, 1 round, 5 requests.
    assert_eq!(mlp(&chain("arange(32)"), &[]), (4.0, 5.0, 1.0));
}

#[test]
fn a_load_waits_for_an_earlier_store_to_its_array_only() {
    // Two copies in one region. Into another array: both loads issue in round 0, both stores in
    // round 1: 1 round, 2 loads in flight. Within one array the second load may read what the
    // first store wrote, so it issues after that store (round 1) and is ready in round 2: 2
    // rounds, 1 load in flight.
    let copies = |second: &str| {
        format!(
            "__global__ void k(const float* a, float* b) {{
                int t = threadIdx.x;
                b[t] = a[t];
                b[t + 32] = {second}[t + 64];
            }}
            launch k {{
                a = arange(128);
                b = zeros(128);
                grid = 1;
                block = 32;
            }}"
        )
    };
    assert_eq!(mlp(&copies("a"), &[]), (2.0, 4.0, 1.0));
    assert_eq!(mlp(&copies("b"), &[]), (1.0, 2.0, 2.0));
}

#[test]
fn stores_alone_never_stall_a_warp() {
    // No load: no round to wait for, nothing in flight to count; Little's law has no latency to
    // hide and says so.
    let src = "__global__ void k(float* out) {
            out[threadIdx.x] = 1.0f;
        }
        launch k {
            out = zeros(32);
            grid = 1;
            block = 32;
        }";
    let report = common::run(src, &[], Some([1, 1, 1]), Some([32, 1, 1])).expect("runs");
    let r = report.refined.as_ref().expect("a refined estimate");
    assert_eq!(
        (r.loads_in_flight_per_warp, r.latency_rounds_per_warp),
        (0.0, 0.0)
    );
    assert_eq!(r.latency_hiding.fraction, 1.0);
    assert!(r.assumptions.iter().any(|a| a.contains("stores only")));
}

/// The refined time of `out[t * stride] = a[t]` over 64 blocks of 256 threads.
fn scattered_store_time(stride: u32) -> f64 {
    let src = format!(
        "__global__ void k(const float* a, float* out) {{
            int t = blockIdx.x * blockDim.x + threadIdx.x;
            out[t * {stride}] = a[t];
        }}
        launch k {{
            a = arange(16384);
            out = zeros(16384 * {stride});
            grid = 64;
            block = 256;
        }}"
    );
    let report = common::run(&src, &[], None, None).expect("runs");
    report.refined.as_ref().expect("a refined estimate").t
}

#[test]
fn more_scattered_sectors_never_make_a_kernel_faster() {
    // Stride 1 writes 4 sectors per warp store, stride 2 8, stride 8 and more 32 sectors in 32
    // lines: more L1 wavefronts and more L2 and DRAM traffic, and no more bytes in flight than
    // DRAM moves. The time never falls.
    let mut last = 0.0;
    for stride in [1, 2, 4, 8, 16, 32] {
        let t = scattered_store_time(stride);
        assert!(t >= last, "stride {stride}: {t} < {last}");
        last = t;
    }
    assert!(last > scattered_store_time(1));
}
