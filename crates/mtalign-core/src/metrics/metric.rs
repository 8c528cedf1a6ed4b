//! The one contract every metric implements, and the one batch runner that drives it.
//!
//! A metric says how wide its statistics row is and how to fill the row of one sentence
//! pair (a hypothesis and its reference set); optionally, what it needs from the whole batch
//! first (NIST's information weights). [`statistics_batch`] owns everything else: reference
//! set and index checks, the parallel loop over pairs (in fixed-size tasks, so no result
//! depends on the thread count), per-thread scratch kept between pairs and between calls,
//! and running small batches inline on the calling thread. Scores are then a function of a
//! row (sentence level) or of summed rows or row means (corpus level), defined beside each
//! metric.

use crate::text::docs::Docs;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use rayon::prelude::*;
use std::any::{Any, TypeId};
use std::cell::RefCell;

/// One sentence pair as a metric sees it: a hypothesis and its reference set, as token ids
/// (and, for summary-level metrics, as lines).
#[derive(Clone, Copy)]
pub struct Pair<'a> {
    docs: &'a Docs<'a>,
    hyp: u32,
    refs: &'a [u32],
}

impl<'a> Pair<'a> {
    /// Hypothesis `hyp` (a text index into `docs`) against the texts `refs`.
    pub(crate) fn new(docs: &'a Docs<'a>, hyp: u32, refs: &'a [u32]) -> Self {
        Pair { docs, hyp, refs }
    }

    /// The hypothesis's tokens.
    pub fn hyp(&self) -> &'a [u32] {
        self.docs.tokens(self.hyp as usize)
    }

    /// The references' tokens, in the order given.
    pub fn refs(&self) -> impl Iterator<Item = &'a [u32]> + Clone + 'a {
        let docs = self.docs;
        self.refs.iter().map(move |&r| docs.tokens(r as usize))
    }

    /// The number of references.
    pub fn n_refs(&self) -> usize {
        self.refs.len()
    }

    /// Whether texts were split into lines (`rougeLsum` on multi-line texts).
    pub fn has_lines(&self) -> bool {
        self.docs.has_lines()
    }

    /// The hypothesis's lines, into `out`.
    pub fn hyp_lines(&self, out: &mut Vec<&'a [u32]>) {
        self.docs.lines_of(self.hyp as usize, out);
    }

    /// The lines of reference `k`, into `out`.
    pub fn ref_lines(&self, k: usize, out: &mut Vec<&'a [u32]>) {
        self.docs.lines_of(self.refs[k] as usize, out);
    }
}

/// What [`Metric::prepare_matrix`] keeps for a block (the metric downcasts its own type).
pub type Prepared = Box<dyn Any + Send + Sync>;

/// A metric: sufficient statistics per sentence pair.
pub trait Metric: Sync {
    /// Working memory of one thread, kept between pairs and between calls.
    type Scratch: Default + Send + 'static;
    /// What the metric needs from the whole batch before the first pair (`()` for most).
    type Context: Sync + Default;

    /// Pairs per parallel task: larger for cheap pairs, smaller for costly ones (at most:
    /// long sequences get fewer, see [`task_len`]).
    const TASK_PAIRS: usize = 32;

    /// Whether [`Metric::check_pair`] checks anything (the runner skips the pass if not).
    const CHECKS_PAIRS: bool = false;

    /// Whether this configuration's [`Metric::check_pair`] checks anything: the
    /// [`Metric::CHECKS_PAIRS`] of the type unless a metric checks only some configurations
    /// (ROUGE: only its variants whose time grows faster than the length, under a limit).
    fn checks_pairs(&self) -> bool {
        Self::CHECKS_PAIRS
    }

    /// Refuses a pair the metric cannot score within bounded time or memory (`Error::Input`
    /// saying why and what the limit is). Run on every pair, in order, before any work, so
    /// the first bad pair is the one named.
    fn check_pair(&self, _pair: Pair<'_>) -> Result<()> {
        Ok(())
    }

