//! A braced initialiser of an array, nested or flat, as its elements in order.

use crate::syntax::ast::{Expr, ExprKind};

type Items<'i, 'a> = std::iter::Peekable<std::slice::Iter<'i, &'a Expr>>;

/// The initialiser of each element of an array of `rows` rows (`None`: as many as the list
/// fills, `float a[][3] = {...}`) of shape `inner`, from `items` by C's rules (C11 6.7.9/17–22):
/// a braced item initialises the next row (at the last dimension, the next element), a bare
/// one the next element, entering the rows it fills in order ("brace elision"). Elements no item
/// reaches are `None` (zero). Returns the elements and the number of rows; `None` when the list
/// (or one of its nested lists) has more values than its object holds.
pub(super) fn elements<'a>(
    items: &'a [Expr],
    rows: Option<u64>,
    inner: &[u64],
) -> Option<(Vec<Option<&'a Expr>>, u64)> {
    let items: Vec<&Expr> = items.iter().collect();
    let mut it = items.iter().peekable();
    let mut out = Vec::new();
    let mut used = 0;
    while rows.is_none_or(|r| used < r) && it.peek().is_some() {
        fill(&mut it, inner, &mut out)?;
        used += 1;
    }
    if it.peek().is_some() {
        return None;
    }
    let rows = rows.unwrap_or(used);
    out.resize((rows * inner.iter().product::<u64>()) as usize, None);
    Some((out, rows))
}

/// Appends the initialisers of one object of shape `dims` (a scalar when empty), taking items
/// from `it`: a braced item is the object's own list, bare ones fill it in order.
fn fill<'a>(it: &mut Items<'_, 'a>, dims: &[u64], out: &mut Vec<Option<&'a Expr>>) -> Option<()> {
    let Some((&n, inner)) = dims.split_first() else {
        out.push(it.next().copied());
        return Some(());
    };
    if let Some(Expr {
        kind: ExprKind::List(items),
        ..
    }) = it.peek().copied()
    {
        it.next();
        out.extend(elements(items, Some(n), inner)?.0);
        return Some(());
    }
    let end = out.len() + dims.iter().product::<u64>() as usize;
    for _ in 0..n {
        if it.peek().is_none() {
            break;
        }
        fill(it, inner, out)?;
    }
    out.resize(end, None);
    Some(())
}
