//! mtalign-core: the pure-Rust kernels of mtalign, in three wings.
//!
//! Text flows one way: text → tokens ([`text::tokenize`], [`text::stem`]) → interned ids,
//! once per distinct text ([`text::intern`]), grouped into reference sets ([`text::refs`]) →
//! kernels over `&[u32]` that know nothing of metrics ([`kernels`]: LCS, WLCS, n-grams,
//! skip-bigrams, edit distance) → sufficient statistics per sentence pair → scores
//! ([`metrics`]: one module per metric). Batches run on private rayon pools ([`pool`]); no
//! result depends on the thread count.
//!
//! No `unsafe` but the prefetch hints of [`prefetch`] and one call of an SSE2 function (the
//! 64-byte range classifier that the unicode and sacrebleu 13a readers share, in
//! `text::intern`), allowed there alone.
//!
//! The crate's README has a runnable example; `examples/decoder.rs` scores a decoder's
//! candidates against references and makes a minimum-Bayes-risk choice per group.

#![deny(unsafe_code)]
#![warn(missing_docs)] // errors in CI: clippy and rustdoc run with -D warnings

pub mod choice;
pub mod error;
pub mod interrupt;
pub mod kernels;
pub mod metrics;
pub mod options;
pub mod pool;
pub mod prefetch;
pub mod run;
pub mod text;

pub use error::{Error, Result};

// The crate README's example runs with the doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
