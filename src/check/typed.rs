//! The checked program: names resolved, every expression typed, implicit conversions explicit.

use crate::source::Span;
use crate::value::{
    ArithOp, AtomicOp, CmpOp, Math1, Math2, Scalar, ShflKind, Value, VoteKind, WarpFold,
};

/// Every kernel of a file, checked.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Kernels in file order.
    pub kernels: Vec<Kernel>,
    /// Kernels and functions left out because they have errors and are not the ones asked for
    /// (nor called by them).
    pub unchecked: Vec<Unchecked>,
}

/// A kernel or function left out of a program: it has errors, and another kernel of the file is
/// the one run.
#[derive(Clone, Debug)]
pub struct Unchecked {
    /// `kernel` or `function`.
    pub what: &'static str,
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Its first error's message.
    pub first: String,
    /// That error's code.
    pub code: String,
}

impl Program {
    /// The kernel with this name.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The names `name` is compared with when no kernel has it: the kernels' qualified names
    /// (`a::b::k`) for a qualified one, their own names otherwise.
    pub fn names_like(&self, module: &crate::syntax::ast::Module, name: &str) -> Vec<String> {
        if name.contains("::") {
            module
                .kernels
                .iter()
                .map(crate::syntax::ast::Kernel::qualified_name)
                .collect()
        } else {
            self.kernels.iter().map(|k| k.name.clone()).collect()
        }
    }
}

/// The offset a null pointer holds: far below any array, so a dereference is out of bounds by
/// more than any real index (the engine reports it as a null dereference).
pub const NULL_OFFSET: i64 = i64::MIN / 4;

/// A pointer that may point into one of several arrays ([`Space::Choice`]) holds `k <<
/// CHOICE_SHIFT` plus its offset, where `k` numbers the array in [`Kernel::choices`]: pointer
/// arithmetic, comparison and `?:` then work on the one `i64` unchanged, and each access finds its
/// array from the high bits. Offsets stay below 2^39 elements either way.
pub const CHOICE_SHIFT: u32 = 40;

/// The array number and the offset within it of a [`Space::Choice`] pointer value; the number is
/// negative for a null pointer (or one moved far out of its array).
pub fn choice_parts(value: i64) -> (i64, i64) {
    let k = value.wrapping_add(1 << (CHOICE_SHIFT - 1)) >> CHOICE_SHIFT;
    (k, value.wrapping_sub(k << CHOICE_SHIFT))
}

/// A local variable (or scalar parameter) slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);

/// The block shape a CUB block collective was specialised for, where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockShape {
    /// The use.
    pub span: Span,
    /// `BLOCK_DIM_X`, `BLOCK_DIM_Y`, `BLOCK_DIM_Z`.
    pub dims: [u32; 3],
    /// A `BlockReduce` with `valid_items`: CUB's partial-tile path reads only the warps that
    /// hold valid items, so a smaller block that the class's shape numbers `0..n` (its rows
    /// whole but for the last dimension used) runs it too, `valid_items` being at most its size.
    pub smaller: bool,
}

impl BlockShape {
    /// Whether a launch with blocks of `block` may run the collective.
    pub fn fits(&self, block: [u32; 3]) -> bool {
        let [x, y, z] = self.dims;
        let [bx, by, bz] = block;
        block == self.dims
            || (self.smaller
                && bx <= x
                && by <= y
                && bz <= z
                && (by == 1 || bx == x)
                && (bz == 1 || (bx == x && by == y)))
    }
}

