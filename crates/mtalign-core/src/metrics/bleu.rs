//! BLEU (Papineni et al. 2002) from per-sentence sufficient statistics, with the smoothings
//! of sacrebleu (`none`, `floor`, `add-k`, `exp`) and of nltk (`add1` = Lin & Och's BLEUS =
//! nltk's method2, and Chen & Cherry's methods 1-7 as nltk numbers them).
//!
//! A statistics row is `[hyp_len, ref_len, m_1..m_K, t_1..t_K, d_1..d_K]`: clipped matches
//! (clipping by the maximum count over the references), hypothesis n-gram totals, and nltk's
//! denominators `max(1, t)`. Rows add up, so corpus BLEU is the score of the column sums
//! (sacrebleu's way), and bootstrap resampling is a sum over resampled rows. `K` is
//! `max_order`, plus one for methods 5 and 7, which look one order further.
//!
//! Scores are on sacrebleu's 0-100 scale. The sacrebleu smoothings repeat sacrebleu's
//! floating-point operations in the same order, so scores are bit-identical to it.

use crate::choice::choice_enum;
use crate::kernels::ngram_clip::{fits, home, RefClipTable, PACK_BITS, PACK_ORDERS};
use crate::kernels::ngram_ids::NgramIds;
use crate::kernels::ngram_mean::NgramMean;
use crate::kernels::ngram_pair::{PairClip, BITS_MAX_LEN};
use crate::kernels::ngram_profile::{NgramProfiles, RowCounts};
use crate::kernels::ref_ngrams::{HypNgrams, RefNgrams};
use crate::metrics::metric::{statistics_of_sentences, with_scratch, Metric, Pair, Prepared};
use crate::text::docs::Docs;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};

/// The highest n-gram order BLEU accepts.
pub const MAX_ORDER: usize = 12;

/// How zero or low n-gram precisions are smoothed (names in [`Smooth::NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smooth {
    /// No smoothing: a zero precision makes BLEU 0 (sacrebleu's `none`).
    None,
    /// A zero match count becomes the smoothing value (sacrebleu's `floor`, default 0.1).
    Floor,
    /// The smoothing value added to matches and totals of orders >= 2 (sacrebleu's `add-k`,
    /// default 1).
    AddK,
    /// Exponential decay of the zero-match precisions (sacrebleu's `exp`, its default).
    Exp,
    /// Lin & Och (2004): add one to matches and totals for n >= 2 (nltk's method2).
    Add1,
    /// Chen & Cherry (2014) method 1..=7, as nltk implements them.
    Method(u8),
}

impl Smooth {
    /// Every smoothing's name, as [`Smooth::parse`] accepts it.
    pub const NAMES: [&'static str; 12] = [
        "none", "floor", "add-k", "exp", "add1", "method1", "method2", "method3", "method4",
        "method5", "method6", "method7",
    ];

    /// The smoothing named `name` (one of [`Smooth::NAMES`]); `Error::Config` otherwise.
    ///
    /// ```
    /// use mtalign_core::metrics::bleu::Smooth;
    /// assert_eq!(Smooth::parse("exp").unwrap(), Smooth::Exp);
    /// assert_eq!(Smooth::parse("method3").unwrap(), Smooth::Method(3));
    /// assert!(Smooth::parse("laplace").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Self::None,
            "floor" => Self::Floor,
            "add-k" => Self::AddK,
            "exp" => Self::Exp,
            "add1" => Self::Add1,
            _ => match name
                .strip_prefix("method")
                .and_then(|d| d.parse::<u8>().ok())
            {
                Some(k @ 1..=7) if name.len() == 7 => Self::Method(k),
                _ => {
                    return Err(Error::Config(format!(
                        "unknown smoothing '{name}' (choose from: {})",
                        Self::NAMES.join(", ")
                    )))
                }
            },
        })
    }

    /// The default of `smooth_value`: floor 0.1, add-k 1, method1's epsilon 0.1, the k of
    /// methods 4 and 7 (5), method6's alpha (5); other methods take no value.
    pub fn default_value(self) -> Option<f64> {
        match self {
            Self::Floor | Self::Method(1) => Some(0.1),
            Self::AddK => Some(1.0),
            Self::Method(4 | 6 | 7) => Some(5.0),
            _ => None,
        }
    }

    /// Whether the smoothing follows nltk's conventions (denominators `max(1, t)`).
    fn is_nltk(self) -> bool {
        matches!(self, Self::Add1 | Self::Method(_))
    }
}

choice_enum! {
    /// Which reference length enters the brevity penalty.
    pub enum RefLength, "ref_length" {
        /// The reference length closest to the hypothesis length, the shorter on ties.
        Closest => "closest",
        /// The shortest reference.
        Shortest => "shortest",
        /// The mean reference length.
        Average => "average",
    }
}

impl RefLength {
    fn pick(self, hyp_len: usize, ref_lens: impl Iterator<Item = usize>) -> f64 {
        match self {
            Self::Closest => ref_lens
                .min_by_key(|&r| (r.abs_diff(hyp_len), r))
                .unwrap_or(0) as f64,
            Self::Shortest => ref_lens.min().unwrap_or(0) as f64,
            Self::Average => {
                let (sum, n) = ref_lens.fold((0usize, 0usize), |(s, n), r| (s + r, n + 1));
                if n == 0 {
                    0.0
                } else {
                    sum as f64 / n as f64
                }
            }
        }
    }
}

