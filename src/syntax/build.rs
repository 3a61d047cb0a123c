//! Pest pairs → AST: one function per grammar rule, with checked literal parsing.

use pest::iterators::{Pair, Pairs};

use super::ast::*;
use super::class_names::ClassNames;
use super::error::ParseError;
use super::grammar::Rule;
use super::preprocess::SpanMap;
use super::scope::Using;
use crate::source::Span;

pub(super) type Result<T> = std::result::Result<T, ParseError>;

/// The binary operator a `bin_op` rule stands for; `None` for an operand.
fn binary_op(rule: Rule) -> Option<BinOp> {
    Some(match rule {
        Rule::op_lor => BinOp::Or,
        Rule::op_land => BinOp::And,
        Rule::op_bor => BinOp::BitOr,
        Rule::op_bxor => BinOp::BitXor,
        Rule::op_band => BinOp::BitAnd,
        Rule::op_eq => BinOp::Eq,
        Rule::op_ne => BinOp::Ne,
        Rule::op_lt => BinOp::Lt,
        Rule::op_gt => BinOp::Gt,
        Rule::op_le => BinOp::Le,
        Rule::op_ge => BinOp::Ge,
        Rule::op_shl => BinOp::Shl,
        Rule::op_shr => BinOp::Shr,
        Rule::op_add => BinOp::Add,
        Rule::op_sub => BinOp::Sub,
        Rule::op_mul => BinOp::Mul,
        Rule::op_div => BinOp::Div,
        Rule::op_rem => BinOp::Rem,
        _ => return None,
    })
}

/// How tightly C binds a binary operator: a higher level applies first.
fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::BitOr => 3,
        BinOp::BitXor => 4,
        BinOp::BitAnd => 5,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => 7,
        BinOp::Shl | BinOp::Shr => 8,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
    }
}

/// `target op= value`; a conditional target (StyleGAN3's `((G == 0) ? x : xref) += b;`, an
/// lvalue in C++ when both arms are) assigns the arm its condition picks.
fn assigned(target: Expr, op: Option<BinOp>, op_span: Span, value: Expr) -> StmtKind {
    let ExprKind::Ternary { cond, then, els } = target.kind else {
        return StmtKind::Assign {
            target,
            op,
            op_span,
            value,
        };
    };
    let arm = |place: Expr| {
        Box::new(Stmt {
            span: place.span,
            kind: assigned(place, op, op_span, value.clone()),
        })
    };
    StmtKind::If {
        cond: *cond,
        then: arm(*then),
        els: Some(arm(*els)),
        constexpr: false,
    }
}

/// `s` with its runs of white space made single spaces: a type as C spells it.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A builtin type's specifiers in the order simt names them: C allows them in any order
/// (`short unsigned int` is `unsigned short int`, `long unsigned` is `unsigned long`, `int
/// signed` is `signed int`), so they are put in sign, size, base order. Other texts (`float`,
/// `uint32_t`, `double3`) come back with their spaces made single.
pub(crate) fn c_spelling(text: &str) -> String {
    const ORDER: [&str; 7] = [
        "unsigned", "signed", "short", "long", "char", "int", "double",
    ];
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() < 2 || !parts.iter().all(|w| ORDER.contains(w)) {
        return parts.join(" ");
    }
    let mut sorted = parts;
    sorted.sort_by_key(|w| ORDER.iter().position(|o| o == w));
    sorted.join(" ")
}

/// Whether `text` declares a class (template) `name` itself (`struct name {`, `class name;`,
/// `struct name : base`), not only a specialisation of one (`struct name<My> {`).
fn declares_primary(text: &str, name: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].trim_end();
        let after = rest[at + name.len()..].trim_start();
        rest = &rest[at + name.len()..];
        let keyword = before.ends_with("struct") || before.ends_with("class");
        if keyword && after.starts_with(['{', ':', ';']) {
            return true;
        }
    }
    false
}

/// The names a qualified call in `text` may start with (`ns::f`, `S::g`, `T::h`): its `types`
/// ([`declared_types`]) and every namespace and namespace alias (`namespace cg = ...;`); and,
/// of those, the names that are namespaces and nothing else.
fn declared_scopes(
    text: &str,
    types: &std::collections::HashSet<String>,
) -> (
    std::collections::HashSet<String>,
    std::collections::HashSet<String>,
) {
    let mut scopes = types.clone();
    let mut namespaces = std::collections::HashSet::new();
    let mut aliases = std::collections::HashSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("namespace") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "namespace".len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        // `namespace a::b {`: each part, since a call inside `a` may name `b::f`.
        let name = rest.trim_start();
        let len = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(name.len());
        let words = name[..len]
            .split("::")
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
            .map(String::from);
        if name[len..].trim_start().starts_with('=') {
            aliases.extend(words);
        } else {
            namespaces.extend(words);
        }
    }
    scopes.extend(namespaces.iter().chain(&aliases).cloned());
    namespaces.retain(|n| !types.contains(n) && !aliases.contains(n));
    (scopes, namespaces)
}

/// The names `text` declares as types, found as C's "lexer hack" finds them: after `struct`,
/// `class`, `union`, `enum` and `typename`, before `=` after `using`, and the last name of a
/// `typedef` (its name before `;`, `[` or `)`). Scope is ignored: only where a parenthesised
/// name could be a type or a value does simt ask.
fn declared_types(text: &str) -> std::collections::HashSet<String> {
    let mut words: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_ascii_alphabetic() || c == '_' {
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        let (token, tail) = rest.split_at(len);
        if !token.trim().is_empty() {
            words.push(token);
        }
        rest = tail;
    }
    let is_name = |w: &str| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    let mut types = std::collections::HashSet::new();
    for (k, w) in words.iter().enumerate() {
        let next = |d: usize| words.get(k + d).copied().unwrap_or("");
        match *w {
            "struct" | "class" | "union" | "typename" if is_name(next(1)) => {
                types.insert(next(1).to_string());
            }
            "enum" => {
                let name = if matches!(next(1), "class" | "struct") {
                    next(2)
                } else {
                    next(1)
                };
                if is_name(name) {
                    types.insert(name.to_string());
                }
            }
            "using" if is_name(next(1)) && next(2) == "=" => {
                types.insert(next(1).to_string());
            }
            "typedef" => {
                let mut depth = 0i32;
                let mut last = None;
                // `typedef float T;`, `typedef int R[4];`, `typedef void (*fn)(int);`.
                for (d, t) in words[k + 1..].iter().enumerate() {
                    match *t {
                        "{" | "(" => depth += 1,
                        "}" | ")" => depth -= 1,
                        ";" if depth <= 0 => break,
                        _ => {}
                    }
                    let (before, after) = (words[k + d], words.get(k + 2 + d).copied());
                    let named = match after {
                        Some(";" | "[" | ",") => depth == 0,
                        Some(")") => depth == 1 && before == "*",
                        _ => false,
                    };
                    if is_name(t) && named {
                        last = Some(*t);
                    }
                }
                if let Some(name) = last {
                    types.insert(name.to_string());
                }
            }
            _ => {}
        }
    }
    types
}

/// Builds the AST of preprocessed text, with spans mapped back into the file.
pub(crate) struct Builder<'m> {
    pub(crate) map: &'m SpanMap,
    /// Structs defined inside a function or another struct, defined at file scope instead.
    hoisted: std::cell::RefCell<Vec<(StructDef, String)>>,
    /// `typedef unsigned int ROW_T[4];`: the sizes an array type's name adds to what it declares.
    array_aliases: std::cell::RefCell<std::collections::HashMap<String, Vec<Option<Expr>>>>,
    /// Members defined outside their class (`__device__ void C::f() { ... }`), with the class's
    /// name and template arguments as written, attached to the class at the end of the file.
    out_of_class: std::cell::RefCell<Vec<OutOfClass>>,
    /// Constructs the builder recognises but simt cannot run, for the checker to report.
    unsupported: std::cell::RefCell<Vec<(String, String, Span)>>,
    /// Friends without `__device__` defined in a class (host code), by name.
    host_friends: std::cell::RefCell<Vec<Ident>>,
    /// The named namespaces around the item being built, outermost first.
    namespace: std::cell::RefCell<Vec<String>>,
    /// Every namespace name declared so far: a type qualified by them names the type.
    namespace_names: std::cell::RefCell<std::collections::HashSet<String>>,
    /// The types a file's own `namespace std { ... }` declares (`<type_traits>`'s
    /// `bool_constant`): only these lose their `std::`, so `std::enable_if_t` stays the library's.
    std_types: std::cell::RefCell<std::collections::HashSet<String>>,
    /// Each type whose namespace qualifier was dropped (`hoomd::Scalar3` is `Scalar3`) as
    /// written, by where: [`ClassNames`] tells apart classes of one name that way.
    qualified_types: std::cell::RefCell<super::class_names::Written>,
    /// The namespace of each device function and kernel, in the module's order.
    scopes: std::cell::RefCell<super::scope::Scopes>,
    /// The members of the anonymous unions declared in the blocks being built (`union { int8_t
    /// int8[2]; int16_t int16; };` in a function), each with the local that holds its union:
    /// `int16` there is that local's member.
    anonymous: std::cell::RefCell<Vec<(String, String)>>,
    /// The type parameters of the templates being read: a declarator `T (&s)[4]` of one is a
    /// declaration, never a call.
    type_params: std::cell::RefCell<Vec<String>>,
    /// The `__device__` variables declared `extern` and not defined yet: a definition later
    /// in the file takes the declaration's place.
    externs: std::cell::RefCell<std::collections::HashSet<String>>,
    /// The names the file declares as types, read from its text when first needed: what
    /// `(T)(x)[i]` and `(T)*p` mean depends on whether `T` is one.
    type_names: std::cell::OnceCell<std::collections::HashSet<String>>,
    /// Whether the file declares a class template `numeric_limits` of its own (CUTLASS's
    /// `platform::numeric_limits`), not only specialisations of `std::numeric_limits`.
    own_numeric_limits: std::cell::OnceCell<bool>,
    /// `#pragma pack`: the packing in force for the structs defined from here, as written
    /// (`None`: C's alignment), and those `push` saved.
    pack: std::cell::RefCell<(Option<String>, Vec<Option<String>>)>,
    /// The names given to nested classes (`Outer__Inner`), with the names written
    /// (`Outer::Inner`): [`Module::made_names`].
    made_names: std::cell::RefCell<Vec<(String, String)>>,
}

impl<'m> Builder<'m> {
    /// A builder for text whose spans `map` maps into the file.
    pub(crate) fn new(map: &'m SpanMap) -> Self {
        Builder {
            map,
            hoisted: Default::default(),
            array_aliases: Default::default(),
            out_of_class: Default::default(),
            unsupported: Default::default(),
            host_friends: Default::default(),
            namespace: Default::default(),
            namespace_names: Default::default(),
            std_types: Default::default(),
            qualified_types: Default::default(),
            scopes: Default::default(),
            anonymous: Default::default(),
            type_params: Default::default(),
            externs: Default::default(),
            type_names: Default::default(),
            own_numeric_limits: Default::default(),
            pack: Default::default(),
            made_names: Default::default(),
        }
    }
    /// The only pest → `Span` conversion: where in the file the pair's text came from.
    pub(super) fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        self.map.span(s.start(), s.end())
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    /// Defines `def`, met inside another definition, at file scope, in the namespace it is in.
    fn hoist(&self, def: StructDef) {
        let ns = self.namespace.borrow().join("::");
        self.hoisted.borrow_mut().push((def, ns));
    }

    /// `file = { SOI ~ item* ~ EOI }`
    pub(crate) fn file(
        &self,
        pair: Pair<'_, Rule>,
    ) -> std::result::Result<Module, Vec<ParseError>> {
        let mut module = Module::default();
        let mut errors = Vec::new();
        let input = pair.as_span().get_input();
        let types = self.type_names.get_or_init(|| declared_types(input));
        self.own_numeric_limits
            .get_or_init(|| declares_primary(input, "numeric_limits"));
        (module.scopes, module.namespaces) = declared_scopes(input, types);
        self.items(pair, &mut module, &mut errors);
        self.scopes.borrow_mut().record(&module, "");
        for (def, ns) in self.hoisted.take() {
            module.structs.push(def);
            self.scopes.borrow_mut().hoisted(&ns);
        }
        let classes = ClassNames::of(&module, &self.scopes.borrow(), self.qualified_types.take());
        classes.rename(&mut module, &self.scopes.borrow());
        module.made_names.extend(self.made_names.take());
        // Members of the primary templates first: a member specialisation copies its class's
        // primary with every member the file defines, wherever the file defines it.
        let (specialised, plain): (Vec<_>, Vec<_>) = self
            .out_of_class
            .take()
            .into_iter()
            .partition(|m| m.specialises.is_some());
        for mut m in plain.into_iter().chain(specialised) {
            let owner = classes.owner(
                &self.scopes.borrow(),
                &m.owner.name,
                &m.enclosing,
                &m.body_using,
            );
            if let Some(owner) = owner {
                m.owner.name = owner;
            }
            self.attach(m, &mut module);
        }
        // A namespace with `using` lines may bring in what it does not declare (`namespace
        // util { using std::min; }` then `util::min(a, b)`): its qualified calls are not
        // refused for want of its own function.
        for (at, _) in &self.scopes.borrow().using {
            module
                .namespaces
                .remove(at.rsplit("::").next().unwrap_or(at));
        }
        for f in self.host_friends.take() {
            module
                .host_items
                .push((format!("friend function `{}`", f.name), f.span));
            module.host_functions.push(f);
        }
        module
            .unsupported
            .append(&mut self.unsupported.borrow_mut());
        module.array_aliases = self.array_aliases.borrow().keys().cloned().collect();
        super::scope::scope_functions(&mut module, &self.scopes.borrow(), &classes);
        super::inherit::inherit(&mut module);
        super::scope::qualify_kernels(&mut module, &self.scopes.borrow());
        if errors.is_empty() {
            Ok(module)
        } else {
            Err(errors)
        }
    }

