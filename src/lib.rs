//! PyO3 bindings of mtalign, by concept: [`errors`] (exceptions and the one error map),
//! [`convert`] (Python objects in, NumPy arrays out), [`enter`] (the one entry into native
//! work: GIL released, pool, errors, Ctrl-C), [`batch`] (the batch methods every metric
//! shares), [`ids`] (token id arrays in), [`metrics`] (the one list of native metrics, the
//! one class `NativeMetric`, SIA), [`kernels`] (bare kernels, tokenizers, stemmers). All
//! computation lives in `mtalign-core`.

mod batch;
mod convert;
mod enter;
mod errors;
mod ids;
mod kernels;
mod methods;
mod metrics;
mod ranking;
mod sacrebleu;

use pyo3::prelude::*;

#[pymodule]
fn _mtalign(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    metrics::register(m)?;
    kernels::register(m)?;
    ranking::register(m)?;
    sacrebleu::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