/// BLEU's configuration: everything that changes a statistics row or a score. Build it with
/// [`BleuConfig::new`], which checks every option.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuConfig {
    /// The highest n-gram order (1..=[`MAX_ORDER`], 4 for BLEU-4).
    pub max_order: usize,
    /// The smoothing.
    pub smooth: Smooth,
    /// The smoothing's parameter (see [`Smooth::default_value`]); NaN when it takes none.
    pub value: f64,
    /// Which reference length enters the brevity penalty.
    pub ref_length: RefLength,
    /// Orders with no hypothesis n-gram are left out of the mean (sacrebleu's
    /// `effective_order`, on in its `sentence_bleu`).
    pub effective_order: bool,
}

impl BleuConfig {
    /// A checked configuration: `max_order` in 1..=[`MAX_ORDER`], `smooth` one of
    /// [`Smooth::NAMES`] with its parameter `value` (`None`: the smoothing's default; refused
    /// for smoothings without one), `ref_length` one of `closest`, `shortest`, `average`.
    ///
    /// ```
    /// use mtalign_core::metrics::bleu::BleuConfig;
    /// // sacrebleu's corpus_bleu (and, with effective order, its sentence_bleu).
    /// let bleu = BleuConfig::new(4, "exp", None, "closest", false)?;
    /// assert_eq!(bleu.width(), 2 + 3 * 4);
    /// assert!(BleuConfig::new(0, "exp", None, "closest", false).is_err());
    /// assert!(BleuConfig::new(4, "none", Some(0.1), "closest", false).is_err());
    /// # Ok::<(), mtalign_core::Error>(())
    /// ```
    pub fn new(
        max_order: usize,
        smooth: &str,
        value: Option<f64>,
        ref_length: &str,
        effective_order: bool,
    ) -> Result<Self> {
        if !(1..=MAX_ORDER).contains(&max_order) {
            return Err(Error::Config(format!(
                "max_order must be between 1 and {MAX_ORDER} (got {max_order})"
            )));
        }
        let smooth = Smooth::parse(smooth)?;
        let value = match (smooth.default_value(), value) {
            (None, Some(v)) => {
                return Err(Error::Config(format!(
                    "smoothing '{}' takes no smooth_value (got {v})",
                    Smooth::NAMES[Smooth::NAMES
                        .iter()
                        .position(|&n| Smooth::parse(n).ok() == Some(smooth))
                        .unwrap_or(0)]
                )))
            }
            (None, None) => f64::NAN,
            (Some(d), None) => d,
            (Some(_), Some(v)) if v.is_finite() && v > 0.0 => v,
            // sacrebleu accepts 0 for its own two (a zero precision then scores 0).
            (Some(_), Some(v)) if v == 0.0 && matches!(smooth, Smooth::Floor | Smooth::AddK) => 0.0,
            (Some(_), Some(v)) => {
                return Err(Error::Config(format!(
                    "smooth_value must be a finite number > 0 (>= 0 for floor and add-k) \
                     (got {v})"
                )))
            }
        };
        Ok(Self {
            max_order,
            smooth,
            value,
            ref_length: RefLength::parse(ref_length)?,
            effective_order,
        })
    }

    /// Orders counted: `max_order`, plus one for methods 5 and 7.
    pub fn orders(&self) -> usize {
        self.max_order + usize::from(matches!(self.smooth, Smooth::Method(5 | 7)))
    }

    /// Length of a statistics row.
    pub fn width(&self) -> usize {
        2 + 3 * self.orders()
    }

    /// A hypothesis's n-gram totals into `row`: per order its number of n-grams, and the same
    /// at least 1 (the smoothing's denominators).
    fn write_totals(&self, hyp_len: usize, row: &mut [f64]) {
        let k = self.orders();
        for n in 1..=k {
            let t = (hyp_len + 1).saturating_sub(n);
            row[1 + k + n] = t as f64;
            row[1 + 2 * k + n] = t.max(1) as f64;
        }
    }
}

