//! The device heap: `new`, `delete`, `malloc` and `free`, and pointers stored in memory.

// A pointer stored in memory is 8 bytes: its device address, as simt numbers a launch's arrays
// (`crate::ir::global_address`, 4 GiB apart; the heap is a hidden buffer parameter like any
// other), which is also what `(unsigned long long)p` gives; null is 0, as CUDA's `nullptr`. A
// `T**` parameter is a buffer of such words (`unsigned long long` in the launch section:
// `zeros(2)` is two null pointers).
//
// The heap is three hidden buffer parameters the launch binds itself ([`HEAP`], CUDA's default
// `cudaLimitMallocHeapSize` of bytes, [`HEAP_TOP`], the allocator's one word, and
// [`HEAP_BLOCKS`], the record of allocations that `delete` checks and marks). `new T(args)`
// is an `atomicAdd` on the word (so a kernel that allocates runs its blocks in block order, each
// warp's lanes in lane order, as every kernel with global atomics does: the addresses are the
// same on every run), the constructor run on a temporary, and the temporary's leaves stored at
// the address, each pointer leaf encoded as above; a full heap gives null, as CUDA's allocator
// does. A heap pointer in the checker points into the heap parameter's memory, as bytes for a
// class (each member read at its own offset, as a struct of mixed members in a buffer is) and as
// elements for a scalar or a pointer.

use super::pointer::Ptr;
use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::{ArithOp, AtomicOp, CmpOp, Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The name an element expression (`d[0]`, `*(d + 1)`, `*d`) starts from: `d`.
fn root_name(target: &ast::Expr) -> String {
    match &target.kind {
        ast::ExprKind::Name(n) => n.to_string(),
        ast::ExprKind::Index { base, .. } => root_name(base),
        ast::ExprKind::Unary { operand, .. } => root_name(operand),
        ast::ExprKind::Binary { lhs, .. } => root_name(lhs),
        _ => "the array".into(),
    }
}

/// The name of the heap's hidden buffer parameter (no source name can spell it).
pub const HEAP: &str = "(device heap)";

/// The name of the allocator's hidden one-word buffer parameter: the heap's bytes in use.
pub const HEAP_TOP: &str = "(device heap top)";

/// The name of the hidden buffer that records the heap's allocations, one `int` per
/// [`HEAP_ALIGN`] bytes (a granule): at the first granule of a live allocation the bytes asked
/// for, at every [`LIVE_STRIDE`]th after it [`LIVE_AFTER`] less its distance from the first, at
/// the first of a freed one [`FREED_START`], at its marked ones [`FREED`], else 0.
/// The engine reads and writes it without counting it as global memory: the hardware's
/// allocator keeps its own books.
pub const HEAP_BLOCKS: &str = "(device heap blocks)";

/// Bytes of the heap: CUDA's default `cudaLimitMallocHeapSize`, 8 MiB.
pub const HEAP_BYTES: u64 = 8 << 20;

/// [`HEAP_BLOCKS`]' mark of granule `k` of a live allocation, for each `k` a positive multiple
/// of [`LIVE_STRIDE`], is `LIVE_AFTER - k`, so that an access anywhere in it finds the first
/// granule, whose mark is the bytes asked for, from the nearest marked granule before it.
pub const LIVE_AFTER: i32 = -2;

/// Granules between the marks of a live allocation: an access looks back at most this many
/// less one, and an allocation costs one record store per this many granules.
pub const LIVE_STRIDE: u64 = 32;

/// What an access of the device heap does wrong, by the allocation record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapFault {
    /// It falls in memory that was freed.
    Freed,
    /// It runs past the end of the allocation it starts in (`start`, the heap byte where that
    /// starts, and the `bytes` it was asked for), or starts where nothing was allocated (None).
    Outside(Option<(u64, u64)>),
}

/// The fault of an access of heap bytes `byte..byte + size`, reading the allocation record's
/// granule marks with `mark`; None for an access inside a live allocation.
pub fn heap_fault(mark: impl Fn(u64) -> i32, byte: u64, size: u64) -> Option<HeapFault> {
    let g = byte / HEAP_ALIGN;
    let marked = (g.saturating_sub(LIVE_STRIDE - 1)..=g)
        .rev()
        .map(|at| (at, mark(at)))
        .find(|&(_, m)| m != 0);
    let first = match marked {
        Some((_, FREED_START | FREED)) => return Some(HeapFault::Freed),
        None => return Some(HeapFault::Outside(None)),
        Some((at, m)) if m > 0 => at,
        Some((at, m)) => at.saturating_sub(u64::from(LIVE_AFTER.abs_diff(m))),
    };
    let bytes = u64::try_from(mark(first)).unwrap_or(0);
    let start = first * HEAP_ALIGN;
    (byte + size > start + bytes).then_some(HeapFault::Outside(Some((start, bytes))))
}

/// [`HEAP_BLOCKS`]' mark of the first granule of a freed allocation.
pub const FREED_START: i32 = -1;

/// [`HEAP_BLOCKS`]' mark of the marked granules (every [`LIVE_STRIDE`]th) of a freed allocation.
pub const FREED: i32 = -2;

/// The zeroed memory the launch binds to a hidden heap parameter named `name`, if it is one.
pub fn hidden_buffer(name: &str) -> Option<crate::exec::BufData> {
    match name {
        HEAP => Some(crate::exec::BufData::zeros(Scalar::U8, HEAP_BYTES as usize)),
        HEAP_TOP => Some(crate::exec::BufData::zeros(Scalar::U64, 1)),
        HEAP_BLOCKS => Some(crate::exec::BufData::zeros(
            Scalar::I32,
            (HEAP_BYTES / HEAP_ALIGN) as usize,
        )),
        _ => None,
    }
}

/// Every allocation starts on a multiple of this many bytes, as CUDA's allocator returns.
pub const HEAP_ALIGN: u64 = 16;

/// A typed constant of type `ty`.
fn num(v: i64, ty: Scalar, span: Span) -> Expr {
    super::expr::constant(Value::I64(v).cast(ty), span)
}

fn var(v: VarId, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        ty,
        span,
    }
}