    /// The items of a file or of a `namespace { ... }` block, into `module`.
    fn items(&self, pair: Pair<'_, Rule>, module: &mut Module, errors: &mut Vec<ParseError>) {
        for item in pair.into_inner() {
            let ns = self.namespace.borrow().join("::");
            self.scopes.borrow_mut().record(module, &ns);
            let result = match item.as_rule() {
                Rule::namespace_block => {
                    // `namespace at::native {` opens `at`, then `native` within it.
                    let names: Vec<String> = item
                        .clone()
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::ident)
                        .map(|p| p.as_str().to_string())
                        .collect();
                    for n in &names {
                        self.namespace_names.borrow_mut().insert(n.clone());
                        self.namespace.borrow_mut().push(n.clone());
                    }
                    let (structs, aliases) = (module.structs.len(), module.aliases.len());
                    self.items(item, module, errors);
                    let ns = self.namespace.borrow().join("::");
                    if ns == "std" || ns.ends_with("::std") {
                        let declared = module.structs[structs..].iter().map(|s| &s.name.name);
                        let declared =
                            declared.chain(module.aliases[aliases..].iter().map(|a| &a.0.name));
                        self.std_types.borrow_mut().extend(declared.cloned());
                    }
                    self.scopes.borrow_mut().record(module, &ns);
                    let depth = self.namespace.borrow().len() - names.len();
                    self.namespace.borrow_mut().truncate(depth);
                    Ok(())
                }
                Rule::namespace_decl => {
                    let mut scopes = self.scopes.borrow_mut();
                    match namespace_decl(item) {
                        NamespaceDecl::Using(u) => scopes.using.push((ns.clone(), u)),
                        NamespaceDecl::Alias(alias, target) => {
                            scopes.aliases.push((ns.clone(), alias, target));
                        }
                    }
                    Ok(())
                }
                Rule::using_enum => {
                    let named = item.into_inner().last().expect("grammar: an enum's name");
                    let prefix = format!("{}::", named.as_str().trim_start_matches("::"));
                    let enumerators: Vec<GlobalConst> = module
                        .consts
                        .iter()
                        .filter_map(|c| {
                            let own = c.name.name.strip_prefix(&prefix)?;
                            (!own.contains("::")).then(|| GlobalConst {
                                name: Ident {
                                    name: own.to_string(),
                                    span: c.name.span,
                                },
                                ..c.clone()
                            })
                        })
                        .collect();
                    // Of an enum simt has not read (a library's), the enumerators stay unknown
                    // names where they are used.
                    module.consts.extend(qualified(enumerators, &ns));
                    Ok(())
                }
                Rule::linkage_block => {
                    self.items(item, module, errors);
                    Ok(())
                }
                Rule::kernel => self.kernel(item).map(|mut k| {
                    if k.specialization.take().is_some() {
                        module.unsupported.push(outside_specialisation(&k.name));
                    }
                    self.nest_in_function(&k.name.name.clone(), &[], k.span, &mut k.body);
                    self.push_kernel(k, module);
                }),
                Rule::template_item => self.template_item(item, module),
                Rule::struct_def => self.tagged_struct_def(item).map(|(mut s, aliases)| {
                    self.nest_in_template(&mut s);
                    module.aliases.extend(aliases);
                    module.structs.push(s)
                }),
                Rule::host_struct_var => {
                    let span = self.span(&item);
                    self.struct_parts(item).map(|(mut def, name, vars)| {
                        def.name = name.unwrap_or(Ident {
                            name: format!("__anonymous_struct_{}", span.start),
                            span,
                        });
                        self.share_constants(&def);
                        module.structs.push(def);
                        for v in vars {
                            module
                                .host_items
                                .push((format!("variable `{}`", v.name), span));
                        }
                    })
                }
                Rule::enum_def => self.enum_def(item).map(|(alias, consts)| {
                    module.aliases.extend(alias);
                    module.consts.extend(qualified(consts, &ns));
                }),
                Rule::struct_fwd
                | Rule::pragma_op
                | Rule::fn_prototype
                | Rule::static_member_def
                | Rule::dtor_outside
                | Rule::host_ctor_outside => Ok(()),
                Rule::member_def => self.member_def(item, Vec::new(), Vec::new(), false),
                Rule::union_def => self.union_def(item).map(|(def, vars)| {
                    if let Some(v) = vars.first() {
                        module.unsupported.push((
                            format!("the file-scope variable `{}` of a union type", v.name),
                            v.name.clone(),
                            v.span,
                        ));
                    }
                    module.structs.push(def);
                }),
                // `inline gespmmAlg_t gespmmAlgSel(int, bool);` (dgSPARSE): a host function's
                // declaration.
                Rule::host_fn | Rule::host_prototype => {
                    self.host_fn(item, module);
                    Ok(())
                }
                Rule::host_macro_block => {
                    let name = item.into_inner().next().expect("grammar: the macro's name");
                    let what = format!("the macro block `{}(...) {{ ... }}`", name.as_str());
                    module.host_items.push((what, self.span(&name)));
                    Ok(())
                }
                Rule::file_shared => {
                    let decl = item
                        .into_inner()
                        .next()
                        .expect("grammar: a shared declaration");
                    let span = self.span(&decl);
                    self.shared_decl(decl).map(|kinds| {
                        module
                            .shared
                            .extend(kinds.into_iter().map(|kind| Stmt { kind, span }))
                    })
                }
                Rule::host_var => {
                    let span = self.span(&item);
                    let text: String = item.as_str().split(['=', ';']).next().unwrap_or("").into();
                    let name = text
                        .split([' ', '*', ',', '&', '\t', '\n'])
                        .filter(|w| !w.is_empty())
                        .nth(1)
                        .unwrap_or("")
                        .to_string();
                    module.host_items.push((format!("variable `{name}`"), span));
                    Ok(())
                }
                Rule::extern_decl => {
                    let span = self.span(&item);
                    let text = item.as_str();
                    let head =
                        text[..text.find(['(', ';', '[', '=']).unwrap_or(text.len())].trim_end();
                    let name = head
                        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or("");
                    module
                        .host_items
                        .push((format!("declaration `{name}`"), span));
                    Ok(())
                }
                Rule::type_alias => self.type_alias(item).map(|a| module.aliases.push(a)),
                Rule::host_alias => {
                    let name = item.into_inner().find(|p| p.as_rule() == Rule::ident);
                    let name = name.expect("grammar: a host alias has a name");
                    let what = format!("the type alias `{}`", name.as_str());
                    module.host_items.push((what, self.span(&name)));
                    Ok(())
                }
                Rule::explicit_instantiation => {
                    let span = self.span(&item);
                    let text = item.as_str();
                    let head = text[..text.find(['(', ';']).unwrap_or(text.len())].trim_end();
                    let what = format!("the explicit instantiation `{head}`");
                    module.host_items.push((what, span));
                    Ok(())
                }
                Rule::fn_ptr_alias => {
                    module.fn_pointer_types.push(self.fn_ptr_alias(item));
                    Ok(())
                }
                Rule::device_fn => self.device_fn(item).map(|(mut f, spec)| {
                    if spec.is_some() {
                        module.unsupported.push(outside_specialisation(&f.name));
                    }
                    self.nest_in_function(&f.name.name.clone(), &[], f.span, &mut f.body);
                    module.device_fns.push(f);
                }),
                Rule::global_const => self
                    .global_const(item)
                    .map(|c| module.consts.extend(qualified(c, &ns))),
                Rule::launch => self.launch(item).map(|l| module.launches.push(l)),
                // Host code that simt reads only for a launch section to copy: one in a
                // namespace, or one it cannot read (`{ 'ab' }`), stays skipped host code.
                Rule::host_array => {
                    if let (true, Ok(c)) = (ns.is_empty(), self.host_array(item)) {
                        module.constants.push(c);
                    }
                    Ok(())
                }
                Rule::sequence => self.sequence(item).map(|q| module.sequences.push(q)),
                Rule::constant_array => {
                    let mut ty = None;
                    for p in item.into_inner() {
                        match p.as_rule() {
                            Rule::ty => ty = Some(self.ty(p)),
                            Rule::constant_name => {
                                let (name, dims, init) = match self.constant_name(p) {
                                    Ok(n) => n,
                                    Err(e) => {
                                        errors.push(e);
                                        continue;
                                    }
                                };
                                module.constants.push(ConstantArray {
                                    ty: ty.clone().expect("grammar: the type comes first"),
                                    name,
                                    dims,
                                    memory: FileMemory::Constant,
                                    init,
                                    namespace: String::new(),
                                });
                            }
                            _ => {}
                        }
                    }
                    Ok(())
                }
                Rule::device_var => {
                    // `extern __device__ unsigned counter;` (Belewitte's bfs.hpp), defined in
                    // another file or further on: the variable, until a definition replaces it.
                    let declared = item
                        .clone()
                        .into_inner()
                        .any(|p| p.as_rule() == Rule::extern_kw);
                    self.device_var(item).map(|vars| {
                        let mut externs = self.externs.borrow_mut();
                        for v in vars {
                            let name = v.name.name.clone();
                            let was_extern = externs.contains(&name);
                            let at = module.constants.iter().position(|c| c.name.name == name);
                            match (at, declared, was_extern) {
                                (Some(_), true, _) => {}
                                (Some(k), false, true) => {
                                    module.constants[k] = v;
                                    externs.remove(&name);
                                }
                                _ => {
                                    if declared {
                                        externs.insert(name);
                                    }
                                    module.constants.push(v);
                                }
                            }
                        }
                    })
                }
                Rule::texture_ref => {
                    self.texture_ref(item, module);
                    Ok(())
                }
                Rule::constant_decl => {
                    let span = self.span(&item);
                    // The declared name: the last word before `[`, `=` or `;`.
                    let head = item.as_str().split(['[', '=', ';']).next().unwrap_or("");
                    let name = head.split_whitespace().last().unwrap_or("").to_string();
                    let what = if item.as_str().contains("__constant__") {
                        "this `__constant__` declaration (a nested initialiser list)"
                    } else {
                        "this `__device__` variable (a nested initialiser list, or several names in one declaration)"
                    };
                    module.unsupported.push((what.to_string(), name, span));
                    Ok(())
                }
                Rule::directive => {
                    self.pragma_pack(item.as_str());
                    Ok(())
                }
                _ => Ok(()),
            };
            if let Err(e) = result {
                errors.push(e);
            }
        }
    }

    /// `host_fn`: a function without `__device__` (or a template of one), skipped as host code;
    /// its name is kept so that a kernel calling it is told what it is.
    fn host_fn(&self, item: Pair<'_, Rule>, module: &mut Module) {
        let parts: Vec<Pair<'_, Rule>> = item.into_inner().collect();
        // `void Info<T>::reduceDim(int d) { ... }`: a member of a class, no free function.
        if let Some(owner) = parts.iter().position(|p| p.as_rule() == Rule::member_owner) {
            if let Some(name) = parts[owner..]
                .iter()
                .find(|p| matches!(p.as_rule(), Rule::ident | Rule::operator_name))
            {
                let span = self.span(&parts[owner]).to(self.span(name));
                let owners: String = parts[owner..]
                    .iter()
                    .take_while(|p| p.as_rule() == Rule::member_owner)
                    .map(|p| p.as_str().trim())
                    .collect();
                let what = format!("function `{owners}{}`", name.as_str());
                module.host_items.push((what, span));
                let name = name.as_str().to_string();
                module.host_functions.push(Ident { name, span });
            }
            return;
        }
        let name = parts
            .into_iter()
            .find(|p| matches!(p.as_rule(), Rule::scoped_name | Rule::operator_name));
        if let Some(p) = name {
            let span = self.span(&p);
            let text = p.as_str().to_string();
            module.host_items.push((format!("function `{text}`"), span));
            let last = text.rsplit("::").next().unwrap_or(&text).to_string();
            module.host_functions.push(Ident { name: last, span });
        }
    }

    /// `constant_name = { ident ~ array_dim* }`: a file-scope variable's name and dimensions.
    /// `{a, b, c}`: its items and where it is written.
    fn init_list(&self, pair: Pair<'_, Rule>) -> Result<(Vec<Expr>, Span)> {
        let span = self.span(&pair);
        let items = self.braced_items(pair)?;
        Ok((items, span))
    }

    /// The items of `{...}`: expressions, designated members (`.x = v`) and pack expansions
    /// (`{ 0.0f, args... }`, each element of the pack an item where the template is used).
    fn braced_items(&self, pair: Pair<'_, Rule>) -> Result<Vec<Expr>> {
        let mut items: Vec<Expr> = Vec::new();
        for e in pair.into_inner() {
            let item = match e.as_rule() {
                Rule::designated => {
                    let span = self.span(&e);
                    let mut parts = e.into_inner();
                    let field = self.ident(parts.next().expect("grammar: a member's name"));
                    let value = self.expr(parts.next().expect("grammar: a member's value"))?;
                    Expr {
                        kind: ExprKind::Designated {
                            field,
                            value: Box::new(value),
                        },
                        span,
                    }
                }
                Rule::pack_dots => {
                    let pattern = items.pop().expect("grammar: `...` follows an item");
                    Expr {
                        span: pattern.span.to(self.span(&e)),
                        kind: ExprKind::Pack(Box::new(pattern)),
                    }
                }
                _ => self.expr(e)?,
            };
            items.push(item);
        }
        Ok(items)
    }

    /// `static const uint32_t alpha_n[] = {...};` (see [`FileMemory::Host`]).
    fn host_array(&self, pair: Pair<'_, Rule>) -> Result<ConstantArray> {
        let mut ty = None;
        let mut named = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ty = Some(self.ty(p)),
                Rule::host_array_name => named = Some(self.constant_name(p)?),
                _ => {}
            }
        }
        let (name, dims, init) = named.expect("grammar: a name");
        Ok(ConstantArray {
            ty: ty.expect("grammar: the type comes first"),
            name,
            dims,
            memory: FileMemory::Host,
            init,
            namespace: String::new(),
        })
    }

    /// `name[N] = {a, b}` of a file-scope variable: its name, dimensions and initialiser (a
    /// list is an `ExprKind::List`).
    #[allow(clippy::type_complexity)]
    fn constant_name(
        &self,
        pair: Pair<'_, Rule>,
    ) -> Result<(Ident, Vec<Option<Expr>>, Option<Expr>)> {
        let mut parts = pair.into_inner();
        let name = self.ident(parts.next().expect("grammar: a name"));
        let (mut dims, mut init) = (Vec::new(), None);
        for p in parts {
            match p.as_rule() {
                Rule::array_dim => dims.push(self.array_dim(p)?),
                Rule::init_list => {
                    let (items, span) = self.init_list(p)?;
                    init = Some(Expr {
                        kind: ExprKind::List(items),
                        span,
                    });
                }
                _ => init = Some(self.expr(p)?),
            }
        }
        // `t[] = {0, 16, 235}`: an array sized by its initialiser has its items' count (C), here
        // as if written, so that `sizeof(t)` and every use see it.
        if let (
            [None],
            Some(Expr {
                kind: ExprKind::List(items),
                span,
            }),
        ) = (dims.as_slice(), &init)
        {
            if !items.is_empty() {
                dims[0] = Some(Expr {
                    kind: ExprKind::Int {
                        value: items.len() as u64,
                        unsigned: false,
                        long: false,
                        hex: false,
                    },
                    span: *span,
                });
            }
        }
        Ok((name, dims, init))
    }

    /// `device_var = { "__device__" ~ ty ~ constant_name ~ ("," ~ constant_name)* ~ ";" }`: one
    /// variable per name (`__device__ int d_a = 3, d_b = 4;`).
    fn device_var(&self, pair: Pair<'_, Rule>) -> Result<Vec<ConstantArray>> {
        let mut ty = None;
        let mut vars = Vec::new();
        let mut is_const = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                // `static const __device__ T x[]`: the `const` is the type's.
                Rule::leading_const => is_const = true,
                Rule::ty => {
                    let mut t = self.ty(p);
                    t.is_const |= is_const;
                    ty = Some(t);
                }
                Rule::constant_name => {
                    let (name, dims, init) = self.constant_name(p)?;
                    vars.push(ConstantArray {
                        ty: ty.clone().expect("grammar: device_var has a type"),
                        name,
                        dims,
                        memory: FileMemory::Device,
                        init,
                        namespace: String::new(),
                    });
                }
                _ => {}
            }
        }
        Ok(vars)
    }

    /// `texture<float, 1> tex;`: a 1-D texture reference read with `tex1Dfetch` is read-only
    /// global memory; any other (`tex2D`'s filtering and addressing) is reported as unsupported.
    fn texture_ref(&self, pair: Pair<'_, Rule>, module: &mut Module) {
        let span = self.span(&pair);
        let mut ty = None;
        let mut name = None;
        let mut args = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ty = Some(self.ty(p)),
                Rule::texture_arg => args.push(p.as_str().trim().to_string()),
                Rule::ident => name = Some(self.ident(p)),
                _ => {}
            }
        }
        let name = name.expect("grammar: a texture has a name");
        let one_d = args
            .first()
            .is_none_or(|d| d == "1" || d == "cudaTextureType1D");
        if !one_d {
            // `texture<float, 2>` or `texture<float, cudaTextureType2D>`.
            let shape = args[0].strip_prefix("cudaTextureType").map_or_else(
                || format!("{}-D", args[0]),
                |s| match s {
                    "2D" | "3D" => s.replace('D', "-D"),
                    _ => s.to_string(),
                },
            );
            module.unsupported.push((
                format!("the {shape} texture reference `{}`", name.name),
                name.name.clone(),
                span,
            ));
            return;
        }
        module.constants.push(ConstantArray {
            ty: ty.expect("grammar: a texture has a type"),
            name,
            dims: Vec::new(),
            memory: FileMemory::Texture,
            init: None,
            namespace: String::new(),
        });
    }

    /// `kernel = { "__global__" ~ "void" ~ ident ~ template_args? ~ "(" ~ params? ~ ")" ~ block }`:
    /// the kernel, with the template arguments written after its name as its specialisation's.
    fn kernel(&self, pair: Pair<'_, Rule>) -> Result<Kernel> {
        let span = self.span(&pair);
        let mut name = None;
        let mut specialization = None;
        let mut params = Vec::new();
        let mut body = Vec::new();
        let mut enable_if = None;
        let mut owners = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident => name = Some(self.ident(p)),
                Rule::kernel_owner => {
                    owners.push(p.as_str().trim_end_matches("::").trim().to_string())
                }
                Rule::template_args => specialization = Some(self.template_args(p)?),
                Rule::params => params = self.params(p),
                Rule::block => body = self.block(p)?,
                Rule::kernel_enable_if => {
                    let ty = p.into_inner().next().expect("grammar: a type");
                    enable_if = Some(self.ty(ty));
                }
                _ => {}
            }
        }
        Ok(Kernel {
            name: name.expect("grammar: kernel has a name"),
            template: Vec::new(),
            specialization,
            params,
            enable_if,
            body,
            span,
            namespace: owners.join("::"),
        })
    }

    /// Adds kernel `k` to `module`; one defined as `ns::k` outside its namespace is recorded in
    /// it, within the namespace the definition is in.
    fn push_kernel(&self, mut k: Kernel, module: &mut Module) {
        if k.namespace.is_empty() {
            module.kernels.push(k);
            return;
        }
        let here = self.namespace.borrow().join("::");
        let owner = std::mem::take(&mut k.namespace);
        let inside = if here.is_empty() {
            owner
        } else {
            format!("{here}::{owner}")
        };
        let mut scopes = self.scopes.borrow_mut();
        scopes.record(module, &here);
        module.kernels.push(k);
        scopes.record(module, &inside);
    }

    /// `trailing_ret = { "->" ~ (decltype_ty | ty ~ reference?) }` of a function whose type before
    /// its name is `leading`: the return type, and the expression of a `decltype` (then the type
    /// is `auto`, made when the function is called). C++ wants plain `auto` before the name.
    fn trailing_ret(
        &self,
        pair: Pair<'_, Rule>,
        leading: &TypeName,
    ) -> Result<(TypeName, Option<Box<Expr>>)> {
        if leading.base != BaseType::Auto || leading.pointer || leading.reference {
            let written = format!(
                "{}{}{}",
                leading.base_text,
                if leading.pointer { "*" } else { "" },
                if leading.reference { "&" } else { "" }
            );
            return Err(ParseError::Syntax {
                expected: "`auto` before the name of a function with a trailing return type"
                    .into(),
                span: leading.span,
                found: format!("found `{written}`"),
                macro_body: None,
                help: Some(format!(
                    "write `auto` there, or drop the `-> ...` after the parameters and keep `{written}`"
                )),
            });
        }
        let mut ret = leading.clone();
        let mut decltype = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ret = self.ty(p),
                Rule::reference => ret.reference = true,
                Rule::decltype_ty => {
                    let e = p.into_inner().find(|q| q.as_rule() == Rule::expr);
                    let e = e.expect("grammar: decltype has an expression");
                    decltype = Some(Box::new(self.expr(e)?));
                }
                _ => {}
            }
        }
        Ok((ret, decltype))
    }

    /// `device_fn = { ("__device__" | ...)+ ~ ty ~ ident ~ template_args? ~ "(" ~ params? ~ ")" ~ block }`:
    /// the function, and the template arguments written after its name (a specialisation's).
    fn device_fn(&self, pair: Pair<'_, Rule>) -> Result<(Function, Option<Vec<TemplateArg>>)> {
        let span = self.span(&pair);
        let mut spec = None;
        let mut ret = None;
        let mut name = None;
        let mut params = Vec::new();
        let mut body = Vec::new();
        let mut ret_decltype = None;
        let mut is_const = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ret = Some(self.ty(p)),
                Rule::reference => {
                    if let Some(r) = ret.as_mut() {
                        r.reference = true;
                    }
                }
                Rule::trailing_ret => {
                    let leading = ret
                        .as_ref()
                        .expect("grammar: the type before the name comes first");
                    let (t, d) = self.trailing_ret(p, leading)?;
                    ret = Some(t);
                    ret_decltype = d;
                }
                Rule::ident => name = Some(self.ident(p)),
                Rule::operator_name => name = Some(self.operator_name(&p)),
                Rule::template_args => spec = Some(self.template_args(p)?),
                Rule::params => params = self.params(p),
                Rule::block => body = self.block(p)?,
                // After the parameters (the return type's own are inside its `ty`).
                Rule::qualifier => is_const |= p.as_str() == "const",
                _ => {}
            }
        }
        let f = Function {
            template: Vec::new(),
            ret: ret.expect("grammar: device_fn has a return type"),
            ret_decltype,
            name: name.expect("grammar: device_fn has a name"),
            params,
            body,
            is_const,
            span,
        };
        Ok((f, spec))
    }

    /// `friend_fn = { "friend" ~ member_fn }`: the function the friend defines.
    fn friend_fn(&self, pair: Pair<'_, Rule>) -> Result<Function> {
        let f = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::member_fn)
            .expect("grammar: a friend defines a function");
        Ok(self.device_fn(f)?.0)
    }

    /// `friend_host`: a friend without `__device__`, host code, skipped as a host function is
    /// (a kernel calling it is told it is host code).
    fn host_friend(&self, pair: Pair<'_, Rule>) {
        let name = pair
            .into_inner()
            .find(|p| matches!(p.as_rule(), Rule::ident | Rule::operator_name));
        if let Some(p) = name {
            let name: String = p.as_str().split_whitespace().collect();
            self.host_friends.borrow_mut().push(Ident {
                name,
                span: self.span(&p),
            });
        }
    }

    /// `struct_def = { "struct" ~ ident ~ template_args? ~ "{" ~ struct_member* ~ "}" ~ ";" }`
    fn struct_def(&self, pair: Pair<'_, Rule>) -> Result<StructDef> {
        Ok(self.tagged_struct_def(pair)?.0)
    }

    /// `#pragma pack(n)`, `pack(push, n)`, `pack(pop)`, `pack()`: the packing of the structs
    /// defined after it ([`Builder::pack`]); any other pragma changes nothing.
    fn pragma_pack(&self, text: &str) {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let Some(args) = text
            .strip_prefix("#pragmapack(")
            .and_then(|a| a.strip_suffix(')'))
        else {
            return;
        };
        let mut pack = self.pack.borrow_mut();
        let parts: Vec<&str> = args.split(',').filter(|p| !p.is_empty()).collect();
        // `pack(push, label, n)`, `pack(pop, n)`: a number after the first part is the new
        // packing; a label names nothing simt keeps.
        let number = parts[1.min(parts.len())..]
            .iter()
            .rfind(|p| p.parse::<u32>().is_ok());
        match parts.first() {
            None => pack.0 = None,
            Some(&"show") => {}
            Some(&"push") => {
                let current = pack.0.clone();
                pack.1.push(current);
            }
            Some(&"pop") => pack.0 = pack.1.pop().flatten(),
            // `pack(1)`, or anything else as written, which the structs after it refuse.
            Some(n) => pack.0 = Some(n.to_string()),
        }
        if let Some(n) = number {
            pack.0 = Some(n.to_string());
        }
    }

    /// [`Self::struct_def`] with the other names a file-scope `typedef struct Tag { ... } Name,
    /// *PName;` gives it: the tag where it is not the name (it names the struct inside it, its
    /// constructors and `operator=(const Tag&)`, and in C++ after it), and pointer types.
    fn tagged_struct_def(&self, pair: Pair<'_, Rule>) -> Result<(StructDef, Vec<Alias>)> {
        let span = self.span(&pair);
        let pointers: Vec<Ident> = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::pointer_alias)
            .map(|p| self.ident(p.into_inner().next().expect("grammar: a pointer's name")))
            .collect();
        let (mut def, before, mut after) = self.struct_parts(pair)?;
        // `typedef struct tag { ... } Name;` is known as `Name`, and `typedef struct { ... } A,
        // B;` as `B`, which `A` names too; `typedef struct { ... } *P;` has no name but its
        // pointer's.
        def.name = after.pop().or(before.clone()).unwrap_or(Ident {
            name: format!("__anonymous_struct_{}", span.start),
            span,
        });
        let tag = before.filter(|t| t.name != def.name.name);
        let mut aliases: Vec<Alias> = after
            .into_iter()
            .map(|n| {
                let own = TypeName::named(def.name.name.clone(), n.span);
                (n, own)
            })
            .collect();
        if let Some(t) = &tag {
            for c in def.ctors.iter_mut().filter(|c| c.name.name == t.name) {
                c.name.name.clone_from(&def.name.name);
            }
            let own = TypeName::named(def.name.name.clone(), t.span);
            def.aliases.push((t.clone(), own.clone()));
            aliases.push((t.clone(), own));
        }
        for name in pointers {
            let mut ty = TypeName::named(def.name.name.clone(), name.span);
            ty.pointer = true;
            aliases.push((name, ty));
        }
        Ok((def, aliases))
    }

    /// `nested_struct = { "typedef"? ~ "struct" ~ ident? ~ "{" ~ struct_member* ~ "}" ~ ident* ~
    /// ";" }`: the struct, defined at file scope, and the members of its type it declares (none
    /// after `typedef`, where the name after `}` is the struct's).
    fn nested_struct(&self, pair: Pair<'_, Rule>) -> Result<(Vec<Field>, Vec<Alias>)> {
        let span = self.span(&pair);
        let typedef = pair
            .clone()
            .into_inner()
            .any(|p| p.as_rule() == Rule::kw_typedef);
        let (mut def, name, members) = self.struct_parts(pair)?;
        // `typedef struct Tag { ... } half4, H;` names member types and declares no member: the
        // struct is `half4`, which `Tag` and `H` name too.
        if typedef {
            let mut names = members.into_iter();
            def.name = names
                .next()
                .or(name.clone())
                .expect("grammar: a typedef names its struct");
            let aliases = name
                .into_iter()
                .chain(names)
                .filter(|n| n.name != def.name.name)
                .map(|n| {
                    let own = TypeName::named(def.name.name.clone(), n.span);
                    (n, own)
                })
                .collect();
            self.hoist(def);
            return Ok((Vec::new(), aliases));
        }
        let anonymous = name.is_none() && members.is_empty();
        def.name = name.unwrap_or(Ident {
            name: format!("__anonymous_struct_{}", span.start),
            span,
        });
        Ok((self.members_of(def, members, anonymous), Vec::new()))
    }

    /// The members of a struct or union's type that a nested definition declares, the
    /// definition itself moved to file scope; `anonymous`: one member standing for an anonymous
    /// union or struct, whose members are the enclosing struct's (or union's).
    fn members_of(&self, def: StructDef, names: Vec<Ident>, anonymous: bool) -> Vec<Field> {
        let span = def.span;
        let ty = TypeName::named(def.name.name.clone(), span);
        let names = if anonymous {
            vec![Ident {
                name: format!("{ANONYMOUS_MEMBER}{}", span.start),
                span,
            }]
        } else {
            names
        };
        self.hoist(def);
        names
            .into_iter()
            .map(|name| Field {
                ty: ty.clone(),
                name,
                dims: Vec::new(),
                init: None,
                is_static: false,
                anonymous,
                pointer_to_pointer: false,
                align: None,
            })
            .collect()
    }

    /// `union_def = { "typedef"? ~ "union" ~ align_spec? ~ ident? ~ "{" ~ struct_member* ~ "}" ~
    /// ident* ~ ";" }`: the union and the names written after its `}` (variables or members of
    /// its type); a union without a name is named after where it starts.
    fn union_def(&self, pair: Pair<'_, Rule>) -> Result<(StructDef, Vec<Ident>)> {
        let span = self.span(&pair);
        let typedef = pair
            .clone()
            .into_inner()
            .any(|p| p.as_rule() == Rule::kw_typedef);
        let (mut def, before, mut after) = self.struct_parts(pair)?;
        def.is_union = true;
        // `typedef union { ... } U;` is known as `U`.
        let named = if typedef {
            after.pop().or(before)
        } else {
            before
        };
        def.name = named.unwrap_or(Ident {
            name: format!("{ANONYMOUS_UNION}{}", span.start),
            span,
        });
        Ok((def, after))
    }

    /// A struct's members, with the names written before its `{` and after its `}`.
    fn struct_parts(&self, pair: Pair<'_, Rule>) -> Result<(StructDef, Option<Ident>, Vec<Ident>)> {
        let span = self.span(&pair);
        let open = pair.as_span().start() + pair.as_str().find('{').unwrap_or(0);
        let mut before = None;
        let mut after = Vec::new();
        let mut spec = String::new();
        let mut methods = Vec::new();
        let mut ctors = Vec::new();
        let mut friends = Vec::new();
        let mut fields = Vec::new();
        let mut align = None;
        let mut packed = false;
        let mut unsupported = None;
        let mut aliases = Vec::new();
        let mut specials = Vec::new();
        let mut base = None;
        let mut base_args = String::new();
        let mut virtuals = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::special_member => {
                    let own = before.as_ref().map_or("", |i: &Ident| i.name.as_str());
                    match self.special_member(p, own) {
                        Ok(m) => specials.push(m),
                        Err(what) => {
                            unsupported.get_or_insert(what);
                        }
                    }
                }
                Rule::member_alias => {
                    let inner = p.into_inner().next().expect("grammar: a member alias");
                    aliases.push(self.type_alias(inner)?);
                }
                Rule::member_enum => {
                    let inner = p.into_inner().next().expect("grammar: a member enum");
                    let (types, consts) = self.enum_def(inner)?;
                    aliases.extend(types);
                    fields.extend(consts.into_iter().map(|c| Field {
                        ty: c.ty,
                        name: c.name,
                        dims: Vec::new(),
                        init: Some(c.value),
                        is_static: true,
                        anonymous: false,
                        pointer_to_pointer: false,
                        align: None,
                    }));
                }
                Rule::ident if p.as_span().start() < open => before = Some(self.ident(p)),
                Rule::ident => after.push(self.ident(p)),
                Rule::nested_struct => {
                    let (members, names) = self.nested_struct(p)?;
                    fields.extend(members);
                    aliases.extend(names);
                }
                // `class Impl;`: a nested class declared here and defined elsewhere (the pimpl
                // idiom, libSGM's StereoSGM); it adds no member.
                Rule::struct_fwd => {}
                Rule::bit_field => {
                    let name = p
                        .clone()
                        .into_inner()
                        .find(|q| q.as_rule() == Rule::ident)
                        .map_or_else(String::new, |q| q.as_str().to_string());
                    unsupported.get_or_insert((format!("the bit-field `{name}`"), self.span(&p)));
                }
                Rule::union_def => {
                    let typedef = p
                        .clone()
                        .into_inner()
                        .any(|q| q.as_rule() == Rule::kw_typedef);
                    let (def, names) = self.union_def(p)?;
                    let anonymous = names.is_empty() && !typedef;
                    fields.extend(self.members_of(def, names, anonymous));
                }
                Rule::type_targs => spec = squeeze(p.as_str()),
                Rule::base_clause if plain_base(&p).is_some() => {
                    base = plain_base(&p).map(|b| {
                        let mut name = self.ident(b);
                        name.name = name.name.trim_end().to_string();
                        name
                    });
                }
                Rule::device_virtual => {
                    let (f, member) = self.device_virtual(p)?;
                    methods.extend(f);
                    virtuals.extend(member);
                }
                Rule::base_clause => {
                    // `: public DevPtr<T>`: a class template's instance, which
                    // [`crate::syntax::inherit`] derives from when the file defines it, or else a
                    // trait whose `value` the class has.
                    if let Some((name, args)) = template_base(&p) {
                        base = Some(Ident {
                            name,
                            span: self.span(&p),
                        });
                        base_args = args;
                    }
                    match self.base_value(p)? {
                        Ok(value) => fields.push(value),
                        Err(what) => {
                            unsupported.get_or_insert(what);
                        }
                    }
                }
                Rule::packed => packed = true,
                Rule::align_spec => align = Some(self.align_spec(p)?),
                Rule::virtual_member => {
                    let head = p.as_str().split(['(', '{']).next().unwrap_or("");
                    let head = head.split_whitespace().collect::<Vec<_>>().join(" ");
                    unsupported.get_or_insert((
                        format!("the virtual member `{head}(...)`"),
                        self.span(&p),
                    ));
                }
                Rule::member_fn => methods.push(self.device_fn(p)?.0),
                Rule::host_method => methods.push(self.host_method(p)),
                Rule::friend_fn => friends.push(self.friend_fn(p)?),
                Rule::friend_host => self.host_friend(p),
                Rule::friend_decl => {}
                Rule::member_template => {
                    let mut params = Vec::new();
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::template_param => params.push(self.template_param(q)?),
                            Rule::member_fn | Rule::host_method => {
                                let mut f = match q.as_rule() {
                                    Rule::member_fn => self.device_fn(q)?.0,
                                    _ => self.host_method(q),
                                };
                                f.template = std::mem::take(&mut params);
                                methods.push(f);
                            }
                            Rule::friend_fn => {
                                let mut f = self.friend_fn(q)?;
                                f.template = std::mem::take(&mut params);
                                friends.push(f);
                            }
                            // wudip's `template <typename U> friend std::ostream&
                            // operator<<(...) { ... }`: host code.
                            Rule::friend_host => self.host_friend(q),
                            // OpenCV's `template <typename U> explicit PtrStepSz(const
                            // PtrStepSz<U>& d) : ...`: a constructor template.
                            Rule::ctor_def | Rule::host_ctor => {
                                let mut f = match q.as_rule() {
                                    Rule::ctor_def => self.ctor_def(q)?,
                                    _ => self.host_ctor(q),
                                };
                                f.template = std::mem::take(&mut params);
                                ctors.push(f);
                            }
                            _ => {}
                        }
                    }
                }
                Rule::ctor_def => ctors.push(self.ctor_def(p)?),
                Rule::host_ctor => ctors.push(self.host_ctor(p)),
                Rule::field_decl => fields.extend(self.field_decl(p)?),
                Rule::conversion_op => {
                    let fn_span = self.span(&p);
                    let mut ret = None;
                    let mut body = Vec::new();
                    let mut at = fn_span;
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::kw_operator => at = self.span(&q),
                            Rule::ty => ret = Some(self.ty(q)),
                            Rule::block => body = self.block(q)?,
                            _ => {}
                        }
                    }
                    methods.push(Function {
                        template: Vec::new(),
                        ret: ret.expect("grammar: a conversion has a type"),
                        ret_decltype: None,
                        name: Ident {
                            name: "operator".into(),
                            span: at,
                        },
                        params: Vec::new(),
                        body,
                        is_const: false,
                        span: fn_span,
                    });
                }
                _ => {}
            }
        }
        bind_references(&fields, &mut ctors);
        // `#pragma pack(1)` packs as `__attribute__((packed))` does; another packing is
        // refused where the struct is used rather than laid out with C's alignment.
        match self.pack.borrow().0.as_deref() {
            Some("1") => packed = true,
            Some(n) => {
                unsupported.get_or_insert((format!("`#pragma pack({n})`"), span));
            }
            None => {}
        }
        let def = StructDef {
            name: Ident {
                name: String::new(),
                span,
            },
            template: Vec::new(),
            spec,
            methods,
            ctors,
            friends,
            fields,
            align,
            packed,
            unsupported,
            is_union: false,
            aliases,
            specials,
            base,
            base_args,
            virtuals,
            namespace: String::new(),
            span,
        };
        Ok((def, before, after))
    }

    /// `device_virtual`: the member function (`None` for a destructor, which runs nothing, or a
    /// declaration whose body comes later or never) and what makes it virtual (`None` for a
    /// destructor).
    fn device_virtual(
        &self,
        pair: Pair<'_, Rule>,
    ) -> Result<(Option<Function>, Option<VirtualMember>)> {
        let rules: Vec<Rule> = pair.clone().into_inner().map(|p| p.as_rule()).collect();
        if !rules.contains(&Rule::ty) {
            return Ok((None, None));
        }
        let span = self.span(&pair);
        let f = self.device_fn(pair)?.0;
        let member = VirtualMember {
            name: f.name.name.clone(),
            arity: f.params.len(),
            pure: rules.contains(&Rule::pure_spec),
            span,
        };
        let f = rules.contains(&Rule::block).then_some(f);
        Ok((f, Some(member)))
    }

    /// `base_clause`: the member `static constexpr T value = v;` that a base
    /// `std::integral_constant<T, v>` (or `std::true_type`, `std::false_type`) gives the struct;
    /// any other base is what the struct cannot have, with where it is.
    fn base_value(
        &self,
        pair: Pair<'_, Rule>,
    ) -> Result<std::result::Result<Field, (String, Span)>> {
        let base = pair
            .into_inner()
            .find(|p| p.as_rule() != Rule::access_kw)
            .expect("grammar: a base class");
        let span = self.span(&base);
        let bool_ty = |span| TypeName {
            base: BaseType::Bool,
            base_text: "bool".into(),
            pointer: false,
            reference: false,
            is_const: true,
            span,
        };
        let (ty, init) = match base.as_rule() {
            Rule::integral_base => {
                let mut ty = None;
                let mut value = None;
                for p in base.into_inner() {
                    match p.as_rule() {
                        Rule::ty => ty = Some(self.ty(p)),
                        Rule::targ_expr => value = Some(self.climb(p.into_inner())?),
                        _ => {}
                    }
                }
                (
                    ty.expect("grammar: integral_constant's type"),
                    value.expect("grammar: integral_constant's value"),
                )
            }
            Rule::bool_base => {
                let truth = base.into_inner().any(|p| p.as_rule() == Rule::true_type);
                (
                    bool_ty(span),
                    Expr {
                        kind: ExprKind::Bool(truth),
                        span,
                    },
                )
            }
            // `: int_constant<sizeof(T) * 8>`, another trait's instance: its `value` (only).
            Rule::ty if base.as_str().contains('<') => (
                TypeName {
                    base: BaseType::Auto,
                    base_text: "auto".into(),
                    pointer: false,
                    reference: false,
                    is_const: true,
                    span,
                },
                Expr {
                    kind: ExprKind::Name(format!("{}::value", squeeze(base.as_str()))),
                    span,
                },
            ),
            _ => {
                return Ok(Err((
                    format!("the base class `{}`", base.as_str().trim()),
                    span,
                )))
            }
        };
        Ok(Ok(Field {
            ty,
            name: Ident {
                name: "value".into(),
                span,
            },
            dims: Vec::new(),
            init: Some(init),
            is_static: true,
            anonymous: false,
            pointer_to_pointer: false,
            align: None,
        }))
    }

    /// `special_member = { ... ~ "(" ~ special_param ~ ")" ~ "=" ~ (default_kw | delete_kw) }`
    /// of the class `own`; a constructor or parameter of another class (which C++ does not let
    /// be defaulted) is what the class cannot have, with where it is.
    fn special_member(
        &self,
        pair: Pair<'_, Rule>,
        own: &str,
    ) -> std::result::Result<SpecialMember, (String, Span)> {
        let span = self.span(&pair);
        let (mut assignment, mut moves, mut deleted) = (false, false, false);
        let mut ctor = None;
        let mut of = "";
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_operator => assignment = true,
                Rule::ident => ctor = Some(p.as_str()),
                Rule::delete_kw => deleted = true,
                Rule::special_param => {
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::ident if of.is_empty() => of = q.as_str(),
                            Rule::rvalue_ref => moves = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if of != own || ctor.is_some_and(|c| c != own) {
            let name = ctor.unwrap_or("operator=");
            return Err((
                format!(
                    "the member `{name}({of}&) = {}` (not a copy or move member of `{own}`)",
                    if deleted { "delete" } else { "default" }
                ),
                span,
            ));
        }
        // A deleted move member makes `return local;` an error in C++, which simt does not
        // tell from a copy.
        if deleted && moves {
            let what = if assignment {
                "assignment"
            } else {
                "constructor"
            };
            return Err((format!("the deleted move {what} of `{own}`"), span));
        }
        Ok(SpecialMember {
            assignment,
            moves,
            deleted,
            span,
        })
    }

    /// `ctor_def = { ident ~ "(" ~ params? ~ ")" ~ (":" ~ member_init ~ ...)? ~ block }`: a
    /// function named after the struct whose body starts with the initialiser list's assignments
    /// (`: x(a), v(b, c)` is `this->x = a; this->v = {b, c};`).
    fn ctor_def(&self, pair: Pair<'_, Rule>) -> Result<Function> {
        let span = self.span(&pair);
        let mut name = None;
        let mut params = Vec::new();
        let mut body = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident => name = Some(self.ident(p)),
                Rule::params => params = self.params(p),
                Rule::member_init => {
                    let init_span = self.span(&p);
                    let mut it = p.into_inner();
                    let field = self.ident(it.next().expect("grammar: a member to initialise"));
                    // `DevPtr<T>(d)`: the base's arguments are those of its class.
                    let mut args = it
                        .filter(|e| e.as_rule() != Rule::template_args)
                        .map(|e| self.expr(e))
                        .collect::<Result<Vec<_>>>()?;
                    let value = if args.len() == 1 {
                        args.pop().expect("checked: one argument")
                    } else {
                        Expr {
                            kind: ExprKind::List(args),
                            span: init_span,
                        }
                    };
                    // `this.x` ([`mem_init`]): a parameter of the member's own name (`x(x)`)
                    // must not hide the member it initialises.
                    body.push(Stmt {
                        kind: StmtKind::Assign {
                            target: mem_init(field),
                            op: None,
                            op_span: init_span,
                            value,
                        },
                        span: init_span,
                    });
                }
                Rule::block => body.extend(self.block(p)?),
                _ => {}
            }
        }
        let name = name.expect("grammar: a constructor has a name");
        Ok(constructor(name, params, body, span))
    }

    /// `const_cast<const T**>(p)`: `p` itself, since only the `const` of what it points to
    /// changes. simt follows a pointer to pointers only as declared, so another cast to one
    /// (`reinterpret_cast<float**>(q)`) is refused here.
    fn pointer_pointer_cast(
        &self,
        kind: &str,
        ty: TypeName,
        expr: Expr,
        span: Span,
    ) -> Result<Expr> {
        if kind == "const_cast" {
            return Ok(expr);
        }
        Err(ParseError::Syntax {
            expected: "`const_cast` to a pointer to a pointer".into(),
            span,
            found: format!("found `{kind}<{}**>`", ty.base_text),
            macro_body: None,
            help: Some(
                "simt follows a pointer to pointers as it is declared: declare the variable or parameter with the type the cast gives".into(),
            ),
        })
    }

    /// `host_method`: a member function whose body is host code; device code that calls it is
    /// told so, as for [`Self::host_ctor`].
    fn host_method(&self, pair: Pair<'_, Rule>) -> Function {
        let span = self.span(&pair);
        let (mut ret, mut name, mut params, mut reference) = (None, None, Vec::new(), false);
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ret = Some(self.ty(p)),
                Rule::reference => reference = true,
                Rule::ident | Rule::operator_name if name.is_none() => {
                    let text: String = p.as_str().split_whitespace().collect();
                    name = Some(Ident {
                        name: text,
                        span: self.span(&p),
                    });
                }
                Rule::params => params = self.params(p),
                _ => {}
            }
        }
        let name = name.expect("grammar: a member function has a name");
        let mut ret = ret.expect("grammar: a member function has a type");
        ret.reference |= reference;
        Function {
            template: Vec::new(),
            ret,
            ret_decltype: None,
            body: vec![host_code(
                &format!("the host member function `{}`", name.name),
                span,
            )],
            name,
            params,
            is_const: false,
            span,
        }
    }

    /// `host_ctor`: a constructor whose body is host code. Device code that constructs the
    /// class with it is told so (CUDA: "calling a __host__ function from a __global__ function
    /// is not allowed"); a kernel that takes the object as a parameter never runs it.
    fn host_ctor(&self, pair: Pair<'_, Rule>) -> Function {
        let span = self.span(&pair);
        let mut name = None;
        let mut params = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident if name.is_none() => name = Some(self.ident(p)),
                Rule::params => params = self.params(p),
                _ => {}
            }
        }
        let name = name.expect("grammar: a constructor has a name");
        let refusal = host_code(&format!("the host constructor `{}(...)`", name.name), span);
        constructor(name, params, vec![refusal], span)
    }

    /// `align_spec = { ("__align__" | "alignas" | ...) ~ "(" ~ (expr | align_type) ~ ")" |
    /// gnu_aligned }`: bytes, or a type's alignment.
    fn align_spec(&self, p: Pair<'_, Rule>) -> Result<Align> {
        let span = self.span(&p);
        Ok(match p.into_inner().next() {
            Some(e) if e.as_rule() == Rule::align_type => {
                Align::Type(self.ty(e.into_inner().next().expect("grammar: a type")))
            }
            Some(e) => Align::Bytes(self.expr(e)?),
            // `__attribute__((aligned))`: the largest alignment, 16 bytes.
            None => Align::Bytes(Expr {
                kind: ExprKind::Int {
                    value: 16,
                    unsigned: false,
                    long: false,
                    hex: false,
                },
                span,
            }),
        })
    }

    /// `field_decl = { decl_attribute* ~ align_spec? ~ var_decl ~ ";" }`: one member per
    /// declared name, each with the alignment written.
    fn field_decl(&self, pair: Pair<'_, Rule>) -> Result<Vec<Field>> {
        let mut inner = pair.into_inner().peekable();
        let align = match inner.next_if(|p| p.as_rule() == Rule::align_spec) {
            Some(a) => Some(self.align_spec(a)?),
            None => None,
        };
        let decl = inner.next().expect("grammar: a member declaration");
        let whole = decl.clone();
        let is_static = decl
            .clone()
            .into_inner()
            .next()
            .expect("grammar: a declaration has a type")
            .into_inner()
            .any(|q| q.as_rule() == Rule::qualifier && q.as_str() == "static");
        let (ty, decls, of) = match self.var_decl(decl)? {
            StmtKind::Decl { ty, decls, of } => (ty, decls, of),
            // `float ***x, ***y, ***z;` of a struct the host uses (FDTD's `P3F3`): members
            // simt holds but does not follow, as a pointer to pointers of another member type.
            StmtKind::Unsupported { what, .. } => {
                return self.deep_pointer_fields(whole, align, is_static, what)
            }
            _ => unreachable!("builder: var_decl builds a declaration"),
        };
        if of.is_some() {
            return Err(ParseError::Syntax {
                expected: "a member's type".into(),
                span: ty.span,
                found: "found `decltype(...)`".into(),
                macro_body: None,
                help: Some(
                    "simt reads `decltype(...)` as a local's type, not a member's: write the type"
                        .into(),
                ),
            });
        }
        Ok(decls
            .into_iter()
            .map(|d| Field {
                pointer_to_pointer: d.pointer_to_pointer,
                align: align.clone(),
                ty: TypeName {
                    pointer: d.pointer,
                    reference: d.reference,
                    ..ty.clone()
                },
                name: d.name,
                dims: d.dims,
                init: d.init.or(d.list.map(|(items, span)| Expr {
                    kind: ExprKind::List(items),
                    span,
                })),
                is_static,
                anonymous: false,
            })
            .collect())
    }

    /// The members of a `var_decl` some of whose names are pointers to pointers to pointers
    /// (`float ***x, ***y;`): each such one a pointer to `float**`, which simt holds without
    /// following it (a kernel that follows it is refused there); `what` refuses a declaration
    /// that also initialises a name.
    fn deep_pointer_fields(
        &self,
        decl: Pair<'_, Rule>,
        align: Option<Align>,
        is_static: bool,
        what: String,
    ) -> Result<Vec<Field>> {
        let span = self.span(&decl);
        let mut parts = decl.into_inner();
        let ty = self.ty(parts.next().expect("grammar: a declaration has a type"));
        let mut fields = Vec::new();
        for (k, d) in parts.enumerate() {
            let mut stars = usize::from(k == 0 && ty.pointer);
            let mut name = None;
            let mut dims = Vec::new();
            for p in d.into_inner() {
                match p.as_rule() {
                    Rule::pointer => stars += 1,
                    Rule::ident => name = Some(self.ident(p)),
                    Rule::array_dim => dims.push(self.array_dim(p)?),
                    _ => {
                        self.unsupported.borrow_mut().push((
                            format!("{what}, with a member initialiser in its declaration,"),
                            String::new(),
                            span,
                        ));
                        return Ok(Vec::new());
                    }
                }
            }
            let mut ty = TypeName {
                pointer: stars > 0,
                ..ty.clone()
            };
            if stars > 2 {
                ty.base = BaseType::Named;
                ty.base_text = format!("{}{}", ty.base_text, "*".repeat(stars - 1));
            }
            fields.push(Field {
                pointer_to_pointer: stars == 2,
                align: align.clone(),
                ty,
                name: name.expect("grammar: declarator has a name"),
                dims,
                init: None,
                is_static,
                anonymous: false,
            });
        }
        Ok(fields)
    }

    /// `params = { param ~ ("," ~ param)* }`
    fn params(&self, pair: Pair<'_, Rule>) -> Vec<Param> {
        // `f(void)`: no parameters (an unnamed parameter of type `void`, as the rule reads it).
        let text: String = pair.as_str().split_whitespace().collect();
        if text == "void" {
            return Vec::new();
        }
        pair.into_inner()
            .enumerate()
            .map(|(k, param)| {
                let span = self.span(&param);
                let mut it = param.into_inner();
                let ty_pair = it.next().expect("grammar: param has a type");
                let volatile = ty_pair
                    .clone()
                    .into_inner()
                    .any(|q| q.as_rule() == Rule::qualifier && q.as_str() == "volatile");
                let ty_text = words(ty_pair.as_str());
                let mut ty = self.ty(ty_pair);
                // `float (&a)[4]` is read as `float a[4]`: the caller's array, by its first element.
                let mut extent = None;
                let mut fn_type = None;
                let mut array_ptr = false;
                let parts: Vec<Pair<'_, Rule>> = it
                    .flat_map(|p| match p.as_rule() {
                        // `float (*func)(float, float)`: the type `float(*)(float,float)`.
                        Rule::fn_ptr_decl => {
                            let parts: Vec<_> = p.into_inner().collect();
                            let params: Vec<String> = parts
                                .iter()
                                .filter(|q| q.as_rule() == Rule::fn_ptr_param)
                                .map(|q| words(q.as_str()))
                                .collect();
                            fn_type = Some(format!("{ty_text} (*)({})", params.join(", ")));
                            parts
                                .into_iter()
                                .filter(|q| q.as_rule() == Rule::ident)
                                .collect()
                        }
                        Rule::array_ptr => {
                            array_ptr = true;
                            p.into_inner()
                                .filter(|q| q.as_rule() != Rule::qualifier)
                                .collect()
                        }
                        Rule::array_ref => {
                            let parts: Vec<_> = p.into_inner().collect();
                            let first = parts.iter().find(|q| q.as_rule() == Rule::param_array);
                            extent = first
                                .and_then(|q| q.clone().into_inner().next())
                                .and_then(|e| self.expr(e).ok());
                            parts
                        }
                        _ => vec![p],
                    })
                    .collect();
                if let Some(text) = fn_type {
                    ty = TypeName::named(text, ty.span);
                }
                let mut it = parts.into_iter().peekable();
                let pointer_to_pointer = it
                    .next_if(|p| p.as_rule() == Rule::pointer_to_pointer)
                    .is_some();
                // `Args&& args` (a forwarding reference) passes its argument on as `T&` does.
                let mut moves = false;
                if let Some(r) =
                    it.next_if(|p| matches!(p.as_rule(), Rule::reference | Rule::rvalue_ref))
                {
                    ty.reference = true;
                    moves = r.as_rule() == Rule::rvalue_ref;
                }
                let pack = it.next_if(|p| p.as_rule() == Rule::pack_dots).is_some();
                // An unnamed parameter (`volatile T* /*unused*/`) takes an argument nothing can
                // read: a name no source text can spell.
                let name = match it.peek().map(Pair::as_rule) {
                    Some(Rule::ident) => self.ident(it.next().expect("peeked: a name")),
                    _ => Ident {
                        name: unnamed_param(k + 1),
                        span,
                    },
                };
                // A parameter of an array type (`ROW_T r`) is a pointer to its first element,
                // as in C; a pointer to one (`const ROW_T* p`) would index rows of it.
                if self.alias_dims(&ty).is_some() {
                    if ty.pointer || ty.reference {
                        self.pointer_to_array(&ty, &name);
                    }
                    ty.pointer = true;
                }
                // `T (*p)[N]` is `T p[][N]`: each size is a row's. A pointer to arrays of
                // pointers (`T* (*p)[N]`) is not.
                if array_ptr {
                    if ty.pointer {
                        self.unsupported.borrow_mut().push((
                            format!("`{}`, a pointer to arrays of pointers", name.name),
                            name.name.clone(),
                            name.span,
                        ));
                    }
                    ty.pointer = true;
                }
                // `float in[]` is `float* in`; `= value` is a default argument.
                let mut default = None;
                let mut rows = Vec::new();
                for rest in it {
                    if rest.as_rule() == Rule::param_array {
                        // `float t[4][8]`: the first size is the pointer's, the rest its rows'.
                        if ty.pointer {
                            let size = rest.into_inner().next();
                            rows.extend(size.and_then(|e| self.expr(e).ok()));
                        }
                        ty.pointer = true;
                    } else {
                        default = self.expr(rest).ok();
                    }
                }
                Param {
                    ty,
                    name,
                    default,
                    volatile,
                    moves,
                    pack,
                    pointer_to_pointer,
                    rows,
                    extent,
                }
            })
            .collect()
    }

    /// `global_const = { ty ~ ident ~ "=" ~ expr ~ ";" }`
    fn global_const(&self, pair: Pair<'_, Rule>) -> Result<Vec<GlobalConst>> {
        let mut it = pair.into_inner();
        let ty = self.ty(it.next().expect("grammar: const has a type"));
        it.map(|d| {
            let mut parts = d.into_inner();
            let name = self.ident(parts.next().expect("grammar: const has a name"));
            let value = self.expr(parts.next().expect("grammar: const has a value"))?;
            Ok(GlobalConst {
                ty: ty.clone(),
                name,
                value,
            })
        })
        .collect()
    }

    /// `enum_def`: the enum's name as an alias of its underlying type (`int` unless written),
    /// and each enumerator as a `const` of it: its written value, or one more than the one
    /// before (the first is 0). A scoped enum's enumerators are named `Act::GELU`; a plain
    /// enum's by their own names and also so (C++11).
    fn enum_def(&self, pair: Pair<'_, Rule>) -> Result<(Vec<Alias>, Vec<GlobalConst>)> {
        let span = self.span(&pair);
        // `typedef enum { ... } NAME;`: the typedef's name is the type's (and, as C++ gives an
        // unnamed enum the typedef's name for linkage, what qualifies its enumerators).
        let typedef_name = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::enum_typedef_name)
            .and_then(|p| p.into_inner().next())
            .map(|p| self.ident(p));
        let mut scoped = false;
        let mut name = None;
        let mut ty = TypeName {
            base: BaseType::I32,
            base_text: "int".into(),
            pointer: false,
            reference: false,
            is_const: true,
            span,
        };
        let mut fixed = false;
        let mut consts = Vec::new();
        let mut previous: Option<Expr> = None;
        for p in pair.into_inner() {
            if name.is_none() && p.as_rule() == Rule::enumerator {
                name = typedef_name.clone();
            }
            match p.as_rule() {
                Rule::enum_scoped => scoped = true,
                Rule::ident => name = Some(self.ident(p)),
                Rule::ty => {
                    ty = self.ty(p);
                    ty.is_const = true;
                    fixed = true;
                }
                Rule::enumerator => {
                    let mut it = p.into_inner();
                    let e = self.ident(it.next().expect("grammar: an enumerator has a name"));
                    // The value before plus one: its expression again, not its name (a scoped
                    // enum's names are qualified, and an alias may not rewrite them).
                    let value = match (it.next(), previous.take()) {
                        (Some(v), _) => {
                            let mut v = self.expr(v)?;
                            // `ANY = UNDEFINED` in a scoped enum: the enumerator before, whose
                            // name is qualified outside the enum's braces.
                            if let (true, Some(n)) = (scoped, &name) {
                                qualify_enumerators(&mut v, &consts, &n.name);
                            }
                            v
                        }
                        (None, Some(prev)) => Expr {
                            kind: ExprKind::Binary {
                                op: BinOp::Add,
                                op_span: e.span,
                                lhs: Box::new(prev),
                                rhs: Box::new(Expr {
                                    kind: ExprKind::Int {
                                        value: 1,
                                        unsigned: false,
                                        long: false,
                                        hex: false,
                                    },
                                    span: e.span,
                                }),
                            },
                            span: e.span,
                        },
                        (None, None) => Expr {
                            kind: ExprKind::Int {
                                value: 0,
                                unsigned: false,
                                long: false,
                                hex: false,
                            },
                            span: e.span,
                        },
                    };
                    let qualified = name.as_ref().map(|n: &Ident| Ident {
                        name: format!("{}::{}", n.name, e.name),
                        span: e.span,
                    });
                    let own = match (&qualified, scoped) {
                        (Some(q), true) => q.clone(),
                        _ => e.clone(),
                    };
                    previous = Some(value.clone());
                    consts.push(GlobalConst {
                        ty: ty.clone(),
                        name: own,
                        value,
                    });
                    if let (Some(q), false) = (&qualified, scoped) {
                        consts.push(GlobalConst {
                            ty: ty.clone(),
                            name: q.clone(),
                            value: Expr {
                                kind: ExprKind::Name(e.name.clone()),
                                span: e.span,
                            },
                        });
                    }
                }
                _ => {}
            }
        }
        if !fixed && !scoped {
            // (A plain enum's qualified names, `E::A`, name the unqualified ones.)
            let own: Vec<GlobalConst> = consts
                .iter()
                .filter(|c| !c.name.name.contains("::"))
                .cloned()
                .collect();
            if let Some((wide, values)) = super::enums::wide_enum(&own) {
                ty = TypeName::named(wide, span);
                ty.base = base_type(wide);
                ty.is_const = true;
                let mut values = values.into_iter();
                for c in &mut consts {
                    c.ty = ty.clone();
                    if !c.name.name.contains("::") {
                        let v = values.next().expect("a value per enumerator");
                        c.value = Expr::integer(v, c.name.span);
                    }
                }
            }
        }
        let mut underlying = ty;
        underlying.is_const = false;
        let mut aliases: Vec<Alias> = name.map(|n| (n, underlying.clone())).into_iter().collect();
        if let Some(t) = typedef_name {
            if aliases.iter().all(|(n, _)| n.name != t.name) {
                aliases.push((t, underlying));
            }
        }
        Ok((aliases, consts))
    }

    /// `ty = { qualifier* ~ scalar_ty ~ qualifier* ~ (pointer ~ qualifier*)? }`
    fn ty(&self, pair: Pair<'_, Rule>) -> TypeName {
        let span = self.span(&pair);
        let mut base = BaseType::Void;
        let mut base_text = String::new();
        let mut pointer = false;
        let mut reference = false;
        let mut is_const = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::qualifier if !pointer && p.as_str().starts_with("const") => is_const = true,
                // `const T&` as a template argument (a `ty` has its `&` outside).
                Rule::reference => reference = true,
                Rule::scalar_ty => {
                    base_text = c_spelling(p.as_str());
                    base = base_type(&base_text);
                }
                Rule::named_ty => {
                    let written = squeeze(p.as_str());
                    base_text.clone_from(&written);
                    // `hoomd::Scalar3` names the `Scalar3` declared in namespace `hoomd`.
                    let names = self.namespace_names.borrow();
                    while let Some((first, rest)) =
                        base_text.trim_start_matches("::").split_once("::")
                    {
                        let head = rest.split(['<', ':']).next().unwrap_or(rest);
                        if !names.contains(first)
                            || (first == "std" && !self.std_types.borrow().contains(head))
                        {
                            break;
                        }
                        base_text = rest.to_string();
                    }
                    if base_text != written {
                        self.qualified_types
                            .borrow_mut()
                            .entry(span)
                            .or_default()
                            .push((base_text.clone(), written));
                    }
                    base = BaseType::named(&base_text);
                    // `std::size_t`, `std::uint8_t` (<cstddef>, <cstdint>): the C types.
                    if let Some(c) = base_text.trim_start_matches("::").strip_prefix("std::") {
                        if c.ends_with("_t") && base_type(c) != BaseType::Vector {
                            base = base_type(c);
                            base_text = c.to_string();
                        }
                    }
                }
                Rule::pointer => pointer = true,
                _ => {}
            }
        }
        TypeName {
            base,
            base_text,
            pointer,
            reference,
            is_const,
            span,
        }
    }

    /// `block = { "{" ~ stmt* ~ "}" }`
    fn block(&self, pair: Pair<'_, Rule>) -> Result<Vec<Stmt>> {
        // An anonymous union's members are names of the block that declares it.
        let outer = self.anonymous.borrow().len();
        let stmts = self.block_items(pair);
        self.anonymous.borrow_mut().truncate(outer);
        let mut stmts = stmts?;
        super::goto::structure(&mut stmts);
        Ok(stmts)
    }

    fn block_items(&self, pair: Pair<'_, Rule>) -> Result<Vec<Stmt>> {
        let mut stmts = Vec::new();
        for p in pair.into_inner() {
            if matches!(p.as_rule(), Rule::shared_decl | Rule::shared_aggregate) {
                let span = self.span(&p);
                let kinds = if p.as_rule() == Rule::shared_decl {
                    self.shared_decl(p)?
                } else {
                    self.aggregate_decl(p)?
                };
                for kind in kinds {
                    stmts.push(Stmt { kind, span });
                }
            } else if p.as_rule() == Rule::enum_def {
                let span = self.span(&p);
                for kind in self.local_enum(p)? {
                    stmts.push(Stmt { kind, span });
                }
            } else {
                stmts.push(self.stmt(p)?);
            }
        }
        Ok(stmts)
    }

    /// `enum { N = 4, M = N * 2 };` in a body (GPUJPEG's DCT): each enumerator a local
    /// constant of the enum's type, in order, and a named enum's name a local alias of it.
    fn local_enum(&self, pair: Pair<'_, Rule>) -> Result<Vec<StmtKind>> {
        let (aliases, consts) = self.enum_def(pair)?;
        let aliases = aliases
            .into_iter()
            .map(|(name, ty)| StmtKind::TypeAlias { name, ty });
        let consts = consts.into_iter().map(|c| StmtKind::Decl {
            ty: c.ty,
            of: None,
            decls: vec![Declarator::plain(c.name, Some(c.value))],
        });
        Ok(aliases.chain(consts).collect())
    }

    /// `shared_aggregate = { "__shared__" ~ align_spec? ~ (kw_union | kw_struct) ~ align_spec? ~
    /// ident? ~ "{" ~ struct_member* ~ "}" ~ ident ~ ("," ~ ident)* ~ ";" }` and `local_struct`,
    /// its local twin: the type (defined for the whole file, named after where it starts when
    /// it has no name) and one declaration per name after its `}`.
    fn aggregate_decl(&self, pair: Pair<'_, Rule>) -> Result<Vec<StmtKind>> {
        let span = self.span(&pair);
        let shared = pair.as_rule() == Rule::shared_aggregate;
        let is_union = pair
            .clone()
            .into_inner()
            .any(|p| p.as_rule() == Rule::kw_union);
        let (mut def, before, names) = self.struct_parts(pair)?;
        def.is_union = is_union;
        let kind = if is_union { "union" } else { "struct" };
        def.name = before.unwrap_or(Ident {
            name: format!("__anonymous_{kind}_{}", span.start),
            span,
        });
        let ty = TypeName::named(def.name.name.clone(), span);
        self.hoist(def);
        if shared {
            return Ok(names
                .into_iter()
                .map(|name| StmtKind::Shared {
                    ty: ty.clone(),
                    name,
                    dims: Vec::new(),
                    is_extern: false,
                })
                .collect());
        }
        let decls = names
            .into_iter()
            .map(|name| Declarator::plain(name, None))
            .collect();
        Ok(vec![StmtKind::Decl {
            ty,
            decls,
            of: None,
        }])
    }

    /// `__shared__ float a[4], b[4][8];`: one array per name.
    fn shared_decl(&self, pair: Pair<'_, Rule>) -> Result<Vec<StmtKind>> {
        let mut is_extern = false;
        let mut ty = None;
        // Each name with whether it is a pointer: the first as the type says, a later one when
        // a `*` of its own precedes it.
        let mut arrays: Vec<(Ident, Vec<Option<Expr>>, bool)> = Vec::new();
        let mut star = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::extern_kw => is_extern = true,
                Rule::ty => ty = Some(self.ty(p)),
                Rule::shared_star => star = true,
                Rule::ident => {
                    let first = ty.as_ref().is_some_and(|t| t.pointer) && arrays.is_empty();
                    arrays.push((self.ident(p), Vec::new(), first || star));
                    star = false;
                }
                Rule::array_dim => {
                    let dim = self.array_dim(p)?;
                    arrays
                        .last_mut()
                        .expect("grammar: dimensions follow a name")
                        .1
                        .push(dim);
                }
                _ => {}
            }
        }
        let ty = ty.expect("grammar: shared has a type");
        Ok(arrays
            .into_iter()
            .map(|(name, dims, pointer)| StmtKind::Shared {
                ty: TypeName {
                    pointer,
                    ..ty.clone()
                },
                name,
                dims,
                is_extern,
            })
            .collect())
    }

    /// `asm("template" : outputs : inputs : clobbers)`: the template's strings joined and
    /// unescaped, the operands built, the whole lowered by [`super::asm`].
    fn asm(&self, parts: Pair<'_, Rule>, span: Span) -> Result<StmtKind> {
        let mut template = String::new();
        let mut lists: Vec<Vec<super::asm::Operand>> = Vec::new();
        let mut clobbers = Vec::new();
        let mut basic = true;
        for p in parts.into_inner() {
            match p.as_rule() {
                Rule::asm_template => {
                    for s in p.into_inner() {
                        template.push_str(&unescape(s.as_str()));
                    }
                }
                Rule::asm_operands => {
                    basic = false;
                    let mut list = Vec::new();
                    for op in p.into_inner() {
                        let mut inner = op.into_inner();
                        let constraint = unescape(inner.next().expect("constraint").as_str());
                        let expr = self.expr(inner.next().expect("operand"))?;
                        list.push(super::asm::Operand { constraint, expr });
                    }
                    lists.push(list);
                }
                Rule::asm_clobbers => {
                    clobbers.extend(p.into_inner().map(|s| unescape(s.as_str())));
                }
                _ => {}
            }
        }
        let mut lists = lists.into_iter();
        let outputs = lists.next().unwrap_or_default();
        let inputs = lists.next().unwrap_or_default();
        Ok(super::asm::lower(
            &template, basic, outputs, inputs, &clobbers, span,
        ))
    }

    pub(super) fn stmt(&self, pair: Pair<'_, Rule>) -> Result<Stmt> {
        crate::stack::grow(|| self.stmt_at(pair))
    }

    fn stmt_at(&self, pair: Pair<'_, Rule>) -> Result<Stmt> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let kind = match rule {
            Rule::block => StmtKind::Block(self.block(pair)?),
            Rule::comma_stmt => StmtKind::Block(
                pair.into_inner()
                    .map(|p| self.simple(p))
                    .collect::<Result<Vec<_>>>()?,
            ),
            // `using namespace foo;` in a body counts for the whole function (scope.rs); a
            // namespace alias in a body is not followed.
            Rule::namespace_decl => {
                if let NamespaceDecl::Using(u) = namespace_decl(pair) {
                    self.scopes.borrow_mut().body.push(u);
                }
                StmtKind::Empty
            }
            // A function declared in a body (`extern __device__ void error(void);`) declares
            // nothing the simulation needs.
            Rule::pragma_then => {
                let annotated = pair.into_inner().last();
                return self.stmt_at(annotated.expect("grammar: a pragma annotates a statement"));
            }
            Rule::pragma_stmt | Rule::pragma_op | Rule::empty_stmt | Rule::fn_decl_stmt => {
                StmtKind::Empty
            }
            Rule::asm_stmt => match pair.into_inner().find(|p| p.as_rule() == Rule::asm_parts) {
                Some(parts) => self.asm(parts, span)?,
                None => StmtKind::Unsupported {
                    what: "this form of inline PTX assembly (`asm(...)`)".into(),
                    help: "simt runs `asm(\"template\" : outputs : inputs : clobbers)` with string-literal constraints and C++ operand expressions: write what the assembly computes in C++, or take the C++ branch the file has for other targets".into(),
                    invalid: false,
                    declares: Vec::new(),
                },
            },
            Rule::static_assert => match pair.clone().into_inner().find(|p| p.as_rule() == Rule::expr) {
                // `static_assert(cond, "why")` is the call `static_assert(cond, "why")`, which
                // the checker evaluates when `cond` is a constant.
                Some(cond) => {
                    let mut args = vec![self.expr(cond)?];
                    if let Some(why) = pair.into_inner().find(|p| p.as_rule() == Rule::string_lit) {
                        let s = why.as_str();
                        args.push(Expr {
                            kind: ExprKind::Str(s[1..s.len() - 1].to_string()),
                            span: self.span(&why),
                        });
                    }
                    StmtKind::Expr(Expr {
                        kind: ExprKind::Call {
                            callee: Ident {
                                name: "static_assert".into(),
                                span,
                            },
                            targs: Vec::new(),
                            args,
                        },
                        span,
                    })
                }
                None => StmtKind::Empty,
            },
            Rule::if_stmt => {
                let constexpr = pair
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::kw_constexpr);
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let decl = it.next().expect("grammar: if has a condition");
                let then = Box::new(self.stmt(it.next().expect("grammar: if has a body"))?);
                let els = it.next().map(|p| self.stmt(p)).transpose()?.map(Box::new);
                if decl.as_rule() != Rule::if_decl {
                    return Ok(Stmt {
                        kind: StmtKind::If {
                            cond: self.paren_item(decl)?,
                            then,
                            els,
                            constexpr,
                        },
                        span,
                    });
                }
                // `{ T x = e; if (x) ... }`: the variable's scope is the `if` and its `else`.
                let decl_span = self.span(&decl);
                let mut parts = decl.into_inner().peekable();
                let ty = self.ty(parts.next().expect("grammar: a declaration has a type"));
                let reference = parts
                    .next_if(|p| p.as_rule() == Rule::reference)
                    .is_some();
                let name = self.ident(parts.next().expect("grammar: a declaration has a name"));
                let init = self.expr(parts.next().expect("grammar: a declaration has a value"))?;
                let cond = Expr {
                    kind: ExprKind::Name(name.name.clone()),
                    span: name.span,
                };
                let declare = Stmt {
                    kind: StmtKind::Decl {
                        of: None,
                        decls: vec![Declarator {
                            // `int* p = ...`, `int& r = ...`: C's declarator holds the `*`.
                            pointer: ty.pointer,
                            reference,
                            ..Declarator::plain(name, Some(init))
                        }],
                        ty,
                    },
                    span: decl_span,
                };
                let test = Stmt {
                    kind: StmtKind::If {
                        cond,
                        then,
                        els,
                        constexpr,
                    },
                    span,
                };
                StmtKind::Block(vec![declare, test])
            }
            Rule::for_stmt => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let init = self.for_part(it.next().expect("grammar: for has init"))?;
                let cond_pair = it.next().expect("grammar: for has a condition");
                let cond = cond_pair
                    .into_inner()
                    .next()
                    .map(|e| self.paren_item(e))
                    .transpose()?;
                let step = self.for_part(it.next().expect("grammar: for has a step"))?;
                let body = Box::new(self.stmt(it.next().expect("grammar: for has a body"))?);
                StmtKind::For {
                    init,
                    cond,
                    step,
                    body,
                }
            }
            Rule::range_for_stmt => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let ty = self.ty(it.next().expect("grammar: a range-for declares a type"));
                let mut it = it.peekable();
                let reference = it
                    .next_if(|p| matches!(p.as_rule(), Rule::reference | Rule::rvalue_ref))
                    .is_some();
                let name = self.ident(it.next().expect("grammar: a range-for declares a name"));
                let range = self.expr(it.next().expect("grammar: a range-for has a range"))?;
                let body = self.stmt(it.next().expect("grammar: a range-for has a body"))?;
                super::range_for::RangeFor {
                    ty,
                    name,
                    reference,
                    range,
                    body,
                    span,
                }
                .lower()
            }
            Rule::while_stmt => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let cond = self.paren_item(it.next().expect("grammar: while has a condition"))?;
                let body = Box::new(self.stmt(it.next().expect("grammar: while has a body"))?);
                StmtKind::While { cond, body }
            }
            Rule::do_stmt => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let body = Box::new(self.stmt(it.next().expect("grammar: do has a body"))?);
                let cond = self.paren_item(it.next().expect("grammar: do has a condition"))?;
                StmtKind::DoWhile { body, cond }
            }
            Rule::switch_stmt => self.switch(pair)?,
            Rule::break_stmt => StmtKind::Break,
            Rule::goto_stmt => StmtKind::Goto(self.ident(
                pair.into_inner()
                    .find(|p| p.as_rule() == Rule::ident)
                    .expect("grammar: goto names a label"),
            )),
            Rule::delete_stmt => {
                let mut it = pair
                    .into_inner()
                    .filter(|p| p.as_rule() != Rule::kw_delete)
                    .peekable();
                let array = it.next_if(|p| p.as_rule() == Rule::delete_array).is_some();
                let ptr = self.expr(it.next().expect("grammar: delete has an operand"))?;
                StmtKind::Delete { ptr, array }
            }
            Rule::device_launch_stmt => StmtKind::Unsupported {
                invalid: false,
                declares: Vec::new(),
                what: "a kernel launch in device code (dynamic parallelism)".into(),
                help: "simt runs one grid per launch section, and a child grid cannot be launched from a thread: do the child's work in this kernel (a loop over what its blocks would do), or run the child kernel alone with a launch section of its own (`launch child { ... }`)".into(),
            },
            Rule::label_stmt => StmtKind::Label(
                self.ident(
                    pair.into_inner()
                        .next()
                        .expect("grammar: a label has a name"),
                ),
            ),
            Rule::continue_stmt => StmtKind::Continue,
            Rule::return_stmt => {
                let value = pair
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::paren_item)
                    .map(|e| self.paren_item(e))
                    .transpose()?;
                match value {
                    // `return rv += rhs;` (InfiniTAM's vector operators): the assignment, then
                    // the variable it assigned, which is the value of a built-in assignment and
                    // of an operator that returns `*this`.
                    Some(Expr {
                        kind:
                            ExprKind::Assign {
                                target,
                                op,
                                op_span,
                                value,
                            },
                        span: at,
                    }) if matches!(target.kind, ExprKind::Name(_)) => StmtKind::Block(vec![
                        Stmt {
                            kind: StmtKind::Assign {
                                target: (*target).clone(),
                                op,
                                op_span,
                                value: *value,
                            },
                            span: at,
                        },
                        Stmt {
                            kind: StmtKind::Return(Some(*target)),
                            span,
                        },
                    ]),
                    value => StmtKind::Return(value),
                }
            }
            Rule::shared_decl => {
                let mut arrays = self.shared_decl(pair)?;
                if arrays.len() == 1 {
                    arrays.pop().expect("one array")
                } else {
                    StmtKind::Block(arrays.into_iter().map(|kind| Stmt { kind, span }).collect())
                }
            }
            Rule::var_decl => self.var_decl(pair)?,
            Rule::structured_binding => {
                let mut names = Vec::new();
                let mut by_ref = false;
                let mut init = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::ident => names.push(self.ident(p)),
                        Rule::reference => by_ref = true,
                        // `const`: the copy's members are read-only; simt does not check it.
                        Rule::qualifier => {}
                        _ => init = Some(self.expr(p)?),
                    }
                }
                StmtKind::Bindings {
                    names,
                    by_ref,
                    init: init.expect("grammar: a structured binding has an initialiser"),
                }
            }
            Rule::shared_aggregate | Rule::local_struct => {
                let mut kinds = self.aggregate_decl(pair)?;
                if kinds.len() == 1 {
                    kinds.pop().expect("one declaration")
                } else {
                    StmtKind::Block(kinds.into_iter().map(|kind| Stmt { kind, span }).collect())
                }
            }
            // A struct defined in a function is defined for the whole file.
            Rule::struct_def => {
                let s = self.struct_def(pair)?;
                self.hoist(s);
                StmtKind::Empty
            }
            // `union { float f; int i; } u;`: the union is defined for the whole file, `u` here.
            Rule::union_def => {
                let (def, mut names) = self.union_def(pair)?;
                let ty = TypeName::named(def.name.name.clone(), span);
                // `union { int8_t int8[2]; int16_t int16; };` (C++ [class.union.anon]): a local
                // of its own, whose members the block names directly.
                let anonymous = names.is_empty() && def.name.name.starts_with(ANONYMOUS_UNION);
                if anonymous {
                    let var = format!("{ANONYMOUS_MEMBER}{}", span.start);
                    self.anonymous.borrow_mut().extend(
                        def.fields
                            .iter()
                            .filter(|f| !f.is_static)
                            .map(|f| (f.name.name.clone(), var.clone())),
                    );
                    names.push(Ident { name: var, span });
                }
                self.hoist(def);
                if names.is_empty() {
                    StmtKind::Empty
                } else {
                    let decls = names
                        .into_iter()
                        .map(|name| Declarator::plain(name, None))
                        .collect();
                    StmtKind::Decl {
                        ty,
                        decls,
                        of: None,
                    }
                }
            }
            Rule::type_alias => {
                let (name, ty) = self.type_alias(pair)?;
                StmtKind::TypeAlias { name, ty }
            }
            // An enum as the whole body of an `if` or a loop: its names are for that body only.
            Rule::enum_def => StmtKind::Block(
                self.local_enum(pair)?
                    .into_iter()
                    .map(|kind| Stmt { kind, span })
                    .collect(),
            ),
            Rule::assign | Rule::pre_incdec | Rule::expr => return self.simple(pair),
            _ => unreachable!("grammar: unexpected statement rule {rule:?}"),
        };
        Ok(Stmt { kind, span })
    }

    fn array_dim(&self, pair: Pair<'_, Rule>) -> Result<Option<Expr>> {
        pair.into_inner().next().map(|e| self.expr(e)).transpose()
    }

    /// `var_decl = { ty ~ declarator ~ ("," ~ declarator)* }`
    fn var_decl(&self, pair: Pair<'_, Rule>) -> Result<StmtKind> {
        let mut it = pair.into_inner();
        let first = it.next().expect("grammar: declaration has a type");
        let is_static = first
            .clone()
            .into_inner()
            .any(|q| q.as_rule() == Rule::qualifier && q.as_str() == "static");
        // `decltype(a + b) c = a + b;`: `auto` here, the checker gives the names `e`'s type.
        let (ty, of) = if first.as_rule() == Rule::decltype_ty {
            let span = self.span(&first);
            let e = first.into_inner().find(|q| q.as_rule() == Rule::expr);
            let e = self.expr(e.expect("grammar: decltype has an expression"))?;
            let mut auto = TypeName::named("auto", span);
            auto.base = BaseType::Auto;
            (auto, Some(Box::new(e)))
        } else {
            (self.ty(first), None)
        };
        let mut decls = Vec::new();
        // The first name declared three pointers deep, which refuses the declaration.
        let mut deep = None;
        for d in it {
            // `float* p, q;` declares one pointer, as in C: the type's `*` belongs to the first name.
            let mut pointer = decls.is_empty() && ty.pointer;
            let mut pointer_to_pointer = false;
            let mut stars = usize::from(pointer);
            let mut reference = false;
            let mut name = None;
            let mut dims = Vec::new();
            let mut init = None;
            let mut list = None;
            // `(*p)` or `(&s)`: `Some(true)` for a reference.
            let mut to_array = None;
            for p in d.into_inner() {
                match p.as_rule() {
                    // `T** p`: the type's `*` and this one.
                    Rule::pointer => {
                        pointer_to_pointer = pointer;
                        pointer = true;
                        stars += 1;
                    }
                    Rule::reference => reference = true,
                    Rule::ident => name = Some(self.ident(p)),
                    Rule::array_pointer => {
                        for q in p.into_inner() {
                            match q.as_rule() {
                                Rule::ident => name = Some(self.ident(q)),
                                r => to_array = Some(r == Rule::reference),
                            }
                        }
                    }
                    Rule::array_dim => dims.push(self.array_dim(p)?),
                    // `T x{v}` and `T x(v)` are `T x = v`; `P p{a, b}` and `P p(a, b)` build a
                    // struct from `{a, b}`.
                    Rule::brace_init | Rule::ctor_args => {
                        let span = self.span(&p);
                        let braces = p.as_rule() == Rule::brace_init;
                        let mut items = self.braced_items(p)?;
                        // `float sum[2] { 0.0f };` is `float sum[2] = { 0.0f };`.
                        if braces && !dims.is_empty() {
                            list = Some((items, span));
                            continue;
                        }
                        // (One pack expansion is as many items as the pack has.)
                        let single =
                            items.len() == 1 && !matches!(items[0].kind, ExprKind::Pack(_));
                        init = Some(if single {
                            items.pop().expect("checked: one item")
                        } else {
                            Expr {
                                kind: ExprKind::List(items),
                                span,
                            }
                        });
                    }
                    Rule::init_list => {
                        list = Some(self.init_list(p)?);
                    }
                    _ => init = Some(self.expr(p)?),
                }
            }
            let name = name.expect("grammar: declarator has a name");
            if stars > 2 && deep.is_none() {
                deep = Some(format!(
                    "the pointer to a pointer to a pointer `{}{} {}`",
                    ty.base_text,
                    "*".repeat(stars),
                    name.name
                ));
            }
            // `static int count;` starts at zero, as C++ gives static storage (`= {}`).
            if is_static && init.is_none() && list.is_none() {
                list = Some((Vec::new(), name.span));
            }
            // A local of an anonymous union's member's name hides the member.
            let mut anonymous = self.anonymous.borrow_mut();
            if anonymous.iter().any(|(member, _)| *member == name.name) {
                anonymous.push((name.name.clone(), String::new()));
            }
            drop(anonymous);
            if let Some(more) = self.alias_dims(&ty) {
                if pointer {
                    self.pointer_to_array(&ty, &name);
                } else {
                    dims.extend(more);
                }
            }
            // `auto& a = reinterpret_cast<float (&)[4]>(v);` (mamba): the cast is read as a
            // pointer to `v`'s first `float`, which `a` holds (a reference cannot bind a pointer
            // value, so no other reading is lost).
            if reference
                && ty.base == BaseType::Auto
                && matches!(&init, Some(Expr { kind: ExprKind::Cast { ty, .. }, .. }) if ty.pointer)
            {
                reference = false;
            }
            // `row(&v)[2] = 5;` reads as a declaration of `v` of type `row`: a name no template
            // parameter has, in lower case, is taken for the function call it more likely is.
            if let (Some(is_ref), true) = (to_array, decls.is_empty() && self.looks_called(&ty)) {
                return Ok(call_statement(&ty, name, is_ref, dims, init));
            }
            let mut rows = Vec::new();
            if let Some(is_ref) = to_array {
                (rows, init) = self.array_pointer(&ty, &name, dims, init, is_ref);
                dims = Vec::new();
                pointer = true;
            }
            decls.push(Declarator {
                name,
                pointer,
                pointer_to_pointer,
                reference,
                dims,
                rows,
                init,
                list,
            });
        }
        if let Some(what) = deep {
            return Ok(StmtKind::Unsupported {
                what,
                help: DEEP_POINTER_HELP.into(),
                invalid: false,
                declares: decls.into_iter().map(|d| d.name).collect(),
            });
        }
        Ok(StmtKind::Decl { ty, decls, of })
    }

    /// `for_init` / `for_step`: a declaration or a list of simple statements.
    fn for_part(&self, pair: Pair<'_, Rule>) -> Result<Vec<Stmt>> {
        let mut out = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::var_decl => {
                    let span = self.span(&p);
                    out.push(Stmt {
                        kind: self.var_decl(p)?,
                        span,
                    })
                }
                Rule::simple_list => {
                    for s in p.into_inner() {
                        out.push(self.simple(s)?);
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// `paren_item = { expr ~ (assign_op ~ paren_item)? }`: an expression, or an assignment
    /// as a value (`a = b = c` there is `a = (b = c)`); also a condition (`cond`), whose
    /// operator can only be a compound one.
    fn paren_item(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let span = self.span(&pair);
        let mut it = pair.into_inner();
        let target = self.expr(it.next().expect("grammar: a parenthesised item"))?;
        let Some(op_pair) = it.next() else {
            return Ok(target);
        };
        let op_span = self.span(&op_pair);
        let op = match op_pair.as_str() {
            "=" => None,
            s => Some(compound_op(s)),
        };
        let value = self.paren_item(it.next().expect("grammar: assign has a value"))?;
        Ok(Expr {
            kind: ExprKind::Assign {
                target: Box::new(target),
                op,
                op_span,
                value: Box::new(value),
            },
            span,
        })
    }

    /// `arg_assign = { ident ~ arg_eq ~ expr }`: `f(n = 4)`, an assignment as an argument.
    fn arg_assign(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let span = self.span(&pair);
        let mut it = pair.into_inner();
        let name = it.next().expect("grammar: an assigned name");
        let target = Expr {
            kind: ExprKind::Name(name.as_str().to_string()),
            span: self.span(&name),
        };
        let op_span = self.span(&it.next().expect("grammar: `=`"));
        let value = self.expr(it.next().expect("grammar: an assigned value"))?;
        Ok(Expr {
            kind: ExprKind::Assign {
                target: Box::new(target),
                op: None,
                op_span,
                value: Box::new(value),
            },
            span,
        })
    }

    /// `simple = _{ assign | pre_incdec | expr }`
    fn simple(&self, pair: Pair<'_, Rule>) -> Result<Stmt> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::assign => {
                let mut it = pair.into_inner();
                let target = self.unary(it.next().expect("grammar: assign has a target"))?;
                let op_pair = it.next().expect("grammar: assign has an operator");
                let op_span = self.span(&op_pair);
                let op = match op_pair.as_str() {
                    "=" => None,
                    s => Some(compound_op(s)),
                };
                let value = it.next().expect("grammar: assign has a value");
                if value.as_rule() == Rule::assign {
                    // `a = b = c;` is `b = c;` then `a = b;`: `b` holds the converted value.
                    // Deeper (`a = b = c = d;`), the inner chain is a block whose last
                    // assignment's target is `b`.
                    let inner = self.simple(value)?;
                    let mut last = &inner;
                    while let StmtKind::Block(chain) = &last.kind {
                        last = chain
                            .last()
                            .expect("grammar: a chain ends in an assignment");
                    }
                    let StmtKind::Assign { target: middle, .. } = &last.kind else {
                        unreachable!("grammar: an assign builds an assignment")
                    };
                    let outer = Stmt {
                        kind: StmtKind::Assign {
                            target,
                            op,
                            op_span,
                            value: middle.clone(),
                        },
                        span,
                    };
                    StmtKind::Block(vec![inner, outer])
                } else {
                    assigned(target, op, op_span, self.expr(value)?)
                }
            }
            Rule::pre_incdec => {
                let mut it = pair.into_inner();
                let inc = it.next().expect("grammar: incdec").as_str() == "++";
                let target = self.unary(it.next().expect("grammar: incdec target"))?;
                StmtKind::IncDec { target, inc }
            }
            _ => match self.expr(pair)? {
                // `x++;`: the increment as a statement.
                Expr {
                    kind: ExprKind::IncDec { target, inc, .. },
                    ..
                } => StmtKind::IncDec {
                    target: *target,
                    inc,
                },
                e => StmtKind::Expr(e),
            },
        };
        Ok(Stmt { kind, span })
    }

    /// `expr = { ternary }`
    pub(crate) fn expr(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        crate::stack::grow(|| self.expr_at(pair))
    }

    fn expr_at(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        match pair.as_rule() {
            Rule::expr => self.expr(
                pair.into_inner()
                    .next()
                    .expect("grammar: expr has a ternary"),
            ),
            Rule::ternary => {
                let span = self.span(&pair);
                let mut it = pair.into_inner();
                let cond = self.binary(it.next().expect("grammar: ternary has a head"))?;
                match (it.next(), it.next()) {
                    (Some(then), Some(els)) => Ok(Expr {
                        kind: ExprKind::Ternary {
                            cond: Box::new(cond),
                            then: Box::new(self.expr(then)?),
                            els: Box::new(self.expr(els)?),
                        },
                        span,
                    }),
                    _ => Ok(cond),
                }
            }
            Rule::binary => self.binary(pair),
            // A declaration's initialiser: an assignment-expression (`float m = a[i] = v;`).
            Rule::paren_item => self.paren_item(pair),
            _ => self.unary(pair),
        }
    }

    /// `binary = { unary ~ (bin_op ~ unary)* }`, by precedence climbing.
    fn binary(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        self.climb(pair.into_inner())
    }

    fn climb(&self, pairs: Pairs<'_, Rule>) -> Result<Expr> {
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        let mut pairs = pairs.peekable();
        let first = pairs.next().expect("grammar: a binary has an operand");
        // Most expressions have no operator: the operand itself.
        if pairs.peek().is_none() {
            return self.unary(first);
        }
        for p in std::iter::once(first).chain(pairs) {
            match binary_op(p.as_rule()) {
                Some(op) => ops.push((op, self.span(&p))),
                None => {
                    let cast = self.parenthesised_type(&p);
                    operands.push((self.unary(p)?, cast));
                }
            }
        }
        // `(scalar_t)*ptr`, `(T)-x`: a parenthesised type before `*`, `&`, `+` or `-` is a
        // cast of the operand after it (C's grammar: the operator is unary there), read right
        // to left so that `(T)-(U)*p` casts twice.
        for k in (0..ops.len()).rev() {
            let prefix = match ops[k].0 {
                BinOp::Mul => UnOp::Deref,
                BinOp::BitAnd => UnOp::AddrOf,
                BinOp::Add => UnOp::Plus,
                BinOp::Sub => UnOp::Neg,
                _ => continue,
            };
            let Some(ty) = operands[k].1.take() else {
                continue;
            };
            ops.remove(k);
            let (operand, _) = operands.remove(k + 1);
            let at = ty.span.to(operand.span);
            let unary = Expr {
                span: operand.span,
                kind: ExprKind::Unary {
                    op: prefix,
                    operand: Box::new(operand),
                },
            };
            operands[k].0 = Expr {
                kind: c_cast(ty, unary, at),
                span: at,
            };
        }
        let mut operands = operands.into_iter().map(|(e, _)| e);
        let mut out = vec![operands.next().expect("grammar: a binary has an operand")];
        let mut pending: Vec<(BinOp, Span)> = Vec::new();
        let reduce = |out: &mut Vec<Expr>, (op, op_span): (BinOp, Span)| {
            let rhs = out.pop().expect("an operand per operator");
            let lhs = out.pop().expect("an operand per operator");
            let span = lhs.span.to(rhs.span);
            out.push(Expr {
                kind: ExprKind::Binary {
                    op,
                    op_span,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            });
        };
        // Every binary operator is left-associative: one of the same or a tighter level before
        // it is applied first.
        for (op, operand) in ops.into_iter().zip(operands) {
            while let Some(&top) = pending.last() {
                if precedence(top.0) < precedence(op.0) {
                    break;
                }
                pending.pop();
                reduce(&mut out, top);
            }
            pending.push(op);
            out.push(operand);
        }
        while let Some(top) = pending.pop() {
            reduce(&mut out, top);
        }
        Ok(out.pop().expect("one expression is left"))
    }

    /// `p` is `(T)`, a parenthesised name the file declares as a type (or `half`): that type,
    /// for the cast it starts.
    fn parenthesised_type(&self, p: &Pair<'_, Rule>) -> Option<TypeName> {
        let text = p.as_str().trim();
        let name = text.strip_prefix('(')?.strip_suffix(')')?.trim();
        let last = name.rsplit("::").next()?;
        let word = |w: &str| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !name.split("::").all(word) {
            return None;
        }
        let types = self
            .type_names
            .get_or_init(|| declared_types(p.as_span().get_input()));
        if !types.contains(last) && BaseType::named(name) == BaseType::Named {
            return None;
        }
        Some(TypeName {
            base: BaseType::named(name),
            base_text: name.to_string(),
            pointer: false,
            reference: false,
            is_const: false,
            span: self.span(p),
        })
    }

    /// `unary = { prefix_op* ~ postfix_expr }`
    fn unary(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        if pair.as_rule() != Rule::unary {
            return self.postfix_expr(pair);
        }
        let end = self.span(&pair).end;
        let mut prefixes = Vec::new();
        let mut operand = None;
        for p in pair.into_inner() {
            if p.as_rule() == Rule::postfix_expr {
                operand = Some(self.postfix_expr(p)?);
            } else {
                prefixes.push(p);
            }
        }
        let mut expr = operand.expect("grammar: unary has an operand");
        for p in prefixes.into_iter().rev() {
            // A prefix written by a macro may map after the operand's end: keep the span ordered.
            let start = self.span(&p).start;
            let span = Span::new(start.min(end) as usize, end.max(start) as usize);
            let kind = match p.as_rule() {
                Rule::op_preinc => ExprKind::IncDec {
                    inc: p.as_str() == "++",
                    target: Box::new(expr),
                    post: false,
                },
                // The cast's pieces (qualifiers, the type name, `*`, `&`) are its children.
                Rule::cast => c_cast(self.ty(p), expr, span),
                Rule::array_cast => {
                    let mut it = p.into_inner();
                    let ty = self.ty(it.next().expect("grammar: the element type"));
                    let declarator = it.next().expect("grammar: the declarator");
                    array_cast(ty, declarator.as_str(), expr, span).kind
                }
                rule => {
                    let op = match rule {
                        Rule::op_neg => UnOp::Neg,
                        Rule::op_plus => UnOp::Plus,
                        Rule::op_not => UnOp::Not,
                        Rule::op_bnot => UnOp::BitNot,
                        Rule::op_deref => UnOp::Deref,
                        Rule::op_addr => UnOp::AddrOf,
                        r => unreachable!("grammar: {r:?} is not a prefix operator"),
                    };
                    ExprKind::Unary {
                        op,
                        operand: Box::new(expr),
                    }
                }
            };
            expr = Expr { kind, span };
        }
        Ok(expr)
    }

    /// `operator_name = { "operator" ~ overload_op }`: `operator==`, `operator( )` as `operator()`.
    fn operator_name(&self, p: &Pair<'_, Rule>) -> Ident {
        let symbol: String = p.as_str()["operator".len()..].split_whitespace().collect();
        Ident {
            name: format!("operator{symbol}"),
            span: self.span(p),
        }
    }

    /// `member = { "." ~ (ident | operator_name) }` (or `arrow`'s): the member's name, an
    /// operator's too (`a.operator+(b)`, `this->operator==(rhs)`).
    fn member_name(&self, p: Pair<'_, Rule>) -> Ident {
        let name = p.into_inner().next().expect("grammar: member has a name");
        if name.as_rule() == Rule::operator_name {
            self.operator_name(&name)
        } else {
            self.ident(name)
        }
    }

    /// `postfix_expr = { primary ~ postfix* }`
    fn postfix_expr(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        if pair.as_rule() != Rule::postfix_expr {
            return self.primary(pair);
        }
        let mut it = pair.into_inner();
        let first = it.next().expect("grammar: postfix has a primary");
        let cast = self.parenthesised_type(&first);
        let expr = self.primary(first)?;
        let rest: Vec<Pair<'_, Rule>> = it.collect();
        // `(scalar_t)((const T*)p.x)[i]`: a parenthesised type, then a parenthesised operand
        // with postfixes after it, is a cast of the whole postfix expression (C's postfix
        // operators bind tighter than a cast), not the functional cast `T(...)` indexed.
        if let (Some(ty), [call, more @ ..]) = (cast, &rest[..]) {
            let mut args = call.clone().into_inner();
            if let (Rule::call_args, false, Some(arg), None) =
                (call.as_rule(), more.is_empty(), args.next(), args.next())
            {
                if !matches!(arg.as_rule(), Rule::arg_assign | Rule::pack_dots) {
                    let operand = self.expr(arg)?;
                    let operand = self.postfixes(operand, more.iter().cloned())?;
                    let span = ty.span.to(operand.span);
                    return Ok(Expr {
                        kind: c_cast(ty, operand, span),
                        span,
                    });
                }
            }
        }
        self.postfixes(expr, rest)
    }

    /// `expr` with the postfix operators `pairs` applied to it in turn.
    fn postfixes<'i>(
        &self,
        mut expr: Expr,
        pairs: impl IntoIterator<Item = Pair<'i, Rule>>,
    ) -> Result<Expr> {
        for p in pairs {
            let span = expr.span.to(self.span(&p));
            let kind = match p.as_rule() {
                Rule::index => ExprKind::Index {
                    base: Box::new(expr),
                    index: Box::new(
                        // `stack[pos = 0]`: an assignment is a value there too.
                        self.paren_item(
                            p.into_inner().next().expect("grammar: index has an expr"),
                        )?,
                    ),
                },
                Rule::member => ExprKind::Member {
                    base: Box::new(expr),
                    field: self.member_name(p),
                },
                Rule::conversion_call => ExprKind::Cast {
                    ty: self.ty(p
                        .into_inner()
                        .find(|t| t.as_rule() == Rule::ty)
                        .expect("grammar: the type converted to")),
                    expr: Box::new(expr),
                },
                // `p->x` is `(*p).x`.
                Rule::arrow => ExprKind::Member {
                    base: Box::new(Expr {
                        span: expr.span,
                        kind: ExprKind::Unary {
                            op: UnOp::Deref,
                            operand: Box::new(expr),
                        },
                    }),
                    field: self.member_name(p),
                },
                Rule::call_args | Rule::template_call | Rule::template_brace | Rule::type_brace => {
                    let mut targs = Vec::new();
                    let mut args: Vec<Expr> = Vec::new();
                    // `f<T>(a, b...)`'s parts are its template arguments and its call's
                    // arguments; `f(a, b...)`'s are the arguments themselves.
                    let parts: Vec<Pair<'_, Rule>> = p
                        .into_inner()
                        .flat_map(|part| match part.as_rule() {
                            Rule::call_args => part.into_inner().collect::<Vec<_>>(),
                            _ => vec![part],
                        })
                        .collect();
                    for part in parts {
                        match part.as_rule() {
                            Rule::template_args => targs = self.template_args(part)?,
                            Rule::pack_dots => {
                                // `pattern...`: a pack expansion of the argument before.
                                let pattern =
                                    args.pop().expect("grammar: `...` follows an argument");
                                let span = pattern.span.to(self.span(&part));
                                args.push(Expr {
                                    kind: ExprKind::Pack(Box::new(pattern)),
                                    span,
                                });
                            }
                            Rule::arg_assign => args.push(self.arg_assign(part)?),
                            _ => args.push(self.expr(part)?),
                        }
                    }
                    match expr.kind {
                        ExprKind::Member { base, field } => ExprKind::Method {
                            object: base,
                            method: field,
                            targs,
                            args,
                        },
                        // `std::forward<Args>(args)` and `std::move(x)` change only whether
                        // the value may be moved from: the argument itself (its copy is
                        // the same value in simt).
                        ExprKind::Name(name) if is_std_forward(&name) && args.len() == 1 => {
                            args.pop().expect("one argument").kind
                        }
                        ExprKind::Name(name) => ExprKind::Call {
                            callee: Ident {
                                name,
                                span: expr.span,
                            },
                            targs,
                            args,
                        },
                        // `(*func)(x)`: a call through a function pointer is a call of it.
                        ExprKind::Unary {
                            op: UnOp::Deref,
                            operand,
                        } if matches!(operand.kind, ExprKind::Name(_)) => {
                            let ExprKind::Name(name) = operand.kind else {
                                unreachable!("matched: a name")
                            };
                            ExprKind::Call {
                                callee: Ident {
                                    name,
                                    span: operand.span,
                                },
                                targs,
                                args,
                            }
                        }
                        // `F<float>()(p, v)`: the `operator()` of a temporary function object.
                        // `(std::numeric_limits<float>::max)()`, the name in parentheses so
                        // that a `max` macro cannot expand (gnina): the member function's call.
                        ExprKind::Call {
                            callee,
                            targs: limit_ty,
                            args: none,
                        } if callee.name.contains("::numeric_limits_")
                            && none.is_empty()
                            && args.is_empty()
                            && targs.is_empty() =>
                        {
                            ExprKind::Call {
                                callee,
                                targs: limit_ty,
                                args: none,
                            }
                        }
                        kind @ ExprKind::Call { .. } => ExprKind::Method {
                            object: Box::new(Expr {
                                kind,
                                span: expr.span,
                            }),
                            method: Ident {
                                name: "operator()".into(),
                                span: expr.span,
                            },
                            targs,
                            args,
                        },
                        // `[&]() { ... }();`, a lambda called where it is written: `<lambda>`
                        // with the lambda as its first argument.
                        kind @ ExprKind::Lambda(_) => ExprKind::Call {
                            callee: Ident {
                                name: "<lambda>".into(),
                                span: expr.span,
                            },
                            targs,
                            args: std::iter::once(Expr {
                                kind,
                                span: expr.span,
                            })
                            .chain(args)
                            .collect(),
                        },
                        // `(f)(x)` and friends: a name the checker rejects.
                        _ => ExprKind::Call {
                            callee: Ident {
                                name: "<expression>".into(),
                                span: expr.span,
                            },
                            targs,
                            args,
                        },
                    }
                }
                Rule::post_inc_in_expr => ExprKind::IncDec {
                    inc: p.as_str().starts_with("++"),
                    target: Box::new(expr),
                    post: true,
                },
                r => unreachable!("grammar: {r:?} is not a postfix"),
            };
            expr = Expr { kind, span };
        }
        Ok(expr)
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int_lit => int_literal(pair.as_str(), span)?,
            Rule::float_lit => float_literal(pair.as_str(), span)?,
            Rule::bool_lit => ExprKind::Bool(pair.as_str() == "true"),
            // `operator==(rhs)` in a member: the operator function by its name.
            Rule::operator_name => ExprKind::Name(self.operator_name(&pair).name),
            // `typename T::Op(2)`: the type's name, called as a functional cast is.
            Rule::typename_name => ExprKind::Name(scoped(
                pair.clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::scoped_name)
                    .expect("grammar: typename names a type")
                    .as_str(),
            )),
            Rule::char_lit => char_literal(pair.as_str(), span)?,
            Rule::sizeof_expr => {
                let arg = pair
                    .into_inner()
                    .find(|p| p.as_rule() != Rule::kw_sizeof)
                    .expect("grammar: sizeof has an argument");
                match arg.as_rule() {
                    Rule::ty => self.sizeof_type(self.ty(arg), span),
                    Rule::sizeof_pack => ExprKind::SizeOfPack(
                        self.ident(arg.into_inner().next().expect("grammar: a pack's name")),
                    ),
                    _ => ExprKind::SizeOfExpr(Box::new(self.unary(arg)?)),
                }
            }
            Rule::alignof_expr => {
                // `alignof(T)` reads as the call `alignof<T>()`, which the checker answers.
                let mut inner = pair.into_inner();
                let kw = inner.next().expect("grammar: alignof's keyword");
                let ty = self.ty(inner.next().expect("grammar: alignof has a type"));
                ExprKind::Call {
                    callee: Ident {
                        name: "alignof".into(),
                        span: self.span(&kw),
                    },
                    targs: vec![TemplateArg::Type(ty)],
                    args: vec![],
                }
            }
            Rule::strings => ExprKind::Str(
                pair.into_inner()
                    .map(|p| {
                        let s = p.as_str();
                        s[1..s.len() - 1].to_string()
                    })
                    .collect(),
            ),
            Rule::ident | Rule::scoped_name => {
                let name = scoped(pair.as_str());
                let holder = self
                    .anonymous
                    .borrow()
                    .iter()
                    .rev()
                    .find(|(member, _)| *member == name)
                    .map(|(_, var)| var.clone())
                    .filter(|var| !var.is_empty());
                match holder {
                    Some(var) => ExprKind::Member {
                        base: Box::new(Expr {
                            kind: ExprKind::Name(var),
                            span,
                        }),
                        field: Ident { name, span },
                    },
                    None => ExprKind::Name(name),
                }
            }
            // `num_elems<T>::value`: one name, its template arguments as written (one space
            // between words), which template substitution rewrites.
            // `Cast < int > :: Twice` as a macro's expansion spaces it is `Cast<int>::Twice`.
            Rule::class_member => ExprKind::Name(scoped(&squeeze(pair.as_str()))),
            // `__builtin_bit_cast(T, x)`: the call `__builtin_bit_cast<T>(x)`.
            Rule::builtin_bit_cast => {
                let span = self.span(&pair);
                let mut it = pair.into_inner();
                let ty = self.ty(it.next().expect("grammar: a bit cast's type"));
                let value = self.expr(it.next().expect("grammar: a bit cast's value"))?;
                ExprKind::Call {
                    callee: Ident {
                        name: "__builtin_bit_cast".into(),
                        span,
                    },
                    targs: vec![TemplateArg::Type(ty)],
                    args: vec![value],
                }
            }
            // The call `std::numeric_limits_max<T>()`: one name, which no function's unqualified
            // name can be; the checker knows `<limits>`' values.
            Rule::numeric_limits => {
                // The file's own `numeric_limits<T>::max()` (CUTLASS's `platform`) is its class
                // member, as any other's.
                let text = squeeze(pair.as_str());
                let unqualified = pair
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::unqualified_limits);
                let declared = self.own_numeric_limits.get() == Some(&true);
                if unqualified && declared {
                    let kind = match text.strip_suffix("()") {
                        Some(member) => ExprKind::Call {
                            callee: Ident {
                                name: scoped(member),
                                span,
                            },
                            targs: Vec::new(),
                            args: Vec::new(),
                        },
                        None => ExprKind::Name(scoped(&text)),
                    };
                    return Ok(Expr { kind, span });
                }
                let mut ty = None;
                let mut member = None;
                let mut ns = "std";
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::ty => ty = Some(self.ty(p)),
                        Rule::ident => member = Some(self.ident(p)),
                        Rule::aten_ns => ns = "at",
                        _ => {}
                    }
                }
                let member = member.expect("grammar: a numeric_limits member");
                ExprKind::Call {
                    callee: Ident {
                        name: format!("{ns}::numeric_limits_{}", member.name),
                        span: member.span,
                    },
                    targs: vec![TemplateArg::Type(
                        ty.expect("grammar: a numeric_limits type"),
                    )],
                    args: Vec::new(),
                }
            }
            // The call `std::is_same<A, B>()` (or another predicate's): the checker evaluates it
            // once templates are bound.
            Rule::is_same => {
                let mut parts = pair.into_inner();
                let name = parts.next().expect("grammar: a trait's name").as_str();
                ExprKind::Call {
                    callee: Ident {
                        name: format!("std::{name}"),
                        span,
                    },
                    targs: parts.map(|t| TemplateArg::Type(self.ty(t))).collect(),
                    args: Vec::new(),
                }
            }
            Rule::lambda => {
                let mut by_value = Vec::new();
                let mut copy_default = false;
                let mut params = Vec::new();
                let mut ret = TypeName {
                    base: BaseType::Auto,
                    base_text: "auto".into(),
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span,
                };
                let mut body = Vec::new();
                let mut ret_decltype = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::capture => {
                            let text = p.as_str().trim();
                            if text == "=" {
                                copy_default = true;
                            } else if !text.starts_with('&') && text != "this" {
                                let span = self.span(&p);
                                by_value.push(Ident {
                                    name: text.to_string(),
                                    span,
                                });
                            }
                        }
                        Rule::params => params = self.params(p),
                        Rule::trailing_ret => (ret, ret_decltype) = self.trailing_ret(p, &ret)?,
                        Rule::block => body = self.block(p)?,
                        _ => {}
                    }
                }
                // A generic lambda's `auto` parameters are invented template type parameters of
                // its call operator (C++ [expr.prim.lambda.closure]/3), deduced at each call.
                let mut template = Vec::new();
                for p in &mut params {
                    if p.ty.base == BaseType::Auto {
                        let name = format!("__auto_{}", template.len() + 1);
                        p.ty.base = BaseType::Named;
                        p.ty.base_text.clone_from(&name);
                        template.push(TemplateParam {
                            name: Ident {
                                name,
                                span: p.ty.span,
                            },
                            kind: TemplateParamKind::Type(None),
                            pack: false,
                        });
                    }
                }
                ExprKind::Lambda(Box::new(Lambda {
                    by_value,
                    copy_default,
                    function: Function {
                        template,
                        ret,
                        ret_decltype,
                        name: Ident {
                            name: "<lambda>".into(),
                            span,
                        },
                        params,
                        body,
                        is_const: false,
                        span,
                    },
                }))
            }
            Rule::fn_instance | Rule::var_instance => self.targ_fn_spec(pair)?.kind,
            Rule::cpp_cast => {
                let kind = pair.as_str().split('<').next().unwrap_or_default().trim();
                let reinterpret = kind == "reinterpret_cast";
                let mut it = pair.into_inner();
                let mut ty = self.ty(it.next().expect("grammar: cast has a type"));
                let mut operand = it.next().expect("grammar: cast has an operand");
                if operand.as_rule() == Rule::cast_array {
                    let expr = self.expr(it.next().expect("grammar: cast has an operand"))?;
                    return Ok(array_cast(ty, operand.as_str(), expr, span));
                }
                if operand.as_rule() == Rule::cast_pp {
                    let expr = self.expr(it.next().expect("grammar: cast has an operand"))?;
                    return self.pointer_pointer_cast(kind, ty, expr, span);
                }
                let reference = operand.as_rule() == Rule::cast_ref;
                if reference {
                    operand = it.next().expect("grammar: cast has an operand");
                }
                let expr = self.expr(operand)?;
                match (reference && reinterpret, ty.pointer) {
                    // `reinterpret_cast<const int8_t&>(x)` is `*reinterpret_cast<const
                    // int8_t*>(&x)` ([expr.reinterpret.cast]/11): the object's bytes as a `T`.
                    (true, false) => {
                        ty.pointer = true;
                        let view = address_as(ty, expr, span);
                        ExprKind::Unary {
                            op: UnOp::Deref,
                            operand: Box::new(view),
                        }
                    }
                    // `static_cast<const float&>(x)`, `reinterpret_cast<float*&>(p)`: its value
                    // (a pointer object's bytes are its address whatever it points to).
                    _ => ExprKind::Cast {
                        ty,
                        expr: Box::new(expr),
                    },
                }
            }
            Rule::new_expr => {
                let mut it = pair
                    .into_inner()
                    .filter(|p| p.as_rule() != Rule::kw_new)
                    .peekable();
                let place = it
                    .next_if(|p| p.as_rule() == Rule::new_place)
                    .map(|p| self.span(&p));
                let ty = self.ty(it.next().expect("grammar: new names a type"));
                let (mut args, mut count) = (Vec::new(), None);
                for part in it {
                    match part.as_rule() {
                        Rule::new_count => {
                            let n = part.into_inner().next().expect("grammar: a count");
                            count = Some(Box::new(self.expr(n)?));
                        }
                        _ => {
                            for a in part.into_inner() {
                                args.push(match a.as_rule() {
                                    Rule::arg_assign => self.arg_assign(a)?,
                                    _ => self.expr(a)?,
                                });
                            }
                        }
                    }
                }
                ExprKind::New {
                    ty,
                    args,
                    count,
                    place,
                }
            }
            Rule::functional_cast => {
                let mut it = pair.into_inner();
                let ty_pair = it.next().expect("grammar: a functional cast has a type");
                let base_text = c_spelling(ty_pair.as_str());
                let ty = TypeName {
                    base: base_type(&base_text),
                    base_text,
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span: self.span(&ty_pair),
                };
                let operand = it.next().expect("grammar: cast has an operand");
                // `float()` is value-initialised, as `float{}` is: zero (C++ [expr.type.conv]/2).
                if matches!(operand.as_rule(), Rule::brace_cast | Rule::value_init) {
                    let list_span = self.span(&operand);
                    let items = operand
                        .into_inner()
                        .map(|p| self.expr(p))
                        .collect::<Result<Vec<_>>>()?;
                    // `float2{x}`, `dim3{}`: a vector's or dim3's braces, as `float2{a, b}`.
                    if matches!(ty.base, BaseType::Vector) || ty.base_text == "dim3" {
                        return Ok(Expr {
                            kind: ExprKind::Call {
                                callee: Ident {
                                    name: ty.base_text,
                                    span: ty.span,
                                },
                                targs: Vec::new(),
                                args: items,
                            },
                            span,
                        });
                    }
                    // `uint64_t{x}`: a cast of a brace list, which the checker reads with
                    // list-initialisation's narrowing rule.
                    return Ok(Expr {
                        kind: ExprKind::Cast {
                            ty,
                            expr: Box::new(Expr {
                                kind: ExprKind::List(items),
                                span: list_span,
                            }),
                        },
                        span,
                    });
                }
                let expr = self.expr(operand)?;
                if ty.base_text == "dim3" {
                    // `dim3(n)` calls dim3's constructor, as `dim3(x, y)` does.
                    return Ok(Expr {
                        kind: ExprKind::Call {
                            callee: Ident {
                                name: ty.base_text,
                                span: ty.span,
                            },
                            targs: Vec::new(),
                            args: vec![expr],
                        },
                        span,
                    });
                }
                ExprKind::Cast {
                    ty,
                    expr: Box::new(expr),
                }
            }
            Rule::list_lit | Rule::brace_list => ExprKind::List(
                pair.into_inner()
                    .map(|p| self.expr(p))
                    .collect::<Result<_>>()?,
            ),
            Rule::tuple_or_paren => {
                let mut items = pair
                    .into_inner()
                    .map(|p| self.paren_item(p))
                    .collect::<Result<Vec<_>>>()?;
                if items.len() == 1 {
                    let mut e = items.pop().expect("one item");
                    e.span = span;
                    return Ok(e);
                }
                ExprKind::Tuple(items)
            }
            Rule::expr | Rule::ternary | Rule::binary | Rule::unary | Rule::postfix_expr => {
                return self.expr(pair)
            }
            r => unreachable!("grammar: {r:?} is not a primary"),
        };
        Ok(Expr { kind, span })
    }

    /// `launch = { "launch" ~ ident ~ "{" ~ host_stmt* ~ "}" }`
    fn launch(&self, pair: Pair<'_, Rule>) -> Result<Launch> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let mut kernel = self.ident(it.next().expect("grammar: launch names a kernel"));
        let mut stmts = Vec::new();
        let mut targs = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::template_args => {
                    kernel.name = instance_name(&kernel.name, p.as_str());
                    kernel.span = kernel.span.to(self.span(&p));
                    targs = self.template_args(p)?;
                }
                Rule::launch_signature => {
                    let full = format!("{}{}", kernel.name, p.as_str());
                    kernel.name = super::canonical_kernel_name(&full);
                    kernel.span = kernel.span.to(self.span(&p));
                }
                _ => stmts.extend(self.host_stmt(p)?),
            }
        }
        Ok(Launch {
            kernel,
            targs,
            stmts,
            span,
        })
    }

    /// `sequence = { "sequence" ~ "{" ~ (launch | host_stmt)* ~ "}" }`
    fn sequence(&self, pair: Pair<'_, Rule>) -> Result<Sequence> {
        let span = self.span(&pair);
        let mut items = Vec::new();
        for p in pair.into_inner().filter(|p| !is_keyword(p.as_rule())) {
            if p.as_rule() == Rule::launch {
                items.push(SeqItem::Launch(self.launch(p)?));
            } else if let Some(s) = self.host_stmt(p)? {
                items.push(SeqItem::Stmt(s));
            }
        }
        Ok(Sequence { items, span })
    }

    /// One `host_stmt` (`None` for an empty statement).
    fn host_stmt(&self, p: Pair<'_, Rule>) -> Result<Option<HostStmt>> {
        Ok(Some(match p.as_rule() {
            Rule::host_assign => {
                let mut parts = p.into_inner();
                let name = self.ident(parts.next().expect("grammar: host assign has a name"));
                let value = self.expr(parts.next().expect("grammar: host assign has a value"))?;
                HostStmt::Assign { name, value }
            }
            Rule::expect_stmt => {
                let e = p
                    .into_inner()
                    .find(|q| q.as_rule() == Rule::expr)
                    .expect("grammar: expect has an expression");
                HostStmt::Expect(self.expr(e)?)
            }
            Rule::cooperative_stmt => HostStmt::Cooperative(self.span(&p)),
            _ => return Ok(None),
        }))
    }

    /// `template_args = { "<" ~ (template_arg ~ ("," ~ template_arg)*)? ~ ">" }`
    pub(crate) fn template_args(&self, pair: Pair<'_, Rule>) -> Result<Vec<TemplateArg>> {
        pair.into_inner()
            .map(|arg| {
                let span = self.span(&arg);
                let mut parts = arg.into_inner();
                let inner = parts.next().expect("grammar: a template argument");
                let arg = match inner.as_rule() {
                    Rule::type_arg => TemplateArg::Type(self.ty(inner)),
                    Rule::targ_fn_spec | Rule::type_fn_spec => {
                        TemplateArg::Value(self.targ_fn_spec(inner)?)
                    }
                    _ => TemplateArg::Value(self.climb(inner.into_inner())?),
                };
                let mut next = parts.next();
                let arg = match (arg, &next) {
                    (TemplateArg::Value(cond), Some(p)) if p.as_rule() == Rule::targ_cond => {
                        let tail = next.take().expect("matched");
                        next = parts.next();
                        TemplateArg::Value(self.targ_cond(cond, tail)?)
                    }
                    (arg, _) => arg,
                };
                // `T...`: the pack expansion, its pattern a name (or an expression).
                if next.is_none() {
                    return Ok(arg);
                }
                let pattern = match arg {
                    TemplateArg::Type(t) => Expr {
                        kind: ExprKind::Name(t.base_text),
                        span: t.span,
                    },
                    TemplateArg::Value(e) => e,
                };
                Ok(TemplateArg::Value(Expr {
                    kind: ExprKind::Pack(Box::new(pattern)),
                    span,
                }))
            })
            .collect()
    }

    /// `cond ? a : b` in a type's template arguments, `tail` being `targ_cond = { "?" ~
    /// targ_logic ~ ":" ~ targ_logic ~ targ_cond? }` (a further `?` makes the else branch the
    /// condition of the next, as C++ groups `c ? a : d ? b : e`).
    fn targ_cond(&self, cond: Expr, tail: Pair<'_, Rule>) -> Result<Expr> {
        let mut it = tail.into_inner();
        let then = self.climb(it.next().expect("grammar: a branch").into_inner())?;
        let mut els = self.climb(it.next().expect("grammar: a branch").into_inner())?;
        if let Some(more) = it.next() {
            els = self.targ_cond(els, more)?;
        }
        let span = cond.span.to(els.span);
        Ok(Expr {
            kind: ExprKind::Ternary {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(els),
            },
            span,
        })
    }

    /// `targ_fn_spec = { op_addr? ~ scoped_name ~ template_args ~ &("," | ">") }`: the name of
    /// the instance, `silu_kernel<float>` (`&` changes nothing: a function's name is its address).
    fn targ_fn_spec(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let span = self.span(&pair);
        let mut name = String::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::scoped_name => name = p.as_str().to_string(),
                Rule::template_args | Rule::type_targs => {
                    // Checked here so that a mistake inside is reported as one.
                    self.template_args(p.clone())?;
                    name = instance_name(&name, p.as_str());
                }
                _ => {}
            }
        }
        Ok(Expr {
            kind: ExprKind::Name(name),
            span,
        })
    }

    /// `fn_ptr_tparam = { ty ~ "(" ~ "*" ~ ident ~ ")" ~ "(" ~ fn_ptr_param* ~ ")" ~ ("=" ~ …)? }`:
    /// the parameter's name, its type as C spells it without the name, and its default.
    fn fn_ptr_tparam(&self, pair: Pair<'_, Rule>) -> Result<TemplateParam> {
        let (mut ret, mut name, mut params, mut default) = (String::new(), None, Vec::new(), None);
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ty => ret = words(p.as_str()),
                Rule::ident => name = Some(self.ident(p)),
                Rule::fn_ptr_param => params.push(words(p.as_str())),
                Rule::targ_fn_spec => default = Some(self.targ_fn_spec(p)?),
                _ => default = Some(self.expr(p)?),
            }
        }
        Ok(TemplateParam {
            name: name.expect("grammar: a function pointer parameter has a name"),
            kind: TemplateParamKind::Function(format!("{ret} (*)({})", params.join(", ")), default),
            pack: false,
        })
    }

    /// `template_item = { "template" ~ "<" ~ template_param* ~ ">" ~ (kernel | device_fn) }`
    /// `template_param = { type_param | fn_ptr_tparam | value_param }`: `typename T = float`,
    /// `int N = 4`, `T (*F)(const T&)`.
    fn template_param(&self, p: Pair<'_, Rule>) -> Result<TemplateParam> {
        let inner = p
            .into_inner()
            .next()
            .expect("grammar: a template parameter");
        if inner.as_rule() == Rule::fn_ptr_tparam {
            return self.fn_ptr_tparam(inner);
        }
        if inner.as_rule() == Rule::template_tparam {
            let (mut arity, mut name, mut default) = (0, None, None);
            for q in inner.into_inner() {
                match q.as_rule() {
                    Rule::tt_param => arity += 1,
                    Rule::ident => name = Some(self.ident(q)),
                    Rule::scoped_name => default = Some(q.as_str().to_string()),
                    _ => {}
                }
            }
            return Ok(TemplateParam {
                name: name.expect("grammar: a template template parameter has a name"),
                kind: TemplateParamKind::Template(arity, default),
                pack: false,
            });
        }
        let is_type = inner.as_rule() == Rule::type_param;
        // `typename = std::enable_if_t<...>`: a parameter without a name has one no source text
        // can spell, unique in the file.
        let span = self.span(&inner);
        let unnamed = Ident {
            name: format!("<unnamed {}>", span.start),
            span,
        };
        let (mut name, mut pack, mut ty, mut default_ty, mut default) =
            (None, false, None, None, None);
        for q in inner.into_inner().filter(|q| !is_keyword(q.as_rule())) {
            match q.as_rule() {
                Rule::pack_dots => pack = true,
                Rule::ident => name = Some(self.ident(q)),
                Rule::ty if is_type => default_ty = Some(self.ty(q)),
                Rule::ty => ty = Some(self.ty(q)),
                Rule::targ_logic => default = Some(self.climb(q.into_inner())?),
                _ => default = Some(self.expr(q)?),
            }
        }
        let name = name.unwrap_or(unnamed);
        Ok(if is_type {
            TemplateParam {
                name,
                kind: TemplateParamKind::Type(default_ty),
                pack,
            }
        } else {
            TemplateParam {
                name,
                kind: TemplateParamKind::Value(
                    ty.expect("grammar: a value parameter has a type"),
                    default,
                ),
                pack: false,
            }
        })
    }

    fn template_item(&self, pair: Pair<'_, Rule>, module: &mut Module) -> Result<()> {
        let mut params = Vec::new();
        // `template <class R>` after the class's `template <class T>`: the member's own.
        let mut inner = Vec::new();
        // `template <>`: what follows is an explicit specialisation.
        let is_specialization = !pair
            .clone()
            .into_inner()
            .any(|p| p.as_rule() == Rule::template_param);
        let outer = self.type_params.borrow().len();
        let read =
            self.template_item_parts(pair, module, (&mut params, &mut inner, is_specialization));
        self.type_params.borrow_mut().truncate(outer);
        read
    }

    /// The parts of a `template_item`, with `params` and `inner` collected as they come.
    fn template_item_parts(
        &self,
        pair: Pair<'_, Rule>,
        module: &mut Module,
        (params, inner, is_specialization): (
            &mut Vec<TemplateParam>,
            &mut Vec<TemplateParam>,
            bool,
        ),
    ) -> Result<()> {
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::template_param => {
                    let param = self.template_param(p)?;
                    self.type_params.borrow_mut().push(param.name.name.clone());
                    params.push(param);
                }
                Rule::kernel => {
                    let mut k = self.kernel(p)?;
                    variadic_unsupported(params, "kernel", &k.name, module);
                    if params.is_empty() && is_specialization {
                        k.specialization = Some(k.specialization.unwrap_or_default());
                    } else {
                        if k.specialization.take().is_some() {
                            // C++ has no partial specialisation of a function template.
                            module.unsupported.push((
                                format!(
                                    "a partial specialisation of the function template `{}`",
                                    k.name.name
                                ),
                                k.name.name.clone(),
                                k.name.span,
                            ));
                        }
                        k.template = std::mem::take(params);
                        let name = k.name.name.clone();
                        self.nest_in_function(&name, &k.template, k.span, &mut k.body);
                    }
                    self.push_kernel(k, module);
                }
                Rule::type_alias => {
                    let (name, ty) = self.type_alias(p)?;
                    module
                        .alias_templates
                        .push((name, std::mem::take(params), ty));
                }
                // `template <typename T> using group_func_t = T (*)(T, T);` (Mordred): a
                // function pointer type whatever its arguments, as the plain alias is.
                Rule::fn_ptr_alias => module.fn_pointer_types.push(self.fn_ptr_alias(p)),
                Rule::device_fn => {
                    let (mut f, spec) = self.device_fn(p)?;
                    if params.is_empty() && is_specialization {
                        module.specializations.push(Specialization {
                            args: spec.unwrap_or_default(),
                            function: f,
                        });
                    } else {
                        f.template = std::mem::take(params);
                        let name = f.name.name.clone();
                        self.nest_in_function(&name, &f.template, f.span, &mut f.body);
                        module.device_fns.push(f);
                    }
                }
                Rule::device_decl => {
                    let (mut f, spec) = self.device_fn(p)?;
                    // A specialisation declared ahead of its definition declares nothing new.
                    if !is_specialization && spec.is_none() {
                        f.template = std::mem::take(params);
                        module.declared.push(f.span);
                        module.device_fns.push(f);
                    }
                }
                Rule::struct_def => {
                    let mut s = self.struct_def(p)?;
                    variadic_unsupported(params, "struct", &s.name, module);
                    s.template = std::mem::take(params);
                    self.nest_in_template(&mut s);
                    module.structs.push(s);
                }
                Rule::member_template_header => {
                    for q in p.into_inner() {
                        if q.as_rule() == Rule::template_param {
                            inner.push(self.template_param(q)?);
                        }
                    }
                }
                Rule::member_def => self.member_def(
                    p,
                    std::mem::take(params),
                    std::mem::take(inner),
                    is_specialization,
                )?,
                Rule::var_template => {
                    let (mut ty, mut name, mut init) = (None, None, None);
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::ty => ty = Some(self.ty(q)),
                            Rule::ident => name = Some(self.ident(q)),
                            Rule::inline_kw => {}
                            _ => init = Some(self.expr(q)?),
                        }
                    }
                    module.var_templates.push(VarTemplate {
                        params: std::mem::take(params),
                        ty: ty.expect("grammar: a variable template's type"),
                        name: name.expect("grammar: a variable template's name"),
                        init,
                    });
                }
                Rule::host_fn => self.host_fn(p, module),
                Rule::unmarked_fn => {
                    let name = p
                        .clone()
                        .into_inner()
                        .find(|n| matches!(n.as_rule(), Rule::ident | Rule::operator_name))
                        .map(|n| self.ident(n))
                        .expect("grammar: a function has a name");
                    // Only where no host template has the name (a `host::zero` of its own).
                    let device = |d: &&Function| d.name.name == name.name && !d.template.is_empty();
                    let host = module.host_functions.iter().any(|h| h.name == name.name);
                    let device_template = module.device_fns.iter().any(|d| device(&d));
                    let specialised = if is_specialization && device_template && !host {
                        let (function, spec) = self.device_fn(p)?;
                        let arity = function.params.len();
                        let takes = module
                            .device_fns
                            .iter()
                            .filter(device)
                            .any(|d| d.params.len() == arity);
                        takes.then_some((function, spec))
                    } else {
                        None
                    };
                    if let Some((function, spec)) = specialised {
                        module.specializations.push(Specialization {
                            args: spec.unwrap_or_default(),
                            function,
                        });
                    } else {
                        module
                            .host_items
                            .push((format!("function `{}`", name.name), name.span));
                        module.host_functions.push(name);
                    }
                }
                Rule::union_def => {
                    let (mut u, _) = self.union_def(p)?;
                    u.template = std::mem::take(params);
                    module.structs.push(u);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The structs defined inside the class template `outer` (TensorFlow's `GpuGridRange<T>`
    /// and its `struct Iterator`), hoisted to file scope: each becomes a template with the
    /// outer's parameters, named `Outer__Inner`, and `Inner` inside either is a member type
    /// naming its instance (`Outer__Inner<T>`), so that its members may use `T`.
    fn nest_in_template(&self, outer: &mut StructDef) {
        self.share_constants(outer);
        if outer.template.is_empty() {
            self.nest_in_class(outer);
            return;
        }
        let args: Vec<&str> = outer
            .template
            .iter()
            .map(|p| p.name.name.as_str())
            .collect();
        let args = args.join(",");
        let mut hoisted = self.hoisted.borrow_mut();
        let mut renamed = Vec::new();
        for def in nested_in(&mut hoisted, outer.span) {
            let inner = def.name.clone();
            let name = format!("{}__{}", outer.name.name, inner.name);
            self.made_names
                .borrow_mut()
                .push((name.clone(), format!("{}::{}", outer.name.name, inner.name)));
            let instance = TypeName::named(format!("{name}<{args}>"), inner.span);
            for c in def.ctors.iter_mut().filter(|c| c.name.name == inner.name) {
                c.name.name.clone_from(&name);
            }
            def.name.name = name;
            def.template.clone_from(&outer.template);
            outer.aliases.push((inner, instance));
            renamed.push(def);
        }
        // Each names the others as the outer does (InfiniTAM's `union { struct { T x, y; };
        // T v[2]; };`: the union's member is the anonymous struct's instance).
        for def in renamed {
            def.aliases.extend(outer.aliases.iter().cloned());
        }
    }

    /// The structs and unions defined inside the class `outer`, which is no template (DLRM's
    /// `template <> struct VecType4<__half> { typedef float2 Type; typedef struct {...} half4;
    /// union Data { half4 val; Type mask; } data; }`), hoisted to file scope: each named one is
    /// renamed `Outer__Inner` (`Outer__Inner__2` where that is taken), which `Inner` names in
    /// either and `Outer::Inner` outside, and each sees the outer's member types, as C++
    /// [class.nest] has it.
    fn nest_in_class(&self, outer: &mut StructDef) {
        let mut hoisted = self.hoisted.borrow_mut();
        let mut taken: Vec<String> = hoisted.iter().map(|(d, _)| d.name.name.clone()).collect();
        let mut renamed = Vec::new();
        for def in nested_in(&mut hoisted, outer.span) {
            let inner = def.name.clone();
            if !inner.name.starts_with("__") {
                let base = format!("{}__{}", outer.name.name, inner.name);
                let name = (1..)
                    .map(|n| match n {
                        1 => base.clone(),
                        n => format!("{base}__{n}"),
                    })
                    .find(|n| !taken.contains(n))
                    .expect("an unused name");
                for c in def.ctors.iter_mut().filter(|c| c.name.name == inner.name) {
                    c.name.name.clone_from(&name);
                }
                taken.push(name.clone());
                self.made_names
                    .borrow_mut()
                    .push((name.clone(), format!("{}::{}", outer.name.name, inner.name)));
                def.name.name.clone_from(&name);
                // The other names a `typedef struct Tag {...} N1, N2;` gave it name it too.
                for (_, ty) in outer.aliases.iter_mut() {
                    if ty.base_text == inner.name {
                        ty.base_text.clone_from(&name);
                    }
                }
                outer
                    .aliases
                    .push((inner.clone(), TypeName::named(name, inner.span)));
            }
            renamed.push(def);
        }
        for def in renamed {
            def.aliases.extend(outer.aliases.iter().cloned());
        }
    }

    /// C++ [class.nest]: a nested class names its enclosing class's enumerators and static
    /// constants unqualified (warp-ctc's `enum { Capacity = NT }; struct Storage { T
    /// shared[Capacity]; };`). The structs defined inside `outer`, hoisted to file scope, get
    /// each of them that they do not declare themselves as a static member of their own, first
    /// (before any member that uses it); a nested class template has the outer's parameters
    /// (`nest_in_template`), so `NT` in one means what it does in the other.
    fn share_constants(&self, outer: &StructDef) {
        let constants: Vec<&Field> = outer
            .fields
            .iter()
            .filter(|f| f.is_static && f.init.is_some())
            .collect();
        if constants.is_empty() {
            return;
        }
        let inside = |s: Span| s.start >= outer.span.start && s.end <= outer.span.end;
        for (def, _) in self
            .hoisted
            .borrow_mut()
            .iter_mut()
            .filter(|(d, _)| inside(d.span) && d.span != outer.span)
        {
            // One whose value names a member the nested class declares itself would mean that
            // member there, not the outer's: such a constant stays unknown in it.
            let own = |n: &str| def.fields.iter().any(|f| f.name.name == n);
            let shared: Vec<Field> = constants
                .iter()
                .filter(|c| !own(&c.name.name))
                .filter(|c| {
                    let init = c.init.as_ref().expect("filtered: a constant has a value");
                    !def.fields.iter().any(|f| init.mentions(&f.name.name))
                })
                .map(|&c| c.clone())
                .collect();
            def.fields.splice(0..0, shared);
        }
    }

    /// The structs and unions defined in the body of the function template `name` (OpenCV's
    /// `union ColorOutx2 { Colorx2 d; Color ColorArray[2]; };` in `template <class Yuvx2, class
    /// Color, class Colorx2> __global__ void YuvToColorKernel`), hoisted to file scope: each
    /// becomes a template with the function's parameters, named `name__Inner`, and the body
    /// starts with `using Inner = name__Inner<params>;`, so that its members may use them. A
    /// plain function's struct is renamed so only where an earlier function's has its name.
    fn nest_in_function(
        &self,
        name: &str,
        template: &[TemplateParam],
        span: Span,
        body: &mut Vec<Stmt>,
    ) {
        let args: Vec<&str> = template.iter().map(|p| p.name.name.as_str()).collect();
        let args = args.join(",");
        let inside = |s: Span| s.start >= span.start && s.end <= span.end;
        let mut hoisted = self.hoisted.borrow_mut();
        // Names an earlier function's local struct already has (CUB's examples each define a
        // `union TempStorage` of their own).
        let taken: Vec<String> = hoisted
            .iter()
            .filter(|(d, _)| !inside(d.span))
            .map(|(d, _)| d.name.name.clone())
            .collect();
        let mut aliases = Vec::new();
        for (def, _) in hoisted.iter_mut().filter(|(d, _)| {
            d.template.is_empty()
                && d.spec.is_empty()
                && inside(d.span)
                && (!template.is_empty() || taken.contains(&d.name.name))
        }) {
            let inner = def.name.clone();
            let renamed = format!("{name}__{}", inner.name);
            self.made_names
                .borrow_mut()
                .push((renamed.clone(), inner.name.clone()));
            for c in def.ctors.iter_mut().filter(|c| c.name.name == inner.name) {
                c.name.name.clone_from(&renamed);
            }
            def.name.name.clone_from(&renamed);
            def.template = template.to_vec();
            let ty = if template.is_empty() {
                TypeName::named(renamed, inner.span)
            } else {
                TypeName::named(format!("{renamed}<{args}>"), inner.span)
            };
            aliases.push(Stmt {
                kind: StmtKind::TypeAlias { name: inner, ty },
                span: def.span,
            });
        }
        body.splice(0..0, aliases);
    }

    /// `member_def = { fn_qualifier* ~ (member_owner ~ ctor_def | ty ~ reference? ~ member_owner
    /// ~ fn_name ~ template_args? ~ "(" ~ params? ~ ")" ~ qualifier* ~ block) }`: kept until the
    /// end of the file, when every class is known, with `template` the parameters of the
    /// `template <...>` before it and `inner` those of a second one (a class template's member
    /// template); `specialisation` after `template <>`.
    fn member_def(
        &self,
        pair: Pair<'_, Rule>,
        template: Vec<TemplateParam>,
        inner: Vec<TemplateParam>,
        specialisation: bool,
    ) -> Result<()> {
        let mut owner: Option<(Ident, Vec<String>, Option<String>)> = None;
        let mut ctor = None;
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                // `ns::S::get` (kinfu's `kfusion::device::Reprojector::operator()`): the class
                // is the last owner, named with the namespaces written before it.
                Rule::member_owner => {
                    let mut it = p.into_inner();
                    let mut name = self.ident(it.next().expect("grammar: an owner has a name"));
                    if let Some((outer, ..)) = &owner {
                        name = Ident {
                            name: format!("{}::{}", outer.name, name.name),
                            span: outer.span.to(name.span),
                        };
                    }
                    let targs = it.next();
                    let written = targs.as_ref().map(|a| squeeze(a.as_str()));
                    let args: Vec<String> = targs
                        .map(|a| {
                            a.into_inner()
                                .map(|t| t.as_str().split_whitespace().collect())
                                .collect()
                        })
                        .unwrap_or_default();
                    owner = Some((name, args, written));
                }
                Rule::ctor_def => ctor = Some(self.ctor_def(p)?),
                _ => {}
            }
        }
        let (owner, args, written) = owner.expect("grammar: a member definition names its class");
        let (function, is_ctor) = match ctor {
            Some(f) => (f, true),
            None => {
                let (f, spec) = self.device_fn(pair)?;
                // `template <> T C<int>::f() {...}`: the member of the class's specialisation
                // for those arguments.
                if let (true, None, Some(written)) = (specialisation, &spec, written) {
                    self.out_of_class.borrow_mut().push(OutOfClass {
                        owner,
                        args,
                        template,
                        inner,
                        function: f,
                        is_ctor: false,
                        specialises: Some(written),
                        enclosing: self.namespace.borrow().join("::"),
                        body_using: std::mem::take(&mut self.scopes.borrow_mut().body),
                    });
                    return Ok(());
                }
                if specialisation || spec.is_some() {
                    // Named by the member, so that its calls are not unknown names as well.
                    let full = format!("{}::{}", owner.name, f.name.name);
                    self.unsupported.borrow_mut().push((
                        format!("an explicit specialisation of the member function `{full}`"),
                        f.name.name.clone(),
                        f.name.span,
                    ));
                    return Ok(());
                }
                (f, false)
            }
        };
        self.out_of_class.borrow_mut().push(OutOfClass {
            owner,
            args,
            template,
            inner,
            function,
            is_ctor,
            specialises: None,
            enclosing: self.namespace.borrow().join("::"),
            body_using: std::mem::take(&mut self.scopes.borrow_mut().body),
        });
        Ok(())
    }

    /// Adds a member defined outside its class to the class; a class this file does not define,
    /// or a template class's member written with other names for its parameters, is reported.
    fn attach(&self, m: OutOfClass, module: &mut Module) {
        let full = format!("{}::{}", m.owner.name, m.function.name.name);
        if let Some(spec) = &m.specialises {
            // `template <> template <typename T> T Selector<0>::Call(...)`: a member template
            // of the specialisation, with its own parameters.
            let mut function = m.function;
            if function.template.is_empty() {
                function.template = m.inner;
            }
            return self.attach_specialised(function, &m.owner, spec, module);
        }
        let class = m.owner.name.rsplit("::").next().unwrap_or_default();
        let Some(def) = module
            .structs
            .iter_mut()
            .find(|s| s.name.name == class && s.spec.is_empty())
        else {
            // `__device__ float detail::f(float x) {...}`: a function of a namespace, defined
            // outside it (after its declaration there), in the namespace it is written in or
            // one around that (`a::detail` of `detail::f` written in `a`).
            let owner = m.owner.name.as_str();
            let last = owner.rsplit("::").next().unwrap_or(owner);
            if module.namespaces.contains(last) && m.args.is_empty() && !m.is_ctor {
                let ns = match owner.strip_prefix("::") {
                    Some(absolute) => absolute.to_string(),
                    None if m.enclosing.is_empty() => owner.to_string(),
                    None => format!("{}::{owner}", m.enclosing),
                };
                let mut function = m.function;
                function.template = m.template;
                module.device_fns.push(function);
                let mut scopes = self.scopes.borrow_mut();
                scopes.body = m.body_using;
                scopes.record(module, &ns);
                return;
            }
            self.unsupported.borrow_mut().push((
                format!("the member `{full}` of a class this file does not define"),
                full,
                m.owner.span,
            ));
            return;
        };
        let own: Vec<&str> = def.template.iter().map(|p| p.name.name.as_str()).collect();
        // A plain class's member template has one `template <...>`, its own; a class
        // template's member has the class's first, then its own, if it is a template.
        let (class, member) = if own.is_empty() && m.args.is_empty() && m.inner.is_empty() {
            (Vec::new(), m.template)
        } else {
            (m.template, m.inner)
        };
        let given: Vec<&str> = class.iter().map(|p| p.name.name.as_str()).collect();
        if own != given || (!own.is_empty() && m.args != own) {
            self.unsupported.borrow_mut().push((
                format!(
                    "the member `{full}` defined with template parameters other than its class's `<{}>`",
                    own.join(", ")
                ),
                full,
                m.owner.span,
            ));
            return;
        }
        let mut function = m.function;
        function.template = member;
        if m.is_ctor {
            def.ctors.push(function);
        } else {
            def.methods.push(function);
        }
    }

    /// `template <> T C<int>::f() {...}`, C++'s explicit specialisation of one member of a class
    /// template: the member of `C<int>`, whose other members are the primary template's with
    /// its type parameters as member types (`T` is `int` in them). The specialisation is made
    /// from the primary the first time one of its members is specialised, unless the file
    /// specialises the class itself.
    fn attach_specialised(
        &self,
        function: Function,
        owner: &Ident,
        spec: &str,
        module: &mut Module,
    ) {
        let full = format!("{}{spec}::{}", owner.name, function.name.name);
        let class = owner.name.rsplit("::").next().unwrap_or_default();
        let refuse = |what: String| {
            self.unsupported.borrow_mut().push((
                what,
                function.name.name.clone(),
                function.name.span,
            ))
        };
        let existing = module
            .structs
            .iter()
            .position(|s| s.name.name == class && s.spec == spec);
        let at = match existing {
            Some(at) => at,
            None => {
                let Some(primary) = module
                    .structs
                    .iter()
                    .find(|s| s.name.name == class && !s.template.is_empty() && s.spec.is_empty())
                else {
                    return refuse(format!(
                        "the member `{full}` of a class this file does not define"
                    ));
                };
                let args = top_level_args(spec);
                // A value parameter's argument: a literal (DGL's `Selector<2>`).
                let literal = |a: &str| match a.trim() {
                    "true" => Some(ExprKind::Bool(true)),
                    "false" => Some(ExprKind::Bool(false)),
                    t => t.parse::<u64>().ok().map(|value| ExprKind::Int {
                        value,
                        unsigned: false,
                        long: false,
                        hex: false,
                    }),
                };
                let known = primary
                    .template
                    .iter()
                    .zip(&args)
                    .all(|(p, a)| match p.kind {
                        TemplateParamKind::Type(_) => true,
                        TemplateParamKind::Value(..) => literal(a).is_some(),
                        _ => false,
                    });
                if !known || args.len() != primary.template.len() {
                    return refuse(format!("the explicit specialisation of the member function `{full}` (simt specialises members of classes whose template parameters are types or values given as literals)"));
                }
                let mut def = primary.clone();
                let mut aliases = Vec::new();
                for (p, a) in primary.template.iter().zip(&args) {
                    match &p.kind {
                        TemplateParamKind::Value(ty, _) => def.fields.push(Field {
                            ty: TypeName {
                                is_const: true,
                                ..ty.clone()
                            },
                            name: p.name.clone(),
                            dims: Vec::new(),
                            init: literal(a).map(|kind| Expr {
                                kind,
                                span: owner.span,
                            }),
                            is_static: true,
                            anonymous: false,
                            pointer_to_pointer: false,
                            align: None,
                        }),
                        _ => {
                            let text = a.trim_end_matches('*').trim();
                            let mut ty = TypeName::named(text, owner.span);
                            ty.base = base_type(text);
                            ty.pointer = a.ends_with('*');
                            aliases.push((p.name.clone(), ty));
                        }
                    }
                }
                def.aliases.splice(0..0, aliases);
                def.template = Vec::new();
                def.spec = spec.to_string();
                module.structs.push(def);
                module.structs.len() - 1
            }
        };
        // The member it replaces: the one of that name whose parameter types, with the class's
        // parameters read as their arguments (`T` as `int`), are the specialisation's.
        let def = &mut module.structs[at];
        let as_argument = |t: &TypeName| {
            def.aliases
                .iter()
                .find(|(n, _)| n.name == t.base_text)
                .map_or_else(|| t.base_text.clone(), |(_, a)| a.base_text.clone())
        };
        let same = |f: &Function| {
            f.name.name == function.name.name
                && f.params.len() == function.params.len()
                && f.params.iter().zip(&function.params).all(|(a, b)| {
                    as_argument(&a.ty) == b.ty.base_text && a.ty.pointer == b.ty.pointer
                })
        };
        // In the declared one's place: the overloads keep their order.
        match def.methods.iter().position(same) {
            Some(k) => def.methods[k] = function,
            None => def.methods.push(function),
        }
    }

    /// `fn_ptr_alias = { "typedef" ~ ty ~ "(" ~ "*" ~ ident ~ ")" ~ "(" ~ fn_ptr_param* ~ ")" ~ ";" }`:
    /// the type's name (its signature is checked where a function is called through it).
    fn fn_ptr_alias(&self, pair: Pair<'_, Rule>) -> Ident {
        let name = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::ident)
            .expect("grammar: a function pointer type has a name");
        self.ident(name)
    }

    /// `type_alias = { "typedef" ~ ty ~ ident ~ array_dim* ";" | "using" ~ ident ~ "=" ~ ty ~ ";" }`
    ///
    /// An array type's name (`typedef unsigned int ROW_T[4];`) stands for its element type; the
    /// sizes are added to each name declared with it, as C reads `ROW_T x;` as `unsigned x[4];`.
    fn type_alias(&self, pair: Pair<'_, Rule>) -> Result<(Ident, TypeName)> {
        let mut name = None;
        let mut ty = None;
        let mut dims = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident => name = Some(self.ident(p)),
                Rule::ty => ty = Some(self.ty(p)),
                Rule::reference => {
                    if let Some(t) = ty.as_mut() {
                        t.reference = true;
                    }
                }
                Rule::array_dim => dims.push(self.array_dim(p)?),
                _ => {}
            }
        }
        let name: Ident = name.expect("grammar: an alias has a name");
        let ty: TypeName = ty.expect("grammar: an alias has a type");
        // The element type may itself be an array type's name (`typedef ROW_T TILE_T[2];`).
        if let Some(inner) = self.array_aliases.borrow().get(&ty.base_text) {
            dims.extend(inner.iter().cloned());
        }
        if !dims.is_empty() {
            self.array_aliases
                .borrow_mut()
                .insert(name.name.clone(), dims);
        }
        Ok((name, ty))
    }

    /// `sizeof(ROW_T)` of an array type: its element's size times its sizes.
    fn sizeof_type(&self, ty: TypeName, span: Span) -> ExprKind {
        let dims = match self.alias_dims(&ty) {
            Some(dims) if !ty.pointer => dims,
            _ => return ExprKind::SizeOfType(ty),
        };
        dims.into_iter()
            .flatten()
            .fold(ExprKind::SizeOfType(ty), |size, dim| ExprKind::Binary {
                op: BinOp::Mul,
                op_span: span,
                lhs: Box::new(Expr { kind: size, span }),
                rhs: Box::new(dim),
            })
    }

    /// Records `const ROW_T* p` (a pointer or reference to an array type) for the checker to
    /// report.
    /// Whether the type of a declaration `ty (&x)[n]` is more likely a function's name: a
    /// plain lower-case name that no enclosing template declares as a type.
    fn looks_called(&self, ty: &TypeName) -> bool {
        let text = &ty.base_text;
        ty.base == BaseType::Named
            && !ty.is_const
            && text.chars().all(|c| c.is_alphanumeric() || c == '_')
            && text.starts_with(|c: char| c.is_lowercase())
            && !self.type_params.borrow().contains(text)
    }

    /// `T (*p)[A][B] = init` or `T (&s)[R][A][B] = init`, read as a pointer to `T` that steps
    /// over rows (`sizes`): the rows (a reference's first size goes: it names the array, not a
    /// step), and the pointer it starts as. A cast to a pointer to arrays (cuSZ's `*reinterpret
    /// _cast<T(*)[B+1][B+1]>(&scratch)`) points where its operand does; a reference's `*p` is
    /// `p`.
    fn array_pointer(
        &self,
        ty: &TypeName,
        name: &Ident,
        sizes: Vec<Option<Expr>>,
        init: Option<Expr>,
        is_ref: bool,
    ) -> (Vec<Expr>, Option<Expr>) {
        let mut rows = Vec::new();
        for d in sizes.into_iter().skip(usize::from(is_ref)) {
            match d {
                Some(e) => rows.push(e),
                None => self.pointer_to_array(ty, name),
            }
        }
        let mut element = ty.clone();
        element.pointer = true;
        element.reference = false;
        let as_element = |e: Expr| -> Expr {
            match e.kind {
                ExprKind::Call {
                    callee, mut args, ..
                } if callee.name.starts_with("<cast to ") && args.len() == 1 => {
                    let operand = args.pop().expect("checked: one argument");
                    let operand = if callee.name.contains("(&)") {
                        Expr {
                            span: operand.span,
                            kind: ExprKind::Unary {
                                op: UnOp::AddrOf,
                                operand: Box::new(operand),
                            },
                        }
                    } else {
                        operand
                    };
                    Expr {
                        kind: ExprKind::Cast {
                            ty: element.clone(),
                            expr: Box::new(operand),
                        },
                        span: e.span,
                    }
                }
                kind => Expr { kind, span: e.span },
            }
        };
        let init = init.map(|e| match e.kind {
            ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } if is_ref => as_element(*operand),
            _ => as_element(e),
        });
        (rows, init)
    }

    fn pointer_to_array(&self, ty: &TypeName, name: &Ident) {
        self.unsupported.borrow_mut().push((
            format!(
                "`{}`, a pointer or reference to the array type `{}`",
                name.name, ty.base_text
            ),
            name.name.clone(),
            name.span,
        ));
    }

    /// The sizes an array type's name adds to a name declared with it (`ROW_T x;`), if
    /// `ty` names an array type.
    fn alias_dims(&self, ty: &TypeName) -> Option<Vec<Option<Expr>>> {
        if ty.base != BaseType::Named {
            return None;
        }
        self.array_aliases.borrow().get(&ty.base_text).cloned()
    }
}

