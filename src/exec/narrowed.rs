//! Launch arrays a kernel keeps in narrower elements while it runs (a `uint64_t*` buffer read
//! through `(uint32_t*)`, ccminer's idiom): their bytes re-typed before the blocks run and back
//! after, so that the launch section and `expect` see the arrays as they gave them.

use super::{Args, RunError};
use crate::value::Scalar;

/// A buffer re-typed for a launch.
pub(crate) struct Retyped {
    buffer: usize,
    /// The type the launch gave it.
    declared: Scalar,
    /// Narrow elements per declared one.
    factor: usize,
}

/// Re-types every buffer a parameter of `narrowed` (with the type it keeps) points into, and the offsets of every pointer
/// into it; refuses a buffer that another parameter keeps in another type.
pub(crate) fn narrow(
    narrowed: &[(u32, Scalar)],
    args: &mut Args,
) -> Result<Vec<Retyped>, RunError> {
    let mut done: Vec<(Retyped, Scalar)> = Vec::new();
    for &(p, stored) in narrowed {
        let Some(b) = args
            .pointers
            .get(p as usize)
            .and_then(|q| q.as_ref()?.buffer)
        else {
            continue;
        };
        let buffer = &mut args.buffers[b];
        if let Some((_, before)) = done.iter().find(|(r, _)| r.buffer == b) {
            if *before != stored {
                let err = mixed(&buffer.name, *before, stored);
                return Err(undone(args, done, err));
            }
            continue;
        }
        let declared = buffer.data.elem();
        if declared.size() <= stored.size() {
            continue;
        }
        buffer.data = buffer.data.reinterpret(stored);
        let factor = (declared.size() / stored.size()) as usize;
        done.push((
            Retyped {
                buffer: b,
                declared,
                factor,
            },
            stored,
        ));
    }
    // Every parameter into a re-typed buffer must keep it so.
    let kept_otherwise = args.pointers.iter().enumerate().find_map(|(q, pointer)| {
        let buffer = pointer.as_ref()?.buffer;
        let (r, stored) = done.iter().find(|(r, _)| Some(r.buffer) == buffer)?;
        let kept = narrowed.iter().any(|n| n.0 as usize == q);
        (!kept).then(|| mixed(&args.buffers[r.buffer].name, *stored, r.declared))
    });
    if let Some(err) = kept_otherwise {
        return Err(undone(args, done, err));
    }
    // Only now, every view agreeing: the offsets into the re-typed buffers.
    for pointer in args.pointers.iter_mut().flatten() {
        if let Some((r, _)) = done.iter().find(|(r, _)| Some(r.buffer) == pointer.buffer) {
            pointer.offset *= r.factor;
        }
    }
    Ok(done.into_iter().map(|(r, _)| r).collect())
}

/// Gives the buffers `narrow` re-typed their own types back, and their pointers their offsets.
pub(crate) fn widen(args: &mut Args, retyped: &[Retyped]) {
    for r in retyped {
        let buffer = &mut args.buffers[r.buffer];
        buffer.data = buffer.data.reinterpret(r.declared);
        for pointer in args.pointers.iter_mut().flatten() {
            if pointer.buffer == Some(r.buffer) {
                pointer.offset /= r.factor;
            }
        }
    }
}

/// `err`, after giving the buffers re-typed so far (no offset scaled yet) their types back.
fn undone(args: &mut Args, done: Vec<(Retyped, Scalar)>, err: RunError) -> RunError {
    for (r, _) in done {
        let buffer = &mut args.buffers[r.buffer];
        buffer.data = buffer.data.reinterpret(r.declared);
    }
    err
}

fn mixed(array: &str, a: Scalar, b: Scalar) -> RunError {
    RunError::MixedViews {
        array: array.to_string(),
        first: a.c_name().to_string(),
        second: b.c_name().to_string(),
    }
}
