//! `printf` in kernels: C's formatting, a deterministic order (blocks, then execution order,
//! lanes in order) for any number of worker threads, the device buffer's 1 MiB bound.

use crate::common;
use common::{codes, err, ok};

const ONE: [u32; 3] = [1, 1, 1];

#[test]
fn lanes_print_in_order_with_c_formats() {
    let src = r#"
__global__ void k(const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 3 == 0) {
        printf("b%d t%02u a=%.2f %s\t|%5d|%-4x|\n", blockIdx.x, threadIdx.x, a[i], "ok", -i, i);
    }
    if (i == 7) printf("100%% \"done\"\n");
}
launch k { a = arange(8); block = 4; grid = 2; }
"#;
    let r = ok(src, &[], [2, 1, 1], [4, 1, 1]);
    assert_eq!(
        r.printf,
        "b0 t00 a=0.00 ok\t|    0|0   |\nb0 t03 a=3.00 ok\t|   -3|3   |\nb1 t02 a=6.00 ok\t|   -6|6   |\n100% \"done\"\n"
    );
    assert!(!r.printf_truncated);
}

#[test]
fn the_order_is_the_same_on_one_worker_and_several() {
    // 2^16 threads: enough for the launch to run on several workers. Every 4096th thread prints;
    // the lines must come in block order whatever the number of threads.
    let src = r#"
__global__ void k(int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 4096 == 0) printf("%d\n", i);
    out[i] = i;
}
"#;
    let want: String = (0..16).map(|k| format!("{}\n", k * 4096)).collect();
    for threads in [1, 3] {
        let r = common::run_threads(
            src,
            &[("out", "zeros(65536)")],
            [256, 1, 1],
            [256, 1, 1],
            threads,
        )
        .unwrap_or_else(|f| panic!("{}", common::describe(&f)));
        assert_eq!(r.printf, want, "threads {threads}");
    }
}

#[test]
fn output_stops_at_the_device_buffer() {
    // 1024 threads × 40 lines × 32 bytes = 1.25 MiB: more than the 1 MiB buffer holds.
    let src = r#"
__global__ void k() {
    for (int j = 0; j < 40; j++) {
        printf("thread %5d line %4d ........\n", threadIdx.x, j);
    }
}
"#;
    let r = ok(src, &[], ONE, [1024, 1, 1]);
    assert!(r.printf_truncated);
    assert!(r.printf.len() <= 1 << 20, "{}", r.printf.len());
    assert!(r.printf.starts_with("thread     0 line    0 ........\n"));
}

#[test]
fn a_conversion_of_the_other_kind_stops_the_launch_where_it_is_reached() {
    // sph's `printf("%d", v)` of a float in a branch no thread takes (nvcc only warns): the
    // kernel runs, and the report notes the call. Reached, `%d` of 1.5f and `%f` of 1 stop
    // the launch.
    let src = r#"
__global__ void k(float* x) {
    float v = x[threadIdx.x];
    if (v != v) printf("d %d\n", v);
    x[threadIdx.x] = v + 1.0f;
}
launch k { x = zeros(32); expect x == 1; }
"#;
    let r = ok(src, &[], ONE, [32, 1, 1]);
    assert!(r.expects_passed());
    let note = r
        .hints
        .iter()
        .find(|h| h.rule == "printf")
        .expect("a printf note");
    assert_eq!(note.line, Some(4), "{}", note.message);
    assert!(note
        .message
        .starts_with("`%d` prints an integer, but this is a `float`"));
    for (call, conv) in [
        ("printf(\"%d\\n\", 1.5f);", "%d"),
        ("printf(\"%f\\n\", 1);", "%f"),
    ] {
        let src = format!("__global__ void k(int* a) {{ {call} }}");
        let f = err(&src, &[("a", "zeros(1)")], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), ["simt::run::printf_argument"], "{call}");
        assert!(
            f.errors[0]
                .to_string()
                .starts_with(&format!("`{conv}` prints")),
            "{call}"
        );
    }
}

#[test]
fn mismatched_formats_are_diagnostics() {
    for (call, code) in [
        ("printf(\"%d %d\\n\", 1);", "simt::check::argument_count"),
        ("printf(\"%q\\n\", 1);", "simt::check::argument_type"),
    ] {
        let src = format!("__global__ void k(int* a) {{ {call} }}");
        let f = err(&src, &[("a", "zeros(1)")], Some(ONE), Some(ONE));
        assert_eq!(codes(&f), [code], "{call}");
    }
}

#[test]
fn adjacent_string_literals_are_one_format() {
    // cuda-samples' simpleCooperativeGroups splits its format over two lines: C joins adjacent
    // literals (translation phase 6), comments between them included.
    let src = r#"
__global__ void k() {
    if (threadIdx.x == 0) printf("sum is %d "
                                 /* expected: */ "(expected %d)\n", 3, 4);
}
launch k { block = 2; grid = 1; }
"#;
    let r = ok(src, &[], ONE, [2, 1, 1]);
    assert_eq!(r.printf, "sum is 3 (expected 4)\n");
}

#[test]
fn file_and_line_macros_name_the_file_and_the_line_of_the_use() {
    // Paddle's PADDLE_ENFORCE prints `__FILE__`, `__LINE__` and the stringified condition of a
    // failed check; `__LINE__` written by a macro is the line where that macro's use begins.
    // The test harness names its source `test.sk`.
    let src = r#"
#define ENFORCE(c, fmt, ...) do { if (!(c)) { printf("%s:%d `%s` " fmt "\n", __FILE__, __LINE__, #c, ##__VA_ARGS__); } } while (0)
__global__ void k(const int* a) {
    ENFORCE(a[threadIdx.x] < 2,
            "got %d", a[threadIdx.x]);
    printf("%d\n", __LINE__);
}
launch k { a = [0, 5]; }
"#;
    // The source's first line is empty: the ENFORCE use starts on line 4, the printf is line 6.
    let r = ok(src, &[], ONE, [2, 1, 1]);
    assert_eq!(r.printf, "test.sk:4 `a[threadIdx.x] < 2` got 5\n6\n6\n");
}

#[test]
fn escaped_bytes_print_as_utf8_where_they_are_and_as_their_character_elsewhere() {
    // "\xc3\xa9" is UTF-8 for é; a lone \xe9 or \351 is no UTF-8, and prints as the character
    // of its value (é, U+00E9), as `%c` of 0xe9 does.
    let src = r#"
__global__ void k() { printf("[%c][\xe9][\351][caf\xc3\xa9]\n", 0xe9); }
launch k { block = 1; grid = 1; }
"#;
    assert_eq!(ok(src, &[], ONE, ONE).printf, "[é][é][é][café]\n");
}

#[test]
fn pointers_print_their_device_address() {
    // `a` is launch array 0, `b` array 1: device addresses 0x7f00_0000_0000 + array * 2^32
    // (docs/heap.md). `a + 3` of an `int*` is 12 bytes on; `b + 1` of a `double*` 8. `%d` of
    // a pointer (nvcc warns) prints the low 32 bits of the address: 12; `%p` of an integer
    // prints it in hex.
    let src = r#"
__global__ void k(int* a, double* b) {
    printf("%p %p %p %d %p\n", a, a + 3, b + 1, a + 3, 255);
}
launch k { a = zeros(4); b = zeros(2); grid = 1; block = 1; }
"#;
    let r = ok(src, &[], ONE, ONE);
    assert_eq!(
        r.printf,
        "0x7f0000000000 0x7f000000000c 0x7f0100000008 12 0xff\n"
    );
}