    /// [`Metric::check_pair`] of the pair of hypothesis `i` of a batch, the refusal naming
    /// it `hyps[i]` (a metric may name its references too, `refs[i][k]`).
    fn check_batch_pair(&self, pair: Pair<'_>, i: usize) -> Result<()> {
        self.check_pair(pair).map_err(|e| match e {
            Error::Input(m) => Error::Input(format!("hyps[{i}]: {m}")),
            other => other,
        })
    }

    /// Whether [`Metric::context`] reads `hyps` or `ref_sets` (matrices then build the flat
    /// batch's hypothesis and reference lists to give it the same input; otherwise it gets
    /// empty ones). A metric that overrides `context` and reads them must set this.
    const NEEDS_CONTEXT: bool = false;

    /// Whether rows see token ids only through their equality within the pair: no context,
    /// no look at the strings or at id values (sorting by id is fine when only integer
    /// counts come out). Such a metric can be encoded and scored chunk by chunk with ids
    /// local to each chunk ([`crate::metrics::chunked::statistics_of_texts`]), with rows
    /// bit-identical to one batch-wide vocabulary. Off by default: a metric that reads its
    /// context or `Docs::vocab` must leave it off.
    const PAIR_LOCAL_IDS: bool = false;

    /// For a [`Metric::PAIR_LOCAL_IDS`] metric given token ids
    /// ([`crate::metrics::ids::statistics_of_ids`]): a pair's ids are used as they are when
    /// all are below this bound (a power of two; 0: never), else numbered within the pair.
    /// A kernel with a faster path for small or dense ids (BLEU's packed n-gram keys)
    /// lowers it.
    const DIRECT_IDS_BELOW: u32 = crate::text::ids::DIRECT_LIMIT;

    /// Columns of one statistics row.
    fn width(&self) -> usize;

    /// Whether a row can come out unscored: NaN in its first column, for a pair the metric
    /// gave up on within its bounds (SIA's fast search past its grid limit). The runner then
    /// refuses the batch, naming the first such pair and [`Metric::unscored`]'s reason.
    const MAY_LEAVE_UNSCORED: bool = false;

    /// Why `pair`'s row came out unscored (only called when [`Metric::MAY_LEAVE_UNSCORED`]).
    fn unscored(&self, _pair: Pair<'_>) -> String {
        unreachable!("unscored called on a metric that scores every pair")
    }

    /// Whether [`Metric::mirror`] can give the row of (b, a) from the row of (a, b) for one
    /// reference each way (symmetric matrices then score each unordered pair once).
    fn has_mirror(&self) -> bool {
        false
    }

    /// The row of `b` scored against the single reference `a`, from `row`, the row of `a`
    /// against `b` (`pair`), bit-identical to computing it; only called when
    /// [`Metric::has_mirror`].
    fn mirror(&self, _a: &[u32], _b: &[u32], _row: &[f64], _out: &mut [f64]) {
        unreachable!("mirror called on a metric without one")
    }

    /// Matrices whose columns are single texts: work done once per block over its distinct
    /// texts `texts` (n-gram profiles, say) so that each cell is cheap. `None` (the
    /// default): every cell is scored with [`Metric::pair_statistics`].
    fn prepare_matrix(&self, _docs: &Docs<'_>, _texts: &[u32]) -> Option<Prepared> {
        None
    }

    /// Fills the cells of row text `row` against each text of `cols` (indices into the
    /// `texts` given to [`Metric::prepare_matrix`]), `width()` values each, exactly as
    /// [`Metric::pair_statistics`] would.
    fn prepared_row(&self, _prepared: &Prepared, _row: usize, _cols: &[u32], _cells: &mut [f64]) {
        unreachable!("prepared_row called on a metric without prepare_matrix")
    }

