//! Small integer and 16-bit float types keep their own type where C++ deduces or measures one:
//! template deduction, `auto`, `decltype` and `sizeof` (the kernels in `tests/small_types/`,
//! whose expected values g++ computed from `small_types.cpp` beside them).

use crate::common;
use common::simt;

/// `simt test` of `tests/small_types/NAME`: every launch section passes, and there are `launches`.
fn passes(name: &str, launches: usize) {
    let path = format!("tests/small_types/{name}");
    let (code, out, err) = simt(&["test", "--jobs", "1", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("ok ").count(), launches, "{out}");
}

#[test]
fn deduction_gives_the_arguments_own_type() {
    passes("deduction.sk", 2);
}

#[test]
fn auto_and_decltype_keep_small_types() {
    passes("autos.sk", 1);
}

#[test]
fn sizeof_of_a_small_member_is_its_own_size() {
    passes("sizes.sk", 1);
}

#[test]
fn overloads_rank_the_arguments_own_type() {
    passes("overloads.sk", 1);
}
