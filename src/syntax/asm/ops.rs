//! What each supported PTX instruction computes, as C++ over the operands (PTX ISA 8.x semantics).

use super::cxx::{vector_name, Ty, C};
use super::parse::{Arg, Inst};
use super::{Fail, Lowering};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt, UnOp};

/// The modifiers of one instruction, each taken once; any left over is unsupported.
pub(super) struct Mods<'a> {
    inst: &'a Inst,
    used: Vec<bool>,
}

impl<'a> Mods<'a> {
    pub(super) fn new(inst: &'a Inst) -> Self {
        Mods {
            inst,
            used: vec![false; inst.mods.len()],
        }
    }

    /// Takes `m` if it is there.
    pub(super) fn flag(&mut self, m: &str) -> bool {
        match self.inst.mods.iter().position(|x| x == m) {
            Some(i) => {
                self.used[i] = true;
                true
            }
            None => false,
        }
    }

    /// Takes the first of `ms` that is there.
    pub(super) fn one_of(&mut self, ms: &[&'static str]) -> Option<&'static str> {
        ms.iter().copied().find(|m| self.flag(m))
    }

    /// Takes every type modifier, in order.
    pub(super) fn types(&mut self) -> Vec<Ty> {
        let mut out = Vec::new();
        for (i, m) in self.inst.mods.iter().enumerate() {
            if let Some(t) = Ty::parse(m).filter(|_| !self.used[i]) {
                self.used[i] = true;
                out.push(t);
            }
        }
        out
    }

    /// Exactly one type, one of those `ok` accepts.
    pub(super) fn ty(&mut self, ok: impl Fn(Ty) -> bool) -> Result<Ty, Fail> {
        match self.types()[..] {
            [t] if ok(t) => Ok(t),
            _ => Err(self.unsupported()),
        }
    }

    pub(super) fn unsupported(&self) -> Fail {
        Fail::unsupported(format!("the PTX instruction `{}`", self.inst.text))
    }

    /// Every modifier was understood.
    pub(super) fn done(self) -> Result<(), Fail> {
        match self.used.iter().position(|u| !u) {
            Some(i) => Err(Fail::unsupported(format!(
                "`.{}` in the PTX instruction `{}`",
                self.inst.mods[i], self.inst.text
            ))),
            None => Ok(()),
        }
    }
}

/// `n` operands, else an error naming the instruction.
pub(super) fn arity(inst: &Inst, n: usize) -> Result<&[Arg], Fail> {
    if inst.args.len() == n {
        Ok(&inst.args)
    } else {
        Err(Fail::invalid(format!(
            "the PTX instruction `{}` takes {n} operands, found {}",
            inst.text,
            inst.args.len()
        )))
    }
}

fn int_or_float(t: Ty) -> bool {
    t.is_int() || t == Ty::F(32) || t == Ty::F(64)
}

/// The statements of one instruction.
pub(super) fn inst(l: &mut Lowering, inst: &Inst) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let mut m = Mods::new(inst);
    let op = inst.op.as_str();
    let out = match op {
        "mov" => {
            let t = m.ty(|t| t != Ty::F(16))?;
            m.done()?;
            let [d, a] = arity(inst, 2)? else {
                unreachable!()
            };
            return mov(l, t, d, a);
        }
        "cvt" => return cvt(l, inst, m),
        _ if super::carry::is_carrying(inst) => return super::carry::carrying(l, inst, m),
        "add" | "sub" | "mul" | "fma" if inst.mods.iter().any(|m| m == "f16" || m == "f16x2") => {
            return halves(l, inst, m)
        }
        "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" => {
            return arith(l, inst, m)
        }
        "abs" | "neg" => {
            let t = m.ty(|t| t.is_signed() || t == Ty::F(32) || t == Ty::F(64))?;
            m.done()?;
            let [d, a] = arity(inst, 2)? else {
                unreachable!()
            };
            let (decl, x) = l.temp(t, l.read(a, t)?);
            let v = match (op, t.is_float()) {
                ("neg", _) => c.un(UnOp::Neg, x),
                (_, true) => c.call(if t == Ty::F(32) { "fabsf" } else { "fabs" }, vec![x]),
                // abs of the most negative value is itself, as in two's complement.
                _ => c.tern(
                    c.bin(BinOp::Lt, x.clone(), c.int(0, t)),
                    c.un(UnOp::Neg, x.clone()),
                    x,
                ),
            };
            vec![decl, l.write(d, c.cast(t, v), t)?]
        }
        "and" | "or" | "xor" | "not" => {
            let t = m.ty(|t| matches!(t, Ty::B(16 | 32 | 64) | Ty::Pred))?;
            m.done()?;
            let v = if op == "not" {
                let [d, a] = arity(inst, 2)? else {
                    unreachable!()
                };
                let x = l.read(a, t)?;
                let u = if t == Ty::Pred {
                    UnOp::Not
                } else {
                    UnOp::BitNot
                };
                return Ok(vec![l.write(d, c.cast(t, c.un(u, x)), t)?]);
            } else {
                let [_, a, b] = arity(inst, 3)? else {
                    unreachable!()
                };
                let (a, b) = (l.read(a, t)?, l.read(b, t)?);
                let o = match (op, t == Ty::Pred) {
                    ("and", false) => BinOp::BitAnd,
                    ("or", false) => BinOp::BitOr,
                    ("xor", false) => BinOp::BitXor,
                    ("and", true) => BinOp::And,
                    ("or", true) => BinOp::Or,
                    _ => BinOp::Ne,
                };
                c.bin(o, a, b)
            };
            vec![l.write(&inst.args[0], c.cast(t, v), t)?]
        }
        "shl" | "shr" => {
            let t = m.ty(|t| t.is_int() && t.bits() >= 16 && (op == "shr" || !t.is_signed()))?;
            m.done()?;
            let [d, a, b] = arity(inst, 3)? else {
                unreachable!()
            };
            // PTX clamps shift amounts past the width (0, or the sign for shr.s), as simt's
            // C shifts do: the C shift is the instruction.
            let (da, x) = l.temp(t, l.read(a, t)?);
            let (db, n) = l.temp(Ty::U(32), l.read(b, Ty::U(32))?);
            let o = if op == "shl" { BinOp::Shl } else { BinOp::Shr };
            let v = c.bin(o, x, n);
            vec![da, db, l.write(d, c.cast(t, v), t)?]
        }
        "popc" | "clz" | "brev" => {
            let t = m.ty(|t| matches!(t, Ty::B(32 | 64)))?;
            m.done()?;
            let [d, a] = arity(inst, 2)? else {
                unreachable!()
            };
            let long = t.bits() == 64;
            let f = match (op, long) {
                ("popc", false) => "__popc",
                ("popc", true) => "__popcll",
                ("clz", false) => "__clz",
                ("clz", true) => "__clzll",
                ("brev", false) => "__brev",
                _ => "__brevll",
            };
            let v = c.call(f, vec![l.read(a, t)?]);
            let rt = if op == "brev" { t } else { Ty::U(32) };
            vec![l.write(d, c.cast(rt, v), rt)?]
        }
        "shf" => return shf(l, inst, m),
        "bfe" => return bfe(l, inst, m),
        "bfi" => return bfi(l, inst, m),
        "prmt" => return prmt(l, inst, m),
        "lop3" => return lop3(l, inst, m),
        "setp" => return setp(l, inst, m),
        "selp" => {
            let t = m.ty(int_or_float)?;
            m.done()?;
            let [d, a, b, p] = arity(inst, 4)? else {
                unreachable!()
            };
            let v = c.tern(l.read(p, Ty::Pred)?, l.read(a, t)?, l.read(b, t)?);
            vec![l.write(d, c.cast(t, v), t)?]
        }
        "shfl" => return shfl(l, inst, m),
        "cvta" => return super::shared::cvta(l, inst, m),
        "cp" => return super::shared::cp_async(l, inst, m),
        "ldmatrix" => return super::shared::ldmatrix(l, inst, m),
        "mma" => return super::mma::mma(l, inst),
        "ld" | "st" | "ldu" => return memory(l, inst, m),
        "ex2" | "rcp" | "sqrt" | "rsqrt" | "tanh" | "lg2" | "sin" | "cos" => {
            return approx(l, inst, m)
        }
        "membar" | "fence" => {
            let f = match m.one_of(&["cta", "gl", "sys"]) {
                Some("cta") => "__threadfence_block",
                Some("gl") => "__threadfence",
                Some(_) => "__threadfence_system",
                None => return Err(m.unsupported()),
            };
            if op == "fence" && !m.flag("sc") {
                m.flag("acq_rel");
            }
            m.done()?;
            arity(inst, 0)?;
            vec![c.expr_stmt(c.call(f, Vec::new()))]
        }
        // `trap` aborts the kernel: the instruction `__trap()` compiles to.
        "trap" => {
            m.done()?;
            arity(inst, 0)?;
            vec![c.expr_stmt(c.call("__trap", Vec::new()))]
        }
        // `bar.sync a{, b}` (also `barrier.sync.aligned`, `.cta`): barrier `a` for `b` threads,
        // or the whole block. Barrier 0 for the block is `__syncthreads()`; a number or count
        // held in a register is checked as the kernel runs.
        "bar" | "barrier" => {
            m.flag("cta");
            if !m.flag("sync") {
                return Err(m.unsupported());
            }
            m.flag("aligned");
            m.done()?;
            match inst.args.as_slice() {
                [Arg::Int(0)] => vec![c.expr_stmt(c.call("__syncthreads", Vec::new()))],
                [Arg::Int(id), ..] if *id != 0 => {
                    return Err(Fail::unsupported(format!(
                        "the named barrier in `{}` (simt runs barrier 0, `__syncthreads()`)",
                        inst.text
                    )))
                }
                [_] | [_, _] => {
                    let args = inst
                        .args
                        .iter()
                        .map(|a| l.read(a, Ty::U(32)))
                        .collect::<Result<Vec<_>, _>>()?;
                    vec![c.expr_stmt(c.call("__simt_bar_sync", args))]
                }
                _ => {
                    return Err(Fail::invalid(format!(
                        "the PTX instruction `{}` takes 1 or 2 operands, found {}",
                        inst.text,
                        inst.args.len()
                    )))
                }
            }
        }
        _ => {
            return Err(Fail::unsupported(format!(
                "the PTX instruction `{}`",
                inst.text
            )))
        }
    };
    Ok(out)
}

/// `mov`: a copy, a special register, or packing / unpacking halves (`mov.b64 d, {lo, hi}`).
fn mov(l: &mut Lowering, t: Ty, d: &Arg, a: &Arg) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let half = Ty::B(t.bits() / 2);
    match (d, a) {
        (Arg::Vector(_), Arg::Vector(_)) => Err(Fail::invalid("`mov` between two vectors".into())),
        (_, Arg::Vector(parts)) => {
            let [lo, hi] = &parts[..] else {
                return Err(Fail::unsupported(
                    "a `mov` packing other than two halves".into(),
                ));
            };
            let (lo, hi) = (c.cast(t, l.read(lo, half)?), c.cast(t, l.read(hi, half)?));
            let v = c.bin(
                BinOp::BitOr,
                lo,
                c.bin(BinOp::Shl, hi, c.int(i128::from(half.bits()), Ty::U(32))),
            );
            Ok(vec![l.write(d, c.cast(t, v), t)?])
        }
        (Arg::Vector(parts), _) => {
            let [lo, hi] = &parts[..] else {
                return Err(Fail::unsupported(
                    "a `mov` unpacking other than two halves".into(),
                ));
            };
            let (decl, x) = l.temp(t, l.read(a, t)?);
            let shifted = c.bin(
                BinOp::Shr,
                x.clone(),
                c.int(i128::from(half.bits()), Ty::U(32)),
            );
            Ok(vec![
                decl,
                l.write(lo, c.cast(half, x), half)?,
                l.write(hi, c.cast(half, shifted), half)?,
            ])
        }
        _ => Ok(vec![l.write(d, l.read(a, t)?, t)?]),
    }
}