/// `f(&x)[i] = value;` (or `f(*x)[i];`) from the declaration `f (&x)[i] = value;` it was
/// read as.
fn call_statement(
    callee: &TypeName,
    name: Ident,
    is_ref: bool,
    dims: Vec<Option<Expr>>,
    init: Option<Expr>,
) -> StmtKind {
    let at = name.span;
    let arg = Expr {
        kind: ExprKind::Unary {
            op: if is_ref { UnOp::AddrOf } else { UnOp::Deref },
            operand: Box::new(Expr {
                kind: ExprKind::Name(name.name),
                span: at,
            }),
        },
        span: at,
    };
    let mut target = Expr {
        kind: ExprKind::Call {
            callee: Ident {
                name: callee.base_text.clone(),
                span: callee.span,
            },
            targs: Vec::new(),
            args: vec![arg],
        },
        span: callee.span.to(at),
    };
    for index in dims.into_iter().flatten() {
        let span = target.span.to(index.span);
        target = Expr {
            kind: ExprKind::Index {
                base: Box::new(target),
                index: Box::new(index),
            },
            span,
        };
    }
    match init {
        Some(value) => StmtKind::Assign {
            op: None,
            op_span: target.span,
            target,
            value,
        },
        None => StmtKind::Expr(target),
    }
}

