//! PTX that names shared memory by its 32-bit window address — `cvta`, `cp.async` and `ldmatrix` — as C++ over `__cvta_generic_to_shared`'s model and `<cuda_pipeline.h>`'s primitives.
//!
//! `cp.async.{ca,cg}.shared.global [d], [s], n{, src-size}` is `__pipeline_memcpy_async(d, s, n,
//! n - src-size)` (the bytes past `src-size` are zeros), `cp.async.commit_group` is
//! `__pipeline_commit()`, `cp.async.wait_group n` is `__pipeline_wait_prior(n)` and
//! `cp.async.wait_all` both (PTX ISA 9.7.9.25). `ldmatrix` (9.7.14.5.15) gives each lane its
//! words of up to four 8×8 matrices of 16-bit elements whose rows other lanes address: lane `t`
//! reads the row lane `8j + t/4` names, so it runs as a shuffle of the row addresses and one
//! 32-bit shared load per matrix — the 8 rows of 16 bytes the hardware reads, one wavefront per
//! matrix when they fall in distinct banks; `.trans` then exchanges halves with two shuffles.

use super::cxx::{Ty, C};
use super::ops::{arity, special, Mods};
use super::parse::{Arg, Inst};
use super::{Fail, Lowering};
use crate::syntax::ast::{BaseType, BinOp, Expr, Stmt, UnOp};

/// `cvta.to.shared d, a`: the shared-window address of generic address `a` (simt keeps the
/// offset in the array in its low 32 bits); `cvta.shared d, a`: back; `cvta{.to}.global` is the
/// identity (a global address is its generic address).
pub(super) fn cvta(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let to = m.flag("to");
    let space = m
        .one_of(&["shared", "global"])
        .ok_or_else(|| m.unsupported())?;
    let t = m.ty(|t| matches!(t, Ty::U(32) | Ty::U(64) | Ty::B(32) | Ty::B(64)))?;
    m.done()?;
    let [d, a] = arity(inst, 2)? else {
        unreachable!()
    };
    let u64t = Ty::U(64);
    let a = l.read(a, u64t)?;
    let value = match (space, to) {
        ("shared", true) => c.bin(BinOp::BitAnd, a, c.int(0xffff_ffff, u64t)),
        ("shared", false) => c.call("__simt_ptx_shared", vec![a]),
        _ => a,
    };
    Ok(vec![l.write(d, c.cast(t, value), t)?])
}

/// `cp.async` and its `commit_group`, `wait_group n` and `wait_all`.
pub(super) fn cp_async(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    if !m.flag("async") {
        return Err(m.unsupported());
    }
    let commit = || c.expr_stmt(c.call("__pipeline_commit", Vec::new()));
    let wait = |n: i128| c.expr_stmt(c.call("__pipeline_wait_prior", vec![c.int(n, Ty::U(32))]));
    if let Some(which) = m.one_of(&["commit_group", "wait_group", "wait_all"]) {
        m.done()?;
        return match which {
            "commit_group" => arity(inst, 0).map(|_| vec![commit()]),
            "wait_all" => arity(inst, 0).map(|_| vec![commit(), wait(0)]),
            _ => {
                let [n] = arity(inst, 1)? else { unreachable!() };
                let n = l.constant(n).ok_or_else(|| {
                    Fail::invalid(format!("`{}` needs a constant count", inst.text))
                })?;
                Ok(vec![wait(n)])
            }
        };
    }
    let cg = m.one_of(&["ca", "cg"]).ok_or_else(|| m.unsupported())? == "cg";
    if m.one_of(&["shared", "shared::cta"]).is_none() || !m.flag("global") {
        return Err(m.unsupported());
    }
    m.one_of(&["L2::64B", "L2::128B", "L2::256B"]);
    let hint = m.flag("L2::cache_hint");
    m.done()?;
    let args = &inst.args[..inst.args.len().saturating_sub(usize::from(hint))];
    let (dst, src, size, src_size) = match args {
        [d, s, n] => (d, s, n, None),
        [d, s, n, k] => (d, s, n, Some(k)),
        _ => {
            return Err(Fail::invalid(format!(
                "`{}` takes [dst], [src], cp-size and an optional src-size",
                inst.text
            )))
        }
    };
    let n = l.constant(size).filter(|&n| match cg {
        true => n == 16,
        false => matches!(n, 4 | 8 | 16),
    });
    let Some(n) = n else {
        return Err(Fail::invalid(format!(
            "the cp-size of `{}`: 4, 8 or 16 bytes for .ca, 16 for .cg",
            inst.text
        )));
    };
    let elem = match n {
        4 => c.ty(Ty::U(32)),
        8 => c.type_named(BaseType::Vector, "uint2"),
        _ => c.type_named(BaseType::Vector, "uint4"),
    };
    let (mut to, mut from) = (elem.clone(), elem);
    to.pointer = true;
    from.pointer = true;
    from.is_const = true;
    let (Arg::Address(d, 0), Arg::Address(s, 0)) = (dst, src) else {
        return Err(Fail::unsupported(format!(
            "`{}` with an offset in an address (pass the offset pointer as the operand)",
            inst.text
        )));
    };
    let u64t = Ty::U(64);
    let mut call = vec![
        c.cast_to(to, l.address(d, true)?),
        c.cast_to(from, l.pointer(s)?),
        c.int(n, u64t),
    ];
    if let Some(k) = src_size {
        let k = c.cast(u64t, l.read(k, Ty::U(32))?);
        call.push(c.bin(BinOp::Sub, c.int(n, u64t), k));
    }
    Ok(vec![c.expr_stmt(c.call("__pipeline_memcpy_async", call))])
}

