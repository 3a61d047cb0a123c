//! Block sampling for launches too big to run whole: which blocks run, and what they extrapolate to.
//!
//! The grid is split into two strata. The *boundary* holds every block on a face of the grid
//! (first or last along a dimension of 3 or more blocks): edge tiles are where bounds checks cut
//! work short, so they are a stratum of their own, run whole up to [`BOUNDARY_WHOLE`] blocks and
//! sampled beyond. The *interior* is sampled uniformly without replacement. Both use a fixed
//! seed. Each counter is estimated as the sum over
//! strata of `N / n` times the sampled blocks' sum (`N` blocks in the stratum, `n` run), and its
//! error bound is 1.96 standard errors of that estimate, from the spread of the sampled blocks'
//! own totals with the finite-population correction `1 - n / N` (Cochran, *Sampling
//! Techniques*, 3rd ed., §5.3): about a 95 % interval when blocks vary independently.
//!
//! The cache model needs blocks that are resident together, so it has a sample of its own
//! ([`cache_plan`]): each wave of resident blocks is split into clusters of consecutive blocks,
//! a uniform sample of clusters runs, each through its share of the L2 after a warm-up by the
//! same cluster of the wave before, and each cache counter is estimated as `clusters / n`
//! times the sampled clusters' sum, its bound from the spread of the clusters' own totals
//! (Cochran §9.2, clusters as units).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::counters::{Counters, InstCounters};
use super::{race, BlockGroup, CacheConfig, CacheStats, KernelIr, LaunchConfig, Outcome};
use crate::rng::SplitMix64;

/// Boundary blocks are listed up to this many; past it the whole grid is one sampled stratum.
const MAX_BOUNDARY: u64 = 1 << 22;

/// A boundary of up to this many blocks runs whole; a larger one is sampled at the run's
/// fraction, but never fewer blocks than this.
pub const BOUNDARY_WHOLE: u64 = 64;

/// Standard errors in an error bound (a 95 % interval for a normal estimate).
const Z: f64 = 1.96;

/// Blocks of one stratum: how many it has, and those that run (linear ids, ascending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stratum {
    /// Blocks in the stratum.
    pub total: u64,
    /// The blocks run.
    pub ids: Vec<u64>,
}

/// What a sampled run says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Sample {
    /// The fraction asked for.
    pub fraction: f64,
    /// Blocks simulated.
    pub blocks_run: u64,
    /// Blocks in the grid.
    pub blocks: u64,
    /// Per counter (the names of `counters`), the half-width of its 95 % interval (0 where every
    /// block of the counter's strata ran).
    pub bounds: BTreeMap<String, f64>,
    /// How the cache model was sampled, when the launch has one.
    pub cache: Option<CacheSample>,
}

/// What a sampled run's cache model ran, and the error bound of each cache counter.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CacheSample {
    /// Clusters each wave of resident blocks is split into (1: whole waves).
    pub clusters_per_wave: u64,
    /// Clusters in the grid.
    pub clusters: u64,
    /// Clusters measured.
    pub clusters_run: u64,
    /// Blocks run for the cache model, warm-ups included.
    pub blocks_run: u64,
    /// L2 bytes a cluster runs with: its share of the L2, `l2_bytes / clusters_per_wave`.
    pub l2_bytes: u64,
    /// Per cache counter (the names of `cache`), the half-width of its 95 % interval.
    pub bounds: BTreeMap<String, f64>,
}

/// One sampled cluster of consecutive blocks (linear ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// The same cluster of the wave before, run first to fill the L2 and not counted (empty in
    /// the first wave, which starts with an empty L2 on the GPU too).
    pub warm: std::ops::Range<u64>,
    /// The blocks measured.
    pub blocks: std::ops::Range<u64>,
}

/// The cache model's sample: [`cache_plan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachePlan {
    /// Clusters each wave is split into.
    pub per_wave: u64,
    /// Clusters in the grid: waves × `per_wave` (a short last wave's may be empty).
    pub clusters: u64,
    /// Blocks in the grid.
    pub blocks: u64,
    /// The sampled clusters, in grid order.
    pub runs: Vec<Cluster>,
    /// The L2 a cluster sees: its share of the GPU's.
    pub cache: CacheConfig,
}

