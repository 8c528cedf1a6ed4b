//! Skip-bigram co-occurrence (ROUGE-S, ROUGE-SU; Lin & Och 2004, section 4).
//!
//! A skip-bigram is an ordered pair (t_i, t_j), i < j, with at most `max_gap` tokens between
//! them (j − i − 1 ≤ max_gap; `None` = any distance, so `Some(0)` is plain bigrams). Matches
//! are clipped counts; the totals are the numbers of within-distance skip-bigrams of each
//! side. With `unigrams` (ROUGE-SU) every token also counts as a unit.
//!
//! Only tokens present on both sides can match, so each comparison first numbers the common
//! types 0..k. Short sentences with few common types count skip-bigrams in a dense k×k table
//! (no hashing, no sorting; the table is reset by undoing the hypothesis's increments). Long
//! texts (summaries, whole documents) never enumerate the pairs: with H(a, b) and R(a, b) the
//! numbers of (a, b) skip-bigrams of each side, the hit count Σ min(H, R) is split by type:
//!
//! * a type seen more than once on some side ("repeated") contributes its row H(x, ·) and,
//!   against the types seen exactly once on both sides ("single"), its column H(·, x): one
//!   sliding-window sweep of each text per repeated type;
//! * two single types a, b match iff they are within the distance in the same order on both
//!   sides: counted as points in a rectangle, offline with a Fenwick tree, O(n log n).
//!
//! Memory is O(n + m + k) whatever the lengths; time O(R·(n + m + k) + n log n) for R
//! repeated types (bounded by the window for short gaps).
//!
//! Batches compare many texts with the same one (the systems of a segment share its
//! reference; a matrix row compares one candidate with many). The hit count is symmetric,
//! so [`SkipBigramScratch::counts`] keeps a short text *prepared*: its types numbered 0..k
//! and its skip-bigram counts in a dense k×k table, built once. Each other text is then a
//! *probe*: its tokens of a prepared type are listed with their positions, and its
//! within-distance pairs of them walked once, each taking one unit of the table's count if
//! any is left (the units taken are given back afterwards). Which side is prepared: the one
//! already prepared, else the side that has been repeating (the reference of a batch's
//! consecutive pairs, the hypothesis of a matrix row).
//!
//! Where texts have not been repeating (one reference per hypothesis, nothing shared), a
//! prepared text would serve one comparison: two short texts take the *pair path*
//! instead (`PairScratch`): each token is numbered by the position of its type's first
//! occurrence in the reference (through an id-indexed array stamped per pair, never
//! reset), the reference's skip-bigrams are counted in a dense table over these numbers
//! and the hypothesis's take units from it, in fixed windows (no branch on the data),
//! and the table is cleared with one memset.

use crate::kernels::counts::Counts;

/// Beyond this many common types the dense table would be too large.
const MAX_DENSE_TYPES: usize = 512;
/// Beyond this many skip-bigrams (both sides) the type sweeps beat the dense table.
const MAX_DENSE_PAIRS: usize = 1 << 22;
const NONE: u32 = u32::MAX;
/// The longest text that is prepared (so its table has at most 256² cells).
const MAX_PREPARED_LEN: usize = 256;
/// Prepared texts kept at once, one per distance (e.g. `rougeS4` and `rougeS*` together).
const PREPARED_SLOTS: usize = 4;

/// Reusable buffers for skip-bigram counts: prepared texts (one per distance) and the
/// dense or sorted tables of the sweep (see the module docs).
#[derive(Debug, Default)]
pub struct SkipBigramScratch {
    max_gap: Option<usize>,
    unigrams: bool,
    hyp: Vec<u32>,
    /// `stamp[id] == generation` marks the types of the current reference.
    stamp: Vec<u32>,
    generation: u32,
    /// `local[id]` = dense number of a common type (valid where stamped).
    local: Vec<u32>,
    hyp_local: Vec<u32>,
    ref_local: Vec<u32>,
    pair_counts: Vec<u32>,
    unigram_counts: Vec<u32>,
    sweep: SweepScratch,
    /// Prepared texts, at most one per distance (see the module docs).
    prepared: Vec<PreparedText>,
    /// The pair path: two short texts, neither seen in the last comparison.
    pair: PairScratch,
}

/// Where a text lies: equal for the same text of a batch or a block.
fn place(t: &[u32]) -> (usize, usize) {
    (t.as_ptr() as usize, t.len())
}

/// A text prepared for many comparisons at one distance (see the module docs).
#[derive(Debug, Default)]
struct PreparedText {
    max_gap: Option<usize>,
    /// Where the texts of the last comparison at this distance lie (address, length): a
    /// hint only, for which side to prepare (a prepared text is recognised by its content).
    last_hyp: (usize, usize),
    last_ref: (usize, usize),
    /// Whether the last comparison at this distance repeated a text of the one before.
    repeating: bool,
    /// Prepare the hypothesis (matrix rows) rather than the reference (batches).
    prefer_hyp: bool,
    text: Vec<u32>,
    /// `slot[id]`: the type number of token `id` in `text` (`NONE` if absent).
    slot: Vec<u32>,
    /// The ids that have a slot, in type order (k of them).
    symbols: Vec<u32>,
    /// `text` in type numbers.
    local: Vec<u32>,
    /// `pairs[a · k + b]`: the number of (a, b) skip-bigrams of `text`. A probe takes units
    /// from it and gives them back at its end (`taken`), so between probes it is whole.
    pairs: Vec<u32>,
    /// `types[a]`: the number of occurrences of type a in `text` (likewise).
    types: Vec<u32>,
    /// Cells of `pairs` (then of `types`) the current probe took a unit from.
    taken: Vec<u32>,
    /// The current probe's tokens of a prepared type: their positions and types.
    at: Vec<u32>,
    sym: Vec<u32>,
}

/// Below this many cells a prepared table is cleared whole rather than pair by pair.
const CLEAR_WHOLE: usize = 4096;

