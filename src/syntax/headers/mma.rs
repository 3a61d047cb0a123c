//! simt's `<mma.h>`: the WMMA fragment types of every shape simt runs, written out as explicit specialisations.

use std::sync::OnceLock;

/// The shapes and element types of `wmma::fragment` simt has: `(m, n, k, the input type as
/// written, the input's storage type, the accumulator types)`, from the CUDA C++ Programming
/// Guide's "Element Types and Matrix Sizes" table (sub-byte and `b1` shapes left out).
pub(crate) const SHAPES: &[(u32, u32, u32, &str, &str, &[&str])] = &[
    (16, 16, 16, "half", "half", &["float", "half"]),
    (32, 8, 16, "half", "half", &["float", "half"]),
    (8, 32, 16, "half", "half", &["float", "half"]),
    (16, 16, 16, "__nv_bfloat16", "__nv_bfloat16", &["float"]),
    (32, 8, 16, "__nv_bfloat16", "__nv_bfloat16", &["float"]),
    (8, 32, 16, "__nv_bfloat16", "__nv_bfloat16", &["float"]),
    (16, 16, 16, "signed char", "signed char", &["int"]),
    (32, 8, 16, "signed char", "signed char", &["int"]),
    (8, 32, 16, "signed char", "signed char", &["int"]),
    (16, 16, 16, "unsigned char", "unsigned char", &["int"]),
    (32, 8, 16, "unsigned char", "unsigned char", &["int"]),
    (8, 32, 16, "unsigned char", "unsigned char", &["int"]),
    (16, 16, 8, "precision::tf32", "float", &["float"]),
    (8, 8, 4, "double", "double", &["double"]),
];

/// The header's text, made once.
pub(crate) fn text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(make)
}

fn make() -> String {
    let mut s = String::from(
        "// simt's <mma.h>: the CUDA C++ WMMA API's types, one explicit specialisation of\n\
         // `fragment` per shape, use, element type and layout simt has. A fragment holds `x[]`,\n\
         // the lane's `num_elements` = (rows * columns) / 32 elements of the tile (README: WMMA);\n\
         // the functions are simt built-ins. A header simt reads in place of the real one.\n\
         namespace nvcuda { namespace wmma {\n\
         struct matrix_a {};\nstruct matrix_b {};\nstruct accumulator {};\n\
         struct row_major {};\nstruct col_major {};\n\
         enum layout_t { mem_row_major, mem_col_major };\n\
         namespace precision { struct tf32 {}; }\n\
         template <typename Use, int m, int n, int k, typename T, typename Layout = void> struct fragment;\n",
    );
    let mut accumulators = Vec::new();
    for &(m, n, k, input, stored, accs) in SHAPES {
        for (usage, rows, cols) in [("matrix_a", m, k), ("matrix_b", k, n)] {
            for layout in ["row_major", "col_major"] {
                let e = rows * cols / 32;
                s.push_str(&format!(
                    "template <> struct fragment<{usage}, {m}, {n}, {k}, {input}, {layout}> {{ {stored} x[{e}]; static const int num_elements = {e}; }};\n"
                ));
            }
        }
        for acc in accs.iter() {
            if !accumulators.contains(&(m, n, k, *acc)) {
                accumulators.push((m, n, k, *acc));
                let e = m * n / 32;
                s.push_str(&format!(
                    "template <> struct fragment<accumulator, {m}, {n}, {k}, {acc}> {{ {acc} x[{e}]; static const int num_elements = {e}; }};\n"
                ));
            }
        }
    }
    // `__float_to_tf32`: PTX `cvt.rna.tf32.f32`, to nearest with ties away from zero, kept in a
    // `float` whose 13 low mantissa bits are zero; infinities and NaN pass unchanged.
    s.push_str(
        "__device__ float __float_to_tf32(float in) {\n\
         unsigned int u = __float_as_uint(in);\n\
         if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;\n\
         return __uint_as_float(u);\n}\n",
    );
    s.push_str("} }\n");
    s
}
