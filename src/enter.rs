//! The one entry from Python into native work: small work runs right here (the GIL held, no
//! pool: handing one sentence pair to a thread pool costs more than scoring it), long work
//! runs with the GIL released on the private pool; core errors become Python exceptions and
//! a Ctrl-C pressed meanwhile becomes `KeyboardInterrupt` before any result is built.

use crate::errors::to_py;
use mtalign_core::{pool, Error};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Nanoseconds spent in native work with the GIL released, summed over calls from any thread
/// ([`detached_seconds`]).
static DETACHED_NS: AtomicU64 = AtomicU64::new(0);

/// Seconds spent with the GIL released in native work since the module was loaded: a call's
/// time minus its growth is the call's serial part, the time it held the GIL (the
/// benchmarks' serial fraction, `benches/bench_serial.py`).
#[pyfunction]
pub(crate) fn _detached_seconds() -> f64 {
    DETACHED_NS.load(Ordering::Relaxed) as f64 * 1e-9
}

/// Work of at most this many pairs (the core's bound, see `metrics::metric::INLINE_PAIRS`:
/// a pool hand-off costs ~30 µs) and text bytes runs inline, the GIL held. The byte bound
/// keeps long documents off the calling thread, where they would hold the GIL and ignore
/// Ctrl-C.
pub(crate) const INLINE_PAIRS: usize = mtalign_core::metrics::metric::INLINE_PAIRS;
pub(crate) const INLINE_BYTES: usize = 32 * 1024;
/// ... and at most this many bytes a pair on average: one pair of 16 KiB texts can take
/// seconds in a quadratic kernel (SIA's chains), where Ctrl-C must still be heard.
pub(crate) const INLINE_PAIR_BYTES: usize = 4 * 1024;

/// Whether work of `pairs` pairs over `bytes` bytes of text is small enough to run inline.
pub(crate) fn is_small(pairs: usize, bytes: usize) -> bool {
    pairs <= INLINE_PAIRS && bytes <= INLINE_BYTES && bytes <= pairs * INLINE_PAIR_BYTES
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
        let out = f().map_err(to_py);
        // A signal that arrived meanwhile is raised here, before any array is built (the
        // first array imports NumPy's API, where a pending KeyboardInterrupt would panic).
        py.check_signals()?;
        return out;
    }
    warn_if_capped(py, threads)?;
    let mut pending: Option<PyErr> = None;
    let started = Instant::now();
    let out = py.detach(|| {
        pool::run_interruptible(threads, f, || interrupted(&mut pending)).and_then(|r| r)
    });
    DETACHED_NS.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
    if let Some(e) = pending {
        return Err(e);
    }
    // A signal that arrived during the work is raised now, as KeyboardInterrupt, rather than
    // failing later inside NumPy's import machinery.
    py.check_signals()?;
    out.map_err(to_py)
}

/// Polled every `pool::POLL` while detached work runs: re-attaches briefly and runs
/// Python's signal handlers (on the main thread; elsewhere a no-op). A handler's exception
/// (KeyboardInterrupt for Ctrl-C) is kept for the caller and stops the work between pairs.
fn interrupted(pending: &mut Option<PyErr>) -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            *pending = Some(e);
            true
        }
    })
}

/// A `RuntimeWarning` when more threads are asked for than a pool gets.
fn warn_if_capped(py: Python<'_>, threads: Option<usize>) -> PyResult<()> {
    let asked = match threads {
        Some(n) => n,
        None => pool::default_threads().map_err(to_py)?,
    };
    if pool::capped_threads(asked).1 {
        let msg = std::ffi::CString::new(format!(
            "{asked} threads asked for; using {} (4 per core, at least 16)",
            pool::max_threads()
        ))
        .unwrap_or_default();
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
            &msg,
            1,
        )?;
    }
    Ok(())
}

/// [`enter`] for long work (always detached).
pub(crate) fn run_detached<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> PyResult<R> {
    enter(py, threads, false, f)
}