/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 {d...}, [a]`.
pub(super) fn ldmatrix(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    if !(m.flag("sync") && m.flag("aligned") && m.flag("m8n8")) {
        return Err(m.unsupported());
    }
    let count = match m.one_of(&["x1", "x2", "x4"]) {
        Some("x1") => 1,
        Some("x2") => 2,
        Some(_) => 4,
        None => return Err(m.unsupported()),
    };
    let trans = m.flag("trans");
    m.one_of(&["shared", "shared::cta"]);
    m.ty(|t| t == Ty::B(16))?;
    m.done()?;
    let [d, a] = arity(inst, 2)? else {
        unreachable!()
    };
    let regs: Vec<&Arg> = match d {
        Arg::Vector(list) => list.iter().collect(),
        one => vec![one],
    };
    if regs.len() != count {
        return Err(Fail::invalid(format!(
            "`{}` writes {count} register(s), found {}",
            inst.text,
            regs.len()
        )));
    }
    let Arg::Address(a, 0) = a else {
        return Err(Fail::unsupported(format!(
            "`{}` with an offset in its address (pass the row's address as the operand)",
            inst.text
        )));
    };
    let (u32t, u64t) = (Ty::U(32), Ty::U(64));
    let mut out = Vec::new();
    let (decl, row) = l.temp(u64t, l.address(a, true)?);
    out.push(decl);
    let (decl, lane) = l.temp(u32t, special(c, "%laneid")?.0);
    out.push(decl);
    let quad = c.bin(BinOp::Shr, lane.clone(), c.int(2, u32t));
    let in_quad = c.bin(BinOp::BitAnd, lane, c.int(3, u32t));
    for (j, reg) in regs.into_iter().enumerate() {
        let first = c.int(8 * j as i128, u32t);
        // Row `t/4` of matrix `j`, the word of elements `2(t%4)` and `2(t%4) + 1`.
        let r = c.bin(BinOp::Add, first, quad.clone());
        let at = c.bin(BinOp::Mul, in_quad.clone(), c.int(4, u64t));
        let word = element(l, c, &mut out, row.clone(), r, at, u32t);
        let value = if trans {
            // Column `t/4` of rows `2(t%4)` and `2(t%4) + 1`: halves of the words lanes
            // `8(t%4) + t/8` and `8(t%4) + 4 + t/8` read (the same rows, one wavefront each).
            let (decl, word) = l.temp(u32t, word);
            out.push(decl);
            let from = c.bin(
                BinOp::Add,
                c.bin(BinOp::Mul, in_quad.clone(), c.int(8, u32t)),
                c.bin(BinOp::Shr, quad.clone(), c.int(1, u32t)),
            );
            let shift = c.bin(
                BinOp::Mul,
                c.bin(BinOp::BitAnd, quad.clone(), c.int(1, u32t)),
                c.int(16, u32t),
            );
            let half = |from: Expr| {
                let full = c.int(0xffff_ffff, u32t);
                let theirs = c.call(
                    "__shfl_sync",
                    vec![full, word.clone(), c.cast(Ty::S(32), from)],
                );
                let bits = c.bin(BinOp::Shr, theirs, shift.clone());
                c.bin(BinOp::BitAnd, bits, c.int(0xffff, u32t))
            };
            let lo = half(from.clone());
            let hi = half(c.bin(BinOp::Add, from, c.int(4, u32t)));
            c.bin(BinOp::BitOr, lo, c.bin(BinOp::Shl, hi, c.int(16, u32t)))
        } else {
            word
        };
        out.push(l.write(reg, c.cast(u32t, value), u32t)?);
    }
    Ok(vec![c.block(out)])
}

/// The `ty` at byte `at` of the row whose address lane `from` holds in `row`.
fn element(
    l: &mut Lowering,
    c: C,
    out: &mut Vec<Stmt>,
    row: Expr,
    from: Expr,
    at: Expr,
    ty: Ty,
) -> Expr {
    let full = c.int(0xffff_ffff, Ty::U(32));
    let theirs = c.call("__shfl_sync", vec![full, row, c.cast(Ty::S(32), from)]);
    let (decl, theirs) = l.temp(Ty::U(64), theirs);
    out.push(decl);
    let mut ptr = c.ty(ty);
    ptr.pointer = true;
    ptr.is_const = true;
    let address = c.bin(BinOp::Add, theirs, at);
    c.un(UnOp::Deref, c.cast_to(ptr, address))
}