/// Reusable buffers for the statistics of one hypothesis.
#[derive(Debug, Default)]
pub struct BleuScratch {
    ids: NgramIds,
    hyp_count: Vec<u32>,
    max_ref: Vec<u32>,
    ref_count: Vec<u32>,
    /// First id of each order's n-grams (ids are numbered order by order).
    order_start: Vec<u32>,
    /// Leave-one-out rows: the reference list's n-grams, each set's clipping count of
    /// each (set-major), and the hypothesis's n-grams among them.
    loo: RefNgrams,
    loo_max: Vec<u32>,
    loo_hyp: HypNgrams,
    /// The reference set's packed n-grams with their clipping counts, kept while the
    /// references stay the same (the systems of one segment are consecutive in a batch).
    clip: RefClipTable,
    /// One reference's numbered n-grams (a pair whose reference no other pair shares).
    pair: PairClip,
    /// Whether the previous pair's references were those of the pair before it.
    sharing: bool,
    /// A hypothesis's distinct packed n-gram keys (see [`BleuScratch::packed_hits`]),
    /// their table slots, and the table: key and index into `distinct` per slot.
    distinct: Vec<u64>,
    slot_of: Vec<u32>,
    slot_keys: Vec<u64>,
    slot_ids: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl BleuScratch {
    /// Writes the statistics row of `hyp` against `refs` into `row` (`cfg.width()` long).
    pub fn stats<'a>(
        &mut self,
        cfg: &BleuConfig,
        hyp: &[u32],
        refs: impl Iterator<Item = &'a [u32]> + Clone,
        row: &mut [f64],
    ) {
        let k = cfg.orders();
        row.fill(0.0);
        row[0] = hyp.len() as f64;
        row[1] = cfg
            .ref_length
            .pick(hyp.len(), refs.clone().map(<[u32]>::len));
        cfg.write_totals(hyp.len(), row);
        if hyp.is_empty() {
            return;
        }
        // One reference: PairClip (bit sets up to 128 tokens, numbered n-grams up to 255).
        let hyp_fits = fits(hyp);
        let mut only = refs.clone();
        let single = match (only.next(), only.next()) {
            (Some(r), None) if hyp_fits && PairClip::takes(r) => Some(r),
            _ => None,
        };
        // Bit sets read the reference once per pair and cost less than probing the
        // references' table even when other pairs share the reference (the WMT-shaped
        // corpus of benches/, a reference per ~6 systems, threads=1: 1.48x less time).
        if let Some(r) = single.filter(|r| r.len() <= BITS_MAX_LEN) {
            self.pair_hits(hyp, r, k, row);
            return;
        }
        if k <= PACK_ORDERS && hyp_fits {
            // The references' table pays for itself when other pairs share the references:
            // the table already holds them, or the pairs before shared theirs (the systems
            // of one segment), or this set repeats the previous pair's. A single reference
            // too long for PairClip costs what the hypothesis's table would
            // (a decoder's 1,024 ids: a third less time than probing the hypothesis's table).
            let held = self.clip.holds(refs.clone(), k);
            let long_single = single.is_none() && refs.clone().nth(1).is_none();
            let build = !held && (self.sharing || long_single || self.clip.is_last(refs.clone()));
            self.sharing = held;
            if held || build {
                if self.clip.prepare(refs.clone(), k) {
                    let mut hits = [0u32; PACK_ORDERS + 1];
                    self.clip.matches(hyp, &mut hits);
                    for n in 1..=k {
                        row[1 + n] = f64::from(hits[n]);
                    }
                    return;
                }
            } else if let Some(r) = single {
                self.clip.remember(refs);
                self.pair_hits(hyp, r, k, row);
                return;
            } else if refs.clone().all(fits) {
                self.clip.remember(refs.clone());
                self.packed_hits(hyp, refs, k, row);
                return;
            }
        }
        if let Some(r) = single {
            self.pair_hits(hyp, r, k, row);
            return;
        }
        self.count_hyp(hyp, k);
        self.max_ref.clear();
        self.max_ref.resize(self.hyp_count.len(), 0);
        for r in refs {
            self.count_ref(r, k);
            for (m, c) in self.max_ref.iter_mut().zip(self.ref_count.iter_mut()) {
                *m = (*m).max(*c);
                *c = 0;
            }
        }
        self.hits(k, row);
    }

    /// Clipped matches per order against one reference ([`PairClip`]), into `row`.
    fn pair_hits(&mut self, hyp: &[u32], reference: &[u32], k: usize, row: &mut [f64]) {
        let mut hits = [0u32; MAX_ORDER + 2];
        self.pair.matches(hyp, reference, k, &mut hits);
        for n in 1..=k {
            row[1 + n] = f64::from(hits[n]);
        }
    }

