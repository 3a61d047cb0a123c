//! A `sequence` section's own part: its names' types, unbound parameters, its final `expect`s.

use std::collections::HashMap;

use super::{Env, ExpectResult, HostError, HostValue};
use crate::check::typed::{Kernel, ParamKind, Program};
use crate::syntax::ast::{Expr, ExprKind, HostStmt, Launch, SeqItem, Sequence, UnOp};
use crate::value::Scalar;

/// The kernel parameter sequence name `name` is bound to by a launch of `seq`, as
/// (launch, parameter): by `p = name;` in the launch, or by the name itself where the launch
/// does not set a parameter of that name.
fn bindings<'a>(seq: &'a Sequence, name: &'a str) -> impl Iterator<Item = (&'a Launch, &'a str)> {
    seq.items.iter().filter_map(move |i| {
        let SeqItem::Launch(l) = i else {
            return None;
        };
        let explicit = l.stmts.iter().find_map(|s| match s {
            HostStmt::Assign { name: p, value } => match &value.kind {
                ExprKind::Name(n) if n == name => Some(p.name.as_str()),
                _ => None,
            },
            _ => None,
        });
        let shadowed = l
            .stmts
            .iter()
            .any(|s| matches!(s, HostStmt::Assign { name: p, .. } if p.name == name));
        explicit.or((!shadowed).then_some(name)).map(|p| (l, p))
    })
}

/// The element type of the first buffer parameter sequence name `name` is bound to: an array
/// the sequence makes is made in it, as a launch section makes its parameters' arrays.
pub fn elem_of(seq: &Sequence, program: &Program, name: &str) -> Option<Scalar> {
    bindings(seq, name).find_map(|(l, p)| {
        let k = program.kernel(&l.kernel.name)?;
        k.params
            .iter()
            .find(|q| q.name == p)
            .and_then(|q| match q.kind {
                ParamKind::Buffer { elem, .. } => Some(elem),
                ParamKind::Scalar { .. } => None,
            })
    })
}

/// Sequence name `name` set to a number (`count = 100;`) where it is bound to a file-scope
/// scalar (`__device__ int count;`): the one-element array that scalar holds, as a launch item
/// makes it; set to a list of members' values (`p = [3, 0.5];`) where it is bound to a struct
/// (`__device__ P p;`): the struct's bytes, as a launch item makes them; any other value as
/// it is.
pub fn symbol_value(
    seq: &Sequence,
    program: &Program,
    name: &crate::syntax::ast::Ident,
    v: HostValue,
) -> Result<HostValue, HostError> {
    if let HostValue::Array { .. } = v {
        let holder = bindings(seq, &name.name).find_map(|(l, p)| {
            let k = program.kernel(&l.kernel.name)?;
            let i = k.params.iter().position(|q| q.name == p)?;
            Some((k, i)).filter(|_| k.struct_symbols.iter().any(|(q, _)| *q as usize == i))
        });
        return match holder {
            Some((k, i)) => super::struct_members(k, i, v, &name.name, name.span),
            None => Ok(v),
        };
    }
    let HostValue::Num { v: x, float } = v else {
        return Ok(v);
    };
    let symbol = bindings(seq, &name.name).find_map(|(l, p)| {
        let k = program.kernel(&l.kernel.name)?;
        let i = k.params.iter().position(|q| q.name == p)?;
        match k.params[i].kind {
            ParamKind::Buffer { elem, .. } if k.constant_scalars.contains(&(i as u32)) => {
                Some(elem)
            }
            _ => None,
        }
    });
    match symbol {
        Some(elem) => super::scalar_symbol(&name.name, elem, (x, float), name.span),
        None => Ok(v),
    }
}

