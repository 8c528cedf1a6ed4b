//! `sacrebleu_bleu_lines`: the lines of `mtalign sacrebleu -sl` (BLEU) from the bytes of its
//! files, computed by `mtalign_core::metrics::bleu_lines` on the pool.

use crate::enter::run_detached;
use crate::errors::to_py;
use mtalign_core::metrics::bleu::BleuConfig;
use mtalign_core::metrics::bleu_lines::{lines_of_files, LineFormat};
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// sacrebleu's `-sl` output (UTF-8) for hypotheses `hyp` against the reference streams
/// `refs` (each the bytes of a UTF-8 file, one segment a line, split on newlines and
/// right-stripped as sacrebleu reads them; as many lines in each): BLEU of each segment
/// with the given options, printed after `head` with `width` decimals (`score_only`: the
/// score alone).
#[pyfunction]
#[pyo3(signature = (hyp, refs, max_order, smooth, smooth_value, effective_order, tokenize,
                    lowercase, head, width, score_only, threads=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sacrebleu_bleu_lines<'py>(
    py: Python<'py>,
    hyp: &Bound<'py, PyBytes>,
    refs: Vec<Bound<'py, PyBytes>>,
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    tokenize: &str,
    lowercase: bool,
    head: &str,
    width: usize,
    score_only: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let cfg = BleuConfig::new(max_order, smooth, smooth_value, "closest", effective_order)
        .map_err(to_py)?;
    let encoder = Encoder::plain(Tokenizer::parse(tokenize, lowercase).map_err(to_py)?);
    let hyp_bytes = hyp.as_bytes();
    let ref_bytes: Vec<&[u8]> = refs.iter().map(|r| r.as_bytes()).collect();
    let format = LineFormat {
        head,
        width,
        score_only,
    };
    let out = run_detached(py, threads, || {
        lines_of_files(&cfg, &encoder, hyp_bytes, &ref_bytes, &format)
    });
    if out.is_err() {
        // A file that is not UTF-8: Python's own UnicodeDecodeError, which names the
        // reason and the byte as `bytes.decode` does.
        for data in std::iter::once(hyp).chain(&refs) {
            data.call_method1("decode", ("utf-8",))?;
        }
    }
    let parts = out?;
    let len = parts.iter().map(String::len).sum();
    PyBytes::new_with(py, len, |buf| {
        let mut at = 0;
        for part in &parts {
            buf[at..at + part.len()].copy_from_slice(part.as_bytes());
            at += part.len();
        }
        Ok(())
    })
}

/// Registers the function.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sacrebleu_bleu_lines, m)?)
}