/// The clusters a sampled run measures the caches on, for about `fraction` of the grid's blocks
/// measured (warm-ups run as many again). A wave (`cache.wave_blocks` consecutive blocks, as the
/// exhaustive run replays them) is split into `per_wave` clusters of about half that budget,
/// so that at least two run and their spread is known, and never into more clusters than
/// blocks; `per_wave` is 1, whole waves, once the budget holds two. Each cluster sees
/// `1 / per_wave` of the L2, the share of it its blocks have on the GPU.
pub fn cache_plan(cfg: &LaunchConfig, cache: CacheConfig, fraction: f64) -> CachePlan {
    let n = cfg.blocks();
    let w = cache.wave_blocks.clamp(1, n.max(1));
    let waves = n.div_ceil(w);
    let budget = ((fraction * n as f64).ceil() as u64).max(1);
    let per_wave = ((2.0 * w as f64 / budget as f64).round() as u64).clamp(1, w);
    let clusters = waves * per_wave;
    let want = budget
        .div_ceil(w / per_wave)
        .clamp(clusters.min(2), clusters);
    let mut rng = SplitMix64(0xcace_c1a5_7e25_u64 ^ n);
    // Cluster `j` of a wave is its blocks `j w / per_wave ..`, cut at the wave's end: the short
    // last wave's clusters start where the full waves' do (some may be empty).
    let span = |wave: u64, j: u64, len: u64| {
        let at = |k: u64| wave * w + (k * w / per_wave).min(len);
        at(j)..at(j + 1)
    };
    let runs = choose_n(clusters, want, &mut rng)
        .into_iter()
        .map(|i| {
            let (wave, j) = (i / per_wave, i % per_wave);
            Cluster {
                warm: if wave == 0 {
                    0..0
                } else {
                    span(wave - 1, j, w)
                },
                blocks: span(wave, j, w.min(n - wave * w)),
            }
        })
        .collect();
    CachePlan {
        per_wave,
        clusters,
        blocks: n,
        runs,
        cache: CacheConfig {
            l2_bytes: cache.l2_bytes / per_wave,
            ..cache
        },
    }
}

impl CachePlan {
    /// The blocks to run, in order, and their groups for [`super::launch_groups`]: per cluster,
    /// its warm-up on an emptied L2, then its blocks.
    pub fn groups(&self) -> (Vec<u64>, Vec<BlockGroup>) {
        let (mut ids, mut groups) = (Vec::new(), Vec::new());
        for c in &self.runs {
            for (range, clear) in [
                (c.warm.clone(), true),
                (c.blocks.clone(), c.warm.is_empty()),
            ] {
                if range.is_empty() {
                    continue;
                }
                ids.extend(range);
                groups.push(BlockGroup {
                    end: ids.len(),
                    clear,
                });
            }
        }
        (ids, groups)
    }