/// A special register's value and type: `%laneid`, `%tid.x`, `%clock64`...
pub(super) fn special(c: C, name: &str) -> Result<(Expr, Ty), Fail> {
    let u32t = Ty::U(32);
    let builtin = |b: &str, f: &str| c.member(c.name(b), f);
    // The thread's linear index in its block, x fastest.
    let linear = || {
        let tid = |f| builtin("threadIdx", f);
        let ntid = |f| builtin("blockDim", f);
        c.bin(
            BinOp::Add,
            tid("x"),
            c.bin(
                BinOp::Mul,
                ntid("x"),
                c.bin(BinOp::Add, tid("y"), c.bin(BinOp::Mul, ntid("y"), tid("z"))),
            ),
        )
    };
    let lane = || c.bin(BinOp::BitAnd, linear(), c.int(31, u32t));
    let bit = || c.bin(BinOp::Shl, c.int(1, u32t), lane());
    let below = || c.bin(BinOp::Sub, bit(), c.int(1, u32t));
    // `2 << 31` wraps to 0 in 32 bits, so lanes 0..=31 give masks up to 0xffffffff.
    let through = || {
        c.bin(
            BinOp::Sub,
            c.cast(u32t, c.bin(BinOp::Shl, c.int(2, u32t), lane())),
            c.int(1, u32t),
        )
    };
    let e = match name {
        "%laneid" => lane(),
        "%warpid" => c.bin(BinOp::Shr, linear(), c.int(5, u32t)),
        "%lanemask_eq" => bit(),
        "%lanemask_lt" => below(),
        "%lanemask_le" => through(),
        "%lanemask_gt" => c.un(UnOp::BitNot, through()),
        "%lanemask_ge" => c.un(UnOp::BitNot, below()),
        "%clock" => c.call("clock", Vec::new()),
        "%clock64" => return Ok((c.call("clock64", Vec::new()), Ty::U(64))),
        _ => {
            let (reg, field) = name.split_once('.').unwrap_or((name, ""));
            let b = match reg {
                "%tid" => "threadIdx",
                "%ntid" => "blockDim",
                "%ctaid" => "blockIdx",
                "%nctaid" => "gridDim",
                _ => return Err(Fail::unsupported(format!("the special register `{name}`"))),
            };
            if !matches!(field, "x" | "y" | "z") {
                return Err(Fail::invalid(format!(
                    "`{name}` (a component .x, .y or .z of {reg})"
                )));
            }
            builtin(b, field)
        }
    };
    Ok((e, u32t))
}

