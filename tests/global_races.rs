//! Races on global memory between the warps of one block: a read-modify-write of one element
//! (`c[0] += 1`), a shift across the warp boundary, what a barrier or an atomic fixes, and that
//! the findings do not depend on the number of worker threads.

use crate::common::{ok, run_threads};
use simt::exec::RaceKind;

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn every_thread_adding_into_one_element_races() {
    let src = "__global__ void k(int* c) {\n    c[0] += 1;\n}\n";
    // 3 blocks of 64 threads (2 warps). In each block both warps load c[0], then both store
    // it: warp 0's store overwrites what warp 1 loaded and the other way round, one WAR per
    // warp: 1 racing store per block, 2 warp instructions, 1 word each. Inside each warp the
    // 32 lanes' `+= 1` is a lost update too (below), filed with the store as it runs, the WAR
    // when the epoch ends: still one racing store execution per block, 3 in all.
    let r = ok(src, &[("c", "zeros(1)")], [3, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 3);
    assert_eq!(r.races.len(), 2);
    let kinds: Vec<RaceKind> = r.races.iter().map(|g| g.race.first.kind).collect();
    assert_eq!(kinds, [RaceKind::LostUpdate, RaceKind::WriteAfterRead]);
    let g = &r.races[1];
    assert_eq!(g.race.first.kind, RaceKind::WriteAfterRead);
    assert_eq!(g.race.first.array, "c");
    assert_eq!((g.race.first.warp, g.race.first.other_warp), (0, 1));
    assert_eq!((g.race.blocks, g.race.warps, g.race.words), (3, 6, 6));
    assert_eq!((g.access, g.other_access), ("write", "read"));
    assert!(g.fix.contains("atomicAdd"), "{}", g.fix);
    // One warp alone: its 32 lanes all read 0 and all store 1, so c[0] ends 1, not 32 (on
    // Volta and later the lanes may even interleave: any count from 1 to 32). A lost update in
    // each block: 3 racing stores, warp 0, 1 word per block; the fix is the same atomic.
    let r = ok(src, &[("c", "zeros(1)")], [3, 1, 1], b(32));
    assert_eq!(r.counters.race_count, 3);
    assert_eq!(r.races.len(), 1);
    let g = &r.races[0];
    assert_eq!(g.race.first.kind, RaceKind::LostUpdate);
    assert_eq!((g.race.first.warp, g.race.first.index), (0, 0));
    assert_eq!((g.race.blocks, g.race.warps, g.race.words), (3, 3, 3));
    assert!(g.fix.contains("atomicAdd"), "{}", g.fix);
    // Lanes that each add to their own element, or `|=` the same bits into one, or add zero,
    // lose nothing: lane t sets bit 0 of flags[0] and adds (t >= 32) to c[0], which only lanes
    // of a second warp would change.
    let idempotent = "__global__ void k(int* c, int* flags, int* own) {\n    own[threadIdx.x] += 1;\n    flags[0] |= 1;\n    c[0] += (threadIdx.x >= 32);\n}\n";
    let r = ok(
        idempotent,
        &[
            ("c", "zeros(1)"),
            ("flags", "zeros(1)"),
            ("own", "zeros(32)"),
        ],
        [1, 1, 1],
        b(32),
    );
    assert_eq!(r.counters.race_count, 0, "{:?}", r.races);
    // Lost all the same: a `half` (its register a float's: `h += 1` from 32 lanes ends 1, not
    // 32), an update through a view of another type (`((int*)f)[0] += 1` of a float buffer), and
    // `|=` of each lane's own bit (only one bit survives). Adding 0 through a view changes
    // nothing: no race.
    let lost = "#include <cuda_fp16.h>\n__global__ void k(__half* h, float* f, unsigned* m, int* g) {\n    h[0] += __float2half(1.0f);\n    ((int*)f)[0] += 1;\n    m[0] |= 1u << threadIdx.x;\n    ((float*)g)[0] += 0.0f;\n}\n";
    let r = ok(
        lost,
        &[
            ("h", "zeros(1)"),
            ("f", "zeros(1)"),
            ("m", "zeros(1)"),
            ("g", "zeros(1)"),
        ],
        [1, 1, 1],
        b(32),
    );
    let arrays: Vec<(&str, RaceKind)> = r
        .races
        .iter()
        .map(|g| (g.race.first.array.as_str(), g.race.first.kind))
        .collect();
    assert_eq!(
        arrays,
        [
            ("h", RaceKind::LostUpdate),
            ("f", RaceKind::LostUpdate),
            ("m", RaceKind::LostUpdate)
        ]
    );
    // An atomic is the fix.
    let atomic = "__global__ void k(int* c) {\n    atomicAdd(&c[0], 1);\n}\n";
    let r = ok(atomic, &[("c", "zeros(1)")], [3, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 0);
}

#[test]
fn a_shift_across_the_warp_boundary_races_on_one_element() {
    let src = r#"
__global__ void k(float* a) {
    int i = threadIdx.x;
    a[i] = a[i + 1];
}
"#;
    // Lane 31 (warp 0) loads a[32]; lane 32 (warp 1) then stores a[32]: one WAR, one word.
    let r = ok(src, &[("a", "arange(65)")], [1, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 1);
    let first = &r.races[0].race.first;
    assert_eq!(
        (first.kind, first.index, first.warp, first.other_warp),
        (RaceKind::WriteAfterRead, 32, 1, 0)
    );
    assert_eq!(r.races[0].race.words, 1);
    assert_eq!((r.races[0].line, r.races[0].other_line), (4, 4));
}

#[test]
fn a_barrier_separates_a_write_from_other_warps_reads_and_is_needed() {
    let racy = r#"
__global__ void k(int* flag, int* out) {
    if (threadIdx.x == 0) flag[0] = 5;
    out[threadIdx.x] = flag[0];
}
"#;
    // Warp 0 stores flag[0]; warp 1 loads it in the same epoch: one RAW (warp 1, 1 word).
    let args = [("flag", "zeros(1)"), ("out", "zeros(64)")];
    let r = simt_run(racy, &args);
    assert_eq!(r.counters.race_count, 1);
    let first = &r.races[0].race.first;
    assert_eq!(
        (first.kind, first.warp, first.other_warp),
        (RaceKind::ReadAfterWrite, 1, 0)
    );
    assert_eq!(
        r.races[0].fix,
        "put __syncthreads() after line 3, before line 4"
    );
    let fixed = r#"
__global__ void k(int* flag, int* out) {
    if (threadIdx.x == 0) flag[0] = 5;
    __syncthreads();
    out[threadIdx.x] = flag[0];
}
"#;
    let r = simt_run(fixed, &args);
    assert_eq!(r.counters.race_count, 0);
    // The barrier separates warp 1's load from warp 0's store: it protects.
    assert_eq!(r.barriers.len(), 1);
    assert!(r.barriers[0].protects);
    // A barrier between accesses of each thread's own element protects nothing.
    let own = r#"
__global__ void k(int* flag, int* out) {
    out[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] += 1;
}
"#;
    let r = simt_run(own, &args);
    assert_eq!(r.counters.race_count, 0);
    assert!(!r.barriers[0].protects);
}

fn simt_run(src: &str, args: &[(&str, &str)]) -> simt::report::Report {
    ok(src, args, [1, 1, 1], b(64))
}

#[test]
fn findings_do_not_depend_on_worker_threads() {
    // 96 blocks of 128 threads (4 warps), each block summing into its own out[blockIdx.x]
    // without an atomic, and a grid-stride copy that is race-free: the same groups, counts
    // and first instances on 1 and 4 workers.
    let src = r#"
__global__ void k(const float* in, float* out, float* copy, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[blockIdx.x] += in[i];
    for (int j = i; j < n; j += gridDim.x * blockDim.x) {
        copy[j] = in[j];
    }
}
"#;
    let args = [
        ("in", "ones(12288)"),
        ("out", "zeros(96)"),
        ("copy", "zeros(12288)"),
        ("n", "12288"),
    ];
    let one = run_threads(src, &args, [96, 1, 1], b(128), 1).expect("runs");
    let four = run_threads(src, &args, [96, 1, 1], b(128), 4).expect("runs");
    // Per block, 4 warps each store out[blockIdx.x] after the others loaded it (a WAR), and
    // the 32 lanes of each warp add into it together (a lost update): the racing store once
    // per block.
    assert_eq!(one.counters.race_count, 96);
    assert_eq!(one.races.len(), 2);
    assert!(one.races.iter().all(|g| g.race.blocks == 96));
    assert_eq!(
        serde_json::to_string(&one.races).unwrap(),
        serde_json::to_string(&four.races).unwrap()
    );
}

#[test]
fn stores_of_one_value_by_two_warps_leave_a_defined_result() {
    // Rodinia's BFS: every frontier thread sets `g_updating_graph_mask[id] = true` and
    // `*g_over = true`, from different statements and loop passes; the result is defined.
    let same = r#"
__global__ void k(int* a) {
    if (threadIdx.x < 32) a[threadIdx.x % 4] = 1; else a[threadIdx.x % 4] = 1;
}
"#;
    let r = ok(same, &[("a", "zeros(4)")], [1, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 0);
    // Warp 0 stores 1, warp 1 stores 2, into the same four elements from two statements: the
    // surviving value depends on the order, a WAW of warp 1 against warp 0 on each element.
    let differ = r#"
__global__ void k(int* a) {
    if (threadIdx.x < 32) a[threadIdx.x % 4] = 1; else a[threadIdx.x % 4] = 2;
}
"#;
    let r = ok(differ, &[("a", "zeros(4)")], [1, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 1);
    let g = &r.races[0];
    assert_eq!(
        (
            g.race.first.kind,
            g.race.first.warp,
            g.race.first.other_warp
        ),
        (RaceKind::WriteAfterWrite, 1, 0)
    );
    assert_eq!(g.race.words, 4);
}

#[test]
fn stores_that_put_each_element_s_own_value_leave_a_defined_result() {
    // Each element gets one value from every warp that stores it, though a warp's lanes store
    // different values: 64 threads, two warps, each storing twice, every lane active. `e` is
    // lane l's element: coalesced (l), descending (31 - l) and scattered (7l mod 32, a
    // permutation); `v` the value of the second store.
    let kernel = |e: &str, v: &str| {
        format!(
            "__global__ void k(int* a) {{
    int l = threadIdx.x % 32;
    int e = {e};
    a[e] = e * 3;
    a[e] = {v};
}}"
        )
    };
    for e in ["l", "31 - l", "l * 7 % 32"] {
        let same = kernel(e, "e * 3");
        let r = ok(&same, &[("a", "zeros(32)")], [1, 1, 1], b(64));
        assert_eq!(r.counters.race_count, 0, "{same}");
        // Warp 1's second store puts another value in element 5: a WAW of warp 1 against warp
        // 0's first store, on that element (and, within the second store, warp 0's and warp
        // 1's lanes on element 5 disagree: the one-instruction race). One execution of the
        // second store races, counted once.
        let differ = kernel(e, "e * 3 + (e == 5 && threadIdx.x >= 32)");
        let r = ok(&differ, &[("a", "zeros(32)")], [1, 1, 1], b(64));
        assert_eq!(r.counters.race_count, 1, "{differ}");
        assert_eq!(r.races.len(), 2, "{differ}");
        let g = r
            .races
            .iter()
            .find(|g| g.race.first.kind == RaceKind::WriteAfterWrite)
            .expect("a WAW");
        assert_eq!(
            (
                g.race.first.kind,
                g.race.first.warp,
                g.race.first.other_warp,
                g.race.words
            ),
            (RaceKind::WriteAfterWrite, 1, 0, 1),
            "{differ}"
        );
    }
}

#[test]
fn a_store_is_measured_against_the_value_the_last_store_left() {
    // Warp 0 stores l then l + 1, warp 1 stores l: the element ends l or l + 1 by the warps'
    // order, though warp 1's value is warp 0's first. One WAW group (warp 1's store against
    // warp 0's). Likewise a[0] = 5, 7 against 5, from a single lane of each warp.
    for src in [
        "__global__ void k(int* a) { int l = threadIdx.x % 32; \
         if (threadIdx.x < 32) { a[l] = l; a[l] = l + 1; } else a[l] = l; }",
        "__global__ void k(int* a) { if (threadIdx.x == 0) { a[0] = 5; a[0] = 7; } \
         else if (threadIdx.x == 32) a[0] = 5; }",
    ] {
        let r = ok(src, &[("a", "zeros(32)")], [1, 1, 1], b(64));
        assert_eq!(r.counters.race_count, 1, "{src}");
        assert_eq!(
            r.races[0].race.first.kind,
            RaceKind::WriteAfterWrite,
            "{src}"
        );
    }
}

#[test]
fn lanes_storing_different_values_to_one_element_leave_it_unknown_to_other_warps() {
    // Warp 0's 32 lanes store 0..31 to a[0] (which survives is undefined: the one-instruction
    // race), then warp 1 stores 0 from another statement: whatever warp 0 left, warp 1's
    // store is a WAW too. Two groups.
    let src =
        "__global__ void k(int* a) { if (threadIdx.x < 32) a[0] = threadIdx.x; else a[0] = 0; }";
    let r = ok(src, &[("a", "zeros(1)")], [1, 1, 1], b(64));
    assert_eq!(r.counters.race_count, 2);
    assert!(r
        .races
        .iter()
        .any(|g| g.race.first.kind == RaceKind::WriteAfterWrite && g.race.first.warp == 1));
}

#[test]
fn a_compare_and_swap_loop_validates_its_first_read() {
    // The Programming Guide's double atomicAdd: `old = *address` is a plain read, and other
    // warps swap the word before this warp's swap; the swap fails on a stale `old` and retries,
    // so the read races with nothing. 64 threads add 1.0: 64. In global and shared memory.
    let cas = r#"
__device__ double add(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}
__global__ void k(double* s, double* t) {
    __shared__ double sh;
    if (threadIdx.x == 0) sh = 0.0;
    __syncthreads();
    add(s, 1.0);
    add(&sh, 1.0);
    __syncthreads();
    if (threadIdx.x == 0) t[0] = sh;
}
"#;
    let args = [("s", "zeros(1)"), ("t", "zeros(1)")];
    let r = simt_run(
        &format!("{cas}launch k {{ expect s == [64]; expect t == [64]; }}"),
        &args,
    );
    assert_eq!(r.counters.race_count, 0);
    // A plain read of a word another warp adds to atomically is still a race: nothing
    // validates it (warp 1's atomicAdd after warp 0's read, WAR).
    let add = r#"
__global__ void k(int* s, int* t) {
    int v = s[0];
    atomicAdd(&s[0], 1);
    t[threadIdx.x] = v;
}
"#;
    let r = simt_run(add, &[("s", "zeros(1)"), ("t", "zeros(64)")]);
    assert_eq!(r.races.len(), 1);
    assert_eq!(r.races[0].race.first.kind, RaceKind::WriteAfterRead);
    // And the CAS loop's read still conflicts with a plain store of another warp (RAW).
    let store = r#"
__global__ void k(int* s) {
    if (threadIdx.x == 32) s[0] = 5;
    int old = s[0], assumed;
    do {
        assumed = old;
        old = atomicCAS(&s[0], assumed, assumed + 1);
    } while (assumed != old);
}
"#;
    let r = simt_run(store, &[("s", "zeros(1)")]);
    assert!(r.counters.race_count > 0);
    assert!(r
        .races
        .iter()
        .any(|g| g.race.first.kind == RaceKind::ReadAfterWrite));
}
