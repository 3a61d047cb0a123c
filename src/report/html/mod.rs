//! The HTML report (`simt run --html`, the Python module's notebook view): the summary, the
//! source as a heat map and lane maps as inline SVG, in one self-contained page (no script, no
//! network).

use std::fmt::Write as _;

mod lanes;

use super::model::{Derived, RefinedEstimate, RunOutput};
use super::table::{dim, seconds};
use super::{Listing, Report};
use crate::exec::Counters;
pub use lanes::MAX_MAPS;

/// The styles, scoped to `.simt-report` so that a notebook's own are untouched.
const STYLE: &str = "
.simt-report{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:14px;color:#1f2328;max-width:1100px}
.simt-report h1{font-size:20px;margin:8px 0}
.simt-report h1 small{font-weight:normal;color:#59636e;font-size:14px}
.simt-report h2{font-size:16px;margin:18px 0 6px;border-bottom:1px solid #d1d9e0}
.simt-report table{border-collapse:collapse;font-variant-numeric:tabular-nums}
.simt-report td,.simt-report th{padding:2px 8px;text-align:right;border-bottom:1px solid #eef1f4}
.simt-report th{background:#f6f8fa;font-weight:600}
.simt-report td.label{text-align:left;color:#59636e}
.simt-report td.bad{color:#b42318;font-weight:600}
.simt-report td.good{color:#1a7f37}
.simt-report td.src{text-align:left;font-family:ui-monospace,'SFMono-Regular',Menlo,monospace;white-space:pre}
.simt-report tr.idle td{color:#9aa4ae}
.simt-report tr.total td{font-weight:600;border-top:2px solid #d1d9e0}
.simt-report ul{margin:4px 0;padding-left:20px}
.simt-report li.race{color:#b42318}
.simt-report figure{margin:10px 0}
.simt-report figcaption{font-size:13px;margin-bottom:2px}
.simt-report figcaption code,.simt-report li code{background:#f6f8fa;padding:0 3px}
.simt-report .note{color:#59636e;font-size:13px}
.simt-report .scroll{overflow-x:auto}
.simt-report svg text{font-family:ui-monospace,Menlo,monospace;font-size:9px}
";

/// A whole page: what `simt run --html FILE` writes.
pub fn document(m: &RunOutput, r: &Report) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>simt · {}</title>\n</head>\n<body>\n{}</body>\n</html>\n",
        esc(&m.kernel),
        fragment(m, r)
    )
}

/// The report as one `<div>` with its styles: what a notebook shows (`_repr_html_`). Every
/// number of the summary and the per-line table is the output model's (`m`, what `--json`
/// prints); `r` supplies the source listing and the lanes of the lane maps.
pub fn fragment(m: &RunOutput, r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<div class=\"simt-report\">\n<style>{STYLE}</style>");
    let _ = writeln!(
        s,
        "<h1>simt · {} <small>{} on {}</small></h1>",
        esc(&m.kernel),
        esc(&m.file),
        esc(&m.gpu)
    );
    if let Some(sample) = &m.sample {
        let _ = writeln!(
            s,
            "<p class=\"note\">Sampled: {} of {} blocks ran ({:.1}%); the counters are extrapolated and the results are not checked.</p>",
            sample.sample.blocks_run,
            sample.sample.blocks,
            sample.blocks_run_pct
        );
    }
    summary_table(&mut s, m);
    notes(&mut s, m);
    source_view(&mut s, m, r.listing());
    lanes::lane_maps(&mut s, r);
    s.push_str("</div>\n");
    s
}

/// Escapes text for HTML content and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// How a summary value reads: plainly, as a problem or as good.
#[derive(Clone, Copy)]
enum Mark {
    Plain,
    Bad,
    Good,
}

fn row(s: &mut String, label: &str, value: String, mark: Mark, note: &str) {
    let class = match mark {
        Mark::Plain => "",
        Mark::Bad => " class=\"bad\"",
        Mark::Good => " class=\"good\"",
    };
    let _ = writeln!(
        s,
        "<tr><td class=\"label\">{}</td><td{class}>{}</td><td class=\"label\">{}</td></tr>",
        esc(label),
        esc(&value),
        esc(note)
    );
}

/// The launch and the totals, one row each.
fn summary_table(s: &mut String, m: &RunOutput) {
    let (c, d, l) = (
        &m.measures.counters,
        &m.measures.derived,
        &m.measures.launch,
    );
    let bad_if = |b: bool| if b { Mark::Bad } else { Mark::Plain };
    s.push_str("<h2>Summary</h2>\n<table id=\"summary\">\n");
    row(
        s,
        "launch",
        format!("grid {} × block {}", dim(l.grid), dim(l.block)),
        Mark::Plain,
        &format!(
            "{} blocks, {} threads, {} warps/block",
            c.blocks, c.threads, l.warps_per_block
        ),
    );
    row(
        s,
        "warp instructions",
        c.warp_instr.to_string(),
        Mark::Plain,
        &format!("SIMT efficiency {:.3}", d.simt_efficiency),
    );
    for (what, requests, sectors, per) in [
        (
            "global loads",
            c.gld_instr,
            c.gld_sectors,
            d.sectors_per_load,
        ),
        (
            "global stores",
            c.gst_instr,
            c.gst_sectors,
            d.sectors_per_store,
        ),
    ] {
        row(
            s,
            what,
            format!("{per:.2} sectors/request"),
            Mark::Plain,
            &format!("{requests} requests, {sectors} sectors"),
        );
    }
    let moved = d.bytes_moved > 0;
    let per_moved = d.bytes_requested_per_byte_moved;
    row(
        s,
        "bytes requested / moved",
        format!("{per_moved:.3}"),
        bad_if(moved && per_moved < 0.5),
        &format!(
            "{} bytes requested, {} bytes moved",
            c.g_bytes_requested, d.bytes_moved
        ),
    );
    row(
        s,
        "shared memory",
        format!("{:.2} wavefronts/instruction", d.bank_conflict_factor),
        bad_if(c.smem_bank_conflicts > 0),
        &format!(
            "{} instructions, {} wavefronts, {} bank conflicts",
            c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts
        ),
    );
    row(
        s,
        "divergent branches",
        c.divergent.to_string(),
        bad_if(c.divergent > 0),
        &format!(
            "of {} branches, branch efficiency {:.3}",
            c.branches, d.branch_efficiency
        ),
    );
    row(
        s,
        "barriers",
        c.barriers.to_string(),
        Mark::Plain,
        "__syncthreads() per block",
    );
    row(
        s,
        "races",
        c.race_count.to_string(),
        if c.race_count > 0 {
            Mark::Bad
        } else {
            Mark::Good
        },
        &format!("{} uninitialised reads", c.uninit_count),
    );
    let occ = &m.measures.occupancy;
    match &occ.cannot_launch {
        Some(why) => row(s, "occupancy", "cannot launch".into(), Mark::Bad, why),
        None => {
            let limiters: Vec<&str> = occ.limiters.iter().map(|l| l.as_str()).collect();
            row(
                s,
                "occupancy",
                format!("{:.1}%", occ.occupancy * 100.0),
                Mark::Plain,
                &format!(
                    "{} blocks/SM, {} warps, limited by {}",
                    occ.blocks_per_sm,
                    occ.active_warps,
                    limiters.join(" + ")
                ),
            );
        }
    }
    row(
        s,
        "time estimate",
        seconds(m.measures.time.t),
        Mark::Plain,
        &format!("{}-bound (roofline)", m.measures.time.bound),
    );
    match &m.measures.time_refined {
        RefinedEstimate::Estimate(t) => row(
            s,
            "refined estimate",
            seconds(t.t),
            Mark::Plain,
            &format!("{}-bound, occupancy-aware", t.bound),
        ),
        RefinedEstimate::Unavailable { error } => {
            row(s, "refined estimate", "—".into(), Mark::Plain, error)
        }
    }
    if !m.expects.is_empty() {
        let failed = m.expects.iter().filter(|e| !e.passed).count();
        row(
            s,
            "expects",
            format!("{} of {} passed", m.expects.len() - failed, m.expects.len()),
            if failed > 0 { Mark::Bad } else { Mark::Good },
            &m.expects
                .iter()
                .map(|e| e.text.as_str())
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    s.push_str("</table>\n");
}

/// Hints, races and uninitialised reads, when there are any.
fn notes(s: &mut String, m: &RunOutput) {
    if !m.hints.is_empty() {
        s.push_str("<h2>Hints</h2>\n<ul id=\"hints\">\n");
        for h in &m.hints {
            let at = h.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            let _ = writeln!(s, "<li>{}{}</li>", esc(&at), esc(&h.message));
        }
        s.push_str("</ul>\n");
    }
    if !m.races.is_empty() || !m.uninit.is_empty() {
        s.push_str("<h2>Races</h2>\n<ul id=\"races\">\n");
        for race in &m.races {
            let _ = writeln!(
                s,
                "<li class=\"race\">{} ({}); {}</li>",
                esc(&race.describe()),
                esc(&race.extent()),
                esc(&race.fix)
            );
        }
        for u in &m.uninit {
            let _ = writeln!(
                s,
                "<li class=\"race\">{} ({})</li>",
                esc(&u.describe()),
                esc(&u.extent())
            );
        }
        s.push_str("</ul>\n");
    }
}

/// How far `value` is above `ideal`, 0 to 1: 0 at the ideal, 1 at `worst` times it.
fn heat(value: f64, ideal: f64, worst: f64) -> f64 {
    if ideal <= 0.0 || value <= ideal {
        return 0.0;
    }
    ((value / ideal).log2() / worst.log2()).clamp(0.0, 1.0)
}

/// A table cell tinted by `heat` (0 to 1) in the colour `rgb`.
fn heat_cell(text: &str, heat: f64, rgb: &str) -> String {
    if heat <= 0.0 {
        return format!("<td class=\"heat\" data-heat=\"0\">{}</td>", esc(text));
    }
    format!(
        "<td class=\"heat\" data-heat=\"{heat:.2}\" style=\"background:rgba({rgb},{:.2})\">{}</td>",
        0.15 + 0.7 * heat,
        esc(text)
    )
}

/// `v`, or an empty string for 0.
fn count(v: u64) -> String {
    if v == 0 {
        String::new()
    } else {
        v.to_string()
    }
}

/// The cells of one line's counters `c` and their ratios `d` (the model's `lines[]` entry, or
/// the totals): instructions, global sectors per request against the ideal, shared wavefronts
/// per instruction against the ideal, divergence and races.
fn line_cells(c: &Counters, d: &Derived) -> String {
    let (spr, ideal_spr) = if d.requests_with_atomics == 0 {
        (heat_cell("", 0.0, ""), String::new())
    } else {
        let (spr, ideal) = (
            d.sectors_per_request_with_atomics,
            d.ideal_sectors_per_request_with_atomics,
        );
        (
            heat_cell(&format!("{spr:.2}"), heat(spr, ideal, 8.0), "220,38,38"),
            format!("{ideal:.2}"),
        )
    };
    let (wf, ideal_wf) = if c.smem_instr == 0 {
        (heat_cell("", 0.0, ""), String::new())
    } else {
        let (wf, ideal) = (d.bank_conflict_factor, d.ideal_bank_conflict_factor);
        (
            heat_cell(&format!("{wf:.2}"), heat(wf, ideal, 32.0), "220,38,38"),
            format!("{ideal:.2}"),
        )
    };
    // The tint only: the share of the line's branches that diverged.
    let divergence = 1.0 - d.branch_efficiency;
    format!(
        "<td>{}</td><td>{}</td>{spr}<td>{ideal_spr}</td><td>{}</td>{wf}<td>{ideal_wf}</td><td>{}</td>{}<td{}>{}</td>",
        count(c.warp_instr),
        count(d.requests_with_atomics),
        count(c.smem_instr),
        count(c.branches),
        heat_cell(&count(c.divergent), divergence, "234,140,0"),
        if c.race_count > 0 { " class=\"bad\"" } else { "" },
        count(c.race_count)
    )
}

/// The kernel's source with each line's counters beside it, tinted where a line moves more
/// sectors or wavefronts than its bytes need, or diverges.
fn source_view(s: &mut String, m: &RunOutput, listing: Listing<'_>) {
    s.push_str("<h2>Per line</h2>\n<p class=\"note\">Sectors per global request and wavefronts per shared instruction beside what the same bytes would cost contiguous and without bank conflicts (ideal); red: further from ideal; orange: the share of the line's branches that diverged.</p>\n");
    s.push_str("<div class=\"scroll\"><table id=\"lines\">\n<tr><th>line</th><th>warp-inst</th><th>requests</th><th>sect/req</th><th>ideal</th><th>smem</th><th>wf/inst</th><th>ideal</th><th>branches</th><th>diverg</th><th>races</th><th>source</th></tr>\n");
    for n in listing.shown(&m.lines) {
        let src = listing.line(n);
        match m.lines.iter().find(|l| l.line == n) {
            Some(l) => {
                let _ = writeln!(
                    s,
                    "<tr id=\"L{n}\"><td>{n}</td>{}<td class=\"src\">{}</td></tr>",
                    line_cells(&l.counters.0, &l.derived),
                    esc(src)
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "<tr id=\"L{n}\" class=\"idle\"><td>{n}</td>{}<td class=\"src\">{}</td></tr>",
                    "<td></td>".repeat(10),
                    esc(src)
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "<tr class=\"total\"><td>total</td>{}<td></td></tr>",
        line_cells(&m.measures.counters, &m.measures.derived)
    );
    s.push_str("</table></div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{ArgOverride, ArgValue, Overrides};
    use crate::pipeline::{self, RunOptions};
    use crate::source::SourceFile;

    /// Runs `src` with `args` (launch-section expressions) on one block of `block` threads.
    fn report(src: &str, args: &[(&str, &str)], block: u32) -> Report {
        let overrides = Overrides {
            args: args
                .iter()
                .map(|(n, v)| {
                    let e = crate::syntax::parse_value(v).expect("test value parses");
                    ArgOverride::flag(*n, ArgValue::Expr(e), *v)
                })
                .collect(),
            grid: Some([1, 1, 1]),
            block: Some([block, 1, 1]),
            ..Overrides::default()
        };
        let opts = RunOptions {
            overrides,
            threads: 1,
            ..RunOptions::default()
        };
        pipeline::run(&SourceFile::new("t.sk", src), &opts)
            .unwrap_or_else(|f| panic!("{}", crate::render::render(&f)))
    }

    /// The fragment of a run's report.
    fn page(r: &Report) -> String {
        fragment(&RunOutput::new(r), r)
    }

    const COPY: &str = "__global__ void copy(const float* a, float* b, int s) {
    int i = threadIdx.x;
    float x = 0.0f;
    if (i < 32 && s > 0) { x = a[i * s]; }
    b[i] = x;
}
";

    /// The `data-heat` of the sectors-per-request cell of source line `line`.
    fn sector_heat(html: &str, line: usize) -> f64 {
        let row = html
            .split(&format!("<tr id=\"L{line}\""))
            .nth(1)
            .expect("the line has a row");
        let cell = row.split("data-heat=\"").nth(1).expect("a heat cell");
        cell[..cell.find('"').expect("closed")]
            .parse()
            .expect("a number")
    }

    #[test]
    fn a_page_has_the_summary_every_kernel_line_and_one_map_per_access() {
        let r = report(
            COPY,
            &[("a", "arange(1024)"), ("b", "zeros(32)"), ("s", "1")],
            32,
        );
        let html = document(&RunOutput::new(&r), &r);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<table id=\"summary\">"));
        // Lines 1 to 6 are the kernel.
        for n in 1..=6 {
            assert!(html.contains(&format!("<tr id=\"L{n}\"")), "line {n}");
        }
        assert!(!html.contains("<tr id=\"L7\""));
        // One load and one store: two maps, each with 32 active lanes.
        assert_eq!(html.matches("<figure class=\"lanemap\"").count(), 2);
        assert_eq!(html.matches("<g class=\"lane\">").count(), 64);
        // Self-contained: the only URL is the SVG namespace.
        assert_eq!(
            html.matches("http").count(),
            html.matches("http://www.w3.org/2000/svg").count()
        );
        // Source text is escaped: `i < 32 && s` appears as entities.
        assert!(html.contains("i &lt; 32 &amp;&amp; s &gt; 0"));
        assert!(!html.contains("i < 32"));
    }

    #[test]
    fn strided_loads_are_hot_and_contiguous_ones_are_not() {
        let args = |s: &'static str| [("a", "arange(1024)"), ("b", "zeros(32)"), ("s", s)];
        // Contiguous: 4 sectors per request, the ideal.
        let cool = page(&report(COPY, &args("1"), 32));
        assert_eq!(sector_heat(&cool, 4), 0.0);
        // A stride of 8 floats: 32 sectors of a 4-sector ideal; log2(8) / log2(8) = 1 (the
        // row's first heat cell is the sectors per request of line 4's load).
        let hot = page(&report(COPY, &args("8"), 32));
        assert_eq!(sector_heat(&hot, 4), 1.0);
        // A stride of 2: 8 sectors, twice the ideal: log2(2) / log2(8) = 1/3.
        let warm = page(&report(COPY, &args("2"), 32));
        assert_eq!(sector_heat(&warm, 4), 0.33);
    }

    #[test]
    fn a_bank_conflict_is_drawn_as_a_conflicting_bank() {
        // Lane i stores word 2i: banks 0, 2, .., 30 each hold two distinct words.
        let src = "__global__ void k(float* out) {
    __shared__ float t[64];
    t[(threadIdx.x * 2) % 64] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}
";
        let html = page(&report(src, &[("out", "zeros(32)")], 32));
        let map = html
            .split("data-space=\"shared\"")
            .nth(1)
            .expect("a shared map");
        let map = &map[..map.find("</figure>").expect("closed")];
        assert_eq!(map.matches("<g class=\"target conflict\">").count(), 16);
        assert_eq!(map.matches("<g class=\"target\">").count(), 16);
        // Two wavefronts: the store's cost.
        assert!(map.starts_with(" data-cost=\"2\""));
    }

    #[test]
    fn a_racing_line_is_marked_and_its_race_described() {
        // Warp 0 reads what warp 1 wrote with no barrier between: a RAW race on line 4.
        let src = "__global__ void k(float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}
";
        let html = page(&report(src, &[("out", "zeros(64)")], 64));
        let row = html
            .split("<tr id=\"L4\">")
            .nth(1)
            .expect("line 4 has a row");
        let row = &row[..row.find("</tr>").expect("closed")];
        assert!(row.contains("<td class=\"bad\">1</td>"), "{row}");
        assert!(html.contains("<ul id=\"races\">\n<li class=\"race\">RAW in block (0,0,0)"));
    }

    #[test]
    fn lane_maps_stop_at_the_cap_and_say_how_many_more() {
        // 30 loads on 30 lines.
        let body: String = (0..30).map(|k| format!("    s += a[{k}];\n")).collect();
        let src = format!(
            "__global__ void k(const float* a, float* b) {{\n    float s = 0.0f;\n{body}    b[0] = s;\n}}\n"
        );
        let html = page(&report(&src, &[("a", "ones(32)"), ("b", "zeros(1)")], 1));
        assert_eq!(html.matches("<figure class=\"lanemap\"").count(), MAX_MAPS);
        assert!(html.contains(&format!("{} more memory instructions", 31 - MAX_MAPS)));
    }
}