fn arith(op: ArithOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr {
        ty: lhs.ty,
        kind: ExprKind::Arith {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    }
}

fn compare(op: CmpOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Compare {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        ty: Scalar::Bool,
        span,
    }
}

fn select(cond: Expr, then: Expr, els: Expr, span: Span) -> Expr {
    Expr {
        ty: then.ty,
        kind: ExprKind::Select {
            cond: Box::new(cond),
            then: Box::new(then),
            els: Box::new(els),
        },
        span,
    }
}

fn assign(var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}

fn unsupported(what: String, span: Span, help: &str) -> CheckError {
    CheckError::Unsupported {
        what,
        span,
        help: Some(help.into()),
    }
}

/// What a `new` allocates: the heap pointer's element shape and the constructor to run.
enum Made {
    /// A class or struct: bytes, each member at its offset.
    Object(std::rc::Rc<super::structs::Layout>),
    /// A scalar or a vector (`new float[n]`, `new int(3)`).
    Data(Scalar, u32),
    /// A pointer (`new hitable*[n]`): an 8-byte word of the encoding above.
    Pointer,
}

impl KernelChecker<'_, '_> {
    /// The heap's parameter (the allocator's word is the next one, [`HEAP_BLOCKS`] the one
    /// after), added on first use.
    pub(crate) fn heap_param(&mut self) -> u32 {
        if let Some(h) = self.heap {
            return h;
        }
        let h = self.params.len() as u32;
        for (name, elem) in [
            (HEAP, Scalar::U8),
            (HEAP_TOP, Scalar::U64),
            (HEAP_BLOCKS, Scalar::I32),
        ] {
            self.params.push(Param::hidden_buffer(
                name.into(),
                Span::default(),
                (elem, 1),
            ));
        }
        self.heap = Some(h);
        h
    }

    /// `(elem, width)` of a heap pointer to `made`.
    fn heap_shape(made: &Made) -> (Scalar, u32) {
        match made {
            Made::Object(_) => (Scalar::U8, 1),
            Made::Data(s, w) => (*s, *w),
            Made::Pointer => (Scalar::U64, 1),
        }
    }

    /// What `new ty` makes.
    fn made(&mut self, ty: &ast::TypeName, span: Span) -> Result<Made> {
        if ty.pointer {
            return Ok(Made::Pointer);
        }
        if let Some(l) = self.layout_of(ty) {
            let l = l?;
            self.concrete(&l, span)?;
            return Ok(Made::Object(l));
        }
        let (s, w) = super::vector::elem_of(ty)?;
        let bytes = u64::from(s.size() * w);
        if !HEAP_ALIGN.is_multiple_of(bytes) {
            return Err(unsupported(
                format!("`new {}`, whose elements are {bytes} bytes,", ty.base_text),
                span,
                "allocate whole 1-, 2-, 4-, 8- or 16-byte elements (`new float[3 * n]` for `n` float3s)",
            ));
        }
        Ok(Made::Data(s, w))
    }

    /// `new ty(args)` or `new ty[count]`: the statements that allocate and construct, and the
    /// variable that then holds the heap pointer's offset (in the units of [`Self::heap_shape`];
    /// [`NULL_OFFSET`] where the heap was full).
    fn allocate(
        &mut self,
        (ty, args, count): (&ast::TypeName, &[ast::Expr], Option<&ast::Expr>),
        span: Span,
    ) -> Result<(Vec<Stmt>, VarId, Made)> {
        let made = self.made(ty, span)?;
        let size = match &made {
            Made::Object(l) => u64::from(l.size.max(1)),
            Made::Data(s, w) => u64::from(s.size() * w),
            Made::Pointer => 8,
        };
        let mut body = Vec::new();
        // The bytes asked for, which bound the allocation's accesses.
        let requested = self.new_local("new.requested", Scalar::U64, span);
        // Bytes to reserve, a multiple of the alignment so that the next allocation is aligned.
        let bytes = match count {
            None => {
                body.push(assign(requested, num(size as i64, Scalar::U64, span), span));
                num(size.next_multiple_of(HEAP_ALIGN) as i64, Scalar::U64, span)
            }
            Some(n) => {
                if let Made::Object(l) = &made {
                    if !self.default_constructible_as_zero(l) {
                        return Err(unsupported(
                            format!("`new {}[n]` of a class with a constructor or virtual members", l.name),
                            span,
                            "allocate the objects one by one with `new`, keeping their pointers in a `new T*[n]` array",
                        ));
                    }
                }
                let n = self.expr(n)?;
                let n = self.convert(n, Scalar::U64);
                let raw = arith(ArithOp::Mul, n, num(size as i64, Scalar::U64, span), span);
                body.push(assign(requested, raw, span));
                let up = arith(
                    ArithOp::Add,
                    var(requested, Scalar::U64, span),
                    num(HEAP_ALIGN as i64 - 1, Scalar::U64, span),
                    span,
                );
                let whole = arith(
                    ArithOp::Div,
                    up,
                    num(HEAP_ALIGN as i64, Scalar::U64, span),
                    span,
                );
                arith(
                    ArithOp::Mul,
                    whole,
                    num(HEAP_ALIGN as i64, Scalar::U64, span),
                    span,
                )
            }
        };
        let heap = self.heap_param();
        let reserved = self.new_local("new.bytes", Scalar::U64, span);
        body.push(assign(reserved, bytes, span));
        let at = self.new_local("new.at", Scalar::U64, span);
        let atomic = Expr {
            kind: ExprKind::Atomic {
                op: AtomicOp::Add,
                mem: Mem {
                    space: Space::Global(heap + 1),
                    elem: Scalar::U64,
                    width: 1,
                },
                index: Box::new(num(0, Scalar::I64, span)),
                operand: Box::new(var(reserved, Scalar::U64, span)),
                compare: None,
            },
            ty: Scalar::U64,
            span,
        };
        body.push(assign(at, atomic, span));
        let end = arith(
            ArithOp::Add,
            var(at, Scalar::U64, span),
            var(reserved, Scalar::U64, span),
            span,
        );
        // Within the heap, also where rounding the bytes asked for up wrapped to a small
        // reserve (`malloc((size_t)-1)` is null, as CUDA's allocator gives).
        let heap_bytes = || num(HEAP_BYTES as i64, Scalar::U64, span);
        let fits = Expr {
            kind: ExprKind::Logic {
                and: true,
                lhs: Box::new(compare(CmpOp::Le, end, heap_bytes(), span)),
                rhs: Box::new(compare(
                    CmpOp::Le,
                    var(requested, Scalar::U64, span),
                    heap_bytes(),
                    span,
                )),
            },
            ty: Scalar::Bool,
            span,
        };
        // The record: the bytes asked for at the allocation's first granule, and at every
        // [`LIVE_STRIDE`]th granule after it its distance from the first.
        let granules = arith(
            ArithOp::Div,
            var(reserved, Scalar::U64, span),
            num(HEAP_ALIGN as i64, Scalar::U64, span),
            span,
        );
        let first = self.new_local("new.granule", Scalar::I64, span);
        let first_is = arith(
            ArithOp::Div,
            var(at, Scalar::U64, span),
            num(HEAP_ALIGN as i64, Scalar::U64, span),
            span,
        );
        let mut then = vec![
            assign(first, self.convert(first_is, Scalar::I64), span),
            Self::record_store(
                heap,
                var(first, Scalar::I64, span),
                self.convert(var(requested, Scalar::U64, span), Scalar::I32),
                span,
            ),
        ];
        let granules = self.convert(granules, Scalar::I64);
        let live = |k| {
            arith(
                ArithOp::Sub,
                num(i64::from(LIVE_AFTER), Scalar::I64, span),
                k,
                span,
            )
        };
        then.extend(self.mark_strides((heap, first), granules, live, span));
        // An array's elements start as the heap's zeroes (a class of them has nothing to run).
        if count.is_none() {
            self.construct(&made, args, at, span, &mut then)?;
        }
        let (elem, width) = Self::heap_shape(&made);
        let unit = i64::from(elem.size() * width);
        let offset = self.new_local("new", Scalar::I64, span);
        let at64 = self.convert(var(at, Scalar::U64, span), Scalar::I64);
        let value = select(
            fits.clone(),
            arith(ArithOp::Div, at64, num(unit, Scalar::I64, span), span),
            num(NULL_OFFSET, Scalar::I64, span),
            span,
        );
        body.push(Stmt {
            kind: StmtKind::If {
                cond: fits,
                then,
                els: Vec::new(),
            },
            span,
        });
        body.push(assign(offset, value, span));
        Ok((body, offset, made))
    }

    /// Whether every leaf of `l` starts as zero bits with no constructor to run, so that a
    /// `new l[n]` of the heap's zeroed memory needs no stores.
    fn default_constructible_as_zero(&self, l: &super::structs::Layout) -> bool {
        !self.polymorphic(l)
            && l.def.as_ref().is_none_or(|(def, _)| {
                let d = &self.globals.structs[*def];
                d.ctors.is_empty() && d.fields.iter().all(|f| f.is_static || f.init.is_none())
            })
    }

    /// Runs the constructor of what `new` made on a temporary and stores it at byte `at` of the
    /// heap.
    fn construct(
        &mut self,
        made: &Made,
        args: &[ast::Expr],
        at: VarId,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let heap = self.heap_param();
        let store = |elem: Scalar, offset: u32, value: Expr| {
            let byte = arith(
                ArithOp::Add,
                var(at, Scalar::U64, span),
                num(i64::from(offset), Scalar::U64, span),
                span,
            );
            let index = arith(
                ArithOp::Div,
                byte,
                num(i64::from(elem.size()), Scalar::U64, span),
                span,
            );
            Stmt {
                kind: StmtKind::Store {
                    mem: Mem {
                        space: Space::Global(heap),
                        elem,
                        width: 1,
                    },
                    index,
                    value,
                },
                span,
            }
        };
        match made {
            Made::Object(l) => {
                let values = self.build(l, args, span, out)?;
                for (k, v) in values.into_iter().enumerate() {
                    let (s, offset) = l.leaves[k];
                    let value = match (l.pointer_leaf(k), &v.kind) {
                        (Some(_), ExprKind::Var(leaf)) => {
                            let p = self.leaf_ptr(*leaf, span);
                            self.encode(p, span)?
                        }
                        (Some(_), _) => num(0, Scalar::U64, span),
                        (None, _) => self.convert(v, s),
                    };
                    let value = self.convert(value, s);
                    out.push(store(s, offset, value));
                }
            }
            Made::Data(s, w) => match args {
                [] => {}
                [a] if *w == 1 => {
                    let v = self.expr(a)?;
                    let v = self.convert(v, *s);
                    out.push(store(*s, 0, v));
                }
                _ => {
                    return Err(unsupported(
                        "`new` of a scalar or a vector with these arguments".into(),
                        span,
                        "give a scalar one value (`new int(3)`), or assign a vector's components after `new`",
                    ))
                }
            },
            Made::Pointer => match args {
                [] => {}
                [a] => {
                    let p = self.pointer(a)?;
                    let v = self.encode(p, span)?;
                    out.push(store(Scalar::U64, 0, v));
                }
                _ => {
                    return Err(CheckError::ArgumentCount {
                        name: "new T*".into(),
                        expected: "0 or 1".into(),
                        found: args.len(),
                        span,
                    })
                }
            },
        }
        Ok(())
    }

    /// The pointer a struct's pointer leaf (its variable) holds.
    fn leaf_ptr(&self, leaf: VarId, span: Span) -> Ptr {
        let Some(&i) = self.leaf_pointers.get(&leaf) else {
            return super::pointer::null(span);
        };
        let pv = &self.ptr_vars[i as usize];
        Ptr {
            mem: pv.mem,
            offset: var(pv.var, Scalar::I64, span),
            is_const: pv.is_const,
        }
    }

    /// The device address buffer parameter `q` points at, as a `long long`.
    pub(super) fn param_address(&mut self, q: u32, span: Span) -> Expr {
        let address = Expr {
            kind: ExprKind::ParamAddress(q),
            ty: Scalar::U64,
            span,
        };
        self.convert(address, Scalar::I64)
    }

    /// A pointer as memory holds it (`unsigned long long`): its device address
    /// ([`crate::ir::global_address`], what `(unsigned long long)p` gives), null 0.
    pub(crate) fn encode(&mut self, p: Ptr, span: Span) -> Result<Expr> {
        let Some(mem) = p.mem else {
            return Ok(num(0, Scalar::U64, span));
        };
        let q = match mem.space {
            // A function checked on its own points into a placeholder: never run.
            Space::Global(u32::MAX) => return Ok(num(0, Scalar::U64, span)),
            Space::Global(q) => q,
            Space::Choice { shared: false, .. } => {
                return Err(unsupported(
                    "storing in memory a pointer that may point into one of several arrays (read from a table of arrays, or chosen by `flag ? a : b`)".to_string(),
                    span,
                    "store a pointer into an array the kernel names (`slots[0] = &out[2];`), or keep the chosen pointer in a local variable",
                ))
            }
            other => {
                return Err(unsupported(
                    format!(
                        "storing a pointer into `{}` in memory",
                        self.space_name(other)
                    ),
                    span,
                    "simt stores pointers into the heap and into the launch's arrays only; keep a pointer into a shared, local or chosen array in a variable",
                ))
            }
        };
        let unit = i64::from(mem.elem.size() * mem.width);
        let base = self.param_address(q, span);
        // The offset once (it may allocate: `d_list[0] = new sphere(...)`), then its word.
        let offset = self.widen(p.offset);
        let held = self.new_local("pointer", Scalar::I64, span);
        let at = var(held, Scalar::I64, span);
        let bytes = arith(ArithOp::Mul, at.clone(), num(unit, Scalar::I64, span), span);
        let value = select(
            compare(CmpOp::Eq, at, num(NULL_OFFSET, Scalar::I64, span), span),
            num(0, Scalar::I64, span),
            arith(ArithOp::Add, bytes, base, span),
            span,
        );
        let word = self.new_local("pointer word", Scalar::U64, span);
        let value = self.convert(value, Scalar::U64);
        Ok(Expr {
            kind: ExprKind::Inline {
                name: "pointer store".into(),
                body: vec![assign(held, offset, span), assign(word, value, span)],
                result: Some(word),
            },
            ty: Scalar::U64,
            span,
        })
    }

    /// The heap pointer a pointer word `word` (`unsigned long long`) holds, to elements of
    /// `(elem, width)`: null for 0; a word that is not a heap address is out of the heap's
    /// bounds where it is used.
    pub(crate) fn decode(&mut self, word: Expr, shape: (Scalar, u32), span: Span) -> Ptr {
        let heap = self.heap_param();
        self.decode_into(word, heap, shape, span)
    }

    /// The pointer into buffer parameter `q`'s array a pointer word holds ([`Self::decode`]).
    fn decode_into(&mut self, word: Expr, q: u32, (elem, width): (Scalar, u32), span: Span) -> Ptr {
        let base = self.param_address(q, span);
        let unit = i64::from(elem.size() * width);
        let w = self.new_local("pointer word", Scalar::I64, span);
        let word = self.convert(word, Scalar::I64);
        let offset = select(
            compare(
                CmpOp::Eq,
                var(w, Scalar::I64, span),
                num(0, Scalar::I64, span),
                span,
            ),
            num(NULL_OFFSET, Scalar::I64, span),
            arith(
                ArithOp::Div,
                arith(ArithOp::Sub, var(w, Scalar::I64, span), base, span),
                num(unit, Scalar::I64, span),
                span,
            ),
            span,
        );
        let result = self.new_local("pointer", Scalar::I64, span);
        Ptr {
            mem: Some(Mem {
                space: Space::Global(q),
                elem,
                width,
            }),
            offset: Expr {
                kind: ExprKind::Inline {
                    name: "pointer load".into(),
                    body: vec![assign(w, word, span), assign(result, offset, span)],
                    result: Some(result),
                },
                ty: Scalar::I64,
                span,
            },
            is_const: false,
        }
    }

    /// `new ty(args)` as a pointer.
    pub(crate) fn new_pointer_value(
        &mut self,
        (ty, args, count): (&ast::TypeName, &[ast::Expr], Option<&ast::Expr>),
        span: Span,
    ) -> Result<Ptr> {
        let (body, offset, made) = self.allocate((ty, args, count), span)?;
        let (elem, width) = Self::heap_shape(&made);
        let heap = self.heap_param();
        Ok(Ptr {
            mem: Some(Mem {
                space: Space::Global(heap),
                elem,
                width,
            }),
            offset: Expr {
                kind: ExprKind::Inline {
                    name: "new".into(),
                    body,
                    result: Some(offset),
                },
                ty: Scalar::I64,
                span,
            },
            is_const: false,
        })
    }

    /// Whether `callee` is CUDA's device `malloc` or `free` (`which`), not a function of the file.
    pub(crate) fn is_heap_call(&self, callee: &ast::Ident, which: &str) -> bool {
        let name = callee.name.trim_start_matches("::");
        name == which && !self.globals.functions.contains_key(which)
    }

    /// `malloc(bytes)`: `bytes` bytes of the heap, uninitialised (simt's heap starts zeroed).
    pub(crate) fn malloc(&mut self, args: &[ast::Expr], span: Span) -> Result<Ptr> {
        let [bytes] = args else {
            return Err(CheckError::ArgumentCount {
                name: "malloc".into(),
                expected: "1".into(),
                found: args.len(),
                span,
            });
        };
        let byte = ast::TypeName {
            base: ast::BaseType::U8,
            base_text: "unsigned char".into(),
            pointer: false,
            reference: false,
            is_const: false,
            span,
        };
        self.new_pointer_value((&byte, &[], Some(bytes)), span)
    }

    /// Whether `target` (`d_list[i]`, `*(d_list + 1)`, `*p`) is an element of a `T**`'s array:
    /// a pointer stored in memory, so that a pointer assigned to it is stored encoded.
    pub(crate) fn holds_pointers(&self, target: &ast::Expr) -> bool {
        self.slot_type(target).is_some()
    }

    /// The type a pointer word of `target`'s array points to (`hitable*` of `hitable** d_list`),
    /// when `target` is one ([`Self::holds_pointers`]).
    pub(crate) fn slot_type(&self, target: &ast::Expr) -> Option<ast::TypeName> {
        let mut cur = target;
        // One index or dereference of a `T**` reads a pointer; two (`keys[0][i]`) a `T`.
        let mut levels = 0;
        loop {
            cur = match &cur.kind {
                ast::ExprKind::Index { base, .. } => {
                    levels += 1;
                    base
                }
                ast::ExprKind::Unary {
                    op: ast::UnOp::Deref,
                    operand,
                } => {
                    levels += 1;
                    operand
                }
                ast::ExprKind::Binary { lhs, rhs, .. } => {
                    if self.is_pointer(lhs) {
                        lhs
                    } else {
                        rhs
                    }
                }
                ast::ExprKind::Name(_) if levels == 1 => return self.pointers_in(cur),
                _ => return None,
            };
        }
    }

    /// The type of the pointers an array of pointers `e` (`d_list` of `hitable** d_list`)
    /// holds, when `e` names one.
    pub(crate) fn pointers_in(&self, e: &ast::Expr) -> Option<ast::TypeName> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Param(p)) => self.slot_params.get(&p).cloned(),
                Some(Binding::Pointer(i)) => self.slot_ptrs.get(&i).cloned(),
                _ => None,
            },
            // `planes + 1`, `1 + planes`, `&planes[1]`, `&*p`, `c ? planes : q`: the same
            // array's pointers.
            ast::ExprKind::Binary {
                op: ast::BinOp::Add,
                lhs,
                rhs,
                ..
            } => self.pointers_in(lhs).or_else(|| self.pointers_in(rhs)),
            ast::ExprKind::Binary {
                op: ast::BinOp::Sub,
                lhs,
                ..
            } => self.pointers_in(lhs),
            ast::ExprKind::Ternary { then, els, .. } => {
                self.pointers_in(then).or_else(|| self.pointers_in(els))
            }
            ast::ExprKind::Unary {
                op: ast::UnOp::AddrOf,
                operand,
            } => match &operand.kind {
                ast::ExprKind::Index { base, .. } => self.pointers_in(base),
                ast::ExprKind::Unary {
                    op: ast::UnOp::Deref,
                    operand,
                } => self.pointers_in(operand),
                _ => None,
            },
            _ => None,
        }
    }

    /// `d_list[i] = p` where `d_list` holds `T*` and `p` points to a class `U`: C++ converts
    /// `U*` to `T*` only where `U` is `T` or derives from it, so an unrelated class is refused
    /// here, as nvcc refuses it, rather than stored and dispatched on as a class it is not.
    pub(crate) fn slot_accepts(&mut self, target: &ast::Expr, value: &ast::Expr) -> Result<()> {
        let Some(ty) = self.slot_type(target) else {
            return Ok(());
        };
        let Some(Ok(slot)) = self.layout_of(&ast::TypeName {
            pointer: false,
            ..ty.clone()
        }) else {
            return Ok(());
        };
        let Some(found) = self.struct_pointee(value) else {
            return Ok(());
        };
        let (Some((want, _)), Some((got, _))) = (&slot.def, &found.def) else {
            return Ok(());
        };
        let declared = self.globals.structs[*want].name.name.clone();
        if want == got || self.derives_from(&found, &declared) {
            return Ok(());
        }
        let found = self.globals.structs[*got].name.name.clone();
        Err(CheckError::Pointer {
            problem: super::PointerProblem::Pointee {
                name: format!("{}[...]", root_name(target)),
                declared: declared.clone(),
                found: found.clone(),
            },
            span: value.span,
            help: Some(format!(
                "store a pointer to `{declared}` or to a class derived from it: declare `struct {found} : {declared}`, or make the array `{found}**`"
            )),
        })
    }

    /// The heap pointer an element of a `T**`'s array holds (`d_list[0]`, `*d_world`), read.
    pub(crate) fn loaded_pointer(&mut self, e: &ast::Expr) -> Result<Ptr> {
        let ty = self
            .slot_type(e)
            .expect("checked: an element of an array of pointers");
        let (mem, index) = self.element(e)?;
        let word = Expr {
            kind: ExprKind::Load {
                mem,
                index: Box::new(index),
                copy: false,
            },
            ty: mem.elem.promoted(),
            span: e.span,
        };
        let shape = self.pointee_shape(&ty)?;
        if let Some(entries) = self.table_entries_of(mem) {
            return Ok(self.decode_choice(word, &entries, shape, e.span));
        }
        Ok(self.decode(word, shape, e.span))
    }

    /// How memory a pointer word of type `ty` (`float*`, `hitable*`) points to is accessed: a
    /// class's or `void`'s as bytes, else as its elements.
    pub(super) fn pointee_shape(&mut self, ty: &ast::TypeName) -> Result<(Scalar, u32)> {
        let target = ast::TypeName {
            pointer: false,
            ..ty.clone()
        };
        match self.layout_of(&target) {
            Some(l) => {
                l?;
                Ok((Scalar::U8, 1))
            }
            None if ty.base == ast::BaseType::Void => Ok((Scalar::U8, 1)),
            None => super::vector::elem_of(&target),
        }
    }

    /// `delete p;` / `delete[] p;` / `free(p)` (`call`): a null pointer does nothing; else the
    /// pointer must be the start of a live allocation of the heap ([`HEAP_BLOCKS`]), which is
    /// then marked freed, every granule of it, so that a later access through it is
    /// `simt::run::use_after_free`; any other is [`Fault::BadDelete`]. simt never reuses freed
    /// memory (CUDA does not say when it does).
    pub(crate) fn delete(&mut self, ptr: &ast::Expr, call: &str) -> Result<StmtKind> {
        let p = if self.is_pointer(ptr) {
            self.pointer(ptr)?
        } else if self.holds_pointers(ptr) {
            self.loaded_pointer(ptr)?
        } else {
            let t = self.expr(ptr)?;
            return Err(CheckError::Pointer {
                problem: super::PointerProblem::NotAPointer {
                    found: t.ty.to_string(),
                },
                span: ptr.span,
                help: Some(format!("`{call}` a pointer that `new` returned")),
            });
        };
        let span = ptr.span;
        let fault = |twice: bool| Stmt {
            kind: StmtKind::Fault(Fault::BadDelete {
                call: call.into(),
                twice,
            }),
            span,
        };
        let Some(mem) = p.mem else {
            // `delete nullptr;`
            return Ok(StmtKind::Eval(p.offset));
        };
        let heap = self.heap_param();
        let offset = self.new_local("delete", Scalar::I64, span);
        let offset_value = self.widen(p.offset);
        let not_null = compare(
            CmpOp::Ne,
            var(offset, Scalar::I64, span),
            num(NULL_OFFSET, Scalar::I64, span),
            span,
        );
        let mut then = Vec::new();
        match mem.space {
            Space::Global(q) if q == heap => {
                self.free_granules(mem, offset, &fault, &mut then, span)
            }
            Space::Choice { .. } => {
                return Err(unsupported(
                    format!("`{call}` of a pointer that may point into one of several arrays"),
                    span,
                    "delete through a pointer that only ever holds what `new` returned",
                ))
            }
            // A launch's, a shared or a local array: no `new` returned it.
            _ => then.push(fault(false)),
        }
        Ok(StmtKind::Eval(Expr {
            kind: ExprKind::Inline {
                name: call.into(),
                body: vec![
                    assign(offset, offset_value, span),
                    Stmt {
                        kind: StmtKind::If {
                            cond: not_null,
                            then,
                            els: Vec::new(),
                        },
                        span,
                    },
                ],
                result: None,
            },
            ty: Scalar::Bool,
            span,
        }))
    }

    /// The loop that marks every [`LIVE_STRIDE`]th granule after the first (`first`) of an
    /// allocation of `granules` granules with `mark` of its distance `k` from the first (an
    /// `I64`, stored as the record's `int`): what an access between the marks looks back to.
    fn mark_strides(
        &mut self,
        (heap, first): (u32, VarId),
        granules: Expr,
        mark: impl Fn(Expr) -> Expr,
        span: Span,
    ) -> [Stmt; 3] {
        let k = self.new_local("heap.k", Scalar::I64, span);
        let n = self.new_local("heap.granules", Scalar::I64, span);
        let k_is = || var(k, Scalar::I64, span);
        let stride = || num(LIVE_STRIDE as i64, Scalar::I64, span);
        let at = arith(ArithOp::Add, var(first, Scalar::I64, span), k_is(), span);
        let value = self.convert(mark(k_is()), Scalar::I32);
        [
            assign(n, granules, span),
            assign(k, stride(), span),
            Stmt {
                kind: StmtKind::Loop {
                    cond: Some(compare(CmpOp::Lt, k_is(), var(n, Scalar::I64, span), span)),
                    test_first: true,
                    body: vec![Self::record_store(heap, at, value, span)],
                    step: vec![assign(k, arith(ArithOp::Add, k_is(), stride(), span), span)],
                },
                span,
            },
        ]
    }

    /// The statements that free the allocation starting at heap element `offset` (in `mem`'s
    /// units) or fault: not on a granule, not a first granule (0, [`FREED`] or a later granule
    /// of a live one) or freed before ([`FREED_START`]).
    fn free_granules(
        &mut self,
        mem: Mem,
        offset: VarId,
        fault: &dyn Fn(bool) -> Stmt,
        out: &mut Vec<Stmt>,
        span: Span,
    ) {
        let heap = self.heap_param();
        let unit = i64::from(mem.elem.size() * mem.width);
        let byte = arith(
            ArithOp::Mul,
            var(offset, Scalar::I64, span),
            num(unit, Scalar::I64, span),
            span,
        );
        let g = self.new_local("delete.granule", Scalar::I64, span);
        let r = self.new_local("delete.granules", Scalar::I32, span);
        let align = num(HEAP_ALIGN as i64, Scalar::I64, span);
        out.push(assign(
            g,
            arith(ArithOp::Div, byte.clone(), align.clone(), span),
            span,
        ));
        out.push(assign(
            r,
            Self::record_load(heap, var(g, Scalar::I64, span), span),
            span,
        ));
        let misaligned = compare(
            CmpOp::Ne,
            arith(ArithOp::Rem, byte, align, span),
            num(0, Scalar::I64, span),
            span,
        );
        let r_is = |op, v: i32| {
            compare(
                op,
                var(r, Scalar::I32, span),
                num(i64::from(v), Scalar::I32, span),
                span,
            )
        };
        let not_first = Expr {
            kind: ExprKind::Logic {
                and: false,
                lhs: Box::new(misaligned),
                rhs: Box::new(Expr {
                    kind: ExprKind::Logic {
                        and: false,
                        lhs: Box::new(r_is(CmpOp::Eq, 0)),
                        rhs: Box::new(r_is(CmpOp::Le, FREED)),
                    },
                    ty: Scalar::Bool,
                    span,
                }),
            },
            ty: Scalar::Bool,
            span,
        };
        let at = |k: Expr| arith(ArithOp::Add, var(g, Scalar::I64, span), k, span);
        // The allocation's granules: its bytes, rounded up.
        let bytes = self.convert(var(r, Scalar::I32, span), Scalar::I64);
        let granules = arith(
            ArithOp::Div,
            arith(
                ArithOp::Add,
                bytes,
                num(HEAP_ALIGN as i64 - 1, Scalar::I64, span),
                span,
            ),
            num(HEAP_ALIGN as i64, Scalar::I64, span),
            span,
        );
        // The granules `new` marked (every [`LIVE_STRIDE`]th) marked freed: an access
        // between them looks back to one.
        let freed = |_| num(i64::from(FREED), Scalar::I64, span);
        let mut mark = Vec::from(self.mark_strides((heap, g), granules, freed, span));
        mark.push(Self::record_store(
            heap,
            at(num(0, Scalar::I64, span)),
            num(i64::from(FREED_START), Scalar::I32, span),
            span,
        ));
        let twice = Stmt {
            kind: StmtKind::If {
                cond: r_is(CmpOp::Eq, FREED_START),
                then: vec![fault(true)],
                els: mark,
            },
            span,
        };
        out.push(Stmt {
            kind: StmtKind::If {
                cond: not_first,
                then: vec![fault(false)],
                els: vec![twice],
            },
            span,
        });
    }

    /// [`HEAP_BLOCKS`]' memory, for a heap whose parameter is `heap`.
    fn record(heap: u32) -> Mem {
        Mem {
            space: Space::Global(heap + 2),
            elem: Scalar::I32,
            width: 1,
        }
    }

    /// Granule `g`'s entry of the allocation record.
    fn record_load(heap: u32, g: Expr, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Load {
                mem: Self::record(heap),
                index: Box::new(g),
                copy: false,
            },
            ty: Scalar::I32,
            span,
        }
    }

    /// `record[g] = value` (an `int`).
    fn record_store(heap: u32, g: Expr, value: Expr, span: Span) -> Stmt {
        Stmt {
            kind: StmtKind::Store {
                mem: Self::record(heap),
                index: g,
                value,
            },
            span,
        }
    }
}

