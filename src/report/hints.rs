//! Hints: rules that turn counters into advice with the source line it is about.
//!
//! Each rule looks at one instruction (or the launch) and fires only on a clear signal:
//!
//! | rule | fires when |
//! |---|---|
//! | `uncoalesced` | a global access moves ≥ 2× the sectors per request its bytes need |
//! | `misaligned` | a contiguous global access moves more sectors than needed because it starts off a 32-byte boundary |
//! | `bank-conflict` | a shared access takes ≥ 2× the conflict-free wavefronts |
//! | `divergence` | a branch splits at least half of the warps that evaluate it |
//! | `lane-divergence` | the same, for a condition on the lane within the warp (`lane == 0`, `lane >= offset`): a warp-level idiom whose split is its design |
//! | `race` | a race was found (one hint per pair of lines), with where a barrier would go |
//! | `redundant-barrier` | a `__syncthreads()` kept no two warps' accesses apart in this run |
//! | `split-barrier` | a `__syncthreads()` passed together with one on the other side of an `if` that splits the block by warps |
//! | `exit-barrier` | a `__syncthreads()` passed while whole warps were away that leave the kernel without another barrier |
//! | `occupancy` | fewer than half the warp slots of an SM can be filled |
//! | `partial-warp` | the block size is not a multiple of 32 |

use serde::Serialize;

use super::lines::{InstStat, Op};
use super::Report;
use crate::exec::WarpAccess;
use crate::gpu::Limiter;

/// One piece of advice.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Hint {
    /// The rule that fired (see the module docs).
    pub rule: &'static str,
    /// The source line it is about, if any.
    pub line: Option<usize>,
    /// The advice (the table puts `line N:` before it when `line` is set).
    pub message: String,
}

/// Every hint for a report, instruction rules first (in line order), then launch-wide ones.
pub fn hints(r: &Report) -> Vec<Hint> {
    let mut out = Vec::new();
    let mut insts: Vec<&InstStat> = r.insts.iter().collect();
    insts.sort_by_key(|i| (i.line, i.index));
    for i in insts {
        let hint = match i.op {
            Op::GlobalLoad if i.counters.cmem_instr > 0 => constant(i),
            Op::GlobalLoad | Op::GlobalStore => global(i),
            Op::SharedLoad | Op::SharedStore => shared(i),
            Op::Branch => divergence(i),
            Op::Atomic | Op::Barrier | Op::Compute => None,
        };
        // One hint per rule and line: the first instruction of the line that triggers it.
        if let Some(h) = hint {
            if !out
                .iter()
                .any(|o: &Hint| o.rule == h.rule && o.line == h.line)
            {
                out.push(h);
            }
        }
    }
    let mut seen = Vec::new();
    for race in &r.races {
        let key = (race.line, race.other_line, race.race.first.kind);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(Hint {
            rule: "race",
            line: Some(race.line),
            message: format!(
                "{} race on `{}` with line {}: {}",
                serde_json::to_value(race.race.first.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                race.race.first.array,
                race.other_line,
                race.fix
            ),
        });
    }
    for b in r.barriers.iter().filter(|b| !b.protects) {
        out.push(Hint {
            rule: "redundant-barrier",
            line: Some(b.line),
            message: "this __syncthreads() kept no two warps' shared accesses apart in this run: possibly redundant (check other launch shapes before removing it; lanes of one warp that share data still need __syncwarp() on Volta and later)".to_string(),
        });
    }
    let split: Vec<usize> = r
        .barriers
        .iter()
        .filter(|b| b.split)
        .map(|b| b.line)
        .collect();
    if let Some(&first) = split.first() {
        let lines: Vec<String> = split.iter().map(usize::to_string).collect();
        out.push(Hint {
            rule: "split-barrier",
            line: Some(first),
            message: format!(
                "the __syncthreads() of lines {} pass in pairs, warps at one side of an if/else that splits the block by warps with warps at the other: the GPU counts arrivals at barrier 0, so each pair meets, but CUDA leaves a barrier in divergent code undefined (PTX's bar.sync is .aligned); keep both sides' barriers one for one, or move them after the branch",
                lines.join(", ")
            ),
        });
    }
    let exiting: Vec<String> = r
        .barriers
        .iter()
        .filter(|b| b.exiting)
        .map(|b| b.line.to_string())
        .collect();
    if let Some(first) = r.barriers.iter().find(|b| b.exiting) {
        out.push(Hint {
            rule: "exit-barrier",
            line: Some(first.line),
            message: format!(
                "the __syncthreads() of line(s) {} passed while whole warps were away that leave the kernel without reaching another barrier (a loop they finished early): the GPU releases a barrier when the warps holding it up exit (PTX ISA, exit), so this runs, but CUDA calls a barrier under a condition that differs across the block undefined, and a barrier added after the loop would hang",
                exiting.join(", ")
            ),
        });
    }
    out.extend(occupancy(r));
    let t = r.launch.threads_per_block;
    if !t.is_multiple_of(32) {
        out.push(Hint {
            rule: "partial-warp",
            line: None,
            message: format!(
                "{t} threads per block is not a multiple of 32: the last warp of every block runs {} of 32 lanes",
                t % 32
            ),
        });
    }
    out
}

/// The most common distance per lane, in elements, between the indices of successive active lanes
/// (lanes 0 and 2 at indices 0 and 2 are 1 element per lane apart).
fn lane_stride(a: &WarpAccess) -> Option<i64> {
    let active: Vec<(i64, i64)> = a
        .lanes
        .iter()
        .enumerate()
        .filter_map(|(l, ix)| Some((l as i64, (*ix)?)))
        .collect();
    let mut diffs: Vec<i64> = active
        .windows(2)
        .filter(|w| (w[1].1 - w[0].1) % (w[1].0 - w[0].0) == 0)
        .map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0))
        .collect();
    diffs.sort_unstable();
    let mut best: Option<(usize, i64)> = None;
    for chunk in diffs.chunk_by(|x, y| x == y) {
        if best.is_none_or(|(n, _)| chunk.len() > n) {
            best = Some((chunk.len(), chunk[0]));
        }
    }
    best.map(|(_, d)| d)
}

