//! The initial bytes of a file-scope `__device__`/`__constant__` struct (or array of structs), laid out as in memory.

// A struct in memory is a buffer of its one leaf type, of 32-bit words, or of bytes
// (`Layout::buffer_shape`); its initialiser's values are its leaves' (each converted to its
// member's type, nested braces and constructors as for a local), so the buffer's components
// are cut from the leaves' bytes at their offsets, padding zero, as the compiler writes the
// symbol's image.

use std::rc::Rc;

use super::error::InitialiserProblem;
use super::structs::Layout;
use super::typed::{Expr, ExprKind};
use super::{CheckError, KernelChecker};
use crate::syntax::ast;
use crate::value::{Scalar, Value};

impl KernelChecker<'_, '_> {
    /// The components of `c`'s buffer of `(elem, width)` per struct that its initialiser
    /// gives, `dims` structs of layout `l` (none: one struct); `None` without an initialiser.
    pub(crate) fn struct_initialiser(
        &mut self,
        c: &ast::ConstantArray,
        l: &Rc<Layout>,
        (elem, width): (Scalar, u32),
        dims: &[u64],
    ) -> Result<Option<Vec<Value>>, CheckError> {
        let Some(init) = &c.init else {
            return Ok(None);
        };
        // A refused struct (a bit-field's) has no leaves: its refusal is the error.
        if l.leaves.is_empty() {
            return Ok(None);
        }
        let mut items = Vec::new();
        if dims.is_empty() {
            items.push(Some(init));
        } else {
            let ast::ExprKind::List(list) = &init.kind else {
                return Err(CheckError::Initialiser {
                    problem: InitialiserProblem::WrongShape {
                        name: c.name.name.clone(),
                        array: true,
                    },
                    span: init.span,
                    help: Some("an array takes `{a, b, ...}`".into()),
                });
            };
            self.braced_rows(l, list, dims.len())?;
            items = super::array_init::elements(list, Some(dims[0]), &dims[1..])
                .ok_or_else(|| super::too_many_for(c, dims, init.span))?
                .0;
        }
        let empty = ast::Expr {
            kind: ast::ExprKind::List(Vec::new()),
            span: init.span,
        };
        let mut bytes = Vec::with_capacity(items.len() * l.size as usize);
        for item in items {
            let item = item.unwrap_or(&empty);
            let mut out = Vec::new();
            let leaves = self.struct_value(item, l, &mut out)?;
            let mut image = vec![0u8; l.size as usize];
            for (value, &(s, offset)) in leaves.iter().zip(&l.leaves) {
                let Some(v) = constant_of(value) else {
                    return Err(not_constant(c, item.span));
                };
                let at = offset as usize;
                let size = s.size() as usize;
                image[at..at + size].copy_from_slice(&leaf_bits(v, s).to_le_bytes()[..size]);
            }
            if !out.is_empty() {
                return Err(not_constant(c, item.span));
            }
            bytes.extend(image);
        }
        let step = elem.size() as usize;
        debug_assert_eq!(l.size as usize, step * width as usize);
        Ok(Some(
            bytes
                .chunks_exact(step)
                .map(|b| {
                    let mut word = [0u8; 8];
                    word[..step].copy_from_slice(b);
                    component(u64::from_le_bytes(word), elem)
                })
                .collect(),
        ))
    }

    /// Refuses an array of structs `l` of `rank` dimensions listing members' values without
    /// their braces in any row (`{{1, 2}, {3, 4}}` of `S c[2][3]` is c[0][0] = {1, 2} in C).
    fn braced_rows(
        &mut self,
        l: &Layout,
        items: &[ast::Expr],
        rank: usize,
    ) -> Result<(), CheckError> {
        if rank > 1 {
            for item in items {
                if let ast::ExprKind::List(row) = &item.kind {
                    self.braced_rows(l, row, rank - 1)?;
                } else {
                    self.braced_elements(l, std::slice::from_ref(item))?;
                }
            }
            return Ok(());
        }
        self.braced_elements(l, items)
    }
}

/// The value of a constant leaf: a 16-bit float one is its rounded value under the conversion
/// that keeps its type.
fn constant_of(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Const(v) => Some(*v),
        ExprKind::Cast { to, operand } if to.is_half() => match operand.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

fn not_constant(c: &ast::ConstantArray, span: crate::source::Span) -> CheckError {
    CheckError::NotConstant {
        what: format!("the initialiser of `{}`", c.name.name),
        span,
        help: Some("use literals, `#define`s or `const` globals".into()),
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
