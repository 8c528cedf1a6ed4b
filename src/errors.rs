//! mtalign's Python exceptions and the one map from core errors to them.

use mtalign_core::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _mtalign,
    MtalignError,
    PyValueError,
    "Base class of mtalign's errors (a ValueError)."
);
pyo3::create_exception!(
    _mtalign,
    ConfigError,
    MtalignError,
    "An option that cannot be used (unknown variant, beta <= 0, ...)."
);
pyo3::create_exception!(
    _mtalign,
    InputError,
    MtalignError,
    "Data that cannot be scored (mismatched lengths, empty reference lists, wrong types)."
);

pub(crate) fn to_py(e: Error) -> PyErr {
    match e {
        Error::Config(m) => ConfigError::new_err(m),
        Error::Input(m) => InputError::new_err(m),
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