impl KernelChecker<'_, '_> {
    /// `p->f(args)` (`object` is `*p`) of a virtual member `f` where `p` points into the heap:
    /// the object's class word read, and a branch per class that derives from `l` (the
    /// pointer's class) and is not abstract, each running its `f` on the object. A class word
    /// that names none of them is [`Fault::BadDynamicType`]; a branch that would run a function
    /// already running is [`Fault::Recursion`], both only where a thread reaches them. `None`
    /// when the call is not one.
    pub(crate) fn virtual_call(
        &mut self,
        object: &ast::Expr,
        l: &std::rc::Rc<super::structs::Layout>,
        name: &str,
        args: &[ast::Expr],
        (span, allow_void): (Span, bool),
    ) -> Option<Result<Expr>> {
        let ast::ExprKind::Unary {
            op: ast::UnOp::Deref,
            operand,
        } = &object.kind
        else {
            return None;
        };
        if !self.polymorphic(l) || !self.is_virtual(l, name) || !self.is_pointer(operand) {
            return None;
        }
        if self.heap.is_none() && !self.holds_pointers(operand) {
            return None;
        }
        let ptr = match self.pointer(operand) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let heap = self.heap?;
        if !ptr.mem.is_some_and(|m| m.space == Space::Global(heap)) {
            return None;
        }
        Some(self.dispatch(ptr, l, name, args, (span, allow_void)))
    }

