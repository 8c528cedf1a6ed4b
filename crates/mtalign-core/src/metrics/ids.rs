//! A metric over token ids ([`crate::text::ids`]): the ids encoded as the metric's
//! [`Encoder`] would encode the same words as text, then the one batch runner.

use crate::metrics::metric::{statistics_batch, Metric};
use crate::text::encoder::Encoder;
use crate::text::ids::{IdMapping, IdSeqs};
use crate::text::refs::RefSets;
use crate::{Error, Result};

/// Statistics rows (row-major, `metric.width()` each) of hypothesis `i` of `hyps` against
/// its references, the sequences of `refs` (its parts' in order): reference `i` alone when
/// `ref_ends` is None (one reference per hypothesis), else references
/// `ref_ends[i-1]..ref_ends[i]`. Rows equal those of the same ids given as text,
/// space-joined, with a whitespace tokenizer, and a line break for each `line_sep` id. Runs
/// on the current rayon pool (inline for a few pairs).
pub fn statistics_of_ids<M: Metric>(
    metric: &M,
    encoder: &Encoder,
    hyps: &IdSeqs<'_>,
    refs: &[IdSeqs<'_>],
    ref_ends: Option<&[i64]>,
    line_sep: Option<i64>,
) -> Result<Vec<f64>> {
    let n = hyps.len();
    let ref_sets = ref_sets_of(n, refs.iter().map(IdSeqs::len).sum(), ref_ends)?;
    // A metric that sees ids only through their equality within a pair takes small ids as
    // they are; any other gets the text path's numbering.
    let mapping = if M::PAIR_LOCAL_IDS {
        IdMapping::Direct
    } else {
        IdMapping::Dense
    };
    let mut parts = Vec::with_capacity(1 + refs.len());
    parts.push(*hyps);
    parts.extend_from_slice(refs);
    let encoded = encoder.encode_ids(&parts, mapping, line_sep)?;
    let hyp_ids: Vec<u32> = (0..n as u32).collect();
    statistics_batch(metric, &encoded.docs()?, &hyp_ids, &ref_sets)
}

/// The reference set of each of `n` hypotheses: text `n + i` (`ref_ends` None), else texts
/// `n + ref_ends[i-1]..n + ref_ends[i]` of the `m` references.
fn ref_sets_of(n: usize, m: usize, ref_ends: Option<&[i64]>) -> Result<RefSets> {
    let mut sets = RefSets::new();
    let Some(ends) = ref_ends else {
        if m != n {
            return Err(Error::Input(format!("hyps has {n} items but refs has {m}")));
        }
        (0..n).for_each(|i| sets.push([(n + i) as u32]));
        return Ok(sets);
    };
    if ends.len() != n {
        return Err(Error::Input(format!(
            "hyps has {n} items but refs has {}",
            ends.len()
        )));
    }
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        if end < start || end as usize > m {
            return Err(Error::Input(format!(
                "the reference sets' ends must grow from 0 to {m} (refs[{i}] ends at {end})"
            )));
        }
        sets.push((start as usize..end as usize).map(|k| (n + k) as u32));
        start = end;
    }
    if start as usize != m {
        return Err(Error::Input(format!(
            "the reference sets hold {start} of {m} references"
        )));
    }
    sets.check(n)?;
    Ok(sets)
}
