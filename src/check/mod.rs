//! Names and types: turns the AST into a typed program, or reports every error found.

mod accessor;
mod address;
mod adl;
mod array_init;
mod assign_value;
mod async_copy;
mod atomics;
mod barrier;
mod braced;
mod const_eval;
mod constness;
mod conversion;
mod cub;
mod cub_io;
mod cub_raking;
mod cub_record;
mod cub_reduce_raking;
mod cub_scan;
mod decltype;
mod dpx;
mod error;
mod expr;
mod fall_through;
mod friends;
mod group_scan;
mod groups;
mod half;
mod half2;
pub mod heap;
mod intrinsics;
mod launch_names;
mod limits;
pub(crate) mod local;
mod math_constants;
mod memfn;
mod objects;
mod operators;
mod own_type;
mod partial_order;
mod pointer;
mod print;
mod ptx_mma;
mod returned_ref;
mod shared_pointer;
mod simd;
mod specialise;
mod split_math;
mod storage;
pub mod struct_image;
mod struct_symbol;
mod structs;
pub mod table;
mod template;
mod texture;
mod traits;
pub mod typed;
mod unset;
pub(crate) mod vector;
mod wmma;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub use error::{
    ArgumentProblem, CheckError, DimensionProblem, InitialiserProblem, PointerProblem,
    ReturnProblem, TemplateProblem,
};
use typed::*;

use crate::diag::did_you_mean;
use crate::source::Span;
use crate::syntax::ast::{self, BaseType};
use crate::value::{BlockVote, Scalar, Value};

/// Static shared memory per block accepted by CUDA without opt-in.
const STATIC_SMEM_LIMIT: u64 = 48 * 1024;

/// Runs `check` (a kernel's or a function's) on a new checker, with the errors it found. A pointer variable found pointing into another array
/// after its first use (`src = dst;` in a loop) makes the kernel be checked again with that
/// variable a [`Space::Choice`] pointer from its declaration on; the pointer sets only grow, so
/// this ends.
fn with_choices<'g, T>(
    globals: &'g Globals<'g>,
    mut check: impl FnMut(&mut KernelChecker<'g, '_>) -> T,
) -> (T, Vec<CheckError>) {
    let mut choice_vars = HashSet::new();
    let mut mixed_vars = HashSet::new();
    let learned = Learned::of(globals);
    loop {
        learned.restore(globals);
        let mut errors = Vec::new();
        let mut cx = KernelChecker::new(globals, &mut errors);
        cx.choice_vars.clone_from(&choice_vars);
        cx.mixed_vars.clone_from(&mixed_vars);
        let checked = check(&mut cx);
        let found = std::mem::take(&mut cx.choice_found);
        let mixed = std::mem::take(&mut cx.mixed_found);
        let before = (choice_vars.len(), mixed_vars.len());
        choice_vars.extend(found);
        mixed_vars.extend(mixed);
        if (choice_vars.len(), mixed_vars.len()) == before {
            return (checked, errors);
        }
    }
}

/// What a pass learns about the file's functions (a body with errors, the expansion budget). It
/// comes with errors that pass reports: a pass whose errors are dropped (checked again, or a
/// kernel left out of a focused run) must not leave it behind, or a later pass takes a broken
/// function for one reported already and silently puts a placeholder where its call was.
struct Learned {
    broken: HashSet<String>,
    gave_up: bool,
    expansions: u32,
}

impl Learned {
    fn of(globals: &Globals<'_>) -> Self {
        Learned {
            broken: globals.broken.borrow().clone(),
            gave_up: globals.gave_up.get(),
            expansions: globals.expansions.get(),
        }
    }

    fn restore(&self, globals: &Globals<'_>) {
        globals.broken.borrow_mut().clone_from(&self.broken);
        globals.gave_up.set(self.gave_up);
        globals.expansions.set(self.expansions);
    }
}

/// Checks every kernel and launch section of a module.
pub fn check(module: &ast::Module) -> Result<Program, Vec<CheckError>> {
    check_with(module, &[])
}

/// A kernel asked for by name (`--kernel 'sgemm<64,64,8>'`): its name as the program will know
/// it, the template's name, and the template arguments.
#[derive(Clone, Debug)]
pub struct KernelRef {
    /// `sgemm<64,64,8>`.
    pub name: String,
    /// `sgemm`.
    pub base: String,
    /// `64`, `64`, `8`.
    pub targs: Vec<ast::TemplateArg>,
    /// Where the request is written.
    pub span: Span,
}

/// Checks every kernel and launch section, and instantiates the kernel templates that the launch
/// sections and `requests` name.
pub fn check_with(
    module: &ast::Module,
    requests: &[KernelRef],
) -> Result<Program, Vec<CheckError>> {
    check_focused(module, requests, None)
}

/// [`check_with`], where only the kernels named in `focus` (and the instances asked for) must
/// be free of errors: another kernel's errors leave it out of the program, listed in
/// [`Program::unchecked`], and a function no kernel calls is not checked. A pasted file's other
/// kernels do not stop the one that is launched.
pub fn check_focused(
    module: &ast::Module,
    requests: &[KernelRef],
    focus: Option<&[String]>,
) -> Result<Program, Vec<CheckError>> {
    // Friends defined in classes are free functions, in a copy of the module.
    let hoisted;
    let module = if module.structs.iter().any(|s| !s.friends.is_empty()) {
        hoisted = friends::hoist(module);
        &hoisted
    } else {
        module
    };
    // Type aliases, and `<type_traits>`' transformations outside templates
    // (`std::conditional_t<true, float, int> q;`), are resolved in a copy of the module, once.
    let owned = resolve_aliases(module);
    let module = &owned;
    let mut errors = Vec::new();
    // A texture reference simt cannot read is refused where a kernel uses it (below): ppl.cv's
    // headers declare some that only other kernels read.
    let used_only = |what: &str| what.contains("texture reference");
    for (what, _, span) in module.unsupported.iter().filter(|u| !used_only(&u.0)) {
        let help = unsupported_help(what);
        errors.push(CheckError::Unsupported {
            what: what.clone(),
            span: *span,
            help: Some(help.into()),
        });
    }
    let mut program = Program::default();
    // Overloads of a kernel template are not told apart (a launch names the template only);
    // where only some kernels matter, such a template is left out like another kernel.
    let focused_on = |name: &str| {
        focus.is_none_or(|names| {
            names
                .iter()
                .any(|n| crate::syntax::template_name(n) == name)
        })
    };
    let mut templates: HashMap<&str, &ast::Kernel> = HashMap::new();
    for k in module
        .kernels
        .iter()
        .filter(|k| !k.template.is_empty() && k.specialization.is_none())
    {
        // A partial specialisation (`k<T, 4>`) is refused as such above.
        let refused = module
            .unsupported
            .iter()
            .any(|(_, _, at)| *at == k.name.span);
        // Overloads told apart by `enable_if` return types (SFINAE) are chosen per instance.
        let sfinae = |k: &ast::Kernel| k.enable_if.is_some();
        let told_apart = |first: &ast::Kernel| sfinae(first) && sfinae(k);
        if !refused
            && templates
                .insert(&k.name.name, k)
                .is_some_and(|first| !told_apart(first))
        {
            let e = CheckError::Unsupported {
                what: format!("overloading the kernel template `{}`", k.name.name),
                span: k.name.span,
                help: Some(
                    "give each kernel template its own name (overloads of plain kernels are chosen by the parameters a launch section sets)".into(),
                ),
            };
            match focused_on(&k.name.name) {
                true => errors.push(e),
                false => program
                    .unchecked
                    .push(Unchecked::new("kernel template", &k.name, &e)),
            }
        }
    }
    let globals = Globals::new(module, &mut errors);
    // Launch sections, and the launches of `sequence`s, name the instances of kernel templates.
    let in_sequences = module.sequence_launches();
    let mut wanted: Vec<KernelRef> = module
        .launches
        .iter()
        .chain(in_sequences)
        .filter(|l| {
            !l.targs.is_empty() || !crate::syntax::split_instance(&l.kernel.name).1.is_empty()
        })
        .map(|l| KernelRef {
            name: l.kernel.name.clone(),
            base: crate::syntax::template_name(&l.kernel.name),
            targs: l.targs.clone(),
            span: l.kernel.span,
        })
        .collect();
    wanted.extend(requests.iter().cloned());
    let mut instances = Vec::new();
    for r in &wanted {
        if instances
            .iter()
            .any(|k: &ast::Kernel| k.name.name == r.name)
        {
            continue;
        }
        let mut scratch = Vec::new();
        let mut cx = KernelChecker::new(&globals, &mut scratch);
        match cx.instance(module, r) {
            Ok(Some(k)) => instances.push(k),
            Ok(None) => {
                let plain = module
                    .kernels
                    .iter()
                    .find(|k| k.name.name == r.base && k.specialization.is_none());
                if let Some(k) = plain {
                    errors.push(CheckError::TemplateArguments {
                        template: r.base.clone(),
                        problem: TemplateProblem::NotATemplate,
                        span: r.span,
                        help: Some(format!("name it without arguments: `{}`", k.name.name)),
                    });
                }
            }
            Err(e) => errors.push(e),
        }
        errors.append(&mut scratch);
    }
    for k in module
        .kernels
        .iter()
        .filter(|k| k.template.is_empty() && k.specialization.is_none())
        .chain(&instances)
    {
        if let Some(prev) = program.kernels.iter().find(|p| p.name == k.name.name) {
            errors.push(CheckError::Duplicate {
                name: k.name.name.clone(),
                span: k.name.span,
                first: prev.span,
            });
            continue;
        }
        let learned = Learned::of(&globals);
        let (kernel, mut own) = with_choices(&globals, |cx| cx.kernel(k));
        let focused = focus.is_none_or(|names| {
            instances.iter().any(|i| i.name.name == k.name.name)
                || names
                    .iter()
                    .any(|n| crate::syntax::template_name(n) == k.name.name)
        });
        match own.first() {
            Some(first) if !focused => {
                learned.restore(&globals);
                program
                    .unchecked
                    .push(Unchecked::new("kernel", &k.name, first));
            }
            _ => {
                errors.append(&mut own);
                program.kernels.push(kernel);
            }
        }
    }
    // Functions no kernel calls are still checked once, with their parameters as plain variables
    // (templates only where instantiated, as in C++); where only some kernels matter, their
    // errors leave them out like another kernel's.
    for f in &module.device_fns {
        if f.template.is_empty() && !globals.inlined.borrow().contains(&f.name.name) {
            let learned = Learned::of(&globals);
            let ((), own) = with_choices(&globals, |cx| {
                if let Err(e) = cx.check_function(f) {
                    cx.errors.push(e);
                }
            });
            match own.first() {
                Some(first) if focus.is_some() => {
                    learned.restore(&globals);
                    program
                        .unchecked
                        .push(Unchecked::new("function", &f.name, first));
                }
                _ => errors.extend(own),
            }
        }
    }
    for l in module.sequence_launches() {
        errors.extend(overload_unchosen(module, l));
    }
    for l in &module.launches {
        if let Some(e) = overload_unchosen(module, l) {
            errors.push(e);
            continue;
        }
        let template = |name: &str| {
            module
                .kernels
                .iter()
                .any(|k| k.name.name == name && !k.template.is_empty())
        };
        if program.kernel(&l.kernel.name).is_none()
            && !wanted.iter().any(|r| r.name == l.kernel.name)
            && !template(&l.kernel.name)
            && !program.unchecked.iter().any(|u| u.name == l.kernel.name)
        {
            let names = program.names_like(module, &l.kernel.name);
            let help = did_you_mean(&l.kernel.name, names.iter().map(String::as_str))
                .unwrap_or_else(|| format!("the kernels of this file: {}", names.join(", ")));
            errors.push(CheckError::UnknownKernel {
                name: l.kernel.name.clone(),
                span: l.kernel.span,
                help,
            });
        }
    }
    // A kernel refused leaves names its section sets unread: said once, by its own error.
    if errors.is_empty() {
        errors.extend(launch_names::unused(module, &program));
    }
    if program.kernels.is_empty() && errors.is_empty() {
        if let Some(t) = module.kernels.iter().find(|k| !k.template.is_empty()) {
            errors.push(CheckError::TemplateArguments {
                template: t.name.name.clone(),
                problem: TemplateProblem::NoInstance {
                    signature: template::signature(&t.template),
                },
                span: t.name.span,
                help: Some(format!(
                    "name the arguments in the launch section (`launch {}<...> {{ ... }}`) or with --kernel '{}<...>'",
                    t.name.name, t.name.name
                )),
            });
        }
    }
    if module.kernels.is_empty() && errors.is_empty() {
        errors.push(CheckError::NoKernel {
            span: Span::new(0, 0),
        });
    }
    // A use of a declaration reported as unsupported is not an unknown name as well; the
    // use of one refused only where used is that refusal.
    let refusal = |name: &str| {
        let (what, _, span) = module
            .unsupported
            .iter()
            .find(|(w, n, _)| n == name && used_only(w))?;
        Some(CheckError::Unsupported {
            what: what.clone(),
            span: *span,
            help: Some(unsupported_help(what).into()),
        })
    };
    for e in &mut errors {
        if let CheckError::UnknownName { name, .. } = e {
            if let Some(refused) = refusal(name) {
                *e = refused;
            }
        }
    }
    errors.retain(|e| match e {
        CheckError::UnknownName { name, .. } | CheckError::UnknownType { name, .. } => {
            !module.unsupported.iter().any(|(_, n, _)| n == name)
        }
        _ => true,
    });
    // The same mistake met again (a refused struct used by several kernels, a function's body
    // expanded twice) is reported once.
    let mut seen = std::collections::HashSet::new();
    errors.retain(|e| seen.insert(format!("{e:?}")));
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors)
    }
}

/// The diagnostic for a launch section that names an overloaded kernel by its plain name and
/// sets the parameters of no overload, or of several equally: the overloads' signatures.
fn overload_unchosen(module: &ast::Module, l: &ast::Launch) -> Option<CheckError> {
    // `k` of plain overloads `k(int,float*)`; `k<float>` of templates `k(T*,int)`.
    let (base, targs) = crate::syntax::split_instance(&l.kernel.name);
    if l.kernel.name.ends_with(')') {
        return None;
    }
    let prefix = format!("{base}(");
    let named = |k: &&ast::Kernel| k.name.name.starts_with(&prefix);
    let overloads: Vec<&ast::Kernel> = module
        .kernels
        .iter()
        .filter(|k| named(k) && k.template.is_empty() == targs.is_empty())
        .collect();
    // `launch k` of overloaded templates only: an instance needs its arguments, as for one
    // template (`k<>` for their defaults).
    let templates = module
        .kernels
        .iter()
        .filter(|k| named(k) && !k.template.is_empty());
    if overloads.is_empty() && targs.is_empty() && templates.clone().count() > 1 {
        return Some(CheckError::TemplateArguments {
            template: base.to_string(),
            problem: TemplateProblem::NoInstance {
                signature: templates
                    .map(|k| k.name.name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            },
            span: l.kernel.span,
            help: Some(format!(
                "name the arguments: `launch {base}<...> {{ ... }}` (`{base}<>` for their defaults)"
            )),
        });
    }
    if overloads.is_empty() {
        return None;
    }
    let fitting = crate::syntax::fitting(module, l, &overloads);
    let best = fitting.iter().flatten().max();
    let fits = best.map_or(0, |b| fitting.iter().filter(|u| **u == Some(*b)).count());
    let list: Vec<String> = overloads
        .iter()
        .map(|k| {
            let params: Vec<String> = k
                .params
                .iter()
                .map(|p| format!("{} {}", crate::syntax::param_type(p), p.name.name))
                .collect();
            format!("`{base}{targs}({})`", params.join(", "))
        })
        .collect();
    Some(CheckError::KernelOverload {
        name: l.kernel.name.clone(),
        count: overloads.len(),
        fits,
        span: l.kernel.span,
        help: format!(
            "the overloads are {}; a launch section runs the one whose parameters without a default it all sets, arrays for pointers and numbers for numbers (of several, the one with the most parameters it sets); or name one by its parameter types: `launch {}({}) {{ ... }}`",
            list.join(", "),
            l.kernel.name,
            overloads[0].params.iter().map(crate::syntax::param_type).collect::<Vec<_>>().join(", ")
        ),
    })
}

impl Unchecked {
    fn new(what: &'static str, name: &ast::Ident, first: &CheckError) -> Unchecked {
        Unchecked {
            what,
            name: name.name.clone(),
            span: name.span,
            first: first.to_string(),
            code: miette::Diagnostic::code(first).map_or_else(String::new, |c| c.to_string()),
        }
    }
}

/// File-scope names: `const` globals (folded once) and `__device__` functions.
pub(crate) struct Globals<'m> {
    consts: HashMap<&'m str, Value>,
    /// Quoted `#include`s the preprocessor found nowhere.
    missing_headers: &'m [String],
    /// The names a qualified call may start with ([`ast::Module::scopes`]).
    scopes: &'m std::collections::HashSet<String>,
    /// The names only namespaces take ([`ast::Module::namespaces`]).
    namespaces: &'m std::collections::HashSet<String>,
    functions: HashMap<&'m str, &'m ast::Function>,
    /// Every definition of each function name (C++ overloads), in file order.
    overloads: HashMap<&'m str, Vec<&'m ast::Function>>,
    /// Explicit specialisations of function templates (`template <> float f<float>(...)`).
    specializations: &'m [ast::Specialization],
    /// Where each function template declared without a body starts ([`ast::Module::declared`]).
    declared: &'m [Span],
    /// Variable templates.
    var_templates: &'m [ast::VarTemplate],
    /// `__constant__` arrays.
    constants: &'m [ast::ConstantArray],
    /// Structs.
    structs: &'m [ast::StructDef],
    /// File-scope variables that are not `const`: the host's (a `.cu` file's `int N = 1024;`).
    host_vars: HashMap<&'m str, Span>,
    /// Functions some kernel called (so they were checked there).
    inlined: std::cell::RefCell<std::collections::HashSet<String>>,
    /// `__device__` calls expanded so far in the file (each is checked anew, like a macro).
    expansions: std::cell::Cell<u32>,
    /// Some kernel or function was too complex to check (reported once for the file): later
    /// expansions are placeholders.
    gave_up: std::cell::Cell<bool>,
    /// Functions whose body had errors where first inlined: later calls are placeholders.
    broken: std::cell::RefCell<std::collections::HashSet<String>>,
    /// Whether a function of this name takes the address of its reference parameter of this
    /// index, itself or through the calls it passes it to (`takes_address`), once asked.
    address_taking: std::cell::RefCell<HashMap<(String, usize), bool>>,
    /// The file's host tables ([`Kernel::file_arrays`]), checked once for every kernel.
    host_arrays: std::cell::OnceCell<Vec<(String, Scalar, ast::Expr)>>,
    /// Some struct or union holds data (else no expression is a struct).
    data_structs: bool,
    /// Some function or member function overloads an operator (else no operator expression
    /// calls one).
    operators: bool,
    /// Some function or member function returns a reference to a vector, or to a type
    /// parameter (else no call names a vector in memory).
    vector_refs: bool,
    /// Function pointer types (`typedef void (*cpy_kernel_t)(...)`), by name.
    fn_pointer_types: std::collections::HashSet<&'m str>,
    /// Functions without `__device__` (host code), by name: where each is defined.
    host_functions: HashMap<&'m str, Span>,
    /// `__shared__` arrays declared at file scope.
    shared: &'m [ast::Stmt],
    /// The member types of class templates, for their instances' (`kernel_type<float>::compute`).
    class_members: std::rc::Rc<Vec<template::ClassMembers>>,
    /// The file's integer constants and enumerators by name (`strategy::CONVENIENT`), for
    /// template arguments written with them (`conditional_t<OS == strategy::CONVENIENT, …>`).
    int_consts: std::rc::Rc<HashMap<String, i64>>,
    /// For each kernel a `sequence` launches: the arrays of pointers other launches of the
    /// sequence take and it does not, which a `T**` member read in it may point into
    /// ([`heap::sequence_slots`]).
    sequence_slots: HashMap<String, Vec<(String, ast::TypeName)>>,
    /// For each kernel, its `T**` parameters a launch binds to a table of arrays, with the most
    /// entries ([`table::pointer_tables`]).
    pointer_tables: HashMap<String, Vec<(String, usize)>>,
    /// Scalar locals declared without a value that may be read unset, by where their names
    /// are declared ([`unset::unset_locals`]).
    unset: std::collections::HashSet<Span>,
}

