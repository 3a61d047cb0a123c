//! Typed program → instruction list: registers, structured control flow as mask operations.

use std::collections::HashMap;

use super::fold::Folding;
use super::*;
use crate::check::typed::{self, Builtin, ExprKind, Func, ParamKind, StmtKind};

/// Lowers one checked kernel. Infallible: the checker has rejected everything that cannot run.
pub fn lower(kernel: &typed::Kernel) -> KernelIr {
    let mut l = Lowerer::new(kernel);
    l.prepare(kernel);
    for s in &kernel.body {
        l.stmt(s);
    }
    l.finish(kernel)
}

/// Per-bank register allocation: permanent registers first, then statement-scoped temporaries.
#[derive(Clone, Copy, Default)]
struct Alloc {
    next: [u32; 5],
    max: [u32; 5],
}

fn bank_index(b: Bank) -> usize {
    match b {
        Bank::B => 0,
        Bank::W => 1,
        Bank::D => 2,
        Bank::F => 3,
        Bank::G => 4,
    }
}

impl Alloc {
    fn take(&mut self, ty: Scalar) -> Reg {
        let i = bank_index(bank_of(ty));
        let r = self.next[i];
        self.next[i] += 1;
        self.max[i] = self.max[i].max(self.next[i]);
        Reg(r)
    }
}

/// A forward jump target, patched when its instruction is emitted.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Label(usize);

struct Lowerer<'k> {
    /// The kernel being lowered (its arrays' element types).
    kernel: &'k typed::Kernel,
    insts: Vec<Inst>,
    spans: Vec<Span>,
    alloc: Alloc,
    vars: Vec<Reg>,
    consts: HashMap<(Scalar, u64), Reg>,
    builtins: HashMap<Builtin, Reg>,
    /// The register of each pointer parameter's offset (`ParamBase`).
    bases: HashMap<u32, Reg>,
    /// The register of each pointer parameter's byte address (`ParamAddress`).
    addresses: HashMap<u32, Reg>,
    /// Each `printf` call's format and argument registers.
    printfs: Vec<PrintfIr>,
    /// What each `Fault` instruction reports.
    faults: Vec<typed::Fault>,
    mmas: Vec<crate::ir::MmaIr>,
    asyncs: Vec<crate::ir::AsyncIr>,
    inputs: Vec<(Reg, Scalar, Input)>,
    /// Label targets (`None` until placed) and the instructions waiting for them.
    labels: Vec<Option<u32>>,
    fixups: Vec<(usize, Label)>,
    /// Where a lane set that empties inside the current construct should jump (innermost last).
    joins: Vec<Label>,
    /// The register holding the index of the store being lowered (for `a[i] += v`).
    store_index: Option<(Reg, Scalar)>,
    /// The register the store being lowered read its element's old value into (`a[i] += v`),
    /// with its type.
    loaded_at_store: Option<(Reg, Scalar)>,
    /// See [`KernelIr::compound`].
    compound: Vec<Option<CompoundStore>>,
    /// What the compiler folds away, and per instruction whether it is folded.
    fold: Folding<'k>,
    folded: Vec<bool>,
    /// Per instruction, the machine instructions it compiles to ([`KernelIr::machine`]).
    machine: Vec<u8>,
    /// The calls whose `return` is the kernel's exit ([`typed::Kernel::exiting_calls`]).
    exiting: std::collections::HashSet<*const typed::Stmt>,
    /// Per inlined function being lowered (innermost last), whether its `return` exits.
    exits: Vec<bool>,
    /// The elements some `atomicCAS` swaps ([`super::validated`]), and per instruction whether
    /// it is a load of one.
    swapped: std::collections::HashSet<String>,
    relaxed: Vec<bool>,
    /// See [`KernelIr::copies`].
    copies: Vec<bool>,
}

/// A key that tells constants apart by type and bits (so `0.0` and `-0.0` differ).
fn const_key(v: Value) -> (Scalar, u64) {
    let bits = match v {
        Value::Bool(b) => u64::from(b),
        Value::I32(x) => x as u32 as u64,
        Value::U32(x) => u64::from(x),
        Value::I64(x) => x as u64,
        Value::U64(x) => x,
        Value::F32(x) => u64::from(x.to_bits()),
        Value::F64(x) => x.to_bits(),
    };
    (v.ty(), bits)
}

