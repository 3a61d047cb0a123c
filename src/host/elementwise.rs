//! Elementwise host arithmetic and `expect` comparisons, a chunk at a time over typed arrays.
//!
//! Arrays bound to buffer names hold the parameter's type (a `float` buffer is 4 bytes an
//! element); reading them a few thousand doubles at a time keeps `expect c == a + b` from
//! widening every operand to a whole array of doubles first. Chunks run in parallel, and their
//! results are put together in order, so the outcome is the same for any number of threads.

use std::sync::Arc;

use super::error::HostError;
use super::eval::bad;
use super::exact;
use super::value::{HostValue, Tolerance};
use crate::exec::BufData;
use crate::source::Span;
use crate::syntax::ast::BinOp;

type Result<T> = std::result::Result<T, HostError>;

/// Elements read per step.
const CHUNK: usize = 4096;

/// One side of an elementwise operation: a number standing for every element, an array, or
/// an expect's side computed a chunk at a time.
#[derive(Clone, Copy)]
pub(crate) enum Operand<'a> {
    Number(f64),
    Array(&'a BufData),
    Fused(&'a Fused, usize),
}

impl Operand<'_> {
    fn len(self) -> usize {
        match self {
            Operand::Number(_) => 1,
            Operand::Array(d) => d.len(),
            Operand::Fused(_, n) => n,
        }
    }

    /// Elements `start..start + out.len()`.
    fn read(self, start: usize, out: &mut [f64], scratch: &mut Scratch) {
        match self {
            Operand::Number(v) => out.fill(v),
            Operand::Array(d) => d.read_f64(start, out),
            Operand::Fused(f, _) => f.read_with(start, out, scratch),
        }
    }
}

/// Chunk buffers a worker reuses from chunk to chunk (a stack: each fused operation borrows one
/// for its right-hand side), so that reading a chunk allocates and zeroes nothing.
#[derive(Default)]
pub(crate) struct Scratch(Vec<Vec<f64>>);

impl Scratch {
    /// `f` with a buffer of `n` elements (contents unspecified) and the rest of the stack.
    fn with<R>(&mut self, n: usize, f: impl FnOnce(&mut [f64], &mut Scratch) -> R) -> R {
        let mut buf = self.0.pop().unwrap_or_default();
        if buf.len() < n {
            buf.resize(n, 0.0);
        }
        let r = f(&mut buf[..n], self);
        self.0.push(buf);
        r
    }
}

/// An elementwise expression over arrays of one length and numbers, computed for a range of
/// elements at a time (an `expect` side such as `2 * arange(n) + 1`), so that no array of the
/// whole length is made for it. Arithmetic is [`binary`]'s.
pub(crate) enum Fused {
    /// A number standing for every element.
    Number(f64),
    /// An array's elements.
    Array(Arc<BufData>),
    /// `arange(n)`: element `i` is `i`.
    Index,
    /// `transpose(a, rows, cols)` of a row-major `rows × cols` array: element `j · rows + i` is
    /// `a[i · cols + j]`.
    Transpose(Arc<BufData>, usize, usize),
    /// `-x`
    Neg(Box<Fused>),
    /// `l op r`, floating-point or not (`/` truncates on integers).
    Binary(BinOp, Box<Fused>, Box<Fused>, bool),
}

impl Fused {
    /// Elements `start..start + out.len()`.
    pub(crate) fn read(&self, start: usize, out: &mut [f64]) {
        self.read_with(start, out, &mut Scratch::default());
    }

    /// [`Fused::read`] with buffers for the operations' right-hand sides from `scratch`.
    fn read_with(&self, start: usize, out: &mut [f64], scratch: &mut Scratch) {
        match self {
            Fused::Number(v) => out.fill(*v),
            Fused::Array(d) => d.read_f64(start, out),
            Fused::Index => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = (start + i) as f64;
                }
            }
            Fused::Transpose(a, rows, cols) => {
                // Output elements of one column `j` are a run of source column `j`.
                let mut k = 0;
                while k < out.len() {
                    let o = start + k;
                    let (i, j) = (o % rows, o / rows);
                    let run = (rows - i).min(out.len() - k);
                    a.read_strided_f64(i * cols + j, *cols, &mut out[k..k + run]);
                    k += run;
                }
            }
            Fused::Neg(a) => {
                a.read_with(start, out, scratch);
                out.iter_mut().for_each(|x| *x = -*x);
            }
            Fused::Binary(op, a, b, float) => {
                a.read_with(start, out, scratch);
                scratch.with(out.len(), |ys, scratch| {
                    b.read_with(start, ys, scratch);
                    let f = arith(*op, *float);
                    for (x, &y) in out.iter_mut().zip(ys.iter()) {
                        *x = f(*x, y);
                    }
                });
            }
        }
    }
}

