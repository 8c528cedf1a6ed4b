//! Times SIA's chain search on one long pair of synthetic Zipf text (release build), as
//! `benches/bench_long.py` makes it: `cargo run --release --example sia_long -- 10000 mt`
//! (`mt`: the hypothesis is the reference with 10% of words replaced, 5% dropped, 5%
//! inserted and a short phrase moved every 40 words; `unrelated`: two independent texts).
//! Prints the time and the score's bits (a run before and after a change must print the
//! same bits). For callgrind: `valgrind --tool=callgrind target/release/examples/sia_long 3000 mt`.
//! `sia_long 25 mt 20000`: 20,000 sentence pairs of about 25 words instead (the full-grid
//! search).

use mtalign_core::metrics::sia::{exact, sia_detail, sia_score, stream::Matches, Decay, SiaConfig};
use std::time::Instant;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A word of a 5000-word vocabulary with probability ∝ 1 / (rank + 1).
fn zipf(rng: &mut Rng, cumulative: &[f64]) -> u32 {
    let u = rng.unit() * cumulative[cumulative.len() - 1];
    cumulative
        .partition_point(|&c| c <= u)
        .min(cumulative.len() - 1) as u32
}

fn texts(words: usize, kind: &str, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Rng(seed);
    let mut cumulative = Vec::with_capacity(5000);
    let mut total = 0.0;
    for k in 0..5000 {
        total += 1.0 / (k as f64 + 1.0);
        cumulative.push(total);
    }
    let reference: Vec<u32> = (0..words).map(|_| zipf(&mut rng, &cumulative)).collect();
    let hyp = if kind == "mt" {
        let mut out = Vec::with_capacity(words);
        for &w in &reference {
            let u = rng.unit();
            if u < 0.05 {
                continue;
            }
            out.push(if u < 0.15 {
                zipf(&mut rng, &cumulative)
            } else {
                w
            });
            if rng.unit() < 0.05 {
                out.push(zipf(&mut rng, &cumulative));
            }
        }
        let mut at = 0;
        while at + 30 < out.len() {
            let k = 2 + rng.below(5);
            let phrase: Vec<u32> = out.drain(at..at + k).collect();
            let to = (at + 1 + rng.below(20)).min(out.len());
            out.splice(to..to, phrase);
            at += 40;
        }
        out
    } else {
        (0..words).map(|_| zipf(&mut rng, &cumulative)).collect()
    };
    (hyp, reference)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let words: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let kind = args.next().unwrap_or_else(|| "mt".to_string());
    let config = SiaConfig::new(0.35, Decay::Figure).expect("valid");
    if let Some(pairs) = args.next().and_then(|a| a.parse::<usize>().ok()) {
        // Sentence mode: `pairs` pairs of about `words` words (the full-grid search).
        let pairs: Vec<_> = (0..pairs as u64)
            .map(|k| texts(words, &kind, 13 + k))
            .collect();
        let t = Instant::now();
        let mut total = 0.0;
        for (hyp, reference) in &pairs {
            total += sia_score(hyp, &[reference], exact, &config);
        }
        println!(
            "sia {} pairs of {words} words ({kind}): {:.3}s sum={total} bits={:016x}",
            pairs.len(),
            t.elapsed().as_secs_f64(),
            total.to_bits()
        );
        return;
    }
    let (hyp, reference) = texts(words, &kind, 13);
    let t = Instant::now();
    let score = sia_score(&hyp, &[&reference], exact, &config);
    let cells = Matches::new(&hyp, &reference, &exact).cells;
    println!(
        "{} x {} words, {cells} matching cells",
        hyp.len(),
        reference.len()
    );
    if std::env::var_os("SIA_ROUNDS").is_some() {
        let d = sia_detail(&hyp, &[&reference], exact, &config, true);
        for r in &d.rounds {
            println!(
                "  round: score {:.5} weight {:.3e} chain {}",
                r.score,
                r.weight,
                r.pairs.len()
            );
        }
    }
    println!(
        "sia {words} {kind}: {:.3}s score={score} bits={:016x}",
        t.elapsed().as_secs_f64(),
        score.to_bits()
    );
}