/// `cvt`: conversions with PTX's rounding modes and saturation.
fn cvt(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let round = m.one_of(&["rni", "rzi", "rmi", "rpi", "rn", "rz", "rm", "rp"]);
    let sat = m.flag("sat");
    let [dt, st] = m.types()[..] else {
        return Err(m.unsupported());
    };
    m.done()?;
    let [d, a] = arity(inst, 2)? else {
        unreachable!()
    };
    if dt == Ty::Pred || st == Ty::Pred {
        return Err(Fail::invalid(format!(
            "`{}` converts a predicate",
            inst.text
        )));
    }
    let x = l.read(a, st)?;
    let bad_round = || {
        Fail::invalid(format!(
            "the rounding of `{}` (PTX: .rni/.rzi/.rmi/.rpi to an integer or a float of the same size, .rn/.rz/.rm/.rp to a narrower float or from an integer)",
            inst.text
        ))
    };
    // CUDA's names: `rn` to nearest even, `rz` toward zero, `rd` down, `ru` up.
    let cuda = |r: &str| match r {
        "rni" | "rn" => "rn",
        "rzi" | "rz" => "rz",
        "rmi" | "rm" => "rd",
        _ => "ru",
    };
    let fname = |t: Ty| match t {
        Ty::F(16) => "half",
        Ty::F(32) => "float",
        Ty::F(64) => "double",
        Ty::S(64) => "ll",
        Ty::U(64) => "ull",
        Ty::S(_) => "int",
        _ => "uint",
    };
    let v = match (st.is_float(), dt.is_float()) {
        (true, false) => {
            // Float to integer: rounded to an integral value, then clamped to the type's range
            // (NaN gives 0): `.sat` is implied.
            let r = round.filter(|r| r.ends_with('i')).ok_or_else(bad_round)?;
            let wide = match dt {
                Ty::S(8 | 16) => Ty::S(32),
                Ty::B(8 | 16) | Ty::U(8 | 16) => Ty::U(32),
                Ty::B(n) => Ty::U(n),
                t => t,
            };
            let f = format!("__{}2{}_{}", fname(st), fname(wide), cuda(r));
            let v = c.call(&f, vec![x]);
            if wide.bits() == dt.bits() {
                v
            } else {
                let (lo, hi) = dt.range();
                clamp(l, c, v, wide, lo, hi)
            }
        }
        (false, true) => {
            // Integer to float: one rounding of the exact value.
            let r = round.filter(|r| !r.ends_with('i')).ok_or_else(bad_round)?;
            let wide = match st {
                Ty::S(n) if n < 32 => Ty::S(32),
                Ty::B(n) | Ty::U(n) if n < 32 => Ty::U(32),
                Ty::B(n) => Ty::U(n),
                t => t,
            };
            let x = c.cast(wide, x);
            let v = if dt == Ty::F(64) && wide.bits() == 32 {
                c.cast(dt, x)
            } else {
                c.call(
                    &format!("__{}2{}_{}", fname(wide), fname(dt), cuda(r)),
                    vec![x],
                )
            };
            saturate(c, v, dt, sat)?
        }
        (true, true) => {
            let v = match (round, dt.bits().cmp(&st.bits())) {
                (None, std::cmp::Ordering::Equal) => x,
                (Some(r), std::cmp::Ordering::Equal) if r.ends_with('i') => {
                    let f = match r {
                        "rni" => "rint",
                        "rzi" => "trunc",
                        "rmi" => "floor",
                        _ => "ceil",
                    };
                    match st {
                        Ty::F(32) => c.call(&format!("{f}f"), vec![x]),
                        Ty::F(64) => c.call(f, vec![x]),
                        _ => return Err(m_unsupported(inst)),
                    }
                }
                (None, std::cmp::Ordering::Greater) => match (st, dt) {
                    (Ty::F(16), Ty::F(32)) => c.call("__half2float", vec![x]),
                    (Ty::F(16), _) => c.cast(dt, c.call("__half2float", vec![x])),
                    _ => c.cast(dt, x),
                },
                (Some(r), std::cmp::Ordering::Less) if !r.ends_with('i') => c.call(
                    &format!("__{}2{}_{}", fname(st), fname(dt), cuda(r)),
                    vec![x],
                ),
                _ => return Err(bad_round()),
            };
            saturate(c, v, dt, sat)?
        }
        (false, false) => {
            if round.is_some() {
                return Err(bad_round());
            }
            let (dlo, dhi) = dt.range();
            let (slo, shi) = st.range();
            if sat && (slo < dlo || shi > dhi) {
                clamp(l, c, x, st, dlo.max(slo), dhi.min(shi))
            } else {
                x
            }
        }
    };
    let mut out = std::mem::take(&mut l.pending);
    out.push(l.write(d, c.cast(dt, v), dt)?);
    Ok(out)
}

