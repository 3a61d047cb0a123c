//! The human report of `simt run`.

use std::fmt::Write as _;

use super::model::{RefinedEstimate, RunOutput, SampleView};
use super::style::{Paint, Tone};
use super::Listing;

/// A grid or block size: `x`, `(x, y)` or `(x, y, z)`.
pub fn dim(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => format!("{x}"),
        [x, y, 1] => format!("({x}, {y})"),
        [x, y, z] => format!("({x}, {y}, {z})"),
    }
}

/// Seconds in a readable unit.
pub fn seconds(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.3} s")
    } else if t >= 1e-3 {
        format!("{:.3} ms", t * 1e3)
    } else {
        format!("{:.3} µs", t * 1e6)
    }
}

/// The report as `simt run` prints it: what the kernel printed first, as a program's output would
/// be, then the table and the hints; with `lines`, the per-line view after them. Every number is
/// the output model's (`m`, what `--json` prints); `listing` only supplies the source and the
/// printed text.
pub fn text(m: &RunOutput, listing: Listing<'_>, lines: bool, paint: Paint) -> String {
    let mut s = listing.printf.to_string();
    if m.printf_truncated {
        s.push_str("[simt: printf output past the device's 1 MiB buffer was dropped]\n");
    }
    s.push_str(&render(m));
    if !m.hints.is_empty() {
        s.push_str("hints\n");
        for h in &m.hints {
            let at = h.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            let _ = writeln!(s, "  {} {at}{}", paint.tone("▸", Tone::Yellow), h.message);
        }
    }
    if lines {
        s.push('\n');
        s.push_str(&super::lines::render(m, listing, paint));
    }
    s
}

/// Bytes in a readable binary unit.
fn bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1024.0 * 1024.0 {
        format!("{:.1} MB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.1} KB", b / 1024.0)
    } else {
        format!("{b} B")
    }
}