    /// [`Metric::mirror`] in a prepared block, where `a` and `b` are also the local text
    /// indices `a_local` and `b_local` (so lengths can be read, not recounted).
    #[allow(clippy::too_many_arguments)]
    fn prepared_mirror(
        &self,
        _prepared: &Prepared,
        _a_local: usize,
        _b_local: usize,
        a: &[u32],
        b: &[u32],
        row: &[f64],
        out: &mut [f64],
    ) {
        self.mirror(a, b, row, out)
    }

    /// Whether [`Metric::leave_one_out_rows`] is provided (ORANGE's jackknife then costs
    /// one pass over the references per hypothesis instead of one per set).
    fn has_leave_one_out(&self) -> bool {
        false
    }

    /// The rows of `hyp` against each leave-one-out set of `refs` (set `l`: every reference
    /// but `l`, in order), `width()` each into `rows` (`refs.len()` rows), bit-identical to
    /// [`Metric::pair_statistics`] of each set; only called when
    /// [`Metric::has_leave_one_out`] and for at least 2 references.
    fn leave_one_out_rows(
        &self,
        _scratch: &mut Self::Scratch,
        _hyp: &[u32],
        _refs: &[&[u32]],
        _rows: &mut [f64],
    ) {
        unreachable!("leave_one_out_rows called on a metric without it")
    }

    /// Computed once per batch, before any pair.
    fn context(&self, _docs: &Docs<'_>, _hyps: &[u32], _ref_sets: &RefSets) -> Self::Context {
        Self::Context::default()
    }

    /// Writes the statistics of one pair into `row` (`width()` long, zeroed).
    fn pair_statistics(
        &self,
        context: &Self::Context,
        scratch: &mut Self::Scratch,
        pair: Pair<'_>,
        row: &mut [f64],
    );
}

/// Batches at most this long run on the calling thread: handing pairs to a pool costs about
/// 30 µs, more than scoring a few dozen sentence pairs (measured with ROUGE-L on 15-word
/// pairs, 2 cores: 16 pairs inline 28 µs, 17 through the pool 57 µs, 64 through the pool
/// 170-210 µs against about 115 µs inline). The bindings use the same bound, so work they run
/// inline never reaches a pool here either.
pub const INLINE_PAIRS: usize = 64;

/// Tokens a parallel task may hold before it gets fewer than the metric's
/// [`Metric::TASK_PAIRS`] pairs; sentence pairs fill whole tasks. Without it 512 pairs of
/// 1,024 ids made 8 tasks of 64 pairs: no faster on 16 cores than on 8 (docs/scaling.md).
const TASK_TOKENS: usize = 1 << 13;

/// Pairs per parallel task of `M` for a batch of `n` pairs, pair `i` holding
/// `pair_tokens(i)` tokens (hypothesis and references; read for at most 64 pairs): the
/// metric's [`Metric::TASK_PAIRS`] for sentences, down to one for long sequences. No row
/// depends on it: each pair is scored alone.
pub fn task_len<M: Metric>(n: usize, pair_tokens: impl Fn(usize) -> usize) -> usize {
    task_pairs(M::TASK_PAIRS, typical_size(n, pair_tokens))
}

/// Pairs per task for pairs of about `pair_tokens` tokens, at most `most`.
fn task_pairs(most: usize, pair_tokens: usize) -> usize {
    (TASK_TOKENS / pair_tokens.max(1)).clamp(1, most)
}

/// The mean of `size(i)` over at most 64 evenly spaced `i` of `0..n`: the typical size of a
/// batch's pairs, read in constant time (0 for an empty batch).
fn typical_size(n: usize, size: impl Fn(usize) -> usize) -> usize {
    const SAMPLES: usize = 64;
    let k = n.min(SAMPLES);
    if k == 0 {
        return 0;
    }
    (0..k).map(|j| size(j * n / k)).sum::<usize>() / k
}

