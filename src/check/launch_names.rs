//! Names a launch section sets that nothing uses: a misspelt parameter or setting (`bock = 8;`,
//! `smem = 160;`) would otherwise be a host variable silently ignored.

use super::{CheckError, Program};
use crate::host::SETTINGS;
use crate::syntax::assigned_variable;
use crate::syntax::ast::{self, HostStmt, SeqItem};

/// An error for each name the file's launch sections and sequences assign that is no parameter
/// of the kernels they launch, no `__constant__` or `__device__` variable of the file, no launch
/// setting, and that no statement of the section (or sequence) reads.
pub(super) fn unused(module: &ast::Module, program: &Program) -> Vec<CheckError> {
    // The file's `__constant__` and `__device__` variables are set by name, whether or not the
    // launched kernel reads them.
    let variables: Vec<String> = module
        .constants
        .iter()
        .map(|c| c.name.name.clone())
        .collect();
    let mut errors = Vec::new();
    for l in &module.launches {
        if let Some(mut params) = params_of(program, std::slice::from_ref(&l)) {
            params.extend(variables.iter().cloned());
            errors.extend(unused_in(&l.stmts.iter().collect::<Vec<_>>(), &params));
        }
    }
    for s in &module.sequences {
        let launches: Vec<&ast::Launch> = s
            .items
            .iter()
            .filter_map(|i| match i {
                SeqItem::Launch(l) => Some(l),
                SeqItem::Stmt(_) => None,
            })
            .collect();
        let Some(mut params) = params_of(program, &launches) else {
            continue;
        };
        params.extend(variables.iter().cloned());
        let stmts: Vec<&HostStmt> = s
            .items
            .iter()
            .flat_map(|i| match i {
                SeqItem::Launch(l) => l.stmts.iter().collect::<Vec<_>>(),
                SeqItem::Stmt(st) => vec![st],
            })
            .collect();
        errors.extend(unused_in(&stmts, &params));
    }
    errors
}

/// The parameter names of the kernels `launches` run; `None` where one is not in the program
/// (an error of its own).
fn params_of(program: &Program, launches: &[&ast::Launch]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for l in launches {
        let k = program.kernel(&l.kernel.name)?;
        names.extend(k.params.iter().map(|p| p.name.clone()));
    }
    Some(names)
}

/// The errors for the names `stmts` assign that are neither in `params`, nor a setting, nor
/// read by any of `stmts`.
fn unused_in(stmts: &[&HostStmt], params: &[String]) -> Vec<CheckError> {
    let read = |name: &str| {
        stmts.iter().any(|s| match s {
            HostStmt::Assign { name: n, value } => {
                value.mentions(name) || (n.name != name && assigned_variable(&n.name) == name)
            }
            HostStmt::Expect(e) => e.mentions(name),
            HostStmt::Cooperative(_) => false,
        })
    };
    let mut errors = Vec::new();
    let mut seen = Vec::new();
    for s in stmts {
        let HostStmt::Assign { name, .. } = s else {
            continue;
        };
        let n = assigned_variable(&name.name);
        let setting = SETTINGS.contains(&n)
            || n.strip_prefix("launch_")
                .is_some_and(|s| SETTINGS.contains(&s));
        // `v = [40, 36];` sets the members of a vector or struct parameter `v`.
        let whole = |p: &String| p.strip_prefix(n).is_some_and(|rest| rest.starts_with('.'));
        if setting || params.iter().any(|p| p == n || whole(p)) || seen.contains(&n) || read(n) {
            continue;
        }
        seen.push(n);
        let known = params
            .iter()
            .map(String::as_str)
            .chain(SETTINGS)
            .collect::<Vec<_>>();
        let guess = match n {
            "smem" | "shared" | "shmem" | "shared_mem" | "dynamic_smem" => Some(
                "did you mean `dyn_smem`? (the launch's dynamic shared memory in bytes)".into(),
            ),
            _ => crate::diag::did_you_mean(n, known.iter().copied()),
        };
        errors.push(CheckError::UnusedLaunchName {
            name: n.to_string(),
            span: name.span,
            help: guess.unwrap_or_else(|| {
                format!(
                    "a launch section sets the kernel's parameters ({}), `grid`, `block` and `dyn_smem`, and variables its other statements read; remove `{n}` or use it",
                    if params.is_empty() { "none".into() } else { params.join(", ") }
                )
            }),
        });
    }
    errors
}