/// `x op y` on host numbers; `float` false truncates `/` like C's integer division.
fn arith(op: BinOp, float: bool) -> impl Fn(f64, f64) -> f64 {
    move |x: f64, y: f64| -> f64 {
        match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div if float => x / y,
            BinOp::Div => (x / y).trunc(),
            BinOp::Rem => x % y,
            BinOp::Shl => ((x as i64) << (y as i64 & 63)) as f64,
            BinOp::Shr => ((x as i64) >> (y as i64 & 63)) as f64,
            BinOp::BitAnd => ((x as i64) & (y as i64)) as f64,
            BinOp::BitOr => ((x as i64) | (y as i64)) as f64,
            BinOp::BitXor => ((x as i64) ^ (y as i64)) as f64,
            _ => unreachable!("host: arithmetic operators only"),
        }
    }
}

/// `f(start, xs, ys)` over lockstep chunks of `n` elements of `a` and `b`, in parallel; the
/// results in chunk order.
fn chunks<R: Send>(
    n: usize,
    a: Operand<'_>,
    b: Operand<'_>,
    f: impl Fn(usize, &[f64], &[f64]) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Scratch::default, |scratch, c| {
            let start = c * CHUNK;
            let m = CHUNK.min(n - start);
            scratch.with(m, |xs, scratch| {
                scratch.with(m, |ys, scratch| {
                    a.read(start, xs, scratch);
                    b.read(start, ys, scratch);
                    f(start, xs, ys)
                })
            })
        })
        .collect()
}

/// `f(xs, ys, out)` over lockstep chunks of `a` and `b`, writing `out` (of their length) in
/// parallel.
fn zip_into(
    a: Operand<'_>,
    b: Operand<'_>,
    out: &mut [f64],
    f: impl Fn(&[f64], &[f64], &mut [f64]) + Sync,
) {
    use rayon::prelude::*;
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each_init(Scratch::default, |scratch, (c, o)| {
            let start = c * CHUNK;
            scratch.with(o.len(), |xs, scratch| {
                scratch.with(o.len(), |ys, scratch| {
                    a.read(start, xs, scratch);
                    b.read(start, ys, scratch);
                    f(xs, ys, o);
                })
            });
        });
}