/// Statistics rows of hypotheses `hyps[i]` (text indices into `docs`) against the texts
/// `ref_sets.get(i)`: row-major, `metric.width()` per hypothesis. Runs on the current rayon
/// pool, or inline for small batches; the result never depends on the thread count.
///
/// ```
/// use mtalign_core::metrics::chrf::ChrfConfig;
/// use mtalign_core::metrics::metric::statistics_batch;
/// use mtalign_core::text::{docs::Docs, intern::encode_texts, refs::RefSets};
/// use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
///
/// let texts = ["the cat sat", "a cat sat", "the cat sat"]; // 2 hypotheses, 1 reference
/// let enc = encode_texts(&Tokenizer::new(TokenizerKind::Codepoint, false), &texts);
/// let docs = Docs::single_lines(&enc.sentences);
/// let mut refs = RefSets::new();
/// refs.push([2]);
/// refs.push([2]);
/// let chrf = ChrfConfig::new(6, 0, 2.0, false, false)?;
/// let rows = statistics_batch(&chrf, &docs, &[0, 1], &refs)?;
/// let scores: Vec<f64> = rows.chunks(chrf.width()).map(|r| chrf.score(r)).collect();
/// assert_eq!(scores[0], 100.0);
/// assert!(scores[1] < 100.0);
/// // Rows add up: the corpus score is the score of the summed rows.
/// let corpus: Vec<f64> = (0..chrf.width()).map(|c| rows[c] + rows[chrf.width() + c]).collect();
/// assert!(chrf.score(&corpus) > scores[1]);
/// // A hypothesis without a reference set is refused.
/// assert!(statistics_batch(&chrf, &docs, &[0, 1, 2], &refs).is_err());
/// # Ok::<(), mtalign_core::Error>(())
/// ```
pub fn statistics_batch<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    ref_sets.check(hyps.len())?;
    docs.check_indices(hyps, ref_sets)?;
    let pair = |i: usize| Pair {
        docs,
        hyp: hyps[i],
        refs: ref_sets.get(i),
    };
    if metric.checks_pairs() {
        for i in 0..hyps.len() {
            metric.check_batch_pair(pair(i), i)?;
        }
    }
    let context = metric.context(docs, hyps, ref_sets);
    let width = metric.width();
    let mut out = vec![0.0; hyps.len() * width];
    if width == 0 {
        return Ok(out);
    }
    // A Ctrl-C (or any cancellation) stops the batch between pairs.
    let cancel = interrupt::current();
    let fill = |i: usize, row: &mut [f64], scratch: &mut M::Scratch| {
        if !interrupt::is_set(&cancel) {
            metric.pair_statistics(&context, scratch, pair(i), row);
        }
    };
    if hyps.len() <= INLINE_PAIRS {
        with_scratch(|scratch: &mut M::Scratch| {
            for (i, row) in out.chunks_exact_mut(width).enumerate() {
                fill(i, row, scratch);
            }
        });
    } else {
        let tokens = |d: u32| docs.tokens(d as usize).len();
        let task = task_len::<M>(hyps.len(), |i| {
            tokens(hyps[i]) + ref_sets.get(i).iter().map(|&r| tokens(r)).sum::<usize>()
        });
        out.par_chunks_mut(width)
            .with_min_len(task)
            .enumerate()
            .for_each(|(i, row)| with_scratch(|scratch: &mut M::Scratch| fill(i, row, scratch)));
    }
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    refuse_unscored(metric, &out, pair)?;
    Ok(out)
}

/// The refusal of the first unscored row of `rows` (see [`Metric::MAY_LEAVE_UNSCORED`]),
/// naming its pair `hyps[i]`; `pair(i)` is pair i.
fn refuse_unscored<'a, M: Metric>(
    metric: &M,
    rows: &[f64],
    pair: impl Fn(usize) -> Pair<'a>,
) -> Result<()> {
    if !M::MAY_LEAVE_UNSCORED {
        return Ok(());
    }
    let width = metric.width().max(1);
    match rows.chunks(width).position(|r| r[0].is_nan()) {
        None => Ok(()),
        Some(i) => Err(Error::Input(format!(
            "hyps[{i}]: {}",
            metric.unscored(pair(i))
        ))),
    }
}

