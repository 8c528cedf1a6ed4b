//! A decoder's use of the core: score the k candidates of a beam against the references
//! (sacrebleu's sentence BLEU and chrF), then pick one candidate per source sentence by
//! minimum-Bayes-risk decoding (each candidate scored against the others of its group, no
//! reference needed). `cargo run --example decoder -p mtalign-core`; CI runs it.
//!
//! The figures checked at the end are sacrebleu 2.6.0's own (`sacrebleu.sentence_bleu`,
//! `sacrebleu.sentence_chrf`) on the same strings, so the example fails if the core drifts
//! from the tool it reproduces.

use mtalign_core::metrics::bleu::{self, BleuConfig};
use mtalign_core::metrics::chrf::ChrfConfig;
use mtalign_core::metrics::matrix::{scores_matrices, MatrixBlock};
use mtalign_core::metrics::metric::statistics_batch;
use mtalign_core::text::docs::Docs;
use mtalign_core::text::intern::encode_texts;
use mtalign_core::text::refs::RefSets;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};

/// A source sentence as a decoder leaves it: k candidates and the reference(s).
struct Group {
    candidates: Vec<&'static str>,
    references: Vec<&'static str>,
}

fn groups() -> Vec<Group> {
    vec![
        Group {
            candidates: vec![
                "The cat sat on the mat.",
                "The cat is sitting on the mat.",
                "A cat sat on a mat.",
                "On the mat sat the cat.",
            ],
            references: vec!["The cat is on the mat.", "There is a cat on the mat."],
        },
        Group {
            candidates: vec![
                "He did not go to school yesterday.",
                "Yesterday he didn't go to school.",
                "He went not to the school yesterday.",
            ],
            references: vec!["He didn't go to school yesterday."],
        },
    ]
}

/// Every candidate of every group scored against its group's references: one batch, one
/// tokenization and interning of all texts (each distinct text once), one statistics row
/// per candidate. Returns the scores in candidate order, group after group.
fn score_candidates<M: mtalign_core::metrics::metric::Metric>(
    groups: &[Group],
    tokenizer: Tokenizer,
    metric: &M,
    score: impl Fn(&[f64]) -> f64,
) -> mtalign_core::Result<Vec<f64>> {
    // Texts: the candidates, then the references; hypotheses and reference sets index them.
    let mut texts: Vec<&str> = Vec::new();
    let mut hyps: Vec<u32> = Vec::new();
    let mut ref_sets = RefSets::new();
    for g in groups {
        let first_ref = texts.len() + g.candidates.len();
        let refs: Vec<u32> = (first_ref..first_ref + g.references.len())
            .map(|i| i as u32)
            .collect();
        for c in &g.candidates {
            hyps.push(texts.len() as u32);
            texts.push(c);
            ref_sets.push(refs.iter().copied());
        }
        texts.extend(&g.references);
    }
    let encoded = encode_texts(&tokenizer, &texts);
    let docs = Docs::single_lines(&encoded.sentences);
    let rows = statistics_batch(metric, &docs, &hyps, &ref_sets)?;
    Ok(rows.chunks_exact(metric.width()).map(score).collect())
}

/// Minimum-Bayes-risk choice in each group: the candidate with the highest mean chrF against
/// the other candidates of its group (one symmetric block per group; the diagonal, a
/// candidate against itself, is left out of the mean).
/// Returns each group's choice and every candidate's expected utility (its mean chrF).
fn mbr_choices(
    groups: &[Group],
    chrf: &ChrfConfig,
) -> mtalign_core::Result<(Vec<usize>, Vec<f64>)> {
    let texts: Vec<&str> = groups.iter().flat_map(|g| g.candidates.clone()).collect();
    let encoded = encode_texts(&Tokenizer::new(TokenizerKind::Codepoint, false), &texts);
    let docs = Docs::single_lines(&encoded.sentences);
    let mut blocks = Vec::new();
    let mut start = 0u32;
    for g in groups {
        let k = g.candidates.len() as u32;
        blocks.push(MatrixBlock::symmetric((start..start + k).collect()));
        start += k;
    }
    let cells = scores_matrices(chrf, &docs, &blocks, &|row| chrf.score(row))?;
    let mut choices = Vec::new();
    let mut utilities = Vec::new();
    let mut offset = 0;
    for g in groups {
        let k = g.candidates.len();
        let matrix = &cells[offset..offset + k * k];
        offset += k * k;
        let utility = |i: usize| -> f64 {
            let others: f64 = (0..k).filter(|&j| j != i).map(|j| matrix[i * k + j]).sum();
            others / (k - 1) as f64
        };
        let best = (0..k)
            .max_by(|&a, &b| utility(a).total_cmp(&utility(b)))
            .expect("a group has candidates");
        for i in 0..k {
            utilities.push(utility(i));
            println!(
                "  mbr  {:>6.2}  {}{}",
                utility(i),
                g.candidates[i],
                if i == best { "   <- MBR choice" } else { "" }
            );
        }
        choices.push(best);
    }
    Ok((choices, utilities))
}