/// One checked kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Its definition.
    pub span: Span,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// `__shared__` arrays.
    pub shared: Vec<Shared>,
    /// Every local variable, indexed by `VarId`.
    pub locals: Vec<Local>,
    /// Per-thread local arrays (`float acc[8];`).
    pub local_arrays: Vec<LocalArray>,
    /// The struct each `__shared__` or local array of structs holds (`MD` of `__shared__ MD
    /// s[8]`): what an out-of-bounds message counts its elements in.
    pub struct_arrays: Vec<(Space, String)>,
    /// Buffer parameters a narrower view made the kernel keep in narrower elements (a
    /// `uint64_t*` buffer read through `(uint32_t*)`), with the element type they hold while
    /// it runs; the launch's arrays keep their own type (see `exec::narrowed`).
    pub narrowed: Vec<(u32, Scalar)>,
    /// Parameters that are `__constant__` arrays (read through the constant cache).
    pub constants: Vec<u32>,
    /// Those that are `__constant__` scalars (a launch may set them to a number).
    pub constant_scalars: Vec<u32>,
    /// `__constant__` variables declared without an initialiser: a launch that does not set one
    /// gives it zeros, as CUDA zero-initialises a symbol host code never copies to.
    pub unset_constants: Vec<u32>,
    /// Parameters that are texture objects (`cudaTextureObject_t`): `unsigned long long`
    /// handles the launch binds to textures ([`crate::texture`]).
    pub textures: Vec<u32>,
    /// File-scope `__device__`/`__constant__` variables (not textures) with their declared
    /// number of elements, as the launch's values count them (a scalar: 1; `float4 v[2]`: 8):
    /// CUDA gives a symbol its declared size, so a launch may not set it to another.
    pub symbol_sizes: Vec<(u32, u64)>,
    /// Those that are structs (or arrays of structs), with where their leaves lie: a launch may
    /// list each struct's members' values in order (`p = [56, 2, 10, 0.9];`), which the
    /// symbol's buffer holds as the struct's bytes.
    pub struct_symbols: Vec<(u32, super::struct_image::StructImage)>,
    /// The file's `const`/`constexpr` scalars at file scope (`const int N = 1024;`), by name:
    /// a launch section may use them as it uses `#define`d names.
    pub file_constants: Vec<(String, Value)>,
    /// The file's host arrays with their values (`static const uint32_t alpha_n[] = {...};`),
    /// by name, each as the list literal of its values in its element type: a launch section
    /// may copy one into constant memory (`d_alpha_n = alpha_n;`).
    pub file_arrays: Vec<(String, Scalar, crate::syntax::ast::Expr)>,
    /// ATen accessor parameters (`at::PackedTensorAccessor64<float, 3, ...> p`), each its
    /// buffer parameter and rank N: the buffer is followed by the N scalar parameters
    /// `p.size(k)`, then the N `p.stride(k)`, which the launch sets from the array's shape.
    pub accessors: Vec<(u32, u32)>,
    /// Notes for the report: constructs that run but deserve a word, each with where it is
    /// written and its hint rule (`deprecated`, `no_effect`).
    pub notes: Vec<(Span, &'static str, String)>,
    /// The body.
    pub body: Vec<Stmt>,
    /// Block shapes the kernel's CUB block collectives were specialised for (`BlockReduce<T,
    /// 128>`), each with the class's span: a launch of another shape is refused.
    pub block_shapes: Vec<BlockShape>,
    /// The arrays pointers of [`Space::Choice`] may point into, numbered as their values say
    /// ([`CHOICE_SHIFT`]): global buffers and shared arrays.
    pub choices: Vec<Space>,
}

impl Kernel {
    /// The statement calls after which the kernel does nothing more: a `__device__` function
    /// called as the last thing the kernel (or an exiting function) does, outside loops. nvcc
    /// inlines it and its `return` jumps to the kernel's exit, so a thread returning from it has
    /// exited, as if the kernel had returned: it no longer counts for `__syncthreads()` or for a
    /// full-mask warp operation. Keyed by address.
    pub fn exiting_calls(&self) -> std::collections::HashSet<*const Stmt> {
        fn mark(stmts: &[Stmt], out: &mut std::collections::HashSet<*const Stmt>) {
            let last = stmts
                .iter()
                .rev()
                .find(|s| !matches!(s.kind, StmtKind::Return | StmtKind::ReturnFn));
            match last.map(|s| (s, &s.kind)) {
                Some((_, StmtKind::If { then, els, .. })) => {
                    mark(then, out);
                    mark(els, out);
                }
                Some((s, StmtKind::Eval(e))) => {
                    if let ExprKind::Inline { body, .. } = &e.kind {
                        out.insert(std::ptr::from_ref(s));
                        mark(body, out);
                    }
                }
                _ => {}
            }
        }
        let mut out = std::collections::HashSet::new();
        mark(&self.body, &mut out);
        out
    }

    /// The element type that `space` holds: a reinterpreting pointer's [`Mem`] sees another type
    /// of the same size.
    pub fn stored(&self, space: Space) -> Scalar {
        let narrowed = match space {
            Space::Global(p) => self.narrowed.iter().find(|n| n.0 == p).map(|n| n.1),
            _ => None,
        };
        narrowed
            .or_else(|| stored_in((&self.params, &self.shared, &self.local_arrays), space))
            .expect("checker: memory is a buffer, a shared array or a local array")
    }
}

/// The element type `space` holds among a kernel's parameters, shared and local arrays; `None`
/// for a space that is none of them (the checker's placeholder for a pointer into no array).
pub(crate) fn stored_in(
    (params, shared, local_arrays): (&[Param], &[Shared], &[LocalArray]),
    space: Space,
) -> Option<Scalar> {
    match space {
        Space::Global(p) => match params.get(p as usize)?.kind {
            ParamKind::Buffer { elem, .. } => Some(elem),
            ParamKind::Scalar { .. } => None,
        },
        Space::Shared(s) => Some(shared.get(s as usize)?.stored),
        Space::Local(l) => Some(local_arrays.get(l as usize)?.stored),
        Space::Choice { stored, .. } => Some(stored),
    }
}

