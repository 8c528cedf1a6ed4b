//! Readers for lexical translation tables, all returning (e, f, p(e|f)) entries where e is a
//! word of the language whose similarity is wanted (the MT output's) and f a pivot word.
//! NULL pivots are skipped (they are not words of the other language). Malformed lines are
//! errors naming the file and the line.
//!
//! | format | line | meaning |
//! |---|---|---|
//! | `tsv` | `e<TAB>f<TAB>p` | p(e\|f) |
//! | `fast_align` (`-p` output) | `f<TAB>e<TAB>ln p` | ln p(e\|f); `<eps>` is NULL |
//! | `moses` (`lex.f2e`, or `lex.e2f` for the other language) | `a b p` | p(a\|b); `NULL` skipped |
//! | `giza` (t-table with both `.vcb` files) | `src_id tgt_id p` | p(tgt\|src); id 0 is NULL |

use crate::{Error, Result};
use rustc_hash::FxHashMap;

/// One table entry: (e, f, p(e|f)).
pub type Entry = (String, String, f64);

/// The table formats the readers accept (see the module docs).
pub const FORMATS: [&str; 4] = ["tsv", "fast_align", "moses", "giza"];

fn bad(name: &str, line: usize, msg: impl std::fmt::Display) -> Error {
    Error::Input(format!("{name}: line {line}: {msg}"))
}

fn parse_prob(s: &str, name: &str, line: usize) -> Result<f64> {
    let p: f64 = s
        .parse()
        .map_err(|_| bad(name, line, format!("{s:?} is not a number")))?;
    if !(p.is_finite() && (0.0..=1.0).contains(&p)) {
        return Err(bad(
            name,
            line,
            format!("probability {s} is outside [0, 1]"),
        ));
    }
    Ok(p)
}

/// Non-empty lines with their 1-based numbers (a trailing `\r` dropped).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
}

fn fields<'a, const K: usize>(
    line: &'a str,
    tabs: bool,
    name: &str,
    n: usize,
    layout: &str,
) -> Result<[&'a str; K]> {
    let parts: Vec<&str> = if tabs {
        line.split('\t').collect()
    } else {
        line.split_whitespace().collect()
    };
    parts.try_into().map_err(|p: Vec<&str>| {
        bad(
            name,
            n,
            format!("expected {layout} (got {} fields)", p.len()),
        )
    })
}

/// `e<TAB>f<TAB>p(e|f)`.
pub fn parse_tsv(text: &str, name: &str) -> Result<Vec<Entry>> {
    lines(text)
        .map(|(n, l)| {
            let [e, f, p] = fields::<3>(l, true, name, n, "e<TAB>f<TAB>p")?;
            Ok((e.to_string(), f.to_string(), parse_prob(p, name, n)?))
        })
        .collect()
}

/// fast_align `-p`: `f<TAB>e<TAB>ln p(e|f)`.
pub fn parse_fast_align(text: &str, name: &str) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (n, l) in lines(text) {
        let [f, e, lp] = fields::<3>(l, true, name, n, "f<TAB>e<TAB>log-probability")?;
        let v: f64 = lp
            .parse()
            .map_err(|_| bad(name, n, format!("{lp:?} is not a number")))?;
        if v.is_nan() || v > 0.0 {
            return Err(bad(name, n, format!("log-probability {lp} is not <= 0")));
        }
        if f != "<eps>" {
            out.push((e.to_string(), f.to_string(), v.exp()));
        }
    }
    Ok(out)
}

/// Moses `lex.f2e` (`e f p(e|f)`) or `lex.e2f` (`f e p(f|e)`): `a b p(a|b)`.
pub fn parse_moses(text: &str, name: &str) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (n, l) in lines(text) {
        let [a, b, p] = fields::<3>(l, false, name, n, "word word probability")?;
        let p = parse_prob(p, name, n)?;
        if a != "NULL" && b != "NULL" {
            out.push((a.to_string(), b.to_string(), p));
        }
    }
    Ok(out)
}

/// A GIZA++ `.vcb` file: `id word count`.
pub fn parse_vcb(text: &str, name: &str) -> Result<FxHashMap<u32, String>> {
    let mut out = FxHashMap::default();
    for (n, l) in lines(text) {
        let [id, w, _count] = fields::<3>(l, false, name, n, "id word count")?;
        let id: u32 = id
            .parse()
            .map_err(|_| bad(name, n, format!("{id:?} is not a word id")))?;
        out.insert(id, w.to_string());
    }
    Ok(out)
}

/// A GIZA++ t-table `src_id tgt_id p(tgt|src)` (e.g. `*.t3.final`), with the source and
/// target vocabularies: entries (target word, source word, p). Source id 0 is NULL.
pub fn parse_giza(
    text: &str,
    name: &str,
    src_vcb: &FxHashMap<u32, String>,
    tgt_vcb: &FxHashMap<u32, String>,
) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (n, l) in lines(text) {
        let [s, t, p] = fields::<3>(l, false, name, n, "src_id tgt_id probability")?;
        let id = |x: &str| -> Result<u32> {
            x.parse()
                .map_err(|_| bad(name, n, format!("{x:?} is not a word id")))
        };
        let (s, t, p) = (id(s)?, id(t)?, parse_prob(p, name, n)?);
        if s == 0 {
            continue;
        }
        let sw = src_vcb
            .get(&s)
            .ok_or_else(|| bad(name, n, format!("source id {s} is not in the source .vcb")))?;
        let tw = tgt_vcb
            .get(&t)
            .ok_or_else(|| bad(name, n, format!("target id {t} is not in the target .vcb")))?;
        out.push((tw.clone(), sw.clone(), p));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_agree() {
        let tsv = parse_tsv("school\t学校\t0.9\n", "a").unwrap();
        let fa = parse_fast_align(
            &format!("学校\tschool\t{}\n<eps>\tthe\t-1\n", 0.9f64.ln()),
            "b",
        )
        .unwrap();
        let moses = parse_moses("school 学校 0.9000000\nNULL x 0.1\n", "c").unwrap();
        let sv: FxHashMap<u32, String> = [(2, "学校".to_string())].into_iter().collect();
        let tv: FxHashMap<u32, String> = [(5, "school".to_string())].into_iter().collect();
        let giza = parse_giza("0 5 0.1\n2 5 0.9\n", "d", &sv, &tv).unwrap();
        for got in [&fa, &moses, &giza] {
            assert_eq!(got.len(), 1);
            assert_eq!((got[0].0.as_str(), got[0].1.as_str()), ("school", "学校"));
            assert!((got[0].2 - tsv[0].2).abs() < 1e-12);
        }
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse_tsv("a\tb\t0.5\na\tb\n", "t.tsv").unwrap_err();
        assert!(e.to_string().starts_with("t.tsv: line 2:"), "{e}");
        let e = parse_moses("a b 1.5\n", "lex.f2e").unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        let e = parse_fast_align("a\tb\t0.3\n", "fa").unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        let e = parse_tsv("a\tb\tnan\n", "t").unwrap_err();
        assert!(e.to_string().contains("outside"), "{e}");
    }
}
