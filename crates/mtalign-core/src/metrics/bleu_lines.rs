//! sacrebleu's sentence-level output (`sacrebleu REF -i HYP -sl`): one line per segment,
//! `BLEU|SIGNATURE = 34.6 70.0/47.4/33.3/23.5 (BP = 0.861 ratio = 0.870 hyp_len = 20
//! ref_len = 23)`, the text of sacrebleu 2.6.0's `BLEUScore.format(width, score_only,
//! signature)` byte for byte (`-b`: the score alone).
//!
//! Why here: printed from Python, each line costs a score object and a dozen float
//! formattings under the GIL, more than tokenizing and counting the sentence. Here every
//! chunk of segments is tokenized, counted, scored and printed on the pool, and only the
//! finished text goes back. The figures are [`bleu`]'s sacrebleu arithmetic (bit-identical
//! to `BLEU.compute_bleu`), and Rust's `{:.N}` rounds the exact binary value half to even,
//! as Python's `{:.Nf}` does.

use crate::metrics::bleu::{self, BleuConfig};
use crate::metrics::chunked::{statistics_of_chunk, CHUNK_PAIRS};
use crate::text::encoder::Encoder;
use crate::text::lines::utf8_lines;
use crate::text::refs::RefSets;
use crate::{Error, Result};
use rayon::prelude::*;
use std::fmt::Write;

/// How each line is printed (sacrebleu's `-w`, `-b` and signature).
#[derive(Debug, Clone, Copy)]
pub struct LineFormat<'a> {
    /// What precedes the score: `BLEU|SIGNATURE = ` (`BLEU = ` without a signature).
    pub head: &'a str,
    /// Decimals of the score (`-w`, 1 by default on sacrebleu's command line).
    pub width: usize,
    /// The score alone (`-b`), without the head and the figures after it.
    pub score_only: bool,
}

/// Appends the line of one sentence's statistics `row` (see [`bleu`]), newline included.
///
/// ```
/// use mtalign_core::metrics::bleu::BleuConfig;
/// use mtalign_core::metrics::bleu_lines::{write_line, LineFormat};
/// let cfg = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
/// // 3 hypothesis tokens, 4 reference tokens, matches 3/2/1/0 of totals 3/2/1/0
/// let row = [3.0, 4.0, 3.0, 2.0, 1.0, 0.0, 3.0, 2.0, 1.0, 0.0, 3.0, 2.0, 1.0, 1.0];
/// let mut out = String::new();
/// write_line(&cfg, &row, &LineFormat { head: "BLEU = ", width: 1, score_only: false }, &mut out);
/// assert_eq!(out, "BLEU = 71.7 100.0/100.0/100.0/0.0 \
///                  (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)\n");
/// ```
pub fn write_line(cfg: &BleuConfig, row: &[f64], format: &LineFormat<'_>, out: &mut String) {
    let f = bleu::figures(cfg, row);
    if format.score_only {
        write_fixed(out, f.score, format.width);
        out.push('\n');
        return;
    }
    let (sys_len, ref_len) = (row[0], row[1]);
    // sacrebleu: ratio = hyp_len / ref_len, 0 without a reference length.
    let ratio = if ref_len != 0.0 {
        sys_len / ref_len
    } else {
        0.0
    };
    out.push_str(format.head);
    write_fixed(out, f.score, format.width);
    for (n, &p) in f.precisions[..cfg.max_order].iter().enumerate() {
        out.push(if n == 0 { ' ' } else { '/' });
        write_fixed(out, p, 1);
    }
    out.push_str(" (BP = ");
    write_fixed(out, f.bp, 3);
    out.push_str(" ratio = ");
    write_fixed(out, ratio, 3);
    out.push_str(" hyp_len = ");
    push_digits(out, sys_len as u64, 1);
    out.push_str(" ref_len = ");
    push_digits(out, ref_len as u64, 1);
    out.push_str(")\n");
}

