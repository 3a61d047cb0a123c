//! `sequence` sections (docs/heap.md): launches run in order on one set of arrays and one
//! device heap, numbered once for the whole sequence, so that a pointer one launch stores is
//! followed by the next, through a member into an array the second kernel does not take.

use simt::pipeline::{self, RunOptions, SequenceRun};
use simt::source::SourceFile;

use crate::common;

/// Runs the file's first sequence with the default options.
fn run(src: &str) -> Result<SequenceRun, pipeline::Failure> {
    pipeline::run_sequence(
        &SourceFile::new("sequence.sk", src),
        &RunOptions::default(),
        0,
    )
}

/// Runs and unwraps, failing the test on a diagnostic or a failed `expect`.
fn ok(src: &str) -> SequenceRun {
    let run = run(src).unwrap_or_else(|f| panic!("sequence failed: {}", common::describe(&f)));
    for e in run
        .launches
        .iter()
        .flat_map(|r| &r.expects)
        .chain(&run.expects)
    {
        assert!(e.passed, "expect `{}` failed: {:?}", e.text, e.detail);
    }
    run
}

/// The device address of byte `offset` of the sequence's array `b`: the heap is 0, its
/// allocator's word 1, its record of allocations 2, then the arrays in the order the sequence
/// makes them.
fn address(b: u64, offset: u64) -> u64 {
    0x7f00_0000_0000 + (b << 32) + offset
}

/// The list classes of `tests/heap.rs`, whose `hit` sums its members' through `list[i]->hit`.
const WORLD: &str = r#"
__global__ void create_world(hitable **d_list, hitable **d_world) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        d_list[0] = new sphere(0.5f);
        d_list[1] = new sphere(2.0f);
        *d_world = new hitable_list(d_list, 2);
    }
}
__global__ void render(float* out, hitable **world) {
    int t = threadIdx.x;
    out[t] = (*world)->hit((float)t);
}
"#;

#[test]
fn a_second_launch_follows_the_pointers_the_first_stored() {
    // Arrays: heap 0, heap word 1, record 2, d_list 3, d_world 4, out 5. The spheres (class word 8 bytes,
    // radius 4: 16 with the 8-byte alignment) are at heap bytes 0 and 16, the list (class word,
    // `list` 8, `list_size` 4: 24, reserved as 32) at 32. render takes d_world only: the list's
    // `hitable** list` member holds d_list's address, array 3, which render reaches through the
    // hidden parameter its sequence gives it. Thread t: t * 0.5 + t * 2 = 2.5 t.
    let src = format!(
        "{}{WORLD}{}",
        crate::heap::LIST,
        format_args!(
            "sequence {{
    d_list = zeros(2); d_world = zeros(1); out = zeros(4);
    launch create_world {{ grid = 1; block = 1; expect d_list == [{}, {}]; }}
    launch render {{ world = d_world; grid = 1; block = 4; }}
    expect d_world == [{}];
    expect out == [0, 2.5, 5, 7.5];
}}
",
            address(0, 0),
            address(0, 16),
            address(0, 32)
        )
    );
    let run = ok(&src);
    let kernels: Vec<&str> = run.launches.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(kernels, ["create_world", "render"]);
    // The launch item's own expect is its report's; the sequence's are the sequence's.
    assert_eq!(run.launches[0].expects.len(), 1);
    assert_eq!(run.expects.len(), 2);
    // render's loads (one warp): `*world`, the list's class word, its `list` member, `list_size`
    // at the loop's three tests, then per sphere `list[i]`, its class word and its radius:
    // 1 + 1 + 1 + 3 + 2 x 3 = 12.
    assert_eq!(run.launches[1].counters.gld_instr, 12);
}

#[test]
fn the_heap_carries_over_and_each_launch_binds_its_own_names() {
    // `make` allocates an int per thread in lane order, 16 bytes apart (CUDA's alignment), and
    // stores their addresses into `p`, an `int**`; `read` takes them as `q` and reads through
    // them in reverse: out[t] = q[3 - t][0] + 1 = 3 (3 - t) + 1 = [10, 7, 4, 1]. Then it
    // allocates once more: the heap word carried over, so the new int is at byte 64, after
    // make's four. Arrays: heap 0, heap word 1, p 2, out 3, more 4.
    let src = format!(
        "{}",
        format_args!(
            "__global__ void make(int** p) {{ int t = threadIdx.x; p[t] = new int(3 * t); }}
__global__ void read(int** q, int* out, int** more) {{
    int t = threadIdx.x;
    int* r = q[3 - t];
    out[t] = r[0] + 1;
    if (t == 0) more[0] = new int(5);
}}
sequence {{
    p = zeros(4); out = zeros(4); more = zeros(1);
    launch make {{ grid = 1; block = 4; }}
    launch read {{ q = p; grid = 1; block = 4; }}
    expect p == [{}, {}, {}, {}];
    expect out == [10, 7, 4, 1];
    expect more == [{}];
}}
",
            address(0, 0),
            address(0, 16),
            address(0, 32),
            address(0, 48),
            address(0, 64)
        )
    );
    ok(&src);
}

