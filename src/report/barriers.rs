//! Barrier analysis: which `__syncthreads()` kept two warps' accesses apart, and where a race needs one.

use serde::Serialize;

use super::lines::{InstStat, Op};
use crate::exec::{BarrierPass, Race, RaceKind};

/// One `__syncthreads()` of the kernel that ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BarrierView {
    /// Its source line.
    pub line: usize,
    /// Executions, counted once per block.
    pub executions: u64,
    /// Whether, in some block, a shared or global access after it touched a word another warp had
    /// accessed (at least one of the two writing) in the epoch just before it. `false`: possibly
    /// redundant.
    pub protects: bool,
    /// Whether, in some block, warps passed it together with warps waiting at a barrier on the
    /// other side of an `if`/`else` that split the block by warps.
    pub split: bool,
    /// Whether, in some block, it passed with threads missing that went on to leave the kernel
    /// without reaching another barrier (the GPU releases a barrier when they exit).
    pub exiting: bool,
}

/// The barriers that ran, in program order; `protects` and how each passed per instruction.
pub fn barriers(
    insts: &[InstStat],
    (protects, passes): (&[bool], &[BarrierPass]),
) -> Vec<BarrierView> {
    insts
        .iter()
        .filter(|i| i.op == Op::Barrier)
        .map(|i| {
            let pass = passes.get(i.index).copied().unwrap_or_default();
            BarrierView {
                line: i.line,
                executions: i.counters.barriers,
                protects: protects.get(i.index).copied().unwrap_or(false),
                split: pass.split,
                exiting: pass.exiting,
            }
        })
        .collect()
}

/// Where a `__syncthreads()` would separate a race's two accesses: the line after which to put it
/// (`None` when no barrier helps) and a sentence saying so. `atomic` says which of the two
/// accesses (this one, the earlier one) are atomics: an atomic racing a plain access is also
/// mended by making the plain one atomic, which a retry loop (`atomicCAS` seeded by a plain load)
/// needs, since no barrier may go inside its divergent loop.
pub fn race_fix(
    race: &Race,
    line: usize,
    other_line: usize,
    atomic: (bool, bool),
) -> (Option<usize>, String) {
    let (at, fix) = barrier_fix(race, line, other_line);
    let plain = match atomic {
        (true, false) => other_line,
        (false, true) => line,
        _ => return (at, fix),
    };
    let write = matches!(
        (race.kind, atomic.0),
        (RaceKind::WriteAfterWrite, _)
            | (RaceKind::ReadAfterWrite, true)
            | (RaceKind::WriteAfterRead, false)
    );
    let how = if write {
        "write it with atomicExch"
    } else {
        "read it with atomicAdd(&x, 0)"
    };
    (
        at,
        format!("{fix}; or make line {plain}'s plain access atomic too ({how})"),
    )
}

