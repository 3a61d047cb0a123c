//! Races on global memory between the warps of one block: what each warp touched between two
//! `__syncthreads()`, and the pairs of warps that met on an element, at least one writing.
//!
//! A warp's access is logged as the set of elements it touched: an arithmetic progression (a
//! run, a column, one element) or, failing that, the sorted list. At the end of an epoch an
//! array read only, or touched by a single instruction, needs nothing (lanes of one instruction
//! are [`super::race::RaceKind::GlobalDuplicate`]'s business); the rest are screened by
//! intervals and exact progression intersection, and only an array on which two warps may meet
//! is replayed element by element, with the shared-memory checker's rules.

use std::collections::HashMap;

use super::coalesce::Extent;
use super::race::{Hazard, Op, RaceKind};

/// The elements of one warp's access: `lo, lo + step, …, hi` (step 0: `lo` alone), or `len`
/// sorted, distinct elements from `at` in the log's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Step(i64),
    Listed { at: u32, len: u32 },
}

/// One warp's part of one global access.
#[derive(Clone, Copy, Debug)]
struct Touch {
    array: u32,
    op: Op,
    warp: u32,
    /// The access's place in the log: the touches of one access happen at once.
    seq: u32,
    inst: u32,
    lo: i64,
    hi: i64,
    shape: Shape,
    /// What a store wrote: two warps storing the same value to an element leave a defined
    /// result, as two lanes of one store do.
    value: Stored,
}

/// The values a warp's store wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stored {
    /// Not a store, or lanes that wrote one element with different values.
    Unknown,
    /// Every active lane wrote these bits.
    One(u64),
    /// Per element, in the order [`elements`] gives them, from `at` in the log's values.
    Each(u32),
}

/// What the accesses of one array in the epoch were: how many, and of which kinds.
#[derive(Clone, Debug, Default)]
struct ArraySeen {
    accesses: u32,
    /// Bit 0 read, bit 1 write, bit 2 atomic.
    ops: u8,
    name: String,
}

/// Accesses one epoch may log before the races among them are looked for and the log starts
/// again (a loop of a million warp accesses without a barrier); see the README's Races.
const ANALYSE_AT: usize = 1 << 20;

/// Stored values the log may hold before its races are looked for, as at [`ANALYSE_AT`]
/// (64 MiB: a loop of coalesced stores of differing values adds 32 per warp access).
const VALUES_AT: usize = 1 << 23;

/// A race found at the end of an epoch: the later access's instruction and warp, the element,
/// and the hazard (kind, the other warp, its instruction).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Found {
    /// The access's place in the epoch: its touches are filed as one warp instruction each.
    pub(crate) seq: u32,
    pub(crate) inst: u32,
    pub(crate) warp: u32,
    /// The array, as [`EpochLog::name`] knows it.
    pub(crate) array: u32,
    pub(crate) index: i64,
    pub(crate) hazard: Hazard,
}

/// The running block's global accesses in this epoch and the one before.
#[derive(Debug, Default)]
pub(crate) struct EpochLog {
    touches: Vec<Touch>,
    /// Listed elements, of the epoch before (its first `prev_listed`) and this one.
    listed: Vec<i64>,
    /// The elements' stored values of [`Stored::Each`] touches, of the epoch before (its first
    /// `prev_values`) and this one.
    values: Vec<u64>,
    prev_values: usize,
    arrays: Vec<ArraySeen>,
    seq: u32,
    prev: Vec<Touch>,
    prev_listed: usize,
    prev_arrays: Vec<u8>,
    /// Races found when the log filled up mid-epoch, reported with the epoch's.
    found: Vec<Found>,
    scratch: Vec<i64>,
    /// A scattered warp's (element, value) pairs, sorted.
    pairs: Vec<(i64, u64)>,
}

fn op_bit(op: Op) -> u8 {
    match op {
        Op::Read => 1,
        Op::Write => 2,
        Op::Atomic => 4,
        Op::Relaxed => 8,
    }
}

/// Whether an access `a` of another warp and an access `b` conflict: one writes, and they are
/// not both atomics; a relaxed read conflicts with plain writes only.
fn conflict(a: Op, b: Op) -> bool {
    let read = |o: Op| matches!(o, Op::Read | Op::Relaxed);
    let strong = |o: Op| matches!(o, Op::Atomic | Op::Relaxed);
    !(read(a) && read(b) || strong(a) && strong(b))
}

