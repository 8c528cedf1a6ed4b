//! The one entry from Python into long native work: GIL released, private pool, errors
//! converted.

use crate::errors::to_py;
use mtalign_core::{pool, Error};
use pyo3::prelude::*;

/// Runs `f` with the GIL released, on the private pool, converting core errors.
pub(crate) fn run_detached<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> PyResult<R> {
    py.detach(|| pool::run(threads, f).and_then(|r| r))
        .map_err(to_py)
}
