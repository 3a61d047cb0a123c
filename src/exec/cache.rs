//! Sector caches: a set-associative LRU model of each block's L1 share and of the shared L2.
//!
//! Global-memory sectors reach the caches as the engine counts them: the distinct 32-byte
//! sectors of each warp request. A block's loads look in its L1 share (the SM's L1 divided
//! among the blocks resident on it), which starts empty for every block so that a block's hits
//! do not depend on which worker ran it; misses, stores and atomics go to the L2 as a trace.
//! After the blocks of a wave (the blocks resident on the GPU at once) have run, their traces
//! are replayed into the one L2 interleaved, request by request in block order, as resident
//! blocks share it. The result is the same for any number of worker threads. A dirty sector is
//! written back to DRAM exactly once (when evicted, or at the end of the kernel), so the model
//! counts the write-back when the sector becomes dirty: every count then adds up over any
//! split of the blocks, which is what a sampled run's clusters need (`sample.rs`).

use serde::Serialize;

/// Bytes in a sector (the unit of global-memory traffic).
pub const SECTOR_BYTES: u64 = 32;
/// Sectors in a cache line (128-byte lines, 32-byte sectors filled on demand).
const LINE_SECTORS: u64 = 4;
/// Ways per set (the model's choice; NVIDIA does not publish its caches' associativity).
const WAYS: usize = 16;
/// Set bits in each 4-bit sector mask (a table: `count_ones` is slow without POPCNT).
const POP4: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Sectors in a mask of a line's sectors.
fn sectors(mask: u8) -> u64 {
    u64::from(POP4[usize::from(mask & 15)])
}

/// Sizes the cache model needs, worked out from the GPU and the launch's occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CacheConfig {
    /// L1 bytes each resident block may use: the SM's L1 (what the shared-memory carveout
    /// leaves) divided by the blocks resident on the SM.
    pub l1_bytes_per_block: u64,
    /// L2 bytes of the GPU.
    pub l2_bytes: u64,
    /// Blocks resident on the GPU at once (SMs × blocks per SM): one wave.
    pub wave_blocks: u64,
}

/// What a stretch of sectors asks of the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// A global load that missed in L1.
    Read,
    /// A global store (L1 is write-through and does not allocate on stores).
    Write,
    /// A global atomic (resolved in L2).
    Atomic,
}

/// `n` consecutive sectors from `sector` of one warp request, on their way to the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Touch {
    pub(crate) sector: u64,
    pub(crate) n: u32,
    pub(crate) op: Op,
}

/// The cache model's counts for a launch, in sectors unless named bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CacheStats {
    /// Global-load sectors found in the block's L1 share.
    pub l1_hit_sectors: u64,
    /// Global-load sectors not found there (read from L2).
    pub l1_miss_sectors: u64,
    /// L2 reads (L1 misses) that found their sector.
    pub l2_read_hit_sectors: u64,
    /// L2 reads that did not: each one reads a sector from DRAM.
    pub l2_read_miss_sectors: u64,
    /// Sectors written to L2 by global stores (write-back: DRAM sees them when evicted).
    pub l2_write_sectors: u64,
    /// Atomic sectors that found their sector in L2.
    pub l2_atomic_hit_sectors: u64,
    /// Atomic sectors that read theirs from DRAM first.
    pub l2_atomic_miss_sectors: u64,
    /// Bytes read from DRAM: L2 read and atomic misses × 32.
    pub dram_read_bytes: u64,
    /// Bytes written to DRAM: each sector that becomes dirty in L2 is written back once (when
    /// evicted, or at the end of the kernel), × 32.
    pub dram_write_bytes: u64,
}

impl CacheStats {
    /// Sectors the L2 served: reads, writes and atomics.
    pub fn l2_sectors(&self) -> u64 {
        self.l2_read_hit_sectors
            + self.l2_read_miss_sectors
            + self.l2_write_sectors
            + self.l2_atomic_hit_sectors
            + self.l2_atomic_miss_sectors
    }

