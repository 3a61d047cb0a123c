//! Inline PTX (`asm("..." : outputs : inputs : clobbers)`): each instruction written as the C++ it computes, over one local per operand.
//!
//! `asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(d) : "f"(x));` becomes
//! `{ unsigned int %0; float %1 = (float)(x); %0 = ...; d = %0; }`: the inputs are evaluated
//! once into locals of their constraint's type (`r` 32-bit, `l` 64-bit, `h` 16-bit integer
//! bits, `f` `float`, `d` `double`; `n` is a constant used in place), the instructions run
//! in order, and the outputs are assigned at the end. An operand used only as an address
//! (`[%1]`) stays the pointer expression it is, so that loads and stores through it are
//! ordinary memory accesses.

mod carry;
mod cxx;
mod mma;
mod ops;
mod parse;
mod shared;

use std::collections::HashMap;

use crate::source::Span;
use crate::syntax::ast::*;
use cxx::{Ty, C};
use parse::{Arg, Item};

/// One `"constraint"(expression)` of an `asm` statement.
pub(crate) struct Operand {
    /// The constraint as written (`=r`, `+f`, `l`, `n`).
    pub constraint: String,
    /// The C++ expression.
    pub expr: Expr,
}

/// Why an `asm` statement cannot run: an instruction outside simt's subset, or a mistake.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Fail {
    what: String,
    unsupported: bool,
}

impl Fail {
    pub(super) fn unsupported(what: String) -> Fail {
        Fail {
            what,
            unsupported: true,
        }
    }

    pub(super) fn invalid(what: String) -> Fail {
        Fail {
            what,
            unsupported: false,
        }
    }
}

/// The statement an `asm` statement runs as: a block, or the reason it cannot run. `basic`: no
/// operand lists (`asm("trap;")`), where `%` is not special.
pub(crate) fn lower(
    template: &str,
    basic: bool,
    outputs: Vec<Operand>,
    inputs: Vec<Operand>,
    clobbers: &[String],
    span: Span,
) -> StmtKind {
    let template = if basic {
        template.replace('%', "%%")
    } else {
        template.to_string()
    };
    let result = Lowering::new(span, outputs, inputs, clobbers).and_then(|mut l| l.run(&template));
    match result {
        Ok(body) => StmtKind::Block(body),
        Err(f) if f.unsupported => StmtKind::Unsupported {
            what: f.what,
            help: "simt runs a subset of PTX (README, \"Inline PTX\"): mov, cvt, integer and float arithmetic, add/sub/mul/fma.rn on .f16 and .f16x2, logic and shifts, shf, bfe/bfi/prmt/lop3/popc/clz/brev, setp/selp and @p guards, shfl.sync, ld/st, cvta, cp.async, ldmatrix, mma.sync (m16n8k16, m16n8k8), ex2/rcp/sqrt/tanh .approx, trap; write this instruction in C++, or take the C++ branch the file has for other targets".into(),
            invalid: false,
            declares: Vec::new(),
        },
        Err(f) => StmtKind::Unsupported {
            what: f.what,
            help: "an `asm` operand is `\"constraint\"(expression)`: outputs first (`=r`, `+r`), then inputs (`r` 32-bit, `l` 64-bit, `h` 16-bit, `f` float, `d` double, `n` constant); `%0`, `%1`... name them in that order, and `%%` writes a `%`".into(),
            invalid: true,
            declares: Vec::new(),
        },
    }
}

/// Where an operand's value lives.
#[derive(Clone)]
enum Slot {
    /// A local of its constraint's type.
    Reg {
        /// The local's name (`%0`).
        local: String,
        /// Its type.
        ty: Ty,
        /// Written by the statement (an output or an in-out operand).
        output: bool,
        /// The expression as written.
        expr: Expr,
    },
    /// `"n"(4)`: a constant.
    Const(Expr),
    /// An input used only in brackets: the pointer expression itself.
    Pointer(Expr),
}

/// One `asm` statement being lowered.
pub(super) struct Lowering {
    c: C,
    slots: Vec<Slot>,
    /// Declared `.reg` registers, innermost scope last: PTX name → (local, type).
    scopes: Vec<HashMap<String, (String, Ty)>>,
    /// Statements before the instructions (operand locals) and after them (output assignments).
    prologue: Vec<Stmt>,
    epilogue: Vec<Stmt>,
    /// Temporaries made so far.
    temps: u32,
    /// Temporaries an instruction declared while forming its value, to go before it.
    pending: Vec<Stmt>,
}

