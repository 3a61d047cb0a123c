//! The compiled-instruction estimate (`src/ir/fold.rs`): the warp instructions the refined time
//! model issues, after what `nvcc` folds away. Every launch here is one warp (one block of 32
//! threads), so each count is per warp; expected values are derived by hand in the comments,
//! mostly as the difference between two kernels that differ in one thing.

use crate::common;

/// `(warp_instr, compiled_warp_instr)` of `src` on one warp, with `--arg`s.
fn counts(src: &str, args: &[(&str, &str)]) -> (u64, u64) {
    let report = common::run(src, args, Some([1, 1, 1]), Some([32, 1, 1])).expect("runs");
    let refined = report.refined.as_ref().expect("a refined estimate");
    (report.counters.warp_instr, refined.compiled_warp_instr)
}

#[test]
fn an_unrolled_loop_issues_its_body_only() {
    // Four more iterations of `s += a[i * 32 + t]` add, once compiled, 4 × (one load + one add)
    // = 8 warp instructions: the test, the branch, `i++` and the index arithmetic are gone (the
    // index is `t` plus a constant offset per unrolled iteration).
    let body = "s += a[i * 32 + t];";
    let (_, four) = counts(&common::sum_loop("4", 8, body), &[]);
    let (_, eight) = counts(&common::sum_loop("8", 8, body), &[]);
    assert_eq!(eight - four, 8);
}

#[test]
fn a_loop_bounded_by_a_parameter_keeps_its_control() {
    // With `i < n` nvcc cannot unroll completely: every source instruction of an iteration
    // issues, so four more iterations add the same to both counts.
    let body = "s += a[i * 32 + t];";
    let (src4, compiled4) = counts(&common::sum_loop("n", 8, body), &[("n", "4")]);
    let (src8, compiled8) = counts(&common::sum_loop("n", 8, body), &[("n", "8")]);
    assert_eq!(compiled8 - compiled4, src8 - src4);
    // And more than the unrolled loop's 2 per iteration: at least the load, the add, the
    // compare, the branch and `i++`.
    assert!(compiled8 - compiled4 >= 4 * 5, "{compiled4} {compiled8}");
}

#[test]
fn invariant_arithmetic_is_hoisted_out_of_an_unrolled_loop() {
    // `t * 2 + n` does not change in the loop: computed once before it, the index of each
    // unrolled load is that value plus a constant, so 8 iterations issue 8 loads and 8 adds as
    // with `a[i * 32 + t]` (the once-only hoisted multiply-add is not counted).
    let (_, plain) = counts(&common::sum_loop("8", 8, "s += a[i * 32 + t];"), &[]);
    let (_, hoisted) = counts(
        &common::sum_loop("8", 8, "s += a[i * 32 + t * 2 + n];"),
        &[],
    );
    assert_eq!(hoisted, plain);
}

#[test]
fn a_hoisted_value_times_the_induction_variable_costs_its_multiply() {
    // In `a[i * t]` each unrolled copy multiplies the hoisted `t` by its own constant: one
    // instruction per copy, so 8 iterations issue 8 more than `a[i * 32 + t]`, whose index is
    // the hoisted `t` plus an immediate.
    let (_, offset) = counts(&common::sum_loop("8", 8, "s += a[i * 32 + t];"), &[]);
    let (_, product) = counts(&common::sum_loop("8", 8, "s += a[i * t];"), &[]);
    assert_eq!(product - offset, 8);
}

#[test]
fn a_branch_on_the_induction_variable_is_resolved_at_compile_time() {
    // `i % 2 == 0` is a constant in each unrolled copy: of 8 iterations, the 4 even ones keep
    // their load and add (8 instructions) and the branch itself disappears; `s += a[...]`
    // unconditionally in 8 iterations is 16.
    let (_, all) = counts(&common::sum_loop("8", 8, "s += a[i * 32 + t];"), &[]);
    let (_, even) = counts(
        &common::sum_loop("8", 8, "if (i % 2 == 0) { s += a[i * 32 + t]; }"),
        &[],
    );
    assert_eq!(all - even, 8);
}

fn elementwise(expr: &str) -> String {
    format!(
        "__global__ void k(const float* a, const float* b, const float* c, float* out) {{
            int t = threadIdx.x;
            out[t] = {expr};
        }}
        launch k {{
            a = arange(32);
            b = ones(32);
            c = ones(32);
            out = zeros(32);
            grid = 1;
            block = 32;
        }}"
    )
}

#[test]
fn a_multiply_feeding_an_add_is_one_fma() {
    // `a * b + c` against `a + c`: one more load (b); the multiply and the add are one FFMA.
    let (_, add) = counts(&elementwise("a[t] + c[t]"), &[]);
    let (src_fma, fma) = counts(&elementwise("a[t] * b[t] + c[t]"), &[]);
    assert_eq!(fma - add, 1);
    // The counter still counts the source's multiply and add: one more than compiled.
    assert_eq!(src_fma - fma, 1);
    // `a * b * c` has no add to contract with: two multiplies, one more than `a * b + c`.
    let (_, muls) = counts(&elementwise("a[t] * b[t] * c[t]"), &[]);
    assert_eq!(muls - fma, 1);
}