/// Refuses a launch item that leaves a parameter of `kernel` without a value: neither the
/// item nor the sequence so far names it, and it has no default argument.
pub fn check_bound(kernel: &Kernel, launch: &Launch, env: &Env) -> Result<(), HostError> {
    let set: Vec<&str> = launch
        .stmts
        .iter()
        .filter_map(|s| match s {
            HostStmt::Assign { name, .. } => Some(name.name.as_str()),
            _ => None,
        })
        .collect();
    // An unset `__constant__` the kernel reads is refused here rather than zero: an earlier
    // launch item may have set it, and a sequence carries only `__device__` memory from launch
    // to launch (a `__constant__` is set at sequence level, as the host's cudaMemcpyToSymbol).
    let missing: Vec<&str> = kernel
        .params
        .iter()
        .enumerate()
        .filter(|&(i, p)| {
            !p.name.starts_with('(')
                && !p.name.contains('.')
                && !crate::syntax::ast::is_unnamed_param(&p.name)
                && (p.default.is_none() || kernel.unset_constants.contains(&(i as u32)))
                && !set.contains(&p.name.as_str())
                && !env.vars.contains_key(&p.name)
        })
        .map(|(_, p)| p.name.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let quoted: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
    let example = missing
        .iter()
        .map(|m| format!("{m} = ...;"))
        .collect::<Vec<_>>()
        .join(" ");
    Err(HostError::UnboundParameter {
        kernel: kernel.name.clone(),
        missing: quoted.join(", "),
        span: launch.kernel.span,
        help: format!(
            "set them in the launch item (`launch {} {{ {example} }}`), or make arrays or values of those names in the sequence before it",
            kernel.name
        ),
    })
}

/// `expect`s on the names of `env`: a launch's after it ran, or a sequence's, as the last launch
/// left them.
pub fn expects(
    env: &mut Env,
    expects: &[crate::syntax::ast::Expr],
    src: &crate::source::SourceFile,
) -> Result<Vec<ExpectResult>, HostError> {
    expects
        .iter()
        .map(|e| {
            let result = env.expect(e)?;
            Ok(ExpectResult {
                text: src
                    .slice(e.span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                passed: result.is_ok(),
                detail: result.err(),
                span: e.span,
            })
        })
        .collect()
}

/// Whether a launch item's value is the sequence's array `name` itself or a pointer into it
/// (`t = t;`, `t = &t[1];`), so that what the launch leaves in it is the sequence's.
pub fn names_array(value: &Expr, name: &str) -> bool {
    let mut e = match &value.kind {
        ExprKind::Unary {
            op: UnOp::AddrOf,
            operand,
        } => operand.as_ref(),
        _ => value,
    };
    while let ExprKind::Index { base, .. } = &e.kind {
        e = base;
    }
    matches!(&e.kind, ExprKind::Name(n) if n == name)
}

/// Each array a launch left, by name, into the sequence's names: those the sequence made.
pub fn keep(
    vars: &mut HashMap<String, HostValue>,
    name: String,
    data: std::sync::Arc<crate::exec::BufData>,
    shape: Vec<usize>,
) {
    if let Some(HostValue::Array { dtype, .. }) = vars.get(&name) {
        let dtype = *dtype;
        put(vars, name, data, shape, dtype);
    }
}

/// Sets `name` to the array `data` of `shape`.
fn put(
    vars: &mut HashMap<String, HostValue>,
    name: String,
    data: std::sync::Arc<crate::exec::BufData>,
    shape: Vec<usize>,
    dtype: Option<Scalar>,
) {
    let float = data.elem().is_float();
    vars.insert(
        name,
        HostValue::Array {
            data,
            shape,
            float,
            dtype,
        },
    );
}

/// The names of the kernel's file-scope `__device__` variables (not `__constant__` ones, which
/// only the host sets).
pub fn device_variables(kernel: &Kernel) -> Vec<&str> {
    kernel
        .symbol_sizes
        .iter()
        .map(|&(p, _)| p)
        .filter(|p| !kernel.constants.contains(p))
        .map(|p| kernel.params[p as usize].name.as_str())
        .collect()
}

/// Keeps what a launch left in the `__device__` variable `name` for the next launches.
pub fn keep_symbol(
    vars: &mut HashMap<String, HostValue>,
    name: String,
    data: std::sync::Arc<crate::exec::BufData>,
    shape: Vec<usize>,
) {
    put(vars, name, data, shape, None);
}

/// The sequence's pointers (`c = &b[2];`) into what their array's name holds now: after a
/// launch, [`repoint`] moves them to what it left there.
pub fn tied_pointers(vars: &HashMap<String, HostValue>) -> Vec<String> {
    vars.iter()
        .filter(|(_, v)| match v {
            HostValue::Pointer { array, data, .. } => matches!(
                vars.get(array),
                Some(HostValue::Array { data: now, .. }) if std::sync::Arc::ptr_eq(data, now)
            ),
            _ => false,
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// Points each of the `tied` pointers into what its array's name holds after a launch, as a
/// device pointer keeps pointing into the same memory.
pub fn repoint(vars: &mut HashMap<String, HostValue>, tied: &[String]) {
    for name in tied {
        let Some(HostValue::Pointer { array, .. }) = vars.get(name) else {
            continue;
        };
        let Some(HostValue::Array { data, shape, .. }) = vars.get(array) else {
            continue;
        };
        let (now, now_shape) = (std::sync::Arc::clone(data), shape.clone());
        if let Some(HostValue::Pointer { data, shape, .. }) = vars.get_mut(name) {
            *data = now;
            *shape = now_shape;
        }
    }
}

/// Sets the arrays a sequence numbers before its launches (see [`Env`]'s `order`).
pub fn number(env: &mut Env, names: &[String], vars: &HashMap<String, HostValue>) {
    env.order = names
        .iter()
        .filter_map(|n| match vars.get(n) {
            Some(HostValue::Array { data, .. }) => Some((n.clone(), std::sync::Arc::clone(data))),
            _ => None,
        })
        .collect();
}
