//! Texture-object fetches (`tex1Dfetch<T>`, `tex1D<T>`, `tex2D<T>`, `tex3D<T>`): typed against a `cudaTextureObject_t` handle.

use super::typed::*;
use super::{scalar_of, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast;
use crate::texture::Fetch;
use crate::value::Scalar;

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `tex2D<T>(tex, x, y)`: the handle, then one coordinate per dimension (`int` for
    /// `tex1Dfetch`, `float` for the others, converted as C converts arguments); the value is a
    /// `T`. Which texture the handle names, and whether `T` is what it returns, the launch
    /// decides.
    pub(crate) fn texture_fetch(
        &mut self,
        fetch: Fetch,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        if let [ast::TemplateArg::Type(t)] = targs {
            let whole = matches!(super::vector::cuda_vector(&t.base_text), Some((_, 2 | 4)));
            if t.base == ast::BaseType::Vector && whole {
                return Err(CheckError::Mismatch {
                    expected: "a scalar".into(),
                    found: format!("a `{}`", t.base_text),
                    span,
                    help: Some(format!(
                        "`{}<{}>` returns a vector: give it to a `{}` variable, or read `.x`",
                        fetch.name(),
                        t.base_text,
                        t.base_text
                    )),
                });
            }
        }
        let mut parts = self.texture_fetch_parts(fetch, targs, args, span)?;
        Ok(parts.remove(0))
    }

    /// `tex2D<T>(tex, x, y)` of a scalar or vector `T` (`float4`, `uchar4`: a texture of that
    /// many channels): one fetch per component, the coordinates computed once (the first
    /// component's fetch computes them into variables the others read).
    pub(crate) fn texture_fetch_parts(
        &mut self,
        fetch: Fetch,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Vec<Expr>> {
        let name = fetch.name();
        let [ast::TemplateArg::Type(t)] = targs else {
            return Err(CheckError::Unsupported {
                what: format!("`{name}` with these template arguments"),
                span,
                help: Some(format!(
                    "name the type it returns, e.g. `{name}<float>(tex, ...)`"
                )),
            });
        };
        let (ty, width) = if t.base == ast::BaseType::Vector {
            match super::vector::cuda_vector(&t.base_text) {
                Some((elem, n @ (2 | 4))) => (elem, n),
                _ => {
                    return Err(CheckError::Unsupported {
                        what: format!("`{name}<{}>`", t.base_text),
                        span: t.span,
                        help: Some(
                            "a texel has 1, 2 or 4 channels (`float`, `float2`, `float4`)".into(),
                        ),
                    })
                }
            }
        } else {
            (scalar_of(t)?, 1)
        };
        super::intrinsics::arity(
            name,
            args.len(),
            1 + fetch.dims() as usize,
            1 + fetch.dims() as usize,
            span,
        )?;
        let handle = self.expr(&args[0])?;
        if handle.ty != Scalar::U64 {
            return Err(CheckError::Mismatch {
                expected: "a `cudaTextureObject_t`".into(),
                found: format!("a `{}`", handle.ty.c_name()),
                span: args[0].span,
                help: Some(format!(
                    "`{name}`'s first argument is a texture object: a `cudaTextureObject_t` parameter the launch binds to an array"
                )),
            });
        }
        let coord_ty = match fetch {
            Fetch::Index => Scalar::I32,
            Fetch::Coords(_) => Scalar::F32,
        };
        let mut coords = Vec::new();
        for a in &args[1..] {
            let c = self.expr(a)?;
            if !c.ty.is_integer() && !c.ty.is_float() {
                return Err(CheckError::Mismatch {
                    expected: "a number".into(),
                    found: format!("a `{}`", c.ty.c_name()),
                    span: a.span,
                    help: None,
                });
            }
            coords.push(self.convert(c, coord_ty));
        }
        let texture = |channel: u32, handle: Expr, coords: Vec<Expr>| Expr {
            kind: ExprKind::Texture {
                fetch,
                returns: ty,
                handle: Box::new(handle),
                coords,
                channel: channel as u8,
                channels: width as u8,
            },
            ty: ty.promoted(),
            span,
        };
        if width == 1 {
            return Ok(vec![texture(0, handle, coords)]);
        }
        // The handle and coordinates into variables, assigned by the first component's fetch.
        let mut body = Vec::new();
        let mut vars = Vec::new();
        for e in std::iter::once(handle).chain(coords) {
            let var = self.new_local("texel", e.ty, span);
            vars.push(Expr {
                kind: ExprKind::Var(var),
                ty: e.ty,
                span,
            });
            body.push(Stmt {
                kind: StmtKind::Assign { var, value: e },
                span,
            });
        }
        let (handle, coords) = vars.split_first().expect("a handle");
        let first_handle = Expr {
            kind: ExprKind::Inline {
                name: name.to_string(),
                body,
                result: match handle.kind {
                    ExprKind::Var(v) => Some(v),
                    _ => unreachable!("a variable"),
                },
            },
            ty: handle.ty,
            span,
        };
        Ok((0..width)
            .map(|k| {
                let h = if k == 0 {
                    first_handle.clone()
                } else {
                    handle.clone()
                };
                texture(k, h, coords.to_vec())
            })
            .collect())
    }
}