impl PreparedText {
    /// Makes `text` the prepared text at distance `max_gap`, undoing the previous one.
    fn prepare(&mut self, text: &[u32], max_gap: Option<usize>) {
        let k = self.symbols.len();
        for &s in &self.symbols {
            self.slot[s as usize] = NONE;
        }
        if k * k <= CLEAR_WHOLE {
            self.pairs[..k * k].fill(0);
        } else {
            let cells = &mut self.pairs;
            for_each_pair(&self.local, self.max_gap, |a, b| {
                cells[a as usize * k + b as usize] = 0
            });
        }
        self.types[..k].fill(0);
        self.max_gap = max_gap;
        self.text.clear();
        self.text.extend_from_slice(text);
        self.symbols.clear();
        self.local.clear();
        if let Some(&max_id) = text.iter().max() {
            if max_id as usize >= self.slot.len() {
                self.slot.resize(max_id as usize + 1, NONE);
            }
        }
        for &t in text {
            let slot = &mut self.slot[t as usize];
            if *slot == NONE {
                *slot = self.symbols.len() as u32;
                self.symbols.push(t);
            }
            self.local.push(*slot);
        }
        let k = self.symbols.len();
        if self.pairs.len() < k * k {
            self.pairs.resize(k * k, 0);
        }
        if self.types.len() < k {
            self.types.resize(k, 0);
        }
        let cells = &mut self.pairs;
        for_each_pair(&self.local, max_gap, |a, b| {
            cells[a as usize * k + b as usize] += 1
        });
        for &a in &self.local {
            self.types[a as usize] += 1;
        }
    }

    /// Σ min(prepared count, probe count) over the skip-bigrams (and, with `unigrams`, the
    /// tokens) of `other`: the hit count of the pair, one walk over `other`'s tokens of a
    /// prepared type (the others can match nothing, but keep their positions). Branch-free
    /// where the data decide: a token is kept, a unit taken, by adding a 0/1 flag.
    fn probe(&mut self, other: &[u32], unigrams: bool) -> usize {
        let n = other.len();
        if self.at.len() < n {
            self.at.resize(n, 0);
            self.sym.resize(n, 0);
        }
        let mut c = 0;
        for (i, &t) in other.iter().enumerate() {
            let a = self.slot.get(t as usize).copied().unwrap_or(NONE);
            self.at[c] = i as u32;
            self.sym[c] = a;
            c += (a != NONE) as usize;
        }
        let (at, sym) = (&self.at[..c], &self.sym[..c]);
        // At most every unit of the table is taken (plus one slot for the flagged write).
        let units = self.local.len() + skip_bigram_count(self.local.len(), self.max_gap) + 1;
        if self.taken.len() < units {
            self.taken.resize(units, 0);
        }
        // Pairs (i, j) need at[j] − at[i] ≤ w; `end` is the first j beyond i's window.
        let w = self.max_gap.map_or(usize::MAX, |d| d.saturating_add(1));
        let k = self.symbols.len();
        let mut t = 0;
        let mut end = 0;
        for i in 0..c {
            let limit = (at[i] as usize).saturating_add(w);
            while end < c && at[end] as usize <= limit {
                end += 1;
            }
            let row = sym[i] as usize * k;
            for &b in &sym[i + 1..end] {
                let cell = row + b as usize;
                let left = &mut self.pairs[cell];
                let take = (*left != 0) as u32;
                *left -= take;
                self.taken[t] = cell as u32;
                t += take as usize;
            }
        }
        let pair_hits = t;
        if unigrams {
            for &a in sym {
                let left = &mut self.types[a as usize];
                let take = (*left != 0) as u32;
                *left -= take;
                self.taken[t] = a;
                t += take as usize;
            }
        }
        for &cell in &self.taken[..pair_hits] {
            self.pairs[cell as usize] += 1;
        }
        for &a in &self.taken[pair_hits..t] {
            self.types[a as usize] += 1;
        }
        t
    }
}

/// The longest text (either side) of the pair path (so its table has fewer than 2¹⁷ cells,
/// and a cell's count, at most C(128, 2), fits a `u16`).
const PAIR_MAX_LEN: usize = 128;

/// Buffers of the pair path: two short texts, counted without hashing, sorting or any
/// reset proportional to the vocabulary (see [`PairScratch::hits`]).
#[derive(Debug, Default)]
struct PairScratch {
    /// `entry[id] = generation << 32 | type`: the ids of the current reference.
    entry: Vec<u64>,
    generation: u32,
    /// Each side's tokens as pair types, then its pads.
    hyp: Vec<u32>,
    reference: Vec<u32>,
    /// Positions of the hypothesis's tokens of a reference type.
    common: Vec<u32>,
    /// `cells[a · side + b]`: the reference's (a, b) skip-bigrams not yet matched; all zero
    /// between pairs.
    cells: Vec<u16>,
    /// `types[a]`: the reference's occurrences of type a not yet matched (likewise).
    types: Vec<u16>,
}

/// Calls `f(text[i] · s + text[j])` for every pair i < j ≤ i + w of `text` (`n` tokens
/// then `w` pads when `w < n`) with i in `from`. Branch-free: a fixed window of `w`,
/// unrolled for distances up to 8 (ROUGE-S4 is the paper's and the usual one).
#[inline(always)]
fn for_each_near(
    text: &[u32],
    from: impl Iterator<Item = usize>,
    n: usize,
    w: usize,
    s: usize,
    f: impl FnMut(usize),
) {
    match w {
        _ if w >= n => near(text, from, s, |i| i + 1..n, f),
        1 => near_fixed::<1>(text, from, s, f),
        2 => near_fixed::<2>(text, from, s, f),
        3 => near_fixed::<3>(text, from, s, f),
        4 => near_fixed::<4>(text, from, s, f),
        5 => near_fixed::<5>(text, from, s, f),
        6 => near_fixed::<6>(text, from, s, f),
        7 => near_fixed::<7>(text, from, s, f),
        8 => near_fixed::<8>(text, from, s, f),
        9 => near_fixed::<9>(text, from, s, f),
        _ => near(text, from, s, |i| i + 1..i + 1 + w, f),
    }
}

#[inline(always)]
fn near(
    text: &[u32],
    from: impl Iterator<Item = usize>,
    s: usize,
    window: impl Fn(usize) -> std::ops::Range<usize>,
    mut f: impl FnMut(usize),
) {
    for i in from {
        let row = text[i] as usize * s;
        for &b in &text[window(i)] {
            f(row + b as usize);
        }
    }
}

