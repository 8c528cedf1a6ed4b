//! The batch policy: how a batch of texts becomes statistics rows, decided here once for
//! every binding. A binding reads its caller's objects into a [`Collected`] batch (one pass
//! through a [`TextSource`], the only part that needs its lock) and calls one function of
//! this module on the pool; it gets plain rows and vanished places back.
//!
//! Two ways from text to rows, chosen from the metric and the batch ([`text_path`]), giving
//! the same rows bit for bit (core tests run both):
//!
//! * **chunked** ([`Path::Chunked`]): a metric whose rows see ids only through their
//!   equality within a pair ([`crate::metrics::metric::Metric::PAIR_LOCAL_IDS`]) and no stemmer: the pairs, grouped
//!   by their first reference ([`crate::metrics::chunked::grouped_order`]), are cut into chunks of
//!   [`crate::metrics::chunked::CHUNK_PAIRS`]; each chunk tokenizes, interns and scores its own texts on a pool
//!   thread ([`crate::metrics::chunked::statistics_of_chunk`]). Nothing is numbered batch-wide, so text in which
//!   nothing repeats has no serial step but the read and the grouping.
//! * **batch-wide** ([`Path::BatchWide`]): every distinct text numbered once (hypotheses
//!   first, then references in order of first appearance), encoded with one vocabulary and
//!   scored by [`crate::metrics::metric::statistics_batch`] (or a binding's own kernel): metrics that need the
//!   batch (NIST), stemmed text (each distinct word stemmed once), and small batches whose
//!   hypotheses repeat (fewer than 3 in 4 distinct: a chunk would tokenize them again).
//!
//! Matrices ([`matrix`]) and reference aggregation ([`aggregate`]) number their texts the
//! batch-wide way. No row depends on the thread count: chunks are fixed by the input.

mod source;
mod texts;

pub use source::{collect, Collected, TextSource};
pub use texts::{
    aggregate, matrices, matrix, number, row_scores, text_path, texts, texts_batch_wide, BatchRows,
    BlockRows, CellFn, Numbered, Path, CHUNKED_PAIRS,
};