/// A cast to a reference or pointer to arrays of `ty` (`declarator` is `(&)[4]`, `(*)[N]`): a
/// call the checker reads by its name, the type as written (refused, or taken as the rows of a
/// pointer to arrays being declared); `(int4 (&)[16])local` (bitsandbytes'
/// `reinterpret_cast<int4 (&)[16]>(local)[0]`) indexes the bytes as `int4`s, as
/// `reinterpret_cast<int4*>(&local)` does.
fn array_cast(mut ty: TypeName, declarator: &str, expr: Expr, span: Span) -> Expr {
    let declarator: String = declarator.split_whitespace().collect();
    if declarator.starts_with("(&)") && declarator.matches('[').count() == 1 {
        ty.pointer = true;
        return address_as(ty, expr, span);
    }
    Expr {
        kind: ExprKind::Call {
            callee: Ident {
                name: format!("<cast to `{} {declarator}`>", ty.base_text),
                span,
            },
            targs: Vec::new(),
            args: vec![expr],
        },
        span,
    }
}

/// `(ty) &operand`: the address of `operand` as a pointer of type `ty`.
fn address_as(ty: TypeName, operand: Expr, span: Span) -> Expr {
    let at = operand.span;
    Expr {
        kind: ExprKind::Cast {
            ty,
            expr: Box::new(Expr {
                kind: ExprKind::Unary {
                    op: UnOp::AddrOf,
                    operand: Box::new(operand),
                },
                span: at,
            }),
        },
        span,
    }
}

