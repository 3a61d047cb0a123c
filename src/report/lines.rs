//! Per-instruction and per-source-line counters (`simt run --lines`, the JSON `lines` list).

use std::fmt::Write as _;

use serde::Serialize;

use super::model::{Derived, RunOutput};
use super::style::{Paint, Tone};
use super::Listing;
use crate::exec::{Counters, InstCounters, WarpAccess};
use crate::ir::{Inst, Space};

/// What an instruction does, as far as the insight views care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// A global-memory load.
    GlobalLoad,
    /// A global-memory store.
    GlobalStore,
    /// A shared-memory load.
    SharedLoad,
    /// A shared-memory store.
    SharedStore,
    /// An atomic read-modify-write (global or shared).
    Atomic,
    /// An `if` or loop condition.
    Branch,
    /// `__syncthreads()`.
    Barrier,
    /// Arithmetic and everything else that issues.
    Compute,
}

impl Op {
    /// The kind of an IR instruction.
    pub fn of(inst: &Inst) -> Op {
        match inst {
            Inst::Load {
                space: Space::Global(_) | Space::Choice { shared: false },
                ..
            }
            | Inst::LoadVec {
                space: Space::Global(_) | Space::Choice { shared: false },
                ..
            } => Op::GlobalLoad,
            Inst::Store {
                space: Space::Global(_) | Space::Choice { shared: false },
                ..
            }
            | Inst::StoreVec {
                space: Space::Global(_) | Space::Choice { shared: false },
                ..
            } => Op::GlobalStore,
            Inst::Load { .. } | Inst::LoadVec { .. } => Op::SharedLoad,
            Inst::Store { .. } | Inst::StoreVec { .. } => Op::SharedStore,
            Inst::Atomic { .. } => Op::Atomic,
            Inst::If { .. } | Inst::LoopTest { .. } => Op::Branch,
            Inst::Barrier | Inst::BarrierVote { .. } => Op::Barrier,
            _ => Op::Compute,
        }
    }

    /// "load" or "store" (empty for the others).
    pub fn verb(self) -> &'static str {
        match self {
            Op::GlobalLoad | Op::SharedLoad => "load",
            Op::GlobalStore | Op::SharedStore => "store",
            Op::Atomic => "atomic",
            _ => "",
        }
    }
}

/// One instruction that issued at least once.
#[derive(Clone, Debug)]
pub struct InstStat {
    /// Its index in the lowered kernel.
    pub index: usize,
    /// 1-based source line.
    pub line: usize,
    /// What it does.
    pub op: Op,
    /// The source text it was lowered from (first line only).
    pub text: String,
    /// The buffer or shared array of a memory instruction.
    pub array: Option<String>,
    /// The dimensions of a shared array (`[R, C]` for `a[R][C]`); empty otherwise.
    pub dims: Vec<u64>,
    /// Its events.
    pub counters: InstCounters,
    /// The first warp's lanes (memory instructions).
    pub access: Option<WarpAccess>,
}

impl InstStat {
    /// Sectors per request if the requested bytes were contiguous and aligned: ⌈bytes / request / 32⌉, at least 1.
    pub fn ideal_sectors_per_request(&self) -> f64 {
        let c = &self.counters;
        let requests = c.gld_instr + c.gst_instr;
        if requests == 0 {
            return 0.0;
        }
        (c.g_bytes_requested as f64 / requests as f64 / 32.0)
            .ceil()
            .max(1.0)
    }

    /// Sectors per request.
    pub fn sectors_per_request(&self) -> f64 {
        let c = &self.counters;
        let requests = c.gld_instr + c.gst_instr;
        if requests == 0 {
            0.0
        } else {
            (c.gld_sectors + c.gst_sectors) as f64 / requests as f64
        }
    }
}

/// The counters of one source line: the sum over its instructions.
#[derive(Clone, Debug)]
pub struct LineStat {
    /// 1-based source line.
    pub line: usize,
    /// Its text.
    pub source: String,
    /// The same names as the totals; `blocks` and `threads` stay 0 (they belong to the launch).
    pub counters: Counters,
}

/// Sums instructions into lines, in line order; only lines whose instructions issued.
pub fn per_line(insts: &[InstStat], source: impl Fn(usize) -> String) -> Vec<LineStat> {
    let mut lines: Vec<LineStat> = Vec::new();
    let mut sorted: Vec<&InstStat> = insts.iter().collect();
    sorted.sort_by_key(|i| i.line);
    for i in sorted {
        match lines.last_mut() {
            Some(l) if l.line == i.line => l.counters.add(&i.counters),
            _ => {
                let mut counters = Counters::default();
                counters.add(&i.counters);
                lines.push(LineStat {
                    line: i.line,
                    source: source(i.line),
                    counters,
                });
            }
        }
    }
    lines
}