fn main() -> mtalign_core::Result<()> {
    let groups = groups();
    // sacrebleu's sentence_bleu: 13a tokenization, exp smoothing, effective order.
    let bleu_cfg = BleuConfig::new(4, "exp", None, "closest", true)?;
    let bleu_scores = score_candidates(
        &groups,
        Tokenizer::new(TokenizerKind::Sacre13a, false),
        &bleu_cfg,
        |row| bleu::sentence_score(&bleu_cfg, row),
    )?;
    // sacrebleu's chrF (char order 6, word order 0, beta 2) over code points.
    let chrf_cfg = ChrfConfig::new(6, 0, 2.0, false, false)?;
    let chrf_scores = score_candidates(
        &groups,
        Tokenizer::new(TokenizerKind::Codepoint, false),
        &chrf_cfg,
        |row| chrf_cfg.score(row),
    )?;

    println!("candidates against the references (sentence BLEU, chrF):");
    let mut i = 0;
    for g in &groups {
        for c in &g.candidates {
            println!("  {:>6.2} {:>6.2}  {c}", bleu_scores[i], chrf_scores[i]);
            i += 1;
        }
    }
    println!("minimum-Bayes-risk decoding (mean chrF against the other candidates):");
    let (choices, utilities) = mbr_choices(&groups, &chrf_cfg)?;

    // sacrebleu 2.6.0 on the same strings (see the module docs).
    let sacrebleu_bleu = EXPECTED_BLEU;
    let sacrebleu_chrf = EXPECTED_CHRF;
    for (name, ours, theirs) in [
        ("BLEU", &bleu_scores, &sacrebleu_bleu[..]),
        ("chrF", &chrf_scores, &sacrebleu_chrf[..]),
        ("MBR utility", &utilities, &EXPECTED_UTILITY[..]),
    ] {
        for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
            assert!(
                a == b,
                "{name} of candidate {k}: {a} here, {b} in sacrebleu"
            );
        }
    }
    assert_eq!(choices, EXPECTED_MBR, "MBR choices");
    println!("matches sacrebleu 2.6.0: ok");
    Ok(())
}

/// `sacrebleu.sentence_bleu(c, refs).score` for each candidate, in order.
const EXPECTED_BLEU: [f64; 7] = [
    48.892302243490086,
    50.000000000000014,
    16.515821590069034,
    15.619699684601283,
    54.10822690539397,
    43.47208719449914,
    23.356898886410015,
];
/// `sacrebleu.sentence_chrf(c, refs).score` for each candidate, in order.
const EXPECTED_CHRF: [f64; 7] = [
    67.17273492330233,
    74.02630292838671,
    25.200884824488256,
    49.57654306669702,
    85.760402104605,
    78.47704724153999,
    57.84684229527131,
];
/// Each candidate's mean `sentence_chrf(c, [other])` over the other candidates of its group.
const EXPECTED_UTILITY: [f64; 7] = [
    54.621646661106666,
    43.209463186431826,
    30.813874383181272,
    43.74442568808158,
    60.655765101472255,
    51.51683544648523,
    50.119782050727466,
];
/// The MBR choice of each group (the argmax of [`EXPECTED_UTILITY`] within the group).
const EXPECTED_MBR: [usize; 2] = [0, 0];