/// Whether accesses of the kinds in `a` and in `b` (bit sets) can conflict.
fn kinds_conflict(a: u8, b: u8) -> bool {
    let writes = |k: u8| k & 2 != 0;
    writes(a) && b != 0
        || writes(b) && a != 0
        || a & 4 != 0 && b & 1 != 0
        || a & 1 != 0 && b & 4 != 0
}

impl EpochLog {
    /// Notes the accesses of `array` (`name`) by one instruction `inst`: the active lanes'
    /// elements `ix`, or, where every warp ran over consecutive indices, `runs` (per warp the
    /// first and last index, each scaled by `scale` and offset by `k`: component `k` of a
    /// vector access of `scale` components). A store gives `values`, each lane's stored bits,
    /// so that two warps storing one value to an element (`*done = false`) are no race.
    pub(crate) fn note(
        &mut self,
        (array, name): (u32, &str),
        (op, inst): (Op, u32),
        (mask, ix): (&[bool], &[i64]),
        runs: Option<(&[Extent], i64, i64)>,
        values: Option<&[u64]>,
    ) {
        if self.touches.len() >= ANALYSE_AT || self.values.len() >= VALUES_AT {
            let mut found = self.races();
            self.found.append(&mut found);
            self.touches.clear();
            self.listed.truncate(self.prev_listed);
            self.values.truncate(self.prev_values);
            self.forget_arrays();
        }
        self.seq += 1;
        let a = array as usize;
        if self.arrays.len() <= a {
            self.arrays.resize(a + 1, ArraySeen::default());
        }
        let seen = &mut self.arrays[a];
        seen.accesses += 1;
        seen.ops |= op_bit(op);
        if seen.name.is_empty() {
            seen.name = name.to_string();
        }
        let seq = self.seq;
        let touch = |warp: usize, (lo, hi): Extent, shape, value| Touch {
            array,
            op,
            warp: warp as u32,
            seq,
            inst,
            lo,
            hi,
            shape,
            value,
        };
        if let Some((spans, scale, k)) = runs {
            for (w, &(lo, hi)) in spans.iter().enumerate() {
                let step = if lo == hi { 0 } else { scale };
                // Every lane is active, lane `l` on element `lo + l`: ascending.
                let lanes = values.map(|v| &v[w * 32..=w * 32 + (hi - lo) as usize]);
                let value = lanes.map_or(Stored::Unknown, |v| self.stored(v, false, false));
                let t = touch(
                    w,
                    (lo * scale + k, hi * scale + k),
                    Shape::Step(step),
                    value,
                );
                self.touches.push(t);
            }
            return;
        }
        for (w, (m, ix)) in mask.chunks(32).zip(ix.chunks(32)).enumerate() {
            let Some(((lo, hi), shape)) = shape_of(m, ix, (&mut self.listed, &mut self.scratch))
            else {
                continue;
            };
            let value = match (values, shape) {
                (None, _) => Stored::Unknown,
                (Some(v), Shape::Step(_)) => {
                    // Contiguous active lanes, evenly spaced: elements ascend with the lanes
                    // or against them.
                    let first = m.iter().position(|&a| a).expect("one lane is active");
                    let last = m.iter().rposition(|&a| a).expect("one lane is active");
                    let lanes = &v[w * 32 + first..=w * 32 + last];
                    self.stored(lanes, ix[first] > ix[last], lo == hi)
                }
                (Some(v), Shape::Listed { .. }) => self.stored_listed((m, ix), w * 32, v),
            };
            let t = touch(w, (lo, hi), shape, value);
            self.touches.push(t);
        }
    }

    /// The values a warp's consecutive active lanes stored: each on its own element, their
    /// elements ascending with the lanes, or, when `descending`, against them; or, when `one`,
    /// all on one element.
    fn stored(&mut self, lanes: &[u64], descending: bool, one: bool) -> Stored {
        if lanes.iter().all(|&x| x == lanes[0]) {
            return Stored::One(lanes[0]);
        }
        if one {
            return Stored::Unknown;
        }
        let at = self.values.len() as u32;
        if descending {
            self.values.extend(lanes.iter().rev());
        } else {
            self.values.extend_from_slice(lanes);
        }
        Stored::Each(at)
    }

