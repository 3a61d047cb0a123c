//! The binary's allocator: the system allocator, asking Linux for transparent huge pages for
//! large blocks, so that filling a launch's buffers is not dominated by page faults.
//!
//! A 16 MiB buffer first touched in 4 KiB pages takes 4096 page faults; where the kernel's
//! transparent huge pages are in `madvise` mode (Debian's default) the same buffer in 2 MiB pages
//! takes 8. On vecadd 2^22 (48 MiB of buffers) the process's page faults fall from 14 800 to about
//! 3 000 (the rest are the program's own pages and the small-page ends of each block); the phases'
//! times are in BENCHMARKS.md.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks at least this large are advised; they hold at least one whole aligned huge page.
const LARGE: usize = 4 << 20;
/// The size of a transparent huge page on x86-64 and arm64 (with 4 KiB base pages).
const HUGE_PAGE: usize = 2 << 20;

/// Keeps glibc handing out every block of [`LARGE`] bytes or more as fresh pages of its own.
///
/// glibc raises its threshold for serving a block with its own pages to the size of each such
/// block freed, so after the first large free a large `calloc` comes from the heap and is
/// cleared with a `memset` (16 MiB of zeros for a `zeros(2^22)` buffer); fresh pages are zero
/// already, and those the run never touches cost nothing. A fixed threshold keeps it so.
pub fn keep_large_blocks_fresh() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tuning; it is called before any thread
    // starts. A refusal (0) leaves glibc's default, which is only slower.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
    }
}

/// [`System`], with `madvise(MADV_HUGEPAGE)` on the whole huge pages inside every block of
/// [`LARGE`] bytes or more.
pub struct HugePages;

impl HugePages {
    fn advise(ptr: *mut u8, size: usize) {
        #[cfg(target_os = "linux")]
        if !ptr.is_null() && size >= LARGE {
            let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
            let end = (ptr as usize + size) / HUGE_PAGE * HUGE_PAGE;
            // SAFETY: [start, end) lies inside the block the system allocator just returned, and
            // the advice changes how its pages are backed, never their contents. A refusal (no
            // transparent huge pages, or `never` mode) leaves the block as it was, so the result
            // is not needed.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (ptr, size);
    }
}

// SAFETY: every call is passed to `System` with the caller's layout unchanged; the advice only
// changes how the returned memory is backed.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let ptr = unsafe { System.alloc(layout) };
        Self::advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        Self::advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        Self::advise(new, new_size);
        new
    }
}
