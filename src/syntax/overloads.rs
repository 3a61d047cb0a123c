//! Overloaded `__global__` functions: each overload is named by its signature, and a launch
//! section of the plain name is given the overload whose parameters it sets.

use std::collections::HashMap;

use super::ast::{is_unnamed_param, HostStmt, Kernel, Launch, Module, Param};

/// `k(unsigned,const float*)`: the name of one overload of the kernel `k`, its parameter types
/// as C++ writes them, without parameter names or spaces beside punctuation.
pub fn signature_name(name: &str, params: &[Param]) -> String {
    let types: Vec<String> = params.iter().map(param_type).collect();
    canonical_kernel_name(&format!("{name}({})", types.join(",")))
}

/// A parameter's type as C++ writes it: `const float*`.
pub fn param_type(p: &Param) -> String {
    format!(
        "{}{}{}{}{}",
        if p.ty.is_const { "const " } else { "" },
        if p.volatile { "volatile " } else { "" },
        p.ty.base_text,
        if p.ty.pointer { "*" } else { "" },
        if p.ty.reference { "&" } else { "" },
    )
}

/// A kernel's name as given on the command line, in the program's spelling: one space between
/// two words and none elsewhere, so `k<64, 8>` is `k<64,8>`, `k<float, unsigned int>` is
/// `k<float,unsigned int>` and an overload's `k(unsigned, const float *)` is
/// `k(unsigned,const float*)`.
pub fn canonical_kernel_name(text: &str) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let word_char = |c: char| c.is_alphanumeric() || c == '_';
    let chars: Vec<char> = words.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|&(k, &c)| {
            c != ' '
                || (k > 0
                    && word_char(chars[k - 1])
                    && chars.get(k + 1).is_some_and(|&n| word_char(n)))
        })
        .map(|(_, &c)| c)
        .collect()
}

/// Names each overload of a plain (not template) kernel by its signature, and points each
/// launch section of an overloaded name at the overload it sets the arguments of: the one whose
/// parameters without a default it all sets, and of several such, the one with the most
/// parameters it sets. A section no overload or several equally fit keeps the plain name, which
/// the checker reports with the overloads' signatures.
pub fn name_kernel_overloads(module: &mut Module) {
    let mut count: HashMap<String, usize> = HashMap::new();
    for k in module.kernels.iter().filter(|k| is_plain(k)) {
        *count.entry(k.name.name.clone()).or_default() += 1;
    }
    let mut overloads: HashMap<String, Vec<(String, Vec<Param>)>> = HashMap::new();
    for k in module.kernels.iter_mut().filter(|k| is_plain(k)) {
        if count[&k.name.name] < 2 {
            continue;
        }
        let full = signature_name(&k.name.name, &k.params);
        overloads
            .entry(k.name.name.clone())
            .or_default()
            .push((full.clone(), k.params.clone()));
        k.name.name = full;
    }
    for l in &mut module.launches {
        let Some(candidates) = overloads.get(&l.kernel.name) else {
            continue;
        };
        if let Some(full) = chosen(l, candidates) {
            l.kernel.name = full;
        }
    }
}

/// A kernel that is neither a template nor a specialisation of one.
fn is_plain(k: &Kernel) -> bool {
    k.template.is_empty() && k.specialization.is_none()
}

/// The overload launch section `l` sets the arguments of, if exactly one fits best.
fn chosen(l: &Launch, candidates: &[(String, Vec<Param>)]) -> Option<String> {
    let set = set_names(l);
    let fits = |params: &[Param]| {
        params.iter().all(|p| {
            p.default.is_some() || is_unnamed_param(&p.name.name) || set.contains(&p.name.name)
        })
    };
    let scored: Vec<(usize, &String)> = candidates
        .iter()
        .filter(|(_, params)| fits(params))
        .map(|(full, params)| {
            let used = params.iter().filter(|p| set.contains(&p.name.name)).count();
            (used, full)
        })
        .collect();
    let best = scored.iter().map(|(used, _)| *used).max()?;
    let mut top = scored.iter().filter(|(used, _)| *used == best);
    match (top.next(), top.next()) {
        (Some((_, full)), None) => Some((*full).clone()),
        _ => None,
    }
}

/// The names a launch section assigns (`p` for `p.n = 3;` of a struct parameter).
pub fn set_names(l: &Launch) -> std::collections::HashSet<String> {
    l.stmts
        .iter()
        .filter_map(|s| match s {
            HostStmt::Assign { name, .. } => {
                let end = name.name.find(['.', '[']).unwrap_or(name.name.len());
                Some(name.name[..end].to_string())
            }
            HostStmt::Expect(_) | HostStmt::Cooperative(_) => None,
        })
        .collect()
}
