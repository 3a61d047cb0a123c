//! Asynchronous copies (`cuda::memcpy_async`, `__pipeline_memcpy_async`, `cg::memcpy_async`): what completes them.
//!
//! The model, exact for every program without a race:
//!
//! - A copy moves its bytes **when it is issued**, as the loads of global memory and the stores
//!   of shared memory that the hardware's `LDGSTS` (`cp.async`) does: pieces of 16, 8 or 4 bytes
//!   (the widest that the length and both pointers' alignment allow — a pointee type's, or a
//!   `cuda::aligned_size_t<N>`'s), each counted as one global load (its sectors) and one shared
//!   store (its wavefronts).
//! - Its bytes then stay **in flight** until the wait that completes it: the barrier phase it is
//!   attached to (`bar.arrive_and_wait()`, `bar.wait(token)`), the pipeline stage it was
//!   committed in (`pipe.consumer_wait()`, `__pipeline_wait_prior(n)`, `cg::wait(g)`). Reading or
//!   writing a destination byte in flight, or writing a source byte in flight, is a race
//!   (compute-sanitizer's racecheck treats an asynchronous copy as writes that complete at its
//!   wait): reported as `async` with the access and the copy. A program without one reads exactly
//!   what the hardware would, whenever the copy really lands.
//! - Barriers count the arrivals of threads; each copy's own arrive-on
//!   (`cp.async.mbarrier.arrive` without `.noinc`) raises the pending count by one and arrives
//!   once, so it leaves the count as the threads' arrivals alone make it. A phase completes when
//!   the `init` count of threads has arrived; a wait on a phase that cannot complete is an error
//!   (simt runs a block's threads in lock step, so nothing else could arrive later).

/// What completes an asynchronous copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AsyncObj {
    /// The kernel's `n`-th `__shared__ cuda::barrier<cuda::thread_scope_block>`: the phase
    /// that is open when the copy is issued.
    Barrier(u32),
    /// The kernel's `n`-th `cuda::pipeline`: the stage the thread commits next. `shared`: a
    /// pipeline of the block (`make_pipeline(block, &state, role)`), whose stages any thread's
    /// `consumer_wait` completes; else each thread's own (`thread_scope_thread`).
    Pipeline {
        /// Its number.
        id: u32,
        /// One pipeline for the whole block.
        shared: bool,
    },
    /// The thread's implicit pipeline of `__pipeline_memcpy_async` / `__pipeline_commit` /
    /// `__pipeline_wait_prior`, which `cg::memcpy_async` and `cg::wait` also use.
    Primitive,
}
