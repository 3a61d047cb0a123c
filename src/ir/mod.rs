//! The lowered kernel: a flat, typed instruction list over lane registers, with a span per instruction.

mod fold;
mod lower;
mod operands;
mod validated;

use std::fmt;

pub use lower::lower;
pub use operands::bank_index;

use crate::source::Span;
use crate::value::{
    ArithOp, AtomicOp, BlockVote, CmpOp, Math1, Math2, Scalar, ShflKind, Value, VoteKind, WarpFold,
};

/// A lane register. Its bank (and so its storage) follows from the type of the instruction using it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg(pub u32);

/// Storage classes of registers: one struct-of-arrays bank each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bank {
    /// `bool`
    B,
    /// 32-bit integers (`int` and `unsigned` share bits)
    W,
    /// 64-bit integers
    D,
    /// `float`
    F,
    /// `double`
    G,
}

/// The bank of a register type.
pub fn bank_of(ty: Scalar) -> Bank {
    match ty.promoted() {
        Scalar::Bool => Bank::B,
        Scalar::I64 | Scalar::U64 => Bank::D,
        Scalar::F32 => Bank::F,
        Scalar::F64 => Bank::G,
        _ => Bank::W,
    }
}

/// Registers used per bank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegCounts {
    /// `bool` registers.
    pub b: u32,
    /// 32-bit integer registers.
    pub w: u32,
    /// 64-bit integer registers.
    pub d: u32,
    /// `float` registers.
    pub f: u32,
    /// `double` registers.
    pub g: u32,
}

/// Where a memory instruction goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Global buffer bound to kernel parameter `n`.
    Global(u32),
    /// Shared array `n` of the kernel.
    Shared(u32),
    /// Local array `n` of the kernel: one copy per thread.
    Local(u32),
    /// One of [`KernelIr::choices`], lane by lane: the index register holds the array's number
    /// and the index together ([`crate::check::typed::CHOICE_SHIFT`]).
    Choice {
        /// Shared arrays (else global buffers).
        shared: bool,
    },
}

/// A value a register receives before the block runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// A constant (never written by any instruction).
    Const(Value),
    /// `threadIdx.{x,y,z}` of each lane.
    ThreadIdx(u8),
    /// `blockIdx.{x,y,z}` of the block.
    BlockIdx(u8),
    /// `blockDim.{x,y,z}`.
    BlockDim(u8),
    /// `gridDim.{x,y,z}`.
    GridDim(u8),
    /// 1 in a cooperative launch, else 0.
    Cooperative,
    /// The value of scalar parameter `n` (re-set at the start of every block: parameters are assignable).
    Param(u32),
    /// Where pointer parameter `n` points, as an `i64` offset: 0, or `NULL_OFFSET` when it is `NULL`.
    ParamBase(u32),
    /// The byte address pointer parameter `n` points at ([`global_address`]; 0 when `NULL`),
    /// which a pointer-to-integer cast reads.
    ParamAddress(u32),
}

/// The byte address of element `offset` of launch array `buffer`, of `bytes`-byte elements:
/// arrays start 4 GiB apart from `0x7f00_0000_0000` (a plausible device address, aligned far
/// beyond the 256 bytes `cudaMalloc` promises), so a pointer cast to an integer passes the
/// alignment tests it would pass on a GPU.
pub fn global_address(buffer: usize, offset: usize, bytes: u32) -> u64 {
    0x7f00_0000_0000 + ((buffer as u64) << 32) + offset as u64 * u64::from(bytes)
}

/// The element an array was declared of (`MD` of `__shared__ MD s[8]`, `float` of `float
/// v[8]`): what an out-of-bounds message counts in, whatever type the access views it as.
#[derive(Clone, Debug)]
pub struct DeclaredElem {
    /// Its C name.
    pub name: String,
    /// Its bytes.
    pub bytes: u32,
}

/// A shared array as the IR sees it.
#[derive(Clone, Debug)]
pub struct SharedArray {
    /// Name.
    pub name: String,
    /// Element type.
    pub elem: Scalar,
    /// Elements, or `None` for `extern __shared__` (sized by the launch).
    pub len: Option<u64>,
    /// The element it was declared of.
    pub declared: DeclaredElem,
}

