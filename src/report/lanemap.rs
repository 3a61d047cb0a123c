//! Lane maps (`simt run --map LINE`): lane → address → sector, or lane → word → bank, for the first warp.

use std::fmt::Write as _;

use serde_json::Value;

use super::model::{Lane, LaneAccess, LaneMap};

use super::lines::InstStat;
use super::style::{Paint, Tone};
use super::Report;
use crate::exec::WarpAccess;
use crate::ir::Space;

/// Lanes shown per row of the grid.
const PER_ROW: usize = 8;

/// The memory instructions of `line` that ran, in program order; an error names the lines that have some.
pub fn accesses(r: &Report, line: usize) -> Result<Vec<(&InstStat, &WarpAccess)>, String> {
    let found: Vec<(&InstStat, &WarpAccess)> = r
        .insts
        .iter()
        .filter(|i| i.line == line)
        .filter_map(|i| Some((i, i.access.as_ref()?)))
        .collect();
    if found.is_empty() {
        let mut lines: Vec<usize> = r
            .insts
            .iter()
            .filter(|i| i.access.is_some())
            .map(|i| i.line)
            .collect();
        lines.dedup();
        let list: Vec<String> = lines.iter().map(usize::to_string).collect();
        return Err(if list.is_empty() {
            "no memory access of this kernel ran".to_string()
        } else {
            format!("lines with memory accesses that ran: {}", list.join(", "))
        });
    }
    Ok(found)
}

/// The rows of one lane: (label, value) pairs, `None` for an inactive lane.
pub(crate) fn lane_values(a: &WarpAccess, index: i64) -> [(&'static str, i64); 3] {
    let bytes = index * i64::from(a.elem_bytes);
    match a.space {
        Space::Global(_) | Space::Choice { shared: false } => {
            [("index", index), ("address", bytes), ("sector", bytes >> 5)]
        }
        Space::Shared(_) | Space::Choice { shared: true } => [
            ("index", index),
            ("word", bytes >> 2),
            ("bank", (bytes >> 2) % 32),
        ],
        Space::Local(_) => [("index", index), ("address", bytes), ("sector", bytes >> 5)],
    }
}

fn where_(a: &WarpAccess) -> String {
    let [x, y, z] = a.block;
    match a.iteration {
        0 => format!("block ({x},{y},{z}) warp {}", a.warp),
        n => format!("block ({x},{y},{z}) warp {} iteration {n}", a.warp),
    }
}

/// The grids of every memory instruction of `line`.
pub fn render(r: &Report, line: usize, paint: Paint) -> Result<String, String> {
    let mut s = String::new();
    for (k, (i, a)) in accesses(r, line)?.into_iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let active = a.lanes.iter().flatten().count();
        let (space, unit) = match a.space {
            Space::Global(_) | Space::Choice { shared: false } => ("global", "sectors"),
            Space::Shared(_) | Space::Choice { shared: true } => ("shared", "wavefronts"),
            Space::Local(_) => ("local", "sectors"),
        };
        let _ = writeln!(
            s,
            "{}",
            paint.bold(&format!(
                "line {line} · {} {} ({space}, {} B) `{}`",
                i.op.verb(),
                i.array.as_deref().unwrap_or("?"),
                a.elem_bytes,
                i.text
            ))
        );
        let _ = writeln!(
            s,
            "  {}: {active} active lanes, {} {unit}",
            where_(a),
            a.cost()
        );
        let cells: Vec<Option<[(&str, i64); 3]>> = a
            .lanes
            .iter()
            .map(|l| l.map(|ix| lane_values(a, ix)))
            .collect();
        let width = cells
            .iter()
            .flatten()
            .flat_map(|v| v.iter().map(|(_, x)| x.to_string().len()))
            .max()
            .unwrap_or(1)
            .max(2)
            + 1;
        let labels = lane_values(a, 0).map(|(l, _)| l);
        for (row, chunk) in cells.chunks(PER_ROW).enumerate() {
            let first = row * PER_ROW;
            let mut lanes = format!("  {:<8}", format!("lane {first}"));
            for k in 0..chunk.len() {
                lanes.push_str(&format!("{:>width$}", first + k));
            }
            let _ = writeln!(s, "{}", paint.tone(&lanes, Tone::Dim));
            for (j, label) in labels.iter().enumerate() {
                let mut t = format!("  {label:<8}");
                for c in chunk {
                    match c {
                        Some(v) => t.push_str(&format!("{:>width$}", v[j].1)),
                        None => t.push_str(&format!("{:>width$}", "·")),
                    }
                }
                let _ = writeln!(s, "{}", t.trim_end());
            }
        }
        let _ = writeln!(s, "  {}", summary(a));
    }
    Ok(s)
}