/// `2nd`, `3rd`, `4th`, `21st`, ...
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn verb(op: Op) -> &'static str {
    if op.verb() == "load" {
        "read"
    } else {
        "write"
    }
}

/// A constant-memory load whose warps read several addresses: the constant cache serialises
/// them (one transaction per distinct address; a broadcast is one).
fn constant(i: &InstStat) -> Option<Hint> {
    let c = &i.counters;
    let per = c.cmem_transactions as f64 / c.cmem_instr as f64;
    (per > 1.0).then(|| Hint {
        rule: "divergent-constant",
        line: Some(i.line),
        message: format!(
            "{per:.1} constant-cache transactions per request on `{}`: the lanes of a warp read different `__constant__` addresses, which the constant cache serves one after another; read one address per warp (an index that depends only on the block or the loop), or keep per-thread data in global or shared memory",
            i.text
        ),
    })
}

fn global(i: &InstStat) -> Option<Hint> {
    let spr = i.sectors_per_request();
    let ideal = i.ideal_sectors_per_request();
    let a = i.access.as_ref()?;
    let elem = i64::from(a.elem_bytes);
    let stride = lane_stride(a).map(|d| d * elem);
    let active = a.lanes.iter().flatten().count();
    let head = format!(
        "{spr:.1} sectors per request (ideal {ideal}) on `{}`",
        i.text
    );
    if spr >= 2.0 * ideal {
        let why = match stride {
            Some(d) if d.abs() >= 32 => format!(
                "lanes of a warp {} addresses {} B apart, one sector each — a column or strided access; let consecutive threads walk the contiguous dimension, or stage the data through a shared-memory tile",
                verb(i.op),
                d.abs()
            ),
            Some(d) if d.abs() > elem => format!(
                "lanes of a warp {} every {} element ({} B apart), so only {}% of the bytes moved are used; make consecutive threads touch consecutive elements",
                verb(i.op),
                ordinal(d.abs() / elem),
                d.abs(),
                elem * 100 / d.abs()
            ),
            Some(d) if d.abs() == elem && active < 32 => format!(
                "only {active} of the 32 lanes of a warp are active here (a divergent branch or a guard), so each sector moved is shared with lanes that are off; let whole warps take the same side"
            ),
            _ => format!(
                "the lanes of a warp {} scattered addresses; reorder the data so neighbouring threads touch neighbouring elements",
                verb(i.op)
            ),
        };
        return Some(Hint {
            rule: "uncoalesced",
            line: Some(i.line),
            message: format!("{head}: {why}"),
        });
    }
    let first = a.lanes.iter().flatten().next()?;
    let offset = (first * elem).rem_euclid(32);
    if spr > ideal && stride == Some(elem) && offset != 0 {
        return Some(Hint {
            rule: "misaligned",
            line: Some(i.line),
            message: format!(
                "{head}: the warp starts {offset} B past a 32-byte sector boundary, so each request touches one sector more; start at a multiple of {} elements",
                32 / elem
            ),
        });
    }
    None
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn shared(i: &InstStat) -> Option<Hint> {
    let c = &i.counters;
    let wf = c.smem_ld_wavefronts + c.smem_st_wavefronts;
    let ideal = c.smem_ideal_wavefronts;
    if ideal == 0 || wf < 2 * ideal {
        return None;
    }
    let ways = wf as f64 / ideal as f64;
    let ways = if (ways - ways.round()).abs() < 0.05 {
        format!("{}-way", ways.round())
    } else {
        format!("{ways:.1}-way (on average)")
    };
    let a = i.access.as_ref()?;
    let words = lane_stride(a).map(|d| (d * i64::from(a.elem_bytes) / 4).abs());
    let name = i.array.as_deref().unwrap_or("the array");
    let why = match (words, i.dims.as_slice()) {
        (Some(w), [rows, cols]) if w > 0 && w % 32 == 0 && w == *cols as i64 * i64::from(a.elem_bytes) / 4 => format!(
            "lanes of a warp are one row ({w} words) apart, all in one bank; pad the inner dimension to {} (`{name}[{rows}][{}]`)",
            cols + 1,
            cols + 1
        ),
        (Some(w), _) if w > 0 && w % 32 == 0 => format!(
            "lanes of a warp are {w} words apart, all in one bank; pad each row of `{name}` by one element"
        ),
        (Some(w), _) if w > 0 && w % 2 == 0 => format!(
            "lanes of a warp are {w} words apart, so every {}th lane lands in the same bank; let consecutive lanes use consecutive words (e.g. sequential addressing)",
            32 / gcd(w, 32)
        ),
        _ => "several lanes of a warp use different words of one bank; let consecutive lanes use consecutive words".to_string(),
    };
    Some(Hint {
        rule: "bank-conflict",
        line: Some(i.line),
        message: format!("{ways} bank conflict on `{}`: {why}", i.text),
    })
}

/// The condition of an `if (…)` or loop test, as written.
fn condition(text: &str) -> &str {
    let Some(rest) = text
        .strip_prefix("if")
        .map(str::trim_start)
        .filter(|r| r.starts_with('('))
    else {
        return text;
    };
    let mut depth = 0;
    for (at, ch) in rest.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return rest[1..at].trim();
                }
            }
            _ => {}
        }
    }
    text
}

