//! WMMA's functions (`<mma.h>`), checked into whole-warp checks, the vector accesses that move a tile and one `mma_sync` statement.

// A fragment is a struct of simt's `<mma.h>` holding `x[num_elements]`, which `crate::wmma`
// maps onto the tile: each lane holds pieces of up to 16 bytes of consecutive elements in the
// fragment's storage order, piece `p` of all 32 lanes being the tile's `p`-th slab. So
// `load_matrix_sync` of a tile stored in that order is one vector access per piece: one warp
// request per slab, the requests together covering the tile exactly once. An accumulator read
// or written in the other order (`mem_col_major`) is one scalar access per element. Each call first checks that the whole warp is there, converged,
// with one pointer and one `ldm` (`StmtKind::Collective`); the lane's number and the addresses
// are ordinary integer instructions.

use super::expr::constant;
use super::structs::StructPlace;
use super::typed::*;
use super::vector::Place;
use super::{CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{Scalar, Value};
use crate::wmma::MmaOp;

type Result<T> = std::result::Result<T, CheckError>;

/// The shapes and types simt's `<mma.h>` has, for messages.
pub(crate) const HAVE: &str = "WMMA fragments simt has: m16n16k16, m32n8k16 and m8n32k16 with half (float or half accumulators), __nv_bfloat16 (float), signed char and unsigned char (int); m16n16k8 with wmma::precision::tf32 (float); m8n8k4 with double (double)";

/// Which matrix a fragment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    A,
    B,
    Accumulator,
}

/// A fragment's type, read from its specialisation of `wmma::fragment`.
#[derive(Clone, Copy, Debug)]
struct Frag {
    usage: Use,
    m: u32,
    n: u32,
    k: u32,
    /// Element type as stored (`F32` for tf32).
    elem: Scalar,
    /// `precision::tf32`.
    tf32: bool,
    /// A `col_major` matrix_a or matrix_b.
    col: bool,
}

impl Frag {
    /// Rows and columns of its tile.
    fn dims(&self) -> (u32, u32) {
        match self.usage {
            Use::A => (self.m, self.k),
            Use::B => (self.k, self.n),
            Use::Accumulator => (self.m, self.n),
        }
    }

    /// Elements per lane.
    fn len(&self) -> u32 {
        let (r, c) = self.dims();
        r * c / 32
    }

    fn describe(&self) -> String {
        let usage = match self.usage {
            Use::A => "matrix_a",
            Use::B => "matrix_b",
            Use::Accumulator => "accumulator",
        };
        let ty = if self.tf32 {
            "precision::tf32"
        } else {
            self.elem.c_name()
        };
        format!(
            "fragment<{usage}, {}, {}, {}, {ty}>",
            self.m, self.n, self.k
        )
    }
}

/// The scalar a type name of a fragment's specialisation stands for, and whether it is tf32.
fn elem_of(name: &str) -> Option<(Scalar, bool)> {
    Some(match name {
        "half" => (Scalar::F16, false),
        "__nv_bfloat16" => (Scalar::BF16, false),
        "signed char" => (Scalar::I8, false),
        "unsigned char" => (Scalar::U8, false),
        "precision::tf32" => (Scalar::F32, true),
        "float" => (Scalar::F32, false),
        "int" => (Scalar::I32, false),
        "double" => (Scalar::F64, false),
        _ => return None,
    })
}

