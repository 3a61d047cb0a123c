//! A struct's image in memory: its leaves' bits at their offsets, padding zero, cut into the
//! components of the buffer that holds it, as the compiler writes a symbol's initial bytes and
//! `cudaMemcpyToSymbol` copies a host struct.

use crate::value::{Scalar, Value};

/// Where a struct's scalar leaves lie: each one's type and byte offset, and `sizeof`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructImage {
    /// Every scalar leaf in order: its type and byte offset.
    pub leaves: Vec<(Scalar, u32)>,
    /// `sizeof`, padding included.
    pub size: u32,
}

impl StructImage {
    /// The components of a buffer of `elem` holding `values.len() / leaves` structs whose leaf
    /// values are `values`, in order (each converted to its leaf's type, as C assigns it).
    pub fn components(&self, values: &[Value], elem: Scalar) -> Vec<Value> {
        let structs = values.len() / self.leaves.len().max(1);
        let mut bytes = vec![0u8; structs * self.size as usize];
        for (k, (&v, &(s, offset))) in values.iter().zip(self.leaves.iter().cycle()).enumerate() {
            let at = k / self.leaves.len() * self.size as usize + offset as usize;
            let size = s.size() as usize;
            bytes[at..at + size].copy_from_slice(&leaf_bits(v, s).to_le_bytes()[..size]);
        }
        let step = elem.size() as usize;
        bytes
            .chunks_exact(step)
            .map(|b| {
                let mut word = [0u8; 8];
                word[..step].copy_from_slice(b);
                component(u64::from_le_bytes(word), elem)
            })
            .collect()
    }
}

/// The bits `v` has in memory as a `s` (the low `s.size()` bytes count).
fn leaf_bits(v: Value, s: Scalar) -> u64 {
    match (v.cast(s), s) {
        (v, Scalar::F16) => u64::from(half::f16::from_f64(v.as_f64()).to_bits()),
        (v, Scalar::BF16) => u64::from(half::bf16::from_f64(v.as_f64()).to_bits()),
        (Value::F32(x), _) => u64::from(x.to_bits()),
        (Value::F64(x), _) => x.to_bits(),
        (Value::Bool(b), _) => u64::from(b),
        (v, _) => v.as_i64().expect("an integer after the cast") as u64,
    }
}

/// The value of a buffer component of type `s` whose bits are `bits`.
fn component(bits: u64, s: Scalar) -> Value {
    match s {
        Scalar::F16 => Value::F32(half::f16::from_bits(bits as u16).to_f32()),
        Scalar::BF16 => Value::F32(half::bf16::from_bits(bits as u16).to_f32()),
        Scalar::F32 => Value::F32(f32::from_bits(bits as u32)),
        Scalar::F64 => Value::F64(f64::from_bits(bits)),
        Scalar::Bool => Value::Bool(bits != 0),
        // Narrow integers and `int` wrap to their width, as `(T)` of the bits does.
        _ => Value::U64(bits).cast(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leaf_round_trips_through_its_bits() {
        // 1.5f is 0x3fc00000; -2 as a `short` is 0xfffe; 1.0 as a half is 0x3c00.
        assert_eq!(leaf_bits(Value::F32(1.5), Scalar::F32), 0x3fc0_0000);
        assert_eq!(leaf_bits(Value::I32(-2), Scalar::I16) & 0xffff, 0xfffe);
        assert_eq!(leaf_bits(Value::F64(1.0), Scalar::F16), 0x3c00);
        assert_eq!(component(0xfffe, Scalar::I16), Value::I32(-2));
        assert_eq!(component(0x3fc0_0000, Scalar::F32), Value::F32(1.5));
        assert_eq!(component(0x3c00, Scalar::F16), Value::F32(1.0));
        assert_eq!(component(200, Scalar::U8), Value::I32(200));
    }
}