    /// The values of a scattered warp's store (its lanes from `first`), one per distinct
    /// element in ascending order; unknown where two lanes wrote one element differently.
    fn stored_listed(
        &mut self,
        (mask, ix): (&[bool], &[i64]),
        first: usize,
        values: &[u64],
    ) -> Stored {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        pairs.extend(
            mask.iter()
                .zip(ix)
                .enumerate()
                .filter(|(_, (&m, _))| m)
                .map(|(l, (_, &i))| (i, values[first + l])),
        );
        pairs.sort_unstable();
        let clash = pairs
            .windows(2)
            .any(|p| p[0].0 == p[1].0 && p[0].1 != p[1].1);
        pairs.dedup_by_key(|p| p.0);
        let value = if clash {
            Stored::Unknown
        } else if pairs.iter().all(|p| p.1 == pairs[0].1) {
            Stored::One(pairs[0].1)
        } else {
            let at = self.values.len() as u32;
            self.values.extend(pairs.iter().map(|p| p.1));
            Stored::Each(at)
        };
        self.pairs = pairs;
        value
    }

    /// Ends the epoch: the races between its warps, and, when `watch`, whether an access of
    /// it conflicts with another warp's in the epoch before (the barrier between them protected
    /// it).
    pub(crate) fn end_epoch(&mut self, watch: bool) -> (Vec<Found>, bool) {
        let mut found = std::mem::take(&mut self.found);
        found.append(&mut self.races());
        let crossed = watch && self.crosses();
        // This epoch becomes the one before; the older lists go.
        self.listed.drain(..self.prev_listed);
        self.values.drain(..self.prev_values);
        let (drop, drop_values) = (self.prev_listed as u32, self.prev_values as u32);
        for t in &mut self.touches {
            if let Shape::Listed { at, .. } = &mut t.shape {
                *at -= drop;
            }
            if let Stored::Each(at) = &mut t.value {
                *at -= drop_values;
            }
        }
        self.prev_listed = self.listed.len();
        self.prev_values = self.values.len();
        // The buffers swap and keep their capacity: no allocation per epoch.
        std::mem::swap(&mut self.prev, &mut self.touches);
        self.touches.clear();
        self.prev_arrays.clear();
        self.prev_arrays.extend(self.arrays.iter().map(|a| a.ops));
        self.forget_arrays();
        (found, crossed)
    }

    /// The name of the array a [`Found`] is in.
    pub(crate) fn name(&self, array: u32) -> &str {
        &self.arrays[array as usize].name
    }

    /// Forgets everything: a new block begins. (The arrays' names stay: they are the launch's.)
    pub(crate) fn clear(&mut self) {
        self.touches.clear();
        self.prev.clear();
        self.listed.clear();
        self.prev_listed = 0;
        self.values.clear();
        self.prev_values = 0;
        self.prev_arrays.clear();
        self.found.clear();
        self.forget_arrays();
        self.seq = 0;
    }

    /// Counts no access of any array.
    fn forget_arrays(&mut self) {
        for a in &mut self.arrays {
            a.accesses = 0;
            a.ops = 0;
        }
    }

    /// The races between warps among this epoch's touches, in the order of the later access.
    fn races(&mut self) -> Vec<Found> {
        let mut found = Vec::new();
        for a in 0..self.arrays.len() {
            let seen = &self.arrays[a];
            if seen.accesses < 2 || !kinds_conflict(seen.ops, seen.ops) {
                continue;
            }
            let mine: Vec<Touch> = self
                .touches
                .iter()
                .filter(|t| t.array == a as u32)
                .copied()
                .collect();
            let same_time = |x: &Touch, y: &Touch| x.seq == y.seq;
            if screen(&mine, &self.listed, same_time) == Screen::Clear {
                continue;
            }
            replay(
                &mine,
                (&self.listed, &self.values),
                false,
                |t, index, hazard, _| {
                    found.push(Found {
                        seq: t.seq,
                        inst: t.inst,
                        warp: t.warp,
                        array: a as u32,
                        index,
                        hazard,
                    });
                },
            );
        }
        found
    }