/// `f` applied to every element of a number or an array.
pub(crate) fn map(v: &HostValue, span: Span, f: impl Fn(f64) -> f64 + Sync) -> Result<HostValue> {
    match v {
        HostValue::Num { v, float } => Ok(HostValue::Num {
            v: f(*v),
            float: *float,
        }),
        HostValue::Array {
            data, shape, float, ..
        } => {
            let mut out = vec![0.0; data.len()];
            let d = Operand::Array(data);
            zip_into(d, d, &mut out, |xs, _, o| {
                for (o, &x) in o.iter_mut().zip(xs) {
                    *o = f(x);
                }
            });
            Ok(HostValue::Array {
                data: Arc::new(BufData::F64(out)),
                shape: shape.clone(),
                float: *float,
                dtype: None,
            })
        }
        other => Err(bad(
            format!("cannot compute with {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

/// An array, or a number or dimension standing for every element.
fn operand(v: &HostValue, span: Span) -> Result<Operand<'_>> {
    match v {
        HostValue::Array { data, .. } => Ok(Operand::Array(data)),
        HostValue::Num { v, .. } => Ok(Operand::Number(*v)),
        HostValue::Dim(d) => Ok(Operand::Number(f64::from(d[0]))),
        other => Err(bad(
            format!("cannot compute with {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

/// Elementwise `l op r` with scalar broadcast; integer `/` and `%` truncate like C.
pub(crate) fn binary(op: BinOp, l: &HostValue, r: &HostValue, span: Span) -> Result<HostValue> {
    let float = l.is_float() || r.is_float();
    let scalar = |v: &HostValue| -> Option<f64> {
        match v {
            HostValue::Num { v, .. } => Some(*v),
            HostValue::Dim(d) => Some(f64::from(d[0])),
            _ => None,
        }
    };
    let f = arith(op, float);
    if !float && matches!(op, BinOp::Div | BinOp::Rem) {
        let zero_divisor = match r {
            HostValue::Array { data, .. } => data.as_f64().contains(&0.0),
            other => scalar(other) == Some(0.0),
        };
        if zero_divisor {
            return Err(bad(
                "integer division by zero",
                span,
                "divides by zero",
                None,
            ));
        }
    }
    let shape = match (l, r) {
        (HostValue::Array { data: a, .. }, HostValue::Array { data: b, .. })
            if a.len() != b.len() =>
        {
            return Err(bad(
                format!("arrays of {} and {} elements", a.len(), b.len()),
                span,
                "sizes differ",
                None,
            ));
        }
        (HostValue::Array { shape, .. }, _) | (_, HostValue::Array { shape, .. }) => shape,
        _ => {
            return match (scalar(l), scalar(r)) {
                (Some(x), Some(y)) => Ok(HostValue::Num { v: f(x, y), float }),
                _ => Err(bad(
                    format!("cannot compute with {} and {}", l.kind(), r.kind()),
                    span,
                    "here",
                    None,
                )),
            }
        }
    };
    let (a, b) = (operand(l, span)?, operand(r, span)?);
    // The array's length (a number stands for all of its elements, even none).
    let n = if matches!(l, HostValue::Array { .. }) {
        a.len()
    } else {
        b.len()
    };
    let mut out = vec![0.0; n];
    zip_into(a, b, &mut out, |xs, ys, o| {
        for ((o, &x), &y) in o.iter_mut().zip(xs).zip(ys) {
            *o = f(x, y);
        }
    });
    Ok(HostValue::Array {
        data: Arc::new(BufData::F64(out)),
        shape: shape.clone(),
        float,
        dtype: None,
    })
}

/// One side of a comparison: a number or a one-element array stands for every element.
fn side(v: &HostValue, span: Span) -> Result<Operand<'_>> {
    match v {
        HostValue::Num { v, .. } => Ok(Operand::Number(*v)),
        HostValue::Array { data, .. } if data.len() == 1 => {
            Ok(Operand::Number(data.get_f64(0).unwrap_or_default()))
        }
        HostValue::Array { data, .. } => Ok(Operand::Array(data)),
        other => Err(bad(
            format!("cannot compare {}", other.kind()),
            span,
            "here",
            None,
        )),
    }
}

/// `expect l op r`: elementwise, a single element standing for all; `Err` describes the failure.
pub(crate) fn compare(
    op: BinOp,
    l: &HostValue,
    r: &HostValue,
    span: Span,
) -> Result<std::result::Result<(), String>> {
    let (a, b) = (side(l, span)?, side(r, span)?);
    compare_operands(op, a, b, Tolerance::of(l, r), span)
}

/// [`compare`] of two operands with the tolerance of their types.
pub(crate) fn compare_operands(
    op: BinOp,
    a: Operand<'_>,
    b: Operand<'_>,
    tol: Tolerance,
    span: Span,
) -> Result<std::result::Result<(), String>> {
    // Counts must agree (a 1-D array of 512 against one of 1024 used to index past the shorter one).
    if a.len() != b.len() && a.len() != 1 && b.len() != 1 {
        return Ok(Err(format!(
            "the sides have {} and {} elements",
            a.len(),
            b.len()
        )));
    }
    let n = if a.len() == 1 { b.len() } else { a.len() };
    // Per chunk: the elements that fail, and the first of them.
    let per_chunk = chunks(n, a, b, |start, xs, ys| {
        let mut bad = 0usize;
        let mut first = None;
        let mut inexact = None;
        for (j, (&x, &y)) in xs.iter().zip(ys).enumerate() {
            // Integers compared exactly: a double of 2^53 or more may be a rounded neighbour.
            if tol == Tolerance::Exact && (exact::beyond(x) || exact::beyond(y)) {
                inexact.get_or_insert(if exact::beyond(x) { x } else { y });
            }
            let ok = match op {
                BinOp::Eq => tol.close(x, y),
                BinOp::Ne => !tol.close(x, y),
                BinOp::Lt => x < y,
                BinOp::Le => x <= y || tol.close(x, y),
                BinOp::Gt => x > y,
                BinOp::Ge => x >= y || tol.close(x, y),
                _ => unreachable!("host: comparison operators only"),
            };
            if !ok {
                bad += 1;
                first.get_or_insert((start + j, x, y));
            }
        }
        (bad, first, inexact)
    });
    if let Some(v) = per_chunk.iter().find_map(|(_, _, v)| *v) {
        return Err(HostError::InexactInteger {
            what: format!("an integer comparison with {v}"),
            span,
        });
    }
    let bad_count: usize = per_chunk.iter().map(|(b, _, _)| b).sum();
    let first = per_chunk.iter().find_map(|(_, f, _)| *f);
    Ok(match first {
        None => Ok(()),
        Some((_, x, y)) if n == 1 => Err(format!("{x} {op} {y} is false")),
        Some((i, x, y)) => Err(format!(
            "{bad_count} of {n} elements differ; first at index {i}: {x} {op} {y} is false"
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(v: Vec<f32>) -> HostValue {
        let n = v.len();
        HostValue::Array {
            data: Arc::new(BufData::F32(v)),
            shape: vec![n],
            float: true,
            dtype: None,
        }
    }

    fn num(v: f64) -> HostValue {
        HostValue::Num { v, float: false }
    }

    #[test]
    fn typed_arrays_across_chunk_boundaries() {
        // 10000 floats = 3 chunks of 4096 (the last partial); a + 1 read in f32, computed in f64.
        let n = 10_000;
        let a = floats((0..n).map(|i| i as f32).collect());
        let sum = binary(BinOp::Add, &a, &num(1.0), Span::default()).expect("adds");
        let expected = HostValue::array((1..=n).map(f64::from).collect(), true);
        assert_eq!(sum, expected);
        assert_eq!(
            compare(BinOp::Eq, &sum, &expected, Span::default()).expect("compares"),
            Ok(())
        );
        // One element off, in the third chunk: index 9000 is reported with the count.
        let mut off: Vec<f32> = (1..=n).map(|i| i as f32).collect();
        off[9000] = -1.0;
        assert_eq!(
            compare(BinOp::Eq, &floats(off), &expected, Span::default()).expect("compares"),
            Err("1 of 10000 elements differ; first at index 9000: -1 == 9001 is false".into())
        );
    }

    #[test]
    fn a_number_stands_for_every_element_even_none() {
        let empty = floats(Vec::new());
        // No element to fail: holds. An empty array plus 1 is empty.
        assert_eq!(
            compare(BinOp::Eq, &empty, &num(1.0), Span::default()).expect("compares"),
            Ok(())
        );
        let sum = binary(BinOp::Add, &num(1.0), &empty, Span::default()).expect("adds");
        assert_eq!(sum.array_len(), 0);
        // A one-element array against three: broadcast, and 2 of 3 differ.
        let three = floats(vec![5.0, 6.0, 5.0]);
        assert_eq!(
            compare(BinOp::Eq, &floats(vec![6.0]), &three, Span::default()).expect("compares"),
            Err("2 of 3 elements differ; first at index 0: 6 == 5 is false".into())
        );
    }

    #[test]
    fn map_reads_typed_arrays_over_chunks() {
        // |x| over 5000 floats alternating in sign (2 chunks): 0, 1, 2, ... as doubles.
        let v: Vec<f32> = (0..5000)
            .map(|i| if i % 2 == 0 { i as f32 } else { -(i as f32) })
            .collect();
        let abs = map(&floats(v), Span::default(), f64::abs).expect("maps");
        assert_eq!(
            abs,
            HostValue::array((0..5000).map(f64::from).collect(), true)
        );
    }

    #[test]
    fn arrays_of_different_lengths_do_not_combine() {
        let e = binary(
            BinOp::Add,
            &floats(vec![1.0; 3]),
            &floats(vec![1.0; 4]),
            Span::default(),
        )
        .expect_err("sizes differ");
        assert!(e.to_string().contains("arrays of 3 and 4 elements"), "{e}");
    }
}
