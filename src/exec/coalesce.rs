//! How a warp's lanes fall on memory: index spans, coalesced runs, bounds, 32-byte sectors and
//! duplicate stores.

/// The lowest and highest index of one warp's active lanes.
pub(crate) type Extent = (i64, i64);

/// Per warp of `idx`: the lowest and highest `key` of its active lanes, `(i64::MAX, i64::MIN)` for
/// a warp with none. `full`: every lane is active (a branch-free pass). `key` reads a register as
/// its index type, so that 32-bit indices are scanned as they are (4 lanes to an SSE2 compare).
pub(crate) fn warp_spans<T: Copy, K: Copy + Ord + Into<i64>>(
    idx: &[T],
    key: impl Fn(T) -> K,
    mask: &[bool],
    full: bool,
    out: &mut [Extent],
) {
    for ((o, ix), ms) in out.iter_mut().zip(idx.chunks(32)).zip(mask.chunks(32)) {
        *o = if full {
            let first = key(ix[0]);
            let (lo, hi) = ix.iter().fold((first, first), |(lo, hi), &i| {
                let i = key(i);
                (lo.min(i), hi.max(i))
            });
            (lo.into(), hi.into())
        } else {
            ix.iter()
                .zip(ms)
                .fold((i64::MAX, i64::MIN), |(lo, hi), (&i, &m)| {
                    if m {
                        let i = key(i).into();
                        (lo.min(i), hi.max(i))
                    } else {
                        (lo, hi)
                    }
                })
        };
    }
}

/// The first active lane whose index is outside `0..len`, given each warp's span (`warp_spans`).
pub(crate) fn out_of_bounds(
    idx: &[i64],
    mask: &[bool],
    len: usize,
    spans: &[Extent],
) -> Option<usize> {
    let len = len as i64;
    if spans
        .iter()
        .all(|&(lo, hi)| lo > hi || (lo >= 0 && hi < len))
    {
        return None;
    }
    idx.iter()
        .zip(mask)
        .position(|(&i, &m)| m && !(0..len).contains(&i))
}

/// Global-memory cost of one warp instruction: distinct 32-byte sectors its active lanes touch.
///
/// Every access is naturally aligned (buffers start sector-aligned, elements and vectors are 1–16
/// bytes at multiples of their size), so each lane touches exactly one sector. The common case —
/// lanes in address order — is counted in one pass; anything else is sorted.
pub(crate) fn warp_sectors(
    idx: &[i64],
    mask: &[bool],
    size: u32,
    full: bool,
    scratch: &mut Vec<i64>,
) -> u64 {
    debug_assert!(size <= 32 && 32 % size == 0, "accesses are 1 to 32 bytes");
    let size = i64::from(size);
    if full && !idx.is_empty() {
        // Every lane active: a branch-free pass over neighbours.
        let (mut increasing, mut changes) = (true, 0u64);
        for w in idx.windows(2) {
            let (a, b) = ((w[0] * size) >> 5, (w[1] * size) >> 5);
            increasing &= b >= a;
            changes += u64::from(b != a);
        }
        if increasing {
            return changes + 1;
        }
        return sorted_distinct(idx, mask, |i| (i * size) >> 5, scratch);
    }
    let mut count = 0u64;
    let mut prev = i64::MIN;
    for (&i, &m) in idx.iter().zip(mask) {
        if m {
            let s = (i * size) >> 5;
            if s < prev {
                return sorted_distinct(idx, mask, |i| (i * size) >> 5, scratch);
            }
            count += u64::from(s != prev);
            prev = s;
        }
    }
    count
}

/// The distinct 32-byte sectors of one warp request, ascending, in `out` (what
/// [`warp_sectors`] counts).
pub(crate) fn warp_sector_list(idx: &[i64], mask: &[bool], size: u32, out: &mut Vec<i64>) {
    let size = i64::from(size);
    out.clear();
    if mask.iter().all(|&m| m) {
        out.extend(idx.iter().map(|&i| (i * size) >> 5));
    } else {
        out.extend(
            idx.iter()
                .zip(mask)
                .filter(|(_, &m)| m)
                .map(|(&i, _)| (i * size) >> 5),
        );
    }
    if out.windows(2).any(|w| w[1] < w[0]) {
        out.sort_unstable();
    }
    out.dedup();
}

