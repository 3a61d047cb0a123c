//! Warp-level operations: shuffles, votes, matches and reductions, `__activemask`, and the check that a mask's lanes are active.

use super::regs::{RegFile, Stored};
use crate::ir::Reg;
use crate::value::{Scalar, ShflKind, VoteKind, WarpFold};

/// The active lanes of each warp as bits.
pub(crate) fn active_bits(mask: &[bool]) -> Vec<u32> {
    mask.chunks(32)
        .map(|w| {
            w.iter()
                .enumerate()
                .fold(0u32, |b, (i, &m)| b | (u32::from(m) << i))
        })
        .collect()
}

/// Bits of the lanes that exist in warp `w` (a partial last warp has fewer).
fn existing_bits(lanes: usize, w: usize) -> u32 {
    let n = (lanes - w * 32).min(32);
    if n == 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// The first active lane whose mask names an existing lane that is not active and has not
/// exited (`returned`): `(lane, missing lane)`. PTX's `*.sync` instructions wait for the
/// non-exited lanes of their mask only, so a full mask after an early `return` is well defined.
pub(crate) fn inactive_in_mask(
    mask: &[bool],
    returned: &[bool],
    masks: &[u32],
) -> Option<(usize, usize)> {
    let bits = active_bits(mask);
    let gone = active_bits(returned);
    for (l, (&m, &want)) in mask.iter().zip(masks).enumerate() {
        if !m {
            continue;
        }
        let w = l / 32;
        let missing = want & existing_bits(mask.len(), w) & !bits[w] & !gone[w];
        if missing != 0 {
            return Some((l, w * 32 + missing.trailing_zeros() as usize));
        }
    }
    None
}

/// The first active lane whose own bit is missing from its mask. PTX leaves `shfl.sync`,
/// `vote.sync`, `match.sync`, `redux.sync` and `bar.warp.sync` undefined when the executing thread
/// is not in the membermask (PTX ISA, each instruction's description).
pub(crate) fn outside_own_mask(mask: &[bool], masks: &[u32]) -> Option<usize> {
    mask.iter()
        .zip(masks)
        .enumerate()
        .find(|&(l, (&m, &want))| m && want & (1 << (l % 32)) == 0)
        .map(|(l, _)| l)
}

/// Why a shuffle has no answer for a lane.
pub(crate) enum ShuffleFault {
    /// The lane's width is not a power of two from 1 to 32.
    Width(usize),
    /// The lane (first) reads a lane that has exited (second): undefined on a GPU.
    Exited(usize, usize),
    /// The lane (first) reads lane `second` of its warp, past the end of the block's partial
    /// last warp: a thread that does not exist, as undefined as an exited one.
    Missing(usize, u32),
}

/// Register indices of a shuffle.
pub(crate) struct ShflRegs {
    pub(crate) d: Reg,
    pub(crate) v: Reg,
    pub(crate) arg: Reg,
    pub(crate) width: Reg,
    /// A read past the end of a partial warp is a fault (the kernel's own shuffle), not the
    /// lane's own value (a collective's, which discards it).
    pub(crate) strict: bool,
}

/// `d = v` read from the source lane of each active lane.
pub(crate) fn shuffle<S: Stored>(
    regs: &mut RegFile,
    (mask, returned): (&[bool], &[bool]),
    kind: ShflKind,
    r: &ShflRegs,
) -> Result<(), ShuffleFault> {
    let mut dst = std::mem::take(&mut S::bank(regs)[r.d.0 as usize]);
    let src = &S::bank_ref(regs)[r.v.0 as usize];
    let args = &regs.w[r.arg.0 as usize];
    let widths = &regs.w[r.width.0 as usize];
    let mut bad = None;
    for (l, &m) in mask.iter().enumerate() {
        if !m {
            continue;
        }
        let width = widths[l];
        if !(1..=32).contains(&width) || !width.is_power_of_two() {
            bad = Some(ShuffleFault::Width(l));
            break;
        }
        let base = l & !31;
        dst[l] = match kind.source((l & 31) as u32, args[l], width) {
            Some(s) if base + (s as usize) < mask.len() => {
                let from = base + s as usize;
                if returned[from] {
                    bad = Some(ShuffleFault::Exited(l, from));
                    break;
                }
                src[from]
            }
            Some(s) if r.strict => {
                bad = Some(ShuffleFault::Missing(l, s));
                break;
            }
            _ => src[l],
        };
    }
    S::bank(regs)[r.d.0 as usize] = dst;
    bad.map_or(Ok(()), Err)
}

/// `__ballot_sync` / `__any_sync` / `__all_sync` over the active lanes named by each lane's mask.
pub(crate) fn vote(
    regs: &mut RegFile,
    mask: &[bool],
    kind: VoteKind,
    d: Reg,
    pred: Reg,
    masks: Reg,
) {
    let active = active_bits(mask);
    let p = &regs.b[pred.0 as usize];
    let taken: Vec<u32> = mask
        .chunks(32)
        .zip(p.chunks(32))
        .map(|(m, x)| {
            m.iter()
                .zip(x)
                .enumerate()
                .fold(0u32, |b, (i, (&mi, &xi))| b | (u32::from(mi && xi) << i))
        })
        .collect();
    let want = regs.w[masks.0 as usize].clone();
    let dst = &mut regs.w[d.0 as usize];
    for (l, &m) in mask.iter().enumerate() {
        if !m {
            continue;
        }
        let w = l / 32;
        let named = want[l] & active[w];
        dst[l] = match kind {
            VoteKind::Ballot => taken[w] & named,
            VoteKind::Any => u32::from(taken[w] & named != 0),
            VoteKind::All => u32::from(named & !taken[w] == 0),
        };
    }
}

/// `d = __match_*_sync(mask, v)` or `__reduce_*_sync(mask, v)`: each active lane folds the values
/// of the lanes its mask names that have not exited (`warp_op` checked that every other named lane
/// is active). PTX's `match.sync` and `redux.sync` read "all non-exited threads in membermask", and
/// `match.all` answers with those threads' mask.
pub(crate) fn fold(
    regs: &mut RegFile,
    mask: &[bool],
    kind: WarpFold,
    ty: Scalar,
    (d, v, masks): (Reg, Reg, Reg),
) {
    let values: Vec<u64> = if ty.size() == 8 {
        regs.d[v.0 as usize].clone()
    } else {
        regs.w[v.0 as usize].iter().map(|&x| u64::from(x)).collect()
    };
    let signed = ty == Scalar::I32;
    let active = active_bits(mask);
    for (l, &m) in mask.iter().enumerate() {
        if !m {
            continue;
        }
        let base = l / 32 * 32;
        let warp = &values[base..(base + 32).min(values.len())];
        let named = regs.w[masks.0 as usize][l] & active[l / 32];
        regs.w[d.0 as usize][l] = kind.fold(warp, named, l - base, signed);
    }
}

/// `d = __activemask()`.
pub(crate) fn active_mask(regs: &mut RegFile, mask: &[bool], d: Reg) {
    let active = active_bits(mask);
    let dst = &mut regs.w[d.0 as usize];
    for (l, &m) in mask.iter().enumerate() {
        if m {
            dst[l] = active[l / 32];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_must_name_active_lanes_only() {
        let mut mask = vec![true; 40];
        let mut returned = vec![false; 40];
        // Full mask, everyone active: fine; lanes 40..63 do not exist in a 40-thread block.
        assert_eq!(inactive_in_mask(&mask, &returned, &[u32::MAX; 40]), None);
        // Lane 3 diverged away but is named by lane 0's full mask.
        mask[3] = false;
        assert_eq!(
            inactive_in_mask(&mask, &returned, &[u32::MAX; 40]),
            Some((0, 3))
        );
        // A mask without lane 3 is fine.
        assert_eq!(inactive_in_mask(&mask, &returned, &[!(1 << 3); 40]), None);
        // So is one naming lane 3 once it has returned from the kernel.
        returned[3] = true;
        assert_eq!(inactive_in_mask(&mask, &returned, &[u32::MAX; 40]), None);
    }

    #[test]
    fn a_calling_lane_must_name_itself() {
        // 40 lanes, all active: warp 0 is lanes 0-31, warp 1 lanes 32-39. 0x0fffffff (kaolin's
        // typo for 0xffffffff) leaves out bits 28-31, so lane 28 is the first caller outside its
        // own mask; in warp 1 the same mask leaves out nobody (lanes 32-39 are bits 0-7).
        let mask = [true; 40];
        assert_eq!(outside_own_mask(&mask, &[0x0fff_ffff; 40]), Some(28));
        assert_eq!(outside_own_mask(&mask[..32], &[u32::MAX; 32]), None);
        let mut in_warp1 = [u32::MAX; 40];
        in_warp1[35] = !(1 << 3);
        assert_eq!(outside_own_mask(&mask, &in_warp1), Some(35));
        // An inactive lane's mask is not looked at.
        let mut quiet = mask;
        quiet[28..32].fill(false);
        assert_eq!(outside_own_mask(&quiet, &[0x0fff_ffff; 40]), None);
    }
}