#[test]
fn a_failed_sequence_expect_fails_the_run() {
    // The same sequence as above, expecting the unreversed values: out is [10, 7, 4, 1].
    let src = "__global__ void make(int** p) { int t = threadIdx.x; p[t] = new int(3 * t); }
__global__ void read(int** q, int* out) { int t = threadIdx.x; int* r = q[t]; out[t] = r[0] + 1; }
sequence {
    p = zeros(4); out = zeros(4);
    launch make { grid = 1; block = 4; }
    launch read { q = p; grid = 1; block = 4; }
    expect out == [10, 7, 4, 1];
}
";
    let run = run(src).expect("runs");
    // q[t][0] + 1 = 3t + 1 = [1, 4, 7, 10]: not the expected values.
    assert!(!run.expects[0].passed);
    assert!(!run.expects_passed());
}

#[test]
fn a_kernel_of_a_sequence_runs_alone_as_it_did_without_the_sequence() {
    // render on its own (its launch section, not the sequence), with `*world` null: its hidden
    // parameter for d_list is bound to NULL, and the launch fails as the same file without the
    // sequence does (the hidden parameter changes nothing outside a sequence).
    let alone = "launch render { out = zeros(4); world = zeros(1); grid = 1; block = 4; }\n";
    let sequence = "sequence { d_list = zeros(2); d_world = zeros(1); out = zeros(4);
    launch create_world { grid = 1; block = 1; }
    launch render { world = d_world; grid = 1; block = 4; } }
";
    let with = format!("{}{WORLD}{sequence}{alone}", crate::heap::LIST);
    let without = format!("{}{WORLD}{alone}", crate::heap::LIST);
    let with = common::run(&with, &[], None, None).expect_err("null world");
    let without = common::run(&without, &[], None, None).expect_err("null world");
    assert_eq!(common::codes(&with), common::codes(&without));
    assert_eq!(common::position(&with), common::position(&without));
}

#[test]
fn flags_for_one_launch_are_refused_for_a_sequence() {
    let src = format!(
        "{}{WORLD}{}",
        crate::heap::LIST,
        "sequence { d_list = zeros(2); d_world = zeros(1); out = zeros(4);
    launch create_world { grid = 1; block = 1; }
    launch render { world = d_world; grid = 1; block = 4; } }
"
    );
    let opts = RunOptions {
        overrides: simt::host::Overrides {
            grid: Some([2, 1, 1]),
            ..Default::default()
        },
        ..RunOptions::default()
    };
    let f = pipeline::run_sequence(&SourceFile::new("s.sk", &src), &opts, 0)
        .expect_err("--grid is refused");
    assert!(
        common::describe(&f).contains("--grid/--block"),
        "{}",
        common::describe(&f)
    );
}

#[test]
fn memory_freed_by_one_launch_is_freed_for_the_next() {
    // `make` allocates one int and stores its address; `drop` deletes it; `use` reads it: the
    // heap's record of allocations carries over like the heap, so the read is a use after free
    // (and a second `drop` would be a double delete).
    let src = r#"
__global__ void make(int** slot) { *slot = new int(7); }
__global__ void drop(int** slot) { delete *slot; }
__global__ void use(int** slot, int* out) { out[0] = **slot; }
sequence {
    slot = zeros(1); out = zeros(1);
    launch make { grid = 1; block = 1; }
    launch use { grid = 1; block = 1; }
    launch drop { grid = 1; block = 1; }
    launch use { grid = 1; block = 1; }
}
"#;
    let Err(f) = run(src) else {
        panic!("the last read is of freed memory")
    };
    assert_eq!(common::codes(&f), ["simt::run::use_after_free"]);
}

#[test]
fn a_sequence_launches_instances_of_kernel_templates() {
    // altis' GUPS launches d_bench<ATOMICTYPE_XOR> between d_init and d_check; the instance a
    // sequence names is instantiated as a launch section's is. kk<3> writes 3, kk<4> adds 4.
    let src = "
template <int K>
__global__ void kk(int* o) { o[threadIdx.x] += K; }
sequence {
    o = zeros(4);
    launch kk<3> { grid = 1; block = 4; }
    launch kk<4> { grid = 1; block = 4; }
    expect o == 7;
}
";
    let run = ok(src);
    let kernels: Vec<&str> = run.launches.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(kernels, ["kk<3>", "kk<4>"]);
}

