//! Run-time traps: what a kernel did wrong while running, with the span and the thread.

use crate::source::Span;

/// A failure while running a kernel (exit status 1).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum RunError {
    /// `c[i] = a[i] + b[i];` without `if (i < n)` in a grid larger than the data
    #[error("out-of-bounds {space} access: `{buffer}[{index}]` but `{buffer}` has {len} elements")]
    #[diagnostic(code(simt::run::out_of_bounds))]
    OutOfBounds {
        /// `global` or `shared`.
        space: &'static str,
        /// The buffer or array.
        buffer: String,
        /// The index of the first offending lane (an `unsigned long long` may pass 2^63).
        index: i128,
        /// Elements in the buffer.
        len: u64,
        /// Block and thread of that lane.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
        /// How to fix it.
        #[help]
        help: String,
    },
    /// `float v = *p;` where `p` is `NULL`
    #[error("null pointer dereference: a pointer into `{array}` is `NULL`")]
    #[diagnostic(
        code(simt::run::null_pointer),
        help("check the pointer before using it, e.g. `if (p != NULL)`, or bind the parameter to an array in the launch")
    )]
    NullPointer {
        /// The array the pointer points into when it is not null.
        array: String,
        /// The access.
        #[label("block ({}, {}, {}), thread ({}, {}, {}) dereferences NULL", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `q.data[i]` where the launch section set no array for the struct parameter's pointer
    /// member `q.data`
    #[error("`{member}` is not set: the launch section gives this pointer member no array")]
    #[diagnostic(code(simt::run::unset_pointer))]
    UnsetPointer {
        /// The member (`q.data`).
        member: String,
        /// The access.
        #[label("block ({}, {}, {}), thread ({}, {}, {}) reads through it", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
        /// How to fix it.
        #[help]
        help: String,
    },
    /// `reinterpret_cast<float4*>(&a[1])`: a 16-byte access at an address not divisible by 16
    #[error("misaligned address: a {align}-byte access at byte offset {offset} of `{buffer}`")]
    #[diagnostic(
        code(simt::run::misaligned_address),
        help("a vector access must start at a multiple of its size: index vector elements (`((float4*)a)[i]`) or keep the scalar offset a multiple of the vector width (the GPU traps with \"misaligned address\")")
    )]
    Misaligned {
        /// The array the pointer points into.
        buffer: String,
        /// Byte offset from the array's start.
        offset: i128,
        /// Bytes of the access.
        align: u32,
        /// The cast or access.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `cub::BlockReduce<float, 128>` in a kernel launched with blocks of 256 threads
    #[error("a CUB block collective is for blocks of ({}, {}, {}), the launch's are ({}, {}, {})", expected[0], expected[1], expected[2], found[0], found[1], found[2])]
    #[diagnostic(
        code(simt::run::block_shape),
        help("CUB's block collectives take the block's shape as template arguments (BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z): launch with that block, or specialise the class for the launch's; a BlockReduce's Reduce or Sum given valid_items (at most the block's threads) also runs in a smaller block that the class numbers from thread 0")
    )]
    BlockShape {
        /// Where the class is specialised.
        #[label("specialised for ({}, {}, {})", expected[0], expected[1], expected[2])]
        span: Span,
        /// The shape it was specialised for.
        expected: [u32; 3],
        /// The launch's.
        found: [u32; 3],
    },
    /// `assert(i < n);` false for some thread
    #[error("assertion failed in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::assertion),
        help("the condition is false for this thread; on a GPU the launch stops with \"device-side assert triggered\"")
    )]
    Assertion {
        /// The assertion.
        #[label("false in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `__builtin_assume(cond);` false for some thread: undefined behaviour
    #[error("`__builtin_assume` is false in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::false_assumption),
        help("the compiler may assume the condition holds, so where it does not the behaviour is undefined (any result, or none); make the condition true for every thread that reaches it, or remove the assumption")
    )]
    FalseAssumption {
        /// The `__builtin_assume`.
        #[label("false in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `default: __builtin_unreachable();` reached: undefined behaviour
    #[error("`__builtin_unreachable()` reached in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::unreachable),
        help("the program says no thread gets here, so the compiler may assume it (any result, or none, where one does); handle this case, or make sure no input leads here")
    )]
    Unreachable {
        /// The call.
        #[label("reached by block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// The end of a function that returns a value reached without a `return`.
    #[error("`{function}` reached its end without returning a value, in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::missing_return),
        help("a function that returns a value must end in a `return` on every path (C++ leaves the result undefined otherwise; nvcc warns \"missing return statement\"): add `return ...;` before its end")
    )]
    MissingReturn {
        /// The function.
        function: String,
        /// Its closing brace.
        #[label("reached by block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A `printf` conversion given a value of the other kind (`%d` of a `float`), reached.
    #[error("`{conv}` prints {}, but block ({}, {}, {}), thread ({}, {}, {}) gives it a `{ty}`", if *float { "a floating value" } else { "an integer" }, block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::printf_argument),
        help("nvcc only warns (-Wformat), and the GPU prints the value's bits read as the other kind: print floating values with %f, %e or %g and integers with %d or %u, or convert the value (`(int)x`, `(double)n`)")
    )]
    PrintfArgument {
        /// The conversion as written.
        conv: String,
        /// Whether it prints a floating value.
        float: bool,
        /// The argument's type.
        ty: String,
        /// The call.
        #[label("this `printf`")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A virtual call through a pointer to memory that holds no object of a class derived from
    /// the pointer's.
    #[error("the virtual call `{call}` through a `{class}*` in block ({}, {}, {}), thread ({}, {}, {}) found no `{class}` object (its class word names no class derived from `{class}`)", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::bad_dynamic_type),
        help("the pointer points to memory that no `new` of a class derived from `{class}` made (a pointer to another type, to freed or never-written memory): point it to such an object")
    )]
    BadDynamicType {
        /// The member function.
        call: String,
        /// The pointer's class.
        class: String,
        /// The call.
        #[label("this call")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// An asynchronous copy whose zero fill is more than its size or splits a word.
    #[error("`{call}` in block ({}, {}, {}), thread ({}, {}, {}) zero-fills more than its {bytes} bytes, or part of a 4-byte word", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::zero_fill),
        help("copy whole words: `cp.async`'s src-size (the bytes read) is 0, a multiple of 4, or the cp-size, and never more than the cp-size (PTX ISA, cp.async)")
    )]
    ZeroFill {
        /// The call.
        call: String,
        /// Its size in bytes.
        bytes: u64,
        /// The copy.
        #[label("this copy")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A virtual call that would run a function already running on the thread.
    #[error("the virtual call here would run `{function}` again inside itself, in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::recursion),
        help("simt inlines `__device__` functions, so it runs no recursion (nvcc runs it on a stack of limited depth): keep objects of this class out of the lists it visits, or rewrite the recursion as a loop")
    )]
    Recursion {
        /// The function, `class::member`.
        function: String,
        /// The call.
        #[label("reached here")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `delete p` of a pointer `new` did not return, or deleted already.
    #[error("`{call}` in block ({}, {}, {}), thread ({}, {}, {}) {}", block[0], block[1], block[2], thread[0], thread[1], thread[2], if *twice { "frees memory that was freed before" } else { "frees a pointer that is not the start of memory `new` or `malloc` returned" })]
    #[diagnostic(
        code(simt::run::bad_delete),
        help("free each allocation once, through the pointer `new` (or `malloc`) returned: on a GPU a bad `delete` corrupts the allocator's heap (undefined behaviour)")
    )]
    BadDelete {
        /// `delete`, `delete[]` or `free`.
        call: String,
        /// Whether the memory was freed before.
        twice: bool,
        /// The `delete`.
        #[label("this {call}")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// A load or store through a pointer into heap memory that was deleted.
    #[error("a {access} in block ({}, {}, {}), thread ({}, {}, {}) uses device heap memory that was freed (byte {byte} of the heap)", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::use_after_free),
        help("the allocation was given back with `delete` or `free` before this access (undefined behaviour: CUDA may reuse the memory): delete it after its last use, or keep it")
    )]
    UseAfterFree {
        /// `load` or `store`.
        access: &'static str,
        /// The byte of the heap accessed.
        byte: u64,
        /// The access.
        #[label("this {access}")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `buf[i]` of `char* buf = (char*)malloc(4)` with `i >= 4`: past the end of a device heap
    /// allocation, as compute-sanitizer's memcheck reports it.
    #[error("out-of-bounds device heap {access}: {size} byte(s) at byte {byte} of the heap, {}", heap_place(*byte, *allocation))]
    #[diagnostic(
        code(simt::run::out_of_bounds),
        help("`malloc(n)` and `new T[n]` hold exactly what they were asked for: keep the index below the count they were given, or allocate more")
    )]
    HeapOutOfBounds {
        /// `load` or `store`.
        access: &'static str,
        /// The bytes accessed.
        size: u64,
        /// The first byte of the heap accessed.
        byte: u64,
        /// Where the allocation the access starts in starts, and the bytes it was asked for.
        allocation: Option<(u64, u64)>,
        /// The access.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `__trap();` reached
    #[error("the kernel called __trap() in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::trap),
        help("a kernel traps where its author thought nothing should arrive; on a GPU the launch stops with \"unspecified launch failure\": find why this thread got here")
    )]
    Trap {
        /// The `__trap()`.
        #[label("reached by block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `memcpy(dst, src, n)` whose two ranges overlap
    #[error("the source and destination of this memcpy overlap, in block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
    #[diagnostic(
        code(simt::run::overlapping_copy),
        help("memcpy's ranges must not overlap (C leaves the result undefined, and nvcc's copy may read bytes it has already written); copy through a temporary, or in a loop in the order that keeps the bytes you still need")
    )]
    OverlappingCopy {
        /// The `memcpy`.
        #[label("block ({}, {}, {}), thread ({}, {}, {}) copies between overlapping bytes", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `tex2D<float>(t, x, y)` where `t` names no texture, one of other dimensions, or one
    /// whose fetches return another type
    #[error("{message}")]
    #[diagnostic(
        code(simt::run::texture),
        help("a texture fetch must read a texture the launch bound (a `cudaTextureObject_t` parameter), with as many coordinates as it has dimensions and the type its fetches return (the texel type; `float` for `read=normalized` and `half` texels)")
    )]
    Texture {
        /// What is wrong.
        message: String,
        /// The fetch.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `x / d` where some active lane has `d == 0`
    #[error("integer division by zero")]
    #[diagnostic(
        code(simt::run::division_by_zero),
        help(
            "guard the division, e.g. `d != 0 ? x / d : 0` (on a GPU the result would be garbage)"
        )
    )]
    DivisionByZero {
        /// The division.
        #[label("block ({}, {}, {}), thread ({}, {}, {}) divides by zero", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `bar.arrive_and_wait();` before any thread ran `init(&bar, blockDim.x)`
    #[error("a `cuda::barrier` used before its `init`")]
    #[diagnostic(
        code(simt::run::barrier_uninit),
        help("initialise it first, from one thread, then synchronise: `if (threadIdx.x == 0) init(&bar, blockDim.x); __syncthreads();`")
    )]
    BarrierUninit {
        /// The use.
        #[label("block ({}, {}, {}): no `init` ran for this barrier", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// `init(&bar, 32)` and 64 threads at `bar.arrive_and_wait()`
    #[error("{arrived} threads arrived at a `cuda::barrier` that expects {expected} per phase")]
    #[diagnostic(
        code(simt::run::barrier_overflow),
        help("`init(&bar, count)` counts the threads that arrive in each phase: give the number of threads that call `arrive` (e.g. `blockDim.x * blockDim.y`)")
    )]
    BarrierArrivals {
        /// The arrival.
        #[label("block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Arrivals in the phase.
        arrived: u32,
        /// `init`'s count.
        expected: u32,
    },
    /// `init(&bar, 128)` and 64 threads at `bar.arrive_and_wait()`
    #[error("a wait for a `cuda::barrier` phase that {arrived} of its {expected} threads reached")]
    #[diagnostic(
        code(simt::run::barrier_incomplete),
        help("the phase completes when `init`'s count of threads has arrived; every other thread has passed this point or waits here, so a GPU hangs: make the count the number of threads that arrive")
    )]
    BarrierIncomplete {
        /// The wait.
        #[label("block ({}, {}, {}) waits here forever", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Arrivals in the phase.
        arrived: u32,
        /// `init`'s count.
        expected: u32,
    },
    /// `__pipeline_memcpy_async(d, s, 4); __pipeline_wait_prior(0);` with no `__pipeline_commit()`
    #[error("`{call}` waits for committed copies, and this thread committed none")]
    #[diagnostic(
        code(simt::run::wait_without_commit),
        help("commit the copies before waiting: `pipe.producer_commit()`, `__pipeline_commit()`")
    )]
    WaitWithoutCommit {
        /// The wait.
        #[label("block ({}, {}, {}), thread ({}, {}, {}) waits here", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// The copy never committed.
        #[label("this copy is in flight, uncommitted")]
        copy: Span,
        /// The wait's name.
        call: &'static str,
        /// Block index.
        block: [u32; 3],
        /// A thread with an uncommitted copy.
        thread: [u32; 3],
    },
    /// `if (threadIdx.x < 16) __syncthreads();`
    #[error("`{barrier}()` reached by {arrived} of the block's {live} live threads")]
    #[diagnostic(
        code(simt::run::divergent_barrier),
        help("every thread of a block that has not returned must reach the same barrier (warps that leave the kernel without another barrier release it, whole warps only); move it out of the condition (a real GPU hangs or misbehaves here)")
    )]
    DivergentBarrier {
        /// The barrier.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) does not arrive", block[0], block[1], block[2], missing[0], missing[1], missing[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// A live thread that is not active here.
        missing: [u32; 3],
        /// Threads at the barrier.
        arrived: u32,
        /// Threads that have not returned.
        live: u32,
        /// `__syncthreads`, or the block vote (`__syncthreads_count`, ...).
        barrier: &'static str,
    },
    /// `asm("bar.sync %0, %1;" :: "r"(1), "r"(64))`: a barrier simt does not run, or one that
    /// hangs a GPU
    #[error("`bar.sync` {what}")]
    #[diagnostic(code(simt::run::named_barrier), help("{help}"))]
    NamedBarrier {
        /// The barrier.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// A thread at the barrier that shows it.
        thread: [u32; 3],
        /// What is wrong, after `bar.sync`.
        what: String,
        /// The fix.
        help: &'static str,
    },
    /// `v = __shfl_down_sync(0xfffffff, v, 1);` from all 32 lanes: lanes 28-31 leave themselves out.
    #[error("warp-synchronous operation called by a lane its mask leaves out (mask {mask:#010x})")]
    #[diagnostic(
        code(simt::run::lane_not_in_mask),
        help("every calling lane must set its own bit in the mask: PTX leaves shfl.sync, vote.sync, match.sync, redux.sync and bar.warp.sync undefined for a thread outside the membermask; write the full mask (0xffffffff, eight f's) or `__activemask()`")
    )]
    LaneNotInMask {
        /// The call.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) is lane {lane} of its warp; bit {lane} of its mask is 0", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// The calling thread.
        thread: [u32; 3],
        /// Its lane in the warp.
        lane: u32,
        /// The calling thread's mask.
        mask: u32,
    },
    /// `if (lane < 16) v = __shfl_down_sync(0xffffffff, v, 1);`
    #[error("warp-synchronous operation with inactive lanes in its mask (mask {mask:#010x})")]
    #[diagnostic(
        code(simt::run::divergent_warp),
        help("every lane named in the mask must execute this call together; pass `__activemask()` or move the call out of the branch (compute-sanitizer synccheck reports this as \"divergent thread(s) in warp\")")
    )]
    DivergentWarp {
        /// The call.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) names thread ({}, {}, {}), which is not here", block[0], block[1], block[2], thread[0], thread[1], thread[2], missing[0], missing[1], missing[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// A calling thread.
        thread: [u32; 3],
        /// A named thread that is not active.
        missing: [u32; 3],
        /// The calling thread's mask.
        mask: u32,
    },
    /// `if (threadIdx.x < 16) wmma::load_matrix_sync(a, p, 16);`
    #[error("`{call}` called by part of a warp")]
    #[diagnostic(
        code(simt::run::collective_divergent),
        help("every thread of the warp must make this call together, converged (CUDA C++ Programming Guide, \"Warp Matrix Functions\"); move it out of the branch, or make the condition the same for the whole warp")
    )]
    CollectiveDivergent {
        /// The function.
        call: &'static str,
        /// The call.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) calls it, thread ({}, {}, {}) of its warp does not", block[0], block[1], block[2], thread[0], thread[1], thread[2], missing[0], missing[1], missing[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// A calling thread.
        thread: [u32; 3],
        /// A thread of the warp that is not there (in a branch not taken, or returned).
        missing: [u32; 3],
    },
    /// `wmma::mma_sync(...)` in a block of 16 threads
    #[error("`{call}` called by a warp of {lanes} threads")]
    #[diagnostic(
        code(simt::run::collective_partial_warp),
        help("the warp matrix functions need all 32 threads of a warp; make the block's thread count a multiple of 32")
    )]
    CollectivePartialWarp {
        /// The function.
        call: &'static str,
        /// The call.
        #[label("block ({}, {}, {}): the last warp has {lanes} threads", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Threads of the warp.
        lanes: usize,
    },
    /// `wmma::load_matrix_sync(a, p + threadIdx.x, 16)`: the lanes disagree on the pointer or ldm
    #[error("the threads of a warp give `{call}` different {what}")]
    #[diagnostic(
        code(simt::run::collective_not_uniform),
        help("mptr, ldm and layout must be the same for all threads in the warp (CUDA C++ Programming Guide, \"Warp Matrix Functions\"): compute them from the warp's index, not the thread's")
    )]
    CollectiveNotUniform {
        /// The function.
        call: &'static str,
        /// `pointers` or `ldm`.
        what: &'static str,
        /// The call.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) and thread ({}, {}, {}) differ", block[0], block[1], block[2], thread[0], thread[1], thread[2], other[0], other[1], other[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// The warp's first thread.
        thread: [u32; 3],
        /// A thread that gives another value.
        other: [u32; 3],
    },
    /// `wmma::load_matrix_sync(a, p, 12)` for `half`: 24 bytes
    #[error("`{call}` with ldm {ldm}: {bytes} bytes, not a multiple of 16")]
    #[diagnostic(
        code(simt::run::wmma_ldm),
        help("ldm must be a multiple of 8 for 16-bit elements, 4 for 32-bit ones, 16 for 8-bit ones and 2 for double (16 bytes; CUDA C++ Programming Guide, \"Warp Matrix Functions\"): pad the rows")
    )]
    WmmaLdm {
        /// The function.
        call: &'static str,
        /// The stride given, in elements.
        ldm: i64,
        /// In bytes.
        bytes: i128,
        /// The call.
        #[label("block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// `wmma::load_matrix_sync(a, p + 4, 16)`: 8 bytes past an aligned address
    #[error("`{call}` with a pointer {offset} bytes past a 256-bit boundary")]
    #[diagnostic(
        code(simt::run::wmma_misaligned),
        help("mptr must be 256-bit (32-byte) aligned (CUDA C++ Programming Guide, \"Warp Matrix Functions\"): start tiles at multiples of 32 bytes (simt measures from the array's start, which cudaMalloc aligns to 256 bytes)")
    )]
    WmmaMisaligned {
        /// The function.
        call: &'static str,
        /// Bytes past the boundary.
        offset: i64,
        /// The call.
        #[label("block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// `__shfl_sync(m, v, 0, w)` with `w == 3`
    #[error("shuffle width {width} is not a power of two from 1 to 32")]
    #[diagnostic(code(simt::run::shuffle_width), help("use 1, 2, 4, 8, 16 or 32"))]
    ShuffleWidth {
        /// The shuffle.
        #[label("block ({}, {}, {}), thread ({}, {}, {})", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// The width given.
        width: u32,
        /// Block index.
        block: [u32; 3],
        /// Thread index.
        thread: [u32; 3],
    },
    /// `if (i >= n) return; v += __shfl_down_sync(0xffffffff, v, 1);` in a partial last warp
    #[error("shuffle reads a lane that has exited")]
    #[diagnostic(
        code(simt::run::shuffle_from_exited),
        help("a shuffle from a lane that returned is undefined on a GPU: keep every lane the shuffles read until after them (guard the work with `if (i < n)` instead of returning, and give the missing lanes a neutral value such as 0 for a sum)")
    )]
    ShuffleFromExited {
        /// The shuffle.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) reads thread ({}, {}, {}), which has returned", block[0], block[1], block[2], thread[0], thread[1], thread[2], from[0], from[1], from[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// The reading thread.
        thread: [u32; 3],
        /// The thread it reads.
        from: [u32; 3],
    },
    /// `v += __shfl_xor_sync(0xffffffff, v, 16);` in a block of 48 threads: lanes 0-15 of the
    /// second warp read lanes 16-31, which do not exist
    #[error("shuffle reads a lane past the end of a partial warp")]
    #[diagnostic(
        code(simt::run::shuffle_from_missing),
        help("a block whose size is not a multiple of 32 ends in a partial warp, whose missing lanes are like exited ones: a shuffle from them is undefined on a GPU; launch a multiple of 32 threads (guarding the work with `if (i < n)`), or name only the lanes that exist in the mask and keep the reads inside them")
    )]
    ShuffleFromMissing {
        /// The shuffle.
        #[label("block ({}, {}, {}): thread ({}, {}, {}) reads lane {from} of its warp, which has {lanes} lanes", block[0], block[1], block[2], thread[0], thread[1], thread[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// The reading thread.
        thread: [u32; 3],
        /// The lane it reads, within its warp.
        from: u32,
        /// The lanes its warp has.
        lanes: u32,
    },
    /// `while (i < n) { }` where `i` never changes
    #[error("step limit exceeded: more than {limit} warp instructions")]
    #[diagnostic(
        code(simt::run::step_limit),
        help("this loop may never end; if the launch is just large, raise the limit with --max-steps")
    )]
    StepLimit {
        /// The limit.
        limit: u64,
        /// The loop that was running.
        #[label("still looping here in block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// `while (k >= 0) { k = (k + 1) & 0xffff; }`: one block that never finishes
    #[error("block step limit exceeded: block ({}, {}, {}) ran more than {limit} warp-instruction slots", block[0], block[1], block[2])]
    #[diagnostic(code(simt::run::block_step_limit))]
    BlockStepLimit {
        /// The limit.
        limit: u64,
        /// The loop that was running.
        #[label("still looping here")]
        span: Span,
        /// Block index.
        block: [u32; 3],
        /// Why a loop may not end, and how to raise the limit.
        #[help]
        help: String,
    },
    /// `simt test --timeout 10` on a launch that takes longer
    #[error("time limit: the launch ran for more than {seconds} s")]
    #[diagnostic(
        code(simt::run::timeout),
        help("the kernel may loop for a long time; raise the limit with --timeout, or make the launch smaller")
    )]
    Timeout {
        /// The limit in seconds.
        seconds: f64,
        /// The loop that was running.
        #[label("the launch was running block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// Ctrl-C in a notebook while `simt.run` is launching a kernel that loops for a long time
    #[error("interrupted: the launch was stopped before it ended")]
    #[diagnostic(code(simt::run::interrupted))]
    Interrupted {
        /// What was running.
        #[label("the launch was running block ({}, {}, {})", block[0], block[1], block[2])]
        span: Span,
        /// Block index.
        block: [u32; 3],
    },
    /// `return a[i + 1];` in a `__device__` function called from a kernel: the trap, with the
    /// line of each call that led to it
    #[error("{error}")]
    #[diagnostic(forward(error))]
    InCall {
        /// The trap inside the function.
        error: Box<RunError>,
        /// The trap's labels, then one per call site, innermost first.
        #[label(collection)]
        labels: Vec<miette::LabeledSpan>,
    },
    /// `cg::this_grid().sync();` in a launch without `cooperative;`
    #[error("`this_grid().sync()` in a launch that is not cooperative")]
    #[diagnostic(
        code(simt::run::not_cooperative),
        help("a grid barrier needs a cooperative launch (cudaLaunchCooperativeKernel): write `cooperative;` in the launch section, or pass --cooperative")
    )]
    NotCooperative {
        /// The grid barrier.
        #[label("reached in a launch that is not cooperative")]
        span: Span,
    },
    /// `if (blockIdx.x == 0) return; grid.sync();`: blocks wait at a grid barrier for blocks
    /// that have ended
    #[error("grid barrier deadlock: {waiting} block(s) wait at `this_grid().sync()` for {ended} block(s) that ended without reaching it: {ended_blocks}")]
    #[diagnostic(
        code(simt::run::grid_deadlock),
        help("every block of a cooperative launch must reach each grid barrier (a GPU hangs here); move the `sync()` out of the condition, or let the blocks that return early wait first")
    )]
    GridDeadlock {
        /// Where the waiting blocks wait.
        #[label("block(s) {waiting_blocks} wait here")]
        span: Span,
        /// Blocks waiting.
        waiting: u64,
        /// The first of them, in grid order.
        waiting_blocks: String,
        /// Blocks that ended.
        ended: u64,
        /// The first of them, in grid order.
        ended_blocks: String,
    },
    /// `__global__ void k() {}` launched on a grid of 65535 × 65535 × 2147483647 blocks
    #[error("step limit exceeded: more than {limit} warp steps before block ({}, {}, {}) of {blocks} could start", block[0], block[1], block[2])]
    #[diagnostic(
        code(simt::run::step_limit),
        help("each warp's launch counts as a step; use a smaller grid, or raise the limit with --max-steps")
    )]
    GridStepLimit {
        /// The limit.
        limit: u64,
        /// The block that would have exceeded it.
        block: [u32; 3],
        /// Blocks in the grid.
        blocks: u64,
    },
    /// `in = &d[0]; out = &d[0];` where the kernel reads `in` through `(uint32_t*)` and `out`
    /// as its own `uint64_t`s
    #[error("the array `{array}` is bound to parameters the kernel keeps as different element types (`{first}` and `{second}`)")]
    #[diagnostic(
        code(simt::run::mixed_views),
        help("simt holds an array viewed through a narrower pointer type in that type's elements while the kernel runs; bind each of these parameters to an array of its own")
    )]
    MixedViews {
        /// The array.
        array: String,
        /// One parameter's view of it.
        first: String,
        /// Another's.
        second: String,
    },
}