/// Renders the output model of a run as the text table.
pub fn render(m: &RunOutput) -> String {
    let (c, d, l) = (
        &m.measures.counters,
        &m.measures.derived,
        &m.measures.launch,
    );
    let mut s = String::new();
    let _ = writeln!(s, "simt · {} ({}) on {}", m.kernel, m.file, m.gpu);
    let _ = writeln!(
        s,
        "launch      grid {} × block {} = {} blocks, {} threads, {} warps/block",
        dim(l.grid),
        dim(l.block),
        c.blocks,
        c.threads,
        l.warps_per_block
    );
    if let Some(sample) = &m.sample {
        let _ = writeln!(s, "{}", sampled(sample));
        if let Some(line) = sampled_cache(sample) {
            let _ = writeln!(s, "{line}");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "global memory");
    let _ = writeln!(
        s,
        "  loads     {:>10} requests {:>12} sectors  {:>6.2} sectors/request",
        c.gld_instr, c.gld_sectors, d.sectors_per_load
    );
    let _ = writeln!(
        s,
        "  stores    {:>10} requests {:>12} sectors  {:>6.2} sectors/request",
        c.gst_instr, c.gst_sectors, d.sectors_per_store
    );
    let _ = writeln!(
        s,
        "  requested {:>10} bytes    moved {} bytes   requested/moved {:.3}",
        c.g_bytes_requested, d.bytes_moved, d.bytes_requested_per_byte_moved
    );
    if let Some(k) = &m.measures.cache {
        let cfg = &k.sizes;
        let _ = writeln!(
            s,
            "caches      L1 {} per block · L2 {} · {} blocks per wave",
            bytes(cfg.l1_bytes_per_block),
            bytes(cfg.l2_bytes),
            cfg.wave_blocks
        );
        let _ = writeln!(
            s,
            "  L1        {:>10} hits {:>12} misses   hit rate {:.1}% (global-load sectors)",
            k.stats.l1_hit_sectors, k.stats.l1_miss_sectors, k.l1_hit_rate_pct
        );
        let _ = writeln!(
            s,
            "  L2        {:>10} reads {:>11} writes {} atomics  read hit rate {:.1}%, hit rate {:.1}%",
            k.l2_read_sectors,
            k.stats.l2_write_sectors,
            k.l2_atomic_sectors,
            k.l2_read_hit_rate_pct,
            k.l2_hit_rate_pct
        );
        let _ = writeln!(
            s,
            "  DRAM      {:>10} bytes read {:>6} bytes written",
            k.stats.dram_read_bytes, k.stats.dram_write_bytes
        );
    }
    if c.cmem_instr > 0 {
        let _ = writeln!(
            s,
            "constant memory\n  loads     {:>10} requests {:>12} transactions ({:.2} per request: one per distinct address)",
            c.cmem_instr,
            c.cmem_transactions,
            d.cmem_transactions_per_request
        );
    }
    if c.tex_requests > 0 {
        let _ = writeln!(
            s,
            "texture\n  fetches   {:>10} requests (texture pipe; no texture cache modelled)",
            c.tex_requests
        );
    }
    if c.tensor_instr > 0 {
        let _ = writeln!(
            s,
            "tensor cores\n  mma_sync  {:>10} warp instructions (wmma::mma_sync; the refined time's tensor unit)",
            c.tensor_instr
        );
    }
    // Only kernels whose local arrays spill to local memory show it (registers move nothing).
    if c.local_ld_instr + c.local_st_instr > 0 {
        let _ = writeln!(s, "local memory (arrays indexed at run time)");
        let _ = writeln!(
            s,
            "  loads     {:>10} requests {:>12} sectors\n  stores    {:>10} requests {:>12} sectors",
            c.local_ld_instr, c.local_ld_sectors, c.local_st_instr, c.local_st_sectors
        );
    }
    let _ = writeln!(s, "shared memory");
    let _ = writeln!(
        s,
        "  {:>10} instructions {:>10} wavefronts  {} bank conflicts  {:.2} wavefronts/instruction",
        c.smem_instr, c.smem_wavefronts, c.smem_bank_conflicts, d.bank_conflict_factor
    );
    let _ = writeln!(s, "control flow");
    let _ = writeln!(
        s,
        "  {:>10} warp instructions  {} active lane slots  SIMT efficiency {:.3}",
        c.warp_instr, c.active_lane_slots, d.simt_efficiency
    );
    let _ = writeln!(
        s,
        "  {:>10} branches  {} divergent  branch efficiency {:.3}",
        c.branches, c.divergent, d.branch_efficiency
    );
    let _ = writeln!(s, "  {:>10} barriers", c.barriers);
    if c.grid_syncs > 0 {
        let _ = writeln!(
            s,
            "  {:>10} grid barriers (this_grid().sync(), once per block)",
            c.grid_syncs
        );
    }
    if c.race_count == 0 {
        let _ = writeln!(s, "races       none");
    } else {
        let _ = writeln!(
            s,
            "races       {} racing instruction(s) in {} group(s)",
            c.race_count,
            m.races.len()
        );
        for race in m.races.iter().take(MAX_GROUPS_SHOWN) {
            let _ = writeln!(s, "  - {}", race.describe());
            let _ = writeln!(s, "      {:>4} | {}", race.line, race.source);
            let _ = writeln!(s, "      {}", race.extent());
            let _ = writeln!(s, "      fix: {}", race.fix);
        }
        more(&mut s, m.races.len());
    }
    if c.uninit_count > 0 {
        let _ = writeln!(
            s,
            "uninit      {} instruction(s) read uninitialised memory, in {} group(s)",
            c.uninit_count,
            m.uninit.len()
        );
        for u in m.uninit.iter().take(MAX_GROUPS_SHOWN) {
            let _ = writeln!(s, "  - {}", u.describe());
            let _ = writeln!(s, "      {:>4} | {}", u.line, u.source);
            let _ = writeln!(s, "      {}", u.extent());
        }
        more(&mut s, m.uninit.len());
        let _ = writeln!(
            s,
            "      fix: write every element before any thread reads it (and __syncthreads() between, for shared memory); on a GPU it holds leftover data"
        );
        if let Some(u) = m.uninit.iter().find(|u| u.read.first.space == "variable") {
            let _ = writeln!(
                s,
                "      a variable: give it its first value where it is declared (`{} = 0`)",
                u.read.first.array
            );
        }
    }
    let o = &m.measures.occupancy;
    match &o.cannot_launch {
        Some(why) => {
            let _ = writeln!(s, "occupancy   cannot launch: {why}");
        }
        None => {
            let limiters: Vec<&str> = o.limiters.iter().map(|x| x.as_str()).collect();
            let _ = writeln!(
                s,
                "occupancy   {} blocks/SM, {} warps/SM ({:.0}%), limited by {} ({} regs/thread assumed, --regs)",
                o.blocks_per_sm,
                o.active_warps,
                o.occupancy * 100.0,
                limiters.join(" + "),
                l.regs_per_thread
            );
        }
    }
    let t = &m.measures.time;
    let _ = writeln!(
        s,
        "time        {} ({}-bound: memory {}, issue {}, + launch overhead)",
        seconds(t.t),
        t.bound,
        seconds(t.t_mem),
        seconds(t.t_issue)
    );
    if let RefinedEstimate::Estimate(rt) = &m.measures.time_refined {
        let _ = writeln!(
            s,
            "  refined   {} ({}-bound; {} wave(s), effective bandwidth {:.0}% of peak), + {} launch overhead",
            seconds(rt.t),
            rt.bound,
            rt.waves.waves,
            rt.effective_bw_pct,
            seconds(rt.launch_overhead)
        );
        let units: Vec<String> = rt
            .units
            .iter()
            .map(|u| format!("{} {:.0}%", u.unit, u.utilisation * 100.0))
            .collect();
        let _ = writeln!(s, "            busy: {}", units.join(" · "));
        for a in &rt.assumptions {
            let _ = writeln!(s, "            assumes {a}");
        }
    }
    if !m.expects.is_empty() {
        let _ = writeln!(s, "expect");
        for e in &m.expects {
            match &e.detail {
                None => {
                    let _ = writeln!(s, "  ok      {}", e.text);
                }
                Some(d) => {
                    let _ = writeln!(s, "  FAILED  {}: {}", e.text, d);
                }
            }
        }
    }
    let t = &m.timing;
    let _ = writeln!(
        s,
        "timing      parse {} · setup {} · simulate {} · report {}",
        seconds(t.parse),
        seconds(t.setup),
        seconds(t.simulate),
        seconds(t.report)
    );
    s
}

/// Groups of races or uninitialised reads listed in the report (`--json` has every one).
const MAX_GROUPS_SHOWN: usize = 10;

/// A line saying how many groups were left out of the list.
fn more(s: &mut String, groups: usize) {
    if groups > MAX_GROUPS_SHOWN {
        let _ = writeln!(
            s,
            "  ... and {} more group(s) (--json lists them all)",
            groups - MAX_GROUPS_SHOWN
        );
    }
}

/// The line a sampled run adds: what ran, and the error bounds of the main counters.
fn sampled(sample: &SampleView) -> String {
    let relative = |name: &str| {
        let pct = sample.bounds_pct.get(name).copied().unwrap_or(0.0);
        format!("{name} ±{pct:.2}%")
    };
    format!(
        "sampled     {} of {} blocks ({:.2}%), counters extrapolated with 95% error bounds: {}, {}, {}, {} (all in --json); results and expects not checked",
        sample.sample.blocks_run,
        sample.sample.blocks,
        sample.blocks_run_pct,
        relative("warp_instr"),
        relative("gld_sectors"),
        relative("gst_sectors"),
        relative("smem_wavefronts"),
    )
}

/// The line a sampled run's cache model adds: its clusters, the bounds of the L2 and DRAM
/// counts, and the bias of clusters smaller than a wave.
fn sampled_cache(sample: &SampleView) -> Option<String> {
    let cs = sample.sample.cache.as_ref()?;
    let relative = |name: &str| {
        let pct = sample.cache_bounds_pct.get(name).copied().unwrap_or(0.0);
        format!("{name} ±{pct:.2}%")
    };
    let clusters = if cs.clusters_per_wave == 1 {
        "whole waves".to_string()
    } else {
        format!(
            "clusters of 1/{} wave, each with that share of the L2: reuse between clusters of a wave is not seen, so L2 misses and DRAM reads are upper bounds",
            cs.clusters_per_wave
        )
    };
    Some(format!(
        "  caches    {} of {} clusters ({} blocks with warm-ups), {}: {}, {}",
        cs.clusters_run,
        cs.clusters,
        cs.blocks_run,
        clusters,
        relative("l2_read_miss_sectors"),
        relative("dram_read_bytes"),
    ))
}