    /// Clipped matches per order with packed n-gram keys (orders ≤ [`PACK_ORDERS`], ids
    /// below 2^15) for a reference set met once: the order − 1 in the top two bits, then the
    /// tokens, 15 bits each, so equal keys are equal n-grams of one order. The hypothesis's
    /// keys go in an open addressing table sized for them (at most half full); each
    /// reference's n-grams are looked up, a start's longer n-grams only while its shorter
    /// ones were found. Cheaper than building the references' table when there are several
    /// references and no other hypothesis will use it.
    fn packed_hits<'a>(
        &mut self,
        hyp: &[u32],
        refs: impl Iterator<Item = &'a [u32]>,
        k: usize,
        row: &mut [f64],
    ) {
        let cap = (2 * k * hyp.len()).next_power_of_two().max(64);
        if self.slot_ids.len() < cap {
            self.slot_ids = vec![EMPTY; cap];
            self.slot_keys = vec![0; cap];
        }
        let mask = self.slot_ids.len() - 1;
        let shift = 64 - self.slot_ids.len().trailing_zeros();
        self.distinct.clear();
        self.hyp_count.clear();
        self.slot_of.clear();
        for start in 0..hyp.len() {
            let mut key = 0u64;
            for (n, &t) in hyp[start..].iter().take(k).enumerate() {
                key = (key << PACK_BITS) | u64::from(t);
                let full = ((n as u64) << 62) | key;
                let mut s = home(full, shift);
                loop {
                    let id = self.slot_ids[s];
                    if id == EMPTY {
                        self.slot_ids[s] = self.distinct.len() as u32;
                        self.slot_keys[s] = full;
                        self.slot_of.push(s as u32);
                        self.distinct.push(full);
                        self.hyp_count.push(1);
                        break;
                    }
                    if self.slot_keys[s] == full {
                        self.hyp_count[id as usize] += 1;
                        break;
                    }
                    s = (s + 1) & mask;
                }
            }
        }
        let distinct = self.distinct.len();
        self.max_ref.clear();
        self.max_ref.resize(distinct, 0);
        self.ref_count.clear();
        self.ref_count.resize(distinct, 0);
        for r in refs {
            for start in 0..r.len() {
                let mut key = 0u64;
                for (n, &t) in r[start..].iter().take(k).enumerate() {
                    key = (key << PACK_BITS) | u64::from(t);
                    let full = ((n as u64) << 62) | key;
                    let mut s = home(full, shift);
                    let id = loop {
                        let id = self.slot_ids[s];
                        if id == EMPTY || self.slot_keys[s] == full {
                            break id;
                        }
                        s = (s + 1) & mask;
                    };
                    if id == EMPTY {
                        break;
                    }
                    self.ref_count[id as usize] += 1;
                }
            }
            for (m, c) in self.max_ref.iter_mut().zip(self.ref_count.iter_mut()) {
                *m = (*m).max(*c);
                *c = 0;
            }
        }
        let mut hits = [0u32; PACK_ORDERS + 1];
        for ((&key, &h), &m) in self.distinct.iter().zip(&self.hyp_count).zip(&self.max_ref) {
            hits[(key >> 62) as usize + 1] += h.min(m);
        }
        for n in 1..=k {
            row[1 + n] = f64::from(hits[n]);
        }
        for &s in &self.slot_of {
            self.slot_ids[s as usize] = EMPTY;
        }
    }

    /// The hypothesis's distinct n-grams (ids numbered order by order) and their counts.
    fn count_hyp(&mut self, hyp: &[u32], k: usize) {
        self.ids.clear();
        self.hyp_count.clear();
        self.order_start.clear();
        self.order_start.resize(k + 2, 0);
        let (counts, starts) = (&mut self.hyp_count, &mut self.order_start);
        let mut last_order = 0;
        self.ids.insert_all(hyp, k, |n, id| {
            if n != last_order {
                starts[n] = counts.len() as u32;
                last_order = n;
            }
            if id as usize == counts.len() {
                counts.push(0);
            }
            counts[id as usize] += 1;
        });
        let distinct = self.hyp_count.len();
        for n in last_order + 1..=k + 1 {
            self.order_start[n] = distinct as u32;
        }
        self.ref_count.clear();
        self.ref_count.resize(distinct, 0);
    }

    /// Adds the counts of the hypothesis's n-grams in `r` to `ref_count`.
    fn count_ref(&mut self, r: &[u32], k: usize) {
        let ref_count = &mut self.ref_count;
        self.ids
            .lookup_all(r, k, |_, id| ref_count[id as usize] += 1);
    }

    /// Clipped matches per order from `hyp_count` and `max_ref`, into `row`.
    fn hits(&self, k: usize, row: &mut [f64]) {
        for n in 1..=k {
            let (a, b) = (
                self.order_start[n] as usize,
                self.order_start[n + 1] as usize,
            );
            let hit: u32 = (a..b)
                .map(|id| self.hyp_count[id].min(self.max_ref[id]))
                .sum();
            row[1 + n] = hit as f64;
        }
    }

    /// [`Metric::leave_one_out_rows`]: the references' n-grams counted once per reference
    /// list (an n-best list's candidates share it), set `l`'s clipping count of each the
    /// maximum over the other references, and the hypothesis read once (integers: the same
    /// numbers as [`BleuScratch::stats`] of the set; an n-gram in no reference clips to 0).
    fn leave_one_out(&mut self, cfg: &BleuConfig, hyp: &[u32], refs: &[&[u32]], rows: &mut [f64]) {
        let k = cfg.orders();
        let width = cfg.width();
        let r = refs.len();
        for (l, row) in rows.chunks_exact_mut(width).enumerate() {
            row.fill(0.0);
            row[0] = hyp.len() as f64;
            let set = refs.iter().enumerate().filter(|&(b, _)| b != l);
            row[1] = cfg.ref_length.pick(hyp.len(), set.map(|(_, t)| t.len()));
            cfg.write_totals(hyp.len(), row);
        }
        if hyp.is_empty() {
            return;
        }
        if self.loo.prepare(refs, k) {
            let len = self.loo.len();
            self.loo_max.clear();
            self.loo_max.resize(r * len, 0);
            for l in 0..r {
                let max = &mut self.loo_max[l * len..(l + 1) * len];
                for j in (0..r).filter(|&j| j != l) {
                    for (m, &c) in max.iter_mut().zip(self.loo.counts(j)) {
                        *m = (*m).max(c);
                    }
                }
            }
        }
        self.loo.hyp_counts(hyp, &mut self.loo_hyp);
        let len = self.loo.len();
        for (l, row) in rows.chunks_exact_mut(width).enumerate() {
            let max = &self.loo_max[l * len..(l + 1) * len];
            let mut hits = [0u32; MAX_ORDER + 1];
            for (&id, &c) in self.loo_hyp.ids.iter().zip(&self.loo_hyp.counts) {
                hits[self.loo.order(id)] += c.min(max[id as usize]);
            }
            for n in 1..=k {
                row[1 + n] = f64::from(hits[n]);
            }
        }
    }
}

/// BLEU's statistics row (see [`BleuConfig::width`]); scores come from a row or a sum of rows.
impl Metric for BleuConfig {
    type Scratch = BleuScratch;
    type Context = ();
    const PAIR_LOCAL_IDS: bool = true;
    /// Always numbered within the pair: packed keys need ids below 2^15, and they hash
    /// better when dense (numbered in order of appearance) than as a tokenizer's ids
    /// (`examples/profile_ids.rs`, 512 pairs of 1,024 ids from 32,000, one thread: 22 ms of
    /// CPU time numbered, 28 ms as they are).
    const DIRECT_IDS_BELOW: u32 = 0;
    const TASK_PAIRS: usize = 64;

    fn width(&self) -> usize {
        BleuConfig::width(self)
    }

    /// Clipped matches are symmetric for one reference; lengths and totals are the other
    /// side's.
    fn has_mirror(&self) -> bool {
        true
    }

    /// Each text's n-gram counts once; a cell is then one pass over the column's distinct
    /// n-grams against the row's dense counts.
    fn prepare_matrix(&self, docs: &Docs<'_>, texts: &[u32]) -> Option<Prepared> {
        let tokens = texts.iter().map(|&t| docs.tokens(t as usize));
        let lens = tokens.clone().map(<[u32]>::len).collect();
        let profiles = NgramProfiles::build(tokens, self.orders());
        Some(Box::new(BleuBlock { profiles, lens }))
    }

