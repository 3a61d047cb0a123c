//! Overloaded `__global__` functions: each overload is named by its signature, and a launch
//! section of the plain name is given the overload whose parameters it sets.

use std::collections::HashMap;

use super::ast::{
    is_unnamed_param, BaseType, Expr, ExprKind, HostStmt, Kernel, Launch, Module, Param, SeqItem,
    TemplateParamKind, UnOp,
};

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

/// Names each overload of a kernel by its signature (`k(unsigned,const float*)`; a template's
/// instances then `k<float>(T*,const T*,int)`), and points each launch section of an
/// overloaded name at the overload it sets the arguments of: the one whose parameters without a
/// default it all sets, with arrays for its pointers and numbers for its numbers (catboost's
/// `AddVectorImpl(T*, const T*, ui64)` beside `AddVectorImpl(T*, const T, ui64)`), and of
/// several such, the one with the most parameters it sets. A section no overload or several
/// equally fit keeps the plain name, which the checker reports with the overloads' signatures.
pub fn name_kernel_overloads(module: &mut Module) {
    let mut count: HashMap<(String, bool), usize> = HashMap::new();
    for k in module.kernels.iter().filter(|k| overloadable(k)) {
        *count.entry(group(k)).or_default() += 1;
    }
    let mut overloads: HashMap<(String, bool), Vec<(String, &Kernel)>> = HashMap::new();
    let renamed: Vec<(usize, String)> = module
        .kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| overloadable(k) && count[&group(k)] > 1)
        .map(|(i, k)| (i, signature_name(&k.name.name, &k.params)))
        .collect();
    for (i, full) in &renamed {
        let k = &module.kernels[*i];
        overloads
            .entry(group(k))
            .or_default()
            .push((full.clone(), k));
    }
    let launches = module.launches.iter().chain(module.sequence_launches());
    let mut names = Vec::new();
    for l in launches {
        // A name that ends in parameter types (`k(int,float*)`) names its overload already.
        let (base, targs) = split_instance(&l.kernel.name);
        let key = (base.to_string(), !targs.is_empty());
        let sole = match overloads.get(&key) {
            None if l.kernel.name.ends_with(')') => sole_signature(module, &l.kernel.name),
            _ => None,
        };
        names.push(sole.or_else(|| {
            overloads
                .get(&key)
                .filter(|_| !l.kernel.name.ends_with(')'))
                .and_then(|candidates| chosen(module, l, candidates))
                .map(|full| full.replacen('(', &format!("{targs}("), 1))
        }));
    }
    for (i, full) in renamed {
        module.kernels[i].name.name = full;
    }
    let launches = module.all_launches_mut();
    for (l, name) in launches.zip(names) {
        if let Some(name) = name {
            l.kernel.name = name;
        }
    }
}

/// `k<8>` of a launch's `k<8>(float*,int)` where `k` is no overload: the signature is the one
/// kernel's, written with its template's parameter types (`T*`) or its instance's (`float*`),
/// as host code names an instance (DeepSpeed's `attn_softmax<8, 16, 8>(float*, ...)`).
pub fn sole_signature(module: &Module, name: &str) -> Option<String> {
    let mut depth = 0i32;
    let open = name.char_indices().find_map(|(at, c)| {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' if depth == 0 => return Some(at),
            _ => {}
        }
        None
    })?;
    let (head, written) = name.split_at(open);
    let (base, targs) = split_instance(head);
    let mut named = module
        .kernels
        .iter()
        .filter(|k| k.name.name == base && k.template.is_empty() == targs.is_empty());
    let (Some(k), None) = (named.next(), named.next()) else {
        return None;
    };
    let args = match targs.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        Some(inside) => split_top_level(inside),
        None => Vec::new(),
    };
    let given: HashMap<&str, &str> = k
        .template
        .iter()
        .zip(&args)
        .filter(|(t, _)| matches!(t.kind, TemplateParamKind::Type(_)))
        .map(|(t, a)| (t.name.name.as_str(), a.as_str()))
        .collect();
    let instance: Vec<Param> = k
        .params
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if let Some(a) = given.get(p.ty.base_text.as_str()) {
                p.ty.base_text = a.to_string();
            }
            p
        })
        .collect();
    let written = canonical_kernel_name(&format!("{base}{written}"));
    (written == signature_name(base, &k.params) || written == signature_name(base, &instance))
        .then(|| head.to_string())
}