    /// Whether an access of this epoch conflicts with another warp's in the epoch before.
    fn crosses(&self) -> bool {
        for (a, seen) in self.arrays.iter().enumerate() {
            let before = self.prev_arrays.get(a).copied().unwrap_or(0);
            if before == 0 || seen.ops == 0 || !kinds_conflict(before, seen.ops) {
                continue;
            }
            // The epoch before first, its sequence numbers below this one's.
            let top = self.prev.last().map_or(0, |t| t.seq);
            let both: Vec<Touch> = self
                .prev
                .iter()
                .filter(|t| t.array == a as u32)
                .copied()
                .chain(
                    self.touches
                        .iter()
                        .filter(|t| t.array == a as u32)
                        .map(|t| Touch {
                            seq: t.seq + top,
                            ..*t
                        }),
                )
                .collect();
            // Pairs within one epoch are not what is asked.
            let same_epoch = |x: &Touch, y: &Touch| (x.seq <= top) == (y.seq <= top);
            match screen(&both, &self.listed, same_epoch) {
                Screen::Clear => {}
                Screen::Met => return true,
                Screen::Unknown => {
                    let mut crossed = false;
                    replay(
                        &both,
                        (&self.listed, &self.values),
                        true,
                        |t, _, _, other_seq| {
                            crossed |= t.seq > top && other_seq <= top;
                        },
                    );
                    if crossed {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The elements one warp's active lanes touch (`None`: no lane is active): a progression
/// when the active lanes are contiguous and their elements evenly spaced, else listed.
fn shape_of(
    mask: &[bool],
    ix: &[i64],
    (listed, scratch): (&mut Vec<i64>, &mut Vec<i64>),
) -> Option<(Extent, Shape)> {
    let first = mask.iter().position(|&m| m)?;
    let last = mask.iter().rposition(|&m| m).expect("one lane is active");
    let lanes = &ix[first..=last];
    let contiguous = mask[first..=last].iter().all(|&m| m);
    if contiguous {
        let d = lanes.get(1).map_or(0, |&b| b.wrapping_sub(lanes[0]));
        let even = lanes.windows(2).all(|p| p[1].wrapping_sub(p[0]) == d);
        // Evenly spaced without wrapping: the last element is where the step says.
        let (n, d128) = (lanes.len() as i128 - 1, i128::from(d));
        if even && i128::from(lanes[0]) + n * d128 == i128::from(lanes[lanes.len() - 1]) {
            let (a, b) = (lanes[0], lanes[lanes.len() - 1]);
            return Some(((a.min(b), a.max(b)), Shape::Step(d.unsigned_abs() as i64)));
        }
    }
    scratch.clear();
    scratch.extend(
        mask[first..=last]
            .iter()
            .zip(lanes)
            .filter(|(&m, _)| m)
            .map(|(_, &i)| i),
    );
    scratch.sort_unstable();
    scratch.dedup();
    let at = listed.len() as u32;
    listed.extend_from_slice(scratch);
    let len = scratch.len() as u32;
    Some((
        (scratch[0], scratch[scratch.len() - 1]),
        Shape::Listed { at, len },
    ))
}

/// What the screen of one array's touches found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    /// No two warps meet on an element in conflicting ways.
    Clear,
    /// Two do.
    Met,
    /// Too many overlapping pairs to compare one by one: replay instead.
    Unknown,
}

/// Whether two touches of different warps, not `apart` (at the same time, or in one epoch),
/// meet on an element in conflicting ways.
fn screen(touches: &[Touch], listed: &[i64], apart: impl Fn(&Touch, &Touch) -> bool) -> Screen {
    if touches.is_empty() {
        return Screen::Clear;
    }
    // Progressions of one step meet only within one residue class: sort by class, then by the
    // first element, and sweep.
    let step = match touches[0].shape {
        Shape::Step(s) if s > 0 && touches.iter().all(|t| t.shape == Shape::Step(s)) => s,
        _ => 0,
    };
    let class = |t: &Touch| if step > 0 { t.lo.rem_euclid(step) } else { 0 };
    let mut order: Vec<usize> = (0..touches.len()).collect();
    order.sort_unstable_by_key(|&i| (class(&touches[i]), touches[i].lo));
    let mut budget = 32 * touches.len() + 1024;
    // Touches still open (their last element at or past the current first), writers and
    // atomics apart from readers: two readers are never compared.
    let (mut writers, mut readers): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut current = None;
    for &i in &order {
        let t = &touches[i];
        if current != Some(class(t)) {
            current = Some(class(t));
            writers.clear();
            readers.clear();
        }
        let mut sweep = |open: &mut Vec<usize>| {
            budget = budget.saturating_sub(open.len());
            if budget == 0 {
                return Some(Screen::Unknown);
            }
            open.retain(|&j| touches[j].hi >= t.lo);
            let met = open.iter().any(|&j| {
                let o = &touches[j];
                o.warp != t.warp && !apart(o, t) && conflict(o.op, t.op) && meet(o, t, listed)
            });
            met.then_some(Screen::Met)
        };
        if let Some(s) = sweep(&mut writers) {
            return s;
        }
        if !matches!(t.op, Op::Read | Op::Relaxed) {
            if let Some(s) = sweep(&mut readers) {
                return s;
            }
            writers.push(i);
        } else {
            readers.push(i);
        }
    }
    Screen::Clear
}

/// Whether two touches share an element.
fn meet(a: &Touch, b: &Touch, listed: &[i64]) -> bool {
    if a.hi < b.lo || b.hi < a.lo {
        return false;
    }
    let list = |at: u32, len: u32| &listed[at as usize..(at + len) as usize];
    match (a.shape, b.shape) {
        (Shape::Step(s), Shape::Step(t)) => steps_meet((a.lo, a.hi, s), (b.lo, b.hi, t)),
        (Shape::Step(s), Shape::Listed { at, len }) => {
            list(at, len).iter().any(|&x| in_step(x, (a.lo, a.hi, s)))
        }
        (Shape::Listed { at, len }, Shape::Step(t)) => {
            list(at, len).iter().any(|&x| in_step(x, (b.lo, b.hi, t)))
        }
        (Shape::Listed { at, len }, Shape::Listed { at: bt, len: bl }) => {
            let (mut x, mut y) = (
                list(at, len).iter().peekable(),
                list(bt, bl).iter().peekable(),
            );
            while let (Some(&&p), Some(&&q)) = (x.peek(), y.peek()) {
                match p.cmp(&q) {
                    std::cmp::Ordering::Less => {
                        x.next();
                    }
                    std::cmp::Ordering::Greater => {
                        y.next();
                    }
                    std::cmp::Ordering::Equal => return true,
                }
            }
            false
        }
    }
}

/// Whether `x` is an element of the progression `lo, lo + s, …, hi`.
fn in_step(x: i64, (lo, hi, s): (i64, i64, i64)) -> bool {
    lo <= x && x <= hi && if s == 0 { x == lo } else { (x - lo) % s == 0 }
}

/// Whether two progressions share an element: the Chinese remainder theorem gives the common
/// elements' residue modulo the steps' least common multiple, then the smallest one in both
/// ranges is compared with their end.
fn steps_meet(a: (i64, i64, i64), b: (i64, i64, i64)) -> bool {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    if lo > hi {
        return false;
    }
    match (a.2, b.2) {
        (0, _) => return in_step(a.0, b),
        (_, 0) => return in_step(b.0, a),
        _ => {}
    }
    let (s, t) = (i128::from(a.2), i128::from(b.2));
    let diff = i128::from(b.0) - i128::from(a.0);
    let (g, inv, _) = extended_gcd(s, t);
    if diff % g != 0 {
        return false;
    }
    // x = a.lo + s·k with s·k ≡ diff (mod t): k ≡ (diff / g)·(s / g)⁻¹ (mod t / g).
    let m = t / g;
    let k = ((diff / g) % m * (inv % m)).rem_euclid(m);
    let lcm = s / g * t;
    let x0 = i128::from(a.0) + s * k;
    let first = x0 + (i128::from(lo) - x0).div_euclid(lcm) * lcm;
    let first = if first < i128::from(lo) {
        first + lcm
    } else {
        first
    };
    first <= i128::from(hi)
}

/// `(g, x, y)` with `a·x + b·y = g = gcd(a, b)`, for positive `a`, `b`.
fn extended_gcd(a: i128, b: i128) -> (i128, i128, i128) {
    if b == 0 {
        (a, 1, 0)
    } else {
        let (g, x, y) = extended_gcd(b, a % b);
        (g, y, x - a / b * y)
    }
}

/// The elements of a touch.
fn elements<'a>(t: &Touch, listed: &'a [i64]) -> impl Iterator<Item = i64> + 'a {
    let (lo, hi) = (t.lo, t.hi);
    let (step, list) = match t.shape {
        Shape::Step(s) => (s, &listed[0..0]),
        Shape::Listed { at, len } => (0, &listed[at as usize..(at + len) as usize]),
    };
    let run = matches!(t.shape, Shape::Step(_));
    let n = if !run {
        0
    } else if step == 0 {
        1
    } else {
        (hi - lo) / step + 1
    };
    (0..n)
        .map(move |k| lo + k * step)
        .chain(list.iter().copied())
}

/// The first access of one kind to an element, and the first by another warp: warp,
/// instruction and sequence number.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    first: Option<Access>,
    other: Option<Access>,
    /// The value the latest access left, where known: what a store of the same value finds.
    last: Option<u64>,
}

/// One access to an element: warp, instruction and sequence number.
type Access = (u32, u32, u32);

impl Seen {
    /// The earliest access by a warp other than `warp`.
    fn not_by(&self, warp: u32) -> Option<Access> {
        match self.first {
            Some(f) if f.0 != warp => Some(f),
            _ => self.other,
        }
    }

    fn note(&mut self, t: &Touch, value: Option<u64>) {
        self.last = value;
        let access = (t.warp, t.inst, t.seq);
        match self.first {
            None => self.first = Some(access),
            Some(f) if f.0 != t.warp && self.other.is_none() => self.other = Some(access),
            _ => {}
        }
    }
}

/// Runs `touches` (in sequence order) element by element, calling `hit` with each touch, element,
/// hazard and the other access's sequence number: a read conflicts with a write or an atomic
/// (RAW); a write with a read (WAR), a write or an atomic (WAW); an atomic with a read (WAR) or
/// a write (WAW). The other access is the earliest of its kind by another warp, before this one
/// (a smaller sequence number). With `all`, every conflicting kind's is reported, else the
/// first in that order.
fn replay(
    touches: &[Touch],
    (listed, values): (&[i64], &[u64]),
    all: bool,
    mut hit: impl FnMut(&Touch, i64, Hazard, u32),
) {
    let mut seen: HashMap<i64, [Seen; 3]> = HashMap::new();
    for t in touches {
        for (k, x) in elements(t, listed).enumerate() {
            let value = match t.value {
                Stored::Unknown => None,
                Stored::One(v) => Some(v),
                Stored::Each(at) => Some(values[at as usize + k]),
            };
            let s = seen.entry(x).or_default();
            let [read, write, atomic] = &*s;
            let with = |kind: RaceKind, by: &Seen| {
                by.not_by(t.warp)
                    .filter(|o| o.2 < t.seq)
                    // A store of the value the last store left leaves a defined result.
                    .filter(|_| !(value.is_some() && by.last == value))
                    .map(|(warp, inst, seq)| ((kind, warp, inst), seq))
            };
            let candidates = match t.op {
                Op::Read => [
                    with(RaceKind::ReadAfterWrite, write),
                    with(RaceKind::ReadAfterWrite, atomic),
                    None,
                ],
                Op::Write => [
                    with(RaceKind::WriteAfterRead, read),
                    with(RaceKind::WriteAfterWrite, write),
                    with(RaceKind::WriteAfterWrite, atomic),
                ],
                Op::Atomic => [
                    with(RaceKind::WriteAfterRead, read),
                    with(RaceKind::WriteAfterWrite, write),
                    None,
                ],
                Op::Relaxed => [with(RaceKind::ReadAfterWrite, write), None, None],
            };
            let mut found = candidates.into_iter().flatten();
            if all {
                found.for_each(|(h, seq)| hit(t, x, h, seq));
            } else if let Some((h, seq)) = found.next() {
                hit(t, x, h, seq);
            }
            let kept = match t.op {
                Op::Read => 0,
                Op::Write => 1,
                Op::Atomic => 2,
                Op::Relaxed => continue,
            };
            s[kept].note(t, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-lane block (two warps), every lane active, lane `l` at element `f(l)`.
    fn all(f: impl Fn(i64) -> i64) -> (Vec<bool>, Vec<i64>) {
        (vec![true; 64], (0..64).map(f).collect())
    }

    fn note(log: &mut EpochLog, op: Op, inst: u32, (mask, ix): &(Vec<bool>, Vec<i64>)) {
        log.note((0, "c"), (op, inst), (mask, ix), None, None);
    }

    #[test]
    fn progressions_meet_where_the_remainder_theorem_says() {
        // Evens and odds never meet.
        assert!(!steps_meet((0, 62, 2), (1, 63, 2)));
        // x ≡ 0 (mod 6) and x ≡ 0 (mod 4): 12 lies in [4, 40].
        assert!(steps_meet((0, 60, 6), (4, 40, 4)));
        // x ≡ 0 (mod 5) and x ≡ 3 (mod 9): 30, past the first range's end 10 …
        assert!(!steps_meet((0, 10, 5), (3, 30, 9)));
        // … and inside it once it reaches 30.
        assert!(steps_meet((0, 30, 5), (3, 30, 9)));
        // x ≡ 1 (mod 4) and x ≡ 0 (mod 2): no solution (gcd 2 does not divide 1).
        assert!(!steps_meet((1, 101, 4), (0, 100, 2)));
        // One element: 7 = 1 + 2·3 is on the progression, 8 is not.
        assert!(steps_meet((7, 7, 0), (1, 13, 3)));
        assert!(!steps_meet((8, 8, 0), (1, 13, 3)));
        // Overlapping ranges of one step and residue meet; disjoint ranges do not.
        assert!(steps_meet((0, 31, 1), (31, 62, 1)));
        assert!(!steps_meet((0, 31, 1), (32, 63, 1)));
    }

    #[test]
    fn a_warp_is_a_progression_only_when_its_active_lanes_are_contiguous() {
        let (mut listed, mut scratch) = (Vec::new(), Vec::new());
        let mut shape = |mask: &[bool], ix: &[i64]| shape_of(mask, ix, (&mut listed, &mut scratch));
        // A column: lane l at 100 − 64·l.
        let ix: Vec<i64> = (0..32).map(|l| 100 - 64 * l).collect();
        assert_eq!(
            shape(&[true; 32], &ix),
            Some(((100 - 64 * 31, 100), Shape::Step(64)))
        );
        // Every lane on element 5: one element.
        assert_eq!(shape(&[true; 32], &[5; 32]), Some(((5, 5), Shape::Step(0))));
        // Lanes 0 and 2 of a run: elements 0 and 2, not 0..=2.
        let mut mask = [false; 32];
        mask[0] = true;
        mask[2] = true;
        let run: Vec<i64> = (0..32).collect();
        assert_eq!(
            shape(&mask, &run),
            Some(((0, 2), Shape::Listed { at: 0, len: 2 }))
        );
        // No active lane: nothing.
        assert_eq!(shape(&[false; 32], &run), None);
        assert_eq!(listed, [0, 2]);
    }

    #[test]
    fn a_read_modify_write_of_one_element_races_between_warps() {
        // `c[0] += 1` by 64 threads: both warps read c[0] (access 1), then both write it
        // (access 2). Warp 0's write overwrites what warp 1 read, and warp 1's what warp 0
        // read: two WARs, each naming the other warp's load (instruction 10).
        let mut log = EpochLog::default();
        let zero = all(|_| 0);
        note(&mut log, Op::Read, 10, &zero);
        note(&mut log, Op::Write, 11, &zero);
        let (found, crossed) = log.end_epoch(false);
        assert!(!crossed);
        let hazards: Vec<_> = found.iter().map(|f| (f.warp, f.hazard, f.index)).collect();
        assert_eq!(
            hazards,
            [
                (0, (RaceKind::WriteAfterRead, 1, 10), 0),
                (1, (RaceKind::WriteAfterRead, 0, 10), 0)
            ]
        );
    }

    #[test]
    fn atomics_and_own_elements_do_not_race() {
        let mut log = EpochLog::default();
        // Both warps add into c[0] twice: atomics never conflict with atomics.
        note(&mut log, Op::Atomic, 1, &all(|_| 0));
        note(&mut log, Op::Atomic, 2, &all(|_| 0));
        // Each lane reads and writes its own element 1 + l: warps stay apart.
        note(&mut log, Op::Read, 3, &all(|l| 1 + l));
        note(&mut log, Op::Write, 4, &all(|l| 1 + l));
        // Two column writes as a transpose does, lane l of warp w at 1000 + 64·l + w, then at
        // 1002 + 64·l + w: four columns, residues 40, 41, 42 and 43 modulo 64, never meeting.
        note(
            &mut log,
            Op::Write,
            5,
            &all(|l| 1000 + 64 * (l % 32) + l / 32),
        );
        note(
            &mut log,
            Op::Write,
            6,
            &all(|l| 1002 + 64 * (l % 32) + l / 32),
        );
        assert_eq!(log.end_epoch(false), (vec![], false));
    }

    #[test]
    fn a_shift_across_the_warp_boundary_races_on_one_element() {
        // `a[i] = a[i + 1]`: lane 31 (warp 0) reads a[32], which lane 32 (warp 1) then writes.
        let mut log = EpochLog::default();
        note(&mut log, Op::Read, 1, &all(|l| l + 1));
        note(&mut log, Op::Write, 2, &all(|l| l));
        let (found, _) = log.end_epoch(false);
        assert_eq!(found.len(), 1);
        let f = &found[0];
        assert_eq!(
            (f.warp, f.index, f.hazard),
            (1, 32, (RaceKind::WriteAfterRead, 0, 1))
        );
    }

    #[test]
    fn a_barrier_protects_what_another_warp_touched_in_the_epoch_before() {
        // Epoch 1: each lane writes its element. Epoch 2: each reads its neighbour's warp's.
        let mut log = EpochLog::default();
        note(&mut log, Op::Write, 1, &all(|l| l));
        assert_eq!(log.end_epoch(false), (vec![], false));
        note(&mut log, Op::Read, 2, &all(|l| (l + 32) % 64));
        assert_eq!(log.end_epoch(true), (vec![], true));
        // Epoch 3 reads only its own elements: the epoch before only read, nothing to protect.
        note(&mut log, Op::Read, 3, &all(|l| l));
        assert_eq!(log.end_epoch(true), (vec![], false));
        // Epoch 4: each lane writes its own element, which the other warp did not read in
        // epoch 3 … but warp 1 read warp 0's elements in epoch 2, two epochs back: no matter.
        note(&mut log, Op::Write, 4, &all(|l| l));
        assert_eq!(log.end_epoch(true), (vec![], false));
    }

    #[test]
    fn many_overlapping_accesses_are_replayed_exactly() {
        // Warp 0 writes 3000 times, lanes 0 and 2 on elements 500 apart (37·k and 37·k + 500,
        // modulo 1000): each touch spans 500 elements and overlaps about half the others,
        // more pairs than the screen's budget allows. Then warp 1
        // reads element 999, which warp 0 wrote (access 1): one RAW; and element 1001, which
        // nobody wrote: nothing.
        let mut log = EpochLog::default();
        let mut mask = vec![false; 64];
        mask[0] = true;
        mask[2] = true;
        for k in 0..3000i64 {
            let ix: Vec<i64> = (0..64).map(|l| (k * 37 + l * 250) % 1000).collect();
            note(&mut log, Op::Write, 1, &(mask.clone(), ix));
        }
        let mut ix = vec![0; 64];
        let mut read = vec![false; 64];
        read[32] = true;
        read[33] = true;
        ix[32] = 999;
        ix[33] = 1001;
        assert_eq!(
            screen(&log.touches, &log.listed, |_, _| false),
            Screen::Unknown
        );
        note(&mut log, Op::Read, 2, &(read, ix));
        let (found, _) = log.end_epoch(false);
        // Element 999 is written (37·k ≡ 999 or 499 mod 1000 has solutions, 37 being prime to
        // 1000), so the read is a RAW against warp 0's instruction 1; the read is access 3001.
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].warp, found[0].index, found[0].hazard),
            (1, 999, (RaceKind::ReadAfterWrite, 0, 1))
        );
        assert_eq!(found[0].seq, 3001);
    }
}