impl<'m> Globals<'m> {
    /// What a call by name may run, for [`local::names_used`].
    fn callees(&self) -> local::Callees<'_, 'm> {
        local::Callees {
            functions: &self.functions,
            overloads: &self.overloads,
            specializations: self.specializations,
        }
    }

    fn new(module: &'m ast::Module, errors: &mut Vec<CheckError>) -> Globals<'m> {
        let mut g = Globals {
            consts: HashMap::new(),
            missing_headers: &module.missing_headers,
            scopes: &module.scopes,
            namespaces: &module.namespaces,
            functions: HashMap::new(),
            overloads: HashMap::new(),
            specializations: &module.specializations,
            declared: &module.declared,
            var_templates: &module.var_templates,
            constants: &module.constants,
            structs: &module.structs,
            host_vars: HashMap::new(),
            inlined: Default::default(),
            expansions: Default::default(),
            gave_up: Default::default(),
            broken: Default::default(),
            address_taking: Default::default(),
            host_arrays: Default::default(),
            data_structs: module.structs.iter().any(structs::has_data),
            operators: structs::overloads_operators(module),
            vector_refs: returned_ref::returns_vector_refs(module),
            fn_pointer_types: module
                .fn_pointer_types
                .iter()
                .map(|t| t.name.as_str())
                .collect(),
            host_functions: module
                .host_functions
                .iter()
                .map(|f| (f.name.as_str(), f.span))
                .collect(),
            shared: &module.shared,
            class_members: std::rc::Rc::new(template::ClassMembers::of(module)),
            int_consts: Default::default(),
            sequence_slots: heap::sequence_slots(module),
            pointer_tables: table::pointer_tables(module),
            unset: unset::unset_locals(module),
        };
        for f in &module.device_fns {
            // Overloads differ in their parameter types (`volatile T*` is another type than `T*`,
            // `f(float4&)` another than `f(const float4&)`, `f(float*)` another than
            // `f(const float*)`); the same list twice is a duplicate.
            let signature = |f: &ast::Function| -> Vec<(String, bool, bool, bool, bool)> {
                f.params
                    .iter()
                    .map(|p| {
                        let const_target = (p.ty.reference || p.ty.pointer) && p.ty.is_const;
                        (
                            p.ty.base_text.clone(),
                            p.ty.pointer,
                            p.ty.reference,
                            const_target,
                            p.volatile,
                        )
                    })
                    .collect()
            };
            // A template's own signature also holds its return type and its template
            // parameters ([temp.over.link]): SFINAE's overloads differ in those alone
            // (`enable_if_t<is_same_v<T, float>, T> f(T)` beside `enable_if_t<!..., T> f(T)`).
            let template_signature = |f: &ast::Function| -> Option<(String, Vec<String>)> {
                (!f.template.is_empty()).then(|| {
                    let params = f
                        .template
                        .iter()
                        .map(|p| match &p.kind {
                            ast::TemplateParamKind::Type(d) => {
                                format!("typename={}", d.as_ref().map_or("", |t| &t.base_text))
                            }
                            ast::TemplateParamKind::Value(t, _) => t.base_text.clone(),
                            ast::TemplateParamKind::Function(t, _) => t.clone(),
                            ast::TemplateParamKind::Template(n, _) => format!("template{n}"),
                        })
                        .collect();
                    (f.ret.base_text.clone(), params)
                })
            };
            let same = g.overloads.get(f.name.name.as_str()).and_then(|fs| {
                fs.iter()
                    .find(|o| {
                        signature(o) == signature(f)
                            && o.template.len() == f.template.len()
                            && template_signature(o) == template_signature(f)
                    })
                    .copied()
            });
            // A template declared ahead of its definition (or again after it) is that one,
            // whatever its parameters are named (`template <class T> T f(T);` then `template
            // <class U> U f(U v) { ... }`).
            let declared = |f: &ast::Function| f.declared_only(&module.declared);
            let positional = |f: &ast::Function| -> Vec<(String, bool, bool, bool, bool)> {
                let mut sig = signature(f);
                for (ty, _, _, _, _) in &mut sig {
                    if let Some(k) = f.template.iter().position(|t| t.name.name == *ty) {
                        *ty = format!("#{k}");
                    }
                }
                sig
            };
            let redeclared = g.overloads.get(f.name.name.as_str()).and_then(|fs| {
                fs.iter()
                    .find(|o| {
                        (declared(o) || declared(f))
                            && o.template.len() == f.template.len()
                            && positional(o) == positional(f)
                    })
                    .copied()
            });
            if let Some(first) = same
                .or(redeclared)
                .filter(|&first| declared(first) || declared(f))
            {
                if declared(first) && !declared(f) {
                    for o in g
                        .overloads
                        .get_mut(f.name.name.as_str())
                        .into_iter()
                        .flatten()
                    {
                        if std::ptr::eq(*o, first) {
                            *o = f;
                        }
                    }
                    if g.functions
                        .get(f.name.name.as_str())
                        .is_some_and(|&o| std::ptr::eq(o, first))
                    {
                        g.functions.insert(&f.name.name, f);
                    }
                }
                continue;
            }
            if let Some(first) = same {
                errors.push(CheckError::Duplicate {
                    name: f.name.name.clone(),
                    span: f.name.span,
                    first: first.name.span,
                });
                continue;
            }
            g.functions.entry(&f.name.name).or_insert(f);
            g.overloads.entry(&f.name.name).or_default().push(f);
        }
        for c in &module.consts {
            // A pointer at file scope is the host's (`const char* name = "...";`).
            if c.ty.pointer {
                g.host_vars.insert(&c.name.name, c.name.span);
                continue;
            }
            let auto = c.ty.base == BaseType::Auto && !c.ty.reference;
            let ty = match scalar_of(&c.ty) {
                Ok(t) => t,
                // `static constexpr auto INVSQRT2 = .70710678118654752440;`: the initialiser's
                // type (below).
                Err(_) if auto => Scalar::I32,
                // `const static cudaTextureDesc d = []() { ... }();` (SiftGPU): a host object
                // built by a lambda the host runs; an error only where device code reads it.
                Err(_) if matches!(&c.value.kind, ast::ExprKind::Call { callee, .. } if callee.name == "<lambda>") =>
                {
                    g.host_vars.insert(&c.name.name, c.name.span);
                    continue;
                }
                // `const std::map<std::string, ReductionType> reduce2REDUCE = {...};`
                // (pytorch_scatter): a host container, an error only where device code reads it.
                Err(_) if is_host_container(&c.ty.base_text) => {
                    g.host_vars.insert(&c.name.name, c.name.span);
                    continue;
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            if !c.ty.is_const {
                // The host's variable: an error only where device code reads it.
                g.host_vars.insert(&c.name.name, c.name.span);
                continue;
            }
            let mut scratch = Vec::new();
            let mut cx = KernelChecker::new(&g, &mut scratch);
            let value = cx.constant_expr(&c.value).map(|e| {
                let ty = if auto { cx.own_type(&c.value, &e) } else { ty };
                cx.convert(e, ty)
            });
            match value {
                Ok(Expr {
                    kind: ExprKind::Const(v),
                    ..
                }) => {
                    g.consts.insert(&c.name.name, v);
                }
                // `const float PI = 2.0 * std::asin(1.0);` (NPB): initialised when the host
                // program starts, so a variable of the host's, an error only where device code
                // reads it (nvcc: "identifier is undefined in device code").
                Ok(_) => {
                    g.host_vars.insert(&c.name.name, c.name.span);
                }
                Err(e) => errors.push(e),
            }
            errors.append(&mut scratch);
        }
        g.int_consts = std::rc::Rc::new(
            g.consts
                .iter()
                .filter(|(_, v)| v.ty().is_integer() || v.ty() == Scalar::Bool)
                .filter_map(|(n, v)| Some((n.to_string(), v.as_i64()?)))
                .collect(),
        );
        g
    }
}

/// What a name in scope stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Binding {
    Local {
        var: VarId,
        is_const: bool,
    },
    Param(u32),
    Shared(u32),
    /// A pointer variable (index into the checker's pointer variables).
    Pointer(u32),
    /// A per-thread array of pointers, one pointer variable per element (index into the
    /// checker's pointer arrays).
    PointerArray(u32),
    /// A reference parameter bound to an element in memory: reads and writes go to `*p`.
    Ref(u32),
    /// A per-thread local array.
    LocalArray(u32),
    /// A cooperative group (`cg::thread_block block = cg::this_thread_block();`).
    Group(groups::Group),
    /// A `const`/`constexpr` local initialised with a constant: it is that constant (so it can
    /// size an array, as in C++), with its declared type (`const uint8_t k = 5;` is a `uint8_t`).
    Constant(Value, Scalar),
    /// An object of a struct with no data (index into the checker's objects).
    Object(u32),
    /// A vector local: one variable per component.
    Vector {
        vars: [VarId; 4],
        elem: Scalar,
        width: u32,
    },
    /// A struct with data members, in registers or in memory (index into the checker's structs).
    Struct(u32),
    /// A lambda (index into the checker's lambdas).
    Lambda(u32),
    /// A `cuda::barrier` or `cuda::pipeline` (its state) of asynchronous copies.
    Async(crate::async_copy::AsyncObj),
    /// A `TensorAccessor` an accessor's partial index gave (`auto v = acc[b][0];`; index into
    /// the checker's local accessors).
    Accessor(u32),
}

/// One scope's names: what each stands for and where it was declared.
pub(crate) type Scope = HashMap<String, (Binding, Span)>;

/// Checks one kernel; collects errors and keeps going after each bad statement.
pub(crate) struct KernelChecker<'g, 'e> {
    globals: &'g Globals<'g>,
    errors: &'e mut Vec<CheckError>,
    scopes: Vec<HashMap<String, (Binding, Span)>>,
    /// `using T = ...;` and `typedef` names of the blocks being checked, each with the depth of
    /// the scope it belongs to: the rest of the block is rewritten with them, and a union the
    /// block declares (hoisted to the file) looks its members' types up here.
    local_types: Vec<(usize, String, ast::TypeName)>,
    params: Vec<Param>,
    shared: Vec<Shared>,
    locals: Vec<Local>,
    ptr_vars: Vec<pointer::PtrVar>,
    /// Each per-thread array of pointers: its elements' pointer variables.
    pointer_arrays: Vec<Vec<u32>>,
    /// The pointer variable of each struct's pointer leaf, by the leaf's variable.
    leaf_pointers: HashMap<VarId, u32>,
    local_arrays: Vec<LocalArray>,
    /// Buffer parameters held in narrower elements (see [`Kernel::narrowed`]).
    narrowed: Vec<(u32, Scalar)>,
    /// Notes for the report: constructs that run but deserve a word (deprecated forms).
    notes: Vec<(Span, &'static str, String)>,
    /// Struct objects declared so far.
    objects: Vec<objects::Object>,
    /// Struct values with data members: their type and where they live.
    struct_vars: Vec<structs::StructPlace>,
    /// The struct values of `struct_vars` that are `const` (a `const` local, a `const T&`
    /// parameter, `*this` in a `const` member function): what picks a `const` overload.
    const_structs: HashSet<u32>,
    /// The struct type of arrays declared as arrays of structs (parameters, shared arrays).
    struct_spaces: HashMap<Space, Rc<structs::Layout>>,
    /// The struct type pointer variables point to, by pointer variable.
    struct_ptrs: HashMap<u32, Rc<structs::Layout>>,
    /// Struct layouts built so far, by type name.
    layouts: HashMap<String, Rc<structs::Layout>>,
    /// ATen accessor parameters, by their buffer parameter.
    accessors: HashMap<u32, accessor::Accessor>,
    /// Accessors held by locals: the dimensions a partial index left, and where they start.
    local_accessors: Vec<accessor::Accessor>,
    /// Struct layouts being built (a struct that contains itself is refused).
    layouts_open: Vec<String>,
    /// Structs being asked whether they hold data: one met again holds itself, which its
    /// layout then refuses.
    data_open: Vec<usize>,
    /// A `float3`, `double4` or another vector that is a struct has been declared: expressions may be
    /// structs even in a file without struct definitions.
    struct_vector_seen: bool,
    /// The members of the object whose member function is about to be inlined.
    pending_this: Option<HashMap<String, (Binding, Span)>>,
    /// Names whose declaration was an error: their uses are not unknown names as well, nor
    /// false `static_assert`s.
    pub(crate) refused_names: std::collections::HashSet<String>,
    /// Lambdas declared so far: the function and the scopes its body sees.
    lambdas: Vec<(ast::Function, Vec<Scope>)>,
    /// The scopes a lambda being inlined sees (taken by `expand`).
    pending_scopes: Option<Vec<Scope>>,
    /// Names every scope sees: the `__constant__` arrays this kernel uses, as parameters.
    file_scope: HashMap<String, Binding>,
    /// The file-scope names the kernel's code looked up (a specialisation or overload it never
    /// runs may name others).
    file_scope_read: std::cell::RefCell<HashSet<String>>,
    /// Dimensions of those arrays, by parameter.
    constant_dims: HashMap<u32, Vec<u64>>,
    /// `const __device__` variables: global memory, read-only in a kernel.
    const_device: HashSet<u32>,
    /// `__constant__` variables without an initialiser (see `typed::Kernel::unset_constants`).
    unset_constants: Vec<u32>,
    /// File-scope variables' declared element counts (see `typed::Kernel::symbol_sizes`).
    symbol_sizes: Vec<(u32, u64)>,
    /// [`Kernel::struct_symbols`].
    struct_symbols: Vec<(u32, struct_image::StructImage)>,
    loop_depth: u32,
    /// How many static members of class template instances are being evaluated, one inside
    /// another (`Pow2<N - 1>::value` inside `Pow2<N>::value`).
    static_depth: u32,
    static_smem: u64,
    /// `__shared__ cuda::barrier`s declared so far.
    async_barriers: u32,
    /// `cuda::pipeline`s (and shared pipeline states) declared so far.
    async_pipelines: u32,
    /// `const auto shape = cuda::aligned_size_t<16>(n);`: the alignment each such name promises.
    aligned_sizes: HashMap<String, u32>,
    /// `__device__` functions being inlined, to stop recursion.
    inlining: Vec<(String, String)>,
    /// Inside an inlined function: its result variable and type (`None` for `void`).
    returns: Option<Option<(VarId, Scalar)>>,
    /// Inside an inlined function: the scope of its parameters (its locals are in deeper ones).
    params_scope: usize,
    /// Inside an inlined function: the local it returns by name from every `return`
    /// ([`structs::named_result`]).
    named_result: Option<String>,
    /// Inside an inlined function declared `auto`: its first `return` sets the result's type.
    returns_auto: bool,
    /// Inside an inlined function that returns a pointer or a vector: where `return` puts it.
    ret_shape: intrinsics::RetShape,
    /// What the last inlined call returned through (for a call used as a pointer or a vector).
    last_ret: intrinsics::RetShape,
    /// The `auto` functions whose struct result is being worked out (see
    /// `structs::auto_returned_layout`), innermost last: a recursive one is not typed again.
    auto_typing: Vec<Span>,
    /// Expressions being typed, one inside the other.
    depth: usize,
    /// Names whose address the kernel or a function inlined into it takes (`&v`): such locals
    /// live in a one-element local array (see `local::declare_addressed`).
    addressed: HashSet<String>,
    /// Register variables a `const` reference member was bound to, which it holds as a copy
    /// made there ([`Self::bind_to_register`]): the member's name, for refusing a later
    /// assignment the copy would not see.
    held_by_reference: HashMap<VarId, String>,
    /// The arrays an atomic has been applied to: a narrower view may not re-type them, since an
    /// atomic works on the memory's own elements.
    atomic_spaces: HashSet<Space>,
    /// While the members of a `__shared__` union of CUB TempStorages are declared: the union
    /// and the member ([`typed::Shared::overlay`]).
    union_member: Option<(u32, u32)>,
    /// CUB TempStorages, by shared array: the class and whether it is an array of them.
    cub_storages: HashMap<u32, (cub::Class, bool)>,
    /// The block shapes CUB block collectives need (see [`Kernel::block_shapes`]).
    block_shapes: Vec<typed::BlockShape>,
    /// The arrays [`Space::Choice`] pointers may point into (see [`Kernel::choices`]).
    choices: Vec<Space>,
    /// Pointer variables, by where they are declared, that may point into several arrays: known
    /// from an earlier pass over the same kernel (see [`checked_kernel`]).
    choice_vars: HashSet<Span>,
    /// Pointer variables this pass found re-pointed into another array after their first use:
    /// the kernel is checked again with them in `choice_vars`.
    choice_found: Vec<Span>,
    /// Those of `choice_vars` that may point into global memory and into shared memory (see
    /// [`pointer::PtrVar::mixed`]), known from an earlier pass.
    mixed_vars: HashSet<Span>,
    /// Choice pointer variables this pass found pointed into shared memory and into global
    /// memory: the kernel is checked again with them in `mixed_vars`.
    mixed_found: Vec<Span>,
    /// The heap's hidden buffer parameter, once the kernel allocates ([`heap`]).
    heap: Option<u32>,
    /// `T** p` kernel parameters: buffers of pointers, each of the type given (`T*`).
    slot_params: HashMap<u32, ast::TypeName>,
    /// `T**` kernel parameters a launch binds to a table of arrays: the hidden parameters of
    /// its entries ([`table`]).
    table_entries: HashMap<u32, Vec<u32>>,
    /// Pointer variables that point at pointers stored in memory, each of the type given.
    slot_ptrs: HashMap<u32, ast::TypeName>,
    /// The kernel being checked, by name (for [`Globals::sequence_slots`]).
    kernel_name: String,
    /// Assignment statements checked as written, their value not held first (see the first
    /// arm of `stmt_at`), by span.
    as_written: HashSet<Span>,
    /// 64-bit integer locals holding an address (`uintptr_t a = (uintptr_t)p;`), with the array
    /// it lies in; `None` where two arrays (or an address and a plain number) were assigned.
    address_vars: HashMap<VarId, Option<Space>>,
}

impl<'g, 'e> KernelChecker<'g, 'e> {
    fn new(globals: &'g Globals<'g>, errors: &'e mut Vec<CheckError>) -> Self {
        KernelChecker {
            globals,
            errors,
            scopes: vec![HashMap::new()],
            local_types: Vec::new(),
            params: Vec::new(),
            shared: Vec::new(),
            locals: Vec::new(),
            ptr_vars: Vec::new(),
            pointer_arrays: Vec::new(),
            leaf_pointers: HashMap::new(),
            local_arrays: Vec::new(),
            file_scope: HashMap::new(),
            file_scope_read: Default::default(),
            notes: Vec::new(),
            objects: Vec::new(),
            struct_vars: Vec::new(),
            const_structs: HashSet::new(),
            struct_spaces: HashMap::new(),
            struct_ptrs: HashMap::new(),
            layouts: HashMap::new(),
            accessors: HashMap::new(),
            local_accessors: Vec::new(),
            layouts_open: Vec::new(),
            data_open: Vec::new(),
            struct_vector_seen: false,
            pending_this: None,
            refused_names: Default::default(),
            lambdas: Vec::new(),
            pending_scopes: None,
            constant_dims: HashMap::new(),
            const_device: HashSet::new(),
            unset_constants: Vec::new(),
            symbol_sizes: Vec::new(),
            struct_symbols: Vec::new(),
            loop_depth: 0,
            static_depth: 0,
            static_smem: 0,
            union_member: None,
            async_barriers: 0,
            async_pipelines: 0,
            aligned_sizes: HashMap::new(),
            inlining: Vec::new(),
            returns: None,
            params_scope: 0,
            named_result: None,
            returns_auto: false,
            ret_shape: intrinsics::RetShape::Plain,
            last_ret: intrinsics::RetShape::Plain,
            auto_typing: Vec::new(),
            depth: 0,
            addressed: HashSet::new(),
            held_by_reference: HashMap::new(),
            atomic_spaces: HashSet::new(),
            narrowed: Vec::new(),
            cub_storages: HashMap::new(),
            block_shapes: Vec::new(),
            choices: Vec::new(),
            choice_vars: HashSet::new(),
            choice_found: Vec::new(),
            mixed_vars: HashSet::new(),
            mixed_found: Vec::new(),
            address_vars: HashMap::new(),
            heap: None,
            slot_params: HashMap::new(),
            table_entries: HashMap::new(),
            slot_ptrs: HashMap::new(),
            kernel_name: String::new(),
            as_written: HashSet::new(),
        }
    }

    fn kernel(&mut self, k: &ast::Kernel) -> Kernel {
        self.kernel_name = k.name.name.clone();
        // A pointer parameter the kernel moves (`A += k`, `advance(A, k)` of a `float*&`
        // parameter) is a pointer variable from the start.
        let moved = self.repointed_in(&k.body);
        self.addressed = self.addressed_in(&k.body);
        let mut prologue = Vec::new();
        for p in &k.params {
            let mut views = Vec::new();
            if p.pointer_to_pointer {
                // A buffer of pointers, each as memory holds one ([`heap::encode`]).
                let i = self.params.len() as u32;
                self.slot_params.insert(i, p.ty.clone());
                self.params.push(Param {
                    name: p.name.name.clone(),
                    span: p.name.span,
                    kind: ParamKind::Buffer {
                        elem: Scalar::U64,
                        width: 1,
                        is_const: false,
                    },
                    default: p.default.clone(),
                    views: Vec::new(),
                    opaque: None,
                    untyped: false,
                });
                self.declare(&p.name, Binding::Param(i));
                continue;
            }
            if accessor::is_accessor(&p.ty) {
                match self.accessor_kernel_parameter(p) {
                    Ok(binding) => self.declare(&p.name, binding),
                    Err(e) => {
                        self.errors.push(e);
                        self.declare_refused(p);
                    }
                }
                continue;
            }
            let layout = match self.layout_of(&p.ty) {
                Some(Ok(l)) if self.polymorphic(&l) => {
                    self.errors.push(CheckError::Unsupported {
                        what: format!(
                            "the kernel parameter `{}` of the class `{}`, which has virtual members,",
                            p.name.name, l.name
                        ),
                        span: p.name.span,
                        help: Some(
                            "an object the host made holds the host's virtual table pointer, which device code cannot call through (CUDA says so too): make the objects in device code"
                                .into(),
                        ),
                    });
                    self.declare_refused(p);
                    continue;
                }
                Some(Ok(l)) if p.ty.pointer => {
                    let shape = self.buffer_of(&l, p.ty.span);
                    Some((l, shape))
                }
                Some(Ok(l)) => {
                    let binding = self.struct_kernel_parameter(l, p, &k.body, &mut prologue);
                    self.declare(&p.name, binding);
                    continue;
                }
                Some(Err(e)) => {
                    self.errors.push(e);
                    self.declare_refused(p);
                    continue;
                }
                // `negf f`: a struct without data members (a stateless functor) has one byte
                // in C++ and nothing to read; the launch sets nothing, and calls are inlined.
                None if !p.ty.pointer && p.ty.base == BaseType::Named => {
                    match self.struct_type(&p.ty.base_text, p.ty.span) {
                        Some(Ok(o)) => {
                            self.objects.push(o);
                            self.declare(&p.name, Binding::Object(self.objects.len() as u32 - 1));
                            continue;
                        }
                        Some(Err(e)) => {
                            self.errors.push(e);
                            self.declare_refused(p);
                            continue;
                        }
                        None => None,
                    }
                }
                None => None,
            };
            let kind = if let Some((_, (elem, width))) = &layout {
                ParamKind::Buffer {
                    elem: *elem,
                    width: *width,
                    is_const: p.ty.is_const,
                }
            } else if p.ty.pointer && p.ty.base == BaseType::Void {
                // `void* vy`: a buffer of the type the kernel casts it to (`(float*)vy`).
                let casts = self.casts_of(&k.body, &p.name.name);
                let casts: Vec<&ast::TypeName> = casts.iter().collect();
                views = self.void_views(&casts);
                // One the kernel never casts itself (it passes it to a function that casts
                // it, as ggml's `dequantize_kernel(vx, ...)` does) is what `void*` is: bytes.
                let shape = match casts.first().copied() {
                    Some(cast) => self.cast_shape(cast),
                    None => Ok((Scalar::U8, 1)),
                };
                match self.buffer_parameter(p, shape) {
                    Some(kind) => kind,
                    None => continue,
                }
            } else if p.ty.pointer {
                match self.buffer_parameter(p, vector::elem_of(&p.ty)) {
                    Some(kind) => kind,
                    None => continue,
                }
            } else if let Some(casts) = self.address_casts(k, p) {
                self.address_parameter(p, &casts, &mut prologue);
                continue;
            } else if p.ty.base == BaseType::Vector {
                // `float2 pos` by value: one scalar parameter per component (`pos.x`, `pos.y`),
                // set by the launch like a struct's members.
                match vector::elem_of(&p.ty) {
                    Ok((elem, width)) => {
                        let binding = self.vector_kernel_parameter(p, elem, width);
                        self.declare(&p.name, binding);
                    }
                    Err(e) => {
                        self.errors.push(e);
                        self.declare_refused(p);
                    }
                }
                continue;
            } else {
                match scalar_of(&p.ty) {
                    Ok(ty) => ParamKind::Scalar {
                        ty,
                        var: self.new_local(&p.name.name, ty, p.name.span),
                    },
                    Err(e) => {
                        self.errors.push(e);
                        self.declare_refused(p);
                        continue;
                    }
                }
            };
            let binding = match kind {
                // `&dt` of a scalar parameter (HiFiLES' `calc_dt_local(q, &dt, ...)`).
                ParamKind::Scalar { ty, var } if self.addressed.contains(&p.name.name) => {
                    let value = Expr {
                        kind: ExprKind::Var(var),
                        ty,
                        span: p.name.span,
                    };
                    match self.addressed_copy(&p.name, ty, value, &mut prologue) {
                        Ok(b) => b,
                        Err(e) => {
                            self.errors.push(e);
                            Binding::Local {
                                var,
                                is_const: p.ty.is_const,
                            }
                        }
                    }
                }
                ParamKind::Scalar { var, .. } => Binding::Local {
                    var,
                    is_const: p.ty.is_const,
                },
                ParamKind::Buffer { .. } => Binding::Param(self.params.len() as u32),
            };
            let default = p.default.as_ref().map(|d| self.folded_default(d));
            self.params.push(Param {
                name: p.name.name.clone(),
                span: p.name.span,
                kind,
                default,
                views: std::mem::take(&mut views),
                opaque: None,
                untyped: p.ty.pointer && p.ty.base == BaseType::Void,
            });
            let binding = match kind {
                ParamKind::Buffer {
                    elem,
                    width,
                    is_const,
                } if moved.contains(p.name.name.as_str()) || !p.rows.is_empty() => {
                    let value = pointer::Ptr {
                        mem: Some(Mem {
                            space: Space::Global(self.params.len() as u32 - 1),
                            elem,
                            width,
                        }),
                        offset: Expr {
                            kind: ExprKind::ParamBase(self.params.len() as u32 - 1),
                            ty: Scalar::I64,
                            span: p.name.span,
                        },
                        is_const,
                    };
                    let i = self.new_pointer(&p.name, (elem, width), is_const);
                    if let Some((l, _)) = &layout {
                        self.struct_ptrs.insert(i, Rc::clone(l));
                    }
                    // `const float vExp[][5]` (ising-gpu) points to rows of 5: `vExp[r][c]`.
                    for r in &p.rows {
                        match self.const_size(r) {
                            Ok(n) => self.ptr_vars[i as usize].rows.push(n),
                            Err(e) => self.errors.push(e),
                        }
                    }
                    match self.point(i, value, p.name.span) {
                        Ok(s) => prologue.push(s),
                        Err(e) => self.errors.push(e),
                    }
                    Binding::Pointer(i)
                }
                _ => binding,
            };
            if let (Some((l, _)), Binding::Param(i)) = (&layout, binding) {
                self.struct_spaces.insert(Space::Global(i), Rc::clone(l));
            }
            self.declare(&p.name, binding);
        }
        // The entries of the tables of arrays launches bind `T**` parameters to, after the
        // kernel's own parameters.
        let mut tables: Vec<(u32, &ast::Param)> = Vec::new();
        for p in k.params.iter().filter(|p| p.pointer_to_pointer) {
            if let Some(Binding::Param(q)) = self.lookup(&p.name.name) {
                tables.push((q, p));
            }
        }
        for (q, p) in tables {
            self.table_params(q, p);
        }
        // A parameter hides the file's variable of its name (MatthewNunes' `force(..., float
        // s)` beside `__constant__ float s`).
        let shadowed: Vec<&str> = k.params.iter().map(|p| p.name.name.as_str()).collect();
        let file_scope = self.file_scope_params((&k.body, &shadowed), &mut prologue);
        let file_scope_all = file_scope.clone();
        self.file_shared((&k.body, &shadowed), &mut prologue);
        let constant_scalars = file_scope
            .iter()
            .copied()
            .filter(|p| self.constant_dims.get(p).is_some_and(Vec::is_empty))
            .collect();
        // Constant memory is read through the constant cache; `__device__` variables and
        // textures are global memory like any buffer.
        let constants = file_scope
            .into_iter()
            .filter(|&p| {
                matches!(
                    self.params[p as usize].kind,
                    ParamKind::Buffer { is_const: true, .. }
                ) && self.constant_dims.contains_key(&p)
            })
            .collect();
        let textures = self
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                k.params.iter().any(|a| {
                    a.name.name == p.name
                        && !a.ty.pointer
                        && a.ty.base_text == "cudaTextureObject_t"
                })
            })
            .map(|(i, _)| i as u32)
            .collect();
        let mut body = prologue;
        body.extend(self.block(&k.body));
        self.unread_file_scope(&file_scope_all);
        // Only those the kernel's code reads (not a specialisation's it never runs).
        let unset_constants: Vec<u32> = {
            let read = self.file_scope_read.borrow();
            std::mem::take(&mut self.unset_constants)
                .into_iter()
                .filter(|&p| read.contains(&self.params[p as usize].name))
                .collect()
        };
        let mut local_arrays = std::mem::take(&mut self.local_arrays);
        local::place_local_arrays(&body, &mut local_arrays);
        Kernel {
            name: k.name.name.clone(),
            span: k.span,
            params: std::mem::take(&mut self.params),
            shared: std::mem::take(&mut self.shared),
            locals: std::mem::take(&mut self.locals),
            local_arrays,
            struct_arrays: {
                let mut a: Vec<(Space, String)> = self
                    .struct_spaces
                    .iter()
                    .filter(|(s, _)| matches!(s, Space::Shared(_) | Space::Local(_)))
                    .map(|(s, l)| (*s, l.name.clone()))
                    .collect();
                a.sort_unstable_by_key(|(s, _)| match s {
                    Space::Shared(i) => (0, *i),
                    Space::Local(i) => (1, *i),
                    _ => (2, 0),
                });
                a
            },
            narrowed: std::mem::take(&mut self.narrowed),
            constants,
            constant_scalars,
            unset_constants,
            textures,
            symbol_sizes: std::mem::take(&mut self.symbol_sizes),
            struct_symbols: std::mem::take(&mut self.struct_symbols),
            file_constants: {
                let mut c: Vec<(String, Value)> = self
                    .globals
                    .consts
                    .iter()
                    .map(|(n, v)| (n.to_string(), *v))
                    .collect();
                c.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                c
            },
            file_arrays: self.host_arrays(),
            accessors: {
                let mut a: Vec<(u32, u32)> = std::mem::take(&mut self.accessors)
                    .into_values()
                    .map(|a| (a.param, a.sizes.len() as u32))
                    .collect();
                a.sort_unstable();
                a
            },
            notes: std::mem::take(&mut self.notes),
            body,
            block_shapes: std::mem::take(&mut self.block_shapes),
            choices: std::mem::take(&mut self.choices),
        }
    }

    /// The pointer types `body` casts `name` to, in the order written, each with the aliases
    /// its block declares before (`using input_t = typename Ktraits::input_t;`) in place.
    pub(crate) fn casts_of(&self, body: &[ast::Stmt], name: &str) -> Vec<ast::TypeName> {
        let mut b = self.file_bindings();
        for s in body {
            if let ast::StmtKind::TypeAlias { name, ty } = &s.kind {
                let mut ty = ty.clone();
                b.ty(&mut ty);
                b.types.insert(name.name.clone(), ty);
            }
        }
        crate::syntax::casts_of(body, name)
            .into_iter()
            .map(|t| {
                let mut t = t.clone();
                b.ty(&mut t);
                t
            })
            .collect()
    }

    /// The element type and components of the buffer a cast to `cast` reads: a struct's
    /// buffer shape, or a scalar or vector type's.
    fn cast_shape(&mut self, cast: &ast::TypeName) -> Result<(Scalar, u32), CheckError> {
        match self.layout_of(cast) {
            Some(l) => l.map(|l| self.buffer_of(&l, cast.span)),
            None => vector::elem_of(cast),
        }
    }

    /// The pointee types of a `void*` parameter's casts, as written, when they differ in element
    /// type; empty when they agree (`(float*)x` and `(float4*)x` read the same floats).
    fn void_views(&mut self, casts: &[&ast::TypeName]) -> Vec<String> {
        let mut elems = Vec::new();
        for &cast in casts {
            if let Ok((elem, _)) = self.cast_shape(cast) {
                elems.push((elem, cast.base_text.clone()));
            }
        }
        if elems.iter().all(|(e, _)| *e == elems[0].0) {
            return Vec::new();
        }
        elems.into_iter().map(|(_, text)| text).collect()
    }

    /// The pointer types the kernel casts a 64-bit integer parameter to (`std::uintptr_t x_ptr`,
    /// `reinterpret_cast<float*>(x_ptr)`: BMTrain passes its tensors so): such a parameter holds
    /// an address, which the launch gives as an array.
    fn address_casts(&self, k: &ast::Kernel, p: &ast::Param) -> Option<Vec<ast::TypeName>> {
        let ty = scalar_of(&p.ty).ok()?;
        if p.ty.pointer || p.default.is_some() || !ty.is_integer() || ty.size() != 8 {
            return None;
        }
        Some(self.casts_of(&k.body, &p.name.name)).filter(|c| !c.is_empty())
    }

    /// A 64-bit integer parameter holding an address ([`Self::address_casts`]): a buffer of the
    /// type the kernel first casts it to, as a `void*` parameter is, and a local integer set to
    /// the buffer's byte address, so that the casts (and arithmetic on the address before
    /// them) point into the buffer.
    fn address_parameter(
        &mut self,
        p: &ast::Param,
        casts: &[ast::TypeName],
        prologue: &mut Vec<Stmt>,
    ) {
        let casts: Vec<&ast::TypeName> = casts.iter().collect();
        let views = self.void_views(&casts);
        let shape = self.cast_shape(casts[0]);
        let Some(ParamKind::Buffer { elem, width, .. }) = self.buffer_parameter(p, shape) else {
            return;
        };
        let n = self.params.len() as u32;
        self.params.push(Param {
            name: p.name.name.clone(),
            span: p.name.span,
            // The integer's `const` is not the memory's: the casts say whether it is written.
            kind: ParamKind::Buffer {
                elem,
                width,
                is_const: false,
            },
            default: None,
            views,
            opaque: None,
            untyped: true,
        });
        let ty = scalar_of(&p.ty).expect("checker: an address parameter is an integer");
        let var = self.new_local(&p.name.name, ty, p.name.span);
        let address = Expr {
            kind: ExprKind::ParamAddress(n),
            ty: Scalar::U64,
            span: p.name.span,
        };
        let value = self.convert(address, ty);
        self.note_address(var, &value);
        prologue.push(Stmt {
            kind: StmtKind::Assign { var, value },
            span: p.name.span,
        });
        self.declare(
            &p.name,
            Binding::Local {
                var,
                is_const: p.ty.is_const,
            },
        );
    }

    /// A pointer parameter of the element type `shape`; `None` (reported, the name still
    /// declared) when the type was refused.
    fn buffer_parameter(
        &mut self,
        p: &ast::Param,
        shape: Result<(Scalar, u32), CheckError>,
    ) -> Option<ParamKind> {
        match shape {
            Ok((elem, width)) => Some(ParamKind::Buffer {
                elem,
                width,
                is_const: p.ty.is_const,
            }),
            Err(e) => {
                self.errors.push(e);
                self.declare_refused(p);
                None
            }
        }
    }

    /// A vector kernel parameter passed by value: a scalar parameter per component.
    fn vector_kernel_parameter(&mut self, p: &ast::Param, elem: Scalar, width: u32) -> Binding {
        let mut vars = [VarId(0); 4];
        for (k, slot) in vars.iter_mut().enumerate().take(width as usize) {
            let name = format!("{}.{}", p.name.name, vector::COMPONENTS[k]);
            let var = self.new_local(&name, elem, p.name.span);
            self.params.push(Param {
                name,
                span: p.name.span,
                kind: ParamKind::Scalar { ty: elem, var },
                default: None,
                views: Vec::new(),
                opaque: None,
                untyped: false,
            });
            *slot = var;
        }
        Binding::Vector { vars, elem, width }
    }

    /// A parameter whose type was refused is still declared (a pointer into no array, or an
    /// `int`), so that its uses are not reported again as unknown names.
    fn declare_refused(&mut self, p: &ast::Param) {
        let binding = if p.ty.pointer {
            let i = self.new_pointer(&p.name, (Scalar::F32, 1), false);
            self.ptr_vars[i as usize].mem = Some(Mem {
                space: Space::Global(u32::MAX),
                elem: Scalar::F32,
                width: 1,
            });
            Binding::Pointer(i)
        } else {
            let var = self.new_local(&p.name.name, Scalar::I32, p.name.span);
            Binding::Local {
                var,
                is_const: false,
            }
        };
        self.declare(&p.name, binding);
    }

    /// The file-scope `__shared__` arrays the kernel (or a function it calls) names: declared for
    /// this kernel, as CUDA gives each kernel that uses one its own, and seen from every scope.
    pub(crate) fn file_shared(
        &mut self,
        (body, shadowed): (&[ast::Stmt], &[&str]),
        prologue: &mut Vec<Stmt>,
    ) {
        if self.globals.shared.is_empty() {
            return;
        }
        let used = local::names_used(
            (body, shadowed),
            &self.globals.callees(),
            self.globals.structs,
        );
        for s in self.globals.shared {
            let ast::StmtKind::Shared { name, .. } = &s.kind else {
                continue;
            };
            if !used.contains(name.name.as_str()) {
                continue;
            }
            self.scopes.push(HashMap::new());
            if let Err(e) = self.stmt(s, prologue) {
                self.errors.push(e);
            }
            let scope = self.scopes.pop().expect("pushed above");
            self.file_scope
                .extend(scope.into_iter().map(|(n, (b, _))| (n, b)));
        }
    }

    /// Gives the file-scope variables among `params` without a default (texture references)
    /// that the kernel's code never read (named only by a specialisation or an overload this
    /// instance does not run: nbody's `getSofteningSquared<double>` in the `float` instance)
    /// their zero value: the launch need not set what the kernel never reads.
    fn unread_file_scope(&mut self, params: &[u32]) {
        let read = self.file_scope_read.borrow().clone();
        for &p in params {
            let param = &self.params[p as usize];
            if param.default.is_some() || read.contains(&param.name) {
                continue;
            }
            let dims = self.constant_dims.get(&p).cloned().unwrap_or_default();
            let width = match param.kind {
                ParamKind::Buffer { width, .. } => width,
                ParamKind::Scalar { .. } => 1,
            };
            let span = param.span;
            self.params[p as usize].default = Some(initial_value(None, (&dims, width), span));
        }
    }

    /// The `__constant__` and `__device__` variables the kernel (or a function it calls) names,
    /// appended to its parameters: the launch sets them by name, like the parameters; a
    /// `__device__` variable it leaves out starts from its initialiser (or zero), as the
    /// program's static storage does.
    pub(crate) fn file_scope_params(
        &mut self,
        (body, shadowed): (&[ast::Stmt], &[&str]),
        prologue: &mut Vec<Stmt>,
    ) -> Vec<u32> {
        if self.globals.constants.is_empty() {
            return Vec::new();
        }
        let used = local::names_used(
            (body, shadowed),
            &self.globals.callees(),
            self.globals.structs,
        );
        let mut out = Vec::new();
        for c in self.globals.constants {
            if !used.contains(c.name.name.as_str()) || c.memory == ast::FileMemory::Host {
                continue;
            }
            // `extern __constant__ int z[4];` before `__constant__ int z[4] = {...};`: the
            // definition is the variable.
            let defined = |o: &&ast::ConstantArray| {
                o.name.name == c.name.name && o.namespace == c.namespace && o.init.is_some()
            };
            if c.init.is_none() && self.globals.constants.iter().any(|o| defined(&o)) {
                continue;
            }
            // `__constant__ char query[] = "ACGT";`: the string's bytes, as braces would list
            // them.
            let listed;
            let c = match c.init.as_ref().and_then(local::string_items) {
                Some((items, span))
                    if matches!(c.ty.base, ast::BaseType::I8 | ast::BaseType::U8)
                        && !c.ty.pointer
                        && c.dims.len() == 1 =>
                {
                    listed = ast::ConstantArray {
                        init: Some(ast::Expr {
                            kind: ast::ExprKind::List(items),
                            span,
                        }),
                        ..c.clone()
                    };
                    &listed
                }
                _ => c,
            };
            let mut dims = Vec::new();
            let mut unbounded = false;
            for (k, d) in c.dims.iter().enumerate() {
                match (d, &c.init) {
                    (Some(e), _) => match self.const_size(e) {
                        Ok(n) => dims.push(n),
                        Err(e) => self.errors.push(e),
                    },
                    // `__device__ int t[] = {1, 2, 3};`: sized by its list, below.
                    (
                        None,
                        Some(ast::Expr {
                            kind: ast::ExprKind::List(items),
                            ..
                        }),
                    ) if k == 0 && !items.is_empty() => unbounded = true,
                    (None, _) => self.errors.push(CheckError::NotConstant {
                        what: format!("the size of the array `{}`", c.name.name),
                        span: c.name.span,
                        help: Some("give the size, e.g. `[9]`".into()),
                    }),
                }
            }
            if let (true, Some(ast::ExprKind::List(items))) =
                (unbounded, c.init.as_ref().map(|i| &i.kind))
            {
                // As many rows as the list fills by C's rules (`int t[][2] = {1, 2, 3}` has 2
                // rows, `{{1}, 2, 3, 4, 5}` of `[][3]` 3).
                let rows = array_init::elements(items, None, &dims).map_or(0, |(_, rows)| rows);
                dims.insert(0, rows);
            }
            let layout = match self.layout_of(&c.ty).transpose() {
                Ok(l) => l,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            // One struct holding pointers (CMU 15-418's `__constant__ GlobalConstants
            // cuConstRendererParams;`, filled by cudaMemcpyToSymbol): like a struct kernel
            // parameter, a parameter per member, `c.n = 8; c.data = d;` in the launch section.
            if let Some(l) = layout
                .as_ref()
                .filter(|l| l.has_pointer() && dims.is_empty())
            {
                if c.init.is_none() {
                    let as_param = ast::Param {
                        ty: c.ty.clone(),
                        name: c.name.clone(),
                        default: None,
                        volatile: false,
                        moves: false,
                        pack: false,
                        pointer_to_pointer: false,
                        rows: Vec::new(),
                        extent: None,
                    };
                    let binding =
                        self.struct_kernel_parameter(Rc::clone(l), &as_param, &[], prologue);
                    self.file_scope.insert(c.name.name.clone(), binding);
                    continue;
                }
            }
            let shape = match &layout {
                Some(l) => Ok(self.buffer_of(l, c.ty.span)),
                None => vector::elem_of(&c.ty),
            };
            let (elem, width) = match shape {
                Ok(t) => t,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            if c.ty.pointer {
                let p = self.file_pointer(c, &dims, (elem, width));
                if let Some(l) = layout {
                    self.struct_spaces.insert(Space::Global(p), l);
                }
                out.push(p);
                continue;
            }
            // A bad initialiser is reported; the variable is still declared (no cascade of
            // unknown names).
            let initial = match &layout {
                Some(l) => self.struct_initialiser(c, l, (elem, width), &dims),
                None => self.file_initialiser(c, (elem, width), &dims),
            };
            let initial = initial.unwrap_or_else(|e| {
                self.errors.push(e);
                None
            });
            let device = c.memory == ast::FileMemory::Device;
            // What it holds when the launch sets nothing: its initialiser, or zero, as CUDA
            // zero-initialises a symbol (for `__constant__` memory the report says so:
            // [`typed::Kernel::unset_constants`]); a texture must be bound.
            let unset = !device && initial.is_none() && c.memory == ast::FileMemory::Constant;
            let default = (c.memory != ast::FileMemory::Texture)
                .then(|| initial_value(initial, (&dims, width), c.name.span));
            let p = self.file_buffer(c, (elem, width, !device), default);
            if unset {
                self.unset_constants.push(p);
            }
            if device && c.ty.is_const {
                self.const_device.insert(p);
            }
            // A texture is a read-only buffer of any length, named like a pointer parameter
            // (not constant memory, which has its own cache and a declared size).
            let one_vector = layout.is_none() && width > 1 && dims.is_empty();
            if c.memory != ast::FileMemory::Texture {
                let len: u64 = dims.iter().product();
                self.symbol_sizes.push((p, len * u64::from(width)));
                self.constant_dims.insert(p, dims);
            }
            if one_vector && c.memory != ast::FileMemory::Texture {
                self.file_vector(c, p, (elem, width), !device || c.ty.is_const, prologue);
            }
            if let Some(l) = layout {
                if c.memory != ast::FileMemory::Texture && !l.leaves.is_empty() {
                    self.struct_symbols.push((p, l.image()));
                }
                self.struct_spaces.insert(Space::Global(p), l);
            }
            out.push(p);
        }
        out
    }

    /// `__constant__ int4 c;`, `__device__ float2 v;`: the name is a reference to the one
    /// vector of its buffer `p`, as `int4& c = buf[0];` would be, so that its components, its
    /// whole value and its address are those of an element in memory.
    fn file_vector(
        &mut self,
        c: &ast::ConstantArray,
        p: u32,
        pointee: (Scalar, u32),
        is_const: bool,
        prologue: &mut Vec<Stmt>,
    ) {
        let i = self.new_pointer(&c.name, pointee, is_const);
        let at = pointer::Ptr {
            mem: Some(Mem {
                space: Space::Global(p),
                elem: pointee.0,
                width: pointee.1,
            }),
            offset: expr::constant(Value::I64(0), c.name.span),
            is_const,
        };
        match self.point(i, at, c.name.span) {
            Ok(s) => prologue.push(s),
            Err(e) => self.errors.push(e),
        }
        self.file_scope.insert(c.name.name.clone(), Binding::Ref(i));
    }

    /// The file's host arrays of scalars whose values check, as [`Kernel::file_arrays`] holds
    /// them. One that does not check is left out as the rest of the host code is: the launch
    /// section that names it gets an unknown name.
    fn host_arrays(&mut self) -> Vec<(String, Scalar, ast::Expr)> {
        if let Some(done) = self.globals.host_arrays.get() {
            return done.clone();
        }
        let mut out = Vec::new();
        let mut errors = Vec::new();
        // What checking the initialisers learns goes with their dropped errors (a function
        // broken in one must not become a silent placeholder in a kernel checked later).
        let learned = Learned::of(self.globals);
        for c in self.globals.constants {
            if c.memory != ast::FileMemory::Host || c.ty.pointer {
                continue;
            }
            let saved = std::mem::replace(&mut *self.errors, std::mem::take(&mut errors));
            let values = (|| {
                let elem = scalar_of(&c.ty).ok()?;
                let mut dims = Vec::new();
                for d in &c.dims {
                    dims.push(self.const_size(d.as_ref()?).ok()?);
                }
                let values = self.file_initialiser(c, (elem, 1), &dims).ok()??;
                Some((elem, initial_value(Some(values), (&dims, 1), c.name.span)))
            })();
            errors = std::mem::replace(&mut *self.errors, saved);
            errors.clear();
            if let Some((elem, v)) = values {
                out.push((c.name.name.clone(), elem, v));
            }
        }
        learned.restore(self.globals);
        self.globals.host_arrays.get_or_init(|| out).clone()
    }

    /// `__constant__ hash64_t* d_light;` (ethminer, set by `cudaMemcpyToSymbol` of a device
    /// address): a pointer held in constant memory, into global memory. The launch section sets it
    /// as it sets a pointer parameter (`d_light = arange(16);`), and device code uses it as one;
    /// like a parameter's, its own load is not counted. Left unset, it is `NULL`. An array of
    /// pointers or an initialised one is an error (the name is still declared: no cascade of
    /// unknown names).
    fn file_pointer(
        &mut self,
        c: &ast::ConstantArray,
        dims: &[u64],
        (elem, width): (Scalar, u32),
    ) -> u32 {
        if !dims.is_empty() || c.init.is_some() {
            self.errors.push(CheckError::Unsupported {
                what: format!(
                    "the file-scope pointer `{}` {}",
                    c.name.name,
                    if dims.is_empty() {
                        "with an initialiser"
                    } else {
                        "array"
                    }
                ),
                span: c.name.span,
                help: Some(
                    "declare one pointer without an initialiser (`__constant__ float* p;`) and set it in the launch section, or pass the pointers as kernel parameters".into(),
                ),
            });
        }
        // Unset, it is null, as CUDA zero-initialises a symbol: reading through it traps.
        let null = ast::Expr {
            kind: ast::ExprKind::Name("NULL".into()),
            span: c.name.span,
        };
        self.file_buffer(c, (elem, width, c.ty.is_const), Some(null))
    }

    /// The buffer parameter a file-scope variable `c` is, of elements `(elem, width)` (read-only
    /// where `is_const`), holding `default` where the launch sets nothing; its name is declared.
    fn file_buffer(
        &mut self,
        c: &ast::ConstantArray,
        (elem, width, is_const): (Scalar, u32, bool),
        default: Option<ast::Expr>,
    ) -> u32 {
        let p = self.params.len() as u32;
        self.params.push(Param {
            name: c.name.name.clone(),
            span: c.name.span,
            kind: ParamKind::Buffer {
                elem,
                width,
                is_const,
            },
            default,
            views: Vec::new(),
            opaque: None,
            untyped: false,
        });
        self.file_scope
            .insert(c.name.name.clone(), Binding::Param(p));
        p
    }

    /// A `__device__` scalar's initialiser, folded to a number (C requires a constant).
    /// A file-scope variable's initialiser folded to its values (C requires constants): one for
    /// a scalar, up to the array's size for a list (the rest are zero, as in C).
    fn file_initialiser(
        &mut self,
        c: &ast::ConstantArray,
        (elem, width): (Scalar, u32),
        dims: &[u64],
    ) -> Result<Option<Vec<Value>>, CheckError> {
        let Some(init) = &c.init else {
            return Ok(None);
        };
        let vector = width > 1;
        let items = match (&init.kind, dims.is_empty()) {
            (ast::ExprKind::List(items), false) => items.as_slice(),
            // `__constant__ uint2 c = {1, 2};`: one vector's components.
            (ast::ExprKind::List(_), true) if vector => std::slice::from_ref(init),
            (ast::ExprKind::List(_), true) | (_, false) => {
                return Err(CheckError::Initialiser {
                    problem: InitialiserProblem::WrongShape {
                        name: c.name.name.clone(),
                        array: !dims.is_empty(),
                    },
                    span: init.span,
                    help: Some("an array takes `{a, b, ...}`, a scalar one value".into()),
                });
            }
            (_, true) => std::slice::from_ref(init),
        };
        let too_many = |dims: &[u64]| too_many_for(c, dims, init.span);
        let mut flat = Vec::new();
        let elided = vector
            && !items
                .iter()
                .any(|i| matches!(i.kind, ast::ExprKind::List(_)));
        if dims.is_empty() && !vector {
            flat.push(Some(&items[0]));
        } else if elided {
            // Braces elided (`uint2 rc[2] = {1, 2, 3, 4}`): the components in order.
            let len = dims.iter().product::<u64>() * u64::from(width);
            flat = array_init::elements(items, Some(len), &[])
                .ok_or_else(|| too_many(dims))?
                .0;
        } else if dims.is_empty() {
            flat.push(Some(&items[0]));
        } else {
            flat = array_init::elements(items, Some(dims[0]), &dims[1..])
                .ok_or_else(|| too_many(dims))?
                .0;
        }
        if vector && !elided {
            // Each element a brace list of at most `width` components (`{ {1u, 2u}, ... }`),
            // the rest zero.
            let mut components = Vec::with_capacity(flat.len() * width as usize);
            for item in flat {
                let inner: &[ast::Expr] = match item.map(|i| &i.kind) {
                    Some(ast::ExprKind::List(inner)) => inner,
                    None => &[],
                    Some(_) => {
                        return Err(CheckError::Unsupported {
                            what: format!(
                                "an element of `{}` that is not a brace list of its components",
                                c.name.name
                            ),
                            span: item.map_or(init.span, |i| i.span),
                            help: Some("write each element as `{x, y, ...}`".into()),
                        })
                    }
                };
                if inner.len() > width as usize {
                    return Err(too_many(&[width.into()]));
                }
                components.extend(inner.iter().map(Some));
                components.resize(components.len() + width as usize - inner.len(), None);
            }
            flat = components;
        }
        let mut values = Vec::with_capacity(flat.len());
        for item in flat {
            let Some(item) = item else {
                values.push(Value::I32(0).cast(elem));
                continue;
            };
            let value = self.expr(item)?;
            match self.convert(value, elem).kind {
                ExprKind::Const(v) => values.push(v),
                _ => {
                    return Err(CheckError::NotConstant {
                        what: format!("the initialiser of `{}`", c.name.name),
                        span: item.span,
                        help: Some("use literals, `#define`s or `const` globals".into()),
                    })
                }
            }
        }
        Ok(Some(values))
    }

    fn new_local(&mut self, name: &str, declared: Scalar, span: Span) -> VarId {
        self.locals.push(Local {
            name: name.to_string(),
            declared,
            span,
        });
        VarId(self.locals.len() as u32 - 1)
    }

    fn declare(&mut self, name: &ast::Ident, binding: Binding) {
        let scope = self
            .scopes
            .last_mut()
            .expect("checker: a scope is always open");
        if let Some((_, first)) = scope.get(&name.name) {
            self.errors.push(CheckError::Duplicate {
                name: name.name.clone(),
                span: name.span,
                first: *first,
            });
            return;
        }
        scope.insert(name.name.clone(), (binding, name.span));
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        // `::gParams`: the file-scope name, past any local of that name (ramsesGPU).
        if let Some(global) = name.strip_prefix("::").filter(|n| !n.contains("::")) {
            let b = self.file_scope.get(global).copied();
            if b.is_some() {
                self.file_scope_read.borrow_mut().insert(global.to_string());
            }
            return b;
        }
        // `ns::dim`: a `__constant__` or `__device__` variable of a namespace of the file (they
        // are the file's by their plain names), where one of that namespace has the name.
        if let Some((qualifier, last)) = name.trim_start_matches("::").rsplit_once("::") {
            let declared = self.globals.constants.iter().any(|c| {
                c.name.name == last
                    && (c.namespace == qualifier
                        || c.namespace.ends_with(&format!("::{qualifier}")))
            });
            let b = declared
                .then(|| self.file_scope.get(last).copied())
                .flatten();
            if b.is_some() {
                self.file_scope_read.borrow_mut().insert(last.to_string());
                return b;
            }
        }
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).map(|(b, _)| *b))
            .or_else(|| {
                let b = self.file_scope.get(name).copied();
                if b.is_some() {
                    self.file_scope_read.borrow_mut().insert(name.to_string());
                }
                b
            })
    }

    /// Every name visible here, for "did you mean".
    fn visible_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
        names.extend(self.globals.consts.keys().map(|s| s.to_string()));
        names.extend(self.globals.functions.keys().map(|s| s.to_string()));
        names.extend(
            ["threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"]
                .iter()
                .map(|s| s.to_string()),
        );
        names
    }

