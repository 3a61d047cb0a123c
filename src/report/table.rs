//! The human report of `simt run`.

use std::fmt::Write as _;

use super::style::{Paint, Tone};
use super::Report;

fn dim(d: [u32; 3]) -> String {
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
/// be, then the table and the hints; with `lines`, the per-line view after them.
pub fn text(r: &Report, lines: bool, paint: Paint) -> String {
    let mut s = r.printf.clone();
    if r.printf_truncated {
        s.push_str("[simt: printf output past the device's 1 MiB buffer was dropped]\n");
    }
    s.push_str(&render(r));
    if !r.hints.is_empty() {
        s.push_str("hints\n");
        for h in &r.hints {
            let at = h.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            let _ = writeln!(s, "  {} {at}{}", paint.tone("▸", Tone::Yellow), h.message);
        }
    }
    if lines {
        s.push('\n');
        s.push_str(&super::lines::render(r, paint));
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

/// Renders the report as text.
pub fn render(r: &Report) -> String {
    let c = &r.counters;
    let mut s = String::new();
    let l = &r.launch;
    let _ = writeln!(s, "simt · {} ({}) on {}", r.kernel, r.file, r.gpu.name);
    let _ = writeln!(
        s,
        "launch      grid {} × block {} = {} blocks, {} threads, {} warps/block",
        dim(l.grid),
        dim(l.block),
        c.blocks,
        c.threads,
        l.warps_per_block
    );
    if let Some(sample) = &r.sample {
        let _ = writeln!(s, "{}", sampled(sample, c));
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "global memory");
    let _ = writeln!(
        s,
        "  loads     {:>10} requests {:>12} sectors  {:>6.2} sectors/request",
        c.gld_instr,
        c.gld_sectors,
        c.sectors_per_load()
    );
    let _ = writeln!(
        s,
        "  stores    {:>10} requests {:>12} sectors  {:>6.2} sectors/request",
        c.gst_instr,
        c.gst_sectors,
        c.sectors_per_store()
    );
    let _ = writeln!(
        s,
        "  requested {:>10} bytes    moved {} bytes   requested/moved {:.3}",
        c.g_bytes_requested,
        c.dram_bytes(),
        c.bytes_requested_per_byte_moved()
    );
    if let (Some(k), Some(cfg)) = (&r.cache, &r.launch.cache) {
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
            k.l1_hit_sectors,
            k.l1_miss_sectors,
            k.l1_hit_rate_pct()
        );
        let _ = writeln!(
            s,
            "  L2        {:>10} reads {:>11} writes {} atomics  read hit rate {:.1}%, hit rate {:.1}%",
            k.l2_read_hit_sectors + k.l2_read_miss_sectors,
            k.l2_write_sectors,
            k.l2_atomic_hit_sectors + k.l2_atomic_miss_sectors,
            k.l2_read_hit_rate_pct(),
            k.l2_hit_rate_pct()
        );
        let _ = writeln!(
            s,
            "  DRAM      {:>10} bytes read {:>6} bytes written",
            k.dram_read_bytes, k.dram_write_bytes
        );
    }
    if c.cmem_instr > 0 {
        let _ = writeln!(
            s,
            "constant memory\n  loads     {:>10} requests {:>12} transactions ({:.2} per request: one per distinct address)",
            c.cmem_instr,
            c.cmem_transactions,
            c.cmem_transactions as f64 / c.cmem_instr as f64
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
        c.smem_instr,
        c.smem_wavefronts,
        c.smem_bank_conflicts,
        c.bank_conflict_factor()
    );
    let _ = writeln!(s, "control flow");
    let _ = writeln!(
        s,
        "  {:>10} warp instructions  {} active lane slots  SIMT efficiency {:.3}",
        c.warp_instr,
        c.active_lane_slots,
        c.simt_efficiency()
    );
    let _ = writeln!(
        s,
        "  {:>10} branches  {} divergent  branch efficiency {:.3}",
        c.branches,
        c.divergent,
        c.branch_efficiency()
    );
    let _ = writeln!(s, "  {:>10} barriers", c.barriers);
    if c.race_count == 0 {
        let _ = writeln!(s, "races       none");
    } else {
        let _ = writeln!(
            s,
            "races       {} racing instruction(s) in {} group(s)",
            c.race_count,
            r.races.len()
        );
        for race in r.races.iter().take(MAX_GROUPS_SHOWN) {
            let _ = writeln!(s, "  - {}", race.describe());
            let _ = writeln!(s, "      {:>4} | {}", race.line, race.source);
            let _ = writeln!(s, "      {}", race.extent());
            let _ = writeln!(s, "      fix: {}", race.fix);
        }
        more(&mut s, r.races.len());
    }
    if c.uninit_count > 0 {
        let _ = writeln!(
            s,
            "uninit      {} instruction(s) read uninitialised memory, in {} group(s)",
            c.uninit_count,
            r.uninit.len()
        );
        for u in r.uninit.iter().take(MAX_GROUPS_SHOWN) {
            let _ = writeln!(s, "  - {}", u.describe());
            let _ = writeln!(s, "      {:>4} | {}", u.line, u.source);
            let _ = writeln!(s, "      {}", u.extent());
        }
        more(&mut s, r.uninit.len());
        let _ = writeln!(
            s,
            "      fix: write every element before any thread reads it (and __syncthreads() between, for shared memory); on a GPU it holds leftover data"
        );
    }
    let o = &r.occupancy;
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
    let t = &r.time;
    let _ = writeln!(
        s,
        "time        {} ({}-bound: memory {}, issue {}, + launch overhead)",
        seconds(t.t),
        t.bound,
        seconds(t.t_mem),
        seconds(t.t_issue)
    );
    if let Ok(rt) = &r.refined {
        let _ = writeln!(
            s,
            "  refined   {} ({}-bound; {} wave(s), effective bandwidth {:.0}% of peak), + {} launch overhead",
            seconds(rt.t),
            rt.bound,
            rt.waves.waves,
            rt.effective_bw / r.gpu.mem_bw * 100.0,
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
    if !r.expects.is_empty() {
        let _ = writeln!(s, "expect");
        for e in &r.expects {
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
    let t = &r.timing;
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
fn sampled(sample: &crate::exec::sample::Sample, c: &crate::exec::Counters) -> String {
    let relative = |name: &str, total: u64| {
        let bound = sample.bounds.get(name).copied().unwrap_or(0.0);
        let pct = if total == 0 {
            0.0
        } else {
            100.0 * bound / total as f64
        };
        format!("{name} ±{pct:.2}%")
    };
    format!(
        "sampled     {} of {} blocks ({:.2}%), counters extrapolated with 95% error bounds: {}, {}, {}, {} (all in --json); results and expects not checked",
        sample.blocks_run,
        sample.blocks,
        100.0 * sample.blocks_run as f64 / sample.blocks.max(1) as f64,
        relative("warp_instr", c.warp_instr),
        relative("gld_sectors", c.gld_sectors),
        relative("gst_sectors", c.gst_sectors),
        relative("smem_wavefronts", c.smem_wavefronts),
    )
}