    /// The grid's cache counts from each group's (as [`CachePlan::groups`] made them), and
    /// what the sample says about itself.
    pub fn combine(&self, groups: &[CacheStats]) -> (CacheStats, CacheSample) {
        // Each cluster's last group is the one measured (a cluster without blocks has none).
        let mut measured = Vec::new();
        let mut at = 0;
        for c in &self.runs {
            at += usize::from(!c.warm.is_empty()) + usize::from(!c.blocks.is_empty());
            let blocks = c.blocks.end - c.blocks.start;
            let stats = match blocks {
                0 => CacheStats::default(),
                _ => groups.get(at - 1).copied().unwrap_or_default(),
            };
            measured.push((blocks as f64, named(&stats)));
        }
        // Clusters differ in size (a short last wave), so each counter is estimated per block
        // (the ratio estimator, Cochran §6.2): blocks × Σy / Σm, its variance from the
        // residuals y - R m.
        let grid_blocks = self.blocks as f64;
        let run_blocks: f64 = measured.iter().map(|(m, _)| m).sum();
        let mut total = BTreeMap::new();
        let mut bounds = BTreeMap::new();
        let names: Vec<String> = named(&CacheStats::default()).into_keys().collect();
        for name in names {
            let ys: Vec<f64> = measured.iter().map(|(_, r)| r[&name]).collect();
            let ratio = ys.iter().sum::<f64>() / run_blocks.max(1.0);
            let residuals: Vec<f64> = measured
                .iter()
                .zip(&ys)
                .map(|((m, _), y)| y - ratio * m)
                .collect();
            total.insert(name.clone(), ratio * grid_blocks);
            bounds.insert(name, Z * variance(&residuals, self.clusters).sqrt());
        }
        let get = |k: &str| total.get(k).copied().unwrap_or(0.0).round() as u64;
        let stats = CacheStats {
            l1_hit_sectors: get("l1_hit_sectors"),
            l1_miss_sectors: get("l1_miss_sectors"),
            l2_read_hit_sectors: get("l2_read_hit_sectors"),
            l2_read_miss_sectors: get("l2_read_miss_sectors"),
            l2_write_sectors: get("l2_write_sectors"),
            l2_atomic_hit_sectors: get("l2_atomic_hit_sectors"),
            l2_atomic_miss_sectors: get("l2_atomic_miss_sectors"),
            dram_read_bytes: get("dram_read_bytes"),
            dram_write_bytes: get("dram_write_bytes"),
        };
        let blocks_run = self
            .runs
            .iter()
            .map(|c| (c.warm.end - c.warm.start) + (c.blocks.end - c.blocks.start))
            .sum();
        let sample = CacheSample {
            clusters_per_wave: self.per_wave,
            clusters: self.clusters,
            clusters_run: self.runs.len() as u64,
            blocks_run,
            l2_bytes: self.cache.l2_bytes,
            bounds,
        };
        (stats, sample)
    }
}

/// The blocks a run of about `fraction` of the grid simulates: the boundary stratum (whole up to
/// [`BOUNDARY_WHOLE`] blocks) and a uniform sample of the interior, at least two blocks of each
/// (so that its spread is known) unless it has fewer.
pub fn plan(cfg: &LaunchConfig, fraction: f64) -> Vec<Stratum> {
    let g = cfg.grid.map(u64::from);
    // Along a dimension of 3 or more blocks, the interior is 1..g-1; shorter ones have none.
    let inner = |d: usize| if g[d] >= 3 { (1, g[d] - 1) } else { (0, g[d]) };
    let spans = [inner(0), inner(1), inner(2)];
    let interior: u64 = spans.iter().map(|(lo, hi)| hi - lo).product();
    let total = cfg.blocks();
    let boundary = total - interior;
    let mut rng = SplitMix64(0x5eed_b10c_5a3f_u64 ^ total);
    if boundary > MAX_BOUNDARY {
        let ids = choose(total, fraction, &mut rng);
        return vec![Stratum { total, ids }];
    }
    let id = |c: [u64; 3]| c[0] + c[1] * g[0] + c[2] * g[0] * g[1];
    // Face blocks only, row by row: a layer on a z face whole, in other layers the rows on a y
    // face whole, and of the other rows the two ends when x has faces.
    let mut faces = Vec::with_capacity(boundary as usize);
    let face = |d: usize, c: u64| c < spans[d].0 || c >= spans[d].1;
    for z in 0..g[2] {
        if face(2, z) {
            faces.extend((0..g[0] * g[1]).map(|xy| id([xy % g[0], xy / g[0], z])));
            continue;
        }
        if g[1] >= 3 {
            for y in [0, g[1] - 1] {
                faces.extend((0..g[0]).map(|x| id([x, y, z])));
            }
        }
        if g[0] >= 3 {
            for y in spans[1].0..spans[1].1 {
                faces.extend([id([0, y, z]), id([g[0] - 1, y, z])]);
            }
        }
    }
    faces.sort_unstable();
    let at_least = (BOUNDARY_WHOLE as f64 / boundary.max(1) as f64).min(1.0);
    let faces: Vec<u64> = choose(boundary, fraction.max(at_least), &mut rng)
        .into_iter()
        .map(|r| faces[r as usize])
        .collect();
    let ranks = choose(interior, fraction, &mut rng);
    let (wx, wy) = (spans[0].1 - spans[0].0, spans[1].1 - spans[1].0);
    let mut inside: Vec<u64> = ranks
        .into_iter()
        .map(|r| {
            id([
                spans[0].0 + r % wx,
                spans[1].0 + (r / wx) % wy,
                spans[2].0 + r / (wx * wy),
            ])
        })
        .collect();
    inside.sort_unstable();
    vec![
        Stratum {
            total: boundary,
            ids: faces,
        },
        Stratum {
            total: interior,
            ids: inside,
        },
    ]
}