fn divergence(i: &InstStat) -> Option<Hint> {
    let c = &i.counters;
    if c.divergent == 0 || c.divergent * 2 < c.branches {
        return None;
    }
    let cond = condition(&i.text);
    if on_lane(cond) {
        return Some(Hint {
            rule: "lane-divergence",
            line: Some(i.line),
            message: format!(
                "branch splits {} of {} warp evaluations (`{cond}`) by the lane within the warp, as warp-level idioms do (one lane per warp doing an atomic, a shuffle scan's `lane >= offset`): the split is the idiom's, not a mistake; keep the body that runs on few lanes short",
                c.divergent, c.branches,
            ),
        });
    }
    Some(Hint {
        rule: "divergence",
        line: Some(i.line),
        message: format!(
            "branch splits {} of {} warp evaluations (`{cond}`): a split warp runs both sides one after the other; make the condition the same for all 32 lanes of a warp, e.g. depend on `threadIdx.x / 32` rather than `threadIdx.x`",
            c.divergent, c.branches,
        ),
    })
}

/// Whether a condition is about the lane within a warp: it names a lane variable or the lane
/// number (`threadIdx.x % 32`, `& 31`, `% warpSize`, a tile's `thread_rank()`).
fn on_lane(cond: &str) -> bool {
    let squeezed: String = cond.chars().filter(|c| !c.is_whitespace()).collect();
    let words = cond
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(str::to_ascii_lowercase);
    let named = words.into_iter().any(|w| {
        matches!(
            w.as_str(),
            "lane" | "laneid" | "lane_id" | "lane_idx" | "laneidx"
        )
    });
    named
        || ["%32", "&31", "%warpSize", "&(warpSize-1)", "thread_rank()"]
            .iter()
            .any(|p| squeezed.contains(p))
}