/// A per-thread local array as the IR sees it.
#[derive(Clone, Debug)]
pub struct LocalArrayIr {
    /// Name.
    pub name: String,
    /// Element (component) type.
    pub elem: Scalar,
    /// Components per thread.
    pub len: u64,
    /// The element it was declared of.
    pub declared: DeclaredElem,
    /// Kept in registers by the compiler: its accesses cost nothing and move no bytes.
    pub in_registers: bool,
    /// A variable, not an array ([`crate::check::typed::LocalArray::variable`]).
    pub variable: bool,
}

/// One lowered kernel.
#[derive(Clone, Debug)]
pub struct KernelIr {
    /// Kernel name.
    pub name: String,
    /// The instructions.
    pub insts: Vec<Inst>,
    /// `spans[i]` blames `insts[i]`.
    pub spans: Vec<Span>,
    /// Registers per bank.
    pub regs: RegCounts,
    /// Registers filled before each block: `(register, its type, what it gets)`.
    pub inputs: Vec<(Reg, Scalar, Input)>,
    /// Shared arrays.
    pub shared: Vec<SharedArray>,
    /// Per-thread local arrays.
    pub locals: Vec<LocalArrayIr>,
    /// The `printf` calls, by `Inst::Printf::id`.
    pub printfs: Vec<PrintfIr>,
    /// The `mma_sync` calls, by `Inst::Mma::id`.
    pub mmas: Vec<MmaIr>,
    /// The barrier and pipeline operations of asynchronous copies, by [`Inst::Async`]'s `id`.
    pub asyncs: Vec<AsyncIr>,
    /// Buffer parameters that are `__constant__` arrays: loads go through the constant cache.
    pub constants: Vec<u32>,
    /// Buffer parameters held in narrower elements while the kernel runs (see
    /// `check::typed::Kernel::narrowed`).
    pub narrowed: Vec<(u32, crate::value::Scalar)>,
    /// Per instruction, the source site the sanitizer's reports are grouped by (its line); when
    /// empty, each instruction is a site of its own.
    pub sites: Vec<u32>,
    /// Per instruction, whether `nvcc` would leave it out of the machine code (the loop control
    /// and constant arithmetic of unrolled loops, hoisted invariants, register-array accesses,
    /// multiplies contracted into FMAs: `fold.rs` has the rules). Every counter still counts it;
    /// only the refined time model's issue and pipe estimates leave it out.
    pub folded: Vec<bool>,
    /// Per instruction, the machine instructions its compiled form issues when it is not folded:
    /// 1, or [`DIVISION_SEQUENCE`] for an integer division or modulo by a value `nvcc` cannot
    /// know at compile time. Every counter still counts one; only the refined time model's issue
    /// estimate issues the sequence.
    pub machine: Vec<u8>,
    /// Per instruction, whether it is a load an `atomicCAS` of the same element validates
    /// ([`validated`]): the race checker's relaxed read.
    pub relaxed: Vec<bool>,
    /// Per instruction, whether it is a load of a whole struct's member being copied: an
    /// element not yet written is copied, not reported as an uninitialised read.
    pub copies: Vec<bool>,
    /// Per instruction, for the store of a compound assignment (`a[i] += v`, `m[0] |= bit`),
    /// how it read the element: two lanes of one warp doing it to one element may lose one's
    /// update (the race checker's `lost-update`).
    pub compound: Vec<Option<CompoundStore>>,
    /// Block shapes the kernel needs (CUB block collectives), each with where it is required.
    pub block_shapes: Vec<crate::check::typed::BlockShape>,
    /// The arrays [`Space::Choice`] accesses go to, by number: global buffers and shared arrays.
    pub choices: Vec<Space>,
    /// What each [`Inst::Fault`] reports, by its number.
    pub faults: Vec<crate::check::typed::Fault>,
}

/// A compound assignment's store (`a[i] op= v`): where it read the element's old value.
#[derive(Clone, Copy, Debug)]
pub struct CompoundStore {
    /// The register holding the old value.
    pub old: Reg,
    /// Its type: the element's as the assignment saw it (a view's, `((int*)f)[0] += 1`).
    pub ty: Scalar,
    /// `&=` or `|=`: lanes with equal operands leave the same bits in either order.
    pub idempotent: bool,
}