/// A kernel parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Scalar or buffer.
    pub kind: ParamKind,
    /// `= value` in the signature: what the launch binds when it names no value.
    pub default: Option<crate::syntax::ast::Expr>,
    /// For a `void*` parameter cast to pointers of different element types (`(const half*)x`
    /// and `(const float*)x`, chosen by a flag), the types as written: the buffer takes the
    /// first's, so the launch must give an array whose type is known (a `.npy` file).
    pub views: Vec<String>,
    /// A struct parameter's pointer member that simt holds but does not follow (to `void`, to
    /// a pointer, to a struct that holds pointers), its pointee as written: the launch leaves
    /// it unset or sets it to `NULL`.
    pub opaque: Option<String>,
    /// A `void*` parameter: untyped memory, so a file of any type gives it its bytes.
    pub untyped: bool,
}

impl Param {
    /// A writable buffer parameter of `(elem, width)` elements that simt adds itself: no
    /// default, views or opaque pointee.
    pub fn hidden_buffer(name: String, span: Span, (elem, width): (Scalar, u32)) -> Param {
        Param {
            name,
            span,
            kind: ParamKind::Buffer {
                elem,
                width,
                is_const: false,
            },
            default: None,
            views: Vec::new(),
            opaque: None,
            untyped: false,
        }
    }

    /// Its type as C spells it: a pointer member simt does not follow as declared
    /// (`void*`, `QASMLogger*`), any other as [`ParamKind::describe`].
    pub fn describe(&self) -> String {
        match (&self.opaque, self.kind) {
            (Some(what), ParamKind::Buffer { is_const, .. }) => {
                format!("{}{what}*", if is_const { "const " } else { "" })
            }
            _ => self.kind.describe(),
        }
    }
}

/// What a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A scalar, copied into a local variable at the start of each thread.
    Scalar {
        /// Declared type.
        ty: Scalar,
        /// The local that holds it.
        var: VarId,
    },
    /// A pointer to a global buffer.
    Buffer {
        /// Element type (the component type of a vector type).
        elem: Scalar,
        /// Components per element: 1, or 2/4 for `float2`, `int4`, ...
        width: u32,
        /// `const T*`: stores are rejected.
        is_const: bool,
    },
}

impl ParamKind {
    /// `float*`, `int` ... as C spells it.
    pub fn describe(&self) -> String {
        match self {
            ParamKind::Scalar { ty, .. } => ty.c_name().to_string(),
            ParamKind::Buffer {
                elem,
                width,
                is_const,
            } => format!(
                "{}{}*",
                if *is_const { "const " } else { "" },
                type_name(*elem, *width)
            ),
        }
    }
}

/// `float` or `float4`: the C name of `width` components of `elem`.
pub fn type_name(elem: Scalar, width: u32) -> String {
    // The vector types' own spellings (`uchar4`, `half2`, `__nv_bfloat162`).
    let base = match elem {
        Scalar::I8 => "char",
        Scalar::U8 => "uchar",
        Scalar::I16 => "short",
        Scalar::U16 => "ushort",
        Scalar::I32 => "int",
        Scalar::U32 => "uint",
        Scalar::I64 => "longlong",
        Scalar::U64 => "ulonglong",
        Scalar::F32 => "float",
        Scalar::F64 => "double",
        Scalar::F16 => "half",
        Scalar::BF16 => "__nv_bfloat16",
        Scalar::Bool => return elem.c_name().to_string(),
    };
    if width == 1 {
        elem.c_name().to_string()
    } else {
        format!("{base}{width}")
    }
}

/// A `__shared__` array.
#[derive(Clone, Debug)]
pub struct Shared {
    /// Its name.
    pub name: String,
    /// Element type (the component type of a vector type).
    pub elem: Scalar,
    /// Components per element.
    pub width: u32,
    /// Dimensions (`[R][C]` → `[R, C]`); empty for `extern __shared__ T a[]`.
    pub dims: Vec<u64>,
    /// `extern __shared__`: sized by the launch's dynamic shared memory.
    pub is_extern: bool,
    /// The type its memory holds: `elem`, or, once a pointer views a static array as narrower
    /// components (`(unsigned char*)` of an `unsigned int` array), the unsigned integer of the
    /// narrowest view's size, as for a [`LocalArray`].
    pub stored: Scalar,
    /// Its declaration.
    pub span: Span,
    /// Part of a member of a `__shared__` union of CUB TempStorages: (the union, the member).
    /// The members of one union share its bytes: it takes its largest member's.
    pub overlay: Option<(u32, u32)>,
}

/// The bytes of static shared memory the arrays `shared` take: each array's own, but a union
/// only its largest member's.
pub fn static_bytes(shared: &[Shared]) -> u64 {
    let mut plain = 0u64;
    let mut members: std::collections::BTreeMap<(u32, u32), u64> = Default::default();
    for s in shared.iter().filter(|s| !s.is_extern) {
        let bytes = s.static_len() * u64::from(s.elem.size());
        match s.overlay {
            Some(m) => *members.entry(m).or_default() += bytes,
            None => plain += bytes,
        }
    }
    let mut unions: std::collections::BTreeMap<u32, u64> = Default::default();
    for ((u, _), bytes) in members {
        let largest = unions.entry(u).or_default();
        *largest = (*largest).max(bytes);
    }
    plain + unions.values().sum::<u64>()
}

