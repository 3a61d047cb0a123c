//! `texture(img, filter=linear, address=clamp, normalized=false, read=element, type=float)` in a launch section, and binding a `cudaTextureObject_t` parameter.

use std::sync::Arc;

use super::{bad, Env, Result};
use crate::exec::BufData;
use crate::host::error::HostError;
use crate::host::value::HostValue;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};
use crate::texture::{Desc, Texture, OPTIONS};
use crate::value::Scalar;

/// The texel types `type=` names: numpy's names, as a `.npy` file's dtype (C's `char`, `int`
/// and `float` are keywords of the launch section's grammar).
const TYPES: [(&str, Scalar); 8] = [
    ("int8", Scalar::I8),
    ("uint8", Scalar::U8),
    ("int16", Scalar::I16),
    ("uint16", Scalar::U16),
    ("int32", Scalar::I32),
    ("uint32", Scalar::U32),
    ("float16", Scalar::F16),
    ("float32", Scalar::F32),
];

/// The options that give a flat array's extent (CUDA's `cudaExtent`), innermost first.
const EXTENT: [&str; 3] = ["width", "height", "depth"];

/// Every option with its values, for messages.
fn all_options() -> String {
    let mut list: Vec<String> = OPTIONS
        .iter()
        .map(|(n, v)| format!("{n}={}", v.join("|")))
        .collect();
    list.push("width=N, height=N, depth=N".into());
    list.push(format!(
        "type={}",
        TYPES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join("|")
    ));
    list.join(", ")
}

fn refused(message: impl Into<String>, span: Span, label: &str) -> HostError {
    HostError::Texture {
        message: message.into(),
        span,
        label: label.into(),
        help: Some(format!(
            "`texture(array, option=value, ...)` takes {}",
            all_options()
        )),
    }
}