/// The comma-separated parts of `text` outside any `<...>` or `(...)`.
fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().expect("one part at least").push(c);
    }
    parts
}

/// A kernel that may be one of several overloads: not a specialisation of a template, nor a
/// template told from its namesakes by an `enable_if` (chosen per instance).
fn overloadable(k: &Kernel) -> bool {
    k.specialization.is_none() && k.enable_if.is_none()
}

/// The overloads `k` is one of: plain kernels and kernel templates of its name.
fn group(k: &Kernel) -> (String, bool) {
    (k.name.name.clone(), !k.template.is_empty())
}

/// What a launch section's value is, as far as its text tells.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Given {
    /// An array, a pointer into one (`&d[3]`), or `NULL`: what a pointer parameter takes.
    Buffer,
    /// A number.
    Number,
    /// Not told by the text alone (a struct's members, a texture).
    Unknown,
}

/// What value `e` is, `vars` holding the section's variables assigned before it.
fn given(e: &Expr, vars: &HashMap<String, Given>) -> Given {
    let both = |a: Given, b: Given| match (a, b) {
        (Given::Buffer, _) | (_, Given::Buffer) => Given::Buffer,
        (Given::Number, Given::Number) => Given::Number,
        _ => Given::Unknown,
    };
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Float { .. } | ExprKind::Bool(_) => Given::Number,
        ExprKind::Cast { .. } => Given::Number,
        ExprKind::List(_) => Given::Buffer,
        ExprKind::Name(n) => match vars.get(n) {
            Some(g) => *g,
            None if n == "NULL" || n == "nullptr" => Given::Buffer,
            None => Given::Unknown,
        },
        ExprKind::Unary {
            op: UnOp::AddrOf, ..
        } => Given::Buffer,
        ExprKind::Unary { operand, .. } => given(operand, vars),
        ExprKind::Binary { lhs, rhs, .. } => both(given(lhs, vars), given(rhs, vars)),
        ExprKind::Ternary { then, els, .. } => match (given(then, vars), given(els, vars)) {
            (a, b) if a == b => a,
            _ => Given::Unknown,
        },
        ExprKind::Call { callee, args, .. } => match (callee.name.as_str(), args.as_slice()) {
            (
                "zeros" | "ones" | "empty" | "full" | "arange" | "rand" | "randint" | "load"
                | "transpose" | "reshape" | "cumsum" | "matmul",
                _,
            ) => Given::Buffer,
            ("cdiv" | "sum", _) => Given::Number,
            ("abs" | "sqrt", [a]) => given(a, vars),
            ("min" | "max", [a, b]) => both(given(a, vars), given(b, vars)),
            ("min" | "max", [_]) => Given::Number,
            _ => Given::Unknown,
        },
        _ => Given::Unknown,
    }
}

/// Whether parameter `p` of `k` may take a value that is `g`: a pointer a buffer, a number
/// (or a template's type parameter) a number; a struct or vector anything its members tell.
fn takes(k: &Kernel, p: &Param, g: Given) -> bool {
    let pointer = p.ty.pointer || p.pointer_to_pointer || !p.rows.is_empty();
    let number = !pointer
        && (p.ty.base != BaseType::Named
            || k.template.iter().any(|t| {
                matches!(t.kind, TemplateParamKind::Type(_)) && t.name.name == p.ty.base_text
            }));
    match g {
        Given::Unknown => true,
        Given::Buffer => pointer || !number,
        Given::Number => !pointer,
    }
}