/// A member function or constructor defined outside its class.
#[derive(Debug)]
struct OutOfClass {
    /// `C` of `C::f`.
    owner: Ident,
    /// `T` of `C<T>::f`, each without spaces.
    args: Vec<String>,
    /// `template <class T>` before the definition.
    template: Vec<TemplateParam>,
    /// `template <class R>` after it: the parameters of a class template's member template.
    inner: Vec<TemplateParam>,
    /// The member, named as in its class (`f`, `operator+=`, `C` for a constructor).
    function: Function,
    /// A constructor.
    is_ctor: bool,
    /// After `template <>`: the class's template arguments as written (`<int>`), whose
    /// specialisation the member belongs to.
    specialises: Option<String>,
    /// The namespace the definition is written in (`a` of `namespace a { float detail::f() }`).
    enclosing: String,
    /// The `using` lines written in its body.
    body_using: Vec<super::scope::Using>,
}

/// The arguments of `<int, Foo<a, b>>`, split at its top-level commas.
pub(crate) fn top_level_args(spec: &str) -> Vec<String> {
    let spec = spec.trim();
    let inner = spec
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(spec);
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(inner[start..].trim().to_string());
    args
}

/// `k<64,64,8>` for `k<64, 64, 8>`, `k<float,unsigned int>`: how a launch section and `--kernel`
/// name an instance (see [`super::canonical_kernel_name`]).
pub(crate) fn instance_name(name: &str, args: &str) -> String {
    super::canonical_kernel_name(&format!("{name}{args}"))
}

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_if
            | Rule::kw_constexpr
            | Rule::kw_else
            | Rule::kw_for
            | Rule::kw_while
            | Rule::kw_do
            | Rule::kw_break
            | Rule::kw_switch
            | Rule::kw_case
            | Rule::kw_default
            | Rule::kw_continue
            | Rule::kw_return
            | Rule::kw_launch
            | Rule::kw_expect
            | Rule::kw_template
            | Rule::kw_typename
            | Rule::kw_typedef
            | Rule::kw_using
    )
}

