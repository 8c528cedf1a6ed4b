//! Token interning: sentences of tokens → sentences of dense `u32` ids.
//!
//! Every sentence of a batch (hypotheses and references together) is tokenized once and its
//! tokens mapped to ids shared across the batch, so kernels compare `u32`s, never strings.
//!
//! Work is split into fixed-size chunks (independent of the thread count): each chunk is
//! tokenized and interned locally in parallel, then local vocabularies are merged in chunk
//! order. Ids are therefore assigned in order of first appearance, whatever the thread count.

use crate::tokenize::Tokenizer;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Sentences as one flat id buffer plus end offsets (sentence `i` is
/// `ids[ends[i-1]..ends[i]]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sentences {
    ids: Vec<u32>,
    ends: Vec<usize>,
}

impl Sentences {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.ids[start..self.ends[i]]
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u32]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// Builds sentences from id lists (tests, and callers that intern elsewhere).
    pub fn from_ids<S: AsRef<[u32]>>(sentences: &[S]) -> Self {
        let mut out = Sentences::default();
        for s in sentences {
            out.ids.extend_from_slice(s.as_ref());
            out.ends.push(out.ids.len());
        }
        out
    }
}

/// The result of encoding a batch.
#[derive(Debug, Clone, Default)]
pub struct Encoded {
    pub sentences: Sentences,
    /// Number of distinct tokens (ids are `0..vocab_size`).
    pub vocab_size: usize,
    /// Indices of sentences whose text had non-space characters but produced no token.
    pub vanished: Vec<usize>,
}

/// Tokens of a run of sentences, stored as one text buffer plus spans.
#[derive(Debug, Default)]
pub struct TokenArena {
    text: String,
    spans: Vec<(u32, u32)>,
    /// End offset (into `spans`) of each sentence.
    sentence_ends: Vec<usize>,
    vanished: Vec<usize>,
}

impl TokenArena {
    /// Appends one pre-tokenized sentence; tokens are taken verbatim.
    pub fn push_tokens<'a, I: IntoIterator<Item = &'a str>>(&mut self, tokens: I) {
        for tok in tokens {
            let start = self.text.len() as u32;
            self.text.push_str(tok);
            self.spans.push((start, self.text.len() as u32));
        }
        self.sentence_ends.push(self.spans.len());
    }

    fn push_text(
        &mut self,
        tokenizer: &Tokenizer,
        text: &str,
        buf: &mut String,
        local: &mut Vec<(u32, u32)>,
    ) {
        tokenizer.tokenize_into(text, buf, local);
        if local.is_empty() && text.chars().any(|c| !c.is_whitespace()) {
            self.vanished.push(self.sentence_ends.len());
        }
        let base = self.text.len() as u32;
        self.text.push_str(buf);
        self.spans
            .extend(local.iter().map(|&(s, e)| (base + s, base + e)));
        self.sentence_ends.push(self.spans.len());
    }

    pub fn len(&self) -> usize {
        self.sentence_ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sentence_ends.is_empty()
    }

    fn token(&self, k: usize) -> &str {
        let (s, e) = self.spans[k];
        &self.text[s as usize..e as usize]
    }
}

/// Sentences per chunk: fixed, so interning order never depends on the thread count.
const CHUNK: usize = 1024;

/// A chunk interned on its own: local ids and the local vocabulary (in first-seen order).
struct LocalChunk {
    arena: TokenArena,
    ids: Vec<u32>,
    /// Index into `arena.spans` of each local id's first occurrence.
    vocab: Vec<usize>,
}

fn intern_locally(arena: TokenArena) -> LocalChunk {
    let mut map: FxHashMap<&str, u32> = FxHashMap::default();
    let mut ids = Vec::with_capacity(arena.spans.len());
    let mut vocab = Vec::new();
    for k in 0..arena.spans.len() {
        let next = vocab.len() as u32;
        let id = *map.entry(arena.token(k)).or_insert_with(|| {
            vocab.push(k);
            next
        });
        ids.push(id);
    }
    drop(map);
    LocalChunk { arena, ids, vocab }
}

