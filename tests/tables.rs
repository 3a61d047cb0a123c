//! Tables of a launch's arrays (docs/heap.md, "Tables"): a `T**` parameter bound to
//! `[a, &b[2], NULL]` holds the arrays' addresses, and a pointer read from it points into
//! whichever array its address names.

use crate::common;
use common::{codes, describe, err, ok};

/// Each thread sums its element of every plane, weighted by the plane's place.
const SUM_PLANES: &str = r#"
__global__ void sum_planes(const float* const* planes, int count, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int d = 0; d < count; d++) {
        const float* p = planes[d];
        s += p[i] * (d + 1);
    }
    out[i] = s;
}
"#;

#[test]
fn a_table_of_arrays_points_into_each() {
    // out[i] = a[i] + 2 b[i] + 3 c[10 + i] = i + 2 + 6. n = 100 on 2 blocks of 64: warps 0-2
    // full, warp 3 with lanes 96-99. Loads: per warp and plane one `planes[d]` and one `p[i]`,
    // 4 warps x 3 planes x 2 = 24 requests. Sectors: the table's word, uniform, 1 per request
    // (12); `a` and `b`, 3 warps x 4 + 1 (bytes 384-399) = 13 each; `&c[10]` starts at byte 40,
    // so warps 0-2 span sectors 1-5, 5-9 and 9-13 (5 each) and warp 3 sector 13: 16. 12 + 13
    // + 13 + 16 = 54. Stores: 4 requests, 3 x 4 + 1 = 13 sectors.
    let src = format!(
        "{SUM_PLANES}
launch sum_planes {{
    n = 100; a = arange(n); b = ones(n); c = full(n + 10, 2.0);
    planes = [a, b, &c[10]]; count = 3; out = zeros(n);
    block = 64; grid = cdiv(n, block);
    expect out == arange(n) + 2 + 6;
}}"
    );
    let r = ok(&src, &[], [2, 1, 1], [64, 1, 1]);
    assert_eq!((r.counters.gld_instr, r.counters.gld_sectors), (24, 54));
    assert_eq!((r.counters.gst_instr, r.counters.gst_sectors), (4, 13));
}

#[test]
fn stores_through_a_table_reach_the_arrays_it_names() {
    // `a` is named twice: both entries are the one array (converted to float once), so it is
    // doubled twice; a store through entry 1 reaches `b`, and `c`, which the table does not
    // name, is untouched.
    let src = r#"
__global__ void scale(float** planes, int count, int n, float f) {
    int i = threadIdx.x;
    if (i >= n) return;
    for (int d = 0; d < count; d++) {
        float* p = planes[d] + i;
        *p = *p * f;
    }
}
launch scale {
    n = 40; a = arange(n); b = ones(n); c = ones(n);
    planes = [a, b, a]; count = 3; f = 2;
    expect a == 4 * arange(n);
    expect b == 2;
    expect c == 1;
}
"#;
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
}