    /// Global-load sectors that hit in L1, percent (0 without loads).
    pub fn l1_hit_rate_pct(&self) -> f64 {
        pct(
            self.l1_hit_sectors,
            self.l1_hit_sectors + self.l1_miss_sectors,
        )
    }

    /// L2 reads that hit, percent (0 without reads).
    pub fn l2_read_hit_rate_pct(&self) -> f64 {
        pct(
            self.l2_read_hit_sectors,
            self.l2_read_hit_sectors + self.l2_read_miss_sectors,
        )
    }

    /// L2 sectors that hit, percent, counting every write as a hit: a write allocates its
    /// sector without reading DRAM, and Nsight Compute counts it a hit (docs/gpu-facts.md §6.3).
    pub fn l2_hit_rate_pct(&self) -> f64 {
        pct(
            self.l2_read_hit_sectors + self.l2_write_sectors + self.l2_atomic_hit_sectors,
            self.l2_sectors(),
        )
    }

    /// DRAM bytes read and written.
    pub fn dram_bytes(&self) -> u64 {
        self.dram_read_bytes + self.dram_write_bytes
    }

    pub(crate) fn add(&mut self, o: &CacheStats) {
        self.l1_hit_sectors += o.l1_hit_sectors;
        self.l1_miss_sectors += o.l1_miss_sectors;
        self.l2_read_hit_sectors += o.l2_read_hit_sectors;
        self.l2_read_miss_sectors += o.l2_read_miss_sectors;
        self.l2_write_sectors += o.l2_write_sectors;
        self.l2_atomic_hit_sectors += o.l2_atomic_hit_sectors;
        self.l2_atomic_miss_sectors += o.l2_atomic_miss_sectors;
        self.dram_read_bytes += o.dram_read_bytes;
        self.dram_write_bytes += o.dram_write_bytes;
    }
}

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// A set-associative cache of 128-byte lines whose 32-byte sectors are filled one by one, with
/// least-recently-used replacement. Sets are chosen by a hash of the line address, as NVIDIA's
/// hashed address mapping spreads power-of-two strides (without it, a column walk of a
/// 4 KB-wide matrix would land in a handful of sets).
///
/// Each set keeps its lines in order of use, most recent first, so a lookup is one scan and the
/// least recently used line is the last; a set is [`SET_WORDS`] consecutive words (the lines'
/// addresses plus one, their sector bits, and how many lines are valid since the set was last
/// emptied), so that a lookup touches one short stretch of memory.
#[derive(Clone, Debug)]
pub(crate) struct SectorCache {
    sets: u64,
    ways: usize,
    /// [`SET_WORDS`] words per set, zeroed memory (empty sets): a large L2 costs nothing until
    /// used.
    words: Vec<u64>,
    /// How many times the cache was emptied: a set whose count differs is empty.
    epoch: u64,
}

/// Words of one set: [`WAYS`] line addresses plus one (most recently used first), the ways'
/// sector bits (way `k`'s in byte `k` of a little-endian `u128`: valid sectors in the low 4
/// bits, dirty ones in the high 4), and the epoch the set was last used in, times 32, plus its
/// count of valid lines.
const SET_WORDS: usize = WAYS + 3;
/// Where a set's sector bits start.
const BITS: usize = WAYS;
/// Where a set's epoch and count are.
const META: usize = WAYS + 2;

/// Bytes the model of a `bytes`-byte cache allocates: per 16 lines of 128 bytes, one set of
/// [`SET_WORDS`] words.
pub(crate) fn state_bytes(bytes: u64) -> u64 {
    bytes / (LINE_SECTORS * SECTOR_BYTES * WAYS as u64) * SET_WORDS as u64 * 8
        + SET_WORDS as u64 * 8
}

/// What one access to a line's sectors found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lookup {
    /// The sectors asked for that were present (a mask like the one given).
    pub(crate) hits: u8,
    /// The sectors a write made dirty that were not dirty before: each will be written back once.
    pub(crate) dirtied: u8,
}

