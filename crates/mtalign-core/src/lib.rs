//! mtalign-core: the pure-Rust kernels of mtalign.
//!
//! Text flows one way: text → tokens ([`tokenize`]) → interned ids, once per sentence
//! ([`intern`]) → kernels over `&[u32]` ([`lcs`], [`wlcs`], [`ngram`], [`skip_bigram`]) →
//! sufficient statistics ([`counts::Counts`]) → scores ([`rouge`]). Batches run on private
//! rayon pools ([`pool`]); no result depends on the thread count.

pub mod bleu;
pub mod counts;
pub mod dcs;
pub mod edit_distance;
pub mod error;
pub mod error_rate;
pub mod intern;
pub mod lcs;
pub mod ngram;
pub mod ngram_ids;
pub mod nist;
pub mod pool;
pub mod refs;
pub mod ribes;
pub mod rouge;
pub mod skip_bigram;
pub mod tokenize;
pub mod tokenize_sacrebleu;
pub mod wlcs;
// Compatibility profiles (ROUGE-1.5.5, rouge-score): their tokenizers, stemmers and quirks.
pub mod rouge155;
pub mod stem;
pub mod summary_lcs;
pub mod tokenize_compat;

pub use error::{Error, Result};
pub mod ibm1;
pub mod lexfile;
pub mod sia;
pub mod similarity;