impl<'k> Lowerer<'k> {
    fn new(kernel: &'k typed::Kernel) -> Lowerer<'k> {
        Lowerer {
            kernel,
            insts: Vec::new(),
            spans: Vec::new(),
            alloc: Alloc::default(),
            vars: Vec::new(),
            consts: HashMap::new(),
            builtins: HashMap::new(),
            bases: HashMap::new(),
            addresses: HashMap::new(),
            printfs: Vec::new(),
            faults: Vec::new(),
            mmas: Vec::new(),
            asyncs: Vec::new(),
            inputs: Vec::new(),
            labels: Vec::new(),
            fixups: Vec::new(),
            joins: Vec::new(),
            store_index: None,
            loaded_at_store: None,
            compound: Vec::new(),
            fold: Folding::new(&kernel.body),
            folded: Vec::new(),
            machine: Vec::new(),
            exiting: kernel.exiting_calls(),
            exits: Vec::new(),
            swapped: std::collections::HashSet::new(),
            relaxed: Vec::new(),
            copies: Vec::new(),
        }
    }

    /// Allocates permanent registers: locals, parameters, constants and built-ins.
    fn prepare(&mut self, kernel: &typed::Kernel) {
        for local in &kernel.locals {
            let r = self.alloc.take(local.declared);
            self.vars.push(r);
        }
        for (i, p) in kernel.params.iter().enumerate() {
            if let ParamKind::Scalar { ty, var } = p.kind {
                self.inputs.push((
                    self.vars[var.0 as usize],
                    ty.promoted(),
                    Input::Param(i as u32),
                ));
            }
        }
        let mut needs = Needs::default();
        for s in &kernel.body {
            collect_stmt(s, &mut needs);
        }
        self.swapped = needs.swapped;
        for p in needs.bases {
            if !self.bases.contains_key(&p) {
                let r = self.alloc.take(Scalar::I64);
                self.bases.insert(p, r);
                self.inputs.push((r, Scalar::I64, Input::ParamBase(p)));
            }
        }
        for p in needs.addresses {
            if !self.addresses.contains_key(&p) {
                let r = self.alloc.take(Scalar::U64);
                self.addresses.insert(p, r);
                self.inputs.push((r, Scalar::U64, Input::ParamAddress(p)));
            }
        }
        for v in needs.consts {
            let key = const_key(v);
            if !self.consts.contains_key(&key) {
                let r = self.alloc.take(v.ty());
                self.consts.insert(key, r);
                self.inputs.push((r, v.ty(), Input::Const(v)));
            }
        }
        for b in needs.builtins {
            if !self.builtins.contains_key(&b) {
                let r = self.alloc.take(Scalar::U32);
                self.builtins.insert(b, r);
                let input = match b {
                    Builtin::ThreadIdx(a) => Input::ThreadIdx(a),
                    Builtin::BlockIdx(a) => Input::BlockIdx(a),
                    Builtin::BlockDim(a) => Input::BlockDim(a),
                    Builtin::GridDim(a) => Input::GridDim(a),
                    Builtin::Cooperative => Input::Cooperative,
                };
                self.inputs.push((r, Scalar::U32, input));
            }
        }
    }

    fn finish(mut self, kernel: &typed::Kernel) -> KernelIr {
        for (at, label) in std::mem::take(&mut self.fixups) {
            let target = self.labels[label.0].expect("lower: every label is placed");
            match &mut self.insts[at] {
                Inst::If { else_at: t, .. }
                | Inst::Else { end_at: t, .. }
                | Inst::LoopTest { exit_at: t, .. }
                | Inst::MaskPush { skip_to: t, .. }
                | Inst::Break { skip_to: t }
                | Inst::Continue { skip_to: t }
                | Inst::Return { skip_to: t }
                | Inst::ReturnFn { skip_to: t } => *t = target,
                other => unreachable!("lower: fixup on {other:?}"),
            }
        }
        let m = self.alloc.max;
        let n_insts = self.insts.len();
        KernelIr {
            name: kernel.name.clone(),
            insts: self.insts,
            spans: self.spans,
            regs: RegCounts {
                b: m[0],
                w: m[1],
                d: m[2],
                f: m[3],
                g: m[4],
            },
            inputs: self.inputs,
            shared: kernel
                .shared
                .iter()
                .enumerate()
                .map(|(i, s)| SharedArray {
                    name: s.name.clone(),
                    declared: declared(kernel, typed::Space::Shared(i as u32), s.elem, s.width),
                    elem: s.stored,
                    len: if s.is_extern {
                        None
                    } else {
                        Some(s.stored_len())
                    },
                })
                .collect(),
            printfs: self.printfs,
            mmas: self.mmas,
            asyncs: self.asyncs,
            constants: kernel.constants.clone(),
            narrowed: kernel.narrowed.clone(),
            block_shapes: kernel.block_shapes.clone(),
            choices: kernel.choices.iter().map(|&s| space(s)).collect(),
            faults: self.faults,
            locals: kernel
                .local_arrays
                .iter()
                .enumerate()
                .map(|(i, a)| LocalArrayIr {
                    name: a.name.clone(),
                    declared: declared(kernel, typed::Space::Local(i as u32), a.elem, a.width),
                    elem: a.stored,
                    len: a.stored_len(),
                    in_registers: a.in_registers,
                    variable: a.variable,
                })
                .collect(),
            sites: Vec::new(),
            folded: self.folded,
            machine: self.machine,
            relaxed: {
                let mut r = self.relaxed;
                r.resize(n_insts, false);
                r
            },
            copies: {
                let mut c = self.copies;
                c.resize(n_insts, false);
                c
            },
            compound: {
                let mut c = self.compound;
                c.resize(n_insts, None);
                c
            },
        }
    }

    fn emit(&mut self, inst: Inst, span: Span) -> usize {
        let folded = self.fold.active() || self.in_registers(&inst);
        self.insts.push(inst);
        self.spans.push(span);
        self.folded.push(folded);
        self.machine.push(1);
        self.insts.len() - 1
    }

    /// Whether `inst` reads or writes a local array the compiler keeps in registers.
    fn in_registers(&self, inst: &Inst) -> bool {
        match inst {
            Inst::Load { space, .. }
            | Inst::Store { space, .. }
            | Inst::LoadVec { space, .. }
            | Inst::StoreVec { space, .. } => matches!(space,
                Space::Local(l) if self.kernel.local_arrays[*l as usize].in_registers),
            _ => false,
        }
    }

    /// Marks the multiply that `operand` just emitted into `reg` as contracted into the
    /// floating-point addition that uses it (one FMA); `true` when it did.
    fn contract(&mut self, operand: &typed::Expr, reg: Reg) -> bool {
        let is_mul = matches!(
            operand.kind,
            ExprKind::Arith {
                op: ArithOp::Mul,
                ..
            }
        );
        match self.insts.last() {
            Some(Inst::Arith {
                op: ArithOp::Mul,
                d,
                ..
            }) if is_mul && *d == reg && !self.fold.active() => {
                *self.folded.last_mut().expect("an instruction") = true;
                true
            }
            _ => false,
        }
    }

    fn emit_to(&mut self, inst: Inst, span: Span, label: Label) {
        let at = self.emit(inst, span);
        self.fixups.push((at, label));
    }

    fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    fn place(&mut self, label: Label) {
        self.labels[label.0] = Some(self.insts.len() as u32);
    }

    fn here(&self) -> u32 {
        self.insts.len() as u32
    }

    fn stmt(&mut self, s: &typed::Stmt) {
        crate::stack::grow(|| self.stmt_at(s))
    }

    fn stmt_at(&mut self, s: &typed::Stmt) {
        let mark = self.alloc.next;
        let span = s.span;
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let d = self.vars[var.0 as usize];
                let a = self.expr(value);
                if a != d {
                    self.emit(Inst::Mov { ty: value.ty, d, a }, span);
                }
            }
            StmtKind::Store { mem, index, value } => {
                let idx = self.expr(index);
                let saved = self.store_index.replace((idx, index.ty));
                let saved_old = self.loaded_at_store.take();
                let v = self.expr(value);
                self.store_index = saved;
                let old = std::mem::replace(&mut self.loaded_at_store, saved_old);
                let at = self.insts.len();
                self.store_element(*mem, (idx, index.ty), v, span);
                if let Some((old, ty)) = old {
                    let store = CompoundStore {
                        old,
                        ty,
                        idempotent: idempotent(value),
                    };
                    self.compound.resize(self.insts.len(), None);
                    for pc in at..self.insts.len() {
                        if matches!(self.insts[pc], Inst::Store { .. }) {
                            self.compound[pc] = Some(store);
                        }
                    }
                }
            }
            StmtKind::If { cond, then, els } => {
                let mut c = self.expr(cond);
                if !els.is_empty() && matches!(cond.kind, ExprKind::Var(_)) {
                    // `Else` reads the condition again after the then-branch, which may assign
                    // the variable (`if (found) { found = false; } else …`): keep a copy.
                    let copy = self.temp(Scalar::Bool);
                    self.emit(
                        Inst::Mov {
                            ty: Scalar::Bool,
                            d: copy,
                            a: c,
                        },
                        cond.span,
                    );
                    c = copy;
                }
                let else_label = self.label();
                let end = self.label();
                let first_join = if els.is_empty() { end } else { else_label };
                // A branch on a constant of the unrolled code is resolved by the compiler.
                let known = self.fold.known(cond);
                if known {
                    self.fold.enter();
                }
                self.emit_to(Inst::If { c, else_at: 0 }, span, first_join);
                if known {
                    self.fold.leave();
                }
                self.joins.push(first_join);
                for t in then {
                    self.stmt(t);
                }
                self.joins.pop();
                if !els.is_empty() {
                    self.place(else_label);
                    self.emit_to(Inst::Else { c, end_at: 0 }, span, end);
                    self.joins.push(end);
                    for e in els {
                        self.stmt(e);
                    }
                    self.joins.pop();
                }
                self.place(end);
                self.emit(Inst::EndIf, span);
            }
            StmtKind::Loop {
                cond,
                test_first,
                body,
                step,
            } => {
                let exit = self.label();
                let cont = self.label();
                // An unrolled loop keeps its body; its test and step are gone.
                let unrolled = self.fold.unrolls(s);
                self.emit(Inst::LoopBegin, span);
                let head = self.here();
                if *test_first {
                    self.folded_if(unrolled, |l| l.loop_test(cond.as_ref(), exit));
                }
                if unrolled {
                    self.fold.enter_loop(body, step);
                }
                self.joins.push(cont);
                for b in body {
                    self.stmt(b);
                }
                self.joins.pop();
                if unrolled {
                    self.fold.leave_loop();
                }
                self.place(cont);
                self.emit(Inst::LoopContinue, span);
                self.folded_if(unrolled, |l| {
                    for st in step {
                        l.stmt(st);
                    }
                });
                if !*test_first {
                    self.folded_if(unrolled, |l| l.loop_test(cond.as_ref(), exit));
                }
                self.emit(Inst::LoopBack { head }, span);
                self.place(exit);
                self.emit(Inst::LoopEnd, span);
            }
            StmtKind::Break => self.jump_out(Inst::Break { skip_to: 0 }, span),
            StmtKind::Continue => self.jump_out(Inst::Continue { skip_to: 0 }, span),
            StmtKind::Return => self.jump_out(Inst::Return { skip_to: 0 }, span),
            StmtKind::GridSync => {
                self.emit(Inst::GridSync, span);
            }
            StmtKind::Barrier => {
                self.emit(Inst::Barrier, span);
            }
            StmtKind::BarrierVote { kind, pred, result } => {
                let pred = self.expr(pred);
                let d = self.vars[result.0 as usize];
                self.emit(
                    Inst::BarrierVote {
                        kind: *kind,
                        d,
                        pred,
                    },
                    span,
                );
            }
            StmtKind::VecLoad { mem, index, vars } => {
                let idx = self.expr(index);
                let d: Vec<Reg> = vars.iter().map(|v| self.vars[v.0 as usize]).collect();
                self.load_vec(*mem, (idx, index.ty), &d, span);
            }
            StmtKind::VecAtomic {
                op,
                mem,
                index,
                values,
                olds,
            } => {
                let idx = self.expr(index);
                let v: Vec<Reg> = values.iter().map(|v| self.expr(v)).collect();
                let d: Vec<Reg> = match olds.as_slice() {
                    [] => (0..v.len())
                        .map(|_| self.temp(mem.elem.promoted()))
                        .collect(),
                    olds => olds.iter().map(|o| self.vars[o.0 as usize]).collect(),
                };
                self.emit(
                    Inst::Atomic {
                        op: *op,
                        space: space(mem.space),
                        elem: mem.elem,
                        width: mem.width as u8,
                        d: widen(&d),
                        idx,
                        idx_ty: index.ty,
                        v: widen(&v),
                        cmp: None,
                    },
                    span,
                );
            }
            StmtKind::VecStore { mem, index, values } => {
                let idx = self.expr(index);
                let v: Vec<Reg> = values.iter().map(|v| self.expr(v)).collect();
                self.store_vec(*mem, (idx, index.ty), &v, span);
            }
            StmtKind::SyncWarp(mask) => {
                let mask = self.expr(mask);
                self.emit(Inst::SyncWarp { mask }, span);
            }
            StmtKind::NamedBarrier { id, count } => {
                let id = self.expr(id);
                let count = count.as_ref().map(|c| self.expr(c));
                self.emit(Inst::BarrierCheck { id, count }, span);
                self.emit(Inst::Barrier, span);
            }
            StmtKind::Assert(cond, assume) => {
                let c = self.expr(cond);
                self.emit(Inst::Assert { c, assume: *assume }, span);
            }
            StmtKind::Disjoint { dst, src, len } => {
                let a = self.expr(&dst.0);
                let b = self.expr(&src.0);
                let n = self.expr(len);
                self.emit(
                    Inst::Disjoint {
                        a,
                        a_unit: dst.1,
                        b,
                        b_unit: src.1,
                        n,
                    },
                    span,
                );
            }
            StmtKind::Trap => {
                self.emit(Inst::Trap, span);
            }
            StmtKind::Fault(f) => {
                self.faults.push(f.clone());
                let id = self.faults.len() as u32 - 1;
                self.emit(Inst::Fault { id }, span);
            }
            StmtKind::Async(op) => {
                use crate::ir::AsyncIr as A;
                use typed::AsyncOp as O;
                let a = match op {
                    O::Open(obj) => Err(Inst::AsyncOpen { obj: *obj }),
                    O::Close => Err(Inst::AsyncClose),
                    O::Init { bar, count } => Ok(A::Init {
                        bar: *bar,
                        count: self.expr(count),
                    }),
                    O::ArriveAndWait { bar } => Ok(A::ArriveAndWait { bar: *bar }),
                    O::Arrive { bar, token } => Ok(A::Arrive {
                        bar: *bar,
                        token: self.vars[token.0 as usize],
                    }),
                    O::Wait { bar, token } => Ok(A::Wait {
                        bar: *bar,
                        token: self.expr(token),
                    }),
                    O::Acquire(o) => Ok(A::Acquire(*o)),
                    O::Commit(o) => Ok(A::Commit(*o)),
                    O::ConsumerWait(o) => Ok(A::ConsumerWait(*o)),
                    O::Release(o) => Ok(A::Release(*o)),
                    O::WaitPrior { obj, keep, call } => Ok(A::WaitPrior {
                        obj: *obj,
                        keep: *keep,
                        call,
                    }),
                };
                let inst = match a {
                    Ok(a) => {
                        self.asyncs.push(a);
                        Inst::Async {
                            id: self.asyncs.len() as u32 - 1,
                        }
                    }
                    Err(bracket) => bracket,
                };
                self.emit(inst, span);
            }
            StmtKind::Printf { pieces, args } => {
                let args = args.iter().map(|a| (self.expr(a), a.ty)).collect();
                let id = self.printfs.len() as u32;
                self.printfs.push(PrintfIr {
                    pieces: pieces.clone(),
                    args,
                });
                self.emit(Inst::Printf { id }, span);
            }
            StmtKind::Collective { call, tile } => {
                let (tile, bytes) = match tile {
                    Some(t) => (Some((self.expr(&t.offset), self.expr(&t.ldm))), t.bytes),
                    None => (None, 0),
                };
                self.emit(Inst::Collective { call, tile, bytes }, span);
            }
            StmtKind::Mma { op, a, b, c, d } => {
                let mut regs = |list: &[typed::Expr]| -> Vec<Reg> {
                    list.iter().map(|e| self.expr(e)).collect()
                };
                let (a, b, c) = (regs(a), regs(b), regs(c));
                let d = d.iter().map(|v| self.vars[v.0 as usize]).collect();
                let id = self.mmas.len() as u32;
                self.mmas.push(crate::ir::MmaIr {
                    op: *op,
                    a,
                    b,
                    c,
                    d,
                });
                self.emit(Inst::Mma { id }, span);
            }
            StmtKind::ReturnFn if self.exits.last() == Some(&true) => {
                self.jump_out(Inst::Return { skip_to: 0 }, span)
            }
            StmtKind::ReturnFn => self.jump_out(Inst::ReturnFn { skip_to: 0 }, span),
            StmtKind::Eval(e) => match &e.kind {
                ExprKind::Inline { body, .. } => {
                    let exits = self.exiting.contains(&std::ptr::from_ref(s));
                    self.exits.push(exits);
                    self.inline(body, e.span);
                    self.exits.pop();
                }
                _ => {
                    self.expr(e);
                }
            },
        }
        self.alloc.next = mark;
    }

    /// Runs `f`, its instructions folded away when `fold`.
    fn folded_if(&mut self, fold: bool, f: impl FnOnce(&mut Self)) {
        if fold {
            self.fold.enter();
        }
        f(self);
        if fold {
            self.fold.leave();
        }
    }

    fn loop_test(&mut self, cond: Option<&typed::Expr>, exit: Label) {
        if let Some(c) = cond {
            let mark = self.alloc.next;
            let r = self.expr(c);
            self.emit_to(Inst::LoopTest { c: r, exit_at: 0 }, c.span, exit);
            self.alloc.next = mark;
        }
    }

    /// `break`/`continue`/`return`: if no lane is left, skip to the innermost join point.
    fn jump_out(&mut self, inst: Inst, span: Span) {
        match self.joins.last().copied() {
            Some(join) => self.emit_to(inst, span, join),
            None => {
                let end = self.label();
                self.emit_to(inst, span, end);
                self.place(end);
            }
        }
    }

    fn temp(&mut self, ty: Scalar) -> Reg {
        self.alloc.take(ty)
    }

    /// Lowers an expression; returns the register holding its value on the active lanes.
    fn expr(&mut self, e: &typed::Expr) -> Reg {
        let folds = self.fold.folds(e);
        if folds {
            self.fold.enter();
        }
        let r = crate::stack::grow(|| self.expr_at(e));
        if folds {
            self.fold.leave();
        }
        r
    }

    fn expr_at(&mut self, e: &typed::Expr) -> Reg {
        let span = e.span;
        let ty = e.ty;
        match &e.kind {
            ExprKind::Const(v) => self.consts[&const_key(*v)],
            ExprKind::Var(v) => self.vars[v.0 as usize],
            ExprKind::Builtin(b) => self.builtins[b],
            ExprKind::ParamBase(p) => self.bases[p],
            ExprKind::ParamAddress(p) => self.addresses[p],
            ExprKind::Widen(a) => {
                let from = a.ty;
                let a = self.expr(a);
                if bank_of(from) == Bank::D {
                    return a;
                }
                let d = self.temp(Scalar::I64);
                self.emit(Inst::Widen { from, d, a }, span);
                d
            }
            ExprKind::Rescale {
                value,
                from,
                to,
                size,
                space: at,
            } => {
                let a = self.expr(value);
                let d = self.temp(Scalar::I64);
                self.emit(
                    Inst::Rescale {
                        d,
                        a,
                        from: *from,
                        to: *to,
                        size: *size,
                        space: space(*at),
                    },
                    span,
                );
                d
            }
            ExprKind::Neg(a) => {
                let a = self.expr(a);
                let d = self.temp(ty);
                self.emit(Inst::Neg { ty, d, a }, span);
                d
            }
            ExprKind::BitNot(a) => {
                let a = self.expr(a);
                let d = self.temp(ty);
                self.emit(Inst::BitNot { ty, d, a }, span);
                d
            }
            ExprKind::Not(a) => {
                let a = self.expr(a);
                let d = self.temp(Scalar::Bool);
                self.emit(Inst::Not { d, a }, span);
                d
            }
            ExprKind::Arith { op, lhs, rhs } => {
                let fma = matches!(op, ArithOp::Add | ArithOp::Sub)
                    && matches!(ty, Scalar::F32 | Scalar::F64);
                let (a, b) = if lhs.reads_store_target() {
                    // `a[i] += x * y`: the product, then the element, then one FMA.
                    let b = self.expr(rhs);
                    if fma {
                        self.contract(rhs, b);
                    }
                    (self.expr(lhs), b)
                } else {
                    let a = self.expr(lhs);
                    let contracted = fma && self.contract(lhs, a);
                    let b = self.expr(rhs);
                    if fma && !contracted {
                        self.contract(rhs, b);
                    }
                    (a, b)
                };
                let d = self.temp(ty);
                let at = self.emit(
                    Inst::Arith {
                        op: *op,
                        ty,
                        d,
                        a,
                        b,
                    },
                    span,
                );
                if matches!(op, ArithOp::Div | ArithOp::Rem)
                    && ty.is_integer()
                    && !self.fold.known(rhs)
                {
                    self.machine[at] = DIVISION_SEQUENCE;
                }
                d
            }
            ExprKind::Compare { op, lhs, rhs } => {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                let d = self.temp(Scalar::Bool);
                self.emit(
                    Inst::Cmp {
                        op: *op,
                        ty: lhs.ty,
                        d,
                        a,
                        b,
                    },
                    span,
                );
                d
            }
            ExprKind::Logic { and, lhs, rhs } => {
                let a = self.expr(lhs);
                let b = self.masked(a, !*and, rhs);
                let d = self.temp(Scalar::Bool);
                self.emit(Inst::Logic { and: *and, d, a, b }, span);
                d
            }
            ExprKind::Cast { to, operand } => {
                let a = self.expr(operand);
                let from = operand.ty;
                let same_bits =
                    bank_of(from) == bank_of(*to) && to.promoted() == *to && from != Scalar::Bool;
                if same_bits {
                    // int ↔ unsigned of one width: the bits are the value (no instruction).
                    return a;
                }
                let d = self.temp(ty);
                self.emit(
                    Inst::Cast {
                        from,
                        to: *to,
                        d,
                        a,
                    },
                    span,
                );
                d
            }
            ExprKind::Round { to, operand } => {
                let a = self.expr(operand);
                if *to == operand.ty {
                    return a;
                }
                let d = self.temp(ty);
                let from = operand.ty;
                self.emit(
                    Inst::Round {
                        from,
                        to: *to,
                        d,
                        a,
                    },
                    span,
                );
                d
            }
            ExprKind::Select { cond, then, els } => {
                let c = self.expr(cond);
                let a = self.masked(c, false, then);
                let b = self.masked(c, true, els);
                let d = self.temp(ty);
                self.emit(Inst::Select { ty, d, c, a, b }, span);
                d
            }
            ExprKind::Call { func, args } => {
                let regs: Vec<Reg> = args.iter().map(|a| self.expr(a)).collect();
                let d = self.temp(ty);
                let inst = match func {
                    Func::Math1(f) => Inst::Math1 {
                        f: *f,
                        ty,
                        d,
                        a: regs[0],
                    },
                    Func::Math2(f) => Inst::Math2 {
                        f: *f,
                        ty,
                        d,
                        a: regs[0],
                        b: regs[1],
                    },
                    Func::Fma => Inst::Fma {
                        ty,
                        d,
                        a: regs[0],
                        b: regs[1],
                        c: regs[2],
                    },
                    Func::Abs => Inst::Abs { ty, d, a: regs[0] },
                    Func::Rounded { op, dir } => Inst::Rounded {
                        op: *op,
                        dir: *dir,
                        ty,
                        d,
                        a: [0, 1, 2].map(|k| regs[k.min(regs.len() - 1)]),
                    },
                    Func::Xorwow { word, sequence } => Inst::Xorwow {
                        word: *word,
                        sequence: *sequence,
                        d,
                        v: [regs[0], regs[1], regs[2], regs[3], regs[4]],
                        n: regs[5],
                    },
                    Func::Bits(op) => Inst::Bits {
                        op: *op,
                        from: args[0].ty,
                        ty,
                        d,
                        a: regs[0],
                    },
                    Func::Bits3(op) => Inst::Bits3 {
                        op: *op,
                        d,
                        a: regs[0],
                        b: regs[1],
                        c: regs[2],
                    },
                    Func::Directed { from, to, dir } => Inst::Directed {
                        from: *from,
                        to: *to,
                        dir: *dir,
                        d,
                        a: regs[0],
                    },
                    Func::View { from, to } => Inst::Bits {
                        op: crate::value::BitOp::Same,
                        from: *from,
                        ty: *to,
                        d,
                        a: regs[0],
                    },
                };
                self.emit(inst, span);
                d
            }
            ExprKind::Load { mem, index, copy } => {
                let idx = self.expr(index);
                let first = self.insts.len();
                let d = self.load_element(*mem, (idx, index.ty), span);
                if *copy {
                    self.copies.resize(self.insts.len(), false);
                    for (inst, c) in self.insts[first..].iter().zip(&mut self.copies[first..]) {
                        *c = matches!(inst, Inst::Load { .. } | Inst::LoadVec { .. });
                    }
                }
                let swapped = !self.swapped.is_empty()
                    && super::validated::element_key(*mem, index)
                        .is_some_and(|k| self.swapped.contains(&k));
                if swapped {
                    self.relaxed.resize(self.insts.len(), false);
                    for (inst, r) in self.insts[first..].iter().zip(&mut self.relaxed[first..]) {
                        *r = matches!(inst, Inst::Load { .. } | Inst::LoadVec { .. });
                    }
                }
                d
            }
            ExprKind::Shuffle {
                kind,
                mask,
                value,
                arg,
                width,
                strict,
            } => {
                let mask = self.expr(mask);
                let v = self.expr(value);
                let arg = self.expr(arg);
                let width = self.expr(width);
                let d = self.temp(ty);
                self.emit(
                    Inst::Shfl {
                        kind: *kind,
                        ty,
                        d,
                        v,
                        arg,
                        width,
                        mask,
                        strict: *strict,
                    },
                    span,
                );
                d
            }
            ExprKind::Vote { kind, mask, pred } => {
                let mask = self.expr(mask);
                let pred = self.expr(pred);
                let d = self.temp(ty);
                self.emit(
                    Inst::Vote {
                        kind: *kind,
                        d,
                        pred,
                        mask,
                    },
                    span,
                );
                d
            }
            ExprKind::WarpFold { kind, mask, value } => {
                let mask = self.expr(mask);
                let v = self.expr(value);
                let d = self.temp(ty);
                self.emit(
                    Inst::WarpFold {
                        kind: *kind,
                        ty: value.ty,
                        d,
                        v,
                        mask,
                    },
                    span,
                );
                d
            }
            ExprKind::ActiveMask => {
                let d = self.temp(ty);
                self.emit(Inst::ActiveMask { d }, span);
                d
            }
            ExprKind::Clock => {
                let d = self.temp(ty);
                self.emit(Inst::Clock { d }, span);
                d
            }
            ExprKind::Texture {
                fetch,
                returns,
                handle,
                coords,
                channel,
                channels,
            } => {
                let handle = self.expr(handle);
                let coords: Vec<Reg> = coords.iter().map(|c| self.expr(c)).collect();
                let d = self.temp(ty);
                self.emit(
                    Inst::Tex {
                        fetch: *fetch,
                        ty: *returns,
                        d,
                        handle,
                        coords: widen(&coords),
                        channel: (*channel, *channels),
                    },
                    span,
                );
                d
            }
            ExprKind::Atomic {
                op,
                mem,
                index,
                operand,
                compare,
            } => {
                let idx = self.expr(index);
                let v = self.expr(operand);
                let cmp = compare.as_ref().map(|c| self.expr(c));
                let d = self.temp(ty);
                self.emit(
                    Inst::Atomic {
                        op: *op,
                        space: space(mem.space),
                        elem: mem.elem,
                        width: 1,
                        d: [d; 2],
                        idx,
                        idx_ty: index.ty,
                        v: [v; 2],
                        cmp,
                    },
                    span,
                );
                d
            }
            ExprKind::Inline { body, result, .. } => {
                self.exits.push(false);
                self.inline(body, span);
                self.exits.pop();
                let result = result.expect("checker: a call used as a value returns a value");
                self.vars[result.0 as usize]
            }
            ExprKind::LoadAtStore { mem } => {
                let (idx, idx_ty) = self
                    .store_index
                    .expect("lower: LoadAtStore only inside a Store");
                let old = self.load_element(*mem, (idx, idx_ty), span);
                self.loaded_at_store = Some((old, mem.elem));
                old
            }
        }
    }

    /// Loads element `idx` of `mem` as `mem.elem`: a load of the memory's own type, seen through
    /// a same-size view; or, where `mem.elem` is wider (`(uint*)` of bytes), one access of the
    /// narrow elements it spans, packed.
    fn load_element(&mut self, mem: typed::Mem, (idx, idx_ty): (Reg, Scalar), span: Span) -> Reg {
        let elem = self.kernel.stored(mem.space);
        if mem.elem.size() == elem.size() {
            let d = self.temp(elem.promoted());
            self.emit(
                Inst::Load {
                    space: space(mem.space),
                    elem,
                    d,
                    idx,
                    idx_ty,
                },
                span,
            );
            return self.reinterpret(d, elem, mem.elem, span);
        }
        let d = self.temp(mem.elem.promoted());
        self.load_vec(mem, (idx, idx_ty), &[d], span);
        d
    }

    /// Stores `v` (of `mem.elem`) as element `idx` of `mem`, the counterpart of
    /// [`Self::load_element`].
    fn store_element(&mut self, mem: typed::Mem, (idx, idx_ty): (Reg, Scalar), v: Reg, span: Span) {
        let elem = self.kernel.stored(mem.space);
        if mem.elem.size() == elem.size() {
            let v = self.reinterpret(v, mem.elem, elem, span);
            self.emit(
                Inst::Store {
                    space: space(mem.space),
                    elem,
                    idx,
                    idx_ty,
                    v,
                },
                span,
            );
            return;
        }
        self.store_vec(mem, (idx, idx_ty), &[v], span);
    }

    /// Loads vector `idx` of `mem` into `d`, one register per component of `mem.elem`: one
    /// access of the memory's own elements (up to 16), each component seen through a same-size
    /// view or packed from the narrow elements it spans (`float4*` of `half`: two per component).
    fn load_vec(&mut self, mem: typed::Mem, (idx, idx_ty): (Reg, Scalar), d: &[Reg], span: Span) {
        let elem = self.kernel.stored(mem.space);
        let n = (mem.elem.size() / elem.size()) as usize;
        let parts: Vec<Reg> = if elem == mem.elem {
            d.to_vec()
        } else {
            (0..d.len() * n)
                .map(|_| self.temp(elem.promoted()))
                .collect()
        };
        self.emit(
            Inst::LoadVec {
                space: space(mem.space),
                elem,
                width: parts.len() as u8,
                d: widen(&parts),
                idx,
                idx_ty,
            },
            span,
        );
        if elem == mem.elem {
            return;
        }
        for (&var, a) in d.iter().zip(parts.chunks(n)) {
            if n == 1 {
                let bits = self.reinterpret(a[0], elem, mem.elem, span);
                let ty = mem.elem.promoted();
                self.emit(
                    Inst::Mov {
                        ty,
                        d: var,
                        a: bits,
                    },
                    span,
                );
            } else {
                let (from, to) = (elem, mem.elem);
                let a = widen(a);
                self.emit(
                    Inst::Pack {
                        from,
                        to,
                        n: n as u8,
                        d: var,
                        a,
                    },
                    span,
                );
            }
        }
    }

    /// Stores the components in `v` (of `mem.elem`) as vector `idx` of `mem`, the counterpart
    /// of [`Self::load_vec`]: each component unpacked into the narrow elements it spans.
    fn store_vec(&mut self, mem: typed::Mem, (idx, idx_ty): (Reg, Scalar), v: &[Reg], span: Span) {
        let elem = self.kernel.stored(mem.space);
        let n = (mem.elem.size() / elem.size()) as usize;
        let mut parts = Vec::with_capacity(v.len() * n);
        for &a in v {
            if n == 1 {
                parts.push(self.reinterpret(a, mem.elem, elem, span));
                continue;
            }
            let d: Vec<Reg> = (0..n).map(|_| self.temp(elem.promoted())).collect();
            let (from, to) = (mem.elem, elem);
            let d4 = widen(&d);
            self.emit(
                Inst::Unpack {
                    from,
                    to,
                    n: n as u8,
                    d: d4,
                    a,
                },
                span,
            );
            parts.extend(d);
        }
        self.emit(
            Inst::StoreVec {
                space: space(mem.space),
                elem,
                width: parts.len() as u8,
                idx,
                idx_ty,
                v: widen(&parts),
            },
            span,
        );
    }

    /// The element in `a`, of type `from`, as the same bytes of type `to` (a pointer cast's view
    /// of memory): free, like the hardware's, which only reads the loaded register differently.
    fn reinterpret(&mut self, a: Reg, from: Scalar, to: Scalar, span: Span) -> Reg {
        let wide_ints = from.is_integer() && to.is_integer() && from.promoted() == from;
        if from == to || (wide_ints && to.promoted() == to) {
            return a;
        }
        let d = self.temp(to.promoted());
        self.emit(Inst::View { from, to, d, a }, span);
        d
    }

    /// An inlined function body between `FnBegin` and `FnEnd`; `return` jumps to the end.
    fn inline(&mut self, body: &[typed::Stmt], span: Span) {
        let end = self.label();
        self.emit(Inst::FnBegin, span);
        self.joins.push(end);
        for s in body {
            self.stmt(s);
        }
        self.joins.pop();
        self.place(end);
        self.emit(Inst::FnEnd, span);
    }

    /// Lowers `e` only on lanes where `c` (or `!c`) holds: the right side of `&&`/`||`, a side of `?:`.
    fn masked(&mut self, c: Reg, negate: bool, e: &typed::Expr) -> Reg {
        if is_free(e) {
            return self.expr(e);
        }
        let end = self.label();
        self.emit_to(
            Inst::MaskPush {
                c,
                negate,
                skip_to: 0,
            },
            e.span,
            end,
        );
        let r = self.expr(e);
        self.place(end);
        self.emit(Inst::MaskPop, e.span);
        r
    }
}

