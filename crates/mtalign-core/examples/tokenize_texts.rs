//! Times a tokenizer and interning on a file of texts, one per line, in chunks of 512 texts
//! with a warm vocabulary as the chunked batch path does (for profiling; not a test):
//! `cargo run --release --example tokenize_texts -- FILE [REPEATS] [unicode|13a]`
use mtalign_core::text::intern::{encode_texts_into, Encoded, Vocab};
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let texts: Vec<&str> = text.lines().collect();
    let repeats: usize = args.get(2).map_or(20, |r| r.parse().expect("a number"));
    let tokenizer = match args.get(3).map(String::as_str) {
        Some("13a") => Tokenizer::new(TokenizerKind::Sacre13a, false),
        _ => Tokenizer::new(TokenizerKind::Unicode, true),
    };
    let (mut buf, mut spans) = (String::new(), Vec::new());
    let mut out = Encoded::default();
    let mut times = Vec::new();
    let mut tokens = 0;
    for _ in 0..repeats {
        let t = Instant::now();
        tokens = 0;
        for chunk in texts.chunks(512) {
            encode_texts_into(
                &tokenizer,
                chunk,
                &mut out,
                &mut buf,
                &mut spans,
                Vocab::Warm,
            );
            tokens += out.sentences.iter().map(<[u32]>::len).sum::<usize>();
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "{:.2} ms, {:.2} ns/token ({tokens} tokens)",
        median * 1e3,
        median * 1e9 / tokens as f64
    );
}