/// The overload launch section `l` sets the arguments of, if exactly one fits best.
fn chosen(module: &Module, l: &Launch, candidates: &[(String, &Kernel)]) -> Option<String> {
    let kernels: Vec<&Kernel> = candidates.iter().map(|(_, k)| *k).collect();
    let scored = fitting(module, l, &kernels);
    let best = scored.iter().flatten().max()?;
    let mut top = scored
        .iter()
        .zip(candidates)
        .filter(|(used, _)| *used == &Some(*best));
    match (top.next(), top.next()) {
        (Some((_, (full, _))), None) => Some(full.clone()),
        _ => None,
    }
}

/// Per overload in `candidates`, whether launch section `l` fits it, and then how many of its
/// parameters `l` sets: it must set every parameter without a default, arrays for pointers
/// and numbers for numbers.
pub fn fitting(module: &Module, l: &Launch, candidates: &[&Kernel]) -> Vec<Option<usize>> {
    // A launch of a sequence sees the sequence's variables assigned before it.
    let mut vars: HashMap<String, Given> = HashMap::new();
    let outer = module
        .sequences
        .iter()
        .find(|s| {
            s.items
                .iter()
                .any(|i| matches!(i, SeqItem::Launch(m) if m.span == l.span))
        })
        .map_or(&[][..], |s| &s.items[..]);
    for item in outer {
        match item {
            SeqItem::Stmt(s) => assign(s, &mut vars),
            SeqItem::Launch(m) if m.span == l.span => break,
            SeqItem::Launch(_) => {}
        }
    }
    // The sequence's arrays bind the parameters of their names as the section's own do.
    let mut set = set_names(l);
    set.extend(vars.keys().cloned());
    for s in &l.stmts {
        assign(s, &mut vars);
    }
    candidates
        .iter()
        .map(|k| {
            let fits = k.params.iter().all(|p| {
                let named = set.contains(&p.name.name);
                let kind = vars.get(&p.name.name).copied().unwrap_or(Given::Unknown);
                (p.default.is_some() || is_unnamed_param(&p.name.name) || named)
                    && takes(k, p, kind)
            });
            fits.then(|| {
                k.params
                    .iter()
                    .filter(|p| set.contains(&p.name.name))
                    .count()
            })
        })
        .collect()
}

/// Notes in `vars` what a launch-section statement `s` assigns to a whole variable.
/// The variable an assignment `name = ...` sets: `p` of `p.n` or `a[1]`.
pub fn assigned_variable(name: &str) -> &str {
    &name[..name.find(['.', '[']).unwrap_or(name.len())]
}

fn assign(s: &HostStmt, vars: &mut HashMap<String, Given>) {
    if let HostStmt::Assign { name, value } = s {
        if !name.name.contains(['.', '[']) {
            let g = given(value, vars);
            vars.insert(name.name.clone(), g);
        }
    }
}

/// A launch's kernel name split before its template arguments: `("k", "<float>")`, `("k", "")`;
/// an overload's `k(thrust::complex<T>*)` has none (its parameter types may name templates).
pub fn split_instance(name: &str) -> (&str, &str) {
    name.split_at(targs_open(name).unwrap_or(name.len()))
}

/// Where a kernel name's template arguments begin: a `<` before its parameter types, if any.
fn targs_open(name: &str) -> Option<usize> {
    let params = name.find('(').unwrap_or(name.len());
    name[..params].find('<')
}

/// The kernel, or kernel template, a launch's kernel name names: `sgemm` of `sgemm<64,64,8>`,
/// an overloaded template's `k(T*,int)` of its instance `k<float>(T*,int)`.
pub fn template_name(instance: &str) -> String {
    let Some(open) = targs_open(instance) else {
        return instance.to_string();
    };
    let mut depth = 0;
    for (at, c) in instance.char_indices().skip_while(|&(at, _)| at < open) {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return format!("{}{}", &instance[..open], &instance[at + 1..]);
        }
    }
    instance[..open].to_string()
}

/// The names a launch section assigns (`p` for `p.n = 3;` of a struct parameter).
fn set_names(l: &Launch) -> std::collections::HashSet<String> {
    l.stmts
        .iter()
        .filter_map(|s| match s {
            HostStmt::Assign { name, .. } => Some(assigned_variable(&name.name).to_string()),
            HostStmt::Expect(_) | HostStmt::Cooperative(_) => None,
        })
        .collect()
}