    /// Whether `name` is a virtual member of `l`'s class or of one of its bases.
    fn is_virtual(&self, l: &super::structs::Layout, name: &str) -> bool {
        let Some((def, _)) = &l.def else {
            return false;
        };
        let structs = &self.globals.structs;
        let mut at = Some(*def);
        let mut seen = 0;
        while let Some(d) = at.filter(|_| seen <= structs.len()) {
            seen += 1;
            if structs[d].virtuals.iter().any(|v| v.name == name) {
                return true;
            }
            at = structs[d].base.as_ref().and_then(|b| {
                structs
                    .iter()
                    .position(|s| s.name.name == b.name && s.template.is_empty())
            });
        }
        false
    }

    /// The classes an object a `l*` points to may have: `l`'s and those derived from it that
    /// are not abstract, each with its class number and its `name` member function.
    fn dynamic_classes(
        &mut self,
        l: &std::rc::Rc<super::structs::Layout>,
        name: &str,
        span: Span,
    ) -> Vec<(std::rc::Rc<super::structs::Layout>, u64, ast::Function)> {
        let mut out = Vec::new();
        for d in 0..self.globals.structs.len() {
            let s = &self.globals.structs[d];
            if !s.template.is_empty() || !s.spec.is_empty() || s.virtuals.is_empty() {
                continue;
            }
            let text = s.name.name.clone();
            let Some(Ok(c)) = self.layout_named(&text, span) else {
                continue;
            };
            if c.def.as_ref().map(|(cd, _)| *cd) != Some(d) {
                continue;
            }
            if !(c.name == l.name || self.derives_from(&c, &l.name)) {
                continue;
            }
            if self.concrete(&c, span).is_err() {
                continue;
            }
            if let Some(f) = self.method(&c, name, None) {
                out.push((c, d as u64 + 1, f));
            }
        }
        out
    }

