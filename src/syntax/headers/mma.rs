//! simt's `<mma.h>`: the WMMA fragment types of every shape simt runs, written out as explicit specialisations.

use std::sync::OnceLock;

/// One shape and input type of `wmma::fragment`.
struct Shape {
    /// `(m, n, k)`.
    mnk: (u32, u32, u32),
    /// The input type as written in the template arguments.
    input: &'static str,
    /// The type its elements are stored as.
    stored: &'static str,
    /// The accumulator types it multiplies into.
    accumulators: &'static [&'static str],
}

/// The shapes and element types of `wmma::fragment` simt has, from the CUDA C++ Programming
/// Guide's "Element Types and Matrix Sizes" table (sub-byte and `b1` shapes left out).
const SHAPES: &[Shape] = &[
    Shape {
        mnk: (16, 16, 16),
        input: "half",
        stored: "half",
        accumulators: &["float", "half"],
    },
    Shape {
        mnk: (32, 8, 16),
        input: "half",
        stored: "half",
        accumulators: &["float", "half"],
    },
    Shape {
        mnk: (8, 32, 16),
        input: "half",
        stored: "half",
        accumulators: &["float", "half"],
    },
    Shape {
        mnk: (16, 16, 16),
        input: "__nv_bfloat16",
        stored: "__nv_bfloat16",
        accumulators: &["float"],
    },
    Shape {
        mnk: (32, 8, 16),
        input: "__nv_bfloat16",
        stored: "__nv_bfloat16",
        accumulators: &["float"],
    },
    Shape {
        mnk: (8, 32, 16),
        input: "__nv_bfloat16",
        stored: "__nv_bfloat16",
        accumulators: &["float"],
    },
    Shape {
        mnk: (16, 16, 16),
        input: "signed char",
        stored: "signed char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (32, 8, 16),
        input: "signed char",
        stored: "signed char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (8, 32, 16),
        input: "signed char",
        stored: "signed char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (16, 16, 16),
        input: "unsigned char",
        stored: "unsigned char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (32, 8, 16),
        input: "unsigned char",
        stored: "unsigned char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (8, 32, 16),
        input: "unsigned char",
        stored: "unsigned char",
        accumulators: &["int"],
    },
    Shape {
        mnk: (16, 16, 8),
        input: "precision::tf32",
        stored: "float",
        accumulators: &["float"],
    },
    Shape {
        mnk: (8, 8, 4),
        input: "double",
        stored: "double",
        accumulators: &["double"],
    },
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
    for shape in SHAPES {
        let ((m, n, k), input, stored) = (shape.mnk, shape.input, shape.stored);
        for (usage, rows, cols) in [("matrix_a", m, k), ("matrix_b", k, n)] {
            for layout in ["row_major", "col_major"] {
                let e = rows * cols / 32;
                s.push_str(&format!(
                    "template <> struct fragment<{usage}, {m}, {n}, {k}, {input}, {layout}> {{ {stored} x[{e}]; static const int num_elements = {e}; }};\n"
                ));
            }
        }
        for acc in shape.accumulators {
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