impl Shared {
    /// `__shared__ int count;`: a single element, used by name.
    pub fn is_scalar(&self) -> bool {
        self.dims.is_empty() && !self.is_extern
    }

    /// Scalar components of a statically sized array.
    pub fn static_len(&self) -> u64 {
        self.dims.iter().product::<u64>() * u64::from(self.width)
    }

    /// Elements of [`Shared::stored`] a statically sized array holds.
    pub fn stored_len(&self) -> u64 {
        self.static_len() * u64::from(self.elem.size() / self.stored.size())
    }
}

/// A per-thread local array.
#[derive(Clone, Debug)]
pub struct LocalArray {
    /// Its name.
    pub name: String,
    /// Element (component) type.
    pub elem: Scalar,
    /// Components per element.
    pub width: u32,
    /// Dimensions.
    pub dims: Vec<u64>,
    /// Every index is known once loops with constant bounds are unrolled, so the compiler keeps
    /// it in registers (no memory traffic); otherwise it lives in local memory.
    pub in_registers: bool,
    /// The type its memory holds: `elem`, or, once a pointer views it as narrower components
    /// (`half2*` of a `float4` local), the unsigned integer of the narrowest view's size, so that
    /// every view, the declared type's included, is whole elements of it (packed, as any wider
    /// view of narrow memory is).
    pub stored: Scalar,
    /// A variable kept in memory (its address taken, or read before it may be set), not an
    /// array: reports name it without an index.
    pub variable: bool,
    /// Its declaration.
    pub span: Span,
}

impl LocalArray {
    /// A per-thread array of `dims` elements of `width` components of `elem`, stored as `elem`.
    pub fn new(name: String, (elem, width): (Scalar, u32), dims: Vec<u64>, span: Span) -> Self {
        LocalArray {
            name,
            elem,
            width,
            dims,
            in_registers: false,
            stored: elem,
            variable: false,
            span,
        }
    }

    /// Scalar components of its declared type.
    pub fn components(&self) -> u64 {
        self.dims.iter().product::<u64>() * u64::from(self.width)
    }

    /// Elements of [`LocalArray::stored`] its memory holds.
    pub fn stored_len(&self) -> u64 {
        self.components() * u64::from(self.elem.size() / self.stored.size())
    }
}

/// A local variable.
#[derive(Clone, Debug)]
pub struct Local {
    /// Its name.
    pub name: String,
    /// Declared type (`char` stays `char`; its register holds the promoted type).
    pub declared: Scalar,
    /// Where it is declared.
    pub span: Span,
}

/// Which memory an access goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Global buffer of parameter `n`.
    Global(u32),
    /// Shared array `n` of the kernel.
    Shared(u32),
    /// Local array `n` of the kernel (one per thread).
    Local(u32),
    /// One of the kernel's [`Kernel::choices`], holding this type, chosen lane by lane by the
    /// pointer's value ([`CHOICE_SHIFT`]): `float* src = a; ... src = dst;` in a loop, or
    /// `flag ? a : b`.
    Choice {
        /// The element type every array of the choice holds.
        stored: Scalar,
        /// Shared arrays (else global buffers).
        shared: bool,
    },
}

/// A memory reference: the space and its element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    /// The buffer or array.
    pub space: Space,
    /// Element (component) type as accessed: the type in memory, or another of the same size
    /// that a pointer cast reinterprets it as ([`Kernel::stored`] gives the memory's own).
    pub elem: Scalar,
    /// Components accessed at once: 1, or 2/4 for a vector access (indices count vectors).
    pub width: u32,
}

/// CUDA's built-in index variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `threadIdx.{x,y,z}`
    ThreadIdx(u8),
    /// `blockIdx.{x,y,z}`
    BlockIdx(u8),
    /// `blockDim.{x,y,z}`
    BlockDim(u8),
    /// `gridDim.{x,y,z}`
    GridDim(u8),
    /// 1 in a cooperative launch, else 0: what `this_grid().is_valid()` reads.
    Cooperative,
}

