//! The device heap and pointers stored in memory (docs/heap.md): `T**` parameters are arrays of
//! pointers, `new`/`delete` and `malloc`/`free` allocate from an 8 MiB heap in block, warp, lane
//! order, and a stored pointer is the device address simt gives its array.

use crate::common;
use common::{codes, describe, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

/// `hitable`/`sphere`/`hitable_list` as "Ray Tracing in One Weekend in CUDA" (ch05) declares
/// them, cut down to one float.
const CLASSES: &str = r#"
class hitable {
    public:
        __device__ virtual float hit(float t) const = 0;
};
class sphere : public hitable {
    public:
        __device__ sphere(float r) : radius(r) {}
        __device__ virtual float hit(float t) const { return t * radius; }
        float radius;
};
class hitable_list : public hitable {
    public:
        __device__ hitable_list() {}
        __device__ hitable_list(hitable **l, int n) { list = l; list_size = n; }
        __device__ virtual float hit(float t) const { return t; }
        hitable **list;
        int list_size;
};
"#;

/// The device address of byte `offset` of launch array `b` (the `b`-th array bound, in
/// parameter order, the heap after the kernel's own): `0x7f00_0000_0000 + b * 2^32 + offset`.
fn address(b: u64, offset: u64) -> u64 {
    0x7f00_0000_0000 + (b << 32) + offset
}

/// The line of `needle` in `src`, from 1.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .expect("the needle is in the source")
        + 1
}

#[test]
fn create_world_fills_arrays_of_pointers_with_heap_addresses() {
    // ch05's `create_world`. `d_list` is array 0, `d_world` array 1, the heap array 2.
    // sphere: `__vptr` (8 bytes) and `radius` (4), 16 bytes with its 8-byte alignment: the two
    // spheres take 16 bytes each, at 0 and 16. hitable_list: `__vptr`, `list` (8), `list_size`
    // (4) = 24 bytes, reserved as 32 (a multiple of 16), at 32.
    let (s0, s1, w) = (address(2, 0), address(2, 16), address(2, 32));
    let src = format!(
        "{CLASSES}{}",
        r#"
__global__ void create_world(hitable **d_list, hitable **d_world) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        *(d_list)   = new sphere(0.5f);
        *(d_list+1) = new sphere(100);
        *d_world    = new hitable_list(d_list,2);
    }
}
launch create_world { d_list = zeros(2); d_world = zeros(1); expect d_list != 0; expect d_world != 0; }
"#
    );
    let src = src.replace(
        "expect d_world != 0;",
        &format!("expect d_world != 0; expect d_list == [{s0}, {s1}]; expect d_world == [{w}];"),
    );
    let c = ok(&src, &[], ONE, ONE).counters;
    // Stores: 2 leaves per sphere, 3 for the list, 3 pointers into the arrays: 10, each one
    // request of one sector. The three allocations are one atomic each.
    assert_eq!(c.gst_instr, 10, "{c:?}");
    assert_eq!(c.gst_sectors, 10, "{c:?}");
    assert_eq!(c.gatom_instr, 3, "{c:?}");
}

#[test]
fn allocations_go_in_block_then_warp_then_lane_order() {
    // 2 blocks of 40 threads (two warps each, the second of 8 lanes): every thread allocates a
    // 4-byte struct, reserved as 16 bytes. Thread t of block b is allocation 40 b + t, in the
    // order blocks, warps and lanes run, at heap offset 16 (40 b + t); `out` is array 0, the heap
    // array 1. The same on any number of workers.
    let expected: Vec<String> = (0..80).map(|k| address(1, 16 * k).to_string()).collect();
    let src = format!(
        r#"
struct S {{ float a; }};
__global__ void k(S** out) {{
    out[threadIdx.x + blockIdx.x * blockDim.x] = new S{{1.0f}};
}}
launch k {{ out = zeros(80); expect out == [{}]; }}
"#,
        expected.join(", ")
    );
    for threads in [1, 4] {
        let r = common::run_threads(&src, &[], [2, 1, 1], [40, 1, 1], threads)
            .unwrap_or_else(|f| panic!("{}", describe(&f)));
        assert!(
            r.expects.iter().all(|e| e.passed),
            "{threads}: {:?}",
            r.expects
        );
    }
}