/// `ceil(fraction × n)` distinct ranks of `0..n` (at least two, or all when fewer), ascending.
fn choose(n: u64, fraction: f64, rng: &mut SplitMix64) -> Vec<u64> {
    choose_n(
        n,
        ((fraction * n as f64).ceil() as u64).clamp(n.min(2), n),
        rng,
    )
}

/// `want` (at most `n`) distinct ranks of `0..n`, uniformly, ascending.
fn choose_n(n: u64, want: u64, rng: &mut SplitMix64) -> Vec<u64> {
    let mut out: Vec<u64> = if want * 2 >= n {
        // Most of them: shuffle all (a partial Fisher-Yates) and keep the first `want`.
        let mut all: Vec<u64> = (0..n).collect();
        for i in 0..want as usize {
            let j = i + (rng.next_u64() % (n - i as u64)) as usize;
            all.swap(i, j);
        }
        all.truncate(want as usize);
        all
    } else {
        let mut seen = HashSet::with_capacity(want as usize);
        while (seen.len() as u64) < want {
            seen.insert(rng.next_u64() % n);
        }
        seen.into_iter().collect()
    };
    out.sort_unstable();
    out
}

/// Combines the launches of the strata (in the order of [`plan`]) into one outcome for the whole
/// grid: each instruction's counters scaled by `N / n` per stratum (rounded), the totals from
/// them (with the grid's blocks and threads), races and uninitialised reads as found, and the
/// error bound of every total.
pub fn combine(
    ir: &KernelIr,
    cfg: &LaunchConfig,
    fraction: f64,
    runs: Vec<(Stratum, Outcome)>,
) -> (Outcome, Sample) {
    let mut scaled = vec![[0f64; FIELDS]; ir.insts.len()];
    let mut variance: BTreeMap<String, f64> = BTreeMap::new();
    let mut blocks_run = 0;
    let mut merged: Option<Outcome> = None;
    for (stratum, outcome) in runs {
        let n = stratum.ids.len() as u64;
        blocks_run += n;
        if n == 0 {
            continue;
        }
        let weight = stratum.total as f64 / n as f64;
        for (s, c) in scaled.iter_mut().zip(&outcome.per_inst) {
            for (x, v) in s.iter_mut().zip(fields(c)) {
                *x += weight * v as f64;
            }
        }
        for (name, var) in spread(&outcome.block_totals, stratum.total) {
            *variance.entry(name).or_default() += var;
        }
        merged = Some(match merged {
            None => outcome,
            Some(mut m) => {
                race::merge(&mut m.races, outcome.races, |a, b| {
                    a.kind == b.kind
                        && ir.site(a.inst) == ir.site(b.inst)
                        && ir.site(a.other_inst) == ir.site(b.other_inst)
                        && a.array == b.array
                });
                race::merge(&mut m.uninit, outcome.uninit, |a, b| {
                    ir.site(a.inst) == ir.site(b.inst) && a.array == b.array
                });
                for (a, b) in m.barrier_protects.iter_mut().zip(&outcome.barrier_protects) {
                    *a |= *b;
                }
                for (a, b) in m.barrier_passes.iter_mut().zip(&outcome.barrier_passes) {
                    *a |= *b;
                }
                for (a, b) in m.first_access.iter_mut().zip(outcome.first_access) {
                    if a.is_none() {
                        *a = b;
                    }
                }
                m.printf.push_str(&outcome.printf);
                m
            }
        });
    }
    let mut outcome = merged.expect("plan: a grid has at least one block to run");
    outcome.per_inst = scaled.iter().map(unfields).collect();
    let mut counters = Counters {
        blocks: cfg.blocks(),
        threads: cfg.blocks() * cfg.threads_per_block(),
        ..Counters::default()
    };
    for c in &outcome.per_inst {
        counters.add(c);
    }
    outcome.counters = counters;
    outcome.block_totals.clear();
    let bounds = variance
        .into_iter()
        .map(|(name, v)| (name, Z * v.sqrt()))
        .collect();
    let sample = Sample {
        fraction,
        blocks_run,
        blocks: cfg.blocks(),
        bounds,
        cache: None,
    };
    (outcome, sample)
}

