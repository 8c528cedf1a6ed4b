//! One module per metric: its configuration, sufficient statistics per sentence pair and
//! scores, built from [`crate::kernels`] over ids from [`crate::text`].

pub mod bleu;
pub mod dcs;
pub mod error_rate;
pub mod nist;
pub mod ribes;
pub mod rouge;
pub mod sia;