#[test]
fn objects_on_the_heap_are_read_and_written_through_their_pointers() {
    // A struct of mixed members built with braces, a float array, bytes from `malloc` viewed
    // as ints: each written and read back. `f[1]` is never written: the heap starts zeroed.
    let src = r#"
struct P { float x; int n; double d; };
__global__ void k(float* out) {
    P* p = new P{1.5f, 7, 2.25};
    float* f = new float[4];
    int* q = (int*)malloc(2 * sizeof(int));
    f[2] = 3.0f;
    q[1] = 40;
    p->n += q[1];
    out[0] = p->x;
    out[1] = p->n;
    out[2] = p->d;
    out[3] = f[2] + f[1];
    delete p;
    delete[] f;
    free(q);
}
launch k { out = zeros(4); expect out == [1.5, 47, 2.25, 3]; }
"#;
    ok(src, &[], ONE, [2, 1, 1]);
}

#[test]
fn a_member_function_of_a_heap_object_sees_its_members() {
    // `s->hit(3)` of a sphere of radius 4 is 12; `s->radius` is 4.
    let src = format!(
        "{CLASSES}{}",
        r#"
__global__ void k(float* out) {
    sphere* s = new sphere(4.0f);
    out[0] = s->radius;
    out[1] = s->hit(3.0f);
}
launch k { out = zeros(2); expect out == [4, 12]; }
"#
    );
    ok(&src, &[], ONE, ONE);
}

#[test]
fn a_full_heap_gives_null_and_reading_through_it_is_a_null_dereference() {
    // Each thread asks for 3 MiB: the first two of the 8 MiB heap fit (0 and 3 MiB), the third
    // (6 MiB + 3 MiB > 8 MiB) gets null, as CUDA's allocator gives.
    let src = r#"
__global__ void k(int* out) {
    char* p = (char*)malloc(3 << 20);
    out[threadIdx.x] = (p != NULL);
    if (p == NULL && threadIdx.x == 3) out[4] = p[0];
}
launch k { out = zeros(5); expect out == [1, 1, 0, 0, 0]; }
"#;
    let f = err(src, &[], Some(ONE), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::null_pointer"], "{}", describe(&f));
    let ok_src = src.replace("if (p == NULL && threadIdx.x == 3) out[4] = p[0];", "");
    ok(&ok_src, &[], ONE, [4, 1, 1]);
}

#[test]
fn delete_of_something_not_a_pointer_is_refused_where_it_is_written() {
    let src = "__global__ void k(float* p) {\n    float x = p[0];\n    delete x;\n}\nlaunch k { p = zeros(1); }\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::pointer"], "{}", describe(&f));
    // Line 3, column 12: the operand.
    assert_eq!(position(&f), (3, 12));
}

#[test]
fn a_pointer_to_a_class_unrelated_to_the_slots_is_refused_where_it_is_stored() {
    // `d[0]` holds a `hitable*`; `S` does not derive from `hitable`, so C++ has no conversion
    // from `S*` (nvcc: "a value of type S * cannot be assigned to an entity of type hitable *").
    let src = format!(
        "{CLASSES}{}",
        "struct S { float a; };\n__global__ void k(hitable** d) {\n    d[0] = new S{1.0f};\n}\nlaunch k { d = zeros(1); }\n"
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::pointer"], "{}", describe(&f));
    // The value `new S{1.0f}` starts at column 12 (after 4 spaces and `d[0] = `).
    assert_eq!(position(&f), (line_of(&src, "new S"), 12));
}

#[test]
fn a_pointer_to_a_class_derived_through_another_is_stored() {
    // `ball : sphere : hitable`: a `ball*` converts to `hitable*`, two bases up. The heap is
    // array 1 (after `d`), and the ball is its first allocation, at byte 0.
    let src = format!(
        "{CLASSES}{}",
        "class ball : public sphere { public: __device__ ball() : sphere(1.0f) {} };\n__global__ void k(hitable** d) {\n    d[0] = new ball();\n}\nlaunch k { d = zeros(1); expect d == [ADDR]; }\n"
    )
    .replace("ADDR", &address(1, 0).to_string());
    ok(&src, &[], ONE, ONE);
}

#[test]
fn new_used_as_a_number_is_refused_at_the_new() {
    let src = "struct S { float a; };\n__global__ void k(float* p) {\n    p[0] = new S{1.0f};\n}\nlaunch k { p = zeros(1); }\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::not_a_value"], "{}", describe(&f));
    assert_eq!(position(&f), (line_of(src, "new S"), 12));
}