    fn prepared_row(&self, prepared: &Prepared, row: usize, cols: &[u32], cells: &mut [f64]) {
        let Some(block) = prepared.downcast_ref::<BleuBlock>() else {
            unreachable!("a BLEU block")
        };
        let k = self.orders();
        let hyp_len = block.lens[row];
        with_scratch(|counts: &mut RowCounts| {
            counts.set_row(&block.profiles, row);
            let mut hits = [0u32; MAX_ORDER + 2];
            for (&c, out) in cols.iter().zip(cells.chunks_exact_mut(self.width())) {
                out.fill(0.0);
                out[0] = hyp_len as f64;
                out[1] = self
                    .ref_length
                    .pick(hyp_len, std::iter::once(block.lens[c as usize]));
                counts.matches(&block.profiles, c as usize, &mut hits[..k + 1]);
                for n in 1..=k {
                    out[1 + n] = f64::from(hits[n]);
                }
                self.write_totals(hyp_len, out);
            }
        });
    }

    fn mirror(&self, a: &[u32], b: &[u32], row: &[f64], out: &mut [f64]) {
        let k = self.orders();
        out[0] = b.len() as f64;
        out[1] = self.ref_length.pick(b.len(), std::iter::once(a.len()));
        out[2..2 + k].copy_from_slice(&row[2..2 + k]);
        self.write_totals(b.len(), out);
    }

    fn pair_statistics(&self, _: &(), s: &mut BleuScratch, pair: Pair<'_>, row: &mut [f64]) {
        s.stats(self, pair.hyp(), pair.refs(), row);
    }

    fn has_leave_one_out(&self) -> bool {
        true
    }

    fn leave_one_out_rows(
        &self,
        s: &mut BleuScratch,
        hyp: &[u32],
        refs: &[&[u32]],
        rows: &mut [f64],
    ) {
        s.leave_one_out(self, hyp, refs, rows);
    }
}

/// Reference aggregation (Vamvas & Sennrich 2024): the row of each hypothesis `hyps[i]`
/// against the weighted mean of the n-gram counts of the `samples` (`weights` summing to
/// 1): matches are Σ min(hypothesis count, mean count) per order and the reference length
/// is the mean sample length (whatever `ref_length` says). Linear in the number of
/// samples; an approximation of the mean sentence BLEU (see `Metric.expected_scores`).
pub fn aggregate_rows(
    cfg: &BleuConfig,
    docs: &Docs<'_>,
    hyps: &[u32],
    samples: &[u32],
    weights: &[f64],
) -> Vec<f64> {
    let k = cfg.orders();
    let mut mean = NgramMean::new(k);
    for (&s, &wt) in samples.iter().zip(weights) {
        mean.add(docs.tokens(s as usize), wt);
    }
    let width = cfg.width();
    let mut out = vec![0.0; hyps.len() * width];
    let mut hits = vec![0.0; k + 1];
    for (row, &h) in out.chunks_exact_mut(width).zip(hyps) {
        let hyp = docs.tokens(h as usize);
        mean.matches(hyp, &mut hits);
        row[0] = hyp.len() as f64;
        row[1] = mean.length();
        row[2..2 + k].copy_from_slice(&hits[1..=k]);
        cfg.write_totals(hyp.len(), row);
    }
    out
}

/// A matrix block prepared for BLEU: n-gram profiles and lengths of its texts.
struct BleuBlock {
    profiles: NgramProfiles,
    lens: Vec<usize>,
}

/// Statistics rows of every hypothesis (row-major, `cfg.width()` per hypothesis).
pub fn stats_batch(
    cfg: &BleuConfig,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_of_sentences(cfg, sentences, hyps, ref_sets)
}

/// A BLEU score with the figures behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuDetail {
    /// 0-100.
    pub score: f64,
    /// The brevity penalty (0-1).
    pub bp: f64,
    /// Per order, the (smoothed) precision used, in percent.
    pub precisions: Vec<f64>,
    /// Hypothesis length (tokens).
    pub sys_len: f64,
    /// The reference length that entered the brevity penalty.
    pub ref_len: f64,
}

/// sacrebleu's `my_log`: log, with log(0) a large negative number.
fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9999999999.0
    } else {
        x.ln()
    }
}

/// The score of a statistics row (one sentence) or of a sum of rows (a corpus).
pub fn score(cfg: &BleuConfig, row: &[f64]) -> BleuDetail {
    let f = figures(cfg, row);
    BleuDetail {
        score: f.score,
        bp: f.bp,
        precisions: f.precisions[..cfg.max_order].to_vec(),
        sys_len: row[0],
        ref_len: row[1],
    }
}

/// [`score`]`(cfg, row).score` without building the detail (no allocation: a batch's
/// sentence scores are one call per row).
pub fn sentence_score(cfg: &BleuConfig, row: &[f64]) -> f64 {
    figures(cfg, row).score
}

/// What [`score`] computes, on the stack: the precisions of orders `1..=max_order`.
pub(crate) struct Figures {
    pub(crate) score: f64,
    pub(crate) bp: f64,
    pub(crate) precisions: [f64; MAX_ORDER + 1],
}

pub(crate) fn figures(cfg: &BleuConfig, row: &[f64]) -> Figures {
    if cfg.smooth.is_nltk() {
        score_nltk(cfg, row)
    } else {
        score_sacrebleu(cfg, row)
    }
}

