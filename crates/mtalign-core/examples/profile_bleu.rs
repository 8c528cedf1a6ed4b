//! Times the BLEU pipeline's stages on aligned files: `cargo run --release --example
//! profile_bleu -- HYP REF`.
use mtalign_core::metrics::bleu::{stats_batch, BleuConfig};
use mtalign_core::text::intern::encode_texts;
use mtalign_core::text::refs::RefSets;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hyps: Vec<String> = std::fs::read_to_string(&args[1])
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let refs: Vec<String> = std::fs::read_to_string(&args[2])
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut texts = hyps.clone();
    texts.extend(refs.iter().cloned());
    let n = hyps.len();
    for kind in [TokenizerKind::Whitespace, TokenizerKind::Sacre13a] {
        let t = Instant::now();
        let enc = encode_texts(&Tokenizer::new(kind, false), &texts);
        let t_tok = t.elapsed();
        let mut sets = RefSets::new();
        for i in 0..n {
            sets.push([(n + i) as u32]);
        }
        let hyp_ids: Vec<u32> = (0..n as u32).collect();
        let cfg = BleuConfig::new(4, "add1", None, "closest", false).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut best = std::time::Duration::MAX;
        for _ in 0..7 {
            let t = Instant::now();
            let s = pool.install(|| stats_batch(&cfg, &enc.sentences, &hyp_ids, &sets).unwrap());
            best = best.min(t.elapsed());
            assert_eq!(s.len(), n * cfg.width());
        }
        let mut best_tok = std::time::Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            pool.install(|| encode_texts(&Tokenizer::new(kind, false), &texts));
            best_tok = best_tok.min(t.elapsed());
        }
        println!("{kind:?}: tokenize+intern 1 thread {best_tok:?} ({} texts) [first {t_tok:?}], stats {best:?} ({n} pairs)", texts.len());
    }
}