    /// The branches of [`Self::virtual_call`].
    fn dispatch(
        &mut self,
        ptr: Ptr,
        l: &std::rc::Rc<super::structs::Layout>,
        name: &str,
        args: &[ast::Expr],
        (span, allow_void): (Span, bool),
    ) -> Result<Expr> {
        let heap = self.heap_param();
        let classes = self.dynamic_classes(l, name, span);
        let mut body = Vec::new();
        let at = self.new_local("this", Scalar::I64, span);
        body.push(assign(at, ptr.offset, span));
        // A pointer cast to the class (`(hitable*)malloc(16)`) counts its elements: bytes.
        let unit = ptr.mem.map_or(1, |m| i64::from(m.elem.size() * m.width));
        if unit != 1 {
            let bytes = select(
                compare(
                    CmpOp::Eq,
                    var(at, Scalar::I64, span),
                    num(NULL_OFFSET, Scalar::I64, span),
                    span,
                ),
                num(NULL_OFFSET, Scalar::I64, span),
                arith(
                    ArithOp::Mul,
                    var(at, Scalar::I64, span),
                    num(unit, Scalar::I64, span),
                    span,
                ),
                span,
            );
            body.push(assign(at, bytes, span));
        }
        // `__vptr` is the object's first 8 bytes (its address is a multiple of 16).
        let word = Expr {
            kind: ExprKind::Load {
                mem: Mem {
                    space: Space::Global(heap),
                    elem: Scalar::U64,
                    width: 1,
                },
                index: Box::new(arith(
                    ArithOp::Div,
                    var(at, Scalar::I64, span),
                    num(8, Scalar::I64, span),
                    span,
                )),
                copy: false,
            },
            ty: Scalar::U64,
            span,
        };
        let class = self.new_local("class", Scalar::U64, span);
        body.push(assign(class, word, span));
        let ret = match classes.first() {
            Some((_, _, f)) if !self.returns_struct(f) => super::intrinsics::return_scalar(f)?,
            Some((c, _, _)) => {
                return Err(unsupported(
                    format!("the virtual call `{name}` of `{}`, which returns a struct, through a heap pointer", c.name),
                    span,
                    "return the result through a reference parameter (`bool hit(..., hit_record& rec)`), as the ray tracer does",
                ))
            }
            None => None,
        };
        let result = ret.map(|t| (self.new_local(name, t, span), t));
        let mut chain = vec![Stmt {
            kind: StmtKind::Fault(Fault::BadDynamicType {
                call: name.to_string(),
                class: l.name.clone(),
            }),
            span,
        }];
        for (c, id, f) in classes.into_iter().rev() {
            let signature = super::intrinsics::inlined_as(&f);
            let branch = if self.inlining.iter().any(|(_, s)| *s == signature) {
                vec![Stmt {
                    kind: StmtKind::Fault(Fault::Recursion {
                        function: format!("{}::{}", c.name, name),
                    }),
                    span,
                }]
            } else {
                let place = super::structs::StructPlace {
                    layout: c,
                    home: super::structs::Home::Mem {
                        mem: Mem {
                            space: Space::Global(heap),
                            elem: Scalar::U8,
                            width: 1,
                        },
                        at: var(at, Scalar::I64, span),
                        pointers: Vec::new(),
                    },
                };
                let call = self.inline_with_this(
                    &f,
                    place,
                    (&[], args),
                    span,
                    allow_void || ret.is_none(),
                )?;
                vec![Stmt {
                    kind: match result {
                        Some((r, t)) => StmtKind::Assign {
                            var: r,
                            value: self.convert(call, t),
                        },
                        None => StmtKind::Eval(call),
                    },
                    span,
                }]
            };
            chain = vec![Stmt {
                kind: StmtKind::If {
                    cond: compare(
                        CmpOp::Eq,
                        var(class, Scalar::U64, span),
                        num(id as i64, Scalar::U64, span),
                        span,
                    ),
                    then: branch,
                    els: chain,
                },
                span,
            }];
        }
        body.extend(chain);
        Ok(Expr {
            kind: ExprKind::Inline {
                name: format!("{}::{name}", l.name),
                body,
                result: result.map(|(r, _)| r),
            },
            ty: result.map_or(Scalar::I32, |(_, t)| t.promoted()),
            span,
        })
    }
}

