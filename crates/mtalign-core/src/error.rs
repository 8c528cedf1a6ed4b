//! Errors of the core: a bad option (configuration) or bad data (input).
//!
//! The bindings map `Config` to `mtalign.ConfigError` and `Input` to `mtalign.InputError`,
//! both subclasses of `mtalign.MtalignError` (a `ValueError`).

use std::fmt;

/// What can go wrong in the core; its `Display` is the message shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An option that cannot be used: unknown variant, `beta <= 0`, unknown tokenizer, ...
    Config(String),
    /// Data that cannot be scored: mismatched lengths, empty reference lists, ...
    Input(String),
    /// The work was cancelled (a Ctrl-C in the caller): nothing was computed.
    Interrupted,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config(msg) | Error::Input(msg) => f.write_str(msg),
            Error::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;
