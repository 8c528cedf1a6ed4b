//! The one entry from Python into native work: small work runs right here (the GIL held, no
//! pool: handing one sentence pair to a thread pool costs more than scoring it), long work
//! runs with the GIL released on the private pool; core errors become Python exceptions and
//! a Ctrl-C pressed meanwhile becomes `KeyboardInterrupt` before any result is built.

use crate::errors::to_py;
use mtalign_core::{pool, Error};
use pyo3::prelude::*;

/// Work of at most this many pairs and text bytes runs inline. Measured on one 15-word pair:
/// inline ≈ 1 µs in all, through `detach` + the pool ≈ 20 µs.
pub(crate) const INLINE_PAIRS: usize = 16;
pub(crate) const INLINE_BYTES: usize = 16 * 1024;

/// Whether work of `pairs` pairs over `bytes` bytes of text is small enough to run inline.
pub(crate) fn is_small(pairs: usize, bytes: usize) -> bool {
    pairs <= INLINE_PAIRS && bytes <= INLINE_BYTES
}

/// Runs `f`: inline when `small`, else with the GIL released on the pool of `threads`.
pub(crate) fn enter<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    small: bool,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> PyResult<R> {
    if small {
        // The thread setting is checked even when no thread is used, so a bad value (or a
        // bad MTALIGN_NUM_THREADS) fails the same way for one pair as for a million.
        pool::check_threads(threads).map_err(to_py)?;
        return f().map_err(to_py);
    }
    let out = py.detach(|| pool::run(threads, f).and_then(|r| r));
    // A signal that arrived during the work is raised now, as KeyboardInterrupt, rather than
    // failing later inside NumPy's import machinery.
    py.check_signals()?;
    out.map_err(to_py)
}

/// [`enter`] for long work (always detached).
pub(crate) fn run_detached<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> PyResult<R> {
    enter(py, threads, false, f)
}