impl Env {
    /// `texture(img, option=value, ...)`: the array and the sampling state a texture object
    /// reads it with; the options CUDA would refuse (`cudaCreateTextureObject`) are refused here.
    pub(super) fn texture(&mut self, args: &[Expr], span: Span) -> Result<HostValue> {
        let Some((first, options)) = args.split_first() else {
            return Err(refused(
                "`texture` takes an array, then options",
                span,
                "no array",
            ));
        };
        let array = self.value(first)?;
        let HostValue::Array {
            data, shape, dtype, ..
        } = array
        else {
            return Err(bad(
                format!("`texture` takes an array first, found {}", array.kind()),
                first.span,
                "not an array",
                None,
            ));
        };
        let mut desc = Desc::default();
        let mut ty = None;
        // `width=`, `height=`, `depth=`: the texture's extent, when the array is flat.
        let mut extent: [Option<usize>; 3] = [None; 3];
        for o in options {
            let ExprKind::Assign {
                target,
                op: None,
                value,
                ..
            } = &o.kind
            else {
                return Err(refused(
                    "an option of `texture` is written `name=value`",
                    o.span,
                    "not `name=value`",
                ));
            };
            let ExprKind::Name(name) = &target.kind else {
                return Err(refused(
                    "an option's name is a word",
                    target.span,
                    "not a name",
                ));
            };
            if let Some(k) = EXTENT.iter().position(|n| n == name) {
                let v = self.value(value)?;
                extent[k] = Some(super::as_size(&v, value.span)?);
                continue;
            }
            if name == "channels" {
                let v = self.value(value)?;
                desc.channels = match super::as_size(&v, value.span)? {
                    n @ (1 | 2 | 4) => n as u8,
                    n => {
                        return Err(refused(
                            format!(
                            "a texel has 1, 2 or 4 channels (`float`, `float2`, `float4`), not {n}"
                        ),
                            value.span,
                            "not 1, 2 or 4",
                        ))
                    }
                };
                continue;
            }
            let text = match &value.kind {
                ExprKind::Name(v) => v.clone(),
                ExprKind::Bool(b) => b.to_string(),
                _ => {
                    return Err(refused(
                        format!("the value of `{name}` is a word"),
                        value.span,
                        "not a word",
                    ))
                }
            };
            if name == "type" {
                let Some(&(_, t)) = TYPES.iter().find(|(n, _)| *n == text) else {
                    let hint = crate::diag::did_you_mean(&text, TYPES.iter().map(|(n, _)| *n))
                        .map_or_else(String::new, |d| format!("; {d}"));
                    return Err(refused(
                        format!("`type` is a texel type, not `{text}`{hint}"),
                        value.span,
                        "no such texel type",
                    ));
                };
                ty = Some(t);
                continue;
            }
            if let Err(why) = desc.set(name, &text) {
                let at = if OPTIONS.iter().any(|(n, _)| n == name) {
                    value.span
                } else {
                    target.span
                };
                return Err(refused(why, at, "not an option of `texture`"));
            }
        }
        let elem = match (dtype, ty) {
            (Some(d), Some(t)) if d != t => {
                return Err(refused(
                    format!(
                        "the array holds `{}` (from its file) but `type={}` asks for `{}`",
                        d.c_name(),
                        t.c_name(),
                        t.c_name()
                    ),
                    span,
                    "two texel types",
                ))
            }
            (Some(d), _) => d,
            (None, t) => t.unwrap_or(Scalar::F32),
        };
        let shape = match extent {
            // A flat array of several channels: one texel per `channels` elements.
            [None, None, None]
                if desc.channels > 1
                    && shape.len() == 1
                    && shape[0] % usize::from(desc.channels) == 0 =>
            {
                vec![
                    shape[0] / usize::from(desc.channels),
                    usize::from(desc.channels),
                ]
            }
            [None, None, None] => shape,
            [Some(w), h, d] => {
                let mut dims: Vec<usize> = match (h, d) {
                    (_, Some(d)) => vec![d, h.unwrap_or(1), w],
                    (Some(h), None) => vec![h, w],
                    (None, None) => vec![w],
                };
                // The channels are the last axis.
                if desc.channels > 1 {
                    dims.push(usize::from(desc.channels));
                }
                let texels: usize = dims.iter().product();
                if texels != data.len() {
                    return Err(refused(
                        format!(
                            "the extent {} is {texels} texels but the array has {} elements",
                            dims.iter()
                                .rev()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(" x "),
                            data.len()
                        ),
                        span,
                        "wrong extent",
                    ));
                }
                dims
            }
            _ => {
                return Err(refused(
                    "`height=` and `depth=` need `width=` too",
                    span,
                    "no width",
                ))
            }
        };
        let data = texels(&data, elem);
        Texture::new("texture", elem, data.as_f64().into_owned(), &shape, desc)
            .map_err(|why| refused(why, span, "CUDA would refuse this texture"))?;
        Ok(HostValue::Texture {
            data: Arc::new(data),
            shape,
            desc,
        })
    }
}

/// The array's elements as `elem` texels: converted with C casts, as a buffer's are.
fn texels(data: &BufData, elem: Scalar) -> BufData {
    if data.elem() == elem {
        data.clone()
    } else {
        BufData::from_f64(elem, &data.as_f64())
    }
}

/// The texture a `cudaTextureObject_t` parameter `name` is bound to by `v`: an array (its
/// file's type, `float` when computed, sampled as a zeroed `cudaTextureDesc` with clamp
/// addressing) or `texture(...)`. `Err` says why not.
pub(crate) fn bound(name: &str, v: &HostValue) -> std::result::Result<Texture, String> {
    let (data, shape, desc) = match v {
        HostValue::Array {
            data, shape, dtype, ..
        } => {
            let elem = dtype.unwrap_or(Scalar::F32);
            (texels(data, elem), shape, Desc::default())
        }
        HostValue::Texture { data, shape, desc } => ((**data).clone(), shape, *desc),
        other => {
            return Err(format!(
                "`{name}` is a `cudaTextureObject_t`: bind it to an array or `texture(array, ...)`, not {}",
                other.kind()
            ))
        }
    };
    Texture::new(name, data.elem(), data.as_f64().into_owned(), shape, desc)
}