impl Lowering {
    fn new(
        span: Span,
        outputs: Vec<Operand>,
        inputs: Vec<Operand>,
        clobbers: &[String],
    ) -> Result<Lowering, Fail> {
        let c = C { span };
        if let Some(bad) = clobbers
            .iter()
            .find(|k| !matches!(k.as_str(), "memory" | "cc"))
        {
            return Err(Fail::invalid(format!(
                "the clobber \"{bad}\" (simt knows \"memory\" and \"cc\")"
            )));
        }
        let mut l = Lowering {
            c,
            slots: Vec::new(),
            scopes: vec![HashMap::new()],
            prologue: Vec::new(),
            epilogue: Vec::new(),
            temps: 0,
            pending: Vec::new(),
        };
        let n_out = outputs.len();
        for (i, op) in outputs.into_iter().enumerate() {
            let (inout, rest) = match op.constraint.as_bytes().first() {
                Some(b'=') => (false, &op.constraint[1..]),
                Some(b'+') => (true, &op.constraint[1..]),
                _ => {
                    return Err(Fail::invalid(format!(
                        "the output operand %{i} has the constraint \"{}\", which does not start with `=` or `+`",
                        op.constraint
                    )))
                }
            };
            let ty = register(rest.trim_start_matches('&'), i)?;
            let local = format!("%{i}");
            let init = inout.then(|| c.cast(ty, op.expr.clone()));
            l.prologue.push(c.decl(c.ty(ty), &local, init));
            l.epilogue.push(c.assign(op.expr.clone(), c.name(&local)));
            l.slots.push(Slot::Reg {
                local,
                ty,
                output: true,
                expr: op.expr,
            });
        }
        for (k, op) in inputs.into_iter().enumerate() {
            let i = n_out + k;
            if op.constraint.starts_with(['=', '+']) {
                return Err(Fail::invalid(format!(
                    "the input operand %{i} has the output constraint \"{}\" (outputs come before the second `:`)",
                    op.constraint
                )));
            }
            if op.constraint == "n" {
                l.slots.push(Slot::Const(op.expr));
                continue;
            }
            // `"0"(x)`: the input starts in output 0's register.
            if let Ok(tied) = op.constraint.parse::<usize>() {
                let Some(Slot::Reg { local, ty, .. }) =
                    l.slots.get(tied).cloned().filter(|_| tied < n_out)
                else {
                    return Err(Fail::invalid(format!(
                        "the input operand %{i} is tied to \"{tied}\", which is not an output operand"
                    )));
                };
                l.prologue
                    .push(c.assign(c.name(&local), c.cast(ty, op.expr.clone())));
                l.slots.push(Slot::Reg {
                    local,
                    ty,
                    output: true,
                    expr: op.expr,
                });
                continue;
            }
            let ty = register(&op.constraint, i)?;
            l.slots.push(Slot::Reg {
                local: format!("%{i}"),
                ty,
                output: false,
                expr: op.expr,
            });
        }
        Ok(l)
    }

    /// The instructions as statements, between the operand locals and the output assignments.
    fn run(&mut self, template: &str) -> Result<Vec<Stmt>, Fail> {
        let items = parse::items(template)?;
        self.declare_inputs(&items)?;
        // CF, for the extended-precision instructions: clear where the statement starts.
        if items
            .iter()
            .any(|i| matches!(i, Item::Inst(inst) if carry::is_carrying(inst)))
        {
            let zero = self.c.int(0, Ty::U(32));
            let decl = self.c.decl(self.c.ty(Ty::U(32)), carry::CARRY, Some(zero));
            self.prologue.push(decl);
        }
        let mut stack: Vec<Vec<Stmt>> = vec![std::mem::take(&mut self.prologue)];
        for item in &items {
            match item {
                Item::Open => {
                    stack.push(Vec::new());
                    self.scopes.push(HashMap::new());
                }
                Item::Close => {
                    let body = stack.pop().filter(|_| !stack.is_empty());
                    let (Some(body), Some(_)) = (body, self.scopes.pop()) else {
                        return Err(Fail::invalid("an unmatched `}` in the PTX".into()));
                    };
                    stack
                        .last_mut()
                        .expect("outer block")
                        .push(self.c.block(body));
                }
                Item::Reg(ty, names) => {
                    let ty = Ty::parse(ty).ok_or_else(|| {
                        Fail::unsupported(format!("the PTX register type `.{ty}`"))
                    })?;
                    for name in names {
                        let local = format!("ptx.{name}");
                        stack.last_mut().expect("a block").push(self.c.decl(
                            self.c.ty(ty),
                            &local,
                            None,
                        ));
                        self.scopes
                            .last_mut()
                            .expect("a scope")
                            .insert(name.clone(), (local, ty));
                    }
                }
                Item::Inst(inst) => {
                    let mut body = ops::inst(self, inst)?;
                    let out = stack.last_mut().expect("a block");
                    match &inst.guard {
                        Some((p, negated)) => {
                            let p = self.read(p, Ty::Pred)?;
                            let p = if *negated { self.c.un(UnOp::Not, p) } else { p };
                            out.push(self.c.when(p, body));
                        }
                        None => out.append(&mut body),
                    }
                }
            }
        }
        if stack.len() != 1 {
            return Err(Fail::invalid("an unmatched `{` in the PTX".into()));
        }
        let mut body = stack.pop().expect("the outer block");
        body.append(&mut self.epilogue);
        Ok(body)
    }