/// The statistics row of hypothesis `hyp` against the one set of `ref_sets`, into `row`
/// (`metric.width()` long, zeroed): [`statistics_batch`] of that batch of one, on the
/// calling thread, without the batch's own work (its row table, a cancellation handle, the
/// loop). For a decoder's or a user's loop over single short pairs, whose call is mostly
/// such fixed costs; a long pair belongs in [`statistics_batch`], which can be cancelled.
pub fn statistics_of_pair<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    hyp: u32,
    ref_sets: &RefSets,
    row: &mut [f64],
) -> Result<()> {
    ref_sets.check(1)?;
    docs.check_indices(&[hyp], ref_sets)?;
    if row.len() != metric.width() {
        return Err(Error::Input(format!(
            "a statistics row has {} values (got {})",
            metric.width(),
            row.len()
        )));
    }
    let pair = Pair::new(docs, hyp, ref_sets.get(0));
    if metric.checks_pairs() {
        metric.check_batch_pair(pair, 0)?;
    }
    let context = metric.context(docs, &[hyp], ref_sets);
    with_scratch(|scratch: &mut M::Scratch| metric.pair_statistics(&context, scratch, pair, row));
    refuse_unscored(metric, row, |_| pair)
}

/// [`statistics_batch`] over one-line texts.
pub fn statistics_of_sentences<M: Metric>(
    metric: &M,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_batch(metric, &Docs::single_lines(sentences), hyps, ref_sets)
}

