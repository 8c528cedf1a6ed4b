//! Times the kernels on one long pair of synthetic Zipf-like text (release build):
//! `cargo run --release --example long_pair -- 100000`.

use mtalign_core::kernels::skip_bigram::skip_bigram_overlap;
use std::time::Instant;

fn zipf_text(n: usize, vocab: u64, seed: u64) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // ~Zipf: 1 / u for u uniform in (0, 1].
            let u = (x % 1_000_000 + 1) as f64 / 1_000_000.0;
            ((1.0 / u) as u64 % vocab) as u32
        })
        .collect()
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let a = zipf_text(n, 20_000, 1);
    let b = zipf_text(n, 20_000, 2);
    for (name, gap) in [
        ("rougeS*", None),
        ("rougeS4", Some(4)),
        ("rougeS1000", Some(1000)),
    ] {
        let t = Instant::now();
        let c = skip_bigram_overlap(&a, &b, gap, true);
        println!("{name}: {:.2}s hit={}", t.elapsed().as_secs_f64(), c.hit);
    }
    // Adversarial for the sweeps: n/2 types, each twice on each side.
    let a: Vec<u32> = (0..n as u32).map(|i| i % (n as u32 / 2)).collect();
    let b: Vec<u32> = a.iter().rev().copied().collect();
    let t = Instant::now();
    let c = skip_bigram_overlap(&a, &b, None, false);
    println!(
        "rougeS*, every type twice: {:.2}s hit={}",
        t.elapsed().as_secs_f64(),
        c.hit
    );
    let mut w = mtalign_core::metrics::rouge::rouge155::Wlcs155Scratch::default();
    let (a, b) = (zipf_text(n, 20_000, 1), zipf_text(n, 20_000, 2));
    let t = Instant::now();
    let c = w.counts(&a, &b, 1.2);
    println!(
        "rougeW-1.2 rouge155: {:.2}s hit={}",
        t.elapsed().as_secs_f64(),
        c.hit
    );
}