fn m_unsupported(inst: &Inst) -> Fail {
    Fail::unsupported(format!("the PTX instruction `{}`", inst.text))
}

/// `v` of type `t` limited to `[lo, hi]` (both within `t`'s range): `v < lo ? lo : v > hi ? hi : v`.
fn clamp(l: &mut Lowering, c: C, v: Expr, t: Ty, lo: i128, hi: i128) -> Expr {
    let (decl, x) = l.temp(t, v);
    l.pending.push(decl);
    c.tern(
        c.bin(BinOp::Lt, x.clone(), c.int(lo, t)),
        c.int(lo, t),
        c.tern(c.bin(BinOp::Gt, x.clone(), c.int(hi, t)), c.int(hi, t), x),
    )
}

/// `.sat` on a float result: clamped to [0, 1], NaN to 0 (`__saturatef`).
fn saturate(c: C, v: Expr, t: Ty, sat: bool) -> Result<Expr, Fail> {
    match (sat, t) {
        (false, _) => Ok(v),
        (true, Ty::F(32)) => Ok(c.call("__saturatef", vec![v])),
        _ => Err(Fail::unsupported(format!("`.sat` to {}", t.ptx()))),
    }
}

/// add, sub, mul, mad, fma, div, rem, min, max.
fn arith(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let op = inst.op.as_str();
    let part = m.one_of(&["lo", "hi", "wide"]);
    let rn = m.flag("rn");
    let approx = m.one_of(&["approx", "full"]).is_some();
    let ftz = m.flag("ftz");
    let t = m.ty(|t| int_or_float(t) && (!ftz || t == Ty::F(32)))?;
    m.done()?;
    if ftz && op == "rem" {
        return Err(m_unsupported(inst));
    }
    let fused = op == "mad" || op == "fma";
    let args = arity(inst, if fused { 4 } else { 3 })?;
    let float = t.is_float();
    // Floats round to nearest (`.rn`, the default of add/sub/mul); fma and mad need it
    // written, div needs `.rn` (exact) or `.approx`/`.full` (simt: also the exact quotient).
    let ok = match (float, op) {
        (true, "fma" | "mad") => rn && part.is_none() && !approx,
        (true, "div") => (rn || (approx && t == Ty::F(32))) && part.is_none(),
        (true, "add" | "sub" | "mul") => part.is_none() && !approx,
        (true, "min" | "max") => !rn && part.is_none() && !approx,
        (true, _) => false,
        (false, "mul" | "mad") => part.is_some() && !rn && !approx,
        (false, _) => part.is_none() && !rn && !approx,
    };
    if !ok {
        return Err(m_unsupported(inst));
    }
    let d = &args[0];
    // `.wide`: the product of two `t` values, twice as wide.
    let (src, dst) = match part {
        Some("wide") if t.bits() <= 32 => {
            let w = if t.is_signed() {
                Ty::S(t.bits() * 2)
            } else {
                Ty::U(t.bits() * 2)
            };
            (t, w)
        }
        Some("wide") => return Err(m_unsupported(inst)),
        _ => (t, t),
    };
    let ftz_in = |l: &mut Lowering, e| if ftz { flush(l, e) } else { e };
    let a = l.read(&args[1], src)?;
    let a = c.cast(dst, ftz_in(l, a));
    let b = l.read(&args[2], src)?;
    let b = c.cast(dst, ftz_in(l, b));
    let v = match op {
        "add" => c.bin(BinOp::Add, a, b),
        "sub" => c.bin(BinOp::Sub, a, b),
        "div" => c.bin(BinOp::Div, a, b),
        "rem" => c.bin(BinOp::Rem, a, b),
        "min" | "max" if float => {
            let f = format!("f{op}{}", if t == Ty::F(32) { "f" } else { "" });
            c.call(&f, vec![a, b])
        }
        "min" | "max" => {
            let (decl_a, x) = l.temp(t, a);
            let (decl_b, y) = l.temp(t, b);
            l.pending.extend([decl_a, decl_b]);
            let o = if op == "min" { BinOp::Lt } else { BinOp::Gt };
            c.tern(c.bin(o, x.clone(), y.clone()), x, y)
        }
        "fma" | "mad" if float => {
            let f = if t == Ty::F(32) { "fmaf" } else { "fma" };
            let addend = l.read(&args[3], t)?;
            c.call(f, vec![a, b, ftz_in(l, addend)])
        }
        _ => {
            // mul / mad on integers: the low half, the high half, or the wide product.
            let product = match part {
                Some("hi") => high(c, t, a, b)?,
                _ => c.bin(BinOp::Mul, a, b),
            };
            if op == "mad" {
                let addend = l.read(&args[3], dst)?;
                c.bin(BinOp::Add, c.cast(dst, product), addend)
            } else {
                product
            }
        }
    };
    let v = if ftz { flush(l, c.cast(t, v)) } else { v };
    let mut out = std::mem::take(&mut l.pending);
    out.push(l.write(d, c.cast(dst, v), dst)?);
    Ok(out)
}

/// `add sub mul` (`.rn`, the default) and `fma.rn` on `.f16` (a 16-bit register) and `.f16x2`
/// (two halves in a 32-bit register, each operand's low half with the others' low halves): each
/// half is `__hadd`, `__hsub`, `__hmul` or `__hfma` of its halves, rounded to nearest even once
/// (`fma`: the exact a·b + c), as `__hadd2`… compute a pair. `.ftz` and `.sat` are not run.
fn halves(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let op = inst.op.as_str();
    let rn = m.flag("rn");
    let pair = m.flag("f16x2");
    if !pair && !m.flag("f16") {
        return Err(m_unsupported(inst));
    }
    m.done()?;
    // PTX: the rounding of `fma` on halves is written (`.rn`, its only one).
    let fused = op == "fma";
    if fused && !rn {
        return Err(m_unsupported(inst));
    }
    let args = arity(inst, if fused { 4 } else { 3 })?;
    let f = match op {
        "add" => "__hadd",
        "sub" => "__hsub",
        "mul" => "__hmul",
        _ => "__hfma",
    };
    let h = Ty::F(16);
    if !pair {
        let operands = args[1..]
            .iter()
            .map(|a| l.read(a, h))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(vec![l.write(&args[0], c.call(f, operands), h)?]);
    }
    let (u, s) = (Ty::U(32), Ty::U(16));
    let mut out = Vec::new();
    let mut words = Vec::new();
    for a in &args[1..] {
        let (decl, w) = l.temp(u, l.read(a, u)?);
        out.push(decl);
        words.push(w);
    }
    let mut v: Option<Expr> = None;
    for k in 0..2 {
        let shift = c.int(16 * k, u);
        let operands = words
            .iter()
            .map(|w| c.view(c.cast(s, c.bin(BinOp::Shr, w.clone(), shift.clone())), s, h))
            .collect::<Result<Vec<_>, _>>()?;
        let bits = c.view(c.call(f, operands), h, u)?;
        let placed = c.bin(BinOp::Shl, bits, shift);
        v = Some(match v {
            Some(lo) => c.bin(BinOp::BitOr, lo, placed),
            None => placed,
        });
    }
    let v = v.expect("two halves");
    out.push(l.write(&args[0], c.cast(u, v), u)?);
    Ok(out)
}