#[test]
fn register_arrays_cost_no_instructions() {
    // `acc[4]` is indexed by constants once the loop is unrolled, so it lives in registers:
    // per iteration a load and an FFMA (`acc[i] += x * 2` contracts), 4 × 2 = 8; after the
    // loop three adds and the store, 4. The initialiser's four register writes cost nothing.
    let src = "__global__ void k(float* out) {
            float acc[4] = {0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                acc[i] += out[threadIdx.x * 4 + i] * 2.0f;
            }
            out[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
        }
        launch k { out = arange(128); grid = 1; block = 32; }";
    let (source, compiled) = counts(src, &[]);
    assert_eq!(compiled, 12);
    assert!(source > compiled, "{source}");
}

#[test]
fn a_long_chain_of_constants_is_folded_once() {
    // `a1 = a0 + a0`, `a2 = a1 + a1`, … 48 deep: each is a constant, so the chain costs no
    // instruction once compiled, and asking whether `a48` is one walks each definition once
    // (without remembering the answers the walk doubles at every link: 2^48 steps). 2^48 wraps
    // to 0 in 32 bits; the store is the one instruction the kernel issues.
    let mut body = String::from("unsigned a0 = 1u;\n");
    for i in 1..=48 {
        body.push_str(&format!("unsigned a{i} = a{} + a{};\n", i - 1, i - 1));
    }
    let src = format!(
        "__global__ void k(unsigned* out) {{
            {body}
            out[threadIdx.x] = a48;
        }}
        launch k {{ out = ones(32); grid = 1; block = 32; expect out == 0; }}"
    );
    let (_, compiled) = counts(&src, &[]);
    assert_eq!(compiled, 1);
}

/// One warp computing `out[t] = EXPR` from `a = arange(32)` and `n = 7`.
fn integer_op(expr: &str) -> String {
    format!(
        "__global__ void k(const int* a, int* out, int n) {{
            int t = threadIdx.x;
            out[t] = {expr};
        }}
        launch k {{
            n = 7;
            a = arange(32);
            out = zeros(32);
            grid = 1;
            block = 32;
        }}"
    )
}

#[test]
fn an_integer_division_by_a_run_time_value_issues_its_sequence() {
    // `a[t] % n` and `a[t] + n` are the same source instructions; compiled, the modulo by a
    // parameter is the guide's 20-instruction sequence (docs/gpu-facts.md §6.5): 19 more issue
    // slots for the one warp. `/` costs the same.
    let (src_add, add) = counts(&integer_op("a[t] + n"), &[]);
    let (src_rem, rem) = counts(&integer_op("a[t] % n"), &[]);
    let (src_div, div) = counts(&integer_op("a[t] / n"), &[]);
    assert_eq!((src_rem, src_div), (src_add, src_add));
    assert_eq!((rem - add, div - add), (19, 19));
    // By `blockDim.x`, a special register, too: nvcc cannot know it.
    let (_, by_dim) = counts(&integer_op("a[t] % (int)blockDim.x"), &[]);
    let (_, dim_add) = counts(&integer_op("a[t] + (int)blockDim.x"), &[]);
    assert_eq!(by_dim - dim_add, 19);
}

#[test]
fn an_integer_division_by_a_compile_time_constant_is_one_instruction() {
    // A literal power of two is a mask or a shift, another literal a multiply-high: one slot,
    // as the addition it replaces.
    let (_, add) = counts(&integer_op("a[t] + 8"), &[]);
    assert_eq!(counts(&integer_op("a[t] % 8"), &[]).1, add);
    assert_eq!(counts(&integer_op("a[t] / 7"), &[]).1, add);
    // So is a divisor that is a constant once the loop is unrolled: each of the four copies of
    // `a[t] / (i + 1)` divides by its own literal.
    let unrolled = |op: &str| {
        common::sum_loop(
            "4",
            8,
            &format!("s += (float)(__float_as_int(a[t]) {op} (i + 1));"),
        )
    };
    assert_eq!(counts(&unrolled("/"), &[]).1, counts(&unrolled("+"), &[]).1);
    // The same loop bounded by `n` is not unrolled: `i + 1` is a run-time value, and each of
    // the four divisions issues 19 more slots than the addition.
    let rolled = |op: &str| {
        common::sum_loop(
            "n",
            8,
            &format!("s += (float)(__float_as_int(a[t]) {op} (i + 1));"),
        )
    };
    let n4 = [("n", "4")];
    assert_eq!(
        counts(&rolled("/"), &n4).1 - counts(&rolled("+"), &n4).1,
        4 * 19
    );
}

#[test]
fn a_float_division_is_not_an_integer_sequence() {
    // `/` on floats is the special-function pipe's (one instruction in the issue count), not the
    // integer sequence: the same compiled count as a float addition.
    let (_, add) = counts(&integer_op("(int)((float)a[t] + (float)n)"), &[]);
    let (_, div) = counts(&integer_op("(int)((float)a[t] / (float)n)"), &[]);
    assert_eq!(div, add);
}
