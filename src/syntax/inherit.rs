//! Single inheritance: a derived class gets its base's members, and a polymorphic class its `__vptr`.

// C++ lays a derived class out as its base's subobject followed by its own members, and a class
// with virtual functions starts with a pointer to its virtual table. Both are written out here in
// the derived class's definition, so that the checker sees one plain class: the vtable pointer
// as an 8-byte member `__vptr` holding the class's number (the most derived class that
// constructed the object), the base's members, then its own. A base member function the class
// does not define again (by name and parameter count) is copied in; inside it, the derived
// class's members and overrides are seen, as a virtual call from the base would see them.

use super::ast::{
    BaseType, Declarator, Expr, ExprKind, Field, Ident, Module, Stmt, StmtKind, StructDef,
    TemplateArg, TypeName, VirtualMember,
};
use crate::source::Span;

/// The name of the virtual table pointer member.
pub const VPTR: &str = "__vptr";

/// Copies each class's base members into it, bases first, and gives each polymorphic class its
/// `__vptr`. A base that is not a class this file defines, a cycle, or a member that hides one
/// of its base's data members makes the class unsupported (reported where it is used).
pub(crate) fn inherit(module: &mut Module) {
    let mut state = vec![State::Open; module.structs.len()];
    for i in 0..module.structs.len() {
        flatten(&mut module.structs, i, &mut state);
    }
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Open,
    Working,
    Done,
}

fn flatten(structs: &mut [StructDef], i: usize, state: &mut [State]) {
    match state[i] {
        State::Done => return,
        State::Working => {
            let d = &mut structs[i];
            let at = d.base.as_ref().map_or(d.name.span, |b| b.span);
            d.unsupported.get_or_insert((
                format!("the class `{}` derived from itself", d.name.name),
                at,
            ));
            return;
        }
        State::Open => state[i] = State::Working,
    }
    let id = i as u64 + 1;
    let Some(base) = structs[i].base.clone() else {
        if !structs[i].virtuals.is_empty() {
            let span = structs[i].name.span;
            structs[i].fields.insert(0, vptr(id, span));
        }
        state[i] = State::Done;
        return;
    };
    let args = structs[i].base_args.clone();
    let found = written_as(&base.name).into_iter().find_map(|name| {
        structs.iter().position(|s| {
            s.name.name == name
                && s.spec.is_empty()
                && s.template.is_empty() == args.is_empty()
                && !s.is_union
        })
    });
    // A class template with static members only, named with other arguments
    // (`: int_constant<sizeof(T) * 8>`), is a trait too.
    let trait_like = |b: &StructDef| {
        b.fields.iter().all(|f| f.is_static) && b.ctors.is_empty() && b.methods.is_empty()
    };
    let found = found.filter(|&b| {
        args.is_empty()
            || !trait_like(&structs[b])
            || own_arguments(&structs[i], &structs[b], &base, &args).is_ok()
    });
    if found.is_none() && !args.is_empty() {
        // `: int_constant<N>`, a trait this file does not define as a class template: the
        // class has its `value` (made where the class was read), and no base.
        structs[i].base = None;
        state[i] = State::Open;
        return flatten(structs, i, state);
    }
    if found.is_none() && args.is_empty() && super::vector_base::derive(&mut structs[i], &base) {
        if !structs[i].virtuals.is_empty() {
            let span = structs[i].name.span;
            structs[i].fields.insert(0, vptr(id, span));
        }
        state[i] = State::Done;
        return;
    }
    let Some(b) = found else {
        structs[i].unsupported.get_or_insert((
            format!(
                "the base class `{}` (simt derives from a class of this file without template parameters)",
                base.name
            ),
            base.span,
        ));
        state[i] = State::Done;
        return;
    };
    flatten(structs, b, state);
    let parent = structs[b].clone();
    let d = &mut structs[i];
    if !args.is_empty() {
        if let Err(e) = own_arguments(d, &parent, &base, &args) {
            d.unsupported.get_or_insert(e);
            state[i] = State::Done;
            return;
        }
        // Not a trait's `value` after all: a class template's instance is a base class.
        let trait_value = format!("{}{args}::value", base.name);
        d.fields.retain(|f| {
            !(f.is_static
                && f.name.name == "value"
                && matches!(&f.init, Some(Expr { kind: ExprKind::Name(n), .. }) if *n == trait_value))
        });
    }
    if let Some(u) = parent.unsupported.clone() {
        d.unsupported.get_or_insert(u);
    }
    let hidden = d.fields.iter().find(|f| {
        !f.is_static
            && parent
                .fields
                .iter()
                .any(|g| !g.is_static && g.name.name == f.name.name)
    });
    if let Some(f) = hidden {
        let what = format!(
            "the member `{}`, which hides the member of the same name of its base class `{}`",
            f.name.name, base.name
        );
        d.unsupported.get_or_insert((what, f.name.span));
    }
    // Virtual: what the base declares virtual, and what this class does.
    let mut virtuals: Vec<VirtualMember> = parent
        .virtuals
        .iter()
        .map(|v| {
            let defined = d
                .methods
                .iter()
                .any(|m| m.name.name == v.name && m.params.len() == v.arity);
            VirtualMember {
                pure: v.pure && !defined,
                ..v.clone()
            }
        })
        .collect();
    for v in std::mem::take(&mut d.virtuals) {
        match virtuals
            .iter_mut()
            .find(|w| w.name == v.name && w.arity == v.arity)
        {
            Some(w) => w.pure = v.pure,
            None => virtuals.push(v),
        }
    }
    let inherited_poly = !parent.virtuals.is_empty();
    let mut fields: Vec<Field> = Vec::new();
    if !virtuals.is_empty() && !inherited_poly {
        fields.push(vptr(id, d.name.span));
    }
    // A static member of the derived class replaces the base's of its name.
    let own = std::mem::take(&mut d.fields);
    let replaced = |g: &Field| {
        g.is_static
            && own
                .iter()
                .any(|f| f.is_static && f.name.name == g.name.name)
    };
    fields.extend(parent.fields.iter().filter(|g| !replaced(g)).map(|f| {
        if f.name.name == VPTR {
            vptr(id, f.name.span)
        } else {
            f.clone()
        }
    }));
    fields.extend(own);
    d.fields = fields;
    for m in &parent.methods {
        let own = d
            .methods
            .iter()
            .any(|n| n.name.name == m.name.name && n.params.len() == m.params.len());
        if !own {
            d.methods.push(m.clone());
        }
    }
    for a in &parent.aliases {
        if !d.aliases.iter().any(|(n, _)| n.name == a.0.name) {
            d.aliases.push(a.clone());
        }
    }
    d.virtuals = virtuals;
    if let Err(e) = construct_base(d, &parent, &base) {
        d.unsupported.get_or_insert(e);
    }
    state[i] = State::Done;
}