impl KernelChecker<'_, '_> {
    /// The pointer a pointer member's word `word` holds, as the member declares it: into the
    /// heap, or, for a `T**` member, into the kernel's one `T**` parameter's array (else the
    /// heap's).
    pub(crate) fn stored_pointer(
        &mut self,
        word: Expr,
        target: &super::structs::Target,
        pointee: (Scalar, u32),
        span: Span,
    ) -> Ptr {
        use super::structs::Target;
        match target {
            Target::Slots(_) => self.decode_slots(word, span),
            Target::Struct(_) | Target::Opaque(_) => self.decode(word, (Scalar::U8, 1), span),
            Target::Data => self.decode(word, pointee, span),
        }
    }
}

impl KernelChecker<'_, '_> {
    /// The pointer to pointers a word holds (a `T**` member's): into the array of the kernel's
    /// `T**` parameter whose array it names (a choice among them where there are several), or,
    /// where the kernel has none, into the heap. A word that names none of them is a null
    /// pointer where it is used.
    fn decode_slots(&mut self, word: Expr, span: Span) -> Ptr {
        self.sequence_slot_params();
        let mut slots: Vec<u32> = self.slot_params.keys().copied().collect();
        slots.sort_unstable();
        if slots.is_empty() {
            return self.decode(word, (Scalar::U64, 1), span);
        }
        self.decode_choice(word, &slots, (Scalar::U64, 1), span)
    }