/// `bits` with bytes `0..=k` moved up one byte (byte `k` dropped) and byte 0 set to `first`.
fn shift_in(bits: u128, k: usize, first: u8) -> u128 {
    let moved = if k + 1 >= 16 {
        !0u128
    } else {
        (1u128 << (8 * (k + 1))) - 1
    };
    (bits & !moved) | ((bits << 8) & moved & !0xff) | u128::from(first)
}

impl SectorCache {
    /// A cache of `bytes` (rounded down to whole lines; fewer than one line caches nothing).
    pub(crate) fn new(bytes: u64) -> SectorCache {
        let lines = bytes / (LINE_SECTORS * SECTOR_BYTES);
        let ways = (lines as usize).min(WAYS);
        let sets = if ways == 0 { 0 } else { lines / ways as u64 };
        SectorCache {
            sets,
            ways,
            words: vec![0; sets as usize * SET_WORDS],
            epoch: 0,
        }
    }

    /// Empties the cache, in constant time: every set of an earlier epoch counts as empty.
    pub(crate) fn clear(&mut self) {
        self.epoch += 1;
    }

    /// Looks up the sectors `mask` (bit `k`: sector `k` of the line) of line `line` and brings
    /// them in (dirty when `write`), evicting the least recently used line of its set when the
    /// line is absent.
    pub(crate) fn access(&mut self, line: u64, mask: u8, write: bool) -> Lookup {
        if self.sets == 0 {
            return Lookup {
                hits: 0,
                dirtied: 0,
            };
        }
        let tag = line + 1;
        let dirty = if write { mask << 4 } else { 0 };
        let h = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Lemire's multiply-shift maps the hash onto 0..sets without a division.
        let set = ((u128::from(h ^ (h >> 29)) * u128::from(self.sets)) >> 64) as usize;
        let w = &mut self.words[set * SET_WORDS..(set + 1) * SET_WORDS];
        let meta = w[META];
        let valid = if meta >> 5 == self.epoch {
            (meta & 31) as usize
        } else {
            0
        };
        let bits = u128::from(w[BITS]) | (u128::from(w[BITS + 1]) << 64);
        let (bits, found, count) = match w[..valid].iter().position(|&t| t == tag) {
            Some(k) => {
                let old = (bits >> (8 * k)) as u8;
                w.copy_within(0..k, 1);
                (shift_in(bits, k, old | mask | dirty), Some(old), valid)
            }
            // A full set drops its last (least recently used) line.
            None if valid == self.ways => {
                w.copy_within(0..valid - 1, 1);
                (shift_in(bits, valid - 1, mask | dirty), None, valid)
            }
            None => {
                w.copy_within(0..valid, 1);
                (shift_in(bits, valid, mask | dirty), None, valid + 1)
            }
        };
        w[0] = tag;
        w[BITS] = bits as u64;
        w[BITS + 1] = (bits >> 64) as u64;
        w[META] = self.epoch << 5 | count as u64;
        match found {
            Some(old) => Lookup {
                hits: old & mask,
                dirtied: (dirty >> 4) & !(old >> 4),
            },
            None => Lookup {
                hits: 0,
                dirtied: dirty >> 4,
            },
        }
    }
}

/// One block's L1 share and the trace it sends to the L2.
#[derive(Clone, Debug)]
pub(crate) struct BlockL1 {
    cache: SectorCache,
    /// What the running block sent to L2 so far.
    pub(crate) trace: Vec<Touch>,
    /// L1 hits and misses of every block this runner ran.
    pub(crate) hits: u64,
    pub(crate) misses: u64,
    /// Load requests (one per warp) with at least one sector missing in the L1, of every block
    /// this runner ran.
    pub(crate) missed_requests: u64,
}

impl BlockL1 {
    pub(crate) fn new(bytes: u64) -> BlockL1 {
        BlockL1 {
            cache: SectorCache::new(bytes),
            trace: Vec::new(),
            hits: 0,
            misses: 0,
            missed_requests: 0,
        }
    }