fn count(v: u64) -> String {
    if v == 0 {
        String::new()
    } else {
        v.to_string()
    }
}

/// Column widths of the per-line table, in the order of `HEADER`.
const WIDTHS: [usize; 10] = [9, 8, 8, 5, 8, 7, 5, 8, 6, 5];
const HEADER: [&str; 10] = [
    "warp-inst",
    "requests",
    "sect/req",
    "ideal",
    "smem",
    "wf/inst",
    "ideal",
    "branches",
    "diverg",
    "races",
];

/// One table row: the line number, ten cells with their tones, the source text.
fn row(
    paint: Paint,
    line: &str,
    line_tone: Tone,
    cells: &[(String, Tone); 10],
    text: &str,
) -> String {
    let mut s = paint.cell(line, 5, line_tone);
    for (i, ((c, tone), w)) in cells.iter().zip(WIDTHS).enumerate() {
        // Groups: instructions | global | shared | branches | races.
        s.push_str(if matches!(i, 1 | 4 | 7 | 9) {
            " │ "
        } else {
            " "
        });
        s.push_str(&paint.cell(c, w, *tone));
    }
    s.push_str(" │ ");
    s.push_str(text);
    s.trim_end().to_string() + "\n"
}

/// The cells of one line's counters `c` and their ratios `d` (the model's `lines[]` entry, or
/// the totals).
fn cells(c: &Counters, d: &Derived) -> [(String, Tone); 10] {
    let plain = |v: u64| (count(v), Tone::Plain);
    let (spr, ideal_spr) = if d.requests_with_atomics == 0 {
        ((String::new(), Tone::Plain), (String::new(), Tone::Plain))
    } else {
        let (spr, ideal) = (
            d.sectors_per_request_with_atomics,
            d.ideal_sectors_per_request_with_atomics,
        );
        let tone = if spr > ideal * 1.5 {
            Tone::Red
        } else {
            Tone::Plain
        };
        (
            (format!("{spr:.2}"), tone),
            (format!("{ideal:.2}"), Tone::Plain),
        )
    };
    let (wf, ideal_wf) = if c.smem_instr == 0 {
        ((String::new(), Tone::Plain), (String::new(), Tone::Plain))
    } else {
        let tone = if c.smem_bank_conflicts > 0 {
            Tone::Red
        } else {
            Tone::Plain
        };
        (
            (format!("{:.2}", d.bank_conflict_factor), tone),
            (format!("{:.2}", d.ideal_bank_conflict_factor), Tone::Plain),
        )
    };
    [
        plain(c.warp_instr),
        plain(d.requests_with_atomics),
        spr,
        ideal_spr,
        plain(c.smem_instr),
        wf,
        ideal_wf,
        plain(c.branches),
        (count(c.divergent), Tone::Yellow),
        (count(c.race_count), Tone::Red),
    ]
}

/// The kernel's source with each line's counters beside it, like a profiler's source view.
/// Ratios are per global request (loads, stores and atomics) and per shared instruction; "ideal" is
/// what the same bytes would cost contiguous and aligned, and without bank conflicts. Every number
/// is the output model's (`lines` and, in the total row, `counters` and `derived`).
pub fn render(m: &RunOutput, listing: Listing<'_>, paint: Paint) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}",
        paint.bold(&format!("per line · {} ({})", m.kernel, m.file))
    );
    let header: [(String, Tone); 10] = HEADER.map(|h| (h.to_string(), Tone::Plain));
    s.push_str(&row(paint, "line", Tone::Plain, &header, "source"));
    let empty: [(String, Tone); 10] = Default::default();
    let mut prev = None;
    for n in listing.shown(&m.lines) {
        if prev.is_some_and(|p| p + 1 != n) {
            s.push_str(&row(paint, "⋮", Tone::Dim, &empty, ""));
        }
        prev = Some(n);
        let text = listing.line(n);
        match m.lines.iter().find(|l| l.line == n) {
            Some(l) => s.push_str(&row(
                paint,
                &n.to_string(),
                Tone::Plain,
                &cells(&l.counters.0, &l.derived),
                text,
            )),
            None => s.push_str(&row(paint, &n.to_string(), Tone::Dim, &empty, text)),
        }
    }
    let (c, d) = (&m.measures.counters, &m.measures.derived);
    s.push_str(&row(paint, "total", Tone::Bold, &cells(c, d), ""));
    s
}