impl KernelIr {
    /// The spans of the calls whose inlined bodies enclose instruction `pc`, innermost first.
    pub fn call_sites(&self, pc: usize) -> Vec<Span> {
        let mut open = Vec::new();
        for (inst, &span) in self.insts[..pc.min(self.insts.len())]
            .iter()
            .zip(&self.spans)
        {
            match inst {
                Inst::FnBegin => open.push(span),
                Inst::FnEnd => {
                    open.pop();
                }
                _ => {}
            }
        }
        open.reverse();
        open
    }

    /// The site of instruction `inst` (see [`KernelIr::sites`]).
    pub fn site(&self, inst: u32) -> u32 {
        self.sites.get(inst as usize).copied().unwrap_or(inst)
    }
}

/// A lowered [`crate::check::typed::AsyncOp`] ([`crate::async_copy`]), with its operands'
/// registers. `bar` numbers the kernel's barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AsyncIr {
    /// `init(&bar, count)`: `count` is `unsigned`.
    Init { bar: u32, count: Reg },
    /// `bar.arrive_and_wait()`.
    ArriveAndWait { bar: u32 },
    /// `token = bar.arrive()`: `token` is a `u64`.
    Arrive { bar: u32, token: Reg },
    /// `bar.wait(token)`.
    Wait { bar: u32, token: Reg },
    /// `pipe.producer_acquire()`.
    Acquire(crate::async_copy::AsyncObj),
    /// `pipe.producer_commit()`, `__pipeline_commit()`.
    Commit(crate::async_copy::AsyncObj),
    /// `pipe.consumer_wait()`.
    ConsumerWait(crate::async_copy::AsyncObj),
    /// `pipe.consumer_release()`.
    Release(crate::async_copy::AsyncObj),
    /// `__pipeline_wait_prior(keep)`, `cg::wait_prior<keep>(g)`.
    WaitPrior {
        obj: crate::async_copy::AsyncObj,
        keep: u32,
        call: &'static str,
    },
}

/// One `mma_sync` call: the operation and the registers of its fragments' elements, each in
/// element order (`x[0]`, `x[1]`, ...).
#[derive(Clone, Debug)]
pub struct MmaIr {
    /// Shape, types, layouts, `satf`.
    pub op: crate::wmma::MmaOp,
    /// A's registers.
    pub a: Vec<Reg>,
    /// B's registers.
    pub b: Vec<Reg>,
    /// C's registers.
    pub c: Vec<Reg>,
    /// D's registers.
    pub d: Vec<Reg>,
}

/// One `printf` call: its format and the registers of its arguments with their types.
#[derive(Clone, Debug)]
pub struct PrintfIr {
    /// The format, parsed.
    pub pieces: Vec<crate::printf::Piece>,
    /// One register per conversion.
    pub args: Vec<(Reg, Scalar)>,
}

