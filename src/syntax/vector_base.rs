//! A class derived from a CUDA vector type (`struct gfloat3 : float3`): the vector's members first, its alignment, and `: float3(v)` in a constructor.

use super::ast::{
    Align, BaseType, Declarator, Expr, ExprKind, Field, Ident, Stmt, StmtKind, StructDef, TypeName,
};

/// The members of a vector type, in order.
const MEMBERS: [&str; 4] = ["x", "y", "z", "w"];

/// The C type of each component of `name`'s vectors and how many there are (`float3`:
/// `float`, 3). `dim3`, whose constructor gives its missing components 1, is no plain vector.
fn vector(name: &str) -> Option<(&'static str, usize)> {
    if name == "dim3" {
        return None;
    }
    let (component, n) = crate::check::vector::cuda_vector(name)?;
    Some((component.c_name(), n as usize))
}

/// Makes `d`, whose base `base` is a CUDA vector type, a class that begins with the vector's
/// members (`x`, `y`, `z` of a `float3`) and is aligned as the vector is, as C++ lays out the
/// base subobject; `: float3(v)` in a constructor sets them from `v`. `false` where the base is
/// no such vector type.
pub(crate) fn derive(d: &mut StructDef, base: &Ident) -> bool {
    let Some((component, n)) = vector(&base.name) else {
        return false;
    };
    let span = base.span;
    let ty = |text: &str| TypeName {
        // cuda_fp16.h's `half` is an identifier to the grammar, the rest C's words.
        base: match BaseType::named(text) {
            BaseType::Named => super::build::base_type(text),
            fp16 => fp16,
        },
        base_text: text.to_string(),
        pointer: false,
        reference: false,
        is_const: false,
        span,
    };
    if let Some(f) = d
        .fields
        .iter()
        .find(|f| !f.is_static && MEMBERS[..n].contains(&f.name.name.as_str()))
    {
        let what = format!(
            "the member `{}`, which hides the member of the same name of its base class `{}`",
            f.name.name, base.name
        );
        d.unsupported.get_or_insert((what, f.name.span));
        return true;
    }
    let members = MEMBERS[..n].iter().map(|m| Field {
        ty: ty(component),
        name: Ident {
            name: (*m).to_string(),
            span,
        },
        dims: Vec::new(),
        init: None,
        is_static: false,
        anonymous: false,
        pointer_to_pointer: false,
        align: None,
    });
    let at = d
        .fields
        .iter()
        .position(|f| f.name.name == super::inherit::VPTR)
        .map_or(0, |k| k + 1);
    d.fields.splice(at..at, members);
    d.align.get_or_insert(Align::Type(ty(&base.name)));
    for ctor in &mut d.ctors {
        initialise(&mut ctor.body, &base.name, &ty(&base.name), n);
    }
    true
}

/// `: float3(v)` in a constructor's initialiser list (the statement `this.float3 = v`): a copy
/// of `v` whose members set the class's, before the rest of the list and the body.
fn initialise(body: &mut Vec<Stmt>, base: &str, ty: &TypeName, n: usize) {
    let Some(k) = body.iter().position(|s| is_base_init(s, base)) else {
        return;
    };
    let init = body.remove(k);
    let StmtKind::Assign { value, .. } = init.kind else {
        unreachable!("found above: an assignment");
    };
    let span = init.span;
    let name = |text: &str| Expr {
        kind: ExprKind::Name(text.to_string()),
        span,
    };
    let member = |of: Expr, m: &str| Expr {
        kind: ExprKind::Member {
            base: Box::new(of),
            field: Ident {
                name: m.to_string(),
                span,
            },
        },
        span,
    };
    let copy = "__simt_base";
    let mut block = vec![Stmt {
        kind: StmtKind::Decl {
            ty: ty.clone(),
            decls: vec![Declarator::plain(
                Ident {
                    name: copy.into(),
                    span,
                },
                Some(value),
            )],
            of: None,
        },
        span,
    }];
    block.extend(MEMBERS[..n].iter().map(|m| Stmt {
        kind: StmtKind::Assign {
            target: member(name("this"), m),
            op: None,
            op_span: span,
            value: member(name(copy), m),
        },
        span,
    }));
    body.insert(
        0,
        Stmt {
            kind: StmtKind::Block(block),
            span,
        },
    );
}

/// Whether `s` is `this.float3 = v`, the initialiser list's `: float3(v)`.
fn is_base_init(s: &Stmt, base: &str) -> bool {
    let StmtKind::Assign { target, .. } = &s.kind else {
        return false;
    };
    matches!(
        &target.kind,
        ExprKind::Member { base: b, field }
            if field.name == base && matches!(&b.kind, ExprKind::Name(n) if n == "this")
    )
}
