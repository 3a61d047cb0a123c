//! Recursion over user input never overflows the stack.
//!
//! Every recursive walk over a program (building the syntax tree, checking, lowering, the
//! launch-section evaluator, the reference interpreter) goes through [`grow`] once per level:
//! when less than [`RED_ZONE`] bytes of stack remain, the walk continues on a fresh heap segment
//! (rustc's `ensure_sufficient_stack`). The parser bounds how deeply a program may nest
//! ([`crate::syntax::MAX_DEPTH`]), so a walk never needs more than a few segments.

/// Stack that must remain before a level of recursion runs in place.
const RED_ZONE: usize = 256 * 1024;

/// Size of each fresh segment.
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, on a fresh stack segment if this one is nearly used up.
#[inline]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
