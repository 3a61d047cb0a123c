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
        if t.base == ast::BaseType::Vector {
            return Err(CheckError::Unsupported {
                what: format!("`{name}<{}>` (a texture of vector texels)", t.base_text),
                span: t.span,
                help: Some(
                    "simt's textures hold one channel: read a scalar texture per channel".into(),
                ),
            });
        }
        let ty = scalar_of(t)?;
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
        Ok(Expr {
            kind: ExprKind::Texture {
                fetch,
                returns: ty,
                handle: Box::new(handle),
                coords,
            },
            ty: ty.promoted(),
            span,
        })
    }
}