#[inline(always)]
fn near_fixed<const W: usize>(
    text: &[u32],
    from: impl Iterator<Item = usize>,
    s: usize,
    mut f: impl FnMut(usize),
) {
    for i in from {
        let row = text[i] as usize * s;
        let window: &[u32; W] = text[i + 1..i + 1 + W].try_into().unwrap();
        for &b in window {
            f(row + b as usize);
        }
    }
}

/// The first `len` items of `v`, grown (with zeros) to at least that many: what they hold
/// is overwritten by the caller, so a shorter text never writes the buffer.
#[inline]
fn grown(v: &mut Vec<u32>, len: usize) -> &mut [u32] {
    if v.len() < len {
        v.resize(len, 0);
    }
    &mut v[..len]
}

impl PairScratch {
    /// Σ min(hyp count, reference count) over the skip-bigrams (and, with `unigrams`, the
    /// tokens) of two texts of at most [`PAIR_MAX_LEN`] tokens.
    ///
    /// A reference token is numbered by the position of its type's first occurrence
    /// (0..m), each of its pads (a fixed window of `w` after the last token) by one of its
    /// own; a hypothesis token takes its reference number, else a number of its own beyond
    /// every reference cell, as does each pad. The reference's skip-bigrams are counted in
    /// a table over these numbers, and the hypothesis's pairs that start with a reference
    /// type take units from it: a pair with a number of its own finds an empty cell, one
    /// that varies with its position (rather than one shared cell, whose stores would
    /// wait on each other). The reference's block of the table is then cleared whole.
    fn hits(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        max_gap: Option<usize>,
        unigrams: bool,
    ) -> usize {
        let (n, m) = (hyp.len(), reference.len());
        debug_assert!(n <= PAIR_MAX_LEN && m <= PAIR_MAX_LEN);
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entry.fill(0);
            self.generation = 1;
        }
        let tag = (self.generation as u64) << 32;
        // Backwards, so the first occurrence's position is written last (stores only).
        let max_id = reference.iter().fold(0, |a, &t| a.max(t)) as usize;
        if max_id >= self.entry.len() {
            self.entry.resize(max_id + 1, 0);
        }
        let entry = &mut self.entry[..];
        for (j, &t) in reference.iter().enumerate().rev() {
            entry[t as usize] = tag | j as u64;
        }
        let w = max_gap.map_or(usize::MAX, |d| d.saturating_add(1));
        let pads = |len: usize| if w >= len { 0 } else { w };
        let (pads_r, pads_h) = (pads(m), pads(n));
        // Numbers: reference types 0..m and its pads, all below `side`; the hypothesis's
        // tokens of no reference type and its pads from `side²` on (beyond every cell
        // the reference counts).
        let side = m + pads_r;
        let own = side * side;
        let r = grown(&mut self.reference, side);
        let h = grown(&mut self.hyp, n + pads_h);
        let common = grown(&mut self.common, n);
        let entry = &self.entry[..];
        for (j, &t) in reference.iter().enumerate() {
            r[j] = entry[t as usize] as u32;
        }
        for (q, x) in r[m..].iter_mut().enumerate() {
            *x = (m + q) as u32;
        }
        let mut c = 0;
        for (i, &t) in hyp.iter().enumerate() {
            let e = entry.get(t as usize).copied().unwrap_or(0);
            let shared = e & !(NONE as u64) == tag;
            h[i] = if shared { e as u32 } else { (own + i) as u32 };
            common[c] = i as u32;
            c += shared as usize;
        }
        if c == 0 {
            return 0;
        }
        for (q, x) in h[n..].iter_mut().enumerate() {
            *x = (own + n + q) as u32;
        }
        // Reference cells a · side + b < side²; a hypothesis pair starts with a reference
        // type (a < m), so its cell is below side² + m · side + n + pads.
        let len = own + m * side + n + pads_h;
        if self.cells.len() < len {
            self.cells.resize(len, 0);
        }
        let cells = &mut self.cells[..];
        for_each_near(r, 0..m, m, w, side, |cell| cells[cell] += 1);
        let mut hit = 0;
        let starts = common[..c].iter().map(|&i| i as usize);
        for_each_near(h, starts, n, w, side, |cell| {
            let left = &mut cells[cell];
            let take = (*left != 0) as u16;
            *left -= take;
            hit += take as usize;
        });
        // Cleared whole (a memset) unless the block is much larger than its pairs.
        if own <= 16 * m * w.min(m) {
            cells[..own].fill(0);
        } else {
            for_each_near(r, 0..m, m, w, side, |cell| cells[cell] = 0);
        }
        if unigrams {
            if self.types.len() < m {
                self.types.resize(m, 0);
            }
            let types = &mut self.types[..];
            for &a in &r[..m] {
                types[a as usize] += 1;
            }
            for &i in &common[..c] {
                let left = &mut types[h[i as usize] as usize];
                let take = (*left != 0) as u16;
                *left -= take;
                hit += take as usize;
            }
            types[..m].fill(0);
        }
        hit
    }
}

/// Buffers of the type sweeps (all O(n + m + k)).
#[derive(Debug, Default)]
struct SweepScratch {
    count_h: Vec<u32>,
    count_r: Vec<u32>,
    /// Position of a single type on each side (`NONE` for repeated types).
    pos_h: Vec<u32>,
    pos_r: Vec<u32>,
    /// First and last position of each type on each side.
    span_h: Vec<(u32, u32)>,
    span_r: Vec<(u32, u32)>,
    row_h: Vec<u64>,
    row_r: Vec<u64>,
    col_h: Vec<u64>,
    col_r: Vec<u64>,
    fenwick: Vec<u32>,
    points: Vec<(u32, u32)>,
}

/// The window of pairs starting at `i`: positions `i + 1 .. end` (saturating: any gap at
/// least the length means no limit).
#[inline]
fn window_end(i: usize, n: usize, max_gap: Option<usize>) -> usize {
    match max_gap {
        Some(d) => i.saturating_add(d).saturating_add(2).min(n),
        None => n,
    }
}