    fn block(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        self.scopes.push(HashMap::new());
        let mut out = Vec::new();
        let mut list = std::borrow::Cow::Borrowed(stmts);
        let mut i = 0;
        while i < list.len() {
            // `using T = ...;` in a body names the type for the rest of its block.
            if let ast::StmtKind::TypeAlias { name, ty } = &list[i].kind {
                let ty = match self.aligned_storage(ty) {
                    Some(Ok(storage)) => storage,
                    Some(Err(e)) => {
                        self.errors.push(e);
                        ty.clone()
                    }
                    None => self.with_local_constants(ty),
                };
                // The file's class members resolve `typename Conv<float>::hip_type` (a
                // specialisation's member type) wherever the alias is used.
                let mut b = self.file_bindings();
                let mut ty = ty;
                b.ty(&mut ty);
                self.local_types
                    .push((self.scopes.len(), name.name.clone(), ty.clone()));
                b.types.insert(name.name.clone(), ty);
                let mut rest = list[i + 1..].to_vec();
                b.stmts(&mut rest);
                list = std::borrow::Cow::Owned(rest);
                i = 0;
                continue;
            }
            let errors = self.errors.len();
            let done = self.stmt(&list[i], &mut out);
            if done.is_err() || self.errors.len() > errors {
                let declared: Vec<&ast::Ident> = match &list[i].kind {
                    ast::StmtKind::Decl { decls, .. } => decls.iter().map(|d| &d.name).collect(),
                    ast::StmtKind::Bindings { names, .. } => names.iter().collect(),
                    ast::StmtKind::Shared { name, .. } => vec![name],
                    ast::StmtKind::Unsupported { declares, .. } => declares.iter().collect(),
                    _ => Vec::new(),
                };
                // Declared or not, a name whose declaration was an error (reported here or,
                // for a function refused once, where it was refused) holds no value a
                // `static_assert` may judge.
                for name in declared {
                    self.refused_names.insert(name.name.clone());
                }
            }
            if let Err(e) = done {
                let cascade = matches!(&e, CheckError::UnknownName { name, .. } if self.refused_names.contains(name));
                if !cascade {
                    self.errors.push(e);
                }
            }
            i += 1;
        }
        self.scopes.pop();
        let depth = self.scopes.len();
        self.local_types.retain(|&(d, _, _)| d <= depth);
        out
    }

