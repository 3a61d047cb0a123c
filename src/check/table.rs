//! Tables of a launch's arrays: a `T**` kernel parameter the launch binds to `[a, &b[2]]`.

// A `T**` kernel parameter is an array of pointer words ([`super::heap`]). A launch may bind it
// to a list of its own arrays (`cost = [c0, c1, &c2[4]];`, a batched GEMM's `const float* const
// A[]`): the words are then those arrays' addresses (`crate::ir::global_address`), and each
// entry is a hidden buffer parameter of the kernel ([`entry_name`]), as many as the longest such
// list any launch of the kernel gives the parameter, so that a pointer read from the table is a
// `Space::Choice` among them, resolved lane by lane by the array number its address carries.

use std::collections::HashMap;

use super::typed::*;
use super::KernelChecker;
use crate::syntax::ast;

/// What the hidden parameters for the entries of a table are called ([`entry_name`]).
pub const TABLE_PREFIX: &str = "(table) ";

/// The hidden parameter for entry `k` of the table parameter `param`: `(table) cost[1]`.
pub fn entry_name(param: &str, k: usize) -> String {
    format!("{TABLE_PREFIX}{param}[{k}]")
}

/// The table parameter and the entry a hidden parameter's name ([`entry_name`]) stands for.
pub fn entry_of(name: &str) -> Option<(&str, usize)> {
    let (param, k) = name
        .strip_prefix(TABLE_PREFIX)?
        .strip_suffix(']')?
        .rsplit_once('[')?;
    Some((param, k.parse().ok()?))
}

/// How many entry parameters `kernel` has for its table parameter `name`.
pub fn entry_count(kernel: &Kernel, name: &str) -> usize {
    kernel
        .params
        .iter()
        .filter(|p| entry_of(&p.name).is_some_and(|(q, _)| q == name))
        .count()
}

/// Whether a launch-section list names arrays (`[a, &b[2], NULL]`) rather than numbers.
pub(crate) fn names_arrays(items: &[ast::Expr]) -> bool {
    items.iter().any(|i| match &i.kind {
        ast::ExprKind::Name(n) => n != "NULL" && n != "nullptr",
        ast::ExprKind::Unary {
            op: ast::UnOp::AddrOf,
            ..
        } => true,
        _ => false,
    })
}

/// For each kernel (by its name without template arguments), its `T**` parameters some launch
/// binds to a list that names arrays, each with the most entries such a list has.
pub(crate) fn pointer_tables(module: &ast::Module) -> HashMap<String, Vec<(String, usize)>> {
    let mut out: HashMap<String, Vec<(String, usize)>> = HashMap::new();
    for l in module.launches.iter().chain(module.sequence_launches()) {
        let name = base_name(&l.kernel.name);
        let Some(k) = module.kernels.iter().find(|k| k.name.name == name) else {
            continue;
        };
        for p in k.params.iter().filter(|p| p.pointer_to_pointer) {
            let longest = l
                .stmts
                .iter()
                .filter_map(|s| match s {
                    ast::HostStmt::Assign { name, value } if name.name == p.name.name => {
                        match &value.kind {
                            ast::ExprKind::List(items) if names_arrays(items) => Some(items.len()),
                            _ => None,
                        }
                    }
                    _ => None,
                })
                .max();
            let Some(len) = longest else {
                continue;
            };
            let entry = out.entry(name.to_string()).or_default();
            match entry.iter_mut().find(|(n, _)| *n == p.name.name) {
                Some((_, most)) => *most = (*most).max(len),
                None => entry.push((p.name.name.clone(), len)),
            }
        }
    }
    out
}

/// A kernel's name without its template arguments (`sgemm` of `sgemm<64,64,8>`).
fn base_name(kernel: &str) -> &str {
    kernel.split('<').next().unwrap_or(kernel).trim()
}

impl KernelChecker<'_, '_> {
    /// Adds the hidden entry parameters of `T**` kernel parameter `q` (declared `p`) where a
    /// launch binds it to a table ([`pointer_tables`]), each holding what the pointers point to.
    pub(super) fn table_params(&mut self, q: u32, p: &ast::Param) {
        let Some(len) = self
            .globals
            .pointer_tables
            .get(base_name(&self.kernel_name))
            .and_then(|t| t.iter().find(|(n, _)| *n == p.name.name))
            .map(|&(_, len)| len)
        else {
            return;
        };
        let target = ast::TypeName {
            pointer: false,
            ..p.ty.clone()
        };
        if self.layout_of(&target).is_some() {
            self.errors.push(super::CheckError::Unsupported {
                what: format!("a table of pointers to `{}`", target.base_text),
                span: p.name.span,
                help: Some(format!(
                    "bind `{}` to zeros and let a kernel store the pointers, or pass the arrays as parameters of their own",
                    p.name.name
                )),
            });
            return;
        }
        let (elem, width) = match self.pointee_shape(&p.ty) {
            Ok(shape) => shape,
            Err(e) => {
                self.errors.push(e);
                return;
            }
        };
        let entries = (0..len)
            .map(|k| {
                let i = self.params.len() as u32;
                self.params.push(Param::hidden_buffer(
                    entry_name(&p.name.name, k),
                    p.name.span,
                    (elem, width),
                ));
                i
            })
            .collect();
        self.table_entries.insert(q, entries);
    }

    /// The entry parameters of the table `mem` is (`cost` of a `float** cost` a launch binds
    /// to arrays), whose words point into them; None where `mem` is no table.
    pub(super) fn table_entries_of(&self, mem: Mem) -> Option<Vec<u32>> {
        match mem.space {
            Space::Global(q) => self.table_entries.get(&q).cloned(),
            _ => None,
        }
    }
}