/// A function call the simulator computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    /// `sqrtf(x)` and other one-argument math.
    Math1(Math1),
    /// `powf(x, y)` and other two-argument math.
    Math2(Math2),
    /// `fmaf(a, b, c)`
    Fma,
    /// `__fadd_rz(a, b)` and CUDA's other IEEE-rounded arithmetic: the exact result rounded
    /// once to the call's type, to nearest (`dir` None, `_rn`) or in a direction.
    Rounded {
        /// Which operation.
        op: crate::value::RoundedOp,
        /// `_rd`, `_ru` or `_rz`; `None` for `_rn`.
        dir: Option<crate::value::Direction>,
    },
    /// `abs(x)` on integers or floats.
    Abs,
    /// `__popc(x)` and the other bit intrinsics, on the argument's width.
    Bits(crate::value::BitOp),
    /// `__byte_perm(x, y, s)`, the funnel shifts and `__sad`/`__usad`: three 32-bit operands.
    Bits3(crate::value::Bits3),
    /// The bits of a `from` seen as a `to` of the same size, where one of them is a 16-bit float
    /// (`__half_as_ushort`, `__ushort_as_half`), whose register type does not say which it is.
    View {
        /// The argument's own type.
        from: Scalar,
        /// The type its bits are read as.
        to: Scalar,
    },
    /// The exact value of a `from` rounded to the float type `to` in one direction
    /// (`__int2half_rd`, `__float2bfloat16_rz`, `__ll2float_ru`): one conversion instruction.
    Directed {
        /// The argument's own type.
        from: Scalar,
        /// The float type of the result.
        to: Scalar,
        /// Down, up or toward zero.
        dir: crate::value::Direction,
    },
    /// Word `word` of cuRAND's XORWOW state words `v0 … v4` after `n` steps, or `2^67·n` when
    /// `sequence` (`__simt_xorwow_skipahead[_sequence](v0, …, v4, n, word)` of simt's
    /// `<curand_kernel.h>`; `src/curand.rs`).
    Xorwow {
        /// Which of the five words.
        word: u8,
        /// Whole subsequences of `2^67` steps.
        sequence: bool,
    },
}

/// A typed expression. `ty` is the register type of its value.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Scalar,
    /// Where it is written.
    pub span: Span,
}

impl Expr {
    /// Whether this is the element a compound assignment stores to, read (perhaps converted):
    /// the left operand of `a[i] += f()`. C++17 sequences the right operand, side effects
    /// included, before that read ([expr.ass]/1), so the engines evaluate the right one first.
    pub fn reads_store_target(&self) -> bool {
        match &self.kind {
            ExprKind::LoadAtStore { .. } => true,
            ExprKind::Cast { operand, .. } => operand.reads_store_target(),
            _ => false,
        }
    }
}

