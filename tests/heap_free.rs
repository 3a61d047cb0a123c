//! `delete`, `delete[]` and `free` checked against the heap's allocation record (docs/heap.md):
//! a second free or a free of a pointer `new` did not return is `simt::run::bad_delete`, a load
//! or store of freed memory `simt::run::use_after_free`, and the record is no memory traffic.

use crate::common;
use common::{codes, describe, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

/// The line of `needle` in `src`, from 1.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .expect("the needle is in the source")
        + 1
}

/// The one error of `src` run on one thread: its code, its message and its line.
fn one_error(src: &str) -> (String, String, usize) {
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(f.errors.len(), 1, "{}", describe(&f));
    (codes(&f)[0].clone(), describe(&f), position(&f).0)
}

#[test]
fn each_allocation_is_freed_once_through_the_pointer_new_returned() {
    // Every way to free, each once, and `delete` of null (nothing to do, as in C++): no error.
    // Freed memory is never reused: `P` (8 bytes) is reserved as 16 at byte 0, `a` 16 at 16,
    // `c` 48 (40 rounded up to 16) at 32, so `b` comes at 80: `b - a` is (80 - 16) / 4 = 16.
    let src = r#"
struct P { float x; int n; };
__global__ void k(float* out) {
    P* p = new P{1.5f, 2};
    float* a = new float[4];
    char* c = (char*)malloc(40);
    out[0] = p->x + p->n;
    delete p;
    delete[] a;
    free(c);
    float* b = new float;
    out[1] = b - a;
    float* none = nullptr;
    delete none;
    delete b;
}
launch k { out = zeros(2); expect out == [3.5, 16]; }
"#;
    ok(src, &[], ONE, ONE);
}

#[test]
fn deleting_twice_is_a_bad_delete_at_the_second() {
    let src = r#"
__global__ void k(float* out) {
    float* a = new float[4];
    out[0] = 1.0f;
    delete[] a;
    delete[] a; // again
}
launch k { out = zeros(1); }
"#;
    let (code, text, line) = one_error(src);
    assert_eq!(code, "simt::run::bad_delete", "{text}");
    assert!(text.contains("freed before"), "{text}");
    assert_eq!(line, line_of(src, "// again"));
}

#[test]
fn freeing_inside_an_allocation_is_a_bad_delete() {
    // `a + 1` is byte 4 of the heap: not on a 16-byte granule. `a + 4` is byte 16, a granule
    // inside `a`'s 32 bytes, not the first of an allocation. Both are `not the start`.
    for inner in ["a + 1", "a + 4"] {
        let src = format!(
            "__global__ void k(float* out) {{\n    float* a = new float[8];\n    out[0] = 1.0f;\n    delete[] ({inner});\n}}\nlaunch k {{ out = zeros(1); }}\n"
        );
        let (code, text, line) = one_error(&src);
        assert_eq!(code, "simt::run::bad_delete", "{inner}: {text}");
        assert!(text.contains("not the start"), "{inner}: {text}");
        assert_eq!(line, 4, "{inner}");
    }
}

#[test]
fn freeing_a_launch_array_or_a_local_array_is_a_bad_delete() {
    let array = "__global__ void k(float* out) {\n    out[0] = 1.0f;\n    free(out);\n}\nlaunch k { out = zeros(1); }\n";
    let (code, text, line) = one_error(array);
    assert_eq!(
        (code.as_str(), line),
        ("simt::run::bad_delete", 3),
        "{text}"
    );
    assert!(text.contains("`free`"), "{text}");
    let local = "__global__ void k(float* out) {\n    float v[2];\n    v[0] = 1.0f;\n    out[0] = v[0];\n    delete[] v;\n}\nlaunch k { out = zeros(1); }\n";
    let (code, text, line) = one_error(local);
    assert_eq!(
        (code.as_str(), line),
        ("simt::run::bad_delete", 5),
        "{text}"
    );
}

#[test]
fn a_load_or_a_store_of_freed_memory_is_a_use_after_free() {
    // A member of a freed object (its first granule), an element deep inside a freed array
    // (`f[10]` is byte 40, the array's third granule), and a store: each at its line.
    let cases = [
        (
            "struct P { float x; int n; };\n__global__ void k(float* out) {\n    P* p = new P{1.0f, 2};\n    delete p;\n    out[0] = p->n;\n}\nlaunch k { out = zeros(1); }\n",
            "load",
            5,
            4,
        ),
        (
            "__global__ void k(float* out) {\n    float* f = new float[16];\n    f[10] = 3.0f;\n    delete[] f;\n    out[0] = f[10];\n}\nlaunch k { out = zeros(1); }\n",
            "load",
            5,
            40,
        ),
        (
            "__global__ void k(float* out) {\n    int* q = (int*)malloc(64);\n    free(q);\n    q[15] = 1;\n    out[0] = 1.0f;\n}\nlaunch k { out = zeros(1); }\n",
            "store",
            4,
            60,
        ),
    ];
    for (src, access, line, byte) in cases {
        let (code, text, at) = one_error(src);
        assert_eq!(code, "simt::run::use_after_free", "{text}");
        assert!(text.contains(&format!("a {access} ")), "{text}");
        assert!(text.contains(&format!("byte {byte} ")), "{text}");
        assert_eq!(at, line, "{text}");
    }
}

#[test]
fn a_virtual_call_on_a_freed_object_is_a_use_after_free_of_its_class_word() {
    let src = format!(
        "{}{}",
        crate::heap::LIST,
        r#"
__global__ void k(float* out) {
    hitable* h = new sphere(2.0f);
    delete h;
    out[0] = h->hit(1.0f);
}
launch k { out = zeros(1); }
"#
    );
    let (code, text, line) = one_error(&src);
    assert_eq!(code, "simt::run::use_after_free", "{text}");
    assert_eq!(line, line_of(&src, "h->hit"));
}

#[test]
fn the_allocation_record_is_no_memory_traffic() {
    // One thread: `new` writes the record once, `delete` reads it once and writes it twice (a
    // 32-byte array: its second granule, then its first). None of that is counted: only
    // `f[0] = 1` (a heap store) and `out[0] = f[0]` (a heap load, a launch-array store) are,
    // and the allocator's `atomicAdd` (one atomic).
    let src = r#"
__global__ void k(float* out) {
    float* f = new float[8];
    f[0] = 1.0f;
    out[0] = f[0];
    delete[] f;
}
launch k { out = zeros(1); expect out == 1; }
"#;
    let r = ok(src, &[], ONE, ONE);
    let c = &r.counters;
    assert_eq!((c.gld_instr, c.gst_instr, c.gatom_instr), (1, 2, 1));
}