/// A class template's base `B<T, N>` names the template's own parameters of the same names
/// (`template <typename T> struct PtrSz : DevPtr<T>`), so the base's members, written in its
/// parameters, are the derived class's as they stand. Other arguments (`: B<float>`,
/// `: B<T*>`) are refused.
fn own_arguments(
    d: &StructDef,
    parent: &StructDef,
    base: &Ident,
    args: &str,
) -> std::result::Result<(), (String, Span)> {
    let targs = super::parse_kernel_ref(&format!("f{args}"))
        .map(|(_, _, targs)| targs)
        .unwrap_or_default();
    let own = |name: &str| d.template.iter().any(|p| p.name.name == name);
    let same = targs.len() == parent.template.len()
        && targs.iter().zip(&parent.template).all(|(a, p)| match a {
            TemplateArg::Type(t) => {
                t.base_text == p.name.name
                    && !t.pointer
                    && !t.reference
                    && !t.is_const
                    && own(&t.base_text)
            }
            TemplateArg::Value(Expr {
                kind: ExprKind::Name(n),
                ..
            }) => *n == p.name.name && own(n),
            TemplateArg::Value(_) => false,
        });
    if same {
        return Ok(());
    }
    let names: Vec<&str> = parent
        .template
        .iter()
        .map(|p| p.name.name.as_str())
        .collect();
    Err((
        format!(
            "the base class `{}{args}` (simt derives a class template from an instance of a class template whose arguments are the derived class's own parameters of the same names, `{}<{}>`)",
            base.name,
            base.name,
            names.join(", ")
        ),
        base.span,
    ))
}