/// Typed expression forms.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A folded constant.
    Const(Value),
    /// A local variable.
    Var(VarId),
    /// `threadIdx.x` and friends (`unsigned int`).
    Builtin(Builtin),
    /// `-x`
    Neg(Box<Expr>),
    /// `~x`
    BitNot(Box<Expr>),
    /// `!x` on a `bool`
    Not(Box<Expr>),
    /// `a op b`, both of type `ty`.
    Arith {
        /// Operator.
        op: ArithOp,
        /// Left.
        lhs: Box<Expr>,
        /// Right.
        rhs: Box<Expr>,
    },
    /// `a op b` of one operand type, giving `bool`.
    Compare {
        /// Operator.
        op: CmpOp,
        /// Left.
        lhs: Box<Expr>,
        /// Right.
        rhs: Box<Expr>,
    },
    /// `a && b` (`and`) or `a || b`, short-circuit per lane.
    Logic {
        /// `&&` when true, `||` when false.
        and: bool,
        /// Left.
        lhs: Box<Expr>,
        /// Right, evaluated only on lanes that need it.
        rhs: Box<Expr>,
    },
    /// `(to)operand`; the expression's `ty` is `to.promoted()`.
    Cast {
        /// Target type (may be a narrow integer: then the value is truncated).
        to: Scalar,
        /// Operand.
        operand: Box<Expr>,
    },
    /// The `float` result of an operation on 16-bit floats rounded to `to` (`F16` or `BF16`):
    /// part of the 16-bit instruction (`add.f16`), so free, unlike a conversion; `ty` is `F32`.
    /// (The model reads 16-bit floats into `float` registers as it loads them.)
    /// With `to` = `F32` or `F64` it is the value as a plain `float` (`__half2float`) or exactly
    /// as a `double` (`__hfma`'s operands), also free; then `ty` is `to`.
    Round {
        /// `F16`, `BF16`, `F32` or `F64`.
        to: Scalar,
        /// The `float` operation.
        operand: Box<Expr>,
    },
    /// `cond ? then : els`, each side evaluated only on its lanes.
    Select {
        /// Condition (`bool`).
        cond: Box<Expr>,
        /// Value where true.
        then: Box<Expr>,
        /// Value where false.
        els: Box<Expr>,
    },
    /// A math call.
    Call {
        /// The function.
        func: Func,
        /// Arguments, already of type `ty`.
        args: Vec<Expr>,
    },
    /// `buf[index]`
    Load {
        /// What is read.
        mem: Mem,
        /// Element index (any integer type).
        index: Box<Expr>,
        /// A member of a whole struct being copied (`return p;`, `q = p;`): an element not yet
        /// written is copied along, not an uninitialised read (chai's partitioner leaves
        /// `current` for a later call to set).
        copy: bool,
    },
    /// The element the enclosing `Store` writes (the old value in `a[i] += v`).
    LoadAtStore {
        /// What is read.
        mem: Mem,
    },
    /// `__shfl*_sync(mask, value, arg, width)`: `value` from another lane of the warp.
    Shuffle {
        /// Which shuffle.
        kind: ShflKind,
        /// Lanes that must take part (`unsigned`).
        mask: Box<Expr>,
        /// The value exchanged (of type `ty`).
        value: Box<Expr>,
        /// srcLane, delta or laneMask (`unsigned`).
        arg: Box<Expr>,
        /// Segment width, a power of two up to 32 (`unsigned`).
        width: Box<Expr>,
        /// A `__shfl*_sync` the kernel wrote: a read past the end of a partial warp is an error.
        /// The shuffles simt builds CUB's and cooperative groups' collectives from guard what
        /// they read instead.
        strict: bool,
    },
    /// `__ballot_sync`, `__any_sync`, `__all_sync`.
    Vote {
        /// Which vote.
        kind: VoteKind,
        /// Lanes that must take part (`unsigned`).
        mask: Box<Expr>,
        /// The predicate (`bool`).
        pred: Box<Expr>,
    },
    /// `__match_*_sync(mask, value)` (`ty` `unsigned`) or `__reduce_*_sync(mask, value)` (`ty`
    /// the value's, `int` or `unsigned`).
    WarpFold {
        /// Which fold.
        kind: WarpFold,
        /// Lanes that take part (`unsigned`).
        mask: Box<Expr>,
        /// The lane's value: `unsigned`, `int`, or for a match the bits of any 4- or 8-byte
        /// value (`unsigned` or `unsigned long long`).
        value: Box<Expr>,
    },
    /// `__activemask()`: the active lanes of the warp as bits.
    ActiveMask,
    /// `tex2D<T>(handle, x, y)` and the other texture fetches: the texture the handle (an
    /// `unsigned long long`) names, read at the coordinates (`int` for `tex1Dfetch`, `float`
    /// otherwise); `ty` is `T` promoted.
    Texture {
        /// Which fetch function.
        fetch: crate::texture::Fetch,
        /// `T`, the type the fetch returns.
        returns: Scalar,
        /// The texture object.
        handle: Box<Expr>,
        /// One per dimension.
        coords: Vec<Expr>,
        /// The component of a texel of `channels` (`tex2D<float4>` reads 4, one fetch each).
        channel: u8,
        /// The texel's components.
        channels: u8,
    },
    /// `clock()` / `clock64()`: the warp instructions the block has issued so far, simt's
    /// deterministic stand-in for the SM's cycle counter.
    Clock,
    /// Where pointer parameter `n` points (`i64`): 0, or [`NULL_OFFSET`] when bound to `NULL`.
    ParamBase(u32),
    /// The byte address pointer parameter `n` points at (`u64`; 0 when bound to `NULL`): its
    /// array's address ([`crate::ir::global_address`]) plus the binding's offset.
    ParamAddress(u32),
    /// An integer widened to `long long` for pointer arithmetic: free, like the wide multiply-add
    /// the hardware computes addresses with.
    Widen(Box<Expr>),
    /// A pointer offset in units of `from` bytes re-expressed in units of `to` bytes (a cast
    /// such as `(float4*)p` or `(char*)p`): traps "misaligned address" where it does not divide.
    Rescale {
        /// The offset (`i64`).
        value: Box<Expr>,
        /// Bytes per unit before.
        from: u32,
        /// Bytes per unit after.
        to: u32,
        /// Bytes per component of the memory (a parameter's binding counts components).
        size: u32,
        /// The array pointed into (for the trap's message).
        space: Space,
    },
    /// `atomicOp(&mem[index], operand[, compare])`: the old value.
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// The memory.
        mem: Mem,
        /// Element index.
        index: Box<Expr>,
        /// The operand, of the element's register type.
        operand: Box<Expr>,
        /// `atomicCAS`'s compare value (the operand's type).
        compare: Option<Box<Expr>>,
    },
    /// A `__device__` function call, inlined: the body runs under the caller's mask, then
    /// `result` (if the function returns a value) holds the value.
    Inline {
        /// The function's name.
        name: String,
        /// Parameter assignments followed by the body.
        body: Vec<Stmt>,
        /// The variable `return` assigns, if any.
        result: Option<VarId>,
    },
}