    fn body(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        match &s.kind {
            ast::StmtKind::Block(stmts) => self.block(stmts),
            _ => self.block(std::slice::from_ref(s)),
        }
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<(), CheckError> {
        crate::stack::grow(|| self.stmt_at(s, out))
    }

    fn stmt_at(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<(), CheckError> {
        let span = s.span;
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match &s.kind {
            // C++17 sequences the right operand before the left ([expr.ass]/1): where the
            // target acts (`out[i++] = in[i];`, `out[f(i)] = ...` of an `int& i`), the value is
            // held first, whatever the target is (a number, a vector, a struct, a pointer).
            ast::StmtKind::Assign {
                target,
                op,
                op_span,
                value,
            } if assign_value::value_first(target, value) && !self.as_written.contains(&span) => {
                let held = assign_value::held_first((target, *op, *op_span), value, span);
                let (stmts, errors) = (out.len(), self.errors.len());
                let tried = self.stmt(&held, out);
                if tried.is_err() || self.errors.len() > errors {
                    // A value `auto` cannot hold (`blockDim`, `(int*)0`), which reads no
                    // variable, or a statement in error: the statement as written, whose
                    // message names what the kernel wrote.
                    out.truncate(stmts);
                    self.errors.truncate(errors);
                    self.as_written.insert(span);
                    let done = self.stmt(s, out);
                    self.as_written.remove(&span);
                    done?;
                }
            }
            // `s.r = x` of a reference member assigns what it refers to (`*s.r& = x`), `s[i] = x`
            // the element of the pointer `s` converts to.
            ast::StmtKind::Assign {
                target,
                op,
                op_span,
                value,
            } if self.rewritten_place(target).is_some() => {
                let target = self.rewritten_place(target).expect("checked: rewritten");
                let kind = ast::StmtKind::Assign {
                    target,
                    op: *op,
                    op_span: *op_span,
                    value: value.clone(),
                };
                self.stmt(&ast::Stmt { kind, span }, out)?;
            }
            ast::StmtKind::Assign {
                target,
                op: None,
                value,
                ..
            } if self.binds_to_register(target, value) => {
                out.push(self.bind_to_register(target, value, span)?);
            }
            ast::StmtKind::IncDec { target, inc } if self.rewritten_place(target).is_some() => {
                let target = self.rewritten_place(target).expect("checked: rewritten");
                let kind = ast::StmtKind::IncDec { target, inc: *inc };
                self.stmt(&ast::Stmt { kind, span }, out)?;
            }
            ast::StmtKind::Empty | ast::StmtKind::Label(_) => {}
            ast::StmtKind::Goto(label) => {
                return Err(CheckError::Unsupported {
                    what: format!(
                        "`goto {}` to no label later in its own block or an enclosing one",
                        label.name
                    ),
                    span,
                    help: Some("simt runs a `goto` that jumps forward to a label of its own block or an enclosing one (check that the label is there); write a jump backward as the loop it stands for, and move a label a jump enters a block for out of the block".into()),
                })
            }
            // Applied to the rest of its block by `block`.
            ast::StmtKind::TypeAlias { .. } => {}
            ast::StmtKind::Block(stmts) => {
                let inner = self.block(stmts);
                out.extend(inner);
            }
            ast::StmtKind::Bindings {
                names,
                by_ref,
                init,
            } => self.structured_binding(names, *by_ref, init, span, out)?,
            ast::StmtKind::Decl { ty, decls, of } => {
                if let Some(e) = of {
                    return self.decltype_declaration(e, ty.span, decls, out);
                }
                if let Some(class) = self.cub_storage_class(ty) {
                    let name = decls.first().map_or("temp", |d| d.name.name.as_str());
                    return Err(CheckError::CubStorageNotShared {
                        class: class.map_or_else(|_| ty.base_text.clone(), |c| c.name),
                        name: name.into(),
                        span: ty.span,
                    });
                }
                for d in decls {
                    self.declaration(ty, d, out)?;
                }
            }
            ast::StmtKind::Shared {
                ty,
                name,
                dims,
                is_extern,
            } => {
                if let Some(class) = self.cub_storage_class(ty) {
                    return self.declare_cub_storage(class?, name, dims);
                }
                if let Some(done) = self.declare_cub_union(ty, name, dims) {
                    return done;
                }
                if let Some(done) = self.shared_async(ty, name, dims) {
                    return done;
                }
                // `__shared__ float* p;`, and `extern __shared__ float* p;` read as one: a
                // pointer the block shares (not seen through the dynamic arrays' bytes).
                if ty.pointer && dims.is_empty() {
                    return self.shared_pointer(ty, name);
                }
                // `extern __shared__ half smem[][AB_SMEM_STRIDE];` (cuda_hgemm): the dynamic
                // shared memory seen as rows, a pointer to its first row.
                if *is_extern && dims.len() > 1 && dims[0].is_none() {
                    return self.extern_rows(s, dims, out);
                }
                // `extern __shared__ int last;` (a class's stream compaction): one variable.
                if *is_extern && dims.is_empty() && !ty.pointer {
                    return self.extern_scalar(s, out);
                }
                // PyTorch's `__shared__ typename std::aligned_storage<sizeof(T), alignof(T)>::type
                // s[32];`, viewed as `T*` by a cast.
                let storage = self.shared_storage(ty).transpose()?;
                let ty = storage.as_ref().map_or(ty, |(t, _)| t);
                let layout = self.layout_of(ty).transpose()?;
                let (elem, width) = match &layout {
                    Some(l) => self.buffer_of(l, ty.span),
                    None => vector::elem_of(ty)?,
                };
                let mut sizes = Vec::new();
                for d in dims {
                    match d {
                        Some(e) => sizes.push(self.const_size(e)?),
                        None if *is_extern && dims.len() == 1 => {}
                        None => return Err(CheckError::NotConstant {
                            what: "the size of a `__shared__` array".into(),
                            span: name.span,
                            help: Some(
                                "give the size, e.g. `[256]`, or use `extern __shared__ T name[];`"
                                    .into(),
                            ),
                        }),
                    }
                }
                // Unsized (`extern`), its bytes are as many as the launch gives.
                if let Some((_, n @ 2..)) = storage {
                    match sizes.last_mut() {
                        Some(last) => *last *= n,
                        None if !*is_extern => sizes.push(n),
                        None => {}
                    }
                }
                if *is_extern && !sizes.is_empty() {
                    return Err(CheckError::Unsupported {
                        what: "a sized `extern __shared__` array".into(),
                        span: name.span,
                        help: Some(
                            "write `extern __shared__ T name[];` and pass --dyn-smem BYTES".into(),
                        ),
                    });
                }
                // Every `extern __shared__` array of a kernel, of any name, is the one dynamic
                // shared memory (each `SharedMemory<T>` call declares its `__smem` again).
                let first = self.shared.iter().position(|a| a.is_extern);
                if let (true, Some(first)) = (*is_extern, first) {
                    let first = first as u32;
                    let a = &self.shared[first as usize];
                    let same_struct = match (&layout, self.struct_spaces.get(&Space::Shared(first)))
                    {
                        (Some(l), Some(m)) => l.name == m.name,
                        (None, None) => true,
                        _ => false,
                    };
                    if (a.elem, a.width) == (elem, width) && same_struct {
                        self.declare(name, Binding::Shared(first));
                        return Ok(());
                    }
                    return self.extern_alias(first, ty, name, span, out);
                }
                let shared = Shared {
                    name: name.name.clone(),
                    elem,
                    width,
                    dims: sizes,
                    is_extern: *is_extern,
                    stored: elem,
                    span: name.span,
                    overlay: None,
                };
                if !is_extern {
                    self.static_smem += shared.static_len() * u64::from(elem.size());
                    if self.static_smem > STATIC_SMEM_LIMIT {
                        return Err(CheckError::SharedTooLarge {
                            bytes: self.static_smem,
                            span: name.span,
                        });
                    }
                }
                let s = self.shared.len() as u32;
                let vector_scalar = layout.is_none() && shared.is_scalar() && width > 1;
                if let Some(l) = layout {
                    self.struct_spaces.insert(Space::Shared(s), l);
                }
                self.shared.push(shared);
                if vector_scalar {
                    // `__shared__ int2 range;` (jetson-inference): a reference to the one
                    // element, so `range = make_int2(..)`, `range.x` and `&range.x` work as they
                    // do through `int2& r = a[0];`.
                    let i = self.new_pointer(name, (elem, width), false);
                    let at = pointer::Ptr {
                        mem: Some(self.shared_mem(s)),
                        offset: expr::constant(Value::I64(0), span),
                        is_const: false,
                    };
                    out.push(self.point(i, at, span)?);
                    self.declare(name, Binding::Ref(i));
                } else {
                    self.declare(name, Binding::Shared(s));
                }
            }
            ast::StmtKind::Assign {
                target,
                op: None,
                value,
                ..
            } if matches!(target.kind, ast::ExprKind::Member { .. })
                && self.object_of(target).is_some() =>
            {
                self.object_assignment(target, value)?;
            }
            ast::StmtKind::Assign {
                target, op, value, ..
            } if self.is_struct_place(target) => {
                self.struct_assignment(target, *op, value, span, out)?;
            }
            // `buf(y, x) = make_uchar4(...);` and `buf(y, x) += v;` through a returned
            // `uchar4&` are assignments to the element it names.
            ast::StmtKind::Assign {
                target,
                op,
                op_span,
                value,
            } if (self.is_vector_place(target) && !self.is_struct_index(target))
                || self.returned_vector_ref(target).is_some() =>
            {
                let Some(op) = op else {
                    self.vector_assignment(target, value, out)?;
                    return Ok(());
                };
                // `a[i++] += v` names its element once: as `auto& e = a[i++]; e += v;`.
                if !matches!(target.kind, ast::ExprKind::Name(_)) {
                    return self.compound_on_element(target, *op, *op_span, value, span, out);
                }
                // `a += b` on vectors is the file's own operator (helper_math.h's): the
                // function `operator+=`, or `a = operator+(a, b)`.
                let call = |name: String| ast::Expr {
                    kind: ast::ExprKind::Call {
                        callee: ast::Ident {
                            name,
                            span: *op_span,
                        },
                        targs: Vec::new(),
                        args: vec![target.clone(), value.clone()],
                    },
                    span,
                };
                let compound = format!("operator{}=", op.symbol());
                let plain = format!("operator{}", op.symbol());
                let halves = matches!(self.vector_shape(target)?, Some((e, 2)) if e.is_half());
                if halves
                    && matches!(
                        op,
                        ast::BinOp::Add | ast::BinOp::Sub | ast::BinOp::Mul | ast::BinOp::Div
                    )
                    && !self.globals.functions.contains_key(compound.as_str())
                {
                    // cuda_fp16.hpp's and cuda_bf16.hpp's `__half2 &operator+=(__half2 &,
                    // const __half2 &)` and friends: `a = a op b`, two halves at once.
                    let both = ast::Expr {
                        kind: ast::ExprKind::Binary {
                            op: *op,
                            op_span: *op_span,
                            lhs: Box::new(target.clone()),
                            rhs: Box::new(value.clone()),
                        },
                        span,
                    };
                    self.vector_assignment(target, &both, out)?;
                } else if self.globals.functions.contains_key(compound.as_str()) {
                    self.stmt(
                        &ast::Stmt {
                            kind: ast::StmtKind::Expr(call(compound)),
                            span,
                        },
                        out,
                    )?;
                } else if self.globals.functions.contains_key(plain.as_str()) {
                    self.vector_assignment(target, &call(plain), out)?;
                } else {
                    return Err(CheckError::Unsupported {
                        what: format!("`{}=` on a vector without an `operator{}=`", op.symbol(), op.symbol()),
                        span: *op_span,
                        help: Some(format!(
                            "CUDA defines no arithmetic on vectors: define `operator{}=` (as helper_math.h does) or update each component: `v.x {}= ...;`",
                            op.symbol(),
                            op.symbol()
                        )),
                    });
                }
            }
            ast::StmtKind::Assign {
                target,
                op,
                op_span,
                value,
            } => {
                if let Some(i) = self.pointer_var(target) {
                    out.push(self.assign_pointer(i, *op, *op_span, value, span)?);
                    return Ok(());
                }
                if let (None, Some((vars, index))) = (op, self.pointer_elements(target)) {
                    return self.assign_pointer_elements(&vars, index, value, span, out);
                }
                if let (None, Some(split)) = (op, tie_split(target, value, span)) {
                    out.extend(self.body(&split));
                    return Ok(());
                }
                let value = if op.is_none() && self.holds_pointers(target) && self.is_pointer(value)
                {
                    // `d_list[0] = new sphere(...)`: the pointer as memory holds it.
                    self.slot_accepts(target, value)?;
                    let p = self.pointer(value)?;
                    self.encode(p, value.span)?
                } else {
                    self.expr(value)?
                };
                let kind = self.assign(target, *op, *op_span, value)?;
                push(out, kind);
            }
            ast::StmtKind::IncDec { target, inc } => out.push(self.step(target, *inc, span)?),
            // `(s += x);` (BEAGLE's `#define FMA(x, y, z) (z += x * y)`) and `(i++);`: an
            // assignment or step written as an expression statement is that statement.
            ast::StmtKind::Expr(ast::Expr {
                kind:
                    ast::ExprKind::Assign {
                        target,
                        op,
                        op_span,
                        value,
                    },
                ..
            }) => {
                let kind = ast::StmtKind::Assign {
                    target: (**target).clone(),
                    op: *op,
                    op_span: *op_span,
                    value: (**value).clone(),
                };
                self.stmt(&ast::Stmt { kind, span }, out)?;
            }
            ast::StmtKind::Expr(ast::Expr {
                kind: ast::ExprKind::IncDec { target, inc, .. },
                ..
            }) => {
                let kind = ast::StmtKind::IncDec {
                    target: (**target).clone(),
                    inc: *inc,
                };
                self.stmt(&ast::Stmt { kind, span }, out)?;
            }
            ast::StmtKind::Expr(e) => {
                if let Some(result) = self.static_assertion(e) {
                    return result;
                }
                if let Some(stores) = self.sincos(e) {
                    for store in stores? {
                        push(out, store);
                    }
                    return Ok(());
                }
                if let Some(stmts) = self.mem_function(e) {
                    out.extend(stmts?);
                    return Ok(());
                }
                if let Some(stmts) = self.async_statement(e) {
                    out.extend(stmts?);
                    return Ok(());
                }
                if let Some(stmts) = self.ptx_mma(e) {
                    out.extend(stmts?);
                    return Ok(());
                }
                // `__stcs(p, v)` of a vector (llm.c's `store128cs` of an `int4`): `*p = v;`, the
                // cache hint changing nothing here.
                if let ast::ExprKind::Call { callee, args, .. } = &e.kind {
                    if let (true, [p, v]) = (expr::is_cache_store(&callee.name), args.as_slice()) {
                        if self.value_vector_shape(v)?.is_some() {
                            let target = expr::out_place(p);
                            let store = ast::Stmt {
                                kind: ast::StmtKind::Assign {
                                    target,
                                    op: None,
                                    op_span: callee.span,
                                    value: v.clone(),
                                },
                                span,
                            };
                            return self.stmt(&store, out);
                        }
                    }
                }
                if let Some(kind) = self.effect(e)? {
                    push(out, kind);
                }
            }
            ast::StmtKind::If {
                cond,
                then,
                els,
                constexpr: true,
            } => {
                // C++17 `if constexpr`: a constant condition, and only the branch it takes is
                // checked (the other may be ill-formed for this instantiation).
                let c = self.condition(cond)?;
                let ExprKind::Const(v) = c.kind else {
                    return Err(CheckError::NotConstant {
                        what: "the condition of `if constexpr`".into(),
                        span: cond.span,
                        help: Some("use a template parameter, a `constexpr` value or a literal; for a run-time condition write a plain `if`".into()),
                    });
                };
                let taken = if v.is_true() {
                    Some(then)
                } else {
                    els.as_ref()
                };
                if let Some(taken) = taken {
                    let stmts = self.body(taken);
                    out.extend(stmts);
                }
            }
            ast::StmtKind::If {
                cond, then, els, ..
            } => {
                let cond = self.condition(cond)?;
                let taken = match &cond.kind {
                    ExprKind::Const(v) => Some(v.is_true()),
                    _ => None,
                };
                let then = self.arm(then, taken != Some(false));
                let els = match els {
                    Some(e) => self.arm(e, taken != Some(true)),
                    None => Vec::new(),
                };
                push(out, StmtKind::If { cond, then, els });
            }
            ast::StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push(HashMap::new());
                let result = self.for_loop(init, cond.as_ref(), step, body, span, out);
                self.scopes.pop();
                result?;
            }
            // A struct is walked through its iterators, anything else as an array.
            ast::StmtKind::RangeFor {
                range,
                array,
                class,
                pointer,
            } => {
                let by_ref;
                let form: &ast::Stmt = match self.struct_of(range) {
                    // `auto&& __range1 = RANGE;`: the range itself where it is an lvalue.
                    Some(l) if self.begins_with_pointer(&l) && self.range_lvalue(range) => {
                        by_ref = crate::syntax::range_by_reference(pointer);
                        &by_ref
                    }
                    Some(l) if self.begins_with_pointer(&l) => pointer,
                    Some(_) => class,
                    None => array,
                };
                let inner = self.block(std::slice::from_ref(form));
                out.extend(inner);
            }
            ast::StmtKind::While { cond, body } => {
                let cond = self.condition(cond)?;
                let body = self.loop_body(body);
                push(
                    out,
                    StmtKind::Loop {
                        cond: Some(cond),
                        test_first: true,
                        body,
                        step: Vec::new(),
                    },
                );
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let body = self.loop_body(body);
                let cond = self.condition(cond)?;
                push(
                    out,
                    StmtKind::Loop {
                        cond: Some(cond),
                        test_first: false,
                        body,
                        step: Vec::new(),
                    },
                );
            }
            ast::StmtKind::Unsupported {
                what,
                help,
                invalid: true,
                ..
            } => {
                return Err(CheckError::AsmOperand {
                    what: what.clone(),
                    span,
                    help: help.clone(),
                })
            }
            ast::StmtKind::Delete { ptr, array } => {
                let kind = self.delete(ptr, if *array { "delete[]" } else { "delete" })?;
                push(out, kind);
            }
            ast::StmtKind::Unsupported { what, help, .. } => {
                return Err(CheckError::Unsupported {
                    what: what.clone(),
                    span,
                    help: Some(help.clone()),
                })
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let is_break = matches!(s.kind, ast::StmtKind::Break);
                if self.loop_depth == 0 {
                    return Err(CheckError::OutsideLoop {
                        what: if is_break { "break" } else { "continue" }.into(),
                        span,
                    });
                }
                push(
                    out,
                    if is_break {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    },
                );
            }
            ast::StmtKind::Return(Some(v)) if self.ret_shape != intrinsics::RetShape::Plain => {
                match self.ret_shape {
                    intrinsics::RetShape::Pointer(i) => {
                        // `return &v[i];` of a `float2 v[4]` member counts vectors, as the
                        // function's `float2*` does.
                        let p = self.pointer_for(i, v)?;
                        // A function returning `void*` returns the pointer its first `return`
                        // gives, as it is; its caller casts it.
                        let slot = &mut self.ptr_vars[i as usize];
                        if let (true, Some(m)) = (slot.is_void, p.mem) {
                            if !slot.assigned {
                                slot.pointee = (m.elem, m.width);
                            } else if slot.pointee != (m.elem, m.width) {
                                let (e, w) = slot.pointee;
                                return Err(CheckError::Unsupported {
                                    what: format!(
                                        "a `void*` function that returns `{}*` here and `{}*` before",
                                        typed::type_name(m.elem, m.width),
                                        typed::type_name(e, w)
                                    ),
                                    span,
                                    help: Some("simt gives a `void*` result the type its first `return` points to: return pointers of one type (cast them to it), or split the function".into()),
                                });
                            }
                        }
                        out.push(self.point(i, p, span)?);
                    }
                    intrinsics::RetShape::Vector(vars, elem, width) => {
                        self.assign_vector(&vars[..width as usize], elem, width, v, out)?;
                    }
                    intrinsics::RetShape::Struct(i) => self.return_struct(i, v, out)?,
                    intrinsics::RetShape::Plain => unreachable!("checked above"),
                }
                push(out, StmtKind::ReturnFn);
            }
            ast::StmtKind::Return(value) => match (self.returns, value) {
                (None, None) => push(out, StmtKind::Return),
                (Some(None), None) => push(out, StmtKind::ReturnFn),
                (Some(None), Some(v)) if self.returns_auto => {
                    // `auto f(P a, P b) { return a + b; }`: the struct type of the first
                    // `return`, whose slot every `return` then fills.
                    if let Some(l) = self.struct_of(v) {
                        let name =
                            format!("{}()", self.inlining.last().map_or("", |(n, _)| n.as_str()));
                        let slot = self.new_struct(&name, &l, v.span);
                        let Binding::Struct(i) = self.bind_struct(slot) else {
                            unreachable!("checker: a struct binding")
                        };
                        self.ret_shape = intrinsics::RetShape::Struct(i);
                        self.return_struct(i, v, out)?;
                        push(out, StmtKind::ReturnFn);
                        return Ok(());
                    }
                    let value = self.expr(v)?;
                    let ty = self.own_type(v, &value);
                    let name =
                        format!("{}()", self.inlining.last().map_or("", |(n, _)| n.as_str()));
                    let var = self.new_local(&name, ty, v.span);
                    self.returns = Some(Some((var, ty)));
                    self.note_address(var, &value);
                    push(out, StmtKind::Assign { var, value });
                    push(out, StmtKind::ReturnFn);
                }
                (Some(Some((var, ty))), Some(v)) => {
                    let e = self.expr(v)?;
                    let found = self.own_type(v, &e);
                    if self.returns_auto && found != ty {
                        return Err(CheckError::ReturnType {
                            problem: ReturnProblem::TwoTypes {
                                first: ty.to_string(),
                                found: found.to_string(),
                            },
                            span: v.span,
                            help: Some(format!("cast it, `({ty})(...)`, or write the return type")),
                        });
                    }
                    let value = self.convert(e, ty);
                    self.note_address(var, &value);
                    push(out, StmtKind::Assign { var, value });
                    push(out, StmtKind::ReturnFn);
                }
                (Some(Some((_, ty))), None) => {
                    return Err(CheckError::ReturnType {
                        problem: ReturnProblem::NeedsValue { ty: ty.to_string() },
                        span,
                        help: None,
                    })
                }
                // `return f(...);` of a `void` function in a `void` function (or a kernel): C++
                // allows it ([stmt.return]/2), and it is the call followed by `return;`.
                (None | Some(None), Some(v)) if self.void_call(v)? => {
                    let call = self.expr_stmt(v)?;
                    push(out, call);
                    let back = match self.returns {
                        None => StmtKind::Return,
                        Some(_) => StmtKind::ReturnFn,
                    };
                    push(out, back);
                }
                (_, Some(v)) => {
                    return Err(CheckError::ReturnType {
                        problem: ReturnProblem::ValueFromVoid {
                            kernel: self.returns.is_none(),
                        },
                        span: v.span,
                        help: Some("write results to a buffer and use `return;`".into()),
                    })
                }
            },
        }
        Ok(())
    }

    fn for_loop(
        &mut self,
        init: &[ast::Stmt],
        cond: Option<&ast::Expr>,
        step: &[ast::Stmt],
        body: &ast::Stmt,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), CheckError> {
        for s in init {
            self.stmt(s, out)?;
        }
        let cond = cond.map(|c| self.condition(c)).transpose()?;
        let body = self.loop_body(body);
        let mut steps = Vec::new();
        for s in step {
            self.stmt(s, &mut steps)?;
        }
        out.push(Stmt {
            kind: StmtKind::Loop {
                cond,
                test_first: true,
                body,
                step: steps,
            },
            span,
        });
        Ok(())
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> Vec<Stmt> {
        self.loop_depth += 1;
        let b = self.body(body);
        self.loop_depth -= 1;
        b
    }

    /// A condition converted to `bool` (`if (n)` means `n != 0`, `if (p)` means `p != NULL`).
    fn condition(&mut self, e: &ast::Expr) -> Result<Expr, CheckError> {
        match strings_as_true(e) {
            Some(e) => self.scalar_or_truth(&e),
            None => self.scalar_or_truth(e),
        }
    }

    /// The pointer variable a name stands for, if it is one.
    /// `x++` or `x--`: the variable, a scalar or a pointer, moved by one.
    pub(crate) fn step(
        &mut self,
        target: &ast::Expr,
        inc: bool,
        span: Span,
    ) -> Result<Stmt, CheckError> {
        let op = if inc {
            ast::BinOp::Add
        } else {
            ast::BinOp::Sub
        };
        if let Some(i) = self.pointer_var(target) {
            let one = ast::Expr {
                kind: ast::ExprKind::Int {
                    value: 1,
                    unsigned: false,
                    long: false,
                    hex: false,
                },
                span,
            };
            return self.assign_pointer(i, Some(op), span, &one, span);
        }
        let one = expr::constant(Value::I32(1), span);
        let kind = self.assign(target, Some(op), span, one)?;
        Ok(Stmt { kind, span })
    }

    /// `x++`, `++x`, `p--`... inside an expression: the step, then the value before it (`x++`)
    /// or after it (`++x`), as one expression. `var` is the variable's own value (a scalar's,
    /// or a pointer variable's offset) and `ty` its type.
    pub(crate) fn stepped(
        &mut self,
        (target, inc, post): (&ast::Expr, bool, bool),
        var: VarId,
        ty: Scalar,
        span: Span,
    ) -> Result<Expr, CheckError> {
        self.not_held_by_reference(var, span)?;
        let mut body = Vec::new();
        let result = if post {
            let old = self.new_local(if inc { "x++" } else { "x--" }, ty, span);
            let value = Expr {
                kind: ExprKind::Var(var),
                ty,
                span,
            };
            body.push(Stmt {
                kind: StmtKind::Assign { var: old, value },
                span,
            });
            old
        } else {
            var
        };
        body.push(self.step(target, inc, span)?);
        Ok(Expr {
            kind: ExprKind::Inline {
                name: if inc { "++" } else { "--" }.into(),
                body,
                result: Some(result),
            },
            ty,
            span,
        })
    }

    pub(crate) fn pointer_var(&self, target: &ast::Expr) -> Option<u32> {
        match &target.kind {
            ast::ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Pointer(i)) => Some(i),
                _ => None,
            },
            ast::ExprKind::Member { .. } => self.member_pointer(target),
            // `p.tex[1] = ...`: an element of an array of pointers, by a constant index.
            ast::ExprKind::Index { index, .. } => {
                let ast::ExprKind::Int { value, .. } = index.kind else {
                    return None;
                };
                let (vars, _) = self.pointer_elements(target)?;
                usize::try_from(value)
                    .ok()
                    .and_then(|k| vars.get(k))
                    .copied()
            }
            _ => None,
        }
    }