fn occupancy(r: &Report) -> Option<Hint> {
    let o = &r.occupancy;
    if o.cannot_launch.is_some() || o.occupancy >= 0.5 {
        return None;
    }
    let advice: Vec<String> = o
        .limiters
        .iter()
        .map(|l| match l {
            Limiter::Registers => format!(
                "registers ({} per thread, --regs): use fewer, or smaller blocks",
                r.launch.regs_per_thread
            ),
            Limiter::SharedMem => format!(
                "shared memory ({} B per block): use less per block",
                r.launch.smem_per_block
            ),
            Limiter::Blocks | Limiter::Barriers => format!(
                "blocks per SM ({} threads per block are too few): use larger blocks",
                r.launch.threads_per_block
            ),
            Limiter::Warps => "warp slots".to_string(),
        })
        .collect();
    Some(Hint {
        rule: "occupancy",
        line: None,
        message: format!(
            "occupancy {:.1}% ({} of {} warps per SM) is limited by {}",
            o.occupancy * 100.0,
            o.active_warps,
            r.gpu.max_warps_per_sm,
            advice.join("; and by ")
        ),
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn lane_conditions_are_told_from_others() {
        for lane in [
            "lane == 0",
            "laneId >= offset",
            "(threadIdx.x & 31) == 0",
            "threadIdx.x % 32 < 16",
            "tid % warpSize == 0",
            "g.thread_rank() == 0",
        ] {
            assert!(on_lane(lane), "{lane}");
        }
        for other in ["threadIdx.x % 2 == 0", "tid < s", "planet > 0", "i < n"] {
            assert!(!on_lane(other), "{other}");
        }
    }

    use super::*;
    use crate::ir::Space;

    #[test]
    fn lane_stride_is_the_most_common_gap() {
        let a = WarpAccess {
            block: [0; 3],
            warp: 0,
            iteration: 0,
            space: Space::Global(0),
            elem_bytes: 4,
            lanes: vec![Some(0), Some(256), Some(512), None, Some(1024), Some(5)],
        };
        // Per lane: 256, 256, (1024 − 512) / 2 = 256 across the idle lane, 5 − 1024: 256 wins.
        assert_eq!(lane_stride(&a), Some(256));
        // Every other lane active, consecutive elements per lane: 1.
        let b = WarpAccess {
            lanes: vec![Some(0), None, Some(2), None, Some(4)],
            ..a
        };
        assert_eq!(lane_stride(&b), Some(1));
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 22].map(ordinal),
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "22nd"]
        );
        assert_eq!(condition("if (tid % (2 * s) == 0) {"), "tid % (2 * s) == 0");
        assert_eq!(condition("s > 0"), "s > 0");
        assert_eq!(condition("ifx + (a) < 3"), "ifx + (a) < 3");
        assert_eq!(gcd(12, 32), 4);
    }
}
