//! Times the phases of a ROUGE batch on real files (for profiling; not a test):
//! `cargo run --release --example profile_batch -- VARIANT HYP_FILE REF_FILE...`
use mtalign_core::metrics::rouge::{score_batch, Compat, MultiRef, RougeConfig, Variant};
use mtalign_core::text::intern::encode_texts;
use mtalign_core::text::refs::RefSets;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::parse(&args[1]).expect("variant");
    let read = |p: &str| -> Vec<String> {
        std::fs::read_to_string(p)
            .expect("readable file")
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let hyps = read(&args[2]);
    let refs: Vec<Vec<String>> = args[3..].iter().map(|p| read(p)).collect();
    let n = hyps.len();
    let reps = 50;
    let mut texts: Vec<&str> = Vec::new();
    for _ in 0..reps {
        texts.extend(hyps.iter().map(String::as_str));
    }
    let n_h = texts.len();
    for r in &refs {
        texts.extend(r.iter().map(String::as_str));
    }
    let mut sets = RefSets::new();
    for i in 0..n_h {
        sets.push((0..refs.len()).map(|k| (n_h + k * n + i % n) as u32));
    }
    let tok = Tokenizer::new(TokenizerKind::Unicode, true);
    let cfg = RougeConfig::new(vec![variant], 1.0, MultiRef::Max, false, Compat::Paper).unwrap();
    let hyp_ids: Vec<u32> = (0..n_h as u32).collect();
    for threads in [1, 2] {
        mtalign_core::pool::run(Some(threads), || {
            let t = Instant::now();
            let enc = encode_texts(&tok, &texts);
            let te = t.elapsed();
            let t = Instant::now();
            let out = score_batch(&cfg, &enc.sentences, &hyp_ids, &sets).unwrap();
            let ts = t.elapsed();
            println!(
                "threads {threads}: {n_h} hyps, encode {te:?}, score {ts:?}, checksum {}",
                out.iter().sum::<f64>()
            );
        })
        .unwrap();
    }
}
