//! Which registers an instruction reads and writes, each with its bank: the dependences the
//! time model's memory-level parallelism follows (`exec::rounds`).

use super::{bank_of, Bank, Inst, KernelIr, Reg};

impl Inst {
    /// Calls `f` with every register the instruction reads (operands, index, predicate, branch
    /// condition, `printf` arguments and `mma_sync` operands from `ir`'s tables).
    pub fn reads(&self, ir: &KernelIr, f: &mut (impl FnMut(Bank, Reg) + ?Sized)) {
        let b = bank_of;
        match *self {
            Inst::Arith { ty, a, b: r, .. } | Inst::Math2 { ty, a, b: r, .. } => {
                f(b(ty), a);
                f(b(ty), r);
            }
            Inst::Cmp { ty, a, b: r, .. } => {
                f(b(ty), a);
                f(b(ty), r);
            }
            Inst::Neg { ty, a, .. }
            | Inst::BitNot { ty, a, .. }
            | Inst::Abs { ty, a, .. }
            | Inst::Math1 { ty, a, .. }
            | Inst::Mov { ty, a, .. } => f(b(ty), a),
            Inst::Not { a, .. } => f(Bank::B, a),
            Inst::Logic { a, b: r, .. } => {
                f(Bank::B, a);
                f(Bank::B, r);
            }
            Inst::Cast { from, a, .. }
            | Inst::Round { from, a, .. }
            | Inst::Directed { from, a, .. }
            | Inst::Bits { from, a, .. }
            | Inst::View { from, a, .. }
            | Inst::Unpack { from, a, .. } => f(b(from), a),
            Inst::Select { ty, c, a, b: r, .. } => {
                f(Bank::B, c);
                f(b(ty), a);
                f(b(ty), r);
            }
            Inst::Rounded { op, ty, a, .. } => {
                a[..op.arity()].iter().for_each(|&r| f(b(ty), r));
            }
            Inst::Fma { ty, a, b: r, c, .. } => {
                f(b(ty), a);
                f(b(ty), r);
                f(b(ty), c);
            }
            Inst::Xorwow { v, n, .. } => {
                v.iter().for_each(|&r| f(Bank::W, r));
                f(Bank::D, n);
            }
            Inst::Pack { from, n, a, .. } => {
                a[..usize::from(n)].iter().for_each(|&r| f(b(from), r));
            }
            Inst::Widen { a, .. } => f(Bank::W, a),
            Inst::Rescale { a, .. } => f(Bank::D, a),
            Inst::Load { idx, idx_ty, .. } | Inst::LoadVec { idx, idx_ty, .. } => {
                f(b(idx_ty), idx);
            }
            Inst::Store {
                elem,
                idx,
                idx_ty,
                v,
                ..
            } => {
                f(b(idx_ty), idx);
                f(b(elem), v);
            }
            Inst::StoreVec {
                elem,
                width,
                idx,
                idx_ty,
                v,
                ..
            } => {
                f(b(idx_ty), idx);
                v[..usize::from(width)].iter().for_each(|&r| f(b(elem), r));
            }
            Inst::BarrierVote { pred, .. } => f(Bank::B, pred),
            Inst::Tex {
                fetch,
                handle,
                coords,
                ..
            } => {
                f(Bank::D, handle);
                let coord = match fetch {
                    crate::texture::Fetch::Index => Bank::W,
                    crate::texture::Fetch::Coords(_) => Bank::F,
                };
                coords.iter().for_each(|&r| f(coord, r));
            }
            Inst::Shfl {
                ty,
                v,
                arg,
                width,
                mask,
                ..
            } => {
                f(b(ty), v);
                f(Bank::W, arg);
                f(Bank::W, width);
                f(Bank::W, mask);
            }
            Inst::Vote { pred, mask, .. } => {
                f(Bank::B, pred);
                f(Bank::W, mask);
            }
            Inst::SyncWarp { mask } => f(Bank::W, mask),
            Inst::BarrierCheck { id, count } => {
                f(Bank::W, id);
                if let Some(c) = count {
                    f(Bank::W, c);
                }
            }
            Inst::Disjoint { a, b: r, n, .. } => {
                f(Bank::D, a);
                f(Bank::D, r);
                f(Bank::D, n);
            }
            Inst::Bits3 { a, b: r, c, .. } => {
                f(Bank::W, a);
                f(Bank::W, r);
                f(Bank::W, c);
            }
            Inst::WarpFold { ty, v, mask, .. } => {
                f(b(ty), v);
                f(Bank::W, mask);
            }
            Inst::Collective { tile, .. } => {
                if let Some((ptr, ldm)) = tile {
                    f(Bank::D, ptr);
                    f(Bank::D, ldm);
                }
            }
            Inst::Mma { id } => {
                if let Some(m) = ir.mmas.get(id as usize) {
                    m.a.iter().chain(&m.b).for_each(|&r| f(b(m.op.input), r));
                    m.c.iter().for_each(|&r| f(b(m.op.c), r));
                }
            }
            Inst::Assert { c, .. }
            | Inst::If { c, .. }
            | Inst::Else { c, .. }
            | Inst::LoopTest { c, .. }
            | Inst::MaskPush { c, .. } => f(Bank::B, c),
            Inst::Printf { id } => {
                if let Some(p) = ir.printfs.get(id as usize) {
                    p.args.iter().for_each(|&(r, ty)| f(b(ty), r));
                }
            }
            Inst::Async { id } => match ir.asyncs.get(id as usize) {
                Some(crate::ir::AsyncIr::Init { count, .. }) => f(Bank::W, *count),
                Some(crate::ir::AsyncIr::Wait { token, .. }) => f(Bank::D, *token),
                _ => {}
            },
            Inst::AsyncOpen { .. } | Inst::AsyncClose => {}
            Inst::Atomic {
                elem,
                width,
                idx,
                idx_ty,
                v,
                cmp,
                ..
            } => {
                f(b(idx_ty), idx);
                v[..usize::from(width)].iter().for_each(|&r| f(b(elem), r));
                if let Some(c) = cmp {
                    f(b(elem), c);
                }
            }
            Inst::Barrier
            | Inst::GridSync
            | Inst::ActiveMask { .. }
            | Inst::Clock { .. }
            | Inst::Trap
            | Inst::Fault { .. }
            | Inst::FnBegin
            | Inst::FnEnd
            | Inst::ReturnFn { .. }
            | Inst::EndIf
            | Inst::LoopBegin
            | Inst::LoopContinue
            | Inst::LoopBack { .. }
            | Inst::LoopEnd
            | Inst::MaskPop
            | Inst::Break { .. }
            | Inst::Continue { .. }
            | Inst::Return { .. } => {}
        }
    }