/// The lines of hypotheses `hyps` against the reference streams `refs` (each as long as
/// `hyps`; segment `i`'s references are `refs[..][i]`), tokenized by `encoder`, as one text:
/// chunk by chunk on the current rayon pool (each chunk's texts tokenized, counted, scored
/// and printed while in cache): the text of each chunk, in segment order (joined, the
/// output; the caller copies them once, where the text goes).
///
/// ```
/// use mtalign_core::metrics::bleu::BleuConfig;
/// use mtalign_core::metrics::bleu_lines::{sentence_lines, LineFormat};
/// use mtalign_core::text::encoder::Encoder;
/// use mtalign_core::text::tokenize::Tokenizer;
/// let cfg = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
/// let encoder = Encoder::plain(Tokenizer::parse("13a", false).unwrap());
/// let format = LineFormat { head: "", width: 2, score_only: true };
/// let out = sentence_lines(&cfg, &encoder, &["The cat sat.", "x"], &[vec!["The cat sat.", "y"]],
///                          &format).unwrap();
/// assert_eq!(out.concat(), "100.00\n0.00\n");
/// ```
pub fn sentence_lines(
    cfg: &BleuConfig,
    encoder: &Encoder,
    hyps: &[&str],
    refs: &[Vec<&str>],
    format: &LineFormat<'_>,
) -> Result<Vec<String>> {
    if let Some(stream) = refs.iter().find(|stream| stream.len() != hyps.len()) {
        return Err(Error::Input(format!(
            "{} hypotheses but {} references in a stream",
            hyps.len(),
            stream.len()
        )));
    }
    let chunk_text = |(c, chunk): (usize, &[&str])| -> Result<String> {
        let start = c * CHUNK_PAIRS;
        let n_refs = refs.len();
        let ref_texts: Vec<&str> = (start..start + chunk.len())
            .flat_map(|i| refs.iter().map(move |stream| stream[i]))
            .collect();
        let mut ref_sets = RefSets::new();
        for i in 0..chunk.len() {
            ref_sets.push((i * n_refs..(i + 1) * n_refs).map(|r| r as u32));
        }
        let names: Vec<u32> = (start..start + chunk.len()).map(|i| i as u32).collect();
        let rows = match statistics_of_chunk(cfg, encoder, chunk, &ref_texts, &ref_sets, &names)? {
            Ok((rows, _vanished)) => rows, // sacrebleu scores such texts 0, silently
            Err(refusal) => return Err(refusal.error),
        };
        let mut out = String::with_capacity(chunk.len() * (format.head.len() + 80));
        for row in rows.chunks_exact(cfg.width()) {
            write_line(cfg, row, format, &mut out);
        }
        Ok(out)
    };
    hyps.par_chunks(CHUNK_PAIRS)
        .enumerate()
        .map(chunk_text)
        .collect::<Result<_>>()
}

/// [`sentence_lines`] of files' bytes: the hypotheses' file `hyp` and one file per
/// reference stream, each split into lines as sacrebleu reads a file
/// ([`crate::text::lines::stripped_lines`]), the files read in parallel. A file that is not
/// UTF-8 is an `Error::Input` naming it and the byte.
///
/// ```
/// use mtalign_core::metrics::bleu::BleuConfig;
/// use mtalign_core::metrics::bleu_lines::{lines_of_files, LineFormat};
/// use mtalign_core::text::encoder::Encoder;
/// use mtalign_core::text::tokenize::Tokenizer;
/// let cfg = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
/// let encoder = Encoder::plain(Tokenizer::parse("13a", false).unwrap());
/// let format = LineFormat { head: "", width: 1, score_only: true };
/// let out = lines_of_files(&cfg, &encoder, b"a b c d \r\nx\n", &[b"a b c d\ny"], &format);
/// assert_eq!(out.unwrap().concat(), "100.0\n0.0\n");
/// ```
pub fn lines_of_files(
    cfg: &BleuConfig,
    encoder: &Encoder,
    hyp: &[u8],
    refs: &[&[u8]],
    format: &LineFormat<'_>,
) -> Result<Vec<String>> {
    let not_utf8 =
        |what: String, at: usize| Error::Input(format!("{what}: not valid UTF-8 (byte {at})"));
    let (hyps, ref_lines) = rayon::join(
        || utf8_lines(hyp),
        || refs.par_iter().map(|r| utf8_lines(r)).collect::<Vec<_>>(),
    );
    let hyps = hyps.map_err(|at| not_utf8("the hypotheses".into(), at))?;
    let refs = ref_lines
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|at| not_utf8(format!("reference stream {}", i + 1), at)))
        .collect::<Result<Vec<_>>>()?;
    sentence_lines(cfg, encoder, &hyps, &refs, format)
}

/// Appends `x` with `decimals` digits after the point, the text of `format!("{x:.N$}")`
/// (and of Python's `f"{x:.Nf}"`): the exact binary value rounded half to even. Exact
/// integer arithmetic for what BLEU prints (0 or 1e-9..1e9, up to 4 decimals), a quarter of
/// the time of the general formatter; anything else goes to it.
fn write_fixed(out: &mut String, x: f64, decimals: usize) {
    const POW10: [u64; 5] = [1, 10, 100, 1_000, 10_000];
    if decimals >= POW10.len() {
        let _ = write!(out, "{x:.decimals$}");
        return;
    }
    let scaled = if x == 0.0 && x.is_sign_positive() {
        0
    } else if (1e-9..1e9).contains(&x) {
        // x = mant * 2^-k exactly, k in 1..=82 for this range (x < 2^30, 52 bits after it)
        let bits = x.to_bits();
        let mant = u128::from((bits & ((1 << 52) - 1)) | (1 << 52));
        let k = 1075 - ((bits >> 52) & 0x7ff) as u32;
        let num = mant * u128::from(POW10[decimals]);
        let (q, rem, half) = (num >> k, num & ((1 << k) - 1), 1u128 << (k - 1));
        q + u128::from(rem > half || (rem == half && q & 1 == 1))
    } else {
        let _ = write!(out, "{x:.decimals$}");
        return;
    };
    let scale = u128::from(POW10[decimals]);
    push_digits(out, (scaled / scale) as u64, 1);
    if decimals > 0 {
        out.push('.');
        push_digits(out, (scaled % scale) as u64, decimals);
    }
}

