//! PTX's extended-precision arithmetic: `add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo.cc`,
//! `madc.lo/hi` and their `.cc` forms, which carry through the condition code's CF bit (PTX
//! ISA, "Extended-Precision Integer Arithmetic Instructions"), as every big-integer and
//! finite-field library chains them (solana's 128-bit adds, sppark's and icicle's fields).

use super::cxx::Ty;
use super::ops::{arity, Mods};
use super::parse::Inst;
use super::{Fail, Lowering};
use crate::syntax::ast::{BinOp, Stmt};

/// The local holding CF (an `unsigned`, 0 or 1) for one `asm` statement; `#` keeps it apart
/// from any `.reg` (those are `ptx.NAME`).
pub(super) const CARRY: &str = "ptx.#cc";

/// Whether `inst` reads or writes CF: one of the instructions this module lowers.
pub(super) fn is_carrying(inst: &Inst) -> bool {
    match inst.op.as_str() {
        "addc" | "subc" | "madc" => true,
        "add" | "sub" | "mad" => inst.mods.iter().any(|m| m == "cc"),
        _ => false,
    }
}

/// `d = a ± b (± CF)` or `d = lo/hi(a * b) + c (+ CF)`, in the unsigned bits of the type (the
/// signed types carry the same way), CF set to the carry or borrow out where `.cc` is written.
pub(super) fn carrying(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let op = inst.op.as_str();
    let carry_in = op.ends_with('c');
    let carry_out = m.flag("cc");
    let part = if op.starts_with("mad") {
        Some(m.one_of(&["lo", "hi"]).ok_or_else(|| m.unsupported())?)
    } else {
        None
    };
    let t = m.ty(|t| matches!(t, Ty::U(32 | 64) | Ty::S(32 | 64) | Ty::B(32 | 64)))?;
    m.done()?;
    let u = Ty::U(t.bits());
    let args = arity(inst, if part.is_some() { 4 } else { 3 })?;
    let d = &args[0];
    let mut body = Vec::new();
    let hold = |l: &mut Lowering, body: &mut Vec<Stmt>, e| {
        let (decl, x) = l.temp(u, e);
        body.push(decl);
        x
    };
    let a = l.read(&args[1], u)?;
    let a = hold(l, &mut body, a);
    let b = l.read(&args[2], u)?;
    let b = hold(l, &mut body, b);
    let cf = c.cast(u, c.name(CARRY));
    let less = |x, y| c.cast(Ty::U(32), c.bin(BinOp::Lt, x, y));
    let or = |x, y| c.bin(BinOp::BitOr, x, y);
    // The first operand and what is added to it: a and b, or the product's half and c.
    let (x, y) = match part {
        Some(half) => {
            let product = match half {
                "hi" => super::ops::high(c, u, a, b)?,
                _ => c.bin(BinOp::Mul, a, b),
            };
            let p = hold(l, &mut body, c.cast(u, product));
            let addend = l.read(&args[3], u)?;
            (p, hold(l, &mut body, addend))
        }
        None => (a, b),
    };
    let (value, out) = if op.starts_with("sub") {
        // x - y - CF: a borrow where y > x, or where CF exceeds x - y.
        let diff = hold(
            l,
            &mut body,
            c.cast(u, c.bin(BinOp::Sub, x.clone(), y.clone())),
        );
        let borrow = less(x, y);
        if carry_in {
            let value = c.cast(u, c.bin(BinOp::Sub, diff.clone(), cf.clone()));
            (value, or(borrow, less(diff, cf)))
        } else {
            (diff, borrow)
        }
    } else {
        // x + y + CF: a carry where the sum wraps below x, or adding CF wraps it to 0.
        let sum = hold(l, &mut body, c.cast(u, c.bin(BinOp::Add, x.clone(), y)));
        let carry = less(sum.clone(), x);
        if carry_in {
            let total = hold(l, &mut body, c.cast(u, c.bin(BinOp::Add, sum.clone(), cf)));
            (total.clone(), or(carry, less(total, sum)))
        } else {
            (sum, carry)
        }
    };
    let (decl, value) = l.temp(u, value);
    body.push(decl);
    if carry_out {
        body.push(c.assign(c.name(CARRY), c.cast(Ty::U(32), out)));
    }
    body.push(l.write(d, value, u)?);
    Ok(body)
}
