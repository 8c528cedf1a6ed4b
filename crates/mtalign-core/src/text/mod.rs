//! Text → ids: tokenizers, stemmers, interning of texts and tokens, reference sets.

pub mod distinct;
pub mod docs;
pub mod encoder;
pub mod ids;
pub mod intern;
pub mod lines;
pub mod refs;
pub mod stem;
pub mod tokenize;
pub mod wordnet;