    /// The pointer a word holds into whichever of buffer parameters `params` its address
    /// names (`crate::ir::global_address`'s array number), to elements of `(elem, width)`: a
    /// `Space::Choice` among them (where there are several); a word that names none of them
    /// is a null pointer where it is used.
    pub(super) fn decode_choice(
        &mut self,
        word: Expr,
        params: &[u32],
        (elem, width): (Scalar, u32),
        span: Span,
    ) -> Ptr {
        if let [q] = params {
            return self.decode_into(word, *q, (elem, width), span);
        }
        let unit = i64::from(elem.size() * width);
        let w = self.new_local("pointer word", Scalar::I64, span);
        let word = self.convert(word, Scalar::I64);
        let mut value = num(NULL_OFFSET, Scalar::I64, span);
        for &q in params.iter().rev() {
            let k = match self.choices.iter().position(|&c| c == Space::Global(q)) {
                Some(k) => k,
                None => {
                    self.choices.push(Space::Global(q));
                    self.choices.len() - 1
                }
            };
            let base = self.param_address(q, span);
            let array = |e: Expr| arith(ArithOp::Shr, e, num(32, Scalar::I64, span), span);
            let here = Expr {
                kind: ExprKind::Logic {
                    and: true,
                    lhs: Box::new(compare(
                        CmpOp::Ne,
                        var(w, Scalar::I64, span),
                        num(0, Scalar::I64, span),
                        span,
                    )),
                    rhs: Box::new(compare(
                        CmpOp::Eq,
                        array(var(w, Scalar::I64, span)),
                        array(base.clone()),
                        span,
                    )),
                },
                ty: Scalar::Bool,
                span,
            };
            let offset = arith(
                ArithOp::Div,
                arith(ArithOp::Sub, var(w, Scalar::I64, span), base, span),
                num(unit, Scalar::I64, span),
                span,
            );
            let chosen = arith(
                ArithOp::Add,
                offset,
                num((k as i64) << CHOICE_SHIFT, Scalar::I64, span),
                span,
            );
            value = select(here, chosen, value, span);
        }
        // What the arrays hold, which a cast of the pointer may view as another type.
        let stored = match self.params[params[0] as usize].kind {
            ParamKind::Buffer { elem, .. } => elem,
            ParamKind::Scalar { .. } => unreachable!("checker: pointers point into buffers"),
        };
        let result = self.new_local("pointer", Scalar::I64, span);
        Ptr {
            mem: Some(Mem {
                space: Space::Choice {
                    stored,
                    shared: false,
                },
                elem,
                width,
            }),
            offset: Expr {
                kind: ExprKind::Inline {
                    name: "pointer load".into(),
                    body: vec![assign(w, word, span), assign(result, value, span)],
                    result: Some(result),
                },
                ty: Scalar::I64,
                span,
            },
            is_const: false,
        }
    }
}