/// `shf.l/.r.wrap/.clamp.b32 d, a, b, c`: the high (`.l`) or low (`.r`) word of the 64 bits
/// `{b, a}` (`a` the low word) shifted by `c & 31` (`.wrap`) or `min(c, 32)` (`.clamp`), as
/// the PTX ISA defines the funnel shift: CUDA's `__funnelshift_l/_lc/_r/_rc(a, b, c)`, which
/// compile to it.
fn shf(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let (Some(dir), Some(mode)) = (m.one_of(&["l", "r"]), m.one_of(&["wrap", "clamp"])) else {
        return Err(m_unsupported(inst));
    };
    m.ty(|t| t == Ty::B(32))?;
    m.done()?;
    let [d, a, b, n] = arity(inst, 4)? else {
        unreachable!()
    };
    let u = Ty::U(32);
    let f = match (dir, mode) {
        ("l", "wrap") => "__funnelshift_l",
        ("l", _) => "__funnelshift_lc",
        (_, "wrap") => "__funnelshift_r",
        _ => "__funnelshift_rc",
    };
    let v = c.call(f, vec![l.read(a, u)?, l.read(b, u)?, l.read(n, u)?]);
    Ok(vec![l.write(d, c.cast(u, v), u)?])
}

/// The high half of the double-width product of `a` and `b`.
pub(super) fn high(c: C, t: Ty, a: Expr, b: Expr) -> Result<Expr, Fail> {
    Ok(match (t.bits(), t.is_signed()) {
        (32, false) => c.call("__umulhi", vec![a, b]),
        (32, true) => c.call("__mulhi", vec![a, b]),
        (64, false) => c.call("__umul64hi", vec![a, b]),
        (64, true) => c.call("__mul64hi", vec![a, b]),
        (16, s) => {
            let w = if s { Ty::S(32) } else { Ty::U(32) };
            c.bin(
                BinOp::Shr,
                c.bin(BinOp::Mul, c.cast(w, a), c.cast(w, b)),
                c.int(16, Ty::U(32)),
            )
        }
        _ => return Err(Fail::unsupported(format!("`mul.hi` of {}", t.ptx()))),
    })
}

/// `bfe.{u,s}{32,64} d, a, pos, len`: bits `pos .. pos+len` of `a`, zero- or sign-extended
/// (PTX: pos and len are their low 8 bits; bits past the top of `a` repeat the sign, or 0).
fn bfe(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let t = m.ty(|t| matches!(t, Ty::U(32 | 64) | Ty::S(32 | 64)))?;
    m.done()?;
    let [d, a, b, n] = arity(inst, 4)? else {
        unreachable!()
    };
    let w = i128::from(t.bits());
    let u = Ty::U(32);
    let low8 = |e| c.bin(BinOp::BitAnd, e, c.int(0xff, u));
    let (da, x) = l.temp(t, l.read(a, t)?);
    let (dp, pos) = l.temp(u, low8(l.read(b, u)?));
    let (dl, len) = l.temp(u, low8(l.read(n, u)?));
    let mut out = vec![da, dp, dl];
    let v = if t.is_signed() {
        // Past the top, every bit is a's sign bit; else the `s` available bits
        // (min(len, w - pos)) moved to the top and shifted back arithmetically.
        let sign = c.bin(BinOp::Shr, x.clone(), c.int(w - 1, u));
        let avail = c.bin(BinOp::Sub, c.int(w, u), pos.clone());
        let (ds, s) = l.temp(
            u,
            c.tern(
                c.bin(BinOp::Lt, len.clone(), avail.clone()),
                len.clone(),
                avail,
            ),
        );
        out.push(ds);
        let top = c.bin(
            BinOp::Shl,
            x.clone(),
            c.bin(
                BinOp::Sub,
                c.bin(BinOp::Sub, c.int(w, u), pos.clone()),
                s.clone(),
            ),
        );
        let field = c.bin(
            BinOp::Shr,
            c.cast(t, top),
            c.bin(BinOp::Sub, c.int(w, u), s),
        );
        c.tern(
            c.bin(BinOp::Eq, len, c.int(0, u)),
            c.int(0, t),
            c.tern(c.bin(BinOp::Ge, pos, c.int(w, u)), sign, field),
        )
    } else {
        // A shift by the width or more gives 0 in simt as in PTX: `pos` past the top leaves
        // nothing, `len` of the width or more keeps every bit, `len` 0 none.
        let mask = c.bin(BinOp::Sub, c.bin(BinOp::Shl, c.int(1, t), len), c.int(1, t));
        c.bin(BinOp::BitAnd, c.bin(BinOp::Shr, x, pos), mask)
    };
    out.push(l.write(d, c.cast(t, v), t)?);
    Ok(out)
}