impl RunError {
    /// The error of `fault`, reached at `span` by a thread of a block.
    pub fn fault(
        fault: &crate::check::typed::Fault,
        span: Span,
        (block, thread): ([u32; 3], [u32; 3]),
    ) -> RunError {
        use crate::check::typed::Fault;
        match fault {
            Fault::BadDynamicType { call, class } => RunError::BadDynamicType {
                call: call.clone(),
                class: class.clone(),
                span,
                block,
                thread,
            },
            Fault::Unreachable => RunError::Unreachable {
                span,
                block,
                thread,
            },
            Fault::MissingReturn { function } => RunError::MissingReturn {
                function: function.clone(),
                span,
                block,
                thread,
            },
            Fault::PrintfArgument { conv, float, ty } => RunError::PrintfArgument {
                conv: conv.clone(),
                float: *float,
                ty: ty.clone(),
                span,
                block,
                thread,
            },
            Fault::Recursion { function } => RunError::Recursion {
                function: function.clone(),
                span,
                block,
                thread,
            },
            Fault::ZeroFill { call, bytes } => RunError::ZeroFill {
                call: call.clone(),
                bytes: *bytes,
                span,
                block,
                thread,
            },
            Fault::BadDelete { call, twice } => RunError::BadDelete {
                call: call.clone(),
                twice: *twice,
                span,
                block,
                thread,
            },
        }
    }