/// Calls `f(a, b)` for every within-distance pair of common tokens (`NONE` = not common).
#[inline]
fn for_each_pair(local: &[u32], max_gap: Option<usize>, mut f: impl FnMut(u32, u32)) {
    let n = local.len();
    for (i, &a) in local.iter().enumerate() {
        if a == NONE {
            continue;
        }
        for &b in &local[i + 1..window_end(i, n, max_gap)] {
            if b != NONE {
                f(a, b);
            }
        }
    }
}

impl SkipBigramScratch {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Prepares `hyp` for skip-bigrams at most `max_gap` apart (`None`: any distance), with
    /// unigrams counted too when `unigrams` (ROUGE-SU); later pairs against it reuse the work.
    pub fn prepare(&mut self, hyp: &[u32], max_gap: Option<usize>, unigrams: bool) {
        self.max_gap = max_gap;
        self.unigrams = unigrams;
        self.hyp.clear();
        self.hyp.extend_from_slice(hyp);
    }

    /// Counts of `hyp` against `reference`, through a prepared text when both are short
    /// enough (see the module docs): the pairs that share a text, consecutive in a batch,
    /// number its types and count its skip-bigrams once. The same counts as
    /// [`Self::prepare`] + [`Self::overlap`], bit for bit.
    pub fn counts(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        max_gap: Option<usize>,
        unigrams: bool,
    ) -> Counts {
        let units = |len: usize| skip_bigram_count(len, max_gap) + if unigrams { len } else { 0 };
        let (hyp_total, ref_total) = (units(hyp.len()), units(reference.len()));
        let hit = match self.prepared_hits(hyp, reference, max_gap, unigrams) {
            Some(hit) => hit,
            None => {
                self.prepare(hyp, max_gap, unigrams);
                return self.overlap(reference);
            }
        };
        Counts::new(hit as f64, hyp_total as f64, ref_total as f64)
    }

    /// The hit count through a prepared text, or `None` when neither side may be prepared
    /// (too long) or the probe has too many pairs for a walk.
    fn prepared_hits(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        max_gap: Option<usize>,
        unigrams: bool,
    ) -> Option<usize> {
        let walkable = |t: &[u32]| skip_bigram_count(t.len(), max_gap) <= MAX_DENSE_PAIRS;
        let at = match self.prepared.iter().position(|p| p.max_gap == max_gap) {
            Some(at) => at,
            None if self.prepared.len() < PREPARED_SLOTS => {
                self.prepared.push(PreparedText {
                    max_gap,
                    ..PreparedText::default()
                });
                self.prepared.len() - 1
            }
            // Another distance's slot: it undoes its text with its own distance.
            None => 0,
        };
        let p = &mut self.prepared[at];
        let (last_hyp, last_ref) = (p.last_hyp, p.last_ref);
        p.last_hyp = place(hyp);
        p.last_ref = place(reference);
        let repeats = place(hyp) == last_hyp || place(reference) == last_ref;
        let repeating = std::mem::replace(&mut p.repeating, repeats);
        // The side already prepared.
        if p.max_gap == max_gap {
            for (prepared, probe) in [(reference, hyp), (hyp, reference)] {
                if p.text == prepared {
                    return walkable(probe).then(|| p.probe(probe, unigrams));
                }
            }
        }
        // Two short texts, where texts have not been repeating (nothing shared, as far as
        // seen), are counted as a pair: a text prepared now would serve no other
        // comparison. Where they have (the next texts are likely to repeat too), the
        // repeated side is prepared from its first comparison on.
        let short = |t: &[u32]| t.len() <= PAIR_MAX_LEN;
        if !repeats && !repeating && short(hyp) && short(reference) {
            return Some(self.pair.hits(hyp, reference, max_gap, unigrams));
        }
        // Else the side that repeats: the preferred one, until the other side is seen to
        // repeat while it was prepared (so a matrix row prepares its hypothesis once, and
        // a batch each new reference once).
        p.prefer_hyp = if p.prefer_hyp {
            place(reference) != last_ref
        } else {
            place(hyp) == last_hyp
        };
        let (prepared, probe) = if p.prefer_hyp {
            (hyp, reference)
        } else {
            (reference, hyp)
        };
        if prepared.len() > MAX_PREPARED_LEN || !walkable(probe) {
            return None;
        }
        p.prepare(prepared, max_gap);
        Some(p.probe(probe, unigrams))
    }

    /// Counts of the prepared hypothesis against `reference`.
    pub fn overlap(&mut self, reference: &[u32]) -> Counts {
        let units =
            |len: usize| skip_bigram_count(len, self.max_gap) + if self.unigrams { len } else { 0 };
        let (hyp_total, ref_total) = (units(self.hyp.len()), units(reference.len()));
        let common = self.number_common_types(reference);
        let pairs = skip_bigram_count(self.hyp.len(), self.max_gap)
            .saturating_add(skip_bigram_count(reference.len(), self.max_gap));
        let hit = if common == 0 {
            0
        } else if common <= MAX_DENSE_TYPES && pairs <= MAX_DENSE_PAIRS {
            self.dense_hits(common)
        } else {
            self.swept_hits(common)
        };
        Counts::new(hit as f64, hyp_total as f64, ref_total as f64)
    }