/// Per counter, the variance of a stratum's estimated total from its blocks' totals:
/// `N² (1 - n/N) s² / n`.
fn spread(totals: &[Counters], stratum: u64) -> Vec<(String, f64)> {
    let rows: Vec<BTreeMap<String, f64>> = totals.iter().map(named).collect();
    let Some(first) = rows.first() else {
        return Vec::new();
    };
    first
        .keys()
        .filter(|k| !matches!(k.as_str(), "blocks" | "threads"))
        .map(|k| {
            let xs: Vec<f64> = rows.iter().map(|r| r[k]).collect();
            (k.clone(), variance(&xs, stratum))
        })
        .collect()
}

/// The variance of `N / n` times the sum of `xs`, `n` units drawn from `N` without replacement:
/// `N² (1 - n/N) s² / n` (0 when fewer than two ran, or all of them).
fn variance(xs: &[f64], units: u64) -> f64 {
    let (n, big_n) = (xs.len() as f64, units as f64);
    if n < 2.0 || n >= big_n {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / n;
    let s2 = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    big_n * big_n * (1.0 - n / big_n) * s2 / n
}

/// The totals by their JSON names.
fn named<T: Serialize>(c: &T) -> BTreeMap<String, f64> {
    match serde_json::to_value(c) {
        Ok(serde_json::Value::Object(m)) => m
            .into_iter()
            .filter_map(|(k, v)| v.as_f64().map(|x| (k, x)))
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// Counters of one instruction, as many as [`fields`] lists.
const FIELDS: usize = 30;

/// An instruction's counters in a fixed order (undone by [`unfields`]).
fn fields(c: &InstCounters) -> [u64; FIELDS] {
    [
        c.warp_instr,
        c.active_lane_slots,
        c.gld_instr,
        c.gst_instr,
        c.gld_sectors,
        c.gst_sectors,
        c.gatom_instr,
        c.gatom_sectors,
        c.g_bytes_requested,
        c.cmem_instr,
        c.cmem_transactions,
        c.local_ld_instr,
        c.local_st_instr,
        c.local_ld_sectors,
        c.local_st_sectors,
        c.smem_ld_instr,
        c.smem_st_instr,
        c.smem_ld_wavefronts,
        c.smem_st_wavefronts,
        c.smem_ideal_wavefronts,
        c.barriers,
        c.branches,
        c.divergent,
        c.race_count,
        c.uninit_count,
        c.g_wavefronts,
        c.tex_requests,
        c.grid_syncs,
        c.tensor_instr,
        c.latency_rounds,
    ]
}

/// Scaled counters back into an instruction's, rounded to the nearest event.
fn unfields(s: &[f64; FIELDS]) -> InstCounters {
    let r = |i: usize| s[i].round() as u64;
    InstCounters {
        warp_instr: r(0),
        active_lane_slots: r(1),
        gld_instr: r(2),
        gst_instr: r(3),
        gld_sectors: r(4),
        gst_sectors: r(5),
        gatom_instr: r(6),
        gatom_sectors: r(7),
        g_bytes_requested: r(8),
        cmem_instr: r(9),
        cmem_transactions: r(10),
        local_ld_instr: r(11),
        local_st_instr: r(12),
        local_ld_sectors: r(13),
        local_st_sectors: r(14),
        smem_ld_instr: r(15),
        smem_st_instr: r(16),
        smem_ld_wavefronts: r(17),
        smem_st_wavefronts: r(18),
        smem_ideal_wavefronts: r(19),
        barriers: r(20),
        branches: r(21),
        divergent: r(22),
        race_count: r(23),
        uninit_count: r(24),
        g_wavefronts: r(25),
        tex_requests: r(26),
        grid_syncs: r(27),
        tensor_instr: r(28),
        latency_rounds: r(29),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(grid: [u32; 3]) -> LaunchConfig {
        LaunchConfig {
            grid,
            block: [32, 1, 1],
            dyn_smem: 0,
            max_steps: 1 << 32,
            max_block_steps: 1 << 28,
            deadline: None,
            threads: 1,
            cooperative: false,
            parallel_min: crate::exec::PARALLEL_MIN_THREADS,
            probe: crate::exec::Probe::default(),
            cache: None,
        }
    }

    #[test]
    fn the_boundary_runs_whole_and_the_interior_is_sampled() {
        // 10 × 6 blocks: the interior is 8 × 4 = 32 blocks, the boundary 28. A tenth of the
        // interior is ceil(3.2) = 4 blocks.
        let plan = plan(&cfg([10, 6, 1]), 0.1);
        assert_eq!(plan.len(), 2);
        assert_eq!((plan[0].total, plan[0].ids.len()), (28, 28));
        assert_eq!((plan[1].total, plan[1].ids.len()), (32, 4));
        let on_face = |id: u64| {
            let (x, y) = (id % 10, id / 10);
            x == 0 || x == 9 || y == 0 || y == 5
        };
        assert!(plan[0].ids.iter().all(|&i| on_face(i)));
        assert!(plan[1].ids.iter().all(|&i| !on_face(i)));
        assert!(plan[0].ids.windows(2).all(|w| w[0] < w[1]));
        assert!(plan[1].ids.windows(2).all(|w| w[0] < w[1]));
        // The same sample every time.
        assert_eq!(plan, super::plan(&cfg([10, 6, 1]), 0.1));
    }

    #[test]
    fn short_dimensions_have_no_faces_and_3d_faces_are_counted_once() {
        // A 1-D grid of 1000: blocks 0 and 999 are the boundary.
        let p = plan(&cfg([1000, 1, 1]), 0.01);
        assert_eq!(p[0].ids, [0, 999]);
        assert_eq!((p[1].total, p[1].ids.len()), (998, 10));
        // 2 × 500: x has no faces; the rows y = 0 and y = 499 (4 blocks) do.
        let p = plan(&cfg([2, 500, 1]), 0.5);
        assert_eq!(p[0].ids, [0, 1, 998, 999]);
        // 4 × 4 × 4: 64 - 2 × 2 × 2 = 56 face blocks, each once.
        let p = plan(&cfg([4, 4, 4]), 0.5);
        assert_eq!(p[0].ids.len(), 56);
        assert_eq!((p[1].total, p[1].ids.len()), (8, 4));
        // 100 × 100: 396 boundary blocks, more than 64: sampled at the fraction (198 at one
        // half), the interior too (9604 / 2 = 4802).
        let p = plan(&cfg([100, 100, 1]), 0.5);
        assert_eq!((p[0].total, p[0].ids.len()), (396, 198));
        assert_eq!((p[1].total, p[1].ids.len()), (9604, 4802));
        // At 1 %, the boundary keeps 64 blocks.
        assert_eq!(plan(&cfg([100, 100, 1]), 0.01)[0].ids.len(), 64);
        // A fraction of 1 runs every block.
        let p = plan(&cfg([7, 7, 1]), 1.0);
        assert_eq!(p[0].ids.len() + p[1].ids.len(), 49);
    }

    #[test]
    fn estimates_scale_by_stratum_and_bounds_shrink_to_zero_when_all_ran() {
        // Stratum of 10 blocks, 4 run with totals 1, 2, 3, 6 of some counter: the estimate is
        // 10/4 × 12 = 30; s² = ((1-3)² + (2-3)² + 0 + (6-3)²) / 3 = 14/3, so the variance of the
        // total is 10² × (1 - 4/10) × (14/3) / 4 = 70 and the bound 1.96 × √70 = 16.398.
        let totals: Vec<Counters> = [1, 2, 3, 6]
            .iter()
            .map(|&w| Counters {
                warp_instr: w,
                ..Counters::default()
            })
            .collect();
        let v: BTreeMap<String, f64> = spread(&totals, 10).into_iter().collect();
        assert!((v["warp_instr"] - 70.0).abs() < 1e-9, "{v:?}");
        assert!((Z * v["warp_instr"].sqrt() - 16.398).abs() < 1e-3);
        assert_eq!(v["gld_sectors"], 0.0);
        // Every block of the stratum ran: no error.
        let all: BTreeMap<String, f64> = spread(&totals, 4).into_iter().collect();
        assert_eq!(all["warp_instr"], 0.0);
    }

    fn cache(wave: u64) -> CacheConfig {
        CacheConfig {
            l1_bytes_per_block: 1024,
            l2_bytes: 1 << 20,
            wave_blocks: wave,
        }
    }

    #[test]
    fn cache_clusters_split_waves_and_warm_up_on_the_wave_before() {
        // 1000 blocks in waves of 100, a tenth: a budget of 100 blocks, so clusters of about
        // half of it: round(2 × 100 / 100) = 2 per wave, 50 blocks each, 20 in the grid, and
        // ceil(100 / 50) = 2 run, each with half the L2.
        let p = cache_plan(&cfg([1000, 1, 1]), cache(100), 0.1);
        assert_eq!((p.per_wave, p.clusters, p.runs.len()), (2, 20, 2));
        assert_eq!(p.cache.l2_bytes, 1 << 19);
        for c in &p.runs {
            assert_eq!(c.blocks.end - c.blocks.start, 50);
            assert_eq!(c.blocks.start % 50, 0);
            // The same cluster of the wave before, or none in the first wave.
            match c.blocks.start {
                0..100 => assert!(c.warm.is_empty()),
                s => assert_eq!(c.warm, s - 100..s - 50),
            }
        }
        // A budget of two waves or more: whole waves. 250 blocks in waves of 100 (the last one
        // 50 blocks), 0.9 of them: a budget of 225, round(200 / 225) = 1 per wave, all 3 run.
        let p = cache_plan(&cfg([250, 1, 1]), cache(100), 0.9);
        assert_eq!((p.per_wave, p.clusters), (1, 3));
        assert_eq!(p.runs.len(), 3);
        assert_eq!(p.runs[2].blocks, 200..250);
        assert_eq!(p.runs[2].warm, 100..200);
        assert_eq!(p.cache.l2_bytes, 1 << 20);
        // Groups: a warm-up empties the L2 first; a first-wave cluster empties it itself.
        let (ids, groups) = p.groups();
        assert_eq!(ids.len(), 100 + (100 + 100) + (100 + 50));
        assert_eq!(
            groups,
            [
                BlockGroup {
                    end: 100,
                    clear: true
                },
                BlockGroup {
                    end: 200,
                    clear: true
                },
                BlockGroup {
                    end: 300,
                    clear: false
                },
                BlockGroup {
                    end: 400,
                    clear: true
                },
                BlockGroup {
                    end: 450,
                    clear: false
                },
            ]
        );
    }

    #[test]
    fn cache_counts_extrapolate_per_block_with_the_spread_of_the_clusters() {
        // Two measured clusters of 50 and 30 blocks (no warm-ups), of 20 in a grid of 1000
        // blocks. l1_miss_sectors 100 and 90: R = 190 / 80 = 2.375 per block, so 2375 in all;
        // residuals 100 - 118.75 = -18.75 and 90 - 71.25 = 18.75, s² = 2 × 18.75² / 1 =
        // 703.125; variance 20² × (1 - 2/20) × 703.125 / 2 = 126562.5, bound 1.96 × 355.76 =
        // 697.28. dram_read_bytes 100 and 60 are 2 per block exactly: 2000, bound 0.
        let plan = CachePlan {
            per_wave: 2,
            clusters: 20,
            blocks: 1000,
            runs: vec![
                Cluster {
                    warm: 0..0,
                    blocks: 0..50,
                },
                Cluster {
                    warm: 0..0,
                    blocks: 970..1000,
                },
            ],
            cache: cache(100),
        };
        let group = |miss, dram| CacheStats {
            l1_miss_sectors: miss,
            dram_read_bytes: dram,
            ..CacheStats::default()
        };
        let (k, info) = plan.combine(&[group(100, 100), group(90, 60)]);
        assert_eq!((k.l1_miss_sectors, k.dram_read_bytes), (2375, 2000));
        assert!((info.bounds["l1_miss_sectors"] - 697.28).abs() < 0.01);
        assert_eq!(info.bounds["dram_read_bytes"], 0.0);
        assert_eq!(k.l2_read_hit_sectors, 0);
        assert_eq!((info.clusters_run, info.blocks_run), (2, 80));
    }
}