/// Reading a variable, a built-in or a constant emits nothing, so it needs no mask.
/// The element `space`'s array was declared of: its struct, or `width` components of `elem`.
fn declared(kernel: &typed::Kernel, space: typed::Space, elem: Scalar, width: u32) -> DeclaredElem {
    let name = kernel
        .struct_arrays
        .iter()
        .find(|(s, _)| *s == space)
        .map_or_else(|| typed::type_name(elem, width), |(_, n)| n.clone());
    DeclaredElem {
        name,
        bytes: elem.size() * width,
    }
}

fn is_free(e: &typed::Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Builtin(_)
    )
}

fn space(s: typed::Space) -> Space {
    match s {
        typed::Space::Global(p) => Space::Global(p),
        typed::Space::Shared(i) => Space::Shared(i),
        typed::Space::Local(i) => Space::Local(i),
        typed::Space::Choice { shared, .. } => Space::Choice { shared },
    }
}

/// What a kernel reads before its first instruction: constants, built-ins, parameter offsets.
#[derive(Default)]
struct Needs {
    /// The elements `atomicCAS` swaps ([`super::validated::cas_key`]).
    swapped: std::collections::HashSet<String>,
    consts: Vec<Value>,
    builtins: Vec<Builtin>,
    bases: Vec<u32>,
    addresses: Vec<u32>,
}