    /// Numbers the types shared by the hypothesis and `reference` 0..k; fills `hyp_local`
    /// and `ref_local` (`NONE` where a token is not shared) and returns k.
    fn number_common_types(&mut self, reference: &[u32]) -> usize {
        let max_id = self.hyp.iter().chain(reference).copied().max().unwrap_or(0) as usize;
        if self.stamp.len() <= max_id {
            self.stamp.resize(max_id + 1, 0);
            self.local.resize(max_id + 1, NONE);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        for &t in reference {
            self.stamp[t as usize] = g;
            self.local[t as usize] = NONE;
        }
        let mut k = 0u32;
        self.hyp_local.clear();
        for &t in &self.hyp {
            let t = t as usize;
            if self.stamp[t] != g {
                self.hyp_local.push(NONE);
                continue;
            }
            if self.local[t] == NONE {
                self.local[t] = k;
                k += 1;
            }
            self.hyp_local.push(self.local[t]);
        }
        self.ref_local.clear();
        self.ref_local
            .extend(reference.iter().map(|&t| self.local[t as usize]));
        k as usize
    }

    fn dense_hits(&mut self, k: usize) -> usize {
        if self.pair_counts.len() < k * k {
            self.pair_counts.resize(k * k, 0);
        }
        let counts = &mut self.pair_counts;
        let key = |a: u32, b: u32| a as usize * k + b as usize;
        for_each_pair(&self.hyp_local, self.max_gap, |a, b| counts[key(a, b)] += 1);
        let mut hit = 0;
        for_each_pair(&self.ref_local, self.max_gap, |a, b| {
            let c = &mut counts[key(a, b)];
            if *c > 0 {
                *c -= 1;
                hit += 1;
            }
        });
        // Leave the table all zero for the next comparison.
        for_each_pair(&self.hyp_local, self.max_gap, |a, b| counts[key(a, b)] = 0);
        if self.unigrams {
            hit += self.unigram_hits(k);
        }
        hit
    }

    /// Σ_a min(count_h(a), count_r(a)) over the k common types.
    fn unigram_hits(&mut self, k: usize) -> usize {
        if self.unigram_counts.len() < k {
            self.unigram_counts.resize(k, 0);
        }
        let uni = &mut self.unigram_counts;
        let mut hit = 0;
        for &a in self.hyp_local.iter().filter(|&&a| a != NONE) {
            uni[a as usize] += 1;
        }
        for &b in self.ref_local.iter().filter(|&&b| b != NONE) {
            if uni[b as usize] > 0 {
                uni[b as usize] -= 1;
                hit += 1;
            }
        }
        for &a in self.hyp_local.iter().filter(|&&a| a != NONE) {
            uni[a as usize] = 0;
        }
        hit
    }

    /// Exact hits in O(n + m + k) memory, without enumerating pairs (see the module docs).
    fn swept_hits(&mut self, k: usize) -> usize {
        let gap = self.max_gap;
        let (h, r) = (&self.hyp_local, &self.ref_local);
        let s = &mut self.sweep;
        count_types(h, k, &mut s.count_h, &mut s.pos_h, &mut s.span_h);
        count_types(r, k, &mut s.count_r, &mut s.pos_r, &mut s.span_r);
        for v in [&mut s.row_h, &mut s.row_r, &mut s.col_h, &mut s.col_r] {
            v.clear();
            v.resize(k, 0);
        }
        let single = |s: &SweepScratch, a: usize| s.count_h[a] == 1 && s.count_r[a] == 1;
        let mut hit: u64 = 0;
        for x in 0..k {
            if single(s, x) {
                continue;
            }
            sweep_row(h, x as u32, s.span_h[x], gap, &mut s.row_h);
            sweep_row(r, x as u32, s.span_r[x], gap, &mut s.row_r);
            sweep_col(h, x as u32, s.span_h[x], gap, &mut s.col_h);
            sweep_col(r, x as u32, s.span_r[x], gap, &mut s.col_r);
            for b in 0..k {
                hit += s.row_h[b].min(s.row_r[b]);
                if single(s, b) {
                    hit += s.col_h[b].min(s.col_r[b]);
                }
            }
            for v in [&mut s.row_h, &mut s.row_r, &mut s.col_h, &mut s.col_r] {
                v.fill(0);
            }
        }
        // Pairs of single types: points (hyp position, ref position) in hyp order; (a, b)
        // matches iff b lies within the window after a on both axes.
        s.points.clear();
        for (i, &a) in h.iter().enumerate() {
            if a != NONE && single(s, a as usize) {
                s.points.push((i as u32, s.pos_r[a as usize]));
            }
        }
        hit += concordant_in_window(&s.points, r.len(), gap, &mut s.fenwick);
        let mut hit = hit as usize;
        if self.unigrams {
            hit += self.unigram_hits(k);
        }
        hit
    }
}

/// Per type 0..k of `local`: its count, its position if it occurs once, its first and last
/// position.
fn count_types(
    local: &[u32],
    k: usize,
    count: &mut Vec<u32>,
    pos: &mut Vec<u32>,
    span: &mut Vec<(u32, u32)>,
) {
    count.clear();
    count.resize(k, 0);
    pos.clear();
    pos.resize(k, NONE);
    span.clear();
    span.resize(k, (NONE, 0));
    for (i, &a) in local.iter().enumerate() {
        if a == NONE {
            continue;
        }
        let a = a as usize;
        count[a] += 1;
        pos[a] = i as u32;
        if span[a].0 == NONE {
            span[a].0 = i as u32;
        }
        span[a].1 = i as u32;
    }
}

/// `row[b] += H(x, b)`: for each position j, the occurrences of `x` in the window before it.
fn sweep_row(local: &[u32], x: u32, span: (u32, u32), gap: Option<usize>, row: &mut [u64]) {
    let n = local.len();
    if span.0 == NONE {
        return;
    }
    let (first, last) = (span.0 as usize, span.1 as usize);
    // Pairs (i, j) with local[i] == x need first < j < window_end(last).
    let stop = window_end(last, n, gap);
    let w = gap.map_or(usize::MAX, |d| d.saturating_add(1));
    let mut inside: u64 = 0;
    for j in first + 1..stop {
        if local[j - 1] == x {
            inside += 1;
        }
        if j > w && local[j - w - 1] == x {
            inside -= 1;
        }
        let b = local[j];
        if b != NONE && inside > 0 {
            row[b as usize] += inside;
        }
    }
}

/// `col[b] += H(b, x)`: for each position i, the occurrences of `x` in the window after it.
fn sweep_col(local: &[u32], x: u32, span: (u32, u32), gap: Option<usize>, col: &mut [u64]) {
    if span.0 == NONE {
        return;
    }
    let (first, last) = (span.0 as usize, span.1 as usize);
    let w = gap.map_or(usize::MAX, |d| d.saturating_add(1));
    // Pairs (i, j) with local[j] == x need first - w <= i < last.
    let start = first.saturating_sub(w);
    let mut inside: u64 = 0;
    for i in (start..last).rev() {
        // Window of i: i + 1 ..= i + w.
        if local[i + 1] == x {
            inside += 1;
        }
        if let Some(out) = i.checked_add(w).and_then(|e| e.checked_add(1)) {
            if out < local.len() && local[out] == x {
                inside -= 1;
            }
        }
        let b = local[i];
        if b != NONE && inside > 0 {
            col[b as usize] += inside;
        }
    }
}

/// Number of ordered pairs (a, b) of `points` (sorted by their first coordinate, all
/// coordinates distinct per axis) with 0 < b.0 − a.0 ≤ w and 0 < b.1 − a.1 ≤ w, w = gap + 1.
/// Offline rectangle counting: a sweep over the first axis with a Fenwick tree over the
/// second (`m` = its size).
fn concordant_in_window(
    points: &[(u32, u32)],
    m: usize,
    gap: Option<usize>,
    fenwick: &mut Vec<u32>,
) -> u64 {
    if points.len() < 2 {
        return 0;
    }
    let w = gap.map_or(usize::MAX, |d| d.saturating_add(1));
    fenwick.clear();
    fenwick.resize(m + 1, 0);
    let add = |f: &mut [u32], pos: usize| {
        let mut i = pos + 1;
        while i < f.len() {
            f[i] += 1;
            i += i & i.wrapping_neg();
        }
    };
    // Points added so far with second coordinate < `pos`.
    let below = |f: &[u32], pos: usize| -> u64 {
        let mut i = pos.min(f.len() - 1);
        let mut s = 0u64;
        while i > 0 {
            s += f[i] as u64;
            i -= i & i.wrapping_neg();
        }
        s
    };
    // For point a: (# points with first ≤ a.0 + w in the second-axis range) minus
    // (# points with first ≤ a.0 in that range); range = (a.1, a.1 + w].
    let range = |f: &[u32], a: (u32, u32)| -> u64 {
        let lo = a.1 as usize + 1;
        let hi = (a.1 as usize).saturating_add(w).saturating_add(1);
        below(f, hi) - below(f, lo)
    };
    let mut total: u64 = 0;
    // Queries "first ≤ a.0" come in point order; "first ≤ a.0 + w" too (monotone). Walk
    // the points once, answering each query once every point up to its bound is added.
    let mut added = 0;
    let mut far = 0; // next point whose "a.0 + w" query is pending
    let mut subtract: u64 = 0;
    for (idx, &a) in points.iter().enumerate() {
        // Answer pending far queries whose bound is below this point's first coordinate.
        while far < points.len() && (points[far].0 as usize).saturating_add(w) < a.0 as usize {
            total += range(fenwick, points[far]);
            far += 1;
        }
        add(fenwick, a.1 as usize);
        added += 1;
        // Near query of a: every point with first ≤ a.0 is now added (itself included; its
        // second coordinate is outside its own range).
        subtract += range(fenwick, points[idx]);
    }
    debug_assert_eq!(added, points.len());
    while far < points.len() {
        total += range(fenwick, points[far]);
        far += 1;
    }
    total - subtract
}

/// Number of within-distance skip-bigrams of a sentence of `len` tokens:
/// Σ_i min(d + 1, len − 1 − i), or C(len, 2) without a limit.
pub fn skip_bigram_count(len: usize, max_gap: Option<usize>) -> usize {
    let all = len * len.saturating_sub(1) / 2;
    match max_gap {
        // Σ_{j<len} min(w, j), w = d + 1: all pairs while len − 1 ≤ w, else
        // w(w + 1)/2 + (len − 1 − w)·w.
        Some(d) if d < len.saturating_sub(2) => {
            let w = d + 1;
            w * (w + 1) / 2 + (len - 1 - w) * w
        }
        _ => all,
    }
}

/// Skip-bigram counts of one pair (convenience).
pub fn skip_bigram_overlap(
    hyp: &[u32],
    reference: &[u32],
    max_gap: Option<usize>,
    unigrams: bool,
) -> Counts {
    SkipBigramScratch::new().counts(hyp, reference, max_gap, unigrams)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::counts::clipped_intersection;
    use crate::kernels::ngram::ngram_overlap;
    use proptest::prelude::*;

    // S1 police killed the gunman; S2 police kill the gunman; S3 the gunman kill police;
    // S4 the gunman police killed.
    const S1: [u32; 4] = [0, 1, 2, 3];
    const S2: [u32; 4] = [0, 4, 2, 3];
    const S3: [u32; 4] = [2, 3, 4, 0];
    const S4: [u32; 4] = [2, 3, 0, 1];

    #[test]
    fn paper_examples() {
        assert_eq!(
            skip_bigram_overlap(&S2, &S1, None, false),
            Counts::new(3.0, 6.0, 6.0)
        );
        assert_eq!(skip_bigram_overlap(&S3, &S1, None, false).hit, 1.0);
        assert_eq!(skip_bigram_overlap(&S4, &S1, None, false).hit, 2.0);
        // SU* of S2: (3 + 3) / (6 + 4)
        assert_eq!(
            skip_bigram_overlap(&S2, &S1, None, true),
            Counts::new(6.0, 10.0, 10.0)
        );
    }

    #[test]
    fn gap_zero_is_bigrams() {
        let a = [1, 2, 1, 2, 3, 1];
        let b = [2, 1, 2, 3, 3, 1, 2];
        assert_eq!(
            skip_bigram_overlap(&a, &b, Some(0), false),
            ngram_overlap(&a, &b, 2)
        );
    }

    /// The oracle: every within-distance pair of each side as a sorted `u64` key, then the
    /// clipped intersection (quadratic memory: short inputs only).
    fn oracle(a: &[u32], b: &[u32], gap: Option<usize>, unigrams: bool) -> usize {
        let pairs = |t: &[u32]| {
            let mut out: Vec<u64> = Vec::new();
            for i in 0..t.len() {
                for j in i + 1..window_end(i, t.len(), gap) {
                    out.push((t[i] as u64) << 32 | t[j] as u64);
                }
            }
            out.sort_unstable();
            out
        };
        let mut hit = clipped_intersection(&pairs(a), &pairs(b));
        if unigrams {
            let (mut x, mut y) = (a.to_vec(), b.to_vec());
            x.sort_unstable();
            y.sort_unstable();
            hit += clipped_intersection(&x, &y);
        }
        hit
    }

    /// Both exact paths on one comparison: (dense table, type sweeps).
    fn both_paths(a: &[u32], b: &[u32], gap: Option<usize>, unigrams: bool) -> (usize, usize) {
        let mut s = SkipBigramScratch::new();
        s.prepare(a, gap, unigrams);
        let k = s.number_common_types(b);
        let dense = if k == 0 { 0 } else { s.dense_hits(k) };
        let swept = if k == 0 { 0 } else { s.swept_hits(k) };
        (dense, swept)
    }

    #[test]
    fn dense_and_swept_paths_agree() {
        // 600 shared types: the public path sweeps; the dense table still gives the truth.
        let a: Vec<u32> = (0..1500u32).map(|i| (i * 7919) % 600).collect();
        let b: Vec<u32> = (0..1400u32).map(|i| (i * 104_729) % 600).collect();
        for (gap, uni) in [(Some(0), false), (Some(4), true), (None, true)] {
            let (dense, swept) = both_paths(&a, &b, gap, uni);
            assert_eq!(dense, swept);
            assert_eq!(skip_bigram_overlap(&a, &b, gap, uni).hit as usize, dense);
        }
    }

    #[test]
    fn huge_gaps_mean_no_limit() {
        let a = [1, 2, 3, 1, 2];
        let b = [3, 2, 1, 2, 1];
        let none = skip_bigram_overlap(&a, &b, None, true);
        assert_eq!(skip_bigram_overlap(&a, &b, Some(usize::MAX), true), none);
        assert_eq!(
            skip_bigram_overlap(&a, &b, Some(usize::MAX - 1), true),
            none
        );
        assert_eq!(skip_bigram_count(5, Some(usize::MAX)), 10);
    }

    #[test]
    fn long_documents_in_linear_memory() {
        // 20k tokens each side: C(n, 2) = 2e8 pairs, never enumerated.
        let a: Vec<u32> = (0..20_000u32).map(|i| (i * 7919) % 1000).collect();
        let b: Vec<u32> = (0..20_000u32).map(|i| (i * 31) % 1800).collect();
        let c = skip_bigram_overlap(&a, &b, None, true);
        assert!(c.hit > 0.0 && c.hit <= c.hyp_total.min(c.ref_total));
        let distinct: Vec<u32> = (0..20_000u32).collect();
        let c = skip_bigram_overlap(&distinct, &distinct, None, false);
        assert_eq!(c.hit, c.hyp_total);
    }

    proptest! {
        #[test]
        fn every_path_equals_the_oracle(
            a in prop::collection::vec(0u32..12, 0..120),
            b in prop::collection::vec(0u32..12, 0..120),
            gap in prop::option::of(0usize..10),
            unigrams in any::<bool>(),
        ) {
            let want = oracle(&a, &b, gap, unigrams);
            let (dense, swept) = both_paths(&a, &b, gap, unigrams);
            prop_assert_eq!(dense, want);
            prop_assert_eq!(swept, want);
            prop_assert_eq!(skip_bigram_overlap(&a, &b, gap, unigrams).hit as usize, want);
        }

        #[test]
        fn mostly_single_types_equal_the_oracle(
            a in prop::collection::vec(0u32..400, 0..300),
            b in prop::collection::vec(0u32..400, 0..300),
            gap in prop::option::of(0usize..40),
        ) {
            let want = oracle(&a, &b, gap, true);
            prop_assert_eq!(both_paths(&a, &b, gap, true).1, want);
        }

        #[test]
        fn repetitive_text_equals_the_oracle(
            unit in prop::collection::vec(0u32..6, 1..8),
            reps in 1usize..40,
            noise in prop::collection::vec((0usize..300, 0u32..50), 0..20),
            gap in prop::option::of(0usize..20),
        ) {
            let mut a: Vec<u32> = unit.iter().copied().cycle().take(unit.len() * reps).collect();
            let mut b = a.clone();
            for (k, (at, t)) in noise.iter().enumerate() {
                let v = if k % 2 == 0 { &mut a } else { &mut b };
                if !v.is_empty() {
                    let n = v.len();
                    v[at % n] = *t;
                }
            }
            let want = oracle(&a, &b, gap, false);
            prop_assert_eq!(both_paths(&a, &b, gap, false).1, want);
        }
    }

    /// Texts over a tiny alphabet, some built from a repeated unit: heavy repetition.
    fn repetitive_texts() -> impl Strategy<Value = Vec<Vec<u32>>> {
        let random = prop::collection::vec(0u32..6, 0..40);
        let cycled = (prop::collection::vec(0u32..4, 1..5), 0usize..30)
            .prop_map(|(unit, len)| unit.iter().copied().cycle().take(len).collect());
        prop::collection::vec(prop_oneof![random, cycled], 1..6)
    }

    proptest! {
        /// One scratch through a run of comparisons (texts that repeat on either side,
        /// distances 0..6 and none, with and without unigrams; prepared texts kept, swapped
        /// and evicted): every count equals the oracle and the unprepared path.
        #[test]
        fn prepared_texts_equal_the_oracle(
            texts in repetitive_texts(),
            steps in prop::collection::vec(
                (0usize..6, 0usize..6, prop::option::of(0usize..7), any::<bool>()), 1..40),
        ) {
            let mut s = SkipBigramScratch::new();
            for (i, j, gap, unigrams) in steps {
                let (a, b) = (&texts[i % texts.len()], &texts[j % texts.len()]);
                let got = s.counts(a, b, gap, unigrams);
                prop_assert_eq!(got.hit as usize, oracle(a, b, gap, unigrams));
                let mut plain = SkipBigramScratch::new();
                plain.prepare(a, gap, unigrams);
                prop_assert_eq!(got, plain.overlap(b));
            }
        }

        #[test]
        fn closed_form_counts_equal_the_sum(len in 0usize..300, d in 0usize..400) {
            let sum: usize = (0..len).map(|i| (d + 1).min(len - 1 - i)).sum();
            prop_assert_eq!(skip_bigram_count(len, Some(d)), sum);
        }
    }

    /// Texts of 0..80 tokens over a small alphabet (so types repeat, within and across
    /// the two sides), the alphabet spread over ids up to ~5 million or kept dense.
    fn pair_texts() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
        (1u32..30, any::<bool>()).prop_flat_map(|(alphabet, spread)| {
            let text = prop::collection::vec(0..alphabet, 0..80).prop_map(move |t| {
                let id = |x: u32| if spread { x * 172_031 + 7 } else { x };
                t.into_iter().map(id).collect::<Vec<u32>>()
            });
            (text.clone(), text)
        })
    }