thread_local! {
    /// Every metric's scratch on this thread, by type (a handful of entries at most).
    static SCRATCHES: RefCell<Vec<(TypeId, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's scratch of type `S` (created on first use). The scratch is
/// taken out while `f` runs, so a nested call gets a fresh one instead of a borrow panic.
pub fn with_scratch<S: Default + 'static, R>(f: impl FnOnce(&mut S) -> R) -> R {
    let key = TypeId::of::<S>();
    let taken = SCRATCHES.with(|cell| {
        let mut list = cell.borrow_mut();
        let k = list.iter().position(|(t, _)| *t == key)?;
        Some(list.swap_remove(k).1)
    });
    let mut boxed: Box<dyn Any> = taken.unwrap_or_else(|| Box::new(S::default()));
    let result = match boxed.downcast_mut::<S>() {
        Some(scratch) => f(scratch),
        None => f(&mut S::default()),
    };
    SCRATCHES.with(|cell| {
        let mut list = cell.borrow_mut();
        match list.iter().position(|(t, _)| *t == key) {
            // A nested call put its own back meanwhile: keep ours (the outer, warmer one).
            Some(k) => list[k].1 = boxed,
            None => list.push((key, boxed)),
        }
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_pairs_get_small_tasks() {
        assert_eq!(task_pairs(64, 50), 64, "sentence pairs fill whole tasks");
        assert_eq!(task_pairs(64, 0), 64);
        // 512 pairs of 1,024 + 1,024 ids: 4 pairs a task, 128 tasks (8 with 64 a task).
        assert_eq!(task_pairs(64, 2048), 4);
        assert_eq!(task_pairs(64, 1 << 20), 1);
        assert_eq!(
            task_pairs(4, 10),
            4,
            "never more than the metric's own size"
        );
    }

    #[test]
    fn typical_size_samples_the_batch_evenly() {
        assert_eq!(typical_size(0, |_| unreachable!()), 0);
        assert_eq!(typical_size(3, |i| [1, 2, 6][i]), 3);
        // 1,000 pairs: 64 samples, i = j * 1000 / 64, spread over the whole batch.
        let seen = std::cell::RefCell::new(Vec::new());
        let mean = typical_size(1000, |i| {
            seen.borrow_mut().push(i);
            i
        });
        let seen = seen.into_inner();
        assert_eq!(seen.len(), 64);
        assert_eq!((seen[0], *seen.last().unwrap()), (0, 984));
        assert_eq!(mean, seen.iter().sum::<usize>() / 64);
    }

    /// Row = [hyp length, number of references, index of the longest reference].
    struct Lengths;

    impl Metric for Lengths {
        type Scratch = Vec<usize>;
        type Context = ();
        fn width(&self) -> usize {
            3
        }
        fn pair_statistics(&self, _: &(), seen: &mut Vec<usize>, pair: Pair<'_>, row: &mut [f64]) {
            seen.push(pair.hyp().len());
            row[0] = pair.hyp().len() as f64;
            row[1] = pair.n_refs() as f64;
            let longest = pair
                .refs()
                .enumerate()
                .max_by_key(|(k, r)| (r.len(), usize::MAX - k));
            row[2] = longest.map_or(0, |(k, _)| k) as f64;
        }
    }

    #[test]
    fn one_pair_is_the_batch_of_one() {
        let sentences: Vec<Vec<u32>> = vec![vec![1, 2, 3], vec![4], vec![5, 6], vec![]];
        let s = Sentences::from_ids(&sentences);
        let docs = Docs::single_lines(&s);
        let mut sets = RefSets::new();
        sets.push([3, 1, 2]);
        let batch = statistics_batch(&Lengths, &docs, &[0], &sets).unwrap();
        let mut row = vec![0.0; 3];
        statistics_of_pair(&Lengths, &docs, 0, &sets, &mut row).unwrap();
        assert_eq!(row, batch);
        assert_eq!(row, [3.0, 3.0, 2.0]);
        // The batch's checks: indices, one non-empty set, the row's width.
        assert!(statistics_of_pair(&Lengths, &docs, 9, &sets, &mut row).is_err());
        assert!(statistics_of_pair(&Lengths, &docs, 0, &sets, &mut [0.0; 2]).is_err());
        sets.push([1]);
        assert!(statistics_of_pair(&Lengths, &docs, 0, &sets, &mut row).is_err());
        sets.clear();
        sets.push([]);
        assert!(statistics_of_pair(&Lengths, &docs, 0, &sets, &mut row).is_err());
    }

    #[test]
    fn rows_are_the_same_inline_and_on_any_pool() {
        let sentences: Vec<Vec<u32>> = (0..300).map(|i| (0..(i % 7)).collect()).collect();
        let s = Sentences::from_ids(&sentences);
        let hyps: Vec<u32> = (0..200).collect();
        let mut sets = RefSets::new();
        for i in 0..200u32 {
            sets.push([200 + i % 100, 201 + i % 99]);
        }
        let one = crate::pool::run(Some(1), || {
            statistics_of_sentences(&Lengths, &s, &hyps, &sets)
        });
        let four = crate::pool::run(Some(4), || {
            statistics_of_sentences(&Lengths, &s, &hyps, &sets)
        });
        assert_eq!(one.unwrap().unwrap(), four.unwrap().unwrap());
        let small = statistics_of_sentences(&Lengths, &s, &hyps[..3], &{
            let mut r = RefSets::new();
            (0..3u32).for_each(|i| r.push([200 + i, 201 + i]));
            r
        })
        .unwrap();
        assert_eq!(small[..3], [0.0, 2.0, 1.0]);
    }

    #[test]
    fn checks_reference_sets_and_indices() {
        let s = Sentences::from_ids(&[vec![1u32], vec![2]]);
        let mut sets = RefSets::new();
        sets.push([]);
        assert!(statistics_of_sentences(&Lengths, &s, &[0], &sets).is_err());
        let mut sets = RefSets::new();
        sets.push([7]);
        assert!(statistics_of_sentences(&Lengths, &s, &[0], &sets).is_err());
    }

    #[test]
    fn nested_scratch_use_gets_a_fresh_scratch() {
        let n = with_scratch(|outer: &mut Vec<u8>| {
            outer.push(1);
            with_scratch(|inner: &mut Vec<u8>| inner.len())
        });
        assert_eq!(n, 0);
        assert_eq!(with_scratch(|v: &mut Vec<u8>| v.len()), 1);
    }
}
