//! Device heap memory and pointers stored in memory, which simt does not have yet: `new`,
//! `delete` and a `T**` parameter are each refused once, where they are written, and what
//! follows them is not reported again (docs/heap.md says what supporting them will take).

use crate::common;
use common::{codes, describe, err, ok, position};

const ONE: [u32; 3] = [1, 1, 1];

/// `hitable`/`sphere` as "Ray Tracing in One Weekend in CUDA" (ch05) declares them, cut down.
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
"#;

/// The line of `needle` in `src`, from 1.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .expect("the needle is in the source")
        + 1
}

#[test]
fn device_new_is_refused_once_where_it_is_written() {
    let src = format!(
        "{CLASSES}{}",
        r#"
__global__ void k(float* out) {
    hitable* h = new sphere(0.5f);
    out[0] = h->hit(2.0f);
}
launch k { out = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    // One diagnostic: the use of `h` on the next line would only repeat it.
    assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
    assert!(
        describe(&f).contains("`new` in device code"),
        "{}",
        describe(&f)
    );
    // The statement starts in column 5, after four spaces.
    assert_eq!(position(&f), (line_of(&src, "new sphere"), 5));
}

#[test]
fn device_delete_is_refused_where_it_is_written() {
    for stmt in ["delete p;", "delete[] p;", "delete *(q + 1);"] {
        let src = format!(
            "__global__ void k(float* p, float* q) {{\n    p[0] = 1.0f;\n    {stmt}\n}}\nlaunch k {{ p = zeros(1); q = zeros(2); }}\n"
        );
        let f = err(&src, &[], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
        assert!(
            describe(&f).contains("`delete` in device code"),
            "{}",
            describe(&f)
        );
        // Line 3, column 5.
        assert_eq!(position(&f), (3, 5), "{stmt}");
    }
}

#[test]
fn a_pointer_to_pointer_kernel_parameter_is_refused_at_its_name_and_the_body_is_not_checked() {
    let src = format!(
        "{CLASSES}{}",
        r#"
__global__ void create_world(hitable **d_list, hitable **d_world) {
    *(d_list) = new sphere(0.5f);
    *d_world = *d_list;
}
launch create_world { d_list = zeros(2); d_world = zeros(1); }
"#
    );
    let f = err(&src, &[], Some(ONE), Some(ONE));
    // One diagnostic per `T**` parameter, nothing about the body that uses them.
    assert_eq!(
        codes(&f),
        ["simt::check::unsupported", "simt::check::unsupported"],
        "{}",
        describe(&f)
    );
    let text = describe(&f);
    assert!(text.contains("the parameter `hitable** d_list`, a pointer to a pointer"));
    assert!(text.contains("the parameter `hitable** d_world`, a pointer to a pointer"));
    // `__global__ void create_world(` is 29 characters and `hitable **` 10 more: `d_list`
    // starts in column 40.
    assert_eq!(
        position(&f),
        (line_of(&src, "__global__ void create_world"), 40)
    );
}

#[test]
fn a_pointer_to_pointer_parameter_of_a_device_function_is_refused_at_its_name() {
    let src = format!(
        "{CLASSES}{}",
        r#"
__device__ float color(float t, hitable **world) { return (*world)->hit(t); }
__global__ void k(float* out) { out[0] = color(1.0f, nullptr); }
launch k { out = zeros(1); }
"#
    );
    // The kernel calls it, so the function is checked with its parameters as written.
    let f = err(&src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
    // `__device__ float color(float t, hitable **` is 42 characters: `world` is at 43.
    assert_eq!(position(&f), (line_of(&src, "float color"), 43));
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
fn a_member_call_through_a_pointer_read_from_memory_is_refused_at_the_member() {
    // ch05's `hitable_list::hit` calls `list[i]->hit(...)` on a `hitable*` read from its
    // `hitable** list` member.
    let src = r#"
class hitable {
    public:
        __device__ virtual float hit(float t) const = 0;
};
class hitable_list : public hitable {
    public:
        __device__ virtual float hit(float t) const { return list[0]->hit(t); }
        hitable **list;
};
__global__ void k(float* out) {
    hitable_list l;
    out[0] = l.hit(1.0f);
}
launch k { out = zeros(1); }
"#;
    let f = err(src, &[], Some(ONE), Some(ONE));
    assert_eq!(codes(&f), ["simt::check::unsupported"], "{}", describe(&f));
    assert!(describe(&f).contains("through a pointer read from memory"));
    // `        __device__ virtual float hit(float t) const { return list[0]->` is 70
    // characters: `hit` is at column 71.
    assert_eq!(position(&f), (line_of(src, "list[0]->hit"), 71));
}