    proptest! {
        /// The pair path, one scratch through many pairs of any ids, lengths, distances,
        /// with and without unigrams: every hit count equals the oracle, and the tables
        /// are all zero again after each pair.
        #[test]
        fn pair_path_equals_the_oracle(
            pairs in prop::collection::vec(
                (pair_texts(), prop::option::of(0usize..7), any::<bool>()), 1..12),
        ) {
            let mut p = PairScratch::default();
            for ((a, b), gap, unigrams) in pairs {
                let want = oracle(&a, &b, gap, unigrams);
                prop_assert_eq!(p.hits(&a, &b, gap, unigrams), want);
                prop_assert!(p.cells.iter().all(|&c| c == 0));
                prop_assert!(p.types.iter().all(|&c| c == 0));
                // Through the public entry (which takes the pair path for short texts)
                // and the unprepared path: the same counts, bit for bit.
                let mut plain = SkipBigramScratch::new();
                plain.prepare(&a, gap, unigrams);
                let want = plain.overlap(&b);
                prop_assert_eq!(SkipBigramScratch::new().counts(&a, &b, gap, unigrams), want);
            }
        }
    }

    #[test]
    fn pair_path_takes_short_pairs_where_texts_do_not_repeat() {
        let texts: Vec<Vec<u32>> = (0..8u32).map(|i| vec![i, 1, 2, i + 1, 3]).collect();
        let mut s = SkipBigramScratch::new();
        // All-distinct pairs: nothing is ever prepared.
        for p in texts.chunks(2) {
            s.counts(&p[0], &p[1], Some(4), false);
        }
        assert!(
            s.prepared.iter().all(|p| p.text.is_empty()),
            "the pair path"
        );
        // A shared reference: prepared from its second comparison on, and once texts
        // repeat, the next reference from its first.
        let (r1, r2) = (&texts[0], &texts[1]);
        s.counts(&texts[2], r1, Some(4), false);
        assert!(s.prepared[0].text.is_empty());
        s.counts(&texts[3], r1, Some(4), false);
        assert_eq!(&s.prepared[0].text, r1);
        s.counts(&texts[4], r2, Some(4), false);
        assert_eq!(&s.prepared[0].text, r2);
        // A text too long for the pair path: the prepared path.
        let long: Vec<u32> = (0..=PAIR_MAX_LEN as u32).collect();
        let mut s = SkipBigramScratch::new();
        s.counts(&long, r1, Some(4), false);
        assert_eq!(&s.prepared[0].text, r1);
    }