fn collect_stmt(s: &typed::Stmt, needs: &mut Needs) {
    crate::stack::grow(|| collect_stmt_at(s, needs))
}

fn collect_stmt_at(s: &typed::Stmt, needs: &mut Needs) {
    match &s.kind {
        StmtKind::Assign { value, .. } => collect_expr(value, needs),
        StmtKind::Store { index, value, .. } => {
            collect_expr(index, needs);
            collect_expr(value, needs);
        }
        StmtKind::If { cond, then, els } => {
            collect_expr(cond, needs);
            for t in then.iter().chain(els) {
                collect_stmt(t, needs);
            }
        }
        StmtKind::Loop {
            cond, body, step, ..
        } => {
            if let Some(c) = cond {
                collect_expr(c, needs);
            }
            for t in body.iter().chain(step) {
                collect_stmt(t, needs);
            }
        }
        StmtKind::SyncWarp(e) | StmtKind::Eval(e) | StmtKind::Assert(e, _) => {
            collect_expr(e, needs)
        }
        StmtKind::NamedBarrier { id, count } => {
            collect_expr(id, needs);
            count.iter().for_each(|c| collect_expr(c, needs));
        }
        StmtKind::Async(
            typed::AsyncOp::Init { count: e, .. } | typed::AsyncOp::Wait { token: e, .. },
        ) => collect_expr(e, needs),
        StmtKind::Async(_) => {}
        StmtKind::Disjoint { dst, src, len } => {
            collect_expr(&dst.0, needs);
            collect_expr(&src.0, needs);
            collect_expr(len, needs);
        }
        StmtKind::BarrierVote { pred, .. } => collect_expr(pred, needs),
        StmtKind::Collective { tile, .. } => {
            if let Some(t) = tile {
                collect_expr(&t.offset, needs);
                collect_expr(&t.ldm, needs);
            }
        }
        StmtKind::Mma { a, b, c, .. } => a
            .iter()
            .chain(b)
            .chain(c)
            .for_each(|e| collect_expr(e, needs)),
        StmtKind::Printf { args, .. } => args.iter().for_each(|a| collect_expr(a, needs)),
        StmtKind::VecLoad { index, .. } => collect_expr(index, needs),
        StmtKind::VecStore { index, values, .. } | StmtKind::VecAtomic { index, values, .. } => {
            collect_expr(index, needs);
            for v in values {
                collect_expr(v, needs);
            }
        }
        StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return
        | StmtKind::Barrier
        | StmtKind::GridSync
        | StmtKind::Trap
        | StmtKind::Fault(_)
        | StmtKind::ReturnFn => {}
    }
}