    /// Inputs used as values get their locals; those only in brackets stay pointer expressions.
    fn declare_inputs(&mut self, items: &[Item]) -> Result<(), Fail> {
        let (mut as_value, mut as_address) =
            (vec![false; self.slots.len()], vec![false; self.slots.len()]);
        fn walk(
            a: &Arg,
            in_brackets: bool,
            v: &mut [bool],
            p: &mut [bool],
            n: usize,
        ) -> Result<(), Fail> {
            match a {
                Arg::Operand(i) if *i >= n => Err(Fail::invalid(format!(
                    "the template names %{i}, but the statement has {n} operand(s)"
                ))),
                Arg::Operand(i) => {
                    if in_brackets {
                        p[*i] = true;
                    } else {
                        v[*i] = true;
                    }
                    Ok(())
                }
                Arg::Not(a) => walk(a, in_brackets, v, p, n),
                Arg::Address(a, _) => walk(a, true, v, p, n),
                Arg::Vector(list) => list.iter().try_for_each(|a| walk(a, in_brackets, v, p, n)),
                Arg::Pair(a, b) => {
                    walk(a, in_brackets, v, p, n)?;
                    walk(b, in_brackets, v, p, n)
                }
                _ => Ok(()),
            }
        }
        let n = self.slots.len();
        for item in items {
            if let Item::Inst(inst) = item {
                for a in inst.args.iter().chain(inst.guard.iter().map(|(g, _)| g)) {
                    walk(a, false, &mut as_value, &mut as_address, n)?;
                }
            }
        }
        for i in 0..n {
            if let Slot::Reg {
                local,
                ty,
                output: false,
                expr,
            } = &self.slots[i]
            {
                if as_address[i] && !as_value[i] {
                    self.slots[i] = Slot::Pointer(expr.clone());
                } else {
                    let init = self.c.cast(*ty, expr.clone());
                    self.prologue
                        .push(self.c.decl(self.c.ty(*ty), local, Some(init)));
                }
            }
        }
        Ok(())
    }

    /// A fresh local of type `ty` holding `value`: its declaration and its name.
    fn temp(&mut self, ty: Ty, value: Expr) -> (Stmt, Expr) {
        self.temps += 1;
        let name = temp_name(self.temps);
        (
            self.c.decl(self.c.ty(ty), &name, Some(value)),
            self.c.name(&name),
        )
    }

    /// A fresh local of type `ty` (a vector type) holding `value`.
    fn temp_of(&mut self, ty: TypeName, value: Expr) -> (Stmt, Expr) {
        self.temps += 1;
        let name = temp_name(self.temps);
        (self.c.decl(ty, &name, Some(value)), self.c.name(&name))
    }

    fn register(&self, name: &str) -> Option<(String, Ty)> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    /// The value of `a` as an instruction of type `ty` reads it, an expression of `ty`'s C type.
    fn read(&self, a: &Arg, ty: Ty) -> Result<Expr, Fail> {
        let c = self.c;
        match a {
            Arg::Operand(i) => match &self.slots[*i] {
                Slot::Reg {
                    local, ty: from, ..
                } => c.view(c.name(local), *from, ty),
                Slot::Const(e) if ty.is_int() => Ok(c.cast(ty, e.clone())),
                Slot::Const(_) => Err(Fail::invalid(format!(
                    "the constant operand %{i} used as {}",
                    ty.ptx()
                ))),
                Slot::Pointer(_) => unreachable!("an operand used as a value has a local"),
            },
            Arg::Name(n) => match self.register(n) {
                Some((local, from)) => c.view(c.name(&local), from, ty),
                None if !n.starts_with('%') => Err(Fail::invalid(format!(
                    "the instruction reads `{n}`, which no `.reg` declares"
                ))),
                None => {
                    let (e, from) = ops::special(c, n)?;
                    c.view(c.cast(from, e), from, ty)
                }
            },
            Arg::Int(v) if ty.is_int() || ty == Ty::Pred => {
                let (lo, hi) = (-(1i128 << 63), (1i128 << 64) - 1);
                if !(lo..=hi).contains(v) {
                    return Err(Fail::invalid(format!(
                        "the constant {v} is wider than 64 bits"
                    )));
                }
                Ok(if ty == Ty::Pred {
                    c.e(ExprKind::Bool(*v != 0))
                } else {
                    c.int(*v, ty)
                })
            }
            Arg::Int(v) => Ok(c.float(*v as f64, ty)),
            Arg::Float(v) if ty.is_float() => Ok(c.float(*v, ty)),
            Arg::Float(v) => Err(Fail::invalid(format!(
                "the floating-point constant {v} used as {}",
                ty.ptx()
            ))),
            Arg::Not(p) if ty == Ty::Pred => Ok(c.un(UnOp::Not, self.read(p, ty)?)),
            Arg::Not(_) | Arg::Vector(_) | Arg::Address(..) | Arg::Pair(..) => {
                Err(Fail::invalid(format!(
                    "a {} operand where the instruction reads a {} value",
                    match a {
                        Arg::Not(_) => "negated",
                        Arg::Vector(_) => "vector",
                        Arg::Pair(..) => "`d|p` pair",
                        _ => "bracketed address",
                    },
                    ty.ptx()
                )))
            }
        }
    }