/// Why a thread that reaches a [`StmtKind::Fault`] stops the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A virtual call through a pointer to an object whose class word names no class derived
    /// from the pointer's class (memory that holds no such object).
    BadDynamicType {
        /// The member function called.
        call: String,
        /// The pointer's class.
        class: String,
    },
    /// A virtual call that would run a function already running on the thread: simt inlines
    /// calls, so it cannot run this recursion.
    Recursion {
        /// The function, as `class::member`.
        function: String,
    },
    /// `delete p` (or `free(p)`) of a pointer that is not the start of a live allocation: one
    /// `new` did not return, or one deleted already (`twice`).
    BadDelete {
        /// The call as written: `delete`, `delete[]` or `free`.
        call: String,
        /// Whether the allocation was deleted before.
        twice: bool,
    },
    /// `__builtin_unreachable()`: a place the program says no thread reaches; one that does
    /// makes the behaviour undefined.
    Unreachable,
    /// The end of a function that returns a value, reached without a `return` (undefined
    /// behaviour in C++, [stmt.return]/2; nvcc warns "missing return statement").
    MissingReturn {
        /// The function.
        function: String,
    },
    /// `printf("%d", x)` of a `float` `x` (or `%f` of an integer): nvcc warns, and the GPU
    /// prints the value's bits read as the other kind.
    PrintfArgument {
        /// The conversion as written (`%d`).
        conv: String,
        /// Whether it prints a floating value.
        float: bool,
        /// The argument's type.
        ty: String,
    },
    /// An asynchronous copy whose zero fill is more than its size, or ends inside a 4-byte
    /// word (PTX `cp.async`'s src-size above cp-size, or not a multiple of 4 here).
    ZeroFill {
        /// The call as written (`__pipeline_memcpy_async`).
        call: String,
        /// The copy's size in bytes.
        bytes: u64,
    },
}

/// The pointer and leading dimension a WMMA load or store is given.
#[derive(Clone, Debug)]
pub struct TileArgs {
    /// The pointer's offset into its array, in elements (`i64`).
    pub offset: Expr,
    /// Bytes per element.
    pub bytes: u32,
    /// `ldm`, in elements (`i64`).
    pub ldm: Expr,
}

/// A typed statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where it is written.
    pub span: Span,
}

