//! Kernels over token ids (`&[u32]`): subsequences, n-grams, skip-bigrams, edit distance.
//! They know nothing of metrics; each has a slow, obviously-correct oracle in its tests.

pub mod counts;
pub mod edit_distance;
pub mod edit_distance_bits;
pub mod lanes;
pub mod lcs;
pub mod lcs_bits;
pub mod lcs_long;
pub mod ngram;
pub mod ngram_clip;
pub mod ngram_ids;
pub mod ngram_mean;
pub mod ngram_packed;
pub mod ngram_pair;
pub mod ngram_profile;
pub mod ref_ngrams;
pub mod skip_bigram;
pub mod suffix_array;
pub mod summary_lcs;
pub mod wlcs;
pub mod wlcs_rows;