fn compound_op(s: &str) -> BinOp {
    match s {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        other => unreachable!("grammar: `{other}` is not a compound assignment"),
    }
}

pub(crate) fn base_type(text: &str) -> BaseType {
    match text {
        "void" => BaseType::Void,
        "bool" => BaseType::Bool,
        // <stdint.h>'s least and fast types as glibc defines them on x86-64 and aarch64
        // Linux, whose ABI nvcc follows: the fast types of 16 bits and more are `long`.
        // `u_int8_t`... are <sys/types.h>'s, which <cuda_runtime.h> includes on Linux.
        "char" | "signed char" | "int8_t" | "int_least8_t" | "int_fast8_t" => BaseType::I8,
        "unsigned char" | "uint8_t" | "u_int8_t" | "uchar" | "uint_least8_t" | "uint_fast8_t" => {
            BaseType::U8
        }
        "short" | "short int" | "signed short" | "signed short int" | "int16_t"
        | "int_least16_t" => BaseType::I16,
        "unsigned short" | "unsigned short int" | "uint16_t" | "u_int16_t" | "ushort"
        | "uint_least16_t" => BaseType::U16,
        "int" | "signed" | "signed int" | "int32_t" | "int_least32_t" => BaseType::I32,
        "unsigned" | "unsigned int" | "uint32_t" | "u_int32_t" | "uint" | "uint_least32_t" => {
            BaseType::U32
        }
        // `long` is 64 bits in CUDA on Linux (LP64), as on the host.
        "long"
        | "long int"
        | "long long"
        | "long long int"
        | "signed long"
        | "signed long int"
        | "signed long long"
        | "signed long long int"
        | "int64_t"
        | "int_least64_t"
        | "int_fast16_t"
        | "int_fast32_t"
        | "int_fast64_t"
        | "intmax_t"
        | "clock_t"
        | "ptrdiff_t"
        | "intptr_t"
        | "ssize_t"
        | "off_t"
        | "longlong" => BaseType::I64,
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "uint64_t"
        | "u_int64_t"
        | "uint_least64_t"
        | "uint_fast16_t"
        | "uint_fast32_t"
        | "uint_fast64_t"
        | "uintmax_t"
        | "size_t"
        | "uintptr_t"
        | "ulong"
        | "ulonglong" => BaseType::U64,
        "float" => BaseType::F32,
        "auto" => BaseType::Auto,
        // nvcc treats `long double` as `double` in device code (with a warning).
        "double" | "long double" => BaseType::F64,
        _ => BaseType::Vector,
    }
}