/// `bfi.b{32,64} d, f, b, pos, len`: `b` with bits `pos .. pos+len` replaced by the low bits of
/// `f` (none past the top; pos and len are their low 8 bits).
fn bfi(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let t = m.ty(|t| matches!(t, Ty::B(32 | 64)))?;
    m.done()?;
    let [d, f, b, p, n] = arity(inst, 5)? else {
        unreachable!()
    };
    let u = Ty::U(32);
    let low8 = |e| c.bin(BinOp::BitAnd, e, c.int(0xff, u));
    let (df, fv) = l.temp(t, l.read(f, t)?);
    let (db, bv) = l.temp(t, l.read(b, t)?);
    let (dp, pos) = l.temp(u, low8(l.read(p, u)?));
    let (dl, len) = l.temp(u, low8(l.read(n, u)?));
    // simt's shifts are PTX's: by the width or more, `<<` gives 0, so a `len` of the width or
    // more makes the mask all ones and a `pos` past the top makes it empty.
    let ones = c.bin(BinOp::Sub, c.bin(BinOp::Shl, c.int(1, t), len), c.int(1, t));
    let (dm, mask) = l.temp(t, c.cast(t, c.bin(BinOp::Shl, ones, pos.clone())));
    let v = c.bin(
        BinOp::BitOr,
        c.bin(BinOp::BitAnd, bv, c.un(UnOp::BitNot, mask.clone())),
        c.bin(BinOp::BitAnd, c.bin(BinOp::Shl, fv, pos), mask),
    );
    Ok(vec![df, db, dp, dl, dm, l.write(d, c.cast(t, v), t)?])
}

/// `prmt.b32 d, a, b, c`: byte `i` of `d` is byte `s & 7` of `{b, a}` (a the low four),
/// or that byte's sign (0x00 / 0xff) where `s & 8`, with `s` the `i`-th nibble of `c`.
fn prmt(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    if m.ty(|t| t == Ty::B(32)).is_err() {
        return Err(m_unsupported(inst));
    }
    m.done()?;
    let [d, a, b, s] = arity(inst, 4)? else {
        unreachable!()
    };
    let (u, q) = (Ty::U(32), Ty::U(64));
    let both = c.bin(
        BinOp::BitOr,
        c.cast(q, l.read(a, u)?),
        c.bin(BinOp::Shl, c.cast(q, l.read(b, u)?), c.int(32, u)),
    );
    let (d8, bytes) = l.temp(q, both);
    let (ds, sel) = l.temp(u, l.read(s, u)?);
    let mut out = vec![d8, ds];
    let mut v = c.int(0, u);
    for i in 0..4 {
        let nib = c.bin(
            BinOp::BitAnd,
            c.bin(BinOp::Shr, sel.clone(), c.int(4 * i, u)),
            c.int(0xf, u),
        );
        let (dn, n) = l.temp(u, nib);
        let byte = c.cast(
            u,
            c.bin(
                BinOp::BitAnd,
                c.bin(
                    BinOp::Shr,
                    bytes.clone(),
                    c.bin(
                        BinOp::Mul,
                        c.bin(BinOp::BitAnd, n.clone(), c.int(7, u)),
                        c.int(8, u),
                    ),
                ),
                c.int(0xff, q),
            ),
        );
        let (db, byte) = l.temp(u, byte);
        let sign = c.bin(
            BinOp::Mul,
            c.bin(BinOp::Shr, byte.clone(), c.int(7, u)),
            c.int(0xff, u),
        );
        let chosen = c.tern(
            c.bin(BinOp::Ne, c.bin(BinOp::BitAnd, n, c.int(8, u)), c.int(0, u)),
            sign,
            byte,
        );
        out.extend([dn, db]);
        v = c.bin(BinOp::BitOr, v, c.bin(BinOp::Shl, chosen, c.int(8 * i, u)));
    }
    out.push(l.write(d, c.cast(u, v), u)?);
    Ok(out)
}

/// `lop3.b32 d, a, b, c, lut`: the function of three inputs whose truth table is `lut`, with
/// `a` = 0xF0, `b` = 0xCC, `c` = 0xAA (PTX ISA): the OR of the minterms `lut` sets.
fn lop3(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    if m.ty(|t| t == Ty::B(32)).is_err() {
        return Err(m_unsupported(inst));
    }
    m.done()?;
    let [d, a, b, x, lut] = arity(inst, 5)? else {
        unreachable!()
    };
    let u = Ty::U(32);
    let (da, va) = l.temp(u, l.read(a, u)?);
    let (db, vb) = l.temp(u, l.read(b, u)?);
    let (dc, vc) = l.temp(u, l.read(x, u)?);
    let lut = match l.constant(lut) {
        Some(v) if (0..=255).contains(&v) => v as u8,
        Some(_) => {
            return Err(Fail::invalid(format!(
                "the truth table of `{}` is not a number from 0 to 255",
                inst.text
            )))
        }
        None => {
            // A table simt cannot read here (`"n"(LUT)` of a template parameter): every
            // minterm, each kept where its bit of the table is set.
            let (dt, table) = l.temp(u, l.read(lut, u)?);
            let mut v = c.int(0, u);
            for k in 0..8u32 {
                let on = c.bin(
                    BinOp::BitAnd,
                    c.bin(BinOp::Shr, table.clone(), c.int(i128::from(k), u)),
                    c.int(1, u),
                );
                let term = c.bin(
                    BinOp::BitAnd,
                    c.bin(
                        BinOp::BitAnd,
                        minterm_part(c, &va, k & 4 != 0),
                        minterm_part(c, &vb, k & 2 != 0),
                    ),
                    minterm_part(c, &vc, k & 1 != 0),
                );
                let kept = c.bin(BinOp::BitAnd, c.cast(u, c.un(UnOp::Neg, on)), term);
                v = c.bin(BinOp::BitOr, v, kept);
            }
            return Ok(vec![da, db, dc, dt, l.write(d, c.cast(u, v), u)?]);
        }
    };
    let lit = |v: &Expr, on: bool| minterm_part(c, v, on);
    let mut v: Option<Expr> = None;
    for k in 0..8u8 {
        if lut & (1 << k) == 0 {
            continue;
        }
        let term = c.bin(
            BinOp::BitAnd,
            c.bin(BinOp::BitAnd, lit(&va, k & 4 != 0), lit(&vb, k & 2 != 0)),
            lit(&vc, k & 1 != 0),
        );
        v = Some(match v {
            Some(e) => c.bin(BinOp::BitOr, e, term),
            None => term,
        });
    }
    let v = v.unwrap_or_else(|| c.int(0, u));
    Ok(vec![da, db, dc, l.write(d, c.cast(u, v), u)?])
}

/// `v` or `~v`: one input's part of a minterm.
fn minterm_part(c: C, v: &Expr, on: bool) -> Expr {
    if on {
        v.clone()
    } else {
        c.un(UnOp::BitNot, v.clone())
    }
}