    pub(crate) fn const_size(&mut self, e: &ast::Expr) -> Result<u64, CheckError> {
        let t = self.constant_expr(e)?;
        match t.kind {
            ExprKind::Const(v) if t.ty.is_integer() => match v.as_i64() {
                Some(n) if n > 0 => Ok(n as u64),
                _ => Err(CheckError::Dimensions {
                    problem: DimensionProblem::NotPositive {
                        size: v.to_string(),
                    },
                    span: e.span,
                    help: None,
                }),
            },
            ExprKind::Const(_) => Err(CheckError::NotAnInteger {
                what: "an array size".into(),
                found: t.ty.to_string(),
                span: e.span,
                help: None,
            }),
            _ => Err(CheckError::NotConstant {
                what: "an array size (or a template argument)".into(),
                span: e.span,
                help: Some("use a literal, a `#define` or a `const` global".into()),
            }),
        }
    }

    /// The memory of a file-scope scalar (`__constant__ float c;`, `__device__ int n;`), which
    /// is the one element of a hidden parameter; `None` for any other parameter.
    fn file_scalar(&self, p: u32) -> Option<Mem> {
        if !self.constant_dims.get(&p).is_some_and(Vec::is_empty) {
            return None;
        }
        let ParamKind::Buffer { elem, width, .. } = self.params[p as usize].kind else {
            unreachable!("checker: a file-scope variable is a buffer parameter")
        };
        Some(Mem {
            space: Space::Global(p),
            elem,
            width,
        })
    }