/// The target of a constructor's initialiser `: x(a)`: `this.x`, a form C++ code cannot write
/// (`this` is a pointer), so that the checker tells it from an assignment `this->x = a`: it
/// initialises `x`, and binds a reference member ([`bind_references`]).
fn mem_init(field: Ident) -> Expr {
    let this = Expr {
        span: field.span,
        kind: ExprKind::Name("this".into()),
    };
    Expr {
        span: field.span,
        kind: ExprKind::Member {
            base: Box::new(this),
            field,
        },
    }
}

/// The storage of the reference member `r`: a pointer member named `r&`, which no C++ code can
/// name; the checker reads `s.r` as `*s.&r` and a member function's `r` as a reference to it.
pub(crate) fn reference_storage(name: &str) -> String {
    format!("{name}&")
}

/// The reference member whose storage ([`reference_storage`]) `member` is, if it is one.
pub(crate) fn reference_of(member: &str) -> Option<&str> {
    member.strip_suffix('&')
}

/// Each constructor's initialiser `: r(x)` of a reference member `T& r;` points its storage at
/// `x`: `this.r& = &x` (C++ binds a reference member in the initialiser list and never again).
fn bind_references(fields: &[Field], ctors: &mut [Function]) {
    let references: Vec<&str> = fields
        .iter()
        .filter(|f| f.ty.reference && !f.is_static)
        .map(|f| f.name.name.as_str())
        .collect();
    if references.is_empty() {
        return;
    }
    for ctor in ctors {
        for s in &mut ctor.body {
            let StmtKind::Assign { target, value, .. } = &mut s.kind else {
                continue;
            };
            let ExprKind::Member { base, field } = &mut target.kind else {
                continue;
            };
            let init = matches!(&base.kind, ExprKind::Name(n) if n == "this");
            if !init || !references.contains(&field.name.as_str()) {
                continue;
            }
            field.name = reference_storage(&field.name);
            *value = Expr {
                kind: ExprKind::Unary {
                    op: UnOp::AddrOf,
                    operand: Box::new(value.clone()),
                },
                span: value.span,
            };
        }
    }
}