fn collect_expr(e: &typed::Expr, needs: &mut Needs) {
    crate::stack::grow(|| collect_expr_at(e, needs))
}

fn collect_expr_at(e: &typed::Expr, needs: &mut Needs) {
    let mut go = |x: &typed::Expr| collect_expr(x, needs);
    match &e.kind {
        ExprKind::Const(v) => needs.consts.push(*v),
        ExprKind::Builtin(b) => needs.builtins.push(*b),
        ExprKind::ParamBase(p) => needs.bases.push(*p),
        ExprKind::ParamAddress(p) => needs.addresses.push(*p),
        ExprKind::Widen(a) | ExprKind::Rescale { value: a, .. } => go(a),
        ExprKind::Var(_)
        | ExprKind::LoadAtStore { .. }
        | ExprKind::ActiveMask
        | ExprKind::Clock => {}
        ExprKind::Shuffle {
            mask,
            value,
            arg,
            width,
            ..
        } => {
            for x in [mask, value, arg, width] {
                collect_expr(x, needs);
            }
        }
        ExprKind::Vote { mask, pred, .. } => {
            collect_expr(mask, needs);
            collect_expr(pred, needs);
        }
        ExprKind::WarpFold { mask, value, .. } => {
            collect_expr(mask, needs);
            collect_expr(value, needs);
        }
        ExprKind::Texture { handle, coords, .. } => {
            go(handle);
            coords.iter().for_each(go);
        }
        ExprKind::Atomic {
            index,
            operand,
            compare,
            ..
        } => {
            if let Some(key) = super::validated::cas_key(e) {
                needs.swapped.insert(key);
            }
            collect_expr(index, needs);
            collect_expr(operand, needs);
            if let Some(c) = compare {
                collect_expr(c, needs);
            }
        }
        ExprKind::Inline { body, .. } => {
            for s in body {
                collect_stmt(s, needs);
            }
        }
        ExprKind::Neg(a) | ExprKind::BitNot(a) | ExprKind::Not(a) => go(a),
        ExprKind::Cast { operand, .. } | ExprKind::Round { operand, .. } => go(operand),
        ExprKind::Arith { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::Logic { lhs, rhs, .. } => {
            go(lhs);
            go(rhs);
        }
        ExprKind::Select { cond, then, els } => {
            go(cond);
            go(then);
            go(els);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(go),
        ExprKind::Load { index, .. } => go(index),
    }
}

/// `regs` in an instruction's fixed-size operand array (the unused slots repeat the first).
fn widen<const N: usize>(regs: &[Reg]) -> [Reg; N] {
    let mut out = [regs[0]; N];
    out[..regs.len()].copy_from_slice(regs);
    out
}

/// Whether a compound assignment's value, `old op operand`, is `&` or `|`: lanes with equal
/// operands leave the same bits whichever stores last.
fn idempotent(value: &typed::Expr) -> bool {
    match &value.kind {
        ExprKind::Cast { operand, .. } => idempotent(operand),
        ExprKind::Arith { op, .. } => {
            matches!(op, crate::value::ArithOp::And | crate::value::ArithOp::Or)
        }
        _ => false,
    }
}