    /// A new block starts with an empty L1 share and an empty trace.
    pub(crate) fn start_block(&mut self) {
        self.cache.clear();
        self.trace.clear();
    }

    /// A copy of the running block's L1 share, for a block parked at a grid barrier.
    pub(crate) fn cache(&self) -> SectorCache {
        self.cache.clone()
    }

    /// A parked block goes on with its L1 share and an empty trace (its trace so far went to
    /// the L2 with the grid barrier's wave).
    pub(crate) fn resume(&mut self, cache: SectorCache) {
        self.cache = cache;
        self.trace.clear();
    }

    /// One warp request's distinct sectors, ascending, for `op`: loads look in L1 first, a line
    /// at a time.
    pub(crate) fn request(&mut self, sectors: impl Iterator<Item = u64>, op: Op) {
        if op != Op::Read {
            for s in sectors {
                self.send(s, op);
            }
            return;
        }
        let misses = self.misses;
        let mut line = (u64::MAX, 0u8);
        for s in sectors.chain(std::iter::once(u64::MAX)) {
            let l = s / LINE_SECTORS;
            if l != line.0 {
                if line.1 != 0 {
                    self.look(line.0, line.1);
                }
                line = (l, 0);
            }
            line.1 |= 1 << (s % LINE_SECTORS);
        }
        self.missed_requests += u64::from(self.misses > misses);
    }

    /// Looks the sectors `mask` of `line` up; the misses go to the L2.
    fn look(&mut self, line: u64, mask: u8) {
        let hits = self.cache.access(line, mask, false).hits;
        self.hits += sectors(hits);
        let missed = mask & !hits;
        if missed != 0 {
            self.misses += sectors(missed);
            for k in 0..LINE_SECTORS {
                if missed & (1 << k) != 0 {
                    self.send(line * LINE_SECTORS + k, Op::Read);
                }
            }
        }
    }

    /// Appends a sector to the trace, extending the last touch when it continues it.
    fn send(&mut self, s: u64, op: Op) {
        match self.trace.last_mut() {
            Some(t) if t.op == op && t.sector + u64::from(t.n) == s => t.n += 1,
            _ => self.trace.push(Touch {
                sector: s,
                n: 1,
                op,
            }),
        }
    }
}

/// The GPU's L2 and what it has counted.
#[derive(Clone, Debug)]
pub(crate) struct L2 {
    cache: SectorCache,
    stats: CacheStats,
}

impl L2 {
    pub(crate) fn new(bytes: u64) -> L2 {
        L2 {
            cache: SectorCache::new(bytes),
            stats: CacheStats::default(),
        }
    }

    /// Empties the L2 (a sampled run's cluster starts from its own warm-up, not its predecessor).
    pub(crate) fn clear(&mut self) {
        self.cache.clear();
    }

    /// The counts since the last call (or since the L2 was made), which start again from zero.
    pub(crate) fn take(&mut self) -> CacheStats {
        std::mem::take(&mut self.stats)
    }

    /// Replays the traces of one wave's blocks (in block order), interleaved: the first touch of
    /// every block, then the second of every block, and so on.
    pub(crate) fn replay_wave(&mut self, traces: &[&[Touch]]) {
        let mut live: Vec<&[Touch]> = traces.iter().copied().filter(|t| !t.is_empty()).collect();
        let mut i = 0;
        while !live.is_empty() {
            for t in &live {
                self.touch(t[i]);
            }
            i += 1;
            live.retain(|t| t.len() > i);
        }
    }