#[test]
fn a_name_an_item_binds_stays_the_sequences_own_in_later_items() {
    // SHOC's scan: `launch reduce { g_odata = g_block_sums; }`, then a launch of a kernel
    // whose own `g_odata` is the sequence's `g_odata`. The first item writes 1s into `a`
    // through its `out`; the second writes 2s into the sequence's `out`, untouched by the
    // first item's binding (it used to follow `a`, leaving `out` zero and `a` all 2).
    let src = r#"
__global__ void fill(float* out, float v) { out[threadIdx.x] = v; }
sequence {
    a = zeros(4); out = zeros(4);
    launch fill { out = a; v = 1; grid = 1; block = 4; }
    launch fill { v = 2; grid = 1; block = 4; }
    expect a == full(4, 1);
    expect out == full(4, 2);
}
"#;
    ok(src);
}

#[test]
fn an_item_that_binds_a_name_to_its_own_array_writes_the_sequences_array() {
    // svox2's `accel_dist_set` then `accel_dist_prop`: `grid = grid;` in each item. The
    // first item writes 1, 2, 3, 4 into `t` (and, bound one element in, 10 + k into t[k + 1]
    // with t[0] written through index -1); the second reads what the first left. Binding a
    // name to itself used to drop the first launch's writes silently.
    let src = r#"
__global__ void put(int* t) { t[threadIdx.x] = threadIdx.x + 1; }
__global__ void shifted(int* t) { t[threadIdx.x] = 10 + threadIdx.x; if (threadIdx.x == 0) t[-1] = 5; }
__global__ void get(const int* t, int* out) { out[threadIdx.x] = 2 * t[threadIdx.x]; }
sequence {
    t = zeros(4); u = zeros(5); out = zeros(4); out2 = zeros(4);
    launch put { t = t; grid = 1; block = 4; }
    launch get { t = t; grid = 1; block = 4; }
    launch shifted { t = &u[1]; grid = 1; block = 4; }
    launch shifted { t = &t[1]; grid = 1; block = 3; }
    launch get { t = u; out = out2; grid = 1; block = 4; }
    expect t == [5, 10, 11, 12];
    expect out == [2, 4, 6, 8];
    expect u == [5, 10, 11, 12, 13];
    expect out2 == [10, 20, 22, 24];
}
"#;
    ok(src);
}

/// A `__constant__` without an initialiser that a launch of a sequence reads and does not set is
/// refused, not zero: an earlier launch may have set it, and a sequence does not carry
/// file-scope memory from launch to launch (zeros would be a silent wrong value).
#[test]
fn an_unset_constant_in_a_sequence_is_an_unbound_parameter() {
    let src = "__constant__ int cc[2];
__global__ void k1(int* o) { o[0] = cc[1]; }
__global__ void k2(int* o) { o[1] = cc[1]; }
sequence {
    o = zeros(2);
    launch k1 { grid = 1; block = 1; cc = [5, 6]; }
    launch k2 { grid = 1; block = 1; }
    expect o == [6, 6];
}
";
    let Err(f) = run(src) else {
        panic!("an unset constant in a sequence ran")
    };
    assert_eq!(common::codes(&f), ["simt::host::unbound_parameter"]);
}

#[test]
fn an_empty_array_stays_uninitialised_where_no_launch_of_the_sequence_wrote_it() {
    // `w` writes a[0..4], `r` reads a[0..8]: a[4..8] were never written, 4 words of one warp in
    // one instruction (an uninitialised read in the second launch, as in a single launch).
    let src = r#"
__global__ void w(int* a, int from) { if (threadIdx.x < 4) a[from + threadIdx.x] = 1; }
__global__ void r(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x]; }
sequence {
    a = empty(8);
    o = zeros(8);
    launch w { a = a; from = 0; grid = 1; block = 8; }
    launch r { a = a; out = o; grid = 1; block = 8; }
}
"#;
    let run = ok(src);
    assert_eq!(run.launches[0].counters.uninit_count, 0);
    let u = &run.launches[1].uninit;
    assert_eq!(u.len(), 1);
    assert_eq!((u[0].read.first.array.as_str(), u[0].read.words), ("a", 4));
    // A second write launch fills a[4..8] first: every element read was written, no report.
    let src = src.replace(
        "    launch r {",
        "    launch w { a = a; from = 4; grid = 1; block = 8; }\n    launch r {",
    );
    let run = ok(&src);
    assert!(run.launches.iter().all(|l| l.counters.uninit_count == 0));
    // The first launch reading the array before any write reports all 8 words.
    let src = src.replacen(
        "    launch w { a = a; from = 0;",
        "    launch r { a = a; out = o; grid = 1; block = 8; }\n    launch w { a = a; from = 0;",
        1,
    );
    let run = ok(&src);
    assert_eq!(run.launches[0].uninit[0].read.words, 8);
}

