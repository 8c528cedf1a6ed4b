//! mtalign's Python exceptions and the one map from core errors to them.

use mtalign_core::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

// Named under `mtalign.errors` (which re-exports these very classes), so `__module__` is
// importable and the exceptions pickle by reference: they cross process boundaries
// (multiprocessing, concurrent.futures) with their message.
pyo3::create_exception!(
    mtalign.errors,
    MtalignError,
    PyValueError,
    "Base class of mtalign's errors (a ValueError)."
);
pyo3::create_exception!(
    mtalign.errors,
    ConfigError,
    MtalignError,
    "An option that cannot be used (unknown variant, beta <= 0, ...)."
);
pyo3::create_exception!(
    mtalign.errors,
    InputError,
    MtalignError,
    "Data that cannot be scored (mismatched lengths, empty reference lists, wrong types)."
);

pub(crate) fn to_py(e: Error) -> PyErr {
    match e {
        Error::Config(m) => ConfigError::new_err(m),
        Error::Input(m) => InputError::new_err(m),
        // Only returned after a Ctrl-C, whose KeyboardInterrupt is normally raised first.
        Error::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(()),
    }
}

pub(crate) fn input_err(msg: String) -> PyErr {
    InputError::new_err(msg)
}

/// The exception classes, added to the module once.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MtalignError", py.get_type::<MtalignError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    Ok(())
}