    /// `a[i++] += v` (or `buf(y, x) += v` through a returned reference) on a vector element:
    /// the element is found once and the compound assignment applied to a reference to it, as
    /// C++ evaluates the target once.
    fn compound_on_element(
        &mut self,
        target: &ast::Expr,
        op: ast::BinOp,
        op_span: Span,
        value: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), CheckError> {
        if self.returned_vector_ref(target).is_some() {
            self.not_const_returned(target)?;
        } else {
            self.writable(target)?;
        }
        let addr = ast::Expr {
            kind: ast::ExprKind::Unary {
                op: ast::UnOp::AddrOf,
                operand: Box::new(target.clone()),
            },
            span: target.span,
        };
        let at = self.pointer(&addr)?;
        let at = self.in_vectors(at, &addr);
        let mem = self.pointee(at.mem, target.span)?;
        self.not_constant(mem, target.span)?;
        let name = ast::Ident {
            name: format!("<element {}>", target.span.start),
            span: target.span,
        };
        let i = self.new_pointer(&name, (mem.elem, mem.width), false);
        out.push(self.point(i, at, span)?);
        self.scopes.push(HashMap::new());
        self.declare(&name, Binding::Ref(i));
        let assign = ast::Stmt {
            kind: ast::StmtKind::Assign {
                target: ast::Expr {
                    kind: ast::ExprKind::Name(name.name.clone()),
                    span: target.span,
                },
                op: Some(op),
                op_span,
                value: value.clone(),
            },
            span,
        };
        let done = self.stmt(&assign, out);
        self.scopes.pop();
        done
    }

    /// The memory and dimensions of a file-scope array (`__constant__ P c[4][8];`); `None` for
    /// any other parameter.
    fn file_array(&self, p: u32) -> Option<(Mem, Vec<u64>)> {
        let dims = self.constant_dims.get(&p).filter(|d| !d.is_empty())?;
        let ParamKind::Buffer { elem, width, .. } = self.params[p as usize].kind else {
            unreachable!("checker: a file-scope variable is a buffer parameter")
        };
        let mem = Mem {
            space: Space::Global(p),
            elem,
            width,
        };
        Some((mem, dims.clone()))
    }

    /// `target op= value` → an assignment or a store.
    fn assign(
        &mut self,
        target: &ast::Expr,
        op: Option<ast::BinOp>,
        op_span: Span,
        value: Expr,
    ) -> Result<StmtKind, CheckError> {
        if let Some(place) = self.returned_place(target) {
            let (mem, index) = place?;
            return self.store(mem, index, (op, op_span), value, target.span);
        }
        if let Some(place) = self.member_place(target) {
            if let ast::ExprKind::Member { base, .. } | ast::ExprKind::Index { base, .. } =
                &target.kind
            {
                self.writable(base)?;
            }
            return match place? {
                vector::Place::Var(var, elem) => {
                    self.assign_var(var, elem, (op, op_span), value, target.span)
                }
                vector::Place::Elem(mem, index) => {
                    self.store(mem, index, (op, op_span), value, target.span)
                }
            };
        }
        match &target.kind {
            ast::ExprKind::Name(name) => match self.lookup(name) {
                Some(Binding::Constant(..)) => Err(CheckError::NotAssignable {
                    what: format!("`{name}`, which is `const`"),
                    span: target.span,
                    help: Some("remove `const` from its declaration".into()),
                }),
                Some(Binding::Local { var, is_const }) => {
                    if is_const {
                        return Err(CheckError::NotAssignable {
                            what: format!("`{name}`, which is `const`"),
                            span: target.span,
                            help: Some("remove `const` from its declaration".into()),
                        });
                    }
                    let declared = self.locals[var.0 as usize].declared;
                    self.assign_var(var, declared, (op, op_span), value, target.span)
                }
                Some(Binding::Shared(sh)) if self.shared[sh as usize].is_scalar() => {
                    let index = Expr {
                        kind: ExprKind::Const(Value::I32(0)),
                        ty: Scalar::I32,
                        span: target.span,
                    };
                    self.store(
                        self.shared_mem(sh),
                        index,
                        (op, op_span),
                        value,
                        target.span,
                    )
                }
                Some(Binding::Param(p)) if self.file_scalar(p).is_some() => {
                    let mem = self.file_scalar(p).expect("checked: a file-scope scalar");
                    self.not_constant(mem, target.span)?;
                    let index = expr::constant(Value::I32(0), target.span);
                    self.store(mem, index, (op, op_span), value, target.span)
                }
                Some(Binding::Ref(i)) => {
                    let pv = &self.ptr_vars[i as usize];
                    let mem = pv.mem.expect("checker: a reference is bound to an element");
                    if pv.is_const {
                        return Err(CheckError::NotAssignable {
                            what: format!("`{name}`, a `const` reference"),
                            span: target.span,
                            help: Some("remove `const` from the parameter".into()),
                        });
                    }
                    let index = Expr {
                        kind: ExprKind::Var(pv.var),
                        ty: Scalar::I64,
                        span: target.span,
                    };
                    self.store(mem, index, (op, op_span), value, target.span)
                }
                Some(Binding::Vector { .. }) => Err(CheckError::Unsupported {
                    what: "arithmetic on a whole vector".into(),
                    span: target.span,
                    help: Some(format!("update each component: `{name}.x += ...;`")),
                }),
                Some(Binding::Struct(_)) => Err(CheckError::NotAValue {
                    subject: format!("`{name}`"),
                    what: "a struct".into(),
                    wanted: "a number",
                    span: target.span,
                    help: Some(format!("assign a member: `{name}.x = ...;`")),
                }),
                Some(Binding::Lambda(_)) => Err(CheckError::NotAssignable {
                    what: format!("the lambda `{name}`"),
                    span: target.span,
                    help: Some("declare another `auto` for another lambda".into()),
                }),
                Some(Binding::Object(_)) => Err(CheckError::NotAssignable {
                    what: format!("the object `{name}`"),
                    span: target.span,
                    help: None,
                }),
                Some(Binding::Group(_)) => Err(CheckError::NotAssignable {
                    what: format!("the group `{name}`"),
                    span: target.span,
                    help: Some("declare a new group variable instead".into()),
                }),
                Some(Binding::Async(_)) => Err(CheckError::NotAssignable {
                    what: format!("the barrier or pipeline `{name}`"),
                    span: target.span,
                    help: Some(
                        "use its member functions: `bar.arrive_and_wait()`, `pipe.consumer_wait()`"
                            .into(),
                    ),
                }),
                Some(
                    Binding::Param(_)
                    | Binding::Shared(_)
                    | Binding::LocalArray(_)
                    | Binding::Pointer(_)
                    | Binding::PointerArray(_)
                    | Binding::Accessor(_),
                ) => Err(CheckError::NotAssignable {
                    what: format!("the array `{name}` itself"),
                    span: target.span,
                    help: Some(format!("assign to an element: `{name}[i] = ...`")),
                }),
                None => Err(self.unknown_name(name, target.span)),
            },
            ast::ExprKind::Index { base, .. } if self.is_struct_index(target) => {
                Err(self.index_assignment(base, target.span))
            }
            ast::ExprKind::Index { .. }
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => {
                self.writable(target)?;
                let (mem, index) = self.element(target)?;
                self.store(mem, index, (op, op_span), value, target.span)
            }
            ast::ExprKind::Member { base, field } if self.is_vector_component(base) => {
                match self
                    .component(base, field, target.span)
                    .expect("checked: a vector component")?
                {
                    vector::Place::Var(var, elem) => {
                        self.assign_var(var, elem, (op, op_span), value, target.span)
                    }
                    vector::Place::Elem(mem, index) => {
                        self.writable(base)?;
                        self.not_const_returned(base)?;
                        self.store(mem, index, (op, op_span), value, target.span)
                    }
                }
            }
            ast::ExprKind::Member { base, .. } => Err(match &base.kind {
                ast::ExprKind::Name(n) if self.lookup(n).is_none() && !is_builtin(n) => {
                    self.unknown_name(n, base.span)
                }
                ast::ExprKind::Name(n) if is_builtin(n) => CheckError::NotAssignable {
                    what: "a built-in variable".into(),
                    span: target.span,
                    help: Some("copy it into a local first: `int tx = threadIdx.x;`".into()),
                },
                ast::ExprKind::Call { .. } | ast::ExprKind::Method { .. } => {
                    CheckError::NotAssignable {
                        what: "a member of a call's result".into(),
                        span: target.span,
                        help: Some(
                            "the function returns a value, a temporary, as C++ does: keep it in a \
                             variable and assign that, or return a reference (`float2&`)"
                                .into(),
                        ),
                    }
                }
                _ => CheckError::NotAssignable {
                    what: "this member".into(),
                    span: target.span,
                    help: Some(
                        "simt assigns members of struct variables, of elements of struct arrays \
                         and pointers, and components of vectors"
                            .into(),
                    ),
                },
            }),
            _ => Err(CheckError::NotAssignable {
                what: "this expression".into(),
                span: target.span,
                help: Some("assign to a variable or to an element `a[i]`".into()),
            }),
        }
    }

    /// A kernel parameter's default argument as the launch evaluates it: a constant of the
    /// file (`nvcuda::wmma::mem_row_major`, an enumerator, `N * 2`) folded to its literal, any
    /// other expression as written.
    fn folded_default(&mut self, d: &ast::Expr) -> ast::Expr {
        let errors = self.errors.len();
        let value = self.constant_expr(d);
        self.errors.truncate(errors);
        match value {
            Ok(Expr {
                kind: ExprKind::Const(v),
                ..
            }) if v.ty().is_float() => ast::Expr {
                kind: ast::ExprKind::Float {
                    value: v.as_f64(),
                    single: v.ty() == Scalar::F32,
                },
                span: d.span,
            },
            Ok(Expr {
                kind: ExprKind::Const(v),
                ..
            }) => v
                .as_i64()
                .map_or_else(|| d.clone(), |v| template::int_expr(v, d.span)),
            _ => d.clone(),
        }
    }

    /// One arm of an `if`. An arm whose constant condition never runs it (DGL's `if (!atomic)
    /// ... else atomicAdd(buf, v)` of `acc<false>` on a local) is still checked, as C++
    /// compiles it; where all it holds that simt cannot run are constructs simt does not
    /// support (not errors of the program) or dereferences of a null pointer (undefined only
    /// where evaluated; torch-ngp's `if (BACKWARD) ... aux[i]` with `aux = nullptr` by
    /// default), it is left out instead of refused.
    fn arm(&mut self, arm: &ast::Stmt, runs: bool) -> Vec<Stmt> {
        if runs {
            return self.body(arm);
        }
        let errors = self.errors.len();
        let broken = self.globals.broken.borrow().clone();
        let body = self.body(arm);
        let limits = self.errors[errors..].iter().all(|e| {
            matches!(
                e,
                CheckError::Unsupported { .. }
                    | CheckError::CubUnsupported { .. }
                    | CheckError::Pointer {
                        problem: PointerProblem::NullDereference,
                        ..
                    }
            )
        });
        if self.errors.len() == errors || !limits {
            return body;
        }
        self.errors.truncate(errors);
        *self.globals.broken.borrow_mut() = broken;
        Vec::new()
    }

    /// `var op= value` with C's conversions.
    fn assign_var(
        &mut self,
        var: VarId,
        declared: Scalar,
        (op, op_span): (Option<ast::BinOp>, Span),
        value: Expr,
        span: Span,
    ) -> Result<StmtKind, CheckError> {
        self.not_held_by_reference(var, span)?;
        let value = match op {
            Some(op) => {
                let current = Expr {
                    kind: ExprKind::Var(var),
                    ty: declared.promoted(),
                    span,
                };
                let value = self.compound_operand(declared, value);
                self.binary(op, op_span, current, value)?
            }
            None => value,
        };
        let value = self.convert(value, declared);
        self.note_address(var, &value);
        Ok(StmtKind::Assign { var, value })
    }

    /// `mem[index] op= value`; the old value of a compound assignment is read at the same index.
    fn store(
        &mut self,
        mem: Mem,
        index: Expr,
        (op, op_span): (Option<ast::BinOp>, Span),
        value: Expr,
        span: Span,
    ) -> Result<StmtKind, CheckError> {
        self.not_constant(mem, span)?;
        let value = match op {
            Some(op) => {
                let current = Expr {
                    kind: ExprKind::LoadAtStore { mem },
                    ty: mem.elem.promoted(),
                    span,
                };
                let value = self.compound_operand(mem.elem, value);
                self.binary(op, op_span, current, value)?
            }
            None => value,
        };
        let value = self.convert(value, mem.elem);
        Ok(StmtKind::Store { mem, index, value })
    }