/// One sentence: the distinct sectors, or the busiest bank.
pub(crate) fn summary(a: &WarpAccess) -> String {
    let mut keys: Vec<i64> = a
        .lanes
        .iter()
        .flatten()
        .map(|&ix| lane_values(a, ix)[2].1)
        .collect();
    match a.space {
        Space::Global(_) | Space::Choice { shared: false } | Space::Local(_) => {
            keys.sort_unstable();
            keys.dedup();
            let shown: Vec<String> = keys.iter().take(8).map(i64::to_string).collect();
            let more = if keys.len() > 8 { ", …" } else { "" };
            format!(
                "sectors of the lanes' first bytes: {}{more}",
                shown.join(", ")
            )
        }
        Space::Shared(_) | Space::Choice { shared: true } => {
            let mut per_bank: Vec<Vec<i64>> = vec![Vec::new(); 32];
            for &ix in a.lanes.iter().flatten() {
                let word = lane_values(a, ix)[1].1;
                let bank = &mut per_bank[(word % 32) as usize];
                if !bank.contains(&word) {
                    bank.push(word);
                }
            }
            let (bank, words) = per_bank
                .iter()
                .enumerate()
                .max_by_key(|(b, w)| (w.len(), std::cmp::Reverse(*b)))
                .map(|(b, w)| (b, w.len()))
                .unwrap_or((0, 0));
            format!("busiest bank {bank}: {words} distinct word(s) (same word = broadcast, free)")
        }
    }
}

/// The lane map in the output model (`lane_map` of `simt run --map LINE --json`).
pub fn model(r: &Report, line: usize) -> Result<LaneMap, String> {
    let accesses = accesses(r, line)?
        .into_iter()
        .map(|(i, a)| LaneAccess {
            op: i.op,
            array: i.array.clone(),
            space: match a.space {
                Space::Global(_) | Space::Choice { shared: false } => "global",
                Space::Shared(_) | Space::Choice { shared: true } => "shared",
                Space::Local(_) => "local",
            }
            .to_string(),
            elem_bytes: a.elem_bytes,
            text: i.text.clone(),
            block: a.block,
            warp: a.warp,
            iteration: a.iteration,
            cost: a.cost(),
            lanes: a
                .lanes
                .iter()
                .enumerate()
                .filter_map(|(lane, ix)| {
                    let mut l = Lane {
                        lane,
                        index: 0,
                        address: None,
                        sector: None,
                        word: None,
                        bank: None,
                    };
                    for (k, x) in lane_values(a, (*ix)?) {
                        match k {
                            "index" => l.index = x,
                            "address" => l.address = Some(x),
                            "sector" => l.sector = Some(x),
                            "word" => l.word = Some(x),
                            _ => l.bank = Some(x),
                        }
                    }
                    Some(l)
                })
                .collect(),
        })
        .collect();
    Ok(LaneMap { line, accesses })
}

/// The lane map as JSON: `{line, accesses: [{op, array, space, elem_bytes, text, block, warp,
/// iteration, cost, lanes: [{lane, index, address, sector} | {lane, index, word, bank}]}]}` (inactive lanes left out).
pub fn to_json(r: &Report, line: usize) -> Result<Value, String> {
    model(r, line).map(|m| super::json::to_value(&m))
}