/// Appends `v` in decimal, zero-padded to at least `min_digits` digits.
fn push_digits(out: &mut String, mut v: u64, min_digits: usize) {
    let mut buf = [b'0'; 20];
    let mut i = buf.len();
    while v > 0 || buf.len() - i < min_digits {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    // ASCII digits only
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(smooth: &str, value: Option<f64>, row: &[f64], width: usize) -> String {
        let cfg = BleuConfig::new(4, smooth, value, "closest", true).unwrap();
        let mut out = String::new();
        let format = LineFormat {
            head: "BLEU|sig = ",
            width,
            score_only: false,
        };
        write_line(&cfg, row, &format, &mut out);
        out
    }

    /// Lines printed by sacrebleu 2.6.0 for these rows: `BLEU(effective_order=True,
    /// smooth_method=..., tokenize="none").sentence_score("a b c d e", ["a b c x e f"])
    /// .format(width, signature="sig")`, and `"q"` against `[""]`.
    #[test]
    fn lines_as_sacrebleu_prints_them() {
        // "a b c d e" against "a b c x e f": 5 tokens, 6 reference tokens
        let row = [
            5.0, 6.0, 4.0, 2.0, 1.0, 0.0, 5.0, 4.0, 3.0, 2.0, 5.0, 4.0, 3.0, 2.0,
        ];
        assert_eq!(
            line("exp", None, &row, 1),
            "BLEU|sig = 35.0 80.0/50.0/33.3/25.0 \
             (BP = 0.819 ratio = 0.833 hyp_len = 5 ref_len = 6)\n"
        );
        assert_eq!(
            line("floor", Some(0.1), &row, 3),
            "BLEU|sig = 23.395 80.0/50.0/33.3/5.0 \
             (BP = 0.819 ratio = 0.833 hyp_len = 5 ref_len = 6)\n"
        );
        // nothing matches: every figure 0, the ratio still printed
        let none = [
            1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0,
        ];
        assert_eq!(
            line("exp", None, &none, 1),
            "BLEU|sig = 0.0 0.0/0.0/0.0/0.0 (BP = 1.000 ratio = 0.000 hyp_len = 1 ref_len = 0)\n"
        );
    }

    /// The exact formatter writes what the general one writes (which rounds as Python):
    /// random doubles of every magnitude it takes, BLEU-like quotients, exact ties.
    #[test]
    fn fixed_equals_the_general_formatter() {
        let mut values = vec![
            0.0, -0.0, 0.05, 0.25, 0.125, 18.75, 6.25, 2.5, 99.95, 1e-9, 1e9,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let magnitude = (state % 24) as i32 - 10;
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            values.push(unit * 10f64.powi(magnitude));
        }
        for t in 1..200u32 {
            for c in 0..=t {
                values.push(100.0 * f64::from(c) / f64::from(t));
                values.push(100.0 / (2.0 * f64::from(t)));
                values.push(f64::from(c) / f64::from(t));
            }
        }
        values.extend([f64::NAN, f64::INFINITY, -1.5, 5e-10, 2e9, 1e300]);
        for x in values {
            for decimals in 0..7 {
                let mut ours = String::new();
                write_fixed(&mut ours, x, decimals);
                assert_eq!(ours, format!("{x:.decimals$}"), "{x:e} to {decimals}");
            }
        }
    }

    #[test]
    fn streams_of_another_length_are_refused() {
        let cfg = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
        let encoder =
            Encoder::plain(crate::text::tokenize::Tokenizer::parse("13a", false).unwrap());
        let format = LineFormat {
            head: "",
            width: 1,
            score_only: true,
        };
        assert!(sentence_lines(&cfg, &encoder, &["a"], &[vec![]], &format).is_err());
    }

    /// Many chunks come back in segment order, each line the line of its pair alone.
    #[test]
    fn chunks_keep_segment_order() {
        let cfg = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
        let encoder =
            Encoder::plain(crate::text::tokenize::Tokenizer::parse("13a", false).unwrap());
        let format = LineFormat {
            head: "B = ",
            width: 2,
            score_only: false,
        };
        let texts: Vec<String> = (0..3 * CHUNK_PAIRS + 7)
            .map(|i| format!("w{} x y z {}", i % 13, i % 5))
            .collect();
        let hyps: Vec<&str> = texts.iter().map(String::as_str).collect();
        let refs: Vec<&str> = texts.iter().rev().map(String::as_str).collect();
        let all =
            sentence_lines(&cfg, &encoder, &hyps, std::slice::from_ref(&refs), &format).unwrap();
        assert_eq!(all.len(), 4);
        let alone: String = (0..hyps.len())
            .map(|i| {
                sentence_lines(&cfg, &encoder, &hyps[i..=i], &[vec![refs[i]]], &format)
                    .unwrap()
                    .concat()
            })
            .collect();
        let all = all.concat();
        assert_eq!(all, alone);
    }
}