/// sacrebleu's `BLEU.compute_bleu`, operation for operation.
fn score_sacrebleu(cfg: &BleuConfig, row: &[f64]) -> Figures {
    let (k, big_n) = (cfg.orders(), cfg.max_order);
    let (sys_len, ref_len) = (row[0], row[1]);
    let matches = &row[2..2 + k];
    let totals = &row[2 + k..2 + 2 * k];
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        };
    }
    let mut detail = Figures {
        score: 0.0,
        bp,
        precisions: [0.0; MAX_ORDER + 1],
    };
    if matches[..big_n].iter().all(|&m| m == 0.0) {
        return detail;
    }
    let precisions = &mut detail.precisions;
    let mut smooth_mteval = 1.0;
    let mut eff_order = big_n;
    for n in 1..=big_n {
        let (mut c, mut t) = (matches[n - 1], totals[n - 1]);
        if cfg.smooth == Smooth::AddK && n > 1 {
            c += cfg.value;
            t += cfg.value;
        }
        if t == 0.0 {
            break;
        }
        if cfg.effective_order {
            eff_order = n;
        }
        if c == 0.0 {
            match cfg.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * t);
                }
                Smooth::Floor => precisions[n - 1] = 100.0 * cfg.value / t,
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * c / t;
        }
    }
    let sum = precisions[..eff_order]
        .iter()
        .fold(0.0, |acc, &p| acc + my_log(p));
    detail.score = bp * (sum / eff_order as f64).exp();
    detail
}

/// nltk's `corpus_bleu` with its smoothing functions (uniform weights 1/max_order).
fn score_nltk(cfg: &BleuConfig, row: &[f64]) -> Figures {
    let (k, big_n) = (cfg.orders(), cfg.max_order);
    let (hyp_len, ref_len) = (row[0], row[1]);
    let num = &row[2..2 + k];
    let totals = &row[2 + k..2 + 2 * k];
    let den = &row[2 + 2 * k..2 + 3 * k];
    let bp = if hyp_len > ref_len {
        1.0
    } else if hyp_len == 0.0 {
        0.0
    } else {
        (1.0 - ref_len / hyp_len).exp()
    };
    let mut detail = Figures {
        score: 0.0,
        bp,
        precisions: [0.0; MAX_ORDER + 1],
    };
    if num[0] == 0.0 {
        return detail;
    }
    // k ≤ MAX_ORDER + 1 orders (methods 5 and 7 look one further).
    let mut raw = [0.0; MAX_ORDER + 1];
    for i in 0..k {
        raw[i] = num[i] / den[i];
    }
    let mut p_all = raw;
    let p = &mut p_all[..big_n];
    let v = cfg.value;
    match cfg.smooth {
        Smooth::Add1 | Smooth::Method(2) => {
            for i in 1..big_n {
                p[i] = (num[i] + 1.0) / (den[i] + 1.0);
            }
        }
        Smooth::Method(1) => {
            for i in 0..big_n {
                if num[i] == 0.0 {
                    p[i] = (num[i] + v) / den[i];
                }
            }
        }
        Smooth::Method(3) => {
            let mut inc = 1;
            for i in 0..big_n {
                if num[i] == 0.0 {
                    p[i] = 1.0 / (2f64.powi(inc) * den[i]);
                    inc += 1;
                }
            }
        }
        Smooth::Method(4) => method4(p, num, den, hyp_len, v),
        Smooth::Method(5) => method5(p, raw[big_n]),
        Smooth::Method(6) => {
            for i in 2..big_n {
                let pi0 = if p[i - 2] == 0.0 {
                    0.0
                } else {
                    p[i - 1] * p[i - 1] / p[i - 2]
                };
                p[i] = (num[i] + v * pi0) / (totals[i] + v);
            }
        }
        Smooth::Method(7) => {
            method4(p, num, den, hyp_len, v);
            method5(p, raw[big_n]);
        }
        _ => {}
    }
    let used = if cfg.effective_order {
        totals[..big_n]
            .iter()
            .take_while(|&&t| t > 0.0)
            .count()
            .max(1)
    } else {
        big_n
    };
    let w = 1.0 / used as f64;
    let s: f64 = p[..used]
        .iter()
        .filter(|&&x| x > 0.0)
        .map(|&x| w * x.ln())
        .sum();
    detail.score = 100.0 * bp * s.exp();
    for (out, &x) in detail.precisions.iter_mut().zip(p.iter()) {
        *out = 100.0 * x;
    }
    detail
}

fn method4(p: &mut [f64], num: &[f64], den: &[f64], hyp_len: f64, k: f64) {
    let mut inc = 1;
    for i in 0..p.len() {
        if num[i] == 0.0 && hyp_len > 1.0 {
            let numerator = 1.0 / (2f64.powi(inc) * k / hyp_len.ln());
            p[i] = numerator / den[i];
            inc += 1;
        }
    }
}

/// Averages each precision with its neighbours: (m[n-1] + p[n] + p[n+1]) / 3, where m is
/// the smoothed previous value (m[0] = p[1] + 1) and p[N+1] the raw next order.
fn method5(p: &mut [f64], next_order: f64) {
    let mut orig = [0.0; MAX_ORDER + 1];
    orig[..p.len()].copy_from_slice(p);
    orig[p.len()] = next_order;
    let mut prev = p[0] + 1.0;
    for i in 0..p.len() {
        p[i] = (prev + orig[i] + orig[i + 1]) / 3.0;
        prev = p[i];
    }
}