/// A typed instruction. Each computing instruction writes only the lanes of the active mask.
///
/// Operand fields follow one convention, so they are not documented one by one: `d` is the
/// destination register, `a`, `b`, `c`, `v` are source registers, `ty` is the register type,
/// `elem` the element type in memory, `idx` the index register and `idx_ty` its type, and the
/// `*_at`/`skip_to`/`head` fields are instruction indices.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Inst {
    /// `d = a op b` on `ty` lanes (integer division by zero traps).
    Arith {
        op: ArithOp,
        ty: Scalar,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `d = a op b` comparing `ty` lanes, giving `bool`.
    Cmp {
        op: CmpOp,
        ty: Scalar,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `d = -a`
    Neg { ty: Scalar, d: Reg, a: Reg },
    /// `d = ~a`
    BitNot { ty: Scalar, d: Reg, a: Reg },
    /// `d = !a` on `bool`
    Not { d: Reg, a: Reg },
    /// `d = a && b` (`and`) or `a || b` on `bool`; `b` was computed only where it matters.
    Logic { and: bool, d: Reg, a: Reg, b: Reg },
    /// `d = (to)a` with C conversion rules.
    Cast {
        from: Scalar,
        to: Scalar,
        d: Reg,
        a: Reg,
    },
    /// `d = c ? a : b`
    Select {
        ty: Scalar,
        d: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    /// `d = f(a)` on floats.
    Math1 {
        f: Math1,
        ty: Scalar,
        d: Reg,
        a: Reg,
    },
    /// `d = f(a, b)` on floats.
    Math2 {
        f: Math2,
        ty: Scalar,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `d = a * b + c` (fused).
    Fma {
        ty: Scalar,
        d: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    /// `d = |a|`
    Abs { ty: Scalar, d: Reg, a: Reg },
    /// `d` = word `word` of the XORWOW state words `v` after `n` steps (`2^67·n` when
    /// `sequence`): cuRAND's skip-ahead (`src/curand.rs`).
    Xorwow {
        word: u8,
        sequence: bool,
        d: Reg,
        v: [Reg; 5],
        n: Reg,
    },
    /// `d = op(a, b, c)` on 32-bit operands (`__byte_perm`, funnel shifts, `__sad`).
    Bits3 {
        op: crate::value::Bits3,
        d: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    /// `d = op(a)`: a bit intrinsic on a `from` operand (32 or 64 bits), giving `ty`.
    Bits {
        op: crate::value::BitOp,
        from: Scalar,
        ty: Scalar,
        d: Reg,
        a: Reg,
    },
    /// `d` = the `float` `a` rounded to the 16-bit float `to` (or widened to `double`): what a
    /// 16-bit float operation does in its own instruction (free).
    Round {
        from: Scalar,
        to: Scalar,
        d: Reg,
        a: Reg,
    },
    /// `d` = the `from` in `a` rounded to the float type `to` in direction `dir`, from its exact
    /// value (`__int2half_rd`, `__float2bfloat16_rz`): one conversion instruction.
    Directed {
        from: Scalar,
        to: Scalar,
        dir: crate::value::Direction,
        d: Reg,
        a: Reg,
    },
    /// `d` = `op` on the first `op.arity()` of `a`, rounded once to `ty` to nearest (`dir`
    /// None) or in direction `dir` (`__fadd_rz`, `__dsqrt_rd`); unused operands repeat `a[0]`.
    Rounded {
        op: crate::value::RoundedOp,
        dir: Option<crate::value::Direction>,
        ty: Scalar,
        d: Reg,
        a: [Reg; 3],
    },
    /// `d = a`: a variable assignment (free in the cost model).
    Mov { ty: Scalar, d: Reg, a: Reg },
    /// `d` = the bytes of the element in `a` (of type `from`) read as the same-size type `to`: a
    /// pointer cast's view of memory (free: the loaded register is only read differently).
    View {
        from: Scalar,
        to: Scalar,
        d: Reg,
        a: Reg,
    },
    /// `d` = the `n` narrow elements in `a` (of type `from`, lowest address first; a 16-bit
    /// float's bits) read as one element of `to`, whose bytes they are: a pointer cast's wider
    /// view of memory (`(uint*)` of a byte array, a component of `float4*` of `half`), loaded
    /// as one access; free.
    Pack {
        from: Scalar,
        to: Scalar,
        n: u8,
        d: Reg,
        a: [Reg; 8],
    },
    /// `d[k]` = the `k`-th `to`-sized piece of the element `a` of type `from`, lowest bytes first:
    /// the narrow elements a wider view stores as one access; free.
    Unpack {
        from: Scalar,
        to: Scalar,
        n: u8,
        d: [Reg; 8],
        a: Reg,
    },
    /// `d = (long long)a` for pointer arithmetic (free: part of the address computation).
    Widen { from: Scalar, d: Reg, a: Reg },
    /// `d = a * from / to`: a pointer offset in units of `from` bytes re-expressed in units of
    /// `to` bytes (a wider or narrower view); traps "misaligned address" where `a * from` is not
    /// a multiple of `to` (`size` bytes per component of the memory).
    Rescale {
        d: Reg,
        a: Reg,
        from: u32,
        to: u32,
        size: u32,
        space: Space,
    },
    /// `d = mem[idx]`: counts sectors (global) or wavefronts (shared); traps out of bounds.
    Load {
        space: Space,
        elem: Scalar,
        d: Reg,
        idx: Reg,
        idx_ty: Scalar,
    },
    /// `mem[idx] = v`
    Store {
        space: Space,
        elem: Scalar,
        idx: Reg,
        idx_ty: Scalar,
        v: Reg,
    },
    /// `d[0..width] = mem[idx*width .. idx*width+width]`: one wide (up to 16-byte) access; `idx`
    /// counts vectors. `width` counts the memory's own elements: up to 16 where a pointer cast's
    /// view packs them ([`Inst::Pack`]: a `float4` of `half` is 8, a `uint4` of `uchar` 16).
    LoadVec {
        space: Space,
        elem: Scalar,
        width: u8,
        d: [Reg; 16],
        idx: Reg,
        idx_ty: Scalar,
    },
    /// `mem[idx*width ..] = v[0..width]`: one wide store.
    StoreVec {
        space: Space,
        elem: Scalar,
        width: u8,
        idx: Reg,
        idx_ty: Scalar,
        v: [Reg; 16],
    },
    /// `d = texNd<ty>(handle, coords…)`: a texture fetch through the texture pipe
    /// ([`crate::texture`]); `handle` is the `unsigned long long` texture object, the coordinates
    /// `int` for `tex1Dfetch` and `float` otherwise (the unused slots repeat the first).
    Tex {
        fetch: crate::texture::Fetch,
        ty: Scalar,
        d: Reg,
        handle: Reg,
        coords: [Reg; 3],
        /// The component this fetch reads, of the texel's components.
        channel: (u8, u8),
    },
    /// `__syncthreads()`: every live thread of the block must be active.
    Barrier,
    /// Inline PTX's `bar.sync id{, count}` before its [`Inst::Barrier`]: the active threads
    /// agree on `id` and `count` (`unsigned`), `id` is 0, and `count` is every warp of the block,
    /// each of which can still arrive. It costs nothing: the barrier is the instruction.
    BarrierCheck { id: Reg, count: Option<Reg> },
    /// `this_grid().sync()`: a barrier like [`Inst::Barrier`] in its block, where the block
    /// waits until every block of the grid has reached one (a cooperative launch).
    GridSync,
    /// `d = fold(pred)` over the block's threads (`__syncthreads_count/_and/_or`): a barrier
    /// like [`Inst::Barrier`]; `d` is `int`.
    BarrierVote { kind: BlockVote, d: Reg, pred: Reg },
    /// `d = v` of another lane (`__shfl*_sync`); `arg`, `width`, `mask` are `unsigned` lanes;
    /// `strict`: the kernel's own shuffle, for which a lane past the end of a partial warp is an
    /// error (a collective simt builds keeps the lane's own value there, and discards it).
    Shfl {
        kind: ShflKind,
        ty: Scalar,
        d: Reg,
        v: Reg,
        arg: Reg,
        width: Reg,
        mask: Reg,
        strict: bool,
    },
    /// `d = vote(pred)` over the lanes of `mask` (`__ballot_sync` gives bits, the others 0/1).
    Vote {
        kind: VoteKind,
        d: Reg,
        pred: Reg,
        mask: Reg,
    },
    /// `d = fold(v)` over the lanes of `mask` (`__match_*_sync`, `__reduce_*_sync`); `ty` is
    /// `v`'s type, `d` is 32 bits.
    WarpFold {
        kind: WarpFold,
        ty: Scalar,
        d: Reg,
        v: Reg,
        mask: Reg,
    },
    /// `d = __activemask()`.
    ActiveMask { d: Reg },
    /// `d = clock()`: the warp instructions the block has issued so far.
    Clock { d: Reg },
    /// `__syncwarp(mask)`: every lane of the mask must be active.
    SyncWarp { mask: Reg },
    /// A warp-collective call's precondition ([`crate::check::typed::StmtKind::Collective`]):
    /// each warp with an active lane is whole and wholly active; with `tile`, its lanes agree on
    /// the `i64` pointer offset `ptr` (elements of `bytes` bytes) and the `i64` `ldm`, the
    /// offset is a multiple of 32 bytes and `ldm` one of 16; free.
    Collective {
        call: &'static str,
        tile: Option<(Reg, Reg)>,
        bytes: u32,
    },
    /// `mma_sync`: [`KernelIr::mmas`]`[id]` for each warp with an active lane, which must be
    /// whole and wholly active; one tensor-core warp instruction.
    Mma { id: u32 },
    /// `assert(c)`: an active lane where `c` is false stops the launch.
    Assert { c: Reg, assume: bool },
    /// `__trap()`: any active lane stops the launch.
    Trap,
    /// A place the checker marked unreachable: any active lane stops the launch with fault
    /// `id` of [`KernelIr::faults`].
    Fault { id: u32 },
    /// `memcpy`'s ranges of one array: an active lane where the `n` bytes from byte `a *
    /// a_unit` and those from byte `b * b_unit` overlap stops the launch; free.
    Disjoint {
        a: Reg,
        a_unit: u32,
        b: Reg,
        b_unit: u32,
        n: Reg,
    },
    /// `printf(...)`: every active lane, in lane order, prints `printfs[id]`.
    Printf { id: u32 },
    /// The loads and stores up to [`Inst::AsyncClose`] are an asynchronous copy completed by
    /// `obj`: the active lanes' bytes stay in flight until its wait; free.
    AsyncOpen { obj: crate::async_copy::AsyncObj },
    /// The end of an asynchronous copy's loads and stores; free.
    AsyncClose,
    /// [`KernelIr::asyncs`]`[id]`: a barrier's or pipeline's operation, one warp instruction.
    Async { id: u32 },
    /// `d = old mem[idx]; mem[idx] = op(old, v[, cmp])`, lane by lane in lane order; with
    /// `width` 2 (`atomicAdd(half2*, half2)`) one access of `mem[idx*2 ..]`, component `k` in
    /// `d[k]` and `v[k]` (a scalar one uses `[0]`).
    Atomic {
        op: AtomicOp,
        space: Space,
        elem: Scalar,
        width: u8,
        d: [Reg; 2],
        idx: Reg,
        idx_ty: Scalar,
        v: [Reg; 2],
        cmp: Option<Reg>,
    },
    /// Enter an inlined `__device__` function: remember the calling lanes.
    FnBegin,
    /// Leave it: the calling lanes are active again.
    FnEnd,
    /// `return` inside the function: active lanes skip to `FnEnd`; none left → jump to `skip_to`.
    ReturnFn { skip_to: u32 },
    /// Branch on `c`: push the mask, keep lanes where `c`; none left → jump to `else_at`.
    If { c: Reg, else_at: u32 },
    /// Switch to the saved lanes where `c` is false; none → jump to `end_at`.
    Else { c: Reg, end_at: u32 },
    /// Restore the mask from before the `If`.
    EndIf,
    /// Enter a loop: remember the lanes that entered.
    LoopBegin,
    /// Loop condition: lanes where `c` is false leave; none left → jump to `exit_at`.
    LoopTest { c: Reg, exit_at: u32 },
    /// Where `continue` lands: lanes that continued rejoin.
    LoopContinue,
    /// Back edge: while any lane is active, jump to `head`.
    LoopBack { head: u32 },
    /// Leave the loop: the lanes that entered (and did not return) are active again.
    LoopEnd,
    /// Short-circuit or `?:` side: keep lanes where `c` (or `!c` when `negate`); none → jump to `skip_to`.
    MaskPush { c: Reg, negate: bool, skip_to: u32 },
    /// End of a short-circuit side.
    MaskPop,
    /// Active lanes leave the innermost loop; if none remain, jump to `skip_to`.
    Break { skip_to: u32 },
    /// Active lanes skip to the loop's continue point; if none remain, jump to `skip_to`.
    Continue { skip_to: u32 },
    /// Active lanes finish the kernel; if none remain, jump to `skip_to`.
    Return { skip_to: u32 },
}

/// The machine instructions of an integer division or modulo by a run-time value: "Integer
/// division and modulo operation are costly as they compile to up to 20 instructions" (CUDA C++
/// Programming Guide, "Arithmetic Instructions"; docs/gpu-facts.md §6.5). A divisor known at
/// compile time compiles to a shift or a multiply-high and costs one, as any instruction.
pub const DIVISION_SEQUENCE: u8 = 20;

/// The execution pipe an instruction's lanes occupy, for the time model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    /// FP32 add, multiply, fused multiply-add and the like.
    Fp32,
    /// Any double-precision arithmetic, comparison or math function.
    Fp64,
    /// Single-precision division and transcendental functions (one special-function op each, a
    /// lower bound: a library call adds FP32 work around it).
    Sfu,
    /// Everything else (integer, logic, memory, control): issue slots only.
    Other,
}

impl Inst {
    /// The pipe this instruction occupies.
    pub fn pipe(&self) -> Pipe {
        use crate::value::{ArithOp as A, Math1 as M1, Math2 as M2};
        match *self {
            Inst::Arith {
                ty: Scalar::F64, ..
            }
            | Inst::Cmp {
                ty: Scalar::F64, ..
            }
            | Inst::Fma {
                ty: Scalar::F64, ..
            }
            | Inst::Rounded {
                ty: Scalar::F64, ..
            }
            | Inst::Math1 {
                ty: Scalar::F64, ..
            }
            | Inst::Math2 {
                ty: Scalar::F64, ..
            } => Pipe::Fp64,
            Inst::Arith {
                ty: Scalar::F32,
                op: A::Div,
                ..
            } => Pipe::Sfu,
            Inst::Rounded { op, .. } => match op {
                crate::value::RoundedOp::Add
                | crate::value::RoundedOp::Sub
                | crate::value::RoundedOp::Mul
                | crate::value::RoundedOp::Fma
                | crate::value::RoundedOp::Scalbn => Pipe::Fp32,
                _ => Pipe::Sfu,
            },
            Inst::Arith {
                ty: Scalar::F32, ..
            }
            | Inst::Fma {
                ty: Scalar::F32, ..
            } => Pipe::Fp32,
            Inst::Math1 {
                ty: Scalar::F32, f, ..
            } => match f {
                M1::Fabs
                | M1::Floor
                | M1::Ceil
                | M1::Round
                | M1::Trunc
                | M1::Rint
                | M1::Saturate
                | M1::Logb
                | M1::Ilogb
                | M1::FrexpMant
                | M1::FrexpExp
                | M1::ModfFrac => Pipe::Fp32,
                _ => Pipe::Sfu,
            },
            Inst::Math2 {
                ty: Scalar::F32, f, ..
            } => match f {
                M2::Pow | M2::Atan2 | M2::Hypot | M2::Rhypot => Pipe::Sfu,
                _ => Pipe::Fp32,
            },
            _ => Pipe::Other,
        }
    }

    /// Whether the instruction issues a warp instruction in the cost model (DESIGN.md §3).
    pub fn costs(&self) -> bool {
        !matches!(
            self,
            Inst::Mov { .. }
                | Inst::Round { .. }
                | Inst::View { .. }
                | Inst::Pack { .. }
                | Inst::Unpack { .. }
                | Inst::Widen { .. }
                | Inst::Rescale { .. }
                | Inst::Else { .. }
                | Inst::EndIf
                | Inst::LoopBegin
                | Inst::LoopContinue
                | Inst::LoopBack { .. }
                | Inst::LoopEnd
                | Inst::MaskPush { .. }
                | Inst::MaskPop
                | Inst::Break { .. }
                | Inst::Continue { .. }
                | Inst::Return { .. }
                | Inst::FnBegin
                | Inst::FnEnd
                | Inst::ReturnFn { .. }
                | Inst::Disjoint { .. }
                | Inst::Collective { .. }
                | Inst::AsyncOpen { .. }
                | Inst::AsyncClose
        )
    }
}

impl fmt::Display for KernelIr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "kernel {}", self.name)?;
        for (r, ty, input) in &self.inputs {
            writeln!(f, "  in  r{}:{} <- {:?}", r.0, ty, input)?;
        }
        for (i, inst) in self.insts.iter().enumerate() {
            writeln!(f, "  {i:4}  {inst:?}")?;
        }
        Ok(())
    }
}