/// Typed statement forms.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `var = value` (value already of the variable's register type).
    Assign {
        /// The variable.
        var: VarId,
        /// New value.
        value: Expr,
    },
    /// `buf[index] = value`.
    Store {
        /// Where.
        mem: Mem,
        /// Element index.
        index: Expr,
        /// Value, of `mem.elem.promoted()`; may read `LoadAtStore`.
        value: Expr,
    },
    /// `if`
    If {
        /// Condition (`bool`).
        cond: Expr,
        /// Taken branch.
        then: Vec<Stmt>,
        /// Else branch.
        els: Vec<Stmt>,
    },
    /// Any loop.
    Loop {
        /// Condition (`None` = forever).
        cond: Option<Expr>,
        /// Tested before the first iteration (`for`/`while`), or after (`do`).
        test_first: bool,
        /// Body.
        body: Vec<Stmt>,
        /// `for` step statements (run after `continue` too).
        step: Vec<Stmt>,
    },
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;`
    Return,
    /// `__syncthreads();`
    Barrier,
    /// Inline PTX's `bar.sync a{, b}` with a barrier number or thread count known only as the
    /// kernel runs: checked there (barrier 0, and the block's every warp counted), then a
    /// [`StmtKind::Barrier`].
    NamedBarrier {
        /// The barrier's number (`u32`).
        id: Expr,
        /// The thread count, if given (`u32`).
        count: Option<Expr>,
    },
    /// `this_grid().sync()` (or `cg::sync(grid)`): a barrier over every thread of the grid; runs
    /// only in a cooperative launch.
    GridSync,
    /// `result = __syncthreads_count(pred)` (or `_and`, `_or`): a barrier that also folds the
    /// predicate over the block's threads; every thread gets the same `int`.
    BarrierVote {
        /// Which fold.
        kind: crate::value::BlockVote,
        /// The thread's predicate (`bool`).
        pred: Expr,
        /// The `int` variable that receives the fold.
        result: VarId,
    },
    /// `vars = mem[index]`: one vector access of `vars.len()` components.
    VecLoad {
        /// Where (`mem.width` components).
        mem: Mem,
        /// Vector index.
        index: Expr,
        /// One variable per component.
        vars: Vec<VarId>,
    },
    /// `mem[index] = values`: one vector access.
    VecStore {
        /// Where.
        mem: Mem,
        /// Vector index.
        index: Expr,
        /// One value per component, of `mem.elem.promoted()`.
        values: Vec<Expr>,
    },
    /// `olds = mem[index]; mem[index] = op(olds, values)`, component by component: one atomic
    /// access of the whole vector (`atomicAdd(half2*, half2)`, each half rounded on its own).
    VecAtomic {
        /// The atomic operation.
        op: AtomicOp,
        /// Where (`mem.width` components).
        mem: Mem,
        /// Vector index.
        index: Expr,
        /// One operand per component, of `mem.elem` (a 16-bit float is rounded to it).
        values: Vec<Expr>,
        /// One variable per component for the old value; empty when the call is a statement.
        olds: Vec<VarId>,
    },
    /// `__syncwarp(mask);`: every lane named in the mask must be active.
    SyncWarp(Expr),
    /// The precondition of a warp-collective call (WMMA's `load_matrix_sync` and
    /// `store_matrix_sync`): the whole warp is there, every lane active; with a tile, every lane
    /// gives the same pointer and `ldm`, the pointer is 256-bit aligned and `ldm` is a multiple
    /// of 16 bytes. It costs nothing: the accesses that follow are the call's instructions.
    Collective {
        /// The function, for messages (`wmma::load_matrix_sync`).
        call: &'static str,
        /// The tile's pointer and stride, if the call takes them.
        tile: Option<TileArgs>,
    },
    /// `mma_sync(d, a, b, c)`: the warp's fragments multiplied and accumulated (`crate::wmma`);
    /// the whole warp must be there, every lane active. One tensor-core warp instruction.
    Mma {
        /// Shape, types, layouts and `satf`.
        op: crate::wmma::MmaOp,
        /// A's elements (of `op.input`).
        a: Vec<Expr>,
        /// B's elements.
        b: Vec<Expr>,
        /// C's elements (of `op.c`).
        c: Vec<Expr>,
        /// One variable per element of D (of `op.d`).
        d: Vec<VarId>,
    },
    /// An expression evaluated for its side effects (an atomic or a `void` function call).
    Eval(Expr),
    /// `return` inside an inlined `__device__` function.
    ReturnFn,
    /// `assert(cond);`: an active thread where `cond` is false stops the launch; so does a false
    /// `__builtin_assume(cond)` (`assume`), whose behaviour CUDA leaves undefined.
    Assert(Expr, bool),
    /// `__trap();`: an active thread that reaches it stops the launch.
    Trap,
    /// A place no thread may reach, which the checker put there: one that does stops the
    /// launch with the fault's diagnostic.
    Fault(Fault),
    /// `memcpy`'s precondition: the `len` bytes from byte `dst.0 * dst.1` of an array and those
    /// from byte `src.0 * src.1` of the same array do not overlap (offsets `i64`, counted in
    /// units of `.1` bytes; `len` `u64`). An active thread where they do stops the launch. It
    /// costs nothing: nvcc checks nothing, an overlapping `memcpy` being undefined behaviour.
    Disjoint {
        /// Where the copy writes.
        dst: (Expr, u32),
        /// Where it reads.
        src: (Expr, u32),
        /// Bytes copied.
        len: Expr,
    },
    /// An operation on what completes asynchronous copies ([`crate::async_copy`]).
    Async(AsyncOp),
    /// `printf(format, args...)`: one argument per conversion, already of its C type.
    Printf {
        /// The format, parsed.
        pieces: Vec<crate::printf::Piece>,
        /// The values, one per conversion (`int`, `unsigned`, `long long`, ... or `double`).
        args: Vec<Expr>,
    },
}

/// An operation of [`crate::async_copy`]: copies' brackets, barriers and pipelines.
#[derive(Clone, Debug)]
pub enum AsyncOp {
    /// The statements up to [`AsyncOp::Close`] are one asynchronous copy's loads and stores,
    /// completed by `obj`.
    Open(crate::async_copy::AsyncObj),
    /// The end of a copy's statements.
    Close,
    /// `init(&bar, count)`: barrier `bar` expects `count` (`unsigned`) arrivals per phase.
    Init {
        /// The barrier.
        bar: u32,
        /// Threads per phase.
        count: Expr,
    },
    /// `bar.arrive_and_wait()`.
    ArriveAndWait {
        /// The barrier.
        bar: u32,
    },
    /// `token = bar.arrive()`: the phase arrived at, in a `u64` variable.
    Arrive {
        /// The barrier.
        bar: u32,
        /// The token's variable.
        token: VarId,
    },
    /// `bar.wait(std::move(token))`.
    Wait {
        /// The barrier.
        bar: u32,
        /// The token (`u64`).
        token: Expr,
    },
    /// `pipe.producer_acquire()`.
    Acquire(crate::async_copy::AsyncObj),
    /// `pipe.producer_commit()`, `__pipeline_commit()`: the thread's copies since its last
    /// commit become the next stage.
    Commit(crate::async_copy::AsyncObj),
    /// `pipe.consumer_wait()`: the oldest stage not released completes.
    ConsumerWait(crate::async_copy::AsyncObj),
    /// `pipe.consumer_release()`: the oldest stage is released.
    Release(crate::async_copy::AsyncObj),
    /// `__pipeline_wait_prior(keep)`, `cg::wait_prior<keep>(g)`: every committed stage but the
    /// newest `keep` completes.
    WaitPrior {
        /// The pipeline.
        obj: crate::async_copy::AsyncObj,
        /// Stages left in flight.
        keep: u32,
        /// The call, for messages.
        call: &'static str,
    },
}
