//! The HTML report's lane maps: one inline SVG per memory instruction, lanes to sectors or banks.

use std::fmt::Write as _;

use super::esc;
use crate::exec::WarpAccess;
use crate::ir::Space;
use crate::report::lanemap::{lane_values, summary};
use crate::report::lines::InstStat;
use crate::report::Report;

/// Lane maps drawn at most, in program order; the rest are counted.
pub const MAX_MAPS: usize = 24;

/// One SVG per memory instruction that ran (the first warp that ran it), at most [`MAX_MAPS`].
pub(super) fn lane_maps(s: &mut String, r: &Report) {
    let maps: Vec<(&InstStat, &WarpAccess)> = r
        .insts
        .iter()
        .filter_map(|i| Some((i, i.access.as_ref()?)))
        .collect();
    if maps.is_empty() {
        return;
    }
    s.push_str("<h2>Lane maps</h2>\n<p class=\"note\">The first warp that ran each memory instruction: global and local accesses from each lane to the 32-byte sector of its first byte, shared ones to the bank of their word (red: a bank holding more than one distinct word, a conflict).</p>\n");
    for (i, a) in maps.iter().take(MAX_MAPS) {
        lane_map(s, i, a);
    }
    if maps.len() > MAX_MAPS {
        let _ = writeln!(
            s,
            "<p class=\"note\">{} more memory instructions not drawn (`simt run --map LINE` shows any line).</p>",
            maps.len() - MAX_MAPS
        );
    }
}

/// Width of one lane's column in a lane map.
const LANE_W: usize = 22;
/// Left margin of a lane map, for the row labels.
const LEFT: usize = 52;

/// One lane map: the warp's lanes on top, the sectors or banks they touch below, a line from
/// each active lane to its target.
fn lane_map(s: &mut String, i: &InstStat, a: &WarpAccess) {
    let (space, unit, target) = match a.space {
        Space::Global(_) | Space::Choice { shared: false } => ("global", "sectors", "sector"),
        Space::Shared(_) | Space::Choice { shared: true } => ("shared", "wavefronts", "bank"),
        Space::Local(_) => ("local", "sectors", "sector"),
    };
    let lanes = a.lanes.len();
    let active = a.lanes.iter().flatten().count();
    let _ = writeln!(
        s,
        "<figure class=\"lanemap\" data-line=\"{}\" data-space=\"{space}\" data-cost=\"{}\"><figcaption>line {} · {} <code>{}</code> ({space}, {} B) <code>{}</code> — block ({},{},{}) warp {}: {active} active lanes, {} {unit}</figcaption>",
        i.line,
        a.cost(),
        i.line,
        i.op.verb(),
        esc(i.array.as_deref().unwrap_or("?")),
        a.elem_bytes,
        esc(&i.text),
        a.block[0],
        a.block[1],
        a.block[2],
        a.warp,
        a.cost()
    );
    // The target of each lane, and the targets in order.
    let key = |ix: i64| lane_values(a, ix)[2].1;
    let mut targets: Vec<i64> = match a.space {
        Space::Shared(_) | Space::Choice { shared: true } => (0..32).collect(),
        Space::Global(_) | Space::Choice { shared: false } | Space::Local(_) => {
            a.lanes.iter().flatten().map(|&ix| key(ix)).collect()
        }
    };
    targets.sort_unstable();
    targets.dedup();
    // Distinct words per bank, for the conflict colouring.
    let mut words: Vec<Vec<i64>> = vec![Vec::new(); 32];
    if let Space::Shared(_) = a.space {
        for &ix in a.lanes.iter().flatten() {
            let word = lane_values(a, ix)[1].1;
            let bank = &mut words[word.rem_euclid(32) as usize];
            if !bank.contains(&word) {
                bank.push(word);
            }
        }
    }
    let width = LEFT + lanes.max(1) * LANE_W + 8;
    let slot = (width - LEFT - 8) as f64 / targets.len().max(1) as f64;
    let target_x = |k: usize| LEFT as f64 + slot * (k as f64 + 0.5);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"130\" viewBox=\"0 0 {width} 130\" role=\"img\" aria-label=\"lane to {target} map of line {}\">",
        i.line
    );
    let _ = writeln!(
        s,
        "<text x=\"4\" y=\"22\">lane</text><text x=\"4\" y=\"112\">{target}</text>"
    );
    for (k, t) in targets.iter().enumerate() {
        let x = target_x(k);
        let conflict = words[(*t).rem_euclid(32) as usize].len() > 1;
        let (fill, title) = match a.space {
            Space::Shared(_) | Space::Choice { shared: true } => (
                if conflict { "#f4a3a3" } else { "#dbe7f5" },
                format!(
                    "bank {t}: {} distinct word(s)",
                    words[(*t).rem_euclid(32) as usize].len()
                ),
            ),
            _ => ("#dbe7f5", format!("sector {t}")),
        };
        let w = (slot - 2.0).clamp(4.0, 60.0);
        let _ = writeln!(
            s,
            "<g class=\"target{}\"><title>{title}</title><rect x=\"{:.1}\" y=\"100\" width=\"{w:.1}\" height=\"16\" fill=\"{fill}\" stroke=\"#8c959f\"/><text x=\"{x:.1}\" y=\"127\" text-anchor=\"middle\">{t}</text></g>",
            if conflict { " conflict" } else { "" },
            x - w / 2.0
        );
    }
    for (lane, ix) in a.lanes.iter().enumerate() {
        let x = LEFT as f64 + LANE_W as f64 * (lane as f64 + 0.5);
        match ix {
            Some(ix) => {
                let v = lane_values(a, *ix);
                let k = targets.binary_search(&key(*ix)).unwrap_or(0);
                let title: Vec<String> = v.iter().map(|(n, x)| format!("{n} {x}")).collect();
                let _ = writeln!(
                    s,
                    "<g class=\"lane\"><title>lane {lane}: {}</title><line x1=\"{x:.1}\" y1=\"34\" x2=\"{:.1}\" y2=\"100\" stroke=\"#4078c0\" stroke-opacity=\"0.6\"/><rect x=\"{:.1}\" y=\"16\" width=\"{}\" height=\"18\" fill=\"#4078c0\"/><text x=\"{x:.1}\" y=\"28\" text-anchor=\"middle\" fill=\"#fff\">{lane}</text></g>",
                    title.join(", "),
                    target_x(k),
                    x - (LANE_W as f64 - 2.0) / 2.0,
                    LANE_W - 2
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "<g class=\"lane inactive\"><title>lane {lane}: inactive</title><rect x=\"{:.1}\" y=\"16\" width=\"{}\" height=\"18\" fill=\"#eef1f4\" stroke=\"#d1d9e0\"/><text x=\"{x:.1}\" y=\"28\" text-anchor=\"middle\" fill=\"#9aa4ae\">{lane}</text></g>",
                    x - (LANE_W as f64 - 2.0) / 2.0,
                    LANE_W - 2
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "</svg>\n<div class=\"note\">{}</div></figure>",
        esc(&summary(a))
    );
}