#[test]
fn names_and_strings_that_contain_new_or_delete_are_plain_code() {
    // `new_count`, `renew` and `deleted` are names; "new" in a string is text. The kernel
    // writes 3 + 4 = 7 and prints one line.
    let src = r#"
__device__ int renew(int x) { return x + 4; }
__global__ void k(int* out) {
    int new_count = 3;
    int deleted = renew(new_count);
    printf("new %d\n", deleted);
    out[0] = deleted;
}
launch k { out = zeros(1); expect out == [7]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn a_pointer_to_pointer_parameter_of_a_device_function_passes_the_array_on() {
    // `fill(d, 2)` stores two spheres through a `hitable**` parameter: both slots non-null, the
    // second 16 bytes after the first (`d` is array 0, the heap array 1).
    let src = format!(
        "{CLASSES}{}",
        r#"
__device__ void fill(hitable **l, int n) { for (int i = 0; i < n; i++) l[i] = new sphere(i); }
__global__ void k(hitable **d) { fill(d, 2); }
launch k { d = zeros(2); expect d == [A, B]; }
"#
    )
    .replace("A, B", &format!("{}, {}", address(1, 0), address(1, 16)));
    ok(&src, &[], ONE, ONE);
}

/// ch05's classes with a list whose `hit` sums its members' through `list[i]->hit(t)`.
pub(crate) const LIST: &str = r#"
class hitable {
    public:
        __device__ virtual float hit(float t) const = 0;
};
class sphere : public hitable {
    public:
        __device__ sphere(float r) : radius(r) {}
        __device__ virtual float hit(float t) const { return t * radius; }
        float radius;
};
class hitable_list : public hitable {
    public:
        __device__ hitable_list(hitable **l, int n) { list = l; list_size = n; }
        __device__ virtual float hit(float t) const {
            float s = 0;
            for (int i = 0; i < list_size; i++) s += list[i]->hit(t);
            return s;
        }
        hitable **list;
        int list_size;
};
"#;

#[test]
fn a_virtual_call_through_a_pointer_read_from_memory_runs_the_objects_class() {
    // Thread 0 makes two spheres (radius 0.5 and 2) and a list of them; after the barrier each
    // thread t calls the list's `hit(t)`, which calls each sphere's: t * 0.5 + t * 2 = 2.5 t.
    let src = format!(
        "{LIST}{}",
        r#"
__global__ void k(hitable **d_list, hitable **d_world, float* out) {
    if (threadIdx.x == 0) {
        d_list[0] = new sphere(0.5f);
        d_list[1] = new sphere(2.0f);
        *d_world = new hitable_list(d_list, 2);
    }
    __syncthreads();
    out[threadIdx.x] = (*d_world)->hit(threadIdx.x);
}
launch k { d_list = zeros(2); d_world = zeros(1); out = zeros(4); expect out == [0, 2.5, 5, 7.5]; }
"#
    );
    let c = ok(&src, &[], ONE, [4, 1, 1]).counters;
    // Loads (one warp): `*d_world` and the list's class word (2), its `list` member once, where
    // the call binds it (1), `list_size` at each of the loop's three tests (3), then per sphere
    // `list[i]`, its class word and its radius (3 x 2 = 6): 12.
    assert_eq!(c.gld_instr, 12, "{c:?}");
}

#[test]
fn lanes_on_objects_of_different_classes_take_their_own_branches() {
    // Even threads hold a sphere of radius 3, odd ones a list of two of them: `hit(1)` is 3 or
    // 6. The class test diverges the warp.
    let src = format!(
        "{LIST}{}",
        r#"
__global__ void k(hitable **d_list, float* out) {
    int t = threadIdx.x;
    if (t == 0) {
        d_list[0] = new sphere(3.0f);
        d_list[1] = new sphere(3.0f);
    }
    __syncthreads();
    hitable* h = (t % 2 == 0) ? d_list[0] : new hitable_list(d_list, 2);
    out[t] = h->hit(1.0f);
}
launch k { d_list = zeros(2); out = zeros(4); expect out == [3, 6, 3, 6]; }
"#
    );
    let c = ok(&src, &[], ONE, [4, 1, 1]).counters;
    assert!(c.divergent >= 1, "{c:?}");
}

#[test]
fn a_list_inside_a_list_is_recursion_where_a_thread_reaches_it() {
    // The outer list's `hit` would run `hitable_list::hit` again on the inner list: simt
    // inlines calls, so the branch that would recurse stops the launch when reached.
    let src = format!(
        "{LIST}{}",
        r#"
__global__ void k(hitable **d_list, hitable **d_world, float* out) {
    d_list[0] = new sphere(1.0f);
    d_list[1] = new hitable_list(d_list, 1);
    *d_world = new hitable_list(d_list, 2);
    out[0] = (*d_world)->hit(1.0f);
}
launch k { d_list = zeros(2); d_world = zeros(1); out = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::run::recursion"], "{}", describe(&f));
    assert!(
        describe(&f).contains("`hitable_list::hit`"),
        "{}",
        describe(&f)
    );
    // Without the inner list the same kernel runs: one sphere of radius 1, hit(1) = 1.
    let flat = src
        .replace(
            "d_list[1] = new hitable_list(d_list, 1);",
            "d_list[1] = new sphere(2.0f);",
        )
        .replace("out = zeros(1); }", "out = zeros(1); expect out == [3]; }");
    ok(&flat, &[], ONE, ONE);
}

#[test]
fn a_virtual_call_on_memory_no_new_made_is_a_bad_dynamic_type() {
    // `malloc`'s bytes hold no class word (the heap starts zeroed: 0 names no class).
    let src = format!(
        "{LIST}{}",
        r#"
__global__ void k(float* out) {
    hitable* h = (hitable*)malloc(16);
    out[0] = h->hit(1.0f);
}
launch k { out = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(
        codes(&f),
        ["simt::run::bad_dynamic_type"],
        "{}",
        describe(&f)
    );
    assert_eq!(position(&f).0, line_of(&src, "h->hit"));
}

#[test]
fn placement_new_is_refused_at_its_place() {
    let src = "struct S { float a; };\n__global__ void k(float* p) {\n    S* s = new (p) S{1.0f};\n    p[0] = 1.0f;\n}\nlaunch k { p = zeros(1); }\n";
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
    assert!(describe(&f).contains("placement `new`"), "{}", describe(&f));
    // `    S* s = new ` is 15 characters: `(p)` starts in column 16.
    assert_eq!(position(&f), (3, 16));
}

#[test]
fn a_pointer_to_pointers_indexed_twice_reads_the_pointee() {
    // Sirius's `keys[0][i]` of a `T** keys` (and GPUMPM's `float**` grids): the first index
    // reads a pointer, the second an element of what it points to. It was refused as "a
    // pointer, not a value". Loads (one request and sector each, the 4 lanes' floats in one
    // sector): rows[0] and rows[1] on lines 4-5 (2), then rows[0], rows[0][t], *(rows + 1) and
    // its [t] (4): 6. Stores: thread 0's two slots, the two element stores and out: 5.
    let src = r#"
__global__ void k(float** rows, float* out) {
    if (threadIdx.x == 0) { rows[0] = new float[4]; rows[1] = new float[4]; }
    __syncthreads();
    rows[0][threadIdx.x] = threadIdx.x;
    *(rows[1] + threadIdx.x) = 10 * threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = rows[0][threadIdx.x] + (*(rows + 1))[threadIdx.x];
}
launch k { rows = zeros(2); out = zeros(4); expect out == 11 * arange(4); }
"#;
    let r = ok(src, &[], [1, 1, 1], [4, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (6, 6));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (5, 5));
}

#[test]
fn an_access_past_the_bytes_malloc_was_asked_for_is_out_of_bounds() {
    // malloc(4) reserves a 16-byte granule, but only its 4 bytes are the allocation:
    // compute-sanitizer's memcheck reports buf[4] as 0 bytes after it. A `float4` load at byte
    // 0 of malloc(8) runs past the end; a read after the last of 1000 floats (4000 bytes from
    // heap byte 32, granule 252) is found from the mark at granule 2 + 224; a read inside each
    // passes.
    let case = |body: &str| {
        format!(
            "__global__ void k(float* out) {{\n    char* buf = (char*)malloc(4);\n    float4* v = (float4*)malloc(8);\n    float* big = (float*)malloc(1000 * sizeof(float));\n    big[999] = 2.0f;\n    out[0] = buf[3] + big[999] + v->x * 0.0f;\n    {body}\n}}\nlaunch k {{ out = zeros(1); expect out == [2]; }}\n"
        )
    };
    ok(&case(""), &[], ONE, ONE);
    for (body, message) in [
        (
            "buf[4] = 1;",
            "1 byte(s) at byte 4 of the heap, 0 byte(s) after the end of the 4-byte allocation at heap byte 0",
        ),
        (
            "float4 w = *v; out[0] = w.y;",
            "16 byte(s) at byte 16 of the heap, running past the end of the 8-byte allocation at heap byte 16",
        ),
        (
            "out[0] = big[1001];",
            "4 byte(s) at byte 4036 of the heap, 4 byte(s) after the end of the 4000-byte allocation at heap byte 32",
        ),
    ] {
        let f = err(&case(body), &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::run::out_of_bounds"], "{}", describe(&f));
        assert!(f.errors[0].to_string().contains(message), "{}", describe(&f));
    }
}

#[test]
fn delete_of_a_pointer_inside_a_large_allocation_is_refused() {
    // 640 floats are 160 granules, marked every 32nd: a pointer to p[128] (byte 512, granule
    // 32, a mark) and one to p[8] (granule 2, unmarked) are neither the allocation's start.
    for at in ["128", "8"] {
        let src = format!(
            "__global__ void k(float* out) {{\n    float* p = new float[640];\n    out[0] = 1;\n    delete[] (p + {at});\n}}\nlaunch k {{ out = zeros(1); }}\n"
        );
        let f = err(&src, &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::run::bad_delete"], "{}", describe(&f));
    }
}

#[test]
fn atomics_on_the_heap_are_bounded_and_a_huge_malloc_is_null() {
    // atomicAdd(&p[1], 1) of malloc(4) is 0 bytes after it; atomicAdd after free(p) uses freed
    // memory (memcheck reports both). malloc((size_t)-1) cannot fit: null, so out[0] = 1 (its
    // bytes rounded up wrapped to 0 and it succeeded, then read as freed).
    let case = |body: &str| {
        format!(
            "__global__ void k(int* out) {{\n    int* p = (int*)malloc(4);\n    atomicAdd(&p[0], 1);\n    {body}\n    out[0] = 1;\n}}\nlaunch k {{ out = zeros(1); expect out == [1]; }}\n"
        )
    };
    ok(&case(""), &[], ONE, ONE);
    for (body, code) in [
        ("atomicAdd(&p[1], 1);", "simt::run::out_of_bounds"),
        ("free(p); atomicAdd(&p[0], 1);", "simt::run::use_after_free"),
    ] {
        let f = err(&case(body), &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), [code], "{}", describe(&f));
    }
    let huge = r#"
__global__ void k(int* out, unsigned long long n) {
    char* p = (char*)malloc(n);
    out[0] = p == nullptr;
    if (p) { p[0] = 1; }
}
launch k { out = zeros(1); n = 18446744073709551615; expect out == [1]; }
"#;
    ok(huge, &[], ONE, ONE);
}

#[test]
fn a_local_pointer_to_pointers_holds_an_array_made_by_new() {
    // dlzou/rt-weekend's `hittable **objects = new hittable*[n]; objects[0] = new D(...);`: the
    // local is a pointer to heap words, each a pointer to an object; `const_cast<const B**>`
    // only adds `const`. D(3).get() + D(4).get() = 7, read through both forms.
    let src = r#"
class B {
public:
    __device__ virtual ~B() {}
    __device__ virtual int get() const = 0;
};
class D : public B {
public:
    __device__ D(int a) : a(a) {}
    __device__ int get() const override { return a; }
private:
    int a;
};
__device__ int sum(const B **w, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += w[i]->get();
    return s;
}
__global__ void k(int *out, int n) {
    B **objects = new B*[n];
    objects[0] = new D(3);
    B* *second = objects + 1;
    *second = new D(4);
    out[0] = objects[0]->get() + objects[1]->get();
    out[1] = sum(const_cast<const B **>(objects), 2);
}
launch k { out = zeros(2); n = 2; grid = 1; block = 1; expect out == [7, 7]; }
"#;
    ok(src, &[], ONE, ONE);
}
