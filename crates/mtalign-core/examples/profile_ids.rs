//! Times token-id scoring on TensorBLEU's shape (512 pairs of 1,024 ids, references with 30%
//! of the ids changed): `cargo run --release --example profile_ids -- [VOCAB] [REPEAT]`.
//! Prints the best wall time of the encoding alone and of the whole call, on 1 and 2
//! threads, for sentence BLEU and ROUGE-L.
use mtalign_core::metrics::bleu::BleuConfig;
use mtalign_core::metrics::ids::statistics_of_ids;
use mtalign_core::metrics::metric::Metric;
use mtalign_core::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
use mtalign_core::pool;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::ids::{IdData, IdSeqs};
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use std::time::{Duration, Instant};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn best(repeat: usize, mut f: impl FnMut()) -> Duration {
    (0..repeat)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let vocab: u64 = args.get(1).map_or(32_000, |v| v.parse().unwrap());
    let repeat: usize = args.get(2).map_or(15, |v| v.parse().unwrap());
    let (n, len) = (512usize, 1024usize);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let hyps: Vec<i64> = (0..n * len).map(|_| (rng.next() % vocab) as i64).collect();
    let refs: Vec<i64> = hyps
        .iter()
        .map(|&h| {
            if rng.next() % 10 < 3 {
                (rng.next() % vocab) as i64
            } else {
                h
            }
        })
        .collect();
    let starts: Vec<i64> = (0..n as i64).map(|i| i * len as i64).collect();
    let lengths = vec![len as i64; n];
    let h = IdSeqs::new(IdData::I64(&hyps), &starts, &lengths, "hyps").unwrap();
    let r = IdSeqs::new(IdData::I64(&refs), &starts, &lengths, "refs").unwrap();
    let encoder = Encoder::plain(Tokenizer::new(TokenizerKind::Whitespace, false));
    let bleu = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
    let rouge = RougeConfig::new(
        vec![Variant::Lcs],
        1.0,
        MultiRef::Max,
        false,
        Compat::RougeScore,
    )
    .unwrap();
    let only = args.get(3).cloned().unwrap_or_default();
    let threads_only: usize = args.get(4).map_or(0, |v| v.parse().unwrap());
    if !only.is_empty() {
        // One configuration, for `perf stat` (its task-clock is the CPU time).
        let t = pool::run(Some(threads_only), || {
            best(repeat, || {
                if only == "bleu" {
                    statistics_of_ids(&bleu, &encoder, &h, &[r], None, None).unwrap();
                } else {
                    statistics_of_ids(&rouge, &encoder, &h, &[r], None, None).unwrap();
                }
            })
        })
        .unwrap();
        println!("{only} threads={threads_only}: best {t:.2?}");
        return;
    }
    println!("# {n} x {len} ids, vocabulary {vocab}, best of {repeat}");
    for threads in [1, 2] {
        let enc = pool::run(Some(threads), || {
            best(repeat, || {
                encoder.encode_ids(&[h, r], None).unwrap();
            })
        })
        .unwrap();
        println!("threads={threads} encode (batch numbering, for metrics that read id values): {enc:.2?}");
        time("BLEU", &bleu, &encoder, h, r, threads, repeat);
        time("ROUGE-L", &rouge, &encoder, h, r, threads, repeat);
    }
}

fn time<M: Metric>(
    name: &str,
    metric: &M,
    encoder: &Encoder,
    h: IdSeqs<'_>,
    r: IdSeqs<'_>,
    threads: usize,
    repeat: usize,
) {
    let t = pool::run(Some(threads), || {
        best(repeat, || {
            statistics_of_ids(metric, encoder, &h, &[r], None, None).unwrap();
        })
    })
    .unwrap();
    println!("threads={threads} {name}: {t:.2?}");
    let t = best(repeat, || {
        pool::run_interruptible(
            Some(threads),
            || statistics_of_ids(metric, encoder, &h, &[r], None, None).unwrap(),
            || false,
        )
        .unwrap();
    });
    println!("threads={threads} {name} (run_interruptible): {t:.2?}");
}