#[test]
fn a_template_takes_its_type_from_an_array_of_pointers() {
    // `T** tab` given a `float**` deduces T = float (it was `unsigned long long`, the table's
    // words, which read 8 bytes of each plane), and a template kernel's instance takes its
    // table as a plain kernel does. The same for a heap pointer stored by the kernel.
    let src = r#"
template <typename T>
__device__ T get(T** tab, int d, int i) { return tab[d][i]; }
template <typename T>
__global__ void scale(T** planes, int count, int n, T f) {
    int i = threadIdx.x;
    if (i >= n) return;
    for (int d = 0; d < count; d++) {
        T* p = planes[d] + i;
        *p = get(planes, d, i) * f;
    }
}
launch scale<float> {
    n = 40; a = arange(n); b = ones(n); planes = [a, b]; count = 2; f = 3;
    expect a == 3 * arange(n);
    expect b == 3;
}
"#;
    ok(src, &[], [1, 1, 1], [64, 1, 1]);
    let heap = r#"
template <typename T>
__device__ T get(T** tab, int d) { return tab[d][0]; }
__global__ void k(int** p, int* out) {
    int t = threadIdx.x;
    p[t] = new int(3 * t);
    out[t] = get(p, t) + 1;
}
launch k { p = zeros(4); out = zeros(4); expect out == 3 * arange(4) + 1; }
"#;
    ok(heap, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_null_entry_is_a_null_pointer_where_it_is_read() {
    let case = |entries: &str, count: u32| {
        format!(
            "{SUM_PLANES}
launch sum_planes {{ n = 32; a = ones(n); planes = [{entries}]; count = {count}; out = zeros(n); expect out == 1; }}"
        )
    };
    // Entries past `count` are never read.
    ok(&case("a, NULL", 1), &[], [1, 1, 1], [32, 1, 1]);
    ok(&case("a, 0", 1), &[], [1, 1, 1], [32, 1, 1]);
    for entries in ["a, NULL", "a, nullptr", "a, 0"] {
        let f = err(&case(entries, 2), &[], Some([1, 1, 1]), Some([32, 1, 1]));
        assert_eq!(
            codes(&f),
            ["simt::run::null_pointer"],
            "{entries}: {}",
            describe(&f)
        );
    }
}

#[test]
fn a_table_holds_arrays_and_no_other_value() {
    let case = |entries: &str| {
        format!(
            "{SUM_PLANES}
launch sum_planes {{ n = 32; a = ones(n); planes = [{entries}]; count = 1; out = zeros(n); }}"
        )
    };
    let f = err(&case("a, 5"), &[], Some([1, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::host::bad_value"]);
    assert!(
        describe(&f).contains("a table of pointers holds arrays, `&a[i]` and NULL, found a number"),
        "{}",
        describe(&f)
    );
    // The kernel has a parameter for each entry of the longest table the file gives: a longer
    // one from the command line has no place.
    let f = err(
        &case("a, a"),
        &[("planes", "[a, a, a]")],
        Some([1, 1, 1]),
        Some([32, 1, 1]),
    );
    use miette::Diagnostic;
    let help = f.errors[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(
        describe(&f).contains("`planes` is given a table of 3 arrays")
            && help.contains("tables of at most 2 arrays"),
        "{}: {help}",
        describe(&f)
    );
    // An entry's array must have a name for reports and expects to use.
    let f = err(&case("a, ones(8)"), &[], Some([1, 1, 1]), Some([32, 1, 1]));
    assert!(
        describe(&f).contains("a table's array has no name"),
        "{}",
        describe(&f)
    );
    // A table of nulls only is null pointers, which the kernel reads as such.
    let nulls = format!(
        "{SUM_PLANES}
launch sum_planes {{ n = 32; planes = [NULL, nullptr]; count = 1; out = zeros(n); }}"
    );
    let f = err(&nulls, &[], Some([1, 1, 1]), Some([32, 1, 1]));
    assert_eq!(codes(&f), ["simt::run::null_pointer"], "{}", describe(&f));
    // A table for a parameter that holds no pointers.
    let src = "__global__ void k(float* x) { x[0] = 1; }\nlaunch k { a = ones(2); x = [a, a]; }";
    let f = err(src, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert!(
        describe(&f).contains("`x` is `float*` but was given a table of arrays"),
        "{}",
        describe(&f)
    );
}

#[test]
fn a_table_refuses_what_it_cannot_hold_faithfully() {
    // An array in a `float**` table also bound to `int* x`: one array cannot be both (the two
    // got separate copies, and the table's stores were lost, silently).
    let share = r#"
__global__ void k(int* x, float** planes, float* out) {
    int i = threadIdx.x;
    planes[0][i] = 5.0f;
    out[i] = x[i];
}
launch k { a = arange(8); planes = [a]; x = a; out = zeros(8); }
"#;
    let f = err(share, &[], Some([1, 1, 1]), Some([8, 1, 1]));
    assert!(
        describe(&f).contains("entry 0 of `planes`, `a`, points to `float` but `a` holds `int`"),
        "{}",
        describe(&f)
    );
    // A table set at a sequence's level: the kernel has no entries for it (every entry read
    // as NULL, silently).
    let sequence = format!(
        "{SUM_PLANES}
sequence {{
    n = 8; a = arange(n); b = ones(n); out = zeros(n); count = 2;
    planes = [a, b];
    launch sum_planes {{ block = 8; grid = 1; }}
}}"
    );
    let Err(f) = simt::pipeline::run_sequence(
        &simt::source::SourceFile::new("sequence.sk", &sequence),
        &simt::pipeline::RunOptions::default(),
        0,
    ) else {
        panic!("a table set at a sequence's level is refused");
    };
    assert!(
        describe(&f).contains("`planes` is given a table of 2 arrays but takes at most 0"),
        "{}",
        describe(&f)
    );
    // Pointers to structs: a struct's array is bytes to the launch section, which a table
    // entry would convert number by number.
    let structs = r#"
struct Q { int x; int y; };
__global__ void k(Q** planes, int* out) { out[0] = planes[0][0].x; }
launch k { a = full(16, 1); planes = [a]; out = zeros(1); block = 1; grid = 1; }
"#;
    let f = err(structs, &[], Some([1, 1, 1]), Some([1, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(
        describe(&f).contains("a table of pointers to `Q`"),
        "{}",
        describe(&f)
    );
}

#[test]
fn a_template_takes_its_type_from_a_moved_array_of_pointers() {
    // `get(planes + 1, ...)`, `&planes[1]`, `1 + planes`, a choice and `&*(planes + 1)` deduce
    // T = float as `get(planes, ...)` does (they took the words' type): out = 5 x 2.5.
    let src = r#"
template <typename T>
__device__ T get(T** tab, int d, int i) { return tab[d][i]; }
__global__ void k(float** planes, float* out) {
    int i = threadIdx.x;
    out[i] = get(planes + 1, 0, i) + get(&planes[1], 0, i) + get(1 + planes, 0, i)
        + get(i < 9 ? planes + 1 : planes, 0, i) + get(&*(planes + 1), 0, i);
}
launch k { a = ones(4); b = full(4, 2.5); planes = [a, b]; out = zeros(4); expect out == 12.5; }
"#;
    ok(src, &[], [1, 1, 1], [4, 1, 1]);
}

#[test]
fn a_pointer_read_from_a_table_is_not_stored_back() {
    // `planes[0] = planes[1] + 2` stores a pointer that may point into either entry: refused
    // at the store, saying why (it named an internal "one of several arrays" as an array).
    let src = r#"
__global__ void k(float** planes, float* out) {
    if (threadIdx.x == 0) planes[0] = planes[1] + 2;
    out[threadIdx.x] = planes[0][threadIdx.x];
}
launch k { a = ones(8); b = ones(8); planes = [a, b]; out = zeros(4); }
"#;
    let f = err(src, &[], Some([1, 1, 1]), Some([4, 1, 1]));
    assert_eq!(codes(&f), ["simt::check::unsupported"]);
    assert!(
        describe(&f).contains(
            "a pointer that may point into one of several arrays (read from a table of arrays"
        ),
        "{}",
        describe(&f)
    );
}