/// A qualified name as the checker reads it: `P::template f` is `P::f` (the keyword only tells
/// a C++ parser that `f` is a template).
/// Constants declared in namespace `ns` (`a::b`), each also under the names that qualify it from
/// outside (`b::x`, `a::b::x`): `K::iv0` of `namespace K { enum { iv0 = ... }; }` finds it.
fn qualified(consts: Vec<GlobalConst>, ns: &str) -> Vec<GlobalConst> {
    if ns.is_empty() {
        return consts;
    }
    let parts: Vec<&str> = ns.split("::").collect();
    let mut out = Vec::new();
    for c in consts {
        for k in (0..parts.len()).rev() {
            out.push(GlobalConst {
                name: Ident {
                    name: format!("{}::{}", parts[k..].join("::"), c.name.name),
                    span: c.name.span,
                },
                ..c.clone()
            });
        }
        out.push(c);
    }
    out
}

/// What a `namespace_decl` says.
enum NamespaceDecl {
    /// `using namespace foo;` or `using foo::f;`.
    Using(Using),
    /// `namespace f = foo;`: the alias and the namespace it names.
    Alias(String, String),
}

/// `namespace_decl = { (kw_namespace ~ ident ~ "=" ~ scoped_name | kw_using ~ kw_namespace ~
/// scoped_name | kw_using ~ scoped_name) ~ ";" }`
fn namespace_decl(pair: Pair<'_, Rule>) -> NamespaceDecl {
    let mut namespace = false;
    let mut ident = None;
    let mut name = String::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::kw_namespace => namespace = true,
            Rule::ident => ident = Some(p.as_str().to_string()),
            Rule::scoped_name => name = scoped(p.as_str()),
            _ => {}
        }
    }
    match (ident, namespace) {
        (Some(alias), _) => NamespaceDecl::Alias(alias, name),
        (None, true) => NamespaceDecl::Using(Using::Namespace(name)),
        (None, false) => NamespaceDecl::Using(Using::Name(name)),
    }
}

fn scoped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("::") {
        out.push_str(&rest[..at + 2]);
        rest = rest[at + 2..].trim_start();
        if let Some(after) = rest.strip_prefix("template") {
            if after.starts_with(char::is_whitespace) {
                rest = after.trim_start();
            }
        }
    }
    out.push_str(rest);
    out
}

/// `typedef T Name;` / `using Name = T;`: the name and the type.
type Alias = (Ident, TypeName);

/// The plain structs and unions hoisted from inside the class written at `outer`.
fn nested_in(hoisted: &mut [(StructDef, String)], outer: Span) -> Vec<&mut StructDef> {
    let inside = |s: Span| s.start >= outer.start && s.end <= outer.end;
    hoisted
        .iter_mut()
        .map(|(d, _)| d)
        .filter(|d| d.template.is_empty() && d.spec.is_empty() && inside(d.span))
        .collect()
}

/// `'a'`, `'\n'`, `'\x41'`: C's type for it is `int`; a byte above 0x7f is negative, as `char`
/// is signed on x86-64 hosts, whose compiler nvcc follows.
fn char_literal(text: &str, span: Span) -> Result<ExprKind> {
    let bad = || ParseError::CharLiteral {
        text: text.to_string(),
        span,
    };
    let body = &text[1..text.len() - 1];
    let byte = match body.as_bytes() {
        [c] if *c != b'\\' => *c,
        [b'\\', rest @ ..] => match rest {
            [b'n'] => b'\n',
            [b't'] => b'\t',
            [b'r'] => b'\r',
            [b'a'] => 7,
            [b'b'] => 8,
            [b'f'] => 12,
            [b'v'] => 11,
            [c @ (b'\\' | b'\'' | b'"' | b'?')] => *c,
            [b'x', hex @ ..] if !hex.is_empty() => {
                let digits = std::str::from_utf8(hex).map_err(|_| bad())?;
                u8::from_str_radix(digits, 16).map_err(|_| bad())?
            }
            oct if (1..=3).contains(&oct.len())
                && oct.iter().all(|c| (b'0'..=b'7').contains(c)) =>
            {
                let digits = std::str::from_utf8(oct).map_err(|_| bad())?;
                u8::from_str_radix(digits, 8).map_err(|_| bad())?
            }
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    let int = |value: u64| ExprKind::Int {
        value,
        unsigned: false,
        long: false,
        hex: false,
    };
    let value = if byte < 0x80 {
        int(u64::from(byte))
    } else {
        ExprKind::Unary {
            op: UnOp::Neg,
            operand: Box::new(Expr {
                kind: int(256 - u64::from(byte)),
                span,
            }),
        }
    };
    // A character literal is a `char` (signed, as nvcc has it), which deduction, `auto` and
    // `sizeof` see: `(char)97` for `'a'`.
    Ok(ExprKind::Cast {
        ty: TypeName {
            base: BaseType::I8,
            base_text: "char".into(),
            pointer: false,
            reference: false,
            is_const: false,
            span,
        },
        expr: Box::new(Expr { kind: value, span }),
    })
}

/// Integer literal with C suffixes, parsed without panicking: decimal, octal, hex, binary
/// (`0b1010`, C++14), with digit separators (`1'000'000`, C++14).
fn int_literal(text: &str, span: Span) -> Result<ExprKind> {
    let lower: String = text.to_ascii_lowercase().replace('\'', "");
    let (radix, prefix) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else {
        (10, 0)
    };
    let digits_end = prefix
        + lower[prefix..]
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(lower.len() - prefix);
    let (digits, suffix) = lower.split_at(digits_end);
    let octal = radix == 10 && digits.len() > 1 && digits.starts_with('0');
    let parsed = if radix != 10 {
        u64::from_str_radix(&digits[prefix..], radix)
    } else if octal {
        u64::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<u64>()
    };
    let value = parsed.map_err(|_| ParseError::IntOutOfRange {
        text: text.to_string(),
        span,
    })?;
    Ok(ExprKind::Int {
        value,
        unsigned: suffix.contains('u'),
        long: suffix.contains('l'),
        // C gives a literal written in hex, octal or binary an unsigned type when the signed
        // one cannot hold it (C++14 [lex.icon]: binary goes with hex and octal).
        hex: radix != 10 || octal,
    })
}

fn float_literal(text: &str, span: Span) -> Result<ExprKind> {
    let single = text.ends_with(['f', 'F']);
    let body = text.trim_end_matches(['f', 'F']);
    // A `float` literal is its decimal value rounded once, to float (C11 6.4.4.2), not through
    // double: `1.00000005960464477550f` lies just above the midpoint of 1 and the next float, so
    // it is that float, while the double nearest it is the midpoint itself, which rounds to 1.
    let value: std::result::Result<f64, _> = if single {
        body.parse::<f32>().map(f64::from)
    } else {
        body.parse()
    };
    let value = value.map_err(|_| ParseError::FloatOutOfRange {
        text: text.to_string(),
        span,
    })?;
    if !value.is_finite() {
        return Err(ParseError::FloatOutOfRange {
            text: text.to_string(),
            span,
        });
    }
    Ok(ExprKind::Float { value, single })
}

/// The refusal of a definition written `f<args>(...)` without `template <>` before it.
/// The class a `base_clause` names when it is a plain name (`: public hitable`), which
/// [`super::inherit`] resolves; `None` for a trait's instance or a qualified name.
fn plain_base<'i>(pair: &Pair<'i, Rule>) -> Option<Pair<'i, Rule>> {
    let base = pair
        .clone()
        .into_inner()
        .find(|p| p.as_rule() != Rule::access_kw)?;
    let plain = base.as_rule() == Rule::ty && is_class_path(base.as_str().trim());
    if !plain {
        return None;
    }
    // `: float3` (a CUDA vector type, read as a scalar type's word) too.
    base.into_inner()
        .find(|p| matches!(p.as_rule(), Rule::named_ty | Rule::scalar_ty))
}

/// The start of the name of a union without one (`__anonymous_union_120`, after where it starts).
const ANONYMOUS_UNION: &str = "__anonymous_union_";

/// `DevPtr` and `<T>` of a base clause `: public DevPtr<T>` (a template's instance, its name
/// plain or qualified), spaces only between words.
fn template_base(pair: &Pair<'_, Rule>) -> Option<(String, String)> {
    let base = pair
        .clone()
        .into_inner()
        .find(|p| p.as_rule() != Rule::access_kw)?;
    if base.as_rule() != Rule::ty {
        return None;
    }
    let text = base.as_str().trim();
    let (name, args) = text.split_at(text.find('<')?);
    let name = name.trim();
    is_class_path(name).then(|| (name.to_string(), squeeze(args)))
}

/// Whether `text` names a class by a plain or qualified name (`Base`, `ns::Base`, `::ns::Base`).
fn is_class_path(text: &str) -> bool {
    let path = text.strip_prefix("::").unwrap_or(text);
    !path.is_empty()
        && path.split("::").all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

fn outside_specialisation(name: &Ident) -> (String, String, Span) {
    (
        format!(
            "template arguments after `{}` outside a `template <>` specialisation",
            name.name
        ),
        name.name.clone(),
        name.span,
    )
}

/// `std::forward` or `std::move` (also `::std::`, `cuda::std::`).
fn is_std_forward(name: &str) -> bool {
    let name = name.trim_start_matches("::");
    let name = name.strip_prefix("cuda::").unwrap_or(name);
    matches!(name, "std::forward" | "std::move")
}

/// A kernel or struct template with a parameter pack, which simt does not expand (only
/// `__device__` function templates and alias templates take packs).
fn variadic_unsupported(params: &[TemplateParam], what: &str, name: &Ident, module: &mut Module) {
    if params.iter().any(|p| p.pack) {
        module.unsupported.push((
            format!("the variadic {what} template `{}`", name.name),
            name.name.clone(),
            name.span,
        ));
    }
}

/// Type text without the spaces that separate nothing: `Foo< const float, 4 >` is
/// `Foo<const float,4>` (a space stays between two words, as in `unsigned int`).
/// How to do without a pointer three deep.
pub(crate) const DEEP_POINTER_HELP: &str = "simt follows pointers two levels deep (`float** rows`): index one flat array instead (`data[(i * ny + j) * nz + k]`)";

/// `e`, a scoped enum's enumerator value, with the enum's enumerators declared before it
/// (`consts`, qualified `owner::name`) named as they are outside its braces.
fn qualify_enumerators(e: &mut Expr, consts: &[GlobalConst], owner: &str) {
    match &mut e.kind {
        ExprKind::Name(n) => {
            let qualified = format!("{owner}::{n}");
            if consts.iter().any(|c| c.name.name == qualified) {
                *n = qualified;
            }
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            qualify_enumerators(lhs, consts, owner);
            qualify_enumerators(rhs, consts, owner);
        }
        ExprKind::Unary { operand, .. } => qualify_enumerators(operand, consts, owner),
        ExprKind::Ternary { cond, then, els } => {
            qualify_enumerators(cond, consts, owner);
            qualify_enumerators(then, consts, owner);
            qualify_enumerators(els, consts, owner);
        }
        ExprKind::Cast { expr, .. } => qualify_enumerators(expr, consts, owner),
        _ => {}
    }
}

/// A type's or name's text with its comments and runs of whitespace removed, keeping one space
/// between two words (`unsigned int`). A rule's text runs over the comments between its tokens,
/// and past one after its last token where an optional part follows (`index_t /*idx*/`).
pub(crate) fn squeeze(text: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    for part in without_comments(text).split_whitespace() {
        let joins = out.chars().next_back().is_some_and(word) && part.starts_with(word);
        if joins {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

/// `text` with each comment replaced by a space; quoted literals are kept whole.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let skip = if rest.starts_with("/*") {
            out.push(' ');
            rest.find("*/").map_or(rest.len(), |end| end + 2)
        } else if rest.starts_with("//") {
            out.push(' ');
            rest.find('\n').unwrap_or(rest.len())
        } else if c == '\'' || c == '"' {
            let close = rest[1..].find(c).map_or(rest.len(), |end| end + 2);
            out.push_str(&rest[..close]);
            close
        } else {
            out.push(c);
            c.len_utf8()
        };
        rest = &rest[skip..];
    }
    out
}

/// A C string literal's text, quotes removed and escapes (`\n`, `\t`, `\"`, `\\`, octal
/// and hex) read.
fn unescape(lit: &str) -> String {
    let body = &lit[1..lit.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0'..='7') => {
                // Octal escapes: a NUL or a control character in PTX text is white space.
                while chars.peek().is_some_and(|c| c.is_digit(8)) {
                    chars.next();
                }
                out.push(' ');
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A C cast `(T)x`. One to a reference type, `(const uint4&)src`, is `*(const uint4*)&src`
/// ([expr.cast]/4: a `reinterpret_cast` when no `static_cast` applies): the object's bytes seen
/// as a `T` in place, so that `(uint4&)dst = v;` writes them. The pointer cast keeps `reference`
/// as the mark of where it came from: `(const float&)i` of an `int` converts the value in C++
/// (a `static_cast` to a temporary), which the checker refuses rather than read the bits. A cast
/// to a reference to a pointer, `(float*&)p`, is the pointer's value.
fn c_cast(mut ty: TypeName, expr: Expr, span: Span) -> ExprKind {
    if !ty.reference || ty.pointer {
        ty.reference = false;
        return ExprKind::Cast {
            ty,
            expr: Box::new(expr),
        };
    }
    ty.pointer = true;
    let at = expr.span;
    let address = Expr {
        kind: ExprKind::Unary {
            op: UnOp::AddrOf,
            operand: Box::new(expr),
        },
        span: at,
    };
    ExprKind::Unary {
        op: UnOp::Deref,
        operand: Box::new(Expr {
            kind: ExprKind::Cast {
                ty,
                expr: Box::new(address),
            },
            span,
        }),
    }
}

/// A constructor: a function of no return value named after its class.
fn constructor(name: Ident, params: Vec<Param>, body: Vec<Stmt>, span: Span) -> Function {
    Function {
        template: Vec::new(),
        ret: TypeName {
            base: BaseType::Void,
            base_text: "void".into(),
            pointer: false,
            reference: false,
            is_const: false,
            span: name.span,
        },
        ret_decltype: None,
        name,
        params,
        body,
        is_const: false,
        span,
    }
}

/// The body of a member function or constructor of host code: a refusal for device code that
/// runs it (nvcc: "calling a __host__ function from a __global__ function is not allowed").
fn host_code(what: &str, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Unsupported {
            what: format!("calling {what} from device code"),
            help: "a function without `__device__` is host code, which CUDA does not let device code call: mark it `__host__ __device__`, or do the work on the host and pass the result to the kernel".into(),
            invalid: false,
            declares: Vec::new(),
        },
        span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_are_put_in_sign_size_base_order() {
        assert_eq!(c_spelling("short  unsigned int"), "unsigned short int");
        assert_eq!(
            c_spelling("int long unsigned long"),
            "unsigned long long int"
        );
        assert_eq!(c_spelling("double long"), "long double");
        assert_eq!(c_spelling("float"), "float");
        assert_eq!(base_type(&c_spelling("char signed")), BaseType::I8);
    }

    #[test]
    fn squeezed_names_lose_their_comments() {
        assert_eq!(squeeze("index_t /*idx*/"), "index_t");
        assert_eq!(squeeze("unsigned /* a */ int // b\n"), "unsigned int");
        assert_eq!(squeeze("Op<'/', \"/*\">"), "Op<'/',\"/*\">");
    }

    #[test]
    fn instance_names_keep_one_space_between_words() {
        assert_eq!(instance_name("k", "<64, 64, 8>"), "k<64,64,8>");
        assert_eq!(
            instance_name("k", "<float, float,  unsigned   int>"),
            "k<float,float,unsigned int>"
        );
        assert_eq!(
            instance_name("k", "< unsigned long long >"),
            "k<unsigned long long>"
        );
    }

    #[test]
    fn literals_follow_c() {
        let s = Span::default();
        assert!(matches!(
            int_literal("0x1F", s),
            Ok(ExprKind::Int {
                value: 31,
                hex: true,
                ..
            })
        ));
        assert!(matches!(
            int_literal("7u", s),
            Ok(ExprKind::Int {
                value: 7,
                unsigned: true,
                long: false,
                ..
            })
        ));
        assert!(matches!(
            int_literal("010", s),
            Ok(ExprKind::Int { value: 8, .. })
        ));
        assert!(matches!(
            int_literal("99999999999999999999", s),
            Err(ParseError::IntOutOfRange { .. })
        ));
        assert!(matches!(
            float_literal("1.5f", s),
            Ok(ExprKind::Float { single: true, .. })
        ));
        assert!(matches!(
            float_literal("1e999", s),
            Err(ParseError::FloatOutOfRange { .. })
        ));
        assert!(matches!(
            float_literal("3.5e38f", s),
            Err(ParseError::FloatOutOfRange { .. })
        ));
        // Rounded once to float: the double nearest this decimal is the midpoint of 1 and the
        // next float (1 + 2^-24), which would round to even (1.0).
        let Ok(ExprKind::Float { value, .. }) = float_literal("1.00000005960464477550f", s) else {
            panic!("a float literal")
        };
        assert_eq!((value as f32).to_bits(), 0x3f80_0001);
        let Ok(ExprKind::Float { value, .. }) = float_literal("1.00000005960464477550", s) else {
            panic!("a double literal")
        };
        assert_eq!((value as f32).to_bits(), 0x3f80_0000);
    }
}