    fn touch(&mut self, t: Touch) {
        let (first, end) = (t.sector, t.sector + u64::from(t.n));
        for line in first / LINE_SECTORS..end.div_ceil(LINE_SECTORS) {
            let lo = (line * LINE_SECTORS).max(first) - line * LINE_SECTORS;
            let hi = ((line + 1) * LINE_SECTORS).min(end) - line * LINE_SECTORS;
            let mask = ((1u16 << hi) - (1u16 << lo)) as u8;
            let found = self.cache.access(line, mask, t.op != Op::Read);
            let s = &mut self.stats;
            s.dram_write_bytes += sectors(found.dirtied) * SECTOR_BYTES;
            let (n, hits) = (sectors(mask), sectors(found.hits));
            let (hit, miss) = match t.op {
                Op::Read => (&mut s.l2_read_hit_sectors, &mut s.l2_read_miss_sectors),
                Op::Atomic => (&mut s.l2_atomic_hit_sectors, &mut s.l2_atomic_miss_sectors),
                Op::Write => {
                    s.l2_write_sectors += n;
                    continue;
                }
            };
            *hit += hits;
            *miss += n - hits;
            s.dram_read_bytes += (n - hits) * SECTOR_BYTES;
        }
    }

    /// The counts since the last [`L2::take`] with the L1 counts of the blocks.
    pub(crate) fn finish(&mut self, l1_hits: u64, l1_misses: u64) -> CacheStats {
        let mut stats = CacheStats {
            l1_hit_sectors: l1_hits,
            l1_miss_sectors: l1_misses,
            ..CacheStats::default()
        };
        stats.add(&self.take());
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looks one sector up: whether it hit, and whether it became dirty.
    fn one(c: &mut SectorCache, sector: u64, write: bool) -> (bool, bool) {
        let k = 1 << (sector % LINE_SECTORS);
        let l = c.access(sector / LINE_SECTORS, k, write);
        (l.hits == k, l.dirtied == k)
    }

    #[test]
    fn a_sector_hits_once_brought_in_and_its_neighbours_fill_on_demand() {
        let mut c = SectorCache::new(16 * 128);
        assert!(!one(&mut c, 0, false).0);
        assert!(one(&mut c, 0, false).0);
        // Sector 1 shares sector 0's line but was never read: a (sector) miss.
        assert!(!one(&mut c, 1, false).0);
        assert!(one(&mut c, 1, false).0);
    }

    #[test]
    fn lru_evicts_the_line_used_longest_ago() {
        // 16 lines, one set of 16 ways: lines 0..16 fill it; touching line 0 again makes line 1
        // the oldest, so line 16 evicts line 1 and line 0 still hits.
        let mut c = SectorCache::new(16 * 128);
        for line in 0..16 {
            one(&mut c, line * 4, false);
        }
        one(&mut c, 0, false);
        one(&mut c, 16 * 4, false);
        assert!(one(&mut c, 0, false).0);
        assert!(!one(&mut c, 4, false).0);
    }

    #[test]
    fn a_hit_in_the_middle_of_a_set_keeps_the_others_in_order_of_use() {
        // One set of 16 ways: lines 0..16 read (sector 0 each), line 0 written (sector 1).
        // Order of use, oldest first: 1, 2, ..., 15, 0. Reading line 5 makes it newest: 1..4,
        // 6..15, 0, 5. Lines 16 and 17 evict lines 1 and 2; lines 3, 0 and 5 still hit with
        // their own sectors (line 0's sector 1 dirty still, so writing it dirties nothing).
        let mut c = SectorCache::new(16 * 128);
        for line in 0..16 {
            one(&mut c, line * 4, false);
        }
        assert_eq!(one(&mut c, 1, true), (false, true));
        assert!(one(&mut c, 5 * 4, false).0);
        one(&mut c, 16 * 4, false);
        one(&mut c, 17 * 4, false);
        assert!(one(&mut c, 3 * 4, false).0);
        assert!(!one(&mut c, 3 * 4 + 1, false).0);
        assert_eq!(one(&mut c, 1, true), (true, false));
        assert!(one(&mut c, 5 * 4, false).0);
        assert!(!one(&mut c, 4, false).0);
        assert!(!one(&mut c, 2 * 4, false).0);
    }

    #[test]
    fn a_sector_is_dirtied_once_until_it_is_evicted() {
        // One line of cache. Sector 0 written twice: dirtied once (one write-back). A read of
        // sector 1 then a write of it: dirtied by the write. Reading line 1 evicts line 0 (its 2
        // dirty sectors are the 2 write-backs already counted); writing sector 0 again dirties
        // it anew: a second write-back of the same sector.
        let mut c = SectorCache::new(128);
        assert!(one(&mut c, 0, true).1);
        assert!(!one(&mut c, 0, true).1);
        assert!(!one(&mut c, 1, false).1);
        assert!(one(&mut c, 1, true).1);
        assert!(!one(&mut c, 4, false).1);
        assert_eq!(one(&mut c, 0, true), (false, true));
    }

    #[test]
    fn a_cleared_cache_misses_and_dirties_anew() {
        let mut c = SectorCache::new(16 * 128);
        one(&mut c, 0, true);
        c.clear();
        assert_eq!(one(&mut c, 0, true), (false, true));
        assert!(one(&mut c, 0, false).0);
    }

    #[test]
    fn no_cache_below_one_line() {
        let mut c = SectorCache::new(127);
        assert!(!one(&mut c, 0, false).0);
        assert_eq!(one(&mut c, 0, true), (false, false));
    }

    #[test]
    fn l1_misses_stores_and_atomics_become_merged_touches() {
        let mut l1 = BlockL1::new(16 * 128);
        l1.request(0..4, Op::Read);
        l1.request(0..4, Op::Read);
        l1.request(4..8, Op::Write);
        l1.request(8..9, Op::Atomic);
        assert_eq!((l1.hits, l1.misses), (4, 4));
        assert_eq!(
            l1.trace,
            vec![
                Touch {
                    sector: 0,
                    n: 4,
                    op: Op::Read
                },
                Touch {
                    sector: 4,
                    n: 4,
                    op: Op::Write
                },
                Touch {
                    sector: 8,
                    n: 1,
                    op: Op::Atomic
                },
            ]
        );
    }

    #[test]
    fn a_wave_replays_interleaved_and_counts_dram_both_ways() {
        // Two blocks read the same 4 sectors, one touch each: the first block's read misses
        // (4 sectors from DRAM), the second's hits. A store of 2 sectors is written back at the
        // end; an atomic on a new sector reads it from DRAM and leaves it dirty.
        let read = Touch {
            sector: 0,
            n: 4,
            op: Op::Read,
        };
        let mut l2 = L2::new(1 << 20);
        l2.replay_wave(&[
            &[
                read,
                Touch {
                    sector: 100,
                    n: 2,
                    op: Op::Write,
                },
            ],
            &[
                read,
                Touch {
                    sector: 200,
                    n: 1,
                    op: Op::Atomic,
                },
            ],
        ]);
        let s = l2.finish(7, 8);
        // Taken: the counts start again from zero.
        assert_eq!(l2.take(), CacheStats::default());
        assert_eq!((s.l1_hit_sectors, s.l1_miss_sectors), (7, 8));
        assert_eq!((s.l2_read_hit_sectors, s.l2_read_miss_sectors), (4, 4));
        assert_eq!(s.l2_write_sectors, 2);
        assert_eq!((s.l2_atomic_hit_sectors, s.l2_atomic_miss_sectors), (0, 1));
        assert_eq!(s.dram_read_bytes, 5 * 32);
        assert_eq!(s.dram_write_bytes, 3 * 32);
        assert_eq!(s.l2_sectors(), 11);
        // Hits: 4 reads + 2 writes of 11.
        assert!((s.l2_hit_rate_pct() - 600.0 / 11.0).abs() < 1e-9);
        assert_eq!(s.l2_read_hit_rate_pct(), 50.0);
        assert!((s.l1_hit_rate_pct() - 700.0 / 15.0).abs() < 1e-9);
        assert_eq!(CacheStats::default().l1_hit_rate_pct(), 0.0);
    }
}
