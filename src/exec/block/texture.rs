//! Texture fetches in a block: each active lane reads the texture its handle names ([`crate::texture`]).

use super::BlockRunner;
use crate::exec::error::RunError;
use crate::ir::{bank_of, Bank, Reg};
use crate::texture::Fetch;
use crate::value::{Scalar, Value};

impl BlockRunner<'_> {
    /// `d = fetch<ty>(handle, coords)` on the active lanes, component `channel.0` of a texel of
    /// `channel.1`: one texture request per warp with an active lane, counted with the first
    /// component (a `float4` texel is one request).
    pub(super) fn texture(
        &mut self,
        pc: usize,
        (fetch, ty, channel): (Fetch, Scalar, (u8, u8)),
        d: Reg,
        handle: Reg,
        coords: [Reg; 3],
    ) -> Result<(), RunError> {
        if channel.0 == 0 {
            self.counters[pc].tex_requests += self.warps_active;
        }
        for lane in 0..self.mask.len() {
            if !self.mask[lane] {
                continue;
            }
            let h = self.regs.d[handle.0 as usize][lane];
            let fail = |message: String| RunError::Texture {
                message,
                span: self.ir.spans[pc],
                block: self.block,
                thread: self.cfg.thread_of(lane),
            };
            let Some(tex) = usize::try_from(h)
                .ok()
                .and_then(|h| h.checked_sub(1))
                .and_then(|i| self.textures.get(i))
            else {
                return Err(fail(format!(
                    "`{}` reads the texture object {h}, which is no texture of this launch",
                    fetch.name()
                )));
            };
            tex.readable(fetch, (ty, channel.1)).map_err(fail)?;
            let mut at = [0f64; 3];
            for (k, c) in coords.iter().enumerate().take(fetch.dims() as usize) {
                at[k] = match fetch {
                    Fetch::Index => f64::from(self.regs.w[c.0 as usize][lane] as i32),
                    Fetch::Coords(_) => f64::from(self.regs.f[c.0 as usize][lane]),
                };
            }
            let v = tex.fetch(fetch, at, channel.0);
            match (bank_of(ty), v.cast(ty)) {
                (Bank::F, Value::F32(x)) => self.regs.f[d.0 as usize][lane] = x,
                (Bank::W, Value::I32(x)) => self.regs.w[d.0 as usize][lane] = x as u32,
                (Bank::W, Value::U32(x)) => self.regs.w[d.0 as usize][lane] = x,
                other => unreachable!("texel types are 8-32-bit integers or float: {other:?}"),
            }
        }
        Ok(())
    }
}
