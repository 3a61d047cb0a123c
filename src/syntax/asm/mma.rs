//! `mma.sync.aligned.m16n8k{8,16}.row.col` (PTX ISA 9.7.14.5.14) as one call of simt's warp multiply-accumulate on the ISA's fragments: 16-bit inputs two to a register, tf32 one, f32 or packed f16 accumulators.

use super::cxx::{Ty, C};
use super::ops::arity;
use super::parse::{Arg, Inst};
use super::{Fail, Lowering};
use crate::syntax::ast::{BinOp, Expr, Stmt};

/// An element type of an `mma` operand.
#[derive(Clone, Copy, PartialEq)]
enum Elem {
    F16,
    Bf16,
    Tf32,
    F32,
}

impl Elem {
    fn parse(s: &str) -> Option<Elem> {
        Some(match s {
            "f16" => Elem::F16,
            "bf16" => Elem::Bf16,
            "tf32" => Elem::Tf32,
            "f32" => Elem::F32,
            _ => return None,
        })
    }

    /// Elements per 32-bit register.
    fn per_reg(self) -> usize {
        match self {
            Elem::F16 | Elem::Bf16 => 2,
            Elem::Tf32 | Elem::F32 => 1,
        }
    }
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0..d3}, {a0..a3}, {b0, b1}, {c0..c3}`
/// and its f16-accumulator, bf16 and m16n8k8 (f16, bf16, tf32) forms.
pub(super) fn mma(l: &mut Lowering, inst: &Inst) -> Result<Vec<Stmt>, Fail> {
    let unsupported = || Fail::unsupported(format!("the PTX instruction `{}`", inst.text));
    let mods: Vec<&str> = inst.mods.iter().map(String::as_str).collect();
    let [sync, aligned, shape, row, col, d, a, b, cty] = mods.as_slice() else {
        return Err(unsupported());
    };
    let k = match *shape {
        "m16n8k16" => 16,
        "m16n8k8" => 8,
        _ => return Err(unsupported()),
    };
    let types = [d, a, b, cty].map(|t| Elem::parse(t));
    let [Some(d), Some(a), Some(b), Some(cty)] = types else {
        return Err(unsupported());
    };
    let inputs_ok = a == b
        && match a {
            Elem::F16 => true,
            Elem::Bf16 => d == Elem::F32 && cty == Elem::F32,
            Elem::Tf32 => k == 8 && d == Elem::F32 && cty == Elem::F32,
            Elem::F32 => false,
        };
    let acc_ok = matches!(d, Elem::F16 | Elem::F32) && matches!(cty, Elem::F16 | Elem::F32);
    if (*sync, *aligned, *row, *col) != ("sync", "aligned", "row", "col") || !inputs_ok || !acc_ok {
        return Err(unsupported());
    }
    let [dr, ar, br, cr] = arity(inst, 4)? else {
        unreachable!()
    };
    // Registers per operand: 16 × k of A and k × 8 of B over 32 lanes, 4 elements of C and D.
    let regs = |arg: &Arg, what: &str, elems: usize, e: Elem| -> Result<Vec<Arg>, Fail> {
        let list = match arg {
            Arg::Vector(list) => list.clone(),
            one => vec![one.clone()],
        };
        let want = elems / e.per_reg();
        if list.len() != want {
            return Err(Fail::invalid(format!(
                "`{}` takes {want} register(s) for {what}, found {}",
                inst.text,
                list.len()
            )));
        }
        Ok(list)
    };
    let (a_regs, b_regs) = (
        regs(ar, "A", 16 * k / 32, a)?,
        regs(br, "B", k * 8 / 32, b)?,
    );
    let (c_regs, d_regs) = (regs(cr, "C", 4, cty)?, regs(dr, "D", 4, d)?);
    let c = l.c;
    let mut out = Vec::new();
    let mut args = Vec::new();
    let mut results = Vec::new();
    for _ in 0..4 {
        let ty = if d == Elem::F16 { Ty::F(16) } else { Ty::F(32) };
        let (decl, t) = l.temp(ty, c.float(0.0, ty));
        out.push(decl);
        args.push(t.clone());
        results.push(t);
    }
    for (list, e) in [(&a_regs, a), (&b_regs, b), (&c_regs, cty)] {
        for r in list {
            args.extend(elements(l, c, &mut out, r, e)?);
        }
    }
    out.push(c.expr_stmt(c.call(&crate::wmma::ptx_intrinsic(k as u32), args)));
    // D's registers: one float each, or two halves, the first in the low bits.
    let u = Ty::U(32);
    for (j, reg) in d_regs.iter().enumerate() {
        if d == Elem::F32 {
            out.push(l.write(reg, results[j].clone(), Ty::F(32))?);
        } else {
            let bits = |h: &Expr| c.cast(u, c.call("__half_as_ushort", vec![h.clone()]));
            let (lo, hi) = (bits(&results[2 * j]), bits(&results[2 * j + 1]));
            let word = c.bin(BinOp::BitOr, lo, c.bin(BinOp::Shl, hi, c.int(16, u)));
            out.push(l.write(reg, word, u)?);
        }
    }
    Ok(vec![c.block(out)])
}

/// The elements register `r` holds: a float, or two 16-bit values, the low half first.
fn elements(
    l: &mut Lowering,
    c: C,
    out: &mut Vec<Stmt>,
    r: &Arg,
    e: Elem,
) -> Result<Vec<Expr>, Fail> {
    if e.per_reg() == 1 {
        return Ok(vec![l.read(r, Ty::F(32))?]);
    }
    let u = Ty::U(32);
    let (decl, word) = l.temp(u, l.read(r, u)?);
    out.push(decl);
    let from_bits = if e == Elem::F16 {
        "__ushort_as_half"
    } else {
        "__ushort_as_bfloat16"
    };
    Ok([0, 16]
        .into_iter()
        .map(|shift| {
            let bits = c.bin(BinOp::Shr, word.clone(), c.int(shift, u));
            c.call(from_bits, vec![c.cast(Ty::U(16), bits)])
        })
        .collect())
}