/// `setp.cmp.t p, a, b`: integer comparisons (`lo ls hi hs` unsigned), float comparisons
/// ordered (false with a NaN) or unordered (`equ`... true with a NaN), `num` and `nan`.
fn setp(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let cmp = m
        .one_of(&[
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
            "gtu", "geu", "num", "nan",
        ])
        .ok_or_else(|| m.unsupported())?;
    let t = m.ty(int_or_float)?;
    m.done()?;
    let [p, a, b] = arity(inst, 3)? else {
        unreachable!()
    };
    let float = t.is_float();
    // `lo ls hi hs` compare integers unsigned; `equ … geu`, `num`, `nan` are float-only;
    // `.b` types compare for equality only.
    let unsigned_cmp = matches!(cmp, "lo" | "ls" | "hi" | "hs");
    let float_only = cmp.len() == 3 && !unsigned_cmp;
    if (matches!(t, Ty::B(_)) && !matches!(cmp, "eq" | "ne"))
        || (float && unsigned_cmp)
        || (!float && float_only)
    {
        return Err(m_unsupported(inst));
    }
    let t = if unsigned_cmp { Ty::U(t.bits()) } else { t };
    let (da, x) = l.temp(t, l.read(a, t)?);
    let (db, y) = l.temp(t, l.read(b, t)?);
    let cmp2 = |o, x: &Expr, y: &Expr| c.bin(o, x.clone(), y.clone());
    let nan = |x: &Expr| cmp2(BinOp::Ne, x, x);
    let either_nan = || c.bin(BinOp::Or, nan(&x), nan(&y));
    let base = |s: &str| match s {
        "eq" => BinOp::Eq,
        "ne" => BinOp::Ne,
        "lt" | "lo" => BinOp::Lt,
        "le" | "ls" => BinOp::Le,
        "gt" | "hi" => BinOp::Gt,
        _ => BinOp::Ge,
    };
    let v = match cmp {
        // C's != is true with a NaN; PTX's ordered ne is not.
        "ne" if float => c.bin(BinOp::Or, cmp2(BinOp::Lt, &x, &y), cmp2(BinOp::Gt, &x, &y)),
        "num" => c.un(UnOp::Not, either_nan()),
        "nan" => either_nan(),
        _ if float_only => c.bin(BinOp::Or, either_nan(), cmp2(base(&cmp[..2]), &x, &y)),
        _ => cmp2(base(cmp), &x, &y),
    };
    Ok(vec![da, db, l.write(p, v, Ty::Pred)?])
}

/// `shfl.sync.mode.b32 d, a, b, c, mask`: `__shfl{,_up,_down,_xor}_sync(mask, a, b, width)`,
/// with `c` the constant CUDA passes for a width (`((32 - width) << 8) | clamp`).
fn shfl(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    // The pre-Volta `shfl` (surfelwarp's warp scan) acts on the whole warp: `.sync` with a
    // full mask, as `__shfl_up` runs.
    let sync = m.flag("sync");
    let mode = m
        .one_of(&["up", "down", "bfly", "idx"])
        .ok_or_else(|| m.unsupported())?;
    m.ty(|t| t == Ty::B(32))?;
    m.done()?;
    let u = Ty::U(32);
    let (d, a, b, cc, mask) = if sync {
        let [d, a, b, cc, mask] = arity(inst, 5)? else {
            unreachable!()
        };
        (d, a, b, cc, l.read(mask, u)?)
    } else {
        let [d, a, b, cc] = arity(inst, 4)? else {
            unreachable!()
        };
        (d, a, b, cc, c.int(0xffff_ffff, u))
    };
    let Some(packed) = l.constant(cc) else {
        return Err(Fail::unsupported(format!(
            "the lane control of `{}` in a register (simt needs the constant CUDA writes, e.g. 0x1f)",
            inst.text
        )));
    };
    let clamp = if mode == "up" { 0 } else { 0x1f };
    let seg = packed >> 8;
    let width = 32 - seg;
    if packed & 0xff != clamp || !(0..32).contains(&seg) || !(width as u32).is_power_of_two() {
        return Err(Fail::unsupported(format!(
            "the lane control {packed:#x} of `{}` (simt runs what __shfl*_sync compiles to: ((32 - width) << 8) | {clamp:#x}, width a power of two)",
            inst.text
        )));
    }
    let f = match mode {
        "up" => "__shfl_up_sync",
        "down" => "__shfl_down_sync",
        "bfly" => "__shfl_xor_sync",
        _ => "__shfl_sync",
    };
    let (db, delta) = l.temp(u, l.read(b, u)?);
    let v = c.call(
        f,
        vec![
            mask,
            l.read(a, u)?,
            c.cast(Ty::S(32), delta.clone()),
            c.int(width, Ty::S(32)),
        ],
    );
    let mut out = vec![db];
    let (d, p) = match d {
        Arg::Pair(d, p) => (d.as_ref(), Some(p.as_ref())),
        d => (d, None),
    };
    out.push(l.write(d, c.cast(u, v), u)?);
    if let Some(p) = p {
        // Whether the source lane is in the segment (PTX ISA, "shfl.sync"): j = lane - b at
        // least the segment's first lane for `up`; j = lane + b or lane ^ b at most its last
        // otherwise; `idx` is always in range.
        let s = Ty::S(32);
        let lane = l.read(&Arg::Name("%laneid".into()), u)?;
        let (dl, lane) = l.temp(s, c.cast(s, lane));
        out.push(dl);
        let first = c.bin(BinOp::BitAnd, lane.clone(), c.int(seg, s));
        let last = c.bin(BinOp::BitOr, first.clone(), c.int(0x1f & !seg, s));
        let delta = c.cast(s, delta);
        let inside = match mode {
            "up" => c.bin(BinOp::Ge, c.bin(BinOp::Sub, lane, delta), first),
            "down" => c.bin(BinOp::Le, c.bin(BinOp::Add, lane, delta), last),
            "bfly" => c.bin(BinOp::Le, c.bin(BinOp::BitXor, lane, delta), last),
            _ => c.int(1, Ty::Pred),
        };
        out.push(l.write(p, inside, Ty::Pred)?);
    }
    Ok(out)
}