/// Distinct values of `key(idx[lane])` over active lanes, by sorting.
fn sorted_distinct(
    idx: &[i64],
    mask: &[bool],
    key: impl Fn(i64) -> i64,
    scratch: &mut Vec<i64>,
) -> u64 {
    scratch.clear();
    scratch.extend(
        idx.iter()
            .zip(mask)
            .filter(|(_, &m)| m)
            .map(|(&i, _)| key(i)),
    );
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len() as u64
}

/// Whether every lane is active and lane `l` of each warp accesses its first lane's index + `l`:
/// the coalesced case, also for rows of a 2-D block.
pub(crate) fn warp_runs(idx: &[i64], full: bool) -> bool {
    // Consecutive modulo 2^64, and the last lane above the first: an index wrapping from
    // i64::MAX to i64::MIN is no run.
    full && idx.chunks(32).all(|w| {
        w.windows(2)
            .fold(true, |ok, p| ok & (p[1].wrapping_sub(p[0]) == 1))
            && w[0] <= w[w.len() - 1]
    })
}

/// The first and last 32-byte sector of a contiguous run of `n` elements of `size` bytes
/// starting at element `first`.
pub(crate) fn run_span(first: i64, n: i64, size: u32) -> (i64, i64) {
    let size = i64::from(size);
    ((first * size) >> 5, ((first + n) * size - 1) >> 5)
}