#[test]
fn device_variables_keep_their_values_from_launch_to_launch() {
    // `w` runs twice: 2 × 4 atomicAdds make `counter` 8, and `tab[t]` = 2t + the value of
    // `base` (initialised once to 10; `w` adds 1 to it in one thread each time: 10, then 11).
    // `r` reads them all: out[t] = 8 + 2t + 11 + 12 (base after two launches).
    let src = r#"
__device__ int counter;
__device__ float tab[4];
__device__ int base = 10;
__global__ void w() {
    atomicAdd(&counter, 1);
    tab[threadIdx.x] = threadIdx.x * 2 + base;
    __syncthreads();
    if (threadIdx.x == 0) base += 1;
}
__global__ void r(int* out) { out[threadIdx.x] = counter + tab[threadIdx.x] + base; }
sequence {
    o = zeros(4);
    launch w { grid = 1; block = 4; }
    launch w { grid = 1; block = 4; }
    launch r { out = o; grid = 1; block = 4; }
    expect o == 8 + 2 * arange(4) + 11 + 12;
    expect counter == 8;
}
"#;
    ok(src);
    // A launch item that sets one (`cudaMemcpyToSymbol`) sets it before the kernel runs; what
    // the kernel leaves is kept: 100 + 1.
    let src = r#"
__device__ int base = 10;
__global__ void w() { base += 1; }
__global__ void r(int* out) { out[0] = base; }
sequence {
    o = zeros(1);
    launch w { base = [100]; grid = 1; block = 1; }
    launch r { out = o; grid = 1; block = 1; }
    expect o == [101];
    expect base == 101;
}
"#;
    ok(src);
    // Set to a number at sequence level, as a launch item may.
    ok(&src
        .replace(
            "    o = zeros(1);",
            "    o = zeros(1);
    base = 100;",
        )
        .replace("base = [100]; ", ""));
}

#[test]
fn a_pointer_the_sequence_takes_follows_what_launches_leave_in_its_array() {
    // `c = &b[2]`: `w` writes 7 to b[2] and b[3] through it, `r` reads b[2..8] through it:
    // out = [7, 7, 0, 0, 0, 0]. Before, `c` kept pointing into b as it was before `w`.
    let src = r#"
__global__ void w(int* p) { if (threadIdx.x < 2) p[threadIdx.x] = 7; }
__global__ void r(const int* q, int* out) { out[threadIdx.x] = q[threadIdx.x]; }
sequence {
    b = zeros(8);
    c = &b[2];
    o = zeros(6);
    launch w { p = c; grid = 1; block = 8; }
    launch r { q = c; out = o; grid = 1; block = 6; }
    expect o == [7, 7, 0, 0, 0, 0];
    expect b == [0, 0, 7, 7, 0, 0, 0, 0];
}
"#;
    ok(src);
    // With `b = empty(8)`, `r` reads b[4..8], which no launch wrote: 4 words, not 6.
    let run = ok(&src.replace("b = zeros(8)", "b = empty(8)"));
    assert_eq!(run.launches[1].uninit[0].read.words, 4);
}

#[test]
fn a_computed_array_bound_by_its_name_takes_the_parameters_type() {
    // `levels = [0, 5, 5, 7];` (a list) and `base = arange(4) + 3;` (computed in doubles) at
    // sequence level, then launch items that do not set them: each is made in its parameter's
    // type as a launch section's own assignment makes it (they stopped with "`levels` is
    // `unsigned int*` but was given an array"). out[t] = (levels[t] == 5) + base[t] = 3, 5, 6, 6.
    let src = r#"
__global__ void k(const unsigned int* levels, const int* base, int* out) {
    out[threadIdx.x] = (levels[threadIdx.x] == 5U) + base[threadIdx.x];
}
sequence {
    levels = [0, 5, 5, 7]; base = arange(4) + 3; out = zeros(4);
    launch k { block = 4; grid = 1; }
    expect out == [3, 5, 6, 6];
}
"#;
    ok(src);
}

#[test]
fn a_pointer_into_a_computed_array_takes_its_type_with_it() {
    // `p = &a[2];` into `a = arange(4) + 1` (doubles until a launch types them), both bound
    // by name to `int*` parameters: one conversion serves both, so k's write through p lands
    // in a[2] (it was refused as `p` holding `double` elements).
    let src = r#"
__global__ void k(int* a, int* p) { if (threadIdx.x == 0) p[0] = 100; }
__global__ void r(int* a, int* out) { out[threadIdx.x] = a[threadIdx.x]; }
sequence {
    a = arange(4) + 1; p = &a[2]; out = zeros(4);
    launch k { block = 1; grid = 1; }
    launch r { block = 4; grid = 1; }
    expect out == [1, 2, 100, 4];
    expect a == [1, 2, 100, 4];
}
"#;
    ok(src);
}