/// Column sums of row-major statistics (the corpus row).
pub fn sum_rows(stats: &[f64], width: usize) -> Vec<f64> {
    let mut total = vec![0.0; width];
    for row in stats.chunks_exact(width) {
        for (t, x) in total.iter_mut().zip(row) {
            *t += x;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize, smooth: &str) -> BleuConfig {
        BleuConfig::new(n, smooth, None, "closest", false).unwrap()
    }

    fn row(c: &BleuConfig, hyp: &[u32], refs: &[&[u32]]) -> Vec<f64> {
        let mut out = vec![0.0; c.width()];
        BleuScratch::default().stats(c, hyp, refs.iter().copied(), &mut out);
        out
    }

    /// Clipped matches per order by counting n-grams as vectors: the oracle.
    fn naive_hits(hyp: &[u32], refs: &[Vec<u32>], k: usize) -> Vec<f64> {
        use std::collections::BTreeMap;
        let counts = |t: &[u32], n: usize| {
            let mut m = BTreeMap::<Vec<u32>, u32>::new();
            for w in t.windows(n) {
                *m.entry(w.to_vec()).or_default() += 1;
            }
            m
        };
        (1..=k)
            .map(|n| {
                let per_ref: Vec<_> = refs.iter().map(|r| counts(r, n)).collect();
                counts(hyp, n)
                    .iter()
                    .map(|(g, &h)| {
                        let m = per_ref.iter().map(|c| c.get(g).copied().unwrap_or(0)).max();
                        h.min(m.unwrap_or(0))
                    })
                    .sum::<u32>() as f64
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// Rows by packed keys or, for one reference, by numbered n-grams (ids below 2^15)
        /// equal rows by hashed n-gram ids (the same texts with every id moved past 2^15)
        /// and the counting oracle; orders above 4 take numbered n-grams or hashed ids.
        #[test]
        fn packed_keys_equal_hashed_ids_and_counting(
            hyp in proptest::collection::vec(0u32..5, 0..30),
            refs in proptest::collection::vec(proptest::collection::vec(0u32..5, 0..30), 1..4),
            k in 1usize..=6,
            high in proptest::bool::ANY,
        ) {
            let c = cfg(k, "none");
            // Ids near the top of the packed range, or small ones.
            let base = if high { (1 << PACK_BITS) - 5 } else { 0 };
            let shift = |t: &[u32], by: u32| -> Vec<u32> { t.iter().map(|&x| x + by).collect() };
            let (h, rs): (Vec<u32>, Vec<Vec<u32>>) =
                (shift(&hyp, base), refs.iter().map(|r| shift(r, base)).collect());
            let packed = row(&c, &h, &rs.iter().map(Vec::as_slice).collect::<Vec<_>>());
            let far = 1 << PACK_BITS;
            let (h2, rs2): (Vec<u32>, Vec<Vec<u32>>) =
                (shift(&hyp, far), refs.iter().map(|r| shift(r, far)).collect());
            let hashed = row(&c, &h2, &rs2.iter().map(Vec::as_slice).collect::<Vec<_>>());
            proptest::prop_assert_eq!(&packed, &hashed);
            // The same row from a scratch that has just scored another pair.
            let mut sc = BleuScratch::default();
            let mut out = vec![0.0; c.width()];
            sc.stats(&c, &rs[0], [h.as_slice()].into_iter(), &mut out);
            sc.stats(&c, &h, rs.iter().map(Vec::as_slice), &mut out);
            proptest::prop_assert_eq!(&out, &packed);
            if !hyp.is_empty() {
                proptest::prop_assert_eq!(&packed[2..2 + k], &naive_hits(&hyp, &refs, k)[..]);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// A single reference of any length (bit sets of either width up to 128 tokens,
        /// numbered n-grams up to 255, the references' table beyond) gives the row of hashed
        /// n-gram ids (the same texts with every id moved past 2^15) and the counting
        /// oracle's matches, whatever the order (methods 5 and 7 count one order more).
        #[test]
        fn single_references_of_every_length_equal_hashed_ids(
            hyp in proptest::collection::vec(0u32..6, 1..300),
            reference in proptest::collection::vec(0u32..6, 1..300),
            k in 1usize..=MAX_ORDER,
            smooth in 0usize..Smooth::NAMES.len(),
        ) {
            let c = cfg(k, Smooth::NAMES[smooth]);
            let far = |t: &[u32]| -> Vec<u32> { t.iter().map(|&x| x + (1 << PACK_BITS)).collect() };
            let direct = row(&c, &hyp, &[&reference]);
            let hashed = row(&c, &far(&hyp), &[&far(&reference)]);
            proptest::prop_assert_eq!(&direct, &hashed);
            let kk = c.orders();
            proptest::prop_assert_eq!(
                &direct[2..2 + kk],
                &naive_hits(&hyp, std::slice::from_ref(&reference), kk)[..]
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// One scratch scoring a run of pairs whose reference sets repeat (consecutively, as
        /// the systems of a segment do, and after other sets) gives each pair the row of a
        /// fresh scratch, and the counting oracle's matches.
        #[test]
        fn shared_reference_sets_equal_fresh_rows(
            sets in proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(0u32..6, 0..25), 1..4),
                1..4),
            hyps in proptest::collection::vec(
                (0usize..4, proptest::collection::vec(0u32..6, 0..25)), 1..16),
            k in 1usize..=4,
            smooth in 0usize..Smooth::NAMES.len(),
        ) {
            let c = cfg(k, Smooth::NAMES[smooth]);
            let mut shared = BleuScratch::default();
            let mut out = vec![0.0; c.width()];
            for (which, hyp) in &hyps {
                let refs = &sets[which % sets.len()];
                let fresh = row(&c, hyp, &refs.iter().map(Vec::as_slice).collect::<Vec<_>>());
                shared.stats(&c, hyp, refs.iter().map(Vec::as_slice), &mut out);
                proptest::prop_assert_eq!(&out, &fresh);
                if !hyp.is_empty() {
                    let kk = c.orders();
                    proptest::prop_assert_eq!(&out[2..2 + kk], &naive_hits(hyp, refs, kk)[..]);
                }
            }
        }
    }

    #[test]
    fn multi_reference_clipping_uses_the_max_count() {
        // hyp: the the the cat ; refs: "the cat the" and "the the mat"
        let c = cfg(2, "none");
        let r = row(&c, &[0, 0, 0, 1], &[&[0, 1, 0], &[0, 0, 2]]);
        // unigrams: the -> min(3, max(2, 2)) = 2, cat -> 1 ; bigrams: "the the" 1, "the cat" 1
        assert_eq!(r, [4.0, 3.0, 3.0, 2.0, 4.0, 3.0, 4.0, 3.0]);
    }

    #[test]
    fn closest_reference_length_prefers_the_shorter_on_ties() {
        let c = cfg(1, "none");
        assert_eq!(row(&c, &[0, 0, 0], &[&[1; 4], &[1; 2]])[1], 2.0);
        let c = BleuConfig::new(1, "none", None, "average", false).unwrap();
        assert_eq!(row(&c, &[0], &[&[1; 4], &[1; 1]])[1], 2.5);
    }

    #[test]
    fn perfect_match_scores_100() {
        // Methods 5 and 7 average with p_0 + 1 = 2, so they exceed 100 (as in nltk).
        for s in Smooth::NAMES
            .iter()
            .filter(|s| !s.ends_with('5') && !s.ends_with('7'))
        {
            let c = cfg(4, s);
            let r = row(&c, &[1, 2, 3, 4, 5], &[&[1, 2, 3, 4, 5]]);
            assert!((score(&c, &r).score - 100.0).abs() < 1e-9, "{s}");
        }
    }

    #[test]
    fn empty_hypothesis_scores_zero() {
        for s in Smooth::NAMES {
            let c = cfg(4, s);
            let r = row(&c, &[], &[&[1, 2]]);
            assert_eq!(score(&c, &r).score, 0.0, "{s}");
        }
    }

    #[test]
    fn bad_configuration() {
        assert!(BleuConfig::new(0, "none", None, "closest", false).is_err());
        assert!(BleuConfig::new(13, "none", None, "closest", false).is_err());
        assert!(BleuConfig::new(4, "method8", None, "closest", false).is_err());
        assert!(BleuConfig::new(4, "exp", Some(1.0), "closest", false).is_err());
        assert!(BleuConfig::new(4, "floor", Some(-1.0), "closest", false).is_err());
        assert!(BleuConfig::new(4, "floor", Some(0.0), "closest", false).is_ok());
        assert!(BleuConfig::new(4, "add-k", Some(0.0), "closest", false).is_ok());
        assert!(BleuConfig::new(4, "method1", Some(0.0), "closest", false).is_err());
        assert!(BleuConfig::new(4, "none", None, "longest", false).is_err());
    }
}

/// BLEU's contract: options, encoding, columns and figures.
mod native {
    use super::{aggregate_rows, score, sentence_score, sum_rows, BleuConfig, RefLength, Smooth};
    use crate::metrics::contract::{numbered, CellScore, Configured, Contract, OneResult};
    use crate::options::{
        DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_NO, TOKENIZE_13A,
    };
    use crate::text::docs::Docs;
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::Tokenizer;
    use crate::Result;

    impl Contract for BleuConfig {
        const NAME: &'static str = "bleu";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "max_order",
                Kind::Int,
                D::Int(4),
                "the longest n-gram, 1 to 12",
            ),
            OptionSpec::new("smooth", Kind::Str, D::Str("exp"), "the smoothing")
                .choices(&Smooth::NAMES),
            OptionSpec::new(
                "smooth_value",
                Kind::Float,
                D::None,
                "the smoothing's parameter (None: its default)",
            ),
            OptionSpec::new(
                "ref_length",
                Kind::Str,
                D::Str("closest"),
                "the brevity penalty's reference length",
            )
            .choices(RefLength::NAMES),
            OptionSpec::new(
                "effective_order",
                Kind::Bool,
                D::Bool(false),
                "stop at the last order the hypothesis has n-grams of",
            ),
            TOKENIZE_13A,
            LOWERCASE_NO,
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = BleuConfig::new(
                o.usize("max_order")?,
                o.str("smooth"),
                o.opt_f64("smooth_value"),
                o.str("ref_length"),
                o.bool("effective_order"),
            )?;
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![self.width()]
        }

        /// Lengths, then per order matches, n-grams and n-grams at least 1.
        fn columns(&self) -> Vec<String> {
            let k = self.orders();
            let mut c = vec!["sys_len".to_string(), "ref_len".to_string()];
            c.extend(numbered("matches", k));
            c.extend(numbered("totals", k));
            c.extend(numbered("denominators", k));
            c
        }

        fn fields(&self) -> Vec<String> {
            let n = self.max_order;
            let mut f = vec!["score".to_string(), "bp".to_string()];
            f.extend(numbered("precision", n));
            f.extend(["sys_len".to_string(), "ref_len".to_string()]);
            f.extend(numbered("counts", n));
            f.extend(numbered("totals", n));
            f
        }

        /// Corpus BLEU of the summed rows: score, bp, precisions, sys_len, ref_len, counts,
        /// totals (orders 1..=max_order).
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            let total = sum_rows(rows, self.width());
            let d = score(self, &total);
            let (k, n) = (self.orders(), self.max_order);
            let mut f = vec![d.score, d.bp];
            f.extend(d.precisions);
            f.extend([d.sys_len, d.ref_len]);
            f.extend_from_slice(&total[2..2 + n]);
            f.extend_from_slice(&total[2 + k..2 + k + n]);
            Some(f)
        }

        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            Some(Box::new(|row| sentence_score(self, row)))
        }

        /// One pair's BLEU is the corpus BLEU of its row: (that score, the row). The other
        /// figures are made from the row when the result is first asked for them: making
        /// them here costs a sentence_score call more than scoring.
        fn one_result(&self, row: Vec<f64>) -> OneResult {
            OneResult::ScoreAndRow(score(self, &row).score, row)
        }

        fn aggregates(&self) -> bool {
            true
        }

        fn aggregate_rows(&self, docs: &Docs<'_>, h: &[u32], s: &[u32], w: &[f64]) -> Vec<f64> {
            aggregate_rows(self, docs, h, s, w)
        }
    }
}