    /// The trap as raised inside the inlined calls at `calls` (innermost first): each call's
    /// line is labelled beside the trap's own; unchanged outside any function.
    pub fn in_calls(self, calls: &[Span]) -> RunError {
        // Placed already: where exiting warps failed, run ahead of the barrier they release.
        if calls.is_empty() || matches!(self, RunError::InCall { .. }) {
            return self;
        }
        let mut labels: Vec<miette::LabeledSpan> = miette::Diagnostic::labels(&self)
            .map(Iterator::collect)
            .unwrap_or_default();
        labels.extend(calls.iter().enumerate().map(|(depth, &call)| {
            let what = if depth == 0 {
                "in the function called here"
            } else {
                "called from here"
            };
            miette::LabeledSpan::new_with_span(Some(what.to_string()), call)
        }));
        RunError::InCall {
            error: Box::new(self),
            labels,
        }
    }
}

/// An out-of-bounds access to an array of `declared` elements, `total` bytes in all, counted
/// in those elements: the index `index` views of `view` bytes reach, the array's length, and,
/// when the access is not one whole element (a member of a struct, an `int4` through a cast
/// `float*`), a sentence saying where its bytes fall.
pub(crate) fn in_declared(
    (index, view): (i128, u32),
    total: u64,
    name: &str,
    declared: &crate::ir::DeclaredElem,
) -> (i128, u64, Option<String>) {
    let unit = i128::from(declared.bytes.max(1));
    let byte = index * i128::from(view);
    let len = total / unit as u64;
    let note = (view != declared.bytes).then(|| {
        format!(
            "this {view}-byte access starts at byte {byte} of `{name}`, which holds {len} `{}` ({} each, {total} bytes)",
            declared.name,
            match declared.bytes {
                1 => "1 byte".to_string(),
                b => format!("{b} bytes"),
            }
        )
    });
    (byte.div_euclid(unit), len, note)
}

/// Where a device heap access that faults lies, against the allocation it starts in (its start
/// and bytes), as compute-sanitizer's memcheck says it ("0 bytes after the nearest allocation").
fn heap_place(byte: u64, allocation: Option<(u64, u64)>) -> String {
    match allocation {
        Some((start, bytes)) if byte >= start + bytes => format!(
            "{} byte(s) after the end of the {bytes}-byte allocation at heap byte {start}",
            byte - start - bytes
        ),
        Some((start, bytes)) => {
            format!("running past the end of the {bytes}-byte allocation at heap byte {start}")
        }
        None => "where nothing is allocated".to_string(),
    }
}