/// Makes each constructor of `d` first run its base's constructor, as C++ constructs the base
/// subobject before the class's own members: the body of the one the initialiser list calls
/// (`: shape(1.0f)`, by its number of arguments), or else of the default one, as a block ahead
/// of the rest of the list and the body. A class without constructors gets one that runs only
/// the default one. A call no single base constructor takes, or a base without a default
/// constructor where one is needed, is refused.
fn construct_base(
    d: &mut StructDef,
    parent: &StructDef,
    base: &Ident,
) -> std::result::Result<(), (String, Span)> {
    let default = parent.ctors.iter().find(|c| c.params.is_empty());
    if d.ctors.is_empty() {
        match default {
            Some(c) if !c.body.is_empty() => {
                let mut own = c.clone();
                own.name.name = d.name.name.clone();
                d.ctors.push(own);
            }
            Some(_) => {}
            None if parent.ctors.is_empty() => {}
            None => {
                return Err((
                    format!(
                        "the class `{}`, whose base `{}` has no default constructor,",
                        d.name.name, base.name
                    ),
                    d.name.span,
                ))
            }
        }
        return Ok(());
    }
    for ctor in &mut d.ctors {
        // `: shape()` in the initialiser list is the statement `this.shape = {}`.
        let named = ctor.body.iter().position(|s| match &s.kind {
            StmtKind::Assign { target, .. } => matches!(
                &target.kind,
                ExprKind::Member { base: b, field }
                    if field.name == base.name
                    && matches!(&b.kind, ExprKind::Name(n) if n == "this")
            ),
            _ => false,
        });
        if let Some(k) = named {
            let call = ctor.body.remove(k);
            let StmtKind::Assign { value, .. } = &call.kind else {
                unreachable!("found above: an assignment");
            };
            let args = match &value.kind {
                ExprKind::List(args) => args.clone(),
                _ => vec![value.clone()],
            };
            if !args.is_empty() {
                let run = with_arguments(parent, base, &args, call.span)?;
                ctor.body.insert(0, run);
                continue;
            }
        }
        match default {
            Some(c) => {
                if !c.body.is_empty() {
                    let block = Stmt {
                        kind: StmtKind::Block(c.body.clone()),
                        span: c.span,
                    };
                    ctor.body.insert(0, block);
                }
            }
            None if parent.ctors.is_empty() => {}
            None => {
                return Err((
                    format!(
                        "the constructor of `{}`, whose base `{}` has no default constructor,",
                        d.name.name, base.name
                    ),
                    ctor.span,
                ))
            }
        }
    }
    Ok(())
}

/// The base constructor that takes `args` (`: DevPtr<T>(data_arg)`), as a block that runs its
/// body with its parameters bound to them: C++ [class.base.init] evaluates the arguments in the
/// derived constructor's scope, so they are first copied into locals of their own, which the
/// parameters (often of the same names) then take.
fn with_arguments(
    parent: &StructDef,
    base: &Ident,
    args: &[Expr],
    span: Span,
) -> std::result::Result<Stmt, (String, Span)> {
    let fits: Vec<_> = parent
        .ctors
        .iter()
        .filter(|c| c.params.len() == args.len())
        .collect();
    let c = match fits.as_slice() {
        [c] => *c,
        [] => {
            return Err((
                format!(
                    "the call of the base constructor `{}(...)` with {} arguments (no constructor of `{}` takes {})",
                    base.name,
                    args.len(),
                    base.name,
                    args.len()
                ),
                span,
            ))
        }
        _ => {
            return Err((
                format!(
                    "the call of the base constructor `{}(...)` with {} arguments (more than one constructor of `{}` takes {})",
                    base.name,
                    args.len(),
                    base.name,
                    args.len()
                ),
                span,
            ))
        }
    };
    let decl = |ty: &TypeName, name: Ident, init: Expr| Stmt {
        kind: StmtKind::Decl {
            of: None,
            ty: ty.clone(),
            decls: vec![Declarator {
                pointer: ty.pointer,
                reference: ty.reference,
                ..Declarator::plain(name, Some(init))
            }],
        },
        span,
    };
    let mut outer = Vec::new();
    let mut inner = Vec::new();
    for (k, (p, a)) in c.params.iter().zip(args).enumerate() {
        let temp = Ident {
            name: format!("__base_arg{k}"),
            span: a.span,
        };
        let read = Expr {
            kind: ExprKind::Name(temp.name.clone()),
            span: a.span,
        };
        outer.push(decl(&p.ty, temp, a.clone()));
        inner.push(decl(&p.ty, p.name.clone(), read));
    }
    inner.extend(c.body.iter().cloned());
    outer.push(Stmt {
        kind: StmtKind::Block(inner),
        span,
    });
    Ok(Stmt {
        kind: StmtKind::Block(outer),
        span,
    })
}

/// `unsigned long long __vptr = id;`: the first member of a polymorphic class.
fn vptr(id: u64, span: Span) -> Field {
    Field {
        ty: TypeName {
            base: BaseType::U64,
            base_text: "unsigned long long".into(),
            pointer: false,
            reference: false,
            is_const: false,
            span,
        },
        name: Ident {
            name: VPTR.into(),
            span,
        },
        dims: Vec::new(),
        init: Some(Expr {
            kind: ExprKind::Int {
                value: id,
                unsigned: true,
                long: true,
                hex: false,
            },
            span,
        }),
        is_static: false,
        anonymous: false,
        pointer_to_pointer: false,
        align: None,
    }
}

/// The names the file may know a base written `base` by, most likely first: as written, as a
/// nested class (`Outer::Inner` is `Outer__Inner`), as a namespace's class (`ns::Base` is
/// `Base`).
fn written_as(base: &str) -> Vec<String> {
    let base = base.strip_prefix("::").unwrap_or(base);
    let mut names = vec![base.to_string()];
    if let Some((_, last)) = base.rsplit_once("::") {
        names.push(base.replace("::", "__"));
        names.push(last.to_string());
    }
    names
}