/// Whether two active lanes store to one index (block-wide), the reference's global race rule.
pub(crate) fn has_duplicate(
    idx: &[i64],
    mask: &[bool],
    full: bool,
    scratch: &mut Vec<i64>,
) -> bool {
    if full && idx.windows(2).fold(true, |ok, w| ok & (w[1] > w[0])) {
        return false;
    }
    let mut prev = i64::MIN;
    let mut active = 0usize;
    let mut increasing = true;
    for (&i, &m) in idx.iter().zip(mask) {
        if m {
            active += 1;
            if increasing && active > 1 && i <= prev {
                increasing = false;
            }
            prev = i;
        }
    }
    !increasing && sorted_distinct(idx, mask, |i| i, scratch) < active as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(i64) -> i64) -> (Vec<i64>, Vec<bool>) {
        ((0..32).map(f).collect(), vec![true; 32])
    }

    #[test]
    fn the_full_warp_path_counts_like_the_general_one() {
        let mut s = Vec::new();
        let m = vec![true; 32];
        let patterns: Vec<Vec<i64>> = vec![
            (0..32).collect(),
            (1..33).collect(),
            (0..32).map(|l| l * 2).collect(),
            (0..32).map(|l| 31 - l).collect(),
            (0..32).map(|l| (l * 7) % 32).collect(),
            vec![5; 32],
        ];
        for p in &patterns {
            for size in [1, 2, 4, 8, 16] {
                assert_eq!(
                    warp_sectors(p, &m, size, true, &mut s),
                    warp_sectors(p, &m, size, false, &mut s)
                );
            }
            let mut list = Vec::new();
            warp_sector_list(p, &m, 4, &mut list);
            assert_eq!(list.len() as u64, warp_sectors(p, &m, 4, true, &mut s));
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(
                has_duplicate(p, &m, true, &mut s),
                has_duplicate(p, &m, false, &mut s)
            );
            let mut spans = [(0, 0)];
            warp_spans(p, |i| i, &m, true, &mut spans);
            let full = out_of_bounds(p, &m, 32, &spans);
            warp_spans(p, |i| i, &m, false, &mut spans);
            assert_eq!(full, out_of_bounds(p, &m, 32, &spans));
            assert_eq!(full, p.iter().position(|&i| !(0..32).contains(&i)));
        }
    }

    #[test]
    fn spans_cover_active_lanes_per_warp() {
        // 40 lanes = a full warp and 8 lanes of a second; lane l on 100 - l, lanes 3 and 35 inactive.
        let idx: Vec<i64> = (0..40).map(|l| 100 - l).collect();
        let mut mask = vec![true; 40];
        mask[0] = false;
        mask[35] = false;
        let mut spans = [(0, 0); 2];
        warp_spans(&idx, |i| i, &mask, false, &mut spans);
        // Warp 0: lanes 1..31 → 69..=99; warp 1: lanes 32..39 but 35 → 61..=68.
        assert_eq!(spans, [(69, 99), (61, 68)]);
        // No active lane: an empty span.
        warp_spans(&idx, |i| i, &[false; 40], false, &mut spans);
        assert!(spans.iter().all(|&(lo, hi)| lo > hi));
        assert_eq!(out_of_bounds(&idx, &[false; 40], 0, &spans), None);
        // Every lane: 61..=100; 100 is out of an array of 100 elements (lane 0).
        warp_spans(&idx, |i| i, &[true; 40], true, &mut spans);
        assert_eq!(spans, [(69, 100), (61, 68)]);
        assert_eq!(out_of_bounds(&idx, &[true; 40], 100, &spans), Some(0));
        // With lane 0 inactive nothing is out.
        warp_spans(&idx, |i| i, &mask, false, &mut spans);
        assert_eq!(out_of_bounds(&idx, &mask, 100, &spans), None);
    }

    #[test]
    fn sectors_follow_the_byte_rules() {
        let mut s = Vec::new();
        // 32 contiguous floats = 128 B = 4 sectors.
        let (i, m) = lanes(|l| l);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 4);
        // Shifted by one float: bytes 4..132 touch 5 sectors.
        let (i, m) = lanes(|l| l + 1);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 5);
        // 32 contiguous doubles = 256 B = 8 sectors.
        assert_eq!(
            warp_sectors(&(0..32).collect::<Vec<_>>(), &m, 8, true, &mut s),
            8
        );
        // Stride 8 floats = 32 B apart: one sector per lane.
        let (i, m) = lanes(|l| l * 8);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 32);
        // Stride 2: 256 B span = 8 sectors.
        let (i, m) = lanes(|l| l * 2);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 8);
        // Reversed order is the same set.
        let (i, m) = lanes(|l| 31 - l);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 4);
        // All lanes on one element: 1 sector.
        let (i, m) = lanes(|_| 7);
        assert_eq!(warp_sectors(&i, &m, 4, false, &mut s), 1);
        // Only lane 0 active: 1 sector.
        let mut one = vec![false; 32];
        one[0] = true;
        assert_eq!(warp_sectors(&i, &one, 4, false, &mut s), 1);
    }

    #[test]
    fn contiguous_runs() {
        assert!(warp_runs(&[4, 5, 6, 7], true));
        assert!(!warp_runs(&[4, 5, 7, 8], true));
        assert!(!warp_runs(&[4, 5, 6, 7], false));
        // Two warps, each consecutive on its own (rows 0 and 10 of a 2-D block): runs.
        let rows: Vec<i64> = (0..32).chain(320..352).collect();
        assert!(warp_runs(&rows, true));
        // Lanes wrapping past the largest index are not a run (they were once taken for one).
        assert!(!warp_runs(
            &[i64::MAX - 1, i64::MAX, i64::MIN, i64::MIN + 1],
            true
        ));
        // A break inside the second warp is not.
        let mut broken = rows.clone();
        broken[40] = 0;
        assert!(!warp_runs(&broken, true));
        // 32 floats from element 1: bytes 4..132 = sectors 0..4 = 5; from 0: 4; 8 doubles from 0: 2.
        assert_eq!(run_span(1, 32, 4), (0, 4));
        assert_eq!(run_span(0, 32, 4), (0, 3));
        assert_eq!(run_span(0, 8, 8), (0, 1));
        assert_eq!(run_span(3, 1, 16), (1, 1));
    }

    #[test]
    fn duplicates_in_one_store() {
        let mut s = Vec::new();
        let m = vec![true; 4];
        assert!(!has_duplicate(&[0, 1, 2, 3], &m, true, &mut s));
        assert!(has_duplicate(&[3, 1, 2, 3], &m, true, &mut s));
        assert!(!has_duplicate(
            &[3, 1, 2, 3],
            &[true, true, true, false],
            false,
            &mut s
        ));
    }
}