    /// `d = value`, where `value` is an expression of `ty`'s C type.
    fn write(&self, d: &Arg, value: Expr, ty: Ty) -> Result<Stmt, Fail> {
        let c = self.c;
        let (local, to) = match d {
            Arg::Operand(i) => match &self.slots[*i] {
                Slot::Reg {
                    local,
                    ty,
                    output: true,
                    ..
                } => (local.clone(), *ty),
                _ => {
                    return Err(Fail::invalid(format!(
                        "the instruction writes %{i}, an input operand (make it an output: \"=r\", or \"+r\" to read it too)"
                    )))
                }
            },
            Arg::Name(n) => self.register(n).ok_or_else(|| {
                Fail::invalid(format!(
                    "the instruction writes `{n}`, which no `.reg` declares"
                ))
            })?,
            Arg::Pair(..) => {
                return Err(Fail::unsupported(
                    "a second, predicate result `d|p` but for `shfl`'s".into(),
                ))
            }
            _ => {
                return Err(Fail::invalid(
                    "an instruction's destination is not a register".into(),
                ))
            }
        };
        let value = if ty.is_int() && to.is_int() && to.bits() > ty.bits() {
            // A narrower result is sign- or zero-extended to the register by its type.
            c.cast(to, value)
        } else {
            c.view(value, ty, to)?
        };
        Ok(c.assign(c.name(&local), value))
    }

    /// The value of a constant operand written as a number (`0x96`, or `"n"(0x96)`).
    fn constant(&self, a: &Arg) -> Option<i128> {
        match a {
            Arg::Int(v) => Some(*v),
            Arg::Operand(i) => match &self.slots[*i] {
                Slot::Const(Expr {
                    kind: ExprKind::Int { value, .. },
                    ..
                }) => Some(i128::from(*value)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The address in `[a]` of an instruction on `shared` memory or not: a pointer expression,
    /// or for shared memory the generic address of a shared-window integer
    /// (`__cvta_generic_to_shared`'s `"r"` operand) too.
    fn address(&self, a: &Arg, shared: bool) -> Result<Expr, Fail> {
        let p = self.pointer(a)?;
        Ok(if shared {
            self.c.call("__simt_ptx_shared", vec![p])
        } else {
            p
        })
    }

    /// The pointer expression in `[a]`: an operand used only in brackets.
    fn pointer(&self, a: &Arg) -> Result<Expr, Fail> {
        match a {
            Arg::Operand(i) => match &self.slots[*i] {
                Slot::Pointer(e) => Ok(e.clone()),
                _ => Err(Fail::unsupported(format!(
                    "the address [%{i}] of an operand that is also a value or an output (simt follows pointers, not numbers)"
                ))),
            },
            _ => Err(Fail::unsupported(
                "an address in a PTX register (simt follows the pointer an `l` operand passes, `[%1]`)".into(),
            )),
        }
    }
}

/// The register type of a constraint letter.
fn register(letter: &str, i: usize) -> Result<Ty, Fail> {
    Ok(match letter {
        "r" => Ty::B(32),
        "l" => Ty::B(64),
        "h" => Ty::B(16),
        "f" => Ty::F(32),
        "d" => Ty::F(64),
        "n" => {
            return Err(Fail::invalid(format!(
                "the output operand %{i} has the constant constraint \"n\""
            )))
        }
        other => {
            return Err(Fail::invalid(format!(
                "the constraint \"{other}\" of operand %{i} (simt knows r, l, h, f, d and n)"
            )))
        }
    })
}

/// The name of the lowering's `n`th temporary: `#` cannot start a PTX identifier, so no
/// register the template declares (`.reg .b32 t1;` is `ptx.t1`) takes it.
fn temp_name(n: u32) -> String {
    format!("ptx.#{n}")
}
