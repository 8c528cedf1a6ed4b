//! Fuzz properties over the public API: tokenizers and stemmers on arbitrary (and long)
//! text never panic; every kernel equals its quadratic oracle or keeps its invariants on
//! random, repetitive and long inputs. `scripts/fuzz.sh` runs these (and the unit
//! proptests) for a fixed time with more cases.

use mtalign_core::kernels::edit_distance::{distance, distance_dp};
use mtalign_core::kernels::lcs::{lcs_length, lcs_length_dp};
use mtalign_core::kernels::ngram::ngram_overlap;
use mtalign_core::kernels::skip_bigram::{skip_bigram_count, skip_bigram_overlap};
use mtalign_core::kernels::wlcs::wlcs;
use mtalign_core::metrics::dcs::dcs;
use mtalign_core::text::stem::Stemmer;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use proptest::prelude::*;

/// Text from a mix of scripts, spaces, punctuation, digits and combining marks.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", "B", "é", "ß", "İ", "ﬁ", "学校", "に", "😀", "\u{301}", " ", "\t", "\n", "\r\n",
        "\u{a0}", "\u{2028}", ",", ".", "-", "'", "\"", "&amp;", "<b>", "1", "3.14", "$", "٣", "ا",
        "\u{200d}", "\u{feff}", "\u{0}",
    ]);
    prop::collection::vec(pieces, 0..200).prop_map(|v| v.concat())
}

fn repetitive(alphabet: u32, max_len: usize) -> impl Strategy<Value = Vec<u32>> {
    (prop::collection::vec(0..alphabet, 1..6), 1..max_len)
        .prop_map(|(unit, len)| unit.iter().copied().cycle().take(len).collect())
}

/// Cases per property: few in the test suite (debug builds), `PROPTEST_CASES` in
/// `scripts/fuzz.sh`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn tokenizers_never_panic(s in text(), lowercase in any::<bool>()) {
        for name in TokenizerKind::NAMES {
            if let Ok(t) = Tokenizer::parse(name, lowercase) {
                let _ = t.tokenize(&s);
            }
        }
    }

    #[test]
    fn tokenizers_on_big_text(s in text(), reps in 1usize..200) {
        let long = s.repeat(reps);
        for name in TokenizerKind::NAMES {
            if let Ok(t) = Tokenizer::parse(name, false) {
                let _ = t.tokenize(&long);
            }
        }
    }

    #[test]
    fn stemmers_never_panic(s in text()) {
        for name in Stemmer::NAMES {
            if let Ok(st) = Stemmer::parse(name) {
                for w in s.split_whitespace() {
                    let _ = st.stem(w);
                }
            }
        }
    }

    #[test]
    fn lcs_and_edit_distance_equal_their_oracles(
        a in prop::collection::vec(0u32..6, 0..300),
        b in repetitive(6, 300),
    ) {
        prop_assert_eq!(lcs_length(&a, &b), lcs_length_dp(&a, &b));
        prop_assert_eq!(distance(&a, &b), distance_dp(&a, &b));
    }

    #[test]
    fn kernel_invariants_on_big_inputs(
        a in repetitive(8, 2000),
        b in prop::collection::vec(0u32..8, 0..2000),
        n in 1usize..6,
        gap in prop::option::of(0usize..50),
    ) {
        let c = ngram_overlap(&a, &b, n);
        prop_assert!(c.hit <= c.hyp_total.min(c.ref_total));
        let s = skip_bigram_overlap(&a, &b, gap, true);
        prop_assert!(s.hit <= s.hyp_total.min(s.ref_total));
        prop_assert_eq!(s.hyp_total as usize, skip_bigram_count(a.len(), gap) + a.len());
        let same = skip_bigram_overlap(&a, &a, gap, true);
        prop_assert_eq!(same.hit, same.hyp_total);
        let w = wlcs(&a, &b, 1.2);
        prop_assert!(w.is_finite() && w >= 0.0);
        let d = dcs(&a, &b);
        prop_assert!(d.iter().all(|x| x.is_finite() && *x >= 0.0));
    }
}