    #[test]
    fn prepared_side_follows_the_repeated_text() {
        // A batch (references shared by consecutive hypotheses), then matrix rows (one
        // hypothesis against many references).
        let hyps: [&[u32]; 4] = [&[1, 2, 3, 1, 2], &[2, 1, 3, 3], &[1, 1, 1, 2], &[3, 2, 1]];
        let refs: [&[u32]; 3] = [&[2, 2, 1, 3], &[1, 3], &[3, 1, 2, 1, 1]];
        let mut s = SkipBigramScratch::new();
        let check = |s: &mut SkipBigramScratch, a: &[u32], b: &[u32]| {
            for (gap, uni) in [(Some(1), false), (Some(1), true), (None, true)] {
                assert_eq!(
                    s.counts(a, b, gap, uni).hit as usize,
                    oracle(a, b, gap, uni)
                );
            }
        };
        let holds = |s: &SkipBigramScratch, t: &[u32]| s.prepared.iter().all(|p| p.text == t);
        // A group's first comparison repeats nothing (the pair path); from its second on,
        // the repeated side is prepared.
        for r in refs {
            for (i, h) in hyps.into_iter().enumerate() {
                check(&mut s, h, r);
                if i > 0 {
                    assert!(holds(&s, r), "a batch prepares its reference");
                }
            }
        }
        for h in hyps {
            for (j, r) in refs.into_iter().enumerate() {
                check(&mut s, h, r);
                if j > 0 {
                    assert!(holds(&s, h), "a matrix row prepares its hypothesis");
                }
            }
        }
        for r in refs {
            for (i, h) in hyps.into_iter().enumerate() {
                check(&mut s, h, r);
                if i > 0 {
                    assert!(holds(&s, r), "back to a batch");
                }
            }
        }
        // Every table is whole again between comparisons.
        for p in &s.prepared {
            let mut plain = PreparedText::default();
            plain.prepare(&p.text, p.max_gap);
            let k = p.symbols.len();
            assert_eq!(&p.pairs[..k * k], &plain.pairs[..k * k]);
            assert_eq!(&p.types[..k], &plain.types[..k]);
            assert!(p.pairs[k * k..].iter().all(|&c| c == 0));
        }
    }

    #[test]
    fn scratch_reuse_keeps_tables_clean() {
        let mut s = SkipBigramScratch::new();
        s.prepare(&[1, 2, 1, 2], Some(1), true);
        let first = s.overlap(&[1, 2, 2]);
        s.prepare(&[5, 6], None, false);
        assert_eq!(s.overlap(&[6, 5]).hit, 0.0);
        s.prepare(&[1, 2, 1, 2], Some(1), true);
        assert_eq!(s.overlap(&[1, 2, 2]), first);
    }

    #[test]
    fn counts_of_pairs() {
        for len in 0..20 {
            for d in [Some(0), Some(1), Some(4), None] {
                let toks: Vec<u32> = (0..len as u32).collect();
                let c = skip_bigram_overlap(&toks, &toks, d, false);
                assert_eq!(c.hyp_total as usize, skip_bigram_count(len, d));
                assert_eq!(c.hit, c.hyp_total);
            }
        }
        assert_eq!(skip_bigram_count(4, Some(4)), 6);
        assert_eq!(skip_bigram_count(10, Some(1)), 9 + 8);
    }
}