    /// Calls `f` with every register the instruction writes (`mma_sync`'s from `ir`'s table).
    pub fn writes(&self, ir: &KernelIr, f: &mut (impl FnMut(Bank, Reg) + ?Sized)) {
        let b = bank_of;
        match *self {
            Inst::Arith { ty, d, .. }
            | Inst::Neg { ty, d, .. }
            | Inst::BitNot { ty, d, .. }
            | Inst::Abs { ty, d, .. }
            | Inst::Math1 { ty, d, .. }
            | Inst::Math2 { ty, d, .. }
            | Inst::Fma { ty, d, .. }
            | Inst::Rounded { ty, d, .. }
            | Inst::Select { ty, d, .. }
            | Inst::Mov { ty, d, .. }
            | Inst::Bits { ty, d, .. }
            | Inst::Tex { ty, d, .. }
            | Inst::Shfl { ty, d, .. } => f(b(ty), d),
            Inst::Cmp { d, .. } | Inst::Not { d, .. } | Inst::Logic { d, .. } => f(Bank::B, d),
            Inst::Cast { to, d, .. }
            | Inst::Round { to, d, .. }
            | Inst::Directed { to, d, .. }
            | Inst::View { to, d, .. }
            | Inst::Pack { to, d, .. } => f(b(to), d),
            Inst::Unpack { to, n, d, .. } => {
                d[..usize::from(n)].iter().for_each(|&r| f(b(to), r));
            }
            Inst::Mma { id } => {
                if let Some(m) = ir.mmas.get(id as usize) {
                    m.d.iter().for_each(|&r| f(b(m.op.d), r));
                }
            }
            Inst::Async { id } => {
                if let Some(crate::ir::AsyncIr::Arrive { token, .. }) = ir.asyncs.get(id as usize) {
                    f(Bank::D, *token);
                }
            }
            Inst::AsyncOpen { .. } | Inst::AsyncClose => {}
            Inst::Xorwow { d, .. }
            | Inst::Bits3 { d, .. }
            | Inst::WarpFold { d, .. }
            | Inst::BarrierVote { d, .. }
            | Inst::Vote { d, .. }
            | Inst::ActiveMask { d } => f(Bank::W, d),
            Inst::Widen { d, .. } | Inst::Rescale { d, .. } | Inst::Clock { d } => f(Bank::D, d),
            Inst::Load { elem, d, .. } => f(b(elem), d),
            Inst::LoadVec { elem, width, d, .. } => {
                d[..usize::from(width)].iter().for_each(|&r| f(b(elem), r));
            }
            Inst::Atomic { elem, width, d, .. } => {
                d[..usize::from(width)].iter().for_each(|&r| f(b(elem), r));
            }
            Inst::Store { .. }
            | Inst::StoreVec { .. }
            | Inst::Barrier
            | Inst::BarrierCheck { .. }
            | Inst::GridSync
            | Inst::SyncWarp { .. }
            | Inst::Assert { .. }
            | Inst::Collective { .. }
            | Inst::Disjoint { .. }
            | Inst::Trap
            | Inst::Fault { .. }
            | Inst::Printf { .. }
            | Inst::FnBegin
            | Inst::FnEnd
            | Inst::ReturnFn { .. }
            | Inst::If { .. }
            | Inst::Else { .. }
            | Inst::EndIf
            | Inst::LoopBegin
            | Inst::LoopTest { .. }
            | Inst::LoopContinue
            | Inst::LoopBack { .. }
            | Inst::LoopEnd
            | Inst::MaskPush { .. }
            | Inst::MaskPop
            | Inst::Break { .. }
            | Inst::Continue { .. }
            | Inst::Return { .. } => {}
        }
    }
}

/// The bank index of a bank, for per-bank tables.
pub fn bank_index(bank: Bank) -> usize {
    match bank {
        Bank::B => 0,
        Bank::W => 1,
        Bank::D => 2,
        Bank::F => 3,
        Bank::G => 4,
    }
}
