//! Inline PTX `mma.sync.aligned.m16n8k{16,8}.row.col`: each lane builds its fragments by the
//! PTX ISA's layout (9.7.14.5.8), and the products are derived by hand.

use crate::common::ok;

/// `[f(0), ..., f(n - 1)]` in the launch language.
fn list(n: u32, f: impl Fn(u32) -> u32) -> String {
    let v: Vec<String> = (0..n).map(|x| f(x).to_string()).collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn m16n8k16_multiplies_the_fragments_the_ptx_isa_lays_out() {
    // A[i][k] = 16i + k (exact in half), B[k][j] = 1 where k % 8 = j, so D = A·B + C adds
    // A's columns j and j + 8: D[i][j] = 32i + 2j + 8, plus C. Lane l (g = l / 4,
    // t = l % 4) holds A in 4 registers, register r the halves of row g + 8(r % 2), columns
    // 2t + 8(r / 2) and the next; B in 2, register r rows 2t + 8r and 2t + 8r + 1 of column g;
    // C and D as element i = row g + 8(i / 2), column 2t + i % 2. f32 accumulation from C = 0
    // gives out[8i + j] = 32i + 2j + 8; packed f16 accumulation from C = 1 gives one more.
    let src = r#"
__global__ void k(float* out, float* outh) {
    unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned a[4], b[2];
    for (int r = 0; r < 4; ++r) {
        unsigned row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
        unsigned lo = __half_as_ushort(__float2half((float)(row * 16 + col)));
        unsigned hi = __half_as_ushort(__float2half((float)(row * 16 + col + 1)));
        a[r] = lo | (hi << 16);
    }
    for (int r = 0; r < 2; ++r) {
        unsigned k0 = 2 * t + 8 * r;
        b[r] = (k0 % 8 == g ? 0x3c00u : 0u) | ((k0 + 1) % 8 == g ? 0x3c00u << 16 : 0u);
    }
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
    for (int i = 0; i < 4; ++i) out[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
    unsigned h[2] = {0x3c003c00u, 0x3c003c00u};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"
                 : "=r"(h[0]), "=r"(h[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "r"(h[0]), "r"(h[1]));
    for (int i = 0; i < 4; ++i) {
        unsigned short bits = (unsigned short)(h[i / 2] >> (16 * (i % 2)));
        outh[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = __half2float(__ushort_as_half(bits));
    }
}
"#;
    let launch = format!(
        "launch k {{ out = zeros(128); outh = zeros(128); expect out == {}; expect outh == {}; }}\n",
        list(128, |x| 32 * (x / 8) + 2 * (x % 8) + 8),
        list(128, |x| 32 * (x / 8) + 2 * (x % 8) + 9),
    );
    let r = ok(&format!("{src}{launch}"), &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
    // Two warp-wide matrix instructions.
    assert_eq!(r.counters.tensor_instr, 2);
}

#[test]
fn m16n8k8_takes_tf32_one_element_a_register() {
    // tf32: A[i][k] = 8i + k in 4 registers, register r row g + 8(r % 2), column t + 4(r / 2);
    // B = the 8 × 8 identity in 2, register r row t + 4r of column g. D = A: out[8i + j] = 8i + j.
    let src = r#"
__global__ void k(float* out) {
    unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned a[4], b[2];
    for (int r = 0; r < 4; ++r) a[r] = __float_as_uint((float)((g + 8 * (r % 2)) * 8 + t + 4 * (r / 2)));
    for (int r = 0; r < 2; ++r) b[r] = __float_as_uint(t + 4 * r == g ? 1.0f : 0.0f);
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
    for (int i = 0; i < 4; ++i) out[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
}
"#;
    let launch = format!(
        "launch k {{ out = zeros(128); expect out == {}; }}\n",
        list(128, |x| x)
    );
    let r = ok(&format!("{src}{launch}"), &[], [1, 1, 1], [32, 1, 1]);
    assert!(r.expects_passed(), "{:?}", r.expects);
}