    /// Rejects a write to a `__constant__` array or a `const __device__` variable (through any
    /// pointer: CUDA lets a plain pointer point into one, but a kernel cannot write constant
    /// memory, and a `const` object may not be modified).
    pub(crate) fn not_constant(&self, mem: Mem, span: Span) -> Result<(), CheckError> {
        match mem.space {
            Space::Global(p)
                if self.constant_dims.contains_key(&p)
                    && matches!(
                        self.params[p as usize].kind,
                        ParamKind::Buffer { is_const: true, .. }
                    ) =>
            {
                Err(CheckError::NotAssignable {
                    what: format!("`{}`, a `__constant__` array", self.params[p as usize].name),
                    span,
                    help: Some(
                        "constant memory is read-only in a kernel; set it in the launch section"
                            .into(),
                    ),
                })
            }
            Space::Global(p) if self.const_device.contains(&p) => Err(CheckError::NotAssignable {
                what: format!(
                    "`{}`, a `const __device__` variable",
                    self.params[p as usize].name
                ),
                span,
                help: Some(
                    "it is `const`: drop `const` from its declaration if the kernel writes it, or \
                     set it in the launch section"
                        .into(),
                ),
            }),
            _ => Ok(()),
        }
    }

    /// Rejects a write through a pointer to `const` (`place` is `a[i]`, `*p`, `p[i]`...).
    pub(crate) fn writable(&self, place: &ast::Expr) -> Result<(), CheckError> {
        // A file-scope vector (`__constant__ int4 c;` is a reference to its buffer's one
        // element) says which read-only memory it is in.
        if let ast::ExprKind::Name(n) = &pointer::index_chain(place).0.kind {
            if let Some(Binding::Ref(i)) = self.lookup(n) {
                if let Some(mem) = self.ptr_vars[i as usize].mem {
                    self.not_constant(mem, place.span)?;
                }
            }
        }
        if self.place_is_const(place) {
            return Err(CheckError::NotAssignable {
                what: "an element through a pointer to `const`".into(),
                span: place.span,
                help: Some(
                    "drop `const` from the pointer (or the parameter) if the kernel writes it"
                        .into(),
                ),
            });
        }
        Ok(())
    }

    /// An expression used as a statement: a barrier, an atomic, a `__device__` call.
    /// `sincosf(x, &s, &c)` (and `sincos`, `__sincosf`, `sincospif`): `*sp = sinf(x)` and
    /// `*cp = cosf(x)`, the two operations the hardware runs; `None` for any other expression.
    fn sincos(&mut self, e: &ast::Expr) -> Option<Result<Vec<StmtKind>, CheckError>> {
        let ast::ExprKind::Call {
            callee,
            targs,
            args,
        } = &e.kind
        else {
            return None;
        };
        // The file's own overload (libfreenect2's `sincosf(float3, float3*, float3*)`) where
        // the arguments choose it.
        match self.overload_with(&callee.name, targs, args) {
            Ok(Some(_)) => return None,
            Err(err) => return Some(Err(err)),
            Ok(None) => {}
        }
        let (sin, cos) = match callee.name.as_str() {
            "sincosf" | "__sincosf" => ("sinf", "cosf"),
            "sincos" => ("sin", "cos"),
            "sincospif" => ("sinpif", "cospif"),
            "sincospi" => ("sinpi", "cospi"),
            _ => return None,
        };
        let [x, sp, cp] = args.as_slice() else {
            return Some(Err(CheckError::ArgumentCount {
                name: callee.name.clone(),
                expected: "3".into(),
                found: args.len(),
                span: e.span,
            }));
        };
        let call = |f: &str| ast::Expr {
            kind: ast::ExprKind::Call {
                callee: ast::Ident {
                    name: f.into(),
                    span: callee.span,
                },
                targs: Vec::new(),
                args: vec![x.clone()],
            },
            span: e.span,
        };
        Some(
            [(sin, sp), (cos, cp)]
                .into_iter()
                .map(|(f, p)| {
                    let value = self.expr(&call(f))?;
                    self.assign(&expr::out_place(p), None, e.span, value)
                })
                .collect(),
        )
    }

    /// An expression evaluated for what it does (a statement, an item of `a, b`); `None` for
    /// one that only computes a value, as `s[t] += s[t], s[t + 512];` (UoB-HPC's arch) ends:
    /// C++ drops the value, which nvcc warns of and its compiler removes, so it is checked,
    /// noted and not run (a dropped load reads nothing).
    pub(crate) fn effect(&mut self, e: &ast::Expr) -> Result<Option<StmtKind>, CheckError> {
        // `__syncthreads;` (xbeach's momentum kernels): the function named, not called, which
        // C++ allows and nvcc warns of; no barrier runs.
        let named = match &e.kind {
            // (`(void)__syncthreads;` too.)
            ast::ExprKind::Cast { ty, expr } if ty.base == ast::BaseType::Void && !ty.pointer => {
                expr
            }
            _ => e,
        };
        if let ast::ExprKind::Name(n) = &named.kind {
            let barrier = matches!(
                n.as_str(),
                "__syncthreads"
                    | "__syncthreads_count"
                    | "__syncthreads_and"
                    | "__syncthreads_or"
                    | "__syncwarp"
                    | "__threadfence"
                    | "__threadfence_block"
                    | "__threadfence_system"
            );
            let function = barrier || self.globals.overloads.contains_key(n.as_str());
            if function && self.lookup(n).is_none() {
                self.notes.push((
                    e.span,
                    "no-effect",
                    format!("`{n};` names the function without calling it, which does nothing (nvcc warns \"statement has no effect\"): simt runs no {}; write `{n}()`", if barrier { "barrier or fence" } else { "call" }),
                ));
                return Ok(None);
            }
        }
        match self.expr_stmt(e) {
            Err(CheckError::NoEffect { span }) => {
                let value = self.expr(e)?;
                // A call, a store or a step, or a struct operand (whose conversion or operator
                // may be the file's code, `(int)g`), still runs.
                if crate::syntax::any_subexpr(e, |x| {
                    matches!(
                        x.kind,
                        ast::ExprKind::Call { .. }
                            | ast::ExprKind::Method { .. }
                            | ast::ExprKind::Assign { .. }
                            | ast::ExprKind::IncDec { .. }
                            | ast::ExprKind::New { .. }
                    ) || self.struct_of(x).is_some()
                }) {
                    return Ok(Some(StmtKind::Eval(value)));
                }
                self.notes.push((
                    span,
                    "no-effect",
                    "this statement computes a value and drops it: simt checks it and does not run it, as nvcc warns and its compiler removes it (a read through a `volatile` pointer, which nvcc keeps, is dropped too); assign it if it was meant to be kept (`x = ...;`)".into(),
                ));
                Ok(None)
            }
            kind => kind.map(Some),
        }
    }

    fn expr_stmt(&mut self, e: &ast::Expr) -> Result<StmtKind, CheckError> {
        if let ast::ExprKind::Cast { ty, expr } = &e.kind {
            if ty.base == ast::BaseType::Void && !ty.pointer {
                // `(void)x;`: C's way to mark a value unused (GROMACS's `GMX_UNUSED_VALUE`):
                // the operand is evaluated and its value dropped.
                return match self.expr_stmt(expr) {
                    // `(void)p;` of a pointer: its offset is evaluated, as the value would be.
                    Err(CheckError::NoEffect { .. }) if self.is_pointer(expr) => {
                        Ok(StmtKind::Eval(self.pointer(expr)?.offset))
                    }
                    Err(CheckError::NoEffect { .. }) => Ok(StmtKind::Eval(self.expr(expr)?)),
                    other => other,
                };
            }
        }
        if let ast::ExprKind::Call { callee, args, .. } = &e.kind {
            let name = groups::unqualified(&callee.name);
            if let (true, [p]) = (self.is_heap_call(callee, "free"), args.as_slice()) {
                return self.delete(p, "free");
            }
            if let Some(call) = self.wmma_call(name, args, e.span) {
                return Ok(StmtKind::Eval(call?));
            }
        }
        if let Some(call) = self.struct_call(e, true) {
            return Ok(StmtKind::Eval(call?));
        }
        if let Some(call) = self.temporary_call(e, true) {
            return Ok(StmtKind::Eval(call?));
        }
        if let ast::ExprKind::Method {
            object,
            method,
            args,
            ..
        } = &e.kind
        {
            if let (Some(g), "sync") = (self.group(object)?, method.name.as_str()) {
                return self.group_sync(g, e.span);
            }
            if let Some(call) = self.cub_statement(object, method, args, e.span) {
                return Ok(StmtKind::Eval(call?));
            }
        }
        if let ast::ExprKind::Call { callee, args, .. } = &e.kind {
            if let (true, [p, v]) = (expr::is_cache_store(&callee.name), args.as_slice()) {
                // `__stcs(p, v)` stores `v` at `*p`; the cache hint changes nothing here.
                let value = self.expr(v)?;
                let target = expr::out_place(p);
                return self.assign(&target, None, e.span, value);
            }
            if let (["sync"], [g]) = ([groups::unqualified(&callee.name)], args.as_slice()) {
                if let Some(g) = self.group(g)? {
                    return self.group_sync(g, e.span);
                }
            }
        }
        if let ast::ExprKind::Call {
            callee,
            targs,
            args,
        } = &e.kind
        {
            let name = callee.name.as_str();
            let arg_count = |n: usize| CheckError::ArgumentCount {
                name: name.to_string(),
                expected: n.to_string(),
                found: args.len(),
                span: e.span,
            };
            match name {
                "__syncthreads" if args.is_empty() => return Ok(StmtKind::Barrier),
                "__simt_bar_sync" => return self.named_barrier(args, e.span),
                "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                    let kind = BlockVote::of_name(name).expect("matched a block vote's name");
                    return self.block_vote_stmt(kind, name, args, e.span);
                }
                "assert" if args.len() == 1 => {
                    return Ok(StmtKind::Assert(self.condition(&args[0])?, false));
                }
                "assert" => return Err(arg_count(1)),
                // The compiler may assume `cond`; where it is false the behaviour is undefined,
                // so simt stops there, as a failed `assert` does.
                "__builtin_assume" if args.len() == 1 => {
                    return Ok(StmtKind::Assert(self.condition(&args[0])?, true));
                }
                "__builtin_assume" => return Err(arg_count(1)),
                "__builtin_unreachable" if args.is_empty() => {
                    return Ok(StmtKind::Fault(typed::Fault::Unreachable))
                }
                "__builtin_unreachable" => return Err(arg_count(0)),
                "__trap" if args.is_empty() => return Ok(StmtKind::Trap),
                "__trap" => return Err(arg_count(0)),
                // A fence orders a thread's memory accesses for other threads; simt's memory
                // is sequentially consistent (every access is seen in program order), so a
                // fence changes nothing here.
                // Programmatic dependent launch (sm_90): without the launch attribute, which
                // a launch section cannot set, the grid depends on no other grid, so the wait
                // returns at once and the trigger releases no one (Programming Guide,
                // "Programmatic Dependent Launch and Synchronization").
                "__threadfence"
                | "__threadfence_block"
                | "__threadfence_system"
                | "cudaGridDependencySynchronize"
                | "cudaTriggerProgrammaticLaunchCompletion"
                    if args.is_empty() =>
                {
                    return Ok(StmtKind::Eval(Expr {
                        kind: ExprKind::Const(Value::Bool(true)),
                        ty: Scalar::Bool,
                        span: e.span,
                    }));
                }
                // `__nanosleep(ns)` suspends the thread for about `ns` nanoseconds (at most 1 ms,
                // CUDA says): it changes no value, and the time model has no per-thread
                // delays, so only its argument is evaluated.
                "__nanosleep" => {
                    let [ns] = args.as_slice() else {
                        return Err(arg_count(1));
                    };
                    let ns = self.expr(ns)?;
                    return Ok(StmtKind::Eval(self.convert(ns, Scalar::U32)));
                }
                "printf" => return self.printf(args, e.span),
                "__syncthreads" => return Err(arg_count(0)),
                "__syncwarp" => {
                    let mask = match args.as_slice() {
                        [] => Expr {
                            kind: ExprKind::Const(Value::U32(u32::MAX)),
                            ty: Scalar::U32,
                            span: e.span,
                        },
                        [m] => {
                            let t = self.expr(m)?;
                            self.convert(t, Scalar::U32)
                        }
                        _ => return Err(arg_count(1)),
                    };
                    return Ok(StmtKind::SyncWarp(mask));
                }
                _ => {}
            }
            // `round(x, r);` of a lambda, `icp();` of a functor whose `operator()` returns
            // `void`: called for the effect ([stmt.expr]: the result, `void` or not, is
            // discarded).
            if let Some(call) = self
                .object_call(callee, (targs, args), e.span, true)
                .or_else(|| self.immediate_lambda(callee, (targs, args), e.span, true))
            {
                return Ok(StmtKind::Eval(call?));
            }
            // `S<T>::put(p, v);`: a static member function of a struct (template), which
            // may return `void`.
            if let Some(m) = self.static_member_fn(name, callee.span, args) {
                return Ok(StmtKind::Eval(self.inline_member(
                    &m,
                    (targs, args),
                    e.span,
                    true,
                )?));
            }
            self.known_scope(callee)?;
            if let Some(f) = self.overload_with(groups::unqualified(name), targs, args)? {
                return Ok(StmtKind::Eval(self.inline_call(
                    f,
                    (targs, args),
                    e.span,
                    true,
                )?));
            }
            // `blockReduce<ReduceType::kSum, 1>(v);`: the explicit specialisation of a `void`
            // template the file declares without a body.
            if let Some(f) = self.declared_specialization(name, targs)? {
                return Ok(StmtKind::Eval(self.inline_call(
                    f,
                    (&[], args),
                    e.span,
                    true,
                )?));
            }
            if let Some(op) = atomics::atomic_op(name) {
                return self.atomic_stmt(op, args, e.span);
            }
            // `frexp((float)n, &exp);` (cuda-samples' eigenvalues): called for what it writes
            // through its pointer argument.
            if matches!(name, "frexpf" | "frexp" | "modff" | "modf") {
                return Ok(StmtKind::Eval(self.expr(e)?));
            }
            self.expr(e)?;
        }
        Err(CheckError::NoEffect { span: e.span })
    }

    /// Whether `e` is a call of a function that returns `void` (`add5(p)`, `obj.reset()`): as a
    /// value it is refused for that very reason, at the call itself (not at an argument). Any
    /// other error of the call (an unknown function, a wrong argument) is the call's.
    fn void_call(&mut self, e: &ast::Expr) -> Result<bool, CheckError> {
        if !matches!(
            e.kind,
            ast::ExprKind::Call { .. } | ast::ExprKind::Method { .. }
        ) {
            return Ok(false);
        }
        match self.expr(e) {
            Ok(_) => Ok(false),
            Err(CheckError::NoValue { span, .. }) if span == e.span => Ok(true),
            Err(other) => Err(other),
        }
    }

    fn unknown_name(&self, name: &str, span: Span) -> CheckError {
        if self.globals.host_vars.contains_key(name) {
            return CheckError::HostVariable {
                name: name.to_string(),
                span,
            };
        }
        let host_array =
            |c: &&ast::ConstantArray| c.memory == ast::FileMemory::Host && c.name.name == name;
        if self.globals.constants.iter().any(|c| host_array(&c)) {
            return CheckError::HostArray {
                name: name.to_string(),
                span,
            };
        }
        // `a < b > -c`, which simt reads as the variable template `a<b>` before `-`: C++ reads
        // it so too where `a` is one, and compilers warn about the comparison it would be else.
        if let Some((a, _)) = template::split_instance(name) {
            if self.lookup(&a).is_some() {
                let args = &name[a.len() + 1..name.len() - 1];
                return CheckError::Unsupported {
                    what: format!("`{a} < {args} > ...` read as the variable template `{name}`"),
                    span,
                    help: Some(format!(
                        "`{a}` is a variable, not a variable template: parenthesise the comparison, `({a} < {args}) > ...`"
                    )),
                };
            }
        }
        // `reduce_topk_op_2<T>` or `twice` passed as a value: a function, not a variable.
        let base = template::split_instance(name).map_or_else(|| name.to_string(), |(b, _)| b);
        if self
            .globals
            .functions
            .contains_key(groups::unqualified(&base))
        {
            return CheckError::Unsupported {
                what: format!("the function `{name}` passed as a value"),
                span,
                help: Some(
                    "pass a function object instead (a struct with `__device__ T operator()(...)`, made in place: `Op<T>()`) or a lambda; a function is passed only to a template's function pointer parameter".into(),
                ),
            };
        }
        let names = self.visible_names();
        CheckError::UnknownName {
            name: name.to_string(),
            span,
            suggestion: self
                .missing_header_hint(did_you_mean(name, names.iter().map(String::as_str))),
        }
    }

    /// Refuses a call `ns::f(...)` that C++ would not find: its `ns` names nothing (neither a
    /// namespace, class or type the file declares nor a library namespace simt provides), or a
    /// namespace of the file that declares no `f`, or a class without a base that has no member
    /// `f` for these arguments. nvcc rejects each, and taking the call for the file's own `f`
    /// would run another function (AITemplate's `cutlass::fast_tanh` without CUTLASS's headers
    /// found the file's `half fast_tanh(half)`). Called once the file's namespaced functions and
    /// a class's static members have had their chance.
    pub(crate) fn known_scope(&self, callee: &ast::Ident) -> Result<(), CheckError> {
        /// Namespaces whose functions simt provides without their headers' text.
        const LIBRARY: [&str; 12] = [
            "std",
            "cuda",
            "cub",
            "thrust",
            "cooperative_groups",
            "nvcuda",
            "wmma",
            "__gnu_cxx",
            "at",
            "c10",
            "torch",
            "glm",
        ];
        let name = callee.name.trim_start_matches("::");
        let Some((qualifier, member)) = name.rsplit_once("::") else {
            return Ok(());
        };
        let word = |w: &str| w.split('<').next().unwrap_or(w).trim().to_string();
        let first = word(qualifier.split("::").next().unwrap_or(qualifier));
        if LIBRARY.contains(&first.as_str()) {
            return Ok(());
        }
        let refuse = |why: String| {
            Err(CheckError::UnknownFunction {
                name: callee.name.clone(),
                span: callee.span,
                suggestion: self.missing_header_hint(Some(why)),
            })
        };
        if !self.globals.scopes.contains(&first) {
            return refuse(format!(
                "the file declares no namespace, class or type `{first}`: include the header that declares `{name}`"
            ));
        }
        let last = qualifier.rsplit("::").next().unwrap_or(qualifier);
        if self.globals.namespaces.contains(last) {
            return refuse(format!(
                "namespace `{last}` declares no function `{member}`: declare it there, or call the one you mean by its own namespace (`::{member}` for the file's)"
            ));
        }
        let class = (!last.contains('<'))
            .then(|| self.globals.structs.iter().find(|d| d.name.name == last))
            .flatten()
            .filter(|d| d.template.is_empty() && d.base.is_none());
        if let Some(d) = class {
            let has = d.methods.iter().any(|m| m.name.name == member);
            return refuse(if has {
                format!("no `{last}::{member}` takes these arguments")
            } else {
                format!("`{last}` has no member function `{member}`; a file-scope function is called as `{member}(...)` or `::{member}(...)`")
            });
        }
        Ok(())
    }

    /// `suggestion`, led by the headers the file includes that were found nowhere (the likelier
    /// cause of an unknown name), if any.
    pub(crate) fn missing_header_hint(&self, suggestion: Option<String>) -> Option<String> {
        let missing = self.globals.missing_headers;
        if missing.is_empty() {
            return suggestion;
        }
        let list: Vec<String> = missing.iter().map(|h| format!("`{h}`")).collect();
        Some(format!(
            "{} {} not beside the file, where simt reads a quoted `#include` from: copy {} there{}",
            list.join(", "),
            if missing.len() == 1 { "is" } else { "are" },
            if missing.len() == 1 { "it" } else { "them" },
            suggestion.map(|s| format!(" ({s})")).unwrap_or_default()
        ))
    }
}

/// A condition whose `&&`, `||` or `!` has a string literal operand (`assert(n > 0 && "n must be
/// positive")`) with each such string `true`: an array converts to a non-null pointer, and a
/// non-null pointer to `true` ([conv.array], [conv.bool]). `None` when there is none.
fn strings_as_true(e: &ast::Expr) -> Option<ast::Expr> {
    let kind = match &e.kind {
        ast::ExprKind::Str(_) => ast::ExprKind::Bool(true),
        ast::ExprKind::Unary {
            op: ast::UnOp::Not,
            operand,
        } => ast::ExprKind::Unary {
            op: ast::UnOp::Not,
            operand: Box::new(strings_as_true(operand)?),
        },
        ast::ExprKind::Binary {
            op: op @ (ast::BinOp::And | ast::BinOp::Or),
            op_span,
            lhs,
            rhs,
        } => {
            let (l, r) = (strings_as_true(lhs), strings_as_true(rhs));
            if l.is_none() && r.is_none() {
                return None;
            }
            ast::ExprKind::Binary {
                op: *op,
                op_span: *op_span,
                lhs: Box::new(l.unwrap_or_else(|| (**lhs).clone())),
                rhs: Box::new(r.unwrap_or_else(|| (**rhs).clone())),
            }
        }
        _ => return None,
    };
    Some(ast::Expr { kind, span: e.span })
}