fn barrier_fix(race: &Race, line: usize, other_line: usize) -> (Option<usize>, String) {
    if race.kind == RaceKind::CrossBlock {
        return (
            None,
            "no __syncthreads() helps between blocks: put this_grid().sync() between the two accesses (in a cooperative launch), split the kernel in two launches, or give each block its own elements"
                .to_string(),
        );
    }
    if race.kind == RaceKind::AsyncCopy {
        return (
            None,
            "no __syncthreads() finishes an asynchronous copy: wait for it where it was committed or attached (pipe.consumer_wait(), bar.arrive_and_wait(), cg::wait(group), __pipeline_wait_prior(0)) before the access"
                .to_string(),
        );
    }
    if race.kind == RaceKind::LostUpdate {
        return (
            None,
            "no barrier helps: threads of one warp update one element together; use an atomic (atomicAdd(&a[i], v)) or reduce within the warp first (__reduce_add_sync, __shfl_down_sync) and let one lane update it"
                .to_string(),
        );
    }
    if race.kind == RaceKind::GlobalDuplicate {
        return (
            None,
            "no barrier helps: two threads store to one element; give each thread its own element or use an atomic"
                .to_string(),
        );
    }
    if race.other_inst == race.inst {
        return (
            None,
            "both writes are this line: if the warps write the element in the same pass, no barrier separates them, so give each warp its own element (the index may forget the warp, as `tid % 32` does) or use an atomic; if in different loop iterations, put __syncthreads() at the end of the loop body"
                .to_string(),
        );
    }
    if race.other_inst < race.inst && other_line != line {
        (
            Some(other_line),
            format!("put __syncthreads() after line {other_line}, before line {line}"),
        )
    } else if race.other_inst < race.inst {
        (
            Some(line),
            format!(
                "both accesses are on line {line}: if the threads add into one element (`x += v`), use an atomic (atomicAdd); otherwise read into a local variable, __syncthreads(), then write"
            ),
        )
    } else {
        // The earlier access comes later in program order: it ran in a previous loop iteration.
        (
            Some(other_line),
            format!(
                "the earlier access (line {other_line}) ran in a previous loop iteration: put __syncthreads() after line {other_line}, at the end of the loop body"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race(kind: RaceKind, inst: u32, other_inst: u32) -> Race {
        Race {
            kind,
            block: [0; 3],
            epoch: 0,
            array: "s".into(),
            index: 0,
            warp: 1,
            other_warp: 0,
            other_block: None,
            inst,
            other_inst,
        }
    }

    #[test]
    fn the_fix_depends_on_program_order() {
        // Store at instruction 3 (line 10), racing load at instruction 7 (line 12).
        let r = race(RaceKind::ReadAfterWrite, 7, 3);
        assert_eq!(race_fix(&r, 12, 10, (false, false)).0, Some(10));
        // Load and store of `s[i] += s[i + 1]`, one line.
        let r = race(RaceKind::WriteAfterRead, 7, 5);
        assert_eq!(race_fix(&r, 12, 12, (false, false)).0, Some(12));
        assert!(race_fix(&r, 12, 12, (false, false))
            .1
            .contains("local variable"));
        // The read (instruction 9, line 14) happened in the previous iteration before the write at 4.
        let r = race(RaceKind::WriteAfterRead, 4, 9);
        let (at, why) = race_fix(&r, 11, 14, (false, false));
        assert_eq!(at, Some(14));
        assert!(why.contains("previous loop iteration"), "{why}");
        assert_eq!(
            race_fix(&race(RaceKind::GlobalDuplicate, 2, 2), 5, 5, (false, false)).0,
            None
        );
        // Two warps' writes by one instruction (`s[tid % 32] = x`): no single barrier line.
        let (at, why) = race_fix(
            &race(RaceKind::WriteAfterWrite, 6, 6),
            25,
            25,
            (false, false),
        );
        assert_eq!(at, None);
        assert!(why.contains("its own element"), "{why}");
    }

    #[test]
    fn an_atomic_racing_a_plain_access_may_make_it_atomic() {
        // myAtomicAdd: `guess = *address` (instruction 2, line 16) read by warp 1, then warp 0's
        // atomicCAS (instruction 9, line 23) in the retry loop: the read is made atomic.
        let r = race(RaceKind::WriteAfterRead, 9, 2);
        let (at, why) = race_fix(&r, 23, 16, (true, false));
        assert_eq!(at, Some(16));
        assert!(
            why.contains("line 16's plain access atomic too (read it"),
            "{why}"
        );
        // A plain store (line 8) read by another warp's atomic (line 5): the store is the plain one.
        let r = race(RaceKind::WriteAfterRead, 8, 5);
        let (_, why) = race_fix(&r, 8, 5, (false, true));
        assert!(
            why.contains("line 8's plain access atomic too (write it"),
            "{why}"
        );
        // Two plain accesses: no such advice.
        let (_, why) = race_fix(&r, 8, 5, (false, false));
        assert!(!why.contains("atomic too"), "{why}");
    }
}