/// Merges locally interned chunks into one id space, in chunk order.
fn merge(chunks: Vec<LocalChunk>) -> Encoded {
    let mut global: FxHashMap<&str, u32> = FxHashMap::default();
    let mut remaps: Vec<Vec<u32>> = Vec::with_capacity(chunks.len());
    for chunk in &chunks {
        let remap = chunk
            .vocab
            .iter()
            .map(|&k| {
                let next = global.len() as u32;
                *global.entry(chunk.arena.token(k)).or_insert(next)
            })
            .collect();
        remaps.push(remap);
    }
    let vocab_size = global.len();
    drop(global);

    let total_tokens: usize = chunks.iter().map(|c| c.ids.len()).sum();
    let total_sentences: usize = chunks.iter().map(|c| c.arena.len()).sum();
    let mut sentences = Sentences {
        ids: Vec::with_capacity(total_tokens),
        ends: Vec::with_capacity(total_sentences),
    };
    let mut vanished = Vec::new();
    for (chunk, remap) in chunks.iter().zip(&remaps) {
        let base_tokens = sentences.ids.len();
        let base_sentences = sentences.ends.len();
        sentences
            .ids
            .extend(chunk.ids.iter().map(|&id| remap[id as usize]));
        sentences
            .ends
            .extend(chunk.arena.sentence_ends.iter().map(|&e| base_tokens + e));
        vanished.extend(chunk.arena.vanished.iter().map(|&i| base_sentences + i));
    }
    Encoded {
        sentences,
        vocab_size,
        vanished,
    }
}

/// Tokenizes and interns `texts`. Runs on the current rayon pool.
pub fn encode_texts<S: AsRef<str> + Sync>(tokenizer: &Tokenizer, texts: &[S]) -> Encoded {
    let chunks: Vec<LocalChunk> = texts
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut arena = TokenArena::default();
            let mut buf = String::new();
            let mut spans = Vec::new();
            for text in chunk {
                arena.push_text(tokenizer, text.as_ref(), &mut buf, &mut spans);
            }
            intern_locally(arena)
        })
        .collect();
    merge(chunks)
}

/// Interns pre-tokenized sentences (tokens verbatim: no lowercasing, no splitting).
pub fn encode_tokens<T: AsRef<str> + Sync, S: AsRef<[T]> + Sync>(sentences: &[S]) -> Encoded {
    let chunks: Vec<LocalChunk> = sentences
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut arena = TokenArena::default();
            for sentence in chunk {
                arena.push_tokens(sentence.as_ref().iter().map(|t| t.as_ref()));
            }
            intern_locally(arena)
        })
        .collect();
    merge(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::TokenizerKind;

    #[test]
    fn ids_follow_first_appearance_across_chunks() {
        let texts: Vec<String> = (0..3000)
            .map(|i| format!("w{} common w{}", i % 7, i))
            .collect();
        let enc = encode_texts(&Tokenizer::new(TokenizerKind::Unicode, true), &texts);
        assert_eq!(enc.sentences.len(), 3000);
        assert_eq!(enc.sentences.get(0), &[0, 1, 0]);
        assert_eq!(enc.sentences.get(1), &[2, 1, 2]);
        // w0..w6 and "common" and w7..w2999
        assert_eq!(enc.vocab_size, 7 + 1 + (3000 - 7));
        // Same as one-by-one sequential interning.
        let mut map = FxHashMap::default();
        for (i, text) in texts.iter().enumerate() {
            let want: Vec<u32> = text
                .split(' ')
                .map(|t| {
                    let n = map.len() as u32;
                    *map.entry(t.to_string()).or_insert(n)
                })
                .collect();
            assert_eq!(enc.sentences.get(i), want.as_slice());
        }
    }

    #[test]
    fn vanished_sentences_are_reported() {
        let texts = ["a b", "", "   ", "...", "ok"];
        let enc = encode_texts(&Tokenizer::new(TokenizerKind::Unicode, true), &texts);
        assert_eq!(enc.vanished, vec![3]);
        assert!(enc.sentences.get(1).is_empty());
    }

    #[test]
    fn pre_tokenized_input_is_verbatim() {
        let sents = vec![vec!["The", "cat"], vec!["the", "The"]];
        let enc = encode_tokens(&sents);
        assert_eq!(enc.sentences.get(0), &[0, 1]);
        assert_eq!(enc.sentences.get(1), &[2, 0]);
    }
}