impl KernelChecker<'_, '_> {
    /// A call of `fill_fragment`, `load_matrix_sync`, `store_matrix_sync` or `mma_sync`;
    /// `None` for any other name (or one the file defines itself).
    pub(crate) fn wmma_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let call = match name {
            "fill_fragment" => "wmma::fill_fragment",
            "load_matrix_sync" => "wmma::load_matrix_sync",
            "store_matrix_sync" => "wmma::store_matrix_sync",
            "mma_sync" => "wmma::mma_sync",
            _ => return None,
        };
        if self.globals.functions.contains_key(name) {
            return None;
        }
        let body = match name {
            "fill_fragment" => self.fill_fragment(args, span),
            "load_matrix_sync" => self.move_tile(call, true, args, span),
            "store_matrix_sync" => self.move_tile(call, false, args, span),
            _ => self.mma_sync(args, span),
        };
        Some(body.map(|body| Expr {
            kind: ExprKind::Inline {
                name: call.into(),
                body,
                result: None,
            },
            ty: Scalar::I32,
            span,
        }))
    }

    /// The fragment `e` names, and where it is.
    fn fragment(&mut self, e: &ast::Expr, call: &str) -> Result<(Frag, StructPlace)> {
        let not = |what: String| {
            CheckError::Wmma {
                what: format!("`{call}` takes a `wmma::fragment` here"),
                span: e.span,
                label: what,
                help: "declare it as `wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;` (matrix_a, matrix_b or accumulator)".into(),
        }
        };
        let Some(place) = self.struct_place(e) else {
            // An unknown name (or any other mistake) is that mistake.
            self.expr(e)?;
            return Err(not("not a variable of a struct type".into()));
        };
        let place = place?;
        let frag = place
            .layout
            .def
            .as_ref()
            .and_then(|(k, _)| {
                let def = &self.globals.structs[*k];
                (def.name.name == "fragment").then(|| parse_spec(&def.spec))?
            })
            .filter(|f| f.len() as usize == place.layout.leaves.len());
        match frag {
            Some(f) => Ok((f, place)),
            None => Err(not(format!("a `{}`", place.layout.name))),
        }
    }

    /// Element `k` of a fragment.
    fn frag_element(&mut self, place: &StructPlace, k: u32, span: Span) -> Result<Place> {
        self.leaf(place, k as usize, span)
    }

    /// `fill_fragment(f, v)`: every element of the lane's fragment set to `v` (converted to the
    /// element type once). Not warp-collective: each thread sets its own elements.
    fn fill_fragment(&mut self, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        super::intrinsics::arity("wmma::fill_fragment", args.len(), 2, 2, span)?;
        let (frag, place) = self.fragment(&args[0], "wmma::fill_fragment")?;
        let v = self.expr(&args[1])?;
        let v = self.convert(v, frag.elem);
        let tmp = self.new_local("fill_fragment()", frag.elem, span);
        let mut out = vec![Stmt {
            kind: StmtKind::Assign { var: tmp, value: v },
            span,
        }];
        for i in 0..frag.len() {
            let leaf = self.frag_element(&place, i, span)?;
            let value = var(tmp, frag.elem, span);
            out.push(self.write(leaf, value, span)?);
        }
        Ok(out)
    }

    /// `load_matrix_sync(f, p, ldm[, layout])` (`load`) or `store_matrix_sync(p, f, ldm, layout)`.
    fn move_tile(
        &mut self,
        call: &'static str,
        load: bool,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Vec<Stmt>> {
        let (f_arg, p_arg) = if load { (0, 1) } else { (1, 0) };
        if args.len() < 3 {
            super::intrinsics::arity(call, args.len(), 3, 4, span)?;
        }
        let (frag, place) = self.fragment(&args[f_arg], call)?;
        let wants_layout = !load || frag.usage == Use::Accumulator;
        if !load && frag.usage != Use::Accumulator {
            return Err(CheckError::Wmma {
                what: format!("`{call}` stores accumulators only"),
                span: args[f_arg].span,
                label: format!("a `{}`", frag.describe()),
                help: "store the accumulator that mma_sync wrote; matrix_a and matrix_b fragments are only loaded".into(),
            });
        }
        let expected = if wants_layout { 4 } else { 3 };
        super::intrinsics::arity(call, args.len(), expected, expected, span)?;
        // The memory order: the fragment's own, or the layout argument's for an accumulator.
        let mem_col = if wants_layout {
            self.layout_arg(&args[3])?
        } else {
            frag.col
        };
        let ptr = self.pointer(&args[p_arg])?;
        // A null pointer points into a choice of no arrays: the call traps where it runs
        // (`simt::run::null_pointer`), and one that never runs (less_slow.cpp's `if
        // (threadIdx.x == 2147483647)`) is no error, as nvcc compiles it.
        let mem = ptr.mem.unwrap_or(Mem {
            space: super::Space::Choice {
                stored: frag.elem,
                shared: false,
            },
            elem: frag.elem,
            width: 1,
        });
        // A `float*` view of `half` memory (DLRM's interaction kernels reuse their half staging
        // buffer for the results) or a `half*` view of a `float` buffer carved into tiles: each
        // element moves through the view as any access through it does.
        if mem.elem != frag.elem || mem.width != 1 {
            return Err(CheckError::Wmma {
                what: format!(
                    "`{call}` of `{}` memory into a fragment of `{}`",
                    type_name(mem.elem, mem.width),
                    frag.elem.c_name()
                ),
                span: args[p_arg].span,
                label: format!("points to `{}`", type_name(mem.elem, mem.width)),
                help: format!(
                    "the pointer must be a `{}*` into an array of `{}`, the fragment's element type",
                    frag.elem.c_name(),
                    frag.elem.c_name()
                ),
            });
        }
        if !load && ptr.is_const {
            return Err(CheckError::Wmma {
                what: format!("`{call}` through a `const` pointer"),
                span: args[p_arg].span,
                label: "points to `const` memory".into(),
                help: "store through a pointer to writable memory".into(),
            });
        }
        let ldm = self.expr(&args[2])?;
        if ldm.ty.is_float() || ldm.ty == Scalar::Bool {
            return Err(CheckError::Wmma {
                what: format!("`{call}`'s ldm is not an integer"),
                span: args[2].span,
                label: format!("a `{}`", ldm.ty.c_name()),
                help: "ldm is the stride in elements between rows (or columns): an `unsigned`"
                    .into(),
            });
        }
        if let ExprKind::Const(v) = ldm.kind {
            let l = v.as_i64().unwrap_or(0);
            let bytes = i128::from(l) * i128::from(frag.elem.size());
            if bytes % 16 != 0 {
                return Err(CheckError::WmmaLdm {
                    ldm: l,
                    elem: frag.elem.c_name(),
                    bytes,
                    span: args[2].span,
                });
            }
        }
        let bytes = frag.elem.size();
        // The pointer and ldm, each computed once.
        let ptr_var = self.new_local("wmma pointer", Scalar::I64, span);
        let ldm_var = self.new_local("wmma ldm", Scalar::I64, span);
        let lane_var = self.new_local("wmma lane", Scalar::U32, span);
        let ldm = self.convert(ldm, Scalar::I64);
        let lane = self.lane_id(span)?;
        let mut out = vec![
            assign(ptr_var, ptr.offset, span),
            assign(ldm_var, ldm, span),
            assign(lane_var, lane, span),
            Stmt {
                kind: StmtKind::Collective {
                    call,
                    tile: Some(TileArgs {
                        offset: var(ptr_var, Scalar::I64, span),
                        bytes,
                        ldm: var(ldm_var, Scalar::I64, span),
                    }),
                },
                span,
            },
        ];
        let (rows, cols) = frag.dims();
        let e = frag.len();
        let frag_col = frag.usage != Use::Accumulator && frag.col;
        let u32c = |v: u32| constant(Value::U32(v), span);
        // Lane `l`'s `x[p * w + q]` is tile element `p * 32 * w + l * w + q` (`crate::wmma`).
        let w = crate::wmma::piece(e, bytes);
        let first = self.binary(BinOp::Mul, span, var(lane_var, Scalar::U32, span), u32c(w))?;
        if mem_col == frag_col {
            // Piece `p`: `w` consecutive elements from element `p * 32 * w + l * w`, in line
            // `e / L` (a row, or a column of a column-major tile) from position `e % L`.
            let line_len = if frag_col { rows } else { cols };
            debug_assert_eq!(line_len % w, 0, "a piece lies in one line");
            for piece in 0..e / w {
                let el = self.binary(BinOp::Add, span, first.clone(), u32c(piece * 32 * w))?;
                let line = self.binary(BinOp::Div, span, el.clone(), u32c(line_len))?;
                let pos = self.binary(BinOp::Rem, span, el, u32c(line_len))?;
                let line = self.convert(line, Scalar::I64);
                let pos = self.convert(pos, Scalar::I64);
                let down = self.binary(BinOp::Mul, span, line, var(ldm_var, Scalar::I64, span))?;
                let at = self.binary(BinOp::Add, span, var(ptr_var, Scalar::I64, span), down)?;
                let at = self.binary(BinOp::Add, span, at, pos)?;
                let index = Expr {
                    kind: ExprKind::Rescale {
                        value: Box::new(at),
                        from: bytes,
                        to: bytes * w,
                        size: bytes,
                        space: mem.space,
                    },
                    ty: Scalar::I64,
                    span,
                };
                let vmem = Mem { width: w, ..mem };
                let elems = piece * w..(piece + 1) * w;
                if load {
                    let vars: Vec<VarId> = elems
                        .clone()
                        .map(|_| self.new_local("wmma element", frag.elem, span))
                        .collect();
                    out.push(Stmt {
                        kind: StmtKind::VecLoad {
                            mem: vmem,
                            index,
                            vars: vars.clone(),
                        },
                        span,
                    });
                    for (i, v) in elems.zip(vars) {
                        let leaf = self.frag_element(&place, i, span)?;
                        out.push(self.write(leaf, var(v, frag.elem, span), span)?);
                    }
                } else {
                    let mut values = Vec::new();
                    for i in elems {
                        let leaf = self.frag_element(&place, i, span)?;
                        values.push(self.read(leaf, span));
                    }
                    out.push(Stmt {
                        kind: StmtKind::VecStore {
                            mem: vmem,
                            index,
                            values,
                        },
                        span,
                    });
                }
            }
        } else {
            // An accumulator (row-major) in column-major memory: element (r, c) at c * ldm + r,
            // one scalar access each.
            for i in 0..e {
                let fixed = crate::wmma::tile_element(e, bytes, 0, i);
                let el = self.binary(BinOp::Add, span, first.clone(), u32c(fixed))?;
                let r = self.binary(BinOp::Div, span, el.clone(), u32c(cols))?;
                let c = self.binary(BinOp::Rem, span, el, u32c(cols))?;
                let (r, c) = (self.convert(r, Scalar::I64), self.convert(c, Scalar::I64));
                let across = self.binary(BinOp::Mul, span, c, var(ldm_var, Scalar::I64, span))?;
                let at = self.binary(BinOp::Add, span, var(ptr_var, Scalar::I64, span), across)?;
                let index = self.binary(BinOp::Add, span, at, r)?;
                let leaf = self.frag_element(&place, i, span)?;
                if load {
                    let value = super::expr::load(mem, index, span);
                    out.push(self.write(leaf, value, span)?);
                } else {
                    let value = self.read(leaf, span);
                    out.push(Stmt {
                        kind: StmtKind::Store { mem, index, value },
                        span,
                    });
                }
            }
        }
        Ok(out)
    }

    /// `wmma::mem_row_major` (false) or `wmma::mem_col_major` (true).
    fn layout_arg(&mut self, e: &ast::Expr) -> Result<bool> {
        if let ast::ExprKind::Name(n) = &e.kind {
            match super::groups::unqualified(n) {
                "mem_row_major" => return Ok(false),
                "mem_col_major" => return Ok(true),
                _ => {}
            }
        }
        let t = self.expr(e)?;
        match t.kind {
            ExprKind::Const(v) if matches!(v.as_i64(), Some(0 | 1)) => Ok(v.as_i64() == Some(1)),
            _ => Err(CheckError::Wmma {
                what: "a layout simt cannot know before the run".into(),
                span: e.span,
                label: "not `wmma::mem_row_major` or `wmma::mem_col_major`".into(),
                help: "pass `wmma::mem_row_major` or `wmma::mem_col_major` (a constant): simt lays the accesses out when it checks the call".into(),
            }),
        }
    }

    /// The thread's lane: its linear index in the block, modulo 32.
    fn lane_id(&mut self, span: Span) -> Result<Expr> {
        let b = |x| Expr {
            kind: ExprKind::Builtin(x),
            ty: Scalar::U32,
            span,
        };
        let dx = b(Builtin::BlockDim(0));
        let dy = b(Builtin::BlockDim(1));
        let z = self.binary(BinOp::Mul, span, b(Builtin::ThreadIdx(2)), dy)?;
        let zy = self.binary(BinOp::Add, span, z, b(Builtin::ThreadIdx(1)))?;
        let rows = self.binary(BinOp::Mul, span, zy, dx)?;
        let linear = self.binary(BinOp::Add, span, rows, b(Builtin::ThreadIdx(0)))?;
        self.binary(BinOp::BitAnd, span, linear, constant(Value::U32(31), span))
    }

    /// `mma_sync(d, a, b, c[, satf])`.
    fn mma_sync(&mut self, args: &[ast::Expr], span: Span) -> Result<Vec<Stmt>> {
        const CALL: &str = "wmma::mma_sync";
        super::intrinsics::arity(CALL, args.len(), 4, 5, span)?;
        let (d, d_place) = self.fragment(&args[0], CALL)?;
        let (a, a_place) = self.fragment(&args[1], CALL)?;
        let (b, b_place) = self.fragment(&args[2], CALL)?;
        let (c, c_place) = self.fragment(&args[3], CALL)?;
        for (f, want, k) in [
            (d, Use::Accumulator, 0),
            (a, Use::A, 1),
            (b, Use::B, 2),
            (c, Use::Accumulator, 3),
        ] {
            if f.usage != want {
                let name = [
                    "an accumulator as `d`",
                    "a matrix_a fragment as `a`",
                    "a matrix_b fragment as `b`",
                    "an accumulator as `c`",
                ][k];
                return Err(CheckError::Wmma {
                    what: format!("`{CALL}(d, a, b, c)` takes {name}"),
                    span: args[k].span,
                    label: format!("a `{}`", f.describe()),
                    help: "call `wmma::mma_sync(d, a, b, c)`: D = A * B + C".into(),
                });
            }
            if (f.m, f.n, f.k) != (a.m, a.n, a.k) {
                return Err(CheckError::Wmma {
                    what: format!("`{CALL}` of fragments of different shapes"),
                    span: args[k].span,
                    label: format!("a `{}`, and a is m{}n{}k{}", f.describe(), a.m, a.n, a.k),
                    help: "m, n and k must match between fragments a, b, c and d".into(),
                });
            }
        }
        let accs: &[Scalar] = match (a.elem, a.tf32) {
            (Scalar::F16, _) => &[Scalar::F32, Scalar::F16],
            (Scalar::I8 | Scalar::U8, _) => &[Scalar::I32],
            (Scalar::F64, _) => &[Scalar::F64],
            _ => &[Scalar::F32],
        };
        let bad = if (b.elem, b.tf32) != (a.elem, a.tf32) {
            Some((2, b))
        } else if !accs.contains(&d.elem) {
            Some((0, d))
        } else if !accs.contains(&c.elem) {
            Some((3, c))
        } else {
            None
        };
        if let Some((k, f)) = bad {
            return Err(CheckError::Wmma {
                what: format!("`{CALL}` of these element types is not a WMMA operation"),
                span: args[k].span,
                label: format!("a `{}`, and a is a `{}`", f.describe(), a.describe()),
                help: HAVE.into(),
            });
        }
        let satf = match args.get(4) {
            None => false,
            Some(e) => {
                let t = self.expr(e)?;
                match t.kind {
                    ExprKind::Const(v) => v.as_i64().is_some_and(|x| x != 0),
                    _ => {
                        return Err(CheckError::Wmma {
                            what: "a `satf` simt cannot know before the run".into(),
                            span: e.span,
                            label: "not a constant".into(),
                            help: "pass `true` or `false`".into(),
                        })
                    }
                }
            }
        };
        let op = MmaOp {
            m: a.m,
            n: a.n,
            k: a.k,
            input: a.elem,
            tf32: a.tf32,
            c: c.elem,
            d: d.elem,
            a_col: a.col,
            b_col: b.col,
            satf,
            ptx: false,
        };
        let reads = |this: &mut Self, place: &StructPlace, f: Frag| -> Result<Vec<Expr>> {
            (0..f.len())
                .map(|i| {
                    let leaf = this.frag_element(place, i, span)?;
                    Ok(this.read(leaf, span))
                })
                .collect()
        };
        let av = reads(self, &a_place, a)?;
        let bv = reads(self, &b_place, b)?;
        let cv = reads(self, &c_place, c)?;
        let dv: Vec<VarId> = (0..d.len())
            .map(|_| self.new_local("mma_sync()", d.elem, span))
            .collect();
        let mut out = vec![Stmt {
            kind: StmtKind::Mma {
                op,
                a: av,
                b: bv,
                c: cv,
                d: dv.clone(),
            },
            span,
        }];
        for (i, v) in dv.into_iter().enumerate() {
            let leaf = self.frag_element(&d_place, i as u32, span)?;
            out.push(self.write(leaf, var(v, d.elem, span), span)?);
        }
        Ok(out)
    }
}

/// A fragment's type from its specialisation's arguments (`<matrix_a,16,16,16,half,row_major>`).
fn parse_spec(spec: &str) -> Option<Frag> {
    let inner = spec.trim().strip_prefix('<')?.strip_suffix('>')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let usage = match *parts.first()? {
        "matrix_a" => Use::A,
        "matrix_b" => Use::B,
        "accumulator" => Use::Accumulator,
        _ => return None,
    };
    let num = |k: usize| parts.get(k)?.parse::<u32>().ok();
    let (elem, tf32) = elem_of(parts.get(4)?)?;
    Some(Frag {
        usage,
        m: num(1)?,
        n: num(2)?,
        k: num(3)?,
        elem,
        tf32,
        col: parts.get(5) == Some(&"col_major"),
    })
}

/// Variable `v` of type `ty` as an expression.
fn var(v: VarId, ty: Scalar, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        ty: ty.promoted(),
        span,
    }
}

/// `v = value`.
fn assign(v: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var: v, value },
        span,
    }
}