/// `ld` / `st` (`.global`, `.shared`, `.local` or generic; cache hints; `.v2` / `.v4`): an
/// ordinary access through the pointer the operand passes, a vector type for a vector.
fn memory(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let load = inst.op != "st";
    let shared = m.one_of(&["global", "shared", "local", "const"]) == Some("shared");
    m.one_of(&["weak", "volatile", "relaxed"]);
    m.flag("cta");
    m.flag("gpu");
    if load {
        m.flag("nc");
        m.one_of(&["ca", "cg", "cs", "lu", "cv"]);
    } else {
        m.one_of(&["wb", "cg", "cs", "wt"]);
    }
    // Eviction priorities and prefetch sizes (PTX ISA 7.4+) change no value.
    m.one_of(&[
        "L1::evict_normal",
        "L1::evict_unchanged",
        "L1::evict_first",
        "L1::evict_last",
        "L1::no_allocate",
    ]);
    m.one_of(&["L2::evict_normal", "L2::evict_first", "L2::evict_last"]);
    m.one_of(&["L2::64B", "L2::128B", "L2::256B"]);
    let hint = m.flag("L2::cache_hint");
    let n = match m.one_of(&["v2", "v4"]) {
        Some("v2") => 2,
        Some(_) => 4,
        None => 1,
    };
    let t = m.ty(|t| t != Ty::Pred && t != Ty::F(16))?;
    m.done()?;
    // `.L2::cache_hint` takes the cache policy as a last operand, which only guides the cache.
    let args = match (hint, &inst.args[..]) {
        (true, [a, b, _policy]) => [a.clone(), b.clone()],
        (false, [a, b]) => [a.clone(), b.clone()],
        _ => {
            return Err(Fail::invalid(format!(
                "the PTX instruction `{}` takes {} operands, found {}",
                inst.text,
                2 + usize::from(hint),
                inst.args.len()
            )))
        }
    };
    let [first, second] = &args;
    let (addr, data) = if load {
        (second, first)
    } else {
        (first, second)
    };
    let Arg::Address(base, offset) = addr else {
        return Err(Fail::invalid(format!(
            "`{}` has no [address] operand",
            inst.text
        )));
    };
    let elem = match n {
        1 => c.ty(t),
        _ => {
            let name = vector_name(t, n).ok_or_else(|| m_unsupported(inst))?;
            c.type_named(crate::syntax::ast::BaseType::Vector, &name)
        }
    };
    let size = i64::from(t.bits() / 8) * n as i64;
    if offset % size != 0 {
        return Err(Fail::unsupported(format!(
            "the offset {offset} in `{}`, not a multiple of the {size}-byte access",
            inst.text
        )));
    }
    let mut ptr = elem.clone();
    ptr.pointer = true;
    ptr.is_const = load;
    let target = c.e(ExprKind::Index {
        base: Box::new(c.cast_to(ptr, l.address(base, shared)?)),
        index: Box::new(c.e(ExprKind::Int {
            value: offset.unsigned_abs() / size as u64,
            unsigned: false,
            long: true,
            hex: false,
        })),
    });
    let target = if *offset < 0 {
        let Expr { kind, .. } = target;
        let ExprKind::Index { base, index } = kind else {
            unreachable!()
        };
        c.e(ExprKind::Index {
            base,
            index: Box::new(c.un(UnOp::Neg, *index)),
        })
    } else {
        target
    };
    let parts: Vec<&Arg> = match (n, data) {
        (1, Arg::Vector(_)) => {
            return Err(Fail::invalid(format!(
                "`{}` moves a vector without .v2/.v4",
                inst.text
            )))
        }
        (1, a) => vec![a],
        (_, Arg::Vector(list)) if list.len() == n => list.iter().collect(),
        _ => {
            return Err(Fail::invalid(format!(
                "`{}` needs a vector of {n} registers",
                inst.text
            )))
        }
    };
    let fields = ["x", "y", "z", "w"];
    if load {
        if n == 1 {
            return Ok(vec![l.write(parts[0], target, t)?]);
        }
        let (decl, v) = l.temp_of(elem, target);
        let mut out = vec![decl];
        for (k, p) in parts.iter().enumerate() {
            out.push(l.write(p, c.member(v.clone(), fields[k]), t)?);
        }
        Ok(out)
    } else {
        if n == 1 {
            return Ok(vec![c.assign(target, l.read(parts[0], t)?)]);
        }
        let name = vector_name(t, n).expect("checked above");
        let values = parts
            .iter()
            .map(|p| l.read(p, t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(vec![
            c.assign(target, c.call(&format!("make_{name}"), values))
        ])
    }
}

/// ex2, rcp, sqrt, rsqrt, tanh, lg2, sin, cos on `float` (rcp and sqrt also `.rn` on both
/// float types): the C math function's value, which for `.approx` may differ from the
/// hardware's approximation in the last bits.
fn approx(l: &mut Lowering, inst: &Inst, mut m: Mods<'_>) -> Result<Vec<Stmt>, Fail> {
    let c = l.c;
    let op = inst.op.as_str();
    let approx = m.flag("approx");
    let rn = !approx && m.flag("rn");
    let ftz = m.flag("ftz");
    let t = m.ty(|t| t == Ty::F(32) || (t == Ty::F(64) && rn && !ftz))?;
    m.done()?;
    let exact_ok = matches!(op, "rcp" | "sqrt");
    if !(approx || (rn && exact_ok)) {
        return Err(m_unsupported(inst));
    }
    let [d, a] = arity(inst, 2)? else {
        unreachable!()
    };
    let x = l.read(a, t)?;
    let x = if ftz { flush(l, x) } else { x };
    let suffix = if t == Ty::F(32) { "f" } else { "" };
    let v = match op {
        "rcp" => c.bin(BinOp::Div, c.float(1.0, t), x),
        "ex2" => c.call("exp2f", vec![x]),
        "lg2" => c.call("log2f", vec![x]),
        "rsqrt" => c.call("rsqrtf", vec![x]),
        other => c.call(&format!("{other}{suffix}"), vec![x]),
    };
    let v = if ftz { flush(l, v) } else { v };
    let mut out = std::mem::take(&mut l.pending);
    out.push(l.write(d, c.cast(t, v), t)?);
    Ok(out)
}

/// `.ftz`: a subnormal `float` is read and written as a zero of its sign
/// (`fabsf(x) < FLT_MIN ? copysignf(0, x) : x`; NaN stays NaN).
fn flush(l: &mut Lowering, e: Expr) -> Expr {
    let c = l.c;
    let f = Ty::F(32);
    let (decl, x) = l.temp(f, e);
    l.pending.push(decl);
    c.tern(
        c.bin(
            BinOp::Lt,
            c.call("fabsf", vec![x.clone()]),
            c.float(f64::from(f32::MIN_POSITIVE), f),
        ),
        c.call("copysignf", vec![c.float(0.0, f), x.clone()]),
        x,
    )
}