/// What a hidden parameter for sequence array `name` is called ([`sequence_slots`]).
pub const SEQUENCE_PREFIX: &str = "(sequence) ";

/// For each kernel a `sequence` section launches, the arrays of pointers (`T**` parameters)
/// the sequence's other launches bind and this kernel's launches do not, each with the
/// pointer type it holds: a `T**` member read in the kernel may point into them (render reads
/// `d_list` through the list object's `hitable** list`, although it takes only `d_world`).
pub(crate) fn sequence_slots(
    module: &ast::Module,
) -> std::collections::HashMap<String, Vec<(String, ast::TypeName)>> {
    let mut out: std::collections::HashMap<String, Vec<(String, ast::TypeName)>> =
        Default::default();
    for q in &module.sequences {
        let launches: Vec<(&ast::Launch, &ast::Kernel)> = q
            .items
            .iter()
            .filter_map(|i| match i {
                ast::SeqItem::Launch(l) => module
                    .kernels
                    .iter()
                    .find(|k| k.name.name == l.kernel.name)
                    .map(|k| (l, k)),
                ast::SeqItem::Stmt(_) => None,
            })
            .collect();
        // The sequence name each `T**` parameter of a launch is bound to.
        let bound = |l: &ast::Launch, k: &ast::Kernel| -> Vec<(String, ast::TypeName)> {
            k.params
                .iter()
                .filter(|p| p.pointer_to_pointer)
                .map(|p| {
                    let named = l.stmts.iter().find_map(|s| match s {
                        ast::HostStmt::Assign { name, value } if name.name == p.name.name => {
                            match &value.kind {
                                ast::ExprKind::Name(n) => Some(n.clone()),
                                _ => None,
                            }
                        }
                        _ => None,
                    });
                    (named.unwrap_or_else(|| p.name.name.clone()), p.ty.clone())
                })
                .collect()
        };
        let mut all: Vec<(String, ast::TypeName)> = Vec::new();
        for &(l, k) in &launches {
            for b in bound(l, k) {
                if !all.iter().any(|(n, _)| *n == b.0) {
                    all.push(b);
                }
            }
        }
        for &(l, k) in &launches {
            let own = bound(l, k);
            let entry = out.entry(k.name.name.clone()).or_default();
            for (n, ty) in &all {
                if !own.iter().any(|(o, _)| o == n) && !entry.iter().any(|(e, _)| e == n) {
                    entry.push((n.clone(), ty.clone()));
                }
            }
        }
    }
    out
}

impl KernelChecker<'_, '_> {
    /// Adds, once, a hidden buffer parameter for each array of pointers the kernel's sequences
    /// hold and it does not take ([`sequence_slots`]); the launch binds each to its array, or to
    /// `NULL` outside a sequence.
    fn sequence_slot_params(&mut self) {
        let globals = self.globals;
        let Some(foreign) = globals.sequence_slots.get(&self.kernel_name) else {
            return;
        };
        for (name, ty) in foreign {
            let hidden = format!("{SEQUENCE_PREFIX}{name}");
            if self.params.iter().any(|p| p.name == hidden) {
                continue;
            }
            let i = self.params.len() as u32;
            self.slot_params.insert(i, ty.clone());
            self.params.push(Param::hidden_buffer(
                hidden,
                Span::default(),
                (Scalar::U64, 1),
            ));
        }
    }
}
