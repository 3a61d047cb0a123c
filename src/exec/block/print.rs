//! `printf` in a block: active lanes in lane order, up to the device buffer's size.

use super::BlockRunner;
use crate::exec::regs::RegFile;
use crate::ir::{bank_of, Bank, Reg};
use crate::printf::{self, Arg, Piece};
use crate::value::Scalar;

/// The device's printf buffer: 1 MiB by default (`cudaLimitPrintfFifoSize`, CUDA C++
/// Programming Guide, "Formatted Output"); output past it is dropped.
pub(crate) const PRINTF_LIMIT: usize = 1 << 20;

impl BlockRunner<'_> {
    /// Runs `printf` number `id` on the active lanes.
    pub(super) fn printf(&mut self, id: u32) {
        let call = &self.ir.printfs[id as usize];
        for lane in 0..self.mask.len() {
            if !self.mask[lane] {
                continue;
            }
            if self.printf.len() >= PRINTF_LIMIT {
                self.printf_truncated = true;
                return;
            }
            let mut args = call.args.iter();
            for piece in &call.pieces {
                match piece {
                    Piece::Text(t) => self.printf.push_str(t),
                    Piece::Conv(spec) => {
                        let &(r, ty) = args.next().expect("checker: one value per conversion");
                        printf::format(&mut self.printf, spec, value(&self.regs, r, ty, lane));
                    }
                }
            }
        }
    }
}

/// Lane `lane` of register `r` (of type `ty`) as a printf argument.
fn value(regs: &RegFile, r: Reg, ty: Scalar, lane: usize) -> Arg {
    let i = r.0 as usize;
    match bank_of(ty) {
        Bank::B => Arg::Int(i128::from(regs.b[i][lane])),
        Bank::W if ty.is_signed() => Arg::Int(i128::from(regs.w[i][lane] as i32)),
        Bank::W => Arg::Int(i128::from(regs.w[i][lane])),
        Bank::D if ty.is_signed() => Arg::Int(i128::from(regs.d[i][lane] as i64)),
        Bank::D => Arg::Int(i128::from(regs.d[i][lane])),
        Bank::F => Arg::Float(f64::from(regs.f[i][lane])),
        Bank::G => Arg::Float(regs.g[i][lane]),
    }
}