/// `threadIdx` and the other built-in index variables.
pub(crate) fn is_builtin(name: &str) -> bool {
    matches!(name, "threadIdx" | "blockIdx" | "blockDim" | "gridDim")
}

/// The scalar type of a non-pointer type name.
fn scalar_of(ty: &ast::TypeName) -> Result<Scalar, CheckError> {
    if ty.pointer {
        return Err(CheckError::Unsupported {
            what: "a pointer here".into(),
            span: ty.span,
            help: None,
        });
    }
    scalar_of_base(ty)
}

/// The scalar type of a type's base (the element type of a pointer).
fn scalar_of_base(ty: &ast::TypeName) -> Result<Scalar, CheckError> {
    Ok(match ty.base {
        BaseType::Bool => Scalar::Bool,
        BaseType::I8 => Scalar::I8,
        BaseType::U8 => Scalar::U8,
        BaseType::I16 => Scalar::I16,
        BaseType::U16 => Scalar::U16,
        BaseType::I32 => Scalar::I32,
        BaseType::U32 => Scalar::U32,
        BaseType::I64 => Scalar::I64,
        BaseType::U64 => Scalar::U64,
        BaseType::F32 => Scalar::F32,
        BaseType::F64 => Scalar::F64,
        BaseType::F16 => Scalar::F16,
        BaseType::BF16 => Scalar::BF16,
        BaseType::Void => {
            return Err(CheckError::NoValue {
                what: "`void`".into(),
                why: " (a variable needs a value type)",
                span: ty.span,
                help: Some("use a type such as `float` or `int`".into()),
            })
        }
        BaseType::Vector => {
            return Err(CheckError::Unsupported {
                what: format!("the type `{}`", ty.base_text),
                span: ty.span,
                help: Some("use scalar types (`float`, `int`, `double`, ...) for now".into()),
            })
        }
        BaseType::Named => return Err(unknown_type(ty)),
        BaseType::Auto => {
            return Err(CheckError::Unsupported {
                what: "`auto` here".into(),
                span: ty.span,
                help: Some("`auto` is for a local with an initialiser; write the type".into()),
            })
        }
    })
}

/// More values in `c`'s initialiser than its dimensions `dims` hold.
fn too_many_for(c: &ast::ConstantArray, dims: &[u64], span: Span) -> CheckError {
    CheckError::Initialiser {
        problem: InitialiserProblem::TooManyForDims {
            name: c.name.name.clone(),
            dims: dims
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(" × "),
        },
        span,
        help: None,
    }
}

/// What a file-scope variable holds when the launch sets nothing, in the launch section's words:
/// its initialiser's values (an array's rest zero), or zeros (`0`, `zeros(n)`).
fn initial_value(
    initial: Option<Vec<Value>>,
    (dims, width): (&[u64], u32),
    span: Span,
) -> ast::Expr {
    let expr = |kind| ast::Expr { kind, span };
    let literal = |v: Value| {
        let (magnitude, negative) = match v.as_i64() {
            Some(n) => (
                ast::ExprKind::Int {
                    value: n.unsigned_abs(),
                    unsigned: false,
                    long: false,
                    hex: false,
                },
                n < 0,
            ),
            None => {
                let x = v.as_f64();
                (
                    ast::ExprKind::Float {
                        value: x.abs(),
                        single: false,
                    },
                    x.is_sign_negative(),
                )
            }
        };
        if negative {
            expr(ast::ExprKind::Unary {
                op: ast::UnOp::Neg,
                operand: Box::new(expr(magnitude)),
            })
        } else {
            expr(magnitude)
        }
    };
    // The launch section's values are the components (`[1, 2, 3, 4]` for a `uint2[2]`).
    let size: u64 = dims.iter().product::<u64>() * u64::from(width);
    let array = !dims.is_empty() || width > 1;
    match initial {
        Some(mut values) if array => {
            values.resize(size as usize, Value::I32(0));
            expr(ast::ExprKind::List(
                values.into_iter().map(literal).collect(),
            ))
        }
        Some(values) => literal(values[0]),
        None if !array => literal(Value::I32(0)),
        None => expr(ast::ExprKind::Call {
            callee: ast::Ident {
                name: "zeros".into(),
                span,
            },
            targs: Vec::new(),
            args: vec![literal(Value::I64(size as i64))],
        }),
    }
}

/// A template's parameters with the aliases in their types and default types resolved
/// (`template <Act A>` of an `enum class Act` is an `int` parameter; ginkgo's `template
/// <typename IndexType = size_type>` defaults to what `size_type` names).
fn alias_params(b: &template::Bindings, params: &mut [ast::TemplateParam]) {
    for p in params {
        match &mut p.kind {
            ast::TemplateParamKind::Value(ty, _) | ast::TemplateParamKind::Type(Some(ty)) => {
                b.ty(ty)
            }
            _ => {}
        }
    }
}

/// A specialisation's template argument with its aliases resolved: a bare name that `b` binds
/// as a type (`zero<cuComplex>`, read as a name) becomes that type.
fn resolve_arg(b: &template::Bindings, a: &mut ast::TemplateArg) {
    match a {
        ast::TemplateArg::Type(t) => b.ty(t),
        ast::TemplateArg::Value(ast::Expr {
            kind: ast::ExprKind::Name(n),
            ..
        }) => {
            if let Some(t) = b.types.get(n.as_str()) {
                *a = ast::TemplateArg::Type(t.clone());
            }
        }
        ast::TemplateArg::Value(_) => {}
    }
}

/// A copy of the module with every file-scope `typedef`/`using` name replaced by its type.
fn resolve_aliases(module: &ast::Module) -> ast::Module {
    let mut b = template::Bindings {
        class_members: std::rc::Rc::new(template::ClassMembers::of(module)),
        constructed: std::rc::Rc::new(
            module
                .structs
                .iter()
                .filter(|s| !s.ctors.is_empty())
                .map(|s| s.name.name.clone())
                .collect(),
        ),
        ..Default::default()
    };
    for (name, params, ty) in &module.alias_templates {
        b.alias_templates
            .insert(name.name.clone(), (params.clone(), ty.clone()));
    }
    for (name, ty) in &module.aliases {
        let mut ty = ty.clone();
        b.ty(&mut ty);
        b.types.insert(name.name.clone(), ty);
    }
    // A struct's member types are `S::name` outside it (`S<float>::name` of a specialisation);
    // a template's, which may name its parameters, only inside it.
    for s in &module.structs {
        if !s.template.is_empty() {
            continue;
        }
        let mut own = b.clone();
        for (name, ty) in &s.aliases {
            let mut ty = ty.clone();
            own.ty(&mut ty);
            own.types.insert(name.name.clone(), ty.clone());
            b.types
                .insert(format!("{}{}::{}", s.name.name, s.spec, name.name), ty);
        }
    }
    let mut m = module.clone();
    // A template's own parameters are bound where it is used.
    let open = |b: &template::Bindings, params: &[ast::TemplateParam]| template::Bindings {
        open: params.iter().map(|p| p.name.name.clone()).collect(),
        ..b.clone()
    };
    for k in &mut m.kernels {
        let name = k.name.name.clone();
        let mut template = std::mem::take(&mut k.template);
        *k = open(&b, &template).kernel(k, &name);
        for a in k.specialization.iter_mut().flatten() {
            resolve_arg(&b, a);
        }
        alias_params(&b, &mut template);
        k.template = template;
    }
    for f in &mut m.device_fns {
        let mut template = std::mem::take(&mut f.template);
        *f = open(&b, &template).function(f);
        alias_params(&b, &mut template);
        f.template = template;
    }
    for s in &mut m.specializations {
        s.function = b.function(&s.function);
        for a in &mut s.args {
            resolve_arg(&b, a);
        }
    }
    for c in &mut m.consts {
        b.ty(&mut c.ty);
        b.expr(&mut c.value);
    }
    for c in &mut m.constants {
        b.ty(&mut c.ty);
    }
    // `launch k<uint8>` with the file's `typedef unsigned char uint8;` (cuda-samples'
    // alignedTypes): the type the alias names.
    let in_sequences = m.sequences.iter_mut().flat_map(|q| &mut q.items);
    let launches = m
        .launches
        .iter_mut()
        .chain(in_sequences.filter_map(|i| match i {
            ast::SeqItem::Launch(l) => Some(l),
            ast::SeqItem::Stmt(_) => None,
        }));
    for l in launches {
        for a in &mut l.targs {
            match a {
                ast::TemplateArg::Type(t) => b.ty(t),
                ast::TemplateArg::Value(ast::Expr {
                    kind: ast::ExprKind::Name(n),
                    ..
                }) if b.types.contains_key(n.as_str()) => {
                    *a = ast::TemplateArg::Type(b.types[n.as_str()].clone());
                }
                ast::TemplateArg::Value(_) => {}
            }
        }
    }
    b.stmts(&mut m.shared);
    // A struct's members and methods; a template's own parameters hide the file's names and
    // are bound where it is used.
    for s in &mut m.structs {
        // `template <typename scalar_t, ReductionType REDUCE> struct Reducer`: an enum's
        // parameter is an integer one.
        alias_params(&b, &mut s.template);
        let mut b = open(&b, &s.template);
        for p in &s.template {
            b.types.remove(&p.name.name);
        }
        // `template <> struct Pick<real_t>` (SPIKE's `__dynamic_shmem__<cuDoubleComplex>`):
        // the specialisation of the type the alias names, which an instance's arguments,
        // resolved too, are matched against.
        if !s.spec.is_empty() {
            s.spec = spec_through_aliases(&b, &module.array_aliases, &s.spec);
        }
        for (name, ty) in &s.aliases {
            let mut ty = ty.clone();
            b.ty(&mut ty);
            b.types.insert(name.name.clone(), ty);
        }
        for f in &mut s.fields {
            b.ty(&mut f.ty);
            if let Some(init) = &mut f.init {
                b.expr(init);
            }
        }
        for f in s.methods.iter_mut().chain(&mut s.ctors) {
            let template = std::mem::take(&mut f.template);
            let mut own = b.clone();
            own.open
                .extend(template.iter().map(|p| p.name.name.clone()));
            *f = own.function(f);
            f.template = template;
        }
    }
    m
}

/// `<real_t, 4>`, a class specialisation's arguments, with each argument that is exactly the
/// unqualified name of a file alias of a plain type (no `const`, pointer, reference or array:
/// those change what a qualifier written beside the name means, or are no type simt's
/// instances spell) written as that type, `<float, 4>`; the others as written.
fn spec_through_aliases(
    b: &template::Bindings,
    arrays: &std::collections::HashSet<String>,
    spec: &str,
) -> String {
    let args: Vec<String> = crate::syntax::top_level_args(spec)
        .into_iter()
        .map(|a| match b.types.get(a.as_str()) {
            Some(t)
                if !t.is_const
                    && !t.pointer
                    && !t.reference
                    && !arrays.contains(&a)
                    && !a.contains("::") =>
            {
                b.substitute_text(&a)
            }
            _ => a,
        })
        .collect();
    format!("<{}>", args.join(", "))
}

/// What simt has of cuda_fp16.h and cuda_bf16.h, for a name of theirs it does not have.
pub(crate) const HALF_HELP: &str = "simt has cuda_fp16.h's and cuda_bf16.h's types (`half`, `half2`, `__nv_bfloat16`, `__nv_bfloat162`), their operators, the conversions (`__float2half`, `__half2float`, `__int2half_rn`, `__float2half_rz`, `__int2half_rd`, ...), `__hadd` `__hsub` `__hmul` `__hdiv` `__hfma` `__hneg` `__habs` `__hmax` `__hmin` and their `2` forms, the comparisons, `hsqrt`/`hexp`/`hlog`-style math and the bit views; write this one with those, or in `float`";

/// Whether a type is one of the C++ standard library's host-only classes (containers, strings,
/// streams, smart pointers), which no device code can use.
fn is_host_container(ty: &str) -> bool {
    const HOST: [&str; 17] = [
        "map",
        "unordered_map",
        "multimap",
        "set",
        "unordered_set",
        "multiset",
        "vector",
        "string",
        "list",
        "deque",
        "function",
        "shared_ptr",
        "unique_ptr",
        "ostream",
        "istream",
        "regex",
        "mutex",
    ];
    let name = ty.strip_prefix("std::").unwrap_or("");
    let name = name.split('<').next().unwrap_or(name);
    HOST.contains(&name)
}

/// `half`, `__half2`, `__nv_bfloat16`… (cuda_fp16.h's and cuda_bf16.h's types), and the
/// functions named after them (`__half2float`, `__float2half_rn`, `__hadd`, `__bfloat162float`).
pub(crate) fn is_half_precision(name: &str) -> bool {
    let name = groups::unqualified(name);
    matches!(
        name,
        "half"
            | "half2"
            | "__half"
            | "__half2"
            | "nv_bfloat16"
            | "nv_bfloat162"
            | "__nv_bfloat16"
            | "__nv_bfloat162"
            | "__hadd"
            | "__hsub"
            | "__hmul"
            | "__hdiv"
            | "__hfma"
            | "__hneg"
            | "__hmax"
            | "__hmin"
            | "__hadd2"
            | "__hmul2"
            | "__hfma2"
            | "hexp"
            | "hlog"
            | "hsqrt"
            | "hrsqrt"
            | "__heq"
            | "__hlt"
            | "__hgt"
            | "__hle"
            | "__hge"
    ) || name.contains("bfloat16")
        || (name.starts_with("__") && name.contains("half"))
        || [
            "__half",
            "__float2half",
            "__float22half",
            "__low2half",
            "__high2half",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The fix to suggest for a declaration the parser recognised but simt does not support
/// (`what` as [`ast::Module::unsupported`] words it).
fn unsupported_help(what: &str) -> &'static str {
    if what.starts_with("template arguments after") {
        "a definition `f<int>(...)` is an explicit specialisation: write `template <>` before it"
    } else if what.starts_with("a partial specialisation") {
        "C++ has none for functions: branch on the parameters inside the template (`if constexpr (N == 4)`), or define a `template <>` specialisation per argument list"
    } else if what.starts_with("the explicit specialisation of the member function") {
        "give the class a `static constexpr` member for the value parameter and branch on it inside the one member (`if constexpr (N == 3)`), or specialise the whole class (`template <> struct W<3> { ... };`)"
    } else if what.starts_with("an explicit specialisation of the member function") {
        "define the member template once for every argument, branching inside it (`if constexpr (std::is_same<R, float>::value)`), or make each specialisation a `__device__` function of its own"
    } else if what.contains("of a class this file does not define") {
        "paste the class's definition (from its header) above the member, or `#include \"header.cuh\"` beside the file"
    } else if what.contains("defined with template parameters other than") {
        "name the parameters as the class's `template <...>` does: `template <class T> __device__ R C<T>::f() { ... }`"
    } else if what.contains("texture reference") {
        "legacy texture references are read in 1-D only: bind a texture object (`cudaTextureObject_t t`, read with `tex2D<float>(t, x, y)`) in the launch section with `t = texture(img);`"
    } else if what.contains("to the array type") {
        "point to the array's elements instead (`const unsigned int* p`, indexed `p[row * N + k]`)"
    } else if what.contains("of a union type") {
        "declare the variable in the kernel that uses it, or make it a `__device__` array of the union's largest member"
    } else if what.starts_with("the variadic") {
        "simt expands the packs of `__device__` function templates and alias templates only: give the template one parameter per argument it is used with"
    } else if what.starts_with("the pointer to a pointer to a pointer") {
        crate::syntax::DEEP_POINTER_HELP
    } else if what.contains("__constant__") {
        "declare an array without a value, `__constant__ float c[9];`, and set it by name in the launch section: `c = [1, 2, 3, ...];`"
    } else {
        "declare one variable without an initialiser list, `__device__ int lut[4];`, and set it by name in the launch section: `lut = [1, 2, 3, 4];`"
    }
}

/// `flaot`: not a type this file knows, with the closest type name.
fn unknown_type(ty: &ast::TypeName) -> CheckError {
    if is_half_precision(&ty.base_text) {
        return CheckError::Unsupported {
            what: format!("the cuda_fp16.h / cuda_bf16.h type `{}`", ty.base_text),
            span: ty.span,
            help: Some(HALF_HELP.into()),
        };
    }
    // nvcc includes cuda_runtime.h by itself, which declares the vector types but not
    // cuComplex.h's (its includes: builtin_types.h, channel_descriptor.h, cuda_runtime_api.h,
    // driver_functions.h, host_defines.h, vector_functions.h): nvcc refuses these too.
    if matches!(
        ty.base_text.as_str(),
        "cuComplex" | "cuFloatComplex" | "cuDoubleComplex"
    ) {
        return CheckError::UnknownType {
            name: ty.base_text.clone(),
            span: ty.span,
            suggestion: Some(format!(
                "`{}` is declared in <cuComplex.h>, which nvcc does not include by itself (its implicit cuda_runtime.h does not include it either): add `#include <cuComplex.h>` at the top of the file",
                ty.base_text
            )),
        };
    }
    let bare = ty.base_text.trim_start_matches("::");
    if bare.starts_with("std::bool_constant<") || bare.starts_with("cuda::std::bool_constant<") {
        return CheckError::UnknownType {
            name: ty.base_text.clone(),
            span: ty.span,
            suggestion: Some(
                "`std::bool_constant` is declared in <type_traits>: add `#include <type_traits>` at the top of the file".into(),
            ),
        };
    }
    const TYPES: &[&str] = &[
        "bool", "char", "short", "int", "unsigned", "long", "float", "double", "size_t", "uint",
        "int32_t", "uint32_t", "int64_t", "uint64_t", "float2", "float4", "int2", "int4",
        "double2",
    ];
    CheckError::UnknownType {
        name: ty.base_text.clone(),
        span: ty.span,
        suggestion: did_you_mean(&ty.base_text, TYPES.iter().copied()).or_else(|| {
            Some("types are C's scalar types, CUDA's vector types, template parameters and `typedef`/`using` names".into())
        }),
    }
}

/// `thrust::tie(a, b) = p;` (or `std::tie`) of a pair: `{ auto t = p; a = t.first; b = t.second; }`,
/// the pair made once.
fn tie_split(target: &ast::Expr, value: &ast::Expr, span: Span) -> Option<ast::Stmt> {
    let ast::ExprKind::Call { callee, args, .. } = &target.kind else {
        return None;
    };
    if !matches!(
        callee.name.as_str(),
        "thrust::tie" | "std::tie" | "cuda::std::tie"
    ) || args.len() != 2
    {
        return None;
    }
    let held = ast::Ident {
        name: "__simt_tie".into(),
        span,
    };
    let stmt = |kind| ast::Stmt { kind, span };
    let mut auto = ast::TypeName::named("auto", span);
    auto.base = BaseType::Auto;
    let mut body = vec![stmt(ast::StmtKind::Decl {
        ty: auto,
        decls: vec![ast::Declarator::plain(held.clone(), Some(value.clone()))],
        of: None,
    })];
    for (arg, field) in args.iter().zip(["first", "second"]) {
        let member = ast::Expr {
            kind: ast::ExprKind::Member {
                base: Box::new(ast::Expr {
                    kind: ast::ExprKind::Name(held.name.clone()),
                    span,
                }),
                field: ast::Ident {
                    name: field.into(),
                    span,
                },
            },
            span,
        };
        body.push(stmt(ast::StmtKind::Assign {
            target: arg.clone(),
            op: None,
            op_span: span,
            value: member,
        }));
    }
    Some(stmt(ast::StmtKind::Block(body)))
}
